//! `size-exceeded`: an enum, a property count (in one schema or across a request's tools) or a
//! schema larger than the profile allows.

use super::*;

pub const RULE: Rule = Rule {
    id: "size-exceeded",
    checks: "The largest `enum`, the number of properties declared in the whole schema (or \
             across the schemas of all the tools of one request, when it has several), or the \
             schema's size in bytes (compact JSON) reaches a case the profile does not allow.",
    features: "`enum-size-limit: N`, `property-count-limit: N`, \
               `request-property-count-limit: N`, `schema-bytes-limit: N`",
    example: r#"{"type": "object", "properties": {"country": {"type": "string", "enum": ["AD", "AE", "AF", "... 1,001 values"]}}}"#,
    fix: "Shrink it: move long enums into the description or a lookup tool, split the tool, \
          drop verbose descriptions; for properties counted across a request's tools, send \
          fewer tools per request.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        after: Some(after),
        request_after: Some(request_after),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(
        p,
        Param::Limit(
            Limit::EnumSize
                | Limit::PropertyCount
                | Limit::RequestPropertyCount
                | Limit::SchemaBytes,
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

/// A request of one tool is judged by `property-count-limit` alone: its count is that tool's.
/// A count below the profile's smallest case is allowed whatever it is (most requests).
fn request_after<'a>(cx: &mut Cx<'a, '_>, tools: &[ToolRef<'a>], s: &RequestStats) {
    if tools.len() > 1 && s.property_count >= cx.limit_floor(Limit::RequestPropertyCount) {
        super::super::detect::report_limit(
            cx,
            At::Tool,
            Limit::RequestPropertyCount,
            s.property_count,
            Placement::Request,
        );
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

    /// Cohere's 200 fields are "across all tools": a request is measured as the sum of its
    /// tools' counts, nested properties included; one tool is measured by its own count only.
    #[test]
    fn properties_are_counted_across_the_request() {
        let props = |n: usize| {
            let p: serde_json::Map<String, serde_json::Value> = (0..n)
                .map(|i| (format!("p{i}"), json!({"type": "string"})))
                .collect();
            json!({"type": "object", "properties": p})
        };
        let nested = json!({"type": "object", "properties": {"o": props(2)}});
        let request = seen_tools(
            "size-exceeded",
            &[
                (Some("a"), Some("d"), Some(props(150))),
                (Some("b"), Some("d"), Some(nested)),
                (Some("c"), Some("d"), None),
            ],
        );
        assert!(
            request.contains(&("".into(), "request-property-count-limit: 153".into())),
            "{request:?}"
        );
        let alone = seen_tools("size-exceeded", &[(Some("a"), Some("d"), Some(props(150)))]);
        assert!(
            alone.iter().all(|(_, f)| !f.starts_with("request-")),
            "{alone:?}"
        );
    }
}
