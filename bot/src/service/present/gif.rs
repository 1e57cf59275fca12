//! Game animations: the positions of a game as a GIF that fits a
//! platform's upload limit.

use kodex_engine::{Audience, Game, View};
use kodex_render::Decor;

use super::strips;

/// The most frames a game animation holds: a longer game is shown with
/// evenly spaced positions (the first and the last always among them).
pub(crate) const MAX_GIF_FRAMES: usize = 300;

/// `count` indices out of `0..total`, evenly spaced, always with the first
/// and the last (all of them when `total <= count`).
pub(crate) fn evenly_spaced(total: usize, count: usize) -> Vec<usize> {
    if total <= count || count < 2 {
        return (0..total).collect();
    }
    let mut picked: Vec<usize> = (0..count)
        .map(|index| index * (total - 1) / (count - 1))
        .collect();
    picked.dedup();
    picked
}

/// The frames of `position`'s animation, each board with `decor` (names,
/// clocks, the result): at most [`MAX_GIF_FRAMES`] of its moments, the
/// first and the last among them. Each frame of a public game of two
/// carries its own moment's material and last move (SAN as `read` writes
/// it), as the turn boards showed them; a time-travel game's frames mark
/// where each traveller appeared and where it vanished from, and carry
/// their material (not the last move: they follow the record, jumps
/// included, not the present line's numbering).
pub(crate) fn game_frames(
    position: &Game,
    decor: &Decor,
    read: impl Fn(&str) -> String,
) -> Vec<(View, Decor)> {
    if position.has_time_travel() {
        // The game as it happened, jumps included.
        let all = position.frames(Audience::Full);
        return evenly_spaced(all.len(), MAX_GIF_FRAMES)
            .into_iter()
            .filter_map(|index| all.get(index))
            .map(|frame| {
                let mut view = frame.view.clone();
                if let Some(jump) = &frame.jump {
                    view.marked.push(jump.appeared);
                    view.marked.extend(jump.vanished);
                }
                let mut decor = decor.clone();
                strips::add_material(&mut decor, position, &view);
                (view, decor)
            })
            .collect();
    }
    evenly_spaced(position.ply() + 1, MAX_GIF_FRAMES)
        .into_iter()
        .map(|ply| {
            let view = position.view_at(ply, Audience::Full);
            let mut decor = decor.clone();
            strips::add_public_facts_at(&mut decor, &read, position, &view, ply);
            (view, decor)
        })
        .collect()
}

/// Draws `frames` as a GIF of at most `limit` bytes: all of them if they
/// fit, else half as many (evenly spaced, the last position kept) until two
/// are left, then with smaller squares. Empty if nothing fits.
pub(crate) fn gif_within(frames: &[(View, Decor)], limit: usize) -> Vec<u8> {
    fit_gif(
        frames,
        limit,
        |(view, _)| view,
        |renderer, chosen| renderer.gif(chosen),
    )
}

/// [`gif_within`] for games of two boards: each frame both boards side by
/// side.
pub(crate) fn pair_gif_within(frames: &[[(View, Decor); 2]], limit: usize) -> Vec<u8> {
    fit_gif(
        frames,
        limit,
        |[(view, _), _]| view,
        kodex_render::render_pair_gif_with,
    )
}

/// Draws `frames` with `draw` within `limit` bytes (see [`gif_within`]);
/// `view_of` gives a frame's board, which sets the usual square size.
fn fit_gif<T: Clone>(
    frames: &[T],
    limit: usize,
    view_of: impl Fn(&T) -> &View,
    draw: impl Fn(&kodex_render::Renderer, &[T]) -> Vec<u8>,
) -> Vec<u8> {
    let Some(first) = frames.first().map(&view_of) else {
        return Vec::new();
    };
    let usual = kodex_render::shared_renderer(first);
    let mut smaller: Option<kodex_render::Renderer> = None;
    let mut square = kodex_render::square_size_for(first.files, first.ranks);
    let mut count = frames.len();
    loop {
        let chosen: Vec<T> = evenly_spaced(frames.len(), count)
            .into_iter()
            .filter_map(|index| frames.get(index).cloned())
            .collect();
        let bytes = draw(smaller.as_ref().unwrap_or(usual), &chosen);
        if bytes.len() <= limit {
            return bytes;
        }
        if count > 2 {
            count = count.div_ceil(2);
        } else if square / 2 >= *kodex_render::SQUARE_SIZES.start() {
            square /= 2;
            smaller = Some(kodex_render::Renderer::new(square));
        } else {
            return Vec::new();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kodex_engine::Audience;

    /// The frames of a short chess game, one per position.
    fn frames() -> Vec<(View, Decor)> {
        let registry = kodex_engine::Registry::builtin();
        let variant = registry.get("chess").expect("chess exists");
        let mut game =
            kodex_engine::Game::new(variant, kodex_engine::Start::Standard).expect("a game");
        for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"] {
            game.play_text(san).expect("a legal move");
        }
        (0..=game.ply())
            .map(|ply| (game.view_at(ply, Audience::Full), Decor::default()))
            .collect()
    }

    #[test]
    fn a_game_gif_too_large_gets_fewer_frames_then_smaller_squares() {
        let frames = frames();
        let full = gif_within(&frames, usize::MAX);
        assert!(full.starts_with(b"GIF8"));
        let fewer_frames = gif_within(&frames, full.len() - 1);
        assert!(!fewer_frames.is_empty() && fewer_frames.len() < full.len());
        let two = kodex_render::render_gif(&[frames[0].clone(), frames[8].clone()]);
        let smaller_squares = gif_within(&frames, two.len() - 1);
        assert!(!smaller_squares.is_empty() && smaller_squares.len() < two.len());
        assert!(
            gif_within(&frames, 10).is_empty(),
            "nothing fits in 10 bytes"
        );
    }

    /// `moves` played from the start of `variant`.
    fn played(variant: &str, moves: &str) -> Game {
        let registry = kodex_engine::Registry::builtin();
        let mut game = Game::new(
            registry.get(variant).expect("built in"),
            kodex_engine::Start::Standard,
        )
        .expect("the start");
        for san in moves.split_whitespace() {
            game.play_text(san).expect("legal");
        }
        game
    }

    #[test]
    fn each_frame_of_the_end_animation_shows_its_moments_material_and_last_move() {
        let game = played("chess", "e4 d5 exd5 Nf6");
        let frames = game_frames(&game, &Decor::default(), |san| san.replace('N', "К"));
        let last: Vec<Option<&str>> = frames
            .iter()
            .map(|(_, decor)| decor.last_move.as_deref())
            .collect();
        assert_eq!(
            last,
            vec![
                None,
                Some("1. e4"),
                Some("1… d5"),
                Some("2. exd5"),
                Some("2… Кf6")
            ]
        );
        let ahead = |frame: usize| -> Vec<Option<u32>> {
            frames[frame]
                .1
                .material
                .iter()
                .map(|m| m.advantage)
                .collect()
        };
        assert_eq!(ahead(2), vec![None, None], "nothing taken yet");
        assert_eq!(ahead(3), vec![Some(1), None], "white took a pawn");
        assert_eq!(frames[3].1.material[0].pieces.len(), 1);
        assert_eq!(ahead(4), vec![Some(1), None]);
    }

    #[test]
    fn a_time_travel_animation_shows_each_frames_material() {
        let game = played("timetravel", "e4 d5 exd5");
        assert!(game.has_time_travel());
        let frames = game_frames(&game, &Decor::default(), str::to_owned);
        assert_eq!(frames.len(), 4);
        let ahead: Vec<Option<u32>> = frames[3].1.material.iter().map(|m| m.advantage).collect();
        assert_eq!(ahead, vec![Some(1), None], "white took a pawn");
        assert!(frames[2].1.material.iter().all(|m| m.advantage.is_none()));
    }

    #[test]
    fn a_hidden_games_animation_has_no_material_and_no_last_move() {
        // Even once the game is over: a fog-of-war player never saw every
        // capture as it happened, and the turn boards showed none.
        let game = played("fogofwar", "e4 d5 exd5");
        let frames = game_frames(&game, &Decor::default(), str::to_owned);
        assert_eq!(frames.len(), 4);
        assert!(frames
            .iter()
            .all(|(_, decor)| decor.material.is_empty() && decor.last_move.is_none()));
    }

    #[test]
    fn evenly_spaced_keeps_the_first_and_the_last() {
        assert_eq!(evenly_spaced(5, 10), vec![0, 1, 2, 3, 4]);
        assert_eq!(evenly_spaced(11, 3), vec![0, 5, 10]);
        let many = evenly_spaced(1000, 300);
        assert_eq!(many.len(), 300);
        assert_eq!((many[0], many[299]), (0, 999));
    }
}
