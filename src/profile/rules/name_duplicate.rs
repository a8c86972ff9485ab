//! `name-duplicate`: two tools of one request with the same name, or a function tool named
//! like one of the request's built-in tools.

use super::*;

pub const RULE: Rule = Rule {
    id: "name-duplicate",
    checks: "A tool has the same name as another tool of the same request (reported on each \
             of them, naming the others: the provider rejects the whole request, and no one of \
             them is the original), or as one of the request's named built-in tools \
             (Anthropic's server tools, OpenAI's `custom` tools; reported on the function tool).",
    features: "`name-unique`",
    example: r#"[{"name": "search", "parameters": {"type": "object", "properties": {}}}, {"name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}]"#,
    example_target: None,
    fix: "Give every tool of a request its own name (e.g. prefix the server or namespace): a call names its tool, so with two of one name it may reach either. Where a target of the profile rejects it, `toolwire repair` and `compile` leave every tool of such a name out (and say so) rather than guess.",
    repair: "no: where a target of the profile rejects two tools of one name, repair and compile leave every tool sharing the name out, with the reason (a call could reach either tool); elsewhere they keep them, as `check` only warns",
    repairable: never,
    owns,
    hooks: Hooks {
        request: Some(request),
        ..Hooks::NONE
    },
};

/// How many of the other tools sharing a name each finding names.
const MAX_NAMED: usize = 5;

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
    // Every tool of a shared name is at fault alike (Anthropic: "Tool names must be unique",
    // Gemini: "Duplicate function declaration found": the request is refused, whichever came
    // first), and repair leaves every one of them out: each is reported, naming the others.
    let mut by_name: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
    for t in tools {
        if let Some(name) = t.name {
            by_name.entry(name).or_default().push(t.index);
        }
    }
    for t in tools {
        let Some(name) = t.name else { continue };
        let sharing = &by_name[name];
        if sharing.len() < 2 {
            continue;
        }
        cx.set_tool(t.index, name);
        // A few others by name: naming all of N tools on each of them made the output grow
        // as N² (8,000 copies of one name gave 700 MB).
        let mut others: Vec<String> = sharing
            .iter()
            .filter(|i| **i != t.index)
            .take(MAX_NAMED)
            .map(|i| cx.other_tool(*i))
            .collect();
        let unnamed = sharing.len() - 1 - others.len();
        if unnamed > 0 {
            others.push(format!("{unnamed} more"));
        }
        cx.feature(At::Tool, Feat::NameUnique, Placement::Request, || {
            format!("tool name `{name}` is also used by {}", others.join(", "))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    /// Each tool of a shared name is reported, not only the later ones.
    #[test]
    fn every_tool_of_a_shared_name_is_reported() {
        use crate::profile::detect::{ToolRef, collect};
        let tools: Vec<ToolRef<'_>> = ["a", "b", "a", "a"]
            .iter()
            .enumerate()
            .map(|(index, n)| ToolRef {
                name: Some(n),
                description: None,
                parameters: None,
                index,
                ..Default::default()
            })
            .collect();
        let reported: Vec<usize> = collect(&tools)
            .into_iter()
            .filter(|s| s.rule == "name-duplicate")
            .map(|s| s.tool_index)
            .collect();
        assert_eq!(reported, [0, 2, 3]);
        let found = seen_tools(
            "name-duplicate",
            &[(Some("a"), None, None), (Some("b"), None, None)],
        );
        assert!(found.is_empty(), "{found:?}");
    }

    /// Under a profile that rejects two tools of one name, each of them is an error that names
    /// the others, as repair refuses each of them.
    #[test]
    fn each_finding_names_the_other_tools_of_the_name() {
        use crate::check::{Level, check_set};
        use crate::repair::tests::profile;
        use serde_json::json;
        let schema = json!({"type":"object","properties":{"q":{"type":"string"}}});
        let tool = |n: &str| json!({"name":n,"description":"Searches.","input_schema":schema});
        let request = json!({"tools":[tool("x"), tool("y"), tool("x"), tool("x")]});
        let set = crate::input::from_value(std::path::Path::new("t.json"), request).unwrap();
        let mut found = check_set(&set, &profile(&["name-unique"]));
        found.retain(|f| f.rule == "name-duplicate");
        let got: Vec<(usize, Level, &str)> = found
            .iter()
            .map(|f| (f.tool_index, f.level, f.message.as_str()))
            .collect();
        let says = |i: usize, others: &str| {
            got.iter().any(|(t, l, m)| {
                *t == i
                    && *l == Level::Error
                    && m.starts_with(&format!("tool name `x` is also used by {others}:"))
            })
        };
        assert_eq!(got.len(), 3, "{got:#?}");
        assert!(says(0, "tool 2, tool 3"), "{got:#?}");
        assert!(says(2, "tool 0, tool 3"), "{got:#?}");
        assert!(says(3, "tool 0, tool 2"), "{got:#?}");
        // Many of one name: each names a few, then counts the rest (not all N on each).
        let request = json!({"tools": (0..10).map(|_| tool("x")).collect::<Vec<_>>()});
        let set = crate::input::from_value(std::path::Path::new("t.json"), request).unwrap();
        let found = check_set(&set, &profile(&["name-unique"]));
        let first = found
            .iter()
            .find(|f| f.rule == "name-duplicate" && f.tool_index == 0)
            .unwrap();
        assert!(
            first.message.starts_with(
                "tool name `x` is also used by tool 1, tool 2, tool 3, tool 4, tool 5, 4 more:"
            ),
            "{}",
            first.message
        );
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
