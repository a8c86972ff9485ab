//! A keyword set both by a `$ref`'s definition and beside the `$ref`, merged into one value
//! where one value says exactly what the two say together. JSON Schema 2019-09 on applies a
//! `$ref` and the keywords beside it together (a value must satisfy both), so inlining may
//! write one keyword in place of the two only when the one is their conjunction: nothing the
//! two allowed together may be refused, nothing either refused may be let through.

use std::cmp::Ordering;

use serde_json::{Number, Value};

/// How the two values of one keyword combine into their conjunction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum How {
    /// The intersection of the two type sets (`integer` within `number`). A value has one
    /// JSON type, so it satisfies both lists exactly when its type is in both; `integer` is
    /// the part of `number` both allow.
    Types,
    /// The larger bound: `x >= a` and `x >= b` hold together exactly when `x >= max(a, b)`
    /// (strict bounds and lengths alike).
    Larger,
    /// The smaller bound: `x <= a` and `x <= b` exactly when `x <= min(a, b)`.
    Smaller,
    /// The union of the lists: an object has every name of both exactly when it has every
    /// name of their union.
    Union,
    /// The members in both lists: a value equals a member of each exactly when it equals a
    /// member of both.
    Common,
}

/// The keywords whose conjunction is one value, and how it is found. Any other keyword set
/// differently on the two sides is no such merge (`const`, `pattern`, `format`, `items`, ...:
/// two patterns are not one pattern), and is left to the caller (an `allOf`, or a refusal).
const TABLE: &[(&str, How)] = &[
    ("type", How::Types),
    ("minimum", How::Larger),
    ("exclusiveMinimum", How::Larger),
    ("minLength", How::Larger),
    ("minItems", How::Larger),
    ("minProperties", How::Larger),
    ("maximum", How::Smaller),
    ("exclusiveMaximum", How::Smaller),
    ("maxLength", How::Smaller),
    ("maxItems", How::Smaller),
    ("maxProperties", How::Smaller),
    ("required", How::Union),
    ("enum", How::Common),
];

/// The conjunction of keyword `k` as the definition sets it (`ours`) and as the `$ref` beside
/// it does (`theirs`): `Some(Ok(value))` for the one value saying both (the definition's order
/// kept), `Some(Err(words))` when no value can satisfy both (two types or `enum`s with nothing
/// in common), `None` when `k` has no such merge or a value is not of the keyword's form (a
/// draft-4 boolean `exclusiveMinimum`). Equal values are the caller's to keep once.
pub fn merge(k: &str, ours: &Value, theirs: &Value) -> Option<Result<Value, String>> {
    let how = TABLE.iter().find(|(name, _)| *name == k)?.1;
    let merged = match how {
        How::Types => {
            let (a, b) = (types(ours)?, types(theirs)?);
            let mut both: Vec<&str> = Vec::new();
            for t in a.iter().copied() {
                let kept = if b.contains(&t) {
                    Some(t)
                } else if (t == "number" && b.contains(&"integer"))
                    || (t == "integer" && b.contains(&"number"))
                {
                    Some("integer")
                } else {
                    None
                };
                if let Some(t) = kept.filter(|t| !both.contains(t)) {
                    both.push(t);
                }
            }
            match both.as_slice() {
                [] => None,
                [one] => Some(Value::String((*one).to_string())),
                many => Some(Value::Array(
                    many.iter()
                        .map(|t| Value::String((*t).to_string()))
                        .collect(),
                )),
            }
        }
        How::Larger | How::Smaller => {
            let (a, b) = (ours.as_number()?, theirs.as_number()?);
            let order = compare(a, b)?;
            let first = if how == How::Larger {
                order != Ordering::Less
            } else {
                order != Ordering::Greater
            };
            let kept = if first { ours } else { theirs };
            Some(kept.clone())
        }
        How::Union => {
            let (a, b) = (ours.as_array()?, theirs.as_array()?);
            let mut names = a.clone();
            for n in b {
                if !names.iter().any(|m| same(m, n)) {
                    names.push(n.clone());
                }
            }
            Some(Value::Array(names))
        }
        How::Common => {
            let (a, b) = (ours.as_array()?, theirs.as_array()?);
            let both: Vec<Value> = a
                .iter()
                .filter(|m| b.iter().any(|n| same(m, n)))
                .cloned()
                .collect();
            (!both.is_empty()).then_some(Value::Array(both))
        }
    };
    Some(merged.ok_or_else(|| match how {
        // Said by value, not as `enum`: a side may be a `const` repair wrote as a one-value
        // `enum` (trial 50: two `const`s were said as two `enum`s).
        How::Common => format!(
            "no value can satisfy both the values the definition allows ({}) and those the \
             keywords beside the `$ref` allow ({})",
            values(ours),
            values(theirs)
        ),
        _ => format!(
            "no value can satisfy both `{k}: {}` (the definition) and `{k}: {}` (beside the \
             `$ref`)",
            show(ours),
            show(theirs)
        ),
    }))
}

/// The values of an `enum` (or of a `const`, as its one value) as said in a message: each as
/// compact JSON, in backticks, joined by commas (`` `"a"`, `"b"` ``).
pub fn values(list: &Value) -> String {
    let one = std::slice::from_ref(list);
    let all = list.as_array().map_or(one, Vec::as_slice);
    let shown: Vec<String> = all
        .iter()
        .map(|v| format!("`{}`", crate::report::Shown(v)))
        .collect();
    shown.join(", ")
}

/// A `type` value as its list of names: one name, or a list of names only.
fn types(v: &Value) -> Option<Vec<&str>> {
    match v {
        Value::String(s) => Some(vec![s.as_str()]),
        Value::Array(a) => a.iter().map(Value::as_str).collect(),
        _ => None,
    }
}

/// Two numbers in order, exactly where both are integers (a float would round large ones).
fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
        (Some(x), Some(y), _, _) => Some(x.cmp(&y)),
        (_, _, Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// JSON Schema's equality: numbers by value (`1` is `1.0`), the rest as written.
pub(crate) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Some(Ordering::Equal),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// A value as said in a message: a name bare (`string`), anything else as compact JSON.
fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        v => crate::report::Shown(v).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::merge;
    use serde_json::json;

    /// Each combination of the table gives the one value that says both sides.
    #[test]
    fn each_keyword_merges_into_the_conjunction() {
        for (k, ours, theirs, both) in [
            (
                "type",
                json!("integer"),
                json!(["integer", "null"]),
                json!("integer"),
            ),
            (
                "type",
                json!(["integer", "null"]),
                json!("integer"),
                json!("integer"),
            ),
            (
                "type",
                json!(["string", "number", "null"]),
                json!(["null", "integer", "string"]),
                json!(["string", "integer", "null"]),
            ),
            ("type", json!("number"), json!("integer"), json!("integer")),
            ("minimum", json!(5), json!(10), json!(10)),
            ("minimum", json!(10), json!(5), json!(10)),
            ("exclusiveMinimum", json!(0.5), json!(0), json!(0.5)),
            ("minLength", json!(2), json!(3), json!(3)),
            ("minItems", json!(1), json!(0), json!(1)),
            ("minProperties", json!(0), json!(4), json!(4)),
            ("maximum", json!(5), json!(10), json!(5)),
            ("exclusiveMaximum", json!(1.5), json!(1), json!(1)),
            ("maxLength", json!(20), json!(8), json!(8)),
            ("maxItems", json!(3), json!(9), json!(3)),
            ("maxProperties", json!(7), json!(2), json!(2)),
            (
                "required",
                json!(["a", "b"]),
                json!(["c", "a"]),
                json!(["a", "b", "c"]),
            ),
            (
                "enum",
                json!(["x", 1, "y", "z"]),
                json!(["z", 1.0, "x"]),
                json!(["x", 1, "z"]),
            ),
        ] {
            assert_eq!(
                merge(k, &ours, &theirs),
                Some(Ok(both)),
                "{k}: {ours} and {theirs}"
            );
        }
    }

    /// Two sides with nothing in common leave no valid value: said plainly, never merged.
    #[test]
    fn an_empty_intersection_is_said_plainly() {
        assert_eq!(
            merge("type", &json!("string"), &json!("integer")),
            Some(Err(
                "no value can satisfy both `type: string` (the definition) and \
                      `type: integer` (beside the `$ref`)"
                    .into()
            ))
        );
        assert_eq!(
            merge("enum", &json!(["a", "b"]), &json!(["c"])),
            Some(Err(
                "no value can satisfy both the values the definition allows (`\"a\"`, \
                      `\"b\"`) and those the keywords beside the `$ref` allow (`\"c\"`)"
                    .into()
            ))
        );
    }

    /// Keywords outside the table, and values not of their keyword's form, are no merge.
    #[test]
    fn other_keywords_and_forms_are_no_merge() {
        assert_eq!(merge("pattern", &json!("^a"), &json!("b$")), None);
        assert_eq!(merge("const", &json!(1), &json!(2)), None);
        assert_eq!(merge("exclusiveMinimum", &json!(true), &json!(3)), None);
        assert_eq!(merge("type", &json!({"x": 1}), &json!("string")), None);
    }
}
