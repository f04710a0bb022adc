//! `mur-procs`: what a process started that left its process group (a `setsid`, a daemon's
//! double fork), found by a marker its environment inherits and killed and reaped by this
//! process as their child subreaper; and the one reader of `/proc/<pid>/stat` ([`stat`]).
//!
//! On Linux a process that calls [`become_subreaper`] adopts every descendant whose parent
//! exits (instead of init), so whatever a child of it started stays its descendant however
//! it detached. Each child is given a marker in its environment ([`marker`], under a
//! variable the caller names), which its descendants inherit: [`kill_left`] kills every
//! descendant of this process carrying that exact marker — never one of another marker, or
//! of none — and reaps those that are its own children. What this cannot find: a process
//! that left the group and also replaced its environment (`setsid env -i …`): nothing then
//! says whose it is. Without `/proc` (not Linux) nothing is found, and nothing is done.
//!
//! What was adopted and exits on its own (no marker, or gone before the kill) is reaped by
//! [`reap_adopted`], never one whose status a `Child` waits for: a child put outside this
//! process's group is spawned through [`spawn`], which lists it until its `Child` has
//! reaped it (`own.rs`).
//!
//! And how a process a signal stopped ends once it has tidied up ([`end_by_signal`], as
//! the signal's default action would have ended it; [`exit_for_signal`], with the shells'
//! code for it), and how its line names the signal ([`signal_name`]): the one way for the
//! stdio bridge, `mur` and mur-eval (`ending.rs`).

use std::sync::atomic::{AtomicU64, Ordering};

mod ending;
#[cfg(target_os = "linux")]
mod linux;
mod own;
mod stat;

pub use ending::{end_by_signal, exit_for_signal, signal_exit_code, signal_name};
pub use own::{Spawned, spawn};
pub use stat::{Stat, only_exited, processes, stat};

/// Makes this process the child subreaper of its descendants (Linux; elsewhere nothing is
/// done): a descendant whose parent exits is reparented to this process, not to init,
/// where [`kill_left`] finds it. Process-wide and for good; asked of the kernel once,
/// however often called. Its zombies are this process's to reap from then on
/// ([`kill_left`], [`reap_adopted`]).
pub fn become_subreaper() -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        static DONE: std::sync::OnceLock<Result<(), rustix::io::Errno>> =
            std::sync::OnceLock::new();
        let done = DONE
            .get_or_init(|| rustix::process::set_child_subreaper(Some(rustix::process::getpid())));
        done.map_err(std::io::Error::from)
    }
    #[cfg(not(target_os = "linux"))]
    {
        Ok(())
    }
}

/// A marker for one child's environment: this process's pid, a count, and 64 random bits
/// (the OS's; what a process cannot guess, so it cannot pass for another's):
/// `<pid>-<count>-<random>`.
pub fn marker() -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let count = COUNT.fetch_add(1, Ordering::Relaxed);
    let random = getrandom::u64().unwrap_or_else(|_| {
        // No randomness from the OS: std's hasher keys, random per process.
        use std::hash::BuildHasher as _;
        std::hash::RandomState::new().hash_one(count)
    });
    format!("{}-{count}-{random:016x}", std::process::id())
}

/// Kills every descendant of this process whose environment holds `var=marker`, and
/// reaps those that are its children (reparented to it, a subreaper), with the zombies
/// of `group` (the child's process group, ended already) left to reap. Waits for them to
/// go for up to 2 s (a process that forks as fast as it is killed is given up on).
/// Returns how many of those killed were outside `group` (all of them with `None`).
///
/// Blocking. Called once the process std's `Child` owns (which carries the marker) is
/// reaped: a zombie of the marker or group would be reaped here, taken from `Child`.
pub fn kill_left(var: &str, marker: &str, group: Option<i32>) -> usize {
    kill_left_after(Killed::default(), var, marker, group)
}

/// [`kill_left`], what a [`kill_marked`] killed earlier (`killed`) reaped and counted too:
/// once killed, a process is a zombie, no longer found by its marker.
pub fn kill_left_after(killed: Killed, var: &str, marker: &str, group: Option<i32>) -> usize {
    #[cfg(target_os = "linux")]
    {
        let entry = format!("{var}={marker}");
        linux::kill_left(&|e: &[u8]| e == entry.as_bytes(), group, killed.0)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (killed, var, marker, group);
        0
    }
}

/// What [`kill_marked`] killed, not waited for: for [`kill_left_after`] to reap.
#[derive(Debug, Default)]
pub struct Killed(Vec<Stat>);

/// [`kill_left`] without waiting or reaping: SIGKILL to every live descendant of this
/// process whose environment holds `var=marker`, for a path that cannot wait (a `Drop`,
/// a signal's). Returns what it killed.
pub fn kill_marked(var: &str, marker: &str) -> Killed {
    #[cfg(target_os = "linux")]
    {
        let entry = format!("{var}={marker}");
        Killed(linux::kill_now(&|e: &[u8]| e == entry.as_bytes()))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (var, marker);
        Killed::default()
    }
}

/// [`kill_marked`] for every marker this process made under `var` (`var=<pid>-…`), as it
/// exits at a signal: what its children left, killed at once, not waited for.
pub fn kill_all_marked(var: &str) {
    #[cfg(target_os = "linux")]
    {
        let ours = format!("{var}={}-", std::process::id());
        linux::kill_now(&|e: &[u8]| e.starts_with(ours.as_bytes()));
    }
    #[cfg(not(target_os = "linux"))]
    let _ = var;
}

/// Reaps this process's zombie children that no `Child` is owed: as a subreaper it adopts
/// every descendant whose parent exits, and one that then exits on its own (a process a
/// server or agent left outside its group, with or without a marker, or a member of a
/// group already ended) would be a zombie — a pid and a slot of the process table taken —
/// until this process exits. Returns how many it reaped.
///
/// Never one a `Child` waits for: a child spawned through [`spawn`] is listed until its
/// [`Spawned`] has reaped it, and one in this process's own process group (every child
/// std spawns that is not put in a group of its own) is left alone, listed or not. Hence
/// no `waitpid(-1)`, which would take any child's status: a `waitid` that leaves the
/// status in place says whether there is a zombie child at all, `/proc` which ones, then
/// a `waitpid` of each pid, all under one lock (`own.rs` says why nothing can take a
/// pid's place meanwhile). Cheap when there is nothing to reap (that one `waitid`), so a
/// long-running process may call it on a timer. Linux only (elsewhere nothing is
/// adopted); without `/proc`, nothing is reaped.
pub fn reap_adopted() -> usize {
    #[cfg(target_os = "linux")]
    {
        linux::reap_adopted(&|_| true)
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
    use std::process::{Child, Command};
    use std::time::{Duration, Instant};

    /// `sleep 30` with `var=value` in its environment (`None`: unset), once its
    /// environment shows it ([`running`]): a one-shot kill (`kill_all_marked`) passed over
    /// a child not yet `exec`ed, which then slept its 30 s.
    fn sleeping(var: &str, value: Option<&str>) -> Child {
        let mut command = Command::new("sleep");
        command.arg("30").env_remove(var);
        if let Some(value) = value {
            command.env(var, value);
        }
        let child = command.spawn().expect("sleep runs");
        match value {
            Some(_) => running(child, var),
            // Nothing to find it by, before its `exec` or after.
            None => child,
        }
    }

    /// `child` once its environment shows `var`: until its `exec` has set up the new
    /// program's environment, the child has this process's, without the marker, and a
    /// kill by marker that looks once passes it over.
    fn running(child: Child, var: &str) -> Child {
        let environ = format!("/proc/{}/environ", child.id());
        let entry = format!("{var}=").into_bytes();
        wait_for(|| {
            let environ = std::fs::read(&environ).ok()?;
            environ
                .split(|&b| b == 0)
                .any(|e| e.starts_with(&entry))
                .then_some(())
        });
        child
    }

    fn stop(child: &mut Child) {
        let _ = child.kill();
        let _ = child.wait();
    }

    /// Only the processes of the marker named are killed: another marker's, or one with
    /// none, or one whose marker merely begins with it, is left running.
    #[test]
    fn only_the_markers_own_processes_are_killed() {
        const VAR: &str = "MUR_PROCS_TEST_EXACT";
        let (mine, another) = (marker(), marker());
        assert_ne!(mine, another);
        let mut others = [sleeping(VAR, Some(&another)), sleeping(VAR, None)];
        let mut ours = sleeping(VAR, Some(&mine));
        let mut longer = sleeping(VAR, Some(&format!("{mine}0")));
        // Outside any group given: counted.
        assert_eq!(kill_left(VAR, &mine, None), 1);
        // Killed and reaped (by `kill_left`, as an orphan would be): nothing to wait for.
        assert!(ours.try_wait().is_err(), "reaped");
        for child in others.iter_mut().chain([&mut longer]) {
            assert!(matches!(child.try_wait(), Ok(None)), "left running");
            stop(child);
        }
    }

    /// What stayed in the group given is killed but not counted as outside it.
    #[test]
    fn what_stayed_in_the_group_is_not_counted_as_left() {
        const VAR: &str = "MUR_PROCS_TEST_GROUP";
        let mine = marker();
        let mut leader = Command::new("sleep");
        let leader = leader
            .arg("30")
            .env(VAR, &mine)
            .process_group(0)
            .spawn()
            .expect("sleep runs");
        let mut leader = running(leader, VAR);
        let group = i32::try_from(leader.id()).expect("a pid");
        assert_eq!(kill_left(VAR, &mine, Some(group)), 0);
        assert!(leader.try_wait().is_err(), "killed and reaped");
    }

    /// Every marker this process made under the variable, killed without waiting (the
    /// `Child` reaps it, killed by SIGKILL); another process's marker and another
    /// variable are left.
    #[test]
    fn all_of_this_processs_markers_are_killed_at_once() {
        const VAR: &str = "MUR_PROCS_TEST_ALL";
        let mut ours = [
            sleeping(VAR, Some(&marker())),
            sleeping(VAR, Some(&marker())),
        ];
        let mut others = [
            sleeping(VAR, Some("1-0-0000000000000000")),
            sleeping("MUR_PROCS_TEST_OTHER", Some(&marker())),
        ];
        kill_all_marked(VAR);
        for child in &mut ours {
            let status = child.wait().expect("waited");
            assert_eq!(status.signal(), Some(9));
        }
        for child in &mut others {
            assert!(matches!(child.try_wait(), Ok(None)), "left running");
            stop(child);
        }
        // One marker alone: the other is left.
        let (mine, theirs) = (marker(), marker());
        let mut kept = sleeping(VAR, Some(&theirs));
        let mut killed = sleeping(VAR, Some(&mine));
        let _ = kill_marked(VAR, &mine);
        assert_eq!(killed.wait().expect("waited").signal(), Some(9));
        assert!(matches!(kept.try_wait(), Ok(None)), "left running");
        stop(&mut kept);
    }

    /// A process whose parent exited is this subreaper's child: once it exits on its own
    /// (no kill, no marker), its zombie is reaped. Never a zombie a `Child` waits for: the
    /// leader of a group of its own, spawned through `spawn` and exited, not yet waited
    /// for, nor a child std spawned in this process's own group — each `Child` still gets
    /// its process's status. Before, such an orphan stayed a zombie until this process
    /// exited, unless it was in the group of a leader whose pid the caller named.
    #[test]
    fn adopted_zombies_are_reaped_but_never_one_a_child_waits_for() {
        become_subreaper().expect("a subreaper");
        let dir = tempfile::tempdir().expect("tempdir");
        let pid_file = dir.path().join("orphan");
        // The orphan writes its pid and exits; the leader exits 7 once it is written.
        let script = format!(
            "(sh -c 'echo $$ > {0}.new; mv {0}.new {0}' &); \
             until [ -s {0} ]; do sleep 0.01; done; exit 7",
            pid_file.display()
        );
        let mut leader =
            spawn(Command::new("sh").args(["-c", &script]).process_group(0)).expect("sh runs");
        let mut plain = Command::new("true").spawn().expect("true runs");
        let (led, plain_pid) = (pid_of(&leader), pid_of(&plain));
        let orphan: i32 = wait_for(|| std::fs::read_to_string(&pid_file).ok()?.trim().parse().ok());
        // All three exited, zombies of this process: the orphan once its parent (the
        // subshell) exited too.
        for pid in [orphan, led, plain_pid] {
            wait_for(|| stat(pid).filter(|p| p.zombie && p.ppid == me()).map(drop));
        }
        // This test's own processes only: other tests' children share this process.
        let ours = |pid| [orphan, led, plain_pid].contains(&pid);
        assert_eq!(linux::reap_adopted(&ours), 1);
        assert_eq!(stat(orphan), None, "reaped");
        assert!(own::listed(led));
        let status = leader.wait().expect("the leader's status is its Child's");
        assert_eq!(status.code(), Some(7));
        assert!(!own::listed(led), "off the list once its Child reaped it");
        assert!(plain.wait().expect("its status is its Child's").success());
    }

    /// A child spawned through `spawn` whose `Spawned` is dropped unreaped is no `Child`'s
    /// any more: its zombie is reaped as one adopted.
    #[test]
    fn a_spawned_child_dropped_unreaped_is_reaped_as_adopted() {
        let spawned = spawn(Command::new("true").process_group(0)).expect("true runs");
        let pid = pid_of(&spawned);
        wait_for(|| stat(pid).filter(|p| p.zombie).map(drop));
        assert_eq!(linux::reap_adopted(&|p| p == pid), 0, "its Child's still");
        drop(spawned);
        assert_eq!(linux::reap_adopted(&|p| p == pid), 1);
        assert_eq!(stat(pid), None);
    }

    fn pid_of(child: &Child) -> i32 {
        i32::try_from(child.id()).expect("a pid")
    }

    /// A process's own stat, and a child's as it exits (a zombie until reaped).
    #[test]
    fn stat_reads_a_process_and_a_zombie() {
        let own = stat(me()).expect("this process");
        assert_eq!(own.pid, me());
        let raw = |pid: rustix::process::Pid| pid.as_raw_nonzero().get();
        assert_eq!(Some(own.ppid), rustix::process::getppid().map(raw));
        assert_eq!(own.pgrp, raw(rustix::process::getpgrp()));
        assert!(!own.zombie && own.start > 0);
        let mut child = Command::new("true").spawn().expect("true runs");
        let pid = i32::try_from(child.id()).expect("a pid");
        wait_for(|| stat(pid).filter(|p| p.zombie).map(drop));
        assert!(processes().expect("/proc").iter().any(|p| p.pid == pid));
        child.wait().expect("reaped");
        assert_eq!(stat(pid), None);
    }

    fn me() -> i32 {
        i32::try_from(std::process::id()).expect("a pid")
    }

    /// `found`'s answer, which must come within 10 s.
    fn wait_for<T>(mut found: impl FnMut() -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(found) = found() {
                return found;
            }
            assert!(Instant::now() < deadline, "not within 10 s");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Killed without waiting, then reaped (and counted) by [`kill_left_after`]: once a
    /// zombie, a process is not found by its marker any more.
    #[test]
    fn what_was_killed_without_waiting_is_reaped_after() {
        const VAR: &str = "MUR_PROCS_TEST_AFTER";
        let mine = marker();
        let mut ours = sleeping(VAR, Some(&mine));
        let pid = i32::try_from(ours.id()).expect("a pid");
        let killed = kill_marked(VAR, &mine);
        wait_for(|| stat(pid).filter(|p| p.zombie).map(drop));
        assert_eq!(kill_left(VAR, &mine, None), 0, "a zombie is not found");
        assert_eq!(kill_left_after(killed, VAR, &mine, None), 1);
        assert!(ours.try_wait().is_err(), "reaped");
    }
}
