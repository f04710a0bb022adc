//! `call --out PATH`: what a result carries as base64 (images, audio, blobs) written
//! to files, or the first one's bytes to stdout; the result printed with each written
//! block's data replaced by its `path` and `bytes`.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use mur_client::tool_result;
use mur_core::{Error, Result, Settings};
use serde_json::Value;

use crate::output;

/// Where `--out` writes, and what the result comes from (for messages).
pub struct Target {
    /// `tool `screenshot``, `resource `app://log``.
    source: String,
    out: PathBuf,
}

/// The target of `--out` for `method` with `params`, checked before anything is sent:
/// only a tool call and `resources/read` return media; stdout must not be a terminal
/// for raw bytes; the directory must exist.
pub fn target(method: &str, params: Option<&Value>, out: &Path) -> Result<Target> {
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
        if std::io::stdout().is_terminal() {
            return Err(Error::usage(
                "`--out -` writes the bytes of an image or a sound to stdout, which is a terminal",
            )
            .with_hint("pipe it (`| display`, `> shot.png`) or write a file: `--out FILE`"));
        }
    } else if out.is_dir() || out.as_os_str().to_string_lossy().ends_with('/') {
        return Err(Error::usage(format!(
            "`--out {}` names a directory: give a file in it, e.g. `--out {}` (nothing was sent)",
            out.display(),
            out.join("out.png").display()
        )));
    } else if let Some(dir) = missing_dir(out) {
        return Err(Error::usage(format!(
            "`--out`: the directory `{}` does not exist (nothing was sent)",
            dir.display()
        )));
    }
    Ok(Target {
        source,
        out: out.to_owned(),
    })
}

/// The directory `out` would be written in, when it is not one.
fn missing_dir(out: &Path) -> Option<&Path> {
    let dir = out.parent().filter(|d| !d.as_os_str().is_empty())?;
    (!dir.is_dir()).then_some(dir)
}

/// Writes the media of `result` as `target` says, then prints the result (see the
/// module's line). Whatever fails, the result is printed: the call already ran.
pub fn save(mut result: Value, target: &Target, settings: &Settings) -> Result<()> {
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
    for (n, part) in media.iter().enumerate() {
        let path = numbered(out, n);
        if let Err(e) = mur_lockfile::write_atomic_shared(&path, &part.bytes) {
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
            holder.remove(part.field);
            holder.insert("path".to_owned(), Value::from(path.to_string_lossy()));
            holder.insert("bytes".to_owned(), Value::from(part.bytes.len()));
        }
    }
    output::json(&result, settings.pretty)
}

/// `out` for the first medium, then `shot-2.png`, `shot-3.png`… (the number before
/// the extension, so the name still says what the file is).
fn numbered(out: &Path, n: usize) -> PathBuf {
    if n == 0 {
        return out.to_owned();
    }
    let stem = out.file_stem().unwrap_or_default().to_string_lossy();
    let name = match out.extension() {
        Some(ext) => format!("{stem}-{}.{}", n + 1, ext.to_string_lossy()),
        None => format!("{stem}-{}", n + 1),
    };
    out.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
            ("/tmp", "names a directory"),
            ("/no/such/dir/a.png", "`/no/such/dir` does not exist"),
        ] {
            let err = target("tools/call", None, Path::new(out)).err().expect(out);
            assert_eq!(err.exit_code(), 1, "{out}");
            assert!(err.message().contains(said), "{out}: {}", err.message());
        }
    }

    #[test]
    fn media_after_the_first_are_numbered_before_the_extension() {
        let named = |out: &str, n| numbered(Path::new(out), n);
        assert_eq!(named("shot.png", 0), Path::new("shot.png"));
        assert_eq!(named("dir/shot.png", 1), Path::new("dir/shot-2.png"));
        assert_eq!(named("dir/shot", 2), Path::new("dir/shot-3"));
    }
}
