//! `openrouter`: OpenRouter chat completions with the upstream pinned, and its offline model.
//!
//! Probe: `POST https://openrouter.ai/api/v1/chat/completions` with
//! `provider: {only: [UPSTREAM], allow_fallbacks: false, require_parameters: true}` so the
//! verdict belongs to one upstream (openrouter.ai provider-routing). Upstream
//! `OPENROUTER_PROVIDER` (default `openai`), model `OPENROUTER_MODEL` (default
//! `openai/gpt-4.1-mini`); cost is the upstream's price for one output token.
//! Auth: `Authorization: Bearer OPENROUTER_API_KEY`; 401 `No auth credentials found`.
//!
//! Upstream refusals arrive as `{"error":{"message":"Provider returned error","code":400,
//! "metadata":{"raw":"<upstream body>","provider_name":"…"}}}` (hindsight#58; moltis and BoltAI
//! reports): the raw body is read with the upstream's own rules. The model relays to the
//! offline models of OpenAI, Azure, Anthropic, Google AI Studio (after the JSON-Schema →
//! `Schema` conversion the compat model uses; the conversion OpenRouter really does is not
//! documented) and Google Vertex; other upstreams accept. The raw Google body is pretty-printed
//! as in the moltis report.

use serde_json::{Value, json};

use super::openai::{self, OPENAI_RULES, chat_ok, chat_request, chat_views, check_tools};
use super::wire::*;
use super::{anthropic, google, vertex};
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// The route.
pub struct OpenRouter;

impl Route for OpenRouter {
    fn id(&self) -> &'static str {
        "openrouter"
    }
    fn service(&self) -> &'static str {
        "openrouter"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://openrouter.ai",
            base_env: None,
            model: "openai/gpt-4.1-mini",
            model_env: Some("OPENROUTER_MODEL"),
            key_env: &["OPENROUTER_API_KEY"],
            api_version: None,
            keyless: Keyless::Skip,
            method: "POST /api/v1/chat/completions (provider pinned, max_tokens 1)",
            cost: "billed at the upstream's price: input tokens + 1 output token",
        }
    }
    fn configure(&self, env: &dyn Env) -> RouteConfig {
        let mut cfg = default_config(&self.settings(), env);
        cfg.extra.insert(
            "upstream".into(),
            env.var("OPENROUTER_PROVIDER")
                .unwrap_or_else(|| "openai".into()),
        );
        cfg
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], _opts: &WireOptions) -> WireRequest {
        let provider = json!({"only": [cfg.extra_or("upstream", "openai")], "allow_fallbacks": false, "require_parameters": true});
        chat_request(
            cfg,
            tools,
            "/api/v1/chat/completions",
            None,
            json!({"provider": provider}),
        )
    }
    fn classify(&self, cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        classify(reply, &cfg.extra_or("upstream", "openai"))
    }
}

/// Reads an OpenRouter answer; relayed upstream bodies are read by the upstream's rules.
pub fn classify(reply: &Reply, upstream: &str) -> Classified {
    let body = reply.json_body();
    let err = body.as_ref().and_then(|b| b.get("error"));
    if let Some(raw) = err
        .and_then(|e| e.pointer("/metadata/raw"))
        .and_then(Value::as_str)
    {
        let code = err
            .and_then(|e| e.get("code"))
            .and_then(Value::as_u64)
            .unwrap_or(400) as u16;
        let name = err
            .and_then(|e| e.pointer("/metadata/provider_name"))
            .and_then(Value::as_str)
            .unwrap_or(upstream)
            .to_string();
        let inner = Reply {
            status: code,
            headers: vec![],
            body: raw.as_bytes().to_vec(),
        };
        let c = classify_upstream(&inner, &name);
        return c.note(format!("relayed by OpenRouter from {name}"));
    }
    if let Some(e) = err {
        let message = e.get("message").and_then(Value::as_str).map(str::to_string);
        if matches!(reply.status, 401 | 403) {
            return Classified::inconclusive(Stage::Auth, message, "credential refused");
        }
        return classify_common(reply, message)
            .note("OpenRouter answered itself (routing, credits, limits): not a schema verdict");
    }
    openai::classify(reply, &["choices"])
}

fn classify_upstream(inner: &Reply, name: &str) -> Classified {
    let n = name.to_ascii_lowercase();
    if n.contains("anthropic") {
        anthropic::classify(inner)
    } else if n.contains("google") || n.contains("vertex") {
        google::classify(inner, false, &[])
    } else {
        openai::classify(inner, &[])
    }
}

fn relay(raw: &Value, pretty: bool, provider: &str) -> Reply {
    let raw = if pretty {
        serde_json::to_string_pretty(raw).unwrap_or_default()
    } else {
        raw.to_string()
    };
    Reply::json(
        400,
        &json!({"error": {"message": "Provider returned error", "code": 400,
                                        "metadata": {"raw": raw, "provider_name": provider}}}),
    )
}

/// The offline model of `openrouter.ai`.
pub struct OpenRouterService;

impl Service for OpenRouterService {
    fn slug(&self) -> &'static str {
        "openrouter"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            &json!({"error": {"message": message, "code": status}}),
        )
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path != "/api/v1/chat/completions" {
            return Reply::json(
                404,
                &json!({"error": {"message": "Not Found", "code": 404}}),
            );
        }
        match Cred::of(req.bearer()) {
            Cred::Missing => {
                return Reply::json(
                    401,
                    &json!({"error": {"message": "No auth credentials found", "code": 401}}),
                );
            }
            Cred::Invalid => {
                return Reply::json(
                    401,
                    &json!({"error": {"message": "No cookie auth credentials found", "code": 401}}),
                );
            }
            Cred::Valid => {}
        }
        let body = match super::envelope::parse(&req.body, &super::envelope::Layout::CHAT) {
            Ok(b) => b,
            Err(e) => return self.error_reply(400, &e.message()),
        };
        let upstream = body
            .pointer("/provider/only/0")
            .and_then(Value::as_str)
            .or_else(|| {
                body.get("model")
                    .and_then(Value::as_str)
                    .and_then(|m| m.split('/').next())
            })
            .unwrap_or("openai")
            .to_ascii_lowercase();
        let views = chat_views(&body);
        match upstream.as_str() {
            "openai" | "azure" => {
                if let Some(e) = check_tools(&views, OPENAI_RULES) {
                    let name = if upstream == "azure" {
                        "Azure"
                    } else {
                        "OpenAI"
                    };
                    return relay(&openai::tool_error(&e), false, name);
                }
            }
            "anthropic" => {
                let tools: Vec<Value> = views
                    .iter()
                    .map(|v| json!({"name": v.name, "description": v.description, "input_schema": v.parameters}))
                    .collect();
                if let Some(m) = anthropic::check_tools(&tools) {
                    let raw = json!({"type": "error", "error": {"type": "invalid_request_error", "message": m}});
                    return relay(&raw, false, "Anthropic");
                }
            }
            "google-ai-studio" | "google" => {
                let decls: Vec<Value> = views
                    .iter()
                    .map(|v| {
                        let mut d = json!({"name": v.name});
                        if let Some(p) = v.parameters {
                            d["parameters"] = super::gemini_compat::to_schema(p, 0);
                        }
                        d
                    })
                    .collect();
                let problems =
                    super::gemini::validate(&json!({"tools": [{"functionDeclarations": decls}]}));
                if !problems.is_empty() {
                    let raw = google::error_body(
                        400,
                        "INVALID_ARGUMENT",
                        &google::devapi_message(&problems),
                        None,
                    );
                    return relay(&raw, true, "Google AI Studio");
                }
            }
            "google-vertex" => {
                let decls: Vec<Value> = views
                    .iter()
                    .map(|v| {
                        let mut d = json!({"name": v.name});
                        if let Some(p) = v.parameters {
                            d["parameters"] = super::gemini_compat::to_schema(p, 0);
                        }
                        d
                    })
                    .collect();
                if let Some(m) =
                    vertex::validate(&json!({"tools": [{"functionDeclarations": decls}]}))
                {
                    let raw = google::error_body(400, "INVALID_ARGUMENT", &m, None);
                    return relay(&raw, true, "Google");
                }
            }
            _ => {}
        }
        let model = body.get("model").and_then(Value::as_str).unwrap_or("");
        Reply::json(200, &chat_ok(model))
    }
}
