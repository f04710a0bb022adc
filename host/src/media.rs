//! `call --out PATH` (and a derived verb's): what a result carries as base64 (images,
//! audio, blobs) written to files, or the first one's bytes to stdout; then printed
//! what the command prints without `--out`, saying where the bytes went. `call`: the
//! result, each written block's data replaced by its `path` and `bytes`, and so is any
//! copy of that data in `structuredContent` (the file holds the bytes, stdout does not
//! repeat them). A derived verb: what it prints (its structured content, its text…) with
//! the file's `path` and `bytes` added ([`save_shown`]).

use std::path::{Path, PathBuf};

use mur_client::tool_result;
use mur_core::{Error, Result, Settings};
use serde_json::{Value, json};

use crate::output;

/// Where `--out` writes, and what the result comes from (for messages).
pub struct Target {
    /// `tool `screenshot``, `resource `app://log``.
    source: String,
    out: PathBuf,
}

/// The target of `--out` for the tool call of `params` (`{"name", "arguments"}`): `call
/// NAME`'s and a derived verb's.
pub fn tool_target(params: &Value, out: &Path) -> Result<Target> {
    target("tools/call", Some(params), out)
}

/// The target of `--out` for `method` with `params`, checked before anything is sent:
/// only a tool call and `resources/read` return media; stdout must not be a terminal
/// for raw bytes; the directory must exist, and the name be one a file can be written
/// at. A name that is mur's own stdout (`/dev/stdout`) is `-`: written as a file, the
/// media and the result printed after it would overwrite each other.
pub fn target(method: &str, params: Option<&Value>, out: &Path) -> Result<Target> {
    let out = if mur_lockfile::is_stdout(out) {
        Path::new("-")
    } else {
        out
    };
    let field = |key: &str| params.and_then(|p| p[key].as_str()).unwrap_or_default();
    let source = match method {
        "tools/call" => format!("tool `{}`", field("name")),
        "resources/read" => format!("resource `{}`", field("uri")),
        _ => {
            return Err(Error::usage(
                "`--out` writes a tool's images, audio and blobs: it goes with `call NAME` \
                 (or `resources/read`), not another method",
            ));
        }
    };
    if out == Path::new("-") {
        if crate::output::stdout_is_terminal() {
            return Err(bytes_to_terminal("out"));
        }
    } else {
        // As a named verb's path to write is refused: one wording, with its hint.
        mur_verbs::writable_before_the_call(out)?;
    }
    Ok(Target {
        source,
        out: out.to_owned(),
    })
}

/// The most media files one result is written to. A screenshot or a recording is a
/// few; a result with more is a flood (each file is fsynced: 20,000 took 97 s, far
/// past `--timeout`, and filled a directory with names the user never typed), so
/// such a result is printed as it came and nothing is written.
const MAX_FILES: usize = 100;

/// Writes the media of `result` as `target` says, then prints the result (see the
/// module's line), as `call` does. Whatever fails, the result is printed: the call
/// already ran.
pub fn save(result: Value, target: &Target, settings: &Settings) -> Result<()> {
    save_as(result, target, settings, None)
}

/// What a verb prints of a result without `--out`, and the notes it gives: its
/// value, and a note for each content block it leaves out.
pub type Show<'a> = &'a dyn Fn(&Value) -> (Value, Vec<String>);

/// [`save`] for a verb that prints a result its own way (`show`): what it prints
/// without `--out`, with the file's `path` and `bytes` added, so `overview --out x.png |
/// jq .active` reads what `overview | jq .active` does. Its notes are those of the
/// result without the blocks written (they were not left out: they are in the file).
/// When that cannot say where the bytes went — several files, a value that is no
/// object, or one with a `path` or `bytes` of its own — the result is printed as
/// `call --out` prints it, each file's `path` and `bytes` in its block.
pub fn save_shown(result: Value, target: &Target, settings: &Settings, show: Show) -> Result<()> {
    save_as(result, target, settings, Some(show))
}

fn save_as(
    mut result: Value,
    target: &Target,
    settings: &Settings,
    show: Option<Show>,
) -> Result<()> {
    let Target { source, out } = target;
    let media = match tool_result::media(&result) {
        Ok(media) => media,
        Err(e) => {
            output::json(&result, settings.pretty)?;
            return Err(Error::tool_failed(format!("{source} returned {e}"))
                .with_hint("its result is printed as it came"));
        }
    };
    let Some(first) = media.first() else {
        output::json(&result, settings.pretty)?;
        return Err(Error::tool_failed(format!(
            "{source} returned no image, audio or blob to write to `{}`",
            out.display()
        ))
        .with_hint("its result is printed as it came"));
    };
    if out == Path::new("-") {
        output::stdout(&first.bytes)?;
        if media.len() > 1 {
            output::notes(
                &[format!(
                    "note: {} more media blocks not written: stdout takes one; `--out FILE` writes each",
                    media.len() - 1
                )],
                settings.quiet,
            );
        }
        return Ok(());
    }
    if media.len() > MAX_FILES {
        output::json(&result, settings.pretty)?;
        return Err(Error::tool_failed(format!(
            "{source} returned {} media blocks, more than the {MAX_FILES} `--out` writes; \
             nothing was written",
            media.len()
        ))
        .with_hint("its result is printed as it came"));
    }
    // A FIFO or a device takes one medium, as stdout does: none is written beside it
    // (`--out /dev/null` made `/dev/null-2`).
    let media = if mur_lockfile::is_stream(out) {
        let (first, rest) = media.split_at(1);
        if !rest.is_empty() {
            output::notes(
                &[format!(
                    "note: {} more media blocks not written: `{}` takes one; `--out FILE` \
                     writes each",
                    rest.len(),
                    out.display()
                )],
                settings.quiet,
            );
        }
        first
    } else {
        &media[..]
    };
    // As it came, for `show`: what the verb prints of it is what it would print.
    let came = show.map(|_| result.clone());
    // The base64 of each medium written, to find it again in `structuredContent`.
    let mut written: Vec<(String, Value)> = Vec::new();
    // Where each block written is in the result, and the block as `call --out` prints it.
    let mut blocks: Vec<(String, Value)> = Vec::new();
    for (n, part) in media.iter().enumerate() {
        // The name the user typed is written as they expect of it (through a link, as
        // `>` would); a numbered one mur made up is replaced, never written through.
        let (path, wrote) = match n {
            0 => (
                out.clone(),
                mur_lockfile::write_named(out, &part.bytes, settings.timeout),
            ),
            _ => {
                let path = numbered(
                    out,
                    n + 1,
                    part.mime_type.as_deref(),
                    first.mime_type.as_deref(),
                );
                let wrote = mur_lockfile::write_entry(&path, &part.bytes);
                (path, wrote)
            }
        };
        if let Err(e) = wrote {
            output::json(&result, settings.pretty)?;
            return Err(Error::internal(format!(
                "could not write `{}`: {e}; the call itself already ran",
                path.display()
            ))
            .with_hint(
                "its result is printed as it came (what was written before is named in it)",
            ));
        }
        if let Some(Value::Object(holder)) = result.pointer_mut(&part.at) {
            let Some(Value::String(data)) = holder.remove(part.field) else {
                continue;
            };
            let (path, bytes) = (Value::from(path.to_string_lossy()), part.bytes.len());
            holder.insert("path".to_owned(), path.clone());
            holder.insert("bytes".to_owned(), Value::from(bytes));
            written.push((data, json!({ "path": path, "bytes": bytes })));
            blocks.push((part.at.clone(), Value::Object(holder.clone())));
        }
    }
    if let Some(structured) = result.get_mut("structuredContent") {
        replace_copies(structured, &written);
    }
    if let (Some(show), Some(came)) = (show, came) {
        let (shown, _) = show(&came);
        if let Some(shown) = with_files(shown, &written, &blocks) {
            let (_, notes) = show(&without(came, media));
            return output::shown(&shown, &notes, settings);
        }
    }
    output::json(&result, settings.pretty)
}

/// `shown` (what a verb prints of a result) saying where the media `written` went: each
/// copy of their base64 in it replaced as [`replace_copies`] does; a block written that
/// it shows where the result has it (`blocks`: where, and the block as `call --out`
/// prints it), its base64 left out, given its `path` and `bytes` there, as `call --out`
/// gives them (a derived verb's lone resource block had them beside `content`, `call
/// --out`'s in the block); and, unless that said it already, the one file's `path` and
/// `bytes` added to the object. `None` when it cannot be said so: several files, no
/// object, or one with a `path` or `bytes` of its own.
fn with_files(
    mut shown: Value,
    written: &[(String, Value)],
    blocks: &[(String, Value)],
) -> Option<Value> {
    replace_copies(&mut shown, written);
    for (at, block) in blocks {
        let mut bare = block.clone();
        if let Some(bare) = bare.as_object_mut() {
            bare.remove("path");
            bare.remove("bytes");
        }
        if let Some(held) = shown.pointer_mut(at).filter(|held| **held == bare) {
            *held = block.clone();
        }
    }
    if written.iter().all(|(_, file)| says(&shown, file)) {
        return Some(shown);
    }
    let [(_, file)] = written else {
        return None;
    };
    let object = shown.as_object_mut()?;
    if object.contains_key("path") || object.contains_key("bytes") {
        return None;
    }
    object.insert("path".to_owned(), file["path"].clone());
    object.insert("bytes".to_owned(), file["bytes"].clone());
    Some(shown)
}

/// Whether `value` says where `file` (`{path, bytes}`) went, as [`replace_copies`] says it.
fn says(value: &Value, file: &Value) -> bool {
    match value {
        Value::Object(object) => {
            (object.get("path") == Some(&file["path"])
                && object.get("bytes") == Some(&file["bytes"]))
                || object.values().any(|v| says(v, file))
        }
        Value::Array(items) => items.iter().any(|v| says(v, file)),
        Value::String(text) => *text == written_to(file),
        _ => false,
    }
}

/// The string that stands for a file's base64 where no `path` and `bytes` can.
fn written_to(file: &Value) -> String {
    format!(
        "written to {} ({} bytes)",
        file["path"].as_str().unwrap_or_default(),
        file["bytes"]
    )
}

/// `result` without the content blocks whose media were written.
fn without(mut result: Value, written: &[tool_result::Media]) -> Value {
    if let Some(blocks) = result["content"].as_array_mut() {
        let mut n = 0;
        blocks.retain(|_| {
            let at = format!("/content/{n}");
            n += 1;
            !written
                .iter()
                .any(|m| m.at == at || m.at.starts_with(&format!("{at}/")))
        });
    }
    result
}

/// Replaces, inside `structured`, each copy of a medium `--out` wrote (`written`: its
/// base64 and `{path, bytes}`), so stdout does not carry the bytes the file holds: a
/// tool may return its image both as a content block and in `structuredContent`
/// (server-filesystem's `read_media_file` does). An object holding the copy is written
/// as the content block is, the field replaced by `path` and `bytes`; one with a `path`
/// or `bytes` of its own (the server's, not to be overwritten), or an array, gets the
/// string `written to FILE (N bytes)` in place of the base64.
fn replace_copies(structured: &mut Value, written: &[(String, Value)]) {
    let find = |value: &Value| {
        let text = value.as_str()?;
        written
            .iter()
            .find(|(data, _)| data == text)
            .map(|(_, w)| w)
    };
    let marker = |w: &Value| Value::from(written_to(w));
    match structured {
        Value::Object(object) => {
            let copies: Vec<(String, Value)> = object
                .iter()
                .filter_map(|(key, value)| Some((key.clone(), find(value)?.clone())))
                .collect();
            let own = object.contains_key("path") || object.contains_key("bytes");
            for (key, w) in &copies {
                if own || copies.len() > 1 {
                    object.insert(key.clone(), marker(w));
                } else {
                    object.remove(key);
                    object.insert("path".to_owned(), w["path"].clone());
                    object.insert("bytes".to_owned(), w["bytes"].clone());
                }
            }
            for value in object.values_mut() {
                replace_copies(value, written);
            }
        }
        Value::Array(items) => {
            for item in items {
                match find(item) {
                    Some(w) => *item = marker(w),
                    None => replace_copies(item, written),
                }
            }
        }
        _ => {}
    }
}

/// `shot-2.png`, `shot-3.png`… for `number` 2, 3… beside `out` (the number before the
/// extension, so the name still says what the file is). A medium of another type than
/// the first's gets its own type's extension (`shot-2.wav` beside `shot.png`), or none
/// when mur does not know the type: a name must not lie. Whatever is at the name already
/// — the file of an earlier run, a link planted there — is replaced
/// ([`mur_lockfile::write_entry`]): running the command again leaves one run's files.
fn numbered(out: &Path, number: usize, mime_type: Option<&str>, first: Option<&str>) -> PathBuf {
    let stem = out.file_stem().unwrap_or_default().to_string_lossy();
    let typed = out.extension().map(|ext| ext.to_string_lossy());
    let extension = match (typed, mime_type) {
        (typed, mime) if mime == first => typed,
        (_, mime) => mime.and_then(extension_of).map(Into::into),
    };
    let name = match extension {
        Some(ext) => format!("{stem}-{number}.{ext}"),
        None => format!("{stem}-{number}"),
    };
    out.with_file_name(name)
}

/// The usual extension of the media types tools return. Written out: a type has
/// several extensions (`jpg`, `jpeg`, `jpe`), and the one people use is the point;
/// a type not here gets none rather than a guess.
fn extension_of(mime_type: &str) -> Option<&'static str> {
    let essence = mime_type.split(';').next().unwrap_or_default().trim();
    let known = [
        ("image/png", "png"),
        ("image/jpeg", "jpg"),
        ("image/gif", "gif"),
        ("image/webp", "webp"),
        ("image/svg+xml", "svg"),
        ("audio/wav", "wav"),
        ("audio/x-wav", "wav"),
        ("audio/mpeg", "mp3"),
        ("audio/ogg", "ogg"),
        ("audio/webm", "weba"),
        ("application/pdf", "pdf"),
        ("application/zip", "zip"),
        ("application/octet-stream", "bin"),
    ];
    known
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(essence))
        .map(|&(_, extension)| extension)
}

/// `--{option} -` with stdout a terminal: the bytes of an image or a sound would
/// garble it (and may carry sequences a terminal obeys), so nothing is sent.
pub fn bytes_to_terminal(option: &str) -> Error {
    Error::usage(format!(
        "`--{option} -` writes the bytes of an image or a sound to stdout, which is a terminal"
    ))
    .with_hint(format!(
        "pipe it (`| display`, `> shot.png`) or write a file: `--{option} FILE`"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_goes_with_a_tool_call_or_a_resource_read() {
        let tool = target(
            "tools/call",
            Some(&json!({ "name": "screenshot" })),
            Path::new("a.png"),
        );
        assert_eq!(tool.expect("a tool").source, "tool `screenshot`");
        let read = target(
            "resources/read",
            Some(&json!({ "uri": "app://b" })),
            Path::new("b"),
        );
        assert_eq!(read.expect("a resource").source, "resource `app://b`");
        for method in ["tools/list", "ping", "prompts/get"] {
            let err = target(method, None, Path::new("x"))
                .err()
                .expect("no media");
            assert_eq!(err.exit_code(), 1, "{method}");
        }
        for (out, said) in [
            ("/tmp", "it is a directory, not a file to write"),
            (
                "/no/such/dir/a.png",
                "the directory `/no/such/dir` does not exist",
            ),
        ] {
            let err = target("tools/call", None, Path::new(out)).err().expect(out);
            assert_eq!(
                (err.message(), err.exit_code(), err.hints()),
                (
                    format!("cannot write `{out}`: {said} (nothing was sent)").as_str(),
                    1,
                    &["name a file that can be written, in a directory that exists".to_owned()][..]
                ),
                "{out}"
            );
        }
    }

    /// A copy of a written medium in `structuredContent` is replaced as its content block
    /// is (server-filesystem's `read_media_file` sends both); an object with a `path` of
    /// its own, or an array, gets a string saying where the bytes went.
    #[test]
    fn copies_of_a_written_medium_in_structured_content_are_replaced() {
        let written = [(
            "iVBORw0KGgo=".to_owned(),
            json!({ "path": "got.png", "bytes": 8 }),
        )];
        let mut structured = json!({
            "content": [{ "type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png" }],
            "file": { "path": "/srv/img.png", "data": "iVBORw0KGgo=" },
            "all": ["iVBORw0KGgo=", "other"],
            "note": "iVBORw0KGgo is not the whole"
        });
        replace_copies(&mut structured, &written);
        assert_eq!(
            structured,
            json!({
                "content": [{ "type": "image", "path": "got.png", "bytes": 8, "mimeType": "image/png" }],
                "file": { "path": "/srv/img.png", "data": "written to got.png (8 bytes)" },
                "all": ["written to got.png (8 bytes)", "other"],
                "note": "iVBORw0KGgo is not the whole"
            })
        );
    }

    /// What a verb prints with `--out` is what it prints without, with the one file's
    /// `path` and `bytes`; where that cannot say it, `None`: the whole result is printed.
    #[test]
    fn a_verbs_value_says_where_its_one_file_went_or_is_given_up() {
        let with_files_of = |shown, written: &[_]| with_files(shown, written, &[]);
        let file = |path: &str, bytes: u64| {
            (
                "iVBORw0KGgo=".to_owned(),
                json!({ "path": path, "bytes": bytes }),
            )
        };
        let one = [file("x.png", 8)];
        assert_eq!(
            with_files_of(json!({ "active": "counter" }), &one),
            Some(json!({ "active": "counter", "path": "x.png", "bytes": 8 }))
        );
        // A copy of the base64 in it says it already: nothing added.
        assert_eq!(
            with_files_of(json!({ "image": "iVBORw0KGgo=", "w": 1 }), &one),
            Some(json!({ "path": "x.png", "bytes": 8, "w": 1 }))
        );
        assert_eq!(
            with_files_of(json!(["iVBORw0KGgo="]), &one),
            Some(json!(["written to x.png (8 bytes)"]))
        );
        // Given up: a `path` of its own, no object, several files.
        assert_eq!(with_files_of(json!({ "path": "/srv/a" }), &one), None);
        assert_eq!(with_files_of(json!("a caption"), &one), None);
        assert_eq!(with_files_of(json!([1, 2]), &one), None);
        let two = [
            file("x.png", 8),
            ("AAAA".to_owned(), json!({ "path": "x-2.png", "bytes": 3 })),
        ];
        assert_eq!(with_files_of(json!({ "active": "counter" }), &two), None);
    }

    /// A block written that the verb shows where the result has it, its base64 left
    /// out, says where it went in the block, as `call --out` says it: a derived verb's
    /// lone resource block (server-everything's `gzip-file-as-resource`) had `path` and
    /// `bytes` beside `content`, `call --out`'s in the block.
    #[test]
    fn a_block_shown_where_the_result_has_it_says_where_it_went_as_calls_does() {
        let written = [("AAAA".to_owned(), json!({ "path": "g.gz", "bytes": 3 }))];
        let block = json!({ "uri": "a://b.gz", "mimeType": "application/gzip",
            "path": "g.gz", "bytes": 3 });
        let blocks = [("/content/0/resource".to_owned(), block.clone())];
        let shown = json!({ "content": [{ "type": "resource",
            "resource": { "uri": "a://b.gz", "mimeType": "application/gzip" } }] });
        assert_eq!(
            with_files(shown, &written, &blocks),
            Some(json!({ "content": [{ "type": "resource", "resource": block }] }))
        );
        // A value of the verb's own, not the block: the file is said beside it.
        let shown = json!({ "content": [{ "type": "resource",
            "resource": { "uri": "a://other" } }] });
        assert_eq!(
            with_files(shown, &written, &blocks),
            Some(json!({ "content": [{ "type": "resource",
                "resource": { "uri": "a://other" } }], "path": "g.gz", "bytes": 3 }))
        );
    }

    /// The notes are of the result without the blocks written: they were not left out.
    #[test]
    fn the_blocks_written_are_taken_out_of_the_result() {
        let result = json!({ "content": [
            { "type": "text", "text": "a caption" },
            { "type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo=" },
            { "type": "resource", "resource": { "uri": "a://b", "blob": "AAAA" } },
            { "type": "audio", "mimeType": "audio/wav", "data": "AAAA" },
        ]});
        let media = tool_result::media(&result).expect("media");
        assert_eq!(
            without(result.clone(), &media[..2]),
            json!({ "content": [
                { "type": "text", "text": "a caption" },
                { "type": "audio", "mimeType": "audio/wav", "data": "AAAA" },
            ]})
        );
    }

    #[test]
    fn media_after_the_first_are_numbered_before_the_extension() {
        let png = Some("image/png");
        let named = |out: &str, n, mime| numbered(Path::new(out), n, mime, png);
        assert_eq!(named("dir/shot.png", 2, png), Path::new("dir/shot-2.png"));
        assert_eq!(named("dir/shot", 3, png), Path::new("dir/shot-3"));
        // Another type than the first's: its own extension, else none.
        assert_eq!(
            named("pics.png", 2, Some("audio/wav")),
            Path::new("pics-2.wav")
        );
        assert_eq!(
            named("pics", 2, Some("image/JPEG")),
            Path::new("pics-2.jpg")
        );
        assert_eq!(
            named("pics.png", 3, Some("text/x-odd")),
            Path::new("pics-3")
        );
        assert_eq!(named("pics.png", 2, None), Path::new("pics-2"));
    }
}
