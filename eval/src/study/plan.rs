//! What a study runs: its conditions × tasks × repeats, in the order a seed shuffles
//! them, and where each run's files go.

use std::path::{Path, PathBuf};

use crate::adapters::Format;
use crate::condition::Condition;
use crate::run::Runner;
use crate::task::Task;

/// Everything a study needs, validated.
pub struct Study {
    pub conditions: Vec<Condition>,
    pub tasks: Vec<Task>,
    pub repeats: u32,
    /// The agent command; `{condition}` and `{surface}` are replaced besides the run's
    /// placeholders.
    pub agent: String,
    /// How to read the agent's stdout, over each condition's own `agent_format`.
    pub agent_format: Option<Format>,
    pub jobs: usize,
    pub out: PathBuf,
    pub seed: Option<u64>,
    /// The standard named verbs (`verbs = "named"`).
    pub verbs: PathBuf,
    pub runner: Runner,
}

/// One run of the matrix.
#[derive(Debug, Clone)]
pub(super) struct Planned {
    pub condition: usize,
    pub task: usize,
    pub repeat: u32,
    pub order: usize,
}

/// Every run of the matrix, shuffled by `seed` (the same seed, the same order).
pub(super) fn order(study: &Study, seed: u64) -> Vec<Planned> {
    let mut runs = Vec::new();
    for condition in 0..study.conditions.len() {
        for task in 0..study.tasks.len() {
            for repeat in 1..=study.repeats {
                runs.push(Planned {
                    condition,
                    task,
                    repeat,
                    order: 0,
                });
            }
        }
    }
    fastrand::Rng::with_seed(seed).shuffle(&mut runs);
    for (order, run) in runs.iter_mut().enumerate() {
        run.order = order;
    }
    runs
}

/// The directory of one run: `<out>/runs/<condition>/<task>/<repeat>`.
pub(super) fn run_dir(study: &Study, out: &Path, planned: &Planned) -> PathBuf {
    out.join("runs")
        .join(&study.conditions[planned.condition].name)
        .join(&study.tasks[planned.task].id)
        .join(planned.repeat.to_string())
}

pub(super) fn id(study: &Study, planned: &Planned) -> String {
    format!(
        "{}/{}/{}",
        study.conditions[planned.condition].name, study.tasks[planned.task].id, planned.repeat
    )
}
