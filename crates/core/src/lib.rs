//! What every part of `mur` shares: the one error model ([`Error`], whose
//! [`Kind`] alone decides the exit code), the validated [`settings`] a
//! command line becomes, the one duration syntax its options take
//! ([`parse_duration`]), and the words its messages suggest: the one "did you
//! mean" rule ([`nearest`]), a word as a shell reads it back ([`shell_word`]) and
//! an option typed with an empty value ([`given_empty`]);
//! others' text made safe to show a person ([`text`]); and a digest as it is
//! written down ([`sha256_hex`]).

mod digest;
mod duration;
mod error;
pub mod settings;
pub mod text;
mod words;

pub use digest::{hex, sha256_hex};
pub use duration::{parse_duration, parse_window};
pub use error::{EXIT_CODES, Error, Kind, ListedSession, Result, SessionChoice};
pub use settings::Settings;
pub use words::{
    caseless_meant, caseless_slip, choice_meant, given_empty, given_empty_of, is_slip, is_typo_of,
    nearest, option_meant, shell_name, shell_word, until_end_of_options,
};
