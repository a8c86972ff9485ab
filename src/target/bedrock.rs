//! `bedrock/converse`: AWS Bedrock Converse, `toolSpec.inputSchema.json`, and the offline
//! model of `bedrock-runtime.{region}.amazonaws.com`.
//!
//! Probe: `POST /model/{modelId}/converse` with `inferenceConfig.maxTokens: 1` (billed, about
//! one output token). CountTokens is free but only some models support it and whether it
//! validates `inputSchema` is unknown (PROVIDERS.md §9), so Converse is used. Auth: SigV4 from
//! `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN` if set), or a Bedrock
//! API key `AWS_BEARER_TOKEN_BEDROCK` (`Authorization: Bearer`); region `AWS_REGION` (default
//! `us-east-1`).
//!
//! Rules and texts: `The value at toolConfig.tools.N.toolSpec.inputSchema.json.type must be
//! one of the following: object.` for a missing or non-object root type (goose#5064, kirocc,
//! Kiro reports); `The json schema definition at toolConfig.tools.N.toolSpec.inputSchema is
//! invalid. Fix the following errors and try again: $.properties: null found, object expected`
//! for meta-schema type errors (bedrock-properties-null-bifrost); with `strict: true`, Claude's
//! own checks relayed as `The model returned the following errors: tools.N.custom: …`
//! (bedrock-strict-ref-nonexistent); names 1–64 characters `[a-zA-Z0-9_-]+`
//! and a non-empty description (API_runtime_ToolSpecification; bedrock-name-over-64-converse
//! names the path
//! `toolConfig.tools.N.member.toolSpec.name` but quotes no text: the wording is AWS's general
//! `N validation error(s) detected` template, whose list indexes start at 1 — both inferred).
//! Errors are 400 `{"message": …}` with `x-amzn-ErrorType: ValidationException`.
//!
//! A `cachePoint` entry among the tools ([`is_cache_point`]: the Converse API reference's
//! Tool union holds a `toolSpec` or a `cachePoint`) is accepted unchecked and keeps its place
//! in `toolConfig.tools.N`. That acceptance is from the providers' tool documentation, not
//! probed. No other built-in tool shape is modelled for Converse.

use serde_json::{Value, json};

use super::secret::{AwsKeys, Credential, Secret};
use super::wire::*;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// The route.
pub struct Bedrock;

/// Percent-encodes a model id for the path (`:` → `%3A`, as the AWS SDKs send it).
pub fn encode_model(id: &str) -> String {
    id.replace(':', "%3A")
}

impl Route for Bedrock {
    fn id(&self) -> &'static str {
        "bedrock/converse"
    }
    fn service(&self) -> &'static str {
        "bedrock"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "https://bedrock-runtime.us-east-1.amazonaws.com",
            base_env: None,
            model: "anthropic.claude-3-5-haiku-20241022-v1:0",
            model_env: None,
            key_env: &["AWS_BEARER_TOKEN_BEDROCK"],
            api_version: None,
            keyless: Keyless::Skip,
            method: "POST /model/{modelId}/converse (maxTokens 1)",
            cost: "billed: input tokens + 1 output token; 400s are free",
        }
    }
    fn configure(&self, env: &dyn Env) -> RouteConfig {
        let mut cfg = default_config(&self.settings(), env);
        let region = env
            .var("AWS_REGION")
            .or_else(|| env.var("AWS_DEFAULT_REGION"))
            .unwrap_or_else(|| "us-east-1".into());
        if !cfg.base_overridden {
            cfg.base_url = format!("https://bedrock-runtime.{region}.amazonaws.com");
        }
        cfg.extra.insert("region".into(), region);
        if cfg.credential.is_none()
            && let (Some(id), Some(secret)) = (
                env.var("AWS_ACCESS_KEY_ID"),
                env.var("AWS_SECRET_ACCESS_KEY"),
            )
        {
            cfg.credential = Some(Credential::Aws(AwsKeys {
                access_key_id: Secret::new(id),
                secret_access_key: Secret::new(secret),
                session_token: env.var("AWS_SESSION_TOKEN").map(Secret::new),
            }));
        }
        cfg
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], opts: &WireOptions) -> WireRequest {
        let body = Body::new()
            .json(
                "messages",
                json!([{"role": "user", "content": [{"text": "hi"}]}]),
            )
            .object(
                "toolConfig",
                Body::new().tools(
                    "tools",
                    Tools {
                        tools,
                        shape: Shape::Bedrock {
                            strict: opts.strict,
                        },
                    },
                ),
            )
            .json("inferenceConfig", json!({"maxTokens": 1}));
        WireRequest::post_body(
            format!("/model/{}/converse", encode_model(&cfg.model)),
            &body,
            AuthPlacement::SigV4 {
                region: cfg.extra_or("region", "us-east-1"),
                service: "bedrock",
            },
        )
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        classify(reply)
    }
}

/// Reads a Bedrock answer.
pub fn classify(reply: &Reply) -> Classified {
    let body = reply.json_body();
    let kind = reply
        .header("x-amzn-errortype")
        .map(|t| t.split(':').next().unwrap_or(t).to_string())
        .unwrap_or_default();
    let message = body
        .as_ref()
        .and_then(|b| b.get("message").or_else(|| b.get("Message")))
        .and_then(Value::as_str)
        .map(str::to_string);
    if let Some(m) = &message {
        if (kind.is_empty() || kind == "ValidationException") && is_tool_rejection(m) {
            return Classified::rejected(Stage::Validate, m.clone(), path_in_message(m));
        }
        if (200..300).contains(&reply.status) {
            return classify_common(reply, message);
        }
        return match kind.as_str() {
            "UnrecognizedClientException"
            | "AccessDeniedException"
            | "MissingAuthenticationTokenException"
            | "ExpiredTokenException" => Classified::inconclusive(
                Stage::Auth,
                message,
                format!("credential refused ({kind})"),
            ),
            "ThrottlingException" | "ServiceQuotaExceededException" => {
                Classified::inconclusive(Stage::Quota, message, kind.clone())
                    .retry(retry_after(reply).unwrap_or(Retry::Backoff))
            }
            _ => classify_common(reply, message),
        };
    }
    if (200..300).contains(&reply.status)
        && body
            .as_ref()
            .is_some_and(|b| b.get("output").is_some() || b.get("inputTokens").is_some())
    {
        return Classified::accepted(Stage::Validate);
    }
    classify_common(reply, None)
}

/// True for Bedrock messages about the tool block.
pub fn is_tool_rejection(m: &str) -> bool {
    m.contains("toolConfig.tools.") || m.contains("The model returned the following errors: tools.")
}

/// The path a Bedrock message names.
pub fn path_in_message(m: &str) -> Option<String> {
    for marker in ["The value at ", "The json schema definition at ", " at '"] {
        if let Some(i) = m.find(marker) {
            let rest = &m[i + marker.len()..];
            let end = rest.find(['\'', ' ']).unwrap_or(rest.len());
            return Some(rest[..end].to_string());
        }
    }
    if let Some(i) = m.find("errors: tools.") {
        let rest = &m[i + "errors: ".len()..];
        return rest.split(':').next().map(str::to_string);
    }
    None
}

fn validation(message: &str) -> Reply {
    Reply::json(400, &json!({"message": message})).with_header(
        "x-amzn-errortype",
        "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/",
    )
}

/// The first problem of a Converse `toolConfig`, as Bedrock's message.
pub fn check_tool_config(tools: &[Value]) -> Option<String> {
    let mut coral = Vec::new();
    for (i, t) in tools.iter().enumerate() {
        if is_cache_point(t) {
            continue;
        }
        let name = t
            .pointer("/toolSpec/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        let at = format!("toolConfig.tools.{}.member.toolSpec.name", i + 1);
        if name.chars().count() > 64 {
            coral.push(format!("Value '{name}' at '{at}' failed to satisfy constraint: Member must have length less than or equal to 64"));
        } else if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            coral.push(format!("Value '{name}' at '{at}' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+"));
        }
        // API_runtime_ToolSpecification: description "Minimum length of 1".
        if t.pointer("/toolSpec/description").and_then(Value::as_str) == Some("") {
            coral.push(format!(
                "Value '' at 'toolConfig.tools.{}.member.toolSpec.description' failed to satisfy constraint: Member must have length greater than or equal to 1",
                i + 1
            ));
        }
    }
    if !coral.is_empty() {
        let n = coral.len();
        let noun = if n == 1 { "error" } else { "errors" };
        return Some(format!(
            "{n} validation {noun} detected: {}",
            coral.join("; ")
        ));
    }
    for (i, t) in tools.iter().enumerate() {
        if is_cache_point(t) {
            continue;
        }
        let schema = t.pointer("/toolSpec/inputSchema/json");
        let Some(schema) = schema else {
            return Some(format!(
                "The value at toolConfig.tools.{i}.toolSpec.inputSchema.json must be provided."
            ));
        };
        if !schema.is_object() {
            return Some(format!(
                "The format of the value at toolConfig.tools.{i}.toolSpec.inputSchema.json is invalid. Provide a json object for the field and try again."
            ));
        }
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            return Some(format!(
                "The value at toolConfig.tools.{i}.toolSpec.inputSchema.json.type must be one of the following: object."
            ));
        }
        if let Some(p) = meta_problem(schema) {
            return Some(format!(
                "The json schema definition at toolConfig.tools.{i}.toolSpec.inputSchema is invalid. Fix the following errors and try again: {p}"
            ));
        }
        let strict = t.pointer("/toolSpec/strict").and_then(Value::as_bool) == Some(true);
        if strict && let Some(r) = dangling_ref(schema) {
            return Some(format!(
                "The model returned the following errors: tools.{i}.custom: Invalid schema: Reference to non-existent definition: {r}"
            ));
        }
    }
    None
}

/// networknt json-schema-validator style type errors (`$.properties: null found, object
/// expected`) for the keywords whose JSON type the meta-schema fixes.
fn meta_problem(schema: &Value) -> Option<String> {
    fn jtype(v: &Value) -> &'static str {
        match v {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }
    for node in crate::schema::walk(schema).nodes {
        let Some(o) = node.object() else { continue };
        let here = if node.pointer.is_empty() {
            "$".to_string()
        } else {
            format!("${}", node.pointer.replace('/', "."))
        };
        for (k, v) in o {
            let expected = match k.as_str() {
                "properties" | "$defs" | "definitions" | "patternProperties" => "object",
                "required" | "enum" | "anyOf" | "oneOf" | "allOf" => "array",
                "minLength" | "maxLength" | "minItems" | "maxItems" => "integer",
                "description" | "title" | "pattern" => "string",
                _ => continue,
            };
            let actual = jtype(v);
            if actual != expected && !(expected == "integer" && actual == "number") {
                return Some(format!("{here}.{k}: {actual} found, {expected} expected"));
            }
        }
    }
    None
}

fn dangling_ref(schema: &Value) -> Option<String> {
    crate::schema::walk(schema).nodes.iter().find_map(|n| {
        let r = n.object()?.get("$ref")?.as_str()?;
        let ok = r
            .strip_prefix('#')
            .is_some_and(|p| crate::schema::resolve(schema, p).is_some());
        (!ok).then(|| r.to_string())
    })
}

/// Converse's envelope: a tool is a `toolSpec` (named) or a `cachePoint`.
const CONVERSE_LAYOUT: super::envelope::Layout = super::envelope::Layout {
    conversation: "/messages",
    tools: "/toolConfig/tools",
    name: "/toolSpec/name",
    is_function: not_cache_point,
};

/// CountTokens wraps a Converse request in `input.converse`.
const COUNT_LAYOUT: super::envelope::Layout = super::envelope::Layout {
    conversation: "/input/converse/messages",
    tools: "/input/converse/toolConfig/tools",
    name: "/toolSpec/name",
    is_function: not_cache_point,
};

fn not_cache_point(t: &Value) -> bool {
    !is_cache_point(t)
}

/// Whether a tool is Converse's `cachePoint` marker (`{"cachePoint": {"type": "default"}}`;
/// see [`crate::input::bedrock_cache_point`]), which is no tool to check.
pub fn is_cache_point(t: &Value) -> bool {
    t.as_object().is_some_and(crate::input::bedrock_cache_point)
}

/// The offline model of Bedrock runtime.
pub struct BedrockService;

impl Service for BedrockService {
    fn slug(&self) -> &'static str {
        "bedrock"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(status, &json!({"message": message}))
    }
    fn answer(&self, req: &Incoming) -> Reply {
        let converse = req.path.starts_with("/model/") && req.path.ends_with("/converse");
        let count = req.path.starts_with("/model/") && req.path.ends_with("/count-tokens");
        if !converse && !count {
            return Reply::json(404, &json!({"message": "Not Found"}))
                .with_header("x-amzn-errortype", "UnknownOperationException");
        }
        let auth = req.header("authorization").unwrap_or("");
        let key = if let Some(token) = req.bearer() {
            Cred::of(Some(token))
        } else {
            Cred::of(super::sigv4::access_key_of(auth))
        };
        match key {
            Cred::Missing => {
                return Reply::json(403, &json!({"message": "Missing Authentication Token"}))
                    .with_header("x-amzn-errortype", "MissingAuthenticationTokenException");
            }
            Cred::Invalid => {
                return Reply::json(
                    403,
                    &json!({"message": "The security token included in the request is invalid."}),
                )
                .with_header("x-amzn-errortype", "UnrecognizedClientException");
            }
            Cred::Valid => {}
        }
        let layout = if count { COUNT_LAYOUT } else { CONVERSE_LAYOUT };
        let body = match super::envelope::parse(&req.body, &layout) {
            Ok(b) => b,
            Err(super::envelope::Refused::Envelope(m)) => return validation(&m.message()),
            Err(super::envelope::Refused::Syntax(_)) => {
                return Reply::json(
                    400,
                    &json!({"message": "Unable to parse the request body."}),
                )
                .with_header("x-amzn-errortype", "SerializationException");
            }
        };
        let tool_config = if count {
            body.pointer("/input/converse/toolConfig/tools")
        } else {
            body.pointer("/toolConfig/tools")
        };
        if let Some(tools) = tool_config.and_then(Value::as_array)
            && let Some(m) = check_tool_config(tools)
        {
            return validation(&m);
        }
        if count {
            return Reply::json(200, &json!({"inputTokens": (req.body.len() / 4).max(1)}));
        }
        Reply::json(
            200,
            &json!({"output": {"message": {"role": "assistant", "content": [{"text": ""}]}},
                    "stopReason": "max_tokens", "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
                    "metrics": {"latencyMs": 1}}),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reported_texts() {
        let t = |s: Value| json!({"toolSpec": {"name": "t", "inputSchema": {"json": s}}});
        assert_eq!(
            check_tool_config(&[t(json!({}))]).unwrap(),
            "The value at toolConfig.tools.0.toolSpec.inputSchema.json.type must be one of the following: object."
        );
        assert_eq!(
            check_tool_config(&[t(json!({"type":"object","properties":null}))]).unwrap(),
            "The json schema definition at toolConfig.tools.0.toolSpec.inputSchema is invalid. Fix the following errors and try again: $.properties: null found, object expected"
        );
        let long = json!({"toolSpec": {"name": "x".repeat(65), "inputSchema": {"json": {"type": "object"}}}});
        assert!(
            check_tool_config(&[long])
                .unwrap()
                .starts_with("1 validation error detected: Value 'xxxx")
        );
        assert_eq!(
            path_in_message("The value at toolConfig.tools.3.toolSpec.inputSchema.json.type must be one of the following: object.").as_deref(),
            Some("toolConfig.tools.3.toolSpec.inputSchema.json.type")
        );
    }
}
