//! `anthropic/messages`: Anthropic's Messages API, tools' `input_schema`, and the offline
//! model of `api.anthropic.com`.
//!
//! Probe: `POST /v1/messages/count_tokens` (free, its own rate limit; docs.anthropic.com
//! token-counting) with `x-api-key` and `anthropic-version: 2023-06-01`. Whether count_tokens
//! validates `input_schema` exactly like `/v1/messages` is unverified (PROVIDERS.md §8); the
//! model treats both paths alike.
//!
//! Rules and texts (reports.yaml): `tools.N.custom.input_schema: JSON schema is invalid. It
//! must match JSON Schema draft 2020-12 …` for a schema the 2020-12 meta-schema refuses
//! (anth-2020-12-*; the trailing docs link of the newest report, anth-2020-12-docs-url-change,
//! 2026-08-14); `input_schema does not support oneOf, allOf, or anyOf at the top level`
//! (anth-toplevel-*); the name pattern `^[a-zA-Z0-9_-]{1,128}$` (anth-name-pattern-128) and
//! `String should have at most 128 characters` (claude-code#96152); a missing `input_schema`
//! (anth-input-schema-field-missing, text truncated in the report: modelled as pydantic's
//! `Field required`). A root `type` other than `object` is not refused (kirocc PR#93:
//! Anthropic's own API does not impose it). Strict tools (`strict: true`) are not modelled.
//!
//! Built-in tools (server and client tools with a dated `type` such as
//! `{"type": "web_search_20250305", "name": "web_search", "max_uses": 3}`, `bash_20250124`,
//! `text_editor_20250728`, and `mcp_toolset`; [`is_builtin`]) carry no `input_schema` and are
//! accepted without checks. That acceptance is from Anthropic's tool-use documentation, not
//! probed: what the service says about a malformed built-in tool is not modelled.

use serde_json::{Value, json};

use super::wire::*;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// The route.
pub struct Anthropic;

/// The docs link of the current 2020-12 message.
pub const TOOL_USE_DOCS: &str =
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview";

impl Route for Anthropic {
    fn id(&self) -> &'static str {
        "anthropic/messages"
    }
    fn service(&self) -> &'static str {
        "anthropic"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://api.anthropic.com",
            base_env: Some("ANTHROPIC_BASE_URL"),
            model: "claude-sonnet-4-5",
            model_env: None,
            key_env: &["ANTHROPIC_API_KEY"],
            api_version: Some("2023-06-01"),
            keyless: Keyless::Skip,
            method: "POST /v1/messages/count_tokens",
            cost: "free: count_tokens is not billed (separate rate limit)",
        }
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], _opts: &WireOptions) -> WireRequest {
        let body = Body::new()
            .json("model", json!(cfg.model))
            .json("messages", json!([{"role": "user", "content": "hi"}]))
            .tools(
                "tools",
                Tools {
                    tools,
                    shape: Shape::Anthropic,
                },
            );
        WireRequest::post_body(
            "/v1/messages/count_tokens",
            &body,
            AuthPlacement::Header {
                name: "x-api-key",
                prefix: "",
            },
        )
        .with_header(
            "anthropic-version",
            cfg.api_version
                .clone()
                .unwrap_or_else(|| "2023-06-01".into()),
        )
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        classify(reply)
    }
}

/// The path an Anthropic message names: `tools.N.custom.input_schema` in
/// `tools.N.custom.input_schema: …`, wherever the message sits in a longer text.
pub fn path_in_message(msg: &str) -> Option<String> {
    let mut from = 0;
    while let Some(i) = msg[from..].find("tools.") {
        let start = from + i;
        let rest = &msg[start..];
        if rest[6..].starts_with(|c: char| c.is_ascii_digit()) {
            let end = rest.find(':').unwrap_or(rest.len());
            return Some(rest[..end].trim().to_string());
        }
        from = start + 6;
    }
    None
}

/// Reads an Anthropic answer (also what Bedrock and Vertex relay for Claude).
pub fn classify(reply: &Reply) -> Classified {
    let body = reply.json_body();
    if let Some(e) = body
        .as_ref()
        .and_then(|b| b.get("error"))
        .and_then(Value::as_object)
    {
        let kind = e.get("type").and_then(Value::as_str).unwrap_or("");
        let message = e
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        // `tools.N…` names one tool; `tools: …` the list (anthropic-tool-names-unique).
        if kind == "invalid_request_error"
            && (message.starts_with("tools.") || message.starts_with("tools: "))
        {
            let path = path_in_message(&message);
            return Classified::rejected(Stage::Validate, message, path);
        }
        return match kind {
            "authentication_error" | "permission_error" => {
                Classified::inconclusive(Stage::Auth, Some(message), "credential refused")
            }
            "rate_limit_error" => {
                Classified::inconclusive(Stage::Quota, Some(message), "rate limited")
                    .retry(retry_after(reply).unwrap_or(Retry::Backoff))
            }
            "overloaded_error" | "api_error" => Classified::inconclusive(
                Stage::Transport,
                Some(message),
                "overloaded or server error",
            )
            .retry(retry_after(reply).unwrap_or(Retry::Backoff)),
            _ => classify_common(reply, Some(message)),
        };
    }
    if (200..300).contains(&reply.status)
        && body
            .as_ref()
            .is_some_and(|b| b.get("input_tokens").is_some() || b.get("content").is_some())
    {
        return Classified::accepted(Stage::Validate);
    }
    classify_common(reply, None)
}

fn err(status: u16, kind: &str, message: &str) -> Reply {
    Reply::json(
        status,
        &json!({"type": "error", "error": {"type": kind, "message": message}, "request_id": "req_emulated"}),
    )
}

/// Name rule (anth-name-pattern-128, 2025-08-14).
pub const NAME_PATTERN: &str = "^[a-zA-Z0-9_-]{1,128}$";

/// Whether a tool is one of Anthropic's built-in tools (`web_search_20250305`, `bash_20250124`,
/// `mcp_toolset`, ..: see `crate::input::anthropic_builtin`), which carries no `input_schema`.
pub fn is_builtin(t: &Value) -> bool {
    t.as_object().is_some_and(crate::input::anthropic_builtin)
}

/// [`super::envelope::Layout::is_function`]: every tool but a built-in one must be named.
fn is_function_tool(t: &Value) -> bool {
    !is_builtin(t)
}

/// The first problem of an Anthropic `tools` array, as `message`. Built-in tools
/// ([`is_builtin`]) are skipped but keep their place, so `tools.N` is the request's index.
pub fn check_tools(tools: &[Value]) -> Option<String> {
    for (i, t) in tools.iter().enumerate() {
        if is_builtin(t) {
            continue;
        }
        let name = t.get("name").and_then(Value::as_str).unwrap_or("");
        if name.chars().count() > 128 {
            return Some(format!(
                "tools.{i}.custom.name: String should have at most 128 characters"
            ));
        }
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Some(format!(
                "tools.{i}.custom.name: String should match pattern '{NAME_PATTERN}'"
            ));
        }
        let Some(schema) = t.get("input_schema") else {
            return Some(format!("tools.{i}.input_schema: Field required"));
        };
        if let Some(problem) = schema_problem(schema) {
            return Some(format!("tools.{i}.custom.input_schema: {problem}"));
        }
    }
    // anthropic-tool-names-unique (2025-08-04, with claude-code#10687): two tools of one
    // request, built-in ones included (LibreChat#13162: a built-in `web_search` beside an MCP
    // tool of that name), may not share a name. Checked after every tool's own fields, whose
    // errors name a tool; this one names only `tools`.
    let mut seen = std::collections::HashSet::new();
    if tools
        .iter()
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .any(|n| !seen.insert(n))
    {
        return Some("tools: Tool names must be unique.".into());
    }
    None
}

/// What Anthropic says about one `input_schema` (without the `tools.N.custom.input_schema: `
/// prefix).
pub fn schema_problem(schema: &Value) -> Option<String> {
    if !jsonschema::draft202012::meta::is_valid(schema) {
        return Some(format!(
            "JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at {TOOL_USE_DOCS}."
        ));
    }
    if let Value::Object(o) = schema
        && ["oneOf", "allOf", "anyOf"]
            .iter()
            .any(|k| o.contains_key(*k))
    {
        return Some(
            "input_schema does not support oneOf, allOf, or anyOf at the top level".into(),
        );
    }
    None
}

/// The offline model of `api.anthropic.com`.
pub struct AnthropicService;

impl Service for AnthropicService {
    fn slug(&self) -> &'static str {
        "anthropic"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        err(status, "invalid_request_error", message)
    }
    fn answer(&self, req: &Incoming) -> Reply {
        const LAYOUT: super::envelope::Layout = super::envelope::Layout {
            conversation: "/messages",
            tools: "/tools",
            name: "/name",
            is_function: is_function_tool,
        };
        let count = match req.path.as_str() {
            "/v1/messages/count_tokens" => true,
            "/v1/messages" => false,
            _ => return err(404, "not_found_error", "Not found"),
        };
        // n8n#37930 (missing); `invalid x-api-key` is Anthropic's known wrong-key text.
        match Cred::of(req.header("x-api-key")) {
            Cred::Missing => {
                return err(401, "authentication_error", "x-api-key header is required");
            }
            Cred::Invalid => return err(401, "authentication_error", "invalid x-api-key"),
            Cred::Valid => {}
        }
        let body = match super::envelope::parse(&req.body, &LAYOUT) {
            Ok(b) => b,
            Err(super::envelope::Refused::Envelope(m)) => {
                return err(400, "invalid_request_error", &m.message());
            }
            Err(super::envelope::Refused::Syntax(e)) => {
                return err(
                    400,
                    "invalid_request_error",
                    &format!("There was an error parsing the body of your request: {e}"),
                );
            }
        };
        if let Some(tools) = body.get("tools").and_then(Value::as_array)
            && let Some(message) = check_tools(tools)
        {
            return err(400, "invalid_request_error", &message);
        }
        if count {
            Reply::json(200, &json!({"input_tokens": (req.body.len() / 4).max(1)}))
        } else {
            Reply::json(
                200,
                &json!({"id": "msg_emulated", "type": "message", "role": "assistant", "content": [],
                        "model": body.get("model"), "stop_reason": "max_tokens",
                        "usage": {"input_tokens": 1, "output_tokens": 1}}),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reported_templates() {
        assert_eq!(
            check_tools(&[
                json!({"name":"t","input_schema":{"type":"object","properties":{"x":"number"}}})
            ])
            .unwrap(),
            format!(
                "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at {TOOL_USE_DOCS}."
            )
        );
        assert_eq!(
            check_tools(&[
                json!({"name":"t","input_schema":{"type":"object","oneOf":[{"required":["a"]}]}})
            ])
            .unwrap(),
            "tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"
        );
        assert_eq!(
            check_tools(&[json!({"name":"some.actor","input_schema":{"type":"object"}})]).unwrap(),
            "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"
        );
        assert_eq!(
            check_tools(&[json!({"name":"t","input_schema":{"type":"string"}})]),
            None
        );
    }
}
