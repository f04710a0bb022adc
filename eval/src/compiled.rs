//! The verbs a CLI profile gives its agents, installed and compiled once per output
//! directory and copied into each run. Compiling a verb takes a second (Rust) to tens of
//! seconds (Python, JavaScript), and every run of a study (every task of a `run`)
//! installs the same ones: they are installed once, in `<out>/compiled-verbs`, for the
//! `mur` under test and the verb files as they are, and kept there for every later
//! command into that directory. Each run gets a copy of its own, verb directory and
//! compiled code, as its `XDG_DATA_HOME` and `XDG_CACHE_HOME`: a verb its agent adds or
//! removes, or compiled code it changes — mur maps its cache checking the entry's form,
//! not the code in it (crates/verbs/src/cache.rs) — is that run's alone.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mur_core::{Error, Result};
use sha2::Digest as _;

use crate::tree::create_dir;

/// Where an output directory keeps its installed verbs.
pub const STORE: &str = "compiled-verbs";

/// Verbs installed once ([`install`]), for each run to copy ([`Installed::copy_to`]).
#[derive(Debug, Clone)]
pub struct Installed {
    dir: PathBuf,
}

impl Installed {
    /// The installation's own directory (its `home` and `state` besides the two below).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Its `XDG_DATA_HOME`: the verb directory.
    pub fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// Its `XDG_CACHE_HOME`: the compiled code.
    pub fn cache(&self) -> PathBuf {
        self.dir.join("cache")
    }

    /// Whether it is whole and is the directory it was made as. One copied with its
    /// study (`cp -r out copy`, which gives each file a new time) holds verb files whose
    /// times are no longer those mur's index recorded: each run would compile every verb
    /// again on its first call, counted in the agent's time. Made anew instead. Known by
    /// the directory's identity, not its path: the same study named another way
    /// (`--out ./x`, then `/abs/x`, or through a link) or moved whole is the one made.
    fn made_here(&self) -> bool {
        let recorded = crate::bounded::read(&self.dir.join(MADE_IN), 64);
        matches!((recorded, identity(&self.dir)), (Ok(read), Some(now)) if read.bytes == now.as_bytes())
    }

    /// The installation copied into `data` and `cache` (made here), each file with its
    /// time: mur takes an installed verb's file for the one its index recorded by its
    /// size and time, and only then maps the compiled code instead of compiling again.
    pub fn copy_to(&self, data: &Path, cache: &Path) -> Result<()> {
        for (from, to) in [(self.data(), data), (self.cache(), cache)] {
            crate::tree::copy(&from, to).map_err(|e| {
                Error::internal(format!(
                    "cannot copy the installed verbs from `{}` to `{}`: {e}",
                    from.display(),
                    to.display()
                ))
            })?;
        }
        Ok(())
    }
}

/// What is said before the verbs in `dir` are installed into `store`: compiling them
/// takes a while, once.
pub fn installing(dir: &Path, store: &Path) -> String {
    format!(
        "installing the verbs in `{}` (compiled once for every run, kept in `{}`)",
        dir.display(),
        store.display()
    )
}

/// The verbs of each of `dirs` installed for `mur`, in order, a later one's replacing
/// verbs of the same names, in `store`: found there when an earlier command installed
/// the same files for the same `mur`, else installed now, `installing` told of each
/// directory first (the wait is a second a verb, tens of seconds for a Python or
/// JavaScript one). Each prefix of `dirs` is kept on its own, so that conditions adding
/// verbs over the same ones (`verbs_over`) compile those once. Installations for
/// another `mur` (a rebuilt one) are removed: no command of this one reads them.
pub fn install(
    store: &Path,
    mur: &Path,
    dirs: &[&Path],
    installing: &mut dyn FnMut(&Path),
) -> Result<Option<Installed>> {
    if dirs.is_empty() {
        return Ok(None);
    }
    let mur_key = mur_key(mur)?;
    create_dir(store)?;
    forget_other_murs(store, &mur_key);
    let mut files_key = sha2::Sha256::new();
    let mut made: Option<Installed> = None;
    for (index, dir) in dirs.iter().enumerate() {
        let files = verb_files(dir)?;
        for file in &files {
            files_key.update(file.file_name().unwrap_or_default().as_encoded_bytes());
            files_key.update(b"\0");
            files_key.update(sha256_of(file)?);
            files_key.update(b"\n");
        }
        files_key.update(b"\n");
        let key = mur_core::hex(&files_key.clone().finalize());
        let installed = Installed {
            dir: store.join(format!("{mur_key}-{}", &key[..16])),
        };
        if !installed.made_here() {
            let _ = std::fs::remove_dir_all(&installed.dir);
            installing(dir);
            build(&installed, made.as_ref(), mur, dir, &files, index > 0)?;
        }
        made = Some(installed);
    }
    Ok(made)
}

/// What tells installations for one `mur` from another's: its path, size and time
/// (hashing a debug build's hundreds of MB on every command would cost more than it
/// saves), in 16 hex digits.
fn mur_key(mur: &Path) -> Result<String> {
    let resolved = std::fs::canonicalize(mur).unwrap_or_else(|_| mur.to_owned());
    let meta = std::fs::metadata(&resolved)
        .map_err(|e| Error::internal(format!("cannot read `{}`: {e}", mur.display())))?;
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .unwrap_or_default();
    let mut key = sha2::Sha256::new();
    key.update(resolved.as_os_str().as_encoded_bytes());
    key.update(format!("\0{}\0{}", meta.len(), modified.as_nanos()));
    Ok(mur_core::hex(&key.finalize())[..16].to_owned())
}

/// Removes what `store` holds for a `mur` other than the one of `mur_key`, and any
/// installation a killed command left half made.
fn forget_other_murs(store: &Path, mur_key: &str) {
    let Ok(entries) = std::fs::read_dir(store) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with(&format!("{mur_key}-")) || name.ends_with(PARTIAL) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The file holding the identity of the directory an installation was made as
/// ([`identity`]), written once it is whole.
const MADE_IN: &str = "made-in";

/// A directory's identity on this machine, its device and inode: kept by a rename or a
/// move, not by a copy.
fn identity(dir: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt as _;
    let meta = std::fs::metadata(dir).ok()?;
    Some(format!("{}:{}", meta.dev(), meta.ino()))
}

/// How an installation being made is named until it is whole.
const PARTIAL: &str = ".partial";

/// `installed` made: `over`'s installation copied, then the verbs `files` of `dir`
/// added (replacing those of the same names when `replace`). Made beside it and renamed
/// into place once whole, so that an installation is never found half made.
fn build(
    installed: &Installed,
    over: Option<&Installed>,
    mur: &Path,
    dir: &Path,
    files: &[PathBuf],
    replace: bool,
) -> Result<()> {
    let partial = Installed {
        dir: PathBuf::from(format!("{}{PARTIAL}", installed.dir.display())),
    };
    let _ = std::fs::remove_dir_all(&partial.dir);
    let made = (|| {
        create_dir(&partial.dir.join("home"))?;
        if let Some(over) = over {
            over.copy_to(&partial.data(), &partial.cache())?;
        }
        add(mur, &partial, dir, files, replace)?;
        // The rename below keeps the directory's identity.
        let made_in = partial.dir.join(MADE_IN);
        let here = identity(&partial.dir).unwrap_or_default();
        std::fs::write(&made_in, here).map_err(|e| crate::write::unwritten(&made_in, &e))?;
        std::fs::rename(&partial.dir, &installed.dir).map_err(|e| {
            Error::internal(format!(
                "cannot rename `{}` to `{}`: {e}",
                partial.dir.display(),
                installed.dir.display()
            ))
        })
    })();
    if made.is_err() {
        let _ = std::fs::remove_dir_all(&partial.dir);
    }
    made
}

/// `mur devtools verbs add` of `files` (the verbs in `dir`; with `--force` when
/// `replace`) into `installed`.
fn add(
    mur: &Path,
    installed: &Installed,
    dir: &Path,
    files: &[PathBuf],
    replace: bool,
) -> Result<()> {
    let output = verbs_command(mur, installed.dir(), &installed.data(), &installed.cache())
        .arg("add")
        .args(replace.then_some("--force"))
        .args(files)
        .output()
        .map_err(|e| Error::internal(format!("cannot run `{}`: {e}", mur.display())))?;
    if !output.status.success() {
        return Err(Error::internal(format!(
            "`mur devtools verbs add` of the verbs in `{}` failed ({}): {}",
            dir.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(())
}

/// `mur devtools verbs` as the harness runs it on installed verbs (`add` them, `list`
/// them): in `dir`'s home and state, with the data and cache directories given, and
/// nothing else of the harness's environment. One place, so that what is listed is what
/// was installed.
pub fn verbs_command(mur: &Path, dir: &Path, data_home: &Path, cache_home: &Path) -> Command {
    let mut command = Command::new(mur);
    crate::stop::unblocked(&mut command)
        .args(["devtools", "verbs"])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", dir.join("home"))
        .env("XDG_DATA_HOME", data_home)
        .env("XDG_CACHE_HOME", cache_home)
        .env("XDG_STATE_HOME", dir.join("state"))
        .stdin(Stdio::null());
    command
}

/// The verb files in `dir` — components (`*.wasm`) and data verbs (`*.json`) — sorted;
/// a usage error for a directory missing or without any (what to do depends on whose
/// directory it is: [`check_dir`] says).
fn verb_files(dir: &Path) -> Result<Vec<PathBuf>> {
    crate::listing::files(
        dir,
        "verb",
        "verb files (`*.wasm`, `*.json`)",
        &["wasm", "json"],
    )
}

/// What to do about a missing or empty directory of the standard verbs (`--verbs`, or the
/// installed verbs it defaults to).
pub const STANDARD_VERBS_HINT: &str = "build the standard verbs (`bash plugins/build.sh`) and \
     pass `--verbs plugins/target/wasm32-unknown-unknown/release`, or install them (`bash \
     scripts/setup.sh`)";

/// Refuses, before anything is installed, a verb directory that is missing or holds no
/// verb files (a usage error, exit 1), with `hint`: checked up front, a study does not
/// compile one condition's verbs for seconds and then stop at the next one's.
pub fn check_dir(dir: &Path, hint: &str) -> Result<()> {
    verb_files(dir).map(drop).map_err(|e| e.with_hint(hint))
}

/// The script that builds the verbs of `dir`, when `dir` is a cargo build's output
/// (`…/target/wasm32-unknown-unknown/release`) whose workspace has a `build.sh`, as
/// `plugins/` and `plugins/compact/` have.
pub fn build_script(dir: &Path) -> Option<PathBuf> {
    let target = dir
        .ancestors()
        .find(|a| a.file_name() == Some("target".as_ref()))?;
    Some(target.parent()?.join("build.sh")).filter(|script| script.is_file())
}

/// The sha256 of the verb file at `path` ([`sha256_file`]).
fn sha256_of(path: &Path) -> Result<Vec<u8>> {
    sha256_file(path).map_err(|e| {
        Error::usage(format!(
            "cannot read the verb file `{}`: {e}",
            path.display()
        ))
    })
}

/// The sha256 of the file at `path`, read a piece at a time, opened without waiting (a
/// FIFO by a verb's or a program's name is refused at once, as `verbs add` refuses it).
pub fn sha256_file(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut file = mur_lockfile::open_regular(std::fs::OpenOptions::new().read(true), path)?;
    let mut hasher = sha2::Sha256::new();
    std::io::copy(&mut file, &mut hasher)?;
    Ok(hasher.finalize().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_installation_copied_elsewhere_is_not_taken_for_one_made_there() {
        let dir = tempfile::tempdir().expect("tempdir");
        let made = Installed {
            dir: dir.path().join("aaaa-1"),
        };
        std::fs::create_dir(&made.dir).expect("dir");
        assert!(!made.made_here(), "no record of where: half made");
        let here = identity(&made.dir).expect("identity");
        std::fs::write(made.dir.join(MADE_IN), here).expect("write");
        assert!(made.made_here());
        let copy = Installed {
            dir: dir.path().join("copy"),
        };
        crate::tree::copy(&made.dir, &copy.dir).expect("copied");
        assert!(!copy.made_here(), "a copy is made anew");
        // The same directory by another name, or moved, is the one made.
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(dir.path(), &link).expect("symlink");
        let linked = Installed {
            dir: link.join("aaaa-1"),
        };
        assert!(linked.made_here(), "through a link");
        let moved = Installed {
            dir: dir.path().join("moved"),
        };
        std::fs::rename(&made.dir, &moved.dir).expect("move");
        assert!(moved.made_here(), "moved");
    }

    #[test]
    fn an_installation_for_another_mur_or_half_made_is_removed() {
        let store = tempfile::tempdir().expect("tempdir");
        for name in ["aaaa-1", "aaaa-2", "aaaa-3.partial", "bbbb-1"] {
            std::fs::create_dir(store.path().join(name)).expect("dir");
        }
        forget_other_murs(store.path(), "aaaa");
        let mut left: Vec<String> = std::fs::read_dir(store.path())
            .expect("read")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["aaaa-1", "aaaa-2"]);
    }
}
