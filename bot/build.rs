//! Rebuilds the crate when a migration is added: `sqlx::migrate!` embeds the
//! migrations folder, and Cargo would not notice a new file in it otherwise.

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
