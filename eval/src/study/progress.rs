//! A study's progress: a bar on a terminal, else a line per run.

use std::io::IsTerminal as _;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::result::RunResult;
use crate::words::plural;

/// Progress: a bar on a terminal, else a line per run.
pub struct Bar(Option<ProgressBar>, usize, Mutex<usize>);

impl Bar {
    pub fn new(total: usize) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            if let Ok(style) =
                ProgressStyle::with_template("{bar:30} {pos}/{len} runs, {elapsed} {msg}")
            {
                bar.set_style(style);
            }
            bar
        });
        Self(bar, total, Mutex::new(0))
    }

    pub fn finished(&self, result: &RunResult, progress: &(dyn Fn(&str) + Sync)) {
        let line = line(result);
        let done = self.2.lock().map(|mut n| {
            *n += 1;
            *n
        });
        match &self.0 {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(line);
            }
            None => progress(&format!("[{}/{}] {line}", done.unwrap_or(0), self.1)),
        }
    }

    pub fn done(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// What a finished run's progress line says: `pass` or `FAIL` with its figures, or
/// `ERROR` and why for a run the harness could not make (no agent ran, so no figures).
pub fn line(result: &RunResult) -> String {
    if let Some(error) = &result.error {
        return format!(
            "{}: ERROR, not run: {}",
            result.id,
            error.lines().next().unwrap_or_default()
        );
    }
    let verdict = if result.success { "pass" } else { "FAIL" };
    let start = crate::agent::ended_badly(result.agent_exit, result.timed_out);
    format!(
        "{}: {verdict} ({start}{}, {}, {:.2} s)",
        result.id,
        plural(result.calls.total as usize, "call"),
        plural(result.context.total.tokens as usize, "context token"),
        result.wall_ms / 1000.0
    )
}
