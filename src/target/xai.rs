//! `xai/chat`: xAI's chat completions, and its offline model.
//!
//! Probe: `POST https://api.x.ai/v1/chat/completions`, `max_tokens: 1` (billed). Auth:
//! `Authorization: Bearer XAI_API_KEY`. Error bodies are `{"code": "Client specified an
//! invalid argument", "error": "…"}`; **a wrong key is a 400** (`Incorrect API key provided:
//! xa***..`, aider-desk#653), so answers are read by their text (PROVIDERS.md §12).
//!
//! Rules (reports.yaml): `oneOf` refused (xai-oneof-zed, no text quoted), `null` inside an
//! `enum` refused (xai-null-in-enum, only the code quoted); both answer with the text seen for
//! a schema refusal through OCI (`Invalid request content: Invalid function schema.`,
//! xai-oci-invalid-function-schema). `additionalProperties: false` was refused in April–May
//! 2026 and is accepted since September 2026 (xai-additionalproperties-false-accepted-later):
//! the model accepts it. The missing-key answer is not documented; modelled like a wrong key.

use serde_json::{Value, json};

use super::openai::{self, chat_ok, chat_request, chat_views};
use super::wire::*;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// The route.
pub struct Xai;

/// xAI's error code for client errors.
pub const CODE: &str = "Client specified an invalid argument";

impl Route for Xai {
    fn id(&self) -> &'static str {
        "xai/chat"
    }
    fn service(&self) -> &'static str {
        "xai"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://api.x.ai",
            base_env: None,
            model: "grok-4",
            model_env: None,
            key_env: &["XAI_API_KEY"],
            api_version: None,
            keyless: Keyless::Skip,
            method: "POST /v1/chat/completions (max_tokens 1)",
            cost: "billed: input tokens + 1 output token",
        }
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], _opts: &WireOptions) -> WireRequest {
        chat_request(cfg, tools, "/v1/chat/completions", None, json!({}))
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        classify(reply)
    }
}

/// Reads an xAI answer by its text.
pub fn classify(reply: &Reply) -> Classified {
    let body = reply.json_body();
    if let Some(b) = &body
        && b.get("code").and_then(Value::as_str).is_some()
        && let Some(text) = b.get("error").and_then(Value::as_str)
    {
        if text.starts_with("Incorrect API key") || text.contains("API key") {
            return Classified::inconclusive(
                Stage::Auth,
                Some(text.into()),
                "credential refused (xAI answers 400)",
            );
        }
        if text.contains("Invalid function schema")
            || text.contains("Schema validation failed")
            || text.contains("function schema")
        {
            let path = text
                .split("] ")
                .nth(1)
                .and_then(|r| r.split(':').next())
                .map(str::to_string);
            return Classified::rejected(Stage::Validate, text, path);
        }
        return classify_common(reply, Some(text.into()));
    }
    openai::classify(reply, &["choices"])
}

fn has_one_of_or_null_enum(schema: &Value) -> bool {
    crate::schema::walk(schema).nodes.iter().any(|n| {
        n.object().is_some_and(|o| {
            o.contains_key("oneOf")
                || o.get("enum")
                    .and_then(Value::as_array)
                    .is_some_and(|e| e.iter().any(Value::is_null))
        })
    })
}

/// The offline model of `api.x.ai`.
pub struct XaiService;

impl Service for XaiService {
    fn slug(&self) -> &'static str {
        "xai"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(status, &json!({"code": CODE, "error": message}))
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path != "/v1/chat/completions" {
            return Reply::json(404, &json!({"code": "Not found", "error": "Not found"}));
        }
        if Cred::of(req.bearer()) != Cred::Valid {
            let shown: String = req.bearer().unwrap_or("").chars().take(2).collect();
            return Reply::json(
                400,
                &json!({"code": CODE, "error": format!("Incorrect API key provided: {shown}***..")}),
            );
        }
        let body = match super::envelope::parse(&req.body, &super::envelope::Layout::CHAT) {
            Ok(b) => b,
            Err(e) => return self.error_reply(400, &e.message()),
        };
        for t in chat_views(&body) {
            if let Some(p) = t.parameters
                && has_one_of_or_null_enum(p)
            {
                return Reply::json(
                    400,
                    &json!({"code": CODE, "error": "Invalid request content: Invalid function schema."}),
                );
            }
        }
        let model = body.get("model").and_then(Value::as_str).unwrap_or("");
        Reply::json(200, &chat_ok(model))
    }
}
