//! `engine/jsonschema-2020-12`: is each tool's parameters schema a valid JSON Schema draft
//! 2020-12 document (the rule Anthropic documents for `input_schema`), checked with the
//! `jsonschema` crate.
//!
//! Two steps per distinct schema, both real calls into the crate:
//! 1. the draft 2020-12 meta-schema (`jsonschema::draft202012::meta::validator()`); every
//!    distinct error is kept (`iter_errors` repeats one error once per failing branch of the
//!    meta-schema, 8 times for a draft-07 `items: [...]`), stage `validate`;
//! 2. building a validator (`jsonschema::draft202012::options().build`), which resolves every
//!    `$ref`: this crate is built without `resolve-http`, so a remote `$ref` fails here, as it
//!    would for any consumer that does not fetch; stage `parse`.
//!
//! For an accepted first tool, the case's instances are validated with the built validator.
//! Formats are not asserted (the draft 2020-12 default: `format` is an annotation), so an
//! instance that is invalid only by its format is accepted, and the cell says
//! `accepted-ignored` with the instance named. Otherwise this engine is the reference the
//! instances are written against, so a disagreement points at the case or the crate.
//!
//! A tool without parameters has no schema to validate: it is accepted with a note saying so.

use jsonschema::ValidationError;
use serde_json::Value;

use super::{DistinctSchemas, Engine, EngineAnswer, distinct_schemas, guard, tool_pointer};
use crate::case::Instance;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// Most distinct meta-schema errors quoted in one answer (the rest are counted).
const MAX_QUOTED_ERRORS: usize = 10;

/// The target id of [`JsonSchema2020`].
pub const TARGET: &str = "engine/jsonschema-2020-12";

/// The JSON Schema draft 2020-12 engine (`jsonschema` crate, no default features: no HTTP).
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonSchema2020;

impl Engine for JsonSchema2020 {
    fn id(&self) -> &'static str {
        TARGET
    }

    fn endpoint(&self) -> String {
        format!(
            "in-process:jsonschema@{}",
            env!("TOOLWIRE_VERSION_JSONSCHEMA")
        )
    }

    fn check(&self, tools: &[ToolDef], instances: &[Instance]) -> EngineAnswer {
        let owned_tools = tools.to_vec();
        let owned_instances = instances.to_vec();
        guard::run(tools, Stage::Validate, move || {
            check_tools(&owned_tools, &owned_instances)
        })
    }

    fn input(&self, tools: &[ToolDef]) -> Vec<u8> {
        input_of(&distinct_schemas(tools))
    }
}

/// The distinct parameters schemas, as one JSON array: what the validator is given.
fn input_of(distinct: &DistinctSchemas<'_>) -> Vec<u8> {
    serde_json::to_vec(&Value::Array(
        distinct.schemas.iter().map(|(_, s)| (*s).clone()).collect(),
    ))
    .unwrap_or_default()
}

fn check_tools(tools: &[ToolDef], instances: &[Instance]) -> EngineAnswer {
    let distinct = distinct_schemas(tools);
    let input = input_of(&distinct);
    let meta = jsonschema::draft202012::meta::validator();
    let mut first_validator = None;
    for (tool, schema) in &distinct.schemas {
        let errors = distinct_errors(meta.iter_errors(schema));
        if let Some((pointer, _)) = errors.first() {
            let text = quote_errors(&errors);
            return EngineAnswer::rejected(
                Stage::Validate,
                input,
                text,
                Some(tool_pointer(*tool, pointer)),
            );
        }
        match jsonschema::draft202012::options().build(schema) {
            Err(e) => {
                let pointer = e.instance_path().to_string();
                return EngineAnswer::rejected(
                    Stage::Parse,
                    input,
                    e.to_string(),
                    Some(tool_pointer(*tool, &pointer)),
                );
            }
            Ok(v) if *tool == 0 => first_validator = Some(v),
            Ok(_) => {}
        }
    }
    let note = super::without_parameters_note(
        &distinct.without,
        "nothing to validate against the meta-schema",
    );
    let answer = EngineAnswer::accepted(Stage::Validate, input, note);
    if instances.is_empty() {
        return answer;
    }
    match first_validator {
        Some(v) => {
            let got: Vec<_> = instances.iter().map(|i| Ok(v.is_valid(&i.args))).collect();
            super::apply_instance_results(answer, instances, &got)
        }
        None => answer.with_note(Some(
            "instances not checked: the first tool declares no parameters".into(),
        )),
    }
}

/// Distinct (instance path, message) pairs in the order the crate yields them.
fn distinct_errors<'a>(errors: impl Iterator<Item = ValidationError<'a>>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for e in errors {
        let key = (e.instance_path().to_string(), e.to_string());
        if !out.contains(&key) {
            out.push(key);
        }
    }
    out
}

/// The crate's messages, each with the schema location it names, one per line.
fn quote_errors(errors: &[(String, String)]) -> String {
    let mut lines: Vec<String> = errors
        .iter()
        .take(MAX_QUOTED_ERRORS)
        .map(|(pointer, message)| format!("{message} (at \"{pointer}\")"))
        .collect();
    if errors.len() > MAX_QUOTED_ERRORS {
        lines.push(format!(
            "... and {} more distinct errors",
            errors.len() - MAX_QUOTED_ERRORS
        ));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Verdict;
    use serde_json::json;

    fn tool(parameters: Value) -> ToolDef {
        ToolDef {
            parameters: Some(parameters),
            ..crate::case::baseline()
        }
    }

    fn check(parameters: Value, instances: &[Instance]) -> EngineAnswer {
        JsonSchema2020.check(&[tool(parameters)], instances)
    }

    #[test]
    fn the_baseline_is_accepted() {
        let a = JsonSchema2020.check(&[crate::case::baseline()], &[]);
        assert_eq!(a.verdict, Verdict::Accepted, "{a:?}");
        assert_eq!(a.error, None);
    }

    #[test]
    fn draft07_items_array_fails_the_meta_schema_once() {
        let a = check(
            json!({"type":"object","properties":{"t":{"type":"array","items":[{"type":"string"},{"type":"integer"}]}}}),
            &[],
        );
        assert_eq!(a.verdict, Verdict::Rejected);
        assert_eq!(a.stage, Stage::Validate);
        assert_eq!(
            a.error.as_deref(),
            Some(
                r#"[{"type":"string"},{"type":"integer"}] is not of types "boolean", "object" (at "/properties/t/items")"#
            )
        );
        assert_eq!(
            a.path.as_deref(),
            Some("/tools/0/parameters/properties/t/items")
        );
    }

    #[test]
    fn a_remote_ref_is_unresolvable() {
        let a = check(
            json!({"type":"object","properties":{"p":{"$ref":"https://example.com/schemas/p.json"}}}),
            &[],
        );
        assert_eq!(a.verdict, Verdict::Rejected);
        assert_eq!(a.stage, Stage::Parse);
        assert_eq!(
            a.error.as_deref(),
            Some(
                "Resource 'https://example.com/schemas/p.json' is not present in a registry and retrieving it failed: `resolve-http` feature or a custom resolver is required to resolve external schemas via HTTP"
            )
        );
    }

    #[test]
    fn keywords_are_enforced_on_instances() {
        let instances = [
            Instance {
                args: json!({"value": "none"}),
                valid: false,
            },
            Instance {
                args: json!({"value": "abc"}),
                valid: true,
            },
        ];
        let a = check(
            json!({"type":"object","properties":{"value":{"type":"string","not":{"const":"none"}}},"required":["value"]}),
            &instances,
        );
        assert_eq!(a.verdict, Verdict::Accepted, "{a:?}");
    }

    #[test]
    fn an_unasserted_format_is_accepted_ignored() {
        let instances = [Instance {
            args: json!({"value": "not an email"}),
            valid: false,
        }];
        let a = check(
            json!({"type":"object","properties":{"value":{"type":"string","format":"email"}}}),
            &instances,
        );
        assert_eq!(a.verdict, Verdict::AcceptedIgnored);
        assert_eq!(
            a.note.as_deref(),
            Some(
                r#"instance 0 {"value":"not an email"} is invalid under JSON Schema 2020-12 but was accepted (not enforced)"#
            )
        );
    }

    #[test]
    fn ref_cycles_terminate_and_constrain_nothing() {
        // Under JSON Schema a `$ref` cycle with no other keyword constrains nothing; the
        // crate compiles it and validates instances without looping.
        for schema in [
            json!({"$ref": "#"}),
            json!({"type":"object","properties":{"value":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}),
        ] {
            let instances = [Instance {
                args: json!({"value": "x"}),
                valid: true,
            }];
            let a = check(schema.clone(), &instances);
            assert_eq!(a.verdict, Verdict::Accepted, "{schema}: {a:?}");
        }
    }

    #[test]
    fn a_tool_without_parameters_is_accepted_with_a_note() {
        let mut t = crate::case::baseline();
        t.parameters = None;
        let a = JsonSchema2020.check(&[t], &[]);
        assert_eq!(a.verdict, Verdict::Accepted);
        assert_eq!(
            a.note.as_deref(),
            Some("tool(s) 0 declare no parameters: nothing to validate against the meta-schema")
        );
    }
}
