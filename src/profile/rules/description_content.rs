//! `description-content`: a tool description with non-ASCII text or several lines.

use super::*;

pub const RULE: Rule = Rule {
    id: "description-content",
    checks: "The tool description contains characters outside ASCII (accents, CJK, emoji, ...) \
             or line breaks, each judged by its `description` case.",
    features: "`description: non-ascii`, `description: multiline`",
    example: r#"{"name": "bing_search", "description": "使用必应搜索指定的关键词", "parameters": {"type": "object", "properties": {}}}"#,
    example_target: None,
    fix: "Keep the description if the targets you send to accept it; otherwise give an ASCII, one-paragraph description.",
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
    let Some(d) = t.description else { return };
    if !d.is_ascii() {
        cx.feature(
            At::Tool,
            Feat::Description(value::DESC_NON_ASCII),
            Placement::Tool,
            || "the tool description has non-ASCII characters".into(),
        );
    }
    // Trimmed only where some line ends: most descriptions are one line.
    if d.contains('\n') && d.trim().contains('\n') {
        cx.feature(
            At::Tool,
            Feat::Description(value::DESC_MULTILINE),
            Placement::Tool,
            || "the tool description has several lines".into(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn non_ascii_and_lines() {
        let r = "description-content";
        assert_eq!(
            seen_tools(r, &[(Some("f"), Some("Café\nau lait"), None)]),
            pairs(&[
                ("", "description: non-ascii"),
                ("", "description: multiline")
            ])
        );
        assert!(seen_tools(r, &[(Some("f"), Some("Cafe.\n"), None)]).is_empty());
    }
}
