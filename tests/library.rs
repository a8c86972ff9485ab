//! The library as an embedder uses it: only the public API, no files, no network.

use std::path::Path;

use serde_json::{Value, json};
use toolwire::args::{Coercions, SchemaProblem, check_arguments};
use toolwire::compile::CompileError;
use toolwire::profile::{CompiledProfile, PORTABLE};

/// The nesting cap of files and in-memory values alike (brackets counted).
const CAP: usize = toolwire::input::LIMITS.max_depth;

/// `levels` nested `items` schemas around a string (one bracket per level: the most schema
/// levels, so the most recursion, a bracket count allows) and arguments that fill them.
fn nested(levels: usize) -> (Value, Value) {
    // Built by moving, not with `json!`, which copies its values through serde (recursively).
    let mut schema = json!({"type": "string"});
    let mut args = json!("x");
    for _ in 0..levels {
        let mut level = serde_json::Map::new();
        level.insert("type".into(), json!("array"));
        level.insert("items".into(), schema);
        schema = Value::Object(level);
        args = Value::Array(vec![args]);
    }
    (schema, args)
}

/// Every step on a thread with tokio's default worker stack, in this (debug) build: a value
/// just under the cap goes through them all; one bracket more is an error naming the place.
#[test]
fn every_step_survives_the_nesting_cap_on_a_2_mib_thread() {
    let run = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let profiles = toolwire::profile::embedded_set().unwrap();
            let portable = CompiledProfile::new(profiles.get(PORTABLE).unwrap());
            // `[{"parameters": ...}]` takes two brackets.
            let (schema, args) = nested(CAP - 3);
            let doc = json!([{"name": "deep", "description": "d", "parameters": schema}]);
            let set = toolwire::input::from_value(Path::new("tools"), doc).unwrap();
            toolwire::check::check_set(&set, &portable);
            let tools: Vec<toolwire::repair::Tool> = set.tools.iter().map(Into::into).collect();
            let repaired = toolwire::repair::repair_request(&tools, &portable, &Default::default());
            assert_ne!(repaired[0].refusals.first().map(|r| r.rule.as_str()), Some("nesting-too-deep"));
            let target = "openai/chat";
            let own = CompiledProfile::new(profiles.get(target).unwrap());
            toolwire::compile::compile(&tools, target, &own, &Default::default()).unwrap();
            let schema = set.tools[0].parameters.as_ref().unwrap();
            let report = check_arguments(schema, &args, Coercions::ALL).unwrap();
            assert!(report.is_valid(), "{:?}", report.problems);
            // The costliest keyword per level for the `jsonschema` crate, and a recursive
            // `$ref` that recurses as deep as the arguments do.
            let mut costly = json!({"type": "string"});
            for _ in 0..CAP - 1 {
                let mut level = serde_json::Map::new();
                level.insert("type".into(), json!("object"));
                level.insert("unevaluatedProperties".into(), costly);
                costly = Value::Object(level);
            }
            check_arguments(&costly, &json!({"a": {"a": 1}}), Coercions::ALL).unwrap();
            let recursive = json!({"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}},
                "$ref": "#/$defs/n"});
            let (_, deep_args) = nested(CAP - 1);
            let report = check_arguments(&recursive, &deep_args, Coercions::ALL).unwrap();
            assert_eq!(report.problems.len(), 1, "the string at the bottom is no array");
            // `{"tools": [{"function": {"parameters": ...}}]}` takes four brackets.
            let (schema, _) = nested(CAP - 5);
            let request = json!({"tools": [{"type": "function", "function": {
                "name": "deep", "description": "d", "parameters": schema}}]});
            let error = r#"{"error": {"message": "Invalid schema for function 'deep': In context=(), 'required' is required to be supplied and to be an array including every key in properties.", "type": "invalid_request_error", "param": "tools[0].function.parameters"}}"#;
            toolwire::explain::explain(Some(&request), error, Some("openai/chat-strict"));

            // One bracket past the cap.
            let (schema, _) = nested(CAP - 2);
            let doc = json!([{"name": "deep", "parameters": schema}]);
            let e = toolwire::input::from_value(Path::new("tools"), doc).unwrap_err();
            let deepest = format!("/0/parameters{}", "/items".repeat(CAP - 2));
            // The message shows the place by its ends; the error keeps it whole.
            let shown = toolwire::report::short_pointer(&deepest);
            assert_eq!(
                e.to_string(),
                format!("tools: at {shown}: nesting deeper than {CAP} levels")
            );
            let toolwire::Error::Input { place, .. } = &e else { panic!("{e:?}") };
            assert_eq!(place, &toolwire::error::Place::Pointer(deepest));
            let (schema, _) = nested(CAP);
            let p = check_arguments(&schema, &json!({}), Coercions::ALL).unwrap_err();
            assert_eq!(p.pointer, "/items".repeat(CAP));
            let (_, args) = nested(CAP + 1);
            let ok = check_arguments(&json!({"type": "object"}), &args, Coercions::ALL).unwrap();
            assert_eq!(ok.problems[0].keyword, "depth");
            assert_eq!(ok.problems[0].pointer, "/0".repeat(CAP));
            let tool = toolwire::repair::Tool {
                name: Some("deep".into()),
                description: None,
                parameters: Some(schema),
                strict: None,
                strict_tool_use: None,
            };
            let r = toolwire::repair::repair_request(std::slice::from_ref(&tool), &portable, &Default::default());
            assert_eq!(r[0].refusals[0].rule, "nesting-too-deep");
            let e = toolwire::compile::compile(&[tool], target, &own, &Default::default()).unwrap_err();
            assert!(matches!(e, CompileError::TooDeep { tool: 0, .. }), "{e}");
        })
        .unwrap();
    run.join().expect("no step overflows a 2 MiB stack");
}

/// A value far past the cap is refused, and dropped, without recursion.
#[test]
fn a_value_far_past_the_cap_is_refused_without_overflow() {
    let run = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let mut v = json!(1);
            for _ in 0..100_000 {
                v = Value::Array(vec![v]);
            }
            let e = toolwire::input::from_value(Path::new("mem"), v).unwrap_err();
            assert!(
                e.to_string().ends_with("nesting deeper than 512 levels"),
                "{e}"
            );
        })
        .unwrap();
    run.join().expect("no overflow");
}

#[test]
fn errors_are_std_errors_with_the_clis_words() {
    fn boxed(e: impl std::error::Error + 'static) -> Box<dyn std::error::Error> {
        Box::new(e)
    }
    let p: SchemaProblem = check_arguments(
        &json!({"properties": {"a": {"$ref": "#/$defs/missing"}}}),
        &json!({}),
        Coercions::default(),
    )
    .unwrap_err();
    assert_eq!(
        boxed(p.clone()).to_string(),
        format!("at {}: {}", p.pointer, p.message)
    );
    // Cut short: placed after the last character, where more was expected.
    let e = toolwire::args::parse_arguments("{").unwrap_err();
    assert!(
        boxed(e)
            .to_string()
            .starts_with("arguments: line 1, column 2: ")
    );
    let root = SchemaProblem {
        pointer: String::new(),
        message: "m".into(),
    };
    assert_eq!(root.to_string(), "at the document root: m");
    let profiles = toolwire::profile::embedded_set().unwrap();
    let chat = CompiledProfile::new(profiles.get("openai/chat").unwrap());
    let e = toolwire::compile::compile(&[], "no/such", &chat, &Default::default()).unwrap_err();
    assert_eq!(
        boxed(e).to_string(),
        "target \"no/such\" has no wire form to compile to (engines and unknown ids have no request)"
    );
    // An empty id is quoted, not left as a message starting " has no ...".
    let e = toolwire::compile::compile(&[], "", &chat, &Default::default()).unwrap_err();
    assert!(
        boxed(e)
            .to_string()
            .starts_with("target \"\" has no wire form")
    );
    // Another target's profile is refused; the target's own is taken.
    let e = toolwire::compile::compile(&[], "gemini/v1beta/parameters", &chat, &Default::default())
        .unwrap_err();
    assert!(matches!(e, CompileError::WrongProfile { .. }), "{e}");
    let portable = CompiledProfile::new(profiles.get(PORTABLE).unwrap());
    assert!(
        toolwire::compile::compile(&[], "openai/chat", &portable, &Default::default()).is_err()
    );
    assert!(toolwire::compile::compile(&[], "openai/chat", &chat, &Default::default()).is_ok());
}

#[test]
fn the_embedded_profiles_are_parsed_once() {
    let a = toolwire::profile::embedded_set().unwrap();
    let b = toolwire::profile::embedded_set().unwrap();
    assert!(std::ptr::eq(a, b));
    assert_eq!(&toolwire::profile::embedded().unwrap(), a);
}

#[test]
fn check_tools_reports_a_schema_past_the_cap_and_checks_the_rest() {
    let profiles = toolwire::profile::embedded_set().unwrap();
    let portable = CompiledProfile::new(profiles.get(PORTABLE).unwrap());
    let (deep, _) = nested(CAP);
    let fine = json!({"type": "object", "properties": {"a": {"type": "array"}}});
    let tools = [
        toolwire::check::ToolRef {
            name: Some("fine"),
            description: Some("d"),
            parameters: Some(&fine),
            index: 0,
            ..Default::default()
        },
        toolwire::check::ToolRef {
            name: Some("deep"),
            description: Some("d"),
            parameters: Some(&deep),
            index: 1,
            ..Default::default()
        },
    ];
    let findings = toolwire::check::check_tools(&tools, &portable);
    let deep_ones: Vec<_> = findings.iter().filter(|f| f.tool_index == 1).collect();
    assert_eq!(deep_ones.len(), 1);
    assert_eq!(deep_ones[0].rule.as_str(), "nesting-too-deep");
    // Its id is a registry rule, so `toolwire rule nesting-too-deep` documents it.
    let rule = toolwire::profile::rules::find(deep_ones[0].rule.as_str()).expect("a rule");
    assert_eq!(deep_ones[0].fix.as_str(), rule.fix);
    assert_eq!(deep_ones[0].pointer, "/items".repeat(CAP));
    assert!(
        findings.iter().any(|f| f.tool_index == 0),
        "the other tool is checked"
    );
}

/// A finding's `evidence` (JSON and SARIF) is the profile's own detail for the feature:
/// the entries reports/profile.json lists for it, kind, date and link as written there.
#[test]
fn a_findings_evidence_is_the_profiles_detail_for_its_feature() {
    let report: Value =
        serde_json::from_str(include_str!("../reports/profile.json")).expect("profile.json");
    let target = "openai/chat";
    let profile = report["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == target)
        .expect("the target's profile");
    let feature = "structure: array-without-items @ nested";
    let by = profile["rejected"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["feature"] == feature)
        .expect("the feature is rejected")["by"]
        .as_array()
        .unwrap()
        .clone();
    let expected: Vec<Value> = by
        .iter()
        .map(|i| report["evidence"][i.as_u64().unwrap() as usize].clone())
        .collect();
    assert!(
        expected.iter().all(|e| e["latest"]["source"].is_string()),
        "{expected:?}"
    );

    let profiles = toolwire::profile::embedded_set().unwrap();
    let own = CompiledProfile::new(profiles.get(target).unwrap());
    let doc = json!([{"name": "t", "description": "d",
        "parameters": {"type": "object", "properties": {"tags": {"type": "array"}}}}]);
    let set = toolwire::input::from_value(Path::new("tools"), doc).unwrap();
    let findings = toolwire::check::check_set(&set, &own);
    let f = findings
        .iter()
        .find(|f| f.pointer == "/properties/tags")
        .expect("a finding at the array");
    let json = serde_json::to_value(f).unwrap();
    assert_eq!(json["evidence"], Value::Array(expected.clone()), "{json}");
    let sarif = toolwire::report::sarif::to_value(
        std::slice::from_ref(f),
        |_| Default::default(),
        |_| None,
    );
    assert_eq!(
        sarif["runs"][0]["results"][0]["properties"]["evidence"],
        Value::Array(expected)
    );
    // A finding no evidence decides (a description no target has evidence about) has none.
    let warnings = findings
        .iter()
        .filter(|f| f.level == toolwire::check::Level::Warning);
    for w in warnings {
        assert!(
            serde_json::to_value(w).unwrap().get("evidence").is_none(),
            "{w:?}"
        );
    }
}
