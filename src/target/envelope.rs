//! The request envelope every offline model checks before it reads a tool's schema: the body
//! is a JSON object, it carries the conversation (`messages`, `contents`, `input`), its tool
//! list is an array of objects and every function tool has a name. Real services refuse such
//! a body with their malformed-request error (400, Mistral's pydantic 422), never 200.
//!
//! **Inferred text.** No provider documents the exact text of these refusals (`evidence/
//! PROVIDERS.md` gives only the shapes of their errors), so every model wraps the generic
//! message of [`Malformed::message`] in its provider's documented error shape. The message
//! says it is the emulator's (`emulated:`) so that nobody mistakes it for a provider's words.

use crate::json::kind;
use serde_json::Value;

/// Where one request format keeps what [`check`] looks at.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// The conversation field, as a JSON Pointer (`/messages`, `/generateContentRequest/contents`).
    pub conversation: &'static str,
    /// The tool list, as a JSON Pointer (`/tools`, `/toolConfig/tools`).
    pub tools: &'static str,
    /// A function tool's name within one tool (`/function/name`, `/name`, `/toolSpec/name`).
    pub name: &'static str,
    /// Whether a tool is a function tool (one that must be named): a list may also hold
    /// other kinds of tool (Responses' `web_search`, Bedrock's `cachePoint`).
    pub is_function: fn(&Value) -> bool,
}

/// [`Layout::is_function`] for lists that hold only function tools.
pub fn every_tool(_: &Value) -> bool {
    true
}

/// [`Layout::is_function`] for lists whose tools say their kind in `type`, `function` when
/// absent (OpenAI Responses).
pub fn typed_function(t: &Value) -> bool {
    t.get("type")
        .and_then(Value::as_str)
        .is_none_or(|k| k == "function")
}

impl Layout {
    /// OpenAI Chat Completions and the services that copy it.
    pub const CHAT: Layout = Layout {
        conversation: "/messages",
        tools: "/tools",
        name: "/function/name",
        is_function: every_tool,
    };
}

/// What is wrong with a request's envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Malformed {
    /// The body is JSON but not an object.
    NotObject(&'static str),
    /// A required field is absent.
    Missing(String),
    /// The tool list is not an array.
    ToolsNotArray(String),
    /// One tool is not an object.
    ToolNotObject(String),
    /// A function tool has no name (or a name that is not a string).
    NameMissing(String),
}

impl Malformed {
    /// The generic, emulator-labelled message (see the module docs: the text is inferred).
    pub fn message(&self) -> String {
        match self {
            Malformed::NotObject(kind) => {
                format!("emulated: the request body must be a JSON object, got a JSON {kind}")
            }
            Malformed::Missing(f) => format!("emulated: missing required field `{f}`"),
            Malformed::ToolsNotArray(f) => format!("emulated: `{f}` must be an array"),
            Malformed::ToolNotObject(f) => format!("emulated: `{f}` must be an object"),
            Malformed::NameMissing(f) => format!("emulated: missing required field `{f}`"),
        }
    }

    /// The field it is about, in the dotted form OpenAI's `param` uses (`tools[0].function.name`).
    pub fn param(&self) -> Option<&str> {
        match self {
            Malformed::NotObject(_) => None,
            Malformed::Missing(f)
            | Malformed::ToolsNotArray(f)
            | Malformed::ToolNotObject(f)
            | Malformed::NameMissing(f) => Some(f),
        }
    }
}

/// `/a/b` as `a.b`.
fn dotted(pointer: &str) -> String {
    pointer.trim_start_matches('/').replace('/', ".")
}

/// The first thing wrong with `body`'s envelope under `layout`, if any. A body without a tool
/// list is fine (tools are optional everywhere).
pub fn check(body: &Value, layout: &Layout) -> Result<(), Malformed> {
    if !body.is_object() {
        return Err(Malformed::NotObject(kind(body)));
    }
    if body.pointer(layout.conversation).is_none() {
        return Err(Malformed::Missing(dotted(layout.conversation)));
    }
    let Some(tools) = body.pointer(layout.tools).filter(|t| !t.is_null()) else {
        return Ok(());
    };
    let list = dotted(layout.tools);
    let Some(tools) = tools.as_array() else {
        return Err(Malformed::ToolsNotArray(list));
    };
    for (i, t) in tools.iter().enumerate() {
        if !t.is_object() {
            return Err(Malformed::ToolNotObject(format!("{list}[{i}]")));
        }
        if !(layout.is_function)(t) {
            continue;
        }
        if !t.pointer(layout.name).is_some_and(Value::is_string) {
            return Err(Malformed::NameMissing(format!(
                "{list}[{i}].{}",
                dotted(layout.name)
            )));
        }
    }
    Ok(())
}

/// Why a body was refused before its tools were read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Not JSON: the parser's text.
    Syntax(String),
    /// JSON, but not the request's envelope.
    Envelope(Malformed),
}

impl Refused {
    /// The parser's text, or the envelope problem's generic message.
    pub fn message(&self) -> String {
        match self {
            Refused::Syntax(e) => e.clone(),
            Refused::Envelope(m) => m.message(),
        }
    }
}

/// Parses a request body and checks its envelope under `layout`.
pub fn parse(body: &[u8], layout: &Layout) -> Result<Value, Refused> {
    let v = super::wire::parse_body(body).map_err(Refused::Syntax)?;
    check(&v, layout).map_err(Refused::Envelope)?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_problem_is_named_with_its_field() {
        let c = |v: Value| check(&v, &Layout::CHAT);
        assert_eq!(c(json!([1])), Err(Malformed::NotObject("array")));
        assert_eq!(c(json!({})), Err(Malformed::Missing("messages".into())));
        assert_eq!(c(json!({"messages": []})), Ok(()));
        assert_eq!(
            c(json!({"messages": [], "tools": {}})),
            Err(Malformed::ToolsNotArray("tools".into()))
        );
        assert_eq!(
            c(json!({"messages": [], "tools": [3]})),
            Err(Malformed::ToolNotObject("tools[0]".into()))
        );
        let e = c(json!({"messages": [], "tools": [{"type": "function", "function": {}}]}));
        assert_eq!(
            e,
            Err(Malformed::NameMissing("tools[0].function.name".into()))
        );
        assert!(e.unwrap_err().message().starts_with("emulated: "));
        let responses = Layout {
            conversation: "/input",
            tools: "/tools",
            name: "/name",
            is_function: typed_function,
        };
        // A tool of another kind (no function marker) needs no name.
        assert_eq!(
            check(
                &json!({"input": "hi", "tools": [{"type": "web_search"}]}),
                &responses
            ),
            Ok(())
        );
    }
}
