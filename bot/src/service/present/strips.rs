//! What the board a game's chat is shown carries besides the position: the
//! material each player is up in their strip and the last move in the footer
//! (issue 32, item 3), as lichess shows them.
//!
//! Only for games where everything is public: no hidden information, no
//! pockets (in drop games, bughouse among them, a captured piece goes to a
//! hand, which the board already shows, as lichess and pychess show
//! crazyhouse). A hidden game's boards get nothing of it — a player there
//! does not always know what they lost. In games for four each seat's strip
//! shows its team's material, without the last move.

use kodex_engine::{Art, Game, PieceGlyph, Side, SquareView, View};
use kodex_render::{Decor, Material};

/// Adds the material balance and the last move to `decor`, the decor of
/// `view` (the whole board of `game`) posted in a chat that reads a SAN
/// move as `read` writes it (its piece letters), where the game is public
/// and of two players; leaves it as it is otherwise.
pub(crate) fn add_public_facts(
    decor: &mut Decor,
    read: impl Fn(&str) -> String,
    game: &Game,
    view: &View,
) {
    add_public_facts_at(decor, read, game, view, game.ply());
}

/// The material of `view`, a frame of `game`'s time-travel animation (whose
/// frames follow the record, jumps included, not the present line), for a
/// public game of two; leaves `decor` as it is otherwise.
pub(crate) fn add_material(decor: &mut Decor, game: &Game, view: &View) {
    let variant = game.variant();
    if !variant.hidden_information() && variant.players() == 2 {
        decor.material = material(view);
    }
}

/// [`add_public_facts`] for the board after half-move `ply` of `game`
/// (`view`, drawn from that moment): a frame of the game's animation
/// carries the material and the last move of its own moment.
pub(crate) fn add_public_facts_at(
    decor: &mut Decor,
    read: impl Fn(&str) -> String,
    game: &Game,
    view: &View,
    ply: usize,
) {
    let variant = game.variant();
    if variant.hidden_information() {
        return;
    }
    if variant.players() == 4 {
        // Games for four: the two sides are the two teams (white-1 and
        // white-2 against black-1 and black-2, seats alternating), each
        // seat's strip shows what its team is up (chess.com's team games
        // count by team too). Bughouse's boards have hands instead.
        let by_team = team_material(view);
        if by_team.len() == 2 {
            decor.material = (0..4).map(|seat| by_team[seat % 2].clone()).collect();
        }
        return;
    }
    if variant.players() != 2 {
        return;
    }
    decor.material = material(view);
    decor.last_move = ply
        .checked_sub(1)
        .and_then(|index| game.history().get(index))
        .map(|played| numbered(&read(&played.san), view.side_to_move, view.move_number));
}

/// `san` with its move number, as it reads when `to_move` is to move next
/// in full move `number`.
fn numbered(san: &str, to_move: Side, number: u32) -> String {
    // The first side's move leaves the second to move in the same move
    // number; the second's starts the next.
    if to_move == Side::WHITE {
        format!("{}… {san}", number.saturating_sub(1).max(1))
    } else {
        format!("{number}. {san}")
    }
}

/// The pawns a classical piece is worth (lichess's count); `None` for a
/// piece without an agreed value (kings, fairy pieces).
fn pawns_worth(art: Art) -> Option<u32> {
    match art {
        Art::Pawn => Some(1),
        Art::Knight | Art::Bishop => Some(3),
        Art::Rook => Some(5),
        Art::Queen => Some(9),
        _ => None,
    }
}

/// What each of the two sides of `view` is up, as lichess counts it: for
/// every kind of piece, the side with more of it on the board shows the
/// difference as the opponent's pieces; `+N`, the difference in pawns, for
/// the side ahead where every piece that differs has a classical value.
/// Empty where the view has pockets or more than two sides.
pub(crate) fn material(view: &View) -> Vec<Material> {
    material_of(view, |side| {
        [0, 1].into_iter().find(|&s| side == Side(s as u8))
    })
}

/// [`material`] by team, for games for four: a piece of side `s` counts for
/// team `s % 2` (the seats alternate between the teams, and each army's
/// colour keeps its team's parity).
fn team_material(view: &View) -> Vec<Material> {
    material_of(view, |side| Some(side.index() % 2))
}

/// [`material`] with `team` telling which of the two to count a piece of a
/// side for (`None`: nothing is counted).
fn material_of(view: &View, team: impl Fn(Side) -> Option<usize>) -> Vec<Material> {
    if !view.pockets.is_empty() {
        return Vec::new();
    }
    // (art, letter) → pieces of each side, kinds in the order first seen.
    let mut kinds: Vec<((Art, char), [u32; 2])> = Vec::new();
    for square in &view.squares {
        let SquareView::Piece(glyph) = square else {
            continue;
        };
        let Some(side) = team(glyph.side) else {
            return Vec::new();
        };
        let key = (glyph.art, glyph.letter);
        match kinds.iter_mut().find(|(kind, _)| *kind == key) {
            Some((_, counts)) => counts[side] += 1,
            None => {
                let mut counts = [0, 0];
                counts[side] = 1;
                kinds.push((key, counts));
            }
        }
    }
    // Cheapest first, as captured pieces line up on the big sites.
    kinds.sort_by_key(|((art, _), _)| pawns_worth(*art).unwrap_or(u32::MAX));
    let mut ahead = [Material::default(), Material::default()];
    let mut balance: Option<i64> = Some(0);
    for ((art, letter), counts) in kinds {
        let difference = counts[0] as i64 - counts[1] as i64;
        if difference == 0 {
            continue;
        }
        balance = balance
            .zip(pawns_worth(art))
            .map(|(sum, worth)| sum + difference * worth as i64);
        let (up, down) = if difference > 0 { (0, 1) } else { (1, 0) };
        let piece = PieceGlyph {
            side: Side(down as u8),
            art,
            letter,
            promoted: false,
        };
        ahead[up].pieces.extend(std::iter::repeat_n(
            piece,
            difference.unsigned_abs() as usize,
        ));
    }
    if let Some(balance) = balance.filter(|&balance| balance != 0) {
        let up = if balance > 0 { 0 } else { 1 };
        ahead[up].advantage = Some(balance.unsigned_abs() as u32);
    }
    ahead.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kodex_engine::{Audience, Registry, Start};

    fn played(variant: &str, moves: &str) -> Game {
        let registry = Registry::builtin();
        let mut game = Game::new(registry.get(variant).expect("built in"), Start::Standard)
            .expect("the start");
        for mv in moves.split_whitespace() {
            game.play_text(mv).expect("legal");
        }
        game
    }

    /// The last move of the present line as a chat's board shows it, with
    /// its number, its SAN as `read` writes it.
    fn last_move(read: impl Fn(&str) -> String, game: &Game) -> Option<String> {
        let mut decor = Decor::default();
        add_public_facts(&mut decor, read, game, &game.view(Audience::Full));
        decor.last_move
    }

    /// SAN as an English chat reads it.
    fn english(san: &str) -> String {
        san.to_owned()
    }

    fn arts(material: &Material) -> Vec<(Art, Side)> {
        material
            .pieces
            .iter()
            .map(|piece| (piece.art, piece.side))
            .collect()
    }

    #[test]
    fn the_side_that_took_more_shows_the_pieces_and_the_pawns_it_is_up() {
        // 1.e4 d5 2.exd5 Nf6 3.d4 Nxd5 4.c4 Nb6 5.c5 Nd5 6.Bc4 e6 7.Bxd5 exd5:
        // each side lost a pawn; white a bishop, black a knight. White shows
        // a black knight, black a white bishop, and neither is ahead.
        let game = played(
            "chess",
            "e4 d5 exd5 Nf6 d4 Nxd5 c4 Nb6 c5 Nd5 Bc4 e6 Bxd5 exd5",
        );
        let up = material(&game.view(Audience::Full));
        assert_eq!(up.len(), 2);
        assert_eq!(arts(&up[0]), vec![(Art::Knight, Side::BLACK)]);
        assert_eq!(arts(&up[1]), vec![(Art::Bishop, Side::WHITE)]);
        assert_eq!(up[0].advantage, None);
        assert_eq!(up[1].advantage, None);

        // White's bishop for a pawn (3.Bxf7+ Kxf7): black is up a bishop
        // for a pawn, +2.
        let game = played("chess", "e4 e5 Bc4 Nf6 Bxf7+ Kxf7");
        let up = material(&game.view(Audience::Full));
        assert_eq!(arts(&up[1]), vec![(Art::Bishop, Side::WHITE)]);
        assert_eq!(arts(&up[0]), vec![(Art::Pawn, Side::BLACK)]);
        assert_eq!(up[1].advantage, Some(2));
        assert_eq!(up[0].advantage, None);
    }

    #[test]
    fn pieces_without_a_classical_value_are_shown_without_a_number() {
        // Shatranj: black's elephant (alfil art, no agreed value) takes a
        // pawn and is taken: the pieces, but no +N.
        let game = played("shatranj", "a3 Bd6 a4 Bf4 a5 Bxh2 Rxh2");
        let up = material(&game.view(Audience::Full));
        assert!(up.iter().all(|m| m.advantage.is_none()), "{up:?}");
        assert_eq!(arts(&up[0]), vec![(Art::Alfil, Side::BLACK)]);
        assert_eq!(arts(&up[1]), vec![(Art::Pawn, Side::WHITE)]);
    }

    #[test]
    fn the_start_and_drop_games_show_nothing() {
        let start = played("chess", "");
        assert!(material(&start.view(Audience::Full))
            .iter()
            .all(|m| m.pieces.is_empty() && m.advantage.is_none()));
        let crazyhouse = played("crazyhouse", "e4 d5 exd5");
        assert!(material(&crazyhouse.view(Audience::Full)).is_empty());
    }

    #[test]
    fn a_game_for_four_shows_each_team_its_material_in_both_partners_strips() {
        for variant in ["fourplayer", "enochian"] {
            let mut game = played(variant, "");
            let mut rng = fastrand::Rng::with_seed(7);
            let mut decor = Decor::default();
            // Random moves until a capture leaves one team ahead.
            for _ in 0..400 {
                add_public_facts(&mut decor, english, &game, &game.view(Audience::Full));
                assert_eq!(decor.material.len(), 4, "{variant}");
                assert_eq!(decor.last_move, None, "{variant}: no move numbers for four");
                if decor.material.iter().any(|m| !m.pieces.is_empty()) {
                    break;
                }
                let moves = game.legal_moves();
                let Some(&mv) = moves.get(rng.usize(..moves.len().max(1))) else {
                    break;
                };
                game.play(mv);
            }
            let m = &decor.material;
            assert!(
                m.iter().any(|m| !m.pieces.is_empty()),
                "{variant}: no capture"
            );
            assert_eq!((&m[0], &m[1]), (&m[2], &m[3]), "{variant}: partners alike");
            assert!(m[0].pieces.is_empty() || m[1].pieces.is_empty() || m[0] != m[1]);
        }
    }

    #[test]
    fn the_last_move_carries_its_number_and_the_chats_letters() {
        assert_eq!(last_move(english, &played("chess", "")), None);
        assert_eq!(
            last_move(english, &played("chess", "e4")).as_deref(),
            Some("1. e4")
        );
        assert_eq!(
            last_move(english, &played("chess", "e4 e5 Nf3 Nc6")).as_deref(),
            Some("2… Nc6")
        );
        let game = played("chess", "e4 e5 Nf3");
        let russian = |san: &str| game.variant().russian_san(san);
        assert_eq!(last_move(russian, &game).as_deref(), Some("2. Кf3"));
        assert_eq!(
            last_move(english, &played("chess", "f3 e5 g4 Qh4#")).as_deref(),
            Some("2… Qh4#")
        );
    }
}
