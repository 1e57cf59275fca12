//! `kodex-render`: the alias of `kodex render` (see [`kodex_render::cli`]).

fn main() -> std::process::ExitCode {
    kodex_render::cli::main(std::env::args().skip(1))
}
