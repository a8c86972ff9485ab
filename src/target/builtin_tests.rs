//! The offline models of the services that take built-in (server) tools next to function
//! tools accept them unchecked, and still refuse a broken function schema beside them at the
//! function's own index in the request.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::secret::{Credential, Secret};
use super::{routes, service};
use crate::evidence::{Stage, Verdict};
use crate::tool::ToolDef;

/// Per route: its built-in tools, the other endpoints that read the same body, and how its
/// refusal names the tool at index `i`.
struct Row {
    id: &'static str,
    builtins: Vec<Value>,
    other_paths: &'static [&'static str],
    path_of: fn(usize) -> String,
}

fn rows() -> Vec<Row> {
    let responses = vec![
        json!({"type": "web_search"}),
        json!({"type": "web_search_preview"}),
        json!({"type": "code_interpreter", "container": {"type": "auto"}}),
        json!({"type": "file_search", "vector_store_ids": ["vs_1"]}),
        json!({"type": "image_generation"}),
        json!({"type": "mcp", "server_label": "docs", "server_url": "https://mcp.example/sse"}),
        json!({"type": "local_shell"}),
        json!({"type": "computer_use_preview", "display_width": 1024, "display_height": 768, "environment": "browser"}),
        json!({"type": "custom", "name": "grammar_tool", "description": "Free-form input."}),
    ];
    let chat_custom = || vec![json!({"type": "custom", "custom": {"name": "x"}})];
    vec![
        Row {
            id: "anthropic/messages",
            builtins: vec![
                json!({"type": "web_search_20250305", "name": "web_search", "max_uses": 3}),
                json!({"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"}),
                json!({"type": "bash_20250124", "name": "bash"}),
                json!({"type": "mcp_toolset", "mcp_server_name": "docs"}),
            ],
            other_paths: &["/v1/messages/count_tokens"],
            path_of: |i| format!("tools.{i}.custom.input_schema"),
        },
        Row {
            id: "openai/responses-strict",
            builtins: responses,
            other_paths: &["/v1/responses/input_tokens"],
            path_of: |i| format!("tools[{i}].parameters"),
        },
        Row {
            id: "openai/chat",
            builtins: chat_custom(),
            other_paths: &[],
            path_of: |i| format!("tools[{i}].function.parameters"),
        },
        Row {
            id: "openai/chat-strict",
            builtins: chat_custom(),
            other_paths: &[],
            path_of: |i| format!("tools[{i}].function.parameters"),
        },
        Row {
            id: "bedrock/converse",
            builtins: vec![json!({"cachePoint": {"type": "default"}})],
            other_paths: &[],
            path_of: |i| format!("toolConfig.tools.{i}.toolSpec.inputSchema"),
        },
    ]
}

/// The first array under key `tools`, depth first (`toolConfig.tools` for Converse).
fn tools_mut(v: &mut Value) -> Option<&mut Vec<Value>> {
    match v {
        Value::Object(o) => {
            if let Some(Value::Array(_)) = o.get("tools") {
                return o.get_mut("tools").and_then(Value::as_array_mut);
            }
            o.values_mut().find_map(tools_mut)
        }
        Value::Array(a) => a.iter_mut().find_map(tools_mut),
        _ => None,
    }
}

fn tool(parameters: Value) -> ToolDef {
    ToolDef {
        name: "get_weather".into(),
        description: Some("Gets the weather.".into()),
        parameters: Some(parameters),
    }
}

#[test]
fn built_in_tools_are_accepted_beside_function_tools() {
    let good = tool(json!({
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": false
    }));
    // A schema every one of these validators refuses: `properties` must be an object.
    let broken = tool(json!({"type": "object", "properties": null}));
    let key = Credential::Key(Secret::new("tw-builtin-key"));
    let all = routes();
    for row in rows() {
        let r = all
            .iter()
            .find(|r| r.id() == row.id)
            .unwrap_or_else(|| panic!("no route {}", row.id));
        let cfg = r.configure(&BTreeMap::<String, String>::new());
        let svc = service(r.service()).expect("a model");
        // Built-in tools first, so the function tool sits at index `builtins.len()`.
        let with_builtins = |t: &ToolDef| {
            let mut incoming = r
                .request(&cfg, std::slice::from_ref(t), &Default::default())
                .to_incoming(Some(&key));
            let mut body: Value = serde_json::from_slice(&incoming.body).expect("JSON");
            let tools = tools_mut(&mut body).expect("a tools array");
            for (i, b) in row.builtins.iter().enumerate() {
                tools.insert(i, b.clone());
            }
            incoming.body = body.to_string().into_bytes();
            incoming
        };

        let ok = with_builtins(&good);
        let reply = svc.answer(&ok);
        let c = r.classify(&cfg, &reply, false);
        assert_eq!(
            (reply.status, c.verdict, c.stage),
            (200, Verdict::Accepted, Stage::Validate),
            "{}: {}",
            row.id,
            reply.text_body()
        );
        for path in row.other_paths {
            let mut other = ok.clone();
            other.path = (*path).into();
            let reply = svc.answer(&other);
            assert_eq!(
                reply.status,
                200,
                "{} {path}: {}",
                row.id,
                reply.text_body()
            );
        }

        let bad = with_builtins(&broken);
        let reply = svc.answer(&bad);
        let c = r.classify(&cfg, &reply, false);
        let want = (row.path_of)(row.builtins.len());
        assert_eq!(
            (reply.status, c.verdict),
            (400, Verdict::Rejected),
            "{}: {}",
            row.id,
            reply.text_body()
        );
        assert!(
            c.path.as_deref().is_some_and(|p| p.starts_with(&want)),
            "{}: path {:?}, want {want}: {}",
            row.id,
            c.path,
            reply.text_body()
        );
        for path in row.other_paths {
            let mut other = bad.clone();
            other.path = (*path).into();
            let reply = svc.answer(&other);
            assert_eq!(
                reply.status,
                400,
                "{} {path}: {}",
                row.id,
                reply.text_body()
            );
        }
    }
}

/// A built-in tool of one provider is not one of another's: the models that take no built-in
/// tools, and the built-in shapes a provider does not use, keep their answers.
#[test]
fn other_shapes_are_still_checked() {
    let key = Credential::Key(Secret::new("tw-builtin-key"));
    let answer = |slug: &str, path: &str, body: Value| {
        let r = routes()
            .into_iter()
            .find(|r| r.service() == slug)
            .expect("a route");
        let cfg = r.configure(&BTreeMap::<String, String>::new());
        let mut i = r
            .request(&cfg, &[], &Default::default())
            .to_incoming(Some(&key));
        i.path = path.into();
        i.body = body.to_string().into_bytes();
        service(slug).expect("a model").answer(&i)
    };
    let msgs = json!([{"role": "user", "content": "hi"}]);
    // Anthropic: an OpenAI built-in type is no Anthropic tool; a dated type with a schema key
    // is a function tool and is checked.
    let reply = answer(
        "anthropic",
        "/v1/messages",
        json!({"model": "m", "messages": msgs, "tools": [{"type": "web_search", "name": "web_search"}]}),
    );
    assert!(
        reply
            .text_body()
            .contains("tools.0.input_schema: Field required")
    );
    let reply = answer(
        "anthropic",
        "/v1/messages",
        json!({"model": "m", "messages": msgs, "tools": [{"type": "bash_20250124", "name": "bash", "input_schema": {"type": "object", "properties": null}}]}),
    );
    assert!(reply.text_body().contains("tools.0.custom.input_schema"));
    // Chat Completions: Responses' built-in tools are not Chat tools.
    let reply = answer(
        "openai",
        "/v1/chat/completions",
        json!({"model": "m", "messages": msgs, "tools": [{"type": "web_search"}]}),
    );
    assert_eq!(reply.status, 400, "{}", reply.text_body());
    // Azure keeps its envelope: nothing in the evidence says it takes `custom` tools.
    let reply = answer(
        "azure-openai",
        "/openai/v1/chat/completions",
        json!({"model": "d", "messages": msgs, "tools": [{"type": "custom", "custom": {"name": "x"}}]}),
    );
    assert_eq!(reply.status, 400, "{}", reply.text_body());
    assert!(reply.text_body().contains("tools[0].function.name"));
}
