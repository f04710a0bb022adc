//! What every part of `mur` shares: the one error model ([`Error`], whose
//! [`Kind`] alone decides the exit code), the validated [`settings`] a
//! command line becomes, and the one duration syntax its options take
//! ([`parse_duration`]).

mod duration;
mod error;
pub mod settings;

pub use duration::parse_duration;
pub use error::{EXIT_CODES, Error, Kind, Result};
pub use settings::Settings;
