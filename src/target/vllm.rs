//! `vllm/chat` and `sglang/chat`: self-hosted OpenAI-compatible servers, and their offline
//! models.
//!
//! Probe: `POST {base}/v1/chat/completions` with `tool_choice: "required"` (and for SGLang
//! `strict: true`): schemas are only compiled when constrained decoding is on, otherwise
//! they are only rendered into the chat template (open-historia PR#667). Only probed when
//! `VLLM_BASE_URL`/`SGLANG_BASE_URL` or `--base-url` is set; `VLLM_API_KEY`/`SGLANG_API_KEY`
//! is sent when the server was started with `--api-key` (then a wrong key answers 401
//! `{"error":"Unauthorized"}`).
//!
//! The models stand for servers using the xgrammar backend: vLLM refuses the features its
//! `has_xgrammar_unsupported_json_features` lists (`multipleOf`; `uniqueItems`, `contains`,
//! `minContains`, `maxContains`; `minProperties`, `maxProperties`, `propertyNames`,
//! `patternProperties`) with 400 `The provided JSON schema contains features not supported by
//! xgrammar.` (vllm-xgrammar-minitems; the message never names the keyword, vllm#26421). With
//! the default `auto` backend vLLM falls back to guidance instead and accepts them
//! (vllm-xgrammar-feature-list-update). SGLang prevalidates since September 2026 and answers
//! 400 naming a JSON Pointer (sglang-silent-drop-to-prevalidate); its wording is not known, so
//! the model's text is a placeholder (emulated answers are never evidence anyway).

use serde_json::{Value, json};

use super::openai::{self, chat_ok, chat_request, chat_views};
use super::wire::*;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// Which server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Server {
    Vllm,
    Sglang,
}

impl Route for Server {
    fn id(&self) -> &'static str {
        match self {
            Server::Vllm => "vllm/chat",
            Server::Sglang => "sglang/chat",
        }
    }
    fn service(&self) -> &'static str {
        match self {
            Server::Vllm => "vllm",
            Server::Sglang => "sglang",
        }
    }
    fn settings(&self) -> Settings {
        let (base_env, key_env): (&'static str, &'static [&'static str]) = match self {
            Server::Vllm => ("VLLM_BASE_URL", &["VLLM_API_KEY"]),
            Server::Sglang => ("SGLANG_BASE_URL", &["SGLANG_API_KEY"]),
        };
        Settings {
            base_url: "",
            base_env: Some(base_env),
            model: "default",
            model_env: None,
            key_env,
            api_version: None,
            keyless: Keyless::Open,
            method: "POST /v1/chat/completions (tool_choice required, max_tokens 1)",
            cost: "local",
        }
    }
    fn configure(&self, env: &dyn Env) -> RouteConfig {
        let mut cfg = default_config(&self.settings(), env);
        cfg.base_url = self.base_url(&cfg.base_url);
        cfg
    }
    /// A base URL conventionally ends in `/v1`, which the paths here carry.
    fn base_url(&self, written: &str) -> String {
        written.strip_suffix("/v1").unwrap_or(written).to_string()
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], _opts: &WireOptions) -> WireRequest {
        let strict = (*self == Server::Sglang).then_some(true);
        chat_request(
            cfg,
            tools,
            "/v1/chat/completions",
            strict,
            json!({"tool_choice": "required"}),
        )
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        let body = reply.json_body();
        if let Some(b) = &body
            && b.get("object").and_then(Value::as_str) == Some("error")
            && let Some(m) = b.get("message").and_then(Value::as_str)
        {
            if m.contains("JSON schema") || m.contains("json schema") || m.contains("grammar") {
                return Classified::rejected(Stage::Validate, m, None);
            }
            return classify_common(reply, Some(m.into()));
        }
        if body
            .as_ref()
            .and_then(|b| b.get("error"))
            .and_then(Value::as_str)
            == Some("Unauthorized")
        {
            return Classified::inconclusive(
                Stage::Auth,
                Some("Unauthorized".into()),
                "credential refused",
            );
        }
        openai::classify(reply, &["choices"])
    }
}

/// The keywords the models refuse (vLLM's `has_xgrammar_unsupported_json_features`): what
/// compile tries first when vLLM's message names none of them.
pub const UNSUPPORTED: &[&str] = &[
    "multipleOf",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "patternProperties",
];

/// The pointer of the first subschema using a feature xgrammar does not support.
pub fn unsupported(schema: &Value) -> Option<String> {
    crate::schema::walk(schema)
        .nodes
        .iter()
        .find(|n| {
            n.object()
                .is_some_and(|o| UNSUPPORTED.iter().any(|k| o.contains_key(*k)))
        })
        .map(|n| n.pointer.clone())
}

/// The offline model of a vLLM or SGLang server.
pub struct ServerService(pub Server);

impl Service for ServerService {
    fn slug(&self) -> &'static str {
        self.0.service()
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            &json!({"object": "error", "message": message, "type": "BadRequestError", "param": null, "code": status}),
        )
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path != "/v1/chat/completions" {
            return Reply::json(404, &json!({"detail": "Not Found"}));
        }
        if Cred::of(req.bearer()) == Cred::Invalid {
            return Reply::json(401, &json!({"error": "Unauthorized"}));
        }
        let err = |m: String| self.error_reply(400, &m);
        let body = match super::envelope::parse(&req.body, &super::envelope::Layout::CHAT) {
            Ok(b) => b,
            Err(e) => return err(e.message()),
        };
        let constrained = matches!(body.get("tool_choice"), Some(Value::String(s)) if s == "required")
            || matches!(body.get("tool_choice"), Some(Value::Object(_)));
        for t in chat_views(&body) {
            let Some(p) = t.parameters else { continue };
            let compiled = constrained || (self.0 == Server::Vllm && t.strict);
            if !compiled || (self.0 == Server::Sglang && !t.strict) {
                continue;
            }
            if let Some(ptr) = unsupported(p) {
                return err(match self.0 {
                    Server::Vllm => {
                        "The provided JSON schema contains features not supported by xgrammar."
                            .into()
                    }
                    Server::Sglang => format!(
                        "Invalid JSON schema: unsupported feature at {}",
                        if ptr.is_empty() { "/" } else { &ptr }
                    ),
                });
            }
        }
        let model = body.get("model").and_then(Value::as_str).unwrap_or("");
        Reply::json(200, &chat_ok(model))
    }
}
