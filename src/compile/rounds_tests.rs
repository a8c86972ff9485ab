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
