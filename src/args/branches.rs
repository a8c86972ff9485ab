//! Coercion inside `anyOf`/`oneOf` (pydantic's `Optional[Model]`, discriminated unions).
//!
//! The validator reports a union's failure at the union's place, with each branch's errors
//! beside it, so the coercions made from `type` errors alone never reached a string inside a
//! branch. Here each branch is tried on its own: the value is coerced as that branch alone
//! would have it (by a validator compiled for the branch's place in the schema), and the
//! branch is a candidate when the coerced value then satisfies it (for `oneOf`, it alone).
//! The coercion is applied only when the candidates agree on one value: picking between
//! branches that read the text differently (`"1"` as `1` or as `true`) would be a guess, so
//! that is left as sent and the problem says why.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use jsonschema::{ValidationError, Validator};
use serde_json::Value;

use super::{ArgsSchema, Coercion, Coercions, place, push_short_value, resolve_pointer};

/// Most branches tried while coercing one call, nested unions included: a union of 16
/// branches each holding a union of 16 is 272 tries. Past it no union is coerced (a partial
/// search could miss the branch that makes a coercion ambiguous).
pub(super) const MAX_BRANCH_TRIALS: usize = 512;

/// Why a union whose place in the schema cannot be told is not coerced.
const UNPLACED: &str = "It was not coerced: the schema's `$id`s leave unclear which subschema \
    this is, so its alternatives are unknown; send the value meant as JSON, not as text.";

/// How many of the branches that read a value differently an ambiguity note names.
const MAX_NAMED: usize = 4;

/// Validators for single branches, compiled on first use, by the branch's place in the
/// schema; `None` where the place could not be compiled on its own.
#[derive(Default)]
pub(super) struct BranchValidators(Mutex<HashMap<Box<str>, Option<Arc<Validator>>>>);

/// What coercion does to a union's value.
pub(super) enum Outcome {
    /// Nothing: no branch is satisfied by coercing, or the branches could not all be tried.
    Unchanged,
    /// These coercions (pointers into the whole arguments, in the order to apply them) make
    /// the value satisfy the union; every branch they satisfy reads the value alike.
    Coerced(Vec<Coercion>),
    /// Left as sent for a reason the model should read (branches would read the value
    /// differently, or the union's place is unknown): the sentence saying so, for the problem.
    Left(String),
}

impl ArgsSchema {
    /// The coercions that make the value of `e`, an `anyOf` (`one_of` false) or `oneOf` error
    /// with `branches` branches, satisfy it, or why none are made ([`Outcome`]). `budget`
    /// counts down the branches tried ([`MAX_BRANCH_TRIALS`]).
    pub(super) fn union_coercion(
        &self,
        e: &ValidationError<'_>,
        branches: usize,
        one_of: bool,
        coerce: Coercions,
        budget: &mut usize,
    ) -> Outcome {
        let value = e.instance().as_ref();
        if !holds_string(value) {
            return Outcome::Unchanged;
        }
        // Under a nested `$id` a place the document cannot be told is left uncoerced: its
        // branches, and what the problem should name, are unknown.
        let (Some(place), Some(union)) = (self.schema_place(e), self.union_uri(e)) else {
            return Outcome::Left(UNPLACED.to_string());
        };
        let places: Vec<String> = (0..branches).map(|i| format!("{}/{i}", place.at)).collect();
        // An untried branch might read the value otherwise: try all or coerce nothing.
        let Some(validators) = (0..branches)
            .map(|i| self.branch_validator(&format!("{union}/{i}")))
            .collect::<Option<Vec<_>>>()
        else {
            return Outcome::Unchanged;
        };
        let refs_in = resolve_pointer(self.lookup_root(), &place.at[..place.resource])
            .unwrap_or(self.lookup_root());
        let mut candidates: Vec<(usize, Value, Vec<Coercion>)> = Vec::new();
        for (i, v) in validators.iter().enumerate() {
            if *budget == 0 {
                return Outcome::Unchanged;
            }
            *budget -= 1;
            let mut coerced = value.clone();
            let made = self.coerce_within(v, &mut coerced, coerce, budget);
            if made.is_empty() || !v.is_valid(&coerced) {
                continue;
            }
            if one_of
                && validators
                    .iter()
                    .enumerate()
                    .any(|(j, w)| j != i && w.is_valid(&coerced))
            {
                continue;
            }
            candidates.push((i, coerced, made));
        }
        if *budget == 0 {
            return Outcome::Unchanged;
        }
        let here = e.instance_path().as_str();
        let Some((_, first, _)) = candidates.first() else {
            return Outcome::Unchanged;
        };
        if candidates.iter().all(|(_, v, _)| v == first) {
            let (_, _, made) = candidates.swap_remove(0);
            return Outcome::Coerced(
                made.into_iter()
                    .map(|c| Coercion {
                        pointer: format!("{here}{}", c.pointer),
                        ..c
                    })
                    .collect(),
            );
        }
        Outcome::Left(self.ambiguity(here, &places, refs_in, &candidates))
    }

    /// The URI of the union keyword of `e` in the schema registered whole (as
    /// [`ArgsSchema::compile_place`] registers it), to which a branch's index is appended.
    pub(super) fn union_uri(&self, e: &ValidationError<'_>) -> Option<String> {
        match &self.resources {
            // The validator's own location names the resource the keyword is in.
            Some(_) => Some(e.absolute_keyword_location()?.as_str().to_string()),
            None => {
                let root = super::resources::root_uri(self.lookup_root())?;
                Some(format!("{root}#{}", fragment(e.schema_path().as_str())))
            }
        }
    }

    /// The sentence for a union value its branches coerce differently: each branch named
    /// with what it reads the text as, so the model can send the value it meant. `places` are
    /// the branches' places in the document, `refs_in` the resource their `$ref`s are read in.
    fn ambiguity(
        &self,
        here: &str,
        places: &[String],
        refs_in: &Value,
        candidates: &[(usize, Value, Vec<Coercion>)],
    ) -> String {
        let mut s =
            String::from("It was not coerced: the alternatives read the text differently (");
        for (n, (i, _, made)) in candidates.iter().take(MAX_NAMED).enumerate() {
            if n > 0 {
                s.push_str("; ");
            }
            s.push_str("alternative ");
            super::push_u64(&mut s, *i as u64 + 1);
            if let Some(branch) = resolve_pointer(self.lookup_root(), &places[*i]) {
                s.push_str(", ");
                s.push_str(&super::unions::described(refs_in, branch));
            }
            s.push_str(": ");
            for (k, c) in made.iter().enumerate() {
                if k > 0 {
                    s.push_str(", ");
                }
                s.push_str(&crate::report::escape_inline(&place(&format!(
                    "{here}{}",
                    c.pointer
                ))));
                s.push_str(" as ");
                push_short_value(&mut s, &c.to);
            }
        }
        if candidates.len() > MAX_NAMED {
            s.push_str("; and ");
            super::push_u64(&mut s, (candidates.len() - MAX_NAMED) as u64);
            s.push_str(" more");
        }
        s.push_str("); send the value meant as JSON, not as text.");
        s
    }

    /// A validator for the schema at `place` (a URI into the compiled schema, registered as
    /// [`ArgsSchema::union_uri`] names it) on its own, its `$ref`s resolved in the whole
    /// schema; `None` when it cannot be compiled so.
    pub(super) fn branch_validator(&self, place: &str) -> Option<Arc<Validator>> {
        let mut cache = self
            .branches
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(v) = cache.get(place) {
            return v.clone();
        }
        let compiled = self.compile_place(place).map(Arc::new);
        cache.insert(place.into(), compiled.clone());
        compiled
    }

    fn compile_place(&self, place: &str) -> Option<Validator> {
        let root = self.lookup_root();
        let base = super::resources::root_uri(root)?;
        let registry = jsonschema::Registry::new()
            .add(&base, root.clone())
            .ok()?
            .prepare()
            .ok()?;
        let draft = jsonschema::Draft::Draft202012.detect(root);
        let wrapper = serde_json::json!({ "$ref": place });
        super::with_later_formats(root, jsonschema::options())
            .with_draft(draft)
            .should_validate_formats(true)
            .with_registry(&registry)
            .build(&wrapper)
            .ok()
    }
}

/// True when `value` is or holds a string, the only thing coercion changes.
pub(super) fn holds_string(value: &Value) -> bool {
    match value {
        Value::String(_) => true,
        Value::Array(a) => a.iter().any(holds_string),
        Value::Object(o) => o.values().any(holds_string),
        _ => false,
    }
}

/// `pointer` as a URI fragment: bytes outside RFC 3986's fragment characters escaped.
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::CoercionKind;
    use serde_json::json;

    fn made(r: &crate::args::ArgsReport<'_>) -> Vec<(String, CoercionKind)> {
        r.coercions
            .iter()
            .map(|c| (c.pointer.clone(), c.kind))
            .collect()
    }

    /// pydantic's `Optional[Model]`: the model is a `$ref` beside `null`. Its strings were
    /// reported as strings, as if coercion had not been asked for.
    #[test]
    fn optional_model_is_coerced_inside_the_referenced_branch() {
        for name in ["addr", "my addr/é"] {
            let schema = json!({"type":"object","$defs":{"A":{"type":"object","properties":{
                "zip":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}}}},
                "properties":{name:{"anyOf":[{"$ref":"#/$defs/A"},{"type":"null"}]}}});
            let s = ArgsSchema::new(&schema).unwrap();
            let call = json!({name: {"zip":"12345","tags":"[\"a\"]"}});
            let r = s.check(&call, Coercions::ALL);
            assert!(r.is_valid(), "{name}: {:#?}", r.problems);
            assert_eq!(*r.arguments, json!({name: {"zip":12345,"tags":["a"]}}));
            let at = format!("/{}", name.replace('/', "~1"));
            assert_eq!(
                made(&r),
                [
                    (format!("{at}/zip"), CoercionKind::NumericText),
                    (format!("{at}/tags"), CoercionKind::JsonText)
                ]
            );
            // Off, nothing changes.
            assert_eq!(s.check(&call, Coercions::NONE).problems.len(), 2);
        }
    }

    /// A discriminated union: the branch the `const` selects coerces; a value valid as sent
    /// is left as sent, though another branch would have coerced it.
    #[test]
    fn discriminated_union_coerces_under_the_branch_the_value_satisfies() {
        let s = ArgsSchema::new(&json!({"oneOf":[
            {"type":"object","properties":{"kind":{"const":"a"},"n":{"type":"integer"}},"required":["kind"]},
            {"type":"object","properties":{"kind":{"const":"b"},"s":{"type":"string"}},"required":["kind"]}]}))
        .unwrap();
        let call = json!({"kind":"a","n":"3"});
        let r = s.check(&call, Coercions::ALL);
        assert!(r.is_valid(), "{:#?}", r.problems);
        assert_eq!(*r.arguments, json!({"kind":"a","n":3}));
        assert_eq!(made(&r), [("/n".to_string(), CoercionKind::NumericText)]);
        let sent = json!({"kind":"b","n":"3","s":"4"});
        let r = s.check(&sent, Coercions::ALL);
        assert!(r.is_valid() && r.coercions.is_empty(), "{r:#?}");
        assert!(matches!(r.arguments, std::borrow::Cow::Borrowed(_)));
    }

    /// Branches that read the text as different values: nothing is coerced, and the problem
    /// says which alternative reads it as what. Branches that agree are no ambiguity.
    #[test]
    fn branches_that_read_text_differently_leave_it_and_say_so() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "u":{"anyOf":[{"type":"integer"},{"type":"boolean"}]},
            "v":{"anyOf":[{"type":"number"},{"type":"integer"}]}}}))
        .unwrap();
        let call = json!({"u":"1","v":"2"});
        let r = s.check(&call, Coercions::ALL);
        assert_eq!(*r.arguments, json!({"u":"1","v":2}));
        assert_eq!(made(&r), [("/v".to_string(), CoercionKind::NumericText)]);
        let [p] = r.problems.as_slice() else {
            panic!("{:#?}", r.problems)
        };
        assert_eq!(
            p.message,
            "/u: \"1\" matches none of the alternatives; expected one of: an integer; a \
             boolean. It was not coerced: the alternatives read the text differently \
             (alternative 1, an integer: /u as 1; alternative 2, a boolean: /u as true); send \
             the value meant as JSON, not as text."
        );
        // With only one coercion allowed, only one branch reads it.
        let number = Coercions {
            numeric_text: true,
            ..Coercions::NONE
        };
        let r = s.check(&call, number);
        assert!(r.is_valid(), "{:#?}", r.problems);
        assert_eq!(*r.arguments, json!({"u":1,"v":2}));
    }

    /// `oneOf` is satisfied by one branch alone: a coercion every branch accepts would leave
    /// it failing, so it is not made (it used to be, to a value that still failed).
    #[test]
    fn one_of_takes_no_coercion_that_satisfies_two_branches() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "a":{"oneOf":[{"type":"integer"},{"type":"number"}]}}}))
        .unwrap();
        let call = json!({"a":"3"});
        let r = s.check(&call, Coercions::ALL);
        assert!(r.coercions.is_empty(), "{:#?}", r.coercions);
        assert_eq!(*r.arguments, call);
        assert_eq!(r.problems.len(), 1);
    }

    /// A union inside a branch is coerced by the same rule, draft-07 `definitions` and a
    /// document `$id` alike; `allOf` needs nothing of this: the validator reports its
    /// branches' errors at their own places, so they are coerced as any other.
    #[test]
    fn nested_unions_and_all_of_are_coerced() {
        let s = ArgsSchema::new(&json!({
            "$schema":"http://json-schema.org/draft-07/schema#",
            "$id":"https://example.com/tool.json",
            "type":"object",
            "definitions":{"A":{"type":"object","properties":{
                "zip":{"type":"integer"},"in":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}},
            "properties":{
                "a":{"anyOf":[{"$ref":"#/definitions/A"},{"type":"null"}]},
                "b":{"allOf":[{"properties":{"n":{"type":"integer"}}},{"required":["n"]}]}}}))
        .unwrap();
        let call = json!({"a":{"zip":"1","in":"2"},"b":{"n":"3"}});
        let r = s.check(&call, Coercions::ALL);
        assert!(r.is_valid(), "{:#?}", r.problems);
        assert_eq!(*r.arguments, json!({"a":{"zip":1,"in":2},"b":{"n":3}}));
    }

    /// Under a nested `$id` the validator names a place by its path inside that resource:
    /// `/properties/y` of the resource once read as the document's own `/properties/y`, a
    /// boolean union, and coerced `"1"` to `true` for an integer union; then such schemas got
    /// no union coercion at all. Each union is now coerced as the resource holding it reads
    /// it, whatever the resource's `$id` (absolute, relative, draft-04 `id`, beside a root
    /// `$id` or none).
    #[test]
    fn unions_under_a_nested_id_are_coerced_as_their_resource_reads_them() {
        const D2020: &str = "https://json-schema.org/draft/2020-12/schema";
        const D07: &str = "http://json-schema.org/draft-07/schema#";
        const D04: &str = "http://json-schema.org/draft-04/schema#";
        const ABSOLUTE: &str = "https://example.com/t/tool.json";
        for (draft, defs, id, root_id, x_id) in [
            (D2020, "$defs", "$id", None, "https://example.com/x.json"),
            (D2020, "$defs", "$id", None, "x.json"),
            (D2020, "$defs", "$id", Some(ABSOLUTE), "sub/x.json"),
            (D2020, "$defs", "$id", Some("tool.json"), "x.json#"),
            (D07, "definitions", "$id", None, "x.json"),
            // A root anchor, not a resource.
            (D07, "definitions", "$id", Some("#top"), "x.json"),
            (D04, "definitions", "id", None, "x.json"),
        ] {
            let mut schema = json!({"$schema":draft,"type":"object",
                defs:{"X":{id:x_id,"type":"object","properties":{
                    "y":{"anyOf":[{"type":"integer"},{"type":"null"}]},
                    "w":{"$ref":"#/properties/y"}}}},
                "properties":{"y":{"anyOf":[{"type":"boolean"},{"type":"null"}]},
                    "z":{"$ref": format!("#/{defs}/X")}}});
            if let Some(root_id) = root_id {
                schema[id] = json!(root_id);
            }
            let s = ArgsSchema::new(&schema).unwrap();
            let call = json!({"y":"yes","z":{"w":"1","y":"2"}});
            let r = s.check(&call, Coercions::ALL);
            assert!(r.is_valid(), "{schema}: {:#?}", r.problems);
            assert_eq!(
                *r.arguments,
                json!({"y":true,"z":{"w":1,"y":2}}),
                "{schema}"
            );
            assert_eq!(
                made(&r),
                [
                    ("/y".to_string(), CoercionKind::BooleanText),
                    ("/z/w".to_string(), CoercionKind::NumericText),
                    ("/z/y".to_string(), CoercionKind::NumericText)
                ],
                "{schema}"
            );
        }
    }

    /// A union problem under a nested `$id` names the resource's alternatives, not those at
    /// the same path in the document (`an object; null` here), and so does the note saying
    /// why an ambiguous value was not coerced.
    #[test]
    fn union_problems_under_a_nested_id_name_the_resource_alternatives() {
        let s = ArgsSchema::new(&json!({"type":"object",
            "$defs":{"N":{"title":"Name","type":"string"},
                "X":{"$id":"https://example.com/x.json","type":"object",
                "$defs":{"N":{"title":"Count","type":"integer"}},
                "properties":{
                    "y":{"anyOf":[{"$ref":"#/$defs/N"},{"type":"boolean"}]},
                    "w":{"$ref":"#/properties/y"}}}},
            "properties":{"y":{"anyOf":[{"type":"object"},{"type":"null"}]},
                "z":{"$ref":"#/$defs/X"}}}))
        .unwrap();
        let call = json!({"z":{"w":"1"}});
        let r = s.check(&call, Coercions::ALL);
        let [p] = r.problems.as_slice() else {
            panic!("{:#?}", r.problems)
        };
        assert_eq!(
            p.message,
            "/z/w: \"1\" matches none of the alternatives; expected one of: Count (an \
             integer); a boolean. It was not coerced: the alternatives read the text \
             differently (alternative 1, Count (an integer): /z/w as 1; alternative 2, a \
             boolean: /z/w as true); send the value meant as JSON, not as text."
        );
        // The document's own union, at the same path, keeps its own alternatives.
        let call = json!({"y":"1"});
        let r = s.check(&call, Coercions::NONE);
        assert_eq!(
            r.problems[0].message,
            "/y: \"1\" matches none of the alternatives; expected one of: an object; null."
        );
    }

    /// Two subschemas declaring one `$id` (which 2020-12 forbids, but the validator takes):
    /// the validator names both by that URI, so which union an error is in cannot be told.
    /// It is left as sent, the problem says why, and names no alternatives it cannot know.
    #[test]
    fn a_union_in_an_id_declared_twice_is_left_and_says_why() {
        let s = ArgsSchema::new(&json!({"type":"object","$defs":{
            "X":{"$id":"x.json","properties":{"y":{"anyOf":[{"type":"integer"},{"type":"null"}]}}},
            "X2":{"$id":"x.json","properties":{"y":{"anyOf":[{"type":"boolean"},{"type":"null"}]}}}},
            "properties":{"z":{"$ref":"#/$defs/X"}}}))
        .unwrap();
        let call = json!({"z":{"y":"1"}});
        let r = s.check(&call, Coercions::ALL);
        assert!(r.coercions.is_empty(), "{:#?}", r.coercions);
        assert_eq!(*r.arguments, call);
        let [p] = r.problems.as_slice() else {
            panic!("{:#?}", r.problems)
        };
        assert_eq!(
            p.message,
            format!(
                "/z/y: \"1\" matches none of the alternatives; expected a value matching one \
                 of the `anyOf` alternatives. {UNPLACED}"
            )
        );
    }

    /// Past [`MAX_BRANCH_TRIALS`] no union is coerced: what the untried branches would make
    /// of the value is unknown, so any choice could be the ambiguous one.
    #[test]
    fn a_union_past_the_trial_cap_is_not_coerced() {
        let mut branches: Vec<Value> = (0..MAX_BRANCH_TRIALS)
            .map(|i| json!({"const": format!("c{i}")}))
            .collect();
        branches.push(json!({"type":"integer"}));
        let s = ArgsSchema::new(&json!({"type":"object","properties":{"a":{"anyOf":branches}}}))
            .unwrap();
        let call = json!({"a":"3"});
        let r = s.check(&call, Coercions::ALL);
        assert!(r.coercions.is_empty(), "{:#?}", r.coercions);
        assert_eq!(r.problems.len(), 1);
        // Within the cap, the integer branch alone reads it.
        let few = ArgsSchema::new(&json!({"type":"object","properties":{"a":{"anyOf":
            [{"const":"c0"},{"type":"integer"}]}}}))
        .unwrap();
        assert!(few.check(&call, Coercions::ALL).is_valid());
    }

    #[test]
    fn fragments_escape_what_a_uri_fragment_cannot_hold() {
        assert_eq!(fragment("/properties/a b/é"), "/properties/a%20b/%C3%A9");
        assert_eq!(fragment("/$defs/A~1b/anyOf/0"), "/$defs/A~1b/anyOf/0");
        assert_eq!(fragment("/x%y#"), "/x%25y%23");
    }
}
