//! What a verb component says of itself before it is compiled: the name it
//! declares in its `mur:verb-name` custom section, and the version of
//! `mur:verb` it was built against. `verbs add` judges both before spending
//! seconds (and, for a Python or JavaScript verb, tens of MB of cache) on a
//! compile. The kits write the section (the Rust kit's `export_verb!`, the
//! Python and JavaScript build scripts); a component without it (a 0.1 verb, one
//! built by other tools) is judged by its `info` after compiling instead. A
//! `mur:verb-waits` section says which argument bounds its tool's own wait
//! ([`ToolWait`]), kept in the verb index with the verb's spec.

use wasmparser::{Parser, Payload};

use crate::error::VerbError;
use crate::instance::Described;
use crate::spec::ToolWait;

/// The custom section's name; its contents are the verb's name in UTF-8.
pub const SECTION: &str = "mur:verb-name";

/// The name the component declares, if it has the section (in the component
/// itself or in one of its core modules). Several sections must agree.
pub fn declared(bytes: &[u8]) -> Result<Option<String>, String> {
    match section(bytes, SECTION)? {
        Some(data) => std::str::from_utf8(data)
            .map(|name| Some(name.to_owned()))
            .map_err(|_| format!("its `{SECTION}` section is not UTF-8")),
        None => Ok(None),
    }
}

/// What the component declares of a tool that waits on a bound of its own (section
/// [`ToolWait::SECTION`], which the Rust kit writes for a verb that declares one).
pub(crate) fn waits(bytes: &[u8]) -> Result<Option<ToolWait>, String> {
    section(bytes, ToolWait::SECTION)?.map_or(Ok(None), ToolWait::from_section)
}

/// `info`, read from the component in `bytes`, with what its section says of a
/// tool that waits ([`waits`]) in its spec (a 0.1 verb declares no spec: nothing).
pub fn with_waits(mut info: Described, bytes: &[u8]) -> Result<Described, VerbError> {
    if let Some(spec) = info.spec.as_mut() {
        spec.waits = waits(bytes).map_err(VerbError::Registry)?;
    }
    Ok(info)
}

/// The contents of custom section `name`, wherever it is (the component or one
/// of its core modules); several of that name must hold the same bytes.
fn section<'a>(bytes: &'a [u8], name: &str) -> Result<Option<&'a [u8]>, String> {
    let mut found: Option<&[u8]> = None;
    for payload in Parser::new(0).parse_all(bytes) {
        // A component that does not parse is left to the compile, which
        // explains what is wrong with it.
        let Ok(Payload::CustomSection(section)) = payload else {
            continue;
        };
        if section.name() != name {
            continue;
        }
        let data = section.data();
        match found {
            Some(earlier) if earlier != data => {
                let shown = |data| String::from_utf8_lossy(data).into_owned();
                return Err(format!(
                    "its `{name}` sections disagree: `{}` and `{}`",
                    shown(earlier),
                    shown(data)
                ));
            }
            _ => found = Some(data),
        }
    }
    Ok(found)
}

/// The version of `mur:verb` the component imports its types from (`0.3.0` of
/// `mur:verb/types@0.3.0`), if it imports any: every kit's verb does. A component
/// that does not parse is left to the compile, which explains what is wrong.
pub fn interface_version(bytes: &[u8]) -> Option<String> {
    for payload in Parser::new(0).parse_all(bytes) {
        let Ok(Payload::ComponentImportSection(imports)) = payload else {
            continue;
        };
        for import in imports.into_iter().flatten() {
            if let Some(version) = import
                .name
                .name
                .strip_prefix("mur:verb/")
                .and_then(|rest| rest.split_once('@'))
                .map(|(_, version)| version)
            {
                return Some(version.to_owned());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest component there is: a header and nothing else.
    const EMPTY_COMPONENT: &[u8] = b"\0asm\x0d\0\x01\0";

    /// `component` with a custom section `name` holding `data` appended.
    fn with_section(component: &[u8], name: &str, data: &[u8]) -> Vec<u8> {
        let mut body = vec![u8::try_from(name.len()).expect("short name")];
        body.extend_from_slice(name.as_bytes());
        body.extend_from_slice(data);
        let mut out = component.to_vec();
        out.push(0);
        out.push(u8::try_from(body.len()).expect("short section"));
        out.extend(body);
        out
    }

    #[test]
    fn the_section_names_the_verb_and_its_absence_is_no_name() {
        assert_eq!(declared(EMPTY_COMPONENT), Ok(None));
        let other = with_section(EMPTY_COMPONENT, "mur-test-note", b"call");
        assert_eq!(declared(&other), Ok(None));
        let named = with_section(EMPTY_COMPONENT, SECTION, b"bump");
        assert_eq!(declared(&named), Ok(Some("bump".to_owned())));
        let twice = with_section(&named, SECTION, b"bump");
        assert_eq!(declared(&twice), Ok(Some("bump".to_owned())));
    }

    #[test]
    fn sections_that_disagree_or_are_not_text_are_refused() {
        let named = with_section(EMPTY_COMPONENT, SECTION, b"bump");
        let both = with_section(&named, SECTION, b"call");
        assert_eq!(
            declared(&both),
            Err("its `mur:verb-name` sections disagree: `bump` and `call`".to_owned())
        );
        let binary = with_section(EMPTY_COMPONENT, SECTION, b"\xff\xfe");
        assert_eq!(
            declared(&binary),
            Err("its `mur:verb-name` section is not UTF-8".to_owned())
        );
    }

    #[test]
    fn a_tool_that_waits_is_declared_as_its_argument_and_default() {
        assert_eq!(waits(EMPTY_COMPONENT), Ok(None));
        let empty = with_section(EMPTY_COMPONENT, ToolWait::SECTION, b"");
        assert_eq!(waits(&empty), Ok(None));
        let declared = with_section(EMPTY_COMPONENT, ToolWait::SECTION, b"timeoutMs=5000");
        let expected = ToolWait {
            argument: "timeoutMs".to_owned(),
            default_ms: 5000,
        };
        assert_eq!(waits(&declared), Ok(Some(expected)));
        for junk in [
            &b"timeoutMs"[..],
            b"=5000",
            b"timeoutMs=-1",
            b"time out=1",
            b"\xff=1",
        ] {
            let junk = with_section(EMPTY_COMPONENT, ToolWait::SECTION, junk);
            let refused = waits(&junk).expect_err("junk");
            assert!(
                refused.starts_with("its `mur:verb-waits` section "),
                "{refused}"
            );
        }
    }

    #[test]
    fn junk_has_no_name() {
        assert_eq!(declared(b"junk"), Ok(None));
    }
}
