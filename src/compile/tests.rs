//! Compile against hand-made profiles and the real offline models.

use serde_json::json;

use super::*;
use crate::repair::tests::profile;

fn tool(name: &str, params: Value) -> Tool {
    Tool {
        name: Some(name.into()),
        description: Some("Looks a record up.".into()),
        parameters: Some(params),
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
fn a_rejection_comes_back_with_the_models_own_error_explained() {
    // A profile with no evidence against `const` keeps it; Gemini's model rejects it at parse.
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
    let ModelCheck::Rejected {
        error,
        explanations,
        ..
    } = &c.check
    else {
        panic!("{:#?}", c.check);
    };
    assert!(error.contains("Unknown name \"const\""), "{error}");
    let e = &explanations[0];
    assert_eq!(e.tool.as_deref(), Some("pick"), "{e:#?}\n{}", c.request);
    assert_eq!(e.pointer.as_deref(), Some("/properties/mode/const"));
    assert!(!c.is_ok());
    // With the evidence that Gemini rejects `const`, repair writes it as an enum first.
    let p = profile(&["keyword-allowed: const"]);
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
    };
    assert_eq!(
        compile(&[bare], "openai/chat", &p, &repair::Options::default()).unwrap_err(),
        CompileError::Unnamed(0)
    );
}
