//! Chess960 start positions by Scharnagl number (0–959; 518 is the classical one).

/// The back rank (white's, upper case, `RNBQKBNR` for 518) of position `number`,
/// or `None` past 959 (see the unit tests).
pub fn back_rank(number: u16) -> Option<String> {
    if number > 959 {
        return None;
    }
    let mut rank = [None::<char>; 8];
    let n = number as usize;
    let (n2, light) = (n / 4, n % 4);
    rank[2 * light + 1] = Some('B');
    let (n3, dark) = (n2 / 4, n2 % 4);
    rank[2 * dark] = Some('B');
    let (knights, queen) = (n3 / 6, n3 % 6);
    place_nth_empty(&mut rank, queen, 'Q');
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[knights];
    // Place the second first so the first's index is still counted among the empties.
    place_nth_empty(&mut rank, b, 'N');
    place_nth_empty(&mut rank, a, 'N');
    for piece in ['R', 'K', 'R'] {
        place_nth_empty(&mut rank, 0, piece);
    }
    Some(rank.iter().map(|c| c.unwrap_or('?')).collect())
}

fn place_nth_empty(rank: &mut [Option<char>; 8], n: usize, piece: char) {
    if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(n) {
        *slot = Some(piece);
    }
}

/// The full start FEN of position `number` (X-FEN castling `KQkq`).
pub fn start_fen(number: u16) -> Option<String> {
    let white = back_rank(number)?;
    let black = white.to_ascii_lowercase();
    Some(format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"
    ))
}

/// The Scharnagl number of a back rank like `RNBQKBNR`, if it is a Chess960 one.
pub fn number_of(back_rank_text: &str) -> Option<u16> {
    (0..960u16).find(|&n| back_rank(n).as_deref() == Some(back_rank_text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_positions() {
        assert_eq!(back_rank(518).unwrap(), "RNBQKBNR");
        assert_eq!(back_rank(0).unwrap(), "BBQNNRKR");
        assert_eq!(back_rank(959).unwrap(), "RKRNNQBB");
        assert_eq!(back_rank(960), None);
        assert_eq!(number_of("RNBQKBNR"), Some(518));
    }

    #[test]
    fn every_position_is_valid_and_distinct() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let r = back_rank(n).unwrap();
            assert!(seen.insert(r.clone()));
            let b: Vec<usize> = r.match_indices('B').map(|(i, _)| i).collect();
            assert_ne!(b[0] % 2, b[1] % 2, "{r}: bishops on one colour");
            let k = r.find('K').unwrap();
            let rooks: Vec<usize> = r.match_indices('R').map(|(i, _)| i).collect();
            assert!(rooks[0] < k && k < rooks[1], "{r}: king not between rooks");
        }
    }
}
