//! `name-too-long`: a tool name longer than the profile allows.

use super::*;

pub const RULE: Rule = Rule {
    id: "name-too-long",
    checks: "The tool name's length in characters reaches a `name-length-limit` case the \
             profile does not allow.",
    features: "`name-length-limit: N`",
    example: r#"{"name": "mcp__github_enterprise_server__list_pull_request_review_comments_for_repo", "description": "Lists review comments on a pull request.", "parameters": {"type": "object", "properties": {"pull_number": {"type": "integer"}}}}"#,
    example_target: None,
    fix: "Shorten the name (drop server prefixes, abbreviate), keeping names unique.",
    repair: "yes, unless the new name is that of another tool of the request (then the tool is refused: a call could reach either)",
    repairable: unless_rename_clashes,
    owns,
    hooks: Hooks {
        tool: Some(tool),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(p, Param::Limit(Limit::NameLength, _))
}

fn tool<'a>(cx: &mut Cx<'a, '_>, t: &ToolRef<'a>) {
    if let Some(name) = t.name {
        // Characters never outnumber bytes: a short name needs no count.
        if name.len() < cx.limit_floor(Limit::NameLength) {
            return;
        }
        let n = name.chars().count();
        if n == 0 {
            return;
        }
        // As for `name-invalid`: a cut that lands on another tool's name is no fix.
        let clash = cx.name_clash();
        cx.feature_with_fix(
            At::Tool,
            Feat::Limit(Limit::NameLength, n),
            Placement::Tool,
            || format!("{n} {}", Limit::NameLength.unit()),
            || clash.as_deref().map(rename_clash_fix),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn counts_characters() {
        assert_eq!(
            seen_tools("name-too-long", &[(Some("héllo"), None, None)]),
            pairs(&[("", "name-length-limit: 5")])
        );
    }
}
