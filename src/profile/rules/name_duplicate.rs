//! `name-duplicate`: two tools of one request with the same name, or a function tool named
//! like one of the request's built-in tools.

use super::*;

pub const RULE: Rule = Rule {
    id: "name-duplicate",
    checks: "A tool has the same name as an earlier tool of the same request (reported on the \
             later one), or as one of the request's named built-in tools (Anthropic's server \
             tools, OpenAI's `custom` tools; reported on the function tool).",
    features: "`name-unique`",
    example: r#"[{"name": "search", "parameters": {"type": "object", "properties": {}}}, {"name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}]"#,
    fix: "Give every tool of a request its own name (e.g. prefix the server or namespace): a call names its tool, so with two of one name it may reach either. Where a target of the profile rejects it, `toolwire repair` and `compile` leave every tool of such a name out (and say so) rather than guess.",
    repair: "no: where a target of the profile rejects two tools of one name, repair and compile leave every tool sharing the name out, with the reason (a call could reach either tool); elsewhere they keep them, as `check` only warns",
    repairable: never,
    owns,
    hooks: Hooks {
        request: Some(request),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::NameUnique, _))
}

fn request<'a>(cx: &mut Cx<'a, '_>, tools: &[ToolRef<'a>], builtins: &[BuiltinTool]) {
    // A built-in tool has no schema and is judged by no other rule, so its clash is reported on
    // the function tool; both share one name space in the request.
    for t in tools {
        let Some(name) = t.name else { continue };
        if let Some(b) = builtins.iter().find(|b| b.name.as_deref() == Some(name)) {
            cx.set_tool(t.index, name);
            let other = cx.other_tool(b.index);
            cx.feature(At::Tool, Feat::NameUnique, Placement::Request, || {
                format!(
                    "tool name `{name}` is also the name of built-in {other} (type `{}`)",
                    b.kind
                )
            });
        }
    }
    if tools.len() < 2 {
        return;
    }
    let mut first: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for t in tools {
        let Some(name) = t.name else { continue };
        match first.get(name) {
            Some(&earlier) => {
                cx.set_tool(t.index, name);
                let other = cx.other_tool(earlier);
                cx.feature(At::Tool, Feat::NameUnique, Placement::Request, || {
                    format!("tool name `{name}` is also used by {other}")
                });
            }
            None => {
                first.insert(name, t.index);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn later_duplicates_are_reported() {
        let found = seen_tools(
            "name-duplicate",
            &[
                (Some("a"), None, None),
                (Some("b"), None, None),
                (Some("a"), None, None),
            ],
        );
        assert_eq!(found, pairs(&[("", "name-unique")]));
    }

    /// A function tool named like a built-in tool of its request is reported (on the function
    /// tool, naming the built-in by its number); a built-in of another request is not.
    #[test]
    fn a_function_tool_named_like_a_built_in_is_reported() {
        use crate::check::{Level, check_set};
        use crate::repair::tests::profile;
        use serde_json::json;
        let schema = json!({"type":"object","properties":{"q":{"type":"string"}}});
        let p = profile(&["name-unique"]);
        let request = json!({"tools":[
            {"type":"web_search_20250305","name":"web_search"},
            {"name":"lookup","description":"Looks up.","input_schema":schema},
            {"name":"web_search","description":"Searches.","input_schema":schema},
        ]});
        let set = crate::input::from_value(std::path::Path::new("t.json"), request).unwrap();
        let duplicates = |set| {
            let mut found = check_set(set, &p);
            found.retain(|f| f.rule == "name-duplicate");
            found
        };
        let found = duplicates(&set);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(
            (found[0].rule.as_str(), found[0].tool_index),
            ("name-duplicate", 2)
        );
        assert_eq!(found[0].level, Level::Error);
        assert!(
            found[0]
                .message
                .starts_with("tool name `web_search` is also the name of built-in tool 0 (type `web_search_20250305`)"),
            "{}",
            found[0].message
        );
        let lines = format!(
            "{}\n{}\n",
            json!({"tools":[{"type":"web_search_20250305","name":"web_search"}]}),
            json!({"tools":[{"name":"web_search","description":"Searches.","input_schema":schema}]})
        );
        let set =
            crate::input::from_bytes(std::path::Path::new("t.jsonl"), lines.as_bytes()).unwrap();
        assert!(duplicates(&set).is_empty());
    }
}
