//! The thin glue between [`Verb`] and the generated WIT types, used by [`export_verb!`](crate::export_verb).

use crate::bindings::mur::verb::types as wit;
use crate::verb::{self, Parsed, Verb};

/// The contents of the `mur:verb-name` section [`export_verb!`] emits: `name`'s
/// bytes as an array of their length (`N` must be `name.len()`).
#[doc(hidden)]
pub const fn name_section<const N: usize>(name: &str) -> [u8; N] {
    let mut bytes = [0; N];
    bytes.copy_from_slice(name.as_bytes());
    bytes
}

pub fn parse<V: Verb>(argv: &[String]) -> Result<wit::Parsed, String> {
    Ok(match verb::parse::<V>(argv)? {
        Parsed::Help => wit::Parsed::Help,
        Parsed::Call(call) => wit::Parsed::Call(wit::CallRequest {
            arguments: serde_json::Value::Object(call.arguments).to_string(),
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
