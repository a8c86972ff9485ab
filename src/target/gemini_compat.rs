//! `gemini/openai-compat`: Gemini's OpenAI-compatible `POST /v1beta/openai/chat/completions`
//! (ai.google.dev/gemini-api/docs/openai), and its offline model (served by the Gemini
//! service at that path).
//!
//! Probe: `max_tokens: 1` (no count endpoint on this surface; about one output token billed,
//! 400s free). Auth: `Authorization: Bearer GEMINI_API_KEY`.
//!
//! Known (PROVIDERS.md §4): the envelope is proto-parsed (unknown root names answer T2, the
//! error wrapped in a JSON array: deer-flow#1515, magentic#382); tool schemas reach the
//! Gemini validator after conversion (mcp-obsidian#21 saw `* GenerateContentRequest…` through
//! this route); the layer also checks JSON Schema itself with OpenAI-like wording
//! (cbdb-openai-compat-properties-list: `Invalid schema for function 'f': [] is not of type
//! 'object'`).
//! Unknown: whether the envelope parse runs before auth (the route discovers it: see
//! [`Keyless::Discover`]; the model parses first, as the Developer API's front end does),
//! the no-key answer (modelled as the Developer API's 403), and how JSON Schema is converted
//! (modelled: type lists `[T, "null"]` become `T`, keywords the `Schema` message lacks are
//! dropped, then the Developer API's validator runs).

use serde_json::{Map, Value, json};

use super::gemini::BASE;
use super::google::{self, Api, Msg};
use super::openai::{chat_ok, hi};
use super::pyrepr::repr;
use super::wire::*;
use crate::tool::ToolDef;

/// The route.
pub struct GeminiCompat;

impl Route for GeminiCompat {
    fn id(&self) -> &'static str {
        "gemini/openai-compat"
    }
    fn service(&self) -> &'static str {
        "gemini"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: BASE,
            base_env: None,
            model: "gemini-2.5-flash",
            model_env: None,
            key_env: &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
            api_version: Some("v1beta"),
            keyless: Keyless::Discover,
            method: "POST /v1beta/openai/chat/completions (max_tokens 1)",
            cost: "billed: about 1 output token per accepted case; 400s are free; the no-key discovery is free",
        }
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], _opts: &WireOptions) -> WireRequest {
        super::openai::chat_request(
            cfg,
            tools,
            "/v1beta/openai/chat/completions",
            None,
            json!({}),
        )
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, keyless: bool) -> Classified {
        google::classify(reply, keyless, &["choices"])
    }
    fn discovery(&self, cfg: &RouteConfig) -> Option<WireRequest> {
        // An unknown root name: T2 if the envelope is parsed before the caller is checked.
        let body = json!({
            "model": cfg.model,
            "messages": hi(),
            "toolwire_parse_check": true,
            "max_tokens": 1,
        });
        Some(WireRequest::post_json(
            "/v1beta/openai/chat/completions",
            &body,
            AuthPlacement::None,
        ))
    }
}

fn wrapped(status: u16, v: Value) -> Reply {
    Reply::json(status, &Value::Array(vec![v]))
}

/// The model's answer for `POST /v1beta/openai/chat/completions`.
pub fn answer(req: &Incoming) -> Reply {
    let body = match google::parse_stage(&req.body, Msg::ChatRequest, Api::DevApi) {
        Ok(v) => v,
        Err(refusal) => return wrapped(400, refusal),
    };
    if let Some((status, refusal)) = google::devapi_caller(req.bearer()) {
        return wrapped(status, refusal);
    }
    // The OpenAI envelope (text inferred: see `envelope`).
    if let Err(m) = super::envelope::check(&body, &super::envelope::Layout::CHAT) {
        return wrapped(400, google::invalid_argument(&m.message()));
    }
    let functions: Vec<&Value> = body
        .get("tools")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|t| t.get("function")).collect())
        .unwrap_or_default();
    let mut decls = Vec::new();
    for f in &functions {
        let name = f.get("name").and_then(Value::as_str).unwrap_or("");
        let params = f.get("parameters");
        if let Some(p) = params {
            let bad = match p {
                Value::Object(o) => o
                    .get("properties")
                    .filter(|v| !v.is_object() && !v.is_null()),
                Value::Null => None,
                other => Some(other),
            };
            if let Some(bad) = bad {
                let message = format!(
                    "Invalid schema for function '{name}': {} is not of type 'object'",
                    repr(bad)
                );
                return wrapped(400, google::invalid_argument(&message));
            }
        }
        let mut d = json!({"name": name});
        if let Some(p) = params.filter(|p| p.is_object()) {
            d["parameters"] = to_schema(p, 0);
        }
        decls.push(d);
    }
    let gcr = json!({"tools": [{"functionDeclarations": decls}]});
    let problems = super::gemini::validate(&gcr);
    if !problems.is_empty() {
        let message = google::devapi_message(&problems);
        return wrapped(400, google::invalid_argument(&message));
    }
    let model = body.get("model").and_then(Value::as_str).unwrap_or("");
    Reply::json(200, &chat_ok(model))
}

const SCHEMA_KEYS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "items",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
];

/// JSON Schema → the `Schema` subset (the conversion is not documented; see module docs).
pub fn to_schema(v: &Value, depth: usize) -> Value {
    let Value::Object(o) = v else {
        return v.clone();
    };
    if depth > 64 {
        return Value::Object(Map::new());
    }
    let mut out = Map::new();
    for (k, x) in o {
        if !SCHEMA_KEYS.contains(&k.as_str()) {
            continue;
        }
        let x = match k.as_str() {
            "type" => match x {
                Value::Array(ts) => {
                    let non_null: Vec<&Value> = ts.iter().filter(|t| *t != "null").collect();
                    if ts.len() != non_null.len() {
                        out.insert("nullable".into(), json!(true));
                    }
                    match non_null.as_slice() {
                        [one] => (*one).clone(),
                        _ => continue,
                    }
                }
                other => other.clone(),
            },
            "properties" => match x {
                Value::Object(p) => Value::Object(
                    p.iter()
                        .map(|(n, s)| (n.clone(), to_schema(s, depth + 1)))
                        .collect(),
                ),
                other => other.clone(),
            },
            "items" => to_schema(x, depth + 1),
            "anyOf" => match x {
                Value::Array(a) => {
                    Value::Array(a.iter().map(|s| to_schema(s, depth + 1)).collect())
                }
                other => other.clone(),
            },
            _ => x.clone(),
        };
        out.insert(k.clone(), x);
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{Stage, Verdict};

    #[test]
    fn envelope_is_parsed_and_schema_validated() {
        let route = GeminiCompat;
        let cfg = route.configure(&std::collections::BTreeMap::new());
        let disc = route.discovery(&cfg).unwrap();
        let reply = answer(&disc.to_incoming(None));
        let c = route.classify(&cfg, &reply, true);
        // Refused at parse (what the discovery looks for), but an unknown root name is outside
        // the tool block: no schema rejection.
        assert_eq!((c.verdict, c.stage), (Verdict::Inconclusive, Stage::Parse));
        assert!(
            c.error
                .unwrap()
                .contains("Unknown name \"toolwire_parse_check\": Cannot find field.")
        );
        let key = super::super::secret::Credential::Key(super::super::secret::Secret::new("k"));
        let tools = vec![ToolDef {
            name: "list_allowed_tables".into(),
            description: None,
            parameters: Some(json!({"type":"object","properties":[]})),
        }];
        let req = route.request(&cfg, &tools, &WireOptions::default());
        let c = route.classify(&cfg, &answer(&req.to_incoming(Some(&key))), false);
        assert_eq!(
            c.error.as_deref(),
            Some("Invalid schema for function 'list_allowed_tables': [] is not of type 'object'")
        );
    }
}
