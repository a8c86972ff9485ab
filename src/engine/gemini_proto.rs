//! `engine/gemini-proto-snapshot/parameters` and `.../parameters-json-schema`: a strict
//! proto3-JSON parse of a whole `generateContent` request body against a SNAPSHOT of Gemini
//! v1beta's published field list (the google-ai-generativelanguage 0.12.1 descriptor,
//! transcribed in `proto/gemini_v1beta.proto`). It is not Gemini: it shows what the published
//! field list admits, which is where Gemini's front end rejects unknown keywords
//! (`Invalid JSON payload received. Unknown name ...`); the live API has moved past this
//! descriptor (google-genai 3.6.1 already sends `additionalProperties` in `parameters`).
//!
//! The `.proto` is compiled at build time with protox (`build.rs` writes the
//! FileDescriptorSet to `OUT_DIR`); it is decoded once per process. The body
//! `{"contents":[...],"tools":[{"functionDeclarations":[...]}]}` is parsed with prost-reflect's
//! `DynamicMessage::deserialize_with_options`, unknown fields denied:
//! - as `parameters`: the schema must fit the typed `Schema` message. Enum names are matched
//!   case-insensitively, as the live front end accepts lowercase `"object"`: a `type` value
//!   (in a schema position, found with [`crate::schema::walk`]; never a property that happens
//!   to be named `type`) whose upper-case form is a `Type` name is upper-cased before the
//!   parse. Anything else is sent as the case has it;
//! - as `parametersJsonSchema` (`google.protobuf.Value`): any JSON value, but protobuf's
//!   nesting limit of 100 for `Value` applies (prost's decoder), as it does in Python's
//!   `json_format` (`Message too deep. Max recursion depth is 100.`).
//!
//! serde_json's own nesting limit (128) is lifted: it belongs to the Rust JSON reader, not to
//! protobuf JSON parsing. Errors are quoted verbatim from prost-reflect/serde_json (they end in
//! ` at line 1 column N`; the body is one line). The path is a JSON Pointer into the request
//! body, derived from that column: the member or element being read when the error was raised.
//!
//! Instances are not checked: a parse has no instance semantics. A tool without parameters is
//! sent without the field, which the message allows, so the parse decides as for any body.

use std::sync::OnceLock;

use prost_reflect::{DescriptorPool, DeserializeOptions, DynamicMessage, MessageDescriptor};
use serde_json::{Map, Value, json};

use super::{Engine, EngineAnswer, guard};
use crate::case::Instance;
use crate::evidence::Stage;
use crate::json::push_token;
use crate::tool::ToolDef;

/// The FileDescriptorSet compiled by `build.rs` from `proto/gemini_v1beta.proto`.
const DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/gemini_v1beta.fds"));
const PACKAGE: &str = "google.ai.generativelanguage.v1beta";
/// The user turn sent with every probe body.
const PROMPT: &str = "Call the tool that fits.";

/// Which `FunctionDeclaration` field carries the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// `parameters` (typed `Schema`).
    Parameters,
    /// `parametersJsonSchema` (`google.protobuf.Value`).
    ParametersJsonSchema,
}

/// The proto snapshot engine, for one route.
#[derive(Debug, Clone, Copy)]
pub struct GeminiProtoSnapshot {
    route: Route,
}

impl GeminiProtoSnapshot {
    /// `engine/gemini-proto-snapshot/parameters`.
    pub fn parameters() -> Self {
        GeminiProtoSnapshot {
            route: Route::Parameters,
        }
    }

    /// `engine/gemini-proto-snapshot/parameters-json-schema`.
    pub fn parameters_json_schema() -> Self {
        GeminiProtoSnapshot {
            route: Route::ParametersJsonSchema,
        }
    }

    /// The request body this engine parses for `tools` (compact JSON, one line).
    pub fn body(&self, tools: &[ToolDef]) -> Vec<u8> {
        let decls: Vec<Value> = tools.iter().map(|t| declaration(t, self.route)).collect();
        let body = json!({
            "contents": [{"role": "user", "parts": [{"text": PROMPT}]}],
            "tools": [{"functionDeclarations": decls}],
        });
        serde_json::to_vec(&body).unwrap_or_default()
    }
}

impl Engine for GeminiProtoSnapshot {
    fn id(&self) -> &'static str {
        match self.route {
            Route::Parameters => "engine/gemini-proto-snapshot/parameters",
            Route::ParametersJsonSchema => "engine/gemini-proto-snapshot/parameters-json-schema",
        }
    }

    fn endpoint(&self) -> String {
        format!(
            "in-process:prost-reflect@{} parsing a snapshot of Gemini v1beta's published field list (google-ai-generativelanguage 0.12.1 descriptor), not Gemini itself",
            env!("TOOLWIRE_VERSION_PROST_REFLECT")
        )
    }

    fn check(&self, tools: &[ToolDef], _instances: &[Instance]) -> EngineAnswer {
        let this = *self;
        let owned_tools = tools.to_vec();
        guard::run(tools, Stage::Parse, move || {
            let body = this.body(&owned_tools);
            match parse(&body) {
                Ok(()) => EngineAnswer::accepted(Stage::Parse, body, None),
                Err(ParseError::Setup(e)) => EngineAnswer::inconclusive(Stage::Parse, body, e),
                Err(ParseError::Body { text, path }) => {
                    EngineAnswer::rejected(Stage::Parse, body, text, Some(path))
                }
            }
        })
    }

    fn input(&self, tools: &[ToolDef]) -> Vec<u8> {
        self.body(tools)
    }
}

fn declaration(tool: &ToolDef, route: Route) -> Value {
    let mut d = Map::new();
    d.insert("name".into(), Value::String(tool.name.clone()));
    if let Some(desc) = &tool.description {
        d.insert("description".into(), Value::String(desc.clone()));
    }
    if let Some(p) = &tool.parameters {
        match route {
            Route::Parameters => {
                let mut schema = p.clone();
                uppercase_type_names(&mut schema);
                d.insert("parameters".into(), schema);
            }
            Route::ParametersJsonSchema => {
                d.insert("parametersJsonSchema".into(), p.clone());
            }
        }
    }
    Value::Object(d)
}

/// The names of the snapshot's `Type` enum (`STRING`, `OBJECT`, ...).
fn type_names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        pool()
            .ok()
            .and_then(|p| p.get_enum_by_name(&format!("{PACKAGE}.Type")))
            .map(|e| e.values().map(|v| v.name().to_string()).collect())
            .unwrap_or_default()
    })
}

/// Upper-cases `type` keyword values in schema positions when the result is a `Type` name.
fn uppercase_type_names(schema: &mut Value) {
    let names = type_names();
    let pointers: Vec<String> = crate::schema::walk(schema)
        .nodes
        .iter()
        .filter_map(|n| {
            let t = n.object()?.get("type")?.as_str()?;
            let upper = t.to_ascii_uppercase();
            (upper != t && names.contains(&upper)).then(|| push_token(&n.pointer, "type"))
        })
        .collect();
    for p in pointers {
        if let Some(v) = schema.pointer_mut(&p)
            && let Some(s) = v.as_str()
        {
            *v = Value::String(s.to_ascii_uppercase());
        }
    }
}

fn pool() -> Result<&'static DescriptorPool, String> {
    static POOL: OnceLock<Result<DescriptorPool, String>> = OnceLock::new();
    POOL.get_or_init(|| {
        DescriptorPool::decode(DESCRIPTOR_SET)
            .map_err(|e| format!("the built-in Gemini proto snapshot does not decode: {e}"))
    })
    .as_ref()
    .map_err(Clone::clone)
}

fn request_descriptor() -> Result<MessageDescriptor, String> {
    let name = format!("{PACKAGE}.GenerateContentRequest");
    pool()?
        .get_message_by_name(&name)
        .ok_or_else(|| format!("the Gemini proto snapshot has no message {name}"))
}

enum ParseError {
    /// The snapshot itself is broken (never the case's fault).
    Setup(String),
    /// The body was refused: verbatim text and the JSON Pointer into the body.
    Body { text: String, path: String },
}

fn parse(body: &[u8]) -> Result<(), ParseError> {
    let desc = request_descriptor().map_err(ParseError::Setup)?;
    let mut de = serde_json::Deserializer::from_slice(body);
    de.disable_recursion_limit();
    let options = DeserializeOptions::new().deny_unknown_fields(true);
    let result =
        DynamicMessage::deserialize_with_options(desc, &mut de, &options).and_then(|_| de.end());
    result.map_err(|e| ParseError::Body {
        path: pointer_at(body, column_offset(body, e.line(), e.column())),
        text: e.to_string(),
    })
}

/// Byte offset of serde_json's (1-based line, column) in `text`.
fn column_offset(text: &[u8], line: usize, column: usize) -> usize {
    let mut offset = 0;
    for _ in 1..line {
        match text[offset..].iter().position(|&b| b == b'\n') {
            Some(i) => offset += i + 1,
            None => return text.len(),
        }
    }
    (offset + column).min(text.len())
}

/// One open container while scanning JSON text.
enum Frame {
    /// An object and the key of the member being read, once its key has been read.
    Object(Option<String>),
    /// An array and the index of the element being read, once one has started.
    Array(Option<usize>),
}

/// The JSON Pointer of the innermost member or element that the first `offset` bytes of the
/// (well-formed up to there) JSON `text` are inside of.
fn pointer_at(text: &[u8], offset: usize) -> String {
    let end = offset.min(text.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        match text[i] {
            b'{' => {
                start_element(&mut stack);
                stack.push(Frame::Object(None));
            }
            b'[' => {
                start_element(&mut stack);
                stack.push(Frame::Array(None));
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object(key)) => *key = None,
                Some(Frame::Array(Some(n))) => *n += 1,
                _ => {}
            },
            b'"' => {
                let (s, next) = read_string(text, i);
                if let Some(Frame::Object(key @ None)) = stack.last_mut() {
                    *key = Some(s);
                } else {
                    start_element(&mut stack);
                }
                i = next;
                continue;
            }
            b' ' | b'\t' | b'\n' | b'\r' | b':' => {}
            _ => start_element(&mut stack),
        }
        i += 1;
    }
    let mut pointer = String::new();
    for f in &stack {
        match f {
            Frame::Object(Some(k)) => pointer = push_token(&pointer, k),
            Frame::Array(Some(n)) => pointer = push_token(&pointer, &n.to_string()),
            _ => {}
        }
    }
    pointer
}

/// A value starts in the innermost container: an array gets its first element index.
fn start_element(stack: &mut [Frame]) {
    if let Some(Frame::Array(n @ None)) = stack.last_mut() {
        *n = Some(0);
    }
}

/// Reads the JSON string starting at the quote at `start`: its (unescaped enough for a
/// pointer) text and the index just past the closing quote.
fn read_string(text: &[u8], start: usize) -> (String, usize) {
    let mut i = start + 1;
    let mut raw = Vec::new();
    while i < text.len() {
        match text[i] {
            b'\\' if i + 1 < text.len() => {
                raw.extend_from_slice(&text[i..i + 2]);
                i += 2;
            }
            b'"' => {
                i += 1;
                break;
            }
            b => {
                raw.push(b);
                i += 1;
            }
        }
    }
    let quoted = [&b"\""[..], &raw, &b"\""[..]].concat();
    let s = serde_json::from_slice::<String>(&quoted)
        .unwrap_or_else(|_| String::from_utf8_lossy(&raw).into_owned());
    (s, i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Verdict;

    fn tool(parameters: Value) -> ToolDef {
        ToolDef {
            parameters: Some(parameters),
            ..crate::case::baseline()
        }
    }

    fn params() -> GeminiProtoSnapshot {
        GeminiProtoSnapshot::parameters()
    }

    fn json_schema() -> GeminiProtoSnapshot {
        GeminiProtoSnapshot::parameters_json_schema()
    }

    #[test]
    fn the_baseline_parses_on_both_routes() {
        for e in [params(), json_schema()] {
            let a = e.check(&[crate::case::baseline()], &[]);
            assert_eq!(a.verdict, Verdict::Accepted, "{}: {a:?}", e.id());
            assert_eq!(a.input, e.body(&[crate::case::baseline()]));
        }
    }

    #[test]
    fn additional_properties_is_an_unknown_field_in_parameters() {
        let s = json!({"type":"object","properties":{"value":{"type":"string"}},"additionalProperties":false});
        let a = params().check(&[tool(s.clone())], &[]);
        assert_eq!(a.verdict, Verdict::Rejected);
        let err = a.error.unwrap();
        assert!(
            err.starts_with("unrecognized field name 'additionalProperties' at line 1 column "),
            "{err}"
        );
        assert_eq!(
            a.path.as_deref(),
            Some("/tools/0/functionDeclarations/0/parameters/additionalProperties")
        );
        let a = json_schema().check(&[tool(s)], &[]);
        assert_eq!(a.verdict, Verdict::Accepted);
    }

    #[test]
    fn lowercase_types_are_accepted_but_unknown_spellings_are_not() {
        let a = params().check(&[crate::case::baseline()], &[]);
        let body: Value = serde_json::from_slice(&a.input).unwrap();
        assert_eq!(
            body["tools"][0]["functionDeclarations"][0]["parameters"]["type"],
            "OBJECT"
        );
        let s = json!({"type":"object","properties":{"value":{"type":"dict"}}});
        let a = params().check(&[tool(s)], &[]);
        assert_eq!(a.verdict, Verdict::Rejected);
        assert!(
            a.error
                .as_deref()
                .unwrap()
                .starts_with("unrecognized enum value 'dict' at line 1 column "),
            "{a:?}"
        );
        assert_eq!(
            a.path.as_deref(),
            Some("/tools/0/functionDeclarations/0/parameters/properties/value/type")
        );
    }

    #[test]
    fn a_property_named_type_is_not_normalised() {
        let s = json!({"type":"object","properties":{"type":{"type":"string","enum":["object"]}},"example":{"type":"object"}});
        let mut normalised = s.clone();
        uppercase_type_names(&mut normalised);
        assert_eq!(
            normalised,
            json!({"type":"OBJECT","properties":{"type":{"type":"STRING","enum":["object"]}},"example":{"type":"object"}})
        );
    }

    #[test]
    fn type_shape_errors_name_the_place() {
        let cases = [
            (
                json!({"type":"object","properties":{"value":{"type":"integer","enum":[1,2]}}}),
                "invalid type: integer `1`, expected a string",
                "/tools/0/functionDeclarations/0/parameters/properties/value/enum/0",
            ),
            (
                json!({"type":"object","properties":{"value":{"type":["string","null"]}}}),
                "invalid type: sequence, expected a string or integer",
                "/tools/0/functionDeclarations/0/parameters/properties/value/type",
            ),
            (
                json!({"type":"object","properties":{"value":true}}),
                "invalid type: boolean `true`, expected a map",
                "/tools/0/functionDeclarations/0/parameters/properties/value",
            ),
        ];
        for (s, text, path) in cases {
            let a = params().check(&[tool(s)], &[]);
            assert_eq!(a.verdict, Verdict::Rejected);
            let err = a.error.unwrap();
            assert!(err.starts_with(text), "{err}");
            assert_eq!(a.path.as_deref(), Some(path), "{err}");
        }
    }

    fn nested(n: usize) -> Value {
        let mut inner = json!({"type": "string"});
        for _ in 1..n {
            inner = json!({"type":"object","properties":{"value": inner}});
        }
        inner
    }

    #[test]
    fn value_nesting_hits_protobufs_limit_but_typed_schema_does_not() {
        // Measured: each nested schema object costs several message levels inside a `Value`;
        // 25 levels fit in prost's limit of 100, 26 do not.
        let a = json_schema().check(&[tool(nested(25))], &[]);
        assert_eq!(a.verdict, Verdict::Accepted, "{:?}", a.error);
        let a = json_schema().check(&[tool(nested(26))], &[]);
        assert_eq!(a.verdict, Verdict::Rejected);
        let err = a.error.unwrap();
        assert!(
            err.starts_with(
                "error decoding: failed to decode Protobuf message: recursion limit reached at line 1 column "
            ),
            "{err}"
        );
        // prost-reflect raises it once the whole declaration has been read.
        assert_eq!(a.path.as_deref(), Some("/tools/0/functionDeclarations/0"));
        let a = params().check(&[tool(nested(100))], &[]);
        assert_eq!(a.verdict, Verdict::Accepted, "{:?}", a.error);
    }

    #[test]
    fn a_tool_without_parameters_parses() {
        let mut t = crate::case::baseline();
        t.parameters = None;
        let a = params().check(&[t], &[]);
        assert_eq!(a.verdict, Verdict::Accepted);
        let body: Value = serde_json::from_slice(&a.input).unwrap();
        assert!(
            body["tools"][0]["functionDeclarations"][0]
                .get("parameters")
                .is_none()
        );
    }

    #[test]
    fn pointer_at_follows_members_and_elements() {
        let text = br#"{"a":[1,{"b/c":"x","d":[true]}],"e":2}"#;
        let at = |needle: &str| {
            let pos = text
                .windows(needle.len())
                .position(|w| w == needle.as_bytes());
            pointer_at(text, pos.unwrap() + needle.len())
        };
        assert_eq!(at(r#""b/c""#), "/a/1/b~1c");
        assert_eq!(at(r#""x""#), "/a/1/b~1c");
        assert_eq!(at("[true"), "/a/1/d/0");
        assert_eq!(at(r#""e""#), "/e");
        assert_eq!(pointer_at(text, 0), "");
    }
}
