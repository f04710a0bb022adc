//! Whether a committed link order still fits the `mur` being measured: how many of the
//! functions `host/symbol-order*.txt` names the built binary defines. The names carry
//! hashes of the toolchain and of the dependencies, so a new dependency or feature
//! leaves most of them unmatched, and the linker says nothing (host/build.rs passes
//! `--no-warn-symbol-ordering`): a warm call then faults 65–75 more pages and takes
//! ~1 ms longer (docs/performance.md, "The orders made anew, fifty-first session").
//! Said before the tables, so that figures of a stale order are not quoted as the
//! build's.

use std::{collections::HashSet, path::Path};

use object::{Object as _, ObjectSymbol as _};

/// Below this share of its names found, an order is said to be stale (a fresh one
/// finds all of them; one made before a dependency changed, a third to two thirds).
const STALE_BELOW_PERCENT: usize = 90;

/// How many functions an order names, and how many of them a binary defines.
#[derive(Debug, PartialEq, Eq)]
pub struct Fit {
    pub named: usize,
    pub found: usize,
}

impl Fit {
    fn stale(&self) -> bool {
        self.found * 100 < self.named * STALE_BELOW_PERCENT
    }
}

/// How well `order` (one symbol name a line, as bench/symbol-order.sh writes it) fits
/// the ELF executable `binary`.
pub fn fit(binary: &Path, order: &Path) -> Result<Fit, String> {
    let names = std::fs::read_to_string(order)
        .map_err(|e| format!("cannot read {}: {e}", order.display()))?;
    let data =
        std::fs::read(binary).map_err(|e| format!("cannot read {}: {e}", binary.display()))?;
    let file = object::File::parse(&*data)
        .map_err(|e| format!("cannot read the symbols of {}: {e}", binary.display()))?;
    let defined: HashSet<&str> = file
        .symbols()
        .filter(|symbol| symbol.is_definition())
        .filter_map(|symbol| symbol.name().ok())
        .collect();
    let named: Vec<&str> = names.lines().filter(|line| !line.is_empty()).collect();
    let found = named.iter().filter(|name| defined.contains(*name)).count();
    Ok(Fit {
        named: named.len(),
        found,
    })
}

/// A line for stderr when the order host/build.rs links `mur` for `target` with (the
/// host's when `None`) does not fit the build at `binary`; nothing for a target
/// linked without an order.
pub fn stale_note(binary: &Path, target: Option<&str>) -> Option<String> {
    let file = order_file(target)?;
    let order = mur_testkit::artifacts::workspace_root()
        .join("host")
        .join(file);
    match fit(binary, &order) {
        Ok(fit) if fit.stale() => Some(format!(
            "warning: host/{file} names {} functions and this build of mur has {} of them: \
             its calls fault pages a fresh order spares, so these are not the build's figures; \
             make the order anew first (bench/symbol-order.sh)",
            fit.named, fit.found
        )),
        Ok(_) => None,
        Err(why) => Some(format!(
            "note: whether host/{file} fits this build is not known: {why}"
        )),
    }
}

/// The order host/build.rs gives a release build for `target`: x86_64 Linux only.
fn order_file(target: Option<&str>) -> Option<&'static str> {
    match target {
        None if cfg!(all(
            target_os = "linux",
            target_arch = "x86_64",
            target_env = "gnu"
        )) =>
        {
            Some("symbol-order.txt")
        }
        Some("x86_64-unknown-linux-gnu") => Some("symbol-order.txt"),
        Some("x86_64-unknown-linux-musl") => Some("symbol-order-musl.txt"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An order file holding `text`, in a directory kept while the `TempDir` lives.
    fn order_of(text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().expect("tempdir");
        let order = dir.path().join("order.txt");
        std::fs::write(&order, text).expect("order");
        (dir, order)
    }

    /// Counted against the symbols of a real executable (this test's own): `main` is
    /// defined in it, a made-up name is not, and a blank line names nothing.
    #[test]
    fn an_order_is_stale_when_few_of_its_names_are_defined() {
        let (_dir, order) = order_of("main\n_ZN9not_there17h0000000000000000E\n\n");
        let me = std::env::current_exe().expect("this test's executable");
        let fit = fit(&me, &order).expect("an ELF executable");
        assert_eq!(fit, Fit { named: 2, found: 1 });
        assert!(fit.stale());
        assert!(
            !Fit {
                named: 10,
                found: 9
            }
            .stale()
        );
        assert!(
            Fit {
                named: 10,
                found: 8
            }
            .stale()
        );
    }

    /// A file that is not an executable is said so, not counted as a stale order.
    #[test]
    fn a_binary_that_is_not_elf_is_said_so() {
        let (dir, order) = order_of("main\n");
        let script = dir.path().join("mur");
        std::fs::write(&script, "#!/bin/sh\n").expect("script");
        let why = fit(&script, &order).expect_err("not ELF");
        assert!(why.starts_with("cannot read the symbols of "), "{why}");
    }
}
