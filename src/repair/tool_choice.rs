//! The places of a request body that name one of its tools, outside the tool list: OpenAI
//! Chat's `tool_choice.function.name` (and its legacy `function_call.name`), a Responses or Anthropic `tool_choice.name`, Gemini's
//! `toolConfig.functionCallingConfig.allowedFunctionNames` entries and Bedrock's
//! `toolConfig.toolChoice.tool.name`. The shapes are those of each API's request reference:
//! OpenAI's and Anthropic's `tool_choice`; Google's `FunctionCallingConfig`, whose names
//! "should match \[FunctionDeclaration.name\]"
//! (<https://cloud.google.com/vertex-ai/docs/reference/rest/v1/ToolConfig>); Bedrock's
//! `SpecificToolChoice`, `{"tool": {"name": ..}}`
//! (<https://docs.aws.amazon.com/sdk-for-python/v1/reference/clients/bedrock-runtime/structures/SpecificToolChoice/>).
//!
//! The conversation's earlier calls name tools too ([`history_places`]): a `tool_use` block,
//! a `tool_calls` entry, a Gemini `functionCall` part and the like.
//!
//! When repair renames a tool, a reference to its old name would name no tool, so it is
//! rewritten to the new name ([`follow_renames`]) and said as a change of that tool. A
//! reference to a tool repair leaves out has no name to follow: it is left as written and
//! reported ([`Dangling`]), since any other choice (another tool, `auto`) would be repair
//! deciding what the request asks for.

use serde::Serialize;
use serde_json::Value;

use super::envelope::Placed;
use super::{Change, Outcome};
use crate::json::push_token;

/// A reference to a tool that repair left out, left as written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dangling {
    /// JSON Pointer of the reference in the document (or the JSON Lines line).
    pub pointer: String,
    /// The tool it names.
    pub tool: String,
}

/// What [`follow_renames`] did to one document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Followed {
    /// Each rewritten reference as a change of the renamed tool: the position of the tool in
    /// the `tools` given, and the change.
    pub changes: Vec<(usize, Change)>,
    /// References to tools left out.
    pub dangling: Vec<Dangling>,
}

/// Rewrites, in `doc` (a request body as repair writes it), every reference to a tool of
/// `tools` that repair renamed, and lists the references to tools it leaves out (refused and
/// not `keep`). A document that is no request body (a bare list of tools, one tool, a
/// schema) has no references and is left alone. A name written by some tool of `tools` (as
/// given, under any outcome but left out) is followed even if another tool of that name is
/// left out.
pub fn follow_renames(doc: &mut Value, tools: &[Placed<'_>], keep: bool) -> Followed {
    let mut out = Followed::default();
    let Some(request) = tools.iter().find_map(|t| request_pointer(t.schema_pointer)) else {
        return out;
    };
    let written = |t: &Placed<'_>| keep || t.repair.outcome != Outcome::Refused;
    for pointer in reference_places(doc.pointer(&request).unwrap_or(&Value::Null)) {
        let at = format!("{request}{pointer}");
        let Some(name) = doc.pointer(&at).and_then(Value::as_str).map(str::to_string) else {
            continue;
        };
        let given = |t: &Placed<'_>| t.repair.name == name;
        if let Some((i, t)) = tools
            .iter()
            .enumerate()
            .find(|(_, t)| given(t) && written(t))
        {
            let Some(new) = t.repair.tool.name.as_deref().filter(|n| *n != name) else {
                continue;
            };
            let rule = t
                .repair
                .changes
                .iter()
                .find(|c| c.pointer.is_empty() && c.action.starts_with("renamed"))
                .map_or("name-invalid", |c| c.rule.as_str());
            out.changes.push((
                i,
                Change {
                    pointer: String::new(),
                    rule: rule.to_string(),
                    action: format!("wrote the new name `{new}` for `{name}` at {at}"),
                    emptied: false,
                    lost: None,
                },
            ));
            if let Some(slot) = doc.pointer_mut(&at) {
                *slot = Value::String(new.to_string());
            }
        } else if tools.iter().any(given) {
            out.dangling.push(Dangling {
                pointer: at,
                tool: name,
            });
        }
    }
    out
}

/// The request body holding the tool whose schema is at `schema_pointer`: the object whose
/// `tools` list holds it (Bedrock: the object holding `toolConfig`). `None` when no `tools`
/// list holds it (a list of tools, one tool, a schema, a corpus line).
fn request_pointer(schema_pointer: &str) -> Option<String> {
    let tokens: Vec<&str> = schema_pointer.split('/').skip(1).collect();
    // OpenAI Chat's legacy request lists its tools under `functions`.
    let at = tokens
        .iter()
        .position(|t| *t == "tools" || *t == "functions")?;
    let mut request = &tokens[..at];
    if request.last() == Some(&"toolConfig") {
        request = &request[..request.len() - 1];
    }
    Some(request.iter().map(|t| format!("/{t}")).collect())
}

/// The pointers, relative to `request`, of every tool name it holds outside its tool list.
fn reference_places(request: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(choice) = request.get("tool_choice") {
        if choice
            .pointer("/function/name")
            .is_some_and(Value::is_string)
        {
            // OpenAI Chat: {"type":"function","function":{"name"}}.
            out.push("/tool_choice/function/name".to_string());
        } else if choice.get("name").is_some_and(Value::is_string)
            && matches!(
                choice.get("type").and_then(Value::as_str),
                None | Some("function" | "tool")
            )
        {
            // Responses {"type":"function","name"}; Anthropic {"type":"tool","name"}.
            out.push("/tool_choice/name".to_string());
        }
    }
    // OpenAI Chat's legacy `function_call: {"name"}`, which names a tool of `functions` as
    // `tool_choice` does one of `tools` (`"auto"` and `"none"` name none).
    if request
        .pointer("/function_call/name")
        .is_some_and(Value::is_string)
    {
        out.push("/function_call/name".to_string());
    }
    // Gemini's REST API takes both spellings of its field names.
    for list in [
        "/toolConfig/functionCallingConfig/allowedFunctionNames",
        "/tool_config/function_calling_config/allowed_function_names",
    ] {
        if let Some(Value::Array(names)) = request.pointer(list) {
            out.extend((0..names.len()).map(|i| push_token(list, &i.to_string())));
        }
    }
    if request
        .pointer("/toolConfig/toolChoice/tool/name")
        .is_some_and(Value::is_string)
    {
        out.push("/toolConfig/toolChoice/tool/name".to_string());
    }
    history_places(request, &mut out);
    out
}

/// The places in `request`'s conversation that name a tool the model called earlier (trial
/// 71 D3: a renamed tool's earlier calls kept the old name, which no tool declares any more):
/// Anthropic's `tool_use` blocks and Bedrock's `toolUse` in `messages[].content[]`; OpenAI
/// Chat's `messages[].tool_calls[].function.name`, its legacy `function_call.name` and the
/// `name` of a `role: "function"` message; Responses' `function_call` items of `input`;
/// Gemini's `functionCall` and `functionResponse` parts of `contents[]` (both spellings).
fn history_places(request: &Value, out: &mut Vec<String>) {
    let is_name = |v: &Value, pointer: &str| v.pointer(pointer).is_some_and(Value::is_string);
    let typed = |v: &Value, kind: &str| v.get("type").and_then(Value::as_str) == Some(kind);
    for (i, message) in entries(request, "messages") {
        let at = format!("/messages/{i}");
        for (j, block) in entries(message, "content") {
            if typed(block, "tool_use") && is_name(block, "/name") {
                out.push(format!("{at}/content/{j}/name"));
            } else if is_name(block, "/toolUse/name") {
                out.push(format!("{at}/content/{j}/toolUse/name"));
            }
        }
        for (j, call) in entries(message, "tool_calls") {
            if is_name(call, "/function/name") {
                out.push(format!("{at}/tool_calls/{j}/function/name"));
            }
        }
        if is_name(message, "/function_call/name") {
            out.push(format!("{at}/function_call/name"));
        }
        if message.get("role").and_then(Value::as_str) == Some("function")
            && is_name(message, "/name")
        {
            out.push(format!("{at}/name"));
        }
    }
    for (i, item) in entries(request, "input") {
        if typed(item, "function_call") && is_name(item, "/name") {
            out.push(format!("/input/{i}/name"));
        }
    }
    for (i, content) in entries(request, "contents") {
        for (j, part) in entries(content, "parts") {
            for key in [
                "functionCall",
                "function_call",
                "functionResponse",
                "function_response",
            ] {
                if is_name(part, &format!("/{key}/name")) {
                    out.push(format!("/contents/{i}/parts/{j}/{key}/name"));
                }
            }
        }
    }
}

/// The entries of the list at `v[key]`, with their indexes; none where it is no list.
fn entries<'v>(v: &'v Value, key: &str) -> impl Iterator<Item = (usize, &'v Value)> {
    v.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::{Tool, ToolRepair};
    use serde_json::json;

    fn result(outcome: Outcome, given: &str, sent: &str) -> ToolRepair {
        ToolRepair {
            index: 0,
            line: None,
            number: 0,
            name: given.into(),
            outcome,
            changes: vec![],
            refusals: vec![],
            unverified: Default::default(),
            introduced: Default::default(),
            left_as_written: vec![],
            tool: Tool {
                name: Some(sent.into()),
                description: None,
                parameters: Some(json!({"type": "object"})),
                strict: None,
                strict_tool_use: None,
            },
        }
    }

    /// Follows `doc`'s references with one renamed tool (`a.b` → `a_b`), one refused (`gone`)
    /// and one unchanged (`same`), their schemas at `schemas`.
    fn follow(mut doc: Value, schemas: [&str; 3], keep: bool) -> (Value, Followed) {
        let renamed = result(Outcome::Repaired, "a.b", "a_b");
        let refused = result(Outcome::Refused, "gone", "gone");
        let same = result(Outcome::Unchanged, "same", "same");
        let tools = [
            Placed {
                schema_pointer: schemas[0],
                repair: &renamed,
            },
            Placed {
                schema_pointer: schemas[1],
                repair: &refused,
            },
            Placed {
                schema_pointer: schemas[2],
                repair: &same,
            },
        ];
        let followed = follow_renames(&mut doc, &tools, keep);
        (doc, followed)
    }

    fn said(f: &Followed) -> Vec<(usize, &str)> {
        f.changes
            .iter()
            .map(|(i, c)| (*i, c.action.as_str()))
            .collect()
    }

    #[test]
    fn openai_chat_tool_choice_follows_a_rename() {
        let doc =
            json!({"tools": [], "tool_choice": {"type": "function", "function": {"name": "a.b"}}});
        let at = [
            "/tools/0/function/parameters",
            "/tools/1/function/parameters",
            "/tools/2/function/parameters",
        ];
        let (out, f) = follow(doc, at, false);
        assert_eq!(out["tool_choice"]["function"]["name"], "a_b");
        assert_eq!(
            said(&f),
            [(
                0,
                "wrote the new name `a_b` for `a.b` at /tool_choice/function/name"
            )]
        );
        assert_eq!(f.changes[0].1.rule, "name-invalid");
        assert!(f.dangling.is_empty());
    }

    #[test]
    fn responses_and_anthropic_tool_choice_follow_a_rename_or_are_reported() {
        let at = [
            "/tools/0/parameters",
            "/tools/1/parameters",
            "/tools/2/parameters",
        ];
        let doc = json!({"tools": [], "tool_choice": {"type": "function", "name": "a.b"}});
        let (out, f) = follow(doc, at, false);
        assert_eq!(out["tool_choice"]["name"], "a_b");
        assert_eq!(
            said(&f),
            [(0, "wrote the new name `a_b` for `a.b` at /tool_choice/name")]
        );
        let at = [
            "/tools/0/input_schema",
            "/tools/1/input_schema",
            "/tools/2/input_schema",
        ];
        let doc =
            json!({"model": "m", "tools": [], "tool_choice": {"type": "tool", "name": "gone"}});
        let (out, f) = follow(doc.clone(), at, false);
        assert_eq!(
            out, doc,
            "a reference to a tool left out is left as written"
        );
        assert!(f.changes.is_empty());
        assert_eq!(
            f.dangling,
            [Dangling {
                pointer: "/tool_choice/name".into(),
                tool: "gone".into()
            }]
        );
        // Kept unchanged (`--keep-unrepairable`), the tool still has its name.
        let (_, f) = follow(doc, at, true);
        assert!(f.dangling.is_empty());
        // A choice naming no tool of the request, or another kind of choice, is not touched.
        let other = json!({"tools": [], "tool_choice": {"type": "tool", "name": "elsewhere"}});
        let (out, f) = follow(other.clone(), at, false);
        assert_eq!((out, f), (other, Followed::default()));
        let auto = json!({"tools": [], "tool_choice": {"type": "mcp", "name": "a.b"}});
        let (out, f) = follow(auto.clone(), at, false);
        assert_eq!((out, f), (auto, Followed::default()));
    }

    /// Trial 71 D3: the conversation's earlier calls of a renamed tool kept its old name.
    /// Every shape of call history follows the rename; a call of a tool left out is reported;
    /// a text block or a call of another tool is not touched.
    #[test]
    fn earlier_calls_in_the_conversation_follow_a_rename() {
        let at = |head: &str| [0, 1, 2].map(|i| format!("{head}/{i}/parameters"));
        let follow_at = |doc: Value, head: &str| {
            let at = at(head);
            follow(doc, [&at[0], &at[1], &at[2]], false)
        };
        // Anthropic tool_use blocks; a text block naming the tool is prose.
        let doc = json!({"tools": [], "messages": [
            {"role": "user", "content": [{"type": "text", "text": "a.b"}]},
            {"role": "assistant", "content": [
                {"type": "text", "name": "a.b"},
                {"type": "tool_use", "id": "t1", "name": "a.b", "input": {}},
                {"type": "tool_use", "id": "t2", "name": "gone", "input": {}},
                {"type": "tool_use", "id": "t3", "name": "same", "input": {}}]}]});
        let (out, f) = follow_at(doc, "/tools");
        assert_eq!(out["messages"][1]["content"][1]["name"], "a_b");
        assert_eq!(out["messages"][1]["content"][0]["name"], "a.b");
        assert_eq!(
            said(&f),
            [(
                0,
                "wrote the new name `a_b` for `a.b` at /messages/1/content/1/name"
            )]
        );
        assert_eq!(
            f.dangling,
            [Dangling {
                pointer: "/messages/1/content/2/name".into(),
                tool: "gone".into()
            }]
        );
        // OpenAI Chat: tool_calls, the legacy function_call and a `function` message.
        let doc = json!({"tools": [], "messages": [
            {"role": "assistant", "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "a.b", "arguments": "{}"}}]},
            {"role": "assistant", "function_call": {"name": "a.b", "arguments": "{}"}},
            {"role": "function", "name": "a.b", "content": "ok"},
            {"role": "user", "name": "a.b", "content": "a user called a.b"}]});
        let (out, f) = follow_at(doc, "/tools");
        assert_eq!(
            out["messages"][0]["tool_calls"][0]["function"]["name"],
            "a_b"
        );
        assert_eq!(out["messages"][1]["function_call"]["name"], "a_b");
        assert_eq!(out["messages"][2]["name"], "a_b");
        assert_eq!(
            out["messages"][3]["name"], "a.b",
            "a user's name is no tool's"
        );
        assert_eq!(f.changes.len(), 3);
        // Responses: function_call items of `input`.
        let doc = json!({"tools": [], "input": [
            {"type": "message", "role": "user", "content": "hi"},
            {"type": "function_call", "call_id": "c1", "name": "a.b", "arguments": "{}"}]});
        let (out, f) = follow_at(doc, "/tools");
        assert_eq!(out["input"][1]["name"], "a_b");
        assert_eq!(f.changes.len(), 1);
        // Gemini: functionCall and functionResponse parts, in both spellings.
        let doc = json!({"tools": [], "contents": [
            {"role": "model", "parts": [{"functionCall": {"name": "a.b", "args": {}}}]},
            {"role": "user", "parts": [{"function_response": {"name": "a.b", "response": {}}}]}]});
        let (out, f) = follow_at(doc, "/tools/0/functionDeclarations");
        assert_eq!(
            out["contents"][0]["parts"][0]["functionCall"]["name"],
            "a_b"
        );
        assert_eq!(
            out["contents"][1]["parts"][0]["function_response"]["name"],
            "a_b"
        );
        assert_eq!(f.changes.len(), 2);
        // Bedrock: toolUse blocks.
        let doc = json!({"toolConfig": {"tools": []}, "messages": [
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "u1", "name": "a.b", "input": {}}}]}]});
        let (out, f) = follow_at(doc, "/toolConfig/tools");
        assert_eq!(out["messages"][0]["content"][0]["toolUse"]["name"], "a_b");
        assert_eq!(f.changes.len(), 1);
    }

    #[test]
    fn gemini_allowed_function_names_follow_renames_each() {
        let at = [
            "/tools/0/functionDeclarations/0/parameters",
            "/tools/0/functionDeclarations/1/parameters",
            "/tools/1/functionDeclarations/0/parameters",
        ];
        let doc = json!({"tools": [], "toolConfig": {"functionCallingConfig": {
            "mode": "ANY", "allowedFunctionNames": ["same", "a.b", "gone"]}}});
        let (out, f) = follow(doc, at, false);
        assert_eq!(
            out["toolConfig"]["functionCallingConfig"]["allowedFunctionNames"],
            json!(["same", "a_b", "gone"])
        );
        assert_eq!(
            said(&f),
            [(
                0,
                "wrote the new name `a_b` for `a.b` at \
                 /toolConfig/functionCallingConfig/allowedFunctionNames/1"
            )]
        );
        assert_eq!(
            f.dangling,
            [Dangling {
                pointer: "/toolConfig/functionCallingConfig/allowedFunctionNames/2".into(),
                tool: "gone".into()
            }]
        );
        // Inside a `generateContentRequest` wrapping, in the snake_case spelling.
        let at = at.map(|p| format!("/generateContentRequest{p}"));
        let doc = json!({"generateContentRequest": {"tools": [], "tool_config": {
            "function_calling_config": {"allowed_function_names": ["a.b"]}}}});
        let (out, f) = follow(doc, [&at[0], &at[1], &at[2]], false);
        assert_eq!(
            out.pointer("/generateContentRequest/tool_config/function_calling_config/allowed_function_names/0"),
            Some(&json!("a_b"))
        );
        assert_eq!(f.changes.len(), 1);
    }

    #[test]
    fn bedrock_tool_choice_follows_a_rename() {
        let at = [
            "/toolConfig/tools/0/toolSpec/inputSchema/json",
            "/toolConfig/tools/1/toolSpec/inputSchema/json",
            "/toolConfig/tools/2/toolSpec/inputSchema/json",
        ];
        let doc = json!({"toolConfig": {"tools": [], "toolChoice": {"tool": {"name": "a.b"}}}});
        let (out, f) = follow(doc, at, false);
        assert_eq!(out["toolConfig"]["toolChoice"]["tool"]["name"], "a_b");
        assert_eq!(
            said(&f),
            [(
                0,
                "wrote the new name `a_b` for `a.b` at /toolConfig/toolChoice/tool/name"
            )]
        );
    }

    #[test]
    fn a_document_that_is_no_request_has_no_references() {
        let at = ["/0/input_schema", "/1/input_schema", "/2/input_schema"];
        let doc = json!([{"name": "a.b", "tool_choice": {"name": "a.b"}}]);
        let (out, f) = follow(doc.clone(), at, false);
        assert_eq!((out, f), (doc, Followed::default()));
    }
}
