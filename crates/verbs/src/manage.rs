//! Managing installed verbs: list, add, remove and inspect. Each returns what
//! it found or did; the binary prints it.

use std::path::{Path, PathBuf};

use super::bindings::VERSIONS;
use super::bounded::{self, Links, Refusal};
use super::cache::{CodeCache, UNUSED_OTHER_ENGINE, canonical, open_lock};
use super::data::{self, DataVerb};
use super::dirs::VerbDirs;
use super::error::{VerbError, io_error};
pub use super::index::Broken;
use super::index::{Entry, Index, appended, stamp, write_atomic};
use super::instance::{Described, Instance};
use super::name_section;
use super::names::{self, INDEX_NAME, Unusable, valid_verb_name};
use super::runtime::{Changed, Runtime};
pub use super::runtime::{SLOW_COMPILE_BYTES, slow_to_compile};
use super::spec::{ToolWait, VerbSpec};
use mur_core::{hex, sha256_hex};
use sha2::{Digest as _, Sha256};

/// What `verbs add` did with one verb.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Added {
    /// Installed; `replaced` says what the verb it replaced (with `--force`) was.
    Installed {
        name: String,
        tool: String,
        replaced: Option<Replaced>,
        /// The tool the replaced verb called, when it was another: its verb
        /// now runs as the tool's derived one, and `tool`'s derived verb is
        /// now this one.
        was_tool: Option<String>,
        /// Other verbs installed from the same file: earlier builds of it, which
        /// declared another name (the verb renamed in its source). They stay
        /// installed (the user may want both) and callable, and are named so that
        /// the rename does not leave them unseen.
        earlier_names: Vec<String>,
        /// The earlier names its examples still call it by: the author's text,
        /// shown in its help as written, which a rename in source leaves behind.
        stale_examples: Vec<String>,
    },
    /// The same bytes were installed already; nothing changed.
    Unchanged { name: String },
    /// The same bytes were installed already, but the verb's file in mur's
    /// directory was not them (`why`: it `was missing`, `cannot be read: …`):
    /// every call failed (exit 7), and the file is now copied in again.
    Repaired { name: String, why: String },
}

/// What a verb `verbs add --force` replaced was, as its index entry said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replaced {
    /// Added from this file (`verbs add`'s, as given).
    From(String),
    /// Its entry kept no source.
    Unknown,
    /// Its index entry was unreadable (a [`Broken`] one): mur knows nothing of it.
    Unreadable,
}

/// The installed verbs, in the index's order (without any whose entry file is broken).
pub fn list(dirs: &VerbDirs) -> Result<Vec<Entry>, VerbError> {
    Ok(Index::load(&dirs.verbs)?.verbs)
}

/// [`list`], and the entry files it left out, unusable: a listing says each
/// ([`Broken::warning`]) and goes on, as for a lockfile it skips.
pub fn listing(dirs: &VerbDirs) -> Result<(Vec<Entry>, Vec<Broken>), VerbError> {
    let mut index = Index::load(&dirs.verbs)?;
    let names: Vec<String> = index.broken().iter().map(|b| b.name.clone()).collect();
    let broken = names
        .iter()
        .filter_map(|name| index.remove_broken(name))
        .collect();
    Ok((index.verbs, broken))
}

/// One installed verb: its entry, its file, and the bytes of its compiled
/// code in the cache (0 for a data verb, or before its first compile).
pub type Info = (Entry, PathBuf, u64);

/// The installed verb `name` ([`Info`]); or, when none is called that, the refusal
/// that says so (`Ok(Err(..))`), apart from an index that cannot be read: the caller
/// may know more of the name (a session's tool, reached by its derived verb).
pub fn info(dirs: &VerbDirs, name: &str) -> Result<Result<Info, VerbError>, VerbError> {
    let mut index = Index::load(&dirs.verbs)?;
    // Its entry broken: what a call of it says, not that it is not installed.
    if let Some(broken) = index.remove_broken(name) {
        return Err(broken.error);
    }
    let Some(entry) = index.get(name) else {
        return Ok(Err(not_installed(&[name], &index)));
    };
    let compiled = CodeCache::open(&dirs.cache).compiled_bytes(&entry.sha256);
    Ok(Ok((entry.clone(), index.file_path(entry), compiled)))
}

/// Uninstalls verb `name`: gone from help and dispatch at once, and its compiled
/// code too unless another verb directory sharing the cache uses it. A `name`
/// not installed removes nothing at all.
pub fn remove(dirs: &VerbDirs, name: &str) -> Result<(), VerbError> {
    remove_all(dirs, &[name.to_owned()]).map(|_| ())
}

/// Uninstalls every verb of `names` (a name given twice, once) and returns them in
/// order: all or none, as `verbs add` adds a batch, so a name mistyped among several
/// removes nothing (and every name not installed is named). The index is the
/// transaction: its new state is saved once, all or nothing ([`Index::save`]), and
/// only then are the verbs' files deleted; one that cannot be (it is gone from help
/// and dispatch all the same) is left to the sweep ([`collect_orphans`]). One read
/// of the index, one sweep. A verb whose entry file is broken is removed as any
/// other, entry file and verb file: that is its repair.
pub fn remove_all(dirs: &VerbDirs, names: &[String]) -> Result<Vec<String>, VerbError> {
    let mut unique: Vec<String> = Vec::new();
    for name in names {
        if !unique.contains(name) {
            unique.push(name.clone());
        }
    }
    let none_removed = |error: VerbError| match unique.len() {
        1 => error,
        n => appended(error, &format!("; none of the {n} verbs given was removed")),
    };
    let mut index = Index::load(&dirs.verbs)?;
    let before = sha256s(&index);
    let missing: Vec<&str> = unique
        .iter()
        .map(String::as_str)
        .filter(|name| index.get(name).is_none() && !is_broken(&index, name))
        .collect();
    if !missing.is_empty() {
        // Refused: nothing is swept either.
        return Err(none_removed(not_installed(&missing, &index)));
    }
    // Each verb's file as its entry names it; a broken entry names none.
    let files: Vec<Option<String>> = unique
        .iter()
        .map(|name| match index.remove(name) {
            Some(entry) => Some(entry.file),
            None => {
                index.remove_broken(name);
                None
            }
        })
        .collect();
    index.save().map_err(none_removed)?;
    for (name, file) in unique.iter().zip(files) {
        // Its file, and one of the other kind an earlier replacement left (`NAME.wasm`
        // beside `NAME.json`): files are named after their verb, so no other verb's.
        let named = [format!("{name}.wasm"), format!("{name}.json")];
        for file in file.into_iter().chain(named) {
            let path = dirs.verbs.join(&file);
            if let Err(e) = std::fs::remove_file(&path)
                && e.kind() != std::io::ErrorKind::NotFound
            {
                tracing::debug!("`{}` stays for the sweep: {e}", path.display());
            }
        }
    }
    collect_orphans(dirs, &before, Swept::All);
    Ok(unique)
}

/// The sha256 of every verb `index` has.
fn sha256s(index: &Index) -> Vec<String> {
    index.verbs.iter().map(|e| e.sha256.clone()).collect()
}

fn is_broken(index: &Index, name: &str) -> bool {
    index.broken().iter().any(|b| b.name == name)
}

/// The index, read now, when every entry in it could be: one with a broken entry
/// file does not say which verb file or compiled code that verb uses, so nothing is
/// judged unused by it.
fn whole_index(dirs: &VerbDirs) -> Option<Index> {
    let index = Index::load(&dirs.verbs).ok()?;
    if let Some(broken) = index.broken().first() {
        tracing::debug!("nothing is swept while `{}` is broken", broken.name);
        return None;
    }
    Some(index)
}

/// How much a command's sweep ([`collect_orphans`]) takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Swept {
    /// A command that did its work: also the compiled code no verb directory
    /// sharing the cache has used for a month ([`UNUSED_OTHER_ENGINE`]).
    All,
    /// A refused `verbs add`: only what it compiled itself, and the files of its
    /// own verb directory no verb uses.
    OwnOnly,
}

/// Removes compiled code this command left unused: of the sha256s `dropped` (what
/// the verb directory had before it, and what it compiled), those no verb directory
/// sharing the cache uses ([`CodeCache::other_users`]); and with [`Swept::All`], the
/// code no verb directory has mapped for a month — that of a verb directory since deleted,
/// or of one whose `mur` never said it uses the cache. Judged by the index as it
/// stands now (read again: another `verbs add` may have installed a verb since
/// this one read it), and only while no `verbs add` is at work, in any verb
/// directory: one that has compiled a verb it has not installed yet holds
/// [`Compiler`]'s lock shared, and the sweep is then left to it (it sweeps when it
/// is done). A cache directory that does not exist (yet, or any more: it is
/// disposable) holds no code, and is made only when the verb directory holds files
/// to sweep, for the lock.
fn collect_orphans(dirs: &VerbDirs, dropped: &[String], swept: Swept) {
    if !dirs.cache.exists() {
        let unused = whole_index(dirs).map(|index| unused_files(&dirs.verbs, &index));
        if unused.is_none_or(|files| files.is_empty())
            || std::fs::create_dir_all(&dirs.cache).is_err()
        {
            return;
        }
    }
    let Some(lock) = open_lock(&dirs.cache) else {
        return;
    };
    if lock.try_lock().is_err() {
        tracing::debug!("another `verbs add` is at work: it collects unused compiled code");
        return;
    }
    let Some(index) = whole_index(dirs) else {
        return;
    };
    // A refused command leaves the cache as it found it, but for its own code.
    let cache = CodeCache::open(&dirs.cache);
    if swept == Swept::All {
        cache.record_user(&dirs.verbs);
    }
    let mut used = sha256s(&index);
    // Of another verb directory whose index cannot be read, which code it uses is
    // not known: then only what went unused for a month is taken.
    let dropped: Vec<&str> = match cache.other_users(&dirs.verbs) {
        Some(theirs) => {
            used.extend(theirs);
            dropped.iter().map(String::as_str).collect()
        }
        None => Vec::new(),
    };
    let used: Vec<&str> = used.iter().map(String::as_str).collect();
    let idle = (swept == Swept::All).then_some(UNUSED_OTHER_ENGINE);
    let removed = cache.sweep(&used, &dropped, idle);
    if removed > 0 {
        tracing::debug!("removed {removed} compiled entries no verb directory uses");
    }
    let unused = unused_files(&dirs.verbs, &index);
    let removed = unused
        .iter()
        .filter(|file| std::fs::remove_file(file).is_ok())
        .count();
    if removed > 0 {
        tracing::debug!("removed {removed} files no installed verb uses");
    }
}

/// The files in the verb directory that no installed verb uses: one a `verbs remove`
/// could not delete once its verb was out of the index, or the file of the other kind
/// a replacement left (`NAME.json` beside `NAME.wasm`). Only a regular file named as
/// a verb's file is (`NAME.wasm`, `NAME.json`): never the index, a legacy
/// `index.json`, a link or anything else. Removed under the sweep's lock, which a
/// `verbs add` holds from before it copies a file in until its entry is saved.
fn unused_files(verbs: &Path, index: &Index) -> Vec<PathBuf> {
    let Ok(listing) = std::fs::read_dir(verbs) else {
        return Vec::new();
    };
    let used: Vec<&str> = index.verbs.iter().map(|e| e.file.as_str()).collect();
    let mut unused = Vec::new();
    for item in listing.flatten() {
        let file_name = item.file_name();
        let Some(name) = file_name.to_str() else {
            continue;
        };
        let verb = name
            .strip_suffix(".wasm")
            .or_else(|| name.strip_suffix(".json"));
        let named_as_a_verbs = verb.is_some_and(|verb| verb != INDEX_NAME && valid_verb_name(verb));
        let regular = item.file_type().is_ok_and(|kind| kind.is_file());
        if named_as_a_verbs && regular && !used.contains(&name) {
            unused.push(item.path());
        }
    }
    unused
}

/// The engine a `verbs add` compiles with, and the lock it holds shared from
/// its first compile until its verbs are in the index: no sweep by another
/// `verbs add` or `verbs remove` takes the code it compiled before it is
/// installed. A sweep never waits for it (one that finds it held is skipped); taking
/// it waits only for a sweep under way, which removes files and compiles nothing.
struct Compiler {
    runtime: Runtime,
    /// Held, never read: dropping it (closing the file) releases the lock.
    _working: Option<std::fs::File>,
    /// The sha256 of each file it compiled (or began to).
    compiled: Vec<String>,
}

impl Compiler {
    fn new(dirs: &VerbDirs) -> Result<Self, VerbError> {
        // The runtime makes the cache directory the lock lives in.
        let runtime = Runtime::new(&dirs.cache)?;
        let _working = at_work(&dirs.cache);
        Ok(Self {
            runtime,
            _working,
            compiled: Vec::new(),
        })
    }
}

/// The sweep's lock ([`open_lock`]) held shared, which a `verbs add` holds while
/// its work is not in the index yet; `None` when it cannot be taken.
fn at_work(cache: &Path) -> Option<std::fs::File> {
    open_lock(cache).filter(|lock| {
        lock.lock_shared()
            .map_err(|e| tracing::debug!("cannot lock the compiled-code cache: {e}"))
            .is_ok()
    })
}

/// A verb installed from the same bytes as a file given, whose own file is to be
/// copied in again ([`Added::Repaired`]).
struct Repair {
    name: String,
    why: String,
    bytes: Vec<u8>,
}

/// A component that passed every check, ready to be copied in.
struct Candidate {
    info: Described,
    source: PathBuf,
    bytes: Vec<u8>,
    sha256: String,
}

/// Check every file first and install only if all pass, so a refused file never
/// leaves half of a batch installed.
///
/// `reserved` are the words the host answers itself after `mur devtools`: a
/// verb by such a name could never be called, so it is refused, `force` or not.
/// A component that declares its name (section `mur:verb-name`, which the kits
/// write) is judged by it before it is compiled; one that does not, by its
/// `info` after. A clash with an installed verb is said only once every file
/// passed every other check: `--force` gets past a clash, never a refusal.
/// Whatever happens, compiled code no installed verb uses is removed after: a
/// refused file leaves nothing behind.
pub fn add(
    dirs: &VerbDirs,
    files: &[PathBuf],
    force: bool,
    reserved: &[String],
) -> Result<Vec<Added>, VerbError> {
    add_observed(dirs, files, force, reserved, &|_, _| {})
}

/// [`add`], calling `compiling(file, bytes)` before each compile that takes tens of
/// seconds ([`slow_to_compile`]: a Python or JavaScript verb, 12–20 MB), which the
/// caller may want to say it is waiting for; a Rust verb's takes a second or two.
pub fn add_observed(
    dirs: &VerbDirs,
    files: &[PathBuf],
    force: bool,
    reserved: &[String],
    compiling: &dyn Fn(&Path, usize),
) -> Result<Vec<Added>, VerbError> {
    let mut index = Index::load(&dirs.verbs)?;
    let mut dropped = sha256s(&index);
    // Built on the first compile: a batch refused or unchanged before any
    // compile never touches the cache.
    let mut compiler: Option<Compiler> = None;
    let outcome = judge_all(
        &index,
        dirs,
        files,
        force,
        reserved,
        &mut compiler,
        compiling,
    )
    .map_err(|e| nothing_added(e, files.len()))
    .and_then(|judged| {
        learn_waits(&mut index, judged.waits)?;
        install_all(
            &mut index,
            dirs,
            judged.candidates,
            judged.repairs,
            judged.said,
        )
    });
    dropped.extend(compiler.take().into_iter().flat_map(|c| c.compiled));
    let swept = match outcome {
        Ok(_) => Swept::All,
        Err(_) => Swept::OwnOnly,
    };
    collect_orphans(dirs, &dropped, swept);
    outcome
}

/// Keeps in the entry of each verb the batch found unchanged what its
/// `mur:verb-waits` section declares, where the entry lacks it: one an older `mur`
/// wrote, which did not read the section. Else the host's `--timeout` cut off a call
/// the tool would have answered within it, and `verbs add` of the same file, even with
/// `--force`, never mended that (only a remove and an add did).
fn learn_waits(index: &mut Index, waits: Vec<(String, ToolWait)>) -> Result<(), VerbError> {
    let mut learned = false;
    for (name, waits) in waits {
        let Some(entry) = index.get(&name) else {
            continue;
        };
        let Some(spec) = entry.spec.as_ref().filter(|spec| spec.waits.is_none()) else {
            continue;
        };
        let spec = VerbSpec {
            waits: Some(waits),
            ..spec.clone()
        };
        index.put(Entry {
            spec: Some(spec),
            ..entry.clone()
        });
        learned = true;
    }
    match learned {
        true => index.save(),
        false => Ok(()),
    }
}

/// Installs every judged candidate, after what was said of the rest of the batch.
fn install_all(
    index: &mut Index,
    dirs: &VerbDirs,
    candidates: Vec<Candidate>,
    repairs: Vec<Repair>,
    mut outcomes: Vec<Added>,
) -> Result<Vec<Added>, VerbError> {
    std::fs::create_dir_all(&dirs.verbs).map_err(|e| io_error("create", &dirs.verbs, e))?;
    // A verb's file is copied in before its entry is saved: until then the sweep,
    // which removes files no entry names, must wait (a data verb compiles nothing,
    // so no [`Compiler`] holds the lock for it). Best effort, as the sweep is.
    let _installing = match candidates.is_empty() && repairs.is_empty() {
        true => None,
        false => std::fs::create_dir_all(&dirs.cache)
            .ok()
            .and_then(|()| at_work(&dirs.cache)),
    };
    for repair in repairs {
        outcomes.push(reinstall(index, repair)?);
    }
    for candidate in candidates {
        outcomes.push(install(index, dirs, candidate)?);
    }
    Ok(outcomes)
}

/// A batch judged, nothing installed yet.
struct Batch {
    /// The verbs to install.
    candidates: Vec<Candidate>,
    /// The verbs installed from the same bytes, whose own file is not them.
    repairs: Vec<Repair>,
    /// What was said of the others.
    said: Vec<Added>,
    /// What the verbs found unchanged declare of a tool that waits ([`learn_waits`]).
    waits: Vec<(String, ToolWait)>,
}

/// Every file of a batch judged, none installed yet. A file given twice (the same
/// bytes, by one path or two) is judged once and reported once; a file refused, once
/// by any path that leads to it (`a.json ./a.json`); two files of one verb that
/// differ are refused. A file refused does not end the judging: every file
/// refused is named ([`refused_files`]), so one fix and one run add the batch (the
/// first alone was named, the next run refused the next). mur's own failure (its
/// cache, exit 7) ends it at once.
fn judge_all(
    index: &Index,
    dirs: &VerbDirs,
    files: &[PathBuf],
    force: bool,
    reserved: &[String],
    compiler: &mut Option<Compiler>,
    compiling: &dyn Fn(&Path, usize),
) -> Result<Batch, VerbError> {
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut repairs: Vec<Repair> = Vec::new();
    let mut outcomes = Vec::new();
    let mut unchanged_waits = Vec::new();
    // The verb, the sha256 and the path of every file judged so far.
    let mut seen: Vec<(String, String, &Path)> = Vec::new();
    // Installed verbs the batch would replace without `--force`: every one is
    // named, so one look tells whether `--force` is safe for the whole batch.
    let mut clashes: Vec<Clash> = Vec::new();
    let mut refused: Vec<(&Path, VerbError)> = Vec::new();
    for file in files {
        // A file refused once is named once, however often and by whatever path it
        // was given, as a file added is: judged again, it says the same again.
        if refused
            .iter()
            .any(|(before, _)| canonical(before) == canonical(file))
        {
            continue;
        }
        let content = sniff(file);
        let is_data = content == Content::Data;
        let judge = |name: &str, sha256: &str| {
            verdict(index, &seen, file, name, sha256, force, reserved, is_data)
        };
        let known = |sha256: &str| named_by_bytes(index, &seen, sha256);
        // A clash is said last, once every file passed every check: a file clashing
        // (or after one that clashed) is compiled all the same, so that what refuses
        // it is said first, not after the `--force` the clash asks for; but for a big
        // component, whose clash is known uncompiled ([`judge_component`]).
        let judged = match content {
            Content::Data => inspect_data(file).map(|candidate| Judged::Read(Box::new(candidate))),
            Content::Component => judge_component(compiler, dirs, file, (judge, known), compiling),
        };
        let judged = match judged {
            Ok(judged) => judged,
            Err(e) => match refused_file(file, e, &mut refused) {
                Some(e) => return Err(e),
                None => continue,
            },
        };
        let candidate = match judged {
            Judged::Read(candidate) => *candidate,
            Judged::Declared {
                name,
                sha256,
                verdict,
                waits,
                bytes,
            } => {
                if matches!(verdict, Verdict::Unchanged | Verdict::Repair(_)) {
                    unchanged_waits.extend(waits.map(|waits| (name.clone(), waits)));
                }
                match verdict {
                    Verdict::Unchanged => outcomes.push(Added::Unchanged { name: name.clone() }),
                    Verdict::Repair(why) => repairs.push(Repair {
                        name: name.clone(),
                        why,
                        bytes,
                    }),
                    Verdict::Clash(clash) => clashes.push(clash),
                    Verdict::Install | Verdict::Again => {}
                }
                seen.push((name, sha256, file));
                continue;
            }
        };
        let verdict = match verdict(
            index,
            &seen,
            file,
            &candidate.info.name,
            &candidate.sha256,
            force,
            reserved,
            is_data,
        ) {
            Ok(verdict) => verdict,
            Err(e) => match refused_file(file, e, &mut refused) {
                Some(e) => return Err(e),
                None => continue,
            },
        };
        seen.push((candidate.info.name.clone(), candidate.sha256.clone(), file));
        match verdict {
            Verdict::Install => candidates.push(candidate),
            Verdict::Repair(why) => {
                let waits = candidate.info.spec.and_then(|spec| spec.waits);
                unchanged_waits.extend(waits.map(|waits| (candidate.info.name.clone(), waits)));
                repairs.push(Repair {
                    name: candidate.info.name,
                    why,
                    bytes: candidate.bytes,
                });
            }
            Verdict::Unchanged => {
                let waits = candidate.info.spec.and_then(|spec| spec.waits);
                unchanged_waits.extend(waits.map(|waits| (candidate.info.name.clone(), waits)));
                outcomes.push(Added::Unchanged {
                    name: candidate.info.name,
                });
            }
            Verdict::Clash(clash) => clashes.push(clash),
            Verdict::Again => {}
        }
    }
    if !refused.is_empty() {
        return Err(refused_files(refused));
    }
    match clashes.as_slice() {
        [] => Ok(Batch {
            candidates,
            repairs,
            said: outcomes,
            waits: unchanged_waits,
        }),
        [one] => Err(VerbError::refused(
            {
                let (who, how) = one.said();
                format!("verb {who} is already installed{how}")
            },
            format!(
                "pass `--force` to replace it{}",
                forced_repairs(std::slice::from_ref(one))
            ),
        )),
        several => Err(VerbError::refused(
            format!(
                "{} verbs are already installed: {}",
                several.len(),
                several
                    .iter()
                    .map(|c| {
                        let (who, how) = c.said();
                        format!("{who}{how}")
                    })
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            format!("pass `--force` to replace them{}", forced_repairs(several)),
        )),
    }
}

/// What `--force` does of the clashing verbs whose index entry is broken, after the
/// hint to pass it: it repairs them, as `verbs remove` does (`Broken::repair`).
fn forced_repairs(clashes: &[Clash]) -> String {
    let broken: Vec<&str> = clashes
        .iter()
        .filter(|c| matches!(c.was, Was::Broken(_)))
        .map(|c| c.name.as_str())
        .collect();
    match broken.as_slice() {
        [] => String::new(),
        [name] if clashes.len() == 1 => {
            format!(", which repairs it; or remove it with `mur devtools verbs remove {name}`")
        }
        [name] => format!(
            "; that repairs `{name}`'s broken entry, as `mur devtools verbs remove {name}` does"
        ),
        names => format!(
            "; that repairs the broken entries of {}, as `mur devtools verbs remove {}` does",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", "),
            names.join(" ")
        ),
    }
}

/// `error`, why `file` of a batch is refused, kept in `refused` to be named with the
/// others (`None`); or, mur's own failure (exit 7), the error that ends the batch now:
/// [`refused_files`] where a file was refused before it, which keeps the exit code of
/// a batch with a refused file 1, as it was when the first refusal ended it.
fn refused_file<'f>(
    file: &'f Path,
    error: VerbError,
    refused: &mut Vec<(&'f Path, VerbError)>,
) -> Option<VerbError> {
    if error.kind() == mur_core::Kind::Usage {
        refused.push((file, error));
        return None;
    }
    match refused.is_empty() {
        true => Some(error),
        false => Some(refused_files(std::mem::take(refused))),
    }
}

/// The files of a batch refused, in one error, as the clashes of a batch are: each
/// refusal names its file, joined with `; ` (the one alone, as it was, where one file
/// is refused). So are their hints: one every file shares once, else each after the
/// file it is for (`for `b.wasm`: …`).
fn refused_files(mut refused: Vec<(&Path, VerbError)>) -> VerbError {
    if refused.len() == 1 {
        return refused.remove(0).1;
    }
    let message = format!(
        "{} of the files given are refused: {}",
        refused.len(),
        refused
            .iter()
            .map(|(_, e)| e.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    );
    let hints: Vec<(&Path, String)> = refused
        .iter()
        .filter_map(|(file, e)| e.hint().map(|hint| (*file, hint)))
        .collect();
    let Some((_, first)) = hints.first() else {
        return VerbError::Registry(message);
    };
    if hints.len() == refused.len() && hints.iter().all(|(_, hint)| hint == first) {
        return VerbError::refused(message, first.clone());
    }
    let each = hints
        .iter()
        .map(|(file, hint)| format!("for `{}`: {hint}", file.display()))
        .collect::<Vec<_>>();
    VerbError::refused(message, each.join("; "))
}

/// An installed verb a file of the batch would replace: its name, and what its entry
/// says of it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Clash {
    name: String,
    was: Was,
}

impl Clash {
    /// How a refusal names the installed verb: who (`` `ping` (tool `version`, Rust) ``)
    /// and, after "is already installed" when it is the only one, how (`, from …`, `, but
    /// its index entry is broken: …`). One wording for one clash and for a batch's.
    fn said(&self) -> (String, String) {
        let name = &self.name;
        match &self.was {
            Was::Known { what, from } => (format!("`{name}` ({what})"), format!(", {from}")),
            Was::Broken(why) => (
                format!("`{name}`"),
                format!(", but its index entry is broken: {why}"),
            ),
        }
    }
}

/// What an installed verb a file of the batch would replace was.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Was {
    /// What it is (`tool `click`, Rust`), and where it came from (`from an earlier build
    /// of this file (added …)`).
    Known { what: String, from: String },
    /// Its index entry is broken ([`Broken`]), why: nothing is known of it, and `--force`
    /// repairs it.
    Broken(String),
}

/// A refusal of one file of a batch says that none of it was added: the batch
/// is judged whole before anything is installed.
fn nothing_added(error: VerbError, files: usize) -> VerbError {
    if files < 2 {
        return error;
    }
    appended(
        error,
        &format!("; none of the {files} files given was added"),
    )
}

/// What a file holds, by its first bytes: a component (the WebAssembly magic
/// `\0asm`) or a data verb (JSON: `{` after any white space), whatever its
/// name. A file whose first bytes tell neither, or that cannot be opened, goes
/// by its name (`.json` is data), and the reading that follows says what is
/// wrong with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Content {
    Component,
    Data,
}

fn sniff(file: &Path) -> Content {
    let head = bounded::Regular::open(file, Links::Follow).and_then(|mut file| file.head(64));
    let json = |head: &[u8]| {
        let head = head.strip_prefix("\u{feff}".as_bytes()).unwrap_or(head);
        head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
    };
    match head {
        Ok(head) if head.starts_with(b"\0asm") => Content::Component,
        Ok(head) if json(&head) => Content::Data,
        _ if file.extension().is_some_and(|e| e == "json") => Content::Data,
        _ => Content::Component,
    }
}

/// A file of a batch, as far as `verbs add` had to go.
enum Judged {
    /// Read (a component compiled), its verb to be judged by its `info`.
    Read(Box<Candidate>),
    /// A component judged by the verb it declares (or, declaring none, its bytes
    /// were), and not compiled: installed from the same bytes already, or given
    /// before in this batch.
    Declared {
        name: String,
        sha256: String,
        verdict: Verdict,
        /// Unchanged or to repair: what its `mur:verb-waits` section declares
        /// ([`learn_waits`]).
        waits: Option<ToolWait>,
        /// The file's bytes, which a repair copies in.
        bytes: Vec<u8>,
    },
}

/// What to do with a file of a batch, its verb named.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Verdict {
    Install,
    /// Installed already from identical bytes.
    Unchanged,
    /// Installed already from identical bytes, but its own file is not them:
    /// what is wrong with it ([`installed_fault`]).
    Repair(String),
    /// Another verb of this name is installed, and `--force` was not given.
    Clash(Clash),
    /// The same bytes as an earlier file of this batch.
    Again,
}

/// A component, judged by the name it declares (see [`name_section`]) before it
/// is compiled with `compiler` (made on first use), then compiled and read; one
/// that declares none is judged by its bytes first (`known`, [`named_by_bytes`]: an
/// installed verb's, unchanged), else compiled and read: its name is said only by its
/// `info`, which runs only compiled. One that exports no verb's functions is refused
/// before either. `judge` is [`verdict`] for
/// this file and batch. One that clashes is compiled and read too: what its
/// `info` declares may refuse it, which is said before the clash (its `--force`
/// would not get past it); unless it is big ([`SLOW_COMPILE_BYTES`]), which its
/// clash refuses uncompiled.
fn judge_component(
    compiler: &mut Option<Compiler>,
    dirs: &VerbDirs,
    file: &Path,
    (judge, known): (
        impl Fn(&str, &str) -> Result<Verdict, VerbError>,
        impl Fn(&str) -> Option<String>,
    ),
    compiling: &dyn Fn(&Path, usize),
) -> Result<Judged, VerbError> {
    let bytes = read_candidate(file)?;
    let said = name_section::read(&bytes);
    let no_verb = said.no_verb();
    known_version(file, said.interface)?;
    // No verb at all: known from its exports, so refused before a compile, which
    // paid seconds (tens for a large component) and a cache entry to say so later.
    if let Some(why) = no_verb {
        return Err(VerbError::refused(
            format!("`{}` is not a usable verb: it {why}", file.display()),
            WHAT_A_VERB_IS,
        ));
    }
    let sha256 = sha256_hex(&bytes);
    let declared = declared_name(file, said.name)?;
    // Without a section, bytes a verb was added from are that verb: they were
    // compiled then, and an `unchanged` paid a compile again to be said.
    let named = declared.clone().or_else(|| known(&sha256));
    if let Some(name) = named.as_deref() {
        let verdict = judge(name, &sha256)?;
        // A big component's clash too (a Python or JavaScript verb): its compile takes
        // tens of seconds, which the user paid twice, refused and then with `--force`,
        // and its kit's build already refused what the compile would find of what it
        // declares. A small one is compiled first, so that such a refusal comes before
        // the `--force` it would get past: it costs a second.
        let clash_known = matches!(verdict, Verdict::Clash(_)) && bytes.len() >= SLOW_COMPILE_BYTES;
        if clash_known
            || matches!(
                verdict,
                Verdict::Unchanged | Verdict::Repair(_) | Verdict::Again
            )
        {
            // Read without a compile, as the name was (a repair copies in the bytes
            // the entry already describes): a section that cannot be read declares
            // nothing, as when a call reads it again.
            let waits = match verdict {
                Verdict::Unchanged | Verdict::Repair(_) => said.waits.unwrap_or_else(|why| {
                    tracing::debug!("`{}` declares no wait: {why}", file.display());
                    None
                }),
                _ => None,
            };
            return Ok(Judged::Declared {
                name: name.to_owned(),
                sha256,
                verdict,
                waits,
                bytes,
            });
        }
    }
    let compiler = match compiler {
        Some(compiler) => compiler,
        None => compiler.insert(Compiler::new(dirs)?),
    };
    if slow_to_compile(&bytes) {
        compiling(file, bytes.len());
    }
    compiler.compiled.push(sha256.clone());
    let candidate = inspect(&compiler.runtime, file, bytes, sha256, said.waits)?;
    if let Some(name) = declared {
        same_name(file, &name, &candidate.info.name)?;
    }
    Ok(Judged::Read(Box::new(candidate)))
}

/// The verb a file of `sha256` is, known without a compile: the one name the index
/// (which records each installed verb's sha256) and the files before it in this batch
/// (`seen`) give those bytes; a verb's name is what its `info` says, the same for the
/// same bytes. None where nothing was added or judged from them.
fn named_by_bytes(index: &Index, seen: &[(String, String, &Path)], sha256: &str) -> Option<String> {
    let installed = index.verbs.iter().map(|entry| (&entry.name, &entry.sha256));
    let judged = seen.iter().map(|(name, sha256, _)| (name, sha256));
    let mut names = installed
        .chain(judged)
        .filter(|(_, bytes)| *bytes == sha256)
        .map(|(name, _)| name);
    let first = names.next()?;
    names.all(|name| name == first).then(|| first.clone())
}

/// What every refusal of a file in `verbs add` suggests.
const WHAT_A_VERB_IS: &str = "a verb is a WebAssembly component built against wit/verb.wit (package mur:verb@0.3.0, or 0.2.0 or 0.1.0)";

/// How a core module is made a component: for a Rust verb built for
/// `wasm32-unknown-unknown`, the component linker every toolchain ships (docs/verbs.md,
/// "Without WASI, faster", which an installed mur does not have: the hint says it
/// whole), or the target a `verbs new` project's README builds for, or wasm-tools.
const CORE_MODULE_FIX: &str = "built for wasm32-unknown-unknown, a verb needs the component \
     linker every Rust toolchain ships: add `.cargo/config.toml` holding \
     `[target.wasm32-unknown-unknown]` and `linker = \"wasm-component-ld\"`, and build again; \
     or build for wasm32-wasip2, as a `mur devtools verbs new` project's README does \
     (`cargo build --release --target wasm32-wasip2`); or wrap the module with \
     `wasm-tools component new`";

/// Read a file the user named (a link to a build output is fine), judged
/// before it is read: a FIFO, a device or a directory is refused at once, the
/// component header before the rest, the size before a byte past the header.
fn read_candidate(file: &Path) -> Result<Vec<u8>, VerbError> {
    bounded::read_component(file, Links::Follow).map_err(|refusal| match refusal {
        Refusal::Io(e) => unreadable(file, &e),
        Refusal::NotComponent(why) if why.contains("core module") => VerbError::refused(
            format!(
                "`{}` is not a usable verb: it is a core WebAssembly module, not a component",
                file.display()
            ),
            CORE_MODULE_FIX,
        ),
        // Not WebAssembly at all: likely a verb's source (`app.py`), or a data verb
        // by another name; the hint names both kinds and says a kit project is built.
        Refusal::NotComponent("no WebAssembly header") => VerbError::refused(
            format!("`{}` is not a usable verb: it {refusal}", file.display()),
            format!("{}; {BUILD_FIRST}", either_kind()),
        ),
        // A project's folder (`verbs add ~/src/bump`): its build writes the file to add.
        Refusal::NotRegular("a directory") => VerbError::refused(
            format!("`{}` is not a usable verb: it {refusal}", file.display()),
            match built_in(file) {
                Some(built) => format!(
                    "`verbs add` takes a verb's file, not a project's folder: did you mean `{}`?",
                    built.display()
                ),
                None => format!(
                    "`verbs add` takes a verb's file (a component, or a data verb's `.json`), not \
                     a folder; {BUILD_FIRST}, and the file it writes is added (its `verbs add` \
                     line names it)"
                ),
            },
        ),
        // A device or a FIFO (`/dev/null`): read as a component by its name alone, it
        // could have been meant as either kind.
        Refusal::NotRegular(_) => VerbError::refused(
            format!("`{}` is not a usable verb: it {refusal}", file.display()),
            either_kind(),
        ),
        refusal => VerbError::refused(
            format!("`{}` is not a usable verb: it {refusal}", file.display()),
            WHAT_A_VERB_IS,
        ),
    })
}

/// What a file `verbs add` cannot tell the kind of should have been: either kind of verb.
fn either_kind() -> String {
    format!("{WHAT_A_VERB_IS}, or a data verb (`.json`, mur-verb/1)")
}

/// The one component built in project folder `dir`, where a `verbs new` project's
/// build writes it: a Rust crate's under `target/<wasm target>/release/`, a Python or
/// JavaScript project's in the folder itself. `None` when there is none, or several.
fn built_in(dir: &Path) -> Option<PathBuf> {
    let places = [
        dir.to_owned(),
        dir.join("target/wasm32-wasip2/release"),
        dir.join("target/wasm32-unknown-unknown/release"),
    ];
    let mut built = places
        .iter()
        .filter_map(|place| std::fs::read_dir(place).ok())
        .flat_map(|entries| entries.flatten().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "wasm") && path.is_file());
    let one = built.next()?;
    built.next().is_none().then_some(one)
}

/// What a file that is no WebAssembly at all suggests after what a verb is: a
/// project `verbs new` made is its source, built into the verb by its README's command.
const BUILD_FIRST: &str =
    "a project `mur devtools verbs new` made is built first, by the command its README.md gives";

/// The name a component declares in its `mur:verb-name` section, if any
/// ([`name_section::Said`]).
fn declared_name(
    file: &Path,
    name: Result<Option<String>, String>,
) -> Result<Option<String>, VerbError> {
    name.map_err(|why| {
        VerbError::refused(
            format!("`{}` is not a usable verb: {why}", file.display()),
            WHAT_A_VERB_IS,
        )
    })
}

/// A component built against a `mur:verb` newer than this host's is refused before
/// compiling, saying so: its shapes may match an older world's (then it would be
/// installed as that version) or fail the type check with a message that names none.
fn known_version(file: &Path, interface: Option<String>) -> Result<(), VerbError> {
    match interface {
        Some(version) if !VERSIONS.contains(&version.as_str()) => Err(VerbError::refused(
            format!(
                "`{}` was built against mur:verb@{version}; this mur loads mur:verb@{}, {} and {}",
                file.display(),
                VERSIONS[0],
                VERSIONS[1],
                VERSIONS[2]
            ),
            format!(
                "build it against this mur's wit/verb.wit (mur:verb@{}), or use a mur that knows {version}",
                VERSIONS[0]
            ),
        )),
        _ => Ok(()),
    }
}

/// A component's `info` must name the verb its `mur:verb-name` section did:
/// that is the name it was judged by before compiling.
fn same_name(file: &Path, declared: &str, info: &str) -> Result<(), VerbError> {
    if declared == info {
        return Ok(());
    }
    Err(VerbError::refused(
        format!(
            "`{}` names itself `{info}`, but its `{}` section says `{declared}`",
            file.display(),
            name_section::SECTION
        ),
        "build it again with its kit, which writes the section from the verb's own name",
    ))
}

/// Whether to install the verb `name` that `file` holds (bytes hashing to
/// `sha256`), judged from these alone, so before compiling when the name is
/// declared: a name `mur` cannot use, two different files of one verb in a
/// batch (`seen`: the verb and sha256 of each file before), or a clash with an
/// installed verb is refused; identical bytes are already installed, or given
/// before in this batch.
#[allow(clippy::too_many_arguments)]
fn verdict(
    index: &Index,
    seen: &[(String, String, &Path)],
    file: &Path,
    name: &str,
    sha256: &str,
    force: bool,
    reserved: &[String],
    is_data: bool,
) -> Result<Verdict, VerbError> {
    check_name(index, file, name, reserved, is_data)?;
    if let Some((_, before, first)) = seen.iter().find(|(verb, ..)| verb == name) {
        if before == sha256 {
            return Ok(Verdict::Again);
        }
        return Err(VerbError::Registry(format!(
            "two of the files given are verb `{name}`: `{}` and `{}`",
            first.display(),
            file.display()
        )));
    }
    Ok(admit(index, name, sha256, force, file))
}

/// The one name rule ([`names::judge`]), said of the name a file declares; the
/// hint says how to rename a data verb (its `name`) or a component (build it
/// again), and never offers a name installed already ([`meant_hint`]).
fn check_name(
    index: &Index,
    file: &Path,
    name: &str,
    reserved: &[String],
    is_data: bool,
) -> Result<(), VerbError> {
    let rename = if is_data {
        format!("give the verb another `name` in the file (e.g. `my-{name}`)")
    } else {
        format!("give the verb another name (e.g. `my-{name}`) and build it again")
    };
    match names::judge(name, reserved) {
        Ok(()) => Ok(()),
        Err(Unusable::Malformed) => {
            let length = names::too_long(name)
                .map(|length| format!(" ({length} characters)"))
                .unwrap_or_default();
            let malformed = format!(
                "`{}` names itself `{name}`{length}; {}",
                file.display(),
                names::VERB_NAME_RULE
            );
            Err(match names::suggestion(name, reserved) {
                Some(meant) => VerbError::refused(malformed, meant_hint(index, &meant)),
                None => VerbError::Registry(malformed),
            })
        }
        Err(Unusable::Reserved) => Err(VerbError::refused(
            format!(
                "`{}` names itself `{name}`, a word `mur devtools` answers itself: \
                 a verb by that name could not be called",
                file.display()
            ),
            rename.clone(),
        )),
        Err(Unusable::Index) => Err(VerbError::refused(
            format!(
                "`{}` names itself `{name}`, the name of the verb directory's own index: \
                 a verb by that name would be taken for it",
                file.display()
            ),
            rename,
        )),
    }
}

/// The hint for a malformed name that `meant` would fix: "did you mean" it, unless a
/// verb `meant` is installed, which following the hint (and then `--force`) would
/// replace: `Count.json` was told "did you mean `count`?" of an unrelated `count`.
fn meant_hint(index: &Index, meant: &str) -> String {
    match index.get(meant) {
        Some(entry) => format!(
            "`{meant}` is taken: a verb `{meant}` is installed already (tool `{}`); \
             pick another name (e.g. `my-{meant}`)",
            entry.tool
        ),
        None => format!("did you mean `{meant}`?"),
    }
}

/// Compile a component, instantiate it in the sandbox and read its `info`, with
/// the wait its section declares (`waits`, [`name_section::Said`]) in its spec (a
/// 0.1 verb declares no spec: nothing).
fn inspect(
    runtime: &Runtime,
    file: &Path,
    bytes: Vec<u8>,
    sha256: String,
    waits: Result<Option<ToolWait>, String>,
) -> Result<Candidate, VerbError> {
    let label = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let not_a_verb = |e: VerbError| {
        VerbError::refused(
            format!(
                "`{}` is not a usable verb: {}",
                file.display(),
                plugin_reason(e)
            ),
            WHAT_A_VERB_IS,
        )
    };
    let component = runtime
        .compile(&label, &bytes, &sha256)
        .map_err(not_a_verb)?;
    let mut instance = Instance::new(&runtime.engine, &component, &label).map_err(not_a_verb)?;
    let mut info = instance.info().map_err(not_a_verb)?;
    if let Some(spec) = info.spec.as_mut() {
        spec.waits = waits.map_err(|why| not_a_verb(VerbError::Registry(why)))?;
    }
    check_info(file, &info)?;
    Ok(Candidate {
        info,
        source: file.to_owned(),
        bytes,
        sha256,
    })
}

/// What a refusal of a data verb file suggests when nothing more precise fits: its
/// fields, where the user of an installed mur reads them (no help describes the file;
/// docs/verbs.md, which it pointed to, is in the repository alone).
const WHAT_A_DATA_VERB_IS: &str = "a data verb is a JSON object of schema `mur-verb/1`: \
     `schema`, `name`, `tool` and `summary`, and optionally `details`, `arguments`, \
     `options`, `output` and `examples`";

/// A data verb (`mur-verb/1`): read, checked, and described like a component.
fn inspect_data(file: &Path) -> Result<Candidate, VerbError> {
    let unusable = |why: String| {
        VerbError::refused(format!("`{}` {why}", file.display()), WHAT_A_DATA_VERB_IS)
    };
    let bytes =
        bounded::read_capped(file, Links::Follow, data::MAX_BYTES).map_err(
            |refusal| match refusal {
                Refusal::Io(e) => unreadable(file, &e),
                refusal => unusable(format!("is not a usable verb: it {refusal}")),
            },
        )?;
    let verb = DataVerb::from_bytes(&bytes).map_err(|invalid| {
        VerbError::refused(
            format!("`{}` {}", file.display(), invalid.why),
            invalid.hint.as_deref().unwrap_or(WHAT_A_DATA_VERB_IS),
        )
    })?;
    let info = Described {
        usage: verb.spec.render(&verb.name, &verb.summary),
        name: verb.name,
        tool: verb.tool,
        summary: verb.summary,
        spec: Some(verb.spec),
        interface: data::INTERFACE,
    };
    check_info(file, &info)?;
    Ok(Candidate {
        info,
        source: file.to_owned(),
        sha256: sha256_hex(&bytes),
        bytes,
    })
}

/// The reason inside a plugin error, without the `verb `x`` prefix.
fn plugin_reason(e: VerbError) -> String {
    match e {
        VerbError::Plugin { message, .. } => message,
        other => other.to_string(),
    }
}

/// What a verb's `info` must say besides its name (which [`verdict`] judges):
/// the tool it calls, in texts the index can keep.
fn check_info(file: &Path, info: &Described) -> Result<(), VerbError> {
    let name = &info.name;
    if info.tool.trim().is_empty() {
        return Err(VerbError::Registry(format!(
            "verb `{name}` in `{}` names no tool",
            file.display()
        )));
    }
    // A tool's name and the summary are printed in help, listings and messages as one
    // line: a control character in one would write on the terminal (or forge a line,
    // `error: …`) there. A data verb's other one-line fields are judged when it is read.
    for (what, text) in [
        ("names a tool", &info.tool),
        ("has a summary", &info.summary),
    ] {
        if text.chars().any(char::is_control) {
            return Err(VerbError::Registry(format!(
                "verb `{name}` in `{}` {what} with a control character: {text:?}",
                file.display(),
            )));
        }
    }
    // Refused here as a data verb's are when read: help would print the param as
    // declared (`----clear`), no argv could reach it, and completion would trip on it.
    let unusable = info.spec.as_ref().and_then(VerbSpec::unusable);
    if let Some(why) = oversized(info).or(unusable) {
        return Err(VerbError::Registry(format!(
            "verb `{name}` in `{}` declares {why}",
            file.display()
        )));
    }
    Ok(())
}

/// The longest usage text and summary kept in the index: far beyond any real
/// verb's, and small enough that an entry stays well under its read cap
/// ([`super::index::MAX_ENTRY_BYTES`]).
const MAX_USAGE_BYTES: usize = 64 << 10;
const MAX_SUMMARY_BYTES: usize = 1 << 10;

/// What in a verb's `info` is too long for the index, if anything.
fn oversized(info: &Described) -> Option<String> {
    let declared = info
        .spec
        .iter()
        .flat_map(|s| s.texts())
        .map(str::len)
        .sum::<usize>();
    let usage = info.usage.len().max(declared);
    if usage > MAX_USAGE_BYTES {
        return Some(format!(
            "a usage text of {usage} bytes; at most {MAX_USAGE_BYTES} are kept"
        ));
    }
    let longest_other = info.summary.len().max(info.tool.len());
    (longest_other > MAX_SUMMARY_BYTES).then(|| {
        format!(
            "a summary or tool name of {longest_other} bytes; at most {MAX_SUMMARY_BYTES} are kept"
        )
    })
}

/// Whether to install verb `name` from `file`, whose bytes hash to `sha256`:
/// a clash with an installed verb unless forced, saying where that one came
/// from (an earlier build of this very path, in the edit-build-add loop); skip
/// a verb that is already installed from identical bytes, unless its own file
/// is not them: then it is copied in again, `--force` or not (the error a call
/// gives then says to add it again).
fn admit(index: &Index, name: &str, sha256: &str, force: bool, file: &Path) -> Verdict {
    // A verb by this name whose entry file is broken is installed all the same (its
    // file, its word): replaced with `--force`, as any other.
    if !force && let Some(broken) = index.broken().iter().find(|b| b.name == name) {
        return Verdict::Clash(Clash {
            name: name.to_owned(),
            was: Was::Broken(broken.error.to_string()),
        });
    }
    match index.get(name) {
        Some(existing) if existing.sha256 == sha256 => match installed_fault(index, existing) {
            Some(why) => Verdict::Repair(why),
            None => Verdict::Unchanged,
        },
        Some(existing) if !force => {
            let from = match existing.source.as_deref() {
                Some(source) if Path::new(source) == canonical(file) => {
                    // A data verb's file is edited, not built.
                    let earlier = match existing.language.as_deref() {
                        Some("data") => "version",
                        _ => "build",
                    };
                    format!(
                        "from an earlier {earlier} of this file (added {})",
                        existing.added_at
                    )
                }
                Some(source) => format!("from `{source}`"),
                None => "from a different file".to_owned(),
            };
            // What it is, as `--force` would say it was: whoever adds another verb by
            // this name sees at once whether it is the same one rebuilt.
            let language = existing
                .language
                .as_deref()
                .map_or_else(String::new, |language| format!(", {language}"));
            Verdict::Clash(Clash {
                name: name.to_owned(),
                was: Was::Known {
                    what: format!("tool `{}`{language}", existing.tool),
                    from,
                },
            })
        }
        _ => Verdict::Install,
    }
}

/// What is wrong with an installed verb's own file, if anything: gone, not a
/// regular file, unreadable, or not the bytes its entry hashed. Read as a call
/// reads it (a link in mur's directory is refused), hashed as it streams by.
fn installed_fault(index: &Index, entry: &Entry) -> Option<String> {
    let path = index.file_path(entry);
    let file = match bounded::Regular::open(&path, Links::Refuse) {
        Ok(file) => file,
        Err(refusal) if refusal.is_not_found() => return Some("was missing".to_owned()),
        Err(refusal) => return Some(in_the_past(&refusal)),
    };
    let mut hasher = Sha256::new();
    match std::io::copy(&mut file.into_file(), &mut hasher) {
        Err(e) => Some(in_the_past(&Refusal::Io(e))),
        Ok(_) if hex(&hasher.finalize()) != entry.sha256 => {
            Some("held other bytes than were installed".to_owned())
        }
        Ok(_) => None,
    }
}

/// What was wrong with an installed file, said once it is repaired: "its installed
/// file was a symbolic link, …", "could not be read: …" ([`Refusal`] says it of now).
fn in_the_past(refusal: &Refusal) -> String {
    let now = refusal.to_string();
    if let Some(rest) = now.strip_prefix("is ") {
        format!("was {rest}")
    } else if let Some(rest) = now.strip_prefix("cannot ") {
        format!("could not {rest}")
    } else {
        now
    }
}

/// Copy a verb's bytes in again over its damaged file, keeping its entry (the
/// same bytes: the same `info`, hints and compiled code) but the file's stamp.
fn reinstall(index: &mut Index, repair: Repair) -> Result<Added, VerbError> {
    let Repair { name, why, bytes } = repair;
    let Some(entry) = index.get(&name).cloned() else {
        return Err(VerbError::UnknownVerb(name));
    };
    let path = index.file_path(&entry);
    write_atomic(&path, &bytes)?;
    let (size, mtime_ns) = stamp(&path).map_err(|e| io_error("read", &path, e))?;
    index.put(Entry {
        size,
        mtime_ns,
        ..entry
    });
    index.save()?;
    Ok(Added::Repaired { name, why })
}

/// Copy the component in atomically and record it in the index.
fn install(index: &mut Index, dirs: &VerbDirs, c: Candidate) -> Result<Added, VerbError> {
    let is_data = c.info.interface == data::INTERFACE;
    let file = format!("{}.{}", c.info.name, if is_data { "json" } else { "wasm" });
    let path = dirs.verbs.join(&file);
    let old = index.get(&c.info.name);
    // A broken entry replaced kept no source mur can read: said as broken, not as a
    // verb from an unknown file ("it was from unknown").
    let replaced = old
        .map(|old| old.source.clone().map_or(Replaced::Unknown, Replaced::From))
        .or_else(|| is_broken(index, &c.info.name).then_some(Replaced::Unreadable));
    let was_tool = old
        .map(|old| old.tool.clone())
        .filter(|was| *was != c.info.tool);
    let old_file = old.map(|old| old.file.clone()).filter(|old| *old != file);
    let source = canonical(&c.source).display().to_string();
    let earlier_names: Vec<String> = index
        .verbs
        .iter()
        .filter(|e| e.name != c.info.name && e.source.as_deref() == Some(source.as_str()))
        .map(|e| e.name.clone())
        .collect();
    let examples = c.info.spec.as_ref().map_or(&[][..], |spec| &spec.examples);
    let stale_examples = called_in(examples, &earlier_names);
    write_atomic(&path, &c.bytes)?;
    let (size, mtime_ns) = stamp(&path).map_err(|e| io_error("read", &path, e))?;
    let Described {
        name,
        tool,
        summary,
        usage,
        spec,
        interface,
    } = c.info;
    let added_at = mur_lockfile::now_rfc3339();
    index.put(Entry {
        name: name.clone(),
        tool: tool.clone(),
        summary,
        usage,
        interface: interface.to_owned(),
        spec,
        source: Some(source),
        hints: Vec::new(),
        language: if is_data {
            Some("data".to_owned())
        } else {
            super::producers::language(&c.bytes)
        },
        file,
        sha256: c.sha256,
        size,
        mtime_ns,
        added_at,
    });
    index.save()?;
    // A component replaced by a data verb (or back) leaves a file of the other
    // extension, which no entry names any more: it goes, as the replaced entry did.
    // What stops that (a read-only file) leaves a harmless file `remove` retries.
    if let Some(old_file) = old_file {
        let _ = std::fs::remove_file(dirs.verbs.join(old_file));
    }
    Ok(Added::Installed {
        name,
        tool,
        replaced,
        was_tool,
        earlier_names,
        stale_examples,
    })
}

/// The names of `earlier` that some example calls (`mur devtools bx1 …` of the verb
/// now `bx2`): a word after `devtools`, as a command line gives a verb's name.
fn called_in(examples: &[String], earlier: &[String]) -> Vec<String> {
    let calls = |example: &str, name: &str| {
        let mut words = example.split_whitespace();
        words.any(|word| word == "devtools") && words.any(|word| word == name)
    };
    earlier
        .iter()
        .filter(|name| examples.iter().any(|example| calls(example, name)))
        .cloned()
        .collect()
}

/// A file the user named that cannot be read: said without Rust's `(os error N)`,
/// and, when it does not exist (a build that failed, a path typed from another
/// directory), with a hint naming the directory a relative path is read from and,
/// for a component, that it is built first.
fn unreadable(file: &Path, e: &std::io::Error) -> VerbError {
    let shown = file.display();
    let why = crate::error::io_said(e);
    if e.kind() != std::io::ErrorKind::NotFound {
        return VerbError::Registry(format!("could not read `{shown}`: {why}"));
    }
    let from = std::env::current_dir()
        .ok()
        .filter(|_| file.is_relative())
        .map(|cwd| format!("the path is read from `{}`", cwd.display()));
    let data = file.extension().is_some_and(|ext| ext == "json");
    let build = (!data).then_some("build the verb first (its README.md names the file to add)");
    let hint = match (from, build) {
        (Some(from), Some(build)) => format!("{from}; {build}"),
        (Some(from), None) => from,
        (None, Some(build)) => build.to_owned(),
        (None, None) => "check the path".to_owned(),
    };
    VerbError::refused(format!("could not read `{shown}`: no such file"), hint)
}

/// Record a verb's changed file, a build of the same verb ([`Runtime::adopt`]): its
/// sha256 and stamp, its declared tool, summary and usage (unless they are too long
/// for the index: then the entry keeps the old ones), and what its `mur:verb-waits`
/// section declares, which `info` does not hold: read from its bytes as compiled, as
/// `verbs add` reads it
/// ([`name_section::read`]). A section that cannot be read declares nothing.
pub(super) fn refresh_entry(index: &mut Index, verb: &str, mut info: Described, changed: &Changed) {
    let Some(entry) = index.get(verb).cloned() else {
        return;
    };
    let (size, mtime_ns) = changed.stamp;
    let entry = Entry {
        sha256: changed.sha256.clone(),
        size,
        mtime_ns,
        ..entry
    };
    match oversized(&info) {
        Some(why) => {
            tracing::debug!("not refreshing verb `{verb}` in the index: it declares {why}");
            index.put(entry);
        }
        None => {
            let waits = name_section::read(&changed.bytes).waits;
            if let Some(spec) = info.spec.as_mut() {
                spec.waits = waits.unwrap_or_else(|why| {
                    tracing::debug!("verb `{verb}` declares no wait: {why}");
                    None
                });
            }
            index.put(Entry {
                tool: info.tool,
                summary: info.summary,
                usage: info.usage,
                interface: info.interface.to_owned(),
                spec: info.spec,
                ..entry
            });
        }
    }
    // Best effort: a read-only verb directory only costs a rehash next time.
    let _ = index.save();
}

/// The verbs of `names` are not installed: one is named as `verbs info` names it,
/// several all at once (`2 verbs are not installed: `nope1`, `nope2``); the hint
/// names the installed verb nearest to each, case aside ([`mur_core::caseless_meant`]),
/// where one is. One whose index entry is broken is among them, said so with its repair
/// ([`Broken::meant`]): `verbs list` leaves it out of its table, so "`verbs list`
/// shows the installed verbs" would not show it.
fn not_installed(names: &[&str], index: &Index) -> VerbError {
    let broken = index.broken();
    let installed = || {
        let names = index.verbs.iter().map(|entry| entry.name.as_str());
        names.chain(broken.iter().map(|b| b.name.as_str()))
    };
    let near: Vec<(&str, &str)> = names
        .iter()
        .filter_map(|name| Some((*name, mur_core::caseless_meant(name, installed())?)))
        .collect();
    let message = match names {
        [name] => format!("no verb named `{name}` is installed"),
        several => format!(
            "{} verbs are not installed: {}",
            several.len(),
            several
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let broken_meant = |near: &str| broken.iter().find(|b| b.name == near).map(Broken::meant);
    let hint = match near.as_slice() {
        [] => "`mur devtools verbs list` shows the installed verbs".to_owned(),
        // Not "`verbs list` shows them all": its table leaves a broken verb out.
        [(_, near)] if names.len() == 1 => match broken_meant(near) {
            Some(meant) => format!("did you mean `{near}`? {meant}"),
            None => format!("did you mean `{near}`? (`mur devtools verbs list` shows them all)"),
        },
        several => {
            let mut hint = format!(
                "did you mean {}? (`mur devtools verbs list` shows them all)",
                several
                    .iter()
                    .map(|(name, near)| format!("`{near}` for `{name}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            // Each broken verb meant, once, with why it is not in that table.
            let mut said: Vec<&str> = Vec::new();
            for (_, near) in several {
                if !said.contains(near)
                    && let Some(meant) = broken_meant(near)
                {
                    said.push(near);
                    hint = format!("{hint}; {meant}");
                }
            }
            hint
        }
    };
    VerbError::refused(message, hint)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A component whose `info` declares a param no argv could give is refused at
    /// `verbs add`, naming it, as a data verb with one is.
    #[test]
    fn a_verb_declaring_an_unusable_option_is_refused() {
        use crate::spec::{Param, ValueKind};
        let spec = VerbSpec {
            options: vec![Param::new(
                "--clear",
                "",
                ValueKind::Flag,
                "dashes in the name",
            )],
            ..VerbSpec::default()
        };
        let info = Described {
            name: "jot".into(),
            tool: "type".into(),
            summary: "Type".into(),
            usage: String::new(),
            spec: Some(spec),
            interface: "mur:verb@0.3.0",
        };
        let refused = check_info(Path::new("jot.wasm"), &info).expect_err("refused");
        assert_eq!(
            refused.to_string(),
            "verb `jot` in `jot.wasm` declares option named `--clear`, which no command line \
             can give: an option's name starts with a letter or a digit and holds only \
             letters, digits, `-`, `_` and `.`"
        );
    }

    /// The data verb's hint names every field the file may have, as the refusal of an
    /// unknown field lists them.
    #[test]
    fn a_data_verbs_hint_names_every_field_it_may_have() {
        let invalid = DataVerb::from_bytes(br#"{"nosuchfield": 1}"#).expect_err("refused");
        let (_, fields) = invalid
            .why
            .split_once("expected one of ")
            .expect("the fields");
        // Each between backticks: `schema`, `name`, …
        let fields: Vec<&str> = fields.split('`').skip(1).step_by(2).collect();
        assert!(fields.len() > 4, "{invalid}");
        for field in fields {
            assert!(
                WHAT_A_DATA_VERB_IS.contains(&format!("`{field}`")),
                "`{field}` missing"
            );
        }
    }

    /// A big Rust component (a debug build: 8.7 MiB, compiled in 1.4 s) is not said to
    /// take tens of seconds: `compiling` is called for none of its compile, as for a
    /// small one; its size alone had it said.
    #[test]
    fn a_big_rust_component_is_not_said_to_compile_slowly() {
        let ping = std::fs::read(mur_testkit::plugins::guest("ping")).expect("ping.wasm");
        let big = mur_testkit::plugins::with_custom_section(&ping, &"a".repeat(5 << 20));
        let (tmp, dirs) = crate::tests::temp_dirs();
        let file = tmp.path().join("big.wasm");
        std::fs::write(&file, &big).expect("write");
        let said = std::cell::Cell::new(0);
        add_observed(&dirs, &[file], false, &[], &|_, _| said.set(said.get() + 1)).expect("added");
        assert_eq!(said.get(), 0, "a Rust verb's compile said to be slow");
        assert!(!slow_to_compile(&big));
    }

    /// A core module is what `cargo build --target wasm32-unknown-unknown` makes
    /// without the component linker: the hint says the fix whole, naming nothing an
    /// installed mur lacks (it named docs/verbs.md).
    #[test]
    fn a_core_module_is_refused_naming_the_component_linker() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let file = tmp.path().join("verb.wasm");
        std::fs::write(&file, b"\0asm\x01\0\0\0").expect("write");
        let err = read_candidate(&file).expect_err("a core module");
        assert_eq!(
            err.to_string(),
            format!(
                "`{}` is not a usable verb: it is a core WebAssembly module, not a component",
                file.display()
            )
        );
        assert_eq!(
            err.hint().as_deref(),
            Some(
                "built for wasm32-unknown-unknown, a verb needs the component linker every \
                 Rust toolchain ships: add `.cargo/config.toml` holding \
                 `[target.wasm32-unknown-unknown]` and `linker = \"wasm-component-ld\"`, and \
                 build again; or build for wasm32-wasip2, as a `mur devtools verbs new` \
                 project's README does (`cargo build --release --target wasm32-wasip2`); or \
                 wrap the module with `wasm-tools component new`"
            )
        );
    }
}
