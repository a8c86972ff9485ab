//! Compile with the real offline models on requests that need more answers of the model
//! than one request's old budget of 16 rounds allowed ([`super::budget`]).

use serde_json::{Value, json};

use super::tests::assert_check_clean;
use super::*;

/// Compiles `tools` for `target` against its own built-in profile.
fn compile_own(tools: &[Tool], target: &str) -> Compilation {
    let set = crate::profile::embedded().expect("built-in profiles load");
    let p = CompiledProfile::new(set.get(target).expect("the target's profile"));
    super::compile(tools, target, &p, &repair::Options::default()).unwrap()
}

/// `n` tools `t0`.. each with one property whose schema is `property`.
fn tools_with(n: usize, property: Value) -> Vec<Tool> {
    (0..n)
        .map(|i| Tool {
            name: Some(format!("t{i}")),
            description: Some("d".into()),
            parameters: Some(json!({
                "type": "object",
                "properties": {"v": property.clone()},
                "required": ["v"],
            })),
            strict: None,
            strict_tool_use: None,
        })
        .collect()
}

/// DeepSeek and OpenAI strict name the first tool they reject per answer: 40 tools with one
/// such feature each take 40 rounds. Every tool is repaired and sent (the request-wide budget
/// of 16 rounds wrote an empty request, and called the 17th tool "repaired").
#[test]
fn a_request_needing_a_round_per_tool_compiles_every_tool() {
    let n = 40;
    for (target, property, keyword) in [
        (
            "deepseek/beta-strict",
            json!({"type":"string","not":{"const":"none"}}),
            "\"not\"",
        ),
        (
            "openai/responses-strict",
            json!({"type":"object","propertyNames":{"pattern":"^a"}}),
            "propertyNames",
        ),
    ] {
        let c = compile_own(&tools_with(n, property), target);
        assert!(c.is_ok(), "{target}: {:#?}", c.check);
        assert_eq!(c.wire.as_array().map(Vec::len), Some(n), "{target}");
        assert!(
            !c.wire.to_string().contains(keyword),
            "{target}: {}",
            c.wire
        );
        for t in &c.tools {
            assert_eq!(t.outcome, Outcome::Repaired, "{target}: {t:#?}");
            assert!(
                t.changes
                    .iter()
                    .any(|ch| ch.action.contains("offline model")),
                "{target}: {t:#?}"
            );
        }
        assert_check_clean(&c, target);
    }
}

/// Once the overall cap is reached, each tool the model still names is refused by itself
/// with the model's words and what they rest on; the tools repaired before are kept, and
/// no tool the model rejects is called repaired.
#[test]
fn past_the_overall_cap_the_named_tools_are_refused_and_the_rest_kept() {
    let target = "deepseek/beta-strict";
    budget::TEST_CAP.set(Some(5));
    let c = compile_own(
        &tools_with(8, json!({"type":"string","not":{"const":"none"}})),
        target,
    );
    budget::TEST_CAP.set(None);
    assert!(
        matches!(c.check, ModelCheck::Accepted { .. }),
        "{:#?}",
        c.check
    );
    let kept: Vec<&str> = (c.tools.iter())
        .filter(|t| t.outcome == Outcome::Repaired)
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(kept, ["t0", "t1", "t2", "t3", "t4"]);
    for t in &c.tools[5..] {
        assert_eq!(t.outcome, Outcome::Refused, "{t:#?}");
        let reason = &t.refusals[0].reason;
        assert!(
            reason.contains("once the request's 5 rounds of repairs were spent")
                && reason.contains("'not' is not permitted"),
            "{reason}"
        );
        assert_eq!(t.refusals[0].pointer, "/properties/v/not");
    }
    assert_eq!(c.wire.as_array().map(Vec::len), Some(5));
    assert_check_clean(&c, target);
}

/// `n` tools each with `k` = 4 keywords DeepSeek strict's model rejects and the profile has
/// no evidence for, one answer each: the model is asked about each tool alone until it
/// accepts it, and the whole request only a few times, so what is sent grows with n·k. Acting
/// on the whole request's answers sent n tools n·k times (300 tools: 151 s).
#[test]
fn the_model_is_asked_in_proportion_to_tools_times_repairs() {
    let target = "deepseek/beta-strict";
    let (n, k) = (40, 4);
    let tools: Vec<Tool> = (0..n)
        .map(|i| Tool {
            name: Some(format!("t{i}")),
            description: Some("d".into()),
            parameters: Some(json!({
                "type": "object",
                "properties": {
                    "a": {"type": "string", "not": {"const": "x"}},
                    "b": {"type": "object", "properties": {"k": {"type": "string"}},
                          "required": ["k"], "propertyNames": {"pattern": "^[a-z]+$"}},
                    "c": {"type": "object", "properties": {"k": {"type": "string"}},
                          "required": ["k"], "minProperties": 1},
                    "d": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                },
                "required": ["a", "b", "c", "d"],
            })),
            strict: None,
            strict_tool_use: None,
        })
        .collect();
    MODEL_CALLS.set((0, 0));
    let c = compile_own(&tools, target);
    let (calls, sent) = MODEL_CALLS.get();
    assert!(c.is_ok(), "{:#?}", c.check);
    for t in &c.tools {
        let model_drops = (t.changes.iter())
            .filter(|ch| {
                ch.action
                    .contains("the offline model's assumption, not evidence")
            })
            .count();
        assert_eq!(model_drops, k, "{t:#?}");
    }
    assert_check_clean(&c, target);
    // Each tool alone: k rejections and one acceptance; the whole request: the tool-count
    // check, the first answer and the last.
    assert!(calls <= n * (k + 1) + 8, "{calls} calls");
    assert!(
        sent <= n * (k + 1) + 4 * n,
        "{sent} tools sent in {calls} calls"
    );
}

/// The model's answers are explained against the target's built-in profile, compiled once
/// per compile run: rebuilding it for each answer (one per repair, n·(k + 1) of them) was
/// about 70% of a 300-tool run.
#[test]
fn the_target_profile_is_compiled_once_per_run() {
    let target = "deepseek/beta-strict";
    let tools = tools_with(
        20,
        json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true,
               "not": {"const": []}}),
    );
    let set = crate::profile::embedded().expect("built-in profiles load");
    let p = CompiledProfile::new(set.get(target).expect("the target's profile"));
    crate::profile::compiled::BUILDS.set(0);
    MODEL_CALLS.set((0, 0));
    let c = super::compile(&tools, target, &p, &repair::Options::default()).unwrap();
    let builds = crate::profile::compiled::BUILDS.get();
    let (calls, _) = MODEL_CALLS.get();
    assert!(c.is_ok(), "{:#?}", c.check);
    assert!(
        calls >= 40,
        "the model was asked {calls} times: no answer per repair"
    );
    assert!(
        builds <= 1,
        "{builds} profiles compiled for {calls} model calls"
    );
    assert_check_clean(&c, target);
}

/// The request's tool count is judged with the built-in profile the rounds explain the
/// model's answers with: the count's check had one of its own, so a run whose stand-ins drew
/// a placed explanation compiled the target's profile twice.
#[test]
fn the_tool_count_check_shares_the_runs_target_profile() {
    let set = crate::profile::embedded().expect("built-in profiles load");
    let target = "openai/chat-strict";
    let p = CompiledProfile::new(set.get(target).expect("the target's profile"));
    let property = json!({"type": "object", "properties": {"a": {"type": "string"}},
        "additionalProperties": {"type": "string"}, "patternProperties": {"^x": {"type": "string"}}});
    for (tools, not_compiled) in [
        (tools_with(129, property.clone()), 129),
        (tools_with(2, property), 0),
    ] {
        crate::profile::compiled::BUILDS.set(0);
        let c = super::compile(&tools, target, &p, &repair::Options::default()).unwrap();
        assert_eq!(c.not_compiled, not_compiled, "{:#?}", c.check);
        let builds = crate::profile::compiled::BUILDS.get();
        assert!(
            builds <= 1,
            "{} tools: {builds} profiles compiled",
            tools.len()
        );
    }
}

/// Tracing a rejection the profile has no evidence for makes trials of the tool: each is
/// one copy of its schema, made from the tool as it stands, which is borrowed, and each is
/// lent to the model rather than copied again. A schema may be megabytes: the tool copied
/// whole before its trials, each trial copied again to be sent, and the model's answer
/// (one more copy) kept while the trials were made held a 15 MB tool several times over.
#[test]
fn tracing_a_rejection_copies_the_schema_once_per_trial() {
    let target = "openai/chat-strict";
    // More object properties than the model takes, which the profile has no evidence for.
    let properties: serde_json::Map<String, Value> = (0..5001)
        .map(|i| {
            (
                format!("p{i}"),
                json!({"type": "string", "description": "d"}),
            )
        })
        .collect();
    let tools = vec![Tool {
        name: Some("big".into()),
        description: Some("d".into()),
        parameters: Some(json!({"type": "object", "properties": properties})),
        strict: None,
        strict_tool_use: None,
    }];
    let set = crate::profile::embedded().expect("built-in profiles load");
    let p = CompiledProfile::new(set.get(target).expect("the target's profile"));
    crate::repair::SCHEMA_COPIES.set(0);
    let c = super::compile(&tools, target, &p, &repair::Options::default()).unwrap();
    let copies = crate::repair::SCHEMA_COPIES.get();
    assert_eq!(c.tools[0].outcome, Outcome::Refused, "{:#?}", c.tools[0]);
    // One to repair it for the profile, one for the trial with every repair made, one for
    // the trial sent without them (measured: 4 when the tool was copied before its trials).
    assert!(copies <= 3, "{copies} copies of the schema");
}
