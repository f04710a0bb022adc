//! What made a verb component, read from its `producers` custom sections
//! (the component's own and its core modules'): the language it was written
//! in, for `verbs info`. Best effort: a component without the sections is of
//! an unknown language, never refused.

use wasmparser::{KnownCustom, Parser, Payload};

/// The shared library componentize-py links every Python component with: its
/// runtime, which calls into CPython. componentize-py 0.25 names itself in no
/// producers section (the component's `processed-by` holds `wit-component` and
/// `component-init-transform`, its runtime's module `language` Rust), but the
/// module it links imports from this library by name.
const COMPONENTIZE_PY_RUNTIME: &str = "libcomponentize_py_runtime.so";

/// The language a verb was written in: `Python` or `JavaScript` when a
/// componentizer for one made it (their core modules are an interpreter
/// written in C or Rust), else the first `language` a module declares.
pub fn language(bytes: &[u8]) -> Option<String> {
    let mut languages = Vec::new();
    let mut tools = Vec::new();
    let mut python_runtime = false;
    for payload in Parser::new(0).parse_all(bytes) {
        let section = match payload {
            Ok(Payload::CustomSection(section)) => section,
            Ok(Payload::ImportSection(imports)) => {
                python_runtime |= imports
                    .into_imports()
                    .flatten()
                    .any(|import| import.module == COMPONENTIZE_PY_RUNTIME);
                continue;
            }
            _ => continue,
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
    if python_runtime || made_by("componentize-py") {
        return Some("Python".to_owned());
    }
    if made_by("componentizejs") || made_by("componentize-js") || made_by("jco") {
        return Some("JavaScript".to_owned());
    }
    languages.into_iter().next()
}

#[cfg(test)]
mod tests {
    use wasm_encoder::{
        Component, EntityType, ImportSection, Module, ModuleSection, ProducersField,
        ProducersSection, TypeSection,
    };

    /// A component as componentize-py 0.25.1 makes one, as far as its language
    /// goes: producers that name wit-component, component-init-transform and
    /// (its runtime's module) Rust, and a core module importing from the runtime
    /// library, here `import_from`.
    fn componentized(import_from: &str) -> Vec<u8> {
        let mut rust = ProducersSection::new();
        rust.field("language", ProducersField::new().value("Rust", ""));
        rust.field(
            "processed-by",
            ProducersField::new().value("rustc", "1.75.0"),
        );
        let mut runtime = Module::new();
        runtime.section(&rust);
        let mut types = TypeSection::new();
        types.ty().function([], []);
        let mut imports = ImportSection::new();
        imports.import(
            import_from,
            "componentize-py#Dispatch",
            EntityType::Function(0),
        );
        let mut main = Module::new();
        main.section(&types).section(&imports);
        let mut component = Component::new();
        component.section(&ModuleSection(&runtime));
        component.section(&ModuleSection(&main));
        let mut tools = ProducersSection::new();
        tools.field(
            "processed-by",
            ProducersField::new()
                .value("wit-component", "0.245.1")
                .value("component-init-transform", "0.2.0"),
        );
        component.section(&tools);
        component.finish()
    }

    /// componentize-py names itself nowhere: the Python verb was `language: Rust`.
    #[test]
    fn a_componentize_py_component_is_python_though_no_producer_says_so() {
        assert_eq!(
            super::language(&componentized("libcomponentize_py_runtime.so")).as_deref(),
            Some("Python")
        );
        assert_eq!(
            super::language(&componentized("env")).as_deref(),
            Some("Rust"),
            "without the runtime, what its modules declare"
        );
    }

    #[test]
    fn bytes_that_are_no_component_have_no_language() {
        assert_eq!(super::language(b"\0asm\x0d\0\x01\0"), None);
        assert_eq!(super::language(b"junk"), None);
    }
}
