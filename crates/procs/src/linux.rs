//! Finding, killing and reaping what carries a marker, and reaping what was adopted
//! (Linux: `/proc`, a subreaper).

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, WaitOptions, kill_process, waitpid};

use crate::stat::{Stat, processes, stat};

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

/// [`crate::reap_adopted`], of the zombies whose pid `among` names (all of them but in
/// tests, which share this process with others' children).
pub(crate) fn reap_adopted(among: &dyn Fn(i32) -> bool) -> usize {
    use rustix::process::{WaitId, WaitIdOptions, getpgrp, waitid};
    // One system call says whether this process has a zombie child at all (left
    // waitable: NOWAIT takes no status); `/proc` is read only when it has.
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    if !matches!(waitid(WaitId::All, options), Ok(Some(_))) {
        return 0;
    }
    let (me, own_group) = (me(), getpgrp().as_raw_nonzero().get());
    // Held from the look at `/proc` to the last `waitpid`: what is read as no `Child`'s
    // stays so meanwhile (`crate::own`).
    let owned = crate::own::lock();
    let mut reaped = 0;
    for p in processes().unwrap_or_default() {
        // Our zombie child, no `Child`'s: listed by none, and out of our own group, where
        // every child std spawns unlisted stays. Its pid stays taken until we reap it, so
        // the `waitpid` is of this very process.
        let adopted = p.zombie && p.ppid == me && p.pgrp != own_group;
        if adopted && !owned.contains(&p.pid) && among(p.pid) && reap_one(p.pid) {
            reaped += 1;
        }
    }
    reaped
}

fn kill(pid: i32) {
    if let Some(pid) = Pid::from_raw(pid) {
        let _ = kill_process(pid, Signal::KILL);
    }
}

/// Reaps `pid` if it is a zombie child of this process: whether it did.
fn reap_one(pid: i32) -> bool {
    Pid::from_raw(pid)
        .is_some_and(|pid| matches!(waitpid(Some(pid), WaitOptions::NOHANG), Ok(Some(_))))
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
/// never a pid reused since) and in `group`, but a listed one (`crate::own`: a `Child`'s,
/// its owner's to reap); forgets those gone. Whether some killed process still is to be
/// waited for (dying, or a zombie of a parent dying too).
fn reap(table: &BTreeMap<i32, Stat>, killed: &mut BTreeMap<i32, u64>, group: Option<i32>) -> bool {
    let me = me();
    let ours = |p: &Stat, killed: &BTreeMap<i32, u64>| {
        p.zombie && p.ppid == me && (killed.get(&p.pid) == Some(&p.start) || group == Some(p.pgrp))
    };
    let zombies: Vec<i32> = table
        .values()
        .filter(|p| ours(p, killed))
        .map(|p| p.pid)
        .collect();
    if !zombies.is_empty() {
        let owned = crate::own::lock();
        for pid in zombies {
            // Read again under the lock: `table` may be older than a reaping elsewhere in
            // this process and a spawn given the pid since.
            if !owned.contains(&pid) && stat(pid).is_some_and(|p| ours(&p, killed)) {
                reap_one(pid);
            }
            killed.remove(&pid);
        }
    }
    killed.retain(|pid, start| table.get(pid).is_some_and(|p| p.start == *start));
    !killed.is_empty()
}

/// This process's pid, as `/proc` gives pids.
fn me() -> i32 {
    i32::try_from(std::process::id()).unwrap_or(i32::MAX)
}
