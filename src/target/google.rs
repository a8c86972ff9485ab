//! Google's front end, shared by the Gemini Developer API, Vertex AI and Gemini's
//! OpenAI-compatible endpoint: the JSON-to-proto transcoder (parse stage), the semantic
//! validator that runs after it, the error envelopes, and how answers are read.
//!
//! Sources (PROVIDERS.md §1–§4 and reports.yaml):
//! - parse stage: ESF transcoding. Errors are HTTP 400 `INVALID_ARGUMENT`, one line per problem
//!   joined with `\n`, and `details[BadRequest.fieldViolations{field, description}]`. Paths use
//!   proto snake_case names; map fields are indexed by position (`properties[3].value`);
//!   templates T1–T10 (zed#59938, litellm#6453, LibreChat#11761, new-api#766, 9router#1081,
//!   and the T8 form `Invalid value at 'PATH' (field), Starting an object on a scalar field`
//!   seen on other Google APIs).
//! - the 403 for callers without a key (PublicAffairs/openai-gemini#92) comes from Service
//!   Control, after transcoding: so a body that does not parse is refused at parse even
//!   without a key.
//! - semantic errors: HTTP 400, message `* GenerateContentRequest.<path>: <text>\n` per
//!   problem, property *keys* in brackets, and no `details` (mcp-obsidian#21,
//!   AIStudioToAPI#154, gemini-cli and opencode reports in reports.yaml).
//! - Vertex words the same rules differently: `Unable to submit request because …`
//!   (litellm, gemini-cli, vercel/ai reports in reports.yaml).
//!
//! Unknown, and modelled as stated: whether a present-but-invalid key is checked before the
//! transcoder (modelled: after); what the transcoder says about a scalar given for a
//! repeated field (modelled: accepted as one element) or a list given for a map (modelled as
//! T3); whether lower-case `type` values are enum-matched case-insensitively (modelled: yes,
//! "lower-case values work in practice").

use serde_json::{Map, Value, json};

use crate::evidence::Stage;

use super::wire::{Classified, Cred, Reply, Retry, classify_common, parse_json};

/// Which Google API's descriptors and wording apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// `generativelanguage.googleapis.com` v1beta.
    DevApi,
    /// `aiplatform.googleapis.com` v1.
    Vertex,
}

impl Api {
    fn package(self) -> &'static str {
        match self {
            Api::DevApi => "google.ai.generativelanguage.v1beta",
            Api::Vertex => "google.cloud.aiplatform.v1",
        }
    }
}

/// Proto messages the transcoder knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Msg {
    /// Developer API `CountTokensRequest`: `contents` or `generateContentRequest`.
    CountTokensRequest,
    /// Vertex `CountTokensRequest`: tools at the top level.
    VertexCountTokensRequest,
    GenerateContentRequest,
    Content,
    Part,
    Blob,
    FileData,
    FunctionCall,
    FunctionResponse,
    Tool,
    FunctionDeclaration,
    Schema,
    ToolConfig,
    FunctionCallingConfig,
    GenerationConfig,
    ThinkingConfig,
    SafetySetting,
    /// The OpenAI-compatible chat request as Google's front end parses it.
    ChatRequest,
    ChatTool,
    ChatFunction,
}

impl Msg {
    fn name(self) -> &'static str {
        match self {
            Msg::CountTokensRequest | Msg::VertexCountTokensRequest => "CountTokensRequest",
            Msg::GenerateContentRequest => "GenerateContentRequest",
            Msg::Content => "Content",
            Msg::Part => "Part",
            Msg::Blob => "Blob",
            Msg::FileData => "FileData",
            Msg::FunctionCall => "FunctionCall",
            Msg::FunctionResponse => "FunctionResponse",
            Msg::Tool => "Tool",
            Msg::FunctionDeclaration => "FunctionDeclaration",
            Msg::Schema => "Schema",
            Msg::ToolConfig => "ToolConfig",
            Msg::FunctionCallingConfig => "FunctionCallingConfig",
            Msg::GenerationConfig => "GenerationConfig",
            Msg::ThinkingConfig => "ThinkingConfig",
            Msg::SafetySetting => "SafetySetting",
            Msg::ChatRequest => "ChatCompletionRequest",
            Msg::ChatTool => "ChatCompletionTool",
            Msg::ChatFunction => "FunctionObject",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Msg(Msg),
    /// The `Type` enum of `Schema.type` (the only enum checked; others are read as strings).
    TypeEnum,
    Str,
    Bool,
    Int,
    Double,
    /// `google.protobuf.Value`: any JSON.
    Value,
    /// `google.protobuf.Struct`: a JSON object.
    Struct,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Card {
    One,
    Repeated,
    Map,
}

#[derive(Debug, Clone, Copy)]
struct F {
    proto: &'static str,
    json: &'static str,
    kind: Kind,
    card: Card,
}

const fn f(proto: &'static str, json: &'static str, kind: Kind, card: Card) -> F {
    F {
        proto,
        json,
        kind,
        card,
    }
}

use Card::{Map as M_, One, Repeated as R};
use Kind::{Bool, Double, Int, Str, Struct, TypeEnum, Value as V};

/// `google.ai.generativelanguage.v1beta.Schema` as ENGINES.md §2.5 lists it (22 fields; the
/// js-genai Schema interface and docs-v1beta-default-added-to-avoid-unknown-field agree).
const SCHEMA: &[F] = &[
    f("type", "type", TypeEnum, One),
    f("format", "format", Str, One),
    f("title", "title", Str, One),
    f("description", "description", Str, One),
    f("nullable", "nullable", Bool, One),
    f("enum", "enum", Str, R),
    f("items", "items", Kind::Msg(Msg::Schema), One),
    f("max_items", "maxItems", Int, One),
    f("min_items", "minItems", Int, One),
    f("properties", "properties", Kind::Msg(Msg::Schema), M_),
    f("required", "required", Str, R),
    f("min_properties", "minProperties", Int, One),
    f("max_properties", "maxProperties", Int, One),
    f("minimum", "minimum", Double, One),
    f("maximum", "maximum", Double, One),
    f("min_length", "minLength", Int, One),
    f("max_length", "maxLength", Int, One),
    f("pattern", "pattern", Str, One),
    f("example", "example", V, One),
    f("any_of", "anyOf", Kind::Msg(Msg::Schema), R),
    f("property_ordering", "propertyOrdering", Str, R),
    f("default", "default", V, One),
];

/// Vertex v1 `Schema` adds these (google-cloud-vertexai v1 Schema fields #26–#28; reports.yaml
/// docs-vertex-v1-schema-has-additionalProperties-ref-defs): `ref` is spelled without `$`.
const VERTEX_SCHEMA_EXTRA: &[F] = &[
    f("additional_properties", "additionalProperties", V, One),
    f("ref", "ref", Str, One),
    f("defs", "defs", Kind::Msg(Msg::Schema), M_),
];

fn fields(m: Msg, api: Api) -> Vec<F> {
    use Msg::*;
    let k = Kind::Msg;
    match m {
        CountTokensRequest => vec![
            f("model", "model", Str, One),
            f("contents", "contents", k(Content), R),
            f(
                "generate_content_request",
                "generateContentRequest",
                k(GenerateContentRequest),
                One,
            ),
        ],
        VertexCountTokensRequest => vec![
            f("endpoint", "endpoint", Str, One),
            f("model", "model", Str, One),
            f("instances", "instances", V, R),
            f("contents", "contents", k(Content), R),
            f("system_instruction", "systemInstruction", k(Content), One),
            f("tools", "tools", k(Tool), R),
            f(
                "generation_config",
                "generationConfig",
                k(GenerationConfig),
                One,
            ),
        ],
        GenerateContentRequest => vec![
            f("model", "model", Str, One),
            f("system_instruction", "systemInstruction", k(Content), One),
            f("contents", "contents", k(Content), R),
            f("tools", "tools", k(Tool), R),
            f("tool_config", "toolConfig", k(ToolConfig), One),
            f("safety_settings", "safetySettings", k(SafetySetting), R),
            f(
                "generation_config",
                "generationConfig",
                k(GenerationConfig),
                One,
            ),
            f("cached_content", "cachedContent", Str, One),
            f("labels", "labels", Str, M_),
        ],
        Content => vec![f("role", "role", Str, One), f("parts", "parts", k(Part), R)],
        Part => vec![
            f("text", "text", Str, One),
            f("inline_data", "inlineData", k(Blob), One),
            f("file_data", "fileData", k(FileData), One),
            f("function_call", "functionCall", k(FunctionCall), One),
            f(
                "function_response",
                "functionResponse",
                k(FunctionResponse),
                One,
            ),
            f("thought", "thought", Bool, One),
            f("thought_signature", "thoughtSignature", Str, One),
            f("executable_code", "executableCode", Struct, One),
            f("code_execution_result", "codeExecutionResult", Struct, One),
            f("video_metadata", "videoMetadata", Struct, One),
        ],
        Blob => vec![
            f("mime_type", "mimeType", Str, One),
            f("data", "data", Str, One),
        ],
        FileData => vec![
            f("mime_type", "mimeType", Str, One),
            f("file_uri", "fileUri", Str, One),
        ],
        FunctionCall => vec![
            f("id", "id", Str, One),
            f("name", "name", Str, One),
            f("args", "args", Struct, One),
        ],
        FunctionResponse => vec![
            f("id", "id", Str, One),
            f("name", "name", Str, One),
            f("response", "response", Struct, One),
        ],
        Tool => vec![
            f(
                "function_declarations",
                "functionDeclarations",
                k(FunctionDeclaration),
                R,
            ),
            f(
                "google_search_retrieval",
                "googleSearchRetrieval",
                Struct,
                One,
            ),
            f("code_execution", "codeExecution", Struct, One),
            f("google_search", "googleSearch", Struct, One),
            f("url_context", "urlContext", Struct, One),
            f("computer_use", "computerUse", Struct, One),
            f("file_search", "fileSearch", Struct, One),
            f("google_maps", "googleMaps", Struct, One),
        ],
        FunctionDeclaration => vec![
            f("name", "name", Str, One),
            f("description", "description", Str, One),
            f("behavior", "behavior", Str, One),
            f("parameters", "parameters", k(Schema), One),
            f("parameters_json_schema", "parametersJsonSchema", V, One),
            f("response", "response", k(Schema), One),
            f("response_json_schema", "responseJsonSchema", V, One),
        ],
        Schema => {
            let mut v = SCHEMA.to_vec();
            if api == Api::Vertex {
                v.extend_from_slice(VERTEX_SCHEMA_EXTRA);
            }
            v
        }
        ToolConfig => vec![f(
            "function_calling_config",
            "functionCallingConfig",
            k(FunctionCallingConfig),
            One,
        )],
        FunctionCallingConfig => vec![
            f("mode", "mode", Str, One),
            f("allowed_function_names", "allowedFunctionNames", Str, R),
        ],
        GenerationConfig => vec![
            f("stop_sequences", "stopSequences", Str, R),
            f("response_mime_type", "responseMimeType", Str, One),
            f("response_schema", "responseSchema", k(Schema), One),
            f("response_json_schema", "responseJsonSchema", V, One),
            f("response_modalities", "responseModalities", Str, R),
            f("candidate_count", "candidateCount", Int, One),
            f("max_output_tokens", "maxOutputTokens", Int, One),
            f("temperature", "temperature", Double, One),
            f("top_p", "topP", Double, One),
            f("top_k", "topK", Int, One),
            f("seed", "seed", Int, One),
            f("presence_penalty", "presencePenalty", Double, One),
            f("frequency_penalty", "frequencyPenalty", Double, One),
            f("response_logprobs", "responseLogprobs", Bool, One),
            f("logprobs", "logprobs", Int, One),
            f("speech_config", "speechConfig", Struct, One),
            f("thinking_config", "thinkingConfig", k(ThinkingConfig), One),
            f("media_resolution", "mediaResolution", Str, One),
        ],
        ThinkingConfig => vec![
            f("include_thoughts", "includeThoughts", Bool, One),
            f("thinking_budget", "thinkingBudget", Int, One),
            f("thinking_level", "thinkingLevel", Str, One),
        ],
        SafetySetting => vec![
            f("category", "category", Str, One),
            f("threshold", "threshold", Str, One),
        ],
        // The compat envelope: unknown root names are refused (T2: deer-flow#1515, magentic#382:
        // `thinking`, `reasoning`); `function.parameters` is free JSON (PROVIDERS.md §4).
        ChatRequest => vec![
            f("model", "model", Str, One),
            f("messages", "messages", V, R),
            f("tools", "tools", k(ChatTool), R),
            f("tool_choice", "tool_choice", V, One),
            f("max_tokens", "max_tokens", Int, One),
            f("max_completion_tokens", "max_completion_tokens", Int, One),
            f("temperature", "temperature", Double, One),
            f("top_p", "top_p", Double, One),
            f("n", "n", Int, One),
            f("stream", "stream", Bool, One),
            f("stream_options", "stream_options", Struct, One),
            f("stop", "stop", V, One),
            f("response_format", "response_format", Struct, One),
            f("seed", "seed", Int, One),
            f("reasoning_effort", "reasoning_effort", Str, One),
            f("parallel_tool_calls", "parallel_tool_calls", Bool, One),
            f("extra_body", "extra_body", Struct, One),
            f("user", "user", Str, One),
        ],
        ChatTool => vec![
            f("type", "type", Str, One),
            f("function", "function", k(ChatFunction), One),
        ],
        ChatFunction => vec![
            f("name", "name", Str, One),
            f("description", "description", Str, One),
            f("parameters", "parameters", V, One),
            f("strict", "strict", Bool, One),
        ],
    }
}

/// One transcoder problem: the `fieldViolations` entry and its line of `error.message`.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// `None` for an unknown name at the root (T2).
    pub field: Option<String>,
    pub description: String,
}

/// The transcoder stops collecting after this many problems.
const MAX_VIOLATIONS: usize = 100;

/// Runs the JSON-to-proto transcoder over a parsed body: every problem, in document order.
pub fn transcode(body: &Value, root: Msg, api: Api) -> Vec<Violation> {
    let mut out = Vec::new();
    match body {
        Value::Object(obj) => walk_message(obj, root, api, "", &mut out),
        // T9 (google-wallet/rest-samples#22).
        _ => out.push(Violation {
            field: None,
            description:
                "Invalid JSON payload received. Unknown name \"\": Root element must be a message."
                    .into(),
        }),
    }
    out
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// The value as ESF prints it after `, ` in `Invalid value` lines: JSON text.
fn shown(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn walk_message(obj: &Map<String, Value>, m: Msg, api: Api, path: &str, out: &mut Vec<Violation>) {
    let fs = fields(m, api);
    for (key, value) in obj {
        if out.len() >= MAX_VIOLATIONS {
            return;
        }
        let Some(field) = fs.iter().find(|f| f.json == key || f.proto == key) else {
            // T1, or T2 at the root (no `at`, no fieldViolation field).
            if path.is_empty() {
                out.push(Violation {
                    field: None,
                    description: format!(
                        "Invalid JSON payload received. Unknown name \"{key}\": Cannot find field."
                    ),
                });
            } else {
                out.push(Violation {
                    field: Some(path.to_string()),
                    description: format!(
                        "Invalid JSON payload received. Unknown name \"{key}\" at '{path}': Cannot find field."
                    ),
                });
            }
            continue;
        };
        if value.is_null() {
            // proto3 JSON: null means "not set".
            continue;
        }
        let fpath = join(path, field.proto);
        match field.card {
            Card::Map => match value {
                Value::Object(entries) => {
                    for (i, (_, v)) in entries.iter().enumerate() {
                        let epath = format!("{fpath}[{i}].value");
                        check_element(v, field, api, &epath, &format!("{fpath}[{i}]"), out);
                    }
                }
                Value::Array(_) => out.push(not_repeating(key, path)),
                other => out.push(Violation {
                    field: Some(fpath.clone()),
                    description: format!(
                        "Invalid value at '{fpath}' (type.googleapis.com/{}.{}.{}Entry), {}",
                        api.package(),
                        m.name(),
                        camel_upper(field.proto),
                        shown(other)
                    ),
                }),
            },
            Card::Repeated => match value {
                Value::Array(items) => {
                    for (i, v) in items.iter().enumerate() {
                        let epath = format!("{fpath}[{i}]");
                        if v.is_array() {
                            out.push(Violation {
                                field: Some(epath.clone()),
                                description: format!(
                                    "Invalid value at '{epath}' ({}), {}",
                                    kind_name(field.kind, api),
                                    shown(v)
                                ),
                            });
                            continue;
                        }
                        check_element(v, field, api, &epath, path, out);
                    }
                }
                // A single value where a list is expected: accepted as one element (unknown;
                // see the module docs).
                other => check_element(other, field, api, &fpath, path, out),
            },
            Card::One => match value {
                // T3 (zed#53919, notion-mcp-server#29): a list for a singular field.
                Value::Array(_) if field.kind != Kind::Value => out.push(not_repeating(key, path)),
                v => check_element(v, field, api, &fpath, path, out),
            },
        }
    }
}

fn not_repeating(key: &str, path: &str) -> Violation {
    if path.is_empty() {
        Violation {
            field: None,
            description: format!(
                "Invalid JSON payload received. Unknown name \"{key}\": Proto field is not repeating, cannot start list."
            ),
        }
    } else {
        Violation {
            field: Some(path.to_string()),
            description: format!(
                "Invalid JSON payload received. Unknown name \"{key}\" at '{path}': Proto field is not repeating, cannot start list."
            ),
        }
    }
}

fn camel_upper(proto: &str) -> String {
    proto
        .split('_')
        .map(|p| {
            let mut c = p.chars();
            match c.next() {
                Some(first) => first.to_uppercase().chain(c).collect(),
                None => String::new(),
            }
        })
        .collect()
}

fn kind_name(kind: Kind, api: Api) -> String {
    match kind {
        Kind::Msg(m) => format!("type.googleapis.com/{}.{}", api.package(), m.name()),
        Kind::TypeEnum => format!("type.googleapis.com/{}.Type", api.package()),
        Kind::Str => "TYPE_STRING".into(),
        Kind::Bool => "TYPE_BOOL".into(),
        Kind::Int => "TYPE_INT64".into(),
        Kind::Double => "TYPE_DOUBLE".into(),
        Kind::Value => "type.googleapis.com/google.protobuf.Value".into(),
        Kind::Struct => "type.googleapis.com/google.protobuf.Struct".into(),
    }
}

/// The `Type` enum values (ENGINES.md §2.5). `NULL` was refused on the wire in older reports
/// (new-api#766, agno#3298) but parses in 2026: pizzabot-exclusiveMinimum-anyof (2026-09) and
/// mcp-excel-predicate-large-surface (2026-06) sent `{"type":"null"}` and were refused for
/// other fields only, while all problems are reported together.
const TYPE_VALUES: &[&str] = &[
    "TYPE_UNSPECIFIED",
    "STRING",
    "NUMBER",
    "INTEGER",
    "BOOLEAN",
    "ARRAY",
    "OBJECT",
    "NULL",
];

/// Checks one value of a field. `fpath` is the value's own path; `parent` the containing
/// message's path (T8 names the parent and the field).
fn check_element(
    v: &Value,
    field: &F,
    api: Api,
    fpath: &str,
    parent: &str,
    out: &mut Vec<Violation>,
) {
    let invalid = |out: &mut Vec<Violation>| {
        out.push(Violation {
            field: Some(fpath.to_string()),
            description: format!(
                "Invalid value at '{fpath}' ({}), {}",
                kind_name(field.kind, api),
                shown(v)
            ),
        })
    };
    let object_on_scalar = |out: &mut Vec<Violation>| {
        let description = if parent.is_empty() {
            format!(
                "Invalid value ({}), Starting an object on a scalar field",
                field.proto
            )
        } else {
            format!(
                "Invalid value at '{parent}' ({}), Starting an object on a scalar field",
                field.proto
            )
        };
        out.push(Violation {
            field: Some(parent.to_string()).filter(|p| !p.is_empty()),
            description,
        })
    };
    match field.kind {
        Kind::Value => {}
        Kind::Msg(m) => match v {
            Value::Object(obj) => walk_message(obj, m, api, fpath, out),
            Value::Null => {}
            // T7 (9router#1081).
            _ => invalid(out),
        },
        Kind::Struct => match v {
            Value::Object(_) | Value::Null => {}
            _ => invalid(out),
        },
        Kind::TypeEnum => match v {
            Value::String(s) if TYPE_VALUES.iter().any(|t| t.eq_ignore_ascii_case(s)) => {}
            Value::Number(n) if n.as_u64().is_some_and(|n| (n as usize) < TYPE_VALUES.len()) => {}
            Value::Object(_) => object_on_scalar(out),
            // T4 (new-api#766, gitlab-mcp#166, generative-ai-js: `"enum"`).
            _ => invalid(out),
        },
        Kind::Str => match v {
            Value::String(_) => {}
            Value::Object(_) => object_on_scalar(out),
            // T6 (azure-devops-mcp#139: `(TYPE_STRING), 2`).
            _ => invalid(out),
        },
        Kind::Bool => match v {
            Value::Bool(_) => {}
            Value::Object(_) => object_on_scalar(out),
            _ => invalid(out),
        },
        Kind::Int => match v {
            Value::Number(n)
                if n.as_i64().is_some() || n.as_f64().is_some_and(|x| x.fract() == 0.0) => {}
            Value::String(s) if s.trim().parse::<i64>().is_ok() => {}
            Value::Object(_) => object_on_scalar(out),
            _ => invalid(out),
        },
        Kind::Double => match v {
            Value::Number(_) => {}
            Value::String(s)
                if s.trim().parse::<f64>().is_ok()
                    || matches!(s.as_str(), "NaN" | "Infinity" | "-Infinity") => {}
            Value::Object(_) => object_on_scalar(out),
            _ => invalid(out),
        },
    }
}

/// Reads a field by its proto or JSON name.
pub fn get<'a>(obj: &'a Map<String, Value>, proto: &str, json: &str) -> Option<&'a Value> {
    obj.get(json)
        .or_else(|| obj.get(proto))
        .filter(|v| !v.is_null())
}

/// A semantic problem found after the parse stage.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// Field path (Developer API form, below `GenerateContentRequest.`) and text.
    At { path: String, text: String },
    /// A whole message with no path prefix (depth, `$ref` rules).
    Bare(String),
}

/// Where one schema node sits, in the two spellings the two APIs use.
#[derive(Debug, Clone)]
struct Loc {
    /// `tools[0].function_declarations[2].parameters.properties[q].items`.
    proto: String,
    /// `parameters.q` (Vertex names property keys only).
    dotted: String,
}

/// What one function declaration's schema breaks, in the order the validator reports it.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    TypeMissing,
    RootNotObject,
    PropertiesEmpty,
    PropertiesOnNonObject,
    ItemsMissing,
    ItemsOnNonArray,
    EnumOnNonString,
    EnumEmptyForEnumFormat,
    /// A `format` other than `enum`/`date-time`, on a node of this type.
    FormatUnsupported {
        ty: String,
    },
    RequiredUndefined {
        index: usize,
        name: String,
    },
    AnyOfWithSiblings,
}

/// One finding at one node.
#[derive(Debug, Clone)]
pub struct NodeFinding {
    pub finding: Finding,
    /// Proto path of the node (below `GenerateContentRequest.`).
    pub proto: String,
    /// Vertex's dotted property path.
    pub dotted: String,
}

/// Object levels (the root counts 1; [`crate::schema::depth::nesting`]: arrays are not levels,
/// local `$ref`s are followed) above which a `parametersJsonSchema` is refused. The limit is
/// not documented; 3 is the largest value consistent with both tool reports
/// (gitlab-mcp-nesting-depth-named: 4 object levels refused; gemini-cli-nesting-depth-notion:
/// 5 object levels refused), which toolwire maps to `depth-limit: 4` and up on
/// `gemini/v1beta/parameters-json-schema`. Neither shows an array counted as a level (Portkey's
/// assumption of 4 OBJECT/ARRAY levels is for `responseSchema`, not tools), so arrays are not.
pub const MAX_NESTING: usize = 3;

/// The upper-cased `type` of a schema node, if set.
pub fn type_of(o: &Map<String, Value>) -> Option<String> {
    match get(o, "type", "type") {
        Some(Value::String(s)) if !s.eq_ignore_ascii_case("TYPE_UNSPECIFIED") => {
            Some(s.to_ascii_uppercase())
        }
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|i| TYPE_VALUES.get(i as usize))
            .filter(|t| **t != "TYPE_UNSPECIFIED")
            .map(|t| t.to_string()),
        _ => None,
    }
}

/// Walks a parsed `Schema` tree and lists what the semantic validator refuses (sources in
/// the module docs; each rule's report is named where it is checked).
pub fn schema_findings(schema: &Value, base_proto: &str) -> Vec<NodeFinding> {
    let mut out = Vec::new();
    let root = Loc {
        proto: base_proto.to_string(),
        dotted: "parameters".to_string(),
    };
    let mut stack = vec![(schema, root, 0usize)];
    while let Some((node, loc, depth)) = stack.pop() {
        let Some(o) = node.as_object() else { continue };
        if depth > 64 {
            continue;
        }
        let mut push = |finding: Finding, loc: &Loc| {
            out.push(NodeFinding {
                finding,
                proto: loc.proto.clone(),
                dotted: loc.dotted.clone(),
            })
        };
        let t = type_of(o);
        let any_of = matches!(get(o, "any_of", "anyOf"), Some(Value::Array(a)) if !a.is_empty());
        let props = get(o, "properties", "properties").and_then(Value::as_object);
        if any_of
            && o.keys().any(|k| {
                !matches!(
                    k.as_str(),
                    "anyOf" | "any_of" | "description" | "nullable" | "title"
                )
            })
        {
            push(Finding::AnyOfWithSiblings, &loc);
        }
        // librechat (type must be specified when not using one_of, any_of or all_of fields).
        if t.is_none() && !any_of {
            push(Finding::TypeMissing, &loc);
        }
        // pipecat, mcp-obsidian#21 (should be non-empty for OBJECT type); opencode
        // (properties: only allowed for OBJECT type). With `required` names listed, only the
        // required rule is reported (AIStudioToAPI#154: `properties: {}`, `required: ["ref"]`).
        let has_required =
            matches!(get(o, "required", "required"), Some(Value::Array(r)) if !r.is_empty());
        if t.as_deref() == Some("OBJECT") && props.is_none_or(|p| p.is_empty()) && !has_required {
            push(Finding::PropertiesEmpty, &loc);
        }
        if props.is_some_and(|p| !p.is_empty()) && t.as_deref() != Some("OBJECT") && t.is_some() {
            push(Finding::PropertiesOnNonObject, &loc);
        }
        // gemini-desktop (items: missing field), opencode-nullable-array-predicate (items:
        // field predicate failed: $type == Type.ARRAY).
        let items = get(o, "items", "items");
        if t.as_deref() == Some("ARRAY") && items.is_none() {
            push(Finding::ItemsMissing, &loc);
        }
        if items.is_some() && t.as_deref() != Some("ARRAY") {
            push(Finding::ItemsOnNonArray, &loc);
        }
        // directus (enum: only allowed for STRING type); kibana (should be non-empty for
        // STRING type with enum format); gemini-cli (only 'enum' and 'date-time').
        let en = get(o, "enum", "enum").and_then(Value::as_array);
        if en.is_some() && t.as_deref() != Some("STRING") && t.is_some() {
            push(Finding::EnumOnNonString, &loc);
        }
        let fmt = get(o, "format", "format").and_then(Value::as_str);
        // An empty enum is refused with or without `format: enum` (SDKs add the format
        // whenever enum is set; kibana-enum-format-empty-gemini3).
        if t.as_deref() == Some("STRING")
            && ((fmt == Some("enum") && en.is_none_or(|e| e.is_empty()))
                || en.is_some_and(|e| e.is_empty()))
        {
            push(Finding::EnumEmptyForEnumFormat, &loc);
        } else if let Some(f) = fmt
            && f != "enum"
            && f != "date-time"
            && let Some(ty) = &t
        {
            // Firebase AI's Schema reference: under the Developer API the format "must be
            // either 'enum' or 'date-time', otherwise requests may fail" (any type); the text
            // is the STRING one seen in gemini-cli-format-uri, with the node's type.
            push(Finding::FormatUnsupported { ty: ty.clone() }, &loc);
        }
        // AIStudioToAPI#154 (required[0]: property is not defined).
        if let Some(Value::Array(req)) = get(o, "required", "required") {
            for (index, name) in req.iter().enumerate() {
                let name = name.as_str().unwrap_or_default();
                if !props.is_some_and(|p| p.contains_key(name)) {
                    push(
                        Finding::RequiredUndefined {
                            index,
                            name: name.to_string(),
                        },
                        &loc,
                    );
                }
            }
        }
        // Children in reverse so the stack pops them in document order.
        let mut children = Vec::new();
        if let Some(p) = props {
            for (k, v) in p {
                children.push((
                    v,
                    Loc {
                        proto: format!("{}.properties[{k}]", loc.proto),
                        dotted: format!("{}.{k}", loc.dotted),
                    },
                ));
            }
        }
        if let Some(i) = items {
            children.push((
                i,
                Loc {
                    proto: format!("{}.items", loc.proto),
                    dotted: loc.dotted.clone(),
                },
            ));
        }
        if let Some(Value::Array(a)) = get(o, "any_of", "anyOf") {
            for (i, v) in a.iter().enumerate() {
                children.push((
                    v,
                    Loc {
                        proto: format!("{}.any_of[{i}]", loc.proto),
                        dotted: loc.dotted.clone(),
                    },
                ));
            }
        }
        for (v, l) in children.into_iter().rev() {
            stack.push((v, l, depth + 1));
        }
    }
    out
}

/// The Developer API's text for a finding (templates quoted from reports.yaml).
pub fn devapi_text(f: &Finding) -> (String, String) {
    let (suffix, text): (String, &str) = match f {
        Finding::TypeMissing => (
            ".type".into(),
            "must be specified when not using one_of, any_of or all_of fields",
        ),
        Finding::RootNotObject => (".type".into(), "must be OBJECT"),
        Finding::PropertiesEmpty => (".properties".into(), "should be non-empty for OBJECT type"),
        Finding::PropertiesOnNonObject => (".properties".into(), "only allowed for OBJECT type"),
        Finding::ItemsMissing => (".items".into(), "missing field."),
        Finding::ItemsOnNonArray => (
            ".items".into(),
            "field predicate failed: $type == Type.ARRAY",
        ),
        Finding::EnumOnNonString => (".enum".into(), "only allowed for STRING type"),
        Finding::EnumEmptyForEnumFormat => (
            ".enum".into(),
            "should be non-empty for STRING type with enum format",
        ),
        Finding::FormatUnsupported { ty } => {
            return (
                ".format".into(),
                format!("only 'enum' and 'date-time' are supported for {ty} type"),
            );
        }
        Finding::RequiredUndefined { index, .. } => {
            (format!(".required[{index}]"), "property is not defined")
        }
        // The Developer API accepts anyOf beside other fields (opencode-nullable-array-predicate
        // reports the items predicate, not the siblings); only Vertex refuses siblings.
        Finding::AnyOfWithSiblings => (String::new(), ""),
    };
    (suffix, text.to_string())
}

/// The function-name rule, in the Developer API's words as reported 2025-04-16
/// (vscode-copilot-invalid-function-name, microsoft/vscode-copilot-release#7928; the same
/// template in gemini-cli #2966 and #7869): no colon. A later text that lists colons
/// (ccs-function-name-colons-allowed, 2025-11-30) is a Code Assist style backend's, unmapped
/// since 2026-12-03: it speaks to no target, and the matrix has the colon rejected.
pub const NAME_RULE: &str = "Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.";

/// True for a valid function name under [`NAME_RULE`].
pub fn name_ok(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Renders Developer API semantic problems into one `error.message`.
pub fn devapi_message(problems: &[Problem]) -> String {
    if let Some(Problem::Bare(m)) = problems.iter().find(|p| matches!(p, Problem::Bare(_))) {
        return m.clone();
    }
    let mut s = String::new();
    for p in problems {
        if let Problem::At { path, text } = p {
            s.push_str(&format!("* GenerateContentRequest.{path}: {text}\n"));
        }
    }
    s
}

/// Google error body: `{"error":{code,message,status[,details]}}`.
pub fn error_body(code: u16, status: &str, message: &str, details: Option<Value>) -> Value {
    let mut e = json!({"code": code, "message": message, "status": status});
    if let Some(d) = details {
        e["details"] = d;
    }
    json!({ "error": e })
}

/// The parse-stage answer: 400 with BadRequest fieldViolations.
pub fn parse_rejection(violations: &[Violation]) -> Value {
    let message = violations
        .iter()
        .map(|v| v.description.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let fv: Vec<Value> = violations
        .iter()
        .map(|v| match &v.field {
            Some(f) => json!({"field": f, "description": v.description}),
            None => json!({"description": v.description}),
        })
        .collect();
    error_body(
        400,
        "INVALID_ARGUMENT",
        &message,
        Some(
            json!([{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": fv}]),
        ),
    )
}

/// The parse stage over a raw request body: the parsed body, or the 400 answered instead
/// (T10 for malformed JSON, else every transcoder problem as fieldViolations).
pub fn parse_stage(body: &[u8], root: Msg, api: Api) -> Result<Value, Value> {
    let parsed = parse_json(body).map_err(|e| parse_rejection(&[syntax_error(body, &e)]))?;
    let violations = transcode(&parsed, root, api);
    if violations.is_empty() {
        Ok(parsed)
    } else {
        Err(parse_rejection(&violations))
    }
}

/// Service Control for a Developer API key (after the parse stage): `None` for a valid key,
/// else the status and body answered (403 [`unregistered_callers`] without a key, 400
/// [`api_key_invalid`] for an invalid one).
pub fn devapi_caller(credential: Option<&str>) -> Option<(u16, Value)> {
    match Cred::of(credential) {
        Cred::Missing => Some((403, unregistered_callers())),
        Cred::Invalid => Some((400, api_key_invalid())),
        Cred::Valid => None,
    }
}

/// A semantic validator refusal: 400 `INVALID_ARGUMENT` with `message` and no details.
pub fn invalid_argument(message: &str) -> Value {
    error_body(400, "INVALID_ARGUMENT", message, None)
}

/// The 404 for a path no model serves.
pub fn not_found() -> Value {
    error_body(404, "NOT_FOUND", "Requested entity was not found.", None)
}

/// The 403 for a caller without a key (PublicAffairs/openai-gemini#92).
pub fn unregistered_callers() -> Value {
    error_body(
        403,
        "PERMISSION_DENIED",
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        None,
    )
}

/// The 400 for a present but invalid key (continue#8516, timesketch PR#3703).
pub fn api_key_invalid() -> Value {
    error_body(
        400,
        "INVALID_ARGUMENT",
        "API key not valid. Please pass a valid API key.",
        Some(json!([
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com", "metadata": {"service": "generativelanguage.googleapis.com"}},
            {"@type": "type.googleapis.com/google.rpc.LocalizedMessage", "locale": "en-US", "message": "API key not valid. Please pass a valid API key."}
        ])),
    )
}

/// A 429 as the Developer API sends it: no Retry-After header, `RetryInfo.retryDelay` in the
/// body (PROVIDERS.md §2).
pub fn resource_exhausted(delay_secs: u64) -> Value {
    error_body(
        429,
        "RESOURCE_EXHAUSTED",
        "You exceeded your current quota, please check your plan and billing details.",
        Some(json!([
            {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": [{"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests", "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]},
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": format!("{delay_secs}s")}
        ])),
    )
}

/// T10: malformed JSON. The snippet and caret follow googlecodelabs/feedback#441 loosely (the
/// exact snippet window is unknown).
pub fn syntax_error(body: &[u8], err: &serde_json::Error) -> Violation {
    let text = String::from_utf8_lossy(body);
    let line = text.lines().nth(err.line().saturating_sub(1)).unwrap_or("");
    let col = err.column().saturating_sub(1).min(line.len());
    let start = col.saturating_sub(20);
    let snippet: String = line.chars().skip(start).take(40).collect();
    Violation {
        field: None,
        description: format!(
            "Invalid JSON payload received. Unexpected token.\n{snippet}\n{}^",
            " ".repeat(col - start)
        ),
    }
}

/// The `error` object of a Google answer (unwrapping the compat endpoint's `[{…}]`).
pub fn error_of(v: &Value) -> Option<&Map<String, Value>> {
    let v = match v {
        Value::Array(a) => a.first()?,
        v => v,
    };
    v.get("error")?.as_object()
}

/// Extracts the path a Google message names (first problem): the fieldViolations templates,
/// `* GenerateContentRequest.<path>:`, the `proto is invalid` form, and Vertex's
/// `` functionDeclaration `<path>` ``.
pub fn path_in_message(msg: &str) -> Option<String> {
    let msg = msg.trim_start();
    if let Some(rest) = msg
        .find("GenerateContentRequest.")
        .map(|i| &msg[i + "GenerateContentRequest.".len()..])
        .filter(|_| {
            msg.contains("* GenerateContentRequest.") || msg.starts_with("GenerateContentRequest.")
        })
    {
        return rest.split(':').next().map(|p| p.trim().to_string());
    }
    if let Some(i) = msg.find("proto is invalid:") {
        let rest = msg[i..].split_once("* ")?.1;
        return rest.split(':').next().map(|p| p.trim().to_string());
    }
    if let Some(i) = msg.find(" at '") {
        let rest = &msg[i + " at '".len()..];
        return rest.split('\'').next().map(str::to_string);
    }
    if let Some(i) = msg.find("functionDeclaration `") {
        let rest = &msg[i + "functionDeclaration `".len()..];
        return rest.split('`').next().map(str::to_string);
    }
    if msg.contains("functionDeclaration parameters schema") {
        return Some("parameters".into());
    }
    if let Some(i) = msg.find("reference to undefined schema at ") {
        return Some(msg[i + 33..].trim().to_string());
    }
    None
}

/// The path quoted by each line of a transcoder message (`Invalid JSON payload received.
/// Unknown name "K" at 'PATH': ...`, `Invalid value at 'PATH' (...)`), in order; empty when
/// no line has that shape. Lines are the problems of one answer, joined with `\n`.
fn transcoder_paths(msg: &str) -> Vec<String> {
    msg.lines()
        .filter(|l| {
            let l = l.trim_start();
            l.starts_with("Invalid JSON payload received.") || l.starts_with("Invalid value at '")
        })
        .filter_map(|l| {
            let rest = &l[l.find(" at '")? + " at '".len()..];
            rest.split_once('\'').map(|(p, _)| p.to_string())
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// True for the texts of Google's semantic validator (both APIs).
pub fn is_validator_message(msg: &str) -> bool {
    let m = msg.trim_start();
    m.starts_with("* GenerateContentRequest.")
        || m.starts_with("GenerateContentRequest.")
        || m.contains("The GenerateContentRequest proto is invalid")
        || m.starts_with("Unable to submit request because")
        || m.contains("in the request exceeds the maximum allowed nesting depth")
        || (m.starts_with("$ref '") && m.contains("was set alongside unsupported fields"))
        || m.starts_with("reference to undefined schema at ")
        || m.starts_with("Invalid schema for function '")
        || m.starts_with("Duplicate function declaration found: ")
}

/// True for Google's error object: `status` (`INVALID_ARGUMENT`, ..) or a numeric `code`.
/// OpenAI-style bodies carry `type`/`param` and a string or null `code` instead.
fn is_google_error(e: &Map<String, Value>) -> bool {
    e.get("status").is_some_and(Value::is_string) || e.get("code").is_some_and(Value::is_u64)
}

/// True when a path a Google answer names lies in the tool block: `tools`, `tools[..]…`,
/// also under countTokens' `generate_content_request.` (either spelling).
pub fn in_tool_block(path: &str) -> bool {
    let p = path.trim();
    let p = p
        .strip_prefix("generate_content_request.")
        .or_else(|| p.strip_prefix("generateContentRequest."))
        .unwrap_or(p);
    p.strip_prefix("tools")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['[', '.']))
}

/// Every path a validator message names, one per problem line (`* GenerateContentRequest.P:`
/// and the `proto is invalid` form's `* P:`), in order.
fn validator_paths(msg: &str) -> Vec<String> {
    msg.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l
                .strip_prefix("* GenerateContentRequest.")
                .or_else(|| l.strip_prefix("GenerateContentRequest."))
                .or_else(|| {
                    l.strip_prefix("* ")
                        .filter(|_| msg.contains("proto is invalid:"))
                })?;
            rest.split(':')
                .next()
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
        })
        .collect()
}

/// Whether a validator message is about the tool block: a problem line whose path lies in
/// it, or one of the texts only a function declaration causes (Vertex's `Unable to submit
/// request because` forms about a functionDeclaration, a function name or required fields of
/// a schema; nesting depth; `$ref`; duplicate declarations; the compat layer's `Invalid schema
/// for function`). Vertex's `Unable to submit request because` also opens answers about the
/// contents or the token count, which are not.
fn speaks_to_tools(msg: &str) -> bool {
    let paths = validator_paths(msg);
    if !paths.is_empty() {
        return paths.iter().any(|p| in_tool_block(p));
    }
    let m = msg.trim_start();
    if m.starts_with("Unable to submit request because") {
        return m.contains("functionDeclaration")
            || m.contains("function name")
            || m.contains("are not defined in the schema properties");
    }
    // The remaining validator texts each name a declaration or a schema node.
    !m.contains("GenerateContentRequest")
}

/// The note of a Google refusal that points outside the tool block.
fn outside_tools_note(status: u16, named: Option<&str>) -> String {
    match named {
        Some(p) => format!(
            "HTTP {status}: the refusal names `{p}`, outside the tool block (not a schema rejection: the case does not change it)"
        ),
        None => format!(
            "HTTP {status}: the refusal names no field of the tool block (not a schema rejection: the case does not change it)"
        ),
    }
}

/// Reads a Google answer. `keyless`: sent without a credential on purpose, so the refusal of
/// the caller (403 `PERMISSION_DENIED`, or 401 on a route found to parse first) means "the
/// body parsed"; that is acceptance at stage parse, never validator acceptance.
pub fn classify(reply: &Reply, keyless: bool, success_keys: &[&str]) -> Classified {
    let body = reply.json_body();
    let err = body.as_ref().and_then(error_of);
    if let Some(e) = err {
        let message = e
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let status = e.get("status").and_then(Value::as_str).unwrap_or("");
        let details = e.get("details").and_then(Value::as_array);
        let detail = |ty: &str| {
            details.and_then(|d| {
                d.iter().find(|x| {
                    x.get("@type")
                        .and_then(Value::as_str)
                        .is_some_and(|t| t.ends_with(ty))
                })
            })
        };
        // Another service's answer (an OpenAI-shaped `Invalid schema for function …` from a
        // stand-in or a misrouted base URL) says nothing about what Google accepts, however
        // much its text looks like a schema error.
        if !is_google_error(e) {
            return classify_common(reply, Some(message)).note(format!(
                "HTTP {}: not Google's error shape (no `status`, no numeric `code`): another service's answer, not a schema rejection",
                reply.status
            ));
        }
        // A schema rejection needs BadRequest fieldViolations (parse) or a validator message
        // that points into the tool block; wherever it comes from (relays wrap 400s in
        // 429/502/503). A refusal of the model name, `contents` or `generation_config` is
        // the request's envelope, which the case does not change: counted as a rejection, it
        // would reject the control and confound the whole run.
        if let Some(br) = detail("google.rpc.BadRequest")
            && let Some(fv) = br.get("fieldViolations").and_then(Value::as_array)
            && !fv.is_empty()
        {
            let paths: Vec<Option<String>> = fv
                .iter()
                .map(|v| {
                    v.get("field")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .or_else(|| {
                            v.get("description")
                                .and_then(Value::as_str)
                                .and_then(path_in_message)
                        })
                })
                .collect();
            if let Some(path) = paths.iter().flatten().find(|p| in_tool_block(p)) {
                return Classified::rejected(Stage::Parse, message, Some(path.clone()));
            }
            let named = paths.iter().flatten().next().map(String::as_str);
            return Classified::inconclusive(
                Stage::Parse,
                Some(message),
                outside_tools_note(reply.status, named),
            );
        }
        // The transcoder's message without its `details` (a relay or a front end that drops
        // them): each problem line quotes its path (`... at 'PATH'`), which decides as a
        // fieldViolation's `field` would.
        let quoted = transcoder_paths(&message);
        if !quoted.is_empty() && detail("google.rpc.ErrorInfo").is_none() {
            if let Some(path) = quoted.iter().find(|p| in_tool_block(p)) {
                return Classified::rejected(Stage::Parse, message, Some(path.clone()));
            }
            return Classified::inconclusive(
                Stage::Parse,
                Some(message),
                outside_tools_note(reply.status, quoted.first().map(String::as_str)),
            );
        }
        if is_validator_message(&message) && detail("google.rpc.ErrorInfo").is_none() {
            if speaks_to_tools(&message) {
                let path = validator_paths(&message)
                    .into_iter()
                    .find(|p| in_tool_block(p))
                    .or_else(|| path_in_message(&message));
                return Classified::rejected(Stage::Validate, message, path);
            }
            let named = validator_paths(&message).into_iter().next();
            return Classified::inconclusive(
                Stage::Validate,
                Some(message),
                outside_tools_note(reply.status, named.as_deref()),
            );
        }
        if let Some(info) = detail("google.rpc.ErrorInfo") {
            let reason = info.get("reason").and_then(Value::as_str).unwrap_or("");
            return Classified::inconclusive(
                Stage::Auth,
                Some(message),
                format!("credential refused ({reason})"),
            );
        }
        if keyless && (status == "PERMISSION_DENIED" || status == "UNAUTHENTICATED") {
            return Classified {
                note: Some(format!(
                    "parsed: without a key the front end answered {} {status} after the parse stage; the semantic validator was not reached",
                    reply.status
                )),
                ..Classified::accepted(Stage::Parse)
            };
        }
        if status == "RESOURCE_EXHAUSTED" || reply.status == 429 {
            let per_day = details.is_some_and(|d| {
                d.iter().any(|x| {
                    x.get("violations")
                        .and_then(Value::as_array)
                        .is_some_and(|v| {
                            v.iter().any(|q| {
                                q.get("quotaId")
                                    .and_then(Value::as_str)
                                    .is_some_and(|id| id.contains("PerDay"))
                            })
                        })
                })
            });
            let delay = detail("google.rpc.RetryInfo")
                .and_then(|r| r.get("retryDelay"))
                .and_then(Value::as_str)
                .and_then(parse_duration);
            let retry = if per_day {
                Retry::No
            } else if let Some(d) = delay {
                Retry::After(d)
            } else {
                super::wire::retry_after(reply).unwrap_or(Retry::Backoff)
            };
            return Classified::inconclusive(
                Stage::Quota,
                Some(message),
                if per_day {
                    "daily quota spent (not retried)"
                } else {
                    "rate limited"
                },
            )
            .retry(retry);
        }
        return classify_common(reply, Some(message)).note(format!(
            "HTTP {} {status}: not a schema rejection (no fieldViolations, no validator message)",
            reply.status
        ));
    }
    if (200..300).contains(&reply.status)
        && let Some(b) = &body
        && success_keys.iter().any(|k| b.get(*k).is_some())
    {
        return Classified::accepted(Stage::Validate);
    }
    classify_common(reply, None)
}

/// `"37s"`, `"1.5s"` → duration.
pub fn parse_duration(s: &str) -> Option<std::time::Duration> {
    let secs: f64 = s.trim().strip_suffix('s')?.parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| super::wire::wait_secs(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gcr(params: Value) -> Value {
        json!({"contents":[{"role":"user","parts":[{"text":"hi"}]}],
               "tools":[{"functionDeclarations":[{"name":"f","description":"d","parameters":params}]}]})
    }

    #[test]
    fn t1_unknown_keyword_names_the_positional_path() {
        let body = gcr(
            json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","const":"x"}}}),
        );
        let v = transcode(&body, Msg::GenerateContentRequest, Api::DevApi);
        assert_eq!(v.len(), 1);
        assert_eq!(
            v[0].description,
            "Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[0].parameters.properties[1].value': Cannot find field."
        );
        assert_eq!(
            v[0].field.as_deref(),
            Some("tools[0].function_declarations[0].parameters.properties[1].value")
        );
    }

    #[test]
    fn t3_t4_t6_t7_t2() {
        let body = gcr(json!({"type":"object","properties":{
            "a":{"type":["string","null"]},
            "b":{"type":"enum"},
            "c":{"type":"number","enum":[1,2]},
            "d":"object"}}));
        let v: Vec<String> = transcode(&body, Msg::GenerateContentRequest, Api::DevApi)
            .into_iter()
            .map(|v| v.description)
            .collect();
        assert_eq!(
            v,
            [
                "Invalid JSON payload received. Unknown name \"type\" at 'tools[0].function_declarations[0].parameters.properties[0].value': Proto field is not repeating, cannot start list.",
                "Invalid value at 'tools[0].function_declarations[0].parameters.properties[1].value.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), \"enum\"",
                "Invalid value at 'tools[0].function_declarations[0].parameters.properties[2].value.enum[0]' (TYPE_STRING), 1",
                "Invalid value at 'tools[0].function_declarations[0].parameters.properties[2].value.enum[1]' (TYPE_STRING), 2",
                "Invalid value at 'tools[0].function_declarations[0].parameters.properties[3].value' (type.googleapis.com/google.ai.generativelanguage.v1beta.Schema), \"object\"",
            ]
        );
        let root = transcode(&json!({"thinking": true}), Msg::ChatRequest, Api::DevApi);
        assert_eq!(root[0].field, None);
        assert_eq!(
            root[0].description,
            "Invalid JSON payload received. Unknown name \"thinking\": Cannot find field."
        );
    }

    #[test]
    fn vertex_parses_additional_properties_but_not_dollar_ref() {
        let body = json!({"tools":[{"functionDeclarations":[{"name":"f","parameters":
            {"type":"object","additionalProperties":false,"properties":{"a":{"$ref":"#/defs/A"}}}}]}]});
        let v = transcode(&body, Msg::VertexCountTokensRequest, Api::Vertex);
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(v[0].description.contains("Unknown name \"$ref\""));
    }

    #[test]
    fn validator_findings_follow_the_reports() {
        let schema = json!({"type":"object","properties":{
            "tags":{"type":"array"},
            "data":{"type":"string","properties":{"x":{"type":"string"}}},
            "url":{"type":"string","format":"uri"},
            "n":{"type":"integer","enum":["1"]}},
            "required":["tags","ghost"]});
        let f: Vec<(String, String)> =
            schema_findings(&schema, "tools[0].function_declarations[0].parameters")
                .iter()
                .map(|n| {
                    let (suffix, text) = devapi_text(&n.finding);
                    (format!("{}{suffix}", n.proto), text.to_string())
                })
                .collect();
        let p = "tools[0].function_declarations[0].parameters";
        assert_eq!(
            f,
            [
                (
                    format!("{p}.required[1]"),
                    "property is not defined".to_string()
                ),
                (
                    format!("{p}.properties[tags].items"),
                    "missing field.".to_string()
                ),
                (
                    format!("{p}.properties[data].properties"),
                    "only allowed for OBJECT type".to_string()
                ),
                (
                    format!("{p}.properties[url].format"),
                    "only 'enum' and 'date-time' are supported for STRING type".to_string()
                ),
                (
                    format!("{p}.properties[n].enum"),
                    "only allowed for STRING type".to_string()
                ),
            ]
        );
    }

    #[test]
    fn classification_reads_the_body() {
        let parse = Reply::json(400, &parse_rejection(&[Violation {
            field: Some("tools[0]".into()),
            description: "Invalid JSON payload received. Unknown name \"x\" at 'tools[0]': Cannot find field.".into(),
        }]));
        assert_eq!(classify(&parse, true, &[]).stage, Stage::Parse);
        // The same body relayed as a 503 is still a rejection.
        let relayed = Reply {
            status: 503,
            ..parse.clone()
        };
        assert_eq!(
            classify(&relayed, false, &[]).verdict,
            crate::evidence::Verdict::Rejected
        );
        let key = Reply::json(400, &api_key_invalid());
        assert_eq!(
            classify(&key, false, &[]).verdict,
            crate::evidence::Verdict::Inconclusive
        );
        let denied = Reply::json(403, &unregistered_callers());
        let c = classify(&denied, true, &[]);
        assert_eq!(
            (c.verdict, c.stage),
            (crate::evidence::Verdict::Accepted, Stage::Parse)
        );
        assert_eq!(
            classify(&denied, false, &[]).verdict,
            crate::evidence::Verdict::Inconclusive
        );
        let generic = Reply::json(
            400,
            &error_body(
                400,
                "INVALID_ARGUMENT",
                "Request contains an invalid argument.",
                None,
            ),
        );
        assert_eq!(
            classify(&generic, false, &[]).verdict,
            crate::evidence::Verdict::Inconclusive
        );
        let quota = Reply::json(429, &resource_exhausted(37));
        assert_eq!(
            classify(&quota, false, &[]).retry,
            Retry::After(std::time::Duration::from_secs(37))
        );
        let ok = Reply::json(200, &json!({"totalTokens": 5}));
        assert_eq!(
            classify(&ok, false, &["totalTokens"]).verdict,
            crate::evidence::Verdict::Accepted
        );
    }
}
