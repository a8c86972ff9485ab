//! `engine/llguidance` and `engine/llguidance-lenient`: does llguidance, the grammar compiler
//! llama.cpp and vLLM use for constrained decoding, compile each tool's parameters schema?
//!
//! Per distinct schema, real calls into the crate:
//! 1. `GrammarInit::Serialized(TopLevelGrammar::from_json_schema(schema)).to_internal(None,
//!    ParserLimits::default())`: the JSON-Schema-to-grammar step (what `validate` runs). An
//!    error rejects the schema; warnings are kept in the note;
//! 2. `to_cgrammar(None, ..)`: the full grammar compile without a tokenizer, so the verdict
//!    does not depend on any model's vocabulary.
//!
//! Lenient mode is llguidance's own `JsonCompileOptions.lenient`, set in-band the way its
//! users set it: `"x-guidance": {"lenient": true}` added at the root of an object schema
//! (merged into an existing `x-guidance` object). Known but unimplemented keywords and unknown
//! formats then become warnings and the keyword is dropped. A root that is not an object
//! cannot carry `x-guidance`; lenient only changes how keywords of object schemas are
//! handled, so such a root compiles with the default options, and the note says so.
//!
//! Instances (no model needed): the first tool's grammar is run by a parser over
//! `toktrie::ApproximateTokEnv::single_byte_env()` (one token per byte). An instance is
//! accepted when every byte of its compact JSON is a valid token and the parser is then in an
//! accepting state. A case whose instance verdicts differ from the expected ones is
//! `accepted-ignored`, the instance named in the note (lenient mode drops keywords, so it shows
//! up there).
//!
//! A tool without parameters has nothing to compile: accepted, with a note. (llama.cpp and
//! vLLM substitute their own schema for such a tool; that substitution is theirs, not
//! llguidance's.)

use std::sync::OnceLock;

use llguidance::api::{GrammarInit, ParserLimits, TopLevelGrammar};
use llguidance::toktrie::{ApproximateTokEnv, TokEnv};
use llguidance::{Logger, Matcher, ParserFactory};
use serde_json::{Value, json};

use super::{DistinctSchemas, Engine, EngineAnswer, distinct_schemas, guard, tool_pointer};
use crate::case::Instance;
use crate::evidence::Stage;
use crate::tool::ToolDef;

/// llguidance with its default options, or lenient.
#[derive(Debug, Clone, Copy)]
pub struct Llguidance {
    lenient: bool,
}

impl Llguidance {
    /// `engine/llguidance`: default `JsonCompileOptions`.
    pub fn default_options() -> Self {
        Llguidance { lenient: false }
    }

    /// `engine/llguidance-lenient`: `x-guidance: {lenient: true}` at the root.
    pub fn lenient() -> Self {
        Llguidance { lenient: true }
    }
}

impl Engine for Llguidance {
    fn id(&self) -> &'static str {
        if self.lenient {
            "engine/llguidance-lenient"
        } else {
            "engine/llguidance"
        }
    }

    fn endpoint(&self) -> String {
        let options = if self.lenient {
            " (x-guidance lenient)"
        } else {
            ""
        };
        format!(
            "in-process:llguidance@{}{options}",
            env!("TOOLWIRE_VERSION_LLGUIDANCE")
        )
    }

    fn check(&self, tools: &[ToolDef], instances: &[Instance]) -> EngineAnswer {
        let lenient = self.lenient;
        let owned_tools = tools.to_vec();
        let owned_instances = instances.to_vec();
        guard::run(tools, Stage::Parse, move || {
            check_tools(lenient, &owned_tools, &owned_instances)
        })
    }

    fn input(&self, tools: &[ToolDef]) -> Vec<u8> {
        input_of(&prepared(self.lenient, &distinct_schemas(tools)))
    }
}

/// Each distinct schema as handed to llguidance: (index of its first tool, the schema, the
/// note of [`prepare`]).
fn prepared(lenient: bool, distinct: &DistinctSchemas<'_>) -> Vec<(usize, Value, Option<String>)> {
    distinct
        .schemas
        .iter()
        .map(|(i, s)| {
            let (v, note) = prepare(s, lenient);
            (*i, v, note)
        })
        .collect()
}

/// The prepared schemas, as one JSON array: the input an answer records.
fn input_of(prepared: &[(usize, Value, Option<String>)]) -> Vec<u8> {
    serde_json::to_vec(&Value::Array(
        prepared.iter().map(|(_, v, _)| v.clone()).collect(),
    ))
    .unwrap_or_default()
}

/// The schema handed to llguidance, and a note when lenient mode could not be attached.
fn prepare(schema: &Value, lenient: bool) -> (Value, Option<String>) {
    if !lenient {
        return (schema.clone(), None);
    }
    let mut out = schema.clone();
    let Some(root) = out.as_object_mut() else {
        return (
            out,
            Some(
                "the root is not an object, so x-guidance cannot be attached; lenient only changes how keywords of object schemas are handled, so this is the default compile".into(),
            ),
        );
    };
    match root.get_mut("x-guidance") {
        None => {
            root.insert("x-guidance".into(), json!({"lenient": true}));
            (out, None)
        }
        Some(Value::Object(opts)) => {
            opts.insert("lenient".into(), Value::Bool(true));
            (
                out,
                Some("lenient merged into the case's own x-guidance".into()),
            )
        }
        Some(_) => (
            out,
            Some("the case's own x-guidance is not an object; sent as it is".into()),
        ),
    }
}

/// A compiled schema: its grammar (for instance checks) and llguidance's warnings.
struct Compiled {
    init: GrammarInit,
    warnings: Vec<String>,
}

/// Steps 1 and 2 of the module docs. `Err` is llguidance's error text, verbatim.
fn compile(schema: Value) -> Result<Compiled, String> {
    let init = GrammarInit::Serialized(TopLevelGrammar::from_json_schema(schema));
    let (grammar, lexer_spec) = init
        .to_internal(None, ParserLimits::default())
        .map_err(|e| e.to_string())?;
    let warnings = lexer_spec.render_warnings();
    let internal = GrammarInit::Internal(grammar, lexer_spec);
    internal
        .clone()
        .to_cgrammar(
            None,
            &mut Logger::new(0, 0),
            ParserLimits::default(),
            vec![],
        )
        .map_err(|e| e.to_string())?;
    Ok(Compiled {
        init: internal,
        warnings,
    })
}

fn check_tools(lenient: bool, tools: &[ToolDef], instances: &[Instance]) -> EngineAnswer {
    let distinct = distinct_schemas(tools);
    let prepared = prepared(lenient, &distinct);
    let input = input_of(&prepared);
    let mut notes: Vec<String> = Vec::new();
    let mut first: Option<Compiled> = None;
    for (tool, schema, prep_note) in prepared {
        let compiled = match compile(schema) {
            Ok(c) => c,
            Err(e) => {
                let mut a =
                    EngineAnswer::rejected(Stage::Parse, input, e, Some(tool_pointer(tool, "")));
                a.note = prep_note.map(|n| format!("tool {tool}: {n}"));
                return a;
            }
        };
        if let Some(n) = prep_note {
            notes.push(format!("tool {tool}: {n}"));
        }
        if !compiled.warnings.is_empty() {
            notes.push(format!(
                "tool {tool}: warnings: {}",
                compiled.warnings.join(" | ")
            ));
        }
        if tool == 0 {
            first = Some(compiled);
        }
    }
    notes.extend(super::without_parameters_note(
        &distinct.without,
        "nothing to compile",
    ));
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    let answer = EngineAnswer::accepted(Stage::Parse, input, note);
    if instances.is_empty() {
        return answer;
    }
    let Some(compiled) = first else {
        return answer.with_note(Some(
            "instances not checked: the first tool declares no parameters".into(),
        ));
    };
    match instance_verdicts(compiled.init, instances) {
        Ok(got) => super::apply_instance_results(answer, instances, &got),
        Err(e) => answer.with_note(Some(format!(
            "instances not checked: the single-byte parser could not be built: {e}"
        ))),
    }
}

/// The shared parser factory over the single-byte tokenizer (built once).
fn factory() -> Result<&'static (ParserFactory, TokEnv), String> {
    static FACTORY: OnceLock<Result<(ParserFactory, TokEnv), String>> = OnceLock::new();
    FACTORY
        .get_or_init(|| {
            let env = ApproximateTokEnv::single_byte_env();
            let mut f = ParserFactory::new_simple(&env).map_err(|e| e.to_string())?;
            // Warnings are reported through the note, not printed on stderr mid-run.
            f.quiet();
            Ok((f, env))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Runs each instance through a parser of `init`; `Err` per instance when llguidance could not
/// tell (an internal error, not a rejection of the bytes).
fn instance_verdicts(
    init: GrammarInit,
    instances: &[Instance],
) -> Result<Vec<Result<bool, String>>, String> {
    let (factory, env) = factory()?;
    let parser = factory
        .create_parser_from_init_default(init)
        .map_err(|e| e.to_string())?;
    let fresh = Matcher::new(Ok(parser));
    if let Some(e) = fresh.get_error() {
        return Err(e);
    }
    Ok(instances
        .iter()
        .map(|inst| {
            let bytes = serde_json::to_vec(&inst.args).map_err(|e| e.to_string())?;
            let tokens = env.tokenize_bytes(&bytes);
            let mut m = fresh.deep_clone();
            let valid_prefix = m.validate_tokens(&tokens).map_err(|e| e.to_string())?;
            if valid_prefix < tokens.len() {
                return Ok(false);
            }
            m.consume_tokens(&tokens).map_err(|e| e.to_string())?;
            m.is_accepting().map_err(|e| e.to_string())
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Verdict;

    fn tool(parameters: Value) -> ToolDef {
        ToolDef {
            parameters: Some(parameters),
            ..crate::case::baseline()
        }
    }

    fn not_nested() -> Value {
        json!({"type":"object","properties":{"value":{"type":"string","not":{"const":"none"}}},"required":["value"]})
    }

    fn not_instances() -> Vec<Instance> {
        vec![
            Instance {
                args: json!({"value": "none"}),
                valid: false,
            },
            Instance {
                args: json!({"value": "abc"}),
                valid: true,
            },
        ]
    }

    #[test]
    fn the_baseline_compiles_and_enforces_required() {
        let instances = [
            Instance {
                args: json!({"value": "abc"}),
                valid: true,
            },
            Instance {
                args: json!({}),
                valid: false,
            },
            Instance {
                args: json!({"value": 1}),
                valid: false,
            },
        ];
        for e in [Llguidance::default_options(), Llguidance::lenient()] {
            let a = e.check(&[crate::case::baseline()], &instances);
            assert_eq!(a.verdict, Verdict::Accepted, "{}: {a:?}", e.id());
            assert_eq!(a.note, None);
        }
    }

    #[test]
    fn not_is_unimplemented_by_default() {
        let a = Llguidance::default_options().check(&[tool(not_nested())], &not_instances());
        assert_eq!(a.verdict, Verdict::Rejected);
        assert_eq!(a.stage, Stage::Parse);
        assert_eq!(a.error.as_deref(), Some(r#"Unimplemented keys: ["not"]"#));
        assert_eq!(a.path.as_deref(), Some("/tools/0/parameters"));
    }

    #[test]
    fn lenient_drops_not_with_a_warning_and_does_not_enforce_it() {
        let a = Llguidance::lenient().check(&[tool(not_nested())], &not_instances());
        assert_eq!(a.verdict, Verdict::AcceptedIgnored, "{a:?}");
        assert_eq!(
            a.note.as_deref(),
            Some(
                r#"tool 0: warnings: Unimplemented keys: ["not"]; instance 0 {"value":"none"} is invalid under JSON Schema 2020-12 but was accepted (not enforced)"#
            )
        );
    }

    #[test]
    fn an_unknown_format_is_an_error_by_default_and_a_warning_when_lenient() {
        let s = json!({"type":"object","properties":{"value":{"type":"string","format":"my-custom-fmt"}}});
        let a = Llguidance::default_options().check(&[tool(s.clone())], &[]);
        assert_eq!(a.verdict, Verdict::Rejected);
        assert_eq!(a.error.as_deref(), Some("Unknown format: my-custom-fmt"));
        let a = Llguidance::lenient().check(&[tool(s)], &[]);
        assert_eq!(a.verdict, Verdict::Accepted);
        assert_eq!(
            a.note.as_deref(),
            Some("tool 0: warnings: Unknown format: my-custom-fmt")
        );
    }

    #[test]
    fn unimplemented_keys_are_listed_sorted() {
        let s = json!({"type":"object","properties":{"value":{"type":"string","if":{"minLength":2},"then":{"maxLength":3},"else":{"const":"x"}}}});
        let a = Llguidance::default_options().check(&[tool(s)], &[]);
        assert_eq!(
            a.error.as_deref(),
            Some(r#"Unimplemented keys: ["else", "if", "then"]"#)
        );
    }

    #[test]
    fn a_remote_ref_cannot_be_fetched() {
        let s = json!({"type":"object","properties":{"p":{"$ref":"https://example.com/schemas/p.json"}}});
        let a = Llguidance::default_options().check(&[tool(s)], &[]);
        assert_eq!(a.verdict, Verdict::Rejected);
        assert_eq!(
            a.error.as_deref(),
            Some(
                "Resource 'https://example.com/schemas/p.json' is not present in a registry and retrieving it failed: Default retriever does not fetch resources"
            )
        );
    }

    #[test]
    fn nullable_is_silently_ignored() {
        let s = json!({"type":"object","properties":{"value":{"type":"string","nullable":true}},"required":["value"]});
        let instances = [Instance {
            args: json!({"value": null}),
            valid: true,
        }];
        let a = Llguidance::default_options().check(&[tool(s)], &instances);
        assert_eq!(a.verdict, Verdict::AcceptedIgnored, "{a:?}");
        assert!(a.note.unwrap().contains("but was rejected"));
    }

    #[test]
    fn a_non_object_root_compiles_with_default_options_in_lenient_mode() {
        let a = Llguidance::lenient().check(&[tool(json!(true))], &[]);
        assert_eq!(a.verdict, Verdict::Accepted);
        assert!(a.note.unwrap().contains("x-guidance cannot be attached"));
        let a = Llguidance::default_options().check(&[tool(json!("string"))], &[]);
        assert_eq!(a.verdict, Verdict::Rejected);
        assert_eq!(
            a.error.as_deref(),
            Some("schema must be an object or boolean")
        );
    }

    #[test]
    fn ref_cycles_terminate_as_an_empty_grammar() {
        // Observed with llguidance 1.9.1: a `$ref` cycle with no base case compiles to a
        // grammar that matches nothing, where JSON Schema constrains nothing.
        for schema in [
            json!({"$ref": "#"}),
            json!({"type":"object","properties":{"value":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}),
        ] {
            for e in [Llguidance::default_options(), Llguidance::lenient()] {
                let a = e.check(&[tool(schema.clone())], &not_instances());
                assert_eq!(a.verdict, Verdict::AcceptedIgnored, "{}: {a:?}", e.id());
                assert_eq!(
                    a.note.as_deref(),
                    Some(
                        r#"instance 1 {"value":"abc"} is valid under JSON Schema 2020-12 but was rejected (enforced differently)"#
                    )
                );
            }
        }
    }
}
