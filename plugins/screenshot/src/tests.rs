//! Screenshot's shaping with `--out file`, `--out -`, no `--out`, and bad images.

use super::Screenshot;
use base64::Engine;
use mur_verb_kit::{FileWrite, Value, json, testing};

/// The start of a 3×2 PNG: signature, then the IHDR chunk (length, type, width, height, …).
fn png() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend([0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0]);
    bytes
}

fn image_block(data: &[u8]) -> Value {
    let data = base64::engine::general_purpose::STANDARD.encode(data);
    json!({"type": "image", "data": data, "mimeType": "image/png"})
}

fn result_with(structured: Option<Value>) -> Value {
    let mut result = json!({"content": [image_block(&png())]});
    if let Some(structured) = structured {
        result["structuredContent"] = structured;
    }
    result
}

#[test]
fn takes_its_selector_as_every_verb_with_an_optional_one_does() {
    testing::check_optional_selector_verb::<Screenshot>();
}

#[test]
fn out_file_writes_the_png_at_the_path_typed_and_prints_its_size() {
    let shaped =
        testing::shaped::<Screenshot>(&["--out", "./shots/a.png"], &result_with(None), false)
            .expect("shapes");
    assert_eq!(
        shaped.files,
        vec![FileWrite {
            path: "./shots/a.png".to_owned(),
            contents: png()
        }]
    );
    let expected = format!(
        "{{\"width\":3,\"height\":2,\"path\":\"./shots/a.png\",\"bytes\":{}}}\n",
        png().len()
    );
    assert_eq!(String::from_utf8(shaped.stdout).expect("utf-8"), expected);
}

#[test]
fn out_file_prints_the_servers_description_with_path_and_bytes_and_honours_pretty() {
    let result = result_with(Some(json!({"width": 640, "height": 480, "window": "main"})));
    let shaped = testing::shaped::<Screenshot>(&["--out", "a.png"], &result, true).expect("shapes");
    let printed: Value = serde_json_from(&shaped.stdout);
    assert_eq!(
        printed,
        json!({"bytes": png().len(), "height": 480, "path": "a.png", "width": 640, "window": "main"})
    );
    // The server's order, then `path` and `bytes`, as a derived verb prints them.
    let keys: Vec<String> = printed
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["width", "height", "window", "path", "bytes"]);
    assert!(shaped.stdout.starts_with(b"{\n  \"width\""));
}

#[test]
fn out_dash_prints_the_raw_png() {
    let shaped =
        testing::shaped::<Screenshot>(&["--out", "-"], &result_with(None), true).expect("shapes");
    assert_eq!(shaped.stdout, png());
    assert!(shaped.files.is_empty());
}

#[test]
fn without_out_prints_metadata_never_the_image_data() {
    let described = result_with(Some(json!({"width": 3, "height": 2, "window": "main"})));
    assert_eq!(
        testing::stdout::<Screenshot>(&[], &described, false),
        "{\"width\":3,\"height\":2,\"window\":\"main\"}\n"
    );
    let bare = result_with(None);
    let expected = format!("{{\"width\":3,\"height\":2,\"bytes\":{}}}\n", png().len());
    assert_eq!(testing::stdout::<Screenshot>(&[], &bare, false), expected);
    // A note says the picture was not kept, and how to keep it; none with `--out`.
    assert_eq!(
        testing::notes::<Screenshot>(&[], &bare),
        [
            "note: the image was not saved: `--out shot.png` writes it to a file, `--out -` its PNG bytes to stdout"
        ]
    );
    assert!(testing::notes::<Screenshot>(&["--out", "-"], &bare).is_empty());
}

#[test]
fn a_result_without_a_usable_png_is_a_clear_error() {
    let cases = [
        (
            json!({"content": [{"type": "text", "text": "no window"}]}),
            "the screenshot result has no image content block",
        ),
        (
            json!({"content": [{"type": "image", "data": "", "mimeType": "image/jpeg"}]}),
            "the screenshot is `image/jpeg`, expected `image/png`",
        ),
        (
            json!({"content": [{"type": "image", "data": "***", "mimeType": "image/png"}]}),
            "the screenshot's image data is not valid base64: Invalid symbol 42, offset 0.",
        ),
        (
            json!({"content": [image_block(b"GIF89a")]}),
            "the screenshot's image data is not a PNG",
        ),
        (
            json!({"content": [image_block(b"\x89PNG\r\n\x1a\n")]}),
            "the screenshot's PNG has no IHDR header",
        ),
    ];
    for (result, expected) in cases {
        assert_eq!(
            testing::shaped::<Screenshot>(&["--out", "a.png"], &result, false),
            Err(expected.to_owned())
        );
    }
}

fn serde_json_from(bytes: &[u8]) -> Value {
    mur_verb_kit::serde_json::from_slice(bytes).expect("stdout is JSON")
}

#[test]
fn malformed_image_blocks_are_errors_not_panics() {
    let results = [
        json!({"content": [{"type": "image", "mimeType": "image/png"}]}),
        json!({"content": [{"type": "image", "data": 7, "mimeType": "image/png"}]}),
        json!({"content": [{"type": "image", "data": "!!", "mimeType": "image/png"}]}),
        json!({"content": "image"}),
        json!(null),
    ];
    for result in results {
        for out in [&["--out", "a.png"][..], &["--out", "-"], &[]] {
            assert!(
                testing::shaped::<Screenshot>(out, &result, false).is_err(),
                "{result} {out:?}"
            );
        }
    }
}
