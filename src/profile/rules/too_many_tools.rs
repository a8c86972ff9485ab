//! `too-many-tools`: more tools in one request than the profile allows.

use super::*;

pub const RULE: Rule = Rule {
    id: "too-many-tools",
    checks: "The number of tools (function declarations) in one request reaches a \
             `tool-count-limit` case the profile does not allow. Each JSON Lines line is its \
             own request unless `--one-request` is given.",
    features: "`tool-count-limit: N`",
    example: r#"[{"name": "tool_0", "parameters": {"type": "object", "properties": {}}}, "... 512 more tools"]"#,
    example_target: None,
    fix: "Send fewer tools per request: select the tools relevant to the task, or group related operations into one tool with an `action` argument.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        request: Some(request),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(p, Param::Limit(Limit::ToolCount, _))
}

/// Counts the function tools only: no evidence says how a provider counts built-in tools
/// against its limit.
fn request<'a>(cx: &mut Cx<'a, '_>, tools: &[ToolRef<'a>], _builtins: &[BuiltinTool]) {
    if tools.len() > 1 {
        super::super::detect::report_limit(
            cx,
            At::Tool,
            Limit::ToolCount,
            tools.len(),
            Placement::Request,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn counts_the_request() {
        let t = (Some("f"), Some("d"), None);
        assert_eq!(
            seen_tools("too-many-tools", &[t.clone(), t.clone(), t]),
            pairs(&[("", "tool-count-limit: 3")])
        );
        assert!(seen_tools("too-many-tools", &[(Some("f"), None, None)]).is_empty());
    }
}
