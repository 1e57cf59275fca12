//! Colours of a board theme. Every colour the renderer draws comes from here,
//! so a theme fixes the palette of the indexed PNG.

/// An sRGB colour.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// A colour from `0xRRGGBB`.
    pub const fn hex(value: u32) -> Rgb {
        Rgb((value >> 16) as u8, (value >> 8) as u8, value as u8)
    }

    /// The colour `t` of the way from `self` to `other` (`t` in 0..=1).
    pub fn mix(self, other: Rgb, t: f32) -> Rgb {
        let channel = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * t).round() as u8;
        Rgb(
            channel(self.0, other.0),
            channel(self.1, other.1),
            channel(self.2, other.2),
        )
    }

    /// The colour as SVG/CSS text (`#rrggbb`).
    pub fn css(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// The three colours of one side's pieces.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PieceColors {
    /// The body of the piece.
    pub fill: Rgb,
    /// The outline around every part.
    pub outline: Rgb,
    /// Inner detail lines (the same as the outline on light pieces, light on dark pieces).
    pub detail: Rgb,
}

/// The colours of a board theme.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Theme {
    /// Background around the board, behind absent squares, strips and pockets.
    pub page: Rgb,
    /// Player names and the status line.
    pub text: Rgb,
    /// Coordinates and the move number.
    pub text_dim: Rgb,
    /// Light squares.
    pub light: Rgb,
    /// Dark squares.
    pub dark: Rgb,
    /// Light squares of the last move.
    pub light_last_move: Rgb,
    /// Dark squares of the last move.
    pub dark_last_move: Rgb,
    /// Light squares the variant marks (the hill, palaces).
    pub light_marked: Rgb,
    /// Dark squares the variant marks.
    pub dark_marked: Rgb,
    /// Cells of a one-colour board.
    pub uniform: Rgb,
    /// Cells of a one-colour board on the last move.
    pub uniform_last_move: Rgb,
    /// Marked cells of a one-colour board.
    pub uniform_marked: Rgb,
    /// The grid lines between the cells of a one-colour board, so squares can be counted.
    pub uniform_grid: Rgb,
    /// Background of a point board.
    pub points: Rgb,
    /// Lines of a point board.
    pub points_line: Rgb,
    /// The centre of the red glow under a king in check.
    pub check: Rgb,
    /// Fogged squares.
    pub fog: Rgb,
    /// The cloud drawn on fogged squares.
    pub fog_cloud: Rgb,
    /// Piece colours per side (white, black, then the sides of four-player games).
    pub pieces: [PieceColors; 5],
    /// The mark on promoted pieces.
    pub promoted: Rgb,
    /// The ring around the side to move, the pocket count badges.
    pub accent: Rgb,
    /// Text on accent-coloured badges.
    pub accent_text: Rgb,
    /// The clock of the side to move.
    pub clock_active: Rgb,
    /// Text on the clock of the side to move.
    pub clock_active_text: Rgb,
    /// The clock of the side waiting.
    pub clock_idle: Rgb,
    /// Text on the clock of the side waiting.
    pub clock_idle_text: Rgb,
    /// Three-check counters.
    pub check_counter: Rgb,
}

impl Theme {
    /// Green squares on a dark page, like the boards players know from the big chess sites.
    pub fn green() -> Theme {
        let dark_outline = Rgb::hex(0x1b1a18);
        Theme {
            page: Rgb::hex(0x2b2926),
            text: Rgb::hex(0xe8e6e3),
            text_dim: Rgb::hex(0xa39e97),
            light: Rgb::hex(0xebecd0),
            dark: Rgb::hex(0x739552),
            light_last_move: Rgb::hex(0xf5f682),
            dark_last_move: Rgb::hex(0xb9ca43),
            light_marked: Rgb::hex(0xd6e3e4),
            dark_marked: Rgb::hex(0x66907a),
            uniform: Rgb::hex(0xe2c792),
            uniform_last_move: Rgb::hex(0xeedf72),
            uniform_marked: Rgb::hex(0xd3bb8a),
            uniform_grid: Rgb::hex(0x9c7f52),
            points: Rgb::hex(0xe9c98f),
            points_line: Rgb::hex(0x5e4024),
            check: Rgb::hex(0xe8291f),
            fog: Rgb::hex(0x4d5661),
            fog_cloud: Rgb::hex(0x5f6a77),
            pieces: [
                PieceColors {
                    fill: Rgb::hex(0xfbfbf8),
                    outline: dark_outline,
                    detail: dark_outline,
                },
                PieceColors {
                    fill: Rgb::hex(0x3b3937),
                    outline: Rgb::hex(0x0f0e0d),
                    detail: Rgb::hex(0xe2dfda),
                },
                PieceColors {
                    fill: Rgb::hex(0xd24b3f),
                    outline: dark_outline,
                    detail: Rgb::hex(0xfbe9e4),
                },
                PieceColors {
                    fill: Rgb::hex(0x3f6fcf),
                    outline: dark_outline,
                    detail: Rgb::hex(0xe6edfb),
                },
                PieceColors {
                    fill: Rgb::hex(0xe8c230),
                    outline: dark_outline,
                    detail: Rgb::hex(0x3a2f08),
                },
            ],
            promoted: Rgb::hex(0xf08a24),
            accent: Rgb::hex(0x81b64c),
            accent_text: Rgb::hex(0xffffff),
            clock_active: Rgb::hex(0xf0efec),
            clock_active_text: Rgb::hex(0x1e1d1b),
            clock_idle: Rgb::hex(0x3d3a36),
            clock_idle_text: Rgb::hex(0xb8b3ac),
            check_counter: Rgb::hex(0xe0453a),
        }
    }

    /// Brown wooden squares, the classic tournament look.
    pub fn brown() -> Theme {
        Theme {
            light: Rgb::hex(0xf0d9b5),
            dark: Rgb::hex(0xb58863),
            light_last_move: Rgb::hex(0xcdd26a),
            dark_last_move: Rgb::hex(0xaaa23a),
            light_marked: Rgb::hex(0xdcd6c4),
            dark_marked: Rgb::hex(0xa08a78),
            ..Theme::green()
        }
    }

    /// The ink of `side`'s Janggi pieces: blue for the first player, red for the second.
    pub fn janggi_ink(&self, side: u8) -> Rgb {
        if side % 2 == 0 {
            self.pieces[3].fill
        } else {
            self.pieces[2].fill
        }
    }

    /// The colours of `side`'s pieces (sides past the fourth reuse the first four).
    pub fn piece_colors(&self, side: u8) -> PieceColors {
        self.pieces[side as usize % self.pieces.len()]
    }
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::green()
    }
}
