//! Reading a JSON Pointer into a schema with schema semantics: which tokens are keywords,
//! which are member names (under `properties`, `$defs`, ...), which are indices. A property
//! literally named `default` or `type` is a member name, never a keyword.

use serde_json::Value;

use crate::schema::{LIST_OF_SCHEMAS, MAP_OF_SCHEMAS, ONE_SCHEMA};

/// One step of a pointer read with schema semantics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A keyword of the current subschema whose value is a subschema (`not`, `items`,
    /// `additionalProperties`, ...) or a map/list of them (followed by a member or index).
    Applicator(String),
    /// A member of a map keyword: `properties/<name>`.
    Member(String, String),
    /// An element of a list keyword: `anyOf/<n>`.
    Element(String, usize),
    /// A keyword whose value is not a subschema (`type`, `enum`, `required`, `minimum`...),
    /// with what follows inside its value (`required/0` → `["0"]`).
    Keyword(String, Vec<String>),
}

/// Unescapes and splits an RFC 6901 pointer (`""` → no tokens).
pub fn tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Reads `pointer` step by step.
pub fn steps(pointer: &str) -> Vec<Step> {
    let toks = tokens(pointer);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].as_str();
        let next = toks.get(i + 1);
        // A `dependencies` member is a schema when the pointer goes on into it by a keyword
        // (its schema form); a property list goes on by an index, and alone it may be either.
        let into_dependency =
            t == "dependencies" && toks.get(i + 2).is_some_and(|k| k.parse::<usize>().is_err());
        if (MAP_OF_SCHEMAS.contains(&t) || into_dependency)
            && let Some(name) = next
        {
            out.push(Step::Member(t.to_string(), name.clone()));
            i += 2;
        } else if (LIST_OF_SCHEMAS.contains(&t) || t == "items")
            && let Some(n) = next.and_then(|n| n.parse::<usize>().ok())
        {
            out.push(Step::Element(t.to_string(), n));
            i += 2;
        } else if (ONE_SCHEMA.contains(&t) || t == "items") && next.is_some() {
            out.push(Step::Applicator(t.to_string()));
            i += 1;
        } else {
            out.push(Step::Keyword(t.to_string(), toks[i + 1..].to_vec()));
            break;
        }
    }
    out
}

/// When `pointer` names keyword `keyword` of a subschema, that subschema's pointer.
pub fn keyword_owner(pointer: &str, keyword: &str) -> Option<String> {
    match steps(pointer).last() {
        Some(Step::Keyword(k, rest)) if k == keyword && rest.is_empty() => {
            Some(pointer[..pointer.len() - escaped(keyword).len() - 1].to_string())
        }
        _ => None,
    }
}

/// When `pointer` names keyword `keyword` of a subschema or a place inside its value
/// (`/required/1`: the second name in `required`), that subschema's pointer.
pub fn keyword_value_owner(pointer: &str, keyword: &str) -> Option<String> {
    match steps(pointer).last() {
        Some(Step::Keyword(k, rest)) if k == keyword => {
            let suffix: usize = std::iter::once(k)
                .chain(rest)
                .map(|t| escaped(t).len() + 1)
                .sum();
            Some(pointer[..pointer.len() - suffix].to_string())
        }
        _ => None,
    }
}

/// When `pointer` ends in a keyword (whatever it is), that keyword and its subschema's pointer.
pub fn split_keyword(pointer: &str) -> Option<(String, String)> {
    match steps(pointer).last() {
        Some(Step::Keyword(k, rest)) if rest.is_empty() => Some((
            pointer[..pointer.len() - escaped(k).len() - 1].to_string(),
            k.clone(),
        )),
        _ => None,
    }
}

/// When `pointer` names a member of `properties`: the object schema's pointer and the name.
pub fn property_of(pointer: &str) -> Option<(String, String)> {
    match steps(pointer).last() {
        Some(Step::Member(kw, name)) if kw == "properties" => {
            let suffix = format!("/properties/{}", escaped(name));
            Some((
                pointer[..pointer.len() - suffix.len()].to_string(),
                name.clone(),
            ))
        }
        _ => None,
    }
}

fn escaped(token: &str) -> String {
    crate::json::escape_token(token)
}

/// Names every change and refusal of `r` at its place in `original`, the schema as given,
/// from its place in `made`, the schema repair or compile made ([`original_place`]). A
/// definition inlined at two places is repaired at each, and both name the one place the user
/// edits: the same line twice is said once, so the count of losses is the count in the file.
pub fn name_as_given(r: &mut super::ToolRepair, original: &Value, made: &Value) {
    let places = r.changes.iter_mut().map(|c| &mut c.pointer);
    for pointer in places.chain(r.refusals.iter_mut().map(|f| &mut f.pointer)) {
        *pointer = original_place(original, made, pointer);
    }
    let mut said = std::collections::HashSet::new();
    r.changes.retain(|c| said.insert(c.clone()));
    let mut said = std::collections::HashSet::new();
    r.refusals.retain(|f| said.insert(f.clone()));
}

/// Whether some subschema of `schema` holds a `$ref`: only then can repair's places (in a
/// copy with what references reach inlined) differ from the places as written.
pub fn has_ref(schema: &Value) -> bool {
    // Counted, not walked: compile asks it of every tool, megabytes of schema among them.
    crate::schema::count(schema).refers
}

/// The place in `original` (the schema as the user wrote it; for compile, the canonical one,
/// with the type spellings compile names) of `pointer`, a place in `compiled` (the schema
/// repair or compile made, or was making when it refused the tool): every change line and refusal names the schema as
/// given, the one the user edits. Two moves are followed back: a schema strict mode wrapped
/// in `anyOf: [schema, {"type": "null"}]` (`…/anyOf/0` where the original schema does not
/// accept null) is that schema, and what repair inlined from a local `$ref` is at the place
/// the reference reaches (each place where a definition was inlined names the definition).
/// What has no original place (a keyword compile wrote) is named below the original place of
/// its schema.
pub fn original_place(original: &Value, compiled: &Value, pointer: &str) -> String {
    followed_back(original, compiled, pointer).0
}

/// The schema of `original` at the place of `pointer` ([`original_place`]) and that place,
/// where `pointer` names a place `original` has: `None` where it names one `original` lacks
/// (a keyword compile wrote), or a `$ref` on the way cannot be followed.
pub fn original_schema<'v>(
    original: &'v Value,
    compiled: &Value,
    pointer: &str,
) -> Option<(&'v Value, String)> {
    let (place, found) = followed_back(original, compiled, pointer);
    found.map(|schema| (schema, place))
}

/// [`original_place`], and the value of `original` there (`None` past a place it lacks).
fn followed_back<'v>(
    original: &'v Value,
    compiled: &Value,
    pointer: &str,
) -> (String, Option<&'v Value>) {
    let tokens = tokens(pointer);
    fn child<'v>(v: &'v Value, t: &str) -> Option<&'v Value> {
        match v {
            Value::Object(o) => o.get(t),
            Value::Array(a) => t.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        }
    }
    // A wrap holds nothing beside its `anyOf` but the description it lifts out
    // (`wire::wrap_with_null`): `{type: object, anyOf: [{…}, {type: null}]}` as given is no
    // wrap, and its `…/anyOf/0` is its own branch (trial 67 D7, a Cohere strict change there).
    let wrapped = |c: Option<&Value>| {
        let only_union = c
            .and_then(Value::as_object)
            .is_some_and(|o| o.keys().all(|k| k == "anyOf" || k == "description"));
        only_union
            && c.and_then(|c| c.get("anyOf"))
                .and_then(Value::as_array)
                .is_some_and(|b| b.len() == 2 && b[1] == serde_json::json!({"type": "null"}))
    };
    let mut place = String::new();
    let (mut here, mut there) = (Some(original), Some(compiled));
    let (mut i, mut hops) = (0, 0);
    while let Some(t) = tokens.get(i) {
        let Some(n) = here else {
            place = crate::json::push_token(&place, t);
            i += 1;
            continue;
        };
        if t == "anyOf"
            && tokens.get(i + 1).is_some_and(|z| z == "0")
            && wrapped(there)
            && !crate::compile::wire::admits_null(n)
        {
            there = there
                .and_then(|c| child(c, "anyOf"))
                .and_then(|b| child(b, "0"));
            i += 2;
            continue;
        }
        if let Some(next) = child(n, t) {
            (here, there) = (Some(next), there.and_then(|c| child(c, t)));
            place = crate::json::push_token(&place, t);
            (i, hops) = (i + 1, 0);
            continue;
        }
        let target =
            n.get("$ref").and_then(Value::as_str).and_then(
                |r| match crate::schema::refs::step_from(original, &place, r) {
                    crate::schema::refs::Step::Local(v, p) => Some((v, p)),
                    _ => None,
                },
            );
        match target {
            Some((v, p)) if hops < crate::schema::refs::MAX_REF_HOPS => {
                (here, place, hops) = (Some(v), p, hops + 1);
            }
            _ => here = None,
        }
    }
    (place, here)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_named_like_keywords_are_names() {
        assert_eq!(
            steps("/properties/default/default"),
            [
                Step::Member("properties".into(), "default".into()),
                Step::Keyword("default".into(), vec![])
            ]
        );
        assert_eq!(
            keyword_owner("/properties/default/default", "default").as_deref(),
            Some("/properties/default")
        );
        assert_eq!(keyword_owner("/properties/default", "default"), None);
        assert_eq!(
            property_of("/properties/a~1b"),
            Some((String::new(), "a/b".to_string()))
        );
    }

    #[test]
    fn lists_applicators_and_keyword_values() {
        assert_eq!(
            steps("/anyOf/1/items/not/required/0"),
            [
                Step::Element("anyOf".into(), 1),
                Step::Applicator("items".into()),
                Step::Applicator("not".into()),
                Step::Keyword("required".into(), vec!["0".into()])
            ]
        );
        assert_eq!(
            split_keyword("/properties/x/type"),
            Some(("/properties/x".into(), "type".into()))
        );
        assert_eq!(split_keyword("/properties/x"), None);
        assert_eq!(split_keyword("/required/0"), None);
        assert_eq!(
            keyword_value_owner("/properties/a~1b/required/1", "required").as_deref(),
            Some("/properties/a~1b")
        );
        assert_eq!(
            keyword_value_owner("/required", "required").as_deref(),
            Some("")
        );
        assert_eq!(keyword_value_owner("/required/0", "type"), None);
    }

    /// Trial 67 D7: an `anyOf` with a `{"type": "null"}` second branch beside other keywords
    /// is the schema as given, not strict mode's wrap (which holds only the union and a
    /// description): its first branch keeps its place.
    #[test]
    fn a_union_with_a_null_branch_beside_a_type_is_no_wrap() {
        let given = serde_json::json!({"properties":{"q":{"type":"object",
            "anyOf":[{"type":"object","properties":{"x":{"type":"string"}}},{"type":"null"}]}}});
        let place = "/properties/q/anyOf/0/properties/x";
        assert_eq!(original_place(&given, &given, place), place);
        let wrapped = serde_json::json!({"properties":{"q":{"description":"d",
            "anyOf":[{"type":"string"},{"type":"null"}]}}});
        let as_given = serde_json::json!({"properties":{"q":{"type":"string","description":"d"}}});
        assert_eq!(
            original_place(&as_given, &wrapped, "/properties/q/anyOf/0/type"),
            "/properties/q/type"
        );
    }

    /// A pointer into a `dependencies` member by a keyword goes through a schema (its schema
    /// form); one by an index, or one ending at the member, stays in the keyword's value.
    #[test]
    fn a_pointer_into_a_schema_form_dependency_reads_it_as_a_member() {
        assert_eq!(
            steps("/dependencies/y/properties/z/type"),
            [
                Step::Member("dependencies".into(), "y".into()),
                Step::Member("properties".into(), "z".into()),
                Step::Keyword("type".into(), vec![])
            ]
        );
        assert_eq!(
            keyword_owner("/dependencies/y/not", "not"),
            Some("/dependencies/y".into())
        );
        for (pointer, rest) in [
            ("/dependencies/y/0", vec!["y", "0"]),
            ("/dependencies/y", vec!["y"]),
        ] {
            let rest = rest.into_iter().map(String::from).collect();
            assert_eq!(steps(pointer), [Step::Keyword("dependencies".into(), rest)]);
        }
    }
}
