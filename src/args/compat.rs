//! Keywords from outside JSON Schema 2020-12 that real tool schemas use, rewritten into their
//! 2020-12 meaning in the copy `args` compiles (the declared schema is left as it is); and one
//! 2020-12 form written otherwise with the same meaning, so that the validator names each
//! member it refuses.
//!
//! - `nullable: true` (OpenAPI 3.0 Schema Object; Gemini's `parameters` form, which
//!   `toolwire repair` writes for `type: [T, "null"]`): "allows sending a null value for the
//!   defined schema" (OpenAPI 3.0.0, Schema Object, `nullable`). Written as `null` added to
//!   `type`, to `enum` (and `const`, as an `enum`) and as a `{"type":"null"}` branch of `anyOf`,
//!   so that a `null` passes every keyword of that subschema that could refuse it. Not
//!   rewritten (a `null` is still refused there): `nullable` beside `$ref`, `oneOf` or `allOf`,
//!   which would need the subschema moved into a new branch.
//! - Draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum` (draft-04 validation §5.1.2,
//!   §5.1.3: `true` makes `minimum`/`maximum` exclusive): written as draft-06's numeric form
//!   (`"minimum": 0, "exclusiveMinimum": true` → `"exclusiveMinimum": 0`), unless `$schema`
//!   declares draft-04, which the validator then reads natively.
//!
//! - Draft-04's `required: []` where `$schema` declares draft-04 (or -03): its meta-schema
//!   asks for at least one name (draft-04 validation §5.4.3.1, `minItems: 1`), so the
//!   validator refused to compile the schema and every call was bad input, while an empty
//!   list requires nothing (what draft-06 and later say of it, and how `check` reads every
//!   schema) and tool schemas carry it often. Left out of the copy: the same meaning.
//!
//! - A `type` spelled as no JSON Schema type but as one `toolwire repair` and `compile` read
//!   ([`crate::profile::feature::type_meant_by`]: `str`, `dict`, `float`, `Integer`, Gemini's
//!   proto `STRING`, ...; also inside a `type` list): written as the type it means, so that
//!   the schema `repair` and `compile` promise `args` checks ("`toolwire args` still checks it
//!   against the original schema") is checked as they read it. Each is listed
//!   ([`type_spellings`]) for the command to say so. `any` (any case; BFCL's tools write it,
//!   and `compile` passes it to targets that take it) means any value, as `repair` reads it
//!   (it refuses to guess one type for it): the `type` keyword is left out of the copy, alone
//!   or in a `type` list (any value or more is any value), so no type is checked there; it is
//!   listed too. A spelling that names no type (`strin`, `""`) is left, and the schema does
//!   not compile.
//!
//! - A count keyword (`maxItems`, `minItems`, `maxLength`, `minLength`, `maxProperties`,
//!   `minProperties`) written as a JSON string holding a non-negative integer in canonical form
//!   (`"2"`), as Gemini's `Schema` writes them: its REST reference types them `string (int64
//!   format)` ([`int64_count`]): written as that integer, and listed
//!   ([`int64_strings`]) for the command to say so. Any other string (`"02"`, `"-1"`, `"2.0"`,
//!   `"two"`) is left, and the schema does not compile, as before.
//! - `minimum` or `maximum` written as a JSON string holding a JSON number (`"1"`, `"1.5"`,
//!   `"-2e3"`), as Gemini's `Schema` may carry them: it types them double, whose protobuf JSON
//!   form may be a string ([`double_bound`]): written as that number, and listed
//!   ([`double_strings`]). Any other string (`"NaN"`, `"Infinity"`, `" 1"`, `"+1"`), and a
//!   string at `exclusiveMinimum`, `exclusiveMaximum` or `multipleOf` (no field of Gemini's
//!   `Schema`), is left, and the schema does not compile, as before.
//!
//! - `$ref: ""` (the document itself, as `check`, `repair` and `compile` read it): written as
//!   `"#"`, which the validator resolves to the root; as written it resolved to nothing and
//!   accepted any value.
//!
//! - A `$ref` whose fragment holds characters RFC 3986 does not allow raw there (§3.5:
//!   `fragment = *( pchar / "/" / "?" )`; non-ASCII, spaces, `[`, `|`, `{`, a `%` starting no
//!   escape), as pydantic writes `#/$defs/Città` for a model so named: written percent-encoded
//!   (`#/$defs/Citt%C3%A0`), which names the same member (RFC 6901 §6) and which the validator
//!   parses, as `check`, `repair` and `compile` read the reference as written; the validator
//!   refused it raw ("Invalid URI reference"), so no call could be checked.
//!
//! - A `pattern` with an ECMA-262 spelling the validator's regex engine spells otherwise
//!   (`\0`, `[\b]`, `[^]`, `[]`, `\b`; [`crate::schema::ecma::rust_pattern`]): written in the
//!   engine's spelling, so that a valid ECMA-262 pattern compiles and means what ECMA-262 says.
//!   So is a `patternProperties` key (`a{,3}`, the text `a{,3}` under Annex B, as `\{`): the
//!   engine compiles keys as patterns too.
//!
//! - `additionalProperties: false` with neither `properties` nor `patternProperties` beside:
//!   an empty `properties` is added, which declares no member, as none was. The validator
//!   checks that form alone as one `false` schema at the object, naming no member (`{"a":"x",
//!   "b":1}` read "(the arguments object): this argument is not allowed; leave it out", one
//!   problem for two members); beside `properties` it names each member it refuses, at the
//!   member's place.
//!
//! Only keywords are changed or added, never subschemas moved, so every schema path of the
//! copy names the same place in the declared schema, but for a rewritten `patternProperties`
//! key, which [`declared_pointer`] maps back to the key as written.

use std::borrow::Cow;

use serde_json::{Value, json};

use crate::schema::NOT_IN_FRAGMENT;

/// The schema to compile for `declared`: `None` when nothing needs rewriting (the common
/// case, so the declared schema is compiled without a copy). A `pattern` the engine cannot
/// check ([`unchecked_patterns`]) is left out: read as matching every string.
pub(super) fn compiled_form(declared: &Value) -> Option<Value> {
    compiled_reading(declared, false)
}

/// What a `pattern` that can match no string is written as: `.` consumes a character, after
/// which `^` (no multiline flag) cannot hold, so no string matches, in ECMA-262 as in the
/// engine.
const MATCHES_NOTHING: &str = ".^";

/// [`compiled_form`]'s other reading, where each `pattern` the engine cannot check matches no
/// string (written [`MATCHES_NOTHING`], at the same place, so every schema path names the same
/// place as in [`compiled_form`]): under `not`, `if` or a `oneOf` counting matches, taking
/// such a pattern as matching decides the verdict as much as taking it as failing, so a call
/// is refused only for what both readings refuse (trial 59 D13). Compiled only for a schema
/// with such a `pattern` (the caller knows from [`unchecked_patterns`]), so the common schema
/// pays nothing.
pub(super) fn compiled_form_matching_nothing(declared: &Value) -> Option<Value> {
    compiled_reading(declared, true)
}

fn compiled_reading(declared: &Value, unchecked_match_nothing: bool) -> Option<Value> {
    let draft04 = declared
        .get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|s| s.contains("draft-04") || s.contains("draft-03"));
    let places = object_places(declared, |o| needs_rewrite(o, draft04));
    if places.is_empty() {
        return None;
    }
    let mut copy = declared.clone();
    for pointer in &places {
        if let Some(Value::Object(node)) = copy.pointer_mut(pointer) {
            if says_any(node) {
                node.shift_remove("type");
            }
            match node.get_mut("type") {
                Some(Value::String(t)) => {
                    if let Some(meant) = meant(t) {
                        *t = meant.to_string();
                    }
                }
                Some(Value::Array(types)) => {
                    for t in types {
                        if let Some(meant) = t.as_str().and_then(meant) {
                            *t = Value::from(meant);
                        }
                    }
                }
                _ => {}
            }
            read_number_strings(node);
            if is_document_ref(node) {
                node.insert("$ref".into(), Value::from("#"));
            }
            for keyword in REFERENCES {
                if let Some(encoded) = encoded_ref(node, keyword) {
                    node.insert(keyword.into(), Value::from(encoded));
                }
            }
            if node
                .get("pattern")
                .and_then(Value::as_str)
                .and_then(crate::schema::ecma::unsupported)
                .is_some()
            {
                // Valid ECMA-262 the engine cannot compile: left unchecked, and said so
                // ([`unchecked_patterns`]), rather than the whole schema refused.
                if unchecked_match_nothing {
                    node.insert("pattern".into(), Value::from(MATCHES_NOTHING));
                } else {
                    node.shift_remove("pattern");
                }
            }
            if let Some(Value::String(p)) = node.get_mut("pattern")
                && let Cow::Owned(rust) = crate::schema::ecma::rust_pattern(p)
            {
                *p = rust;
            }
            if node.get("nullable") == Some(&Value::Bool(true)) {
                accept_null(node);
            }
            if closed_without_members(node) {
                node.insert("properties".into(), json!({}));
            }
            if !draft04 {
                numeric_exclusive(node, "exclusiveMinimum", "minimum");
                numeric_exclusive(node, "exclusiveMaximum", "maximum");
            } else if empty_required(node) {
                node.shift_remove("required");
            }
        }
    }
    // Descendants first: renaming a key moves the places below it.
    for pointer in places.iter().rev() {
        if let Some(Value::Object(members)) = copy
            .pointer_mut(pointer)
            .and_then(|n| n.get_mut("patternProperties"))
        {
            rename_pattern_keys(members);
        }
    }
    Some(copy)
}

/// Writes each key of a `patternProperties` object in the engine's spelling, in place and
/// order. A key whose spelling is already a key (`a{,3}` beside `a\\{,3}`) is left as written
/// (the schema then does not compile, as before), since merging two subschemas would move them.
fn rename_pattern_keys(members: &mut serde_json::Map<String, Value>) {
    let written = std::mem::take(members);
    for (k, sub) in &written {
        let key = match crate::schema::ecma::rust_pattern(k) {
            Cow::Owned(engine)
                if !written.contains_key(&engine) && !members.contains_key(&engine) =>
            {
                engine
            }
            _ => k.clone(),
        };
        members.insert(key, sub.clone());
    }
}

/// The place in the declared schema of `path`, a JSON Pointer into [`compiled_form`]'s copy of
/// `declared` (a validator's schema path): the same path but for each `patternProperties` key
/// the copy spells otherwise, written back as the declared schema writes it, so that what
/// is said of the place names the key the user wrote. A path the declared schema cannot
/// follow (through a `$ref`) is kept as it is from there on.
pub(super) fn declared_pointer<'p>(declared: &Value, path: &'p str) -> Cow<'p, str> {
    let mut node = Some(declared);
    let mut out = String::with_capacity(path.len());
    let mut renamed = false;
    let mut previous = "";
    for raw in path.split('/').skip(1) {
        let token = raw.replace("~1", "/").replace("~0", "~");
        let members = node.and_then(Value::as_object);
        let written = match members {
            Some(m) if previous == "patternProperties" && !m.contains_key(&token) => m
                .keys()
                .find(|k| crate::schema::ecma::rust_pattern(k) == token.as_str()),
            _ => None,
        };
        node = match node {
            Some(Value::Object(o)) => o.get(written.map_or(token.as_str(), String::as_str)),
            Some(Value::Array(a)) => token.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        };
        out.push('/');
        match written {
            Some(k) => {
                renamed = true;
                out.push_str(&crate::json::escape_token(k));
            }
            None => out.push_str(raw),
        }
        previous = raw;
    }
    if renamed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(path)
    }
}

/// One `type` spelling read as the JSON Schema type it means (see
/// [`crate::args::ArgsSchema::type_spellings`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TypeSpelling {
    /// JSON Pointer to the `type` keyword (to the list member for a `type` list) in the
    /// declared schema.
    pub pointer: String,
    /// The spelling as written (`str`, `STRING`).
    pub written: String,
    /// The JSON Schema type it is checked as (`string`); for `any`, "any value": no type is
    /// checked there.
    pub read_as: &'static str,
    /// What the spelling says that the type does not, and so is not checked (`tuple`: "a
    /// fixed-length tuple"), from [`crate::profile::feature::type_meant_by`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unchecked: Option<&'static str>,
}

/// What [`TypeSpelling::read_as`] says of `any`: no type.
pub const ANY_VALUE: &str = "any value";

/// Whether `t` is `any` in any case: a spelling of "any value" ([`compiled_form`]).
fn is_any(t: &str) -> bool {
    t.eq_ignore_ascii_case("any")
}

/// Whether `node`'s `type` is `any`, or a list holding it: any value.
fn says_any(node: &serde_json::Map<String, Value>) -> bool {
    match node.get("type") {
        Some(Value::String(t)) => is_any(t),
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).any(is_any),
        _ => false,
    }
}

/// The JSON type a non-standard spelling `t` means, `None` for a standard type (`string`) or
/// a spelling that names none (`any`, which means no type: [`says_any`]).
fn meant(t: &str) -> Option<&'static str> {
    crate::profile::feature::type_meant_by(t)
        .map(|(m, _)| m)
        .filter(|m| *m != t)
}

/// Every `type` spelling of `declared` that [`compiled_form`] reads as another type, in
/// schema order.
pub fn type_spellings(declared: &Value) -> Vec<TypeSpelling> {
    let mut out = Vec::new();
    for n in crate::schema::walk(declared).nodes {
        let Some(node) = n.object() else { continue };
        let mut one = |pointer: String, t: &str| {
            let any = is_any(t).then_some((ANY_VALUE, None));
            if let Some((read_as, unchecked)) =
                any.or_else(|| crate::profile::feature::type_meant_by(t).filter(|(m, _)| *m != t))
            {
                out.push(TypeSpelling {
                    pointer,
                    written: t.to_string(),
                    read_as,
                    unchecked,
                });
            }
        };
        let at = crate::json::push_token(&n.pointer, "type");
        match node.get("type") {
            Some(Value::String(t)) => one(at, t),
            Some(Value::Array(types)) => {
                for (i, t) in types.iter().enumerate() {
                    if let Some(t) = t.as_str() {
                        one(format!("{at}/{i}"), t);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The keywords Gemini's `Schema` types as int64, which the protobuf JSON mapping writes as
/// JSON strings: the Gemini API reference's `Schema` (https://ai.google.dev/api/caching#Schema)
/// gives `maxItems`, `minItems`, `maxLength`, `minLength`, `maxProperties` and
/// `minProperties` as "string (int64 format)", as Vertex AI's `Schema` does
/// (https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Schema); checked
/// 2026-12-06 against clients generated from those APIs' discovery documents (Geminix's
/// `V1beta.Schema`, `max_items` a binary; googleapis' Dart `GoogleCloudAiplatformV1Schema`,
/// `maxItems` a `String?`), not the pages themselves. "int64, fixed64, uint64: JSON value will
/// be a decimal string" (https://protobuf.dev/programming-guides/json/).
const INT64_COUNTS: &[&str] = &[
    "maxItems",
    "minItems",
    "maxLength",
    "minLength",
    "maxProperties",
    "minProperties",
];

/// The count a JSON string spells as protobuf's JSON writes a non-negative int64: decimal
/// digits, no sign, no leading zero (but `"0"` itself), at most `i64::MAX`. `None` for any
/// other value, a number too: a count written as a number is JSON Schema's own.
fn int64_count(v: &Value) -> Option<u64> {
    let text = v.as_str()?;
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    let n: i64 = text.parse().ok().filter(|_| canonical)?;
    u64::try_from(n).ok()
}

/// Whether keyword `k` is one Gemini's `Schema` types as int64 ([`INT64_COUNTS`]), so that a
/// JSON string may stand for its count.
pub(crate) fn is_int64_count(k: &str) -> bool {
    INT64_COUNTS.contains(&k)
}

/// The keywords Gemini's `Schema` types as double: `minimum` and `maximum` are `number`
/// in the generated `google.ai.generativelanguage.v1beta.ISchema` (`minimum?: (number|null)`,
/// where its int64 counts are `(number|Long|string|null)`) and `Float` in googleapis' Ruby
/// `GoogleCloudAiplatformV1beta1Schema` (checked 2026-12-07 against those clients'
/// references, not the proto itself). Protobuf's JSON mapping reads a double from a JSON
/// string too: "JSON value will be a number or one of the special string values "NaN",
/// "Infinity", and "-Infinity". Either numbers or strings are accepted. Empty strings are
/// invalid. Exponent notation is also accepted."
/// (https://protobuf.dev/programming-guides/proto3/#json). `exclusiveMinimum`,
/// `exclusiveMaximum` and `multipleOf` are no fields of that `Schema`, so no string of theirs
/// is read as a number.
const DOUBLE_BOUNDS: &[&str] = &["minimum", "maximum"];

/// The number a JSON string spells as a double protobuf's JSON reads and JSON Schema can
/// write: the string is a JSON number (RFC 8259 §6: optional `-`, no leading zero, no `+`,
/// no spaces; `"1"`, `"1.5"`, `"-2e3"`) that a 64-bit float holds (`"1e400"` is none:
/// [`json_number_text`] tells it from a string that is no number at all). `None` for `"NaN"`,
/// `"Infinity"` and `"-Infinity"`, doubles that no JSON number spells (JSON Schema wants a
/// number), and for any other value, a number too: a bound written as a number is JSON
/// Schema's own.
///
/// A whole number is written as an integer (`"-2e3"` is -2000, not -2000.0) where the string
/// has no fraction, or where `node`'s `type` takes integers and no other numbers
/// ([`integer_typed`]: `"1.0"` on an integer is 1): the value is the same to JSON Schema
/// (2020-12 validation §6.2 compares numbers by value), but an integer's bound written as a
/// float reads as a fraction to a reader, and to a provider typing the field as an integer.
/// A whole number past 64-bit integers (`"1e20"`) stays the float serde_json holds. A whole
/// number of 17 digits and more is read from the text, not from the double nearest it, which
/// may be another number (`"12345678901234567"` is 12345678901234567, on a `number` too where
/// the string writes a fraction, `"12345678901234567.0"`); a number no double nor 64-bit
/// integer holds (`"12345678901234567.5"`, 21 digits) is the double nearest it, which
/// [`spells_same_number`] tells from the string (`repair` says the loss).
fn double_bound(node: &serde_json::Map<String, Value>, v: &Value) -> Option<serde_json::Number> {
    let text = v.as_str()?;
    // serde_json reads RFC 8259's grammar and refuses what overflows a double, but takes
    // whitespace around the number, which is no number's spelling.
    let n = match serde_json::from_str::<Value>(text) {
        Ok(Value::Number(n)) if text.trim() == text => n,
        _ => return None,
    };
    // Only a mantissa has a `.`: "1.0e2" has a fraction written, "1e2" none.
    let fraction = text.contains('.');
    // Read from the text, not from the double: a double holds no integer of 17 digits and
    // more exactly ("12345678901234567.0" is the double 12345678901234568).
    let exact = exact_integer(text);
    if let Some(i) = exact.clone().filter(|_| !fraction || integer_typed(node)) {
        return Some(i);
    }
    // A float that writes another value than the string spells, where the string spells a
    // whole number a 64-bit integer holds: that integer, the same value.
    match exact {
        Some(i) if !spells_same_number(text, &n) => Some(i),
        _ => Some(n),
    }
}

/// The value a JSON number's text spells, exactly: its sign, its significant digits and the
/// power of ten of the last of them (`"-120.50"` is `(true, "1205", -1)`, `"1.5e+3"` is
/// `(false, "15", 2)`; zero, `"-0"` too, is `(false, "", 0)`). `None` for text that is no
/// JSON number (RFC 8259 §6, [`json_number_text`]) or whose exponent no 64-bit integer holds.
fn decimal_value(text: &str) -> Option<(bool, String, i64)> {
    if !json_number_text(text) {
        return None;
    }
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], unsigned[at + 1..].parse::<i64>().ok()?),
        None => (unsigned, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return Some((false, String::new(), 0));
    }
    let significant = digits.trim_end_matches('0');
    let zeros = i64::try_from(digits.len() - significant.len()).ok()?;
    let places = i64::try_from(frac.len()).ok()?;
    let power = exponent.checked_sub(places)?.checked_add(zeros)?;
    Some((negative, significant.to_string(), power))
}

/// Whether `text` (a JSON number's spelling) and `n`, as serde_json writes it, spell the same
/// value: `"0.1"` and `0.1` do; `"12345678901234567.5"` and the double nearest it,
/// `1.2345678901234568e16`, do not (serde_json is built without arbitrary precision, so a
/// number it writes is a 64-bit integer or a double).
pub(crate) fn spells_same_number(text: &str, n: &serde_json::Number) -> bool {
    decimal_value(text).is_some_and(|v| decimal_value(&n.to_string()) == Some(v))
}

/// The whole number `text` (a JSON number's spelling) holds, exactly, as a 64-bit integer
/// (`"12345678901234567"`, `"1.2345678901234567e16"`, `"-2e3"`, `"-0"` as 0); `None` where it
/// has a fraction or is past `u64` (20 digits and more) or below `i64`.
fn exact_integer(text: &str) -> Option<serde_json::Number> {
    let (negative, digits, power) = decimal_value(text)?;
    if digits.is_empty() {
        return Some(serde_json::Number::from(0u64));
    }
    let power = usize::try_from(power).ok()?;
    if digits.len() + power > 20 {
        return None;
    }
    let magnitude: u128 = format!("{digits}{}", "0".repeat(power)).parse().ok()?;
    if negative {
        let v = i64::try_from(-i128::try_from(magnitude).ok()?).ok()?;
        Some(serde_json::Number::from(v))
    } else {
        Some(serde_json::Number::from(u64::try_from(magnitude).ok()?))
    }
}

/// Whether `node`'s `type` takes integers and no other numbers (`integer`, `["integer",
/// "null"]`, Gemini's `INTEGER`, any spelling [`Ty::names`](crate::profile::detect::Ty::names)
/// reads as `integer`), so that a whole bound is written as an integer however it was spelt.
fn integer_typed(node: &serde_json::Map<String, Value>) -> bool {
    use crate::profile::detect::Ty;
    let ty = match node.get("type") {
        Some(Value::String(s)) => Ty::One(s),
        Some(Value::Array(a)) => Ty::List(a),
        _ => return false,
    };
    ty.names("integer") && !ty.names("number")
}

/// Whether `text` is spelt as RFC 8259 §6 writes a number (optional `-`, an integer part
/// without a leading zero, an optional fraction and exponent), whatever its size: `"1E400"`
/// is, though no double holds it; `"0x10"`, `" 5 "`, `"+1"` and `"NaN"` are not.
pub(crate) fn json_number_text(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let int_start = i;
    let n = digits(&mut i);
    if n == 0 || (n > 1 && b[int_start] == b'0') {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Whether keyword `k` is one Gemini's `Schema` types as double ([`DOUBLE_BOUNDS`]), so that
/// a JSON string may stand for its number.
pub(crate) fn is_double_bound(k: &str) -> bool {
    DOUBLE_BOUNDS.contains(&k)
}

/// The number the value of keyword `k` in subschema `node` spells as Gemini's `Schema` writes
/// it, as `toolwire args` checks it: a count of [`INT64_COUNTS`] as an int64 string
/// ([`int64_count`]), or `minimum`/`maximum` as a double string ([`double_bound`], which reads
/// `node`'s `type` to write a whole bound as an integer). `None` for any other keyword or
/// value, or where `node` has no `k`. The one reading `args`, `repair` and `compile` share:
/// `repair` writes the number rather than dropping the string.
pub(crate) fn number_string_of(
    node: &serde_json::Map<String, Value>,
    k: &str,
) -> Option<serde_json::Number> {
    let v = node.get(k)?;
    if is_int64_count(k) {
        int64_count(v).map(serde_json::Number::from)
    } else if is_double_bound(k) {
        double_bound(node, v)
    } else {
        None
    }
}

/// Whether a keyword of `node` holds a number as Gemini's string ([`number_string_of`]).
fn has_number_strings(node: &serde_json::Map<String, Value>) -> bool {
    INT64_COUNTS
        .iter()
        .chain(DOUBLE_BOUNDS)
        .any(|k| number_string_of(node, k).is_some())
}

/// Writes each keyword of `node` that holds a number as Gemini's string ([`number_string_of`])
/// as that number, in place.
fn read_number_strings(node: &mut serde_json::Map<String, Value>) {
    for keyword in INT64_COUNTS.iter().chain(DOUBLE_BOUNDS) {
        if let Some(n) = number_string_of(node, keyword) {
            node.insert((*keyword).into(), Value::Number(n));
        }
    }
}

/// JSON Pointers of the subschemas of `declared` (objects, in walk order) for which `wants`
/// holds: the places a rewritten copy edits.
fn object_places(
    declared: &Value,
    wants: impl Fn(&serde_json::Map<String, Value>) -> bool,
) -> Vec<String> {
    crate::schema::walk(declared)
        .nodes
        .into_iter()
        .filter(|n| n.object().is_some_and(&wants))
        .map(|n| n.pointer)
        .collect()
}

/// `declared` with each number written as Gemini's string ([`number_string_of`]) written as
/// that number, and nothing else changed; `None` when it has none. What `check` judges the
/// keywords of a Gemini schema by, once `repair` has written the numbers.
pub(crate) fn numbers_read(declared: &Value) -> Option<Value> {
    let places = object_places(declared, has_number_strings);
    if places.is_empty() {
        return None;
    }
    let mut copy = declared.clone();
    for pointer in &places {
        if let Some(Value::Object(node)) = copy.pointer_mut(pointer) {
            read_number_strings(node);
        }
    }
    Some(copy)
}

/// One count keyword written as Gemini's int64 string and read as the integer it spells (see
/// [`crate::args::ArgsSchema::int64_strings`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Int64String {
    /// JSON Pointer to the keyword (`/properties/tags/maxItems`) in the declared schema.
    pub pointer: String,
    /// The string as written (`2`).
    pub written: String,
    /// The integer it is checked as.
    pub read_as: u64,
}

/// Every count keyword of `declared` that [`compiled_form`] reads as the integer its string
/// spells, in schema order.
pub fn int64_strings(declared: &Value) -> Vec<Int64String> {
    strings_read(declared, INT64_COUNTS, |_, v| int64_count(v))
        .into_iter()
        .map(|(pointer, written, read_as)| Int64String {
            pointer,
            written,
            read_as,
        })
        .collect()
}

/// (pointer, string as written, what `read` reads it as) of every keyword of `keywords` in
/// `declared` whose value `read` reads (given the subschema holding it), in schema order.
fn strings_read<T>(
    declared: &Value,
    keywords: &[&str],
    read: fn(&serde_json::Map<String, Value>, &Value) -> Option<T>,
) -> Vec<(String, String, T)> {
    let mut out = Vec::new();
    for n in crate::schema::walk(declared).nodes {
        let Some(node) = n.object() else { continue };
        for keyword in keywords {
            if let Some(v) = node.get(*keyword)
                && let Some(read_as) = read(node, v)
            {
                out.push((
                    crate::json::push_token(&n.pointer, keyword),
                    v.as_str().unwrap_or_default().to_string(),
                    read_as,
                ));
            }
        }
    }
    out
}

/// `minimum` or `maximum` written as Gemini's double string and read as the number it spells
/// (see [`crate::args::ArgsSchema::double_strings`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DoubleString {
    /// JSON Pointer to the keyword (`/properties/n/minimum`) in the declared schema.
    pub pointer: String,
    /// The string as written (`1.5`).
    pub written: String,
    /// The number it is checked as.
    pub read_as: serde_json::Number,
}

/// Every `minimum` and `maximum` of `declared` that [`compiled_form`] reads as the number its
/// string spells, in schema order.
pub fn double_strings(declared: &Value) -> Vec<DoubleString> {
    strings_read(declared, DOUBLE_BOUNDS, double_bound)
        .into_iter()
        .map(|(pointer, written, read_as)| DoubleString {
            pointer,
            written,
            read_as,
        })
        .collect()
}

/// A `pattern` that is valid ECMA-262 but that the regex engine cannot compile, left out of
/// the compiled schema: values at its place are not checked against it; or a
/// `patternProperties` key the engine reads otherwise than ECMA-262, whose members' verdicts
/// are not vouched for.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct UncheckedPattern {
    /// JSON Pointer into the arguments of the string the pattern was not checked against
    /// (`/tags/1`), however the schema reaches it; `None` when the schema places values in a
    /// way args does not follow (a remote `$ref`, `unevaluatedProperties`), so that it may concern
    /// some value of the arguments (see [`crate::args::ArgsSchema::unchecked_patterns`]).
    /// [`unchecked_patterns`] leaves it `None`: it knows the schema, not the arguments.
    pub argument: Option<String>,
    /// JSON Pointer of the `pattern` keyword (or the `patternProperties` key) in the declared schema.
    pub schema_pointer: String,
    /// The pattern as written.
    pub pattern: String,
    /// Why it was not checked, as a clause to follow "it" (`uses a named backreference ...`).
    pub why: &'static str,
}

impl UncheckedPattern {
    /// True for a `pattern` keyword left out of the compiled schema, false for a
    /// `patternProperties` key (whose pointer ends in the key: a key spelled `pattern` is
    /// one the engine reads, never unchecked).
    pub(super) fn is_pattern_keyword(&self) -> bool {
        self.schema_pointer.ends_with("/pattern")
            && !self.schema_pointer.ends_with("/patternProperties/pattern")
    }
}

/// Every `pattern` of `declared` that [`compiled_form`] leaves out, and every
/// `patternProperties` key the engine cannot read as ECMA-262 does (it stays, read the
/// engine's way: which members it places is not vouched for; trial 57 D4), in document order.
pub fn unchecked_patterns(declared: &Value) -> Vec<UncheckedPattern> {
    let mut out = Vec::new();
    for n in crate::schema::walk(declared).nodes {
        let Some(o) = n.object() else { continue };
        if let Some(pattern) = o.get("pattern").and_then(Value::as_str)
            && let Some(why) = crate::schema::ecma::unsupported(pattern)
        {
            out.push(UncheckedPattern {
                argument: None,
                schema_pointer: format!("{}/pattern", n.pointer),
                pattern: pattern.to_string(),
                why,
            });
        }
        for key in o
            .get("patternProperties")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|m| m.keys())
        {
            if let Some(why) = crate::schema::ecma::unsupported(key) {
                out.push(UncheckedPattern {
                    argument: None,
                    schema_pointer: crate::json::push_token(
                        &format!("{}/patternProperties", n.pointer),
                        key,
                    ),
                    pattern: key.clone(),
                    why,
                });
            }
        }
    }
    out
}

fn needs_rewrite(node: &serde_json::Map<String, Value>, draft04: bool) -> bool {
    let spelled = says_any(node)
        || match node.get("type") {
            Some(Value::String(t)) => meant(t).is_some(),
            Some(Value::Array(types)) => types
                .iter()
                .filter_map(Value::as_str)
                .any(|t| meant(t).is_some()),
            _ => false,
        };
    spelled
        || has_number_strings(node)
        || is_document_ref(node)
        || REFERENCES.iter().any(|k| encoded_ref(node, k).is_some())
        || node
            .get("pattern")
            .and_then(Value::as_str)
            .is_some_and(|p| {
                matches!(crate::schema::ecma::rust_pattern(p), Cow::Owned(_))
                    || crate::schema::ecma::unsupported(p).is_some()
            })
        || node
            .get("patternProperties")
            .and_then(Value::as_object)
            .is_some_and(|m| {
                m.keys()
                    .any(|k| matches!(crate::schema::ecma::rust_pattern(k), Cow::Owned(_)))
            })
        || node.get("nullable") == Some(&Value::Bool(true))
        || closed_without_members(node)
        || (!draft04
            && (node.get("exclusiveMinimum").is_some_and(Value::is_boolean)
                || node.get("exclusiveMaximum").is_some_and(Value::is_boolean)))
        || (draft04 && empty_required(node))
}

/// `additionalProperties: false` with neither `properties` nor `patternProperties` beside:
/// the form the validator refuses as one `false` schema at the object, naming no member
/// ([`compiled_form`] adds an empty `properties`).
fn closed_without_members(node: &serde_json::Map<String, Value>) -> bool {
    node.get("additionalProperties") == Some(&Value::Bool(false))
        && !node.contains_key("properties")
        && !node.contains_key("patternProperties")
}

fn empty_required(node: &serde_json::Map<String, Value>) -> bool {
    node.get("required")
        .and_then(Value::as_array)
        .is_some_and(Vec::is_empty)
}

/// `$ref: ""`: the document itself (RFC 3986 §4.4, a same-document reference), as every
/// other command reads it; the validator resolved it to nothing and accepted any value there.
fn is_document_ref(node: &serde_json::Map<String, Value>) -> bool {
    node.get("$ref").and_then(Value::as_str) == Some("")
}

/// The keywords whose value is a URI reference the validator parses (trial 52 D12: a raw
/// non-ASCII `$dynamicRef` fragment was refused, exit 2, after the `$ref` one was mended).
const REFERENCES: [&str; 2] = ["$ref", "$dynamicRef"];

/// The reference `keyword` of `node` holds, with its fragment percent-encoded where RFC 3986
/// does not allow a character raw; `None` when it allows them all (or the reference has no
/// fragment).
fn encoded_ref(node: &serde_json::Map<String, Value>, keyword: &str) -> Option<String> {
    let (base, fragment) = node.get(keyword)?.as_str()?.split_once('#')?;
    let encoded = encoded_fragment(fragment);
    (encoded != fragment).then(|| format!("{base}#{encoded}"))
}

/// `fragment` percent-encoded as UTF-8 where RFC 3986 does not allow a character raw; a `%`
/// starting an escape (two hex digits) is kept, another `%` is the character itself (`%25`),
/// as [`crate::schema::percent_decode`] reads it.
fn encoded_fragment(fragment: &str) -> String {
    let mut out = String::with_capacity(fragment.len());
    let mut from = 0;
    for (i, _) in fragment.match_indices('%') {
        out.extend(percent_encoding::utf8_percent_encode(
            &fragment[from..i],
            NOT_IN_FRAGMENT,
        ));
        let escape = fragment
            .get(i + 1..i + 3)
            .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
        out.push_str(if escape { "%" } else { "%25" });
        from = i + 1;
    }
    out.extend(percent_encoding::utf8_percent_encode(
        &fragment[from..],
        NOT_IN_FRAGMENT,
    ));
    out
}

/// Makes every keyword of `node` that could refuse `null` accept it: `type`, `enum`, `const`
/// and `anyOf` (how `args` reads `nullable: true`, and `compile`'s strict forms beside a
/// `$ref`, `oneOf` or `allOf`, which still judge null).
pub(crate) fn accept_null(node: &mut serde_json::Map<String, Value>) {
    match node.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = std::mem::take(t);
            node.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(types)) if !types.iter().any(|t| t == "null") => {
            types.push("null".into());
        }
        _ => {}
    }
    if let Some(Value::Array(options)) = node.get_mut("enum")
        && !options.iter().any(Value::is_null)
    {
        options.push(Value::Null);
    }
    if let Some(c) = node.get("const")
        && !c.is_null()
    {
        let c = node.remove("const").unwrap_or_default();
        node.insert("enum".into(), json!([c, null]));
    }
    if let Some(Value::Array(branches)) = node.get_mut("anyOf") {
        branches.push(json!({"type":"null"}));
    }
}

/// Draft-04's `exclusive: true` next to `bound` becomes draft-06's `exclusive: <bound>`;
/// `exclusive: false`, or `true` without a numeric bound, says nothing and is dropped.
fn numeric_exclusive(node: &mut serde_json::Map<String, Value>, exclusive: &str, bound: &str) {
    let Some(Value::Bool(on)) = node.get(exclusive) else {
        return;
    };
    let on = *on;
    node.remove(exclusive);
    if on && node.get(bound).is_some_and(Value::is_number) {
        let limit = node.remove(bound).unwrap_or_default();
        node.insert(exclusive.into(), limit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_to_rewrite_gives_no_copy() {
        let s = json!({"type":"object","properties":{"nullable":{"type":"boolean"},
            "n":{"type":"number","exclusiveMinimum":0}}});
        assert_eq!(compiled_form(&s), None);
    }

    #[test]
    fn nullable_adds_null_to_type_enum_const_and_anyof() {
        let s = json!({"type":"object","properties":{
            "a":{"type":"integer","nullable":true},
            "b":{"type":["string"],"enum":["x"],"nullable":true},
            "c":{"const":"k","nullable":true},
            "d":{"anyOf":[{"type":"string"}],"nullable":true},
            "e":{"type":"integer","nullable":false}}});
        let c = compiled_form(&s).unwrap();
        let p = &c["properties"];
        assert_eq!(p["a"]["type"], json!(["integer", "null"]));
        assert_eq!(p["b"]["type"], json!(["string", "null"]));
        assert_eq!(p["b"]["enum"], json!(["x", null]));
        assert_eq!(p["c"]["enum"], json!(["k", null]));
        assert!(p["c"].get("const").is_none());
        assert_eq!(p["d"]["anyOf"][1], json!({"type":"null"}));
        assert_eq!(p["e"], s["properties"]["e"]);
    }

    #[test]
    fn boolean_exclusive_bounds_become_numeric() {
        let s = json!({"type":"object","properties":{
            "a":{"type":"number","minimum":0,"exclusiveMinimum":true,
                 "maximum":10,"exclusiveMaximum":false},
            "b":{"type":"number","exclusiveMaximum":true}}});
        let c = compiled_form(&s).unwrap();
        assert_eq!(
            c["properties"]["a"],
            json!({"type":"number","exclusiveMinimum":0,"maximum":10})
        );
        assert_eq!(c["properties"]["b"], json!({"type":"number"}));
        // Declared draft-04: the validator reads the boolean form itself.
        let mut d4 = s.clone();
        d4["$schema"] = "http://json-schema.org/draft-04/schema#".into();
        assert_eq!(compiled_form(&d4), None);
    }

    #[test]
    fn pattern_properties_keys_are_respelled_and_mapped_back() {
        let s = json!({"properties":{"o":{"patternProperties":{
            "x{":{"patternProperties":{"[\\d-z]":{"type":"string"}}},"^b$":{}}}}});
        let c = compiled_form(&s).unwrap();
        let inner = "/properties/o/patternProperties/x\\{/patternProperties/[\\d\\-z]";
        assert_eq!(c.pointer(inner), Some(&json!({"type":"string"})));
        assert_eq!(
            c["properties"]["o"]["patternProperties"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["x\\{", "^b$"]
        );
        assert_eq!(
            declared_pointer(&s, &format!("{inner}/type")),
            "/properties/o/patternProperties/x{/patternProperties/[\\d-z]/type"
        );
        assert_eq!(
            declared_pointer(&s, "/properties/o/patternProperties/^b$"),
            "/properties/o/patternProperties/^b$"
        );
        // Two keys of one spelling: merging them would move a subschema, so both stay.
        let both = json!({"patternProperties":{"a{,3}":{},"a\\{,3}":{}}});
        assert_eq!(compiled_form(&both).unwrap(), both);
    }

    /// Trial L: a draft-04 schema with `required: []` passed check, repair and compile, and
    /// then every call was bad input (exit 2: "[] has less than 1 item").
    #[test]
    fn an_empty_required_under_draft_04_requires_nothing() {
        let d4 = json!({"$schema":"http://json-schema.org/draft-04/schema#","type":"object",
            "properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true},
                          "o":{"type":"object","properties":{},"required":[]}},
            "required":[]});
        let c = compiled_form(&d4).unwrap();
        assert_eq!(c.get("required"), None);
        assert_eq!(
            c["properties"]["o"],
            json!({"type":"object","properties":{}})
        );
        // The boolean bound is still the validator's to read under draft-04.
        assert_eq!(c["properties"]["n"], d4["properties"]["n"]);
        let schema = crate::args::ArgsSchema::new(&d4).expect("compiles");
        assert!(schema.validator.is_valid(&json!({"n": 1})));
        assert!(!schema.validator.is_valid(&json!({"n": 0})));
        // Not draft-04: an empty list is valid JSON Schema, left as written.
        assert_eq!(compiled_form(&json!({"type":"object","required":[]})), None);
    }
}
