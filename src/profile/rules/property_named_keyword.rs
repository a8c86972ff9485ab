//! `property-named-keyword`: a property whose name is also a JSON Schema keyword.

use super::*;

pub const RULE: Rule = Rule {
    id: "property-named-keyword",
    checks: "A property is named like a keyword (`type`, `default`, `description`, `enum`, \
             `format`, `items`, `properties`, `required`, `$ref`). It is a name, never a \
             keyword, but converters and front ends that confuse the two break on it.",
    features: "`structure: property-named-<keyword>` (`$ref` is `property-named-ref`)",
    example: r#"{"type": "object", "properties": {"type": {"type": "string", "enum": ["bug", "feature"]}}}"#,
    fix: "Rename the property (e.g. `kind` for `type`) if a target of your profile mishandles it.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        ..Hooks::NONE
    },
};

/// The names the catalog has a case for, and the case's spelling.
const NAMES: &[(&str, &str)] = &[
    ("type", "property-named-type"),
    ("default", "property-named-default"),
    ("description", "property-named-description"),
    ("enum", "property-named-enum"),
    ("format", "property-named-format"),
    ("items", "property-named-items"),
    ("properties", "property-named-properties"),
    ("required", "property-named-required"),
    ("$ref", "property-named-ref"),
];

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::Structure, v) if v.starts_with(value::PROPERTY_NAMED))
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(serde_json::Value::Object(props)) = n.properties else {
        return;
    };
    let placement = match n.placement {
        Placement::Root => Placement::Nested,
        p => p,
    };
    for (name, feature) in NAMES {
        if props.contains_key(*name) {
            cx.feature(
                At::Key(n.frame, "properties"),
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
                ("/properties", "structure: property-named-type"),
                ("/properties", "structure: property-named-ref"),
            ])
        );
    }
}
