//! `mur-sample`: a headless app with a real in-memory UI (two windows, three components)
//! built on the `mur-server` library, exposing the 19 standard devtools tools, three that
//! use the rest of MCP (`exportTodos` reports progress and logs, `clearTodos` asks for a
//! confirmation, `overview` returns text and a screenshot), its log and todos as
//! resources and a walkthrough prompt ([`offer`]), plus the MCP conformance suite's
//! fixtures ([`fixtures`]). The `mur-sample` binary serves
//! it as a devtools session; tests drive it through the same [`ToolSet`] the server uses.

mod actions;
mod app;
mod element;
mod events;
pub mod fixtures;
mod handlers;
pub mod offer;
mod render;
mod selector;
mod state;
mod tree;
mod view;

use mur_server::ToolSet;

pub use app::SampleApp;

/// A fresh sample app and its tools.
pub fn tool_set() -> ToolSet {
    SampleApp::new().tool_set()
}

impl SampleApp {
    /// The tools of this app; every call changes this app's state.
    pub fn tool_set(&self) -> ToolSet {
        let mut tools = ToolSet::new();
        handlers::register_all(&mut tools, self);
        offer::register(&mut tools, self);
        tools
    }
}
