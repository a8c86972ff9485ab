//! `ollama/chat`: a local Ollama server's `/api/chat`, and its offline model.
//!
//! Probe: `POST {OLLAMA_HOST}/api/chat` with `stream: false` and `options.num_predict: 1`
//! (local, free). Only probed when `OLLAMA_HOST` (Ollama's own variable) or `--base-url` is
//! set. No auth.
//!
//! Tools decode into Go structs (ollama `api/types.go`): unknown keys are dropped silently, so
//! "accepted" means "decodable", not "honoured"; only JSON type mismatches answer 400
//! `{"error":"json: cannot unmarshal … into Go struct field .tools.function.… of type …"}`
//! (ollama-type-array, 2025-04; that report's list-valued `type` decodes since `PropertyType`
//! accepts a string or a list, and `items`/`$defs` were added by ollama#10091). The struct
//! name printed before the field path is empty in the report and is kept empty. Not modelled:
//! model lookup (`model "x" not found, try pulling it first`) and template rendering
//! (ollama-empty-params-reserialized).

use serde_json::{Value, json};

use super::wire::*;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// The route.
pub struct Ollama;

impl Route for Ollama {
    fn id(&self) -> &'static str {
        "ollama/chat"
    }
    fn service(&self) -> &'static str {
        "ollama"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "",
            base_env: Some("OLLAMA_HOST"),
            model: "qwen3",
            model_env: None,
            key_env: &[],
            api_version: None,
            keyless: Keyless::Open,
            method: "POST /api/chat (num_predict 1)",
            cost: "local",
        }
    }
    fn configure(&self, env: &dyn Env) -> RouteConfig {
        let mut cfg = default_config(&self.settings(), env);
        // OLLAMA_HOST is often `127.0.0.1:11434` without a scheme.
        if !cfg.base_url.is_empty() && !cfg.base_url.contains("://") {
            cfg.base_url = format!("http://{}", cfg.base_url);
        }
        cfg
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], _opts: &WireOptions) -> WireRequest {
        let body = Body::new()
            .json("model", json!(cfg.model))
            .json("messages", json!([{"role": "user", "content": "hi"}]))
            .tools(
                "tools",
                Tools {
                    tools,
                    shape: Shape::Chat { strict: None },
                },
            )
            .json("stream", json!(false))
            .json("options", json!({"num_predict": 1}));
        WireRequest::post_body("/api/chat", &body, AuthPlacement::None)
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        let body = reply.json_body();
        if let Some(e) = body
            .as_ref()
            .and_then(|b| b.get("error"))
            .and_then(Value::as_str)
        {
            if e.starts_with("json: cannot unmarshal") && e.contains(".tools") {
                let path = e
                    .split("Go struct field ")
                    .nth(1)
                    .and_then(|r| r.split(" of type").next())
                    .map(str::to_string);
                return Classified::rejected(Stage::Parse, e, path);
            }
            return classify_common(reply, Some(e.into()));
        }
        if (200..300).contains(&reply.status)
            && body.as_ref().is_some_and(|b| b.get("message").is_some())
        {
            return Classified::accepted(Stage::Parse)
                .note("Ollama drops unknown keywords silently: accepted means decodable");
        }
        classify_common(reply, None)
    }
}

/// A Go type as `encoding/json` decodes into it.
#[derive(Debug, Clone, Copy)]
enum Go {
    Str,
    StrSlice,
    Any,
    AnySlice,
    PropertyType,
    Properties,
    Struct(&'static str, &'static [(&'static str, Go)]),
    Slice(&'static str, &'static [(&'static str, Go)]),
}

const PROPERTY: &[(&str, Go)] = &[
    ("type", Go::PropertyType),
    ("items", Go::Any),
    ("description", Go::Str),
    ("enum", Go::AnySlice),
    ("properties", Go::Properties),
];
const PARAMETERS: &[(&str, Go)] = &[
    ("type", Go::Str),
    ("$defs", Go::Any),
    ("items", Go::Any),
    ("required", Go::StrSlice),
    ("properties", Go::Properties),
];
const FUNCTION: &[(&str, Go)] = &[
    ("name", Go::Str),
    ("description", Go::Str),
    (
        "parameters",
        Go::Struct("api.ToolFunctionParameters", PARAMETERS),
    ),
];
const TOOL: &[(&str, Go)] = &[
    ("type", Go::Str),
    ("function", Go::Struct("api.ToolFunction", FUNCTION)),
];

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn type_name(g: Go) -> &'static str {
    match g {
        Go::Str => "string",
        Go::StrSlice => "[]string",
        Go::Any => "interface {}",
        Go::AnySlice => "[]interface {}",
        Go::PropertyType => "api.PropertyType",
        Go::Properties => "map[string]api.ToolProperty",
        Go::Struct(n, _) => n,
        Go::Slice(n, _) => n,
    }
}

fn decode(v: &Value, g: Go, path: &str, depth: usize) -> Option<String> {
    if v.is_null() || depth > 64 {
        return None;
    }
    let mismatch = || {
        Some(format!(
            "json: cannot unmarshal {} into Go struct field .{path} of type {}",
            kind(v),
            type_name(g)
        ))
    };
    match g {
        Go::Any => None,
        Go::Str => (!v.is_string()).then(mismatch).flatten(),
        Go::StrSlice => match v {
            Value::Array(a) => a.iter().find(|x| !x.is_string() && !x.is_null()).map(|x| {
                format!(
                    "json: cannot unmarshal {} into Go struct field .{path} of type string",
                    kind(x)
                )
            }),
            _ => mismatch(),
        },
        Go::AnySlice => (!v.is_array()).then(mismatch).flatten(),
        Go::PropertyType => match v {
            Value::String(_) => None,
            Value::Array(a) if a.iter().all(Value::is_string) => None,
            _ => mismatch(),
        },
        Go::Properties => match v {
            Value::Object(m) => m
                .values()
                .find_map(|p| decode(p, Go::Struct("api.ToolProperty", PROPERTY), path, depth + 1)),
            _ => mismatch(),
        },
        Go::Struct(_, fields) => match v {
            Value::Object(o) => o.iter().find_map(|(k, x)| {
                // encoding/json matches field names case-insensitively.
                let (name, t) = fields.iter().find(|(n, _)| n.eq_ignore_ascii_case(k))?;
                decode(x, *t, &format!("{path}.{name}"), depth + 1)
            }),
            _ => mismatch(),
        },
        Go::Slice(_, fields) => match v {
            Value::Array(a) => a
                .iter()
                .find_map(|x| decode(x, Go::Struct("api.Tool", fields), path, depth + 1)),
            _ => mismatch(),
        },
    }
}

/// The offline model of an Ollama server.
pub struct OllamaService;

impl Service for OllamaService {
    fn slug(&self) -> &'static str {
        "ollama"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(status, &json!({"error": message}))
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path != "/api/chat" {
            return Reply::text(404, "404 page not found");
        }
        let body = match parse_body(&req.body) {
            Ok(b) => b,
            Err(e) => return Reply::json(400, &json!({"error": e})),
        };
        // Go's decoder refuses any other JSON value for the request struct (its wording, inferred:
        // not observed).
        // Ollama needs neither `messages` (an empty chat loads the model, per its API docs) nor
        // a tool name (a missing one decodes to ""), so nothing more is checked here.
        if !body.is_object() {
            let kind = match &body {
                Value::Array(_) => "array",
                Value::String(_) => "string",
                Value::Number(_) => "number",
                Value::Bool(_) => "bool",
                _ => "null",
            };
            if !body.is_null() {
                return Reply::json(
                    400,
                    &json!({"error": format!("json: cannot unmarshal {kind} into Go value of type api.ChatRequest")}),
                );
            }
        }
        if let Some(tools) = body.get("tools")
            && let Some(e) = decode(tools, Go::Slice("[]api.Tool", TOOL), "tools", 0)
        {
            return Reply::json(400, &json!({"error": e}));
        }
        Reply::json(
            200,
            &json!({"model": body.get("model"), "created_at": "1970-01-01T00:00:00Z",
                    "message": {"role": "assistant", "content": ""}, "done": true, "done_reason": "length"}),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_decoding_errors() {
        let tools = json!([{"type":"function","function":{"name":"f","parameters":{"type":"object","required":"a"}}}]);
        assert_eq!(
            decode(&tools, Go::Slice("[]api.Tool", TOOL), "tools", 0).unwrap(),
            "json: cannot unmarshal string into Go struct field .tools.function.parameters.required of type []string"
        );
        let ok = json!([{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"l":{"type":["integer","null"],"minimum":1}}}}}]);
        assert_eq!(decode(&ok, Go::Slice("[]api.Tool", TOOL), "tools", 0), None);
        let bad = json!([{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"l":{"type":5}}}}}]);
        assert_eq!(
            decode(&bad, Go::Slice("[]api.Tool", TOOL), "tools", 0).unwrap(),
            "json: cannot unmarshal number into Go struct field .tools.function.parameters.properties.type of type api.PropertyType"
        );
    }
}
