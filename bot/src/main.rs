//! The `kodex` binary: reads the configuration, opens the database, starts
//! the clock scheduler and the platforms — the console chat when no platform
//! token is configured (or with `kodex console`); `kodex render` draws a
//! position; `kodex uci` speaks UCI; `kodex migrate-db` copies a database
//! into another (SQLite to PostgreSQL). `kodex --help` lists it all.

use clap::{Arg, Command};
use kodex_bot::config::Config;
use kodex_bot::console::Console;
use kodex_bot::time::SystemTime;
use kodex_bot::Service;
use kodex_engine::Registry;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// The environment, shown under `kodex --help`.
const ENVIRONMENT: &str = "\
Environment: KODEX_DISCORD_TOKEN, KODEX_TELEGRAM_TOKEN, KODEX_DATABASE_URL,
KODEX_BOARDS_DIR, KODEX_TEXT_BOARDS, KODEX_CHALLENGE_EXPIRY_SECS, KODEX_DEFAULT_LANG,
KODEX_MAX_OPEN_CHALLENGES, KODEX_MAX_RUNNING_GAMES,
KODEX_VARIANTS_DIR, KODEX_LOG, KODEX_DISCORD_THREADS (a thread per game),
KODEX_DISCORD_GUILD (one guild for development), KODEX_DISCORD_API_URL (an API
proxy that limits requests itself) and KODEX_DISCORD_RATE_LIMITER (auto, on, off),
KODEX_TELEGRAM_API_URL, KODEX_TELEGRAM_WEBHOOK_URL, KODEX_TELEGRAM_WEBHOOK_LISTEN,
KODEX_TELEGRAM_BOARDS_AS_FILES, KODEX_COMPUTER_SEARCHES (whether this process searches for
the computer), KODEX_COMPUTER_SEARCHERS (searches at once; 0: one fewer than the cores).";

/// The command line.
fn cli() -> Command {
    let config = Arg::new("config")
        .long("config")
        .value_name("PATH")
        .global(true)
        .value_parser(clap::value_parser!(PathBuf))
        .help("Read settings from this TOML file (over the built-in defaults)");
    Command::new("kodex")
        .about("Kodex: chess variants in Discord, Telegram and a local console chat")
        .version(env!("CARGO_PKG_VERSION"))
        .arg(config)
        .after_help(ENVIRONMENT)
        .subcommand(Command::new("run").about(
            "Run the bot (the default): Discord and Telegram when their tokens are set, \
             else the local console chat",
        ))
        .subcommand(
            Command::new("console")
                .about("Run the local console chat, even when platform tokens are set"),
        )
        .subcommand(
            Command::new("render")
                .about("Draw one position of any variant as a PNG (kodex render --help)")
                .disable_help_flag(true)
                .arg(
                    Arg::new("options")
                        .num_args(0..)
                        .trailing_var_arg(true)
                        .allow_hyphen_values(true)
                        .help("--variant <v> --fen <fen> [--pov …] [--fog …] [--lastmove …] --out <file.png>"),
                ),
        )
        .subcommand(
            Command::new("migrate-db")
                .about(
                    "Copy every game, clock, rating and setting of one database into another, \
                     empty one (a SQLite file to PostgreSQL); run it with the bot stopped",
                )
                .arg(
                    Arg::new("from")
                        .long("from")
                        .value_name("URL")
                        .required(true)
                        .help("The database to copy (sqlite://kodex.db)"),
                )
                .arg(
                    Arg::new("to")
                        .long("to")
                        .value_name("URL")
                        .required(true)
                        .help("The empty database to fill (postgres://user@host/db)"),
                ),
        )
        .subcommand(Command::new("worker").about(
            "Run the computer opponent's searches only, for the bots on the same database \
             (PostgreSQL, or a SQLite file on this machine): no platform, no clocks",
        ))
        .subcommand(Command::new("uci").about(
            "Speak UCI on standard input and output: perft, and the computer player \
             for every variant (Skill Level 1-8)",
        ))
}

/// What the command line asked for.
struct Args {
    console: bool,
    worker: bool,
    config: Option<PathBuf>,
}

#[tokio::main]
async fn main() -> ExitCode {
    let matches = cli().get_matches();
    let args = Args {
        console: matches.subcommand_name() == Some("console"),
        worker: matches.subcommand_name() == Some("worker"),
        config: matches.get_one::<PathBuf>("config").cloned(),
    };
    match matches.subcommand() {
        Some(("render", render)) => {
            let options = render.get_many::<String>("options").into_iter().flatten();
            return kodex_render::cli::main(options.cloned());
        }
        Some(("migrate-db", urls)) => {
            let url = |name: &str| urls.get_one::<String>(name).cloned().unwrap_or_default();
            return match kodex_bot::store::migrate_db(&url("from"), &url("to")).await {
                Ok(copied) => {
                    for (table, rows) in copied.tables {
                        println!("{table}: {rows} rows");
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("kodex migrate-db: {e}");
                    ExitCode::FAILURE
                }
            };
        }
        Some(("uci", _)) => {
            return match kodex_uci::run() {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("kodex uci: {e}");
                    ExitCode::FAILURE
                }
            };
        }
        _ => {}
    }
    let config = match Config::load(args.config.as_deref(), |name| std::env::var(name).ok()) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("kodex: {e}");
            return ExitCode::from(2);
        }
    };
    init_logging(&config.log.filter);
    let code = match run(args, config).await {
        Ok(()) => 0,
        Err(e) => {
            tracing::error!("{e}");
            eprintln!("kodex: {e}");
            1
        }
    };
    // Everything is stopped and the database closed. Exit now: the runtime
    // would otherwise wait for the console's blocking read of standard
    // input, which a signal does not end.
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    std::process::exit(code)
}

fn init_logging(filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
}

async fn run(args: Args, mut config: Config) -> Result<(), Box<dyn std::error::Error>> {
    if args.worker {
        return work(config).await;
    }
    let platforms = config.discord.token().is_some() || config.telegram.token().is_some();
    let console = args.console || !platforms;
    // The console shows text boards next to the image files it writes.
    config.boards.text |= console;
    let registry = registry_of(&config)?;
    let service = Service::open(&config, registry, Arc::new(SystemTime)).await?;
    let scheduler = service.spawn_scheduler();
    tracing::info!(database = %config.database.url, "service ready");
    let result = if console {
        tracing::info!("console chat: type `alice: /help`; end with Ctrl-D");
        let input = tokio::io::BufReader::new(tokio::io::stdin());
        let chat = Console::new(service.clone(), config.boards.dir.clone());
        tokio::select! {
            finished = chat.run(input) => finished.map_err(Into::into),
            () = stop_signal() => Ok(()),
        }
    } else {
        let env = |name: &str| std::env::var(name).ok();
        kodex_bot::app::run_platforms_until(&service, &config, &env, stop_signal())
            .await
            .map_err(|e| e as Box<dyn std::error::Error>)
    };
    // No flag falls while the database closes; the next start finds the
    // deadlines where they were.
    scheduler.abort();
    service.close().await;
    tracing::info!("stopped");
    result
}

/// `kodex worker`: the computer's searches asked for by every process on
/// the database, until a signal; no platform and no clocks.
async fn work(mut config: Config) -> Result<(), Box<dyn std::error::Error>> {
    config.computer.searches = true;
    let registry = registry_of(&config)?;
    let service = Service::open(&config, registry, Arc::new(SystemTime)).await?;
    tracing::info!(
        database = %config.database.url,
        searchers = service.config().searchers,
        "worker ready: searching for the computer"
    );
    stop_signal().await;
    service.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// The built-in variants and the operator's extra ones.
fn registry_of(config: &Config) -> Result<Registry, Box<dyn std::error::Error>> {
    let mut registry = Registry::builtin();
    if !config.variants.dir.trim().is_empty() {
        let dir = std::path::Path::new(config.variants.dir.trim());
        let added = kodex_bot::variants::load_variant_dir(&mut registry, dir)?;
        tracing::info!(added, dir = %config.variants.dir, "extra variants loaded");
    }
    Ok(registry)
}

/// Completes on SIGTERM (how service managers and containers stop a
/// process) or Ctrl-C (SIGINT). If a signal cannot be watched, only the
/// other one stops the bot.
async fn stop_signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::warn!(%error, "cannot watch for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                terminate.recv().await;
            }
            Err(error) => {
                tracing::warn!(%error, "cannot watch for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => tracing::info!("Ctrl-C: stopping"),
        () = terminate => tracing::info!("SIGTERM: stopping"),
    }
}
