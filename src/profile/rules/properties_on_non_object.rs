//! `properties-on-non-object`: `properties` on a schema whose `type` is not `object`.

use super::*;

pub const RULE: Rule = Rule {
    id: "properties-on-non-object",
    checks: "`properties` appears on a schema whose `type` is given and does not include `object`.",
    features: "`structure: properties-on-non-object`",
    example: r#"{"type": "object", "properties": {"data": {"type": "string", "properties": {"x": {"type": "string"}}}}}"#,
    example_target: None,
    fix: "Remove `properties` (and `required`) from the non-object schema, or make it an object.",
    repair: "yes",
    repairable: always,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::PROPERTIES,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::Structure, &[value::PROPERTIES_ON_NON_OBJECT])
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let present = n.properties.is_some();
    keyword_on_other_type(
        cx,
        n,
        "properties",
        present,
        "object",
        "an object",
        value::PROPERTIES_ON_NON_OBJECT,
    );
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn properties_on_a_string() {
        let r = "properties-on-non-object";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"type":"string","properties":{}},"b":{"type":["object","null"],"properties":{}}}})
            ),
            pairs(&[(
                "/properties/a/properties",
                "structure: properties-on-non-object"
            )])
        );
    }
}
