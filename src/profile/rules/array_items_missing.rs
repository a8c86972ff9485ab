//! `array-items-missing`: an array schema without `items`.

use super::*;

pub const RULE: Rule = Rule {
    id: "array-items-missing",
    checks: "A schema whose `type` is (or includes) `array` has neither `items` nor `prefixItems`.",
    features: "`structure: array-without-items`",
    example: r#"{"type": "object", "properties": {"tags": {"type": "array"}}}"#,
    example_target: None,
    fix: "Say what the array holds, e.g. \"items\": {\"type\": \"string\"}.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::ARRAY_TYPE,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::Structure, &[value::ARRAY_WITHOUT_ITEMS])
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if n.names(ty_bit::ARRAY) && n.items.is_none() && !n.prefix_items {
        cx.feature(
            At::Node(n.frame),
            Feat::Structure(value::ARRAY_WITHOUT_ITEMS),
            n.placement,
            || "an array schema without `items`".into(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn arrays_need_items() {
        let r = "array-items-missing";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"type":"array"},"b":{"type":["array","null"]},"c":{"type":"array","items":{"type":"string"}},"d":{"type":"array","prefixItems":[{"type":"string"}]}}})
            ),
            pairs(&[
                ("/properties/a", "structure: array-without-items"),
                ("/properties/b", "structure: array-without-items"),
            ])
        );
    }

    /// A spelling of `array` (`list`, `tuple`) without `items` stays an array without items
    /// once `repair` respells it, so check says so next to `type-invalid`.
    #[test]
    fn spellings_of_array_need_items_too() {
        assert_eq!(
            seen(
                "array-items-missing",
                json!({"type":"object","properties":{"a":{"type":"list"},"b":{"type":["TUPLE","null"]},"c":{"type":"list","items":{"type":"str"}},"d":{"type":"listing"}}})
            ),
            pairs(&[
                ("/properties/a", "structure: array-without-items"),
                ("/properties/b", "structure: array-without-items"),
            ])
        );
    }
}
