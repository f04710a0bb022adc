//! What an agent left running outside its process group (a `setsid`, a daemon's double
//! fork), killed once the agent ends. On Linux mur-eval is a child subreaper: a process
//! whose parent exits is reparented to mur-eval, not to init, so whatever the agent
//! started stays a descendant of mur-eval however it detached. Each agent's environment
//! holds a marker unique to its run ([`VAR`]), which its descendants inherit: with
//! `--jobs` > 1 that tells whose leftovers are whose. A process is killed only if it is
//! a descendant of mur-eval and carries that run's marker — never the run's session
//! (mur-eval starts it with an environment of its own), never another run's processes.
//! The mechanism is `mur-procs`'; what is mur-eval's is the variable. What left and exits
//! on its own (before the kill, or without the marker) is reaped after each run
//! (`mur_procs::reap_adopted`, in `crate::run`): never a process whose status a `Child`
//! waits for, the agents and sessions being spawned through `mur_procs::spawn`.
//!
//! What this cannot find: a process that left the agent's group and also replaced its
//! environment (`setsid env -i …`): nothing then says which run it is of. And without
//! `/proc` (not Linux) nothing is found: only the agent's group is killed.

/// The variable naming the run in the agent's environment (docs/eval.md).
pub const VAR: &str = "MUR_EVAL_RUN";

/// Kills every descendant of mur-eval whose environment holds `VAR=marker`, and reaps
/// those reparented to it, with what the agent's `group` (killed already) left to reap.
/// Returns how many of them had left the group. Called once the agent's `sh`, the one
/// process of the group std's `Child` owns, is reaped.
pub fn kill_left(marker: &str, group: Option<i32>) -> usize {
    mur_procs::kill_left(VAR, marker, group)
}

/// At a signal, as mur-eval exits: every run's leftovers killed at once, not waited
/// for (each is reparented to init when mur-eval exits).
pub fn kill_all() {
    mur_procs::kill_all_marked(VAR);
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::process::Command;

    /// Only the processes of the run named are killed: another run's marker, or none
    /// (the run's session), is left running.
    #[test]
    fn only_the_runs_own_processes_are_killed() {
        let (mine, another) = (mur_procs::marker(), mur_procs::marker());
        assert_ne!(mine, another);
        let start = |marker: Option<&str>| {
            let mut command = Command::new("sleep");
            command.arg("30").env_remove(VAR);
            if let Some(marker) = marker {
                command.env(VAR, marker);
            }
            command.spawn().expect("sleep runs")
        };
        let mut others = [start(Some(&another)), start(None)];
        let mut ours = start(Some(&mine));
        // The same marker's prefix is not the marker.
        let mut longer = start(Some(&format!("{mine}0")));
        assert_eq!(kill_left(&mine, None), 1);
        // Killed and reaped (by `kill_left`, as an orphan would be): nothing to wait for.
        assert!(ours.try_wait().is_err(), "reaped");
        for child in others.iter_mut().chain([&mut longer]) {
            assert!(matches!(child.try_wait(), Ok(None)), "left running");
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
