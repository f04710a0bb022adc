//! Host bindings for the `verb` world of `wit/verb.wit` (`mur:verb@0.1.0`),
//! generated once here and used by the runtime and the registry.

wasmtime::component::bindgen!({ path: "../../wit", world: "verb" });

pub use mur::verb::types::Shaped as WitShaped;

/// The world's name, for messages about components that do not implement it.
pub const WORLD: &str = "mur:verb/verb@0.1.0";
