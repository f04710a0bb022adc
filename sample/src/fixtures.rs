//! Fixture tools the MCP conformance suite's server scenarios call by name (test-only).
//!
//! `@modelcontextprotocol/conformance` drives a server through tools with fixed
//! names (`test_simple_text`, `test_image_content`, …). This module registers
//! the ones the [`ToolSet`] contract can express: JSON results, an image
//! result and a tool error. Scenarios that need other outputs — audio,
//! embedded resources, progress notifications, requests back to the client —
//! have no fixture here; `tests/conformance/expected.json` says why each fails.
//!
//! An app switches them on only for conformance runs (`mur-sample
//! --conformance-fixtures`); they are never part of a normal session.

use serde_json::{Value, json};

use mur_server::{ToolError, ToolHints, ToolOutput, ToolSet, ToolSpec};

/// Text the suite's reference server returns from `test_simple_text`.
pub const SIMPLE_TEXT: &str = "This is a simple text response for testing.";

/// Message of the `test_error_handling` tool error.
pub const ERROR_MESSAGE: &str = "This tool intentionally returns an error for testing";

/// Name of the tool whose `inputSchema` exercises JSON Schema 2020-12 keywords.
pub const JSON_SCHEMA_TOOL: &str = "json_schema_2020_12_tool";

/// Register every conformance fixture tool in `tools`.
pub fn add_conformance_fixtures(tools: &mut ToolSet) {
    tools.add(
        ToolSpec::new(
            "test_simple_text",
            "Returns a fixed text (conformance fixture)",
            no_arguments(),
            ToolHints::READ_ONLY,
        ),
        |_, _| async { Ok(ToolOutput::Json(json!({ "text": SIMPLE_TEXT }))) },
    );
    tools.add(
        ToolSpec::new(
            "test_image_content",
            "Returns a 1x1 red PNG image (conformance fixture)",
            no_arguments(),
            ToolHints::READ_ONLY,
        ),
        |_, _| async {
            let png = red_pixel_png()?;
            Ok(ToolOutput::Image {
                png,
                width: 1,
                height: 1,
                details: json!({ "color": "red" }),
            })
        },
    );
    tools.add(
        ToolSpec::new(
            "test_error_handling",
            "Always fails with a tool error (conformance fixture)",
            no_arguments(),
            ToolHints::READ_ONLY,
        ),
        |_, _| async { Err(ToolError::new(ERROR_MESSAGE)) },
    );
    tools.add(
        ToolSpec::new(
            JSON_SCHEMA_TOOL,
            "Tool with JSON Schema 2020-12 features (conformance fixture)",
            json_schema_2020_12(),
            ToolHints::READ_ONLY,
        ),
        |_, _| async { Ok(ToolOutput::Json(json!({ "ok": true }))) },
    );
}

/// The schema of a tool that takes no arguments.
fn no_arguments() -> Value {
    json!({ "type": "object", "properties": {}, "additionalProperties": false })
}

/// The exact schema the `json-schema-2020-12` scenario expects to see preserved
/// in `tools/list`: `$schema`, `$defs` with an `$anchor`, a `$ref`,
/// `allOf`/`anyOf`, `if`/`then`/`else` and `additionalProperties`.
pub fn json_schema_2020_12() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "$anchor": "addressDef",
                "type": "object",
                "properties": { "street": { "type": "string" }, "city": { "type": "string" } }
            }
        },
        "properties": {
            "name": { "type": "string" },
            "address": { "$ref": "#/$defs/address" },
            "contactMethod": { "type": "string", "enum": ["phone", "email"] },
            "phone": { "type": "string" },
            "email": { "type": "string" }
        },
        "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["email"] }] }],
        "if": { "properties": { "contactMethod": { "const": "phone" } }, "required": ["contactMethod"] },
        "then": { "required": ["phone"] },
        "else": { "required": ["email"] },
        "additionalProperties": false
    })
}

/// A 1x1 opaque red RGB PNG.
fn red_pixel_png() -> Result<Vec<u8>, ToolError> {
    let fail = |err: png::EncodingError| {
        ToolError::new(format!("could not encode the fixture image: {err}"))
    };
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 1, 1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(&[255, 0, 0]).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mur_server::SessionControl;

    fn fixtures() -> ToolSet {
        let mut tools = ToolSet::new();
        add_conformance_fixtures(&mut tools);
        tools
    }

    async fn call(tools: &ToolSet, name: &str) -> Result<ToolOutput, ToolError> {
        let Some(call) = tools.call(name, json!({}), SessionControl::default()) else {
            panic!("fixture `{name}` is not registered");
        };
        call.await
    }

    #[tokio::test]
    async fn simple_text_returns_the_fixed_text() {
        let output = call(&fixtures(), "test_simple_text").await;
        assert!(
            matches!(output, Ok(ToolOutput::Json(ref value)) if value["text"] == SIMPLE_TEXT),
            "{output:?}"
        );
    }

    #[tokio::test]
    async fn image_content_is_a_decodable_one_pixel_png() {
        let Ok(ToolOutput::Image {
            png,
            width: 1,
            height: 1,
            ..
        }) = call(&fixtures(), "test_image_content").await
        else {
            panic!("test_image_content did not return a 1x1 image");
        };
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let reader = decoder.read_info().expect("the fixture PNG decodes");
        assert_eq!((reader.info().width, reader.info().height), (1, 1));
    }

    #[tokio::test]
    async fn error_handling_fails_with_a_message() {
        let output = call(&fixtures(), "test_error_handling").await;
        assert_eq!(output.err(), Some(ToolError::new(ERROR_MESSAGE)));
    }

    #[test]
    fn json_schema_tool_keeps_every_2020_12_keyword() {
        let tools = fixtures();
        let schema = &tools
            .spec(JSON_SCHEMA_TOOL)
            .expect("registered")
            .input_schema;
        for keyword in [
            "$schema",
            "$defs",
            "allOf",
            "if",
            "then",
            "else",
            "additionalProperties",
        ] {
            assert!(
                schema.get(keyword).is_some(),
                "`{keyword}` missing from {schema}"
            );
        }
        assert_eq!(schema["$defs"]["address"]["$anchor"], "addressDef");
    }
}
