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
             `not-a-string`); the list itself is `type-list`'s. A string that joins type \
             names (`\"string, null\"`, `\"string|null\"`, `\"str | None\"`: names split at \
             `,` or `|`) is judged by its own spelling like any other, its words and fix saying \
             the list it means. A standard type as spelled (`integer`, `array`, ...) is \
             `type-unsupported`'s.",
    features: "`type-spelling: <spelling>` (every spelling but the standard types)",
    example: r#"{"type": "dict", "properties": {"weight": {"type": "float"}}}"#,
    example_target: None,
    fix: "Use a type every target of the profile accepts, spelled as JSON Schema does (dict → object, float/double → number, int/long → integer, str → string, list/tuple → array, bool → boolean).",
    repair: "partly: a standard type in another case (`Integer`, `STRING`) is written in lower case whenever the profile does not allow it as written, even without rejecting evidence (it names the same type wherever it is accepted); a known other spelling (`dict`, `float`, `str`, `tuple`, ...) is rewritten only when a target rejects it, and so is a string that joins type names, written as the list it means (then, where the profile takes no type list, as `type-list` rewrites one); `any`, `\"\"` and a `type` that is no string have no portable meaning",
    repairable: known_spelling,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::ODD_TYPE,
        ..Hooks::NONE
    },
};

/// Repairable: a spelling that means a JSON type (a standard type in another case, `dict`,
/// `float`, ...), which repair writes as that type, or a string that joins type names,
/// which repair writes as the list it means.
fn known_spelling(f: &Feat<'_>, _: &Repairing<'_>) -> bool {
    // A standard type as written is type-unsupported's finding, never this rule's; the check
    // stays so that this answer does not depend on which rule asks.
    matches!(f, Feat::TypeSpelling(t)
        if !super::super::feature::is_standard_type(t)
            && (super::super::feature::type_meant_by(t).is_some_and(|(std, _)| std != *t)
                || super::super::feature::joined_type_names(t).is_some()))
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
            // A spelling the walk read as a type (`dict`, `STRING`: `ty_means` not 0) joins
            // none: only the rest is split, so most spellings cost no look at their bytes.
            if n.ty_means == 0
                && let Some(names) = super::super::feature::joined_type_names(t)
            {
                return joined(cx, n, t, &names);
            }
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
    // A name that joins several (`["string, null"]`) is said as the names it joins, which
    // `type-list` judges the list by; its verdict is still the spelling's own.
    let joined = match v {
        serde_json::Value::String(t) => super::super::feature::joined_type_names(t),
        _ => None,
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
                if let Some(names) = &joined {
                    m.push_str(" but the names ");
                    for (j, name) in names.iter().enumerate() {
                        if j > 0 {
                            m.push_str(", ");
                        }
                        m.push_str("`\"");
                        m.push_str(name);
                        m.push_str("\"`");
                    }
                    m.push_str(" written as one string");
                }
            }
            other => {
                m.push_str("the `type` list holds a JSON ");
                m.push_str(json_kind(other));
                m.push_str(", not a type name");
            }
        },
        |m| {
            let Some(names) = &joined else {
                return false;
            };
            m.push_str("Write the names it joins as names of the list, each its own string (");
            for (j, name) in names.iter().enumerate() {
                if j > 0 {
                    m.push_str(", ");
                }
                m.push('"');
                m.push_str(name);
                m.push('"');
            }
            m.push_str(").");
            true
        },
    )
}

/// Reports `type: t`, a string that joins the type names `names` (`"string, null"`, read by
/// [`joined_type_names`](super::super::feature::joined_type_names)), judged as the spelling
/// it is (`type-spelling: string, null`: no case covers it, and where a target rejects what
/// the meta-schema refuses, that settles it), its words saying the list it means and its fix
/// what writes that list where the profile takes it: the list itself where it is allowed,
/// else what `type-list`'s fix says for such a list. Not memoised: the fix depends on the
/// placement's verdict on the list. Out of line: rare, and kept out of the hot `node`.
#[cold]
#[inline(never)]
fn joined(cx: &mut Cx<'_, '_>, n: &Node<'_>, t: &str, names: &[&str]) {
    let list: Vec<serde_json::Value> = names.iter().map(|&s| s.into()).collect();
    let shown = serde_json::Value::from(list.clone())
        .to_string()
        .replace(',', ", ");
    let case = super::type_list::representative(&list);
    // `Some(None)`: the profile allows the list; in collect mode (`None`) no fix is written.
    let list_allowed = matches!(cx.judged(&Feat::TypeList(case), n.placement), Some(None));
    let one = names.first().copied().unwrap_or_default();
    cx.feature_written(
        At::Key(n.frame, "type"),
        Feat::TypeSpelling(t),
        n.placement,
        |m| {
            m.push_str("`type: \"");
            m.push_str(t);
            m.push_str("\"` is not one of JSON Schema's types but the list `");
            m.push_str(&shown);
            m.push_str("` written as one string");
        },
        |m| {
            m.push_str("Write the names as a list, `type: ");
            m.push_str(&shown);
            m.push('`');
            if list_allowed {
                m.push_str(", which the profile allows.");
                return true;
            }
            m.push_str(", where the profile takes type lists; ");
            m.push_str(match case {
                value::LIST_WITH_NULL => {
                    "else the one type besides `null`, with the property left out of \
                     `required` (or `nullable: true` where the profile allows it)."
                }
                value::LIST_OF_ONE => "else the one type it names, `type: \"",
                _ => "else `anyOf` with one branch per type, where allowed.",
            });
            if case == value::LIST_OF_ONE {
                m.push_str(one);
                m.push_str("\"`.");
            }
            true
        },
    )
}

/// Reports `type: t` (a string), judged as `type-spelling: spelling`, under the rule whose
/// hook is running: `type-unsupported` calls it for the standard types, this rule for the
/// rest, so both write the finding alike.
pub(super) fn spelling_of(cx: &mut Cx<'_, '_>, n: &Node<'_>, t: &str, spelling: &str) {
    // The most frequent finding in real tool definitions: written once per spelling. Both
    // rules that call this answer `repairable` from the spelling alone ([`known_spelling`],
    // `never`).
    cx.feature_memo_by_feature(
        At::Key(n.frame, "type"),
        Feat::TypeSpelling(spelling),
        n.placement,
        t,
        |m| {
            m.push_str("`type: \"");
            m.push_str(t);
            m.push_str("\"`");
            if !super::type_unsupported::is_standard(t) {
                m.push_str(" is not one of JSON Schema's types");
            }
        },
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

    /// A string that joins type names (`"string, null"`) is said as the list it means, in
    /// its words and its fix, while its verdict stays its own spelling's: no case covers it
    /// (a warning), and under `anthropic/messages` the meta-schema's refusal settles it
    /// (before: the words said only that it is no type, and the fix listed renamings).
    #[test]
    fn a_joined_spelling_is_said_as_the_list_it_means() {
        use crate::check::Level::{Error, Warning};
        let set = crate::profile::embedded().expect("built-in profiles load");
        for (t, list) in [
            ("string, null", r#"["string", "null"]"#),
            ("string,null", r#"["string", "null"]"#),
            ("string | null", r#"["string", "null"]"#),
            ("string|integer", r#"["string", "integer"]"#),
        ] {
            let s = json!({"type":"object","properties":{"a":{"type":t}}});
            assert_eq!(
                seen("type-invalid", s.clone()),
                pairs(&[("/properties/a/type", &format!("type-spelling: {t}"))])
            );
            for (target, level, evidence) in [
                (
                    "openai/chat",
                    Warning,
                    format!("no case covers `type-spelling: {t}`"),
                ),
                (
                    "anthropic/messages",
                    Error,
                    "rejected by anthropic/messages".to_string(),
                ),
            ] {
                let p = crate::profile::CompiledProfile::new(set.get(target).unwrap());
                let f: Vec<_> = check_under(&p, &s)
                    .into_iter()
                    .filter(|f| f.rule == "type-invalid")
                    .collect();
                assert_eq!(f.len(), 1, "{f:#?}");
                assert_eq!(f[0].level, level, "{target} {t}");
                assert_eq!(f[0].parameter, format!("type-spelling: {t}"));
                let said = format!(
                    "`type: \"{t}\"` is not one of JSON Schema's types but the list `{list}` \
                     written as one string"
                );
                assert!(f[0].message.starts_with(&said), "{}", f[0].message);
                assert!(f[0].message.contains(&evidence), "{}", f[0].message);
                assert!(
                    f[0].fix
                        .starts_with(&format!("Write the names as a list, `type: {list}`")),
                    "{}",
                    f[0].fix
                );
            }
        }
        // Not joined: one name, an empty piece, a piece that means no type.
        for t in ["string,", "string, foo", "any|null"] {
            let s = json!({"type":"object","properties":{"a":{"type":t}}});
            let m = messages("type-invalid", s);
            assert!(!m[0].contains("written as one string"), "{}", m[0]);
        }
    }

    /// A joined name in a `type` list is said as the names it joins, at its place.
    #[test]
    fn a_joined_name_in_a_type_list_is_said_as_the_names_it_joins() {
        let s = json!({"type":"object","properties":{"a":{"type":["string, null"]}}});
        assert_eq!(
            seen("type-invalid", s.clone()),
            pairs(&[("/properties/a/type/0", "type-spelling: string, null")])
        );
        let m = messages("type-invalid", s.clone());
        assert!(
            m[0].starts_with(
                "`\"string, null\"` in the `type` list is not one of JSON Schema's types but \
                 the names `\"string\"`, `\"null\"` written as one string"
            ),
            "{}",
            m[0]
        );
        let f = fixes("type-invalid", s);
        assert_eq!(
            f[0],
            "Write the names it joins as names of the list, each its own string (\"string\", \
             \"null\")."
        );
    }
}
