//! `root-combinator`: `anyOf`, `oneOf`, `allOf` or `not` at the root of the parameters schema.

use super::*;

pub const RULE: Rule = Rule {
    id: "root-combinator",
    checks: "The root of the parameters schema uses `anyOf`, `oneOf` or `allOf` (judged \
             separately with and without a root `type`) or `not`.",
    features: "`root-shape: anyOf`, `anyOf-with-type`, `oneOf`, `oneOf-with-type`, `allOf`, `allOf-with-type`, `not`",
    example: r#"{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}"#,
    example_target: None,
    fix: "Make the root a plain object: merge the branches' properties into one `properties` map, make the alternatives optional, and state the either/or rule in the description.",
    repair: "partly: an `allOf` is merged into the root where one schema says what it and every branch say (`properties` naming other members pooled, `required` united, bounds and types written as their conjunction), as `keyword-unsupported` merges one below the root; `anyOf`, `oneOf`, `not` and other `allOf` cannot be",
    repairable,
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

/// An `allOf` repair merges into the root ([`crate::repair::all_of_repairable`]); the other
/// combinators say what a plain object cannot.
fn repairable(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    matches!(f, Feat::RootShape("allOf" | "allOf-with-type"))
        && r.root_refs()
            .is_some_and(|(root, refs)| crate::repair::all_of_repairable(root, "", refs))
}

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::RootShape, SHAPES)
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(map) = n.map.filter(|_| n.is_root()) else {
        return;
    };
    let typed = !matches!(n.ty, Ty::Absent);
    // A combinator whose value is no list of schemas (`anyOf: []`) is keyword-value-invalid's:
    // the value is the problem, whatever the profile says of combinators at the root.
    let listed = |kw: &str| {
        map.get(kw)
            .is_some_and(|v| super::keyword_value_invalid::form(kw, v).is_none())
    };
    // The walk has read which combinators are present (no lookup per keyword).
    for (present, kw, bare, with_type) in [
        (n.any_of.is_some(), "anyOf", "anyOf", "anyOf-with-type"),
        (n.one_of, "oneOf", "oneOf", "oneOf-with-type"),
        (n.all_of, "allOf", "allOf", "allOf-with-type"),
        (n.not, "not", "not", "not"),
    ] {
        if present && (kw == "not" || listed(kw)) {
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
