//! Object nesting depth: the one measure that `check` (`depth-exceeded`) and the offline
//! models of `compile` (OpenAI strict's 10 levels, Gemini's nesting refusal) share, so that a
//! schema one of them refuses for depth the other refuses too.
//!
//! **What is counted.** The object schemas (`type: "object"` in any case, or `properties`;
//! [`super::is_object_schema`]) on one path of subschemas from the root, the root counted when
//! it is one; the depth is the largest count over all paths. Arrays, combinators and the other
//! applicators are steps of a path but not levels: the `depth-limit: N` cases nest `N` objects
//! (cases/README.md, `nested-depth`), OpenAI documents "nesting levels" of objects, and the
//! Gemini reports' smallest refused schema is 4 objects with no array
//! (gitlab-mcp-nesting-depth-named); no evidence says an array is a level of its own.
//!
//! **References.** A path goes on through a local `$ref` into the schema it reaches (followed
//! with the shared resolver, [`super::refs::follow`], within its hop limit), because an
//! argument nests as deep as the definitions it is made of: a chain `D0 → D1 → ...` of
//! definitions, each an object whose property refers to the next, is as deep as the same
//! objects written inline. A `$ref` in an object schema (`{"$ref": .., "properties": ..}`) and a
//! target that is an object schema are one object, as `repair` and `compile` merge them, so
//! that target is no level below it. So is the one branch of an `allOf` in an object schema,
//! or a target of a `$ref` in that branch, for the same reason (`repair`'s one-branch `allOf`
//! merge). `$defs` and `definitions` are not walked by themselves: a
//! definition nests where it is referred to. A reference that cannot be followed (remote, to
//! nothing, an `$anchor`, a cycle of bare references) adds nothing; other rules report it.
//!
//! **Recursion.** A reference back to a schema already on the path (a recursive definition,
//! `Node → children → items → Node`) allows arguments of any depth. It is counted once: the
//! path ends where it would enter that schema a second time, and [`Nesting::recursive`] says
//! so. Whether a target takes recursion at all is the `keyword-allowed: $ref (recursive)` case
//! (rule `ref-unsupported`), with its own evidence; counting the unrolled cycle as "too deep"
//! would report the same fact twice under a rule with no evidence for it. (gemini-cli treats
//! an error containing "maximum schema depth exceeded" as a likely cyclic schema and does not
//! retry it, `packages/core/src/core/geminiChat.ts`, 2025; no public report ties that text, or
//! the "maximum allowed nesting depth" one, to a recursive tool schema with its words.)
//!
//! **Bounds.** At most [`MAX_STEPS`] subschema steps on one path (the measure is then a lower
//! bound, far above every known limit), at most [`super::MAX_NODES`] subschemas visited in
//! all, and at most [`super::refs::MAX_REF_HOPS`] references open on one path. A definition's
//! depth is computed once and reused, so a schema that refers to one definition many times
//! costs one walk of it.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::refs::{self, Chain};
use super::{LIST_OF_SCHEMAS, MAP_OF_SCHEMAS, ONE_SCHEMA, is_object_schema};
use crate::json::append_token;

/// Most subschema steps followed on one path (inline and through references together).
pub const MAX_STEPS: usize = 512;

/// The object nesting of a schema ([module docs](self)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nesting {
    /// Object schemas on the deepest path (0 when there is none).
    pub levels: usize,
    /// JSON Pointer, in the schema's own document, of the deepest object schema of that path
    /// (inside `$defs` when the path ends in a definition). `""` is the root.
    pub pointer: String,
    /// The deepest path goes through at least one `$ref`.
    pub through_ref: bool,
    /// Some path came back to a schema already on it through a `$ref` (recursion), and was
    /// counted once through the cycle.
    pub recursive: bool,
}

/// The object nesting of `root` ([module docs](self)). Never fails; bounded on any input.
pub fn nesting(root: &Value) -> Nesting {
    let mut m = Measure {
        root,
        open: Vec::new(),
        memo: HashMap::new(),
        visits: 0,
        cuts: 0,
    };
    let r = m.go(root, &mut String::new(), 0, false);
    Nesting {
        levels: r.levels,
        pointer: r.pointer,
        through_ref: r.through_ref,
        recursive: m.cuts > 0,
    }
}

#[derive(Debug, Clone)]
struct Below {
    levels: usize,
    pointer: String,
    through_ref: bool,
}

struct Measure<'v> {
    root: &'v Value,
    /// Decoded pointers of the reference targets open on the current path.
    open: Vec<String>,
    /// Depth of a reference target, once computed without meeting recursion.
    memo: HashMap<String, Below>,
    visits: usize,
    /// References not followed because their target was open (recursion met).
    cuts: usize,
}

impl<'v> Measure<'v> {
    /// `joined`: `v` is the one branch of an `allOf` in an object schema (or in such a
    /// branch), which `repair` and `compile` merge into that object: it is no level of its own,
    /// and a `$ref` in it sits beside an object as one in the object itself does.
    ///
    /// `path` is `v`'s JSON Pointer, one buffer for the whole walk (each step writes its token
    /// and takes it off again): a pointer is copied out only for an object schema with none
    /// below it, the one place a result's pointer comes from.
    fn go(&mut self, v: &'v Value, path: &mut String, steps: usize, joined: bool) -> Below {
        self.visits += 1;
        let object = is_object_schema(v) || joined;
        let own = usize::from(is_object_schema(v) && !joined);
        let mut best = Below {
            levels: 0,
            pointer: String::new(),
            through_ref: false,
        };
        if let Some(o) = v.as_object()
            && steps < MAX_STEPS
            && self.visits <= super::MAX_NODES
        {
            for (k, c) in o {
                let k = k.as_str();
                let mut consider = |m: &mut Self, sub: &'v Value, path: &mut String, joined| {
                    let r = m.go(sub, path, steps + 1, joined);
                    if r.levels > best.levels {
                        best = r;
                    }
                };
                let len = path.len();
                if MAP_OF_SCHEMAS.contains(&k) {
                    if k == "$defs" || k == "definitions" {
                        continue;
                    }
                    if let Some(map) = c.as_object() {
                        append_token(path, k);
                        let here = path.len();
                        for (name, sub) in map {
                            append_token(path, name);
                            consider(self, sub, path, false);
                            path.truncate(here);
                        }
                    }
                } else if k == "dependencies" {
                    append_token(path, k);
                    let here = path.len();
                    for (name, sub) in super::schema_dependencies(c) {
                        append_token(path, name);
                        consider(self, sub, path, false);
                        path.truncate(here);
                    }
                } else if ONE_SCHEMA.contains(&k) || (k == "items" && !c.is_array()) {
                    append_token(path, k);
                    consider(self, c, path, false);
                } else if (LIST_OF_SCHEMAS.contains(&k) || k == "items")
                    && let Some(list) = c.as_array()
                {
                    append_token(path, k);
                    let here = path.len();
                    let joined = object && k == "allOf" && list.len() == 1;
                    for (i, sub) in list.iter().enumerate() {
                        write!(path, "/{i}").expect("writing to a String cannot fail");
                        consider(self, sub, path, joined);
                        path.truncate(here);
                    }
                }
                path.truncate(len);
            }
            if let Some(Value::String(r)) = o.get("$ref")
                && let Some(mut r) = self.through(path, r, steps, object)
            {
                r.through_ref = true;
                if r.levels > best.levels {
                    best = r;
                }
            }
        }
        if best.levels == 0 {
            // With no object schema below, the deepest one on this path is `v` when it is one;
            // otherwise there is none, and a caller keeps its own (a result of 0 levels is
            // never taken over one it has, and the root's pointer is empty).
            best.pointer = if own == 1 {
                path.clone()
            } else {
                String::new()
            };
            best.through_ref = false;
        }
        best.levels += own;
        best
    }

    /// The depth below a `$ref` to `reference`, or `None` when it adds nothing (not followed,
    /// or a target already open on this path). `beside_object`: the `$ref` sits in an object
    /// schema (`{"$ref": .., "properties": ..}`), which is the same object as a target that
    /// is one (the two are merged into one by `repair` and `compile`), so that target is no
    /// level of its own below it (trial 46: a chain of 7 such objects counted as 12 levels).
    fn through(
        &mut self,
        from: &str,
        reference: &'v str,
        steps: usize,
        beside_object: bool,
    ) -> Option<Below> {
        let Chain::Reaches {
            schema, pointer, ..
        } = refs::follow_from(self.root, from, reference)
        else {
            return None;
        };
        if self.open.contains(&pointer) {
            self.cuts += 1;
            return None;
        }
        let merged = usize::from(beside_object && is_object_schema(schema));
        if let Some(known) = self.memo.get(&pointer) {
            let mut r = known.clone();
            r.levels = r.levels.saturating_sub(merged);
            return Some(r);
        }
        if self.open.len() >= refs::MAX_REF_HOPS {
            return None;
        }
        let cuts = self.cuts;
        self.open.push(pointer.clone());
        let r = self.go(schema, &mut pointer.clone(), steps + 1, false);
        self.open.pop();
        // A result cut short by recursion depends on the path it was reached by.
        if self.cuts == cuts {
            self.memo.insert(pointer, r.clone());
        }
        Some(Below {
            levels: r.levels.saturating_sub(merged),
            ..r
        })
    }
}

/// Schemas shared by the tests of the places that measure nesting (this module, the
/// `depth-exceeded` rule, OpenAI strict's model).
#[cfg(test)]
pub(crate) mod fixtures {
    use serde_json::{Map, Value, json};

    /// `n` definitions `D0 → D1 → ...`, each an object whose property `next` refers to the
    /// next (the last has a string), and a root object whose property refers to `D0`: `n + 1`
    /// object levels.
    pub(crate) fn chain(n: usize) -> Value {
        let mut defs = Map::new();
        for i in 0..n {
            let next = if i + 1 < n {
                json!({"$ref": format!("#/$defs/D{}", i + 1)})
            } else {
                json!({"type":"string"})
            };
            defs.insert(
                format!("D{i}"),
                json!({"type":"object","properties":{"next": next}}),
            );
        }
        json!({"type":"object","properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":defs})
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::chain;
    use super::*;
    use serde_json::{Map, json};

    /// The same `n + 1` objects written inline.
    fn inline(n: usize) -> Value {
        let mut s = json!({"type":"string"});
        for _ in 0..n {
            s = json!({"type":"object","properties":{"next": s}});
        }
        json!({"type":"object","properties":{"a": s}})
    }

    #[test]
    fn a_chain_of_definitions_is_as_deep_as_the_same_objects_inline() {
        for n in [1, 3, 11, 15] {
            let (r, i) = (nesting(&chain(n)), nesting(&inline(n)));
            assert_eq!(r.levels, n + 1, "n={n}");
            assert_eq!(i.levels, n + 1, "n={n}");
            assert!(r.through_ref && !i.through_ref);
            assert!(!r.recursive);
        }
        assert_eq!(nesting(&chain(15)).pointer, "/$defs/D14");
    }

    /// A `$ref` beside `properties` is one object with its target (merged so by repair and
    /// compile), not one level above it: a chain of `n` such links was counted as about `2n`
    /// levels, so a schema 7 levels deep was refused as 12 (trial 46, D2).
    #[test]
    fn a_ref_beside_properties_is_one_object_with_its_target() {
        for n in [1, 5, 10] {
            let mut defs = Map::new();
            defs.insert(
                "D0".into(),
                json!({"type":"object","properties":{"p":{"type":"string"}}}),
            );
            let mut merged = defs["D0"].clone();
            for i in 1..=n {
                let s = json!({"s":{"type":"string"}});
                let link = json!({"$ref": format!("#/$defs/D{}", i - 1), "properties": s});
                defs.insert(
                    format!("D{i}"),
                    json!({"type":"object","properties":{"a": link}}),
                );
                merged["properties"]["s"] = s["s"].clone();
                merged = json!({"type":"object","properties":{"a": merged}});
            }
            let by_ref = json!({"type":"object","properties":{"o":{"$ref": format!("#/$defs/D{n}")}},
                "$defs": defs});
            let inline = json!({"type":"object","properties":{"o": merged}});
            assert_eq!(nesting(&inline).levels, n + 2, "n={n}");
            assert_eq!(nesting(&by_ref).levels, n + 2, "n={n}");
        }
        // A target that is no object schema is no level of the object beside it either way.
        let beside_union = json!({"type":"object","properties":{"o":{"$ref":"#/$defs/U",
            "properties":{"k":{"type":"string"}}}},"$defs":{"U":{"anyOf":[{"type":"object",
            "properties":{"x":{"type":"object"}}}]}}});
        assert_eq!(nesting(&beside_union).levels, 4);
    }

    /// Trial 48 D9: the link written `{"allOf": [{"$ref": ..}], "properties": ..}` counted two
    /// levels, as `{"$ref": .., "properties": ..}` did before (`repair` merges both alike).
    #[test]
    fn a_one_branch_all_of_in_an_object_is_that_object() {
        for n in [1, 8] {
            let mut defs = Map::new();
            defs.insert(
                "D0".into(),
                json!({"type":"object","properties":{"v":{"type":"string"}}}),
            );
            for i in 1..=n {
                let link = json!({"allOf":[{"$ref": format!("#/$defs/D{}", i - 1)}],
                    "properties":{"s":{"type":"string"}}});
                defs.insert(
                    format!("D{i}"),
                    json!({"type":"object","properties":{"a": link}}),
                );
            }
            let s = json!({"type":"object","properties":{"r":{"$ref": format!("#/$defs/D{n}")}},
                "$defs": defs});
            assert_eq!(nesting(&s).levels, n + 2, "n={n}");
        }
        // An object branch inline, and one in a chain of one-branch `allOf`s, is the object.
        let inline = json!({"type":"object","allOf":[{"allOf":[{"type":"object",
            "properties":{"x":{"type":"object"}}}]}]});
        assert_eq!(nesting(&inline).levels, 2);
        // Two branches are not merged: each object branch stays a level, as before.
        let two = json!({"type":"object","allOf":[{"type":"object"},{"type":"object",
            "properties":{"x":{"type":"object"}}}]});
        assert_eq!(nesting(&two).levels, 3);
        // A branch beside no object is unchanged.
        let bare = json!({"allOf":[{"type":"object","properties":{"x":{"type":"object"}}}]});
        assert_eq!(nesting(&bare).levels, 2);
    }

    #[test]
    fn arrays_and_combinators_are_steps_not_levels() {
        let s = json!({"type":"object","properties":{"a":{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"string"}}}}}});
        assert_eq!(nesting(&s).levels, 1);
        let s = json!({"type":"object","properties":{"a":{"type":"array","items":{"anyOf":[{"type":"null"},{"type":"object","properties":{"b":{"type":"object"}}}]}}}});
        let n = nesting(&s);
        assert_eq!(n.levels, 3);
        assert_eq!(n.pointer, "/properties/a/items/anyOf/1/properties/b");
    }

    /// A schema-form `dependencies` member is a subschema of the object, as a
    /// `dependentSchemas` member is, and counts as check's walk counts it; a property list
    /// there is no step.
    #[test]
    fn schema_form_dependencies_are_steps_and_property_lists_are_not() {
        let s = json!({"type":"object","dependencies":{"a":["b"],
            "b":{"properties":{"c":{"type":"object","properties":{"d":{"type":"object"}}}}}}});
        let n = nesting(&s);
        assert_eq!(n.levels, 4);
        assert_eq!(n.pointer, "/dependencies/b/properties/c/properties/d");
        assert_eq!(
            nesting(&json!({"type":"object","dependencies":{"a":["b"]}})).levels,
            1
        );
    }

    #[test]
    fn definitions_count_where_they_are_referred_to_only() {
        let unused = json!({"type":"object","$defs":{"X":{"type":"object","properties":{"y":{"type":"object"}}}}});
        assert_eq!(nesting(&unused).levels, 1);
        let used_twice = json!({"type":"object","properties":{"p":{"$ref":"#/$defs/X"},"q":{"type":"object","properties":{"r":{"$ref":"#/$defs/X"}}}},"$defs":{"X":{"type":"object","properties":{"y":{"type":"object"}}}}});
        let n = nesting(&used_twice);
        assert_eq!(n.levels, 4);
        assert_eq!(n.pointer, "/$defs/X/properties/y");
    }

    #[test]
    fn recursion_is_counted_once_and_flagged() {
        let s = json!({"$defs":{"Node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}},"$ref":"#/$defs/Node"});
        let n = nesting(&s);
        assert_eq!(n.levels, 1);
        assert!(n.recursive);
        let root_recursion = json!({"type":"object","properties":{"sub":{"$ref":"#"}}});
        let n = nesting(&root_recursion);
        // The root is not opened by a reference, so `#` is entered once more before the cut.
        assert_eq!(n.levels, 2);
        assert!(n.recursive);
        // Mutual recursion through two definitions, and a broken or bare cycle, end.
        let mutual = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/B"}}},"B":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}}}});
        assert_eq!(nesting(&mutual).levels, 3);
        let bare = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/A"}}});
        assert_eq!(nesting(&bare).levels, 1);
        let missing = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/none"}}});
        assert_eq!(nesting(&missing).levels, 1);
    }

    #[test]
    fn a_wide_graph_of_definitions_is_measured_once_per_definition() {
        // Each of 40 definitions refers to the next one twice: 2^40 paths, 40 walks.
        let mut defs = Map::new();
        for i in 0..40 {
            let next = json!({"$ref": format!("#/$defs/D{}", i + 1)});
            defs.insert(
                format!("D{i}"),
                json!({"type":"object","properties":{"x": next.clone(), "y": next}}),
            );
        }
        defs.insert("D40".into(), json!({"type":"string"}));
        let s = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":defs});
        assert_eq!(nesting(&s).levels, 41);
    }

    #[test]
    fn a_path_longer_than_the_step_cap_stops() {
        let mut s = json!({"type":"string"});
        for _ in 0..400 {
            s = json!({"type":"object","properties":{"v": s}});
        }
        let levels = nesting(&s).levels;
        assert!((MAX_STEPS / 2..=400).contains(&levels), "{levels}");
    }
}
