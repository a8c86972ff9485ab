//! `type-invalid`: a `type` spelled in a way the profile does not allow.

use super::*;

pub const RULE: Rule = Rule {
    id: "type-invalid",
    checks: "A `type` value, judged by its exact spelling: JSON Schema's seven types, and the \
             non-standard spellings found in real tool definitions (`dict`, `float`, `int`, \
             `str`, `any`, `tuple`, `enum`, `String`, `OBJECT`, `\"\"`, ...). A `type` that is \
             neither a string nor a list is spelled `not-a-string`.",
    features: "`type-spelling: <spelling>`",
    example: r#"{"type": "dict", "properties": {"weight": {"type": "float"}}}"#,
    fix: "Use JSON Schema's lowercase names: dict → object, float/double → number, int/long → integer, str → string, list/tuple → array, bool → boolean.",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        ..Hooks::NONE
    },
};

/// The spelling used for a `type` that is neither a string nor a list.
pub const NOT_A_STRING: &str = "not-a-string";

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::TypeSpelling, _))
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    match n.ty {
        Ty::One(t) => cx.feature(
            At::Key(n.frame, "type"),
            Feat::TypeSpelling(t),
            n.placement,
            || {
                if super::super::feature::STANDARD_TYPES.contains(&t) {
                    format!("`type: \"{t}\"`")
                } else {
                    format!("`type: \"{t}\"` is not one of JSON Schema's types")
                }
            },
        ),
        Ty::Invalid(v) => {
            let kind = json_kind(v);
            cx.feature(
                At::Key(n.frame, "type"),
                Feat::TypeSpelling(NOT_A_STRING),
                n.placement,
                || format!("`type` is a JSON {kind}, not a type name"),
            )
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn every_spelling_is_reported_as_written() {
        let r = "type-invalid";
        assert_eq!(
            seen(
                r,
                json!({"type":"dict","properties":{"w":{"type":"float"},"n":{"type":7},"l":{"type":["string","null"]}}})
            ),
            pairs(&[
                ("/type", "type-spelling: dict"),
                ("/properties/w/type", "type-spelling: float"),
                ("/properties/n/type", "type-spelling: not-a-string"),
            ])
        );
    }
}
