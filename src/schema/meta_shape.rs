//! A sufficient test of validity against the JSON Schema draft 2020-12 meta-schema, cheap
//! enough to run inside `check`'s walk on every keyword.
//!
//! The 2020-12 meta-schema (<https://json-schema.org/draft/2020-12/schema> and its
//! vocabularies `meta/core`, `meta/applicator`, `meta/unevaluated`, `meta/validation`,
//! `meta/meta-data`, `meta/format-annotation`, `meta/content`) mostly constrains the *type* of
//! each keyword's value: a string for `description`, a non-negative integer for `minLength`,
//! a non-empty list of schemas for `anyOf`. Most tool schemas satisfy it, and proving that
//! shape by shape costs a few instructions per keyword, where the `jsonschema` crate's
//! meta-schema validator costs about a microsecond per tool.
//!
//! The test is one-sided: [`keyword`] and [`schema_position`] answer `true` only for values
//! the meta-schema certainly accepts. `false` means *not proven* (the caller asks the
//! `jsonschema` crate, which stays the authority): a keyword whose value carries a format or
//! pattern the meta-schema may assert (`$id`, `$anchor`, `pattern`, ...), a draft-07 form
//! (`items: [...]`), or one this module does not model (`dependencies`, `contentSchema`). A
//! differential test holds the `true` answers to the crate's verdict.
//!
//! Subschemas are not looked into here: the caller's walk visits every subschema of the
//! applicator keywords (`properties` members, `anyOf` elements, `not`, ...) and asks
//! [`schema_position`] and [`keyword`] about each in turn, so only the container's own shape
//! (an object, a non-empty list) is tested for them.

use serde_json::Value;

/// Whether `s` is one of the `simpleTypes` of the validation vocabulary: the only `type` names
/// the meta-schema accepts (exact case). A match rather than a scan of a list: asked of every
/// `type` the check walk reads.
fn simple_type(s: &str) -> bool {
    matches!(
        s,
        "array" | "boolean" | "integer" | "null" | "number" | "object" | "string"
    )
}

/// Whether `v`, found where the meta-schema expects a schema (the root, a `properties`
/// member, an `anyOf` element, `not`, ...), certainly is one as far as its own kind goes: an
/// object (its keywords are tested one by one with [`keyword`]) or a boolean schema.
#[inline]
pub fn schema_position(v: &Value) -> bool {
    matches!(v, Value::Object(_) | Value::Bool(_))
}

/// Whether the meta-schema certainly accepts `value` for keyword `k` of a schema object,
/// leaving aside the subschemas inside it (the walk visits those: see the module docs). Any
/// key that is no 2020-12 keyword is accepted, as the meta-schema accepts it.
#[inline]
pub fn keyword(k: &str, value: &Value) -> bool {
    match k {
        // meta-data, format-annotation, content; core's `$comment`.
        "title" | "description" | "format" | "$comment" | "contentEncoding"
        | "contentMediaType" => value.is_string(),
        "deprecated" | "readOnly" | "writeOnly" | "uniqueItems" => value.is_boolean(),
        "default" | "const" => true,
        "examples" | "enum" => value.is_array(),
        "type" => type_value(value),
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => value.is_number(),
        // `exclusiveMinimum: 0`.
        "multipleOf" => value.as_f64().is_some_and(|m| m > 0.0),
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties"
        | "minContains" | "maxContains" => non_negative_integer(value),
        "required" => string_array(value),
        "dependentRequired" => names_by_member(value),
        // Lists of subschemas: `minItems: 1`.
        "anyOf" | "allOf" | "oneOf" | "prefixItems" => {
            value.as_array().is_some_and(|a| !a.is_empty())
        }
        // Maps of subschemas (members visited by the walk).
        "properties" | "$defs" | "definitions" | "dependentSchemas" => value.is_object(),
        // One subschema. The walk visits `items` (a schema in 2020-12; the draft-07 list is
        // refused), `not`, `if`, `then`, `else`, `contains` and `propertyNames` whatever
        // their value, and the others only as objects, so those must be objects or booleans.
        "items" => !value.is_array(),
        "not" | "if" | "then" | "else" | "contains" | "propertyNames" => true,
        "additionalProperties" | "unevaluatedProperties" | "unevaluatedItems" => {
            schema_position(value)
        }
        // `uriReferenceString`: a string; `format: uri-reference` is an annotation only.
        "$ref" | "$dynamicRef" => value.is_string(),
        // Not proven here: patterns the meta-schema asserts (`$id`, `$anchor`,
        // `$dynamicAnchor`), formats it may assert on names and values (`pattern`,
        // `patternProperties`: `regex`; `$schema`: `uri`; `$vocabulary`), forms the walk
        // does not visit whole (`dependencies`, whose property lists it skips;
        // `contentSchema`), and the deprecated `$recursiveRef`/`$recursiveAnchor`.
        "$id" | "$anchor" | "$dynamicAnchor" | "$vocabulary" | "$schema" | "pattern"
        | "patternProperties" | "dependencies" | "contentSchema" | "$recursiveRef"
        | "$recursiveAnchor" => false,
        _ => true,
    }
}

/// `type`: one of the [`simple_type`]s, or a non-empty list of them without repeats.
fn type_value(v: &Value) -> bool {
    let simple = |v: &Value| v.as_str().is_some_and(simple_type);
    match v {
        Value::String(_) => simple(v),
        Value::Array(a) => !a.is_empty() && a.iter().all(simple) && distinct(a),
        _ => false,
    }
}

/// `nonNegativeInteger`, proven only for plain unsigned integers (`1.0` is an integer to the
/// meta-schema too, but its reading of floats is left to the crate).
fn non_negative_integer(v: &Value) -> bool {
    v.as_u64().is_some()
}

/// The value of `dependentRequired`, and of draft-07's `dependencies` in its array form only:
/// an object each of whose values is a [`string_array`] of member names. Such a
/// `dependencies` says exactly what `dependentRequired` says ("if this member is given, these
/// must be too": draft-07 validation §6.5.7, split in 2019-09 into `dependentRequired` and
/// `dependentSchemas`); a schema among its values declares argument schemas instead.
pub fn names_by_member(v: &Value) -> bool {
    v.as_object().is_some_and(|m| m.values().all(string_array))
}

/// `stringArray`: a list of strings without repeats.
fn string_array(v: &Value) -> bool {
    v.as_array()
        .is_some_and(|a| a.iter().all(Value::is_string) && distinct(a))
}

/// No two elements equal, for lists of strings (both callers test that first): pairwise for
/// the usual short lists, hashed beyond.
fn distinct(a: &[Value]) -> bool {
    if a.len() <= 32 {
        // Compared as strings, not as values: inlined, where `Value`'s `==` is a call.
        return a
            .iter()
            .enumerate()
            .all(|(i, x)| !a[..i].iter().any(|y| y.as_str() == x.as_str()));
    }
    let mut seen = std::collections::HashSet::with_capacity(a.len());
    a.iter().all(|x| x.as_str().is_some_and(|s| seen.insert(s)))
}

#[cfg(test)]
mod tests {
    use crate::profile::detect::meta_proven;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    /// The one property that matters: what the walk proves, the meta-schema accepts.
    fn holds(schema: &Value) -> Result<(), String> {
        let meta = jsonschema::draft202012::meta::validator();
        if meta_proven(schema) && !meta.is_valid(schema) {
            return Err(format!(
                "proven valid, but the meta-schema refuses {schema}"
            ));
        }
        Ok(())
    }

    #[test]
    fn typical_tool_schemas_are_proven_without_the_crate() {
        // If these fell back to the crate, the fast path would be dead code.
        for s in [
            json!({"type": "object", "properties": {
                "city": {"type": "string", "description": "City name", "minLength": 1},
                "days": {"type": "integer", "minimum": 1, "maximum": 14, "default": 3},
                "units": {"type": "string", "enum": ["c", "f"]},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                "when": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
                "loc": {"$ref": "#/$defs/Loc"}},
              "required": ["city"], "additionalProperties": false,
              "$defs": {"Loc": {"type": "object", "properties": {"lat": {"type": "number"}}}}}),
            json!({"type": "object", "properties": {}}),
            json!(true),
            json!({"type": ["string", "null"], "title": "x", "examples": ["a"]}),
        ] {
            assert!(meta_proven(&s), "{s}");
            holds(&s).unwrap();
        }
    }

    #[test]
    fn invalid_values_are_never_proven() {
        for s in [
            json!({"type": "strin"}),
            json!({"type": []}),
            json!({"type": ["string", "string"]}),
            json!({"type": "STRING"}),
            json!({"anyOf": []}),
            json!({"format": 5}),
            json!({"$ref": 5}),
            json!({"uniqueItems": "yes"}),
            json!({"minLength": -1}),
            json!({"minLength": 1.5}),
            json!({"multipleOf": 0}),
            json!({"required": ["a", "a"]}),
            json!({"required": "a"}),
            json!({"dependentRequired": {"p": "q"}}),
            json!({"enum": "a"}),
            json!({"properties": {"a": 5}}),
            json!({"properties": []}),
            json!({"items": [{"type": "string"}]}),
            json!({"items": 5}),
            json!({"not": "x"}),
            json!({"additionalProperties": "no"}),
            json!({"$defs": {"a": {"type": 7}}}),
            json!({"properties": {"a": {"anyOf": [{"type": "string"}, {"minimum": "1"}]}}}),
            json!(5),
            json!("object"),
        ] {
            assert!(!meta_proven(&s), "{s}");
        }
    }

    #[test]
    fn keywords_the_meta_schema_may_assert_formats_on_are_left_to_the_crate() {
        for s in [
            json!({"pattern": "("}),
            json!({"patternProperties": {"(": {}}}),
            json!({"$schema": "not a uri"}),
            json!({"$id": "a#b#c"}),
            json!({"$anchor": "1bad"}),
            json!({"dependencies": {"a": 5}}),
            json!({"contentSchema": 5}),
        ] {
            assert!(!meta_proven(&s), "{s}");
            holds(&s).unwrap();
        }
    }

    #[test]
    fn every_case_schema_holds() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
        let catalog = crate::case::Catalog::load(&root).expect("the catalog loads");
        let mut proven = 0;
        for case in &catalog.cases {
            for t in &case.tools {
                if let Some(p) = &t.parameters {
                    holds(p).map_err(|e| format!("{}: {e}", case.id)).unwrap();
                    proven += usize::from(meta_proven(p));
                }
            }
        }
        assert!(proven > 50, "only {proven} case schemas proven");
    }

    /// Values of every JSON kind, among them the edge ones of the meta-schema's shapes.
    fn any_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(json!(null)),
            any::<bool>().prop_map(Value::from),
            (-3i64..4).prop_map(Value::from),
            Just(json!(1.5)),
            Just(json!(0.0)),
            Just(json!(-0.5)),
            Just(json!(u64::MAX)),
            prop::sample::select(vec![
                "string",
                "object",
                "integer",
                "Object",
                "dict",
                "",
                "#/$defs/a",
                "(",
                "a",
            ])
            .prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec((key(), inner), 0..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    fn key() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "type",
            "properties",
            "items",
            "prefixItems",
            "anyOf",
            "oneOf",
            "allOf",
            "not",
            "if",
            "then",
            "else",
            "enum",
            "const",
            "required",
            "minLength",
            "maxItems",
            "minimum",
            "multipleOf",
            "uniqueItems",
            "format",
            "$ref",
            "$defs",
            "definitions",
            "additionalProperties",
            "unevaluatedItems",
            "contains",
            "propertyNames",
            "dependentRequired",
            "dependentSchemas",
            "description",
            "title",
            "default",
            "examples",
            "deprecated",
            "pattern",
            "nullable",
            "a",
            "additionalItems",
        ])
        .prop_map(String::from)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn proven_implies_meta_schema_valid(schema in any_value()) {
            prop_assert!(holds(&schema).is_ok(), "{}", holds(&schema).unwrap_err());
        }
    }
}
