//! `ref-dangling`: a local `$ref` that resolves to nothing in the schema (or a `$ref` that is
//! no string, which refers to nothing), or to no one schema: a URI two subschemas declare as
//! their `$id`, a name two declare as their anchor. Not ref-remote's: such a reference is not
//! to another document, and nothing fetched would settle which schema it names.
//!
//! Unlike other rules, its finding is an error where the profile has no evidence either way:
//! there is no schema at that place for any target to read, whatever it does with `$ref`, and
//! `compile` and `args` refuse such a schema ([`crate::schema::broken_ref`]). Where the
//! profile's evidence decides (`structure: ref-unresolved`), it is followed: a rejection is
//! cited, and acceptance by every target of the profile (an engine that ignores the
//! reference) is not overridden ([`Cx::no_schema`]).

use super::*;
use crate::schema::refs;

pub const RULE: Rule = Rule {
    id: "ref-dangling",
    checks: "A local `$ref` (`#/...`, or the schema's own `$id` then `#...`) names nothing in \
             the schema, e.g. a `$defs` entry lost on the way, or names no one schema (a URI \
             two subschemas declare as their `$id`, a name two declare as their `$anchor`), or \
             `$ref` is not a string. It is an error unless every target has evidence of accepting it: no schema is there to read.",
    features: "`structure: ref-unresolved`",
    example: r##"{"type": "object", "properties": {"city": {"$ref": "#/$defs/City"}}}"##,
    example_target: None,
    fix: "Add the definition the `$ref` names at the place it names (a `$defs` entry at the \
          schema's root, for `#/$defs/...`), or replace the `$ref` with the schema it was meant \
          to name.",
    repair: "no: which schema was meant cannot be known",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::REF,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::Structure, &[value::REF_UNRESOLVED])
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(r) = n.reference else { return };
    let what = match r.as_str() {
        Some(text) => {
            let Some(root) = cx.root() else { return };
            // A remote reference is ref-remote's; toolwire cannot tell what it names.
            let here = cx.pointer(At::Node(n.frame));
            match refs::unresolved(text, &refs::step_from(root, &here, text)) {
                Some(problem) => problem,
                None => return,
            }
        }
        None => format!("`$ref` is not a string but {r}"),
    };
    let feat = Feat::Structure(value::REF_UNRESOLVED);
    let at = At::Key(n.frame, "$ref");
    match cx.no_schema(&feat, n.placement) {
        Some(slot) => cx.feature_under(at, feat, n.placement, slot, |m| m.push_str(&what)),
        None => cx.feature(at, feat, n.placement, || what),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn references_to_nothing() {
        let s = json!({"$id":"https://ex.com/s","type":"object",
            "$defs":{"A":{"type":"string","$anchor":"a"},"T":{"$anchor":"t"},"U":{"$anchor":"t"},
                "D":{"$id":"d.json"},"E":{"$id":"d.json"}},"properties":{
            "a":{"$ref":"#/$defs/A"},
            "anchor":{"$ref":"#a"},
            "by-id":{"$ref":"https://ex.com/s#/$defs/A"},
            "gone":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/Target"}]},
            "no-anchor":{"$ref":"#nothing"},
            "number":{"$ref":5},
            "twice":{"$ref":"#t"},
            "twice-id":{"$ref":"https://ex.com/d.json"},
            "remote":{"$ref":"https://example.com/a.json"}}});
        assert_eq!(
            seen("ref-dangling", s),
            pairs(&[
                ("/properties/gone/anyOf/1/$ref", "structure: ref-unresolved"),
                ("/properties/no-anchor/$ref", "structure: ref-unresolved"),
                ("/properties/number/$ref", "structure: ref-unresolved"),
                ("/properties/twice/$ref", "structure: ref-unresolved"),
                ("/properties/twice-id/$ref", "structure: ref-unresolved"),
            ])
        );
    }

    #[test]
    fn a_ref_that_is_not_a_string_says_so() {
        let s = json!({"type":"object","properties":{"a":{"$ref":5}}});
        let messages = messages("ref-dangling", s);
        assert!(
            messages
                .iter()
                .any(|m| m.starts_with("`$ref` is not a string but 5")),
            "{messages:?}"
        );
    }

    /// An error where the profile has no evidence either way: the finding says no
    /// evidence is needed and gives the rule's fix (not "nothing to fix yet").
    #[test]
    fn an_error_without_evidence() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let mut portable = set
            .get(crate::profile::PORTABLE)
            .expect("portable profile")
            .clone();
        // Whatever the evidence is today, this profile has none on dangling references.
        portable
            .features
            .retain(|f| f.parameter != "structure: ref-unresolved");
        let profile = crate::profile::CompiledProfile::new(&portable);
        let parameters = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}});
        let tool = super::ToolRef {
            name: Some("t"),
            description: Some("d"),
            parameters: Some(&parameters),
            index: 0,
            ..Default::default()
        };
        let findings = crate::check::check_tools(&[tool], &profile);
        let f = findings
            .iter()
            .find(|f| f.rule == "ref-dangling")
            .expect("a ref-dangling finding");
        assert_eq!(f.level, crate::check::Level::Error);
        assert!(f.message.ends_with("(no evidence needed)"), "{}", f.message);
        assert_eq!(f.fix.to_string(), super::RULE.fix);
        assert!(!f.repairable);
    }
}
