//! The renderer from outside, one test binary: decoded PNG and GIF properties
//! on hand-built views (`render`), and real engine views with the
//! `kodex-render` command line (`engine`). Run one subject with its module
//! path, e.g. `cargo test -p kodex-render --test render engine::`.

mod engine;
mod render;
