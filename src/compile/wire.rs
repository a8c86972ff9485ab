//! The wire forms that differ from the canonical schema, and the argument mapping between
//! them: strict structured outputs (OpenAI, Azure strict, DeepSeek: every object closed,
//! every property required, optional ones nullable), DeepSeek's strict subset, Cohere's
//! strict tools (at least one required property per object).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::ops::Bound;

use percent_encoding::AsciiSet;
use serde_json::{Map, Value, json};

use crate::json::push_token;
use crate::repair::Change;
use crate::schema::{LIST_OF_SCHEMAS, ONE_SCHEMA};

/// How a target's wire form differs from the canonical schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The canonical schema as repaired for the target's profile.
    Plain,
    /// OpenAI structured outputs (`strict: true`): closed objects, all required, optional as
    /// nullable. Source: PROVIDERS.md §5 and the reports quoted there ("'additionalProperties'
    /// is required to be supplied and to be false", "'required' is required to be supplied
    /// and to be an array including every key in properties").
    Strict,
    /// DeepSeek strict (PROVIDERS.md §13, rig-core's summary): as [`Form::Strict`], no length
    /// bounds, `format` only email, hostname, ipv4, ipv6, uuid.
    DeepSeekStrict,
    /// Cohere `strict_tools` (README of the target; docs.cohere.com): at least one required
    /// property per object.
    CohereStrict,
}

impl Form {
    /// The form of a target id.
    pub fn of(target: &str) -> Form {
        match target {
            "openai/chat-strict" | "openai/responses-strict" => Form::Strict,
            "deepseek/beta-strict" => Form::DeepSeekStrict,
            "cohere/v2-strict" => Form::CohereStrict,
            _ => Form::Plain,
        }
    }
}

impl Form {
    /// What the form adds to the canonical schema, in words (`None` for [`Form::Plain`]).
    pub fn requirements(self) -> Option<&'static str> {
        match self {
            Form::Plain => None,
            Form::Strict => {
                Some("every object closed, every property required, optional ones nullable")
            }
            Form::DeepSeekStrict => Some(
                "every object closed, every property required, optional ones nullable, no length bounds, only DeepSeek's formats",
            ),
            Form::CohereStrict => Some("at least one required property per object"),
        }
    }
}

/// DeepSeek's strict formats (PROVIDERS.md §13).
const DEEPSEEK_FORMATS: &[&str] = &["email", "hostname", "ipv4", "ipv6", "uuid"];
const LENGTH_BOUNDS: &[&str] = &["minLength", "maxLength", "minItems", "maxItems"];

/// Why a schema cannot be put in a wire form, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unwirable {
    /// JSON Pointer into the schema: the place that cannot be rewritten.
    pub pointer: String,
    /// Why, without the place.
    pub reason: String,
}

impl Unwirable {
    fn at(pointer: &str, reason: impl Into<String>) -> Self {
        Unwirable {
            pointer: pointer.to_string(),
            reason: reason.into(),
        }
    }
}

/// Rewrites `schema` into `form`. Returns the changes, or every place it cannot be done at
/// and why (in schema order; never empty): a user fixes them all from one run, not one per
/// run. On an error `schema` is left partly rewritten. `max_inline_nodes` caps the nodes the
/// `$ref`s a strict form merges may grow the schema to ([`merge_ref_siblings`];
/// `--max-inline-nodes`, [`crate::repair::Options::max_inline_nodes`]). `given` is the
/// parameters schema as given (compile's canonical copy), where known: whether an optional
/// argument's null is a value is judged there, as `toolwire args` judges it ([`AsGiven`]).
pub fn apply(
    form: Form,
    schema: &mut Value,
    given: Option<&Value>,
    max_inline_nodes: usize,
) -> Result<Vec<Change>, Vec<Unwirable>> {
    let mut changes = Vec::new();
    let mut blocked = Vec::new();
    // Too deep is the only error of this pass, and past it nothing below is walked.
    if let Err(e) = required_lists(schema, "", &mut changes, 0) {
        return Err(vec![e]);
    }
    if form == Form::CohereStrict {
        drop_empty_all_of(schema, &mut changes);
        blocked.extend(no_schemas(schema));
    }
    if matches!(form, Form::Strict | Form::DeepSeekStrict) {
        blocked.extend(merge_ref_siblings(schema, &mut changes, max_inline_nodes));
    }
    // Places below are read back from the schema as it stands now: the wire form's own
    // wraps are taken off first ([`Refs::as_given`]).
    let as_given = given.filter(|_| form != Form::Plain).map(|given| AsGiven {
        given,
        received: schema.clone(),
    });
    let mut refs = Refs::default();
    if form != Form::Plain {
        refs = Refs::of(schema);
        mend_required(schema, "", &mut changes, 0);
        write_nullable(schema, "", &mut changes, &mut refs, 0);
    }
    match form {
        Form::Plain => {}
        Form::Strict | Form::DeepSeekStrict => {
            if form == Form::DeepSeekStrict {
                deepseek_subset(schema, "", &mut changes, 0);
            }
            // Read only through a `$ref` branch: a schema without a `$ref` is not copied.
            let unclosed = read_root(schema, &refs);
            let read = Read {
                unclosed: &unclosed,
                as_given: as_given.as_ref(),
            };
            close(schema, "", &mut changes, &mut blocked, &mut refs, &read, 0);
        }
        Form::CohereStrict => {
            // Read only through a `$ref` beside an object: a schema without one is not copied.
            let unrewritten = read_root(schema, &refs);
            let conditions = condition_definitions(&unrewritten);
            let mut walk = OneRequired {
                changes: &mut changes,
                blocked: &mut blocked,
                refs: &mut refs,
                unrewritten: &unrewritten,
                conditions: &conditions,
                as_given: as_given.as_ref(),
                beside: HashMap::new(),
            };
            walk.visit(schema, "", 0);
        }
    }
    if refs.write(schema)
        && let Some((at, problem)) = crate::schema::broken_ref(schema)
    {
        blocked.push(Unwirable::at(
            &at,
            format!(
                "the strict form wraps schemas in `anyOf` to make them nullable, and this \
                 reference would then be broken ({problem}): refer to a `$defs` definition instead"
            ),
        ));
    }
    if blocked.is_empty() {
        Ok(changes)
    } else {
        Err(blocked)
    }
}

/// Cohere strict: drops each `allOf: []` of `schema`, one change each, nothing lost, as
/// repair drops it where a profile rejects it: it applies no schema to the value (2020-12
/// core §10.2.1.1), and [`no_schemas`] would refuse it, as `toolwire args` cannot read it.
fn drop_empty_all_of(schema: &mut Value, changes: &mut Vec<Change>) {
    let places: Vec<String> = crate::schema::walk(schema)
        .nodes
        .iter()
        .filter(|n| {
            n.object()
                .and_then(|o| o.get("allOf"))
                .is_some_and(|v| v.as_array().is_some_and(Vec::is_empty))
        })
        .map(|n| n.pointer.clone())
        .collect();
    for at in places {
        if let Some(o) = schema.pointer_mut(&at).and_then(Value::as_object_mut) {
            o.shift_remove("allOf");
            changes.push(Change {
                rule: crate::profile::rules::keyword_value_invalid::RULE.id.into(),
                ..change(
                    &push_token(&at, "allOf"),
                    crate::repair::EMPTY_ALL_OF_DROPPED.into(),
                    None,
                )
            });
        }
    }
}

/// Cohere strict: each place of `schema` that holds no JSON Schema where one is wanted, in
/// schema order: a subschema that is neither an object nor a boolean (`anyOf: [1]`, the
/// shorthand `"x": "number"`), and an `anyOf`, `oneOf` or `allOf` that is no non-empty list
/// (2020-12 validation wants at least one schema; an empty `anyOf` or `oneOf` admits no
/// value). `toolwire args` refuses such a schema, so no call could be checked against it.
/// OpenAI's and DeepSeek's offline models refuse both in their meta-schema pass
/// ([`crate::target::openai::meta_problem`]); Cohere's model has no such pass and no
/// evidence of what Cohere does, so compile refuses it here, and the strict targets agree
/// (trial 62 D5: cohere/v2-strict wrote `anyOf: []` and `anyOf: [1, true]` out, exit 0).
/// The root is [`super::canonical::write_root`]'s.
fn no_schemas(schema: &Value) -> Vec<Unwirable> {
    let mut refused = Vec::new();
    for node in crate::schema::walk(schema).nodes {
        if !matches!(node.value, Value::Object(_) | Value::Bool(_)) {
            if !matches!(node.via, crate::schema::Via::Root) {
                refused.push(Unwirable::at(
                    &node.pointer,
                    format!(
                        "this is a JSON {}, not a schema (an object or a boolean), so the \
                         schema is no JSON Schema and `toolwire args` cannot check a call \
                         against it; write it as a schema object",
                        crate::json::kind(node.value)
                    ),
                ));
            }
            continue;
        }
        let Some(o) = node.object() else {
            continue;
        };
        for keyword in ["allOf", "anyOf", "oneOf"] {
            let Some(v) = o.get(keyword) else {
                continue;
            };
            if v.as_array().is_some_and(|list| !list.is_empty()) {
                continue;
            }
            // An empty `allOf` is dropped before ([`drop_empty_all_of`]); removed, an empty
            // `anyOf` or `oneOf`, against which no value is valid, would accept every value.
            let (admits, fix) = if keyword == "allOf" || !v.is_array() {
                ("", "give it at least one schema, or remove it")
            } else {
                (
                    " (as given, it admits no value)",
                    "give it the schemas it was meant to hold (removed, it would accept every \
                     value)",
                )
            };
            refused.push(Unwirable::at(
                &push_token(&node.pointer, keyword),
                format!(
                    "`{keyword}` is {}, not a non-empty list of schemas{admits}, so the schema \
                     is no JSON Schema and `toolwire args` cannot check a call against it; {fix}",
                    if v.is_array() {
                        "an empty list".to_string()
                    } else {
                        format!("a JSON {}", crate::json::kind(v))
                    }
                ),
            ));
        }
    }
    refused
}

/// Strict forms: why the root `schema`, as repair left it, is no tool without arguments to
/// close when it declares no property and the root `given` (the canonical schema before
/// repair, which may have dropped a keyword the target rejects, `dependentRequired`) says its
/// members elsewhere ([`crate::repair::says_members_elsewhere`]): closed, it would refuse
/// every call that carries one, and every call for a `minProperties`. Repair refuses such a
/// root with these words for a profile that rejects a root without properties
/// (openai/chat-strict); the other strict forms wrote it closed, exit 0 (trial 48 D2). A root
/// that still requires a name is left to [`close`], which names it.
pub fn members_elsewhere(form: Form, given: &Value, schema: &Value) -> Option<Unwirable> {
    let o = schema.as_object()?;
    let declares = |k: &str| match o.get(k) {
        Some(Value::Object(m)) => !m.is_empty(),
        Some(Value::Array(l)) => !l.is_empty(),
        _ => false,
    };
    (matches!(form, Form::Strict | Form::DeepSeekStrict)
        && is_object_schema(o)
        && !declares("properties")
        && !declares("required")
        // A root `$ref` to an object is that object, which the form inlines (trial 50 D1).
        && !crate::repair::root_is_an_object(schema)
        && given
            .as_object()
            .is_some_and(crate::repair::says_members_elsewhere))
    .then(|| Unwirable::at("", crate::repair::MEMBERS_ELSEWHERE))
}

/// Strict forms: the `then`, `else`, `if` and `not` of each object schema in `given` (the
/// canonical schema before repair) that declare or require a member the object does not
/// declare ([`conditionals_on_the_object`]), the object's members read in `schema` (as repair
/// left it: a merge may have given it more) where it still has that place. Repair drops such a
/// keyword, or the `dependentRequired` in it, where the target rejects it, before [`close`]
/// can judge it (trial 48 D5: openai/chat-strict and openai/responses-strict dropped `if`
/// and then `then: {"dependentRequired": {"kind": ["r"]}}`, exit 0, and the output refused
/// every call carrying `r`). So are the object's own `dependentRequired`, `dependencies` and
/// `minProperties` that ask for more members than it declares ([`demands_on_the_object`]).
pub fn conditionals_given(form: Form, given: &Value, schema: &Value) -> Vec<Unwirable> {
    if !matches!(form, Form::Strict | Form::DeepSeekStrict) {
        return Vec::new();
    }
    let mut blocked = Vec::new();
    for n in crate::schema::walk(given).nodes {
        let Some(o) = n.object().filter(|o| is_object_schema(o)) else {
            continue;
        };
        if ![
            "then",
            "else",
            "if",
            "not",
            "dependentRequired",
            "dependencies",
            "minProperties",
            "allOf",
            "anyOf",
            "oneOf",
            "$ref",
        ]
        .iter()
        .any(|k| o.contains_key(*k))
        {
            continue;
        }
        let names: Vec<String> = schema
            .pointer(&n.pointer)
            .and_then(|now| now.get("properties"))
            .or_else(|| o.get("properties"))
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        for (part, at) in applying_with(o, &n.pointer, given) {
            blocked.extend(demands_on_the_object(part, &at, &names));
        }
        blocked.extend(conditionals_on_the_object(o, &n.pointer, &names, given));
        // A branch's own `if`, which repair drops with its `then` and `else` (they mean
        // nothing without it), is judged as given: after repair, `close` would find no `then`
        // declaring the member the closed object refuses (trial 48 D13, trial 88 D1).
        if branch_conditionals_name_others(o, &n.pointer, &names, given) {
            blocked.extend(branches_on_the_object(o, &n.pointer, &names, given, &[]));
        }
    }
    blocked
}

/// Whether a branch of the object schema `o` at `at` (declaring `names`) reaches, in
/// `given` ([`branch_parts`]), an `if` whose `then` or `else` declares or requires a member
/// `o` does not declare.
fn branch_conditionals_name_others(
    o: &Map<String, Value>,
    at: &str,
    names: &[String],
    given: &Value,
) -> bool {
    ["anyOf", "oneOf", "allOf"].iter().any(|keyword| {
        let Some(Value::Array(branches)) = o.get(*keyword) else {
            return false;
        };
        let here = push_token(at, keyword);
        branches.iter().enumerate().any(|(index, b)| {
            let Value::Object(b) = b else { return false };
            let branch = push_token(&here, &index.to_string());
            branch_parts(b, &branch, given)
                .unwrap_or_default()
                .iter()
                .filter(|p| p.contains_key("if"))
                .flat_map(|p| ["then", "else"].into_iter().filter_map(|k| p.get(k)))
                .filter_map(Value::as_object)
                .any(|c| {
                    let named = c
                        .get("properties")
                        .and_then(Value::as_object)
                        .into_iter()
                        .flat_map(|p| p.keys().map(String::as_str))
                        .chain(required_names(c));
                    named.into_iter().any(|n| !names.iter().any(|m| m == n))
                })
        })
    })
}

/// The object schema `o` at `at` and every schema that applies to its value with it, with
/// their pointers: the branches of its `allOf`, `anyOf` and `oneOf`, and the target of a
/// `$ref` in `root`'s document, in turn. A demand in an `allOf` branch is the object's own; one
/// in an `anyOf`/`oneOf` branch is that branch's, which strict mode's closing leaves no call
/// able to meet, as [`branches_on_the_object`] refuses a branch requiring an undeclared member.
/// Repair drops the keyword the strict form rejects first, so such a demand compiled, exit 0,
/// to an object refusing every call carrying it: merged from a one-branch `allOf` (trial 50
/// D9), reached through a `$ref` in one (trial 52 D4), or left an empty `anyOf` branch written
/// as `true` (trial 52 D14). Each place is visited once (`$ref` cycles end).
fn applying_with<'a>(
    o: &'a Map<String, Value>,
    at: &str,
    root: &'a Value,
) -> Vec<(&'a Map<String, Value>, String)> {
    let mut parts = vec![(o, at.to_string())];
    let mut seen: HashSet<String> = HashSet::from([at.to_string()]);
    let mut i = 0;
    while let Some((part, here)) = parts.get(i).cloned() {
        let mut next: Vec<(&'a Value, String)> = Vec::new();
        for keyword in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = part.get(keyword) {
                let list = push_token(&here, keyword);
                next.extend(
                    branches
                        .iter()
                        .enumerate()
                        .map(|(k, b)| (b, push_token(&list, &k.to_string()))),
                );
            }
        }
        if let Some(reference) = part.get("$ref").and_then(Value::as_str)
            && let crate::schema::refs::Step::Local(target, pointer) =
                crate::schema::refs::step_from(root, &here, reference)
        {
            next.push((target, pointer));
        }
        for (v, pointer) in next {
            if let Value::Object(m) = v
                && seen.insert(pointer.clone())
            {
                parts.push((m, pointer));
            }
        }
        i += 1;
    }
    parts
}

/// Strict forms: the object schema `o` at `at`, whose members are `names`, asks through its own
/// `dependentRequired` or `dependencies` (either form) for a member no property declares beside
/// a declared one, or through `minProperties` for more members than it declares. Closed to its
/// properties, it would refuse every call carrying that declared member (every call, for
/// `minProperties`), which the original accepts, while repair said only that the keyword was
/// no longer enforced (trial 50 D9, exit 0).
fn demands_on_the_object(o: &Map<String, Value>, at: &str, names: &[String]) -> Vec<Unwirable> {
    let mut blocked = Vec::new();
    for keyword in ["dependentRequired", "dependencies"] {
        let Some(Value::Object(lists)) = o.get(keyword) else {
            continue;
        };
        for (with, needs) in lists {
            if !names.contains(with) {
                continue;
            }
            let needs: Vec<&str> = match needs {
                Value::Array(l) => l.iter().filter_map(Value::as_str).collect(),
                Value::Object(s) => required_names(s).collect(),
                _ => Vec::new(),
            };
            let ghosts: Vec<&str> = needs
                .into_iter()
                .filter(|n| !names.iter().any(|d| d == n))
                .collect();
            if !ghosts.is_empty() {
                let them = if ghosts.len() == 1 { "it" } else { "them" };
                blocked.push(Unwirable::at(
                    &push_token(at, keyword),
                    format!(
                        "`{keyword}` asks for {} with `{with}`, which no property declares; \
                         strict mode closes the object to the properties it declares, so every \
                         call carrying `{with}`, which must carry {them} too, would be refused. \
                         Declare {them} in `properties`",
                        listed(&ghosts)
                    ),
                ));
            }
        }
    }
    if let Some(min) = o.get("minProperties").and_then(Value::as_u64)
        && min > names.len() as u64
    {
        blocked.push(Unwirable::at(
            &push_token(at, "minProperties"),
            format!(
                "`minProperties: {min}` asks for more members than the object declares ({}); \
                 strict mode closes the object to them, so every call would be refused",
                names.len()
            ),
        ));
    }
    blocked
}

/// Closing treats a `$ref`'s target and the keywords beside it as two schemas: where those
/// keywords make an object schema of their own (`properties`, `type: "object"`), hold
/// branches (`anyOf`, `oneOf`, `allOf`) or require members (`required`), each would be closed to its own properties and refuse
/// the other's members, so no call would be valid there (trial 45: `{"$ref": "#/$defs/X",
/// "properties": {"z": ..}}` compiled, exit 0, to a schema refusing every call). Such a schema
/// has its `$ref`s inlined first, each one's keywords merged into its target as repair merges
/// them for a target that takes no `$ref` ([`crate::repair::inlined`], [`Conflicts::Refuse`]:
/// only where one schema says exactly both), growing it to at most `max_inline_nodes` nodes
/// (`--max-inline-nodes`, as repair's own inlining: trial 46, the default cap was used and
/// named whatever the option said). Where that cannot be done, each such `$ref` is named,
/// with why, and the schema is left as it was.
///
/// [`Conflicts::Refuse`]: crate::repair::refs::Conflicts::Refuse
fn merge_ref_siblings(
    schema: &mut Value,
    changes: &mut Vec<Change>,
    max_inline_nodes: usize,
) -> Vec<Unwirable> {
    // `required` alone beside it names members closing keeps required while the target,
    // closed to its own properties, refuses them (trial 46: `{"$ref": Y, "required": ["w"]}`
    // accepted no call).
    let apart = |o: &Map<String, Value>| {
        o.contains_key("$ref")
            && (is_object_schema(o)
                || ["anyOf", "oneOf", "allOf", "required"]
                    .iter()
                    .any(|k| o.contains_key(*k)))
    };
    let holders: Vec<String> = crate::schema::walk(schema)
        .nodes
        .into_iter()
        .filter(|n| n.object().is_some_and(apart))
        .map(|n| push_token(&n.pointer, "$ref"))
        .collect();
    if holders.is_empty() {
        return Vec::new();
    }
    use crate::repair::refs::{Conflicts, refusal_text};
    match crate::repair::inlined(schema, "compile", max_inline_nodes, Conflicts::Refuse) {
        Ok((out, inlined)) => {
            *schema = out;
            changes.extend(inlined);
            Vec::new()
        }
        Err(r) => {
            // Said once where it is this `$ref`'s own, as every other place is said once.
            let why = |own: &str| {
                if r.pointer == own {
                    r.reason.clone()
                } else {
                    format!(
                        "a schema's `$ref`s are inlined all or none, and this schema's cannot all \
                         be: {}",
                        refusal_text(&r)
                    )
                }
            };
            holders
            .iter()
            .map(|own| {
                Unwirable::at(
                    own,
                    format!(
                        "strict mode would close this `$ref`'s target and the object the keywords \
                         beside it make each to its own properties, so that no call would be \
                         valid here, and the two cannot be merged into one schema: {}. {}",
                        why(own),
                        r.cause.advice()
                    ),
                )
            })
            .collect()
        }
    }
}

/// Whether `schema` is already in `form`: [`apply`] would change nothing in it (and can
/// rewrite it at all, within the default expansion cap). What `check` asks before saying a
/// strict target needs its strict form, so that it does not say so of compile's own output.
pub fn is_in(form: Form, schema: &Value) -> bool {
    let mut copy = schema.clone();
    let cap = crate::repair::refs::MAX_INLINE_NODES;
    matches!(apply(form, &mut copy, None, cap), Ok(changes) if changes.is_empty())
}

/// Every form: `required: "d"` naming a declared property is the list `["d"]` (what draft-04
/// and later say `required` is; lossless, so done even where no evidence asks for it, as a
/// target's parser may not read a string there).
fn required_lists(
    v: &mut Value,
    at: &str,
    changes: &mut Vec<Change>,
    depth: usize,
) -> Result<(), Unwirable> {
    if depth > MAX_DEPTH {
        return Err(Unwirable::at(at, "the schema nests too deep to compile"));
    }
    let Value::Object(o) = v else {
        return Ok(());
    };
    let declared = match (o.get("required"), o.get("properties")) {
        (Some(Value::String(name)), Some(Value::Object(props))) if props.contains_key(name) => {
            Some(name.clone())
        }
        _ => None,
    };
    if let Some(name) = declared {
        o.insert("required".into(), json!([name.clone()]));
        changes.push(change(
            &push_token(at, "required"),
            format!("wrote `required: \"{name}\"` as the list `[\"{name}\"]`"),
            None,
        ));
    }
    children(o, at, |sub, here| {
        required_lists(sub, here, changes, depth + 1)
    })
}

/// Strict forms: each object's `required` is written anew ([`close`] lists every property,
/// Cohere's [`OneRequired`] adds one when none is named), so a `required` that is no list of
/// names (`{"x": true}`, draft-03's `true`, `"a"` naming nothing declared, `["x", 1]`) would
/// be overwritten, or sent as it is, without a word. It is first rewritten as repair rewrites
/// it ([`crate::repair::mend_required`], rule `required-invalid`, with repair's words and
/// loss): what it said is reported as lost, and the strict form's own lines then say which
/// arguments that left optional it made required and nullable.
fn mend_required(v: &mut Value, at: &str, changes: &mut Vec<Change>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let Value::Object(o) = v else { return };
    if is_object_schema(o)
        && let Some((action, lost)) = crate::repair::mend_required(o)
    {
        changes.push(Change {
            rule: crate::profile::rules::required_invalid::RULE.id.into(),
            ..change(&push_token(at, "required"), action, lost)
        });
    }
    let _ = children(o, at, |sub, here| {
        mend_required(sub, here, changes, depth + 1);
        Ok(())
    });
}

fn change(pointer: &str, action: String, lost: Option<String>) -> Change {
    Change {
        pointer: pointer.to_string(),
        rule: "compile".into(),
        action,
        emptied: false,
        lost,
    }
}

fn is_object_schema(o: &Map<String, Value>) -> bool {
    match o.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        _ => o.get("properties").is_some_and(Value::is_object),
    }
}

/// Calls `f` on every subschema below `node` (schema positions only), with its pointer.
fn children(
    node: &mut Map<String, Value>,
    at: &str,
    mut f: impl FnMut(&mut Value, &str) -> Result<(), Unwirable>,
) -> Result<(), Unwirable> {
    for (k, v) in node.iter_mut() {
        let here = push_token(at, k);
        match k.as_str() {
            "properties" | "$defs" | "definitions" | "patternProperties" => {
                if let Value::Object(m) = v {
                    for (name, sub) in m.iter_mut() {
                        f(sub, &push_token(&here, name))?;
                    }
                }
            }
            k if (ONE_SCHEMA.contains(&k) || k == "items") && v.is_object() => f(v, &here)?,
            k if LIST_OF_SCHEMAS.contains(&k) || k == "items" => {
                if let Value::Array(a) = v {
                    for (i, sub) in a.iter_mut().enumerate() {
                        f(sub, &push_token(&here, &i.to_string()))?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

const MAX_DEPTH: usize = 512;

/// The schema as the strict forms read it before rewriting it: whole where a `$ref` may be
/// followed into it, else only its `$schema` (or `null` without one), which says how the
/// keywords are read: draft-06 has no `if`, drafts 04 to 07 ignore a `$ref`'s siblings, as
/// `toolwire args` reads them (trial 62 D2: deepseek/beta-strict took a draft-06 `if` refusing
/// null for a refusal, where `args` passes the null on). A schema without a `$ref` is not
/// copied.
fn read_root(schema: &Value, refs: &Refs) -> Value {
    if refs.reached.is_empty() && !refs.others {
        schema
            .get("$schema")
            .map_or(Value::Null, |s| json!({"$schema": s}))
    } else {
        schema.clone()
    }
}

/// What [`close`] reads besides the schema it rewrites.
struct Read<'a> {
    /// The whole schema as it was before the walk, which the `$ref` branches of an object
    /// are read in ([`branches_on_the_object`]).
    unclosed: &'a Value,
    /// The schema as given, where known.
    as_given: Option<&'a AsGiven<'a>>,
}

/// Closes every object schema and makes every property required, optional ones nullable.
/// Each object that cannot be closed is added to `blocked` and the walk goes on, so every
/// such place is named at once.
fn close(
    v: &mut Value,
    at: &str,
    changes: &mut Vec<Change>,
    blocked: &mut Vec<Unwirable>,
    refs: &mut Refs,
    read: &Read<'_>,
    depth: usize,
) {
    let unclosed = read.unclosed;
    if depth > MAX_DEPTH {
        blocked.push(Unwirable::at(at, "the schema nests too deep to compile"));
        return;
    }
    let Value::Object(o) = v else {
        return;
    };
    if is_object_schema(o) {
        match o.get("additionalProperties") {
            Some(Value::Bool(false)) => {}
            // A map that declares properties is closed below, its extra members lost, as every
            // strict form treats it (repair drops the schema first for OpenAI's, which refuse
            // it, and [`closing_given_back`] says the loss; README: closing one with "a schema
            // for extra members" keeps the model from sending them): before, DeepSeek's refused
            // it while OpenAI's closed it (trial 60 D2). A map that declares none has no
            // member left to send, and is refused, as repair refuses it for OpenAI's.
            Some(Value::Object(_))
                if o.get("properties")
                    .and_then(Value::as_object)
                    .is_none_or(Map::is_empty) =>
            {
                // Named at the keyword, as repair names it where a profile refuses it: that
                // is what the user changes, and the object's other places stay apart.
                blocked.push(Unwirable::at(
                    &push_token(at, "additionalProperties"),
                    "an object whose extra members have a schema (a map) cannot be closed for strict mode",
                ));
            }
            open => {
                let mut closed = change(at, CLOSED.into(), closing_loses(open, o, at));
                closed.emptied = empties(o, at);
                o.insert("additionalProperties".into(), json!(false));
                changes.push(closed);
            }
        }
        let names: Vec<String> = o
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let refused = write_true_branches(o, at, changes, refs);
        let judged = branches_on_the_object(o, at, &names, unclosed, &refused);
        blocked.extend(refused);
        blocked.extend(judged);
        blocked.extend(conditionals_on_the_object(o, at, &names, unclosed));
        let required: Vec<String> = o
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        if !o.contains_key("properties") {
            o.insert("properties".into(), json!({}));
        }
        // Sets, not lists, are asked: an object of 30,000 properties is closed in linear time.
        let declared: HashSet<&str> = names.iter().map(String::as_str).collect();
        let said_required: HashSet<&str> = required.iter().map(String::as_str).collect();
        // A closed object can never carry a member no property declares (a
        // `patternProperties` pattern's member included: strict forms take no patterns), and
        // every call valid here carries each `required` one: dropped, it left a schema that
        // refused every such call, exit 0 (trial 48 D2).
        let ghosts: Vec<&str> = required
            .iter()
            .map(String::as_str)
            .filter(|r| !declared.contains(r))
            .collect();
        if !ghosts.is_empty() {
            blocked.push(Unwirable::at(
                &push_token(at, "required"),
                undeclared_required(o, &ghosts),
            ));
        }
        let optional: Vec<&String> = names
            .iter()
            .filter(|n| !said_required.contains(n.as_str()))
            .collect();
        if let Some(Value::Object(props)) = o.get_mut("properties") {
            let properties = push_token(at, "properties");
            for name in optional {
                if let Some(p) = props.get_mut(name) {
                    let here = push_token(&properties, name);
                    let accepts = optional_accepts_null(p, &here, unclosed, read.as_given, refs);
                    let action = if accepts {
                        // `args` keeps a null the declared schema accepts: here it cannot
                        // tell "not given" from null, and null is a valid value.
                        NULL_PASSED_ON
                    } else {
                        REQUIRED_AND_NULLABLE
                    };
                    optional_made_nullable(p, &here, refs, accepts);
                    changes.push(change(&here, action.into(), None));
                }
            }
        }
        o.insert(
            "required".into(),
            Value::Array(names.into_iter().map(Value::String).collect()),
        );
    }
    let _ = children(o, at, |sub, here| {
        close(sub, here, changes, blocked, refs, read, depth + 1);
        Ok(())
    });
}

/// Keys that say nothing in a branch of an object schema besides the annotations
/// ([`crate::profile::rules::ANNOTATIONS`]): the content keywords (annotations, JSON Schema
/// 2020-12 validation §8, which `args` does not assert either) and the definitions a branch
/// holds for `$ref`s to reach (`$defs`, 2020-12 core §8.2.4; `definitions` before it), which
/// assert nothing where they are ([`reached_inside`] says when they are needed); an `x-`
/// extension key is an annotation too (core §6.5), as `args` reads it.
const SAY_NOTHING_IN_A_BRANCH: &[&str] = &[
    // Identifiers (2020-12 core §8.1.1, §8.2): they name the branch for a `$ref` and assert
    // nothing, and [`reached_inside`] keeps a branch a `$ref` may name by one (trial 54 D9).
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "$defs",
    "definitions",
];

/// Leaves out (where no `$ref` reaches into the keyword, else writes as `true`) each branch
/// of the object schema `o`'s `anyOf` and `allOf`, and the one
/// branch of a one-branch `oneOf`, that asserts nothing (`{}`, or only annotations, keys of
/// [`SAY_NOTHING_IN_A_BRANCH`] and a `format` where `o`'s `type` excludes strings: a format
/// passes any value of a type it does not apply to, 2020-12 validation §7.1, each defined one
/// applies to strings, §7.3, and `args` checks formats on strings only): it accepts every
/// value, as `true` does, which [`branches_on_the_object`] leaves alone, where such a branch
/// was closed to no member and refused (trial 50 D11, trial 52 D3). Left out, an `anyOf` or
/// `oneOf` goes with it, as it then accepts every value too (trial 60 D1: the strict models
/// refuse a `true` branch). A `oneOf` of more
/// branches is left as it is: there a branch accepting every value makes the `oneOf` refuse
/// what another branch accepts, which strict mode's closing of that branch would change.
/// Returns the branches that cannot be so written, as a `$ref` reaches into them
/// ([`reached_inside`]).
fn write_true_branches(
    o: &mut Map<String, Value>,
    at: &str,
    changes: &mut Vec<Change>,
    refs: &Refs,
) -> Vec<Unwirable> {
    let no_strings = match o.get("type") {
        Some(Value::String(t)) => t != "string",
        Some(Value::Array(ts)) => !ts.iter().any(|t| t == "string"),
        _ => false,
    };
    let says_nothing = |k: &str| {
        crate::profile::rules::ANNOTATIONS.contains(&k)
            || SAY_NOTHING_IN_A_BRANCH.contains(&k)
            || k.starts_with("x-")
            || (k == "format" && no_strings)
    };
    let asserts_nothing = |b: &Value| crate::schema::asserts_nothing(b, says_nothing);
    let mut refused = Vec::new();
    for keyword in ["anyOf", "oneOf", "allOf"] {
        let Some(Value::Array(branches)) = o.get_mut(keyword) else {
            continue;
        };
        if keyword == "oneOf" && branches.len() != 1 {
            continue;
        }
        let of = push_token(at, keyword);
        let mut needed = false;
        for (i, b) in branches.iter().enumerate() {
            let here = push_token(&of, &i.to_string());
            if b.is_object()
                && asserts_nothing(b)
                && let Some(why) = reached_inside(b, &here, refs)
            {
                needed = true;
                refused.push(Unwirable::at(
                    &here,
                    format!(
                        "branch {i} asserts nothing (it accepts every value), and strict mode \
                         writes such a branch as `true` (closed, it would accept no call), but \
                         {why}"
                    ),
                ));
            }
        }
        // An `allOf` of such branches alone is `true` itself: said by leaving it out, as a
        // target without `allOf` (deepseek/beta-strict) takes it (trial 52 D15: refused).
        if keyword == "allOf" && !needed && branches.iter().all(asserts_nothing) {
            o.shift_remove(keyword);
            changes.push(change(
                &of,
                "dropped the `allOf`, whose branches assert nothing (it accepts every value)"
                    .into(),
                None,
            ));
            continue;
        }
        // The strict targets' offline models refuse a `true` branch as they refuse `{}` (it
        // has no `type` key: target::openai::boolean_without_type, trial 60 D1), so where
        // no `$ref` reaches into the keyword (its places stay as they are) the branch is
        // left out instead, which is exact: an `anyOf` (or a one-branch `oneOf`) with a
        // branch accepting every value accepts every value, and an `allOf` is the same
        // without it.
        let nothing: Vec<usize> = (0..branches.len())
            .filter(|&i| asserts_nothing(&branches[i]))
            .collect();
        // An `allOf` keeps its other branches, whose places a `$ref` into them would lose.
        let movable = match keyword {
            "allOf" => refs.within(&of).next().is_none(),
            _ => only_own_refs(branches, &of, refs),
        };
        if !nothing.is_empty() && !needed && movable {
            if keyword == "allOf" {
                for &i in nothing.iter().rev() {
                    branches.remove(i);
                }
                let which = match nothing.as_slice() {
                    [i] => format!("branch {i}, which asserts"),
                    _ => format!(
                        "branches {}, which assert",
                        nothing
                            .iter()
                            .map(usize::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                changes.push(change(
                    &of,
                    format!("dropped the `allOf`'s {which} nothing (it accepts every value)"),
                    None,
                ));
            } else {
                o.shift_remove(keyword);
                changes.push(change(
                    &of,
                    format!(
                        "dropped the `{keyword}`, whose branch {} asserts nothing (it accepts \
                         every value, so the `{keyword}` does)",
                        nothing[0]
                    ),
                    None,
                ));
            }
            continue;
        }
        for (i, b) in branches.iter_mut().enumerate() {
            let here = push_token(&of, &i.to_string());
            if b.is_object() && asserts_nothing(b) && !refused.iter().any(|r| r.pointer == here) {
                *b = Value::Bool(true);
                changes.push(change(
                    &here,
                    "wrote the branch, which asserts nothing (it accepts every value), as `true`"
                        .into(),
                    None,
                ));
            }
        }
    }
    refused
}

/// Whether every `$ref` reaching into the branches at `at` is one of their own, so that they
/// can be left out with them and no `$ref` is left reaching nothing (as [`reached_inside`]
/// reads a branch's own). Ones that declare an `$id`, or an anchor where a `$ref` is not
/// followed here, are kept: a `$ref` may name them.
fn only_own_refs(branches: &[Value], at: &str, refs: &Refs) -> bool {
    let walks: Vec<_> = branches.iter().map(crate::schema::walk).collect();
    let nodes = || walks.iter().flat_map(|w| w.nodes.iter());
    let declares = |keys: &[&str]| {
        nodes().any(|n| {
            n.object()
                .is_some_and(|o| keys.iter().any(|k| o.contains_key(*k)))
        })
    };
    if declares(&["$id", "id"])
        || ((refs.others || refs.dynamic) && declares(&["$anchor", "$dynamicAnchor"]))
    {
        return refs.within(at).next().is_none() && !refs.others && !refs.dynamic;
    }
    let mut own: Vec<&str> = nodes()
        .filter_map(|n| n.object()?.get("$ref")?.as_str())
        .collect();
    for text in refs.within(at).flat_map(|(_, texts)| texts) {
        match own.iter().position(|t| t == text) {
            Some(i) => {
                own.swap_remove(i);
            }
            None => return false,
        }
    }
    true
}

/// Why the branch `b` at `at`, which asserts nothing, cannot be written as `true`, and what
/// to do instead: a `$ref` outside it reaches a schema it holds (a `$defs` definition, a
/// `contentSchema`), which would go with it, or reaches the branch itself while it holds a
/// `format`, which asserts nothing beside `type: object` but does on a string the `$ref`
/// applies it to (trial 54 D1: written as `true`, `"e": "notanemail"` accepted, exit 0).
/// The branch's own `$ref`s go with it too, so one reaching into it needs nothing kept. A reference by anchor or to a resource of its own is not followed
/// ([`Refs`]): one is taken to reach a branch that declares an anchor or an `$id` below it,
/// and none of the branch's own is told apart when it declares an `$id` (a `$ref` is read in
/// the resource around it, so one below an `$id` may name another place by the same text).
fn reached_inside(b: &Value, at: &str, refs: &Refs) -> Option<String> {
    let walk = crate::schema::walk(b);
    let declares = |keys: &[&str]| {
        walk.nodes.iter().any(|n| {
            n.object()
                .is_some_and(|o| keys.iter().any(|k| o.contains_key(*k)))
        })
    };
    let mut own: Vec<&str> = if declares(&["$id", "id"]) {
        Vec::new()
    } else {
        walk.nodes
            .iter()
            .filter_map(|n| n.object()?.get("$ref")?.as_str())
            .collect()
    };
    // Annotations and definitions say the same as `true` where a `$ref` applies the branch
    // itself; a format does not.
    let itself = b.get("format").is_some();
    let reaching = refs
        .within(at)
        .filter(|(place, _)| place.len() > at.len() || itself);
    for (place, text) in reaching.flat_map(|(place, texts)| texts.iter().map(move |t| (place, t))) {
        match own.iter().position(|t| t == text) {
            Some(i) => {
                own.swap_remove(i);
            }
            None if place == at => {
                return Some(format!(
                    "`$ref` {text:?} names it, applying its `format` to the value there, which \
                     `true` would not check. Write the `format` beside that `$ref` instead"
                ));
            }
            None => return Some(format!("`$ref` {text:?} points into it{MOVE_DEFINITIONS}")),
        }
    }
    let named = |o: &Map<String, Value>, keys: &[&str]| keys.iter().any(|k| o.contains_key(*k));
    let by = |o: &Map<String, Value>| {
        (refs.others && named(o, &["$id", "id", "$anchor", "$dynamicAnchor"]))
            || (refs.dynamic && named(o, &["$dynamicAnchor"]))
    };
    if b.as_object().is_some_and(by) {
        return Some(
            "a `$ref` may name it by its anchor or `$id`, which would then reach nothing. Move \
             it to the root `$defs`, or drop the anchor or `$id` no `$ref` names"
                .to_string(),
        );
    }
    walk.nodes
        .iter()
        .filter_map(|n| n.object())
        .any(by)
        .then(|| {
            format!("a `$ref` may name a schema in it by an anchor or `$id`{MOVE_DEFINITIONS}")
        })
}

/// What [`reached_inside`] says of a branch whose definitions a `$ref` reaches.
const MOVE_DEFINITIONS: &str =
    ", which would then reach nothing. Move the definitions it holds to the root `$defs`";

/// The `anyOf`, `oneOf` or `allOf` of the object schema `o` at `at` (which declares the
/// properties `names`) whose branches say something of the members of `o` itself: a branch
/// that requires a member it does not declare (`anyOf: [{"required": ["email"]},
/// {"required": ["id"]}]`: at least one of them is given), or one that declares some of the
/// properties of `o` but not all, or one that declares a member `o` does not (a branch of a
/// discriminated union, `{"kind": {"const": "a"}, "r": {..}}` below `properties: {"kind":
/// ..}`: closing `o` to its own properties refuses `r`, trial 44), or one that declares none
/// while `o` declares some (an annotation-only branch, a `not`: closed to no member, trial 48
/// D14). Strict mode cannot say any
/// of these: it makes every property of `o` required, and closes each branch to the
/// properties the branch declares (once `type: "object"` is written in it), so such a branch
/// would accept no call, and a tool compiled so would accept fewer calls than the one given,
/// or none (trial 43, exit 0). A branch that is a `$ref` is judged with the schema it reaches
/// in `unclosed` ([`branch_parts`]): a union of definitions is as closed as one written
/// inline (trial 44, exit 0). Each keyword with such branches is named once, with what the
/// branches said.
fn branches_on_the_object(
    o: &Map<String, Value>,
    at: &str,
    names: &[String],
    unclosed: &Value,
    refused: &[Unwirable],
) -> Vec<Unwirable> {
    let mut blocked = Vec::new();
    for keyword in ["anyOf", "oneOf", "allOf"] {
        let Some(Value::Array(branches)) = o.get(keyword) else {
            continue;
        };
        let here = push_token(at, keyword);
        let mut said: Vec<BranchSays<'_>> = Vec::new();
        for (index, b) in branches.iter().enumerate() {
            let Value::Object(b) = b else { continue };
            let branch = push_token(&here, &index.to_string());
            if refused.iter().any(|r| r.pointer == branch) {
                continue;
            }
            let Some(parts) = branch_parts(b, &branch, unclosed) else {
                continue;
            };
            if parts
                .iter()
                .any(|p| p.get("type").is_some_and(|_| !is_object_schema(p)))
            {
                continue;
            }
            let own: Vec<&Map<String, Value>> = parts
                .iter()
                .filter_map(|p| p.get("properties").and_then(Value::as_object))
                .collect();
            let declared = |n: &str| own.iter().any(|p| p.contains_key(n));
            // A name the branch and its target both say is listed once.
            let mut seen = HashSet::new();
            let undeclared: Vec<&str> = parts
                .iter()
                .filter_map(|p| p.get("required").and_then(Value::as_array))
                .flatten()
                .filter_map(Value::as_str)
                .filter(|n| !declared(n) && seen.insert(*n))
                .collect();
            // A branch declaring none is closed to none: an annotation-only one (or a `not`)
            // was written so, exit 0, and refused every call (trial 48 D14). One that reads
            // others (a `$ref`, a union) may reach past what `branch_parts` reads: unjudged.
            let reads_others = ["$ref", "anyOf", "oneOf", "allOf"]
                .iter()
                .any(|k| b.contains_key(*k));
            let left_out: Vec<&str> = if own.is_empty() && reads_others {
                Vec::new()
            } else {
                names
                    .iter()
                    .map(String::as_str)
                    .filter(|n| !declared(n))
                    .collect()
            };
            let extra: Vec<&str> = own
                .iter()
                .flat_map(|p| p.keys())
                .map(String::as_str)
                .filter(|n| !names.iter().any(|m| m == n) && seen.insert(*n))
                .collect();
            if !undeclared.is_empty() || !left_out.is_empty() || !extra.is_empty() {
                said.push(BranchSays {
                    index,
                    via: b.get("$ref").and_then(Value::as_str),
                    declares: !own.is_empty(),
                    undeclared,
                    left_out,
                    extra,
                });
            }
        }
        if said.is_empty() {
            continue;
        }
        let conditions_only = said.len() == branches.len()
            && said.iter().all(|b| !b.undeclared.is_empty() && !b.declares);
        let what = if conditions_only {
            let sets: Vec<String> = said.iter().map(|b| listed(&b.undeclared)).collect();
            let how_many = match keyword {
                "anyOf" => "at least one of",
                "oneOf" => "exactly one of",
                _ => "each of",
            };
            format!(
                "its branches only require members of the object around them: {how_many} {} \
                 must be given",
                sets.join(", ")
            )
        } else {
            let each: Vec<String> = said
                .iter()
                .map(|b| {
                    let branch = match b.via {
                        Some(r) => format!("branch {} (a `$ref` to `{r}`)", b.index),
                        None => format!("branch {}", b.index),
                    };
                    if !b.undeclared.is_empty() {
                        format!(
                            "{branch} requires {} without declaring it",
                            listed(&b.undeclared)
                        )
                    } else if !b.extra.is_empty() {
                        format!(
                            "{branch} declares {}, which the object around it does not",
                            listed(&b.extra)
                        )
                    } else {
                        format!("{branch} does not declare {}", listed(&b.left_out))
                    }
                })
                .collect();
            format!(
                "{} (conditions on the members of the object around it)",
                each.join("; ")
            )
        };
        blocked.push(Unwirable::at(
            &here,
            format!(
                "{what}; strict mode cannot say this: it makes every property required and \
                 closes each branch to the properties the branch declares, so a branch like this \
                 would accept no call. Restructure the tool (e.g. one tool, or one required \
                 argument, per way of calling it)"
            ),
        ));
    }
    blocked
}

/// Why the object schema `o` cannot be closed while its `required` names `ghosts`, which no
/// property declares: each as the member of a `patternProperties` pattern when one is.
fn undeclared_required(o: &Map<String, Value>, ghosts: &[&str]) -> String {
    let patterned: Vec<String> = ghosts
        .iter()
        .filter_map(|g| {
            crate::schema::pattern_declaring(o, g)
                .map(|p| format!("`{g}` only by the `patternProperties` pattern `{p}`"))
        })
        .collect();
    let how = if patterned.is_empty() {
        String::new()
    } else {
        format!(
            " (it declares {}, which a strict form cannot carry)",
            patterned.join(", ")
        )
    };
    let them = if ghosts.len() == 1 { "it" } else { "them" };
    format!(
        "`required` names {}, which no property declares{how}; strict mode closes the object to \
         the properties it declares, so every call the schema accepts here, which must carry \
         {them}, would be refused. Declare {them} in `properties`",
        listed(ghosts)
    )
}

/// Names, each in backquotes, joined with "and".
fn listed(ns: &[&str]) -> String {
    ns.iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(" and ")
}

/// The `then` and `else` of the object schema `o` at `at` (which declares the properties
/// `names`) that declare or require a member `o` does not declare (`then: {"$ref": A}`, `A`
/// declaring `kind` and `r`, below `properties: {"kind": ..}`). Strict mode closes `o` to its
/// own properties, so a call the condition sends to such a `then` or `else`, which must or may
/// carry that member, would be refused: calls the original accepts, while the report said only
/// that the dropped `then` was no longer enforced (trial 46, D6, exit 0). Each is judged with what it reaches, as a
/// branch is ([`branch_parts`]); one that names only members `o` declares loses only what
/// its drop line says, as before. An `if` or `not` declaring such a member is refused too: the
/// original accepts calls carrying it (trial 48 D5: exit 0, each refused by the output); one
/// a `not` requires is a member the object must not carry, which closing keeps. What a schema
/// requires counts its `dependentRequired` lists ([`required_names`]).
fn conditionals_on_the_object(
    o: &Map<String, Value>,
    at: &str,
    names: &[String],
    unclosed: &Value,
) -> Vec<Unwirable> {
    let mut blocked = Vec::new();
    for keyword in ["then", "else", "if", "not"] {
        let Some(Value::Object(c)) = o.get(keyword) else {
            continue;
        };
        // Without an `if` beside it, a `then` or `else` never applies (JSON Schema 2020-12
        // §10.2.2.2–3; `toolwire args` agrees): nothing to judge (trial 50 D13: refused).
        if matches!(keyword, "then" | "else") && !o.contains_key("if") {
            continue;
        }
        let here = push_token(at, keyword);
        let Some(parts) = branch_parts(c, &here, unclosed) else {
            continue;
        };
        if parts
            .iter()
            .any(|p| p.get("type").is_some_and(|_| !is_object_schema(p)))
        {
            continue;
        }
        let mut seen: HashSet<&str> = names.iter().map(String::as_str).collect();
        let declares: Vec<&str> = parts
            .iter()
            .filter_map(|p| p.get("properties").and_then(Value::as_object))
            .flat_map(|props| props.keys().map(String::as_str))
            .filter(|n| seen.insert(n))
            .collect();
        // A member `not` requires is one the object must not carry: closing it agrees.
        let requires: Vec<&str> = if keyword == "not" {
            Vec::new()
        } else {
            parts
                .iter()
                .flat_map(|p| required_names(p))
                .filter(|n| seen.insert(n))
                .collect()
        };
        let mut what = Vec::new();
        if !declares.is_empty() {
            what.push(format!("declares {}", listed(&declares)));
        }
        if !requires.is_empty() {
            what.push(format!("requires {}", listed(&requires)));
        }
        if what.is_empty() {
            continue;
        }
        let via = c
            .get("$ref")
            .and_then(Value::as_str)
            .map(|r| format!(" (a `$ref` to `{r}`)"))
            .unwrap_or_default();
        blocked.push(Unwirable::at(
            &here,
            format!(
                "`{keyword}`{via} {}, which the object around it does not declare; strict mode \
                 cannot say this: it closes the object to the properties it declares, so a call \
                 that must or may carry such a member would be refused, whether `{keyword}` is \
                 kept or dropped. Declare each such member in the object's own `properties`",
                what.join(" and ")
            ),
        ));
    }
    blocked
}

/// The members the schema `p` requires: its `required` names and, where a member is given,
/// the names its `dependentRequired` (draft 2019-09) or array-valued `dependencies` (drafts 04
/// to 07) list with it (trial 48 D5: `then: {"dependentRequired": {"kind": ["r"]}}` was not
/// read as requiring `r`, while `then: {"required": ["r"]}` was).
fn required_names(p: &Map<String, Value>) -> impl Iterator<Item = &str> {
    let listed = p
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    let dependent = ["dependentRequired", "dependencies"]
        .into_iter()
        .filter_map(|k| p.get(k).and_then(Value::as_object))
        .flat_map(|m| m.values())
        .filter_map(Value::as_array)
        .flatten();
    listed.chain(dependent).filter_map(Value::as_str)
}

/// The schemas the applicator branch `b` at `at` is made of, as [`branches_on_the_object`]
/// judges it: `b` itself, the schema each `$ref` among them reaches in `unclosed`, read where
/// it is written ([`crate::schema::refs::follow_from`], at most
/// [`crate::schema::refs::MAX_REF_HOPS`] hops, so a cycle or a long chain ends), and the
/// branches of the `anyOf`, `oneOf` and `allOf` of each that is no object schema (a union of
/// definitions behind one `$ref`, `anyOf: [{"anyOf": [A, B]}]`: trial 46, exit 0 with no call
/// valid), with its `then` and `else` (trial 48 D13); an object schema's own branches are
/// judged against its own properties where
/// [`close`] closes it. An `anyOf` or `oneOf` branch whose `type` says it is no object is left
/// out: it takes no object, so it says nothing of the members of one. Read at most
/// [`MAX_DEPTH`] applicators deep and each schema once, so a cycle through applicators
/// ends. `None` when a chain reaches no schema (dangling, remote, a cycle, too long: `check` and
/// `compile` say so where the reference is), and for a `$ref` that is no string: such a
/// branch is not judged, as before. `at` names `b` in the schema being closed, which may hold
/// a wrapped `…/anyOf/0` that `unclosed` does not: only a resource's `$id` on that way would
/// read the reference otherwise.
fn branch_parts<'v>(
    b: &'v Map<String, Value>,
    at: &str,
    unclosed: &'v Value,
) -> Option<Vec<&'v Map<String, Value>>> {
    let mut parts = Vec::new();
    let mut seen = HashSet::new();
    gather_parts(b, at, unclosed, 0, &mut parts, &mut seen)?;
    Some(parts)
}

/// [`branch_parts`] from the schema `s` at `at`, `depth` applicators below the branch.
fn gather_parts<'v>(
    s: &'v Map<String, Value>,
    at: &str,
    unclosed: &'v Value,
    depth: usize,
    parts: &mut Vec<&'v Map<String, Value>>,
    seen: &mut HashSet<*const Map<String, Value>>,
) -> Option<()> {
    if depth > MAX_DEPTH || !seen.insert(s) {
        return Some(());
    }
    parts.push(s);
    if let Some(reference) = s.get("$ref") {
        match crate::schema::refs::follow_from(unclosed, at, reference.as_str()?) {
            crate::schema::refs::Chain::Reaches {
                schema: Value::Object(target),
                pointer,
                ..
            } => gather_parts(target, &pointer, unclosed, depth + 1, parts, seen)?,
            _ => return None,
        }
    }
    if is_object_schema(s) {
        return Some(());
    }
    // A `then` or `else` a `$ref` leads to is read as one written in place is (trial 48 D13:
    // `then: {"$ref": C}`, C's own `then` requiring `r`, compiled, exit 0).
    for keyword in ["then", "else"] {
        if let Some(Value::Object(sub)) = s.get(keyword) {
            gather_parts(
                sub,
                &push_token(at, keyword),
                unclosed,
                depth + 1,
                parts,
                seen,
            )?;
        }
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        let Some(Value::Array(branches)) = s.get(keyword) else {
            continue;
        };
        let here = push_token(at, keyword);
        for (index, sub) in branches.iter().enumerate() {
            let Value::Object(sub) = sub else { continue };
            if keyword != "allOf" && sub.get("type").is_some_and(|_| !is_object_schema(sub)) {
                continue;
            }
            let there = push_token(&here, &index.to_string());
            gather_parts(sub, &there, unclosed, depth + 1, parts, seen)?;
        }
    }
    Some(())
}

/// What a branch says of the members of the object around it ([`branches_on_the_object`]).
struct BranchSays<'a> {
    /// The branch's place in its list.
    index: usize,
    /// The branch's `$ref`, when it is one.
    via: Option<&'a str>,
    /// Whether the branch (or what its `$ref` reaches) declares properties.
    declares: bool,
    /// The members it requires without declaring them.
    undeclared: Vec<&'a str>,
    /// The properties of the object it leaves out (when it declares any).
    left_out: Vec<&'a str>,
    /// The members it declares that the object does not.
    extra: Vec<&'a str>,
}

/// What closing the object `o` at `at` (whose `additionalProperties` is `open`: absent,
/// `true`, or a value that is neither a boolean nor a schema) takes from the tool, as the
/// loss line of the change: members the author let in explicitly (`additionalProperties:
/// true`) or the whole content of a nested free-form object (one that declares no property,
/// so every member it takes is undeclared). `None` for an object that declares properties
/// and says nothing about others (closing it is strict mode's documented baseline, README
/// *Wire baseline*, and every declared argument still arrives), and for a root whose
/// `properties` is empty (`{}`): a tool that takes no arguments, as the rule
/// `object-properties-missing` reads it; a root without `properties` took any arguments.
/// Members the schema as given already refused are no loss ([`admits_nothing`]).
fn closing_loses(open: Option<&Value>, o: &Map<String, Value>, at: &str) -> Option<String> {
    if empties(o, at) {
        return Some(
            "every member of this free-form object (it declares no properties): the model can \
             send it only as `{}`"
                .into(),
        );
    }
    // What let members beyond `properties` in: an open `additionalProperties` and the
    // members `patternProperties` declares (as much the schema's as its properties), both
    // named where both did (trial 61 D6: the patterns' members went unsaid beside a map).
    // A member the schema as given already refused is no loss (trial 62 D4: `^y: false` and
    // `additionalProperties: {"not": {}}` were said to be members the model can no longer
    // send): patterns whose schema admits nothing let no member in, and the members they
    // match are no longer among those `additionalProperties` let in.
    let (refusing, admitting): (Vec<&String>, Vec<&String>) = match o.get("patternProperties") {
        Some(Value::Object(patterns)) => {
            patterns.keys().partition(|p| admits_nothing(&patterns[*p]))
        }
        _ => (Vec::new(), Vec::new()),
    };
    let listed = |patterns: &[&String]| {
        let quoted: Vec<String> = patterns.iter().map(|p| format!("`{p}`")).collect();
        quoted.join(", ")
    };
    let save = if refusing.is_empty() {
        String::new()
    } else {
        format!(
            ", save those whose names match `patternProperties` that refuse them ({})",
            listed(&refusing)
        )
    };
    let mut let_in: Vec<String> = Vec::new();
    match open {
        Some(Value::Bool(true)) => {
            let_in.push(format!(
                "members beyond the declared properties (`additionalProperties: true`){save}"
            ));
        }
        // As given (`closing_given_back`), or in place where the object declares properties.
        Some(schema @ Value::Object(_)) if !admits_nothing(schema) => let_in.push(format!(
            "members beyond the declared properties (`additionalProperties: {}`){save}",
            crate::repair::show(schema)
        )),
        _ => {}
    }
    if !admitting.is_empty() {
        // Declared properties a pattern matches are still sent (trial 62 D3: `^x$` beside a
        // declared `x` was said to be a member the model can no longer send).
        let_in.push(format!(
            "undeclared members whose names match `patternProperties` ({})",
            listed(&admitting)
        ));
    }
    if !let_in.is_empty() {
        return Some(format!(
            "{}: the model can no longer send them",
            let_in.join(" and ")
        ));
    }
    // A root without `properties` took any arguments, as repair says where it writes such a
    // root as taking none (openai/chat-strict; trial 48 D2: the other strict forms said
    // nothing).
    (at.is_empty() && !o.contains_key("properties")).then(|| crate::repair::ACCEPTED_ANY.into())
}

/// Whether the schema `v` admits no value: `false`, or an object whose `not` accepts every
/// value (`{"not": {}}`), whatever else it says beside it (each keyword only narrows what
/// passes). One with a `$ref` is not judged: drafts 04 to 07 ignore the keywords beside it.
fn admits_nothing(v: &Value) -> bool {
    match v {
        Value::Bool(accepts) => !accepts,
        Value::Object(o) => {
            !o.contains_key("$ref")
                && o.get("not").is_some_and(|n| {
                    crate::schema::asserts_nothing(n, |k| {
                        crate::profile::rules::ANNOTATIONS.contains(&k) || k.starts_with("x-")
                    })
                })
        }
        _ => false,
    }
}

/// Says what a strict form's closing took away where repair had dropped, before the form
/// closed the object, what let members beyond its properties in: for each change closing an
/// object that says no loss, what [`closing_loses`] says of the object as given (`original`,
/// the changes' pointers named as given: trial 52 D2, `additionalProperties: {"type":
/// "integer"}` dropped, "closed the object" with no loss, `{"b": 1}` refused; D10, the
/// `patternProperties` beside an `additionalProperties: false` that rested on it).
///
/// A closing that says a loss read in place says it again as given: repair or the offline
/// model may have dropped one of the two before or after the form closed the object (trial 61
/// D6: a map dropped by repair beside `patternProperties` went unsaid).
///
/// The line that dropped such an `additionalProperties` schema, or such a
/// `patternProperties`, loses its own loss ("the provider no longer enforces" it): closed,
/// the object takes fewer members, not more, and the closing's loss says which (trial 60 D2:
/// the two lines contradicted each other).
pub fn closing_given_back(changes: &mut [Change], original: &Value) {
    let mut maps_closed: Vec<String> = Vec::new();
    for c in changes.iter_mut() {
        if c.action == CLOSED
            && let Some(Value::Object(o)) = original.pointer(&c.pointer)
            // Only these two: a place as given may be a `$ref` the form inlined, which
            // declares no properties there without being a free-form object.
            && (o.get("additionalProperties").is_some_and(Value::is_object)
                || o.get("patternProperties").is_some_and(Value::is_object))
        {
            c.lost = closing_loses(o.get("additionalProperties"), o, &c.pointer);
            if o.get("additionalProperties").is_some_and(Value::is_object) {
                maps_closed.push(push_token(&c.pointer, "additionalProperties"));
            }
            // A pattern that may match a declared property also held that property's value
            // to its schema, which the provider no longer enforces once the patterns are
            // dropped: that drop keeps its loss (trial 62 D3: `^x$: {minLength: 1}` beside a
            // declared `x`).
            if let Some(Value::Object(patterns)) = o.get("patternProperties")
                && !o
                    .get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|declared| {
                        declared.keys().any(|name| {
                            patterns
                                .keys()
                                .any(|p| crate::schema::ecma::may_match(p, name))
                        })
                    })
            {
                maps_closed.push(push_token(&c.pointer, "patternProperties"));
            }
        }
    }
    for c in changes.iter_mut() {
        if maps_closed.contains(&c.pointer)
            && (c.action.starts_with("dropped `additionalProperties")
                || c.action.starts_with("dropped `patternProperties"))
        {
            c.lost = None;
        }
    }
}

/// What closing an object does, as its change says.
const CLOSED: &str = "closed the object (`additionalProperties: false`)";

/// Whether closing the object `o` at `at` leaves it nothing but `{}`: a nested object that
/// declares no property (at the root, no property is a tool without arguments).
fn empties(o: &Map<String, Value>, at: &str) -> bool {
    let declares = o
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    !declares && !at.is_empty()
}

/// What strict mode did to an optional argument whose schema refused null.
pub const REQUIRED_AND_NULLABLE: &str = "made the optional argument required and nullable (the model sends null for \"not given\": `toolwire args` maps it back to absent; a server checking the original schema must treat that null as absent)";

/// [`REQUIRED_AND_NULLABLE`] for an argument that was required and accepted null as given,
/// which repair had made optional ([`null_given_back`]).
pub const NULL_GIVEN_BACK: &str = "made the argument required and nullable again, as given: it is required and accepts null, as the original schema says (a null is a value here, not \"not given\")";

/// Rewrites the lines of an argument that accepted null as given, which repair made optional
/// to drop its null (the target takes no `oneOf` with a null branch, no `nullable`) and
/// strict mode then made required and nullable again: the lines said that null was lost and
/// that a null meant "not given", while the argument accepts null again. Said as for an
/// argument strict mode found accepting null: [`NULL_GIVEN_BACK`] when it was required as
/// given (nothing changed), else [`NULL_PASSED_ON`] (whose loss the caller reads as for any
/// other, [`absent_reads_as_null`]), once, after the line that dropped the null: an earlier
/// round may have said it already, before the model's rejection made repair drop the null. `given` is the parameters schema as given,
/// where the changes are named.
pub fn null_given_back(changes: &mut Vec<Change>, given: &Value) {
    let back: Vec<String> = changes
        .iter()
        .filter(|c| c.action == REQUIRED_AND_NULLABLE)
        .filter(|c| {
            given
                .pointer(&c.pointer)
                .is_some_and(|s| admits_null_in(s, &c.pointer, given))
        })
        .map(|c| c.pointer.clone())
        .collect();
    for at in back {
        let inside = |c: &Change| {
            c.pointer.len() > at.len()
                && c.pointer.starts_with(at.as_str())
                && c.pointer.as_bytes()[at.len()] == b'/'
        };
        if !changes
            .iter()
            .any(|c| inside(c) && crate::repair::made_optional_for_null(c.lost.as_deref()))
        {
            continue;
        }
        let action = if required_as_given(given, &at) {
            NULL_GIVEN_BACK
        } else {
            NULL_PASSED_ON
        };
        for c in changes.iter_mut() {
            if inside(c) && crate::repair::made_optional_for_null(c.lost.as_deref()) {
                c.lost = None;
            } else if c.pointer == at && c.action == REQUIRED_AND_NULLABLE {
                c.action = action.into();
            }
        }
        // The last says it, after the line that dropped the null.
        let same = |c: &Change| c.pointer == at && c.action == action;
        let mut left = changes.iter().filter(|c| same(c)).count();
        changes.retain(|c| {
            if !same(c) {
                return true;
            }
            left -= 1;
            left == 0
        });
    }
}

/// Whether the property at `pointer` (`.../properties/NAME`) is in its object's `required`
/// in `given`.
fn required_as_given(given: &Value, pointer: &str) -> bool {
    let Some((properties, name)) = pointer.rsplit_once('/') else {
        return false;
    };
    let Some(object) = properties
        .strip_suffix("/properties")
        .or((properties == "/properties").then_some(""))
    else {
        return false;
    };
    let name = name.replace("~1", "/").replace("~0", "~");
    given
        .pointer(object)
        .and_then(|o| o.get("required"))
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name.as_str())))
}

/// The change line of an optional argument made required whose schema already accepts null.
pub const NULL_PASSED_ON: &str = "made the optional argument required (its schema already accepts null, so a null is passed on as null)";

/// [`NULL_PASSED_ON`] for Cohere strict's one required property per object.
pub const FIRST_NULL_PASSED_ON: &str = "made the first optional argument required (Cohere strict needs one required property per object; its schema already accepts null, so a null is passed on as null)";

/// What making the optional argument `given` (its schema as given, which already accepts
/// null) required takes from the tool: the model can no longer leave it out, so absent and
/// null reach the server alike (`args` maps null back to absent only for an argument whose
/// schema refuses null). That loses something only where the two meant different things: a
/// default reached by leaving it out (a `default` of null is what null says anyway), or a
/// description that gives null a meaning of its own. Without either, null is read as "not
/// given", and claiming a loss there would teach readers to skip loss lines.
pub fn absent_reads_as_null(given: &Value) -> Option<String> {
    const BOTH: &str = "absent and null now both arrive as null";
    if let Some(d) = given.get("default").filter(|d| !d.is_null()) {
        return Some(format!(
            "{BOTH}: the default {} is no longer reachable by leaving the argument out",
            crate::repair::show(d)
        ));
    }
    let says_null = given
        .get("description")
        .and_then(Value::as_str)
        .is_some_and(|d| {
            d.split(|c: char| !c.is_alphanumeric())
                .any(|w| w.eq_ignore_ascii_case("null"))
        });
    says_null.then(|| {
        format!(
            "{BOTH}, though its description gives null a meaning of its own: the model can no \
             longer leave it out to mean \"not given\""
        )
    })
}

/// Rewrites the loss line of a `default` that repair dropped (into the description or not)
/// from an argument strict mode then made required with null passed on as null: that drop
/// said it lost "nothing but the wording", true only while leaving the argument out still
/// reached the default. Once the argument is required, the default itself is lost, as the
/// required line says ([`absent_reads_as_null`]); the two lines must not contradict each
/// other. `given` is the parameters schema as given, where both changes are named.
pub fn default_out_of_reach(changes: &mut [crate::repair::Change], given: &Value) {
    let required: Vec<String> = changes
        .iter()
        .filter(|c| {
            c.lost.is_some() && (c.action == NULL_PASSED_ON || c.action == FIRST_NULL_PASSED_ON)
        })
        .map(|c| c.pointer.clone())
        .collect();
    for at in required {
        let Some(d) = given
            .pointer(&at)
            .and_then(|s| s.get("default"))
            .filter(|d| !d.is_null())
        else {
            continue;
        };
        let d = crate::repair::show(d);
        let drop_at = crate::json::push_token(&at, "default");
        for c in changes.iter_mut() {
            if c.pointer == drop_at && c.action.starts_with("dropped `default") {
                c.lost = Some(format!(
                    "the default {d} itself, not only its wording: the argument is also made \
                     required, so the default {d} is no longer reachable by leaving the argument \
                     out (the model must send {d} for it)"
                ));
            }
        }
    }
}

/// Lets `schema` also accept null: `type` gains `"null"`, an `enum` gains `null`, and a
/// schema without a `type`, or with a keyword beside it that would still refuse null
/// (`anyOf`, `oneOf`, `allOf`, `not`, `const`, `$ref`, `if`), becomes
/// `anyOf: [schema, {"type": "null"}]`. A schema that already
/// accepts null ([`admits_null`]) is left as it is: wrapping it again would only nest a
/// second `anyOf` that says nothing new. A known non-standard type spelling is already JSON
/// Schema's name here: compile writes the canonical schema first ([`super::canonical`]); a
/// list holding an unknown one is judged by the target. Returns whether the schema was
/// wrapped, and so moved to `…/anyOf/0`.
pub fn make_nullable(schema: &mut Value) -> bool {
    if admits_null(schema) {
        return false;
    }
    let Value::Object(o) = schema else {
        *schema = json!({"anyOf": [schema.clone(), {"type": "null"}]});
        return true;
    };
    // These keywords hold for every value, null included: with `"null"` added to `type` alone
    // they would still refuse null (`{"type": "string", "anyOf": [{"type": "string"}]}`).
    let excludes_null_beside_type = ["anyOf", "oneOf", "allOf", "not", "const", "$ref", "if"]
        .iter()
        .any(|k| o.contains_key(*k));
    match o.get_mut("type") {
        Some(_) if excludes_null_beside_type => {
            wrap_with_null(o);
            return true;
        }
        Some(Value::String(t)) if t != "null" => {
            let t = t.clone();
            o.insert("type".into(), json!([t, "null"]));
        }
        // An empty list allows no value; with `null` added it would allow only null, a
        // meaning nobody wrote. It is left for the target's profile and model to refuse.
        Some(Value::Array(list)) if list.is_empty() => {}
        Some(Value::Array(list)) => {
            if !list.iter().any(|v| v == "null") {
                list.push(json!("null"));
            }
        }
        Some(_) => {}
        None => {
            wrap_with_null(o);
            return true;
        }
    }
    if let Some(Value::Array(e)) = o.get_mut("enum")
        && !e.iter().any(Value::is_null)
    {
        e.push(Value::Null);
    }
    false
}

/// [`make_nullable`] for the optional argument at `at` that a strict form makes required,
/// `accepts` telling whether its schema already accepts null ([`admits_null_in`]) and the
/// schema as given does not refuse it ([`AsGiven::refuses_null`]): such a schema is left as
/// it is. A schema a reference reaches is wrapped in `anyOf` even where
/// `null` could go in its `type`, and the reference follows it to `…/anyOf/0`: it meant the
/// argument's schema, which refuses null (trial 43: a required `to: {"$ref":
/// "#/properties/from"}` accepted null once the optional `from` was `type: ["string",
/// "null"]`); so is one whose own words admit null while a `$ref` beside them refuses it, or
/// the schema as given refuses it (a `not` the target's repair dropped), which
/// [`make_nullable`] would leave as it is.
fn optional_made_nullable(schema: &mut Value, at: &str, refs: &mut Refs, accepts: bool) {
    if accepts {
        return;
    }
    let wrap = refs.reach(at) || admits_null(schema);
    let moved = match schema {
        Value::Object(o) if wrap => {
            wrap_with_null(o);
            true
        }
        _ => make_nullable(schema),
    };
    if moved {
        refs.moved(at, true);
    }
}

/// The local `$ref`s of a schema being put in a wire form, each by the place it reaches now.
/// Wrapping a schema in `anyOf: [schema, {"type": "null"}]` moves it and all below it to
/// `…/anyOf/0`, and a `$ref` that reached it or a place in it must follow, or it reaches the
/// union, another schema, or nothing (trial 43: `#/properties/from/anyOf/0` then reached
/// the wrapped `anyOf`'s first branch, not the object it named, and
/// `#/properties/from/anyOf/0/properties/zip` reached nothing). Only JSON-Pointer fragments
/// read in the root's own resource are followed: an anchor moves with its schema, and a
/// reference in a subschema with an `$id` of its own is left as written ([`apply`] refuses
/// the tool if that leaves it broken).
#[derive(Default)]
struct Refs {
    /// The place each reference reaches now (a JSON Pointer) → the `$ref` texts reaching it.
    reached: BTreeMap<String, Vec<String>>,
    /// Whether the schema holds a `$ref` not followed here (an anchor, or one read in a
    /// resource of its own).
    others: bool,
    /// Whether the schema holds a `$dynamicRef`, which may name a `$dynamicAnchor` anywhere.
    dynamic: bool,
    /// Whether a schema was wrapped.
    wrapped: bool,
    /// The place of each schema wrapped, now the union: its `…/anyOf/0` is that schema, whose
    /// place as given is the union's ([`Refs::as_given`]).
    wraps: BTreeSet<String>,
}

/// What a `$ref` fragment written anew percent-encodes when its text as given had an
/// escape: what RFC 3986 §3.5 does not allow in a fragment, and `%` itself.
const FRAGMENT_ESCAPED: &AsciiSet = &crate::schema::NOT_IN_FRAGMENT.add(b'%');

impl Refs {
    fn of(root: &Value) -> Refs {
        let mut refs = Refs::default();
        for (_, text, place) in pointer_refs(root) {
            match place {
                Some(place) => refs.reached.entry(place).or_default().push(text),
                None => refs.others = true,
            }
        }
        refs.dynamic = crate::schema::walk(root)
            .nodes
            .iter()
            .any(|n| n.object().is_some_and(|o| o.contains_key("$dynamicRef")));
        refs
    }

    /// Whether a reference reaches the schema at `at` itself.
    fn reach(&self, at: &str) -> bool {
        self.reached.contains_key(at)
    }

    /// The places at `at` or inside it that references reach, with their texts.
    fn within<'a>(&'a self, at: &'a str) -> impl Iterator<Item = (&'a String, &'a Vec<String>)> {
        self.reached
            .range::<str, _>((Bound::Included(at), Bound::Unbounded))
            .take_while(move |(place, _)| place.starts_with(at))
            .filter(move |(place, _)| crate::schema::at_or_inside(place, at))
    }

    /// The schema at `at` was wrapped: a reference into it now reaches `at/anyOf/0/…`, and
    /// so does one reaching `at` itself when `with_it` (else it reaches the union).
    fn moved(&mut self, at: &str, with_it: bool) {
        self.wrapped = true;
        let inside: Vec<String> = self
            .wraps
            .range::<str, _>((Bound::Included(at), Bound::Unbounded))
            .take_while(|place| place.starts_with(at))
            .filter(|place| crate::schema::at_or_inside(place, at))
            .cloned()
            .collect();
        for place in inside {
            self.wraps.remove(&place);
            self.wraps
                .insert(format!("{at}/anyOf/0{}", &place[at.len()..]));
        }
        self.wraps.insert(at.to_string());
        let following: Vec<String> = self
            .within(at)
            .map(|(place, _)| place)
            .filter(|place| with_it || place.len() > at.len())
            .cloned()
            .collect();
        for place in following {
            let texts = self.reached.remove(&place).unwrap_or_default();
            let now = format!("{at}/anyOf/0{}", &place[at.len()..]);
            self.reached.entry(now).or_default().extend(texts);
        }
    }

    /// The place `at` (in the schema as rewritten so far) had before the wire form wrapped
    /// anything: each `…/anyOf/0` of a union the form wrote around a schema is that schema
    /// (as [`crate::repair::place::original_place`] names it for a change or refusal line:
    /// trial 59 D12, a refusal's words named the object at `/properties/v/anyOf/0`, a place the
    /// schema given does not have).
    fn as_given(&self, at: &str) -> String {
        let mut given = at.to_string();
        // Innermost first: a wrap's place holds the places of the wraps around it.
        for place in self.wraps.iter().rev() {
            let branch = format!("{place}/anyOf/0");
            if crate::schema::at_or_inside(&given, &branch) {
                given = format!("{place}{}", &given[branch.len()..]);
            }
        }
        given
    }

    /// Writes each reference whose place moved anew in `root` (the schema as rewritten).
    /// Returns whether a reference not followed here may have been left broken: `root`
    /// holds one and a schema was wrapped.
    fn write(self, root: &mut Value) -> bool {
        let unsure = self.others && self.wrapped;
        let mut anew: HashMap<String, String> = HashMap::new();
        for (place, texts) in self.reached {
            for text in texts {
                let (base, fragment) = text.split_once('#').unwrap_or((&text, ""));
                if crate::schema::percent_decode(fragment) == place {
                    continue;
                }
                let fragment = if fragment.contains('%') {
                    percent_encoding::utf8_percent_encode(&place, FRAGMENT_ESCAPED).to_string()
                } else {
                    place.clone()
                };
                anew.insert(text.clone(), format!("{base}#{fragment}"));
            }
        }
        if !anew.is_empty() {
            for (holder, text, place) in pointer_refs(root) {
                if let (Some(now), Some(_)) = (anew.get(&text), place)
                    && let Some(Value::Object(o)) = root.pointer_mut(&holder)
                {
                    o.insert("$ref".into(), Value::String(now.clone()));
                }
            }
        }
        unsure
    }
}

/// The one decision of whether a strict form takes the optional argument `p` at `here` to
/// accept null already: its schema as it stands says so ([`admits_null_in`], read in `root`)
/// and the schema as given, where [`apply`] has it, does not refuse it there
/// ([`AsGiven::refuses_null`]: the target's repair may have dropped the keyword that did,
/// trial 61 D4). Shared by [`close`] and Cohere's first-optional rule.
fn optional_accepts_null(
    p: &Value,
    here: &str,
    root: &Value,
    as_given: Option<&AsGiven<'_>>,
    refs: &Refs,
) -> bool {
    admits_null_in(p, here, root) && !as_given.is_some_and(|g| g.refuses_null(refs, here))
}

/// The parameters schema as given (compile's canonical copy), which `toolwire args` checks
/// calls against, beside the schema [`apply`] received (repaired for the target, which may
/// have dropped the keyword that refused null: trial 61 D4, `n: {type: [string, null], not:
/// {const: null}}` lost its `not` to openai/chat-strict's repair, and compile then said "a
/// null is passed on as null" while `args` mapped `{"n": null}` back to absent).
struct AsGiven<'a> {
    given: &'a Value,
    received: Value,
}

impl AsGiven<'_> {
    /// Whether the schema as given at the place of `at` (a place in the schema as rewritten
    /// so far, read back through the wire form's wraps, [`Refs::as_given`], and then through
    /// repair's and the form's inlined `$ref`s, [`crate::repair::place::original_schema`])
    /// refuses null, judged as `args` judges it ([`null_verdict`]): there `args` maps an
    /// optional argument's null to absent. `false` where that place or verdict cannot be
    /// found: the schema as it stands is then the only word.
    fn refuses_null(&self, refs: &Refs, at: &str) -> bool {
        crate::repair::place::original_schema(self.given, &self.received, &refs.as_given(at))
            .is_some_and(|(schema, place)| {
                null_verdict(schema, &place, Some(self.given)) == Some(false)
            })
    }
}

/// Each `$ref` of `root`, as (the pointer of the schema holding it, its text, the place it
/// names decoded when it names one by JSON Pointer in the root's own resource).
fn pointer_refs(root: &Value) -> Vec<(String, String, Option<String>)> {
    let walk = crate::schema::walk(root);
    walk.nodes
        .iter()
        .filter_map(|n| {
            let text = n.object()?.get("$ref")?.as_str()?;
            let place = crate::schema::refs::fragment(root, text)
                .filter(|f| f.starts_with('/'))
                .filter(|_| crate::schema::refs::resource(root, &n.pointer).1.is_empty())
                .map(|f| crate::schema::percent_decode(f).into_owned());
            Some((n.pointer.clone(), text.to_string(), place))
        })
        .collect()
}

/// Makes `o` into `anyOf: [o, {"type": "null"}]`, its description moved beside the `anyOf`
/// (where the model reads it). Moved, not copied: a copy wrote the text twice, and beside a
/// `$ref` in the branch it was a sibling `check` warns of. A branch that is nothing but its
/// description keeps it, so as not to become the empty schema `{}`.
fn wrap_with_null(o: &mut Map<String, Value>) {
    let mut inner = std::mem::take(o);
    let description = if inner.len() > 1 {
        inner.remove("description")
    } else {
        inner.get("description").cloned()
    };
    o.insert("anyOf".into(), json!([inner, {"type": "null"}]));
    if let Some(d) = description {
        o.insert("description".into(), d);
    }
}

/// Whether `schema` says in so many words that null is valid: `type` is or lists `"null"`,
/// `const` is null, `enum` holds null, or an `anyOf`/`oneOf` branch does, and none of these
/// keywords present excludes null; `not`, `allOf` and `if`/`then`/`else`, which say no value
/// of their own, must let null through as well, judged exactly for a null ([`null_verdict`]:
/// trial 61 D4, `{type: [string, null], not: {const: null}}` counted as accepting null), and
/// a `oneOf` must have exactly one branch a null passes. A schema that admits null only by
/// saying nothing (no `type` at all) is not counted: strict forms want the null written out.
/// A `$ref` is not read here (there is no document to read it in): [`admits_null_in`] reads
/// it.
pub fn admits_null(schema: &Value) -> bool {
    says_null(schema, "", None, 0, &mut Spent::default())
}

/// [`admits_null`] for `schema` at document pointer `at` in `root`, a local `$ref` (in it or
/// in an `anyOf`/`oneOf` branch of it) read as one more keyword that must admit null: it
/// does when the schema its chain reaches does ([`crate::schema::refs::follow_from`], at
/// most [`crate::schema::refs::MAX_REF_HOPS`] hops; a chain that reaches no schema admits
/// nothing). The one decision of whether an optional argument's null is a value: strict
/// forms say "a null is passed on as null" for such an argument and leave its schema as it
/// is, else make it nullable and say `args` maps the null back to absent; and `args` maps
/// a null to absent where the validator, which follows the same `$ref`s, refuses it (trial
/// 60 D5: `note: {"$ref": "#/$defs/NullableText"}` was said to map back to absent and
/// wrapped in a second null branch, while `args` passed `{"note": null}` on as null). The
/// unit test `compile and args agree on which optional nulls are values` pins the two
/// together. `root` is the document, or where it holds no `$ref` its `$schema` alone or
/// `Value::Null` ([`read_root`]). The strict forms also ask the schema as given
/// ([`optional_accepts_null`]).
pub fn admits_null_in(schema: &Value, at: &str, root: &Value) -> bool {
    says_null(schema, at, Some(root), 0, &mut Spent::default())
}

/// [`admits_null_in`] (or, without `root`, [`admits_null`]) `depth` branches below the
/// first, `spent` what has been followed so far: at most [`MAX_DEPTH`] deep and
/// [`crate::schema::refs::MAX_REF_HOPS`] chains in all, so a cycle through branches ends, and
/// a reference that fans out again (`A: anyOf: [{$ref: A}, {$ref: A}]`) ends soon.
fn says_null(
    schema: &Value,
    at: &str,
    root: Option<&Value>,
    depth: usize,
    spent: &mut Spent,
) -> bool {
    let Value::Object(o) = schema else {
        return false;
    };
    if depth > MAX_DEPTH {
        return false;
    }
    let branches = |keyword: &str, spent: &mut Spent| {
        o.get(keyword).map(|b| {
            b.as_array().is_some_and(|list| {
                let here = push_token(at, keyword);
                list.iter().enumerate().any(|(i, b)| {
                    let there = push_token(&here, &i.to_string());
                    says_null(b, &there, root, depth + 1, spent)
                })
            })
        })
    };
    let any_of = branches("anyOf", spent);
    // Exactly one branch may pass a null: one that says it and another that lets it through
    // make the `oneOf` refuse it.
    let one_of = branches("oneOf", spent).map(|says| {
        says && keyword_verdict(o, "oneOf", at, root, spent, depth, false) == Some(Some(true))
    });
    let by_ref = root.and_then(|root| {
        let reference = o.get("$ref")?;
        if spent.chains >= crate::schema::refs::MAX_REF_HOPS {
            return Some(false);
        }
        spent.chains += 1;
        Some(
            match reference
                .as_str()
                .map(|r| crate::schema::refs::follow_from(root, at, r))
            {
                Some(crate::schema::refs::Chain::Reaches {
                    schema, pointer, ..
                }) => says_null(schema, &pointer, Some(root), depth + 1, spent),
                _ => false,
            },
        )
    });
    // Drafts 04 to 07 ignore every keyword beside a `$ref` (trial 62 D2: a draft-07
    // `not: {type: null}` beside one was taken for a refusal of null).
    if o.contains_key("$ref") && !root.is_none_or(crate::repair::refs::ref_siblings_apply) {
        return by_ref == Some(true);
    }
    let says: [Option<bool>; 6] = [
        o.get("type").map(|t| match t {
            Value::String(t) => t == "null",
            Value::Array(list) => list.iter().any(|v| v == "null"),
            _ => false,
        }),
        o.get("const").map(Value::is_null),
        o.get("enum")
            .map(|e| e.as_array().is_some_and(|e| e.iter().any(Value::is_null))),
        any_of,
        one_of,
        by_ref,
    ];
    // These say no value of their own: they only must let null through (an undecided one,
    // a `$ref` in it that cannot be followed, does not).
    let let_through = ["not", "allOf", "if"].into_iter().all(|k| {
        keyword_verdict(o, k, at, root, spent, depth, false).is_none_or(|v| v == Some(true))
    });
    says.iter().any(Option::is_some) && says.iter().flatten().all(|&yes| yes) && let_through
}

/// What [`says_null`] and [`null_verdict`] have followed: `$ref` chains ([`says_null`], at
/// most [`crate::schema::refs::MAX_REF_HOPS`]) and single `$ref` steps ([`null_verdict`], at
/// most [`MAX_NULL_HOPS`]).
#[derive(Default)]
struct Spent {
    chains: usize,
    hops: usize,
}

/// Most `$ref` steps [`null_verdict`] takes in all: as many as [`says_null`]'s chains of
/// [`crate::schema::refs::MAX_REF_HOPS`] hops each may take. Past it, a verdict through a
/// `$ref` is undecided, so that a reference fanning out again (`A: anyOf: [{$ref: A}, {$ref:
/// A}]`) ends.
const MAX_NULL_HOPS: usize = crate::schema::refs::MAX_REF_HOPS * crate::schema::refs::MAX_REF_HOPS;

/// Whether `schema` (at document pointer `at` in `root`, `None` where no document is at
/// hand) accepts a null, judged exactly as `toolwire args` judges one: `None` where that
/// cannot be told here (a `$ref` that cannot be followed or past [`MAX_NULL_HOPS`], a
/// `$dynamicRef`, a keyword value that is no schema, more than [`MAX_DEPTH`] deep). For a null
/// only `type`, `const`, `enum`, `not`, `allOf`, `anyOf`, `oneOf` (exactly one branch),
/// `if`/`then`/`else` (from draft-07 on), `$ref` and boolean schemas decide; every other
/// keyword (`minLength`, `required`, `format`, ...) applies to other types only (JSON Schema
/// 2020-12 validation §6). OpenAPI's `nullable: true` adds null to the `type`, `enum`,
/// `const` and `anyOf` beside it, as `args` reads it ([`crate::args::accept_null`]); under a
/// draft-04 to 07 root, the keywords beside a `$ref` are ignored
/// ([`crate::repair::refs::ref_siblings_apply`]), as the validator `args` uses ignores them.
pub fn null_verdict(schema: &Value, at: &str, root: Option<&Value>) -> Option<bool> {
    verdict(schema, at, root, &mut Spent::default(), 0)
}

fn verdict(
    schema: &Value,
    at: &str,
    root: Option<&Value>,
    spent: &mut Spent,
    depth: usize,
) -> Option<bool> {
    let o = match schema {
        Value::Bool(b) => return Some(*b),
        Value::Object(o) => o,
        _ => return None,
    };
    if depth > MAX_DEPTH {
        return None;
    }
    if o.contains_key("$dynamicRef") || o.contains_key("$recursiveRef") {
        return None;
    }
    if o.contains_key("$ref") && !root.is_none_or(crate::repair::refs::ref_siblings_apply) {
        return keyword_verdict(o, "$ref", at, root, spent, depth, false).flatten();
    }
    let nullable = o.get("nullable") == Some(&Value::Bool(true));
    let mut decided = Some(true);
    for k in [
        "type", "const", "enum", "not", "allOf", "anyOf", "oneOf", "if", "$ref",
    ] {
        match keyword_verdict(o, k, at, root, spent, depth, nullable) {
            Some(Some(false)) => return Some(false),
            Some(None) => decided = None,
            _ => {}
        }
    }
    decided
}

/// The verdict of keyword `k` of the schema `o` on a null ([`null_verdict`]): `None` where
/// `o` has no `k` (nor, for `if`, a `then` or `else` it would choose), `Some(None)` where it
/// cannot be told. `nullable` is whether `o` says `nullable: true`, read as `args` reads it.
fn keyword_verdict(
    o: &Map<String, Value>,
    k: &str,
    at: &str,
    root: Option<&Value>,
    spent: &mut Spent,
    depth: usize,
    nullable: bool,
) -> Option<Option<bool>> {
    let value = o.get(k)?;
    let here = push_token(at, k);
    let sub = |v: &Value, there: &str, spent: &mut Spent| verdict(v, there, root, spent, depth + 1);
    let each = |spent: &mut Spent| -> Option<Vec<Option<bool>>> {
        let list = value.as_array()?;
        Some(
            list.iter()
                .enumerate()
                .map(|(i, b)| sub(b, &push_token(&here, &i.to_string()), spent))
                .collect(),
        )
    };
    Some(match k {
        "type" => match value {
            Value::String(t) => Some(t == "null" || nullable),
            Value::Array(list) => Some(nullable || list.iter().any(|t| t == "null")),
            _ => None,
        },
        "const" => Some(value.is_null() || nullable),
        "enum" => value
            .as_array()
            .map(|e| nullable || e.iter().any(Value::is_null)),
        "not" => verdict(value, &here, root, spent, depth + 1).map(|passes| !passes),
        "allOf" => each(spent).and_then(|v| {
            if v.contains(&Some(false)) {
                Some(false)
            } else {
                v.iter().all(Option::is_some).then_some(true)
            }
        }),
        "anyOf" => each(spent).and_then(|v| {
            if nullable || v.contains(&Some(true)) {
                Some(true)
            } else {
                v.iter().all(Option::is_some).then_some(false)
            }
        }),
        "oneOf" => each(spent).and_then(|v| {
            let passed = v.iter().filter(|&&b| b == Some(true)).count();
            if passed > 1 {
                Some(false)
            } else {
                v.iter().all(Option::is_some).then_some(passed == 1)
            }
        }),
        "if" => {
            // Drafts 04 and 06 have no `if`: an unknown keyword there, never run.
            let draft = root.map(|r| jsonschema::Draft::Draft202012.detect(r));
            if matches!(
                draft,
                Some(jsonschema::Draft::Draft4 | jsonschema::Draft::Draft6)
            ) {
                return None;
            }
            let chosen = |holds: bool| if holds { "then" } else { "else" };
            if !o.contains_key("then") && !o.contains_key("else") {
                return None;
            }
            match verdict(value, &here, root, spent, depth + 1) {
                Some(holds) => match o.get(chosen(holds)) {
                    Some(branch) => verdict(
                        branch,
                        &push_token(at, chosen(holds)),
                        root,
                        spent,
                        depth + 1,
                    ),
                    None => Some(true),
                },
                None => None,
            }
        }
        "$ref" => {
            let (Some(root), Some(reference)) = (root, value.as_str()) else {
                return Some(None);
            };
            if spent.hops >= MAX_NULL_HOPS {
                return Some(None);
            }
            spent.hops += 1;
            match crate::schema::refs::step_from(root, at, reference) {
                crate::schema::refs::Step::Local(target, pointer) => {
                    verdict(target, &pointer, Some(root), spent, depth + 1)
                }
                _ => None,
            }
        }
        _ => return None,
    })
}

fn deepseek_subset(v: &mut Value, at: &str, changes: &mut Vec<Change>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let Value::Object(o) = v else { return };
    for k in LENGTH_BOUNDS {
        if let Some(x) = o.shift_remove(*k) {
            let x = crate::report::Shown(&x);
            changes.push(change(
                &push_token(at, k),
                format!("dropped `{k}: {x}` (DeepSeek strict has no length bounds)"),
                Some(format!("the provider no longer enforces `{k}: {x}`")),
            ));
        }
    }
    if let Some(f) = o.get("format").and_then(Value::as_str).map(str::to_string)
        && !DEEPSEEK_FORMATS.contains(&f.as_str())
    {
        o.shift_remove("format");
        changes.push(change(
            &push_token(at, "format"),
            format!(
                "dropped `format: {f}` (DeepSeek strict knows email, hostname, ipv4, ipv6, uuid)"
            ),
            Some(format!("the provider no longer checks the format `{f}`")),
        ));
    }
    let _ = children(o, at, |sub, here| {
        deepseek_subset(sub, here, changes, depth + 1);
        Ok(())
    });
}

/// Where Cohere strict's rewrite ([`OneRequired`]) does not go: subschemas that apply in place
/// to the value around them (JSON Schema 2020-12 core §10.2: `if`, `then`, `else`, `not`,
/// `dependentSchemas`), or to its names or to some of its items (`propertyNames`,
/// `contains`). They are conditions on an object the model writes, not objects of their own:
/// a `required` added there changes the condition (trial 55 D8: `then: {properties: {n:
/// {maximum: 5}}}` became `then: {..., required: ["n"]}`, so every call with `mode: "fast"`
/// and no `n` was refused, exit 0).
const NOT_AN_ARGUMENT_OBJECT: &[&str] = &[
    "if",
    "then",
    "else",
    "not",
    "dependentSchemas",
    "propertyNames",
    "contains",
];

/// Cohere strict: each object schema that declares an object the model writes (the root,
/// a property's, an item's, a definition's, a branch of a union that is no object schema
/// itself) with properties but nothing required gets its first property required, and
/// nullable, so that leaving it out maps to null (cohere-strict-tools-requires-required in
/// evidence/reports.yaml: strict tools need at least one required parameter). The `allOf`,
/// `anyOf` and `oneOf` branches of an object schema, and [`NOT_AN_ARGUMENT_OBJECT`], apply to
/// that same object and are not rewritten, with one exception
/// ([`OneRequired::shapes_in_branches`]): an object schema that declares no member and
/// requires none has its members only in its `anyOf` branches, each one shape of the object
/// the model writes; an object-schema branch there is rewritten as an object of its own, or
/// the object would go to Cohere with optional parameters only (trial 67 D7). Where the
/// object's schema reads whether that first member is given ([`reads_presence`]), the null
/// sent for "not given" would count as given: the tool is refused there, as no rewrite keeps
/// its meaning.
struct OneRequired<'a> {
    changes: &'a mut Vec<Change>,
    blocked: &'a mut Vec<Unwirable>,
    refs: &'a mut Refs,
    /// The schema before the walk, which the `$ref`s beside an object are read in (`Null`
    /// when it holds none that [`Refs`] saw).
    unrewritten: &'a Value,
    /// The definitions a condition reaches ([`condition_definitions`]), left as written.
    conditions: &'a HashSet<String>,
    /// The schema as given, where known.
    as_given: Option<&'a AsGiven<'a>>,
    /// For each `anyOf` branch rewritten as a shape ([`OneRequired::shapes_in_branches`]),
    /// by its pointer: the keywords beside the branch that read whether its first member is
    /// given ([`reads_presence_beside_branches`]).
    beside: HashMap<String, Vec<(String, String)>>,
}

impl OneRequired<'_> {
    fn visit(&mut self, v: &mut Value, at: &str, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let Value::Object(o) = v else { return };
        let object = is_object_schema(o);
        let mut shapes = HashSet::new();
        if object {
            self.require_first(o, at);
            shapes = self.shapes_in_branches(o, at);
        }
        let _ = children(o, at, |sub, here| {
            let keyword = here[at.len() + 1..].split('/').next().unwrap_or_default();
            let in_place = NOT_AN_ARGUMENT_OBJECT.contains(&keyword)
                || (object
                    && ["allOf", "anyOf", "oneOf"].contains(&keyword)
                    && !shapes.contains(here))
                || self.conditions.contains(here);
            if !in_place {
                self.visit(sub, here, depth + 1);
            }
            Ok(())
        });
    }

    /// The pointers of the `anyOf` branches of the object schema `o` at `at` that declare the
    /// object's shapes: where `o` declares no member (no `properties`, or none in them) and
    /// requires none, each branch that is an object schema. Such a branch is an object the
    /// model writes, as a property's is: without it, the one object would have optional
    /// parameters only, which Cohere's strict tools refuse (trial 67 D7: `anyOf: [{type:
    /// object, properties: {x}}, {type: object, properties: {y}}]` at the root went out with
    /// neither `x` nor `y` required). A branch requiring one `null` for a member not given
    /// keeps the object's calls: a call meets the branch it was written for, and `toolwire
    /// args` reads that null as absent under that branch on its own. The keywords beside it
    /// that read whether the member is given are kept, for [`OneRequired::require_first`] to
    /// refuse at. Where `o` declares or requires a member, the object has a required one (or
    /// gets it), and its branches stay conditions on it. The branches of `oneOf` and `allOf`
    /// stay conditions too: `oneOf` counts the branches a call meets, and a branch that now
    /// requires its member fails calls it met (`oneOf: [{properties: {x}}, {properties:
    /// {y}}]` refuses `{"x": "a"}`, which meets both; requiring `y` in the second lets it
    /// through); `allOf`'s branches all apply to the one object, which one required member
    /// in one of them would answer, and a member required and made nullable in one must be
    /// nullable in every other branch declaring it.
    fn shapes_in_branches(&mut self, o: &Map<String, Value>, at: &str) -> HashSet<String> {
        let declares = o
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
        let requires = o
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| !r.is_empty());
        let Some(Value::Array(branches)) = o.get("anyOf") else {
            return HashSet::new();
        };
        if declares || requires {
            return HashSet::new();
        }
        let mut shapes = HashSet::new();
        for (i, branch) in branches.iter().enumerate() {
            let Some(b) = branch.as_object().filter(|b| is_object_schema(b)) else {
                continue;
            };
            let here = push_token(&push_token(at, "anyOf"), &i.to_string());
            if let Some(name) = first_optional(b) {
                let readers = reads_presence_beside_branches(o, at, &name, self.unrewritten);
                self.beside.insert(here.clone(), readers);
            }
            shapes.insert(here);
        }
        shapes
    }

    fn require_first(&mut self, o: &mut Map<String, Value>, at: &str) {
        let Some(name) = first_optional(o) else {
            return;
        };
        let mut readers = reads_presence(o, at, &name, self.unrewritten);
        readers.extend(self.beside.remove(at).unwrap_or_default());
        if !readers.is_empty() {
            // Named as given, as the lines' places are: a schema this walk made nullable was
            // wrapped in `anyOf`, where `at` goes through its first branch.
            let given = self.refs.as_given(at);
            let object = if given.is_empty() {
                "the arguments object".to_string()
            } else {
                format!("the object at `{given}`")
            };
            for (place, keyword) in readers {
                let why = if matches!(keyword.as_str(), "minProperties" | "maxProperties") {
                    format!("`{keyword}` counts the members given, and that null would count")
                } else if keyword.ends_with("roperties") {
                    format!(
                        "`{keyword}` here applies a schema to `{name}` when it is given, and so \
                         would apply it to that null"
                    )
                } else {
                    format!(
                        "`{keyword}` here reads whether `{name}` is given, and that null would \
                         count as given"
                    )
                };
                self.blocked.push(Unwirable::at(
                    &place,
                    format!(
                        "Cohere strict needs a required property in {object}, and would make its \
                         first optional one, `{name}`, required and nullable, null saying \
                         \"not given\"; but {why}, changing which calls are valid. Require one \
                         of the object's properties yourself"
                    ),
                ));
            }
            return;
        }
        let mut action = "made the first optional argument required and nullable (Cohere strict needs one required property per object)";
        let here = push_token(&push_token(at, "properties"), &name);
        if let Some(p) = o.get_mut("properties").and_then(|p| p.get_mut(&name)) {
            let accepts =
                optional_accepts_null(p, &here, self.unrewritten, self.as_given, self.refs);
            if accepts {
                action = FIRST_NULL_PASSED_ON;
            }
            optional_made_nullable(p, &here, self.refs, accepts);
        }
        o.insert("required".into(), json!([name.clone()]));
        self.changes.push(change(&here, action.into(), None));
    }
}

/// The first property of the object schema `o` when it requires none: the one Cohere
/// strict's rewrite ([`OneRequired`]) requires.
fn first_optional(o: &Map<String, Value>) -> Option<String> {
    let none_required = o
        .get("required")
        .and_then(Value::as_array)
        .is_none_or(Vec::is_empty);
    o.get("properties")
        .and_then(Value::as_object)
        .and_then(|p| p.keys().next().cloned())
        .filter(|_| none_required)
}

/// The definitions (JSON Pointers in `root`) that a `$ref` in a condition reaches: one in a
/// place of [`NOT_AN_ARGUMENT_OBJECT`] or in an object schema's `allOf`/`anyOf`/`oneOf`
/// branch, one beside an object schema's own keywords, or one in a definition so reached, in
/// turn. Such a definition applies in place as well, and [`OneRequired`] leaves it as written
/// (trial 55 D8's `then` written as `{"$ref": "#/$defs/Fast"}` still came out requiring `n`).
fn condition_definitions<'v>(root: &'v Value) -> HashSet<String> {
    use crate::schema::{Via, refs};
    let ref_of = |v: &'v Value| v.get("$ref").and_then(Value::as_str);
    let mut pending: Vec<(String, &str)> = Vec::new();
    // (in a condition, an object schema) for each ancestor of the node, root first.
    let mut above: Vec<(bool, bool)> = Vec::new();
    for n in crate::schema::walk(root).nodes {
        above.truncate(n.depth);
        let (in_condition, of_object) = above.last().copied().unwrap_or_default();
        let applies_in_place = match &n.via {
            Via::Keyword(k) => NOT_AN_ARGUMENT_OBJECT.contains(k),
            // Draft 4-7's schema-form `dependencies` is `dependentSchemas` by another name.
            Via::Member { keyword, .. } => matches!(*keyword, "dependentSchemas" | "dependencies"),
            Via::Element { keyword, .. } => {
                of_object && ["allOf", "anyOf", "oneOf"].contains(keyword)
            }
            Via::Root => false,
        };
        let condition = in_condition || applies_in_place;
        let object = n.object().is_some_and(is_object_schema);
        if let Some(r) = ref_of(n.value).filter(|_| condition || object) {
            pending.push((n.pointer.clone(), r));
        }
        above.push((condition, object));
    }
    let mut found = HashSet::new();
    while let Some((at, r)) = pending.pop() {
        if let refs::Step::Local(target, pointer) = refs::step_from(root, &at, r)
            && found.insert(pointer.clone())
        {
            for n in crate::schema::walk_from(target, &pointer).nodes {
                if let Some(r) = ref_of(n.value) {
                    pending.push((n.pointer.clone(), r));
                }
            }
        }
    }
    found
}

/// Each keyword (its JSON Pointer and name) of the object schema `o` at `at`, or of a
/// schema applying in place with it (an `allOf`/`anyOf`/`oneOf` branch, `if`, `then`, `else`,
/// `not`, a `dependentSchemas` or schema-valued `dependencies` entry, a `$ref`'s target in
/// `root`, in turn), whose verdict can differ between `name` absent and `name` given as null:
/// trial 55 D4 (an `anyOf` of `required` lists met by the null), D7 (`dependentRequired`,
/// `dependentSchemas`, `not` with `required`, `maxProperties`). Those are a count of members
/// (`minProperties` above 0, `maxProperties`), a `propertyNames` that `name` fails (or that
/// cannot be read alone), a `dependentRequired`,
/// `dependencies` or `dependentSchemas` naming `name`, a `patternProperties` pattern matching
/// it; in a schema other than `o` also a `required` naming it, a `properties` giving it a
/// schema that refuses null (or that cannot be read alone), and an `additionalProperties` or
/// `unevaluatedProperties` that would apply to it. Each schema is read once, at most
/// [`MAX_DEPTH`] deep.
fn reads_presence(
    o: &Map<String, Value>,
    at: &str,
    name: &str,
    root: &Value,
) -> Vec<(String, String)> {
    presence_readers(o, at, name, root, false)
}

/// As [`reads_presence`], for `name` required in an `anyOf` branch of the object schema `o`
/// at `at` ([`OneRequired::shapes_in_branches`]): the keywords of `o` itself and of what
/// applies in place with it other than its `anyOf`, with `o` read as a schema other than the
/// one `name` is required in. A sibling branch is left out: the call meets the branch that
/// requires `name`, and `toolwire args` reads a null under each branch on its own.
fn reads_presence_beside_branches(
    o: &Map<String, Value>,
    at: &str,
    name: &str,
    root: &Value,
) -> Vec<(String, String)> {
    presence_readers(o, at, name, root, true)
}

fn presence_readers(
    o: &Map<String, Value>,
    at: &str,
    name: &str,
    root: &Value,
    beside_branches: bool,
) -> Vec<(String, String)> {
    let mut readers = Vec::new();
    let mut parts = vec![(o, at.to_string(), 0usize)];
    let mut seen: HashSet<String> = HashSet::from([at.to_string()]);
    let mut i = 0;
    while let Some((part, here, depth)) = parts.get(i).cloned() {
        let first = i == 0;
        let own = first && !beside_branches;
        i += 1;
        let given_schema = part.get("properties").and_then(|p| p.get(name));
        let declared = given_schema.is_some();
        let patterned = crate::schema::pattern_declaring(part, name).is_some();
        let reads = part.iter().filter(|(k, v)| match k.as_str() {
            "minProperties" => v.as_f64().is_none_or(|n| n > 0.0),
            "maxProperties" => true,
            // The null adds only the name `name`, which a `propertyNames` it passes lets by.
            "propertyNames" => {
                !jsonschema::validator_for(v).is_ok_and(|names| names.is_valid(&json!(name)))
            }
            "dependentRequired" | "dependencies" | "dependentSchemas" => {
                v.as_object().is_some_and(|m| {
                    m.iter().any(|(with, needs)| {
                        with == name
                            || needs
                                .as_array()
                                .is_some_and(|l| l.iter().any(|n| n == name))
                    })
                })
            }
            "patternProperties" => patterned,
            "required" => !own && v.as_array().is_some_and(|l| l.iter().any(|n| n == name)),
            // A schema that takes null (`{"minLength": 1}`) judges it as it judges no member.
            "properties" => {
                !own && given_schema.is_some_and(|g| {
                    !jsonschema::validator_for(g).is_ok_and(|g| g.is_valid(&Value::Null))
                })
            }
            "additionalProperties" | "unevaluatedProperties" => {
                let any = v.as_bool() == Some(true) || v.as_object().is_some_and(Map::is_empty);
                !own && !declared && !patterned && !any
            }
            _ => false,
        });
        readers.extend(reads.map(|(k, _)| (push_token(&here, k), k.clone())));
        if depth >= MAX_DEPTH {
            continue;
        }
        let mut next: Vec<(&Value, String)> = Vec::new();
        for (k, v) in part {
            let there = push_token(&here, k);
            match (k.as_str(), v) {
                ("anyOf", _) if first && beside_branches => {}
                ("allOf" | "anyOf" | "oneOf", Value::Array(l)) => next.extend(
                    l.iter()
                        .enumerate()
                        .map(|(n, b)| (b, push_token(&there, &n.to_string()))),
                ),
                ("if" | "then" | "else" | "not", _) => next.push((v, there)),
                ("dependentSchemas" | "dependencies", Value::Object(m)) => {
                    next.extend(m.iter().map(|(w, s)| (s, push_token(&there, w))));
                }
                ("$ref", Value::String(r)) => {
                    if let crate::schema::refs::Step::Local(target, pointer) =
                        crate::schema::refs::step_from(root, &here, r)
                    {
                        next.push((target, pointer));
                    }
                }
                _ => {}
            }
        }
        for (v, pointer) in next {
            if let Value::Object(m) = v
                && seen.insert(pointer.clone())
            {
                parts.push((m, pointer, depth + 1));
            }
        }
    }
    readers
}

/// The arguments as a strict wire form expects them: every declared property present, an
/// absent optional one as `null`. Follows `properties` and `items` of `canonical`.
pub fn to_wire_arguments(args: &Value, canonical: &Value) -> Value {
    fill(args, canonical, 0)
}

fn fill(args: &Value, schema: &Value, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return args.clone();
    }
    match args {
        Value::Object(a) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let mut out = Map::new();
            for (k, v) in a {
                let sub = props.and_then(|p| p.get(k)).unwrap_or(&Value::Null);
                out.insert(k.clone(), fill(v, sub, depth + 1));
            }
            if let Some(p) = props {
                for name in p.keys() {
                    out.entry(name.clone()).or_insert(Value::Null);
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            let sub = schema.get("items").unwrap_or(&Value::Null);
            Value::Array(items.iter().map(|i| fill(i, sub, depth + 1)).collect())
        }
        v => v.clone(),
    }
}

/// Gemini's `nullable: true` written as JSON Schema (`type` gains `"null"`), so that the wire
/// schema can be checked with a JSON Schema validator (as strict forms write it, without the
/// change lines).
pub fn nullable_as_json_schema(schema: &Value) -> Value {
    let mut out = schema.clone();
    let mut refs = Refs::of(&out);
    write_nullable(&mut out, "", &mut Vec::new(), &mut refs, 0);
    refs.write(&mut out);
    out
}

/// Strict forms: OpenAPI's `nullable` (not a JSON Schema keyword, so a strict form's validator
/// would ignore it, and a `nullable: true` argument could not be null) written as JSON
/// Schema. `nullable: true` becomes what [`make_nullable`] writes (`type: [T, "null"]`, or an
/// `anyOf` with a `{"type": "null"}` branch where `type` cannot say it); `nullable: false` says
/// nothing and is dropped. The translation keeps the author's meaning, so it needs no
/// evidence against `nullable` (the strict profiles have none either way). Any other value
/// (OpenAPI has none; a list of names is a known mistake) is left for the target's profile
/// and model to judge. Beside `$ref`, `oneOf` or `allOf`, null is added to the schema's own
/// `type`, `enum`, `const` and `anyOf` only ([`crate::args::accept_null`]), and those keywords
/// still judge it, as `toolwire args` reads `nullable` there. Each change is at the `nullable`
/// keyword's place in the schema as given: what lies below is rewritten first, before wrapping
/// in `anyOf` moves it.
fn write_nullable(
    v: &mut Value,
    at: &str,
    changes: &mut Vec<Change>,
    refs: &mut Refs,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let Value::Object(o) = v else { return };
    let mark = changes.len();
    let _ = children(o, at, |sub, here| {
        write_nullable(sub, here, changes, refs, depth + 1);
        Ok(())
    });
    let said = match o.get("nullable") {
        Some(&Value::Bool(said)) => said,
        _ => return,
    };
    o.shift_remove("nullable");
    // Beside these `nullable` adds null to the schema's own keywords only, and they still
    // judge it, as `toolwire args` reads it: wrapped in a null branch, the schema accepted a
    // null they refuse (trial 48 D8: `{"nullable": true, "allOf": [{"type": "string"}]}`).
    let beside = ["$ref", "oneOf", "allOf"]
        .into_iter()
        .find(|k| o.contains_key(*k));
    let action = if !said {
        "dropped `nullable: false` (it says nothing: without it null is refused all the same)"
            .to_string()
    } else if let Some(k) = beside {
        let own = o.clone();
        crate::args::accept_null(o);
        let done = match o.get("type") {
            Some(t) if own.get("type") != Some(t) => {
                format!(
                    "wrote OpenAPI's `nullable: true` as `type: {}`",
                    crate::report::Shown(t)
                )
            }
            _ if own != *o => "wrote OpenAPI's `nullable: true` as null added to the schema's \
                               `enum`, `const` or `anyOf`"
                .to_string(),
            _ => "dropped OpenAPI's `nullable: true`, which names no `type` of its own schema"
                .to_string(),
        };
        format!(
            "{done} (`nullable` is not JSON Schema, which strict mode reads); null must still \
             pass the `{k}` beside it, as `toolwire args` reads `nullable` there"
        )
    } else if admits_null(v) {
        "dropped OpenAPI's `nullable: true` (the schema already accepts null in JSON Schema's \
         words)"
            .to_string()
    } else {
        if make_nullable(v) {
            // A reference to the schema meant it with its `nullable: true`: it keeps reaching
            // the union; one into it follows what moved.
            refs.moved(at, false);
        }
        let written = match v.get("type") {
            Some(t @ Value::Array(_)) => format!("`type: {}`", crate::report::Shown(t)),
            _ => "an `anyOf` with a `{\"type\": \"null\"}` branch".to_string(),
        };
        format!(
            "wrote OpenAPI's `nullable: true` as {written} (`nullable` is not JSON Schema, \
             which strict mode reads: left as it was, null would be refused)"
        )
    };
    changes.insert(mark, change(&push_token(at, "nullable"), action, None));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::refs::MAX_INLINE_NODES;

    /// `type: []` allows nothing; adding `null` would make it allow only null (found by a
    /// fresh-user trial: strict compile sent `["null"]` and reported no loss).
    #[test]
    fn an_empty_type_list_is_not_made_null_only() {
        let mut s = json!({"type": []});
        make_nullable(&mut s);
        assert_eq!(s, json!({"type": []}));
        let mut s = json!({"type": ["integer"]});
        make_nullable(&mut s);
        assert_eq!(s, json!({"type": ["integer", "null"]}));
    }

    /// Each way of saying null is valid is left as written; a keyword beside it that excludes
    /// null (or none that names null) still gets null added.
    #[test]
    fn a_schema_that_already_accepts_null_is_not_made_nullable_again() {
        for s in [
            json!({"anyOf":[{"type":"string"},{"type":"null"}]}),
            json!({"anyOf":[{"type":"object","properties":{}},{"type":"null"}],"description":"d"}),
            json!({"oneOf":[{"type":"integer"},{"type":"null"}]}),
            json!({"type":["string","null"]}),
            json!({"type":"null"}),
            json!({"const":null}),
            json!({"enum":["a",null]}),
        ] {
            let mut written = s.clone();
            make_nullable(&mut written);
            assert_eq!(written, s);
        }
        for (s, nullable) in [
            (
                json!({"type":"string","enum":["a",null]}),
                json!({"type":["string","null"],"enum":["a",null]}),
            ),
            (
                json!({"anyOf":[{"type":"string"},{"type":"integer"}]}),
                json!({"anyOf":[{"anyOf":[{"type":"string"},{"type":"integer"}]},{"type":"null"}]}),
            ),
            (
                json!({"description":"any value"}),
                json!({"anyOf":[{"description":"any value"},{"type":"null"}],"description":"any value"}),
            ),
        ] {
            let mut written = s.clone();
            make_nullable(&mut written);
            assert_eq!(written, nullable, "{s}");
        }
    }

    /// `not`, `allOf` and `if`/`then`/`else` say no value of their own, but must let null
    /// through for a schema to admit it, judged exactly as the validator `args` uses judges a
    /// null (trial 61 D4: `{type: [string, null], not: {const: null}}` counted as accepting
    /// null); a `oneOf` must pass it in exactly one branch; a schema still has to say null to
    /// admit it.
    #[test]
    fn keywords_saying_no_value_must_let_null_through() {
        let defs = json!({"S": {"type": "string"}, "N": {"type": "null"}});
        let cases = [
            (
                json!({"type": ["string", "null"], "not": {"const": null}}),
                false,
            ),
            (
                json!({"type": ["string", "null"], "not": {"type": "string"}}),
                true,
            ),
            (json!({"type": ["string", "null"], "not": true}), false),
            (
                json!({"type": ["string", "null"], "allOf": [{"type": "string"}]}),
                false,
            ),
            (
                json!({"type": ["string", "null"], "allOf": [{"minLength": 1}, true]}),
                true,
            ),
            (
                json!({"type": ["string", "null"], "if": {"type": "null"}, "then": {"type": "string"}}),
                false,
            ),
            (
                json!({"type": ["string", "null"], "if": {"type": "null"}, "then": {"const": null}}),
                true,
            ),
            (
                json!({"type": ["string", "null"], "if": {"type": "string"}, "else": false}),
                false,
            ),
            (
                json!({"type": ["string", "null"], "if": {"type": "string"}, "then": false}),
                true,
            ),
            (
                json!({"oneOf": [{"type": "null"}, {"type": ["string", "null"]}]}),
                false,
            ),
            (
                json!({"oneOf": [{"type": "null"}, {"type": "string"}]}),
                true,
            ),
            // Let through, but not said: strict forms want the null written out.
            (json!({"not": {"type": "string"}}), false),
            (json!({"allOf": [{"type": "null"}]}), false),
            (
                json!({"type": ["string", "null"], "not": {"$ref": "#/$defs/N"}, "$defs": defs}),
                false,
            ),
        ];
        for (s, admits) in &cases {
            let valid = jsonschema::validator_for(s)
                .expect("a valid schema")
                .is_valid(&Value::Null);
            assert_eq!(null_verdict(s, "", Some(s)), Some(valid), "{s}");
            assert_eq!(admits_null_in(s, "", s), *admits, "{s}");
            assert!(valid || !admits, "{s}");
            // Without the document, a `$ref` cannot be read: undecided, so not admitted.
            assert_eq!(admits_null(s), *admits, "{s}");
        }
        let by_ref =
            json!({"type": ["string", "null"], "not": {"$ref": "#/$defs/S"}, "$defs": defs});
        assert!(admits_null_in(&by_ref, "", &by_ref));
        assert!(!admits_null(&by_ref));
        assert_eq!(null_verdict(&by_ref, "", None), None);
        // Under draft-07 the keywords beside a `$ref` are ignored, as the validator ignores
        // them; `nullable: true` reads as `args` reads it.
        let draft07 = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "$ref": "#/definitions/T", "not": {"const": null},
            "definitions": {"T": {"type": ["string", "null"]}}});
        assert!(
            jsonschema::validator_for(&draft07)
                .unwrap()
                .is_valid(&Value::Null)
        );
        assert_eq!(null_verdict(&draft07, "", Some(&draft07)), Some(true));
        let nullable = json!({"type": "string", "nullable": true, "not": {"const": "x"}});
        assert_eq!(null_verdict(&nullable, "", None), Some(true));
        assert!(
            crate::args::check_arguments(
                &json!({"type": "object", "properties": {"n": nullable}, "required": ["n"]}),
                &json!({"n": null}),
                crate::args::Coercions::NONE,
            )
            .unwrap()
            .problems
            .is_empty()
        );
        // A cycle, and a reference fanning out again, end undecided.
        for s in [
            json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}}),
            json!({"$ref": "#/$defs/A", "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/A"}]}}}),
            json!({"$ref": "#/$defs/A", "$defs": {"A": {"not": {"$ref": "#/$defs/A"}}}}),
        ] {
            assert_eq!(null_verdict(&s, "", Some(&s)), None, "{s}");
            assert!(!admits_null_in(&s, "", &s), "{s}");
        }
    }

    /// What `make_nullable` writes accepts null, and still accepts (and refuses) every other
    /// value as the schema did, also when a keyword beside `type` holds for null too (trial
    /// 2026-12-02: `{"type":"string","anyOf":[…]}` became `type: ["string","null"]` beside an
    /// `anyOf` that still refused null, so "nullable" arguments could not be null).
    /// Values of every JSON type, for comparing what two schemas accept.
    fn samples() -> Vec<Value> {
        vec![
            json!("x"),
            json!("abcd"),
            json!(3),
            json!(true),
            json!({}),
            json!([]),
        ]
    }

    #[test]
    fn what_make_nullable_writes_accepts_null_and_nothing_else_new() {
        let samples = samples();
        for s in [
            json!({"type":"string","anyOf":[{"type":"string","maxLength":3},{"type":"string","pattern":"^x"}]}),
            json!({"type":"string","oneOf":[{"maxLength":1},{"minLength":3}]}),
            json!({"type":"string","allOf":[{"maxLength":3}]}),
            json!({"type":"string","not":{"const":"x"}}),
            json!({"type":"string","const":"x"}),
            json!({"type":"integer","if":{"minimum":0},"then":{"maximum":5}}),
            json!({"type":"string","enum":["x","abcd"]}),
            json!({"type":"string","maxLength":3}),
        ] {
            let mut written = s.clone();
            make_nullable(&mut written);
            let before = jsonschema::validator_for(&s).expect("a valid schema");
            let after = jsonschema::validator_for(&written).expect("a valid schema");
            assert!(
                after.is_valid(&Value::Null),
                "{s} -> {written} refuses null"
            );
            for v in &samples {
                assert_eq!(
                    before.is_valid(v),
                    after.is_valid(v),
                    "{s} -> {written} on {v}"
                );
            }
        }
        let mut with_ref = json!({"type":"object","$ref":"#/$defs/a","description":"d"});
        make_nullable(&mut with_ref);
        assert_eq!(
            with_ref,
            json!({"anyOf":[{"type":"object","$ref":"#/$defs/a"},{"type":"null"}],"description":"d"})
        );
    }

    /// Beside `$ref`, `oneOf` or `allOf`, `nullable: true` adds null to the schema's own
    /// keywords and they still judge it, as `toolwire args` reads it (trial 48 D8: wrapped in
    /// a null branch, `{"nullable": true, "allOf": [{"type": "string"}]}` accepted the null
    /// the original refuses).
    #[test]
    fn nullable_beside_ref_one_of_or_all_of_leaves_them_judging_null() {
        for (x, written) in [
            (
                json!({"nullable":true,"allOf":[{"type":"string"}]}),
                json!({"allOf":[{"type":"string"}]}),
            ),
            (
                json!({"type":"string","nullable":true,"allOf":[{"type":"string"}]}),
                json!({"type":["string","null"],"allOf":[{"type":"string"}]}),
            ),
            (
                json!({"nullable":true,"oneOf":[{"type":"string"},{"type":"integer"}]}),
                json!({"oneOf":[{"type":"string"},{"type":"integer"}]}),
            ),
            (
                json!({"nullable":true,"$ref":"#/$defs/S"}),
                json!({"$ref":"#/$defs/S"}),
            ),
        ] {
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let mut s = json!({"type":"object","$defs":{"S":{"type":"string"}},
                    "properties":{"x":x.clone()},"required":["x"]});
                let changes = apply(form, &mut s, None, MAX_INLINE_NODES).unwrap();
                assert_eq!(s["properties"]["x"], written, "{form:?} {x}");
                assert!(
                    changes.iter().any(|c| c.pointer == "/properties/x/nullable"
                        && c.action.contains("null must still pass the")),
                    "{changes:#?}"
                );
            }
        }
    }

    #[test]
    fn strict_closes_objects_and_makes_optional_nullable() {
        let mut s = json!({"type":"object","properties":{
            "q":{"type":"string"},
            "n":{"type":"integer"},
            "mode":{"type":"string","enum":["a","b"]},
            "any":{"anyOf":[{"type":"string"},{"type":"integer"}]},
            "sub":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}
        },"required":["q"]});
        let changes = apply(Form::Strict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(
            s,
            json!({"type":"object","properties":{
                "q":{"type":"string"},
                "n":{"type":["integer","null"]},
                "mode":{"type":["string","null"],"enum":["a","b",null]},
                "any":{"anyOf":[{"anyOf":[{"type":"string"},{"type":"integer"}]},{"type":"null"}]},
                "sub":{"type":["object","null"],"properties":{"x":{"type":"string"}},"required":["x"],"additionalProperties":false}
            },"required":["q","n","mode","any","sub"],"additionalProperties":false})
        );
        assert!(changes.iter().any(|c| c.pointer == "/properties/n"));
    }

    #[test]
    fn every_form_writes_a_required_string_as_a_list() {
        for form in [Form::Plain, Form::Strict, Form::CohereStrict] {
            let mut s = json!({"type":"object","properties":{
                "q":{"type":"string"},
                "sub":{"type":"object","properties":{"x":{"type":"string"}},"required":"x"}},
                "required":"q"});
            let changes = apply(form, &mut s, None, MAX_INLINE_NODES).unwrap();
            assert_eq!(s["required"][0], json!("q"), "{form:?}");
            assert_eq!(
                s["properties"]["sub"]["required"][0],
                json!("x"),
                "{form:?}"
            );
            assert!(changes.iter().any(|c| c.pointer == "/required"), "{form:?}");
        }
    }

    /// A `required` that is no list of names was overwritten by the strict form (or, for
    /// Cohere, sent as it was) without a line (trial 39): it is rewritten as repair rewrites it
    /// first, reported at `/required` with its loss, and an argument it no longer makes
    /// required is then made required and nullable, with its own line.
    #[test]
    fn strict_forms_report_a_required_that_is_no_list_of_names() {
        let props = json!({"x":{"type":"string"},"y":{"type":"integer"}});
        // (`required` as given, what is left of it before the strict form, the loss's start)
        let cases = [
            (
                json!({"x": true}),
                None,
                Some("`required: {\"x\":true}` is not a list"),
            ),
            (json!("a"), None, Some("`required: \"a\"` is not a list")),
            (json!(true), None, Some("draft-03's `required: true`")),
            (json!(null), None, None),
            (
                json!(["x", 1]),
                Some("x"),
                Some("`required` also listed 1;"),
            ),
        ];
        for form in [Form::Strict, Form::DeepSeekStrict, Form::CohereStrict] {
            for (given, kept, lost) in &cases {
                let mut s = json!({"type":"object","properties":props,"required":given});
                let changes = apply(form, &mut s, None, MAX_INLINE_NODES).unwrap();
                let at: Vec<&Change> = changes
                    .iter()
                    .filter(|c| c.pointer == "/required")
                    .collect();
                assert_eq!(at.len(), 1, "{form:?} {given}: {changes:?}");
                assert_eq!(at[0].rule, "required-invalid", "{form:?} {given}");
                match lost {
                    Some(l) => assert!(
                        at[0].lost.as_deref().is_some_and(|x| x.starts_with(l)),
                        "{form:?} {given}: {:?}",
                        at[0].lost
                    ),
                    None => assert_eq!(at[0].lost, None, "{form:?} {given}"),
                }
                // x as the strict form leaves it: required as given only when the list named it.
                let x_nullable = s["properties"]["x"]["type"] == json!(["string", "null"]);
                assert_eq!(x_nullable, kept.is_none(), "{form:?} {given}: {s}");
                let x_line = changes.iter().any(|c| c.pointer == "/properties/x");
                assert_eq!(x_line, kept.is_none(), "{form:?} {given}: {changes:?}");
                let required = match form {
                    Form::CohereStrict => json!(["x"]),
                    _ => json!(["x", "y"]),
                };
                assert_eq!(s["required"], required, "{form:?} {given}");
                // Its line comes before the lines of the strict form it makes way for.
                let first = changes.iter().position(|c| c.pointer == "/required");
                assert_eq!(first, Some(0), "{form:?} {given}: {changes:?}");
            }
        }
        // The plain form sends the canonical schema: the target's profile judges it there.
        let mut s = json!({"type":"object","properties":props,"required":{"x": true}});
        assert_eq!(
            apply(Form::Plain, &mut s, None, MAX_INLINE_NODES).unwrap(),
            vec![]
        );
        assert_eq!(s["required"], json!({"x": true}));
        // Only where a strict form writes `required`: on an object schema.
        let mut s = json!({"type":"object","properties":{"x":{"type":"string","required":true}}});
        let changes = apply(Form::Strict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(s["properties"]["x"]["required"], json!(true));
        assert!(changes.iter().all(|c| c.rule != "required-invalid"));
    }

    /// A `required` name no property declares cannot survive closing, and every call valid
    /// there carries it: the object is refused at its `required`, naming the member (trial 48
    /// D2: it was dropped with a loss, exit 0, and the output refused every valid call), at
    /// the root, below it, with `properties: {}`, and a pattern's member with its pattern.
    #[test]
    fn strict_refuses_an_undeclared_required_name() {
        for (s, at, says) in [
            (
                json!({"type":"object","properties":{"a":{"type":"string"}},"required":["a","ghost"]}),
                "/required",
                "`required` names `ghost`, which no property declares;",
            ),
            (
                json!({"type":"object","properties":{},"required":["x"]}),
                "/required",
                "`required` names `x`, which",
            ),
            (
                json!({"type":"object","properties":{"p":{"type":"object",
                    "required":["adults","children"]}},"required":["p"]}),
                "/properties/p/required",
                "names `adults` and `children`, which no property declares; strict mode closes \
                 the object to the properties it declares, so every call the schema accepts \
                 here, which must carry them, would be refused",
            ),
            (
                json!({"type":"object","properties":{"a":{}},"patternProperties":{"^x":{}},
                    "required":["xa"]}),
                "/required",
                "(it declares `xa` only by the `patternProperties` pattern `^x`, which a strict \
                 form cannot carry)",
            ),
        ] {
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let blocked = apply(form, &mut s.clone(), None, MAX_INLINE_NODES).unwrap_err();
                assert_eq!(blocked.len(), 1, "{form:?} {s}: {blocked:?}");
                assert_eq!(blocked[0].pointer, at, "{form:?} {s}");
                assert!(
                    blocked[0].reason.contains(says),
                    "{form:?} {s}: {blocked:?}"
                );
            }
        }
    }

    /// A root that declares no property is closed to none; the root that said its members
    /// elsewhere is refused before closing, with repair's words, while the other strict
    /// forms' repair had dropped the keyword that said so (trial 48 D2: `dependentRequired`,
    /// `minProperties` written closed, exit 0).
    #[test]
    fn a_root_saying_its_members_elsewhere_is_not_closed_to_none() {
        let closed = json!({"type":"object"});
        for given in [
            json!({"type":"object","dependentRequired":{"a":["b"]}}),
            json!({"type":"object","minProperties":1}),
            json!({"type":"object","properties":{},"minProperties":1}),
        ] {
            for form in [Form::Strict, Form::DeepSeekStrict] {
                assert_eq!(
                    members_elsewhere(form, &given, &closed),
                    Some(Unwirable::at("", crate::repair::MEMBERS_ELSEWHERE)),
                    "{form:?} {given}"
                );
            }
            assert_eq!(members_elsewhere(Form::Plain, &given, &closed), None);
        }
        // Repair gave it members (a merged `allOf`), or it still requires one, which
        // `close` names; a root saying nothing elsewhere takes none.
        let given = json!({"type":"object","allOf":[{"properties":{"x":{}}}]});
        let merged = json!({"type":"object","properties":{"x":{}}});
        assert_eq!(members_elsewhere(Form::Strict, &given, &merged), None);
        let given = json!({"type":"object","required":["x"]});
        assert_eq!(members_elsewhere(Form::Strict, &given, &given), None);
        assert_eq!(members_elsewhere(Form::Strict, &closed, &closed), None);
        // A root `$ref` to an object is that object (trial 50 D1: refused as "no tool
        // without arguments" by openai/chat-strict and openai/responses-strict).
        let by_ref = json!({"type":"object","$ref":"#/$defs/O",
            "$defs":{"O":{"type":"object","properties":{"x":{"type":"string"}}}}});
        assert_eq!(members_elsewhere(Form::Strict, &by_ref, &by_ref), None);
    }

    /// Closing an object the author left open on purpose (`additionalProperties: true`) or a
    /// nested free-form object takes members from the tool: each such change carries a loss,
    /// at its pointer, in every strict form; the documented baseline (an object that
    /// declares its properties and says nothing about others) and a root that takes no
    /// arguments carry none.
    #[test]
    fn closing_an_open_or_free_form_object_is_reported_as_a_loss() {
        for form in [Form::Strict, Form::DeepSeekStrict] {
            let mut s = json!({"type":"object","properties":{
                "id":{"type":"string"},
                "meta":{"type":"object"},
                "tags":{"type":"object","properties":{}},
                "extra":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true},
                "plain":{"type":"object","properties":{"b":{"type":"string"}},"required":["b"]},
                "list":{"type":"array","items":{"type":"object","additionalProperties":true}}
            },"required":["id","meta","tags","extra","plain","list"],"additionalProperties":true});
            let changes = apply(form, &mut s, None, MAX_INLINE_NODES).unwrap();
            let closed: Vec<(&str, Option<&str>)> = changes
                .iter()
                .filter(|c| c.action.starts_with("closed the object"))
                .map(|c| (c.pointer.as_str(), c.lost.as_deref()))
                .collect();
            let lost = |at: &str| -> &str {
                closed
                    .iter()
                    .find(|(p, _)| *p == at)
                    .unwrap_or_else(|| panic!("{form:?}: {at} closed: {closed:?}"))
                    .1
                    .unwrap_or_else(|| panic!("{form:?}: {at} has a loss: {closed:?}"))
            };
            assert!(
                lost("").contains("`additionalProperties: true`"),
                "{form:?}"
            );
            assert!(
                lost("/properties/extra").contains("additionalProperties: true"),
                "{form:?}"
            );
            assert!(
                lost("/properties/meta").contains("free-form object"),
                "{form:?}"
            );
            assert!(
                lost("/properties/tags").contains("free-form object"),
                "{form:?}"
            );
            assert!(
                lost("/properties/list/items").contains("free-form object"),
                "{form:?}"
            );
            let plain = closed.iter().find(|(p, _)| *p == "/properties/plain");
            assert_eq!(plain, Some(&("/properties/plain", None)), "{form:?}");
            assert_eq!(
                s["properties"]["meta"]["additionalProperties"],
                json!(false)
            );
        }
        // A root declaring `properties: {}` is a tool without arguments: no loss; one without
        // `properties` took any arguments, as repair says (trial 48 D2: no loss was said).
        for (root, lost) in [
            (json!({"type":"object"}), Some(crate::repair::ACCEPTED_ANY)),
            (json!({"type":"object","properties":{}}), None),
        ] {
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let mut s = root.clone();
                let changes = apply(form, &mut s, None, MAX_INLINE_NODES).unwrap();
                let close = changes.iter().find(|c| c.pointer.is_empty()).unwrap();
                assert_eq!(close.lost.as_deref(), lost, "{form:?} {root}");
            }
        }
    }

    #[test]
    fn a_map_cannot_be_strict() {
        let mut s = json!({"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}});
        assert_eq!(
            apply(Form::Strict, &mut s, None, MAX_INLINE_NODES).unwrap_err(),
            [Unwirable::at(
                "/properties/m/additionalProperties",
                "an object whose extra members have a schema (a map) cannot be closed for strict mode"
            )]
        );
    }

    #[test]
    fn deepseek_drops_length_bounds_and_unknown_formats() {
        let mut s = json!({"type":"object","properties":{
            "a":{"type":"string","maxLength":5,"format":"uri"},"b":{"type":"string","format":"email"}},"required":["a","b"]});
        let changes = apply(Form::DeepSeekStrict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(s["properties"]["a"], json!({"type":"string"}));
        assert_eq!(s["properties"]["b"]["format"], "email");
        assert_eq!(changes.iter().filter(|c| c.lost.is_some()).count(), 2);
    }

    #[test]
    fn cohere_gets_one_required_property_per_object() {
        let mut s =
            json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}});
        apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(s["required"], json!(["a"]));
        assert_eq!(s["properties"]["a"]["type"], json!(["string", "null"]));
    }

    /// Trial 55 D8: Cohere's rewrite went into subschemas applying in place to an object (an
    /// `if`, `then`, `else`, `not`, `dependentSchemas`, `contains`, an object's `allOf`/
    /// `anyOf`/`oneOf` branch), adding a `required` that changed the condition:
    /// `then: {properties: {n: {maximum: 5}}}` came out requiring `n`, so `{"mode": "fast"}`
    /// was refused. They are left as written; an object a union declares (a property's
    /// `anyOf: [{object}, {"type": "null"}]`) and an item's object still get a required one.
    #[test]
    fn cohere_leaves_subschemas_that_apply_in_place_alone() {
        let cond = json!({"type":"object","properties":{"mode":{"type":"string"},"n":{"type":"integer"},
            "l":{"type":"array","contains":{"properties":{"x":{"const":1}}}}},
            "required":["mode"],
            "if":{"properties":{"mode":{"const":"fast"}}},"then":{"properties":{"n":{"maximum":5}}},
            "else":{"properties":{"n":{"minimum":0}}},"not":{"properties":{"mode":{"const":"bad"}}},
            "dependentSchemas":{"n":{"properties":{"mode":{"minLength":1}}}},
            "anyOf":[{"properties":{"n":{"maximum":9}}},{"properties":{"mode":{"minLength":2}}}]});
        let mut s = cond.clone();
        let changes = apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(s, cond, "{changes:?}");
        for call in [
            json!({"mode":"fast"}),
            json!({"mode":"fast","n":3}),
            json!({"mode":"slow","l":[{}]}),
        ] {
            assert!(jsonschema::is_valid(&s, &call), "{call}");
        }
        let mut s = json!({"type":"object","properties":{"q":{"type":"string"},
            "o":{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"null"}]},
            "l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer"}}}}},
            "required":["q"]});
        apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(s["properties"]["o"]["anyOf"][0]["required"], json!(["a"]));
        assert_eq!(s["properties"]["l"]["items"]["required"], json!(["x"]));
        // A definition a condition reaches by `$ref` is a condition too, and so is one beside
        // an object's own keywords, and what such a definition reaches in turn; one a
        // property's `$ref` is the whole schema of is an argument object.
        let by_ref = json!({"type":"object","properties":{"mode":{"type":"string"},"n":{"type":"integer"},
            "o":{"$ref":"#/$defs/O"},"p":{"type":"object","properties":{"z":{"type":"string"}},"required":["z"],"$ref":"#/$defs/Base"}},
            "required":["mode"],"if":{"properties":{"mode":{"const":"fast"}}},"then":{"$ref":"#/$defs/Fast"},
            "$defs":{"Fast":{"allOf":[{"$ref":"#/$defs/Small"}]},"Small":{"properties":{"n":{"maximum":5}}},
            "Base":{"properties":{"z":{"minLength":1}}},"O":{"type":"object","properties":{"a":{"type":"string"}}}}});
        let mut s = by_ref.clone();
        apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(s["$defs"]["Small"], by_ref["$defs"]["Small"]);
        assert_eq!(s["$defs"]["Base"], by_ref["$defs"]["Base"]);
        assert_eq!(s["$defs"]["O"]["required"], json!(["a"]));
        assert!(jsonschema::is_valid(
            &s,
            &json!({"mode":"fast","o":{"a":null}})
        ));
        // So is one a schema-form `dependencies` member (draft 4-7's `dependentSchemas`) reaches.
        let dependency = json!({"type":"object","properties":{"mode":{"type":"string"},"n":{"type":"integer"}},
            "required":["mode"],"dependencies":{"n":{"$ref":"#/definitions/Fast"},"mode":["mode"]},
            "definitions":{"Fast":{"properties":{"mode":{"const":"fast"}}}}});
        let mut s = dependency.clone();
        apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(s["definitions"], dependency["definitions"]);
    }

    /// Trial 67 D7: an object schema that declares no member and requires none, whose
    /// `anyOf` branches are object schemas, went out with every member optional (the shapes
    /// were left as conditions). Each such branch is an object the model writes, and gets its
    /// first member required and nullable, what is below it rewritten too; a call meeting a
    /// branch as given meets it on the wire with that null, which `args` reads as absent. A
    /// keyword beside the branches reading whether the member is given refuses the tool.
    /// `oneOf` and `allOf` branches, and the branches of an object that declares a member,
    /// stay conditions.
    #[test]
    fn cohere_requires_one_member_in_each_object_branch_of_a_memberless_object() {
        let given = json!({"type":"object","anyOf":[
            {"type":"object","properties":{"x":{"type":"string"}}},
            {"properties":{"y":{"type":"string"},"o":{"type":"object","properties":{"k":{"type":"integer"}}}}},
            {"required":["z"]}]});
        let mut s = given.clone();
        let changes = apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap();
        let places: Vec<&str> = changes.iter().map(|c| c.pointer.as_str()).collect();
        assert_eq!(
            places,
            [
                "/anyOf/0/properties/x",
                "/anyOf/1/properties/y",
                "/anyOf/1/properties/o/properties/k"
            ]
        );
        assert_eq!(s["anyOf"][0]["required"], json!(["x"]));
        assert_eq!(s["anyOf"][1]["required"], json!(["y"]));
        assert_eq!(s["anyOf"][1]["properties"]["o"]["required"], json!(["k"]));
        assert_eq!(s["anyOf"][2], given["anyOf"][2]);
        // Each call as given, written with the branch's null for "not given", and back.
        for (wire, as_given) in [
            (json!({"x":null}), json!({})),
            (json!({"x":"a","y":null}), json!({"x":"a"})),
            (json!({"x":5,"y":null}), json!({"x":5})),
            (json!({"y":"b","o":{"k":null}}), json!({"y":"b","o":{}})),
        ] {
            assert!(jsonschema::is_valid(&s, &wire), "{wire}");
            assert!(jsonschema::is_valid(&given, &as_given), "{as_given}");
        }
        assert!(!jsonschema::is_valid(&s, &json!({})));
        // A keyword beside the branches that reads whether `x` is given: refused there.
        for (keyword, value) in [
            ("additionalProperties", json!(false)),
            ("dependentRequired", json!({"x":["w"]})),
            ("maxProperties", json!(1)),
        ] {
            let mut s = json!({"type":"object","anyOf":[{"type":"object","properties":{"x":{"type":"string"}}}]});
            s[keyword] = value;
            let blocked = apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap_err();
            assert_eq!(blocked.len(), 1, "{keyword}: {blocked:?}");
            assert_eq!(blocked[0].pointer, format!("/{keyword}"));
            assert!(
                blocked[0].reason.contains("the object at `/anyOf/0`"),
                "{}",
                blocked[0].reason
            );
        }
        // Left as written: `oneOf` and `allOf` branches, and the branches of an object that
        // declares or requires a member of its own.
        for kept in [
            json!({"type":"object","oneOf":[{"type":"object","properties":{"x":{"type":"string"}}},
                {"type":"object","properties":{"y":{"type":"string"}}}]}),
            json!({"type":"object","allOf":[{"type":"object","properties":{"x":{"type":"string"}}}]}),
            json!({"type":"object","required":["x"],"anyOf":[{"type":"object","properties":{"x":{"type":"string"}}}]}),
            json!({"type":"object","properties":{"q":{"type":"string"}},"required":["q"],
                "anyOf":[{"type":"object","properties":{"x":{"type":"string"}}}]}),
        ] {
            let mut s = kept.clone();
            apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap();
            assert_eq!(s, kept);
        }
    }

    /// Trial 59 D12: an optional object property whose schema reads whether its first member
    /// is given was refused with words naming "the object at `/properties/v/anyOf/0`", a place
    /// in the union the form wrapped it in, which the schema given does not have. The object
    /// is named at its place as given, as the refusal lines' places are; so is one that
    /// `nullable: true` had wrapped before, and one inside another wrapped object.
    #[test]
    fn cohere_names_a_refused_object_at_its_place_as_given() {
        let v = json!({"type":"object","properties":{"a":{"type":"string"}},
            "if":{"properties":{"a":{"const":"x"}}},"then":{"required":["a"]}});
        let nullable = {
            let mut n = v.clone();
            n["nullable"] = json!(true);
            n
        };
        let nested = json!({"type":"object","properties":{"w":v.clone()},"not":{"type":"string"}});
        for (given, object) in [
            (
                json!({"type":"object","properties":{"v":v}}),
                "/properties/v",
            ),
            (
                json!({"type":"object","properties":{"v":nullable}}),
                "/properties/v",
            ),
            (
                json!({"type":"object","properties":{"u":nested}}),
                "/properties/u/properties/w",
            ),
        ] {
            let mut s = given.clone();
            let blocked = apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap_err();
            assert!(!blocked.is_empty(), "{given}");
            for b in &blocked {
                assert!(
                    b.reason.contains(&format!("in the object at `{object}`,")),
                    "{given}: {}",
                    b.reason
                );
            }
        }
    }

    /// Trial 55 D4 and D7: Cohere's null for "not given" counts as given where the object's
    /// schema reads which members are given: an `anyOf` of `required` lists was met by it (a
    /// call with neither argument accepted), a `dependentRequired`, `dependentSchemas`,
    /// `not` with `required`, `maxProperties` refused calls without the argument, exit 0. Such
    /// an object is refused at each keyword that reads its first member; one whose keywords
    /// read only other members is still rewritten, and its verdicts hold.
    #[test]
    fn cohere_refuses_an_object_whose_schema_reads_whether_its_first_member_is_given() {
        let props = json!({"a":{"type":"string"},"b":{"type":"integer"}});
        for (more, at) in [
            (
                json!({"anyOf":[{"required":["a"]},{"required":["b"]}]}),
                "/anyOf/0/required",
            ),
            (
                json!({"oneOf":[{"required":["a"]},{"required":["b"]}]}),
                "/oneOf/0/required",
            ),
            (
                json!({"dependentRequired":{"a":["b"]}}),
                "/dependentRequired",
            ),
            (
                json!({"dependentRequired":{"b":["a"]}}),
                "/dependentRequired",
            ),
            (
                json!({"dependentSchemas":{"a":{"required":["b"]}}}),
                "/dependentSchemas",
            ),
            (
                json!({"dependentSchemas":{"b":{"required":["a"]}}}),
                "/dependentSchemas/b/required",
            ),
            (
                json!({"allOf":[{"not":{"required":["a"]}}]}),
                "/allOf/0/not/required",
            ),
            (
                json!({"if":{"properties":{"a":{"const":"x"}}}}),
                "/if/properties",
            ),
            (
                json!({"allOf":[{"properties":{"a":{"minLength":1}}},{"properties":{"a":{"const":"x"}}}]}),
                "/allOf/1/properties",
            ),
            (json!({"maxProperties":1}), "/maxProperties"),
            (json!({"minProperties":1}), "/minProperties"),
            (
                json!({"propertyNames":{"not":{"const":"a"}}}),
                "/propertyNames",
            ),
            (
                json!({"allOf":[{"properties":{"b":{}},"additionalProperties":false}]}),
                "/allOf/0/additionalProperties",
            ),
            (
                json!({"$ref":"#/$defs/D","$defs":{"D":{"dependentRequired":{"a":["b"]}}}}),
                "/$defs/D/dependentRequired",
            ),
        ] {
            let mut s = json!({"type":"object","properties":props});
            s.as_object_mut()
                .unwrap()
                .extend(more.as_object().unwrap().clone());
            let blocked = apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap_err();
            let places: Vec<&str> = blocked.iter().map(|b| b.pointer.as_str()).collect();
            assert_eq!(places, [at], "{more}");
            assert!(blocked[0].reason.contains("`a`"), "{}", blocked[0].reason);
        }
        let given = json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"},
            "c":{"type":"integer"}},"dependentRequired":{"b":["c"]},"minProperties":0,
            "propertyNames":{"maxLength":1},"allOf":[{"additionalProperties":true,"properties":{"a":{"minLength":1}}}],"anyOf":[{"required":["b"]},{"not":{"required":["c"]}}]});
        let mut s = given.clone();
        apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(s["required"], json!(["a"]));
        for call in [
            json!({}),
            json!({"b":1}),
            json!({"b":1,"c":2}),
            json!({"c":2}),
            json!({"a":"x","c":2}),
        ] {
            let mut wire = call.clone();
            wire.as_object_mut()
                .unwrap()
                .entry("a")
                .or_insert(Value::Null);
            assert_eq!(
                jsonschema::is_valid(&s, &wire),
                jsonschema::is_valid(&given, &call),
                "{call}"
            );
        }
    }

    #[test]
    fn absent_optional_arguments_travel_as_null() {
        let s = json!({"type":"object","properties":{"a":{"type":"string"},
            "l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}}}}});
        assert_eq!(
            to_wire_arguments(&json!({"l":[{"x":1}]}), &s),
            json!({"l":[{"x":1,"y":null}],"a":null})
        );
    }

    /// OpenAPI's `nullable` is written as JSON Schema in every strict form (before, it was
    /// sent as written, so a strict validator, which ignores it, refused null): what is
    /// written accepts null where `nullable: true` was said, and otherwise accepts and refuses
    /// every value as the schema without `nullable` did; `nullable: false` is dropped. Each
    /// change names the keyword's place in the schema as given, also below a schema that is
    /// wrapped in `anyOf`.
    #[test]
    fn openapi_nullable_is_written_as_json_schema_in_strict_forms() {
        let mut samples = samples();
        samples.extend([json!({"y": null}), json!({"y": "x"})]);
        for (s, said) in [
            (json!({"type":"string","nullable":true}), true),
            (json!({"type":"string","enum":["x"],"nullable":true}), true),
            (
                json!({"type":"string","nullable":true,"anyOf":[{"pattern":"^x"}]}),
                true,
            ),
            (json!({"nullable":true,"description":"d"}), true),
            (json!({"type":["string","null"],"nullable":true}), true),
            (json!({"type":"integer","nullable":false}), false),
            (
                json!({"nullable":true,"properties":{"y":{"type":"string","nullable":true}},"required":["y"]}),
                true,
            ),
        ] {
            let mut without = s.clone();
            without.as_object_mut().unwrap().shift_remove("nullable");
            let y_nullable = without.pointer("/properties/y/nullable").is_some();
            if y_nullable {
                without["properties"]["y"] = json!({"type":["string","null"]});
            }
            for form in [Form::Strict, Form::DeepSeekStrict, Form::CohereStrict] {
                let mut written =
                    json!({"type":"object","properties":{"a":s.clone()},"required":["a"]});
                let changes = apply(form, &mut written, None, MAX_INLINE_NODES).unwrap();
                let a = &written["properties"]["a"];
                assert!(!a.to_string().contains("nullable"), "{form:?} {s} -> {a}");
                let before = jsonschema::validator_for(&without).expect("a valid schema");
                let after = jsonschema::validator_for(a).expect("a valid schema");
                assert_eq!(after.is_valid(&Value::Null), said, "{form:?} {s} -> {a}");
                for v in &samples {
                    assert_eq!(
                        before.is_valid(v),
                        after.is_valid(v),
                        "{form:?} {s} -> {a} on {v}"
                    );
                }
                let at: Vec<&str> = changes
                    .iter()
                    .filter(|c| c.pointer.ends_with("/nullable"))
                    .map(|c| c.pointer.as_str())
                    .collect();
                let mut expected = vec!["/properties/a/nullable"];
                if y_nullable {
                    expected.push("/properties/a/properties/y/nullable");
                }
                assert_eq!(at, expected, "{form:?} {s}");
            }
        }
    }

    /// A `$ref` to a schema a wire form wraps in `anyOf` follows it (trial 43), through each
    /// wrap on its way (`z` is an optional argument too), written anew with its escapes, in
    /// Cohere's form too; one to a schema with OpenAPI's `nullable: true`
    /// keeps reaching the union (it meant the nullable schema), one into it follows. One read
    /// in a resource of its own is not followed: left broken, the tool is refused.
    #[test]
    fn a_ref_follows_the_schema_a_wire_form_wraps() {
        let object_or_id = json!({"anyOf":[
            {"type":"object","properties":{"z":{"type":"string"}}},{"type":"integer"}]});
        let mut s = json!({"type":"object","properties":{
            "a b":object_or_id,
            "c":{"$ref":"#/properties/a%20b/anyOf/0/properties/z"},
            "n":{"nullable":true,"properties":{"z":{"type":"string"}}},
            "m":{"$ref":"#/properties/n"},
            "k":{"$ref":"#/properties/n/properties/z"}},
            "required":["c","n","m","k"]});
        apply(Form::Strict, &mut s, None, MAX_INLINE_NODES).unwrap();
        let reached = |s: &Value, p: &str| s.pointer(p).cloned().unwrap_or_default();
        assert_eq!(
            reached(&s, "/properties/c/$ref"),
            "#/properties/a%20b/anyOf/0/anyOf/0/properties/z/anyOf/0"
        );
        assert_eq!(reached(&s, "/properties/m/$ref"), "#/properties/n");
        assert_eq!(
            reached(&s, "/properties/k/$ref"),
            "#/properties/n/anyOf/0/properties/z/anyOf/0"
        );
        assert_eq!(crate::schema::broken_ref(&s), None, "{s}");

        let mut s = json!({"type":"object","properties":{
            "a":{"type":"string"},"b":{"$ref":"#/properties/a"}}});
        apply(Form::CohereStrict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(s["properties"]["b"]["$ref"], "#/properties/a/anyOf/0");
        assert_eq!(s["properties"]["a"]["anyOf"][0], json!({"type":"string"}));

        let mut s = json!({"type":"object","properties":{"r":{"$id":"https://ex.com/r",
            "type":"object","properties":{"a":object_or_id,
            "b":{"$ref":"#/properties/a/anyOf/0/properties/z"}},"required":["b"]}},
            "required":["r"]});
        let blocked = apply(Form::Strict, &mut s, None, MAX_INLINE_NODES).unwrap_err();
        assert_eq!(blocked.len(), 1, "{blocked:?}");
        assert_eq!(blocked[0].pointer, "/properties/r/properties/b/$ref");
        assert!(
            blocked[0].reason.contains("wraps schemas in `anyOf`"),
            "{blocked:?}"
        );
    }

    /// Branches that say which members of the object around them are given (`anyOf` of
    /// `required` lists, or a branch declaring some of its properties) were closed as objects
    /// of their own, so no call matched them, with exit 0 and a loss line saying calls were
    /// accepted now (trial 43, D1): the keyword is refused, with what it said. Branches that
    /// declare every property, and branches of a schema that is no object, are not.
    #[test]
    fn branches_on_the_members_of_their_object_are_refused() {
        let object = |props: Value, applicator: Value| {
            let mut o = json!({"type":"object","properties":props});
            o.as_object_mut()
                .unwrap()
                .extend(applicator.as_object().unwrap().clone());
            json!({"type":"object","properties":{"by":o},"required":["by"]})
        };
        let ids = json!({"email":{"type":"string"},"id":{"type":"integer"}});
        let either = json!([{"required":["email"]},{"required":["id"]}]);
        for (applicator, says) in [
            (
                json!({"anyOf":either}),
                "at least one of `email`, `id` must be given",
            ),
            (
                json!({"oneOf":either}),
                "exactly one of `email`, `id` must be given",
            ),
            (
                json!({"anyOf":[{"required":["email"]},{"properties":{"email":{"const":"a"}}}]}),
                "branch 0 requires `email` without declaring it; branch 1 does not declare `id`",
            ),
            (
                json!({"anyOf":[{"type":"object","properties":{"id":{"const":1}},"required":["id"]}]}),
                "branch 0 does not declare `email`",
            ),
            // An inline discriminated union whose branches add members of their own (trial
            // 44): closing the object to `email` and `id` refuses `r`.
            (
                json!({"anyOf":[{"properties":{"email":{"const":"a"},"id":{"type":"integer"},
                    "r":{"type":"number"}},"required":["email","r"]}]}),
                "branch 0 declares `r`, which the object around it does not",
            ),
        ] {
            let mut s = object(ids.clone(), applicator.clone());
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let blocked = apply(form, &mut s.clone(), None, MAX_INLINE_NODES).unwrap_err();
                assert_eq!(blocked.len(), 1, "{applicator}: {blocked:?}");
                let at = format!(
                    "/properties/by/{}",
                    applicator.as_object().unwrap().keys().next().unwrap()
                );
                assert_eq!(blocked[0].pointer, at, "{applicator}");
                assert!(blocked[0].reason.contains(says), "{}", blocked[0].reason);
                assert!(blocked[0].reason.contains("strict mode cannot say this"));
            }
            s = object(ids.clone(), applicator);
            assert!(apply(Form::Plain, &mut s, None, MAX_INLINE_NODES).is_ok());
        }
        // An object declaring no property of its own, whose branches declare them, was
        // closed as `properties: {}` ("emptied", exit 0), which no call matches (trial 44).
        let shapes = json!({"type":"object","properties":{"o":{"type":"object","anyOf":[
            {"properties":{"a":{"type":"string"}},"required":["a"]},
            {"properties":{"b":{"type":"string"}},"required":["b"]}]}},"required":["o"]});
        let blocked = apply(Form::Strict, &mut shapes.clone(), None, MAX_INLINE_NODES).unwrap_err();
        assert_eq!(blocked.len(), 1, "{blocked:?}");
        assert_eq!(blocked[0].pointer, "/properties/o/anyOf");
        assert!(
            blocked[0].reason.contains(
                "branch 0 declares `a`, which the object around it does not; branch 1 declares \
                 `b`, which the object around it does not"
            ),
            "{}",
            blocked[0].reason
        );
        for fine in [
            object(
                ids.clone(),
                json!({"anyOf":[{"properties":{"email":{"const":"a"},"id":{"type":"integer"}},"required":["email"]}]}),
            ),
            json!({"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}),
        ] {
            assert!(
                apply(Form::Strict, &mut fine.clone(), None, MAX_INLINE_NODES).is_ok(),
                "{fine}"
            );
        }
    }

    /// Branches that are `$ref`s were not looked into: an object `{kind}` whose `anyOf` named
    /// the definitions `A {kind, r}` and `B {kind, s}` was closed to `kind`, so no call
    /// matched, and the tool compiled (trial 44, exit 0). They are judged by the schema their
    /// chain reaches, as inline branches are; a chain that reaches none ends and is left to
    /// the refusals of its own.
    #[test]
    fn ref_branches_are_judged_by_what_they_reach() {
        let with = |o: Value, defs: Value| json!({"type":"object","$defs":defs,"properties":{"o":o},"required":["o"]});
        let union = json!({"type":"object","properties":{"kind":{"type":"string"}},
            "required":["kind"],"anyOf":[{"$ref":"#/$defs/A"},{"$ref":"#/$defs/B"}]});
        let a_and_b = json!({
            "A":{"type":"object","properties":{"kind":{"const":"a"},"r":{"type":"number"}},
                "required":["kind","r"]},
            "B":{"type":"object","properties":{"kind":{"const":"b"},"s":{"type":"string"}},
                "required":["kind","s"]}});
        let ids = json!({"type":"object","properties":{"email":{"type":"string"},
            "id":{"type":"integer"}},"anyOf":[{"$ref":"#/$defs/E"},{"$ref":"#/$defs/I"}]});
        for (schema, says) in [
            (
                with(union.clone(), a_and_b.clone()),
                "branch 0 (a `$ref` to `#/$defs/A`) declares `r`, which the object around it \
                 does not; branch 1 (a `$ref` to `#/$defs/B`) declares `s`, which the object \
                 around it does not",
            ),
            // Reached through a chain of two references.
            (
                with(
                    json!({"type":"object","properties":{"kind":{"type":"string"}},
                        "oneOf":[{"$ref":"#/$defs/ToA"}]}),
                    json!({"ToA":{"$ref":"#/$defs/A"},"A":a_and_b["A"]}),
                ),
                "branch 0 (a `$ref` to `#/$defs/ToA`) declares `r`",
            ),
            (
                with(
                    ids,
                    json!({"E":{"required":["email"]},"I":{"required":["id"]}}),
                ),
                "at least one of `email`, `id` must be given",
            ),
        ] {
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let blocked = apply(form, &mut schema.clone(), None, MAX_INLINE_NODES).unwrap_err();
                assert_eq!(blocked.len(), 1, "{blocked:?}");
                assert!(
                    blocked[0].pointer.starts_with("/properties/o/"),
                    "{blocked:?}"
                );
                assert!(blocked[0].reason.contains(says), "{}", blocked[0].reason);
            }
            assert!(apply(Form::Plain, &mut schema.clone(), None, MAX_INLINE_NODES).is_ok());
        }
        // A definition declaring every property of the object is no condition on it.
        let whole = with(
            json!({"type":"object","properties":{"kind":{"type":"string"}},
                "allOf":[{"$ref":"#/$defs/K"}]}),
            json!({"K":{"type":"object","properties":{"kind":{"type":"string"}}}}),
        );
        assert!(apply(Form::Strict, &mut whole.clone(), None, MAX_INLINE_NODES).is_ok());
        // A cycle, and a chain past the hop limit ending in `A`: each ends, unjudged.
        let mut chain = a_and_b.clone();
        for i in 0..crate::schema::refs::MAX_REF_HOPS + 2 {
            chain[format!("C{i}")] = json!({"$ref": format!("#/$defs/C{}", i + 1)});
        }
        chain[format!("C{}", crate::schema::refs::MAX_REF_HOPS + 2)] = json!({"$ref":"#/$defs/A"});
        chain["L"] = json!({"$ref":"#/$defs/L"});
        let unreached = with(
            json!({"type":"object","properties":{"kind":{"type":"string"}},
                "anyOf":[{"$ref":"#/$defs/L"},{"$ref":"#/$defs/C0"}]}),
            chain,
        );
        assert!(apply(Form::Strict, &mut unreached.clone(), None, MAX_INLINE_NODES).is_ok());
    }

    /// A branch that is a `$ref` to a union of definitions, or an `anyOf` of them written
    /// inline, was judged only by what it declared itself (nothing): the object was closed to
    /// `kind` while each definition requires `r` or `s`, so no call matched, exit 0 (trial 46,
    /// D1). The applicators nested in a branch are read too, through `$ref`s, each schema
    /// once.
    #[test]
    fn nested_branches_are_judged_by_what_they_reach() {
        let a = json!({"type":"object","properties":{"kind":{"const":"a"},"r":{"type":"integer"}},
            "required":["kind","r"]});
        let b = json!({"type":"object","properties":{"kind":{"const":"b"},"s":{"type":"integer"}},
            "required":["kind","s"]});
        let with = |branches: Value, defs: Value| {
            json!({"type":"object","properties":{"o":{"type":"object",
                "properties":{"kind":{"type":"string"}},"required":["kind"],"anyOf":branches}},
                "required":["o"],"$defs":defs})
        };
        for (schema, says) in [
            (
                with(
                    json!([{"$ref":"#/$defs/AB"}]),
                    json!({"AB":{"anyOf":[a.clone(),b.clone()]}}),
                ),
                "branch 0 (a `$ref` to `#/$defs/AB`) declares `r` and `s`, which the object \
                 around it does not",
            ),
            (
                with(json!([{"anyOf":[a.clone(),b.clone()]}]), json!({})),
                "branch 0 declares `r` and `s`",
            ),
            (
                with(
                    json!([{"allOf":[{"$ref":"#/$defs/A"}]}]),
                    json!({"A":a.clone()}),
                ),
                "branch 0 declares `r`",
            ),
            // A cycle through applicators ends: `AB` is read once.
            (
                with(
                    json!([{"$ref":"#/$defs/AB"}]),
                    json!({"AB":{"oneOf":[{"$ref":"#/$defs/AB"},a.clone()]}}),
                ),
                "branch 0 (a `$ref` to `#/$defs/AB`) declares `r`",
            ),
        ] {
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let blocked = apply(form, &mut schema.clone(), None, MAX_INLINE_NODES).unwrap_err();
                assert_eq!(blocked.len(), 1, "{blocked:?}");
                assert_eq!(blocked[0].pointer, "/properties/o/anyOf");
                assert!(blocked[0].reason.contains(says), "{}", blocked[0].reason);
            }
        }
        // A nested union declaring only the object's members, a null among them, is no
        // condition on it, and what is written takes the calls the original does.
        let kinds = with(
            json!([{"$ref":"#/$defs/K"}]),
            json!({"K":{"anyOf":[{"type":"object","properties":{"kind":{"const":"a"}}},
                {"type":"null"}]}}),
        );
        let mut s = kinds.clone();
        apply(Form::Strict, &mut s, None, MAX_INLINE_NODES).unwrap();
        let call = json!({"o":{"kind":"a"}});
        assert!(jsonschema::is_valid(&kinds, &call) && jsonschema::is_valid(&s, &call));
        // A chain of unions deeper than the nesting cap ends, unjudged past it.
        let mut defs = Map::new();
        for i in 0..MAX_DEPTH + 10 {
            defs.insert(
                format!("D{i}"),
                json!({"anyOf":[{"$ref":format!("#/$defs/D{}", i + 1)}]}),
            );
        }
        defs.insert(format!("D{}", MAX_DEPTH + 10), a.clone());
        let deep = with(json!([{"$ref":"#/$defs/D0"}]), Value::Object(defs));
        assert!(apply(Form::Strict, &mut deep.clone(), None, MAX_INLINE_NODES).is_ok());
    }

    /// A `then` declaring a member its object does not (`r`, inline or through a `$ref`) was
    /// dropped and the object closed to `kind`, so every call the condition sent to `then`
    /// was refused, and the report said only that `then` was no longer enforced (trial 46,
    /// D6, exit 0). It is refused at the keyword, as a branch is; a `then` or `else` naming
    /// only the object's own members is closed as before.
    #[test]
    fn then_and_else_naming_members_the_object_lacks_are_refused() {
        let a = json!({"type":"object","properties":{"kind":{"const":"a"},"r":{"type":"integer"}},
            "required":["kind","r"]});
        let with = |conditional: Value| {
            let mut o = json!({"type":"object","properties":{"kind":{"type":"string"}},
                "required":["kind"],"if":{"properties":{"kind":{"const":"a"}}}});
            o.as_object_mut()
                .unwrap()
                .extend(conditional.as_object().unwrap().clone());
            json!({"type":"object","properties":{"o":o},"required":["o"],"$defs":{"A":a}})
        };
        for (conditional, at, says) in [
            (
                json!({"then":a}),
                "/properties/o/then",
                "`then` declares `r`, which the object around it does not declare",
            ),
            (
                json!({"then":{"$ref":"#/$defs/A"}}),
                "/properties/o/then",
                "`then` (a `$ref` to `#/$defs/A`) declares `r`, which",
            ),
            (
                json!({"else":{"required":["w"]}}),
                "/properties/o/else",
                "`else` requires `w`, which the object around it does not declare",
            ),
            // Trial 48 D5: `dependentRequired` requires as `required` does; an `if` or `not`
            // declaring `r` says calls may carry it.
            (
                json!({"then":{"dependentRequired":{"kind":["r"]}}}),
                "/properties/o/then",
                "`then` requires `r`, which the object around it does not declare",
            ),
            (
                json!({"if":{"properties":{"r":{"const":1}},"required":["r"]}}),
                "/properties/o/if",
                "`if` declares `r`, which the object around it does not declare",
            ),
            (
                json!({"not":{"properties":{"r":{"type":"string"}},"required":["r"]}}),
                "/properties/o/not",
                "`not` declares `r`, which the object around it does not declare",
            ),
        ] {
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let blocked = apply(form, &mut with(conditional.clone()), None, MAX_INLINE_NODES)
                    .unwrap_err();
                assert_eq!(blocked.len(), 1, "{blocked:?}");
                assert_eq!(blocked[0].pointer, at);
                assert!(blocked[0].reason.contains(says), "{}", blocked[0].reason);
            }
            assert!(apply(Form::Plain, &mut with(conditional), None, MAX_INLINE_NODES).is_ok());
        }
        let own = with(
            json!({"then":{"properties":{"kind":{"const":"a"}},"required":["kind"]},
            "else":{"required":["kind"]},"not":{"required":["w"]}}),
        );
        let mut s = own.clone();
        // A member `not` requires is one the object must not carry: closing keeps that.
        apply(Form::Strict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(s["properties"]["o"]["then"]["required"], json!(["kind"]));
    }

    /// A branch declaring no member (annotation only, a `not`) is closed to none, so the
    /// object's own members would be refused in every call: refused as a branch leaving them
    /// out is (trial 48 D14: exit 0, no call valid, "the model can send only `{}` there").
    #[test]
    fn a_branch_declaring_no_member_is_refused() {
        for branch in [
            json!({"not":{"properties":{"r":{"type":"string"}},"required":["r"]}}),
            json!({"type":"object"}),
        ] {
            let o = json!({"type":"object","properties":{"kind":{"type":"string"}},
                "required":["kind"],"anyOf":[branch]});
            let given = json!({"type":"object","properties":{"o":o},"required":["o"]});
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let blocked = apply(form, &mut given.clone(), None, MAX_INLINE_NODES).unwrap_err();
                assert_eq!(blocked.len(), 1, "{form:?} {branch}: {blocked:?}");
                assert_eq!(blocked[0].pointer, "/properties/o/anyOf");
                assert!(
                    blocked[0]
                        .reason
                        .starts_with("branch 0 does not declare `kind`"),
                    "{blocked:?}"
                );
            }
        }
    }

    /// A branch asserting nothing (`{}`, annotations only) accepts every value, as `true` does;
    /// it was closed to no member and refused with a false reason (trial 50 D11), then written
    /// as `true`, which the strict targets' offline models refuse as they refuse `{}` (trial
    /// 60 D1). It is left out, with its `anyOf` (or one-branch `oneOf`), which then accepts
    /// every value too (exact). A `oneOf` of more branches keeps being judged: there such a
    /// branch is no `true` to the rest.
    #[test]
    fn a_branch_asserting_nothing_is_left_out() {
        let object = |keyword: &str, branches: Value| {
            json!({"type":"object","properties":{"o":{"type":"object",
                "properties":{"k":{"type":"string"}},"required":["k"],keyword: branches}},
                "required":["o"]})
        };
        for (keyword, branch) in [
            ("anyOf", json!({})),
            ("anyOf", json!({"description":"x"})),
            ("oneOf", json!({"title":"x"})),
            // Definitions, content annotations and a format beside `type: object` assert
            // nothing either (trial 52 D3: refused, "branch 0 does not declare `k`").
            ("anyOf", json!({"$defs":{"X":{"type":"integer"}}})),
            (
                "anyOf",
                json!({"contentMediaType":"text/plain","contentSchema":{"type":"integer"}}),
            ),
            ("anyOf", json!({"format":"email"})),
            (
                "oneOf",
                json!({"definitions":{"X":{"type":"integer"}},"contentEncoding":"base64"}),
            ),
            // An extension key, and identifiers no `$ref` names (trial 54 D9: refused, "branch
            // 0 does not declare `k`").
            ("anyOf", json!({"x-foo":1})),
            ("anyOf", json!({"$anchor":"a","description":"x"})),
            ("anyOf", json!({"$id":"urn:b","description":"x"})),
            ("anyOf", json!({"$dynamicAnchor":"d"})),
            (
                "anyOf",
                json!({"$schema":"https://json-schema.org/draft/2020-12/schema"}),
            ),
        ] {
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let mut s = object(keyword, json!([branch]));
                let changes = apply(form, &mut s, None, MAX_INLINE_NODES).unwrap();
                assert_eq!(s["properties"]["o"].get(keyword), None, "{form:?} {branch}");
                let at = format!("/properties/o/{keyword}");
                assert!(
                    changes.iter().any(|c| c.pointer == at
                        && c.lost.is_none()
                        && c.action.contains("asserts nothing")),
                    "{changes:?}"
                );
            }
        }
        // An `allOf` of such branches alone is left out: a target without `allOf` takes the
        // object (trial 52 D15: deepseek/beta-strict refused it).
        for form in [Form::Strict, Form::DeepSeekStrict] {
            let mut s = object("allOf", json!([{}, {"description":"x"}, true]));
            let changes = apply(form, &mut s, None, MAX_INLINE_NODES).unwrap();
            assert!(s["properties"]["o"].get("allOf").is_none(), "{s}");
            assert!(
                changes
                    .iter()
                    .any(|c| c.pointer == "/properties/o/allOf" && c.lost.is_none()),
                "{changes:?}"
            );
        }
        let other = json!({"properties":{"k":{"type":"string","maxLength":2}}});
        let mut s = object("anyOf", json!([{}, other.clone()]));
        apply(Form::Strict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(s["properties"]["o"].get("anyOf"), None);
        // An `allOf` keeps its other branches, the same without the one asserting nothing.
        let mut s = object("allOf", json!([{}, other.clone(), true]));
        let changes = apply(Form::Strict, &mut s, None, MAX_INLINE_NODES).unwrap();
        assert_eq!(
            s["properties"]["o"]["allOf"].as_array().map(Vec::len),
            Some(1)
        );
        assert!(
            changes.iter().any(|c| c.pointer == "/properties/o/allOf"
                && c.action == "dropped the `allOf`'s branches 0, 2, which assert nothing (it accepts every value)"),
            "{changes:?}"
        );
        let blocked = apply(
            Form::Strict,
            &mut object("oneOf", json!([{}, other])),
            None,
            MAX_INLINE_NODES,
        )
        .unwrap_err();
        assert_eq!(blocked[0].pointer, "/properties/o/oneOf", "{blocked:?}");
    }

    /// A branch asserting nothing but holding definitions a `$ref` outside it reaches is
    /// refused, naming the reference: written as `true`, the reference would reach nothing.
    /// One reached only by its own `$ref`s is left out with them (trial 52 D3; written as
    /// `true` until trial 60 D1).
    #[test]
    fn definitions_a_ref_reaches_keep_their_branch() {
        let tool = |n: Value, defs: Value| {
            json!({"type":"object","properties":{"n":n,"o":{"type":"object",
                "properties":{"k":{"type":"string"}},"required":["k"],
                "anyOf":[{"$defs":defs}]}},"required":["n","o"]})
        };
        let x = json!({"type":"integer"});
        let into = "#/properties/o/anyOf/0/$defs/X";
        for form in [Form::Strict, Form::DeepSeekStrict] {
            let mut s = tool(json!({"$ref": into}), json!({"X": x}));
            let blocked = apply(form, &mut s, None, MAX_INLINE_NODES).unwrap_err();
            assert_eq!(blocked.len(), 1, "{blocked:?}");
            assert_eq!(blocked[0].pointer, "/properties/o/anyOf/0");
            assert!(
                blocked[0]
                    .reason
                    .contains(&format!("`$ref` {into:?} points into it")),
                "{blocked:?}"
            );
            let mut s = tool(
                json!({"type":"string"}),
                json!({"X": x, "Y": {"$ref": into}}),
            );
            apply(form, &mut s, None, MAX_INLINE_NODES).unwrap();
            assert_eq!(s["properties"]["o"].get("anyOf"), None, "{form:?}");
        }
    }

    /// A branch holding a `format` beside `type: object` asserts nothing there, but a `$ref`
    /// naming the branch itself applies the format to a string: written as `true`, the
    /// compiled tool accepted `"e": "notanemail"`, exit 0 (trial 54 D1).
    #[test]
    fn a_format_branch_a_ref_names_is_not_written_as_true() {
        let tool = |e: Value| {
            json!({"type":"object","properties":{"o":{"type":"object",
                "properties":{"k":{"type":"string"}},"required":["k"],
                "anyOf":[{"format":"email"}]},"e":e},"required":["o","e"]})
        };
        let to = "#/properties/o/anyOf/0";
        for form in [Form::Strict, Form::DeepSeekStrict] {
            let mut s = tool(json!({"type":"string","$ref": to}));
            let blocked = apply(form, &mut s, None, MAX_INLINE_NODES).unwrap_err();
            assert_eq!(blocked.len(), 1, "{blocked:?}");
            assert_eq!(blocked[0].pointer, "/properties/o/anyOf/0");
            assert!(
                blocked[0]
                    .reason
                    .contains(&format!("`$ref` {to:?} names it, applying its `format`")),
                "{blocked:?}"
            );
            // Unnamed, it is left out with its `anyOf`, as any branch asserting nothing.
            let mut s = tool(json!({"type":"string"}));
            apply(form, &mut s, None, MAX_INLINE_NODES).unwrap();
            assert_eq!(s["properties"]["o"].get("anyOf"), None, "{form:?}");
        }
    }

    /// A branch asserting nothing that a `$ref` may name by its own anchor or `$id` is refused
    /// with that reason, not with "does not declare `k`" (trial 54 D9), nor written as `true`.
    #[test]
    fn a_branch_a_ref_may_name_by_its_identifier_is_refused_so() {
        for (branch, n) in [
            (
                json!({"$anchor":"a","format":"email"}),
                json!({"$ref":"#a"}),
            ),
            (json!({"$id":"urn:b"}), json!({"$ref":"urn:b"})),
            (json!({"$dynamicAnchor":"d"}), json!({"$dynamicRef":"#d"})),
        ] {
            let mut s = json!({"type":"object","properties":{"n":n,"o":{"type":"object",
                "properties":{"k":{"type":"string"}},"required":["k"],"anyOf":[branch]}},
                "required":["n","o"]});
            let blocked = apply(Form::Strict, &mut s, None, MAX_INLINE_NODES).unwrap_err();
            assert!(
                blocked.iter().any(|b| b.pointer == "/properties/o/anyOf/0"
                    && b.reason.contains("may name it by its anchor or `$id`")),
                "{blocked:?}"
            );
            assert!(
                !blocked
                    .iter()
                    .any(|b| b.reason.contains("does not declare")),
                "{blocked:?}"
            );
        }
    }

    /// A `then` a `$ref` leads to, in an `anyOf` branch or in the object's own `then`, is read
    /// as one written in place (trial 48 D13: exit 0, every call carrying `r` refused).
    #[test]
    fn a_then_behind_a_ref_is_judged() {
        let a = json!({"type":"object","properties":{"kind":{"const":"a"},"r":{"type":"integer"}},
            "required":["kind","r"]});
        let kind = json!({"kind":{"type":"string"}});
        for (o, c, at, says) in [
            (
                json!({"type":"object","properties":kind,"required":["kind"],
                    "anyOf":[{"$ref":"#/$defs/C"}]}),
                json!({"if":{"properties":{"kind":{"const":"a"}}},"then":a}),
                "/properties/o/anyOf",
                "branch 0 (a `$ref` to `#/$defs/C`) declares `r`",
            ),
            (
                json!({"type":"object","properties":kind,"required":["kind"],
                    "if":{"properties":{"kind":{"const":"a"}}},"then":{"$ref":"#/$defs/C"}}),
                json!({"if":{"required":["kind"]},"then":{"required":["r"]}}),
                "/properties/o/then",
                "`then` (a `$ref` to `#/$defs/C`) requires `r`",
            ),
        ] {
            let given =
                json!({"type":"object","properties":{"o":o},"required":["o"],"$defs":{"C":c}});
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let blocked = apply(form, &mut given.clone(), None, MAX_INLINE_NODES).unwrap_err();
                assert!(
                    blocked
                        .iter()
                        .any(|b| b.pointer == at && b.reason.starts_with(says)),
                    "{form:?} {blocked:?}"
                );
            }
        }
    }

    /// An object's own `dependentRequired`, `dependencies` (both forms) or `minProperties`
    /// asking for more than it declares is refused, naming the member; one asking for
    /// declared members only, or with a trigger no property declares, is not (trial 50 D9:
    /// exit 0, the closed output refusing every call the original accepts).
    /// Closing an object whose `patternProperties` declares members says the model can no
    /// longer send them, as for `additionalProperties: true`; an object with neither says
    /// nothing (every open object would).
    #[test]
    fn closing_away_pattern_members_is_a_loss() {
        let o = |v: Value| v.as_object().unwrap().clone();
        let with = o(json!({"type":"object","properties":{"a":{}},
            "patternProperties":{"^x":{"type":"integer"},"^y":{}}}));
        let lost = closing_loses(None, &with, "/properties/o").unwrap();
        assert_eq!(
            lost,
            "undeclared members whose names match `patternProperties` (`^x`, `^y`): the model \
             can no longer send them"
        );
        let without = o(json!({"type":"object","properties":{"a":{}}}));
        assert_eq!(closing_loses(None, &without, "/properties/o"), None);
    }

    /// Members the schema as given already refused are no loss of the closing: a pattern
    /// whose schema admits nothing lets no member in, and `additionalProperties: {"not": {}}`
    /// none (trial 62 D4: both were said to be members the model can no longer send).
    #[test]
    fn closing_away_members_already_refused_is_no_loss() {
        let loses = |v: Value| {
            let o = v.as_object().unwrap().clone();
            closing_loses(o.get("additionalProperties"), &o, "/properties/o")
        };
        let with =
            |patterns: Value| json!({"properties": {"a": {}}, "patternProperties": patterns});
        assert_eq!(loses(with(json!({"^y": false}))), None);
        assert_eq!(
            loses(with(json!({"^y": {"not": {}, "type": "string"}}))),
            None
        );
        assert_eq!(
            loses(with(json!({"^y": false, "^x": {"type": "integer"}}))).as_deref(),
            Some(
                "undeclared members whose names match `patternProperties` (`^x`): the model \
                 can no longer send them"
            )
        );
        let mut open = with(json!({"^y": false}));
        open["additionalProperties"] = json!(true);
        assert_eq!(
            loses(open).as_deref(),
            Some(
                "members beyond the declared properties (`additionalProperties: true`), save \
                 those whose names match `patternProperties` that refuse them (`^y`): the \
                 model can no longer send them"
            )
        );
        let refusing = json!({"properties": {"a": {}}, "additionalProperties": {"not": {}}});
        assert_eq!(loses(refusing.clone()), None);
        // As given, where repair dropped it before the form closed the object.
        let mut changes = vec![change("/properties/o", CLOSED.into(), None)];
        closing_given_back(&mut changes, &json!({"properties": {"o": refusing}}));
        assert_eq!(changes[0].lost, None);
        // A `$ref` beside the `not` is not judged: drafts 04 to 07 ignore the `not`.
        assert!(
            admits_nothing(&json!({"not": {}}))
                && !admits_nothing(&json!({"not": {"type": "string"}}))
        );
        assert!(!admits_nothing(&json!({"$ref": "#/$defs/s", "not": {}})));
    }

    /// A closing that said no loss, of an object whose schema as given let members beyond
    /// its properties in by a schema for them or by `patternProperties` (repair dropped them
    /// before the form closed it), says what the given schema allowed (trial 52 D2, D10).
    #[test]
    fn a_closing_says_what_the_given_schema_let_in() {
        let closed = |at: &str| change(at, CLOSED.into(), None);
        let mut changes = vec![closed("/properties/m"), closed("/properties/p"), closed("")];
        let original = json!({"type":"object","properties":{
            "m":{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"integer"}},
            "p":{"type":"object","properties":{"a":{}},"additionalProperties":false,
                "patternProperties":{"^x":{}}}}});
        closing_given_back(&mut changes, &original);
        let lost: Vec<Option<&str>> = changes.iter().map(|c| c.lost.as_deref()).collect();
        assert_eq!(
            lost,
            [
                Some(
                    "members beyond the declared properties (`additionalProperties: \
                     {\"type\":\"integer\"}`): the model can no longer send them"
                ),
                Some(
                    "undeclared members whose names match `patternProperties` (`^x`): the model \
                     can no longer send them"
                ),
                None,
            ]
        );
    }

    /// An object as given with both a map and `patternProperties`, closed by the form after
    /// repair dropped the map and before the offline model dropped the patterns: the closing
    /// names both kinds of member, and neither drop line says "no longer enforces" (trial 61
    /// D6: openai/chat-strict kept the map's drop loss, and the closing named the patterns
    /// alone; deepseek/beta-strict named the map alone and kept the patterns' drop loss).
    #[test]
    fn a_closing_names_the_map_and_the_patterns_it_took_away() {
        let drop = |k: &str| {
            change(
                &format!("/properties/v/{k}"),
                format!("dropped `{k}: ...`"),
                Some(format!("the provider no longer enforces `{k}`")),
            )
        };
        let in_place = closing_loses(
            None,
            json!({"properties": {"a": {}}, "patternProperties": {"^x": {}}})
                .as_object()
                .unwrap(),
            "/properties/v",
        );
        let mut changes = vec![
            drop("additionalProperties"),
            change("/properties/v", CLOSED.into(), in_place),
            drop("patternProperties"),
        ];
        let original = json!({"type": "object", "properties": {"v": {"type": "object",
            "properties": {"a": {"type": "string"}}, "patternProperties": {"^x": {"type": "integer"}},
            "additionalProperties": {"type": "string"}}}});
        closing_given_back(&mut changes, &original);
        let lost: Vec<Option<&str>> = changes.iter().map(|c| c.lost.as_deref()).collect();
        assert_eq!(
            lost,
            [
                None,
                Some(
                    "members beyond the declared properties (`additionalProperties: \
                     {\"type\":\"string\"}`) and undeclared members whose names match \
                     `patternProperties` (`^x`): the model can no longer send them"
                ),
                None,
            ]
        );
    }

    /// A pattern that matches a declared property also held that property to its schema:
    /// dropped, the provider no longer enforces it on that property, so its drop line keeps
    /// that loss, and the closing speaks of undeclared members only (trial 62 D3: `^x$:
    /// {minLength: 1}` beside a declared `x` was said to be members the model can no longer
    /// send, and the `minLength` lost on `x` went unsaid).
    #[test]
    fn a_pattern_matching_a_declared_property_keeps_its_drop_loss() {
        let drop = || {
            change(
                "/properties/v/patternProperties",
                "dropped `patternProperties: ...`".into(),
                Some("the provider no longer enforces `patternProperties`".into()),
            )
        };
        let given = |pattern: &str| {
            json!({"type": "object", "properties": {"v": {"type": "object",
                "properties": {"x": {"type": "string"}},
                "patternProperties": {pattern: {"minLength": 1}}}}})
        };
        for (pattern, kept) in [("^x$", true), ("^y", false)] {
            let mut changes = vec![drop(), change("/properties/v", CLOSED.into(), None)];
            closing_given_back(&mut changes, &given(pattern));
            assert_eq!(changes[0].lost.is_some(), kept, "{pattern}");
            assert_eq!(
                changes[1].lost.as_deref(),
                Some(
                    format!(
                        "undeclared members whose names match `patternProperties` (`{pattern}`): \
                         the model can no longer send them"
                    )
                    .as_str()
                )
            );
        }
    }

    #[test]
    fn demands_beyond_the_declared_members_are_refused() {
        let with = |k: &str, v: Value| {
            let mut o = json!({"type":"object","properties":{"kind":{"type":"string"}},
                "required":["kind"]});
            o[k] = v;
            json!({"type":"object","properties":{"o":o},"required":["o"]})
        };
        for (k, v, says) in [
            (
                "dependentRequired",
                json!({"kind":["r"]}),
                "`dependentRequired` asks for `r` with `kind`",
            ),
            (
                "dependencies",
                json!({"kind":["r"]}),
                "`dependencies` asks for `r` with `kind`",
            ),
            (
                "dependencies",
                json!({"kind":{"required":["r"]}}),
                "`dependencies` asks for `r`",
            ),
            (
                "minProperties",
                json!(2),
                "`minProperties: 2` asks for more members",
            ),
        ] {
            let given = with(k, v.clone());
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let blocked = conditionals_given(form, &given, &given);
                assert!(
                    blocked.len() == 1
                        && blocked[0].pointer == format!("/properties/o/{k}")
                        && blocked[0].reason.starts_with(says),
                    "{k} {v} {form:?}: {blocked:?}"
                );
            }
            assert!(conditionals_given(Form::Plain, &given, &given).is_empty());
            // The same demand inside an `allOf` branch, nested or not, is the object's own;
            // in an `anyOf` branch (repair dropped it and wrote the branch left empty as
            // `true`, trial 52 D14) it is refused too, and so through a `$ref` (trial 52 D4).
            for (keyword, branch, at) in [
                ("anyOf", json!({k: v}), "anyOf/0"),
                ("allOf", json!({"$ref": "#/$defs/D"}), "$defs/D"),
            ] {
                let mut given = with(keyword, json!([branch]));
                given["$defs"] = json!({"D": {k: v}});
                let blocked = conditionals_given(Form::Strict, &given, &given);
                let want = if at.starts_with('$') {
                    format!("/{at}/{k}")
                } else {
                    format!("/properties/o/{at}/{k}")
                };
                assert!(
                    blocked
                        .iter()
                        .any(|b| b.pointer == want && b.reason.starts_with(says)),
                    "{keyword} {k} {v}: {blocked:?}"
                );
            }
            for (branch, at) in [
                (json!({k: v}), "allOf/0"),
                (
                    json!({"allOf":[{"description":"d"}, {k: v}]}),
                    "allOf/0/allOf/1",
                ),
            ] {
                let given = with("allOf", json!([branch]));
                let blocked = conditionals_given(Form::Strict, &given, &given);
                assert!(
                    blocked.len() == 1
                        && blocked[0].pointer == format!("/properties/o/{at}/{k}")
                        && blocked[0].reason.starts_with(says),
                    "allOf {k} {v}: {blocked:?}"
                );
            }
        }
        for (k, v) in [
            ("dependentRequired", json!({"kind":["kind"]})),
            ("dependentRequired", json!({"other":["r"]})),
            ("minProperties", json!(1)),
        ] {
            let given = with(k, v.clone());
            assert!(
                conditionals_given(Form::Strict, &given, &given).is_empty(),
                "{k} {v}"
            );
        }
    }

    /// Repair drops an `if`, `not`, or the `dependentRequired` of a `then`, where the target
    /// rejects it, before `close` sees it: they are judged in the schema as given, with the
    /// object's members as repair left them (trial 48 D5: exit 0 for openai/chat-strict and
    /// openai/responses-strict, the output refusing every call carrying `r`).
    /// A `then` or `else` with no `if` beside it never applies: not judged, however many
    /// members it names (trial 50 D13: refused as "`then` requires `r`").
    #[test]
    fn a_then_without_an_if_is_not_judged() {
        for k in ["then", "else"] {
            let mut o = json!({"type":"object","properties":{"kind":{"type":"string"}},
                "required":["kind"]});
            o[k] = json!({"properties":{"r":{"type":"integer"}},"required":["r"]});
            let given = json!({"type":"object","properties":{"o":o.clone()},"required":["o"]});
            assert!(
                conditionals_given(Form::Strict, &given, &given).is_empty(),
                "{k}"
            );
            o["if"] = json!({"required":["kind"]});
            let given = json!({"type":"object","properties":{"o":o},"required":["o"]});
            assert!(
                !conditionals_given(Form::Strict, &given, &given).is_empty(),
                "{k}"
            );
        }
    }

    #[test]
    fn conditionals_are_judged_as_given() {
        let o = json!({"type":"object","properties":{"kind":{"type":"string"}},"required":["kind"],
            "if":{"properties":{"kind":{"const":"a"}}},"then":{"dependentRequired":{"kind":["r"]}}});
        let given = json!({"type":"object","properties":{"o":o},"required":["o"]});
        let repaired = json!({"type":"object","properties":{"o":{"type":"object",
            "properties":{"kind":{"type":"string"}},"required":["kind"],"then":{}}},"required":["o"]});
        for form in [Form::Strict, Form::DeepSeekStrict] {
            let blocked = conditionals_given(form, &given, &repaired);
            assert_eq!(blocked.len(), 1, "{form:?} {blocked:?}");
            assert_eq!(blocked[0].pointer, "/properties/o/then");
            assert!(
                blocked[0].reason.starts_with("`then` requires `r`"),
                "{blocked:?}"
            );
        }
        assert!(conditionals_given(Form::Plain, &given, &repaired).is_empty());
        // A member repair gave the object (a merged `allOf`) is its own.
        let merged = json!({"type":"object","properties":{"o":{"type":"object",
            "properties":{"kind":{"type":"string"},"r":{}}}}});
        assert!(conditionals_given(Form::Strict, &given, &merged).is_empty());
    }

    /// A `$ref` with keywords beside it that make an object or hold branches was closed as two
    /// schemas, each refusing the other's members (trial 45: compile exit 0, every call
    /// refused). It is merged into one schema first, which accepts the calls the original
    /// does; where the merge is not exact, or the schema cannot be inlined, the `$ref` is
    /// refused, once.
    #[test]
    fn a_ref_with_keywords_beside_it_is_merged_before_closing_or_refused() {
        let x =
            json!({"X":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}});
        let z = json!({"z":{"type":"string"}});
        for (o, call) in [
            (
                json!({"$ref":"#/$defs/X","properties":z,"required":["z"]}),
                json!({"o":{"x":"a","z":"b"}}),
            ),
            (
                json!({"type":"object","$ref":"#/$defs/X"}),
                json!({"o":{"x":"a"}}),
            ),
            (
                json!({"anyOf":[{"$ref":"#/$defs/X","properties":z},{"type":"string"}]}),
                json!({"o":{"x":"a","z":"b"}}),
            ),
        ] {
            let given = json!({"type":"object","properties":{"o":o},"required":["o"],"$defs":x});
            assert!(jsonschema::is_valid(&given, &call));
            for form in [Form::Strict, Form::DeepSeekStrict] {
                let mut s = given.clone();
                apply(form, &mut s, None, MAX_INLINE_NODES).unwrap();
                assert!(jsonschema::is_valid(&s, &call), "{form:?} {o} -> {s}");
            }
        }
        // `required` alone beside it, naming a member its target does not declare (trial 46:
        // the target closed, `w` kept required, no call valid): merged, and refused as an
        // object written inline is, naming `w` (trial 48 D2).
        let given = json!({"type":"object","properties":{"o":{"$ref":"#/$defs/X","required":["w"]}},
            "required":["o"],"$defs":x});
        for form in [Form::Strict, Form::DeepSeekStrict] {
            let blocked = apply(form, &mut given.clone(), None, MAX_INLINE_NODES).unwrap_err();
            assert_eq!(blocked.len(), 1, "{form:?} {blocked:?}");
            assert_eq!(blocked[0].pointer, "/properties/o/required", "{form:?}");
            assert!(
                blocked[0].reason.contains("names `w`"),
                "{form:?} {blocked:?}"
            );
        }
        for (o, at, says) in [
            (
                json!({"$ref":"#/$defs/X","properties":{"x":{"type":"integer"}}}),
                "/properties/o/$ref",
                "`$ref` to `#/$defs/X` sits next to `properties`, which its target also sets \
                 differently. Make",
            ),
            (
                json!({"$ref":"#/$defs/R","properties":z}),
                "/properties/o/$ref",
                "this schema's cannot all be: `$ref` to `#/$defs/R` is recursive; a recursive \
                 schema cannot be written out (at /$defs/R/properties/r/$ref, reached through \
                 /properties/o)",
            ),
        ] {
            let mut defs = x.clone();
            defs["R"] = json!({"type":"object","properties":{"r":{"$ref":"#/$defs/R"}}});
            let mut s = json!({"type":"object","properties":{"o":o},"required":["o"],"$defs":defs});
            let blocked = apply(Form::Strict, &mut s, None, MAX_INLINE_NODES).unwrap_err();
            assert_eq!(blocked.len(), 1, "{blocked:?}");
            assert_eq!(blocked[0].pointer, at);
            assert!(blocked[0].reason.contains(says), "{}", blocked[0].reason);
        }
    }

    /// The merge of a `$ref` with keywords beside it used the default expansion cap whatever
    /// `--max-inline-nodes` said, and named it (trial 46, D3: refused "past 10000 nodes" with
    /// the cap raised to 1,000,000). The cap given is the one used and named.
    #[test]
    fn the_ref_merge_honours_the_expansion_cap_given() {
        let d0: Map<String, Value> = (0..200)
            .map(|i| (format!("p{i}"), json!({"type":"string"})))
            .collect();
        let d1: Map<String, Value> = (0..60)
            .map(|i| (format!("a{i}"), json!({"$ref":"#/$defs/D0"})))
            .collect();
        let s = json!({"type":"object","properties":{"o":{"$ref":"#/$defs/D1",
            "properties":{"z":{"type":"string"}}}},"required":["o"],
            "$defs":{"D0":{"type":"object","properties":d0},"D1":{"type":"object","properties":d1}}});
        for (cap, merged) in [(MAX_INLINE_NODES, false), (1_000_000, true), (50, false)] {
            let r = apply(Form::Strict, &mut s.clone(), None, cap);
            assert_eq!(r.is_ok(), merged, "cap {cap}");
            if let Err(blocked) = r {
                assert_eq!(blocked[0].pointer, "/properties/o/$ref");
                let says = format!("past {cap} nodes (the expansion cap)");
                assert!(blocked[0].reason.contains(&says), "{}", blocked[0].reason);
            }
        }
    }

    #[test]
    fn gemini_nullable_reads_as_json_schema() {
        let s = json!({"type":"object","properties":{"a":{"type":"string","nullable":true}}});
        assert_eq!(
            nullable_as_json_schema(&s),
            json!({"type":"object","properties":{"a":{"type":["string","null"]}}})
        );
    }
}
