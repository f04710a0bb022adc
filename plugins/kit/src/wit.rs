//! The thin glue between [`Verb`] and the generated WIT types, used by [`export_verb!`](crate::export_verb).

use crate::bindings::mur::verb::types as wit;
use crate::info::Waits;
use crate::verb::{self, Parsed, Verb};

/// The contents of the `mur:verb-name` section [`export_verb!`] emits: `name`'s
/// bytes as an array of their length (`N` must be `name.len()`).
#[doc(hidden)]
pub const fn name_section<const N: usize>(name: &str) -> [u8; N] {
    let mut bytes = [0; N];
    bytes.copy_from_slice(name.as_bytes());
    bytes
}

/// The length of the `mur:verb-waits` section of a verb that declares `waits`:
/// `ARGUMENT=MS`, empty for a tool that does not wait (which declares nothing).
#[doc(hidden)]
pub const fn waits_len(waits: Option<Waits>) -> usize {
    match waits {
        Some(waits) => {
            let (mut ms, mut digits) = (waits.default_ms, 1);
            while ms >= 10 {
                ms /= 10;
                digits += 1;
            }
            waits.argument.len() + 1 + digits
        }
        None => 0,
    }
}

/// The contents of the `mur:verb-waits` section [`export_verb!`] emits (`N` must be
/// [`waits_len`]`(waits)`): `timeoutMs=5000` for `waitFor`'s verb.
#[doc(hidden)]
pub const fn waits_section<const N: usize>(waits: Option<Waits>) -> [u8; N] {
    let mut bytes = [0; N];
    if let Some(waits) = waits {
        let argument = waits.argument.as_bytes();
        let mut at = 0;
        while at < argument.len() {
            bytes[at] = argument[at];
            at += 1;
        }
        bytes[at] = b'=';
        // The digits, last first, from the end.
        let (mut ms, mut at) = (waits.default_ms, N);
        loop {
            at -= 1;
            bytes[at] = b'0' + (ms % 10) as u8;
            ms /= 10;
            if ms == 0 {
                break;
            }
        }
    }
    bytes
}

/// The length of `pieces` joined ([`joined`]).
#[doc(hidden)]
pub const fn joined_len(pieces: &[&str]) -> usize {
    let (mut len, mut at) = (0, 0);
    while at < pieces.len() {
        len += pieces[at].len();
        at += 1;
    }
    len
}

/// `pieces` joined, as bytes (`N` must be [`joined_len`]`(pieces)`): a sentence of
/// [`info::refused`](crate::info::refused)'s, which [`export_verb!`] fails the build with.
#[doc(hidden)]
pub const fn joined<const N: usize>(pieces: &[&str]) -> [u8; N] {
    let (mut bytes, mut len, mut at) = ([0; N], 0, 0);
    while at < pieces.len() {
        let piece = pieces[at].as_bytes();
        let mut i = 0;
        while i < piece.len() {
            bytes[len] = piece[i];
            len += 1;
            i += 1;
        }
        at += 1;
    }
    bytes
}

pub fn parse<V: Verb>(argv: &[String]) -> Result<wit::Parsed, String> {
    Ok(match verb::parse::<V>(argv)? {
        Parsed::Help => wit::Parsed::Help,
        Parsed::Call(call) => wit::Parsed::Call(wit::CallRequest {
            arguments: call.arguments,
            timeout_ms: call.timeout_ms,
            writes: call.writes,
            state: call.state,
        }),
    })
}

pub fn shape<V: Verb>(
    result: &str,
    state: &str,
    options: wit::OutputOptions,
) -> Result<wit::Shaped, String> {
    let shaped = verb::shape::<V>(result, state, options.pretty)?;
    let files = shaped
        .files
        .into_iter()
        .map(|file| wit::FileWrite {
            path: file.path,
            contents: file.contents,
        })
        .collect();
    Ok(wit::Shaped {
        stdout: shaped.stdout,
        files,
        notes: shaped.notes,
    })
}
