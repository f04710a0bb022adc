//! `mur`: placeholder entry point until the host lands.
fn main() {}
