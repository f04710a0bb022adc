//! Benchmark support shared by `mur-bench` and its baseline clients: the std-only
//! `mur-floor` (one POST), `mur-contract-floor` (the lockfile contract, then one POST) and
//! `mur-stdio-once` (a stdio server started, initialized and called once), and
//! `mur-stack-floor` (the probe and the POST through tokio + hyper alone, mur's own HTTP or a
//! reqwest client).

pub mod contract;
pub mod wire;
