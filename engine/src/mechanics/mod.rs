//! Variant mechanics, one module each, as hooks the rules core
//! ([`crate::rules`]) calls: "where is atomic?" has one answer.
//!
//! - `atomic`: explosions, kings that cannot capture, kings that touch.
//! - `drops`: pockets and drops (crazyhouse).
//! - `check_count`: counting checks (three-check).
//! - `racing`: flag squares (king of the hill, racing kings), no checks given.
//! - `compulsory`: compulsory captures (antichess).
//! - `extinction`: losing (or winning by losing) every piece.
//! - `setup_check`: a side left in check by the setups loses (battle chess).
//! - `house_rules`: seed 004's crazyhouse rules (battle crazyhouse): drop-mates
//!   only on the board, promoted pieces demote only on the very next move.
//! - `palace`: Janggi's cannon limits, passing, facing royals (bikjang) and
//!   counting points.
//! - `partner_pockets`: pockets a partner fills (bughouse): no captures to
//!   one's own pocket, no mate that a drop could block.
//! - `bare_king`: a side left with a lone king loses (shatranj).
//! - `promotion_goal`: the first pawn on the last rank wins (the lessons).
//! - `royal_leap`: the king's once-per-game leap (chaturanga).
//! - `royal_swap`: the king's once-per-game swap with an own piece (Tamerlane).
//! - `pawn_of_pawns`: Tamerlane's pawn of pawns and its three arrivals.
//! - `restricted_promotion`: promotion only into lost pieces (grand, chaturanga).
//! - `transform`: capturers becoming what they took (Frankfurt), pieces
//!   turning back after a move (the whale shogi dolphin).
//! - `citadel`: squares only kings enter, and the draw of entering the
//!   opponent's (citadel chess).
//! - `seats`: pieces owned by the seats of a side (four-handed chess): who
//!   moves what, the command zone, passes, mated kings taken on the next move.
//! - `king_capture`: kings taken rather than mated, frozen armies of seats
//!   without a king, a king in check that must move, stalemate passes
//!   (Enochian chess).
//! - `thrones`: throne capture, prisoner exchange, retirement, and the draws
//!   of a team out of play (Enochian chess).
//! - `drops` also holds the drop restrictions of whale shogi: pieces going to
//!   hand as another type, no dolphin drop-mate, at most two dolphins a file.

mod atomic;
mod bare_king;
mod check_count;
mod citadel;
mod compulsory;
mod drops;
mod extinction;
mod house_rules;
mod king_capture;
pub mod palace;
mod partner_pockets;
mod pawn_of_pawns;
mod promotion_goal;
mod racing;
mod restricted_promotion;
mod royal_leap;
mod royal_swap;
mod seats;
pub use seats::ForcedTurn;
mod setup_check;
mod thrones;
pub use thrones::{ExchangeError, RetireError};
mod transform;
