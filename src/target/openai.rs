//! OpenAI: `openai/chat` (non-strict function tools), `openai/chat-strict` and
//! `openai/responses-strict`, the offline model of `api.openai.com`, and the OpenAI-style
//! pieces other OpenAI-compatible targets reuse (tool envelopes, the error envelope, the
//! strict wire baseline, answer reading).
//!
//! Probe: `POST /v1/chat/completions` with `max_completion_tokens: 1` (billed, about one output
//! token), and `POST /v1/responses` with `max_output_tokens: 16`, the minimum (pi#6265).
//! `/v1/responses/input_tokens` is not used: whether it validates tool schemas is unknown
//! (PROVIDERS.md §6). Auth: `Authorization: Bearer`; 401 before anything else (no pre-auth).
//!
//! The model's rules, with their sources (reports.yaml ids):
//! - every mode runs a meta-schema pass with python-jsonschema messages (`[] is not of type
//!   'object', 'boolean'`: oai-subschema-empty-list-relay; `None is not of type 'array'`:
//!   oai-required-null; `'…' is not a 'uri-reference'`: oai-id-uri-reference; the other keyword
//!   values it judges, such as a name twice in `required`, an `$anchor` off the anchor pattern
//!   or an empty `prefixItems`, only because the meta-schema refuses them: [`meta_problem`]),
//!   the root-type rule (oai-type-none-*), the top-level combinator rule
//!   (oai-toplevel-combinator-newtemplate),
//!   `array schema missing items` (oai-array-items-*), and `object schema missing properties`
//!   at the root (oai-object-no-properties-azmcp; nested free-form objects: unknown, accepted);
//! - strict adds `additionalProperties` false and all-required (oai-strict-*, azure-strict-
//!   required), a `type` key on every plain node (oai-property-without-type; a boolean
//!   subschema in such a place is refused too, see [`boolean_without_type`]), the format subset
//!   (oai-format-uri; the list of supported formats is OpenAI's structured-outputs page), and
//!   refuses `oneOf` (oai-nested-oneof-agentsjs) and `default` (oai-strict-default-reverted-
//!   dotnet, no text), applies the format subset to every type and the documented size limits
//!   (10 nesting levels, 5000 properties, 1000 enum values; texts inferred); the Responses API
//!   refuses `oneOf` even when
//!   `strict` is false (oai-responses-oneof-nonstrict). Other keywords strict mode documents as
//!   unsupported are refused with the same `'kw' is not permitted.` wording, which is
//!   inferred, not seen;
//! - names: the pattern `^[a-zA-Z0-9_-]+$` and 64 characters, as OpenAI documents the name
//!   ("a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64",
//!   openai-chat-function-name-and-count, read 2026-11-30), which is newer than the one report
//!   of a pattern admitting dots (oai-name-pattern-with-dot-variant, 2025-06) and decides the
//!   matrix, so the model agrees with `check`; the message is the template that report shows,
//!   with the pattern of the same template in deepseek-name-pattern (2026-05-04); descriptions: 1024 characters (oai-description-too-long-sentry); 128 tools
//!   ("A max of 128 functions are supported"). The wording of the too-long name and too-many
//!   tools errors is inferred from the description error's template.
//!   Not modelled: the 120,000-character and 15,000-character string budgets.
//!
//! Built-in tools ([`is_builtin`]: `web_search`, `web_search_preview`, `file_search`,
//! `code_interpreter`, `image_generation`, `mcp`, `local_shell`, `computer_use_preview` and
//! the free-form `custom` tool in the Responses API; `{"type": "custom", "custom": {..}}` in
//! Chat Completions) carry no JSON Schema and are accepted without checks; their place still
//! counts in `tools[i]`. That acceptance is from OpenAI's tools documentation
//! (platform.openai.com/docs/guides/tools), not probed: what the service says about a
//! malformed built-in tool is not modelled. Azure, OpenRouter and the other OpenAI-compatible
//! models keep refusing them (their envelope wants `function.name`): none of their documents
//! in the evidence says they take OpenAI's built-in tools.

use serde_json::{Value, json};

use super::compact;
use super::pyrepr::{repr, repr_str};
use super::wire::*;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// `api.openai.com`.
pub const BASE: &str = "https://api.openai.com";

/// The OpenAI routes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenAi {
    Chat,
    ChatStrict,
    ResponsesStrict,
}

/// `[{"role":"user","content":"hi"}]`.
pub fn hi() -> Value {
    json!([{"role": "user", "content": "hi"}])
}

/// Applies the strict wire baseline (OpenAI structured outputs; DeepSeek strict per rig-core's
/// summary): every object schema gets `additionalProperties: false` where it has none, and its
/// `required` lists every property — unless the case's feature is about that keyword. The
/// request bodies write the same thing without the copy ([`Closed`]); this is the copy.
pub fn strict_baseline(tools: &[ToolDef], feature: Option<&str>) -> Vec<ToolDef> {
    let close = Close::for_feature(feature);
    tools
        .iter()
        .map(|t| ToolDef {
            parameters: t.parameters.as_ref().map(|p| {
                let mut out = Vec::new();
                Closed::new(p, close).write(&mut out);
                super::wire::parse_json(&out).unwrap_or_else(|_| p.clone())
            }),
            ..t.clone()
        })
        .collect()
}

/// Which fills of the strict baseline a case gets: not the one its feature is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Close {
    /// Add `additionalProperties: false` to object schemas without it.
    additional: bool,
    /// Add every property to `required`.
    required: bool,
}

impl Close {
    /// The fills for a case whose feature (its `parameter`) is `feature`.
    pub fn for_feature(feature: Option<&str>) -> Self {
        use crate::profile::feature::value::{STRICT_OPEN_OBJECT, STRICT_REQUIRED_INCOMPLETE};
        // The strict-form cases' features are the strict baseline's own fills left out.
        let is = |v: &str| feature.is_some_and(|f| f.strip_prefix("structure: ") == Some(v));
        Close {
            additional: !touches(feature, "additionalProperties") && !is(STRICT_OPEN_OBJECT),
            required: !touches(feature, "required") && !is(STRICT_REQUIRED_INCOMPLETE),
        }
    }
}

/// Nodes deeper than this are written as they are (a cap on recursion).
const MAX_CLOSE_DEPTH: usize = 128;

/// Members whose values are data, not schemas: never closed.
const DATA_MEMBERS: [&str; 4] = ["enum", "const", "default", "examples"];

/// A schema written with the strict baseline applied, straight from the case's schema: the
/// bytes of `strict_baseline` + serialization without building the copy. Member order is the
/// copy's: existing members in place (a `required` array extended at its end), then an added
/// `additionalProperties`, then an added `required`.
#[derive(Debug, Clone, Copy)]
pub struct Closed<'a> {
    value: &'a Value,
    close: Close,
    depth: usize,
}

impl<'a> Closed<'a> {
    /// `value` (a tool's parameters) with `close` applied.
    pub fn new(value: &'a Value, close: Close) -> Self {
        Closed {
            value,
            close,
            depth: 0,
        }
    }

    fn below(&self, value: &'a Value, levels: usize) -> Self {
        Closed {
            value,
            close: self.close,
            depth: self.depth + levels,
        }
    }
}

impl Closed<'_> {
    /// Writes the closed schema as compact JSON.
    pub fn write(&self, out: &mut Vec<u8>) {
        if self.depth > MAX_CLOSE_DEPTH {
            return compact::value(out, self.value);
        }
        match self.value {
            Value::Object(o) => {
                let is_object = o.get("type").and_then(Value::as_str) == Some("object")
                    || o.get("properties").is_some_and(Value::is_object);
                let add_additional =
                    is_object && self.close.additional && !o.contains_key("additionalProperties");
                let props = match o.get("properties") {
                    Some(Value::Object(p)) if is_object && self.close.required => Some(p),
                    _ => None,
                };
                let add_required = props.is_some() && !o.contains_key("required");
                out.push(b'{');
                for (i, (k, v)) in o.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    compact::key(out, k);
                    match (k.as_str(), props, v) {
                        ("required", Some(props), Value::Array(req)) => {
                            self.below(v, 1).write_required(req, props, out)
                        }
                        (k, _, _) if DATA_MEMBERS.contains(&k) => compact::value(out, v),
                        _ => self.below(v, 1).write(out),
                    }
                }
                let mut more = !o.is_empty();
                if add_additional {
                    if more {
                        out.push(b',');
                    }
                    compact::key(out, "additionalProperties");
                    compact::boolean(out, false);
                    more = true;
                }
                if let (true, Some(props)) = (add_required, props) {
                    if more {
                        out.push(b',');
                    }
                    compact::key(out, "required");
                    out.push(b'[');
                    for (i, name) in props.keys().enumerate() {
                        if i > 0 {
                            out.push(b',');
                        }
                        compact::string(out, name);
                    }
                    out.push(b']');
                }
                out.push(b'}');
            }
            Value::Array(a) => {
                out.push(b'[');
                for (i, child) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    self.below(child, 1).write(out);
                }
                out.push(b']');
            }
            other => compact::value(out, other),
        }
    }

    /// An existing `required` array (this node), then every property it does not name yet.
    fn write_required(
        &self,
        req: &[Value],
        props: &serde_json::Map<String, Value>,
        out: &mut Vec<u8>,
    ) {
        out.push(b'[');
        let mut first = true;
        let mut comma = |out: &mut Vec<u8>| {
            if !std::mem::take(&mut first) {
                out.push(b',');
            }
        };
        for r in req {
            comma(out);
            self.below(r, 1).write(out);
        }
        // A set: a scan of `required` per property is quadratic in a wide object.
        let named: std::collections::HashSet<&str> = req.iter().filter_map(Value::as_str).collect();
        for name in props.keys() {
            if !named.contains(name.as_str()) {
                comma(out);
                compact::string(out, name);
            }
        }
        out.push(b']');
    }
}

/// True when a case's feature (its `parameter`) names `keyword`: as a word
/// (`keyword-allowed: additionalProperties (false)`) or as the head of a structure name
/// (`structure: required-undeclared`), but not inside another name
/// (`structure: property-named-required`).
pub fn touches(feature: Option<&str>, keyword: &str) -> bool {
    feature.is_some_and(|f| {
        f.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '$' || c == '_'))
            .any(|tok| {
                tok == keyword
                    || tok
                        .strip_prefix(keyword)
                        .is_some_and(|r| r.starts_with('-'))
            })
    })
}

impl Route for OpenAi {
    fn id(&self) -> &'static str {
        match self {
            OpenAi::Chat => "openai/chat",
            OpenAi::ChatStrict => "openai/chat-strict",
            OpenAi::ResponsesStrict => "openai/responses-strict",
        }
    }
    fn service(&self) -> &'static str {
        "openai"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: BASE,
            base_env: Some("OPENAI_BASE_URL"),
            model: "gpt-4.1-mini",
            model_env: None,
            key_env: &["OPENAI_API_KEY"],
            api_version: None,
            keyless: Keyless::Skip,
            method: match self {
                OpenAi::ResponsesStrict => "POST /v1/responses (max_output_tokens 16)",
                _ => "POST /v1/chat/completions (max_completion_tokens 1)",
            },
            cost: match self {
                OpenAi::ResponsesStrict => {
                    "billed: input tokens + up to 16 output tokens; 400s are free"
                }
                _ => "billed: input tokens + 1 output token; 400s are free",
            },
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
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], opts: &WireOptions) -> WireRequest {
        let auth = AuthPlacement::Header {
            name: "authorization",
            prefix: "Bearer ",
        };
        let strict = opts.strict.unwrap_or(*self != OpenAi::Chat);
        let close = (strict && !opts.raw).then(|| Close::for_feature(opts.feature.as_deref()));
        match self {
            OpenAi::ResponsesStrict => {
                let body = Body::new()
                    .json("model", json!(cfg.model))
                    .json("input", json!("hi"))
                    .tools_closed(
                        "tools",
                        Tools {
                            tools,
                            shape: Shape::Flat { strict },
                        },
                        close,
                    )
                    .json("max_output_tokens", json!(16));
                WireRequest::post_body("/v1/responses", &body, auth)
            }
            _ => {
                let body = Body::new()
                    .json("model", json!(cfg.model))
                    .json("messages", hi())
                    .tools_closed(
                        "tools",
                        Tools {
                            tools,
                            shape: Shape::Chat {
                                strict: strict.then_some(true),
                            },
                        },
                        close,
                    )
                    .json("max_completion_tokens", json!(1));
                WireRequest::post_body("/v1/chat/completions", &body, auth)
            }
        }
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        classify(reply, &["choices", "output"])
    }
}

/// A Chat Completions probe for an OpenAI-compatible route: `model`, one user message, the
/// tools, `max_tokens: 1`, plus `extra` members (e.g. `tool_choice`).
pub fn chat_request(
    cfg: &RouteConfig,
    tools: &[ToolDef],
    path: &str,
    strict: Option<bool>,
    extra: Value,
) -> WireRequest {
    chat_request_closed(cfg, tools, path, strict, extra, None)
}

/// [`chat_request`] with the schemas written under the strict baseline when `close` is set.
pub fn chat_request_closed(
    cfg: &RouteConfig,
    tools: &[ToolDef],
    path: &str,
    strict: Option<bool>,
    extra: Value,
    close: Option<Close>,
) -> WireRequest {
    let body = Body::new()
        .json("model", json!(cfg.model))
        .json("messages", hi())
        .tools_closed(
            "tools",
            Tools {
                tools,
                shape: Shape::Chat { strict },
            },
            close,
        )
        .json("max_tokens", json!(1))
        .extend(extra);
    WireRequest::post_body(
        path,
        &body,
        AuthPlacement::Header {
            name: "authorization",
            prefix: "Bearer ",
        },
    )
}

/// An OpenAI-style error body.
pub fn error(message: &str, kind: &str, param: Option<&str>, code: Option<&str>) -> Value {
    json!({"error": {"message": message, "type": kind, "param": param, "code": code}})
}

/// An `invalid_request_error` naming a tool problem.
pub fn tool_error(e: &ToolError) -> Value {
    error(
        &e.message,
        "invalid_request_error",
        e.param.as_deref(),
        e.code,
    )
}

/// `In context=(…)` from a message, e.g. `('properties', 'objects')`: the tuple read as the
/// Python literal it is, so that a `)` or `, ` inside a property's name does not end it.
pub fn context_in_message(msg: &str) -> Option<String> {
    let i = msg.find("In context=(")?;
    let rest = &msg[i + "In context=".len()..];
    let (tuple, len) = super::pyrepr::parse_prefix(rest)?;
    (tuple.is_array() && rest[len..].starts_with(',')).then(|| rest[..len].to_string())
}

/// The path an OpenAI-style message names: its `In context=(…)` tuple, or the quoted field of
/// `Invalid 'tools[0].function.name': …`.
pub fn path_in_message(msg: &str) -> Option<String> {
    if let Some(c) = context_in_message(msg) {
        return Some(c);
    }
    // Groq: `invalid JSON schema for tool X, tools[24].function.parameters: …`.
    if let Some(i) = msg.find("invalid JSON schema for tool ") {
        let rest = &msg[i..];
        let after = rest.split_once(", ")?.1;
        return after.split(": ").next().map(str::to_string);
    }
    let i = msg.find("Invalid 'tools")?;
    let rest = &msg[i + "Invalid '".len()..];
    rest.split('\'').next().map(str::to_string)
}

/// Reads an OpenAI-style answer. A rejection needs the error to name the tools: code
/// `invalid_function_parameters`, a `param` inside `tools`, or the `Invalid schema for
/// function` / `Invalid 'tools…` texts (relays keep the body but may change the status).
pub fn classify(reply: &Reply, ok_keys: &[&str]) -> Classified {
    let body = reply.json_body();
    if let Some(e) = body
        .as_ref()
        .and_then(|b| b.get("error"))
        .and_then(Value::as_object)
    {
        let message = match e.get("message") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let param = e.get("param").and_then(Value::as_str);
        let code = e.get("code").and_then(Value::as_str).unwrap_or("");
        let kind = e.get("type").and_then(Value::as_str).unwrap_or("");
        let about_tools = code == "invalid_function_parameters"
            || param.is_some_and(|p| p.starts_with("tools") || p.starts_with("tool "))
            || message.starts_with("Invalid schema for function")
            || message.starts_with("Invalid 'tools")
            || message.starts_with("invalid JSON schema for tool");
        if about_tools && !matches!(reply.status, 401 | 403) {
            let path = path_in_message(&message).or_else(|| param.map(str::to_string));
            return Classified::rejected(Stage::Validate, message, path);
        }
        if kind == "authentication_error" || code == "invalid_api_key" {
            return Classified::inconclusive(Stage::Auth, Some(message), "credential refused");
        }
        if reply.status == 429 && code == "insufficient_quota" {
            return Classified::inconclusive(
                Stage::Quota,
                Some(message),
                "quota spent (insufficient_quota; not retried)",
            );
        }
        return classify_common(reply, Some(message));
    }
    if (200..300).contains(&reply.status)
        && let Some(b) = &body
        && ok_keys.iter().any(|k| b.get(*k).is_some())
    {
        return Classified::accepted(Stage::Validate);
    }
    classify_common(reply, None)
}

/// One tool as it arrived, read from either envelope.
#[derive(Debug, Clone)]
pub struct ToolView<'a> {
    pub name: Option<&'a Value>,
    pub description: Option<&'a Value>,
    pub parameters: Option<&'a Value>,
    pub strict: bool,
    /// One of OpenAI's built-in tools ([`is_builtin`]): [`check_tools`] neither checks nor
    /// counts it, but it keeps its place in the list, so `tools[i]` stays the request's index.
    pub builtin: bool,
}

/// Whether a tool is one of OpenAI's built-in tools (`web_search`, `code_interpreter`, `mcp`,
/// .., or a free-form `custom` tool; see `crate::input::openai_builtin`), which carries no
/// JSON Schema.
pub fn is_builtin(t: &Value) -> bool {
    t.as_object().is_some_and(crate::input::openai_builtin)
}

/// Whether a Chat Completions tool is OpenAI's custom tool (`{"type": "custom", "custom":
/// {"name": ..}}`), the only tool besides `function` that Chat Completions takes.
pub fn is_chat_custom(t: &Value) -> bool {
    t.get("type").and_then(Value::as_str) == Some("custom")
        && t.get("custom").is_some_and(Value::is_object)
        && is_builtin(t)
}

/// Whether a tool is one of OpenAI's built-in tools as the Responses API takes them: the
/// flat shape (a custom tool is `{"type": "custom", "name": ..}` there, not Chat's nested
/// `custom` object).
pub fn is_responses_builtin(t: &Value) -> bool {
    is_builtin(t) && !is_chat_custom(t)
}

/// The fields of OpenAI's custom tool besides `type`, the same in both APIs: Chat Completions
/// nests them in a `custom` object (`{"type": "custom", "custom": {"name", "description",
/// "format"}}`), the Responses API writes them beside `type` (`{"type": "custom", "name",
/// "description", "format"}`). A grammar `format` differs too ([`custom_format_in_shape`]).
/// Source: OpenAI's API reference (platform.openai.com/docs/api-reference, Chat Completions
/// `tools[].custom` and Responses `tools[]` custom tool), as the types openai-python
/// generates from OpenAI's OpenAPI spec: `ChatCompletionCustomToolParam`
/// (<https://github.com/openai/openai-python/blob/main/src/openai/types/chat/chat_completion_custom_tool_param.py>)
/// and `CustomToolParam`
/// (<https://github.com/openai/openai-python/blob/main/src/openai/types/responses/custom_tool_param.py>).
const CUSTOM_FIELDS: [&str; 3] = ["name", "description", "format"];

/// The fields of a grammar `format` that Chat Completions nests in its `grammar` object and
/// the Responses API writes beside `type` (see [`custom_format_in_shape`]).
const GRAMMAR_FIELDS: [&str; 2] = ["definition", "syntax"];

/// A custom tool's `format` in the shape of the API it is sent to. The unconstrained
/// `{"type": "text"}` is the same in both; a grammar differs:
///
/// - Chat Completions: `{"type": "grammar", "grammar": {"definition": "..", "syntax":
///   "lark" | "regex"}}`;
/// - Responses API: `{"type": "grammar", "syntax": "lark" | "regex", "definition": ".."}`.
///
/// Sources: openai-python's types generated from OpenAI's OpenAPI spec, Chat Completions'
/// `CustomFormatGrammar` / `CustomFormatGrammarGrammar`
/// (<https://github.com/openai/openai-python/blob/main/src/openai/types/chat/chat_completion_custom_tool_param.py>;
/// also <https://www.rubydoc.info/gems/openai/OpenAI/Models/Chat/ChatCompletionCustomTool/Custom/Format/Grammar>)
/// and the Responses API's `CustomToolInputFormat.Grammar`
/// (<https://github.com/openai/openai-python/blob/main/src/openai/types/shared_params/custom_tool_input_format.py>;
/// also <https://docs.rs/crate/openai-client-base/latest/source/docs/CustomGrammarFormatParam.md>);
/// guide: <https://developers.openai.com/api/docs/guides/function-calling#custom-tools>.
///
/// The grammar's fields move between the `grammar` object and the format, taking the
/// `grammar` object's place (nested: the place of the first of them), in the order written.
/// A format already in the target's shape, of another `type`, or not an object is returned
/// as written (the API judges it). `Err` names a field the other shape has no place for
/// (besides `type`, Chat's format has only `grammar` and the Responses API's only `syntax`
/// and `definition`), one written both inside `grammar` and beside it, or a `grammar` that
/// is not an object.
pub fn custom_format_in_shape(format: &Value, responses: bool) -> Result<Value, String> {
    let Some(m) = format.as_object() else {
        return Ok(format.clone());
    };
    if m.get("type").and_then(Value::as_str) != Some("grammar") {
        return Ok(format.clone());
    }
    if responses {
        let Some(grammar) = m.get("grammar") else {
            return Ok(format.clone());
        };
        let Some(inner) = grammar.as_object() else {
            return Err("its grammar `format`'s `grammar` is not an object".into());
        };
        if let Some(k) = inner.keys().find(|k| m.contains_key(*k)) {
            return Err(format!(
                "its grammar `format` writes `{k}` both inside its `grammar` object and beside it"
            ));
        }
        let mut out = serde_json::Map::new();
        for (k, v) in m {
            if k == "type" {
                out.insert(k.clone(), v.clone());
            } else if k == "grammar" {
                for (ik, iv) in inner {
                    if !GRAMMAR_FIELDS.contains(&ik.as_str()) {
                        return Err(format!(
                            "its grammar `format`'s `grammar` object's `{ik}` has no place in \
                             the Responses API's grammar format (`type`, `syntax`, `definition`)"
                        ));
                    }
                    out.insert(ik.clone(), iv.clone());
                }
            } else {
                return Err(format!(
                    "its grammar `format`'s `{k}` has no place in the Responses API's grammar \
                     format (`type`, `syntax`, `definition`)"
                ));
            }
        }
        return Ok(Value::Object(out));
    }
    if m.contains_key("grammar") {
        return Ok(format.clone());
    }
    let mut grammar = serde_json::Map::new();
    let mut out = serde_json::Map::new();
    for (k, v) in m {
        if k == "type" {
            out.insert(k.clone(), v.clone());
        } else if GRAMMAR_FIELDS.contains(&k.as_str()) {
            if grammar.is_empty() {
                // Holds the nested object's place; filled below.
                out.insert("grammar".into(), Value::Null);
            }
            grammar.insert(k.clone(), v.clone());
        } else {
            return Err(format!(
                "its grammar `format`'s `{k}` has no place in Chat Completions' grammar format \
                 (`type` and a `grammar` object of `definition`, `syntax`)"
            ));
        }
    }
    if grammar.is_empty() {
        return Ok(format.clone());
    }
    out.insert("grammar".into(), Value::Object(grammar));
    Ok(Value::Object(out))
}

/// Whether a tool is OpenAI's custom tool in the Responses API's flat shape.
fn is_flat_custom(t: &Value) -> bool {
    t.get("type").and_then(Value::as_str) == Some("custom") && is_builtin(t) && !is_chat_custom(t)
}

/// OpenAI's custom tool `t` in the shape of the API it is sent to: the Responses API's flat
/// shape when `responses`, else Chat Completions' nested one (`CUSTOM_FIELDS` move between
/// the `custom` object and the tool, and a grammar `format` is rewritten in that API's shape
/// by [`custom_format_in_shape`]; every other field stays as written, in its place).
/// `None` when `t` is not a custom tool or is already in that shape; `Some(Err)` names a
/// field the other shape has no place for (a `custom` field outside `CUSTOM_FIELDS`, a
/// field written both inside `custom` and beside it, a flat tool's non-object `custom`, a
/// grammar `format` field [`custom_format_in_shape`] cannot place).
pub fn custom_in_shape(t: &Value, responses: bool) -> Option<Result<Value, String>> {
    let m = t.as_object()?;
    if responses && is_chat_custom(t) {
        let inner = m.get("custom").and_then(Value::as_object)?;
        let mut out = serde_json::Map::new();
        for (k, v) in m {
            if k != "custom" {
                out.insert(k.clone(), v.clone());
                continue;
            }
            for (ik, iv) in inner {
                if !CUSTOM_FIELDS.contains(&ik.as_str()) {
                    return Some(Err(format!(
                        "its `custom` object's `{ik}` has no place in the Responses API's \
                         custom tool (`type`, `name`, `description`, `format`)"
                    )));
                }
                if m.contains_key(ik) {
                    return Some(Err(format!(
                        "`{ik}` is written both inside its `custom` object and beside it"
                    )));
                }
                let iv = if ik == "format" {
                    match custom_format_in_shape(iv, true) {
                        Ok(f) => f,
                        Err(why) => return Some(Err(why)),
                    }
                } else {
                    iv.clone()
                };
                out.insert(ik.clone(), iv);
            }
        }
        return Some(Ok(Value::Object(out)));
    }
    if !responses && is_flat_custom(t) {
        let mut custom = serde_json::Map::new();
        let mut out = serde_json::Map::new();
        for (k, v) in m {
            if k == "type" {
                out.insert(k.clone(), v.clone());
            } else if k == "format" {
                match custom_format_in_shape(v, false) {
                    Ok(f) => custom.insert(k.clone(), f),
                    Err(why) => return Some(Err(why)),
                };
            } else if CUSTOM_FIELDS.contains(&k.as_str()) {
                custom.insert(k.clone(), v.clone());
            } else {
                return Some(Err(format!(
                    "its `{k}` has no place in Chat Completions' custom tool (`type` and a \
                     `custom` object of `name`, `description`, `format`)"
                )));
            }
        }
        out.insert("custom".into(), Value::Object(custom));
        return Some(Ok(Value::Object(out)));
    }
    None
}

/// Reads Chat Completions tools (`tools[i].function`).
pub fn chat_views(body: &Value) -> Vec<ToolView<'_>> {
    body.get("tools")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|t| {
                    let f = t.get("function").unwrap_or(&Value::Null);
                    ToolView {
                        name: f.get("name"),
                        description: f.get("description"),
                        parameters: f.get("parameters").filter(|p| !p.is_null()),
                        strict: f.get("strict").and_then(Value::as_bool).unwrap_or(false),
                        builtin: is_chat_custom(t),
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// A refusal of one tool: message, `param` and `code`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    pub message: String,
    pub param: Option<String>,
    pub code: Option<&'static str>,
}

/// Which OpenAI-family validator runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// `tools[i].parameters` instead of `tools[i].function.parameters`.
    pub responses: bool,
    /// The function-name pattern as printed in the message.
    pub name_pattern: &'static str,
    pub max_name: usize,
}

/// OpenAI's rules. The name pattern follows the documentation (see the module notes): no dots.
pub const OPENAI_RULES: Rules = Rules {
    responses: false,
    name_pattern: "^[a-zA-Z0-9_-]+$",
    max_name: 64,
};

fn name_matches(name: &str, pattern: &str) -> bool {
    let dot = pattern.contains('.');
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || (dot && c == '.'))
}

/// The first problem of a tool list under OpenAI's rules (Azure shares them). Built-in tools
/// are skipped: the 128 limit is on functions ("A max of 128 functions are supported"), and
/// the message gives the whole array's length, as it speaks of the array.
pub fn check_tools(views: &[ToolView<'_>], rules: Rules) -> Option<ToolError> {
    if views.iter().filter(|t| !t.builtin).count() > 128 {
        return Some(ToolError {
            message: format!(
                "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length {} instead.",
                views.len()
            ),
            param: Some("tools".into()),
            code: Some("array_above_max_length"),
        });
    }
    for (i, t) in views.iter().enumerate() {
        if t.builtin {
            continue;
        }
        let field = if rules.responses {
            format!("tools[{i}]")
        } else {
            format!("tools[{i}].function")
        };
        let name = t.name.and_then(Value::as_str).unwrap_or("");
        if name.chars().count() > rules.max_name {
            return Some(ToolError {
                message: format!(
                    "Invalid '{field}.name': string too long. Expected a string with maximum length {}, but got a string with length {} instead.",
                    rules.max_name,
                    name.chars().count()
                ),
                param: Some(format!("{field}.name")),
                code: Some("string_above_max_length"),
            });
        }
        if !name_matches(name, rules.name_pattern) {
            return Some(ToolError {
                message: format!(
                    "Invalid '{field}.name': string does not match pattern. Expected a string that matches the pattern '{}'.",
                    rules.name_pattern
                ),
                param: Some(format!("{field}.name")),
                code: Some("invalid_value"),
            });
        }
        if let Some(Value::String(d)) = t.description
            && d.chars().count() > 1024
        {
            return Some(ToolError {
                message: format!(
                    "Invalid '{field}.description': string too long. Expected a string with maximum length 1024, but got a string with length {} instead.",
                    d.chars().count()
                ),
                param: Some(format!("{field}.description")),
                code: Some("string_above_max_length"),
            });
        }
        if let Some(p) = t.parameters
            && let Some(detail) = schema_problem(p, t.strict, rules.responses)
        {
            return Some(ToolError {
                message: format!("Invalid schema for function '{name}': {detail}"),
                param: Some(format!("{field}.parameters")),
                code: Some("invalid_function_parameters"),
            });
        }
    }
    None
}

/// Formats supported by strict mode (OpenAI structured-outputs "Supported schemas").
pub const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Keywords strict mode documents as unsupported (besides `oneOf`, seen refused).
pub const STRICT_UNSUPPORTED: &[&str] = &[
    // Seen refused without a quoted text (oai-strict-default-reverted-dotnet).
    "default",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "patternProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
];

/// Python's tuple repr of a context: `()`, `('properties',)`, `('properties', 'x')`.
pub fn context(tokens: &[String]) -> String {
    match tokens.len() {
        0 => "()".into(),
        1 => format!("({},)", repr_str(&tokens[0])),
        _ => format!(
            "({})",
            tokens
                .iter()
                .map(|t| repr_str(t))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The first thing OpenAI's validator says about `schema` (without the `Invalid schema for
/// function 'f': ` prefix), or `None`.
pub fn schema_problem(schema: &Value, strict: bool, responses: bool) -> Option<String> {
    if let Some(m) = meta_problem(schema) {
        return Some(format!("{m}."));
    }
    let Value::Object(root) = schema else {
        return None;
    };
    match root.get("type") {
        Some(Value::String(t)) if t == "object" => {}
        Some(Value::String(t)) => {
            return Some(format!(
                "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"{t}\"'."
            ));
        }
        Some(other) => {
            return Some(format!(
                "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"{}\"'.",
                repr(other)
            ));
        }
        None => {
            return Some(
                "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'.".into(),
            );
        }
    }
    if ["oneOf", "anyOf", "allOf", "enum", "not"]
        .iter()
        .any(|k| root.contains_key(*k))
    {
        return Some("schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level.".into());
    }
    if strict && let Some(p) = strict_size_problem(schema) {
        return Some(p);
    }
    // The flag marks an `additionalProperties` value, where strict mode wants `false` itself.
    let mut stack: Vec<(&Value, Vec<String>, bool)> = vec![(schema, Vec::new(), false)];
    while let Some((node, ctx, additional)) = stack.pop() {
        if strict
            && let Value::Bool(b) = node
            && (*b || !additional)
        {
            return Some(boolean_without_type(*b, &ctx));
        }
        let Value::Object(o) = node else { continue };
        if ctx.len() > 256 {
            continue;
        }
        let c = context(&ctx);
        let combinator = ["anyOf", "oneOf", "allOf", "$ref", "enum", "const"]
            .iter()
            .any(|k| o.contains_key(*k));
        if strict && !o.contains_key("type") && !combinator {
            return Some(format!("In context={c}, schema must have a 'type' key."));
        }
        if o.contains_key("oneOf") && (strict || responses) {
            return Some(format!("In context={c}, 'oneOf' is not permitted."));
        }
        if strict && let Some(kw) = STRICT_UNSUPPORTED.iter().find(|k| o.contains_key(**k)) {
            return Some(format!("In context={c}, '{kw}' is not permitted."));
        }
        let types: Vec<(Option<&str>, Vec<String>)> = match o.get("type") {
            Some(Value::String(t)) => vec![(Some(t.as_str()), ctx.clone())],
            Some(Value::Array(ts)) => ts
                .iter()
                .enumerate()
                .map(|(j, t)| {
                    let mut cx = ctx.clone();
                    cx.push("type".into());
                    cx.push(j.to_string());
                    (t.as_str(), cx)
                })
                .collect(),
            _ => vec![(None, ctx.clone())],
        };
        for (t, cx) in &types {
            let cc = context(cx);
            // Strict mode's format subset applies whatever the type (the matrix maps the
            // `'uri' is not a valid format` report to every format outside the list).
            if strict
                && let Some(Value::String(fmt)) = o.get("format")
                && !STRICT_FORMATS.contains(&fmt.as_str())
            {
                return Some(format!("In context={cc}, '{fmt}' is not a valid format."));
            }
            match *t {
                Some("object") => {
                    if strict {
                        if o.get("additionalProperties") != Some(&Value::Bool(false)) {
                            return Some(format!(
                                "In context={cc}, 'additionalProperties' is required to be supplied and to be false."
                            ));
                        }
                        let props = o.get("properties").and_then(Value::as_object);
                        let req: Vec<&str> = o
                            .get("required")
                            .and_then(Value::as_array)
                            .map(|a| a.iter().filter_map(Value::as_str).collect())
                            .unwrap_or_default();
                        if let Some(missing) =
                            props.and_then(|p| p.keys().find(|k| !req.contains(&k.as_str())))
                        {
                            return Some(format!(
                                "In context={cc}, 'required' is required to be supplied and to be an array including every key in properties. Missing '{missing}'."
                            ));
                        }
                    }
                    // A basic shape check: strict mode runs it too (target::INHERITANCE).
                    if cx.is_empty() && !o.contains_key("properties") {
                        return Some(format!(
                            "In context={cc}, object schema missing properties."
                        ));
                    }
                }
                Some("array") if !o.contains_key("items") => {
                    return Some(format!("In context={cc}, array schema missing items."));
                }
                _ => {}
            }
        }
        let mut children: Vec<(&Value, Vec<String>, bool)> = Vec::new();
        for (k, v) in o {
            match k.as_str() {
                "properties" | "$defs" | "definitions" => {
                    if let Value::Object(m) = v {
                        for (name, sub) in m {
                            let mut cx = ctx.clone();
                            cx.push(k.clone());
                            cx.push(name.clone());
                            children.push((sub, cx, false));
                        }
                    }
                }
                "items" | "additionalProperties" | "not" => {
                    let mut cx = ctx.clone();
                    cx.push(k.clone());
                    children.push((v, cx, k == "additionalProperties"));
                }
                "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                    if let Value::Array(a) = v {
                        for (i, sub) in a.iter().enumerate() {
                            let mut cx = ctx.clone();
                            cx.push(k.clone());
                            cx.push(i.to_string());
                            children.push((sub, cx, false));
                        }
                    }
                }
                _ => {}
            }
        }
        for ch in children.into_iter().rev() {
            stack.push(ch);
        }
    }
    None
}

/// Strict mode's refusal of a boolean subschema where it wants a `type` key. JSON Schema
/// 2020-12 §4.3.2 makes `true` the same schema as `{}` and `false` the same as `{"not": {}}`;
/// strict mode refuses `{}` there ("schema must have a 'type' key": oai-property-without-type,
/// a property with only a description, its message cut short; the wording is OpenAI's
/// template as groq-livekit-two-errors quotes it), so the model gives the boolean spellings
/// the verdict of the objects they stand for. That refusal is inferred from those reports,
/// not seen: no report or probe in the evidence sends OpenAI (or DeepSeek) a boolean
/// subschema, so the words after OpenAI's template are the model's own, saying which schema
/// it is. `additionalProperties: false` is not refused: strict mode wants exactly that.
fn boolean_without_type(b: bool, ctx: &[String]) -> String {
    let same = if b { "`{}`" } else { "`{\"not\": {}}`" };
    format!(
        "In context={}, schema must have a 'type' key (the boolean schema `{b}`, the same schema as {same}, has none).",
        context(ctx)
    )
}

/// Strict mode's documented size limits (structured-outputs "Supported schemas": at most 10
/// nesting levels, 5000 object properties, 1000 enum values). The refusal texts are not
/// documented; these are inferred. Levels are [`crate::schema::object_depth`]'s, the measure
/// `check`'s `depth-exceeded` uses: objects only, through local `$ref`s, a recursive
/// definition (which the same page documents as supported) counted once.
pub fn strict_size_problem(schema: &Value) -> Option<String> {
    let levels = crate::schema::object_depth(schema);
    if levels > 10 {
        return Some(format!(
            "In context=(), the schema nests {levels} object levels; at most 10 are allowed."
        ));
    }
    let mut properties = 0usize;
    for node in crate::schema::walk(schema).nodes {
        let Some(o) = node.object() else { continue };
        if let Some(Value::Object(p)) = o.get("properties") {
            properties += p.len();
        }
        if let Some(Value::Array(e)) = o.get("enum")
            && e.len() > 1000
        {
            return Some(format!(
                "In context=(), an 'enum' has {} values; at most 1000 are allowed.",
                e.len()
            ));
        }
    }
    (properties > 5000).then(|| {
        format!("In context=(), the schema has {properties} object properties; at most 5000 are allowed.")
    })
}

const JSON_TYPES: &[&str] = &[
    "array", "boolean", "integer", "null", "number", "object", "string",
];

fn is_uri_reference(s: &str) -> bool {
    !s.chars().any(|c| {
        c.is_whitespace() || matches!(c, '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}')
    })
}

/// The draft 2020-12 meta-schema's `anchorString` pattern (meta/core), which `$anchor` and
/// `$dynamicAnchor` must match.
const ANCHOR_PATTERN: &str = "^[A-Za-z_][-A-Za-z0-9._]*$";

/// Whether `s` matches [`ANCHOR_PATTERN`] (ASCII letters only, as Python's `re` reads the
/// ranges).
fn is_anchor(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

/// What python-jsonschema says of a value the meta-schema's `stringArray` (meta/validation:
/// `type: array`, `items: {type: string}`, `uniqueItems: true`) refuses, in that keyword order:
/// `required`, and each value of `dependentRequired`, must be a list of distinct strings.
fn string_array_problem(v: &Value) -> Option<String> {
    let Value::Array(a) = v else {
        return Some(format!("{} is not of type 'array'", repr(v)));
    };
    if let Some(x) = a.iter().find(|x| !x.is_string()) {
        return Some(format!("{} is not of type 'string'", repr(x)));
    }
    let mut seen = std::collections::BTreeSet::new();
    (!a.iter().filter_map(Value::as_str).all(|x| seen.insert(x)))
        .then(|| format!("{} has non-unique elements", repr(v)))
}

/// The meta-schema pass: python-jsonschema messages (without the final period) for the first
/// keyword whose value the Draft 2020-12 meta-schema refuses, walking in document order.
/// Modelled: `type`, the schema maps, `required` and each value of `dependentRequired`
/// (distinct strings), `enum`, the schema lists
/// (`anyOf`, `oneOf`, `allOf`, `prefixItems`: non-empty), `$id`, `$anchor` and
/// `$dynamicAnchor` (the anchor pattern), counts, bounds and the string keywords; another
/// keyword's value is not judged (accepted).
pub fn meta_problem(schema: &Value) -> Option<String> {
    let mut stack = vec![(schema, 0usize)];
    while let Some((node, depth)) = stack.pop() {
        if depth > 256 {
            continue;
        }
        let o = match node {
            Value::Bool(_) => continue,
            Value::Object(o) => o,
            other => {
                return Some(format!(
                    "{} is not of type 'object', 'boolean'",
                    repr(other)
                ));
            }
        };
        for (k, v) in o {
            let bad = match k.as_str() {
                "type" => {
                    let ok = match v {
                        Value::String(s) => JSON_TYPES.contains(&s.as_str()),
                        // meta/validation: `type` is one of `simpleTypes` or a list of them with
                        // `minItems: 1` and `uniqueItems: true` (before, a repeat passed).
                        Value::Array(a) => {
                            !a.is_empty()
                                && a.iter()
                                    .all(|t| t.as_str().is_some_and(|s| JSON_TYPES.contains(&s)))
                                && crate::profile::rules::type_list::repeated(a).is_none()
                        }
                        _ => false,
                    };
                    (!ok)
                        .then(|| format!("{} is not valid under any of the given schemas", repr(v)))
                }
                "properties" | "$defs" | "definitions" | "patternProperties" => {
                    (!v.is_object()).then(|| format!("{} is not of type 'object'", repr(v)))
                }
                "required" => string_array_problem(v),
                // meta/validation: `type: object`, each value a `stringArray`.
                "dependentRequired" => match v {
                    Value::Object(m) => m.values().find_map(string_array_problem),
                    _ => Some(format!("{} is not of type 'object'", repr(v))),
                },
                "enum" => (!v.is_array()).then(|| format!("{} is not of type 'array'", repr(v))),
                "$anchor" | "$dynamicAnchor" => match v {
                    Value::String(s) if is_anchor(s) => None,
                    Value::String(_) => Some(format!(
                        "{} does not match {}",
                        repr(v),
                        repr_str(ANCHOR_PATTERN)
                    )),
                    _ => Some(format!("{} is not of type 'string'", repr(v))),
                },
                "anyOf" | "oneOf" | "allOf" | "prefixItems" => match v {
                    Value::Array(a) if a.is_empty() => Some("[] should be non-empty".into()),
                    Value::Array(_) => None,
                    _ => Some(format!("{} is not of type 'array'", repr(v))),
                },
                "$id" => match v {
                    Value::String(s) if is_uri_reference(s) => None,
                    Value::String(_) => Some(format!("{} is not a 'uri-reference'", repr(v))),
                    _ => Some(format!("{} is not of type 'string'", repr(v))),
                },
                "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
                | "maxProperties" => match v.as_i64() {
                    Some(n) if n < 0 => Some(format!("{n} is less than the minimum of 0")),
                    Some(_) => None,
                    None => Some(format!("{} is not of type 'integer'", repr(v))),
                },
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                    (!v.is_number()).then(|| format!("{} is not of type 'number'", repr(v)))
                }
                "pattern" | "description" | "title" | "format" | "$ref" => {
                    (!v.is_string()).then(|| format!("{} is not of type 'string'", repr(v)))
                }
                _ => None,
            };
            if bad.is_some() {
                return bad;
            }
        }
        let mut children = Vec::new();
        for (k, v) in o {
            match k.as_str() {
                "properties" | "$defs" | "definitions" | "patternProperties" => {
                    if let Value::Object(m) = v {
                        children.extend(m.values());
                    }
                }
                "items"
                | "additionalProperties"
                | "not"
                | "if"
                | "then"
                | "else"
                | "contains"
                | "propertyNames" => children.push(v),
                "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                    if let Value::Array(a) = v {
                        children.extend(a.iter());
                    }
                }
                _ => {}
            }
        }
        for c in children.into_iter().rev() {
            stack.push((c, depth + 1));
        }
    }
    None
}

/// OpenAI's 401 without a key (openai-python#1434).
pub fn missing_key() -> Value {
    error(
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
        "invalid_request_error",
        None,
        None,
    )
}

/// OpenAI's 401 for a wrong key (`Incorrect API key provided`, code `invalid_api_key`). The
/// masking of the echoed key is approximate.
pub fn invalid_key(key: &str) -> Value {
    let shown: String = key.chars().take(3).collect();
    error(
        &format!(
            "Incorrect API key provided: {shown}****. You can find your API key at https://platform.openai.com/account/api-keys."
        ),
        "invalid_request_error",
        None,
        Some("invalid_api_key"),
    )
}

/// A successful chat completion stopped at the token limit.
pub fn chat_ok(model: &str) -> Value {
    json!({"id": "chatcmpl-emulated", "object": "chat.completion", "created": 0, "model": model,
           "choices": [{"index": 0, "message": {"role": "assistant", "content": ""}, "finish_reason": "length"}],
           "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
}

/// Bearer credential check with OpenAI's bodies; `None` when the key counts as valid.
pub fn bearer_check(req: &Incoming) -> Option<Reply> {
    match Cred::of(req.bearer()) {
        Cred::Missing => Some(Reply::json(401, &missing_key())),
        Cred::Invalid => Some(Reply::json(401, &invalid_key("invalid"))),
        Cred::Valid => None,
    }
}

/// The Responses API's envelope: the conversation is `input`, tools are flat and only
/// function tools carry a name.
const RESPONSES_LAYOUT: super::envelope::Layout = super::envelope::Layout {
    conversation: "/input",
    tools: "/tools",
    name: "/name",
    is_function: super::envelope::typed_function,
};

/// Chat Completions' envelope as OpenAI itself takes it: a `custom` tool names itself under
/// `custom`, not `function`.
const CHAT_LAYOUT: super::envelope::Layout = super::envelope::Layout {
    is_function: not_chat_custom,
    ..super::envelope::Layout::CHAT
};

fn not_chat_custom(t: &Value) -> bool {
    !is_chat_custom(t)
}

/// The offline model of `api.openai.com`.
pub struct OpenAiService;

impl Service for OpenAiService {
    fn slug(&self) -> &'static str {
        "openai"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(status, &error(message, "invalid_request_error", None, None))
    }
    fn answer(&self, req: &Incoming) -> Reply {
        let responses = match req.path.as_str() {
            "/v1/chat/completions" => false,
            "/v1/responses" | "/v1/responses/input_tokens" => true,
            _ => {
                return Reply::json(
                    404,
                    &error(
                        &format!("Invalid URL ({} {})", req.method, req.path),
                        "invalid_request_error",
                        None,
                        None,
                    ),
                );
            }
        };
        if let Some(r) = bearer_check(req) {
            return r;
        }
        let layout = if responses {
            RESPONSES_LAYOUT
        } else {
            CHAT_LAYOUT
        };
        let body = match super::envelope::parse(&req.body, &layout) {
            Ok(b) => b,
            Err(super::envelope::Refused::Envelope(m)) => {
                return Reply::json(
                    400,
                    &error(&m.message(), "invalid_request_error", m.param(), None),
                );
            }
            Err(super::envelope::Refused::Syntax(_)) => {
                return Reply::json(
                    400,
                    &error(
                        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
                        "invalid_request_error",
                        None,
                        None,
                    ),
                );
            }
        };
        let model = body.get("model").and_then(Value::as_str).unwrap_or("");
        if responses {
            // pi#6265, hindsight#58.
            if req.path == "/v1/responses"
                && let Some(n) = body.get("max_output_tokens").and_then(Value::as_i64)
                && n < 16
            {
                return Reply::json(
                    400,
                    &error(
                        &format!(
                            "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got {n} instead."
                        ),
                        "invalid_request_error",
                        Some("max_output_tokens"),
                        Some("integer_below_min_value"),
                    ),
                );
            }
            let views = responses_views(&body);
            let rules = Rules {
                responses: true,
                ..OPENAI_RULES
            };
            if let Some(e) = check_tools(&views, rules) {
                return Reply::json(400, &tool_error(&e));
            }
            if req.path.ends_with("input_tokens") {
                return Reply::json(
                    200,
                    &json!({"object": "response.input_tokens", "input_tokens": (req.body.len() / 4).max(1)}),
                );
            }
            return Reply::json(
                200,
                &json!({"id": "resp_emulated", "object": "response", "status": "incomplete", "model": model,
                        "incomplete_details": {"reason": "max_output_tokens"}, "output": []}),
            );
        }
        let views = chat_views(&body);
        if let Some(e) = check_tools(&views, OPENAI_RULES) {
            return Reply::json(400, &tool_error(&e));
        }
        Reply::json(200, &chat_ok(model))
    }
}

/// Reads Responses API tools (flat; `strict` defaults to true).
pub fn responses_views(body: &Value) -> Vec<ToolView<'_>> {
    body.get("tools")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|t| ToolView {
                    name: t.get("name"),
                    description: t.get("description"),
                    parameters: t.get("parameters").filter(|p| !p.is_null()),
                    strict: t.get("strict").and_then(Value::as_bool).unwrap_or(true),
                    builtin: is_responses_builtin(t),
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The context read back from a message is the tuple `context` wrote, whatever the
    /// property's name holds (`)` and `, ` used to end it early).
    #[test]
    fn context_in_message_reads_the_tuple_by_its_quotes() {
        for name in [
            "range (km)",
            "x, y",
            "e)f",
            "it's",
            "it's \"x\"",
            "a\\b",
            "größe",
        ] {
            let tuple = context(&["properties".to_string(), name.to_string()]);
            let msg = format!(
                "Invalid schema for function 'b': In context={tuple}, array schema missing items."
            );
            assert_eq!(context_in_message(&msg), Some(tuple), "{name}");
        }
        assert_eq!(context_in_message("In context=('open, x"), None);
    }

    #[test]
    fn strict_depth_counts_objects_through_references() {
        assert_eq!(
            strict_size_problem(&crate::schema::depth::fixtures::chain(9)),
            None
        );
        assert_eq!(
            strict_size_problem(&crate::schema::depth::fixtures::chain(10)).as_deref(),
            Some("In context=(), the schema nests 11 object levels; at most 10 are allowed.")
        );
        // Arrays between objects are no levels of their own.
        let mut s = json!({"type":"string"});
        for _ in 0..10 {
            s = json!({"type":"object","properties":{"a":{"type":"array","items": s}}});
        }
        assert_eq!(strict_size_problem(&s), None);
        // A recursive definition is counted once through its cycle.
        let tree = json!({"type":"object","properties":{"t":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/$defs/N"}}}}}});
        assert_eq!(strict_size_problem(&tree), None);
    }

    #[test]
    fn custom_tools_move_their_fields_between_the_two_shapes_in_place() {
        let format = json!({"type": "text"});
        let chat = json!({"type": "custom", "custom": {"name": "sql", "description": "Runs SQL.", "format": format}});
        let flat =
            json!({"type": "custom", "name": "sql", "description": "Runs SQL.", "format": format});
        assert_eq!(custom_in_shape(&chat, true), Some(Ok(flat.clone())));
        assert_eq!(custom_in_shape(&flat, false), Some(Ok(chat.clone())));
        // Already in the target's shape, or not a custom tool: nothing to convert.
        assert_eq!(custom_in_shape(&chat, false), None);
        assert_eq!(custom_in_shape(&flat, true), None);
        assert_eq!(custom_in_shape(&json!({"type": "web_search"}), false), None);
        // A field beside `custom` stays as written, where it was.
        let beside =
            json!({"type": "custom", "description": "Runs SQL.", "custom": {"name": "sql"}});
        let Some(Ok(v)) = custom_in_shape(&beside, true) else {
            panic!("converted")
        };
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["type", "description", "name"]);
        // A field the other shape has no place for is named.
        let extra = json!({"type": "custom", "custom": {"name": "sql", "grammar": "x"}});
        assert!(matches!(custom_in_shape(&extra, true), Some(Err(e)) if e.contains("`grammar`")));
    }

    #[test]
    fn custom_grammar_formats_are_converted_between_the_two_shapes() {
        // The shapes of openai-python's generated types (see `custom_format_in_shape`).
        let nested = json!({"type": "grammar", "grammar": {"definition": "start: /SELECT [^;]+/", "syntax": "lark"}});
        let flat =
            json!({"type": "grammar", "definition": "start: /SELECT [^;]+/", "syntax": "lark"});
        assert_eq!(custom_format_in_shape(&nested, true), Ok(flat.clone()));
        assert_eq!(custom_format_in_shape(&flat, false), Ok(nested.clone()));
        // Already in the target's shape, text, or another type: as written.
        assert_eq!(custom_format_in_shape(&nested, false), Ok(nested.clone()));
        assert_eq!(custom_format_in_shape(&flat, true), Ok(flat.clone()));
        let text = json!({"type": "text"});
        assert_eq!(custom_format_in_shape(&text, true), Ok(text.clone()));
        assert_eq!(custom_format_in_shape(&text, false), Ok(text.clone()));
        // A regex grammar, written with `syntax` first: the order is kept.
        let regex_flat = json!({"type": "grammar", "syntax": "regex", "definition": "^\\d+$"});
        let Ok(regex_nested) = custom_format_in_shape(&regex_flat, false) else {
            panic!("converted")
        };
        assert_eq!(
            regex_nested,
            json!({"type": "grammar", "grammar": {"syntax": "regex", "definition": "^\\d+$"}})
        );
        let keys: Vec<&str> = regex_nested["grammar"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["syntax", "definition"]);
        // Fields the other shape has no place for are named.
        let extra = json!({"type": "grammar", "grammar": {"definition": "x", "syntax": "lark", "flags": "i"}});
        assert!(matches!(custom_format_in_shape(&extra, true), Err(e) if e.contains("`flags`")));
        let beside = json!({"type": "grammar", "syntax": "lark", "grammar": {"definition": "x", "syntax": "lark"}});
        assert!(
            matches!(custom_format_in_shape(&beside, true), Err(e) if e.contains("both inside"))
        );
        let stray = json!({"type": "grammar", "definition": "x", "syntax": "lark", "flags": "i"});
        assert!(matches!(custom_format_in_shape(&stray, false), Err(e) if e.contains("`flags`")));
        let not_object = json!({"type": "grammar", "grammar": "start: x"});
        assert!(custom_format_in_shape(&not_object, true).is_err());

        // The whole tool, both ways, format included.
        let chat = json!({"type": "custom", "custom": {"name": "sql", "description": "Runs SQL.", "format": nested}});
        let responses =
            json!({"type": "custom", "name": "sql", "description": "Runs SQL.", "format": flat});
        assert_eq!(custom_in_shape(&chat, true), Some(Ok(responses.clone())));
        assert_eq!(custom_in_shape(&responses, false), Some(Ok(chat)));
        let bad = json!({"type": "custom", "name": "sql", "format": stray});
        assert!(matches!(custom_in_shape(&bad, false), Some(Err(e)) if e.contains("`flags`")));
    }

    /// The strict baseline as a copy edited in place: the reference [`Closed`] must match.
    fn close_in_place(v: &mut Value, feature: Option<&str>, depth: usize) {
        if depth > MAX_CLOSE_DEPTH {
            return;
        }
        match v {
            Value::Object(o) => {
                let is_object = o.get("type").and_then(Value::as_str) == Some("object")
                    || o.get("properties").is_some_and(Value::is_object);
                let strict_case = |v: &str| feature == Some(format!("structure: {v}").as_str());
                if is_object {
                    if !o.contains_key("additionalProperties")
                        && !touches(feature, "additionalProperties")
                        && !strict_case("strict-open-object")
                    {
                        o.insert("additionalProperties".into(), json!(false));
                    }
                    if !touches(feature, "required")
                        && !strict_case("strict-required-incomplete")
                        && let Some(Value::Object(props)) = o.get("properties")
                    {
                        let names: Vec<String> = props.keys().cloned().collect();
                        match o.get_mut("required") {
                            Some(Value::Array(req)) => {
                                for n in names {
                                    if !req.iter().any(|r| r.as_str() == Some(n.as_str())) {
                                        req.push(json!(n));
                                    }
                                }
                            }
                            None => {
                                o.insert("required".into(), json!(names));
                            }
                            Some(_) => {}
                        }
                    }
                }
                for (k, child) in o.iter_mut() {
                    if !DATA_MEMBERS.contains(&k.as_str()) {
                        close_in_place(child, feature, depth + 1);
                    }
                }
            }
            Value::Array(a) => {
                for child in a {
                    close_in_place(child, feature, depth + 1);
                }
            }
            _ => {}
        }
    }

    fn closed_bytes(v: &Value, feature: Option<&str>) -> (Vec<u8>, Vec<u8>) {
        let mut copy = v.clone();
        close_in_place(&mut copy, feature, 0);
        let mut streamed = Vec::new();
        Closed::new(v, Close::for_feature(feature)).write(&mut streamed);
        (streamed, serde_json::to_vec(&copy).unwrap())
    }

    #[test]
    fn the_closed_schema_is_the_edited_copy_byte_for_byte() {
        let mut deep = json!({"type": "object", "properties": {}});
        for _ in 0..140 {
            deep = json!({"type": "object", "properties": {"n": deep}});
        }
        let schemas = [
            json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"object","properties":{"c":{}}}},"required":["b"]}),
            json!({"properties":{"a":{}},"required":"a","additionalProperties":true}),
            json!({"type":"object","properties":{"a":{}},"required":[{"type":"object","properties":{"x":{}}},"a"]}),
            json!({"type":"object","properties":{"e":{"enum":[{"type":"object","properties":{"z":{}}}]},"d":{"default":{"properties":{}}}}}),
            json!({"anyOf":[{"type":"object","properties":{"p":{}}},{"type":"null"}],"$defs":{"o":{"type":"object"}}}),
            json!({"type":"object","properties":[1,2]}),
            deep,
        ];
        for schema in &schemas {
            for feature in [
                None,
                Some("structure: required-empty"),
                Some("keyword-allowed: additionalProperties (false)"),
                Some("structure: property-named-required"),
            ] {
                let (streamed, copy) = closed_bytes(schema, feature);
                assert_eq!(
                    String::from_utf8(streamed).unwrap(),
                    String::from_utf8(copy).unwrap(),
                    "{feature:?}"
                );
            }
        }
    }

    #[test]
    fn strict_request_bodies_match_the_edited_copies_for_the_whole_catalog() {
        let catalog = crate::case::Catalog::load(std::path::Path::new("cases")).unwrap();
        let env = std::collections::BTreeMap::new();
        let strict = [
            ("openai/chat-strict", None),
            ("openai/responses-strict", None),
            ("openai/chat", Some(true)),
            ("deepseek/beta-strict", None),
            ("azure-openai/chat", Some(true)),
        ];
        let mut compared = 0;
        for (id, strict_opt) in strict {
            let Some(route) = crate::target::route(id) else {
                continue;
            };
            let cfg = route.configure(&env);
            for case in &catalog.cases {
                let opts = WireOptions {
                    strict: strict_opt,
                    feature: Some(case.parameter.clone()),
                    raw: false,
                };
                let streamed = route.request(&cfg, &case.tools, &opts);
                let mut copies = case.tools.clone();
                for t in &mut copies {
                    if let Some(p) = &mut t.parameters {
                        close_in_place(p, Some(&case.parameter), 0);
                    }
                }
                let raw = WireOptions { raw: true, ..opts };
                let copied = route.request(&cfg, &copies, &raw);
                assert!(streamed.body == copied.body, "{id} {}", case.id);
                compared += 1;
            }
        }
        assert_eq!(
            compared,
            5 * catalog.cases.len(),
            "every strict route was found"
        );
    }

    fn problem(s: Value, strict: bool) -> Option<String> {
        schema_problem(&s, strict, false)
    }

    /// Each schema whose non-strict [`problem`] is not the one wanted, with both.
    fn non_strict_mismatches(cases: &[(Value, Option<&str>)]) -> Vec<String> {
        cases
            .iter()
            .filter_map(|(schema, want)| {
                let got = problem(schema.clone(), false);
                (got.as_deref() != *want).then(|| format!("{schema}: {got:?}, not {want:?}"))
            })
            .collect()
    }

    #[test]
    fn templates_from_the_reports() {
        assert_eq!(
            problem(
                json!({"type":"object","properties":{"objects":{"type":"array"}}}),
                false
            )
            .as_deref(),
            Some("In context=('properties', 'objects'), array schema missing items.")
        );
        assert_eq!(
            problem(json!({"type":"object","properties":{"arguments":{"type":"array","items":{"type":["array","string"]}}}}), false).as_deref(),
            Some("In context=('properties', 'arguments', 'items', 'type', '0'), array schema missing items.")
        );
        assert_eq!(
            problem(json!({"type":"object"}), false).as_deref(),
            Some("In context=(), object schema missing properties.")
        );
        assert_eq!(
            problem(json!({"type":"object","title":"t"}), true).as_deref(),
            Some(
                "In context=(), 'additionalProperties' is required to be supplied and to be false."
            )
        );
        assert_eq!(
            problem(json!({"type":"object","properties":{"command":{"type":"string"},"workdir":{"type":"string"}},"required":["command"],"additionalProperties":false}), true).as_deref(),
            Some("In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'workdir'.")
        );
        assert_eq!(
            problem(json!({"type":"object","properties":{"url":{"type":["string","null"],"format":"uri"}},"required":["url"],"additionalProperties":false}), true).as_deref(),
            Some("In context=('properties', 'url', 'type', '0'), 'uri' is not a valid format.")
        );
        assert_eq!(
            problem(json!({"anyOf":[{"type":"object"}]}), false).as_deref(),
            Some("schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'.")
        );
        assert_eq!(
            problem(
                json!({"type":"object","properties":{"c":{"type":"string"}},"required":null}),
                false
            )
            .as_deref(),
            Some("None is not of type 'array'.")
        );
        assert_eq!(
            problem(
                json!({"$id":"Parameters Schema","type":"object","properties":{}}),
                false
            )
            .as_deref(),
            Some("'Parameters Schema' is not a 'uri-reference'.")
        );
        assert_eq!(
            problem(
                json!({"type":"object","properties":{"v":{"type":"array","items":[]}}}),
                false
            )
            .as_deref(),
            Some("[] is not of type 'object', 'boolean'.")
        );
        // Non-strict Chat lets oneOf through; strict does not.
        let one_of = json!({"type":"object","properties":{"r":{"oneOf":[{"type":"string"}]}},"required":["r"],"additionalProperties":false});
        assert_eq!(problem(one_of.clone(), false), None);
        assert_eq!(
            problem(one_of, true).as_deref(),
            Some("In context=('properties', 'r'), 'oneOf' is not permitted.")
        );
    }

    /// The meta-schema pass refuses what the draft 2020-12 meta-schema refuses for
    /// `required` (meta/validation `stringArray`: `uniqueItems: true`), `$anchor` and
    /// `$dynamicAnchor` (meta/core `anchorString`'s pattern) and `prefixItems` (meta/applicator
    /// `schemaArray`: `minItems: 1`), in python-jsonschema's words; before, the model accepted
    /// all three (trial: `required: ["a","a"]`, `$anchor: "1a"`, `prefixItems: []`). The
    /// messages are python-jsonschema's templates (`uniqueItems`, `pattern`, `minItems` of 1),
    /// not seen from OpenAI.
    #[test]
    fn the_meta_schema_pass_judges_unique_required_anchors_and_prefix_items() {
        let nested = |kw: &str, v: Value| json!({"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},kw:v}}});
        let cases = [
            (
                json!({"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"]}),
                Some("['a', 'a'] has non-unique elements."),
            ),
            (
                json!({"type":"object","properties":{"a":{"type":"string"}},"required":["a",1,"a"]}),
                Some("1 is not of type 'string'."),
            ),
            (
                json!({"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}),
                None,
            ),
            (
                nested("$anchor", json!("1a")),
                Some("'1a' does not match '^[A-Za-z_][-A-Za-z0-9._]*$'."),
            ),
            (
                nested("$dynamicAnchor", json!("a b")),
                Some("'a b' does not match '^[A-Za-z_][-A-Za-z0-9._]*$'."),
            ),
            (
                nested("$anchor", json!("é")),
                Some("'é' does not match '^[A-Za-z_][-A-Za-z0-9._]*$'."),
            ),
            (
                nested("$anchor", json!(5)),
                Some("5 is not of type 'string'."),
            ),
            (nested("$anchor", json!("_a-1.b")), None),
            (
                nested("prefixItems", json!([])),
                Some("[] should be non-empty."),
            ),
            (
                nested("prefixItems", json!({})),
                Some("{} is not of type 'array'."),
            ),
            (nested("prefixItems", json!([{"type":"string"}])), None),
            // Its members are schemas, judged as any other.
            (
                nested("prefixItems", json!([{"required":["x","x"]}])),
                Some("['x', 'x'] has non-unique elements."),
            ),
        ];
        let wrong = non_strict_mismatches(&cases);
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    /// `dependentRequired` (meta/validation: an object whose every value is a `stringArray`)
    /// was not judged: `{"p": [5]}`, `{"p": ["q","q"]}` and `["p"]` passed the model. The
    /// messages are python-jsonschema's templates (`type`, `uniqueItems`), not seen from OpenAI.
    #[test]
    fn the_meta_schema_pass_judges_dependent_required_values() {
        let with = |v: Value| {
            json!({"type":"object","properties":{"p":{"type":"string"},"q":{"type":"string"}},
                "dependentRequired": v})
        };
        let cases = [
            (with(json!({"p": [5]})), Some("5 is not of type 'string'.")),
            (
                with(json!({"p": ["q", "q"]})),
                Some("['q', 'q'] has non-unique elements."),
            ),
            (with(json!({"p": "q"})), Some("'q' is not of type 'array'.")),
            (with(json!(["p"])), Some("['p'] is not of type 'object'.")),
            (with(json!({"p": ["q"], "q": []})), None),
            (with(json!({})), None),
            // Nested, as any keyword of a subschema.
            (
                json!({"type":"object","properties":{"o":{"type":"object",
                    "dependentRequired":{"a":["b","b"]}}}}),
                Some("['b', 'b'] has non-unique elements."),
            ),
        ];
        let wrong = non_strict_mismatches(&cases);
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    /// JSON Schema 2020-12 §4.3.2: `true` is the schema `{}` and `false` the schema
    /// `{"not": {}}`. Where strict mode wants a `type` key it refuses both spellings at the
    /// same place; before, the booleans passed (trial 60 D1).
    #[test]
    fn strict_refuses_a_boolean_subschema_as_the_object_it_stands_for() {
        let close = |props: Value| json!({"type":"object","properties":props,"required":["p"],"additionalProperties":false});
        // The place, as the model's context says it, and a schema with `s` there.
        type Place = fn(Value) -> Value;
        let places: [(&str, Place); 4] = [
            ("('properties', 'p')", |s| json!({"p": s})),
            (
                "('properties', 'p', 'items')",
                |s| json!({"p": {"type":"array","items":s}}),
            ),
            (
                "('properties', 'p', 'anyOf', '0')",
                |s| json!({"p": {"anyOf":[s,{"type":"null"}]}}),
            ),
            (
                "('properties', 'p', 'additionalProperties')",
                |s| json!({"p": {"type":"string","additionalProperties":s}}),
            ),
        ];
        for (ctx, at) in places {
            let prefix = format!("In context={ctx}, schema must have a 'type' key");
            let said = |s: Value, strict: bool| problem(close(at(s)), strict);
            assert_eq!(said(json!({}), true), Some(format!("{prefix}.")));
            assert_eq!(
                said(json!(true), true),
                Some(format!(
                    "{prefix} (the boolean schema `true`, the same schema as `{{}}`, has none)."
                ))
            );
            assert_eq!(said(json!(true), false), None, "{ctx}");
            if ctx.ends_with("'additionalProperties')") {
                // Strict mode wants `additionalProperties: false` itself.
                assert_eq!(said(json!(false), true), None);
                continue;
            }
            assert_eq!(said(json!({"not": {}}), true), Some(format!("{prefix}.")));
            assert_eq!(
                said(json!(false), true),
                Some(format!(
                    "{prefix} (the boolean schema `false`, the same schema as `{{\"not\": {{}}}}`, has none)."
                ))
            );
            assert_eq!(said(json!(false), false), None, "{ctx}");
        }
        let defs = json!({"type":"object","properties":{},"additionalProperties":false,"$defs":{"d":true}});
        assert_eq!(
            problem(defs, true).as_deref(),
            Some(
                "In context=('$defs', 'd'), schema must have a 'type' key (the boolean schema `true`, the same schema as `{}`, has none)."
            )
        );
    }

    #[test]
    fn strict_baseline_only_fills_absent_keywords() {
        let t = vec![ToolDef {
            name: "f".into(),
            description: None,
            parameters: Some(
                json!({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}},"additionalProperties":true}}}),
            ),
        }];
        let out = strict_baseline(&t, None);
        assert_eq!(
            out[0].parameters,
            Some(
                json!({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}},"additionalProperties":true,"required":["b"]}},"additionalProperties":false,"required":["a"]})
            )
        );
        let keep = strict_baseline(&t, Some("structure: required-empty"));
        assert!(
            keep[0]
                .parameters
                .as_ref()
                .unwrap()
                .get("required")
                .is_none()
        );
    }

    #[test]
    fn names_and_descriptions() {
        let params = json!({"type":"object","properties":{}});
        let long = json!("x".repeat(1103));
        let views = [ToolView {
            name: Some(&json!("list_issues")),
            description: Some(&long),
            parameters: Some(&params),
            strict: false,
            builtin: false,
        }];
        let e = check_tools(&views, OPENAI_RULES).unwrap();
        assert_eq!(
            e.message,
            "Invalid 'tools[0].function.description': string too long. Expected a string with maximum length 1024, but got a string with length 1103 instead."
        );
        let bad = json!("get_/whoami");
        let views = [ToolView {
            name: Some(&bad),
            description: None,
            parameters: None,
            strict: false,
            builtin: false,
        }];
        let e = check_tools(&views, OPENAI_RULES).unwrap();
        assert_eq!(
            e.message,
            "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'."
        );
        // A dotted name is refused too: the documented rule has no dot.
        let dotted = json!("math.sum");
        let views = [ToolView {
            name: Some(&dotted),
            description: None,
            parameters: None,
            strict: false,
            builtin: false,
        }];
        let e = check_tools(&views, OPENAI_RULES).unwrap();
        assert_eq!(e.param.as_deref(), Some("tools[0].function.name"));
    }
}
