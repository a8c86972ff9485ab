//! Whole tool-call objects pasted where the arguments go. Users paste what the provider
//! returned (`{"type":"tool_use","name":…,"input":{…}}`), and checked as the arguments such a
//! call is a handful of undeclared keys, which an open schema calls valid: the arguments inside
//! were never checked. A value none of whose keys is a declared property is read as a call when
//! it fits a shape. One with declared keys is read as a call only when it is that shape exactly
//! (every key one the shape has, its `type` and payload of the shape's JSON types) and one of its
//! keys is still undeclared: tools taking `name` or `type` arguments (GitHub's
//! `create_repository`, `issue_write`) are common, and a call to them must not pass for its own
//! arguments. A value whose keys are all declared is the arguments, so a tool that really takes
//! `name` and `input` arguments is not misread.

use std::collections::HashSet;

use serde_json::{Map, Value};

/// A tool-call envelope read around the arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    /// Which provider's shape was read (`Anthropic tool_use block`).
    pub shape: &'static str,
    /// The tool name the call names, when it names one as a string.
    pub name: Option<String>,
    /// JSON Pointer of the arguments in the envelope (`/function/arguments`).
    pub pointer: String,
    /// The arguments text as sent: the member's text, or the text inside it when it is a
    /// JSON string (OpenAI's form), so that numbers are quoted as written.
    pub text: String,
}

/// Why a call cannot be read as one envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ambiguous {
    /// The shapes the call could be read as.
    pub shapes: Vec<&'static str>,
}

/// One shape: the member holding the arguments, and what else marks it.
struct Shape {
    name: &'static str,
    /// Keys from the top-level object down to the object holding `name` and the arguments.
    wrapper: Option<&'static str>,
    /// The member holding the arguments.
    payload: &'static str,
    /// The `type` the shape carries, if it must carry one.
    kind: Option<&'static str>,
    /// The `type` the shape carries where it may leave it out (Chat Completions' `function`,
    /// which a pasted call may lack): checked only when the value has declared keys.
    optional_kind: Option<&'static str>,
    /// Every top-level key the shape's call has, from the provider's reference (the SDKs'
    /// generated types: anthropic `ToolUseBlockParam`, openai `ResponseFunctionToolCall`): a
    /// value with declared keys is a call only when all its keys are among these.
    keys: &'static [&'static str],
    /// The JSON type the payload has in the shape (OpenAI's `arguments` are a string), checked
    /// when the value has declared keys.
    payload_type: Payload,
}

/// The JSON types a shape's payload may have.
#[derive(Clone, Copy)]
enum Payload {
    Object,
    String,
    ObjectOrString,
}

impl Payload {
    fn admits(self, value: &Value) -> bool {
        match self {
            Payload::Object => value.is_object(),
            Payload::String => value.is_string(),
            Payload::ObjectOrString => value.is_object() || value.is_string(),
        }
    }
}

/// In the order a message names them.
const SHAPES: &[Shape] = &[
    Shape {
        name: "OpenAI Chat Completions tool call",
        wrapper: Some("function"),
        payload: "arguments",
        kind: None,
        optional_kind: Some("function"),
        keys: &["id", "type", "function", "index"],
        payload_type: Payload::String,
    },
    Shape {
        name: "Gemini functionCall part",
        wrapper: Some("functionCall"),
        payload: "args",
        kind: None,
        optional_kind: None,
        keys: &["functionCall", "thoughtSignature", "thought"],
        payload_type: Payload::Object,
    },
    Shape {
        name: "OpenAI Responses function_call item",
        wrapper: None,
        payload: "arguments",
        kind: Some("function_call"),
        optional_kind: None,
        keys: &["type", "id", "call_id", "name", "arguments", "status"],
        payload_type: Payload::String,
    },
    Shape {
        name: "Anthropic tool_use block",
        wrapper: None,
        payload: "input",
        kind: Some("tool_use"),
        optional_kind: None,
        keys: &[
            "type",
            "id",
            "name",
            "input",
            "cache_control",
            "caller",
            "toolset_name",
        ],
        payload_type: Payload::Object,
    },
    Shape {
        name: "Gemini FunctionCall",
        wrapper: None,
        payload: "args",
        kind: None,
        optional_kind: None,
        keys: &["id", "name", "args"],
        payload_type: Payload::Object,
    },
    Shape {
        name: "{name, input} call",
        wrapper: None,
        payload: "input",
        kind: None,
        optional_kind: None,
        keys: &["name", "input"],
        payload_type: Payload::Object,
    },
    Shape {
        name: "{name, arguments} call",
        wrapper: None,
        payload: "arguments",
        kind: None,
        optional_kind: None,
        keys: &["name", "arguments"],
        payload_type: Payload::ObjectOrString,
    },
];

/// The envelope `call` (parsed from `text`) is, if it is one: `Ok(None)` when it is not (it is
/// then the arguments), `Err` when it fits more than one shape. `declared` are the schema's
/// top-level property names: a call using any of them as a key is arguments unless it is a
/// shape exactly and has a key left undeclared (see the module's comment).
pub fn read(text: &str, call: &Value, declared: &[&str]) -> Result<Option<Envelope>, Ambiguous> {
    let Some(top) = call.as_object() else {
        return Ok(None);
    };
    // A set: the arguments may have as many keys as the schema has properties.
    let declared: HashSet<&str> = declared.iter().copied().collect();
    let is_declared = |k: &String| declared.contains(k.as_str());
    let fits: Vec<&Shape> = if !top.keys().any(is_declared) {
        SHAPES.iter().filter(|s| fits(s, top)).collect()
    } else if top.keys().all(is_declared) {
        // Every key an argument: read as the arguments the tool declares.
        Vec::new()
    } else {
        SHAPES
            .iter()
            .filter(|s| fits(s, top) && exactly(s, top))
            .collect()
    };
    // A specific shape (marked by its wrapper or `type`) implies the generic ones it also
    // fits (`{name, arguments}`); only two specific ones, or two payloads, are ambiguous.
    let specific: Vec<&&Shape> = fits
        .iter()
        .filter(|s| s.wrapper.is_some() || s.kind.is_some())
        .collect();
    let shape = match (specific.as_slice(), fits.as_slice()) {
        ([one], _) => **one,
        ([], [one]) => *one,
        ([], []) => return Ok(None),
        ([], _) => {
            return Err(Ambiguous {
                shapes: fits.iter().map(|s| s.name).collect(),
            });
        }
        (specific, _) => {
            return Err(Ambiguous {
                shapes: specific.iter().map(|s| s.name).collect(),
            });
        }
    };
    let (holder, holder_text, mut pointer) = match shape.wrapper {
        Some(w) => {
            let inner = top.get(w).and_then(Value::as_object);
            let span = member_text(text, w);
            match (inner, span) {
                (Some(inner), Some(span)) => (inner, span, format!("/{w}")),
                _ => return Ok(None),
            }
        }
        None => (top, text, String::new()),
    };
    let Some(payload_text) = member_text(holder_text, shape.payload) else {
        return Ok(None);
    };
    pointer.push('/');
    pointer.push_str(shape.payload);
    let text = match holder.get(shape.payload) {
        // OpenAI's form: the arguments are the text inside the string.
        Some(Value::String(inner)) => inner.clone(),
        _ => payload_text.to_string(),
    };
    Ok(Some(Envelope {
        shape: shape.name,
        name: holder
            .get("name")
            .and_then(Value::as_str)
            .map(str::to_string),
        pointer,
        text,
    }))
}

fn fits(shape: &Shape, top: &Map<String, Value>) -> bool {
    if let Some(kind) = shape.kind
        && top.get("type").and_then(Value::as_str) != Some(kind)
    {
        return false;
    }
    // A name is what makes `{name, args}` a call rather than arguments named `args`.
    holder(shape, top).is_some_and(|h| {
        h.get("name").is_some_and(Value::is_string) && h.contains_key(shape.payload)
    })
}

/// The object of `top` that holds the call's name and payload: `top` itself, or its
/// `shape.wrapper` member when the shape has one (`None` when that is not an object).
fn holder<'m>(shape: &Shape, top: &'m Map<String, Value>) -> Option<&'m Map<String, Value>> {
    match shape.wrapper {
        Some(w) => top.get(w).and_then(Value::as_object),
        None => Some(top),
    }
}

/// Whether `top`, which [`fits`] `shape`, is that shape exactly: no key the shape lacks, a
/// `type` (when the shape may carry one) of the shape's own value, and the payload of the
/// shape's JSON type.
fn exactly(shape: &Shape, top: &Map<String, Value>) -> bool {
    if !top.keys().all(|k| shape.keys.contains(&k.as_str())) {
        return false;
    }
    if let Some(kind) = shape.optional_kind
        && top.get("type").is_some_and(|t| t.as_str() != Some(kind))
    {
        return false;
    }
    holder(shape, top)
        .and_then(|h| h.get(shape.payload))
        .is_some_and(|p| shape.payload_type.admits(p))
}

/// The text of the value of the top-level member `key` of the JSON object `text` (the last
/// one, as serde_json keeps the last of a key written twice); `None` when `text` is not an
/// object or has no such member.
fn member_text<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, text.find('{')? + 1);
    let mut found = None;
    loop {
        if bytes.get(at) == Some(&b'}') {
            return found;
        }
        let (name, after) = next_value::<String>(text, at)?;
        at = skip_space(bytes, after);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        let start = skip_space(bytes, at + 1);
        let (_, end) = next_value::<serde::de::IgnoredAny>(text, start)?;
        if name == key {
            found = Some(&text[start..end]);
        }
        at = skip_space(bytes, end);
        match bytes.get(at) {
            Some(b',') => at = skip_space(bytes, at + 1),
            Some(b'}') => return found,
            _ => return None,
        }
    }
}

/// One JSON value of type `T` starting at `at` in `text`, and the offset just past it.
fn next_value<T: serde::de::DeserializeOwned>(text: &str, at: usize) -> Option<(T, usize)> {
    let rest = text.get(at..)?;
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<T>();
    let value = stream.next()?.ok()?;
    Some((value, at + stream.byte_offset()))
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str, declared: &[&str]) -> Result<Option<Envelope>, Ambiguous> {
        read(text, &serde_json::from_str(text).unwrap(), declared)
    }

    #[test]
    fn each_providers_call_is_read_with_its_arguments_as_written() {
        let cases = [
            (
                r#"{"id":"call_1","type":"function","function":{"name":"s","arguments":"{\"limit\":1e3}"}}"#,
                "OpenAI Chat Completions tool call",
                "/function/arguments",
                r#"{"limit":1e3}"#,
            ),
            (
                r#"{"type":"tool_use","id":"toolu_1","name":"s","input":{"limit": 1e3}}"#,
                "Anthropic tool_use block",
                "/input",
                r#"{"limit": 1e3}"#,
            ),
            (
                r#"{"functionCall":{"name":"s","args":{"limit":"ten"}}}"#,
                "Gemini functionCall part",
                "/functionCall/args",
                r#"{"limit":"ten"}"#,
            ),
            (
                r#"{"name":"s","args":{"limit":"ten"}}"#,
                "Gemini FunctionCall",
                "/args",
                r#"{"limit":"ten"}"#,
            ),
            (
                r#"{ "name" : "s" , "arguments" : { "limit" : "ten" } }"#,
                "{name, arguments} call",
                "/arguments",
                r#"{ "limit" : "ten" }"#,
            ),
            (
                r#"{"type":"function_call","call_id":"c","name":"s","arguments":"{\"limit\":\"ten\"}"}"#,
                "OpenAI Responses function_call item",
                "/arguments",
                r#"{"limit":"ten"}"#,
            ),
        ];
        for (text, shape, pointer, args) in cases {
            let e = read_text(text, &["limit"]).unwrap().expect(text);
            assert_eq!(
                (
                    e.shape,
                    e.name.as_deref(),
                    e.pointer.as_str(),
                    e.text.as_str()
                ),
                (shape, Some("s"), pointer, args),
                "{text}"
            );
        }
    }

    #[test]
    fn declared_keys_and_nameless_objects_are_arguments() {
        let call = r#"{"name":"s","input":{"a":1}}"#;
        assert_eq!(read_text(call, &["name", "input"]), Ok(None));
        assert_eq!(read_text(call, &["input", "name", "limit"]), Ok(None));
        assert_eq!(read_text(r#"{"input":{"a":1}}"#, &[]), Ok(None));
        assert_eq!(read_text(r#"{"name":"s"}"#, &[]), Ok(None));
        assert_eq!(read_text(r#"[1]"#, &[]), Ok(None));
    }

    #[test]
    fn a_call_to_a_tool_declaring_its_keys_is_read_when_some_key_is_not_declared() {
        // github-mcp-server's create_repository declares `name`, issue_write `type`.
        let repo = ["autoInit", "description", "name", "organization", "private"];
        let cases = [
            (
                r#"{"type":"tool_use","id":"toolu_1","name":"create_repository","input":{"private":"yes"}}"#,
                &repo[..],
                "Anthropic tool_use block",
                r#"{"private":"yes"}"#,
            ),
            (
                r#"{"type":"function_call","call_id":"c1","name":"create_repository","arguments":"{\"private\":\"yes\"}"}"#,
                &repo[..],
                "OpenAI Responses function_call item",
                r#"{"private":"yes"}"#,
            ),
            (
                r#"{"id":"call_1","type":"function","function":{"name":"issue_write","arguments":"{}"}}"#,
                &["method", "owner", "repo", "type"][..],
                "OpenAI Chat Completions tool call",
                "{}",
            ),
            (
                r#"{"name":"s","input":{"a":1}}"#,
                &["name"][..],
                "{name, input} call",
                r#"{"a":1}"#,
            ),
        ];
        for (text, declared, shape, args) in cases {
            let e = read_text(text, declared).unwrap().expect(text);
            assert_eq!((e.shape, e.text.as_str()), (shape, args), "{text}");
        }
    }

    #[test]
    fn with_declared_keys_only_an_exact_shape_is_a_call() {
        let declared = ["name", "type", "id"];
        for text in [
            // A key the shape lacks.
            r#"{"type":"tool_use","name":"s","input":{},"limit":1}"#,
            r#"{"name":"s","input":{},"id":"x"}"#,
            // The payload of another JSON type than the shape's.
            r#"{"type":"tool_use","name":"s","input":"{}"}"#,
            r#"{"type":"function_call","name":"s","arguments":{}}"#,
            r#"{"id":"x","type":"function","function":{"name":"s","arguments":{}}}"#,
            // Chat Completions' `type` is "function" when sent.
            r#"{"id":"x","type":"tool","function":{"name":"s","arguments":"{}"}}"#,
            // Every key declared.
            r#"{"type":"x","name":"s","id":"y"}"#,
        ] {
            assert_eq!(read_text(text, &declared), Ok(None), "{text}");
        }
        // Without declared keys the same values are read as before.
        let open = read_text(r#"{"type":"function_call","name":"s","arguments":{}}"#, &[]);
        assert_eq!(
            open.unwrap().map(|e| e.shape),
            Some("OpenAI Responses function_call item")
        );
    }

    #[test]
    fn two_payloads_are_ambiguous() {
        let both = read_text(r#"{"name":"s","args":{},"arguments":{}}"#, &[]).unwrap_err();
        assert_eq!(
            both.shapes,
            ["Gemini FunctionCall", "{name, arguments} call"]
        );
        let two = read_text(
            r#"{"type":"tool_use","name":"s","input":{},"function":{"name":"s","arguments":"{}"}}"#,
            &[],
        )
        .unwrap_err();
        assert_eq!(
            two.shapes,
            [
                "OpenAI Chat Completions tool call",
                "Anthropic tool_use block"
            ]
        );
    }
}
