//! `required-invalid`: `required` is not a list of names.

use super::*;

pub const RULE: Rule = Rule {
    id: "required-invalid",
    checks: "`required` is not an array of strings (e.g. `null`, `true`, a string).",
    features: "`structure: required-not-array`",
    example: r#"{"type": "object", "properties": {"city": {"type": "string"}}, "required": null}"#,
    fix: "Write `required` as a list of property names, or leave it out.",
    repair: "yes",
    repairable: always,
    owns,
    hooks: Hooks {
        node: Some(node),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::Structure, &[value::REQUIRED_NOT_ARRAY])
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(req) = n.required else { return };
    let feat = Feat::Structure(value::REQUIRED_NOT_ARRAY);
    match req {
        serde_json::Value::Array(names) => {
            for (i, v) in names.iter().enumerate() {
                if !v.is_string() {
                    let kind = json_kind(v);
                    cx.feature(
                        At::KeyIndex(n.frame, "required", i),
                        feat,
                        n.placement,
                        || format!("`required` lists a JSON {kind}, not a property name"),
                    );
                }
            }
        }
        other => {
            let kind = json_kind(other);
            cx.feature(At::Key(n.frame, "required"), feat, n.placement, || {
                format!("`required` is a JSON {kind}, not a list of names")
            })
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
        assert_eq!(
            seen(r, json!({"type":"object","properties":{},"required":null})),
            pairs(&[("/required", "structure: required-not-array")])
        );
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{}},"required":["a",1]})
            ),
            pairs(&[("/required/1", "structure: required-not-array")])
        );
    }
}
