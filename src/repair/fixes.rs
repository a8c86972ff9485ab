//! The repairs for each kind of finding, as candidate rewrites of one tool. The caller tries
//! them in order and keeps the first that the profile accepts (see [`super::repair_tool`]).
//! A finding with no repair gets a refusal reason instead.

use serde_json::{Map, Value, json};

use super::place::{self, Step};
use super::{Change, Tool};
use crate::check::Finding;
use crate::profile::CompiledProfile;
use crate::profile::compiled::Slot;
use crate::profile::feature::{Feat, Kind, Limit, Param, parse_parameter, value};

/// One rewrite of the tool and what it changed.
pub(super) struct Candidate {
    pub tool: Tool,
    pub changes: Vec<Change>,
}

/// Keywords that only annotate: dropping them changes no argument's validity.
const ANNOTATIONS: &[&str] = &[
    "title",
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "deprecated",
    "readOnly",
    "writeOnly",
    "default",
    "examples",
    "example",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "description",
];

/// Keywords that only narrow what is accepted: dropping one accepts more, which is reported
/// as a loss (and, where it can be said in words, moved into the description).
const NARROWING: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "const",
    "enum",
];

/// Every JSON Schema keyword (draft 2020-12 and earlier drafts' spellings) plus OpenAPI's
/// `nullable`: a key outside this list is not a keyword and carries no validation meaning.
const STANDARD: &[&str] = &[
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "items",
    "prefixItems",
    "additionalProperties",
    "patternProperties",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "definitions",
    "$dynamicRef",
    "$recursiveRef",
    "$recursiveAnchor",
    "dependentSchemas",
    "dependencies",
    "nullable",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "title",
    "description",
    "default",
    "examples",
    "example",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
];

type Found = Result<Vec<Candidate>, String>;

/// The candidate rewrites for finding `f` of `tool`, best first, or why none exists.
pub(super) fn candidates(
    tool: &Tool,
    f: &Finding,
    profile: &CompiledProfile,
    max_inline_nodes: usize,
) -> Found {
    let Some(param) = parse_parameter(&f.parameter) else {
        return Err(format!(
            "`{}` is not a feature toolwire can repair",
            f.parameter
        ));
    };
    match param {
        Param::Keyed(Kind::Keyword, k) => keyword(tool, f, &k, None, max_inline_nodes),
        Param::Keyed(Kind::KeywordForm, kf) => {
            let (k, form) = kf
                .rsplit_once(" (")
                .map(|(k, f)| (k.to_string(), f.trim_end_matches(')').to_string()))
                .unwrap_or((kf.clone(), String::new()));
            keyword(tool, f, &k, Some(&form), max_inline_nodes)
        }
        Param::Keyed(Kind::TypeSpelling, _) => type_spelling(tool, f),
        Param::Keyed(Kind::TypeList, _) => type_list(tool, f),
        Param::Keyed(Kind::TypeMissing, _) => type_missing(tool, f),
        Param::Keyed(Kind::Format, _) => {
            let node = owner(f, "format").ok_or("no `format` where the finding points")?;
            drop_keyword(tool, &f.rule, &node, "format", true)
        }
        Param::Keyed(Kind::Structure, s) => structure(tool, f, &s),
        Param::Keyed(Kind::RootShape, s) => root_shape(tool, f, &s),
        Param::Keyed(Kind::NameChars, _) | Param::Limit(Limit::NameLength, _) => {
            rename(tool, f, profile)
        }
        Param::Keyed(Kind::Description, d) => description(tool, f, &d),
        Param::Limit(Limit::DescriptionLength, _) => cut_description(tool, f, profile),
        Param::Limit(l, n) => Err(format!(
            "{n} {} is past what the profile allows; shrinking it would change the arguments",
            l.unit()
        )),
        Param::Keyed(Kind::NameUnique, _) => {
            Err("two tools share this name; see the name census".into())
        }
        Param::Keyed(Kind::Control, _) => Err("not a feature of a tool".into()),
    }
}

/// The subschema that owns keyword `k` at the finding's pointer.
fn owner(f: &Finding, k: &str) -> Option<String> {
    place::keyword_owner(&f.pointer, k)
}

fn schema_mut<'a>(tool: &'a mut Tool, pointer: &str) -> Option<&'a mut Map<String, Value>> {
    tool.parameters
        .as_mut()?
        .pointer_mut(pointer)?
        .as_object_mut()
}

fn schema_at<'a>(tool: &'a Tool, pointer: &str) -> Option<&'a Map<String, Value>> {
    tool.parameters.as_ref()?.pointer(pointer)?.as_object()
}

fn change(pointer: &str, rule: &str, action: String, lost: Option<String>) -> Change {
    Change {
        pointer: pointer.to_string(),
        rule: rule.to_string(),
        action,
        lost,
    }
}

/// A value as short JSON for messages.
fn show(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(79).collect::<String>())
    } else {
        s
    }
}

/// What keyword `k` with value `v` said, in words, for the description.
fn phrase(k: &str, v: &Value, node: &Map<String, Value>) -> Option<String> {
    let n = || show(v);
    Some(match k {
        "minimum" => format!("at least {}", n()),
        "maximum" => format!("at most {}", n()),
        "exclusiveMinimum" if v.is_number() => format!("greater than {}", n()),
        "exclusiveMaximum" if v.is_number() => format!("less than {}", n()),
        "exclusiveMinimum" if v == &json!(true) => {
            format!("greater than {}", node.get("minimum").map(show)?)
        }
        "exclusiveMaximum" if v == &json!(true) => {
            format!("less than {}", node.get("maximum").map(show)?)
        }
        "multipleOf" => format!("a multiple of {}", n()),
        "minLength" => format!("at least {} characters", n()),
        "maxLength" => format!("at most {} characters", n()),
        "pattern" => format!("matching the regular expression {}", n()),
        "format" => format!("format: {}", v.as_str().map_or_else(n, str::to_string)),
        "minItems" => format!("at least {} items", n()),
        "maxItems" => format!("at most {} items", n()),
        "uniqueItems" if v == &json!(true) => "no item repeated".into(),
        "minProperties" => format!("at least {} entries", n()),
        "maxProperties" => format!("at most {} entries", n()),
        "const" => format!("must be {}", n()),
        "enum" => {
            let items: Vec<String> = v.as_array()?.iter().map(show).collect();
            format!("one of {}", items.join(", "))
        }
        "default" => format!("default: {}", n()),
        "examples" => {
            let items: Vec<String> = v.as_array()?.iter().take(3).map(show).collect();
            format!("for example {}", items.join(", "))
        }
        "example" => format!("for example {}", n()),
        "contentMediaType" => format!("media type {}", n()),
        _ => return None,
    })
}

/// Appends `sentence` (a phrase, capitalised and ended with a period) to `node`'s
/// description.
fn note(node: &mut Map<String, Value>, phrase: &str) {
    let mut sentence: String = phrase
        .chars()
        .take(1)
        .flat_map(char::to_uppercase)
        .collect();
    sentence.extend(phrase.chars().skip(1));
    sentence.push('.');
    let new = match node.get("description").and_then(Value::as_str) {
        Some(d) if !d.trim().is_empty() => {
            let d = d.trim_end();
            if d.ends_with(['.', '!', '?']) {
                format!("{d} {sentence}")
            } else {
                format!("{d}. {sentence}")
            }
        }
        _ => sentence,
    };
    node.insert("description".into(), Value::String(new));
}

/// Dropping keyword `k` at `node`: with its meaning moved into the description (when
/// `describe` and it can be said), and without.
fn drop_keyword(tool: &Tool, rule: &str, node: &str, k: &str, describe: bool) -> Found {
    let map = schema_at(tool, node).ok_or_else(|| format!("nothing at {node:?}"))?;
    let v = map
        .get(k)
        .ok_or_else(|| format!("no `{k}` at {node:?}"))?
        .clone();
    let at = crate::json::push_token(node, k);
    let annotation = ANNOTATIONS.contains(&k);
    let standard = STANDARD.contains(&k);
    let said = phrase(k, &v, map);
    let lost = if !standard {
        None
    } else if annotation {
        Some(format!("the annotation `{k}: {}`", show(&v)))
    } else {
        Some(format!(
            "the provider no longer enforces `{k}: {}` (`toolwire args` still checks it against the original schema)",
            show(&v)
        ))
    };
    let mut out = Vec::new();
    if describe && let Some(said) = said {
        let mut t = tool.clone();
        let m = schema_mut(&mut t, node).ok_or("vanished")?;
        m.shift_remove(k);
        note(m, &said);
        out.push(Candidate {
            tool: t,
            changes: vec![change(
                &at,
                rule,
                format!(
                    "dropped `{k}: {}`, said in the description as \"{said}\"",
                    show(&v)
                ),
                lost.clone()
                    .map(|l| l.replace("the annotation", "nothing but the wording of")),
            )],
        });
    }
    let mut t = tool.clone();
    schema_mut(&mut t, node).ok_or("vanished")?.shift_remove(k);
    let action = if standard {
        format!("dropped `{k}: {}`", show(&v))
    } else {
        format!("dropped `{k}`, which is not a JSON Schema keyword")
    };
    out.push(Candidate {
        tool: t,
        changes: vec![change(&at, rule, action, lost)],
    });
    Ok(out)
}

fn keyword(tool: &Tool, f: &Finding, k: &str, form: Option<&str>, max_nodes: usize) -> Found {
    // The key as written (a finding about `x-vendor` points at the real `x-...` key).
    let (node, real) = place::split_keyword(&f.pointer)
        .filter(|(_, real)| real == k || k == value::VENDOR_KEY)
        .ok_or_else(|| format!("no keyword `{k}` at {:?}", f.pointer))?;
    let k = real.as_str();
    let map = schema_at(tool, &node).ok_or_else(|| format!("nothing at {node:?}"))?;
    let rule = f.rule.as_str();
    match (k, form) {
        ("$ref", Some(value::REF_RECURSIVE | value::REF_SELF)) => Err(
            "a recursive `$ref` cannot be written out: the schema would never end".into(),
        ),
        ("$ref", Some(value::REF_REMOTE)) => {
            Err("a remote `$ref`: toolwire never fetches schemas".into())
        }
        ("$ref" | "$defs" | "definitions", _) => inline_refs(tool, rule, max_nodes),
        ("anyOf" | "oneOf", Some(value::NULL_BRANCH)) => null_branch(tool, rule, &node, k),
        ("anyOf", Some(value::WITH_SIBLINGS)) => push_siblings(tool, rule, &node),
        ("anyOf" | "oneOf", _) if has_null_branch(map, k) => null_branch(tool, rule, &node, k),
        ("oneOf", _) => one_of_as_any_of(tool, rule, &node),
        ("anyOf", _) => Err("a union of alternatives (`anyOf`) cannot be written without it".into()),
        ("allOf", _) => merge_all_of(tool, rule, &node),
        ("nullable", _) => nullable(tool, rule, &node),
        ("items", Some(value::ITEMS_LIST)) | ("prefixItems", _) => Err(
            "a tuple (`items` as a list / `prefixItems`) fixes each position's type; no portable form keeps that".into(),
        ),
        ("items" | "properties" | "dependentSchemas" | "dependencies", _) => Err(format!(
            "`{k}` declares the arguments themselves; it cannot be dropped"
        )),
        ("additionalProperties" | "patternProperties", f) => {
            let declared = map
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| !p.is_empty());
            if f == Some(value::BOOL_TRUE) {
                let mut t = tool.clone();
                schema_mut(&mut t, &node).ok_or("vanished")?.shift_remove(k);
                return Ok(vec![Candidate {
                    tool: t,
                    changes: vec![change(
                        &f_at(&node, k),
                        rule,
                        "dropped `additionalProperties: true` (the default)".into(),
                        None,
                    )],
                }]);
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
            let mut out = Vec::new();
            if v.is_string() {
                let mut t = tool.clone();
                let m = schema_mut(&mut t, &node).ok_or("vanished")?;
                m.shift_remove("const");
                m.insert("enum".into(), json!([v.clone()]));
                if !m.contains_key("type") {
                    m.insert("type".into(), json!("string"));
                }
                out.push(Candidate {
                    tool: t,
                    changes: vec![change(
                        &f_at(&node, "const"),
                        rule,
                        format!("wrote `const: {}` as a one-value `enum`", show(&v)),
                        None,
                    )],
                });
            }
            out.extend(drop_keyword(tool, rule, &node, "const", true)?);
            Ok(out)
        }
        ("enum", Some(value::ENUM_NULL)) => enum_without_null(tool, rule, &node),
        ("exclusiveMinimum" | "exclusiveMaximum", Some(value::DRAFT4_BOOLEAN)) => {
            let v = map.get(k).cloned().unwrap_or(Value::Null);
            if v == json!(false) {
                let mut t = tool.clone();
                schema_mut(&mut t, &node).ok_or("vanished")?.shift_remove(k);
                return Ok(vec![Candidate {
                    tool: t,
                    changes: vec![change(
                        &f_at(&node, k),
                        rule,
                        format!("dropped `{k}: false` (draft-4 spelling of the default)"),
                        None,
                    )],
                }]);
            }
            drop_keyword(tool, rule, &node, k, true)
        }
        _ if ANNOTATIONS.contains(&k) || NARROWING.contains(&k) || !STANDARD.contains(&k) => {
            drop_keyword(tool, rule, &node, k, true)
        }
        _ => Err(format!("no conservative repair for `{k}`")),
    }
}

fn f_at(node: &str, k: &str) -> String {
    crate::json::push_token(node, k)
}

fn inline_refs(tool: &Tool, rule: &str, max_nodes: usize) -> Found {
    let schema = tool.parameters.as_ref().ok_or("no schema")?;
    match super::refs::inline(schema, max_nodes) {
        Ok((out, done)) => {
            let mut t = tool.clone();
            t.parameters = Some(out);
            let mut changes: Vec<Change> = done
                .iter()
                .map(|d| {
                    change(
                        &d.pointer,
                        rule,
                        format!("inlined `$ref: {}`", d.reference),
                        None,
                    )
                })
                .collect();
            for k in ["$defs", "definitions"] {
                if schema.get(k).is_some() {
                    changes.push(change(
                        &f_at("", k),
                        rule,
                        format!("dropped `{k}` (every reference to it is inlined)"),
                        None,
                    ));
                }
            }
            Ok(vec![Candidate { tool: t, changes }])
        }
        Err(r) => Err(format!("{} (at {})", r.reason, r.pointer)),
    }
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

/// Makes the property at `pointer` optional (drops it from its object's `required`).
/// Returns false when `pointer` is not a property.
fn make_optional(t: &mut Tool, pointer: &str) -> bool {
    let Some((parent, name)) = place::property_of(pointer) else {
        return false;
    };
    let Some(obj) = schema_mut(t, &parent) else {
        return false;
    };
    if let Some(Value::Array(req)) = obj.get_mut("required") {
        req.retain(|r| r.as_str() != Some(name.as_str()));
        if req.is_empty() {
            obj.shift_remove("required");
        }
    }
    true
}

const OPTIONAL_LOSS: &str = "null is no longer accepted: the model leaves the argument out instead (`toolwire args` reads null for an optional argument as absent)";

/// `anyOf: [X, {type: null}]` → X, optional.
fn null_branch(tool: &Tool, rule: &str, node: &str, k: &str) -> Found {
    let map = schema_at(tool, node).ok_or("vanished")?;
    let branches = map.get(k).and_then(Value::as_array).ok_or("no branches")?;
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
    let mut optional = tool.clone();
    *schema_mut(&mut optional, node).ok_or("vanished")? = merged.clone();
    if make_optional(&mut optional, node) {
        out.push(Candidate {
            tool: optional,
            changes: vec![change(
                &f_at(node, k),
                rule,
                format!("removed the null branch of `{k}` and made the argument optional"),
                Some(OPTIONAL_LOSS.into()),
            )],
        });
    }
    let mut nullable = tool.clone();
    let mut with = merged;
    with.insert("nullable".into(), json!(true));
    *schema_mut(&mut nullable, node).ok_or("vanished")? = with;
    out.push(Candidate {
        tool: nullable,
        changes: vec![change(
            &f_at(node, k),
            rule,
            format!("wrote the null branch of `{k}` as `nullable: true`"),
            None,
        )],
    });
    Ok(out)
}

/// `anyOf` with siblings: the siblings (other than annotations) move into every branch.
fn push_siblings(tool: &Tool, rule: &str, node: &str) -> Found {
    let map = schema_at(tool, node).ok_or("vanished")?;
    let mut branches = map
        .get("anyOf")
        .and_then(Value::as_array)
        .cloned()
        .ok_or("no branches")?;
    let mut keep = Map::new();
    for (k, v) in map {
        if k == "anyOf" || ["description", "title"].contains(&k.as_str()) {
            keep.insert(k.clone(), v.clone());
            continue;
        }
        for b in &mut branches {
            let Some(o) = b.as_object_mut() else {
                return Err("a branch of `anyOf` is not an object schema".into());
            };
            match o.get(k) {
                Some(existing) if existing != v => {
                    return Err(format!(
                        "`{k}` next to `anyOf` contradicts a branch's own `{k}`; moving it in would change the arguments"
                    ));
                }
                _ => {
                    o.insert(k.clone(), v.clone());
                }
            }
        }
    }
    keep.insert("anyOf".into(), Value::Array(branches));
    let mut t = tool.clone();
    *schema_mut(&mut t, node).ok_or("vanished")? = keep;
    Ok(vec![Candidate {
        tool: t,
        changes: vec![change(
            &f_at(node, "anyOf"),
            rule,
            "moved the keywords next to `anyOf` into each branch".into(),
            None,
        )],
    }])
}

/// `oneOf` whose branches each have one `type`, all different: exactly one branch can match,
/// so it means the same as `anyOf`.
fn one_of_as_any_of(tool: &Tool, rule: &str, node: &str) -> Found {
    let map = schema_at(tool, node).ok_or("vanished")?;
    let branches = map
        .get("oneOf")
        .and_then(Value::as_array)
        .ok_or("no branches")?;
    let types: Vec<Option<&str>> = branches
        .iter()
        .map(|b| b.get("type").and_then(Value::as_str))
        .collect();
    let distinct = types.iter().all(Option::is_some)
        && types.iter().enumerate().all(|(i, t)| {
            let overlaps_number = t == &Some("integer") && types.contains(&Some("number"));
            !(types[..i].contains(t) || overlaps_number)
        });
    if !distinct {
        return Err(
            "`oneOf` whose branches may overlap: no single schema says \"exactly one\"".into(),
        );
    }
    let mut t = tool.clone();
    let m = schema_mut(&mut t, node).ok_or("vanished")?;
    let v = m.shift_remove("oneOf").unwrap_or(Value::Null);
    m.insert("anyOf".into(), v);
    Ok(vec![Candidate {
        tool: t,
        changes: vec![change(
            &f_at(node, "oneOf"),
            rule,
            "wrote `oneOf` as `anyOf` (its branches have different types, so at most one matches)"
                .into(),
            None,
        )],
    }])
}

/// `allOf` with one branch: its keywords join the schema when none conflicts.
fn merge_all_of(tool: &Tool, rule: &str, node: &str) -> Found {
    let map = schema_at(tool, node).ok_or("vanished")?;
    let branches = map
        .get("allOf")
        .and_then(Value::as_array)
        .ok_or("no branches")?;
    let [only] = branches.as_slice() else {
        return Err(
            "`allOf` with several branches: merging them could change the arguments".into(),
        );
    };
    let inner = only
        .as_object()
        .ok_or("the branch is not an object schema")?;
    let mut merged = map.clone();
    merged.shift_remove("allOf");
    for (k, v) in inner {
        match merged.get(k) {
            Some(existing) if existing != v => {
                return Err(format!("`allOf`'s `{k}` conflicts with the schema's own"));
            }
            _ => {
                merged.insert(k.clone(), v.clone());
            }
        }
    }
    let mut t = tool.clone();
    *schema_mut(&mut t, node).ok_or("vanished")? = merged;
    Ok(vec![Candidate {
        tool: t,
        changes: vec![change(
            &f_at(node, "allOf"),
            rule,
            "merged the single `allOf` branch into the schema".into(),
            None,
        )],
    }])
}

fn nullable(tool: &Tool, rule: &str, node: &str) -> Found {
    let map = schema_at(tool, node).ok_or("vanished")?;
    let v = map.get("nullable").cloned().unwrap_or(Value::Null);
    let mut t = tool.clone();
    schema_mut(&mut t, node)
        .ok_or("vanished")?
        .shift_remove("nullable");
    if v == json!(true) {
        if !make_optional(&mut t, node) {
            return Err("`nullable: true` on a schema that is not a property: null cannot be expressed without it".into());
        }
        return Ok(vec![Candidate {
            tool: t,
            changes: vec![change(
                &f_at(node, "nullable"),
                rule,
                "dropped `nullable: true` and made the argument optional".into(),
                Some(OPTIONAL_LOSS.into()),
            )],
        }]);
    }
    Ok(vec![Candidate {
        tool: t,
        changes: vec![change(
            &f_at(node, "nullable"),
            rule,
            format!("dropped `nullable: {}`, which admits no null", show(&v)),
            None,
        )],
    }])
}

fn enum_without_null(tool: &Tool, rule: &str, node: &str) -> Found {
    let mut t = tool.clone();
    let m = schema_mut(&mut t, node).ok_or("vanished")?;
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
    if !make_optional(&mut t, node) {
        return Err("null in `enum` of a schema that is not a property".into());
    }
    Ok(vec![Candidate {
        tool: t,
        changes: vec![change(
            &f_at(node, "enum"),
            rule,
            "removed null from `enum` and made the argument optional".into(),
            Some(OPTIONAL_LOSS.into()),
        )],
    }])
}

/// The JSON Schema type a non-standard spelling means, with what the spelling said that the
/// type does not.
fn standard_type(t: &str) -> Option<(&'static str, Option<&'static str>)> {
    Some(match t.to_ascii_lowercase().as_str() {
        "object" | "dict" | "map" | "hashmap" | "record" | "struct" => ("object", None),
        "number" | "float" | "double" | "decimal" | "numeric" | "real" => ("number", None),
        "integer" | "int" | "long" | "short" | "int32" | "int64" | "bigint" => ("integer", None),
        "string" | "str" | "text" => ("string", None),
        "char" | "character" => ("string", Some("a single character")),
        "array" | "list" | "arraylist" | "sequence" => ("array", None),
        "tuple" => ("array", Some("a fixed-length tuple")),
        "set" => ("array", Some("items without repeats")),
        "boolean" | "bool" => ("boolean", None),
        "null" | "none" => ("null", None),
        _ => return None,
    })
}

fn type_spelling(tool: &Tool, f: &Finding) -> Found {
    let steps = place::steps(&f.pointer);
    let (node, index) = match steps.last() {
        Some(Step::Keyword(k, rest)) if k == "type" => {
            let idx = rest.first().and_then(|r| r.parse::<usize>().ok());
            let suffix = 5 + rest.iter().map(|r| r.len() + 1).sum::<usize>();
            (f.pointer[..f.pointer.len() - suffix].to_string(), idx)
        }
        _ => return Err(format!("no `type` at {:?}", f.pointer)),
    };
    let map = schema_at(tool, &node).ok_or("vanished")?;
    let written = match (map.get("type"), index) {
        (Some(Value::String(s)), None) => s.clone(),
        (Some(Value::Array(a)), Some(i)) => a
            .get(i)
            .and_then(Value::as_str)
            .ok_or("not a type name")?
            .to_string(),
        (Some(Value::Array(a)), None) => {
            return Err(format!(
                "a list of types: {}",
                show(&Value::Array(a.clone()))
            ));
        }
        _ => return Err("`type` is not a name".into()),
    };
    let Some((std, lost)) = standard_type(&written) else {
        return Err(format!(
            "`type: {written:?}` names no JSON type (\"any\" accepts every value; no schema says that portably)"
        ));
    };
    if std == written {
        return Err(format!("`type: {written}` is already standard"));
    }
    let mut t = tool.clone();
    let m = schema_mut(&mut t, &node).ok_or("vanished")?;
    match index {
        Some(i) => {
            if let Some(Value::Array(a)) = m.get_mut("type") {
                a[i] = json!(std);
            }
        }
        None => {
            m.insert("type".into(), json!(std));
        }
    }
    Ok(vec![Candidate {
        tool: t,
        changes: vec![change(
            &f_at(&node, "type"),
            &f.rule,
            format!("wrote the type `{written}` as `{std}`"),
            lost.map(|l| format!("`{written}` also said {l}")),
        )],
    }])
}

fn type_list(tool: &Tool, f: &Finding) -> Found {
    let node = owner(f, "type").ok_or("no `type` where the finding points")?;
    let map = schema_at(tool, &node).ok_or("vanished")?;
    let list = map
        .get("type")
        .and_then(Value::as_array)
        .ok_or("`type` is not a list")?;
    let mut names: Vec<&str> = Vec::new();
    for v in list {
        let s = v.as_str().ok_or("a type in the list is not a name")?;
        if !names.contains(&s) {
            names.push(s);
        }
    }
    let had_null = names.contains(&"null");
    let rest: Vec<&str> = names.iter().copied().filter(|n| *n != "null").collect();
    let [one] = rest.as_slice() else {
        return Err(format!(
            "a union of types ({}): no single type accepts the same arguments",
            names.join(", ")
        ));
    };
    let one = (*one).to_string();
    let mut base = tool.clone();
    schema_mut(&mut base, &node)
        .ok_or("vanished")?
        .insert("type".into(), json!(one));
    if !had_null {
        return Ok(vec![Candidate {
            tool: base,
            changes: vec![change(
                &f_at(&node, "type"),
                &f.rule,
                format!("wrote the one-type list as `type: {one}`"),
                None,
            )],
        }]);
    }
    let mut out = Vec::new();
    let mut optional = base.clone();
    if make_optional(&mut optional, &node) {
        out.push(Candidate {
            tool: optional,
            changes: vec![change(
                &f_at(&node, "type"),
                &f.rule,
                format!("wrote `[{one}, null]` as `{one}` and made the argument optional"),
                Some(OPTIONAL_LOSS.into()),
            )],
        });
    }
    let mut nullable = base;
    schema_mut(&mut nullable, &node)
        .ok_or("vanished")?
        .insert("nullable".into(), json!(true));
    out.push(Candidate {
        tool: nullable,
        changes: vec![change(
            &f_at(&node, "type"),
            &f.rule,
            format!("wrote `[{one}, null]` as `{one}` with `nullable: true`"),
            None,
        )],
    });
    Ok(out)
}

/// The type every value of an `enum`/`const` has, when they agree.
fn type_of_values(values: &[Value]) -> Option<&'static str> {
    let kind = |v: &Value| match v {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        _ => None,
    };
    let first = kind(values.first()?)?;
    values
        .iter()
        .all(|v| kind(v) == Some(first))
        .then_some(first)
}

fn type_missing(tool: &Tool, f: &Finding) -> Found {
    let node = place::keyword_owner(&f.pointer, "type").unwrap_or_else(|| f.pointer.clone());
    let map = schema_at(tool, &node).ok_or("vanished")?;
    let values: Option<Vec<Value>> = map
        .get("enum")
        .and_then(Value::as_array)
        .cloned()
        .or_else(|| map.get("const").map(|c| vec![c.clone()]));
    let (ty, why, narrows) = if let Some(t) = values.as_deref().and_then(type_of_values) {
        (t, "every value of its `enum`/`const` is one", false)
    } else if map.contains_key("properties") {
        ("object", "it declares `properties`", true)
    } else if map.contains_key("items") {
        ("array", "it declares `items`", true)
    } else {
        return Err(
            "no `type`, and nothing says which: it accepts any value, which no portable schema says"
                .into(),
        );
    };
    let mut t = tool.clone();
    schema_mut(&mut t, &node)
        .ok_or("vanished")?
        .insert("type".into(), json!(ty));
    Ok(vec![Candidate {
        tool: t,
        changes: vec![change(
            &node,
            &f.rule,
            format!("added `type: {ty}` ({why})"),
            narrows.then(|| format!("values that are not {ty}s, which the schema accepted by saying nothing, are refused")),
        )],
    }])
}

fn structure(tool: &Tool, f: &Finding, s: &str) -> Found {
    let rule = f.rule.as_str();
    let node_of =
        |k: &str| place::keyword_owner(&f.pointer, k).unwrap_or_else(|| f.pointer.clone());
    match s {
        value::ARRAY_WITHOUT_ITEMS => {
            Err("an array without `items`: its elements cannot be declared without guessing".into())
        }
        value::OBJECT_WITHOUT_PROPERTIES | value::EMPTY_PROPERTIES => Err(
            "a free-form object: its members are not declared, and declaring them would be a guess"
                .into(),
        ),
        value::PROPERTIES_ON_NON_OBJECT | value::ITEMS_ON_NON_ARRAY => {
            let (k, also): (&str, &[&str]) = if s == value::ITEMS_ON_NON_ARRAY {
                ("items", &[])
            } else {
                ("properties", &["required", "additionalProperties"])
            };
            let node = node_of(k);
            let mut t = tool.clone();
            let m = schema_mut(&mut t, &node).ok_or("vanished")?;
            m.shift_remove(k);
            for a in also {
                m.shift_remove(*a);
            }
            Ok(vec![Candidate {
                tool: t,
                changes: vec![change(
                    &f_at(&node, k),
                    rule,
                    format!("dropped `{k}`, which applies to no value of this type"),
                    None,
                )],
            }])
        }
        value::ITEMS_WITHOUT_TYPE => {
            let node = node_of("items");
            let mut t = tool.clone();
            schema_mut(&mut t, &node)
                .ok_or("vanished")?
                .insert("type".into(), json!("array"));
            Ok(vec![Candidate {
                tool: t,
                changes: vec![change(
                    &node,
                    rule,
                    "added `type: array` (it declares `items`)".into(),
                    Some("non-array values, which the schema accepted by saying nothing, are refused".into()),
                )],
            }])
        }
        value::REQUIRED_UNDECLARED => {
            let node = node_of("required");
            let map = schema_at(tool, &node).ok_or("vanished")?;
            let props = map.get("properties").and_then(Value::as_object);
            let req = map
                .get("required")
                .and_then(Value::as_array)
                .ok_or("no `required`")?;
            let (kept, gone): (Vec<Value>, Vec<Value>) = req.iter().cloned().partition(|r| {
                r.as_str()
                    .is_some_and(|n| props.is_some_and(|p| p.contains_key(n)))
            });
            let mut t = tool.clone();
            let m = schema_mut(&mut t, &node).ok_or("vanished")?;
            if kept.is_empty() {
                m.shift_remove("required");
            } else {
                m.insert("required".into(), Value::Array(kept));
            }
            let names: Vec<String> = gone.iter().map(show).collect();
            Ok(vec![Candidate {
                tool: t,
                changes: vec![change(
                    &f_at(&node, "required"),
                    rule,
                    format!(
                        "dropped {} from `required` (not declared in `properties`)",
                        names.join(", ")
                    ),
                    Some(format!(
                        "calls without {} are no longer refused for it",
                        names.join(", ")
                    )),
                )],
            }])
        }
        value::REQUIRED_EMPTY
        | value::REQUIRED_NOT_ARRAY
        | value::REQUIRED_NULL
        | value::REQUIRED_BOOLEAN
        | value::REQUIRED_WITHOUT_PROPERTIES => {
            let node = node_of("required");
            let map = schema_at(tool, &node).ok_or("vanished")?;
            let v = map.get("required").cloned().unwrap_or(Value::Null);
            let lost = (s == value::REQUIRED_WITHOUT_PROPERTIES).then(|| {
                format!(
                    "`required: {}` named members the schema does not declare",
                    show(&v)
                )
            });
            let mut t = tool.clone();
            schema_mut(&mut t, &node)
                .ok_or("vanished")?
                .shift_remove("required");
            Ok(vec![Candidate {
                tool: t,
                changes: vec![change(
                    &f_at(&node, "required"),
                    rule,
                    format!("dropped `required: {}`", show(&v)),
                    lost,
                )],
            }])
        }
        value::BOOLEAN_SCHEMA_TRUE => {
            Err("a `true` schema accepts any value; no portable schema says that".into())
        }
        value::BOOLEAN_SCHEMA_FALSE => {
            Err("a `false` schema forbids the argument; dropping it would accept it".into())
        }
        value::SCHEMA_NOT_OBJECT => Err(
            "a property whose schema is not a schema (e.g. \"number\"): its meaning is a guess"
                .into(),
        ),
        value::REF_UNRESOLVED => Err("a `$ref` to a definition that is not in the schema".into()),
        value::ITEMS_EMPTY_LIST => Err("`items: []` declares no element type".into()),
        s if s.starts_with(value::PROPERTY_NAMED) => {
            Err("a property named like a keyword: renaming it would change the arguments".into())
        }
        s => Err(format!("no conservative repair for `structure: {s}`")),
    }
}

fn root_shape(tool: &Tool, f: &Finding, s: &str) -> Found {
    let rule = f.rule.as_str();
    let empty = json!({"type": "object", "properties": {}});
    let with = |params: Option<Value>, action: &str, lost: Option<&str>| {
        let mut t = tool.clone();
        t.parameters = params;
        Candidate {
            tool: t,
            changes: vec![change("", rule, action.into(), lost.map(str::to_string))],
        }
    };
    match s {
        value::ROOT_ABSENT => Ok(vec![with(
            Some(empty),
            "declared an empty argument object",
            None,
        )]),
        value::ROOT_NULL | value::ROOT_NO_ARGUMENTS => Ok(vec![
            with(
                None,
                "left the parameters schema out (the tool takes no arguments)",
                None,
            ),
            with(Some(empty), "declared an empty argument object", None),
        ]),
        value::ROOT_OBJECT_WITHOUT_PROPERTIES | value::ROOT_EMPTY => {
            let lost = "the schema accepted any arguments; it is now read as taking none";
            Ok(vec![
                with(
                    None,
                    "left the parameters schema out (it declares no arguments)",
                    Some(lost),
                ),
                with(
                    Some(empty),
                    "declared an empty argument object (it declared no arguments)",
                    Some(lost),
                ),
            ])
        }
        value::ROOT_NO_TYPE => {
            let mut t = tool.clone();
            let m = schema_mut(&mut t, "").ok_or("the root is not an object")?;
            if !m.contains_key("properties") {
                return Err("a root with no `type` and no `properties`".into());
            }
            m.insert("type".into(), json!("object"));
            Ok(vec![Candidate {
                tool: t,
                changes: vec![change(
                    "",
                    rule,
                    "added `type: object` to the root (it declares `properties`)".into(),
                    None,
                )],
            }])
        }
        other => Err(format!(
            "the parameters schema is not an object schema ({other}); wrapping it would change the arguments"
        )),
    }
}

/// The tool-name rule for repairing names under `profile`: the documented rules of the
/// profile's targets ([`crate::names::for_target`], their intersection), further narrowed by
/// the profile's evidence: a name character, a leading digit or a length the evidence
/// rejects is not used even where a document allows it.
pub fn name_rule(profile: &CompiledProfile) -> crate::names::NameRule {
    use crate::case::Placement;
    use crate::names::{FirstChar, NameRule};
    let rejected =
        |feat: Feat<'_>| matches!(profile.lookup(&feat, Placement::Tool), Slot::Rejected(_));
    let documented: Vec<NameRule> = profile
        .targets
        .iter()
        .map(|t| crate::names::for_target(t))
        .collect();
    let doc =
        NameRule::intersection(&profile.name, &documented).unwrap_or_else(crate::names::portable);
    let punctuation: String = [
        ('_', value::NAME_UNDERSCORE),
        ('-', value::NAME_HYPHEN),
        ('.', value::NAME_DOT),
        (':', value::NAME_COLON),
    ]
    .iter()
    .filter(|(c, kind)| doc.punctuation.contains(*c) && !rejected(Feat::NameChars(kind)))
    .map(|(c, _)| *c)
    .collect();
    let first = if doc.first == FirstChar::LetterOrUnderscore
        || rejected(Feat::NameChars(value::NAME_LEADING_DIGIT))
    {
        FirstChar::LetterOrUnderscore
    } else {
        FirstChar::Any
    };
    let evidence_len = max_allowed(profile, Limit::NameLength).unwrap_or(doc.max_len);
    NameRule {
        scope: profile.name.clone(),
        max_len: doc.max_len.min(evidence_len).clamp(16, 1024),
        punctuation,
        first,
        source: format!(
            "{}; narrowed by the `{}` profile's evidence",
            doc.source, profile.name
        ),
        assumed: doc.assumed,
    }
}

/// The largest value of `limit` the profile has no rejecting evidence for (`None` when even
/// 1 is rejected). The profile's limit statuses only get worse as the value grows.
pub fn max_allowed(profile: &CompiledProfile, limit: Limit) -> Option<usize> {
    let ok = |n: usize| {
        !matches!(
            profile.lookup(&Feat::Limit(limit, n), crate::case::Placement::Tool),
            Slot::Rejected(_)
        )
    };
    if !ok(1) {
        return None;
    }
    let (mut lo, mut hi) = (1usize, 1usize << 24);
    if ok(hi) {
        return Some(hi);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

fn rename(tool: &Tool, f: &Finding, profile: &CompiledProfile) -> Found {
    let name = tool.name.as_deref().ok_or("a bare schema has no name")?;
    let new = name_rule(profile).sanitize(name);
    if new == name {
        return Err(format!(
            "no name the profile accepts can be made from `{name}`"
        ));
    }
    let mut t = tool.clone();
    t.name = Some(new.clone());
    Ok(vec![Candidate {
        tool: t,
        changes: vec![change(
            "",
            &f.rule,
            format!(
                "renamed `{name}` to `{new}` (map the provider's calls of `{new}` back to `{name}`)"
            ),
            None,
        )],
    }])
}

fn description(tool: &Tool, f: &Finding, d: &str) -> Found {
    match d {
        value::DESC_MISSING | value::DESC_EMPTY | value::DESC_WHITESPACE => {
            let name = tool.name.as_deref().unwrap_or("tool");
            let written = crate::describe::written_description(name, tool.parameters.as_ref());
            let mut t = tool.clone();
            t.description = Some(written);
            Ok(vec![Candidate {
                tool: t,
                changes: vec![change(
                    "",
                    &f.rule,
                    "wrote a description from the name and the inputs".into(),
                    None,
                )],
            }])
        }
        value::DESC_MULTILINE => {
            let old = tool.description.as_deref().unwrap_or("");
            let mut t = tool.clone();
            t.description = Some(old.split_whitespace().collect::<Vec<_>>().join(" "));
            Ok(vec![Candidate {
                tool: t,
                changes: vec![change(
                    "",
                    &f.rule,
                    "joined the description's lines".into(),
                    Some("its line breaks".into()),
                )],
            }])
        }
        other => Err(format!(
            "the description is {other}; rewriting it is for its author"
        )),
    }
}

fn cut_description(tool: &Tool, f: &Finding, profile: &CompiledProfile) -> Found {
    let max =
        max_allowed(profile, Limit::DescriptionLength).ok_or("no description length is allowed")?;
    let old = tool.description.as_deref().ok_or("no description")?;
    let len = old.chars().count();
    if len <= max || max < 2 {
        return Err("the description is not too long".into());
    }
    let mut new: String = old.chars().take(max - 1).collect();
    new.push('…');
    let mut t = tool.clone();
    t.description = Some(new);
    Ok(vec![Candidate {
        tool: t,
        changes: vec![change(
            "",
            &f.rule,
            format!("cut the description from {len} to {max} characters"),
            Some(format!(
                "the last {} characters of the description",
                len - (max - 1)
            )),
        )],
    }])
}
