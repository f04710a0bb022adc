//! What made a verb component, read from its `producers` custom sections
//! (the component's own and its core modules'): the language it was written
//! in, for `verbs info`. Best effort: a component without the sections is of
//! an unknown language, never refused.

use wasmparser::{KnownCustom, Parser, Payload};

/// The language a verb was written in: `Python` or `JavaScript` when a
/// componentizer for one processed it (their core modules are an interpreter
/// written in C or Rust), else the first `language` a module declares.
pub fn language(bytes: &[u8]) -> Option<String> {
    let mut languages = Vec::new();
    let mut tools = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let Ok(Payload::CustomSection(section)) = payload else {
            continue;
        };
        let KnownCustom::Producers(reader) = section.as_known() else {
            continue;
        };
        for field in reader.into_iter().flatten() {
            let values = field
                .values
                .into_iter()
                .flatten()
                .map(|v| v.name.to_owned());
            match field.name {
                "language" => languages.extend(values),
                "processed-by" | "sdk" => tools.extend(values),
                _ => {}
            }
        }
    }
    let made_by = |needle: &str| tools.iter().any(|t| t.to_lowercase().contains(needle));
    if made_by("componentize-py") {
        return Some("Python".to_owned());
    }
    if made_by("componentizejs") || made_by("componentize-js") || made_by("jco") {
        return Some("JavaScript".to_owned());
    }
    languages.into_iter().next()
}

#[cfg(test)]
mod tests {
    #[test]
    fn bytes_that_are_no_component_have_no_language() {
        assert_eq!(super::language(b"\0asm\x0d\0\x01\0"), None);
        assert_eq!(super::language(b"junk"), None);
    }
}
