//! The sample app's state: the single source of truth the views are built from.

use serde_json::{Value, json};

/// The components the main window can show, one at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Component {
    Counter,
    Todo,
    Settings,
}

impl Component {
    pub const ALL: [Component; 3] = [Component::Counter, Component::Todo, Component::Settings];

    pub fn name(self) -> &'static str {
        match self {
            Component::Counter => "counter",
            Component::Todo => "todo",
            Component::Settings => "settings",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Component::Counter => "Counter",
            Component::Todo => "Todo list",
            Component::Settings => "Settings",
        }
    }

    /// Look a component up by name, ignoring case (`Counter` and `counter` both work).
    pub fn from_name(name: &str) -> Option<Component> {
        Component::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// The component `name` names, or what to say of it: the one meant when it is a slip
    /// of a name ([`mur_core::is_typo_of`], ignoring case, as a mistyped element type is
    /// told), else the list of components.
    pub fn named(name: &str) -> Result<Component, String> {
        Component::from_name(name).ok_or_else(|| {
            let lower = name.to_lowercase();
            match Component::ALL
                .into_iter()
                .find(|c| mur_core::is_typo_of(&lower, c.name()))
            {
                Some(meant) => format!("no component `{name}`; did you mean `{}`?", meant.name()),
                None => format!(
                    "no component `{name}` (components: {})",
                    Component::ALL.map(Component::name).join(", ")
                ),
            }
        })
    }
}

pub const THEMES: [&str; 3] = ["Ocean", "Forest", "Sunset"];
pub const LOG_LINES: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Todo {
    pub id: u64,
    pub text: String,
    pub done: bool,
}

/// Everything the UI shows. Views read it; actions change it.
#[derive(Debug, Clone)]
pub struct AppState {
    pub active: Component,
    pub count: i64,
    pub todos: Vec<Todo>,
    next_todo_id: u64,
    /// Todos added by the add button that have not appeared yet (they arrive asynchronously).
    pub pending_todos: usize,
    pub todo_input: String,
    pub selected_todo: Option<u64>,
    pub dark_mode: bool,
    pub theme: usize,
    pub advanced_open: bool,
    pub verbose: bool,
    pub cache_size: String,
    pub log_scroll: (i32, i32),
    pub check_updates: bool,
    /// Element id holding keyboard focus.
    pub focus: Option<String>,
}

impl Default for AppState {
    fn default() -> Self {
        Self {
            active: Component::Counter,
            count: 0,
            todos: Vec::new(),
            next_todo_id: 1,
            pending_todos: 0,
            todo_input: String::new(),
            selected_todo: None,
            dark_mode: false,
            theme: 0,
            advanced_open: false,
            verbose: false,
            cache_size: "64".into(),
            log_scroll: (0, 0),
            check_updates: true,
            focus: None,
        }
    }
}

impl AppState {
    pub fn add_todo(&mut self, text: &str) -> u64 {
        let id = self.next_todo_id;
        self.next_todo_id += 1;
        self.todos.push(Todo {
            id,
            text: text.to_owned(),
            done: false,
        });
        id
    }

    pub fn todo_mut(&mut self, id: u64) -> Option<&mut Todo> {
        self.todos.iter_mut().find(|todo| todo.id == id)
    }

    pub fn clear_todos(&mut self) {
        self.todos.clear();
        self.selected_todo = None;
    }

    /// Show another component; focus inside the old one is dropped with it.
    pub fn switch_to(&mut self, component: Component) {
        if self.active != component {
            self.focus = None;
        }
        self.active = component;
    }

    /// The app-level state reported by `state` without a selector.
    pub fn to_json(&self) -> Value {
        let todos: Vec<Value> = self
            .todos
            .iter()
            .map(|todo| json!({ "id": todo.id, "text": todo.text, "done": todo.done, "selected": self.selected_todo == Some(todo.id) }))
            .collect();
        json!({
            "activeComponent": self.active.name(),
            "focused": self.focus.as_ref().map(|id| format!("#{id}")),
            "counter": { "count": self.count },
            "todo": { "input": self.todo_input, "items": todos, "pending": self.pending_todos },
            "settings": {
                "darkMode": self.dark_mode,
                "theme": THEMES[self.theme],
                "advancedExpanded": self.advanced_open,
                "verbose": self.verbose,
                "cacheSize": self.cache_size,
                "logScroll": { "x": self.log_scroll.0, "y": self.log_scroll.1 },
            },
            "about": { "checkForUpdates": self.check_updates },
        })
    }
}

/// Line `index` (0-based) of the settings log. Every seventh line is long, so the log
/// also scrolls sideways.
pub fn log_line(index: usize) -> String {
    let number = index + 1;
    if number.is_multiple_of(7) {
        format!("{number:03} warn  cache miss for key session-{number}, refetching from origin")
    } else {
        format!("{number:03} info  request {number} served")
    }
}
