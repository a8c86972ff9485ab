//! `enum-not-string`: an `enum` with members that are not strings.

use super::*;

pub const RULE: Rule = Rule {
    id: "enum-not-string",
    checks: "An `enum` lists numbers only, a mix of kinds, or a `null` member.",
    features: "`keyword-allowed: enum (numbers)`, `keyword-allowed: enum (mixed)`, `keyword-allowed: enum (null member)`",
    example: r#"{"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2, 3]}}}"#,
    example_target: None,
    fix: "Use string members (\"1\", \"2\", ...) with `type: string`, or `minimum`/`maximum` for numbers; express null by leaving the property optional.",
    repair: "partly: an `enum` of numbers or of mixed kinds is dropped and its values said in the description (reported as lost), unless its schema has no `type` that repair can write (`type-missing`: an untyped `enum` of mixed kinds is left to its author); a `null` member is removed and the property made optional (a schema that is no property is left); a member the `type` rules out (`null` beside `type: string`) never matched and is removed, nothing lost",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::ENUM,
        ..Hooks::NONE
    },
};

const FORMS: &[&str] = &[value::ENUM_NUMBERS, value::ENUM_MIXED, value::ENUM_NULL];

/// Repair drops an `enum` of numbers or mixed kinds, saying its values in the description
/// (unless the schema is left without a `type` repair can write: [`Repairing::left_untyped`]), and takes a `null` member out of a property's `enum`, making the property optional; a
/// member the schema's `type` rules out goes anywhere, with nothing lost.
fn repairable(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    match f {
        Feat::KeywordForm(_, value::ENUM_NUMBERS | value::ENUM_MIXED) => !r.left_untyped(),
        Feat::KeywordForm(_, value::ENUM_NULL) => {
            let node = (r.node_pointer)();
            crate::repair::place::property_of(&node).is_some()
                || r.root
                    .and_then(|s| s.pointer(&node))
                    .and_then(serde_json::Value::as_object)
                    .is_some_and(|m| crate::json::live_enum_members(m).is_some())
        }
        _ => false,
    }
}

fn owns(p: &Param) -> bool {
    keyword_form_of(p, "enum").is_some_and(|f| FORMS.contains(&f.as_str()))
}

/// The form of an `enum` value: `None` for a non-empty list of strings (plain `enum`).
pub fn form(v: &serde_json::Value) -> Option<&'static str> {
    let serde_json::Value::Array(members) = v else {
        return Some(value::ENUM_NOT_ARRAY);
    };
    if members.is_empty() {
        return Some(value::ENUM_EMPTY);
    }
    if members.iter().any(serde_json::Value::is_null) {
        return Some(value::ENUM_NULL);
    }
    if members.iter().all(serde_json::Value::is_string) {
        return None;
    }
    if members.iter().all(serde_json::Value::is_number) {
        return Some(value::ENUM_NUMBERS);
    }
    Some(value::ENUM_MIXED)
}

/// What the members other than `null` are, for an `enum` with a `null` member: a `null` says
/// nothing of them, and a target that rejects numbers or mixed kinds rejects them with it.
fn besides_null(v: &serde_json::Value) -> Option<&'static str> {
    let rest = || v.as_array().into_iter().flatten().filter(|m| !m.is_null());
    if rest().all(serde_json::Value::is_string) {
        None
    } else if rest().all(serde_json::Value::is_number) {
        Some(value::ENUM_NUMBERS)
    } else {
        Some(value::ENUM_MIXED)
    }
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(e) = n.enum_ else { return };
    let form = form(e).filter(|f| FORMS.contains(f));
    let also = form
        .filter(|f| *f == value::ENUM_NULL)
        .and_then(|_| besides_null(e));
    for f in form.into_iter().chain(also) {
        cx.feature(
            At::Key(n.frame, "enum"),
            Feat::KeywordForm("enum", f),
            n.placement,
            || {
                match f {
                    value::ENUM_NULL => "`enum` with a `null` member (null member)",
                    value::ENUM_NUMBERS => "`enum` of numbers only (numbers)",
                    _ => "`enum` mixing members of different kinds (mixed)",
                }
                .to_string()
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn messages_name_the_kind_of_members() {
        let m = messages(
            "enum-not-string",
            json!({"type":"object","properties":{
                "a":{"enum":[1,2]}, "b":{"enum":["x",1]}, "c":{"enum":["x",null]}}}),
        );
        let starts: Vec<&str> = m.iter().map(|m| m.split(':').next().unwrap()).collect();
        assert_eq!(
            starts,
            [
                "`enum` of numbers only (numbers)",
                "`enum` mixing members of different kinds (mixed)",
                "`enum` with a `null` member (null member)",
            ]
        );
    }

    /// A `null` member says nothing of the others: numbers or mixed kinds beside it are
    /// reported too (Gemini rejects a mixed `enum` with a `null` in it as without).
    #[test]
    fn a_null_member_does_not_hide_the_others_kinds() {
        let r = "enum-not-string";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"enum":["x",1,null]},
                    "b":{"enum":[1,null]},"c":{"enum":["x",null]},"d":{"enum":[null]}}})
            ),
            pairs(&[
                ("/properties/a/enum", "keyword-allowed: enum (null member)"),
                ("/properties/a/enum", "keyword-allowed: enum (mixed)"),
                ("/properties/b/enum", "keyword-allowed: enum (null member)"),
                ("/properties/b/enum", "keyword-allowed: enum (numbers)"),
                ("/properties/c/enum", "keyword-allowed: enum (null member)"),
                ("/properties/d/enum", "keyword-allowed: enum (null member)"),
            ])
        );
    }

    #[test]
    fn enum_member_kinds() {
        let r = "enum-not-string";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{
                "a":{"enum":[1,2]}, "b":{"enum":["x",1]}, "c":{"enum":["x",null]}, "d":{"enum":["x"]}, "e":{"enum":[]}}})
            ),
            pairs(&[
                ("/properties/a/enum", "keyword-allowed: enum (numbers)"),
                ("/properties/b/enum", "keyword-allowed: enum (mixed)"),
                ("/properties/c/enum", "keyword-allowed: enum (null member)"),
            ])
        );
    }
}
