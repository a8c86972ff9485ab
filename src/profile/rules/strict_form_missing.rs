//! `strict-form-missing`: a tool that asks for OpenAI's strict mode has a schema not in
//! strict form.
//!
//! Strict targets are otherwise reached through `compile`, and check judges the canonical
//! schema. A tool that itself says `strict: true` (or a Responses tool, strict unless it says
//! `strict: false`) is sent as written, so the provider judges it in strict mode: every
//! object closed, every property required. Which targets refuse that is the profile's word,
//! from the evidence of the `structure: strict-*` cases; this rule only finds the places.

use super::*;

pub const RULE: Rule = Rule {
    id: "strict-form-missing",
    checks: "A tool that asks for OpenAI's strict mode (`strict: true` on a Chat Completions \
             function, a Responses tool that does not say `strict: false`) has an object schema \
             (`type: object`) without `additionalProperties: false`, or a property its object's \
             `required` does not list. Tools that do not ask for strict mode are not checked: \
             they reach strict targets through `toolwire compile`.",
    features: "`structure: strict-open-object`, `structure: strict-required-incomplete`",
    example: r#"{"type": "function", "function": {"name": "run", "strict": true, "parameters": {"type": "object", "properties": {"command": {"type": "string"}, "timeout": {"type": "number"}}, "required": ["command"]}}}"#,
    example_target: None,
    fix: "Write the strict form: `additionalProperties: false` on every object and every \
          property in its `required`, an optional one made nullable (`type: [\"number\", \
          \"null\"]`); or send the canonical schema through `toolwire compile --target \
          openai/chat-strict` (or `openai/responses-strict`), which writes that form; or drop \
          `strict: true` (a Responses tool: write `strict: false`).",
    repair: "no: repair writes the canonical schema, not the strict form (`toolwire compile` \
             does)",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::STRICT_TYPE,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyed_in(
        p,
        Kind::Structure,
        &[value::STRICT_OPEN_OBJECT, value::STRICT_REQUIRED_INCOMPLETE],
    )
}

/// Whether `ty` lists `object` as written: OpenAI's strict check reads the name exactly
/// (`crate::target::openai::schema_problem`), and a respelled `dict` is `type-invalid`'s.
fn is_object(ty: &Ty<'_>) -> bool {
    match ty {
        Ty::One(s) => *s == "object",
        Ty::List(l) => l.iter().any(|v| v.as_str() == Some("object")),
        _ => false,
    }
}

/// How every fix of this rule ends: the ways to strict form other than editing by hand.
const OTHERWISE: &str = "or send the canonical schema through `toolwire compile --target \
    openai/chat-strict` (or `openai/responses-strict`), which writes the strict form; or drop \
    `strict: true` (a Responses tool: write `strict: false`).";

/// The fix for property `name` (schema `prop`) missing from `required`: list it, and let it
/// be null as OpenAI's strict mode spells an optional property, the way `compile` writes it:
/// `null` added to a `type` list (its types as JSON Schema names them) and to an `enum`, a
/// `const` put beside a null branch; nothing more where the schema already admits null.
fn required_fix(name: &str, prop: &serde_json::Value) -> String {
    use serde_json::Value;
    let get = |k| prop.get(k);
    let nullable = if admits_null(prop) {
        " (its schema already admits null)".to_string()
    } else if get("const").is_some() {
        ", and let it be null when there is no value: an `anyOf` of its schema and \
         `{\"type\": \"null\"}`"
            .to_string()
    } else {
        let enum_too = if get("enum").is_some() {
            " and `null` in its `enum`"
        } else {
            ""
        };
        // The types as JSON Schema names them (`float` is a number), each once; a spelling
        // that names no type gets the general words.
        let types: Option<Vec<&str>> = match get("type") {
            Some(Value::String(t)) => meant(t).map(|t| vec![t]),
            Some(Value::Array(l)) if !l.is_empty() => l.iter().try_fold(Vec::new(), |mut v, t| {
                let t = meant(t.as_str()?)?;
                if !v.contains(&t) {
                    v.push(t);
                }
                Some(v)
            }),
            None if get("enum").is_some() => Some(Vec::new()),
            _ => None,
        };
        match types {
            Some(t) if t.is_empty() => {
                ", and let it be null when there is no value: `null` in its `enum`".to_string()
            }
            Some(mut t) => {
                t.push("null");
                let list = t.iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>();
                format!(
                    ", and let it be null when there is no value: `type: [{}]`{enum_too}",
                    list.join(", ")
                )
            }
            None => ", and let it be null when there is no value (a `type` list with \
                     `\"null\"`, or an `anyOf` branch `{\"type\": \"null\"}`)"
                .to_string(),
        }
    };
    format!("List `{name}` in this object's `required`{nullable}; {OTHERWISE}")
}

/// The JSON Schema type `spelling` means (`float`: `number`), as compile writes it.
fn meant(spelling: &str) -> Option<&'static str> {
    crate::profile::feature::type_meant_by(spelling).map(|(t, _)| t)
}

/// Whether `prop` already admits null: a `type` naming `null` (and an `enum`, if any, listing
/// it), an `enum` listing it, a null `const`, or an `anyOf`/`oneOf` branch that admits it.
fn admits_null(prop: &serde_json::Value) -> bool {
    use serde_json::Value;
    if let Some(c) = prop.get("const") {
        return c.is_null();
    }
    if let Some(e) = prop.get("enum") {
        return e.as_array().is_some_and(|e| e.iter().any(Value::is_null));
    }
    let by_type = match prop.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(l)) => l.iter().any(|t| t == "null"),
        _ => false,
    };
    by_type
        || ["anyOf", "oneOf"].iter().any(|k| {
            prop.get(*k)
                .and_then(Value::as_array)
                .is_some_and(|b| b.iter().any(admits_null))
        })
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if !cx.asks_strict() || !is_object(&n.ty) {
        return;
    }
    let Some(map) = n.map else { return };
    if map.get("additionalProperties") != Some(&serde_json::Value::Bool(false)) {
        let at = if map.contains_key("additionalProperties") {
            At::Key(n.frame, "additionalProperties")
        } else {
            At::Node(n.frame)
        };
        let set = map.contains_key("additionalProperties");
        cx.feature_with_fix(
            at,
            Feat::Structure(value::STRICT_OPEN_OBJECT),
            n.placement,
            || {
                "the tool asks for strict mode, and this object is not closed \
                 (`additionalProperties: false`)"
                    .into()
            },
            || {
                let step = if set {
                    "Set this object's `additionalProperties` to `false`"
                } else {
                    "Add `additionalProperties: false` to this object"
                };
                Some(format!("{step}; {OTHERWISE}"))
            },
        );
    }
    let Some(serde_json::Value::Object(props)) = n.properties else {
        return;
    };
    // A set: a wide object lists every one of its properties (as compile's strict form
    // does), and a scan of `required` per property made checking it quadratic.
    let listed: std::collections::HashSet<&str> = match n.required {
        Some(serde_json::Value::Array(r)) => r.iter().filter_map(|v| v.as_str()).collect(),
        _ => std::collections::HashSet::new(),
    };
    for name in props.keys() {
        if listed.contains(name.as_str()) {
            continue;
        }
        cx.feature_with_fix(
            At::Member(n.frame, "properties", name),
            Feat::Structure(value::STRICT_REQUIRED_INCOMPLETE),
            n.placement,
            || {
                format!(
                    "the tool asks for strict mode, and `required` does not list `{name}` \
                     (strict mode wants every property required, an optional one nullable)"
                )
            },
            || Some(required_fix(name, &props[name])),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    const R: &str = "strict-form-missing";

    #[test]
    fn the_fix_makes_the_property_nullable_from_its_own_type() {
        let fix = |p| super::required_fix("p", &p);
        assert!(fix(json!({"type": "integer"})).starts_with(
            "List `p` in this object's `required`, and let it be null when there is no value: `type: [\"integer\", \"null\"]`; or send"
        ));
        assert!(
            fix(json!({"type": ["string", "array"]}))
                .contains("`type: [\"string\", \"array\", \"null\"]`;")
        );
        // Named as JSON Schema names them, each once, as compile writes them.
        assert!(fix(json!({"type": "float"})).contains("`type: [\"number\", \"null\"]`;"));
        assert!(fix(json!({"type": "STRING"})).contains("`type: [\"string\", \"null\"]`;"));
        assert!(
            fix(json!({"type": ["string", "str"]})).contains("`type: [\"string\", \"null\"]`;")
        );
        // An `enum` or `const` that would still refuse null is named too.
        assert!(
            fix(json!({"type": "string", "enum": ["a"]}))
                .contains("`type: [\"string\", \"null\"]` and `null` in its `enum`;")
        );
        assert!(fix(json!({"enum": ["a"]})).contains("`null` in its `enum`;"));
        assert!(
            fix(json!({"type": "string", "const": "k"}))
                .contains("an `anyOf` of its schema and `{\"type\": \"null\"}`;")
        );
        // Already admitting null: only the listing is asked for.
        for nullable in [
            json!({"type": ["string", "null"]}),
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            json!({"oneOf": [{"type": "string"}, {"type": ["null"]}]}),
            json!({"enum": ["a", null]}),
            json!({"const": null}),
        ] {
            assert!(
                fix(nullable.clone()).starts_with(
                    "List `p` in this object's `required` (its schema already admits null);"
                ),
                "{nullable}"
            );
        }
        // A null type beside an enum without null does not admit it.
        assert!(
            fix(json!({"type": ["string", "null"], "enum": ["a"]}))
                .contains("and `null` in its `enum`;")
        );
        // No type that names one (or none at all) to extend: both nullable spellings are named.
        for untyped in [
            json!({}),
            json!({"type": 7}),
            json!({"type": []}),
            json!({"type": "any"}),
        ] {
            assert!(fix(untyped).contains("an `anyOf` branch `{\"type\": \"null\"}`"));
        }
    }

    #[test]
    fn open_objects_and_unlisted_properties_of_a_strict_tool() {
        let schema = json!({
            "type": "object",
            "properties": {
                "command": {"type": "string"},
                "timeout": {"type": "number"},
                "env": {"type": "object", "properties": {"k": {"type": "string"}},
                        "required": ["k"], "additionalProperties": false},
                "opts": {"type": ["object", "null"], "properties": {}, "additionalProperties": true}
            },
            "required": ["command", "env", "opts"]
        });
        assert_eq!(
            seen_strict(R, schema.clone()),
            pairs(&[
                ("", "structure: strict-open-object"),
                (
                    "/properties/timeout",
                    "structure: strict-required-incomplete"
                ),
                (
                    "/properties/opts/additionalProperties",
                    "structure: strict-open-object"
                ),
            ])
        );
        // The same schema in a tool that does not ask for strict mode: compile's business.
        assert_eq!(seen(R, schema), pairs(&[]));
    }

    #[test]
    fn the_strict_form_passes() {
        let schema = json!({
            "type": "object",
            "properties": {
                "command": {"type": "string"},
                "timeout": {"type": ["number", "null"]},
                "items": {"type": "array", "items": {"type": "object", "properties": {},
                          "additionalProperties": false}}
            },
            "required": ["command", "timeout", "items"],
            "additionalProperties": false
        });
        assert_eq!(seen_strict(R, schema), pairs(&[]));
    }

    #[test]
    fn a_report_schema_without_properties_is_only_open() {
        // oai-strict-addlprops-root-noprops: `{"type":"object","title":"tool_name"}`.
        assert_eq!(
            seen_strict(R, json!({"type": "object", "title": "tool_name"})),
            pairs(&[("", "structure: strict-open-object")])
        );
        // oai-strict-required-missing-codex: closed, `workdir` not required.
        assert_eq!(
            seen_strict(
                R,
                json!({"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}},"workdir":{"type":"string"}},"required":["command"],"additionalProperties":false})
            ),
            pairs(&[(
                "/properties/workdir",
                "structure: strict-required-incomplete"
            )])
        );
    }
}
