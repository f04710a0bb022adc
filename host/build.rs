//! Links `mur` as a position-dependent executable on Linux (`-no-pie`), and in an
//! optimised build on x86_64 Linux with the functions a call runs next to each other.
//!
//! A position-independent `mur` carries ~45,000 relative relocations (every
//! vtable and static pointer of wasmtime, cranelift, clap, tokio…), which the
//! dynamic loader applies on every start, writing — and so copying — ~0.7 MB
//! of pages: ~0.45 ms of each ~5 ms call on the development machine (see the
//! docs/performance.md). Linked at a fixed address, the loader has
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
//!
//! The constants a call reads, for the static musl build: `host/rodata-order-musl.txt`
//! (written by `bench/rodata-order.sh`) names the input sections of `.rodata` it reads,
//! which go first, into an output section of their own (`.rodata.hot`, through a linker
//! script with `INSERT BEFORE .rodata`, so the rest of the layout is lld's own). Most of
//! them are anonymous (string literals, vtables, format pieces, panic locations): no
//! symbol names them, so the link order cannot move them, but rustc gives each its own
//! section. `MUR_RODATA_ORDER=` builds without it, `MUR_RODATA_ORDER=FILE` with another;
//! `MUR_LINK_MAP=FILE` writes the link map that script reads.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The committed link orders, relative to this package.
const ORDER: &str = "symbol-order.txt";
const ORDER_MUSL: &str = "symbol-order-musl.txt";
/// The read-only data a call reads, by input section, for the static musl build.
const RODATA_ORDER_MUSL: &str = "rodata-order-musl.txt";

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
    println!("cargo:rerun-if-changed={ORDER}");
    println!("cargo:rerun-if-changed={ORDER_MUSL}");
    println!("cargo:rerun-if-changed={RODATA_ORDER_MUSL}");
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
    // Optimised builds only: a debug build's names never match a release profile's.
    let ordered = var("PROFILE") == "release" && on_lld;
    let musl = env == "musl";
    let symbols = chosen(
        "MUR_SYMBOL_ORDER",
        ordered,
        if musl { ORDER_MUSL } else { ORDER },
    );
    if let Some(file) = symbols {
        println!(
            "cargo:rustc-link-arg-bin=mur=-Wl,--symbol-ordering-file={file},--no-warn-symbol-ordering"
        );
    }
    let rodata = chosen("MUR_RODATA_ORDER", ordered && musl, RODATA_ORDER_MUSL);
    if let Some(file) = rodata {
        let script = Path::new(&var("OUT_DIR")).join("rodata-order.ld");
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("reading the .rodata order {file}: {e}"));
        std::fs::write(&script, rodata_script(&file, &text))
            .unwrap_or_else(|e| panic!("writing {}: {e}", script.display()));
        println!("cargo:rustc-link-arg-bin=mur=-Wl,-T,{}", script.display());
    }
    // A link map, for bench/rodata-order.sh: the names of the input sections that a
    // profile's addresses fall in.
    println!("cargo:rerun-if-env-changed=MUR_LINK_MAP");
    match std::env::var("MUR_LINK_MAP") {
        Ok(map) if !map.is_empty() => println!("cargo:rustc-link-arg-bin=mur=-Wl,-Map={map}"),
        _ => {}
    }
}

/// The order file to link with: `$VAR` when set (empty: none), else the committed
/// `name` of this package when `default` holds and it exists.
fn chosen(var: &str, default: bool, name: &str) -> Option<String> {
    println!("cargo:rerun-if-env-changed={var}");
    let file = match std::env::var(var) {
        Ok(file) if file.is_empty() => return None,
        Ok(file) => file,
        Err(_) if default => {
            let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
            let committed = Path::new(&dir).join(name);
            committed
                .is_file()
                .then(|| committed.display().to_string())?
        }
        Err(_) => return None,
    };
    println!("cargo:rerun-if-changed={file}");
    Some(file)
}

/// A linker script that adds one output section, `.rodata.hot`, before `.rodata`,
/// holding the input sections `order` names (one a line; `#` starts a comment), in its
/// order. `INSERT` keeps the linker's own layout for everything else, and a name the
/// link does not have matches nothing. A name with a glob character (`*?[]\`) would
/// match more than itself, and one with the script's own punctuation or a space would
/// break it: either is left out (rustc's section names have neither).
fn rodata_script(file: &str, order: &str) -> String {
    let mut script =
        format!("/* Written by host/build.rs from {file}. */\nSECTIONS {{\n  .rodata.hot : {{\n");
    let names = order
        .lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim())
        .filter(|name| !name.is_empty())
        .filter(|name| !name.contains(|c: char| "*?[]\\(){};\"".contains(c) || c.is_whitespace()));
    for name in names {
        script.push_str(&format!("    *({name})\n"));
    }
    script.push_str("  }\n} INSERT BEFORE .rodata;\n");
    script
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
