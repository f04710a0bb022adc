//! The one reader of `/proc/<pid>/stat`.

/// One process as `/proc/<pid>/stat` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    pub pid: i32,
    pub ppid: i32,
    /// Its process group.
    pub pgrp: i32,
    /// Its process session.
    pub session: i32,
    /// When it started, in clock ticks after boot: with the pid, what tells it from a
    /// process given the same pid later.
    pub start: u64,
    /// Exited and not yet reaped by its parent.
    pub zombie: bool,
}

/// Process `pid` as `/proc/<pid>/stat` says (a zombie's too: its pid is still taken);
/// `None` when it is gone, or without `/proc`.
pub fn stat(pid: i32) -> Option<Stat> {
    #[cfg(target_os = "linux")]
    {
        use procfs::FromRead as _;
        let bytes = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
        let stat = procfs::process::Stat::from_read(bytes.as_slice()).ok()?;
        Some(Stat {
            pid: stat.pid,
            ppid: stat.ppid,
            pgrp: stat.pgrp,
            session: stat.session,
            start: stat.starttime,
            zombie: stat.state == 'Z',
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pid;
        None
    }
}

/// Every process `/proc` lists (those whose `stat` can be read); `None` without `/proc`.
pub fn processes() -> Option<Vec<Stat>> {
    #[cfg(target_os = "linux")]
    {
        let entries = std::fs::read_dir("/proc").ok()?;
        Some(
            entries
                .flatten()
                .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
                .filter_map(stat)
                .collect(),
        )
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Whether no process of `group` is running: each one left, if any, has exited and waits
/// to be reaped (it holds nothing). `false` without `/proc`.
pub fn only_exited(group: i32) -> bool {
    processes().is_some_and(|all| !all.iter().any(|p| p.pgrp == group && !p.zombie))
}
