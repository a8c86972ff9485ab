//! `description-non-ascii`: a tool description with characters outside ASCII.

use super::*;

pub const RULE: Rule = Rule {
    id: "description-non-ascii",
    checks: "The tool description contains characters outside ASCII (accents, CJK, emoji, ...).",
    features: "`description: non-ascii`",
    example: r#"{"name": "bing_search", "description": "使用必应搜索指定的关键词", "parameters": {"type": "object", "properties": {}}}"#,
    fix: "Keep the description if the targets you send to accept it; otherwise provide an ASCII (e.g. English) description.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        tool: Some(tool),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::Description, v) if !matches!(v.as_str(), value::DESC_MISSING | value::DESC_EMPTY | value::DESC_WHITESPACE))
}

fn tool<'a>(cx: &mut Cx<'a, '_>, t: &ToolRef<'a>) {
    if let Some(d) = t.description
        && !d.is_ascii()
    {
        cx.feature(
            At::Tool,
            Feat::Description(value::DESC_NON_ASCII),
            Placement::Tool,
            || "the tool description has non-ASCII characters".into(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn non_ascii_text() {
        let r = "description-non-ascii";
        assert_eq!(
            seen_tools(r, &[(Some("f"), Some("Café"), None)]),
            pairs(&[("", "description: non-ascii")])
        );
        assert!(seen_tools(r, &[(Some("f"), Some("Cafe"), None)]).is_empty());
    }
}
