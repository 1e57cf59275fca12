//! `kodex-uci`: a small UCI front-end for perft, line-compatible with Fairy-Stockfish.

fn main() {}
