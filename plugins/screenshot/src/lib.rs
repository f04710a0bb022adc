//! `mur devtools screenshot`: capture the running app as a PNG (MCP tool `screenshot`).
//!
//! The result carries the picture as a base64 `image` content block. `--out file.png`
//! asks the host to write it and prints the metadata with its `path` and `bytes`; `--out -` prints
//! the PNG itself; with no `--out` only the metadata is printed.

mod png;

use mur_verb_kit::{About, Args, FileWrite, Kind, Opt, Shaped, Spec, Value, Verb, json, shape};

pub struct Screenshot;

impl Verb for Screenshot {
    const ABOUT: About = About {
        name: "screenshot",
        tool: "screenshot",
        summary: "Capture the running app, or the element a selector matches, as a PNG",
        synopsis: "",
        details: "Without `--out` only the image's metadata is printed: `--out file.png` saves the\n\
                  picture, `--out -` writes the PNG bytes to stdout.",
        examples: &["mur devtools screenshot --selector '#counter' --out counter.png"],
    };
    const SPEC: Spec = Spec {
        positionals: &[],
        options: &[
            Opt::selector("only the element the selector S matches").or_word(),
            Opt::window("the window to capture (default: the main window)"),
            Opt::value(
                "out",
                "path|-",
                Kind::OutPath,
                "write the PNG to path, or to stdout with `-`",
            ),
            Opt::flag("wait-idle", "wait until the app is idle before capturing"),
            Opt::flag("include-chrome", "include the window's frame and title bar"),
        ],
        exclusive: &[],
    };

    fn shape(args: &Args, result: &Value, pretty: bool) -> Result<Shaped, String> {
        match args.value("out") {
            // Said, so an agent that wanted the picture does not think it has it.
            None => Ok(Shaped {
                notes: vec![NOT_SAVED.to_owned()],
                ..Shaped::json(&metadata(result)?, pretty)
            }),
            Some("-") => Ok(Shaped {
                stdout: png::from_result(result)?,
                ..Shaped::default()
            }),
            Some(path) => save(path, result, pretty),
        }
    }
}

/// The note without `--out`: the picture was taken, and not kept.
const NOT_SAVED: &str = "note: the image was not saved: `--out shot.png` writes it to a file, `--out -` its PNG bytes to stdout";

/// Write the PNG to `path` (exactly as typed, so the host allows it) and print what
/// the verb prints without `--out` with the file's `path` and `bytes` added, as a
/// derived verb's `--out` does: `screenshot --out s.png | jq .window` reads the same
/// field as without it. When the server's description is no object, or has a `path`
/// or `bytes` of its own, the image's size stands in for it.
fn save(path: &str, result: &Value, pretty: bool) -> Result<Shaped, String> {
    let image = png::from_result(result)?;
    let mut summary = match metadata(result)? {
        Value::Object(fields) if !fields.contains_key("path") && !fields.contains_key("bytes") => {
            fields
        }
        _ => {
            let (width, height) = size(result, &image)?;
            let sized = json!({"width": width, "height": height});
            sized.as_object().cloned().unwrap_or_default()
        }
    };
    summary.insert("path".to_owned(), json!(path));
    summary.insert("bytes".to_owned(), json!(image.len()));
    // The server's order, then `path` and `bytes`: as a derived verb's `--out` prints
    // it, so one line reads the same from either (it was sorted, here alone).
    let summary = Value::Object(summary);
    let file = FileWrite {
        path: path.to_owned(),
        contents: image,
    };
    Ok(Shaped {
        files: vec![file],
        ..Shaped::json(&summary, pretty)
    })
}

/// The server's own description of the picture when it gave one; else the size of the
/// image, never its base64 data, which is useless on a terminal.
fn metadata(result: &Value) -> Result<Value, String> {
    if result.get("structuredContent").is_some() || shape::first_text(result).is_some() {
        return Ok(shape::payload(result));
    }
    let image = png::from_result(result)?;
    let (width, height) = size(result, &image)?;
    Ok(json!({"width": width, "height": height, "bytes": image.len()}))
}

/// Width and height from `structuredContent` when the server sent them, else from the PNG.
fn size(result: &Value, image: &[u8]) -> Result<(u64, u64), String> {
    let structured = |key| result.get("structuredContent")?.get(key)?.as_u64();
    match (structured("width"), structured("height")) {
        (Some(width), Some(height)) => Ok((width, height)),
        _ => png::size(image),
    }
}

mur_verb_kit::export_verb!(Screenshot);

mur_verb_kit::verb_tables!(Screenshot {
    arguments: [
        // `--out` is the verb's own: never sent.
        (&["--out", "a.png"], json!({})),
        (
            &[
                "--selector",
                "#c",
                "--window",
                "main",
                "--wait-idle",
                "--include-chrome",
                "--out=-",
            ],
            json!({"selector": "#c", "window": "main", "waitIdle": true, "includeChrome": true}),
        ),
        (&["#c", "--out", "c.png"], json!({"selector": "#c"})),
    ],
    usage_errors: [
        (
            &["--out", ""],
            "`--out` needs a file path, or `-` for stdout",
        ),
        (&["--out"], "`--out <path|->` needs a value"),
        // A word that looks like a path, for `--out`.
        (
            &["shot.png"],
            "unexpected argument `shot.png`; did you mean `--out shot.png`?",
        ),
        (
            &["shots/a"],
            "unexpected argument `shots/a`; did you mean `--out shots/a`?",
        ),
        (&["-s"], "unknown option `-s`; did you mean `--selector`?"),
    ],
});

#[cfg(test)]
mod tests;
