//! `together/chat`: Together AI chat completions (OpenAI tool format), and its offline model.
//!
//! Probe: `POST https://api.together.xyz/v1/chat/completions`, `max_tokens: 1` (billed).
//! Auth first: an unauthenticated request answers 401 (oh-my-pi PR#8329); a wrong key answers
//! `Invalid API key provided. You can find your API key at
//! https://api.together.xyz/settings/api-keys.` (PROVIDERS.md §16).
//! No schema refusal by Together itself is documented (the only report is client-side,
//! together-litellm-gate): the model accepts every schema.

use serde_json::{Value, json};

use super::openai::{self, chat_ok, chat_request};
use super::wire::*;
use crate::tool::ToolDef;

/// The route.
pub struct Together;

impl Route for Together {
    fn id(&self) -> &'static str {
        "together/chat"
    }
    fn service(&self) -> &'static str {
        "together"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://api.together.xyz",
            base_env: None,
            model: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
            model_env: None,
            key_env: &["TOGETHER_API_KEY"],
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
        openai::classify(reply, &["choices"])
    }
}

/// The offline model of `api.together.xyz`.
pub struct TogetherService;

impl Service for TogetherService {
    fn slug(&self) -> &'static str {
        "together"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            &openai::error(message, "invalid_request_error", None, None),
        )
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path != "/v1/chat/completions" {
            return Reply::json(
                404,
                &openai::error("Not Found", "invalid_request_error", None, None),
            );
        }
        if Cred::of(req.bearer()) != Cred::Valid {
            return Reply::json(
                401,
                &openai::error(
                    "Invalid API key provided. You can find your API key at https://api.together.xyz/settings/api-keys.",
                    "invalid_request_error",
                    None,
                    Some("invalid_api_key"),
                ),
            );
        }
        match super::envelope::parse(&req.body, &super::envelope::Layout::CHAT) {
            Ok(b) => Reply::json(
                200,
                &chat_ok(b.get("model").and_then(Value::as_str).unwrap_or("")),
            ),
            Err(e) => Reply::json(
                400,
                &openai::error(&e.message(), "invalid_request_error", None, None),
            ),
        }
    }
}
