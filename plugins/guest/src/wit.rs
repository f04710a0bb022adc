//! The thin glue between [`Verb`] and the generated WIT types, used by [`export_verb!`].

use crate::bindings::mur::verb::types as wit;
use crate::{Parsed, Verb};

pub fn info<V: Verb>() -> wit::VerbInfo {
    let info = crate::info::<V>();
    wit::VerbInfo {
        name: info.name,
        tool: info.tool,
        summary: info.summary,
        usage: info.usage,
    }
}

pub fn parse<V: Verb>(argv: &[String]) -> Result<wit::Parsed, String> {
    Ok(match crate::parse::<V>(argv)? {
        Parsed::Help => wit::Parsed::Help,
        Parsed::Call(call) => wit::Parsed::Call(wit::CallRequest {
            arguments: serde_json::Value::Object(call.arguments).to_string(),
            timeout_ms: call.timeout_ms,
        }),
    })
}

pub fn shape<V: Verb>(
    argv: &[String],
    result: &str,
    options: wit::OutputOptions,
) -> Result<wit::Shaped, String> {
    let shaped = crate::shape::<V>(argv, result, options.pretty)?;
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
    })
}
