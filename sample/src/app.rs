//! The shared app handle the tool handlers use, and element lookup by selector.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use mur_server::ToolError;

use super::selector::{self, Among, Purpose};
use super::state::AppState;
use super::tree::{NodeId, Tree};
use super::view;

/// The running sample app: its state behind a mutex shared by every tool handler and by
/// background tasks (a todo being added).
#[derive(Clone, Default)]
pub struct SampleApp {
    state: Arc<Mutex<AppState>>,
    /// The app's log: one line per tool call, the newest last (`app://log`).
    log: Arc<Mutex<VecDeque<String>>>,
}

/// Lines the app's log keeps; older ones are dropped.
pub const LOG_CAPACITY: usize = 500;

impl SampleApp {
    pub fn new() -> Self {
        Self::default()
    }

    /// Lock the state. A handler that panicked mid-update cannot leave the app unusable:
    /// every update is a plain field write, so the data behind a poisoned lock is consistent.
    pub fn lock(&self) -> MutexGuard<'_, AppState> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Append a line to the app's log.
    pub fn log(&self, line: impl Into<String>) {
        let mut log = self
            .log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if log.len() == LOG_CAPACITY {
            log.pop_front();
        }
        log.push_back(line.into());
    }

    /// The app's log, oldest line first.
    pub fn log_lines(&self) -> Vec<String> {
        let log = self
            .log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        log.iter().cloned().collect()
    }

    /// The UI as it is now.
    pub fn tree(&self) -> Tree {
        view::build(&self.lock())
    }
}

/// All elements matching `selector`, in every window, for `purpose` (which decides what
/// a hint about a hidden element adds).
pub fn find_all(tree: &Tree, selector: &str, purpose: Purpose) -> Result<Vec<NodeId>, ToolError> {
    let scope: Vec<NodeId> = tree.ids().collect();
    let among = Among {
        tree,
        scope: &scope,
        purpose,
    };
    matching(among, selector)
}

/// The elements matching `selector`, searched in one window or in all of them, refusing
/// a selector that matches nothing: the error names the selector and the element likely
/// meant, when one is close (`#add` → `#todo-add`).
pub fn find_some(
    tree: &Tree,
    selector: &str,
    window: Option<&str>,
    purpose: Purpose,
) -> Result<Vec<NodeId>, ToolError> {
    let scope = match window {
        Some(name) => tree.subtree(window_node(tree, name)?),
        None => tree.ids().collect(),
    };
    let among = Among {
        tree,
        scope: &scope,
        purpose,
    };
    some_matching(among, selector, "")
}

/// The first element matching `selector` (document order), to act on, or an error naming
/// the selector.
pub fn find_one(tree: &Tree, selector: &str) -> Result<NodeId, ToolError> {
    Ok(find_some(tree, selector, None, Purpose::Act)?[0])
}

/// The first element below `container` matching `selector`, for a tool that acts on the
/// container (see [`Purpose::Within`]).
pub fn find_inside(tree: &Tree, container: NodeId, selector: &str) -> Result<NodeId, ToolError> {
    let scope: Vec<NodeId> = tree.subtree(container).into_iter().skip(1).collect();
    let inside = format!(" inside {}", tree.element(container).label());
    let among = Among {
        tree,
        scope: &scope,
        purpose: Purpose::Within(container),
    };
    Ok(some_matching(among, selector, &inside)?[0])
}

/// The elements `among` matching `selector`, in document order.
fn matching(among: Among, selector: &str) -> Result<Vec<NodeId>, ToolError> {
    Ok(selector::parse_in(selector, Some(among))?.query(among.tree, among.scope))
}

/// [`matching`], refusing a selector that matches nothing; `place` ends the selector's
/// part of the error (` inside `#log``).
fn some_matching(among: Among, selector: &str, place: &str) -> Result<Vec<NodeId>, ToolError> {
    let matches = matching(among, selector)?;
    if matches.is_empty() {
        return Err(ToolError::new(selector::no_match(among, selector, place)));
    }
    Ok(matches)
}

/// The window node called `name`, or an error listing the windows.
pub fn window_node(tree: &Tree, name: &str) -> Result<NodeId, ToolError> {
    tree.window(name).ok_or_else(|| {
        let known: Vec<String> = tree
            .windows()
            .map(|id| tree.element(id).id.clone())
            .collect();
        ToolError::new(format!(
            "no window `{name}` (windows: {})",
            known.join(", ")
        ))
    })
}
