//! `ref-expansion-exceeded`: a schema whose local `$ref`s, each counted as a copy of its
//! target, expand past [`crate::args::MAX_EXPANDED`] subschemas; or, without references, one
//! that has more than that many as written.
//!
//! Not a provider's rule but toolwire's own limit, as `nesting-too-deep` is: `args` refuses
//! such a schema on every call (its validator compiles references eagerly), and a target that
//! inlines references would have to write every copy. A few definitions that each reference
//! the next twice are small as written and expand 2^N times, so nothing else `check` measures
//! (size, depth) sees them. The count ([`crate::schema::refs::expanded_size`]) is taken after
//! the walk, and only for a tool whose walk met a reference or definitions: the rest of a
//! corpus never pays for it; for the others the walk's own count is the measure. The walk
//! stops past [`crate::schema::MAX_NODES`] subschemas, so a schema that large was checked
//! only in part: the finding says so, rather than let its other findings read as complete.

use super::*;
use crate::args::MAX_EXPANDED;

pub const RULE: Rule = Rule {
    id: "ref-expansion-exceeded",
    checks: "The schema expands to more than 100000 subschemas with each local `$ref` counted \
             as a copy of its target (a reference back into a definition being counted counts \
             nothing more; a schema without references counts as written): toolwire's own cap, \
             the one `toolwire args` holds a declared schema to, not a provider's. Past 200000 \
             subschemas as written (definitions no reference reaches among them), `check` \
             reads no further, and says so here. A few definitions that each reference the next twice are \
             small as written and expand exponentially; `args` cannot check calls against such \
             a schema, and a target that inlines `$ref`s would have to write every copy.",
    features: "none: toolwire's own cap, not a feature of a case",
    example: r##"{"type": "object", "properties": {"root": {"$ref": "#/$defs/p"}}, "$defs": {"a": {"type": "string"}, "b": {"type": "object", "properties": {"x": {"$ref": "#/$defs/a"}, "y": {"$ref": "#/$defs/a"}}}, "c": {"type": "object", "properties": {"x": {"$ref": "#/$defs/b"}, "y": {"$ref": "#/$defs/b"}}}, "d": {"type": "object", "properties": {"x": {"$ref": "#/$defs/c"}, "y": {"$ref": "#/$defs/c"}}}, "e": {"type": "object", "properties": {"x": {"$ref": "#/$defs/d"}, "y": {"$ref": "#/$defs/d"}}}, "f": {"type": "object", "properties": {"x": {"$ref": "#/$defs/e"}, "y": {"$ref": "#/$defs/e"}}}, "g": {"type": "object", "properties": {"x": {"$ref": "#/$defs/f"}, "y": {"$ref": "#/$defs/f"}}}, "h": {"type": "object", "properties": {"x": {"$ref": "#/$defs/g"}, "y": {"$ref": "#/$defs/g"}}}, "i": {"type": "object", "properties": {"x": {"$ref": "#/$defs/h"}, "y": {"$ref": "#/$defs/h"}}}, "j": {"type": "object", "properties": {"x": {"$ref": "#/$defs/i"}, "y": {"$ref": "#/$defs/i"}}}, "k": {"type": "object", "properties": {"x": {"$ref": "#/$defs/j"}, "y": {"$ref": "#/$defs/j"}}}, "l": {"type": "object", "properties": {"x": {"$ref": "#/$defs/k"}, "y": {"$ref": "#/$defs/k"}}}, "m": {"type": "object", "properties": {"x": {"$ref": "#/$defs/l"}, "y": {"$ref": "#/$defs/l"}}}, "n": {"type": "object", "properties": {"x": {"$ref": "#/$defs/m"}, "y": {"$ref": "#/$defs/m"}}}, "o": {"type": "object", "properties": {"x": {"$ref": "#/$defs/n"}, "y": {"$ref": "#/$defs/n"}}}, "p": {"type": "object", "properties": {"x": {"$ref": "#/$defs/o"}, "y": {"$ref": "#/$defs/o"}}}}}"##,
    example_target: None,
    fix: "Make the schema smaller: split the tool, or accept a JSON string for the large part; where `$ref`s multiply it, reference the definitions fewer times (share one definition where two references repeat it).",
    repair: "no",
    repairable: never,
    owns: |_| false,
    hooks: Hooks {
        after: Some(after),
        ..Hooks::NONE
    },
};

fn after<'a>(cx: &mut Cx<'a, '_>, _t: &ToolRef<'a>, s: &Stats) {
    let Some(root) = cx.root() else {
        return;
    };
    // Every subschema takes at least two bytes of compact JSON (`{}`), so a schema shorter
    // than twice the cap is within it unless its references multiply it: nothing is counted
    // for the tools of a corpus.
    if !(s.truncated || s.refers || s.compact_bytes > 2 * MAX_EXPANDED) {
        return;
    }
    // A schema that short within the walk holds at most the cap as written, so only its
    // references can take it past: measured by them alone, with no count of it first (the
    // tools of a corpus that refer pay what they paid before counting came in).
    if !(s.truncated || s.compact_bytes > 2 * MAX_EXPANDED)
        && crate::schema::refs::expanded_size_walked(root, MAX_EXPANDED) <= MAX_EXPANDED
    {
        return;
    }
    if let Some(problem) = past_cap(root, s.truncated) {
        cx.own_cap(At::Pointer(""), |m| m.push_str(&problem));
    }
}

/// What a schema past toolwire's own caps is refused for, in the words `check` and `repair`
/// both use; `None` within them. `args` refuses a schema that expands past [`MAX_EXPANDED`]
/// (`expanded_size` decides, as in `args`; its words name the count as written when that is
/// past the cap, as `args` does, else the `$ref`s); `truncated` says the check's walk stopped
/// past [`crate::schema::MAX_NODES`] subschemas, so that nothing past them was checked, which
/// holds even for a schema `args` takes (definitions no reference reaches).
pub(crate) fn past_cap(root: &serde_json::Value, truncated: bool) -> Option<String> {
    // One count serves both measures: what the schema expands to and what it holds as
    // written (a walk made a pointer for each subschema, twice, before the cap was known).
    let written = crate::schema::count(root);
    let expands =
        crate::schema::refs::expanded_size_counted(root, MAX_EXPANDED, &written) > MAX_EXPANDED;
    if !expands && !truncated {
        return None;
    }
    let mut m = String::new();
    if expands {
        if written.truncated || written.nodes > MAX_EXPANDED {
            m = format!(
                "the schema has {}{} subschemas as written, past the {MAX_EXPANDED} `toolwire \
                 args` checks calls within, so `args` refuses every call to this tool",
                if written.truncated { "more than " } else { "" },
                written.nodes
            );
        } else {
            m = format!(
                "the schema expands to more than {MAX_EXPANDED} subschemas through its `$ref`s \
                 (each reference counted as a copy of its target), past the cap `toolwire args` \
                 checks calls within, so `args` refuses every call to this tool; a target that \
                 inlines `$ref`s would have to write every copy"
            );
        }
    }
    if truncated {
        if !m.is_empty() {
            m.push_str("; ");
        }
        m.push_str(&format!(
            "check reads only the first {} subschemas of a tool: nothing past them was checked",
            crate::schema::MAX_NODES
        ));
    }
    Some(m)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::testing::check_under;
    use super::MAX_EXPANDED;
    use crate::check::Level;
    use serde_json::{Value, json};

    /// Definitions `a0`..`aN`, each object referencing the one before twice, the root
    /// referencing `aN`: it expands about 2^(N+2) times.
    pub(crate) fn bomb(n: usize) -> Value {
        let mut defs = serde_json::Map::new();
        defs.insert("a0".into(), json!({"type": "string"}));
        for i in 1..=n {
            let r = json!({"$ref": format!("#/$defs/a{}", i - 1)});
            defs.insert(
                format!("a{i}"),
                json!({"type": "object", "properties": {"x": r, "y": r}}),
            );
        }
        json!({"type": "object", "properties": {"root": {"$ref": format!("#/$defs/a{n}")}}, "$defs": defs})
    }

    fn ours(profile: &str, s: &Value) -> Vec<crate::check::Finding> {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let p = crate::profile::CompiledProfile::new(set.get(profile).expect("profile"));
        check_under(&p, s)
            .into_iter()
            .filter(|f| f.rule == super::RULE.id)
            .collect()
    }

    #[test]
    fn a_ref_bomb_is_one_error_at_the_root_without_evidence() {
        for profile in ["anthropic/messages", crate::profile::PORTABLE] {
            let f = ours(profile, &bomb(40));
            assert_eq!(f.len(), 1, "{profile}: {f:?}");
            let f = &f[0];
            assert_eq!(f.level, Level::Error);
            assert_eq!(f.pointer, "");
            assert!(f.evidence.is_none());
            assert!(!f.repairable);
            assert!(f.parameter.is_empty());
            assert!(
                f.message.contains("more than 100000 subschemas"),
                "{}",
                f.message
            );
            assert!(f.message.contains("`toolwire args`"), "{}", f.message);
            assert!(
                f.message.ends_with(
                    "toolwire's own cap, not a provider's, so no target's evidence applies"
                ),
                "{}",
                f.message
            );
        }
    }

    #[test]
    fn a_schema_expanding_to_the_cap_exactly_is_not_reported_and_one_more_is() {
        // The largest bomb under the cap, padded with plain properties up to the cap.
        let n = (1..40)
            .take_while(|&n| {
                crate::schema::refs::expanded_size(&bomb(n), MAX_EXPANDED) <= MAX_EXPANDED
            })
            .last()
            .expect("a small bomb is under the cap");
        let mut s = bomb(n);
        let base = crate::schema::refs::expanded_size(&s, MAX_EXPANDED);
        assert!(base > MAX_EXPANDED / 4, "{base}");
        let props = s["properties"].as_object_mut().expect("properties");
        for i in 0..MAX_EXPANDED - base {
            props.insert(format!("p{i}"), json!({"type": "string"}));
        }
        assert_eq!(
            crate::schema::refs::expanded_size(&s, MAX_EXPANDED),
            MAX_EXPANDED
        );
        assert!(ours("anthropic/messages", &s).is_empty());
        s["properties"]["one_more"] = json!({"type": "string"});
        assert_eq!(ours("anthropic/messages", &s).len(), 1);
    }

    /// `n` properties of `type: float` beside `additionalProperties: false`: `n + 2`
    /// subschemas as written, no reference.
    fn wide(n: usize) -> Value {
        let props: serde_json::Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "float"})))
            .collect();
        json!({"type": "object", "properties": props, "additionalProperties": false})
    }

    #[test]
    fn a_schema_without_references_counts_as_written_as_args_does() {
        let at_cap = wide(MAX_EXPANDED - 2);
        assert_eq!(crate::schema::walk(&at_cap).nodes.len(), MAX_EXPANDED);
        assert!(ours(crate::profile::PORTABLE, &at_cap).is_empty());
        let over = wide(MAX_EXPANDED - 1);
        let f = ours(crate::profile::PORTABLE, &over);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!((f[0].level, f[0].pointer.as_str()), (Level::Error, ""));
        assert!(
            f[0].message.starts_with(&format!(
                "the schema has {} subschemas as written, past the {MAX_EXPANDED}",
                MAX_EXPANDED + 1
            )),
            "{}",
            f[0].message
        );
        assert!(!f[0].message.contains("`$ref`"), "{}", f[0].message);
        assert!(
            !f[0].message.contains("check reads only"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn a_schema_past_the_cap_as_written_is_refused_without_a_walk() {
        // Trial 73 D4: the refusal of a schema past the cap was decided after two walks that
        // each made a pointer per subschema (175,782 of them), seconds and hundreds of MB
        // before a count gave the same words. Counted now, the words are those of the walk.
        let over = wide(MAX_EXPANDED + 10);
        let before = crate::schema::WALKED.with(|w| w.get());
        let words = super::past_cap(&over, false).expect("past the cap");
        assert_eq!(crate::schema::WALKED.with(|w| w.get()), before, "no walk");
        let written = crate::schema::walk(&over).nodes.len();
        assert_eq!(written, MAX_EXPANDED + 12);
        assert_eq!(
            words,
            format!(
                "the schema has {written} subschemas as written, past the {MAX_EXPANDED} \
                 `toolwire args` checks calls within, so `args` refuses every call to this tool"
            )
        );
    }

    /// `n` definitions no reference reaches, beside one property.
    fn unused_defs(n: usize) -> Value {
        let defs: serde_json::Map<String, Value> = (0..n)
            .map(|i| (format!("d{i}"), json!({"type": "string"})))
            .collect();
        json!({"type": "object", "properties": {"x": {"type": "string"}}, "$defs": defs})
    }

    #[test]
    fn definitions_no_reference_reaches_count_as_args_counts_them() {
        // `args` expands from the root, so definitions nothing references are not its
        // concern: no finding, and repair does not refuse the tool for them.
        let s = unused_defs(MAX_EXPANDED + 10);
        assert!(crate::schema::refs::expanded_size(&s, MAX_EXPANDED) <= MAX_EXPANDED);
        assert!(ours(crate::profile::PORTABLE, &s).is_empty());
        assert_eq!(super::past_cap(&s, false), None);
        // Past the walk, only what check could not read is said, not that `args` refuses.
        let s = unused_defs(crate::schema::MAX_NODES + 10);
        let f = ours(crate::profile::PORTABLE, &s);
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].message.starts_with(&format!(
                "check reads only the first {} subschemas of a tool: nothing past them was checked",
                crate::schema::MAX_NODES
            )),
            "{}",
            f[0].message
        );
        assert!(!f[0].message.contains("refuses"), "{}", f[0].message);
    }

    #[test]
    fn a_schema_past_the_walk_says_it_was_checked_only_in_part() {
        // Before, the walk stopped at MAX_NODES without a word: the last property's
        // `float` went unreported, and nothing said so.
        let n = crate::schema::MAX_NODES;
        let s = wide(n);
        let set = crate::profile::embedded().expect("built-in profiles load");
        let p = crate::profile::CompiledProfile::new(set.get(crate::profile::PORTABLE).unwrap());
        let all = check_under(&p, &s);
        let own: Vec<_> = all.iter().filter(|f| f.rule == super::RULE.id).collect();
        assert_eq!(own.len(), 1, "{own:?}");
        assert!(
            own[0].message.starts_with(&format!(
                "the schema has more than {n} subschemas as written"
            )),
            "{}",
            own[0].message
        );
        assert!(
            own[0].message.contains(&format!(
                "check reads only the first {n} subschemas of a tool: nothing past them was checked"
            )),
            "{}",
            own[0].message
        );
    }
}
