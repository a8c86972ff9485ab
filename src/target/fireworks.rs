//! `fireworks/chat`: Fireworks AI chat completions, and its offline model.
//!
//! Probe: `POST https://api.fireworks.ai/inference/v1/chat/completions`, `max_tokens: 1`
//! (billed). Auth: `Authorization: Bearer FIREWORKS_API_KEY`; error shapes and the 401 text
//! are not documented (PROVIDERS.md §17): the model's 401 is a guess.
//!
//! Rule (reports.yaml fireworks-items-only-instance, fireworks-required-only-instance): a
//! subschema the converter cannot classify is refused with ``JSON Schema not supported: could
//! not understand the instance `<python repr>`.`` — seen for `{'items': …}` without `type`
//! and for an `anyOf` branch holding only `required`. The model calls a subschema understood
//! when it has `type`, a combinator, `enum`, `const`, `$ref` or `properties`, or is `{}`
//! (the exact rule is unknown). The error envelope follows the second report.

use serde_json::{Value, json};

use super::openai::{self, chat_ok, chat_request, chat_views};
use super::pyrepr::repr;
use super::wire::*;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// The route.
pub struct Fireworks;

impl Route for Fireworks {
    fn id(&self) -> &'static str {
        "fireworks/chat"
    }
    fn service(&self) -> &'static str {
        "fireworks"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://api.fireworks.ai",
            base_env: None,
            model: "accounts/fireworks/models/llama-v3p1-8b-instruct",
            model_env: None,
            key_env: &["FIREWORKS_API_KEY"],
            api_version: None,
            keyless: Keyless::Skip,
            method: "POST /inference/v1/chat/completions (max_tokens 1)",
            cost: "billed: input tokens + 1 output token",
        }
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], _opts: &WireOptions) -> WireRequest {
        chat_request(
            cfg,
            tools,
            "/inference/v1/chat/completions",
            None,
            json!({}),
        )
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        let body = reply.json_body();
        if let Some(m) = body
            .as_ref()
            .and_then(|b| b.pointer("/error/message"))
            .and_then(Value::as_str)
            && m.starts_with("JSON Schema not supported")
        {
            return Classified::rejected(Stage::Validate, m, None);
        }
        openai::classify(reply, &["choices"])
    }
}

/// The first subschema Fireworks cannot classify.
pub fn not_understood(schema: &Value) -> Option<&Value> {
    crate::schema::walk(schema)
        .nodes
        .into_iter()
        .map(|n| n.value)
        .find(|v| match v {
            Value::Object(o) => {
                !o.is_empty()
                    && ![
                        "type",
                        "anyOf",
                        "oneOf",
                        "allOf",
                        "enum",
                        "const",
                        "$ref",
                        "properties",
                    ]
                    .iter()
                    .any(|k| o.contains_key(*k))
            }
            Value::Bool(_) => false,
            _ => true,
        })
}

/// The offline model of `api.fireworks.ai`.
pub struct FireworksService;

impl Service for FireworksService {
    fn slug(&self) -> &'static str {
        "fireworks"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            &openai::error(message, "invalid_request_error", None, None),
        )
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path != "/inference/v1/chat/completions" {
            return Reply::json(
                404,
                &json!({"error": {"object": "error", "type": "not_found_error", "message": "Not Found"}}),
            );
        }
        if Cred::of(req.bearer()) != Cred::Valid {
            return Reply::json(
                401,
                &json!({"error": {"object": "error", "type": "invalid_request_error", "message": "The API key you provided is invalid."}}),
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
        for t in chat_views(&body) {
            if let Some(p) = t.parameters
                && let Some(bad) = not_understood(p)
            {
                let m = format!(
                    "JSON Schema not supported: could not understand the instance `{}`.",
                    repr(bad)
                );
                return Reply::json(
                    400,
                    &json!({"error": {"type": "invalid_request_error", "message": m}, "type": "error"}),
                );
            }
        }
        Reply::json(
            200,
            &chat_ok(body.get("model").and_then(Value::as_str).unwrap_or("")),
        )
    }
}
