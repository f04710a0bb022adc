//! Benchmark support shared by `mur-bench` and the `mur-floor` baseline client.

pub mod wire;
