//! Inlining local `$ref`s: every `{"$ref": "#/..."}` in a schema position is replaced by a
//! copy of its target (itself inlined), with a cycle guard and an expansion cap, and the
//! `$defs`/`definitions` containers are dropped. Remote and recursive references are refused.

use serde_json::{Map, Value};

use crate::json::push_token;
use crate::schema::{LIST_OF_SCHEMAS, MAP_OF_SCHEMAS, ONE_SCHEMA};

/// Default cap on the schema nodes an inlined schema may have (each object or array counted
/// once). The largest corpus schema has well under 1,000; the cap stops a few `$defs` that
/// reference each other twice over from growing exponentially.
pub const MAX_INLINE_NODES: usize = 10_000;

/// Sibling keywords a `$ref` may carry that only annotate; they override the target's.
const ANNOTATIONS: &[&str] = &["description", "title", "default", "examples", "$comment"];

/// Why a schema's references cannot be inlined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// JSON Pointer of the `$ref` (or of the schema, for the cap).
    pub pointer: String,
    pub reason: String,
}

/// One `$ref` that was inlined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inlined {
    /// Where the `$ref` was (in the input).
    pub pointer: String,
    pub reference: String,
}

/// Inlines every local `$ref` of `root`. Returns the new schema and the references
/// inlined, or the first reason it cannot be done.
pub fn inline(root: &Value, max_nodes: usize) -> Result<(Value, Vec<Inlined>), Refusal> {
    let mut cx = Cx {
        root,
        budget: max_nodes,
        max_nodes,
        stack: Vec::new(),
        done: Vec::new(),
    };
    let out = cx.expand(root, "", true)?;
    Ok((out, cx.done))
}

struct Cx<'a> {
    root: &'a Value,
    budget: usize,
    max_nodes: usize,
    /// Targets being expanded (the cycle guard).
    stack: Vec<String>,
    done: Vec<Inlined>,
}

impl Cx<'_> {
    fn spend(&mut self, at: &str) -> Result<(), Refusal> {
        if self.budget == 0 {
            return Err(Refusal {
                pointer: at.to_string(),
                reason: format!(
                    "inlining the `$ref`s would grow the schema past {} nodes (the expansion cap)",
                    self.max_nodes
                ),
            });
        }
        self.budget -= 1;
        Ok(())
    }

    /// Expands the subschema `node` found at `at` in the input (`at` names places in errors
    /// and in the report; a copy of a target keeps the `$ref`'s pointer).
    fn expand(&mut self, node: &Value, at: &str, is_root: bool) -> Result<Value, Refusal> {
        let Value::Object(map) = node else {
            return Ok(node.clone());
        };
        self.spend(at)?;
        if let Some(r) = map.get("$ref") {
            return self.resolve(map, r, at);
        }
        let mut out = Map::new();
        for (k, v) in map {
            let here = push_token(at, k);
            if is_root && (k == "$defs" || k == "definitions") {
                continue;
            }
            let nv = if MAP_OF_SCHEMAS.contains(&k.as_str()) && v.is_object() {
                let mut m = Map::new();
                for (name, sub) in v.as_object().into_iter().flatten() {
                    m.insert(
                        name.clone(),
                        self.expand(sub, &push_token(&here, name), false)?,
                    );
                }
                Value::Object(m)
            } else if (ONE_SCHEMA.contains(&k.as_str()) || k == "items") && v.is_object() {
                self.expand(v, &here, false)?
            } else if (LIST_OF_SCHEMAS.contains(&k.as_str()) || k == "items") && v.is_array() {
                let mut list = Vec::new();
                for (i, sub) in v.as_array().into_iter().flatten().enumerate() {
                    list.push(self.expand(sub, &push_token(&here, &i.to_string()), false)?);
                }
                Value::Array(list)
            } else {
                // A keyword whose value is data (`enum`, `const`, `default`, `required`...).
                v.clone()
            };
            out.insert(k.clone(), nv);
        }
        Ok(Value::Object(out))
    }

    fn resolve(
        &mut self,
        map: &Map<String, Value>,
        reference: &Value,
        at: &str,
    ) -> Result<Value, Refusal> {
        let here = push_token(at, "$ref");
        let refuse = |reason: String| Refusal {
            pointer: here.clone(),
            reason,
        };
        let Some(text) = reference.as_str() else {
            return Err(refuse("`$ref` is not a string".into()));
        };
        let Some(fragment) = text.strip_prefix('#') else {
            return Err(refuse(format!(
                "`$ref` to `{text}` is remote; toolwire never fetches schemas"
            )));
        };
        if !(fragment.is_empty() || fragment.starts_with('/')) {
            return Err(refuse(format!(
                "`$ref` to the anchor `{text}` (only JSON Pointer references are inlined)"
            )));
        }
        let decoded = crate::schema::percent_decode(fragment).into_owned();
        if self.stack.contains(&decoded) {
            return Err(refuse(format!(
                "`$ref` to `{text}` is recursive; a recursive schema cannot be written out"
            )));
        }
        let Some(target) = self.root.pointer(&decoded) else {
            return Err(refuse(format!(
                "`$ref` to `{text}`, which is not in the schema"
            )));
        };
        self.stack.push(decoded);
        let expanded = self.expand(target, at, false);
        self.stack.pop();
        let mut expanded = expanded?;
        self.done.push(Inlined {
            pointer: here.clone(),
            reference: text.to_string(),
        });
        let siblings: Vec<(&String, &Value)> = map.iter().filter(|(k, _)| *k != "$ref").collect();
        if siblings.is_empty() {
            return Ok(expanded);
        }
        let Value::Object(obj) = &mut expanded else {
            return Err(refuse(format!(
                "`$ref` to `{text}` has keywords next to it but its target is not an object schema"
            )));
        };
        for (k, v) in siblings {
            match obj.get(k) {
                Some(existing) if existing != v && !ANNOTATIONS.contains(&k.as_str()) => {
                    return Err(refuse(format!(
                        "`$ref` to `{text}` sits next to `{k}`, which its target also sets differently"
                    )));
                }
                _ => {
                    let nv = if (ONE_SCHEMA.contains(&k.as_str()) || k == "items") && v.is_object()
                    {
                        self.expand(v, &push_token(at, k), false)?
                    } else {
                        v.clone()
                    };
                    obj.insert(k.clone(), nv);
                }
            }
        }
        Ok(expanded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn local_refs_are_inlined_and_defs_dropped() {
        let s = json!({"type":"object","properties":{
            "a":{"$ref":"#/$defs/A","description":"the a"},
            "list":{"type":"array","items":{"$ref":"#/$defs/B"}},
            "$ref":{"type":"string"}
        },"$defs":{"A":{"type":"string","description":"an A"},
                   "B":{"type":"object","properties":{"x":{"$ref":"#/$defs/A"}}}}});
        let (out, done) = inline(&s, MAX_INLINE_NODES).unwrap();
        assert_eq!(
            out,
            json!({"type":"object","properties":{
                "a":{"type":"string","description":"the a"},
                "list":{"type":"array","items":{"type":"object","properties":{"x":{"type":"string","description":"an A"}}}},
                "$ref":{"type":"string"}
            }})
        );
        let places: Vec<&str> = done.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(
            places,
            [
                "/properties/a/$ref",
                "/properties/list/items/properties/x/$ref",
                "/properties/list/items/$ref"
            ]
        );
    }

    #[test]
    fn recursive_remote_and_missing_refs_are_refused() {
        let rec = json!({"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},
            "$defs":{"N":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/N"}}}}}});
        let e = inline(&rec, MAX_INLINE_NODES).unwrap_err();
        assert!(e.reason.contains("recursive"), "{e:?}");
        assert_eq!(e.pointer, "/properties/n/properties/kids/items/$ref");
        let remote = json!({"properties":{"a":{"$ref":"https://example.com/a.json"}}});
        assert!(inline(&remote, 100).unwrap_err().reason.contains("remote"));
        let missing = json!({"properties":{"a":{"$ref":"#/$defs/Z"}}});
        assert!(
            inline(&missing, 100)
                .unwrap_err()
                .reason
                .contains("not in the schema")
        );
    }

    #[test]
    fn a_schema_that_would_grow_past_the_cap_is_refused_quickly() {
        // D0 refers to D1 twice, D1 to D2 twice, ... : 2^30 copies if written out.
        let mut defs = serde_json::Map::new();
        for i in 0..30 {
            defs.insert(
                format!("D{i}"),
                json!({"type":"object","properties":{
                    "l":{"$ref": format!("#/$defs/D{}", i + 1)},
                    "r":{"$ref": format!("#/$defs/D{}", i + 1)}}}),
            );
        }
        defs.insert("D30".into(), json!({"type":"string"}));
        let s = json!({"type":"object","properties":{"root":{"$ref":"#/$defs/D0"}},"$defs":defs});
        let started = std::time::Instant::now();
        let e = inline(&s, MAX_INLINE_NODES).unwrap_err();
        assert!(e.reason.contains("expansion cap"), "{e:?}");
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        // The same schema with a few levels fits.
        let mut small = s.clone();
        small["properties"]["root"]["$ref"] = json!("#/$defs/D27");
        assert!(inline(&small, MAX_INLINE_NODES).is_ok());
    }

    #[test]
    fn conflicting_siblings_are_refused() {
        let s = json!({"properties":{"a":{"$ref":"#/$defs/A","type":"integer"}},"$defs":{"A":{"type":"string"}}});
        assert!(
            inline(&s, 100)
                .unwrap_err()
                .reason
                .contains("sets differently")
        );
    }

    #[test]
    fn data_that_looks_like_a_ref_is_left_alone() {
        let s = json!({"type":"object","properties":{"p":{"enum":[{"$ref":"#/x"}],"default":{"$ref":"#/y"}}}});
        let (out, done) = inline(&s, 100).unwrap();
        assert_eq!(out, s);
        assert!(done.is_empty());
    }
}
