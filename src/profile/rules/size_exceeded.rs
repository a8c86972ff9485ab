//! `size-exceeded`: an enum, a property count or a schema larger than the profile allows.

use super::*;

pub const RULE: Rule = Rule {
    id: "size-exceeded",
    checks: "The largest `enum`, the number of properties declared in the whole schema, or the \
             schema's size in bytes (compact JSON) reaches a case the profile does not allow.",
    features: "`enum-size-limit: N`, `property-count-limit: N`, `schema-bytes-limit: N`",
    example: r#"{"type": "object", "properties": {"country": {"type": "string", "enum": ["AD", "AE", "AF", "... 1,001 values"]}}}"#,
    fix: "Shrink it: move long enums into the description or a lookup tool, split the tool, drop verbose descriptions.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        after: Some(after),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(
        p,
        Param::Limit(
            Limit::EnumSize | Limit::PropertyCount | Limit::SchemaBytes,
            _
        )
    )
}

fn after<'a>(cx: &mut Cx<'a, '_>, t: &ToolRef<'a>, s: &Stats) {
    use super::super::detect::report_limit;
    report_limit(
        cx,
        At::Key(s.max_enum_frame, "enum"),
        Limit::EnumSize,
        s.max_enum,
        Placement::Nested,
    );
    report_limit(
        cx,
        At::Node(0),
        Limit::PropertyCount,
        s.property_count,
        Placement::Root,
    );
    if let Some(root) = t.parameters
        && !s.truncated
        && let Some(bytes) = s.compact_bytes_exact(root, cx.limit_floor(Limit::SchemaBytes))
    {
        report_limit(cx, At::Node(0), Limit::SchemaBytes, bytes, Placement::Root);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn sizes_are_measured() {
        let s = json!({"type":"object","properties":{"a":{"type":"string","enum":["x","y","z"]},"b":{"type":"object","properties":{"c":{"type":"string"}}}}});
        let bytes = serde_json::to_string(&s).unwrap().len();
        assert_eq!(
            seen("size-exceeded", s),
            pairs(&[
                ("/properties/a/enum", "enum-size-limit: 3"),
                ("", "property-count-limit: 3"),
                ("", &format!("schema-bytes-limit: {bytes}")),
            ])
        );
    }
}
