//! `kodex-uci`: the alias of `kodex uci` (see [`kodex_uci`]).

fn main() -> std::io::Result<()> {
    kodex_uci::run()
}
