//! Helpers for a verb's native unit tests. They panic when the outcome is not the one
//! asked for, which is what a test wants; a verb itself never calls them.

use crate::{Parsed, Shaped, Value, Verb, parse, shape};

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|word| (*word).to_owned()).collect()
}

/// The `arguments` object verb `V` builds from `words`.
pub fn arguments<V: Verb>(words: &[&str]) -> Value {
    match parse::<V>(&owned(words)) {
        Ok(Parsed::Call(call)) => Value::Object(call.arguments),
        other => panic!("expected a call for {words:?}, got {other:?}"),
    }
}

/// The call-timeout hint verb `V` takes from `words`.
pub fn timeout_ms<V: Verb>(words: &[&str]) -> Option<u32> {
    match parse::<V>(&owned(words)) {
        Ok(Parsed::Call(call)) => call.timeout_ms,
        other => panic!("expected a call for {words:?}, got {other:?}"),
    }
}

/// Whether verb `V` reads `words` as a help request.
pub fn asks_for_help<V: Verb>(words: &[&str]) -> bool {
    parse::<V>(&owned(words)) == Ok(Parsed::Help)
}

/// The usage error verb `V` gives for `words`, checked to be one line.
pub fn usage_error<V: Verb>(words: &[&str]) -> String {
    match parse::<V>(&owned(words)) {
        Err(message) if !message.contains('\n') => message,
        other => panic!("expected a one-line usage error for {words:?}, got {other:?}"),
    }
}

/// What verb `V` makes of `result` after being given `words`.
pub fn shaped<V: Verb>(words: &[&str], result: &Value, pretty: bool) -> Result<Shaped, String> {
    shape::<V>(&owned(words), &result.to_string(), pretty)
}

/// The stdout, as text, verb `V` prints for `result`, checked to write no file.
pub fn stdout<V: Verb>(words: &[&str], result: &Value, pretty: bool) -> String {
    let shaped =
        shaped::<V>(words, result, pretty).unwrap_or_else(|error| panic!("shape failed: {error}"));
    assert!(
        shaped.files.is_empty(),
        "unexpected files: {:?}",
        shaped.files
    );
    String::from_utf8(shaped.stdout).unwrap_or_else(|error| panic!("stdout is not UTF-8: {error}"))
}
