//! Unit tests for explain: one per template family, with and without the request.

use super::*;
use serde_json::json;

thread_local! {
    /// Bytes of error text this thread's [`explain`] calls gave the templates to read.
    pub(super) static READ_BYTES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn gemini_request() -> Value {
    json!({"generateContentRequest": {"model": "models/m", "tools": [
        {"functionDeclarations": [
            {"name": "a", "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}},
            {"name": "search", "parameters": {"type": "object", "properties": {
                "query": {"type": "string"},
                "mode": {"anyOf": [{"type": "string"}, {"const": "fast"}]},
                "type": {"type": "string", "default": "x"}
            }}}
        ]},
        {"functionDeclarations": [
            {"name": "later", "parameters": {"type": "object", "properties": {"n": {"type": ["integer", "null"]}}}}
        ]}
    ]}})
}

#[test]
fn gemini_built_in_entries_take_no_tool_number_as_in_check() {
    let r = json!({"tools":[
        {"googleSearch":{}},
        {"functionDeclarations":[
            {"name":"a","parameters":{"type":"object","properties":{"x":{"type":"string"}}}},
            {"name":"b","parameters":{"type":"object","properties":{"deliverables":{"type":"array"}}}}
        ]}
    ]});
    let text = "* GenerateContentRequest.tools[1].function_declarations[1].parameters.properties[deliverables].items: missing field.";
    let e = &explain(Some(&r), text, None)[0];
    assert_eq!((e.tool_index, e.tool.as_deref()), (Some(1), Some("b")));
    // `check` numbers the same request's tools the same way.
    let set = crate::input::from_value(std::path::Path::new("r.json"), r.clone()).unwrap();
    let b = set
        .tools
        .iter()
        .find(|t| t.name.as_deref() == Some("b"))
        .unwrap();
    assert_eq!(b.index, 1);
}

#[test]
fn request_tools_flatten_gemini_groups_in_order() {
    let r = gemini_request();
    let tools = request_tools(&r);
    let got: Vec<(usize, usize, usize, Option<&str>)> = tools
        .iter()
        .map(|t| (t.index, t.group, t.position, t.name))
        .collect();
    assert_eq!(
        got,
        [
            (0, 0, 0, Some("a")),
            (1, 0, 1, Some("search")),
            (2, 1, 0, Some("later"))
        ]
    );
}

#[test]
fn gemini_positional_index_becomes_the_property_name() {
    let body = r#"{"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[1].parameters.properties[1].value.any_of[1]': Cannot find field.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"tools[0].function_declarations[1].parameters.properties[1].value.any_of[1]","description":"Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[1].parameters.properties[1].value.any_of[1]': Cannot find field."}]}]}}"#;
    let r = gemini_request();
    let got = explain(Some(&r), body, Some("gemini/v1beta/parameters"));
    assert_eq!(got.len(), 1, "{got:#?}");
    let e = &got[0];
    assert_eq!(e.tool_index, Some(1));
    assert_eq!(e.tool.as_deref(), Some("search"));
    assert_eq!(e.pointer.as_deref(), Some("/properties/mode/anyOf/1/const"));
    assert_eq!(e.located, Located::PositionalIndex);
    assert_eq!(e.rule.as_deref(), Some("keyword-unsupported"));
    assert!(e.fix.is_some());
}

#[test]
fn a_property_named_like_a_keyword_is_resolved_as_a_name() {
    // properties[2] is the property literally called `type`; its `default` is the keyword.
    let text = "Invalid JSON payload received. Unknown name \"default\" at 'tools[0].function_declarations[1].parameters.properties[2].value': Cannot find field.";
    let e = &explain(Some(&gemini_request()), text, None)[0];
    assert_eq!(e.pointer.as_deref(), Some("/properties/type/default"));
}

#[test]
fn gemini_index_is_not_trusted_when_the_request_disagrees() {
    let r = gemini_request();
    // Index 5 is past the end; index 0 exists but has no `const`.
    for (text, why) in [
        (
            "Unknown name \"const\" at 'tools[0].function_declarations[1].parameters.properties[5].value': Cannot find field.",
            "declares 3 properties",
        ),
        (
            "Unknown name \"const\" at 'tools[0].function_declarations[1].parameters.properties[0].value': Cannot find field.",
            "has no `const`",
        ),
    ] {
        let e = &explain(Some(&r), text, None)[0];
        assert_eq!(e.tool.as_deref(), Some("search"));
        assert_eq!(e.pointer, None, "{e:#?}");
        assert!(e.notes.iter().any(|n| n.contains(why)), "{:?}", e.notes);
    }
    // Without the request, a positional index cannot be resolved at all.
    let e = &explain(
        None,
        "Unknown name \"const\" at 'tools[0].function_declarations[1].parameters.properties[1].value': Cannot find field.",
        None,
    )[0];
    assert_eq!((e.tool_index, e.pointer.clone()), (Some(1), None));
    assert!(e.notes[0].contains("give the request"));
}

#[test]
fn type_list_in_a_later_tools_entry() {
    let text = "Invalid JSON payload received. Unknown name \"type\" at 'tools[1].function_declarations[0].parameters.properties[0].value': Proto field is not repeating, cannot start list.";
    let e = &explain(Some(&gemini_request()), text, None)[0];
    assert_eq!(e.tool_index, Some(2));
    assert_eq!(e.tool.as_deref(), Some("later"));
    assert_eq!(e.pointer.as_deref(), Some("/properties/n/type"));
    assert_eq!(e.rule.as_deref(), Some("type-list"));
}

#[test]
fn gemini_validator_messages_name_properties_by_key_and_list_several_problems() {
    let text = "* GenerateContentRequest.tools[0].function_declarations[1].parameters.properties[query].properties: should be non-empty for OBJECT type\n* GenerateContentRequest.tools[0].function_declarations[0].parameters.required[0]: property is not defined\n";
    let got = explain(None, text, None);
    let summary: Vec<(Option<usize>, Option<&str>, Option<&str>)> = got
        .iter()
        .map(|e| (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()))
        .collect();
    assert_eq!(
        summary,
        [
            (
                Some(1),
                Some("/properties/query"),
                Some("object-properties-missing")
            ),
            (Some(0), Some("/required/0"), Some("required-undeclared")),
        ]
    );
}

#[test]
fn openai_context_and_param_name_the_tool_and_place() {
    let body = r#"{"error":{"message":"Invalid schema for function 'json_edit_tool': In context=('properties', 'value'), 'additionalProperties' is required to be supplied and to be false.","type":"invalid_request_error","param":"tools[2].function.parameters","code":"invalid_function_parameters"}}"#;
    let e = &explain(None, body, Some("openai/chat-strict"))[0];
    assert_eq!(e.tool_index, Some(2));
    assert_eq!(e.tool.as_deref(), Some("json_edit_tool"));
    assert_eq!(e.pointer.as_deref(), Some("/properties/value"));
    assert_eq!(e.rule.as_deref(), Some("strict-form-missing"));
    assert_eq!(e.fix, Some(strict_fix(Some("openai/chat-strict"))));
    let fix = e.fix.as_deref().unwrap();
    assert!(
        fix.contains("`toolwire compile --target openai/chat-strict`"),
        "{fix}"
    );
    // Sent to the non-strict target, the strict sibling is named.
    let e = &explain(None, body, Some("openai/chat"))[0];
    assert_eq!(e.fix, Some(strict_fix(Some("openai/chat-strict"))));
    // No target: both OpenAI strict targets are named, no placeholder is left.
    let e = &explain(None, body, None)[0];
    let fix = e.fix.as_deref().unwrap();
    assert!(
        fix.contains("--target openai/chat-strict`, or `openai/responses-strict`"),
        "{fix}"
    );
    assert!(!fix.contains("--target T"), "{fix}");
    // The same body read as Anthropic's explains nothing.
    assert!(explain(None, body, Some("anthropic/messages")).is_empty());
}

/// The tail of OpenAI's meta-schema message, as promptfoo's users saw it without the
/// `Invalid schema for function` prefix (oai-meta-object-string in reports.yaml,
/// promptfoo/promptfoo#5965, verbatim): read by the same template, located by the meta-schema.
#[test]
fn openai_meta_schema_tail_without_its_prefix_is_read() {
    let tail = "'object' is not of type 'object', 'boolean'";
    let request = json!({"tools": [
        {"type": "function", "function": {"name": "ok", "parameters": {"type": "object"}}},
        {"type": "function", "function": {"name": "x", "parameters":
            {"type": "object", "properties": {"a": "object"}}}}]});
    let found = explain(Some(&request), tail, Some("openai/chat"));
    let prefixed = explain(
        Some(&request),
        &format!("Invalid schema for function 'x': {tail}"),
        Some("openai/chat"),
    );
    let place = |e: &Explanation| {
        (
            e.tool_index,
            e.tool.clone(),
            e.pointer.clone(),
            e.rule.clone(),
            e.located,
        )
    };
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].message, tail);
    assert_eq!(
        place(&found[0]),
        (
            Some(1),
            Some("x".to_string()),
            Some("/properties/a".to_string()),
            Some("schema-invalid".to_string()),
            Located::MetaSchema
        )
    );
    assert_eq!(place(&found[0]), place(&prefixed[0]));
    // Found at `items`, the place's own rule is named, not the message's general one.
    let items = json!({"tools": [{"type": "function", "function": {"name": "x", "parameters":
        {"type": "object", "properties": {"a": {"type": "array", "items": "object"}}}}}]});
    let e = &explain(Some(&items), tail, Some("openai/chat"))[0];
    assert_eq!(e.pointer.as_deref(), Some("/properties/a/items"));
    assert_eq!(e.rule.as_deref(), Some("items-not-schema"));
    // Without a request: the rule the words name, and the place unknown.
    let e = &explain(None, tail, Some("openai/chat"))[0];
    assert_eq!((e.tool.as_deref(), e.pointer.as_deref()), (None, None));
    assert_eq!(e.rule.as_deref(), Some("schema-invalid"));
    assert!(
        e.notes
            .iter()
            .any(|n| n.starts_with("the message does not say where")),
        "{:?}",
        e.notes
    );
    // Groq's message ending in the same words is read once, as Groq's.
    let groq = format!("invalid JSON schema for tool x, tools[0].function.parameters: {tail}");
    let read = explain(None, &groq, Some("groq/chat"));
    assert_eq!(
        read.iter().map(|e| e.provider).collect::<Vec<_>>(),
        ["groq"]
    );
}

#[test]
fn openrouter_wraps_the_upstream_body_in_metadata_raw() {
    let raw = r#"{"type":"error","error":{"type":"invalid_request_error","message":"tools.1.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"}}"#;
    let body = json!({"error": {"message": "Provider returned error", "code": 400,
        "metadata": {"raw": raw, "provider_name": "Anthropic"}}})
    .to_string();
    let request = json!({"tools": [
        {"name": "a", "input_schema": {"type": "object"}},
        {"name": "b", "input_schema": {"type": "object", "anyOf": [{"required": ["x"]}]}}
    ]});
    let e = &explain(Some(&request), &body, Some("openrouter"))[0];
    assert_eq!(
        (e.tool_index, e.tool.as_deref(), e.pointer.as_deref()),
        (Some(1), Some("b"), Some("/anyOf"))
    );
    assert_eq!(e.rule.as_deref(), Some("root-combinator"));
}

/// Anthropic's "at the top level" says where: the root of the tool's `input_schema`.
#[test]
fn anthropic_top_level_combinator_is_at_the_root_of_the_tool() {
    // anth-toplevel-oneof-kimi-tolerates in reports.yaml (MoonshotAI/kimi-code#2328), verbatim.
    let kimi = r#"provider.api_error: 400 {"type":"error","error":{"type":"invalid_request_error",
"message":"tools.92.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"},
"request_id":"req_011CdUrw2Nqi8JkRad2CvumV"}"#;
    let at = |e: &Explanation| (e.tool_index, e.tool.clone(), e.pointer.clone(), e.located);
    let e = &explain(None, kimi, Some("anthropic/messages"))[0];
    assert_eq!(at(e), (Some(92), None, Some(String::new()), Located::Tool));
    assert_eq!(e.rule.as_deref(), Some("root-combinator"));
    assert!(
        !e.notes.iter().any(|n| n.contains("does not say where")),
        "{:?}",
        e.notes
    );
    // stack-openai-sanitizer-empties-params (bigduu/Bamboo-agent#734), verbatim: no index,
    // so the request's only tool; its combinator is where `check` reports it.
    let bare = "custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level";
    let with_oneof = json!({"tools": [{"name": "t", "input_schema":
        {"type": "object", "oneOf": [{"required": ["a"]}]}}]});
    let e = &explain(Some(&with_oneof), bare, None)[0];
    assert_eq!(
        at(e),
        (
            Some(0),
            Some("t".into()),
            Some("/oneOf".into()),
            Located::Search
        )
    );
    let plain = json!({"tools": [{"name": "t", "input_schema": {"type": "object"}}]});
    let e = &explain(Some(&plain), bare, None)[0];
    assert_eq!(
        at(e),
        (
            Some(0),
            Some("t".into()),
            Some(String::new()),
            Located::Tool
        )
    );
    // Of two tools, neither with a combinator, the message names none.
    let two = json!({"tools": [{"name": "t", "input_schema": {"type": "object"}},
        {"name": "u", "input_schema": {"type": "object"}}]});
    let e = &explain(Some(&two), bare, None)[0];
    assert_eq!((e.tool_index, e.pointer.as_deref()), (None, None));
}

#[test]
fn anthropic_invalid_schema_is_located_by_the_meta_schema() {
    let request = json!({"tools": [{"name": "a", "input_schema": {
        "type": "object", "properties": {"ok": {"type": "string"}, "bad": {"type": "dict"}}}}]});
    let text = "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).";
    let e = &explain(Some(&request), text, None)[0];
    assert_eq!(e.pointer.as_deref(), Some("/properties/bad/type"));
    assert_eq!(e.located, Located::MetaSchema);
    assert_eq!(e.rule.as_deref(), Some("type-invalid"));
    assert!(
        !e.notes.iter().any(|n| n.contains("also refuses")),
        "{:?}",
        e.notes
    );
}

/// A `type` list the meta-schema refuses for a name in it is explained at that name as
/// `type-invalid`, where check reports it (before: at the list as `type-list`, whose fix
/// unwraps the list); a list refused for naming a type twice stays `type-list`'s. The
/// message is Anthropic's wording as the tests above quote it; the requests are synthetic.
#[test]
fn a_type_list_refused_for_a_name_in_it_is_placed_at_the_name() {
    let text = "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).";
    let at = |ty: serde_json::Value| {
        let request = json!({"tools": [{"name": "a", "input_schema": {
            "type": "object", "properties": {"a": {"type": ty}}}}]});
        let e = explain(Some(&request), text, None).remove(0);
        assert!(
            !e.notes.iter().any(|n| n.contains("also refuses")),
            "{:?}",
            e.notes
        );
        (e.pointer, e.rule)
    };
    let pair = |p: &str, r: &str| (Some(p.to_string()), Some(r.to_string()));
    assert_eq!(
        at(json!(["strng", "null"])),
        pair("/properties/a/type/0", "type-invalid")
    );
    assert_eq!(
        at(json!(["integer", 1])),
        pair("/properties/a/type/1", "type-invalid")
    );
    assert_eq!(
        at(json!(["string", "string"])),
        pair("/properties/a/type", "type-list")
    );
}

/// Anthropic names no place, so every place the meta-schema refuses must be fixed before the
/// tool is taken: the ones besides the place explained are said too.
#[test]
fn every_place_the_meta_schema_refuses_is_named() {
    let request = json!({"tools": [{"name": "ok", "input_schema": {"type": "object"}},
        {"name": "bad", "input_schema": {"type": "object", "properties": {
            "a": "string", "b": {"type": "integer", "minimum": "3"}}}}]});
    let text = "tools.1.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).";
    let e = &explain(Some(&request), text, None)[0];
    assert_eq!(
        (e.tool_index, e.pointer.as_deref()),
        (Some(1), Some("/properties/b/minimum"))
    );
    assert!(
        e.notes.iter().any(|n| n
            == "the meta-schema also refuses this tool's schema at `/properties/a` \
                (schema-invalid): fix every place, or the provider rejects the tool again"),
        "{:?}",
        e.notes
    );
}

/// A schema-form `dependencies` member is a schema, named by a property (`items` here): the
/// meta-schema's refusal inside it is placed and named as inside a `dependentSchemas` member
/// (before: at `/properties/a/dependencies/items` under keyword-unsupported, with the fix for a
/// keyword `items`).
#[test]
fn a_meta_schema_violation_inside_a_schema_form_dependency_is_placed_inside_it() {
    let text = "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).";
    for keyword in ["dependencies", "dependentSchemas"] {
        let request = json!({"tools": [{"name": "a", "input_schema": {
            "type": "object", "properties": {"a": {"type": "object",
                "properties": {"items": {"type": "string"}},
                keyword: {"items": {"type": 5}}}}}}]});
        let e = &explain(Some(&request), text, None)[0];
        let at = format!("/properties/a/{keyword}/items/type");
        assert_eq!(e.pointer.as_deref(), Some(at.as_str()));
        assert_eq!(e.rule.as_deref(), Some("type-invalid"));
    }
}

/// A `dependencies` member is named by a property: one named like a keyword (`format`) is no
/// keyword to fix; the fix is the one for `dependencies`, whose value is refused, as check
/// gives it, at the keyword, where check reports it (before: "Remove `format` and say what it
/// required in the description").
#[test]
fn a_dependency_named_like_a_keyword_is_not_fixed_as_that_keyword() {
    let request = json!({"tools": [{"name": "a", "input_schema": {
        "type": "object", "properties": {"a": {"type": "object",
            "properties": {"format": {"type": "string"}},
            "dependencies": {"format": [1]}}}}}]});
    let text = "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).";
    let e = &explain(Some(&request), text, None)[0];
    assert_eq!(e.pointer.as_deref(), Some("/properties/a/dependencies"));
    assert_eq!(e.rule.as_deref(), Some("keyword-unsupported"));
    let fix = e.fix.as_deref().unwrap_or_default();
    assert!(fix.starts_with("`dependencies` "), "{fix}");
    // A property named `dependencies` is a property: its `format` is the keyword.
    let request = json!({"tools": [{"name": "a", "input_schema": {
        "type": "object", "properties": {"dependencies": {"type": "string", "format": 5}}}}]});
    let e = &explain(Some(&request), text, None)[0];
    assert_eq!(
        e.pointer.as_deref(),
        Some("/properties/dependencies/format")
    );
    let fix = e.fix.as_deref().unwrap_or_default();
    assert!(fix.contains("`format`"), "{fix}");
}

/// The refusal as Anthropic worded it under its path before `custom` (still printed by relays
/// and clients) is explained as the current wording is (before: "no known message template
/// matches this error", exit 1).
#[test]
fn anthropics_earlier_wording_of_an_invalid_schema_is_explained() {
    let request = json!({"tools": [{"name": "ok", "input_schema": {"type": "object"}},
        {"name": "bad", "input_schema": {"type": "object", "properties": {
            "b": {"type": "integer", "minimum": "3"}}}}]});
    let text = "tools.1.input_schema: JSON schema is invalid - please consult \
        https://json-schema.org or our documentation at https://docs.anthropic.com/en/docs/tool-use";
    let old = &explain(Some(&request), text, None)[0];
    let now = "tools.1.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).";
    let new = &explain(Some(&request), now, None)[0];
    assert_eq!(
        (old.tool_index, old.pointer.as_deref(), old.rule.as_deref()),
        (Some(1), Some("/properties/b/minimum"), new.rule.as_deref())
    );
    assert_eq!(old.fix, new.fix);
}

/// Trial 88 D2: Bedrock's `...inputSchema.json.type must be one of the following: object.`
/// names the root's `type`, where `check --target bedrock/converse` reports `root-not-object`
/// (before: at the root, `""`, located as the tool). A root without `type` (`{}`, which Bedrock
/// answers so too) is placed at the root, where check reports it.
#[test]
fn bedrock_json_type_is_placed_at_the_roots_type() {
    let text = "ValidationException: The value at toolConfig.tools.3.toolSpec.inputSchema.json.type must be one of the following: object.";
    let request = json!({"toolConfig": {"tools": [
        {"toolSpec": {"name": "a", "inputSchema": {"json": {"type": "object", "properties": {"q": {"type": "string"}}}}}},
        {"toolSpec": {"name": "b", "inputSchema": {"json": {"type": "object"}}}},
        {"cachePoint": {"type": "default"}},
        {"toolSpec": {"name": "c", "inputSchema": {"json": {"type": "string"}}}}]}});
    assert_eq!(
        check_findings(&request, "bedrock/converse"),
        [(3, "/type".to_string(), "root-not-object".to_string())]
    );
    for (request, target) in [
        (Some(&request), Some("bedrock/converse")),
        (Some(&request), None),
        (None, None),
    ] {
        let e = &explain(request, text, target)[0];
        assert_eq!(
            (
                e.tool_index,
                e.pointer.as_deref(),
                e.located,
                e.rule.as_deref()
            ),
            (
                Some(3),
                Some("/type"),
                Located::Path,
                Some("root-not-object")
            ),
            "{request:?} {target:?}"
        );
    }
    let untyped = json!({"toolConfig": {"tools": [
        {"toolSpec": {"name": "t", "inputSchema": {"json": {}}}}]}});
    for target in [Some("bedrock/converse"), None] {
        let e = &explain(
            Some(&untyped),
            &text.replace("tools.3.", "tools.0."),
            target,
        )[0];
        assert_eq!(
            (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()),
            (Some(0), Some(""), Some("root-not-object")),
            "{target:?}"
        );
    }
}

#[test]
fn bedrock_and_xai_paths() {
    let request = json!({"toolConfig": {"tools": [
        {"toolSpec": {"name": "t", "inputSchema": {"json": {"type": "string"}}}}]}});
    let e = &explain(
        Some(&request),
        r#"{"message":"The value at toolConfig.tools.0.toolSpec.inputSchema.json.type must be one of the following: object."}"#,
        Some("bedrock/converse"),
    )[0];
    assert_eq!(
        (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()),
        (Some(0), Some("/type"), Some("root-not-object"))
    );
    let e = &explain(
        None,
        "Schema validation failed: [standard_violation] /properties/a/additionalProperties: property schema 'false' is not supported",
        Some("xai/chat"),
    )[0];
    assert_eq!(
        e.pointer.as_deref(),
        Some("/properties/a/additionalProperties")
    );
    // `additionalProperties: false` is a keyword form: check reports the keyword.
    assert_eq!(e.rule.as_deref(), Some("keyword-unsupported"));
    let e = &explain(
        None,
        "Schema validation failed: [standard_violation] /properties/a: property schema 'false' is not supported",
        Some("xai/chat"),
    )[0];
    assert_eq!(e.rule.as_deref(), Some("boolean-schema"));
}

/// Moonshot names a path but no tool: every tool with a `properties` map has the path's
/// parent, so the tool holding the path itself is the one meant.
#[test]
fn a_path_held_by_one_tool_names_it_though_others_hold_its_parent() {
    let tool = |name: &str, properties: Value| json!({"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": properties}}});
    let request = json!({"tools": [
        tool("filler_0", json!({"q": {"type": "string"}})),
        tool("read_source", json!({"source": {"description": "file path or URL"}})),
        tool("filler_2", json!({"q": {"type": "string"}})),
    ]});
    let text = "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path 'properties.source': type is not defined>";
    let e = &explain(Some(&request), text, Some("moonshot/chat"))[0];
    assert_eq!(
        (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()),
        (Some(1), Some("/properties/source"), Some("type-missing")),
        "{:?}",
        e.notes
    );
    // A place no tool holds falls back to its parent, which must then be unique.
    let text = "Invalid request: tools.function.parameters is not a valid moonshot flavored json schema, details: <At path 'properties.source.items': type is not defined>";
    let e = &explain(Some(&request), text, Some("moonshot/chat"))[0];
    assert_eq!(e.tool_index, Some(1), "{:?}", e.notes);
}

#[test]
fn a_tool_found_by_search_must_be_unique() {
    let both = json!({"tools": [
        {"type": "function", "function": {"name": "a", "parameters": {"type": "object", "properties": {"p": {"type": "string", "pattern": "[a-z]+"}}}}},
        {"type": "function", "function": {"name": "b", "parameters": {"type": "object", "properties": {"p": {"type": "string", "pattern": "x"}}}}}
    ]});
    let e = &explain(
        Some(&both),
        "JSON schema conversion failed:\nPattern must start with '^' and end with '$'",
        None,
    )[0];
    assert_eq!(e.tool_index, None);
    assert!(
        e.notes.iter().any(|n| n.contains("2 tools")),
        "{:?}",
        e.notes
    );
}

#[test]
fn unknown_text_explains_nothing() {
    assert!(explain(None, "something went wrong", None).is_empty());
    assert!(explain(None, "", None).is_empty());
}

#[test]
fn fixes_come_from_the_registry() {
    for rule in crate::profile::rules::REGISTRY.iter().map(|r| r.id) {
        assert!(fix_for(rule).is_some(), "{rule}");
    }
    assert_eq!(fix_for("no-such-rule"), None);
}

#[test]
fn google_paths_without_the_tools_prefix_are_read() {
    // The README's own example, as a user would paste it.
    let text = "function_declarations[15].parameters.properties[deliverables].items: missing field";
    let e = &explain(None, text, None)[0];
    assert_eq!(e.tool_index, Some(15));
    assert_eq!(e.pointer.as_deref(), Some("/properties/deliverables"));
    assert_eq!(e.rule.as_deref(), Some("array-items-missing"));
}

/// Gemini's "`X: missing field`" is read by the field `X` it names, not as a missing `items`
/// whatever `X` is.
#[test]
fn a_missing_field_is_read_by_the_field_it_names() {
    let r = json!({"tools":[{"functionDeclarations":[{"name":"a","description":"d","parameters":{
    "type":"object","properties":{
        "q":{"description":"no type"},
        "e":{"type":"string","enum":[]},
        "s":{"type":"string"},
        "l":{"type":"ARRAY"}
    }}}]}]});
    let at = |place: &str| {
        let text = format!(
            "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[{place}: missing field."
        );
        let got = explain(Some(&r), &text, None);
        assert_eq!(got.len(), 1, "{got:#?}");
        got.into_iter().next().unwrap()
    };
    let ty = at("q].type");
    assert_eq!(ty.pointer.as_deref(), Some("/properties/q"));
    assert_eq!(ty.rule.as_deref(), Some("type-missing"));
    assert_eq!(ty.fix.as_deref(), fix_for("type-missing"));
    // A field no rule is about: the place is named, no rule or fix is claimed.
    for (place, field, pointer) in [
        ("e].enum", "enum", "/properties/e"),
        ("q].foo", "foo", "/properties/q"),
    ] {
        let e = at(place);
        assert_eq!(
            (e.rule.as_deref(), e.fix.as_deref()),
            (None, None),
            "{e:#?}"
        );
        assert_eq!(
            (e.tool_index, e.pointer.as_deref()),
            (Some(0), Some(pointer))
        );
        assert!(
            e.notes
                .iter()
                .any(|n| n.contains(&format!("lacks `{field}`"))),
            "{:?}",
            e.notes
        );
    }
    // `items` of a schema the request does not type as an array: said, not claimed.
    for place in ["s].items", "q].items"] {
        let e = at(place);
        assert_eq!(
            (e.rule.as_deref(), e.fix.as_deref()),
            (None, None),
            "{e:#?}"
        );
        assert!(
            e.notes.iter().any(|n| n.contains("is not an array")),
            "{:?}",
            e.notes
        );
    }
    // An array's `items` is what is missing, as before (Gemini spells the type in capitals).
    let items = at("l].items");
    assert_eq!(items.pointer.as_deref(), Some("/properties/l"));
    assert_eq!(items.rule.as_deref(), Some("array-items-missing"));
}

#[test]
fn an_error_that_does_not_fit_the_request_names_no_tool_of_it() {
    let text = "* GenerateContentRequest.tools[0].function_declarations[15].parameters.properties[deliverables].items: missing field.";
    // Without a request the error's own number is all there is.
    let alone = &explain(None, text, None)[0];
    assert_eq!(alone.tool_index, Some(15));
    // A Gemini request with no declaration there: noted, and tool #15 is not claimed.
    let e = &explain(Some(&gemini_request()), text, None)[0];
    assert_eq!((e.tool_index, e.tool.as_deref()), (None, None));
    assert_eq!(e.rule.as_deref(), Some("array-items-missing"));
    assert!(
        e.notes
            .iter()
            .any(|n| n.contains("no function declaration at tools[0].function_declarations[15]")),
        "{:?}",
        e.notes
    );
    // Positional indices need the missing tool's key order: no "give the request" advice.
    let positional = "Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[15].parameters.properties[0].value': Cannot find field.";
    let e = &explain(Some(&gemini_request()), positional, None)[0];
    assert_eq!(e.tool_index, None);
    assert!(
        !e.notes.iter().any(|n| n.contains("give the request")),
        "{:?}",
        e.notes
    );
    // An OpenAI request, even one with a tool at the error's index, is not what a Gemini
    // error answers.
    let openai = json!({"model":"gpt-4o","messages":[],"tools":[{"type":"function","function":{
        "name":"make_report","parameters":{"type":"object","properties":{"deliverables":{"type":"array"}}}}}]});
    for at in [15, 0] {
        let text = text.replace("[15]", &format!("[{at}]"));
        let e = &explain(Some(&openai), &text, None)[0];
        assert_eq!((e.tool_index, e.tool.as_deref()), (None, None), "{at}");
        assert!(
            e.notes
                .iter()
                .any(|n| n.contains("the request is in openai's shape, but the error is google's")),
            "{:?}",
            e.notes
        );
        // The target that reads a relayed request is named.
        assert!(
            e.notes
                .iter()
                .any(|n| n.contains("if a relay sent it on (LiteLLM, an AI SDK, a compatible endpoint), `--target gemini/openai-compat`")),
            "{:?}",
            e.notes
        );
    }
}

/// Bedrock relays Claude's validator errors: they number Bedrock's own tool list.
#[test]
fn a_claude_error_relayed_by_bedrock_names_the_bedrock_tool() {
    let request = json!({"messages":[],"toolConfig":{"tools":[
        {"toolSpec":{"name":"a","inputSchema":{"json":{"type":"object","properties":{}}}}},
        {"toolSpec":{"name":"b","inputSchema":{"json":{"type":"object","properties":{
            "x":{"$ref":"#/$defs/Nope"}}}}}}]}});
    let text = "The model returned the following errors: tools.1.custom: Invalid schema: Reference to non-existent definition: #/$defs/Nope";
    for target in [None, Some("bedrock/converse")] {
        let e = &explain(Some(&request), text, target)[0];
        assert_eq!(
            (e.tool_index, e.tool.as_deref()),
            (Some(1), Some("b")),
            "{target:?}"
        );
        assert!(
            !e.notes.iter().any(|n| n.contains("shape")),
            "{:?}",
            e.notes
        );
    }
}

#[test]
fn request_shapes_are_told_apart() {
    let cases = [
        (gemini_request(), Some("google")),
        (json!({"contents":[],"tools":[]}), Some("google")),
        (
            json!({"tools":[{"type":"function","function":{"name":"f"}}]}),
            Some("openai"),
        ),
        (
            json!({"tools":[{"type":"function","name":"f","parameters":{}}]}),
            Some("openai"),
        ),
        (
            json!({"tools":[{"name":"f","input_schema":{}}]}),
            Some("anthropic"),
        ),
        (
            json!({"toolConfig":{"tools":[{"toolSpec":{"name":"f"}}]}}),
            Some("bedrock"),
        ),
        (json!([{"name":"f","inputSchema":{}}]), None),
        // Gemini's own `toolConfig` (its function calling mode), with no `contents`.
        (
            json!({"tools":[{"functionDeclarations":[{"name":"f"}]}],
                "toolConfig":{"functionCallingConfig":{"mode":"ANY"}}}),
            Some("google"),
        ),
    ];
    for (request, family) in cases {
        assert_eq!(request_family(&request), family, "{request}");
    }
    // OpenAI-compatible providers' errors fit an OpenAI request.
    assert!(!other_provider("openai", "xai"));
    assert!(!other_provider("openai", "openai"));
    assert!(other_provider("google", "openai"));
    assert!(other_provider("openai", "anthropic"));
}

/// An OpenAI Chat request with a built-in tool between two function tools: Google numbers
/// only the function tools.
fn openai_request_for_relay() -> Value {
    json!({"model":"m","messages":[],"tools":[
        {"type":"function","function":{"name":"a","parameters":{"type":"object","properties":{"x":{"type":"string"}}}}},
        {"type":"web_search_preview"},
        {"type":"function","function":{"name":"b","parameters":{"type":"object","properties":{}}}}
    ]})
}

const GOOGLE_EMPTY_OBJECT: &str = "GenerateContentRequest.tools[0].function_declarations[1].parameters.properties: should be non-empty for OBJECT type";

#[test]
fn a_relay_to_google_numbers_the_function_tools_in_order() {
    let r = openai_request_for_relay();
    let e = &explain(Some(&r), GOOGLE_EMPTY_OBJECT, Some("gemini/openai-compat"))[0];
    // function_declarations[1] is the second function tool, `b`, at index 2 of the request;
    // its `properties` map is there but empty, which is where `check` reports it.
    assert_eq!(
        (e.tool_index, e.tool.as_deref(), e.pointer.as_deref()),
        (Some(2), Some("b"), Some("/properties"))
    );
    assert_eq!(e.rule.as_deref(), Some("object-properties-missing"));
    assert!(
        e.notes
            .iter()
            .any(|n| n.contains("gemini/openai-compat relays the request to google")),
        "{:?}",
        e.notes
    );
    // OpenRouter hands back Google's body in `metadata.raw`: read the same way.
    let raw = json!({"error":{"code":400,"message":format!("* {GOOGLE_EMPTY_OBJECT}\n"),"status":"INVALID_ARGUMENT"}});
    let body = json!({"error":{"message":"Provider returned error","code":400,
        "metadata":{"raw":serde_json::to_string_pretty(&raw).unwrap(),"provider_name":"Google AI Studio"}}})
    .to_string();
    let e = &explain(Some(&r), &body, Some("openrouter"))[0];
    assert_eq!((e.tool_index, e.tool.as_deref()), (Some(2), Some("b")));
    assert_eq!(e.message, GOOGLE_EMPTY_OBJECT);
    // So does Anthropic's, relayed by OpenRouter: `tools.1` is the second function tool.
    let raw = r#"{"type":"error","error":{"type":"invalid_request_error","message":"tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"}}"#;
    let body = json!({"error":{"message":"Provider returned error","code":400,
        "metadata":{"raw":raw,"provider_name":"Anthropic"}}})
    .to_string();
    let e = &explain(Some(&r), &body, Some("openrouter"))[0];
    assert_eq!((e.tool_index, e.tool.as_deref()), (Some(2), Some("b")));
    // A function declaration past the function tools names none.
    let past = GOOGLE_EMPTY_OBJECT.replace("[1]", "[2]");
    let e = &explain(Some(&r), &past, Some("gemini/openai-compat"))[0];
    assert_eq!((e.tool_index, e.tool.as_deref()), (None, None));
    // Without a relaying target, today's caution: the error is not about this request.
    for target in [None, Some("openai/chat")] {
        let got = explain(Some(&r), GOOGLE_EMPTY_OBJECT, target);
        if let Some(e) = got.first() {
            assert_eq!(
                (e.tool_index, e.tool.as_deref()),
                (None, None),
                "{target:?}"
            );
        }
    }
}

#[test]
fn the_compat_endpoint_is_read_in_both_providers_words() {
    // The compat layer's own JSON-Schema check speaks OpenAI's words
    // (cbdb-openai-compat-properties-list in reports.yaml).
    let r = openai_request_for_relay();
    let text = "Invalid schema for function 'b': [] is not of type 'object'";
    let got = explain(Some(&r), text, Some("gemini/openai-compat"));
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(
        (got[0].tool_index, got[0].tool.as_deref()),
        (Some(2), Some("b"))
    );
}

#[test]
fn compile_for_the_compat_endpoint_repairs_or_refuses_the_tool_google_names() {
    use crate::repair::{Options, Outcome, Tool};
    let request = json!({"tools":[
        {"type":"function","function":{"name":"a","parameters":{"type":"object","properties":{"x":{"type":"string"}}}}},
        {"type":"function","function":{"name":"b","parameters":{"type":"object","properties":{}}}}
    ]});
    let set = crate::input::from_value(std::path::Path::new("r.json"), request).unwrap();
    let tools: Vec<Tool> = set.tools.iter().map(Tool::from).collect();
    let profiles = crate::profile::embedded().unwrap();
    let target = "gemini/openai-compat";
    let profile = crate::profile::CompiledProfile::new(profiles.get(target).unwrap());
    let c = crate::compile::compile(&tools, target, &profile, &Options::default()).unwrap();
    let outcome = |name: &str| {
        c.tools
            .iter()
            .find(|t| t.tool.name.as_deref() == Some(name))
            .map(|t| t.outcome)
    };
    assert!(
        matches!(outcome("b"), Some(Outcome::Repaired | Outcome::Refused)),
        "{:?}",
        outcome("b")
    );
    assert_ne!(outcome("a"), Some(Outcome::Refused));
    assert!(
        matches!(c.check, crate::compile::ModelCheck::Accepted { .. }),
        "{:?}",
        c.check
    );
}

#[test]
fn a_named_tool_is_in_the_request() {
    // An OpenAI error with an Anthropic request: another provider's, so nothing is named.
    let anthropic = json!({"model":"m","messages":[],"tools":[
        {"name":"t13","input_schema":{"type":"object","properties":{"q":{"type":"dict"}}}}]});
    let openai_error = r#"{"error":{"message":"Invalid schema for function 't13': 'dict' is not valid under any of the given schemas.","type":"invalid_request_error","param":"tools[0].function.parameters","code":"invalid_function_parameters"}}"#;
    // Vertex's error with an OpenAI request.
    let openai = json!({"model":"m","messages":[],"tools":[{"type":"function","function":{
        "name":"create-field","parameters":{"type":"object","properties":{"a":{"anyOf":[{"type":"string"}],"type":"string"}}}}}]});
    let vertex_error = "Unable to submit request because `create-field` functionDeclaration `parameters.a` schema specified other fields alongside any_of. When using any_of, it must be the only field set.";
    for (request, error) in [(&anthropic, openai_error), (&openai, vertex_error)] {
        let got = explain(Some(request), error, None);
        assert!(!got.is_empty());
        for e in &got {
            assert_eq!((e.tool_index, e.tool.as_deref()), (None, None), "{e:#?}");
            assert!(e.notes.iter().any(|n| n.contains("so none is named")));
            // Nothing else is claimed about that request.
            assert!(
                !e.notes
                    .iter()
                    .any(|n| n.contains("not found") || n.contains("give the request")),
                "{:?}",
                e.notes
            );
        }
    }
    // The request's own shape, but no tool of that name: the name is not claimed.
    let other = json!({"model":"m","messages":[],"tools":[{"type":"function","function":{
        "name":"list_issues","parameters":{"type":"object","properties":{}}}}]});
    let text = "Invalid schema for function 'create_merge_request_thread': In context=('properties', 'position'), schema must have a 'type' key.";
    let e = &explain(Some(&other), text, None)[0];
    assert_eq!((e.tool_index, e.tool.as_deref()), (None, None), "{e:#?}");
    assert!(
        e.notes
            .iter()
            .any(|n| n.contains("no tool in the request is named `create_merge_request_thread`")),
        "{:?}",
        e.notes
    );
    // Without a request, the error's own name is all there is.
    let e = &explain(None, text, None)[0];
    assert_eq!(e.tool.as_deref(), Some("create_merge_request_thread"));
}

#[test]
fn the_provider_message_is_quoted_exactly() {
    // A pattern in quotes (the template stops at the quote).
    let anthropic = "tools.7.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'";
    let body = json!({"type":"error","error":{"type":"invalid_request_error","message":anthropic}})
        .to_string();
    for error in [anthropic.to_string(), body] {
        let e = &explain(None, &error, None)[0];
        assert_eq!(e.message, anthropic);
        assert_eq!(e.rule.as_deref(), Some("name-invalid"));
    }
    // OpenAI's Python SDK prints the body as a Python dict; `param` still names the tool.
    let message = "Invalid schema for function 'CalculatorTool_calculate': 'Parameters Schema' is not a 'uri-reference'.";
    let printout = format!(
        "Error code: 400 - {{'error': {{'message': \"{message}\", 'type': 'invalid_request_error', 'param': 'tools[0].function.parameters', 'code': 'invalid_function_parameters'}}}}"
    );
    let e = &explain(None, &printout, None)[0];
    assert_eq!(e.message, message);
    assert_eq!(
        (e.tool_index, e.tool.as_deref()),
        (Some(0), Some("CalculatorTool_calculate"))
    );
    // A relay that encodes Google's body once more, inside its own message or as a whole.
    let google = "* GenerateContentRequest.tools[0].function_declarations[1].parameters.required[0]: property is not defined\n";
    let inner =
        json!({"error":{"code":400,"message":google,"status":"INVALID_ARGUMENT"}}).to_string();
    let statement = google.trim().trim_start_matches("* ");
    for error in [
        json!({"error":{"message":inner}}).to_string(),
        json!(inner).to_string(),
        format!("Google API returned error: 400 INVALID_ARGUMENT {inner}"),
    ] {
        let got = explain(None, &error, None);
        assert_eq!(got.len(), 1, "{got:#?}");
        assert_eq!(got[0].message, statement, "{error}");
        assert_eq!(got[0].rule.as_deref(), Some("required-undeclared"));
    }
    // Google's parse errors: the whole line, with its preamble and period.
    let line = "Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[1].parameters.properties[1].value': Cannot find field.";
    let body = json!({"error":{"code":400,"message":format!("{line}\n{line}"),"status":"INVALID_ARGUMENT"}}).to_string();
    assert_eq!(explain(None, &body, None)[0].message, line);
}

#[test]
fn an_empty_enum_with_the_enum_format_is_enum_invalid() {
    // kibana-enum-format-empty-gemini3 in reports.yaml, with the property named.
    let text = "INVALID_ARGUMENT: GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[query].enum: should be non-empty for STRING type with enum format";
    let schema =
        json!({"type":"object","properties":{"query":{"type":"string","format":"enum","enum":[]}}});
    let gemini = json!({"contents":[],"tools":[{"functionDeclarations":[{"name":"search","parameters":schema}]}]});
    for request in [&gemini, &schema] {
        let e = &explain(Some(request), text, None)[0];
        assert_eq!(
            (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()),
            (
                Some(0),
                Some("/properties/query/enum"),
                Some("enum-invalid")
            )
        );
    }
    // `check` finds the same rule at the same place.
    let set = crate::input::from_value(std::path::Path::new("s.json"), schema).unwrap();
    let profiles = crate::profile::embedded().unwrap();
    let profile = crate::profile::CompiledProfile::new(profiles.get("portable").unwrap());
    let findings = crate::check::check_set(&set, &profile);
    assert!(
        findings
            .iter()
            .any(|f| f.rule.as_str() == "enum-invalid"
                && f.pointer.as_str() == "/properties/query/enum"),
        "{findings:?}"
    );
}

#[test]
fn without_a_request_nothing_is_said_of_one() {
    for (text, place) in [
        // A meta-schema violation.
        (
            "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).",
            "a meta-schema violation",
        ),
        // A place described, not named.
        (
            "JSON schema conversion failed:\nPattern must start with '^' and end with '$'",
            "the place it describes",
        ),
    ] {
        let e = &explain(None, text, None)[0];
        assert!(
            !e.notes.iter().any(|n| n.contains("in the request")),
            "{:?}",
            e.notes
        );
        assert!(
            e.notes
                .iter()
                .any(|n| n.contains("give the request") && n.contains(place)),
            "{:?}",
            e.notes
        );
    }
}

/// Google's unnamed form starts "A FunctionDeclaration" (gemini-cli-nesting-depth-notion in
/// reports.yaml): quoted whole (before: without its "A ").
#[test]
fn the_unnamed_depth_message_is_quoted_whole() {
    let text = "A FunctionDeclaration in the request exceeds the maximum allowed nesting depth.";
    let e = &explain(None, text, None)[0];
    assert_eq!(e.message, text);
    assert_eq!(e.rule.as_deref(), Some("depth-exceeded"));
}

#[test]
fn a_request_that_is_not_an_object_or_list_counts_as_none() {
    // compile passes `null` for a body it could not read back.
    let text =
        "FunctionDeclaration 'deep' in the request exceeds the maximum allowed nesting depth.";
    let e = &explain(Some(&Value::Null), text, None)[0];
    assert_eq!(e.tool.as_deref(), Some("deep"));
    assert_eq!(e.message, text);
}

#[test]
fn request_tools_read_what_check_reads() {
    let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
    let one = json!({"name":"f","parameters":schema});
    let gemini_tool = json!({"functionDeclarations":[{"name":"g","parameters":schema}]});
    let mcp =
        json!({"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"m","inputSchema":schema}]}});
    let legacy = json!({"model":"m","functions":[{"name":"l","parameters":schema}]});
    let corpus_line = json!({"source":"s","license":"MIT","tool":{"name":"c","parameters":schema}});
    for (request, name) in [
        (&schema, None),
        (&one, Some("f")),
        (&gemini_tool, Some("g")),
        (&mcp, Some("m")),
        (&legacy, Some("l")),
        (&corpus_line, Some("c")),
    ] {
        let tools = request_tools(request);
        assert_eq!(tools.len(), 1, "{request}");
        assert_eq!(
            (tools[0].name, tools[0].schema),
            (name, Some(&schema)),
            "{request}"
        );
        let set =
            crate::input::from_value(std::path::Path::new("r.json"), request.clone()).unwrap();
        assert_eq!(set.tools[0].name.as_deref(), name);
        assert_eq!(set.tools[0].parameters.as_ref(), Some(&schema));
    }
}

#[test]
fn a_pasted_google_line_keeps_its_preamble() {
    // Given as plain text (no envelope), the message starts where the template matches: for
    // Google's parse errors that includes the preamble.
    let line = "Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_declarations[1].parameters.properties[1].value': Cannot find field.";
    assert_eq!(explain(None, line, None)[0].message, line);
    let prefixed = format!("Error: 400 {line}");
    assert_eq!(explain(None, &prefixed, None)[0].message, line);
}

/// mistral-id-schema-grammar in reports.yaml (BerriAI/litellm#13389), verbatim.
const MISTRAL_GRAMMAR: &str = "Grammar error: at 3(11): failed to compile JSON schema";

#[test]
fn mistral_grammar_errors_are_mapped_as_their_report_found_them() {
    let schema = json!({"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/tool.json","type":"object","properties":{"q":{"type":"string"}}});
    let request = json!({"model":"m","messages":[],"tools":[
        {"type":"function","function":{"name":"other","parameters":{"type":"object","properties":{"x":{"type":"string"}}}}},
        {"type":"function","function":{"name":"search","parameters":schema}}
    ]});
    let got = explain(Some(&request), MISTRAL_GRAMMAR, Some("mistral/chat"));
    let places: Vec<(Option<usize>, Option<&str>, Option<&str>)> = got
        .iter()
        .map(|e| (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()))
        .collect();
    // Both keywords the report traced it to, each where `check --target mistral/chat` puts it.
    assert_eq!(
        places,
        [
            (Some(1), Some("/$schema"), Some("keyword-unsupported")),
            (Some(1), Some("/$id"), Some("keyword-unsupported"))
        ],
        "{got:#?}"
    );
    assert_eq!(got[0].message, MISTRAL_GRAMMAR);
    assert!(
        got[0]
            .notes
            .iter()
            .any(|n| n.contains("names no tool or place"))
    );
    // A request without them: the report's cause is not there, so no rule is claimed.
    let plain = json!({"type":"object","properties":{"q":{"type":"string"}}});
    let e = &explain(Some(&plain), MISTRAL_GRAMMAR, Some("mistral/chat"))[0];
    assert_eq!((e.pointer.as_deref(), e.rule.as_deref()), (None, None));
    assert!(
        e.notes.iter().any(|n| n.contains("no rule is named")),
        "{:?}",
        e.notes
    );
    // Without a request: the rule of the report, and where to look.
    let e = &explain(None, MISTRAL_GRAMMAR, Some("mistral/chat"))[0];
    assert_eq!(e.rule.as_deref(), Some("keyword-unsupported"));
    assert!(
        e.notes.iter().any(|n| n.contains("give the request")),
        "{:?}",
        e.notes
    );
}

/// Mistral's name refusal (mistral-function-name-pattern) and AWS's validation list for
/// Bedrock's tool names and descriptions (BerriAI/litellm#24668, microsoft/mcp#842) name the
/// tool and the rule `check --target` reports for it; Bedrock's "format of the value"
/// (aws-sdk-net#3377) names the tool's schema, and no rule its report does not establish.
#[test]
fn mistral_and_bedrock_name_and_description_refusals_are_checks_rules() {
    let long = "add_newam_task_with_due_date___8c498bee-e833-49a9-8a88-0ab59fa26cb8";
    let quote = format!(
        "litellm.BadRequestError: MistralException - Function name was {long} but must be a-z, \
         A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64.. Received \
         Model Group=mistral/mistral-large-latest"
    );
    let mistral = json!({"model":"m","messages":[],"tools":[{"type":"function","function":
        {"name":long,"parameters":{"type":"object","properties":{}}}}]});
    for (request, target, index) in [
        (None, None, None),
        (Some(&mistral), Some("mistral/chat"), Some(0)),
    ] {
        let got = explain(request, &quote, target);
        let [e] = got.as_slice() else {
            panic!("{got:#?}")
        };
        assert_eq!(
            (e.tool_index, e.tool.as_deref(), e.pointer.as_deref()),
            (index, Some(long), Some(""))
        );
        assert_eq!(e.rule.as_deref(), Some("name-too-long"), "{:?}", e.notes);
    }
    assert!(
        check_findings(&mistral, "mistral/chat")
            .iter()
            .any(|(i, _, rule)| *i == 0 && rule == "name-too-long")
    );
    let emulated = r#"{"object":"error","message":"Function name was probe.tool but must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64.","type":"invalid_request_error","param":null,"code":null}"#;
    let e = &explain(None, emulated, Some("mistral/chat"))[0];
    assert_eq!(
        (e.tool.as_deref(), e.rule.as_deref()),
        (Some("probe.tool"), Some("name-invalid"))
    );

    // Bedrock: `toolConfig.tools.2.member` is the second tool.
    let bedrock = json!({"messages":[],"toolConfig":{"tools":[
        {"toolSpec":{"name":"get_weather","description":"d","inputSchema":{"json":{"type":"object","properties":{"city":{"type":"string"}}}}}},
        {"toolSpec":{"name":"probe.tool","description":"d","inputSchema":{"json":{"type":"object","properties":{"q":{"type":"string"}}}}}}]}});
    let emulated = r#"{"message":"1 validation error detected: Value 'probe.tool' at 'toolConfig.tools.2.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+"}"#;
    let got = explain(Some(&bedrock), emulated, Some("bedrock/converse"));
    let [e] = got.as_slice() else {
        panic!("{got:#?}")
    };
    assert_eq!(
        (e.tool_index, e.tool.as_deref(), e.rule.as_deref()),
        (Some(1), Some("probe.tool"), Some("name-invalid"))
    );
    assert!(
        e.notes.iter().any(|n| n.contains("from 1")),
        "{:?}",
        e.notes
    );
    assert!(check_findings(&bedrock, "bedrock/converse").contains(&(
        1,
        String::new(),
        "name-invalid".into()
    )));
    // BerriAI/litellm#24668: one tool, empty name and description; three constraints.
    let empty = json!({"messages":[],"toolConfig":{"tools":[{"toolSpec":{"name":"","description":"",
        "inputSchema":{"json":{"type":"object","properties":{},"required":[]}}}}]}});
    let text = "3 validation errors detected: Value '' at 'toolConfig.tools.1.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+; Value '' at 'toolConfig.tools.1.member.toolSpec.name' failed to satisfy constraint: Member must have length greater than or equal to 1; Value '' at 'toolConfig.tools.1.member.toolSpec.description' failed to satisfy constraint: Member must have length greater than or equal to 1";
    let got = explain(Some(&empty), text, Some("bedrock/converse"));
    let read: Vec<_> = got
        .iter()
        .map(|e| (e.tool_index, e.rule.as_deref()))
        .collect();
    assert_eq!(
        read,
        [
            (Some(0), Some("name-invalid")),
            (Some(0), Some("name-invalid")),
            (Some(0), Some("description-missing"))
        ],
        "{got:#?}"
    );
    // microsoft/mcp#842's length constraint, printed without the value (awslabs/mcp#3181).
    let text = "1 validation error detected: Value at 'toolConfig.tools.38.member.toolSpec.name' failed to satisfy constraint: Member must have length less than or equal to 64";
    let e = &explain(None, text, None)[0];
    assert_eq!(
        (e.tool_index, e.rule.as_deref()),
        (Some(37), Some("name-too-long"))
    );
    // aws-sdk-net#3377: the tool's schema, no rule; with the request, check's rule there.
    let text = "The format of the value at toolConfig.tools.0.toolSpec.inputSchema.json is invalid. Provide a json object for the field and try again.";
    let e = &explain(None, text, Some("bedrock/converse"))[0];
    assert_eq!(
        (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()),
        (Some(0), Some(""), None)
    );
    assert!(
        e.notes.iter().any(|n| n.contains("not established")),
        "{:?}",
        e.notes
    );
    // The empty description check reports at `""` beside it is not what the message is about.
    let text_schema = json!({"messages":[],"toolConfig":{"tools":[{"toolSpec":{"name":"t","description":"",
        "inputSchema":{"json":"{\"type\":\"object\"}"}}}]}});
    let e = &explain(Some(&text_schema), text, Some("bedrock/converse"))[0];
    assert_eq!(
        (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()),
        (Some(0), Some(""), Some("root-not-object"))
    );
}

#[test]
fn runs_of_whitespace_in_a_message_match_its_template() {
    let one = "tools.16.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'";
    for text in [
        one.to_string(),
        one.replace("String ", "String      "),
        // anth-name-pattern-128 in reports.yaml: a client wrapped the line inside the JSON
        // string, leaving a raw line break that JSON does not allow.
        format!(
            "API Error: 400 {{\"type\":\"error\",\"error\":{{\"type\":\"invalid_request_error\",\"message\":\"{}\"}}}}",
            one.replace("String ", "String \n    ")
        ),
    ] {
        let got = explain(None, &text, Some("anthropic/messages"));
        assert_eq!(got.len(), 1, "{text}: {got:#?}");
        assert_eq!(
            (got[0].tool_index, got[0].rule.as_deref()),
            (Some(16), Some("name-invalid")),
            "{text}"
        );
        assert!(
            got[0].message.starts_with("tools.16.custom.name: String"),
            "{got:?}"
        );
        assert!(got[0].message.ends_with("{1,128}$'"), "{got:?}");
    }
    // Fixed phrases too: Groq's, wrapped after the colon (groq-livekit-two-errors).
    let groq = "invalid JSON schema for tool t, tools[0].function.parameters: \n'required'  present but 'properties' is missing";
    assert_eq!(
        explain(None, groq, Some("groq/chat"))[0].rule.as_deref(),
        Some("required-undeclared")
    );
}

#[test]
fn quoted_messages_carry_nothing_of_their_envelope() {
    // Verbatim from reports.yaml: a Python printout wrapped inside its string
    // (moonshot-ref-expansion-conflict), a JSON body wrapped inside its string
    // (llamacpp-boolean-true-schema), the Anthropic Java SDK's map printout
    // (anth-2020-12-property-values-strings), a Rust printout cut short
    // (bedrock-type-object-goose), and a relay's request ids (oai-subschema-empty-list-relay).
    let cases = [
        (
            "LLM provider error: Error code: 400 - {'error': {'message': \"tools.function.parameters is not a valid moonshot flavored json schema, details: <At path 'properti\nes.assetRef': conflicting keywords found after $ref expansion: description>\", 'type': 'invalid_request_error'}}",
            "tools.function.parameters is not a valid moonshot flavored json schema, details: <At path 'properti\nes.assetRef': conflicting keywords found after $ref expansion: description>",
        ),
        (
            "{\n    \"error\": {\n        \"code\": 400,\n        \"message\": \"Unable to generate parser for this template. Automatic parser generation failed: JSON schema conversion\n    failed:\\nUnrecognized schema: true\",\n        \"type\": \"invalid_request_error\"\n    }\n}",
            "Unrecognized schema: true",
        ),
        (
            "{type=error, error={type=invalid_request_error, message=tools.1.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.anthropic.com/en/docs/tool-use.}}",
            "tools.1.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.anthropic.com/en/docs/tool-use.",
        ),
        (
            "ValidationException(ValidationException { message: Some(\"The value at\ntoolConfig.tools.3.toolSpec.inputSchema.json.type must be one of the\nfollowing: object.\"), ...",
            "The value at\ntoolConfig.tools.3.toolSpec.inputSchema.json.type must be one of the\nfollowing: object.",
        ),
        // A Rust printout of a struct whose `message` is no `Option` (new-user trial: the
        // quote kept the printout's `" }`).
        (
            "ApiError { status: 400, message: \"Invalid schema for function 'a': In context=('properties', 'tags'), array schema missing items.\" }",
            "Invalid schema for function 'a': In context=('properties', 'tags'), array schema missing items.",
        ),
        (
            "Invalid schema for function 'f': [] is not of type 'object', 'boolean'. (request id: 20250611110758283206479dq0R9awt) (request id: 2025061111075832763207s5RDjPXL)",
            "Invalid schema for function 'f': [] is not of type 'object', 'boolean'.",
        ),
    ];
    for (error, message) in cases {
        let got = explain(None, error, None);
        assert_eq!(
            got.first().map(|e| e.message.as_str()),
            Some(message),
            "{got:#?}"
        );
    }
    // A pattern's braces inside a Java map value are the message's own.
    let java = "{type=error, error={type=invalid_request_error, message=tools.7.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'}}";
    assert_eq!(
        explain(None, java, None)[0].message,
        "tools.7.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"
    );
}

#[test]
fn every_required_name_listed_is_explained() {
    // openrouter-vertex-required-not-defined in reports.yaml, verbatim.
    let text = "Unable to submit request because required fields ['position', 'args'] are not defined in the schema properties.";
    let schema = json!({"type":"object","properties":{"text":{"type":"string"}},"required":["text","position","args"]});
    let got = explain(Some(&schema), text, None);
    let pointers: Vec<Option<&str>> = got.iter().map(|e| e.pointer.as_deref()).collect();
    assert_eq!(
        pointers,
        [Some("/required/1"), Some("/required/2")],
        "{got:#?}"
    );
    assert!(
        got.iter()
            .all(|e| e.rule.as_deref() == Some("required-undeclared"))
    );
}

#[test]
fn a_list_of_values_inside_a_message_is_no_record_of_the_error() {
    // Trial 59 D11: the names Google lists (openrouter-vertex-required-not-defined) and the
    // value pydantic quotes (epam-sdk-side-type-list) were read as records of the error, each
    // noted as a message no template matches, though both were explained.
    let text = "Unable to submit request because required fields ['position', 'args'] are not defined in the schema properties.";
    let schema = json!({"type":"object","properties":{"text":{"type":"string"}},"required":["text","position","args"]});
    let sdk = "2 validation errors for GenerateContentConfig\n\
               tools.0.Tool.function_declarations.0.parameters.properties.arr_field.type\n  \
               Input should be 'TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT' or 'NULL' [type=enum, input_value=['array', 'null'], input_type=list]\n";
    for (request, error, explained) in [(Some(&schema), text, 2), (None, text, 1), (None, sdk, 1)] {
        let got = explain(request, error, None);
        assert_eq!(got.len(), explained, "{got:#?}");
        assert!(
            got.iter()
                .all(|e| !e.notes.iter().any(|n| n.contains("more record"))),
            "{got:#?}"
        );
    }
}

#[test]
fn a_bedrock_path_whose_value_is_not_what_bedrock_found_is_not_trusted() {
    // Trial 59 D17: `$.properties: null found` where the request has an object there got no
    // note, as a place missing from the request or a Google positional index does.
    let request = json!({"modelId":"x","messages":[],"toolConfig":{"tools":[
        {"toolSpec":{"name":"a","inputSchema":{"json":{"type":"object","properties":{"x":{"type":"string"}}}}}},
        {"toolSpec":{"name":"b","inputSchema":{"json":{"type":"object","properties":{"v":{"type":"object","properties":null}}}}}}]}});
    let error = |i: usize, path: &str| {
        format!(
            "The json schema definition at toolConfig.tools.{i}.toolSpec.inputSchema is invalid. Fix the following errors and try again: $.{path}: null found, object expected"
        )
    };
    let e = &explain(Some(&request), &error(1, "properties"), None)[0];
    assert_eq!(
        (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()),
        (Some(1), Some("/properties"), Some("properties-invalid"))
    );
    assert!(
        e.notes.iter().any(|n| n
            .starts_with("/properties is in the request, but the request has {\"v\":")
            && n.contains("not the null bedrock found; not trusted")),
        "{e:?}"
    );
    // Where the request has the null Bedrock found, no such note.
    let e = &explain(Some(&request), &error(1, "properties.v.properties"), None)[0];
    assert_eq!(e.pointer.as_deref(), Some("/properties/v/properties"));
    assert!(!e.notes.iter().any(|n| n.contains("not trusted")), "{e:?}");
}

#[test]
fn explain_names_the_rule_and_place_check_reports() {
    // groq-required-without-properties (usestrix/strix#1088): `check --target groq/chat`
    // reports `required-undeclared` at `/required`.
    let groq = json!({"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"t","parameters":{"type":"object","required":["a"]}}}]});
    let text = "invalid JSON schema for tool t, tools[0].function.parameters: 'required' present but 'properties' is missing";
    let e = &explain(Some(&groq), text, Some("groq/chat"))[0];
    assert_eq!(
        (e.pointer.as_deref(), e.rule.as_deref()),
        (Some("/required"), Some("required-undeclared"))
    );
    let check = check_findings(&groq, "groq/chat");
    assert!(
        check.contains(&(0, "/required".into(), "required-undeclared".into())),
        "{check:?}"
    );
    // Gemini's empty `properties`: check reports the map, and so does explain.
    let gemini = json!({"contents":[],"tools":[{"functionDeclarations":[{"name":"t","parameters":{"type":"object","properties":{}}}]}]});
    let text = "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties: should be non-empty for OBJECT type";
    let e = &explain(Some(&gemini), text, None)[0];
    assert_eq!(
        (e.pointer.as_deref(), e.rule.as_deref()),
        (Some("/properties"), Some("object-properties-missing"))
    );
    let check = check_findings(&gemini, "gemini/v1beta/parameters");
    assert!(
        check.contains(&(0, "/properties".into(), "object-properties-missing".into())),
        "{check:?}"
    );
    // Without `properties` at all, check reports the object, and so does explain.
    let bare = json!({"contents":[],"tools":[{"functionDeclarations":[{"name":"t","parameters":{"type":"object"}}]}]});
    assert_eq!(
        explain(Some(&bare), text, None)[0].pointer.as_deref(),
        Some("")
    );
    // A message whose wording no template knows, at a place check rejects: check's rule.
    let openai = json!({"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{"tags":{"type":"array"}}}}}]});
    let text = "Invalid schema for function 'f': In context=('properties', 'tags'), a wording no template knows.";
    assert_eq!(explain(Some(&openai), text, None)[0].rule, None);
    let check = check_findings(&openai, "openai/chat");
    assert!(
        check.contains(&(0, "/properties/tags".into(), "array-items-missing".into())),
        "{check:?}"
    );
    let e = &explain(Some(&openai), text, Some("openai/chat"))[0];
    assert_eq!(e.rule.as_deref(), Some("array-items-missing"));
    assert_eq!(e.fix.as_deref(), fix_for("array-items-missing"));
    assert!(
        e.notes
            .iter()
            .any(|n| n.contains("`check --target openai/chat` reports")),
        "{:?}",
        e.notes
    );
}

/// The errors `check --target {target}` reports for `request`: (tool, pointer, rule).
fn check_findings(request: &Value, target: &str) -> Vec<(usize, String, String)> {
    check_findings_at(request, target, crate::check::Level::Error)
}

/// The findings `check --target {target}` reports for `request` at `level` or above: (tool,
/// pointer, rule).
fn check_findings_at(
    request: &Value,
    target: &str,
    level: crate::check::Level,
) -> Vec<(usize, String, String)> {
    let set = crate::input::from_value(std::path::Path::new("r.json"), request.clone()).unwrap();
    let profiles = crate::profile::embedded().unwrap();
    let profile = crate::profile::CompiledProfile::new(profiles.get(target).unwrap());
    crate::check::check_set(&set, &profile)
        .into_iter()
        .filter(|f| f.level >= level)
        .map(|f| (f.tool_index, f.pointer, f.rule.to_string()))
        .collect()
}

/// A map keyword written as a list (`properties: []`, as PHP and some serializers write an
/// empty map) is `properties-invalid`, the rule `check` reports there, with or without the
/// request; and other list-valued keywords are read as their own rules, not all as
/// `keyword-unsupported`.
#[test]
fn a_list_where_google_wants_one_value_is_the_keywords_own_rule() {
    let request = json!({"tools":[{"functionDeclarations":[
        {"name":"t","parameters":{"type":"object","properties":[]}}
    ]}]});
    let error = "Invalid JSON payload received. Unknown name \"properties\" at \
                 'tools[0].function_declarations[0].parameters': Proto field is not repeating, \
                 cannot start list.";
    for (req, target) in [
        (None, None),
        (Some(&request), None),
        (Some(&request), Some("gemini/v1beta/parameters")),
    ] {
        let got = explain(req, error, target);
        assert_eq!(got.len(), 1, "{got:#?}");
        assert_eq!(got[0].rule.as_deref(), Some("properties-invalid"));
        assert_eq!(got[0].pointer.as_deref(), Some("/properties"));
        // Given the target, the fix check writes there: that target rejects `{}` too.
        let fix = got[0].fix.as_deref().unwrap_or_default();
        if target.is_some() {
            assert!(fix.contains("leave the schema out"), "{fix}");
        } else {
            assert_eq!(Some(fix), fix_for("properties-invalid"));
        }
    }
    for (keyword, rule) in [
        ("type", "type-list"),
        ("items", "items-not-schema"),
        ("properties", "properties-invalid"),
        ("nullable", "nullable-spelling"),
        ("minimum", "keyword-value-invalid"),
        ("description", "keyword-value-invalid"),
        ("format", "keyword-value-invalid"),
        ("const", "keyword-unsupported"),
    ] {
        let error = format!(
            "Invalid JSON payload received. Unknown name \"{keyword}\" at \
             'tools[0].function_declarations[0].parameters.properties[0].value': Proto field is \
             not repeating, cannot start list."
        );
        let got = explain(None, &error, None);
        assert_eq!(got[0].rule.as_deref(), Some(rule), "{keyword}");
    }
}

/// A meta-schema violation at a keyword that `keyword-value-invalid` judges by kind is that
/// rule, as `check` reports it; an unknown keyword's is `keyword-unsupported`.
#[test]
fn a_meta_schema_violation_at_a_keyword_names_the_rule_check_reports() {
    use super::templates::meta_rule;
    assert_eq!(meta_rule("/properties/a/minimum"), "keyword-value-invalid");
    assert_eq!(meta_rule("/properties/a/pattern"), "keyword-value-invalid");
    assert_eq!(meta_rule("/properties/a/properties"), "properties-invalid");
    assert_eq!(meta_rule("/properties/a/type"), "type-invalid");
    assert_eq!(meta_rule("/properties/a/enum"), "enum-invalid");
    assert_eq!(meta_rule("/properties/a"), "schema-invalid");
    // After `dependencies` comes a property's name (`items` here), then a keyword of its
    // schema; the member itself or an index into its list of names is the keyword's value.
    assert_eq!(
        meta_rule("/properties/a/dependencies/items/type"),
        "type-invalid"
    );
    assert_eq!(
        meta_rule("/properties/a/dependencies/items/minimum"),
        "keyword-value-invalid"
    );
    assert_eq!(
        meta_rule("/properties/a/dependencies/items"),
        "keyword-unsupported"
    );
    assert_eq!(
        meta_rule("/properties/a/dependencies/items/0"),
        "keyword-unsupported"
    );
    // Draft-04's boolean bound is a form of its own, keyword-unsupported's in check.
    use super::templates::meta_rule_for;
    let at = "/properties/a/exclusiveMinimum";
    assert_eq!(meta_rule_for(at, Some(&json!(true))), "keyword-unsupported");
    assert_eq!(
        meta_rule_for(at, Some(&json!("1"))),
        "keyword-value-invalid"
    );
    assert_eq!(meta_rule_for(at, None), "keyword-value-invalid");
    // A boolean keyword given another kind is a bad value, as check reports it; a keyword
    // that rule does not judge is keyword-unsupported's.
    assert_eq!(
        meta_rule("/properties/a/uniqueItems"),
        "keyword-value-invalid"
    );
    assert_eq!(
        meta_rule("/properties/a/dependentRequired"),
        "keyword-unsupported"
    );
}

/// Where `check --target` has no error at the place (the target's evidence is not in yet, so
/// it only warns), the rule it warns about there is named: one rule for one problem.
#[test]
fn explain_names_the_rule_check_warns_about_when_it_has_no_error_there() {
    let request = json!({"tools":[{"functionDeclarations":[
        {"name":"t","parameters":{"type":"object","properties":[]}}
    ]}]});
    let mut out = vec![Explanation {
        provider: "google",
        message: "m".into(),
        tool_index: Some(0),
        tool: Some("t".into()),
        pointer: Some("/properties".into()),
        located: Located::Path,
        rule: Some("keyword-unsupported".into()),
        fix: fix_for("keyword-unsupported").map(str::to_string),
        notes: Vec::new(),
    }];
    agree_with_check(&mut out, &request, "gemini/v1beta/parameters");
    assert_eq!(out[0].rule.as_deref(), Some("properties-invalid"));
    // The fix check writes for its warning there (the target rejects `{}` at the root too).
    let fix = out[0].fix.as_deref().unwrap_or_default();
    assert!(
        fix.starts_with("Declare the object's properties") && fix.contains("leave the schema out"),
        "{fix}"
    );
    assert!(
        out[0].notes[0].contains("reports `properties-invalid` here"),
        "{:?}",
        out[0].notes
    );
}

/// Vertex's dotted path (gemini-cli-vertex-no-type-field in reports.yaml; trial 63 D4): a `.`
/// may be inside a property's name, so the path is read where the schema lacks the `type` the
/// message calls missing; a schema that has it is named with a note, and told the target, a
/// `type` check has no evidence for is no stand-in for a missing one.
#[test]
fn a_dotted_path_is_read_where_the_schema_lacks_the_keyword_it_calls_missing() {
    let msg = "Unable to submit request because `create-field` functionDeclaration \
               `parameters.data.meta.width` schema didn't specify the schema type field.";
    let tool = |properties: Value| {
        json!({"tools":[{"functionDeclarations":[{"name":"create-field","description":"d",
            "parameters":{"type":"object","properties":properties}}]}]})
    };
    let typed = json!({"data":{"type":"object","properties":{"meta":{"type":"object",
        "properties":{"width":{"type":"integer"}}}}}});
    let dotted = json!({"type":"object","properties":{"width":{}}});
    let untyped = "/properties/data.meta/properties/width";
    let out = explain(Some(&tool(json!({"data.meta": dotted}))), msg, None);
    assert_eq!(out[0].pointer.as_deref(), Some(untyped), "{out:?}");
    let mut both = typed.clone();
    both["data.meta"] = dotted;
    let out = explain(Some(&tool(both)), msg, None);
    assert_eq!(out[0].pointer.as_deref(), Some(untyped), "{out:?}");
    let out = explain(Some(&tool(typed.clone())), msg, None);
    assert_eq!(
        out[0].pointer.as_deref(),
        Some("/properties/data/properties/meta/properties/width"),
        "{out:?}"
    );
    assert!(
        out[0]
            .notes
            .iter()
            .any(|n| n.contains("that schema does have `type`")),
        "{out:?}"
    );
    let out = explain(Some(&tool(typed)), msg, Some("vertex/v1/parameters"));
    assert_eq!(out[0].rule.as_deref(), Some("type-missing"), "{out:?}");
    assert!(
        out[0].notes.contains(&nothing_here("type-missing")),
        "{out:?}"
    );
}

/// A name or description refusal attributed to a tool whose name is of letters, digits, `_` and
/// `-` and whose description is short (trial 63 D1): the request has nothing there that the
/// rule is about under any profile, so the note says the message was about another version of
/// the request, with or without the target (it had said, with it, that the message predates
/// the evidence, and nothing without it). A dotted name is what `name-invalid` is about.
#[test]
fn a_refusal_of_a_valid_name_or_description_is_about_another_request() {
    let request = |name: &str| {
        json!({"tools":[{"type":"function","function":{"name":name,"description":"Create a note.",
            "parameters":{"type":"object","properties":{}}}}]})
    };
    let name = "Invalid 'tools[0].function.name': string does not match pattern. Expected a \
                string that matches the pattern '^[a-zA-Z0-9_-]+$'.";
    let desc = "Invalid 'tools[0].function.description': string too long. Expected a string \
                with maximum length 1024, but got a string with length 2121 instead.";
    for (text, rule) in [(name, "name-invalid"), (desc, "description-too-long")] {
        for target in [None, Some("openai/chat")] {
            let out = explain(Some(&request("create_note")), text, target);
            assert_eq!(out[0].rule.as_deref(), Some(rule), "{out:?}");
            assert!(
                out[0].notes.contains(&nothing_here(rule)),
                "{target:?} {out:?}"
            );
            assert!(
                !out[0].notes.iter().any(|n| n.contains("predates")),
                "{target:?} {out:?}"
            );
        }
    }
    let out = explain(Some(&request("create.note")), name, None);
    assert_eq!(out[0].rule.as_deref(), Some("name-invalid"), "{out:?}");
    assert!(
        !out[0].notes.contains(&nothing_here("name-invalid")),
        "{out:?}"
    );
}

/// Google's unknown `foo` in an array without `items` (trial 63 D3): check, told the target,
/// warns about `foo` and rejects the array at the parent; the message keeps its own rule and
/// place, with check's fix for `foo`, and the parent's error is a note, not the reading
/// (adding `items` leaves `foo` refused).
#[test]
fn a_keyword_check_warns_about_keeps_its_rule_over_an_error_at_its_parent() {
    let request = json!({"tools":[{"functionDeclarations":[
        {"name":"f","parameters":{"type":"object","properties":{"t":{"type":"array","foo":1}}}}
    ]}]});
    let error = "Invalid JSON payload received. Unknown name \"foo\" at \
                 'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.";
    let out = explain(Some(&request), error, Some("gemini/v1beta/parameters"));
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(
        out[0].pointer.as_deref(),
        Some("/properties/t/foo"),
        "{out:?}"
    );
    assert_eq!(
        out[0].rule.as_deref(),
        Some("keyword-unsupported"),
        "{out:?}"
    );
    assert!(
        out[0]
            .fix
            .as_deref()
            .is_some_and(|f| f.starts_with("Remove `foo`")),
        "{out:?}"
    );
    assert!(
        out[0]
            .notes
            .iter()
            .any(|n| n.contains("`array-items-missing` at /properties/t,")),
        "{out:?}"
    );
}

/// OpenAI's "got 'type: \"None\"'" at a root that is a bare `anyOf` is what check reports as
/// `root-combinator` at `/anyOf` (oai-type-none-root-anyof-twenty in reports.yaml): explain,
/// told the target, names that rule and place; where a report decides, check flags that
/// place too, and no note sets the two apart.
#[test]
fn explain_follows_check_to_a_keyword_of_the_place_and_says_when_check_finds_nothing() {
    let request = json!({"tools":[{"type":"function","function":{"name":"navigate_app","description":"d","parameters":{"anyOf":[
        {"type":"object","properties":{"type":{"const":"a"}}},
        {"type":"object","properties":{"type":{"const":"b"}}}]}}}]});
    let text = "Invalid schema for function 'navigate_app': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'.";
    let alone = &explain(Some(&request), text, None)[0];
    assert_eq!(
        (alone.pointer.as_deref(), alone.rule.as_deref()),
        (Some(""), Some("root-not-object"))
    );
    let e = &explain(Some(&request), text, Some("openai/chat"))[0];
    assert_eq!(
        (e.pointer.as_deref(), e.rule.as_deref()),
        (Some("/anyOf"), Some("root-combinator"))
    );
    assert!(check_findings(&request, "openai/chat").contains(&(
        0,
        "/anyOf".into(),
        "root-combinator".into()
    )));
    // ollama-type-array: with no Ollama source quoting a `type` list as accepted, the report
    // decides, so check flags the place explain names and no note sets the two apart (the
    // note's own cases are tests/cli/explain/groq-tool-by-name and xai-exact-place).
    let ollama = json!({"tools":[{"type":"function","function":{"name":"t","description":"d","parameters":
        {"type":"object","properties":{"limit":{"type":["integer","null"]}}}}}]});
    let text = "json: cannot unmarshal array into Go struct field .tools.function.parameters.properties.type of type string";
    let e = &explain(Some(&ollama), text, Some("ollama/chat"))[0];
    assert_eq!(e.rule.as_deref(), Some("type-list"));
    assert!(
        check_findings(&ollama, "ollama/chat")
            .iter()
            .any(|(_, _, rule)| rule == "type-list")
    );
    assert!(
        !e.notes.iter().any(|n| n.contains("reports nothing here")),
        "{:?}",
        e.notes
    );
}

/// A keyword Google calls missing that the request gives as a JSON null (proto3 JSON reads a
/// null as not set) is the null itself: told the target, explain names the rule check warns
/// about there, and no note sends the user to another version of the request (trial 56 D6).
/// So is OpenAI's "array schema missing items" at an array with `prefixItems`, which check
/// warns about at that keyword; where the request has nothing of the kind, the note stands.
#[test]
fn a_null_keyword_is_what_a_message_calling_it_missing_is_about() {
    let gemini = |parameters: Value| {
        json!({"contents":[],"tools":[{"functionDeclarations":[
            {"name":"probe_tool","description":"d","parameters":parameters}]}]})
    };
    let must = "must be specified when not using one_of, any_of or all_of fields";
    for (parameters, field, pointer, rule) in [
        (
            json!({"type":null,"properties":{"value":{"type":"string"}},"required":["value"]}),
            format!("type: {must}"),
            "/type",
            "root-not-object",
        ),
        (
            json!({"type":"object","properties":null}),
            "properties: should be non-empty for OBJECT type".to_string(),
            "/properties",
            "properties-invalid",
        ),
        (
            json!({"type":"object","properties":{"value":{"type":null}}}),
            format!("properties[value].type: {must}"),
            "/properties/value/type",
            "type-invalid",
        ),
    ] {
        let request = gemini(parameters);
        let text = format!(
            "* GenerateContentRequest.tools[0].function_declarations[0].parameters.{field}\n"
        );
        let got = explain(Some(&request), &text, Some("gemini/v1beta/parameters"));
        let [e] = got.as_slice() else {
            panic!("{got:#?}")
        };
        assert_eq!(
            (e.pointer.as_deref(), e.rule.as_deref()),
            (Some(pointer), Some(rule)),
            "{field}: {:?}",
            e.notes
        );
        assert!(
            e.notes.iter().any(|n| n.contains("is a JSON null")),
            "{:?}",
            e.notes
        );
        assert!(
            !e.notes
                .iter()
                .any(|n| n.contains("another version") || n.contains("does have")),
            "{:?}",
            e.notes
        );
    }
    let openai = |value: Value| {
        json!({"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"probe_tool",
            "description":"d","parameters":{"type":"object","properties":{"value":value},"required":["value"]}}}]})
    };
    let text = "Invalid schema for function 'probe_tool': In context=('properties', 'value'), array schema missing items.";
    let tuple =
        openai(json!({"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]}));
    let e = &explain(Some(&tuple), text, Some("openai/chat"))[0];
    assert_eq!(
        (e.pointer.as_deref(), e.rule.as_deref()),
        (
            Some("/properties/value/prefixItems"),
            Some("keyword-unsupported")
        ),
        "{:?}",
        e.notes
    );
    assert!(
        !e.notes.iter().any(|n| n.contains("another version")),
        "{:?}",
        e.notes
    );
    let e = &explain(
        Some(&openai(json!({"type":"string"}))),
        text,
        Some("openai/chat"),
    )[0];
    assert!(
        e.notes.iter().any(|n| n.contains("another version")),
        "{:?}",
        e.notes
    );
}

/// Google's "should be non-empty for OBJECT type" at a `properties: null` is answered by
/// check's warning there (`properties-invalid`), whose fix must not be the rule's `{}` when
/// there are none: Google rejects an empty map with that very message
/// (pipecat-properties-empty-object in reports.yaml), and check rejects it under that target
/// (trial 57 D6). Nested, the members are to be declared; at the root of a named tool, the
/// schema left out, as `repair --target gemini/v1beta/parameters` does for `{}` there.
#[test]
fn a_null_properties_google_calls_empty_is_not_fixed_by_an_empty_map() {
    let gemini = |parameters: Value| {
        json!({"contents":[],"tools":[{"functionDeclarations":[
            {"name":"probe_tool","description":"d","parameters":parameters}]}]})
    };
    let message = "should be non-empty for OBJECT type";
    for (parameters, field, pointer, fix) in [
        (
            json!({"type":"object","properties":{"value":{"type":"object","properties":null}}}),
            "properties[value].properties",
            "/properties/value/properties",
            "an object with no members has no form there",
        ),
        (
            json!({"type":"object","properties":null}),
            "properties",
            "/properties",
            "For a tool with no arguments, leave the schema out",
        ),
    ] {
        let text = format!(
            "* GenerateContentRequest.tools[0].function_declarations[0].parameters.{field}: {message}\n"
        );
        let got = explain(
            Some(&gemini(parameters)),
            &text,
            Some("gemini/v1beta/parameters"),
        );
        let [e] = got.as_slice() else {
            panic!("{got:#?}")
        };
        assert_eq!(
            (e.pointer.as_deref(), e.rule.as_deref()),
            (Some(pointer), Some("properties-invalid"))
        );
        let said = e.fix.as_deref().unwrap_or_default();
        assert!(
            said.starts_with("Declare the object's properties") && said.contains(fix),
            "{said}"
        );
        assert!(!said.contains("when there are none"), "{said}");
    }
}

/// Google's "should be non-empty for OBJECT type" at a nested object, explained without
/// `--target` (check not asked), gets the fix check writes for any nested place, as with the
/// target: declare its members; not the rule's root-only advice to keep
/// `{"type":"object","properties":{}}`, the very map Google rejected there (trial 58 D7). With
/// or without the request; at the root the rule's fix stands.
#[test]
fn a_nested_object_google_calls_empty_is_not_told_to_keep_an_empty_map() {
    use crate::profile::rules::object_properties_missing::NESTED_FIX;
    let request = json!({"contents":[],"tools":[{"functionDeclarations":[{"name":"t0",
        "description":"d","parameters":{"type":"object","properties":{"value":
        {"type":"object","properties":{}}}}}]}]});
    let said = |field: &str| {
        format!(
            "GenerateContentRequest.tools[0].function_declarations[0].parameters{field}: \
             should be non-empty for OBJECT type"
        )
    };
    // The nested object's place, or (without the request, which says where `properties` is a
    // keyword) the object's own.
    for (field, pointer, fix) in [
        (
            ".properties[value].properties",
            "/properties/value",
            Some(NESTED_FIX),
        ),
        (".properties[value]", "/properties/value", Some(NESTED_FIX)),
        (".properties", "", fix_for("object-properties-missing")),
    ] {
        for (given, target) in [
            (Some(&request), None),
            (None, None),
            (Some(&request), Some("gemini/v1beta/parameters")),
        ] {
            if pointer.is_empty() && target.is_some() {
                continue;
            }
            let got = explain(given, &said(field), target);
            let [e] = got.as_slice() else {
                panic!("{got:#?}")
            };
            let at = e.pointer.as_deref().unwrap_or_default();
            assert!(at_or_below(at, pointer), "{field}: {at}");
            assert_eq!(
                e.rule.as_deref(),
                Some("object-properties-missing"),
                "{field}"
            );
            assert_eq!(
                e.fix.as_deref(),
                fix,
                "{field} {target:?} {}",
                given.is_some()
            );
        }
    }
}

/// Vertex's and Gemini's lead-in "Unable to submit request because" is the provider's own
/// text: quoted with the rest, also in text given as is (not decoded from an envelope).
#[test]
fn the_providers_lead_in_is_quoted() {
    let error = "Unable to submit request because function_declarations[0].parameters.properties[x].items: missing field";
    let got = explain(None, error, None);
    assert_eq!(got[0].message, error);
    // A client's prefix is not the provider's.
    let got = explain(None, &format!("Error: {error}"), None);
    assert_eq!(got[0].message, error);
}

/// An index past `usize` names no tool: the explanation names none, and the note quotes the
/// index as the provider wrote it (never as the number it saturated to).
#[test]
fn a_tool_index_past_any_request_names_no_tool() {
    let error = "function_declarations[99999999999999999999999].parameters.properties[x].items: missing field";
    let request = json!({"tools":[{"functionDeclarations":[
        {"name":"t","parameters":{"type":"object","properties":{"x":{"type":"array"}}}}
    ]}]});
    for req in [None, Some(&request)] {
        let got = explain(req, error, None);
        assert_eq!(got.len(), 1, "{got:#?}");
        assert_eq!(got[0].tool_index, None);
        assert_eq!(got[0].tool, None);
        let notes = got[0].notes.join("\n");
        assert!(
            notes.contains("index 99999999999999999999999 is past any"),
            "{notes}"
        );
        assert!(!notes.contains(&usize::MAX.to_string()), "{notes}");
    }
}

#[test]
fn anthropic_unique_names_finds_the_repeated_name_in_the_request() {
    // anthropic-tool-names-unique (reports/documented/requests.yaml): the message names no tool.
    let body = r#"Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"tools: Tool names must be unique."}}"#;
    let r = json!({"model":"m","messages":[],"tools":[
        {"name":"x","input_schema":{"type":"object","properties":{}}},
        {"name":"y","input_schema":{"type":"object","properties":{}}},
        {"name":"x","input_schema":{"type":"object","properties":{}}}
    ]});
    // Both tools named `x`, each noting the other, as `check` reports each of them.
    let found = explain(Some(&r), body, Some("anthropic/messages"));
    assert_eq!(found.len(), 2, "{found:?}");
    for (e, (index, other)) in found.iter().zip([(0, "tool #2"), (2, "tool #0")]) {
        assert_eq!(e.rule.as_deref(), Some("name-duplicate"));
        assert_eq!((e.tool_index, e.tool.as_deref()), (Some(index), Some("x")));
        assert_eq!(e.pointer.as_deref(), Some(""));
        assert!(
            e.notes
                .iter()
                .any(|n| n == &format!("also named `x`: {other}")),
            "{:?}",
            e.notes
        );
    }
    // Without the request: the rule, no tool, and a note asking for the request.
    let e = &explain(None, body, None)[0];
    assert_eq!(e.rule.as_deref(), Some("name-duplicate"));
    assert_eq!((e.tool_index, e.tool.as_deref()), (None, None));
    assert!(e.notes.iter().any(|n| n.contains("give the request")));
    // Check's warning about the later tool's schema (no `properties`) is another problem: with
    // the target, the message's own rule is kept.
    let bare = json!({"tools":[
        {"name":"x","input_schema":{"type":"object","properties":{}}},
        {"name":"x","input_schema":{"type":"object"}}
    ]});
    let found: Vec<_> = explain(Some(&bare), body, Some("anthropic/messages"))
        .into_iter()
        .map(|e| (e.rule, e.tool_index))
        .collect();
    let duplicate = || Some("name-duplicate".to_string());
    assert_eq!(found, [(duplicate(), Some(0)), (duplicate(), Some(1))]);
    // A request repeating no name: the rule stays (the message says it), the note says so.
    let distinct = json!({"tools":[{"name":"a","input_schema":{"type":"object"}}]});
    let e = &explain(Some(&distinct), body, None)[0];
    assert_eq!(
        (e.rule.as_deref(), e.tool_index),
        (Some("name-duplicate"), None)
    );
    assert!(e.notes.iter().any(|n| n.contains("no two tools")));
}

#[test]
fn gemini_duplicate_declaration_names_every_tool_of_that_name() {
    // gemini-duplicate-function-declaration (reports/documented/requests.yaml).
    let body = r#"litellm.BadRequestError: GeminiException BadRequestError - {"error": {"code": 400, "message": "Duplicate function declaration found: load_conversation_data", "status": "INVALID_ARGUMENT"}}"#;
    let e = &explain(None, body, Some("gemini/v1beta/parameters"))[0];
    assert_eq!(e.rule.as_deref(), Some("name-duplicate"));
    assert_eq!(e.tool.as_deref(), Some("load_conversation_data"));
    assert_eq!(e.tool_index, None);
    let decl = json!({"name":"load_conversation_data","parameters":{"type":"object","properties":{"id":{"type":"string"}}}});
    let r = json!({"contents":[],"tools":[
        {"functionDeclarations":[decl.clone(), {"name":"other","parameters":{"type":"object","properties":{}}}]},
        {"functionDeclarations":[decl]}
    ]});
    let found = explain(Some(&r), body, Some("gemini/v1beta/parameters"));
    assert_eq!(found.len(), 2, "{found:?}");
    for (e, index) in found.iter().zip([0, 2]) {
        assert_eq!(
            (e.tool_index, e.tool.as_deref(), e.pointer.as_deref()),
            (Some(index), Some("load_conversation_data"), Some(""))
        );
        assert_eq!(e.rule.as_deref(), Some("name-duplicate"));
    }
    // Another repeated name of the request is not what this message is about.
    let r = json!({"contents":[],"tools":[{"functionDeclarations":[
        {"name":"a","parameters":{"type":"object","properties":{}}},
        {"name":"a","parameters":{"type":"object","properties":{}}}
    ]}]});
    let e = &explain(Some(&r), body, None)[0];
    assert_eq!((e.tool_index, e.tool.as_deref()), (None, None));
    assert!(e.notes.iter().any(|n| n.contains("no two tools named")));
}

/// Gemini's "type: must be specified" reaches users cut after its first words; read either way
/// as `type-missing` at the schema, and a positional index is trusted only where that schema
/// really has no `type`.
#[test]
fn a_type_must_be_specified_cut_short_is_type_missing_where_type_is_absent() {
    let text = "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[1].value.type: must be specified";
    let request = |days: Value| {
        json!({"tools": [{"functionDeclarations": [{"name": "w", "parameters": {
            "type": "object", "properties": {"city": {"type": "string"}, "days": days}}}]}]})
    };
    let e = &explain(Some(&request(json!({"description": "d"}))), text, None)[0];
    assert_eq!(
        (e.pointer.as_deref(), e.rule.as_deref()),
        (Some("/properties/days"), Some("type-missing"))
    );
    let e = &explain(Some(&request(json!({"type": "integer"}))), text, None)[0];
    assert_eq!(e.pointer, None);
    assert_eq!(e.rule.as_deref(), Some("type-missing"));
    assert!(
        e.notes
            .iter()
            .any(|n| n.contains("that schema does have `type`; not trusted")),
        "{:?}",
        e.notes
    );
}

#[test]
fn a_problem_repeated_on_one_long_line_is_one_problem_quoted_once() {
    // A log that joined a repeated Bedrock message into one line: each statement used to run
    // to the end of the line (quoting the rest of the text in every problem, and scanning it
    // once per problem). Each now runs to where the next problem is found.
    let line = "The value at toolConfig.tools.0.toolSpec.inputSchema.json.a.b must be one of the \
                following: ";
    for n in [10, 5_000] {
        let found = explain(None, &line.repeat(n), None);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.len() <= 2 * line.len(),
            "{}",
            found[0].message
        );
        assert_eq!(found[0].pointer.as_deref(), Some("/a/b"));
    }
}

#[test]
fn each_problem_is_read_at_its_own_place_in_the_text() {
    // The same words twice, each line going on differently: each is quoted from its own line
    // (looking the words up found the first line for both, and lost the second).
    let text = "The value at toolConfig.tools.0.toolSpec.inputSchema.json.a must be one of the \
                following: object. Got: string\n\
                The value at toolConfig.tools.0.toolSpec.inputSchema.json.a must be one of the \
                following: object. Got: array\n";
    let raws = templates::read(text, None);
    let ats: Vec<Option<usize>> = raws.iter().map(|r| r.at).collect();
    assert_eq!(ats, [Some(0), text.find("\nThe").map(|i| i + 1)]);
    let found = explain(None, text, None);
    let said: Vec<&str> = found.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(found.len(), 2, "{said:?}");
    assert!(said[0].ends_with("Got: string") && said[1].ends_with("Got: array"));
}

#[test]
fn problems_read_from_one_statement_share_its_words() {
    // Mistral's message is quoted for every `loc`; one copy of it, however many there are
    // (a copy each made a one-line text of many `loc`s quadratic in memory).
    let text = format!(
        "Extra inputs are not permitted {}",
        (0..2_000)
            .map(|i| format!("loc: body.tools.{i}.function.foo "))
            .collect::<String>()
    );
    let raws: Vec<_> = templates::read(&text, Some("mistral"));
    assert_eq!(raws.len(), 2_000);
    assert!(
        raws.iter()
            .all(|r| std::rc::Rc::ptr_eq(&r.message, &raws[0].message))
    );
    assert!(raws[0].message.len() <= 2 * templates::LINE_READ);
}

#[test]
fn at_most_max_problems_are_read_and_the_last_says_so() {
    let text: String = (0..MAX_PROBLEMS + 500)
        .map(|i| {
            format!(
                "* GenerateContentRequest.tools[0].function_declarations[{i}].parameters.properties[x].items: missing field\n"
            )
        })
        .collect();
    let found = explain(None, &text, None);
    assert_eq!(found.len(), MAX_PROBLEMS);
    assert_eq!(found[0].tool_index, Some(0));
    let last = found.last().unwrap();
    assert_eq!(last.tool_index, Some(MAX_PROBLEMS - 1));
    assert!(
        last.notes
            .iter()
            .any(|n| n.contains("the rest were not read")),
        "{:?}",
        last.notes
    );
    // The same problem over and over is one problem, and no note.
    let once = "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[x].items: missing field\n";
    let found = explain(None, &once.repeat(MAX_PROBLEMS + 500), None);
    assert_eq!(found.len(), 1);
    assert!(found[0].notes.iter().all(|n| !n.contains("not read")));
}

/// Past the cap nothing more is read: a log of far more problems than are kept is read only
/// up to the part where the cap was reached.
#[test]
fn reading_stops_at_the_cap() {
    let line = |i: usize| {
        format!(
            "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[p{i}].items: missing field.\n"
        )
    };
    let text: String = (0..20 * MAX_PROBLEMS).map(line).collect();
    READ_BYTES.with(|n| n.set(0));
    let found = explain(None, &text, None);
    let read = READ_BYTES.with(std::cell::Cell::get);
    assert_eq!(found.len(), MAX_PROBLEMS);
    assert_eq!(
        found.last().and_then(|e| e.pointer.as_deref()),
        Some(&*format!("/properties/p{}", MAX_PROBLEMS - 1))
    );
    assert!(
        found[MAX_PROBLEMS - 1]
            .notes
            .iter()
            .any(|n| n.contains("the rest were not read"))
    );
    // The whole text is about 2.2 MB; the cap is reached in its first part.
    assert!(text.len() > 8 * PART, "{}", text.len());
    assert!(read <= 2 * PART, "read {read} of {} bytes", text.len());
    // A text of one part is read once, whole.
    READ_BYTES.with(|n| n.set(0));
    let small: String = (0..10).map(line).collect();
    assert_eq!(explain(None, &small, None).len(), 10);
    assert_eq!(READ_BYTES.with(std::cell::Cell::get), small.len());
}

/// A wrapped line is mended only within the envelope an error starts with: the text after it
/// is not copied or scanned (once per place an envelope might start, in a 16 MB log).
#[test]
fn line_breaks_are_escaped_only_in_the_first_value() {
    let after = "x\n\"p\nq\"".repeat(1000);
    let text = format!("{{\"a\": \"x\ny\", \"b\": [1, \"}}\"]}} then {after}");
    assert_eq!(
        envelope::escape_line_breaks(&text, &['"']).as_deref(),
        Some("{\"a\": \"x\\ny\", \"b\": [1, \"}\"]}")
    );
    // Breaks only after the value change nothing it holds.
    assert_eq!(
        envelope::escape_line_breaks(&format!("[1] {after}"), &['"']),
        None
    );
}

/// Nesting past what serde_json and `pyrepr` read is not copied to its end (a 10 MB text of
/// `[` was, once per place an envelope might start: 26.7 s); nesting within it still is.
#[test]
fn line_breaks_are_not_escaped_past_the_parsers_nesting() {
    let deep = format!("{}\"a\nb\"", "[".repeat(200));
    assert_eq!(envelope::escape_line_breaks(&deep, &['"']), None);
    let within = format!("{}\"a\nb\"{}", "[".repeat(100), "]".repeat(100));
    let escaped = format!("{}\"a\\nb\"{}", "[".repeat(100), "]".repeat(100));
    assert_eq!(
        envelope::escape_line_breaks(&within, &['"']).as_deref(),
        Some(escaped.as_str())
    );
}

/// An envelope cut short after its message (a log's length limit) still gives the message,
/// JSON or Python, when that string is whole; one cut inside its message, or a text of several
/// messages, gives none of its own.
#[test]
fn a_cut_envelope_gives_its_whole_message() {
    let message = "Invalid schema for function 'shell': In context=(), 'required' is required to \
                   be supplied and to be an array including every key in properties. Missing \
                   'workdir'.";
    let python = format!("Error code: 400 - {{'error': {{'message': \"{message}\", 'type': 'inv");
    let json = format!(
        "{{\"error\": {{\"message\": {}, \"typ",
        serde_json::json!(message)
    );
    for cut in [python, json] {
        let texts = envelope::error_texts(&cut);
        assert_eq!(
            texts.first().map(|t| t.text.as_str()),
            Some(message),
            "{cut}"
        );
        let found = explain(None, &cut, None);
        let [e] = found.as_slice() else {
            panic!("{cut}: {found:#?}")
        };
        assert_eq!(e.pointer.as_deref(), Some("/properties/workdir"));
        assert_eq!(e.message, message);
    }
    let inside =
        "Error code: 400 - {'error': {'message': \"Invalid schema for function 'shell': In";
    assert_ne!(
        envelope::error_texts(inside)[0].text,
        "Invalid schema for function 'shell': In"
    );
}

/// A path of 200,000 names read from an error (Vertex's `Unable to submit request`, Google's
/// validator path, 1.2 MB of text each; synthetic) is turned into its pointer in one pass:
/// copied once per name, a path of 160,000 names took 55 s in a debug build and 200,000 more
/// than a minute (quadratic). (The project asserts no times: this pins the reading of a path
/// of that size.)
#[test]
fn a_path_of_many_names_is_read_in_one_pass() {
    let n = 200_000;
    let step = "/properties/a";
    let unable = format!(
        "Unable to submit request because `f` functionDeclaration `p.{}b` schema x",
        "a.".repeat(n)
    );
    let e = explain(None, &unable, None);
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].pointer,
        Some(format!("{}/properties/b", step.repeat(n)))
    );
    let google = format!(
        "GenerateContentRequest.tools[0].function_declarations[0].parameters{}: missing field",
        ".properties[a]".repeat(n)
    );
    let e = explain(None, &google, None);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].pointer, Some(step.repeat(n)));
}

/// A Google body whose `details` hold many `@type` entries with a `message` of their own
/// (trial 54 D8) gives each message once, in the order written, the top `message` last: a
/// message repeated is read as its first place. The texts seen are kept in a set
/// (`envelope::first_of_each`), so 40,000 entries read in about 0.8 s CPU (debug build); each
/// text was searched for among the texts kept before it, 8 s, quadratic. (The project asserts
/// no times: this pins the reading of a body of that size.)
#[test]
fn each_message_of_many_google_details_is_read_once_in_order() {
    let n = 40_000;
    let message = |i: usize| format!("function_declarations[{i}].parameters: missing field.");
    let details: Vec<_> = (0..n)
        .map(|i| {
            json!({"@type": "type.googleapis.com/google.rpc.LocalizedMessage",
                "locale": "en-US", "message": message(i % (n / 2))})
        })
        .collect();
    let body = json!({"error": {"code": 400, "message": "top", "status": "INVALID_ARGUMENT",
        "details": details}});
    let texts = envelope::error_texts(&body.to_string());
    // The decoded messages, then the error as given (which is not).
    let (decoded, given) = texts.split_at(texts.len() - 1);
    assert!(!given[0].decoded);
    let read: Vec<&str> = decoded.iter().map(|t| t.text.as_str()).collect();
    let mut expected: Vec<String> = (0..n / 2).map(message).collect();
    expected.push("top".into());
    // Compared whole, not printed whole: a failure shows where the lists part.
    let parted = read.iter().zip(&expected).position(|(r, e)| r != e);
    assert_eq!(
        (read.len(), parted),
        (expected.len(), None),
        "{:?}",
        parted.map(|i| &read[i..(i + 3).min(read.len())])
    );
    assert!(decoded.iter().all(|t| t.decoded && t.record.is_none()));
}

#[test]
fn text_is_parted_at_line_ends() {
    let one = |t: &str| parts(t).map(|r| (r.start, r.end)).collect::<Vec<_>>();
    assert_eq!(one(""), [(0, 0)]);
    assert_eq!(one("a\nb"), [(0, 3)]);
    let long = format!("{}é\n{}\nend", "x".repeat(PART - 1), "y".repeat(10));
    let got: Vec<_> = parts(&long).collect();
    assert_eq!(got, [0..PART + 2, PART + 2..long.len()]);
    for r in got {
        assert!(long.get(r).is_some());
    }
}

#[test]
fn an_sdk_path_reads_only_its_own_input_type() {
    // google-genai prints what is wrong under each path: `input_type=list` under a later path
    // is not this one's (the rest of the text was read for every path).
    let text = "2 validation errors for Tool\n\
                tools.0.Tool.function_declarations.0.parameters.properties.a.type\n  \
                Input should be 'STRING' [type=enum, input_value='strin', input_type=str]\n\
                tools.0.Tool.function_declarations.0.parameters.properties.b.type\n  \
                Input should be 'STRING' [type=enum, input_value=['string', 'null'], input_type=list]\n";
    let found = explain(None, text, None);
    let got: Vec<(Option<&str>, Option<&str>)> = found
        .iter()
        .map(|e| (e.pointer.as_deref(), e.rule.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (Some("/properties/a/type"), Some("type-invalid")),
            (Some("/properties/b/type"), Some("type-list"))
        ]
    );
}

/// A provider refusing `type` names `type-unsupported` when the value is a standard type as
/// the standard spells it (the type is valid; the target does not take it), as `check` reports
/// it, and `type-invalid` for any other spelling.
#[test]
fn a_refused_standard_type_is_type_unsupported() {
    let sdk = "2 validation errors for Tool\n\
               tools.0.Tool.function_declarations.0.parameters.properties.a.type\n  \
               Input should be 'STRING' [type=enum, input_value='null', input_type=str]\n\
               tools.0.Tool.function_declarations.0.parameters.properties.b.type\n  \
               Input should be 'STRING' [type=enum, input_value='Null', input_type=str]\n";
    let rules: Vec<_> = explain(None, sdk, None)
        .into_iter()
        .map(|e| e.rule)
        .collect();
    assert_eq!(
        rules,
        [Some("type-unsupported".into()), Some("type-invalid".into())]
    );
    let proto = |v: &str| {
        let text = format!(
            "Invalid value at 'tools[0].function_declarations[0].parameters.properties[0].value.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), {v}"
        );
        explain(None, &text, None)[0].rule.clone()
    };
    assert_eq!(proto("\"null\"").as_deref(), Some("type-unsupported"));
    assert_eq!(proto("\"dict\"").as_deref(), Some("type-invalid"));
    use super::templates::meta_rule_for;
    let at = "/properties/a/type";
    assert_eq!(meta_rule_for(at, Some(&json!("null"))), "type-unsupported");
    assert_eq!(meta_rule_for(at, Some(&json!("NULL"))), "type-invalid");
    assert_eq!(meta_rule_for(at, None), "type-invalid");
}

#[test]
fn long_statements_are_cut_at_a_character_boundary() {
    // Three-byte characters: no cut of the statement may fall inside one.
    let text = format!(
        "tools.0.custom.input_schema: JSON schema is invalid {}",
        "€".repeat(5_000)
    );
    let found = explain(None, &text, None);
    assert_eq!(found.len(), 1);
    assert!(found[0].message.ends_with("[...]"), "{}", found[0].message);
    assert!(found[0].message.len() < templates::LINE_READ + 16);
}

/// A schema the meta-schema refuses at thousands of places gets a note naming the first
/// `MAX_OTHER_PLACES` and counting the rest, not one naming them all.
#[test]
fn the_other_meta_schema_places_are_named_up_to_a_cap() {
    let properties: serde_json::Map<String, serde_json::Value> = (0..50)
        .map(|i| (format!("p{i:02}"), json!("string")))
        .collect();
    let request = json!({"tools": [{"name": "bad", "input_schema": {
        "type": "object", "properties": properties}}]});
    let text = "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).";
    let e = &explain(Some(&request), text, None)[0];
    assert_eq!(e.pointer.as_deref(), Some("/properties/p00"));
    let note = e
        .notes
        .iter()
        .find(|n| n.starts_with("the meta-schema also refuses"))
        .expect("a note on the other places");
    assert_eq!(note.matches("(schema-invalid)").count(), 20, "{note}");
    assert!(
        note.contains("`/properties/p20` (schema-invalid), and 29 more places"),
        "{note}"
    );
    assert!(!note.contains("/properties/p21"), "{note}");
    // One past the cap is "1 more place", not "1 more places".
    let request = json!({"tools": [{"name": "bad", "input_schema": {
        "type": "object", "properties": {
            "p00": "s", "p01": "s", "p02": "s", "p03": "s", "p04": "s", "p05": "s", "p06": "s",
            "p07": "s", "p08": "s", "p09": "s", "p10": "s", "p11": "s", "p12": "s", "p13": "s",
            "p14": "s", "p15": "s", "p16": "s", "p17": "s", "p18": "s", "p19": "s", "p20": "s",
            "p21": "s"}}}]});
    let e = &explain(Some(&request), text, None)[0];
    let note = e
        .notes
        .iter()
        .find(|n| n.starts_with("the meta-schema also refuses"))
        .expect("a note on the other places");
    assert!(
        note.contains("(schema-invalid), and 1 more place (`toolwire check`"),
        "{note}"
    );
}

/// Agreeing with check on a schema with thousands of places renders only the findings at the
/// place explained and its keywords: it rendered every finding of the check (3 GB at 700,000
/// properties in `compile --target openai/chat-strict`).
#[test]
fn agreeing_with_check_renders_only_the_findings_at_the_places_explained() {
    let n = 3000;
    let properties: serde_json::Map<String, Value> =
        (0..n).map(|i| (format!("p{i}"), json!({}))).collect();
    // In strict form (closed, all required), so that the one rule at a property is its own.
    let required: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
    let request = json!({"tools":[{"type":"function","function":{"name":"t","description":"d",
        "strict":true,"parameters":{"type":"object","properties":properties,
        "required":required,"additionalProperties":false}}}]});
    let target = "openai/chat-strict";
    let profile = crate::profile::embedded_set().unwrap();
    let profile = crate::profile::CompiledProfile::new(profile.get(target).unwrap());
    let set = crate::input::from_value(std::path::Path::new("request"), request.clone()).unwrap();
    let all = crate::check::check_set(&set, &profile);
    let at = "/properties/p7";
    // One rule there (a warning: no evidence yet), which explain then names.
    let here: Vec<&str> = all
        .iter()
        .filter(|f| f.pointer == at)
        .map(|f| f.rule.as_str())
        .collect();
    assert!(all.len() >= n, "{} findings", all.len());
    let [rule] = here.as_slice() else {
        panic!("check reports {here:?} at {at}");
    };
    let mut out = vec![Explanation {
        provider: "openai",
        message: "m".into(),
        tool_index: Some(0),
        tool: Some("t".into()),
        pointer: Some(at.into()),
        located: Located::Path,
        rule: None,
        fix: None,
        notes: Vec::new(),
    }];
    crate::profile::findings::RENDERED.with(|c| c.set(0));
    agree_with_check(&mut out, &request, target);
    let rendered = crate::profile::findings::RENDERED.with(|c| c.get());
    assert_eq!(out[0].rule.as_deref(), Some(*rule));
    assert!(
        rendered <= 4,
        "{rendered} findings rendered of {}",
        all.len()
    );
}

/// Where check reports the problem one level up (a branch of a root `anyOf` it rejects as a
/// whole) or elsewhere in the tool (a depth limit at the deepest object), explain says so and
/// names that place: it had kept a "no evidence" warning at the branch, or said check reports
/// nothing.
#[test]
fn check_s_place_one_level_up_or_elsewhere_in_the_tool_is_named() {
    let tool = |name: &str, parameters: Value| json!({"tools": [{"type": "function", "function": {"name": name, "description": "d", "parameters": parameters}}]});
    // fireworks-required-only-instance (reports.yaml).
    let request = tool(
        "t",
        json!({"type": "object", "properties": {"criteria": {"type": "string"}, "query": {"type": "string"}},
               "anyOf": [{"required": ["criteria"]}, {"required": ["query"]}]}),
    );
    let text = r#"{"error":{"type":"invalid_request_error","message":"JSON Schema not supported: could not understand the instance `{'required': ['criteria']}`."},"type":"error"}"#;
    let e = &explain(Some(&request), text, Some("fireworks/chat"))[0];
    assert_eq!(
        (e.pointer.as_deref(), e.rule.as_deref()),
        (Some("/anyOf"), Some("root-combinator")),
        "{:?}",
        e.notes
    );
    assert!(
        e.notes
            .iter()
            .any(|n| n.contains("check --target fireworks/chat` reports `root-combinator`")),
        "{:?}",
        e.notes
    );
    // gitlab-mcp-nesting-depth-named (reports.yaml).
    let request = json!({"contents": [], "tools": [{"functionDeclarations": [{
        "name": "create_merge_request_thread", "description": "d",
        "parametersJsonSchema": {"type": "object", "properties": {"position": {"type": "object", "properties": {
            "line_range": {"type": "object", "properties": {"start": {"type": "object", "properties": {
                "line_code": {"type": "string"}}}}}}}}}}]}]});
    let text = "FunctionDeclaration 'create_merge_request_thread' in the request exceeds the maximum allowed nesting depth.";
    let target = "gemini/v1beta/parameters-json-schema";
    let e = &explain(Some(&request), text, Some(target))[0];
    assert_eq!(e.rule.as_deref(), Some("depth-exceeded"), "{:?}", e.notes);
    assert!(
        !e.notes.iter().any(|n| n.contains("reports nothing here")),
        "{:?}",
        e.notes
    );
    let said = format!("check --target {target}` reports `depth-exceeded` at /properties/");
    assert!(e.notes.iter().any(|n| n.contains(&said)), "{:?}", e.notes);
    assert!(
        e.pointer
            .as_deref()
            .is_some_and(|p| p.starts_with("/properties/position")),
        "{:?}",
        e.pointer
    );
}

/// A message that names only the tool reads as its own rule where check reports that rule
/// inside the tool, though check has another finding at the root: 130 nested objects are both
/// too deep and (no evidence either way) large for Gemini's JSON-Schema field, and explain (so compile's refusal)
/// named `size-exceeded` with its "move long enums" fix for "exceeds the maximum allowed
/// nesting depth".
#[test]
fn a_tool_wide_message_keeps_its_rule_over_another_finding_at_the_root() {
    let mut deep = json!({"type": "string"});
    for _ in 0..130 {
        deep = json!({"type": "object", "properties": {"a": deep}});
    }
    let request = json!({"contents": [], "tools": [{"functionDeclarations": [{
        "name": "deep", "description": "Nested.", "parametersJsonSchema": deep}]}]});
    let target = "gemini/v1beta/parameters-json-schema";
    let set = crate::input::from_value(std::path::Path::new("r"), request.clone()).unwrap();
    let profile = crate::profile::embedded_set().unwrap().get(target).unwrap();
    let at_root: Vec<_> =
        crate::check::check_set(&set, &crate::profile::CompiledProfile::new(profile))
            .into_iter()
            .filter(|f| f.pointer.is_empty() && f.subject == crate::check::Subject::Schema)
            .map(|f| f.rule.to_string())
            .collect();
    assert!(
        !at_root.is_empty() && !at_root.iter().any(|r| r == "depth-exceeded"),
        "the root holds another finding: {at_root:?}"
    );
    let text =
        "FunctionDeclaration 'deep' in the request exceeds the maximum allowed nesting depth.";
    let e = &explain(Some(&request), text, Some(target))[0];
    assert_eq!(e.rule.as_deref(), Some("depth-exceeded"), "{:?}", e.notes);
    assert!(
        e.pointer
            .as_deref()
            .is_some_and(|p| p.starts_with("/properties/a/")),
        "{:?}",
        e.pointer
    );
}

/// Gemini's nesting-depth message names no place, its root standing for the tool: another
/// rule's error at a keyword of the root is no reading of it. A shallow tool whose `$defs`
/// `parameters` rejects (report toolsformcp-ref-avoids-depth's schema) was explained as
/// `ref-unsupported` at `/$defs`, whose fix, inlining, nests deeper (trial 83 D1).
#[test]
fn a_depth_message_is_not_read_as_another_rule_at_a_root_keyword() {
    let request = json!({"contents": [], "tools": [{"functionDeclarations": [{
        "name": "uses_ref", "description": "d", "parameters": {
            "$defs": {"Period": {"type": "object", "properties": {"start": {"type": "string"}}}},
            "type": "object",
            "properties": {"periods": {"type": "array", "items": {"$ref": "#/$defs/Period"}}}}}]}]});
    let target = "gemini/v1beta/parameters";
    let errors = check_findings_at(&request, target, crate::check::Level::Error);
    assert!(
        errors
            .iter()
            .any(|(_, p, r)| r == "ref-unsupported" && p == "/$defs"),
        "check has another error at a keyword of the root: {errors:?}"
    );
    let text = "FunctionDeclaration in the request exceeds the maximum allowed nesting depth";
    let e = &explain(Some(&request), text, Some(target))[0];
    assert_eq!(e.rule.as_deref(), Some("depth-exceeded"), "{:?}", e.notes);
    assert_eq!(e.pointer.as_deref(), Some(""), "{:?}", e.notes);
    assert_eq!(e.fix.as_deref(), fix_for("depth-exceeded"));
    assert!(
        e.notes.iter().any(|n| n.contains("reports nothing here")),
        "{:?}",
        e.notes
    );
}

/// Strict mode's depth limit in the words of toolwire's own offline models (OpenAI's and
/// DeepSeek's strict targets; the wording is inferred, `openai::strict_size_problem`) reads as
/// `depth-exceeded` at every depth, placed where check reports the depth (trial 66 D3: no rule
/// for 11 to 50 levels, and at 100 check's `size-exceeded` at the root, with its fix about
/// enums, which compile's refusal repeated).
#[test]
fn the_offline_models_strict_depth_message_is_depth_exceeded_at_every_depth() {
    for levels in [11, 20, 50, 100] {
        let mut schema = json!({"type": "string"});
        for _ in 0..levels {
            schema = json!({"type": "object", "properties": {"c": schema}, "required": ["c"],
                "additionalProperties": false});
        }
        let said = crate::target::openai::strict_size_problem(&schema).unwrap();
        let text = format!("Invalid schema for function 't': {said}");
        let request = json!({"tools": [{"type": "function", "function": {"name": "t",
            "parameters": schema}}]});
        // Check places the depth at the deepest object.
        let deepest = "/properties/c".repeat(levels - 1);
        for target in ["deepseek/beta-strict", "openai/chat-strict"] {
            let all = explain(Some(&request), &text, Some(target));
            let [e] = all.as_slice() else {
                panic!("{target}, {levels} levels: {all:#?}")
            };
            assert_eq!(
                (e.rule.as_deref(), e.pointer.as_deref()),
                (Some("depth-exceeded"), Some(deepest.as_str())),
                "{target}, {levels} levels: {:?}",
                e.notes
            );
            assert!(
                e.fix.as_deref().is_some_and(|f| f.starts_with("Flatten")),
                "{:?}",
                e.fix
            );
        }
        // Without the request, or without the function's name: the same rule.
        for text in [text.as_str(), said.as_str()] {
            let all = explain(None, text, None);
            let [e] = all.as_slice() else {
                panic!("{text}: {all:#?}")
            };
            assert_eq!(e.rule.as_deref(), Some("depth-exceeded"), "{text}");
        }
    }
}

/// The offline models' other size refusals (strict mode's 1,000 enum values and 5,000
/// properties; Cohere's 200 fields across all tools) name `size-exceeded`, not no rule
/// (trial 67 D4); and the note on check's finding says its level: a "no evidence" warning
/// at 11 levels under deepseek/beta-strict, where compile says check reports no error.
#[test]
fn the_offline_models_size_refusals_are_size_exceeded() {
    let values: Vec<Value> = (0..1001).map(|i| json!(format!("v{i}"))).collect();
    let enumed = json!({"type": "object", "properties": {"e": {"type": "string", "enum": values}},
        "required": ["e"], "additionalProperties": false});
    let props: serde_json::Map<String, Value> = (0..5001)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let wide = json!({"type": "object", "properties": props});
    for schema in [enumed, wide] {
        let said = crate::target::openai::strict_size_problem(&schema).unwrap();
        let all = explain(
            None,
            &format!("Invalid schema for function 't': {said}"),
            None,
        );
        let [e] = all.as_slice() else {
            panic!("{said}: {all:#?}")
        };
        assert_eq!(e.rule.as_deref(), Some("size-exceeded"), "{said}");
    }
    let tool = |n: usize| {
        let p: serde_json::Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "string"})))
            .collect();
        json!({"type": "object", "properties": p, "required": ["p0"]})
    };
    let (a, b) = (tool(101), tool(101));
    let said = crate::target::cohere::strict_tools_problem(&[
        &json!({"function": {"parameters": a}}),
        &json!({"function": {"parameters": b}}),
    ])
    .unwrap();
    for target in [None, Some("cohere/v2-strict")] {
        let all = explain(None, &format!(r#"{{"message":"{said}"}}"#), target);
        let [e] = all.as_slice() else {
            panic!("{said}: {all:#?}")
        };
        assert_eq!(
            e.rule.as_deref(),
            Some("size-exceeded"),
            "{target:?}: {said}"
        );
        assert!(
            e.notes.iter().any(|n| n.contains("inferred")),
            "{:?}",
            e.notes
        );
    }
    let mut deep = json!({"type": "string"});
    for _ in 0..11 {
        deep = json!({"type": "object", "properties": {"c": deep}, "required": ["c"],
            "additionalProperties": false});
    }
    let said = crate::target::openai::strict_size_problem(&deep).unwrap();
    let request = json!({"tools": [{"type": "function", "function": {"name": "t",
        "parameters": deep}}]});
    let e = &explain(
        Some(&request),
        &format!("Invalid schema for function 't': {said}"),
        Some("deepseek/beta-strict"),
    )[0];
    assert!(
        e.notes
            .iter()
            .any(|n| n.contains("reports `depth-exceeded` at /properties/c")
                && n.ends_with("(warning)")),
        "{:?}",
        e.notes
    );
}

/// A provider's exact place that the request has is explained there: explain moved xAI's
/// `/properties/properties/additionalProperties` (xai-additionalproperties-false in
/// reports.yaml) to the root's `/properties`, where check has only a "no evidence" warning of
/// the same rule, and so told the user to remove every argument. A finding of the message's
/// rule is looked for at or below the place only, the closest first.
#[test]
fn an_exact_place_is_never_moved_to_an_ancestor() {
    let request = json!({"tools": [{"type": "function", "function": {"name": "t", "parameters":
        {"type": "object", "properties": {"properties": {"type": "object",
            "properties": {"city": {"type": "string"}}, "additionalProperties": false}}}}}]});
    let text = "[xAI] Invalid request content: Schema validation failed: [standard_violation] \
                /properties/properties/additionalProperties: property schema 'false' is not supported";
    let place = "/properties/properties/additionalProperties";
    for target in [None, Some("xai/chat")] {
        let e = &explain(Some(&request), text, target)[0];
        assert_eq!(
            e.pointer.as_deref(),
            Some(place),
            "{target:?}: {:?}",
            e.notes
        );
        assert!(
            !e.notes
                .iter()
                .any(|n| n.contains("reports `keyword-unsupported` at /properties")),
            "{:?}",
            e.notes
        );
    }
    assert!(at_or_below("/a/b", "/a") && at_or_below("/a", "/a"));
    assert!(at_or_below("/a", "") && !at_or_below("/ab", "/a"));
    assert!(!at_or_below("/a", "/a/b"));
}

/// An error naming a property the request's tool does not have came from another request
/// (or another version of the tool): explain says so and does not blame the evidence, while
/// the same error for a request that has the place is still read with check.
#[test]
fn a_place_the_request_does_not_have_is_said_to_be_from_another_request() {
    let text = "Invalid schema for function 'get_weather': In context=('properties', 'tags'), \
                array schema missing items.";
    let tool = |properties: Value| {
        json!({"tools":[{"type":"function","function":{"name":"get_weather","description":"d",
            "parameters":{"type":"object","properties":properties}}}]})
    };
    let without = tool(json!({"city":{"type":"string"}}));
    for target in [None, Some("openai/chat")] {
        let e = &explain(Some(&without), text, target)[0];
        assert_eq!(e.pointer.as_deref(), Some("/properties/tags"), "{target:?}");
        assert!(
            e.notes.iter().any(|n| n
                == "/properties/tags is not in this tool's schema in the request given: the \
                    error came from another request or another version of the tool"),
            "{target:?}: {:?}",
            e.notes
        );
        assert!(
            !e.notes.iter().any(|n| n.contains("reports nothing here")),
            "{target:?}: {:?}",
            e.notes
        );
    }
    // The place is there: check's reading stands, and no note says it is missing.
    let with = tool(json!({"tags":{"type":"array"}}));
    let e = &explain(Some(&with), text, Some("openai/chat"))[0];
    assert_eq!(e.rule.as_deref(), Some("array-items-missing"));
    assert!(
        !e.notes
            .iter()
            .any(|n| n.contains("not in this tool's schema")),
        "{:?}",
        e.notes
    );
}

/// A keyword a schema lacks is in it (the error is about its absence); a property, a
/// definition or a list position that is not there is not.
#[test]
fn a_missing_keyword_is_in_the_schema_a_missing_name_is_not() {
    use super::templates::in_schema;
    let s = json!({"type":"object","properties":{"properties":{"type":"object"},
        "tags":{"type":"array"},"pick":{"anyOf":[{"type":"string"}]}}});
    for (pointer, expected) in [
        ("/properties/tags", true),
        ("/properties/tags/items", true),
        ("/properties/properties/properties", true),
        ("/properties/properties/properties/x", false),
        ("/properties/labels", false),
        ("/properties/labels/items", false),
        ("/properties/pick/anyOf/0/type", true),
        ("/properties/pick/anyOf/1", false),
        ("/$defs/x", false),
        ("/additionalProperties", true),
    ] {
        assert_eq!(in_schema(&s, pointer), expected, "{pointer}");
    }
}

/// opencode-nullable-array-predicate (reports.yaml), verbatim but for the declaration's index
/// (9 there, 0 in the one-tool request here): the AI SDK rewrote
/// `"type":["array","null"]` beside `items` into `any_of` branches, and Gemini refused the
/// rewrite twice. With the request as written, both messages are the type list's: one
/// explanation, never an "add `items`" at an `anyOf/0` the request does not have.
#[test]
fn a_client_rewritten_type_list_is_explained_once_at_the_list() {
    let text = "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[languages].items: field predicate failed: $type == Type.ARRAY\n* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[languages].any_of[0].items: missing field.";
    let listed = json!({"type":"object","properties":{"languages":{"type":["array","null"],"items":{"type":"string"}}}});
    let request =
        json!({"tools":[{"functionDeclarations":[{"name":"read_pdf","parameters":listed}]}]});
    let got = explain(Some(&request), text, Some("gemini/v1beta/parameters"));
    let places: Vec<_> = got
        .iter()
        .map(|e| (e.pointer.as_deref(), e.rule.as_deref()))
        .collect();
    assert_eq!(places, [(Some("/properties/languages"), Some("type-list"))]);
    assert!(
        got[0]
            .notes
            .iter()
            .any(|n| n.contains("any_of[0].items: missing field")),
        "{:?}",
        got[0].notes
    );
    // The request as the client sent it (the rewrite itself) is explained as it is.
    let rewritten = json!({"type":"object","properties":{"languages":{"anyOf":[{"type":"array"},{"type":"null"}],"items":{"type":"string"}}}});
    let request =
        json!({"tools":[{"functionDeclarations":[{"name":"read_pdf","parameters":rewritten}]}]});
    let rules: Vec<_> = explain(Some(&request), text, None)
        .into_iter()
        .map(|e| e.rule)
        .collect();
    assert!(!rules.contains(&Some("type-list".into())), "{rules:?}");
}

/// An error no template reads (cut short, reworded) that names a place whole is explained at
/// that place with check's findings there; a place the request does not have (its last key
/// cut short) is not guessed at.
#[test]
fn an_unread_error_naming_a_whole_place_lists_checks_findings_there() {
    let request = json!({"tools":[{"type":"function","function":{"name":"f","description":"d","parameters":
        {"type":"object","properties":{"x":{"type":"string","const":"a"},"y":{"type":"string"}}}}}]});
    let got = explain(
        Some(&request),
        "Error 400: tools[0].function.parameters.properties.x: 'const' is not sup",
        None,
    );
    let found: Vec<_> = got
        .iter()
        .map(|e| (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()))
        .collect();
    assert_eq!(
        found,
        [(
            Some(0),
            Some("/properties/x/const"),
            Some("keyword-unsupported")
        )]
    );
    assert!(
        got[0].notes[0].contains("not recognized"),
        "{:?}",
        got[0].notes
    );
    // A clean place: named, with no rule, and a note that check finds nothing there.
    let clean = explain(
        Some(&request),
        "oops: tools[0].function.parameters.properties.y",
        None,
    );
    assert_eq!(
        (
            clean.len(),
            clean[0].pointer.as_deref(),
            clean[0].rule.as_deref()
        ),
        (1, Some("/properties/y"), None)
    );
    assert!(
        clean[0].notes[0].ends_with("finds nothing there"),
        "{:?}",
        clean[0].notes
    );
    for cut in [
        "oops: tools[0].function.parameters.properties.z",
        "oops: tools[3].function.parameters.properties.x",
    ] {
        assert!(explain(Some(&request), cut, None).is_empty(), "{cut}");
    }
    // Without a request there is no place to look at.
    assert!(
        explain(
            None,
            "oops: tools[0].function.parameters.properties.x",
            None
        )
        .is_empty()
    );
}

/// Trial 89 D4: an unread error whose place is the parameters schema's root lists no finding
/// about the tool's name or description, which check also puts at `""` but which are not in
/// the parameters schema; a clean schema is named alone, as a clean place below it is.
#[test]
fn an_unread_error_at_the_parameters_root_blames_no_name_or_description() {
    let request = json!({"tools":[{"type":"function","function":{"name":"look.up","parameters":
        {"type":"object","properties":{"q":{"type":"string"}}}}}]});
    let error = r#"{"error":{"message":"Something went wrong with this tool.","type":"invalid_request_error","param":"tools[0].function.parameters","code":null}}"#;
    let got = explain(Some(&request), error, Some("openai/chat"));
    let found: Vec<_> = got
        .iter()
        .map(|e| (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()))
        .collect();
    assert_eq!(found, [(Some(0), Some(""), None)]);
    assert!(
        got[0].notes[0].ends_with("finds nothing there"),
        "{:?}",
        got[0].notes
    );
    // A finding in the schema at its root is still listed there.
    let request = json!({"tools":[{"type":"function","function":{"name":"look.up","parameters":
        {"type":"object","properties":{"q":{"type":"string"}},"required":["q","r"]}}}]});
    let rules: Vec<_> = explain(Some(&request), error, Some("openai/chat"))
        .into_iter()
        .map(|e| e.rule)
        .collect();
    assert!(!rules.contains(&Some("name-invalid".into())), "{rules:?}");
    assert!(
        !rules.is_empty() && rules.iter().all(Option::is_some),
        "{rules:?}"
    );
}

/// A quoted name pattern fails by characters or by length; with the request at hand, a name
/// of allowed characters only is explained as too long (apify/actor-mcp-server#11's message,
/// with the name made 70 letters long).
#[test]
fn a_name_pattern_failed_by_length_alone_is_a_name_too_long() {
    let error = "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'";
    let rule_for = |name: &str| {
        let request =
            json!({"tools":[{"name":name,"input_schema":{"type":"object","properties":{}}}]});
        explain(Some(&request), error, Some("anthropic/messages"))[0]
            .rule
            .clone()
    };
    assert_eq!(rule_for(&"a".repeat(70)).as_deref(), Some("name-too-long"));
    assert_eq!(
        rule_for("someuser.some-actor").as_deref(),
        Some("name-invalid")
    );
    assert_eq!(
        rule_for(&format!("{}.b", "a".repeat(70))).as_deref(),
        Some("name-invalid"),
        "a bad character is named even when the name is also long"
    );
}

/// An empty name fails a quoted name pattern's lower length bound (`{1,128}`): it is no name
/// too long to shorten, but `name-invalid`, as check and the reading without the request call
/// it (trial 71 D4: with the request it was `name-too-long`, "Shorten the name").
#[test]
fn an_empty_name_failing_a_name_pattern_is_not_too_long() {
    let error = "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'";
    let request = json!({"tools":[{"name":"","input_schema":{"type":"object","properties":{}}}]});
    for target in [None, Some("anthropic/messages")] {
        let all = explain(Some(&request), error, target);
        assert_eq!(all[0].rule.as_deref(), Some("name-invalid"), "{target:?}");
    }
}

/// Google's unknown `value` at the root of parameters that hold no schema keyword at all is
/// example arguments written where the schema belongs: `root-not-object` at the root, as check
/// says, not `keyword-unsupported` "Remove the keyword", which leaves `{}`, refused again
/// (trial 71 D7). A schema with keywords beside the unknown key keeps the keyword's reading.
#[test]
fn an_unknown_key_of_an_instance_root_is_root_not_object() {
    let error = "Invalid JSON payload received. Unknown name \"value\" at \
         'generate_content_request.tools[0].function_declarations[0].parameters': Cannot find field.";
    let request = |parameters: Value| json!({"tools":[{"functionDeclarations":[{"name":"probe_tool","parameters":parameters}]}]});
    let instance = request(json!({"value": "abc"}));
    for target in [None, Some("gemini/v1beta/parameters")] {
        let e = &explain(Some(&instance), error, target)[0];
        let read = (e.rule.as_deref(), e.pointer.as_deref(), e.fix.as_deref());
        let fix = fix_for("root-not-object");
        assert_eq!(read, (Some("root-not-object"), Some(""), fix), "{target:?}");
    }
    let schema = request(json!({"type": "object", "value": "abc"}));
    let e = &explain(Some(&schema), error, None)[0];
    let read = (e.rule.as_deref(), e.pointer.as_deref());
    assert_eq!(read, (Some("keyword-unsupported"), Some("/value")));
}

/// OpenAI's meta-schema messages about a value out of its keyword's range (`-1 is less than
/// the minimum of 0`, toolwire's own emulator's answer to a negative `maxLength`) are located
/// by the meta-schema, as "is not of type" is (trial 71 D5: no rule, exit 1).
#[test]
fn openai_range_messages_find_the_value_by_the_meta_schema() {
    for (value, said, at) in [
        (
            json!({"type":"string","maxLength":-1}),
            "-1 is less than the minimum of 0.",
            "/properties/value/maxLength",
        ),
        (
            json!({"type":"array","items":{"type":"string"},"minItems":-2}),
            "-2 is less than the minimum of 0.",
            "/properties/value/minItems",
        ),
        (
            json!({"type":"number","multipleOf":0}),
            "0 is less than or equal to the minimum of 0.",
            "/properties/value/multipleOf",
        ),
        (
            json!({"anyOf":[]}),
            "[] should be non-empty",
            "/properties/value/anyOf",
        ),
    ] {
        let request = json!({"tools":[{"type":"function","function":{"name":"probe_tool",
            "parameters":{"type":"object","properties":{"value":value},"required":["value"]}}}]});
        let error = format!("Invalid schema for function 'probe_tool': {said}");
        let e = &explain(Some(&request), &error, Some("openai/chat"))[0];
        assert_eq!(e.pointer.as_deref(), Some(at), "{said}");
        assert!(e.rule.is_some(), "{said}: {:?}", e.notes);
    }
}

/// The rest of Python jsonschema's words for a keyword's value the meta-schema refuses
/// (`[] is too short`, `has non-unique elements`, `is not one of`, `does not match`): located
/// by the meta-schema, and named as check names that place (its rule, at the place it reports:
/// the repeated name of `required`, the keyword an unsupported one's value is inside). The
/// messages are synthetic, in jsonschema's wording after OpenAI's `Invalid schema for function`
/// prefix, not a provider's transcript.
#[test]
fn openai_synthetic_value_messages_are_named_as_check_names_the_place() {
    let in_value =
        |value: Value| json!({"type":"object","properties":{"value":value},"required":["value"]});
    for (parameters, said, at, rule) in [
        (
            in_value(json!({"anyOf":[]})),
            "[] is too short.",
            "/properties/value/anyOf",
            "keyword-value-invalid",
        ),
        (
            in_value(json!({"type":"array","prefixItems":[]})),
            "[] is too short.",
            "/properties/value/prefixItems",
            "keyword-value-invalid",
        ),
        (
            in_value(json!({"type":"strng"})),
            "'strng' is not one of ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'].",
            "/properties/value/type",
            "type-invalid",
        ),
        (
            in_value(json!({"type":["string","string"]})),
            "['string', 'string'] has non-unique elements.",
            "/properties/value/type",
            "type-list",
        ),
        (
            in_value(json!({"type":"string","$anchor":"1a"})),
            "'1a' does not match '^[A-Za-z_][-A-Za-z0-9._]*$'.",
            "/properties/value/$anchor",
            "keyword-unsupported",
        ),
        (
            in_value(
                json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},
                "dependentRequired":{"a":["b","b"]}}),
            ),
            "['b', 'b'] has non-unique elements.",
            "/properties/value/dependentRequired",
            "keyword-unsupported",
        ),
        (
            json!({"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"]}),
            "['a', 'a'] has non-unique elements.",
            "/required/1",
            "required-invalid",
        ),
        // Words read before: the rule and place are check's here too.
        (
            in_value(json!({"type":["string","string"]})),
            "['string', 'string'] is not valid under any of the given schemas.",
            "/properties/value/type",
            "type-list",
        ),
        (
            in_value(json!({"type":"object","properties":{"a":{"type":"string"}},
                "dependentRequired":{"a":[1]}})),
            "1 is not of type 'string'.",
            "/properties/value/dependentRequired",
            "keyword-unsupported",
        ),
    ] {
        let request = json!({"tools":[{"type":"function","function":{"name":"probe_tool",
            "parameters":parameters}}]});
        let error = format!("Invalid schema for function 'probe_tool': {said}");
        // Without a target the templates' own reading shows; with one, check's is agreed with.
        for target in [None, Some("openai/chat")] {
            let e = &explain(Some(&request), &error, target)[0];
            let read = (e.pointer.as_deref(), e.rule.as_deref());
            assert_eq!(
                read,
                (Some(at), Some(rule)),
                "{said} {target:?}: {:?}",
                e.notes
            );
            let profile = target.unwrap_or(crate::profile::PORTABLE);
            let check = check_findings_at(&request, profile, crate::check::Level::Warning);
            let here = (0, at.to_string(), rule.to_string());
            assert!(
                check.contains(&here),
                "{said} {target:?}: check says {check:?}"
            );
        }
    }
    // Anthropic's message names no place either: the repeat is found all the same.
    let request = json!({"tools":[{"name":"probe_tool","input_schema":{"type":"object",
        "properties":{"a":{"type":"string"}},"required":["a","a"]}}]});
    let error = "tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).";
    let e = &explain(Some(&request), error, None)[0];
    let read = (e.pointer.as_deref(), e.rule.as_deref());
    assert_eq!(read, (Some("/required/1"), Some("required-invalid")));
}

/// Example arguments of several keys written as the schema draw Google's unknown name once
/// per key: one problem, as check's one `root-not-object` says, explained once with every key
/// named and the other messages' words noted, not once per key (trial 71 D7 with two keys).
#[test]
fn example_arguments_of_several_keys_are_one_root_not_object() {
    let error = ["city", "unit"]
        .map(|k| {
            format!(
                "Invalid JSON payload received. Unknown name \"{k}\" at \
                 'tools[0].function_declarations[0].parameters': Cannot find field."
            )
        })
        .join("\n");
    let request = json!({"tools":[{"functionDeclarations":[{"name":"get_weather",
        "parameters":{"city":"Paris","unit":"c"}}]}]});
    for target in [None, Some("gemini/v1beta/parameters")] {
        let all = explain(Some(&request), &error, target);
        let read: Vec<_> = all
            .iter()
            .map(|e| (e.tool_index, e.pointer.as_deref(), e.rule.as_deref()))
            .collect();
        assert_eq!(
            read,
            [(Some(0), Some(""), Some("root-not-object"))],
            "{target:?}"
        );
        let notes = &all[0].notes;
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("`city`, `unit` are no schema keywords")),
            "{notes:?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("google also said:") && n.contains("\"unit\"")),
            "{notes:?}"
        );
    }
}

/// A keyword that declares the arguments gets check's own fix, not the rule's "Remove the
/// keyword", which would delete a union's schemas (openai/openai-agents-js#1138's message).
#[test]
fn a_structural_keyword_is_not_fixed_by_removing_it() {
    let error = "400 Invalid schema for function 'create_event': In context=('properties', 'recurrence'), 'oneOf' is not permitted.";
    let request = json!({"tools":[{"type":"function","function":{"name":"create_event","strict":true,
        "parameters":{"type":"object","properties":{"name":{"type":"string"},
            "recurrence":{"oneOf":[{"type":"object","properties":{"type":{"const":"once"}},
                                    "required":["type"],"additionalProperties":false},
                                   {"type":"object","properties":{"type":{"const":"weekly"}},
                                    "required":["type"],"additionalProperties":false}]}},
        "required":["name","recurrence"],"additionalProperties":false}}}]});
    let e = explain(Some(&request), error, Some("openai/chat-strict"))
        .into_iter()
        .find(|e| e.rule.as_deref() == Some("keyword-unsupported"))
        .expect("read as keyword-unsupported");
    assert_eq!(e.pointer.as_deref(), Some("/properties/recurrence/oneOf"));
    let fix = e.fix.as_deref().unwrap_or_default();
    assert!(fix.contains("cannot just be dropped"), "{fix}");
    // A property named like the keyword keeps the rule's fix.
    let mut named = e.clone();
    named.pointer = Some("/properties/oneOf".into());
    named.fix = fix_for("keyword-unsupported").map(str::to_string);
    keyword_fix(&mut named, &request_tools(&request));
    assert_eq!(named.fix.as_deref(), fix_for("keyword-unsupported"));
}

/// A root `$schema` of draft-07 decides that `required` beside a `$ref` is ignored: removing it
/// alone, as "it only annotates" advised, would make that `required` apply (read as 2020-12).
/// Google's unknown-field answer (the shape of reports.yaml's gemini-schema-keyword reports).
#[test]
fn a_draft_schema_deciding_a_ref_sibling_is_not_removed_alone() {
    let request = |beside: Value| {
        let mut o = json!({"$ref": "#/definitions/O"});
        o.as_object_mut()
            .unwrap()
            .extend(beside.as_object().unwrap().clone());
        json!({"tools":[{"functionDeclarations":[{"name":"t","parameters":{
            "$schema":"http://json-schema.org/draft-07/schema#","type":"object",
            "properties":{"o": o},"definitions":{"O":{"type":"object",
                "properties":{"x":{"type":"string"},"y":{"type":"string"}},"required":["x"]}}}}]}]})
    };
    let error = "Invalid JSON payload received. Unknown name \"$schema\" at 'tools[0].function_declarations[0].parameters': Cannot find field.";
    let fix = |request: &Value| {
        let got = explain(Some(request), error, Some("gemini/v1beta/parameters"));
        let [e] = got.as_slice() else {
            panic!("{got:#?}")
        };
        assert_eq!(e.pointer.as_deref(), Some("/$schema"));
        e.fix.clone().unwrap_or_default()
    };
    let f = fix(&request(json!({"required": ["y"]})));
    assert!(
        f.starts_with("Remove `required` beside the `$ref` at /properties/o/$ref first"),
        "{f}"
    );
    assert_eq!(
        fix(&request(json!({"description": "d"}))),
        "Remove `$schema`: it only annotates, so no argument changes."
    );
}

/// Google's unknown-field answer for an `$id` that a `$ref` below it resolves against (trial
/// 54 D2): the fix says to inline that `$ref` first, as `check` does, not "it only annotates".
#[test]
fn an_id_a_ref_resolves_through_is_not_removed_alone() {
    let request = |v: Value| {
        json!({"tools":[{"functionDeclarations":[{"name":"t","parameters":{"type":"object",
            "properties":{"a":{"$id":"https://ex.com/inner","type":"object","properties":{"v":v},
                "$defs":{"V":{"type":"string"}}}},"$defs":{"V":{"type":"integer"}}}}]}]})
    };
    let error = "Invalid JSON payload received. Unknown name \"$id\" at 'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.";
    let fix = |request: &Value| {
        let got = explain(Some(request), error, Some("gemini/v1beta/parameters"));
        let [e] = got.as_slice() else {
            panic!("{got:#?}")
        };
        assert_eq!(e.pointer.as_deref(), Some("/properties/a/$id"));
        e.fix.clone().unwrap_or_default()
    };
    let f = fix(&request(json!({"$ref": "#/$defs/V"})));
    assert!(
        f.starts_with("Inline (or rewrite) the `$ref` at /properties/a/properties/v/$ref first"),
        "{f}"
    );
    assert_eq!(
        fix(&request(json!({"type": "string"}))),
        "Remove `$id`: it only annotates, so no argument changes."
    );
}

/// opencode-ref-with-siblings (reports.yaml, anomalyco/opencode#12295), verbatim: Gemini's
/// JSON-Schema field refuses a `type` and a `title` beside `$ref`. Under that target check
/// reports them (not the object's properties, which the `$ref` supplies), and the fix says
/// to remove them rather than inline a reference the target accepts.
#[test]
fn gemini_ref_siblings_name_the_reference_and_what_to_remove() {
    let request = json!({"functionDeclarations":[{"name":"t","parametersJsonSchema":{
        "$defs":{"QuestionOption":{"type":"object","properties":{"label":{"type":"string"}}}},
        "type":"object","properties":{"options":{"type":"array",
          "items":{"$ref":"#/$defs/QuestionOption","type":"object","title":"Option"}}}}}]});
    let text = "$ref 'QuestionOption' was set alongside unsupported fields. If a schema node has $ref set, then only description and default can be set alongside it";
    for target in [Some("gemini/v1beta/parameters-json-schema"), None] {
        let got = explain(Some(&request), text, target);
        let [e] = got.as_slice() else {
            panic!("{got:#?}")
        };
        assert_eq!(
            (e.tool.as_deref(), e.pointer.as_deref(), e.rule.as_deref()),
            (
                Some("t"),
                Some("/properties/options/items"),
                Some("ref-unsupported")
            ),
            "{target:?}: {e:#?}"
        );
        let fix = e.fix.as_deref().unwrap_or_default();
        assert!(
            fix.starts_with("Remove the keywords beside the `$ref`") && fix.contains("`title`"),
            "{fix}"
        );
        assert!(
            !e.notes.iter().any(|n| n.contains("reports `")),
            "{:?}",
            e.notes
        );
    }
}

/// OpenAI's answer to a tool list past its length limit is about the request: no tool, no
/// place, rule `too-many-tools` (before, explain found nothing in it).
#[test]
fn openai_tool_list_too_long_is_about_the_request() {
    let text = "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 130 instead.";
    let e = explain(None, text, Some("openai/chat"));
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].rule.as_deref(), Some("too-many-tools"));
    assert_eq!((e[0].tool_index, e[0].tool.as_deref()), (None, None));
    assert_eq!(e[0].message, text);
}

/// OpenAI's "'format' is not permitted" names the keyword alone; check reports a `format` under
/// format-unsupported (keyword-unsupported leaves it to that rule), so explain names that rule
/// with or without a target, and the fix check gives for the format's value (the trial's F7:
/// without a target it was keyword-unsupported, with a fix about `minimum`).
#[test]
fn openai_format_not_permitted_is_format_unsupported_as_check_reads_it() {
    let request = json!({"tools": [{"type": "function", "function": {"name": "list_files",
        "parameters": {"type": "object", "properties": {
            "pattern": {"type": "string", "format": "regex"},
            "site": {"type": "string", "format": "uri"}}}}}]});
    for (name, format) in [("pattern", "regex"), ("site", "uri")] {
        let error = format!(
            "Invalid schema for function 'list_files': In context=('properties', '{name}'), 'format' is not permitted."
        );
        let want = crate::profile::rules::format_unsupported::fix_for(format);
        for target in [None, Some("openai/chat")] {
            let all = explain(Some(&request), &error, target);
            let [e] = all.as_slice() else {
                panic!("{all:?}")
            };
            assert_eq!(e.rule.as_deref(), Some("format-unsupported"), "{target:?}");
            let pointer = format!("/properties/{name}/format");
            assert_eq!(e.pointer.as_deref(), Some(pointer.as_str()));
            assert_eq!(e.fix.as_deref(), Some(want.as_str()), "{target:?}");
            assert!(
                !e.notes.iter().any(|n| n.contains("reads as")),
                "{:?}",
                e.notes
            );
        }
    }
    // Without a request the rule is the same; the fix is the rule's own.
    let all = explain(
        None,
        "Invalid schema for function 'f': In context=('properties', 'p'), 'format' is not permitted.",
        None,
    );
    assert_eq!(all[0].rule.as_deref(), Some("format-unsupported"));
    assert_eq!(all[0].fix.as_deref(), fix_for("format-unsupported"));
}

/// LiteLLM prints a Vertex error body as a Python bytes literal (the trial's F6): its `\n`
/// and `\'` are the literal's escapes, so the body is decoded from it and the message quoted
/// without the envelope's tail (`", "status": "INVALID_ARGUMENT" } }'`).
#[test]
fn a_python_bytes_literal_envelope_is_decoded() {
    let error = r#"litellm.BadRequestError: VertexAIException BadRequestError - b'{\n  "error": {\n    "code": 400,\n    "message": "Unable to submit request because `f` functionDeclaration `parameters.path` schema didn\'t specify the schema type field.",\n    "status": "INVALID_ARGUMENT"\n  }\n}'"#;
    let all = explain(None, error, None);
    let [e] = all.as_slice() else {
        panic!("{all:?}")
    };
    assert_eq!(
        e.message,
        "Unable to submit request because `f` functionDeclaration `parameters.path` schema didn't specify the schema type field."
    );
    assert_eq!(e.rule.as_deref(), Some("type-missing"));
}

/// A name's escapes inside OpenAI's context tuple are Python's and decoded once, by the tuple
/// reader: pasted as text, `'a\\nb'` is a name holding a backslash and an `n`, and `'nl\nx'`
/// one holding a line break; the message is not cut at either (the trial's F4, where a text
/// level `\n` → line break ran first, read `rule: (unknown)` and quoted `...'properties', 'a`).
/// Cut out of a JSON body that does not parse, the literal is JSON-escaped once more, and one
/// level of JSON is undone before the tuple reader decodes Python's.
#[test]
fn escapes_inside_the_context_tuple_are_decoded_once_by_the_tuple_reader() {
    let request = json!({"model": "m", "tools": [{"type": "function", "function": {"name": "b",
    "parameters": {"type": "object", "properties": {
        "a\\nb": {"type": "array"}, "nl\nx": {"type": "array"}, "it's \"x\"": {"type": "array"}
    }}}}]});
    let message = |literal: &str| {
        format!(
            "Invalid schema for function 'b': In context=('properties', {literal}), array schema missing items."
        )
    };
    // A JSON body cut short (it does not parse), its message JSON-escaped.
    let cut_body = |literal: &str| {
        let escaped = serde_json::to_string(&message(literal)).unwrap();
        format!("{{\"error\": {{\"message\": {escaped}, \"type\": \"invalid_req")
    };
    for (error, name) in [
        (message(r"'a\\nb'"), "a\\nb"),
        (message(r"'nl\nx'"), "nl\nx"),
        (cut_body(r"'a\\nb'"), "a\\nb"),
        (cut_body(r"'nl\nx'"), "nl\nx"),
        (cut_body(r#"'it\'s "x"'"#), "it's \"x\""),
    ] {
        let all = explain(Some(&request), &error, None);
        let [e] = all.as_slice() else {
            panic!("{error}: {all:#?}")
        };
        assert_eq!(e.pointer, Some(push_token("/properties", name)), "{error}");
        assert_eq!(e.rule.as_deref(), Some("array-items-missing"), "{error}");
        // Not cut (the quote of a body cut short keeps the rest of its line, as it did before).
        assert!(
            e.message.contains("), array schema missing items."),
            "{error}: {}",
            e.message
        );
    }
}

/// The literals of a context tuple are found by their quotes, in plain text and in text still
/// JSON-escaped (where a Python `\'` is written `\\'` and a double quote `\"`); integers are
/// stepped over, and reading stops at what is no element (the literals before it are kept).
#[test]
fn context_tuple_literals_are_found_by_their_quotes() {
    let spans = |text: &str, json: bool| -> Vec<String> {
        envelope::tuple_literals(text, json)
            .into_iter()
            .map(|r| text[r].to_string())
            .collect()
    };
    assert_eq!(
        spans(r"x In context=('items', 0, 'a\'b, c)'), y 'z'", false),
        ["'items'", r"'a\'b, c)'"]
    );
    assert_eq!(
        spans(r#"In context=('p', \"it's\", 'a\\'b'), z"#, true),
        ["'p'", r#"\"it's\""#, r"'a\\'b'"]
    );
    assert_eq!(spans("In context=('p', x, 'q')", false), ["'p'"]);
    assert_eq!(spans("In context=('cut", false), Vec::<String>::new());
}

/// A message saying the `$ref`'s definition does not exist (Anthropic's, relayed by Bedrock;
/// Gemini's gemini-cli#13326) was read as `ref-unsupported`, whose fix is to inline a schema
/// that is not there; check reports `ref-dangling` at that place. Now the message alone
/// reads as check does, with the rule's fix and no note of disagreement.
#[test]
fn a_reference_to_nothing_reads_as_ref_dangling() {
    let anthropic = json!({"tools":[{"name":"t","description":"d","input_schema":{
        "type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}}]});
    let a_text =
        "tools.0.custom: Invalid schema: Reference to non-existent definition: #/$defs/missing";
    let gemini = json!({"functionDeclarations":[{"name":"t","parametersJsonSchema":{
        "type":"object","properties":{"target_object":{"anyOf":[{"type":"null"},
        {"$ref":"#/$defs/Target"}]}}}}]});
    let g_text = "reference to undefined schema at properties.target_object.anyOf.1";
    for (request, text, target) in [
        (&anthropic, a_text, "anthropic/messages"),
        (&gemini, g_text, "gemini/v1beta/parameters-json-schema"),
    ] {
        for (request, target) in [
            (None, None),
            (Some(request), None),
            (Some(request), Some(target)),
        ] {
            let got = explain(request, text, target);
            let [e] = got.as_slice() else {
                panic!("{got:#?}")
            };
            assert_eq!(e.rule.as_deref(), Some("ref-dangling"), "{text}: {e:#?}");
            let fix = e.fix.as_deref().unwrap_or_default();
            assert!(fix.starts_with("Add the definition"), "{fix}");
            assert!(
                !e.notes.iter().any(|n| n.contains("reads as")),
                "{:?}",
                e.notes
            );
        }
    }
}

/// A message wrapped inside its closing phrase (`array schema` / `missing items.`) named no
/// rule and the wrong place, though a wrap after the tuple, or runs of spaces, were read
/// (new-user trial). A wrapped line now reads as the sentence it is; a list of problems, one
/// per line, still reads as several.
#[test]
fn a_message_wrapped_inside_a_phrase_reads_as_one_line() {
    let request = json!({"tools":[
        {"type":"function","function":{"name":"a","parameters":{"type":"object",
            "properties":{"tags":{"type":"array"}}}}},
        {"type":"function","function":{"name":"b","parameters":{"type":"object",
            "properties":{"u":{"type":"string","format":"uri"}}}}}]});
    for (text, rule, pointer) in [
        (
            "Invalid schema for function 'a': In context=('properties', 'tags'), array schema\nmissing items.",
            "array-items-missing",
            "/properties/tags",
        ),
        (
            "Invalid schema for function 'b': In context=('properties', 'u'), 'uri' is not a\r\n valid format.",
            "format-unsupported",
            "/properties/u/format",
        ),
    ] {
        let got = explain(Some(&request), text, None);
        let [e] = got.as_slice() else {
            panic!("{text}: {got:#?}")
        };
        assert_eq!(
            (e.rule.as_deref(), e.pointer.as_deref()),
            (Some(rule), Some(pointer)),
            "{text}: {e:#?}"
        );
    }
    let gemini = "GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[tags].items: missing\n field.";
    let got = explain(None, gemini, None);
    assert_eq!(
        got[0].rule.as_deref(),
        Some("array-items-missing"),
        "{got:#?}"
    );
    // Two statements, one per line, stay two.
    let two = "Invalid schema for function 'a': In context=('properties', 'tags'), array schema missing items.\nInvalid schema for function 'b': In context=('properties', 'u'), 'uri' is not a valid format.";
    assert_eq!(explain(Some(&request), two, None).len(), 2);
}

#[test]
fn only_wrapped_line_breaks_are_unwrapped_byte_for_byte() {
    use super::envelope::unwrapped;
    for (text, want) in [
        ("a\nb", "a b"),
        ("a\r\n  b", "a    b"),
        // A full statement, a capital, a list item, a blank line: kept.
        ("done.\nnext", "done.\nnext"),
        ("a\nB", "a\nB"),
        ("a\n* b", "a\n* b"),
        ("a\n\nb", "a\n\nb"),
        // Inside a tuple's literal the break is the name's own.
        (
            "In context=('properties', 'x\ny'), bad",
            "In context=('properties', 'x\ny'), bad",
        ),
        // Inside a quote opened on its line, too.
        ("function 'b\nc': bad", "function 'b\nc': bad"),
        ("at path \"properti\nes.x\"", "at path \"properti\nes.x\""),
    ] {
        let got = unwrapped(text, true);
        assert_eq!(got, want, "{text:?}");
        assert_eq!(got.len(), text.len());
    }
}

/// Trial 89 D3: a JSON log record carries its error under `err` (Go's `log/slog`), `exception`
/// or `reason` as well as `error`: each is read as the record's message, not the whole record
/// as plain text (which quoted the `"}` that closes it and found no rule).
#[test]
fn a_log_record_s_err_exception_or_reason_is_its_message() {
    let message = "Invalid schema for function 'lookup': In context=('properties', 'q'), 'format' is not permitted.";
    let request = json!({"tools":[{"type":"function","function":{"name":"lookup","parameters":
        {"type":"object","properties":{"q":{"type":"string","format":"uri"}}}}}]});
    for key in ["error", "err", "exception", "reason"] {
        let mut log =
            json!({"time": "2026-12-01T10:00:00Z", "level": "ERROR", "msg": "llm call failed"});
        log[key] = message.into();
        let text = log.to_string();
        let got = explain(Some(&request), &text, None);
        let [e] = got.as_slice() else {
            panic!("{text}: {got:#?}")
        };
        assert_eq!(
            (e.message.as_str(), e.rule.as_deref()),
            (message, Some("format-unsupported")),
            "{text}"
        );
    }
}

/// Text that is not the provider's was quoted as its words when the message ends in no stop
/// (trial 41): a JSON log line's own `msg` beside its `error`, and a log's next line. Each
/// is now left out; a wrap that goes on to a stop is still read as one line.
#[test]
fn a_log_s_own_words_are_not_quoted_as_the_provider_s() {
    use super::envelope::unwrapped;
    let message = "tools.13.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level";
    let log = serde_json::json!({"level": "error", "msg": "request failed", "error": message});
    let two_lines = format!("[agent] {message}\nretrying in 2s (attempt 2 of 3)\n");
    for text in [log.to_string(), two_lines] {
        let got = explain(None, &text, None);
        let [e] = got.as_slice() else {
            panic!("{text}: {got:#?}")
        };
        assert_eq!(e.message, message, "{text}");
        assert_eq!(e.rule.as_deref(), Some("root-combinator"));
    }
    // As given (not decoded), a break is a wrap only when the sentence goes on to a stop.
    for (text, want) in [
        ("a level\nretrying in 2s", "a level\nretrying in 2s"),
        (
            "array schema\nmissing items.",
            "array schema missing items.",
        ),
        (
            "one of\nthe\nfollowing: object.",
            "one of the following: object.",
        ),
        (
            "is not a\r\n valid format.\r\n",
            "is not a   valid format.\r\n",
        ),
    ] {
        assert_eq!(unwrapped(text, false), want, "{text:?}");
    }
    // A decoded message's lines are the provider's: its breaks need no stop.
    assert_eq!(unwrapped("a level\nretrying", true), "a level retrying");
}

/// Python jsonschema's other words for a value the meta-schema refuses are read alone on their
/// line (as a client prints OpenAI's message without its `Invalid schema for function 'f': `)
/// as they are with it: the same place and rule (before: only "is not of type" was read bare,
/// these matched no template). The lines are synthetic, in the words the prefixed tests quote.
#[test]
fn other_meta_schema_words_are_read_alone_on_their_line() {
    for (schema, line) in [
        (
            json!({"a": {"type": "strng"}}),
            "'strng' is not one of ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']",
        ),
        (
            json!({"a": {"type": ["strng", "null"]}}),
            "'strng' is not one of ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']",
        ),
        (json!({"a": {"anyOf": []}}), "[] should be non-empty"),
        (json!({"a": {"anyOf": []}}), "[] is too short"),
        (
            json!({"a": {"type": ["string", "string"]}}),
            "['string', 'string'] has non-unique elements",
        ),
        (
            json!({"a": {"type": "string", "maxLength": -1}}),
            "-1 is less than the minimum of 0",
        ),
    ] {
        let request = json!({"tools": [{"type": "function", "function": {"name": "f",
            "parameters": {"type": "object", "properties": schema}}}]});
        let read = |text: &str| {
            let e = explain(Some(&request), text, None);
            e.first().map(|e| (e.pointer.clone(), e.rule.clone()))
        };
        let prefixed = read(&format!("Invalid schema for function 'f': {line}"));
        assert!(
            prefixed
                .as_ref()
                .is_some_and(|(p, r)| p.is_some() && r.is_some()),
            "{line}: {prefixed:?}"
        );
        assert_eq!(read(line), prefixed, "{line}");
        assert_eq!(read(&format!("Error: {line}\n")), prefixed, "{line}");
    }
}

/// An error whose lines end in `\r\n` matched no template where the same error with `\n`
/// did (trial 41: OpenAI's bare meta-schema line, oai-meta-object-string in reports.yaml).
/// `\r\n` now reads as `\n`, in the error as given and in a message decoded from its envelope.
#[test]
fn crlf_reads_as_lf() {
    let line = "'object' is not of type 'object', 'boolean'";
    let body = serde_json::json!({"error": {"message": format!("{line}\r\n")}}).to_string();
    for text in [format!("{line}\r\n"), format!("{line}\n"), body] {
        let got = explain(None, &text, None);
        let [e] = got.as_slice() else {
            panic!("{text:?}: {got:#?}")
        };
        assert_eq!(
            (e.rule.as_deref(), e.message.as_str()),
            (Some("schema-invalid"), line),
            "{text:?}"
        );
    }
}

/// OpenAI's meta-schema message names its place in `In context=(...)`, but without a
/// request it was explained at no place, with a note that the message does not say where
/// (trial 41); the request's search found `/properties/a`. The named place now stands without
/// a request; with one, the search still locates it (and narrows the rule by the value).
#[test]
fn a_meta_schema_message_s_context_is_its_place_without_a_request() {
    let text = "Invalid schema for function 'f': In context=('properties', 'a'), 'object' is not of type 'object', 'boolean'.";
    let e = &explain(None, text, None)[0];
    assert_eq!(
        (e.pointer.as_deref(), e.rule.as_deref(), e.located),
        (Some("/properties/a"), Some("schema-invalid"), Located::Path)
    );
    assert!(
        !e.notes.iter().any(|n| n.contains("does not say where")),
        "{:?}",
        e.notes
    );
    let items = text.replace("('properties', 'a')", "('properties', 'a', 'items')");
    let e = &explain(None, &items, None)[0];
    assert_eq!(e.pointer.as_deref(), Some("/properties/a/items"));
    assert_eq!(
        e.rule.as_deref(),
        Some(templates::meta_rule_for("/properties/a/items", None))
    );
    let request = json!({"tools":[{"type":"function","function":{"name":"f",
        "parameters":{"type":"object","properties":{"a":"object"}}}}]});
    let e = &explain(Some(&request), text, None)[0];
    assert_eq!(
        (e.pointer.as_deref(), e.rule.as_deref(), e.located),
        (
            Some("/properties/a"),
            Some("schema-invalid"),
            Located::MetaSchema
        )
    );
}

/// OpenAI's strict requirements about `response_format` were the request's but named no rule
/// and no fix, where the same words for a function read as `strict-form-missing` (trial 41).
/// They now read so for the request's schema too, at the place they name, with the strict form
/// to write as the fix (compile's, for tools, does not take that schema).
#[test]
fn a_strict_requirement_of_response_format_reads_as_a_function_s() {
    let supplied = "'additionalProperties' is required to be supplied and to be false.";
    let missing = "'required' is required to be supplied and to be an array including every key in properties. Missing 'c'.";
    for (context, words, place) in [
        ("()", supplied, "at its root"),
        (
            "('properties', 'b')",
            missing,
            "at /properties/b/properties/c",
        ),
    ] {
        let function = format!("Invalid schema for function 'x': In context={context}, {words}");
        let format =
            format!("Invalid schema for response_format 'answer': In context={context}, {words}");
        assert_eq!(
            explain(None, &function, None)[0].rule.as_deref(),
            Some("strict-form-missing")
        );
        let got = explain(None, &format, None);
        let [e] = got.as_slice() else {
            panic!("{format}: {got:#?}")
        };
        assert_eq!(
            (e.located, e.tool_index, e.rule.as_deref()),
            (Located::Request, None, Some("strict-form-missing")),
            "{format}"
        );
        let fix = e.fix.as_deref().unwrap_or_default();
        assert!(
            fix.contains("`additionalProperties: false` on every object")
                && !fix.contains("compile"),
            "{fix}"
        );
        assert!(
            e.notes
                .iter()
                .any(|n| n.contains("`response_format`") && n.contains(place)),
            "{:?}",
            e.notes
        );
    }
}

/// Google's validator message at the request's `generation_config.response_schema` matched
/// no template (trial 41), though the same words under a function declaration, and the parse
/// errors at that field, were explained. It is now the request's structured-output schema's
/// problem, under the rule the words read as for a declaration, at the place the path names.
#[test]
fn google_s_validator_at_the_response_schema_is_the_request_s() {
    let text = "* GenerateContentRequest.generation_config.response_schema.properties[tags].items: missing field.";
    let request = json!({"contents":[{"role":"user","parts":[{"text":"hi"}]}],
        "generationConfig":{"responseMimeType":"application/json","responseSchema":
            {"type":"OBJECT","properties":{"tags":{"type":"ARRAY"}}}}});
    for request in [None, Some(&request)] {
        let got = explain(request, text, None);
        let [e] = got.as_slice() else {
            panic!("{got:#?}")
        };
        assert_eq!(
            (e.located, e.tool_index, e.rule.as_deref()),
            (Located::Request, None, Some("array-items-missing"))
        );
        assert_eq!(e.fix.as_deref(), fix_for("array-items-missing"));
        assert!(
            e.notes.iter().any(|n| n.contains(
                "`generation_config.response_schema` (its structured-output schema) at /properties/tags,"
            )),
            "{:?}",
            e.notes
        );
    }
    // The same words under a declaration stay the declaration's.
    let tool = text.replace(
        "generation_config.response_schema",
        "tools[0].function_declarations[3].parameters",
    );
    let e = &explain(None, &tool, None)[0];
    assert_eq!(
        (e.tool_index, e.pointer.as_deref()),
        (Some(3), Some("/properties/tags"))
    );
}

/// Google's T8 names the parent message and, in parentheses, the field given an object:
/// `(required)` after `….parameters` is `/required`. It was read as the parent itself under
/// `schema-invalid`, so compile refused a tool at `/` with that rule's unrelated fix, where
/// repair drops a `required` that is no list of names (trial 39).
#[test]
fn google_names_the_field_given_an_object_in_parentheses() {
    let request = json!({"tools":[{"functionDeclarations":[{"name":"f","description":"d",
        "parameters":{"type":"object","properties":{"x":{"type":"string","enum":{},"nullable":{}},"y":{"type":"integer"}},
            "required":{"x":true}}}]}]});
    let at = |text: &str| {
        let e = &explain(Some(&request), text, Some("gemini/v1beta/parameters"))[0];
        (e.pointer.clone(), e.rule.clone(), e.fix.clone())
    };
    let t8 = |path: &str, field: &str| {
        format!(
            "Invalid value at 'generate_content_request.tools[0].function_declarations[0].parameters{path}' ({field}), Starting an object on a scalar field"
        )
    };
    let (pointer, rule, fix) = at(&t8("", "required"));
    assert_eq!(pointer.as_deref(), Some("/required"));
    assert_eq!(rule.as_deref(), Some("required-invalid"));
    assert_eq!(fix.as_deref(), fix_for("required-invalid"));
    let (pointer, rule, _) = at(&t8(".properties[0].value", "enum"));
    assert_eq!(
        (pointer.as_deref(), rule.as_deref()),
        (Some("/properties/x/enum"), Some("enum-invalid"))
    );
    let (pointer, rule, _) = at(&t8(".properties[0].value", "nullable"));
    assert_eq!(
        (pointer.as_deref(), rule.as_deref()),
        (Some("/properties/x/nullable"), Some("nullable-spelling"))
    );
}

#[test]
fn the_message_rule_stands_beside_another_error_of_check_at_its_place() {
    // An optional array without `items` under Responses strict: check has the message's
    // `array-items-missing` there (a warning) and `strict-form-missing` (an error). The
    // message keeps its rule and fix; the other error is a note with its fix.
    let text = "Invalid schema for function 'plan': In context=('properties', 'steps'), array schema missing items.";
    let request = json!({"model":"gpt-4.1","input":"hi","tools":[{"type":"function","name":"plan",
        "parameters":{"type":"object","properties":{"steps":{"type":"array"},"n":{"type":"integer"}}}}]});
    let target = "openai/responses-strict";
    let e = &explain(Some(&request), text, Some(target))[0];
    assert_eq!(
        (e.pointer.as_deref(), e.rule.as_deref(), e.fix.as_deref()),
        (
            Some("/properties/steps"),
            Some("array-items-missing"),
            fix_for("array-items-missing")
        )
    );
    assert!(
        e.notes
            .iter()
            .any(|n| n.contains("also reports `strict-form-missing` here")
                && n.contains("List `steps` in this object's `required`")),
        "{:?}",
        e.notes
    );
    // Where check has not the message's rule at the place, its one error there still names
    // the rule (the reading the message alone gives may be wrong there).
    let closed = json!({"model":"gpt-4.1","input":"hi","tools":[{"type":"function","name":"plan",
        "parameters":{"type":"object","properties":{"steps":{"type":"array","items":{"type":"string"}},"n":{"type":"integer"}}}}]});
    let e = &explain(Some(&closed), text, Some(target))[0];
    assert_eq!(e.rule.as_deref(), Some("strict-form-missing"), "{e:?}");
}

#[test]
fn a_message_about_the_tools_name_is_not_read_as_checks_finding_about_its_schema() {
    // Trial 59 D18: under Responses strict, check's `strict-form-missing` at the schema's root
    // (an error) replaced OpenAI's own reading of `tools[1].name`, whose fix leaves the name
    // (and so the message) as it was.
    let request = json!({"model":"gpt-5","input":"hi","tools":[{"type":"web_search"},
        {"type":"function","name":"a.b","strict":true,"parameters":{"type":"object",
        "properties":{"x":{"type":"string"}},"required":[]}}]});
    let target = "openai/responses-strict";
    let name = "Invalid 'tools[1].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.";
    let e = &explain(Some(&request), name, Some(target))[0];
    assert_eq!(
        (e.tool_index, e.rule.as_deref(), e.fix.as_deref()),
        (Some(1), Some("name-invalid"), fix_for("name-invalid")),
        "{e:?}"
    );
    assert!(
        !e.notes.iter().any(|n| n.contains("strict-form-missing")),
        "{e:?}"
    );
    // A description the request does not have is no finding about the schema either: the
    // message was about another version of the tool.
    let description = "Invalid 'tools[1].description': string too long. Expected a string with maximum length 1024, but got a string with length 2000 instead.";
    let e = &explain(Some(&request), description, Some(target))[0];
    assert_eq!(e.rule.as_deref(), Some("description-too-long"), "{e:?}");
    assert!(
        e.notes
            .iter()
            .any(|n| n.starts_with("the request given has nothing here")),
        "{e:?}"
    );
}

#[test]
fn a_log_line_after_vertex_unable_to_submit_is_not_quoted() {
    // Trial 42: the log's next record, after a full stop or after the URL the message ends
    // with, was quoted as Google's words.
    for (text, quote) in [
        (
            "request failed: Unable to submit request because `f` functionDeclaration parameters schema should be of type OBJECT.\nretrying in 2s (attempt 2 of 3)\n",
            "Unable to submit request because `f` functionDeclaration parameters schema should be of type OBJECT.",
        ),
        (
            "E Unable to submit request because `f` functionDeclaration `parameters.w` schema didn't specify the schema type field. Learn more: https://cloud.google.com/x\r\n2026-12-04 10:00:00,124 INFO agent.llm: retrying in 2s\r\n",
            "Unable to submit request because `f` functionDeclaration `parameters.w` schema didn't specify the schema type field. Learn more: https://cloud.google.com/x",
        ),
    ] {
        let e = &explain(None, text, None)[0];
        assert_eq!(e.message, quote, "{text:?}");
    }
    // A message a client wrapped goes on in lower case, and is read whole
    // (vercel-ai-vertex-anyof-only-field in reports.yaml).
    let wrapped = "Unable to submit request because `move` functionDeclaration `parameters.entries`\nschema specified other fields alongside any_of. When using any_of, it must be\nthe only field set.\nretrying in 2s";
    let e = &explain(None, wrapped, None)[0];
    let words = e.message.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.ends_with("it must be the only field set."),
        "{}",
        e.message
    );
    assert_eq!(e.rule.as_deref(), Some("anyof-with-siblings"));
}

/// A client's or relay's prefix inside an envelope's or JSON log's message field was quoted
/// as the provider's words (trial 42: `"error": "Gemini API Error: * GenerateContentRequest..."`
/// gave `google said: Gemini API Error: * GenerateContentRequest...`); the quote now starts at
/// the provider's message, as it does in text given as it is. Words a template matched stay.
#[test]
fn a_client_s_prefix_in_a_message_field_is_not_quoted() {
    let google = "GenerateContentRequest.tools[0].function_declarations[3].parameters.properties[tags].items: missing field.";
    let openai = "Invalid schema for function 'f': In context=('properties', 'a'), 'oneOf' is not permitted.";
    for (prefix, message) in [
        ("Gemini API Error: * ", google),
        ("[400 Bad Request] ", google),
        ("400 ", openai),
        // Trial 44: the status text after the code stayed in the quote.
        ("400 Bad Request: ", openai),
        ("AI_APICallError: ", openai),
        ("BadRequestError: 400 ", openai),
        (
            "invalid_request_error (invalid_function_parameters): ",
            openai,
        ),
    ] {
        let field = format!("{prefix}{message}");
        let log = serde_json::json!({"level": "error", "msg": "request failed", "error": field});
        let relay = serde_json::json!({"error": {"message": field}});
        for text in [log.to_string(), relay.to_string()] {
            let got = explain(None, &text, None);
            let [e] = got.as_slice() else {
                panic!("{text}: {got:#?}")
            };
            assert_eq!(e.message, message, "{text}");
        }
    }
    // A provider's own words before the match are no client's prefix: kept.
    let own = r#"{"error":{"message":"Incorrect API key provided: sk-x. Invalid schema for function 'f': In context=(), array schema missing items."}}"#;
    let got = explain(None, own, None);
    assert!(got[0].message.starts_with("Incorrect API key"), "{got:#?}");
}

/// OpenAI's bare meta-schema line after a client's prefix matched no template (trial 42:
/// `Error: 'object' is not of type 'object', 'boolean'`, and the line in a log record, `2026-12-04
/// 10:00:00,123 ERROR agent.llm: request failed: ...`): read as the line alone is, quoted
/// without the prefix.
#[test]
fn openai_bare_meta_schema_line_after_a_client_s_prefix_is_read() {
    let line = "'object' is not of type 'object', 'boolean'";
    for prefix in [
        "",
        "Error: ",
        "openai.BadRequestError: ",
        "2026-12-04 10:00:00,123 ERROR agent.llm: request failed: ",
    ] {
        let text = format!("{prefix}{line}\nretrying in 2s (attempt 2 of 3)\n");
        let got = explain(None, &text, None);
        let [e] = got.as_slice() else {
            panic!("{text}: {got:#?}")
        };
        assert_eq!(e.message, line, "{text}");
        assert_eq!(e.rule.as_deref(), Some("schema-invalid"), "{text}");
    }
}

/// A client's printout of a body cut short, held in a JSON log's field (or in a message cut
/// out of a Python printout), explained nothing, though the printout given alone was
/// explained (trial 42: antigravity-exclusiveMaximum-multipleOf, gitlab-mcp-type-empty-string,
/// litellm-default-unknown as a log's `error`); it is now read as given alone.
#[test]
fn a_cut_printout_in_a_log_field_is_read_as_given_alone() {
    let printouts = [
        r#"API Error: 400 {"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"exclusiveMaximum\" at 'request.tools[0].function_declarations[17].parameters.properties[0].value': Cannot find field."#,
        r#"litellm.BadRequestError: VertexAIException BadRequestError - b'{ "error": { "code": 400, "message": "Invalid JSON payload received. Unknown name \"default\" at 'tools[0].function_declarations[3].parameters.properties[0].value': Cannot find field."#,
    ];
    for printout in printouts {
        let alone = explain(None, printout, None);
        assert_eq!(alone.len(), 1, "{printout}: {alone:#?}");
        let log = serde_json::json!({"level": "error", "msg": "chat completion failed", "error": printout});
        let got = explain(None, &log.to_string(), None);
        assert_eq!(got, alone, "{log}");
    }
    // A message that quotes a value, not a body, is still read as the message it is.
    let fireworks = serde_json::json!({"level": "error", "error": "JSON Schema not supported: could not understand the instance `{'required': ['criteria']}`."});
    let got = explain(None, &fireworks.to_string(), None);
    assert!(
        got[0].message.starts_with("JSON Schema not supported"),
        "{got:#?}"
    );
}

/// A log record holding the provider's body as an object in a field of its own (`response`,
/// `body`, `upstream`, ...) was not decoded, so the record as given was quoted with its JSON's
/// closing `"}}}` (trial 45 D3); so were a list of such records and JSON Lines of them. The
/// body is found at any depth, and through JSON Lines, up to the parsers' nesting bound.
#[test]
fn an_envelope_nested_in_a_record_is_decoded() {
    let message = "GenerateContentRequest.tools[0].function_declarations[3].parameters.properties[tags].items: missing field.";
    let body = json!({"error": {"code": 400, "message": message}});
    let quoted = |error: &str| {
        let found = explain(None, error, None);
        let [e] = found.as_slice() else {
            panic!("{error}: {found:#?}")
        };
        assert_eq!(e.pointer.as_deref(), Some("/properties/tags"), "{error}");
        assert_eq!(e.message, message, "{error}");
    };
    for key in [
        "response", "body", "data", "payload", "err", "upstream", "cause",
    ] {
        quoted(&json!({key: body}).to_string());
    }
    let retrying = json!({"t": 1, "message": "retrying"});
    let record = json!({"t": 2, "response": body});
    quoted(&json!([retrying, record]).to_string());
    quoted(&format!("{retrying}\n{record}\n"));
    // Records in the top-level `error`, already read alone, are read in JSON Lines too.
    quoted(&format!(
        "{retrying}\n{}\n",
        json!({"t": 2, "error": body["error"]})
    ));
    let mut deep = body.clone();
    for _ in 0..120 {
        deep = json!({"a": deep});
    }
    quoted(&deep.to_string());
}

/// Of several records in a list or JSON Lines, each another failed request, only the first
/// whose message a template read was explained, and the others' errors were dropped with exit
/// 0 (trial 46 D11); each record is read, as each line of plain text is, the same error in
/// several records (a client's retries) once.
#[test]
fn each_record_of_a_list_or_json_lines_is_explained() {
    let message = |tool: usize, name: &str| {
        format!(
            "GenerateContentRequest.tools[0].function_declarations[{tool}].parameters.properties[{name}].items: missing field."
        )
    };
    let body = |tool, name| json!({"error": {"code": 400, "message": message(tool, name)}});
    let nested = |t, tool, name| json!({"t": t, "response": {"body": body(tool, name)}});
    let places = |error: &str| {
        explain(None, error, None)
            .iter()
            .map(|e| (e.tool_index, e.pointer.clone(), e.message.clone()))
            .collect::<Vec<_>>()
    };
    let want = vec![
        (Some(3), Some("/properties/tags".into()), message(3, "tags")),
        (Some(5), Some("/properties/ids".into()), message(5, "ids")),
    ];
    let plain = format!("{}\n{}\n", message(3, "tags"), message(5, "ids"));
    assert_eq!(places(&plain), want);
    let (a, b) = (nested(1, 3, "tags"), nested(2, 5, "ids"));
    assert_eq!(places(&format!("{a}\n{b}\n")), want);
    assert_eq!(places(&json!([a, b]).to_string()), want);
    let (a, b) = (body(3, "tags"), body(5, "ids"));
    assert_eq!(places(&format!("{a}\n{b}\n")), want);
    // A record with no provider's error between them, and a retry of the first, add nothing.
    let retrying = json!({"t": 2, "message": "retrying"});
    assert_eq!(places(&format!("{a}\n{retrying}\n{a}\n{b}\n")), want);
}

/// JSON Lines with other lines among them (a banner, a line a logger wrote as text), and an
/// object holding only a list of bodies (`{"errors": [...]}`): the first record alone was
/// explained, the rest dropped with exit 0 (trial 48 D11); each JSON line is a record, each
/// run of other lines one more, read as it would be alone, and the list's bodies are records.
#[test]
fn json_lines_among_plain_lines_are_each_explained() {
    let google = |tool: usize, name: &str| {
        format!(
            "GenerateContentRequest.tools[0].function_declarations[{tool}].parameters.properties[{name}].items: missing field."
        )
    };
    let anthropic = "tools.2.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level";
    let record = |tool, name| json!({"t": tool, "response": {"body": {"error": {"code": 400, "message": google(tool, name)}}}});
    let places = |error: &str| {
        explain(None, error, None)
            .iter()
            .map(|e| (e.tool_index, e.message.clone()))
            .collect::<Vec<_>>()
    };
    let (a, b) = (record(3, "tags"), record(5, "ids"));
    let two = vec![(Some(3), google(3, "tags")), (Some(5), google(5, "ids"))];
    assert_eq!(places(&format!("starting\n{a}\n{a}\n{b}\n")), two);
    assert_eq!(places(&format!("{a}\n{b}\nsome plain line\n")), two);
    let three = vec![
        (Some(3), google(3, "tags")),
        (Some(2), anthropic.to_string()),
        (Some(5), google(5, "ids")),
    ];
    let mix = format!("{a}\nERROR something else happened: {anthropic}\n{b}\n");
    assert_eq!(places(&mix), three);
    let errors = json!({"errors": [
        {"error": {"code": 400, "message": google(3, "tags")}},
        {"type": "error", "error": {"type": "invalid_request_error", "message": anthropic}},
    ]});
    assert_eq!(
        places(&errors.to_string()),
        vec![
            (Some(3), google(3, "tags")),
            (Some(2), anthropic.to_string())
        ]
    );
}

/// Anthropic's error for tool #2 and Google's for tool #5, and what explaining both in that
/// order gives ([`places`]).
fn two_records() -> (&'static str, &'static str, Vec<(Option<usize>, String)>) {
    let google = "GenerateContentRequest.tools[0].function_declarations[5].parameters.properties[ids].items: missing field.";
    let anthropic = "tools.2.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level";
    let want = vec![
        (Some(2), anthropic.to_string()),
        (Some(5), google.to_string()),
    ];
    (anthropic, google, want)
}

/// Each explanation of `error` (no request given): its tool's index and the quoted message.
fn places(error: &str) -> Vec<(Option<usize>, String)> {
    explain(None, error, None)
        .iter()
        .map(|e| (e.tool_index, e.message.clone()))
        .collect()
}

/// A JSON list, or JSON Lines, of error strings: each was quoted with the JSON's quotes and
/// brackets, the first's quote holding the next record, and explained in reverse order
/// (trial 48 D6); each string is a record, read as its text, as a record that is an object
/// is, in record order.
#[test]
fn each_string_of_a_list_or_json_lines_is_a_record() {
    let (anthropic, google, want) = two_records();
    let (a, b) = (json!(anthropic), json!(google));
    assert_eq!(places(&json!([a, b]).to_string()), want);
    assert_eq!(places(&format!("{a}\n{b}\n")), want);
    assert_eq!(places(&format!("starting\n{a}\n{b}\n")), want);
}

/// Records are found by one rule: the items of a list, or of each list of records an object
/// holds beside its other members, and each JSON line among plain lines. Before (trial 50):
/// an object holding a list of strings was read as one text, its quotes carrying `"]}` (D5);
/// a list beside a `request_id` or `status` explained its first record alone (D15); one JSON
/// line among plain lines dropped the plain error (D19). A record no template reads is noted.
#[test]
fn every_record_of_an_error_is_explained_or_noted() {
    let (anthropic, google, want) = two_records();
    let (a, g) = (json!(anthropic), json!(google));
    let (ab, gb) = (json!({"message": anthropic}), json!({"message": google}));
    for error in [
        json!({"errors": [a, g]}),
        json!({"detail": [a, g]}),
        json!({"errors": [ab, gb], "request_id": "abc"}),
        json!({"status": 400, "errors": [ab, gb]}),
    ] {
        assert_eq!(places(&error.to_string()), want, "{error}");
    }
    let body = json!({"error": {"code": 400, "message": format!("* {google}\n")}});
    assert_eq!(places(&format!("ERROR {anthropic}\n{body}\n")), want);
    // One record in a list beside another member, a list holding a `null`, and a JSON line
    // that is a list among plain lines (trial 52 D7, D8, D11: one error dropped, or the JSON
    // quoted with it).
    let mut both = places(&json!({"errors": [a], "message": google}).to_string());
    both.sort();
    assert_eq!(both, want);
    assert_eq!(places(&json!({"errors": [a, null, g]}).to_string()), want);
    // A list of strings deeper in the body, or in a record of a list (trial 52 D8: read as one
    // text, tool #5 first and each quote carrying the JSON between the strings); Google's own
    // `details` list of objects beside the message is the body's, no list of records.
    assert_eq!(
        places(&json!({"error": {"details": [a, g]}}).to_string()),
        want
    );
    assert_eq!(
        places(&json!([{"error": {"details": [a, g]}}]).to_string()),
        want
    );
    let details = json!([{"@type": "type.googleapis.com/google.rpc.BadRequest",
        "fieldViolations": [{"field": "tools[0]", "description": google}]}]);
    let google_body = json!({"error": {"code": 400, "message": google, "details": details}});
    assert_eq!(places(&google_body.to_string()), want[1..]);
    assert_eq!(
        places(&format!("ERROR {anthropic}\n{}\n", json!([g]))),
        want
    );
    assert_eq!(
        places(&format!("ERROR {anthropic}\n{}\n", json!([body]))),
        want
    );
    // pydantic's `loc` is the envelope's own field, no list of records.
    let loc = json!({"loc": ["body", "tools"], "msg": anthropic});
    assert_eq!(places(&loc.to_string()), want[..1]);
    let unknown = json!({"errors": [a, "something no template knows", "and more"]});
    let out = explain(None, &unknown.to_string(), None);
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(
        out[0].notes,
        [
            "2 more records of the error hold a message no known template matches, not explained \
             here; the first: \"something no template knows\""
        ]
    );
}

/// A list of error objects one object deeper (`{"error": {"details": [{"message": A},
/// {"message": G}]}}`) was read up to its first message a template reads, the others dropped
/// with no word; each object stating a message of its own is a record, as a string there is,
/// while Google's `details` (objects with an `@type`, one kind of which has a `message`) stay
/// the body's own, read as before, with no note.
#[test]
fn each_message_object_of_a_list_deeper_in_a_body_is_a_record() {
    let (anthropic, google, want) = two_records();
    let a = json!(anthropic);
    let (ab, gb) = (json!({"message": anthropic}), json!({"message": google}));
    for error in [
        json!({"error": {"details": [ab, gb]}}),
        json!([{"error": {"details": [ab, gb]}}]),
        json!({"error": {"details": [a, null, gb]}}),
        json!({"error": {"errors": [{"msg": anthropic, "loc": ["body"]}, gb]}}),
    ] {
        assert_eq!(places(&error.to_string()), want, "{error}");
    }
    let unknown = json!({"error": {"details": [ab, {"message": "something no template knows"}]}});
    let out = explain(None, &unknown.to_string(), None);
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(
        out[0].notes,
        [
            "1 more record of the error holds a message no known template matches, not explained \
          here: \"something no template knows\""
        ]
    );
    // Google's own details, a `message` among them (`google.rpc.LocalizedMessage`).
    let details = json!([
        {"@type": "type.googleapis.com/google.rpc.LocalizedMessage", "locale": "en-US",
         "message": "something no template knows"},
        {"@type": "type.googleapis.com/google.rpc.BadRequest",
         "fieldViolations": [{"field": "tools[0]", "description": google}]}
    ]);
    let google_body = json!({"error": {"code": 400, "message": google, "details": details}});
    let out = explain(None, &google_body.to_string(), None);
    assert_eq!(out.len(), 1, "{out:#?}");
    assert_eq!(
        (out[0].tool_index, &out[0].message),
        (Some(5), &google.to_string())
    );
    assert!(out[0].notes.is_empty(), "{out:#?}");
}

/// A list of strings that are values of the error (allowed values, a path, an echoed schema's
/// `enum` and `required`, a list of models) was noted as more records of it (trial 54 D6:
/// "3 more records of the error hold a message ... the first: \"auto\""); such strings are
/// statements only under a key naming errors or where they read as sentences.
#[test]
fn a_list_of_values_in_a_body_is_no_list_of_records() {
    let (anthropic, google, want) = two_records();
    let (a, g) = (json!(anthropic), json!(google));
    let schema = json!({"type": "object", "required": ["mode"],
        "properties": {"mode": {"type": "string", "enum": ["fast", "slow"]}}});
    for error in [
        json!({"error": {"message": google, "allowed": ["auto", "none", "required"]}}),
        json!({"error": {"message": google, "path": ["tools", "0", "function"]}}),
        json!({"error": {"message": google}, "echo": {"tool": {"parameters": schema}}}),
        json!({"message": google, "supportedModels": ["anthropic.claude-3", "anthropic.claude-4"]}),
    ] {
        let out = explain(None, &error.to_string(), None);
        assert_eq!(out.len(), 1, "{out:#?}");
        assert_eq!(out[0].tool_index, Some(5), "{error}");
        assert!(out[0].notes.is_empty(), "{error}: {out:#?}");
    }
    // Statements under a key naming errors of any case, or under any key as sentences.
    for error in [
        json!({"error": {"validationErrors": [a, g]}}),
        json!({"error": {"reasons": [a, g]}}),
    ] {
        assert_eq!(places(&error.to_string()), want, "{error}");
    }
}

/// A list of errors with another item among them (a number, an object with no message, a
/// list) was left whole to the body, which drops a list's strings: A lost with no word, or
/// read as one text with run-on quotes (trial 54 D12); each statement is a record, a list
/// among them looked into, the other items left to the body.
#[test]
fn each_statement_of_a_mixed_list_is_a_record() {
    let (anthropic, google, want) = two_records();
    let (a, g, gb) = (json!(anthropic), json!(google), json!({"message": google}));
    for error in [
        json!({"error": {"details": [a, gb, 5]}}),
        json!({"error": {"details": [a, gb, {"code": 3}]}}),
        json!({"error": {"details": [a, [g, 7]]}}),
        json!({"errors": [a, gb, 5]}),
    ] {
        let out = explain(None, &error.to_string(), None);
        let got: Vec<_> = out
            .iter()
            .map(|e| (e.tool_index, e.message.clone()))
            .collect();
        assert_eq!(got, want, "{error}");
        assert!(out.iter().all(|e| e.notes.is_empty()), "{error}: {out:#?}");
    }
    let nested = json!({"error": {"details": [a, ["nested", g]]}});
    let out = explain(None, &nested.to_string(), None);
    let got: Vec<_> = out
        .iter()
        .map(|e| (e.tool_index, e.message.clone()))
        .collect();
    assert_eq!(got, want, "{out:#?}");
    assert_eq!(
        out[1].notes,
        [
            "1 more record of the error holds a message no known template matches, not explained \
             here: \"nested\""
        ]
    );
}

/// A JSON string in a field of its own holding a list of errors (`{"level": "error",
/// "response": "[A, G]"}`, a relay's `{"error": "[A, G]"}`) was read as plain text: an error
/// dropped with no word, or quoted running on into the JSON in reverse order (trial 54 D7);
/// the string is read as the list it holds, each statement a record.
#[test]
fn a_list_of_errors_written_as_a_json_string_is_read_as_records() {
    let (anthropic, google, want) = two_records();
    let (a, g) = (json!(anthropic), json!(google));
    let (ab, gb) = (json!({"message": anthropic}), json!({"message": google}));
    for list in [json!([a, g]), json!([ab, gb])] {
        let text = list.to_string();
        for error in [
            json!({"level": "error", "response": text}),
            json!({"error": text}),
            json!(text),
        ] {
            assert_eq!(places(&error.to_string()), want, "{error}");
        }
    }
}

/// A body a logger or a relay wrote as a JSON string in a field of its own, holding a list of
/// errors (`{"level": "error", "response": "{\"error\":{\"details\":[A,G]}}"}`), was read as
/// plain text with JSON in its quotes (tool #5 first, each quote running on into the JSON
/// after it); the string is read as the body it holds, each error of its list a record.
#[test]
fn a_list_of_errors_in_a_body_written_as_a_json_string_is_read_as_records() {
    let (anthropic, google, want) = two_records();
    let (a, g) = (json!(anthropic), json!(google));
    let (ab, gb) = (json!({"message": anthropic}), json!({"message": google}));
    for body in [
        json!({"error": {"details": [a, g]}}),
        json!({"error": {"details": [ab, gb]}}),
    ] {
        let text = body.to_string();
        for error in [
            json!({"level": "error", "response": text}),
            json!([{"level": "error", "response": text}]),
            json!({"error": text}),
            json!({"level": "error", "response": {"body": text}}),
        ] {
            assert_eq!(places(&error.to_string()), want, "{error}");
        }
    }
}

/// A client's printout of a body (`Error code: 400 - {...}`, JSON or Python) in a field of its
/// own was read as plain text (tool #5 first, each quote running on into the JSON after it),
/// though the same printout given as the whole error was read right (trial 54 D7); it is read
/// as the body it prints, each error of its list a record.
#[test]
fn a_client_printout_in_a_field_is_read_as_the_printout_alone_is() {
    let (anthropic, google, want) = two_records();
    let json = json!({"error": {"details": [anthropic, google]}});
    let python = format!("{{'error': {{'details': ['{anthropic}', '{google}']}}}}");
    for body in [json.to_string(), python] {
        let printout = format!("Error code: 400 - {body}");
        assert_eq!(places(&printout), want, "{printout}");
        for error in [
            json!({"level": "error", "response": printout}),
            json!({"error": printout}),
        ] {
            assert_eq!(places(&error.to_string()), want, "{error}");
        }
    }
}

/// `text` cut into lines of 80 characters ([`envelope::HARD_WRAP_COLUMN`]), as a client
/// that wraps hard prints it.
fn wrapped_at_column(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(envelope::HARD_WRAP_COLUMN)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// An error hard-wrapped at 80 columns (cut mid-word) or quoted in an e-mail reply (`> ` at
/// each line) lost its explanation (trial 42); the lines are joined again and the quoting
/// dropped. A text a client wrapped at spaces whose line fills the column is not glued into
/// one word unless the glued reading explains more (vercel-ai-vertex-anyof-only-field).
#[test]
fn hard_wrapped_and_mail_quoted_errors_are_read_whole() {
    let error = r#"Error: BadRequestError: Error code: 400 - {'error': {'message': "Invalid 'tools[1].function.description': string too long. Expected a string with maximum length 1024, but got a string with length 2121 instead.", 'type': 'invalid_request_error', 'param': 'tools[1].function.description', 'code': 'string_above_max_length'}}"#;
    let want = explain(None, error, None);
    assert_eq!(want.len(), 1, "{want:#?}");
    let hard = wrapped_at_column(error);
    assert_eq!(explain(None, &hard, None), want, "{hard}");
    let mail = format!("> {}\n", hard.replace('\n', "\n> "));
    assert_eq!(explain(None, &mail, None), want, "{mail}");
    // Wrapped at spaces, a line of exactly 80 characters: read as before, not glued.
    let vercel = "Unable to submit request because `move` functionDeclaration `parameters.entries`\nschema specified other fields alongside any_of. When using any_of, it must be\nthe only field set.\n";
    let got = explain(None, vercel, None);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(
        got[0].message.contains("`parameters.entries`\nschema"),
        "{got:#?}"
    );
}

/// An error a client wrapped at spaces within 80 columns, where a line goes on after no stop
/// or in a capital, lost its explanation (trial 42: Anthropic's `... does not support oneOf,` /
/// `allOf, or anyOf at the top level`, also quoted as a mail); the wrapped lines are joined
/// where that explains more, and a log's next line still is not (trial 41).
#[test]
fn errors_wrapped_at_spaces_are_read_whole_where_that_explains_more() {
    let message = "tools.13.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level";
    let wrapped = "tools.13.custom.input_schema: input_schema does not support oneOf,\nallOf, or anyOf at the top level\n";
    for text in [
        wrapped.to_string(),
        format!("> {}", wrapped.replace("\nallOf", "\n> allOf")),
    ] {
        let got = explain(None, &text, None);
        let [e] = got.as_slice() else {
            panic!("{text}: {got:#?}")
        };
        assert_eq!(e.message, message, "{text}");
        assert_eq!(e.rule.as_deref(), Some("root-combinator"));
    }
    let log = format!("[agent] {message}\nretrying in 2s (attempt 2 of 3)\n");
    let got = explain(None, &log, None);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(got[0].message, message);
}

/// An error past [`super::REWRAP_MAX`] is read once, as given: a log of short lines was read
/// three times over (as given, cut lines joined, wrapped lines joined).
#[test]
fn a_long_error_is_not_read_again_rejoined() {
    // 59 characters, all alike: each line's next first word would not fit (a wrap).
    let line = format!("{}\n", "word ".repeat(12).trim_end());
    let text = line.repeat(super::REWRAP_MAX / line.len() + 1);
    READ_BYTES.with(|n| n.set(0));
    explain(None, &text, None);
    let read = READ_BYTES.with(std::cell::Cell::get);
    assert!(read <= text.len(), "{read} bytes read of {}", text.len());
}

/// A wrapped error followed by a log record longer than the wrap's column was not rejoined:
/// the longer line kept every line from being read as wrapped (trial 44: Anthropic's
/// top-level combinator message, wrapped at a space at 80 columns, then a 90-character
/// `INFO ... retrying` record, gave `rule: (unknown)`). The longer line joins nothing, and
/// stays out of the quote.
#[test]
fn a_wrapped_error_before_a_longer_log_line_is_rejoined() {
    let text = "2026-12-05 10:00:00,123 ERROR agent.llm: request failed\n\
        Error: tools.13.custom.input_schema: input_schema does not support oneOf, allOf,\n\
        or anyOf at the top level\n\
        2026-12-05 10:00:01,457 INFO agent.loop: retrying request in 2 seconds (attempt 2 of 3)\n";
    let got = explain(None, text, None);
    let [e] = got.as_slice() else {
        panic!("{got:#?}")
    };
    assert_eq!(e.rule.as_deref(), Some("root-combinator"), "{e:#?}");
    assert_eq!(e.tool_index, Some(13));
    assert!(!e.message.contains("retrying"), "{}", e.message);
}

/// A quoted error with the replier's own lines around it was read with its quoting, so a
/// quoted wrapped error lost its explanation (trial 44 D11: Anthropic's top-level combinator
/// message wrapped at `allOf,` and quoted with `> `, then `Same here on 1.2.0.`, gave `rule:
/// (unknown)`, the quote cut at `allOf,`). The quoted lines lose their `> ` all the same. An
/// error quoted twice (a reply to a reply: `>> `, `> > `) kept its second `>` and lost its
/// explanation the same way (trial 46 D9); each line loses its whole run of quoting, and only
/// one space after it (the rest is the line's own indentation).
#[test]
fn a_quoted_error_among_the_repliers_lines_is_unquoted() {
    let quote = "> tools.13.custom.input_schema: input_schema does not support oneOf, allOf,\n\
        > or anyOf at the top level\n";
    let twice = quote.replace("> ", ">> ");
    for text in [
        format!("{quote}\nSame here on 1.2.0.\n"),
        format!("On Fri, Dec 4, 2026, someone wrote:\n{quote}"),
        twice.clone(),
        quote.replace("> ", "> > "),
        quote.replace("> ", ">  >>"),
        format!("On Tue, Bob wrote:\n{twice}>\n> Same here on 1.2.0.\n\nThanks, fixed.\n"),
    ] {
        let got = explain(None, &text, None);
        let [e] = got.as_slice() else {
            panic!("{text}: {got:#?}")
        };
        assert_eq!(e.rule.as_deref(), Some("root-combinator"), "{text}");
        assert_eq!(e.tool_index, Some(13));
        assert_eq!(
            e.message,
            "tools.13.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"
        );
    }
    assert_eq!(
        super::envelope::unquoted(">>   indented\n> >x\n>\nreply"),
        "  indented\nx\n\nreply"
    );
}

/// The line after a provider's message was joined into its quote where a rejoined reading
/// explained more (trial 44 D6): a short log line after a message ending a sentence (`...
/// with a maximum length of 64.` / `Retrying in 2 seconds.`), an indented stack frame after a
/// line filling 80 columns (`... nesting depth at Client.post (client.js:12)`), the indented
/// cut line of such a block with its indentation (`function_de    clarations[15]`, no tool
/// named), and a log record on the line after OpenAI's `Invalid schema for function 'get_x':`.
#[test]
fn a_log_record_or_stack_frame_after_an_error_stays_out_of_its_quote() {
    let name = "Error: Request Failed: 400 [{ \"error\": { \"code\": 400, \"message\": \"*\n\
        GenerateContentRequest.tools[0].function_declarations[18].name: Invalid function\n\
        name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z,\n\
        0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.\n\
        Retrying in 2 seconds.\n";
    let got = explain(None, name, None);
    let [e] = got.as_slice() else {
        panic!("{got:#?}")
    };
    assert_eq!(e.rule.as_deref(), Some("name-invalid"));
    assert_eq!(e.tool_index, Some(18));
    assert!(
        e.message.ends_with("maximum length of 64."),
        "{}",
        e.message
    );

    let depth =
        "    FunctionDeclaration in the request exceeds the maximum allowed nesting depth\n";
    for frame in [
        "    at Client.post (client.js:12)",
        "  File \"app.py\", line 12, in main",
    ] {
        let got = explain(None, &format!("{depth}{frame}\n"), None);
        let [e] = got.as_slice() else {
            panic!("{got:#?}")
        };
        assert_eq!(e.rule.as_deref(), Some("depth-exceeded"));
        assert!(e.message.ends_with("nesting depth"), "{}", e.message);
    }

    let cut = "    Invalid JSON payload received. Unknown name \"const\" at 'tools[0].function_de\n    \
        clarations[15].parameters.properties[0].value.any_of[3]': Cannot find field.\n    \
        at Client.post (client.js:12)\n";
    let got = explain(None, cut, None);
    let [e] = got.as_slice() else {
        panic!("{got:#?}")
    };
    assert_eq!(e.rule.as_deref(), Some("keyword-unsupported"));
    assert_eq!(e.tool_index, Some(15), "{e:#?}");
    assert!(e.message.ends_with("Cannot find field."), "{}", e.message);

    let record = "Error: Invalid schema for function 'get_x':\n\
        2026-12-05 10:00:01 INFO other: In context=(), 'additionalProperties' is required to be supplied and to be false.\n";
    let got = explain(None, record, None);
    let [e] = got.as_slice() else {
        panic!("{got:#?}")
    };
    assert!(e.message.starts_with("In context=()"), "{}", e.message);
}

/// A message cut at 80 columns inside a `[...]` token whose rest starts as a log record's head
/// (`...properties[` / `ERROR].items: missing field.`, a property named `ERROR` or `12:30:00`)
/// was not rejoined, and no template read it (trial 46 D5): a cut inside brackets is a cut
/// mid-token, joined again. A line that starts so after a line not cut inside brackets is a
/// record still. Any other name was read with the break as a space (`/properties/ tags`,
/// trial 48 D7): a cut inside brackets shows the text was cut hard, so it is joined without.
#[test]
fn a_cut_inside_brackets_before_a_level_word_is_rejoined() {
    use super::envelope::hard_unwrapped;
    let head = " GenerateContentRequest.tools[0].function_declarations[3].parameters.properties[";
    assert_eq!(head.chars().count(), 80);
    let mid_name = format!("{}a", &head[1..]);
    for (head, name) in [
        (head, "ERROR"),
        (head, "12:30:00"),
        (head, "WARN"),
        (head, "FOOBA"),
        (head, "tags"),
        (mid_name.as_str(), "b"),
    ] {
        let cut = format!("{head}\n{name}].items: missing field.\n");
        let got = explain(None, &cut, None);
        let [e] = got.as_slice() else {
            panic!("{cut}: {got:#?}")
        };
        let whole = format!("{}{name}", &head[head.rfind('[').unwrap() + 1..]);
        assert_eq!(e.pointer, Some(format!("/properties/{whole}")), "{cut}");
        assert!(
            e.message.contains(&format!("properties[{whole}].items")),
            "{cut}: {}",
            e.message
        );
        assert_eq!(e.tool_index, Some(3), "{cut}");
        assert_eq!(e.rule.as_deref(), Some("array-items-missing"), "{cut}");
    }
    let closed = format!("{}]", &head[..79]);
    for next in [
        "ERROR].items",
        "[ERROR] items",
        "ERROR ] items",
        "12:30:00 items",
    ] {
        for line in [head, closed.as_str()] {
            let joined = hard_unwrapped(&format!("{line}\n{next}"));
            let inside = line == head && next == "ERROR].items";
            assert_eq!(joined.is_some(), inside, "{line} / {next}");
        }
    }
}

#[test]
fn the_note_that_the_request_has_nothing_here_needs_no_target() {
    // Trial 59 D20: the note's words ("check finds it under no profile") hold whatever the
    // target, but were given only with `--target`: without it Vertex's `anyOf` "must be the
    // only field set" at an array with no `anyOf` sent its fix to a schema with no `anyOf`.
    let nothing = |e: &Explanation| {
        e.notes
            .iter()
            .any(|n| n.starts_with("the request given has nothing here"))
    };
    let request = |entries: Value| {
        json!({"contents":[{"role":"user","parts":[{"text":"hi"}]}],"tools":[{"functionDeclarations":[
            {"name":"move","description":"d","parameters":{"type":"object","properties":{"entries":entries}}}]}]})
    };
    let anyof = "Unable to submit request because `move` functionDeclaration `parameters.entries` schema specified other fields alongside any_of. When using any_of, it must be the only field set.";
    let without = request(json!({"type":"array","items":{"type":"string"}}));
    for target in [None, Some("vertex/v1/parameters")] {
        let [e] = explain(Some(&without), anyof, target).try_into().unwrap();
        assert_eq!(e.rule.as_deref(), Some("anyof-with-siblings"), "{e:?}");
        assert!(nothing(&e), "{target:?}: {e:?}");
    }
    // Where the request has what the rule is about, no note, with a target or without.
    let with = request(json!({"type":"array","anyOf":[{"items":{"type":"string"}}]}));
    for target in [None, Some("vertex/v1/parameters")] {
        let [e] = explain(Some(&with), anyof, target).try_into().unwrap();
        assert!(!nothing(&e), "{target:?}: {e:?}");
    }
    // The README's quick start: an array without `items` is what the message is about; one
    // with `items` is not.
    let missing = "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[entries].items: missing field.";
    for (entries, note) in [
        (json!({"type":"array"}), false),
        (json!({"type":"array","items":{"type":"string"}}), true),
    ] {
        let [e] = explain(Some(&request(entries.clone())), missing, None)
            .try_into()
            .unwrap();
        assert_eq!(e.rule.as_deref(), Some("array-items-missing"), "{e:?}");
        assert_eq!(nothing(&e), note, "{entries}: {e:?}");
    }
    // Where a target's check reads the message as another rule of this request, no note: a
    // bare root `anyOf` is `root-combinator` for openai/chat, and OpenAI's "type: None" is
    // about it.
    let bare = json!({"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"navigate_app",
        "parameters":{"anyOf":[{"type":"object","properties":{"a":{"const":"a"}}},{"type":"object","properties":{"b":{"const":"b"}}}]}}}]});
    let none = "Invalid schema for function 'navigate_app': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"None\"'.";
    let [e] = explain(Some(&bare), none, None).try_into().unwrap();
    assert_eq!(e.rule.as_deref(), Some("root-not-object"), "{e:?}");
    assert!(!nothing(&e), "{e:?}");
}

/// OpenAI schema messages joined on one line (a log record, a client that aggregates errors)
/// are each explained, each quoting its own statement, as the same messages in a JSON list
/// are (trial 63 D6: one explanation, for `f0`, quoting all three; `f1` and `f2` dropped
/// without a note). Whitespace runs between the words still read as the template's spaces.
#[test]
fn openai_messages_joined_on_one_line_are_each_explained() {
    let one = |f: &str| {
        format!(
            "Invalid schema for function '{f}': In context=('properties', 'tags'), array schema missing items."
        )
    };
    let line = format!(
        "{} {}  {}",
        one("f0"),
        one("f1"),
        one("f2").replace(" for ", "\tfor ")
    );
    let got = explain(None, &line, Some("openai/chat"));
    let read: Vec<_> = got
        .iter()
        .map(|e| (e.tool.as_deref(), e.pointer.as_deref(), e.rule.as_deref()))
        .collect();
    let tags = Some("/properties/tags");
    let items = Some("array-items-missing");
    assert_eq!(
        read,
        [
            (Some("f0"), tags, items),
            (Some("f1"), tags, items),
            (Some("f2"), tags, items)
        ],
        "{got:#?}"
    );
    for (e, f) in got.iter().zip(["f0", "f1", "f2"]) {
        assert!(
            e.message.trim_end().ends_with("missing items.")
                && e.message.matches("Invalid").count() == 1,
            "{f}: {}",
            e.message
        );
    }
}

/// Cohere's offline model refuses a tool with optional parameters only in words that name no
/// tool; they read as the tools of the request whose parameters declare properties and
/// require none, each one: `required-invalid` at a `required` written empty (where check
/// reports it), no rule at a tool writing none (compile's strict form is the fix), labelled
/// as the offline model's inferred wording. A tool that requires one is not named; without
/// a request, or with none such, no tool is named.
#[test]
fn cohere_optional_parameters_only_names_each_tool_requiring_none() {
    let tool = |name: &str, parameters: Value| {
        json!({"type": "function", "function": {"name": name, "description": "d",
            "parameters": parameters}})
    };
    let tools = [
        tool(
            "a",
            json!({"type": "object", "properties": {"x": {"type": "string"}},
            "required": ["x"]}),
        ),
        tool(
            "b",
            json!({"type": "object", "properties": {"x": {"type": "string"}}}),
        ),
        tool(
            "c",
            json!({"type": "object", "properties": {"z": {"type": "string"}},
            "required": []}),
        ),
        tool("d", json!({"type": "object", "properties": {}})),
    ];
    let refs: Vec<&Value> = tools.iter().collect();
    let said = crate::target::cohere::strict_tools_problem(&refs).unwrap();
    let request = json!({"tools": tools});
    for target in [None, Some("cohere/v2-strict")] {
        let all = explain(
            Some(&request),
            &format!(r#"{{"message":"{said}"}}"#),
            target,
        );
        let named: Vec<_> = all
            .iter()
            .map(|e| {
                (
                    e.tool_index,
                    e.tool.as_deref(),
                    e.pointer.as_deref(),
                    e.rule.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            named,
            [
                (Some(1), Some("b"), Some(""), None),
                (
                    Some(2),
                    Some("c"),
                    Some("/required"),
                    Some("required-invalid")
                ),
            ],
            "{target:?}: {all:#?}"
        );
        for e in &all {
            assert_eq!(e.fix.as_deref(), Some(templates::COHERE_REQUIRED_FIX));
            assert!(
                e.notes
                    .iter()
                    .any(|n| n.contains("offline model") && n.contains("inferred")),
                "{:?}",
                e.notes
            );
        }
    }
    let all = explain(None, &said, Some("cohere/v2-strict"));
    let [e] = all.as_slice() else {
        panic!("{all:#?}")
    };
    assert_eq!((e.tool.as_deref(), e.pointer.as_deref()), (None, None));
    assert_eq!(e.fix.as_deref(), Some(templates::COHERE_REQUIRED_FIX));
    let none_such = json!({"tools": [tools[0].clone()]});
    let all = explain(Some(&none_such), &said, Some("cohere/v2-strict"));
    let [e] = all.as_slice() else {
        panic!("{all:#?}")
    };
    assert_eq!(e.tool, None);
    assert!(
        e.notes.iter().any(|n| n.contains("no tool of the request")),
        "{:?}",
        e.notes
    );
}

/// A JSON body holding an escape of half a surrogate pair (an echoed name cut in the middle of
/// a character) is read as the envelope it is, that half as U+FFFD: read as text, its quote ran
/// on into `","param":...}}` and the tool index `param` gives was lost (trial 83 D4). A whole
/// pair and an escaped backslash before `u` are kept as they are.
#[test]
fn a_body_with_a_lone_surrogate_escape_is_read_as_its_envelope() {
    let body = r#"{"error":{"message":"Invalid schema for function 'f\ud800x\\ud800\ud83d\ude00\udc00': In context=('properties', 'tags'), array schema missing items.","param":"tools[1].function.parameters"}}"#;
    let e = &explain(None, body, None);
    assert_eq!(e.len(), 1, "{e:?}");
    let e = &e[0];
    assert_eq!(e.tool_index, Some(1), "{e:?}");
    assert_eq!(
        e.message,
        "Invalid schema for function 'f\u{fffd}x\\ud800\u{1f600}\u{fffd}': In context=('properties', \
         'tags'), array schema missing items."
    );
    assert_eq!(e.rule.as_deref(), Some("array-items-missing"));
    assert_eq!(e.pointer.as_deref(), Some("/properties/tags"));
}

/// Google's unknown field at a place the message gives only by positional index: without the
/// request there is no place to read the value at, but the keyword is named, and so is it in
/// the fix (trial 83 D3: the rule's general "Remove the keyword", naming none, for
/// `exclusiveMinimum`, `additionalProperties`, `propertyNames`, `const`).
#[test]
fn an_unknown_field_without_its_place_gets_its_keywords_fix() {
    let at =
        "at 'tools[0].function_declarations[6].parameters.properties[3].value': Cannot find field.";
    let fix = |k: &str| {
        let text = format!("Invalid JSON payload received. Unknown name \"{k}\" {at}");
        let e = &explain(None, &text, None)[0];
        assert_eq!(e.pointer, None, "{e:?}");
        e.fix.clone().unwrap_or_default()
    };
    // Its forms' fixes differ (a draft-4 boolean is rewritten as the bound): removal, named.
    assert_eq!(
        fix("exclusiveMinimum"),
        "Remove `exclusiveMinimum`; if it constrained the value, say so in the description."
    );
    assert!(fix("additionalProperties").starts_with("Remove `additionalProperties`"));
    // One fix whatever the value: check's own.
    assert!(fix("propertyNames").starts_with("Remove `propertyNames` and say what it required"));
    assert!(fix("title").starts_with("Remove `title`: it only annotates"));
    assert!(fix("const").starts_with("Write `const` as a one-value `enum`"));
    // A vendor key is no keyword with a fix of its own.
    assert_eq!(fix("x-foo"), fix_for("keyword-unsupported").unwrap());
}

/// Trial 85 D1: a tuple cut short whose literal holds `In context=(` (a line logged twice,
/// cut before its closing quote) was read again from inside that literal; the two readings'
/// ranges overlapped and the slicing between them panicked. Text inside a literal already read
/// is no tuple.
#[test]
fn a_context_tuple_inside_a_literal_is_no_second_tuple() {
    let spans = |text: &str, json: bool| -> Vec<std::ops::Range<usize>> {
        envelope::tuple_literals(text, json)
    };
    for (text, json) in [
        ("In context=('In context=(''", false),
        ("In context=('In context=(\"'\\\"", true),
        ("In context=('In context=(\"'\\\"", false),
        (
            "In context=('properties', 'texts\nIn context=('properties', 'texts",
            false,
        ),
    ] {
        let got = spans(text, json);
        assert!(
            got.windows(2).all(|w| w[0].end <= w[1].start),
            "{text:?}: {got:?} overlap"
        );
        // Whole as the callers read it: no template, or one, never a panic.
        let _ = explain(None, text, None);
    }
    assert_eq!(
        spans(
            "In context=('a In context=(', 'b'), In context=('c')",
            false
        )
        .into_iter()
        .map(|r| &"In context=('a In context=(', 'b'), In context=('c')"[r])
        .collect::<Vec<_>>(),
        ["'a In context=('", "'b'", "'c'"]
    );
}

/// Trial 85 D2: lines joined after a line cut at the column, where the next two lines each
/// start with a character wider in bytes than the first line's indentation, read as sharing
/// that indentation (both too short for it) and were sliced inside the character. They share
/// none; a wrapped message whose property names are not Latin is still rejoined and read.
#[test]
fn wrapped_lines_starting_with_wide_characters_share_no_indentation() {
    use super::envelope::hard_unwrapped;
    let cut = format!(" {}\né\né", "a".repeat(79));
    // The cut inside a word is joined; the two one-character lines are not.
    assert_eq!(
        hard_unwrapped(&cut),
        Some((format!(" {}é\né", "a".repeat(79)), false))
    );
    assert!(explain(None, &cut, None).is_empty());
    let name = "名".repeat(30);
    let whole = format!(
        " GenerateContentRequest.tools[0].function_declarations[1].parameters.properties[{name}].type: must be specified when not using one_of, any_of or all_of fields"
    );
    let wrapped = wrapped_at_column(&whole);
    let got = explain(None, &wrapped, Some("gemini/v1beta/parameters"));
    let [e] = got.as_slice() else {
        panic!("{wrapped}: {got:#?}")
    };
    assert_eq!(e.rule.as_deref(), Some("type-missing"), "{wrapped}");
    assert_eq!(e.pointer, Some(format!("/properties/{name}")), "{wrapped}");
}

/// The pieces the envelope reader parses (context tuples, quotes and their escapes, Google's
/// bracketed paths, envelopes, lines cut at the column, characters wider than a byte at a
/// line's start), for [`explain_never_panics_on_pieces_of_its_syntax`].
const SYNTAX_PIECES: &[&str] = &[
    "In context=(",
    "'",
    "\"",
    "(",
    ")",
    ", ",
    "properties",
    "tools[",
    "0",
    "17",
    "]",
    ".",
    "\n",
    "\r\n",
    " ",
    "    ",
    "\\",
    "\\'",
    "\\\"",
    "\\n",
    "\\\\n",
    "\\u00e9",
    "{",
    "}",
    "[",
    ": ",
    "*",
    "=",
    "é",
    "名",
    "\u{200d}",
    "Invalid schema for function '",
    "GenerateContentRequest.",
    "function_declarations[",
    "properties[",
    "].items",
    "].value",
    ".any_of[",
    "Unknown name \"",
    " at '",
    "$.",
    "toolConfig.tools.",
    ".toolSpec.inputSchema.json",
    "tools.0.custom.input_schema",
    "parametersJsonSchema",
    "Error code: 400 - ",
    "{'error': {'message': ",
    "{\"error\":{\"message\":\"",
    "missing field",
    "type",
    "null",
    // The other envelopes and escapes the reader decodes (task E's audit): a Java map, a Rust
    // `Debug` printout, a Python bytes literal, a lone surrogate or a `\u` escape cut short,
    // a BOM, a NUL, a bare `\r`, an e-mail quote, and the templates that read a path of names.
    "{type=error, error={message=",
    "message: Some(\"",
    "b'",
    "\\ud800",
    "\\u12",
    "\u{feff}",
    "\0",
    "\r",
    "> ",
    "Unable to submit request because `f` functionDeclaration `",
    "` schema ",
    "The json schema definition at toolConfig.tools.1.toolSpec.inputSchema is invalid. Fix the following errors and try again: ",
    "At path '",
    ">",
    // A line cut at the column (80 characters, no newline): the next piece goes on it.
    "\n aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "\n* GenerateContentRequest.tools[0].function_declarations[3].parameters.properties[",
];

/// The pieces of OpenAI's `In context=(...)` tuples and their escapes, densely: the general
/// pieces above meet a tuple inside another's literal once in thousands of texts.
const TUPLE_PIECES: &[&str] = &[
    "In context=(",
    "'",
    "\"",
    "\\'",
    "\\\"",
    "\\",
    ", ",
    "0",
    ")",
    "\n",
    "é",
    "x",
];

/// Lines for [`explain_never_panics_on_tuples_or_wrapped_lines`] to join: lines cut at the
/// column (80 characters), indented or not, and lines that may follow them.
const WRAP_LINES: &[&str] = &[
    " aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "  名aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "é",
    "名].items: missing field",
    " é",
    "\t名",
    "a",
    "",
    "properties[",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1500))]
    /// Any text is explained or not, never a panic (trial 85 D1 and D2 were slices between
    /// ranges the reader found in the text: overlapping, or inside a character): text made of
    /// the reader's own syntax, of tuples, and of lines cut at the column.
    #[test]
    fn explain_never_panics_on_tuples_or_wrapped_lines(
        tuple in proptest::collection::vec(0..TUPLE_PIECES.len(), 1..16),
        wrap in proptest::collection::vec(0..WRAP_LINES.len(), 1..8),
    ) {
        let tuple: String = tuple.iter().map(|&i| TUPLE_PIECES[i]).collect();
        let wrap = wrap.iter().map(|&i| WRAP_LINES[i]).collect::<Vec<_>>().join("\n");
        let _ = explain(None, &tuple, None);
        let _ = explain(None, &wrap, None);
    }

    /// The same, with and without a request and a target.
    #[test]
    fn explain_never_panics_on_pieces_of_its_syntax(
        pieces in proptest::collection::vec(0..SYNTAX_PIECES.len(), 1..40),
        with_request in proptest::bool::ANY,
        target in 0usize..4,
    ) {
        let text: String = pieces.iter().map(|&i| SYNTAX_PIECES[i]).collect();
        let request = json!({"tools":[
            {"type":"function","function":{"name":"a","parameters":{"type":"object"}}},
            {"type":"function","function":{"name":"b","parameters":{"type":"object",
                "properties":{"é":{"type":"array"}}}}}]});
        let target = [None, Some("openai/chat"), Some("gemini/v1beta/parameters"),
            Some("bedrock/converse")][target];
        let _ = explain(with_request.then_some(&request), &text, target);
    }
}

/// Each envelope the reader decodes (a Python printout, a JSON body, a Java map, a Rust
/// `Debug` printout, a Python bytes literal; synthetic, shaped as the reports.yaml texts
/// are), cut short at every character boundary, as a client or a log cuts an error at a
/// length: explained without a panic, with and without the request (task E's audit cut the
/// 177 texts of reports.yaml so, bare and in two printouts, 88,191 texts, and found none).
#[test]
fn explain_never_panics_on_envelopes_cut_anywhere() {
    let message = r"Invalid schema for function 'get_wé': In context=('properties', 'a\'b', 'In context=(', 0), 'additionalProperties' is required to be supplied and to be false.";
    let envelopes = [
        format!(
            "Error code: 400 - {{'error': {{'message': \"{message}\", 'type': \
             'invalid_request_error', 'param': 'tools[0].function.parameters', 'code': None}}}}"
        ),
        json!({"error": {"message": message, "param": "tools[0]", "code": 400}}).to_string(),
        format!("{{type=error, error={{type=invalid_request_error, message={message}}}}}"),
        r#"ValidationException { message: Some("tools.0.custom: Invalid schema: Reference to non-existent definition: #/$defs/é"), meta: ErrorMetadata { code: Some("ValidationException") } }"#.to_string(),
        r#"VertexAIException BadRequestError - b'{\n  "error": {\n    "message": "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[\xc3\xa9].items: missing field.\\n"\n  }\n}\n'"#.to_string(),
    ];
    let request = json!({"tools": [{"type": "function", "function": {"name": "get_wé",
        "parameters": {"type": "object", "properties": {"é": {"type": "array"}}}}}]});
    for envelope in &envelopes {
        for (cut, _) in envelope.char_indices() {
            let text = &envelope[..cut];
            let _ = explain(None, text, None);
            let _ = explain(Some(&request), text, Some("openai/chat"));
        }
    }
}

/// Text of Java maps nested in maps (`{a={a=...`, 600 bytes at 150 levels) was read again at
/// each place an envelope may start, in each value at each level: up to 32^8 readings (20 s at
/// 150 levels, past 100 s at 200). The reading of one error stops at its budget; a real
/// envelope takes a few readings of it.
#[test]
fn nested_maps_are_read_within_the_budget() {
    let left = || envelope::READINGS_LEFT.with(|l| l.get());
    for levels in [150, 1_000] {
        let text = format!("{}x{}", "{a=".repeat(levels), "}".repeat(levels));
        assert!(explain(None, &text, None).is_empty());
        assert_eq!(left(), 0, "{levels} levels: the budget stopped the reading");
    }
    let printout = "Error code: 400 - {'error': {'message': \"Invalid schema for function 'f': \
        In context=('properties', 'a'), array schema missing items.\", 'type': \
        'invalid_request_error', 'param': 'tools[0].function.parameters', 'code': \
        'invalid_function_parameters'}}";
    let [e] = explain(None, printout, None)
        .try_into()
        .expect("one explanation");
    assert_eq!(e.rule.as_deref(), Some("array-items-missing"));
    let used = envelope::MAX_READINGS - left();
    assert!(used < 16, "{used} readings for one printout");
}
