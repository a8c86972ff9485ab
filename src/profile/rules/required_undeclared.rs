//! `required-undeclared`: `required` names a property that `properties` does not declare.

use super::*;

pub const RULE: Rule = Rule {
    id: "required-undeclared",
    checks: "A name in `required` is not a key of the same schema's `properties`, or \
             `required` is given on a schema without `properties` at all. Branches of \
             `anyOf`/`oneOf`/`allOf`/`if`/`then`/`else`/`not` without their own `properties` \
             are not checked (their `required` names the parent's properties).",
    features: "`structure: required-undeclared`, `structure: required-without-properties`",
    example: r#"{"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text", "position"]}"#,
    example_target: None,
    fix: "Declare the property, or remove the name from `required`.",
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
            value::REQUIRED_UNDECLARED,
            value::REQUIRED_WITHOUT_PROPERTIES,
        ],
    )
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(serde_json::Value::Array(names)) = n.required else {
        return;
    };
    let props = match n.properties {
        Some(serde_json::Value::Object(p)) => p,
        Some(_) => return,
        None if n.via.is_applicator_branch() => return,
        None => {
            cx.feature(
                At::Key(n.frame, "required"),
                Feat::Structure(value::REQUIRED_WITHOUT_PROPERTIES),
                n.placement,
                || "`required` on a schema without `properties`".into(),
            );
            return;
        }
    };
    for (i, name) in names.iter().enumerate() {
        let Some(name) = name.as_str() else { continue };
        if declares(props, name) {
            continue;
        }
        cx.feature(
            At::KeyIndex(n.frame, "required", i),
            Feat::Structure(value::REQUIRED_UNDECLARED),
            n.placement,
            || format!("`required` names `{name}`, which `properties` does not declare"),
        );
    }
}

/// Whether `props` has `name`. Most `properties` maps are small: comparing the names costs
/// less than hashing one (serde_json's map hashes with SipHash).
fn declares(props: &serde_json::Map<String, serde_json::Value>, name: &str) -> bool {
    if props.len() <= 8 {
        props.keys().any(|k| k == name)
    } else {
        props.contains_key(name)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn undeclared_names() {
        let r = "required-undeclared";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"type":"string"}},"required":["a","b"],"anyOf":[{"required":["a"]}]})
            ),
            pairs(&[("/required/1", "structure: required-undeclared")])
        );
        assert_eq!(
            seen(r, json!({"type":"object","required":["kwargs"]})),
            pairs(&[("/required", "structure: required-without-properties")])
        );
    }
}
