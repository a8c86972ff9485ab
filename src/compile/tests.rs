//! Compile against hand-made profiles and the real offline models.

use serde_json::json;

use super::*;
use crate::repair::tests::profile;

fn tool(name: &str, params: Value) -> Tool {
    Tool {
        name: Some(name.into()),
        description: Some("Looks a record up.".into()),
        parameters: Some(params),
        strict: None,
    }
}

fn plain() -> Tool {
    tool(
        "lookup",
        json!({"type":"object","properties":{
            "id":{"type":"string","description":"The record's id"},
            "limit":{"type":"integer"}},"required":["id"]}),
    )
}

#[test]
fn every_live_target_compiles_a_plain_tool_and_its_model_accepts_it() {
    let p = profile(&[]);
    for route in crate::target::routes() {
        let id = route.id();
        let c = compile(&[plain()], id, &p, &repair::Options::default()).unwrap();
        assert!(
            matches!(c.check, ModelCheck::Accepted { .. }),
            "{id}: {:#?}\n{}",
            c.check,
            c.request
        );
        assert!(!c.wire.is_null(), "{id}: no tool block in {}", c.request);
    }
}

#[test]
fn strict_targets_get_closed_objects_with_every_property_required() {
    let p = profile(&[]);
    let c = compile(
        &[plain()],
        "openai/chat-strict",
        &p,
        &repair::Options::default(),
    )
    .unwrap();
    assert!(c.is_ok(), "{:#?}", c.check);
    assert_eq!(
        c.wire[0]["function"]["parameters"],
        json!({"type":"object","properties":{
            "id":{"type":"string","description":"The record's id"},
            "limit":{"type":["integer","null"]}},"required":["id","limit"],"additionalProperties":false})
    );
    assert_eq!(c.wire[0]["function"]["strict"], json!(true));
    let c = compile(
        &[plain()],
        "openai/responses-strict",
        &p,
        &repair::Options::default(),
    )
    .unwrap();
    assert_eq!(c.wire[0]["parameters"]["required"], json!(["id", "limit"]));
}

#[test]
fn what_the_model_rejects_beyond_the_evidence_is_repaired_and_said_so() {
    // A profile with no evidence against `const` keeps it; Gemini's model rejects it at
    // parse, and compile repairs what the model's error names.
    let p = profile(&[]);
    let t = tool(
        "pick",
        json!({"type":"object","properties":{"a":{"type":"string"},"mode":{"const":"fast"}}}),
    );
    let c = compile(
        &[t],
        "gemini/v1beta/parameters",
        &p,
        &repair::Options::default(),
    )
    .unwrap();
    assert!(c.is_ok(), "{:#?}", c.check);
    assert_eq!(
        c.wire[0]["functionDeclarations"][0]["parameters"]["properties"]["mode"],
        json!({"enum":["fast"],"type":"string"})
    );
    assert!(
        c.tools[0].changes[0]
            .action
            .ends_with("(the target's offline model rejects it)"),
        "{:#?}",
        c.tools[0].changes
    );
}

/// A rejection no repair answers refuses the tool the model named, with the model's own
/// error; the other tools are sent again and compile.
#[test]
fn a_rejection_no_repair_answers_refuses_that_tool_with_the_models_own_error() {
    let p = profile(&[]);
    let t = tool(
        "tags",
        json!({"type":"object","properties":{"t":{"type":"array"}}}),
    );
    let c = compile(
        &[t, plain()],
        "openai/chat",
        &p,
        &repair::Options::default(),
    )
    .unwrap();
    assert_eq!(c.tools[0].outcome, Outcome::Refused);
    let reason = &c.tools[0].refusals[0].reason;
    assert!(
        reason.starts_with(
            "/properties/t: the offline model of openai/chat rejects it (array-items-missing)"
        ) && reason.contains("array schema missing items"),
        "{reason}"
    );
    assert_ne!(c.tools[1].outcome, Outcome::Refused);
    assert!(
        matches!(c.check, ModelCheck::Accepted { .. }),
        "{:#?}",
        c.check
    );
    assert!(!c.is_ok(), "a refused tool is not a clean compile");
}

#[test]
fn refused_tools_are_left_out_and_engines_have_no_wire_form() {
    let p = profile(&["structure: array-without-items"]);
    let bad = tool(
        "tags",
        json!({"type":"object","properties":{"t":{"type":"array"}}}),
    );
    let c = compile(
        &[bad, plain()],
        "anthropic/messages",
        &p,
        &repair::Options::default(),
    )
    .unwrap();
    assert_eq!(c.tools[0].outcome, Outcome::Refused);
    assert_eq!(c.wire.as_array().map(Vec::len), Some(1));
    assert!(!c.is_ok());
    assert!(matches!(
        compile(
            &[plain()],
            "engine/llguidance",
            &p,
            &repair::Options::default()
        ),
        Err(CompileError::NoRoute(_))
    ));
    let bare = Tool {
        name: None,
        description: None,
        parameters: Some(json!({"type":"object"})),
        strict: None,
    };
    assert_eq!(
        compile(&[bare], "openai/chat", &p, &repair::Options::default()).unwrap_err(),
        CompileError::Unnamed(0)
    );
}

#[test]
fn a_description_past_the_limit_the_model_states_is_cut_to_it() {
    let p = profile(&[]);
    let mut t = plain();
    t.description = Some("d".repeat(1500));
    let c = compile(&[t], "openai/chat", &p, &repair::Options::default()).unwrap();
    assert!(c.is_ok(), "{:#?}", c.check);
    let d = c.wire[0]["function"]["description"].as_str().unwrap();
    assert_eq!(d.chars().count(), 1024);
    assert!(c.tools[0].changes[0].lost.as_ref().unwrap().contains("477"));
}

/// A `$ref` left for a target that takes references must lead somewhere: a dangling, remote
/// or endlessly chained reference refuses the tool (models do not resolve references), while
/// a sound or recursive one compiles.
#[test]
fn a_broken_ref_refuses_the_tool() {
    let p = profile(&[]);
    let tools = [
        tool(
            "dangling",
            json!({"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}),
        ),
        tool(
            "remote",
            json!({"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}),
        ),
        tool(
            "chain",
            json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},
                   "$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}),
        ),
        tool(
            "sound",
            json!({"type":"object","properties":{"a":{"$ref":"#/$defs/x%20y"}},
                   "$defs":{"x y":{"type":"string"}}}),
        ),
        tool(
            "recursive",
            json!({"type":"object","properties":{"child":{"$ref":"#"}}}),
        ),
    ];
    let c = compile(
        &tools,
        "anthropic/messages",
        &p,
        &repair::Options::default(),
    )
    .unwrap();
    let reasons: Vec<String> = c
        .tools
        .iter()
        .map(|t| {
            t.refusals
                .iter()
                .map(|r| r.reason.clone())
                .collect::<Vec<_>>()
                .join("; ")
        })
        .collect();
    assert!(reasons[0].contains("points to nothing"), "{reasons:?}");
    assert!(reasons[1].contains("remote `$ref`"), "{reasons:?}");
    assert!(reasons[2].contains("never reach a schema"), "{reasons:?}");
    assert_eq!(reasons[3], "", "{reasons:?}");
    assert_eq!(reasons[4], "", "{reasons:?}");
}

/// A `required` name that only a `patternProperties` pattern declares is named as that
/// pattern's member when compiling drops it, for Gemini (repair) and strict forms (closing).
#[test]
fn a_required_pattern_member_is_named_by_its_pattern_when_dropped() {
    let t = tool(
        "lookup",
        json!({"type":"object","properties":{"id":{"type":"string"}},
            "patternProperties":{"^x_":{"type":"integer"}},"required":["id","x_tag","ghost"]}),
    );
    let p = profile(&[
        "keyword-allowed: patternProperties",
        "structure: required-undeclared",
    ]);
    for target in ["gemini/v1beta/parameters", "openai/chat-strict"] {
        let c = compile(
            std::slice::from_ref(&t),
            target,
            &p,
            &repair::Options::default(),
        )
        .unwrap();
        assert!(c.is_ok(), "{target}: {:#?}", c.check);
        let dropped: Vec<&str> = c.tools[0]
            .changes
            .iter()
            .filter(|c| c.pointer == "/required")
            .map(|c| c.action.as_str())
            .collect();
        let said = dropped.join("\n");
        assert!(
            said.contains("`patternProperties` pattern `^x_`") && said.contains("x_tag"),
            "{target}: {said}"
        );
        // A name no pattern matches is still said to be undeclared.
        assert!(
            dropped
                .iter()
                .any(|a| a.contains("ghost") && !a.contains("ghost\": a member")),
            "{target}: {said}"
        );
        assert!(
            c.wire.to_string().contains("\"required\":[\"id\"]"),
            "{target}: {}",
            c.wire
        );
    }
}

/// The user's `strict: true` reaches a strict target as its wire form; a plain target gets
/// the canonical schema without it, and the report says so.
#[test]
fn a_strict_flag_is_left_out_for_a_plain_target_and_said() {
    let p = profile(&[]);
    let mut t = tool(
        "get_weather",
        json!({"type":"object","properties":{"city":{"type":"string"}},
            "required":["city"],"additionalProperties":false}),
    );
    t.strict = Some(true);
    let said = |c: &Compilation| {
        c.tools[0]
            .changes
            .iter()
            .filter(|x| x.action.starts_with("left out `strict: true`"))
            .count()
    };
    let chat = compile(&[t.clone()], "openai/chat", &p, &repair::Options::default()).unwrap();
    assert!(chat.is_ok(), "{:#?}", chat.check);
    assert_eq!(chat.tools[0].outcome, Outcome::Repaired);
    assert_eq!(said(&chat), 1, "{:#?}", chat.tools[0].changes);
    assert!(chat.wire[0]["function"].get("strict").is_none());
    let strict = compile(&[t], "openai/chat-strict", &p, &repair::Options::default()).unwrap();
    assert!(strict.is_ok(), "{:#?}", strict.check);
    assert_eq!(said(&strict), 0);
    assert_eq!(strict.tools[0].outcome, Outcome::Unchanged);
    assert_eq!(strict.wire[0]["function"]["strict"], json!(true));
    // Without the flag there is nothing to say.
    let none = compile(&[plain()], "openai/chat", &p, &repair::Options::default()).unwrap();
    assert_eq!(said(&none), 0);
}
