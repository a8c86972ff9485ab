//! `depth-exceeded`: object schemas nested deeper than the profile allows.
//!
//! The depth is [`crate::schema::depth::nesting`]'s, the measure the offline models of
//! `compile` use too: object schemas on the deepest path (arrays and combinators are steps,
//! not levels), through local `$ref`s, a recursive definition counted once.

use super::*;

pub const RULE: Rule = Rule {
    id: "depth-exceeded",
    checks: "The number of object schemas on the deepest path, the root object counted as 1, \
             reaches a `depth-limit` case the profile does not allow. Arrays and combinators on \
             the path are not levels; a local `$ref` is followed into its definition (a \
             recursive one counted once through the cycle).",
    features: "`depth-limit: N`",
    example: r#"{"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "object", "properties": {"d": {"type": "string"}}}}}}}}}"#,
    example_target: Some("gemini/v1beta/parameters-json-schema"),
    fix: "Flatten the schema: lift nested objects into top-level properties or accept a JSON string for the deep part.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        after: Some(after),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(p, Param::Limit(Limit::Depth, _))
}

fn after<'a>(cx: &mut Cx<'a, '_>, _t: &ToolRef<'a>, s: &Stats) {
    // Without references the walk's count is the shared measure; with them (or definitions,
    // which the walk counts where they are written rather than where they are used) the
    // shared measure is taken apart from the walk.
    let Some(root) = cx.root().filter(|_| s.refers) else {
        super::super::detect::report_limit(
            cx,
            At::Node(s.deepest_frame),
            Limit::Depth,
            s.max_object_depth as usize,
            Placement::Nested,
        );
        return;
    };
    let n = crate::schema::depth::nesting(root);
    if n.levels == 0 {
        return;
    }
    let value = n.levels;
    cx.feature(
        At::Pointer(&n.pointer),
        Feat::Limit(Limit::Depth, value),
        Placement::Nested,
        || {
            let mut m = format!("{value} {}", Limit::Depth.unit());
            match (n.through_ref, n.recursive) {
                (true, false) => m.push_str(", counted through `$ref`s"),
                (true, true) => m.push_str(
                    ", counted through `$ref`s (a recursive definition counted once through its cycle)",
                ),
                (false, true) => m.push_str(" (a recursive definition counted once through its cycle)"),
                (false, false) => {}
            }
            m
        },
    );
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn deepest_object_path() {
        let s = json!({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"array","items":{"type":"object","properties":{}}}}}}});
        assert_eq!(
            seen("depth-exceeded", s),
            pairs(&[("/properties/a/properties/b/items", "depth-limit: 3")])
        );
    }

    /// The one branch of an `allOf` in an object is that object, inline as through a `$ref`
    /// (trial 50 D8: 9 inline links read as 19 levels; `schema::depth` counts the `$ref` form).
    #[test]
    fn a_one_branch_all_of_in_an_object_is_no_level_of_its_own() {
        let mut s = json!({"type":"string"});
        for _ in 0..3 {
            s = json!({"type":"object","properties":{"z":{"type":"string"}},
                "allOf":[{"properties":{"c":s},"required":["c"]}]});
        }
        assert_eq!(
            seen("depth-exceeded", s.clone()),
            pairs(&[(
                "/allOf/0/properties/c/allOf/0/properties/c",
                "depth-limit: 3"
            )])
        );
        // Two branches stay levels of their own, as before.
        let two = json!({"type":"object","allOf":[{"type":"object"},
            {"properties":{"c":{"type":"object"}}}]});
        assert_eq!(
            seen("depth-exceeded", two),
            pairs(&[("/allOf/1/properties/c", "depth-limit: 3")])
        );
    }

    #[test]
    fn depth_follows_references_into_definitions() {
        // 16 definitions below the root object: 17 levels, at the last definition.
        assert_eq!(
            seen("depth-exceeded", crate::schema::depth::fixtures::chain(16)),
            pairs(&[("/$defs/D15", "depth-limit: 17")])
        );
    }

    #[test]
    fn unused_definitions_add_no_depth_and_arrays_are_not_levels() {
        let s = json!({"type":"object","properties":{"a":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"string"}}}}},"$defs":{"X":{"type":"object","properties":{"y":{"type":"object"}}}}});
        assert_eq!(seen("depth-exceeded", s), pairs(&[("", "depth-limit: 1")]));
    }

    #[test]
    fn a_recursive_definition_is_counted_once() {
        let s = json!({"$defs":{"Node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}},"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}}});
        assert_eq!(
            seen("depth-exceeded", s),
            pairs(&[("/$defs/Node", "depth-limit: 2")])
        );
    }
}
