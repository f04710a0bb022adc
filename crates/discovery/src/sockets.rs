//! Who listens where: the kernel's TCP socket table, read for the listeners on
//! loopback (or on every address) and the user owning each.

/// A TCP listener on loopback or on every address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Listener {
    pub port: u16,
    pub uid: u32,
}

/// The listeners on loopback or every address; `None` when the socket table
/// cannot be read (not Linux, no `/proc`).
#[cfg(target_os = "linux")]
pub(crate) fn listeners() -> Option<Vec<Listener>> {
    let mut entries = procfs::net::tcp().ok()?;
    entries.extend(procfs::net::tcp6().unwrap_or_default());
    Some(
        entries
            .into_iter()
            .filter(|entry| entry.state == procfs::net::TcpState::Listen)
            .filter(|entry| {
                let ip = entry.local_address.ip();
                ip.is_loopback() || ip.is_unspecified()
            })
            .map(|entry| Listener {
                port: entry.local_address.port(),
                uid: entry.uid,
            })
            .collect(),
    )
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn listeners() -> Option<Vec<Listener>> {
    None
}

/// The user this process runs as, as the socket table names owners.
#[cfg(target_os = "linux")]
pub(crate) fn my_uid() -> Option<u32> {
    let meta = std::fs::metadata("/proc/self").ok()?;
    Some(std::os::unix::fs::MetadataExt::uid(&meta))
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn my_uid() -> Option<u32> {
    None
}

/// The user other than this one that holds the listener on loopback `port`, if
/// one does. A lockfile and its sidecar are the user's own, but the port they
/// name is only a number: a session that died and a port another user bound
/// since (or a lockfile naming a port its process never held) would take a
/// bridge's secret to a stranger. `None` also when the table cannot be read.
pub(crate) fn other_owner(port: u16) -> Option<u32> {
    let me = my_uid()?;
    listeners()?
        .into_iter()
        .find(|listener| listener.port == port && listener.uid != me)
        .map(|listener| listener.uid)
}
