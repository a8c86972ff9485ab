//! Long and looping `$ref` chains through every command that reads schemas (`check`,
//! `repair`, `compile`, `args`), run as the binary: never a crash (a stack overflow aborts
//! the process), always the same hop limit and the same words for it, a cycle still called a
//! cycle. The inputs are generated (a 1,500-hop chain is too big to keep as a trycmd fixture).

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Map, Value, json};
use toolwire::schema::refs::{MAX_REF_HOPS, MAX_SEARCHED_SCHEMAS, too_long, too_long_nested};

/// `properties.a` → `#/$defs/D0` → ... → `Dn` (a string), as one OpenAI tool: each `Di` a
/// bare `$ref` to the next, or (`nested`) an object whose property `x` is one. Following
/// `#/$defs/D0` takes `n + 1` hops.
fn chain_tool(n: usize, nested: bool) -> Value {
    let mut defs = Map::new();
    for i in 0..n {
        let next = json!({"$ref": format!("#/$defs/D{}", i + 1)});
        let def = if nested {
            json!({"type":"object","properties":{"x": next}})
        } else {
            next
        };
        defs.insert(format!("D{i}"), def);
    }
    defs.insert(format!("D{n}"), json!({"type":"string"}));
    tool(json!({"type":"object","properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":defs}))
}

fn tool(parameters: Value) -> Value {
    json!([{"type":"function","function":{"name":"f","description":"Looks a thing up.",
        "parameters": parameters}}])
}

fn write(dir: &Path, name: &str, v: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(v).unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(args)
        .output()
        .expect("toolwire runs")
}

/// The command's exit code and its two streams, asserting it ended by itself: no panic, no
/// abort (a stack overflow is SIGABRT, so no exit code at all).
fn outcome(args: &[&str]) -> (i32, String, String) {
    let out = run(args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out
        .status
        .code()
        .unwrap_or_else(|| panic!("{args:?} was killed ({:?}): {stderr}", out.status));
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(!stderr.contains("overflow"), "{args:?}: {stderr}");
    (code, stdout, stderr)
}

const GEMINI: &str = "gemini/v1beta/parameters";
const STRICT: &str = "openai/chat-strict";

#[test]
fn a_chain_past_the_hop_limit_is_refused_alike_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let words = too_long("#/$defs/D0");
    for n in [MAX_REF_HOPS, 1_500] {
        let file = write(d, &format!("bare{n}.json"), &chain_tool(n, false));
        let (code, stdout, _) = outcome(&["check", &file]);
        assert_eq!(code, 1, "check {n}");
        assert!(
            stdout.contains("/properties/a/$ref") && stdout.contains(&words),
            "check {n}: {stdout}"
        );
        // Refused with the place and the words, nothing written; exit 1 as any refusal.
        let (code, stdout, stderr) = outcome(&["repair", &file]);
        assert_eq!((code, stdout.as_str()), (1, ""), "repair {n}: {stderr}");
        // The `$ref` that starts the chain has a line with the words, though its finding is
        // a warning, and the places the chain keeps from being inlined point to it.
        assert!(
            stderr.contains(&format!("/properties/a/$ref  cannot repair: {words}"))
                && stderr.contains("cannot inline the one at /properties/a/$ref (see its line)"),
            "repair {n}: {stderr}"
        );
        // A target that gets the references inlined, and one that keeps them.
        for target in [GEMINI, STRICT] {
            let (code, stdout, stderr) = outcome(&["compile", "--target", target, &file]);
            // The request keeps its place as the target's empty tool block.
            let empty = if target == GEMINI {
                json!([{"functionDeclarations": []}])
            } else {
                json!([])
            };
            let written: Value = serde_json::from_str(&stdout).expect("compile writes JSON");
            assert_eq!(
                (code, written),
                (1, empty),
                "compile {target} {n}: {stderr}"
            );
            assert!(
                stderr.contains("/properties/a/$ref") && stderr.contains(&words),
                "compile {target} {n}: {stderr}"
            );
            assert!(stderr.contains("no tool left to send"), "{stderr}");
        }
        // A schema toolwire cannot check against is a usage error naming file and place.
        let (code, stdout, stderr) =
            outcome(&["args", "--schema", &file, "--call", r#"{"a":"x"}"#]);
        assert_eq!((code, stdout.as_str()), (2, ""), "args {n}");
        assert_eq!(
            stderr,
            format!("toolwire: {file}: at /0/function/parameters/properties/a/$ref: {words}\n")
        );
    }
}

#[test]
fn a_chain_within_the_hop_limit_is_followed_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "under.json",
        &chain_tool(MAX_REF_HOPS - 1, false),
    );
    let (_, stdout, _) = outcome(&["check", &file]);
    assert!(!stdout.contains("chain longer than"), "{stdout}");
    assert!(
        stdout.contains("`$ref` to `#/$defs/D0` (local $defs)"),
        "{stdout}"
    );
    let (code, stdout, stderr) = outcome(&["repair", &file]);
    assert_eq!(code, 0, "{stderr}");
    let repaired: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        repaired[0]["function"]["parameters"],
        json!({"type":"object","properties":{"a":{"type":"string"}}})
    );
    for target in [GEMINI, STRICT] {
        let (code, _, stderr) = outcome(&["compile", "--target", target, &file]);
        assert_eq!(code, 0, "compile {target}: {stderr}");
        assert!(stderr.contains("the offline model accepts"), "{stderr}");
    }
    let (code, stdout, _) = outcome(&["args", "--schema", &file, "--call", r#"{"a":"x"}"#]);
    assert_eq!(
        (code, stdout.trim()),
        (0, "ok: the arguments match the schema")
    );
    let (code, stdout, _) = outcome(&["args", "--schema", &file, "--call", r#"{"a":1}"#]);
    assert_eq!(code, 1, "{stdout}");
}

/// 1,500 definitions each holding the next under `properties`: no command overflows; inlining
/// stops at the hop limit with the place and the words, a target that keeps references
/// compiles it, and `args` validates through it.
#[test]
fn references_nested_1500_deep_are_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "nested.json", &chain_tool(1_500, true));
    let words = too_long_nested("#/$defs/D0");
    let (code, stdout, _) = outcome(&["check", &file]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("/properties/a/$ref") && stdout.contains(&words),
        "{stdout}"
    );
    let (code, stdout, stderr) = outcome(&["repair", &file]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(
        stderr.contains(&format!("/properties/a/$ref  cannot repair: {words}"))
            && stderr.contains("cannot inline the one at /properties/a/$ref (see its line)"),
        "{stderr}"
    );
    let (code, _, stderr) = outcome(&["compile", "--target", GEMINI, &file]);
    assert_eq!(code, 1);
    assert!(stderr.contains(&words), "{stderr}");
    let (code, stdout, _) = outcome(&["compile", "--target", "anthropic/messages", &file]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("\"D1499\""),
        "the definitions are sent as written"
    );
    let call = r#"{"a":{"x":{"x":{"x":5}}}}"#;
    let (code, stdout, _) = outcome(&["args", "--schema", &file, "--call", call]);
    assert_eq!(code, 1, "a number where an object is declared: {stdout}");
    assert!(stdout.contains("/a/x/x/x"), "{stdout}");
}

#[test]
fn a_cycle_is_still_called_a_cycle_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "cycle.json",
        &tool(
            json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},
            "$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}),
        ),
    );
    let words = "`$ref` to `#/$defs/A` is a cycle of references through `#/$defs/A` → \
                 `#/$defs/B` → `#/$defs/A` that never reaches a schema";
    let (_, stdout, _) = outcome(&["check", &file]);
    assert!(
        stdout.contains(&format!(
            "{words} (a cycle of 2 definitions, judged by the `$ref (self-reference)` case)"
        )),
        "{stdout}"
    );
    // Only a definition that refers to itself is called a self-reference.
    assert!(!stdout.contains("schema (self-reference)"), "{stdout}");
    let (code, _, stderr) = outcome(&["repair", &file]);
    assert_eq!(code, 1);
    assert!(stderr.contains(words), "{stderr}");
    for target in [GEMINI, STRICT] {
        let (code, _, stderr) = outcome(&["compile", "--target", target, &file]);
        assert_eq!(code, 1);
        assert!(stderr.contains(words), "compile {target}: {stderr}");
    }
    let (code, _, stderr) = outcome(&["args", "--schema", &file, "--call", r#"{"a":1}"#]);
    assert_eq!(code, 2);
    assert!(stderr.contains(words), "{stderr}");
    assert!(!stderr.contains("hops"), "{stderr}");
}

/// Forty definitions, each an object whose two properties both refer to the one before
/// (`D0` a string): inlining `#/$defs/D39` would copy `D0` 2^39 times, so repair stops at its
/// expansion cap although every reference is plain, acyclic and short.
fn bomb_tool(n: usize) -> Value {
    let mut defs = Map::new();
    defs.insert("D0".into(), json!({"type":"string"}));
    for i in 1..n {
        let prev = json!({"$ref": format!("#/$defs/D{}", i - 1)});
        defs.insert(
            format!("D{i}"),
            json!({"type":"object","properties":{"a": prev.clone(), "b": prev}}),
        );
    }
    tool(
        json!({"type":"object","properties":{"x":{"$ref": format!("#/$defs/D{}", n - 1)}},
        "$defs": defs}),
    )
}

fn read_json(path: &str) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("the fixture reads")).expect("JSON")
}

/// `check --target T`'s `ref-unsupported` errors for `tools` (any input shape), each as
/// (repairable, fix), and whether `repair --target T` refuses the tool, with its words.
fn check_and_repair(tools: &Value, target: &str) -> (Vec<(bool, String)>, Option<String>) {
    use toolwire::profile::{CompiledProfile, embedded_set};
    let profiles = embedded_set().expect("the built-in profiles");
    let profile = CompiledProfile::new(profiles.get(target).expect("a target's profile"));
    let set = toolwire::input::from_value(Path::new("tools"), tools.clone()).expect("tools");
    let findings = toolwire::check::check_set(&set, &profile);
    let errors = findings
        .iter()
        .filter(|f| {
            f.rule.as_str() == "ref-unsupported" && f.level == toolwire::check::Level::Error
        })
        .map(|f| (f.repairable, f.fix.as_str().to_string()))
        .collect();
    let repair_tools: Vec<toolwire::repair::Tool> = set.tools.iter().map(Into::into).collect();
    let r = toolwire::repair::repair_request(&repair_tools, &profile, &Default::default());
    let refused = (r[0].outcome == toolwire::repair::Outcome::Refused)
        .then(|| toolwire::repair::human(&r[0]));
    (errors, refused)
}

/// check's "(repairable)" on `ref-unsupported` is repair's own decision: where repair refuses
/// to inline (a chain past the hop limit further on, a `$ref` bomb past the expansion cap), no
/// finding is marked repairable and the fix gives repair's reason; where it inlines, they are.
#[test]
fn check_marks_references_repairable_exactly_when_repair_inlines_them() {
    for (what, tools, refusal) in [
        (
            "a 100-hop chain",
            chain_tool(100, false),
            Some(format!("longer than {MAX_REF_HOPS} hops")),
        ),
        (
            "a $ref bomb of 40 definitions",
            bomb_tool(40),
            Some("would grow the schema past 10000 nodes".to_string()),
        ),
        // The trial's own inputs, as written (a bare schema, an Anthropic tool).
        (
            "tests/data/refs/chain-100.json",
            read_json("tests/data/refs/chain-100.json"),
            Some(format!("longer than {MAX_REF_HOPS} hops")),
        ),
        (
            "tests/data/refs/bomb-40.json",
            read_json("tests/data/refs/bomb-40.json"),
            Some("would grow the schema past 10000 nodes".to_string()),
        ),
        ("a 10-hop chain", chain_tool(10, false), None),
        ("a bomb of 5 definitions", bomb_tool(5), None),
    ] {
        let (errors, refused) = check_and_repair(&tools, GEMINI);
        assert!(
            !errors.is_empty(),
            "{what}: check reports local $refs to {GEMINI}"
        );
        match refusal {
            Some(words) => {
                let refused = refused.unwrap_or_else(|| panic!("{what}: repair refuses it"));
                assert!(refused.contains(&words), "{what}: {refused}");
                for (repairable, fix) in &errors {
                    assert!(
                        !repairable,
                        "{what}: marked repairable, repair refuses: {fix}"
                    );
                    assert!(
                        fix.contains("`toolwire repair` cannot inline") && fix.contains(&words),
                        "{what}: the fix gives repair's reason: {fix}"
                    );
                }
            }
            None => {
                assert!(refused.is_none(), "{what}: repair inlines it: {refused:?}");
                assert!(
                    errors.iter().all(|(r, _)| *r),
                    "{what}: every reference is repairable: {errors:?}"
                );
            }
        }
    }
}

/// An anchor and an `$id` each declared twice: the `$ref` to either is ambiguous, and
/// every command says so, naming the name and both places, never that it is missing.
#[test]
fn an_ambiguous_reference_is_called_ambiguous_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let anchor = write(
        d,
        "anchor.json",
        &tool(json!({"type":"object","properties":{"v":{"$ref":"#x"}},
            "$defs":{"A":{"$anchor":"x","type":"integer"},"B":{"$anchor":"x","type":"string"}}})),
    );
    let id = write(
        d,
        "id.json",
        &tool(
            json!({"type":"object","properties":{"v":{"$ref":"https://e.org/a.json"}},
            "$defs":{"A":{"$id":"https://e.org/a.json","type":"integer"},
                "B":{"$id":"https://e.org/a.json","type":"string"}}}),
        ),
    );
    let says = |file: &str, text: &str, what: &str| {
        let (name, places) = if file.ends_with("anchor.json") {
            ("the anchor `x`", "(at `#/$defs/A` and `#/$defs/B`)")
        } else {
            (
                "`https://e.org/a.json` as their `$id`",
                "(at `#/$defs/A` and `#/$defs/B`)",
            )
        };
        assert!(
            text.contains("is ambiguous") && text.contains(name) && text.contains(places),
            "{what} {file}: {text}"
        );
        assert!(!text.contains("not in the schema"), "{what} {file}: {text}");
    };
    for file in [&anchor, &id] {
        let (code, stdout, _) = outcome(&["check", file]);
        assert_eq!(code, 1);
        says(file, &stdout, "check");
        let (_, stdout, _) = outcome(&["check", "--format", "json", file]);
        says(file, &stdout, "check json");
        let (code, _, stderr) = outcome(&["repair", file]);
        assert_eq!(code, 1);
        says(file, &stderr, "repair");
        let (_, _, stderr) = outcome(&["repair", "--format", "json", file]);
        let report: Value = serde_json::from_str(&stderr).expect("repair's JSON report");
        says(
            file,
            &report["tools"][0]["refusals"].to_string(),
            "repair json",
        );
        for target in [GEMINI, STRICT] {
            let (code, _, stderr) = outcome(&["compile", "--target", target, file]);
            assert_eq!(code, 1);
            says(file, &stderr, "compile");
            // The wire form goes to standard output, the JSON report to standard error.
            let (_, _, stderr) =
                outcome(&["compile", "--target", target, "--format", "json", file]);
            let report: Value = serde_json::from_str(&stderr).expect("compile's JSON report");
            says(
                file,
                &report[0]["tools"][0]["refusals"].to_string(),
                "compile json",
            );
        }
        let (code, _, stderr) = outcome(&["args", "--schema", file, "--call", r#"{"v":1}"#]);
        assert_eq!(code, 2);
        says(file, &stderr, "args");
    }
}

/// An anchor declared past the first [`MAX_SEARCHED_SCHEMAS`] schema positions: every command
/// says the search stopped at the cap, naming it and the `$ref`, never that it is absent.
#[test]
fn an_anchor_past_the_search_cap_is_not_called_missing() {
    let dir = tempfile::tempdir().unwrap();
    let mut defs = Map::new();
    for i in 0..MAX_SEARCHED_SCHEMAS + 50 {
        defs.insert(format!("D{i}"), json!({"type":"string"}));
    }
    defs.insert("Late".into(), json!({"$anchor":"late","type":"string"}));
    let file = write(
        dir.path(),
        "late.json",
        &tool(json!({"type":"object","properties":{"v":{"$ref":"#late"}},"$defs":defs})),
    );
    let words = format!(
        "`$ref` to `#late` names an anchor that toolwire did not find in the first \
         {MAX_SEARCHED_SCHEMAS} schema positions, where its search stops"
    );
    let says = |text: &str, what: &str| {
        assert!(text.contains(&words), "{what}: {text}");
        assert!(
            !text.contains("not in the schema") && !text.contains("points to nothing"),
            "{what}: {text}"
        );
    };
    let (code, stdout, _) = outcome(&["check", &file]);
    assert_eq!(code, 1);
    says(&stdout, "check");
    let (code, _, stderr) = outcome(&["repair", &file]);
    assert_eq!(code, 1);
    says(&stderr, "repair");
    for target in [GEMINI, STRICT] {
        let (code, _, stderr) = outcome(&["compile", "--target", target, &file]);
        assert_eq!(code, 1);
        says(&stderr, "compile");
    }
    let (code, _, stderr) = outcome(&["args", "--schema", &file, "--call", r#"{"v":"a"}"#]);
    assert_eq!(code, 2);
    says(&stderr, "args");
}

/// A `$ref` (or `$dynamicRef`) to a name a `$dynamicAnchor` declares reaches it, as Python's
/// `jsonschema` reads it (draft 2020-12): no command calls it dangling.
#[test]
fn a_dynamic_anchor_is_reached_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "dynamic.json",
        &tool(
            json!({"type":"object","properties":{"v":{"$ref":"#node"},"w":{"$dynamicRef":"#node","type":"string"}},
            "$defs":{"N":{"$dynamicAnchor":"node","type":"string"}}}),
        ),
    );
    let (_, stdout, _) = outcome(&["check", &file]);
    assert!(!stdout.contains("ref-dangling"), "{stdout}");
    let (code, stdout, stderr) = outcome(&["args", "--schema", &file, "--call", r#"{"v":1}"#]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stdout.contains("/v: 1 is an integer; expected a string"),
        "{stdout}"
    );
    let (code, _, _) = outcome(&["args", "--schema", &file, "--call", r#"{"v":"a","w":"b"}"#]);
    assert_eq!(code, 0);
    // Beside a `$dynamicRef`, repair does not inline: a dynamic reference is not inlined, and
    // inlining the plain ones would leave it pointing to nothing.
    let (_, _, stderr) = outcome(&["repair", &file]);
    assert!(
        stderr.contains("`$dynamicRef` to `#node`: toolwire does not inline dynamic references"),
        "{stderr}"
    );
    // Without one, the plain `$ref` to the `$dynamicAnchor` is inlined.
    let plain = write(
        dir.path(),
        "plain.json",
        &tool(json!({"type":"object","properties":{"v":{"$ref":"#node"}},
            "$defs":{"N":{"$dynamicAnchor":"node","type":"string"}}})),
    );
    let (_, _, stderr) = outcome(&["repair", &plain]);
    assert!(stderr.contains("inlined `$ref: #node`"), "{stderr}");
}
