//! Random hostile text for robustness tests: move-like, id-like and button-
//! like pieces mixed with control characters, direction marks, emoji, quotes
//! and now and then something huge.

/// Pieces random texts are made of.
const PIECES: &[&str] = &[
    "e4",
    "Nf3",
    "O-O",
    "0-0-0",
    "e8=Q",
    "N@f3",
    "Кf3",
    "g1f3",
    "acc:",
    "rsg:",
    "keep:",
    "dec:",
    "draw:",
    "tb:",
    "board:",
    "pv:",
    "pv:1:",
    ":",
    "::",
    ":w",
    ":b",
    "@",
    "@alice",
    "@bob",
    "#",
    "/",
    "/play",
    "/m",
    "/start b_",
    "\u{202e}",
    "\u{200b}",
    "\u{0}",
    "\n",
    "\t",
    " ",
    "♔",
    "🙂",
    "ё",
    "x",
    "jkmn",
    "99999999999",
    "-1",
    "%s",
    "{}",
    "'",
    "\"",
    ";",
    "DROP TABLE games;",
    "\\",
    "..",
    "<@1001>",
    "<#300>",
    "```",
];

/// A random text from [`PIECES`] (one in ten is 1,000–70,000 characters long).
pub fn random_text() -> String {
    let mut text = String::new();
    match fastrand::u8(..10) {
        0 => text.push_str(&"ж".repeat(fastrand::usize(1_000..70_000))),
        _ => {
            for _ in 0..fastrand::usize(0..6) {
                text.push_str(PIECES[fastrand::usize(..PIECES.len())]);
            }
        }
    }
    text
}

/// Seeds the generator and returns the seed, so that a failure can be
/// replayed: `KODEX_GARBAGE_SEED=<n>` replays one, `KODEX_GARBAGE_SEED=random`
/// explores a new one; by default a fixed seed keeps runs (and CI) repeatable.
pub fn seed() -> u64 {
    const DEFAULT_SEED: u64 = 20_261_130;
    let seed = match std::env::var("KODEX_GARBAGE_SEED").ok().as_deref() {
        Some("random") => fastrand::u64(..),
        Some(text) => text.trim().parse().unwrap_or(DEFAULT_SEED),
        None => DEFAULT_SEED,
    };
    fastrand::seed(seed);
    seed
}
