//! `name-duplicate`: two tools of one request with the same name.

use super::*;

pub const RULE: Rule = Rule {
    id: "name-duplicate",
    checks: "A tool has the same name as an earlier tool of the same request (reported on the \
             later one).",
    features: "`name-unique`",
    example: r#"[{"name": "search", "parameters": {"type": "object", "properties": {}}}, {"name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}]"#,
    fix: "Give every tool of a request its own name (e.g. prefix the server or namespace).",
    repair: "no",
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

fn request<'a>(cx: &mut Cx<'a, '_>, tools: &[ToolRef<'a>]) {
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
}
