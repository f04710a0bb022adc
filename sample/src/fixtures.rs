//! Fixture tools the MCP conformance suite's server scenarios call by name (test-only).
//!
//! `@modelcontextprotocol/conformance` drives a server through tools with fixed
//! names (`test_simple_text`, `test_image_content`, …), prompts
//! (`test_simple_prompt`, …) and resources (`test://static-text`, …). This
//! module registers every one the server scenarios of both revisions use:
//! text, image, audio and embedded-resource results, progress and log
//! messages, questions (elicitation, sampling, roots; as input-required
//! results on 2026-07-28), resources, a template and prompts, and the tools
//! that run as tasks ([`tasks`]).
//!
//! An app switches them on only for conformance runs (`mur-sample
//! --conformance-fixtures`); they are never part of a normal session.

mod spec;
mod tasks;

use serde_json::{Value, json};

use spec::{fixture, fixture_taking, name_question, one_string};

use mur_server::{
    Asked, Content, InputRequired, LogLevel, PromptArgument, PromptMessage, PromptOutput,
    PromptSpec, Question, ResourceContents, ResourceSpec, ResourceTemplateSpec, SessionControl,
    ToolError, ToolOutput, ToolSet,
};

/// Text the suite's reference server returns from `test_simple_text`.
pub const SIMPLE_TEXT: &str = "This is a simple text response for testing.";

/// Message of the `test_error_handling` tool error.
pub const ERROR_MESSAGE: &str = "This tool intentionally returns an error for testing";

/// Name of the tool whose `inputSchema` exercises JSON Schema 2020-12 keywords.
pub const JSON_SCHEMA_TOOL: &str = "json_schema_2020_12_tool";

pub use tasks::JOB_FAILED;

/// Register every conformance fixture tool in `tools`.
pub fn add_conformance_fixtures(tools: &mut ToolSet) {
    tasks::add(tools);
    tools.add(
        fixture("test_simple_text", "Returns a fixed text"),
        |_, _| async { Ok(ToolOutput::Json(json!({ "text": SIMPLE_TEXT }))) },
    );
    tools.add(
        fixture("test_image_content", "Returns a 1x1 red PNG image"),
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
        fixture("test_error_handling", "Always fails with a tool error"),
        |_, _| async { Err(ToolError::new(ERROR_MESSAGE)) },
    );
    tools.add(
        fixture_taking(
            JSON_SCHEMA_TOOL,
            "Tool with JSON Schema 2020-12 features",
            json_schema_2020_12(),
        ),
        |_, _| async { Ok(ToolOutput::Json(json!({ "ok": true }))) },
    );
    add_rich_fixtures(tools);
    add_input_required_fixtures(tools);
    add_resource_fixtures(tools);
    add_prompt_fixtures(tools);
}

/// The suite's content, progress, logging and question fixtures.
fn add_rich_fixtures(tools: &mut ToolSet) {
    tools.add(
        fixture(
            "test_multiple_content_types",
            "Returns text, an image and an embedded resource",
        ),
        |_, _| async {
            Ok(ToolOutput::blocks([
                Content::text("Multiple content types test:"),
                Content::png(red_pixel_png()?),
                Content::Resource(ResourceContents::text(
                    "test://mixed-content-resource",
                    "application/json",
                    r#"{"test":"data","value":123}"#,
                )),
            ]))
        },
    );
    tools.add(
        fixture("test_audio_content", "Returns a short silent WAV clip"),
        |_, _| async {
            Ok(ToolOutput::blocks([Content::Audio {
                data: silent_wav(),
                mime_type: "audio/wav".into(),
            }]))
        },
    );
    tools.add(
        fixture(
            "test_embedded_resource",
            "Returns an embedded text resource",
        ),
        |_, _| async {
            Ok(ToolOutput::blocks([Content::Resource(
                ResourceContents::text(
                    "test://embedded-resource",
                    "text/plain",
                    "This is an embedded resource content.",
                ),
            )]))
        },
    );
    tools.add(
        fixture(
            "test_tool_with_progress",
            "Reports progress 0, 50 and 100 of 100",
        ),
        |_, control: SessionControl| async move {
            for (step, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
                if step > 0 {
                    tokio::time::sleep(STEP).await;
                }
                control.progress(progress, Some(100.0), None).await;
            }
            Ok(ToolOutput::blocks([Content::text(
                "Progress test completed",
            )]))
        },
    );
    for name in ["test_tool_with_logging", "test_logging_tool"] {
        tools.add(
            fixture(name, "Sends three info log messages while it runs"),
            |_, control: SessionControl| async move {
                control.log(LogLevel::Info, "Tool execution started").await;
                tokio::time::sleep(STEP).await;
                control.log(LogLevel::Info, "Tool processing data").await;
                tokio::time::sleep(STEP).await;
                control
                    .log(LogLevel::Info, "Tool execution completed")
                    .await;
                Ok(ToolOutput::blocks([Content::text(
                    "Logging test completed",
                )]))
            },
        );
    }
    tools.add(
        fixture_taking(
            "test_sampling",
            "Asks the client's LLM to answer `prompt`",
            one_string("prompt"),
        ),
        |args: Value, control: SessionControl| async move {
            let prompt = args["prompt"].as_str().unwrap_or_default();
            sampling_result(&control, "sampling", sample(prompt, 100), "LLM response").await
        },
    );
    tools.add(
        fixture_taking(
            "test_elicitation",
            "Asks the user for a username and an email",
            one_string("message"),
        ),
        |args: Value, control: SessionControl| async move {
            let message = args["message"]
                .as_str()
                .unwrap_or("Please provide your information");
            let schema = json!({
                "type": "object",
                "properties": {
                    "username": { "type": "string", "description": "User's response" },
                    "email": { "type": "string", "description": "User's email address" }
                },
                "required": ["username", "email"]
            });
            elicitation_result(&control, "User response", Question::elicit(message, schema)).await
        },
    );
    // The elicitations answered with `Elicitation completed: action=…, content=…`.
    for (name, description, question) in [
        (
            "test_elicitation_sep1034_defaults",
            "Elicits values with defaults of every primitive type",
            Question::elicit(
                "Please review and update the form fields with defaults",
                sep1034_defaults(),
            ),
        ),
        (
            "test_elicitation_sep1330_enums",
            "Elicits with all five enum variants",
            Question::elicit(
                "Please select options from the enum fields",
                sep1330_enums(),
            ),
        ),
        (
            "test_streaming_elicitation",
            "Asks for a name (input required on 2026-07-28)",
            name_question("What is your name?"),
        ),
    ] {
        tools.add(
            fixture(name, description),
            move |_, control: SessionControl| {
                let question = question.clone();
                async move { elicitation_result(&control, "Elicitation completed", question).await }
            },
        );
    }
    tools.add(
        fixture_taking(
            "test_mcp_param_header",
            "Echoes `region`, which also travels in the `Mcp-Param-Region` header",
            json!({
                "type": "object",
                "properties": { "region": { "type": "string", "x-mcp-header": "Region" } },
                "required": ["region"]
            }),
        ),
        |args: Value, _| async move {
            let region = args["region"].as_str().unwrap_or_default().to_owned();
            Ok(ToolOutput::blocks([Content::text(format!(
                "region: {region}"
            ))]))
        },
    );
    tools.add(
        fixture(
            "test_missing_capability",
            "Needs the client's sampling capability",
        ),
        |_, control: SessionControl| async move {
            if !control.client_supports("sampling") {
                return Err(ToolError::missing_capability("sampling"));
            }
            Ok(ToolOutput::blocks([Content::text("sampling is available")]))
        },
    );
}

/// The suite's input-required (SEP-2322) fixtures: questions answered in the next call.
fn add_input_required_fixtures(tools: &mut ToolSet) {
    tools.add(
        fixture(
            "test_input_required_result_elicitation",
            "Asks for a name, then greets",
        ),
        |_, control: SessionControl| async move {
            let question = name_question("What is your name?");
            answered_text(&control, "user_name", question, |answer| {
                format!(
                    "Hello, {}!",
                    answer["content"]["name"].as_str().unwrap_or("stranger")
                )
            })
            .await
        },
    );
    tools.add(
        fixture(
            "test_input_required_result_sampling",
            "Asks the client's LLM a question",
        ),
        |_, control: SessionControl| async move {
            let question = sample("What is the capital of France?", 100);
            sampling_result(&control, "capital_question", question, "The model said").await
        },
    );
    tools.add(
        fixture(
            "test_input_required_result_list_roots",
            "Asks for the client's roots",
        ),
        |_, control: SessionControl| async move {
            answered_text(&control, "client_roots", Question::Roots, |answer| {
                let uris: Vec<&str> = answer["roots"]
                    .as_array()
                    .map(|roots| roots.iter().filter_map(|r| r["uri"].as_str()).collect())
                    .unwrap_or_default();
                format!("Roots: {}", uris.join(", "))
            })
            .await
        },
    );
    // One round of questions, answered with a fixed text.
    let confirm = Question::elicit(
        "Please confirm",
        json!({ "type": "object", "properties": { "ok": { "type": "boolean" } }, "required": ["ok"] }),
    );
    for (name, description, questions, text) in [
        (
            "test_input_required_result_request_state",
            "Asks for a confirmation and checks its state",
            InputRequired::new().ask("confirm", confirm),
            "state-ok: confirmed",
        ),
        (
            "test_input_required_result_multiple_inputs",
            "Asks three questions at once",
            InputRequired::new()
                .ask("user_name", name_question("What is your name?"))
                .ask("greeting", sample("Generate a greeting", 50))
                .ask("client_roots", Question::Roots),
            "All inputs received",
        ),
    ] {
        tools.add(
            fixture(name, description),
            move |_, control: SessionControl| {
                let questions = questions.clone();
                async move { one_round(&control, questions, text) }
            },
        );
    }
    tools.add(
        fixture(
            "test_input_required_result_multi_round",
            "Asks two questions, one per round",
        ),
        |_, control: SessionControl| async move {
            let round = control.state().and_then(|state| state["round"].as_u64());
            Ok(
                match (round, control.answer("step1"), control.answer("step2")) {
                    (Some(2), _, Some(color)) => ToolOutput::blocks([Content::text(format!(
                        "Done: {} likes {}",
                        control
                            .state()
                            .and_then(|s| s["name"].as_str())
                            .unwrap_or("someone"),
                        color["content"]["color"].as_str().unwrap_or("some color")
                    ))]),
                    (Some(1), Some(name), _) => ToolOutput::InputRequired(
                        InputRequired::new()
                            .ask(
                                "step2",
                                Question::elicit(
                                    "Step 2: What is your favorite color?",
                                    one_string("color"),
                                ),
                            )
                            .with_state(json!({ "round": 2, "name": name["content"]["name"] })),
                    ),
                    _ => ToolOutput::InputRequired(
                        InputRequired::new()
                            .ask("step1", name_question("Step 1: What is your name?"))
                            .with_state(json!({ "round": 1 })),
                    ),
                },
            )
        },
    );
    tools.add(
        fixture(
            "test_input_required_result_tampered_state",
            "Hands out a sealed state; a changed one is refused",
        ),
        |_, control: SessionControl| async move {
            let asking = InputRequired::new()
                .ask("confirm", name_question("What is your name?"))
                .with_state(json!({ "issued": "round-1" }));
            text_once_answered(control.state().is_some(), "state verified", asking)
        },
    );
    tools.add(
        fixture(
            "test_input_required_result_capabilities",
            "Asks only what the client declared it can answer",
        ),
        |_, control: SessionControl| async move {
            let mut input = InputRequired::new();
            if control.client_supports("elicitation") {
                input = input.ask("user_name", name_question("What is your name?"));
            }
            if control.client_supports("sampling") {
                input = input.ask("greeting", sample("Generate a greeting", 50));
            }
            if control.client_supports("roots") {
                input = input.ask("client_roots", Question::Roots);
            }
            if input.questions.is_empty() {
                return Err(ToolError::missing_capability("elicitation"));
            }
            text_once_answered(
                all_answered(&control, &input),
                "Capabilities respected",
                input,
            )
        },
    );
}

/// The suite's resources and resource template.
fn add_resource_fixtures(tools: &mut ToolSet) {
    add_text_resource(
        tools,
        ResourceSpec::new(
            "test://static-text",
            "static-text",
            "A static text resource",
            "text/plain",
        ),
        "This is the content of the static text resource.",
    );
    tools.add_resource(
        ResourceSpec::new(
            "test://static-binary",
            "static-binary",
            "A static binary resource (a PNG)",
            "image/png",
        ),
        |uri, _| async move {
            Ok(vec![ResourceContents::blob(
                uri,
                "image/png",
                red_pixel_png()?,
            )])
        },
    );
    add_text_resource(
        tools,
        ResourceSpec::new(
            "test://watched-resource",
            "watched-resource",
            "A resource to subscribe to",
            "text/plain",
        ),
        "Watched resource content.",
    );
    tools.add_resource_template(
        ResourceTemplateSpec::new(
            "test://template/{id}/data",
            "template-data",
            "Data for an id, from a template",
            "application/json",
        ),
        |uri, vars, _| async move {
            let id = vars.get("id").cloned().unwrap_or_default();
            let text =
                json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") })
                    .to_string();
            Ok(vec![ResourceContents::text(uri, "application/json", text)])
        },
    );
}

/// A `text/plain` resource whose contents never change.
fn add_text_resource(tools: &mut ToolSet, spec: ResourceSpec, text: &'static str) {
    tools.add_resource(spec, move |uri, _| async move {
        Ok(vec![ResourceContents::text(uri, "text/plain", text)])
    });
}

/// The suite's prompts.
fn add_prompt_fixtures(tools: &mut ToolSet) {
    tools.add_prompt(
        PromptSpec::new("test_simple_prompt", "A simple prompt without arguments"),
        |_, _| async {
            Ok(PromptOutput::messages([PromptMessage::user(
                Content::text("This is a simple prompt for testing."),
            )]))
        },
    );
    tools.add_prompt(
        PromptSpec::new("test_prompt_with_arguments", "A prompt with two arguments")
            .with_argument(PromptArgument::required("arg1", "First test argument"))
            .with_argument(PromptArgument::required("arg2", "Second test argument")),
        |args, _| async move {
            let text = format!(
                "Prompt with arguments: arg1='{}', arg2='{}'",
                args.get("arg1").map_or("", String::as_str),
                args.get("arg2").map_or("", String::as_str)
            );
            Ok(PromptOutput::messages([PromptMessage::user(
                Content::text(text),
            )]))
        },
    );
    tools.add_prompt(
        PromptSpec::new(
            "test_prompt_with_embedded_resource",
            "A prompt embedding a resource",
        )
        .with_argument(PromptArgument::required(
            "resourceUri",
            "URI of the resource to embed",
        )),
        |args, _| async move {
            let uri = args.get("resourceUri").cloned().unwrap_or_default();
            Ok(PromptOutput::messages([
                PromptMessage::user(Content::Resource(ResourceContents::text(
                    uri,
                    "text/plain",
                    "Embedded resource content for testing.",
                ))),
                PromptMessage::user(Content::text("Please process the embedded resource above.")),
            ]))
        },
    );
    tools.add_prompt(
        PromptSpec::new("test_prompt_with_image", "A prompt with an image"),
        |_, _| async {
            Ok(PromptOutput::messages([
                PromptMessage::user(Content::png(red_pixel_png()?)),
                PromptMessage::user(Content::text("Please analyze the image above.")),
            ]))
        },
    );
    tools.add_prompt(
        PromptSpec::new(
            "test_input_required_result_prompt",
            "A prompt that first asks for context",
        ),
        |_, control| async move {
            let question =
                Question::elicit("What context should the prompt use?", one_string("context"));
            Ok(match control.ask("user_context", question).await? {
                Asked::Answered(answer) => {
                    PromptOutput::messages([PromptMessage::user(Content::text(format!(
                        "Use this context: {}",
                        answer["content"]["context"].as_str().unwrap_or_default()
                    )))])
                }
                Asked::Pending(input) => PromptOutput::InputRequired(input),
            })
        },
    );
}

/// Pause between the steps of the progress and logging fixtures, as the suite describes.
const STEP: std::time::Duration = std::time::Duration::from_millis(50);

fn sample(text: &str, max_tokens: u32) -> Question {
    Question::Sample(json!({
        "messages": [{ "role": "user", "content": { "type": "text", "text": text } }],
        "maxTokens": max_tokens
    }))
}

/// Asks `question` and reports the answer as `<label>: action=…, content=…`.
async fn elicitation_result(
    control: &SessionControl,
    label: &str,
    question: Question,
) -> Result<ToolOutput, ToolError> {
    answered_text(control, "answer", question, |answer| {
        format!(
            "{label}: action={}, content={}",
            answer["action"].as_str().unwrap_or("?"),
            answer.get("content").cloned().unwrap_or(Value::Null)
        )
    })
    .await
}

/// Asks the client's LLM `question` under `key` and reports its text as `<label>: …`.
async fn sampling_result(
    control: &SessionControl,
    key: &str,
    question: Question,
    label: &str,
) -> Result<ToolOutput, ToolError> {
    answered_text(control, key, question, |answer| {
        format!(
            "{label}: {}",
            answer["content"]["text"].as_str().unwrap_or_default()
        )
    })
    .await
}

/// Asks `question` under `key`: once answered, one text block that `text` makes of the
/// answer; until then, the input-required result that asks it.
async fn answered_text(
    control: &SessionControl,
    key: &str,
    question: Question,
    text: impl FnOnce(&Value) -> String,
) -> Result<ToolOutput, ToolError> {
    Ok(match control.ask(key, question).await? {
        Asked::Answered(answer) => ToolOutput::blocks([Content::text(text(&answer))]),
        Asked::Pending(input) => ToolOutput::InputRequired(input),
    })
}

/// One round of `questions`, handed out with the state `{"round": 1}`: once the call
/// brings that state back with every answer, one text block, `text`.
fn one_round(
    control: &SessionControl,
    questions: InputRequired,
    text: &str,
) -> Result<ToolOutput, ToolError> {
    let state = json!({ "round": 1 });
    let answered = control.state() == Some(&state) && all_answered(control, &questions);
    text_once_answered(answered, text, questions.with_state(state))
}

/// One text block, `text`, once the call came back `answered`; until then, the
/// input-required result `asking`.
fn text_once_answered(
    answered: bool,
    text: &str,
    asking: InputRequired,
) -> Result<ToolOutput, ToolError> {
    Ok(if answered {
        ToolOutput::blocks([Content::text(text)])
    } else {
        ToolOutput::InputRequired(asking)
    })
}

/// Whether the call carries an answer to every question of `asking`.
fn all_answered(control: &SessionControl, asking: &InputRequired) -> bool {
    asking
        .questions
        .keys()
        .all(|key| control.answer(key).is_some())
}

/// A tenth of a second of 8 kHz, 16-bit mono silence as a WAV file.
fn silent_wav() -> Vec<u8> {
    const RATE: u32 = 8000;
    let samples = vec![0u8; (RATE / 10 * 2) as usize];
    let mut wav = Vec::with_capacity(44 + samples.len());
    let data_len = u32::try_from(samples.len()).unwrap_or(0);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&RATE.to_le_bytes());
    wav.extend_from_slice(&(RATE * 2).to_le_bytes()); // byte rate
    wav.extend_from_slice(&2u16.to_le_bytes()); // block align
    wav.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    wav.extend_from_slice(&samples);
    wav
}

/// The form of `test_elicitation_sep1034_defaults`: a default for every primitive type.
fn sep1034_defaults() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": { "type": "string", "default": "John Doe" },
            "age": { "type": "integer", "default": 30 },
            "score": { "type": "number", "default": 95.5 },
            "status": { "type": "string", "enum": ["active", "inactive", "pending"], "default": "active" },
            "verified": { "type": "boolean", "default": true }
        }
    })
}

/// The form of `test_elicitation_sep1330_enums`: the five kinds of enum.
fn sep1330_enums() -> Value {
    json!({
        "type": "object",
        "properties": {
            "untitledSingle": { "type": "string", "enum": ["option1", "option2", "option3"] },
            "titledSingle": { "type": "string", "oneOf": [
                { "const": "value1", "title": "First Option" },
                { "const": "value2", "title": "Second Option" },
                { "const": "value3", "title": "Third Option" }
            ] },
            "legacyEnum": { "type": "string", "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"] },
            "untitledMulti": { "type": "array", "items": { "type": "string", "enum": ["option1", "option2", "option3"] } },
            "titledMulti": { "type": "array", "items": { "anyOf": [
                { "const": "value1", "title": "First Choice" },
                { "const": "value2", "title": "Second Choice" },
                { "const": "value3", "title": "Third Choice" }
            ] } }
        }
    })
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
