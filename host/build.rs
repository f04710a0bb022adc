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
//! heap, stack and the verbs' code still are). The static musl build gets the same
//! from `.cargo/config.toml` (`relocation-model=static`: there is no loader to tell).
//!
//! The link order: `host/symbol-order.txt` (written by `bench/symbol-order.sh` from a
//! profile of warm calls of a release build; `symbol-order-musl.txt` for the static
//! musl build, whose names differ) is passed to rust-lld as `--symbol-ordering-file`:
//! the code a call touches is packed into fewer pages, so fewer are faulted in and
//! mapped per call. rust-lld is the default linker of x86_64 glibc Linux; the musl
//! build links through the C compiler, which is pointed at the toolchain's own lld
//! (`gcc-ld/ld.lld`, as rustc does for glibc) when the toolchain has it. Names it does
//! not find (another toolchain, changed dependencies: their mangled names carry build
//! hashes) are skipped without a word, so a stale order costs speed, never
//! correctness. A linker without the option (GNU ld, when configured instead of
//! rust-lld) fails the link: `MUR_SYMBOL_ORDER=` builds without an order,
//! `MUR_SYMBOL_ORDER=FILE` with another.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The committed link orders, relative to this package.
const ORDER: &str = "symbol-order.txt";
const ORDER_MUSL: &str = "symbol-order-musl.txt";

fn main() {
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let (os, env, arch) = (
        var("CARGO_CFG_TARGET_OS"),
        var("CARGO_CFG_TARGET_ENV"),
        var("CARGO_CFG_TARGET_ARCH"),
    );
    let linux_x86_64 = os == "linux" && arch == "x86_64";
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bin=mur=-no-pie");
    }
    println!("cargo:rerun-if-env-changed=MUR_SYMBOL_ORDER");
    println!("cargo:rerun-if-changed={ORDER}");
    println!("cargo:rerun-if-changed={ORDER_MUSL}");
    // Where the order can be given to lld: glibc links with rust-lld already; musl
    // through the C compiler, told to use the toolchain's lld.
    let on_lld = match env.as_str() {
        "gnu" if linux_x86_64 => true,
        "musl" if linux_x86_64 => match toolchain_lld_dir() {
            Some(dir) => {
                println!("cargo:rustc-link-arg-bin=mur=-B{}", dir.display());
                println!("cargo:rustc-link-arg-bin=mur=-fuse-ld=lld");
                true
            }
            None => false,
        },
        _ => false,
    };
    let order = match std::env::var("MUR_SYMBOL_ORDER") {
        Ok(file) if file.is_empty() => None,
        Ok(file) => Some(file),
        // Optimised builds only: a debug build's names never match a release profile's.
        Err(_) if var("PROFILE") == "release" && on_lld => {
            let name = if env == "musl" { ORDER_MUSL } else { ORDER };
            let committed = Path::new(&var("CARGO_MANIFEST_DIR")).join(name);
            committed.is_file().then(|| committed.display().to_string())
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

/// The toolchain's `gcc-ld` directory (an `ld.lld` that runs its rust-lld), if it has one.
fn toolchain_lld_dir() -> Option<PathBuf> {
    let rustc = std::env::var_os("RUSTC")?;
    let output = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()?;
    let sysroot = String::from_utf8(output.stdout).ok()?;
    let host = std::env::var("HOST").ok()?;
    let dir = Path::new(sysroot.trim())
        .join("lib/rustlib")
        .join(host)
        .join("bin/gcc-ld");
    dir.join("ld.lld").is_file().then_some(dir)
}
