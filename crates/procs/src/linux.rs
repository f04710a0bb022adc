//! Finding, killing and reaping what carries a marker (Linux: `/proc`, a subreaper).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitOptions, kill_process, waitpid};

use crate::stat::{Stat, processes};

/// How long the killing may take: a process that forks as fast as it is killed is
/// given up on after this.
const KILL_WAIT: Duration = Duration::from_secs(2);
const POLL: Duration = Duration::from_millis(5);

/// Which entry of a process's environment (`VAR=value`) marks it as one to kill.
type Marked<'a> = &'a dyn Fn(&[u8]) -> bool;

/// Every process, by pid.
fn table() -> BTreeMap<i32, Stat> {
    processes()
        .unwrap_or_default()
        .into_iter()
        .map(|p| (p.pid, p))
        .collect()
}

/// [`crate::kill_left_after`]: `before`, what was killed already.
pub(crate) fn kill_left(is_ours: Marked<'_>, group: Option<i32>, before: Vec<Stat>) -> usize {
    let deadline = Instant::now() + KILL_WAIT;
    let mut killed: BTreeMap<i32, u64> = BTreeMap::new();
    let mut outside = BTreeSet::new();
    let mut count = |p: &Stat, killed: &mut BTreeMap<i32, u64>| {
        killed.insert(p.pid, p.start);
        if group != Some(p.pgrp) {
            outside.insert((p.pid, p.start));
        }
    };
    for p in &before {
        count(p, &mut killed);
    }
    loop {
        let table = table();
        let found = marked(&table, is_ours);
        for p in &found {
            kill(p.pid);
            count(p, &mut killed);
        }
        let waiting = reap(&table, &mut killed, group);
        if (found.is_empty() && !waiting) || Instant::now() >= deadline {
            return outside.len();
        }
        std::thread::sleep(POLL);
    }
}

/// [`crate::kill_marked`]: SIGKILL to the live marked descendants, which it returns.
pub(crate) fn kill_now(is_ours: Marked<'_>) -> Vec<Stat> {
    let found = marked(&table(), is_ours);
    for p in &found {
        kill(p.pid);
    }
    found
}

/// [`crate::reap_group`] of `group` but its process `owned`.
pub(crate) fn reap_but(group: Pid, owned: i32) {
    use rustix::process::{WaitId, WaitIdOptions, waitid};
    // One system call says whether the group has a zombie child of ours at all (left
    // waitable); `/proc` is read only when it has.
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    if !matches!(waitid(WaitId::Pgid(Some(group)), options), Ok(Some(_))) {
        return;
    }
    let (me, group) = (me(), group.as_raw_nonzero().get());
    for p in table().values() {
        if p.zombie && p.ppid == me && p.pgrp == group && p.pid != owned {
            // Our zombie child, which no `Child` owns: its pid stays taken until we
            // reap it, so it is this one.
            reap_one(p.pid);
        }
    }
}

fn kill(pid: i32) {
    if let Some(pid) = Pid::from_raw(pid) {
        let _ = kill_process(pid, Signal::KILL);
    }
}

fn reap_one(pid: i32) {
    if let Some(pid) = Pid::from_raw(pid) {
        let _ = waitpid(Some(pid), WaitOptions::NOHANG);
    }
}

/// The live descendants of this process whose environment has an entry `is_ours`
/// (a zombie's environment cannot be read, and it needs no kill).
fn marked(table: &BTreeMap<i32, Stat>, is_ours: Marked<'_>) -> Vec<Stat> {
    let me = me();
    table
        .values()
        .filter(|p| !p.zombie && p.pid != me && descends(table, p.pid, me))
        .filter(|p| {
            std::fs::read(format!("/proc/{}/environ", p.pid))
                .is_ok_and(|env| env.split(|&b| b == 0).any(is_ours))
        })
        .copied()
        .collect()
}

/// Whether `ancestor` is an ancestor of `pid` in `table`.
fn descends(table: &BTreeMap<i32, Stat>, mut pid: i32, ancestor: i32) -> bool {
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
fn reap(table: &BTreeMap<i32, Stat>, killed: &mut BTreeMap<i32, u64>, group: Option<i32>) -> bool {
    let me = me();
    let zombies: Vec<i32> = table
        .values()
        .filter(|p| {
            p.zombie
                && p.ppid == me
                && (killed.get(&p.pid) == Some(&p.start) || group == Some(p.pgrp))
        })
        .map(|p| p.pid)
        .collect();
    for pid in zombies {
        reap_one(pid);
        killed.remove(&pid);
    }
    killed.retain(|pid, start| table.get(pid).is_some_and(|p| p.start == *start));
    !killed.is_empty()
}

/// This process's pid, as `/proc` gives pids.
fn me() -> i32 {
    i32::try_from(std::process::id()).unwrap_or(i32::MAX)
}
