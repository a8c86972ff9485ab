//! `type-invalid`: a `type` spelled in a way the profile does not allow, other than one of
//! JSON Schema's own types as written (`type-unsupported`).

use super::*;

pub const RULE: Rule = Rule {
    id: "type-invalid",
    checks: "A `type` that is not one of JSON Schema's seven types as the standard spells \
             them, judged by its exact spelling (`dict`, `float`, `int`, `str`, `any`, \
             `tuple`, `enum`, `String`, `OBJECT`, `\"\"`, ...). A `type` that is neither a \
             string nor a list is spelled `not-a-string`, JSON null `null (JSON null)`, and \
             the empty list, which names no type (the meta-schema wants at least one), `[]`. \
             Each name in a `type` list is judged as the same name alone, at its place in the \
             list (`/type/0` for `[\"strng\", \"null\"]`; a name that is no string is \
             `not-a-string`); the list itself is `type-list`'s. A standard type as spelled \
             (`integer`, `array`, ...) is `type-unsupported`'s.",
    features: "`type-spelling: <spelling>` (every spelling but the standard types)",
    example: r#"{"type": "dict", "properties": {"weight": {"type": "float"}}}"#,
    example_target: None,
    fix: "Use a type every target of the profile accepts, spelled as JSON Schema does (dict → object, float/double → number, int/long → integer, str → string, list/tuple → array, bool → boolean).",
    repair: "partly: a standard type in another case (`Integer`, `STRING`) is written in lower case whenever the profile does not allow it as written, even without rejecting evidence (it names the same type wherever it is accepted); a known other spelling (`dict`, `float`, `str`, `tuple`, ...) is rewritten only when a target rejects it; `any`, `\"\"` and a `type` that is no string have no portable meaning",
    repairable: known_spelling,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::TYPE,
        ..Hooks::NONE
    },
};

/// Repairable: a spelling that means a JSON type (a standard type in another case, `dict`,
/// `float`, ...), which repair writes as that type.
fn known_spelling(f: &Feat<'_>, _: &Repairing<'_>) -> bool {
    // A standard type as written is type-unsupported's finding, never this rule's; the check
    // stays so that this answer does not depend on which rule asks.
    matches!(f, Feat::TypeSpelling(t)
        if !super::super::feature::is_standard_type(t)
            && super::super::feature::type_meant_by(t).is_some_and(|(std, _)| std != *t))
}

/// Every `type-spelling` but the standard types as written, which are `type-unsupported`'s.
fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::TypeSpelling, t) if !super::type_unsupported::is_standard(t))
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    match n.ty {
        // The walk's read of `type` says whether it is a standard type as spelled.
        Ty::One(_) if n.ty_standard.is_some() => {}
        Ty::One(t) => {
            let spelling = if t.is_empty() {
                value::TYPE_EMPTY_STRING
            } else {
                t
            };
            spelling_of(cx, n, t, spelling);
        }
        // Each name in a list is judged as the same name alone is: the list itself is
        // `type-list`'s, whatever its names say, and a misspelt name is this rule's (before,
        // `["strng", "null"]` passed wherever lists are taken). A standard name as written is
        // `type-unsupported`'s question, not a spelling.
        Ty::List(list) => {
            for (i, v) in list.iter().enumerate() {
                item(cx, n, i, v);
            }
        }
        // `type: null` at the root is root-not-object's `root-shape: type-null`.
        Ty::Invalid(serde_json::Value::Null) if n.is_root() => {}
        Ty::Invalid(v) => {
            let kind = json_kind(v);
            // A list here is the empty one (the walk reads any other as `Ty::List`): it is
            // no misspelt name but no name at all, and said so (before: `not-a-string`).
            let spelling = match v {
                serde_json::Value::Null => value::TYPE_JSON_NULL,
                serde_json::Value::Array(_) => value::TYPE_EMPTY_LIST,
                _ => value::TYPE_NOT_A_STRING,
            };
            cx.feature(
                At::Key(n.frame, "type"),
                Feat::TypeSpelling(spelling),
                n.placement,
                || match v {
                    serde_json::Value::Array(_) => "`type` is an empty list, which names no \
                                                    type (JSON Schema wants at least one) and \
                                                    so allows no value"
                        .to_string(),
                    _ => format!("`type` is a JSON {kind}, not a type name"),
                },
            )
        }
        _ => {}
    }
}

/// Reports the `i`-th name `v` of a `type` list, at `/type/i`, unless it is a standard type
/// as the standard spells it: a string by its spelling, as [`spelling_of`] judges `type: v`,
/// any other JSON value as `not-a-string` (JSON null as `null (JSON null)`). Not memoised
/// as [`spelling_of`] is: its message names the list, not `type: "t"`.
fn item(cx: &mut Cx<'_, '_>, n: &Node<'_>, i: usize, v: &serde_json::Value) {
    let spelling = match v {
        serde_json::Value::String(t) if super::type_unsupported::is_standard(t) => return,
        serde_json::Value::String(t) if t.is_empty() => value::TYPE_EMPTY_STRING,
        serde_json::Value::String(t) => t.as_str(),
        serde_json::Value::Null => value::TYPE_JSON_NULL,
        _ => value::TYPE_NOT_A_STRING,
    };
    cx.feature_written(
        At::KeyIndex(n.frame, "type", i),
        Feat::TypeSpelling(spelling),
        n.placement,
        |m| match v {
            serde_json::Value::String(t) => {
                m.push_str("`\"");
                m.push_str(t);
                m.push_str("\"` in the `type` list is not one of JSON Schema's types");
            }
            other => {
                m.push_str("the `type` list holds a JSON ");
                m.push_str(json_kind(other));
                m.push_str(", not a type name");
            }
        },
        |_| false,
    )
}

/// Reports `type: t` (a string), judged as `type-spelling: spelling`, under the rule whose
/// hook is running: `type-unsupported` calls it for the standard types, this rule for the
/// rest, so both write the finding alike.
pub(super) fn spelling_of(cx: &mut Cx<'_, '_>, n: &Node<'_>, t: &str, spelling: &str) {
    // The most frequent finding in real tool definitions: written once per spelling.
    cx.feature_memo(
        At::Key(n.frame, "type"),
        Feat::TypeSpelling(spelling),
        n.placement,
        Some(t),
        |m| {
            m.push_str("`type: \"");
            m.push_str(t);
            m.push_str("\"`");
            if !super::type_unsupported::is_standard(t) {
                m.push_str(" is not one of JSON Schema's types");
            }
        },
        |_| false,
    )
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn every_spelling_is_reported_as_written() {
        let r = "type-invalid";
        let s = json!({"type":"dict","properties":{
            "w":{"type":"float"}, "n":{"type":7}, "l":{"type":["string","null"]},
            "e":{"type":""}, "z":{"type":null}, "none":{"type":[]}}});
        assert_eq!(
            seen(r, s),
            pairs(&[
                ("/type", "type-spelling: dict"),
                ("/properties/w/type", "type-spelling: float"),
                ("/properties/n/type", "type-spelling: not-a-string"),
                ("/properties/e/type", "type-spelling: \"\""),
                ("/properties/z/type", "type-spelling: null (JSON null)"),
                ("/properties/none/type", "type-spelling: []"),
            ])
        );
        // Root `type: null` is root-not-object's.
        assert!(seen(r, json!({"type":null,"properties":{}})).is_empty());
    }

    /// `type: []` names no type: it is said so and spelled `[]`, not `not-a-string` (a name
    /// that is there but no string), in the finding's parameter and in its words.
    #[test]
    fn an_empty_list_is_said_to_name_no_type() {
        let s = json!({"type":"object","properties":{"a":{"type":[]},"b":{"type":5}}});
        assert_eq!(
            seen("type-invalid", s.clone()),
            pairs(&[
                ("/properties/a/type", "type-spelling: []"),
                ("/properties/b/type", "type-spelling: not-a-string"),
            ])
        );
        let m = messages("type-invalid", s);
        assert_eq!(m.len(), 2, "{m:?}");
        assert!(
            m[0].starts_with(
                "`type` is an empty list, which names no type (JSON Schema wants at least \
                 one) and so allows no value"
            ),
            "{}",
            m[0]
        );
        assert!(
            m[1].starts_with("`type` is a JSON number, not a type name"),
            "{}",
            m[1]
        );
    }

    /// A name in a `type` list is judged as the same name alone, at its place in the list
    /// (before: `["strng", "null"]` passed under every target that takes lists, while
    /// `"strng"` was reported). Standard names, and a name given twice, are no spelling.
    #[test]
    fn a_name_in_a_type_list_is_judged_as_the_name_alone() {
        let r = "type-invalid";
        let s = json!({"type":"object","properties":{
            "a":{"type":["strng","null"]}, "b":{"type":["integer","Number"]},
            "c":{"type":["int"]}, "d":{"type":[1]}, "e":{"type":["",null]},
            "f":{"type":["string","string"]}, "g":{"type":["string","null"]}}});
        assert_eq!(
            seen(r, s),
            pairs(&[
                ("/properties/a/type/0", "type-spelling: strng"),
                ("/properties/b/type/1", "type-spelling: Number"),
                ("/properties/c/type/0", "type-spelling: int"),
                ("/properties/d/type/0", "type-spelling: not-a-string"),
                ("/properties/e/type/0", "type-spelling: \"\""),
                ("/properties/e/type/1", "type-spelling: null (JSON null)"),
            ])
        );
    }
}
