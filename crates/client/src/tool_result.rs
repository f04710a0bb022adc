//! What a `tools/call` result says to a script: its first text, and its payload as
//! the standard verbs print it (the verb kit keeps the same rule on the guest side).

use serde_json::Value;

/// The text of the first `{"type":"text"}` block of the result's `content`.
pub fn first_text(result: &Value) -> Option<&str> {
    result["content"]
        .as_array()?
        .iter()
        .find(|block| block["type"] == "text")?["text"]
        .as_str()
}

/// The result's `structuredContent`, else its first text read as JSON (or as a string),
/// else the result itself, so nothing the server said is dropped.
pub fn payload(result: &Value) -> Value {
    if let Some(structured) = result.get("structuredContent") {
        return structured.clone();
    }
    let text = first_text(result);
    text.map_or_else(
        || result.clone(),
        |text| serde_json::from_str(text).unwrap_or_else(|_| Value::from(text)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn structured_content_wins_then_the_first_text_as_json_or_a_string() {
        let both = json!({"structuredContent": {"a": 2}, "content": [{"type": "text", "text": "{\"a\":1}"}]});
        assert_eq!(payload(&both), json!({ "a": 2 }));
        let text = json!({"content": [{"type": "image"}, {"type": "text", "text": "{\"a\":1}"}]});
        assert_eq!(payload(&text), json!({ "a": 1 }));
        let plain = json!({"content": [{"type": "text", "text": "hello"}]});
        assert_eq!(payload(&plain), json!("hello"));
        let neither = json!({"content": []});
        assert_eq!(payload(&neither), neither);
        assert_eq!(first_text(&neither), None);
    }
}
