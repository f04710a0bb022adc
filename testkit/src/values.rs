//! Reading the JSON that tools and `mur` print, for assertions.

use serde_json::Value;

/// The string `key` of each object in the JSON array `array`, in order (panics, showing
/// the value, when it is not an array of objects that each have one).
pub fn each_str<'a>(array: &'a Value, key: &str) -> Vec<&'a str> {
    array
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {array}"))
        .iter()
        .map(|item| {
            item[key]
                .as_str()
                .unwrap_or_else(|| panic!("no string `{key}` in {item}"))
        })
        .collect()
}
