//! A study's runs made `--jobs` at a time: each worker thread takes the next run, makes
//! it ([`super::one`]), and appends what the gate ([`super::gate`]) lets through to
//! `results.jsonl`. The first failure, or a signal, stops every worker before its next run.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Mutex, MutexGuard, Once};

use mur_core::Error;

use super::gate::{Admitted, Gate};
use super::journal;
use super::live::Live;
use super::one;
use super::plan::{Planned, Study};
use super::prepare::Ready;
use super::progress::Bar;
use super::result::RunResult;
use crate::checker::Checker;

/// What every worker makes and records its runs with (each makes its own checker).
pub struct Workers<'a> {
    pub study: &'a Study,
    pub ready: &'a [Option<Ready>],
    pub out: &'a Path,
    pub live: &'a Live,
    /// Which of `study.json`'s matrices this command's is: each run says so.
    pub made_by: Option<usize>,
    /// `results.jsonl`.
    pub results: &'a Path,
    pub progress: &'a (dyn Fn(&str) + Sync),
}

/// What the workers share while they run: the runs left, the gate, the progress bar,
/// and the first failure, which stops them all.
struct Shared<'a> {
    workers: &'a Workers<'a>,
    queue: Mutex<VecDeque<Planned>>,
    gate: Mutex<Gate>,
    bar: Bar,
    failure: Mutex<Option<Error>>,
    /// The warning of a run whose stdout held no event, said once.
    no_events: Once,
}

/// The directories of the runs begun and not yet recorded, held ([`Live::changing`]):
/// a stop removes what it holds, so a run is recorded whole or not at all.
type Begun<'a> = MutexGuard<'a, std::collections::BTreeSet<std::path::PathBuf>>;

impl Workers<'_> {
    /// Makes and records `pending`, `study.jobs` at a time, until none is left, one
    /// fails the study, or a signal stops it; the error that stopped it, if any.
    pub fn make(&self, pending: VecDeque<Planned>) -> Option<Error> {
        let shared = Shared {
            workers: self,
            bar: Bar::new(pending.len()),
            gate: Mutex::new(Gate::new(pending.len())),
            queue: Mutex::new(pending),
            failure: Mutex::new(None),
            no_events: Once::new(),
        };
        std::thread::scope(|scope| {
            for _ in 0..self.study.jobs.max(1) {
                scope.spawn(|| shared.work());
            }
        });
        shared.bar.done();
        shared.failure.into_inner().ok().flatten()
    }
}

impl Shared<'_> {
    /// One worker: the next run made and passed on, until none is to be made.
    fn work(&self) {
        let checker = match Checker::new() {
            Ok(checker) => checker,
            Err(e) => return self.fail(e),
        };
        let Workers {
            study,
            ready,
            out,
            live,
            made_by,
            ..
        } = *self.workers;
        let making = one::Making {
            study,
            ready,
            checker: &checker,
            out,
            live,
        };
        while let Some(planned) = self.next() {
            let mut result = one::run_one(&making, &planned);
            result.made_by = made_by;
            if !self.finished(result) {
                return;
            }
        }
    }

    /// The next run to make: none once the study failed or a signal is stopping it.
    fn next(&self) -> Option<Planned> {
        if self.failure.lock().map_or(true, |f| f.is_some()) || crate::stop::signalled() {
            return None;
        }
        self.queue.lock().ok().and_then(|mut q| q.pop_front())
    }

    /// A finished run said, and recorded with any held back as the gate admits it;
    /// whether this worker goes on.
    fn finished(&self, result: RunResult) -> bool {
        // A run a stop cut short is not recorded: its agent was killed.
        let Some(mut begun) = self.workers.live.changing() else {
            return false;
        };
        self.bar.finished(&result, self.workers.progress);
        // A run held back, or one the study stopped at, stays begun: its directory is
        // removed with the study's temporary files.
        let admitted = self
            .gate
            .lock()
            .map_or(Admitted::Stop(None), |mut gate| gate.admit(result));
        match admitted {
            Admitted::Record(runs) => self.record(runs, &mut begun),
            Admitted::Held => true,
            Admitted::Stop(error) => {
                error.into_iter().for_each(|e| self.fail(e));
                false
            }
        }
    }

    /// `runs` appended to `results.jsonl`, each no longer begun; false once one could
    /// not be (the study's failure).
    fn record(&self, runs: Vec<RunResult>, begun: &mut Begun<'_>) -> bool {
        for result in runs {
            if let Err(e) = journal::append(self.workers.results, &result) {
                self.fail(e);
                return false;
            }
            begun.remove(&result.transcript);
            self.warn_of_no_events(&result);
        }
        true
    }

    /// Said at once, not only in the report at the end: a study of hundreds of runs
    /// need not finish to learn its agent's flags are wrong. Once: the report counts
    /// every such run.
    fn warn_of_no_events(&self, result: &RunResult) {
        if let Some(agent) = result.agent.as_ref().filter(|a| a.no_events) {
            self.no_events.call_once(|| {
                let note = one::no_events_note(agent.format);
                (self.workers.progress)(&format!("warning: {}: {note}", result.id));
            });
        }
    }

    /// The study's failure: the first one kept.
    fn fail(&self, error: Error) {
        if let Ok(mut slot) = self.failure.lock() {
            slot.get_or_insert(error);
        }
    }
}
