//! In-process engines probed as targets on every run: real consumers of tool schemas, run
//! for real (no network, no model).
//!
//! - [`meta_schema`]: `engine/jsonschema-2020-12`, the JSON Schema draft 2020-12 meta-schema
//!   and compiler of the `jsonschema` crate (the rule Anthropic documents for `input_schema`);
//! - [`llg`]: `engine/llguidance` and `engine/llguidance-lenient`, the grammar compiler used by
//!   llama.cpp and vLLM for constrained decoding;
//! - [`gemini_proto`]: `engine/gemini-proto-snapshot/parameters` and
//!   `.../parameters-json-schema`, a strict proto3-JSON parse of the request body against a
//!   snapshot of Gemini v1beta's published field list (not Gemini itself).
//!
//! Every check runs through `guard::run`, which bounds nesting depth, stack and time, so
//! that no input can hang or crash a probe run; what a guard stops is reported as
//! `inconclusive` with the reason, never as a guessed verdict.

pub mod gemini_proto;
mod guard;
pub mod llg;
pub mod meta_schema;

use serde_json::Value;

use crate::case::Instance;
use crate::evidence::{Stage, Verdict};
use crate::tool::ToolDef;

pub use guard::{MAX_SCHEMA_DEPTH, STACK_BYTES, TIMEOUT};

/// What an engine said about one request's tools.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineAnswer {
    /// `Accepted`, `Rejected`, `AcceptedIgnored`, or `Inconclusive` when a guard stopped the
    /// engine (the reason is in `note`).
    pub verdict: Verdict,
    /// `Parse` for a schema the engine could not take; `Validate` for meta-schema checks.
    pub stage: Stage,
    /// The engine's own error text, verbatim (normalised only where the engine puts volatile
    /// text such as timestamps in it).
    pub error: Option<String>,
    /// The place the error names (tool index and schema path as the engine wrote it).
    pub path: Option<String>,
    /// What an instance check found, e.g. `not enforced: instance 0 ({"value":"x"}) accepted`.
    pub note: Option<String>,
    /// The exact input given to the engine (for the observation's request digest).
    pub input: Vec<u8>,
}

impl EngineAnswer {
    /// Accepted, with an optional note (warnings, tools without parameters).
    pub fn accepted(stage: Stage, input: Vec<u8>, note: Option<String>) -> Self {
        EngineAnswer {
            verdict: Verdict::Accepted,
            stage,
            error: None,
            path: None,
            note,
            input,
        }
    }

    /// Rejected with the engine's verbatim error and the place it names.
    pub fn rejected(stage: Stage, input: Vec<u8>, error: String, path: Option<String>) -> Self {
        EngineAnswer {
            verdict: Verdict::Rejected,
            stage,
            error: Some(error),
            path,
            note: None,
            input,
        }
    }

    /// A guard stopped the engine: no verdict, the reason in `note`.
    pub fn inconclusive(stage: Stage, input: Vec<u8>, reason: String) -> Self {
        EngineAnswer {
            verdict: Verdict::Inconclusive,
            stage,
            error: None,
            path: None,
            note: Some(reason),
            input,
        }
    }

    /// Adds a sentence to the note.
    fn with_note(mut self, extra: Option<String>) -> Self {
        self.note = join_notes(self.note.take(), extra);
        self
    }
}

fn join_notes(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    }
}

/// An in-process engine.
pub trait Engine: Send + Sync {
    /// The target id, e.g. `engine/llguidance`.
    fn id(&self) -> &'static str;
    /// `in-process:<crate>@<version>`.
    fn endpoint(&self) -> String;
    /// Checks every tool's parameters (a request is rejected when any tool is); `instances`
    /// are argument objects for the first tool with their expected validity, used to detect
    /// `accepted-ignored`.
    fn check(&self, tools: &[ToolDef], instances: &[Instance]) -> EngineAnswer;
    /// The exact input [`Engine::check`] gives the engine for `tools` (its
    /// [`EngineAnswer::input`], whose digest an observation records), without running the
    /// engine: `rules` compares it with the digest of an observation written before
    /// observations carried the case's own digest, to tell whether the case was edited since.
    fn input(&self, tools: &[ToolDef]) -> Vec<u8>;
}

/// Every engine, in registry order (`crate::target::registry`).
pub fn engines() -> Vec<Box<dyn Engine>> {
    vec![
        Box::new(meta_schema::JsonSchema2020),
        Box::new(llg::Llguidance::default_options()),
        Box::new(llg::Llguidance::lenient()),
        Box::new(gemini_proto::GeminiProtoSnapshot::parameters()),
        Box::new(gemini_proto::GeminiProtoSnapshot::parameters_json_schema()),
    ]
}

/// The parameters schemas of a request, each distinct schema once (a request of 513 copies of
/// one tool compiles one schema), in first-appearance order.
struct DistinctSchemas<'a> {
    /// (index of the first tool with this schema, the schema).
    schemas: Vec<(usize, &'a Value)>,
    /// Indices of tools that declare no parameters at all.
    without: Vec<usize>,
}

fn distinct_schemas(tools: &[ToolDef]) -> DistinctSchemas<'_> {
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut schemas = Vec::new();
    let mut without = Vec::new();
    for (i, t) in tools.iter().enumerate() {
        match &t.parameters {
            None => without.push(i),
            Some(p) => {
                // Compact JSON with preserved key order identifies a schema exactly.
                if seen.insert(p.to_string()) {
                    schemas.push((i, p));
                }
            }
        }
    }
    DistinctSchemas { schemas, without }
}

/// The note for tools that declare no parameters: `what` says why there is nothing to check.
fn without_parameters_note(without: &[usize], what: &str) -> Option<String> {
    if without.is_empty() {
        return None;
    }
    let list: Vec<String> = without.iter().take(5).map(usize::to_string).collect();
    let more = if without.len() > 5 { ", ..." } else { "" };
    Some(format!(
        "tool(s) {}{more} declare no parameters: {what}",
        list.join(", ")
    ))
}

/// The place an error names: `/tools/<i>/parameters` plus the engine's JSON Pointer into the
/// schema (which may be empty).
fn tool_pointer(tool: usize, inner: &str) -> String {
    format!("/tools/{tool}/parameters{inner}")
}

/// Compares an engine's instance verdicts with the case's expected ones. Returns the note
/// naming every instance whose verdict differs, or `None` when all agree.
///
/// `got[i]` is whether the engine accepted `instances[i]`, or an error text when it could not
/// tell.
fn instance_disagreements(
    instances: &[Instance],
    got: &[std::result::Result<bool, String>],
) -> Option<String> {
    let mut parts = Vec::new();
    for (i, (inst, g)) in instances.iter().zip(got).enumerate() {
        let expected = if inst.valid { "valid" } else { "invalid" };
        let args = short_json(&inst.args);
        match g {
            Ok(accepted) if *accepted == inst.valid => {}
            Ok(true) => parts.push(format!(
                "instance {i} {args} is {expected} under JSON Schema 2020-12 but was accepted (not enforced)"
            )),
            Ok(false) => parts.push(format!(
                "instance {i} {args} is {expected} under JSON Schema 2020-12 but was rejected (enforced differently)"
            )),
            Err(e) => parts.push(format!(
                "instance {i} {args} could not be checked: {e}"
            )),
        }
    }
    if parts.is_empty() {
        None
    } else {
        Some(parts.join("; "))
    }
}

/// Compact JSON, cut at 200 characters (notes stay readable for large instances).
fn short_json(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() <= 200 {
        s
    } else {
        let cut: String = s.chars().take(200).collect();
        format!("{cut}...")
    }
}

/// Turns instance results into the final answer for an accepted schema: `AcceptedIgnored`
/// with the disagreements in the note when any instance verdict differs, else unchanged.
fn apply_instance_results(
    answer: EngineAnswer,
    instances: &[Instance],
    got: &[std::result::Result<bool, String>],
) -> EngineAnswer {
    match instance_disagreements(instances, got) {
        None => answer,
        Some(note) => {
            let undecided = got.iter().all(|g| g.is_err());
            let mut a = answer.with_note(Some(note));
            if !undecided {
                a.verdict = Verdict::AcceptedIgnored;
            }
            a
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn engines_follow_the_registry_order() {
        let ids: Vec<&str> = engines().iter().map(|e| e.id()).collect();
        let registry: Vec<&str> = crate::target::registry()
            .iter()
            .map(|t| t.id)
            .filter(|id| crate::target::is_engine(id))
            .collect();
        assert_eq!(ids, registry);
    }

    #[test]
    fn endpoints_name_the_locked_crate_versions() {
        for e in engines() {
            let ep = e.endpoint();
            assert!(ep.starts_with("in-process:"), "{ep}");
            assert!(!ep.contains("unknown"), "{ep}");
        }
    }

    /// The inputs that make naive engines loop or overflow: every engine must give a
    /// decisive verdict (no guard fired) on each.
    #[test]
    fn every_engine_terminates_on_hostile_inputs() {
        use crate::case::{Generate, generate};
        let with = |p: Value| {
            vec![ToolDef {
                parameters: Some(p),
                ..crate::case::baseline()
            }]
        };
        let inputs: Vec<(&str, Vec<ToolDef>)> = vec![
            ("pure self-reference", with(json!({"$ref": "#"}))),
            (
                "two-step cycle",
                with(
                    json!({"type":"object","properties":{"value":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}),
                ),
            ),
            (
                "recursive tree",
                with(
                    json!({"$defs":{"n":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/n"}}}}},"$ref":"#/$defs/n"}),
                ),
            ),
            (
                "100-deep",
                generate(&Generate::NestedDepth { n: 100 }).unwrap(),
            ),
            (
                "1000 properties",
                generate(&Generate::PropertyCount { n: 1000 }).unwrap(),
            ),
            (
                "513 tools",
                generate(&Generate::ToolCount { n: 513 }).unwrap(),
            ),
        ];
        let instances = [Instance {
            args: json!({"value": "abc"}),
            valid: true,
        }];
        for e in engines() {
            for (what, tools) in &inputs {
                let a = e.check(tools, &instances);
                assert!(a.verdict.is_decisive(), "{} on {what}: {a:?}", e.id());
            }
        }
    }

    #[test]
    fn identical_schemas_are_checked_once() {
        let t = crate::case::baseline();
        let mut other = t.clone();
        other.parameters = Some(json!({"type": "object"}));
        let mut bare = t.clone();
        bare.parameters = None;
        let tools = vec![t.clone(), t.clone(), other, bare, t];
        let d = distinct_schemas(&tools);
        assert_eq!(
            d.schemas.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            [0, 2]
        );
        assert_eq!(d.without, [3]);
    }

    #[test]
    fn disagreements_name_the_instance_and_the_direction() {
        let inst = vec![
            Instance {
                args: json!({"value": "none"}),
                valid: false,
            },
            Instance {
                args: json!({"value": "abc"}),
                valid: true,
            },
        ];
        assert_eq!(instance_disagreements(&inst, &[Ok(false), Ok(true)]), None);
        let note = instance_disagreements(&inst, &[Ok(true), Ok(true)]).unwrap();
        assert_eq!(
            note,
            r#"instance 0 {"value":"none"} is invalid under JSON Schema 2020-12 but was accepted (not enforced)"#
        );
        let a = apply_instance_results(
            EngineAnswer::accepted(Stage::Parse, vec![], None),
            &inst,
            &[Ok(false), Ok(false)],
        );
        assert_eq!(a.verdict, Verdict::AcceptedIgnored);
        assert!(a.note.unwrap().contains("instance 1"));
    }
}
