//! What the bridge and the proxy tell clients a server can do: its capabilities
//! less the notifications they cannot deliver.

use serde_json::Value;

/// `capabilities` less `listChanged` (tools, resources, prompts) and resource
/// `subscribe`. Neither the bridge nor the proxy passes on what a server sends
/// outside a request — the bridge answers each POST with that request's messages
/// and keeps no stream open, the proxy makes each request a call of its own (a
/// subscription is made in a session the call ends) — so a `list_changed` or
/// `resources/updated` would never reach the client: promised, it would wait
/// for them in vain.
pub(crate) fn without_notifications(mut capabilities: Value) -> Value {
    for kind in ["tools", "resources", "prompts"] {
        if let Some(offered) = capabilities.get_mut(kind).and_then(Value::as_object_mut) {
            offered.remove("listChanged");
            if kind == "resources" {
                offered.remove("subscribe");
            }
        }
    }
    capabilities
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_notifications_nobody_delivers_are_not_promised() {
        let offered = json!({
            "tools": { "listChanged": true },
            "resources": { "subscribe": true, "listChanged": true },
            "prompts": { "listChanged": false },
            "logging": {},
            "completions": {},
        });
        assert_eq!(
            without_notifications(offered),
            json!({ "tools": {}, "resources": {}, "prompts": {}, "logging": {}, "completions": {} })
        );
    }
}
