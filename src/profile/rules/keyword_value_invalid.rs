//! `keyword-value-invalid`: a keyword whose value the JSON Schema 2020-12 meta-schema refuses
//! (or, for `pattern`, a regular expression that does not compile).

use serde_json::Value;

use super::*;

pub const RULE: Rule = Rule {
    id: "keyword-value-invalid",
    checks: "A keyword's value has the wrong kind or range: a numeric keyword given as a string \
             (`minimum: \"1\"`) or as another non-number, a count (`maxLength`, `minItems`, ...) \
             that is negative or not whole, `multipleOf` that is zero or negative, a \
             string-valued keyword (`pattern`, `description`, `title`, ...) given as another \
             kind, a `pattern` that does not compile as a regular expression, \
             `additionalProperties` that is neither a schema nor a boolean.",
    features: "`keyword-allowed: <keyword> (string)`, `(not a number)`, `(negative)`, `(not an integer)`, `(zero)`, `(not a string)`, `pattern (invalid regex)`, `additionalProperties (not a schema)`",
    example: r#"{"type": "object", "properties": {"count": {"type": "integer", "minimum": "1"}}}"#,
    fix: "Write the value the keyword takes (a number for `minimum`, a whole number of at least 0 for `maxLength`, a number above 0 for `multipleOf`, a string for `pattern` and `description`, a schema or a boolean for `additionalProperties`), or remove the keyword.",
    repair: "partly: the keyword is dropped (a value the keyword does not take constrains nothing a validator enforces, so nothing is lost); `additionalProperties` that is not a schema only where `properties` declares the members",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
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
    /// A string (core §8, validation §6.3.3, §8, §9).
    Text,
    /// A schema or a boolean (core §10.3.2.3).
    Schema,
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
        "pattern" | "description" | "title" | "$comment" | "$anchor" | "contentEncoding"
        | "contentMediaType" => Takes::Text,
        "additionalProperties" => Takes::Schema,
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
];

fn owns(p: &Param) -> bool {
    match p {
        Param::Keyed(Kind::KeywordForm, v) => v
            .split_once(" (")
            .is_some_and(|(_, f)| FORMS.contains(&f.trim_end_matches(')'))),
        _ => false,
    }
}

/// `toolwire repair` drops the keyword (a narrowing keyword's loss is reported); an
/// `additionalProperties` that is not a schema is the only description of the members of an
/// object without `properties`, where repair refuses.
fn repairable(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    !matches!(f, Feat::KeywordForm("additionalProperties", _))
        || r.node().is_some_and(crate::repair::declares_members)
}

/// The invalid-value form of keyword `k` with value `v`, or `None` when the value is one the
/// keyword takes (or `k` is not a keyword this rule knows). A draft-4 boolean
/// `exclusiveMinimum`/`exclusiveMaximum` is a form of its own (keyword-unsupported's).
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
    }
}

/// What keyword `k` takes, for messages and repairs, when its value `v` is one it does not
/// take (`None` otherwise): "a number", "a non-negative integer", "a string", ...
/// (draft 2020-12 validation §6.2–6.5, §9; core §8, §10.3.2.3).
pub fn wanted(k: &str, v: &Value) -> Option<&'static str> {
    let f = form(k, v)?;
    Some(match k {
        "multipleOf" => "a number greater than 0",
        "pattern" if f == value::VALUE_INVALID_REGEX => "an ECMA-262 regular expression",
        "additionalProperties" => "a schema or a boolean",
        _ if takes(k) == Some(Takes::Number) => "a number",
        _ if takes(k) == Some(Takes::Count) => "a non-negative integer",
        _ => "a string",
    })
}

/// Whether `k` is a bound (a numeric or count keyword), for wording.
pub fn is_bound(k: &str) -> bool {
    matches!(takes(k), Some(Takes::Number | Takes::Count))
}

/// Whether `pattern` compiles as the `jsonschema` crate compiles it (ECMA-262 syntax
/// translated for `fancy-regex`, its default engine): the same build that
/// `engine/jsonschema-2020-12` runs, so a lookahead or a named group compiles and `(` does not.
fn compiles(pattern: &str) -> bool {
    jsonschema::draft202012::options()
        .build(&serde_json::json!({ "pattern": pattern }))
        .is_ok()
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(map) = n.map else { return };
    for (k, v) in map {
        let Some(f) = form(k, v) else { continue };
        let k = k.as_str();
        cx.feature(
            At::Key(n.frame, k),
            Feat::KeywordForm(k, f),
            n.placement,
            || {
                let need = wanted(k, v).unwrap_or("another value");
                if f == value::VALUE_INVALID_REGEX {
                    format!("`pattern` {v} does not compile; it must be {need}")
                } else {
                    format!("`{k}` is {v} (a JSON {}); it must be {need}", json_kind(v))
                }
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

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
            "b":{"type":"string","maxLength":0,"minLength":1.0,"pattern":"^(?=a)(?<n>a)$"},
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
}
