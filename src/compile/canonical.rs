//! The canonical schema compile starts from: every `type` written with JSON Schema's own
//! names, and no definition that no `$ref` reaches.
//!
//! A known non-standard spelling (`dict`, `float`, `str`, `Integer`, `tuple`, ...: the table
//! of [`crate::profile::feature::type_meant_by`], the one `toolwire repair` rewrites by)
//! means one JSON Schema type, and the canonical schema is what compile produces, so compile
//! writes that type for every target before the target's profile or its offline model is
//! consulted. Waiting for a rejection does not work: some targets' models reject such a
//! schema with an error that names no type (Moonshot: "parameters.type is required and must
//! be \"object\""; llama.cpp: "Unrecognized schema"), and some accept it while a wire form
//! skips the object it does not recognise (Cohere strict's one required property).
//! `toolwire repair` keeps its own policy (a spelling is rewritten only when a target
//! rejects it). A spelling with no portable meaning (`any`, `""`, a `type` that is no
//! string) is left as written: the profile and the model judge it.

use serde_json::Value;

use crate::repair::{Change, Refusal};

/// Why compile rewrites a spelling, appended to each change.
const WHY: &str = "compile writes the canonical schema: JSON Schema's own type names";

/// Writes every known non-standard `type` spelling in `schema` (also inside a list of types)
/// as the JSON Schema type it means. Returns one change per spelling rewritten (pointer: the
/// `type` keyword, or its list element), with what the spelling said that the type does not
/// (`tuple`: a fixed-length tuple) as the loss. A list that names one type twice once
/// rewritten (`["int", "integer"]`) keeps it once.
pub fn write_type_names(schema: &mut Value) -> Vec<Change> {
    write_type_names_because(schema, WHY)
}

/// [`write_type_names`] with another reason in each change's action (`why`, in parentheses
/// after "wrote the type `float` as `number`"): `repair` uses it to keep strict mode.
pub fn write_type_names_because(schema: &mut Value, why: &str) -> Vec<Change> {
    let nodes: Vec<String> = crate::schema::walk(schema)
        .nodes
        .iter()
        .filter(|n| {
            n.object()
                .and_then(|o| o.get("type"))
                .is_some_and(names_known_spelling)
        })
        .map(|n| n.pointer.clone())
        .collect();
    let mut changes = Vec::new();
    for node in nodes {
        let Some(ty) = schema
            .pointer_mut(&node)
            .and_then(Value::as_object_mut)
            .and_then(|o| o.get_mut("type"))
        else {
            continue;
        };
        let at = crate::json::push_token(&node, "type");
        match ty {
            Value::String(s) => {
                if let Some(c) = rewrite(s, &at, why) {
                    changes.push(c);
                }
            }
            Value::Array(list) => {
                for (i, v) in list.iter_mut().enumerate() {
                    if let Value::String(s) = v
                        && let Some(c) =
                            rewrite(s, &crate::json::push_token(&at, &i.to_string()), why)
                    {
                        changes.push(c);
                    }
                }
                let mut seen: Vec<Value> = Vec::new();
                list.retain(|v| {
                    let first = !seen.contains(v);
                    seen.push(v.clone());
                    first
                });
            }
            _ => {}
        }
    }
    changes
}

/// Writes each `true` branch of an `anyOf`, `oneOf` or `allOf` in `schema` as `{}`, the same
/// schema (JSON Schema 2020-12 core §4.3.2), one change each at the branch (rule
/// `boolean-schema`, nothing lost). For the strict forms only: their offline models refuse
/// both spellings for want of a `type` (trial 60 D1), and repair under the strict target's
/// profile, which has no evidence against either, answers `{}` (the `type` of the schema
/// holding the keyword, the `allOf` merged) but not `true` (trial 61 D3: `anyOf: [true]`
/// refused where `anyOf: [{}]` compiled). A plain target's profile judges `true` itself:
/// where it rejects it, repair writes the same `{}`; where it takes it, a rewrite would be a
/// needless change, and a new `type-missing` error where the profile rejects `{}` but says
/// nothing of `true` (moonshot/chat). Cohere's strict model takes both.
pub fn write_true_branches_as_empty(schema: &mut Value) -> Vec<Change> {
    let branches: Vec<String> = crate::schema::walk(schema)
        .nodes
        .iter()
        .filter(|n| {
            *n.value == Value::Bool(true)
                && matches!(n.via, crate::schema::Via::Element { keyword, .. }
                    if ["anyOf", "oneOf", "allOf"].contains(&keyword))
        })
        .map(|n| n.pointer.clone())
        .collect();
    let mut changes = Vec::new();
    for at in branches {
        if let Some(b) = schema.pointer_mut(&at) {
            *b = Value::Object(serde_json::Map::new());
            changes.push(Change {
                pointer: at,
                rule: crate::profile::rules::boolean_schema::RULE.id.into(),
                action: crate::repair::true_branch_written(Some(WHY_TRUE)),
                emptied: false,
                lost: None,
            });
        }
    }
    changes
}

/// Why compile writes a `true` branch `{}`, after why that changes nothing.
const WHY_TRUE: &str = "compile writes the canonical schema: strict mode then repairs it as `{}`";

/// The standard type a spelling means, when it is not that type's name as written.
fn meant(spelling: &str) -> Option<(&'static str, Option<&'static str>)> {
    crate::profile::feature::type_meant_by(spelling).filter(|(std, _)| *std != spelling)
}

/// Whether a `type` value is, or lists, a known non-standard spelling.
fn names_known_spelling(ty: &Value) -> bool {
    match ty {
        Value::String(s) => meant(s).is_some(),
        Value::Array(list) => list
            .iter()
            .any(|v| v.as_str().is_some_and(|s| meant(s).is_some())),
        _ => false,
    }
}

/// Writes `spelling` (at `at`) as the type it means; the change (saying `why`), or `None`
/// when it is standard or unknown.
fn rewrite(spelling: &mut String, at: &str, why: &str) -> Option<Change> {
    let (std, lost) = meant(spelling)?;
    let written = std::mem::replace(spelling, std.to_string());
    Some(Change {
        pointer: at.to_string(),
        rule: crate::profile::rules::type_invalid::RULE.id.into(),
        action: format!("wrote the type `{written}` as `{std}` ({why})"),
        emptied: false,
        lost: lost.map(|l| format!("`{written}` also said {l}")),
    })
}

/// The root's containers of definitions, in the order [`unreached_definitions`] lists them.
const CONTAINERS: [&str; 2] = ["$defs", "definitions"];

/// A definition of the root: its container (`$defs` or `definitions`) and its name.
pub type Definition = (&'static str, String);

/// The root's definition that JSON Pointer `pointer` lies in (or names), if any:
/// `/$defs/a~1b/type` lies in `("$defs", "a/b")`.
pub fn definition_holding(pointer: &str) -> Option<Definition> {
    // Asked of most findings `check` makes, nearly all outside any definition: the container
    // is matched as a prefix first, without splitting the pointer into tokens.
    let rest = pointer.strip_prefix('/')?;
    let (container, below) = CONTAINERS
        .into_iter()
        .find_map(|c| Some((c, rest.strip_prefix(c)?.strip_prefix('/')?)))?;
    let name = below.split_once('/').map_or(below, |(name, _)| name);
    Some((container, unescape(name)))
}

/// Drops the root's definitions (`$defs`, `definitions` members) that no reference reaches
/// ([`unreached_definitions`]): they constrain nothing, and a target that validates the whole
/// schema would refuse the tool for one of them. Returns one change per definition dropped.
pub fn drop_unreferenced_definitions(schema: &mut Value) -> Vec<Change> {
    let unreached = unreached_definitions(schema);
    let Some(root) = schema.as_object_mut() else {
        return Vec::new();
    };
    let mut changes = Vec::new();
    for container in CONTAINERS {
        let Some(Value::Object(defs)) = root.get_mut(container) else {
            continue;
        };
        // One pass, keeping the order: a removal each shifts every definition after it, which
        // made many unreached ones quadratic (trial 42: 100,000 definitions, 35 s).
        let gone: std::collections::HashSet<&str> = unreached
            .iter()
            .filter(|(c, _)| *c == container)
            .map(|(_, name)| name.as_str())
            .collect();
        defs.retain(|name, _| !gone.contains(name.as_str()));
        if defs.is_empty() {
            root.shift_remove(container);
        }
    }
    for (container, name) in &unreached {
        changes.push(dropped_definition(container, name, "compile"));
    }
    changes
}

/// The change that dropped the unreached definition `name` of `container`, answering `rule`'s
/// finding: the line compile and repair both write.
pub fn dropped_definition(container: &str, name: &str, rule: &str) -> Change {
    Change {
        pointer: crate::json::push_token(&crate::json::push_token("", container), name),
        rule: rule.into(),
        action: format!(
            "dropped the definition `{name}`, which no `$ref` reaches (it constrains nothing)"
        ),
        emptied: false,
        lost: None,
    }
}

/// The root's definitions (`$defs`, `definitions` members) that no reference reaches, from
/// outside them or from a definition that is reached (a chain is followed), in document
/// order, `$defs` first. None are listed when a reference is not a local JSON Pointer into
/// the document (an `$anchor`, the document itself, a remote or dangling one, a `$ref` that
/// is no string) or names a container as a whole (`#/$defs`), or the schema holds a dynamic
/// reference ([`DYNAMIC_REFS`]) or a `$ref` outside the subschemas [`crate::schema::walk`]
/// visits: what it reaches is not followed here, and the profile and the
/// target judge the schema as written.
/// The keywords whose reference resolves by the dynamic scope (2020-12 `$dynamicRef`, 2019-09
/// `$recursiveRef`).
const DYNAMIC_REFS: &[&str] = &["$dynamicRef", "$recursiveRef"];

pub fn unreached_definitions(schema: &Value) -> Vec<Definition> {
    let Some(root) = schema.as_object() else {
        return Vec::new();
    };
    if !CONTAINERS
        .iter()
        .any(|c| root.get(*c).is_some_and(Value::is_object))
    {
        return Vec::new();
    }
    let mut reached: std::collections::HashSet<Definition> = std::collections::HashSet::new();
    // The definitions each definition's references reach (`None`: from outside them).
    let mut refs: std::collections::HashMap<Option<Definition>, Vec<Definition>> =
        std::collections::HashMap::new();
    let nodes = crate::schema::walk(schema).nodes;
    // A `$ref` the walk of subschemas does not reach (in `contentSchema`, ...) may name a
    // definition: none counts as unreached then (trial 57 D1: the one
    // `dependencies/x/properties/y` named was dropped, the `$ref` left dangling, exit 0, before
    // the walk read schema-form `dependencies`). Data that looks like a `$ref` (in an `enum`,
    // a `default`) makes this cautious too.
    let is_ref = |o: &serde_json::Map<String, Value>| o.get("$ref").is_some_and(Value::is_string);
    let walked = nodes
        .iter()
        .filter(|n| n.object().is_some_and(is_ref))
        .count();
    let mut written = 0;
    crate::schema::any_object(schema, |o| {
        written += usize::from(is_ref(o));
        false
    });
    if written != walked {
        return Vec::new();
    }
    for node in nodes {
        // A dynamic reference resolves at validation time, by the dynamic scope, to a schema
        // declaring its anchor (2020-12 core §8.2.3.2; 2019-09's `$recursiveRef`): which
        // definition it reaches is not followed here, so no definition counts as unreached
        // (trial 56 D9's fix dropped the definition a `$dynamicRef` named, 0 losses).
        if node
            .object()
            .is_some_and(|o| DYNAMIC_REFS.iter().any(|k| o.contains_key(*k)))
        {
            return Vec::new();
        }
        let Some(r) = node.object().and_then(|o| o.get("$ref")) else {
            continue;
        };
        let Some(text) = r.as_str() else {
            return Vec::new();
        };
        let crate::schema::refs::Step::Local(_, target) =
            crate::schema::refs::step_from(schema, &node.pointer, text)
        else {
            return Vec::new();
        };
        // Only `#/...` pointers are followed here: an anchor names its schema by declaration.
        if !text
            .split_once('#')
            .is_some_and(|(_, f)| f.starts_with('/'))
        {
            return Vec::new();
        }
        if CONTAINERS
            .iter()
            .any(|c| target.strip_prefix('/') == Some(c))
        {
            return Vec::new();
        }
        if let Some(def) = definition_holding(&target) {
            refs.entry(definition_holding(&node.pointer))
                .or_default()
                .push(def);
        }
    }
    // From the references outside the definitions, then from each definition reached.
    let mut frontier: Vec<Option<Definition>> = vec![None];
    while let Some(from) = frontier.pop() {
        for def in refs.get(&from).into_iter().flatten() {
            if reached.insert(def.clone()) {
                frontier.push(Some(def.clone()));
            }
        }
    }
    let mut unreached = Vec::new();
    for container in CONTAINERS {
        let Some(Value::Object(defs)) = root.get(container) else {
            continue;
        };
        unreached.extend(
            defs.keys()
                .map(|name| (container, name.clone()))
                .filter(|def| !reached.contains(def)),
        );
    }
    unreached
}

/// An RFC 6901 reference token as the key it names.
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Writes a root parameters schema that is no schema object the way compile sends it, as
/// `check` reads it (`root-not-object`): `true` accepts any value, exactly what `{}` accepts,
/// so it becomes `{}` and goes the way `{}` goes for the target (left out, or an empty
/// argument object, where the target refuses it: the loss is said there); `null` declares no
/// schema, so it is left out, as an absent schema is. Without this, a wire form and an
/// offline model that pass `true` or `null` through would label them compiled (strict mode
/// included) while no provider documents either. Returns the change made, if any; `Err` with
/// the refusal for a root no wire form can carry: `false` (no argument object is valid, so
/// the tool could never be called) or a value that is no schema (a string, number, list).
pub fn write_root(parameters: &mut Option<Value>) -> Result<Option<Change>, Refusal> {
    use crate::profile::feature::value;
    let change = |action: &str| Change {
        pointer: String::new(),
        rule: ROOT_RULE.into(),
        action: action.into(),
        emptied: false,
        lost: None,
    };
    match parameters {
        Some(Value::Bool(true)) => {
            *parameters = Some(Value::Object(serde_json::Map::new()));
            Ok(Some(change(
                "wrote the `true` schema as `{}` (the same schema: both accept any arguments)",
            )))
        }
        Some(Value::Null) => {
            *parameters = None;
            Ok(Some(change(
                "left the parameters schema out (`null` declares none: the tool takes no \
                 arguments)",
            )))
        }
        Some(Value::Bool(false)) => Err(root_refusal(
            value::ROOT_FALSE,
            "the parameters schema is `false`: no arguments are valid, so the tool could never \
             be called; declare the arguments it takes (`{\"type\":\"object\",\"properties\":{}}` \
             for none)"
                .into(),
        )),
        Some(other @ (Value::String(_) | Value::Number(_) | Value::Array(_))) => Err(root_refusal(
            value::ROOT_NOT_A_SCHEMA,
            format!(
                "the parameters schema is the JSON {} `{}`, not a schema object; \
                     compile does not guess the schema meant",
                crate::json::kind(other),
                crate::report::Shown(other)
            ),
        )),
        Some(Value::Object(_)) | None => Ok(None),
    }
}

/// The rule a root that is no schema object answers to, as `check` names it.
const ROOT_RULE: &str = crate::profile::rules::root_not_object::RULE.id;

/// A refusal of the root `shape` (a `root-shape` feature value) for `reason`.
fn root_refusal(shape: &str, reason: String) -> Refusal {
    Refusal {
        pointer: String::new(),
        rule: ROOT_RULE.into(),
        parameter: format!("{}: {shape}", crate::profile::feature::family::ROOT_SHAPE),
        reason,
    }
}
