//! `schema-invalid`: a subschema that is neither an object nor a boolean.

use super::*;

pub const RULE: Rule = Rule {
    id: "schema-invalid",
    checks: "A property (or other subschema) is a string, number, list or null instead of a \
             schema object, e.g. the shorthand `\"x\": \"number\"`.",
    features: "`structure: property-schema-string`",
    example: r#"{"type": "object", "properties": {"x": "number"}}"#,
    example_target: None,
    fix: "Write the subschema as an object: \"x\": {\"type\": \"number\"}.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::NOT_OBJECT,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::Structure, &[value::SCHEMA_NOT_OBJECT])
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if n.is_root() || n.map.is_some() || n.value.is_boolean() {
        return;
    }
    // `items: [..]` and `items: "x"` are items-not-schema's.
    if matches!(n.via, Via::Items) {
        return;
    }
    let kind = json_kind(n.value);
    cx.feature(
        At::Node(n.frame),
        Feat::Structure(value::SCHEMA_NOT_OBJECT),
        n.placement,
        || format!("the schema is a JSON {kind}, not a schema object"),
    );
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn shorthand_subschemas() {
        let r = "schema-invalid";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"x":"number","y":{"anyOf":[null]},"z":true}})
            ),
            pairs(&[
                ("/properties/x", "structure: property-schema-string"),
                ("/properties/y/anyOf/0", "structure: property-schema-string"),
            ])
        );
    }
}
