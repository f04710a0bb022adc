//! The end-to-end tests: real `mur` against real `mur-sample` processes and
//! third-party servers, one module per area, in one test binary (one link
//! instead of one per file). Run one area with `cargo test -p mur-e2e --test e2e
//! host_call::`.
//!
//! The tests of all modules run in parallel in this one process: every test
//! works in its own `Sandbox` (its own directories, a cleared environment for
//! its children), and none changes process-wide state (environment variables,
//! the current directory).

mod bridge_proxy;
mod bridge_start;
mod bridge_stdio;
mod conformance;
mod conformance_client;
mod conformance_expected;
mod eval;
mod eval_study;
mod guide_conventions;
mod guide_examples;
mod guide_server;
mod host_call;
mod host_cli;
mod host_discovery;
mod host_progress;
mod host_session;
mod hostile_server;
mod interop_derived;
mod interop_everything;
mod interop_python;
mod layering;
/// The pinned Node toolchain of the conformance and interop runs.
#[path = "../../conformance/node.rs"]
mod node;
mod oauth_client;
mod proxy_asking;
mod sandbox;
mod scaffold;
mod scaffold_js;
mod scaffold_python;
mod servers;
mod tasks;
mod tour;
mod transcripts;
mod usage;
mod verbs_cache;
mod verbs_derived;
mod verbs_guests;
mod verbs_hostile;
mod verbs_interface;
mod verbs_js;
mod verbs_manage;
mod verbs_names;
mod verbs_runtime;
mod verbs_standard;
mod verbs_standard_interact;
mod verbs_standard_usage;
mod verbs_wait_bound;
