//! What a study runs: its conditions × tasks × repeats, in the order a seed shuffles
//! them, and where each run's files go.

use std::path::{Path, PathBuf};

use crate::adapters::Format;
use crate::condition::Condition;
use crate::default_out::DefaultOut;
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
    /// The new directory named by the time that `out` is when no `--out` was given
    /// (`None`: it was): what a stop tells the user to run to resume the study; removed
    /// as the study is dropped if it wrote nothing there (it was refused first).
    pub made_out: Option<DefaultOut>,
    pub seed: Option<u64>,
    /// The standard named verbs (`verbs = "named"`).
    pub verbs: PathBuf,
    pub runner: Runner,
    /// How this command runs, for `study.json`.
    pub provenance: super::provenance::Provenance,
    /// `mur-eval-capture`, found before anything is written (conditions of the cli).
    pub capture: Option<PathBuf>,
}

/// One run of the matrix.
#[derive(Debug, Clone)]
pub(super) struct Planned {
    pub condition: usize,
    pub task: usize,
    pub repeat: u32,
    pub order: usize,
    /// Whether a counterbalanced condition names its surfaces swapped in this run.
    pub swapped: bool,
}

/// The most runs one command asks a study for: its whole plan is built (and shuffled)
/// in memory before the first run, and a typo (`--repeats 4294967295`) would ask for
/// hundreds of GB. 100 000 runs of a minute each is over two months.
pub const MAX_RUNS: u64 = 100_000;

/// Refuses (a usage error) a matrix of more than [`MAX_RUNS`] runs.
pub fn check_size(conditions: usize, tasks: usize, repeats: u32) -> mur_core::Result<()> {
    let runs = [conditions as u64, tasks as u64, u64::from(repeats)]
        .into_iter()
        .fold(1u64, u64::saturating_mul);
    if runs <= MAX_RUNS {
        return Ok(());
    }
    Err(mur_core::Error::usage(format!(
        "{} × {} × {} is {runs} runs, more than the {MAX_RUNS} a study makes: ask for fewer \
         `--repeats`, tasks or conditions",
        crate::words::plural(conditions, "condition"),
        crate::words::plural(tasks, "task"),
        crate::words::plural(repeats as usize, "repeat"),
    )))
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
                    swapped: crate::counterbalance::swapped(seed, &study.tasks[task].id, repeat),
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

/// What the study's tests build on.
#[cfg(test)]
pub(super) mod testing {
    use std::path::{Path, PathBuf};
    use std::time::Duration;

    use super::Study;
    use crate::run::Runner;

    /// A study of the shipped `both` condition (counterbalanced) × `tasks` × 3 repeats.
    pub fn study(tasks: &[&str]) -> Study {
        let conditions = crate::condition::load_dir(Path::new(crate::condition::CONDITION_DIR))
            .expect("the shipped conditions");
        let all = crate::task::load_dir(Path::new(crate::cli::TASK_DIR)).expect("the tasks");
        let names: Vec<String> = tasks.iter().map(|t| (*t).to_owned()).collect();
        Study {
            conditions: crate::condition::select(conditions, &["both".to_owned()]).expect("both"),
            tasks: crate::task::select(all, &names).expect("known tasks"),
            repeats: 3,
            agent: "true".to_owned(),
            agent_format: None,
            jobs: 1,
            out: PathBuf::new(),
            made_out: None,
            seed: None,
            verbs: PathBuf::new(),
            capture: None,
            runner: Runner {
                time_limit: Duration::from_secs(1),
                time_limit_forced: false,
                mur: PathBuf::new(),
                sample: PathBuf::new(),
                pass_env: Vec::new(),
            },
            provenance: crate::study::provenance::Provenance::of_nothing(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::testing::study;
    use super::*;

    /// Each run's order of the surfaces, by task id and repeat.
    fn orders(study: &Study, seed: u64) -> BTreeMap<(String, u32), bool> {
        order(study, seed)
            .into_iter()
            .map(|p| ((study.tasks[p.task].id.clone(), p.repeat), p.swapped))
            .collect()
    }

    #[test]
    fn a_matrix_past_the_most_runs_is_refused_in_one_line() {
        assert!(check_size(10, 10, 1_000).is_ok(), "exactly the most");
        let error = check_size(1, 1, u32::MAX).expect_err("too many");
        assert_eq!(error.exit_code(), 1);
        assert_eq!(
            error.message(),
            "1 condition × 1 task × 4294967295 repeats is 4294967295 runs, more than the \
             100000 a study makes: ask for fewer `--repeats`, tasks or conditions"
        );
        let error = check_size(usize::MAX, usize::MAX, 2).expect_err("too many");
        assert!(error.message().contains(&format!(" is {} runs", u64::MAX)));
    }

    #[test]
    fn a_tasks_surface_order_is_the_same_whatever_else_tasks_names() {
        let everything = orders(&study(&["about-title", "add-todo", "count-to-three"]), 2026);
        // Reordered and filtered: the runs of each task keep their orders.
        let some = orders(&study(&["count-to-three", "about-title"]), 2026);
        assert_eq!(some.len(), 6);
        for (run, swapped) in &some {
            assert_eq!(everything.get(run), Some(swapped), "{run:?}");
        }
        let one = orders(&study(&["add-todo"]), 2026);
        for (run, swapped) in &one {
            assert_eq!(everything.get(run), Some(swapped), "{run:?}");
        }
    }
}
