//! `toolwire args`: tool-call arguments checked against the tool's *declared* schema.
//!
//! Every keyword is validated by the `jsonschema` crate (draft from `$schema`, else 2020-12;
//! `format` is asserted, not just annotated). The messages are ours: each [`Problem`] names the
//! JSON Pointer (RFC 6901) into the arguments, the keyword and what was expected, and
//! [`ArgsReport::retry_message`] puts every problem into one text a model can act on in a
//! single retry.
//!
//! Two normalisations happen before problems are reported:
//! - an optional argument sent as `null` counts as absent (strict wire forms make optional
//!   arguments nullable, so models send `null` for "not given"); a `null` the schema itself
//!   accepts is kept, and a `null` for a required argument stays a problem;
//! - opt-in [`Coercions`]: JSON text → array/object, boolean words → boolean, numeric text →
//!   number, each only where the schema declares that type at that place and does not accept a
//!   string there. Every coercion is reported.

use std::borrow::Cow;
use std::collections::HashSet;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError, Validator};
use serde::Serialize;
use serde_json::Value;

use crate::describe::type_label;
use crate::json::{Limits, push_token};

/// Which text-to-value coercions are allowed. All off by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Coercions {
    /// A string holding JSON text becomes the array or object it encodes.
    pub json_text: bool,
    /// "true"/"false"/"yes"/"no"/"on"/"off" (any case), "1"/"0" become a boolean.
    pub boolean_text: bool,
    /// Numeric text ("42", " 2.5 ", "1e3") becomes a number (an integer where one is declared
    /// and the value is integral).
    pub numeric_text: bool,
}

impl Coercions {
    /// No coercion.
    pub const NONE: Coercions = Coercions {
        json_text: false,
        boolean_text: false,
        numeric_text: false,
    };
    /// Every coercion.
    pub const ALL: Coercions = Coercions {
        json_text: true,
        boolean_text: true,
        numeric_text: true,
    };

    /// True when at least one coercion is on.
    pub fn any(self) -> bool {
        self.json_text || self.boolean_text || self.numeric_text
    }
}

/// The kind of one coercion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoercionKind {
    JsonText,
    BooleanText,
    NumericText,
}

/// One coercion applied to the arguments.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Coercion {
    /// JSON Pointer into the arguments.
    pub pointer: String,
    pub kind: CoercionKind,
    /// The text that was sent.
    pub from: String,
    /// The value it became.
    pub to: Value,
}

/// One way the arguments fail the schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// JSON Pointer into the arguments: the offending value, or for a missing or undeclared
    /// argument the place it would be.
    pub pointer: String,
    /// The schema keyword that failed (`type`, `required`, `enum`, ... ; `false` for a
    /// `false` schema).
    pub keyword: String,
    /// What the schema expects there, in words ("a string", "at least 1", ...).
    pub expected: String,
    /// The whole problem in one sentence.
    pub message: String,
}

/// The result of checking one call's arguments.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArgsReport<'a> {
    /// The arguments after normalisation: optional `null`s removed, coercions applied. The
    /// input itself when nothing changed.
    pub arguments: Cow<'a, Value>,
    /// Every problem, in the validator's order (the same for the same schema and call).
    /// Empty when valid.
    pub problems: Vec<Problem>,
    /// Every coercion applied.
    pub coercions: Vec<Coercion>,
    /// Pointers of optional arguments sent as `null` and treated as absent.
    pub absent_nulls: Vec<String>,
}

impl ArgsReport<'_> {
    /// True when the (normalised) arguments satisfy the schema.
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }

    /// One message listing every problem, written for the model that made the call so it can
    /// fix all of them in a single retry. `tool` names the tool when known. Empty when valid.
    pub fn retry_message(&self, tool: Option<&str>) -> String {
        if self.problems.is_empty() {
            return String::new();
        }
        let whose = tool.map_or_else(|| "the tool".to_string(), |t| format!("`{t}`"));
        let n = self.problems.len();
        let mut out = format!(
            "The arguments for {whose} do not match its schema ({n} problem{}). Fix every one and call it again:",
            if n == 1 { "" } else { "s" }
        );
        for (i, p) in self.problems.iter().enumerate() {
            out.push_str(&format!("\n{}. {}", i + 1, p.message));
        }
        out
    }
}

/// A problem with the schema itself (it does not compile as JSON Schema).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    /// JSON Pointer into the schema.
    pub pointer: String,
    pub message: String,
}

/// A compiled declared schema, ready to check many calls.
pub struct ArgsSchema {
    declared: Value,
    validator: Validator,
}

impl std::fmt::Debug for ArgsSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArgsSchema")
            .field("declared", &self.declared)
            .finish_non_exhaustive()
    }
}

/// Upper bound on normalisation rounds; each round removes a `null` or coerces a string, so
/// real calls need a handful.
const MAX_ROUNDS: usize = 64;

impl ArgsSchema {
    /// Compiles `schema`. Remote `$ref`s are not fetched (the crate is built without HTTP or
    /// file resolution), so they are an error here.
    pub fn new(schema: &Value) -> Result<Self, SchemaProblem> {
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(schema)
            .map_err(|e| SchemaProblem {
                pointer: e.instance_path().as_str().to_string(),
                message: e.to_string(),
            })?;
        Ok(ArgsSchema {
            declared: schema.clone(),
            validator,
        })
    }

    /// The declared schema.
    pub fn schema(&self) -> &Value {
        &self.declared
    }

    /// The compiled validator (for comparisons and benchmarks).
    pub fn validator(&self) -> &Validator {
        &self.validator
    }

    /// Checks `arguments`, reporting every problem at once.
    pub fn check<'a>(&self, arguments: &'a Value, coerce: Coercions) -> ArgsReport<'a> {
        if self.validator.is_valid(arguments) {
            return ArgsReport {
                arguments: Cow::Borrowed(arguments),
                problems: Vec::new(),
                coercions: Vec::new(),
                absent_nulls: Vec::new(),
            };
        }
        // Most invalid calls have nothing to normalise: report straight from one pass.
        let mut problems = Vec::new();
        let mut normalise = false;
        for e in self.validator.iter_errors(arguments) {
            if normalisable(&e, coerce) {
                normalise = true;
                break;
            }
            problems.extend(problems_for(&e, &self.declared));
        }
        if !normalise {
            return ArgsReport {
                arguments: Cow::Borrowed(arguments),
                problems,
                coercions: Vec::new(),
                absent_nulls: Vec::new(),
            };
        }
        let mut args = arguments.clone();
        let mut coercions = Vec::new();
        let mut absent_nulls = Vec::new();
        let mut required_nulls: HashSet<String> = HashSet::new();
        for _ in 0..MAX_ROUNDS {
            let plan = self.plan(&args, coerce, &required_nulls);
            if plan.nulls.is_empty() && plan.coercions.is_empty() {
                break;
            }
            for (pointer, value, kind, from) in plan.coercions {
                if let Some(slot) = args.pointer_mut(&pointer) {
                    *slot = value.clone();
                    coercions.push(Coercion {
                        pointer,
                        kind,
                        from,
                        to: value,
                    });
                }
            }
            // A null is dropped only when dropping it does not make a `required` fail.
            for pointer in plan.nulls {
                let Some((parent, name)) = split_last(&pointer) else {
                    continue;
                };
                let Some(obj) = args.pointer_mut(&parent).and_then(Value::as_object_mut) else {
                    continue;
                };
                let Some(index) = obj.keys().position(|k| *k == name) else {
                    continue;
                };
                let Some(removed) = obj.shift_remove(&name) else {
                    continue;
                };
                let now_missing = self.validator.iter_errors(&args).any(|e| {
                    e.instance_path().as_str() == parent
                        && matches!(e.kind(), ValidationErrorKind::Required { property }
                            if property.as_str() == Some(name.as_str()))
                });
                if now_missing {
                    if let Some(obj) = args.pointer_mut(&parent).and_then(Value::as_object_mut) {
                        obj.shift_insert(index, name, removed);
                    }
                    required_nulls.insert(pointer);
                } else {
                    absent_nulls.push(pointer);
                }
            }
        }
        let problems = self
            .validator
            .iter_errors(&args)
            .flat_map(|e| problems_for(&e, &self.declared))
            .collect();
        ArgsReport {
            arguments: Cow::Owned(args),
            problems,
            coercions,
            absent_nulls,
        }
    }

    /// Finds the nulls that may be optional arguments and the strings that may be coerced.
    fn plan(&self, args: &Value, coerce: Coercions, required_nulls: &HashSet<String>) -> Plan {
        let mut plan = Plan::default();
        let mut seen = HashSet::new();
        for e in self.validator.iter_errors(args) {
            let pointer = e.instance_path().as_str().to_string();
            if !seen.insert((pointer.clone(), e.kind().keyword().to_string())) {
                continue;
            }
            match e.instance().as_ref() {
                Value::Null
                    if !required_nulls.contains(&pointer)
                        && !plan.nulls.contains(&pointer)
                        && split_last(&pointer).is_some_and(|(parent, _)| {
                            args.pointer(&parent).is_some_and(Value::is_object)
                        }) =>
                {
                    plan.nulls.push(pointer);
                }
                Value::String(text) if coerce.any() => {
                    let declared = declared_types(&e);
                    if declared.contains(JsonType::String) {
                        continue;
                    }
                    if let Some((to, kind)) = coerce_text(text, declared, coerce)
                        && !plan.coercions.iter().any(|c| c.0 == pointer)
                    {
                        plan.coercions.push((pointer, to, kind, text.clone()));
                    }
                }
                _ => {}
            }
        }
        plan
    }
}

#[derive(Default)]
struct Plan {
    nulls: Vec<String>,
    coercions: Vec<(String, Value, CoercionKind, String)>,
}

/// Checks `arguments` against `schema` in one go (compiles the schema each time; use
/// [`ArgsSchema`] for many calls).
pub fn check_arguments(
    schema: &Value,
    arguments: &Value,
    coerce: Coercions,
) -> Result<ArgsReport<'static>, SchemaProblem> {
    let compiled = ArgsSchema::new(schema)?;
    let report = compiled.check(arguments, coerce);
    Ok(ArgsReport {
        arguments: Cow::Owned(report.arguments.into_owned()),
        problems: report.problems,
        coercions: report.coercions,
        absent_nulls: report.absent_nulls,
    })
}

/// Reads tool-call arguments as models send them: a JSON object, or (OpenAI's form) a JSON
/// string whose text is the object. Errors name the place in `text`.
pub fn parse_arguments(text: &str) -> Result<Value, String> {
    parse_arguments_from(std::path::Path::new("arguments"), text).map_err(|e| e.to_string())
}

/// [`parse_arguments`] for text read from `file`: errors name the file and the place.
pub fn parse_arguments_from(file: &std::path::Path, text: &str) -> crate::Result<Value> {
    let limits = Limits::default();
    let value = crate::json::parse_str(file, text, limits, 0)?;
    match value {
        Value::String(inner) if inner.trim_start().starts_with('{') => {
            crate::json::parse_str(file, &inner, limits, 0)
        }
        v => Ok(v),
    }
}

fn split_last(pointer: &str) -> Option<(String, String)> {
    let i = pointer.rfind('/')?;
    let token = pointer[i + 1..].replace("~1", "/").replace("~0", "~");
    Some((pointer[..i].to_string(), token))
}

/// The JSON types the schema declares at the error's place: from a `type` error, or from the
/// `type` errors of the branches of an `anyOf`/`oneOf` that failed at the same place.
fn declared_types(e: &ValidationError<'_>) -> jsonschema::JsonTypeSet {
    let mut set = jsonschema::JsonTypeSet::empty();
    let here = e.instance_path().as_str();
    let mut add = |kind: &TypeKind| match kind {
        TypeKind::Single(t) => set = set.insert(*t),
        TypeKind::Multiple(ts) => {
            for t in ts.iter() {
                set = set.insert(t);
            }
        }
    };
    match e.kind() {
        ValidationErrorKind::Type { kind } => add(kind),
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            for branch in context {
                for be in branch {
                    if be.instance_path().as_str() == here
                        && let ValidationErrorKind::Type { kind } = be.kind()
                    {
                        add(kind);
                    }
                }
            }
        }
        _ => {}
    }
    set
}

/// Coerces `text` to one of the declared types, trying JSON text, then numbers, then boolean
/// words ("1"/"0" read as numbers where a number is declared).
fn coerce_text(
    text: &str,
    declared: jsonschema::JsonTypeSet,
    coerce: Coercions,
) -> Option<(Value, CoercionKind)> {
    let t = text.trim();
    if coerce.json_text
        && (declared.contains(JsonType::Array) || declared.contains(JsonType::Object))
        && (t.starts_with('[') || t.starts_with('{'))
        && let Ok(v) =
            crate::json::parse_str(std::path::Path::new("argument"), t, Limits::default(), 0)
        && ((v.is_array() && declared.contains(JsonType::Array))
            || (v.is_object() && declared.contains(JsonType::Object)))
    {
        return Some((v, CoercionKind::JsonText));
    }
    if coerce.numeric_text
        && (declared.contains(JsonType::Number) || declared.contains(JsonType::Integer))
        && let Some(n) = parse_number(t, declared)
    {
        return Some((n, CoercionKind::NumericText));
    }
    if coerce.boolean_text && declared.contains(JsonType::Boolean) {
        let b = match t.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Some(true),
            "false" | "no" | "off" | "0" => Some(false),
            _ => None,
        };
        if let Some(b) = b {
            return Some((Value::Bool(b), CoercionKind::BooleanText));
        }
    }
    None
}

fn parse_number(t: &str, declared: jsonschema::JsonTypeSet) -> Option<Value> {
    // Only plain JSON number syntax: no "NaN", "0x10", "+1" or empty text.
    let n: serde_json::Number = serde_json::from_str(t).ok()?;
    if declared.contains(JsonType::Number) {
        return Some(Value::Number(n));
    }
    if n.is_i64() || n.is_u64() {
        return Some(Value::Number(n));
    }
    let f = n.as_f64()?;
    if f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15 {
        return Some(Value::from(f as i64));
    }
    None
}

/// Our problem(s) for one crate error. `required` and `additionalProperties` errors name one
/// argument each, so one error can give several problems.
fn problems_for(e: &ValidationError<'_>, schema: &Value) -> Vec<Problem> {
    let at = e.instance_path().as_str();
    let found = || short_value(e.instance());
    let keyword_owner = || parent_schema(schema, e.schema_path().as_str());
    let one = |keyword: &str, expected: String, what: String| Problem {
        pointer: at.to_string(),
        keyword: keyword.to_string(),
        message: format!("{}: {what}; expected {expected}.", place(at)),
        expected,
    };
    match e.kind() {
        ValidationErrorKind::Required { property } => {
            let name = property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_string);
            let pointer = push_token(at, &name);
            let expected = keyword_owner()
                .and_then(|s| s.get("properties"))
                .and_then(|p| p.get(&name))
                .map_or_else(|| "a value".to_string(), expected_for);
            vec![Problem {
                message: format!(
                    "{}: required argument is missing; expected {expected}.",
                    place(&pointer)
                ),
                pointer,
                keyword: "required".into(),
                expected,
            }]
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            let declared: Vec<String> = keyword_owner()
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object)
                .map(|p| p.keys().map(|k| format!("`{k}`")).collect())
                .unwrap_or_default();
            let expected = if declared.is_empty() {
                "no other arguments here".to_string()
            } else {
                format!("only the declared arguments {}", list(&declared, 12))
            };
            unexpected
                .iter()
                .map(|name| {
                    let pointer = push_token(at, name);
                    Problem {
                        message: format!(
                            "{}: `{name}` is not a declared argument; leave it out (expected {expected}).",
                            place(&pointer)
                        ),
                        pointer,
                        keyword: e.kind().keyword().to_string(),
                        expected: expected.clone(),
                    }
                })
                .collect()
        }
        ValidationErrorKind::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(t) => with_article(t.as_str()),
                TypeKind::Multiple(ts) => {
                    let names: Vec<String> = ts.iter().map(|t| with_article(t.as_str())).collect();
                    names.join(" or ")
                }
            };
            vec![one(
                "type",
                expected,
                format!("{} is {}", found(), kind_of(e.instance())),
            )]
        }
        ValidationErrorKind::Enum { options } => {
            let opts: Vec<String> = options
                .as_array()
                .map(|a| a.iter().map(short_value).collect())
                .unwrap_or_default();
            vec![one(
                "enum",
                format!("one of {}", list(&opts, 10)),
                format!("{} is not an allowed value", found()),
            )]
        }
        ValidationErrorKind::Constant { expected_value } => vec![one(
            "const",
            format!("exactly {}", short_value(expected_value)),
            format!("{} is not the one allowed value", found()),
        )],
        ValidationErrorKind::Minimum { limit } => {
            vec![one(
                "minimum",
                format!("at least {limit}"),
                format!("{} is too small", found()),
            )]
        }
        ValidationErrorKind::Maximum { limit } => {
            vec![one(
                "maximum",
                format!("at most {limit}"),
                format!("{} is too large", found()),
            )]
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => vec![one(
            "exclusiveMinimum",
            format!("more than {limit}"),
            format!("{} is too small", found()),
        )],
        ValidationErrorKind::ExclusiveMaximum { limit } => vec![one(
            "exclusiveMaximum",
            format!("less than {limit}"),
            format!("{} is too large", found()),
        )],
        ValidationErrorKind::MultipleOf { multiple_of } => vec![one(
            "multipleOf",
            format!("a multiple of {multiple_of}"),
            format!("{} is not a multiple of {multiple_of}", found()),
        )],
        ValidationErrorKind::MinLength { limit } => vec![one(
            "minLength",
            format!("at least {limit} character{}", plural(*limit)),
            format!("{} is too short", found()),
        )],
        ValidationErrorKind::MaxLength { limit } => vec![one(
            "maxLength",
            format!("at most {limit} character{}", plural(*limit)),
            format!("{} is too long", found()),
        )],
        ValidationErrorKind::MinItems { limit } => vec![one(
            "minItems",
            format!("at least {limit} item{}", plural(*limit)),
            "the list is too short".into(),
        )],
        ValidationErrorKind::MaxItems { limit } => vec![one(
            "maxItems",
            format!("at most {limit} item{}", plural(*limit)),
            "the list is too long".into(),
        )],
        ValidationErrorKind::MinProperties { limit } => vec![one(
            "minProperties",
            format!("at least {limit} member{}", plural(*limit)),
            "the object has too few members".into(),
        )],
        ValidationErrorKind::MaxProperties { limit } => vec![one(
            "maxProperties",
            format!("at most {limit} member{}", plural(*limit)),
            "the object has too many members".into(),
        )],
        ValidationErrorKind::Pattern { pattern } => vec![one(
            "pattern",
            format!("text matching the regular expression `{pattern}`"),
            format!("{} does not match", found()),
        )],
        ValidationErrorKind::Format { format } => vec![one(
            "format",
            format!("a valid {format}"),
            format!("{} is not a valid {format}", found()),
        )],
        ValidationErrorKind::UniqueItems => vec![one(
            "uniqueItems",
            "items that are all different".into(),
            "the list repeats an item".into(),
        )],
        ValidationErrorKind::Contains => {
            let what = keyword_owner()
                .and_then(|s| s.get("contains"))
                .map_or_else(|| "a matching item".into(), expected_for);
            vec![one(
                "contains",
                format!("at least one item that is {what}"),
                "no item matches".into(),
            )]
        }
        ValidationErrorKind::FalseSchema => vec![one(
            "false",
            "no value here".into(),
            "this argument is not allowed; leave it out".into(),
        )],
        ValidationErrorKind::Not { .. } => vec![one(
            "not",
            "a value the schema's `not` does not match".into(),
            format!("{} is excluded", found()),
        )],
        ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
            let kw = e.kind().keyword();
            let branches = keyword_owner()
                .and_then(|s| s.get(kw))
                .and_then(Value::as_array)
                .map(|bs| {
                    let mut seen: Vec<String> = Vec::new();
                    for b in bs {
                        let d = expected_for(b);
                        if !seen.contains(&d) {
                            seen.push(d);
                        }
                    }
                    seen
                })
                .unwrap_or_default();
            let expected = if branches.is_empty() {
                format!("a value matching one of the `{kw}` alternatives")
            } else {
                format!("one of: {}", branches.join("; "))
            };
            vec![one(
                kw,
                expected,
                format!("{} matches none of the alternatives", found()),
            )]
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => vec![one(
            "oneOf",
            "a value matching exactly one alternative".into(),
            format!("{} matches more than one alternative", found()),
        )],
        ValidationErrorKind::PropertyNames { error } => vec![one(
            "propertyNames",
            "member names the schema's `propertyNames` allows".into(),
            format!(
                "the member name {} is not allowed",
                short_value(error.instance())
            ),
        )],
        ValidationErrorKind::UnevaluatedItems { .. }
        | ValidationErrorKind::AdditionalItems { .. } => {
            vec![one(
                e.kind().keyword(),
                "no items beyond the declared ones".into(),
                "the list has extra items".into(),
            )]
        }
        other => {
            let kw = other.keyword().to_string();
            vec![one(
                &kw,
                format!("a value satisfying `{kw}`"),
                format!("{} fails `{kw}`", found()),
            )]
        }
    }
}

/// The schema object that holds the keyword at `schema_path` (the path minus its last step).
fn parent_schema<'s>(schema: &'s Value, schema_path: &str) -> Option<&'s Value> {
    let (parent, _) = schema_path.rsplit_once('/')?;
    resolve_pointer(schema, parent)
}

/// `Value::pointer` without allocating for tokens that need no unescaping.
fn resolve_pointer<'s>(root: &'s Value, pointer: &str) -> Option<&'s Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    let mut node = root;
    for raw in pointer.strip_prefix('/')?.split('/') {
        let token: Cow<'_, str> = if raw.contains('~') {
            Cow::Owned(raw.replace("~1", "/").replace("~0", "~"))
        } else {
            Cow::Borrowed(raw)
        };
        node = match node {
            Value::Object(o) => o.get(token.as_ref())?,
            Value::Array(a) => a.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(node)
}

fn place(pointer: &str) -> String {
    if pointer.is_empty() {
        "(the arguments object)".to_string()
    } else {
        pointer.to_string()
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn list(items: &[String], max: usize) -> String {
    let mut out = items
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > max {
        out.push_str(&format!(" and {} more", items.len() - max));
    }
    out
}

/// "a string", "an integer", "an object"...
fn with_article(name: &str) -> String {
    match name {
        "null" => "null".into(),
        n if n.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {n}"),
        n => format!("a {n}"),
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// What a subschema expects, in a few words.
fn expected_for(schema: &Value) -> String {
    if let Some(c) = schema.get("const") {
        return format!("exactly {}", short_value(c));
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array) {
        let opts: Vec<String> = e.iter().map(short_value).collect();
        return format!("one of {}", list(&opts, 6));
    }
    let label = type_label(schema);
    let parts: Vec<String> = label.split(" or ").map(with_article).collect();
    parts.join(" or ")
}

/// A value as JSON, cut to 60 characters.
fn short_value(v: &Value) -> String {
    const MAX: usize = 60;
    /// Stops serialising once the text is long enough to be cut.
    struct Capped(Vec<u8>);
    impl std::io::Write for Capped {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.0.len() > 4 * MAX {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            self.0.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut w = Capped(Vec::with_capacity(64));
    let _ = serde_json::to_writer(&mut w, v);
    let s = String::from_utf8_lossy(&w.0);
    if s.chars().count() <= MAX {
        s.into_owned()
    } else {
        let mut t: String = s.chars().take(MAX - 3).collect();
        t.push_str("...");
        t
    }
}

/// True when the error sits on a value that normalisation may change: a `null` member of an
/// object (maybe an optional argument), or with coercions on, a string where the schema
/// declares another type.
fn normalisable(e: &ValidationError<'_>, coerce: Coercions) -> bool {
    match e.instance().as_ref() {
        Value::Null => e.instance_path().as_str().contains('/'),
        Value::String(_) if coerce.any() => {
            let declared = declared_types(e);
            !declared.contains(JsonType::String) && declared != jsonschema::JsonTypeSet::empty()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn weather() -> Value {
        json!({
            "type":"object",
            "properties":{
                "city":{"type":"string","minLength":1},
                "units":{"type":"string","enum":["metric","imperial"]},
                "days":{"type":"integer","minimum":1,"maximum":14},
                "hourly":{"type":"boolean"},
                "tags":{"type":"array","items":{"type":"string"}},
                "when":{"type":["string","null"],"format":"date"}
            },
            "required":["city","days"],
            "additionalProperties":false
        })
    }

    #[test]
    fn every_problem_at_once_with_pointer_keyword_and_expected() {
        let s = ArgsSchema::new(&weather()).unwrap();
        let args = json!({"units":"kelvin","days":30,"hourly":"yes","extra":1,"tags":["a",2]});
        let r = s.check(&args, Coercions::NONE);
        let got: Vec<(&str, &str, &str)> = r
            .problems
            .iter()
            .map(|p| (p.pointer.as_str(), p.keyword.as_str(), p.expected.as_str()))
            .collect();
        for want in [
            ("/city", "required", "a string"),
            ("/units", "enum", "one of \"metric\", \"imperial\""),
            ("/days", "maximum", "at most 14"),
            ("/hourly", "type", "a boolean"),
            ("/tags/1", "type", "a string"),
        ] {
            assert!(got.contains(&want), "missing {want:?} in {got:?}");
        }
        let extra = r.problems.iter().find(|p| p.pointer == "/extra").unwrap();
        assert_eq!(extra.keyword, "additionalProperties");
        assert!(extra.expected.contains("`city`"), "{}", extra.expected);
        assert_eq!(r.problems.len(), 6, "{:#?}", r.problems);
        let msg = r.retry_message(Some("get_weather"));
        assert!(
            msg.starts_with(
                "The arguments for `get_weather` do not match its schema (6 problems)."
            )
        );
        assert!(
            msg.contains("\n3. /days: 30 is too large; expected at most 14."),
            "{msg}"
        );
    }

    #[test]
    fn valid_arguments_are_borrowed_unchanged() {
        let s = ArgsSchema::new(&weather()).unwrap();
        let args = json!({"city":"Paris","days":3,"when":null});
        let r = s.check(&args, Coercions::ALL);
        assert!(r.is_valid());
        assert!(matches!(r.arguments, Cow::Borrowed(_)));
        assert_eq!(r.retry_message(None), "");
    }

    #[test]
    fn null_for_an_optional_argument_is_absent_and_for_a_required_one_a_problem() {
        let s = ArgsSchema::new(&weather()).unwrap();
        let args = json!({"city":null,"days":2,"units":null,"hourly":null});
        let r = s.check(&args, Coercions::NONE);
        assert_eq!(r.absent_nulls, ["/units", "/hourly"]);
        assert_eq!(r.arguments.as_ref(), &json!({"city":null,"days":2}));
        assert_eq!(r.problems.len(), 1, "{:#?}", r.problems);
        assert_eq!(r.problems[0].pointer, "/city");
        assert_eq!(r.problems[0].keyword, "type");
        assert_eq!(
            r.problems[0].message,
            "/city: null is null; expected a string."
        );
    }

    #[test]
    fn null_inside_an_array_is_not_treated_as_absent() {
        let s = ArgsSchema::new(&weather()).unwrap();
        let args = json!({"city":"a","days":1,"tags":[null]});
        let r = s.check(&args, Coercions::NONE);
        assert!(r.absent_nulls.is_empty());
        assert_eq!(r.problems[0].pointer, "/tags/0");
    }

    #[test]
    fn coercions_apply_only_where_declared_and_are_reported() {
        let s = ArgsSchema::new(&weather()).unwrap();
        let args = json!({"city":"42","days":"7","hourly":"On","tags":"[\"x\",\"y\"]"});
        let none = s.check(&args, Coercions::NONE);
        assert_eq!(none.problems.len(), 3);
        let r = s.check(&args, Coercions::ALL);
        assert!(r.is_valid(), "{:#?}", r.problems);
        assert_eq!(
            r.arguments.as_ref(),
            &json!({"city":"42","days":7,"hourly":true,"tags":["x","y"]})
        );
        let kinds: Vec<(&str, CoercionKind)> = r
            .coercions
            .iter()
            .map(|c| (c.pointer.as_str(), c.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                ("/days", CoercionKind::NumericText),
                ("/hourly", CoercionKind::BooleanText),
                ("/tags", CoercionKind::JsonText)
            ]
        );
        // Only the enabled coercion runs.
        let only_bool = s.check(
            &args,
            Coercions {
                boolean_text: true,
                ..Coercions::NONE
            },
        );
        assert_eq!(only_bool.coercions.len(), 1);
        assert_eq!(only_bool.problems.len(), 2);
    }

    #[test]
    fn coercion_that_does_not_fit_is_not_applied() {
        let s = ArgsSchema::new(&weather()).unwrap();
        let args = json!({"city":"x","days":"2.5","hourly":"maybe","tags":"{\"a\":1}"});
        let r = s.check(&args, Coercions::ALL);
        assert!(r.coercions.is_empty(), "{:#?}", r.coercions);
        assert_eq!(r.problems.len(), 3);
    }

    #[test]
    fn coercion_inside_anyof_uses_the_branch_types() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "n":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}))
        .unwrap();
        let args = json!({"n":"12"});
        let r = s.check(&args, Coercions::ALL);
        assert!(r.is_valid(), "{:#?}", r.problems);
        assert_eq!(r.arguments.as_ref(), &json!({"n":12}));
    }

    #[test]
    fn refs_and_formats_are_validated() {
        let s = ArgsSchema::new(&json!({
            "type":"object",
            "properties":{"p":{"$ref":"#/$defs/P"},"at":{"type":"string","format":"date-time"}},
            "$defs":{"P":{"type":"object","properties":{"q":{"type":"integer"}},"required":["q"]}}
        }))
        .unwrap();
        let args = json!({"p":{},"at":"yesterday"});
        let r = s.check(&args, Coercions::NONE);
        let got: Vec<(&str, &str, &str)> = r
            .problems
            .iter()
            .map(|p| (p.pointer.as_str(), p.keyword.as_str(), p.expected.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("/p/q", "required", "an integer"),
                ("/at", "format", "a valid date-time")
            ]
        );
    }

    #[test]
    fn anyof_failure_lists_the_alternatives() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "mode":{"anyOf":[{"const":"fast"},{"type":"integer"}]}}}))
        .unwrap();
        let args = json!({"mode":"slow"});
        let r = s.check(&args, Coercions::NONE);
        assert_eq!(r.problems.len(), 1);
        assert_eq!(
            r.problems[0].expected,
            "one of: exactly \"fast\"; an integer"
        );
    }

    #[test]
    fn property_named_like_a_keyword_is_an_argument() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "type":{"type":"string"},"required":{"type":"boolean"}},"required":["type"]}))
        .unwrap();
        let args = json!({"required":"no"});
        let r = s.check(&args, Coercions::NONE);
        let ptrs: Vec<&str> = r.problems.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(ptrs, ["/type", "/required"]);
    }

    #[test]
    fn pointer_tokens_are_escaped() {
        let s = ArgsSchema::new(
            &json!({"type":"object","properties":{"a/b":{"type":"string"}},
            "required":["a/b"],"additionalProperties":false}),
        )
        .unwrap();
        let args = json!({"c~d":1});
        let r = s.check(&args, Coercions::NONE);
        let mut ptrs: Vec<&str> = r.problems.iter().map(|p| p.pointer.as_str()).collect();
        ptrs.sort_unstable();
        assert_eq!(ptrs, ["/a~1b", "/c~0d"]);
    }

    #[test]
    fn invalid_schema_is_a_schema_problem_with_a_pointer() {
        let err = ArgsSchema::new(&json!({"type":"object","properties":{"a":{"type":"dict"}}}))
            .unwrap_err();
        assert_eq!(err.pointer, "/properties/a/type");
    }

    #[test]
    fn arguments_as_a_json_string_are_unwrapped() {
        assert_eq!(parse_arguments(r#""{\"a\":1}""#).unwrap(), json!({"a":1}));
        assert_eq!(parse_arguments(r#"{"a":1}"#).unwrap(), json!({"a":1}));
        assert!(parse_arguments("{").unwrap_err().contains("line 1"));
    }
}
