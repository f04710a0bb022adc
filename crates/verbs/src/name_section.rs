//! What a verb component says of itself before it is compiled: the name it
//! declares in its `mur:verb-name` custom section, the version of `mur:verb` it
//! was built against, and whether it exports a verb's functions at all. `verbs add`
//! (and a call of a verb whose file changed) judges these before spending seconds
//! (and, for a Python or JavaScript verb, tens of MB of cache) on a compile. The
//! kits write the section (the Rust kit's `export_verb!`, the Python and JavaScript
//! build scripts); a component without it (a 0.1 verb, one built by other tools) is
//! judged by its `info` after compiling instead: its name is said only there. A
//! `mur:verb-waits` section says which argument bounds its tool's own wait
//! ([`ToolWait`]), kept in the verb index with the verb's spec.

use wasmparser::{ComponentExternalKind, Encoding, Parser, Payload};

use crate::spec::ToolWait;

/// The custom section's name; its contents are the verb's name in UTF-8.
pub const SECTION: &str = "mur:verb-name";

/// What a component says of itself outside its `info`, read in one walk over its
/// payloads (the component's and its core modules'): a Python or JavaScript verb is
/// tens of MB, and `verbs add` needs all three.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Said {
    /// The version of `mur:verb` the component imports its types from (`0.3.0` of
    /// `mur:verb/types@0.3.0`), if it imports any: every kit's verb does.
    pub interface: Option<String>,
    /// The name it declares in section [`SECTION`], if it has one.
    pub name: Result<Option<String>, String>,
    /// What it declares of a tool that waits on a bound of its own (section
    /// [`ToolWait::SECTION`], which the kits write for a verb that declares one).
    pub waits: Result<Option<ToolWait>, String>,
    /// Of [`VERB_FUNCTIONS`], those it does not export: a component lacking one is no
    /// verb of any `mur:verb` version, known without a compile ([`Said::no_verb`]).
    /// Empty where it exports all three, and where it does not parse to its end (the
    /// compile explains what is wrong with it).
    pub lacks: Vec<&'static str>,
}

/// The functions every `mur:verb` world (0.1.0, 0.2.0, 0.3.0) exports at the
/// component's top level.
pub(crate) const VERB_FUNCTIONS: [&str; 3] = ["info", "parse", "shape"];

impl Said {
    /// Why the component is no verb, where [`Said::lacks`] says so: "exports no
    /// `shape` function (…)", after "it" or after a file's name.
    pub fn no_verb(&self) -> Option<String> {
        let (last, rest) = self.lacks.split_last()?;
        let named = |name: &&str| format!("`{name}`");
        let list = match rest {
            [] => named(last),
            rest => format!(
                "{} or {}",
                rest.iter().map(named).collect::<Vec<_>>().join(", "),
                named(last)
            ),
        };
        Some(format!(
            "exports no {list} function, where a verb (of any mur:verb version) exports \
             `info`, `parse` and `shape`"
        ))
    }
}

/// What the component in `bytes` says of itself ([`Said`]). Several sections of one
/// name (in the component and its core modules) must hold the same bytes. A component
/// that does not parse is left to the compile, which explains what is wrong with it.
pub(crate) fn read(bytes: &[u8]) -> Said {
    let mut interface = None;
    let mut name = Ok(None);
    let mut waits = Ok(None);
    let mut exports = TopExports::default();
    for payload in Parser::new(0).parse_all(bytes) {
        exports.see(&payload);
        match payload {
            Ok(Payload::ComponentImportSection(imports)) if interface.is_none() => {
                interface = imports.into_iter().flatten().find_map(|import| {
                    let rest = import.name.name.strip_prefix("mur:verb/")?;
                    Some(rest.split_once('@')?.1.to_owned())
                });
            }
            Ok(Payload::CustomSection(section)) => {
                let slot = match section.name() {
                    SECTION => &mut name,
                    ToolWait::SECTION => &mut waits,
                    _ => continue,
                };
                agree(slot, section.name(), section.data());
            }
            _ => {}
        }
    }
    Said {
        interface,
        name: name.and_then(|data| {
            data.map(|data| {
                std::str::from_utf8(data)
                    .map(str::to_owned)
                    .map_err(|_| format!("its `{SECTION}` section is not UTF-8"))
            })
            .transpose()
        }),
        waits: waits.and_then(|data| data.map_or(Ok(None), ToolWait::from_section)),
        lacks: exports.lacks(),
    }
}

/// The functions a component exports at its top level (not those of the components
/// and modules nested in it), seen payload by payload, and whether the walk reached
/// the component's end: only then is one not seen known not to be there.
#[derive(Default)]
struct TopExports {
    /// How deep in nested modules and components the walk is.
    depth: usize,
    /// The outermost is a component (not a core module).
    component: bool,
    functions: Vec<String>,
    whole: bool,
}

impl TopExports {
    fn see(&mut self, payload: &wasmparser::Result<Payload>) {
        match payload {
            Ok(Payload::Version { encoding, .. }) if self.depth == 0 => {
                self.component = *encoding == Encoding::Component;
            }
            Ok(Payload::ModuleSection { .. } | Payload::ComponentSection { .. }) => {
                self.depth += 1;
            }
            Ok(Payload::End(_)) => match self.depth.checked_sub(1) {
                Some(depth) => self.depth = depth,
                None => self.whole = true,
            },
            Ok(Payload::ComponentExportSection(exports)) if self.depth == 0 => {
                let functions = exports.clone().into_iter().flatten();
                self.functions.extend(
                    functions
                        .filter(|export| export.kind == ComponentExternalKind::Func)
                        .map(|export| export.name.name.to_owned()),
                );
            }
            _ => {}
        }
    }

    /// Of [`VERB_FUNCTIONS`], those not exported, where the whole component was read.
    fn lacks(&self) -> Vec<&'static str> {
        if !(self.whole && self.component) {
            return Vec::new();
        }
        VERB_FUNCTIONS
            .into_iter()
            .filter(|function| !self.functions.iter().any(|f| f == function))
            .collect()
    }
}

/// One more section called `name` holding `data`, found into `slot`: an earlier one
/// that holds other bytes makes the slot an error naming both.
fn agree<'a>(slot: &mut Result<Option<&'a [u8]>, String>, name: &str, data: &'a [u8]) {
    let Ok(found) = slot else { return };
    match found {
        Some(earlier) if *earlier != data => {
            let shown = |data| String::from_utf8_lossy(data).into_owned();
            *slot = Err(format!(
                "its `{name}` sections disagree: `{}` and `{}`",
                shown(earlier),
                shown(data)
            ));
        }
        _ => *found = Some(data),
    }
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
        assert_eq!(read(EMPTY_COMPONENT).name, Ok(None));
        let other = with_section(EMPTY_COMPONENT, "mur-test-note", b"call");
        assert_eq!(read(&other).name, Ok(None));
        let named = with_section(EMPTY_COMPONENT, SECTION, b"bump");
        assert_eq!(read(&named).name, Ok(Some("bump".to_owned())));
        let twice = with_section(&named, SECTION, b"bump");
        assert_eq!(read(&twice).name, Ok(Some("bump".to_owned())));
    }

    #[test]
    fn sections_that_disagree_or_are_not_text_are_refused() {
        let named = with_section(EMPTY_COMPONENT, SECTION, b"bump");
        let both = with_section(&named, SECTION, b"call");
        assert_eq!(
            read(&both).name,
            Err("its `mur:verb-name` sections disagree: `bump` and `call`".to_owned())
        );
        let binary = with_section(EMPTY_COMPONENT, SECTION, b"\xff\xfe");
        assert_eq!(
            read(&binary).name,
            Err("its `mur:verb-name` section is not UTF-8".to_owned())
        );
    }

    #[test]
    fn a_tool_that_waits_is_declared_as_its_argument_and_default() {
        assert_eq!(read(EMPTY_COMPONENT).waits, Ok(None));
        let empty = with_section(EMPTY_COMPONENT, ToolWait::SECTION, b"");
        assert_eq!(read(&empty).waits, Ok(None));
        let declared = with_section(EMPTY_COMPONENT, ToolWait::SECTION, b"timeoutMs=5000");
        let expected = ToolWait {
            argument: "timeoutMs".to_owned(),
            default_ms: 5000,
        };
        assert_eq!(read(&declared).waits, Ok(Some(expected)));
        for junk in [
            &b"timeoutMs"[..],
            b"=5000",
            b"timeoutMs=-1",
            b"time out=1",
            b"\xff=1",
        ] {
            let junk = with_section(EMPTY_COMPONENT, ToolWait::SECTION, junk);
            let refused = read(&junk).waits.expect_err("junk");
            assert!(
                refused.starts_with("its `mur:verb-waits` section "),
                "{refused}"
            );
        }
    }

    #[test]
    fn junk_has_no_name() {
        assert_eq!(read(b"junk").name, Ok(None));
    }

    /// A component that exports none of a verb's functions is known as no verb; junk,
    /// or a component cut short, is left to the compile.
    #[test]
    fn a_component_without_a_verbs_functions_is_no_verb() {
        let empty = read(EMPTY_COMPONENT);
        assert_eq!(empty.lacks, VERB_FUNCTIONS);
        assert_eq!(
            empty.no_verb().as_deref(),
            Some(
                "exports no `info`, `parse` or `shape` function, where a verb (of any \
                 mur:verb version) exports `info`, `parse` and `shape`"
            )
        );
        let shape = Said {
            lacks: vec!["shape"],
            ..read(EMPTY_COMPONENT)
        };
        assert!(
            shape
                .no_verb()
                .is_some_and(|why| why.starts_with("exports no `shape` function, where"))
        );
        for unknown in [&b"junk"[..], &EMPTY_COMPONENT[..6], b"\0asm\x01\0\0\0"] {
            let said = read(unknown);
            assert_eq!(said.lacks, Vec::<&str>::new(), "{unknown:?}");
            assert_eq!(said.no_verb(), None);
        }
    }
}
