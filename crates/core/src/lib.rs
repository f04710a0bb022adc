//! What every part of `mur` shares: the one error model ([`Error`], whose
//! [`Kind`] alone decides the exit code), the validated [`settings`] a
//! command line becomes, the one duration syntax its options take
//! ([`parse_duration`]), and the one "did you mean" rule ([`nearest`]).

mod duration;
mod error;
mod nearest;
pub mod settings;

pub use duration::parse_duration;
pub use error::{EXIT_CODES, Error, Kind, Result};
pub use nearest::nearest;
pub use settings::Settings;
