//! How a tool's result is printed, the one place `call`, derived verbs and data verbs
//! meet ([`print()`]; a named verb's `shape` writes its own stdout): on purpose, each
//! prints a different part of it ([`Printed`]). A derived verb's is [`Shown`]: the
//! tool's own data, its media left out for a note naming them and the `call` that
//! prints them. A failed tool's result is printed by none of them but carried by its
//! error as it came, the same for every kind ([`crate::invoke::settle`]), and so is the
//! result of a verb that fails after its call ([`after_the_call`]).

use mur_client::tool_result::{self, left_out, payload};
use mur_core::{Error, Kind, Result, Settings};
use mur_verbs::data::DataVerb;
use serde_json::{Map, Value, json};

use crate::media::{self, Target};
use crate::output;

/// What a command prints of a tool's result (or, for `call`, a method's). They differ on
/// purpose, and only here.
pub enum Printed<'a> {
    /// `call`: the result whole, as compact or `--pretty` JSON even when it is prose:
    /// `call` is the protocol as the tool (or the server) gave it, for a script to read
    /// every field of; its `--out` writes the media and names each file in its block.
    Whole,
    /// A derived verb: what [`Shown`] picks of the result, prose as text with
    /// `--pretty`, and a note on what it left out; `save` says where its media can be
    /// written. With the verb's `--out` the media go there and the rest is printed as
    /// without it, saying where they went.
    Shown {
        save: Save<'a>,
        tool: &'a str,
        arguments: &'a Map<String, Value>,
    },
    /// A data verb: the value at its `output` pointer in the result's payload, printed
    /// as a derived verb's value is (it has no `--out`, and no note: its author picked
    /// the value).
    Picked(&'a DataVerb),
}

/// Prints `result` as `printed` says; with `target` (`--out`), its media written there
/// first ([`media::save`], [`media::save_shown`]).
pub fn print(
    result: Value,
    target: Option<&Target>,
    printed: Printed,
    settings: &Settings,
) -> Result<()> {
    match printed {
        Printed::Whole => match target {
            Some(target) => media::save(result, target, settings),
            None => output::json(&result, settings.pretty),
        },
        Printed::Shown {
            save,
            tool,
            arguments,
        } => {
            let show = |result: &Value| {
                let shown = Shown::of(result);
                let notes = unprinted(result, &shown, settings, tool, arguments, save);
                (shown.value, notes)
            };
            if let Some(target) = target {
                return media::save_shown(result, target, settings, &show);
            }
            let (value, notes) = show(&result);
            output::shown(&value, &notes, settings)
        }
        Printed::Picked(verb) => {
            let picked = verb.pick(&payload(&result)).map_err(|message| {
                let e = Error::new(Kind::Plugin, format!("verb `{}`: {message}", verb.name));
                after_the_call(e, &verb.tool, &result, settings)
            })?;
            output::shown(&picked, &[], settings)
        }
    }
}

/// `e`, a verb's failure after its tool `tool` ran (a named verb's `shape`, a file it
/// asked for refused, a data verb's `output` not in the result): the call's effect
/// stands, so it says so, and it carries `result` as it is for stdout, so nothing the
/// tool said is lost — as `--out` prints it when a file cannot be written.
pub fn after_the_call(e: Error, tool: &str, result: &Value, settings: &Settings) -> Error {
    let error = e.with_hint(format!(
        "the `{tool}` call itself already ran; its result is printed as it is"
    ));
    match output::render_json(result, settings.pretty) {
        Ok(stdout) => error.with_stdout(stdout.into_bytes()),
        Err(_) => error,
    }
}

/// What a derived verb prints of a tool's result, and what it leaves out.
///
/// `structuredContent` when there is one (the tool's own data), else the content: one
/// text block is printed as it reads (JSON when it is JSON, else the string), as a named
/// verb's is; several blocks — a caption and the resource links it introduces, prose
/// around an embedded resource, a question's answer in a few lines — are printed as an
/// array of them in order, each text as its one block would be and any other block
/// (`resource_link`, an embedded text `resource`) as it came, so the data is printed,
/// not only the line introducing it. Media (images, audio, blobs) are never printed:
/// their base64 is no reading, and the note names them with `--out`.
struct Shown {
    value: Value,
    /// The kinds of the content blocks not printed (`image`), for the note.
    left_out: Vec<String>,
    /// What was printed, for the note: "the structured content", "the text", "the 2
    /// blocks".
    printed: String,
    /// The whole result was printed, its media's base64 taken out (a result with no
    /// text: an image alone, a blob): the note says whose base64 it was.
    elided: bool,
}

impl Shown {
    fn of(result: &Value) -> Self {
        let blocks = result["content"].as_array().map_or(&[][..], Vec::as_slice);
        if let Some(structured) = result.get("structuredContent") {
            // Each block as `left_out` judges it beside the structured content (a text
            // that repeats it is no news), but a medium the structured content holds
            // too (server-filesystem's `read_media_file` returns its image both ways)
            // was printed there, and so was a text that is one of its items.
            let left_out = blocks
                .iter()
                .filter(|block| {
                    let alone = json!({ "content": [block], "structuredContent": structured });
                    !left_out(&alone).is_empty()
                        && !media_data(block).is_some_and(|data| holds(structured, data))
                        && !is_part_of(block, structured)
                })
                .map(kind)
                .collect();
            return Self {
                value: structured.clone(),
                left_out,
                printed: "the structured content".to_owned(),
                elided: false,
            };
        }
        let (media, shown): (Vec<&Value>, Vec<&Value>) =
            blocks.iter().partition(|b| media_data(b).is_some());
        if shown.len() < 2 && tool_result::first_text(result).is_some() {
            return Self {
                value: payload(result),
                left_out: left_out(result).into_iter().map(str::to_owned).collect(),
                printed: "the text".to_owned(),
                elided: false,
            };
        }
        if shown.len() < 2 {
            // No text to print in its place: the result as it came, but for its media's
            // base64 (an image alone put 100 KB of it on stdout, into an agent's context).
            let mut value = result.clone();
            if let Some(blocks) = value["content"].as_array_mut() {
                blocks.iter_mut().for_each(without_base64);
            }
            return Self {
                value,
                left_out: media.into_iter().map(kind).collect(),
                printed: "the result".to_owned(),
                elided: true,
            };
        }
        let value = shown
            .iter()
            .map(|block| match block["text"].as_str() {
                Some(text) if block["type"] == "text" => {
                    serde_json::from_str(text).unwrap_or_else(|_| Value::from(text))
                }
                _ => (*block).clone(),
            })
            .collect();
        Self {
            value,
            left_out: media.into_iter().map(kind).collect(),
            printed: format!("the {} blocks", shown.len()),
            elided: false,
        }
    }
}

/// A content block without its base64: an `image`'s or `audio`'s `data`, an embedded
/// resource's `blob` (its type, MIME type and URI stay).
fn without_base64(block: &mut Value) {
    if media_data(block).is_none() {
        return;
    }
    let Some(fields) = block.as_object_mut() else {
        return;
    };
    // `shift_remove`: the rest of the block stays in the server's order (`remove`
    // moves the last key into the gap).
    fields.shift_remove("data");
    if let Some(resource) = fields.get_mut("resource").and_then(Value::as_object_mut) {
        resource.shift_remove("blob");
    }
}

fn kind(block: &Value) -> String {
    block["type"].as_str().unwrap_or("unknown").to_owned()
}

/// The base64 of a medium: an `image` or `audio` block's `data`, an embedded
/// resource's `blob`.
fn media_data(block: &Value) -> Option<&str> {
    match block["type"].as_str()? {
        "image" | "audio" => block["data"].as_str(),
        "resource" => block["resource"]["blob"].as_str(),
        _ => None,
    }
}

/// Whether `value` holds the string `text` anywhere.
fn holds(value: &Value, text: &str) -> bool {
    match value {
        Value::String(s) => s == text,
        Value::Array(items) => items.iter().any(|v| holds(v, text)),
        Value::Object(object) => object.values().any(|v| holds(v, text)),
        _ => false,
    }
}

/// Whether text block `block` is an item or a value of `structured`, or of the one
/// value it wraps (the Python SDK's `{"result": …}`): its JSON, or its text as a string.
/// FastMCP 1.x returns a list as one text block per item beside `{"result": [items]}`;
/// each one was printed there, and a note on every list said otherwise.
fn is_part_of(block: &Value, structured: &Value) -> bool {
    let Some(text) = block["text"].as_str().filter(|_| block["type"] == "text") else {
        return false;
    };
    let parsed = serde_json::from_str::<Value>(text).ok();
    let wrapped = structured
        .as_object()
        .filter(|object| object.len() == 1)
        .and_then(|object| object.values().next());
    parts(structured)
        .into_iter()
        .chain(wrapped.map(parts).unwrap_or_default())
        .any(|part| part.as_str() == Some(text) || parsed.as_ref() == Some(part))
}

/// The items of an array, the values of an object; nothing of a scalar.
fn parts(value: &Value) -> Vec<&Value> {
    match value {
        Value::Array(items) => items.iter().collect(),
        Value::Object(object) => object.values().collect(),
        _ => Vec::new(),
    }
}

/// Where a derived verb's result's media can be written, for the note.
#[derive(Clone, Copy)]
pub enum Save<'a> {
    /// Only by `call … --out`: the verb's `--out` is the tool's own argument.
    Call,
    /// By the verb's own `--out FILE` too (the verb's name), not given.
    Verb(&'a str),
    /// Written by the verb's `--out`, to this path as typed (never `-`: the media went
    /// to stdout, and nothing else is printed).
    Written(&'a str),
}

/// A note naming the content blocks the verb did not print (an image beside a
/// caption), and the command that prints them: nothing the tool returned is
/// dropped without a word. The command carries `--out` when the result has media:
/// without it `call` prints their base64, 10 KB for the sample's `overview`, into the
/// agent's context; with the path the verb's `--out` was given, that path.
fn unprinted(
    result: &Value,
    shown: &Shown,
    settings: &Settings,
    tool: &str,
    arguments: &Map<String, Value>,
    save: Save,
) -> Vec<String> {
    let kinds = &shown.left_out;
    if kinds.is_empty() {
        return Vec::new();
    }
    let blocks = if kinds.len() == 1 { "block" } else { "blocks" };
    let printed = &shown.printed;
    let call = call_command(settings, tool, arguments);
    // An image, audio, or a resource's blob; a text resource is no medium.
    let media = mur_client::tool_result::media(result).is_ok_and(|media| !media.is_empty());
    // Said once, after the command: the note is read into every agent's context.
    let whole = match (media, save) {
        // Judged on the result without the blocks written, which had media.
        (_, Save::Written(path)) => format!(
            "`{call} --out {}` prints the whole result",
            mur_core::shell_word(path)
        ),
        (false, _) => format!("`{call}` prints the whole result"),
        (true, Save::Verb(verb)) => format!(
            "`{call} --out FILE` prints the whole result and writes its media to FILE, as \
             `--out FILE` after `{verb}` does"
        ),
        (true, Save::Call) => {
            format!("`{call} --out FILE` prints the whole result and writes its media to FILE")
        }
    };
    if shown.elided {
        return vec![format!(
            "note: the result was printed without the base64 of its {} {blocks}; {whole}",
            kinds.join(", "),
        )];
    }
    vec![format!(
        "note: the result has {} more content {blocks} ({}) than {printed} printed; {whole}",
        kinds.len(),
        kinds.join(", "),
    )]
}

/// The `call` that makes the same tool call as a verb did and prints its whole result,
/// ready to paste: `mur devtools call get-sum --args '{"a":1,"b":2}'`, from the same
/// session ([`Settings::devtools_command`]), with the `--answer`s given: a tool that
/// asked a question asks it again, and without them the call would end unanswered.
/// A tool whose name `call` sends as a method (`inventory/list`, `ping`) is called
/// through `tools/call`, its name and arguments the params, as `call --help` says.
fn call_command(settings: &Settings, tool: &str, arguments: &Map<String, Value>) -> String {
    let devtools = settings.devtools_command();
    let answers: String = settings
        .answers
        .iter()
        .map(|(key, value)| {
            format!(
                " --answer {}",
                mur_core::shell_word(&format!("{key}={value}"))
            )
        })
        .collect();
    let arguments = Value::Object(arguments.clone());
    let call = crate::call_line::call_line(
        &devtools,
        tool,
        crate::call_line::Arguments::Given(&arguments),
    );
    format!("{call}{answers}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::HostArgs;

    /// A media block written to a file keeps its other keys in the server's order:
    /// `Map::remove` moved the last key into `data`'s place.
    #[test]
    fn a_block_without_its_base64_keeps_the_servers_order() {
        let mut block = json!({
            "type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png",
            "annotations": {"audience": ["user"]}
        });
        without_base64(&mut block);
        let keys: Vec<&String> = block.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["type", "mimeType", "annotations"]);
    }

    fn settings() -> Settings {
        crate::options::settings(&HostArgs::default())
    }

    /// The call [`call_command`] repeats for `tool` with `args` (an object), without
    /// host options.
    fn call_of(tool: &str, args: Value) -> String {
        let args = args.as_object().cloned().unwrap_or_default();
        call_command(&settings(), tool, &args)
    }

    #[test]
    fn the_call_in_a_hint_is_the_same_call_ready_to_paste() {
        assert_eq!(
            call_of("get-tiny-image", json!({})),
            "mur devtools call get-tiny-image"
        );
        assert_eq!(
            call_of("say it", json!({"text": "it's"})),
            r#"mur devtools call 'say it' --args '{"text":"it'\''s"}'"#
        );
        let long = "x".repeat(crate::call_line::MAX_HINT_ARGUMENTS);
        assert_eq!(
            call_of("echo", json!({ "message": long })),
            "mur devtools call echo --args JSON"
        );
        // The answers given go with it: the tool asks its question again.
        let answered = Settings {
            answers: vec![
                ("name".into(), "Ada Lovelace".into()),
                ("check".into(), "yes".into()),
            ],
            ..settings()
        };
        assert_eq!(
            call_command(&answered, "ask", &Map::new()),
            "mur devtools call ask --answer 'name=Ada Lovelace' --answer check=yes"
        );
    }

    /// `call inventory/list` and `call ping` send a method (`call --help`): a tool of
    /// such a name is called through `tools/call`, its name and arguments the params.
    #[test]
    fn the_call_of_a_tool_named_like_a_method_goes_through_tools_call() {
        assert_eq!(
            call_of("inventory/list", json!({})),
            r#"mur devtools call tools/call --args '{"name":"inventory/list","arguments":{}}'"#
        );
        assert_eq!(
            call_of("ping", json!({"note": "it's"})),
            r#"mur devtools call tools/call --args '{"name":"ping","arguments":{"note":"it'\''s"}}'"#
        );
        let long = "x".repeat(crate::call_line::MAX_HINT_ARGUMENTS);
        assert_eq!(
            call_of("a/b", json!({ "message": long })),
            r#"mur devtools call tools/call --args '{"name":"a/b","arguments":JSON}'"#
        );
        assert_eq!(
            call_of("pinged", json!({})),
            "mur devtools call pinged",
            "only `ping` itself is a method"
        );
    }

    /// FastMCP 1.x returns a list as one text block per item beside `{"result": […]}`:
    /// each was printed there, and no note says otherwise; a block that carries more
    /// (a warning beside the items) still gets one.
    #[test]
    fn text_blocks_that_are_the_structured_contents_items_get_no_note() {
        let text = |t: &str| json!({ "type": "text", "text": t });
        let note = |content: Value, structured: Value| {
            let result = json!({ "content": content, "structuredContent": structured });
            let shown = Shown::of(&result);
            unprinted(&result, &shown, &settings(), "t", &Map::new(), Save::Call).join("\n")
        };
        let items = json!({ "result": [{ "sku": "A1", "count": 3 }, { "sku": "B2", "count": 0 }] });
        let listed = json!([
            text("{\n  \"sku\": \"A1\",\n  \"count\": 3\n}"),
            text("{\"count\": 0, \"sku\": \"B2\"}"),
        ]);
        assert_eq!(note(listed, items.clone()), "");
        assert_eq!(
            note(
                json!([text("a"), text("b")]),
                json!({ "result": ["a", "b"] })
            ),
            ""
        );
        assert_eq!(
            note(json!([text("3")]), json!({ "sku": "A1", "count": 3 })),
            ""
        );
        assert_eq!(
            note(
                json!([
                    text("{\"sku\": \"A1\", \"count\": 3}"),
                    text("B2 is out of stock")
                ]),
                items
            ),
            "note: the result has 1 more content block (text) than the structured content \
             printed; `mur devtools call t` prints the whole result"
        );
        assert_eq!(
            note(
                json!([text("{\"sku\": \"C3\"}")]),
                json!({ "result": [{ "sku": "C3", "count": 1 }] })
            ),
            "note: the result has 1 more content block (text) than the structured content \
             printed; `mur devtools call t` prints the whole result",
            "a part of an item is no item"
        );
    }

    /// One text is printed as it reads; several blocks as an array of them (each text as
    /// it reads, a link or an embedded text resource as it came), media left out for the
    /// note; beside `structuredContent`, a medium it holds too was printed.
    #[test]
    fn a_result_of_several_blocks_prints_each_but_its_media() {
        let shown = |result: Value| {
            let shown = Shown::of(&result);
            (shown.value, shown.left_out, shown.printed)
        };
        let text = |t: &str| json!({ "type": "text", "text": t });
        let image = json!({ "type": "image", "data": "iVBORw==", "mimeType": "image/png" });
        let link = json!({ "type": "resource_link", "uri": "demo://1", "name": "One" });
        assert_eq!(
            shown(json!({ "content": [text("{\"a\":1}")] })),
            (json!({ "a": 1 }), vec![], "the text".to_owned())
        );
        assert_eq!(
            shown(json!({ "content": [text("A caption"), image.clone()] })),
            (
                json!("A caption"),
                vec!["image".to_owned()],
                "the text".to_owned()
            )
        );
        assert_eq!(
            shown(json!({ "content": [text("Here are 2 links:"), link.clone(), link.clone()] })),
            (
                json!(["Here are 2 links:", link, link]),
                vec![],
                "the 3 blocks".to_owned()
            )
        );
        assert_eq!(
            shown(json!({ "content": [text("Here:"), image.clone(), text("[1, 2]")] })),
            (
                json!(["Here:", [1, 2]]),
                vec!["image".to_owned()],
                "the 2 blocks".to_owned()
            )
        );
        let copied =
            json!({ "content": [image.clone()], "structuredContent": { "content": [image] } });
        assert_eq!(
            shown(copied.clone()),
            (
                copied["structuredContent"].clone(),
                vec![],
                "the structured content".to_owned()
            )
        );
    }

    /// A result with no text — an image alone, an embedded blob — is printed as it came
    /// but for the base64, which the note names (100 KB of it were printed).
    #[test]
    fn a_medium_without_text_is_printed_without_its_base64() {
        let image = json!({ "type": "image", "data": "iVBORw==", "mimeType": "image/png" });
        let blob = json!({ "type": "resource",
            "resource": { "uri": "file:///a.gz", "mimeType": "application/gzip", "blob": "H4sI" } });
        let result = json!({ "content": [image, blob] });
        let shown = Shown::of(&result);
        assert_eq!(
            shown.value,
            json!({ "content": [
                { "type": "image", "mimeType": "image/png" },
                { "type": "resource",
                  "resource": { "uri": "file:///a.gz", "mimeType": "application/gzip" } },
            ] })
        );
        assert_eq!(
            unprinted(
                &result,
                &shown,
                &settings(),
                "t",
                &Map::new(),
                Save::Verb("t")
            ),
            [
                "note: the result was printed without the base64 of its image, resource blocks; \
              `mur devtools call t --out FILE` prints the whole result and writes its media to \
              FILE, as `--out FILE` after `t` does"
            ]
        );
        let link = json!({ "content": [{ "type": "resource_link", "uri": "demo://1" }] });
        assert_eq!(
            Shown::of(&link).value,
            link,
            "no medium: the result as it came"
        );
        assert!(
            unprinted(
                &link,
                &Shown::of(&link),
                &settings(),
                "t",
                &Map::new(),
                Save::Verb("t")
            )
            .is_empty()
        );
    }

    /// The note under a result of these content blocks (and empty structured content)
    /// from tool `t`; `save` as `unprinted` takes it.
    fn note_on(content: Value, save: Save) -> String {
        let result = json!({ "content": content, "structuredContent": {} });
        let shown = Shown::of(&result);
        unprinted(&result, &shown, &settings(), "t", &Map::new(), save).join("\n")
    }

    /// `--out` is offered for what it writes: an image, audio or a blob, never a text
    /// resource; the `call` named carries it, since without it `call` prints the base64
    /// (10 KB of it for the sample's `overview`).
    #[test]
    fn the_note_offers_out_only_for_media_and_its_call_carries_it() {
        let note = |content: Value| note_on(content, Save::Verb("tee"));
        let text_resource = note(json!([
            { "type": "resource", "resource": { "uri": "app://t", "text": "plain" } }
        ]));
        assert_eq!(
            text_resource,
            "note: the result has 1 more content block (resource) than the structured content \
             printed; `mur devtools call t` prints the whole result"
        );
        for media in [
            json!({ "type": "image", "data": "iVBORw==", "mimeType": "image/png" }),
            json!({ "type": "resource", "resource": { "uri": "app://b", "blob": "AAE=" } }),
        ] {
            let said = note(json!([media]));
            assert!(
                said.ends_with(
                    "printed; `mur devtools call t --out FILE` prints the whole result and writes \
                     its media to FILE, as `--out FILE` after `tee` does"
                ),
                "{said}"
            );
        }
        // A tool with its own `out`: the verb's `--out` is the tool's; `call`'s writes.
        let image = json!([{ "type": "image", "data": "iVBORw==", "mimeType": "image/png" }]);
        let said = note_on(image.clone(), Save::Call);
        assert!(
            said.ends_with(
                "`mur devtools call t --out FILE` prints the whole result and writes its media \
                 to FILE"
            ),
            "{said}"
        );
        // Written by the verb's `--out` (the note is made of the result without the
        // image): the same path, quoted for the shell.
        let text = json!([{ "type": "text", "text": "a caption" }]);
        let said = note_on(text, Save::Written("my shot.png"));
        assert!(
            said.ends_with("`mur devtools call t --out 'my shot.png'` prints the whole result"),
            "{said}"
        );
    }
}
