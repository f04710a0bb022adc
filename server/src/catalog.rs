//! Resources (static and templates) and prompts an app registers beside its tools.

use std::{collections::BTreeMap, future::Future, pin::Pin, sync::Arc};

use crate::call::SessionControl;
use crate::output::{Content, InputRequired, ResourceContents, ToolError};

/// What a resource handler returns: the contents of the resource, boxed.
pub type ResourceFuture =
    Pin<Box<dyn Future<Output = Result<Vec<ResourceContents>, ToolError>> + Send>>;
/// What a prompt handler returns: the prompt's messages (or its questions), boxed.
pub type PromptFuture = Pin<Box<dyn Future<Output = Result<PromptOutput, ToolError>> + Send>>;
pub(crate) type ResourceHandler =
    Arc<dyn Fn(String, BTreeMap<String, String>, SessionControl) -> ResourceFuture + Send + Sync>;
pub(crate) type PromptHandler =
    Arc<dyn Fn(BTreeMap<String, String>, SessionControl) -> PromptFuture + Send + Sync>;

/// What a client sees of a resource or a template besides its address: the same
/// four fields in `resources/list` and `resources/templates/list`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceInfo {
    /// Its name (`name`), an identifier.
    pub name: String,
    /// Human-readable title (`title`); `None` sends none.
    pub title: Option<String>,
    /// What it holds (`description`).
    pub description: String,
    /// The MIME type of its contents (`mimeType`), e.g. `text/plain`.
    pub mime_type: Option<String>,
}

impl ResourceInfo {
    fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        mime_type: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: description.into(),
            mime_type: Some(mime_type.into()),
        }
    }
}

/// What a client sees of a resource in `resources/list`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceSpec {
    /// The fixed URI clients read it at (`resources/read`).
    pub uri: String,
    /// Name, title, description and MIME type.
    pub info: ResourceInfo,
}

impl ResourceSpec {
    /// A resource at `uri` called `name`, described by `description`, whose
    /// contents are of type `mime_type`; no title.
    pub fn new(
        uri: impl Into<String>,
        name: impl Into<String>,
        description: impl Into<String>,
        mime_type: impl Into<String>,
    ) -> Self {
        let info = ResourceInfo::new(name, description, mime_type);
        Self {
            uri: uri.into(),
            info,
        }
    }

    /// The same resource with a human-readable title.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.info.title = Some(title.into());
        self
    }
}

/// What a client sees of a resource template in `resources/templates/list`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceTemplateSpec {
    /// RFC 6570 level 1: literal text and `{name}` variables, each matching
    /// one non-empty path segment (no `/`).
    pub uri_template: String,
    /// Name, title, description and MIME type.
    pub info: ResourceInfo,
}

impl ResourceTemplateSpec {
    /// A template of URIs `uri_template` (`test://items/{id}`) called `name`,
    /// described by `description`, whose resources are of type `mime_type`; no title.
    pub fn new(
        uri_template: impl Into<String>,
        name: impl Into<String>,
        description: impl Into<String>,
        mime_type: impl Into<String>,
    ) -> Self {
        let info = ResourceInfo::new(name, description, mime_type);
        let uri_template = uri_template.into();
        Self { uri_template, info }
    }

    /// The same template with a human-readable title.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.info.title = Some(title.into());
        self
    }

    /// The variables of `uri` when it matches this template.
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        match_template(&self.uri_template, uri)
    }
}

/// One argument of a prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptArgument {
    /// Its name, the key of its value in `prompts/get`'s `arguments`.
    pub name: String,
    /// What the value is for.
    pub description: String,
    /// Whether `prompts/get` without it is refused (-32602) before the handler runs.
    pub required: bool,
}

impl PromptArgument {
    /// An argument the client must give.
    pub fn required(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            required: true,
        }
    }

    /// An argument the client may leave out.
    pub fn optional(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            required: false,
        }
    }
}

/// What a client sees of a prompt in `prompts/list`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptSpec {
    /// What `prompts/get` names.
    pub name: String,
    /// Human-readable title; `None` sends none.
    pub title: Option<String>,
    /// What the prompt is for.
    pub description: String,
    /// Its arguments, in order; every value is a string.
    pub arguments: Vec<PromptArgument>,
}

impl PromptSpec {
    /// A prompt called `name`, described by `description`, without arguments or title.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            title: None,
            description: description.into(),
            arguments: Vec::new(),
        }
    }

    /// The same prompt with a human-readable title.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The same prompt with one more argument (after those already added).
    pub fn with_argument(mut self, argument: PromptArgument) -> Self {
        self.arguments.push(argument);
        self
    }
}

/// Who says a prompt message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptRole {
    /// Said by the user.
    User,
    /// Said by the assistant (the model).
    Assistant,
}

/// One message of a prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptMessage {
    /// Who says it.
    pub role: PromptRole,
    /// What is said: text, an image, audio or an embedded resource.
    pub content: Content,
}

impl PromptMessage {
    /// A message from the user.
    pub fn user(content: Content) -> Self {
        Self {
            role: PromptRole::User,
            content,
        }
    }

    /// A message from the assistant.
    pub fn assistant(content: Content) -> Self {
        Self {
            role: PromptRole::Assistant,
            content,
        }
    }
}

/// What a prompt handler returns.
#[derive(Debug, Clone)]
pub enum PromptOutput {
    /// The prompt itself (`prompts/get`'s result).
    Messages {
        /// A description of this rendering of the prompt; `None` sends none.
        description: Option<String>,
        /// The messages, in order.
        messages: Vec<PromptMessage>,
    },
    /// The prompt needs answers from the client first (2026-07-28).
    InputRequired(InputRequired),
}

impl PromptOutput {
    /// These messages, without a description.
    pub fn messages(messages: impl IntoIterator<Item = PromptMessage>) -> Self {
        Self::Messages {
            description: None,
            messages: messages.into_iter().collect(),
        }
    }
}

#[derive(Clone, Default)]
pub(crate) struct Catalog {
    resources: Vec<(ResourceSpec, ResourceHandler)>,
    templates: Vec<(ResourceTemplateSpec, ResourceHandler)>,
    prompts: Vec<(PromptSpec, PromptHandler)>,
}

impl Catalog {
    pub(crate) fn add_resource(&mut self, spec: ResourceSpec, read: ResourceHandler) {
        self.resources
            .retain(|(existing, _)| existing.uri != spec.uri);
        self.resources.push((spec, read));
    }

    pub(crate) fn add_template(&mut self, spec: ResourceTemplateSpec, read: ResourceHandler) {
        self.templates
            .retain(|(existing, _)| existing.uri_template != spec.uri_template);
        self.templates.push((spec, read));
    }

    pub(crate) fn add_prompt(&mut self, spec: PromptSpec, get: PromptHandler) {
        self.prompts
            .retain(|(existing, _)| existing.name != spec.name);
        self.prompts.push((spec, get));
    }

    pub(crate) fn resources(&self) -> impl Iterator<Item = &ResourceSpec> {
        self.resources.iter().map(|(spec, _)| spec)
    }

    pub(crate) fn templates(&self) -> impl Iterator<Item = &ResourceTemplateSpec> {
        self.templates.iter().map(|(spec, _)| spec)
    }

    pub(crate) fn prompts(&self) -> impl Iterator<Item = &PromptSpec> {
        self.prompts.iter().map(|(spec, _)| spec)
    }

    pub(crate) fn has_resources(&self) -> bool {
        !self.resources.is_empty() || !self.templates.is_empty()
    }

    pub(crate) fn has_prompts(&self) -> bool {
        !self.prompts.is_empty()
    }

    /// Whether some registered resource or template serves `uri`.
    pub(crate) fn serves(&self, uri: &str) -> bool {
        self.resources.iter().any(|(spec, _)| spec.uri == uri)
            || self
                .templates
                .iter()
                .any(|(spec, _)| spec.matches(uri).is_some())
    }

    pub(crate) fn read(&self, uri: &str, control: SessionControl) -> Option<ResourceFuture> {
        if let Some((_, read)) = self.resources.iter().find(|(spec, _)| spec.uri == uri) {
            return Some(read(uri.to_owned(), BTreeMap::new(), control));
        }
        self.templates.iter().find_map(|(spec, read)| {
            spec.matches(uri)
                .map(|vars| read(uri.to_owned(), vars, control.clone()))
        })
    }

    pub(crate) fn get_prompt(
        &self,
        name: &str,
        args: BTreeMap<String, String>,
        control: SessionControl,
    ) -> Option<Result<PromptFuture, ToolError>> {
        let (spec, get) = self.prompts.iter().find(|(spec, _)| spec.name == name)?;
        Some(check_prompt_arguments(spec, &args).map(|()| get(args, control)))
    }
}

/// Required arguments present; no argument the prompt does not take.
fn check_prompt_arguments(
    spec: &PromptSpec,
    args: &BTreeMap<String, String>,
) -> Result<(), ToolError> {
    let missing: Vec<&str> = spec
        .arguments
        .iter()
        .filter(|arg| arg.required && !args.contains_key(&arg.name))
        .map(|arg| arg.name.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(ToolError::invalid(format!(
            "prompt `{}` needs the argument(s) {}",
            spec.name,
            quoted(&missing)
        )));
    }
    let unknown: Vec<&str> = args
        .keys()
        .filter(|key| !spec.arguments.iter().any(|arg| &arg.name == *key))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        let known: Vec<&str> = spec.arguments.iter().map(|arg| arg.name.as_str()).collect();
        return Err(ToolError::invalid(format!(
            "prompt `{}` takes no argument {}; it takes {}",
            spec.name,
            quoted(&unknown),
            if known.is_empty() {
                "none".to_owned()
            } else {
                quoted(&known)
            }
        )));
    }
    Ok(())
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// RFC 6570 level 1 matching: literals must match exactly, each `{var}` takes
/// one non-empty run of characters up to the next literal, never a `/`.
fn match_template(template: &str, uri: &str) -> Option<BTreeMap<String, String>> {
    let mut vars = BTreeMap::new();
    let mut rest_template = template;
    let mut rest_uri = uri;
    loop {
        match rest_template.find('{') {
            None => return (rest_template == rest_uri).then_some(vars),
            Some(open) => {
                let literal = &rest_template[..open];
                rest_uri = rest_uri.strip_prefix(literal)?;
                let close = rest_template[open..].find('}')? + open;
                let name = &rest_template[open + 1..close];
                rest_template = &rest_template[close + 1..];
                // The value runs to the next literal character (or the end), within one segment.
                let stop = rest_template.chars().next();
                let end = rest_uri
                    .char_indices()
                    .find(|&(_, c)| c == '/' || Some(c) == stop)
                    .map_or(rest_uri.len(), |(i, _)| i);
                if end == 0 || name.is_empty() {
                    return None;
                }
                vars.insert(name.to_owned(), rest_uri[..end].to_owned());
                rest_uri = &rest_uri[end..];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_match_one_segment_per_variable() {
        let vars = match_template("test://template/{id}/data", "test://template/123/data");
        assert_eq!(vars, Some(BTreeMap::from([("id".into(), "123".into())])));
        assert_eq!(
            match_template("test://template/{id}/data", "test://template//data"),
            None
        );
        assert_eq!(
            match_template("test://template/{id}/data", "test://template/1/2/data"),
            None
        );
        assert_eq!(
            match_template("test://template/{id}/data", "test://template/1/datum"),
            None
        );
        assert_eq!(
            match_template("app://todos/{index}", "app://todos/3"),
            Some(BTreeMap::from([("index".into(), "3".into())]))
        );
        assert_eq!(match_template("app://todos/{index}", "app://todos/"), None);
        assert_eq!(
            match_template("x://{a}.{b}", "x://one.two"),
            Some(BTreeMap::from([
                ("a".into(), "one".into()),
                ("b".into(), "two".into())
            ]))
        );
    }
}
