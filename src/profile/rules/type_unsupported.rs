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
             JSON Schema type: no evidence yet whether T accepts it\"). Each standard name \
             in a `type` list is judged as the same name alone, at its place in the list \
             (`/type/1` for the `null` of `[\"string\", \"null\"]`), where a target rejects \
             the name alone and the profile does not reject the list itself (then \
             `type-list`'s error says it); where the name alone has no evidence either way, \
             the list's own case speaks for it. Other spellings (`Integer`, `dict`, `\"\"`, \
             ...) are `type-invalid`'s.",
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
    } else if let Ty::List(list) = n.ty {
        in_list(cx, n, list);
    }
}

/// Judges each standard name of a `type` list as the same name alone, at its place in the
/// list (`/type/1` for the `"null"` of `["string", "null"]`), as `type-invalid` judges the
/// other names: reported where the profile rejects the name alone (before, a target refusing
/// `type: "null"` was never said to refuse it in a list). Not where the name alone has no
/// evidence either way: the list's own case (`type-list: string,null`) is the evidence about
/// a list and its names, and `type-list` reports it when it is not allowed. Nor where the
/// profile rejects the list itself: `type-list`'s error says so, and its rewrite decides which
/// name is left to be judged alone. In collect mode nothing is recorded: a name in a list is
/// no `type-spelling` a case speaks for. Out of line: lists are rare, `node` runs for every
/// `type`.
#[inline(never)]
fn in_list(cx: &mut Cx<'_, '_>, n: &Node<'_>, list: &[serde_json::Value]) {
    let mut list_rejected = None;
    for (i, v) in list.iter().enumerate() {
        let Some(t) = v.as_str() else {
            continue;
        };
        let Some(at) = super::super::feature::standard_type_index(t) else {
            continue;
        };
        // A name given twice is judged once, at its first place.
        if !cx.rejects_standard_type(at, n.placement) || list[..i].contains(v) {
            continue;
        }
        let rejected = *list_rejected.get_or_insert_with(|| {
            let case = super::type_list::representative(list);
            cx.rejects(&Feat::TypeList(case), n.placement)
        });
        if rejected {
            return;
        }
        cx.feature_written(
            At::KeyIndex(n.frame, "type", i),
            Feat::TypeSpelling(t),
            n.placement,
            |m| {
                m.push_str("`\"");
                m.push_str(t);
                m.push_str("\"` in the `type` list, judged as `type: \"");
                m.push_str(t);
                m.push_str("\"` alone");
            },
            |_| false,
        );
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

    /// A standard name in a `type` list is judged as the same name alone where a target
    /// rejects it alone (before: never, whatever the evidence on `type: "null"`), at its place
    /// in the list; not where the list itself is rejected (`type-list`'s error), nor where the
    /// name alone has no evidence (the list's case speaks for it). The profiles are made here:
    /// no built-in one rejects a standard type.
    #[test]
    fn a_standard_name_in_a_type_list_is_judged_as_the_name_alone() {
        use crate::profile::Status::{Allowed, Rejected};
        let s = json!({"type":"object","properties":{
            "a":{"type":["string","null"]}, "b":{"type":["null","integer","string","null"]},
            "c":{"type":"null"}}});
        let at = |features: &[(&str, crate::profile::Status)]| {
            let p = nested_profile("test/target", features);
            let mut f: Vec<(String, String, crate::check::Level)> = check_under(&p, &s)
                .into_iter()
                .filter(|f| f.rule == "type-unsupported" && f.pointer.starts_with("/properties"))
                .map(|f| (f.pointer, f.parameter.to_string(), f.level))
                .collect();
            f.sort();
            f
        };
        let e = |p: &str| {
            (
                p.to_string(),
                "type-spelling: null".to_string(),
                crate::check::Level::Error,
            )
        };
        let allowed = [
            ("type-spelling: string", Allowed),
            ("type-spelling: integer", Allowed),
            ("type-spelling: object", Allowed),
            ("type-list: string,null", Allowed),
            ("type-list: string,integer", Allowed),
        ];
        let mut rejecting = allowed.to_vec();
        rejecting.push(("type-spelling: null", Rejected));
        assert_eq!(
            at(&rejecting),
            [
                e("/properties/a/type/1"),
                e("/properties/b/type/0"),
                e("/properties/c/type"),
            ]
        );
        // The list rejected as a list: `type-list`'s error, not the name's.
        let mut lists_rejected = rejecting.clone();
        lists_rejected[3].1 = Rejected;
        assert_eq!(
            at(&lists_rejected),
            [e("/properties/b/type/0"), e("/properties/c/type")]
        );
        // No evidence on `null` alone: the list's case speaks for it.
        let f = at(&allowed);
        assert!(f.iter().all(|(p, _, _)| p == "/properties/c/type"), "{f:?}");
        let m = check_under(&nested_profile("test/target", &rejecting), &s)
            .into_iter()
            .find(|f| f.pointer == "/properties/a/type/1")
            .unwrap();
        assert!(
            m.message
                .starts_with("`\"null\"` in the `type` list, judged as `type: \"null\"` alone"),
            "{}",
            m.message
        );
    }
}
