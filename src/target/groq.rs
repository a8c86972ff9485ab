//! `groq/chat`: Groq's OpenAI-compatible chat completions, and its offline model.
//!
//! Probe: `POST https://api.groq.com/openai/v1/chat/completions`, `max_tokens: 1` (billed; a
//! free tier exists). Auth: `Authorization: Bearer GROQ_API_KEY`; 401 `Invalid API Key`,
//! code `invalid_api_key` (PROVIDERS.md §14).
//!
//! Texts: `invalid JSON schema for tool X, tools[i].function.parameters: 'required' present
//! but 'properties' is missing` with `param: "tool X, tools[i].function.parameters"`
//! (strix#1088, groq-required-without-properties), and the OpenAI-style `Invalid schema for
//! function 'f': In context=('properties', 'k'), schema must have a 'type' key.`
//! (groq-livekit-two-errors). Groq compiles schemas against the 2020-12 meta-schema
//! (langchain#31132); the text after the common prefix for such failures is not known, the
//! model prints the jsonschema crate's. `tool_use_failed` (output validation) needs a
//! generation and is not modelled.

use serde_json::{Value, json};

use super::openai::{self, chat_ok, chat_request, chat_views, context};
use super::wire::*;
use crate::tool::ToolDef;

/// The route.
pub struct Groq;

impl Route for Groq {
    fn id(&self) -> &'static str {
        "groq/chat"
    }
    fn service(&self) -> &'static str {
        "groq"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://api.groq.com",
            base_env: None,
            model: "llama-3.3-70b-versatile",
            model_env: None,
            key_env: &["GROQ_API_KEY"],
            api_version: None,
            keyless: Keyless::Skip,
            method: "POST /openai/v1/chat/completions (max_tokens 1)",
            cost: "billed (free tier): input tokens + 1 output token",
        }
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], _opts: &WireOptions) -> WireRequest {
        chat_request(cfg, tools, "/openai/v1/chat/completions", None, json!({}))
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        openai::classify(reply, &["choices"])
    }
}

/// The first problem Groq reports for one tool: (message, param).
pub fn check(name: &str, index: usize, p: &Value) -> Option<(String, String)> {
    let param = format!("tool {name}, tools[{index}].function.parameters");
    let o = p.as_object()?;
    if o.contains_key("required") && !o.contains_key("properties") {
        return Some((
            format!(
                "invalid JSON schema for tool {name}, tools[{index}].function.parameters: 'required' present but 'properties' is missing"
            ),
            param,
        ));
    }
    if let Err(e) = jsonschema::draft202012::meta::validate(p) {
        return Some((
            format!("invalid JSON schema for tool {name}, tools[{index}].function.parameters: {e}"),
            param,
        ));
    }
    if let Some(Value::Object(props)) = o.get("properties") {
        for (k, v) in props {
            let typed = v.as_object().is_some_and(|s| {
                ["type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const"]
                    .iter()
                    .any(|kw| s.contains_key(*kw))
            });
            if !typed {
                let c = context(&["properties".to_string(), k.clone()]);
                return Some((
                    format!(
                        "Invalid schema for function '{name}': In context={c}, schema must have a 'type' key."
                    ),
                    format!("tools[{index}].function.parameters"),
                ));
            }
        }
    }
    None
}

/// The offline model of `api.groq.com`.
pub struct GroqService;

impl Service for GroqService {
    fn slug(&self) -> &'static str {
        "groq"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            &openai::error(message, "invalid_request_error", None, None),
        )
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path != "/openai/v1/chat/completions" {
            return Reply::json(
                404,
                &openai::error(
                    "Unknown request URL",
                    "invalid_request_error",
                    None,
                    Some("unknown_url"),
                ),
            );
        }
        if Cred::of(req.bearer()) != Cred::Valid {
            return Reply::json(
                401,
                &openai::error(
                    "Invalid API Key",
                    "invalid_request_error",
                    None,
                    Some("invalid_api_key"),
                ),
            );
        }
        let body = match super::envelope::parse(&req.body, &super::envelope::Layout::CHAT) {
            Ok(b) => b,
            Err(e) => {
                return Reply::json(
                    400,
                    &openai::error(&e.message(), "invalid_request_error", None, None),
                );
            }
        };
        for (i, t) in chat_views(&body).iter().enumerate() {
            let name = t.name.and_then(Value::as_str).unwrap_or("");
            if let Some(p) = t.parameters
                && let Some((m, param)) = check(name, i, p)
            {
                return Reply::json(
                    400,
                    &json!({"error": {"message": m, "type": "invalid_request_error", "param": param}}),
                );
            }
        }
        let model = body.get("model").and_then(Value::as_str).unwrap_or("");
        Reply::json(200, &chat_ok(model))
    }
}
