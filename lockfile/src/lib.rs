//! The devtools session lockfile contract, defined once for the server that
//! writes lockfiles and the `mur` host that reads them (seed 000 §5–6); and, as the
//! shared base below mur-core, where the few helpers the server and the tools share
//! live (timestamps, atomic writes, private directories, a panic's text).
//!
//! - [`Lockfile`]: the schema, field for field.
//! - [`paths`]: where lockfiles live and how a project maps to a file name.
//! - [`Registry`]: writes to the lockfile directory, tolerant reads and scans of every
//!   one a reader searches; [`Leftovers`]: what ended sessions left there, and when it
//!   may go (`session clean`).
//! - [`write_atomic`], [`write_named`]: atomic writes, of mur's own files and of the
//!   files a user names ([`check_named`] before, [`is_stdout`] for `/dev/stdout`);
//!   [`write_entry`]: of a name mur made up beside one (`shot-2.png`), replaced, never
//!   written through.
//! - [`SlotLock`]: the advisory lock a session holds on its project's slot;
//!   [`handed`]: a descriptor handed to the program a process starts (the slot's lock,
//!   a reloading session's listening socket).
//! - [`liveness`]: whether the process behind a lockfile is really serving.
//! - [`endpoint`]: which endpoints may be contacted at all (loopback only).
//! - [`jsonrpc`]: JSON-RPC's error codes and the messages mur and its sessions build.
//! - [`check_own`]: the one rule for a file or directory trusted as the user's own (no
//!   link, their own, [`Keep`] others out); [`ensure_private_dir`]: mur's private
//!   directories, made 0700 and checked by it; [`open_regular`]: a file opened only if
//!   it is a regular one, without blocking.
//! - [`now_rfc3339`], [`rfc3339_millis`]: every timestamp mur and its sessions write.
//! - [`panic_message`]: what a caught panic said, for the error it becomes.

mod atomic;
mod batch;
pub mod endpoint;
#[cfg(unix)]
pub mod handed;
pub mod jsonrpc;
mod leftovers;
pub mod liveness;
mod open;
mod panic;
pub mod paths;
mod registry;
mod schema;
mod slot;
mod stamp;
mod trust;

pub use atomic::{
    check_named, is_stdout, is_stream, sync_dir, write_atomic, write_entry, write_named,
};
pub use leftovers::{Cleared, Leftovers, Unremoved};
pub use open::{describe_type as describe_file_type, regular as open_regular};
pub use panic::panic_message;
pub use registry::{Entry, ReadOutcome, Registry, Unlisted, files_with_extension};
pub use schema::{LOCKFILE_SCHEMA, Lockfile, PROBE_SCHEMA, Transport};
pub use slot::{BrokenSlot, SlotLock, is_handed as slot_is_handed, is_held, lock_path};
pub use stamp::{now_rfc3339, now_rfc3339_millis, rfc3339_millis};
pub use trust::{Keep, Untrusted, check_own, current_uid, ensure_private_dir};
