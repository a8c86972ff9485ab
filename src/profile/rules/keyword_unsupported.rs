//! `keyword-unsupported`: a keyword the profile does not allow at that placement.

use super::*;
use crate::profile::keyword;

pub const RULE: Rule = Rule {
    id: "keyword-unsupported",
    checks: "Every key of every subschema that is not a property name, judged by the \
             `keyword-allowed` case for that keyword at that placement (root, nested, items, \
             anyOf branch). Forms are judged separately where they matter: \
             `additionalProperties` false/true/schema, draft-4 boolean `exclusiveMinimum` and \
             `exclusiveMaximum`. Every `x-` key is judged by the vendor-key case. Keywords \
             with a rule of their own (`type`, `format`, `enum` forms, `$ref`, `nullable`, \
             root combinators, `required` that is not a list of distinct names, values a \
             keyword does not take, ...) are left to it.",
    features: "`keyword-allowed: <keyword>`, `keyword-allowed: <keyword> (<form>)`",
    example: r#"{"type": "object", "properties": {"mode": {"const": "fast"}}, "additionalProperties": false}"#,
    example_target: None,
    fix: "Remove the keyword; if it constrained the value, say so in the description (e.g. \"at least 1\"). `const` can be written as a one-value `enum`.",
    repair: "partly: keywords that only annotate or narrow are dropped (and reported), `additionalProperties` and `patternProperties` among them where a non-empty `properties` declares the members (alone they are the only description of the members, and stay); `oneOf` becomes `anyOf` when its branches have different types (so at most one matches) or loses its null branch (the argument made optional, or `nullable`); `allOf` is merged into the schema where one schema says what it and every branch say (`properties` naming other members pooled, `required` united, bounds and types written as their conjunction); other `anyOf`/`oneOf`/`allOf`, `items`, `properties` and `prefixItems` cannot be; and a schema that has no `type` repair can write (`type-missing`) is refused whole, its keywords with it (an untyped `const: null` is left to its author)",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        ..Hooks::NONE
    },
};

const STRUCTURAL: &[&str] = &[
    "anyOf",
    "oneOf",
    "allOf",
    "patternProperties",
    "items",
    "properties",
    "prefixItems",
    "dependentSchemas",
    "dependencies",
];

fn repairable(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    // Dropped inside a `not`, an `if` or an overlapping `oneOf`, it would narrow the schema.
    if let Feat::Keyword(k) | Feat::KeywordForm(k, _) = f
        && r.drop_narrows(k)
    {
        return false;
    }
    match f {
        // Next to a non-empty `properties` these only narrow what extra members may hold:
        // repair drops them (and reports the loss); alone they describe the members.
        Feat::Keyword("additionalProperties" | "patternProperties")
        | Feat::KeywordForm("additionalProperties" | "patternProperties", _) => {
            matches!(f, Feat::KeywordForm(_, value::BOOL_TRUE))
                || r.node().is_some_and(crate::repair::declares_members)
        }
        // A null branch, or branches of different types, which `anyOf` says as well.
        Feat::Keyword("oneOf") | Feat::KeywordForm("oneOf", _) => {
            r.node().is_some_and(crate::repair::one_of_repairable)
        }
        // One branch that one schema can say together with the schema's own: repair merges it,
        // after writing a `properties: null` beside it `{}` where the profile rejects that
        // (the `{}` holds no `$ref`, so the list of them is the schema's).
        Feat::Keyword("allOf") | Feat::KeywordForm("allOf", _) => {
            r.root_refs().is_some_and(|(root, refs)| {
                let at = (r.node_pointer)();
                crate::repair::all_of_repairable(root, &at, refs)
                    || super::properties_invalid::as_repair_meets_it(r).is_some_and(|written| {
                        crate::repair::all_of_repairable(&written, &at, refs)
                    })
            })
        }
        // A `const` no value of the `enum` beside it matches: no value was valid, and repair
        // refuses to write it otherwise.
        Feat::Keyword("const") | Feat::KeywordForm("const", _)
            if r.node()
                .is_some_and(|m| crate::repair::const_outside_enum(m).is_some()) =>
        {
            false
        }
        // A draft-04 to 07 `$schema` that decides a keyword beside a `$ref` is ignored, or that
        // a list `items` is a tuple: repair keeps it ([`crate::repair::refs::ignored_beside_ref`],
        // [`crate::repair::refs::draft_tuple_items`]).
        Feat::Keyword("$schema") | Feat::KeywordForm("$schema", _)
            if r.root.is_some_and(|root| {
                crate::repair::refs::draft_may_decide(root)
                    && (crate::repair::refs::ignored_beside_ref(root).is_some()
                        || crate::repair::refs::draft_tuple_items(root).is_some())
            }) =>
        {
            false
        }
        // Repair refuses a schema it cannot give a `type` before it reaches the keyword.
        Feat::Keyword(k) => {
            (!STRUCTURAL.contains(k) || names_by_member(k, r.node())) && !r.left_untyped()
        }
        Feat::KeywordForm(k, form) => {
            !(STRUCTURAL.contains(k) || *form == value::SCHEMA || r.left_untyped())
        }
        _ => false,
    }
}

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::Keyword | Kind::KeywordForm, _))
}

/// Keys other rules report (the match in [`node`] spells them out; the tests hold it to
/// these lists).
#[cfg(test)]
const ELSEWHERE: &[&str] = &["type", "format", "$ref", "$defs", "definitions", "nullable"];
/// Keys root-combinator and root-not-object report at the root.
#[cfg(test)]
const ROOT_ELSEWHERE: &[&str] = &["anyOf", "oneOf", "allOf", "not", "enum", "const"];

/// Whether the match in [`node`] skips `k` (at the root when `root`) before looking at its
/// value: exactly the keys of [`ELSEWHERE`] and, at the root, of [`ROOT_ELSEWHERE`].
#[cfg(test)]
fn skipped_by_name(k: &str, root: bool) -> bool {
    ELSEWHERE.contains(&k) || (root && ROOT_ELSEWHERE.contains(&k))
}

/// The ids ([`keyword`]) of the keywords [`form`] tells forms of: any other keyword with an
/// id is judged as `keyword-allowed: K` whatever its value.
const FORMED: u64 = 1 << keyword::ENUM
    | 1 << keyword::ADDITIONAL_PROPERTIES
    | 1 << keyword::EXCLUSIVE_MINIMUM
    | 1 << keyword::EXCLUSIVE_MAXIMUM
    | 1 << keyword::MAX_LENGTH
    | 1 << keyword::MULTIPLE_OF
    | 1 << keyword::PATTERN
    | 1 << keyword::SCHEMA
    | 1 << keyword::ID;

/// The ids ([`keyword`]) of the keys the match in [`node`] skips by name wherever they are
/// ([`ELSEWHERE`], and `items`): `type` is in nearly every subschema, and its id says "skip"
/// before the key's value or the match are read.
const SKIPPED: u64 = 1 << keyword::TYPE
    | 1 << keyword::FORMAT
    | 1 << keyword::REF
    | 1 << keyword::DEFS
    | 1 << keyword::DEFINITIONS
    | 1 << keyword::NULLABLE
    | 1 << keyword::ITEMS;

/// The keys (bit `id` for the keyword of [`keyword`] id `id`) that [`node`] passes over at
/// once, before reading their values, where the profile allows the keywords `allowed` (bit
/// `id` set where `keyword-allowed: K` is allowed at the placement): those it leaves to other
/// rules by id, and the allowed keywords it tells no forms of. A subschema whose every key has
/// an id in this mask gets nothing from [`node`], so the walk does not call it there
/// ([`crate::profile::compiled::CompiledProfile::quiet_keywords`]).
pub(crate) const fn quiet_keys(allowed: u64) -> u64 {
    SKIPPED | allowed & !FORMED
}

/// `maxLength` from this value on is judged by the `maxLength (large)` case (100,000 there):
/// grammar engines unroll repetition, so size is the feature. The threshold is toolwire's.
pub const LARGE_MAX_LENGTH: u64 = 10_000;

/// The form a keyword's value puts it in, where the catalog tells forms apart. Public so
/// that `explain` gives the fix for the form a request holds, as check does.
pub fn form(k: &str, v: &serde_json::Value) -> Option<&'static str> {
    use serde_json::Value;
    Some(match (k, v) {
        ("enum", _) => value::ENUM_STRINGS,
        ("additionalProperties", Value::Bool(true)) => value::BOOL_TRUE,
        ("additionalProperties", Value::Bool(false)) => value::BOOL_FALSE,
        ("additionalProperties", _) => value::SCHEMA,
        ("exclusiveMinimum" | "exclusiveMaximum", Value::Bool(_)) => value::DRAFT4_BOOLEAN,
        ("maxLength", Value::Number(n)) if n.as_u64().is_some_and(|n| n >= LARGE_MAX_LENGTH) => {
            value::LARGE
        }
        ("multipleOf", Value::Number(n)) if !n.is_u64() && !n.is_i64() => value::DECIMAL,
        ("pattern", Value::String(p)) => return pattern_form(p),
        ("$schema", Value::String(s)) if s.contains("draft-07") => value::SCHEMA_DRAFT_07,
        ("$schema", Value::String(s)) if !s.contains("2020-12") => value::SCHEMA_OTHER_DRAFT,
        ("$id", Value::String(s)) if !is_uri_reference(s) => value::ID_NOT_URI,
        _ => return None,
    })
}

/// Lookarounds (lookaheads and lookbehinds, one form: see [`lookbehind_only`]), named groups,
/// and patterns not anchored at both ends are told apart (in that order); a plain anchored
/// pattern has no form.
pub fn pattern_form(p: &str) -> Option<&'static str> {
    if ["(?=", "(?!", "(?<=", "(?<!"].iter().any(|s| p.contains(s)) {
        Some(value::PATTERN_LOOKAHEAD)
    } else if p.contains("(?P<")
        || (p.contains("(?<") && !p.contains("(?<=") && !p.contains("(?<!"))
    {
        Some(value::PATTERN_NAMED_GROUP)
    } else if !(p.starts_with('^') && p.ends_with('$')) {
        Some(value::PATTERN_UNANCHORED)
    } else {
        None
    }
}

/// Whether a pattern's lookarounds are all lookbehinds (`(?<=`, `(?<!`). The catalog has one
/// case for lookarounds, `keywords/pattern-lookahead-nested` (a lookahead): a lookbehind,
/// outside the regular languages grammar engines compile just as a lookahead is, is judged by
/// its evidence under the same feature (`lookahead`), and the message says which it is.
pub fn lookbehind_only(p: &str) -> bool {
    !p.contains("(?=") && !p.contains("(?!") && (p.contains("(?<=") || p.contains("(?<!"))
}

/// Which anchor an unanchored pattern lacks: the `unanchored` form covers every pattern not
/// anchored at both ends, because the evidence behind it (llama.cpp: "Pattern must start with
/// '^' and end with '$'") needs both.
fn anchoring(p: &str) -> &'static str {
    match (p.starts_with('^'), p.ends_with('$')) {
        (true, _) => "anchored at the start only, no `$` at the end",
        (false, true) => "anchored at the end only, no `^` at the start",
        (false, false) => "neither `^` at the start nor `$` at the end",
    }
}

/// A loose RFC 3986 URI-reference test: no spaces, quotes, angle brackets, braces, pipes,
/// backslashes, carets or backticks.
fn is_uri_reference(s: &str) -> bool {
    !s.chars()
        .any(|c| c.is_whitespace() || "\"<>{}|\\^`".contains(c) || c.is_control())
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    use serde_json::Value;
    let Some(map) = n.map else { return };
    let root = n.is_root();
    let has_if = n.has_if;
    for (i, (k, v)) in map.iter().enumerate() {
        let k = k.as_str();
        // Most keys are keywords the profile allows, judged by no form: whatever the arms
        // below would decide, nothing is reported, and the id answers that without them.
        if let Some(id) = n.key_id(i, k)
            && (SKIPPED & 1 << id != 0
                || FORMED & 1 << id == 0 && cx.allows_keyword(id, n.placement))
        {
            continue;
        }
        // A value the keyword does not take is keyword-value-invalid's, whatever the key.
        if n.value_form(i, k, v).is_some() {
            continue;
        }
        // One match per key: keys other rules report (ELSEWHERE, and ROOT_ELSEWHERE at the
        // root), keys this rule leaves alone in some forms, and the feature of the others.
        let feat = match k {
            "type" | "format" | "$ref" | "$defs" | "definitions" | "nullable" => continue,
            "oneOf" | "allOf" | "not" | "const" | "anyOf" | "enum" if root => continue,
            // An `items` schema is judged with its array: the `type-spelling: array` case is
            // the host that carries it (type-unsupported reports that case's verdict).
            "items" => continue,
            "properties" if !v.is_object() => continue,
            "required" if !super::required_invalid::is_list_of_names(v) => continue,
            "enum" if super::enum_not_string::form(v).is_some() => continue,
            "anyOf"
                if super::anyof_with_siblings::has_siblings(n)
                    || super::nullable_spelling::has_null_branch(n) =>
            {
                continue;
            }
            // `then`/`else` belong to the `if` construct.
            "then" | "else" if has_if => continue,
            _ if k.starts_with("x-") => Feat::Keyword(value::VENDOR_KEY),
            _ => match form(k, v) {
                Some(f) => Feat::KeywordForm(k, f),
                None => Feat::Keyword(k),
            },
        };
        // The texts name the key as written (one vendor-key feature covers every `x-` key)
        // and its form; a pattern's also quote its own anchoring and lookarounds, and the
        // fix of `dependencies` is its value's ([`names_by_member`]).
        let by_value = matches!(
            feat,
            Feat::KeywordForm(_, value::PATTERN_LOOKAHEAD | value::PATTERN_UNANCHORED)
        ) || k == "dependencies";
        // A draft `$schema` that decides what another keyword means has a fix of its own
        // tool's: written for this finding, not remembered for the key.
        let own_fix = (root && k == "$schema")
            .then(|| cx.root().and_then(draft_schema_fix))
            .flatten()
            .or_else(|| {
                // So has the keyword declaring a resource where a `$ref` resolves through it:
                // asked only of a finding about one in a tool with a `$ref`.
                if !matches!(k, "$id" | "id") {
                    return None;
                }
                let schema = cx.root()?;
                if crate::schema::refs::id_keyword(schema) != k
                    || !matches!(cx.judged(&feat, n.placement), Some(Some(_)))
                {
                    return None;
                }
                let moved = cx
                    .root_refs()
                    .filter(|refs| !refs.is_empty())
                    .and_then(|refs| id_fix(schema, &cx.pointer(At::Node(n.frame)), k, refs));
                // Draft-04's `id` is a keyword there, though not in 2020-12 (the text `id`
                // gets elsewhere).
                moved.or_else(|| {
                    (k == "id").then(|| {
                        "Remove `id`: no `$ref` resolves through it, so no argument changes \
                         (under the draft-04 `$schema` it names the schema)."
                            .to_string()
                    })
                })
            });
        cx.feature_memo(
            At::Key(n.frame, k),
            feat,
            n.placement,
            (!by_value && own_fix.is_none()).then_some(k),
            |m| {
                m.push_str("keyword `");
                m.push_str(k);
                m.push('`');
                if let Feat::KeywordForm(_, form) = feat {
                    m.push_str(" (");
                    match v {
                        Value::String(p)
                            if form == value::PATTERN_LOOKAHEAD && lookbehind_only(p) =>
                        {
                            m.push_str("lookbehind, judged by the lookahead case");
                        }
                        _ => m.push_str(form),
                    }
                    if form == value::PATTERN_UNANCHORED
                        && let Value::String(p) = v
                    {
                        m.push_str(": ");
                        m.push_str(anchoring(p));
                    }
                    m.push(')');
                }
            },
            |m| {
                match &own_fix {
                    Some(fix) => m.push_str(fix),
                    None => write_fix_in(k, &feat, Some(map), m),
                }
                true
            },
        );
    }
}

/// The fix for the root `$schema` of `root` when the draft it declares (04 to 07) decides what
/// another keyword means, else `None` (the keyword's own fix holds: `$schema` only annotates).
/// Removing `$schema` alone would make the schema read as 2020-12, where a keyword beside a
/// `$ref` applies ([`crate::repair::refs::ignored_beside_ref`], trial 50 D2), a list `items`
/// is no valid schema ([`crate::repair::refs::draft_tuple_items`], trial 54 D11), and a `$ref`
/// resolved through an `id` reaches another schema ([`crate::repair::refs::draft_resolved_ref`],
/// trial 54 D5): the fix says what to change first, one sentence for each that holds (trial
/// 54 D4).
pub fn draft_schema_fix(root: &serde_json::Value) -> Option<String> {
    use crate::repair::refs;
    // One scan answers "none of the three" for almost every tool asked.
    if !refs::draft_may_decide(root) {
        return None;
    }
    let mut fix = Vec::new();
    if let Some((at, beside)) = refs::ignored_beside_ref(root) {
        // `$defs` and `definitions` beside a `$ref` assert nothing, and another `$ref` may
        // point into them (trial 54 D4): removing them would leave it dangling.
        fix.push(format!(
            "Remove `{beside}` beside the `$ref` at {} first (and any other keyword beside a \
             `$ref` but `$defs` and `definitions`, which a `$ref` may point into: the draft \
             `$schema` declares (04 to 07) ignores them there), then `$schema`: without it the \
             schema is read as 2020-12, where `{beside}` applies and would refuse arguments the \
             schema accepts.",
            crate::json::push_token(&at, "$ref")
        ));
    }
    if let Some(at) = refs::draft_tuple_items(root) {
        fix.push(format!(
            "Rewrite the list `items` at {at} as `prefixItems` (and any `additionalItems` \
             beside it as `items`) first, then remove `$schema`: the draft it declares (04 \
             to 07) reads the list as a tuple, and without it the schema is read as \
             2020-12, where `items` is one schema and the list is no valid schema."
        ));
    }
    if let Some(at) = refs::draft_resolved_ref(root) {
        let id = crate::schema::refs::id_keyword(root);
        fix.push(format!(
            "Inline (or rewrite) the `$ref` at {at} first (and any other `$ref` resolved \
             through an `{id}`), then remove `$schema`: the draft it declares (04 to 07) \
             resolves it through the `{id}` around it, and without `$schema` the schema is \
             read as 2020-12, where that `$ref` reaches another schema (or none) and other \
             arguments are accepted."
        ));
    }
    (!fix.is_empty()).then(|| fix.join(" "))
}

/// The fix for `k`, the keyword that declares a resource in `root`'s draft (`$id`; `id` in
/// draft-04, [`crate::schema::refs::id_keyword`]) of the schema at `at`, where removing it
/// makes a `$ref` reach another schema or none ([`crate::repair::refs::id_moves_ref`], `refs`
/// being the `$ref`s of `root`): that `$ref` is inlined or rewritten first (trial 54 D2, D5);
/// `None` where no `$ref` moves.
pub fn id_fix(
    root: &serde_json::Value,
    at: &str,
    k: &str,
    refs: &crate::repair::refs::RefList,
) -> Option<String> {
    let moved = crate::repair::refs::id_moves_ref(root, at, k, refs)?;
    Some(format!(
        "Inline (or rewrite) the `$ref` at {moved} first (and any other `$ref` resolved through \
         this `{k}`), then remove `{k}`: it sets the base URI (or names the schema) that `$ref` \
         is resolved by, so without it the `$ref` reaches another schema (or none) and other \
         arguments are accepted."
    ))
}

/// The fix for keyword `k` of the schema at `at` in `root` where it is the place's own rather
/// than the keyword's ([`fix_for`]): the root `$schema` ([`draft_schema_fix`]) and the keyword
/// declaring a resource ([`id_fix`]); else `None`. What `explain` gives, as `check` does.
pub fn place_fix(root: &serde_json::Value, at: &str, k: &str) -> Option<String> {
    match k {
        "$schema" if at.is_empty() => draft_schema_fix(root),
        "$id" | "id" if crate::schema::refs::id_keyword(root) == k => {
            id_fix(root, at, k, &crate::repair::refs::RefList::of(root))
        }
        _ => None,
    }
}

/// Whether keyword `k` of the schema `node` is draft-07's `dependencies` in its array form,
/// which says what `dependentRequired` says ([`crate::schema::meta_shape::names_by_member`]):
/// repair drops it as that, so it is no [`STRUCTURAL`] keyword there (trial 55 D12).
fn names_by_member(k: &str, node: Option<&serde_json::Map<String, serde_json::Value>>) -> bool {
    k == "dependencies"
        && node
            .and_then(|m| m.get(k))
            .is_some_and(crate::schema::meta_shape::names_by_member)
}

/// The fix for one keyword, naming it and saying what to do, in the terms `toolwire repair`
/// uses (drop what only annotates; say a dropped constraint in the description).
pub fn fix_for(k: &str, feat: &Feat<'_>) -> String {
    let mut s = String::new();
    write_fix(k, feat, &mut s);
    s
}

/// [`fix_for`] keyword `k` where the schema holding it is `node`: the fix for a
/// `dependencies` in its array form is `dependentRequired`'s, naming `dependencies`.
pub fn fix_in(
    k: &str,
    feat: &Feat<'_>,
    node: &serde_json::Map<String, serde_json::Value>,
) -> String {
    let mut s = String::new();
    write_fix_in(k, feat, Some(node), &mut s);
    s
}

/// [`fix_for`] appended to `out` (the check writes it into the findings' shared text).
pub fn write_fix(k: &str, feat: &Feat<'_>, out: &mut String) {
    write_fix_in(k, feat, None, out);
}

/// [`fix_in`] appended to `out`; with no `node`, [`write_fix`].
fn write_fix_in(
    k: &str,
    feat: &Feat<'_>,
    node: Option<&serde_json::Map<String, serde_json::Value>>,
    out: &mut String,
) {
    use std::fmt::Write;
    let form = match feat {
        Feat::KeywordForm(_, f) => Some(*f),
        _ => None,
    };
    if k.starts_with("x-") {
        let _ = write!(
            out,
            "Remove `{k}`: a vendor key only annotates, so no argument changes."
        );
        return;
    }
    if STRUCTURAL.contains(&k) && !names_by_member(k, node) {
        // An example only where one shape fits the keyword's meaning.
        let example = match k {
            "anyOf" => " (e.g. one object with optional properties instead of alternatives)",
            "oneOf" => {
                " (e.g. one object with optional properties instead of alternatives; `toolwire \
                 repair` rewrites a `oneOf` whose branches have different types, or one of \
                 them null, where the profile allows the result)"
            }
            "allOf" => {
                " (e.g. one schema that says everything its parts require; `toolwire repair` \
                 merges the branches where one schema can say them all)"
            }
            "prefixItems" => {
                " (e.g. an object with one named property per position instead of a tuple)"
            }
            "patternProperties" => " (e.g. a named property for each key you expect)",
            _ => "",
        };
        let _ = write!(
            out,
            "`{k}` declares which arguments are valid, so it cannot just be dropped: restructure \
             the schema without it{example}, or use a profile whose targets accept it."
        );
        return;
    }
    let _ = match (k, form) {
        ("additionalProperties", Some(value::BOOL_TRUE)) => {
            out.write_str("Remove `additionalProperties: true`: it is the default.")
        }
        ("additionalProperties", Some(value::BOOL_FALSE)) => out.write_str(
            "Remove \
             `additionalProperties: false` and say in the description that no other keys are \
             accepted (strict targets get it back from `toolwire compile`).",
        ),
        ("additionalProperties", _) => out.write_str(
            "`additionalProperties` with a schema describes \
             free-form members: declare them under `properties`, or take them as a JSON string.",
        ),
        ("const", _) => out.write_str(
            "Write `const` as a one-value `enum` (a string `const`), or remove it \
             and say the value in the description.",
        ),
        ("exclusiveMinimum" | "exclusiveMaximum", Some(value::DRAFT4_BOOLEAN)) => write!(
            out,
            "Write `{k}` as the bound itself (a number, as in draft 2020-12), or remove it and \
             say the bound in the description."
        ),
        // `optional: true` (pre-draft-04) is no keyword any validator reads.
        ("optional", _) => out.write_str(
            "Remove `optional`: it is not a JSON Schema keyword, so no argument changes. An \
             argument is optional when its name is left out of the parent object's `required`.",
        ),
        ("not", _) => out.write_str(
            "Remove `not` and say in the description what it excludes: no other keyword \
             expresses an exclusion, so the provider will no longer enforce it; `toolwire \
             args` can still check arguments against the original schema.",
        ),
        // The lists are repair's, so the fix says what `toolwire repair` does.
        _ if crate::repair::only_annotates(k) => {
            write!(
                out,
                "Remove `{k}`: it only annotates, so no argument changes."
            )
        }
        _ if !crate::schema::is_keyword(k) => write!(
            out,
            "Remove `{k}`: it is not a JSON Schema keyword, so no argument changes."
        ),
        _ => {
            let example = said_as(k).map_or(String::new(), |e| format!(" (e.g. {e})"));
            write!(
                out,
                "Remove `{k}` and say what it required in the description{example}; `toolwire \
                 args` can still check arguments against the original schema."
            )
        }
    };
}

/// How a dropped keyword reads in a description, for the fix's example: `None` for a
/// keyword no one short phrase says (`$dynamicRef`; `format` and `unevaluatedProperties`,
/// whose words depend on their value, which the fix is not given), rather than another
/// keyword's example.
fn said_as(k: &str) -> Option<&'static str> {
    Some(match k {
        "minimum" => "\"at least 1\"",
        "maximum" => "\"at most 100\"",
        // An exclusive bound excludes its value: "at least 0" would admit it.
        "exclusiveMinimum" => "\"greater than 0\"",
        "exclusiveMaximum" => "\"less than 100\"",
        "minLength" => "\"at least 1 character\"",
        "maxLength" => "\"at most 64 characters\"",
        "minItems" => "\"at least 1 item\"",
        "maxItems" => "\"at most 20 items\"",
        "pattern" => "\"matches ^[a-z]+$\"",
        "multipleOf" => "\"a multiple of 5\"",
        "uniqueItems" => "\"no duplicates\"",
        "enum" => "\"one of: celsius, fahrenheit\"",
        "required" => "\"always give `city`\"",
        "minProperties" => "\"at least 1 key\"",
        "maxProperties" => "\"at most 10 keys\"",
        "propertyNames" => "\"keys are lowercase\"",
        "dependentRequired" | "dependencies" => "\"give `end` whenever `start` is given\"",
        "contains" => "\"at least one item is a string\"",
        "minContains" => "\"at least 2 such items\"",
        "maxContains" => "\"at most 3 such items\"",
        "if" | "then" | "else" => "\"when `kind` is `file`, `path` is required\"",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    /// Each `pattern` message up to its evidence sentence (what the rule says of the pattern).
    fn pattern_heads(messages: &[String]) -> Vec<&str> {
        messages
            .iter()
            .filter(|m| m.starts_with("keyword `pattern`"))
            .map(|m| m.split("):").next().unwrap())
            .collect()
    }

    #[test]
    fn unanchored_patterns_say_which_anchor_is_missing() {
        let m = messages(
            "keyword-unsupported",
            json!({"type":"object","properties":{
                "a":{"type":"string","pattern":"^x"}, "b":{"type":"string","pattern":"x$"},
                "c":{"type":"string","pattern":"x"}}}),
        );
        let patterns = pattern_heads(&m);
        assert_eq!(
            patterns,
            [
                "keyword `pattern` (unanchored: anchored at the start only, no `$` at the end",
                "keyword `pattern` (unanchored: anchored at the end only, no `^` at the start",
                "keyword `pattern` (unanchored: neither `^` at the start nor `$` at the end",
            ]
        );
    }

    /// A lookbehind is not called a lookahead: it shares the lookahead case's feature (the
    /// one lookaround case) and the message says it is a lookbehind judged by that case.
    #[test]
    fn lookbehind_patterns_are_labelled_as_lookbehinds() {
        let m = messages(
            "keyword-unsupported",
            json!({"type":"object","properties":{
                "a":{"type":"string","pattern":"^(?<=a)b$"},
                "b":{"type":"string","pattern":"^(?<!a)b$"},
                "c":{"type":"string","pattern":"^(?=a)a$"}}}),
        );
        let patterns = pattern_heads(&m);
        assert_eq!(
            patterns,
            [
                "keyword `pattern` (lookbehind, judged by the lookahead case",
                "keyword `pattern` (lookbehind, judged by the lookahead case",
                "keyword `pattern` (lookahead",
            ]
        );
        assert_eq!(
            super::pattern_form("(?<=a)b"),
            Some(crate::profile::feature::value::PATTERN_LOOKAHEAD)
        );
    }

    #[test]
    fn keywords_and_forms() {
        let r = "keyword-unsupported";
        let found = seen(
            r,
            json!({"type":"object","$schema":"https://json-schema.org/draft/2020-12/schema","properties":{
                "a":{"type":"string","const":"x","x-order":1},
                "b":{"type":"number","exclusiveMinimum":true},
                "type":{"type":"string","enum":["p","q"]}
            },"required":["a"],"additionalProperties":false}),
        );
        assert_eq!(
            found,
            pairs(&[
                ("/$schema", "keyword-allowed: $schema"),
                ("/properties", "keyword-allowed: properties"),
                ("/required", "keyword-allowed: required"),
                (
                    "/additionalProperties",
                    "keyword-allowed: additionalProperties (false)"
                ),
                ("/properties/a/const", "keyword-allowed: const"),
                ("/properties/a/x-order", "keyword-allowed: x-vendor"),
                (
                    "/properties/b/exclusiveMinimum",
                    "keyword-allowed: exclusiveMinimum (draft-4 boolean)"
                ),
                ("/properties/type/enum", "keyword-allowed: enum (strings)"),
            ])
        );
        // A property literally named `type` is a name, never the keyword.
        assert!(!found.iter().any(|(p, _)| p == "/properties/type"));
    }

    #[test]
    fn the_one_match_skips_the_listed_keys() {
        use super::*;
        let map = json!({"type":"x","format":"x","$ref":"x","$defs":{},"definitions":{},"nullable":true,
            "anyOf":[],"oneOf":[],"allOf":[],"not":{},"enum":["a"],"const":1,"title":"t"});
        for root in [true, false] {
            let found = seen(
                "keyword-unsupported",
                if root {
                    map.clone()
                } else {
                    json!({"type":"object","properties":{"p": map.clone()}})
                },
            );
            for k in map.as_object().unwrap().keys() {
                let reported = found.iter().any(|(p, _)| p.ends_with(&format!("/{k}")));
                if skipped_by_name(k, root) {
                    assert!(!reported, "{k} at root={root}: {found:?}");
                }
            }
            assert!(
                found.iter().any(|(p, _)| p.ends_with("/title")),
                "{found:?}"
            );
        }
    }

    /// [`SKIPPED`] holds the ids of exactly the keys the match skips by name wherever they
    /// are ([`ELSEWHERE`] and `items`): an id more would hide a key the match reports, an id
    /// fewer only costs time.
    #[test]
    fn the_ids_skipped_first_are_the_keys_the_match_always_skips() {
        use super::*;
        for (id, k) in keyword::KEYWORDS.iter().enumerate() {
            assert_eq!(
                SKIPPED & 1 << id != 0,
                ELSEWHERE.contains(k) || *k == "items",
                "{k}"
            );
        }
        // And each skipped key is reported nowhere, under a profile that allows none of them.
        let s = json!({"type":"object","properties":{"p":{"type":"array","format":"x",
            "items":{"type":"string"},"nullable":true,"$defs":{},"definitions":{},
            "$ref":"#/$defs/A"}},"$defs":{"A":{}}});
        let found = seen("keyword-unsupported", s);
        for k in [
            "type",
            "format",
            "items",
            "nullable",
            "$defs",
            "definitions",
            "$ref",
        ] {
            assert!(
                !found.iter().any(|(p, _)| p.ends_with(&format!("/{k}"))),
                "{k}: {found:?}"
            );
        }
    }

    #[test]
    fn the_fix_names_the_keyword() {
        use super::*;
        assert_eq!(
            fix_for("minimum", &Feat::Keyword("minimum")),
            "Remove `minimum` and say what it required in the description (e.g. \"at least 1\"); `toolwire args` can still check arguments against the original schema."
        );
        // An exclusive bound's example excludes the bound, as repair's description does.
        assert!(
            fix_for("exclusiveMinimum", &Feat::Keyword("exclusiveMinimum"))
                .contains("(e.g. \"greater than 0\")")
        );
        assert!(
            fix_for("exclusiveMaximum", &Feat::Keyword("exclusiveMaximum"))
                .contains("(e.g. \"less than 100\")")
        );
        assert!(fix_for("title", &Feat::Keyword("title")).starts_with("Remove `title`: it only"));
        assert!(fix_for("x-order", &Feat::Keyword(value::VENDOR_KEY)).contains("`x-order`"));
        assert!(fix_for("anyOf", &Feat::Keyword("anyOf")).starts_with("`anyOf` declares"));
        // Alternatives are `anyOf`'s; a tuple's example speaks of positions.
        assert!(fix_for("anyOf", &Feat::Keyword("anyOf")).contains("instead of alternatives"));
        let tuple = fix_for("prefixItems", &Feat::Keyword("prefixItems"));
        assert!(
            tuple.contains("one named property per position instead of a tuple")
                && !tuple.contains("alternatives"),
            "{tuple}"
        );
        assert!(
            fix_for(
                "additionalProperties",
                &Feat::KeywordForm("additionalProperties", value::BOOL_FALSE)
            )
            .contains("`additionalProperties: false`")
        );
    }

    /// `optional`, `$schema` and `not` each get the fix `toolwire repair` carries out: drop
    /// a non-keyword with nothing lost, drop an annotation, drop an exclusion with its loss.
    #[test]
    fn the_fix_says_what_repair_does_for_optional_schema_and_not() {
        use super::*;
        use crate::repair::{Options, Tool, repair_tool, tests::profile};
        let repaired = |k: &str, v: serde_json::Value| {
            let p = profile(&[&format!("keyword-allowed: {k}")]);
            let t = Tool {
                name: Some("f".into()),
                description: Some("Does it.".into()),
                parameters: Some(json!({"type":"object","properties":{
                    "a":{"type":"string", k: v}}})),
                strict: None,
                strict_tool_use: None,
            };
            let r = repair_tool(&t, 0, &p, &Options::default());
            assert_eq!(r.changes.len(), 1, "{k}: {:#?}", r);
            r.changes[0].clone()
        };

        let fix = fix_for("optional", &Feat::Keyword("optional"));
        assert!(
            fix.starts_with("Remove `optional`: it is not a JSON Schema keyword"),
            "{fix}"
        );
        assert!(
            fix.contains("left out of the parent object's `required`"),
            "{fix}"
        );
        let c = repaired("optional", json!(true));
        assert!(c.action.contains("not a JSON Schema keyword"), "{c:?}");
        assert_eq!(c.lost, None);

        let draft = Feat::KeywordForm("$schema", value::SCHEMA_DRAFT_07);
        for feat in [Feat::Keyword("$schema"), draft] {
            let fix = fix_for("$schema", &feat);
            assert_eq!(
                fix,
                "Remove `$schema`: it only annotates, so no argument changes."
            );
        }
        let c = repaired(
            "$schema",
            json!("https://json-schema.org/draft/2020-12/schema"),
        );
        assert!(c.lost.unwrap().starts_with("the annotation `$schema"));

        let fix = fix_for("not", &Feat::Keyword("not"));
        assert!(fix.starts_with("Remove `not` and say in the description what it excludes"));
        assert!(fix.contains("no longer enforce"), "{fix}");
        let c = repaired("not", json!({"enum":["x"]}));
        assert!(c.lost.unwrap().contains("no longer enforces `not"));

        // Any other key that is no keyword is dropped the same way as `optional`.
        let fix = fix_for("widget", &Feat::Keyword("widget"));
        assert_eq!(
            fix,
            "Remove `widget`: it is not a JSON Schema keyword, so no argument changes."
        );
    }

    /// Every keyword's example is its own: `dependentRequired`'s spoke of a `minimum`, the
    /// example every keyword without one of its own was given.
    #[test]
    fn each_keyword_is_given_its_own_example_or_none() {
        use super::*;
        assert_eq!(
            fix_for("dependentRequired", &Feat::Keyword("dependentRequired")),
            "Remove `dependentRequired` and say what it required in the description (e.g. \
             \"give `end` whenever `start` is given\"); `toolwire args` can still check \
             arguments against the original schema."
        );
        assert_eq!(
            fix_for("$dynamicRef", &Feat::Keyword("$dynamicRef")),
            "Remove `$dynamicRef` and say what it required in the description; `toolwire args` \
             can still check arguments against the original schema."
        );
        for &k in crate::schema::KEYWORDS {
            let fix = fix_for(k, &Feat::Keyword(k));
            // An example naming another keyword is another keyword's.
            if let Some((_, example)) = fix.split_once("(e.g. ") {
                let other = crate::schema::KEYWORDS
                    .iter()
                    .find(|&&o| o != k && example.contains(&format!("`{o}`")));
                assert_eq!(other, None, "{k}: {fix}");
            }
        }
    }

    /// A rejected `allOf` is marked repairable exactly where `repair` merges it: branches
    /// none of whose keywords the schema or another branch sets otherwise (before: never,
    /// though repair merged one branch, so check said "cannot just be dropped" of what repair
    /// then did; trial 55 D9: never for several branches, which repair now merges too).
    #[test]
    fn an_all_of_is_repairable_as_repair_merges_it() {
        use super::super::testing::{check_under, nested_profile};
        use crate::profile::Status;
        let profile = nested_profile(
            "gemini/v1beta/parameters",
            &[
                ("keyword-allowed: allOf", Status::Rejected),
                ("type-allowed: string", Status::Allowed),
            ],
        );
        let marked = |all_of: serde_json::Value, own: serde_json::Value| {
            let mut e = json!({"allOf": all_of});
            e.as_object_mut()
                .unwrap()
                .extend(own.as_object().unwrap().clone());
            let s = json!({"type":"object","properties":{"e": e}});
            let f = check_under(&profile, &s)
                .into_iter()
                .find(|f| f.rule == "keyword-unsupported" && f.pointer == "/properties/e/allOf")
                .expect("allOf reported");
            assert!(f.fix.contains("merges the branches"), "{}", f.fix);
            f.repairable
        };
        assert!(marked(json!([{"type":"string"}]), json!({})));
        assert!(marked(json!([{"type":"string"}]), json!({"type":"string"})));
        assert!(!marked(
            json!([{"type":"string"}]),
            json!({"type":"integer"})
        ));
        assert!(marked(
            json!([{"type":"string"},{"maxLength":3}]),
            json!({})
        ));
        assert!(!marked(
            json!([{"pattern":"^a"},{"pattern":"b$"}]),
            json!({"type":"string"})
        ));
    }

    #[test]
    fn an_items_schema_is_judged_with_its_array_not_as_a_keyword() {
        let found = seen(
            "keyword-unsupported",
            json!({"type":"object","properties":{
                "tags":{"type":"array","items":{"type":"string","title":"t"}}
            }}),
        );
        assert!(
            !found.iter().any(|(p, _)| p.ends_with("/items")),
            "{found:?}"
        );
        // Inside it, keywords are still judged.
        assert!(
            found
                .iter()
                .any(|(p, _)| p == "/properties/tags/items/title"),
            "{found:?}"
        );
    }

    #[test]
    fn root_combinators_are_not_reported_here() {
        assert!(
            seen(
                "keyword-unsupported",
                json!({"anyOf":[{"type":"object","properties":{}}]})
            )
            .iter()
            .all(|(p, _)| p.starts_with("/anyOf/0"))
        );
    }

    /// The fast path in `node` skips an allowed keyword with an id outside `FORMED` without
    /// asking `form`: that holds only if `form` has no form for any such keyword, whatever
    /// its value.
    #[test]
    fn keywords_outside_formed_have_no_form() {
        use crate::profile::keyword::{self, KEYWORDS};
        let values = [
            json!(true),
            json!(false),
            json!(null),
            json!(0),
            json!(-1),
            json!(0.5),
            json!(100000),
            json!("x"),
            json!("^x$"),
            json!("(?=a)"),
            json!("http://json-schema.org/draft-07/schema#"),
            json!("a b"),
            json!([]),
            json!(["a"]),
            json!({}),
            json!({"type": "string"}),
        ];
        for (id, k) in KEYWORDS.iter().enumerate() {
            let formed = super::FORMED & 1 << id != 0;
            let any_form = values.iter().any(|v| super::form(k, v).is_some());
            assert_eq!(formed, any_form, "{k}");
            assert_eq!(keyword::id(k), Some(id as u8));
        }
    }
}
