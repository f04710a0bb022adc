//! The verb kit for Rust: a verb declares what it is ([`About`]) and the argv it
//! takes ([`Spec`]), overrides [`Verb::arguments`] or [`Verb::shape`] only when the
//! defaults do not fit, and calls [`export_verb!`]. The kit implements
//! `mur:verb@0.3.0` from that: the structured `info` the host renders help and
//! completions from, `parse` (checked argv → tool arguments, files written, state
//! for `shape`), and `shape` (stdout, files, and notes for stderr:
//! [`Shaped::note`]).
//!
//! ```
//! use mur_verb_kit::{About, Spec, Verb};
//!
//! struct Click;
//!
//! impl Verb for Click {
//!     const ABOUT: About = About {
//!         name: "click",
//!         tool: "click",
//!         summary: "Click the element a selector matches",
//!         synopsis: "", // the kit composes `click <selector>`
//!         details: "",
//!         examples: &["mur devtools click '#btn-inc'"],
//!     };
//!     const SPEC: Spec = mur_verb_kit::selector_spec!("the element to click");
//! }
//!
//! mur_verb_kit::export_verb!(Click);
//! # mur_verb_kit::testing::check_selector_verb::<Click>();
//! ```
//!
//! Everything but the last line is plain Rust, so a verb's parsing and shaping are unit
//! tested natively through [`parse()`] and [`shape()`] (see [`testing`]).
//!
//! A verb with an option that takes a value, read by its own `shape` (the scaffold's
//! README shows this very verb):
//!
//! ```
//! use mur_verb_kit::{About, Args, Kind, Opt, Pos, Shaped, Spec, Value, Verb};
//!
//! pub struct ReadField;
//!
//! impl Verb for ReadField {
//!     const ABOUT: About = About {
//!         name: "read-field",
//!         tool: "state",
//!         summary: "Print one field of an element's state",
//!         synopsis: "", // the kit composes `read-field <selector> [--field NAME]`
//!         details: "",
//!         examples: &["mur devtools read-field '#count' --field visible"],
//!     };
//!     const SPEC: Spec = Spec {
//!         positionals: &[Pos::selector("the element to read")],
//!         // `Kind::Local`: checked, never sent; `Kind::Count` would be sent as a number,
//!         // `Kind::Text` as a string, under the name in camelCase.
//!         options: &[Opt::value("field", "NAME", Kind::Local, "the field to print (default: text)")],
//!         exclusive: &[],
//!     };
//!
//!     // `arguments` is the default: `{"selector": …}`.
//!     fn shape(args: &Args, result: &Value, pretty: bool) -> Result<Shaped, String> {
//!         let field = args.value("field").unwrap_or("text");
//!         match mur_verb_kit::shape::payload(result).get(field) {
//!             Some(value) => Ok(Shaped::json(value, pretty)),
//!             // A failure of the verb's own (exit 6), in one lowercase line.
//!             None => Err(format!("the state has no field `{field}`")),
//!         }
//!     }
//! }
//!
//! mur_verb_kit::export_verb!(ReadField);
//!
//! // `cargo test` checks it natively (in a `#[cfg(test)] mod tests`):
//! use mur_verb_kit::{json, testing};
//! let sent = json!({"selector": "#count"});
//! testing::assert_arguments::<ReadField>(&[(&["#count", "--field", "visible"], sent)]);
//! let result = json!({"structuredContent": {"text": "2", "visible": true}});
//! assert_eq!(testing::stdout::<ReadField>(&["#count"], &result, false), "\"2\"\n");
//! let shown = testing::stdout::<ReadField>(&["#count", "--field", "visible"], &result, false);
//! assert_eq!(shown, "true\n");
//! let failed = testing::shaped::<ReadField>(&["#count", "--field", "nope"], &result, false);
//! assert_eq!(failed, Err("the state has no field `nope`".to_owned()));
//! ```

pub mod argv;
pub mod info;
mod nearest;
pub mod shape;
pub mod testing;
mod verb;
pub mod wit;

/// The WIT bindings of `mur:verb@0.3.0`, generated once for every verb.
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit/verb.wit",
        world: "mur:verb/verb@0.3.0",
        pub_export_macro: true,
        export_macro_name: "export_bindings",
    });
}

pub use argv::{Args, Bounds, End, Kind, Opt, Pos, Request, Spec};
pub use info::{About, Info, Param, ValueKind, Waits};
pub use serde_json::{self, Map, Value, json};
pub use shape::{FileWrite, Shaped};
pub use verb::{Call, Parsed, Verb, info, parse, shape};

/// Export verb type `$verb` (which implements [`Verb`]) as this component's `mur:verb`
/// world, and record its name in the custom section `mur:verb-name` (its UTF-8
/// bytes), where `mur devtools verbs add` reads it before compiling: a name `mur`
/// refuses is refused at once, with nothing compiled; and what its tool waits
/// ([`Verb::WAITS`]) in `mur:verb-waits` (`ARGUMENT=MS`; empty when it does not wait),
/// which `verbs add` keeps with the verb's spec. Expands to nothing outside
/// WebAssembly, so native unit tests link as usual.
///
/// Hygienic for any verb type: what it expands names std's types by their full paths
/// and its own items by names no verb takes (a verb type `Component`, `String` or
/// `Result` was shadowed by them, and did not build).
#[macro_export]
macro_rules! export_verb {
    ($verb:ty) => {
        // A declaration `verbs add` would refuse ([`info::refused`]) fails the build, in
        // its sentence, natively and for WebAssembly alike: an author learnt of it only
        // at `verbs add`, after a release build.
        const _: () = {
            const __MUR_VERB_KIT_REFUSED: [&str; $crate::info::REFUSAL_PIECES] =
                $crate::info::refused(
                    &<$verb as $crate::Verb>::ABOUT,
                    &<$verb as $crate::Verb>::SPEC,
                    <$verb as $crate::Verb>::WAITS,
                );
            const __MUR_VERB_KIT_SAID: [u8; $crate::wit::joined_len(&__MUR_VERB_KIT_REFUSED)] =
                $crate::wit::joined(&__MUR_VERB_KIT_REFUSED);
            if let ::core::result::Result::Ok(why) = ::core::str::from_utf8(&__MUR_VERB_KIT_SAID) {
                if !why.is_empty() {
                    ::core::panic!("{}", why);
                }
            }
        };

        #[cfg(target_arch = "wasm32")]
        const _: () = {
            // `used`: kept though nothing reads it; the linker keeps a custom
            // section for each `link_section` static, and wit-component carries
            // it into the component's core module.
            #[used]
            #[allow(unsafe_code)]
            #[unsafe(link_section = "mur:verb-name")]
            static __MUR_VERB_KIT_NAME: [u8; <$verb as $crate::Verb>::ABOUT.name.len()] =
                $crate::wit::name_section(<$verb as $crate::Verb>::ABOUT.name);

            #[used]
            #[allow(unsafe_code)]
            #[unsafe(link_section = "mur:verb-waits")]
            static __MUR_VERB_KIT_WAITS: [u8; $crate::wit::waits_len(
                <$verb as $crate::Verb>::WAITS,
            )] = $crate::wit::waits_section(<$verb as $crate::Verb>::WAITS);

            struct __MurVerbKitGuest;

            impl $crate::bindings::Guest for __MurVerbKitGuest {
                fn info() -> $crate::bindings::VerbInfo {
                    $crate::info::<$verb>()
                }

                fn parse(
                    argv: ::std::vec::Vec<::std::string::String>,
                ) -> ::core::result::Result<$crate::bindings::Parsed, ::std::string::String>
                {
                    $crate::wit::parse::<$verb>(&argv)
                }

                fn shape(
                    result: ::std::string::String,
                    state: ::std::string::String,
                    options: $crate::bindings::OutputOptions,
                ) -> ::core::result::Result<$crate::bindings::Shaped, ::std::string::String>
                {
                    $crate::wit::shape::<$verb>(&result, &state, options)
                }
            }

    $crate::bindings::export_bindings!(__MurVerbKitGuest with_types_in $crate::bindings);
        };
    };
}

#[cfg(test)]
mod tests;

/// The [`Spec`] of a verb whose only argument is the `<selector>` of the
/// element it acts on, sent as `{"selector": …}`, also taken as `--selector S`
/// (the form of the verbs whose selector is an option); the text says what the
/// element is for. A macro rather than a `const fn` so the spec stays `'static`.
#[macro_export]
macro_rules! selector_spec {
    ($help:literal) => {
        $crate::Spec {
            positionals: &[$crate::Pos::selector($help).or_option("S")],
            options: &[],
            exclusive: &[],
        }
    };
}

/// A whole verb crate whose one argument is a selector (`click`, `focus`, …):
/// the type, its [`Verb`] impl from the given [`About`] and the selector's
/// help, the component export, and the checks every selector verb passes.
#[macro_export]
macro_rules! selector_verb {
    ($verb:ident, $about:expr, $selector_help:literal) => {
        $crate::checked_verb!(
            $verb,
            $about,
            $crate::selector_spec!($selector_help),
            behaves_like_every_selector_verb = check_selector_verb
        );
    };
}

/// A whole verb crate without arguments (`version`, `windows`, …): the type,
/// its [`Verb`] impl from the given [`About`], the component export, and the
/// checks every such verb passes.
#[macro_export]
macro_rules! no_argument_verb {
    ($verb:ident, $about:expr) => {
        $crate::checked_verb!(
            $verb,
            $about,
            $crate::Spec::NONE,
            behaves_like_every_verb_without_arguments = check_no_argument_verb
        );
    };
}

/// What [`selector_verb!`] and [`no_argument_verb!`] expand to: the type, its
/// [`Verb`] impl, the component export, and a test `$test` running the shared
/// check `testing::$check` on the verb.
#[doc(hidden)]
#[macro_export]
macro_rules! checked_verb {
    ($verb:ident, $about:expr, $spec:expr, $test:ident = $check:ident) => {
        pub struct $verb;

        impl $crate::Verb for $verb {
            const ABOUT: $crate::About = $about;
            const SPEC: $crate::Spec = $spec;
        }

        $crate::export_verb!($verb);

        // Named for the kit, not `tests`, so an author's own `mod tests` beside the
        // macro does not clash with it.
        #[cfg(test)]
        mod mur_verb_kit_checks {
            #[test]
            fn $test() {
                $crate::testing::$check::<super::$verb>();
            }
        }
    };
}

/// A verb's table-driven checks: for each `(argv, arguments)` row, the
/// `arguments` object sent; for each `(argv, message)` row, the one-line usage
/// error. Tables rather than a test per case, so adding a case is one line.
#[macro_export]
macro_rules! verb_tables {
    ($verb:ident {
        arguments: [$($arguments:tt)*],
        usage_errors: [$($errors:tt)*] $(,)?
    }) => {
        // Named for the kit, not `tables`, so that an author's module of that name
        // beside the macro does not clash with it.
        #[cfg(test)]
        mod mur_verb_kit_tables {
            #[allow(unused_imports)]
            use $crate::json;

            #[test]
            fn sends_these_arguments_for_this_argv() {
                $crate::testing::assert_arguments::<super::$verb>(&[$($arguments)*]);
            }

            #[test]
            fn refuses_this_argv_with_this_message() {
                $crate::testing::assert_usage_errors::<super::$verb>(&[$($errors)*]);
            }
        }
    };
}
