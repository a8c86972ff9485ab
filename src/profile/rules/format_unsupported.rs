//! `format-unsupported`: a `format` the profile does not allow.

use super::*;

pub const RULE: Rule = Rule {
    id: "format-unsupported",
    checks: "A string `format` value (`uri`, `email`, `date-time`, a custom one, ...), judged \
             by the `format-allowed` case for that exact value.",
    features: "`format-allowed: <format>`",
    example: r#"{"type": "object", "properties": {"url": {"type": "string", "format": "uri"}}}"#,
    fix: "Remove `format` and say it in the description (for `uri`: \"a URL\"), or use a format the profile allows.",
    repair: "yes",
    repairable: always,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::FORMAT,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::Format, _))
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if let Some(serde_json::Value::String(f)) = n.format {
        cx.feature(
            At::Key(n.frame, "format"),
            Feat::Format(f),
            n.placement,
            || format!("`format: \"{f}\"`"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn formats_by_value() {
        let r = "format-unsupported";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"u":{"type":"string","format":"uri"}}})
            ),
            pairs(&[("/properties/u/format", "format-allowed: uri")])
        );
    }
}
