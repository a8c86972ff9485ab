//! Repairs of keywords: drops, `$ref` inlining, null branches, combinators, `nullable`.

use std::collections::HashSet;

use serde_json::{Map, Value, json};

use super::*;
use crate::repair::refs::{Conflicts, RefList};

pub(super) fn keyword(
    tool: &Tool,
    f: &Finding,
    k: &str,
    form: Option<&str>,
    profile: &CompiledProfile,
    memo: &Memo,
    conflicts: Conflicts,
) -> Found {
    let found = keyword_rewrites(tool, f, k, form, profile, memo, conflicts);
    // Written once, the names say what they said twice: tried before any drop, which the
    // caller takes only where the finding's error outlives them (a profile rejecting the
    // keyword itself).
    match names_written_once(tool, f)? {
        Some(once) => Ok(std::iter::once(once)
            .chain(found.unwrap_or_default())
            .collect()),
        None => found,
    }
}

/// The change of an `allOf: []` dropped, which applies no schema to the value (repair, and
/// compile's Cohere strict form, which refuses what `toolwire args` cannot read).
pub(crate) const EMPTY_ALL_OF_DROPPED: &str = "dropped `allOf: []`, which constrains nothing \
     (an empty list of schemas applies none to the value; JSON Schema wants a non-empty list)";

/// The keywords whose values are lists of member names, each of which the draft 2020-12
/// meta-schema wants with every name once (`meta/validation`'s `stringArray`: `uniqueItems`):
/// `dependentRequired`, and draft-07's `dependencies` in its array form.
const NAME_LISTS: [&str; 2] = ["dependentRequired", "dependencies"];

/// Where finding `f` is about a `dependentRequired` (or `dependencies`) some list of which
/// gives a name more than once, that keyword with each list's names once, in their first
/// order, and no loss: the validator requires each listed name (2020-12 validation §6.5.4), so
/// one given twice requires nothing more than given once (compile for openai/chat dropped the whole keyword, which its offline model refuses for the repeat, as a loss).
/// `None` for any other finding or keyword, or one with no repeat.
fn names_written_once(tool: &Tool, f: &Finding) -> Result<Option<Candidate>, String> {
    let Some((node, k)) = place::split_keyword(&f.pointer) else {
        return Ok(None);
    };
    if !NAME_LISTS.contains(&k.as_str()) {
        return Ok(None);
    }
    let Some(Value::Object(lists)) = schema_at(tool, &node)?.get(&k) else {
        return Ok(None);
    };
    let Some(once) = lists_once(lists) else {
        return Ok(None);
    };
    let (before, after) = (
        show(&Value::Object(lists.clone())),
        show(&Value::Object(once.clone())),
    );
    let t = edited(tool, &node, |m| {
        m.insert(k.clone(), Value::Object(once));
    })?;
    Ok(Some(
        Candidate::one(
            t,
            &f_at(&node, &k),
            &f.rule,
            format!(
                "wrote `{k}: {before}` as `{k}: {after}`, each name once (a name listed twice \
                 requires nothing more than listed once; JSON Schema wants each name once)"
            ),
            None,
        )
        .respelled(),
    ))
}

/// `lists` (a `dependentRequired`'s value, or a `dependencies`') with each list's names once,
/// in their first order; `None` when no list repeats a name.
fn lists_once(lists: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut once = lists.clone();
    let mut repeated = false;
    for list in once.values_mut() {
        let Value::Array(names) = list else { continue };
        let mut kept: Vec<Value> = Vec::with_capacity(names.len());
        for n in names.drain(..) {
            if kept.contains(&n) {
                repeated = true;
            } else {
                kept.push(n);
            }
        }
        *names = kept;
    }
    repeated.then_some(once)
}

/// `schema` with every `dependentRequired` (and `dependencies`) list written with each name
/// once, as repair writes them ([`names_written_once`]); `None` when none repeats a name. Read
/// by [`crate::repair::warnings_as_given`]: where the repeat made the keyword an error (the
/// meta-schema's, under `anthropic/messages`), its warning once repair writes each name once
/// (`keyword-allowed: dependentRequired`, no evidence either way) is the input's keyword's, not
/// one repair wrote. Every object of the document is looked at, inside `enum` and `const`
/// values too: it only counts warnings.
pub(crate) fn name_lists_written_once(schema: &Value) -> Option<Value> {
    fn walk(v: &mut Value) -> bool {
        let mut changed = false;
        match v {
            Value::Object(m) => {
                for (k, sub) in m.iter_mut() {
                    if NAME_LISTS.contains(&k.as_str())
                        && let Value::Object(lists) = sub
                        && let Some(once) = lists_once(lists)
                    {
                        *lists = once;
                        changed = true;
                    }
                    changed |= walk(sub);
                }
            }
            Value::Array(a) => {
                for sub in a {
                    changed |= walk(sub);
                }
            }
            _ => {}
        }
        changed
    }
    // Most schemas have none: they are looked at, not copied.
    fn repeats(v: &Value) -> bool {
        match v {
            Value::Object(m) => m.iter().any(|(k, sub)| {
                (NAME_LISTS.contains(&k.as_str())
                    && sub.as_object().is_some_and(|lists| {
                        lists.values().filter_map(Value::as_array).any(|names| {
                            names
                                .iter()
                                .enumerate()
                                .any(|(i, n)| names[..i].contains(n))
                        })
                    }))
                    || repeats(sub)
            }),
            Value::Array(a) => a.iter().any(repeats),
            _ => false,
        }
    }
    if !repeats(schema) {
        return None;
    }
    let mut once = schema.clone();
    walk(&mut once).then_some(once)
}

#[allow(clippy::too_many_arguments)]
fn keyword_rewrites(
    tool: &Tool,
    f: &Finding,
    k: &str,
    form: Option<&str>,
    profile: &CompiledProfile,
    memo: &Memo,
    conflicts: Conflicts,
) -> Found {
    let max_nodes = memo.max_inline_nodes;
    let read = StringsRead::under(profile);
    // The key as written (a finding about `x-vendor` points at the real `x-...` key).
    let (node, real) = place::split_keyword(&f.pointer)
        .filter(|(_, real)| real == k || k == value::VENDOR_KEY)
        .ok_or_else(|| format!("no keyword `{k}` at {:?}", f.pointer))?;
    let k = real.as_str();
    let map = schema_at(tool, &node)?;
    let rule = f.rule.as_str();
    // Draft-07's `dependencies` in its array form is `dependentRequired` (trial 55 D12: it
    // was refused as declaring the arguments), dropped as that is.
    let narrows = NARROWING.contains(&k)
        || (k == "dependencies"
            && map
                .get(k)
                .is_some_and(crate::schema::meta_shape::names_by_member));
    match (k, form) {
        // A `$ref` naming the root by its `$id` from inside another resource (`urn:outer#x`
        // under `$id: urn:inner`) has no `#...` form naming the same schema (JSON Schema
        // 2020-12 core §8.2.1, §8.2.3: `#x` is read against `urn:inner`): the `$id` goes once
        // the `$ref`s are inlined, as a named `$anchor` does.
        ("$id", _) if node.is_empty() && !root_id_rewrite_keeps_targets(tool) => {
            match memo.inlining_refused(tool, conflicts) {
                Some(r) => Err(crate::repair::refs::refusal_text_for(r, &f.pointer)),
                None => inline_then_drop(tool, rule, &f.pointer, &node, k, max_nodes, conflicts),
            }
        }
        ("$id", _) if node.is_empty() => drop_root_id(tool, rule),
        // Without the `$id`, a `$ref` naming its resource would read as remote, and one inside
        // it would name the enclosing resource's definitions: the `$ref`'s own line says why
        // it cannot be inlined first.
        ("$id", _) if names_change(tool, &node) => Err(
            "a `$ref` is read against the resource this `$id` declares; it goes once the \
             `$ref`s are inlined, which the `$ref`s' own lines say cannot be done"
                .into(),
        ),
        // Dropped while a `$ref` still names it, the anchor would leave that `$ref` pointing at
        // nothing: a problem repair made. It goes with the `$ref`s, once they are inlined.
        ("$anchor" | "$dynamicAnchor", _) if memo.anchor_named(tool, &node, k) => {
            match memo.inlining_refused(tool, conflicts) {
                Some(r) => Err(crate::repair::refs::refusal_text_for(r, &f.pointer)),
                None => inline_then_drop(tool, rule, &f.pointer, &node, k, max_nodes, conflicts),
            }
        }
        // The draft it declares ignores a keyword beside a `$ref`; read as 2020-12 without it,
        // the schema would apply that keyword (trial 50 D2), so it stays, as the inliner
        // leaves such a `$ref` ([`crate::repair::refs::ignored_beside_ref`]).
        ("$schema", _) if node.is_empty() => match tool
            .parameters
            .as_ref()
            .and_then(crate::repair::refs::ignored_beside_ref)
        {
            Some((at, beside)) => Err(format!(
                "the draft `$schema` declares (04 to 07) ignores `{beside}` beside the `$ref` \
                 at {}; without `$schema` the schema is read as 2020-12, where `{beside}` \
                 applies, and it would refuse arguments the schema accepts",
                crate::json::push_token(&at, "$ref")
            )),
            None => match tool
                .parameters
                .as_ref()
                .and_then(crate::repair::refs::draft_tuple_items)
            {
                Some(at) => Err(format!(
                    "the draft `$schema` declares (04 to 07) reads the list `items` at {at} as \
                     a tuple; without `$schema` the schema is read as 2020-12, where `items` is \
                     one schema and the list is no valid schema"
                )),
                None => drop_keyword(tool, rule, &node, k, true),
            },
        },
        // `prefixItems: []` applies to no element (2020-12 core §10.3.1.1: each schema to the
        // element at its position), and leaves `items` and `unevaluatedItems` every element, as
        // without it: the fix of keyword-value-invalid says to remove it, and so does repair.
        // `allOf: []` applies no schema to the value (2020-12 core §10.2.1.1: the value must
        // be valid against each schema of the list, and there is none), so every value is
        // valid against it, as without it: dropped as `prefixItems: []` is.
        ("prefixItems" | "allOf", Some(value::VALUE_EMPTY_LIST)) => {
            let t = edited(tool, &node, |m| {
                m.shift_remove(k);
            })?;
            let said = if k == "allOf" {
                EMPTY_ALL_OF_DROPPED
            } else {
                "dropped `prefixItems: []`, which constrains nothing (an empty list of schemas \
                 applies to no element; JSON Schema wants a non-empty list)"
            };
            Ok(vec![Candidate::one(t, &f_at(&node, k), rule, said, None)])
        }
        // `anyOf: []` and `oneOf: []` hold no schema a value could be valid against (2020-12
        // core §10.2.1.2, §10.2.1.3: at least one, exactly one), so no value is: dropping the
        // keyword would accept every value, and what it was meant to hold cannot be known.
        ("anyOf" | "oneOf", Some(value::VALUE_EMPTY_LIST)) => Err(format!(
            "`{k}: []` holds no schema a value could match, so no value is valid against it \
             (JSON Schema wants a non-empty list); dropping it would accept every value, and \
             what it was meant to hold cannot be known"
        )),
        // `oneOf: {...}`: dropping it would allow what it was meant to narrow, and what its
        // schemas were meant to be cannot be known.
        ("anyOf" | "oneOf" | "allOf" | "prefixItems", Some(value::VALUE_NOT_A_LIST)) => {
            Err(format!(
                "`{k}` is not a non-empty list of schemas, and what it was meant to hold cannot be known"
            ))
        }
        ("$ref", Some(value::REF_RECURSIVE)) => {
            Err("a recursive `$ref` cannot be written out: the schema would never end".into())
        }
        // A cycle is called a cycle and an over-long chain names the limit, in the words every
        // command uses for them (`crate::schema::refs`).
        ("$ref", Some(value::REF_SELF | value::REF_CHAIN_TOO_LONG)) => {
            Err(chain_refused(tool, &node).unwrap_or_else(|e| e))
        }
        ("$ref", Some(value::REF_REMOTE)) => {
            Err("a remote `$ref`: toolwire never fetches schemas".into())
        }
        // Inlined by the rewrite of another finding of its kind: nothing is beside a `$ref`
        // here any more, and the merged keywords are the target's own.
        ("$ref", Some(form))
            if crate::profile::rules::ref_unsupported::drops_siblings(form)
                && !map.contains_key("$ref") =>
        {
            Err(format!("no `$ref` at {node:?} any more (inlined)"))
        }
        ("$ref", Some(value::REF_WITH_OTHER)) => drop_other_ref_siblings(tool, rule, &node),
        ("$ref", form) => match form.and_then(crate::profile::rules::ref_unsupported::sibling_of) {
            Some(sibling) => drop_ref_sibling(tool, rule, &node, sibling),
            None => inline_refs(tool, rule, &f.pointer, max_nodes, conflicts),
        },
        ("$defs" | "definitions", _) => inline_refs(tool, rule, &f.pointer, max_nodes, conflicts),
        ("anyOf" | "oneOf", Some(value::NULL_BRANCH)) => null_branch(tool, rule, &node, k),
        ("anyOf", Some(value::WITH_SIBLINGS)) => push_siblings(tool, rule, &node),
        ("anyOf" | "oneOf", _) if has_null_branch(map, k) => null_branch(tool, rule, &node, k),
        ("oneOf", _) => one_of_as_any_of(tool, rule, &node),
        ("anyOf", _) => {
            Err("a union of alternatives (`anyOf`) cannot be written without it".into())
        }
        ("allOf", _) => merge_all_of(tool, rule, &node, Some(memo)),
        ("nullable", _) => nullable(tool, rule, &node),
        ("items", Some(value::ITEMS_LIST)) | ("prefixItems", _) => Err(format!(
            "a tuple (`items` as a list / `prefixItems`) fixes each position's type; no form \
             under `{}` keeps that",
            profile.name
        )),
        ("items" | "properties" | "dependentSchemas" | "dependencies", _) if !narrows => Err(
            format!("`{k}` declares the arguments themselves; it cannot be dropped"),
        ),
        ("additionalProperties" | "patternProperties", f) => {
            let declared = declares_members(map);
            if f == Some(value::BOOL_TRUE) {
                let t = edited(tool, &node, |m| {
                    m.shift_remove(k);
                })?;
                return Ok(vec![Candidate::one(
                    t,
                    &f_at(&node, k),
                    rule,
                    "dropped `additionalProperties: true` (the default)",
                    None,
                )]);
            }
            if !declared {
                return Err(format!(
                    "a free-form object: `{k}` is the only description of its members"
                ));
            }
            drop_keyword(tool, rule, &node, k, false)
        }
        ("const", _) => {
            let v = map.get("const").cloned().unwrap_or(Value::Null);
            // An `enum` beside it: the one-value `enum` is their intersection only when `enum`
            // holds the value; else no value was valid, and neither rewrite says so (trial 48
            // D10: `enum: ["a", "b"]` was replaced by `["c"]`, accepting "c", 0 losses).
            if let Some(why) = const_refused(map) {
                return Err(why);
            }
            let mut out = Vec::new();
            if v.is_string() {
                let mut t = Draft::of(tool);
                let m = t.schema(&node)?;
                m.shift_remove("const");
                m.insert("enum".into(), json!([v.clone()]));
                if !m.contains_key("type") {
                    m.insert("type".into(), json!("string"));
                }
                out.push(Candidate::one(
                    t,
                    &f_at(&node, "const"),
                    rule,
                    format!("wrote `const: {}` as a one-value `enum`", show(&v)),
                    None,
                ));
            }
            out.extend(drop_keyword(tool, rule, &node, "const", true)?);
            Ok(out)
        }
        // A member the schema's own `type` rules out never matched: it goes, and nothing with it.
        ("enum", Some(value::ENUM_NULL | value::ENUM_NUMBERS | value::ENUM_MIXED))
            if crate::json::live_enum_members(map).is_some() =>
        {
            drop_dead_members(tool, rule, &node)
        }
        ("enum", Some(value::ENUM_NULL)) => enum_without_null(tool, rule, &node),
        // `minLength: 3.0` is the count 3: written so, nothing is lost (trial 72 D2).
        (_, Some(value::DECIMAL))
            if map
                .get(k)
                .and_then(|v| keyword_value_invalid::whole_count(k, v))
                .is_some() =>
        {
            decimal_count(tool, rule, &node, k)
        }
        ("exclusiveMinimum" | "exclusiveMaximum", Some(value::DRAFT4_BOOLEAN)) => {
            let v = map.get(k).cloned().unwrap_or(Value::Null);
            if v == json!(false) {
                let t = edited(tool, &node, |m| {
                    m.shift_remove(k);
                })?;
                return Ok(vec![Candidate::one(
                    t,
                    &f_at(&node, k),
                    rule,
                    format!("dropped `{k}: false` (draft-4 spelling of the default)"),
                    None,
                )]);
            }
            drop_keyword(tool, rule, &node, k, true)
        }
        // Dropped while a `$ref` outside it names a schema in it (a `not` holding the `$defs`
        // whose anchor `#x` names), the keyword would leave that `$ref` pointing at nothing: a
        // problem repair made. It goes once the `$ref`s are inlined.
        _ if (ANNOTATIONS.contains(&k) || narrows || !crate::schema::is_keyword(k))
            && memo.reached_from_outside(tool, &f.pointer) =>
        {
            match memo.inlining_refused(tool, conflicts) {
                Some(r) => Err(crate::repair::refs::refusal_text_for(r, &f.pointer)),
                None => {
                    let mut out = Vec::new();
                    for c in inline_refs(tool, rule, &f.pointer, max_nodes, conflicts)? {
                        let inlined = c.rewrite.applied_to(tool)?;
                        for d in drop_keyword_read(&inlined, rule, &node, k, true, read)? {
                            let mut changes = c.changes.clone();
                            changes.extend(d.changes);
                            out.push(Candidate::many(d.rewrite.applied_to(&inlined)?, changes));
                        }
                    }
                    Ok(out)
                }
            }
        }
        _ if ANNOTATIONS.contains(&k) || narrows || !crate::schema::is_keyword(k) => {
            drop_keyword_read(tool, rule, &node, k, true, read)
        }
        _ => Err(format!("no conservative repair for `{k}`")),
    }
}

/// What the fixes of one state of a tool's schema read of the whole schema, each made at most
/// once, when first asked for: the fix of each of 10,000 `$anchor`s would otherwise walk the
/// schema and resolve its `$ref`s (or try inlining them) 10,000 times (2c6bbeb: over 120 s).
/// Good for the schema it was first asked about, and for that schema with `$anchor`s (or
/// `$dynamicAnchor`s) dropped that no `$ref` names (repair drops all of one kind in a row,
/// asking about each): that changes neither what the other `$ref`s resolve to nor whether
/// they can be inlined; and its list of `$ref`s holds for that schema with `allOf`s merged
/// that no `$ref` points into, as a merge moves keywords but rewrites no `$ref`; and for that
/// schema with definitions dropped that no `$ref` reaches, which leaves the others unreached.
/// Made anew for any other change.
pub(crate) struct Memo {
    /// The expansion cap of the inlining (`--max-inline-nodes`).
    pub max_inline_nodes: usize,
    /// [`crate::repair::Options::required_schema_key`]: where set, a tool without arguments
    /// keeps a schema ([`super::shapes::root_shape`]).
    pub required_schema_key: Option<&'static str>,
    /// Each plain name a `$ref` names an anchor by, with the place of the schema that
    /// declares it (both places, for a name declared twice).
    named: std::cell::OnceCell<HashSet<(String, String)>>,
    /// Where each `$ref` is written and the place it resolves to, for those that resolve.
    reached: std::cell::OnceCell<Vec<(String, String)>>,
    /// Why the schema's `$ref`s cannot all be inlined (`None`: they can).
    inlining: std::cell::OnceCell<Option<crate::repair::refs::Refusal>>,
    /// The schema's `$ref`s: each `allOf` merge asks whether one points into it (trial 48 D12:
    /// a walk of the schema per merge made repairing N `allOf`s quadratic).
    refs: std::cell::OnceCell<RefList>,
    /// The root's definitions no `$ref` reaches
    /// ([`crate::compile::canonical::unreached_definitions`]).
    unreached: std::cell::OnceCell<HashSet<crate::compile::canonical::Definition>>,
}

impl Memo {
    /// An empty memo for a schema whose `$ref`s are inlined up to `max_inline_nodes` nodes.
    pub fn new(max_inline_nodes: usize) -> Memo {
        Memo {
            max_inline_nodes,
            required_schema_key: None,
            named: Default::default(),
            reached: Default::default(),
            inlining: Default::default(),
            refs: Default::default(),
            unreached: Default::default(),
        }
    }

    /// An empty memo under repair options `opts`.
    pub fn of(opts: &crate::repair::Options) -> Memo {
        Memo {
            required_schema_key: opts.required_schema_key,
            ..Memo::new(opts.max_inline_nodes)
        }
    }

    /// Whether no `$ref` of the tool's schema reaches its definition `def`.
    pub(super) fn unreached(
        &self,
        tool: &Tool,
        def: &crate::compile::canonical::Definition,
    ) -> bool {
        tool.parameters.as_ref().is_some_and(|root| {
            self.unreached
                .get_or_init(|| {
                    crate::compile::canonical::unreached_definitions(root)
                        .into_iter()
                        .collect()
                })
                .contains(def)
        })
    }

    /// Whether a `$ref` of the tool names the schema at `node` by the plain name its keyword
    /// `k` (`$anchor`, `$dynamicAnchor`) declares.
    pub(super) fn anchor_named(&self, tool: &Tool, node: &str, k: &str) -> bool {
        let Some(root) = tool.parameters.as_ref() else {
            return false;
        };
        let Some(name) = root
            .pointer(node)
            .and_then(|m| m.get(k))
            .and_then(Value::as_str)
        else {
            return false;
        };
        self.named
            .get_or_init(|| named_anchors(root))
            .contains(&(node.to_string(), name.to_string()))
    }

    /// Whether a `$ref` written outside the place `at` of the tool's schema resolves to it or
    /// into it.
    pub(super) fn reached_from_outside(&self, tool: &Tool, at: &str) -> bool {
        let Some(root) = tool.parameters.as_ref() else {
            return false;
        };
        let within = |p: &str| {
            p.strip_prefix(at)
                .is_some_and(|r| r.is_empty() || r.starts_with('/'))
        };
        self.reached
            .get_or_init(|| reached(root))
            .iter()
            .any(|(holder, target)| within(target) && !within(holder))
    }

    /// Why the tool's `$ref`s cannot all be inlined, if they cannot.
    pub(super) fn inlining_refused(
        &self,
        tool: &Tool,
        conflicts: Conflicts,
    ) -> Option<&crate::repair::refs::Refusal> {
        self.inlining
            .get_or_init(|| {
                let root = tool.parameters.as_ref()?;
                crate::repair::refs::inline_with(root, self.max_inline_nodes, conflicts).err()
            })
            .as_ref()
    }
}

/// Where each `$ref` of `root` is written and the place it resolves to ([`Memo::reached`]).
/// One walk, each `$ref` resolved once, the declarations searched once; none without a `$ref`.
fn reached(root: &Value) -> Vec<(String, String)> {
    if RefList::of(root).is_empty() {
        return Vec::new();
    }
    let _declarations = crate::schema::refs::indexed(root);
    let mut reached = Vec::new();
    for n in &crate::schema::walk(root).nodes {
        if let Some(r) = n
            .object()
            .and_then(|o| o.get("$ref"))
            .and_then(Value::as_str)
            && let crate::schema::refs::Step::Local(_, target) =
                crate::schema::refs::step_from(root, &n.pointer, r)
        {
            reached.push((n.pointer.clone(), target));
        }
    }
    reached
}

/// Each plain name a `$ref` of `root` names an anchor by, with the place that declares it
/// ([`Memo::named`]). One walk, each `$ref` resolved once, the declarations searched once.
fn named_anchors(root: &Value) -> HashSet<(String, String)> {
    use crate::schema::refs::{Sought, Step};
    let _declarations = crate::schema::refs::indexed(root);
    let mut named = HashSet::new();
    for n in &crate::schema::walk(root).nodes {
        let Some(r) = n
            .object()
            .and_then(|o| o.get("$ref"))
            .and_then(Value::as_str)
        else {
            continue;
        };
        // A JSON Pointer fragment (or none) names no anchor.
        let Some((_, name)) = r
            .split_once('#')
            .filter(|(_, f)| !f.is_empty() && !f.starts_with('/'))
        else {
            continue;
        };
        match crate::schema::refs::step_from(root, &n.pointer, r) {
            Step::Local(_, at) => {
                named.insert((at, name.to_string()));
            }
            // Either may be the one meant: dropping one would make the `$ref` name the other.
            Step::Ambiguous(t) if t.sought == Sought::Anchor => {
                for at in t.at {
                    named.insert((at, name.to_string()));
                }
            }
            _ => {}
        }
    }
    named
}

/// The anchor `k` at `node`, which a `$ref` names, dropped after every `$ref` of the tool is
/// inlined (so none names it any more); an anchor inside the dropped `$defs` goes with them.
/// Errs as [`inline_refs`] does.
fn inline_then_drop(
    tool: &Tool,
    rule: &str,
    own: &str,
    node: &str,
    k: &str,
    max_nodes: usize,
    conflicts: Conflicts,
) -> Found {
    inline_refs(tool, rule, own, max_nodes, conflicts)?
        .into_iter()
        .map(|c| {
            c.then(tool, |t, changes| {
                let at = t
                    .parameters
                    .as_mut()
                    .and_then(|p| p.pointer_mut(node))
                    .and_then(Value::as_object_mut);
                if let Some(m) = at
                    && let Some(v) = m.shift_remove(k)
                {
                    changes.push(change(
                        own,
                        rule,
                        format!(
                            "dropped `{k}: {}` (no `$ref` names it once inlined)",
                            show(&v)
                        ),
                        Some(format!("the annotation `{k}: {}`", show(&v))),
                    ));
                }
            })
        })
        .collect()
}

/// Drops the root's `$id`. A `$ref` that names the schema by that `$id`
/// (`https://ex.com/s#/$defs/A`) is written as the same reference into this schema
/// (`#/$defs/A`) first: without the `$id` it would name another document.
/// Whether dropping the `$id` of the subschema at `node` changes what a `$ref` of the tool
/// names (a remote or a different target).
fn names_change(tool: &Tool, node: &str) -> bool {
    let Some(root) = tool.parameters.as_ref() else {
        return false;
    };
    let mut without = root.clone();
    let Some(Value::Object(m)) = without.pointer_mut(node) else {
        return false;
    };
    m.remove("$id");
    m.remove("id");
    crate::schema::walk(root).nodes.iter().any(|n| {
        n.object()
            .and_then(|o| o.get("$ref"))
            .and_then(Value::as_str)
            .is_some_and(|r| {
                crate::schema::refs::step_from(root, &n.pointer, r)
                    != crate::schema::refs::step_from(&without, &n.pointer, r)
            })
    })
}

/// Each `$ref` of `root` that names the schema by the root's `$id`, with its place and the
/// reference into the schema (`#...`) [`drop_root_id`] writes for it.
fn named_by_root_id(root: &Value) -> Vec<(String, String)> {
    crate::schema::walk(root)
        .nodes
        .iter()
        .filter_map(|n| {
            let r = n.object()?.get("$ref")?.as_str()?;
            let fragment = crate::schema::refs::fragment(root, r)?;
            (!r.is_empty() && !r.starts_with('#'))
                .then(|| (n.pointer.clone(), format!("#{fragment}")))
        })
        .collect()
}

/// Whether every `$ref` of the tool names the same place once [`drop_root_id`] has written
/// the root's `$id` out of them and dropped it: not so for one inside a subschema with its own
/// `$id`, where `#...` is read against that resource.
fn root_id_rewrite_keeps_targets(tool: &Tool) -> bool {
    let Some(root) = tool.parameters.as_ref() else {
        return true;
    };
    let mut after = root.clone();
    for (at, reference) in named_by_root_id(root) {
        if let Some(Value::Object(m)) = after.pointer_mut(&at) {
            m.insert("$ref".into(), json!(reference));
        }
    }
    if let Value::Object(m) = &mut after {
        m.shift_remove("$id");
    }
    let place = |root: &Value, at: &str| {
        let r = root.pointer(at)?.get("$ref")?.as_str()?;
        match crate::schema::refs::step_from(root, at, r) {
            crate::schema::refs::Step::Local(_, pointer) => Some(pointer),
            _ => None,
        }
    };
    crate::schema::walk(root)
        .nodes
        .iter()
        .all(|n| place(root, &n.pointer) == place(&after, &n.pointer))
}

fn drop_root_id(tool: &Tool, rule: &str) -> Found {
    let root = tool.parameters.as_ref().ok_or("no schema")?;
    let named = named_by_root_id(root);
    if named.is_empty() {
        return drop_keyword(tool, rule, "", "$id", true);
    }
    let id = show(root.get("$id").unwrap_or(&Value::Null));
    let mut d = Draft::of(tool);
    for (at, reference) in &named {
        d.schema(at)?.insert("$ref".into(), json!(reference));
    }
    d.schema("")?.shift_remove("$id");
    Ok(vec![Candidate::one(
        d,
        "/$id",
        rule,
        match named.len() {
            1 => format!(
                "dropped `$id: {id}`, first writing the `$ref` that named the schema by it as a \
                 reference into the schema (`#...`)"
            ),
            n => format!(
                "dropped `$id: {id}`, first writing the {n} `$ref`s that named the schema by it \
                 as references into the schema (`#...`)"
            ),
        },
        Some(format!("the annotation `$id: {id}`")),
    )])
}

/// Why the `$ref` of the subschema at `node`, whose chain reaches no schema (a cycle, or past
/// the hop limit), is refused, in the words every command uses for it
/// ([`crate::schema::refs::chain_problem`]). Said of that `$ref`'s own text: each place of the
/// kind holds its own (`A → B` and `B → A` in one cycle), so the reason found at one is not
/// another's ([`super::own_reason`]). Errs when `node` holds no schema.
pub(super) fn chain_refused(tool: &Tool, node: &str) -> Result<String, String> {
    let map = schema_at(tool, node)?;
    let text = map.get("$ref").and_then(Value::as_str).unwrap_or_default();
    let root = tool.parameters.as_ref().ok_or("no schema")?;
    let chain = crate::schema::refs::follow_from(root, node, text);
    Ok(
        crate::schema::refs::chain_problem(text, &chain).unwrap_or_else(|| {
            format!("`$ref` to `{text}` never reaches a schema toolwire can write out")
        }),
    )
}

/// A `type`, `title` or `default` beside the `$ref` at `node` dropped, the reference kept (a
/// target that allows `$ref` may allow only `description` and `default` beside it). A `type`
/// the reference's target declares too loses nothing; any other is reported as no longer
/// enforced, as a dropped narrowing keyword is.
fn drop_ref_sibling(tool: &Tool, rule: &str, node: &str, sibling: &str) -> Found {
    let map = schema_at(tool, node)?;
    let v = map
        .get(sibling)
        .ok_or_else(|| format!("no `{sibling}` beside the `$ref` at {node:?}"))?
        .clone();
    let reference = map.get("$ref").and_then(Value::as_str).unwrap_or_default();
    let root = tool.parameters.as_ref().ok_or("no schema")?;
    if !crate::repair::refs::ref_siblings_apply(root) {
        return ignored_siblings_dropped(tool, rule, node, &[sibling]);
    }
    let declared_by_target = sibling == "type"
        && matches!(crate::schema::refs::follow_from(root, node, reference),
            crate::schema::refs::Chain::Reaches { schema, .. } if schema.get("type") == Some(&v));
    if !declared_by_target {
        return drop_keyword(tool, rule, node, sibling, false);
    }
    let t = edited(tool, node, |m| {
        m.shift_remove(sibling);
    })?;
    Ok(vec![Candidate::one(
        t,
        &f_at(node, sibling),
        rule,
        format!(
            "dropped `type: {}` beside `$ref: {reference}`, whose target declares the same type",
            show(&v)
        ),
        None,
    )])
}

/// Drops `keys` beside the `$ref` at `node` where the draft the root's `$schema` declares (04
/// to 07) ignores them (draft-07 core §8.3: "All other properties in a \"$ref\" object MUST be
/// ignored"): they constrained nothing, so nothing is lost (trial 57 D7: each was reported lost,
/// "`toolwire args` still checks it", which `args`, reading that draft, does not).
fn ignored_siblings_dropped(tool: &Tool, rule: &str, node: &str, keys: &[&str]) -> Found {
    let map = schema_at(tool, node)?;
    let changes = keys
        .iter()
        .map(|k| {
            let v = map
                .get(*k)
                .ok_or_else(|| format!("no `{k}` beside the `$ref` at {node:?}"))?;
            Ok(change(
                &f_at(node, k),
                rule,
                format!(
                    "dropped `{k}: {}`, which the draft the root's `$schema` declares ignores \
                     beside a `$ref` (it constrained nothing)",
                    show(v)
                ),
                None,
            ))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let t = edited(tool, node, |m| {
        for k in keys {
            m.shift_remove(*k);
        }
    })?;
    Ok(vec![Candidate::many(t, changes)])
}

/// Drops every sibling of the `$ref` at `node` that `$ref (with other keywords)` is about
/// ([`crate::profile::rules::ref_unsupported::other_siblings`]), each as a plain drop reports
/// it (what it narrowed is lost); `description`, `type`, `title` and `default` are left to
/// their own findings, so that a target allowing `default` keeps it.
fn drop_other_ref_siblings(tool: &Tool, rule: &str, node: &str) -> Found {
    let map = schema_at(tool, node)?;
    let others: Vec<String> = crate::profile::rules::ref_unsupported::other_siblings(map)
        .map(String::from)
        .collect();
    if others.is_empty() {
        return Err(format!("no other keyword beside the `$ref` at {node:?}"));
    }
    if tool
        .parameters
        .as_ref()
        .is_some_and(|root| !crate::repair::refs::ref_siblings_apply(root))
    {
        let others: Vec<&str> = others.iter().map(String::as_str).collect();
        return ignored_siblings_dropped(tool, rule, node, &others);
    }
    let mut t = tool.clone();
    let mut changes = Vec::new();
    for k in &others {
        // The plain drop is the last candidate `drop_keyword` offers (without `describe`, the
        // only one).
        let c = drop_keyword(&t, rule, node, k, false)?
            .pop()
            .ok_or_else(|| format!("`{k}` beside the `$ref` at {node:?} cannot be dropped"))?;
        t = c.rewrite.applied_to(&t)?;
        changes.extend(c.changes);
    }
    Ok(vec![Candidate::many(t, changes)])
}

/// Every local `$ref` of the tool inlined, or why not, said of the finding's place `own`.
pub(super) fn inline_refs(
    tool: &Tool,
    rule: &str,
    own: &str,
    max_nodes: usize,
    conflicts: Conflicts,
) -> Found {
    let schema = tool.parameters.as_ref().ok_or("no schema")?;
    match inlined(schema, rule, max_nodes, conflicts) {
        Ok((out, changes)) => {
            if changes.is_empty() {
                // Inlined already (by the rewrite of another of its references).
                return Err("no `$ref` or `$defs` left to inline".into());
            }
            let mut t = tool.clone();
            t.parameters = Some(out);
            Ok(vec![Candidate::many(t, changes)])
        }
        Err(r) => Err(crate::repair::refs::refusal_text_for(&r, own)),
    }
}

/// `schema` with every local `$ref` inlined ([`crate::repair::refs::inline_with`]), and the
/// lines (of rule `rule`) saying so: each `$ref` inlined, with the definition's annotations a
/// keyword beside it replaced, and each container of definitions dropped. What repair writes
/// for a target that takes no `$ref`, and compile for a strict form where a `$ref` has
/// keywords beside it ([`crate::compile::wire`]).
pub(crate) fn inlined(
    schema: &Value,
    rule: &str,
    max_nodes: usize,
    conflicts: Conflicts,
) -> Result<(Value, Vec<Change>), crate::repair::refs::Refusal> {
    let (out, done, dropped) = crate::repair::refs::inline_with(schema, max_nodes, conflicts)?;
    let mut changes: Vec<Change> = done
        .iter()
        .map(|d| {
            let lost = (!d.replaced.is_empty()).then(|| {
                let said: Vec<String> = d
                    .replaced
                    .iter()
                    .map(|(k, v)| format!("`{k}: {}`", show(v)))
                    .collect();
                format!(
                    "the definition's {}, replaced by the one beside the `$ref`",
                    said.join(", ")
                )
            });
            let action = match &d.all_of {
                Some(c) => format!(
                    "inlined `$ref: {}` as the first branch of an `allOf` whose second \
                     holds the keywords beside it ({}, and both apply)",
                    d.reference,
                    c.kept_apart()
                ),
                None => format!("inlined `$ref: {}`", d.reference),
            };
            change(&d.pointer, rule, action, lost)
        })
        .collect();
    for at in dropped {
        let k = at.rsplit('/').next().unwrap_or_default().to_string();
        changes.push(change(
            &at,
            rule,
            format!("dropped `{k}` (every reference to it is inlined)"),
            None,
        ));
    }
    Ok((out, changes))
}

fn is_null_schema(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("null")
        && v.as_object().is_some_and(|o| {
            o.keys()
                .all(|k| ["type", "description", "title"].contains(&k.as_str()))
        })
}

fn has_null_branch(map: &Map<String, Value>, k: &str) -> bool {
    map.get(k)
        .and_then(Value::as_array)
        .is_some_and(|b| b.iter().any(is_null_schema))
}

/// Why a combinator could not be rewritten.
fn not_a_list(k: &str) -> String {
    format!("`{k}` is not a list of schemas")
}

/// `anyOf: [X, {type: null}]` → X, optional.
fn null_branch(tool: &Tool, rule: &str, node: &str, k: &str) -> Found {
    let map = schema_at(tool, node)?;
    let branches = map
        .get(k)
        .and_then(Value::as_array)
        .ok_or_else(|| not_a_list(k))?;
    let rest: Vec<&Value> = branches.iter().filter(|b| !is_null_schema(b)).collect();
    let mut merged = map.clone();
    merged.shift_remove(k);
    match rest.as_slice() {
        [one] => {
            let Some(inner) = one.as_object() else {
                return Err("the non-null branch is not an object schema".into());
            };
            for (key, v) in inner {
                match merged.get(key) {
                    Some(outer) if outer != v => {
                        if !["description", "title", "default"].contains(&key.as_str()) {
                            return Err(format!(
                                "the branch's `{key}` differs from the one next to `{k}`"
                            ));
                        }
                    }
                    _ => {
                        merged.insert(key.clone(), v.clone());
                    }
                }
            }
        }
        [] => return Err("every branch is null".into()),
        more => {
            merged.insert(
                k.into(),
                Value::Array(more.iter().map(|v| (*v).clone()).collect()),
            );
        }
    }
    let mut out = Vec::new();
    let mut optional = Draft::of(tool);
    *optional.schema(node)? = merged.clone();
    if let Some(lost) = make_optional(&mut optional, node) {
        out.push(Candidate::one(
            optional,
            &f_at(node, k),
            rule,
            format!("removed the null branch of `{k}` and made the argument optional"),
            Some(lost.into()),
        ));
    }
    let mut without_null = Draft::of(tool);
    *without_null.schema(node)? = merged.clone();
    let without_null = Candidate::one(
        without_null,
        &f_at(node, k),
        rule,
        format!("removed the null branch of `{k}`"),
        Some(NULL_DROPPED_LOSS.into()),
    );
    let mut nullable = Draft::of(tool);
    let mut with = merged;
    with.insert("nullable".into(), json!(true));
    *nullable.schema(node)? = with;
    out.push(
        Candidate::one(
            nullable,
            &f_at(node, k),
            rule,
            format!("wrote the null branch of `{k}` as `nullable: true`"),
            None,
        )
        .nullable(without_null),
    );
    Ok(out)
}

/// Keys that stay beside `anyOf` when its siblings move into the branches.
const STAY_BESIDE_ANY_OF: &[&str] = &["anyOf", "description", "title"];

/// Whether the siblings of `anyOf` in `map` can move into every branch without changing the
/// arguments, or why not: a branch that is no object schema (`true` is taken as `{}`), or a
/// sibling a branch says otherwise. What `anyof-with-siblings` marks repairable.
pub fn any_of_siblings_movable(map: &Map<String, Value>) -> Result<(), String> {
    let branches = map
        .get("anyOf")
        .and_then(Value::as_array)
        .ok_or_else(|| not_a_list("anyOf"))?;
    let siblings = map
        .iter()
        .filter(|(k, _)| !STAY_BESIDE_ANY_OF.contains(&k.as_str()));
    for (k, v) in siblings {
        for b in branches {
            // `true` is `{}` (2020-12 core §4.3.2): it has no keyword to contradict, and takes
            // the siblings as `{}` does (trial 61 D3).
            if *b == Value::Bool(true) {
                continue;
            }
            let Some(o) = b.as_object() else {
                return Err("a branch of `anyOf` is not an object schema".into());
            };
            if o.get(k).is_some_and(|existing| existing != v) {
                return Err(format!(
                    "`{k}` next to `anyOf` contradicts a branch's own `{k}`; moving it in would change the arguments"
                ));
            }
        }
    }
    Ok(())
}

/// `anyOf` with siblings: the siblings (other than annotations) move into every branch.
fn push_siblings(tool: &Tool, rule: &str, node: &str) -> Found {
    let map = schema_at(tool, node)?;
    any_of_siblings_movable(map)?;
    let mut branches = map
        .get("anyOf")
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| not_a_list("anyOf"))?;
    for b in branches.iter_mut().filter(|b| **b == Value::Bool(true)) {
        *b = json!({});
    }
    let mut keep = Map::new();
    for (k, v) in map {
        if STAY_BESIDE_ANY_OF.contains(&k.as_str()) {
            keep.insert(k.clone(), v.clone());
            continue;
        }
        for o in branches.iter_mut().filter_map(Value::as_object_mut) {
            o.insert(k.clone(), v.clone());
        }
    }
    keep.insert("anyOf".into(), Value::Array(branches));
    let mut t = Draft::of(tool);
    *t.schema(node)? = keep;
    Ok(vec![Candidate::one(
        t,
        &f_at(node, "anyOf"),
        rule,
        "moved the keywords next to `anyOf` into each branch",
        None,
    )])
}

/// Whether an object schema names its members in a non-empty `properties`: then
/// `additionalProperties`/`patternProperties` only narrow what extra members may hold, and
/// repair may drop them; otherwise they are the only description of the members.
pub fn declares_members(map: &Map<String, Value>) -> bool {
    map.get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty())
}

/// Whether at most one of `branches` can match any value: each has one `type`, all different
/// (`integer` overlaps `number`). Such a `oneOf` means the same as `anyOf`, which repair
/// writes instead.
pub fn branches_exclusive(branches: &[Value]) -> bool {
    let types: Vec<Option<&str>> = branches
        .iter()
        .map(|b| b.get("type").and_then(Value::as_str))
        .collect();
    types.iter().all(Option::is_some)
        && types.iter().enumerate().all(|(i, t)| {
            let overlaps_number = t == &Some("integer") && types.contains(&Some("number"));
            !(types[..i].contains(t) || overlaps_number)
        })
}

/// Whether `oneOf` in `map` is one repair rewrites: a null branch (made optional or
/// `nullable`) or `branches_exclusive`.
pub fn one_of_repairable(map: &Map<String, Value>) -> bool {
    has_null_branch(map, "oneOf")
        || map
            .get("oneOf")
            .and_then(Value::as_array)
            .is_some_and(|b| branches_exclusive(b))
}

/// `oneOf` whose branches each have one `type`, all different: exactly one branch can match,
/// so it means the same as `anyOf`.
fn one_of_as_any_of(tool: &Tool, rule: &str, node: &str) -> Found {
    let map = schema_at(tool, node)?;
    let branches = map
        .get("oneOf")
        .and_then(Value::as_array)
        .ok_or_else(|| not_a_list("oneOf"))?;
    if !branches_exclusive(branches) {
        return Err(
            "`oneOf` whose branches may overlap: no single schema says \"exactly one\"".into(),
        );
    }
    let mut t = Draft::of(tool);
    let m = t.schema(node)?;
    let v = m.shift_remove("oneOf").unwrap_or(Value::Null);
    m.insert("anyOf".into(), v);
    Ok(vec![Candidate::one(
        t,
        &f_at(node, "oneOf"),
        rule,
        "wrote `oneOf` as `anyOf` (its branches have different types, so at most one matches)",
        None,
    )])
}

/// The `enum` of schema `map` when it does not hold the value of the `const` beside it (numbers
/// compared by value): no value satisfies both, so repair refuses the `const` (check marks it
/// unrepairable).
pub fn const_outside_enum(map: &Map<String, Value>) -> Option<&Vec<Value>> {
    let v = map.get("const")?;
    let same = |a: &Value| a == v || (a.is_number() && a.as_f64() == v.as_f64());
    map.get("enum")
        .and_then(Value::as_array)
        .filter(|list| !list.iter().any(same))
}

/// Why repair refuses the `const` of schema `map`, a reason of its place: the `enum` beside it
/// does not hold its value ([`const_outside_enum`]).
pub(super) fn const_refused(map: &Map<String, Value>) -> Option<String> {
    let list = const_outside_enum(map)?;
    Some(format!(
        "no value satisfies both `const: {}` and the `enum` beside it ({}): the schema accepts \
         no value, which no rewrite of it says",
        show(map.get("const")?),
        show(&Value::Array(list.clone()))
    ))
}

/// Whether the `allOf` of the schema at `pointer` in `root` is one repair rewrites
/// ([`all_of_merged`]): check marks it repairable exactly then. `refs`: the `$ref`s of `root`.
pub fn all_of_repairable(root: &Value, pointer: &str, refs: &RefList) -> bool {
    root.pointer(pointer)
        .and_then(Value::as_object)
        .is_some_and(|map| all_of_outcome(root, pointer, map, &|p| refs.points_under(p)).is_ok())
}

/// Why the `allOf` of the schema at `node` is not merged ([`all_of_merged`]), a
/// reason of that place: another `allOf` of the tool may merge (trial 50 D3: the first one's
/// reason was given to every later one). `memo`: the [`Memo`] of `tool`'s schema.
pub(super) fn all_of_refused(tool: &Tool, node: &str, memo: &Memo) -> Option<String> {
    let root = tool.parameters.as_ref()?;
    let refs = memo.refs.get_or_init(|| RefList::of(root));
    all_of_outcome(root, node, schema_at(tool, node).ok()?, &|p| {
        refs.points_under(p)
    })
    .err()
}

/// Whether merging the `allOf` of the schema at `pointer` in `root`
/// ([`all_of_merged`]) gives it a non-empty `properties`: the members of an object that
/// declares them only in its branches (`object-properties-missing` is repaired so). `refs`:
/// the `$ref`s of `root`.
pub fn all_of_declares_members(root: &Value, pointer: &str, refs: &RefList) -> bool {
    root.pointer(pointer)
        .and_then(Value::as_object)
        .filter(|map| map.contains_key("allOf"))
        .and_then(|map| all_of_outcome(root, pointer, map, &|p| refs.points_under(p)).ok())
        .is_some_and(|m| {
            m.get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty())
        })
}

/// What [`all_of_merged`] answers of the schema `map` at `pointer` in `root`, for a caller that
/// reads only whether it merges (its reason if not) and the names the merged `properties`
/// declare: the merged schema, each member's schema in it `null` where no name is declared
/// twice ([`members_set_aside`]). Check asks this of every `allOf` of a tool, each holding
/// the schemas nested below it: copied whole, a chain of N `allOf` levels cost O(N²) values
/// a check and repair's N rounds (one merge each) O(N³) (trial 67 D1: 120 levels took 26 s
/// to repair, debug build).
fn all_of_outcome(
    root: &Value,
    pointer: &str,
    map: &Map<String, Value>,
    ref_points_under: &dyn Fn(&str) -> bool,
) -> Result<Map<String, Value>, String> {
    let aside = members_set_aside(map);
    let map = aside.as_ref().unwrap_or(map);
    all_of_merged(root, pointer, map, ref_points_under).map(|(merged, _)| merged)
}

/// A copy of schema `map` with the schema of each member its `properties` declares written
/// `null`, and so of each branch of its `allOf` (and of theirs, and so on), the rest copied;
/// `None` where a name is declared twice among them or a `properties` is no object. The
/// merge reads a member's schema only to compare it with another of the same name
/// ([`crate::repair::refs::conflict`]), else moves it whole into the pooled `properties`
/// ([`crate::repair::refs::join`]), and two `properties` maps declaring no name in common are
/// equal only when both are empty; so with no name twice, merging the copy answers as merging
/// `map` does, without copying what the members nest.
fn members_set_aside(map: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut names = HashSet::new();
    set_aside(map, &mut names)
}

/// [`members_set_aside`] of one schema, the names seen so far in `names`. Recursion follows
/// only `allOf` branches, as deep as the input's nesting cap.
fn set_aside<'m>(
    map: &'m Map<String, Value>,
    names: &mut HashSet<&'m str>,
) -> Option<Map<String, Value>> {
    let mut out = Map::new();
    for (k, v) in map {
        let copy = match (k.as_str(), v) {
            ("properties", Value::Object(members)) => {
                let mut aside = Map::new();
                for name in members.keys() {
                    if !names.insert(name) {
                        return None;
                    }
                    aside.insert(name.clone(), Value::Null);
                }
                Value::Object(aside)
            }
            ("properties", _) => return None,
            ("allOf", Value::Array(branches)) => {
                let mut copies = Vec::with_capacity(branches.len());
                for b in branches {
                    copies.push(match b {
                        Value::Object(b) => Value::Object(set_aside(b, names)?),
                        other => other.clone(),
                    });
                }
                Value::Array(copies)
            }
            _ => v.clone(),
        };
        out.insert(k.clone(), copy);
    }
    Some(out)
}

/// Keywords whose meaning depends on others of the same schema object beyond the groups
/// [`crate::repair::refs`] already keeps apart, so that moving one of them into another
/// schema object changes what it says: `unevaluatedProperties`/`unevaluatedItems` see what
/// the applicators (`$ref`, `anyOf`, ...) of their own schema evaluate (JSON Schema 2020-12
/// §11), which merging changes whichever side holds them.
const READ_IN_PLACE: &[&str] = &["unevaluatedProperties", "unevaluatedItems"];

/// `map` (the schema at `pointer` in `root`) with the branches of its `allOf` merged in, one
/// after another, and the `allOf` they bring after them, and so on: each branch's keywords
/// join the schema where one schema says both, as keywords beside a `$ref` join its target
/// ([`crate::repair::refs::join`]): `properties` declaring other names are pooled, `required`
/// lists united, two bounds or `type`s written as their conjunction, a keyword set alike kept
/// once. Annotations set apart: `description`s joined, the schema's first (JSON Schema 2020-12
/// core §7.7.1 collects the annotations of every branch, so each text describes the value);
/// of another annotation (`title`, `default`, ...), which holds one value, the schema's own
/// kept, else the first branch's, and the others said lost ([`Said`]). `allOf` applies every
/// branch to the same value (JSON Schema 2020-12 core §10.2.1.1), so merging them all is
/// exact when each merge is.
/// Errors: why not (an empty list, a branch that is not an object schema (`true` is merged as
/// `{}`, the same schema), a keyword two of
/// them set differently that no one value says, keywords read with others of their own schema
/// (`additionalProperties` beside the branch's `properties`, `minContains` beside its
/// `contains`, a draft-04 boolean `exclusiveMinimum` beside a `minimum`, [`READ_IN_PLACE`]),
/// a `$ref` the merge would put beside other keywords where `$schema` declares a draft that
/// ignores them (04 to 07), a `const` it would put beside an `enum` not holding its value, or
/// a `$ref` of `root` pointing into the branch: `ref_points_under` says whether one starts with
/// a given decoded prefix).
fn all_of_merged(
    root: &Value,
    pointer: &str,
    map: &Map<String, Value>,
    ref_points_under: &dyn Fn(&str) -> bool,
) -> Result<(Map<String, Value>, Said), String> {
    let into_branch = format!("#{pointer}/allOf");
    if ref_points_under(&into_branch) {
        return Err(format!(
            "a `$ref` points into the `allOf` (`{into_branch}...`), which merging would leave \
             pointing nowhere"
        ));
    }
    #[cfg(test)]
    VALUES_MERGED.with(|c| c.set(c.get() + crate::json::value_count(&Value::Object(map.clone()))));
    let mut merged = map.clone();
    let mut said = Said::default();
    let Some(all_of) = merged.shift_remove("allOf") else {
        return Ok((merged, said));
    };
    // The branches are merged depth first, in document order: a branch, then its own
    // `allOf`'s branches, then the next branch, so descriptions are joined in the order they
    // are written and "the first branch's" annotation is the first written (trial 58 D6: a
    // nested `allOf` merged after every outer branch gave "X. Z. Y." and kept branch 1's
    // `title` over branch 0's, said as "replaced by the schema's own"). A stack, not
    // recursion: its depth is the input's nesting. Each branch is taken, not copied: a chain
    // of N levels costs O(N) here, and check asks this of each of its N `allOf`s (trial 47
    // D8: copying made that cubic, 250 levels in 2.6 KB took seconds).
    let branches = branches_of(all_of)?;
    let mut stack = vec![(
        "allOf".to_string(),
        branches.len() > 1,
        branches.into_iter().enumerate(),
    )];
    let mut first = true;
    while let Some((at, several, branches)) = stack.last_mut() {
        let Some((i, mut branch)) = branches.next() else {
            stack.pop();
            continue;
        };
        // Several branches are merged one after another, each with what the schema and the
        // branches before it set: `allOf: [A, B]` asks what `allOf: [A]` merged and then
        // `allOf: [B]` merged ask, so each step is exact when it is (trial 55 D9: two object
        // branches declaring other members were refused as "could change the arguments").
        // A nested `allOf` is named by its place under the schema's (`allOf/0/allOf`).
        let (branch_name, whose) = match (*several, at.as_str()) {
            (true, _) => (format!("`{at}` branch {i}"), format!("`{at}` branch {i}'s")),
            (false, "allOf") => ("the branch".to_string(), "`allOf`'s".to_string()),
            (false, _) => (format!("the branch of `{at}`"), format!("`{at}`'s")),
        };
        let named = Named {
            branch: branch_name,
            whose,
            own: if first {
                "the schema's own"
            } else {
                "the schema's own or an earlier branch's"
            },
        };
        let inner = branch.as_object_mut().and_then(|b| b.shift_remove("allOf"));
        let place = format!("{at}/{i}/allOf");
        merge_branch(root, &mut merged, branch, &named, &mut said)?;
        first = false;
        if let Some(inner) = inner {
            let inner = branches_of(inner)?;
            stack.push((place, inner.len() > 1, inner.into_iter().enumerate()));
        }
    }
    Ok((merged, said))
}

#[cfg(test)]
thread_local! {
    /// The values of the schemas [`all_of_merged`] has copied on this thread: what a check of
    /// `allOf`s costs, for the tests that pin it.
    pub static VALUES_MERGED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Description `d` with a branch's `more` after it ([`appended`]), or `None` where `d` says
/// `more` already, as whole sentences with its final stop aside ("The ID" says "The ID.":
/// trial 58 D6 joined them as "The ID. The ID."); `more` alone where it starts with what `d`
/// says. Not a mere substring: "Not in UTC." does not say "in UTC.".
fn descriptions_joined(d: &str, more: &str) -> Option<String> {
    let more = more.trim();
    if sentences_at(d, more).is_some() {
        return None;
    }
    Some(match sentences_at(more, d) {
        Some(0) => more.to_string(),
        _ => appended(d, more),
    })
}

/// Where `text` holds `part` (trimmed, its final `.`, `!` or `?` aside) as whole sentences:
/// at its start or where a sentence starts ([`sentence_ends`]), and followed by its end or by
/// a sentence's end. `None` where it does not (`Some(0)` for an empty `part`).
fn sentences_at(text: &str, part: &str) -> Option<usize> {
    let (text, part) = (text.trim(), part.trim().trim_end_matches(STOPS));
    if part.is_empty() {
        return Some(0);
    }
    text.match_indices(part).map(|(at, _)| at).find(|&at| {
        let before = text[..at].trim_end();
        let end = at + part.len();
        (at == 0
            || (before.len() < at
                && before.ends_with(STOPS)
                && sentence_ends(text, before.trim_end_matches(STOPS).len())))
            && (end == text.len() || sentence_ends(text, end))
    })
}

/// What ends a sentence.
const STOPS: [char; 3] = ['.', '!', '?'];

/// Whether a sentence of `text` ends at byte `at` (its stops after): at the text's end (stops
/// aside), or where stops follow, then a space and a word not starting in lower case, and the
/// word before is no abbreviation ([`abbreviation`]). A stop read as no end makes a text not
/// said and so joined, which loses nothing: trial 59 D16 took "e.g. EUR." for two sentences and
/// dropped a branch's "EUR." unsaid.
fn sentence_ends(text: &str, at: usize) -> bool {
    let rest = &text[at..];
    let after = rest.trim_start_matches(STOPS);
    if after.trim().is_empty() {
        return true;
    }
    let stops = &rest[..rest.len() - after.len()];
    let word = text[..at].rsplit(char::is_whitespace).next().unwrap_or("");
    let abbreviated = stops.starts_with('.') && abbreviation(word);
    !stops.is_empty()
        && after.starts_with(char::is_whitespace)
        && !after.trim_start().starts_with(char::is_lowercase)
        && !abbreviated
}

/// Whether `word`, before a `.`, may be an abbreviation the stop belongs to: one with a stop
/// inside ("e.g", "U.S"), a single letter (an initial), or a common one ("etc", "vs").
fn abbreviation(word: &str) -> bool {
    const COMMON: &[&str] = &[
        "al", "approx", "cf", "co", "corp", "dr", "eg", "esp", "etc", "fig", "ie", "inc", "incl",
        "jr", "ltd", "mr", "mrs", "ms", "no", "nr", "prof", "resp", "sr", "st", "vs",
    ];
    let word = word.trim_start_matches(|c: char| !c.is_alphanumeric());
    word.contains(STOPS)
        || (word.chars().count() == 1 && word.chars().all(char::is_alphabetic))
        || COMMON.contains(&word.to_lowercase().as_str())
}

/// The branches of an `allOf` whose value is `v`; errors: why they cannot be merged (not a
/// list, or an empty one).
fn branches_of(v: Value) -> Result<Vec<Value>, String> {
    match v {
        Value::Array(branches) if branches.is_empty() => Err("`allOf` holds no branch".into()),
        Value::Array(branches) => Ok(branches),
        _ => Err(not_a_list("allOf")),
    }
}

/// What an [`all_of_merged`] did to annotations set apart: whether it joined two
/// `description`s, and each branch's dropped annotations, as loss phrases.
#[derive(Default)]
struct Said {
    joined: bool,
    lost: Vec<String>,
}

/// How [`merge_branch`]'s refusals name the branch (`the branch`, `` `allOf` branch 1 ``), its
/// keywords (`` `allOf`'s ``), and what it is merged into.
struct Named {
    branch: String,
    whose: String,
    own: &'static str,
}

/// Merges the `allOf` branch `branch` into `merged` (the schema of `root` holding the `allOf`,
/// with the branches before it merged), as [`all_of_merged`] says, adding to `said`; errors:
/// why not, in `named`'s words.
fn merge_branch(
    root: &Value,
    merged: &mut Map<String, Value>,
    branch: Value,
    named: &Named,
    said: &mut Said,
) -> Result<(), String> {
    use crate::repair::refs;
    let Named {
        branch: name,
        whose,
        own,
    } = named;
    let mut branch = match branch {
        Value::Object(branch) => branch,
        // `true` is `{}` (JSON Schema 2020-12 core §4.3.2): merged, it adds nothing, as `{}`
        // does (trial 61 D3: refused as "not an object schema" where `{}` was merged).
        Value::Bool(true) => Map::new(),
        _ => return Err(format!("{name} is not an object schema")),
    };
    // A `$ref` may name the branch by it, which the merge would move onto the schema, and
    // the reference would take the schema's own keywords too (trial 50 D18: `$ref: "#S"`
    // took a `maxLength` the branch never had, exit 0).
    if let Some(k) = ["$anchor", "$dynamicAnchor", "$id"]
        .into_iter()
        .find(|k| branch.contains_key(*k))
    {
        return Err(format!(
            "{name} declares `{k}`, which a `$ref` may name it by: merged, the name \
             would stand for the schema holding the `allOf`, with its own keywords"
        ));
    }
    // Annotations the schema (or an earlier branch) sets otherwise were dropped unsaid
    // (trial 57 D3: a branch's "Always in UTC; never send local time." went, 0 losses).
    let mut lost = Vec::new();
    branch.retain(|k, v| {
        let Some(ours) = merged
            .get_mut(k)
            .filter(|_| refs::ANNOTATIONS.contains(&k.as_str()))
        else {
            return true;
        };
        match (k.as_str(), &*ours, &*v) {
            // Equal as JSON Schema values, numbers by value (2020-12 core §4.2.2: `1` is
            // `1.0`): nothing is lost (trial 59 D6 said `default: 1` replaced by `1`).
            (_, ours, v) if crate::repair::conjunction::same(ours, v) => {}
            ("description", Value::String(d), Value::String(more)) => {
                if let Some(both) = descriptions_joined(d, more) {
                    *ours = Value::String(both);
                    said.joined = true;
                }
            }
            _ => lost.push(format!("`{k}: {}`", show(v))),
        }
        false
    });
    if !lost.is_empty() {
        said.lost
            .push(format!("{whose} {}, replaced by {own}", lost.join(", ")));
    }
    if let Some(k) = READ_IN_PLACE
        .iter()
        .find(|k| merged.contains_key(**k) || branch.contains_key(**k))
    {
        return Err(format!(
            "`{k}` is read with the other keywords of its own schema, so merging the \
             `allOf` branch into the schema could change what it accepts"
        ));
    }
    let beside_ref = |a: &Map<String, Value>, b: &Map<String, Value>| {
        a.contains_key("$ref")
            && b.keys()
                .any(|k| !refs::ANNOTATIONS.contains(&k.as_str()) && k != "$ref")
    };
    if !refs::ref_siblings_apply(root)
        && (beside_ref(merged, &branch) || beside_ref(&branch, merged))
    {
        return Err(
            "merging the `allOf` branch would put keywords beside a `$ref`, and the draft \
             the root's `$schema` declares (04 to 07) ignores keywords there"
                .into(),
        );
    }
    if let Some((k, _)) = refs::clash(merged, &branch) {
        return Err(format!("no value satisfies both {whose} `{k}` and {own}"));
    }
    if let Some(c) = refs::conflict(merged, &branch) {
        let k = &c.keyword;
        return Err(match c.target_sets {
            None => format!("{whose} `{k}` conflicts with {own}"),
            Some(j) => format!(
                "{whose} `{k}` and {own} `{j}` are each read with the keywords of their own \
                 schema only, so pooled into one schema they could accept other values"
            ),
        });
    }
    // A `const` one side sets outside the other's `enum` (trial 48 D10), said by value:
    // either may be a `const` repair wrote as a one-value `enum` (trial 50: two `const`s
    // were said as a `const` and an `enum`).
    let apart = const_outside_enum(merged).is_some() || const_outside_enum(&branch).is_some();
    let allowed = |m: &Map<String, Value>| {
        m.get("const")
            .or_else(|| m.get("enum"))
            .map(crate::repair::conjunction::values)
    };
    let (ours, theirs) = (allowed(merged), allowed(&branch));
    refs::join(merged, branch, &mut Vec::new());
    if !apart && const_outside_enum(merged).is_some() {
        return Err(format!(
            "no value satisfies both the values the schema allows ({}) and those its \
             `allOf` branch allows ({}): the schema accepts no value",
            ours.unwrap_or_default(),
            theirs.unwrap_or_default()
        ));
    }
    Ok(())
}

/// `allOf`: its branches' keywords join the schema when none conflicts ([`all_of_merged`]).
/// `memo`: the [`Memo`] whose list of `$ref`s to ask (`None`: walk the schema once for it).
pub(super) fn merge_all_of(tool: &Tool, rule: &str, node: &str, memo: Option<&Memo>) -> Found {
    let root = tool.parameters.as_ref().ok_or("no parameters schema")?;
    let map = schema_at(tool, node)?;
    let (merged, said) = all_of_merged(root, node, map, &|p| match memo {
        Some(memo) => memo.refs.get_or_init(|| RefList::of(root)).points_under(p),
        None => crate::repair::refs::points_under(root, p),
    })?;
    let mut action = match map.get("allOf").and_then(Value::as_array).map(Vec::len) {
        Some(n) if n > 1 => format!("merged the {n} `allOf` branches into the schema"),
        _ => "merged the single `allOf` branch into the schema".into(),
    };
    if said.joined {
        action.push_str(", with the `description`s joined");
    }
    let lost = (!said.lost.is_empty()).then(|| said.lost.join("; "));
    let mut t = Draft::of(tool);
    *t.schema(node)? = merged;
    Ok(vec![Candidate::one(
        t,
        &f_at(node, "allOf"),
        rule,
        action,
        lost,
    )])
}

fn nullable(tool: &Tool, rule: &str, node: &str) -> Found {
    let map = schema_at(tool, node)?;
    let v = map.get("nullable").cloned().unwrap_or(Value::Null);
    let mut t = Draft::of(tool);
    t.schema(node)?.shift_remove("nullable");
    if v == json!(true) {
        let Some(lost) = make_optional(&mut t, node) else {
            return Err("`nullable: true` on a schema that is not a property: null cannot be expressed without it".into());
        };
        return Ok(vec![Candidate::one(
            t,
            &f_at(node, "nullable"),
            rule,
            "dropped `nullable: true` and made the argument optional",
            Some(lost.into()),
        )]);
    }
    Ok(vec![Candidate::one(
        t,
        &f_at(node, "nullable"),
        rule,
        format!("dropped `nullable: {}`, which admits no null", show(&v)),
        None,
    )])
}

/// Removes the `enum` members the schema's `type` rules out (`null` beside `type: string`,
/// common in zod and pydantic output): they could never match, so the argument keeps its
/// place in `required` and nothing is lost.
fn drop_dead_members(tool: &Tool, rule: &str, node: &str) -> Found {
    let map = schema_at(tool, node)?;
    let live =
        crate::json::live_enum_members(map).ok_or("no `enum` member is ruled out by `type`")?;
    let dead: Vec<String> = map
        .get("enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|v| !live.contains(v))
        .map(|v| format!("`{}`", show(v)))
        .collect();
    let ty = match map.get("type") {
        Some(Value::Array(ts)) => format!(
            "[{}]",
            ts.iter().map(type_name).collect::<Vec<_>>().join(", ")
        ),
        Some(t) => type_name(t),
        None => String::new(),
    };
    let mut t = Draft::of(tool);
    t.schema(node)?.insert("enum".into(), Value::Array(live));
    Ok(vec![Candidate::one(
        t,
        &f_at(node, "enum"),
        rule,
        format!(
            "removed {} from `enum`: `type: {ty}` rules {} out, so {} could never match",
            dead.join(", "),
            if dead.len() == 1 { "it" } else { "them" },
            if dead.len() == 1 { "it" } else { "they" },
        ),
        None,
    )])
}

/// A `type` name as the actions write it (`string`, not `"string"`).
fn type_name(t: &Value) -> String {
    t.as_str().map_or_else(|| show(t), str::to_string)
}

fn enum_without_null(tool: &Tool, rule: &str, node: &str) -> Found {
    let mut t = Draft::of(tool);
    let m = t.schema(node)?;
    if let Some(Value::Array(e)) = m.get_mut("enum") {
        e.retain(|v| !v.is_null());
    }
    if let Some(Value::Array(types)) = m.get("type").cloned() {
        let rest: Vec<Value> = types.into_iter().filter(|v| v != "null").collect();
        if rest.len() == 1 {
            m.insert("type".into(), rest[0].clone());
        } else {
            m.insert("type".into(), Value::Array(rest));
        }
    }
    let Some(lost) = make_optional(&mut t, node) else {
        return Err("null in `enum` of a schema that is not a property".into());
    };
    Ok(vec![Candidate::one(
        t,
        &f_at(node, "enum"),
        rule,
        "removed null from `enum` and made the argument optional",
        Some(lost.into()),
    )])
}

/// A whole count written with a fraction part or an exponent (`minLength: 3.0`,
/// keyword-value-invalid's `(decimal)` form) written as its integer literal: the same count
/// under 2020-12 ([`keyword_value_invalid::whole_count`]), so nothing is lost; a parser that
/// takes only an integer literal refused the other spelling. Then, for a profile that rejects
/// the keyword itself, the drops of that count (said and lost as any bound's are).
fn decimal_count(tool: &Tool, rule: &str, node: &str, k: &str) -> Found {
    let map = schema_at(tool, node)?;
    let v = map.get(k).ok_or_else(|| format!("no `{k}` at {node:?}"))?;
    let n = keyword_value_invalid::whole_count(k, v)
        .ok_or_else(|| format!("`{k}` at {node:?} is no whole count written as a decimal"))?;
    let count = Value::from(n);
    // As written (`3.0`): [`show`] would print the integer it stands for.
    let written = crate::report::Shown(v).to_string();
    super::rewritten_then_dropped(
        tool,
        rule,
        node,
        k,
        &count,
        format!(
            "wrote `{k}: {written}` as `{k}: {n}`, the same count without a fraction part \
             (JSON Schema 2020-12 reads both alike)"
        ),
        &format!(" (written `{k}: {written}`)"),
        true,
    )
}
