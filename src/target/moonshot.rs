//! `moonshot/chat`: Moonshot (Kimi) chat completions, and its offline model.
//!
//! Probe: `POST https://api.moonshot.ai/v1/chat/completions`, `max_tokens: 1` (billed).
//! Auth: `Authorization: Bearer MOONSHOT_API_KEY` (401 body not documented in the sources;
//! modelled as `Invalid Authentication`).
//!
//! Texts (reports.yaml): `Invalid request: tools.function.parameters is not a valid moonshot
//! flavored json schema, details: <At path 'properties.source': type is not defined>`
//! (moonshot-type-not-defined), `conflicting keywords found after $ref expansion: description`
//! (moonshot-ref-expansion-conflict), and the root rule `tools.function.parameters.type is
//! required and must be "object"` (moonshot-acceptance-official-endpoint). The anyOf-under-a-
//! typed-parent refusal (moonshot-anyof-parent-type-property) was later measured accepted on
//! the official endpoints (same acceptance report): accepted here. Tuple `items` and
//! `items: false` are refused (moonshot-mfjs-normalizer) with wording taken from that report's
//! summary, not verbatim.

use serde_json::{Value, json};

use super::openai::{self, chat_ok, chat_request, chat_views};
use super::wire::*;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// The route.
pub struct Moonshot;

impl Route for Moonshot {
    fn id(&self) -> &'static str {
        "moonshot/chat"
    }
    fn service(&self) -> &'static str {
        "moonshot"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://api.moonshot.ai",
            base_env: None,
            model: "kimi-k2-0905-preview",
            model_env: None,
            key_env: &["MOONSHOT_API_KEY"],
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
        let body = reply.json_body();
        if let Some(m) = body
            .as_ref()
            .and_then(|b| b.pointer("/error/message"))
            .and_then(Value::as_str)
            && m.contains("tools.function.parameters")
        {
            let path = m
                .split("At path '")
                .nth(1)
                .and_then(|r| r.split('\'').next())
                .map(str::to_string)
                .or_else(|| Some("tools.function.parameters".into()));
            return Classified::rejected(Stage::Validate, m, path);
        }
        openai::classify(reply, &["choices"])
    }
}

/// The first problem of one parameters schema under Moonshot's rules.
pub fn check(params: &Value) -> Option<String> {
    if params.get("type").and_then(Value::as_str) != Some("object") {
        return Some(
            "Invalid request: tools.function.parameters.type is required and must be \"object\""
                .into(),
        );
    }
    for node in crate::schema::walk(params).nodes.iter().skip(1) {
        let Some(o) = node.object() else { continue };
        let at = node
            .pointer
            .trim_start_matches('/')
            .split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect::<Vec<_>>()
            .join(".");
        let detail = |d: &str| {
            Some(format!(
                "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path '{at}': {d}>"
            ))
        };
        if let Some(Value::String(r)) = o.get("$ref") {
            let target = r
                .strip_prefix('#')
                .and_then(|p| crate::schema::resolve(params, p));
            if let Some(Value::Object(t)) = target
                && let Some(k) = o.keys().find(|k| *k != "$ref" && t.contains_key(*k))
            {
                return detail(&format!(
                    "conflicting keywords found after $ref expansion: {k}"
                ));
            }
            continue;
        }
        if matches!(
            o.get("items"),
            Some(Value::Array(_)) | Some(Value::Bool(false))
        ) {
            return detail("items must be an object");
        }
        let in_map = matches!(
            node.via,
            crate::schema::Via::Member {
                keyword: "properties",
                ..
            }
        );
        let typed = ["type", "anyOf", "oneOf", "allOf", "enum", "const"]
            .iter()
            .any(|k| o.contains_key(*k));
        if in_map && !typed {
            return detail("type is not defined");
        }
    }
    None
}

/// The offline model of `api.moonshot.ai`.
pub struct MoonshotService;

impl Service for MoonshotService {
    fn slug(&self) -> &'static str {
        "moonshot"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            &json!({"error": {"message": message, "type": "invalid_request_error"}}),
        )
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path != "/v1/chat/completions" {
            return Reply::json(
                404,
                &json!({"error": {"message": "Not Found", "type": "not_found"}}),
            );
        }
        if Cred::of(req.bearer()) != Cred::Valid {
            return Reply::json(
                401,
                &json!({"error": {"message": "Invalid Authentication", "type": "invalid_authentication_error"}}),
            );
        }
        let body = match super::envelope::parse(&req.body, &super::envelope::Layout::CHAT) {
            Ok(b) => b,
            Err(e) => return self.error_reply(400, &e.message()),
        };
        for t in chat_views(&body) {
            if let Some(p) = t.parameters
                && let Some(m) = check(p)
            {
                return Reply::json(
                    400,
                    &json!({"error": {"message": m, "type": "invalid_request_error"}}),
                );
            }
        }
        let model = body.get("model").and_then(Value::as_str).unwrap_or("");
        Reply::json(200, &chat_ok(model))
    }
}
