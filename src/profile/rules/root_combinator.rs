//! `root-combinator`: `anyOf`, `oneOf`, `allOf` or `not` at the root of the parameters schema.

use super::*;

pub const RULE: Rule = Rule {
    id: "root-combinator",
    checks: "The root of the parameters schema uses `anyOf`, `oneOf`, `allOf` or `not`.",
    features: "`root-shape: anyOf`, `root-shape: oneOf`, `root-shape: allOf`, `root-shape: not`",
    example: r#"{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}"#,
    fix: "Make the root a plain object: merge the branches' properties into one `properties` map, make the alternatives optional, and state the either/or rule in the description.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        ..Hooks::NONE
    },
};

const COMBINATORS: &[&str] = &["anyOf", "oneOf", "allOf", "not"];

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::RootShape, COMBINATORS)
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let (true, Some(map)) = (n.is_root(), n.map) else {
        return;
    };
    for kw in COMBINATORS {
        if map.contains_key(*kw) {
            cx.feature(
                At::Key(n.frame, kw),
                Feat::RootShape(kw),
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
            pairs(&[("/oneOf", "root-shape: oneOf"), ("/not", "root-shape: not")])
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
