//! Following local `$ref`s: the one resolver and the one hop limit that `check`, `repair`,
//! `compile` and `args` share, so a chain is judged (and worded) the same by every command.
//!
//! A *hop* is one `$ref` followed. A chain continues while the schema reached holds a `$ref`
//! (with or without keywords beside it: a validator follows it either way), so a chain of
//! [`MAX_REF_HOPS`] references reaches its schema and one more is refused as too long. A chain
//! that comes back to a place it passed is a *cycle*, whatever its length.

use serde_json::Value;

use super::percent_decode;

/// Most `$ref`s followed one after another: in a chain of schemas that are each a `$ref` to
/// the next, and, when `repair` inlines, in references nested in the targets of others. A
/// limit, not a guess at a loop: a longer chain is refused as longer than the limit (a cycle
/// is found as a cycle within it). 64 is far past anything in the corpora (their longest
/// chain is a handful of hops) and keeps every follower's work and recursion small.
pub const MAX_REF_HOPS: usize = 64;

/// One `$ref` resolved in `root`, without following what it reaches.
#[derive(Debug, Clone, PartialEq)]
pub enum Step<'v> {
    /// A reference into this document that names a value: a JSON Pointer fragment (`#`,
    /// `#/$defs/A`, percent-escapes decoded) or a plain name (`#foo`) some subschema declares
    /// as its `$anchor`. The value and its decoded JSON Pointer.
    Local(&'v Value, String),
    /// Not a reference into this document ([`fragment`]): toolwire never fetches it.
    Remote,
    /// A reference into this document that names nothing in `root`.
    Missing,
}

/// The fragment of `reference` (the text of a `$ref`) when it refers into the document
/// `root` is: the part after `#` of `#...`; `""` for the empty reference, which RFC 3986 §4.4
/// makes the document itself; and the fragment of a reference whose part before `#` is the
/// root's own `$id` (`https://ex.com/s#/$defs/A` in a schema with that `$id`). `None` for any
/// other document, which toolwire never fetches. (An `$id` below the root, which changes the
/// base of the references under it, is not followed: such references count as remote.)
pub fn fragment<'r>(root: &Value, reference: &'r str) -> Option<&'r str> {
    let (base, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    if base.is_empty() {
        return Some(fragment);
    }
    let id = root.get("$id").and_then(Value::as_str)?;
    (id.trim_end_matches('#') == base).then_some(fragment)
}

/// Resolves `reference` (the text of a `$ref`) in `root`.
pub fn step<'v>(root: &'v Value, reference: &str) -> Step<'v> {
    let Some(fragment) = fragment(root, reference) else {
        return Step::Remote;
    };
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return match anchor(root, fragment) {
            Some((v, pointer)) => Step::Local(v, pointer),
            None => Step::Missing,
        };
    }
    let pointer = percent_decode(fragment);
    match root.pointer(&pointer) {
        Some(v) => Step::Local(v, pointer.into_owned()),
        None => Step::Missing,
    }
}

/// Definitions (`$defs` and `definitions` members together) searched for an `$anchor`. A
/// schema may hold a `$ref` at each of [`super::MAX_NODES`] places, so the search is bounded
/// for every lookup to stay cheap; tool schemas declare anchors on their definitions.
pub const MAX_ANCHOR_DEFINITIONS: usize = 256;

/// The schema that declares `$anchor: name` (draft 2020-12 §8.2.2) and its JSON Pointer: the
/// root, or one of its first [`MAX_ANCHOR_DEFINITIONS`] definitions in document order. An
/// anchor declared anywhere else is not found (the reference then names nothing toolwire
/// follows).
fn anchor<'v>(root: &'v Value, name: &str) -> Option<(&'v Value, String)> {
    let declares = |v: &Value| v.get("$anchor").and_then(Value::as_str) == Some(name);
    if declares(root) {
        return Some((root, String::new()));
    }
    ["$defs", "definitions"]
        .iter()
        .filter_map(|k| Some((*k, root.get(*k)?.as_object()?)))
        .flat_map(|(k, defs)| defs.iter().map(move |(member, v)| (k, member, v)))
        .take(MAX_ANCHOR_DEFINITIONS)
        .find(|(_, _, v)| declares(v))
        .map(|(k, member, v)| {
            let at = crate::json::push_token(&crate::json::push_token("", k), member);
            (v, at)
        })
}

/// Where following a `$ref` and the `$ref`s of what it reaches ends ([`follow`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Chain<'v> {
    /// At a value that holds no string `$ref` (a schema, or whatever a broken schema put
    /// there): the value, its decoded JSON Pointer, and the last reference followed, as
    /// written.
    Reaches {
        schema: &'v Value,
        pointer: String,
        last: &'v str,
    },
    /// At a reference the chain cannot follow: `last` is its text, `step` what it is
    /// ([`Step::Remote`] or [`Step::Missing`]).
    Stops { last: &'v str, step: Step<'v> },
    /// Back at a place already passed: the decoded pointers of the loop in order, its first
    /// repeated at the end (`[A, B, A]`; `[A, A]` for a schema that refers to itself).
    Cycle(Vec<String>),
    /// More than [`MAX_REF_HOPS`] references in a row without reaching a schema.
    TooLong,
}

/// Follows `reference` in `root`, then the `$ref` of each value reached, for at most
/// [`MAX_REF_HOPS`] hops in all. Iterative, and each step costs one pointer lookup.
pub fn follow<'v>(root: &'v Value, reference: &'v str) -> Chain<'v> {
    let mut last = reference;
    let mut seen: Vec<String> = Vec::new();
    let mut hops = 0;
    loop {
        hops += 1;
        let (node, pointer) = match step(root, last) {
            Step::Local(node, pointer) => (node, pointer),
            other => return Chain::Stops { last, step: other },
        };
        if let Some(start) = seen.iter().position(|s| *s == pointer) {
            let mut cycle = seen.split_off(start);
            cycle.push(pointer);
            return Chain::Cycle(cycle);
        }
        let Some(next) = node.get("$ref").and_then(Value::as_str) else {
            return Chain::Reaches {
                schema: node,
                pointer,
                last,
            };
        };
        if hops == MAX_REF_HOPS {
            return Chain::TooLong;
        }
        seen.push(pointer);
        last = next;
    }
}

/// The problem with a chain that reaches no schema, in the words every command uses:
/// [`cycle`] for a [`Chain::Cycle`], [`too_long`] for a [`Chain::TooLong`]; `None` otherwise.
/// `reference` is the `$ref` the chain started from.
pub fn chain_problem(reference: &str, chain: &Chain<'_>) -> Option<String> {
    match chain {
        Chain::Cycle(c) => Some(cycle(reference, c)),
        Chain::TooLong => Some(too_long(reference)),
        _ => None,
    }
}

/// "`$ref` to `X` starts a `$ref` chain longer than 64 hops (...)": a chain toolwire stops
/// following at [`MAX_REF_HOPS`], which may still reach a schema further on.
pub fn too_long(reference: &str) -> String {
    format!(
        "`$ref` to `{reference}` starts a `$ref` chain longer than {MAX_REF_HOPS} hops \
         (toolwire follows at most {MAX_REF_HOPS} references in a row; shorten the chain)"
    )
}

/// The same limit met while inlining: the references nest, each inside the target of the one
/// before, more than [`MAX_REF_HOPS`] deep from the `$ref` to `reference`.
pub fn too_long_nested(reference: &str) -> String {
    format!(
        "`$ref` to `{reference}` starts a `$ref` chain longer than {MAX_REF_HOPS} hops \
         (each target holds the next `$ref`; inlining follows at most {MAX_REF_HOPS} nested \
         references)"
    )
}

/// A chain from `reference` that loops (`c` as in [`Chain::Cycle`]), in words: a reference
/// to itself, one leading to a schema that refers to itself, or a cycle through the
/// definitions it names; each "never reaches a schema".
pub fn cycle(reference: &str, c: &[String]) -> String {
    let starts_here = c
        .first()
        .is_some_and(|p| reference.strip_prefix('#') == Some(p.as_str()));
    match (c.len(), starts_here) {
        (2, true) => {
            format!("`$ref` to `{reference}` refers to itself and never reaches a schema")
        }
        (2, false) => format!(
            "`$ref` to `{reference}` leads to `#{}`, which refers to itself and never reaches a \
             schema",
            c[0]
        ),
        _ => {
            let names: Vec<String> = c.iter().map(|p| format!("`#{p}`")).collect();
            format!(
                "`$ref` to `{reference}` {} a cycle of references through {} that never reaches \
                 a schema",
                if starts_here { "is" } else { "leads into" },
                names.join(" → ")
            )
        }
    }
}

/// How many subschemas `root` holds with every local `$ref` counted as a copy of its target
/// (a reference back into a target being counted counts nothing more: a validator recurses
/// there only as deep as the instance), capped: any count above `cap` is `cap + 1`.
///
/// A schema whose definitions each reference the next twice ("billion laughs") is small as
/// written and exponential expanded; a validator that compiles references eagerly (the
/// `jsonschema` crate `args` uses) spends time and memory in proportion to this count. Each
/// distinct target is walked once (memoised), and the references between targets are
/// followed with an explicit stack, so a chain of 100,000 definitions costs no recursion.
/// Remote and dangling references count nothing: they are reported where they are met.
pub fn expanded_size(root: &Value, cap: usize) -> usize {
    /// A target's own subschemas and the targets its references name.
    struct Target {
        own: usize,
        refs: Vec<usize>,
    }
    let mut pointers: Vec<String> = vec![String::new()];
    let mut index: std::collections::HashMap<String, usize> =
        std::collections::HashMap::from([(String::new(), 0)]);
    let mut targets: Vec<Target> = Vec::new();
    // Walk each target once, numbering the targets met in order.
    while targets.len() < pointers.len() {
        let at = pointers[targets.len()].clone();
        let Some(value) = root.pointer(&at) else {
            targets.push(Target {
                own: 0,
                refs: Vec::new(),
            });
            continue;
        };
        let mut nodes = super::walk(value).nodes;
        if at.is_empty() {
            // The root's definitions count where they are referenced, not as written.
            nodes.retain(|n| {
                !(n.pointer.starts_with("/$defs/") || n.pointer.starts_with("/definitions/"))
            });
        }
        let mut refs = Vec::new();
        for node in &nodes {
            let Some(text) = node
                .object()
                .and_then(|o| o.get("$ref"))
                .and_then(Value::as_str)
            else {
                continue;
            };
            if let Step::Local(_, pointer) = step(root, text) {
                let next = pointers.len();
                let i = *index.entry(pointer.clone()).or_insert_with(|| {
                    pointers.push(pointer);
                    next
                });
                refs.push(i);
            }
        }
        targets.push(Target {
            own: nodes.len(),
            refs,
        });
    }
    // Sizes in post-order; a target still open when met again is a recursion (counts 0).
    let mut size: Vec<Option<usize>> = vec![None; targets.len()];
    let mut open = vec![false; targets.len()];
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    open[0] = true;
    while let Some(&mut (t, ref mut next)) = stack.last_mut() {
        if let Some(&r) = targets[t].refs.get(*next) {
            *next += 1;
            if size[r].is_none() && !open[r] {
                open[r] = true;
                stack.push((r, 0));
            }
            continue;
        }
        let total = targets[t].refs.iter().fold(targets[t].own, |sum, &r| {
            sum.saturating_add(size[r].unwrap_or(0)).min(cap + 1)
        });
        size[t] = Some(total);
        open[t] = false;
        stack.pop();
    }
    size[0].unwrap_or(0).min(cap + 1)
}

/// Schemas shared by the tests of every command that follows `$ref` chains.
#[cfg(test)]
pub(crate) mod fixtures {
    use serde_json::{Map, Value, json};

    /// `properties.a` → `#/$defs/D0` → ... → `Dn` (a string): each `Di` a bare `$ref` to the
    /// next, or (`nested`) an object whose property `x` is one. Following `#/$defs/D0` takes
    /// `n + 1` hops.
    pub(crate) fn chain(n: usize, nested: bool) -> Value {
        let mut defs = Map::new();
        for i in 0..n {
            let next = json!({"$ref": format!("#/$defs/D{}", i + 1)});
            let def = if nested {
                json!({"type":"object","properties":{"x": next}})
            } else {
                next
            };
            defs.insert(format!("D{i}"), def);
        }
        defs.insert(format!("D{n}"), json!({"type":"string"}));
        json!({"type":"object","properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":defs})
    }

    /// "Billion laughs": `properties.x` → `d0`, each `di` an `anyOf` referencing `d(i+1)`
    /// twice, `d{levels}` a string: small as written, 2^levels subschemas expanded.
    pub(crate) fn laughs(levels: usize) -> Value {
        let mut defs = Map::new();
        for i in 0..levels {
            let next = json!({"$ref": format!("#/$defs/d{}", i + 1)});
            defs.insert(format!("d{i}"), json!({"anyOf": [next.clone(), next]}));
        }
        defs.insert(format!("d{levels}"), json!({"type":"string"}));
        json!({"type":"object","properties":{"x":{"$ref":"#/$defs/d0"}},"$defs":defs})
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{chain, laughs};
    use super::*;
    use serde_json::json;

    #[test]
    fn expanded_size_counts_each_reference_as_its_target_and_stays_capped() {
        // Root, a, b, and a copy of S for each (the definitions as written count nothing).
        let s = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/S"},"b":{"$ref":"#/$defs/S"}},
            "$defs":{"S":{"type":"string"}}});
        assert_eq!(expanded_size(&s, 1000), 5);
        // Each definition referencing the next twice: 2^levels, cut at the cap.
        let small = expanded_size(&laughs(4), 1_000_000);
        assert!(small > 2usize.pow(4) && small < 2usize.pow(7), "{small}");
        assert_eq!(expanded_size(&laughs(40), 100_000), 100_001);
        // A recursive schema counts its recursion once; a long chain needs no deep stack.
        let rec = json!({"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},
            "$defs":{"N":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/N"}}}}}});
        assert!(expanded_size(&rec, 1000) < 20);
        assert!(expanded_size(&chain(20_000, true), usize::MAX - 1) < 100_000);
    }

    #[test]
    fn a_chain_of_the_limit_reaches_its_schema_and_one_more_hop_is_too_long() {
        let under = chain(MAX_REF_HOPS - 1, false);
        match follow(&under, "#/$defs/D0") {
            Chain::Reaches {
                schema,
                pointer,
                last,
            } => {
                assert_eq!(schema, &json!({"type":"string"}));
                assert_eq!(pointer, format!("/$defs/D{}", MAX_REF_HOPS - 1));
                assert_eq!(last, format!("#/$defs/D{}", MAX_REF_HOPS - 1));
            }
            other => panic!("{other:?}"),
        }
        let over = chain(MAX_REF_HOPS, false);
        assert_eq!(follow(&over, "#/$defs/D0"), Chain::TooLong);
        let long = chain(1_500, false);
        assert_eq!(follow(&long, "#/$defs/D0"), Chain::TooLong);
        assert_eq!(
            chain_problem("#/$defs/D0", &Chain::TooLong).unwrap(),
            format!(
                "`$ref` to `#/$defs/D0` starts a `$ref` chain longer than {MAX_REF_HOPS} hops \
                 (toolwire follows at most {MAX_REF_HOPS} references in a row; shorten the chain)"
            )
        );
    }

    #[test]
    fn a_cycle_is_a_cycle_at_any_length() {
        let s = json!({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"},"c":{"$ref":"#/$defs/c"}}});
        let c = follow(&s, "#/$defs/a");
        assert_eq!(
            c,
            Chain::Cycle(vec![
                "/$defs/a".into(),
                "/$defs/b".into(),
                "/$defs/a".into()
            ])
        );
        assert_eq!(
            chain_problem("#/$defs/a", &c).unwrap(),
            "`$ref` to `#/$defs/a` is a cycle of references through `#/$defs/a` → `#/$defs/b` → `#/$defs/a` that never reaches a schema"
        );
        assert_eq!(
            chain_problem("#/$defs/c", &follow(&s, "#/$defs/c")).unwrap(),
            "`$ref` to `#/$defs/c` refers to itself and never reaches a schema"
        );
        // A loop that closes within the limit is a cycle however far its run-up started.
        let mut long = chain(200, false);
        long["$defs"]["D200"] = json!({"$ref":"#/$defs/D170"});
        assert!(matches!(follow(&long, "#/$defs/D160"), Chain::Cycle(c) if c.len() == 32));
        assert_eq!(follow(&long, "#/$defs/D0"), Chain::TooLong);
        // Keywords beside a `$ref` do not end the chain: the validator follows it too.
        let sib = json!({"$defs":{"a":{"$ref":"#/$defs/a","description":"x"}}});
        assert!(matches!(follow(&sib, "#/$defs/a"), Chain::Cycle(_)));
    }

    #[test]
    fn what_cannot_be_followed_stops_the_chain() {
        let s = json!({"$defs":{"a":{"$ref":"#/$defs/x%20y"},"x y":{"$ref":"https://e.org/s"},
            "m":{"$ref":"#/$defs/none"},"n":{"$ref":"#anchor"}}});
        assert_eq!(
            follow(&s, "#/$defs/a"),
            Chain::Stops {
                last: "https://e.org/s",
                step: Step::Remote
            }
        );
        assert_eq!(
            follow(&s, "#/$defs/m"),
            Chain::Stops {
                last: "#/$defs/none",
                step: Step::Missing
            }
        );
        assert_eq!(
            follow(&s, "#/$defs/n"),
            Chain::Stops {
                last: "#anchor",
                step: Step::Missing
            }
        );
        assert!(matches!(step(&s, "#"), Step::Local(v, p) if v == &s && p.is_empty()));
    }

    #[test]
    fn the_document_itself_its_id_and_anchors_are_local() {
        let s = json!({"$id": "https://ex.com/root", "properties": {"a": {"$ref": "#foo"}},
            "$defs": {"f": {"$anchor": "foo", "type": "string"}}});
        // The empty reference is the document itself (RFC 3986 §4.4), as `#` is.
        assert!(matches!(step(&s, ""), Step::Local(v, p) if v == &s && p.is_empty()));
        assert_eq!(
            step(&s, "#foo"),
            Step::Local(&s["$defs"]["f"], "/$defs/f".into())
        );
        assert_eq!(
            step(&s, "https://ex.com/root#/$defs/f"),
            Step::Local(&s["$defs"]["f"], "/$defs/f".into())
        );
        assert!(matches!(step(&s, "https://ex.com/root"), Step::Local(_, p) if p.is_empty()));
        assert_eq!(step(&s, "https://ex.com/other#/$defs/f"), Step::Remote);
        assert_eq!(step(&s, "#bar"), Step::Missing);
        // Without an `$id`, a URL is another document.
        assert_eq!(step(&json!({}), "https://ex.com/root#/x"), Step::Remote);
    }

    /// Anchors are looked for on the root and its first definitions only, so a schema of many
    /// references costs each of them a bounded search.
    #[test]
    fn anchors_are_found_on_the_root_and_the_first_definitions() {
        let mut defs = serde_json::Map::new();
        for i in 0..=MAX_ANCHOR_DEFINITIONS {
            defs.insert(format!("D{i}"), json!({"$anchor": format!("a{i}")}));
        }
        let s = json!({"$anchor": "top", "$defs": defs,
            "properties": {"p": {"$anchor": "inside", "type": "string"}}});
        assert!(matches!(step(&s, "#top"), Step::Local(_, p) if p.is_empty()));
        let last = MAX_ANCHOR_DEFINITIONS - 1;
        assert!(
            matches!(step(&s, &format!("#a{last}")), Step::Local(_, p) if p == format!("/$defs/D{last}"))
        );
        assert_eq!(
            step(&s, &format!("#a{MAX_ANCHOR_DEFINITIONS}")),
            Step::Missing
        );
        assert_eq!(step(&s, "#inside"), Step::Missing);
    }
}
