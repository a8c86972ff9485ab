//! `ref-remote`: a `$ref` to another document.

use super::*;

pub const RULE: Rule = Rule {
    id: "ref-remote",
    checks: "A `$ref` that does not start with `#` (a URL or a relative file): the target would \
             have to fetch it.",
    features: "`keyword-allowed: $ref (remote)`",
    example: r#"{"type": "object", "properties": {"address": {"$ref": "https://example.com/schemas/address.json"}}}"#,
    example_target: None,
    fix: "Copy the referenced schema into the tool's schema.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::REF,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyword_form_of(p, "$ref").is_some_and(|f| f == value::REF_REMOTE)
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if let Some(serde_json::Value::String(r)) = n.reference
        && let here = cx.pointer(At::Node(n.frame))
        && cx.root().is_some_and(|root| {
            crate::schema::refs::step_from(root, &here, r) == crate::schema::refs::Step::Remote
        })
    {
        cx.feature(
            At::Key(n.frame, "$ref"),
            Feat::KeywordForm("$ref", value::REF_REMOTE),
            n.placement,
            || format!("`$ref` to another document (`{r}`)"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn remote_references() {
        let r = "ref-remote";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"$ref":"https://x.org/s.json"},"b":{"$ref":"#/x"}}})
            ),
            pairs(&[("/properties/a/$ref", "keyword-allowed: $ref (remote)")])
        );
    }
}
