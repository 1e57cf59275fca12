//! Game ids: long, random, never read as a move.

/// The length of a new game id: 12 of the 23 letters of
/// [`GAME_ID_ALPHABET`], about 2^54 ids, so that guessing a game's id is
/// hopeless (and unknown ids named are limited per person, see
/// [`MAX_UNKNOWN_IDS`](super::lookup::MAX_UNKNOWN_IDS)). Games stored with the 4-letter ids of earlier
/// versions keep them.
pub const GAME_ID_LEN: usize = 12;

/// The letters of game ids: none that can form a square name (no `a`–`h`)
/// and no look-alikes (`i`, `l`, `o`, `0`, `1`), so an id never reads as a move.
pub const GAME_ID_ALPHABET: &str = "jkmnpqrstuvwxyz23456789";

/// A new game id of [`GAME_ID_LEN`] letters drawn from the operating
/// system's secure random source, each letter equally likely; `None` when
/// that source fails (no id is better than a guessable one).
pub(crate) fn new_game_id() -> Option<String> {
    let alphabet = GAME_ID_ALPHABET.as_bytes();
    // Bytes at or above the largest multiple of the alphabet's size are
    // dropped: every letter is equally likely.
    let limit = 256 - 256 % alphabet.len();
    let mut id = String::with_capacity(GAME_ID_LEN);
    let mut bytes = [0u8; 2 * GAME_ID_LEN];
    while id.len() < GAME_ID_LEN {
        getrandom::fill(&mut bytes).ok()?;
        for byte in bytes.iter().map(|&b| usize::from(b)) {
            if byte < limit && id.len() < GAME_ID_LEN {
                id.push(char::from(alphabet[byte % alphabet.len()]));
            }
        }
    }
    Some(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ButtonAction;
    use std::collections::HashMap;

    #[test]
    fn new_game_ids_are_long_random_and_never_read_as_moves() {
        let ids: Vec<String> = (0..2000).map(|_| new_game_id().expect("an id")).collect();
        for id in &ids {
            assert_eq!(id.len(), GAME_ID_LEN, "{id}");
            assert!(id.chars().all(|c| GAME_ID_ALPHABET.contains(c)), "{id}");
            assert!(!id.chars().any(|c| ('a'..='h').contains(&c)), "{id}");
            assert!(id.len() <= ButtonAction::MAX_GAME_ID);
        }
        // At least 2^50 ids: guessing one of them is hopeless.
        let ids_possible = (GAME_ID_ALPHABET.len() as f64).powi(GAME_ID_LEN as i32);
        assert!(ids_possible.log2() > 50.0, "{}", ids_possible.log2());
        let distinct: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len(), "no two alike");
        // Every letter is drawn, about equally often.
        let mut counts = HashMap::new();
        for c in ids.iter().flat_map(|id| id.chars()) {
            *counts.entry(c).or_insert(0usize) += 1;
        }
        assert_eq!(counts.len(), GAME_ID_ALPHABET.len());
        let expected = (2000 * GAME_ID_LEN / GAME_ID_ALPHABET.len()) as f64;
        for (c, n) in counts {
            assert!(
                (n as f64 - expected).abs() < expected * 0.2,
                "{c}: {n} of {expected}"
            );
        }
    }
}
