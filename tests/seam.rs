//! Integration tests for the seam: explain over the public rejections in the documented
//! evidence; args, repair and compile over the real tool definitions of the corpora (kept
//! outside the repository: see tests/corpora.rs); the compile round trip (property test).

use std::path::Path;

use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Deserialize)]
struct Report {
    id: String,
    #[serde(default)]
    outcome: String,
    /// The provider's error text, verbatim.
    #[serde(default)]
    quote: String,
    #[serde(default)]
    schema: String,
}

#[derive(Debug, Deserialize)]
struct Expected {
    id: String,
    request: Option<String>,
    tool_index: Option<usize>,
    #[serde(default)]
    gemini_group: usize,
    tool: Option<String>,
    pointer: Option<String>,
    rule: Option<String>,
    #[serde(default)]
    untrusted: bool,
    #[serde(default)]
    not_a_tool: bool,
    excluded: Option<String>,
    #[allow(dead_code)]
    reason: Option<String>,
    known_miss: Option<String>,
}

/// The public reports as the project imported them (`reports/documented/reports.yaml`).
fn load_reports() -> Vec<Report> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/documented/reports.yaml");
    let text = std::fs::read_to_string(&path).expect("read reports/documented/reports.yaml");
    serde_saphyr::from_str(&text).expect("parse reports/documented/reports.yaml")
}

fn load_expected() -> Vec<Expected> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/explain-reports.yaml"),
    )
    .expect("read tests/data/explain-reports.yaml");
    serde_saphyr::from_str(&text).expect("parse tests/data/explain-reports.yaml")
}

/// The first JSON value in a report's `schema` text (reports add `// notes` after it).
fn first_json(text: &str) -> Option<Value> {
    let start = text.find('{')?;
    serde_json::Deserializer::from_str(&text[start..])
        .into_iter::<Value>()
        .next()?
        .ok()
}

/// (name, parameters) of the report's tool: a Bedrock `toolSpec`, an OpenAI tool, a flat or
/// MCP tool, or a bare schema.
fn report_tool(schema: &Value) -> (Option<String>, Option<Value>) {
    let name = |v: &Value| v.get("name").and_then(Value::as_str).map(str::to_string);
    if let Some(spec) = schema.get("toolSpec") {
        return (
            name(spec),
            spec.get("inputSchema").and_then(|s| s.get("json")).cloned(),
        );
    }
    if let Some(f) = schema.get("function").filter(|f| f.get("name").is_some()) {
        return (name(f), f.get("parameters").cloned());
    }
    if schema.get("name").is_some() {
        let params = ["parameters", "input_schema", "inputSchema"]
            .iter()
            .find_map(|k| schema.get(*k))
            .cloned();
        return (name(schema), params);
    }
    (None, Some(schema.clone()))
}

fn filler(i: usize) -> (String, Value) {
    (
        format!("filler_{i}"),
        json!({"type":"object","properties":{"x":{"type":"string"}}}),
    )
}

/// The wire request of `kind` with the report's tool at `index` (Gemini: in `tools[group]`),
/// other places filled with a plain one-string tool.
fn build_request(
    kind: &str,
    index: usize,
    group: usize,
    name: &str,
    params: Option<Value>,
) -> Value {
    let mut tools: Vec<(String, Option<Value>)> = (0..index)
        .map(|i| {
            let (n, p) = filler(i);
            (n, Some(p))
        })
        .collect();
    tools.push((name.to_string(), params));
    match kind {
        "gemini" | "gemini-json" => {
            let key = if kind == "gemini" {
                "parameters"
            } else {
                "parametersJsonSchema"
            };
            let decl = |(n, p): &(String, Option<Value>)| {
                let mut d = json!({"name": n});
                if let Some(p) = p {
                    d[key] = p.clone();
                }
                d
            };
            let mut groups: Vec<Value> = Vec::new();
            for t in &tools[..group] {
                groups.push(json!({"functionDeclarations": [decl(t)]}));
            }
            let rest: Vec<Value> = tools[group..].iter().map(decl).collect();
            groups.push(json!({"functionDeclarations": rest}));
            json!({"contents": [], "tools": groups})
        }
        "openai" => {
            let list: Vec<Value> = tools
                .iter()
                .map(|(n, p)| {
                    let mut f = json!({"name": n});
                    if let Some(p) = p {
                        f["parameters"] = p.clone();
                    }
                    json!({"type": "function", "function": f})
                })
                .collect();
            json!({"model": "m", "messages": [], "tools": list})
        }
        "anthropic" => {
            let list: Vec<Value> = tools
                .iter()
                .map(|(n, p)| json!({"name": n, "input_schema": p.clone().unwrap_or(json!({}))}))
                .collect();
            json!({"model": "m", "messages": [], "tools": list})
        }
        "bedrock" => {
            let list: Vec<Value> = tools
                .iter()
                .map(|(n, p)| {
                    json!({"toolSpec": {"name": n, "inputSchema": {"json": p.clone().unwrap_or(json!({}))}}})
                })
                .collect();
            json!({"messages": [], "toolConfig": {"tools": list}})
        }
        other => panic!("unknown request kind {other}"),
    }
}

/// What shows that a message was quoted with part of its envelope: more closing brackets
/// than opening ones (a JSON or Python body's `}}`, a Java map's `}}`, a Rust printout's
/// `")`), or an odd number of double quotes (the closing quote of the string it was in).
/// A message that echoes a schema (`Unrecognized schema: {...}`) balances its own.
fn envelope_residue(message: &str) -> Option<String> {
    for (open, close) in [('{', '}'), ('[', ']'), ('(', ')')] {
        let count = |c: char| message.chars().filter(|&m| m == c).count();
        if count(close) > count(open) {
            return Some(format!("an unopened `{close}`"));
        }
    }
    (message.chars().filter(|&c| c == '"').count() % 2 == 1).then(|| "an unpaired `\"`".to_string())
}

/// Whether explain's first answer for the report is the expected one (and quotes the
/// provider's message without envelope residue); `Err` says what it gave.
fn check_one(report: &Report, exp: &Expected) -> Result<(), String> {
    let kind = exp.request.as_deref().ok_or("no request kind")?;
    let schema = first_json(&report.schema);
    let (name, params) = schema.as_ref().map(report_tool).unwrap_or((None, None));
    let name = name
        .or_else(|| exp.tool.clone())
        .unwrap_or_else(|| "t".into());
    let index = exp.tool_index.ok_or("no tool_index")?;
    let request = build_request(kind, index, exp.gemini_group, &name, params);
    let all = toolwire::explain::explain(Some(&request), &report.quote, None);
    for e in &all {
        if let Some(rule) = &e.rule {
            assert!(
                toolwire::profile::rules::find(rule).is_some(),
                "{}: explain named rule {rule}, which the registry does not have",
                report.id
            );
        }
    }
    let first = all.first().ok_or("no explanation")?;
    let show = || format!("{first:?}");
    // The message quoted back is the provider's own: nothing of the envelope it came in.
    if let Some(why) = envelope_residue(&first.message) {
        return Err(format!(
            "the message carries envelope residue ({why}): {}",
            show()
        ));
    }
    if exp.not_a_tool {
        return (first.rule.as_deref() == exp.rule.as_deref() && first.pointer.is_none())
            .then_some(())
            .ok_or_else(show);
    }
    if first.tool_index != Some(index) || first.tool.as_deref() != Some(name.as_str()) {
        return Err(show());
    }
    if exp.untrusted {
        return (first.pointer.is_none() && first.notes.iter().any(|n| n.contains("index")))
            .then_some(())
            .ok_or_else(show);
    }
    (first.pointer.as_deref() == exp.pointer.as_deref()
        && first.rule.as_deref() == exp.rule.as_deref())
    .then_some(())
    .ok_or_else(show)
}

#[test]
fn explain_answers_every_public_rejection_that_has_the_information() {
    let reports = load_reports();
    let expected = load_expected();
    let rejected: Vec<&Report> = reports.iter().filter(|r| r.outcome == "rejected").collect();
    // Every rejection is accounted for, and nothing else.
    for r in &rejected {
        assert!(
            expected.iter().any(|e| e.id == r.id),
            "{} has no entry in tests/data/explain-reports.yaml",
            r.id
        );
    }
    assert_eq!(
        expected.len(),
        rejected.len(),
        "stale entries in explain-reports.yaml"
    );
    let (mut with_info, mut exact, mut refused, mut untrusted) = (0, 0, 0, 0);
    let mut excluded = std::collections::BTreeMap::<String, usize>::new();
    let mut failures = Vec::new();
    for exp in &expected {
        if let Some(kind) = &exp.excluded {
            *excluded.entry(kind.clone()).or_default() += 1;
            continue;
        }
        let report = rejected
            .iter()
            .find(|r| r.id == exp.id)
            .expect("checked above");
        let got = check_one(report, exp);
        if exp.untrusted {
            untrusted += 1;
            refused += usize::from(got.is_ok());
        } else {
            with_info += 1;
            exact += usize::from(got.is_ok());
        }
        match (&got, &exp.known_miss) {
            (Err(e), None) => failures.push(format!("{}: {e}", exp.id)),
            (Ok(()), Some(why)) => failures.push(format!(
                "{}: listed as a known miss ({why}) but now explained; remove known_miss",
                exp.id
            )),
            _ => {}
        }
    }
    println!(
        "explain over reports/documented/reports.yaml: {} rejections; {exact}/{with_info} explained exactly \
         ({:.1}%); positional index correctly refused {refused}/{untrusted}; excluded {excluded:?}",
        rejected.len(),
        100.0 * exact as f64 / with_info.max(1) as f64
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------
// Compile round trip (property test): arguments valid under the canonical schema are valid
// under every target's wire schema, and the nulls a strict target's model sends for absent
// optional arguments map back to absent.

mod round_trip {
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};
    use toolwire::args::{ArgsSchema, Coercions};
    use toolwire::compile::wire::{Form, nullable_as_json_schema, to_wire_arguments};
    use toolwire::compile::{ModelCheck, compile};
    use toolwire::repair::{Options, Outcome, Tool};

    /// Property names, some spelled like keywords (they must stay names everywhere).
    const NAMES: &[&str] = &[
        "query",
        "type",
        "default",
        "properties",
        "limit",
        "items",
        "x_1",
    ];

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(json!({"type": "string", "description": "Some text"})),
            Just(json!({"type": "string", "enum": ["a", "b", "c"]})),
            (0i64..5, 5i64..50)
                .prop_map(|(lo, hi)| json!({"type": "integer", "minimum": lo, "maximum": hi})),
            Just(json!({"type": "number"})),
            Just(json!({"type": "boolean"})),
        ]
    }

    fn schema() -> impl Strategy<Value = Value> {
        leaf()
            .prop_recursive(3, 24, 5, |inner| {
                prop_oneof![
                    inner
                        .clone()
                        .prop_map(|i| json!({"type": "array", "items": i})),
                    (
                        prop::collection::btree_map(prop::sample::select(NAMES), inner, 1..5),
                        prop::collection::vec(any::<bool>(), 5)
                    )
                        .prop_map(|(props, req)| {
                            let names: Vec<&str> = props.keys().copied().collect();
                            let required: Vec<&str> = names
                                .iter()
                                .zip(req)
                                .filter(|(_, r)| *r)
                                .map(|(n, _)| *n)
                                .collect();
                            let props: Map<String, Value> =
                                props.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
                            let mut o = json!({"type": "object", "properties": props});
                            if !required.is_empty() {
                                o["required"] = json!(required);
                            }
                            o
                        }),
                ]
            })
            .prop_filter("the root must be an object", |s| s["type"] == "object")
    }

    /// A valid instance of `s`, with optional properties present or absent by `rng`.
    fn instance(s: &Value, rng: &mut fastrand::Rng) -> Value {
        match s["type"].as_str() {
            Some("string") => match s.get("enum").and_then(Value::as_array) {
                Some(e) => e[rng.usize(..e.len())].clone(),
                None => json!(format!("t{}", rng.u8(..))),
            },
            Some("integer") => {
                let lo = s["minimum"].as_i64().unwrap_or(0);
                let hi = s["maximum"].as_i64().unwrap_or(100);
                json!(rng.i64(lo..=hi))
            }
            Some("number") => json!(rng.f64() * 10.0),
            Some("boolean") => json!(rng.bool()),
            Some("array") => {
                let n = rng.usize(0..3);
                Value::Array((0..n).map(|_| instance(&s["items"], rng)).collect())
            }
            Some("object") => {
                let required: Vec<&str> = s["required"]
                    .as_array()
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mut o = Map::new();
                for (k, sub) in s["properties"].as_object().into_iter().flatten() {
                    if required.contains(&k.as_str()) || rng.bool() {
                        o.insert(k.clone(), instance(sub, rng));
                    }
                }
                Value::Object(o)
            }
            _ => Value::Null,
        }
    }

    const TARGETS: &[&str] = &[
        "openai/chat-strict",
        "openai/responses-strict",
        "deepseek/beta-strict",
        "cohere/v2-strict",
        "openai/chat",
        "gemini/v1beta/parameters",
        "gemini/v1beta/parameters-json-schema",
        "anthropic/messages",
        "bedrock/converse",
        "mistral/chat",
        "xai/chat",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        #[test]
        fn arguments_survive_the_round_trip_through_every_wire_form(s in schema(), seed in any::<u64>()) {
            let mut rng = fastrand::Rng::with_seed(seed);
            let args = instance(&s, &mut rng);
            let canonical = ArgsSchema::new(&s).expect("generated schemas compile");
            prop_assert!(canonical.check(&args, Coercions::NONE).is_valid());
            let tool = Tool { name: Some("t".into()), description: Some("d".into()), parameters: Some(s.clone()), strict: None, strict_tool_use: None };
            for target in TARGETS {
                // The target's own profile with no evidence against anything: the wire form
                // alone is under test.
                let profile = toolwire::profile::CompiledProfile::new(&toolwire::profile::Profile {
                    name: target.to_string(),
                    targets: vec![target.to_string()],
                    control: toolwire::profile::Status::Allowed,
                    features: vec![],
                    summary: Default::default(),
                    meta_schema: vec![],
                });
                let c = compile(std::slice::from_ref(&tool), target, &profile, &Options::default()).expect("compiles");
                prop_assert!(c.tools[0].outcome != Outcome::Refused, "{target}: {:#?}", c.tools[0]);
                prop_assert!(matches!(c.check, ModelCheck::Accepted { .. }), "{target}: {:#?}\n{}", c.check, c.request);
                let wire_schema = c.tools[0].tool.parameters.clone().expect("a schema");
                let form = Form::of(target);
                let sent = if form == Form::Plain { args.clone() } else { to_wire_arguments(&args, &s) };
                let as_json_schema = nullable_as_json_schema(&wire_schema);
                let wire = ArgsSchema::new(&as_json_schema).expect("wire schema compiles");
                let on_wire = wire.check(&sent, Coercions::NONE);
                prop_assert!(on_wire.is_valid(), "{target}: {sent} under {as_json_schema}: {:#?}", on_wire.problems);
                // Back: the nulls of absent optional arguments read as absent.
                let back = canonical.check(&sent, Coercions::NONE);
                prop_assert!(back.is_valid(), "{target}: {:#?}", back.problems);
                prop_assert_eq!(back.arguments.as_ref(), &args, "{}", target);
            }
        }
    }
}

/// `check`'s "(repairable)" mark says what repair does, both ways: an error marked
/// repairable is never among repair's refusals, and an error not marked is (same rule, same
/// feature), or, when repair takes it away on the way, the tool is refused all the same.
/// Held over every case of the catalog under every core target's profile, and over
/// hand-made tools whose repair depends on the profile (a non-standard `type` spelling, a root
/// without `type`, no parameters, `null`, `{}` or an object without `properties` as the
/// schema, `properties: null` at the root and below it) under hand-made profiles that reject
/// one, the other or both ways of taking no arguments.
#[test]
fn check_marks_repairable_exactly_the_errors_repair_fixes() {
    use toolwire::case::Placement;
    use toolwire::check::Level;
    use toolwire::profile::{CompiledProfile, FeatureEntry, Profile, Status};
    use toolwire::repair::{Options, Outcome, Tool, repair_tool};
    let catalog = toolwire::case::Catalog::load(Path::new("cases")).expect("the catalog");
    let set = toolwire::profile::embedded().expect("embedded profiles");
    let mut profiles: Vec<(String, CompiledProfile)> = [
        "portable",
        "gemini/v1beta/parameters",
        "openai/chat",
        "anthropic/messages",
        "bedrock/converse",
        "mistral/chat",
    ]
    .iter()
    .map(|name| {
        let p = CompiledProfile::new(set.get(name).expect("profile"));
        (name.to_string(), p)
    })
    .collect();
    // Hand-made: every shape below rejected, and the ways of taking no arguments each
    // rejected or not.
    let shapes = [
        "type-spelling: dict",
        "type-spelling: float",
        "root-shape: no-type",
        "root-shape: parameters-null",
        "root-shape: empty-schema",
        "root-shape: object-without-properties",
        "keyword-allowed: oneOf",
        "keyword-allowed: patternProperties",
        "keyword-allowed: additionalProperties (not a schema)",
        "keyword-allowed: enum (null member)",
        "keyword-allowed: enum (numbers)",
        "structure: items-without-type",
        "type-missing",
        "keyword-allowed: anyOf (with siblings)",
        "structure: properties-null",
        "structure: empty-properties",
    ];
    for (name, no_args) in [
        (
            "rejects-both",
            &["root-shape: parameters-absent", "root-shape: no-arguments"][..],
        ),
        ("rejects-absent", &["root-shape: parameters-absent"][..]),
        ("rejects-no-arguments", &["root-shape: no-arguments"][..]),
    ] {
        let features = shapes
            .iter()
            .chain(no_args)
            .flat_map(|p| {
                [Placement::Root, Placement::Nested, Placement::Items].map(|placement| {
                    FeatureEntry {
                        parameter: p.to_string(),
                        placement,
                        status: Status::Rejected,
                        rejected_by: Vec::new(),
                        unknown_for: Vec::new(),
                        judged_elsewhere: Default::default(),
                    }
                })
            })
            .collect();
        let profile = CompiledProfile::new(&Profile {
            name: name.into(),
            targets: vec!["test/target".into()],
            control: Status::Allowed,
            features,
            summary: Default::default(),
            meta_schema: Vec::new(),
        });
        profiles.push((name.to_string(), profile));
    }
    // Every tool as the reader gives it (a bare schema has no name).
    let entry = |i: usize, t: &toolwire::tool::ToolDef| toolwire::input::ToolEntry {
        name: Some(t.name.clone()),
        description: t.description.clone(),
        parameters: t.parameters.clone(),
        index: i,
        request: 0,
        line: None,
        schema_pointer: String::new(),
        tool_pointer: Some(String::new()),
        strict: None,
        strict_tool_use: None,
    };
    let made: Vec<(String, Vec<toolwire::input::ToolEntry>)> = [
        json!({"type":"dict","properties":{"w":{"type":"float"},"a":{"type":"any"}}}),
        json!({"properties":{"a":{"type":"string"}}}),
        json!({"required":["a"]}),
        json!(null),
        json!({}),
        json!({"type":"object"}),
        json!({"type":"object","properties":{}}),
        json!({"type":"dict"}),
        json!({"type":"dict","properties":{}}),
        json!({"type":"object","properties":null}),
        // Taking no arguments, with more that repair's rewrite of the whole schema takes
        // away: each finding in it is as repairable as that rewrite.
        json!({"type":"object","properties":{},"additionalProperties":false}),
        json!({"additionalProperties":false,"type":"object"}),
        json!({"type":"object","properties":{},"oneOf":[{"required":["a"]},{"required":["b"]}]}),
        json!({"type":"object","properties":{},"$defs":{"a":{"type":"array"}},"patternProperties":{"^x":{}}}),
        // A definition only a `$ref` in a keyword repair drops reaches goes with that keyword
        // (trial 59 D9); one a `$ref` outside it reaches too stays.
        json!({"type":"object","properties":{"v":{"type":"object","properties":{"a":{"type":"string"}},
            "not":{"$ref":"#/$defs/A"}}},"$defs":{"A":{"type":"object","properties":null}}}),
        json!({"type":"object","properties":{"v":{"type":"object","properties":{"a":{"type":"string"}},
            "not":{"$ref":"#/$defs/A"}},"w":{"$ref":"#/$defs/A"}},
            "$defs":{"A":{"type":"object","properties":null}}}),
        // A `{}` typed before a `true` branch is written `{}` (trial 61 D3).
        json!({"type":"object","properties":{"x":{"type":"string","anyOf":[{}]},
            "y":{"type":"string","anyOf":[true]}}}),
        json!({"type":"object","allOf":[true,{"properties":{"a":{"type":"string"}}}]}),
    ]
    .into_iter()
    // Repaired or not by what is around them: one property per tool, so that a refusal names
    // only its own finding's kind.
    .chain(
        [
            json!({"oneOf":[{"type":"string"},{"type":"integer"}]}),
            json!({"oneOf":[{"type":"string"},{"type":"string","minLength":2}]}),
            json!({"type":"object","patternProperties":{"^x":{"type":"string"}}}),
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "patternProperties":{"^x":{"type":"string"}}}),
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "additionalProperties":"no"}),
            json!({"type":"object","additionalProperties":"no"}),
            json!({"type":["integer","null"],"enum":[1,2,null]}),
            json!({"type":"array","items":{"type":["string","null"],"enum":["a",null]}}),
            json!({"enum":["a","b"]}),
            json!({"description":"Anything."}),
            json!({"items":{"type":"string"}}),
            // Siblings of `anyOf` that move into its branches, and one a branch contradicts.
            json!({"type":"string","anyOf":[{"format":"ipv4"},{"format":"ipv6"}]}),
            json!({"type":"string","anyOf":[{"type":"integer"},{"minLength":1}]}),
            // Kinds beside a null member.
            json!({"type":"string","enum":["x",1,null]}),
            json!({"enum":[1,2,null]}),
            // Respelled, these are still a free-form object and an array of anything.
            json!({"type":"dict"}),
            json!({"type":"list"}),
            // `null` written `{}`: an empty map, which stands only where the profile takes
            // it (the catalog has a `null` at the root alone).
            json!({"type":"object","properties":null}),
            json!({"properties":null}),
            // An `allOf` that merges only once that `null` is written `{}` (trial 58 C2).
            json!({"type":"object","properties":null,
                "allOf":[{"properties":{"a":{"type":"string"}}}]}),
            // Errors in a keyword repair drops whole go with it (trial 59 D9: marked not
            // repairable, and repair dropped the keyword).
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "not":{"type":"object","properties":null}}),
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "not":{"type":"object","properties":{}}}),
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "additionalProperties":{"type":"object","properties":null}}),
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "if":{"type":"object","properties":null},"then":{"required":["a"]}}),
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "not":{"type":"array"}}),
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "not":{"type":"object"}}),
            // A `true` branch is written `{}` and meets its repairs (trial 61 D3); one with no
            // `type` beside it is refused as `{}` is; a `false` one stays refused.
            json!({"type":"string","anyOf":[true]}),
            json!({"anyOf":[true,{"type":"string"}]}),
            json!({"type":"string","allOf":[true,{"minLength":1}]}),
            json!({"type":"object","properties":{"a":{"type":"string"}},"allOf":[true]}),
            json!({"type":"string","oneOf":[true]}),
            json!({"type":"string","anyOf":[false,{"minLength":1}]}),
        ]
        .map(|p| json!({"type":"object","properties":{"p":p}})),
    )
    .map(Some)
    .chain([None])
    .flat_map(|schema| {
        let tool = |name: Option<&str>| toolwire::input::ToolEntry {
            name: name.map(str::to_string),
            description: name.map(|n| format!("Does {n}.")),
            parameters: schema.clone(),
            index: 0,
            request: 0,
            line: None,
            schema_pointer: String::new(),
            tool_pointer: name.map(|_| String::new()),
            strict: None,
            strict_tool_use: None,
        };
        // A bare schema is its parameters: it cannot leave them out.
        let bare = schema.is_some().then(|| tool(None));
        [Some(tool(Some("f"))), bare]
    })
    .flatten()
    .map(|t| (format!("made {:?} {:?}", t.name, t.parameters), vec![t]))
    .collect();
    let mut broken = Vec::new();
    let (mut marked, mut unmarked) = (0, 0);
    for (name, profile) in &profiles {
        let cases = catalog
            .cases
            .iter()
            .map(|c| {
                let tools = c.tools.iter().enumerate().map(|(i, t)| entry(i, t));
                (c.id.clone(), tools.collect::<Vec<_>>())
            })
            .chain(made.iter().cloned());
        for (id, tools) in cases {
            for (i, t) in tools.iter().enumerate() {
                let errors: Vec<_> = toolwire::check::check_tools(&[t.as_ref()], profile)
                    .into_iter()
                    .filter(|f| f.level == Level::Error && !f.request)
                    .collect();
                if errors.is_empty() {
                    continue;
                }
                let r = repair_tool(&Tool::from(t), i, profile, &Options::default());
                // Every error marked repairable promises a repaired tool: a refusal for what
                // check did not report (or marked repairable) breaks that promise.
                if errors.iter().all(|f| f.repairable) && r.outcome == Outcome::Refused {
                    broken.push(format!(
                        "{name} {id}: every error marked repairable, refused: {}",
                        r.refusals
                            .iter()
                            .map(|x| format!("{} {} at {:?}", x.rule, x.parameter, x.pointer))
                            .collect::<Vec<_>>()
                            .join("; ")
                    ));
                }
                for f in &errors {
                    let refusal = r
                        .refusals
                        .iter()
                        .find(|x| x.rule == f.rule.as_str() && x.parameter == f.parameter.as_str());
                    match (f.repairable, refusal) {
                        (true, Some(x)) => broken.push(format!(
                            "{name} {id}: {} {} at {:?} marked repairable, refused: {}",
                            f.rule, f.parameter, f.pointer, x.reason
                        )),
                        // Repair may take it away on the way to refusing the tool for what
                        // the rewrite brought in (both ways of writing it are rejected).
                        (false, None) if r.outcome != Outcome::Refused => broken.push(format!(
                            "{name} {id}: {} {} at {:?} not marked repairable, repaired: {}",
                            f.rule,
                            f.parameter,
                            f.pointer,
                            r.changes
                                .iter()
                                .map(|c| format!("{} ({})", c.action, c.rule))
                                .collect::<Vec<_>>()
                                .join("; ")
                        )),
                        (true, None) => marked += 1,
                        (false, _) => unmarked += 1,
                    }
                }
            }
        }
    }
    println!("(repairable) held for {marked} errors, its absence for {unmarked}");
    assert!(marked > 50, "only {marked} repairable errors seen");
    assert!(unmarked > 50, "only {unmarked} unrepairable errors seen");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
