//! What an item must be to match a `contains` schema, in words: the retry message of an array
//! with too few or too many matching items says it.
//!
//! The words must not describe items the call already has. Each keyword is either said (a
//! `type`, the bounds [`push_bounds`] says, `required`, the members' bounds, an `anyOf`'s
//! branches, a `not`, `additionalProperties: false`, `dependentRequired`, what a `$ref` names)
//! or the words are marked partial ([`Said::whole`]), and the message then says the item must
//! meet the rest of the schema too (trial 57 D2: an `anyOf`'s bounds, a `not`,
//! `additionalProperties: false` and `dependentRequired` were left out, so the call's items
//! were what the message asked for).

use serde_json::{Map, Value};

use super::unions::{BOUNDS, push_bounds};
use super::{annotates, expected_for, says_nothing, short_value};
use crate::describe::type_label;
use crate::schema::refs::{Chain, follow};

/// How deep `$ref`s, `anyOf` branches and `not`s are followed before the rest is left unsaid.
const MAX_DEPTH: usize = 8;

/// A `minContains`/`maxContains` bound as the validator reads it, said as written.
///
/// Both are non-negative integers (JSON Schema 2020-12 validation §6.4.4, §6.4.5), and from
/// draft 6 on a number with a zero fractional part is an integer, so `2.0` is 2 (trial 58 D11:
/// such a bound was read as absent and the message asked for "at least one item", which the
/// call had). One past 2^64 holds as 2^64-1, where the validator caps it; it is said as the
/// schema writes it, or else as serde_json reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Count<'v> {
    /// The bound.
    pub n: u64,
    /// The bound and how the schema writes it (when known), where `n` does not say it.
    past: Option<(&'v Value, Option<&'v str>)>,
}

impl<'v> Count<'v> {
    /// `minContains`'s default.
    pub const ONE: Self = Count { n: 1, past: None };

    /// The bound `v`, written `written` when known, holds; `None` when it is not a
    /// non-negative integer.
    pub fn read(v: &'v Value, written: Option<&'v str>) -> Option<Self> {
        if let Some(n) = v.as_u64() {
            return Some(Count { n, past: None });
        }
        let f = v.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0)?;
        // Every float below 2^64 with no fraction is a `u64`; from 2^64 on the cast saturates.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let n = f as u64;
        let past = (f >= 18_446_744_073_709_551_616.0).then_some((v, written));
        Some(Count { n, past })
    }
}

impl std::fmt::Display for Count<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.past {
            Some((_, Some(written))) => f.write_str(written),
            Some((v, None)) => f.write_str(&short_value(v)),
            None => write!(f, "{}", self.n),
        }
    }
}

/// What an item must be, in words.
#[derive(Debug, PartialEq)]
pub(super) struct Said {
    /// "a string of at least 3 characters or an integer at most 0".
    pub text: String,
    /// Whether `text` says all the schema asks; when not, what it says is still asked.
    pub whole: bool,
    /// Whether no value matches, `text` then saying why ("its `const` 1 is not a string").
    pub none: bool,
}

impl Said {
    /// Partial words that name no constraint ("a value"): the message names the schema only.
    pub fn vague(&self) -> bool {
        !self.whole && matches!(self.text.as_str(), "a value" | "any value")
    }
}

/// Reads `contains` schemas into words.
pub(super) struct Reader<'s> {
    /// The schema object a `$ref` is read in.
    pub root: &'s Value,
    /// Whether the schema's draft has `dependentRequired` (2019-09 on; earlier ones ignore it).
    pub dependent_required: bool,
}

impl Reader<'_> {
    /// What an item must be to match `c`.
    pub fn said(&self, c: &Value) -> Said {
        self.at(c, 0)
    }

    fn at(&self, c: &Value, depth: usize) -> Said {
        let deeper = depth < MAX_DEPTH;
        if let Some(r) = c.get("$ref").and_then(Value::as_str) {
            // What it names: `"#"` was said "a #" (trial 57 D2). Whole when it is alone and
            // one hop reaches the schema (the keywords beside a `$ref` on the way are unsaid).
            return match follow(self.root, r) {
                Chain::Reaches { schema, last, .. } if deeper => {
                    let s = self.at(schema, depth + 1);
                    let whole = s.none || (s.whole && last == r && only(c, "$ref"));
                    Said { whole, ..s }
                }
                _ => vague(),
            };
        }
        if let Some(branches) = c.get("anyOf").and_then(Value::as_array)
            && !branches.is_empty()
            && only(c, "anyOf")
            && deeper
        {
            let mut texts: Vec<String> = Vec::new();
            let mut whole = true;
            // A branch that matches nothing adds nothing to what matches.
            for s in branches
                .iter()
                .map(|b| self.at(b, depth + 1))
                .filter(|s| !s.none)
            {
                whole &= s.whole;
                if !texts.contains(&s.text) {
                    texts.push(s.text);
                }
            }
            if texts.is_empty() {
                return none("no branch of its `anyOf` matches any value".to_string());
            }
            return Said {
                text: texts.join(" or "),
                whole,
                none: false,
            };
        }
        if let Some(why) = matches_none(c) {
            return none(why);
        }
        let typed_object = c.get("type").and_then(Value::as_str) == Some("object");
        // Without a `type`, `properties` hold for objects only and any other item matches:
        // said so, not "an object" (trial 55 D10).
        let untyped_object = c.get("type").is_none() && type_label(c) == "object";
        let object = typed_object || untyped_object;
        let mut text = if untyped_object {
            "an object".to_string()
        } else {
            expected_for(c)
        };
        let head = text.len();
        push_bounds(&mut text, c);
        let mut whole = true;
        let required: Vec<&str> = names(c.get("required"));
        let members: Vec<String> = c
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(name, p)| {
                whole &= member_whole(p);
                let typed = ["type", "const", "enum"].iter().any(|k| p.get(k).is_some());
                let mut said = if typed {
                    expected_for(p)
                } else {
                    String::new()
                };
                push_bounds(&mut said, p);
                let said = said.trim_start();
                let given = if required.contains(&name.as_str()) {
                    ""
                } else {
                    " (if given)"
                };
                (!said.is_empty()).then(|| format!("`{name}`{given} is {said}"))
            })
            .collect();
        if !members.is_empty() {
            text.push_str(" whose ");
            text.push_str(&members.join(" and "));
        }
        for (keyword, v) in c.as_object().into_iter().flatten() {
            let clause = match keyword.as_str() {
                k if said_here(k) || annotates(k) => continue,
                "additionalProperties" if says_nothing(v) => continue,
                "additionalProperties"
                    if v == &Value::Bool(false)
                        && object
                        && c.get("patternProperties").is_none() =>
                {
                    no_other_members(c)
                }
                "dependentRequired" if object && self.dependent_required => match dependents(v) {
                    Some(Some(clause)) => clause,
                    Some(None) => continue,
                    None => {
                        whole = false;
                        continue;
                    }
                },
                // Not beside an untyped object's members: its ", or not an object" would
                // then read as free of the `not`.
                "not" if !untyped_object && deeper => {
                    let not = self.at(v, depth + 1);
                    // Not a schema that matches nothing: every value.
                    if not.none {
                        continue;
                    }
                    if !not.whole {
                        whole = false;
                        continue;
                    }
                    format!("that is not {}", not.text)
                }
                _ => {
                    whole = false;
                    continue;
                }
            };
            text.push_str(if text.len() == head { " " } else { ", " });
            text.push_str(&clause);
        }
        let text = match (untyped_object, text.as_str()) {
            (true, "an object") => "any value".to_string(),
            (true, _) => text + ", or not an object",
            _ => text,
        };
        Said {
            text,
            whole,
            none: false,
        }
    }
}

/// Words that say nothing and claim nothing.
fn vague() -> Said {
    Said {
        text: "a value".to_string(),
        whole: false,
        none: false,
    }
}

/// Words for a schema no value matches, `why`.
fn none(why: String) -> Said {
    Said {
        text: why,
        whole: true,
        none: true,
    }
}

/// Why no value matches `c`, when it is `false` or its `const`/`enum` is all of a type its
/// own `type` excludes (trial 58 D8: `{type: string, const: 1}` was said "exactly 1", and the
/// call's item 1 was told to be what it was), or by [`crossed`], [`not_all`] or
/// [`required_false`] (trial 59 D7: `{type: integer, not: {type: integer}}` asked for "an
/// integer that is not an integer"). Each is certain: doubt says nothing here.
fn matches_none(c: &Value) -> Option<String> {
    let o = match c {
        Value::Bool(false) => return Some("it is `false`".to_string()),
        Value::Object(o) => o,
        _ => return None,
    };
    let typed = || expected_for(&serde_json::json!({"type": o.get("type")}));
    if let Some(v) = o.get("const") {
        if crate::json::type_excludes(o, v) {
            return Some(format!("its `const` {} is not {}", short_value(v), typed()));
        }
    } else if let Some(members) = o.get("enum").and_then(Value::as_array) {
        if members.is_empty() {
            return Some("its `enum` allows none".to_string());
        }
        if members.iter().all(|v| crate::json::type_excludes(o, v)) {
            return Some(format!("no member of its `enum` is {}", typed()));
        }
    }
    crossed(o)
        .or_else(|| not_all(o))
        .or_else(|| required_false(o))
}

/// The types schema `o`'s `type` admits, when it names only types JSON Schema knows; `null`
/// added beside OpenAPI's `nullable: true`, which args reads as admitting it.
fn kinds(o: &Map<String, Value>) -> Option<Vec<&str>> {
    let mut kinds: Vec<&str> = match o.get("type")? {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) if !ts.is_empty() => {
            ts.iter().map(Value::as_str).collect::<Option<_>>()?
        }
        _ => return None,
    };
    if !kinds.iter().all(|k| KINDS.contains(k) || *k == "integer") {
        return None;
    }
    if o.get("nullable") == Some(&Value::Bool(true)) {
        kinds.push("null");
    }
    Some(kinds)
}

/// The types of JSON values (an integer is a number).
const KINDS: [&str; 6] = ["null", "boolean", "number", "string", "array", "object"];

/// Why no value matches `o` by its bounds: its `type` admits only the values a lower and an
/// upper bound apply to, and no value lies between them (`minimum` 5 above `maximum` 3, or
/// one of them exclusive at the same number; `minLength` above `maxLength`, `minItems` above
/// `maxItems`, `minProperties` above `maxProperties`). A draft-04 boolean `exclusiveMinimum`
/// is left aside, its `minimum` then read as inclusive: that admits more, never less.
fn crossed(o: &Map<String, Value>) -> Option<String> {
    use std::cmp::Ordering::{Equal, Greater};
    let kinds = kinds(o)?;
    let all = |of: &[&str]| kinds.iter().all(|k| of.contains(k));
    let say = |lo: &str, hi: &str, what: &str| {
        format!(
            "its `{lo}` {} and `{hi}` {} leave no {what} between them",
            short_value(&o[lo]),
            short_value(&o[hi])
        )
    };
    if all(&["number", "integer"]) {
        let number = |k: &str| o.get(k).and_then(Value::as_number);
        for (lo, lo_open) in [("minimum", false), ("exclusiveMinimum", true)] {
            for (hi, hi_open) in [("maximum", false), ("exclusiveMaximum", true)] {
                let (Some(l), Some(h)) = (number(lo), number(hi)) else {
                    continue;
                };
                match order(l, h) {
                    Some(Greater) => return Some(say(lo, hi, "number")),
                    Some(Equal) if lo_open || hi_open => return Some(say(lo, hi, "number")),
                    _ => {}
                }
            }
        }
        return None;
    }
    let (lo, hi, what) = if all(&["string"]) {
        ("minLength", "maxLength", "length")
    } else if all(&["array"]) {
        ("minItems", "maxItems", "count of items")
    } else if all(&["object"]) {
        ("minProperties", "maxProperties", "count of members")
    } else {
        return None;
    };
    let count = |k: &str| o.get(k).and_then(|v| Count::read(v, None)).map(|c| c.n);
    // A count past 2^64 is read as 2^64-1: a lower bound only shrinks, an upper one only
    // equals the other then, so a crossing found is one the bounds as written have.
    (count(lo)? > count(hi)?).then(|| say(lo, hi, what))
}

/// The order of two numbers, exact where both are integers; as floats where each is one
/// exactly (an integer past 2^53 may round, so none is claimed).
fn order(a: &serde_json::Number, b: &serde_json::Number) -> Option<std::cmp::Ordering> {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return Some(x.cmp(&y));
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return Some(x.cmp(&y));
    }
    let exact = |n: &serde_json::Number| {
        n.is_f64()
            || n.as_f64()
                .is_some_and(|f| f.abs() <= 9_007_199_254_740_992.0)
    };
    if !(exact(a) && exact(b)) {
        return None;
    }
    a.as_f64()?.partial_cmp(&b.as_f64()?)
}

/// Why no value matches `o` by its `not`: one every value matches (`true`, a schema of
/// annotations only), or one of `type` alone admitting every type `o`'s `type` admits (all
/// types where `o` has none); an integer is a number. The `not`'s `nullable` is left aside:
/// it would only admit more there, so rule out more here.
fn not_all(o: &Map<String, Value>) -> Option<String> {
    let not = match o.get("not")? {
        Value::Bool(true) => return Some("its `not` is `true`, which every value matches".into()),
        Value::Object(n) => n,
        _ => return None,
    };
    if not.keys().all(|k| annotates(k)) {
        return Some("its `not` schema asks nothing, so every value matches it".into());
    }
    if !not
        .keys()
        .all(|k| k == "type" || k == "nullable" || annotates(k))
    {
        return None;
    }
    let theirs = match not.get("type")? {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().map(Value::as_str).collect::<Option<_>>()?,
        _ => return None,
    };
    let ours = match o.get("type") {
        None => KINDS.to_vec(),
        Some(_) => kinds(o)?,
    };
    ours.iter()
        .all(|t| theirs.contains(t) || (*t == "integer" && theirs.contains(&"number")))
        .then(|| match o.get("type") {
            Some(_) => "its `not` rules out every value its `type` allows".to_string(),
            None => "its `not` rules out every value".to_string(),
        })
}

/// Why no value matches `o` by a member: its `type` admits objects only, and it requires a
/// member whose schema in `properties` is `false`.
fn required_false(o: &Map<String, Value>) -> Option<String> {
    if kinds(o)? != ["object"] {
        return None;
    }
    let members = o.get("properties")?.as_object()?;
    names(o.get("required"))
        .into_iter()
        .find(|n| members.get(*n) == Some(&Value::Bool(false)))
        .map(|n| format!("it requires the member `{n}`, whose schema is `false`"))
}

/// The keywords the head of the words says: what [`expected_for`] and [`push_bounds`] say,
/// and `properties` (each member as [`member_whole`] reads it).
fn said_here(keyword: &str) -> bool {
    matches!(
        keyword,
        "type" | "const" | "enum" | "required" | "properties"
    ) || BOUNDS.iter().any(|(k, _, _)| *k == keyword)
}

/// Whether a member's words say all its schema asks: its type and bounds only.
fn member_whole(p: &Value) -> bool {
    match p {
        Value::Bool(accepts) => *accepts,
        Value::Object(o) => o
            .keys()
            .all(|k| (said_here(k) && k != "properties") || annotates(k)),
        _ => false,
    }
}

/// Whether every keyword of `c` but `keyword` only annotates.
fn only(c: &Value, keyword: &str) -> bool {
    c.as_object()
        .is_some_and(|o| o.keys().all(|k| k == keyword || annotates(k)))
}

/// The strings of a list (`required`, a `dependentRequired` entry).
fn names(list: Option<&Value>) -> Vec<&str> {
    list.and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// "with no members other than `r`" for `additionalProperties: false` beside `properties`.
fn no_other_members(c: &Value) -> String {
    let declared: Vec<String> = c
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(n, _)| format!("`{n}`"))
        .collect();
    if declared.is_empty() {
        "with no members".to_string()
    } else {
        format!("with no members other than {}", declared.join(", "))
    }
}

/// "with `b` wherever it has `a`" for `dependentRequired: {a: [b]}`; `Some(None)` when it asks
/// nothing, `None` when it is not a map of name lists.
fn dependents(v: &Value) -> Option<Option<String>> {
    let mut clauses = Vec::new();
    for (name, needed) in v.as_object()? {
        needed.as_array()?;
        let needed: Vec<String> = names(Some(needed))
            .iter()
            .map(|n| format!("`{n}`"))
            .collect();
        if !needed.is_empty() {
            clauses.push(format!(
                "with {} wherever it has `{name}`",
                needed.join(", ")
            ));
        }
    }
    Some((!clauses.is_empty()).then(|| clauses.join(", ")))
}
