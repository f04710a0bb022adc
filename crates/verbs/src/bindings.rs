//! Host bindings for every verb world: `mur:verb@0.3.0` (`wit/verb.wit`) and
//! the older `mur:verb@0.2.0` and `0.1.0` (`wit/deps/`), which the host still
//! loads and adapts ([`crate::instance`]). Generated once here.

/// `mur:verb@0.3.0`: `shape` may add notes for stderr.
pub mod v3 {
    wasmtime::component::bindgen!({ path: "../../wit/verb.wit", world: "verb" });

    /// The world's name, for messages about components that implement none.
    pub const WORLD: &str = "mur:verb/verb@0.3.0";
    /// The interface version the verb index records.
    pub const VERSION: &str = "0.3.0";
}

/// `mur:verb@0.2.0`: structured info; `shape` gets the state `parse` returned.
pub mod v2 {
    wasmtime::component::bindgen!({ path: "../../wit/deps/verb-0.2.0/verb.wit", world: "verb" });

    pub const VERSION: &str = "0.2.0";
}

/// `mur:verb@0.1.0`: a usage text for info; `shape` gets argv again.
pub mod v1 {
    wasmtime::component::bindgen!({ path: "../../wit/deps/verb-0.1.0/verb.wit", world: "verb" });

    pub const VERSION: &str = "0.1.0";
}

/// The versions of `mur:verb` this host loads, newest first.
pub const VERSIONS: [&str; 3] = [v3::VERSION, v2::VERSION, v1::VERSION];
