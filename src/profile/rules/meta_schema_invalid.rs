//! `meta-schema-invalid`: a parameters schema the JSON Schema draft 2020-12 meta-schema
//! refuses, where no other rule has already said so.
//!
//! Anthropic documents (by its API's error text) that `input_schema` "must match JSON Schema
//! draft 2020-12" (`anth-2020-12-property-values-strings` and `anth-2020-12-docs-url-change`
//! in `reports/documented/reports.yaml`, each a `meta-schema: 2020-12` rule), and `engine/jsonschema-2020-12` is that check itself. The
//! profile carries the targets with that evidence (`Profile::meta_schema`, derived from the
//! matrix items the rule made and the engine's probes), so the targets, kind, date and link a
//! finding cites come from the evidence. The requirement is a class, not one case's feature:
//! each meta-schema error is reported at the place it names, after the walk, and where the
//! walk's own findings already cover that place they are settled instead.

use std::collections::HashSet;

use super::*;

pub const RULE: Rule = Rule {
    id: "meta-schema-invalid",
    checks: "The parameters schema is not valid against the JSON Schema draft 2020-12 meta-schema \
             (`type: \"strin\"`, `type: []`, `anyOf: []`, `format: 5`, `$ref: 5`, \
             `uniqueItems: \"yes\"`, `dependentRequired: {\"p\": \"q\"}`, a negative \
             `minLength`...), for the profiles whose targets reject schemas it refuses. A tool with another \
             error is judged keyword by keyword at the first 32 places the walk cannot prove \
             valid (the meta-schema judges each keyword apart from the others), so one error \
             does not hide another. Each meta-schema error is one finding at the place it \
             names; where another rule already reported an error there, inside it or at \
             the keyword it is inside, it adds none, and a warning there becomes an error, \
             but for a `type` list refused for a misspelt name in it, whose `type-list` \
             warning stays one, the name's `type-invalid` becoming the error (under \
             `portable` the example's `dependentRequired` is itself rejected, and that \
             `keyword-unsupported` error stands for this rule's).",
    features: "`structure: meta-schema-invalid`",
    // Reported under `anthropic/messages` too: a form no other rule knows (`{"p": "q"}` is
    // there a keyword form its evidence rejects, which keyword-unsupported reports first).
    example: r#"{"type": "object", "properties": {"p": {"type": "string"}, "q": {"type": "string"}}, "dependentRequired": {"p": [5]}}"#,
    example_target: Some("anthropic/messages"),
    fix: "Write the keyword as JSON Schema 2020-12 defines it (a type name from the standard list, a non-empty list for `anyOf`, a string for `format` and `$ref`, a boolean for `uniqueItems`, lists of property names in `dependentRequired`, ...), or remove it.",
    repair: "no: the value's intent cannot be known; `keyword-value-invalid` drops the values it knows",
    repairable: never,
    owns,
    hooks: Hooks {
        after: Some(after),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::Structure, &[value::META_SCHEMA_INVALID])
}

const FEAT: Feat<'static> = Feat::Structure(value::META_SCHEMA_INVALID);

/// Words added to a warning the meta-schema turns into an error.
pub(crate) const WHY: &str =
    "and the schema is not valid against the JSON Schema 2020-12 meta-schema there";

fn after<'a>(cx: &mut Cx<'a, '_>, t: &ToolRef<'a>, stats: &Stats) {
    let Some(root) = t.parameters else { return };
    // Only a profile with a target known to reject such schemas pays for the meta-schema:
    // elsewhere the schema's features are judged by their own cases.
    let Some(slot) = cx.meta_schema() else { return };
    // Most schemas are valid, and the walk has proven most of those valid shape by shape
    // (`crate::schema::meta_shape`); the crate's answer only for the rest, its errors only
    // when invalid.
    if !stats.meta_unproven {
        return;
    }
    let meta = jsonschema::draft202012::meta::validator();
    let mut index = SettleIndex::default();
    // The first error at each place, in the crate's order; a set, as a schema may have an
    // error at each of hundreds of thousands of places.
    let mut places: Vec<(String, String)> = Vec::new();
    // Made at the first error: most tools asked have none, and a set's hasher is seeded
    // from a thread-local on each `new`.
    let mut seen: Option<HashSet<String>> = None;
    let mut note = |pointer: String, error: String| {
        if seen
            .get_or_insert_with(HashSet::new)
            .insert(pointer.clone())
        {
            places.push((pointer, error));
        }
    };
    if !cx.tool_has_error() {
        if meta.is_valid(root) {
            return;
        }
        for e in meta.iter_errors(root) {
            note(e.instance_path().as_str().to_string(), e.to_string());
        }
    } else {
        // A tool the walk already rejects is judged only at the places the walk could not
        // prove (trial Q: skipping it hid `type: "strng"` until `minimum: "3"` was fixed),
        // and the crate's error texts are made only where the walk said nothing: the whole
        // meta-schema's errors over such tools (most tools of some corpora, `type: "dict"` and
        // the like) cost three times the rest of the check. The meta-schema judges each
        // keyword apart from the others, so the keyword alone, as a schema of its own, has
        // the errors it has in place. Past the places the walk remembers, the tool's
        // rejection stands for the rest (`repair` checks again what it sends).
        let Some(at) = stats.unproven_places() else {
            return;
        };
        let (mut base, mut place) = (String::new(), String::new());
        for &(frame, key) in at {
            let Some(node) = cx.unproven_node(frame) else {
                continue;
            };
            let member = match (key, node.as_object()) {
                (Stats::WHOLE, _) => None,
                (i, Some(map)) => match map.iter().nth(i as usize) {
                    Some(member) => Some(member),
                    None => continue,
                },
                (_, None) => continue,
            };
            let key = member.map(|(k, _)| k.as_str());
            // Where the walk already gave an error, the meta-schema would add nothing, unless
            // the walk also left a warning there it settles (`type: ["strng", "null"]`: the
            // list rejected as a list, its misspelt name only warned of). Asked of `type`
            // lists alone: asked at every keyword with an error, the scan of the tool's
            // findings was a tenth of check's work over the corpora.
            let settles_a_warning = |(k, v): (&String, &serde_json::Value)| {
                k == "type" && v.is_array() && cx.warning_within(frame, k)
            };
            if cx.error_at(frame, key) && !member.is_some_and(settles_a_warning) {
                continue;
            }
            cx.write_place(&mut place, frame, key);
            let alone;
            let judged = match member {
                Some((k, v)) => {
                    alone = serde_json::Value::Object(
                        std::iter::once((k.clone(), v.clone())).collect(),
                    );
                    &alone
                }
                None => node,
            };
            if meta.is_valid(judged) || cx.settle_at(&mut index, &place, slot, WHY) {
                continue;
            }
            cx.write_place(&mut base, frame, None);
            for e in meta.iter_errors(judged) {
                note(
                    format!("{base}{}", e.instance_path().as_str()),
                    e.to_string(),
                );
            }
        }
    }
    for (pointer, error) in &places {
        if cx.settle_at(&mut index, pointer, slot, WHY) {
            continue;
        }
        let placement = if pointer.is_empty() {
            Placement::Root
        } else {
            Placement::Nested
        };
        // The meta-schema's words for a bad `type` are about its own `anyOf`, which the user
        // never wrote: name the spelling and the types there are, as `args` does.
        let said = crate::schema::no_type_named(root, pointer, "");
        cx.feature_under(At::Pointer(pointer), FEAT, placement, slot, |m| {
            m.push_str("the schema is not valid against the JSON Schema 2020-12 meta-schema: ");
            m.push_str(said.as_deref().unwrap_or(error));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    /// What the rule's text says of its example holds for the built-in profiles (trial 53
    /// D1: under `portable` it shows no `meta-schema-invalid`, which the text did not say):
    /// there the keyword is rejected whole and its error stands for the value's; under
    /// `anthropic/messages` this rule reports the value.
    #[test]
    fn the_example_is_reported_where_the_text_says() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let example: serde_json::Value = serde_json::from_str(super::RULE.example).unwrap();
        let errors = |name: &str| -> Vec<(String, String)> {
            let p = crate::profile::CompiledProfile::new(set.get(name).expect("profile"));
            check_under(&p, &example)
                .into_iter()
                .filter(|f| f.level == crate::check::Level::Error)
                .map(|f| (f.rule.to_string(), f.pointer))
                .collect()
        };
        let pair = |r: &str, p: &str| (r.to_string(), p.to_string());
        assert_eq!(
            errors(crate::profile::PORTABLE),
            [pair("keyword-unsupported", "/dependentRequired")]
        );
        assert!(
            super::RULE
                .checks
                .contains("under `portable` the example's `dependentRequired`")
        );
        assert_eq!(
            errors("anthropic/messages"),
            [pair("meta-schema-invalid", "/dependentRequired/p/0")]
        );
    }

    #[test]
    fn no_case_feature() {
        // The requirement is the profile's, not a feature of any case: collecting records nothing.
        let r = "meta-schema-invalid";
        assert!(
            seen(
                r,
                json!({"type": "object", "properties": {"a": {"anyOf": []}}})
            )
            .is_empty()
        );
    }

    /// Check's findings for one described tool with `parameters`, under anthropic/messages.
    fn under_anthropic(parameters: serde_json::Value) -> Vec<crate::check::Finding> {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile = crate::profile::CompiledProfile::new(set.get("anthropic/messages").unwrap());
        let tool = crate::profile::detect::ToolRef {
            name: Some("c"),
            description: Some("Looks up a record by its identifier."),
            parameters: Some(&parameters),
            index: 0,
            ..Default::default()
        };
        crate::check::check_tools(&[tool], &profile)
    }

    /// A tool with another error is searched for meta-schema errors too: `type: "strng"`
    /// must not come up only once `minimum: "3"` is fixed (a trial's `--errors-only` run
    /// showed one error, then a new one), and the place already reported gets nothing more.
    #[test]
    fn a_tool_with_other_errors_gets_its_meta_schema_errors_elsewhere() {
        let f = under_anthropic(json!({"type": "object", "properties": {
            "x": {"type": "strng"}, "y": {"type": "number", "minimum": "3"}}}));
        let errors: Vec<(&str, &str)> = f
            .iter()
            .filter(|f| f.level == crate::check::Level::Error)
            .map(|f| (f.pointer.as_str(), f.rule.as_str()))
            .collect();
        assert!(
            errors.iter().any(|(p, _)| *p == "/properties/x/type"),
            "{f:#?}"
        );
        assert_eq!(
            errors
                .iter()
                .filter(|(p, _)| *p == "/properties/y/minimum")
                .count(),
            1,
            "{f:#?}"
        );
    }

    /// A `type` list the meta-schema refuses for a misspelt name in it is refused for that
    /// name: `type-invalid` at `/type/0` becomes the error, and the list's own finding stays
    /// what the evidence on lists says (before: no finding about the name, and `type-list`
    /// was the error, its fix to unwrap the list). Under `portable` the list is already an
    /// error (Gemini takes no lists), and the name's warning still becomes one.
    #[test]
    fn a_misspelt_name_in_a_type_list_is_refused_not_the_list() {
        use crate::check::Level::{Error, Warning};
        let parameters = json!({"type": "object", "properties": {
            "a": {"type": ["strng", "null"], "description": "x"}}});
        let at = |f: &[crate::check::Finding]| {
            let mut v: Vec<(String, String, crate::check::Level)> = f
                .iter()
                .map(|f| (f.pointer.clone(), f.rule.to_string(), f.level))
                .collect();
            v.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
            v
        };
        let t = |p: &str, r: &str, l| (p.to_string(), r.to_string(), l);
        assert_eq!(
            at(&under_anthropic(parameters.clone())),
            [
                t("/properties/a/type", "type-list", Warning),
                t("/properties/a/type/0", "type-invalid", Error),
            ]
        );
        let set = crate::profile::embedded().expect("built-in profiles load");
        let portable =
            crate::profile::CompiledProfile::new(set.get(crate::profile::PORTABLE).unwrap());
        let f = check_under(&portable, &parameters);
        let name: Vec<_> = f
            .iter()
            .filter(|f| f.pointer == "/properties/a/type/0")
            .map(|f| (f.rule.as_str(), f.level))
            .collect();
        assert_eq!(name, [("type-invalid", Error)], "{f:#?}");
    }

    /// In a tool with another error, only the places the walk could not prove are judged,
    /// keyword by keyword: an invalid keyword's warning becomes an error, a valid but
    /// unproven one (`pattern`, whose format the walk does not prove) keeps its warning.
    #[test]
    fn a_tool_with_other_errors_is_judged_only_where_unproven() {
        let f = under_anthropic(json!({"type": "object", "properties": {
            "y": {"type": "number", "minimum": "3"},
            "p": {"type": "string"},
            "q": {"type": "string", "pattern": "^a"}},
            "dependentRequired": {"p": "q"}}));
        let level_at = |p: &str| {
            f.iter()
                .filter(|f| f.pointer == p)
                .map(|f| f.level)
                .collect::<Vec<_>>()
        };
        use crate::check::Level::{Error, Warning};
        assert_eq!(level_at("/properties/y/minimum"), [Error], "{f:#?}");
        assert_eq!(level_at("/dependentRequired"), [Error], "{f:#?}");
        assert_eq!(level_at("/properties/q/pattern"), [Warning], "{f:#?}");
    }

    /// A meta-schema error at each of thousands of places settles the walk's warning at each
    /// without scanning every finding of the tool once per error (it was quadratic: 240,000
    /// misspelt types took minutes).
    #[test]
    fn settling_many_places_looks_at_each_finding_a_few_times() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile =
            crate::profile::CompiledProfile::new(set.get(crate::profile::PORTABLE).unwrap());
        let n = 3000;
        let props: serde_json::Map<String, serde_json::Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "strin"})))
            .collect();
        let parameters = json!({"type": "object", "properties": props});
        let tool = crate::profile::detect::ToolRef {
            name: Some("probe_tool"),
            description: Some("Looks up a record by its identifier."),
            parameters: Some(&parameters),
            index: 0,
            ..Default::default()
        };
        crate::profile::detect::SETTLE_VISITS.with(|v| v.set(0));
        let f = crate::check::check_tools(&[tool], &profile);
        let visits = crate::profile::detect::SETTLE_VISITS.with(|v| v.get());
        let settled = f
            .iter()
            .filter(|f| {
                f.rule == "type-invalid"
                    && f.level == crate::check::Level::Error
                    && f.message.contains("meta-schema")
            })
            .count();
        assert_eq!(settled, n, "{:?}", f.first());
        assert!(
            visits <= 2 * n,
            "{visits} findings looked at for {n} places"
        );
    }

    #[test]
    fn portable_reports_an_error_and_settles_the_walks_warning() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile =
            crate::profile::CompiledProfile::new(set.get(crate::profile::PORTABLE).unwrap());
        let check_under = |profile: &crate::profile::CompiledProfile,
                           parameters: serde_json::Value| {
            let tool = crate::profile::detect::ToolRef {
                name: Some("probe_tool"),
                description: Some("Looks up a record by its identifier."),
                parameters: Some(&parameters),
                index: 0,
                ..Default::default()
            };
            crate::check::check_tools(&[tool], profile)
        };
        let check = |parameters: serde_json::Value| check_under(&profile, parameters);
        // Where no rule of the walk reports the place (here: the one that would is off, as
        // `check --ignore` turns it off), the meta-schema error is a finding of its own.
        let mut without_values = profile.clone();
        without_values.turn_off(&["keyword-value-invalid"]);
        let format_5 = json!({"type": "object", "properties": {
            "a": {"type": "string", "format": 5}}});
        let f = check_under(&without_values, format_5.clone());
        let meta: Vec<_> = f
            .iter()
            .filter(|f| f.rule == "meta-schema-invalid")
            .collect();
        assert_eq!(meta.len(), 1, "{f:?}");
        assert_eq!(meta[0].pointer, "/properties/a/format");
        assert_eq!(meta[0].level, crate::check::Level::Error);
        assert!(!meta[0].repairable);
        // With every rule on, the walk's finding there names the bad value (an error by its
        // own case's evidence), and the meta-schema adds none.
        let f = check(format_5);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].rule, "keyword-value-invalid");
        assert_eq!(f[0].level, crate::check::Level::Error);
        assert_eq!(
            f[0].parameter.as_str(),
            "keyword-allowed: format (not a string)"
        );
        // The walk's "no case covers" warning at the same place becomes the one error there.
        let f = check(json!({"type": "object", "properties": {"a": {"type": "strin"}}}));
        let at: Vec<_> = f
            .iter()
            .filter(|f| f.pointer == "/properties/a/type")
            .collect();
        assert_eq!(at.len(), 1, "{f:?}");
        assert_eq!(at[0].rule, "type-invalid");
        assert_eq!(at[0].level, crate::check::Level::Error);
        assert!(at[0].message.contains("meta-schema"), "{}", at[0].message);
        // A keyword holding the bad place is settled too (`/dependentRequired` for
        // `/dependentRequired/p`); a property holding it is not: its name is not the problem.
        let f = check_under(
            &without_values,
            json!({"type": "object",
                "properties": {"type": {"type": "string", "format": 5}}}),
        );
        let named: Vec<_> = f
            .iter()
            .filter(|f| f.rule == "property-named-keyword")
            .collect();
        assert!(
            named
                .iter()
                .all(|f| f.level == crate::check::Level::Warning),
            "{named:?}"
        );
        assert!(
            f.iter()
                .any(|f| f.rule == "meta-schema-invalid" && f.pointer == "/properties/type/format"),
            "{f:?}"
        );
        let f = check(json!({"type": "object",
            "properties": {"p": {"type": "string"}},
            "dependentRequired": {"p": "q"}}));
        let held: Vec<_> = f
            .iter()
            .filter(|f| f.pointer.starts_with("/dependentRequired"))
            .collect();
        assert_eq!(held.len(), 1, "{held:?}");
        assert_eq!(held[0].level, crate::check::Level::Error);
        // A tool the walk already rejects gets no meta-schema finding where the walk's error
        // (here `keyword-value-invalid` on `format: 5`) already is.
        let f = check(json!({"type": "object", "properties": {
            "a": {"type": "array"}, "b": {"type": "string", "format": 5}}}));
        assert!(
            f.iter()
                .any(|f| f.rule == "array-items-missing" && f.level == crate::check::Level::Error),
            "{f:?}"
        );
        assert!(!f.iter().any(|f| f.rule == "meta-schema-invalid"), "{f:?}");
        // The tool's other error does not hide the meta-schema: the walk's warning at a bad
        // place becomes an error, with the rule that rejects the tool on or off
        // (`check --ignore`).
        let both = json!({"type": "object", "properties": {
            "a": {"type": "array"}, "b": {"type": "strin"}}});
        let level_at_b = |f: &[crate::check::Finding]| {
            f.iter()
                .find(|f| f.pointer == "/properties/b/type")
                .map(|f| f.level)
        };
        let f = check(both.clone());
        assert!(
            f.iter()
                .any(|f| f.rule == "array-items-missing" && f.level == crate::check::Level::Error),
            "{f:?}"
        );
        assert_eq!(level_at_b(&f), Some(crate::check::Level::Error), "{f:?}");
        let mut without_items = profile.clone();
        without_items.turn_off(&["array-items-missing"]);
        let f = check_under(&without_items, both);
        assert!(!f.iter().any(|f| f.rule == "array-items-missing"), "{f:?}");
        assert_eq!(level_at_b(&f), Some(crate::check::Level::Error), "{f:?}");
        // Where the profile carries no meta-schema requirement, nothing is validated.
        let set = crate::profile::embedded().expect("built-in profiles load");
        let openai = crate::profile::CompiledProfile::new(set.get("openai/chat").unwrap());
        assert!(openai.meta_schema().is_none());
        // The requirement is derived from the evidence: Anthropic's documented rule, and the
        // engine whose definition it is.
        let targets = |name: &str| -> Vec<String> {
            set.get(name)
                .unwrap()
                .meta_schema
                .iter()
                .map(|e| e.target.clone())
                .collect()
        };
        assert_eq!(targets(crate::profile::PORTABLE), ["anthropic/messages"]);
        assert_eq!(
            targets("engine/jsonschema-2020-12"),
            ["engine/jsonschema-2020-12"]
        );
        assert!(targets("gemini/v1beta/parameters").is_empty());
    }

    /// Where `meta-schema-invalid` itself reports a `type` that names no type (the rule
    /// that would, `type-invalid`, turned off as `check --ignore` does; with it on, the walk's
    /// finding there stands for the meta-schema's), it names the spelling and the types there
    /// are, as `args` does, not the meta-schema's words about its own `anyOf` (before: "\"strin\"
    /// is not valid under any of the schemas listed in the 'anyOf' keyword"). A list of
    /// standard types refused for another reason keeps them.
    #[test]
    fn a_type_naming_no_type_is_named_as_written() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let mut profile =
            crate::profile::CompiledProfile::new(set.get("anthropic/messages").unwrap());
        profile.turn_off(&["type-invalid", "type-list", "schema-invalid"]);
        let meta = |parameters: serde_json::Value| -> Vec<(String, String)> {
            check_under(&profile, &parameters)
                .into_iter()
                .filter(|f| f.rule == "meta-schema-invalid")
                .map(|f| (f.pointer, f.message.to_string()))
                .collect()
        };
        let types = "(the types are \"string\", \"number\", \"integer\", \"boolean\", \
                     \"array\", \"object\", \"null\")";
        for (ty, named) in [(json!("strin"), "strin"), (json!(["string", "nul"]), "nul")] {
            let found = meta(json!({"type": "object", "properties": {"a": {"type": ty}}}));
            assert_eq!(found.len(), 1, "{found:?}");
            assert_eq!(found[0].0, "/properties/a/type");
            assert!(
                found[0].1.starts_with(&format!(
                    "the schema is not valid against the JSON Schema 2020-12 meta-schema: \
                     \"{named}\" is not a JSON Schema type {types}"
                )),
                "{}",
                found[0].1
            );
        }
        let repeated =
            json!({"type": "object", "properties": {"a": {"type": ["string", "string"]}}});
        let found = meta(repeated);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            !found[0].1.contains("is not a JSON Schema type"),
            "{}",
            found[0].1
        );
    }
}
