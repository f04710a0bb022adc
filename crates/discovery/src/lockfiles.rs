//! Reading the lockfile directories: every lockfile classified as live, stale
//! (process gone or pid reused), unresponsive (the session's process runs but
//! did not answer) or not a devtools session, with one-line notices for files
//! that are malformed, of an unknown schema, or untrusted, and for directories not
//! searched as untrusted.

use std::path::PathBuf;

use mur_lockfile::liveness::{self, Liveness};
use mur_lockfile::{Entry, Lockfile, ReadOutcome, Registry};

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
}

/// The registry `mur` reads: every directory where a session of this user may have
/// announced itself ([`Registry::for_readers`]).
pub fn registry() -> Registry {
    Registry::for_readers()
}

/// Scans `registry`, probing every valid lockfile in parallel; files that
/// are skipped are told to `report`.
pub async fn survey(
    registry: &Registry,
    http: &mur_http::Http,
    report: &mut dyn Report,
) -> Result<Survey> {
    survey_wanted(registry, http, |_| true, report).await
}

/// As [`survey`], but only the sessions `wanted` keeps are probed: the others are
/// judged stale or left out, by their process alone.
pub async fn survey_wanted(
    registry: &Registry,
    http: &mur_http::Http,
    wanted: impl Fn(&Found) -> bool,
    report: &mut dyn Report,
) -> Result<Survey> {
    registry.check_searched_trusted().map_err(|reason| {
        Error::no_session(reason).with_hint(
            "the lockfile directory must be yours and private: `chmod 700` it, or remove it",
        )
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
    let entries = registry.scan_naming().map_err(|unlisted| {
        Error::internal(format!(
            "cannot read lockfile directory `{}`: {}",
            unlisted.dir.display(),
            unlisted.error
        ))
        .with_hint("sessions announce themselves there: it must be a directory mur can read")
    })?;
    let mut malformed = Vec::new();
    let valid: Vec<Found> = entries
        .into_iter()
        .filter_map(|entry| {
            if matches!(entry.outcome, ReadOutcome::Malformed(_)) {
                malformed.push(entry.path.clone());
            }
            valid_or_notice(entry, report)
        })
        .collect();
    let locks: Vec<(&Lockfile, bool)> = valid.iter().map(|f| (&f.lock, wanted(f))).collect();
    let verdicts = liveness::check_wanted(http, &locks).await;
    let mut survey = Survey {
        malformed,
        ..Survey::default()
    };
    for (found, verdict) in valid.into_iter().zip(verdicts) {
        let Some(verdict) = verdict else {
            continue;
        };
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
    /// one. `session clean` gives none: removing them is what it is asked to do.
    pub fn collect_garbage(
        &self,
        registry: &Registry,
        report: &mut dyn Report,
        deadline: Option<std::time::Instant>,
    ) -> Vec<&Found> {
        let mut removed = Vec::new();
        let files: Vec<_> = self
            .stale
            .iter()
            .map(|f| (f.path.as_path(), &f.lock))
            .collect();
        let outcomes = registry.remove_all_if_unchanged(&files, deadline);
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
                Err(e) => report.notice(format!(
                    "cannot remove `{}`: {e}",
                    escape_value(&found.path.to_string_lossy())
                )),
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
        removed
            .iter()
            .copied()
            .filter(|found| meant(found) && !self.runs_project_of(found))
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
    use mur_lockfile::SlotLock;

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
        let dir = tempfile::tempdir().expect("tempdir");
        let registry = Registry::at(dir.path().join("reactor-devtools"));
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
        let dir = tempfile::tempdir().expect("tempdir");
        let registry = Registry::at(dir.path().join("reactor-devtools"));
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

    #[test]
    fn a_large_batch_is_removed_on_threads_but_a_held_slot_and_a_rewritten_file_stay() {
        let dir = tempfile::tempdir().expect("tempdir");
        let registry = Registry::at(dir.path().join("reactor-devtools"));
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
