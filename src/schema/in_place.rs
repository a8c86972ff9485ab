//! `$ref` loops that never leave the value: a reference that comes back to itself through
//! keywords applying to the same value (`allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`,
//! `else`, `dependentSchemas`, schema-form `dependencies`, `$ref`, and `$dynamicRef` or
//! `$recursiveRef` where nothing can redirect them; each only under a draft that has it), as in
//! `A: {anyOf: [{$ref: A}, {type: string}]}` or `A: {not: {$ref: A}}`.
//!
//! Evaluating such a schema recurses on the same value without end. JSON Schema 2020-12 core
//! ("Guarding Against Infinite Recursion") says a schema must not be run into such a loop and
//! that its behaviour is undefined; the jsonschema crate breaks the loop by passing the value,
//! so `A = not A` accepted every call (trial 58 D18). A loop through `properties`, `items` and
//! the like moves into a member or an item each turn, ends with the value, and is fine (a
//! recursive tree).

use std::collections::HashMap;

use serde_json::Value;

use super::{Via, refs, walk};

/// Keywords whose subschemas apply to the value itself.
pub const IN_PLACE: &[&str] = &[
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependencies",
];

/// The first `$ref` of `root` (in document order) on a loop of references and keywords that
/// apply to the same value, among the subschemas evaluation reaches from the root, as (JSON
/// Pointer of the `$ref`, the problem in words); `None` when there is none. A definition no
/// reference reaches is not evaluated, so a loop inside it alone is not named.
pub fn ref_loop(root: &Value) -> Option<(String, String)> {
    let _declarations = refs::indexed(root);
    let siblings_apply = crate::repair::refs::ref_siblings_apply(root);
    let draft = jsonschema::Draft::Draft202012.detect(root);
    // Whether evaluation of the schema `parent` enters its subschema under `keyword`.
    let evaluated = |parent: &Value, keyword: &str| {
        if !draft_has(draft, keyword) {
            return false;
        }
        let Some(map) = parent.as_object() else {
            return true;
        };
        // Drafts 04 to 07 ignore every keyword beside a `$ref` (draft-07 core §8.3: "All
        // other properties in a \"$ref\" object MUST be ignored"), as `args` does when it
        // judges (trial 59 D5): a loop through one is never run.
        if !siblings_apply && map.get("$ref").is_some_and(Value::is_string) {
            return false;
        }
        // `then` applies only where `if` passes and `else` only where it fails (2020-12 core
        // §10.2.2.2-3; without `if` neither applies): `if: false` never runs `then`, `if:
        // true` never runs `else`.
        match keyword {
            "then" => !matches!(map.get("if"), None | Some(Value::Bool(false))),
            "else" => !matches!(map.get("if"), None | Some(Value::Bool(true))),
            _ => true,
        }
    };
    let walk = walk(root);
    let nodes = &walk.nodes;
    let index: HashMap<&str, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.pointer.as_str(), i))
        .collect();
    // Edges that stay on the value (`same`) and all edges evaluation follows (`any`).
    let mut same: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut any: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, n) in nodes.iter().enumerate().skip(1) {
        let (keyword, tokens) = match &n.via {
            Via::Root => continue,
            Via::Keyword(k) => (*k, 1),
            Via::Member { keyword, .. } => (*keyword, 2),
            Via::Element { keyword, .. } => (*keyword, 2),
        };
        let Some(parent) = strip_tokens(&n.pointer, tokens).and_then(|p| index.get(p)) else {
            continue;
        };
        if matches!(keyword, "$defs" | "definitions") || !evaluated(nodes[*parent].value, keyword) {
            continue;
        }
        any[*parent].push(i);
        if IN_PLACE.contains(&keyword) {
            same[*parent].push(i);
        }
    }
    // Each reference keyword of a node that resolves to a node of the walk: (keyword, target).
    let mut target: Vec<Vec<(&'static str, usize)>> = vec![Vec::new(); nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        let Some(map) = n.object() else {
            continue;
        };
        for keyword in REFERENCES {
            let Some(Value::String(reference)) = map.get(*keyword) else {
                continue;
            };
            if let Some(pointer) = resolved(root, draft, nodes, &n.pointer, keyword, reference)
                && let Some(&t) = index.get(pointer.as_str())
            {
                target[i].push((keyword, t));
                same[i].push(t);
                any[i].push(t);
            }
        }
    }
    let reached = reached_from_root(&any);
    let component = components(&same);
    nodes.iter().enumerate().find_map(|(i, n)| {
        let &(keyword, _) = target[i]
            .iter()
            .find(|&&(_, t)| reached[i] && (t == i || component[t] == component[i]))?;
        let reference = n.object()?.get(keyword)?.as_str()?;
        Some((
            super::push_token(&n.pointer, keyword),
            format!(
                "`{keyword}` to `{reference}` comes back to itself through keywords that apply \
                 to the same value (`allOf`, `anyOf`, `not`, ...), never moving into a \
                 member or an item: evaluating it never ends, and JSON Schema leaves such \
                 a schema's verdict undefined; make the loop pass through `properties` or \
                 `items`, or remove it"
            ),
        ))
    })
}

/// Whether the jsonschema crate, which `args` judges with, evaluates the in-place keyword
/// `keyword` under `draft`: `dependentSchemas` from 2019-09 on (2019-09 core §10.2.2.4), and
/// `if`/`then`/`else` from draft-07 on (draft-07 validation §6.6); a keyword a draft lacks is
/// an unknown keyword there, never run. The crate runs schema-form `dependencies` under every
/// draft (its keyword table, jsonschema 0.61 `keywords/mod.rs`), so it is kept: its schema
/// members are subschemas of [`crate::schema::walk`] under every draft.
pub(crate) fn draft_has(draft: jsonschema::Draft, keyword: &str) -> bool {
    use jsonschema::Draft;
    match keyword {
        "dependentSchemas" => !matches!(draft, Draft::Draft4 | Draft::Draft6 | Draft::Draft7),
        "if" | "then" | "else" => !matches!(draft, Draft::Draft4 | Draft::Draft6),
        _ => true,
    }
}

/// The keywords that evaluate the value against another schema of the document.
const REFERENCES: &[&str] = &["$ref", "$dynamicRef", "$recursiveRef"];

/// The decoded JSON Pointer of the schema the reference `reference` under `keyword` at
/// `from` always evaluates the value against; `None` where it names none of the document or
/// may name another schema by the dynamic scope, and for a keyword `draft` does not have.
///
/// `$dynamicRef` (2020-12 core §8.2.3.2) resolves as `$ref` does, unless the schema that
/// resolves to declares a `$dynamicAnchor` of the fragment's name: then evaluation takes the
/// outermost resource in the dynamic scope declaring one, which can only be that schema when
/// the document declares that name once. `$recursiveRef` (2019-09 core §8.2.4.2) alike, by
/// `$recursiveAnchor: true` (trial 59 D10: `A: {$dynamicAnchor: n, anyOf: [{type: string},
/// {$dynamicRef: "#n"}]}` passed `1`). A schema whose dynamic reference another declaration
/// could redirect is left unnamed: the loop is then not certain.
fn resolved(
    root: &Value,
    draft: jsonschema::Draft,
    nodes: &[super::Node<'_>],
    from: &str,
    keyword: &str,
    reference: &str,
) -> Option<String> {
    let name = reference.rsplit_once('#').map_or("", |(_, f)| f);
    // Whether a schema declares the anchor the dynamic scope would be searched for.
    let declares = |v: &Value| match keyword {
        "$dynamicRef" => {
            !name.is_empty() && v.get("$dynamicAnchor").and_then(Value::as_str) == Some(name)
        }
        "$recursiveRef" => v.get("$recursiveAnchor") == Some(&Value::Bool(true)),
        _ => false,
    };
    let known = match keyword {
        "$ref" => true,
        "$dynamicRef" => draft == jsonschema::Draft::Draft202012,
        "$recursiveRef" => draft == jsonschema::Draft::Draft201909,
        _ => false,
    };
    if !known {
        return None;
    }
    let refs::Step::Local(schema, pointer) = refs::step_from(root, from, reference) else {
        return None;
    };
    (!declares(schema) || nodes.iter().filter(|n| declares(n.value)).count() == 1)
        .then_some(pointer)
}

/// `pointer` without its last `n` tokens.
fn strip_tokens(pointer: &str, n: usize) -> Option<&str> {
    let mut end = pointer.len();
    for _ in 0..n {
        end = pointer[..end].rfind('/')?;
    }
    Some(&pointer[..end])
}

/// Which nodes evaluation reaches from the root (node 0).
fn reached_from_root(edges: &[Vec<usize>]) -> Vec<bool> {
    let mut seen = vec![false; edges.len()];
    let mut stack = vec![0];
    while let Some(i) = stack.pop() {
        if i >= seen.len() || std::mem::replace(&mut seen[i], true) {
            continue;
        }
        stack.extend(edges[i].iter().copied().filter(|&j| !seen[j]));
    }
    seen
}

/// The strongly connected component of each node (Tarjan's algorithm, iterative: a schema may
/// nest deeper than the stack allows recursion).
fn components(edges: &[Vec<usize>]) -> Vec<usize> {
    const NONE: usize = usize::MAX;
    let n = edges.len();
    let mut order = vec![NONE; n];
    let mut low = vec![0; n];
    let mut component = vec![NONE; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut next = 0;
    let mut found = 0;
    for start in 0..n {
        if order[start] != NONE {
            continue;
        }
        // (node, index of its next edge to look at)
        let mut calls: Vec<(usize, usize)> = vec![(start, 0)];
        order[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut e)) = calls.last_mut() {
            if let Some(&w) = edges[v].get(*e) {
                *e += 1;
                if order[w] == NONE {
                    order[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == order[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = found;
                    if w == v {
                        break;
                    }
                }
                found += 1;
            }
        }
    }
    component
}

#[cfg(test)]
mod tests {
    use super::ref_loop;
    use serde_json::json;

    /// Where `ref_loop` finds a loop in `s`, if it does.
    fn at(s: serde_json::Value) -> Option<String> {
        ref_loop(&s).map(|(p, _)| p)
    }

    /// A tool schema whose property `x` refers to `a`, defined as `$defs/A`.
    fn def(a: serde_json::Value) -> serde_json::Value {
        json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}}, "$defs": {"A": a}})
    }

    #[test]
    fn a_reference_back_to_itself_on_the_same_value_is_a_loop() {
        // Trial 58 D18: each passed every value.
        assert_eq!(
            at(def(
                json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]})
            ))
            .as_deref(),
            Some("/$defs/A/anyOf/0/$ref")
        );
        assert_eq!(
            at(def(json!({"not": {"$ref": "#/$defs/A"}}))).as_deref(),
            Some("/$defs/A/not/$ref")
        );
        assert_eq!(
            at(def(json!({"allOf": [{"$ref": "#/$defs/B"}]}))).as_deref(),
            None,
            "B is missing: broken_ref's to name"
        );
        // Through two definitions and an `if`.
        let two = json!({"properties": {"x": {"$ref": "#/$defs/A"}}, "$defs": {
            "A": {"if": {"$ref": "#/$defs/B"}}, "B": {"oneOf": [{"$ref": "#/$defs/A"}]}}});
        assert_eq!(at(two).as_deref(), Some("/$defs/A/if/$ref"));
        // The root itself.
        assert_eq!(
            at(json!({"allOf": [{"$ref": "#"}]})).as_deref(),
            Some("/allOf/0/$ref")
        );
        // Loops that move into a member or an item are recursive data, not loops.
        for fine in [
            def(json!({"type": "object", "properties": {"next": {"$ref": "#/$defs/A"}}})),
            def(
                json!({"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/A"}},
                {"type": "string"}]}),
            ),
            json!({"type": "object", "properties": {"direct": {"anyOf": [{"$ref": "#"},
                {"type": "null"}]}}}),
            // A definition no reference reaches is never evaluated.
            json!({"type": "object", "$defs": {"A": {"not": {"$ref": "#/$defs/A"}}}}),
        ] {
            assert_eq!(at(fine.clone()), None, "{fine}");
        }
    }

    /// Trial 59 D5: a loop only through keywords evaluation never runs is no loop: those
    /// beside a `$ref` under a draft-04 to 07 root `$schema`, `then` under `if: false`, `else`
    /// under `if: true`, and either without an `if`.
    #[test]
    fn keywords_never_evaluated_make_no_loop() {
        let draft = |schema: &str| {
            json!({"$schema": schema, "type": "object", "properties": {"x": {"$ref": "#/definitions/A"}},
                "definitions": {"A": {"$ref": "#/definitions/B",
                    "anyOf": [{"$ref": "#/definitions/A"}]}, "B": {"type": "string"}}})
        };
        for ignored in [
            "http://json-schema.org/draft-07/schema#",
            "http://json-schema.org/draft-06/schema#",
            "http://json-schema.org/draft-04/schema#",
        ] {
            assert_eq!(at(draft(ignored)), None, "{ignored}");
        }
        // From 2019-09 on the keyword beside the `$ref` applies: the loop is run.
        for applies in [
            "https://json-schema.org/draft/2020-12/schema",
            "https://json-schema.org/draft/2019-09/schema",
        ] {
            assert_eq!(
                at(draft(applies)).as_deref(),
                Some("/definitions/A/anyOf/0/$ref"),
                "{applies}"
            );
        }
        for never in [
            json!({"type": "string", "if": false, "then": {"$ref": "#/$defs/A"}}),
            json!({"type": "string", "if": true, "else": {"$ref": "#/$defs/A"}}),
            json!({"type": "string", "then": {"$ref": "#/$defs/A"}}),
            json!({"type": "string", "else": {"$ref": "#/$defs/A"}}),
        ] {
            assert_eq!(at(def(never.clone())), None, "{never}");
        }
        // Builder note (session 49): a keyword the root's draft does not have is never run.
        let under = |schema: &str, a: serde_json::Value| {
            json!({"$schema": schema, "type": "object", "properties": {"x": {"$ref": "#/definitions/A"}},
                "definitions": {"A": a}})
        };
        let dependent =
            json!({"type": "object", "dependentSchemas": {"y": {"$ref": "#/definitions/A"}}});
        let conditional = json!({"if": {"$ref": "#/definitions/A"}});
        for (schema, a, runs) in [
            ("http://json-schema.org/draft-07/schema#", &dependent, false),
            ("http://json-schema.org/draft-04/schema#", &dependent, false),
            (
                "https://json-schema.org/draft/2019-09/schema",
                &dependent,
                true,
            ),
            (
                "https://json-schema.org/draft/2020-12/schema",
                &dependent,
                true,
            ),
            (
                "http://json-schema.org/draft-06/schema#",
                &conditional,
                false,
            ),
            (
                "http://json-schema.org/draft-04/schema#",
                &conditional,
                false,
            ),
            (
                "http://json-schema.org/draft-07/schema#",
                &conditional,
                true,
            ),
        ] {
            assert_eq!(at(under(schema, a.clone())).is_some(), runs, "{schema} {a}");
        }
        for runs in [
            json!({"if": true, "then": {"$ref": "#/$defs/A"}}),
            json!({"if": false, "else": {"$ref": "#/$defs/A"}}),
            json!({"if": {"type": "string"}, "then": {"$ref": "#/$defs/A"}}),
        ] {
            assert!(at(def(runs.clone())).is_some(), "{runs}");
        }
    }

    /// Schema-form `dependencies` is run under every draft by the crate `args` judges with, so
    /// a loop through it is one ([`crate::schema::walk`] reads its schema members; `args`
    /// answered "ok" to such a schema before it did).
    #[test]
    fn a_loop_through_schema_form_dependencies_is_a_loop() {
        let s = json!({"type": "object", "properties": {"x": {"$ref": "#/definitions/A"}},
            "definitions": {"A": {"dependencies": {"y": {"not": {"$ref": "#/definitions/A"}}}}}});
        assert_eq!(
            at(s).as_deref(),
            Some("/definitions/A/dependencies/y/not/$ref")
        );
    }

    /// Trial 59 D10: `$dynamicRef` (2020-12) and `$recursiveRef` (2019-09) resolve as `$ref`
    /// where no other declaration of their anchor can take them elsewhere.
    #[test]
    fn dynamic_references_back_to_themselves_are_loops_where_nothing_redirects_them() {
        assert_eq!(
            at(def(json!({"$dynamicAnchor": "n",
                "anyOf": [{"type": "string"}, {"$dynamicRef": "#n"}]})))
            .as_deref(),
            Some("/$defs/A/anyOf/1/$dynamicRef")
        );
        assert_eq!(
            at(def(
                json!({"$dynamicAnchor": "n", "not": {"$dynamicRef": "#n"}})
            ))
            .as_deref(),
            Some("/$defs/A/not/$dynamicRef")
        );
        // A pointer fragment, or a target without the anchor: as `$ref`.
        assert_eq!(
            at(def(json!({"allOf": [{"$dynamicRef": "#/$defs/A"}]}))).as_deref(),
            Some("/$defs/A/allOf/0/$dynamicRef")
        );
        let recursive = json!({"$schema": "https://json-schema.org/draft/2019-09/schema",
            "type": ["object", "string"], "properties": {"x": {"$ref": "#"}},
            "anyOf": [{"type": "string"}, {"type": "object", "not": {"$recursiveRef": "#"}}]});
        assert_eq!(
            at(recursive.clone()).as_deref(),
            Some("/anyOf/1/not/$recursiveRef")
        );
        let mut anchored = recursive.clone();
        anchored["$recursiveAnchor"] = json!(true);
        assert_eq!(at(anchored).as_deref(), Some("/anyOf/1/not/$recursiveRef"));
        for fine in [
            // Another resource declaring `$dynamicAnchor: n` may be the outermost one in the
            // dynamic scope: where the reference goes is not certain.
            json!({"$id": "https://example.com/root", "$dynamicAnchor": "n",
                "properties": {"x": {"$ref": "a"}},
                "$defs": {"A": {"$id": "a", "$dynamicAnchor": "n",
                    "anyOf": [{"type": "string"}, {"$dynamicRef": "#n"}]}}}),
            // Each keyword only in its own draft.
            {
                let mut r = recursive.clone();
                r["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
                r
            },
            json!({"$schema": "https://json-schema.org/draft/2019-09/schema",
                "properties": {"x": {"$ref": "#/$defs/A"}}, "$defs": {"A":
                    {"$anchor": "n", "not": {"$dynamicRef": "#n"}}}}),
            // Through an item: recursive data.
            def(json!({"$dynamicAnchor": "n", "items": {"$dynamicRef": "#n"}})),
        ] {
            assert_eq!(at(fine.clone()), None, "{fine}");
        }
    }
}
