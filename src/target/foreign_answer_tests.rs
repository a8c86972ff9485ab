//! Every route's answer reader against 400s about the request's envelope (model name,
//! `contents`, generation config, messages) and against another service's schema error: a
//! rejection is evidence about the schema only when the answer points into the tool block
//! in the route's own shape (trialO F7: Gemini's reader counted all of them as rejections, so
//! the control was rejected and every case confounded).
//!
//! The bodies are SYNTHETIC fixtures shaped after providers' answers (the Google ones after
//! the bodies of trialO's test server, /tmp/trialO/b_*.json); none is probed evidence.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::routes;
use super::wire::Reply;
use crate::evidence::Verdict;

/// Synthetic Google answers about fields outside the tool block.
fn google_outside() -> Vec<(&'static str, Value)> {
    vec![
        (
            "model name",
            json!({"error":{"code":400,"message":"* GenerateContentRequest.model: unexpected model name format\n","status":"INVALID_ARGUMENT"}}),
        ),
        (
            "contents",
            json!({"error":{"code":400,"message":"* GenerateContentRequest.contents: contents is not specified\n","status":"INVALID_ARGUMENT"}}),
        ),
        (
            "generation_config",
            json!({"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"foo\" at 'generation_config': Cannot find field.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"generation_config","description":"Invalid JSON payload received. Unknown name \"foo\" at 'generation_config': Cannot find field."}]}]}}),
        ),
        (
            "vertex contents",
            json!({"error":{"code":400,"message":"Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again.","status":"INVALID_ARGUMENT"}}),
        ),
        (
            "message-only generation_config",
            json!({"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"foo\" at 'generation_config': Cannot find field.","status":"INVALID_ARGUMENT"}}),
        ),
        (
            "proto-invalid contents",
            json!({"error":{"code":400,"message":"The GenerateContentRequest proto is invalid:\n  * contents[0].parts: [FIELD_INVALID] required\n","status":"INVALID_ARGUMENT"}}),
        ),
    ]
}

/// Synthetic OpenAI-style and Anthropic-style answers about fields outside the tool block.
fn others_outside() -> Vec<(&'static str, Value)> {
    vec![
        (
            "openai parameter",
            json!({"error":{"message":"Unsupported parameter: 'max_completion_tokens' is not supported with this model. Use 'max_tokens' instead.","type":"invalid_request_error","param":"max_completion_tokens","code":"unsupported_parameter"}}),
        ),
        (
            "openai content",
            json!({"error":{"message":"Invalid value for 'content': expected a string, got null.","type":"invalid_request_error","param":"messages.[0].content","code":null}}),
        ),
        (
            "anthropic model",
            json!({"type":"error","error":{"type":"invalid_request_error","message":"model: claude-sonnet-9 is not a valid model"}}),
        ),
        (
            "anthropic messages",
            json!({"type":"error","error":{"type":"invalid_request_error","message":"messages.0.content: Input should be a valid list"}}),
        ),
    ]
}

/// A synthetic OpenAI-shaped schema error (as trialO's echo server sent it).
fn openai_schema_error() -> Value {
    json!({"error":{"message":"Invalid schema for function 'get_weather': In context=(), 'additionalProperties' is required to be supplied and to be false.","type":"invalid_request_error","param":"tools[0].function.parameters","code":"invalid_function_parameters"}})
}

/// Routes whose answers are OpenAI-shaped (Mistral's reader falls back to OpenAI's for a
/// body not in its own shape): there the body above is the route's own schema error.
const OPENAI_SHAPED: &[&str] = &[
    "openai/chat",
    "openai/chat-strict",
    "openai/responses-strict",
    "azure-openai/chat",
    "mistral/chat",
    "xai/chat",
    "deepseek/beta-strict",
    "groq/chat",
    "llama.cpp/server",
    "vllm/chat",
    "sglang/chat",
    "moonshot/chat",
    "together/chat",
    "fireworks/chat",
];

fn verdict(id: &str, body: &Value) -> (Verdict, Option<String>) {
    let r = super::route(id).unwrap();
    let cfg = r.configure(&BTreeMap::new());
    let c = r.classify(&cfg, &Reply::json(400, body), false);
    (c.verdict, c.note)
}

#[test]
fn an_answer_about_the_envelope_is_no_rejection_on_any_route() {
    for r in routes() {
        for (what, body) in google_outside().into_iter().chain(others_outside()) {
            let (v, note) = verdict(r.id(), &body);
            assert_eq!(v, Verdict::Inconclusive, "{} × {what}: {note:?}", r.id());
        }
    }
}

#[test]
fn google_routes_say_why_an_envelope_refusal_is_not_a_rejection() {
    for id in [
        "gemini/v1beta/parameters",
        "gemini/v1beta/parameters-json-schema",
        "vertex/v1/parameters",
        "gemini/openai-compat",
    ] {
        for (what, body) in google_outside().into_iter().take(3) {
            let note = verdict(id, &body).1.unwrap_or_default();
            let field = what.split(' ').next().unwrap();
            assert!(
                note.contains(&format!("names `{field}"))
                    && note.contains("outside the tool block"),
                "{id} × {what}: {note}"
            );
        }
        let (v, note) = verdict(id, &openai_schema_error());
        assert_eq!(v, Verdict::Inconclusive, "{id}");
        assert!(note.unwrap().contains("not Google's error shape"));
    }
}

#[test]
fn another_services_schema_error_is_a_rejection_only_in_its_own_shape() {
    for r in routes() {
        let (v, note) = verdict(r.id(), &openai_schema_error());
        let own = OPENAI_SHAPED.contains(&r.id());
        assert_eq!(v == Verdict::Rejected, own, "{}: {v:?} {note:?}", r.id());
    }
}

/// The other side: answers that point into the tool block are still rejections, with the
/// path into it (also when the first problem line is about something else).
#[test]
fn google_answers_into_the_tool_block_stay_rejections() {
    let cases = [
        (
            json!({"error":{"code":400,"message":"* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[value].items: missing field.\n","status":"INVALID_ARGUMENT"}}),
            Some("tools[0].function_declarations[0].parameters.properties[value].items"),
        ),
        (
            json!({"error":{"code":400,"message":"* GenerateContentRequest.contents: contents is not specified\n* GenerateContentRequest.tools[0].function_declarations[0].parameters.required[1]: property is not defined\n","status":"INVALID_ARGUMENT"}}),
            Some("tools[0].function_declarations[0].parameters.required[1]"),
        ),
        (
            json!({"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"const\" at 'generate_content_request.tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"generate_content_request.tools[0].function_declarations[0].parameters.properties[0].value","description":"Invalid JSON payload received. Unknown name \"const\" at 'generate_content_request.tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field."}]}]}}),
            Some(
                "generate_content_request.tools[0].function_declarations[0].parameters.properties[0].value",
            ),
        ),
        // The transcoder's message alone, without `details` (trialP #14,
        // /tmp/trialP/rd/bod_unk_in_tools.json): the quoted path decides.
        (
            json!({"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"x\" at 'tools[0].function_declarations[0].parameters': Cannot find field.","status":"INVALID_ARGUMENT"}}),
            Some("tools[0].function_declarations[0].parameters"),
        ),
        (
            json!({"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"foo\" at 'generation_config': Cannot find field.\nInvalid value at 'tools[0].function_declarations[0].parameters.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), \"objekt\"","status":"INVALID_ARGUMENT"}}),
            Some("tools[0].function_declarations[0].parameters.type"),
        ),
        (
            json!({"error":{"code":400,"message":"Unable to submit request because `f` functionDeclaration `parameters.x` schema didn't specify the schema type field.","status":"INVALID_ARGUMENT"}}),
            Some("parameters.x"),
        ),
        (
            json!({"error":{"code":400,"message":"Unable to submit request because required fields ['a'] are not defined in the schema properties.","status":"INVALID_ARGUMENT"}}),
            None,
        ),
        (
            json!({"error":{"code":400,"message":"Duplicate function declaration found: f","status":"INVALID_ARGUMENT"}}),
            None,
        ),
        (
            json!([{"error":{"code":400,"message":"Invalid schema for function 'f': [] is not of type 'object'","status":"INVALID_ARGUMENT"}}]),
            None,
        ),
    ];
    for (body, path) in cases {
        let r = super::route("gemini/v1beta/parameters").unwrap();
        let cfg = r.configure(&BTreeMap::new());
        let c = r.classify(&cfg, &Reply::json(400, &body), false);
        assert_eq!(c.verdict, Verdict::Rejected, "{body}: {:?}", c.note);
        assert_eq!(c.path.as_deref(), path, "{body}");
    }
}

/// A transcoder message without `details` whose quoted path lies outside the tool block
/// stays inconclusive, and says which field it named.
#[test]
fn a_message_only_path_outside_the_tool_block_is_no_rejection() {
    let body = json!({"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"foo\" at 'generation_config': Cannot find field.","status":"INVALID_ARGUMENT"}});
    for id in [
        "gemini/v1beta/parameters",
        "gemini/v1beta/parameters-json-schema",
        "vertex/v1/parameters",
    ] {
        let (v, note) = verdict(id, &body);
        assert_eq!(v, Verdict::Inconclusive, "{id}");
        let note = note.unwrap_or_default();
        assert!(
            note.contains("names `generation_config`") && note.contains("outside the tool block"),
            "{id}: {note}"
        );
    }
}

/// The key-needing routes against 400s and 422s about the envelope in the OpenAI and Mistral
/// shapes (SYNTHETIC bodies, not observed): none is a rejection of the case's schema.
#[test]
fn key_needing_routes_read_no_envelope_refusal_as_a_rejection_at_400_or_422() {
    let bodies = [
        json!({"error":{"message":"Invalid model: some-model","type":"invalid_request_error","param":null,"code":null}}),
        json!({"error":{"message":"max_tokens: must be at least 1","type":"invalid_request_error","param":"max_tokens","code":null}}),
        json!({"object":"error","message":"Invalid model: some-model","type":"invalid_model","param":null,"code":"1500"}),
        json!({"object":"error","message":{"detail":[{"type":"missing","loc":["body","messages"],"msg":"Field required","input":{}}]},"type":"invalid_request_error","param":null,"code":null}),
        json!({"detail":[{"type":"missing","loc":["body","model"],"msg":"Field required","input":{}}]}),
        json!({"message":"max_tokens: too large"}),
    ];
    let keyed = [
        "openai/chat",
        "openai/chat-strict",
        "openai/responses-strict",
        "anthropic/messages",
        "bedrock/converse",
        "mistral/chat",
        "cohere/v2-strict",
        "xai/chat",
        "deepseek/beta-strict",
        "groq/chat",
        "openrouter",
        "moonshot/chat",
        "azure-openai/chat",
    ];
    for id in keyed {
        for body in &bodies {
            for status in [400, 422] {
                let r = super::route(id).unwrap();
                let cfg = r.configure(&BTreeMap::new());
                let c = r.classify(&cfg, &Reply::json(status, body), false);
                assert_eq!(c.verdict, Verdict::Inconclusive, "{id} {status} {body}");
                assert!(c.note.is_some(), "{id} {status} {body}: no reason");
            }
        }
    }
}
