//! Embeddable devtools session server.
pub mod tools;
pub use tools::*;
