//! What an agent left running outside its process group (a `setsid`, a daemon's double
//! fork), killed once the agent ends. On Linux mur-eval is a child subreaper: a process
//! whose parent exits is reparented to mur-eval, not to init, so whatever the agent
//! started stays a descendant of mur-eval however it detached. Each agent's environment
//! holds a marker unique to its run ([`VAR`]), which its descendants inherit: with
//! `--jobs` > 1 that tells whose leftovers are whose. A process is killed only if it is
//! a descendant of mur-eval and carries that run's marker — never the run's session
//! (mur-eval starts it with an environment of its own), never another run's processes.
//!
//! What this cannot find: a process that left the agent's group and also replaced its
//! environment (`setsid env -i …`): nothing then says which run it is of. And without
//! `/proc` (not Linux) nothing is found: only the agent's group is killed.

use std::sync::atomic::{AtomicU64, Ordering};

/// The variable naming the run in the agent's environment (docs/eval.md).
pub const VAR: &str = "MUR_EVAL_RUN";

/// Makes mur-eval the subreaper of what it starts (Linux; elsewhere nothing is done):
/// orphans of an agent are then reparented to mur-eval, where [`kill_left`] finds them.
/// Called once, first thing in `main`.
pub fn adopt() {
    #[cfg(target_os = "linux")]
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// A marker for one run's agent: this mur-eval's pid, a count, and a random part (an
/// agent cannot guess another run's).
pub fn marker() -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}-{:016x}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed),
        fastrand::u64(..)
    )
}

#[cfg(target_os = "linux")]
pub use linux::{kill_all, kill_left};

/// Reaps this process's zombie children in process `group`: as a subreaper mur-eval is
/// the parent of any process whose own parent exited (a reload's successor of a
/// session), and a zombie keeps its group alive until reaped. Called only once the
/// group's process std's `Child` owns is reaped (it would be taken from `Child`).
pub fn reap_group(group: i32) {
    use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
    let members = nix::unistd::Pid::from_raw(-group);
    while let Ok(status) = waitpid(members, Some(WaitPidFlag::WNOHANG)) {
        if status == WaitStatus::StillAlive {
            return;
        }
    }
}

/// Without `/proc`: nothing is found.
#[cfg(not(target_os = "linux"))]
pub fn kill_left(_marker: &str, _group: Option<i32>) -> usize {
    0
}

#[cfg(not(target_os = "linux"))]
pub fn kill_all() {}

#[cfg(target_os = "linux")]
mod linux {
    use std::collections::{BTreeMap, BTreeSet};
    use std::time::{Duration, Instant};

    use nix::sys::signal::{Signal, kill};
    use nix::sys::wait::{WaitPidFlag, waitpid};
    use nix::unistd::Pid;
    use procfs::FromRead as _;

    use super::VAR;

    /// How long the killing may take: a process that forks as fast as it is killed is
    /// given up on after this (it is still this mur-eval's, and is killed with it at a
    /// signal).
    const KILL_WAIT: Duration = Duration::from_secs(2);
    const POLL: Duration = Duration::from_millis(5);

    /// One process as `/proc/<pid>/stat` says.
    #[derive(Clone, Copy)]
    struct Proc {
        ppid: i32,
        pgrp: i32,
        start: u64,
        zombie: bool,
    }

    /// Kills every descendant of this process whose environment holds `VAR=marker`, and
    /// reaps those reparented to it, with what the agent's `group` (killed already) left
    /// to reap. Returns how many of them had left the group.
    pub fn kill_left(marker: &str, group: Option<i32>) -> usize {
        let entry = format!("{VAR}={marker}");
        let is_ours = |environ: &[u8]| environ.split(|&b| b == 0).any(|e| e == entry.as_bytes());
        let deadline = Instant::now() + KILL_WAIT;
        let mut killed: BTreeMap<i32, u64> = BTreeMap::new();
        let mut outside = BTreeSet::new();
        loop {
            let table = processes();
            let found = marked(&table, &is_ours);
            for &pid in &found {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
                if let Some(p) = table.get(&pid) {
                    killed.insert(pid, p.start);
                    if group != Some(p.pgrp) {
                        outside.insert((pid, p.start));
                    }
                }
            }
            let waiting = reap(&table, &mut killed, group);
            if (found.is_empty() && !waiting) || Instant::now() >= deadline {
                return outside.len();
            }
            std::thread::sleep(POLL);
        }
    }

    /// At a signal, as mur-eval exits: every run's leftovers killed at once, not waited
    /// for (each is reparented to init when mur-eval exits).
    pub fn kill_all() {
        let ours = format!("{VAR}={}-", std::process::id());
        let is_ours = |environ: &[u8]| {
            environ
                .split(|&b| b == 0)
                .any(|e| e.starts_with(ours.as_bytes()))
        };
        for pid in marked(&processes(), &is_ours) {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }

    /// Every running process, by pid.
    fn processes() -> BTreeMap<i32, Proc> {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return BTreeMap::new();
        };
        entries
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(|pid| Some((pid, stat(pid)?)))
            .collect()
    }

    fn stat(pid: i32) -> Option<Proc> {
        let bytes = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
        let stat = procfs::process::Stat::from_read(bytes.as_slice()).ok()?;
        Some(Proc {
            ppid: stat.ppid,
            pgrp: stat.pgrp,
            start: stat.starttime,
            zombie: stat.state == 'Z',
        })
    }

    /// The live descendants of this process whose environment `is_ours` says are a
    /// run's (a zombie's environment cannot be read, and it needs no kill).
    fn marked(table: &BTreeMap<i32, Proc>, is_ours: &dyn Fn(&[u8]) -> bool) -> Vec<i32> {
        let me = me();
        table
            .iter()
            .filter(|(pid, p)| !p.zombie && **pid != me && descends(table, **pid, me))
            .filter(|(pid, _)| {
                std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|env| is_ours(&env))
            })
            .map(|(pid, _)| *pid)
            .collect()
    }

    /// Whether `ancestor` is an ancestor of `pid` in `table`.
    fn descends(table: &BTreeMap<i32, Proc>, mut pid: i32, ancestor: i32) -> bool {
        // Bounded: a table read while processes come and go may hold a cycle.
        for _ in 0..table.len() {
            match table.get(&pid) {
                Some(p) if p.ppid == ancestor => return true,
                Some(p) if p.ppid > 1 => pid = p.ppid,
                _ => return false,
            }
        }
        false
    }

    /// Reaps this process's zombie children among `killed` (the same pid and start time:
    /// never a pid reused since) and in `group`; forgets those gone. Whether some killed
    /// process still is to be waited for (dying, or a zombie of a parent dying too).
    fn reap(
        table: &BTreeMap<i32, Proc>,
        killed: &mut BTreeMap<i32, u64>,
        group: Option<i32>,
    ) -> bool {
        let me = me();
        let ours = |pid: &i32, p: &Proc| {
            p.zombie && p.ppid == me && (killed.get(pid) == Some(&p.start) || group == Some(p.pgrp))
        };
        let zombies: Vec<i32> = table
            .iter()
            .filter(|(pid, p)| ours(pid, p))
            .map(|(pid, _)| *pid)
            .collect();
        for pid in zombies {
            // A zombie child of ours that std's `Child` does not own (the agent's `sh`,
            // the only one of the group it owns, is reaped before this is called).
            let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
            killed.remove(&pid);
        }
        killed.retain(|pid, start| table.get(pid).is_some_and(|p| p.start == *start));
        !killed.is_empty()
    }

    /// This process's pid, as `/proc` gives pids.
    fn me() -> i32 {
        i32::try_from(std::process::id()).unwrap_or(i32::MAX)
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::process::Command;

    /// Only the processes of the run named are killed: another run's marker, or none
    /// (the run's session), is left running.
    #[test]
    fn only_the_runs_own_processes_are_killed() {
        let (mine, another) = (marker(), marker());
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
