//! `property-named-keyword`: a property whose name is also a JSON Schema keyword.

use super::*;

pub const RULE: Rule = Rule {
    id: "property-named-keyword",
    checks: "A property is named like a keyword (`type`, `default`, `description`, `enum`, \
             `format`, `items`, `properties`, `required`, `$ref`). It is a name, never a \
             keyword, but converters and front ends that confuse the two break on it.",
    features: "`structure: property-named-<keyword>` (`$ref` is `property-named-ref`)",
    example: r#"{"type": "object", "properties": {"type": {"type": "string", "enum": ["bug", "feature"]}}}"#,
    example_target: None,
    fix: "Rename the property (e.g. `kind` for `type`) if a target of your profile mishandles it.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::PROPERTIES,
        ..Hooks::NONE
    },
};

/// The case for a property named `name`, if the catalog has one.
fn case_for(name: &str) -> Option<&'static str> {
    Some(match name {
        "type" => "property-named-type",
        "default" => "property-named-default",
        "description" => "property-named-description",
        "enum" => "property-named-enum",
        "format" => "property-named-format",
        "items" => "property-named-items",
        "properties" => "property-named-properties",
        "required" => "property-named-required",
        "$ref" => "property-named-ref",
        _ => return None,
    })
}

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::Structure, v) if v.starts_with(value::PROPERTY_NAMED))
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(serde_json::Value::Object(props)) = n.properties else {
        return;
    };
    let placement = n.members_placement();
    // One pass over the names, in document order (no lookup per keyword).
    for name in props.keys() {
        if let Some(feature) = case_for(name) {
            cx.feature(
                At::Member(n.frame, "properties", name),
                Feat::Structure(feature),
                placement,
                || format!("a property named `{name}`"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn names_like_keywords() {
        let r = "property-named-keyword";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"type":{"type":"string"},"$ref":{"type":"string"},"kind":{"type":"string"}}})
            ),
            pairs(&[
                ("/properties/type", "structure: property-named-type"),
                ("/properties/$ref", "structure: property-named-ref"),
            ])
        );
    }
}
