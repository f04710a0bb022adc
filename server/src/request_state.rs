//! Sealing `requestState` (2026-07-28 input-required results): the state a
//! handler hands out comes back from the client, so it is signed (HMAC-SHA256
//! with a key made at random for this process, through rmcp's
//! `RequestStateCodec`), bound to the method and the tool or prompt name, and
//! valid for ten minutes. A value that fails any check is refused before the
//! handler runs.

use std::{sync::OnceLock, time::Duration};

use rmcp::{
    ErrorData,
    model::{RequestStateCodec, SealOptions},
};
use serde_json::{Value, json};

/// How long a client has to answer.
const STATE_TTL: Duration = Duration::from_secs(600);

fn codec() -> &'static RequestStateCodec {
    static CODEC: OnceLock<RequestStateCodec> = OnceLock::new();
    CODEC.get_or_init(|| {
        let mut key = [0u8; 32];
        if let Err(error) = getrandom::fill(&mut key) {
            // No OS randomness: fall back on what differs per process and moment.
            tracing::warn!("no OS randomness for the request-state key ({error})");
            let seed = format!(
                "{}:{:?}:{:?}",
                std::process::id(),
                std::time::SystemTime::now(),
                std::collections::hash_map::RandomState::new()
            );
            for (slot, byte) in key.iter_mut().zip(seed.bytes().cycle()) {
                *slot ^= byte;
            }
        }
        RequestStateCodec::new_unchecked(key.to_vec()) // 32 bytes, the minimum
    })
}

/// What the state is bound to: `tools/call` plus the tool's name, and so on.
fn binding(method: &str, name: &str) -> Vec<u8> {
    format!("{method}\u{0}{name}").into_bytes()
}

pub(crate) fn seal(method: &str, name: &str, state: &Value) -> Result<String, ErrorData> {
    let binding = binding(method, name);
    let options = SealOptions::new().associated_data(&binding).ttl(STATE_TTL);
    codec().seal_json_with(state, &options).map_err(|error| {
        ErrorData::internal_error(format!("cannot seal the request state: {error}"), None)
    })
}

/// The state inside `sealed`, or -32602 when it was not sealed here for this
/// method and name, was changed, or has expired.
pub(crate) fn open(method: &str, name: &str, sealed: &str) -> Result<Value, ErrorData> {
    codec()
        .open_json_with(sealed, &binding(method, name))
        .map_err(|error| {
            ErrorData::invalid_params(
                format!("requestState refused: {error}; start the request again without it"),
                Some(json!({ "reason": error.to_string() })),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_state_opens_only_unchanged_and_for_its_own_call() {
        let sealed = seal("tools/call", "a", &json!({ "step": 2 })).expect("seal");
        assert_eq!(
            open("tools/call", "a", &sealed).expect("open"),
            json!({ "step": 2 })
        );
        assert!(open("tools/call", "b", &sealed).is_err());
        assert!(open("prompts/get", "a", &sealed).is_err());
        let mut tampered = sealed.clone();
        let last = tampered.pop().expect("non-empty");
        tampered.push(if last == 'A' { 'B' } else { 'A' });
        assert!(open("tools/call", "a", &tampered).is_err());
        assert!(open("tools/call", "a", "garbage").is_err());
    }
}
