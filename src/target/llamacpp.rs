//! `llama.cpp/server`: llama.cpp's `llama-server` chat completions, and its offline model.
//!
//! Probe: `POST {LLAMACPP_BASE_URL}/v1/chat/completions` with `max_tokens: 1` (local). Only
//! probed when `LLAMACPP_BASE_URL` or `--base-url` is set; `LLAMACPP_API_KEY` is sent when the
//! server was started with `--api-key`.
//!
//! With tools, the server converts every schema to a grammar (json-schema-to-grammar) before
//! generating, and a conversion failure answers 400 `{"error":{"code":400,"message":"Unable
//! to generate parser for this template. Automatic parser generation failed: JSON schema
//! conversion failed:\n<errors>","type":"invalid_request_error"}}` (llamacpp-pattern-anchors
//! and llamacpp-boolean-true-schema, 2026-07; older builds printed only the part from `JSON
//! schema conversion failed:`, llamacpp-description-only-schema). The model follows the
//! converter's cases: `$ref` (local), `oneOf`/`anyOf`, `allOf`, `const`, `enum`, `type` (string
//! or list), objects (`properties`/`additionalProperties`), arrays (`items`/`prefixItems`),
//! strings with `pattern` (which must start with `^` and end with `$`), `{}`; anything else is
//! `Unrecognized schema: <compact JSON>` (llamacpp-description-only-schema, llamacpp-not-anyof-
//! unrecognized). Not modelled: grammar size limits (llamacpp-empty-object-maxlength).

use serde_json::{Value, json};

use super::openai::{self, chat_ok, chat_request, chat_views};
use super::wire::*;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// The route.
pub struct LlamaCpp;

impl Route for LlamaCpp {
    fn id(&self) -> &'static str {
        "llama.cpp/server"
    }
    fn service(&self) -> &'static str {
        "llama.cpp"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "",
            base_env: Some("LLAMACPP_BASE_URL"),
            model: "default",
            model_env: None,
            key_env: &["LLAMACPP_API_KEY"],
            api_version: None,
            keyless: Keyless::Open,
            method: "POST /v1/chat/completions (max_tokens 1)",
            cost: "local",
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
            && m.contains("JSON schema conversion failed")
        {
            return Classified::rejected(Stage::Validate, m, None);
        }
        openai::classify(reply, &["choices"])
    }
}

const PRIMITIVES: &[&str] = &[
    "boolean", "number", "integer", "string", "null", "object", "array",
];

/// The converter's errors for one schema (empty when it converts).
pub fn conversion_errors(root: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    visit(root, root, &mut errors, 0);
    errors
}

fn visit(schema: &Value, root: &Value, errors: &mut Vec<String>, depth: usize) {
    if depth > 64 {
        return;
    }
    let Value::Object(o) = schema else {
        errors.push(format!("Unrecognized schema: {schema}"));
        return;
    };
    let t = o.get("type");
    let each = |list: &Value, errors: &mut Vec<String>| {
        for s in list.as_array().into_iter().flatten() {
            visit(s, root, errors, depth + 1);
        }
    };
    if let Some(Value::String(r)) = o.get("$ref") {
        match r.strip_prefix('#').map(|p| crate::schema::resolve(root, p)) {
            Some(Some(target)) if depth < 32 => visit(target, root, errors, depth + 1),
            Some(Some(_)) => {}
            _ => errors.push(format!("Error resolving ref {r}: not found")),
        }
    } else if let Some(l) = o.get("oneOf").or_else(|| o.get("anyOf")) {
        each(l, errors);
    } else if let Some(l) = o.get("allOf") {
        each(l, errors);
    } else if let Some(Value::Array(ts)) = t {
        for ty in ts {
            let mut s = o.clone();
            s.insert("type".into(), ty.clone());
            visit(&Value::Object(s), root, errors, depth + 1);
        }
    } else if o.contains_key("const") || o.contains_key("enum") {
    } else if (t.is_none() || t == Some(&json!("object")))
        && (o.contains_key("properties")
            || o.get("additionalProperties")
                .is_some_and(|a| a != &json!(true)))
    {
        for p in o
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|m| m.values())
        {
            visit(p, root, errors, depth + 1);
        }
        if let Some(a @ Value::Object(_)) = o.get("additionalProperties") {
            visit(a, root, errors, depth + 1);
        }
    } else if (t.is_none() || t == Some(&json!("array")))
        && (o.contains_key("items") || o.contains_key("prefixItems"))
    {
        match o.get("items") {
            Some(Value::Array(l)) => l.iter().for_each(|s| visit(s, root, errors, depth + 1)),
            Some(s) => visit(s, root, errors, depth + 1),
            None => {}
        }
        each(o.get("prefixItems").unwrap_or(&Value::Null), errors);
    } else if t == Some(&json!("string")) && o.contains_key("pattern") {
        let p = o.get("pattern").and_then(Value::as_str).unwrap_or("");
        if !(p.starts_with('^') && p.ends_with('$')) {
            errors.push("Pattern must start with '^' and end with '$'".into());
        }
    } else if o.is_empty() || t == Some(&json!("object")) {
    } else if !t
        .and_then(Value::as_str)
        .is_some_and(|s| PRIMITIVES.contains(&s))
    {
        errors.push(format!("Unrecognized schema: {schema}"));
    }
}

/// The offline model of a llama-server.
pub struct LlamaCppService;

impl Service for LlamaCppService {
    fn slug(&self) -> &'static str {
        "llama.cpp"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            &json!({"error": {"code": status, "message": message, "type": "invalid_request_error"}}),
        )
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path != "/v1/chat/completions" && req.path != "/chat/completions" {
            return Reply::json(
                404,
                &json!({"error": {"code": 404, "message": "File Not Found", "type": "not_found_error"}}),
            );
        }
        if Cred::of(req.bearer()) == Cred::Invalid {
            return Reply::json(
                401,
                &json!({"error": {"code": 401, "message": "Invalid API Key", "type": "authentication_error"}}),
            );
        }
        let body = match super::envelope::parse(&req.body, &super::envelope::Layout::CHAT) {
            Ok(b) => b,
            Err(e) => return self.error_reply(400, &e.message()),
        };
        let mut errors = Vec::new();
        for t in chat_views(&body) {
            if let Some(p) = t.parameters {
                errors.extend(conversion_errors(p));
            }
        }
        if !errors.is_empty() {
            let message = format!(
                "Unable to generate parser for this template. Automatic parser generation failed: JSON schema conversion failed:\n{}",
                errors.join("\n")
            );
            return Reply::json(
                400,
                &json!({"error": {"code": 400, "message": message, "type": "invalid_request_error"}}),
            );
        }
        let model = body.get("model").and_then(Value::as_str).unwrap_or("");
        Reply::json(200, &chat_ok(model))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converter_cases_from_the_reports() {
        assert_eq!(
            conversion_errors(
                &json!({"type":"object","properties":{"args":{"description":"Arguments"}}})
            ),
            ["Unrecognized schema: {\"description\":\"Arguments\"}"]
        );
        assert_eq!(
            conversion_errors(&json!({"type":"object","properties":{"o":true}})),
            ["Unrecognized schema: true"]
        );
        assert_eq!(
            conversion_errors(
                &json!({"type":"object","properties":{"id":{"type":"string","pattern":"[a-z]+"}}})
            ),
            ["Pattern must start with '^' and end with '$'"]
        );
        assert!(conversion_errors(&json!({"type":"object","properties":{"a":{"type":["string","null"]},"b":{"items":{"type":"string"}}}})).is_empty());
    }
}
