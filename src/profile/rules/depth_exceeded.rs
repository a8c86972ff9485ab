//! `depth-exceeded`: object schemas nested deeper than the profile allows.

use super::*;

pub const RULE: Rule = Rule {
    id: "depth-exceeded",
    checks: "The number of object schemas on the deepest path, the root object counted as 1, \
             reaches a `depth-limit` case the profile does not allow.",
    features: "`depth-limit: N`",
    example: r#"{"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "string"}}}}}}}"#,
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
    super::super::detect::report_limit(
        cx,
        At::Node(s.deepest_frame),
        Limit::Depth,
        s.max_object_depth as usize,
        Placement::Nested,
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
}
