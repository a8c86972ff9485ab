//! Problems for an `anyOf`/`oneOf` none of whose alternatives (branches) the value matches.
//!
//! The validator reports, for each branch, the errors the value met in it. When one branch is
//! clearly the one the model meant, its own problems are reported, at their own pointers: the
//! only branch whose type the value has (`50` against a string or an integer branch is meant
//! as the integer), or for an object the only such branch whose discriminator (a property
//! with `const`/`enum`, MCP's `"kind": "image"`) the value matches. Otherwise one problem
//! lists every branch with what failed in it for this value. Branches are named by their
//! `title`, or for a `$ref` by the referenced definition's name, in words.

use std::borrow::Cow;

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use super::{ArgsSchema, Coercions, Problem, Sentence, expected_for, pointer_to};

/// How many of a branch's problems its description names before "and N more".
const MAX_PER_BRANCH: usize = 4;
/// How many distinct alternatives a union's problem describes before it counts the rest: the
/// message is read by a model, and 2,000 alternatives made one of 59 kB.
const MAX_BRANCHES: usize = 16;
/// How long a branch problem's expected-text may be inside a description.
const MAX_INNER_CHARS: usize = 160;

impl ArgsSchema {
    /// Appends the problems of `e`, an `anyOf` (`keyword`) or `oneOf` error whose branches
    /// failed with `branches` (in branch order).
    pub(super) fn union_problems(
        &self,
        e: &ValidationError<'_>,
        keyword: &'static str,
        branches: &[Vec<ValidationError<'static>>],
        coerce: Coercions,
        out: &mut Vec<Problem>,
    ) {
        let here = e.instance_path().as_str();
        let value = e.instance().as_ref();
        // The `type` beside the union applies to each alternative: `{"type": "string",
        // "anyOf": [{"minLength": 3}, ...]}`'s are strings.
        let beside = self.keyword_owner(e).and_then(|owner| owner.get("type"));
        let schemas = self.branch_schemas(e, keyword, branches.len());
        if let Some(i) = nearest(here, value, branches, &schemas) {
            let before = out.len();
            for be in &branches[i] {
                self.problems_for(be, coerce, out);
            }
            if out.len() > before {
                return;
            }
        }
        let mut described: Vec<String> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut pairs = branches.iter().zip(&schemas);
        // No alternative known (the union's place could not be told): "another alternative"
        // would read as if one were.
        let unknown = schemas.iter().all(Option::is_none);
        for (errors, schema) in pairs.by_ref().filter(|_| !unknown) {
            let d = self.describe_branch(here, errors, *schema, beside, coerce);
            if seen.insert(d.clone()) {
                described.push(d);
                if described.len() == MAX_BRANCHES {
                    break;
                }
            }
        }
        let unread = pairs.count();
        let expected = if described.is_empty() {
            format!("a value matching one of the `{keyword}` alternatives")
        } else if let ([alike], 0) = (described.as_slice(), unread) {
            // Every alternative described alike: "one of:" a single item offers no choice.
            alike.clone()
        } else if unread > 0 {
            format!(
                "one of: {}; or one of {unread} more alternatives",
                described.join("; ")
            )
        } else {
            format!("one of: {}", described.join("; "))
        };
        let mut m = Sentence::at(here);
        m.value(value).text(" matches none of the alternatives");
        out.push(Problem {
            message: m.expected(&expected),
            pointer: here.to_string(),
            keyword: Cow::Borrowed(keyword),
            expected: Cow::Owned(expected),
        });
    }

    /// The schemas of the `count` branches of `e`, an `anyOf`/`oneOf` (`keyword`) error, their
    /// `$ref`s resolved, each with its definition's name; `None` for a branch whose place
    /// cannot be told.
    fn branch_schemas(
        &self,
        e: &ValidationError<'_>,
        keyword: &str,
        count: usize,
    ) -> Vec<Option<(&Value, Option<&str>)>> {
        let refs_in = self.ref_root(e);
        let listed = self
            .keyword_owner(e)
            .and_then(|owner| owner.get(keyword))
            .and_then(Value::as_array);
        (0..count)
            .map(|i| {
                listed
                    .and_then(|l| l.get(i))
                    .map(|b| resolve_refs(refs_in, b))
            })
            .collect()
    }

    /// The branches of `e`, an `anyOf`/`oneOf` error none of whose branches the value
    /// matches, whose own problems [`ArgsSchema::union_problems`] reports: the one the value
    /// was clearly meant for, else each described with what failed in it (those the value is
    /// not refused for what it is). None when no branch is known.
    pub(super) fn shown_branches(&self, e: &ValidationError<'_>) -> Vec<usize> {
        let (keyword, branches) = match e.kind() {
            ValidationErrorKind::AnyOf { context } => ("anyOf", context),
            ValidationErrorKind::OneOfNotValid { context } => ("oneOf", context),
            _ => return Vec::new(),
        };
        let here = e.instance_path().as_str();
        let schemas = self.branch_schemas(e, keyword, branches.len());
        if schemas.iter().all(Option::is_none) {
            return Vec::new();
        }
        if let Some(i) = nearest(here, e.instance().as_ref(), branches, &schemas) {
            return vec![i];
        }
        (0..branches.len())
            .filter(|&i| !mismatched(here, &branches[i]))
            .collect()
    }

    /// A branch in a few words: its name or type (the `type` beside the union, `beside`,
    /// where the branch says none), then, when the value has the branch's type, what failed
    /// in it (`an object [/url: required (a string), /body: not allowed]`).
    fn describe_branch(
        &self,
        here: &str,
        errors: &[ValidationError<'static>],
        schema: Option<(&Value, Option<&str>)>,
        beside: Option<&Value>,
        coerce: Coercions,
    ) -> String {
        let mut text = match schema {
            Some((s, name)) => {
                let says_type = ["type", "const", "enum"].iter().any(|k| s.get(k).is_some());
                match beside.filter(|_| !says_type) {
                    Some(t) => named(s, name, expected_for(&serde_json::json!({"type": t}))),
                    None => label(s, name),
                }
            }
            None => "another alternative".to_string(),
        };
        if mismatched(here, errors) {
            if let Some((s, _)) = schema {
                push_bounds(&mut text, s);
            }
            return text;
        }
        let mut problems = Vec::new();
        for be in errors {
            self.problems_for(be, coerce, &mut problems);
        }
        if problems.is_empty() {
            return text;
        }
        text.push_str(" [");
        for (i, p) in problems.iter().take(MAX_PER_BRANCH).enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push_str(&super::place(&p.pointer));
            text.push_str(": ");
            match p.keyword.as_ref() {
                "required" => {
                    text.push_str("required (");
                    push_cut(&mut text, &p.expected);
                    text.push(')');
                }
                "additionalProperties" | "unevaluatedProperties" => text.push_str("not allowed"),
                _ => push_cut(&mut text, &p.expected),
            }
        }
        if problems.len() > MAX_PER_BRANCH {
            text.push_str(" and ");
            super::push_u64(&mut text, (problems.len() - MAX_PER_BRANCH) as u64);
            text.push_str(" more");
        }
        text.push(']');
        text
    }
}

/// Appends `expected`, cut to [`MAX_INNER_CHARS`]: nested unions describe their own
/// branches, and the text of each level must not multiply into the next.
fn push_cut(text: &mut String, expected: &str) {
    if expected.chars().count() <= MAX_INNER_CHARS {
        text.push_str(expected);
    } else {
        text.extend(expected.chars().take(MAX_INNER_CHARS - 3));
        text.push_str("...");
    }
}

/// The branch the value was clearly meant for, if one is: the only one whose type the value
/// has (the `type` it declares, whatever else it refuses; see [`refuses_type`]) (and, for an object, whose discriminators the value does not contradict), or among
/// those, the only object branch whose discriminator the value matches.
fn nearest(
    here: &str,
    value: &Value,
    branches: &[Vec<ValidationError<'static>>],
    schemas: &[Option<(&Value, Option<&str>)>],
) -> Option<usize> {
    let mut fitting = Vec::new();
    let mut discriminated = Vec::new();
    for (i, errors) in branches.iter().enumerate() {
        // A branch with a `type` is the value's when the value has that type; one without is
        // judged by what it refuses (a `const`/`enum` alone says no type).
        let typed = matches!(schemas.get(i), Some(Some((s, _))) if s.get("type").is_some());
        let refused = if typed {
            refuses_type(here, errors)
        } else {
            mismatched(here, errors)
        };
        if refused {
            continue;
        }
        let (matched, contradicted) = match (value.as_object(), schemas.get(i)) {
            (Some(members), Some(Some((schema, _)))) => {
                discriminators(here, members, schema, errors)
            }
            _ => (false, false),
        };
        if contradicted {
            continue;
        }
        fitting.push(i);
        if matched {
            discriminated.push(i);
        }
    }
    match (discriminated.as_slice(), fitting.as_slice()) {
        ([one], _) | ([], [one]) => Some(*one),
        _ => None,
    }
}

/// True when the branch refuses the value at `here` for what it is (its type, or it is not
/// the branch's `const`/`enum`, or the branch is `false`), rather than for its content.
fn mismatched(here: &str, errors: &[ValidationError<'static>]) -> bool {
    errors.iter().any(|e| {
        e.instance_path().as_str() == here
            && match e.kind() {
                ValidationErrorKind::Type { .. }
                | ValidationErrorKind::Constant { .. }
                | ValidationErrorKind::Enum { .. }
                | ValidationErrorKind::FalseSchema => true,
                ValidationErrorKind::AnyOf { context }
                | ValidationErrorKind::OneOfNotValid { context } => {
                    context.iter().all(|branch| mismatched(here, branch))
                }
                _ => false,
            }
    })
}

/// True when the branch refuses the value at `here` for its type (or is `false`). For a
/// branch that declares a `type`, this and not [`mismatched`] decides whether it is the
/// value's type's alternative: `"y"` against `{"type": "string", "const": "x"}` has the
/// branch's type, and its problem ("not the one allowed value") is the one to report.
fn refuses_type(here: &str, errors: &[ValidationError<'static>]) -> bool {
    errors.iter().any(|e| {
        e.instance_path().as_str() == here
            && match e.kind() {
                ValidationErrorKind::Type { .. } | ValidationErrorKind::FalseSchema => true,
                ValidationErrorKind::AnyOf { context }
                | ValidationErrorKind::OneOfNotValid { context } => {
                    context.iter().all(|branch| refuses_type(here, branch))
                }
                _ => false,
            }
    })
}

/// The keywords [`push_bounds`] says, each with the words before and after its value.
pub(super) const BOUNDS: &[(&str, &str, &str)] = &[
    ("pattern", "matching `", "`"),
    ("format", "in ", " format"),
    ("minimum", "at least ", ""),
    ("exclusiveMinimum", "more than ", ""),
    ("maximum", "at most ", ""),
    ("exclusiveMaximum", "less than ", ""),
    ("minLength", "of at least ", " characters"),
    ("maxLength", "of at most ", " characters"),
    ("multipleOf", "a multiple of ", ""),
    ("minItems", "of at least ", " items"),
    ("maxItems", "of at most ", " items"),
    ("minProperties", "with at least ", " members"),
    ("maxProperties", "with at most ", " members"),
];

/// Appends the scalar bounds a branch sets (" matching `^C-`", " at least 100"), so that a
/// value of another type learns the whole of what the branch accepts.
pub(super) fn push_bounds(text: &mut String, schema: &Value) {
    let mut first = true;
    for (keyword, head, tail) in BOUNDS {
        let Some(v) = schema.get(*keyword) else {
            continue;
        };
        text.push_str(if first { " " } else { ", " });
        first = false;
        text.push_str(head);
        match v {
            Value::String(t) => text.push_str(t),
            other => super::push_short_value(text, other),
        }
        text.push_str(tail);
    }
    // The members it must have (trial 52 D5: a contains schema requiring `k` was said "an
    // object", which the call's `{}` already was).
    let names: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if !names.is_empty() {
        text.push_str(if first { " with " } else { ", with " });
        let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        text.push_str(&quoted.join(", "));
    }
}

/// For an object value and an object branch: whether some discriminator (a declared property
/// with `const` or `enum`) the value sends matches, and whether one it sends does not.
fn discriminators(
    here: &str,
    members: &serde_json::Map<String, Value>,
    schema: &Value,
    errors: &[ValidationError<'static>],
) -> (bool, bool) {
    let (mut matched, mut contradicted) = (false, false);
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return (false, false);
    };
    for (name, property) in properties {
        if !members.contains_key(name)
            || !(property.get("const").is_some() || property.get("enum").is_some())
        {
            continue;
        }
        let at = pointer_to(here, name);
        if errors.iter().any(|e| e.instance_path().as_str() == at) {
            contradicted = true;
        } else {
            matched = true;
        }
    }
    (matched, contradicted)
}

/// Follows local `$ref`s from `branch` to the schema they name, with the resolver every
/// command shares ([`crate::schema::refs::follow`]); also gives the name of the last
/// definition reached (`#/$defs/ImageBlock` → `ImageBlock`). A chain that cannot be followed
/// to a schema leaves the branch as it is.
fn resolve_refs<'s>(root: &'s Value, branch: &'s Value) -> (&'s Value, Option<&'s str>) {
    let Some(reference) = branch.get("$ref").and_then(Value::as_str) else {
        return (branch, None);
    };
    match crate::schema::refs::follow(root, reference) {
        crate::schema::refs::Chain::Reaches { schema, last, .. } => {
            // The name as written in the schema (a borrowed key), not the decoded copy.
            let name = last
                .strip_prefix('#')
                .and_then(|f| f.rsplit('/').next())
                .filter(|n| !n.is_empty());
            (schema, name)
        }
        _ => (branch, None),
    }
}

/// What `schema` (an argument's declared schema, maybe a `$ref`) expects, in words: for a
/// `$ref` to a definition, the definition's name and what it is ("R (an object)"), never the
/// bare name as if it were a type ("a R").
pub(super) fn described(root: &Value, schema: &Value) -> String {
    match resolve_refs(root, schema) {
        (target, Some(name)) => label(target, Some(name)),
        _ => expected_for(schema),
    }
}

/// A branch's name and what it is: "image block (an object)", "Payment card (an object)", or
/// just what it is ("an integer") when it has no `title` and is not a named definition.
fn label(schema: &Value, definition: Option<&str>) -> String {
    named(schema, definition, expected_for(schema))
}

/// `what` the schema is, after its name as [`label`] gives it.
fn named(schema: &Value, definition: Option<&str>, what: String) -> String {
    let name = match schema.get("title").and_then(Value::as_str) {
        Some(t) if !t.trim().is_empty() => t.trim().to_string(),
        _ => match definition {
            Some(d) => in_words(d),
            None => return what,
        },
    };
    format!("{name} ({what})")
}

/// A definition name in words: `ImageBlock`, `image_block` and `image-block` become
/// "image block"; all-capital words (`URL`, `A`) keep their case.
fn in_words(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == ' ' || c == '.' {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        word.push(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    let words: Vec<String> = words
        .into_iter()
        .map(|w| {
            if w.chars().skip(1).any(char::is_uppercase) || w.chars().count() == 1 {
                w
            } else {
                w.to_lowercase()
            }
        })
        .collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::in_words;

    #[test]
    fn nested_unions_do_not_multiply_the_text() {
        // Five levels of two object branches each: every level cut, the message stays short.
        let mut schema = serde_json::json!({"type":"string"});
        for level in 0..5 {
            let a = format!("a{level}");
            let b = format!("b{level}");
            schema = serde_json::json!({"anyOf":[
                {"type":"object","properties":{"k":{"const":a},"v":schema.clone()},"required":["v"]},
                {"type":"object","properties":{"k":{"const":b},"v":schema},"required":["v"]}]});
        }
        let mut call = serde_json::json!(1);
        for _ in 0..5 {
            call = serde_json::json!({"k":"x","v":call});
        }
        let s = crate::args::ArgsSchema::new(&schema).unwrap();
        let r = s.check(&call, crate::args::Coercions::NONE);
        assert_eq!(r.problems.len(), 1, "{:#?}", r.problems);
        assert_eq!(r.problems[0].keyword, "anyOf");
        assert!(
            r.problems[0].message.len() < 1200,
            "{}",
            r.problems[0].message
        );
    }

    #[test]
    fn definition_names_in_words() {
        assert_eq!(in_words("ImageBlock"), "image block");
        assert_eq!(in_words("image_block"), "image block");
        assert_eq!(in_words("text-content"), "text content");
        assert_eq!(in_words("URL"), "URL");
        assert_eq!(in_words("A"), "A");
        assert_eq!(in_words("Point3d"), "point3d");
    }
}
