//! The open connections, which of them have a request in flight, and room for a
//! new one at the cap: the connection idle the longest is evicted.
//!
//! Written here because no crate does this: tower's `ConcurrencyLimit` and
//! hyper-util count requests or refuse new connections at a cap, which would let a
//! flood of idle connections lock a real client out.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, MutexGuard, PoisonError},
    time::Instant,
};

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// Every open connection, shared by the accept loop and the connections' requests.
pub(crate) struct Connections {
    registry: Mutex<Registry>,
    /// Signalled when a connection closes or its last request ends.
    room: Notify,
    cap: usize,
}

#[derive(Default)]
struct Registry {
    next_id: u64,
    open: HashMap<u64, Entry>,
}

struct Entry {
    /// Requests of this connection being handled (their body is in).
    busy: usize,
    /// When `busy` last dropped to 0 (or the connection was accepted).
    idle_since: Instant,
    evict: CancellationToken,
}

impl Connections {
    pub(crate) fn new(cap: usize) -> Arc<Self> {
        Arc::new(Self {
            registry: Mutex::default(),
            room: Notify::new(),
            cap: cap.max(1),
        })
    }

    fn registry(&self) -> MutexGuard<'_, Registry> {
        // The registry stays consistent even if a holder panicked: every update is one step.
        self.registry.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a just-accepted connection. At the cap, evicts the connection idle
    /// the longest; when every connection has a request in flight, waits until one
    /// closes or finishes its request.
    pub(crate) async fn admit(self: &Arc<Self>) -> Admission {
        loop {
            let room = self.room.notified();
            let mut room = std::pin::pin!(room);
            // Registered before looking, so a wake-up between the look and the wait is not lost.
            room.as_mut().enable();
            if let Some(admission) = self.try_admit() {
                return admission;
            }
            room.await;
        }
    }

    fn try_admit(self: &Arc<Self>) -> Option<Admission> {
        let mut registry = self.registry();
        if registry.open.len() >= self.cap {
            let victim = registry.longest_idle()?;
            tracing::debug!("{} connections open: closing an idle one", self.cap);
            registry.evict(victim);
        }
        Some(self.register(registry))
    }

    /// Registers a just-accepted connection at once, past the cap if need be: the
    /// session is stopping, and the connection is served only for the drain.
    pub(crate) fn admit_over_cap(self: &Arc<Self>) -> Admission {
        self.register(self.registry())
    }

    fn register(self: &Arc<Self>, mut registry: MutexGuard<'_, Registry>) -> Admission {
        let id = registry.next_id;
        registry.next_id += 1;
        let evicted = CancellationToken::new();
        registry.open.insert(
            id,
            Entry {
                busy: 0,
                idle_since: Instant::now(),
                evict: evicted.clone(),
            },
        );
        Admission {
            connection: Connection {
                id,
                connections: Arc::clone(self),
            },
            evicted,
        }
    }

    /// Closes the connection idle the longest, if any: used when the process is out
    /// of file descriptors. Returns whether one was closed.
    pub(crate) fn evict_one_idle(&self) -> bool {
        let mut registry = self.registry();
        match registry.longest_idle() {
            Some(victim) => {
                registry.evict(victim);
                true
            }
            None => false,
        }
    }
}

impl Registry {
    fn longest_idle(&self) -> Option<u64> {
        self.open
            .iter()
            .filter(|(_, entry)| entry.busy == 0)
            .min_by_key(|(id, entry)| (entry.idle_since, **id))
            .map(|(id, _)| *id)
    }

    /// Forgets the connection at once (its slot is free) and tells its task to drop it.
    fn evict(&mut self, id: u64) {
        if let Some(entry) = self.open.remove(&id) {
            entry.evict.cancel();
        }
    }
}

/// A connection's slot, held by its task; dropping it frees the slot.
pub(crate) struct Admission {
    connection: Connection,
    evicted: CancellationToken,
}

impl Admission {
    /// Cancelled when the connection was evicted: its task drops it (closing the socket).
    pub(crate) fn evicted(&self) -> CancellationToken {
        self.evicted.clone()
    }

    /// The handle each of this connection's requests carries in its extensions.
    pub(crate) fn connection(&self) -> Connection {
        self.connection.clone()
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        let connections = &self.connection.connections;
        connections.registry().open.remove(&self.connection.id);
        connections.room.notify_one();
    }
}

/// Which connection a request came in on (a request extension).
#[derive(Clone)]
pub(crate) struct Connection {
    id: u64,
    connections: Arc<Connections>,
}

impl Connection {
    /// Marks a request in flight: its connection is not evicted until the guard
    /// is dropped (when the response has been written).
    pub(crate) fn busy(&self) -> Busy {
        if let Some(entry) = self.connections.registry().open.get_mut(&self.id) {
            entry.busy += 1;
        }
        Busy(self.clone())
    }
}

/// A request in flight on a connection; see [`Connection::busy`].
pub(crate) struct Busy(Connection);

impl Drop for Busy {
    fn drop(&mut self) {
        let Connection { id, connections } = &self.0;
        let mut registry = connections.registry();
        if let Some(entry) = registry.open.get_mut(id) {
            entry.busy = entry.busy.saturating_sub(1);
            if entry.busy == 0 {
                entry.idle_since = Instant::now();
                drop(registry);
                connections.room.notify_one();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn at_the_cap_the_longest_idle_connection_is_evicted() {
        let connections = Connections::new(2);
        let first = connections.admit().await;
        let second = connections.admit().await;
        let _busy = first.connection().busy();
        let third = connections.admit().await;
        assert!(!first.evicted().is_cancelled(), "a busy connection stays");
        assert!(second.evicted().is_cancelled(), "the idle one makes room");
        assert!(!third.evicted().is_cancelled());
    }

    #[tokio::test]
    async fn when_every_connection_is_busy_a_new_one_waits_for_a_slot() {
        let connections = Connections::new(1);
        let only = connections.admit().await;
        let busy = only.connection().busy();
        let waiting = tokio::spawn({
            let connections = Arc::clone(&connections);
            async move { connections.admit().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        drop(busy);
        let admitted = waiting.await.expect("admit task");
        assert!(only.evicted().is_cancelled(), "idle again, so evicted");
        assert!(!admitted.evicted().is_cancelled());
    }
}
