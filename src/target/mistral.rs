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

/// Reads a Mistral answer: pydantic `detail` entries whose `loc` runs through `tools` are
/// parse-stage rejections; `Grammar error` and `Function name was ...` texts are validate-stage
/// rejections. Any other refusal, an entry located elsewhere (`model`, `messages`,
/// `max_tokens`) included, is inconclusive: the case's schema cannot have caused it.
pub fn classify(reply: &Reply) -> Classified {
    let body = reply.json_body();
    if let Some(b) = &body
        && b.get("object").and_then(Value::as_str) == Some("error")
    {
        if let Some(details) = b.pointer("/message/detail").and_then(Value::as_array) {
            return classify_detail(reply, details);
        }
        if let Some(m) = b.get("message").and_then(Value::as_str) {
            // The tool's `parameters` is the only JSON Schema the probe sends (no
            // `response_format`), so a schema that failed to compile is the case's.
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

/// One pydantic `loc` written as a dotted path (`body.tools.0.function.x`).
fn loc_path(d: &Value) -> Option<String> {
    let loc = d.get("loc")?.as_array()?;
    let parts: Vec<String> = loc
        .iter()
        .map(|x| match x {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    Some(parts.join("."))
}

/// Whether a pydantic `loc` runs through the request's `tools` (with or without the `body`
/// FastAPI puts first).
fn loc_in_tools(d: &Value) -> bool {
    d.get("loc")
        .and_then(Value::as_array)
        .is_some_and(|l| l.iter().take(2).any(|x| x.as_str() == Some("tools")))
}

/// A 422's `detail` list: a rejection when one entry lies in `tools`, otherwise inconclusive
/// naming where the first entry points, since a refusal of the envelope says nothing about
/// the schema (and would confound the control with every case).
fn classify_detail(reply: &Reply, details: &[Value]) -> Classified {
    let msg = |d: &Value| {
        d.get("msg")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    if let Some(d) = details.iter().find(|d| loc_in_tools(d)) {
        return Classified::rejected(Stage::Parse, msg(d), loc_path(d));
    }
    let first = details.first();
    let error = first.map(msg).filter(|m| !m.is_empty());
    let status = reply.status;
    let note = match first.and_then(loc_path) {
        Some(p) => format!(
            "HTTP {status}: the refusal names `{p}`, outside the tool block (not a schema rejection: the case does not change it)"
        ),
        None => format!(
            "HTTP {status}: the refusal names no field of the tool block (not a schema rejection: the case does not change it)"
        ),
    };
    let c = classify_common(reply, error);
    // Auth, quota and server answers keep the note that says what they are.
    if matches!(status, 400 | 404 | 409 | 413 | 422) {
        c.note(note)
    } else {
        c
    }
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

#[cfg(test)]
mod tests {
    //! The bodies are SYNTHETIC, shaped after the 422 quoted in mistralai/client-python#91
    //! (`{"object":"error","message":{"detail":[…]},…}`) and OpenAI's error envelope; none of
    //! them was observed from api.mistral.ai.

    use serde_json::{Value, json};

    use super::classify;
    use crate::evidence::Verdict;
    use crate::target::wire::Reply;

    fn pydantic(loc: Value, kind: &str, msg: &str) -> Value {
        json!({"object":"error","message":{"detail":[{"type":kind,"loc":loc,"msg":msg,"input":{}}]},
               "type":"invalid_request_error","param":null,"code":null})
    }

    #[test]
    fn a_pydantic_refusal_outside_tools_is_inconclusive_and_names_the_field() {
        for (loc, field) in [
            (json!(["body", "model"]), "body.model"),
            (
                json!(["body", "messages", 0, "content"]),
                "body.messages.0.content",
            ),
            (json!(["body", "max_tokens"]), "body.max_tokens"),
        ] {
            for status in [400, 422] {
                let body = pydantic(loc.clone(), "missing", "Field required");
                let c = classify(&Reply::json(status, &body));
                assert_eq!(c.verdict, Verdict::Inconclusive, "{status} {loc}");
                let note = c.note.unwrap_or_default();
                assert!(
                    note.contains(&format!("names `{field}`"))
                        && note.contains("outside the tool block"),
                    "{status} {loc}: {note}"
                );
            }
        }
    }

    #[test]
    fn a_pydantic_refusal_located_in_tools_is_a_rejection_with_its_path() {
        for (loc, path) in [
            (
                json!(["body", "tools", 0, "function", "x"]),
                "body.tools.0.function.x",
            ),
            // Without FastAPI's leading `body`.
            (json!(["tools", 0, "function", "x"]), "tools.0.function.x"),
        ] {
            let body = pydantic(loc, "extra_forbidden", "Extra inputs are not permitted");
            let c = classify(&Reply::json(422, &body));
            assert_eq!(c.verdict, Verdict::Rejected, "{body}");
            assert_eq!(c.path.as_deref(), Some(path));
        }
    }

    #[test]
    fn an_openai_shaped_refusal_outside_tools_is_inconclusive() {
        for (message, param) in [
            ("Invalid model: mistral-nine", Value::Null),
            ("messages: must not be empty", Value::Null),
            ("max_tokens must be at least 1", json!("max_tokens")),
        ] {
            let body = json!({"error":{"message":message,"type":"invalid_request_error","param":param,"code":null}});
            for status in [400, 422] {
                let c = classify(&Reply::json(status, &body));
                assert_eq!(c.verdict, Verdict::Inconclusive, "{status} {message}");
                assert!(c.note.is_some_and(|n| !n.is_empty()), "{message}");
            }
        }
    }

    #[test]
    fn an_auth_refusal_keeps_its_note() {
        let body = pydantic(
            json!(["header", "authorization"]),
            "missing",
            "Field required",
        );
        let c = classify(&Reply::json(401, &body));
        assert_eq!(c.verdict, Verdict::Inconclusive);
        assert!(c.note.unwrap_or_default().contains("credentials"));
    }
}
