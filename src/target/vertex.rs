//! `vertex/v1/parameters`: Gemini on Vertex AI, `functionDeclarations[].parameters`, and the
//! offline model of `aiplatform.googleapis.com`.
//!
//! Probe: `POST /v1/projects/{P}/locations/{L}/publishers/google/models/{M}:countTokens` with
//! top-level `contents` and `tools` ("no charge or quota restriction for the CountTokens API",
//! firebase.google.com count-tokens). Auth: `Authorization: Bearer <OAuth2 access token>`
//! (`gcloud auth print-access-token`), project `GOOGLE_CLOUD_PROJECT`, location
//! `GOOGLE_CLOUD_LOCATION` (default `us-central1`).
//!
//! Vertex's `Schema` adds `additional_properties`, `ref` and `defs` to the Developer API's
//! (google-cloud-vertexai v1 fields #26–#28), so `additionalProperties` parses here. Its
//! validator words problems as `Unable to submit request because …` (reports.yaml:
//! litellm-vertex-parameters-should-be-object, gemini-cli-vertex-no-type-field,
//! vercel-ai-vertex-anyof-only-field, openrouter-vertex-required-not-defined) and accepts an
//! empty `properties` (aichat-empty-properties-generic). Which other rules Vertex enforces
//! (items, enum, format) is unknown; the model accepts those.
//!
//! Unknown and found out live: whether the front end parses before it authenticates
//! (PROVIDERS.md §3, open question 1). Without credentials the route sends one body with a
//! list-valued `type` (T3): 400 means parse-first (the route is then probed pre-auth, 401
//! meaning "parsed"), 401 means auth-first. The model authenticates first (the common Google
//! Cloud order), so emulated runs record "auth first" — which says nothing about Vertex.

use serde_json::{Value, json};

use super::google::{self, Api, Msg};
use super::pyrepr::repr_str;
use super::wire::*;
use crate::tool::ToolDef;

const LEARN_MORE: &str =
    "Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling";

/// The route.
pub struct Vertex;

impl Route for Vertex {
    fn id(&self) -> &'static str {
        "vertex/v1/parameters"
    }
    fn service(&self) -> &'static str {
        "vertex"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://us-central1-aiplatform.googleapis.com",
            base_env: None,
            model: "gemini-2.5-flash",
            model_env: None,
            key_env: &["VERTEX_ACCESS_TOKEN"],
            api_version: Some("v1"),
            keyless: Keyless::Discover,
            method: "POST /v1/projects/{project}/locations/{location}/publishers/google/models/{model}:countTokens",
            cost: "free: countTokens has no charge (3000 RPM)",
        }
    }
    fn private_env(&self) -> &'static [&'static str] {
        &["GOOGLE_CLOUD_PROJECT"]
    }
    fn configure(&self, env: &dyn Env) -> RouteConfig {
        let mut cfg = default_config(&self.settings(), env);
        let location = env
            .var("GOOGLE_CLOUD_LOCATION")
            .unwrap_or_else(|| "us-central1".into());
        if !cfg.base_overridden {
            cfg.base_url = if location == "global" {
                "https://aiplatform.googleapis.com".into()
            } else {
                format!("https://{location}-aiplatform.googleapis.com")
            };
        }
        cfg.extra.insert("location".into(), location);
        if let Some(project) = env.var("GOOGLE_CLOUD_PROJECT") {
            cfg.extra.insert("project".into(), project);
        }
        cfg
    }
    /// The keyless discovery needs no project (its `projects/-` is never authenticated), a
    /// token does: a keyed request to `projects/-` names no project the token may use.
    fn missing_settings(&self, cfg: &RouteConfig) -> Vec<&'static str> {
        if cfg.credential.is_some() && !cfg.extra.contains_key("project") {
            vec!["GOOGLE_CLOUD_PROJECT"]
        } else {
            Vec::new()
        }
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], _opts: &WireOptions) -> WireRequest {
        let body = Body::new()
            .json(
                "contents",
                json!([{"role": "user", "parts": [{"text": "hi"}]}]),
            )
            .tools(
                "tools",
                Tools {
                    tools,
                    shape: Shape::Gemini {
                        field: "parameters",
                    },
                },
            );
        WireRequest::post_body(path(cfg), &body, bearer())
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, keyless: bool) -> Classified {
        google::classify(reply, keyless, &["totalTokens"])
    }
    fn discovery(&self, cfg: &RouteConfig) -> Option<WireRequest> {
        let tools = [ToolDef {
            name: "toolwire_parse_check".into(),
            description: None,
            parameters: Some(
                json!({"type":"object","properties":{"value":{"type":["string","null"]}}}),
            ),
        }];
        let body = Body::new()
            .json(
                "contents",
                json!([{"role": "user", "parts": [{"text": "hi"}]}]),
            )
            .tools(
                "tools",
                Tools {
                    tools: &tools,
                    shape: Shape::Gemini {
                        field: "parameters",
                    },
                },
            );
        Some(WireRequest::post_body(
            path(cfg),
            &body,
            AuthPlacement::None,
        ))
    }
}

fn bearer() -> AuthPlacement {
    AuthPlacement::Header {
        name: "authorization",
        prefix: "Bearer ",
    }
}

fn path(cfg: &RouteConfig) -> String {
    format!(
        "/v1/projects/{}/locations/{}/publishers/google/models/{}:countTokens",
        cfg.extra_or("project", "-"),
        cfg.extra_or("location", "us-central1"),
        cfg.model
    )
}

/// The offline model of `aiplatform.googleapis.com`.
pub struct VertexService;

impl Service for VertexService {
    fn slug(&self) -> &'static str {
        "vertex"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            &google::error_body(status, "INVALID_ARGUMENT", message, None),
        )
    }
    fn answer(&self, req: &Incoming) -> Reply {
        let method = req.path.rsplit_once(':').map(|(_, m)| m).unwrap_or("");
        let known = req.path.starts_with("/v1/")
            && req.path.contains("/publishers/google/models/")
            && matches!(method, "countTokens" | "generateContent");
        if !known {
            return Reply::json(404, &google::not_found());
        }
        // Modelled: authentication first (unknown; see the module docs).
        let credential = req.bearer().or(req.query("key"));
        match Cred::of(credential) {
            Cred::Missing => return Reply::json(401, &credentials_missing()),
            Cred::Invalid => return Reply::json(401, &invalid_credentials()),
            Cred::Valid => {}
        }
        let root = if method == "countTokens" {
            Msg::VertexCountTokensRequest
        } else {
            Msg::GenerateContentRequest
        };
        let body = match google::parse_stage(&req.body, root, Api::Vertex) {
            Ok(v) => v,
            Err(refusal) => return Reply::json(400, &refusal),
        };
        // Nothing to count or answer (text inferred: see `envelope`).
        if body.get("contents").is_none() {
            let m = super::envelope::Malformed::Missing("contents".into());
            return Reply::json(400, &google::invalid_argument(&m.message()));
        }
        if let Some(message) = validate(&body) {
            return Reply::json(400, &google::invalid_argument(&message));
        }
        let tokens = (req.body.len() / 4).max(1);
        if method == "countTokens" {
            Reply::json(
                200,
                &json!({"totalTokens": tokens, "totalBillableCharacters": tokens * 4}),
            )
        } else {
            Reply::json(
                200,
                &json!({"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "MAX_TOKENS"}]}),
            )
        }
    }
}

/// 401 without credentials (run-gemini-cli#123).
pub fn credentials_missing() -> Value {
    google::error_body(
        401,
        "UNAUTHENTICATED",
        "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        Some(
            json!([{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "CREDENTIALS_MISSING", "domain": "googleapis.com",
                    "metadata": {"method": "google.cloud.aiplatform.v1.PredictionService.CountTokens", "service": "aiplatform.googleapis.com"}}]),
        ),
    )
}

/// 401 for a token that is not valid (Google Cloud's general wording; not seen for Vertex in
/// the sources).
pub fn invalid_credentials() -> Value {
    google::error_body(
        401,
        "UNAUTHENTICATED",
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        Some(
            json!([{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "ACCESS_TOKEN_TYPE_UNSUPPORTED", "domain": "googleapis.com",
                    "metadata": {"service": "aiplatform.googleapis.com"}}]),
        ),
    )
}

/// Vertex's function-name rule (Vertex AI v1 `FunctionDeclaration.name` reference: letters,
/// digits, underscores, dots and dashes; no colons), the Developer API's ([`google::name_ok`])
/// in Vertex's words.
pub const NAME_RULE: &str = "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum length of 64.";

/// Vertex's validator: the first problem, in Vertex's words.
pub fn validate(body: &Value) -> Option<String> {
    let tools = body.get("tools")?.as_array()?;
    for (ti, tool) in tools.iter().enumerate() {
        let decls = tool
            .as_object()
            .and_then(|o| google::get(o, "function_declarations", "functionDeclarations"))
            .and_then(Value::as_array);
        for (di, d) in decls.into_iter().flatten().enumerate() {
            let Some(d) = d.as_object() else { continue };
            let name = d.get("name").and_then(Value::as_str).unwrap_or("");
            if !google::name_ok(name) {
                return Some(format!(
                    "Unable to submit request because function name `{name}` is invalid. {NAME_RULE}"
                ));
            }
            let Some(schema) = google::get(d, "parameters", "parameters") else {
                continue;
            };
            if google::type_of(schema.as_object()?).as_deref() != Some("OBJECT") {
                return Some(format!(
                    "Unable to submit request because `{name}` functionDeclaration parameters schema should be of type OBJECT. {LEARN_MORE}"
                ));
            }
            let base = format!("tools[{ti}].function_declarations[{di}].parameters");
            let findings = google::schema_findings(schema, &base);
            let mut missing: Vec<String> = Vec::new();
            for f in &findings {
                // Vertex's dotted paths name properties from `parameters`.
                let dotted = &f.dotted;
                match &f.finding {
                    google::Finding::TypeMissing => {
                        return Some(format!(
                            "Unable to submit request because `{name}` functionDeclaration `{dotted}` schema didn't specify the schema type field. {LEARN_MORE}"
                        ));
                    }
                    google::Finding::AnyOfWithSiblings => {
                        return Some(format!(
                            "Unable to submit request because `{name}` functionDeclaration `{dotted}` schema specified other fields alongside any_of. When using any_of, it must be the only field set."
                        ));
                    }
                    // kibana-enum-format-empty-gemini3 (Gemini connector on Vertex).
                    google::Finding::EnumEmptyForEnumFormat => {
                        return Some(format!(
                            "* GenerateContentRequest.{}.enum: should be non-empty for STRING type with enum format\n",
                            f.proto
                        ));
                    }
                    google::Finding::RequiredUndefined { name, .. } => missing.push(name.clone()),
                    _ => {}
                }
            }
            if !missing.is_empty() {
                let list = missing
                    .iter()
                    .map(|m| repr_str(m))
                    .collect::<Vec<_>>()
                    .join(", ");
                return Some(format!(
                    "Unable to submit request because required fields [{list}] are not defined in the schema properties."
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{Stage, Verdict};

    /// A token without a project is skipped (it was sent to `projects/-`); the keyless
    /// discovery, which authenticates nothing, still runs without one.
    #[test]
    fn a_token_needs_a_project() {
        let env = |vars: &[(&str, &str)]| -> std::collections::BTreeMap<String, String> {
            vars.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let missing =
            |vars: &[(&str, &str)]| Vertex.missing_settings(&Vertex.configure(&env(vars)));
        let token = ("VERTEX_ACCESS_TOKEN", "tw-vertex-test");
        assert_eq!(missing(&[token]), ["GOOGLE_CLOUD_PROJECT"]);
        assert_eq!(
            missing(&[token, ("GOOGLE_CLOUD_PROJECT", " ")]),
            ["GOOGLE_CLOUD_PROJECT"]
        );
        assert!(missing(&[token, ("GOOGLE_CLOUD_PROJECT", "my-proj-123")]).is_empty());
        assert!(missing(&[]).is_empty());
    }

    #[test]
    fn vertex_wording_and_auth_first() {
        let route = Vertex;
        let cfg = route.configure(&std::collections::BTreeMap::new());
        let disc = route.discovery(&cfg).unwrap();
        let c = route.classify(&cfg, &VertexService.answer(&disc.to_incoming(None)), true);
        assert_eq!((c.verdict, c.stage), (Verdict::Inconclusive, Stage::Auth));
        let key = super::super::secret::Credential::Key(super::super::secret::Secret::new("tok"));
        let tools = vec![ToolDef {
            name: "load".into(),
            description: None,
            parameters: Some(
                json!({"type":"object","properties":{"text":{"type":"string"}},"required":["position","args"],"additionalProperties":false}),
            ),
        }];
        let req = route.request(&cfg, &tools, &WireOptions::default());
        let c = route.classify(
            &cfg,
            &VertexService.answer(&req.to_incoming(Some(&key))),
            false,
        );
        assert_eq!(
            c.error.as_deref(),
            Some(
                "Unable to submit request because required fields ['position', 'args'] are not defined in the schema properties."
            )
        );
        assert_eq!(c.stage, Stage::Validate);
    }
}
