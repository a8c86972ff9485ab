//! Gemini Developer API (`generativelanguage.googleapis.com`, v1beta): the routes
//! `gemini/v1beta/parameters` and `gemini/v1beta/parameters-json-schema`, and the offline
//! model of the service (which also answers the OpenAI-compatible path, see
//! [`super::gemini_compat`]).
//!
//! Probe: `POST /v1beta/models/{model}:countTokens` with the tools inside
//! `generateContentRequest` (which must carry `model`: Swift SDK PR#175, zed PR#29630).
//! countTokens "is not billed and does not count against inference quota"
//! (ai.google.dev/gemini-api/docs/billing). Auth: `x-goog-api-key`.
//!
//! Without a key, `gemini/v1beta/parameters` is probed pre-auth: the front end transcodes the
//! body before Service Control refuses the caller (PROVIDERS.md §1), so a body that does not
//! parse answers 400 with fieldViolations (rejected at stage parse) and one that parses answers
//! 403 `PERMISSION_DENIED` (accepted at stage parse only: the semantic validator is never
//! reached). With a key the same request reaches the validator (stage validate).
//! `parametersJsonSchema` is a `google.protobuf.Value`: anything parses, so that route needs a
//! key.

use serde_json::{Value, json};

use super::google::{self, Api, Msg, Problem};
use super::wire::*;
use crate::tool::ToolDef;

/// The Developer API base URL.
pub const BASE: &str = "https://generativelanguage.googleapis.com";

/// Which field of `FunctionDeclaration` carries the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// `parameters` (the OpenAPI-subset `Schema` message).
    Parameters,
    /// `parametersJsonSchema` (free JSON Schema).
    ParametersJsonSchema,
}

/// A Gemini Developer API route.
pub struct Gemini(pub Field);

fn hi() -> Value {
    json!([{"role": "user", "parts": [{"text": "hi"}]}])
}

impl Route for Gemini {
    fn id(&self) -> &'static str {
        match self.0 {
            Field::Parameters => "gemini/v1beta/parameters",
            Field::ParametersJsonSchema => "gemini/v1beta/parameters-json-schema",
        }
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
            keyless: match self.0 {
                Field::Parameters => Keyless::Preauth,
                Field::ParametersJsonSchema => Keyless::Skip,
            },
            method: "POST /v1beta/models/{model}:countTokens",
            cost: "free: countTokens is not billed; without a key nothing is billed",
        }
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], _opts: &WireOptions) -> WireRequest {
        let field = match self.0 {
            Field::Parameters => "parameters",
            Field::ParametersJsonSchema => "parametersJsonSchema",
        };
        let inner = Body::new()
            .json("model", json!(format!("models/{}", cfg.model)))
            .json("contents", hi())
            .tools(
                "tools",
                Tools {
                    tools,
                    shape: Shape::Gemini { field },
                },
            );
        let body = Body::new().object("generateContentRequest", inner);
        WireRequest::post_body(
            format!("/v1beta/models/{}:countTokens", cfg.model),
            &body,
            AuthPlacement::Header {
                name: "x-goog-api-key",
                prefix: "",
            },
        )
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, keyless: bool) -> Classified {
        google::classify(reply, keyless, &["totalTokens"])
    }
}

/// The offline model of `generativelanguage.googleapis.com`.
pub struct GeminiService;

impl Service for GeminiService {
    fn slug(&self) -> &'static str {
        "gemini"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            &google::error_body(status, "INVALID_ARGUMENT", message, None),
        )
    }
    fn answer(&self, req: &Incoming) -> Reply {
        if req.path == "/v1beta/openai/chat/completions" {
            return super::gemini_compat::answer(req);
        }
        let not_found = || Reply::json(404, &google::not_found());
        let Some(rest) = req.path.strip_prefix("/v1beta/models/") else {
            return not_found();
        };
        let Some((_model, method)) = rest.split_once(':') else {
            return not_found();
        };
        let root = match method {
            "countTokens" => Msg::CountTokensRequest,
            "generateContent" | "streamGenerateContent" => Msg::GenerateContentRequest,
            _ => return not_found(),
        };
        // Stage 1: the transcoder, before any credential is looked at.
        let body = match google::parse_stage(&req.body, root, Api::DevApi) {
            Ok(v) => v,
            Err(refusal) => return Reply::json(400, &refusal),
        };
        // Stage 2: Service Control.
        if let Some((status, refusal)) =
            google::devapi_caller(req.header("x-goog-api-key").or(req.query("key")))
        {
            return Reply::json(status, &refusal);
        }
        // Stage 3: the semantic validator.
        let gcr = match root {
            Msg::CountTokensRequest => body
                .get("generateContentRequest")
                .or_else(|| body.get("generate_content_request")),
            _ => Some(&body),
        };
        // A request with nothing to count or answer (text inferred: see `envelope`).
        if gcr.unwrap_or(&body).get("contents").is_none() {
            let field = match (root, gcr) {
                (Msg::CountTokensRequest, Some(_)) => "generateContentRequest.contents",
                _ => "contents",
            };
            let m = super::envelope::Malformed::Missing(field.into());
            return Reply::json(400, &google::invalid_argument(&m.message()));
        }
        if let Some(gcr) = gcr {
            let problems = validate(gcr);
            if !problems.is_empty() {
                let message = google::devapi_message(&problems);
                return Reply::json(400, &google::invalid_argument(&message));
            }
        }
        let tokens = (req.body.len() / 4).max(1);
        match root {
            Msg::CountTokensRequest => Reply::json(
                200,
                &json!({"totalTokens": tokens, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": tokens}]}),
            ),
            _ => Reply::json(
                200,
                &json!({"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "MAX_TOKENS", "index": 0}],
                        "usageMetadata": {"promptTokenCount": tokens, "totalTokenCount": tokens}}),
            ),
        }
    }
}

/// Largest number of declarations accepted (gemini-cli-512-declarations, 2026-02-14).
pub const MAX_DECLARATIONS: usize = 512;

/// The Developer API's semantic validation of a parsed `GenerateContentRequest`.
pub fn validate(gcr: &Value) -> Vec<Problem> {
    let mut out = Vec::new();
    let Some(tools) = gcr.get("tools").and_then(Value::as_array) else {
        return out;
    };
    for (t, tool) in tools.iter().enumerate() {
        let Some(decls) = tool
            .as_object()
            .and_then(|o| google::get(o, "function_declarations", "functionDeclarations"))
            .and_then(Value::as_array)
        else {
            continue;
        };
        if decls.len() > MAX_DECLARATIONS {
            out.push(Problem::At {
                path: format!("tools[{t}].function_declarations"),
                text: format!("At most {MAX_DECLARATIONS} function declarations can be specified."),
            });
        }
        for (i, d) in decls.iter().enumerate() {
            let Some(d) = d.as_object() else { continue };
            let name = d.get("name").and_then(Value::as_str).unwrap_or("");
            let base = format!("tools[{t}].function_declarations[{i}]");
            if !google::name_ok(name) {
                out.push(Problem::At {
                    path: format!("{base}.name"),
                    text: google::NAME_RULE.into(),
                });
            }
            // gitlab-mcp-nesting-depth-named (the newer of the two wordings). Every depth
            // report came from gemini-cli, which sent MCP schemas as `parametersJsonSchema` at
            // the time (toolsformcp-ref-avoids-depth): the limit is held to that field only.
            // No evidence shows the typed `parameters` field refused for depth, so refusing it
            // there would be a guess `check` cannot back (its `depth-limit` cells are empty).
            let too_deep = |schema: &Value| {
                (crate::schema::object_depth(schema) > google::MAX_NESTING).then(|| {
                    vec![Problem::Bare(format!(
                        "FunctionDeclaration '{name}' in the request exceeds the maximum allowed nesting depth."
                    ))]
                })
            };
            if let Some(schema) = google::get(d, "parameters", "parameters") {
                for f in google::schema_findings(schema, &format!("{base}.parameters")) {
                    let (suffix, text) = google::devapi_text(&f.finding);
                    if text.is_empty() {
                        continue;
                    }
                    out.push(Problem::At {
                        path: format!("{}{suffix}", f.proto),
                        text,
                    });
                }
            }
            if let Some(schema) = google::get(d, "parameters_json_schema", "parametersJsonSchema") {
                if let Some(refusal) = too_deep(schema) {
                    return refusal;
                }
                if let Some(p) = json_schema_problem(schema) {
                    out.push(Problem::Bare(p));
                }
            }
        }
    }
    if out.is_empty()
        && let Some(name) = duplicate_declaration(tools)
    {
        // gemini-duplicate-function-declaration (2026-07-04): a bare INVALID_ARGUMENT naming
        // the function. Which check runs first when a request has other problems too is not
        // known: the model reports the duplicate only when nothing else is wrong.
        out.push(Problem::Bare(format!(
            "Duplicate function declaration found: {name}"
        )));
    }
    out
}

/// The first function name declared twice across every tool's declarations, if any.
fn duplicate_declaration(tools: &[Value]) -> Option<&str> {
    let mut seen = std::collections::HashSet::new();
    tools
        .iter()
        .filter_map(|tool| {
            google::get(
                tool.as_object()?,
                "function_declarations",
                "functionDeclarations",
            )?
            .as_array()
        })
        .flatten()
        .filter_map(|d| d.get("name")?.as_str())
        .find(|n| !seen.insert(*n))
}

/// What the backend says about a `parametersJsonSchema`. Only two rules are documented:
/// `$ref` may carry only `description` and `default` beside it (opencode-ref-with-siblings,
/// 2026-02-05) and a `$ref` must resolve (gemini-cli-ref-undefined-schema, 2025-11-18, path in
/// JSON-Schema keywords, dot-separated). Everything else is accepted (hermes, koda,
/// python-genai reports: unions, bare arrays, `$defs`, `additionalProperties`).
pub fn json_schema_problem(schema: &Value) -> Option<String> {
    for node in crate::schema::walk(schema).nodes {
        let Some(o) = node.object() else { continue };
        let Some(Value::String(r)) = o.get("$ref") else {
            continue;
        };
        let name = r.rsplit('/').next().unwrap_or(r);
        // `$defs`/`definitions` beside a root `$ref` hold the definitions themselves
        // (gemini-cli-drop-type-check-ref-ok: such schemas are "valid and usable").
        if o.keys().any(|k| {
            !matches!(
                k.as_str(),
                "$ref" | "description" | "default" | "$defs" | "definitions"
            )
        }) {
            return Some(format!(
                "$ref '{name}' was set alongside unsupported fields. If a schema node has $ref set, then only description and default can be set alongside it"
            ));
        }
        let target = r
            .strip_prefix('#')
            .and_then(|p| crate::schema::resolve(schema, p));
        if target.is_none() {
            let dotted = node
                .pointer
                .trim_start_matches('/')
                .split('/')
                .map(|t| t.replace("~1", "/").replace("~0", "~"))
                .collect::<Vec<_>>()
                .join(".");
            return Some(format!("reference to undefined schema at {dotted}"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{Stage, Verdict};

    fn tool(params: Value) -> Vec<ToolDef> {
        vec![ToolDef {
            name: "f".into(),
            description: Some("d".into()),
            parameters: Some(params),
        }]
    }

    fn cfg() -> RouteConfig {
        Gemini(Field::Parameters).configure(&std::collections::BTreeMap::new())
    }

    fn run(route: &Gemini, params: Value, key: Option<&str>) -> Classified {
        let c = cfg();
        let req = route.request(&c, &tool(params), &WireOptions::default());
        let cred = key
            .map(|k| super::super::secret::Credential::Key(super::super::secret::Secret::new(k)));
        let reply = GeminiService.answer(&req.to_incoming(cred.as_ref()));
        route.classify(&c, &reply, key.is_none())
    }

    #[test]
    fn preauth_front_end() {
        let r = Gemini(Field::Parameters);
        let ok = run(
            &r,
            json!({"type":"object","properties":{"a":{"type":"string"}}}),
            None,
        );
        assert_eq!((ok.verdict, ok.stage), (Verdict::Accepted, Stage::Parse));
        let bad = run(
            &r,
            json!({"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}),
            None,
        );
        assert_eq!((bad.verdict, bad.stage), (Verdict::Rejected, Stage::Parse));
        assert_eq!(
            bad.path.as_deref(),
            Some("generate_content_request.tools[0].function_declarations[0].parameters")
        );
        // A semantic problem is invisible without a key...
        let empty = json!({"type":"object","properties":{}});
        assert_eq!(run(&r, empty.clone(), None).verdict, Verdict::Accepted);
        // ...and found by the validator with one.
        let v = run(&r, empty, Some("k-valid"));
        assert_eq!((v.verdict, v.stage), (Verdict::Rejected, Stage::Validate));
        assert_eq!(
            v.error.as_deref(),
            Some(
                "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for OBJECT type\n"
            )
        );
        let invalid = run(
            &r,
            json!({"type":"object","properties":{"a":{"type":"string"}}}),
            Some("invalid"),
        );
        assert_eq!(
            (invalid.verdict, invalid.stage),
            (Verdict::Inconclusive, Stage::Auth)
        );
    }

    /// `n` object levels, the root counted: `{"type":"object","properties":{"a": ...}}`.
    fn objects(n: usize) -> Value {
        let mut s = json!({"type":"string"});
        for _ in 0..n {
            s = json!({"type":"object","properties":{"a": s}});
        }
        s
    }

    fn too_deep(field: &str, schema: Value) -> bool {
        let gcr = json!({"tools":[{"functionDeclarations":[{"name":"f","description":"d",field: schema}]}]});
        validate(&gcr).iter().any(|p| {
            matches!(p, Problem::Bare(t) if t.contains("exceeds the maximum allowed nesting depth"))
        })
    }

    #[test]
    fn nesting_is_refused_past_three_object_levels_of_a_json_schema_only() {
        // The reports' boundary: 4 objects refused (gitlab-mcp-nesting-depth-named).
        assert!(!too_deep("parametersJsonSchema", objects(3)));
        assert!(too_deep("parametersJsonSchema", objects(4)));
        // The reported Notion schema: 5 objects and 2 arrays.
        let notion = json!({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"array","items":{"type":"object","properties":{"c":{"type":"object","properties":{"d":{"type":"array","items":{"type":"object","properties":{"e":{"type":"string"}}}}}}}}}}}}});
        assert!(too_deep("parametersJsonSchema", notion));
        // Arrays are no levels: no report shows one counted.
        let arrays = json!({"type":"object","properties":{"a":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"string"}}}}}});
        assert!(!too_deep("parametersJsonSchema", arrays));
        let mixed = json!({"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"b":{"type":"array","items":{"type":"object"}}}}}}});
        assert!(!too_deep("parametersJsonSchema", mixed));
        // Through `$ref`s, as check counts.
        let via_ref = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"object"}}}}}}});
        assert!(too_deep("parametersJsonSchema", via_ref));
        // No report shows the typed `parameters` field refused for depth.
        assert!(!too_deep("parameters", objects(4)));
        assert!(!too_deep("parameters", objects(12)));
    }

    #[test]
    fn json_schema_field_accepts_what_parameters_refuses() {
        let r = Gemini(Field::ParametersJsonSchema);
        let s = json!({"type":"object","properties":{"a":{"type":["string","null"]}},"additionalProperties":false});
        assert_eq!(run(&r, s, Some("k")).verdict, Verdict::Accepted);
        let dangling = json!({"type":"object","properties":{"t":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/T"}]}}});
        let c = run(&r, dangling, Some("k"));
        assert_eq!(
            c.error.as_deref(),
            Some("reference to undefined schema at properties.t.anyOf.1")
        );
    }
}
