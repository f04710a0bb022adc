//! Reading the lockfile directories: every lockfile classified as live, stale
//! (process gone or pid reused), unresponsive (the session's process runs but
//! did not answer) or not a devtools session, with one-line notices for files
//! that are malformed, of an unknown schema, or untrusted, and for directories not
//! searched as untrusted.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use mur_lockfile::liveness::{self, Liveness};
use mur_lockfile::{BrokenSlot, Entry, Lockfile, ReadOutcome, Registry};

use crate::report::Report;
use mur_core::text::escape_value;
use mur_core::{Error, Result};

/// A valid lockfile and where it was found.
#[derive(Debug, Clone)]
pub struct Found {
    pub path: PathBuf,
    pub lock: Lockfile,
}

/// The state of the lockfile directories, after liveness checks.
#[derive(Debug, Default)]
pub struct Survey {
    /// Sessions that answered the probe (stdio ones: whose process runs).
    pub live: Vec<Found>,
    /// Lockfiles whose process is gone, or whose pid a newer process has.
    pub stale: Vec<Found>,
    /// Sessions whose process runs but did not answer the probe in time.
    pub unresponsive: Vec<(Found, String)>,
    /// Lockfiles whose process runs but whose endpoint is not that session
    /// (or is not on loopback, and so was not contacted).
    pub impostors: Vec<(Found, String)>,
    /// Files named like lockfiles that are none (not JSON, fields missing): no
    /// session's, as sessions write theirs whole; `session clean` removes them.
    pub malformed: Vec<PathBuf>,
    /// Lockfiles read but not used, and told to the report as skipped (named, or
    /// counted past the first few): not the user's own or open to others' writes, or
    /// of a schema this mur does not read. Their sessions may run: kept so that "no
    /// session" can say which was skipped without reading the files again.
    pub skipped: Vec<PathBuf>,
}

/// The registry `mur` reads: every directory where a session of this user may have
/// announced itself ([`Registry::for_readers`]).
pub fn registry() -> Registry {
    Registry::for_readers()
}

/// Scans `registry`, probing every valid lockfile in parallel; files that
/// are skipped are told to `report`. The directories are read by `deadline`
/// (`--timeout`'s): past it, the error is marked out of its bound
/// ([`Error::out_of_bound`]), for the caller that set it to say so in its words
/// ([`crate::within`]). The probes, which wait, are bounded by the caller's timer.
pub async fn survey(
    registry: &Registry,
    http: &mur_http::Http,
    report: &mut dyn Report,
    deadline: Option<std::time::Instant>,
) -> Result<Survey> {
    survey_wanted(registry, http, |_| true, report, deadline).await
}

/// As [`survey`], but only the sessions `wanted` keeps are probed: the others are
/// judged stale or left out, by their process alone.
pub async fn survey_wanted(
    registry: &Registry,
    http: &mur_http::Http,
    wanted: impl Fn(&Found) -> bool,
    report: &mut dyn Report,
    deadline: Option<std::time::Instant>,
) -> Result<Survey> {
    registry.check_searched_trusted().map_err(|reason| {
        let refused = Error::no_session(reason);
        match untrusted_dir_fix(registry) {
            Some(fix) => refused.with_hint(fix),
            None => refused,
        }
    })?;
    // A session announced in a directory another user made or can write to is not
    // found: say so, or "no session" would send the user to start a second one.
    // The lockfile crate's line names a directory from the environment: escaped whole,
    // as it has no newline of its own.
    for why in registry.refused() {
        report.notice(escape_value(why).into_owned());
    }
    // Not "no session" (exit 4, where a script starts the app): whether one runs is
    // unknown, and the app could not announce itself there either. mur's own directory
    // failing is mur's failure (exit 7).
    let entries = registry.scan_until(deadline).map_err(|unlisted| {
        Error::internal(format!(
            "cannot read lockfile directory `{}`: {}",
            unlisted.dir.display(),
            unlisted.error
        ))
        .with_hint("sessions announce themselves there: it must be a directory mur can read")
    })?;
    // Not async work: a timer around it fired only once it was all done.
    let Some(entries) = entries else {
        return Err(
            Error::transport("reading the lockfile directories ran out of time").out_of_bound(),
        );
    };
    let mut malformed = Vec::new();
    let mut skipped = Vec::new();
    let mut skips = Skips::of(&entries);
    let valid: Vec<Found> = entries
        .into_iter()
        .filter_map(|entry| {
            // By the rule that sorts what is told, from the one read that is told.
            match Skips::kind(&entry.outcome) {
                Some(true) => malformed.push(entry.path.clone()),
                Some(false) => skipped.push(entry.path.clone()),
                None => {}
            }
            match skips.names(&entry.outcome) {
                true => valid_or_notice(entry, report),
                false => None,
            }
        })
        .collect();
    skips.count_the_rest(report);
    let (valid, copies) = without_copies(valid);
    let locks: Vec<(&Lockfile, bool)> = valid.iter().map(|f| (&f.lock, wanted(f))).collect();
    let verdicts = liveness::check_wanted(http, &locks).await;
    let mut survey = Survey {
        malformed,
        skipped,
        ..Survey::default()
    };
    let mut copies = copies.into_iter().peekable();
    for (at, (found, verdict)) in valid.into_iter().zip(verdicts).enumerate() {
        // The copies of this one: judged as it is (the same process), a session's
        // said and left out, a stale one's removed with it.
        let mut copied = Vec::new();
        while let Some((copy, _)) = copies.next_if(|(_, of)| *of == at) {
            copied.push(copy);
        }
        let Some(verdict) = verdict else {
            continue;
        };
        if let Liveness::Stale(reason) = &verdict {
            for copy in copied {
                tracing::debug!("stale lockfile `{}`: {reason}", copy.path.display());
                survey.stale.push(copy);
            }
        } else {
            for copy in copied {
                report.notice(copy_notice(&copy, &found));
            }
        }
        match verdict {
            Liveness::Live => survey.live.push(found),
            Liveness::Stale(reason) => {
                tracing::debug!("stale lockfile `{}`: {reason}", found.path.display());
                survey.stale.push(found);
            }
            Liveness::Unresponsive(reason) => survey.unresponsive.push((found, reason)),
            Liveness::NotDevtools(reason) => survey.impostors.push((found, reason)),
        }
    }
    Ok(survey)
}

/// What tells a session's lockfiles from others': its process (pid and start), endpoint
/// and project. Two lockfiles of one session are one and a copy (`cp`, a backup, a sync
/// tool's conflict file): a session writes one. (One process may serve several projects,
/// each announced on its own: those are told apart by `--project`, and listed each.)
fn session_of(lock: &Lockfile) -> Session {
    (
        lock.pid,
        lock.started_at.clone(),
        lock.endpoint.clone(),
        lock.project.clone(),
    )
}

/// A session's identity ([`session_of`]).
type Session = (u32, String, String, String);

/// Whether `found` is named as the contract names its project's lockfile (the hash of
/// its project's path): the file its session writes, and withdraws, and beside which
/// its other files are (a bridge's sidecar and log, the slot lock).
fn named_for_its_project(found: &Found) -> bool {
    found
        .path
        .file_name()
        .is_some_and(|name| *name == *mur_lockfile::paths::lockfile_name(&found.lock.project))
}

/// `valid` with each session once: of the lockfiles of one session ([`session_of`]),
/// the one named for its project ([`named_for_its_project`]), else the first found
/// (the directory written to is searched first). The others are returned as copies,
/// each with the index in the first list of the one kept, in that order. A copy
/// listed the session twice, and `--project` could choose neither of the two.
fn without_copies(valid: Vec<Found>) -> (Vec<Found>, Vec<(Found, usize)>) {
    let mut kept: Vec<Found> = Vec::with_capacity(valid.len());
    let mut copies: Vec<(Found, usize)> = Vec::new();
    let mut sessions: HashMap<Session, usize> = HashMap::new();
    for found in valid {
        let session = session_of(&found.lock);
        let Some(&at) = sessions.get(&session) else {
            sessions.insert(session, kept.len());
            kept.push(found);
            continue;
        };
        if named_for_its_project(&found) && !named_for_its_project(&kept[at]) {
            let copy = std::mem::replace(&mut kept[at], found);
            copies.push((copy, at));
        } else {
            copies.push((found, at));
        }
    }
    copies.sort_by(|(a, at_a), (b, at_b)| at_a.cmp(at_b).then_with(|| a.path.cmp(&b.path)));
    (kept, copies)
}

/// The one line said of a copy of `of`'s lockfile, which is skipped. It is said on
/// every command while the session runs (`session clean` removes a copy only once the
/// session has ended, as it does its lockfile), so it says how to remove the copy: a
/// file by a name its session never writes (its project's is `of`'s). One named for its
/// project in another directory searched may be the one the session wrote, `of` the
/// copy: which of the two to remove is not said.
fn copy_notice(copy: &Found, of: &Found) -> String {
    let mut said = format!(
        "skipping lockfile `{}`: a copy of `{}`, the lockfile of the same session (pid {} at \
         `{}`)",
        escape_value(&copy.path.to_string_lossy()),
        escape_value(&of.path.to_string_lossy()),
        of.lock.pid,
        escape_value(&of.lock.endpoint)
    );
    if !named_for_its_project(copy) {
        said.push_str(&format!(
            "; `session clean` leaves it while that session runs: remove it with `rm {}`",
            mur_core::shell_name(copy.path.as_os_str())
        ));
    }
    said
}

/// The hint under the refusal of a lockfile directory searched (the first refused,
/// as [`Registry::check_searched_trusted`] says it): what makes it one to trust, when
/// the user can do it. `chmod 700` was said whatever was wrong, where it does nothing:
/// a link (the mode of what it names changes, and a link is refused whatever it names)
/// or a directory another user owns (whose mode only they can change).
fn untrusted_dir_fix(registry: &Registry) -> Option<String> {
    use mur_lockfile::{Keep, Untrusted, check_own};
    let (dir, meta, why) = registry.dirs().find_map(|dir| {
        let meta = std::fs::symlink_metadata(dir).ok()?;
        let why = check_own(&meta, Keep::Writes).err()?;
        Some((dir, meta, why))
    })?;
    let dir = mur_core::shell_name(dir.as_os_str());
    match why {
        // Sessions make it (0700) where it is not, and refuse a link as readers do.
        Untrusted::Link => Some(format!(
            "a lockfile directory must be a directory of yours, not a link: remove the link \
             (`rm {dir}`), and the next session makes the directory"
        )),
        Untrusted::Open { .. } if meta.is_dir() => Some(format!(
            "a lockfile directory must be yours and private: `chmod 700 {dir}`"
        )),
        Untrusted::Open { .. } => Some(format!(
            "it is no directory: remove it (`rm {dir}`), and the next session makes the \
             directory"
        )),
        // Not yours: only its owner (or root) can change or remove it.
        Untrusted::Owner { uid, .. } => Some(format!(
            "only uid {uid} or root can remove it (the next session then makes it, yours), or \
             point `XDG_RUNTIME_DIR` at a private directory of your own"
        )),
    }
}

/// "the session of `P` (pid N) at `E` did not answer …".
pub fn unresponsive_message(found: &Found, reason: &str) -> String {
    format!(
        "the session for `{}` (pid {}) at `{}` runs but {}",
        escape_value(&found.lock.project),
        found.lock.pid,
        escape_value(&found.lock.endpoint),
        escape_value(reason)
    )
}

/// The most lines said of the sessions found to have ended: a directory of a thousand
/// crashed sessions' lockfiles was a thousand lines on stderr, under every command.
const ENDED_LINES: usize = 4;

/// What to say of the sessions whose lockfiles a reader removed ([`Survey::ended`]): an
/// [`ended_note`] each, or, past [`ENDED_LINES`], the first few and one line counting the
/// rest.
pub fn ended_notes<'a>(ended: impl IntoIterator<Item = &'a Found>) -> Vec<String> {
    let ended: Vec<&Found> = ended.into_iter().collect();
    if ended.len() <= ENDED_LINES {
        return ended.into_iter().map(ended_note).collect();
    }
    let (named, rest) = ended.split_at(ENDED_LINES - 1);
    let mut lines: Vec<String> = named.iter().copied().map(ended_note).collect();
    lines.push(format!(
        "and {} more sessions have ended without withdrawing their lockfiles: they crashed or \
         were killed",
        rest.len()
    ));
    lines
}

/// What to say of a session whose lockfile a reader removed ([`Survey::ended`]).
pub fn ended_note(found: &Found) -> String {
    let project = escape_value(&found.lock.project);
    ended_words(&format!("the session of `{project}`"), found)
}

/// That the session `found`, `who` (its project, or "this project's session" under an
/// error naming it), ended without withdrawing its lockfile: one wording for the note,
/// the hint and the warning alike (they were two), naming its process, so "no session"
/// reads as "no longer", not "never started".
pub fn ended_words(who: &str, found: &Found) -> String {
    format!(
        "{who} (pid {}) has ended without withdrawing its lockfile: it crashed or was killed",
        found.lock.pid
    )
}

/// The line said of a lockfile that could not be removed (`e`): of its slot lock when
/// that is what is wrong, naming it and what it is (the lockfile was blamed: "cannot
/// remove `<hash>.json`: Is a directory"), and whether `session clean` removes it.
pub fn unremoved(lockfile: &Path, e: &std::io::Error) -> String {
    let path = escape_value(&lockfile.to_string_lossy()).into_owned();
    let Some(broken) = BrokenSlot::of(e) else {
        return format!("cannot remove `{path}`: {e}");
    };
    let removable = broken.removable();
    let broken = escape_value(&broken.to_string()).into_owned();
    match removable {
        true => format!(
            "{broken}: the lockfile `{path}` beside it is left (`mur devtools session clean` \
             removes both)"
        ),
        false => format!(
            "{broken}: the lockfile `{path}` beside it cannot be removed without it (mur removes \
             no directory that is not empty)"
        ),
    }
}

/// Of the files skipped, how many are named, one line each, and how many are left to a
/// line that counts them: past [`ENDED_LINES`] of one kind (malformed, or neither
/// malformed nor valid: another schema's, not the user's own), the first few. A
/// directory of 10,000 malformed files was 10,000 lines on every command's stderr.
struct Skips {
    /// Malformed, then the others: how many are still to be named, and how many not.
    malformed: (usize, usize),
    other: (usize, usize),
}

impl Skips {
    fn of(entries: &[Entry]) -> Self {
        let named = |count: usize| match count <= ENDED_LINES {
            true => count,
            false => ENDED_LINES - 1,
        };
        let count = |malformed: bool| {
            entries
                .iter()
                .filter(|e| Self::kind(&e.outcome) == Some(malformed))
                .count()
        };
        Self {
            malformed: (named(count(true)), 0),
            other: (named(count(false)), 0),
        }
    }

    /// `Some(true)` for a malformed file, `Some(false)` for another one skipped, `None`
    /// for one that is not ([`valid_or_notice`] says nothing of it).
    fn kind(outcome: &ReadOutcome) -> Option<bool> {
        match outcome {
            ReadOutcome::Malformed(_) => Some(true),
            ReadOutcome::UnknownSchema(_) | ReadOutcome::Untrusted(_) => Some(false),
            ReadOutcome::Valid(_) | ReadOutcome::Gone => None,
        }
    }

    /// Whether the file read as `outcome` goes to [`valid_or_notice`]: every valid one,
    /// and a skipped one while its kind has lines left; else it is counted.
    fn names(&mut self, outcome: &ReadOutcome) -> bool {
        let Some(malformed) = Self::kind(outcome) else {
            return true;
        };
        let (left, unnamed) = match malformed {
            true => &mut self.malformed,
            false => &mut self.other,
        };
        if *left > 0 {
            *left -= 1;
            return true;
        }
        *unnamed += 1;
        false
    }

    /// The lines that count the files not named.
    fn count_the_rest(&self, report: &mut dyn Report) {
        if self.malformed.1 > 0 {
            report.more_malformed(self.malformed.1);
        }
        if self.other.1 > 0 {
            report.notice(format!(
                "and {} more lockfiles of another schema, or not yours, were skipped",
                self.other.1
            ));
        }
    }
}

/// Keeps valid lockfiles; says in one line why any other file is skipped.
fn valid_or_notice(entry: Entry, report: &mut dyn Report) -> Option<Found> {
    let path = escape_value(&entry.path.to_string_lossy()).into_owned();
    match entry.outcome {
        ReadOutcome::Valid(lock) => {
            return Some(Found {
                path: entry.path,
                lock,
            });
        }
        ReadOutcome::Malformed(why) => report.malformed(&entry.path, &why),
        ReadOutcome::UnknownSchema(schema) => {
            report.notice(format!(
                "skipping lockfile `{path}` of unknown schema `{}`",
                escape_value(&schema)
            ));
        }
        // The lockfile crate's line, naming the file: escaped whole.
        ReadOutcome::Untrusted(why) => report.notice(escape_value(&why).into_owned()),
        // Removed since it was listed (`scan` leaves these out): nothing to say.
        ReadOutcome::Gone => {}
    }
    None
}

impl Survey {
    /// Removes stale lockfiles on the way through, as every reader may, and
    /// returns those it removed. Each is removed under its slot's lock and
    /// only if it is still the file judged stale, so a session that started
    /// since the survey keeps its fresh lockfile. Removed here, a crashed session is
    /// told once (by the reader that removed it), and costs no later reader a read.
    ///
    /// None is begun at or after `deadline` (`--timeout`'s, which bounds discovery):
    /// those left are a later reader's to remove and tell, which is no failure of this
    /// one. A slot lock that is none (a FIFO, a directory, a link) is left, and the
    /// lockfile beside it, named in a notice that says `session clean` removes both.
    pub fn collect_garbage(
        &self,
        registry: &Registry,
        report: &mut dyn Report,
        deadline: Option<std::time::Instant>,
    ) -> Vec<&Found> {
        self.remove_stale(registry, report, deadline, false)
    }

    /// [`Survey::collect_garbage`] for `session clean`: every stale lockfile is tried,
    /// whatever the time (removing them is what it is asked to do), and a slot lock
    /// that is none but may go is removed first ([`mur_lockfile::BrokenSlot`]).
    pub fn clean_garbage(&self, registry: &Registry, report: &mut dyn Report) -> Vec<&Found> {
        self.remove_stale(registry, report, None, true)
    }

    fn remove_stale(
        &self,
        registry: &Registry,
        report: &mut dyn Report,
        deadline: Option<std::time::Instant>,
        clearing: bool,
    ) -> Vec<&Found> {
        let mut removed = Vec::new();
        let files: Vec<_> = self
            .stale
            .iter()
            .map(|f| (f.path.as_path(), &f.lock))
            .collect();
        let outcomes = registry.remove_all_if_unchanged(&files, deadline, clearing);
        for (found, outcome) in self.stale.iter().zip(outcomes) {
            let Some(outcome) = outcome else {
                tracing::debug!("left `{}` for later: out of time", found.path.display());
                continue;
            };
            match outcome {
                Ok(true) => {
                    removed.push(found);
                    tracing::debug!("removed stale lockfile `{}`", found.path.display());
                }
                Ok(false) => tracing::debug!(
                    "left `{}`: it changed, or a session holds its slot",
                    found.path.display()
                ),
                Err(e) => report.notice(unremoved(&found.path, &e)),
            }
        }
        removed
    }

    /// Of the sessions whose lockfiles were `removed`, those worth a word: the ones
    /// `meant` keeps (as selection would have considered them), but none of a project
    /// whose session runs (it answered, or runs unanswering: an older session's file
    /// is no news beside it). Without a word, a crashed app's session read as one that
    /// never ran: "no running devtools session found".
    pub fn ended<'a>(
        &self,
        removed: &[&'a Found],
        meant: impl Fn(&Found) -> bool,
    ) -> Vec<&'a Found> {
        let mut told = std::collections::HashSet::new();
        removed
            .iter()
            .copied()
            .filter(|found| meant(found) && !self.runs_project_of(found))
            // A session's lockfile and its copies: one session ended.
            .filter(|found| told.insert(session_of(&found.lock)))
            .collect()
    }

    /// Whether a session of `found`'s project runs (it answered, or runs unanswering).
    pub fn runs_project_of(&self, found: &Found) -> bool {
        let of_it = |other: &Found| other.lock.project == found.lock.project;
        self.live.iter().any(of_it) || self.unresponsive.iter().any(|(f, _)| of_it(f))
    }

    /// Says which sessions run but did not answer (always worth knowing).
    pub fn report_unresponsive(&self, report: &mut dyn Report) {
        for line in self.unresponsive_lines() {
            report.notice(line);
        }
    }

    /// One line per session whose process runs but did not answer its probe.
    pub fn unresponsive_lines(&self) -> Vec<String> {
        self.unresponsive
            .iter()
            .map(|(found, reason)| unresponsive_message(found, reason))
            .collect()
    }

    /// Says why lockfiles with a running pid were not used.
    pub fn report_impostors(&self, report: &mut dyn Report) {
        for (found, reason) in &self.impostors {
            report.notice(format!(
                "skipping lockfile `{}`: pid {} runs, but `{}` {}",
                escape_value(&found.path.to_string_lossy()),
                found.lock.pid,
                escape_value(&found.lock.endpoint),
                escape_value(reason)
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::Said as Notices;
    use crate::within;
    use mur_lockfile::SlotLock;

    /// [`survey`] of `registry` with a new HTTP client.
    async fn surveyed(
        registry: &Registry,
        said: &mut Notices,
        deadline: Option<std::time::Instant>,
    ) -> Result<Survey> {
        survey(registry, &mur_http::Http::new(), said, deadline).await
    }

    /// A registry in a new temporary directory (the directory, then the registry).
    fn temp_registry() -> (tempfile::TempDir, Registry) {
        let dir = tempfile::tempdir().expect("tempdir");
        let registry = Registry::at(dir.path().join("reactor-devtools"));
        (dir, registry)
    }

    /// A stdio session of this (running) process, of `/p/App.csproj`: live without a
    /// probe.
    fn own_session() -> Lockfile {
        Lockfile::stdio(std::process::id(), "/p/App.csproj".into(), "t".into())
    }

    fn stale_in(registry: &Registry, count: u32) -> Vec<Found> {
        (0..count)
            .map(|i| {
                let lock =
                    Lockfile::http(1, 4_000_000 + i, format!("/s{i}/App.csproj"), "t".into());
                let path = registry.write(&lock).expect("write");
                Found { path, lock }
            })
            .collect()
    }

    /// A thousand crashed sessions were a thousand notes: four lines at most, the first
    /// three named as one is, and the rest counted.
    #[test]
    fn many_ended_sessions_are_named_a_few_and_the_rest_counted() {
        let (_dir, registry) = temp_registry();
        let ended = stale_in(&registry, 1000);
        let named = |i: usize| {
            format!(
                "the session of `/s{i}/App.csproj` (pid {}) has ended without withdrawing its \
                 lockfile: it crashed or was killed",
                4_000_000 + i
            )
        };
        assert_eq!(
            ended_notes(&ended[..4]),
            (0..4).map(named).collect::<Vec<_>>()
        );
        let mut said: Vec<String> = (0..3).map(named).collect();
        said.push(
            "and 997 more sessions have ended without withdrawing their lockfiles: they \
             crashed or were killed"
                .to_owned(),
        );
        assert_eq!(ended_notes(&ended), said);
    }

    /// Past `--timeout`'s deadline no stale lockfile is removed: left, with nothing said,
    /// for the next reader to remove and tell. Without one, each is.
    #[test]
    fn stale_lockfiles_are_removed_only_before_the_deadline() {
        let (_dir, registry) = temp_registry();
        for count in [3, 100] {
            let survey = Survey {
                stale: stale_in(&registry, count),
                ..Survey::default()
            };
            let mut notices = Notices::default();
            let past = std::time::Instant::now();
            assert!(
                survey
                    .collect_garbage(&registry, &mut notices, Some(past))
                    .is_empty()
            );
            assert!(survey.stale.iter().all(|found| found.path.exists()));
            assert_eq!(
                survey.collect_garbage(&registry, &mut notices, None).len(),
                survey.stale.len()
            );
            assert!(survey.stale.iter().all(|found| !found.path.exists()));
            assert_eq!(notices.0, Vec::<String>::new());
        }
    }

    /// Writes `lock` under `name` in `registry`'s directory, as a copy made by hand is.
    fn copy_as(registry: &Registry, name: &str, lock: &Lockfile) -> PathBuf {
        let path = registry.dir().join(name);
        std::fs::write(&path, serde_json::to_vec(lock).expect("json")).expect("copy");
        path
    }

    /// The survey keeps the files it told the report it skipped, those counted past the
    /// first few too, and no malformed or valid one: "no session" looks its project's up
    /// there, and reads no file again.
    #[cfg(unix)]
    #[tokio::test]
    async fn the_files_skipped_are_kept_as_told() {
        use std::os::unix::fs::PermissionsExt as _;
        let (_dir, registry) = temp_registry();
        let lock = own_session();
        let valid = registry.write(&lock).expect("write");
        let open = registry.write(&Lockfile::stdio(1, "/q/App.csproj".into(), "t".into()));
        let open = open.expect("write");
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o666)).expect("chmod");
        let mut skipped = vec![open];
        for i in 0..ENDED_LINES + 2 {
            let path = registry.dir().join(format!("other-{i}.json"));
            std::fs::write(&path, r#"{"schema":"reactor-devtools/99"}"#).expect("write");
            skipped.push(path);
        }
        std::fs::write(registry.dir().join("broken.json"), "{").expect("write");
        let mut said = Notices::default();
        let mut survey = surveyed(&registry, &mut said, None).await.expect("survey");
        assert_eq!(survey.live.len(), 1);
        assert_eq!(survey.live[0].path, valid);
        assert_eq!(survey.malformed, [registry.dir().join("broken.json")]);
        survey.skipped.sort();
        skipped.sort();
        assert_eq!(survey.skipped, skipped);
        assert!(
            said.0
                .last()
                .is_some_and(|line| line.starts_with("and 4 more lockfiles")),
            "{:?}",
            said.0
        );
    }

    /// A session's lockfile copied under another name (before its own, and after) is one
    /// session: the file named for its project is it, listed once, and each copy is said
    /// in one line. It was listed twice, and `--project` could choose neither.
    #[tokio::test]
    async fn a_copy_of_a_sessions_lockfile_is_said_and_left_out() {
        let (_dir, registry) = temp_registry();
        let lock = own_session();
        let own = registry.write(&lock).expect("write");
        let copies = [
            copy_as(&registry, "0000000000000000.json", &lock),
            copy_as(&registry, "zz-backup.json", &lock),
        ];
        // The same process announcing another project is no copy.
        let mut other = lock.clone();
        other.project = "/q/App.csproj".into();
        let other = registry.write(&other).expect("write");
        let mut said = Notices::default();
        let survey = surveyed(&registry, &mut said, None).await.expect("survey");
        let mut live: Vec<&Path> = survey.live.iter().map(|f| f.path.as_path()).collect();
        live.sort();
        let mut sessions = [own.as_path(), other.as_path()];
        sessions.sort();
        assert_eq!(live, sessions);
        let copy_of = |copy: &Path| {
            format!(
                "skipping lockfile `{}`: a copy of `{}`, the lockfile of the same session (pid \
                 {} at `stdio`); `session clean` leaves it while that session runs: remove it \
                 with `rm {}`",
                copy.display(),
                own.display(),
                lock.pid,
                copy.display()
            )
        };
        assert_eq!(
            said.0,
            copies.iter().map(|c| copy_of(c)).collect::<Vec<_>>()
        );
    }

    /// A copy named for its project, in another directory searched, is said without a
    /// command to remove it: either of the two may be the file its session wrote.
    #[tokio::test]
    async fn a_copy_named_for_its_project_elsewhere_is_said_without_rm() {
        let dir = tempfile::tempdir().expect("tempdir");
        let first = dir.path().join("first");
        let second = dir.path().join("second");
        let registry = Registry::searching(vec![first.clone(), second.clone()]);
        let lock = own_session();
        let own = registry.write(&lock).expect("write");
        let elsewhere = Registry::at(second).write(&lock).expect("write");
        let mut said = Notices::default();
        let survey = surveyed(&registry, &mut said, None).await.expect("survey");
        assert_eq!(survey.live.len(), 1);
        assert_eq!(
            said.0,
            [format!(
                "skipping lockfile `{}`: a copy of `{}`, the lockfile of the same session (pid \
                 {} at `stdio`)",
                elsewhere.display(),
                own.display(),
                lock.pid
            )]
        );
    }

    /// The copy of a session that ended is removed with its lockfile, and the session said
    /// to have ended once.
    #[tokio::test]
    async fn a_copy_of_an_ended_sessions_lockfile_goes_with_it_and_is_told_once() {
        let (_dir, registry) = temp_registry();
        let lock = stale_in(&registry, 1).remove(0).lock;
        let copy = copy_as(&registry, "copy.json", &lock);
        let mut said = Notices::default();
        let survey = surveyed(&registry, &mut said, None).await.expect("survey");
        assert_eq!(said.0, Vec::<String>::new());
        assert_eq!(survey.stale.len(), 2);
        let removed = survey.collect_garbage(&registry, &mut said, None);
        assert_eq!(removed.len(), 2);
        assert!(!copy.exists());
        assert_eq!(ended_notes(survey.ended(&removed, |_| true)).len(), 1);
    }

    /// Past its deadline the survey reads no more of the directory, and says it ran out
    /// of its bound, for the caller to say in its words (`--timeout`'s error).
    #[tokio::test]
    async fn a_survey_past_its_deadline_is_out_of_its_bound() {
        let (_dir, registry) = temp_registry();
        stale_in(&registry, 3);
        let past = Some(std::time::Instant::now());
        let out = surveyed(&registry, &mut Notices::default(), past)
            .await
            .expect_err("out of time");
        assert!(out.is_out_of_bound(), "{out:?}");
        let none = within(
            std::time::Duration::from_millis(10),
            "reading the sessions",
            async { Err::<(), _>(out) },
        )
        .await
        .expect_err("out of time");
        assert_eq!(
            none.message(),
            "reading the sessions took longer than 10 ms"
        );
    }

    /// A stale lockfile whose slot lock is a FIFO: a reader leaves both and names the slot
    /// lock (the lockfile was blamed: "cannot remove `<hash>.json`"), and says `session
    /// clean` removes both, which it does.
    #[cfg(unix)]
    #[test]
    fn a_stale_lockfile_behind_a_slot_lock_that_is_none_is_told_by_its_slot_lock() {
        let (_dir, registry) = temp_registry();
        let survey = Survey {
            stale: stale_in(&registry, 1),
            ..Survey::default()
        };
        let lockfile = survey.stale[0].path.clone();
        let lock = mur_lockfile::lock_path(&lockfile);
        let made = std::process::Command::new("mkfifo").arg(&lock).status();
        assert!(made.expect("mkfifo").success());
        let mut said = Notices::default();
        assert!(
            survey
                .collect_garbage(&registry, &mut said, None)
                .is_empty()
        );
        assert_eq!(
            said.0,
            [format!(
                "slot lock `{}` is a FIFO, not a regular file: the lockfile `{}` beside it is \
                 left (`mur devtools session clean` removes both)",
                lock.display(),
                lockfile.display()
            )]
        );
        let mut cleaning = Notices::default();
        assert_eq!(survey.clean_garbage(&registry, &mut cleaning).len(), 1);
        assert_eq!(cleaning.0, Vec::<String>::new());
        assert!(!lockfile.exists() && std::fs::symlink_metadata(&lock).is_err());
    }

    /// The hint under a refused lockfile directory is what makes it one to trust: `chmod
    /// 700` only where that does (a directory of the user's that others can write to), not
    /// for a link (refused whatever it names) nor another user's directory.
    #[cfg(unix)]
    #[tokio::test]
    async fn a_refused_lockfile_directory_is_told_what_can_fix_it() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let lockfiles = dir.path().join("reactor-devtools");
        let registry = Registry::at(lockfiles.clone());
        let refused = || async {
            let error = surveyed(&registry, &mut Notices::default(), None)
                .await
                .expect_err("refused");
            (error.message().to_owned(), error.hints().to_vec())
        };
        let shown = lockfiles.display();
        registry.ensure_dir().expect("dir");
        std::fs::set_permissions(&lockfiles, std::fs::Permissions::from_mode(0o777))
            .expect("chmod");
        assert_eq!(
            refused().await,
            (
                format!(
                    "refusing lockfile directory `{shown}`: writable by group or others (mode \
                     777)"
                ),
                vec![format!(
                    "a lockfile directory must be yours and private: `chmod 700 {shown}`"
                )]
            )
        );
        std::fs::remove_dir(&lockfiles).expect("rmdir");
        let real = dir.path().join("real");
        mur_lockfile::ensure_private_dir(&real, "test").expect("private");
        std::os::unix::fs::symlink(&real, &lockfiles).expect("symlink");
        assert_eq!(
            refused().await,
            (
                format!("refusing lockfile directory `{shown}`: it is a symbolic link"),
                vec![format!(
                    "a lockfile directory must be a directory of yours, not a link: remove the \
                     link (`rm {shown}`), and the next session makes the directory"
                )]
            )
        );
        std::fs::remove_file(&lockfiles).expect("rm");
        // Another user's: only root can give a directory away to make one.
        if mur_lockfile::current_uid() == 0 {
            registry.ensure_dir().expect("dir");
            std::os::unix::fs::chown(&lockfiles, Some(65534), None).expect("chown");
            assert_eq!(
                refused().await,
                (
                    format!(
                        "refusing lockfile directory `{shown}`: owned by uid 65534, not by you \
                         (uid 0)"
                    ),
                    vec![
                        "only uid 65534 or root can remove it (the next session then makes it, \
                         yours), or point `XDG_RUNTIME_DIR` at a private directory of your own"
                            .to_owned()
                    ]
                )
            );
        }
    }

    #[test]
    fn a_large_batch_is_removed_on_threads_but_a_held_slot_and_a_rewritten_file_stay() {
        let (_dir, registry) = temp_registry();
        let stale: Vec<Found> = (0..100)
            .map(|i| {
                let project = format!("/stale/{i}/App.csproj");
                let lock = Lockfile::http(1, 4_000_000 + i, project, "t".into());
                let path = registry.write(&lock).expect("write");
                Found { path, lock }
            })
            .collect();
        // Many more than a thread's worth (lockfile's `batch`): removed on threads.
        // A session holds this slot (starting, or running with a fresh file).
        let _held = SlotLock::try_acquire(&stale[10].path)
            .expect("lock")
            .expect("the slot is free");
        // A session started and wrote its own file since the survey judged this one.
        let mut newer = stale[20].lock.clone();
        newer.pid += 1;
        registry.write(&newer).expect("write");
        let survey = Survey {
            stale,
            ..Survey::default()
        };

        let mut notices = Notices::default();
        assert_eq!(
            survey.collect_garbage(&registry, &mut notices, None).len(),
            98
        );
        assert_eq!(notices.0, Vec::<String>::new());
        let mut left: Vec<PathBuf> = registry
            .scan()
            .expect("scan")
            .into_iter()
            .map(|entry| entry.path)
            .collect();
        left.sort();
        let mut kept = vec![survey.stale[10].path.clone(), survey.stale[20].path.clone()];
        kept.sort();
        assert_eq!(left, kept);
    }
}
