//! `mistral/chat`: Mistral chat completions, and its offline model.
//!
//! Probe: `POST https://api.mistral.ai/v1/chat/completions`, `max_tokens: 1` (billed; no
//! token-count endpoint). Auth: `Authorization: Bearer MISTRAL_API_KEY`; 401
//! `{"detail":"Unauthorized"}` (PROVIDERS.md §10).
//!
//! The request is pydantic-validated and forbids extra keys: 422
//! `{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":[…],"msg":"Extra
//! inputs are not permitted","input":…}]},"type":"invalid_request_error",…}`
//! (mistralai/client-python#91). `parameters` is a free-form object; how far its content is
//! validated is unknown. The one documented refusal: `$id`/`$schema` since August 2025, `Grammar
//! error: at 3(11): failed to compile JSON schema` (mistral-id-schema-grammar; the position is
//! copied from that report and is not modelled). A function name outside `^[a-zA-Z0-9_-]{1,64}$`
//! is refused with 400 `Function name was NAME but must be a-z, A-Z, 0-9, or contain underscores
//! and dashes, with a maximum length of 64.` (mistral-function-name-pattern: the text as LiteLLM
//! relayed it, `MistralException - ...`; the JSON envelope around it is the emulator's).
//! Everything else is accepted.

use serde_json::{Value, json};

use super::openai::{self, chat_ok, chat_request};
use super::wire::*;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// The route.
pub struct Mistral;

impl Route for Mistral {
    fn id(&self) -> &'static str {
        "mistral/chat"
    }
    fn service(&self) -> &'static str {
        "mistral"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://api.mistral.ai",
            base_env: None,
            model: "mistral-small-latest",
            model_env: None,
            key_env: &["MISTRAL_API_KEY"],
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

/// Reads a Mistral answer: pydantic `detail` entries located in `tools` are parse-stage
/// rejections; `Grammar error` and `Function name was ...` texts are validate-stage rejections.
pub fn classify(reply: &Reply) -> Classified {
    let body = reply.json_body();
    if let Some(b) = &body
        && b.get("object").and_then(Value::as_str) == Some("error")
    {
        if let Some(details) = b.pointer("/message/detail").and_then(Value::as_array)
            && let Some(d) = details.iter().find(|d| {
                d.get("loc")
                    .and_then(Value::as_array)
                    .is_some_and(|l| l.get(1).and_then(Value::as_str) == Some("tools"))
            })
        {
            let loc: Vec<String> = d["loc"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|x| match x {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect();
            let msg = d
                .get("msg")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            return Classified::rejected(Stage::Parse, msg, Some(loc.join(".")));
        }
        if let Some(m) = b.get("message").and_then(Value::as_str) {
            if m.contains("failed to compile JSON schema") || m.starts_with("Grammar error") {
                return Classified::rejected(Stage::Validate, m, None);
            }
            if m.starts_with("Function name was ") {
                return Classified::rejected(Stage::Validate, m, None);
            }
            if b.get("type").and_then(Value::as_str) == Some("rate_limited") {
                return Classified::inconclusive(Stage::Quota, Some(m.into()), "rate limited")
                    .retry(retry_after(reply).unwrap_or(Retry::Backoff));
            }
            return classify_common(reply, Some(m.into()));
        }
    }
    openai::classify(reply, &["choices"])
}

/// `^[a-zA-Z0-9_-]{1,64}$`, the rule Mistral's own refusal states (mistral-function-name-pattern).
fn is_valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn detail(loc: Vec<Value>, kind: &str, msg: &str, input: &Value) -> Reply {
    Reply::json(
        422,
        &json!({"object": "error", "message": {"detail": [{"type": kind, "loc": loc, "msg": msg, "input": input}]},
                "type": "invalid_request_error", "param": null, "code": null}),
    )
}

/// The offline model of `api.mistral.ai`.
pub struct MistralService;

impl Service for MistralService {
    fn slug(&self) -> &'static str {
        "mistral"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            &json!({"object": "error", "message": message, "type": "invalid_request_error", "param": null, "code": null}),
        )
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path != "/v1/chat/completions" {
            return Reply::json(404, &json!({"detail": "Not Found"}));
        }
        if Cred::of(req.bearer()) != Cred::Valid {
            return Reply::json(401, &json!({"detail": "Unauthorized"}));
        }
        let body = match super::envelope::parse(&req.body, &super::envelope::Layout::CHAT) {
            Ok(b) => b,
            Err(super::envelope::Refused::Syntax(e)) => {
                return detail(
                    vec![json!("body")],
                    "json_invalid",
                    &format!("JSON decode error: {e}"),
                    &Value::Null,
                );
            }
            // Pydantic's shape; the type and text are the emulator's (see envelope's docs).
            Err(e) => return detail(vec![json!("body")], "emulated", &e.message(), &Value::Null),
        };
        if let Some(tools) = body.get("tools").and_then(Value::as_array) {
            for (i, t) in tools.iter().enumerate() {
                let Some(f) = t.get("function").and_then(Value::as_object) else {
                    continue;
                };
                for (k, v) in f {
                    if !matches!(k.as_str(), "name" | "description" | "parameters" | "strict") {
                        return detail(
                            vec![
                                json!("body"),
                                json!("tools"),
                                json!(i),
                                json!("function"),
                                json!(k),
                            ],
                            "extra_forbidden",
                            "Extra inputs are not permitted",
                            v,
                        );
                    }
                }
                if let Some(name) = f.get("name").and_then(Value::as_str)
                    && !is_valid_name(name)
                {
                    return Reply::json(
                        400,
                        &json!({"object": "error", "message": format!("Function name was {name} but must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64."), "type": "invalid_request_error", "param": null, "code": null}),
                    );
                }
                if let Some(p) = f.get("parameters") {
                    if !p.is_object() {
                        return detail(
                            vec![
                                json!("body"),
                                json!("tools"),
                                json!(i),
                                json!("function"),
                                json!("parameters"),
                            ],
                            "dict_type",
                            "Input should be a valid dictionary",
                            p,
                        );
                    }
                    if p.get("$id").is_some() || p.get("$schema").is_some() {
                        return Reply::json(
                            400,
                            &json!({"object": "error", "message": "Grammar error: at 3(11): failed to compile JSON schema", "type": "invalid_request_error", "param": null, "code": null}),
                        );
                    }
                }
            }
        }
        let model = body.get("model").and_then(Value::as_str).unwrap_or("");
        Reply::json(200, &chat_ok(model))
    }
}
