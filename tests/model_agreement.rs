//! `check --target T` and `compile --target T` agree: whenever a target's offline model (the
//! check `compile` runs before it returns) rejects a case of the catalog, sent as the prober
//! sends it (with the target's wire baseline), `check --target T` reports an error for that
//! case, so a tool set that lints clean is not then refused by compile.
//!
//! The models are calibrated to the evidence but refuse more than it says (each model's module
//! documents its rules and their sources). Those refusals are expected failures, listed in
//! [`MODEL_ASSUMPTIONS`] per target with the reason, and excused only where the matrix has no
//! evidence for the (case, target) cell: where evidence says the target rejects, check must
//! report an error; where it says the target accepts, the model contradicts it (that is
//! `tests/fidelity.rs`' `MATRIX_DISAGREEMENTS`, and fails here). Compile words a refusal with
//! no evidence behind it as the model's assumption (`src/compile/mod.rs`, `model_basis`). A
//! listed target whose model no longer makes any such refusal fails too, so the list stays
//! true.

use std::collections::BTreeMap;
use std::path::Path;

use toolwire::case::Catalog;
use toolwire::check::Level;
use toolwire::evidence::Verdict;
use toolwire::profile::detect::ToolRef;
use toolwire::profile::{CompiledProfile, ProfileSet};
use toolwire::project::Project;
use toolwire::target::{self, Credential, Secret, WireOptions};

/// Targets whose offline model rejects cases the evidence does not speak to, and why.
const MODEL_ASSUMPTIONS: &[(&str, &str)] = &[
    (
        "openai/chat",
        "the model runs a JSON Schema meta-schema pass with python-jsonschema's messages on every keyword value (non-standard `type` spellings, draft-4 booleans, values of the wrong type): three reports show such messages (oai-required-null, oai-id-uri-reference, oai-subschema-empty-list-relay), none for these features",
    ),
    (
        "openai/chat-strict",
        "strict mode has almost no evidence of its own: the model applies the meta-schema pass, the non-strict checks (`array schema missing items`, seen with strict unknown) and Structured Outputs' documented subset (unsupported keywords, formats, root shapes) to every case",
    ),
    (
        "openai/responses-strict",
        "as openai/chat-strict, plus the name and description rules of openai/chat, which the evidence states for Chat Completions only",
    ),
    (
        "azure-openai/chat",
        "the model follows OpenAI's (the v1 API is OpenAI's), while the evidence for Azure's own route is a handful of reports",
    ),
    (
        "openrouter",
        "the model relays the pinned upstream's model (OpenAI's by default); the matrix has no evidence for OpenRouter itself",
    ),
    (
        "deepseek/beta-strict",
        "the model applies OpenAI's strict subset and meta-schema pass in OpenAI's wording, beyond what DeepSeek's strict-mode page (deepseek-strict-function-calling) and the reports say",
    ),
    (
        "groq/chat",
        "the model validates keyword values with a JSON Schema validator (Groq's `invalid JSON schema for tool ...` template), beyond the features the reports name",
    ),
    (
        "gemini/v1beta/parameters",
        "protobuf parsing of the Schema message (a value of the wrong JSON type for its field) and the validator's templates (`must be specified`, `should be non-empty`) applied to cases no report names",
    ),
    (
        "gemini/v1beta/parameters-json-schema",
        "the model resolves references (a remote `$ref` is `reference to undefined schema`) and applies the function-name rule and the 512-declaration limit that the evidence states for the `parameters` route",
    ),
    (
        "gemini/openai-compat",
        "the model converts to the native `parameters` route and applies its rules; the evidence for the compatibility endpoint itself is one report",
    ),
    (
        "vertex/v1/parameters",
        "the model is the Vertex proto Schema (a field list, the type enum, the format subset) with Gemini's validator templates; the reports name few of these features for Vertex",
    ),
    (
        "bedrock/converse",
        "the model checks keyword values with the JSON Schema meta-schema (Bedrock's `The json schema definition at ... is invalid` template) and wants `inputSchema.json.type: object`, beyond the features the reports name",
    ),
    (
        "cohere/v2-strict",
        "the model applies Cohere's strict-tools rules (at least one required parameter, at most 200 fields) and a regex check on `pattern` to cases no report names",
    ),
    (
        "mistral/chat",
        "the model's request parsing (`Input should be a valid dictionary`) and grammar compilation (`failed to compile JSON schema`) refuse cases no report names",
    ),
    (
        "xai/chat",
        "the model refuses a root `oneOf` (`Invalid function schema.`), with no report for these cases",
    ),
    (
        "fireworks/chat",
        "the model's `JSON Schema not supported: could not understand the instance` rule covers subschemas and values its converter does not read, beyond the features the reports name",
    ),
    (
        "moonshot/chat",
        "the model wants every root to be `type: \"object\"` (`parameters.type is required and must be \"object\"`), beyond the root shapes the reports name",
    ),
    (
        "ollama/chat",
        "the model decodes with Go's types (api/types.go): a value of the wrong JSON type (`json: cannot unmarshal ...`) fails, beyond the features the evidence names",
    ),
    (
        "llama.cpp/server",
        "the model is llama.cpp's json-schema-to-grammar conversion (`JSON schema conversion failed`), beyond the features the reports name",
    ),
    (
        "vllm/chat",
        "the model is a guided-decoding backend's keyword support (xgrammar), beyond the features the reports name",
    ),
    (
        "sglang/chat",
        "the model is a guided-decoding backend's keyword support (xgrammar), beyond the features the reports name",
    ),
];

#[test]
fn check_reports_an_error_wherever_an_offline_model_rejects_a_case() {
    let project = Project::new("cases", "reports");
    let catalog = Catalog::load(Path::new("cases")).expect("the catalog loads");
    let matrix = project.matrix(&catalog).expect("the matrix builds");
    let profiles =
        ProfileSet::load(Path::new("reports/profile.json")).expect("reports/profile.json loads");
    let assumptions: BTreeMap<&str, &str> = MODEL_ASSUMPTIONS.iter().copied().collect();
    assert_eq!(
        assumptions.len(),
        MODEL_ASSUMPTIONS.len(),
        "a target listed twice"
    );
    let key = Credential::Key(Secret::new("tw-agreement-key"));
    let mut problems = Vec::new();
    let mut excused: BTreeMap<String, usize> = BTreeMap::new();
    let mut agreeing: BTreeMap<String, usize> = BTreeMap::new();
    let mut models = 0;
    for spec in target::registry() {
        let t = spec.id.to_string();
        let Some(route) = target::route(&t) else {
            continue;
        };
        let profile = CompiledProfile::new(
            profiles
                .get(&t)
                .unwrap_or_else(|| panic!("{t} has an offline model but no profile")),
        );
        models += 1;
        let cfg = route.configure(&BTreeMap::<String, String>::new());
        for case in &catalog.cases {
            // As the prober sends it: a strict-form case asks for strict mode.
            let opts = WireOptions::for_case(case);
            let (_, reply) =
                target::model(&t, &cfg, &case.tools, &opts, Some(&key)).expect("a model");
            let answer = route.classify(&cfg, &reply, false);
            if answer.verdict != Verdict::Rejected {
                continue;
            }
            let findings = toolwire::check::check_tools(&ToolRef::of_case(case), &profile);
            if findings.iter().any(|f| f.level == Level::Error) {
                *agreeing.entry(t.clone()).or_default() += 1;
                continue;
            }
            let said = answer
                .error
                .as_deref()
                .unwrap_or("")
                .lines()
                .next()
                .unwrap_or("")
                .to_string();
            let cell = matrix.cell(&case.id, &t).and_then(|c| c.verdict);
            match (cell, assumptions.contains_key(t.as_str())) {
                (None, true) => *excused.entry(t.clone()).or_default() += 1,
                (None, false) => problems.push(format!(
                    "{} × {t}: the model rejects it ({said}) without evidence and check reports no error; list {t} in MODEL_ASSUMPTIONS with the reason, or make the model follow the evidence",
                    case.id
                )),
                (Some(v), _) => problems.push(format!(
                    "{} × {t}: the matrix says {v}, the model rejects it ({said}) and check reports no error",
                    case.id
                )),
            }
        }
    }
    assert!(models > 10, "only {models} targets with an offline model");
    for t in assumptions.keys() {
        if !excused.contains_key(*t) {
            problems.push(format!(
                "{t}: listed in MODEL_ASSUMPTIONS, but its model rejects no case without evidence any more: remove it"
            ));
        }
    }
    println!(
        "model rejections check agrees with (an error) / rejections that are the model's assumption:"
    );
    for spec in target::registry() {
        let t = spec.id;
        if agreeing.contains_key(t) || excused.contains_key(t) {
            println!(
                "  {t:38} {:4} / {:4}",
                agreeing.get(t).copied().unwrap_or(0),
                excused.get(t).copied().unwrap_or(0)
            );
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The strict-form cases, sent as the prober sends them (`strict: true`, the wire baseline
/// leaving out the fill the feature is about), are refused by every OpenAI-family model with
/// OpenAI's own message for that feature, and check reports `strict-form-missing` as an error
/// under each of those targets' profiles: the rule and the models tell one story.
#[test]
fn the_strict_form_cases_are_refused_by_the_openai_models_as_check_says() {
    let catalog = Catalog::load(Path::new("cases")).expect("the catalog loads");
    let profiles =
        ProfileSet::load(Path::new("reports/profile.json")).expect("reports/profile.json loads");
    let key = Credential::Key(Secret::new("tw-agreement-key"));
    let expected = [
        (
            "structure/strict-open-object-root",
            "'additionalProperties' is required to be supplied and to be false",
        ),
        (
            "structure/strict-required-incomplete-root",
            "'required' is required to be supplied and to be an array including every key in properties. Missing 'value'",
        ),
    ];
    for (id, message) in expected {
        let case = catalog
            .cases
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("no case {id}"));
        assert!(case.strict, "{id} asks for strict mode");
        for t in [
            "openai/chat",
            "openai/chat-strict",
            "openai/responses-strict",
            "azure-openai/chat",
        ] {
            let route = target::route(t).expect("a route");
            let cfg = route.configure(&BTreeMap::<String, String>::new());
            let opts = WireOptions {
                strict: Some(true),
                feature: Some(case.parameter.clone()),
                ..Default::default()
            };
            let (_, reply) =
                target::model(t, &cfg, &case.tools, &opts, Some(&key)).expect("a model");
            let answer = route.classify(&cfg, &reply, false);
            assert_eq!(answer.verdict, Verdict::Rejected, "{id} × {t}");
            let said = answer.error.unwrap_or_default();
            assert!(said.contains(message), "{id} × {t}: {said}");
            let profile = CompiledProfile::new(profiles.get(t).expect("a profile"));
            let found: Vec<(String, Level)> =
                toolwire::check::check_tools(&ToolRef::of_case(case), &profile)
                    .into_iter()
                    .filter(|f| f.level == Level::Error || f.rule == "strict-form-missing")
                    .map(|f| (f.rule.to_string(), f.level))
                    .collect();
            // Azure's evidence (azure-strict-required) speaks to `required` only: its open
            // object is the model's assumption, a warning for want of evidence.
            let level = if t == "azure-openai/chat" && id.contains("open-object") {
                Level::Warning
            } else {
                Level::Error
            };
            assert_eq!(
                found,
                [("strict-form-missing".to_string(), level)],
                "{id} × {t}"
            );
        }
    }
}
