//! `root-combinator`: `anyOf`, `oneOf`, `allOf` or `not` at the root of the parameters schema.

use super::*;

pub const RULE: Rule = Rule {
    id: "root-combinator",
    checks: "The root of the parameters schema uses `anyOf`, `oneOf` or `allOf` (judged \
             separately with and without a root `type`) or `not`.",
    features: "`root-shape: anyOf`, `anyOf-with-type`, `oneOf`, `oneOf-with-type`, `allOf`, `allOf-with-type`, `not`",
    example: r#"{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}"#,
    fix: "Make the root a plain object: merge the branches' properties into one `properties` map, make the alternatives optional, and state the either/or rule in the description.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::ROOT,
        ..Hooks::NONE
    },
};

const SHAPES: &[&str] = &[
    "anyOf",
    "anyOf-with-type",
    "oneOf",
    "oneOf-with-type",
    "allOf",
    "allOf-with-type",
    "not",
];

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::RootShape, SHAPES)
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if !n.is_root() || n.map.is_none() {
        return;
    }
    let typed = !matches!(n.ty, Ty::Absent);
    // The walk has read which combinators are present (no lookup per keyword).
    for (present, kw, bare, with_type) in [
        (n.any_of.is_some(), "anyOf", "anyOf", "anyOf-with-type"),
        (n.one_of, "oneOf", "oneOf", "oneOf-with-type"),
        (n.all_of, "allOf", "allOf", "allOf-with-type"),
        (n.not, "not", "not", "not"),
    ] {
        if present {
            let shape = if typed { with_type } else { bare };
            cx.feature(
                At::Key(n.frame, kw),
                Feat::RootShape(shape),
                Placement::Root,
                || format!("`{kw}` at the root of the parameters schema"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn only_at_the_root() {
        let r = "root-combinator";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","oneOf":[{"required":["a"]}],"not":{"required":["b"]}})
            ),
            pairs(&[
                ("/oneOf", "root-shape: oneOf-with-type"),
                ("/not", "root-shape: not")
            ])
        );
        assert_eq!(
            seen(r, json!({"anyOf":[{"type":"object"}]})),
            pairs(&[("/anyOf", "root-shape: anyOf")])
        );
        assert!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"anyOf":[{"type":"string"}]}}})
            )
            .is_empty()
        );
    }
}
