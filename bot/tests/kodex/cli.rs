//! The `kodex` command line: subcommands with their help, and `kodex render`
//! drawing a PNG as the `kodex-render` alias does.

use std::process::Command;

fn kodex(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kodex"))
        .args(args)
        .env_remove("KODEX_DISCORD_TOKEN")
        .env_remove("KODEX_TELEGRAM_TOKEN")
        .output()
        .expect("kodex runs")
}

#[test]
fn help_lists_the_subcommands() {
    let out = kodex(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for sub in [
        "run",
        "console",
        "render",
        "uci",
        "--config",
        "KODEX_DATABASE_URL",
    ] {
        assert!(text.contains(sub), "{sub}: {text}");
    }
    let out = kodex(&["console", "--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("console chat"));
    let out = kodex(&["render", "--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("--variant"));
}

#[test]
fn a_wrong_subcommand_is_an_error() {
    let out = kodex(&["bogus"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bogus"));
}

#[test]
fn render_draws_a_png() {
    let file = std::env::temp_dir().join(format!("kodex-cli-{}.png", std::process::id()));
    let path = file.to_string_lossy().to_string();
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let out = kodex(&[
        "render",
        "--variant",
        "chess",
        "--fen",
        fen,
        "--lastmove",
        "e2e4",
        "--out",
        &path,
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&file).expect("the file is written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let _ = std::fs::remove_file(&file);
    let out = kodex(&[
        "render",
        "--variant",
        "nosuch",
        "--fen",
        fen,
        "--out",
        &path,
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant"));
}

/// Without `--fen` the start is drawn: chess's is the board of its start
/// FEN, byte for byte; a setup variant draws its empty setup board. The
/// help describes every option.
#[test]
fn render_draws_the_start_without_a_fen() {
    let dir = std::env::temp_dir().join(format!("kodex-cli-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = |name: &str| dir.join(name).to_string_lossy().to_string();
    let draw = |args: &[&str]| {
        let out = kodex(args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    draw(&["render", "--variant", "chess", "--out", &path("start.png")]);
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    draw(&[
        "render",
        "--variant",
        "chess",
        "--fen",
        fen,
        "--out",
        &path("fen.png"),
    ]);
    let start = std::fs::read(path("start.png")).expect("start drawn");
    assert!(start.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(start, std::fs::read(path("fen.png")).expect("fen drawn"));
    draw(&[
        "render",
        "--variant",
        "battle",
        "--out",
        &path("battle.png"),
    ]);
    assert!(std::fs::read(path("battle.png"))
        .expect("setup drawn")
        .starts_with(b"\x89PNG"));
    let help = String::from_utf8_lossy(&kodex(&["render", "--help"]).stdout).to_string();
    for option in [
        "--variant",
        "--fen",
        "--pov",
        "--fog",
        "--lastmove",
        "--out",
        "--help",
    ] {
        assert!(help.contains(&format!("  {option}")), "{option}: {help}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// What `kodex uci` answers to `input`, a whole session.
fn uci_session(input: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kodex"))
        .arg("uci")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("kodex uci runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("written");
    let out = child.wait_with_output().expect("it ends");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn uci_plays_a_move() {
    let text = uci_session(
        b"uci\nsetoption name Skill Level value 2\nposition startpos moves e2e4\ngo nodes 2000\nisready\nquit\n",
    );
    assert!(text.contains("uciok"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
}

/// `kodex uci` names four-handed chess's squares the machine's way: files
/// by index (a–n), where people read the seed's a–o without j.
#[test]
fn uci_names_the_files_of_four_handed_chess_by_index() {
    // White-1's pawn on people's l2 is UCI k2; black-1's on l13 is k13.
    let text = uci_session(
        b"uci\nsetoption name UCI_Variant value fourplayer\nposition startpos moves k2k4\ngo perft 1\nisready\nquit\n",
    );
    assert!(text.lines().any(|l| l.starts_with("k13k11:")), "{text}");
    assert!(!text.contains("o13"), "{text}");
}

#[test]
fn a_variants_folder_redefining_a_built_in_stops_the_start_naming_the_file_and_the_id() {
    let dir = std::env::temp_dir().join(format!("kodex-cli-variants-{}", std::process::id()));
    let folder = dir.join("variants");
    std::fs::create_dir_all(&folder).expect("folder");
    std::fs::write(
        folder.join("fog.toml"),
        "id = \"fogofwar\"\nextends = \"chess\"\nvisibility = \"full\"\n",
    )
    .expect("definition");
    let out = Command::new(env!("CARGO_BIN_EXE_kodex"))
        .arg("console")
        .env_remove("KODEX_DISCORD_TOKEN")
        .env_remove("KODEX_TELEGRAM_TOKEN")
        .env("KODEX_VARIANTS_DIR", &folder)
        .env(
            "KODEX_DATABASE_URL",
            format!("sqlite://{}", dir.join("kodex.db").display()),
        )
        .env("KODEX_BOARDS_DIR", dir.join("boards"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("kodex runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("fog.toml"), "{stderr}");
    assert!(
        stderr.contains("`fogofwar`") && stderr.contains("built-in"),
        "{stderr}"
    );
    // Nothing was started: no database was created.
    assert!(!dir.join("kodex.db").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
