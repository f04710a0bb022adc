//! The waitFor tool: poll the UI until a condition on a selector holds, or time out.

use std::time::{Duration, Instant};

use regex::Regex;
use serde::Deserialize;
use serde_json::{Value, json};

use mur_server::{ToolError, ToolHints, ToolOutput, ToolResult, ToolSet, ToolSpec};

use super::registration::{SELECTOR_HELP, object_schema, register, selector_property};
use crate::actions::why_hidden;
use crate::app::{SampleApp, find_all};
use crate::element::Element;
use crate::selector::{self, Among, Purpose};
use crate::tree::{NodeId, Tree};

const POLL: Duration = Duration::from_millis(20);
const DEFAULT_TIMEOUT_MS: u64 = 5_000;
const MAX_TIMEOUT_MS: u64 = 600_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct WaitArgs {
    selector: String,
    text: Option<String>,
    text_matches: Option<String>,
    visible: Option<bool>,
    count: Option<usize>,
    timeout_ms: Option<u64>,
}

/// The condition, checked up front so bad input fails at once instead of after the timeout.
struct Condition {
    selector: String,
    text: Option<String>,
    pattern: Option<Regex>,
    visible: Option<bool>,
    count: Option<usize>,
}

pub fn register_tool(tools: &mut ToolSet, app: &SampleApp) {
    let schema = object_schema(
        json!({
            "selector": selector_property("the elements to watch"),
            "text": { "type": "string", "description": "wait until a matching element's text equals this" },
            "textMatches": { "type": "string", "description": "wait until a matching element's text matches this regular expression" },
            "visible": { "type": "boolean", "description": "wait until a matching element is visible (true) or hidden (false)" },
            "count": { "type": "integer", "minimum": 0, "description": "wait until exactly this many elements match (and meet the other conditions); 0 waits for them to go away" },
            "timeoutMs": { "type": "integer", "minimum": 0, "maximum": MAX_TIMEOUT_MS, "default": DEFAULT_TIMEOUT_MS, "description": "give up after this many milliseconds" },
        }),
        &["selector"],
    );
    let description = format!(
        "Wait until an element matching the selector exists and meets every given condition (polled every 20 ms). Fails with what was last seen when `timeoutMs` (default 5000) passes. {SELECTOR_HELP}"
    );
    let spec = ToolSpec::new("waitFor", description, schema, ToolHints::READ_ONLY);
    register(tools, app, spec, |app, args: WaitArgs, _| async move {
        wait_for(&app, args).await
    });
}

async fn wait_for(app: &SampleApp, args: WaitArgs) -> ToolResult {
    let timeout_ms = args.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS);
    if timeout_ms > MAX_TIMEOUT_MS {
        return Err(ToolError::new(format!(
            "`timeoutMs` is at most {MAX_TIMEOUT_MS} (10 minutes), got {timeout_ms}"
        )));
    }
    let condition = Condition::new(args, &app.tree())?;
    let start = Instant::now();
    loop {
        let tree = app.tree();
        let (satisfied, seen) = condition.check(&tree);
        if let Some(element) = satisfied {
            let elapsed = start.elapsed().as_millis() as u64;
            return Ok(ToolOutput::Json(
                json!({ "matched": true, "count": seen.matches.len(), "element": element, "elapsedMs": elapsed }),
            ));
        }
        if start.elapsed() >= Duration::from_millis(timeout_ms) {
            return Err(ToolError::new(format!(
                "timed out after {timeout_ms} ms waiting for `{}` to {}; last seen: {}",
                condition.selector,
                condition.describe(),
                seen.describe(&tree, &condition)
            )));
        }
        tokio::time::sleep(POLL).await;
    }
}

/// What the last poll found, for the timeout message.
struct Seen {
    /// The elements the selector matched.
    matches: Vec<NodeId>,
    /// How many of them met the conditions besides the count.
    meeting: usize,
}

impl Seen {
    /// What was seen in `tree`, the last look, told by what the condition looked at: how
    /// many matched and met the rest for a count, else the first's text and visibility,
    /// as far as they were waited for (a hidden todo is no cause of a count's running
    /// out). When nothing matched, with the element likely meant (`#todo-imput` for
    /// `#todo-input`), as a tool that finds none says.
    fn describe(&self, tree: &Tree, condition: &Condition) -> String {
        let selector = &condition.selector;
        let Some(&first) = self.matches.first() else {
            let scope: Vec<NodeId> = tree.ids().collect();
            let among = Among {
                tree,
                scope: &scope,
                purpose: Purpose::Read,
            };
            let likely = selector::likely(among, selector)
                .map(|hint| format!("; {hint}"))
                .unwrap_or_default();
            return format!("no element matched `{selector}`{likely}");
        };
        let matched = match self.matches.len() {
            1 => "1 element matched".to_owned(),
            count => format!("{count} elements matched"),
        };
        // Waited for to show, a hidden element is told what hides it and the tool that
        // shows it: nothing will, unless the agent does what it says.
        let told_hidden = |id: NodeId| {
            (condition.visible == Some(true))
                .then(|| why_hidden(tree, id))
                .flatten()
        };
        if let Some(wanted) = condition.count {
            let rest = condition.besides_count("with", "");
            let met = if rest.is_empty() {
                String::new()
            } else {
                format!(", {} of them {}", self.meeting, rest.join(" and "))
            };
            // What hides them is told only when showing them is what the count lacks:
            // none that would count is shown (so showing them hides none that do) and
            // one thing hides them all. Else the step would mislead: a switch away from
            // the shown ones, or to one of several places.
            let mut causes = self
                .matches
                .iter()
                .filter(|&&id| condition.fits_text(tree.element(id)))
                .map(|&id| told_hidden(id).map(|why| (id, why)));
            let hidden = match (self.meeting, causes.next().flatten()) {
                (0, Some((id, why)))
                    if causes.all(|other| other.is_some_and(|(_, w)| w == why)) =>
                {
                    format!("; {} is hidden: {why}", tree.element(id).label())
                }
                _ => String::new(),
            };
            return format!("{matched}{met}, not {wanted}{hidden}");
        }
        let element = tree.element(first);
        let mut looked = Vec::new();
        if condition.text.is_some() || condition.pattern.is_some() {
            looked.push(format!("has text `{}`", element.text));
        }
        if condition.visible.is_some() {
            looked.push(match (element.visible, told_hidden(first)) {
                (true, _) => "is visible".to_owned(),
                (false, Some(why)) => format!("is hidden: {why}"),
                (false, None) => "is hidden".to_owned(),
            });
        }
        format!(
            "{matched}; the first, {}, {}",
            element.label(),
            looked.join(" and ")
        )
    }
}

impl Condition {
    /// Checked against `tree`, the elements when the wait starts: a bare word is no
    /// selector whatever appears later, and is told what it names there, as in any tool.
    fn new(args: WaitArgs, tree: &Tree) -> Result<Self, ToolError> {
        find_all(tree, &args.selector, Purpose::Read)?;
        let pattern = args.text_matches.as_deref().map(compile).transpose()?;
        Ok(Self {
            selector: args.selector,
            text: args.text,
            pattern,
            visible: args.visible,
            count: args.count,
        })
    }

    /// Returns the first element meeting the condition (`Value::Null` when waiting for
    /// a count of 0), or `None` when the condition does not hold yet.
    fn check(&self, tree: &Tree) -> (Option<Value>, Seen) {
        let matches = find_all(tree, &self.selector, Purpose::Read).unwrap_or_default();
        let meeting: Vec<&Element> = matches
            .iter()
            .map(|&id| tree.element(id))
            .filter(|element| self.accepts(element))
            .collect();
        let holds = match self.count {
            Some(count) => meeting.len() == count,
            None => !meeting.is_empty(),
        };
        let first = meeting
            .first()
            .map_or(Value::Null, |element| Value::Object(element.full_json()));
        let seen = Seen {
            meeting: meeting.len(),
            matches,
        };
        (holds.then_some(first), seen)
    }

    fn accepts(&self, element: &Element) -> bool {
        self.fits_text(element)
            && self
                .visible
                .is_none_or(|visible| element.visible == visible)
    }

    /// Whether `element` meets the text conditions, all but its visibility.
    fn fits_text(&self, element: &Element) -> bool {
        self.text.as_ref().is_none_or(|text| element.text == *text)
            && self
                .pattern
                .as_ref()
                .is_none_or(|pattern| pattern.is_match(&element.text))
    }

    fn describe(&self) -> String {
        let mut parts = self.besides_count("have", "be ");
        if let Some(count) = self.count {
            parts.push(format!("match exactly {count} element(s)"));
        }
        if parts.is_empty() {
            parts.push("exist".to_owned());
        }
        parts.join(" and ")
    }

    /// The conditions besides the count, `has` and `is` saying them of the elements
    /// (`have text `x``, `be visible`), or of those meeting them (`with text `x``,
    /// `visible`): what a count counts.
    fn besides_count(&self, has: &str, is: &str) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(text) = &self.text {
            parts.push(format!("{has} text `{text}`"));
        }
        if let Some(pattern) = &self.pattern {
            parts.push(format!("{has} text matching `{pattern}`"));
        }
        if let Some(visible) = self.visible {
            parts.push(format!(
                "{is}{}",
                if visible { "visible" } else { "hidden" }
            ));
        }
        parts
    }
}

fn compile(pattern: &str) -> Result<Regex, ToolError> {
    Regex::new(pattern).map_err(|err| {
        // The regex crate's message spans several lines; keep the last, which says what is wrong.
        let reason = err
            .to_string()
            .lines()
            .last()
            .unwrap_or_default()
            .trim_start_matches("error: ")
            .to_owned();
        ToolError::new(format!("bad regex `{pattern}` in `textMatches`: {reason}"))
    })
}
