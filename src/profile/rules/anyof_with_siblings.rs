//! `anyof-with-siblings`: `anyOf` next to other validation keywords.

use super::*;

pub const RULE: Rule = Rule {
    id: "anyof-with-siblings",
    checks: "A (non-root) schema has `anyOf` together with other keywords that constrain the \
             value (`type`, `properties`, `required`, `items`, ...); annotations such as \
             `description`, `title` and `default` do not count.",
    features: "`keyword-allowed: anyOf (with siblings)`",
    example: r#"{"type": "object", "properties": {"skill": {"type": "string", "anyOf": [{"const": "a"}, {"type": "array", "items": {"type": "string"}}]}}}"#,
    example_target: Some("vertex/v1/parameters"),
    fix: "Move the sibling keywords into every `anyOf` branch, leaving `anyOf` alone (with at most a description).",
    repair: "partly: the sibling keywords move into every branch (`description` and `title` stay); not when a branch is no object schema or says a sibling keyword otherwise",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::ANY_OF,
        ..Hooks::NONE
    },
};

/// What `repair::fixes::keywords::push_siblings` rewrites.
fn repairable(_: &Feat<'_>, r: &Repairing<'_>) -> bool {
    r.node()
        .is_some_and(|m| crate::repair::any_of_siblings_movable(m).is_ok())
}

fn owns(p: &Param) -> bool {
    keyword_form_of(p, "anyOf").is_some_and(|f| f == value::WITH_SIBLINGS)
}

/// Whether `anyOf` at this node has constraining siblings.
pub fn has_siblings(n: &Node<'_>) -> bool {
    n.map.is_some_and(|m| {
        m.keys()
            .any(|k| k != "anyOf" && !ANNOTATIONS.contains(&k.as_str()) && !k.starts_with("x-"))
    })
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(any_of) = n.any_of else { return };
    // An `anyOf` that is no list of schemas (`anyOf: []`) is keyword-value-invalid's.
    if n.is_root()
        || !has_siblings(n)
        || super::keyword_value_invalid::form("anyOf", any_of).is_some()
    {
        return;
    }
    cx.feature(
        At::Key(n.frame, "anyOf"),
        Feat::KeywordForm("anyOf", value::WITH_SIBLINGS),
        n.placement,
        || {
            let others: Vec<&str> = n
                .map
                .map(|m| {
                    m.keys()
                        .map(String::as_str)
                        .filter(|k| *k != "anyOf" && !ANNOTATIONS.contains(k))
                        .collect()
                })
                .unwrap_or_default();
            format!("`anyOf` next to {}", others.join(", "))
        },
    );
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn siblings_that_constrain() {
        let r = "anyof-with-siblings";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{
                "a":{"type":"string","anyOf":[{"const":"x"}]},
                "b":{"description":"d","default":null,"anyOf":[{"type":"string"},{"type":"null"}]}}})
            ),
            pairs(&[(
                "/properties/a/anyOf",
                "keyword-allowed: anyOf (with siblings)"
            )])
        );
    }
}
