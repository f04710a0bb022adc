//! One UI element: its kind, the properties a client sees, and what app state it is bound to.

use serde_json::{Map, Value, json};

/// Element types, named as clients write them in selectors (matched case-insensitively).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Window,
    Panel,
    Text,
    Button,
    TextBox,
    List,
    ListItem,
    Toggle,
    CheckBox,
    Expander,
    ScrollViewer,
}

impl Kind {
    pub const ALL: [Kind; 11] = [
        Kind::Window,
        Kind::Panel,
        Kind::Text,
        Kind::Button,
        Kind::TextBox,
        Kind::List,
        Kind::ListItem,
        Kind::Toggle,
        Kind::CheckBox,
        Kind::Expander,
        Kind::ScrollViewer,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Window => "Window",
            Kind::Panel => "Panel",
            Kind::Text => "Text",
            Kind::Button => "Button",
            Kind::TextBox => "TextBox",
            Kind::List => "List",
            Kind::ListItem => "ListItem",
            Kind::Toggle => "Toggle",
            Kind::CheckBox => "CheckBox",
            Kind::Expander => "Expander",
            Kind::ScrollViewer => "ScrollViewer",
        }
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(name))
    }

    /// Containers that clip their children: a child outside their bounds is not visible.
    pub fn clips_children(self) -> bool {
        matches!(self, Kind::List | Kind::ScrollViewer)
    }

    /// Whether keyboard focus can land on this kind of element.
    pub fn focusable(self) -> bool {
        matches!(
            self,
            Kind::Button
                | Kind::TextBox
                | Kind::List
                | Kind::ListItem
                | Kind::Toggle
                | Kind::CheckBox
                | Kind::Expander
                | Kind::ScrollViewer
        )
    }
}

/// A rectangle in window coordinates (pixels, origin top-left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
}

impl Rect {
    pub const fn new(x: i32, y: i32, width: i32, height: i32) -> Self {
        Self {
            x,
            y,
            width,
            height,
        }
    }

    pub fn bottom(&self) -> i32 {
        self.y + self.height
    }

    pub fn right(&self) -> i32 {
        self.x + self.width
    }

    pub fn intersects(&self, other: &Rect) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }

    pub fn intersection(&self, other: &Rect) -> Rect {
        let x = self.x.max(other.x);
        let y = self.y.max(other.y);
        let right = self.right().min(other.right());
        let bottom = self.bottom().min(other.bottom());
        Rect::new(x, y, (right - x).max(0), (bottom - y).max(0))
    }

    pub fn to_json(self) -> Value {
        json!({ "x": self.x, "y": self.y, "width": self.width, "height": self.height })
    }
}

/// The app state an element shows and changes; actions dispatch on this, never on ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// Shows state but has no behaviour of its own.
    Inert,
    Command(Command),
    Flag(Flag),
    Field(Field),
    /// A list whose items can be selected.
    List(ListKind),
    /// An item of a list, identified by a key that survives edits (todo id, theme index).
    Item(ListKind, u64),
    /// The settings page's "Advanced" expander.
    Advanced,
    /// The settings page's scrollable log.
    Log,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Increment,
    Decrement,
    AddTodo,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    DarkMode,
    Verbose,
    CheckUpdates,
    TodoDone(u64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    TodoInput,
    CacheSize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    Todos,
    Theme,
}

/// Scroll position and range of a scrollable element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Scroll {
    pub x: i32,
    pub y: i32,
    pub max_x: i32,
    pub max_y: i32,
}

/// A UI element as clients see it (children live in the [`super::tree::Tree`]).
#[derive(Debug, Clone)]
pub struct Element {
    pub id: String,
    pub kind: Kind,
    pub name: String,
    pub text: String,
    pub bounds: Rect,
    pub visible: bool,
    pub enabled: bool,
    pub focused: bool,
    pub checked: Option<bool>,
    pub selected: Option<bool>,
    pub expanded: Option<bool>,
    pub value: Option<String>,
    pub scroll: Option<Scroll>,
    pub binding: Binding,
    /// The view module that builds this element (reported by `includeReactorSource`).
    pub source: &'static str,
}

impl Element {
    pub fn new(
        kind: Kind,
        id: impl Into<String>,
        name: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            kind,
            name: name.into(),
            text: text.into(),
            bounds: Rect::default(),
            visible: true,
            enabled: true,
            focused: false,
            checked: None,
            selected: None,
            expanded: None,
            value: None,
            scroll: None,
            binding: Binding::Inert,
            source: "",
        }
    }

    /// A check box or toggle labelled `label` (its name and text), bound to `flag`
    /// and checked when `on`.
    pub fn for_flag(kind: Kind, id: &str, label: &str, flag: Flag, on: bool) -> Self {
        let mut element = Self::new(kind, id, label, label).bound(Binding::Flag(flag));
        element.checked = Some(on);
        element
    }

    /// A text box named `name`, bound to `field` and showing its `value`.
    pub fn for_field(id: &str, name: &str, field: Field, value: &str) -> Self {
        let mut element = Self::new(Kind::TextBox, id, name, value).bound(Binding::Field(field));
        element.value = Some(value.to_owned());
        element
    }

    pub fn at(mut self, bounds: Rect) -> Self {
        self.bounds = bounds;
        self
    }

    pub fn bound(mut self, binding: Binding) -> Self {
        self.binding = binding;
        self
    }

    /// How this element is named in messages: `#id`.
    pub fn label(&self) -> String {
        format!("`#{}`", self.id)
    }

    /// The value of a selector attribute (`[name="…"]`), as text.
    pub fn attribute(&self, attr: &str) -> Option<String> {
        let flag = |value: Option<bool>| value.map(|v| v.to_string());
        match attr {
            "id" => Some(self.id.clone()),
            "type" => Some(self.kind.name().to_owned()),
            "name" => Some(self.name.clone()),
            "text" => Some(self.text.clone()),
            "value" => self.value.clone(),
            "visible" => Some(self.visible.to_string()),
            "enabled" => Some(self.enabled.to_string()),
            "focused" => Some(self.focused.to_string()),
            "checked" => flag(self.checked),
            "selected" => flag(self.selected),
            "expanded" => flag(self.expanded),
            _ => None,
        }
    }

    /// Every property, as `state` and the full `tree` view report it.
    pub fn full_json(&self) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("id".into(), json!(self.id));
        map.insert("type".into(), json!(self.kind.name()));
        map.insert("name".into(), json!(self.name));
        map.insert("text".into(), json!(self.text));
        map.insert("bounds".into(), self.bounds.to_json());
        map.insert("visible".into(), json!(self.visible));
        map.insert("enabled".into(), json!(self.enabled));
        map.insert("focused".into(), json!(self.focused));
        self.insert_optional_states(&mut map);
        map
    }

    /// Identity plus the states that differ from the default, for the summary `tree` view.
    pub fn summary_json(&self) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("id".into(), json!(self.id));
        map.insert("type".into(), json!(self.kind.name()));
        if !self.name.is_empty() {
            map.insert("name".into(), json!(self.name));
        }
        if !self.text.is_empty() {
            map.insert("text".into(), json!(self.text));
        }
        if !self.enabled {
            map.insert("enabled".into(), json!(false));
        }
        if self.focused {
            map.insert("focused".into(), json!(true));
        }
        self.insert_optional_states(&mut map);
        map
    }

    fn insert_optional_states(&self, map: &mut Map<String, Value>) {
        let optional = [
            ("checked", self.checked),
            ("selected", self.selected),
            ("expanded", self.expanded),
        ];
        for (key, value) in optional {
            if let Some(value) = value {
                map.insert(key.into(), json!(value));
            }
        }
        if let Some(value) = &self.value {
            map.insert("value".into(), json!(value));
        }
        if let Some(scroll) = self.scroll {
            let scroll =
                json!({ "x": scroll.x, "y": scroll.y, "maxX": scroll.max_x, "maxY": scroll.max_y });
            map.insert("scroll".into(), scroll);
        }
    }
}
