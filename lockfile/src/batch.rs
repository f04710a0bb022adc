//! One file operation over many lockfiles, on a few threads once there are many.
//!
//! A directory of a thousand stale lockfiles is read, and then cleaned, file by file.
//! Each file costs a handful of system calls, and on a journalled disk each removal
//! blocks for ~0.1 ms (docs/performance.md, "1,000 stale lockfiles"); the calls of
//! different files are independent, so threads overlap both the waits and the kernel
//! work. A few files stay on the calling thread: a thread costs more than they do.

/// Up to this many items are done on the calling thread.
const SERIAL_MAX: usize = 32;

/// How many threads share a larger batch. Measured on 1,000 stale files on a
/// 2-core machine: 4, 8 and 16 workers took 72.7, 53.5 and 54.9 ms (`session list`,
/// ext4); past eight the waits no longer shrink.
const WORKERS: usize = 8;

/// `f` of each item, in the items' order.
pub(crate) fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.len() <= SERIAL_MAX {
        return items.iter().map(f).collect();
    }
    let f = &f;
    let chunk = items.len().div_ceil(WORKERS);
    std::thread::scope(|scope| {
        let workers: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(f).collect::<Vec<R>>()))
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

    #[test]
    fn every_item_is_mapped_once_in_order_below_and_above_the_serial_bound() {
        for len in [0, 1, SERIAL_MAX, SERIAL_MAX + 1, 100, 1000] {
            let items: Vec<usize> = (0..len).collect();
            let threads = std::sync::Mutex::new(std::collections::HashSet::new());
            let doubled = map(&items, |&i| {
                threads
                    .lock()
                    .expect("lock")
                    .insert(std::thread::current().id());
                i * 2
            });
            assert_eq!(doubled, items.iter().map(|i| i * 2).collect::<Vec<_>>());
            let threads = threads.into_inner().expect("lock").len();
            assert_eq!(
                threads > 1,
                len > SERIAL_MAX,
                "{len} items ran on {threads} threads"
            );
        }
    }
}
