//! `items-on-non-array`: `items` on a schema whose `type` is not `array`.

use super::*;

pub const RULE: Rule = Rule {
    id: "items-on-non-array",
    checks: "`items` appears on a schema whose `type` is given and does not include `array`.",
    features: "`structure: items-on-non-array`",
    example: r#"{"type": "object", "properties": {"name": {"type": "string", "items": {"type": "string"}}}}"#,
    example_target: None,
    fix: "Remove `items`, or make the schema an array.",
    repair: "yes",
    repairable: always,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::ITEMS,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::Structure, &[value::ITEMS_ON_NON_ARRAY])
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let present = n.items.is_some();
    keyword_on_other_type(
        cx,
        n,
        "items",
        present,
        "array",
        "an array",
        value::ITEMS_ON_NON_ARRAY,
    );
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn items_on_a_string() {
        let r = "items-on-non-array";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"type":"string","items":{}},"b":{"items":{}},"c":{"type":["array","null"],"items":{}}}})
            ),
            pairs(&[("/properties/a/items", "structure: items-on-non-array")])
        );
    }
}
