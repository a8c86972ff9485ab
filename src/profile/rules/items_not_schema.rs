//! `items-not-schema`: `items` is a list (draft-07 tuples), a boolean, or not a schema.

use super::*;

pub const RULE: Rule = Rule {
    id: "items-not-schema",
    checks: "`items` is not one schema object: the draft-07 tuple form `items: [...]`, \
             `items: true`/`false`, or a value that is no schema.",
    features: "`keyword-allowed: items (list)`, `keyword-allowed: items (true)`, `keyword-allowed: items (false)`, `structure: items-empty-list`, `keyword-allowed: items (not-a-schema)`",
    example: r#"{"type": "object", "properties": {"point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}}}"#,
    example_target: None,
    fix: "Use one schema for `items`; for a fixed-length tuple use `prefixItems` where the profile allows it, or an object with named fields.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::ITEMS,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyword_form_of(p, "items").is_some()
        || keyed_in(p, Kind::Structure, &[value::ITEMS_EMPTY_LIST])
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    use serde_json::Value;
    let Some(items) = n.items else { return };
    let form = match items {
        Value::Object(_) => return,
        Value::Array(a) if a.is_empty() => {
            cx.feature(
                At::Key(n.frame, "items"),
                Feat::Structure(value::ITEMS_EMPTY_LIST),
                n.placement,
                || "`items` is an empty list".into(),
            );
            return;
        }
        Value::Array(_) => value::ITEMS_LIST,
        Value::Bool(true) => value::BOOL_TRUE,
        Value::Bool(false) => value::BOOL_FALSE,
        _ => "not-a-schema",
    };
    let kind = json_kind(items);
    cx.feature(
        At::Key(n.frame, "items"),
        Feat::KeywordForm("items", form),
        n.placement,
        || format!("`items` is a JSON {kind}, not one schema"),
    );
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn forms_of_items() {
        let r = "items-not-schema";
        let s = json!({"type":"object","properties":{
            "a":{"type":"array","items":[{"type":"number"}]}, "b":{"type":"array","items":false},
            "c":{"type":"array","items":{"type":"string"}}, "d":{"type":"array","items":[]}}});
        assert_eq!(
            seen(r, s),
            pairs(&[
                ("/properties/a/items", "keyword-allowed: items (list)"),
                ("/properties/b/items", "keyword-allowed: items (false)"),
                ("/properties/d/items", "structure: items-empty-list"),
            ])
        );
    }
}
