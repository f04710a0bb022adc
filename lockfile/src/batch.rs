//! One file operation over many lockfiles, on a few threads once there are many.
//!
//! A directory of a thousand stale lockfiles is read, and then cleaned, file by file.
//! Each file costs a handful of system calls, and on a journalled disk each removal
//! blocks for ~0.1 ms (docs/performance.md, "1,000 stale lockfiles"); the calls of
//! different files are independent, so threads overlap both the waits and the kernel
//! work. A few files stay on the calling thread: a thread costs more than they do.

use std::time::Instant;

/// Up to this many items are done on the calling thread.
const SERIAL_MAX: usize = 32;

/// How many threads share a larger batch. Measured on 1,000 stale files on a
/// 2-core machine: 4, 8 and 16 workers took 72.7, 53.5 and 54.9 ms (`session list`,
/// ext4); past eight the waits no longer shrink.
const WORKERS: usize = 8;

/// `f` of each item, in the items' order; but an item whose turn comes at or after
/// `deadline` is not done (`None`): a reader bounded by `--timeout` leaves the rest for
/// later.
pub(crate) fn map_until<T: Sync, R: Send>(
    items: &[T],
    deadline: Option<Instant>,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let f = |item: &T| {
        deadline
            .is_none_or(|deadline| Instant::now() < deadline)
            .then(|| f(item))
    };
    if items.len() <= SERIAL_MAX {
        return items.iter().map(f).collect();
    }
    let f = &f;
    let chunk = items.len().div_ceil(WORKERS);
    std::thread::scope(|scope| {
        let workers: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(f).collect::<Vec<Option<R>>>()))
            .collect();
        workers
            .into_iter()
            // A panic on a worker is one the calling thread would have had: pass it on.
            .flat_map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p))
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the deadline no item is begun, on the calling thread or on the workers; an
    /// item begun before it is done.
    #[test]
    fn past_the_deadline_the_items_left_are_not_done() {
        for len in [SERIAL_MAX, 1000] {
            let items: Vec<usize> = (0..len).collect();
            let past = Instant::now();
            assert!(
                map_until(&items, Some(past), |i| *i)
                    .iter()
                    .all(Option::is_none)
            );
            let later = Instant::now() + std::time::Duration::from_secs(60);
            let done = map_until(&items, Some(later), |i| *i);
            assert_eq!(done, items.iter().map(|i| Some(*i)).collect::<Vec<_>>());
        }
        // One slow item on the calling thread: those after it are left.
        let deadline = Instant::now() + std::time::Duration::from_millis(50);
        let done = map_until(&[0, 1, 2], Some(deadline), |i| {
            if *i == 0 {
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            *i
        });
        assert_eq!(done, [Some(0), None, None]);
    }

    #[test]
    fn every_item_is_mapped_once_in_order_below_and_above_the_serial_bound() {
        for len in [0, 1, SERIAL_MAX, SERIAL_MAX + 1, 100, 1000] {
            let items: Vec<usize> = (0..len).collect();
            let threads = std::sync::Mutex::new(std::collections::HashSet::new());
            let doubled = map_until(&items, None, |&i| {
                threads
                    .lock()
                    .expect("lock")
                    .insert(std::thread::current().id());
                i * 2
            });
            assert_eq!(
                doubled,
                items.iter().map(|i| Some(i * 2)).collect::<Vec<_>>()
            );
            let threads = threads.into_inner().expect("lock").len();
            assert_eq!(
                threads > 1,
                len > SERIAL_MAX,
                "{len} items ran on {threads} threads"
            );
        }
    }
}
