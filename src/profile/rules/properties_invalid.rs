//! `properties-invalid`: `properties` is not a map of schemas.

use super::*;

pub const RULE: Rule = Rule {
    id: "properties-invalid",
    checks: "`properties` is not a JSON object (e.g. `null`, or `[]` from a serializer that \
             writes empty maps as lists).",
    features: "`structure: properties-list`, `structure: properties-null`, `structure: properties-not-object`",
    example: r#"{"type": "object", "properties": []}"#,
    fix: "Write `properties` as an object mapping names to schemas (`{}` when there are none).",
    repair: "partly: `null` is written `{}`",
    repairable: null_only,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::PROPERTIES,
        ..Hooks::NONE
    },
};

/// `null` declares no property, as `{}` does; a list or a scalar says nothing repair could
/// read as a map without guessing. At the root, `{}` leaves a tool that takes no arguments,
/// which repair keeps only where the profile has a form for that
/// ([`Repairing::can_take_no_arguments`]).
fn null_only(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    matches!(f, Feat::Structure(s) if *s == value::PROPERTIES_NULL)
        && (!r.at_root() || r.can_take_no_arguments())
}

fn owns(p: &Param) -> bool {
    keyed_in(
        p,
        Kind::Structure,
        &[
            value::PROPERTIES_LIST,
            value::PROPERTIES_NULL,
            value::PROPERTIES_NOT_OBJECT,
        ],
    )
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if let Some(p) = n.properties
        && !p.is_object()
    {
        let kind = json_kind(p);
        cx.feature(
            At::Key(n.frame, "properties"),
            Feat::Structure(match p {
                serde_json::Value::Array(_) => value::PROPERTIES_LIST,
                serde_json::Value::Null => value::PROPERTIES_NULL,
                _ => value::PROPERTIES_NOT_OBJECT,
            }),
            n.placement,
            || format!("`properties` is a JSON {kind}, not an object"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn properties_must_be_a_map() {
        let r = "properties-invalid";
        assert_eq!(
            seen(r, json!({"type":"object","properties":null})),
            pairs(&[("/properties", "structure: properties-null")])
        );
        assert_eq!(
            seen(r, json!({"type":"object","properties":[]})),
            pairs(&[("/properties", "structure: properties-list")])
        );
        assert!(seen(r, json!({"type":"object","properties":{}})).is_empty());
    }
}
