//! Who listens where: the kernel's TCP socket table, read for the listeners on
//! loopback (or on every address) and the user owning each.

use std::net::IpAddr;

/// A TCP listener on loopback or on every address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Listener {
    /// Its address, canonical: an IPv4-mapped IPv6 one (`::ffff:127.0.0.1`, which
    /// takes connections to 127.0.0.1) as the IPv4 address it stands for.
    pub ip: IpAddr,
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
            .map(|entry| Listener {
                ip: entry.local_address.ip().to_canonical(),
                port: entry.local_address.port(),
                uid: entry.uid,
            })
            .filter(|listener| listener.ip.is_loopback() || listener.ip.is_unspecified())
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
    Some(mur_lockfile::current_uid())
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn my_uid() -> Option<u32> {
    None
}

/// The user other than this one that holds a listener a connection to one of `ips`
/// (none: any address) on `port` would reach, if one does. A lockfile and its sidecar are the user's own, but the
/// port they name is only a number: a session that died and a port another user
/// bound since (or a lockfile naming a port its process never held) would take a
/// bridge's secret to a stranger. Only a listener on that address (canonical: one
/// bound as `::ffff:127.0.0.1` takes 127.0.0.1's connections) or on every address
/// counts: another user's on `[::1]` or 127.0.0.2 beside the user's bridge receives
/// none of its connections, and must not lock the user out of it. `None` also when
/// the table cannot be read.
pub(crate) fn other_owner(ips: &[IpAddr], port: u16) -> Option<u32> {
    let me = my_uid()?;
    let ips: Vec<IpAddr> = ips.iter().map(IpAddr::to_canonical).collect();
    owner_among(&listeners()?, &ips, port, me)
}

fn owner_among(listeners: &[Listener], ips: &[IpAddr], port: u16, me: u32) -> Option<u32> {
    listeners
        .iter()
        .filter(|listener| listener.port == port && listener.uid != me)
        .find(|listener| {
            ips.is_empty() || ips.contains(&listener.ip) || listener.ip.is_unspecified()
        })
        .map(|listener| listener.uid)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Another user's listener counts where a connection to the endpoint would go:
    /// the endpoint's own address (however it was bound) or every address.
    #[test]
    fn only_a_listener_the_connection_reaches_counts() {
        let at = |ip: &str, uid| Listener {
            ip: ip.parse::<IpAddr>().expect("ip").to_canonical(),
            port: 4000,
            uid,
        };
        let home: IpAddr = "127.0.0.1".parse().expect("ip");
        let owner = |listeners: &[Listener]| owner_among(listeners, &[home], 4000, 1000);
        assert_eq!(owner(&[at("127.0.0.1", 1000)]), None, "the user's own");
        assert_eq!(owner(&[at("127.0.0.1", 7)]), Some(7));
        assert_eq!(
            owner(&[at("::ffff:127.0.0.1", 7)]),
            Some(7),
            "bound the IPv6 way"
        );
        assert_eq!(owner(&[at("0.0.0.0", 7)]), Some(7));
        assert_eq!(owner(&[at("::", 7)]), Some(7));
        assert_eq!(
            owner(&[at("::1", 7), at("127.0.0.2", 8)]),
            None,
            "beside, not in the way"
        );
        let other_port = Listener {
            port: 4001,
            ..at("127.0.0.1", 7)
        };
        assert_eq!(owner(&[other_port]), None);
        // A host no address was read from: any listener on the port counts.
        assert_eq!(owner_among(&[at("127.0.0.2", 8)], &[], 4000, 1000), Some(8));
    }
}
