//! `root-not-object`: the parameters schema is not an object schema.

use super::*;

pub const RULE: Rule = Rule {
    id: "root-not-object",
    checks: "The root of the parameters schema is not an object schema: `null`, `true`, `{}`, \
             an argument instance written where the schema belongs, no `type`, a `type` other \
             than `object` (JSON `null` included), or a root `enum`/`const`.",
    features: "`root-shape: parameters-null`, `true-schema`, `empty-schema`, `instance-not-schema`, `no-type`, `type-null`, `string`, `array`, `enum`, `const`",
    example: r#"{"type": "string", "description": "The query."}"#,
    example_target: None,
    fix: "Make the root {\"type\":\"object\",\"properties\":{...}} and move a scalar argument into a named property.",
    repair: "partly: a root with `properties`, or a `$ref` to an object schema, but no `type` gets `type: object`; `true` is read as `{}` and `null` as no schema (as `compile` reads them); `{}` is left out (a named tool in a shape that may leave it out: not Anthropic's, MCP's or Bedrock's) or becomes an empty argument object, whichever the profile does not reject; `false` and the other shapes would change the arguments",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::ROOT,
        ..Hooks::NONE
    },
};

const SHAPES: &[&str] = &[
    value::ROOT_NULL,
    value::ROOT_TRUE,
    value::ROOT_FALSE,
    value::ROOT_NOT_A_SCHEMA,
    value::ROOT_EMPTY,
    value::ROOT_INSTANCE,
    value::ROOT_NO_TYPE,
    value::ROOT_TYPE_NULL,
    "enum",
    "const",
    "string",
    "number",
    "integer",
    "boolean",
    "array",
    "null",
];

/// What `repair::fixes::shapes::root_shape` repairs: `type: object` added to a root that
/// declares `properties` or whose `$ref` is to an object schema; `{}` replaced by no arguments where the profile allows that. And
/// what repair reads as compile does (`compile::canonical::write_root`): `true` is `{}`, so
/// it goes as `{}` goes; `null` is no schema, which stays where the profile does not reject
/// that and is otherwise an empty argument object (as `parameters-missing` repairs it).
fn repairable(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    match f {
        Feat::RootShape(value::ROOT_NO_TYPE) => {
            r.root.is_some_and(crate::repair::root_is_an_object)
        }
        Feat::RootShape(value::ROOT_EMPTY) => r.can_take_no_arguments(),
        Feat::RootShape(value::ROOT_TRUE) => {
            !r.rejects_root(value::ROOT_EMPTY) || r.can_take_no_arguments()
        }
        // Read as no schema, left so where it may be (a named tool whose shape does not
        // require the key) and the profile takes that, else an empty argument object: a bare
        // schema's `null` and one whose shape requires its key go as `{}` goes.
        Feat::RootShape(value::ROOT_NULL) => r.can_take_no_arguments(),
        _ => false,
    }
}

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::RootShape, SHAPES)
}

/// Whether a non-empty schema object `map` holds no schema keyword at all: an example of the
/// arguments written where the schema belongs (`{"city": "Paris"}`), feature
/// `root-shape: instance-not-schema` at the root. `propertyOrdering` is Gemini's own keyword,
/// `x-` the OpenAPI extension prefix: a root holding only those is still a schema.
pub(crate) fn is_instance(map: &serde_json::Map<String, serde_json::Value>) -> bool {
    !map.is_empty()
        && !map
            .keys()
            .any(|k| crate::schema::is_keyword(k) || k == "propertyOrdering" || k.starts_with("x-"))
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if !n.is_root() {
        return;
    }
    let at = At::Node(n.frame);
    let Some(map) = n.map else {
        let shape = match n.value {
            serde_json::Value::Null => value::ROOT_NULL,
            serde_json::Value::Bool(true) => value::ROOT_TRUE,
            serde_json::Value::Bool(false) => value::ROOT_FALSE,
            _ => value::ROOT_NOT_A_SCHEMA,
        };
        let kind = json_kind(n.value);
        cx.feature(at, Feat::RootShape(shape), Placement::Root, || {
            format!(
                "the parameters schema is the JSON {kind} `{}`, not a schema object",
                n.value
            )
        });
        return;
    };
    if map.is_empty() {
        cx.feature(
            at,
            Feat::RootShape(value::ROOT_EMPTY),
            Placement::Root,
            || "the parameters schema is `{}` (any value), not an object schema".into(),
        );
        return;
    }
    // A `type` key is a keyword: only an untyped root may be an instance (most roots are
    // typed, and the scan of the keys for a keyword ran for every tool).
    if matches!(n.ty, Ty::Absent) && is_instance(map) {
        cx.feature(at, Feat::RootShape(value::ROOT_INSTANCE), Placement::Root, || {
            "the parameters schema has no schema keyword at all: it looks like an example of the arguments, not a schema".into()
        });
        return;
    }
    for (present, key) in [(n.enum_.is_some(), "enum"), (n.has_const, "const")] {
        if present {
            cx.feature(
                At::Key(n.frame, key),
                Feat::RootShape(key),
                Placement::Root,
                || format!("the parameters schema is constrained by a root `{key}`"),
            );
        }
    }
    match n.ty {
        Ty::Absent if !(n.any_of.is_some() || n.one_of || n.all_of) => cx.feature(
            at,
            Feat::RootShape(value::ROOT_NO_TYPE),
            Placement::Root,
            || "the parameters schema has no `type` (it must be `\"object\"`)".into(),
        ),
        Ty::Invalid(serde_json::Value::Null) => cx.feature(
            At::Key(n.frame, "type"),
            Feat::RootShape(value::ROOT_TYPE_NULL),
            Placement::Root,
            || "the parameters schema has `type: null`".into(),
        ),
        Ty::One(t) => {
            // The walk's reading of a standard spelling, else the match of other cases.
            let std = match n.ty_standard {
                Some(i) => Some(crate::profile::feature::STANDARD_TYPES[usize::from(i)]),
                None => standard_type(t),
            };
            if let Some(std) = std.filter(|s| *s != "object") {
                cx.feature(
                    At::Key(n.frame, "type"),
                    Feat::RootShape(std),
                    Placement::Root,
                    || format!("the parameters schema has `type: \"{t}\"`, not `\"object\"`"),
                );
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn root_shapes() {
        let r = "root-not-object";
        assert_eq!(
            seen(r, json!({"type":"string"})),
            pairs(&[("/type", "root-shape: string")])
        );
        assert_eq!(
            seen(r, json!({"type":"ARRAY","items":{}})),
            pairs(&[("/type", "root-shape: array")])
        );
        assert_eq!(
            seen(r, json!({})),
            pairs(&[("", "root-shape: empty-schema")])
        );
        assert_eq!(
            seen(r, json!({"properties":{"a":{"type":"string"}}})),
            pairs(&[("", "root-shape: no-type")])
        );
        assert_eq!(
            seen(r, json!({"type":null,"properties":{}})),
            pairs(&[("/type", "root-shape: type-null")])
        );
        assert_eq!(
            seen(r, json!(null)),
            pairs(&[("", "root-shape: parameters-null")])
        );
        assert_eq!(
            seen(r, json!(true)),
            pairs(&[("", "root-shape: true-schema")])
        );
        assert_eq!(
            seen(r, json!({"fact":"example value"})),
            pairs(&[("", "root-shape: instance-not-schema")])
        );
        assert_eq!(
            seen(r, json!({"type":"object","properties":{},"enum":[{}]})),
            pairs(&[("/enum", "root-shape: enum")])
        );
        // A typed root is a schema whatever its other keys (only an untyped one is read for
        // an instance); a standard type in another case is still that type.
        assert!(
            seen(
                r,
                json!({"type":"object","properties":{},"fact":"example value"})
            )
            .is_empty()
        );
        assert_eq!(
            seen(r, json!({"type":"Integer"})),
            pairs(&[("/type", "root-shape: integer")])
        );
        // Objects, non-standard spellings (type-invalid's) and combinator roots
        // (root-combinator's) are not this rule's.
        assert!(seen(r, json!({"type":"object","properties":{}})).is_empty());
        assert!(seen(r, json!({"type":"dict","properties":{}})).is_empty());
        assert!(seen(r, json!({"anyOf":[{"type":"object"}]})).is_empty());
        // Nested schemas are never roots.
        assert!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"type":"string"}}})
            )
            .is_empty()
        );
    }
}
