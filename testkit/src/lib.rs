//! `mur-testkit`: the one harness of the end-to-end, server, sample and benchmark runs.
//!
//! - [`artifacts`]: `mur`, `mur-sample` and the server's example built by one
//!   `cargo build` per process, their paths as cargo reports them;
//!   [`plugins`]: the standard verbs and the test guests, built once per process.
//! - [`Sandbox`]: private lockfile, data, cache and home directories and a cleared
//!   environment for every process started in it; [`Sandbox::start_sample`] (or
//!   [`Sandbox::start_session`]) starts a session and waits until its lockfile
//!   names it.
//! - [`Process`]: every child is killed and reaped on drop, also on panic; its pipes
//!   are drained while it runs; one watchdog bounds every wait, failing the test
//!   that would otherwise hang.
//! - [`stub`]: tiny loopback HTTP servers for what a real session cannot play;
//!   [`mcp`]: MCP requests written out by hand.
//! - [`values`]: reading the JSON and text that tools and `mur` print, and the files
//!   they leave, for assertions.
//! - [`logs`]: a unit test's own `tracing` subscriber, none of its lines lost to
//!   another thread ([`log_on_this_thread`]).

pub mod artifacts;
pub mod logs;
pub mod mcp;
pub mod plugins;
pub mod process;
pub mod sandbox;
pub mod stub;
pub mod values;

pub use artifacts::{
    Artifacts, artifacts, build, cargo_build, example_bin, mur_bin, one_process_at_a_time,
    sample_bin,
};
pub use logs::{Logging, log_on_this_thread};
pub use process::{
    Adopted, BUILD_LIMIT, Output, PATIENCE, Process, RUN_LIMIT, dead_pid, exit_with_stderr_gone,
    free_port, mkfifo, refusing_port, run, run_ok, run_within, signal, silent_block,
    silent_listener, wait_until, wait_until_within,
};
pub use sandbox::{
    Sample, Sandbox, Session, Successors, Withdrawn, another_session_line, session_rows,
    several_sessions_error,
};
pub use stub::Stub;
pub use values::{Captured, after_stop_time, each_str, fields, names_in, text_x, usage_records};
