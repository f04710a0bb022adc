//! What every part of `mur` shares: the one error model ([`Error`], whose
//! [`Kind`] alone decides the exit code) and the validated [`settings`] a
//! command line becomes.

mod error;
pub mod settings;

pub use error::{Error, Kind, Result};
pub use settings::Settings;
