//! `type-unsupported`: one of JSON Schema's seven types, spelled as the standard writes it,
//! that a target of the profile rejects or has no evidence for.
//!
//! Split from `type-invalid` so that a finding on `type: "integer"` is not titled "invalid"
//! (SARIF and GitHub annotations show the rule id as the title): the type is valid JSON
//! Schema, only its support is in question, as with `keyword-unsupported` and
//! `format-unsupported`. Both rules judge `type-spelling` features; each owns its half.

use super::*;

pub const RULE: Rule = Rule {
    id: "type-unsupported",
    checks: "A `type` that is one of JSON Schema's seven types exactly as the standard spells \
             it (`string`, `number`, `integer`, `boolean`, `object`, `array`, `null`), judged \
             by the `type-spelling` case for that type. The type is not wrong: where a target \
             has no evidence either way the finding is a warning that says so (\"a standard \
             JSON Schema type: no evidence yet whether T accepts it\"). Other spellings \
             (`Integer`, `dict`, `\"\"`, ...) are `type-invalid`'s.",
    features: "`type-spelling: <standard type>`",
    example: r#"{"type": "object", "properties": {"note": {"type": "null"}}}"#,
    example_target: None,
    fix: "Nothing to fix while no target is known to reject the type (no evidence either way: the type is valid JSON Schema). A standard type has no other spelling: where a target rejects `null`, leave the argument out of `required` instead of allowing null; where it rejects another type, write the value as a type it accepts (e.g. a `string`, saying the format in the description).",
    repair: "no",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::TYPE,
        ..Hooks::NONE
    },
};

/// Whether `spelling` is a standard type as the standard writes it: this rule's half of the
/// `type-spelling` features, `type-invalid` having the rest.
pub fn is_standard(spelling: &str) -> bool {
    super::super::feature::is_standard_type(spelling)
}

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::TypeSpelling, t) if is_standard(t))
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if let (Ty::One(t), Some(i)) = (n.ty, n.ty_standard) {
        // Nearly every subschema has a standard type, which most profiles allow: answered by
        // position before a finding is begun.
        if cx.allows_standard_type(usize::from(i), n.placement) {
            return;
        }
        super::type_invalid::spelling_of(cx, n, t, t);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    /// Standard spellings are this rule's, every other spelling `type-invalid`'s: a finding on
    /// `type: "integer"` is never titled "type-invalid".
    #[test]
    fn standard_spellings_only() {
        let s = json!({"type":"object","properties":{
            "n":{"type":"integer"}, "t":{"type":"array","items":{"type":"null"}},
            "u":{"type":"Integer"}, "d":{"type":"dict"}, "e":{"type":""},
            "l":{"type":["string","null"]}}});
        assert_eq!(
            seen("type-unsupported", s.clone()),
            pairs(&[
                ("/type", "type-spelling: object"),
                ("/properties/n/type", "type-spelling: integer"),
                ("/properties/t/type", "type-spelling: array"),
                ("/properties/t/items/type", "type-spelling: null"),
            ])
        );
        assert_eq!(
            seen("type-invalid", s),
            pairs(&[
                ("/properties/u/type", "type-spelling: Integer"),
                ("/properties/d/type", "type-spelling: dict"),
                ("/properties/e/type", "type-spelling: \"\""),
            ])
        );
    }

    /// Each case parameter has one owner, split by spelling.
    #[test]
    fn owners_split_by_spelling() {
        let owner = |p: &str| super::super::owner(p).map(|r| r.id);
        for t in crate::profile::feature::STANDARD_TYPES {
            assert_eq!(
                owner(&format!("type-spelling: {t}")),
                Some("type-unsupported")
            );
        }
        for t in [
            "Integer",
            "OBJECT",
            "dict",
            "\"\"",
            "not-a-string",
            "[]",
            "null (JSON null)",
        ] {
            assert_eq!(owner(&format!("type-spelling: {t}")), Some("type-invalid"));
        }
    }
}
