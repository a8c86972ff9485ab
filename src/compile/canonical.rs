//! The canonical schema compile starts from: every `type` written with JSON Schema's own
//! names.
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

use crate::repair::Change;

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
        lost: lost.map(|l| format!("`{written}` also said {l}")),
    })
}
