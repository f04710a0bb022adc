//! `mur-e2e`: real `mur` against real `mur-sample` processes and third-party servers. The
//! harness is the workspace's one test kit, `mur-testkit`, re-exported whole, so the tests
//! (and any new one) say `mur_e2e::{Sandbox, Sample, Stub, …}`.

pub use mur_testkit::*;
