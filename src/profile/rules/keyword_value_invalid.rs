//! `keyword-value-invalid`: a keyword whose value the JSON Schema 2020-12 meta-schema refuses
//! (or, for `pattern`, a regular expression that does not compile).
//!
//! The keyword is fine and its value is wrong, so the finding says what value to write. Its
//! verdict is the evidence for that form of the keyword (`keyword-allowed: uniqueItems (not a
//! boolean)`); where that form has no evidence of acceptance and the profile rejects the
//! keyword itself, whatever its value (`keyword-allowed: uniqueItems`), that rejection decides
//! instead, and the finding names the case that judged it (see [`Cx::keyword_value`]).

use serde_json::Value;

use super::*;

pub const RULE: Rule = Rule {
    id: "keyword-value-invalid",
    checks: "A keyword's value has the wrong kind or range: a numeric keyword given as a string \
             (`minimum: \"1\"`) or as another non-number, a count (`maxLength`, `minItems`, ...) \
             that is negative or not whole, `multipleOf` that is zero or negative, a \
             string-valued keyword (`pattern`, `format`, `description`, `title`, `$schema`, \
             ...) given as another kind, a `pattern` that does not compile as a regular \
             expression, `additionalProperties` that is neither a schema nor a boolean, a \
             boolean keyword (`uniqueItems`, `deprecated`, ...) given as another kind, \
             `anyOf`/`oneOf`/`allOf`/`prefixItems` that is not a non-empty list; and a whole \
             count written with a fraction part or an exponent (`minLength: 3.0`), which 2020-12 \
             reads as the integer and a parser taking only an integer literal refuses, or one of \
             2^64 or more, which 2020-12 takes and no 64-bit integer holds. Where no \
             case covers that value and the profile rejects the keyword itself, the keyword's \
             evidence decides.",
    features: "`keyword-allowed: <keyword> (string)`, `(not a number)`, `(negative)`, `(not an integer)`, `<count> (decimal)` (a whole count written `3.0`), `<count> (2^64 or more)`, `(zero)`, `(not a string)`, `pattern (invalid regex)`, `patternProperties (invalid regex)` (a key that does not compile), `additionalProperties (not a schema)`, `(not a boolean)`, `(empty)`, `(not an array)`",
    example: r#"{"type": "object", "properties": {"count": {"type": "integer", "minimum": "1"}}}"#,
    example_target: None,
    fix: "Write the value the keyword takes (a number for `minimum`, a whole number of at least 0 for `maxLength` (written `3`, not `3.0`), a number above 0 for `multipleOf`, a string for `pattern`, `format` and `description`, a URI for `$schema`, a boolean for `uniqueItems`, a schema or a boolean for `additionalProperties`, a non-empty list of schemas for `anyOf`), or remove the keyword.",
    repair: "partly: a count written as Gemini's int64 string (`maxItems: \"3\"`), a whole count written `3.0`, and `minimum`/`maximum` written as Gemini's double string (a JSON number in a string, `\"1.5\"`) are written as that number, which loses nothing; any other value the keyword does not take is dropped, a bound written as a string as a loss (a provider may read a number in it), anything else with none (it constrains nothing a validator enforces); `additionalProperties` that is not a schema only where `properties` declares the members; an empty `allOf` or `prefixItems` is dropped, no loss (it applies no schema); not `anyOf: []` or `oneOf: []` (no value is valid against it, and what it was meant to hold cannot be known), nor any of the four as a non-list",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::BAD_VALUE,
        ..Hooks::NONE
    },
};

/// What kind of value a keyword this rule knows takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Takes {
    /// A number (draft 2020-12 validation §6.2).
    Number,
    /// A non-negative integer (validation §6.3, §6.4, §6.5).
    Count,
    /// A string (core §8, validation §6.3.3, §7, §8, §9).
    Text,
    /// A schema or a boolean (core §10.3.2.3).
    Schema,
    /// A boolean (validation §6.4.3, §9.3, §9.4).
    Boolean,
    /// A non-empty array of schemas (core §10.2.1, §10.3.1.1).
    SchemaList,
}

/// The kind of value keyword `k` takes, `None` for keywords this rule does not judge. One
/// match, not a search of lists: this runs for every key of every subschema.
fn takes(k: &str) -> Option<Takes> {
    Some(match k {
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            Takes::Number
        }
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minContains" | "maxContains"
        | "minProperties" | "maxProperties" => Takes::Count,
        "pattern" | "format" | "description" | "title" | "$comment" | "$anchor" | "$schema"
        | "$id" | "contentEncoding" | "contentMediaType" => Takes::Text,
        "additionalProperties" => Takes::Schema,
        "uniqueItems" | "deprecated" | "readOnly" | "writeOnly" => Takes::Boolean,
        "anyOf" | "oneOf" | "allOf" | "prefixItems" => Takes::SchemaList,
        _ => return None,
    })
}

/// The forms this rule reports.
const FORMS: &[&str] = &[
    value::VALUE_STRING,
    value::VALUE_NOT_A_NUMBER,
    value::VALUE_NEGATIVE,
    value::VALUE_NOT_AN_INTEGER,
    value::VALUE_ZERO,
    value::VALUE_NOT_A_STRING,
    value::VALUE_INVALID_REGEX,
    value::VALUE_NOT_A_SCHEMA,
    value::VALUE_NOT_A_BOOLEAN,
    value::VALUE_EMPTY_LIST,
    value::VALUE_NOT_A_LIST,
];

/// `keyword-allowed: K (form)` for a keyword this rule judges and one of its forms (`enum
/// (empty)` is enum-invalid's: `enum` is no keyword of this rule), and a count's `(decimal)`
/// (`multipleOf (decimal)` is keyword-unsupported's).
fn owns(p: &Param) -> bool {
    match p {
        Param::Keyed(Kind::KeywordForm, v) => v.split_once(" (").is_some_and(|(k, f)| {
            let f = f.trim_end_matches(')');
            (takes(k).is_some() && FORMS.contains(&f))
                || (k == "patternProperties" && f == value::VALUE_INVALID_REGEX)
                || (takes(k) == Some(Takes::Count)
                    && (f == value::DECIMAL || f == value::COUNT_PAST_64_BITS))
        }),
        _ => false,
    }
}

/// `toolwire repair` drops the keyword (a narrowing keyword's loss is reported); an
/// `additionalProperties` that is not a schema is the only description of the members of an
/// object without `properties`, where repair refuses, and a list of alternatives that is not
/// one is never dropped: what it was meant to allow cannot be known. An empty `allOf` or
/// `prefixItems` applies no schema, and is dropped.
fn repairable(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    match f {
        // Dropping the entry would hand its members to `additionalProperties`: what the key
        // was meant to match cannot be known.
        Feat::KeywordForm("patternProperties", _) => false,
        Feat::KeywordForm("additionalProperties", _) => {
            r.node().is_some_and(crate::repair::declares_members)
        }
        // An empty `allOf` or `prefixItems` constrains nothing, and repair drops it.
        Feat::KeywordForm("allOf" | "prefixItems", f) if *f == value::VALUE_EMPTY_LIST => true,
        Feat::KeywordForm(k, _) => takes(k) != Some(Takes::SchemaList),
        _ => true,
    }
}

/// The invalid-value form of keyword `k` with value `v`, or `None` when the value is one the
/// keyword takes (or `k` is not a keyword this rule knows). A draft-4 boolean
/// `exclusiveMinimum`/`exclusiveMaximum` is a form of its own (keyword-unsupported's). A whole
/// count written with a fraction part or an exponent (`3.0`, `3e0`) is one the keyword takes
/// and still a form, `(decimal)`: a parser that takes a count only as an integer literal
/// refuses it (llguidance: "Expected positive integer for 'minLength', got 3.0").
pub fn form(k: &str, v: &Value) -> Option<&'static str> {
    match takes(k)? {
        kind @ (Takes::Number | Takes::Count) => {
            let n = match v {
                Value::Number(n) => n,
                Value::String(_) => return Some(value::VALUE_STRING),
                Value::Bool(_) if matches!(k, "exclusiveMinimum" | "exclusiveMaximum") => {
                    return None;
                }
                _ => return Some(value::VALUE_NOT_A_NUMBER),
            };
            let x = n.as_f64().unwrap_or(0.0);
            if k == "multipleOf" {
                if x == 0.0 {
                    Some(value::VALUE_ZERO)
                } else if x < 0.0 {
                    Some(value::VALUE_NEGATIVE)
                } else {
                    None
                }
            } else if kind != Takes::Count {
                None
            } else if x < 0.0 {
                Some(value::VALUE_NEGATIVE)
            } else if x.fract() != 0.0 {
                // 2020-12 counts an integer by value: `1.0` is an integer, `1.5` is not.
                Some(value::VALUE_NOT_AN_INTEGER)
            } else if x >= PAST_64_BITS {
                Some(value::COUNT_PAST_64_BITS)
            } else if !n.is_u64() {
                // Whole, but read as a float: written with a fraction part or an exponent
                // (serde_json keeps `3` as u64, `3.0` and `3e0` as f64).
                Some(crate::profile::rules::value::DECIMAL)
            } else {
                None
            }
        }
        Takes::Text => match v {
            Value::String(p) if k == "pattern" && !compiles(p) => Some(value::VALUE_INVALID_REGEX),
            Value::String(_) => None,
            _ => Some(value::VALUE_NOT_A_STRING),
        },
        Takes::Schema => {
            (!matches!(v, Value::Object(_) | Value::Bool(_))).then_some(value::VALUE_NOT_A_SCHEMA)
        }
        Takes::Boolean => (!v.is_boolean()).then_some(value::VALUE_NOT_A_BOOLEAN),
        Takes::SchemaList => match v {
            Value::Array(a) if a.is_empty() => Some(value::VALUE_EMPTY_LIST),
            Value::Array(_) => None,
            _ => Some(value::VALUE_NOT_A_LIST),
        },
    }
}

/// What keyword `k` takes, for messages and repairs, when its value `v` is one it does not
/// take (`None` otherwise): "a number", "a non-negative integer", "a string", ...
/// (draft 2020-12 validation §6.2–6.5, §7, §9; core §8, §10.2.1, §10.3.2.3).
pub fn wanted(k: &str, v: &Value) -> Option<&'static str> {
    let f = form(k, v)?;
    if f == value::DECIMAL || f == value::COUNT_PAST_64_BITS {
        // A whole count written `3.0` is one the keyword takes (see [`whole_count`]), and so
        // is one past 64 bits: 2020-12 bounds no integer.
        return None;
    }
    Some(match k {
        "multipleOf" => "a number greater than 0",
        "pattern" if f == value::VALUE_INVALID_REGEX => "an ECMA-262 regular expression",
        "additionalProperties" => "a schema or a boolean",
        "$schema" => "a URI string",
        "$id" => "a URI-reference string",
        _ => match takes(k) {
            Some(Takes::Number) => "a number",
            Some(Takes::Count) => "a non-negative integer",
            Some(Takes::Boolean) => "a boolean",
            Some(Takes::SchemaList) => "a non-empty list of schemas",
            _ => "a string",
        },
    })
}

/// The count a whole count written with a fraction part or an exponent (`minLength: 3.0`,
/// the `(decimal)` form) stands for: 2020-12 reads it as that integer (validation §6.3.1,
/// §6.4.1, §6.5.1: "a non-negative integer"; §6.1.1: an integer is "any number with a zero
/// fractional part"), so writing it as the integer literal loses nothing. `None` for any
/// other value, and for a count of 2^64 or more (no `u64` holds it).
pub fn whole_count(k: &str, v: &Value) -> Option<u64> {
    if form(k, v)? != value::DECIMAL {
        return None;
    }
    // Below 2^64: a count past it is a form of its own.
    v.as_f64().map(|x| x as u64)
}

/// 2^64, the least count no `u64` holds (`u64::MAX as f64` rounds up to it).
const PAST_64_BITS: f64 = 18_446_744_073_709_551_616.0;

/// Whether `k` is a bound (a numeric or count keyword), for wording.
pub fn is_bound(k: &str) -> bool {
    matches!(takes(k), Some(Takes::Number | Takes::Count))
}

/// Whether `pattern` compiles as the `jsonschema` crate compiles it (ECMA-262 syntax
/// translated for `fancy-regex`, its default engine): the same build that
/// `engine/jsonschema-2020-12` runs, so a lookahead or a named group compiles and `(` does not.
/// ECMA-262 spellings the crate refuses (`\0`, `[\b]`, `[^]`, `[]`) are read as ECMA-262
/// means them ([`crate::schema::ecma::rust_pattern`]), as `toolwire args` reads them.
///
/// A construct of Rust's or PCRE's that the engine would compile with its own meaning
/// (`(?i)`, `\A`: [`crate::schema::ecma::not_ecma`]) does not count as compiling; one too
/// large for the engine does ([`crate::schema::ecma::too_large`]): it is no fault of the
/// schema's, and `toolwire args` says what stops it there.
pub fn compiles(pattern: &str) -> bool {
    if crate::schema::ecma::not_ecma(pattern).is_some() {
        return false;
    }
    crate::schema::ecma::engine_check(pattern).is_some() || crate::schema::ecma::too_large(pattern)
}

/// The first key of `patternProperties` value `v` that does not compile as [`compiles`]
/// says: each key is a regular expression (draft 2020-12 core §10.3.2.2: it "SHOULD be a valid
/// regular expression, according to the ECMA-262 regular expression dialect"), and `toolwire
/// args` refuses a schema with one it cannot read. `None` when every key compiles, or `v` is
/// no object (which the meta-schema judges).
pub fn invalid_pattern_key(v: &Value) -> Option<&str> {
    v.as_object()?
        .keys()
        .map(String::as_str)
        .find(|k| !compiles(k))
}

/// The value to write instead of `v` for keyword `k`, when the value says which one it
/// meant: the number a numeric string holds (`"1"` → `1`), the boolean a yes/no word names.
fn meant(k: &str, v: &Value) -> Option<String> {
    let s = v.as_str()?.trim();
    match takes(k)? {
        Takes::Number | Takes::Count => {
            let n: serde_json::Number = serde_json::from_str(s).ok()?;
            (form(k, &Value::Number(n.clone())).is_none()).then(|| n.to_string())
        }
        Takes::Boolean => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" => Some("true".into()),
            "false" | "no" | "0" => Some("false".into()),
            _ => None,
        },
        _ => None,
    }
}

/// The fix for keyword `k` holding `v`, a value it does not take (form `f`): what to write
/// instead. When the profile rejects the keyword itself (`keyword_rejected`), writing a good
/// value is not enough, and the fix says so.
pub fn write_fix(k: &str, v: &Value, f: &str, keyword_rejected: bool, out: &mut String) {
    use std::fmt::Write;
    let need = wanted(k, v).unwrap_or(if f == value::DECIMAL || f == value::COUNT_PAST_64_BITS {
        "a non-negative integer"
    } else {
        "another value"
    });
    if keyword_rejected {
        let _ = write!(
            out,
            "`{k}` takes {need}, but a target of the profile rejects the keyword whatever its \
             value: remove it (if it was meant to constrain the value, say so in the description)."
        );
        return;
    }
    let _ = match (k, takes(k)) {
        ("$schema", _) => out.write_str(
            "Write `$schema` as the URI of the draft the schema follows \
             (\"https://json-schema.org/draft/2020-12/schema\"), or remove it: it only annotates.",
        ),
        // No value is valid against an empty `anyOf` or `oneOf`: removed, it would accept
        // every value.
        ("anyOf" | "oneOf", _) if f == value::VALUE_EMPTY_LIST => write!(
            out,
            "Give `{k}` the schemas it was meant to hold: an empty list is no JSON Schema \
             (2020-12 wants {need}), and no value is valid against it, so removing it would \
             accept every value."
        ),
        (_, Some(Takes::SchemaList)) if f == value::VALUE_EMPTY_LIST => write!(
            out,
            "Give `{k}` at least one schema, or remove it: an empty list is no JSON Schema \
             (2020-12 wants {need})."
        ),
        (_, Some(Takes::SchemaList)) => write!(
            out,
            "Write `{k}` as a list of schemas (`[{{\"type\": \"string\"}}, ...]`), or remove it."
        ),
        ("pattern", _)
            if f == value::VALUE_INVALID_REGEX
                && v.as_str().and_then(crate::schema::ecma::not_ecma).is_some() =>
        {
            out.write_str(
                "Write `pattern` in ECMA-262's syntax (the message names the construct it lacks \
                 and, where it has one, its spelling), or remove it: a JavaScript validator \
                 refuses the pattern.",
            )
        }
        ("pattern", _)
            if f == value::VALUE_INVALID_REGEX
                && v.as_str()
                    .and_then(crate::schema::ecma::unsupported)
                    .is_some() =>
        {
            out.write_str(
                "Make each backreference follow a group that has surely matched (not in another \
                 alternative, an optional group or a lookbehind), or remove `pattern`: ECMA-262 \
                 reads one to an unmatched group as empty text, which toolwire cannot check.",
            )
        }
        ("pattern", _) if f == value::VALUE_INVALID_REGEX => out.write_str(
            "Write `pattern` as a regular expression that compiles (ECMA-262: put a backslash \
             before each `(`, `[`, `{` and backslash meant literally), or remove it.",
        ),
        _ if f == value::COUNT_PAST_64_BITS => write!(
            out,
            "Write `{k}` as a count below 2^64 (18446744073709551616), or remove it if it was \
             meant as no bound."
        ),
        _ if f == value::DECIMAL => match whole_count(k, v) {
            Some(n) => write!(
                out,
                "Write `{k}: {n}`: the same count, written without a fraction part or exponent."
            ),
            None => write!(out, "Write `{k}` as an integer literal, or remove it."),
        },
        ("additionalProperties", _) => out.write_str(
            "Write `additionalProperties` as a schema (`{\"type\": \"string\"}`) or a boolean \
             (`false` for no other members), or remove it.",
        ),
        _ => match meant(k, v) {
            Some(m) => write!(out, "Write `{k}: {m}` ({need}), or remove it."),
            None => write!(out, "Write `{k}` as {need}, or remove it."),
        },
    };
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(map) = n.map else { return };
    if n.bad_values == 0 && map.len() <= 64 {
        return;
    }
    for (i, (k, v)) in map.iter().enumerate() {
        let Some(f) = n.value_form(i, k, v) else {
            if k == "patternProperties" && (i >= 64 || n.bad_values & (1 << i) != 0) {
                pattern_keys(cx, n, v);
            }
            continue;
        };
        let k = k.as_str();
        cx.keyword_value(
            At::Key(n.frame, k),
            Feat::KeywordForm(k, f),
            n.placement,
            v,
            |m, keyword_rejected| {
                use std::fmt::Write;
                let need = wanted(k, v).unwrap_or("another value");
                let beyond = v.as_str().and_then(crate::schema::ecma::unsupported);
                let foreign = v.as_str().and_then(crate::schema::ecma::not_ecma);
                let shown = Shown(v);
                let _ = if let (true, Some(why)) = (f == value::VALUE_INVALID_REGEX, &foreign) {
                    write!(
                        m,
                        "`pattern` {shown} is no ECMA-262 regular expression: it {why}"
                    )
                } else if let (true, Some(why)) = (f == value::VALUE_INVALID_REGEX, beyond) {
                    write!(m, "`pattern` {shown} {why}")
                } else if f == value::VALUE_INVALID_REGEX {
                    write!(m, "`pattern` {shown} does not compile; it must be {need}")
                } else if f == value::COUNT_PAST_64_BITS {
                    write!(
                        m,
                        "`{k}` is {shown}, a count of 2^64 or more: JSON Schema 2020-12 takes \
                         it, but no 64-bit integer holds it, and a parser that reads a count \
                         as one refuses it"
                    )
                } else if f == value::DECIMAL {
                    write!(
                        m,
                        "`{k}` is {shown}, a whole count written with a fraction part or an \
                         exponent: JSON Schema 2020-12 reads it as an integer, but a parser \
                         that takes a count only as an integer literal refuses it"
                    )
                } else {
                    write!(
                        m,
                        "`{k}` is {shown} (a JSON {}); it must be {need}",
                        json_kind(v)
                    )
                };
                if keyword_rejected {
                    m.push_str(", and the keyword itself is not accepted");
                }
            },
            |m, keyword_rejected| {
                write_fix(k, v, f, keyword_rejected, m);
                true
            },
        );
    }
}

/// Each key of `patternProperties` (value `v`, in node `n`) that is no regular expression
/// [`compiles`] takes, reported at the key. The keyword itself is keyword-unsupported's to
/// judge, so no rejection of it is borrowed here: no case covers a key that does not compile,
/// and the finding says so.
fn pattern_keys(cx: &mut Cx<'_, '_>, n: &Node<'_>, v: &Value) {
    let Some(members) = v.as_object() else { return };
    for key in members.keys().filter(|k| !compiles(k)) {
        let key = key.as_str();
        cx.feature_with_fix(
            At::Member(n.frame, "patternProperties", key),
            Feat::KeywordForm("patternProperties", value::VALUE_INVALID_REGEX),
            n.placement,
            || {
                // As `Shown` quotes a string: its text between quotes.
                let shown = format!("\"{key}\"");
                match (
                    crate::schema::ecma::not_ecma(key),
                    crate::schema::ecma::unsupported(key),
                ) {
                    (Some(why), _) => format!(
                        "`patternProperties` key {shown} is no ECMA-262 regular expression: it \
                         {why}"
                    ),
                    (None, Some(why)) => format!("`patternProperties` key {shown} {why}"),
                    (None, None) => format!(
                        "`patternProperties` key {shown} does not compile; each key must be an \
                         ECMA-262 regular expression"
                    ),
                }
            },
            || {
                Some(
                    "Write the key as an ECMA-262 regular expression (put a backslash before \
                     each `(`, `[`, `{` and backslash meant literally; the message names a \
                     construct ECMA-262 lacks), or remove the entry: `toolwire args` refuses \
                     the schema, and a JavaScript validator cannot compile it."
                        .to_string(),
                )
            },
        );
    }
}

use crate::report::Shown;

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn ecma_escapes_rust_spells_otherwise_compile() {
        let r = "keyword-value-invalid";
        let s = json!({"type":"object","properties":{
            "nul":{"type":"string","pattern":"^[^\\0]+$"},
            "backspace":{"type":"string","pattern":"[\\b]"},
            "any":{"type":"string","pattern":"^[^]*$"},
            "none":{"type":"string","pattern":"a[]|b"},
            "octal":{"type":"string","pattern":"\\01"},
            // Trial 46 D10: a surrogate pair of escapes is one code point; trial 59 D3: half
            // of one is valid ECMA-262 too (the `u` flag's code point, which no text holds).
            "pair":{"type":"string","pattern":"^\\uD83D\\uDE00$"},
            "lone":{"type":"string","pattern":"^\\uD83D$"},
            "guard":{"type":"string","pattern":"^[^\\uD800-\\uDFFF]*$"}},
            "patternProperties":{"^\\uD83D\\uDE00$":{},"^[\\uD800-\\uDBFF]?a$":{}}});
        assert_eq!(
            seen(r, s),
            pairs(&[(
                "/properties/octal/pattern",
                "keyword-allowed: pattern (invalid regex)"
            ),])
        );
    }

    /// Each `patternProperties` key is a regular expression too, and `toolwire args` refuses a
    /// schema with one that does not compile: check reports each such key where it is
    /// written, and leaves keys that compile alone (a lookahead does, in ECMA-262).
    #[test]
    fn pattern_properties_keys_that_do_not_compile() {
        let r = "keyword-value-invalid";
        let s = json!({"type":"object","properties":{"a":{"type":"string"}},
            "patternProperties":{"^[a-z]+$":{"type":"string"},"^(?=x)":{},
                "^[[:alpha:]]+$":{"type":"string"},"((":{},"a/b~c(":{}}});
        assert_eq!(
            seen(r, s),
            pairs(&[
                (
                    "/patternProperties/^[[:alpha:]]+$",
                    "keyword-allowed: patternProperties (invalid regex)"
                ),
                (
                    "/patternProperties/((",
                    "keyword-allowed: patternProperties (invalid regex)"
                ),
                (
                    "/patternProperties/a~1b~0c(",
                    "keyword-allowed: patternProperties (invalid regex)"
                ),
            ])
        );
    }

    #[test]
    fn values_of_the_wrong_kind_or_range() {
        let r = "keyword-value-invalid";
        let s = json!({"type":"object","additionalProperties":"no","properties":{
            "a":{"type":"integer","minimum":"1","maximum":null},
            "b":{"type":"string","maxLength":-1,"minLength":1.0},
            "c":{"type":"array","items":{"type":"string"},"minItems":1.5},
            "d":{"type":"number","multipleOf":0},
            "e":{"type":"number","multipleOf":-2,"exclusiveMinimum":true},
            "f":{"type":"string","pattern":5},
            "g":{"type":"string","pattern":"("},
            "h":{"type":"string","description":5,"title":["t"]}},
            "required":["a","a"]});
        assert_eq!(
            seen(r, s),
            pairs(&[
                (
                    "/additionalProperties",
                    "keyword-allowed: additionalProperties (not a schema)"
                ),
                ("/properties/a/minimum", "keyword-allowed: minimum (string)"),
                (
                    "/properties/a/maximum",
                    "keyword-allowed: maximum (not a number)"
                ),
                (
                    "/properties/b/maxLength",
                    "keyword-allowed: maxLength (negative)"
                ),
                (
                    "/properties/b/minLength",
                    "keyword-allowed: minLength (decimal)"
                ),
                (
                    "/properties/c/minItems",
                    "keyword-allowed: minItems (not an integer)"
                ),
                (
                    "/properties/d/multipleOf",
                    "keyword-allowed: multipleOf (zero)"
                ),
                (
                    "/properties/e/multipleOf",
                    "keyword-allowed: multipleOf (negative)"
                ),
                (
                    "/properties/f/pattern",
                    "keyword-allowed: pattern (not a string)"
                ),
                (
                    "/properties/g/pattern",
                    "keyword-allowed: pattern (invalid regex)"
                ),
                (
                    "/properties/h/description",
                    "keyword-allowed: description (not a string)"
                ),
                (
                    "/properties/h/title",
                    "keyword-allowed: title (not a string)"
                ),
            ])
        );
    }

    #[test]
    fn valid_values_and_other_rules_forms_are_left_alone() {
        let r = "keyword-value-invalid";
        let s = json!({"type":"object","additionalProperties":false,"properties":{
            "a":{"type":"integer","minimum":-1,"maximum":1.5,"multipleOf":0.5},
            "b":{"type":"string","maxLength":0,"minLength":1,"pattern":"^(?=a)(?<n>a)$"},
            "c":{"type":"number","exclusiveMaximum":false},
            "d":{"type":"object","additionalProperties":{"type":"string"}},
            // A property named like a keyword is a name, whatever its schema.
            "pattern":{"type":"string","description":"d"}}});
        assert_eq!(seen(r, s), pairs(&[]));
    }

    #[test]
    fn each_value_is_reported_once_by_this_rule_not_by_keyword_unsupported() {
        let s = json!({"type":"object","properties":{
            "a":{"type":"string","pattern":"(","maxLength":-1,"description":5}}});
        let other = seen("keyword-unsupported", s);
        assert!(
            !other.iter().any(|(p, _)| p.starts_with("/properties/a/")),
            "{other:?}"
        );
    }

    /// A named backreference is read as the numbered one of its group, which compiles: one
    /// to a group that may not have matched is checked through fancy-regex's conditional, or
    /// left unchecked by `args` with a warning as its numbered twin is, not called invalid
    /// (trial 58 D9: the key `^(?:(?<n>a)|b)\k<n>$` was keyword-value-invalid, its numbered
    /// twin nothing).
    #[test]
    fn a_named_backreference_to_an_unmatched_group_is_read_as_its_numbered_twin() {
        for p in [
            "^(?:(?<a>x)|y)\\k<a>$",
            "^(?:(?<a>x)|y)+\\k<a>$",
            "^(?:(a)|y)+\\1$",
        ] {
            let s = json!({"type":"object","properties":{
                "a":{"type":"string","pattern":p},
                "b":{"type":"object","patternProperties":{p:{}}}}});
            assert!(messages("keyword-value-invalid", s).is_empty(), "{p}");
        }
    }

    /// Trial: `(?i)^abc$` and `^(?P<n>a)$` passed (`(?i)` described as unanchored) though
    /// JavaScript refuses both; `^(?:a{1000}){1000}$`, valid ECMA-262, was called invalid with
    /// a fix to escape brackets; `(?<=a+)b\1((` was blamed on its backreference.
    #[test]
    fn patterns_are_judged_as_ecma_262_not_as_the_engine_reads_them() {
        let r = "keyword-value-invalid";
        let s = json!({"type":"object","properties":{
            "a":{"type":"string","pattern":"^\\p{L}+$"},
            "b":{"type":"string","pattern":"(?i)^abc$"},
            "c":{"type":"string","pattern":"^[\\w-]+$"},
            "e":{"type":"string","pattern":"^a{,2}$"},
            "f":{"type":"string","pattern":"^(?P<n>a)$"},
            "g":{"type":"string","pattern":"^\\Aa\\z$"},
            "h":{"type":"string","pattern":"^a++$"},
            "q":{"type":"string","pattern":"^(?:a{1000}){1000}$"},
            "s":{"type":"string","pattern":"(?<=a+)b\\1(("}}});
        let invalid = "keyword-allowed: pattern (invalid regex)";
        assert_eq!(
            seen(r, s.clone()),
            pairs(&[
                ("/properties/b/pattern", invalid),
                ("/properties/f/pattern", invalid),
                ("/properties/g/pattern", invalid),
                ("/properties/h/pattern", invalid),
                ("/properties/s/pattern", invalid),
            ])
        );
        let m = messages(r, s.clone());
        assert!(
            m[0].starts_with(
                "`pattern` \"(?i)^abc$\" is no ECMA-262 regular expression: it uses `(?i)`, \
                 an inline flag group"
            ),
            "{m:?}"
        );
        assert!(m[1].contains("ECMA-262 writes `(?<name>...)`"), "{m:?}");
        assert!(
            m[2].contains("`\\A`") && m[2].contains("write `^`"),
            "{m:?}"
        );
        assert!(m[3].contains("possessive"), "{m:?}");
        assert!(m[4].contains("does not compile"), "{m:?}");
        let f = fixes(r, s.clone());
        assert!(
            f[0].starts_with("Write `pattern` in ECMA-262's syntax"),
            "{f:?}"
        );
        assert!(f[4].contains("backslash before each"), "{f:?}");
        // No longer described as an unanchored pattern: it is no pattern at all.
        let other = seen("keyword-unsupported", s);
        assert!(
            !other.iter().any(|(p, _)| p == "/properties/b/pattern"),
            "{other:?}"
        );
    }

    #[test]
    fn the_message_says_what_the_value_should_be() {
        let m = messages(
            "keyword-value-invalid",
            json!({"type":"object","properties":{"a":{"type":"string","maxLength":-1}}}),
        );
        assert!(
            m[0].starts_with(
                "`maxLength` is -1 (a JSON number); it must be a non-negative integer"
            ),
            "{m:?}"
        );
    }

    /// A pattern is quoted with its own text: human output escapes the message once, so a
    /// JSON-encoded quote read `"^(\\\\d$"` there (trial: four backslashes for one).
    #[test]
    fn a_pattern_is_quoted_with_its_own_text() {
        let m = messages(
            "keyword-value-invalid",
            json!({"type":"object","properties":{"a":{"type":"string","pattern":"^(\\d$"}}}),
        );
        assert!(
            m[0].starts_with("`pattern` \"^(\\d$\" does not compile"),
            "{m:?}"
        );
        assert_eq!(
            crate::report::escape_inline(&m[0])
                .split(' ')
                .nth(1)
                .unwrap(),
            "\"^(\\\\d$\"",
            "{m:?}"
        );
    }

    #[test]
    fn booleans_uris_lists_and_formats_of_the_wrong_kind() {
        let r = "keyword-value-invalid";
        let s = json!({"$schema":5,"type":"object","anyOf":[],"properties":{
            "a":{"type":"array","items":{"type":"string"},"uniqueItems":"yes"},
            "b":{"type":"string","format":5,"deprecated":"no","readOnly":1},
            "c":{"anyOf":[]},
            "d":{"type":"string","oneOf":{"type":"string"}},
            "e":{"type":"string","anyOf":[],"$id":7}}});
        let found = seen(r, s.clone());
        assert_eq!(
            found,
            pairs(&[
                ("/$schema", "keyword-allowed: $schema (not a string)"),
                ("/anyOf", "keyword-allowed: anyOf (empty)"),
                (
                    "/properties/a/uniqueItems",
                    "keyword-allowed: uniqueItems (not a boolean)"
                ),
                (
                    "/properties/b/format",
                    "keyword-allowed: format (not a string)"
                ),
                (
                    "/properties/b/deprecated",
                    "keyword-allowed: deprecated (not a boolean)"
                ),
                (
                    "/properties/b/readOnly",
                    "keyword-allowed: readOnly (not a boolean)"
                ),
                ("/properties/c/anyOf", "keyword-allowed: anyOf (empty)"),
                (
                    "/properties/d/oneOf",
                    "keyword-allowed: oneOf (not an array)"
                ),
                ("/properties/e/anyOf", "keyword-allowed: anyOf (empty)"),
                ("/properties/e/$id", "keyword-allowed: $id (not a string)"),
            ])
        );
        // No other rule reports those places: the value is the problem, not the keyword, a
        // combinator at the root, an `anyOf` with siblings or the `format` named.
        for other in [
            "keyword-unsupported",
            "root-combinator",
            "anyof-with-siblings",
            "format-unsupported",
        ] {
            let theirs = seen(other, s.clone());
            assert!(
                !theirs
                    .iter()
                    .any(|(p, _)| found.iter().any(|(q, _)| p == q)),
                "{other}: {theirs:?}"
            );
        }
        // Valid values of the same keywords are left alone.
        let ok = json!({"$schema":"https://json-schema.org/draft/2020-12/schema",
            "type":"object","properties":{
            "a":{"type":"array","items":{"type":"string"},"uniqueItems":true},
            "b":{"type":"string","format":"date","deprecated":false},
            "c":{"anyOf":[{"type":"string"},{"type":"integer"}]}}});
        assert_eq!(seen(r, ok), pairs(&[]));
    }

    #[test]
    fn the_message_and_fix_say_what_to_write() {
        let check = |s: serde_json::Value| {
            let m = messages("keyword-value-invalid", s.clone());
            let set = crate::profile::embedded().expect("built-in profiles load");
            let p = crate::profile::CompiledProfile::new(set.get("anthropic/messages").unwrap());
            let tool = crate::profile::detect::ToolRef {
                name: Some("probe_tool"),
                description: Some("Looks up a record by its identifier."),
                parameters: Some(&s),
                index: 0,
                ..Default::default()
            };
            let fixes: Vec<String> = crate::check::check_tools(&[tool], &p)
                .into_iter()
                .filter(|f| f.rule == "keyword-value-invalid")
                .map(|f| f.fix.to_string())
                .collect();
            (m, fixes)
        };
        let (m, fix) = check(json!({"type":"object","properties":{
            "a":{"type":"array","items":{"type":"string"},"uniqueItems":"yes"}}}));
        assert!(
            m[0].starts_with("`uniqueItems` is \"yes\" (a JSON string); it must be a boolean"),
            "{m:?}"
        );
        assert_eq!(
            fix,
            ["Write `uniqueItems: true` (a boolean), or remove it."]
        );
        let (m, fix) = check(json!({"type":"object","properties":{"a":{"anyOf":[]}}}));
        assert!(
            m[0].starts_with(
                "`anyOf` is [] (a JSON array); it must be a non-empty list of schemas"
            ),
            "{m:?}"
        );
        // No value is valid against it: removing it is no fix.
        assert!(
            fix[0].starts_with("Give `anyOf` the schemas it was meant to hold")
                && fix[0].ends_with("so removing it would accept every value."),
            "{fix:?}"
        );
        let (_, fix) = check(json!({"type":"object","properties":{"a":{"allOf":[]}}}));
        assert!(
            fix[0].starts_with("Give `allOf` at least one schema, or remove it"),
            "{fix:?}"
        );
        let (_, fix) = check(json!({"$schema":5,"type":"object","properties":{}}));
        assert!(
            fix[0].contains("\"https://json-schema.org/draft/2020-12/schema\""),
            "{fix:?}"
        );
        let (_, fix) = check(json!({"type":"object","properties":{
            "a":{"type":"integer","minimum":"1"}}}));
        assert_eq!(fix, ["Write `minimum: 1` (a number), or remove it."]);
    }

    /// Trial 72 D2: `minLength: 3.0` is the count 3 under 2020-12, but llguidance refuses it
    /// ("Expected positive integer for 'minLength', got 3.0"), and check called it clean as
    /// plain `minLength`. Every count keyword written so (`3.0`, `8e0`) is the form
    /// `(decimal)`, judged by its own evidence; `3`, `minimum: 3.0` and `multipleOf: 0.5`
    /// (keyword-unsupported's `decimal`) are not this rule's.
    #[test]
    fn a_whole_count_written_as_a_decimal_is_a_form_of_its_own() {
        use crate::check::Level;
        use crate::profile::Status;
        let r = "keyword-value-invalid";
        let s = json!({"type":"object","properties":{
            "a":{"type":"string","minLength":3.0,"maxLength":8e0},
            "b":{"type":"array","items":{"type":"string"},"contains":{"type":"string"},
                "minItems":1.0,"maxItems":3,"minContains":0.0,"maxContains":2.0},
            "c":{"type":"object","minProperties":1.0,"maxProperties":1e1},
            "d":{"type":"number","minimum":3.0,"multipleOf":0.5}}});
        let decimal = |k: &str| format!("keyword-allowed: {k} (decimal)");
        let want: Vec<(String, String)> = [
            ("/properties/a/minLength", "minLength"),
            ("/properties/a/maxLength", "maxLength"),
            ("/properties/b/minItems", "minItems"),
            ("/properties/b/minContains", "minContains"),
            ("/properties/b/maxContains", "maxContains"),
            ("/properties/c/minProperties", "minProperties"),
            ("/properties/c/maxProperties", "maxProperties"),
        ]
        .iter()
        .map(|(p, k)| (p.to_string(), decimal(k)))
        .collect();
        assert_eq!(seen(r, s.clone()), want);
        let other = seen("keyword-unsupported", s.clone());
        assert!(
            !other.iter().any(|(p, _)| want.iter().any(|(q, _)| p == q)),
            "{other:?}"
        );
        assert!(
            other.contains(&(
                "/properties/d/multipleOf".into(),
                "keyword-allowed: multipleOf (decimal)".into()
            )),
            "{other:?}"
        );
        assert_eq!(
            super::super::owner("keyword-allowed: minLength (decimal)").map(|r| r.id),
            Some(r)
        );
        assert_eq!(
            super::super::owner("keyword-allowed: multipleOf (decimal)").map(|r| r.id),
            Some("keyword-unsupported")
        );
        assert_eq!(super::whole_count("minLength", &json!(3.0)), Some(3));
        assert_eq!(super::whole_count("minLength", &json!(3)), None);
        assert_eq!(super::whole_count("minLength", &json!(1e20)), None);
        assert_eq!(super::whole_count("minimum", &json!(3.0)), None);
        // Judged by its own evidence, not the plain keyword's: a target that takes
        // `minLength: 3` and refuses `3.0` gets an error with the integer to write.
        let profile = nested_profile(
            "test/target",
            &[
                ("keyword-allowed: minLength", Status::Allowed),
                ("keyword-allowed: minLength (decimal)", Status::Rejected),
            ],
        );
        let one = json!({"type":"object","properties":{
            "v":{"type":"string","description":"x","minLength":3.0}},"required":["v"]});
        let f: Vec<_> = check_under(&profile, &one)
            .into_iter()
            .filter(|f| f.rule == r)
            .collect();
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].level, Level::Error);
        assert_eq!(f[0].pointer, "/properties/v/minLength");
        assert!(
            f[0].message.starts_with(
                "`minLength` is 3.0, a whole count written with a fraction part or an \
                 exponent: JSON Schema 2020-12 reads it as an integer"
            ),
            "{}",
            f[0].message
        );
        assert_eq!(
            f[0].fix.to_string(),
            "Write `minLength: 3`: the same count, written without a fraction part or exponent."
        );
    }

    /// Trial 79 D3: `maxLength: 18446744073709551616`, an integer literal past 2^64 (which
    /// serde_json reads as a float), was called "a whole count written with a fraction part
    /// or an exponent", with the fix "Write `maxLength` as an integer literal", what it already
    /// was. A count of 2^64 or more is a form of its own, whatever its spelling; one below
    /// it written `3e0` is still `(decimal)`.
    #[test]
    fn a_count_past_64_bits_is_not_called_a_decimal() {
        let r = "keyword-value-invalid";
        let past: serde_json::Value = serde_json::from_str("18446744073709551616").unwrap();
        assert!(past.is_f64(), "serde_json reads it as a float: {past:?}");
        for v in [past.clone(), json!(1e30), json!(18446744073709551616.0)] {
            assert_eq!(
                super::form("maxLength", &v),
                Some(crate::profile::rules::value::COUNT_PAST_64_BITS),
                "{v}"
            );
            assert_eq!(super::whole_count("maxLength", &v), None, "{v}");
        }
        // The largest float below 2^64 is a count a u64 holds.
        assert_eq!(
            super::form("maxItems", &json!(18446744073709549568.0)),
            Some(crate::profile::rules::value::DECIMAL)
        );
        assert_eq!(super::form("maximum", &past), None);
        let s = json!({"type":"object","properties":{
            "s":{"type":"string","description":"x","maxLength":past}},"required":["s"]});
        assert_eq!(
            seen(r, s.clone()),
            vec![(
                "/properties/s/maxLength".to_string(),
                "keyword-allowed: maxLength (2^64 or more)".to_string()
            )]
        );
        assert_eq!(
            super::super::owner("keyword-allowed: maxLength (2^64 or more)").map(|r| r.id),
            Some(r)
        );
        let f: Vec<_> = check_under(&nested_profile("test/target", &[]), &s)
            .into_iter()
            .filter(|f| f.rule == r)
            .collect();
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message
                .contains("`maxLength` is 1.8446744073709552e+19, a count of 2^64 or more"),
            "{}",
            f[0].message
        );
        assert!(!f[0].message.contains("fraction part"), "{}", f[0].message);
        assert_eq!(
            f[0].fix.to_string(),
            "Write `maxLength` as a count below 2^64 (18446744073709551616), or remove it if it \
             was meant as no bound."
        );
    }

    /// The verdict is the evidence's: the form's own, or, where no target is known to accept
    /// the form, the keyword's rejection (named as the case that judged it); evidence that
    /// the form is accepted is never overridden.
    #[test]
    fn a_rejected_keyword_decides_only_where_its_value_has_no_accepting_evidence() {
        use crate::check::Level;
        use crate::profile::Status;
        let profile = nested_profile(
            "test/target",
            &[
                ("keyword-allowed: uniqueItems", Status::Rejected),
                ("keyword-allowed: minimum", Status::Rejected),
                ("keyword-allowed: minimum (string)", Status::Allowed),
                ("keyword-allowed: maxLength", Status::Allowed),
                ("keyword-allowed: maxLength (negative)", Status::Rejected),
            ],
        );
        let s = json!({"type":"object","properties":{
            "a":{"type":"array","items":{"type":"string"},"uniqueItems":"yes"},
            "b":{"type":"integer","minimum":"1"},
            "c":{"type":"string","maxLength":-1},
            "d":{"type":"string","title":5}}});
        let f: Vec<_> = check_under(&profile, &s)
            .into_iter()
            .filter(|f| f.rule == "keyword-value-invalid")
            .collect();
        let at = |p: &str| f.iter().find(|f| f.pointer == p);
        let unique = at("/properties/a/uniqueItems").expect("reported");
        assert_eq!(unique.level, Level::Error);
        assert_eq!(
            unique.parameter.as_str(),
            "keyword-allowed: uniqueItems (not a boolean)"
        );
        assert!(
            unique
                .message
                .contains("and the keyword itself is not accepted")
                && unique
                    .message
                    .ends_with("(case `keyword-allowed: uniqueItems`)"),
            "{}",
            unique.message
        );
        assert!(
            unique.fix.starts_with("`uniqueItems` takes a boolean, but"),
            "{}",
            unique.fix
        );
        assert!(at("/properties/b/minimum").is_none(), "{f:?}");
        let negative = at("/properties/c/maxLength").expect("reported");
        assert_eq!(negative.level, Level::Error);
        assert!(!negative.message.contains("itself"), "{}", negative.message);
        let title = at("/properties/d/title").expect("reported");
        assert_eq!(title.level, Level::Warning);
        assert!(
            title
                .message
                .contains("no case covers `keyword-allowed: title (not a string)`"),
            "{}",
            title.message
        );
    }
}
