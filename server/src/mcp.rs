//! The MCP face of a [`ToolSet`]: `tools/list` from the specs, `tools/call` into the handlers.

use std::sync::Arc;

use base64::Engine as _;
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
        JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
        Tool, ToolAnnotations,
    },
    service::RequestContext,
};
use serde_json::Value;

use crate::tools::{SessionControl, ToolError, ToolOutput, ToolSet, ToolSpec};

/// One per request in stateless mode (rmcp asks its factory each time), so it is cheap to clone.
#[derive(Clone)]
pub(crate) struct DevtoolsHandler {
    tools: Arc<ToolSet>,
    control: SessionControl,
    server_info: Implementation,
}

impl DevtoolsHandler {
    pub(crate) fn new(
        tools: Arc<ToolSet>,
        control: SessionControl,
        name: &str,
        version: &str,
    ) -> Self {
        Self {
            tools,
            control,
            server_info: Implementation::new(name, version),
        }
    }
}

impl ServerHandler for DevtoolsHandler {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(self.server_info.clone())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.tools.specs().map(mcp_tool).collect(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.spec(name).map(mcp_tool)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let Some(call) = self
            .tools
            .call(&request.name, arguments, self.control.clone())
        else {
            return Err(unknown_tool(&request.name));
        };
        let result = match call.await {
            Ok(output) => success_result(output),
            Err(error) => error_result(&error),
        };
        Ok(result.into())
    }
}

fn unknown_tool(name: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("unknown tool `{name}`; `tools/list` shows the available tools"),
        None,
    )
}

/// The `tools/list` entry for a spec: schema, title and behaviour hints.
fn mcp_tool(spec: &ToolSpec) -> Tool {
    let title = spec.display_title();
    let annotations = ToolAnnotations::with_title(title.clone())
        .read_only(spec.hints.read_only)
        .destructive(spec.hints.destructive)
        .idempotent(spec.hints.idempotent);
    Tool::new(
        spec.name.clone(),
        spec.description.clone(),
        Arc::new(schema_object(&spec.input_schema)),
    )
    .with_title(title)
    .with_annotations(annotations)
}

/// MCP requires an object schema; a spec without one accepts any object.
fn schema_object(schema: &Value) -> JsonObject {
    match schema {
        Value::Object(object) => object.clone(),
        _ => serde_json::json!({ "type": "object" })
            .as_object()
            .cloned()
            .unwrap_or_default(),
    }
}

fn success_result(output: ToolOutput) -> CallToolResult {
    match output {
        ToolOutput::Json(value) => CallToolResult::structured(value),
        ToolOutput::Image {
            png,
            width,
            height,
            details,
        } => image_result(&png, width, height, details),
    }
}

/// An image block, plus the details (always with `width`/`height`) as structured content and text.
fn image_result(png: &[u8], width: u32, height: u32, details: Value) -> CallToolResult {
    let mut details = match details {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    };
    details.entry("width").or_insert(width.into());
    details.entry("height").or_insert(height.into());
    details.entry("mimeType").or_insert("image/png".into());
    let mut result = CallToolResult::structured(Value::Object(details));
    let data = base64::engine::general_purpose::STANDARD.encode(png);
    result
        .content
        .insert(0, ContentBlock::image(data, "image/png"));
    result
}

fn error_result(error: &ToolError) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(error.message.clone())])
}
