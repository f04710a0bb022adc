//! The shared frame of the test guests: each crate names its verb and writes only the
//! `parse` (and, where it calls the session, the `shape`) that makes it what it is.
//! Every test guest calls the `version` tool; a guest without its own `shape` never
//! reaches one, so the default shape answers `unreachable`. `crash` alone is written out
//! in full: the exit-6 transcript shows where it panics (`crash/src/lib.rs:18:9`).

/// A whole test guest crate: the WIT bindings, the type, its `info` from the given
/// name, summary and usage, the given `parse` and `shape`, and the component export.
#[macro_export]
macro_rules! test_guest {
    (
        $verb:ident {
            name: $name:literal,
            summary: $summary:literal,
            usage: $usage:expr,
            fn parse($argv:pat) $parse:block
        }
    ) => {
        $crate::test_guest! {
            $verb {
                name: $name,
                summary: $summary,
                usage: $usage,
                fn parse($argv) $parse
                fn shape(_argv, _result, _options) { Err("unreachable".into()) }
            }
        }
    };
    (
        $verb:ident {
            name: $name:literal,
            summary: $summary:literal,
            usage: $usage:expr,
            fn parse($argv:pat) $parse:block
            fn shape($sargv:pat, $result:pat, $options:pat) $shape:block
        }
    ) => {
        wit_bindgen::generate!({ path: "../../../wit/deps/verb-0.1.0", world: "verb" });

        struct $verb;

        impl Guest for $verb {
            fn info() -> VerbInfo {
                VerbInfo {
                    name: $name.into(),
                    tool: "version".into(),
                    summary: $summary.into(),
                    usage: $usage.into(),
                }
            }

            fn parse($argv: Vec<String>) -> Result<Parsed, String> $parse

            fn shape($sargv: Vec<String>, $result: String, $options: OutputOptions) -> Result<Shaped, String> $shape
        }

        export!($verb);
    };
}
