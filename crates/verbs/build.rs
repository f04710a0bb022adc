//! Hands the crate the triple it is compiled for (`MUR_VERBS_TARGET`), so the
//! verb runtime names it to wasmtime as a constant: formatting
//! `target_lexicon::HOST` on every call cost ~10 µs of cold code (docs/performance.md, "Less
//! cold code on every call").

fn main() {
    // Cargo sets TARGET for every build script; it is the triple rustc compiles for.
    let target = std::env::var("TARGET").unwrap_or_default();
    println!("cargo:rustc-env=MUR_VERBS_TARGET={target}");
    println!("cargo:rerun-if-changed=build.rs");
}
