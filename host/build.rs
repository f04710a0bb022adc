//! Links `mur` as a position-dependent executable on Linux (`-no-pie`).
//!
//! A position-independent `mur` carries ~45,000 relative relocations (every
//! vtable and static pointer of wasmtime, cranelift, clap, tokio…), which the
//! dynamic loader applies on every start, writing — and so copying — ~0.7 MB
//! of pages: ~0.45 ms of each ~5 ms call on the development machine (see the
//! README's Performance section). Linked at a fixed address, the loader has
//! nothing to relocate and those pages stay shared with the page cache. The
//! price is that `mur`'s own code is not at a random address (its libraries,
//! heap, stack and the verbs' code still are).
//!
//! `MUR_SYMBOL_ORDER=FILE` (made by `bench/symbol-order.sh` from a profile of
//! the same build profile) links the functions a call runs next to each other
//! (rust-lld's `--symbol-ordering-file`; names it does not find are skipped):
//! fewer code pages faulted in per call. Off unless set.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bin=mur=-no-pie");
    }
    println!("cargo:rerun-if-env-changed=MUR_SYMBOL_ORDER");
    if let Ok(file) = std::env::var("MUR_SYMBOL_ORDER") {
        println!("cargo:rerun-if-changed={file}");
        println!(
            "cargo:rustc-link-arg-bin=mur=-Wl,--symbol-ordering-file={file},--no-warn-symbol-ordering"
        );
    }
}
