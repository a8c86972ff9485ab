//! Normalisation inside `anyOf`/`oneOf` (pydantic's `Optional[Model]`, discriminated unions):
//! coercion, and optional members sent as `null` treated as absent.
//!
//! The validator reports a union's failure at the union's place, with each branch's errors
//! beside it, so the coercions made from `type` errors alone never reached a string inside a
//! branch, nor the null-as-absent rule a `null` member of an object inside one. Here each
//! branch is tried on its own: the value is normalised as that branch alone would have it (by
//! a validator compiled for the branch's place in the schema: its own `required` says which
//! members are optional), and the branch is a candidate when the normalised value then
//! satisfies it (for `oneOf`, it alone). The result is applied only when the candidates agree
//! on one value: picking between branches that read the text differently (`"1"` as `1` or as
//! `true`) would be a guess, so that is left as sent and the problem says why. A `oneOf` value
//! that, as its branches read it, satisfies more than one of them is left as sent too, the
//! problem saying so: sent so read, it would fail as matching more than one. Candidates
//! that differ only in the nulls they remove are no such guess: a null some satisfied branch
//! accepts is one the schema accepts, so the candidate removing fewest (when the others each
//! remove those and more) is applied. When no branch is satisfied, the coercions and the
//! nulls treated as absent that every branch whose problems are reported makes alike are
//! applied: the report is those branches' problems, and text there is coerced, and a null
//! absent, as outside a union, where coercion is made while other problems remain.

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
    /// Nothing: no normalisation to apply, or the branches could not all be tried.
    Unchanged,
    /// These coercions (pointers into the whole arguments, in the order to apply them) and
    /// these `null` members treated as absent (pointers into the whole arguments) are
    /// applied: they make the value satisfy the union, every branch they satisfy reading the
    /// value alike, or, no branch being satisfied, every branch whose problems are reported
    /// makes them alike.
    Normalised {
        coercions: Vec<Coercion>,
        nulls: Vec<String>,
    },
    /// Left as sent for a reason the model should read (branches would read the value
    /// differently, or the union's place is unknown): the sentence saying so, for the problem.
    Left(String),
}

impl ArgsSchema {
    /// The coercions and nulls treated as absent that make the value of `e`, an `anyOf`
    /// (`one_of` false) or `oneOf` error with `branches` branches, satisfy it, or why none
    /// are made ([`Outcome`]). Coercions are made as `coerce` allows. `budget` counts down
    /// the branches tried ([`MAX_BRANCH_TRIALS`]).
    pub(super) fn union_coercion(
        &self,
        e: &ValidationError<'_>,
        branches: usize,
        one_of: bool,
        coerce: Coercions,
        budget: &mut usize,
    ) -> Outcome {
        let value = e.instance().as_ref();
        let text = coerce.any() && holds_string(value);
        if !text && !holds_null_member(value) {
            return Outcome::Unchanged;
        }
        // Under a nested `$id` a place the document cannot be told is left uncoerced: its
        // branches, and what the problem should name, are unknown. The note is about text;
        // a null left as sent is reported as one, which says what to send.
        let (Some(place), Some(union)) = (self.schema_place(e), self.union_uri(e)) else {
            return match text {
                true => Outcome::Left(UNPLACED.to_string()),
                false => Outcome::Unchanged,
            };
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
        let mut candidates: Vec<Candidate> = Vec::new();
        // What each branch's normalisation makes, satisfied or not.
        let mut readings: Vec<Reading> = Vec::with_capacity(branches);
        // Whether some branch is satisfied by its own reading, a candidate or not: under
        // `oneOf`, one whose reading another branch takes too is none.
        let mut satisfied = false;
        // Under `oneOf`, the readings that satisfy their branch and another: what the problem
        // says when no candidate is left.
        let mut overlaps: Vec<Overlap> = Vec::new();
        for (i, v) in validators.iter().enumerate() {
            if *budget == 0 {
                return Outcome::Unchanged;
            }
            *budget -= 1;
            let mut normalised = value.clone();
            let (made, nulls) = self.normalise_within(v, &mut normalised, coerce, budget);
            let valid = v.is_valid(&normalised);
            satisfied |= valid;
            readings.push(Reading {
                made: made.clone(),
                nulls: nulls.clone(),
            });
            if made.is_empty() && nulls.is_empty() || !valid {
                continue;
            }
            if one_of {
                let takers: Vec<usize> = (0..validators.len())
                    .filter(|&j| j == i || validators[j].is_valid(&normalised))
                    .collect();
                if takers.len() > 1 {
                    if !overlaps.iter().any(|o| o.value == normalised) {
                        overlaps.push(Overlap {
                            value: normalised,
                            made,
                            nulls,
                            takers,
                        });
                    }
                    continue;
                }
            }
            candidates.push(Candidate {
                branch: i,
                value: normalised,
                made,
                nulls,
            });
        }
        if *budget == 0 {
            return Outcome::Unchanged;
        }
        let here = e.instance_path().as_str();
        let Some(chosen) = agreed(&candidates) else {
            return match (candidates.is_empty(), satisfied) {
                (true, false) => self.shared_by_shown(e, &readings),
                // Under `oneOf`, branches each satisfied by their reading: the value is
                // normalised only where one alone is. Told only "matches none", the model
                // sends the value so read and is told it matches more than one (trial 66 D4).
                (true, true) if !overlaps.is_empty() => Outcome::Left(overlap(here, &overlaps)),
                (true, true) => Outcome::Unchanged,
                (false, _) => Outcome::Left(self.ambiguity(here, &places, refs_in, &candidates)),
            };
        };
        let Candidate { made, nulls, .. } = candidates.swap_remove(chosen);
        normalised(here, made, nulls)
    }

    /// For a union no branch's normalisation satisfies: the coercions and the nulls treated
    /// as absent that every branch whose problems are reported
    /// ([`ArgsSchema::shown_branches`]) makes alike, given what each branch makes
    /// (`readings`, pointers into the union's value), in the first such branch's order. Those
    /// branches' problems are the report, and text or a null there is read as outside a
    /// union, where coercion is made while other problems remain; left as sent, each was a
    /// problem beside the real one (`"5" is a string`, `null is not allowed here`). Text the
    /// branches read differently (`"1"` as `1` and as `true`) is left as sent.
    fn shared_by_shown(&self, e: &ValidationError<'_>, readings: &[Reading]) -> Outcome {
        let mut shown = self.shown_branches(e);
        if shown.is_empty() {
            // Text of no branch's type as sent (JSON text for `anyOf [array, null]`, Pydantic's
            // `Optional[T]`): the branches that read it as their type are the ones it was
            // meant for, and a `null` branch, which cannot, has no say (trial 66 D1).
            shown = (0..readings.len())
                .filter(|&i| readings[i].made.iter().any(|c| c.pointer.is_empty()))
                .collect();
        }
        let Some((first, rest)) = shown.split_first() else {
            return Outcome::Unchanged;
        };
        let made = in_every(*first, rest, |i| &readings[i].made);
        let nulls = in_every(*first, rest, |i| &readings[i].nulls);
        match made.is_empty() && nulls.is_empty() {
            true => Outcome::Unchanged,
            false => normalised(e.instance_path().as_str(), made, nulls),
        }
    }

    /// The URI of the union keyword of `e` in the schema registered whole (as
    /// [`ArgsSchema::compile_wrapper`] registers it), to which a branch's index is appended.
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

    /// The sentence for a union value its branches normalise differently: each branch named
    /// with what it reads the text as (and which nulls as absent), so the model can send the
    /// value it meant. `places` are the branches' places in the document, `refs_in` the
    /// resource their `$ref`s are read in.
    fn ambiguity(
        &self,
        here: &str,
        places: &[String],
        refs_in: &Value,
        candidates: &[Candidate],
    ) -> String {
        let text = candidates.iter().any(|c| !c.made.is_empty());
        let nulls = candidates.iter().any(|c| !c.nulls.is_empty());
        let mut s = String::from(match nulls {
            false => "It was not coerced: the alternatives read the text differently (",
            true => "It was left as sent: the alternatives read it differently (",
        });
        for (n, c) in candidates.iter().take(MAX_NAMED).enumerate() {
            if n > 0 {
                s.push_str("; ");
            }
            s.push_str("alternative ");
            super::push_u64(&mut s, c.branch as u64 + 1);
            if let Some(branch) = resolve_pointer(self.lookup_root(), &places[c.branch]) {
                s.push_str(", ");
                s.push_str(&super::unions::described(refs_in, branch));
            }
            s.push_str(": ");
            push_reading(&mut s, here, &c.made, &c.nulls);
        }
        if candidates.len() > MAX_NAMED {
            s.push_str("; and ");
            super::push_u64(&mut s, (candidates.len() - MAX_NAMED) as u64);
            s.push_str(" more");
        }
        s.push_str(match (text, nulls) {
            (true, false) => "); send the value meant as JSON, not as text.",
            (false, _) => "); leave out the members not given instead of sending null.",
            (true, true) => {
                "); leave out the members not given instead of sending null, and send the \
                 value meant as JSON, not as text."
            }
        });
        s
    }

    /// A validator for the schema at `place` (a URI into the compiled schema, registered as
    /// [`ArgsSchema::union_uri`] names it) on its own, its `$ref`s resolved in the whole
    /// schema; `None` when it cannot be compiled so.
    pub(super) fn branch_validator(&self, place: &str) -> Option<Arc<Validator>> {
        self.wrapper_validator(place, || serde_json::json!({ "$ref": place }))
    }

    /// The validator cached by `key` (a place URI, or a name no such URI has: one holding a
    /// space), compiled from what `wrapper` makes on first use
    /// ([`ArgsSchema::compile_wrapper`]).
    pub(super) fn wrapper_validator(
        &self,
        key: &str,
        wrapper: impl FnOnce() -> Value,
    ) -> Option<Arc<Validator>> {
        let mut cache = self
            .branches
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(v) = cache.get(key) {
            return v.clone();
        }
        let compiled = self.compile_wrapper(&wrapper()).map(Arc::new);
        cache.insert(key.into(), compiled.clone());
        compiled
    }

    /// A validator for `wrapper`, a schema whose `$ref`s name places of the compiled schema
    /// by URI (as [`ArgsSchema::union_uri`] names them), resolved in the whole schema: the
    /// errors under such a reference carry that place's schema path, as the whole schema's
    /// validator gives them. `None` when it cannot be compiled so.
    fn compile_wrapper(&self, wrapper: &Value) -> Option<Validator> {
        let root = self.lookup_root();
        let base = super::resources::root_uri(root)?;
        let registry = jsonschema::Registry::new()
            .add(&base, root.clone())
            .ok()?
            .prepare()
            .ok()?;
        let draft = jsonschema::Draft::Draft202012.detect(root);
        super::with_later_formats(root, jsonschema::options())
            .with_draft(draft)
            .should_validate_formats(true)
            .with_registry(&registry)
            .build(wrapper)
            .ok()
    }
}

/// One branch's reading of a union's value ([`ArgsSchema::union_coercion`]).
struct Candidate {
    /// The branch's index in the union.
    branch: usize,
    /// The value normalised as the branch reads it; it satisfies the branch.
    value: Value,
    /// The coercions made, pointers into the union's value.
    made: Vec<Coercion>,
    /// The `null` members treated as absent, pointers into the union's value.
    nulls: Vec<String>,
}

/// What one branch's normalisation of a union's value makes, whether or not the branch is
/// then satisfied: pointers into the union's value.
struct Reading {
    made: Vec<Coercion>,
    nulls: Vec<String>,
}

/// A `oneOf` branch's reading of the union's value that satisfies it and another branch
/// ([`ArgsSchema::union_coercion`]), so is not applied.
struct Overlap {
    /// The value normalised as the branch reads it.
    value: Value,
    /// The coercions made, pointers into the union's value.
    made: Vec<Coercion>,
    /// The `null` members treated as absent, pointers into the union's value.
    nulls: Vec<String>,
    /// The indexes of the branches the value so read satisfies, in order: two or more.
    takers: Vec<usize>,
}

/// The sentence for a `oneOf` value left as sent because, as its branches read it, it
/// satisfies more than one of them (`{"n": "5"}` as `{"n": 5}` against a number branch and an
/// integer branch): each reading (`overlaps`, pointers into the value of the union at `here`)
/// named with the alternatives it matches, so the model does not send the value so read and
/// get "matches more than one alternative" in turn.
fn overlap(here: &str, overlaps: &[Overlap]) -> String {
    let nulls = overlaps.iter().any(|o| !o.nulls.is_empty());
    let mut s = String::from(match nulls {
        false => "It was not coerced: ",
        true => "It was left as sent: ",
    });
    s.push_str("as the alternatives read it, it matches more than one of them (");
    for (n, o) in overlaps.iter().take(MAX_NAMED).enumerate() {
        if n > 0 {
            s.push_str("; ");
        }
        push_reading(&mut s, here, &o.made, &o.nulls);
        s.push_str(": alternatives ");
        for (k, branch) in o.takers.iter().enumerate() {
            if k > 0 && k + 1 == o.takers.len() {
                s.push_str(" and ");
            } else if k > 0 {
                s.push_str(", ");
            }
            super::push_u64(&mut s, *branch as u64 + 1);
        }
    }
    if overlaps.len() > MAX_NAMED {
        s.push_str("; and ");
        super::push_u64(&mut s, (overlaps.len() - MAX_NAMED) as u64);
        s.push_str(" more");
    }
    s.push_str("), and `oneOf` accepts a value matching exactly one; sent that way, it fails too.");
    s
}

/// Appends a branch's reading of the value of the union at `here`: each coercion `made` as
/// "/p as 5", then each null treated as absent as "/p as absent" (pointers into that value).
fn push_reading(s: &mut String, here: &str, made: &[Coercion], nulls: &[String]) {
    let at = |s: &mut String, pointer: &str| {
        s.push_str(&crate::report::escape_inline(&place(&format!(
            "{here}{pointer}"
        ))));
    };
    for (k, made) in made.iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        at(s, &made.pointer);
        s.push_str(" as ");
        push_short_value(s, &made.to);
    }
    for (k, null) in nulls.iter().enumerate() {
        if k > 0 || !made.is_empty() {
            s.push_str(", ");
        }
        at(s, null);
        s.push_str(" as absent");
    }
}

/// What branch `first`'s reading (`of`) holds that the reading of every branch of `rest` holds
/// too, in `first`'s order.
fn in_every<'r, T: PartialEq + Clone + 'r>(
    first: usize,
    rest: &[usize],
    of: impl Fn(usize) -> &'r [T],
) -> Vec<T> {
    of(first)
        .iter()
        .filter(|x| rest.iter().all(|&i| of(i).contains(x)))
        .cloned()
        .collect()
}

/// [`Outcome::Normalised`] for coercions `made` and nulls treated as absent `nulls`, pointers
/// into the value of the union at `here`, turned into pointers into the whole arguments.
fn normalised(here: &str, made: Vec<Coercion>, nulls: Vec<String>) -> Outcome {
    Outcome::Normalised {
        coercions: made
            .into_iter()
            .map(|c| Coercion {
                pointer: format!("{here}{}", c.pointer),
                ..c
            })
            .collect(),
        nulls: nulls.into_iter().map(|n| format!("{here}{n}")).collect(),
    }
}

/// The candidate to apply, by its index: the first when every candidate reads the value
/// alike; else the one whose value each other candidate's is with more nulls removed (each
/// null it keeps is one a branch the value satisfies accepts, so one the schema accepts);
/// `None` when there is neither (or no candidate).
fn agreed(candidates: &[Candidate]) -> Option<usize> {
    let first = candidates.first()?;
    if candidates.iter().all(|c| c.value == first.value) {
        return Some(0);
    }
    candidates.iter().position(|m| {
        candidates.iter().all(|c| {
            m.nulls.iter().all(|n| c.nulls.contains(n))
                && without(&m.value, c.nulls.iter().filter(|n| !m.nulls.contains(n))) == c.value
        })
    })
}

/// `value` without the object members at `pointers`.
fn without<'p>(value: &Value, pointers: impl Iterator<Item = &'p String>) -> Value {
    let mut value = value.clone();
    for pointer in pointers {
        if let Some((parent, name)) = super::split_last(pointer)
            && let Some(o) = value.pointer_mut(&parent).and_then(Value::as_object_mut)
        {
            o.shift_remove(&name);
        }
    }
    value
}

/// True when `value` holds a `null` member of an object, at any depth: what may be an
/// optional member sent as `null` ([`ArgsSchema::normalise_within`]).
pub(super) fn holds_null_member(value: &Value) -> bool {
    match value {
        Value::Array(a) => a.iter().any(holds_null_member),
        Value::Object(o) => o.values().any(|v| v.is_null() || holds_null_member(v)),
        _ => false,
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

    /// Strict wire forms make an optional member of an object inside a union branch
    /// required and nullable, as they do the arguments' own, and `compile` says `args` maps
    /// the null back to absent; `args` refused it instead ("/filter/value: null is not
    /// allowed here", trial 64 D4). It is now treated as absent as the branch reads it: with
    /// a `null` branch beside, a string branch, a `$ref` in a `oneOf`, a union in an array's
    /// items, and Cohere strict's first optional member.
    #[test]
    fn optional_member_sent_null_inside_a_branch_is_absent() {
        let object = json!({"type":"object","properties":{"field":{"type":"string"},
            "value":{"type":"string"}},"required":["field"]});
        for schema in [
            json!({"type":"object","properties":{"filter":{"anyOf":[object,{"type":"null"}]}}}),
            json!({"type":"object","properties":{"filter":{"anyOf":[object,{"type":"string"}]}}}),
            json!({"type":"object","$defs":{"F":object},
                "properties":{"filter":{"oneOf":[{"$ref":"#/$defs/F"},{"type":"string"}]}}}),
        ] {
            let s = ArgsSchema::new(&schema).unwrap();
            let call = json!({"filter":{"field":"status","value":null}});
            let r = s.check(&call, Coercions::NONE);
            assert!(r.is_valid(), "{schema}: {:#?}", r.problems);
            assert_eq!(r.absent_nulls, ["/filter/value"], "{schema}");
            assert_eq!(
                *r.arguments,
                json!({"filter":{"field":"status"}}),
                "{schema}"
            );
        }
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "rows":{"type":"array","items":{"anyOf":[object,{"type":"integer"}]}},
            "a":{"type":"string"},
            "b":{"anyOf":[{"type":"object","properties":{"c":{"type":"integer"}}},
                {"type":"string"}]}}}))
        .unwrap();
        let call = json!({"rows":[{"field":"f","value":null},3],"a":null,"b":{"c":null}});
        let r = s.check(&call, Coercions::NONE);
        assert!(r.is_valid(), "{:#?}", r.problems);
        assert_eq!(r.absent_nulls, ["/rows/0/value", "/a", "/b/c"]);
        assert_eq!(*r.arguments, json!({"rows":[{"field":"f"},3],"b":{}}));
    }

    /// A null inside a branch stays where the schema means it: one the union's only
    /// satisfiable branch requires, one a `required` beside the union requires (removing it
    /// would tell the model of a member it sent), and one no branch is satisfied without
    /// (`k` required in both) are problems; one the branch accepts is a value, kept.
    #[test]
    fn a_null_inside_a_branch_the_schema_means_is_kept() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "u":{"anyOf":[{"type":"object","properties":{"x":{"type":"string"},
                "y":{"type":["string","null"]}},"required":["x"]},{"type":"integer"}]},
            "v":{"required":["x"],"anyOf":[{"type":"object","properties":{
                "x":{"type":"string"}}},{"type":"integer"}]}}}))
        .unwrap();
        let call = json!({"u":{"x":null,"y":null},"v":{"x":null}});
        let r = s.check(&call, Coercions::NONE);
        let places: Vec<&str> = r.problems.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(places, ["/u/x", "/v/x"], "{:#?}", r.problems);
        assert!(r.absent_nulls.is_empty(), "{:?}", r.absent_nulls);
        let call = json!({"u":{"x":"a","y":null}});
        let r = s.check(&call, Coercions::NONE);
        assert!(r.is_valid() && r.absent_nulls.is_empty(), "{r:#?}");
        assert_eq!(*r.arguments, call);
    }

    /// A union no branch is satisfied by, its value holding an optional member sent as null:
    /// the null was reported beside the real problem ("/x/o: null is not allowed here"),
    /// though outside a union, or with the real problem fixed, it is absent. It is now absent
    /// under the branch whose problems are reported, or under every branch described with
    /// its problems; one a described branch requires stays a problem.
    #[test]
    fn optional_member_sent_null_is_absent_beside_a_branch_problem() {
        let a = json!({"type":"object","properties":{"a":{"type":"string"},
            "o":{"type":"string"}},"required":["a"]});
        let b = |required: Value| {
            json!({"type":"object","properties":{"b":{"type":"string"},
                "o":{"type":"string"}},"required":required})
        };
        let call = json!({"x":{"o":null}});
        for (other, problems) in [
            (json!({"type":"integer"}), vec!["/x/a"]),
            (b(json!(["b"])), vec!["/x"]),
        ] {
            let s = ArgsSchema::new(&json!({"type":"object","properties":{
                "x":{"anyOf":[a.clone(), other.clone()]}}}))
            .unwrap();
            let r = s.check(&call, Coercions::NONE);
            let places: Vec<&str> = r.problems.iter().map(|p| p.pointer.as_str()).collect();
            assert_eq!(places, problems, "{other}: {:#?}", r.problems);
            assert_eq!(r.absent_nulls, ["/x/o"], "{other}");
            assert_eq!(*r.arguments, json!({"x":{}}), "{other}");
            assert!(
                r.problems.iter().all(|p| !p.message.contains("null")),
                "{other}: {:#?}",
                r.problems
            );
        }
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "x":{"anyOf":[a, b(json!(["b","o"]))]}}}))
        .unwrap();
        let r = s.check(&call, Coercions::NONE);
        assert!(r.absent_nulls.is_empty(), "{r:#?}");
        assert_eq!(*r.arguments, call);
    }

    /// A union no branch is satisfied by, its value holding text the branch whose problems
    /// are reported coerces: the text was reported as a string beside the real problem
    /// ("/x/n: \"5\" is a string; expected an integer"), though outside a union (`y`) it is
    /// coerced while other problems remain. It is now coerced when every reported branch reads
    /// it alike; text they read differently, and a `oneOf` whose branches each take the
    /// value so read, are left as sent.
    #[test]
    fn text_is_coerced_beside_a_branch_problem() {
        let number = Coercions {
            numeric_text: true,
            ..Coercions::NONE
        };
        let object = |n: &str, member: &str| {
            json!({"type":"object","properties":{"n":{"type":n},member:{"type":"string"}},
                "required":[member]})
        };
        let call = json!({"x":{"n":"5"},"y":{"n":"5"}});
        for (other, problems) in [
            (json!({"type":"integer"}), vec!["/x/a", "/y/a"]),
            (object("integer", "b"), vec!["/x", "/y/a"]),
        ] {
            let s = ArgsSchema::new(&json!({"type":"object","properties":{
                "x":{"anyOf":[object("integer", "a"), other.clone()]},
                "y":object("integer", "a")}}))
            .unwrap();
            let r = s.check(&call, number);
            let places: Vec<&str> = r.problems.iter().map(|p| p.pointer.as_str()).collect();
            assert_eq!(places, problems, "{other}: {:#?}", r.problems);
            assert_eq!(
                made(&r),
                [
                    ("/x/n".to_string(), CoercionKind::NumericText),
                    ("/y/n".to_string(), CoercionKind::NumericText)
                ],
                "{other}"
            );
            assert_eq!(*r.arguments, json!({"x":{"n":5},"y":{"n":5}}), "{other}");
            assert!(
                r.problems.iter().all(|p| !p.message.contains("string;")),
                "{other}: {:#?}",
                r.problems
            );
        }
        // Read as 1 by one reported branch and as true by the other: a guess, left as sent.
        let call = json!({"x":{"n":"1"}});
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "x":{"anyOf":[object("integer", "a"), object("boolean", "b")]}}}))
        .unwrap();
        let r = s.check(&call, Coercions::ALL);
        assert!(r.coercions.is_empty(), "{r:#?}");
        assert_eq!(*r.arguments, call);
        // Under `oneOf`, both branches take {"n": 5}: normalised only where one alone does.
        let call = json!({"x":{"n":"5"}});
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "x":{"oneOf":[{"type":"object","properties":{"n":{"type":"integer"}}},
                {"type":"object","properties":{"n":{"type":"number"}}}]}}}))
        .unwrap();
        let r = s.check(&call, number);
        assert!(r.coercions.is_empty(), "{r:#?}");
        assert_eq!(*r.arguments, call);
    }

    /// A `oneOf` whose alternatives each take the value as they read it (`{"n": "5"}` as
    /// `{"n": 5}`, an object whose `n` is a number and one whose `n` is an integer): it is left
    /// as sent, and the problem said only "matches none of the alternatives", so the model sent
    /// `{"n": 5}` and was told it matches more than one (trial 66 D4). The problem now says
    /// why it was not coerced, and so for a null both read as absent.
    #[test]
    fn a_one_of_value_that_matches_two_alternatives_as_read_says_why_it_was_left() {
        let object = |n: &str| {
            json!({"type":"object","properties":{"n":{"type":n},"o":{"type":"string"}},
                "required":["n"]})
        };
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "p":{"oneOf":[object("number"), object("integer")]}}}))
        .unwrap();
        let number = Coercions {
            numeric_text: true,
            ..Coercions::NONE
        };
        let call = json!({"p":{"n":"5"}});
        let r = s.check(&call, number);
        assert!(r.coercions.is_empty(), "{r:#?}");
        assert_eq!(*r.arguments, call);
        let [p] = r.problems.as_slice() else {
            panic!("{:#?}", r.problems)
        };
        assert_eq!(
            p.message,
            "/p: {\"n\":\"5\"} matches none of the alternatives; expected one of: an object \
             [/p/n: a number]; an object [/p/n: an integer]. It was not coerced: as the \
             alternatives read it, it matches more than one of them (/p/n as 5: alternatives 1 \
             and 2), and `oneOf` accepts a value matching exactly one; sent that way, it fails \
             too."
        );
        let call = json!({"p":{"n":"5","o":null}});
        let r = s.check(&call, number);
        assert!(
            r.coercions.is_empty() && r.absent_nulls.is_empty(),
            "{r:#?}"
        );
        let [p] = r.problems.as_slice() else {
            panic!("{:#?}", r.problems)
        };
        assert!(
            p.message.ends_with(
                "It was left as sent: as the alternatives read it, it matches more than one of \
                 them (/p/n as 5, /p/o as absent: alternatives 1 and 2), and `oneOf` accepts a \
                 value matching exactly one; sent that way, it fails too."
            ),
            "{}",
            p.message
        );
    }

    /// JSON text of no branch's type as sent, inside `anyOf [T, null]` (Pydantic's
    /// `Optional[T]`) or `anyOf [T, integer]`, T not satisfied by what the text encodes: the
    /// text was left as sent and the model told only "matches none of the alternatives",
    /// though bare T and `type: [T, "null"]` coerce it and name the problem inside (trial 66
    /// D1). The branches that read the text as their type now decide.
    #[test]
    fn json_text_of_no_branch_type_is_read_by_the_branches_that_can() {
        let items = json!({"type":"array","items":{"type":"integer"}});
        for other in [json!({"type":"null"}), json!({"type":"integer"})] {
            let s = ArgsSchema::new(&json!({"type":"object","properties":{
                "e":{"anyOf":[items.clone(), other.clone()]}}}))
            .unwrap();
            let call = json!({"e":"[1,\"x\"]"});
            let r = s.check(&call, Coercions::ALL);
            assert_eq!(
                made(&r),
                [("/e".to_string(), CoercionKind::JsonText)],
                "{other}"
            );
            assert_eq!(*r.arguments, json!({"e":[1,"x"]}), "{other}");
            let places: Vec<&str> = r.problems.iter().map(|p| p.pointer.as_str()).collect();
            assert_eq!(places, ["/e/1"], "{other}: {:#?}", r.problems);
        }
    }

    /// Branches that each take the value once nulls are removed, but remove different ones:
    /// a null one satisfied branch accepts is one the schema accepts, so the branch removing
    /// fewest is read (the other's reading is that with `y` removed too). With no such
    /// branch, the value is left as sent and the problem says how each branch reads it.
    #[test]
    fn branches_removing_different_nulls_keep_the_ones_a_branch_accepts() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{"u":{"anyOf":[
            {"type":"object","properties":{"x":{"type":"string"},"y":{"type":["string","null"]}}},
            {"type":"object","properties":{"x":{"type":"string"},"y":{"type":"string"}}}]}}}))
        .unwrap();
        let call = json!({"u":{"x":null,"y":null}});
        let r = s.check(&call, Coercions::NONE);
        assert!(r.is_valid(), "{:#?}", r.problems);
        assert_eq!(r.absent_nulls, ["/u/x"]);
        assert_eq!(*r.arguments, json!({"u":{"y":null}}));
        let s = ArgsSchema::new(&json!({"type":"object","properties":{"u":{"anyOf":[
            {"type":"object","properties":{"x":{"type":"string"},"y":{"type":["string","null"]}},
                "required":["y"]},
            {"type":"object","properties":{"x":{"type":["string","null"]},"y":{"type":"string"}},
                "required":["x"]}]}}}))
        .unwrap();
        let call = json!({"u":{"x":null,"y":null}});
        let r = s.check(&call, Coercions::NONE);
        assert_eq!(*r.arguments, call);
        let [p] = r.problems.as_slice() else {
            panic!("{:#?}", r.problems)
        };
        assert!(
            p.message.ends_with(
                "It was left as sent: the alternatives read it differently (alternative 1, an \
                 object: /u/x as absent; alternative 2, an object: /u/y as absent); leave out \
                 the members not given instead of sending null."
            ),
            "{}",
            p.message
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
