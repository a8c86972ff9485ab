//! `deepseek/beta-strict`: DeepSeek's beta endpoint with strict function calling, and its
//! offline model.
//!
//! Probe: `POST https://api.deepseek.com/beta/chat/completions` with `function.strict: true`
//! and `max_tokens: 1` (billed; no count endpoint). Strict mode is beta-only and needs every
//! tool strict (api-docs.deepseek.com function_calling; deepseek-strict-beta-guardrails). The
//! wire baseline is the strict one (closed objects, all properties required: rig-core's summary
//! of the docs).
//!
//! Texts: `Invalid schema for function 'x': schema must be a JSON Schema of 'type:
//! "object"', got 'type: null'.` (cc-switch#5490; JSON `null` where OpenAI prints `"None"`),
//! the name pattern `^[a-zA-Z0-9_-]+$` with `param: null` and `code: invalid_request_error`
//! (deepseek-name-pattern), 401 `Authentication Fails …` (PROVIDERS.md §13). Strict-mode
//! refusals (open objects, optional properties, formats outside email, hostname, ipv4, ipv6,
//! uuid) are documented but their texts are not; the model words them as OpenAI does, which is
//! a guess.

use serde_json::{Value, json};

use super::openai::{self, ToolView, chat_ok, chat_views};
use super::wire::*;
use crate::tool::ToolDef;

/// The route.
pub struct DeepSeek;

impl Route for DeepSeek {
    fn id(&self) -> &'static str {
        "deepseek/beta-strict"
    }
    fn service(&self) -> &'static str {
        "deepseek"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://api.deepseek.com",
            base_env: None,
            model: "deepseek-chat",
            model_env: None,
            key_env: &["DEEPSEEK_API_KEY"],
            api_version: Some("beta"),
            keyless: Keyless::Skip,
            method: "POST /beta/chat/completions (strict, max_tokens 1)",
            cost: "billed: input tokens + 1 output token; 400s are free",
        }
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], opts: &WireOptions) -> WireRequest {
        let strict = opts.strict.unwrap_or(true);
        let close =
            (strict && !opts.raw).then(|| openai::Close::for_feature(opts.feature.as_deref()));
        openai::chat_request_closed(
            cfg,
            tools,
            "/beta/chat/completions",
            strict.then_some(true),
            json!({}),
            close,
        )
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        openai::classify(reply, &["choices"])
    }
}

/// Formats DeepSeek strict mode supports (rig-core's summary of the docs).
pub const FORMATS: &[&str] = &["email", "hostname", "ipv4", "ipv6", "uuid"];

fn invalid(message: String) -> Reply {
    invalid_with(400, &message)
}

/// DeepSeek's request error shape: OpenAI's, with `code` repeating the type.
fn invalid_with(status: u16, message: &str) -> Reply {
    Reply::json(
        status,
        &openai::error(
            message,
            "invalid_request_error",
            None,
            Some("invalid_request_error"),
        ),
    )
}

/// The first problem of a tool list under DeepSeek's rules.
pub fn check(views: &[ToolView<'_>]) -> Option<String> {
    for (i, t) in views.iter().enumerate() {
        let name = t.name.and_then(Value::as_str).unwrap_or("");
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Some(format!(
                "Invalid 'tools[{i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'."
            ));
        }
        if name.chars().count() > 64 {
            return Some(format!(
                "Invalid 'tools[{i}].function.name': string too long. Expected a string with maximum length 64, but got a string with length {} instead.",
                name.chars().count()
            ));
        }
        let Some(p) = t.parameters else { continue };
        let ty = p.get("type");
        if ty.and_then(Value::as_str) != Some("object") {
            let shown = match ty {
                None | Some(Value::Null) => "null".to_string(),
                Some(Value::String(s)) => format!("\"{s}\""),
                Some(other) => other.to_string(),
            };
            return Some(format!(
                "Invalid schema for function '{name}': schema must be a JSON Schema of 'type: \"object\"', got 'type: {shown}'."
            ));
        }
        if t.strict {
            if let Some(d) = openai::schema_problem(p, true, false) {
                return Some(format!("Invalid schema for function '{name}': {d}"));
            }
            for node in crate::schema::walk(p).nodes {
                if let Some(Value::String(f)) = node.object().and_then(|o| o.get("format"))
                    && !FORMATS.contains(&f.as_str())
                {
                    return Some(format!(
                        "Invalid schema for function '{name}': '{f}' is not a valid format."
                    ));
                }
            }
        }
    }
    None
}

/// The offline model of `api.deepseek.com`.
pub struct DeepSeekService;

impl Service for DeepSeekService {
    fn slug(&self) -> &'static str {
        "deepseek"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        invalid_with(status, message)
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if !matches!(
            req.path.as_str(),
            "/chat/completions" | "/v1/chat/completions" | "/beta/chat/completions"
        ) {
            return Reply::json(
                404,
                &openai::error("Not Found", "invalid_request_error", None, None),
            );
        }
        let auth_error = |m: String| {
            Reply::json(
                401,
                &openai::error(
                    &m,
                    "authentication_error",
                    None,
                    Some("invalid_request_error"),
                ),
            )
        };
        match Cred::of(req.bearer()) {
            Cred::Missing => {
                return auth_error(
                    "Authentication Fails (auth header format should be Bearer sk-...)".into(),
                );
            }
            Cred::Invalid => {
                return auth_error("Authentication Fails, Your api key: ****lid is invalid".into());
            }
            Cred::Valid => {}
        }
        let body = match super::envelope::parse(&req.body, &super::envelope::Layout::CHAT) {
            Ok(b) => b,
            Err(e) => return invalid(e.message()),
        };
        let mut views = chat_views(&body);
        if !req.path.starts_with("/beta/") {
            // Strict is beta-only; elsewhere the flag is ignored (deepseek-strict-beta-guardrails).
            for v in &mut views {
                v.strict = false;
            }
        }
        if let Some(m) = check(&views) {
            return invalid(m);
        }
        let model = body.get("model").and_then(Value::as_str).unwrap_or("");
        Reply::json(200, &chat_ok(model))
    }
}
