//! Benchmark support shared by `mur-bench` and its std-only baseline clients
//! (`mur-floor`: one POST; `mur-contract-floor`: the lockfile contract, then one POST;
//! `mur-stack-floor`: the probe and the POST through tokio + hyper alone, mur's own HTTP
//! or a reqwest client).

pub mod contract;
pub mod wire;
