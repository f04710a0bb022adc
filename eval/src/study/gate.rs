//! The first runs of a study, held back while none of their agents has started: an agent
//! command that cannot start (a program not installed, a script named by a relative
//! path, which each run resolves in its own working directory) fails every run alike,
//! and a study that went on would record hundreds of runs that measured nothing — and
//! compare the conditions by them. Once the first [`FIRST_RUNS`] runs' agents all never
//! started the study stops, recording none of them, so the corrected command run into
//! the same `--out` makes them; the first agent that starts lets every run through.

use mur_core::Error;

use super::report::failed_at_once;
use super::result::RunResult;
use crate::agent::could_not_start;

/// How many runs whose agent never started stop the study (fewer when fewer are to run).
pub const FIRST_RUNS: usize = 3;

/// Whether the runs are held back, let through, or the study stopped.
pub struct Gate {
    state: State,
    first: usize,
}

enum State {
    /// No agent has started yet: these runs' agents never did.
    Holding(Vec<RunResult>),
    Open,
    Shut,
}

/// What becomes of a run as it ends.
pub enum Admitted {
    /// These runs are recorded now (a run held back with the one that opened the gate).
    Record(Vec<RunResult>),
    /// Held back until the gate opens, or the study stops.
    Held,
    /// The study stops: nothing held is recorded. `Some` the first time, with the error
    /// it ends with.
    Stop(Option<Error>),
}

/// A run whose agent never started: `sh` exited 127 (not found) or 126 (not runnable)
/// before anything the study can see.
fn never_started(run: &RunResult) -> bool {
    run.error.is_none() && could_not_start(run.agent_exit).is_some() && failed_at_once(run)
}

impl Gate {
    /// The gate of a command with `pending` runs to make.
    pub fn new(pending: usize) -> Self {
        let first = pending.min(FIRST_RUNS);
        let state = if first == 0 {
            State::Open
        } else {
            State::Holding(Vec::new())
        };
        Gate { state, first }
    }

    pub fn admit(&mut self, run: RunResult) -> Admitted {
        let held = match &mut self.state {
            State::Open => return Admitted::Record(vec![run]),
            State::Shut => return Admitted::Stop(None),
            State::Holding(held) => held,
        };
        // A run the harness could not make says nothing of the agent: recorded as it is.
        if run.error.is_some() {
            return Admitted::Record(vec![run]);
        }
        if !never_started(&run) {
            let mut all = std::mem::take(held);
            all.push(run);
            self.state = State::Open;
            return Admitted::Record(all);
        }
        held.push(run);
        if held.len() < self.first {
            return Admitted::Held;
        }
        let error = stopped(held);
        self.state = State::Shut;
        Admitted::Stop(Some(error))
    }
}

/// The error a study stops with when the agents of its first runs all never started:
/// why, as the first run's exit and `agent.stderr` say it.
fn stopped(held: &[RunResult]) -> Error {
    let first = &held[0];
    let why = could_not_start(first.agent_exit).unwrap_or_default();
    let said = std::fs::read_to_string(first.transcript.join("agent.stderr"))
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| !l.trim().is_empty())
                .map(str::to_owned)
        })
        .map(|line| {
            format!(
                ", its stderr: `{}`",
                mur_core::text::escape_controls(line.trim())
            )
        })
        .unwrap_or_default();
    Error::usage(format!(
        "the agent never started in the first {} ({why}{said}): the study stopped, recording none of them",
        crate::words::plural(held.len(), "run")
    ))
    .with_hint(
        "fix `--agent` (name its scripts and programs by absolute path: each run's working \
         directory is its own) and run the command again",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(exit: i32) -> RunResult {
        RunResult {
            agent_exit: Some(exit),
            ..RunResult::unmade(
                format!("c/t/{exit}"),
                "c".into(),
                crate::profile::Profile::Cli,
                "t".into(),
                1,
                "/nonexistent".into(),
            )
        }
    }

    #[test]
    fn runs_are_held_until_an_agent_starts_and_then_recorded_together() {
        let mut gate = Gate::new(10);
        assert!(matches!(gate.admit(run(127)), Admitted::Held));
        let Admitted::Record(recorded) = gate.admit(run(1)) else {
            panic!("an agent that started opens the gate");
        };
        assert_eq!(recorded.len(), 2);
        let Admitted::Record(recorded) = gate.admit(run(127)) else {
            panic!("open");
        };
        assert_eq!(recorded.len(), 1);
    }

    #[test]
    fn the_first_runs_whose_agents_never_started_stop_the_study() {
        let mut gate = Gate::new(10);
        assert!(matches!(gate.admit(run(127)), Admitted::Held));
        assert!(matches!(gate.admit(run(126)), Admitted::Held));
        let Admitted::Stop(Some(error)) = gate.admit(run(127)) else {
            panic!("stopped");
        };
        assert_eq!(
            error.to_string(),
            "the agent never started in the first 3 runs (agent exit 127: its command was not \
             found): the study stopped, recording none of them"
        );
        assert!(matches!(gate.admit(run(0)), Admitted::Stop(None)));
        // A study of one run stops at its first.
        let mut gate = Gate::new(1);
        assert!(matches!(gate.admit(run(127)), Admitted::Stop(Some(_))));
    }
}
