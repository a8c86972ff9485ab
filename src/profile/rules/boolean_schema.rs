//! `boolean-schema`: `true` or `false` used as a subschema.

use super::*;

pub const RULE: Rule = Rule {
    id: "boolean-schema",
    checks: "A property, branch, definition or tuple element is the boolean schema `true` \
             (anything) or `false` (nothing). `items` and `additionalProperties` booleans are \
             judged by their own keyword forms.",
    features: "`structure: property-schema-true`, `structure: property-schema-false`",
    example: r#"{"type": "object", "properties": {"payload": true}}"#,
    example_target: None,
    fix: "Replace `true` with a typed schema (e.g. {\"type\": \"object\"}); remove properties whose schema is `false`.",
    repair: "partly: a `true` branch of `anyOf`/`oneOf`/`allOf` is written `{}`, the same schema, which then meets the repairs `{}` meets (the `type` of the schema holding the keyword, the keywords beside an `anyOf` moved in, an `allOf` merged); elsewhere no",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::NOT_OBJECT,
        ..Hooks::NONE
    },
};

/// What repair does with a `true` branch of `anyOf`/`oneOf`/`allOf`: writes it `{}`, the same
/// schema (`crate::repair::fixes::shapes::true_branch`), which is then repaired as `{}` is.
/// So the branch is repairable where the profile takes `{}` there, or where `type-missing`
/// would mark that `{}` repairable (the holder's `type`, siblings moved in, a merge of the
/// `allOf`). A `true` anywhere else and `false` are never rewritten.
fn repairable(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    if *f != Feat::Structure(value::BOOLEAN_SCHEMA_TRUE)
        || crate::repair::branch_place(&(r.node_pointer)()).is_none()
    {
        return false;
    }
    !matches!(
        r.profile.lookup(&Feat::TypeMissing, r.placement),
        Slot::Rejected(_)
    ) || (super::type_missing::RULE.repairable)(&Feat::TypeMissing, r)
}

fn owns(p: &Param) -> bool {
    keyed_in(
        p,
        Kind::Structure,
        &[value::BOOLEAN_SCHEMA_TRUE, value::BOOLEAN_SCHEMA_FALSE],
    )
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(b) = n.value.as_bool() else { return };
    if matches!(n.via, Via::Root | Via::Items) {
        return;
    }
    let feat = Feat::Structure(if b {
        value::BOOLEAN_SCHEMA_TRUE
    } else {
        value::BOOLEAN_SCHEMA_FALSE
    });
    cx.feature(At::Node(n.frame), feat, n.placement, || {
        format!("the boolean schema `{b}`")
    });
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn boolean_subschemas() {
        let r = "boolean-schema";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"a":true,"b":false,"c":{"type":"array","items":true}},"additionalProperties":false})
            ),
            pairs(&[
                ("/properties/a", "structure: property-schema-true"),
                ("/properties/b", "structure: property-schema-false"),
            ])
        );
    }
}
