//! `enum-invalid`: an `enum` that is empty or not a list.

use super::*;

pub const RULE: Rule = Rule {
    id: "enum-invalid",
    checks: "An `enum` is empty (no value is valid) or is not a list.",
    features: "`keyword-allowed: enum (empty)`, `keyword-allowed: enum (not an array)`",
    example: r#"{"type": "object", "properties": {"query": {"type": "string", "enum": []}}}"#,
    example_target: Some("vertex/v1/parameters"),
    fix: "List the allowed values, or remove `enum`.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::ENUM,
        ..Hooks::NONE
    },
};

const FORMS: &[&str] = &[value::ENUM_EMPTY, value::ENUM_NOT_ARRAY];

fn owns(p: &Param) -> bool {
    keyword_form_of(p, "enum").is_some_and(|f| FORMS.contains(&f.as_str()))
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(e) = n.enum_ else { return };
    if let Some(f) = super::enum_not_string::form(e).filter(|f| FORMS.contains(f)) {
        cx.feature(
            At::Key(n.frame, "enum"),
            Feat::KeywordForm("enum", f),
            n.placement,
            || {
                if f == value::ENUM_EMPTY {
                    "an empty `enum` (no value is valid)".into()
                } else {
                    format!("`enum` is a JSON {}, not a list", json_kind(e))
                }
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn empty_or_not_a_list() {
        let r = "enum-invalid";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"type":"string","enum":[]},"b":{"type":"string","enum":"x"},"c":{"type":"string","enum":["x"]}}})
            ),
            pairs(&[
                ("/properties/a/enum", "keyword-allowed: enum (empty)"),
                ("/properties/b/enum", "keyword-allowed: enum (not an array)"),
            ])
        );
    }
}
