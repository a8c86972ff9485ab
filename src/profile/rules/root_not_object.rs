//! `root-not-object`: the parameters schema is not an object schema.

use super::*;

pub const RULE: Rule = Rule {
    id: "root-not-object",
    checks: "The root of the parameters schema is not an object schema: a `type` other than \
             `object`, no `type`, `{}`, a root `enum` or `const`, or not a JSON object at all.",
    features: "`root-shape: <type>`, `root-shape: no-type`, `root-shape: empty`, `root-shape: enum`, `root-shape: const`, `root-shape: not-a-schema`",
    example: r#"{"type": "string", "description": "The query."}"#,
    fix: "Make the root {\"type\":\"object\",\"properties\":{...}} and move a scalar argument into a named property.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        ..Hooks::NONE
    },
};

const SHAPES: &[&str] = &[
    value::ROOT_EMPTY,
    value::ROOT_NO_TYPE,
    value::ROOT_NOT_A_SCHEMA,
    "enum",
    "const",
    "string",
    "number",
    "integer",
    "boolean",
    "array",
    "null",
];

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::RootShape, SHAPES)
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if !n.is_root() {
        return;
    }
    let at = At::Node(n.frame);
    let Some(map) = n.map else {
        let kind = json_kind(n.value);
        cx.feature(
            at,
            Feat::RootShape(value::ROOT_NOT_A_SCHEMA),
            Placement::Root,
            || format!("the parameters schema is a JSON {kind}, not a schema object"),
        );
        return;
    };
    if map.is_empty() {
        cx.feature(
            at,
            Feat::RootShape(value::ROOT_EMPTY),
            Placement::Root,
            || "the parameters schema is `{}` (any value), not an object schema".into(),
        );
        return;
    }
    for (key, shape) in [("enum", "enum"), ("const", "const")] {
        if map.contains_key(key) {
            cx.feature(
                At::Key(n.frame, key),
                Feat::RootShape(shape),
                Placement::Root,
                || format!("the parameters schema is constrained by a root `{key}`"),
            );
        }
    }
    match n.ty {
        Ty::Absent if !(n.any_of.is_some() || n.one_of || n.all_of || n.not) => cx.feature(
            at,
            Feat::RootShape(value::ROOT_NO_TYPE),
            Placement::Root,
            || "the parameters schema has no `type` (it must be `\"object\"`)".into(),
        ),
        Ty::One(t) => {
            if let Some(std) = standard_type(t).filter(|s| *s != "object") {
                cx.feature(
                    At::Key(n.frame, "type"),
                    Feat::RootShape(std),
                    Placement::Root,
                    || format!("the parameters schema has `type: \"{t}\"`, not `\"object\"`"),
                );
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn root_shapes() {
        let r = "root-not-object";
        assert_eq!(
            seen(r, json!({"type":"string"})),
            pairs(&[("/type", "root-shape: string")])
        );
        assert_eq!(
            seen(r, json!({"type":"ARRAY","items":{}})),
            pairs(&[("/type", "root-shape: array")])
        );
        assert_eq!(seen(r, json!({})), pairs(&[("", "root-shape: empty")]));
        assert_eq!(
            seen(r, json!({"properties":{"a":{"type":"string"}}})),
            pairs(&[("", "root-shape: no-type")])
        );
        assert_eq!(
            seen(r, json!(null)),
            pairs(&[("", "root-shape: not-a-schema")])
        );
        assert_eq!(
            seen(r, json!({"enum":["a"]})),
            pairs(&[("/enum", "root-shape: enum"), ("", "root-shape: no-type")])
        );
        // Objects, non-standard spellings (type-invalid's) and combinator roots
        // (root-combinator's) are not this rule's.
        assert!(seen(r, json!({"type":"object","properties":{}})).is_empty());
        assert!(seen(r, json!({"type":"dict","properties":{}})).is_empty());
        assert!(seen(r, json!({"anyOf":[{"type":"object"}]})).is_empty());
        // Nested schemas are never roots.
        assert!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"type":"string"}}})
            )
            .is_empty()
        );
    }
}
