//! `kodex-uci`: the alias of `kodex uci` (see [`kodex_engine::uci`]).

fn main() -> std::io::Result<()> {
    kodex_engine::uci::run()
}
