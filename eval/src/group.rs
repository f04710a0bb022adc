//! The agent's process group, recorded in its task's directory while it runs
//! (`agent.group`: the group's id, which is its leader's pid, and the leader's start
//! time), so that a study killed mid-run stops what its agents left when it resumes.
//! A recorded group is signalled only while its leader is still that process (same
//! start time), or gone: a pid is never reused while it still names a process group,
//! so a group whose leader exited is still the agent's — never a stranger's. The
//! session's process group is recorded the same way (`session.group`).

use std::path::Path;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use serde::{Deserialize, Serialize};

/// The file, in a task's directory, that names its running agent's group.
pub const FILE: &str = "agent.group";

/// One agent's process group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// The group's id: the pid of the `sh` that leads it.
    pub pgid: u32,
    /// The leader's start time, in clock ticks since boot (`/proc/<pid>/stat`).
    pub start: u64,
}

impl Group {
    /// The group `leader` leads, with the leader's start time; `None` when it cannot
    /// be read (then nothing is recorded and nothing will be signalled).
    pub fn of(leader: u32) -> Option<Self> {
        let (pgrp, start) = stat(leader)?;
        (pgrp == leader).then_some(Self {
            pgid: leader,
            start,
        })
    }

    /// Writes the group to `path`, in the agent's reach, whole and over whatever is there
    /// ([`crate::write::own`]; a failure only loses the clean-up on resume).
    pub fn record(self, path: &Path) {
        if let Ok(text) = serde_json::to_string(&self) {
            let _ = crate::write::own(path, (text + "\n").as_bytes());
        }
    }

    /// Kills every process of the group recorded in `path`, if it is still the one
    /// recorded; no file, nothing to do. Whether a group was there to kill.
    pub fn stop_recorded(path: &Path) -> bool {
        // In the agent's reach: a FIFO there is refused, not waited on.
        let recorded = crate::bounded::read(path, 4096)
            .ok()
            .and_then(|read| serde_json::from_slice::<Self>(&read.bytes).ok());
        recorded
            .filter(|g| g.still_ours())
            .is_some_and(|group| group.kill())
    }

    /// Whether the group's id still names this group: its leader runs with the
    /// recorded start time, or no process has its pid (the id stays reserved while
    /// any member lives, so the members left are this group's).
    fn still_ours(self) -> bool {
        match stat(self.pgid) {
            Some((_, start)) => start == self.start,
            None => {
                cfg!(target_os = "linux") && !Path::new(&format!("/proc/{}", self.pgid)).exists()
            }
        }
    }

    /// SIGKILL to the whole group, as at the agent's time limit; whether it was there.
    pub fn kill(self) -> bool {
        i32::try_from(self.pgid)
            .is_ok_and(|pgid| killpg(Pid::from_raw(pgid), Signal::SIGKILL).is_ok())
    }
}

/// A process's group id and start time (a zombie's too: its pid is still taken). Without
/// `/proc`, no start time to compare: nothing is recorded or signalled.
fn stat(pid: u32) -> Option<(u32, u64)> {
    let stat = mur_procs::stat(i32::try_from(pid).ok()?)?;
    Some((u32::try_from(stat.pgrp).ok()?, stat.start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt as _;
    use std::process::Command;

    fn leader(script: &str) -> std::process::Child {
        Command::new("sh")
            .args(["-c", script])
            .process_group(0)
            .spawn()
            .expect("sh runs")
    }

    #[test]
    fn a_recorded_group_is_stopped_whole() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut child = leader("sleep 600 & wait");
        let group = Group::of(child.id()).expect("the leader's stat");
        let path = dir.path().join(FILE);
        group.record(&path);
        Group::stop_recorded(&path);
        let status = child.wait().expect("waits");
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(9)
        );
    }

    /// A link an agent left at the group's name is replaced, its target untouched (a
    /// plain write truncated it: the agent chose which file); so is a FIFO no one reads,
    /// not waited on.
    #[test]
    fn a_group_is_recorded_over_a_link_or_a_fifo_never_through_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("bashrc");
        std::fs::write(&target, "kept\n").expect("write");
        let path = dir.path().join(FILE);
        std::os::unix::fs::symlink(&target, &path).expect("symlink");
        let group = Group { pgid: 7, start: 9 };
        group.record(&path);
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "kept\n");
        let recorded = |path: &Path| {
            let is_file = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
            let text = std::fs::read_to_string(path).unwrap_or_default();
            (is_file, serde_json::from_str::<Group>(&text).ok())
        };
        assert_eq!(recorded(&path), (true, Some(group)));
        std::fs::remove_file(&path).expect("remove");
        mur_testkit::mkfifo(&path);
        group.record(&path);
        assert_eq!(recorded(&path), (true, Some(group)));
    }

    #[test]
    fn a_group_whose_leader_started_at_another_time_is_left_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut child = leader("sleep 600");
        let mut group = Group::of(child.id()).expect("the leader's stat");
        // The same pid, another start time: a reused pid.
        group.start += 1;
        let path = dir.path().join(FILE);
        group.record(&path);
        Group::stop_recorded(&path);
        assert!(matches!(child.try_wait(), Ok(None)), "left running");
        let _ = child.kill();
        let _ = child.wait();
    }
}
