//! `required-invalid`: `required` that is not a list of distinct names, or is empty beside
//! declared properties.

use super::*;

pub const RULE: Rule = Rule {
    id: "required-invalid",
    checks: "`required` is not an array of strings (`null`, draft-3's per-property `true`, a \
             single string, a list holding non-strings), is an empty list beside declared \
             properties (every argument optional), or names one property twice (2020-12 wants \
             its items unique).",
    features: "`structure: required-null`, `structure: required-boolean`, `structure: required-not-array`, `structure: required-empty`, `structure: required-duplicates`",
    example: r#"{"type": "object", "properties": {"city": {"type": "string"}}, "required": null}"#,
    example_target: None,
    fix: "Write `required` as a list of property names, or leave it out when nothing is required.",
    repair: "yes",
    repairable: always,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::ODD_REQUIRED,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyed_in(
        p,
        Kind::Structure,
        &[
            value::REQUIRED_NOT_ARRAY,
            value::REQUIRED_NULL,
            value::REQUIRED_BOOLEAN,
            value::REQUIRED_EMPTY,
            value::REQUIRED_DUPLICATES,
        ],
    )
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    use serde_json::Value;
    let Some(req) = n.required else { return };
    match req {
        // The case is an empty list beside declared properties: every argument optional,
        // which Cohere's strict mode refuses ("tool definitions that have optional parameters
        // must specify at least one required parameter", cohere-strict-tools-requires-required).
        // Beside no property it makes nothing optional, and says no more than no `required`:
        // such an object is judged as the no-arguments shape, or by required-undeclared's
        // `required-without-properties` when it has no `properties` at all.
        Value::Array(names) if names.is_empty() => {
            if n.properties
                .and_then(Value::as_object)
                .is_some_and(|m| !m.is_empty())
            {
                cx.feature(
                    At::Key(n.frame, "required"),
                    Feat::Structure(value::REQUIRED_EMPTY),
                    n.placement,
                    || "`required` is an empty list".into(),
                )
            }
        }
        Value::Array(names) => {
            let repeated = crate::schema::repeated_names(names);
            for ((i, v), repeated) in names.iter().enumerate().zip(repeated) {
                if !v.is_string() {
                    let kind = json_kind(v);
                    cx.feature(
                        At::KeyIndex(n.frame, "required", i),
                        Feat::Structure(value::REQUIRED_NOT_ARRAY),
                        n.placement,
                        || format!("`required` lists a JSON {kind}, not a property name"),
                    );
                } else if repeated {
                    cx.feature(
                        At::KeyIndex(n.frame, "required", i),
                        Feat::Structure(value::REQUIRED_DUPLICATES),
                        n.placement,
                        || format!("`required` names {} a second time", crate::report::Shown(v)),
                    );
                }
            }
        }
        other => {
            let which = match other {
                Value::Null => value::REQUIRED_NULL,
                Value::Bool(_) => value::REQUIRED_BOOLEAN,
                _ => value::REQUIRED_NOT_ARRAY,
            };
            let kind = json_kind(other);
            cx.feature(
                At::Key(n.frame, "required"),
                Feat::Structure(which),
                n.placement,
                || format!("`required` is a JSON {kind}, not a list of names"),
            )
        }
    }
}

/// Whether `required` is what 2020-12 asks for and this rule leaves alone: a non-empty list
/// of distinct strings.
pub fn is_list_of_names(required: &serde_json::Value) -> bool {
    required.as_array().is_some_and(|names| {
        !names.is_empty()
            && names
                .iter()
                .zip(crate::schema::repeated_names(names))
                .all(|(v, repeated)| v.is_string() && !repeated)
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn required_must_list_names() {
        let r = "required-invalid";
        let s = json!({"type":"object","required":null,"properties":{
            "a":{"type":"string","required":true},
            "b":{"type":"object","properties":{"c":{}},"required":"c"},
            "d":{"type":"object","properties":{"e":{}},"required":["e",1]},
            "f":{"type":"object","properties":{"g":{}},"required":[]},
            "k":{"type":"object","properties":{},"required":[]},
            "l":{"type":"object","required":[]},
            "h":{"type":"object","properties":{"i":{},"j":{}},"required":["i","j","i","i"]}}});
        assert_eq!(
            seen(r, s),
            pairs(&[
                ("/required", "structure: required-null"),
                ("/properties/a/required", "structure: required-boolean"),
                ("/properties/b/required", "structure: required-not-array"),
                ("/properties/d/required/1", "structure: required-not-array"),
                ("/properties/f/required", "structure: required-empty"),
                ("/properties/h/required/2", "structure: required-duplicates"),
                ("/properties/h/required/3", "structure: required-duplicates"),
            ])
        );
    }

    /// Cohere's strict mode refuses an empty `required` beside optional parameters (its
    /// doc); a no-arguments tool's `properties: {}, required: []` has none, and Cohere's
    /// evidence says nothing of it (trial, 14 livemcpbench tools were flagged as errors).
    #[test]
    fn an_empty_list_beside_no_property_is_not_the_case() {
        let profiles = crate::profile::embedded_set().unwrap();
        let cohere =
            crate::profile::CompiledProfile::new(profiles.get("cohere/v2-strict").unwrap());
        let flagged = |s: serde_json::Value| {
            check_under(&cohere, &s)
                .iter()
                .filter(|f| f.rule == "required-invalid")
                .map(|f| (f.pointer.clone(), f.level))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            flagged(json!({"type":"object","properties":{"a":{"type":"string"}},"required":[]})),
            [("/required".to_string(), crate::check::Level::Error)]
        );
        assert_eq!(
            flagged(json!({"type":"object","properties":{},"required":[]})),
            []
        );
    }

    #[test]
    fn a_list_of_distinct_names_is_left_to_keyword_unsupported() {
        use super::is_list_of_names;
        assert!(is_list_of_names(&json!(["a", "b"])));
        for v in [
            json!([]),
            json!(["a", "a"]),
            json!(["a", 1]),
            json!("a"),
            json!(null),
        ] {
            assert!(!is_list_of_names(&v), "{v}");
        }
        let s = json!({"type":"object","properties":{"a":{}},"required":["a","a"]});
        assert!(
            seen("keyword-unsupported", s)
                .iter()
                .all(|(p, _)| p != "/required"),
            "a `required` with duplicates is judged by its own case"
        );
    }
}
