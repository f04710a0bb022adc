//! Benchmark support shared by `mur-bench` and its std-only baseline clients
//! (`mur-floor`: one POST; `mur-contract-floor`: the lockfile contract, then one POST).

pub mod contract;
pub mod wire;
