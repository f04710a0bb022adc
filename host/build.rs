//! Links `mur` as a position-dependent executable on Linux (`-no-pie`), and in an
//! optimised build on x86_64 Linux with the functions a call runs next to each other.
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
//! The link order: `host/symbol-order.txt` (written by `bench/symbol-order.sh` from a
//! profile of warm calls of a release build) is passed to rust-lld, the default linker
//! there, as `--symbol-ordering-file`: the code a call touches is packed into fewer
//! pages, so fewer are faulted in and mapped per call. Names it does not find (another
//! toolchain, changed dependencies: their mangled names carry build hashes) are skipped
//! without a word, so a stale order costs speed, never correctness. A linker without
//! the option (GNU ld, when configured instead of rust-lld) fails the link:
//! `MUR_SYMBOL_ORDER=` builds without an order, `MUR_SYMBOL_ORDER=FILE` with another.

use std::path::Path;

/// The committed link order, relative to this package.
const ORDER: &str = "symbol-order.txt";

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bin=mur=-no-pie");
    }
    println!("cargo:rerun-if-env-changed=MUR_SYMBOL_ORDER");
    println!("cargo:rerun-if-changed={ORDER}");
    let order = match std::env::var("MUR_SYMBOL_ORDER") {
        Ok(file) if file.is_empty() => None,
        Ok(file) => Some(file),
        // Optimised builds only: a debug build's names never match a release profile's.
        Err(_) if std::env::var("PROFILE").as_deref() == Ok("release") => {
            let on_lld = os == "linux" && env == "gnu" && arch == "x86_64";
            let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
            let committed = Path::new(&dir).join(ORDER);
            (on_lld && committed.is_file()).then(|| committed.display().to_string())
        }
        Err(_) => None,
    };
    if let Some(file) = order {
        println!("cargo:rerun-if-changed={file}");
        println!(
            "cargo:rustc-link-arg-bin=mur=-Wl,--symbol-ordering-file={file},--no-warn-symbol-ordering"
        );
    }
}
