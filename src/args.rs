//! `toolwire args`: tool-call arguments checked against the tool's *declared* schema.
//!
//! Every keyword is validated by the `jsonschema` crate (draft from `$schema`, else 2020-12;
//! `format` is asserted, not just annotated, a later draft's format too). The messages are ours: each [`Problem`] names the
//! JSON Pointer (RFC 6901) into the arguments, the keyword and what was expected, and
//! [`ArgsReport::retry_message`] puts every problem into one text a model can act on in a
//! single retry.
//!
//! Two normalisations happen before problems are reported:
//! - an optional argument sent as `null` counts as absent (strict wire forms make optional
//!   arguments nullable, so models send `null` for "not given"); a `null` the schema itself
//!   accepts is kept, and a `null` for a required argument stays a problem. Inside an
//!   `anyOf`/`oneOf` a member of an object is read so under each branch on its own, as
//!   coercion is (see `branches`);
//! - opt-in [`Coercions`]: JSON text → array/object, boolean words → boolean, numeric text →
//!   number, each only where the schema declares that type at that place and does not accept a
//!   string there. Inside an `anyOf`/`oneOf` each branch is tried on its own, and a coercion is
//!   made only when the branches it satisfies agree on the value, or, none being satisfied,
//!   when the branches whose problems are reported all make it (see `branches`). Every
//!   coercion is reported.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError, Validator};
use serde::Serialize;
use serde_json::Value;

use crate::describe::type_label;
use crate::json::Limits;

mod branches;
mod compat;
mod contains;
mod digits;
pub mod envelope;
mod lookalike;
mod members;
pub use compat::{ANY_VALUE, DoubleString, Int64String, TypeSpelling, UncheckedPattern};
pub(crate) use compat::{
    accept_null, is_double_bound, is_int64_count, json_number_text, number_string_of, numbers_read,
    spells_same_number,
};
use members::Given;
mod resources;
mod unchecked;
mod undecided;
mod unevaluated;
mod unions;

/// Which text-to-value coercions are allowed. All off by default.
///
/// Each applies only where the schema declares the type it makes and accepts no string. In an
/// `anyOf`/`oneOf` the value is coerced under each branch on its own and the result kept only
/// when the branches it satisfies agree on it: choosing between branches that read the text
/// differently would be a guess, so that is a problem saying so. When no branch is satisfied,
/// the coercions every branch whose problems are reported makes alike are kept, as text is
/// coerced outside a union while other problems remain.
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
    /// [`Coercions::json_text`].
    JsonText,
    /// [`Coercions::boolean_text`].
    BooleanText,
    /// [`Coercions::numeric_text`].
    NumericText,
}

/// One coercion applied to the arguments.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Coercion {
    /// JSON Pointer into the arguments.
    pub pointer: String,
    /// Which coercion.
    pub kind: CoercionKind,
    /// The text that was sent.
    pub from: String,
    /// The value it became.
    pub to: Value,
}

impl Coercion {
    /// The text sent, quoted for a message, when it is numeric text past 60 characters: as a
    /// long number is named ([`crate::json::shown_number`]), in quotes
    /// (`"0.1111111111111111111111...111111111111 (1000001 digits)"`). `None` for other text,
    /// quoted as any string is. Quoted whole, a million digits sent as text made a megabyte
    /// note (trial 58 D5); `from` keeps it whole.
    pub fn long_numeric_text(&self) -> Option<String> {
        let text = self.from.trim();
        (self.kind == CoercionKind::NumericText && text.len() > 60)
            .then(|| format!("\"{}\"", crate::json::shown_number(text)))
    }

    /// The number of numeric text read as another value ([`crate::json::inexact_numbers`]),
    /// at the coercion's place with `written` the text sent: listed, and noted, as the same
    /// number sent as a JSON number is (trial 58 D16). `None` for other coercions and for
    /// text read exactly.
    pub fn inexact(&self) -> Option<crate::json::InexactNumberAt> {
        if self.kind != CoercionKind::NumericText {
            return None;
        }
        let n = crate::json::inexact_numbers(self.from.trim())
            .into_iter()
            .next()?;
        Some(crate::json::InexactNumberAt {
            line: None,
            pointer: self.pointer.clone(),
            written: n.written.to_string(),
            read_as: n.read_as,
        })
    }
}

/// One way the arguments fail the schema.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// JSON Pointer into the arguments: the offending value, or for a missing or undeclared
    /// argument the place it would be.
    pub pointer: String,
    /// The schema keyword that failed (`type`, `required`, `enum`, ... ; `false` for a
    /// `false` schema); for arguments that could not be read, `json` (not JSON) or
    /// `number-range` (a number past a 64-bit float's range).
    pub keyword: Cow<'static, str>,
    /// What the schema expects there, in words ("a string", "at least 1", ...).
    pub expected: Cow<'static, str>,
    /// The whole problem in one sentence, for the model and for people: a long place is
    /// shortened ([`crate::report::short_pointer`]); [`Problem::message_whole`] keeps it whole.
    pub message: String,
}

impl Problem {
    /// [`Problem::message`] naming the problem's place whole ([`Problem::pointer`]), for
    /// output read by programs (`args --format json`), which need the exact place. Places
    /// inside it (those of an `anyOf` alternative's problems) stay as the message has them.
    /// The arguments' root is named in words, "(the arguments object)", in both: its pointer
    /// is empty, and put in the words' place it left the message "1. : [1,2] is an array"
    /// (trial 64 D2).
    pub fn message_whole(&self) -> Cow<'_, str> {
        let shown = place(&self.pointer);
        if *shown == *self.pointer || self.pointer.is_empty() {
            return Cow::Borrowed(&self.message);
        }
        let shown = crate::report::escape_inline(&shown);
        match self
            .message
            .strip_prefix(shown.as_ref())
            .and_then(|rest| rest.strip_prefix(": "))
        {
            Some(rest) => Cow::Owned(format!(
                "{}: {rest}",
                crate::report::escape_inline(&self.pointer)
            )),
            None => Cow::Borrowed(&self.message),
        }
    }
}

/// The result of checking one call's arguments; `args --format json` writes its fields.
///
/// `arguments` is always a JSON value a program can forward: the arguments read (after
/// normalisation), or `null` when the call could not be read (not JSON, a number past the
/// float range, nesting too deep, empty). Only then is `arguments_text` there, holding the
/// text as sent: one field of two types (object or string) broke programs that forward it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArgsReport<'a> {
    /// The arguments after normalisation: optional `null`s removed, coercions applied. The
    /// input itself when nothing changed; `null` when the call could not be read.
    pub arguments: Cow<'a, Value>,
    /// The arguments text as sent, when it could not be read (`arguments` is then `null`);
    /// `None` otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments_text: Option<String>,
    /// Every problem, in the validator's order (the same for the same schema and call).
    /// Empty when valid.
    pub problems: Vec<Problem>,
    /// Every coercion applied.
    pub coercions: Vec<Coercion>,
    /// Pointers of optional arguments sent as `null` and treated as absent.
    pub absent_nulls: Vec<String>,
}

impl ArgsReport<'_> {
    /// The report owning its arguments. A copy recurses once per level: arguments refused
    /// for their depth (keyword `depth`) are not copied but `null`.
    pub fn into_static(self) -> ArgsReport<'static> {
        let too_deep = self.problems.first().is_some_and(|p| p.keyword == "depth");
        ArgsReport {
            arguments: Cow::Owned(if too_deep {
                Value::Null
            } else {
                self.arguments.into_owned()
            }),
            arguments_text: self.arguments_text,
            problems: self.problems,
            coercions: self.coercions,
            absent_nulls: self.absent_nulls,
        }
    }

    /// Adds a problem (keyword `number-precision`) for each of `inexact`, the numbers of the
    /// arguments read as another value than sent ([`inexact_numbers`]), that a keyword of
    /// `schema` may judge by the digits the float read does not hold (`maximum`, `enum`; see
    /// `digits`): the check judged the value read, so it cannot vouch for the one sent there,
    /// and an exit code that passed such a call would vouch for what was not checked. Where no
    /// keyword does (`type: integer` alone, for an integer written in full past 2^64), the
    /// verdict is the number sent's as much as the float's, and refusing it asked the model
    /// for another number, which then passed (trial 70 D3).
    pub fn cannot_vouch_for(
        &mut self,
        schema: &ArgsSchema,
        inexact: &[crate::json::InexactNumberAt],
    ) {
        for n in inexact {
            if let Some(by) = schema.judges_digits(&self.arguments, n) {
                self.problems.push(precision_problem(
                    &n.pointer,
                    &n.written,
                    &n.read_as,
                    Some(&by),
                ));
            }
        }
    }

    /// Quotes each number a problem starts with as the model sent it in the arguments text
    /// `text` (as [`parse_arguments`] takes it), not as serde_json reads it: `-0` (read as
    /// `-0.0`), `1e2` (`100.0`), `18446744073709551617` (`1.8446744073709552e+19`). A model told
    /// that the number it sent is another cannot tell what to fix. A long one is quoted
    /// shortened ([`crate::json::shown_number`]), as it is in the `number-precision` problem.
    /// A number read as another value ([`crate::json::inexact_numbers`]) is quoted with the
    /// value judged ([`judged_as`]): what was found is true of that value only.
    pub fn quote_numbers_as_sent(&mut self, text: &str) {
        let Some(object) = object_text(text) else {
            return;
        };
        let inexact: HashSet<String> = crate::json::inexact_numbers(&object)
            .into_iter()
            .map(|n| n.pointer)
            .collect();
        for (pointer, sent) in crate::json::number_tokens(&object) {
            let Ok(read @ Value::Number(_)) = serde_json::from_str::<Value>(sent) else {
                continue;
            };
            let mut shown = crate::report::escape_inline(&place(&pointer)).into_owned();
            shown.push_str(": ");
            let at = shown.len();
            push_short_value(&mut shown, &read);
            if shown[at..] == *sent {
                continue;
            }
            let sent = crate::json::shown_number(sent);
            let exact = !inexact.contains(&pointer);
            for p in self.problems.iter_mut().filter(|p| p.pointer == pointer) {
                if let Some(rest) = p.message.strip_prefix(shown.as_str()) {
                    p.message = if exact || of_its_kind(p) {
                        format!("{}{sent}{rest}", &shown[..at])
                    } else {
                        format!("{}{}", &shown[..at], judged_as(&sent, &shown[at..], rest))
                    };
                }
            }
        }
    }

    /// True when the (normalised) arguments satisfy the schema.
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }

    /// One message listing every problem, written for the model that made the call so it can
    /// fix all of them in a single retry. `tool` names the tool when known. Empty when valid.
    pub fn retry_message(&self, tool: Option<&str>) -> String {
        self.retry_message_within(tool, usize::MAX)
    }

    /// [`ArgsReport::retry_message`] listing at most `max` problems (at least one), then how
    /// many more there are. Every problem is listed otherwise, so arguments with 100,000
    /// wrong members make a message of megabytes, past what a model's context takes back.
    pub fn retry_message_within(&self, tool: Option<&str>, max: usize) -> String {
        self.retry_message_of(tool, max, |p| Cow::Borrowed(&p.message))
    }

    /// [`ArgsReport::retry_message_within`] with each problem's place whole
    /// ([`Problem::message_whole`]), for output read by programs.
    pub fn retry_message_whole(&self, tool: Option<&str>, max: usize) -> String {
        self.retry_message_of(tool, max, Problem::message_whole)
    }

    fn retry_message_of<'p>(
        &'p self,
        tool: Option<&str>,
        max: usize,
        message: impl Fn(&'p Problem) -> Cow<'p, str>,
    ) -> String {
        if self.problems.is_empty() {
            return String::new();
        }
        let n = self.problems.len();
        let listed = &self.problems[..n.min(max.max(1))];
        let size: usize = listed.iter().map(|p| p.message.len() + 6).sum();
        let mut out = String::with_capacity(128 + size);
        out.push_str("The arguments for ");
        match tool {
            Some(t) => {
                out.push('`');
                out.push_str(t);
                out.push('`');
            }
            None => out.push_str("the tool"),
        }
        out.push_str(" do not match its schema (");
        push_u64(&mut out, n as u64);
        out.push_str(if n == 1 { " problem" } else { " problems" });
        out.push_str("). Fix every one and call it again:");
        for (i, p) in listed.iter().enumerate() {
            out.push('\n');
            push_u64(&mut out, i as u64 + 1);
            out.push_str(". ");
            out.push_str(&message(p));
        }
        if listed.len() < n {
            out.push_str("\n... and ");
            push_u64(&mut out, (n - listed.len()) as u64);
            out.push_str(" more, not listed here.");
        }
        out
    }
}

/// A problem with the schema itself (it does not compile as JSON Schema, or nests deeper than
/// [`MAX_DEPTH`]). Displayed as the CLI places it after the schema file's name:
/// `at POINTER: MESSAGE` (`at the document root: MESSAGE` for the empty pointer).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", crate::error::Place::Pointer(.pointer.clone()))]
pub struct SchemaProblem {
    /// JSON Pointer into the schema.
    pub pointer: String,
    /// What is wrong there, in words.
    pub message: String,
}

/// The first regular expression of `schema` (a `pattern`, or a `patternProperties` key)
/// written with a construct ECMA-262 does not have ([`crate::schema::ecma::not_ecma`]), as
/// the problem at it: the engine would read it with its own dialect's meaning (`(?i)^a$`
/// matched the member `A`).
fn foreign_pattern(schema: &Value) -> Option<SchemaProblem> {
    crate::schema::walk(schema).nodes.into_iter().find_map(|n| {
        let map = n.object()?;
        let pattern = map
            .get("pattern")
            .and_then(Value::as_str)
            .and_then(|p| Some((p, crate::schema::ecma::not_ecma(p)?)))
            .map(|(p, why)| (format!("{}/pattern", n.pointer), "pattern", p, why));
        let key = || {
            let members = map.get("patternProperties")?.as_object()?;
            members.keys().find_map(|k| {
                let why = crate::schema::ecma::not_ecma(k)?;
                let at = crate::json::push_token(&format!("{}/patternProperties", n.pointer), k);
                Some((at, "`patternProperties` key", k.as_str(), why))
            })
        };
        let (pointer, what, text, why) = pattern.or_else(key)?;
        Some(SchemaProblem {
            pointer,
            message: format!("the {what} {text:?} is no ECMA-262 regular expression: it {why}"),
        })
    })
}

/// Deepest nesting (brackets counted, as files are: [`crate::json::nesting_exceeds`]) of a
/// declared schema [`ArgsSchema::new`] compiles and of the arguments [`ArgsSchema::check`]
/// checks: the cap files are read with.
pub const MAX_DEPTH: usize = crate::input::LIMITS.max_depth;

/// Most subschemas a declared schema may hold with each `$ref` counted as a copy of its target
/// ([`crate::schema::refs::expanded_size`]). The `jsonschema` crate compiles references
/// eagerly, so a small schema whose definitions reference each other twice over took 6 s and
/// 1.5 GB at 2^20 (measured by a fresh-user trial) and grows fourfold per two levels; at this
/// cap compiling takes well under a second. Real tool schemas expand to a few thousand at most
/// (the largest corpus schema has under 1,000 subschemas).
pub const MAX_EXPANDED: usize = 100_000;

/// Why a schema past [`MAX_EXPANDED`] is refused. A schema that big as written (100,000
/// properties) has no `$ref` to blame, and advice to reference definitions fewer times would
/// send its author looking for what is not there; only when the references multiply it past
/// the cap are they named.
fn too_big(schema: &Value) -> String {
    let cost = "checking arguments against it would take time and memory in proportion";
    let walk = crate::schema::walk(schema);
    if walk.nodes.len() > MAX_EXPANDED {
        format!(
            "the schema has {}{} subschemas as written, more than the {MAX_EXPANDED} `toolwire \
             args` checks calls against: {cost}",
            if walk.truncated { "more than " } else { "" },
            walk.nodes.len()
        )
    } else {
        format!(
            "the schema expands to more than {MAX_EXPANDED} subschemas through its `$ref`s \
             (each reference counts as a copy of its target; {} written): {cost}; reference \
             the definitions fewer times",
            walk.nodes.len()
        )
    }
}

/// Nesting past which the `jsonschema` crate's compile and validation run on a thread of
/// their own with a [`crate::json::DEEP_STACK`] stack. Its recursion costs up to ~14 KB per level in a
/// debug build: on a 2 MiB thread (tokio's worker default), with dependencies unoptimised as
/// an embedder's debug build has them, compiling overflowed past about 150 levels of
/// `unevaluatedProperties`, 215 of `additionalProperties`, 350 of `items` and 400 of `not`
/// (measured by bisection), well short of [`MAX_DEPTH`]; a few dozen levels fit any stack.
const SHALLOW: usize = 32;

/// Runs `f` on the caller's stack, or when `deep` on a thread with a
/// [`crate::json::DEEP_STACK`] stack ([`crate::json::on_deep_stack`]).
fn on_deep_stack<T: Send>(deep: bool, f: impl FnOnce() -> T + Send) -> T {
    if deep {
        crate::json::on_deep_stack(f)
    } else {
        f()
    }
}

/// A compiled declared schema, ready to check many calls.
pub struct ArgsSchema {
    declared: Value,
    /// The declared schema's nesting ([`crate::json::value_depth`]).
    depth: usize,
    /// The copy compiled when the declared schema uses keywords from outside 2020-12
    /// (`nullable`, draft-04's boolean bounds; see `compat`). Same places as `declared`.
    rewritten: Option<Value>,
    validator: Validator,
    /// The other reading of a schema with a `pattern` left unchecked (`unchecked`): `validator`
    /// reads such a pattern as matching every string, this one as matching none
    /// ([`compat::compiled_form_matching_nothing`]). ECMA-262's truth is one or the other at
    /// each place, so only what both refuse is refused ([`ArgsSchema::decided`]). `None` for
    /// the common schema, with no such pattern.
    matching_nothing: Option<Validator>,
    /// The patterns the regex engine may give up on, to list the places it did.
    fancy: undecided::FancyPatterns,
    /// Valid ECMA-262 patterns the engine cannot compile, left out of `validator`.
    unchecked: Vec<UncheckedPattern>,
    /// The schema's numbers as written (`1E-7`, `18446744073709551616`, which serde_json
    /// reads as `1e-7` and `1.8446744073709552e19`), by JSON Pointer into the schema
    /// ([`ArgsSchema::quote_numbers_as_written`]); empty until then.
    written: std::collections::HashMap<String, String>,
    /// Expected-texts made from the schema alone, by the schema path of their keyword.
    expected_memo: std::sync::Mutex<std::collections::HashMap<Box<str>, String>>,
    /// Validators of single `anyOf`/`oneOf` branches, for coercion inside them.
    branches: branches::BranchValidators,
    /// The compiled schema's nested resources, when a subschema below the root declares an
    /// `$id`: the validator's paths are then relative to them ([`ArgsSchema::schema_place`]).
    resources: Option<resources::Resources>,
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

/// Without `$schema` a schema is read as draft 2020-12, where `items` is one schema; draft-07's
/// list form (a tuple) is the usual reason such a schema fails to compile, so say so.
fn draft07_hint(schema: &Value) -> &'static str {
    let tuple = crate::schema::walk(schema).nodes.iter().any(|n| {
        n.object()
            .and_then(|o| o.get("items"))
            .is_some_and(Value::is_array)
    });
    if tuple && schema.get("$schema").is_none() {
        " (`items` as a list is draft-07's tuple form: without `$schema` the schema is read as \
         draft 2020-12; declare \"$schema\": \"http://json-schema.org/draft-07/schema#\" or use \
         `prefixItems`)"
    } else {
        ""
    }
}

impl ArgsSchema {
    /// Compiles `schema`. Remote `$ref`s are not fetched (the crate is built without HTTP or
    /// file resolution), so they are an error here: the problem names the `$ref` by its JSON
    /// Pointer ("remote $ref not followed: URL", "$ref to a missing definition: POINTER").
    /// A `$ref` chain that never reaches a schema (`A → B → A`, or one naming itself) is an
    /// error too ([`crate::schema::reached_broken_ref`]): a validator accepts anything there;
    /// not in a definition nothing refers to, which is never evaluated. Any
    /// other compile failure says "not valid JSON Schema" with the validator's reason.
    ///
    /// OpenAPI's `nullable: true` and draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum`
    /// are checked with their own meaning (null accepted there; the bound exclusive), and a
    /// known non-standard `type` spelling as the type it means ([`ArgsSchema::type_spellings`]),
    /// and a count keyword written as Gemini's int64 string as its integer
    /// ([`ArgsSchema::int64_strings`]), `minimum`/`maximum` written as Gemini's double string
    /// as its number ([`ArgsSchema::double_strings`]), by compiling a rewritten copy whose places are those
    /// of `schema`.
    ///
    /// A schema nesting deeper than [`MAX_DEPTH`] is a problem at the first place past it.
    ///
    /// `schema` is already parsed, so a key its text wrote twice holds the last value (as
    /// serde_json keeps it) and is no longer seen here, nor by [`check_arguments`]: a caller
    /// reading the schema from text finds those keys with [`crate::json::duplicates::locate`]
    /// on that text (what `toolwire args` says of its `--schema` file, `schema_duplicate_keys`
    /// in its JSON), as [`duplicate_keys`] finds the arguments'.
    pub fn new(schema: &Value) -> Result<Self, SchemaProblem> {
        let depth = crate::json::value_depth(schema);
        if depth > MAX_DEPTH {
            return Err(SchemaProblem {
                pointer: crate::json::first_too_deep(schema, MAX_DEPTH).unwrap_or_default(),
                message: crate::json::too_deep_problem(MAX_DEPTH),
            });
        }
        let expanded = crate::schema::refs::expanded_size(schema, MAX_EXPANDED);
        if expanded > MAX_EXPANDED {
            return Err(SchemaProblem {
                pointer: String::new(),
                message: too_big(schema),
            });
        }
        on_deep_stack(depth > SHALLOW, || Self::build(schema, depth))
    }

    fn build(schema: &Value, depth: usize) -> Result<Self, SchemaProblem> {
        // The engine compiles Rust's and PCRE's constructs with their own meaning (`(?i)`
        // turns case off), so a pattern no JavaScript validator accepts would be checked.
        if let Some(problem) = foreign_pattern(schema) {
            return Err(problem);
        }
        let rewritten = compat::compiled_form(schema);
        let checked = rewritten.as_ref().unwrap_or(schema);
        let resources = resources::Resources::of(checked);
        let based = resources.as_ref().is_some_and(|r| r.root().is_some());
        let compile = |checked: &Value| {
            let mut options = with_later_formats(checked, jsonschema::options());
            if based {
                // Without a real base URI the validator gives no absolute keyword locations,
                // the only ones that say which resource a keyword is in.
                options = options.with_base_uri(resources::BASE);
            }
            options.should_validate_formats(true).build(checked)
        };
        let validator = compile(checked).map_err(|e| {
            unresolvable_ref(schema).unwrap_or_else(|| {
                let compiled = e.instance_path().as_str();
                let mut pointer = compat::declared_pointer(schema, compiled).into_owned();
                if pointer.is_empty()
                    && let Some(at) = quoted_reference(checked, &e.to_string())
                {
                    pointer = at;
                }
                // The validator quotes a `patternProperties` key as compiled: name it as
                // the schema writes it.
                let quoted = |p: &str| {
                    let key = p.rsplit('/').next().unwrap_or_default();
                    Value::from(key.replace("~1", "/").replace("~0", "~")).to_string()
                };
                let mut e = e.to_string();
                if pointer != compiled {
                    e = e.replace(&quoted(compiled), &quoted(&pointer));
                }
                // And a `pattern` as compiled: the engine's spelling (`rust_pattern`, such
                // as `(?=)^(?:(a)|b)(?(1)\1|)$` for a backreference) is nowhere in the
                // user's file, and no ECMA-262; quote the schema's own text.
                if let (Some(Value::String(engine)), Some(Value::String(written))) =
                    (checked.pointer(compiled), schema.pointer(&pointer))
                    && engine != written
                {
                    e = e.replace(
                        &Value::from(engine.as_str()).to_string(),
                        &Value::from(written.as_str()).to_string(),
                    );
                }
                // A valid ECMA-262 pattern the engine cannot compile is no fault of the
                // schema's: say what the engine lacks.
                let pattern = schema
                    .pointer(&pointer)
                    .filter(|_| pointer.ends_with("/pattern"));
                let beyond =
                    pattern.and_then(|p| Some((p, crate::schema::ecma::unsupported(p.as_str()?)?)));
                let large = pattern
                    .and_then(Value::as_str)
                    .filter(|p| crate::schema::ecma::too_large(p));
                let message = match (beyond, large) {
                    (Some((pattern, why)), _) => format!("the pattern {pattern} {why}"),
                    (None, Some(pattern)) => format!(
                        "the pattern {:?} is too large for toolwire's regular-expression \
                             engine (it compiles to more than the Rust regex size limit, about \
                             10 MB), so arguments cannot be checked against it; it is not \
                             refused as ECMA-262: write fewer or smaller repetitions",
                        pattern
                    ),
                    // The meta-schema's words for a bad `type` are about its own `anyOf`,
                    // which the user never wrote: name the spelling and the types there are.
                    (None, None) => match crate::schema::no_type_named(
                        schema,
                        &pointer,
                        "; `any`, `dict`, `float` and other known spellings are read as what \
                         they mean",
                    ) {
                        Some(why) => format!("the schema is not valid JSON Schema: {why}"),
                        None => format!(
                            "the schema is not valid JSON Schema: {e}{}",
                            draft07_hint(schema)
                        ),
                    },
                };
                SchemaProblem { pointer, message }
            })
        })?;
        // The validator accepts any value at a `$ref` loop: a schema that says nothing there.
        // And at a loop that never leaves the value, whose verdict JSON Schema leaves undefined.
        // Both only where evaluation can reach: a definition nothing refers to is never run.
        if let Some((pointer, problem)) = crate::schema::reached_broken_ref(schema)
            .or_else(|| undefined_recursive_ref(schema))
            .or_else(|| crate::schema::in_place::ref_loop(schema))
        {
            return Err(SchemaProblem {
                pointer,
                message: problem,
            });
        }
        let fancy = undecided::FancyPatterns::of(rewritten.as_ref().unwrap_or(schema));
        let unchecked = compat::unchecked_patterns(schema);
        // Only a schema with a `pattern` left unchecked gets the second reading: the same
        // schema but for that pattern, so it compiles where the first did.
        let matching_nothing = unchecked
            .iter()
            .any(UncheckedPattern::is_pattern_keyword)
            .then(|| compat::compiled_form_matching_nothing(schema))
            .flatten()
            .and_then(|other| compile(&other).ok());
        Ok(ArgsSchema {
            depth,
            declared: schema.clone(),
            rewritten,
            validator,
            matching_nothing,
            fancy,
            unchecked,
            written: Default::default(),
            expected_memo: Default::default(),
            branches: Default::default(),
            resources,
        })
    }

    /// The schema's patterns that are valid ECMA-262 but that the regex engine cannot
    /// compile, which are left unchecked rather than the schema refused, one for each place of
    /// `arguments` where a string meets one (`pattern` concerns no other value), with that
    /// place as its `argument`, however the schema reaches it (`properties`, `items`, a branch,
    /// a `$ref`; a `propertyNames` pattern at each member whose name it meets). When the
    /// schema places values in a way not followed here (a remote `$ref`,
    /// `unevaluatedProperties`, more than the walk's budget), each pattern is listed once more
    /// without a place. Whoever runs the
    /// check must be told: the verdict there is the other keywords' alone.
    pub fn unchecked_patterns(&self, arguments: &Value) -> Vec<UncheckedPattern> {
        if self.unchecked.is_empty() {
            return Vec::new();
        }
        let keywords: Vec<&str> = self
            .unchecked
            .iter()
            .map(|u| u.schema_pointer.as_str())
            .collect();
        let mut places = unchecked::places(&self.declared, arguments, &keywords);
        // Document order of the patterns, then the order the arguments were met in.
        places.found.sort_by_key(|(i, _)| *i);
        let mut out: Vec<UncheckedPattern> = Vec::new();
        for (i, u) in self.unchecked.iter().enumerate() {
            out.extend(places.found.iter().filter(|(j, _)| *j == i).map(|(_, at)| {
                UncheckedPattern {
                    argument: Some(at.clone()),
                    ..u.clone()
                }
            }));
            // Found at some places, it may still meet others the walk did not follow.
            if places.incomplete {
                out.push(UncheckedPattern {
                    argument: None,
                    ..u.clone()
                });
            }
        }
        out
    }

    /// Makes problems quote the schema's numbers as `text` writes them (`1E-7`, `0.10`,
    /// `18446744073709551616`), not as serde_json reads them (`1e-7`, `0.1`,
    /// `1.8446744073709552e19`): a model told a bound other than the schema's may chase it.
    /// `text` is the JSON text holding the declared schema at JSON Pointer `at`. A bound
    /// reached through a `$ref` keeps serde_json's spelling: the validator names its place
    /// by the reference's path, not by where the document writes it.
    pub fn quote_numbers_as_written(&mut self, text: &str, at: &str) {
        for (pointer, token) in crate::json::number_tokens(text) {
            let Some(inside) = pointer.strip_prefix(at) else {
                continue;
            };
            self.written.insert(inside.to_string(), token.to_string());
        }
    }

    /// The schema's number at JSON Pointer `path` of the schema as written, when known and
    /// when it is `v` (a rewritten copy could hold another value there).
    fn written_at(&self, path: Option<&str>, v: &Value) -> Option<&str> {
        let token = self.written.get(self.declared_place(path?).as_ref())?;
        let read = serde_json::from_str::<Value>(token).ok()?;
        (read.as_f64()? == v.as_f64()?).then_some(token.as_str())
    }

    /// Appends the schema's value `v`, at JSON Pointer `path` of the schema, as the schema
    /// writes it when that is known ([`ArgsSchema::quote_numbers_as_written`]), else as
    /// [`push_short_value`] writes it. A long one is shortened ([`crate::json::shown_number`]),
    /// as a long number of the call is: a bound of a million digits quoted whole made a
    /// megabyte retry message (trial 58 D14).
    fn push_schema_value(&self, out: &mut String, path: Option<&str>, v: &Value) {
        match self.written_at(path, v) {
            Some(token) => out.push_str(&crate::json::shown_number(token)),
            None => push_short_value(out, v),
        }
    }

    /// `head` followed by the schema's number `limit` at JSON Pointer `path` of the schema,
    /// spelled as [`ArgsSchema::push_schema_value`] spells it.
    fn with_schema_number(&self, head: &str, path: Option<&str>, limit: &Value) -> String {
        let mut s = String::with_capacity(head.len() + 8);
        s.push_str(head);
        self.push_schema_value(&mut s, path, limit);
        s
    }

    /// The declared schema.
    pub fn schema(&self) -> &Value {
        &self.declared
    }

    /// The `type` spellings that name no JSON Schema type but one `repair` and `compile` read
    /// (`str`, `dict`, `Integer`, Gemini's proto `STRING`, ...), each checked as the type it
    /// means (see the `compat` module); empty for a schema in JSON Schema's own types.
    pub fn type_spellings(&self) -> Vec<TypeSpelling> {
        if self.rewritten.is_none() {
            return Vec::new();
        }
        compat::type_spellings(&self.declared)
    }

    /// The count keywords written as Gemini's int64 strings (`"maxItems": "2"`), each checked
    /// as the integer it spells (see the `compat` module); empty for a schema writing its
    /// counts as JSON Schema does.
    pub fn int64_strings(&self) -> Vec<Int64String> {
        if self.rewritten.is_none() {
            return Vec::new();
        }
        compat::int64_strings(&self.declared)
    }

    /// `minimum` and `maximum` written as Gemini's double strings (`"minimum": "1.5"`), each
    /// checked as the number it spells (see the `compat` module); empty for a schema writing
    /// its bounds as JSON Schema does.
    pub fn double_strings(&self) -> Vec<DoubleString> {
        if self.rewritten.is_none() {
            return Vec::new();
        }
        compat::double_strings(&self.declared)
    }

    /// The compiled validator (for comparisons and benchmarks).
    pub fn validator(&self) -> &Validator {
        &self.validator
    }

    /// Checks arguments text as a model sent it, everything `toolwire args --call TEXT`
    /// judges (its `problems` and retry message): the text is read by [`Sent::read`] (use
    /// [`ArgsSchema::check_sent`] with [`Sent::read_call`] for OpenAI's decoded `arguments`
    /// string, read exactly once), text that is not JSON, empty, nesting too deep or holding a
    /// number past a 64-bit float's range is a report with one problem, numbers are quoted as
    /// sent ([`ArgsReport::quote_numbers_as_sent`]), and a number read as another value than
    /// sent is a problem where a keyword judges its digits ([`ArgsReport::cannot_vouch_for`]),
    /// which [`ArgsSchema::check`], given a value, cannot see (trial 76 D1, D2).
    pub fn check_text(&self, text: &str, coerce: Coercions) -> ArgsReport<'static> {
        let sent = Sent::read(text);
        let mut report = self.check_sent(&sent, coerce).into_static();
        if matches!(sent, Sent::Value(_)) {
            report.quote_numbers_as_sent(text);
            report.cannot_vouch_for(self, &inexact_numbers(text));
        }
        report
    }

    /// The report on arguments as read ([`Sent`]): [`ArgsSchema::check`] of a value, else the
    /// one problem of text that could not be read (keyword `json`, `number-range` or
    /// `nesting`). Numbers are not quoted as sent and precision is not judged, which need
    /// the text: [`ArgsSchema::check_text`] does both.
    pub fn check_sent<'a>(&self, sent: &'a Sent, coerce: Coercions) -> ArgsReport<'a> {
        match sent {
            Sent::Value(call) => self.check(call, coerce),
            Sent::NotJson { text, error } => ArgsReport::not_json(text, error),
            Sent::NumberOutOfRange {
                text,
                pointer,
                number,
            } => ArgsReport::number_out_of_range(text, pointer, number),
            Sent::TooDeep {
                text,
                at,
                max_depth,
            } => ArgsReport::too_deep(text, at, *max_depth),
            Sent::Empty => ArgsReport::empty(),
        }
    }

    /// Checks `arguments`, reporting every problem at once. Arguments nesting deeper than
    /// [`MAX_DEPTH`] are not validated: the report has one problem (keyword `depth`) at the
    /// first place past the cap.
    pub fn check<'a>(&self, arguments: &'a Value, coerce: Coercions) -> ArgsReport<'a> {
        let depth = crate::json::value_depth(arguments);
        if depth > MAX_DEPTH {
            let pointer = crate::json::first_too_deep(arguments, MAX_DEPTH).unwrap_or_default();
            let message = format!(
                "{}: the arguments nest deeper than {MAX_DEPTH} levels; send them again with \
                 less nesting.",
                place(&pointer)
            );
            return ArgsReport {
                arguments: Cow::Borrowed(arguments),
                arguments_text: None,
                problems: vec![Problem {
                    pointer,
                    keyword: Cow::Borrowed("depth"),
                    expected: Cow::Owned(format!("at most {MAX_DEPTH} levels of nesting")),
                    message,
                }],
                coercions: Vec::new(),
                absent_nulls: Vec::new(),
            };
        }
        on_deep_stack(self.depth.max(depth) > SHALLOW, || {
            self.check_here(arguments, coerce)
        })
    }

    /// [`ArgsSchema::check`] on the current stack, for arguments within [`MAX_DEPTH`].
    fn check_here<'a>(&self, arguments: &'a Value, coerce: Coercions) -> ArgsReport<'a> {
        if self.validator.is_valid(arguments) {
            return ArgsReport {
                arguments: Cow::Borrowed(arguments),
                arguments_text: None,
                problems: Vec::new(),
                coercions: Vec::new(),
                absent_nulls: Vec::new(),
            };
        }
        // Most invalid calls have nothing to normalise: report straight from one pass.
        let mut problems = Vec::with_capacity(8);
        let mut normalise = false;
        let otherwise = self.refused_otherwise(arguments);
        for e in self.validator.iter_errors(arguments) {
            // What an `unevaluatedProperties`/`unevaluatedItems` schema refuses by value is
            // normalised as a declared member is (`unevaluated`).
            if normalisable(&e, coerce)
                || self
                    .refused_by_value(&e)
                    .is_some_and(|subs| subs.iter().any(|s| normalisable(s, coerce)))
            {
                normalise = true;
                break;
            }
            if self.decided(&e, otherwise.as_ref()) {
                self.shared_problems(&e, otherwise.as_ref(), coerce, &mut problems);
            }
        }
        if !normalise {
            self.refused_either_way(arguments, otherwise.as_ref(), coerce, &mut problems);
            self.undecided_problems(arguments, &mut problems);
            said_once(&mut problems);
            return ArgsReport {
                arguments: Cow::Borrowed(arguments),
                arguments_text: None,
                problems,
                coercions: Vec::new(),
                absent_nulls: Vec::new(),
            };
        }
        // Copied at the first change only: most calls need none, and a call may be megabytes.
        let mut args: Cow<'a, Value> = Cow::Borrowed(arguments);
        let mut coercions = Vec::new();
        let mut absent_nulls = Vec::new();
        let mut required_nulls: HashSet<String> = HashSet::new();
        let mut ambiguous: Vec<(String, String)> = Vec::new();
        let mut budget = branches::MAX_BRANCH_TRIALS;
        for _ in 0..MAX_ROUNDS {
            let plan = self.plan(&self.validator, &args, coerce, &required_nulls, &mut budget);
            for (pointer, note) in plan.ambiguous {
                if !ambiguous.iter().any(|(p, _)| *p == pointer) {
                    ambiguous.push((pointer, note));
                }
            }
            if plan.nulls.is_empty() && plan.coercions.is_empty() {
                break;
            }
            apply(args.to_mut(), plan.coercions, &mut coercions);
            if !plan.nulls.is_empty() {
                self.drop_nulls(
                    &self.validator,
                    args.to_mut(),
                    plan.nulls,
                    &mut required_nulls,
                    &mut absent_nulls,
                );
            }
        }
        let mut problems = Vec::new();
        let otherwise = self.refused_otherwise(&args);
        let mut missing_nulls = HashSet::new();
        for e in self.validator.iter_errors(&args) {
            if let Some(union) = alternative_missing(&e, &absent_nulls) {
                missing_nulls.insert((e.instance_path().as_str().to_string(), union));
            }
            if self.decided(&e, otherwise.as_ref()) {
                self.shared_problems(&e, otherwise.as_ref(), coerce, &mut problems);
            }
        }
        self.refused_either_way(&args, otherwise.as_ref(), coerce, &mut problems);
        self.undecided_problems(&args, &mut problems);
        for (pointer, note) in ambiguous {
            say_ambiguous(&mut problems, &pointer, &note);
        }
        // Numeric text is read as a JSON number is: what it was read as was judged, so text
        // read as another value (`"0.10000000000000000001"` as 0.1) is the same problem. Even
        // where no keyword judges it by the digits the float does not hold: coerced, it
        // becomes the float, which `arguments` would carry as the value sent.
        for c in coercions
            .iter()
            .filter(|c| c.kind == CoercionKind::NumericText)
        {
            if let Some(n) = c.inexact() {
                let by = self.judges_digits(&args, &n);
                problems.push(precision_problem(
                    &n.pointer,
                    &n.written,
                    &n.read_as,
                    by.as_deref(),
                ));
            }
            quote_text_as_sent(&mut problems, c);
        }
        nulls_not_counted(&mut problems, &absent_nulls, &missing_nulls);
        said_once(&mut problems);
        ArgsReport {
            arguments: args,
            arguments_text: None,
            problems,
            coercions,
            absent_nulls,
        }
    }

    /// What the reading where each unchecked `pattern` matches no string
    /// ([`ArgsSchema::matching_nothing`]) refuses of `args`; `None` for the common schema,
    /// without such a pattern, whose one reading decides alone.
    fn refused_otherwise<'a>(&'a self, args: &'a Value) -> Option<Otherwise<'a>> {
        let other = self.matching_nothing.as_ref()?;
        let errors: Vec<ValidationError<'a>> = other.iter_errors(args).collect();
        let refused = errors.iter().map(refusal).collect();
        let patterns: Vec<&UncheckedPattern> = self
            .unchecked
            .iter()
            .filter(|u| u.is_pattern_keyword())
            .collect();
        let keywords: Vec<&str> = patterns.iter().map(|u| u.schema_pointer.as_str()).collect();
        let met = unchecked::places(&self.declared, args, &keywords);
        // One pattern meeting one string has one truth, however many places write the
        // pattern or hold the string (trial 62 D1: `allOf: [{pattern: P}, {if: {pattern: P},
        // ...}]` met "ab" twice and was taken for several truths).
        let mut truths: Vec<(&str, &str)> = met
            .found
            .iter()
            .zip(&met.texts)
            .map(|((i, _), text)| (patterns[*i].pattern.as_str(), text.as_str()))
            .collect();
        truths.sort_unstable();
        truths.dedup();
        let several = truths.len() > 1 || met.incomplete || met.repeated;
        let once = match met.found.first() {
            Some((i, _)) if !several => Some(MetOnce {
                text: met.texts[0].clone(),
                schema_pointer: patterns[*i].schema_pointer.clone(),
                pattern: patterns[*i].pattern.clone(),
            }),
            _ => None,
        };
        // Kept only where they may be said ([`ArgsSchema::shared_problems`]): where an
        // unchecked `patternProperties` key places members neither reading is ECMA-262's
        // truth, so neither case holds for sure (as in [`ArgsSchema::refused_either_way`]).
        let mut twins = HashMap::new();
        if once.is_some() && !self.meets_unchecked_key(args) {
            for e in errors {
                twins.entry(refusal(&e)).or_insert(e);
            }
        }
        Some(Otherwise {
            refused,
            several,
            once,
            twins,
        })
    }

    /// Appends the problems of `e`, a refusal both readings make ([`ArgsSchema::decided`]),
    /// as both describe it. Where the call meets its unchecked pattern with one string
    /// ([`Otherwise::once`]), the readings may describe one refusal differently: an `anyOf` or
    /// `oneOf` says what failed in its branches, and a branch whose `if` tests the pattern
    /// fails otherwise in each (trial 62 D6: `anyOf: [{if: {pattern: P}, then: {minLength:
    /// 10}, else: {maxLength: 2}}, {type: integer}]` said "aba" "is too short", the first
    /// reading's branch, unlabelled, as if it were the only one). What both say is said
    /// unlabelled. When each says something the other does not, each one's rest is labelled
    /// with its case, as [`ArgsSchema::refused_either_way`] labels; when only one says more,
    /// its rest is the pattern's doing, undecided, and left out.
    fn shared_problems(
        &self,
        e: &ValidationError<'_>,
        otherwise: Option<&Otherwise<'_>>,
        coerce: Coercions,
        out: &mut Vec<Problem>,
    ) {
        let start = out.len();
        self.problems_for(e, coerce, out);
        let Some((met, twin)) =
            otherwise.and_then(|o| Some((o.once.as_ref()?, o.twins.get(&refusal(e))?)))
        else {
            return;
        };
        let mut second = Vec::new();
        self.problems_for(twin, coerce, &mut second);
        let says = |said: &[Problem], p: &Problem| {
            said.iter()
                .any(|q| q.pointer == p.pointer && q.message == p.message)
        };
        let first_only = out[start..].iter().any(|p| !says(&second, p));
        if !first_only {
            return;
        }
        let second_only: Vec<Problem> = second
            .iter()
            .filter(|q| !says(&out[start..], q))
            .cloned()
            .collect();
        if second_only.is_empty() {
            // The second reading says part of what the first does, and only that holds both
            // ways; nothing at all, and the first's description is all there is.
            if !second.is_empty() {
                let first = out.split_off(start);
                out.extend(first.into_iter().filter(|p| says(&second, p)));
            }
            return;
        }
        let [matched, unmatched] = met.labels();
        for p in &mut out[start..] {
            if !says(&second, p) {
                p.message.push_str(&matched);
            }
        }
        for mut p in second_only {
            p.message.push_str(&unmatched);
            out.push(p);
        }
    }

    /// Appends the problems of a call both readings refuse for different reasons, each
    /// labelled with the case it holds in. Met at one place only ([`Otherwise::once`]), the
    /// unchecked pattern either matches that string or does not, so ECMA-262's truth is one
    /// of the two readings: when each refuses something the other does not, the call is
    /// refused whatever the pattern matches, even where no refusal is shared and
    /// [`ArgsSchema::decided`] decides none (trial 61 D1: `if: {pattern: P}, then: {minLength:
    /// 10}, else: {maxLength: 2}` passed "aba"). Where only one reading refuses more, its extra
    /// refusal is the pattern's doing and stays undecided. A place a `patternProperties` key left unchecked
    /// places is read the engine's way in both readings, neither of which is then ECMA-262's:
    /// no such call is refused here. An engine that gave up refuses nothing.
    fn refused_either_way(
        &self,
        args: &Value,
        otherwise: Option<&Otherwise<'_>>,
        coerce: Coercions,
        out: &mut Vec<Problem>,
    ) {
        let (Some(o), Some(other)) = (otherwise, self.matching_nothing.as_ref()) else {
            return;
        };
        let Some(met) = &o.once else {
            return;
        };
        let refuses = |e: &ValidationError<'_>| !undecided::is_engine_failure(e.kind());
        let first: Vec<ValidationError<'_>> = self.validator.iter_errors(args).collect();
        let made: HashSet<Refusal> = first.iter().filter(|e| refuses(e)).map(refusal).collect();
        let first: Vec<_> = first
            .into_iter()
            .filter(|e| refuses(e) && !o.refused.contains(&refusal(e)))
            .collect();
        if first.is_empty() {
            return;
        }
        let second: Vec<_> = other
            .iter_errors(args)
            .filter(|e| refuses(e) && !made.contains(&refusal(e)))
            .collect();
        if second.is_empty() || self.meets_unchecked_key(args) {
            return;
        }
        let [matched, unmatched] = met.labels();
        for (errors, label) in [(first, matched), (second, unmatched)] {
            let start = out.len();
            for e in &errors {
                self.problems_for(e, coerce, out);
            }
            for p in &mut out[start..] {
                p.message.push_str(&label);
            }
        }
    }

    /// Whether `args` meets a `patternProperties` key left unchecked, or may (a place the
    /// walk did not follow).
    fn meets_unchecked_key(&self, args: &Value) -> bool {
        let keys: Vec<&str> = self
            .unchecked
            .iter()
            .filter(|u| !u.is_pattern_keyword())
            .map(|u| u.schema_pointer.as_str())
            .collect();
        if keys.is_empty() {
            return false;
        }
        let met = unchecked::places(&self.declared, args, &keys);
        !met.found.is_empty() || met.incomplete
    }

    /// Whether `e`, refused by the reading where each unchecked `pattern` matches every
    /// string, decides a refusal: only when the reading where each matches none refuses it
    /// too (`otherwise`; `None`: no such pattern, one reading decides), and no truth between
    /// the two could undo it ([`ArgsSchema::entangled`]). A refusal of one reading alone is
    /// the pattern's doing, and the pattern was not checked: it must not decide (trial 59
    /// D13: `not: {pattern: P}` refused a string ECMA-262 does not match by P, while the
    /// warning said P was not checked). Such a place is left undecided, with that warning.
    fn decided(&self, e: &ValidationError<'_>, otherwise: Option<&Otherwise<'_>>) -> bool {
        let Some(o) = otherwise else {
            return true;
        };
        o.refused.contains(&refusal(e)) && !(o.several && self.entangled(e))
    }

    /// Whether the refusal `e`, made by both readings, is one a truth between them could undo.
    /// With unchecked patterns met at several places, ECMA-262 may match at some and not at
    /// others, which is neither reading: under `if: {allOf: [{pattern: P}, {not: {pattern:
    /// Q}}]}`, the `if` fails in both (P and Q both match, then neither), so both apply the
    /// `else`, which ECMA-262 does not where P matches and Q does not. A keyword that only joins its subschemas' verdicts (`properties`, `allOf`, `items`)
    /// keeps a verdict both extremes share; one that turns them (`not`, `oneOf`, `anyOf`,
    /// `contains`, `unevaluated*`) or chooses by them (the `if` of a `then` or `else` on the
    /// way to `e`) does not. Such a keyword whose subschemas hold an unchecked `pattern`, or a
    /// reference (not followed here), makes `e` undecided; so does a way to `e` not followed.
    fn entangled(&self, e: &ValidationError<'_>) -> bool {
        let holds = |here: &str, v: &Value| {
            self.unchecked.iter().any(|u| {
                u.is_pattern_keyword()
                    && u.schema_pointer
                        .strip_prefix(here)
                        .is_some_and(|rest| rest.starts_with('/'))
            }) || refers(v)
        };
        let path = e.evaluation_path().as_str();
        let tokens: Vec<&str> = path.split('/').skip(1).collect();
        let mut node = &self.declared;
        let mut here = String::new();
        for (i, raw) in tokens.iter().enumerate() {
            let token = raw.replace("~1", "/").replace("~0", "~");
            let next = match node {
                Value::Object(o) => {
                    let turned = match token.as_str() {
                        "then" | "else" => o.get("if").map(|c| (format!("{here}/if"), c)),
                        "not" | "oneOf" | "anyOf" | "contains" => {
                            o.get(&token).map(|c| (format!("{here}/{raw}"), c))
                        }
                        "unevaluatedProperties" | "unevaluatedItems" => Some((here.clone(), node)),
                        _ => None,
                    };
                    if turned.is_some_and(|(at, c)| holds(&at, c)) {
                        return true;
                    }
                    if i + 1 == tokens.len() {
                        // The refusing keyword itself, a plain one.
                        return false;
                    }
                    if token == "$ref" {
                        let Some(Value::String(r)) = o.get("$ref") else {
                            return true;
                        };
                        let crate::schema::refs::Step::Local(target, there) =
                            crate::schema::refs::step_from(&self.declared, &here, r)
                        else {
                            return true;
                        };
                        node = target;
                        here = there;
                        continue;
                    }
                    o.get(&token)
                }
                Value::Array(list) => token.parse::<usize>().ok().and_then(|n| list.get(n)),
                _ => None,
            };
            let Some(next) = next else {
                return true;
            };
            node = next;
            here.push('/');
            here.push_str(raw);
        }
        false
    }

    /// Removes each of `nulls` (pointers into `args` of `null` members `validator` refuses)
    /// whose removal makes no new error of the object that holds it but a `minProperties`:
    /// not a `required` (nor `dependentRequired`, an `if`, ...), which would tell the model of
    /// a member it did send. Each removed goes to `absent`, each kept to `required`.
    ///
    /// A `minProperties` counts the members given a value, and a null is "not given": all of
    /// an object's nulls are absent, and its `minProperties` problem says that null does not
    /// count ([`nulls_not_counted`]). Kept, the null whose removal broke it was the problem
    /// ("null is not allowed here"): whichever came last, the others absent by then (trial 70
    /// D6: `{"title":null,"body":null}` blamed `/body`, its reverse `/title`), and the rule
    /// the call breaks went unnamed.
    ///
    /// A null kept is tried again once another was removed, until a pass removes none: a
    /// removal may mend what kept it (`dependentRequired: {a: [b]}`, `{"b":null,"a":null}`:
    /// without `b` the rule breaks while `a` is there, and once `a` is gone nothing does),
    /// and the verdict must not depend on the order of the members. Each pass but the last
    /// removes one at least, so there are at most one more than `nulls`.
    fn drop_nulls(
        &self,
        validator: &Validator,
        args: &mut Value,
        nulls: Vec<String>,
        required: &mut HashSet<String>,
        absent: &mut Vec<String>,
    ) {
        let mut pending = nulls;
        loop {
            let mut kept = Vec::new();
            let removed = absent.len();
            for pointer in pending {
                match drop_null(validator, args, &pointer) {
                    Some(true) => absent.push(pointer),
                    Some(false) => kept.push(pointer),
                    None => {}
                }
            }
            if kept.is_empty() || absent.len() == removed {
                required.extend(kept);
                return;
            }
            pending = kept;
        }
    }

    /// Coerces the strings of `value` that `validator` rejects where coercion makes them fit,
    /// and treats as absent the `null` members it refuses that are optional there, as
    /// [`ArgsSchema::check`] does for the whole arguments (in rounds, as JSON text may hold
    /// more text to coerce). Returns the coercions made and the nulls removed, their pointers
    /// into `value`. `validator` is one branch's ([`ArgsSchema::branch_validator`]): whether a
    /// member of an object inside the branch is optional is the branch's `required` to say,
    /// and strict wire forms make such a member required and nullable as they do the
    /// arguments' own (trial 64 D4).
    fn normalise_within(
        &self,
        validator: &Validator,
        value: &mut Value,
        coerce: Coercions,
        budget: &mut usize,
    ) -> (Vec<Coercion>, Vec<String>) {
        let mut made = Vec::new();
        let mut absent = Vec::new();
        let mut required = HashSet::new();
        for _ in 0..MAX_ROUNDS {
            let plan = self.plan(validator, value, coerce, &required, budget);
            if plan.coercions.is_empty() && plan.nulls.is_empty() {
                break;
            }
            apply(value, plan.coercions, &mut made);
            self.drop_nulls(validator, value, plan.nulls, &mut required, &mut absent);
        }
        (made, absent)
    }

    /// Finds, among what `validator` rejects in `args`, the nulls that may be optional
    /// arguments (not those of `required_nulls`, known to be required) and the strings that
    /// may be coerced, inside `anyOf`/`oneOf` branches too ([`ArgsSchema::union_coercion`]).
    fn plan(
        &self,
        validator: &Validator,
        args: &Value,
        coerce: Coercions,
        required_nulls: &HashSet<String>,
        budget: &mut usize,
    ) -> Plan {
        let mut plan = Plan::default();
        let mut seen = HashSet::new();
        for found in validator.iter_errors(args) {
            // The values an `unevaluatedProperties`/`unevaluatedItems` schema refuses are
            // named by the validator only at their object or list: their own errors are read
            // instead, as a declared member's are (`unevaluated`).
            let errors = match self.refused_by_value(&found) {
                Some(subs) => subs,
                None => vec![found],
            };
            for e in errors {
                let pointer = e.instance_path().as_str().to_string();
                if !seen.insert((pointer.clone(), e.kind().keyword().to_string())) {
                    continue;
                }
                // An optional argument sent as null, wherever the schema refuses it: by `type`,
                // `enum`, a `$ref`, or an `anyOf`/`oneOf` none of whose alternatives takes null
                // (compile's strict forms wrap an optional union so, and models send null for it).
                if e.instance().is_null()
                    && !required_nulls.contains(&pointer)
                    && !plan.nulls.contains(&pointer)
                    && split_last(&pointer).is_some_and(|(parent, _)| {
                        args.pointer(&parent).is_some_and(Value::is_object)
                    })
                {
                    plan.nulls.push(pointer);
                    continue;
                }
                let union = match e.kind() {
                    ValidationErrorKind::AnyOf { context } => Some((context.len(), false)),
                    ValidationErrorKind::OneOfNotValid { context } => Some((context.len(), true)),
                    _ => None,
                };
                if let Some((branches, one_of)) = union {
                    if !coerce.any() && !branches::holds_null_member(e.instance()) {
                        continue;
                    }
                    match self.union_coercion(&e, branches, one_of, coerce, budget) {
                        branches::Outcome::Normalised { coercions, nulls }
                            if !coercions
                                .iter()
                                .any(|c| plan.coercions.iter().any(|p| p.pointer == c.pointer)) =>
                        {
                            plan.coercions.extend(coercions);
                            // Removed as the arguments' own are, with the same check that no
                            // new error of the object holding one follows (a `required` beside
                            // the union); one found required is not offered again.
                            for n in nulls {
                                if !required_nulls.contains(&n) && !plan.nulls.contains(&n) {
                                    plan.nulls.push(n);
                                }
                            }
                        }
                        branches::Outcome::Left(note) => plan.ambiguous.push((pointer, note)),
                        _ => {}
                    }
                    continue;
                }
                match e.instance().as_ref() {
                    Value::String(text) if coerce.any() => {
                        let declared = declared_types(&e);
                        if declared.contains(JsonType::String) {
                            continue;
                        }
                        if let Some((to, kind)) = coerce_text(text, declared, coerce)
                            && !plan.coercions.iter().any(|c| c.pointer == pointer)
                        {
                            plan.coercions.push(Coercion {
                                pointer,
                                kind,
                                from: text.clone(),
                                to,
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
        plan
    }
}

/// One refusal as both readings of a schema with an unchecked `pattern` name it: the
/// arguments' place, the keyword's schema path (the same in both readings, which differ only
/// in that pattern) and the kind of failure (a `oneOf` with two branches matching is not the
/// same refusal as one with none).
type Refusal = (String, String, std::mem::Discriminant<ValidationErrorKind>);

/// What `validator` refuses of the object at `parent` in `args` itself (not inside its
/// members), each as its keyword and, for `required`, the property it misses.
fn errors_of(validator: &Validator, args: &Value, parent: &str) -> HashSet<String> {
    validator
        .iter_errors(args)
        .filter(|e| e.instance_path().as_str() == parent)
        .map(|e| error_key(&e))
        .collect()
}

/// An error as [`errors_of`] names it.
fn error_key(e: &ValidationError<'_>) -> String {
    match e.kind() {
        ValidationErrorKind::Required { property } => format!("required {property}"),
        kind => kind.keyword().to_string(),
    }
}

/// Whether `e`, an error of the object at `parent`, only counts the members given a value:
/// a `minProperties`, or an `anyOf` (or a `oneOf` none of whose alternatives holds) of two
/// alternatives or more each missing members only ("at least one of `title`, `body`":
/// `anyOf: [{required: [title]}, {required: [body]}]`).
/// A null is "not given" to such a rule: absent, all of an object's nulls are, and the
/// problem names the rule ([`nulls_not_counted`]); kept, whichever null came last was blamed.
fn counts_given(e: &ValidationError<'_>, parent: &str) -> bool {
    match e.kind() {
        ValidationErrorKind::MinProperties { .. } => true,
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            context.len() > 1
                && context.iter().all(|branch| {
                    !branch.is_empty()
                        && branch.iter().all(|be| {
                            be.instance_path().as_str() == parent
                                && matches!(be.kind(), ValidationErrorKind::Required { .. })
                        })
                })
        }
        _ => false,
    }
}

/// Removes the `null` member at `pointer` from its object in `args` if its removal makes no
/// new error of that object but a `minProperties` ([`ArgsSchema::drop_nulls`]), else leaves
/// it where it was: whether it was removed, `None` where there is no such member.
fn drop_null(validator: &Validator, args: &mut Value, pointer: &str) -> Option<bool> {
    let (parent, name) = split_last(pointer)?;
    let before = errors_of(validator, args, &parent);
    let obj = args.pointer_mut(&parent).and_then(Value::as_object_mut)?;
    let index = obj.keys().position(|k| *k == name)?;
    let removed = obj.shift_remove(&name)?;
    let counts_only = validator
        .iter_errors(args)
        .filter(|e| e.instance_path().as_str() == parent)
        .all(|e| before.contains(&error_key(&e)) || counts_given(&e, &parent));
    if counts_only {
        return Some(true);
    }
    if let Some(obj) = args.pointer_mut(&parent).and_then(Value::as_object_mut) {
        obj.shift_insert(index, name, removed);
    }
    Some(false)
}

fn refusal(e: &ValidationError<'_>) -> Refusal {
    (
        e.instance_path().as_str().to_string(),
        e.schema_path().as_str().to_string(),
        std::mem::discriminant(e.kind()),
    )
}

/// What the reading where each unchecked `pattern` matches nothing refuses of one call
/// ([`ArgsSchema::refused_otherwise`]).
struct Otherwise<'a> {
    refused: HashSet<Refusal>,
    /// Whether the call meets unchecked patterns with more than one string, or more than one
    /// pattern (or at places not followed, or a member's name and value at one), where
    /// ECMA-262's truth may be neither reading ([`ArgsSchema::entangled`]). One pattern
    /// meeting one string at several places is one truth.
    several: bool,
    /// The one string the call meets one unchecked pattern with, when not `several` (the first
    /// place it does): ECMA-262's truth is then one reading or the other
    /// ([`ArgsSchema::refused_either_way`]).
    once: Option<MetOnce>,
    /// This reading's errors by their refusal, when `once` and no unchecked
    /// `patternProperties` key is met (else empty): what it says of a refusal both readings
    /// make ([`ArgsSchema::shared_problems`]).
    twins: HashMap<Refusal, ValidationError<'a>>,
}

/// The one string of a call an unchecked `pattern` meets.
struct MetOnce {
    /// The string the pattern met: the value there, or under `propertyNames` the member's
    /// name (trial 62 D7: the label named the member's value pointer, which the pattern never
    /// saw).
    text: String,
    /// JSON Pointer to the `pattern` keyword in the declared schema.
    schema_pointer: String,
    /// The pattern as the schema writes it.
    pattern: String,
}

impl MetOnce {
    /// What ends a problem that holds in one reading only: where the pattern matches the
    /// string, and where it does not.
    fn labels(&self) -> [String; 2] {
        let mut text = String::new();
        push_short_value(&mut text, &Value::String(self.text.clone()));
        let keyword = crate::report::escape_inline(&self.schema_pointer);
        let pattern = &self.pattern;
        [
            format!(
                " (This holds if {text} matches the pattern `{pattern}` at {keyword}, which was \
                 not checked.)"
            ),
            format!(
                " (This holds if {text} does not match the pattern `{pattern}` at {keyword}: \
                 either way the arguments are refused.)"
            ),
        ]
    }
}

/// Whether `schema` holds a reference anywhere (what it reaches is not searched).
fn refers(schema: &Value) -> bool {
    match schema {
        Value::Object(o) => o.iter().any(|(k, v)| {
            matches!(k.as_str(), "$ref" | "$dynamicRef" | "$recursiveRef")
                || (!matches!(k.as_str(), "enum" | "const" | "examples" | "default") && refers(v))
        }),
        Value::Array(a) => a.iter().any(refers),
        _ => false,
    }
}

#[derive(Default)]
struct Plan {
    nulls: Vec<String>,
    /// In the order to apply them (JSON text before the text inside it).
    coercions: Vec<Coercion>,
    /// Unions left uncoerced for a reason the model should read (branches read the value
    /// differently, or the union's place is unknown): the union's pointer and the sentence.
    ambiguous: Vec<(String, String)>,
}

/// Makes each problem at the place of the numeric-text coercion `c` that starts by quoting the
/// number read (`/n: 1000.0 is too large`) quote the text the model sent (`/n: "1e3" is too
/// large`): the model never sent 1000.0, and told of it cannot tell which of its values to fix.
fn quote_text_as_sent(problems: &mut [Problem], c: &Coercion) {
    let mut read = crate::report::escape_inline(&place(&c.pointer)).into_owned();
    read.push_str(": ");
    let mut sent = read.clone();
    let at = read.len();
    push_short_value(&mut read, &c.to);
    match c.long_numeric_text() {
        Some(text) => sent.push_str(&text),
        None => push_short_value(&mut sent, &Value::String(c.from.clone())),
    }
    let exact = c.inexact().is_none();
    for p in problems.iter_mut().filter(|p| p.pointer == c.pointer) {
        if let Some(rest) = p.message.strip_prefix(read.as_str()) {
            p.message = if exact || of_its_kind(p) {
                format!("{sent}{rest}")
            } else {
                let place = &sent[..at];
                format!("{place}{}", judged_as(&sent[at..], &read[at..], rest))
            };
        }
    }
}

/// Whether `p` is a `type` problem, which holds of a number sent as of the float it is read
/// as: a float read is fractional only where the number sent is (every integer up to 2^53 is
/// a float itself, and every float past it whole), and number or not is the same of both.
/// Such a problem quotes the number as sent alone ([`judged_as`] is for the others).
fn of_its_kind(p: &Problem) -> bool {
    p.keyword == "type"
}

/// A problem's opening, "`sent`, `rest`", for a number sent as `sent` and judged as the 64-bit
/// float shown `read` ([`crate::json::inexact_numbers`]): "0.99999999999999999 is read as 1.0,
/// which is too large", not "0.99999999999999999 is too large", which is false of the number
/// sent (trial 60 D4). What the check found is said of the float it judged, so the model is told
/// both what to change and why a number it thinks is fine failed.
fn judged_as(sent: &str, read: &str, rest: &str) -> String {
    match rest.strip_prefix(" is ") {
        Some(said) => format!("{sent} is read as {read}, which is {said}"),
        None => format!("{sent} (read as {read}){rest}"),
    }
}

/// Applies `planned` to `value`, recording each in `made`.
fn apply(value: &mut Value, planned: Vec<Coercion>, made: &mut Vec<Coercion>) {
    for c in planned {
        if let Some(slot) = value.pointer_mut(&c.pointer) {
            *slot = c.to.clone();
            made.push(c);
        }
    }
}

/// Adds `note` (why the union at `pointer` was not coerced) to the first problem at or under
/// `pointer`, where the model reads about that value; as a problem of its own when none is.
fn say_ambiguous(problems: &mut [Problem], pointer: &str, note: &str) {
    let under = |p: &Problem| {
        p.pointer == pointer
            || p.pointer
                .strip_prefix(pointer)
                .is_some_and(|rest| rest.starts_with('/'))
    };
    if let Some(p) = problems.iter_mut().find(|p| under(p)) {
        p.message.push(' ');
        p.message.push_str(note);
    }
}

/// The first `$ref` in `schema` that cannot be resolved without fetching: one that is not a
/// fragment of this document (remote or relative to another file), or a fragment pointing at
/// nothing. Only consulted after compilation failed, so an `$id`-based reference the
/// validator resolved is never blamed.
fn unresolvable_ref(schema: &Value) -> Option<SchemaProblem> {
    let _declarations = crate::schema::refs::indexed(schema);
    for node in crate::schema::walk(schema).nodes {
        let Some(target) = node
            .object()
            .and_then(|o| o.get("$ref"))
            .and_then(Value::as_str)
        else {
            continue;
        };
        let pointer = format!("{}/$ref", node.pointer);
        let message = match crate::schema::refs::step_from(schema, &node.pointer, target) {
            crate::schema::refs::Step::Remote => format!("remote $ref not followed: {target}"),
            crate::schema::refs::Step::Missing => {
                format!("$ref to a missing definition: {target}")
            }
            crate::schema::refs::Step::Local(..) => continue,
            other => crate::schema::refs::unresolved(target, &other).unwrap_or_default(),
        };
        return Some(SchemaProblem { pointer, message });
    }
    None
}

/// The first `$recursiveRef` of a 2019-09 `schema` (the draft the validator reads it under)
/// whose value is not `#`, as (JSON Pointer of the keyword, the problem in words). 2019-09
/// core §8.2.4.2.1 defines the keyword for `#` alone ("Implementations MAY choose to consider
/// other values to be errors"), and the jsonschema crate resolves every value as `#` (its
/// `lookup_recursive_ref`), so `"#/$defs/B"` was checked against the root while the problems'
/// words read `B` ("required argument is missing; expected no value at all (the schema
/// accepts none)" for a member only the root requires). Under another draft the validator ignores the keyword.
fn undefined_recursive_ref(schema: &Value) -> Option<(String, String)> {
    if jsonschema::Draft::Draft202012.detect(schema) != jsonschema::Draft::Draft201909 {
        return None;
    }
    crate::schema::walk(schema).nodes.iter().find_map(|n| {
        let reference = n.object()?.get("$recursiveRef")?.as_str()?;
        (reference != "#").then(|| {
            (
                crate::json::push_token(&n.pointer, "$recursiveRef"),
                format!(
                    "`$recursiveRef` is {reference:?}, but draft 2019-09 defines it only for \
                     \"#\" (core §8.2.4.2.1: the root of its resource, or of the outermost one \
                     in the dynamic scope saying `$recursiveAnchor: true`), and the validator \
                     reads every value as \"#\": the schema it names is not the one checked; \
                     write `$ref: {reference:?}` to use that schema, or `$recursiveRef: \"#\"`"
                ),
            )
        })
    })
}

/// The place of the `$ref`, `$dynamicRef` or `$id` whose value the validator's `error` quotes
/// (`Invalid URI reference 'a b#/x': ...`), which it reports at the schema's root.
fn quoted_reference(schema: &Value, error: &str) -> Option<String> {
    crate::schema::walk(schema).nodes.iter().find_map(|n| {
        let node = n.object()?;
        ["$ref", "$dynamicRef", "$id"].into_iter().find_map(|k| {
            let v = node.get(k)?.as_str()?;
            error
                .contains(&format!("'{v}'"))
                .then(|| format!("{}/{k}", n.pointer))
        })
    })
}

/// Checks `arguments` against `schema` in one go (compiles the schema each time; use
/// [`ArgsSchema`] for many calls). A parsed value no longer says how its numbers were
/// spelled: given the text a model sent, [`check_arguments_text`] judges it as `toolwire
/// args` does (text that is not JSON, numbers past a float's precision). Both are held to [`MAX_DEPTH`]: a deeper schema is a
/// [`SchemaProblem`], deeper arguments a report whose one problem has keyword `depth` (and
/// whose `arguments` are `null`: they are not copied).
///
/// Coercions are off unless asked for: text where a number is declared is a problem, and
/// with [`Coercions::numeric_text`] it is read as the number, the report saying so. An
/// optional argument sent as `null` is treated as absent ([`ArgsReport::absent_nulls`]).
///
/// ```
/// use serde_json::json;
/// use toolwire::args::{CoercionKind, Coercions, check_arguments};
///
/// let schema = json!({"type": "object", "required": ["city"], "properties": {
///     "city": {"type": "string"}, "days": {"type": "integer"}}});
/// let call = json!({"city": "Oslo", "days": "3"});
///
/// let strict = check_arguments(&schema, &call, Coercions::NONE)?;
/// assert_eq!(strict.problems[0].pointer, "/days");
/// assert_eq!(strict.problems[0].keyword, "type");
/// // What to send back to the model.
/// println!("{}", strict.retry_message(Some("get_weather")));
///
/// let coerced = check_arguments(&schema, &call, Coercions::ALL)?;
/// assert!(coerced.is_valid());
/// assert_eq!(*coerced.arguments, json!({"city": "Oslo", "days": 3}));
/// assert_eq!(coerced.coercions[0].kind, CoercionKind::NumericText);
///
/// let nulls = check_arguments(&schema, &json!({"city": "Oslo", "days": null}), Coercions::NONE)?;
/// assert!(nulls.is_valid());
/// assert_eq!(nulls.absent_nulls, ["/days"]);
///
/// // A schema that cannot be compiled is a `SchemaProblem`, not a panic.
/// let bad = check_arguments(&json!({"type": "object", "properties": {"a": {"$ref": "#/x"}}}),
///     &json!({}), Coercions::NONE);
/// assert_eq!(bad.unwrap_err().pointer, "/properties/a/$ref");
/// # Ok::<(), toolwire::args::SchemaProblem>(())
/// ```
pub fn check_arguments(
    schema: &Value,
    arguments: &Value,
    coerce: Coercions,
) -> Result<ArgsReport<'static>, SchemaProblem> {
    Ok(ArgsSchema::new(schema)?
        .check(arguments, coerce)
        .into_static())
}

/// [`check_arguments`] for the arguments as text, judged as [`ArgsSchema::check_text`] judges
/// it, as `toolwire args --call TEXT` does: text that is not JSON is a problem of the call
/// (the model's to fix), never an error, and a number the text spells more precisely than a
/// 64-bit float holds is a problem where a keyword judges its digits. Compiles the schema
/// each time; use [`ArgsSchema`] for many calls.
///
/// ```
/// use serde_json::json;
/// use toolwire::args::{Coercions, check_arguments_text};
///
/// let schema = json!({"type": "object", "properties": {"x": {"type": "number", "maximum": 0.1}}});
/// // Cut short at the model's output limit: a retry message, not an error.
/// let cut = check_arguments_text(&schema, r#"{"x": 0.05"#, Coercions::NONE)?;
/// assert_eq!(cut.problems[0].keyword, "json");
/// // Read as 0.1 by a 64-bit float, which `maximum: 0.1` allows; the number sent is larger.
/// let close = check_arguments_text(&schema, r#"{"x": 0.10000000000000000001}"#, Coercions::NONE)?;
/// assert_eq!(close.problems[0].keyword, "number-precision");
/// # Ok::<(), toolwire::args::SchemaProblem>(())
/// ```
pub fn check_arguments_text(
    schema: &Value,
    text: &str,
    coerce: Coercions,
) -> Result<ArgsReport<'static>, SchemaProblem> {
    Ok(ArgsSchema::new(schema)?.check_text(text, coerce))
}

/// Tool-call arguments as read from a call.
#[derive(Debug, Clone, PartialEq)]
pub enum Sent {
    /// The arguments value (an object, or whatever else was sent).
    Value(Value),
    /// OpenAI's form, a JSON string whose text starts like an object but is not JSON (a call
    /// cut short at the model's output limit, or with a syntax error). `error` is the
    /// parser's words, with the line and column in `text`.
    NotJson { text: String, error: String },
    /// JSON whose number at `pointer` (in the arguments object) is past what a 64-bit float
    /// holds (`1e400`): valid JSON text (RFC 8259 sets no range), but no JSON parser that reads
    /// numbers as doubles (JavaScript's, Python's `json` gives `inf`, serde_json refuses it)
    /// reads it as sent, so it is a problem of the call, as [`Sent::NotJson`] is. `number`
    /// is the token as sent, `text` the arguments text.
    NumberOutOfRange {
        text: String,
        pointer: String,
        number: String,
    },
    /// Arguments (in either form) nesting deeper than toolwire reads ([`Limits`]'
    /// `max_depth`, 512 levels): perhaps valid JSON, but not read, so not checked. `at` is
    /// where the limit is passed in `text` (`line L, column C`).
    TooDeep {
        text: String,
        at: String,
        max_depth: usize,
    },
    /// No text at all (nothing but whitespace): the arguments were left out of the call.
    Empty,
}

impl Sent {
    /// Reads tool-call arguments text as `toolwire args --call TEXT` does, as
    /// [`parse_arguments`] reads it (a JSON object, or OpenAI's JSON string holding its text),
    /// but never failing: text that is not JSON at all is the model's output too, and the most
    /// common problem a retry message answers, so it is [`Sent::NotJson`] (the parser's words
    /// name the place in the text, no file).
    pub fn read(text: &str) -> Sent {
        Self::or_malformed(text, parse_arguments)
    }

    /// [`Sent::read`] for the arguments text of a whole call, read exactly once as
    /// [`parse_call_arguments`] reads it: OpenAI's `function.arguments` once the response is
    /// decoded, where a JSON string (an object encoded twice) is the string the application
    /// gets, the model's error.
    pub fn read_call(text: &str) -> Sent {
        Self::or_malformed(text, parse_call_arguments)
    }

    fn or_malformed(text: &str, parse: fn(&str) -> crate::Result<Sent>) -> Sent {
        let error = match parse(text) {
            Ok(sent) => return sent,
            Err(crate::Error::Input { place, problem, .. }) => {
                format!("the arguments text: {place}: {problem}")
            }
            Err(e) => e.to_string(),
        };
        Sent::NotJson {
            text: text.to_string(),
            error,
        }
    }
}

/// The [`Sent`] for arguments text that failed to parse with `error`: a number past the
/// `f64` range is [`Sent::NumberOutOfRange`], nesting past `max_depth` is [`Sent::TooDeep`];
/// anything else is `None` (the caller decides).
fn out_of_range(text: &str, error: &crate::Error, max_depth: usize) -> Option<Sent> {
    match error {
        crate::Error::Input { problem, .. } if problem.ends_with(crate::json::OUT_OF_RANGE) => {}
        crate::Error::Input { place, problem, .. }
            if *problem == crate::json::too_deep_problem(max_depth) =>
        {
            return Some(Sent::TooDeep {
                text: text.to_string(),
                at: place.to_string(),
                max_depth,
            });
        }
        _ => return None,
    }
    let (pointer, number) = crate::json::number_tokens(text)
        .into_iter()
        .find(|(_, n)| n.parse::<f64>().is_ok_and(f64::is_infinite))?;
    Some(Sent::NumberOutOfRange {
        text: text.to_string(),
        pointer,
        number: number.to_string(),
    })
}

/// The numbers of the arguments text `text` (as [`parse_arguments`] takes it: the object, or
/// OpenAI's string holding it) that are checked as another value: serde_json reads each into
/// an `f64` that is not its value (an integer past 2^64, a decimal no double spells back,
/// possible past 15 significant digits, an underflow to 0), in order. Empty when `text` is not JSON. The same
/// [`crate::json::InexactNumberAt`] (with no line) that `check` lists, so that both commands'
/// JSON names such a number alike (`pointer`, `written`, `read_as`).
pub fn inexact_numbers(text: &str) -> Vec<crate::json::InexactNumberAt> {
    object_text(text).map_or_else(Vec::new, |t| crate::json::InexactNumberAt::all_in(&t, None))
}

/// `written`, JSON text serde_json wrote from the arguments of the arguments text `text` (as
/// [`parse_arguments`] takes it) and from values read off them, with each float spelled as the
/// model sent it: serde_json writes `-0` as `-0.0` and `1e2` as `100.0`
/// ([`crate::json::Spellings`]). `written` as it is when `text` holds no JSON.
pub fn respell_as_sent(text: &str, written: &str) -> String {
    match object_text(text) {
        Some(object) => crate::json::Spellings::of(&object).respell(written),
        None => written.to_string(),
    }
}

/// [`respell_as_sent`] with the numbers read as another value spelled as sent too, for
/// `written`, the arguments alone: a number no keyword judges by the digits its float does not
/// hold passes ([`ArgsReport::cannot_vouch_for`]), and forwarded as its float
/// (1.2345678901234568e+20 for 123456789012345678901) it would be another number.
pub fn respell_arguments_as_sent(text: &str, written: &str) -> String {
    match object_text(text) {
        Some(object) => crate::json::Spellings::of_all(&object).respell(written),
        None => written.to_string(),
    }
}

/// The text of the arguments object in the arguments text `text` (as [`parse_arguments`]
/// takes it): `text` itself, or the text inside OpenAI's string; `None` when that is not JSON,
/// or nests deeper than serde_json's default limit (128), which this reading has always kept.
/// Read, not built: the arguments are parsed already, and a second copy of a call of a
/// million small objects costs some 300 bytes each.
fn object_text(text: &str) -> Option<Cow<'_, str>> {
    let is_json = |t: &str| {
        crate::json::nesting_exceeds(t.as_bytes(), 128).is_none()
            && serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok()
    };
    if text
        .trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('"')
    {
        let inner: String = serde_json::from_str(text).ok()?;
        is_json(&inner).then_some(Cow::Owned(inner))
    } else {
        is_json(text).then_some(Cow::Borrowed(text))
    }
}

/// Reads tool-call arguments as models send them: a JSON object, or (OpenAI's form) a JSON
/// string whose text is the object. Errors name the place in `text`; text inside the string
/// that is not JSON is no error but [`Sent::NotJson`], a problem of the call, and a number
/// past the `f64` range, in either form, is [`Sent::NumberOutOfRange`], nesting past the
/// reader's limit [`Sent::TooDeep`], and text with nothing in it [`Sent::Empty`]. The error is
/// an [`crate::Error::Input`] whose file is `arguments` (`arguments: line 1, column 2: ...`).
pub fn parse_arguments(text: &str) -> crate::Result<Sent> {
    parse_arguments_from(std::path::Path::new("arguments"), text)
}

/// The keys written twice in one object of the arguments `text` (as [`parse_arguments`] reads
/// it: inside the JSON string when the arguments are one, as OpenAI sends them). The check
/// reads the last value, as serde_json does; a provider's or a tool's parser may keep the
/// first, so the two may not be checking the same arguments. Empty when there is none or the
/// text does not parse.
pub fn duplicate_keys(text: &str) -> Vec<crate::json::duplicates::DuplicateKey> {
    use crate::json::duplicates::{locate, written_twice};
    // Each text is located only when it has some: locating builds the whole document again.
    if written_twice(text) {
        let outer = locate(text);
        if !outer.is_empty() {
            return outer;
        }
    }
    let quoted = text
        .trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('"');
    match serde_json::from_str::<String>(text) {
        Ok(inner) if quoted && written_twice(&inner) => locate(&inner),
        _ => Vec::new(),
    }
}

/// [`parse_arguments`] for text read from `file`: errors name the file and the place.
pub fn parse_arguments_from(file: &std::path::Path, text: &str) -> crate::Result<Sent> {
    read_arguments(file, text, true)
}

/// [`parse_arguments`] for the arguments text of a whole call ([`envelope::Envelope::text`]),
/// read exactly once: OpenAI's `arguments` string was decoded already, so a JSON string in it
/// (an object encoded twice) is the arguments the application gets, a string, the model's
/// error (`--coerce json` may read it as the object, with its note).
pub fn parse_call_arguments(text: &str) -> crate::Result<Sent> {
    read_arguments(std::path::Path::new("arguments"), text, false)
}

/// Reads `text` as [`parse_arguments_from`] does; `decode_string` says whether a JSON string
/// holding an object's text is that text to read, as a bare arguments text may be.
fn read_arguments(file: &std::path::Path, text: &str, decode_string: bool) -> crate::Result<Sent> {
    let limits = Limits::default();
    // The parser's "empty file" would be wrong for a `--call ''` given on the command line.
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Ok(Sent::Empty);
    }
    let value = match crate::json::parse_str(file, text, limits, 0) {
        Ok(v) => v,
        Err(e) => return out_of_range(text, &e, limits.max_depth).ok_or(e),
    };
    Ok(match value {
        Value::String(inner) if decode_string && holds_object_text(&inner) => {
            let inner_file = std::path::Path::new("the arguments text");
            match crate::json::parse_str(inner_file, &inner, limits, 0) {
                Ok(v) => Sent::Value(v),
                Err(e) => {
                    out_of_range(&inner, &e, limits.max_depth).unwrap_or_else(|| Sent::NotJson {
                        error: e.to_string(),
                        text: inner,
                    })
                }
            }
        }
        v => Sent::Value(v),
    })
}

/// Whether the text inside a bare arguments string is an object's text to decode: it starts
/// with `{`, after white space and byte order marks (U+FEFF). The arguments of a whole call
/// are decoded past a leading one ([`crate::json::parse_str`] skips it), so the same string
/// pasted alone must be too, and reach the same verdict (trial 70 D10); the parse then says
/// what the rest is.
fn holds_object_text(inner: &str) -> bool {
    inner
        .trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
        .starts_with('{')
}

impl ArgsReport<'static> {
    /// The report for [`Sent::NotJson`]: one problem at the root (keyword `json`), so that
    /// the model is told to send the whole object again; the arguments are `null` and the
    /// text as sent is kept.
    pub fn not_json(text: &str, error: &str) -> ArgsReport<'static> {
        Self::whole(
            text,
            String::new(),
            "json",
            "one complete JSON object",
            format!(
                "(the arguments object): the arguments are not valid JSON ({error}); send \
                 them again as one complete JSON object."
            ),
        )
    }

    /// The report for [`Sent::NumberOutOfRange`]: one problem at the number (keyword
    /// `number-range`); the arguments are `null` and the text as sent is kept.
    pub fn number_out_of_range(text: &str, pointer: &str, number: &str) -> ArgsReport<'static> {
        let place = if pointer.is_empty() {
            "(the arguments object)"
        } else {
            pointer
        };
        Self::whole(
            text,
            pointer.to_string(),
            "number-range",
            "a number within a 64-bit float's range (magnitude below about 1.8e308)",
            format!(
                "{place}: the number {} is too large for a 64-bit float (the largest is \
                 about 1.8e308), so it cannot be read as sent; send a number within that range.",
                crate::json::shown_number(number)
            ),
        )
    }

    /// The report for [`Sent::TooDeep`]: one problem at the root (keyword `nesting`), naming
    /// the limit; the arguments are `null` and the text as sent is kept.
    pub fn too_deep(text: &str, at: &str, max_depth: usize) -> ArgsReport<'static> {
        Self::whole(
            text,
            String::new(),
            "nesting",
            format!("arguments nested at most {max_depth} levels deep"),
            format!(
                "(the arguments object): the arguments nest deeper than {max_depth} levels \
                 ({at}), more than can be read to check them; send them again with less \
                 nesting."
            ),
        )
    }

    /// The report for [`Sent::Empty`]: one problem at the root (keyword `json`); the
    /// arguments are `null` and the text as sent is the empty text.
    pub fn empty() -> ArgsReport<'static> {
        Self::whole(
            "",
            String::new(),
            "json",
            "one complete JSON object",
            "(the arguments object): the arguments are empty (no JSON text at all); send them \
             again as one complete JSON object."
                .to_string(),
        )
    }

    /// A report of one problem whose arguments could not be read: `null`, with `text` as sent
    /// in [`ArgsReport::arguments_text`].
    fn whole(
        text: &str,
        pointer: String,
        keyword: &'static str,
        expected: impl Into<Cow<'static, str>>,
        message: String,
    ) -> ArgsReport<'static> {
        ArgsReport {
            arguments: Cow::Owned(Value::Null),
            arguments_text: Some(text.to_string()),
            problems: vec![Problem {
                pointer,
                keyword: Cow::Borrowed(keyword),
                expected: expected.into(),
                message,
            }],
            coercions: Vec::new(),
            absent_nulls: Vec::new(),
        }
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

/// Why numeric coercion left `text` a string where a number or integer is declared: `""`
/// when neither is declared (the plain "is a string" says it all).
fn uncoerced_number(text: &str, declared: jsonschema::JsonTypeSet) -> &'static str {
    if !(declared.contains(JsonType::Number) || declared.contains(JsonType::Integer)) {
        return "";
    }
    match serde_json::from_str::<serde_json::Number>(text.trim()) {
        // Numeric text all the same (`"1e400"`): the model is to be told what is wrong with it.
        Err(e) if e.to_string().starts_with("number out of range") => {
            " holding a number past the range of a 64-bit float (the largest is about 1.8e308)"
        }
        Err(_) => " that is not numeric text",
        // It was read; what failed is another keyword of another alternative.
        Ok(_) if parse_number(text.trim(), declared).is_some() => "",
        // Every whole number is read (`parse_number`): what is left has a fraction.
        Ok(_) => " holding a number that is not a whole number",
    }
}

/// Why JSON-text coercion left `text` a string where an array or object is declared: `""`
/// when neither is declared, or the text was read (another keyword failed).
fn uncoerced_json(text: &str, declared: jsonschema::JsonTypeSet) -> &'static str {
    if !(declared.contains(JsonType::Array) || declared.contains(JsonType::Object)) {
        return "";
    }
    let t = text.trim();
    if !(t.starts_with('[') || t.starts_with('{')) {
        return "";
    }
    match crate::json::parse_str(std::path::Path::new("argument"), t, Limits::default(), 0) {
        Err(crate::Error::Input { problem, .. }) if problem.contains("nesting deeper") => {
            " holding JSON nested deeper than 512 levels"
        }
        Err(_) => " that is not valid JSON text",
        Ok(_) => "",
    }
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
    // A whole number with a point or an exponent (`"1e22"`, the form `args` asks for an
    // integer past 2^64) is held to what its JSON number is: the float read, which type
    // `integer` takes. Within the 64-bit integers it becomes the integer it exactly is; a
    // number read inexactly is a `number-precision` problem all the same (`inexact_numbers`),
    // and stays the float it is read as, which the problem and its note name: as an integer
    // it was shown as another exact number (trial 59 D8: "-9223372036854775809" as
    // -9223372036854775808, the float's value).
    let f = n.as_f64()?;
    if f.fract() != 0.0 {
        return None;
    }
    if !crate::json::inexact_numbers(t).is_empty() {
        return Some(Value::Number(n));
    }
    Some(if (i64::MIN as f64..i64::MAX as f64).contains(&f) {
        Value::from(f as i64)
    } else if (0.0..u64::MAX as f64).contains(&f) {
        Value::from(f as u64)
    } else {
        Value::Number(n)
    })
}

/// One problem's message, written in one buffer: `{place}: {what}; expected {expected}.`
/// (`args` is on the hot path of every tool call a host validates, so no `format!` per part).
struct Sentence(String);

impl Sentence {
    fn at(pointer: &str) -> Sentence {
        Sentence::with_room(pointer, 96)
    }

    /// A sentence with room for `room` more bytes after the place.
    fn with_room(pointer: &str, room: usize) -> Sentence {
        let mut s = String::with_capacity(pointer.len().max(22) + 2 + room);
        // Argument names are the model's text: a line break in one must not start a line of
        // the retry message that reads as another numbered problem.
        s.push_str(&crate::report::escape_inline(&place(pointer)));
        s.push_str(": ");
        Sentence(s)
    }

    fn text(&mut self, t: &str) -> &mut Sentence {
        self.0.push_str(t);
        self
    }

    fn value(&mut self, v: &Value) -> &mut Sentence {
        push_short_value(&mut self.0, v);
        self
    }

    /// Ends the sentence with what the schema expects there. A schema accepting any value
    /// ([`ANY_VALUE`], `{}`, `true`, BFCL's `type: "any"`) ends it saying so: "expected any
    /// value" read as if some particular value were wanted.
    fn expected(mut self, expected: &str) -> String {
        if expected == ANY_VALUE {
            self.0.push_str("; any value is accepted.");
            return self.0;
        }
        self.0.push_str("; expected ");
        self.0.push_str(expected);
        self.0.push('.');
        self.0
    }
}

/// Appends the decimal digits of `n`.
fn push_u64(out: &mut String, n: u64) {
    if n >= 10 {
        push_u64(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// Appends a number as JSON writes it.
fn push_number(out: &mut String, n: &serde_json::Number) {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => push_u64(out, u),
        (None, Some(i)) => {
            out.push('-');
            push_u64(out, i.unsigned_abs());
        }
        _ => {
            use std::fmt::Write;
            let _ = write!(out, "{n}");
        }
    }
}

/// `head` followed by a count and `unit`, plural when the count is not 1.
fn with_count(head: &str, n: u64, unit: &str) -> String {
    let mut s = String::with_capacity(head.len() + unit.len() + 8);
    s.push_str(head);
    push_u64(&mut s, n);
    s.push(' ');
    s.push_str(unit);
    s.push_str(plural(n));
    s
}

/// The `number-precision` problem of the number written `written` at `pointer`, read as
/// `read_as` ([`crate::json::inexact_numbers`]), which the keyword `by` may judge by digits the
/// float does not hold: a JSON number of the call ([`ArgsReport::cannot_vouch_for`]) or
/// numeric text coerced to a number (`by` `None` where none does), which is judged as what it
/// was read as just the same.
///
/// An integer written in full whose float spells its digits (10000000000000000000000, read as
/// 1e+22) is told the exponent form of the same number, which is read by its digits, not by
/// its size. No other number is named: no spelling of a number read as another value is read
/// exactly, and a rounded one named was a different number the model sent and args then
/// passed (trial 70 D3), so the problem says that no call holding it can be checked.
///
/// A long number is quoted shortened ([`crate::json::shown_number`]): a million digits quoted
/// whole make a megabyte retry message.
fn precision_problem(
    pointer: &str,
    written: &str,
    read_as: &serde_json::Number,
    by: Option<&str>,
) -> Problem {
    let place = place(pointer);
    let form = crate::json::exponent_form(written, read_as);
    let written = crate::json::shown_number(written);
    let judged = by.map_or_else(String::new, |k| {
        format!(", and the verdict of `{k}` here may rest on digits the float does not hold")
    });
    let unchecked = "no spelling of this number is read exactly, so no call holding it can be \
                     checked here.";
    let message = match form {
        Some((form, true)) => format!(
            "{place}: the number {written} cannot be checked as written: an integer written in \
             full is checked as sent only from -2^63 to 2^64-1, and past that as a 64-bit \
             float (this one as {read_as}); send the same number in exponent form, \
             `{form}`."
        ),
        Some(_) => format!(
            "{place}: the number {written} cannot be checked as written: an integer written in \
             full is checked as sent only from -2^63 to 2^64-1, and past that as a 64-bit \
             float (this one as {read_as}, whose digits are not those sent){judged}; \
             {unchecked}"
        ),
        None => format!(
            "{place}: the number {written} cannot be checked as sent: it is read as {read_as} (a \
             64-bit float){judged}; {unchecked}"
        ),
    };
    Problem {
        message,
        pointer: pointer.to_string(),
        keyword: Cow::Borrowed("number-precision"),
        expected: Cow::Borrowed(crate::json::EXACT_NUMBERS),
    }
}

impl ArgsSchema {
    /// Appends our problem(s) for one crate error. `required` and `additionalProperties`
    /// errors name one argument each, so one error can give several problems.
    ///
    /// `coerce` is what the caller allowed: a string left unconverted under numeric coercion
    /// says why (not numeric text, or not a whole number), so the model is not told only
    /// "is a string" about text the host would have read.
    fn problems_for(&self, e: &ValidationError<'_>, coerce: Coercions, out: &mut Vec<Problem>) {
        let at = e.instance_path().as_str();
        let found = e.instance().as_ref();
        let kind = e.kind();
        match kind {
            ValidationErrorKind::Required { property } => {
                let name = property
                    .as_str()
                    .map_or_else(|| property.to_string(), str::to_string);
                // The engine's check of `properties`, `additionalProperties: false` and
                // `required` in one pass counts only declared members as present, so it calls
                // an undeclared member missing that the call sends (trial 67 D2); that member
                // is refused as undeclared already.
                if found.as_object().is_some_and(|o| o.contains_key(&name)) {
                    return;
                }
                let pointer = pointer_to(at, &name);
                // Asked outside the memo: the schemas the validator passed on its way to this
                // `required` (a reference to it) apply too, and differ by the way it came.
                let unsatisfiable = self.schema_place(e).is_some_and(|place| {
                    place.at.rsplit_once('/').is_some_and(|(at, _)| {
                        let evaluated = self.evaluated_owner(e, at, 1);
                        self.requires_and_refuses(at, evaluated.as_deref(), &name)
                    })
                });
                let expected = if unsatisfiable {
                    members::unsatisfiable(&name)
                } else {
                    self.memo(e, &name, |owner| {
                        let place = self.schema_place(e);
                        let at = place.as_ref().and_then(|p| Some(p.at.rsplit_once('/')?.0));
                        if let Some(p) = owner
                            .and_then(|s| s.get("properties"))
                            .and_then(|p| p.get(&name))
                        {
                            return unions::described(self.ref_root(e), p);
                        }
                        match at.map(|at| (self.given(at, &name), at)) {
                            Some((Given::Nothing, _)) => expected_for(&Value::Bool(false)),
                            Some((_, at)) if self.refused_above(at, &name) => {
                                expected_for(&Value::Bool(false))
                            }
                            Some((Given::One(s), _)) => unions::described(self.ref_root(e), s),
                            Some((Given::Patterns(keys), _)) => {
                                members::expected_of_keys(self.ref_root(e), &keys)
                            }
                            Some((Given::Untold, _)) | None => {
                                self.undeclared_accepts(e, &name).to_string()
                            }
                        }
                    })
                };
                let mut m = Sentence::at(&pointer);
                m.text("required argument is missing");
                out.push(Problem {
                    message: m.expected(&expected),
                    pointer,
                    keyword: Cow::Borrowed("required"),
                    expected: Cow::Owned(expected),
                });
                return;
            }
            ValidationErrorKind::AnyOf { context } => {
                return self.union_problems(e, "anyOf", context, coerce, out);
            }
            ValidationErrorKind::OneOfNotValid { context } => {
                return self.union_problems(e, "oneOf", context, coerce, out);
            }
            ValidationErrorKind::AdditionalProperties { unexpected }
            | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
                let unevaluated = matches!(kind, ValidationErrorKind::UnevaluatedProperties { .. });
                // `unevaluatedProperties` also counts the members the applicators beside it
                // declare (2020-12 core §11.3): those are the object's arguments too.
                let owner_at = self
                    .schema_place(e)
                    .and_then(|p| Some(p.at.rsplit_once('/')?.0.to_string()));
                let in_place: Vec<&str> = match &owner_at {
                    Some(o) if unevaluated => declared_in_place(self.lookup_root(), o),
                    _ => Vec::new(),
                };
                let expected = self.memo(e, "", |owner| {
                    let mut declared: Vec<String> = owner
                        .and_then(|s| s.get("properties"))
                        .and_then(Value::as_object)
                        .map(|p| {
                            p.keys()
                                .map(|k| format!("`{}`", crate::report::escape_inline(k)))
                                .collect()
                        })
                        .unwrap_or_default();
                    for k in &in_place {
                        let k = format!("`{}`", crate::report::escape_inline(k));
                        if !declared.contains(&k) {
                            declared.push(k);
                        }
                    }
                    if declared.is_empty() {
                        let nothing_in_place = owner_at
                            .as_ref()
                            .is_some_and(|o| declared_in_place(self.lookup_root(), o).is_empty());
                        owner
                            .and_then(|o| no_arguments(o, kind.keyword(), nothing_in_place))
                            .unwrap_or("no other arguments here")
                            .to_string()
                    } else {
                        format!("only the declared arguments {}", list(&declared, 12))
                    }
                });
                let declared = lookalike::Declared::new(
                    self.keyword_owner(e)
                        .and_then(|s| s.get("properties"))
                        .and_then(Value::as_object)
                        .into_iter()
                        .flat_map(|p| p.keys().map(String::as_str)),
                );
                // `additionalProperties` sees only its object's own `properties` (and
                // `patternProperties`): a member a subschema beside declares is refused all
                // the same, and "not a declared argument" would be false.
                let beside = match &owner_at {
                    Some(owner) if !unevaluated => {
                        members::declared_beside(self.lookup_root(), owner)
                    }
                    _ => Vec::new(),
                };
                let evaluated = owner_at
                    .as_ref()
                    .and_then(|o| self.evaluated_owner(e, o, 1));
                // Members an `unevaluatedProperties` schema (not `false`) refuses by their
                // value: said after the loop, by what that value fails.
                let mut by_value: Vec<&String> = Vec::new();
                let schema_beside = unevaluated && self.unevaluated_is_schema(e);
                for name in unexpected {
                    // A key the engine reads otherwise than ECMA-262 may place it: not known
                    // to be undeclared, and the warning names it unchecked (trial 57 D4).
                    if self.unchecked_key_may_match(e, name) {
                        continue;
                    }
                    let pointer = pointer_to(at, name);
                    let declared_at = members::declaring(&beside, name);
                    // Required too: "leave it out" would send the model back to "required
                    // argument is missing"; only the schema can change (trial 67 D3).
                    if owner_at
                        .as_ref()
                        .is_some_and(|o| self.requires_and_refuses(o, evaluated.as_deref(), name))
                    {
                        let expected = members::unsatisfiable(name);
                        let mut m = Sentence::at(&pointer);
                        match &declared_at {
                            Some(places) => m.text(&members::declared_unseen(
                                name,
                                places,
                                self.keyword_owner(e),
                            )),
                            None => m
                                .text("`")
                                .text(&crate::report::escape_inline(name))
                                .text("` is not a declared argument"),
                        };
                        out.push(Problem {
                            message: m.expected(&expected),
                            pointer,
                            keyword: static_keyword(kind),
                            expected: Cow::Owned(expected),
                        });
                        continue;
                    }
                    if let Some(places) = &declared_at {
                        let expected = members::refused_though_declared(name);
                        let mut m = Sentence::at(&pointer);
                        m.text(&members::declared_unseen(
                            name,
                            places,
                            self.keyword_owner(e),
                        ))
                        .text(", so it refuses every value of `")
                        .text(&crate::report::escape_inline(name))
                        .text("`; leave it out (expected ")
                        .text(&expected)
                        .text(").");
                        out.push(Problem {
                            message: m.0,
                            pointer,
                            keyword: static_keyword(kind),
                            expected: Cow::Owned(expected),
                        });
                        continue;
                    }
                    // Accepted by name: only the value can be wrong (`unevaluated`).
                    if schema_beside && !in_place.contains(&name.as_str()) {
                        by_value.push(name);
                        continue;
                    }
                    let mut m = Sentence::with_room(&pointer, name.len() + expected.len() + 60);
                    m.text("`").text(&crate::report::escape_inline(name));
                    // Declared by a part of the schema these arguments do not meet (a failed
                    // `allOf` branch, an `anyOf` no branch of which holds): "leave it out"
                    // would drop an argument; the object's other problems are the fix (trial
                    // 55 D6).
                    if in_place.contains(&name.as_str()) {
                        m.text(
                            "` is declared only in a part of the schema these arguments do not \
                             meet, so it counts as undeclared here; correct the object's other \
                             problems rather than leaving it out (expected ",
                        );
                    } else {
                        m.text("` is not a declared argument; ");
                        // A name that prints like a declared one: "leave it out" would drop an
                        // argument the call meant to send.
                        match declared.like(name) {
                            Some((like, how)) => m
                                .text(&lookalike::clause(name, like, how))
                                .text("; send the declared name instead (expected "),
                            None => m.text("leave it out (expected "),
                        };
                    }
                    m.text(&expected).text(").");
                    out.push(Problem {
                        message: m.0,
                        pointer,
                        keyword: static_keyword(kind),
                        expected: Cow::Owned(expected.clone()),
                    });
                }
                if let Some(refused) = ArgsSchema::refused_members(e, &by_value)
                    && !refused.is_empty()
                {
                    self.unevaluated_problems(e, &refused, coerce, out);
                }
                return;
            }
            // The items an `unevaluatedItems` schema refuses by their value; `false` refuses
            // every such item, whatever it is, and is said below.
            ValidationErrorKind::UnevaluatedItems { unexpected }
                if self.unevaluated_is_schema(e) =>
            {
                match self.refused_items(e, unexpected) {
                    Some(refused) => self.unevaluated_problems(e, &refused, coerce, out),
                    None => self.unevaluated_items_refused(e, unexpected, out),
                }
                return;
            }
            _ => {}
        }
        let mut m = Sentence::at(at);
        let (keyword, expected): (&'static str, Cow<'static, str>) = match kind {
            ValidationErrorKind::Type { kind: types } => {
                if found.is_null() {
                    // "null is null" says nothing: the value is there, of no allowed type.
                    m.text("null is not allowed here");
                } else {
                    m.value(found).text(" is ").text(kind_of(found));
                    if let Value::String(text) = found {
                        let declared = declared_types(e);
                        if coerce.numeric_text {
                            m.text(uncoerced_number(text, declared));
                        }
                        if coerce.json_text {
                            m.text(uncoerced_json(text, declared));
                        }
                    }
                }
                let owner = self.keyword_owner(e).and_then(Value::as_object);
                let expected = match types {
                    _ if crossed(owner) => Cow::Borrowed(TYPE_ENUM_CROSSED),
                    TypeKind::Single(t) => Cow::Borrowed(type_with_article(*t)),
                    TypeKind::Multiple(ts) => {
                        let names: Vec<&str> = ts.iter().map(type_with_article).collect();
                        Cow::Owned(names.join(" or "))
                    }
                };
                ("type", expected)
            }
            ValidationErrorKind::Enum { options } => {
                m.value(found).text(" is not an allowed value");
                let mut expected = String::with_capacity(64);
                expected.push_str("one of ");
                let owner = self.keyword_owner(e).and_then(Value::as_object);
                let opts: Vec<(usize, &Value)> =
                    admitted(owner, options.as_array().map_or(&[][..], Vec::as_slice));
                if opts.is_empty() {
                    ("enum", NO_ALLOWED_VALUE.into())
                } else if crossed(owner) {
                    ("enum", TYPE_ENUM_CROSSED.into())
                } else {
                    let place = self.schema_place(e);
                    push_list(&mut expected, &opts, 10, |out, &(i, v)| {
                        let at = place.as_ref().map(|p| format!("{}/{i}", p.at));
                        self.push_schema_value(out, at.as_deref(), v);
                    });
                    ("enum", expected.into())
                }
            }
            ValidationErrorKind::Constant { expected_value } => {
                m.value(found).text(" is not the one allowed value");
                let place = self.schema_place(e);
                let path = place.as_ref().map(|p| p.at.as_ref());
                let expected = self.with_schema_number("exactly ", path, expected_value);
                ("const", expected.into())
            }
            ValidationErrorKind::Minimum { limit } => {
                m.value(found).text(" is too small");
                let place = self.schema_place(e);
                let path = place.as_ref().map(|p| p.at.as_ref());
                (
                    "minimum",
                    self.with_schema_number("at least ", path, limit).into(),
                )
            }
            ValidationErrorKind::Maximum { limit } => {
                m.value(found).text(" is too large");
                let place = self.schema_place(e);
                let path = place.as_ref().map(|p| p.at.as_ref());
                (
                    "maximum",
                    self.with_schema_number("at most ", path, limit).into(),
                )
            }
            ValidationErrorKind::ExclusiveMinimum { limit } => {
                m.value(found).text(" is too small");
                let place = self.schema_place(e);
                let path = place.as_ref().map(|p| p.at.as_ref());
                (
                    "exclusiveMinimum",
                    self.with_schema_number("more than ", path, limit).into(),
                )
            }
            ValidationErrorKind::ExclusiveMaximum { limit } => {
                m.value(found).text(" is too large");
                let place = self.schema_place(e);
                let path = place.as_ref().map(|p| p.at.as_ref());
                (
                    "exclusiveMaximum",
                    self.with_schema_number("less than ", path, limit).into(),
                )
            }
            ValidationErrorKind::MultipleOf { multiple_of } => {
                let place = self.schema_place(e);
                let path = place.as_ref().map(|p| p.at.as_ref());
                let expected = match self.written_at(path, &Value::from(*multiple_of)) {
                    Some(token) => format!("a multiple of {token}"),
                    None => format!("a multiple of {multiple_of}"),
                };
                m.value(found).text(" is not ").text(&expected);
                ("multipleOf", expected.into())
            }
            ValidationErrorKind::MinLength { limit } => {
                m.value(found).text(" is too short");
                (
                    "minLength",
                    with_count("at least ", *limit, "character").into(),
                )
            }
            ValidationErrorKind::MaxLength { limit } => {
                m.value(found).text(" is too long");
                (
                    "maxLength",
                    with_count("at most ", *limit, "character").into(),
                )
            }
            ValidationErrorKind::MinItems { limit } => {
                m.text("the list is too short");
                ("minItems", with_count("at least ", *limit, "item").into())
            }
            ValidationErrorKind::MaxItems { limit } => {
                m.text("the list is too long");
                ("maxItems", with_count("at most ", *limit, "item").into())
            }
            ValidationErrorKind::MinProperties { limit } => {
                m.text(TOO_FEW_MEMBERS);
                (
                    "minProperties",
                    with_count("at least ", *limit, "member").into(),
                )
            }
            ValidationErrorKind::MaxProperties { limit } => {
                m.text("the object has too many members");
                (
                    "maxProperties",
                    with_count("at most ", *limit, "member").into(),
                )
            }
            ValidationErrorKind::BacktrackLimitExceeded { .. }
            | ValidationErrorKind::RegexEngineFailure { .. } => {
                // Where the engine gave up is the error's schema path (its `pattern`, or the
                // `patternProperties` key's subschema); the instance path is the value's only
                // where the match was made while collecting errors: under `not`, `contains`,
                // `if`, `oneOf` or `propertyNames` it was made while only asking whether the
                // schema holds, and the crate then names the value it started from (trial 59
                // D19, D4: said as a `patternProperties` problem of the arguments object).
                let path = self
                    .schema_place(e)
                    .map(|p| self.declared_place(&p.at).into_owned())
                    .unwrap_or_default();
                match path.strip_suffix("/pattern") {
                    _ if found.is_string() => {
                        out.push(gave_up(at, found, self.declared_pattern(e)));
                    }
                    Some(owner) if !owner.ends_with("/patternProperties") => {
                        out.extend(self.pattern_given_up(e, at, found, owner));
                    }
                    _ => {
                        let owner = path.rfind("/patternProperties").map(|i| &path[..i]);
                        let objects: Vec<(String, &Value)> = match owner {
                            Some(owner) if at.is_empty() => subjects(at, found, owner)
                                .unwrap_or_default()
                                .into_iter()
                                .filter_map(|s| match s {
                                    Subject::Value(p, v) => Some((p, v)),
                                    Subject::Name(..) => None,
                                })
                                .collect(),
                            _ => vec![(at.to_string(), found)],
                        };
                        out.extend(self.keys_given_up(e, at, &objects));
                    }
                }
                return;
            }
            ValidationErrorKind::Pattern { pattern } => {
                m.value(found).text(" does not match");
                let mut expected = String::from("text matching the regular expression `");
                expected.push_str(self.declared_pattern(e).unwrap_or(pattern));
                expected.push('`');
                ("pattern", expected.into())
            }
            ValidationErrorKind::Format { format } => {
                let mut expected = String::from("a valid ");
                expected.push_str(format);
                m.value(found).text(" is not ").text(&expected);
                ("format", expected.into())
            }
            ValidationErrorKind::UniqueItems => {
                m.text("the list repeats an item");
                ("uniqueItems", "items that are all different".into())
            }
            ValidationErrorKind::Contains => {
                // `minContains` and `maxContains` fail as this kind too, the schema path ending
                // in the keyword that failed: `maxContains` alone (no `minContains`) also for
                // no item matching, since `minContains` is then 1.
                let owner = self.keyword_owner(e);
                // `minContains`, `maxContains` and `dependentRequired` came with 2019-09:
                // earlier drafts ignore them, as the validator does (draft-07 validation
                // §6.4.6 has `contains` alone; trial 58 D1: draft-07's ignored `maxContains: 0`
                // was said to admit no array).
                let since_2019 = !matches!(
                    jsonschema::Draft::Draft202012.detect(&self.declared),
                    jsonschema::Draft::Draft4
                        | jsonschema::Draft::Draft6
                        | jsonschema::Draft::Draft7
                );
                let place = self.schema_place(e);
                let owner_path = place.as_ref().and_then(|p| p.at.rsplit_once('/'));
                let bound = |k: &str| {
                    let v = owner.filter(|_| since_2019)?.get(k)?;
                    let at = owner_path.map(|(o, _)| format!("{o}/{k}"));
                    contains::Count::read(v, self.written_at(at.as_deref(), v))
                };
                let (min, max) = (bound("minContains"), bound("maxContains"));
                let keyword = e.schema_path().as_str().rsplit('/').next();
                // How many items match, where the `contains` schema compiles on its own.
                let matching = || {
                    let uri = self.union_uri(e)?;
                    let contains = format!("{}contains", uri.strip_suffix("maxContains")?);
                    let v = self.branch_validator(&contains)?;
                    Some(found.as_array()?.iter().filter(|i| v.is_valid(i)).count() as u64)
                };
                let too_many = |n: contains::Count, count: u64| {
                    let verb = if n.n == 1 { "matches" } else { "match" };
                    format!("more than {n} {} {verb} ({count} do)", items(n.n))
                };
                match (keyword, min, max) {
                    (Some("minContains"), Some(n), _) if n.n > 1 => {
                        m.text(&format!("fewer than {n} items match"))
                    }
                    (Some("maxContains"), _, Some(n)) => match matching() {
                        // `maxContains` alone fails for no match too (`minContains` is 1).
                        Some(0) if min.is_none() => m.text("no item matches"),
                        Some(count) => m.text(&too_many(n, count)),
                        None if min.is_some() => {
                            m.text(&format!("more than {n} {} match", items(n.n)))
                        }
                        None => m.text(&format!("no item matches, or more than {n} do")),
                    },
                    _ => m.text("no item matches"),
                };
                let reader = contains::Reader {
                    root: self.ref_root(e),
                    dependent_required: since_2019,
                };
                let expected = self.memo(e, "", |owner| {
                    let how_many = match (min.unwrap_or(contains::Count::ONE), max) {
                        // `maxContains: 0` beside the default `minContains` of 1 (trial 57
                        // D2: "expected from 1 to 0 items").
                        (l, Some(h)) if l.n > h.n => {
                            let default = if min.is_none() { ", its default" } else { "" };
                            return format!(
                                "no array at all: its `maxContains` ({h}) is below its \
                                 `minContains` ({l}{default}), so the schema, not the call, must change"
                            );
                        }
                        (l, None) if l.n == 1 => "at least one".to_string(),
                        (l, None) => format!("at least {l}"),
                        (l, Some(h)) if l.n == 0 => format!("at most {h}"),
                        (l, Some(h)) if l.n == h.n => format!("exactly {l}"),
                        (l, Some(h)) => format!("from {l} to {h}"),
                    };
                    let one = how_many.ends_with(" one") || how_many.ends_with(" 1");
                    let (item, is, meets) = if one {
                        ("item", "is", "meets")
                    } else {
                        ("items", "are", "meet")
                    };
                    // The contains schema with its bounds and the rest of what it asks, as far
                    // as words say it; the rest named, never left out as if the item were free
                    // of it (trial 50 D16, 57 D2).
                    let said = owner.and_then(|s| s.get("contains")).map(|c| reader.said(c));
                    match said {
                        // No item matches, so a count of at least one is never met.
                        Some(s) if s.none => format!(
                            "no array at all: its `contains` schema matches no item ({}), so the \
                             schema, not the call, must change",
                            s.text
                        ),
                        Some(s) if s.whole => format!("{how_many} {item} that {is} {}", s.text),
                        Some(s) if !s.vague() => format!(
                            "{how_many} {item} that {is} {}, and that {meets} the rest of the \
                             array's `contains` schema",
                            s.text
                        ),
                        _ => {
                            let matches = if one { "matches" } else { "match" };
                            format!("{how_many} {item} that {matches} the array's `contains` schema")
                        }
                    }
                });
                let failed = match keyword {
                    Some("minContains") => "minContains",
                    Some("maxContains") => "maxContains",
                    _ => "contains",
                };
                (failed, expected.into())
            }
            ValidationErrorKind::FalseSchema => {
                m.text("this argument is not allowed");
                match self.false_member_required(e) {
                    // "leave it out" would send the model back to "required argument is
                    // missing"; only the schema can change (trial 67 D3).
                    Some(name) => ("false", members::unsatisfiable(&name).into()),
                    None => {
                        m.text("; leave it out");
                        ("false", "no value here".into())
                    }
                }
            }
            ValidationErrorKind::Not { .. } => {
                m.value(found).text(" is excluded");
                ("not", "a value the schema's `not` does not match".into())
            }
            ValidationErrorKind::OneOfMultipleValid { .. } => {
                m.value(found).text(" matches more than one alternative");
                ("oneOf", "a value matching exactly one alternative".into())
            }
            ValidationErrorKind::PropertyNames { error } => {
                m.text("the member name ")
                    .value(error.instance())
                    .text(" is not allowed");
                (
                    "propertyNames",
                    "member names the schema's `propertyNames` allows".into(),
                )
            }
            ValidationErrorKind::UnevaluatedItems { .. }
            | ValidationErrorKind::AdditionalItems { .. } => {
                m.text("the list has extra items");
                let kw = if matches!(kind, ValidationErrorKind::UnevaluatedItems { .. }) {
                    "unevaluatedItems"
                } else {
                    "additionalItems"
                };
                (kw, "no items beyond the declared ones".into())
            }
            other => {
                let kw = static_keyword(other);
                m.value(found).text(" fails `").text(&kw).text("`");
                let expected = format!("a value satisfying `{kw}`");
                out.push(Problem {
                    message: m.expected(&expected),
                    pointer: at.to_string(),
                    keyword: kw,
                    expected: expected.into(),
                });
                return;
            }
        };
        out.push(Problem {
            message: m.expected(&expected),
            pointer: at.to_string(),
            keyword: Cow::Borrowed(keyword),
            expected,
        });
    }

    /// Appends the problems of the members or items `refused` of the object or list of `e`,
    /// which its `unevaluatedProperties` or `unevaluatedItems` schema refuses by their value:
    /// the problems of each value under that schema, at their places, as a declared member's
    /// are said ([`ArgsSchema::unevaluated_errors`]). One none is found for (its errors cannot
    /// be had again) is said to fail that schema, with the schema described.
    fn unevaluated_problems(
        &self,
        e: &ValidationError<'_>,
        refused: &unevaluated::Refused,
        coerce: Coercions,
        out: &mut Vec<Problem>,
    ) {
        let at = e.instance_path().as_str();
        let keyword = static_keyword(e.kind());
        let start = out.len();
        for sub in self.unevaluated_errors(e, refused).unwrap_or_default() {
            self.problems_for(&sub, coerce, out);
        }
        for (token, found) in refused {
            let pointer = pointer_to(at, token);
            let below = |p: &Problem| {
                p.pointer
                    .strip_prefix(pointer.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
            };
            if out[start..].iter().any(below) {
                continue;
            }
            let expected = self.unevaluated_expected(e);
            let mut m = Sentence::at(&pointer);
            m.value(found)
                .text(" does not match the `")
                .text(&keyword)
                .text("` schema");
            out.push(Problem {
                message: m.expected(&expected),
                pointer,
                keyword: keyword.clone(),
                expected: Cow::Owned(expected),
            });
        }
    }

    /// Appends one problem at the list of `e`, an `unevaluatedItems` error whose keyword is a
    /// schema, when the items it refuses cannot be told by their index
    /// ([`ArgsSchema::refused_items`]): the values the validator names (`unexpected`, JSON
    /// text) and the schema they fail. "No items beyond the declared ones" would be false: an
    /// item that schema accepts is allowed.
    fn unevaluated_items_refused(
        &self,
        e: &ValidationError<'_>,
        unexpected: &[String],
        out: &mut Vec<Problem>,
    ) {
        let at = e.instance_path().as_str();
        let expected = self.unevaluated_expected(e);
        let mut m = Sentence::at(at);
        m.text("items beyond the declared ones do not match the `unevaluatedItems` schema (");
        push_list(
            &mut m.0,
            unexpected,
            5,
            |out, item| match serde_json::from_str::<Value>(item) {
                Ok(v) => push_short_value(out, &v),
                Err(_) => out.push_str(item),
            },
        );
        m.text(")");
        out.push(Problem {
            message: m.expected(&expected),
            pointer: at.to_string(),
            keyword: Cow::Borrowed("unevaluatedItems"),
            expected: Cow::Owned(expected),
        });
    }

    /// What the `unevaluatedProperties` or `unevaluatedItems` schema of `e` accepts, in words.
    fn unevaluated_expected(&self, e: &ValidationError<'_>) -> String {
        self.keyword_owner(e)
            .and_then(|o| o.get(e.kind().keyword()))
            .map_or_else(
                || SOME_VALUE.to_string(),
                |s| unions::described(self.ref_root(e), s),
            )
    }

    /// Adds a problem for every place where a string meets a `pattern` the regex engine gave
    /// up on and no problem names it yet: the crate leaves such a match out when the call has
    /// other problems (see the `undecided` module).
    fn undecided_problems(&self, arguments: &Value, problems: &mut Vec<Problem>) {
        if self.fancy.is_empty() {
            return;
        }
        for u in self.fancy.undecided(self.lookup_root(), arguments) {
            if problems
                .iter()
                .any(|p| p.pointer == u.pointer && p.keyword == "pattern")
            {
                continue;
            }
            let found = arguments.pointer(&u.pointer).unwrap_or(&Value::Null);
            problems.push(gave_up(&u.pointer, found, Some(&u.pattern)));
        }
    }

    /// The name of the member a `false` schema `e` refuses, where it is a `properties` entry
    /// or a `patternProperties` key's schema and its object also requires that member
    /// ([`ArgsSchema::requires_and_refuses`]).
    fn false_member_required(&self, e: &ValidationError<'_>) -> Option<String> {
        let place = self.schema_place(e)?;
        let (members, _) = place.at.rsplit_once('/')?;
        let (owner, keyword) = members.rsplit_once('/')?;
        if !matches!(keyword, "properties" | "patternProperties") {
            return None;
        }
        let (_, token) = e.instance_path().as_str().rsplit_once('/')?;
        let name = token.replace("~1", "/").replace("~0", "~");
        let evaluated = self.evaluated_owner(e, owner, 2);
        self.requires_and_refuses(owner, evaluated.as_deref(), &name)
            .then_some(name)
    }

    /// The schema object holding the error's keyword.
    fn keyword_owner(&self, e: &ValidationError<'_>) -> Option<&Value> {
        parent_schema(self.lookup_root(), &self.schema_place(e)?.at)
    }

    /// What the member `name` that the `required` error `e` misses accepts, its owner having
    /// no `properties` entry for it ([`accepts_undeclared`]); [`SOME_VALUE`] where the owner's
    /// place is unknown.
    fn undeclared_accepts(&self, e: &ValidationError<'_>, name: &str) -> &'static str {
        match self.schema_place(e) {
            Some(place) => match place.at.rsplit_once('/') {
                Some((owner, _)) => accepts_undeclared(self.lookup_root(), owner, name),
                None => SOME_VALUE,
            },
            None => SOME_VALUE,
        }
    }

    /// The schema object a `$ref` beside the error's keyword is read in: the resource holding
    /// the keyword (a fragment names a place in it), the whole schema unless an `$id` below
    /// the root declares one.
    fn ref_root(&self, e: &ValidationError<'_>) -> &Value {
        let root = self.lookup_root();
        self.schema_place(e)
            .and_then(|p| resolve_pointer(root, &p.at[..p.resource]))
            .unwrap_or(root)
    }

    /// Where the error's keyword is in the compiled schema: its schema path, unless a
    /// subschema below the root declares an `$id`, whose keywords the validator names by
    /// their path inside that resource; `None` when that place cannot be told.
    fn schema_place<'e>(&self, e: &'e ValidationError<'_>) -> Option<resources::Place<'e>> {
        match &self.resources {
            None => Some(resources::Place {
                at: Cow::Borrowed(e.schema_path().as_str()),
                resource: 0,
            }),
            Some(r) => r.place(e.absolute_keyword_location()?.as_str()),
        }
    }

    /// The problems of a `patternProperties` key the engine gave up on while matching the
    /// member names of `objects` (each with its place): one at each member whose name a key
    /// gives up on again (each key as [`compat`] compiles it), naming the key, and the
    /// object's at `at`, naming none, where that cannot be found again. A member name need not
    /// match a key, so none is said to (trial 58 D15: the object was said to be "expected text
    /// matching the schema's regular expression", though the key's subschema was `false`).
    /// At most [`MAX_RETRIED`] matches are tried again, and the names left untried are counted
    /// in a problem of their own, as a give-up may be among them (trial 59 D14: 32 names tried
    /// at most, "(32 problems)" for 100 names the engine gave up on, the other 68 unsaid).
    fn keys_given_up(
        &self,
        e: &ValidationError<'_>,
        at: &str,
        objects: &[(String, &Value)],
    ) -> Vec<Problem> {
        let keys: Vec<&String> = self
            .schema_place(e)
            .and_then(|p| {
                let path = self.declared_place(&p.at);
                let owner = &path[..path.rfind("/patternProperties")?];
                resolve_pointer(&self.declared, owner)?
                    .get("patternProperties")?
                    .as_object()
                    .map(|keys| keys.keys().collect())
            })
            .unwrap_or_default();
        let checks: Vec<(&String, Validator)> = keys
            .into_iter()
            .take(MAX_KEYS_RETRIED)
            .filter_map(|key| Some((key, crate::schema::ecma::engine_check(key)?)))
            .collect();
        let mut out = Vec::new();
        let mut tried = 0;
        let mut untried: u64 = 0;
        for (object, value) in objects {
            let Some(members) = value.as_object() else {
                continue;
            };
            for name in members.keys() {
                if tried + checks.len() > MAX_RETRIED {
                    untried += 1;
                    continue;
                }
                tried += checks.len();
                for (key, check) in &checks {
                    if gives_up(check, name) {
                        let pointer = pointer_to(object, name);
                        let mut m = Sentence::at(&pointer);
                        m.text("the regular expression engine gave up matching the member name against the `patternProperties` key `")
                            .text(key)
                            .text("` (it reached its backtracking limit), so whether that key's schema applies to it is unknown");
                        out.push(undecided_name(
                            pointer,
                            m,
                            "patternProperties",
                            "a member name the engine can decide".into(),
                        ));
                    }
                }
            }
        }
        if untried > 0 {
            let mut m = Sentence::at(at);
            m.text("the regular expression engine was not tried again on ")
                .text(&with_count("", untried, "more member name"))
                .text(" against the `patternProperties` keys (toolwire tries at most ")
                .text(&MAX_RETRIED.to_string())
                .text(" matches again), so whether it gives up on them too is unknown");
            out.push(undecided_name(
                at.to_string(),
                m,
                "patternProperties",
                "member names the engine can decide".into(),
            ));
        }
        if out.is_empty() {
            let mut m = Sentence::at(at);
            m.text("the regular expression engine gave up matching a member name against a `patternProperties` key (it reached its backtracking limit), so which members the keys apply to is unknown");
            out.push(undecided_name(
                at.to_string(),
                m,
                "patternProperties",
                "member names the engine can decide".into(),
            ));
        }
        out
    }

    /// The problems of the `pattern` at `owner` + `/pattern` in the declared schema that the
    /// engine gave up on, where the error names no string (`found` at `at` is where the crate
    /// started asking whether a schema holds): each text below `found` that the schema path
    /// leads to ([`subjects`]; every string and member name there where the path cannot be
    /// followed) and that the pattern gives up on again is said as a plain `pattern`'s
    /// give-up, or a `propertyNames` one at the member; the place's, naming no text, where
    /// none is found again.
    fn pattern_given_up(
        &self,
        e: &ValidationError<'_>,
        at: &str,
        found: &Value,
        owner: &str,
    ) -> Vec<Problem> {
        let pattern = self.declared_pattern(e);
        let below = if at.is_empty() {
            Some(owner)
        } else {
            // Located at an object: only `propertyNames` matches member names of it.
            owner.rfind("/propertyNames").map(|i| &owner[i..])
        };
        let found_all = below.and_then(|b| subjects(at, found, b));
        let candidates = found_all.unwrap_or_else(|| every_text(at, found));
        let mut out = Vec::new();
        let mut untried = 0;
        if let Some(check) = pattern.and_then(crate::schema::ecma::engine_check) {
            for (i, s) in candidates.iter().enumerate() {
                if i >= MAX_RETRIED {
                    untried += 1;
                    continue;
                }
                match s {
                    Subject::Value(p, v) => {
                        if v.as_str().is_some_and(|t| gives_up(&check, t)) {
                            out.push(gave_up(p, v, pattern));
                        }
                    }
                    Subject::Name(p, name) => {
                        if gives_up(&check, name) {
                            out.push(name_gave_up(&pointer_to(p, name), pattern.unwrap_or("")));
                        }
                    }
                }
            }
        }
        if out.is_empty() || untried > 0 {
            let mut m = Sentence::at(at);
            if untried > 0 {
                m.text("the regular expression engine was not tried again on ")
                    .text(&with_count("", untried as u64, "more text"))
                    .text(" here (toolwire tries at most ")
                    .text(&MAX_RETRIED.to_string())
                    .text(" matches again), so whether it gives up on them too is unknown");
            } else {
                m.text("the regular expression engine gave up matching a text here (it reached its backtracking limit), so whether it matches is unknown");
            }
            let mut expected = String::from("text matching the regular expression `");
            expected.push_str(pattern.unwrap_or("?"));
            expected.push('`');
            let mut message = m.expected(&expected);
            message.pop();
            message.push_str(" (a shorter or simpler value may let the engine decide).");
            out.push(Problem {
                message,
                pointer: at.to_string(),
                keyword: Cow::Borrowed("pattern"),
                expected: Cow::Owned(expected),
            });
        }
        out
    }

    /// The `pattern` beside the keyword of `e` as the schema declares it, not as it was
    /// compiled (`\\0` is compiled as `\\x00`, see [`compat`]): the text the model wrote
    /// against.
    fn declared_pattern(&self, e: &ValidationError<'_>) -> Option<&str> {
        parent_schema(
            &self.declared,
            &self.declared_place(&self.schema_place(e)?.at),
        )?
        .get("pattern")?
        .as_str()
    }

    /// Whether a `patternProperties` key beside the keyword of `e` that the engine cannot read
    /// as ECMA-262 does ([`compat::unchecked_patterns`]) may match the member `name`
    /// ([`crate::schema::ecma::may_match`]): the member is then not known to be undeclared.
    fn unchecked_key_may_match(&self, e: &ValidationError<'_>, name: &str) -> bool {
        if self.unchecked.is_empty() {
            return false;
        }
        let Some(place) = self.schema_place(e) else {
            return false;
        };
        parent_schema(&self.declared, &self.declared_place(&place.at))
            .and_then(|owner| owner.get("patternProperties"))
            .and_then(Value::as_object)
            .is_some_and(|keys| {
                keys.keys().any(|key| {
                    crate::schema::ecma::unsupported(key).is_some()
                        && crate::schema::ecma::may_match(key, name)
                })
            })
    }

    /// The place in the declared schema of `path`, a place in the compiled one: the same but
    /// for a `patternProperties` key the compiled copy spells otherwise (see [`compat`]).
    fn declared_place<'p>(&self, path: &'p str) -> Cow<'p, str> {
        match &self.rewritten {
            Some(_) => compat::declared_pointer(&self.declared, path),
            None => Cow::Borrowed(path),
        }
    }

    /// The schema the validator compiled: what the errors' schema paths point into.
    fn lookup_root(&self) -> &Value {
        self.rewritten.as_ref().unwrap_or(&self.declared)
    }

    /// The expected-text of an error that depends only on where its keyword sits and on
    /// `name` (the list of declared arguments, the alternatives of an `anyOf`, the type of a
    /// missing argument): made once per keyword place and name by `make` from the keyword's
    /// owner, then reused.
    fn memo(
        &self,
        e: &ValidationError<'_>,
        name: &str,
        make: impl FnOnce(Option<&Value>) -> String,
    ) -> String {
        let Some(place) = self.schema_place(e) else {
            return make(None);
        };
        let path = place.at.as_ref();
        // A schema path never holds a NUL, so the key is unambiguous.
        let mut key = String::with_capacity(path.len() + 1 + name.len());
        key.push_str(path);
        key.push('\0');
        key.push_str(name);
        let mut memo = self
            .expected_memo
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(text) = memo.get(key.as_str()) {
            return text.clone();
        }
        let text = make(self.keyword_owner(e));
        memo.insert(key.into_boxed_str(), text.clone());
        text
    }
}

/// The problem for a `pattern` match the regex engine gave up on (its backtracking limit): the
/// value is neither said to match nor to fail, and the pattern is named when known.
fn gave_up(pointer: &str, found: &Value, pattern: Option<&str>) -> Problem {
    let mut m = Sentence::at(pointer);
    m.text("the regular expression engine gave up on ")
        .value(found)
        .text(" (it reached its backtracking limit), so whether it matches is unknown");
    let expected = match pattern {
        Some(p) => {
            let mut e = String::from("text matching the regular expression `");
            e.push_str(p);
            e.push('`');
            e
        }
        None => "text matching the schema's regular expression".to_string(),
    };
    let mut message = m.expected(&expected);
    message.pop();
    message.push_str(" (a shorter or simpler value may let the engine decide).");
    Problem {
        message,
        pointer: pointer.to_string(),
        keyword: Cow::Borrowed("pattern"),
        expected: Cow::Owned(expected),
    }
}

/// How many `patternProperties` keys [`ArgsSchema::keys_given_up`] tries again.
const MAX_KEYS_RETRIED: usize = 32;

/// How many matches [`ArgsSchema::keys_given_up`] and [`ArgsSchema::pattern_given_up`] try
/// again: each try may run to the engine's backtracking limit. As many as a retry message
/// lists ([`crate::explain::MAX_PROBLEMS`]).
const MAX_RETRIED: usize = crate::explain::MAX_PROBLEMS;

/// Whether the engine gives up matching `text` with the `pattern` of `check`
/// ([`crate::schema::ecma::engine_check`]).
fn gives_up(check: &Validator, text: &str) -> bool {
    check.iter_errors(&Value::from(text)).any(|e| {
        matches!(
            e.kind(),
            ValidationErrorKind::BacktrackLimitExceeded { .. }
                | ValidationErrorKind::RegexEngineFailure { .. }
        )
    })
}

/// The problem of the member name at `pointer` that the engine gave up matching against the
/// `propertyNames` `pattern` (trial 59 D4: said as a `patternProperties` key's problem).
fn name_gave_up(pointer: &str, pattern: &str) -> Problem {
    let mut m = Sentence::at(pointer);
    m.text("the regular expression engine gave up matching the member name against the `propertyNames` pattern `")
        .text(pattern)
        .text("` (it reached its backtracking limit), so whether it matches is unknown");
    let mut expected = String::from("a member name matching the regular expression `");
    expected.push_str(pattern);
    expected.push('`');
    undecided_name(pointer.to_string(), m, "propertyNames", expected.into())
}

/// A problem of a member name the engine could not decide against a regular expression of
/// `keyword`, said by `m`.
fn undecided_name(
    pointer: String,
    m: Sentence,
    keyword: &'static str,
    expected: Cow<'static, str>,
) -> Problem {
    let mut message = m.expected(&expected);
    message.pop();
    message.push_str(" (a shorter or simpler name may let it decide).");
    Problem {
        message,
        pointer,
        keyword: Cow::Borrowed(keyword),
        expected,
    }
}

/// A text a regular expression is matched against: a string value at its place, or a member
/// name with its object's place.
enum Subject<'v> {
    Value(String, &'v Value),
    Name(String, &'v str),
}

/// What the subschema at `path` (a schema path, read from the schema the error's value `found`,
/// at `at`, is checked against) applies to below `found`: the values, or the member names below a
/// `propertyNames`, each with its place. `None` where a token is not one this follows (a
/// `$defs` entry reached through a `$ref` names no place in the value).
fn subjects<'v>(at: &str, found: &'v Value, path: &str) -> Option<Vec<Subject<'v>>> {
    let mut values: Vec<(String, &Value)> = vec![(at.to_string(), found)];
    let mut names: Option<Vec<(String, &str)>> = None;
    let mut tokens = path
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .peekable();
    let members = |values: Vec<(String, &'v Value)>| -> Vec<(String, &'v Value)> {
        values
            .into_iter()
            .filter_map(|(p, v)| Some((p, v.as_object()?)))
            .flat_map(|(p, m)| m.iter().map(move |(k, v)| (pointer_to(&p, k), v)))
            .collect()
    };
    let items = |values: Vec<(String, &'v Value)>, only: Option<usize>| {
        values
            .into_iter()
            .filter_map(|(p, v)| Some((p, v.as_array()?)))
            .flat_map(|(p, a)| {
                a.iter()
                    .enumerate()
                    .filter(move |(i, _)| only.is_none_or(|o| o == *i))
                    .map(move |(i, v)| (pointer_to(&p, &i.to_string()), v))
            })
            .collect::<Vec<_>>()
    };
    while let Some(t) = tokens.next() {
        match (t.as_str(), names.is_some()) {
            ("not" | "if" | "then" | "else", _) => {}
            ("allOf" | "anyOf" | "oneOf", _) => {
                tokens.next()?;
            }
            ("dependentSchemas" | "dependencies", false) => {
                tokens.next()?;
            }
            ("properties", false) => {
                let k = tokens.next()?;
                values = values
                    .into_iter()
                    .filter_map(|(p, v)| Some((pointer_to(&p, &k), v.as_object()?.get(&k)?)))
                    .collect();
            }
            ("patternProperties", false) => {
                tokens.next()?;
                values = members(values);
            }
            ("additionalProperties" | "unevaluatedProperties", false) => values = members(values),
            ("prefixItems", false) => {
                let i = tokens.next()?.parse().ok()?;
                values = items(values, Some(i));
            }
            ("items", false) => {
                let i = tokens.peek().and_then(|t| t.parse::<usize>().ok());
                if i.is_some() {
                    tokens.next();
                }
                values = items(values, i);
            }
            ("additionalItems" | "unevaluatedItems" | "contains", false) => {
                values = items(values, None);
            }
            ("propertyNames", false) => {
                names = Some(
                    values
                        .iter()
                        .filter_map(|(p, v)| Some((p, v.as_object()?)))
                        .flat_map(|(p, m)| m.keys().map(move |k| (p.clone(), k.as_str())))
                        .collect(),
                );
            }
            _ => return None,
        }
    }
    Some(match names {
        Some(names) => names
            .into_iter()
            .map(|(p, n)| Subject::Name(p, n))
            .collect(),
        None => values
            .into_iter()
            .map(|(p, v)| Subject::Value(p, v))
            .collect(),
    })
}

/// Every string and member name in `found`, at `at`, for a schema path [`subjects`] cannot
/// follow.
fn every_text<'v>(at: &str, found: &'v Value) -> Vec<Subject<'v>> {
    let mut out = Vec::new();
    let mut stack = vec![(at.to_string(), found)];
    while let Some((p, v)) = stack.pop() {
        match v {
            Value::String(_) => out.push(Subject::Value(p, v)),
            Value::Array(a) => {
                for (i, item) in a.iter().enumerate().rev() {
                    stack.push((pointer_to(&p, &i.to_string()), item));
                }
            }
            Value::Object(m) => {
                for (k, item) in m.iter().rev() {
                    stack.push((pointer_to(&p, k), item));
                }
                for k in m.keys() {
                    out.push(Subject::Name(p.clone(), k));
                }
            }
            _ => {}
        }
    }
    out
}

/// `item` or `items`, for `n` of them.
fn items(n: u64) -> &'static str {
    if n == 1 { "item" } else { "items" }
}

/// What a `minProperties` problem says of the object.
const TOO_FEW_MEMBERS: &str = "the object has too few members";

/// The keyword of `e` when it is an `anyOf` or `oneOf` (none of whose alternatives holds) an
/// alternative of which misses a member of `absent` (pointers into the arguments of nulls
/// treated as absent): a `required` error naming that member, at its object, among the
/// alternative's errors or those of a union nested in it. Read from the validator's errors,
/// not from a problem's words, whose places may be shortened or cut.
fn alternative_missing(e: &ValidationError<'_>, absent: &[String]) -> Option<&'static str> {
    fn misses(errors: &[ValidationError<'_>], absent: &[String]) -> bool {
        errors.iter().any(|be| match be.kind() {
            ValidationErrorKind::Required { property } => property.as_str().is_some_and(|name| {
                let at = crate::json::push_token(be.instance_path().as_str(), name);
                absent.contains(&at)
            }),
            ValidationErrorKind::AnyOf { context }
            | ValidationErrorKind::OneOfNotValid { context } => {
                context.iter().any(|branch| misses(branch, absent))
            }
            _ => false,
        })
    }
    let (keyword, context) = match e.kind() {
        ValidationErrorKind::AnyOf { context } => ("anyOf", context),
        ValidationErrorKind::OneOfNotValid { context } => ("oneOf", context),
        _ => return None,
    };
    (!absent.is_empty() && context.iter().any(|branch| misses(branch, absent))).then_some(keyword)
}

/// Says in each `minProperties` or `anyOf` problem of an object that held nulls treated as absent
/// (`absent`, pointers into the arguments) that a null does not count: the model sent them as
/// members, and "too few members" alone reads as if it had not. An `anyOf` or `oneOf` only
/// where `missing` (places and keywords of [`alternative_missing`]) names it.
fn nulls_not_counted(
    problems: &mut [Problem],
    absent: &[String],
    missing: &HashSet<(String, &'static str)>,
) {
    if absent.is_empty() {
        return;
    }
    let parents: HashSet<String> = absent
        .iter()
        .filter_map(|p| split_last(p).map(|(parent, _)| parent))
        .collect();
    for p in problems.iter_mut().filter(|p| parents.contains(&p.pointer)) {
        let said = match p.keyword.as_ref() {
            "minProperties" => TOO_FEW_MEMBERS,
            // Only where an alternative misses one of those nulls: the rest are refused
            // whatever became of them. The object's value without its nulls (`{}`) would
            // read as the call's.
            keyword @ ("anyOf" | "oneOf")
                if missing
                    .iter()
                    .any(|(at, k)| *at == p.pointer && *k == keyword) =>
            {
                "the object matches none of the alternatives"
            }
            _ => continue,
        };
        let mut m = Sentence::at(&p.pointer);
        m.text(said)
            .text(" (a member sent as null counts as not given)");
        p.message = m.expected(&p.expected);
    }
}

/// Keeps the first of problems that say the same of the same place: two `allOf` branches
/// asking the same (`{type: string}` twice) are one thing for the model to fix, not two.
fn said_once(problems: &mut Vec<Problem>) {
    let mut seen: HashSet<(String, String)> = HashSet::with_capacity(problems.len());
    problems.retain(|p| seen.insert((p.pointer.clone(), p.message.clone())));
}

/// What a missing required member accepts where no schema for it can be told: some value
/// the schema does say something of, elsewhere (an `allOf` beside, `additionalProperties`).
const SOME_VALUE: &str = "a value";

/// Besides the keywords applying to the object itself ([`crate::schema::in_place::IN_PLACE`]:
/// `oneOf` refuses a value two alternatives take), those beside `properties` that can give a
/// member a schema, refuse it, or make its value count otherwise: see [`says_of_members`].
const MEMBER_SCHEMA_KEYWORDS: &[&str] = &[
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
];

/// Whether keyword `k` beside `properties` may say something of a member it does not declare.
fn says_of_members(k: &str) -> bool {
    MEMBER_SCHEMA_KEYWORDS.contains(&k) || crate::schema::in_place::IN_PLACE.contains(&k)
}

/// What the required member `name` of the object schema at `owner` (a pointer into `root`),
/// which has no `properties` entry for it, accepts, as a problem's `expected`: [`ANY_VALUE`]
/// where no keyword gives it a schema: none in the owner, nor in the schemas it is an
/// `anyOf`/`oneOf`/`allOf` alternative of, up to the root or a place the value is reached by
/// (`properties`, `items`, ...), nor in its `allOf`/`oneOf` siblings, which apply too (an
/// `anyOf` sibling does not: the value need satisfy only the owner). Else [`SOME_VALUE`]:
/// one of those says something of it, or the owner is reached otherwise (from `$defs` by a
/// `$ref` whose siblings are not known here, by `then`, `not`, ...).
fn accepts_undeclared(root: &Value, owner: &str, name: &str) -> &'static str {
    let mut at = owner;
    let mut through = None;
    loop {
        if !resolve_pointer(root, at).is_some_and(|s| silent_on(s, name, through)) {
            return SOME_VALUE;
        }
        let Some((parent, last)) = at.rsplit_once('/') else {
            return ANY_VALUE;
        };
        let keyword = parent.rsplit_once('/').map(|(_, k)| k);
        match (keyword, last) {
            (Some(k @ ("anyOf" | "oneOf" | "allOf")), index) => {
                let siblings_silent = k == "anyOf"
                    || resolve_pointer(root, parent)
                        .and_then(Value::as_array)
                        .is_some_and(|all| {
                            all.iter().enumerate().all(|(i, sibling)| {
                                index == i.to_string() || silent_on(sibling, name, None)
                            })
                        });
                if !siblings_silent {
                    return SOME_VALUE;
                }
                at = &parent[..parent.len() - k.len() - 1];
                through = Some(k);
            }
            (Some("properties" | "patternProperties" | "prefixItems" | "items"), _)
            | (
                _,
                "items"
                | "additionalItems"
                | "additionalProperties"
                | "contains"
                | "unevaluatedItems"
                | "unevaluatedProperties",
            ) => return ANY_VALUE,
            _ => return SOME_VALUE,
        }
    }
}

/// Whether `schema` says nothing of the value of its member `name`: no `properties` entry
/// for it and no keyword of [`says_of_members`] but `through` (the alternatives the walk
/// of [`accepts_undeclared`] came up by).
fn silent_on(schema: &Value, name: &str, through: Option<&str>) -> bool {
    match schema {
        Value::Object(o) => {
            o.get("properties").is_none_or(|p| p.get(name).is_none())
                && o.keys()
                    .all(|k| through == Some(k.as_str()) || !says_of_members(k))
        }
        Value::Bool(accepts) => *accepts,
        _ => false,
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

/// The keyword of a built-in error kind (every kind this crate's validators produce).
fn static_keyword(kind: &ValidationErrorKind) -> Cow<'static, str> {
    // `keyword()` borrows from the error, though for every kind but `Custom` (a keyword
    // registered by the caller; this module registers none) it is a literal: find the
    // literal among those that reach here rather than allocate.
    const KNOWN: &[&str] = &[
        "additionalProperties",
        "unevaluatedProperties",
        "pattern",
        "contentEncoding",
        "contentMediaType",
        "$ref",
    ];
    let kw = kind.keyword();
    KNOWN
        .iter()
        .find(|k| **k == kw)
        .map_or_else(|| Cow::Owned(kw.to_string()), |k| Cow::Borrowed(*k))
}

/// `pointer` with one more reference token, escaped (RFC 6901).
fn pointer_to(pointer: &str, token: &str) -> String {
    let mut p = String::with_capacity(pointer.len() + token.len() + 1);
    p.push_str(pointer);
    p.push('/');
    if token.contains(['~', '/']) {
        p.push_str(&crate::json::escape_token(token));
    } else {
        p.push_str(token);
    }
    p
}

/// Appends the first `max` items, comma-separated, then "and N more" (as [`list`]).
fn push_list<T>(out: &mut String, items: &[T], max: usize, mut push: impl FnMut(&mut String, &T)) {
    for (i, item) in items.iter().take(max).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push(out, item);
    }
    if items.len() > max {
        out.push_str(" and ");
        push_u64(out, (items.len() - max) as u64);
        out.push_str(" more");
    }
}

/// The place a problem's message names: the pointer (a long one shortened by
/// [`crate::report::short_pointer`]; [`Problem::pointer`] keeps it whole), or words for the root.
fn place(pointer: &str) -> Cow<'_, str> {
    if pointer.is_empty() {
        "(the arguments object)".into()
    } else {
        crate::report::short_pointer(pointer)
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

/// "a string", "an integer", "an object"... for the JSON types.
fn type_with_article(t: JsonType) -> &'static str {
    match t {
        JsonType::Array => "an array",
        JsonType::Boolean => "a boolean",
        JsonType::Integer => "an integer",
        JsonType::Null => "null",
        JsonType::Number => "a number",
        JsonType::Object => "an object",
        JsonType::String => "a string",
    }
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

/// The member names the in-place applicators of the object schema at `owner` (a pointer into
/// `document`) declare in their `properties` (`allOf`/`anyOf`/`oneOf` branches,
/// `if`/`then`/`else`, `dependentSchemas`, the schemas its `$ref`s, and the `$dynamicRef`s and
/// `$recursiveRef`s nothing can redirect, reach, each read at its own base URI as
/// [`members::declared_beside`] reads it, and theirs in turn, at most 16 deep), which
/// `unevaluatedProperties` counts as evaluated where those parts hold (2020-12 core §11.3: a
/// reference is an in-place applicator too). Not `owner`'s own.
/// Not draft 4-7's schema-form `dependencies` either: the jsonschema crate runs it under every
/// draft, but its `unevaluatedProperties` counts the members `dependentSchemas` declares alone
/// (2019-09 and 2020-12 have no keyword `dependencies`, and draft-07 no
/// `unevaluatedProperties`), so a member declared there is refused where it is met, and
/// "leave it out" is the fix (`resting_above` in repair reads it so too).
fn declared_in_place<'d>(document: &'d Value, owner: &str) -> Vec<&'d str> {
    let mut names: Vec<&str> = Vec::new();
    let mut stack: Vec<(String, usize)> = vec![(owner.to_string(), 0)];
    while let Some((at, depth)) = stack.pop() {
        let Some(o) = resolve_pointer(document, &at).and_then(Value::as_object) else {
            continue;
        };
        if depth > 0
            && let Some(p) = o.get("properties").and_then(Value::as_object)
        {
            for k in p.keys() {
                if !names.contains(&k.as_str()) {
                    names.push(k);
                }
            }
        }
        if depth >= 16 {
            continue;
        }
        for k in ["allOf", "anyOf", "oneOf"] {
            let entries = o.get(k).and_then(Value::as_array).map_or(0, Vec::len);
            stack.extend((0..entries).map(|i| (format!("{at}/{k}/{i}"), depth + 1)));
        }
        for k in ["if", "then", "else"] {
            if o.contains_key(k) {
                stack.push((format!("{at}/{k}"), depth + 1));
            }
        }
        if let Some(m) = o.get("dependentSchemas").and_then(Value::as_object) {
            stack.extend(m.keys().map(|name| {
                let token = crate::json::escape_token(name);
                (format!("{at}/dependentSchemas/{token}"), depth + 1)
            }));
        }
        for k in ["$ref", "$dynamicRef", "$recursiveRef"] {
            if let Some(reference) = o.get(k).and_then(Value::as_str)
                && let Some((_, reached)) = members::reference_target(document, &at, k, reference)
            {
                stack.push((reached, depth + 1));
            }
        }
    }
    let own = resolve_pointer(document, owner)
        .and_then(|o| o.get("properties"))
        .and_then(Value::as_object);
    names.retain(|n| own.is_none_or(|p| !p.contains_key(*n)));
    names
}

/// What a member the `false` keyword `keyword` (`additionalProperties` or
/// `unevaluatedProperties`) of the object schema `owner` refuses expects, where the owner's
/// own `properties` declares no member: no arguments at all, where nothing else declares or
/// places one either (no `patternProperties`, reference, or in-place subschema declaring a
/// member: `nothing_in_place` says [`declared_in_place`] found none), or where
/// `additionalProperties: false` refuses what those declare too (it sees only its own
/// object's `properties` and `patternProperties`). `None` where some member may be accepted:
/// "no other arguments here" says no more than it knows.
fn no_arguments(owner: &Value, keyword: &str, nothing_in_place: bool) -> Option<&'static str> {
    let o = owner.as_object()?;
    if o.get(keyword) != Some(&Value::Bool(false)) {
        return None;
    }
    let none = |k: &str| {
        o.get(k)
            .and_then(Value::as_object)
            .is_none_or(|m| m.is_empty())
    };
    if !none("properties") || !none("patternProperties") {
        return None;
    }
    let placing = [
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
        "dependencies",
        "additionalProperties",
    ];
    if nothing_in_place && placing.iter().all(|k| *k == keyword || !o.contains_key(*k)) {
        return Some("no arguments: this object declares none");
    }
    (keyword == "additionalProperties").then_some(
        "no arguments: this object's own `properties` declares none, and \
         `additionalProperties: false` refuses every other member",
    )
}

/// What an `enum` listing no value its `type` admits expects (an empty `enum` is allowed,
/// 2020-12 validation §6.1.2, and no value is valid there; trial 55 D11: "expected one of ."):
/// nothing a call can send, which the model is told rather than given an empty list.
const NO_ALLOWED_VALUE: &str =
    "no value at all: its `enum` allows none, so the schema, not the call, must change";

/// What a schema whose `type` rules out every member of its `enum` expects ([`crossed`]), at
/// its `enum` and at its `type` alike: told "one of \"101\"" for 101 and "an integer" for
/// "101", a model went back and forth (trial 70 D9, Gemini's documented `{type: INTEGER,
/// enum: ["101"]}`), so it is told that only the schema can change, as for [`NO_ALLOWED_VALUE`].
const TYPE_ENUM_CROSSED: &str = "no value at all: its `type` allows none of its `enum` members, \
                                 so the schema, not the call, must change";

/// Whether the schema `owner` has an `enum` with members its `type` rules out every one of:
/// no value is valid there ([`TYPE_ENUM_CROSSED`]).
fn crossed(owner: Option<&serde_json::Map<String, Value>>) -> bool {
    owner.is_some_and(|o| {
        o.get("enum")
            .and_then(Value::as_array)
            .is_some_and(|m| !m.is_empty() && m.iter().all(|v| crate::json::type_excludes(o, v)))
    })
}

/// What a subschema expects, in a few words.
fn expected_for(schema: &Value) -> String {
    if let Some(c) = schema.get("const") {
        return format!("exactly {}", short_value(c));
    }
    if crossed(schema.as_object()) {
        return TYPE_ENUM_CROSSED.to_string();
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array) {
        let opts: Vec<String> = admitted(schema.as_object(), e)
            .into_iter()
            .map(|(_, v)| short_value(v))
            .collect();
        if opts.is_empty() {
            return NO_ALLOWED_VALUE.to_string();
        }
        return format!("one of {}", list(&opts, 6));
    }
    // The common case, without building the label.
    if let Some(Value::String(t)) = schema.get("type")
        && let Ok(t) = t.parse::<JsonType>()
    {
        return type_with_article(t).to_string();
    }
    let label = type_label(schema);
    if label == "any" && !says_nothing(schema) {
        // Keywords the label has no word for (`allOf`, `not`, `minLength` alone): not any value.
        return "a value".to_string();
    }
    let parts: Vec<String> = label
        .split(" or ")
        .map(|part| match part {
            // `{}`, `true`, a schema of annotations only: "an any" would leak the label.
            "any" => ANY_VALUE.to_string(),
            // `false`: "a nothing" (trial 52 D6); no value is valid there.
            "nothing" => "no value at all (the schema accepts none)".to_string(),
            part => with_article(part),
        })
        .collect();
    parts.join(" or ")
}

/// True when `schema` accepts every value: `true`, or an object of annotations only
/// (`description`, `title`, ...; `x-` extensions; `$`-keywords other than references).
fn says_nothing(schema: &Value) -> bool {
    match schema {
        Value::Bool(accepts) => *accepts,
        Value::Object(keys) => keys.keys().all(|k| annotates(k)),
        _ => false,
    }
}

/// True when the schema keyword `k` only annotates (`description`, `title`, ...; `x-`
/// extensions; `$`-keywords other than references).
fn annotates(k: &str) -> bool {
    crate::profile::rules::ANNOTATIONS.contains(&k)
        || k.starts_with("x-")
        || (k.starts_with('$') && !k.ends_with("Ref") && k != "$ref")
}

/// The `enum` members (with their places in the list) the schema's `type` lets match: a
/// `null` beside `type: string` is never accepted, so offering it would mislead the model.
/// All of them when `type` rules out every one (said as [`TYPE_ENUM_CROSSED`] where a problem
/// is worded).
fn admitted<'v>(
    schema: Option<&serde_json::Map<String, Value>>,
    members: &'v [Value],
) -> Vec<(usize, &'v Value)> {
    let live: Vec<(usize, &Value)> = members
        .iter()
        .enumerate()
        .filter(|(_, v)| !schema.is_some_and(|s| crate::json::type_excludes(s, v)))
        .collect();
    if live.is_empty() {
        members.iter().enumerate().collect()
    } else {
        live
    }
}

/// A value as JSON, cut to 60 characters.
fn short_value(v: &Value) -> String {
    let mut s = String::new();
    push_short_value(&mut s, v);
    s
}

/// Appends [`short_value`] of `v` to `out`.
fn push_short_value(out: &mut String, v: &Value) {
    const MAX: usize = 60;
    // The common cases, written directly: short text that JSON writes as it is, and scalars.
    match v {
        Value::String(t)
            if t.len() <= MAX - 2 && !t.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) =>
        {
            out.push('"');
            out.push_str(t);
            out.push('"');
            return;
        }
        Value::Null => return out.push_str("null"),
        Value::Bool(b) => return out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => return push_number(out, n),
        _ => {}
    }
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
        out.push_str(&s);
    } else {
        out.extend(s.chars().take(MAX - 3));
        out.push_str("...");
    }
}

/// True when the error sits on a value that normalisation may change: a `null` member of an
/// object (maybe an optional argument), or with coercions on, a string where the schema
/// declares another type; for a union, such a value anywhere inside it.
fn normalisable(e: &ValidationError<'_>, coerce: Coercions) -> bool {
    match e.instance().as_ref() {
        Value::Null => e.instance_path().as_str().contains('/'),
        _ if matches!(
            e.kind(),
            ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. }
        ) =>
        {
            // A string anywhere inside may be coerced under a branch, and a null member may be
            // an optional one of an object there.
            (coerce.any() && branches::holds_string(e.instance()))
                || branches::holds_null_member(e.instance())
        }
        Value::String(_) if coerce.any() => {
            let declared = declared_types(e);
            !declared.contains(JsonType::String) && declared != jsonschema::JsonTypeSet::empty()
        }
        _ => false,
    }
}

/// `options` with a check for each `format` in `schema` that a later draft defines but the
/// draft its `$schema` names does not (`uuid` and `duration` before 2019-09, `iri` and
/// `relative-json-pointer` before draft-07, `uri-reference` and `json-pointer` before
/// draft-06), checked as under 2020-12. The validator leaves a format its draft does not know
/// unchecked and says nothing, so a draft-07 tool's `uuid` argument was passed as checked
/// when any text went through; the name means the same to the tool's author whatever the draft.
fn with_later_formats<'i>(
    schema: &Value,
    mut options: jsonschema::ValidationOptions<'i>,
) -> jsonschema::ValidationOptions<'i> {
    use jsonschema::Draft;
    let draft = Draft::Draft202012.detect(schema);
    let mut names = std::collections::BTreeSet::new();
    format_names(schema, &mut names);
    for name in names {
        if options.is_known_format(draft, name)
            || !options.is_known_format(Draft::Draft202012, name)
        {
            continue;
        }
        // The crate's own 2020-12 check of that one format.
        let Ok(check) = jsonschema::options()
            .with_draft(Draft::Draft202012)
            .should_validate_formats(true)
            .build(&serde_json::json!({ "format": name }))
        else {
            continue;
        };
        options = options.with_format(name, move |text: &str| {
            check.is_valid(&Value::String(text.to_string()))
        });
    }
    options
}

/// Every string value of a `format` key in `value`, at any depth (a `format` that is a
/// property's name holds a schema, not a string, and is passed over).
fn format_names<'a>(value: &'a Value, names: &mut std::collections::BTreeSet<&'a str>) {
    match value {
        Value::Object(o) => {
            for (key, v) in o {
                match (key.as_str(), v) {
                    ("format", Value::String(name)) => {
                        names.insert(name);
                    }
                    _ => format_names(v, names),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| format_names(v, names)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    /// A platform holding a call's arguments as text had no call that judged it as `toolwire
    /// args --call TEXT` does (trial 76 D1, D2): text that is not JSON came back as
    /// `Error::Input` ("bad input"), the model's error, and `check_arguments` on the value
    /// passed a number the float read no longer tells from the bound. `check_text` gives the
    /// CLI's report: the CLI now calls it, so both say the same.
    #[test]
    fn arguments_text_is_judged_as_the_cli_judges_it() {
        let schema = json!({"type": "object", "properties": {
            "x": {"type": "number", "maximum": 0.1}, "n": {"type": "integer"}}});
        let s = ArgsSchema::new(&schema).unwrap();
        let problems = |text: &str| -> Vec<(String, String)> {
            let r = s.check_text(text, Coercions::NONE);
            assert_eq!(
                r.problems,
                check_arguments_text(&schema, text, Coercions::NONE)
                    .unwrap()
                    .problems
            );
            r.problems
                .iter()
                .map(|p| (p.keyword.to_string(), p.message.clone()))
                .collect()
        };
        assert!(parse_arguments("I cannot do that").is_err());
        assert_eq!(
            problems("I cannot do that"),
            [(
                "json".to_string(),
                "(the arguments object): the arguments are not valid JSON (the arguments text: \
                 line 1, column 1: expected value (a bare word is not JSON: strings are \
                 quoted)); send them again as one complete JSON object."
                    .to_string()
            )]
        );
        assert_eq!(problems(r#"{"x": 0.05"#)[0].0, "json");
        assert!(problems("  ")[0].1.contains("the arguments are empty"));
        assert_eq!(problems(r#"{"x": 1e400}"#)[0].0, "number-range");
        // Read as 0.1, which `maximum: 0.1` allows: the value alone passes.
        let close = r#"{"x": 0.10000000000000000001}"#;
        let value: Value = serde_json::from_str(close).unwrap();
        assert!(s.check(&value, Coercions::NONE).is_valid());
        assert_eq!(problems(close)[0].0, "number-precision");
        // Numbers are quoted as sent: `1e2`, not serde_json's `100.0`.
        let quoted = problems(r#"{"n": 1.5e0}"#);
        assert!(quoted[0].1.starts_with("/n: 1.5e0 "), "{quoted:?}");
        assert!(problems(r#"{"x": 0.05, "n": 3}"#).is_empty());
        // OpenAI's `arguments` field as sent, a JSON string holding the object's text.
        assert!(problems(r#""{\"n\": 3}""#).is_empty());
    }

    /// `minContains` and `maxContains` failures were said as "no item matches; expected at
    /// least one item ..." (trial 48: `["x","y"]` under `minContains: 2`, and four `"x"` under
    /// `maxContains: 3`): each is said by what it counts, naming its keyword.
    #[test]
    fn contains_counts_are_said_by_what_they_count() {
        let said = |contains: Value, tags: Value| {
            let mut schema = json!({"type": "array", "contains": {"const": "x"}});
            schema
                .as_object_mut()
                .unwrap()
                .extend(contains.as_object().unwrap().clone());
            let s = ArgsSchema::new(&json!({"type": "object", "properties": {"tags": schema}}))
                .unwrap();
            let args = json!({"tags": tags});
            let r = s.check(&args, Coercions::NONE);
            let [p] = r.problems.as_slice() else {
                panic!("{:?}", r.problems)
            };
            (p.message.clone(), p.keyword.to_string())
        };
        let both = json!({"minContains": 2, "maxContains": 3});
        assert_eq!(
            said(both.clone(), json!(["x", "y"])),
            (
                "/tags: fewer than 2 items match; expected from 2 to 3 items that are exactly \"x\"."
                    .to_string(),
                "minContains".to_string()
            )
        );
        assert_eq!(
            said(both, json!(["x", "x", "x", "x"])).0,
            "/tags: more than 3 items match (4 do); expected from 2 to 3 items that are exactly \"x\"."
        );
        // `maxContains` alone fails for no match too: which of the two is said (trial 55 D10:
        // "no item matches, or more than 1 do").
        assert_eq!(
            said(json!({"maxContains": 1}), json!(["x", "x"])).0,
            "/tags: more than 1 item matches (2 do); expected exactly 1 item that is exactly \"x\"."
        );
        assert_eq!(
            said(json!({"maxContains": 1}), json!(["y"])),
            (
                "/tags: no item matches; expected exactly 1 item that is exactly \"x\"."
                    .to_string(),
                "maxContains".to_string()
            )
        );
        assert_eq!(
            said(json!({}), json!(["y"])),
            (
                "/tags: no item matches; expected at least one item that is exactly \"x\"."
                    .to_string(),
                "contains".to_string()
            )
        );
    }

    /// Where each of a report's problems is said, and by which keyword, in order.
    pub(super) fn places<'r>(r: &'r ArgsReport<'_>) -> Vec<(&'r str, &'r str)> {
        r.problems
            .iter()
            .map(|p| (p.pointer.as_str(), p.keyword.as_ref()))
            .collect()
    }

    /// The messages of the problems of a call whose argument `v` holds `items`, under a
    /// schema declaring `v` an array with `contains` as its `contains` schema.
    fn contains_said(contains: Value, items: Value) -> Vec<String> {
        let s = ArgsSchema::new(&json!({"type": "object", "properties": {"v": {
            "type": "array", "contains": contains}}}))
        .unwrap();
        messages(&s, &json!({ "v": items }))
    }

    /// The messages of `args`' problems under `s`, in order.
    fn messages(s: &ArgsSchema, args: &Value) -> Vec<String> {
        let r = s.check(args, Coercions::NONE);
        r.problems.iter().map(|p| p.message.clone()).collect()
    }

    /// The members a contains schema declares are said with their bounds, and an untyped one
    /// (whose `properties` any item but an object matches) is not said to be "an object"
    /// (trial 55 D10: "at least 2 items that are an object" / "an object with `r`", the
    /// `minimum: 10` on `r` left out).
    #[test]
    fn a_contains_schema_is_said_with_its_members_bounds() {
        let said = |contains: Value| {
            let schema = json!({"type": "object", "properties": {"v": {
                "type": "array", "contains": contains, "minContains": 2}}});
            let s = ArgsSchema::new(&schema).unwrap();
            let args = json!({"v": [{"r": 11}, {"r": 1}]});
            messages(&s, &args)
        };
        assert_eq!(
            said(json!({"properties": {"r": {"minimum": 10}}})),
            [
                "/v: fewer than 2 items match; expected at least 2 items that are an object whose `r` (if given) is at least 10, or not an object."
            ]
        );
        assert_eq!(
            said(
                json!({"type": "object", "properties": {"r": {"type": "integer", "minimum": 10}}, "required": ["r"]})
            ),
            [
                "/v: fewer than 2 items match; expected at least 2 items that are an object with `r` whose `r` is an integer at least 10."
            ]
        );
    }

    /// What a contains schema asks is said in full, or the rest of it is named: never words
    /// the call's items already fit (trial 57 D2: an `anyOf`'s bounds, a `not`,
    /// `additionalProperties: false` and `dependentRequired` were left out, `$ref: "#"` was
    /// "a #", and `maxContains: 0` read "from 1 to 0 items").
    #[test]
    fn a_contains_schema_is_said_in_full_or_its_rest_named() {
        let said = |array: Value, items: Value| {
            let mut schema = json!({"type": "object", "$defs": {"K": {"type": "integer"}},
                "properties": {"v": {"type": "array"}}});
            schema["properties"]["v"]
                .as_object_mut()
                .unwrap()
                .extend(array.as_object().unwrap().clone());
            let s = ArgsSchema::new(&schema).unwrap();
            let args = json!({ "v": items });
            let r = s.check(&args, Coercions::NONE);
            let [p] = r.problems.as_slice() else {
                panic!("{:?}", r.problems)
            };
            p.message.clone()
        };
        for (array, items, want) in [
            (
                json!({"contains": {"anyOf": [{"type": "string", "minLength": 3},
                    {"type": "integer", "maximum": 0}]}}),
                json!(["a", 1]),
                "no item matches; expected at least one item that is a string of at least 3 characters or an integer at most 0.",
            ),
            (
                json!({"contains": {"not": {"type": "string"}}}),
                json!(["a"]),
                "no item matches; expected at least one item that is a value that is not a string.",
            ),
            (
                json!({"contains": {"properties": {"r": {"minimum": 10}},
                    "additionalProperties": false}, "minContains": 2}),
                json!([{"r": 11}, {"q": 1}]),
                "fewer than 2 items match; expected at least 2 items that are an object whose `r` (if given) is at least 10, with no members other than `r`, or not an object.",
            ),
            (
                json!({"contains": {"type": "object", "dependentRequired": {"a": ["b"]},
                    "minProperties": 2}}),
                json!([{"a": 1, "c": 2}]),
                "no item matches; expected at least one item that is an object with at least 2 members, with `b` wherever it has `a`.",
            ),
            (
                json!({"contains": {"$ref": "#"}, "maxContains": 1}),
                json!([{}, {}, {"v": []}]),
                "more than 1 item matches (2 do); expected exactly 1 item that is an object whose `v` (if given) is an array, and that meets the rest of the array's `contains` schema.",
            ),
            (
                json!({"contains": {"$ref": "#/$defs/K", "minimum": 5}}),
                json!([1]),
                "no item matches; expected at least one item that is an integer, and that meets the rest of the array's `contains` schema.",
            ),
            (
                json!({"contains": {"type": "object", "properties": {"r": {"type": "integer"}},
                    "additionalProperties": false, "required": ["r"]}}),
                json!([{"r": 1, "s": 2}]),
                "no item matches; expected at least one item that is an object with `r` whose `r` is an integer, with no members other than `r`.",
            ),
            (
                json!({"contains": {"oneOf": [{"minimum": 1}, {"maximum": 3}]}}),
                json!([2]),
                "no item matches; expected at least one item that matches the array's `contains` schema.",
            ),
            (
                json!({"contains": {"type": "integer"}, "maxContains": 0}),
                json!([1]),
                "more than 0 items match (1 do); expected no array at all: its `maxContains` (0) is below its `minContains` (1, its default), so the schema, not the call, must change.",
            ),
        ] {
            assert_eq!(said(array, items), format!("/v: {want}"));
        }
        // Under draft-07, which ignores `dependentRequired`, it is not said to be asked.
        let s = ArgsSchema::new(
            &json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object", "properties": {"v": {"type": "array", "contains":
            {"type": "object", "dependentRequired": {"a": ["b"]}, "minProperties": 2}}}}),
        )
        .unwrap();
        let args = json!({"v": [{}]});
        let r = s.check(&args, Coercions::NONE);
        assert_eq!(
            r.problems[0].message,
            "/v: no item matches; expected at least one item that is an object with at least 2 members, and that meets the rest of the array's `contains` schema."
        );
    }

    /// `minContains`/`maxContains` came with 2019-09: under draft-07, whose validator ignores
    /// them, the message ignores them too (trial 58 D1: draft-07's `maxContains: 0` was said to
    /// admit no array though `[1]` passes, and `minContains: 0` asked for "at least 0 items").
    #[test]
    fn contains_bounds_are_said_only_under_the_drafts_that_have_them() {
        let said = |draft: &str, bounds: Value| {
            let mut v = json!({"type": "array", "contains": {"type": "integer"}});
            v.as_object_mut()
                .unwrap()
                .extend(bounds.as_object().unwrap().clone());
            let s = ArgsSchema::new(&json!({"$schema": draft, "type": "object",
                "properties": {"v": v}}))
            .unwrap();
            let args = json!({"v": ["a"]});
            messages(&s, &args)
        };
        let d7 = "http://json-schema.org/draft-07/schema#";
        let plain = ["/v: no item matches; expected at least one item that is an integer."];
        assert_eq!(said(d7, json!({"maxContains": 0})), plain);
        assert_eq!(said(d7, json!({"minContains": 0})), plain);
        assert_eq!(said(d7, json!({"minContains": 2, "maxContains": 3})), plain);
        // 2019-09 has them.
        assert_eq!(
            said(
                "https://json-schema.org/draft/2019-09/schema",
                json!({"minContains": 2, "maxContains": 3})
            ),
            ["/v: fewer than 2 items match; expected from 2 to 3 items that are an integer."]
        );
    }

    /// A `minContains`/`maxContains` written with a point is the integer it names, as the
    /// validator reads it (trial 58 D11: `minContains: 2.0` and `maxContains: 1.0` were read as
    /// absent, and the message asked for "at least one item that is an integer" of `[1]`).
    #[test]
    fn contains_bounds_written_with_a_point_are_said_as_integers() {
        let said = |bounds: Value, items: Value| {
            let mut v = json!({"type": "array", "contains": {"type": "integer"}});
            v.as_object_mut()
                .unwrap()
                .extend(bounds.as_object().unwrap().clone());
            let s = ArgsSchema::new(&json!({"type": "object", "properties": {"v": v}})).unwrap();
            let args = json!({ "v": items });
            messages(&s, &args)
        };
        assert_eq!(
            said(json!({"minContains": 2.0}), json!([1])),
            ["/v: fewer than 2 items match; expected at least 2 items that are an integer."]
        );
        assert_eq!(
            said(json!({"maxContains": 1.0}), json!([1, 2])),
            ["/v: more than 1 item matches (2 do); expected exactly 1 item that is an integer."]
        );
        assert_eq!(
            said(json!({"maxContains": 0.0}), json!([1])),
            [
                "/v: more than 0 items match (1 do); expected no array at all: its `maxContains` (0) is below its `minContains` (1, its default), so the schema, not the call, must change."
            ]
        );
        // Past 2^64, where the validator caps it, it is said as read, not as 2^64-1.
        let big: Value = serde_json::from_str(r#"{"minContains": 18446744073709551616}"#).unwrap();
        assert_eq!(
            said(big, json!([1])),
            [
                "/v: fewer than 1.8446744073709552e+19 items match; expected at least 1.8446744073709552e+19 items that are an integer."
            ]
        );
    }

    /// What `args` says of an array at `/v` whose `contains` schema matches no item, `why`.
    fn admits_no_array(why: &str) -> [String; 1] {
        [format!(
            "/v: no item matches; expected no array at all: its `contains` schema matches no item ({why}), so the schema, not the call, must change."
        )]
    }

    /// A contains schema no value matches (a `const`/`enum` its own `type` excludes, `false`)
    /// is said to admit no array, not by the value the call's item already is (trial 58 D8:
    /// `{type: string, const: 1}` asked [1] for "at least one item that is exactly 1"); an
    /// `anyOf` branch that matches nothing is left out of the branches said.
    #[test]
    fn a_contains_schema_no_value_matches_is_said_to_admit_no_array() {
        let said = contains_said;
        let none = admits_no_array;
        assert_eq!(
            said(json!({"type": "string", "const": 1}), json!([1])),
            none("its `const` 1 is not a string")
        );
        assert_eq!(
            said(json!({"type": "string", "enum": [1]}), json!([1])),
            none("no member of its `enum` is a string")
        );
        assert_eq!(said(json!(false), json!([1])), none("it is `false`"));
        assert_eq!(
            said(
                json!({"anyOf": [{"type": "string", "const": 1}, {"type": "integer", "minimum": 3}]}),
                json!([1])
            ),
            ["/v: no item matches; expected at least one item that is an integer at least 3."]
        );
        // A type the `enum` has a member of keeps the members it admits.
        assert_eq!(
            said(json!({"type": "integer", "enum": [1, "a"]}), json!([2])),
            ["/v: no item matches; expected at least one item that is one of 1."]
        );
    }

    /// A contains schema no value matches by its crossed bounds, a `not` of every type it
    /// admits or a required member whose schema is `false` is said to admit no array (trial
    /// 59 D7: `{type: integer, not: {type: integer}}` asked for "an integer that is not an
    /// integer"); where a value may still match (another type than the bounds apply to, a
    /// `not` of a narrower type, bounds that meet), it is said as before.
    #[test]
    fn a_contains_schema_crossed_or_ruled_out_is_said_to_admit_no_array() {
        let said = contains_said;
        let none = admits_no_array;
        for (contains, items, why) in [
            (
                json!({"type": "number", "minimum": 5, "maximum": 3}),
                json!([1]),
                "its `minimum` 5 and `maximum` 3 leave no number between them",
            ),
            (
                json!({"type": ["integer", "number"], "exclusiveMinimum": 3, "maximum": 3.0}),
                json!([1]),
                "its `exclusiveMinimum` 3 and `maximum` 3.0 leave no number between them",
            ),
            (
                json!({"type": "string", "minLength": 5, "maxLength": 2}),
                json!(["a"]),
                "its `minLength` 5 and `maxLength` 2 leave no length between them",
            ),
            (
                json!({"type": "array", "minItems": 2.0, "maxItems": 1}),
                json!([[]]),
                "its `minItems` 2.0 and `maxItems` 1 leave no count of items between them",
            ),
            (
                json!({"type": "object", "minProperties": 2, "maxProperties": 1}),
                json!([{}]),
                "its `minProperties` 2 and `maxProperties` 1 leave no count of members between them",
            ),
            (
                json!({"type": "integer", "not": {"type": "integer"}}),
                json!([1]),
                "its `not` rules out every value its `type` allows",
            ),
            (
                json!({"type": "integer", "not": {"type": ["number", "string"]}}),
                json!([1]),
                "its `not` rules out every value its `type` allows",
            ),
            (
                json!({"not": {}}),
                json!([1]),
                "its `not` schema asks nothing, so every value matches it",
            ),
            (
                json!({"type": "object", "required": ["a"], "properties": {"a": false}}),
                json!([{}]),
                "it requires the member `a`, whose schema is `false`",
            ),
        ] {
            assert_eq!(said(contains.clone(), items), none(why), "{contains}");
        }
        // A value may match: each is said by what it asks, not as no array.
        for (contains, items) in [
            (json!({"minimum": 5, "maximum": 3}), json!([1])),
            (
                json!({"type": ["number", "string"], "minimum": 5, "maximum": 3}),
                json!([1]),
            ),
            (
                json!({"type": "number", "minimum": 3, "maximum": 3}),
                json!([1]),
            ),
            (
                json!({"type": "number", "nullable": true, "minimum": 5, "maximum": 3}),
                json!([1]),
            ),
            (
                json!({"type": "number", "not": {"type": "integer"}}),
                json!([1]),
            ),
            (
                json!({"type": "integer", "not": {"type": "integer", "minimum": 0}}),
                json!([1]),
            ),
            (
                json!({"required": ["a"], "properties": {"a": false}}),
                json!([{"a": 1}]),
            ),
            (
                json!({"type": "object", "properties": {"a": false}}),
                json!([{"a": 1}]),
            ),
        ] {
            let got = said(contains.clone(), items);
            assert!(
                got.iter().all(|m| !m.contains("no array at all")),
                "{contains}: {got:?}"
            );
        }
    }

    /// The contains schema was said by its type alone (trial 50 D16: `[1, 6]` against two
    /// integers of at least 5 read "expected exactly 2 items that are an integer", which the
    /// call has): it is said with its bounds, as a union's branch is.
    #[test]
    fn a_contains_schema_is_said_with_its_bounds() {
        let said = |tags: Value, contains: Value, counts: Value| {
            let mut schema = json!({"type": "array", "contains": contains});
            let counts = counts.as_object().unwrap().clone();
            schema.as_object_mut().unwrap().extend(counts);
            let s = ArgsSchema::new(&json!({"type": "object", "properties": {"tags": schema}}))
                .unwrap();
            let args = json!({"tags": tags});
            messages(&s, &args)
        };
        let two = json!({"minContains": 2, "maxContains": 2});
        assert_eq!(
            said(json!([1, 6]), json!({"type": "integer", "minimum": 5}), two),
            [
                "/tags: fewer than 2 items match; expected exactly 2 items that are an integer at least 5."
            ]
        );
        assert_eq!(
            said(
                json!(["a"]),
                json!({"type": "string", "minLength": 3}),
                json!({})
            ),
            [
                "/tags: no item matches; expected at least one item that is a string of at least 3 characters."
            ]
        );
        // A multiple, the members required, a count of items (trial 52 D5: said by type
        // alone, which the call's items already were).
        for (tags, contains, want) in [
            (
                json!([3, 4]),
                json!({"type": "integer", "multipleOf": 2}),
                "fewer than 2 items match; expected at least 2 items that are an integer a multiple of 2.",
            ),
            (
                json!([{}]),
                json!({"type": "object", "required": ["k"]}),
                "no item matches; expected at least one item that is an object with `k`.",
            ),
            (
                json!([[1]]),
                json!({"type": "array", "minItems": 2}),
                "no item matches; expected at least one item that is an array of at least 2 items.",
            ),
        ] {
            let counts = if tags == json!([3, 4]) {
                json!({"minContains": 2})
            } else {
                json!({})
            };
            assert_eq!(said(tags, contains, counts), [format!("/tags: {want}")]);
        }
    }

    /// Definitions that each reference the next twice: refused before the validator compiles
    /// them (it took 6 s and 1.5 GB at 20 levels); a schema under the cap compiles.
    #[test]
    fn a_schema_that_expands_past_the_cap_is_refused_before_compiling() {
        use crate::schema::refs::fixtures::laughs;
        let p = ArgsSchema::new(&laughs(40)).unwrap_err();
        assert!(
            p.message.contains("expands to more than 100000 subschemas"),
            "{}",
            p.message
        );
        assert!(ArgsSchema::new(&laughs(8)).is_ok());
    }

    /// A schema past the cap as written (a trial's 100,000 properties, no `$ref`) is refused
    /// for its own size, without blaming references it does not have.
    #[test]
    fn a_schema_past_the_cap_as_written_is_refused_without_naming_refs() {
        let props: serde_json::Map<String, Value> = (0..MAX_EXPANDED)
            .map(|i| (format!("k{i}"), json!({"type": "integer"})))
            .collect();
        let s = json!({"type": "object", "properties": props, "additionalProperties": false});
        let p = ArgsSchema::new(&s).unwrap_err();
        assert_eq!(
            p.message,
            "the schema has 100002 subschemas as written, more than the 100000 `toolwire args` \
             checks calls against: checking arguments against it would take time and memory in \
             proportion"
        );
        let laughs = ArgsSchema::new(&crate::schema::refs::fixtures::laughs(40)).unwrap_err();
        assert!(
            laughs.message.contains("through its `$ref`s"),
            "{}",
            laughs.message
        );
    }

    /// A problem at the arguments' root is named "(the arguments object)" in the message for
    /// programs (`args --format json`) as in the one for people: with its empty pointer put
    /// in that place, the JSON retry message read "1. : [1,2] is an array; expected an
    /// object." (trial 64 D2). The pointer itself stays RFC 6901's root, `""`.
    #[test]
    fn a_root_problem_names_the_arguments_object_in_the_whole_message() {
        let s =
            ArgsSchema::new(&json!({"type":"object","properties":{"k":{"const":"f"}}})).unwrap();
        let call = json!([1, 2]);
        let checked = s.check(&call, Coercions::NONE);
        let empty = ArgsReport::empty();
        for r in [&checked, &empty] {
            let [p] = r.problems.as_slice() else {
                panic!("{:#?}", r.problems)
            };
            assert_eq!(p.pointer, "");
            assert!(
                p.message.starts_with("(the arguments object): "),
                "{}",
                p.message
            );
            assert_eq!(p.message_whole(), p.message);
            assert_eq!(
                r.retry_message_whole(Some("t"), usize::MAX),
                r.retry_message(Some("t"))
            );
        }
        assert_eq!(
            checked.problems[0].message_whole(),
            "(the arguments object): [1,2] is an array; expected an object."
        );
    }

    /// An argument name is the model's text: a line break in it is escaped in the retry
    /// message, so it cannot forge a numbered problem line.
    #[test]
    fn line_breaks_in_argument_names_are_escaped_in_messages() {
        let s = ArgsSchema::new(
            &json!({"type":"object","properties":{"n":{"type":"integer"}},
            "required":["n"],"additionalProperties":false}),
        )
        .unwrap();
        let args = json!({"\n3. fake: all good": 2, "n": "x"});
        let r = s.check(&args, Coercions::NONE);
        assert_eq!(r.problems.len(), 2, "{:#?}", r.problems);
        for p in &r.problems {
            assert!(!p.message.contains('\n'), "{:?}", p.message);
        }
        assert!(r.problems.iter().any(|p| p.message.contains("/\\n3. fake")));
        // The pointer is data, kept as it is.
        assert!(
            r.problems
                .iter()
                .any(|p| p.pointer == "/\n3. fake: all good")
        );
    }

    /// `$ref: ""` is the document itself, as every command reads it: the validator alone
    /// resolved it to nothing and passed any value.
    #[test]
    fn a_ref_to_the_empty_reference_is_the_document() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{"x":{"$ref":""}}})).unwrap();
        let args = json!({"x":"s"});
        let r = s.check(&args, Coercions::NONE);
        assert_eq!(r.problems.len(), 1, "{:#?}", r.problems);
        assert_eq!(r.problems[0].pointer, "/x");
        assert!(s.check(&json!({"x":{"x":{}}}), Coercions::NONE).is_valid());
    }

    /// Trial 51 D7: a `$ref` naming a `$defs` member with characters RFC 3986 does not allow
    /// raw in a fragment (pydantic's `#/$defs/Città`) was refused, exit 2 at the schema's
    /// root, while `check`, `repair` and `compile` resolve it: resolved now, as written
    /// percent-encoded; what the validator still cannot read is named by its own place.
    #[test]
    fn a_ref_fragment_with_characters_a_uri_escapes_resolves() {
        for name in ["é", "Città", "a b", "a[b]", "a|b", "a{b}", "100%", "x%20y"] {
            let key = name.replace("%20", " ");
            let reference = format!("#/$defs/{name}");
            let schema = json!({"type": "object", "$defs": {key: {"type": "integer"}},
                "properties": {"r": {"$ref": reference}}});
            let compiled = ArgsSchema::new(&schema).unwrap_or_else(|p| panic!("{name}: {p:?}"));
            let sent = json!({"r": "x"});
            let r = compiled.check(&sent, Coercions::NONE);
            assert_eq!(
                r.problems[0].message, r#"/r: "x" is a string; expected an integer."#,
                "{name}"
            );
            assert!(compiled.check(&json!({"r": 1}), Coercions::NONE).is_valid());
        }
        // A `$dynamicRef` the same way (trial 52 D12: refused, exit 2).
        let dynamic = json!({"type": "object", "$defs": {"é": {"type": "integer"}},
            "properties": {"r": {"$dynamicRef": "#/$defs/é"}}});
        let compiled = ArgsSchema::new(&dynamic).unwrap_or_else(|p| panic!("{p:?}"));
        assert!(compiled.check(&json!({"r": 1}), Coercions::NONE).is_valid());
        assert!(
            !compiled
                .check(&json!({"r": "x"}), Coercions::NONE)
                .is_valid()
        );
        let id = json!({"type": "object", "properties": {"r": {"$id": "a b"}}});
        let p = ArgsSchema::new(&id).unwrap_err();
        assert_eq!(p.pointer, "/properties/r/$id", "{}", p.message);
    }

    /// A member a `patternProperties` key the engine reads otherwise than ECMA-262 may match
    /// is not refused as undeclared (trial 57 D4: `{"b": 1}` under `^(?:(a)|b)\1$` and
    /// `additionalProperties: false` was "`b` is not a declared argument; leave it out",
    /// though ECMA-262 matches "b"); one no ECMA-262 reading matches still is.
    #[test]
    fn a_member_an_unchecked_key_may_match_is_not_called_undeclared() {
        let refused = |key: &str, call: Value| {
            let schema = json!({"type": "object", "properties": {"x": {"type": "object",
                "patternProperties": {key: {"type": "integer"}}, "additionalProperties": false}}});
            let s = ArgsSchema::new(&schema).unwrap();
            let r = s.check(&call, Coercions::NONE);
            assert!(!s.unchecked_patterns(&call).is_empty(), "the warning stays");
            r.problems
                .iter()
                .map(|p| p.pointer.clone())
                .collect::<Vec<_>>()
        };
        let key = "^(?:(a)|b)+\\1$";
        assert!(refused(key, json!({"x": {"b": 1}})).is_empty());
        assert!(refused(key, json!({"x": {"aa": 1}})).is_empty());
        assert_eq!(refused(key, json!({"x": {"b": 1, "c": 2}})), ["/x/c"]);
    }

    /// A `pattern` left unchecked decides no refusal, whichever way a keyword turns its match
    /// (trial 59 D13): under `not`, `if` or a `oneOf`, taking it as matching refused "aba",
    /// which ECMA-262 does not match by `^(?:(a)|b){2}\1$` (Node v20: false), so the call
    /// was valid. What the call's other values break is still refused.
    #[test]
    fn an_unchecked_pattern_under_not_if_or_one_of_decides_no_refusal() {
        let p = "^(?:(a)|b){2}\\1$";
        let refused = |s: Value, call: Value| {
            let schema = json!({"type": "object",
                "properties": {"s": s, "n": {"type": "integer"}}});
            let compiled = ArgsSchema::new(&schema).unwrap();
            let r = compiled.check(&call, Coercions::NONE);
            assert_eq!(
                compiled.unchecked_patterns(&call).is_empty(),
                !call["s"].is_string(),
                "the warning stays where the pattern meets a string"
            );
            places(&r)
                .into_iter()
                .map(|(at, k)| format!("{at} {k}"))
                .collect::<Vec<_>>()
        };
        let not = json!({"type": "string", "not": {"pattern": p}});
        let when = json!({"type": "string", "if": {"pattern": p}, "then": {"minLength": 10}});
        let one = json!({"type": "string", "oneOf": [{"pattern": p}, {"maxLength": 5}]});
        for s in [&not, &when, &one] {
            assert!(refused(s.clone(), json!({"s": "aba"})).is_empty(), "{s}");
            assert_eq!(
                refused(s.clone(), json!({"s": "aba", "n": "x"})),
                ["/n type"],
                "{s}"
            );
        }
        // Refused by both readings: not the pattern's doing (`pattern` passes a number, so
        // its `not` refuses one whatever the pattern matches).
        assert_eq!(refused(not, json!({"s": 5})), ["/s type", "/s not"]);
        // Both readings apply the `else` (P and Q both match, then neither), ECMA-262 the
        // `then`: P matches "ab" and Q (P with an `x` before its end) does not (Node: true,
        // false), so the call is valid and the `else` decides nothing.
        let q = "^(?:(a)|b){2}\\1x$";
        let mixed = json!({"type": "string",
            "if": {"allOf": [{"pattern": p}, {"not": {"pattern": q}}]}, "else": {"minLength": 10}});
        assert!(refused(mixed.clone(), json!({"s": "ab"})).is_empty());
        assert_eq!(refused(mixed, json!({"s": "ab", "n": "x"})), ["/n type"]);
        // A keyword that turns no unchecked pattern still refuses beside several of them.
        let beside = json!({"type": "string", "pattern": p,
            "anyOf": [{"pattern": q}, {"minLength": 1}], "oneOf": [{"maxLength": 1}, {"maxLength": 2}]});
        assert_eq!(refused(beside, json!({"s": "b"})), ["/s oneOf"]);
    }

    /// A call that meets an unchecked pattern at one place only is refused when each reading
    /// refuses something the other does not: ECMA-262's truth there is one reading or the
    /// other, and both refuse (trial 61 D1: under `if: {pattern: P}, then: {minLength: 10},
    /// else: {maxLength: 2}`, "aba" was "ok", exit 0, though the `then` refuses it where P
    /// matches and the `else` where it does not). Each problem says the case it holds in.
    #[test]
    fn a_call_both_readings_refuse_at_one_place_is_refused_either_way() {
        let p = "^(?:(a)|b){2}\\1$";
        let s = json!({"type": "string", "if": {"pattern": p},
            "then": {"minLength": 10}, "else": {"maxLength": 2}});
        let check = |schema: &Value, call: Value| {
            let compiled = ArgsSchema::new(schema).unwrap();
            assert!(
                !compiled.unchecked_patterns(&call).is_empty(),
                "the warning stays"
            );
            compiled.check(&call, Coercions::NONE).problems
        };
        let object = json!({"type": "object",
            "properties": {"s": s.clone(), "n": {"type": "integer"}}});
        let matched = format!(
            " (This holds if \"aba\" matches the pattern `{p}` at /properties/s/if/pattern, \
             which was not checked.)"
        );
        let unmatched = format!(
            " (This holds if \"aba\" does not match the pattern `{p}` at \
             /properties/s/if/pattern: either way the arguments are refused.)"
        );
        let d1 = check(&object, json!({"s": "aba"}));
        let said: Vec<(&str, &str, &str, &str)> = d1
            .iter()
            .map(|p| {
                (
                    p.pointer.as_str(),
                    p.keyword.as_ref(),
                    p.expected.as_ref(),
                    p.message.as_str(),
                )
            })
            .collect();
        assert_eq!(
            said,
            [
                (
                    "/s",
                    "minLength",
                    "at least 10 characters",
                    format!("/s: \"aba\" is too short; expected at least 10 characters.{matched}")
                        .as_str()
                ),
                (
                    "/s",
                    "maxLength",
                    "at most 2 characters",
                    format!("/s: \"aba\" is too long; expected at most 2 characters.{unmatched}")
                        .as_str()
                ),
            ]
        );
        // Refused by one reading only: the pattern's doing, undecided as before.
        for call in [json!({"s": "abaaaaaaaaaaa"}), json!({"s": "bb"})] {
            assert!(check(&object, call.clone()).is_empty(), "{call}");
        }
        // A refusal both readings share is said as before, unlabelled, beside the two.
        let beside = check(&object, json!({"s": "aba", "n": "x"}));
        let messages: Vec<&str> = beside.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(messages.len(), 3, "{messages:#?}");
        assert!(messages.contains(&"/n: \"x\" is a string; expected an integer."));
        assert!(
            messages.iter().any(|m| m.ends_with(&matched)),
            "{messages:#?}"
        );
        assert!(
            messages.iter().any(|m| m.ends_with(&unmatched)),
            "{messages:#?}"
        );
        // Met with several strings, the truth may match one and not the other: undecided.
        // The same string at several places has one truth (trial 62 D1), as has one pattern
        // written at several places of the schema.
        let list = json!({"type": "object",
            "properties": {"l": {"type": "array", "items": s.clone()}}});
        assert!(check(&list, json!({"l": ["aba", "bb"]})).is_empty());
        assert_eq!(check(&list, json!({"l": ["aba", "aba"]})).len(), 4);
        assert_eq!(check(&list, json!({"l": ["aba"]})).len(), 2);
        let twice = json!({"type": "object", "properties": {"s": {"type": "string",
            "allOf": [{"pattern": p}, {"if": {"pattern": p}, "then": {"maxLength": 0}}]}}});
        let both = check(&twice, json!({"s": "ab"}));
        let kinds: Vec<&str> = both.iter().map(|q| q.keyword.as_ref()).collect();
        assert_eq!(kinds, ["maxLength", "pattern"], "{both:#?}");
        // A member's name and its value at one place are two strings: P matches "bb" and not
        // "ccccc", where both hold, though each reading refuses one of them.
        let x = json!({"type": "string", "if": {"pattern": p},
            "then": {"maxLength": 3}, "else": {"minLength": 5}});
        let names = json!({"type": "object", "$defs": {"X": x}, "properties": {"x": {
            "type": "object", "propertyNames": {"$ref": "#/$defs/X"},
            "additionalProperties": {"$ref": "#/$defs/X"}}}});
        assert!(check(&names, json!({"x": {"bb": "ccccc"}})).is_empty());
        // Under `propertyNames` the label quotes the member's name, the string the pattern met,
        // not its value's place (trial 62 D7: "if /o/aba matches").
        let keys = json!({"type": "object", "properties": {"o": {"type": "object",
            "propertyNames": {"if": {"pattern": p}, "then": {"maxLength": 2},
                "else": {"minLength": 5}}}}});
        let by_name = check(&keys, json!({"o": {"aba": 1}}));
        assert_eq!(by_name.len(), 2, "{by_name:#?}");
        assert!(
            by_name
                .iter()
                .all(|q| q.message.contains("(This holds if \"aba\" ")),
            "{by_name:#?}"
        );
        // A `pattern` refusal of the reading matching nothing names the declared pattern (that
        // reading's stand-in matches no string).
        let named = json!({"type": "object", "$defs": {"P": {"pattern": p}},
            "properties": {"s": {"type": "string", "allOf": [{"$ref": "#/$defs/P"}],
                "if": {"$ref": "#/$defs/P"}, "then": {"maxLength": 2}}}});
        let refused = check(&named, json!({"s": "aba"}));
        assert_eq!(refused.len(), 2, "{refused:#?}");
        assert_eq!(refused[1].keyword, "pattern");
        assert_eq!(
            refused[1].expected,
            format!("text matching the regular expression `{p}`")
        );
        assert!(refused[1].message.ends_with(&format!(
            " (This holds if \"aba\" does not match the pattern `{p}` at /$defs/P/pattern: \
             either way the arguments are refused.)"
        )));
        // A place shortened in the message is whole in `message_whole`, the label kept.
        let mut deep = object.clone();
        for _ in 0..40 {
            deep = json!({"type": "object", "properties": {"level": deep}});
        }
        let mut call = json!({"s": "aba"});
        for _ in 0..40 {
            call = json!({ "level": call });
        }
        let whole = format!("{}/s", "/level".repeat(40));
        let refused = check(&deep, call);
        assert_eq!(refused.len(), 2, "{refused:#?}");
        let m = refused[0].message_whole();
        assert!(
            m.starts_with(&format!("{whole}: \"aba\" is too short")),
            "{m}"
        );
        assert!(m.ends_with("which was not checked.)"), "{m}");
    }

    /// A union both readings refuse, whose branch tests an unchecked pattern in its `if`, is
    /// said as each reading says it (trial 62 D6: `anyOf: [{if: {pattern: P}, then:
    /// {minLength: 10}, else: {maxLength: 2}}, {type: integer}]` said "aba" "is too short",
    /// unlabelled, the branch of the reading where P matches, as if it were the only one).
    #[test]
    fn a_union_both_readings_refuse_is_said_as_each_reading_says_it() {
        let p = "^(?:(a)|b){2}\\1$";
        let branch = |extra: Value| {
            let mut b = json!({"type": "string", "if": {"pattern": p},
                "then": {"minLength": 10}, "else": {"maxLength": 2}});
            b.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            b
        };
        let said = |union: &str, branches: Value| {
            let schema = json!({"type": "object", "properties": {"s": {union: branches}}});
            let compiled = ArgsSchema::new(&schema).unwrap();
            let call = json!({"s": "aba"});
            assert!(
                !compiled.unchecked_patterns(&call).is_empty(),
                "the warning stays"
            );
            compiled
                .check(&call, Coercions::NONE)
                .problems
                .into_iter()
                .map(|q| q.message)
                .collect::<Vec<_>>()
        };
        let labels = |at: &str| {
            [
                format!(
                    " (This holds if \"aba\" matches the pattern `{p}` at \
                     /properties/s/{at}/if/pattern, which was not checked.)"
                ),
                format!(
                    " (This holds if \"aba\" does not match the pattern `{p}` at \
                     /properties/s/{at}/if/pattern: either way the arguments are refused.)"
                ),
            ]
        };
        for union in ["anyOf", "oneOf"] {
            let [matched, unmatched] = labels(&format!("{union}/0"));
            // The branch the value is meant for, as the top-level `if` says it.
            assert_eq!(
                said(union, json!([branch(json!({})), {"type": "integer"}])),
                [
                    format!("/s: \"aba\" is too short; expected at least 10 characters.{matched}"),
                    format!("/s: \"aba\" is too long; expected at most 2 characters.{unmatched}"),
                ],
                "{union}"
            );
            // Each alternative listed: each reading's list.
            let listed = said(
                union,
                json!([branch(json!({})), {"type": "string", "minLength": 5}]),
            );
            assert_eq!(
                listed,
                [
                    format!(
                        "/s: \"aba\" matches none of the alternatives; expected one of: a string \
                         [/s: at least 10 characters]; a string [/s: at least 5 characters].\
                         {matched}"
                    ),
                    format!(
                        "/s: \"aba\" matches none of the alternatives; expected one of: a string \
                         [/s: at most 2 characters]; a string [/s: at least 5 characters].\
                         {unmatched}"
                    ),
                ],
                "{union}"
            );
            // What one reading alone says more is the pattern's doing: only what both say.
            let mut then_only = branch(json!({"maxLength": 1}));
            then_only.as_object_mut().unwrap().remove("else");
            assert_eq!(
                said(union, json!([then_only, {"type": "integer"}])),
                ["/s: \"aba\" is too long; expected at most 1 character."],
                "{union}"
            );
        }
    }

    /// A `patternProperties` key whose backreference may meet its group unmatched is read as
    /// ECMA-262 reads it, through fancy-regex's conditional, and checked with no warning: a
    /// quantified one was read the engine's way silently (trial 58 D2: `^(?:(a)|b)\1+$` and
    /// `additionalProperties: false` refused `{"b": 1}`, which Node's ECMA-262 matches), and a
    /// named one made the schema bad input (trial 58 D9).
    #[test]
    fn a_key_with_a_backreference_to_an_unmatched_group_is_checked_as_ecma_262_reads_it() {
        for key in [
            "^(?:(a)|b)\\1$",
            "^(?:(a)|b)\\1+$",
            "^(?:(a)|b)\\1{2}$",
            "^(?:(?<n>a)|b)\\k<n>$",
            "^\\1(a)$",
        ] {
            let schema = json!({"type": "object", "properties": {"x": {"type": "object",
                "patternProperties": {key: {"type": "integer"}}, "additionalProperties": false}}});
            let s = ArgsSchema::new(&schema).unwrap_or_else(|e| panic!("{key}: {}", e.message));
            let verdict = |name: &str| {
                let call = json!({"x": {name: 1}});
                assert!(s.unchecked_patterns(&call).is_empty(), "{key}: checked");
                s.check(&call, Coercions::NONE).is_valid()
            };
            // Node: `new RegExp(key, "u").test(name)`, read 2026-12-05.
            let (matched, unmatched) = if key.starts_with("^\\1") {
                ("a", "aa")
            } else {
                ("b", "a")
            };
            assert!(verdict(matched), "{key} on {matched}");
            assert!(!verdict(unmatched), "{key} on {unmatched}");
        }
    }

    /// A `$ref` loop on the same value (`A = not A`) is no schema to check against, and two
    /// branches asking the same thing are one problem (trial 58 D18: every value passed the
    /// `anyOf` and `not` loops, and the `allOf` one listed its problem twice).
    #[test]
    fn a_loop_on_the_same_value_is_bad_input_and_a_problem_is_said_once() {
        for a in [
            json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]}),
            json!({"not": {"$ref": "#/$defs/A"}}),
        ] {
            let schema = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}},
                "$defs": {"A": a}});
            let Err(e) = ArgsSchema::new(&schema) else {
                panic!("{schema} was taken");
            };
            assert!(e.pointer.starts_with("/$defs/A/"), "{}", e.pointer);
            assert!(e.message.contains("comes back to itself"), "{}", e.message);
        }
        let twice = json!({"type": "object", "properties": {"x": {"allOf": [
            {"type": "string"}, {"type": "string"}]}}});
        let s = ArgsSchema::new(&twice).unwrap();
        assert_eq!(s.check(&json!({"x": 1}), Coercions::NONE).problems.len(), 1);
    }

    /// A `patternProperties` key the engine gives up on is said at the member whose name it
    /// gave up on, naming the key, never as text that must match (trial 58 D15: "/x: ... gave
    /// up on {...}; expected text matching the schema's regular expression", keyword `pattern`,
    /// for a key whose subschema is `false`).
    #[test]
    fn a_key_the_engine_gives_up_on_is_said_at_the_member() {
        let key = "^(a)(?:a|a)*\\1$";
        let schema = json!({"type": "object", "properties": {"x": {"type": "object",
            "patternProperties": {key: false}}}});
        let s = ArgsSchema::new(&schema).unwrap();
        let name = format!("{}c", "a".repeat(26));
        let call = json!({"x": {name.clone(): 1, "b": 2}});
        let r = s.check(&call, Coercions::NONE);
        let said = places(&r);
        assert_eq!(said, [(format!("/x/{name}").as_str(), "patternProperties")]);
        let message = &r.problems[0].message;
        assert!(message.contains(&format!("key `{key}`")), "{message}");
        assert!(!message.contains("expected text matching"), "{message}");
    }

    /// Every member name a `patternProperties` key gives up on is said, past the 32 names the
    /// keys were once tried on (trial 59 D14: "(32 problems)" for 100 such names, the others
    /// left out unsaid).
    #[test]
    fn every_name_a_key_gives_up_on_is_counted() {
        let key = "^(a)(?:a|a)*\\1$";
        let schema = json!({"type": "object", "properties": {"x": {"type": "object",
            "patternProperties": {key: false}}}});
        let s = ArgsSchema::new(&schema).unwrap();
        let names: serde_json::Map<String, Value> = (0..34)
            .map(|i| (format!("{}c{i}", "a".repeat(26)), json!(1)))
            .collect();
        let call = json!({"x": names});
        let r = s.check(&call, Coercions::NONE);
        assert_eq!(r.problems.len(), 34);
        assert!(r.problems.iter().all(|p| p.keyword == "patternProperties"));
        assert!(r.retry_message(None).contains("(34 problems)"));
    }

    /// A `pattern` the engine gives up on where the crate only asks whether a schema holds
    /// (under `not`, `contains`, `if`, a `oneOf`) is said at the value, as a plain `pattern`'s
    /// give-up, found again through the error's schema path (trial 59 D19: "(the arguments
    /// object): ... gave up matching a member name against a `patternProperties` key", pointer
    /// "", keyword `patternProperties`).
    #[test]
    fn a_pattern_the_engine_gives_up_on_under_not_or_contains_is_said_at_the_value() {
        let key = "^(a)(?:a|a)*\\1$";
        let text = format!("{}c", "a".repeat(26));
        let under = [
            (
                json!({"type": "string", "not": {"pattern": key}}),
                json!(text),
                "/s",
            ),
            (
                json!({"type": "array", "contains": {"type": "string", "pattern": key}}),
                json!(["b", text]),
                "/s/1",
            ),
            (
                json!({"type": "string", "if": {"pattern": key}, "then": {"maxLength": 1}}),
                json!(text),
                "/s",
            ),
            (
                json!({"type": "string", "oneOf": [{"pattern": key}, {"minLength": 1}]}),
                json!(text),
                "/s",
            ),
        ];
        for (schema, value, at) in under {
            let schema = json!({"type": "object", "properties": {"s": schema}});
            let s = ArgsSchema::new(&schema).unwrap();
            let call = json!({"s": value, "t": text});
            let r = s.check(&call, Coercions::NONE);
            let said = places(&r);
            assert_eq!(said, [(at, "pattern")], "{schema}");
            let message = &r.problems[0].message;
            assert!(
                message.contains(&format!("gave up on \"{text}\"")),
                "{message}"
            );
            assert!(message.contains(&format!("`{key}`")), "{message}");
        }
    }

    /// A `propertyNames` `pattern` the engine gives up on is said at the member, naming the
    /// pattern (trial 59 D4: "/x: ... against a `patternProperties` key", keyword
    /// `patternProperties`, for a schema with none).
    #[test]
    fn a_property_names_pattern_the_engine_gives_up_on_is_said_at_the_member() {
        let key = "^(a)(?:a|a)*\\1$";
        let schema = json!({"type": "object", "properties": {"x": {"type": "object",
            "propertyNames": {"pattern": key}}}});
        let s = ArgsSchema::new(&schema).unwrap();
        let name = format!("{}c", "a".repeat(26));
        let call = json!({"x": {name.clone(): 1}});
        let r = s.check(&call, Coercions::NONE);
        let said = places(&r);
        assert_eq!(said, [(format!("/x/{name}").as_str(), "propertyNames")]);
        let message = &r.problems[0].message;
        assert!(
            message.contains(&format!("`propertyNames` pattern `{key}`")),
            "{message}"
        );
    }

    /// Trial 89 D2: a `$ref` loop or too long a chain inside a definition nothing refers to is
    /// never evaluated, so the call is judged (as `compile`, which drops that definition,
    /// sends the tool); before, `args` refused the schema, exit 2, no verdict. The same loop
    /// reached from a property, and a dangling `$ref` in an unused definition (which `compile`
    /// refuses too), are still refused.
    #[test]
    fn a_broken_ref_no_reference_reaches_leaves_the_call_judged() {
        let v = json!({"v": {"type": "string"}});
        let hops = crate::schema::refs::MAX_REF_HOPS;
        let mut long = serde_json::Map::new();
        for i in 0..=hops {
            long.insert(
                format!("L{i}"),
                json!({"$ref": format!("#/$defs/L{}", i + 1)}),
            );
        }
        long.insert(format!("L{}", hops + 1), json!({"type": "string"}));
        for defs in [
            json!({"D": {"$ref": "#/$defs/D"}}),
            json!({"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}),
            Value::Object(long),
        ] {
            let schema = json!({"type": "object", "properties": v, "$defs": defs});
            let s =
                ArgsSchema::new(&schema).unwrap_or_else(|p| panic!("{}: {}", p.pointer, p.message));
            assert!(s.check(&json!({"v": "a"}), Coercions::NONE).is_valid());
            let bad = json!({"v": 1});
            let r = s.check(&bad, Coercions::NONE);
            assert_eq!(places(&r), [("/v", "type")]);
        }
        let reached = json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/D"}},
            "$defs": {"D": {"$ref": "#/$defs/D"}}});
        let p = ArgsSchema::new(&reached).unwrap_err();
        assert_eq!(p.pointer, "/properties/v/$ref");
        assert!(
            p.message.contains("never reaches a schema"),
            "{}",
            p.message
        );
        let dangling = json!({"type": "object", "properties": v,
            "$defs": {"D": {"$ref": "#/nowhere"}}});
        assert_eq!(
            ArgsSchema::new(&dangling).unwrap_err().pointer,
            "/$defs/D/$ref"
        );
    }

    #[test]
    fn unresolvable_refs_are_named_by_pointer() {
        let remote = serde_json::json!({"type":"object","properties":{
            "a":{"$ref":"https://example.com/s.json"}}});
        let p = super::ArgsSchema::new(&remote).unwrap_err();
        assert_eq!(p.pointer, "/properties/a/$ref");
        assert_eq!(
            p.message,
            "remote $ref not followed: https://example.com/s.json"
        );
        // A loop of references, or one naming itself, says nothing: refused, not "any value".
        for looped in [
            serde_json::json!({"properties":{"a":{"$ref":"#/$defs/A"}},
                "$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}),
            serde_json::json!({"properties":{"a":{"$ref":"#/properties/a"}}}),
        ] {
            let Err(p) = super::ArgsSchema::new(&looped) else {
                panic!("a loop is refused");
            };
            assert_eq!(p.pointer, "/properties/a/$ref");
            assert!(
                p.message.contains("never reaches a schema"),
                "{}",
                p.message
            );
            assert!(
                p.message.contains("a cycle") || p.message.contains("refers to itself"),
                "{}",
                p.message
            );
        }
        // A chain of `MAX_REF_HOPS` references is followed; one more is refused as past the
        // limit (the words and limit `check`, `repair` and `compile` use), not as a loop.
        let chain = |n: usize| crate::schema::refs::fixtures::chain(n, false);
        let hops = crate::schema::refs::MAX_REF_HOPS;
        let under = super::ArgsSchema::new(&chain(hops - 1)).unwrap();
        assert!(under.check(&json!({"a":"x"}), Coercions::NONE).is_valid());
        assert!(!under.check(&json!({"a":1}), Coercions::NONE).is_valid());
        for n in [hops, 1_500] {
            let p = super::ArgsSchema::new(&chain(n)).unwrap_err();
            assert_eq!(p.pointer, "/properties/a/$ref");
            assert_eq!(p.message, crate::schema::refs::too_long("#/$defs/D0"));
        }
        let dangling = serde_json::json!({"properties":{"a":{"$ref":"#/$defs/No%25pe"}},
            "$defs":{"No%pe2":{}}});
        let p = super::ArgsSchema::new(&dangling).unwrap_err();
        assert_eq!(p.pointer, "/properties/a/$ref");
        assert_eq!(p.message, "$ref to a missing definition: #/$defs/No%25pe");
        let fine = serde_json::json!({"properties":{"a":{"$ref":"#/$defs/No%25pe"}},
            "$defs":{"No%pe":{"type":"string"}}});
        assert!(super::ArgsSchema::new(&fine).is_ok());
        // A `type` naming no type (`float` is read as `number`, see `type_spellings`).
        let bad = serde_json::json!({"type":"strin"});
        let p = super::ArgsSchema::new(&bad).unwrap_err();
        assert!(
            p.message
                .starts_with("the schema is not valid JSON Schema: "),
            "{}",
            p.message
        );
        assert!(!p.message.contains("draft-07"), "{}", p.message);
        // A valid ECMA-262 pattern the engine lacks is left unchecked and said so, not the
        // schema refused: the other keywords at its place are still checked.
        let named = serde_json::json!({"properties":{
            "s":{"type":"string","maxLength":3,"pattern":"^(?:(?<a>x)|y)+\\k<a>$"},
            "t":{"pattern":"^a{,2}$|[\\d-z]"}}});
        let compiled = super::ArgsSchema::new(&named).unwrap();
        let sent = serde_json::json!({"s": "yyyy", "t": "a{,2}"});
        let unchecked = compiled.unchecked_patterns(&sent);
        assert_eq!(unchecked.len(), 1, "{unchecked:?}");
        assert_eq!(unchecked[0].argument.as_deref(), Some("/s"));
        assert_eq!(unchecked[0].schema_pointer, "/properties/s/pattern");
        assert!(unchecked[0].why.starts_with("uses a backreference"));
        let report = compiled.check(&sent, Coercions::NONE);
        assert_eq!(
            triples(&report),
            [(
                "/s".into(),
                "maxLength".into(),
                "at most 3 characters".into()
            )]
        );
        assert!(
            compiled
                .check(&serde_json::json!({"s": "yy", "t": "-"}), Coercions::NONE)
                .is_valid()
        );
        // Not sent, or not a string: the pattern concerns nothing sent.
        assert!(
            compiled
                .unchecked_patterns(&serde_json::json!({"s": 1}))
                .is_empty()
        );
        // Under `items` each string sent is named; under `propertyNames` each member whose
        // name the pattern meets (trial 59 D13: said without a place, "(a place in the
        // arguments not followed)").
        let listed = serde_json::json!({"items":{"pattern":"^(?:(a)|b)+\\1$"},
            "propertyNames":{"pattern":"^(?:(a)|b)+\\1$"}});
        let compiled = super::ArgsSchema::new(&listed).unwrap();
        let places: Vec<(Option<String>, String)> = compiled
            .unchecked_patterns(&serde_json::json!(["b", 1, "a"]))
            .into_iter()
            .map(|u| (u.argument, u.schema_pointer))
            .collect();
        let at = |a: Option<&str>, s: &str| (a.map(String::from), s.to_string());
        assert_eq!(
            places,
            [
                at(Some("/0"), "/items/pattern"),
                at(Some("/2"), "/items/pattern"),
            ]
        );
        let named: Vec<(Option<String>, String)> = compiled
            .unchecked_patterns(&serde_json::json!({"aba": 1}))
            .into_iter()
            .map(|u| (u.argument, u.schema_pointer))
            .collect();
        assert_eq!(named, [at(Some("/aba"), "/propertyNames/pattern")]);
        // A `patternProperties` key the engine reads otherwise decides, as the engine reads
        // it, which members it places: each member of an object it applies to is named, the
        // walk complete (trial 57 D4: `{"b": 1}` was refused as undeclared, `{"b": "s"}`
        // passed, and no warning said the key was not read as ECMA-262 reads it).
        let keyed = serde_json::json!({"properties":{"x":{"type":"object",
            "patternProperties":{"^(?:(a)|b)+\\1$":{"type":"integer"}},
            "additionalProperties":false}}});
        let compiled = super::ArgsSchema::new(&keyed).unwrap();
        let places: Vec<(Option<String>, String)> = compiled
            .unchecked_patterns(&serde_json::json!({"x": {"b": 1, "c": 2}, "y": "s"}))
            .into_iter()
            .map(|u| (u.argument, u.schema_pointer))
            .collect();
        let key = "/properties/x/patternProperties/^(?:(a)|b)+\\1$";
        assert_eq!(places, [at(Some("/x/b"), key), at(Some("/x/c"), key)]);
        // A pattern ECMA-262 refuses stays an error naming its place.
        let bad = serde_json::json!({"properties":{"s":{"pattern":"a{2,1}"}}});
        assert_eq!(
            super::ArgsSchema::new(&bad).unwrap_err().pointer,
            "/properties/s/pattern"
        );
        // Empty classes compile and mean what ECMA-262 says.
        let any = super::ArgsSchema::new(&serde_json::json!({"pattern":"^a[^]b$|[]"})).unwrap();
        assert!(any.validator().is_valid(&serde_json::json!("a\nb")));
        assert!(!any.validator().is_valid(&serde_json::json!("ab")));
        // Draft-07's tuple `items` without `$schema` gets the reason and the way out.
        let tuple = serde_json::json!({"type":"object","properties":{
            "p":{"type":"array","items":[{"type":"number"},{"type":"number"}]}}});
        let p = super::ArgsSchema::new(&tuple).unwrap_err();
        assert!(p.message.contains("draft-07's tuple form"), "{}", p.message);
        let mut declared = tuple.clone();
        declared["$schema"] = "http://json-schema.org/draft-07/schema#".into();
        assert!(super::ArgsSchema::new(&declared).is_ok());
    }

    use super::*;
    use serde_json::json;

    /// Problems quote the schema's numbers as the schema writes them, once its text is given
    /// (before: `1e-7` for `1E-7`, `1.8446744073709552e+19` for `18446744073709551616`).
    #[test]
    fn problems_quote_the_schemas_numbers_as_written() {
        let text = r#"{"tool": {"type": "object", "properties": {
            "id": {"maximum": 18446744073709551616},
            "eps": {"minimum": 1E-7, "multipleOf": 0.10},
            "z": {"exclusiveMaximum": -0, "enum": ["a", 1e2]},
            "c": {"const": 2.50}}}}"#;
        let file: Value = serde_json::from_str(text).unwrap();
        let mut schema = ArgsSchema::new(&file["tool"]).unwrap();
        let call = json!({"id": 1e20, "eps": 0.15, "z": 5, "c": 3});
        let before = schema.check(&call, Coercions::NONE).retry_message(None);
        assert!(
            before.contains("at most 1.8446744073709552e+19"),
            "{before}"
        );
        schema.quote_numbers_as_written(text, "/tool");
        let expected: Vec<String> = schema
            .check(&call, Coercions::NONE)
            .problems
            .iter()
            .map(|p| p.expected.to_string())
            .collect();
        assert_eq!(
            expected,
            [
                "at most 18446744073709551616",
                "a multiple of 0.10",
                "one of \"a\", 1e2",
                "less than -0",
                "exactly 2.50"
            ],
        );
    }

    /// A long number of the schema is quoted shortened, as a long one of the call is (trial
    /// 58 D14: a `maximum` of 3,000 digits was quoted whole in the retry message).
    #[test]
    fn a_long_schema_number_is_quoted_shortened() {
        let text = format!(
            r#"{{"properties": {{"n": {{"maximum": 0.{}}}}}}}"#,
            "1".repeat(3000)
        );
        let file: Value = serde_json::from_str(&text).unwrap();
        let mut schema = ArgsSchema::new(&file).unwrap();
        schema.quote_numbers_as_written(&text, "");
        let call = json!({"n": 1});
        let r = schema.check(&call, Coercions::NONE);
        let shown = "0.1111111111111111111111...111111111111 (3001 digits)";
        assert_eq!(
            r.problems[0].message,
            format!("/n: 1 is too large; expected at most {shown}.")
        );
        assert_eq!(r.problems[0].expected, format!("at most {shown}"));
    }

    /// Floats are written back as the model spelled them, in either form of the arguments;
    /// integers and values sent one way each are untouched.
    #[test]
    fn arguments_are_respelled_as_sent() {
        let sent = r#"{"a":-0,"b":1e2,"c":[1E-7,2.50],"d":7}"#;
        let Sent::Value(v) = parse_arguments(sent).unwrap() else {
            panic!("arguments read")
        };
        let written = v.to_string();
        assert_eq!(written, r#"{"a":-0.0,"b":100.0,"c":[1e-7,2.5],"d":7}"#);
        assert_eq!(respell_as_sent(sent, &written), sent);
        let openai = serde_json::to_string(sent).unwrap();
        assert_eq!(respell_as_sent(&openai, &written), sent);
        assert_eq!(respell_as_sent("not json", &written), written);
    }

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

    /// Trial 51 D2: a schema accepting any value was "an any" to the model, alternatives
    /// without a `type` of their own were "an any" though the `type` beside the union applies
    /// to them, and alternatives described alike were "one of:" a single item.
    #[test]
    fn what_a_schema_accepts_is_said_in_words() {
        let expected = |schema: Value, call: Value| -> Vec<String> {
            ArgsSchema::new(&schema)
                .unwrap()
                .check(&call, Coercions::NONE)
                .problems
                .iter()
                .map(|p| p.message.clone())
                .collect()
        };
        assert_eq!(
            expected(
                json!({"type": "object", "properties": {"a": {"description": "anything"},
                    "c": true, "d": {}, "e": {"allOf": [{"minLength": 1}]}},
                    "required": ["a", "b", "c", "d", "e"]}),
                json!({})
            ),
            [
                "/a: required argument is missing; any value is accepted.",
                "/b: required argument is missing; any value is accepted.",
                "/c: required argument is missing; any value is accepted.",
                "/d: required argument is missing; any value is accepted.",
                "/e: required argument is missing; expected a value.",
            ]
        );
        // `false` accepts nothing: said so, not "a nothing" (trial 52 D6).
        assert_eq!(
            expected(
                json!({"type": "object", "properties": {"f": false}, "required": ["f"]}),
                json!({})
            ),
            [format!(
                "/f: required argument is missing; expected {}.",
                refused_required("f")
            )]
        );
        assert_eq!(
            expected(
                json!({"properties": {"v": {"type": "string",
                    "anyOf": [{"minLength": 3}, {"pattern": "^x"}]}}}),
                json!({"v": "ab"})
            ),
            [
                "/v: \"ab\" matches none of the alternatives; expected one of: a string [/v: at \
                 least 3 characters]; a string [/v: text matching the regular expression `^x`]."
            ]
        );
        let shape = |kind: &str| {
            json!({"type": "object", "properties": {"kind": {"const": kind}},
                "required": ["kind"]})
        };
        assert_eq!(
            expected(
                json!({"properties": {"s": {"oneOf": [shape("circle"), shape("square")]}}}),
                json!({"s": 5})
            ),
            ["/s: 5 matches none of the alternatives; expected an object with `kind`."]
        );
    }

    /// Under `unevaluatedProperties: false`, a member an `allOf` branch declares is one of the
    /// object's arguments: listed among them, and where the branch fails (so it counts as
    /// unevaluated) the model is told to correct the other problems, not to leave it out
    /// (trial 55 D6); an undeclared member is still told to go.
    #[test]
    fn a_member_an_applicator_declares_is_not_called_undeclared() {
        let schema = json!({"type":"object","properties":{"u":{"type":"object",
            "properties":{"a":{"type":"string"}},
            "allOf":[{"properties":{"b":{"type":"integer"}}}],
            "unevaluatedProperties":false}}});
        let s = ArgsSchema::new(&schema).unwrap();
        let messages = |call: Value| -> Vec<String> {
            let r = s.check(&call, Coercions::NONE);
            r.problems.iter().map(|p| p.message.clone()).collect()
        };
        assert!(messages(json!({"u":{"a":"x","b":1}})).is_empty());
        let wrong = messages(json!({"u":{"a":"x","b":"1"}}));
        assert_eq!(wrong.len(), 2, "{wrong:?}");
        assert!(
            wrong[1].starts_with(
                "/u/b: `b` is declared only in a part of the schema these arguments do not meet"
            ),
            "{wrong:?}"
        );
        assert_eq!(
            messages(json!({"u":{"a":"x","b":1,"c":2}})),
            [
                "/u/c: `c` is not a declared argument; leave it out (expected only the declared \
              arguments `a`, `b`)."
            ]
        );
    }

    /// An `unevaluatedProperties` schema (not `false`) accepts an undeclared member whose
    /// value matches it, as an `additionalProperties` schema and a `patternProperties` key do,
    /// but the validator names a member whose value fails it as it names one `false` refuses:
    /// `{"b": 1}` against `{type: string}` there read "`b` is not a declared argument; leave
    /// it out", which is false. It is now said by what the value fails, at the member's place
    /// (inside an array's item and under a nested `$id` too), as the other two keywords' and a
    /// declared member's problems are; `false` still says "not a declared argument".
    #[test]
    fn a_member_an_unevaluated_properties_schema_refuses_is_said_by_its_value() {
        let said = pointer_expected_message;
        let string = json!({"type": "string"});
        let closed = |keyword: &str, beside: Value| {
            let mut o = json!({"type": "object", "properties": {"a": {"type": "string"}}});
            o[keyword] = beside;
            o
        };
        let not_a_string = vec![(
            "/b".to_string(),
            "a string".to_string(),
            "/b: 1 is an integer; expected a string.".to_string(),
        )];
        for keyword in ["unevaluatedProperties", "additionalProperties"] {
            assert_eq!(
                said(closed(keyword, string.clone()), json!({"a": "x", "b": 1})),
                not_a_string,
                "{keyword}"
            );
            assert_eq!(
                said(closed(keyword, json!(false)), json!({"b": 1}))[0].2,
                "/b: `b` is not a declared argument; leave it out (expected only the declared \
                 arguments `a`).",
                "{keyword}"
            );
        }
        let mut keyed = closed("additionalProperties", json!(false));
        keyed["patternProperties"] = json!({"^b": string});
        assert_eq!(said(keyed, json!({"b": 1})), not_a_string);
        // Nested, the value an object, and a member's own problems below it.
        let member = json!({"type": "object", "properties": {"x": {"type": "integer"}},
            "required": ["x"]});
        let nested = json!({"type": "object", "properties": {
            "o": closed("unevaluatedProperties", member)}});
        assert_eq!(
            said(nested, json!({"o": {"a": "k", "b": {"x": "s"}, "c": {}}})),
            [
                (
                    "/o/b/x".to_string(),
                    "an integer".to_string(),
                    "/o/b/x: \"s\" is a string; expected an integer.".to_string()
                ),
                (
                    "/o/c/x".to_string(),
                    "an integer".to_string(),
                    "/o/c/x: required argument is missing; expected an integer.".to_string()
                )
            ]
        );
        // In an array's item, the member's name escaped; under a nested `$id`, whose `$ref`
        // reads its own `$defs`.
        let items = json!({"type": "object", "properties": {"l": {"type": "array",
            "items": closed("unevaluatedProperties", json!({"type": "string", "maxLength": 2}))}}});
        assert_eq!(
            said(items, json!({"l": [{"a": "x"}, {"b/c~": "long"}]})),
            [(
                "/l/1/b~1c~0".to_string(),
                "at most 2 characters".to_string(),
                "/l/1/b~1c~0: \"long\" is too long; expected at most 2 characters.".to_string()
            )]
        );
        let inner = json!({"$id": "https://ex.com/root", "type": "object", "properties": {
            "o": {"$id": "inner", "type": "object", "$defs": {"S": {"type": "string"}},
                "unevaluatedProperties": {"$ref": "#/$defs/S"}}}});
        assert_eq!(
            said(inner, json!({"o": {"q": 2}})),
            [(
                "/o/q".to_string(),
                "a string".to_string(),
                "/o/q: 2 is an integer; expected a string.".to_string()
            )]
        );
    }

    /// An `unevaluatedItems` schema (not `false`) accepts an item past the declared ones whose
    /// value matches it, but the validator names the items whose value fails it by their JSON
    /// text only, at the list: `["x", "y"]` against `prefixItems: [{type: string}]` and
    /// `unevaluatedItems: {type: integer}` read "/a: the list has extra items; expected no
    /// items beyond the declared ones.", which is false. Each such item is now said by what
    /// its value fails, at its index, an evaluated item of the same text left alone (a
    /// `contains` match, the prefix), inside an item and under a nested `$id` too; `false`
    /// still says "no items beyond the declared ones".
    #[test]
    fn an_item_an_unevaluated_items_schema_refuses_is_said_by_its_value() {
        let said = pointer_expected_message;
        let list = |beside: Value| {
            json!({"type": "object", "properties": {"a": {"type": "array",
                "prefixItems": [{"type": "string"}], "unevaluatedItems": beside}}})
        };
        let integer = json!({"type": "integer"});
        let not_an_integer = |at: &str, v: &str| {
            (
                at.to_string(),
                "an integer".to_string(),
                format!("{at}: {v} is a string; expected an integer."),
            )
        };
        assert_eq!(
            said(list(integer.clone()), json!({"a": ["x", "y"]})),
            [not_an_integer("/a/1", "\"y\"")]
        );
        // The first "y" is the prefix's: evaluated, accepted there.
        assert_eq!(
            said(list(integer.clone()), json!({"a": ["y", "y", 3, "z"]})),
            [
                not_an_integer("/a/1", "\"y\""),
                not_an_integer("/a/3", "\"z\"")
            ]
        );
        assert_eq!(
            said(list(json!(false)), json!({"a": ["x", 1]})),
            [(
                "/a".to_string(),
                "no items beyond the declared ones".to_string(),
                "/a: the list has extra items; expected no items beyond the declared ones."
                    .to_string()
            )]
        );
        // An item `contains` matches is evaluated (2020-12 core §10.3.1.2), whatever its index.
        let contained = json!({"type": "object", "properties": {"a": {"type": "array",
            "contains": {"const": "k"}, "unevaluatedItems": integer}}});
        assert_eq!(
            said(contained, json!({"a": [1, "k", "q"]})),
            [not_an_integer("/a/2", "\"q\"")]
        );
        // An object item's own problems below it, in a list inside a list.
        let member = json!({"type": "object", "properties": {"x": {"type": "integer"}},
            "required": ["x"]});
        let nested = json!({"type": "object", "properties": {"l": {"type": "array",
            "items": list(member)}}});
        assert_eq!(
            said(
                nested,
                json!({"l": [{"a": ["s", {"x": "t"}]}, {"a": ["s", {}]}]})
            ),
            [
                not_an_integer("/l/0/a/1/x", "\"t\""),
                (
                    "/l/1/a/1/x".to_string(),
                    "an integer".to_string(),
                    "/l/1/a/1/x: required argument is missing; expected an integer.".to_string()
                )
            ]
        );
        let inner = json!({"$id": "https://ex.com/root", "type": "object", "properties": {
            "o": {"$id": "inner", "type": "array", "$defs": {"S": {"type": "string"}},
                "prefixItems": [true], "unevaluatedItems": {"$ref": "#/$defs/S"}}}});
        assert_eq!(
            said(inner, json!({"o": [1, 2]})),
            [(
                "/o/1".to_string(),
                "a string".to_string(),
                "/o/1: 2 is an integer; expected a string.".to_string()
            )]
        );
    }

    /// What an `unevaluatedProperties` or `unevaluatedItems` schema judges is normalised as
    /// what an `additionalProperties` or `items` schema judges: the validator names such a
    /// member or item only at its object or list, so normalisation never saw its value, and
    /// `{"b": "3"}` with `--coerce number` against `unevaluatedProperties: {type: integer}`
    /// read '/b: "3" is a string; expected an integer.', `{"b": null}` 'null is not allowed
    /// here', where `additionalProperties` coerced the one and treated the other as absent.
    /// A member sent as null that is required stays a problem under either.
    #[test]
    fn what_an_unevaluated_schema_judges_is_normalised_as_a_declared_member() {
        let number = Coercions {
            numeric_text: true,
            ..Coercions::NONE
        };
        for keyword in ["unevaluatedProperties", "additionalProperties"] {
            let mut schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
            schema[keyword] = json!({"type": "integer"});
            let s = ArgsSchema::new(&schema).unwrap();
            let text = json!({"a": "x", "b": "3"});
            let r = s.check(&text, number);
            assert!(r.is_valid(), "{keyword}: {:?}", r.problems);
            assert_eq!(*r.arguments, json!({"a": "x", "b": 3}), "{keyword}");
            assert_eq!(r.coercions[0].pointer, "/b", "{keyword}");
            let null = json!({"a": "x", "b": null});
            let r = s.check(&null, Coercions::NONE);
            assert!(r.is_valid(), "{keyword}: {:?}", r.problems);
            assert_eq!(r.absent_nulls, ["/b"], "{keyword}");
            assert_eq!(*r.arguments, json!({"a": "x"}), "{keyword}");
            schema["required"] = json!(["b"]);
            let r = ArgsSchema::new(&schema)
                .unwrap()
                .check(&null, Coercions::NONE);
            assert_eq!(
                pointer_expected(&r.problems),
                [("/b", "an integer")],
                "{keyword}"
            );
        }
        for (keyword, beside) in [
            ("unevaluatedItems", json!({"type": "integer"})),
            ("items", json!({"type": "integer"})),
        ] {
            let mut list = json!({"type": "array", "prefixItems": [{"type": "string"}]});
            list[keyword] = beside;
            let s = ArgsSchema::new(&json!({"type": "object", "properties": {"l": list}})).unwrap();
            let text = json!({"l": ["x", "3"]});
            let r = s.check(&text, number);
            assert!(r.is_valid(), "{keyword}: {:?}", r.problems);
            assert_eq!(*r.arguments, json!({"l": ["x", 3]}), "{keyword}");
        }
    }

    /// A member only draft 4-7's schema-form `dependencies` declares is not evaluated for
    /// `unevaluatedProperties` by the validator (it counts `dependentSchemas` alone; 2020-12
    /// has no `dependencies`): refused as undeclared where the dependency is met, and left out
    /// it passes, so it is not listed among the declared arguments ([`declared_in_place`]).
    /// Under draft-07, which has no `unevaluatedProperties`, it passes. Should the crate count
    /// `dependencies` one day, this fails, and `declared_in_place` and repair's
    /// `resting_above` must read it as they read `dependentSchemas`.
    #[test]
    fn a_member_schema_form_dependencies_declares_is_unevaluated() {
        let schema = |keyword: &str, draft: Option<&str>| {
            let mut s = json!({"type":"object","properties":{"a":{"type":"string"}},
                keyword: {"a": {"properties": {"b": {"type": "integer"}}}},
                "unevaluatedProperties": false});
            if let Some(d) = draft {
                s["$schema"] = d.into();
            }
            ArgsSchema::new(&s).unwrap()
        };
        let messages = |s: &ArgsSchema, call: Value| -> Vec<String> {
            let r = s.check(&call, Coercions::NONE);
            r.problems.iter().map(|p| p.message.clone()).collect()
        };
        let old = schema("dependencies", None);
        assert_eq!(
            messages(&old, json!({"a":"x","b":1})),
            [
                "/b: `b` is not a declared argument; leave it out (expected only the declared \
              arguments `a`)."
            ]
        );
        assert!(messages(&old, json!({"a":"x"})).is_empty());
        // The same member through `dependentSchemas` is evaluated.
        assert!(messages(&schema("dependentSchemas", None), json!({"a":"x","b":1})).is_empty());
        let d7 = schema(
            "dependencies",
            Some("http://json-schema.org/draft-07/schema#"),
        );
        assert!(messages(&d7, json!({"a":"x","b":1})).is_empty());
    }

    /// An `enum` that allows no value says so, not "expected one of ." (trial 55 D11),
    /// directly and as the nearest alternative of a `oneOf`.
    #[test]
    fn an_enum_allowing_nothing_says_so() {
        let schema = json!({"type":"object","properties":{
            "e":{"type":"string","enum":[]},
            "u":{"oneOf":[{"type":"string","enum":[]},{"type":"integer"}]}}});
        let s = ArgsSchema::new(&schema).unwrap();
        let call = json!({"e":"red","u":"x"});
        let r = s.check(&call, Coercions::NONE);
        let got = pointer_expected(&r.problems);
        assert_eq!(got, [("/e", NO_ALLOWED_VALUE), ("/u", NO_ALLOWED_VALUE)]);
    }

    /// A `type` that rules out every `enum` member admits nothing: 101 and "101" are both told
    /// so, at `enum` and at `type`, not "one of \"101\"" and "an integer" in turn (trial 70
    /// D9); Gemini's spelling alike. An `enum` with one member of the type keeps its list.
    #[test]
    fn a_type_ruling_out_every_enum_member_says_no_value_can_pass() {
        let schema = json!({"type":"object","properties":{
            "a":{"type":"integer","enum":["101","201"]},
            "g":{"type":"INTEGER","format":"enum","enum":["101"]},
            "k":{"type":"integer","enum":["101", 7]}}});
        let s = ArgsSchema::new(&schema).unwrap();
        for call in [json!({"a": 101, "g": 101}), json!({"a": "101", "g": "101"})] {
            let r = s.check(&call, Coercions::NONE);
            let got = pointer_expected(&r.problems);
            assert_eq!(
                got,
                [("/a", TYPE_ENUM_CROSSED), ("/g", TYPE_ENUM_CROSSED)],
                "{call}"
            );
        }
        let call = json!({"k": 8});
        let r = s.check(&call, Coercions::NONE);
        assert_eq!(r.problems[0].expected, "one of 7");
        assert_eq!(
            expected_for(&json!({"type":"integer","enum":["101"]})),
            TYPE_ENUM_CROSSED
        );
    }

    #[test]
    fn every_problem_at_once_with_pointer_keyword_and_expected() {
        let s = ArgsSchema::new(&weather()).unwrap();
        let args = json!({"units":"kelvin","days":30,"hourly":"yes","extra":1,"tags":["a",2]});
        let r = s.check(&args, Coercions::NONE);
        let got: Vec<(&str, &str, &str)> = r
            .problems
            .iter()
            .map(|p| (p.pointer.as_str(), p.keyword.as_ref(), p.expected.as_ref()))
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
        // A capped message lists the first problems, as the full one does, and counts the rest.
        let capped = r.retry_message_within(Some("get_weather"), 2);
        let (head, rest) = msg.split_at(msg.find("\n3. ").unwrap());
        assert_eq!(capped, format!("{head}\n... and 4 more, not listed here."));
        assert!(rest.contains("\n6. "));
        assert_eq!(r.retry_message_within(None, 0).lines().count(), 3);
        assert_eq!(r.retry_message_within(None, 6), r.retry_message(None));
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
            "/city: null is not allowed here; expected a string."
        );
    }

    /// A null whose absence breaks another rule of the object holding it (`required`,
    /// `dependentRequired`) is not absent: the retry message would otherwise tell the model
    /// of a member missing that it sent. A `minProperties` is not such a rule: it counts the
    /// members given a value, and its problem says a null does not count.
    #[test]
    fn null_is_absent_unless_its_absence_breaks_more_than_min_properties() {
        let s = ArgsSchema::new(
            &json!({"type":"object","properties":{"a":{"type":"string"}},
            "minProperties":1}),
        )
        .unwrap();
        let alone = json!({"a":null});
        let r = s.check(&alone, Coercions::NONE);
        assert_eq!(r.absent_nulls, ["/a"]);
        assert_eq!(
            r.problems,
            [Problem {
                pointer: String::new(),
                keyword: "minProperties".into(),
                expected: "at least 1 member".into(),
                message: "(the arguments object): the object has too few members (a member \
                          sent as null counts as not given); expected at least 1 member."
                    .into(),
            }]
        );
        // With another member the object keeps one without it: the null is absent.
        let with_b = json!({"a":null,"b":1});
        let r = s.check(&with_b, Coercions::NONE);
        assert_eq!(r.absent_nulls, ["/a"]);
        assert!(r.problems.is_empty(), "{:#?}", r.problems);
        // Nothing sent is not a null: the problem says nothing of one.
        assert_eq!(
            messages(&s, &json!({})),
            ["(the arguments object): the object has too few members; expected at least 1 member."]
        );
        // Absent, the null breaks a `required` or `dependentRequired` too: it is kept.
        for schema in [
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "required":["a"],"minProperties":1}),
            json!({"type":"object","properties":{"a":{"type":"string"},"b":{}},
                "dependentRequired":{"b":["a"]},"minProperties":2}),
        ] {
            let s = ArgsSchema::new(&schema).unwrap();
            let call = json!({"a":null,"b":1});
            assert!(
                s.check(&call, Coercions::NONE).absent_nulls.is_empty(),
                "{schema}"
            );
            assert_eq!(
                messages(&s, &call),
                ["/a: null is not allowed here; expected a string."],
                "{schema}"
            );
        }
    }

    /// Every null of an object whose `minProperties` their absence breaks is absent, in either
    /// order, and the problem is the `minProperties` (trial 70 D6: compile's strict form of
    /// `update_note` makes `title` and `body` required and nullable and says `minProperties:
    /// 1` in the description; `{"title":null,"body":null}` was '/body: null is not allowed
    /// here', its reverse '/title: ...', the last null whose removal broke the rule).
    #[test]
    fn nulls_breaking_min_properties_are_absent_in_any_order() {
        let s = ArgsSchema::new(
            &json!({"type":"object","properties":{"title":{"type":"string"},
            "body":{"type":"string"},"o":{"type":"object","properties":{"x":{"type":"string"},
            "y":{"type":"string"}},"minProperties":1}},"minProperties":1}),
        )
        .unwrap();
        let too_few = |at: &str| {
            format!(
                "{at}: the object has too few members (a member sent as null counts as not \
                 given); expected at least 1 member."
            )
        };
        for (call, absent) in [
            (json!({"title":null,"body":null}), ["/title", "/body"]),
            (json!({"body":null,"title":null}), ["/body", "/title"]),
        ] {
            let r = s.check(&call, Coercions::NONE);
            assert_eq!(r.absent_nulls, absent, "{call}");
            assert_eq!(*r.arguments, json!({}), "{call}");
            assert_eq!(
                messages(&s, &call),
                [too_few("(the arguments object)")],
                "{call}"
            );
            assert_eq!(r.problems[0].keyword, "minProperties");
        }
        // In an object of the arguments alike; the arguments' own count the object.
        for call in [
            json!({"o":{"x":null,"y":null}}),
            json!({"o":{"y":null,"x":null}}),
        ] {
            let r = s.check(&call, Coercions::NONE);
            assert_eq!(r.absent_nulls.len(), 2, "{call}");
            assert_eq!(*r.arguments, json!({"o":{}}), "{call}");
            assert_eq!(messages(&s, &call), [too_few("/o")], "{call}");
        }
    }

    /// "At least one of" (`anyOf: [{required: [title]}, {required: [body]}]`) counts the
    /// members given as `minProperties` does: with every one sent as null all are absent, in
    /// either order, and the problem is the `anyOf` (before: '/body: null is not allowed
    /// here', its reverse '/title: ...', the last null whose removal broke it).
    #[test]
    fn nulls_breaking_an_at_least_one_of_are_absent_in_any_order() {
        // `oneOf` alike: "exactly one of", none of which is given (after stop 57: the last
        // null was blamed, `/body` or `/title` by key order, as `anyOf`'s was).
        for keyword in ["anyOf", "oneOf"] {
            let s = ArgsSchema::new(&json!({"type":"object","properties":{
                "title":{"type":"string"},"body":{"type":"string"}},
                keyword:[{"required":["title"]},{"required":["body"]}]}))
            .unwrap();
            for call in [
                json!({"title":null,"body":null}),
                json!({"body":null,"title":null}),
            ] {
                let r = s.check(&call, Coercions::NONE);
                assert_eq!(r.absent_nulls.len(), 2, "{keyword} {call}");
                assert_eq!(*r.arguments, json!({}), "{keyword} {call}");
                assert_eq!(r.problems.len(), 1, "{keyword} {call}");
                assert_eq!(r.problems[0].keyword, keyword, "{call}");
                assert_eq!(
                    messages(&s, &call),
                    [
                        "(the arguments object): the object matches none of the alternatives \
                      (a member sent as null counts as not given); expected one of: an object \
                      [/title: required (a value)]; an object [/body: required (a value)]."
                    ],
                    "{keyword} {call}"
                );
            }
            // One given: the other null is absent and the call valid.
            let one = json!({"body":null,"title":"t"});
            let r = s.check(&one, Coercions::NONE);
            assert_eq!(r.absent_nulls, ["/body"], "{keyword}");
            assert!(r.problems.is_empty(), "{keyword} {:#?}", r.problems);
        }
    }

    /// Whether an "at least one of" problem says a null counts as not given was read from its
    /// words: `expected` holding "[/title: required" for a null at `/title`. Past
    /// [`crate::report::POINTER_SHOWN`] characters the place is shortened in those words, so
    /// deep in the arguments the problem kept the plain "matches none of the alternatives"
    /// though both nulls were absent. It is now read from the validator's errors (a `required`
    /// of an alternative naming the null), at any depth.
    #[test]
    fn nulls_an_alternative_misses_are_said_from_the_errors_not_their_words() {
        let levels: Vec<String> = (0..40).map(|i| format!("p{i:02}")).collect();
        let mut schema = json!({"type":"object","properties":{
            "title":{"type":"string"},"body":{"type":"string"}},
            "anyOf":[{"required":["title"]},{"required":["body"]}]});
        let mut call = json!({"title":null,"body":null});
        for name in levels.iter().rev() {
            schema = json!({"type":"object","properties":{name.as_str(): schema}});
            call = json!({name.as_str(): call});
        }
        let at = format!("/{}", levels.join("/"));
        let s = ArgsSchema::new(&schema).unwrap();
        let r = s.check(&call, Coercions::NONE);
        assert_eq!(
            r.absent_nulls,
            [format!("{at}/title"), format!("{at}/body")]
        );
        assert_eq!(r.problems.len(), 1);
        assert_eq!(r.problems[0].pointer, at);
        // The place in the words is shortened: what was read no longer held the null's.
        assert!(
            !r.problems[0]
                .expected
                .contains(&format!("[{at}/title: required"))
        );
        assert!(
            r.problems[0].message_whole().starts_with(&format!(
                "{at}: the object matches none of the alternatives (a member sent as null \
                 counts as not given); expected one of: an object ["
            )),
            "{}",
            r.problems[0].message_whole()
        );
        // A union none of whose alternatives misses a null is left as it was.
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "n":{"type":"string"},"a":{"type":"integer"}},
            "anyOf":[{"properties":{"a":{"minimum":5}}},{"properties":{"a":{"maximum":0}}}]}))
        .unwrap();
        let call = json!({"n":null,"a":1});
        let r = s.check(&call, Coercions::NONE);
        assert_eq!(r.absent_nulls, ["/n"]);
        assert_eq!(r.problems.len(), 1, "{:#?}", r.problems);
        assert!(
            !r.problems[0].message.contains("counts as not given"),
            "{}",
            r.problems[0].message
        );
    }

    /// A null kept because its absence broke a rule is tried again once another null is
    /// removed: `dependentRequired: {a: [b]}` with `{"b":null,"a":null}` kept `b` (without
    /// it, `a` still there lacked it) and never tried it again once `a` was gone, so that
    /// order was '/b: null is not allowed here', exit 1, and `{"a":null,"b":null}` passed.
    #[test]
    fn nulls_a_dependent_required_links_are_absent_in_any_order() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"}},
            "dependentRequired":{"a":["b"],"b":["c"]}}))
        .unwrap();
        for call in [
            json!({"a":null,"b":null}),
            json!({"b":null,"a":null}),
            // A chain: `c` is tried three times, `b` twice.
            json!({"c":null,"b":null,"a":null}),
            json!({"a":null,"b":null,"c":null}),
        ] {
            let r = s.check(&call, Coercions::NONE);
            assert!(r.problems.is_empty(), "{call}: {:#?}", r.problems);
            assert_eq!(*r.arguments, json!({}), "{call}");
            assert_eq!(
                r.absent_nulls.len(),
                call.as_object().map_or(0, serde_json::Map::len),
                "{call}"
            );
        }
        // With `a` given, `b`'s absence breaks the rule whatever the order: it is kept.
        for call in [
            json!({"b":null,"a":"x","c":"y"}),
            json!({"a":"x","c":"y","b":null}),
        ] {
            let r = s.check(&call, Coercions::NONE);
            assert!(r.absent_nulls.is_empty(), "{call}");
            assert_eq!(
                messages(&s, &call),
                ["/b: null is not allowed here; expected a string."],
                "{call}"
            );
        }
    }

    /// An optional `anyOf`/`oneOf` argument sent as null, none of whose alternatives takes
    /// null, is absent as an optional `enum` or `$ref` one is (trial 42: `{"x":null}` against
    /// two `const` alternatives was '/x: null matches none of the alternatives', exit 1, though
    /// compile's strict forms wrap that union in `anyOf [..., {"type":"null"}]`); a required
    /// one stays a problem.
    #[test]
    fn null_for_an_optional_union_argument_is_absent() {
        for union in ["anyOf", "oneOf"] {
            let s = ArgsSchema::new(&json!({"type":"object","properties":{
                "x":{union:[{"type":"string","const":"v0"},{"type":"string","const":"v1"}]},
                "y":{union:[{"type":"integer"},{"type":"boolean"}]}},
                "required":["y"]}))
            .unwrap();
            let optional = json!({"x":null,"y":1});
            let r = s.check(&optional, Coercions::NONE);
            assert_eq!(r.absent_nulls, ["/x"], "{union}");
            assert!(r.problems.is_empty(), "{union}: {:#?}", r.problems);
            let required = json!({"y":null});
            let r = s.check(&required, Coercions::ALL);
            assert!(r.absent_nulls.is_empty(), "{union}");
            let pointers: Vec<&str> = r.problems.iter().map(|p| p.pointer.as_str()).collect();
            assert_eq!(pointers, ["/y"], "{union}: {:#?}", r.problems);
        }
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

    /// JSON text that could not be read was reported as a plain string, as if no coercion
    /// had been tried.
    #[test]
    fn text_left_a_string_under_json_coercion_says_why() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "a":{"type":"array"},"o":{"type":"object"},"w":{"type":"array"}}}))
        .unwrap();
        let deep = format!("{}{}", "[".repeat(600), "]".repeat(600));
        let args = json!({"a": deep, "o": "{\"k\": 1,}", "w": "words"});
        let messages = |coerce| -> Vec<String> {
            let r = s.check(&args, coerce);
            r.problems.iter().map(|p| p.message.clone()).collect()
        };
        let all = messages(Coercions::ALL);
        assert!(
            all[0].ends_with(
                " is a string holding JSON nested deeper than 512 levels; expected an array."
            ),
            "{}",
            all[0]
        );
        assert_eq!(
            all[1..],
            [
                "/o: \"{\\\"k\\\": 1,}\" is a string that is not valid JSON text; expected an object.",
                // Text that does not look like JSON needs no explanation.
                "/w: \"words\" is a string; expected an array.",
            ]
        );
        assert!(messages(Coercions::NONE)[1].ends_with("\" is a string; expected an object."));
    }

    /// trialO F9: a name equal to a declared one after NFC printed as "`ünï` is not a declared
    /// argument ... expected `ünï`"; it is named as such, with the code points that differ,
    /// inside a nested object too, and an unrelated name is still to be left out.
    #[test]
    fn an_undeclared_look_alike_of_a_declared_name_says_how_it_differs() {
        let s = ArgsSchema::new(&json!({"type":"object","additionalProperties":false,
            "properties":{"\u{fc}n\u{ef}":{"type":"string"},"o":{"type":"object",
            "additionalProperties":false,"properties":{"Name":{"type":"string"}}}}}))
        .unwrap();
        let call = json!({"u\u{308}n\u{ef}":"x","zz":1,"o":{"name":"y"}});
        let r = s.check(&call, Coercions::NONE);
        let messages: Vec<&str> = r.problems.iter().map(|p| p.message.as_str()).collect();
        assert!(
            messages.contains(
                &"/u\u{308}n\u{ef}: `u\u{308}n\u{ef}` is not a declared argument; it differs \
                  from the declared `\u{fc}n\u{ef}` only in Unicode normalization (the same \
                  after NFC), U+0075 U+0308 where the declared name has U+00FC; send the \
                  declared name instead (expected only the declared arguments `\u{fc}n\u{ef}`, `o`)."
            ),
            "{messages:#?}"
        );
        assert!(
            messages.iter().any(|m| m.starts_with(
                "/o/name: `name` is not a declared argument; \
                 it differs from the declared `Name` only in letter case, U+006E where"
            )),
            "{messages:#?}"
        );
        assert!(
            messages
                .iter()
                .any(|m| m.starts_with("/zz: `zz` is not a declared argument; leave it out")),
            "{messages:#?}"
        );
    }

    #[test]
    fn text_left_a_string_under_numeric_coercion_says_why() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "n":{"type":"integer"},"big":{"type":"integer"},"x":{"type":"number"},
            "u":{"anyOf":[{"type":"integer"},{"type":"boolean"}]}}}))
        .unwrap();
        let args = json!({"n":"5.5","x":"abc","u":"2.5"});
        let messages = |coerce| -> Vec<String> {
            let r = s.check(&args, coerce);
            r.problems.iter().map(|p| p.message.clone()).collect()
        };
        assert_eq!(
            messages(Coercions::ALL),
            [
                "/n: \"5.5\" is a string holding a number that is not a whole number; expected an integer.",
                "/x: \"abc\" is a string that is not numeric text; expected a number.",
                // A union names its alternatives instead.
                "/u: \"2.5\" matches none of the alternatives; expected one of: an integer; a boolean.",
            ]
        );
        // Without numeric coercion the host reads no text as a number: nothing to explain.
        assert_eq!(
            messages(Coercions::NONE)[0],
            "/n: \"5.5\" is a string; expected an integer."
        );
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
            .map(|p| (p.pointer.as_str(), p.keyword.as_ref(), p.expected.as_ref()))
            .collect();
        assert_eq!(
            got,
            [
                ("/p/q", "required", "an integer"),
                ("/at", "format", "a valid date-time")
            ]
        );
    }

    /// A format a later draft defines is checked under a `$schema` of an earlier one: a
    /// draft-07 `uuid` (and a draft-04 `uri-reference`) let any text through, unsaid. One the
    /// schema's draft knows keeps that draft's check (draft-04's `hostname`).
    #[test]
    fn formats_of_later_drafts_are_checked_under_earlier_ones() {
        let problems = |draft: &str, format: &str, value: &str| {
            let s = ArgsSchema::new(&json!({
                "$schema": draft,
                "type": "object",
                "properties": {"v": {"type": "string", "format": format}}
            }))
            .unwrap();
            s.check(&json!({ "v": value }), Coercions::NONE)
                .problems
                .iter()
                .map(|p| p.expected.to_string())
                .collect::<Vec<_>>()
        };
        let draft7 = "http://json-schema.org/draft-07/schema#";
        let draft4 = "http://json-schema.org/draft-04/schema#";
        assert_eq!(problems(draft7, "uuid", "nope"), ["a valid uuid"]);
        assert!(problems(draft7, "uuid", "123e4567-e89b-12d3-a456-426614174000").is_empty());
        assert_eq!(problems(draft7, "duration", "soon"), ["a valid duration"]);
        assert_eq!(
            problems(draft4, "uri-reference", "a b"),
            ["a valid uri-reference"]
        );
        // A name no draft defines stays an annotation.
        assert!(problems(draft7, "x-mine", "anything").is_empty());
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

    /// README: for an `anyOf` the problems reported are those of the only alternative of the
    /// value's type, also when that alternative refuses the value by its `const`.
    #[test]
    fn union_with_a_typed_const_branch_reports_that_branch() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "kind":{"anyOf":[{"type":"string","const":"x"},{"type":"integer"}]}}}))
        .unwrap();
        let args = json!({"kind":"y"});
        let r = s.check(&args, Coercions::NONE);
        assert_eq!(r.problems.len(), 1, "{:#?}", r.problems);
        assert_eq!(r.problems[0].keyword, "const");
        assert_eq!(
            r.problems[0].message,
            "/kind: \"y\" is not the one allowed value; expected exactly \"x\"."
        );
    }

    /// A missing `$ref` argument is named by its definition and what it is ("R (an object)"),
    /// never as a type ("a R"); a null where a type is wanted is not "null is null".
    #[test]
    fn missing_ref_arguments_and_nulls_read_as_english() {
        let s = ArgsSchema::new(&json!({"type":"object",
            "properties":{"r":{"$ref":"#/$defs/R"},"n":{"type":"integer"}},
            "required":["r","n"],"$defs":{"R":{"type":"object"}}}))
        .unwrap();
        let args = json!({"n":null});
        let r = s.check(&args, Coercions::NONE);
        let messages: Vec<&str> = r.problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "/r: required argument is missing; expected R (an object).",
                "/n: null is not allowed here; expected an integer."
            ]
        );
    }

    /// Known non-standard `type` spellings are checked as the type they mean, and listed.
    #[test]
    fn non_standard_type_spellings_are_checked_as_what_they_mean() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "a":{"type":"str"},"b":{"type":["Integer","null"]},"c":{"type":"string"}}}))
        .unwrap();
        let ok = json!({"a":"x","b":null,"c":"y"});
        assert!(s.check(&ok, Coercions::NONE).is_valid());
        let bad = json!({"a":1,"b":"2"});
        let r = s.check(&bad, Coercions::NONE);
        let got = pointer_expected(&r.problems);
        assert_eq!(got, [("/a", "a string"), ("/b", "null or an integer")]);
        let spelled: Vec<(String, String, &str)> = s
            .type_spellings()
            .into_iter()
            .map(|t| (t.pointer, t.written, t.read_as))
            .collect();
        assert_eq!(
            spelled,
            [
                (
                    "/properties/a/type".to_string(),
                    "str".to_string(),
                    "string"
                ),
                (
                    "/properties/b/type/0".to_string(),
                    "Integer".to_string(),
                    "integer"
                )
            ]
        );
        // A spelling that names no type is still not a schema.
        assert!(ArgsSchema::new(&json!({"type":"strin"})).is_err());
    }

    /// Gemini's `Schema` writes its count keywords as int64 strings (`"maxItems": "2"`): the
    /// schema was refused, "not valid JSON Schema" (trial 70 D8). Each is checked as the
    /// integer it spells and listed; a string that is no canonical non-negative integer is
    /// still refused.
    #[test]
    fn gemini_int64_count_strings_are_checked_as_their_integers() {
        let s = ArgsSchema::new(&json!({"type":"OBJECT","properties":{
            "arr":{"type":"ARRAY","items":{"type":"NUMBER"},"maxItems":"2","minItems":"1"},
            "s":{"type":"STRING","maxLength":"5","minLength":"0"},
            "o":{"type":"OBJECT","maxProperties":"1","minProperties":1}},
            "required":["arr"]}))
        .unwrap();
        assert!(s.check(&json!({"arr":[1]}), Coercions::NONE).is_valid());
        let bad = json!({"arr":[1,2,3],"s":"toolong","o":{"a":1,"b":2}});
        let r = s.check(&bad, Coercions::NONE);
        let got = places(&r);
        assert_eq!(
            got,
            [
                ("/arr", "maxItems"),
                ("/s", "maxLength"),
                ("/o", "maxProperties")
            ],
            "{:?}",
            r.problems
        );
        let none = json!({"arr":[]});
        let empty = s.check(&none, Coercions::NONE);
        assert_eq!(empty.problems.len(), 1, "{:?}", empty.problems);
        let listed: Vec<(String, String, u64)> = s
            .int64_strings()
            .into_iter()
            .map(|i| (i.pointer, i.written, i.read_as))
            .collect();
        let at = |p: &str, w: &str, n| (p.to_string(), w.to_string(), n);
        assert_eq!(
            listed,
            [
                at("/properties/arr/maxItems", "2", 2),
                at("/properties/arr/minItems", "1", 1),
                at("/properties/s/maxLength", "5", 5),
                at("/properties/s/minLength", "0", 0),
                at("/properties/o/maxProperties", "1", 1)
            ]
        );
        for written in [
            "02",
            "-1",
            "+2",
            "2.0",
            " 2",
            "two",
            "",
            "9223372036854775808",
        ] {
            assert!(
                ArgsSchema::new(&json!({"type":"array","maxItems": written})).is_err(),
                "{written:?}"
            );
        }
        assert!(
            ArgsSchema::new(&json!({"type":"array","maxItems": "9223372036854775807"})).is_ok()
        );
        let plain = ArgsSchema::new(&json!({"type":"array","maxItems": 2})).unwrap();
        assert!(plain.int64_strings().is_empty());
    }

    /// Gemini's `Schema` types `minimum` and `maximum` as double, which protobuf's JSON reads
    /// from a string too (`"minimum": "1"`): the schema was refused, "not valid JSON Schema",
    /// while `repair` dropped the bound as enforcing nothing. Each string holding a JSON
    /// number is checked as that number and listed, as the count strings are; any other
    /// string, and a string at a keyword Gemini's `Schema` has not, is still refused.
    #[test]
    fn gemini_double_bound_strings_are_checked_as_their_numbers() {
        let s = ArgsSchema::new(&json!({"type":"OBJECT","properties":{
            "a":{"type":"INTEGER","minimum":"1","maximum":"1e1"},
            "b":{"type":"NUMBER","minimum":"-2.5","maximum":"-0.5"}}}))
        .unwrap();
        assert!(s.check(&json!({"a":1,"b":-1}), Coercions::NONE).is_valid());
        let low = json!({"a":0,"b":0});
        let r = s.check(&low, Coercions::NONE);
        let got = places(&r);
        assert_eq!(
            got,
            [("/a", "minimum"), ("/b", "maximum")],
            "{:?}",
            r.problems
        );
        assert!(!s.check(&json!({"a":11}), Coercions::NONE).is_valid());
        let listed: Vec<(String, String, String)> = s
            .double_strings()
            .into_iter()
            .map(|d| (d.pointer, d.written, d.read_as.to_string()))
            .collect();
        let at = |p: &str, w: &str, n: &str| (p.to_string(), w.to_string(), n.to_string());
        assert_eq!(
            listed,
            [
                at("/properties/a/minimum", "1", "1"),
                at("/properties/a/maximum", "1e1", "10"),
                at("/properties/b/minimum", "-2.5", "-2.5"),
                at("/properties/b/maximum", "-0.5", "-0.5")
            ]
        );
        assert!(s.int64_strings().is_empty());
        for written in [
            "NaN",
            "Infinity",
            "-Infinity",
            "+1",
            " 1",
            "1 ",
            "01",
            "1.",
            ".5",
            "0x10",
            "",
            "1e400",
        ] {
            assert!(
                ArgsSchema::new(&json!({"type":"number","minimum": written})).is_err(),
                "{written:?}"
            );
        }
        for keyword in ["exclusiveMinimum", "exclusiveMaximum", "multipleOf"] {
            assert!(
                ArgsSchema::new(&json!({"type":"number", (keyword): "1"})).is_err(),
                "{keyword}"
            );
        }
        let plain = ArgsSchema::new(&json!({"type":"number","minimum": 1})).unwrap();
        assert!(plain.double_strings().is_empty());
    }

    /// A whole number spelt with an exponent (`"-2e3"`) was read as a float (-2000.0), which
    /// `repair` wrote into an integer's bound; it is an integer where the string has no
    /// fraction or the schema's `type` takes integers alone (`"1.0"` on an integer is 1, on a
    /// number 1.0). Strings that are no JSON number, or one no double holds, are read as
    /// nothing, and [`json_number_text`] tells the out-of-range number from the rest.
    #[test]
    fn a_whole_double_bound_string_is_read_as_an_integer() {
        let read = |ty: Value, written: &str| {
            let node = json!({"type": ty, "minimum": written});
            number_string_of(node.as_object().unwrap(), "minimum").map(|n| n.to_string())
        };
        let cases: &[(Value, &str, Option<&str>)] = &[
            (json!("integer"), "1e2", Some("100")),
            (json!("number"), "1e2", Some("100")),
            (json!("integer"), "-2e3", Some("-2000")),
            (json!("number"), "-2e3", Some("-2000")),
            (json!("number"), "2E+1", Some("20")),
            (json!("integer"), "1.0", Some("1")),
            (json!("INTEGER"), "1.0", Some("1")),
            (json!(["integer", "null"]), "1.0", Some("1")),
            (json!("number"), "1.0", Some("1.0")),
            (json!(["integer", "number"]), "1.0", Some("1.0")),
            (json!("string"), "1.0", Some("1.0")),
            (json!("integer"), "1.5e1", Some("15")),
            (json!("number"), "1.5e1", Some("15.0")),
            (json!("integer"), "0.5", Some("0.5")),
            (json!("number"), "0.5", Some("0.5")),
            (json!("number"), "-0", Some("0")),
            (json!("integer"), "1", Some("1")),
            (
                json!("number"),
                "18446744073709551615",
                Some("18446744073709551615"),
            ),
            (
                json!("number"),
                "-9223372036854775808",
                Some("-9223372036854775808"),
            ),
            // Past 64-bit integers: the float serde_json holds.
            (json!("integer"), "1e20", Some("1e+20")),
            (json!("integer"), "1E400", None),
            (json!("number"), "1E400", None),
            (json!("integer"), "0x10", None),
            (json!("integer"), " 5 ", None),
            (json!("number"), "NaN", None),
        ];
        let got: Vec<_> = cases.iter().map(|(t, w, _)| read(t.clone(), w)).collect();
        let want: Vec<_> = cases
            .iter()
            .map(|(_, _, n)| n.map(str::to_string))
            .collect();
        assert_eq!(got, want);
        for (text, number) in [
            ("1E400", true),
            ("-1e-400", true),
            ("-2e3", true),
            ("0", true),
            ("0x10", false),
            (" 5 ", false),
            ("+1", false),
            ("01", false),
            ("1.", false),
            (".5", false),
            ("1e", false),
            ("NaN", false),
            ("", false),
            ("-", false),
        ] {
            assert_eq!(json_number_text(text), number, "{text:?}");
        }
    }

    /// A bound string holding a whole number of 17 digits and more was read through the
    /// double nearest it, another number (`"12345678901234567.0"` on an integer was
    /// 12345678901234568, on a number 1.2345678901234568e16, and so was
    /// `"1.2345678901234567e16"`): it is now read from the text, exactly, wherever a 64-bit
    /// integer holds it. A number neither holds (a fraction past a double's precision, an
    /// integer past `u64`) is still the double nearest it, and [`spells_same_number`] tells
    /// it from the text, for `repair` to say the loss; values a double holds as written
    /// (`"0.1"`, `"1e20"`) spell the same.
    #[test]
    fn a_bound_string_past_a_doubles_precision_is_read_exactly_or_told_apart() {
        let read = |ty: &str, written: &str| {
            let node = json!({"type": ty, "minimum": written});
            number_string_of(node.as_object().unwrap(), "minimum")
        };
        for (ty, written, exact) in [
            ("integer", "12345678901234567", "12345678901234567"),
            ("number", "12345678901234567", "12345678901234567"),
            ("integer", "12345678901234567.0", "12345678901234567"),
            ("number", "12345678901234567.0", "12345678901234567"),
            ("number", "1.2345678901234567e16", "12345678901234567"),
            ("integer", "-1234567890123456789", "-1234567890123456789"),
            ("number", "9007199254740993", "9007199254740993"),
            ("number", "9007199254740993.000", "9007199254740993"),
            ("number", "18446744073709551615.0", "18446744073709551615"),
        ] {
            let n = read(ty, written).unwrap_or_else(|| panic!("{ty} {written}"));
            assert_eq!(n.to_string(), exact, "{ty} {written}");
            assert!(spells_same_number(written, &n), "{ty} {written}");
        }
        for (ty, written, nearest) in [
            ("number", "12345678901234567.5", "1.2345678901234568e+16"),
            ("integer", "123456789012345678901", "1.2345678901234568e+20"),
            ("number", "-9223372036854775809", "-9.223372036854776e+18"),
            ("number", "0.10000000000000000001", "0.1"),
        ] {
            let n = read(ty, written).unwrap_or_else(|| panic!("{ty} {written}"));
            assert_eq!(n.to_string(), nearest, "{ty} {written}");
            assert!(!spells_same_number(written, &n), "{ty} {written}");
        }
        for (written, n) in [
            ("0.1", json!(0.1)),
            ("1e20", json!(1e20)),
            ("1.0", json!(1.0)),
            ("-0", json!(0)),
            ("-2e3", json!(-2000)),
            ("1.50", json!(1.5)),
        ] {
            let Value::Number(n) = n else { unreachable!() };
            assert!(spells_same_number(written, &n), "{written}");
        }
        let Value::Number(two) = json!(2) else {
            unreachable!()
        };
        assert!(!spells_same_number("20e-1x", &two));
        assert!(!spells_same_number("2.5", &two));
    }

    /// A missing required argument whose schema accepts any value (BFCL's `type: "any"`,
    /// `{}`, `true`) read "required argument is missing; expected any value.", as if some
    /// value in particular were wanted. The sentence says any value is accepted; the
    /// `expected` field keeps the words, and a schema expecting something keeps "expected".
    #[test]
    fn a_missing_argument_of_any_value_says_any_value_is_accepted() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "k":{"type":"any"},"t":true,"n":{"type":"integer"}},"required":["k","t","n"]}))
        .unwrap();
        let none = json!({});
        let r = s.check(&none, Coercions::NONE);
        let said: Vec<(&str, &str)> = r
            .problems
            .iter()
            .map(|p| (p.expected.as_ref(), p.message.as_str()))
            .collect();
        assert_eq!(
            said,
            [
                (
                    "any value",
                    "/k: required argument is missing; any value is accepted."
                ),
                (
                    "any value",
                    "/t: required argument is missing; any value is accepted."
                ),
                (
                    "an integer",
                    "/n: required argument is missing; expected an integer."
                ),
            ]
        );
    }

    /// A missing required argument no `properties` entry declares read "required argument is
    /// missing; expected a value." (`expected: "a value"`), though like one whose schema is
    /// `{}` it accepts any value, which reads "any value is accepted." (trial 66 D5). Both read
    /// so now, in an object's own `required`, a nested object's and an `anyOf`
    /// alternative's, and so in an alternative's description; where something else says what
    /// it accepts (an `allOf` sibling, an owner in `$defs` reached by a `$ref`), "expected a
    /// value" stays, `additionalProperties: false` accepts none, and a `patternProperties`
    /// key matching it says what its schema expects.
    #[test]
    fn a_missing_undeclared_argument_says_any_value_is_accepted() {
        let said = |schema, call| expected_and_message(schema, call, Coercions::NONE);
        let any = |at: &str| {
            (
                ANY_VALUE.to_string(),
                format!("{at}: required argument is missing; any value is accepted."),
            )
        };
        assert_eq!(
            said(
                json!({"type":"object","properties":{
                    "a":{"type":"object","properties":{"k":{"type":"integer"}},"required":["z"]},
                    "b":{},
                    "c":{"anyOf":[{"type":"object","required":["z"]},{"type":"integer"}]}},
                    "required":["z","b"]}),
                json!({"a":{},"c":{}})
            ),
            [any("/z"), any("/b"), any("/a/z"), any("/c/z")]
        );
        // An alternative's description says the same.
        let r = said(
            json!({"type":"object","properties":{"y":{"anyOf":[
                {"type":"object","required":["z"]},{"type":"object","required":["w"]}]}}}),
            json!({"y":{}}),
        );
        assert!(
            r[0].1
                .contains("[/y/z: required (any value)]; an object [/y/w: required (any value)]"),
            "{r:?}"
        );
        let some = |at: &str| {
            (
                "a value".to_string(),
                format!("{at}: required argument is missing; expected a value."),
            )
        };
        // `additionalProperties: false` refuses it: no value is accepted (trial 67 D2), and
        // since it is required, only the schema can change (trial 67 D3).
        let none_at = |at: &str| {
            let cannot = refused_required(&at[at.rfind('/').unwrap_or(0) + 1..]);
            (
                cannot.clone(),
                format!("{at}: required argument is missing; expected {cannot}."),
            )
        };
        assert_eq!(
            said(
                json!({"type":"object","$defs":{"A":{"type":"object","required":["z"]}},
                    "properties":{
                    "u":{"additionalProperties":false,"required":["z"]},
                    "v":{"allOf":[{"properties":{"z":{"type":"integer"}}},{"required":["z"]}]},
                    "p":{"patternProperties":{"^z":{"type":"string"}},"required":["z"]},
                    "r":{"$ref":"#/$defs/A","properties":{"z":{"type":"integer"}}}}}),
                json!({"u":{},"v":{},"p":{},"r":{}})
            ),
            [
                none_at("/u/z"),
                some("/v/z"),
                (
                    "a string".to_string(),
                    "/p/z: required argument is missing; expected a string.".to_string()
                ),
                some("/r/z")
            ]
        );
    }

    /// A required argument that `additionalProperties: false` forbids (undeclared, or
    /// declared only in an `allOf` beside) can never be sent right, as one declared `false`
    /// cannot; sent, it read both "`b` is not a declared argument; leave it out" and "required
    /// argument is missing" (the engine's one pass over `properties`, `additionalProperties`
    /// and `required` counts only declared members), and left out, "expected a value" (trial
    /// 67 D2). Sent, it is refused as undeclared only; left out, it reads as the `false` case
    /// does: "expected no value at all (the schema accepts none)".
    #[test]
    fn a_required_argument_the_schema_forbids_reads_as_one_declared_false() {
        let said = |schema: Value, call: Value| -> Vec<(String, String)> {
            ArgsSchema::new(&schema)
                .unwrap()
                .check(&call, Coercions::ALL)
                .problems
                .iter()
                .map(|p| (p.keyword.to_string(), p.message.clone()))
                .collect()
        };
        let undeclared = json!({"type":"object","properties":{"a":{"type":"string"}},
            "required":["b"],"additionalProperties":false});
        let beside = json!({"type":"object","properties":{"a":{"type":"string"}},
            "allOf":[{"properties":{"b":{"type":"integer"}}}],
            "required":["b"],"additionalProperties":false});
        let declared_false = json!({"properties":{"a":{"type":"string"},"b":false},
            "required":["b"]});
        // Since trial 67 D3 both say that only the schema can change.
        let leave_out = (
            "additionalProperties".to_string(),
            format!(
                "/b: `b` is not a declared argument; expected {}.",
                refused_required("b")
            ),
        );
        let none = |schema: Value| {
            assert_eq!(
                said(schema, json!({"a":"x"})),
                [(
                    "required".to_string(),
                    format!(
                        "/b: required argument is missing; expected {}.",
                        refused_required("b")
                    )
                )]
            );
        };
        assert_eq!(said(undeclared.clone(), json!({"b":1})), [leave_out]);
        // Declared in the `allOf` entry, it is said to be, and why it is refused.
        assert_eq!(
            said(beside.clone(), json!({"b":5})),
            [(
                "additionalProperties".to_string(),
                format!(
                    "/b: `b` is declared under `allOf/0`, but `additionalProperties: false` \
                     here sees only this object's own `properties`; expected {}.",
                    refused_required("b")
                ),
            )]
        );
        none(undeclared);
        none(beside);
        none(declared_false);
        // A `patternProperties` key matching it lets the member in: not said to accept none.
        assert_eq!(
            said(
                json!({"type":"object","patternProperties":{"^b":{}},"required":["b"],
                    "additionalProperties":false}),
                json!({})
            )[0]
            .1,
            "/b: required argument is missing; expected a value."
        );
    }

    /// A missing required argument whose schema comes from `additionalProperties` or from an
    /// `allOf` entry beside read "expected a value", though a `null` there reads "expected an
    /// integer" (trial 67 D3). Where that one keyword gives the member its schema, the message
    /// says what it expects; where another beside may say more, or the schema found accepts
    /// anything, "expected a value" stays.
    #[test]
    fn a_missing_argument_says_what_the_schema_beside_expects() {
        let said = |schema: Value| -> (String, String) {
            let p = &ArgsSchema::new(&schema)
                .unwrap()
                .check(&json!({}), Coercions::NONE)
                .problems[0];
            (p.expected.to_string(), p.message.clone())
        };
        let integer = (
            "an integer".to_string(),
            "/b: required argument is missing; expected an integer.".to_string(),
        );
        let some = (
            "a value".to_string(),
            "/b: required argument is missing; expected a value.".to_string(),
        );
        assert_eq!(
            said(json!({"type":"object","properties":{"a":{"type":"string"}},
                "required":["b"],"additionalProperties":{"type":"integer"}})),
            integer
        );
        assert_eq!(
            said(json!({"type":"object","properties":{"a":{"type":"string"}},
                "allOf":[{"properties":{"b":{"type":"integer"}}},{"required":["a"]}],
                "required":["b"]})),
            integer
        );
        for kept in [
            // Another keyword beside may say more of it.
            json!({"additionalProperties":{"type":"integer"},
                "allOf":[{"properties":{"b":{"minimum":3}}}],"required":["b"]}),
            // Two entries declare it.
            json!({"allOf":[{"properties":{"b":{"type":"integer"}}},
                {"properties":{"b":{"minimum":3}}}],"required":["b"]}),
            // An `anyOf` beside may say more.
            json!({"additionalProperties":{},"anyOf":[{"properties":{"b":{"type":"string"}}}],
                "required":["b"]}),
        ] {
            assert_eq!(said(kept.clone()), some, "{kept}");
        }
    }

    /// A missing required argument that `properties` does not declare but whose name a
    /// `patternProperties` key matches read "expected a value" (trial 67 D3, left by
    /// a81740e). The matching key's schema says what it expects; several matching keys all
    /// apply, and are said as one where they describe alike, else each with its key; a key
    /// the engine does not read as ECMA-262 leaves it untold, and where no key matches,
    /// `additionalProperties` says it (`false`: no value at all).
    #[test]
    fn a_missing_argument_a_pattern_places_says_what_its_schema_expects() {
        let said = |schema: Value, name: &str| -> (String, String) {
            let mut schema = schema;
            schema["required"] = json!([name]);
            let p = &ArgsSchema::new(&schema)
                .unwrap()
                .check(&json!({}), Coercions::NONE)
                .problems[0];
            (p.expected.to_string(), p.message.clone())
        };
        let expects = |expected: &str, at: &str| {
            (
                expected.to_string(),
                format!("{at}: required argument is missing; expected {expected}."),
            )
        };
        let integer = expects("an integer", "/b");
        assert_eq!(
            said(json!({"patternProperties":{"^b":{"type":"integer"}}}), "b"),
            integer
        );
        // `additionalProperties: false` does not apply to a member a key places.
        assert_eq!(
            said(
                json!({"properties":{"a":{}},"patternProperties":{"^b":{"type":"integer"},
                    "^c":{"type":"string"}},"additionalProperties":false}),
                "b"
            ),
            integer
        );
        assert_eq!(
            said(
                json!({"patternProperties":{"^b":{"type":"integer"},"b$":{"type":"integer"}}}),
                "b"
            ),
            integer
        );
        assert_eq!(
            said(
                json!({"patternProperties":{"^b":{"type":"integer"},"c$":{"type":"string"}}}),
                "bc"
            ),
            expects(
                "a value meeting the schema of every `patternProperties` key its name matches: \
                 `^b` (an integer), `c$` (a string)",
                "/bc"
            )
        );
        // A schema with no type is said by its bounds; a key the engine rewrites (Annex B's
        // `{,2}`, the text) is named as written.
        assert_eq!(
            said(
                json!({"patternProperties":{"b{,2}":{"minimum":3},"^b":{"type":"integer"},
                    "^c":false}}),
                "b{,2}"
            ),
            expects(
                "a value meeting the schema of every `patternProperties` key its name matches: \
                 `b{,2}` (at least 3), `^b` (an integer)",
                "/b{,2}"
            )
        );
        assert_eq!(
            said(json!({"patternProperties":{"^b":false,"^c":{}}}), "b"),
            expects(&refused_required("b"), "/b")
        );
        // No key matches: `additionalProperties` says it.
        assert_eq!(
            said(
                json!({"patternProperties":{"^c":{"type":"integer"}},
                    "additionalProperties":{"type":"string"}}),
                "b"
            ),
            expects("a string", "/b")
        );
        assert_eq!(
            said(
                json!({"patternProperties":{"^c":{"type":"integer"}},
                    "additionalProperties":false}),
                "b"
            ),
            expects(&refused_required("b"), "/b")
        );
        let some = expects("a value", "/b");
        for kept in [
            // A key the engine reads otherwise than ECMA-262 may or may not match it.
            json!({"patternProperties":{"^(?:(a)|b)+\\1$":{"type":"integer"}},
                "additionalProperties":false}),
            // Another keyword beside may say more of it.
            json!({"patternProperties":{"^b":{"type":"integer"}},
                "allOf":[{"properties":{"b":{"minimum":3}}}]}),
            // The matching key accepts any value: something else may still constrain it.
            json!({"patternProperties":{"^b":{}},"additionalProperties":{"type":"string"}}),
        ] {
            assert_eq!(said(kept.clone(), "b"), some, "{kept}");
        }
    }

    /// A required member `unevaluatedProperties: false` refuses (declared nowhere, nothing
    /// else evaluating it) read "expected a value" when missing, where `additionalProperties:
    /// false` reads "expected no value at all (the schema accepts none)" (trial 67 D3). It reads
    /// so now, with the `required` in the object or in an `allOf` entry of it, under 2019-09
    /// too; sent, it is one problem. Where something may evaluate it (an entry declaring it, a
    /// `$ref`, an `if`/`then`), it is not said to accept none.
    #[test]
    fn a_required_member_unevaluated_properties_refuses_accepts_none() {
        let said = |schema, call| expected_and_message(schema, call, Coercions::ALL);
        // Required too: only the schema can change (trial 67 D3).
        let none = vec![(
            refused_required("b"),
            format!(
                "/b: required argument is missing; expected {}.",
                refused_required("b")
            ),
        )];
        let refusing = json!({"type":"object","properties":{"a":{"type":"string"}},
            "required":["b"],"unevaluatedProperties":false});
        assert_eq!(said(refusing.clone(), json!({"a":"x"})), none);
        let sent = said(refusing, json!({"a":"x","b":1}));
        assert_eq!(sent.len(), 1, "{sent:?}");
        assert!(
            sent[0].1.starts_with("/b: `b` is not a declared argument"),
            "{sent:?}"
        );
        for refusing in [
            json!({"$schema":"https://json-schema.org/draft/2019-09/schema",
                "properties":{"a":{}},"required":["b"],"unevaluatedProperties":false}),
            json!({"properties":{"a":{}},"allOf":[{"required":["b"]}],
                "unevaluatedProperties":false}),
            json!({"properties":{"a":{}},"allOf":[{"properties":{"c":{}}}],"required":["b"],
                "unevaluatedProperties":false}),
            json!({"properties":{"a":{}},"anyOf":[{"properties":{"c":{}}},{"required":["a"]}],
                "required":["b"],"unevaluatedProperties":false}),
        ] {
            assert_eq!(said(refusing.clone(), json!({"a":"x"})), none, "{refusing}");
        }
        // What evaluates it says what it takes.
        let string = vec![(
            "a string".to_string(),
            "/b: required argument is missing; expected a string.".to_string(),
        )];
        assert_eq!(
            said(
                json!({"required":["b"],"unevaluatedProperties":{"type":"string"}}),
                json!({})
            ),
            string
        );
        assert_eq!(
            said(
                json!({"required":["b"],"additionalProperties":{"type":"string"},
                    "unevaluatedProperties":false}),
                json!({})
            ),
            string
        );
        assert_eq!(
            said(
                json!({"required":["b"],"allOf":[{"properties":{"b":{"type":"string"}}}],
                    "unevaluatedProperties":false}),
                json!({})
            ),
            string
        );
        let some = vec![(
            "a value".to_string(),
            "/b: required argument is missing; expected a value.".to_string(),
        )];
        for kept in [
            json!({"$defs":{"B":{"properties":{"b":{}}}},"$ref":"#/$defs/B","required":["b"],
                "unevaluatedProperties":false}),
            json!({"if":{"required":["a"]},"then":{"properties":{"b":{}}},"required":["b"],
                "unevaluatedProperties":false}),
            json!({"anyOf":[{"patternProperties":{"^c":{}}}],"required":["b"],
                "unevaluatedProperties":false}),
        ] {
            assert_eq!(said(kept.clone(), json!({})), some, "{kept}");
        }
    }

    /// What a required member the schema refuses every value of expects (trial 67 D3).
    fn refused_required(name: &str) -> String {
        format!(
            "no value at all: the schema both requires `{name}` and refuses every value of it, \
             so no call can satisfy it here; the tool's schema, not the call, must change"
        )
    }

    /// A required member the schema refuses every value of read "leave it out" when sent and
    /// "expected no value at all (the schema accepts none)" when left out, so a model went
    /// back and forth (trial 67 D3). Both now end on the same words: the schema both requires
    /// it and refuses every value of it, so only the tool's schema can change; for a member
    /// declared `false`, one `additionalProperties: false` or `unevaluatedProperties: false`
    /// refuses, a `false` key, and a `required` in an `allOf` entry. Under an `anyOf`
    /// alternative (another may be met) the old words stay.
    #[test]
    fn a_required_member_the_schema_refuses_says_the_schema_must_change() {
        let said = |schema: &Value, call: Value| -> Vec<(String, String)> {
            ArgsSchema::new(schema)
                .unwrap()
                .check(&call, Coercions::ALL)
                .problems
                .iter()
                .map(|p| (p.expected.to_string(), p.message.clone()))
                .collect()
        };
        let cannot = "no value at all: the schema both requires `b` and refuses every value \
                      of it, so no call can satisfy it here; the tool's schema, not the call, \
                      must change";
        let missing = vec![(
            cannot.to_string(),
            format!("/b: required argument is missing; expected {cannot}."),
        )];
        for (schema, head) in [
            (
                json!({"properties":{"a":{"type":"string"},"b":false},"required":["b"]}),
                "this argument is not allowed",
            ),
            (
                json!({"properties":{"a":{}},"required":["b"],"additionalProperties":false}),
                "`b` is not a declared argument",
            ),
            (
                json!({"properties":{"a":{}},"allOf":[{"properties":{"b":{}}}],
                    "required":["b"],"additionalProperties":false}),
                "`b` is declared under `allOf/0`, but `additionalProperties: false` here sees \
                 only this object's own `properties`",
            ),
            (
                json!({"properties":{"a":{}},"required":["b"],"unevaluatedProperties":false}),
                "`b` is not a declared argument",
            ),
            (
                json!({"properties":{"a":{}},"allOf":[{"required":["b"]}],
                    "unevaluatedProperties":false}),
                "`b` is not a declared argument",
            ),
            (
                json!({"patternProperties":{"^b":false},"required":["b"]}),
                "this argument is not allowed",
            ),
        ] {
            assert_eq!(said(&schema, json!({"a":"x"})), missing, "{schema}");
            assert_eq!(
                said(&schema, json!({"a":"x","b":1})),
                [(
                    cannot.to_string(),
                    format!("/b: {head}; expected {cannot}.")
                )],
                "{schema}"
            );
        }
        // Nested, the place is the member's.
        let nested = json!({"properties":{"o":{"properties":{"a":{}},"required":["b"],
            "additionalProperties":false}}});
        assert!(said(&nested, json!({"o":{}}))[0].1.starts_with("/o/b: required argument is missing; expected no value at all: the schema both requires `b`"));
        // An `anyOf` alternative may be avoided: the old words.
        let branch = json!({"properties":{"x":{"anyOf":[{"type":"object","properties":{"a":{}},
            "required":["b"],"additionalProperties":false},{"type":"string"}]}}});
        assert_eq!(
            said(&branch, json!({"x":{}}))[0].1,
            "/x/b: required argument is missing; expected no value at all (the schema accepts \
             none)."
        );
        assert_eq!(
            said(&branch, json!({"x":{"b":1}}))[0].1,
            "/x/b: `b` is not a declared argument; leave it out (expected only the declared \
             arguments `a`)."
        );
        // Not required: "leave it out" stays.
        assert_eq!(
            said(
                &json!({"properties":{"a":{}},"additionalProperties":false}),
                json!({"b":1})
            )[0]
            .1,
            "/b: `b` is not a declared argument; leave it out (expected only the declared \
             arguments `a`)."
        );
    }

    /// (expected, message) of every problem of `call` against `schema`, coercing `coerce`.
    fn expected_and_message(
        schema: Value,
        call: Value,
        coerce: Coercions,
    ) -> Vec<(String, String)> {
        ArgsSchema::new(&schema)
            .unwrap()
            .check(&call, coerce)
            .problems
            .iter()
            .map(|p| (p.expected.to_string(), p.message.clone()))
            .collect()
    }

    /// Each problem's pointer and `expected`, in order.
    fn pointer_expected(problems: &[Problem]) -> Vec<(&str, &str)> {
        problems
            .iter()
            .map(|p| (p.pointer.as_str(), p.expected.as_ref()))
            .collect()
    }

    /// (pointer, expected, message) of every problem of `call` against `schema`.
    fn pointer_expected_message(schema: Value, call: Value) -> Vec<(String, String, String)> {
        ArgsSchema::new(&schema)
            .unwrap()
            .check(&call, Coercions::NONE)
            .problems
            .iter()
            .map(|p| (p.pointer.clone(), p.expected.to_string(), p.message.clone()))
            .collect()
    }

    /// `additionalProperties: false` with no `properties` beside was one problem at the
    /// object for every member sent, naming none: "(the arguments object): this argument is
    /// not allowed; leave it out; expected no value here.", so a model could not tell what to
    /// leave out. Each member is now its own problem at its place, saying the object declares
    /// no arguments; `unevaluatedProperties: false` alike, nested alike. Where an in-place
    /// subschema declares members, `additionalProperties: false` still refuses them all, and
    /// says so; where a `patternProperties` key may place one, the old words stay.
    #[test]
    fn a_closed_object_declaring_no_member_names_each_member_it_refuses() {
        let said = pointer_expected_message;
        let none = "no arguments: this object declares none";
        let each = |at: &str, names: &[&str], expected: &str| -> Vec<(String, String, String)> {
            names
                .iter()
                .map(|n| {
                    (
                        format!("{at}/{n}"),
                        expected.to_string(),
                        format!(
                            "{at}/{n}: `{n}` is not a declared argument; leave it out \
                             (expected {expected})."
                        ),
                    )
                })
                .collect()
        };
        for schema in [
            json!({"type":"object","additionalProperties":false}),
            json!({"type":"object","unevaluatedProperties":false}),
            json!({"type":"object","properties":{},"additionalProperties":false}),
            json!({"$schema":"http://json-schema.org/draft-07/schema#",
                "type":"object","additionalProperties":false}),
        ] {
            assert_eq!(
                said(schema.clone(), json!({"a":"x","b":1})),
                each("", &["a", "b"], none),
                "{schema}"
            );
            assert!(said(schema.clone(), json!({})).is_empty(), "{schema}");
        }
        for keyword in ["additionalProperties", "unevaluatedProperties"] {
            let nested = json!({"type":"object","properties":{
                "o":{"type":"object", keyword: false}}});
            assert_eq!(
                said(nested, json!({"o":{"z":1}})),
                each("/o", &["z"], none),
                "{keyword}"
            );
        }
        // Members an `allOf` entry declares are refused too: said without "declares none".
        let entry = "no arguments: this object's own `properties` declares none, and \
                     `additionalProperties: false` refuses every other member";
        assert_eq!(
            said(
                json!({"additionalProperties":false,"allOf":[{"properties":{"c":{}}}]}),
                json!({"b":1})
            ),
            each("", &["b"], entry)
        );
        // Required too: no call can satisfy it, at the member's place.
        assert_eq!(
            said(
                json!({"additionalProperties":false,"required":["a"]}),
                json!({"a":"x"})
            )[0]
            .2,
            format!(
                "/a: `a` is not a declared argument; expected {}.",
                refused_required("a")
            )
        );
        // A `patternProperties` key may place another member: the old words.
        assert_eq!(
            said(
                json!({"patternProperties":{"^x":{}},"additionalProperties":false}),
                json!({"b":1})
            ),
            each("", &["b"], "no other arguments here")
        );
    }

    /// A member declared only in a subschema beside `additionalProperties: false` (an `allOf`
    /// entry, an `anyOf` branch, a `$ref`'d definition, a `then`) is refused, as that keyword
    /// sees only its object's own `properties`, but it read "`a` is not a declared argument;
    /// leave it out (expected only the declared arguments `c`)", which is false. It is now
    /// said to be declared there and why it is refused; required too, the "no call can
    /// satisfy it" words follow. `unevaluatedProperties`, which sees those subschemas, and
    /// `not`, which declares nothing, keep their words.
    #[test]
    fn a_member_declared_beside_additional_properties_false_says_where() {
        let said = pointer_expected_message;
        let refused = |at: &str, name: &str, places: &str, own: &str| {
            let expected = format!(
                "no value at all: the tool's schema, not the call, must change to take `{name}`"
            );
            (
                format!("{at}/{name}"),
                expected.clone(),
                format!(
                    "{at}/{name}: `{name}` is declared under {places}, but \
                     `additionalProperties: false` here sees only this object's own {own}, so \
                     it refuses every value of `{name}`; leave it out (expected {expected})."
                ),
            )
        };
        let props = "`properties`";
        let undeclared = |name: &str, expected: &str| {
            (
                format!("/{name}"),
                expected.to_string(),
                format!(
                    "/{name}: `{name}` is not a declared argument; leave it out (expected \
                     {expected})."
                ),
            )
        };
        let only_c = "only the declared arguments `c`";
        // t6 and t1 of the report: with and without own `properties`.
        assert_eq!(
            said(
                json!({"type":"object","additionalProperties":false,"properties":{"c":{}},
                    "allOf":[{"properties":{"a":{"type":"string"}}}]}),
                json!({"a":"x","b":1})
            ),
            [
                refused("", "a", "`allOf/0`", props),
                undeclared("b", only_c)
            ]
        );
        assert_eq!(
            said(
                json!({"type":"object","additionalProperties":false,
                    "allOf":[{"properties":{"a":{"type":"string"}}}]}),
                json!({"a":"x","b":1})
            ),
            [
                refused("", "a", "`allOf/0`", props),
                undeclared(
                    "b",
                    "no arguments: this object's own `properties` declares none, and \
                     `additionalProperties: false` refuses every other member"
                )
            ]
        );
        for (beside, places) in [
            (
                json!({"anyOf":[{"properties":{"a":{}}},{"properties":{"a":{"type":"integer"}}}]}),
                "`anyOf/0`, `anyOf/1`",
            ),
            (json!({"oneOf":[{"properties":{"a":{}}}]}), "`oneOf/0`"),
            (
                json!({"$ref":"#/$defs/A","$defs":{"A":{"properties":{"a":{}}}}}),
                "`$ref`",
            ),
            (
                json!({"allOf":[{"$ref":"#/$defs/A"}],"$defs":{"A":{"properties":{"a":{}}}}}),
                "`allOf/0/$ref`",
            ),
            (
                json!({"if":{"properties":{"c":{"const":1}}},"then":{"properties":{"a":{}}}}),
                "`then`",
            ),
            (
                json!({"dependentSchemas":{"c":{"properties":{"a":{}}}}}),
                "`dependentSchemas/c`",
            ),
        ] {
            let mut schema = json!({"additionalProperties":false,"properties":{"c":{}}});
            schema
                .as_object_mut()
                .unwrap()
                .extend(beside.as_object().unwrap().clone());
            assert_eq!(
                said(schema.clone(), json!({"a":1})),
                [refused("", "a", places, props)],
                "{schema}"
            );
        }
        // Nested, and with `patternProperties` beside, which the keyword sees too.
        assert_eq!(
            said(
                json!({"properties":{"o":{"type":"object","additionalProperties":false,
                    "patternProperties":{"^z":{}},"allOf":[{"properties":{"a":{}}}]}}}),
                json!({"o":{"a":1}})
            ),
            [refused(
                "/o",
                "a",
                "`allOf/0`",
                "`properties` and `patternProperties`"
            )]
        );
        // Required too: sent, the place and the "no call can satisfy it" words; left out, as
        // before.
        let required = json!({"additionalProperties":false,"properties":{"c":{}},
            "allOf":[{"properties":{"a":{}},"required":["a"]}]});
        assert_eq!(
            said(required.clone(), json!({"a":1}))[0].2,
            format!(
                "/a: `a` is declared under `allOf/0`, but `additionalProperties: false` here \
                 sees only this object's own `properties`; expected {}.",
                refused_required("a")
            )
        );
        assert_eq!(
            said(required, json!({}))[0].2,
            format!(
                "/a: required argument is missing; expected {}.",
                refused_required("a")
            )
        );
        // `not` declares nothing: the old words.
        assert_eq!(
            said(
                json!({"additionalProperties":false,"properties":{"c":{}},
                    "not":{"properties":{"a":{}}}}),
                json!({"a":1})
            )[0],
            undeclared("a", only_c)
        );
        // `unevaluatedProperties` sees the `allOf` entry: its own words for a failed part.
        assert!(
            said(
                json!({"unevaluatedProperties":false,"properties":{"c":{}},
                    "allOf":[{"properties":{"a":{"type":"integer"}}}]}),
                json!({"a":"x"})
            )[1]
            .2
            .starts_with("/a: `a` is declared only in a part of the schema these arguments")
        );
    }

    /// A member declared in the definition a `$dynamicRef` beside `additionalProperties:
    /// false` reaches read "`a` is not a declared argument; leave it out" where a `$ref` to the
    /// same definition was said to declare it (`declared_beside` followed `$ref` alone). A
    /// `$dynamicRef` by JSON Pointer, or to a `$dynamicAnchor` the document declares once,
    /// reaches that definition whatever the dynamic scope, and is now followed as a `$ref` is;
    /// one whose name two resources declare may be redirected, and a draft before 2020-12 has
    /// no such keyword: those keep the old words.
    #[test]
    fn a_member_a_static_dynamic_ref_declares_beside_additional_properties_false_says_where() {
        let said = |beside: Value| {
            let mut schema = json!({"additionalProperties": false, "properties": {"c": {}},
                "$defs": {"A": {"$dynamicAnchor": "A", "properties": {"a": {}}}}});
            let o = schema.as_object_mut().unwrap();
            for (k, v) in beside.as_object().unwrap() {
                match (k.as_str(), o.get_mut(k)) {
                    ("$defs", Some(Value::Object(defs))) => {
                        defs.extend(v.as_object().unwrap().clone());
                    }
                    _ => {
                        o.insert(k.clone(), v.clone());
                    }
                }
            }
            pointer_expected_message(schema, json!({"a": 1}))
                .remove(0)
                .2
        };
        let declared = |places: &str| {
            format!(
                "/a: `a` is declared under {places}, but `additionalProperties: false` here \
                 sees only this object's own `properties`, so it refuses every value of `a`; \
                 leave it out (expected no value at all: the tool's schema, not the call, must \
                 change to take `a`)."
            )
        };
        let undeclared = "/a: `a` is not a declared argument; leave it out (expected only the \
                          declared arguments `c`).";
        assert_eq!(said(json!({"$ref": "#A"})), declared("`$ref`"));
        assert_eq!(
            said(json!({"$dynamicRef": "#A"})),
            declared("`$dynamicRef`")
        );
        assert_eq!(
            said(json!({"allOf": [{"$dynamicRef": "#A"}]})),
            declared("`allOf/0/$dynamicRef`")
        );
        assert_eq!(
            said(json!({"allOf": [{"$dynamicRef": "#/$defs/A"}]})),
            declared("`allOf/0/$dynamicRef`")
        );
        // Through a `$ref` the definition reached holds, each hop named (the schema each
        // reaches applies, with what is beside its own reference).
        assert_eq!(
            said(json!({"$dynamicRef": "#/$defs/B", "$defs": {"B": {"$ref": "#/$defs/A"}}})),
            declared("`$dynamicRef/$ref`")
        );
        // A second resource declaring `A` may be outermost in the dynamic scope.
        assert_eq!(
            said(json!({"$dynamicRef": "#A", "$defs": {"O": {"$id": "other",
                "$dynamicAnchor": "A", "properties": {"z": {}}}}})),
            undeclared
        );
        // 2019-09 has no `$dynamicRef`: the validator ignores it.
        assert_eq!(
            said(
                json!({"$schema": "https://json-schema.org/draft/2019-09/schema",
                "$dynamicRef": "#/$defs/A"})
            ),
            undeclared
        );
    }

    /// 2019-09's `$recursiveRef: "#"` beside `additionalProperties: false` (or in an `allOf`
    /// entry beside it) read "`name` is not a declared argument; leave it out (expected no
    /// arguments: this object's own `properties` declares none, ...)" for a member the root it
    /// reaches declares, while the same written `$ref: "#"` said where it is declared
    /// (`declared_beside` followed `$ref` and `$dynamicRef` only). Where the document says
    /// `$recursiveAnchor: true` once, nothing can redirect the reference and it is followed as
    /// a `$ref` is; a second resource saying it may be outermost in the dynamic scope, and
    /// another draft ignores the keyword: those keep the old words. Every verdict is the
    /// jsonschema crate's under 2019-09, checked beside.
    #[test]
    fn a_member_the_root_a_recursive_ref_reaches_declares_says_where() {
        const D2019: &str = "https://json-schema.org/draft/2019-09/schema";
        let tree = |child: Value| {
            json!({"$schema": D2019, "$recursiveAnchor": true, "type": "object",
                "properties": {"name": {"type": "string"}, "child": child,
                    "kids": {"type": "array", "items": {"$recursiveRef": "#"}}},
                "required": ["name"]})
        };
        let beside = tree(json!({"$recursiveRef": "#", "additionalProperties": false}));
        let in_all_of = tree(json!({"allOf": [{"$recursiveRef": "#"}],
            "properties": {"extra": {"type": "integer"}}, "additionalProperties": false}));
        let closed = {
            let mut s = tree(json!({"$recursiveRef": "#"}));
            s["additionalProperties"] = json!(false);
            s
        };
        let calls = [
            json!({"name": "a"}),
            json!({"name": "a", "child": {"name": "b"}}),
            json!({"name": "a", "child": {"extra": 1}}),
            json!({"name": "a", "child": {"name": 3}}),
            json!({"name": "a", "zz": 1}),
            json!({"name": "a", "child": {"name": "b", "zz": 1}}),
            json!({"name": "a", "kids": [{"name": "b"}, {"name": "c", "q": 1}]}),
        ];
        // The verdict is the validator's: the same as the jsonschema crate's under 2019-09.
        for schema in [&beside, &in_all_of, &closed] {
            let s = ArgsSchema::new(schema).unwrap();
            let crate_reads = jsonschema::options()
                .with_draft(jsonschema::Draft::Draft201909)
                .build(schema)
                .unwrap();
            for call in &calls {
                assert_eq!(
                    s.check(call, Coercions::NONE).problems.is_empty(),
                    crate_reads.is_valid(call),
                    "{schema} {call}"
                );
            }
        }
        let declared = |at: &str, name: &str, places: &str| {
            format!(
                "{at}/{name}: `{name}` is declared under {places}, but `additionalProperties: \
                 false` here sees only this object's own `properties`, so it refuses every \
                 value of `{name}`; leave it out (expected no value at all: the tool's schema, \
                 not the call, must change to take `{name}`)."
            )
        };
        let messages = |schema: &Value, call: Value| -> Vec<String> {
            pointer_expected_message(schema.clone(), call)
                .into_iter()
                .map(|(_, _, m)| m)
                .collect()
        };
        // The root requires `name` too, reached by the same reference: no call can satisfy
        // it (a_member_required_through_a_reference_and_refused_beside_it_is_unsatisfiable).
        let required_too = |places: &str| {
            format!(
                "/child/name: `name` is declared under {places}, but `additionalProperties: \
                 false` here sees only this object's own `properties`; expected no value at \
                 all: the schema both requires `name` and refuses every value of it, so no \
                 call can satisfy it here; the tool's schema, not the call, must change."
            )
        };
        assert_eq!(
            messages(&beside, json!({"name": "a", "child": {"name": "b"}})),
            [required_too("`$recursiveRef`")]
        );
        assert_eq!(
            messages(&in_all_of, json!({"name": "a", "child": {"name": "b"}})),
            [required_too("`allOf/0/$recursiveRef`")]
        );
        // Where the root does not require it, the member is only refused.
        let mut optional = beside.clone();
        optional.as_object_mut().unwrap().remove("required");
        assert_eq!(
            messages(&optional, json!({"name": "a", "child": {"name": "b"}})),
            [declared("/child", "name", "`$recursiveRef`")]
        );
        // A member the root does not declare either is undeclared, as beside a `$ref`.
        let undeclared_here = "/child/zz: `zz` is not a declared argument; leave it out \
                               (expected no arguments: this object's own `properties` declares \
                               none, and `additionalProperties: false` refuses every other \
                               member).";
        assert_eq!(
            messages(
                &beside,
                json!({"name": "a", "child": {"name": "b", "zz": 1}})
            )[1],
            undeclared_here
        );
        // The same written `$ref: "#"` says the same, with its keyword.
        let by_ref = tree(json!({"$ref": "#", "additionalProperties": false}));
        assert_eq!(
            messages(&by_ref, json!({"name": "a", "child": {"name": "b"}})),
            [required_too("`$ref`")]
        );
        // A closed root: its own members are declared, the recursion reaching it.
        assert_eq!(
            messages(
                &closed,
                json!({"name": "a", "kids": [{"name": "c", "q": 1}]})
            ),
            [
                "/kids/0/q: `q` is not a declared argument; leave it out (expected only the \
              declared arguments `name`, `child`, `kids`)."
            ]
        );
        let undeclared = "/child/name: `name` is not a declared argument; leave it out (expected \
                          no arguments: this object's own `properties` declares none, and \
                          `additionalProperties: false` refuses every other member).";
        // A second resource saying `$recursiveAnchor: true` may be the outermost in the
        // dynamic scope: not followed.
        let mut redirectable = beside.clone();
        redirectable["$defs"] = json!({"O": {"$id": "other", "$recursiveAnchor": true,
            "properties": {"z": {}}}});
        assert_eq!(
            messages(&redirectable, json!({"name": "a", "child": {"name": "b"}})),
            [undeclared]
        );
        // Under 2020-12 the validator ignores `$recursiveRef`: nothing declares `name` there.
        let mut later = beside.clone();
        later["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
        // (2020-12's meta-schema wants a string there.)
        later.as_object_mut().unwrap().remove("$recursiveAnchor");
        assert_eq!(
            messages(&later, json!({"name": "a", "child": {"name": "b"}})),
            [undeclared]
        );
    }

    /// Every verdict of `args` on `calls` is the jsonschema crate's, its draft read from the
    /// schema's `$schema`, as `args` validates with it.
    fn verdicts_are_the_crates(schema: &Value, calls: &[Value]) {
        let s = ArgsSchema::new(schema).unwrap();
        let crate_reads = jsonschema::options().build(schema).unwrap();
        for call in calls {
            assert_eq!(
                s.check(call, Coercions::NONE).problems.is_empty(),
                crate_reads.is_valid(call),
                "{schema} {call}"
            );
        }
    }

    /// `unevaluatedProperties` counts what a reference in an `allOf` entry beside it declares
    /// (2020-12 core §11.3: `$ref` is an in-place applicator), but `declared_in_place` did not
    /// follow references: `{allOf: [{$ref: A}], unevaluatedProperties: false}` with `A`
    /// declaring `a` read "/c: `c` is not a declared argument; leave it out (expected no
    /// arguments: this object declares none)", and a failing `a` "`a` is not a declared
    /// argument; leave it out", while the same `A` written inline said "expected only the
    /// declared arguments `a`" and "declared only in a part of the schema these arguments do
    /// not meet". The reference now says what the inline entry says.
    #[test]
    fn a_member_a_reference_in_an_all_of_declares_counts_for_unevaluated_properties() {
        let a = json!({"properties": {"a": {"type": "string"}}});
        let by_ref = |rest: Value| {
            let mut s = json!({"$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object", "allOf": [{"$ref": "#/$defs/A"}], "$defs": {"A": a}});
            s.as_object_mut()
                .unwrap()
                .extend(rest.as_object().unwrap().clone());
            s
        };
        let inline = |rest: Value| {
            let mut s = by_ref(rest);
            s["allOf"] = json!([a]);
            s
        };
        let calls = [
            json!({"a": 1, "c": 2}),
            json!({"a": "x", "c": 2}),
            json!({"a": "x"}),
            json!({"a": 1, "c": "s"}),
            json!({"c": 2}),
        ];
        for rest in [
            json!({"unevaluatedProperties": false}),
            json!({"unevaluatedProperties": {"type": "integer"}}),
        ] {
            verdicts_are_the_crates(&by_ref(rest.clone()), &calls);
            for call in &calls {
                assert_eq!(
                    pointer_expected_message(by_ref(rest.clone()), call.clone()),
                    pointer_expected_message(inline(rest.clone()), call.clone()),
                    "{rest} {call}"
                );
            }
        }
        assert_eq!(
            pointer_expected_message(
                by_ref(json!({"unevaluatedProperties": false})),
                json!({"a": "x", "c": 2})
            )[0]
            .2,
            "/c: `c` is not a declared argument; leave it out (expected only the declared \
             arguments `a`)."
        );
    }

    /// A required member left out that the object declares only in an `allOf` entry that is a
    /// reference (`allOf: [{$ref: "#/$defs/A"}]`) was "expected a value", where the same `A`
    /// written inline in the entry gives "expected a string": `given` read the entry as
    /// written, not the schema the validator evaluates it against. It now follows the
    /// reference one hop, where it is written; every message is the inline form's, and every
    /// verdict the crate's. Left: a `$ref` beside the object's own keywords (not in an
    /// `allOf`) still gives "a value".
    #[test]
    fn a_required_member_an_all_of_reference_declares_is_expected_as_declared() {
        let a = json!({"properties": {"a": {"type": "string"}, "b": {"type": "integer"}}});
        let by_ref = |required: Value| {
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object", "allOf": [{"$ref": "#/$defs/A"}], "required": required,
                "$defs": {"A": a}})
        };
        let inline = |required: Value| {
            let mut s = by_ref(required);
            s["allOf"] = json!([a]);
            s
        };
        let calls = [
            json!({}),
            json!({"a": "x"}),
            json!({"b": 1}),
            json!({"a": 1}),
        ];
        for required in [json!(["a"]), json!(["a", "b"])] {
            verdicts_are_the_crates(&by_ref(required.clone()), &calls);
            for call in &calls {
                assert_eq!(
                    pointer_expected_message(by_ref(required.clone()), call.clone()),
                    pointer_expected_message(inline(required.clone()), call.clone()),
                    "{required} {call}"
                );
            }
        }
        assert_eq!(
            pointer_expected_message(by_ref(json!(["a"])), json!({}))[0].2,
            "/a: required argument is missing; expected a string."
        );
    }

    /// A member the root requires, reached by `$recursiveRef: "#"` (or `$ref: "#"`) beside
    /// `additionalProperties: false`, which refuses it, no call can give: the validator wants
    /// it (`required`, through the reference) and refuses every value of it (the keyword
    /// beside). The words went back and forth: `{"child": {}}` read "/child/name: required
    /// argument is missing; expected a string.", and `{"child": {"name": "b"}}` "... so it
    /// refuses every value of `name`; leave it out ...": "both requires and refuses" read the
    /// schema at the `required`'s place (the root) alone, not the object schema the validator
    /// came from by the reference. Both now say no call can satisfy it. Under draft-07 the
    /// keyword beside a `$ref` is ignored (by the validator too), and an object reached under
    /// an `anyOf` may take another branch: those keep their words.
    #[test]
    fn a_member_required_through_a_reference_and_refused_beside_it_is_unsatisfiable() {
        const D2019: &str = "https://json-schema.org/draft/2019-09/schema";
        const D2020: &str = "https://json-schema.org/draft/2020-12/schema";
        const D7: &str = "http://json-schema.org/draft-07/schema#";
        let tree = |draft: &str, child: Value| {
            let mut s = json!({"$schema": draft, "type": "object",
                "properties": {"name": {"type": "string"}, "child": child},
                "required": ["name"]});
            if draft == D2019 {
                s["$recursiveAnchor"] = json!(true);
            }
            s
        };
        let recursive = tree(
            D2019,
            json!({"$recursiveRef": "#", "additionalProperties": false}),
        );
        let by_ref = tree(D2020, json!({"$ref": "#", "additionalProperties": false}));
        let by_ref_2019 = tree(D2019, json!({"$ref": "#", "additionalProperties": false}));
        let in_all_of = tree(
            D2019,
            json!({"allOf": [{"$recursiveRef": "#"}], "additionalProperties": false}),
        );
        let draft_7 = tree(D7, json!({"$ref": "#", "additionalProperties": false}));
        let in_any_of = tree(
            D2020,
            json!({"anyOf": [{"$ref": "#", "additionalProperties": false}, {"type": "string"}]}),
        );
        let calls = [
            json!({"name": "a"}),
            json!({"name": "a", "child": {}}),
            json!({"name": "a", "child": {"name": "b"}}),
            json!({"name": "a", "child": {"zz": 1}}),
            json!({"child": {}}),
            json!({"name": "a", "child": "s"}),
        ];
        for schema in [
            &recursive,
            &by_ref,
            &by_ref_2019,
            &in_all_of,
            &draft_7,
            &in_any_of,
        ] {
            verdicts_are_the_crates(schema, &calls);
        }
        let messages = |schema: &Value, call: Value| -> Vec<String> {
            pointer_expected_message(schema.clone(), call)
                .into_iter()
                .map(|(_, _, m)| m)
                .collect()
        };
        let no_call = "expected no value at all: the schema both requires `name` and refuses \
                       every value of it, so no call can satisfy it here; the tool's schema, \
                       not the call, must change.";
        let missing = format!("/child/name: required argument is missing; {no_call}");
        let sent = |places: &str| {
            format!(
                "/child/name: `name` is declared under {places}, but `additionalProperties: \
                 false` here sees only this object's own `properties`; {no_call}"
            )
        };
        for (schema, keyword) in [
            (&recursive, "`$recursiveRef`"),
            (&by_ref, "`$ref`"),
            (&by_ref_2019, "`$ref`"),
            (&in_all_of, "`allOf/0/$recursiveRef`"),
        ] {
            assert_eq!(
                messages(schema, json!({"name": "a", "child": {}})),
                std::slice::from_ref(&missing),
                "{schema}"
            );
            assert_eq!(
                messages(schema, json!({"name": "a", "child": {"name": "b"}})),
                [sent(keyword)],
                "{schema}"
            );
            // The root's own `required` is reached first without the reference: its words are
            // its own, whatever the order (they were made once per keyword place).
            assert_eq!(
                messages(schema, json!({"child": {}})),
                [
                    "/name: required argument is missing; expected a string.".to_string(),
                    missing.clone()
                ],
                "{schema}"
            );
        }
        // Draft-07 ignores `additionalProperties` beside the `$ref`: `name` is wanted there.
        assert_eq!(
            messages(&draft_7, json!({"name": "a", "child": {}})),
            ["/child/name: required argument is missing; expected a string."]
        );
        // Another branch of the `anyOf` may hold: not said to be unsatisfiable.
        for m in messages(&in_any_of, json!({"name": "a", "child": {}})) {
            assert!(!m.contains("both requires"), "{m}");
        }
    }

    /// `declared_beside` read every `$ref` it met against the resource holding the keyword's
    /// object, though one inside a subschema with its own `$id` is read against that
    /// subschema's base URI (its `#` names that subschema), as the validator reads it: `child`
    /// (`$ref: "node.json#/$defs/Inner"` beside `additionalProperties: false`, `Inner` being
    /// `{allOf: [{$ref: "#"}]}` inside `node.json`) read "`label` is not a declared argument"
    /// for the member `node.json` declares, and "`name` is declared under
    /// `$ref/allOf/0/$ref`" for the document root's. A 2019-09 `$recursiveRef: "#"` there
    /// was not followed at all. Each is now read at its own base. Under drafts 04 to 07 the
    /// `properties` beside a `$ref` were said to declare a member the validator never reads
    /// there ("`x` is declared under `allOf/0`"): nothing beside a `$ref` is read now.
    #[test]
    fn a_reference_inside_a_nested_resource_is_read_against_its_base() {
        let schema = |draft: &str, keyword: &str| {
            json!({"$schema": draft, "type": "object",
                "properties": {"name": {"type": "string"},
                    "child": {"$ref": "node.json#/$defs/Inner", "additionalProperties": false}},
                "$defs": {"N": {"$id": "node.json",
                    "properties": {"label": {"type": "string"}},
                    "$defs": {"Inner": {"allOf": [{keyword: "#"}],
                        "properties": {"tag": {"type": "string"}}}}}}})
        };
        let by_ref = schema("https://json-schema.org/draft/2020-12/schema", "$ref");
        let recursive = schema(
            "https://json-schema.org/draft/2019-09/schema",
            "$recursiveRef",
        );
        let calls = [
            json!({"child": {"label": "x"}}),
            json!({"child": {"name": "x"}}),
            json!({"child": {"tag": "x"}}),
            json!({"child": {}}),
        ];
        verdicts_are_the_crates(&by_ref, &calls);
        verdicts_are_the_crates(&recursive, &calls);
        let declared = |name: &str, places: &str| {
            vec![format!(
                "/child/{name}: `{name}` is declared under {places}, but \
                 `additionalProperties: false` here sees only this object's own \
                 `properties`, so it refuses every value of `{name}`; leave it out (expected \
                 no value at all: the tool's schema, not the call, must change to take \
                 `{name}`)."
            )]
        };
        let undeclared = vec![
            "/child/name: `name` is not a declared argument; leave it out (expected no \
             arguments: this object's own `properties` declares none, and \
             `additionalProperties: false` refuses every other member)."
                .to_string(),
        ];
        let messages = |schema: &Value, call: Value| -> Vec<String> {
            pointer_expected_message(schema.clone(), call)
                .into_iter()
                .map(|(_, _, m)| m)
                .collect()
        };
        for (s, keyword) in [(&by_ref, "$ref"), (&recursive, "$recursiveRef")] {
            assert_eq!(
                messages(s, json!({"child": {"label": "x"}})),
                declared("label", &format!("`$ref/allOf/0/{keyword}`"))
            );
            assert_eq!(messages(s, json!({"child": {"name": "x"}})), undeclared);
            assert_eq!(
                messages(s, json!({"child": {"tag": "x"}})),
                declared("tag", "`$ref`")
            );
        }
        // Drafts 04 to 07 read nothing beside a `$ref` (the validator ignores it): `x`, in the
        // `properties` beside one, is declared nowhere the validator reads.
        let draft_7 = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {"c": {}}, "additionalProperties": false,
            "allOf": [{"$ref": "#/definitions/A", "properties": {"x": {}}}],
            "definitions": {"A": {"properties": {"a": {}}}}});
        verdicts_are_the_crates(&draft_7, &[json!({"x": 1}), json!({"a": 1}), json!({})]);
        assert_eq!(
            messages(&draft_7, json!({"x": 1})),
            [
                "/x: `x` is not a declared argument; leave it out (expected only the declared \
              arguments `c`)."
            ]
        );
        assert_eq!(
            messages(&draft_7, json!({"a": 1}))[0],
            declared("a", "`allOf/0/$ref`")[0].replace("/child/a", "/a")
        );
        // `node.json` saying `$recursiveAnchor: true`, alone in the document: still itself.
        let mut anchored = recursive.clone();
        anchored["$defs"]["N"]["$recursiveAnchor"] = json!(true);
        verdicts_are_the_crates(&anchored, &calls);
        assert_eq!(
            messages(&anchored, json!({"child": {"label": "x"}})),
            declared("label", "`$ref/allOf/0/$recursiveRef`")
        );
    }

    /// `$recursiveRef: "#/$defs/B"` (2019-09 defines only `#`) was checked as `#` by the
    /// validator, the root, while the problems were worded from `B`: `{"child": {"x": 1}}` read
    /// "/child/name: required argument is missing; expected no value at all (the schema
    /// accepts none)". The schema is now refused at the keyword, as a broken `$ref` is.
    #[test]
    fn a_recursive_ref_other_than_the_root_is_refused_at_its_place() {
        let schema = |draft: &str, reference: &str| {
            json!({"$schema": draft, "$recursiveAnchor": true, "type": "object",
                "properties": {"name": {"type": "string"},
                    "child": {"allOf": [{"$recursiveRef": reference}]}},
                "required": ["name"],
                "$defs": {"B": {"type": "object", "properties": {"x": {"type": "integer"}},
                    "additionalProperties": false}}})
        };
        let d2019 = "https://json-schema.org/draft/2019-09/schema";
        let e = ArgsSchema::new(&schema(d2019, "#/$defs/B")).unwrap_err();
        assert_eq!(e.pointer, "/properties/child/allOf/0/$recursiveRef");
        assert_eq!(
            e.message,
            "`$recursiveRef` is \"#/$defs/B\", but draft 2019-09 defines it only for \"#\" \
             (core §8.2.4.2.1: the root of its resource, or of the outermost one in the dynamic \
             scope saying `$recursiveAnchor: true`), and the validator reads every value as \
             \"#\": the schema it names is not the one checked; write `$ref: \"#/$defs/B\"` to \
             use that schema, or `$recursiveRef: \"#\"`"
        );
        // Any other text too, a same-document `""` with it.
        for other in ["", "#/", "other.json#", "#/$defs/Missing"] {
            assert!(ArgsSchema::new(&schema(d2019, other)).is_err(), "{other:?}");
        }
        // `#` is the keyword as defined.
        let s = ArgsSchema::new(&schema(d2019, "#")).unwrap();
        assert!(
            s.check(
                &json!({"name": "a", "child": {"name": "b"}}),
                Coercions::NONE
            )
            .problems
            .is_empty()
        );
        // A draft without the keyword ignores it, whatever it says.
        let mut later = schema("https://json-schema.org/draft/2020-12/schema", "#/$defs/B");
        later.as_object_mut().unwrap().remove("$recursiveAnchor");
        assert!(ArgsSchema::new(&later).is_ok());
    }

    /// BFCL's `type: "any"`, which `compile --target mistral/chat` passes on, made every call
    /// bad input (exit 2) with the meta-schema's words, "\"any\" is not valid under any of the
    /// schemas listed in the 'anyOf' keyword" (trial 64 D5). It is read as what it says, any
    /// value (no type checked there; alone or in a `type` list, any case), and listed among
    /// the spellings read.
    #[test]
    fn type_any_is_read_as_any_value() {
        let s = ArgsSchema::new(&json!({"type":"dict","properties":{
            "key":{"type":"string"},"value":{"type":"any","minLength":2},
            "other":{"type":["ANY","integer"]}},"required":["key","value"]}))
        .unwrap();
        for value in [json!(3), json!(null), json!([1, {"a": null}]), json!("ab")] {
            let call = json!({"key":"k","value":value,"other":{"b":true}});
            let r = s.check(&call, Coercions::NONE);
            assert!(r.is_valid(), "{value}: {:#?}", r.problems);
        }
        // The other keywords still hold.
        let short = json!({"key":"k","value":"a"});
        let r = s.check(&short, Coercions::NONE);
        let places: Vec<&str> = r.problems.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(places, ["/value"], "{:#?}", r.problems);
        let spellings: Vec<(String, String, &str)> = s
            .type_spellings()
            .into_iter()
            .map(|t| (t.pointer, t.written, t.read_as))
            .collect();
        assert_eq!(
            spellings,
            [
                ("/type".to_string(), "dict".to_string(), "object"),
                (
                    "/properties/value/type".to_string(),
                    "any".to_string(),
                    ANY_VALUE
                ),
                (
                    "/properties/other/type/0".to_string(),
                    "ANY".to_string(),
                    ANY_VALUE
                )
            ]
        );
    }

    fn order() -> Value {
        json!({"type":"object","properties":{
            "coupon":{"anyOf":[{"type":"string","pattern":"^C-"},{"type":"integer","minimum":100}]},
            "when":{"anyOf":[{"type":"string","format":"date-time"},{"type":"null"}]},
            "attachment":{"oneOf":[{"$ref":"#/$defs/ImageBlock"},{"$ref":"#/$defs/A"}]}},
            "$defs":{
                "ImageBlock":{"type":"object",
                    "properties":{"kind":{"const":"image"},"url":{"type":"string"}},
                    "required":["kind","url"],"additionalProperties":false},
                "A":{"type":"object",
                    "properties":{"kind":{"const":"text"},"body":{"type":"string"}},
                    "required":["kind","body"],"additionalProperties":false}}})
    }

    fn triples(r: &ArgsReport<'_>) -> Vec<(String, String, String)> {
        r.problems
            .iter()
            .map(|p| {
                (
                    p.pointer.clone(),
                    p.keyword.to_string(),
                    p.expected.to_string(),
                )
            })
            .collect()
    }

    /// Rust's engine compiled `(?i)` and `(?P<n>` with their own meaning, so a pattern no
    /// JavaScript validator accepts passed "ABC" (trial); a valid pattern too large for the
    /// engine was called invalid JSON Schema.
    #[test]
    fn patterns_ecma_refuses_or_the_engine_cannot_hold_are_said_to_be_so() {
        let problem = |p: &str| {
            ArgsSchema::new(&json!({"type":"object","properties":{
                "b":{"type":"string","pattern":p}}}))
            .err()
            .map(|e| (e.pointer, e.message))
        };
        let (at, m) = problem("(?i)^abc$").expect("refused");
        assert_eq!(at, "/properties/b/pattern");
        assert!(
            m.contains("no ECMA-262 regular expression") && m.contains("`(?i)`"),
            "{m}"
        );
        let (_, m) = problem("^(?P<n>a)$").expect("refused");
        assert!(m.contains("`(?<name>...)`"), "{m}");
        let (_, m) = problem("^(?:a{1000}){1000}$").expect("refused");
        assert!(
            m.contains("too large") && m.contains("not refused as ECMA-262"),
            "{m}"
        );
        assert!(!m.contains("not valid JSON Schema"), "{m}");
        let (_, m) = problem("(?<=a+)b\\1((").expect("refused");
        assert!(m.contains("not valid JSON Schema"), "{m}");
        // ES2025's modifiers and named groups are ECMA-262.
        for p in ["^(?i:abc)$", "^(?<n>a)\\k<n>$"] {
            assert_eq!(problem(p), None, "{p}");
        }
        // A `patternProperties` key is a pattern too (before: `(?i)^a$` matched `A`).
        let e = ArgsSchema::new(&json!({"type":"object","patternProperties":{
            "^b$":{"type":"string"},"(?i)^a/$":{"type":"integer"}}}))
        .err()
        .unwrap();
        assert_eq!(e.pointer, "/patternProperties/(?i)^a~1$");
        assert!(
            e.message
                .starts_with("the `patternProperties` key \"(?i)^a/$\" is no ECMA-262")
                && e.message.contains("`(?i)`"),
            "{}",
            e.message
        );
    }

    /// Trial 59 D2: a `pattern` that does not compile was quoted as toolwire compiles it, not
    /// as the schema writes it: `^(?:(a)|b)\1\c$` as `(?=)^(?:(a)|b)(?(1)\1|)\c$` (the
    /// conditional of a backreference to a group that may not have matched), a text nowhere
    /// in the user's file and no ECMA-262.
    #[test]
    fn a_pattern_that_does_not_compile_is_quoted_as_written() {
        for (p, quoted) in [
            (r"^(?:(a)|b)\1\c$", r#""^(?:(a)|b)\\1\\c$""#),
            (r"^\0\c$", r#""^\\0\\c$""#),
            (r"^b\c$", r#""^b\\c$""#),
        ] {
            let e = ArgsSchema::new(&json!({"type":"object","properties":{
                "s":{"type":"string","pattern":p}}}))
            .err()
            .unwrap();
            assert_eq!(e.pointer, "/properties/s/pattern");
            assert_eq!(
                e.message,
                format!("the schema is not valid JSON Schema: {quoted} is not a \"regex\""),
                "{p}"
            );
        }
    }

    /// Trial 59 D3: a lone surrogate escape (`^[^\uD800-\uDFFF]*$`, the usual guard against
    /// unpaired surrogates), valid ECMA-262, made the schema bad input ("is not a \"regex\"",
    /// exit 2). No argument holds a lone surrogate (a JSON string escaping one is refused as no
    /// JSON), so the guard takes every call's text, and a class of them takes none (Node
    /// v20: `new RegExp(p, "u")` alike), as a `pattern` and as a `patternProperties` key.
    #[test]
    fn lone_surrogate_escapes_are_checked() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "s":{"type":"string","pattern":"^[^\\uD800-\\uDFFF]*$"},
            "t":{"type":"string","pattern":"^b\\uDE00?$"}},
            "patternProperties":{"^[\\uD800-\\uDBFF]?x$":false}}))
        .unwrap();
        assert!(
            s.check(&json!({"s":"abc😀","t":"b"}), Coercions::NONE)
                .is_valid()
        );
        assert!(!s.check(&json!({"t":"b😀"}), Coercions::NONE).is_valid());
        assert!(s.check(&json!({"😀x":1}), Coercions::NONE).is_valid());
        assert!(!s.check(&json!({"x":1}), Coercions::NONE).is_valid());
        assert!(s.unchecked_patterns(&json!({"s":"abc"})).is_empty());
    }

    /// Trial 44 D-pp: a `patternProperties` key that is valid ECMA-262 but spelled otherwise
    /// for the engine (`a{,3}`, the text `a{,3}` under Annex B; `[a-\d]`, `a`, `-` or a
    /// digit) made the schema bad input (exit 2: `"a{,3}" is not a "regex"`), where a `pattern`
    /// of the same text was checked. The key is compiled as a `pattern` is, and its subschema
    /// checks the members it matches; the key is named as written.
    #[test]
    fn pattern_properties_keys_are_read_as_ecma_262() {
        let text = r#"{"type": "object", "patternProperties": {
            "a{,3}": {"type": "integer"},
            "[a-\\d]": {"maximum": 1E0, "properties": {"p": {"pattern": "b{,1}"}}}}}"#;
        let declared: Value = serde_json::from_str(text).unwrap();
        let mut s = ArgsSchema::new(&declared).expect("compiles");
        s.quote_numbers_as_written(text, "");
        let problems = |call: Value| triples(&s.check(&call, Coercions::NONE));
        let t = |p: &str, k: &str, e: &str| (p.to_string(), k.to_string(), e.to_string());
        // `a{,3}` is literal text: `aaa` is no member of it (Python's `a{0,3}` would be).
        assert_eq!(problems(json!({"a{,3}": 1, "x": "y"})), []);
        assert_eq!(
            problems(json!({"a{,3}": "3"})),
            [t("/a{,3}", "type", "an integer")]
        );
        assert_eq!(problems(json!({"aaa": "3"})), []);
        assert_eq!(problems(json!({"-": 0.5, "z": {}})), []);
        assert_eq!(
            problems(json!({"7": 5, "a": {"p": "c"}})),
            [
                t("/7", "maximum", "at most 1E0"),
                t(
                    "/a/p",
                    "pattern",
                    "text matching the regular expression `b{,1}`"
                )
            ]
        );
        // Still invalid once respelled: named as written, not as compiled (`(a\{,2}`).
        let e = ArgsSchema::new(&json!({"type":"object","patternProperties":{"(a{,2}/":{}}}))
            .err()
            .unwrap();
        assert_eq!(e.pointer, "/patternProperties/(a{,2}~1");
        assert!(
            e.message.contains("\"(a{,2}/\" is not a \"regex\""),
            "{}",
            e.message
        );
        // A key no ECMA-262 reads stays refused, saying why.
        for key in ["\\Z", "[[:alpha:]]"] {
            let e = ArgsSchema::new(&json!({"type":"object","patternProperties":{key:{}}}))
                .err()
                .unwrap();
            assert!(
                e.message.contains("is no ECMA-262 regular expression"),
                "{}",
                e.message
            );
        }
    }

    #[test]
    fn ecma_nul_escape_is_checked_as_nul_and_quoted_as_written() {
        // zod's `.regex(/^[^\0]+$/)`: the validator's engine has no `\0`.
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "glob":{"type":"string","pattern":"^[^\\0]+$"}}}))
        .unwrap();
        assert!(
            s.check(&json!({"glob":"abc"}), Coercions::NONE)
                .problems
                .is_empty()
        );
        let nul = json!({"glob":"a\0c"});
        let r = s.check(&nul, Coercions::NONE);
        let t = |p: &str, k: &str, e: &str| (p.to_string(), k.to_string(), e.to_string());
        assert_eq!(
            triples(&r),
            [t(
                "/glob",
                "pattern",
                "text matching the regular expression `^[^\\0]+$`"
            )]
        );
        assert_eq!(s.schema()["properties"]["glob"]["pattern"], "^[^\\0]+$");
    }

    #[test]
    fn union_reports_the_problems_of_the_branch_the_value_has_the_type_of() {
        let s = ArgsSchema::new(&order()).unwrap();
        let args = json!({"coupon":50,"when":"yesterday"});
        let r = s.check(&args, Coercions::NONE);
        let t = |p: &str, k: &str, e: &str| (p.to_string(), k.to_string(), e.to_string());
        assert_eq!(
            triples(&r),
            [
                t("/coupon", "minimum", "at least 100"),
                t("/when", "format", "a valid date-time")
            ]
        );
        assert_eq!(
            r.problems[0].message,
            "/coupon: 50 is too small; expected at least 100."
        );
        // A string coupon is the string branch's problem.
        let string = json!({"coupon":"X-1"});
        let r = s.check(&string, Coercions::NONE);
        assert_eq!(r.problems[0].keyword, "pattern");
    }

    #[test]
    fn union_of_objects_follows_the_discriminator() {
        let s = ArgsSchema::new(&order()).unwrap();
        let args = json!({"attachment":{"kind":"image","body":"hi"}});
        let r = s.check(&args, Coercions::NONE);
        let got = triples(&r);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].0, "/attachment/url");
        assert_eq!(got[0].1, "required");
        assert_eq!(got[0].2, "a string");
        assert_eq!(got[1].0, "/attachment/body");
        assert_eq!(got[1].1, "additionalProperties");
        assert!(got[1].2.contains("`kind`, `url`"), "{}", got[1].2);
    }

    #[test]
    fn union_with_no_nearest_branch_names_each_by_what_failed() {
        let s = ArgsSchema::new(&order()).unwrap();
        // No discriminator matches: both object branches fit the type.
        let args = json!({"attachment":{"kind":"video","url":"v.mp4"},"coupon":true});
        let r = s.check(&args, Coercions::NONE);
        assert_eq!(r.problems.len(), 2, "{:#?}", r.problems);
        let of = |kw: &str| r.problems.iter().find(|p| p.keyword == kw).unwrap();
        assert_eq!(
            of("anyOf").expected,
            "one of: a string matching `^C-`; an integer at least 100"
        );
        assert_eq!(
            of("oneOf").expected,
            "one of: image block (an object) [/attachment/kind: exactly \"image\"]; \
             A (an object) [/attachment/body: required (a string), /attachment/kind: exactly \
             \"text\", /attachment/url: not allowed]"
        );
        assert!(!r.retry_message(None).contains("a A"));
        // The same call gives the same text.
        assert_eq!(s.check(&args, Coercions::NONE).problems, r.problems);
    }

    /// A union of 2,000 alternatives describes 16 and counts the rest: before, every one was
    /// described, and one problem's message was 59 kB.
    #[test]
    fn a_union_describes_at_most_sixteen_alternatives() {
        let options: Vec<Value> = (0..2000)
            .map(|i| json!({"title": format!("Option {i}"), "type": "string"}))
            .collect();
        let declared = json!({"type": "object", "properties": {"x": {"anyOf": options}}});
        let s = ArgsSchema::new(&declared).unwrap();
        let args = json!({"x": 5});
        let r = s.check(&args, Coercions::NONE);
        assert_eq!(r.problems.len(), 1, "{:#?}", r.problems);
        let expected = &r.problems[0].expected;
        assert!(expected.contains("Option 15"), "{expected}");
        assert!(!expected.contains("Option 16"), "{expected}");
        assert!(
            expected.ends_with("; or one of 1984 more alternatives"),
            "{expected}"
        );
        assert!(
            r.retry_message(None).len() < 2000,
            "{}",
            r.retry_message(None)
        );
    }

    /// An `enum` member the `type` rules out (`null` beside `type: string`, as zod and
    /// pydantic write it) is never accepted, so "expected" does not offer it: neither for a
    /// missing argument nor for a value outside the list. Where `type` admits null it stays.
    #[test]
    fn expected_enum_members_leave_out_those_the_type_rules_out() {
        let declared = json!({"type":"object","properties":{
            "m":{"type":"string","enum":["a","b",null]},
            "n":{"type":["string","null"],"enum":["a",null]},
            "o":{"type":"integer","enum":[1,"x",2.0]}},
            "required":["m","n","o"]});
        let s = ArgsSchema::new(&declared).unwrap();
        let t = |p: &str, k: &str, e: &str| (p.to_string(), k.to_string(), e.to_string());
        let none = json!({});
        let r = s.check(&none, Coercions::NONE);
        assert_eq!(
            triples(&r),
            [
                t("/m", "required", "one of \"a\", \"b\""),
                t("/n", "required", "one of \"a\", null"),
                t("/o", "required", "one of 1, 2.0"),
            ]
        );
        let outside = json!({"m":"c","n":"c","o":3});
        let r = s.check(&outside, Coercions::NONE);
        assert_eq!(
            triples(&r),
            [
                t("/m", "enum", "one of \"a\", \"b\""),
                t("/n", "enum", "one of \"a\", null"),
                t("/o", "enum", "one of 1, 2.0"),
            ]
        );
        assert_eq!(
            r.problems[0].message,
            "/m: \"c\" is not an allowed value; expected one of \"a\", \"b\"."
        );
    }

    #[test]
    fn nullable_accepts_null_and_keeps_the_declared_places() {
        let declared = json!({"type":"object","properties":{
            "stops":{"type":"integer","nullable":true},
            "via":{"type":"string","enum":["air","sea"],"nullable":true}},
            "required":["stops","via"]});
        let s = ArgsSchema::new(&declared).unwrap();
        assert_eq!(s.schema(), &declared);
        let args = json!({"stops":null,"via":null});
        let r = s.check(&args, Coercions::NONE);
        assert!(r.is_valid(), "{:#?}", r.problems);
        assert!(r.absent_nulls.is_empty());
        let bad = json!({"stops":"two","via":"rail"});
        let r = s.check(&bad, Coercions::NONE);
        let t = |p: &str, k: &str, e: &str| (p.to_string(), k.to_string(), e.to_string());
        assert_eq!(
            triples(&r),
            [
                t("/stops", "type", "null or an integer"),
                t("/via", "enum", "one of \"air\", \"sea\", null")
            ]
        );
    }

    #[test]
    fn draft04_boolean_bounds_are_exclusive() {
        let declared = json!({"type":"object","properties":{"t":{"type":"number",
            "minimum":0,"exclusiveMinimum":true,"maximum":2,"exclusiveMaximum":true}}});
        let s = ArgsSchema::new(&declared).unwrap();
        let zero = json!({"t":0});
        let r = s.check(&zero, Coercions::NONE);
        assert_eq!(r.problems[0].keyword, "exclusiveMinimum");
        assert_eq!(
            r.problems[0].message,
            "/t: 0 is too small; expected more than 0."
        );
        let two = json!({"t":2});
        let r = s.check(&two, Coercions::NONE);
        assert_eq!(
            r.problems[0].message,
            "/t: 2 is too large; expected less than 2."
        );
        assert!(s.check(&json!({"t":1.5}), Coercions::NONE).is_valid());
        // The same schema declared as draft-04 means the same.
        let mut d4 = declared.clone();
        d4["$schema"] = "http://json-schema.org/draft-04/schema#".into();
        let s = ArgsSchema::new(&d4).unwrap();
        assert!(!s.check(&json!({"t":0}), Coercions::NONE).is_valid());
        assert!(s.check(&json!({"t":0.5}), Coercions::NONE).is_valid());
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
        let err = ArgsSchema::new(&json!({"type":"object","properties":{"a":{"type":"strin"}}}))
            .unwrap_err();
        assert_eq!(err.pointer, "/properties/a/type");
        // Named as the spelling it is, not in the meta-schema's words about its own `anyOf`
        // (trial 64, builder's note: "\"strin\" is not valid under any of the schemas listed
        // in the 'anyOf' keyword").
        assert!(
            err.message.starts_with(
                "the schema is not valid JSON Schema: \"strin\" is not a JSON Schema type \
                 (the types are \"string\", \"number\", "
            ),
            "{}",
            err.message
        );
        let err = ArgsSchema::new(&json!({"type":["string", "nul"]})).unwrap_err();
        assert!(
            err.message.contains("\"nul\" is not a JSON Schema type"),
            "{}",
            err.message
        );
        // A list of standard types that is refused for another reason keeps the validator's
        // words.
        let err = ArgsSchema::new(&json!({"type":["string", "string"]})).unwrap_err();
        assert!(
            !err.message.contains("is not a JSON Schema type"),
            "{}",
            err.message
        );
        // A property named `type` is a schema, not the keyword: its string is no schema, and
        // is not called a type (before: "\"strin\" is not a JSON Schema type" there too).
        let err =
            ArgsSchema::new(&json!({"type":"object","properties":{"type":"strin"}})).unwrap_err();
        assert_eq!(err.pointer, "/properties/type");
        assert!(
            !err.message.contains("is not a JSON Schema type"),
            "{}",
            err.message
        );
    }

    /// Trial 51 D4: a call's arguments are decoded once, as the application's `json.loads`
    /// does, so an object encoded twice (OpenAI) or an `input` written as a string
    /// (Anthropic) is a string, the model's error; `--coerce json` reads it, with its note.
    #[test]
    fn a_calls_arguments_are_decoded_exactly_once() {
        let schema = ArgsSchema::new(&json!({
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"]
        }))
        .unwrap();
        for call in [
            r#"{"type":"function","function":{"name":"w","arguments":"\"{\\\"city\\\":\\\"P\\\"}\""}}"#,
            r#"{"type":"tool_use","id":"t","name":"w","input":"{\"city\":\"P\"}"}"#,
        ] {
            let e = envelope::read(call, &serde_json::from_str(call).unwrap(), &[])
                .unwrap()
                .unwrap();
            let Sent::Value(args) = parse_call_arguments(&e.text).unwrap() else {
                panic!("{call}: not read");
            };
            assert_eq!(args, json!(r#"{"city":"P"}"#), "{call}");
            let r = schema.check(&args, Coercions::NONE);
            assert_eq!(
                r.problems[0].message,
                r#"(the arguments object): "{\"city\":\"P\"}" is a string; expected an object."#,
                "{call}"
            );
            let coerced = schema.check(&args, Coercions::ALL);
            assert!(coerced.is_valid(), "{call}");
            assert_eq!(*coerced.arguments, json!({"city": "P"}));
            assert_eq!(coerced.coercions[0].kind, CoercionKind::JsonText);
        }
        // The arguments given alone may still be OpenAI's string, decoded as documented.
        assert_eq!(
            parse_arguments(r#""{\"city\":\"P\"}""#).unwrap(),
            Sent::Value(json!({"city": "P"}))
        );
    }

    /// The arguments text of a whole call is decoded past a leading byte order mark; pasted
    /// alone as a JSON string it was "a string; expected an object" (trial 70 D10). Both
    /// forms now read the same object, and a BOM after white space is not JSON in either.
    #[test]
    fn a_bom_led_arguments_string_reads_alike_alone_and_in_a_call() {
        let call = r#"{"name":"w","arguments":"\ufeff{\"city\":\"P\"}"}"#;
        let e = envelope::read(call, &serde_json::from_str(call).unwrap(), &[])
            .unwrap()
            .unwrap();
        let in_call = parse_call_arguments(&e.text).unwrap();
        assert_eq!(in_call, Sent::Value(json!({"city": "P"})));
        let alone = parse_arguments(r#""\ufeff{\"city\":\"P\"}""#).unwrap();
        assert_eq!(alone, in_call);
        let spaced = r#""  \ufeff{\"city\":\"P\"}""#;
        assert!(
            matches!(parse_arguments(spaced).unwrap(), Sent::NotJson { .. }),
            "{spaced}"
        );
        let call = r#"{"name":"w","arguments":"  \ufeff{\"city\":\"P\"}"}"#;
        let e = envelope::read(call, &serde_json::from_str(call).unwrap(), &[])
            .unwrap()
            .unwrap();
        // An error here, which the command reads as text that is not JSON.
        assert!(parse_call_arguments(&e.text).is_err());
        // A string that is no object's text stays a string.
        assert_eq!(
            parse_arguments(r#""\ufeffParis""#).unwrap(),
            Sent::Value(json!("\u{feff}Paris"))
        );
    }

    #[test]
    fn arguments_as_a_json_string_are_unwrapped() {
        let value = |v| Sent::Value(v);
        assert_eq!(
            parse_arguments(r#""{\"a\":1}""#).unwrap(),
            value(json!({"a":1}))
        );
        assert_eq!(
            parse_arguments(r#"{"a":1}"#).unwrap(),
            value(json!({"a":1}))
        );
        assert!(
            parse_arguments("{")
                .unwrap_err()
                .to_string()
                .contains("line 1")
        );
        // OpenAI's arguments string cut short: a problem of the call, not an error.
        let Sent::NotJson { text, error } = parse_arguments(r#""{\"city\": \"Par""#).unwrap()
        else {
            panic!("the cut text is not JSON");
        };
        assert_eq!(text, r#"{"city": "Par"#);
        // The text ends at column 13: more was expected at 14, where a truncated file is
        // placed too ([`crate::json::error_place`]).
        assert!(
            error.starts_with("the arguments text: line 1, column 14"),
            "{error}"
        );
        let report = ArgsReport::not_json(&text, &error);
        assert!(!report.is_valid());
        assert_eq!(report.problems[0].keyword, "json");
        let said = report.retry_message(Some("get_weather"));
        assert!(
            said.contains("not valid JSON (the arguments text: line 1, column 14"),
            "{said}"
        );
        assert!(said.contains("one complete JSON object"), "{said}");
    }

    /// A call that could not be read gives `arguments` as `null`, never the text (a string
    /// where a program forwarding `arguments` expects the object), and the text as sent in
    /// `arguments_text`; a call read has no `arguments_text`.
    #[test]
    fn arguments_are_the_value_read_or_null_with_the_text_beside() {
        for report in [
            ArgsReport::not_json(r#"{"a": "#, "cut short"),
            ArgsReport::number_out_of_range(r#"{"x":1e400}"#, "/x", "1e400"),
            ArgsReport::too_deep("[[", "line 1, column 2", 1),
            ArgsReport::empty(),
        ] {
            let written = serde_json::to_value(&report).unwrap();
            assert_eq!(written["arguments"], Value::Null, "{written}");
            assert!(written["arguments_text"].is_string(), "{written}");
        }
        let written = serde_json::to_value(ArgsReport::number_out_of_range(
            r#"{"x":1e400}"#,
            "/x",
            "1e400",
        ))
        .unwrap();
        assert_eq!(written["arguments_text"], json!(r#"{"x":1e400}"#));
        let read = check_arguments(&json!({}), &json!({"a": 1}), Coercions::NONE).unwrap();
        let written = serde_json::to_value(&read).unwrap();
        assert_eq!(written["arguments"], json!({"a": 1}));
        assert!(written.get("arguments_text").is_none(), "{written}");
    }

    /// Arguments nested past the reader's limit were "not valid JSON", and empty ones
    /// "(whole file): empty file": each is now said as it is, naming the limit.
    #[test]
    fn too_deep_and_empty_arguments_are_said_as_they_are() {
        let deep = format!("{}1{}", r#"{"a":"#.repeat(600), "}".repeat(600));
        let quoted = serde_json::to_string(&deep).unwrap();
        for text in [&deep, &quoted] {
            let sent = parse_arguments(text).unwrap();
            let Sent::TooDeep { at, max_depth, .. } = &sent else {
                panic!("{sent:?}");
            };
            assert_eq!((at.as_str(), *max_depth), ("line 1, column 2561", 512));
            let said = ArgsReport::too_deep(text, at, *max_depth).retry_message(None);
            assert!(
                said.contains("nest deeper than 512 levels (line 1, column 2561)"),
                "{said}"
            );
            assert!(!said.contains("not valid JSON"), "{said}");
        }
        for text in ["", "  \n", "\u{feff}"] {
            assert_eq!(parse_arguments(text).unwrap(), Sent::Empty, "{text:?}");
        }
        let said = ArgsReport::empty().retry_message(None);
        assert!(said.contains("the arguments are empty"), "{said}");
        assert!(!said.contains("file"), "{said}");
    }

    /// A number past the `f64` range is a problem of the call at its place, in both forms;
    /// the model is told to send one within range (not that the JSON is broken).
    #[test]
    fn numbers_past_the_float_range_are_a_problem_of_the_call() {
        for (text, pointer, number) in [
            (r#"{"n": 1e400}"#, "/n", "1e400"),
            (r#"{"a": [1, {"b~/": -2E+999}]}"#, "/a/1/b~0~1", "-2E+999"),
            (r#""{\"n\": 1e400}""#, "/n", "1e400"),
            ("1e400", "", "1e400"),
        ] {
            let sent = parse_arguments(text).unwrap();
            let Sent::NumberOutOfRange {
                pointer: p,
                number: n,
                ..
            } = &sent
            else {
                panic!("{text}: {sent:?}");
            };
            assert_eq!((p.as_str(), n.as_str()), (pointer, number), "{text}");
            let report = ArgsReport::number_out_of_range("t", p, n);
            assert!(!report.is_valid());
            assert_eq!(report.problems[0].keyword, "number-range");
            let said = report.retry_message(Some("f"));
            assert!(
                said.contains(&format!("the number {number} is too large")),
                "{said}"
            );
        }
        // One of a million digits was quoted whole: a megabyte retry message (trial 56 D3).
        let long = format!(r#"{{"n": {}}}"#, "9".repeat(1_000_000));
        let Sent::NumberOutOfRange {
            pointer, number, ..
        } = parse_arguments(&long).unwrap()
        else {
            panic!("not out of range");
        };
        let said = ArgsReport::number_out_of_range(&long, &pointer, &number).retry_message(None);
        assert!(
            said.contains(&format!(
                "/n: the number {}...{} (1000000 digits) is too large",
                "9".repeat(24),
                "9".repeat(12)
            )),
            "{said}"
        );
        assert!(said.len() < 400, "{}", said.len());
        // Other errors stay what they were.
        assert!(parse_arguments(r#"{"n": 1,}"#).is_err());
    }

    /// Numbers serde_json reads into another `f64` than the one written are listed; other
    /// spellings of the same value and exact integers are not.
    #[test]
    fn numbers_checked_as_another_value_are_listed() {
        let found = inexact_numbers(
            r#"{"big": 12345678901234567890123, "long": 1.0000000000000000001, "tiny": 1e-400,
                "same": [1e2, 100.0, 0.1, -0, 18446744073709551615, -9223372036854775808, 2.5E-3]}"#,
        );
        let said: Vec<(&str, &str)> = found
            .iter()
            .map(|n| (n.pointer.as_str(), n.written.as_str()))
            .collect();
        assert_eq!(
            said,
            [
                ("/big", "12345678901234567890123"),
                ("/long", "1.0000000000000000001"),
                ("/tiny", "1e-400")
            ]
        );
        assert_eq!(found[0].read_as.as_f64(), Some(1.2345678901234568e22));
        assert_eq!(found[2].read_as.as_f64(), Some(0.0));
        // OpenAI's string form is read inside; text that is not JSON has none.
        let inner = inexact_numbers(r#""{\"x\": [99999999999999999999]}""#);
        assert_eq!(inner.len(), 1);
        assert_eq!(inner[0].pointer, "/x/0");
        assert!(inexact_numbers("{").is_empty());
    }

    /// A number read as another value makes the call invalid even where the check of the
    /// value read passed (2^64 + 1 is read as 2^64, which `maximum: 2^64` allows): the
    /// problem names the number as sent and as read; a call without one is left as it was.
    #[test]
    fn a_number_read_inexactly_is_a_problem_of_the_call() {
        let schema = ArgsSchema::new(
            &serde_json::from_str(r#"{"properties": {"id": {"maximum": 18446744073709551616}}}"#)
                .unwrap(),
        )
        .unwrap();
        let text = r#"{"id": 18446744073709551617}"#;
        let call = serde_json::from_str(text).unwrap();
        let mut report = schema.check(&call, Coercions::NONE);
        assert!(report.is_valid(), "the value read passes: {report:?}");
        report.cannot_vouch_for(&schema, &inexact_numbers(text));
        assert!(!report.is_valid());
        let [p] = report.problems.as_slice() else {
            panic!("{report:?}")
        };
        assert_eq!(
            (p.pointer.as_str(), &*p.keyword),
            ("/id", "number-precision")
        );
        assert!(
            p.message.starts_with(
                "/id: the number 18446744073709551617 cannot be checked as written: an integer \
                 written in full is checked as sent only from -2^63 to 2^64-1, and past that as \
                 a 64-bit float (this one as 1.8446744073709552e+19"
            ),
            "{}",
            p.message
        );
        let exact = r#"{"id": 18446744073709551615}"#;
        let call = serde_json::from_str(exact).unwrap();
        let mut report = schema.check(&call, Coercions::NONE);
        report.cannot_vouch_for(&schema, &inexact_numbers(exact));
        assert!(report.is_valid(), "{report:?}");
    }

    /// A problem found of the float a number was read as is said of that float, not of the
    /// number sent: 0.99999999999999999 is less than 1, so "0.99999999999999999 is too large;
    /// expected less than 1" was false, and told the model to send what it had sent (trial 60
    /// D4); the same for numeric text coerced. A number read exactly (`1e2`, read as 100.0) is
    /// still quoted as sent, with nothing added.
    #[test]
    fn a_problem_of_the_float_read_names_the_float() {
        let schema = ArgsSchema::new(&json!({"properties": {
            "p": {"type": "number", "exclusiveMaximum": 1},
            "q": {"type": "number", "multipleOf": 2, "minimum": 2},
            "r": {"type": "integer"}}}))
        .unwrap();
        let said = |text: &str, coerce: Coercions| {
            let call: Value = serde_json::from_str(text).unwrap();
            let mut report = schema.check(&call, coerce);
            report.quote_numbers_as_sent(text);
            report
                .problems
                .iter()
                .map(|p| p.message.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            said(r#"{"p": 0.99999999999999999}"#, Coercions::NONE),
            ["/p: 0.99999999999999999 is read as 1.0, which is too large; expected less than 1."]
        );
        assert_eq!(
            said(r#"{"p": "0.99999999999999999"}"#, Coercions::ALL)[..1],
            [
                r#"/p: "0.99999999999999999" is read as 1.0, which is too large; expected less than 1."#
            ]
        );
        assert_eq!(
            said(r#"{"q": 1.00000000000000001}"#, Coercions::NONE),
            [
                "/q: 1.00000000000000001 is read as 1.0, which is too small; expected at least 2.",
                "/q: 1.00000000000000001 is read as 1.0, which is not a multiple of 2; expected \
                 a multiple of 2."
            ]
        );
        assert_eq!(
            said(r#"{"p": 1e2}"#, Coercions::NONE),
            ["/p: 1e2 is too large; expected less than 1."]
        );
        // Number or integer is the same of both, so a `type` problem quotes the number sent.
        assert_eq!(
            said(r#"{"r": 0.50000000000000001}"#, Coercions::NONE),
            ["/r: 0.50000000000000001 is a number; expected an integer."]
        );
    }

    /// An integer written in full past the 64-bit ones is read as a float for its size alone,
    /// so the retry message names the exponent form that is read by its digits where the
    /// float spells them (trial 55 D5: 10^22, one digit, was asked for "at most 15 significant
    /// digits"), and the form named is one the call is then accepted with. Where it does not,
    /// no other number is named (trial 70 D3: `1.23456789012346e20` was asked for
    /// 123456789012345678901 and then passed): the problem names the keyword that may judge
    /// it by the digits the float does not hold and says no call holding it can be checked; a
    /// decimal alike. Where no keyword does (`type: number`), there is no problem.
    #[test]
    fn an_integer_past_the_64_bit_ones_is_told_its_exponent_form() {
        let message = |schema: Value, text: &str| {
            let schema = ArgsSchema::new(&json!({"properties": {"i": schema}})).unwrap();
            let call: Value = serde_json::from_str(text).unwrap();
            let mut report = schema.check(&call, Coercions::NONE);
            report.cannot_vouch_for(&schema, &inexact_numbers(text));
            report
                .problems
                .iter()
                .map(|p| p.message.clone())
                .collect::<Vec<_>>()
        };
        let bounded = json!({"type": "number", "maximum": 1e300});
        let said = |i: &str| message(bounded.clone(), &format!(r#"{{"i": {i}}}"#));
        let same = "send the same number in exponent form,";
        let head = |sent: &str| {
            format!(
                "/i: the number {sent} cannot be checked as written: an integer written in \
                 full is checked as sent only from -2^63 to 2^64-1, and past that as a 64-bit \
                 float (this one as "
            )
        };
        for (sent, form, tail) in [
            ("10000000000000000000000", "1e22", format!("1e+22); {same}")),
            (
                "-10000000000000000000000",
                "-1e22",
                format!("-1e+22); {same}"),
            ),
        ] {
            let [m] = said(sent).try_into().unwrap_or_else(|m| panic!("{m:?}"));
            assert_eq!(m, format!("{}{tail} `{form}`.", head(sent)));
            assert!(
                inexact_numbers(&format!(r#"{{"i": {form}}}"#)).is_empty(),
                "{form}"
            );
        }
        let unchecked = "and the verdict of `maximum` here may rest on digits the float does \
                         not hold; no spelling of this number is read exactly, so no call \
                         holding it can be checked here.";
        for sent in ["18446744073709551617", "18446744073709551616"] {
            let [m] = said(sent).try_into().unwrap_or_else(|m| panic!("{m:?}"));
            assert_eq!(
                m,
                format!(
                    "{}1.8446744073709552e+19, whose digits are not those sent), {unchecked}",
                    head(sent)
                )
            );
        }
        let [m] = said("0.10000000000000000001").try_into().unwrap();
        assert_eq!(
            m,
            format!(
                "/i: the number 0.10000000000000000001 cannot be checked as sent: it is read as \
                 0.1 (a 64-bit float), {unchecked}"
            )
        );
        for plain in [json!({"type": "number"}), json!({"type": "integer"})] {
            for sent in ["123456789012345678901", "-9223372036854775809"] {
                let text = format!(r#"{{"i": {sent}}}"#);
                assert_eq!(
                    message(plain.clone(), &text),
                    Vec::<String>::new(),
                    "{sent}"
                );
            }
        }
    }

    /// A long number read inexactly is quoted shortened in every problem at it (its first and
    /// last digits and how many it has), as one past the float range is: quoted whole, a
    /// decimal of a million digits made a retry message of two megabytes. The JSON field
    /// `written` keeps it whole, as `check` lists it.
    #[test]
    fn a_long_inexact_number_is_quoted_shortened() {
        let schema =
            ArgsSchema::new(&json!({"properties": {"i": {"type": "integer", "maximum": 1}}}))
                .unwrap();
        let text = format!(r#"{{"i": 0.1{}}}"#, "1".repeat(100_000));
        let call: Value = serde_json::from_str(&text).unwrap();
        let mut report = schema.check(&call, Coercions::NONE);
        report.quote_numbers_as_sent(&text);
        let inexact = inexact_numbers(&text);
        report.cannot_vouch_for(&schema, &inexact);
        let shown = "0.1111111111111111111111...111111111111 (100002 digits)";
        let messages: Vec<&str> = report.problems.iter().map(|p| &*p.message).collect();
        assert_eq!(
            messages,
            [
                format!("/i: {shown} is a number; expected an integer."),
                format!(
                    "/i: the number {shown} cannot be checked as sent: it is read as \
                     0.1111111111111111 (a 64-bit float), and the verdict of `maximum` here may \
                     rest on digits the float does not hold; no spelling of this number is read \
                     exactly, so no call holding it can be checked here."
                ),
            ]
        );
        assert_eq!(inexact[0].written, &text[6..text.len() - 1]);
    }

    /// Numeric text read inexactly is named as the same JSON number is, at the coercion's
    /// place with the text sent (trial 58 D16: it had the problem, but no note nor
    /// `inexact_numbers` entry); text read exactly is not.
    #[test]
    fn coerced_numeric_text_read_inexactly_is_listed() {
        let schema = ArgsSchema::new(&json!({"properties": {"n": {"type": "number"}}})).unwrap();
        let inexact = |text: &str| {
            let call = json!({ "n": text });
            let r = schema.check(&call, Coercions::ALL);
            r.coercions.first().and_then(Coercion::inexact)
        };
        let n = inexact(" 0.10000000000000000001").unwrap();
        assert_eq!(
            (
                n.line,
                n.pointer.as_str(),
                n.written.as_str(),
                n.read_as.as_f64()
            ),
            (None, "/n", "0.10000000000000000001", Some(0.1))
        );
        assert_eq!(inexact("0.1"), None);
    }

    /// Long numeric text coerced is quoted shortened as a long number is, with its digit
    /// count, in the problem quoting the text sent and in the coercion's note text (trial 58
    /// D5: the problem cut it as any string, `"0.111...`, with no end nor count, and the note
    /// quoted it whole); `from` keeps it whole.
    #[test]
    fn long_numeric_text_is_quoted_shortened() {
        let schema =
            ArgsSchema::new(&json!({"properties": {"n": {"type": "number", "maximum": 0}}}))
                .unwrap();
        let text = format!("0.{}", "1".repeat(100_000));
        let call = json!({ "n": text });
        let report = schema.check(&call, Coercions::ALL);
        let shown = "\"0.1111111111111111111111...111111111111 (100001 digits)\"";
        assert_eq!(
            report.problems[0].message,
            format!(
                "/n: {shown} is read as 0.1111111111111111, which is too large; expected at \
                 most 0."
            )
        );
        let [c] = &report.coercions[..] else {
            panic!("{:?}", report.coercions)
        };
        assert_eq!(c.long_numeric_text().as_deref(), Some(shown));
        assert_eq!(c.from, text);
        // Short text is quoted as any string is.
        let call = json!({"n": "1e3"});
        let report = schema.check(&call, Coercions::ALL);
        assert_eq!(report.coercions[0].long_numeric_text(), None);
        assert!(
            report.problems[0]
                .message
                .starts_with("/n: \"1e3\" is too large")
        );
    }

    /// Numeric text coerced to a number is held to what a JSON number is: text read as
    /// another value is a `number-precision` problem in the same words, even where the value
    /// read passes (`"0.10000000000000000001"` is read as 0.1, which `maximum: 0.1` allows);
    /// so it is where no keyword judges it by digits its float does not hold, where a JSON
    /// number is none (coerced, the text becomes the float); text read exactly is left valid.
    #[test]
    fn numeric_text_read_inexactly_is_a_problem_as_a_number_is() {
        let schema = json!({"type":"object","properties":{
            "i":{"type":"number","maximum":0.1},"x":{"type":"number"},"n":{"type":"integer"}}});
        let s = ArgsSchema::new(&schema).unwrap();
        let coerced = |args: Value| {
            let r = s.check(&args, Coercions::ALL);
            let mut got: Vec<(String, String, String)> = r
                .problems
                .iter()
                .map(|p| (p.pointer.clone(), p.keyword.to_string(), p.message.clone()))
                .collect();
            got.sort();
            got
        };
        let text = coerced(json!({"i": "0.10000000000000000001", "x": "1.2345678901234567890"}));
        let sent = r#"{"i": 0.10000000000000000001, "x": 1.2345678901234567890}"#;
        let value: Value = serde_json::from_str(sent).unwrap();
        let mut as_number = s.check(&value, Coercions::NONE);
        as_number.cannot_vouch_for(&s, &inexact_numbers(sent));
        let unchecked = "no spelling of this number is read exactly, so no call holding it can \
                         be checked here.";
        let said_i = format!(
            "/i: the number 0.10000000000000000001 cannot be checked as sent: it is read as 0.1 \
             (a 64-bit float), and the verdict of `maximum` here may rest on digits the float \
             does not hold; {unchecked}"
        );
        let said_x = format!(
            "/x: the number 1.2345678901234567890 cannot be checked as sent: it is read as \
             1.2345678901234567 (a 64-bit float); {unchecked}"
        );
        let expected: Vec<(String, String, String)> = [("/i", said_i.as_str()), ("/x", &said_x)]
            .into_iter()
            .map(|(p, m)| (p.to_string(), "number-precision".to_string(), m.to_string()))
            .collect();
        assert_eq!(text, expected);
        // As JSON numbers, /x is judged by `type: number` alone, as the number sent would be.
        let places: Vec<_> = as_number
            .problems
            .iter()
            .map(|p| (p.pointer.as_str(), p.message.as_str()))
            .collect();
        assert_eq!(places, [("/i", said_i.as_str())]);
        // Whole-number text coerced to an integer, and an underflow, alike.
        let text = coerced(json!({"n": "1.00000000000000000001", "x": "1e-400"}));
        let keywords: Vec<(&str, &str)> = text
            .iter()
            .map(|(p, k, _)| (p.as_str(), k.as_str()))
            .collect();
        assert_eq!(
            keywords,
            [("/n", "number-precision"), ("/x", "number-precision")]
        );
        assert_eq!(
            coerced(json!({"i": "0.1", "x": "1e2", "n": "7"})),
            Vec::<(String, String, String)>::new()
        );
    }

    /// Whole-number text with an exponent is coerced under `integer` as its JSON number passes
    /// (trial 58 D10: `"1e19"` and `"1e22"` were refused as "too large to read exactly",
    /// though `1e22` is the form a `number-precision` problem asks for), to the integer it is
    /// within the 64-bit ones; written in full past 2^64 it gets the number-precision advice.
    #[test]
    fn whole_number_text_in_exponent_form_is_coerced_as_its_number_is() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{"i":{"type":"integer"}}}))
            .unwrap();
        let coerced = |text: &str| {
            let call = json!({ "i": text });
            let r = s.check(&call, Coercions::ALL);
            let problems: Vec<String> = r.problems.iter().map(|p| p.message.clone()).collect();
            (r.coercions.first().map(|c| c.to.to_string()), problems)
        };
        let none = Vec::<String>::new();
        assert_eq!(coerced("1e3"), (Some("1000".to_string()), none.clone()));
        assert_eq!(
            coerced("1e19"),
            (Some("10000000000000000000".to_string()), none.clone())
        );
        assert_eq!(
            coerced("-1e18"),
            (Some("-1000000000000000000".to_string()), none.clone())
        );
        assert_eq!(coerced("1e22"), (Some("1e+22".to_string()), none.clone()));
        assert_eq!(coerced("1e300"), (Some("1e+300".to_string()), none));
        let (_, problems) = coerced("10000000000000000000000");
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].ends_with("send the same number in exponent form, `1e22`."),
            "{problems:?}"
        );
    }

    /// Whole-number text read inexactly is coerced to the float it is read as, as the same
    /// JSON number is, not to the integer that float is (trial 59 D8: "-9223372036854775809"
    /// was said coerced to -9223372036854775808 while its problem said it is read as
    /// -9.223372036854776e+18).
    #[test]
    fn whole_number_text_read_inexactly_stays_the_float_it_is_read_as() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{"i":{"type":"integer"}}}))
            .unwrap();
        for (text, float) in [
            ("-9223372036854775809", "-9.223372036854776e+18"),
            (
                "123456789012345678901234567890e-10",
                "1.2345678901234567e+19",
            ),
            ("18446744073709551617", "1.8446744073709552e+19"),
        ] {
            let call = json!({ "i": text });
            let r = s.check(&call, Coercions::ALL);
            let to = r.coercions.first().map(|c| c.to.to_string());
            assert_eq!(to.as_deref(), Some(float), "{text}");
            let sent: Value = serde_json::from_str(text).unwrap();
            assert_eq!(
                r.coercions[0].to, sent,
                "{text}: as its JSON number is read"
            );
            assert!(r.coercions[0].inexact().is_some(), "{text}");
        }
    }

    /// Numeric text past the float range is said to be that, not "not numeric text": the
    /// model sent a number, just one no double holds.
    #[test]
    fn numeric_text_past_the_float_range_is_said_so() {
        let s = ArgsSchema::new(&json!({"type":"object","properties":{"x":{"type":"number"}}}))
            .unwrap();
        let sent = json!({"x": "-1e400"});
        let r = s.check(&sent, Coercions::ALL);
        assert_eq!(
            r.problems[0].message,
            "/x: \"-1e400\" is a string holding a number past the range of a 64-bit float (the \
             largest is about 1.8e308); expected a number."
        );
        let sent = json!({"x": "1e40x"});
        let r = s.check(&sent, Coercions::ALL);
        assert!(r.problems[0].message.contains("that is not numeric text"));
    }

    /// A problem names the number the model sent as it sent it, in either form of the
    /// arguments; a number shown as sent already, or not at the start of a problem, is left.
    #[test]
    fn numbers_are_quoted_as_sent() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "z": {"type": "number", "minimum": 1},
            "n": {"type": "integer", "maximum": 10},
            "e": {"type": "number", "maximum": 10},
            "k": {"type": "string"}}});
        let messages = |text: &str| {
            let Sent::Value(v) = parse_arguments(text).unwrap() else {
                panic!("{text}")
            };
            let mut report = check_arguments(&schema, &v, Coercions::NONE).unwrap();
            report.quote_numbers_as_sent(text);
            report
                .problems
                .into_iter()
                .map(|p| p.message)
                .collect::<Vec<_>>()
        };
        let sent = r#"{"z": -0, "n": 18446744073709551617, "e": 1e2, "k": 5}"#;
        let said = messages(sent);
        assert_eq!(
            said,
            [
                "/z: -0 is too small; expected at least 1.",
                "/n: 18446744073709551617 is read as 1.8446744073709552e+19, which is too large; \
             expected at most 10.",
                "/e: 1e2 is too large; expected at most 10.",
                "/k: 5 is an integer; expected a string.",
            ]
        );
        let quoted = serde_json::to_string(sent).unwrap();
        assert_eq!(messages(&quoted), said);
    }

    /// Numeric text checked under `--coerce number` is quoted as the text sent, not as the
    /// number it was read as: the model sent `"1e3"`, never `1000.0`.
    #[test]
    fn coerced_numeric_text_is_quoted_as_sent() {
        let schema = serde_json::json!({"type": "object", "properties": {
            "n": {"type": "number", "maximum": 100},
            "i": {"type": "integer", "minimum": 5}}});
        let coerce = Coercions {
            numeric_text: true,
            ..Coercions::NONE
        };
        let report =
            check_arguments(&schema, &serde_json::json!({"n": "1e3", "i": "2"}), coerce).unwrap();
        let said: Vec<_> = report.problems.iter().map(|p| p.message.as_str()).collect();
        assert_eq!(
            said,
            [
                "/n: \"1e3\" is too large; expected at most 100.",
                "/i: \"2\" is too small; expected at least 5.",
            ]
        );
    }
}

#[cfg(test)]
mod undecided_tests {
    use super::*;
    use serde_json::json;

    fn backtracking() -> ArgsSchema {
        ArgsSchema::new(&json!({"type":"object","properties":{
            "c":{"type":"string","pattern":"^(a|a)+\\1$"},
            "t":{"type":"string"}}}))
        .unwrap()
    }

    /// A value the engine gives up on (30 `a`s then `!`: fancy-regex's backtracking limit).
    fn too_hard() -> String {
        format!("{}!", "a".repeat(30))
    }

    /// The crate keeps only the errors every outcome of an unfinished match shares, so with
    /// another problem present the undecided `pattern` used to vanish from the report.
    #[test]
    fn a_pattern_the_engine_gives_up_on_is_listed_beside_other_problems() {
        let s = backtracking();
        let call = json!({"c": too_hard(), "t": 5});
        let r = s.check(&call, Coercions::NONE);
        let places = super::tests::places(&r);
        assert_eq!(places, [("/t", "type"), ("/c", "pattern")]);
        let c = &r.problems[1];
        assert!(c.message.contains("gave up"), "{}", c.message);
        assert!(c.message.contains("backtracking limit"), "{}", c.message);
        assert!(!c.message.contains("does not match"), "{}", c.message);
        assert_eq!(
            c.expected,
            "text matching the regular expression `^(a|a)+\\1$`"
        );
    }

    /// Alone, the crate reports the engine's failure itself: named with the pattern, not as
    /// "fails `pattern`", and listed once.
    #[test]
    fn a_pattern_the_engine_gives_up_on_alone_names_the_regex() {
        let s = backtracking();
        let call = json!({"c": too_hard()});
        let r = s.check(&call, Coercions::NONE);
        assert_eq!(r.problems.len(), 1, "{:#?}", r.problems);
        let c = &r.problems[0];
        assert_eq!((c.pointer.as_str(), c.keyword.as_ref()), ("/c", "pattern"));
        assert!(c.message.contains("`^(a|a)+\\1$`"), "{}", c.message);
        assert!(c.message.contains("gave up"), "{}", c.message);
        assert!(!c.message.contains("fails `pattern`"), "{}", c.message);
    }

    /// A decided mismatch is still a plain mismatch, and an undecided match is found after
    /// normalisation too (an optional null dropped).
    #[test]
    fn decided_mismatches_and_normalised_calls_read_as_before() {
        let s = backtracking();
        let call = json!({"c":"zz","t":5});
        let r = s.check(&call, Coercions::NONE);
        assert_eq!(r.problems.len(), 2);
        assert!(r.problems[0].message.contains("does not match"));
        let s = ArgsSchema::new(&json!({"type":"object","properties":{
            "c":{"type":"string","pattern":"^(a|a)+\\1$"},
            "n":{"type":"integer"},
            "t":{"type":"string"}}}))
        .unwrap();
        let call = json!({"c": too_hard(), "n": null, "t": 5});
        let r = s.check(&call, Coercions::NONE);
        assert_eq!(r.absent_nulls, ["/n"]);
        let pointers: Vec<&str> = r.problems.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(pointers, ["/t", "/c"]);
    }
}
