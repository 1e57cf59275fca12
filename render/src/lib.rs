//! Draws an engine [`View`] as a PNG board (and a finished game as a GIF).
//! Knows no rules: everything it draws comes in the view and the decorations.

use kodex_engine::{Side, View};

/// What is drawn around the board: names, clocks, a status line.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Decor {
    /// The side drawn at the bottom.
    pub bottom: Side,
    /// Player names, indexed by side (may be empty).
    pub names: Vec<String>,
    /// Clock readings, indexed by side, already formatted (`"4:58"`), `None` without a clock.
    pub clocks: Vec<Option<String>>,
    /// A status line (`"1–0 · checkmate"`), already localized; `None` to show whose turn it is.
    pub status: Option<String>,
}

/// Draws `view` with `decor` as PNG bytes. The same input gives the same bytes.
pub fn render_png(view: &View, decor: &Decor) -> Vec<u8> {
    let _ = (view, decor);
    todo!()
}

/// Draws a game as an animated GIF, one frame per view.
pub fn render_gif(frames: &[(View, Decor)]) -> Vec<u8> {
    let _ = frames;
    todo!()
}
