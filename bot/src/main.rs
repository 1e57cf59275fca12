//! The `kodex` binary.

fn main() {}
