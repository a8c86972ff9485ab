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
    // A wrap of a union holds it whole as its first branch (`anyOf: [{anyOf: [..]}, null]`),
    // where the union as given does not start with a union of its own: a schema as given that
    // admits null by a null branch is wrapped when a repair took that branch out first
    // (LiveMCPBench's `anyOf: [number, {not: {}}, null]`, trial 80 D1).
    fn first_branch(v: &Value) -> Option<&Value> {
        v.get("anyOf")?.get(0)
    }
    let union_wrapped = |n: &Value, c: Option<&Value>| {
        c.and_then(first_branch)
            .is_some_and(|b| b.get("anyOf").is_some())
            && first_branch(n).is_some_and(|b| b.get("anyOf").is_none())
    };
    let mut place = String::new();
    let (mut here, mut there) = (Some(original), Some(compiled));
    let (mut i, mut hops) = (0, 0);
    // The last schema passed on the way that holds a `$ref` beside other keywords, and where:
    // repair merges the two (`merge_ref_siblings`), so a place the siblings lack may be one
    // the reference reaches (`a: {$ref: D4, properties: {s}}` merged, its `properties/a` is
    // D4's). Without it, the places inside a merged chain named nothing as given (trial 80 D1).
    let mut holder: Option<(&Value, String, usize, Option<&Value>)> = None;
    let mut retries = 0;
    while let Some(t) = tokens.get(i) {
        let Some(n) = here else {
            place = crate::json::push_token(&place, t);
            i += 1;
            continue;
        };
        if t == "anyOf"
            && tokens.get(i + 1).is_some_and(|z| z == "0")
            && wrapped(there)
            && (!crate::compile::wire::admits_null(n) || union_wrapped(n, there))
            && !own_branch(n, &tokens[i..])
        {
            there = there
                .and_then(|c| child(c, "anyOf"))
                .and_then(|b| child(b, "0"));
            i += 2;
            continue;
        }
        // Repair writes a `oneOf` whose branches exclude each other as `anyOf`
        // (`one_of_as_any_of`): what the form did below it is below the `oneOf` as given
        // (trial 80 D1: openai/responses-strict, GitHub's `items: {oneOf: [..]}`).
        let as_given = if t == "anyOf"
            && n.get("anyOf").is_none()
            && n.get("oneOf").is_some()
            && there.is_some_and(|c| c.get("oneOf").is_none())
        {
            "oneOf"
        } else {
            t.as_str()
        };
        if let Some((given, made)) = null_branches_out(n, as_given, there, t, tokens.get(i + 1)) {
            (here, there) = (Some(&n[as_given][given]), Some(made));
            place = crate::json::push_token(&place, as_given);
            place = crate::json::push_token(&place, &given.to_string());
            (i, hops) = (i + 2, 0);
            continue;
        }
        if let Some(next) = child(n, as_given) {
            if n.get("$ref").is_some() {
                holder = Some((n, place.clone(), i, there));
            }
            (here, there) = (Some(next), there.and_then(|c| child(c, t)));
            place = crate::json::push_token(&place, as_given);
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
                continue;
            }
            _ => here = None,
        }
        let Some((h, at, from, was_there)) = holder.take() else {
            continue;
        };
        let reached =
            h.get("$ref").and_then(Value::as_str).and_then(
                |r| match crate::schema::refs::step_from(original, &at, r) {
                    crate::schema::refs::Step::Local(v, p) => Some((v, p)),
                    _ => None,
                },
            );
        if let Some((v, p)) = reached
            && retries < crate::schema::refs::MAX_REF_HOPS
        {
            retries += 1;
            (here, place, i, there, hops) = (Some(v), p, from, was_there, 0);
        }
    }
    (place, here)
}

/// Whether `rest` (tokens from an `anyOf`, `0`) names a place of `given` read as written, and
/// not read as a wrap's (without the `anyOf`, `0`): a change recorded before the form wrapped
/// the union as given (DeepSeek strict's dropped `minItems` in its first branch) names that
/// branch, not a keyword beside the union (LiveMCPBench's `read_pdf`, `pages`).
fn own_branch(given: &Value, rest: &[String]) -> bool {
    let resolves = |tokens: &[String]| {
        tokens
            .iter()
            .try_fold(given, |v, t| crate::json::child(v, t))
            .is_some()
    };
    rest.len() > 2 && resolves(rest) && !resolves(&rest[2..])
}

/// Where branch `index` (a token) of the union `keyword` (`anyOf`, `oneOf`) of `made` was in
/// the union `given_keyword` of `given`, when the union was made from the one given by taking
/// its null branches (`{"type": "null"}`) out, the others kept in order: their position in
/// `given`, and the branch in `made`. `None` when the lists are the same length, or differ
/// otherwise.
fn null_branches_out<'v>(
    given: &Value,
    given_keyword: &str,
    made: Option<&'v Value>,
    keyword: &str,
    index: Option<&String>,
) -> Option<(usize, &'v Value)> {
    if keyword != "anyOf" && keyword != "oneOf" {
        return None;
    }
    let index: usize = index?.parse().ok()?;
    let given = given.get(given_keyword)?.as_array()?;
    let made = made?.get(keyword)?.as_array()?;
    let null = serde_json::json!({"type": "null"});
    let kept: Vec<usize> = (0..given.len()).filter(|&k| given[k] != null).collect();
    if given.len() == made.len() || kept.len() != made.len() || made.contains(&null) {
        return None;
    }
    Some((*kept.get(index)?, made.get(index)?))
}

/// The longest prefix of `pointer` (whole tokens) that names a place of `schema`: `pointer`
/// itself when it does, `""` (the root) at the least. For a place a command wrote below the
/// schema as given (a `type` list strict mode made of `"any"`, whose `/type/0` indexes into a
/// string as given), the place as given it is in.
pub fn resolving_prefix<'p>(schema: &Value, pointer: &'p str) -> &'p str {
    let mut here = schema;
    let mut end = 0;
    for token in pointer.split('/').skip(1) {
        let Some(next) = crate::json::at_token(here, token) else {
            break;
        };
        here = next;
        end += 1 + token.len();
    }
    &pointer[..end]
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

    /// Trial 80 D1 (LiveMCPBench line 156): a union as given that admits null by a null
    /// branch, the branch taken out by a repair and the rest wrapped by the strict form
    /// (`anyOf: [{anyOf: [number, {}]}, null]`): the model's `…/anyOf/0/anyOf/1` is branch 1
    /// as given, not a place below branch 0 (`{type: number}` has no `anyOf`). With the null
    /// branch first, the branches after it keep their places as given.
    #[test]
    fn a_union_wrapped_after_its_null_branch_went_names_its_branches_as_given() {
        use serde_json::json;
        let wrapped = json!({"properties":{"b":{"description":"d",
            "anyOf":[{"anyOf":[{"type":"number"},{}]},{"type":"null"}]}}});
        for (branches, expected) in [
            (
                json!([{"type":"number"},{"not":{}},{"type":"null"}]),
                "/properties/b/anyOf/1",
            ),
            (
                json!([{"type":"null"},{"type":"number"},{"not":{}}]),
                "/properties/b/anyOf/2",
            ),
        ] {
            let given = json!({"properties":{"b":{"anyOf":branches,"default":null,
                "description":"d"}}});
            let place = original_place(&given, &wrapped, "/properties/b/anyOf/0/anyOf/1");
            assert_eq!(place, expected, "{given}");
            assert!(given.pointer(&place).is_some());
        }
        // A change named before the form wrapped the union as given names its own branch.
        let given = json!({"properties":{"p":{"description":"d",
            "anyOf":[{"type":"array","minItems":1},{"type":"string"}]}}});
        let made = json!({"properties":{"p":{"description":"d",
            "anyOf":[{"anyOf":[{"type":"array"},{"type":"string"}]},{"type":"null"}]}}});
        assert_eq!(
            original_place(&given, &made, "/properties/p/anyOf/0/minItems"),
            "/properties/p/anyOf/0/minItems"
        );
        // A union as given whose first branch is a union is its own: no wrap to take away.
        let own = json!({"anyOf":[{"anyOf":[{"type":"number"},{}]},{"type":"null"}]});
        assert_eq!(
            original_place(&own, &own, "/anyOf/0/anyOf/1"),
            "/anyOf/0/anyOf/1"
        );
    }

    /// A `oneOf` repair wrote as `anyOf` (its branches exclude each other) is named as given
    /// below: the strict form's changes inside its branches were named `…/anyOf/1/…`, which
    /// the schema as given does not have (openai/responses-strict, GitHub's
    /// `update_issue_assignees`).
    #[test]
    fn a_one_of_written_as_any_of_is_named_as_given() {
        use serde_json::json;
        let given = json!({"items":{"oneOf":[{"type":"string"},
            {"type":"object","properties":{"c":{"type":"string"}}}]}});
        let made = json!({"items":{"anyOf":[{"type":"string"},
            {"type":"object","properties":{"c":{"type":["string","null"]}},
             "additionalProperties":false,"required":["c"]}]}});
        assert_eq!(
            original_place(&given, &made, "/items/anyOf/1/properties/c"),
            "/items/oneOf/1/properties/c"
        );
        // Beside a `oneOf` of its own, an `anyOf` is that `anyOf`.
        let both = json!({"anyOf":[{"type":"string"}],"oneOf":[{"type":"integer"}]});
        assert_eq!(original_place(&both, &both, "/anyOf/0"), "/anyOf/0");
    }

    /// A chain of definitions each a `$ref` beside `properties` (`a: {$ref: D0, properties:
    /// {s}}`), merged by repair: a place below the merged copy that the siblings lack is the
    /// one the reference reaches, in its definition. Before, `/$defs/D2/properties/a/
    /// properties/a` was named, which the schema as given does not have (trial 80 D1).
    #[test]
    fn a_place_beside_a_merged_reference_is_named_where_it_reaches() {
        use serde_json::json;
        let link = |to: &str| {
            json!({"type":"object","properties":{"a":{"$ref":format!("#/$defs/{to}"),
                "properties":{"s":{"type":"string"}}}}})
        };
        let given = json!({"properties":{"o":{"$ref":"#/$defs/D2"}},
            "$defs":{"D0":{"type":"object","properties":{"p":{"type":"string"}}},
                "D1":link("D0"),"D2":link("D1")}});
        let merged = json!({"properties":{"o":{"type":"object","properties":{"a":{
            "type":"object","properties":{"s":{"type":"string"},"a":{"type":"object",
                "properties":{"s":{"type":"string"},"p":{"type":"string"}}}}}}}}});
        for (made, as_given) in [
            (
                "/properties/o/properties/a/properties/a",
                "/$defs/D1/properties/a",
            ),
            (
                "/properties/o/properties/a/properties/a/properties/p",
                "/$defs/D0/properties/p",
            ),
            (
                "/properties/o/properties/a/properties/s",
                "/$defs/D2/properties/a/properties/s",
            ),
        ] {
            let place = original_place(&given, &merged, made);
            assert_eq!(place, as_given, "{made}");
            assert!(given.pointer(&place).is_some(), "{place}");
        }
    }

    #[test]
    fn the_resolving_prefix_stops_at_the_first_place_the_schema_lacks() {
        use serde_json::json;
        let given = json!({"properties":{"a/b":{"type":"any"},"l":{"anyOf":[{}]}}});
        for (pointer, prefix) in [
            ("/properties/a~1b/type/0", "/properties/a~1b/type"),
            ("/properties/a~1b/type", "/properties/a~1b/type"),
            ("/properties/l/anyOf/0/type", "/properties/l/anyOf/0"),
            ("/properties/l/anyOf/01", "/properties/l/anyOf"),
            ("/properties/m/anyOf", "/properties"),
            ("/x", ""),
            ("", ""),
        ] {
            assert_eq!(resolving_prefix(&given, pointer), prefix, "{pointer}");
        }
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
