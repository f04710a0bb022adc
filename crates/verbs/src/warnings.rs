//! Warnings the verb runtime has for the user (a cache entry it cannot
//! repair), kept until the binary takes them: the library never prints.

use std::sync::Mutex;

static PENDING: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Keeps a warning for the binary to show.
pub(crate) fn push(message: String) {
    if let Ok(mut pending) = PENDING.lock() {
        pending.push(message);
    }
}

/// Every warning since the last call, oldest first.
pub fn take() -> Vec<String> {
    PENDING
        .lock()
        .map(|mut pending| std::mem::take(&mut *pending))
        .unwrap_or_default()
}
