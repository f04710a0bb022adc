//! Host bindings for both verb worlds: `mur:verb@0.2.0` (`wit/verb.wit`) and
//! the older `mur:verb@0.1.0` (`wit/deps/verb-0.1.0/`), which the host still
//! loads and adapts ([`crate::instance`]). Generated once here.

/// `mur:verb@0.2.0`: structured info; `shape` gets the state `parse` returned.
pub mod v2 {
    wasmtime::component::bindgen!({ path: "../../wit/verb.wit", world: "verb" });

    pub use mur::verb::types::{Param, ValueKind};

    /// The world's name, for messages about components that implement neither.
    pub const WORLD: &str = "mur:verb/verb@0.2.0";
}

/// `mur:verb@0.1.0`: a usage text for info; `shape` gets argv again.
pub mod v1 {
    wasmtime::component::bindgen!({ path: "../../wit/deps/verb-0.1.0/verb.wit", world: "verb" });
}
