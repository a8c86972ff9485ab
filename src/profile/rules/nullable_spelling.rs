//! `nullable-spelling`: null spelled as OpenAPI `nullable`, or as an `anyOf` null branch.

use super::*;

pub const RULE: Rule = Rule {
    id: "nullable-spelling",
    checks: "A schema admits null through OpenAPI 3.0's `nullable` (`true`/`false`, or wrongly \
             a list of names), or through an `anyOf` branch `{\"type\": \"null\"}` (the \
             Optional pattern pydantic and zod emit).",
    features: "`keyword-allowed: nullable (true)`, `keyword-allowed: nullable (false)`, `keyword-allowed: nullable (array)`, `keyword-allowed: anyOf (null branch)`",
    example: r#"{"type": "object", "nullable": ["string"], "properties": {"limit": {"type": "integer"}}}"#,
    example_target: None,
    fix: "Leave the property out of `required` instead of admitting null; use the profile's spelling where null must really be sent.",
    repair: "partly: an `anyOf` null branch becomes the other branch made optional; `nullable` is dropped with the property made optional",
    repairable: always,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::NULLABLE | when::ANY_OF,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::Keyword, v) if v == "nullable")
        || keyword_form_of(p, "nullable").is_some()
        || keyword_form_of(p, "anyOf").is_some_and(|f| f == value::NULL_BRANCH)
}

/// Whether `anyOf` has a `{"type": "null"}` branch.
pub fn has_null_branch(n: &Node<'_>) -> bool {
    n.any_of
        .and_then(serde_json::Value::as_array)
        .is_some_and(|branches| {
            branches
                .iter()
                .any(|b| b.get("type").and_then(serde_json::Value::as_str) == Some("null"))
        })
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if let Some(v) = n.nullable {
        let form = match v {
            serde_json::Value::Bool(true) => value::BOOL_TRUE,
            serde_json::Value::Bool(false) => value::BOOL_FALSE,
            _ => value::NULLABLE_ARRAY,
        };
        cx.feature(
            At::Key(n.frame, "nullable"),
            Feat::KeywordForm("nullable", form),
            n.placement,
            || format!("OpenAPI `nullable: {}`", crate::report::Shown(v)),
        );
    }
    if !n.is_root() && has_null_branch(n) {
        cx.feature(
            At::Key(n.frame, "anyOf"),
            Feat::KeywordForm("anyOf", value::NULL_BRANCH),
            n.placement,
            || "`anyOf` with a `{\"type\": \"null\"}` branch".into(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn spellings_of_null() {
        let r = "nullable-spelling";
        let s = json!({"type":"object","nullable":["n"],"properties":{
            "a":{"type":"string","nullable":true},
            "b":{"anyOf":[{"type":"string"},{"type":"null"}]}}});
        assert_eq!(
            seen(r, s),
            pairs(&[
                ("/nullable", "keyword-allowed: nullable (array)"),
                ("/properties/a/nullable", "keyword-allowed: nullable (true)"),
                (
                    "/properties/b/anyOf",
                    "keyword-allowed: anyOf (null branch)"
                ),
            ])
        );
    }
}
