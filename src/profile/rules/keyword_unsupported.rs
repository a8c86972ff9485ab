//! `keyword-unsupported`: a keyword the profile does not allow at that placement.

use super::*;

pub const RULE: Rule = Rule {
    id: "keyword-unsupported",
    checks: "Every key of every subschema that is not a property name, judged by the \
             `keyword-allowed` case for that keyword at that placement (root, nested, items, \
             anyOf branch). Forms are judged separately where they matter: \
             `additionalProperties` false/true/schema, draft-4 boolean `exclusiveMinimum` and \
             `exclusiveMaximum`. Every `x-` key is judged by the vendor-key case. Keywords \
             with a rule of their own (`type`, `format`, `enum` forms, `$ref`, `nullable`, \
             root combinators, ...) are left to it.",
    features: "`keyword-allowed: <keyword>`, `keyword-allowed: <keyword> (<form>)`",
    example: r#"{"type": "object", "properties": {"mode": {"const": "fast"}}, "additionalProperties": false}"#,
    fix: "Remove the keyword; if it constrained the value, say so in the description (e.g. \"at least 1\"). `const` can be written as a one-value `enum`.",
    repair: "partly: keywords that only annotate or narrow are dropped (and reported); `anyOf`/`oneOf`/`allOf`, `patternProperties`, `additionalProperties` schemas, `items`, `properties` and `prefixItems` cannot be",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        ..Hooks::NONE
    },
};

const STRUCTURAL: &[&str] = &[
    "anyOf",
    "oneOf",
    "allOf",
    "patternProperties",
    "items",
    "properties",
    "prefixItems",
    "dependentSchemas",
];

fn repairable(f: &Feat<'_>) -> bool {
    match f {
        Feat::Keyword(k) => !STRUCTURAL.contains(k),
        Feat::KeywordForm(k, form) => !(STRUCTURAL.contains(k) || *form == value::SCHEMA),
        _ => false,
    }
}

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::Keyword | Kind::KeywordForm, _))
}

/// Keys other rules report.
const ELSEWHERE: &[&str] = &["type", "format", "$ref", "$defs", "definitions", "nullable"];
/// Keys root-combinator and root-not-object report at the root.
const ROOT_ELSEWHERE: &[&str] = &["anyOf", "oneOf", "allOf", "not", "enum", "const"];

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    use serde_json::Value;
    let Some(map) = n.map else { return };
    let root = n.is_root();
    for (k, v) in map {
        let k = k.as_str();
        if ELSEWHERE.contains(&k) || (root && ROOT_ELSEWHERE.contains(&k)) {
            continue;
        }
        let feat = match (k, v) {
            ("items", v) if !v.is_object() => continue,
            ("properties", v) if !v.is_object() => continue,
            ("required", Value::Array(a)) if a.iter().all(Value::is_string) => Feat::Keyword(k),
            ("required", _) => continue,
            ("enum", v) if super::enum_not_string::form(v).is_some() => continue,
            ("anyOf", _)
                if super::anyof_with_siblings::has_siblings(n)
                    || super::nullable_spelling::has_null_branch(n) =>
            {
                continue;
            }
            ("additionalProperties", Value::Bool(true)) => Feat::KeywordForm(k, value::BOOL_TRUE),
            ("additionalProperties", Value::Bool(false)) => Feat::KeywordForm(k, value::BOOL_FALSE),
            ("additionalProperties", _) => Feat::KeywordForm(k, value::SCHEMA),
            ("exclusiveMinimum" | "exclusiveMaximum", Value::Bool(_)) => {
                Feat::KeywordForm(k, value::BOOLEAN)
            }
            (k, _) if k.starts_with("x-") => Feat::Keyword(value::VENDOR_KEY),
            (k, _) => Feat::Keyword(k),
        };
        cx.feature(At::Key(n.frame, k), feat, n.placement, || match feat {
            Feat::KeywordForm(_, form) => format!("keyword `{k}` ({form})"),
            _ => format!("keyword `{k}`"),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn keywords_and_forms() {
        let r = "keyword-unsupported";
        let found = seen(
            r,
            json!({"type":"object","$schema":"x","properties":{
                "a":{"type":"string","const":"x","x-order":1},
                "b":{"type":"number","exclusiveMinimum":true},
                "type":{"type":"string","enum":["p","q"]}
            },"required":["a"],"additionalProperties":false}),
        );
        assert_eq!(
            found,
            pairs(&[
                ("/$schema", "keyword-allowed: $schema"),
                ("/properties", "keyword-allowed: properties"),
                ("/required", "keyword-allowed: required"),
                (
                    "/additionalProperties",
                    "keyword-allowed: additionalProperties (false)"
                ),
                ("/properties/a/const", "keyword-allowed: const"),
                ("/properties/a/x-order", "keyword-allowed: x-vendor"),
                (
                    "/properties/b/exclusiveMinimum",
                    "keyword-allowed: exclusiveMinimum (boolean)"
                ),
                ("/properties/type/enum", "keyword-allowed: enum"),
            ])
        );
        // A property literally named `type` is a name, never the keyword.
        assert!(!found.iter().any(|(p, _)| p == "/properties/type"));
    }

    #[test]
    fn root_combinators_are_not_reported_here() {
        assert!(
            seen(
                "keyword-unsupported",
                json!({"anyOf":[{"type":"object","properties":{}}]})
            )
            .iter()
            .all(|(p, _)| p.starts_with("/anyOf/0"))
        );
    }
}
