//! `required-invalid`: `required` that is not a non-empty list of names.

use super::*;

pub const RULE: Rule = Rule {
    id: "required-invalid",
    checks: "`required` is not an array of strings (`null`, draft-3's per-property `true`, a \
             single string, a list holding non-strings) or is an empty list.",
    features: "`structure: required-null`, `structure: required-boolean`, `structure: required-not-array`, `structure: required-empty`",
    example: r#"{"type": "object", "properties": {"city": {"type": "string"}}, "required": null}"#,
    fix: "Write `required` as a list of property names, or leave it out when nothing is required.",
    repair: "yes",
    repairable: always,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::REQUIRED,
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
        ],
    )
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    use serde_json::Value;
    let Some(req) = n.required else { return };
    match req {
        Value::Array(names) if names.is_empty() => cx.feature(
            At::Key(n.frame, "required"),
            Feat::Structure(value::REQUIRED_EMPTY),
            n.placement,
            || "`required` is an empty list".into(),
        ),
        Value::Array(names) => {
            for (i, v) in names.iter().enumerate() {
                if !v.is_string() {
                    let kind = json_kind(v);
                    cx.feature(
                        At::KeyIndex(n.frame, "required", i),
                        Feat::Structure(value::REQUIRED_NOT_ARRAY),
                        n.placement,
                        || format!("`required` lists a JSON {kind}, not a property name"),
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
            "f":{"type":"object","properties":{"g":{}},"required":[]}}});
        assert_eq!(
            seen(r, s),
            pairs(&[
                ("/required", "structure: required-null"),
                ("/properties/a/required", "structure: required-boolean"),
                ("/properties/b/required", "structure: required-not-array"),
                ("/properties/d/required/1", "structure: required-not-array"),
                ("/properties/f/required", "structure: required-empty"),
            ])
        );
    }
}
