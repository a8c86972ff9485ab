//! `cohere/v2-strict`: Cohere v2 chat with `strict_tools: true`, and its offline model.
//!
//! Probe: `POST https://api.cohere.com/v2/chat`, `strict_tools: true`, `max_tokens: 1`
//! (billed; `/v1/tokenize` takes text only). Auth: `Authorization: Bearer CO_API_KEY`; 401
//! `{"message":"invalid api token"}` (PROVIDERS.md §11; the no-key text `no api key supplied`
//! is unverified).
//!
//! Texts: `{"message":"invalid request: …"}`-style bodies; `invalid function at
//! tools[1].function:\ninvalid 'parameters' provided: pattern must be a valid regex`
//! (cohere-openrouter-pattern-regex; which regex dialect Cohere accepts is unknown, the model
//! uses the `regex` crate's); `unknown field: parameter 'strict' is not a valid field. …` for an
//! OpenAI-style per-tool `strict` (cohere-strict-field-openrouter, 422). Documented for strict
//! tools but with no known text: at most 200 fields across tools, and (maybe relaxed) at least
//! one required parameter (cohere-strict-tools-requires-required); modelled with inferred
//! wording.

use serde_json::{Value, json};

use super::wire::*;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// The route.
pub struct Cohere;

impl Route for Cohere {
    fn id(&self) -> &'static str {
        "cohere/v2-strict"
    }
    fn service(&self) -> &'static str {
        "cohere"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://api.cohere.com",
            base_env: None,
            model: "command-a-03-2025",
            model_env: None,
            key_env: &["CO_API_KEY", "COHERE_API_KEY"],
            api_version: Some("v2"),
            keyless: Keyless::Skip,
            method: "POST /v2/chat (strict_tools, max_tokens 1)",
            cost: "billed: input tokens + 1 output token",
        }
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], opts: &WireOptions) -> WireRequest {
        // A per-tool `strict` (OpenAI style) is only sent when replaying a report that sent it.
        let per_tool = opts.strict.filter(|s| *s);
        super::openai::chat_request(
            cfg,
            tools,
            "/v2/chat",
            per_tool,
            json!({"strict_tools": true}),
        )
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        classify(reply)
    }
}

/// Reads a Cohere answer.
pub fn classify(reply: &Reply) -> Classified {
    let body = reply.json_body();
    let message = body
        .as_ref()
        .and_then(|b| b.get("message"))
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some(m) = &message {
        if m.starts_with("invalid function at tools[")
            || m.contains("parameter 'strict'")
            || m.contains("with strict_tools")
        {
            let path = m
                .strip_prefix("invalid function at ")
                .and_then(|r| r.split(':').next())
                .map(str::to_string);
            return Classified::rejected(Stage::Validate, m.clone(), path);
        }
        if matches!(reply.status, 401 | 403) {
            return Classified::inconclusive(Stage::Auth, message, "credential refused");
        }
        return classify_common(reply, message);
    }
    if (200..300).contains(&reply.status)
        && body
            .as_ref()
            .is_some_and(|b| b.get("message").is_some() || b.get("finish_reason").is_some())
    {
        return Classified::accepted(Stage::Validate);
    }
    classify_common(reply, None)
}

/// Most fields `strict_tools` allows across all tools (docs.cohere.com tool-use-parameter-types).
pub const MAX_STRICT_FIELDS: usize = 200;

/// What `strict_tools` refuses (documented, wording inferred): more than 200 fields across
/// tools, and a tool with only optional parameters (cohere-strict-tools-requires-required,
/// 2024-11; a later docs change may have relaxed it).
pub fn strict_tools_problem(tools: &[&Value]) -> Option<String> {
    let mut fields = 0usize;
    for t in tools {
        let Some(p) = t.pointer("/function/parameters") else {
            continue;
        };
        for node in crate::schema::walk(p).nodes {
            if let Some(Value::Object(props)) = node.object().and_then(|o| o.get("properties")) {
                fields += props.len();
            }
        }
        if only_optional(p) {
            return Some("invalid request: with strict_tools, a tool with optional parameters must specify at least one required parameter".into());
        }
    }
    (fields > MAX_STRICT_FIELDS).then(|| {
        format!("invalid request: with strict_tools, at most {MAX_STRICT_FIELDS} fields are allowed across all tools, got {fields}")
    })
}

/// Whether the parameters schema `schema` declares properties at its root and its `required`
/// names none (absent, empty, or no list): what [`strict_tools_problem`] refuses.
pub fn only_optional(schema: &Value) -> bool {
    let declares = schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|m| !m.is_empty());
    let requires = schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| !r.is_empty());
    declares && !requires
}

/// The offline model of `api.cohere.com`.
pub struct CohereService;

impl Service for CohereService {
    fn slug(&self) -> &'static str {
        "cohere"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(status, &json!({"message": message}))
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path != "/v2/chat" {
            return Reply::json(404, &json!({"message": "Not Found"}));
        }
        match Cred::of(req.bearer()) {
            Cred::Missing => return Reply::json(401, &json!({"message": "no api key supplied"})),
            Cred::Invalid => return Reply::json(401, &json!({"message": "invalid api token"})),
            Cred::Valid => {}
        }
        let body = match super::envelope::parse(&req.body, &super::envelope::Layout::CHAT) {
            Ok(b) => b,
            Err(super::envelope::Refused::Syntax(e)) => {
                return Reply::json(400, &json!({"message": format!("invalid request: {e}")}));
            }
            Err(e) => return Reply::json(400, &json!({"message": e.message()})),
        };
        let tools: Vec<&Value> = body
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .collect();
        if body.get("strict_tools") == Some(&Value::Bool(true))
            && let Some(m) = strict_tools_problem(&tools)
        {
            return Reply::json(400, &json!({"message": m}));
        }
        for (i, t) in body
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let Some(f) = t.get("function").and_then(Value::as_object) else {
                continue;
            };
            if let Some(k) = f
                .keys()
                .find(|k| !matches!(k.as_str(), "name" | "description" | "parameters"))
            {
                return Reply::json(
                    422,
                    &json!({"message": format!("unknown field: parameter '{k}' is not a valid field. For proper usage, please refer to https://docs.cohere.com/reference/chat")}),
                );
            }
            if let Some(p) = f.get("parameters") {
                for node in crate::schema::walk(p).nodes {
                    if let Some(Value::String(pat)) = node.object().and_then(|o| o.get("pattern"))
                        && regex::Regex::new(pat).is_err()
                    {
                        return Reply::json(
                            400,
                            &json!({"message": format!("invalid function at tools[{i}].function:\ninvalid 'parameters' provided: pattern must be a valid regex")}),
                        );
                    }
                }
            }
        }
        Reply::json(
            200,
            &json!({"id": "emulated", "finish_reason": "MAX_TOKENS", "message": {"role": "assistant", "content": []}}),
        )
    }
}
