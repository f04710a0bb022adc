//! `tracing`'s events caught by a test, none lost to another thread.

/// `subscriber` as this thread's own until the guard is dropped, so a test reads back
/// what it logged — the lines of library code that other tests' threads run too.
///
/// `tracing` caches at each callsite whether its events are wanted. While one subscriber
/// exists it asks only the thread that reaches the callsite first, so a line another
/// test's thread (with no subscriber of its own) writes first is wanted by no one, for
/// good, and the test that catches it loses it. A second subscriber kept alive beside it
/// makes `tracing` ask each one, and each thread's own decides.
pub fn log_on_this_thread<S>(subscriber: S) -> Logging
where
    S: tracing::Subscriber + Send + Sync + 'static,
{
    let subscriber = tracing::Dispatch::new(subscriber);
    let second = tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default());
    Logging {
        _default: tracing::dispatcher::set_default(&subscriber),
        _second: second,
    }
}

/// The subscriber [`log_on_this_thread`] set, this thread's until dropped.
#[must_use = "the subscriber is this thread's only while this lives"]
pub struct Logging {
    _default: tracing::dispatcher::DefaultGuard,
    _second: tracing::Dispatch,
}
