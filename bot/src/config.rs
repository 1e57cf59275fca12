//! Configuration: the compiled-in defaults (`config/kodex.toml`), overridden by
//! an optional file and then by `KODEX_*` environment variables.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The defaults, compiled in so the binary runs with no file next to it.
const DEFAULTS: &str = include_str!("../../config/kodex.toml");

/// The whole configuration.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Storage.
    pub database: DatabaseConfig,
    /// Board images written by the console chat.
    pub boards: BoardsConfig,
    /// Game rules that are the operator's choice.
    pub games: GamesConfig,
    /// Extra variant definitions.
    pub variants: VariantsConfig,
    /// Discord.
    pub discord: DiscordSection,
    /// Telegram.
    pub telegram: TelegramSection,
    /// Logging.
    pub log: LogConfig,
    /// The computer opponent's searches.
    #[serde(default)]
    pub computer: ComputerConfig,
}

/// `[computer]`: which processes search for the computer opponent.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ComputerConfig {
    /// Whether this process runs the computer's searches (any process on
    /// the database may play a decision; `kodex worker` only searches).
    pub searches: bool,
    /// Searches at once in this process; 0: one fewer than the cores (at
    /// least one), so that a core stays free for people.
    pub searchers: usize,
}

impl Default for ComputerConfig {
    fn default() -> Self {
        ComputerConfig {
            searches: true,
            searchers: 0,
        }
    }
}

/// `[database]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DatabaseConfig {
    /// A sqlx URL: a SQLite file (`sqlite://kodex.db`) or PostgreSQL
    /// (`postgres://user@host/db`).
    pub url: String,
}

/// `[boards]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardsConfig {
    /// The folder the console writes PNG boards into.
    pub dir: PathBuf,
    /// Whether deliveries also carry a text board (always on in the console).
    pub text: bool,
}

/// `[games]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamesConfig {
    /// Seconds before an unanswered challenge expires.
    pub challenge_expiry_secs: u64,
    /// Language for users and chats that chose none.
    pub default_lang: String,
    /// Open challenges one person may have at once.
    #[serde(default = "default_max_open_challenges")]
    pub max_open_challenges: usize,
    /// Games in setup or play one person may have at once.
    #[serde(default = "default_max_running_games")]
    pub max_running_games: usize,
    /// Public seeks (`/playnow`, `/play … public`) one person may have at once.
    #[serde(default = "default_max_public_seeks")]
    pub max_public_seeks: usize,
    /// Unused invitations (`/invite`) one person may have at once.
    #[serde(default = "default_max_invites")]
    pub max_invites: usize,
    /// Tournaments one chat may have open or running at once.
    #[serde(default = "default_max_tournaments")]
    pub max_tournaments: usize,
    /// Players one tournament may take.
    #[serde(default = "default_max_tournament_players")]
    pub max_tournament_players: usize,
    /// Seconds a tournament player has for their first move (at most the
    /// clock's starting time) before losing the game without it.
    #[serde(default = "default_tournament_first_move_secs")]
    pub tournament_first_move_secs: u64,
}

fn default_max_tournaments() -> usize {
    2
}

fn default_max_tournament_players() -> usize {
    64
}

fn default_tournament_first_move_secs() -> u64 {
    60
}

fn default_max_public_seeks() -> usize {
    2
}

fn default_max_invites() -> usize {
    5
}

fn default_max_open_challenges() -> usize {
    10
}

fn default_max_running_games() -> usize {
    50
}

/// `[variants]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantsConfig {
    /// A folder of extra `*.toml` variant definitions; empty for none.
    pub dir: String,
}

/// `[discord]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscordSection {
    /// The bot token; empty when Discord is not used.
    pub token: String,
    /// Give each game started in a channel a thread of its own.
    pub threads: bool,
    /// A server id to register the slash commands in (development); empty:
    /// globally.
    #[serde(default)]
    pub guild: String,
    /// A REST base URL other than discord.com (an API proxy); empty for none.
    #[serde(default)]
    pub api_url: String,
    /// `auto` (serenity's limiter without `api_url`, the proxy's behind
    /// one), `on` (no `api_url`) or `off` (rate limits left to the proxy).
    #[serde(default = "default_rate_limiter")]
    pub rate_limiter: String,
    /// The gateway shards this process runs (`0-3/8`: shards 0 to 3 of 8);
    /// empty: one shard of one.
    #[serde(default)]
    pub shards: String,
}

fn default_rate_limiter() -> String {
    "auto".to_owned()
}

fn default_webhook_listen() -> String {
    "0.0.0.0:8443".to_owned()
}

impl DiscordSection {
    /// The token, when one is configured.
    pub fn token(&self) -> Option<&str> {
        configured(&self.token)
    }
}

/// `[telegram]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TelegramSection {
    /// The bot token; empty when the platform is not used.
    pub token: String,
    /// A Bot API server other than api.telegram.org; empty for none.
    #[serde(default)]
    pub api_url: String,
    /// The public HTTPS address of a webhook; empty: long polling.
    #[serde(default)]
    pub webhook_url: String,
    /// The local address the webhook server listens on.
    #[serde(default = "default_webhook_listen")]
    pub webhook_listen: String,
    /// The webhook's secret token, shared by every process behind one
    /// webhook URL (a load balancer); empty: a random one per start, and
    /// the webhook removed at a clean stop.
    #[serde(default)]
    pub webhook_secret: String,
    /// Send boards as files instead of photos.
    #[serde(default)]
    pub boards_as_files: bool,
}

impl TelegramSection {
    /// The token, when one is configured.
    pub fn token(&self) -> Option<&str> {
        configured(&self.token)
    }
}

/// A token as configured, `None` when empty.
fn configured(token: &str) -> Option<&str> {
    let token = token.trim();
    (!token.is_empty()).then_some(token)
}

/// `[log]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogConfig {
    /// A `tracing_subscriber::EnvFilter` directive.
    pub filter: String,
}

/// Why the configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read the configuration file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file (or the defaults) is not valid TOML or has unknown keys.
    #[error("invalid configuration in {origin}: {message}")]
    Invalid {
        /// Which file.
        origin: String,
        /// What is wrong.
        message: String,
    },
    /// An environment variable has a value of the wrong kind.
    #[error("invalid value of {variable}: {message}")]
    Environment {
        /// The variable.
        variable: &'static str,
        /// What is wrong.
        message: String,
    },
}

impl Config {
    /// The compiled-in defaults alone.
    pub fn defaults() -> Config {
        Config::from_table(defaults_table(), "the built-in defaults")
            .unwrap_or_else(|e| unreachable!("the built-in config/kodex.toml is valid: {e}"))
    }

    /// Defaults, then `file` (when given), then the environment as read by `env`
    /// (pass `|name| std::env::var(name).ok()` for the process environment).
    pub fn load(
        file: Option<&Path>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let mut table = defaults_table();
        if let Some(path) = file {
            let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                path: path.to_owned(),
                source,
            })?;
            let overrides: toml::Table =
                toml::from_str(&text).map_err(|e| ConfigError::Invalid {
                    origin: path.display().to_string(),
                    message: e.to_string(),
                })?;
            merge(&mut table, overrides);
        }
        let mut config = Config::from_table(table, "the configuration file")?;
        config.apply_env(env)?;
        Ok(config)
    }

    fn from_table(table: toml::Table, origin: &str) -> Result<Config, ConfigError> {
        toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError::Invalid {
                origin: origin.to_owned(),
                message: e.to_string(),
            })
    }

    fn apply_env(&mut self, env: impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        if let Some(v) = env("KODEX_DATABASE_URL") {
            self.database.url = v;
        }
        if let Some(v) = env("KODEX_BOARDS_DIR") {
            self.boards.dir = PathBuf::from(v);
        }
        if let Some(v) = env("KODEX_TEXT_BOARDS") {
            self.boards.text = is_on(&v);
        }
        if let Some(v) = env("KODEX_CHALLENGE_EXPIRY_SECS") {
            self.games.challenge_expiry_secs =
                v.trim().parse().map_err(|_| ConfigError::Environment {
                    variable: "KODEX_CHALLENGE_EXPIRY_SECS",
                    message: format!("expected a number of seconds, got {v:?}"),
                })?;
        }
        if let Some(v) = env("KODEX_TOURNAMENT_FIRST_MOVE_SECS") {
            self.games.tournament_first_move_secs =
                v.trim().parse().map_err(|_| ConfigError::Environment {
                    variable: "KODEX_TOURNAMENT_FIRST_MOVE_SECS",
                    message: format!("expected a number of seconds, got {v:?}"),
                })?;
        }
        if let Some(v) = env("KODEX_DEFAULT_LANG") {
            self.games.default_lang = v;
        }
        for (variable, slot) in [
            (
                "KODEX_MAX_OPEN_CHALLENGES",
                &mut self.games.max_open_challenges,
            ),
            ("KODEX_MAX_RUNNING_GAMES", &mut self.games.max_running_games),
            ("KODEX_MAX_PUBLIC_SEEKS", &mut self.games.max_public_seeks),
            ("KODEX_MAX_INVITES", &mut self.games.max_invites),
            ("KODEX_MAX_TOURNAMENTS", &mut self.games.max_tournaments),
            (
                "KODEX_MAX_TOURNAMENT_PLAYERS",
                &mut self.games.max_tournament_players,
            ),
        ] {
            if let Some(v) = env(variable) {
                *slot = v.trim().parse().map_err(|_| ConfigError::Environment {
                    variable,
                    message: format!("expected a number, got {v:?}"),
                })?;
            }
        }
        if let Some(v) = env("KODEX_COMPUTER_SEARCHES") {
            self.computer.searches = is_on(&v);
        }
        if let Some(v) = env("KODEX_COMPUTER_SEARCHERS") {
            self.computer.searchers = v.trim().parse().map_err(|_| ConfigError::Environment {
                variable: "KODEX_COMPUTER_SEARCHERS",
                message: format!("expected a number, got {v:?}"),
            })?;
        }
        if let Some(v) = env("KODEX_VARIANTS_DIR") {
            self.variants.dir = v;
        }
        if let Some(v) = env("KODEX_DISCORD_TOKEN") {
            self.discord.token = v;
        }
        if let Some(v) = env("KODEX_DISCORD_THREADS") {
            self.discord.threads = is_on(&v);
        }
        if let Some(v) = env("KODEX_TELEGRAM_TOKEN") {
            self.telegram.token = v;
        }
        for (variable, slot) in [
            ("KODEX_DISCORD_GUILD", &mut self.discord.guild),
            ("KODEX_DISCORD_API_URL", &mut self.discord.api_url),
            ("KODEX_DISCORD_RATE_LIMITER", &mut self.discord.rate_limiter),
            ("KODEX_DISCORD_SHARDS", &mut self.discord.shards),
            ("KODEX_TELEGRAM_API_URL", &mut self.telegram.api_url),
            ("KODEX_TELEGRAM_WEBHOOK_URL", &mut self.telegram.webhook_url),
            (
                "KODEX_TELEGRAM_WEBHOOK_LISTEN",
                &mut self.telegram.webhook_listen,
            ),
            (
                "KODEX_TELEGRAM_WEBHOOK_SECRET",
                &mut self.telegram.webhook_secret,
            ),
        ] {
            if let Some(v) = env(variable) {
                *slot = v;
            }
        }
        if let Some(v) = env("KODEX_TELEGRAM_BOARDS_AS_FILES") {
            self.telegram.boards_as_files = is_on(&v);
        }
        if let Some(v) = env("KODEX_LOG").or_else(|| env("RUST_LOG")) {
            self.log.filter = v;
        }
        Ok(())
    }
}

impl Config {
    /// The adapters' optional settings by the name of their environment
    /// variable (`KODEX_TELEGRAM_API_URL`, `KODEX_DISCORD_GUILD`, …), as the
    /// file and the environment set them: what the adapters'
    /// `with_options_from` read, which check the values. Unset: `None`.
    pub fn adapter_setting(&self, name: &str) -> Option<String> {
        let value = match name {
            "KODEX_DISCORD_GUILD" => self.discord.guild.clone(),
            "KODEX_DISCORD_API_URL" => self.discord.api_url.clone(),
            "KODEX_DISCORD_RATE_LIMITER" => self.discord.rate_limiter.clone(),
            "KODEX_DISCORD_SHARDS" => self.discord.shards.clone(),
            "KODEX_TELEGRAM_API_URL" => self.telegram.api_url.clone(),
            "KODEX_TELEGRAM_WEBHOOK_URL" => self.telegram.webhook_url.clone(),
            "KODEX_TELEGRAM_WEBHOOK_LISTEN" => self.telegram.webhook_listen.clone(),
            "KODEX_TELEGRAM_WEBHOOK_SECRET" => self.telegram.webhook_secret.clone(),
            "KODEX_TELEGRAM_BOARDS_AS_FILES" => {
                if self.telegram.boards_as_files {
                    "1".to_owned()
                } else {
                    String::new()
                }
            }
            _ => String::new(),
        };
        let value = value.trim();
        (!value.is_empty()).then(|| value.to_owned())
    }
}

/// Whether a yes/no environment variable says yes.
fn is_on(value: &str) -> bool {
    matches!(value.trim(), "1" | "true" | "yes" | "on")
}

fn defaults_table() -> toml::Table {
    toml::from_str(DEFAULTS)
        .unwrap_or_else(|e| unreachable!("the built-in config/kodex.toml is valid TOML: {e}"))
}

/// Overwrites `base` with `overrides`, table by table, so a file names only what it changes.
fn merge(base: &mut toml::Table, overrides: toml::Table) {
    for (key, value) in overrides {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(inner)), toml::Value::Table(value)) => merge(inner, value),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn defaults_use_a_local_sqlite_file_and_no_platform() {
        let config = Config::load(None, no_env).expect("defaults load");
        assert_eq!(config.database.url, "sqlite://kodex.db");
        assert_eq!(config.discord.token(), None);
        assert!(
            !config.discord.threads,
            "no Discord threads unless asked for"
        );
        assert_eq!(config.telegram.token(), None);
        assert_eq!(config.games.challenge_expiry_secs, 3600);
    }

    #[test]
    fn a_file_overrides_only_what_it_names_and_the_environment_wins() {
        let dir = std::env::temp_dir().join(format!("kodex-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("k.toml");
        std::fs::write(
            &path,
            "[games]\nchallenge_expiry_secs = 60\n[telegram]\ntoken = \"f\"\n",
        )
        .expect("write");
        let env = |name: &str| match name {
            "KODEX_TELEGRAM_TOKEN" => Some("from-env".to_owned()),
            "KODEX_DATABASE_URL" => Some("sqlite://other.db".to_owned()),
            "KODEX_DISCORD_THREADS" => Some("1".to_owned()),
            _ => None,
        };
        let config = Config::load(Some(&path), env).expect("loads");
        assert_eq!(config.games.challenge_expiry_secs, 60);
        assert_eq!(config.games.default_lang, "en");
        assert_eq!(config.telegram.token(), Some("from-env"));
        assert_eq!(config.database.url, "sqlite://other.db");
        assert!(config.discord.threads);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_adapter_setting_can_come_from_the_file() {
        let dir =
            std::env::temp_dir().join(format!("kodex-config-adapters-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("k.toml");
        std::fs::write(
            &path,
            "[discord]\ntoken = \"d\"\nguild = \"123456789012345678\"\n\
             api_url = \"http://proxy:3000\"\nrate_limiter = \"off\"\n\
             [telegram]\ntoken = \"t\"\napi_url = \"http://bot-api:8081/\"\n\
             webhook_url = \"https://kodex.example/hook\"\nwebhook_listen = \"127.0.0.1:8088\"\n\
             boards_as_files = true\n",
        )
        .expect("write");
        let config = Config::load(Some(&path), no_env).expect("loads");
        let setting = |name: &str| config.adapter_setting(name);
        assert_eq!(
            setting("KODEX_DISCORD_GUILD").as_deref(),
            Some("123456789012345678")
        );
        assert_eq!(
            setting("KODEX_DISCORD_API_URL").as_deref(),
            Some("http://proxy:3000")
        );
        assert_eq!(
            setting("KODEX_DISCORD_RATE_LIMITER").as_deref(),
            Some("off")
        );
        // The adapters read them as they read the environment.
        let discord = crate::discord::DiscordConfig::new("d", Vec::new())
            .with_options_from(&setting)
            .expect("valid Discord settings");
        assert_eq!(discord.dev_guild, Some(123_456_789_012_345_678));
        assert_eq!(discord.api_base.as_deref(), Some("http://proxy:3000"));
        assert!(discord.disable_rate_limiter);
        let telegram = crate::telegram::TelegramConfig::new("t")
            .with_options_from(&setting)
            .expect("valid Telegram settings");
        assert_eq!(
            telegram.api_url.as_ref().map(url::Url::as_str),
            Some("http://bot-api:8081/")
        );
        assert!(telegram.boards_as_documents);
        match telegram.mode {
            crate::telegram::Mode::Webhook { listen, url, .. } => {
                assert_eq!(listen.to_string(), "127.0.0.1:8088");
                assert_eq!(url.as_str(), "https://kodex.example/hook");
            }
            other => panic!("webhook mode expected, got {other:?}"),
        }
        // The environment still wins over the file.
        let env = |name: &str| (name == "KODEX_DISCORD_GUILD").then(|| "42".to_owned());
        let config = Config::load(Some(&path), env).expect("loads");
        assert_eq!(
            config.adapter_setting("KODEX_DISCORD_GUILD").as_deref(),
            Some("42")
        );
        // Defaults: nothing set but the webhook's listening address.
        let defaults = Config::defaults();
        assert_eq!(defaults.adapter_setting("KODEX_TELEGRAM_API_URL"), None);
        assert_eq!(defaults.adapter_setting("KODEX_TELEGRAM_WEBHOOK_URL"), None);
        assert_eq!(
            defaults.adapter_setting("KODEX_TELEGRAM_BOARDS_AS_FILES"),
            None
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn unknown_keys_and_bad_numbers_are_clear_errors() {
        let dir = std::env::temp_dir().join(format!("kodex-config-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("k.toml");
        std::fs::write(&path, "[games]\nchalenge_expiry = 1\n").expect("write");
        let err = Config::load(Some(&path), no_env).expect_err("typo rejected");
        assert!(err.to_string().contains("chalenge_expiry"), "{err}");
        let env = |name: &str| (name == "KODEX_CHALLENGE_EXPIRY_SECS").then(|| "soon".to_owned());
        let err = Config::load(None, env).expect_err("bad number rejected");
        assert!(
            err.to_string().contains("KODEX_CHALLENGE_EXPIRY_SECS"),
            "{err}"
        );
        assert!(Config::load(Some(&dir.join("missing.toml")), no_env).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
