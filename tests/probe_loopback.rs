//! Every live target through the prober, over HTTP, against `toolwire emulate` on loopback
//! (127.0.0.1, port 0): with valid keys, without keys, with an invalid key, and in every fault
//! mode; plus the secret-handling guarantees with a canary key. No test uses the network;
//! run logs go to temporary folders and are marked emulated.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use toolwire::case::{Case, Catalog, Placement, baseline};
use toolwire::emulate::{Emulator, Fault, Options};
use toolwire::evidence::runlog::{self, Redactor, RunLog};
use toolwire::evidence::{Observation, Stage, Verdict};
use toolwire::probe::http::{Budget, EMULATED_NOTE, HttpOptions, HttpTarget, client};
use toolwire::probe::{self, ProbeTarget, RunOptions, RunSummary};
use toolwire::target::wire::{Keyless, Route};
use toolwire::target::{self as target, Credential, WireOptions};
use toolwire::tool::ToolDef;

fn case(id: &str, parameter: &str, params: serde_json::Value) -> Case {
    Case {
        id: id.into(),
        title: id.into(),
        family: id.split('/').next().unwrap().into(),
        parameter: parameter.into(),
        placement: Placement::Nested,
        strict: false,
        tools: vec![ToolDef {
            name: "probe_tool".into(),
            description: Some("Looks up a record by its identifier.".into()),
            parameters: Some(params),
        }],
        instances: vec![],
        notes: String::new(),
        links: vec![],
        path: Default::default(),
    }
}

/// The control plus three cases that different targets judge differently.
fn catalog() -> Catalog {
    let control = Case {
        strict: false,
        tools: vec![baseline()],
        ..case("control/baseline", "control", json!({}))
    };
    Catalog {
        root: Default::default(),
        cases: vec![
            control,
            case(
                "keywords/additional-properties-false",
                "keyword-allowed: additionalProperties",
                json!({"type":"object","properties":{"value":{"type":"string"}},"required":["value"],"additionalProperties":false}),
            ),
            case(
                "keywords/one-of-nested",
                "keyword-allowed: oneOf",
                json!({"type":"object","properties":{"value":{"oneOf":[{"type":"string"},{"type":"integer"}]}},"required":["value"]}),
            ),
            case(
                "structure/array-without-items",
                "structure: array without items",
                json!({"type":"object","properties":{"value":{"type":"array"}},"required":["value"]}),
            ),
        ],
    }
}

/// How the targets are credentialed in a scenario.
#[derive(Clone, Copy, PartialEq)]
enum Keys {
    Valid,
    Invalid,
    None,
}

const VALID_KEY: &str = "tw-valid-key-0123456789";

/// Every key variable of every route set to `key`.
/// Every route's key set to `key`, with the settings a keyed route needs besides it (Vertex's
/// project: a token without one is skipped).
fn env_with(key: &str) -> BTreeMap<String, String> {
    let mut env = BTreeMap::new();
    for r in target::routes() {
        for v in r.settings().key_env {
            env.insert(v.to_string(), key.to_string());
        }
    }
    env.insert("GOOGLE_CLOUD_PROJECT".into(), "toolwire-emulated".into());
    env
}

fn env_for(keys: Keys) -> BTreeMap<String, String> {
    match keys {
        Keys::Valid => env_with(VALID_KEY),
        Keys::Invalid => env_with("invalid"),
        Keys::None => BTreeMap::new(),
    }
}

/// The options of a run against the emulator, with these secrets redacted.
fn run_options(dir: &tempfile::TempDir, secrets: &[&str], emulated: bool) -> RunOptions {
    let mut redactor = Redactor::default();
    for s in secrets {
        redactor.add_secret(s);
    }
    RunOptions {
        runs_dir: dir.path().to_path_buf(),
        progress: false,
        previous: Default::default(),
        redactor,
        emulated,
        log: Default::default(),
    }
}

/// One emulator on loopback and every selected route pointed at it, with short backoffs.
struct Scenario {
    emu: Emulator,
    targets: Vec<Arc<HttpTarget>>,
    routes: BTreeMap<String, Box<dyn Route>>,
    budget: Arc<Budget>,
    cat: Catalog,
}

impl Scenario {
    /// Every route, with `keys`, against an emulator with the default options.
    async fn start(keys: Keys) -> Scenario {
        Self::with(Options::default(), &env_for(keys), |_| {}, None).await
    }

    async fn with(
        emu_opts: Options,
        env: &BTreeMap<String, String>,
        tune: impl Fn(&mut HttpOptions),
        only: Option<&[&str]>,
    ) -> Scenario {
        let emu = Emulator::start(SocketAddr::from(([127, 0, 0, 1], 0)), emu_opts)
            .await
            .unwrap();
        let http = client(Duration::from_secs(5)).unwrap();
        let budget = Budget::new(Some(10_000));
        let mut targets = Vec::new();
        let mut routes = BTreeMap::new();
        for route in target::routes() {
            if only.is_some_and(|o| !o.contains(&route.id())) {
                continue;
            }
            let mut cfg = route.configure(env);
            cfg.base_url = emu.base_url(route.service());
            cfg.base_overridden = true;
            let mut opts = HttpOptions::loopback();
            opts.backoff_base = Duration::from_millis(5);
            opts.backoff_cap = Duration::from_millis(20);
            tune(&mut opts);
            let id = route.id().to_string();
            routes.insert(id, target::route(route.id()).unwrap());
            let t = HttpTarget::new(route, cfg, http.clone(), opts, budget.clone()).unwrap();
            // As `probe` does once the base URL says it is the emulator.
            t.mark_emulator();
            targets.push(Arc::new(t));
        }
        Scenario {
            emu,
            targets,
            routes,
            budget,
            cat: catalog(),
        }
    }

    /// Probes `cases` (ids from [`catalog`]) against every target; the run must finish within
    /// a minute and be marked emulated.
    async fn run(
        &self,
        cases: &[&str],
        secrets: &[&str],
    ) -> (RunSummary, RunLog, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let selected: Vec<&Case> = self
            .cat
            .cases
            .iter()
            .filter(|c| cases.contains(&c.id.as_str()))
            .collect();
        let targets: Vec<Arc<dyn ProbeTarget>> = self
            .targets
            .iter()
            .map(|t| t.clone() as Arc<dyn ProbeTarget>)
            .collect();
        let summary = tokio::time::timeout(
            Duration::from_secs(60),
            probe::run(
                &self.cat,
                &selected,
                targets,
                run_options(&dir, secrets, true),
            ),
        )
        .await
        .expect("the run finishes in bounded time")
        .unwrap();
        let log = runlog::read(&summary.log).unwrap();
        assert!(
            log.header.emulated,
            "runs against the emulator are marked emulated"
        );
        // And so is every observation, whatever ended it: a transport failure, a case not
        // sent after a failed control (trial 51 D6: transport failures lacked the note).
        for o in &log.observations {
            let note = o.note.as_deref().unwrap_or_default();
            assert!(note.starts_with(EMULATED_NOTE), "{o:?}");
        }
        assert!(log.footer.is_some());
        (summary, log, dir)
    }

    async fn stop(self) {
        self.emu.stop().await;
    }
}

fn obs<'a>(log: &'a RunLog, target: &str, case: &str) -> &'a Observation {
    log.observations
        .iter()
        .find(|o| o.target == target && o.case == case)
        .unwrap_or_else(|| panic!("no observation for {target} × {case}"))
}

const ALL_CASES: &[&str] = &[
    "control/baseline",
    "keywords/additional-properties-false",
    "keywords/one-of-nested",
    "structure/array-without-items",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_target_with_valid_keys_matches_its_offline_model() {
    let s = Scenario::start(Keys::Valid).await;
    let cat = &s.cat;
    let (summary, log, _dir) = s.run(ALL_CASES, &[]).await;
    let cred = Some(Credential::Key(toolwire::target::Secret::new(VALID_KEY)));
    for t in &s.targets {
        let id = t.record().id;
        assert_eq!(summary.targets[&id].skipped, None, "{id} is configured");
        let route = &s.routes[&id];
        for c in &cat.cases {
            let o = obs(&log, &id, &c.id);
            // The verdict over HTTP equals the offline model read in-process.
            let opts = WireOptions {
                strict: None,
                feature: Some(c.parameter.clone()),
                raw: false,
            };
            let (_req, reply) =
                target::model(&id, t.config(), &c.tools, &opts, cred.as_ref()).unwrap();
            let oracle = route.classify(t.config(), &reply, false);
            assert_eq!(
                (o.verdict, o.stage),
                (oracle.verdict, oracle.stage),
                "{id} × {}: {o:?}",
                c.id
            );
            assert_eq!(o.error, oracle.error, "{id} × {}", c.id);
            assert_eq!(o.path, oracle.path, "{id} × {}", c.id);
            assert!(
                o.note.as_deref().unwrap_or("").contains("emulated answer"),
                "{id}: {o:?}"
            );
        }
        // Every model accepts the control: the baseline is a valid tool everywhere.
        assert_eq!(
            obs(&log, &id, "control/baseline").verdict,
            Verdict::Accepted,
            "{id}"
        );
        assert_eq!(
            summary.targets[&id].requests,
            cat.cases.len(),
            "{id}: one request per case"
        );
    }
    // Independent expectations from the reports (not from the models' own code).
    let gemini = obs(
        &log,
        "gemini/v1beta/parameters",
        "keywords/additional-properties-false",
    );
    assert_eq!(
        (gemini.verdict, gemini.stage, gemini.status),
        (Verdict::Rejected, Stage::Parse, Some(400))
    );
    assert_eq!(
        gemini.error.as_deref(),
        Some(
            "Invalid JSON payload received. Unknown name \"additionalProperties\" at 'generate_content_request.tools[0].function_declarations[0].parameters': Cannot find field."
        )
    );
    let items = obs(&log, "openai/chat", "structure/array-without-items");
    assert_eq!(
        items.error.as_deref(),
        Some(
            "Invalid schema for function 'probe_tool': In context=('properties', 'value'), array schema missing items."
        )
    );
    assert_eq!(items.path.as_deref(), Some("('properties', 'value')"));
    assert_eq!(
        obs(&log, "openai/chat", "keywords/one-of-nested").verdict,
        Verdict::Accepted
    );
    assert_eq!(
        obs(&log, "openai/chat-strict", "keywords/one-of-nested").verdict,
        Verdict::Rejected
    );
    assert_eq!(
        obs(&log, "anthropic/messages", "keywords/one-of-nested").verdict,
        Verdict::Accepted
    );
    assert_eq!(
        obs(
            &log,
            "gemini/v1beta/parameters-json-schema",
            "keywords/one-of-nested"
        )
        .verdict,
        Verdict::Accepted
    );
    let validator = obs(
        &log,
        "gemini/v1beta/parameters",
        "structure/array-without-items",
    );
    assert_eq!(
        (validator.verdict, validator.stage),
        (Verdict::Rejected, Stage::Validate)
    );
    assert_eq!(s.budget.spent(), s.targets.len() * cat.cases.len());
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_keys_gemini_is_probed_preauth_and_keyed_targets_are_skipped() {
    let s = Scenario::start(Keys::None).await;
    let (summary, log, _dir) = s.run(ALL_CASES, &[]).await;
    for t in &s.targets {
        let id = t.record().id;
        let keyless = s.routes[&id].settings().keyless;
        let skipped = &summary.targets[&id].skipped;
        match keyless {
            Keyless::Skip => {
                let why = skipped
                    .as_deref()
                    .unwrap_or_else(|| panic!("{id} must be skipped"));
                assert!(why.starts_with("set "), "{id}: {why}");
                assert_eq!(summary.targets[&id].requests, 0, "{id} costs nothing");
                assert!(log.observations.iter().all(|o| o.target != id));
            }
            _ => assert_eq!(skipped, &None, "{id}"),
        }
    }
    let g = |case: &str| obs(&log, "gemini/v1beta/parameters", case);
    assert_eq!(
        (g("control/baseline").verdict, g("control/baseline").stage),
        (Verdict::Accepted, Stage::Parse)
    );
    assert!(
        g("control/baseline")
            .note
            .as_deref()
            .unwrap()
            .contains("semantic validator was not reached")
    );
    assert_eq!(
        (
            g("keywords/additional-properties-false").verdict,
            g("keywords/additional-properties-false").stage
        ),
        (Verdict::Rejected, Stage::Parse)
    );
    // The validator's refusal is invisible before auth: parse-stage acceptance only.
    assert_eq!(
        (
            g("structure/array-without-items").verdict,
            g("structure/array-without-items").stage
        ),
        (Verdict::Accepted, Stage::Parse)
    );
    // Vertex's model authenticates first: the discovery finds that with one request.
    let v = obs(&log, "vertex/v1/parameters", "control/baseline");
    assert_eq!(
        (v.verdict, v.stage, v.status),
        (Verdict::Inconclusive, Stage::Auth, Some(401))
    );
    assert!(
        v.note
            .as_deref()
            .unwrap()
            .contains("authenticates before it parses"),
        "{v:?}"
    );
    assert_eq!(summary.targets["vertex/v1/parameters"].requests, 1);
    assert!(
        log.observations
            .iter()
            .filter(|o| o.target == "vertex/v1/parameters")
            .all(|o| o.verdict == Verdict::Inconclusive)
    );
    // The compat model parses its envelope first: discovery plus pre-auth probes.
    let c = obs(&log, "gemini/openai-compat", "control/baseline");
    assert_eq!((c.verdict, c.stage), (Verdict::Accepted, Stage::Parse));
    assert_eq!(
        summary.targets["gemini/openai-compat"].requests,
        s.cat.cases.len() + 1
    );
    assert!(
        log.observations
            .iter()
            .all(|o| !(o.verdict == Verdict::Rejected && o.stage == Stage::Auth))
    );
    // No credential was sent, so no auth answer (Vertex's 401 included) is a refused key.
    for (id, t) in &summary.targets {
        assert_eq!(t.key_refused, None, "{id}");
    }
    // A body that only parsed is no acceptance: folded into a matrix, the 403s give no
    // verdict (a feature the validator would refuse must not become allowed), the parse's
    // rejections stand, and the run's table says how many acceptances only parsed.
    let targets = ["gemini/v1beta/parameters".to_string()];
    let m = toolwire::evidence::matrix::build(&s.cat, &targets, std::slice::from_ref(&log), &[]);
    let verdict = |case: &str| m.cell(case, &targets[0]).and_then(|c| c.verdict);
    assert_eq!(verdict("control/baseline"), None);
    assert_eq!(verdict("structure/array-without-items"), None);
    assert_eq!(
        verdict("keywords/additional-properties-false"),
        Some(Verdict::Rejected)
    );
    let parsed = summary.targets[&targets[0]].parsed_only;
    assert_eq!(
        parsed,
        summary.targets[&targets[0]].counts[&Verdict::Accepted]
    );
    let table = toolwire::cli::probe::summary_table(&summary);
    assert!(
        table.contains(&format!(
            "gemini/v1beta/parameters: {parsed} of the accepted only parsed"
        )),
        "{table}"
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_key_is_never_a_rejection() {
    let s = Scenario::start(Keys::Invalid).await;
    let (summary, log, _dir) = s.run(ALL_CASES, &[]).await;
    for t in &s.targets {
        let id = t.record().id;
        let keyless = s.routes[&id].settings().keyless;
        let control = obs(&log, &id, "control/baseline");
        if keyless == Keyless::Open {
            // Local servers started without --api-key ignore keys; vLLM/SGLang/llama.cpp with
            // --api-key refuse `invalid`.
            assert_ne!(control.verdict, Verdict::Rejected, "{id}");
            assert_eq!(
                summary.targets[&id].key_refused.is_some(),
                control.stage == Stage::Auth,
                "{id}: {control:?}"
            );
            continue;
        }
        // The summary says the key was refused, with the control's reason.
        let refused = summary.targets[&id].key_refused.as_deref();
        assert!(
            refused.is_some_and(|r| r.starts_with("auth: ")),
            "{id}: {refused:?}"
        );
        assert_eq!(
            (control.verdict, control.stage),
            (Verdict::Inconclusive, Stage::Auth),
            "{id}: {control:?}"
        );
        assert!(
            log.observations
                .iter()
                .filter(|o| o.target == id)
                .all(|o| o.verdict == Verdict::Inconclusive),
            "{id}"
        );
        assert_eq!(
            summary.targets[&id].requests, 1,
            "{id}: only the control is sent"
        );
    }
    s.stop().await;
}

fn expected_stage(f: Fault) -> Stage {
    match f {
        Fault::RateLimit => Stage::Quota,
        _ => Stage::Transport,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_fault_mode_ends_inconclusive_with_bounded_requests() {
    for fault in Fault::ALL {
        let s = Scenario::with(
            Options {
                fault: Some(fault),
                fault_every: 1,
                slow: Duration::from_millis(600),
                retry_after: 0,
                only: None,
                ..Options::default()
            },
            &env_for(Keys::Valid),
            |o| {
                o.retries = 1;
                o.timeout = Duration::from_millis(200);
            },
            None,
        )
        .await;
        let start = Instant::now();
        let (summary, log, _dir) = s.run(ALL_CASES, &[]).await;
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{fault:?} took {:?}",
            start.elapsed()
        );
        for t in &s.targets {
            let id = t.record().id;
            let control = obs(&log, &id, "control/baseline");
            assert!(
                matches!(
                    control.verdict,
                    Verdict::Inconclusive | Verdict::Unreachable
                ),
                "{fault:?} {id}: {control:?}"
            );
            assert_eq!(
                control.stage,
                expected_stage(fault),
                "{fault:?} {id}: {control:?}"
            );
            assert!(
                log.observations
                    .iter()
                    .filter(|o| o.target == id)
                    .all(|o| o.verdict != Verdict::Rejected)
            );
            // The control and one retry; nothing else is sent after a failed control.
            assert_eq!(summary.targets[&id].requests, 2, "{fault:?} {id}");
        }
        assert_eq!(s.emu.requests(), 2 * s.targets.len(), "{fault:?}");
        s.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fault_then_success_retries_and_honours_retry_after() {
    for fault in Fault::ALL {
        for id in ["openai/chat", "gemini/v1beta/parameters"] {
            let s = Scenario::with(
                Options {
                    fault: Some(fault),
                    fault_every: 2,
                    slow: Duration::from_millis(600),
                    retry_after: 1,
                    only: None,
                    ..Options::default()
                },
                &env_for(Keys::Valid),
                |o| {
                    o.retries = 2;
                    o.concurrency = 1;
                    o.timeout = Duration::from_millis(300);
                },
                Some(&[id]),
            )
            .await;
            let start = Instant::now();
            let (summary, log, _dir) = s
                .run(
                    &["control/baseline", "keywords/additional-properties-false"],
                    &[],
                )
                .await;
            let elapsed = start.elapsed();
            let control = obs(&log, id, "control/baseline");
            assert_eq!(
                control.verdict,
                Verdict::Accepted,
                "{fault:?} {id}: {control:?}"
            );
            let case = obs(&log, id, "keywords/additional-properties-false");
            let expect = if id == "openai/chat" {
                Verdict::Accepted
            } else {
                Verdict::Rejected
            };
            assert_eq!(case.verdict, expect, "{fault:?} {id}: {case:?}");
            assert_eq!(
                summary.targets[id].requests, 4,
                "{fault:?} {id}: each probe faulted once"
            );
            if fault == Fault::RateLimit {
                // Retry-After (OpenAI) and RetryInfo.retryDelay (Gemini) of 1 s, twice.
                assert!(elapsed >= Duration::from_millis(1900), "{id}: {elapsed:?}");
            }
            s.stop().await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_after_longer_than_allowed_is_not_waited_for() {
    let s = Scenario::with(
        Options {
            fault: Some(Fault::RateLimit),
            retry_after: 300,
            ..Options::default()
        },
        &env_for(Keys::Valid),
        |_| {},
        Some(&["anthropic/messages"]),
    )
    .await;
    let start = Instant::now();
    let (summary, log, _dir) = s.run(&["control/baseline"], &[]).await;
    assert!(start.elapsed() < Duration::from_secs(5));
    let o = obs(&log, "anthropic/messages", "control/baseline");
    assert_eq!((o.verdict, o.stage), (Verdict::Inconclusive, Stage::Quota));
    assert!(
        o.note.as_deref().unwrap().contains("asked to wait 300s"),
        "{o:?}"
    );
    assert_eq!(summary.targets["anthropic/messages"].requests, 1);
    s.stop().await;
}

/// A library caller's retry count past `MAX_RETRIES` is held to it: 100,000 retries against
/// a server that keeps failing would never end the probe.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retries_are_capped_whatever_the_options_say() {
    let s = Scenario::with(
        Options {
            fault: Some(Fault::ServerError),
            ..Options::default()
        },
        &env_for(Keys::Valid),
        |o| {
            o.retries = 100_000;
            o.backoff_base = Duration::from_millis(1);
            o.backoff_cap = Duration::from_millis(1);
        },
        Some(&["anthropic/messages"]),
    )
    .await;
    let (summary, log, _dir) = s.run(&["control/baseline"], &[]).await;
    let o = obs(&log, "anthropic/messages", "control/baseline");
    assert_eq!(o.verdict, Verdict::Inconclusive, "{o:?}");
    let max = toolwire::probe::http::MAX_RETRIES as usize;
    assert_eq!(summary.targets["anthropic/messages"].requests, max + 1);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_request_budget_stops_the_run() {
    let mut s = Scenario::with(
        Options::default(),
        &env_for(Keys::Valid),
        |_| {},
        Some(&["openai/chat"]),
    )
    .await;
    let budget = Budget::new(Some(2));
    let route = target::route("openai/chat").unwrap();
    let cfg = s.targets[0].config().clone();
    s.targets = vec![Arc::new(
        HttpTarget::new(
            route,
            cfg,
            client(Duration::from_secs(5)).unwrap(),
            HttpOptions {
                concurrency: 1,
                ..HttpOptions::loopback()
            },
            budget.clone(),
        )
        .unwrap(),
    )];
    let (summary, log, _dir) = s.run(ALL_CASES, &[]).await;
    assert_eq!(budget.spent(), 2);
    assert_eq!(summary.targets["openai/chat"].requests, 2);
    let skipped = log
        .observations
        .iter()
        .filter(|o| o.verdict == Verdict::Skipped)
        .count();
    assert_eq!(
        skipped, 2,
        "the two probes past the budget are skipped, not sent"
    );
    assert_eq!(s.emu.requests(), 2);
    s.stop().await;
}

/// A budget spent mid-run is named at the end of the run, with how many probes it stopped
/// and the flag to raise: it showed only as `skipped N` in the table (the reason was in the
/// run log alone).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spent_budget_is_named_at_the_end_of_the_run() {
    let emu = Emulator::start(SocketAddr::from(([127, 0, 0, 1], 0)), Options::default())
        .await
        .unwrap();
    let runs = tempfile::tempdir().unwrap();
    let out = tokio::task::block_in_place(|| {
        std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("OPENAI_BASE_URL", emu.base_url("openai"))
            .env("OPENAI_API_KEY", "tw-emulator-key-1")
            .args(["probe", "--no-progress", "--no-regenerate"])
            .args(["--max-requests", "2", "--target", "openai/chat"])
            .args(["--case", "keywords/*", "--runs-dir"])
            .arg(runs.path())
            .output()
            .expect("toolwire runs")
    });
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let log = std::fs::read_dir(runs.path())
        .unwrap()
        .map(|e| runlog::read(&e.unwrap().path()).unwrap())
        .next()
        .expect("a run log");
    let skipped = log
        .observations
        .iter()
        .filter(|o| o.verdict == Verdict::Skipped)
        .count();
    assert!(skipped > 0, "{stdout}");
    assert!(
        stdout.contains(&format!(
            "\n{skipped} probe(s) skipped: the request budget (--max-requests 2) was spent; \
             raise --max-requests to probe them\n"
        )),
        "{stdout}"
    );
    // The question whether OPENAI_BASE_URL is the emulator took one of the two (the emulator
    // leaves it out of its count).
    assert_eq!(emu.requests(), 1);
    emu.stop().await;
}

/// A server that counts every request it gets (any method, any path) and answers each with
/// a 400 that is no schema error.
async fn counting_server() -> (SocketAddr, Arc<std::sync::atomic::AtomicUsize>) {
    use axum::response::IntoResponse;
    let got = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let app = {
        let got = got.clone();
        axum::Router::new().fallback(move || {
            let got = got.clone();
            async move {
                got.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                (axum::http::StatusCode::BAD_REQUEST, "no").into_response()
            }
        })
    };
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    (addr, got)
}

/// trial 56 D2: `probe` asked each replaced base URL whether it is `toolwire emulate` (a GET)
/// before its usage checks, so a run refused with exit 2 ("nothing sent") had contacted the
/// host; and the GET was outside `--max-requests` and `requests sent` (3 allowed, 4 sent,
/// "requests sent: 3"). A refused run now sends nothing, for a stand-in (openai/chat) and
/// for a local server whose answer decides whether the run is emulated (vllm/chat), and the
/// count printed is what the server got.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_run_sends_nothing_and_every_request_is_counted() {
    use std::sync::atomic::Ordering::SeqCst;
    let (addr, got) = counting_server().await;
    let runs = tempfile::tempdir().unwrap();
    let in_runs = runs.path().join("summary.json");
    let probe = |target: &str, flags: &[&str]| {
        tokio::task::block_in_place(|| {
            std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"))
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .env_clear()
                .env("PATH", std::env::var_os("PATH").unwrap_or_default())
                .env("OPENAI_API_KEY", "tw-emulator-key-1")
                .args([
                    "probe",
                    "--no-progress",
                    "--no-regenerate",
                    "--retries",
                    "0",
                ])
                .args(["--case", "control", "--target", target, "--base-url"])
                .arg(format!("{target}=http://{addr}"))
                .arg("--runs-dir")
                .arg(runs.path())
                .args(flags)
                .output()
                .expect("toolwire runs")
        })
    };
    for target in ["openai/chat", "vllm/chat"] {
        for flags in [
            &["--max-requests", "0"][..],
            &["--summary-json", "reports/summary.json"],
            &["--summary-json", "cases/summary.json"],
            &["--summary-json", in_runs.to_str().unwrap()],
        ] {
            let out = probe(target, flags);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{target} {flags:?}: {stderr}");
            assert_eq!(got.load(SeqCst), 0, "{target} {flags:?}: {stderr}");
        }
    }
    // The question and the control; with a budget of 1, the question alone.
    for (max, sent) in [("5", 2), ("1", 1)] {
        let before = got.load(SeqCst);
        let out = probe("openai/chat", &["--max-requests", max]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{stdout}");
        assert_eq!(got.load(SeqCst) - before, sent, "{stdout}");
        assert!(
            stdout.contains(&format!("\nrequests sent: {sent}\n")),
            "{stdout}"
        );
    }
    assert!(!in_runs.exists());
}

const CANARY: &str = "tw-canary-7f3e9a1b5c2d";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_canary_key_never_reaches_logs_errors_or_debug_output() {
    let s = Scenario::with(Options::default(), &env_with(CANARY), |_| {}, None).await;
    let (summary, log, _dir) = s.run(ALL_CASES, &[CANARY]).await;
    // The key was sent (the models only accept with a credential)...
    assert_eq!(
        obs(&log, "openai/chat", "control/baseline").verdict,
        Verdict::Accepted
    );
    assert_eq!(
        obs(&log, "bedrock/converse", "control/baseline").verdict,
        Verdict::Accepted
    );
    // ...and appears nowhere we write or print.
    let text = std::fs::read_to_string(&summary.log).unwrap();
    assert!(!text.contains(CANARY), "run log");
    let table = toolwire::cli::probe::summary_table(&summary);
    assert!(!table.contains(CANARY), "table");
    for t in &s.targets {
        assert!(
            !format!("{:?}", t.config()).contains(CANARY),
            "Debug of {}",
            t.record().id
        );
        assert!(!format!("{:?}", t.record()).contains(CANARY));
    }
    s.stop().await;
}

/// A server that echoes the Authorization header back in a 401, as OpenAI's
/// `Incorrect API key provided: …` does; and one that redirects elsewhere.
async fn hostile_servers() -> (SocketAddr, SocketAddr, Arc<std::sync::atomic::AtomicUsize>) {
    use axum::response::IntoResponse;
    let stolen = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let thief = {
        let stolen = stolen.clone();
        axum::Router::new().fallback(move || {
            let stolen = stolen.clone();
            async move {
                stolen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                "thanks"
            }
        })
    };
    let tl = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let thief_addr = tl.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(tl, thief).await.unwrap() });
    let echo = axum::Router::new()
        .route(
            "/echo/v1/chat/completions",
            axum::routing::post(|headers: axum::http::HeaderMap| async move {
                let auth = headers.get("authorization").map(|v| v.to_str().unwrap_or("").to_string()).unwrap_or_default();
                let body = json!({"error": {"message": format!("Incorrect API key provided: {auth}."), "type": "invalid_request_error", "code": "invalid_api_key"}});
                (axum::http::StatusCode::UNAUTHORIZED, axum::Json(body)).into_response()
            }),
        )
        .route(
            // The key alone (no `Bearer`, which a pattern would catch) deep inside a long
            // message: the summary shortens it, which must not leave a piece of the key.
            "/long/v1/chat/completions",
            axum::routing::post(|headers: axum::http::HeaderMap| async move {
                let auth = headers.get("authorization").map(|v| v.to_str().unwrap_or("").to_string()).unwrap_or_default();
                let key = auth.trim_start_matches("Bearer ");
                let body = json!({"error": {"message": format!("{}{key}{}", "A".repeat(120), "B".repeat(60))}});
                (axum::http::StatusCode::UNAUTHORIZED, axum::Json(body)).into_response()
            }),
        )
        .route(
            "/redirect/v1/chat/completions",
            axum::routing::post(move || async move {
                (axum::http::StatusCode::TEMPORARY_REDIRECT, [("location", format!("http://{thief_addr}/steal"))]).into_response()
            }),
        );
    let el = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let echo_addr = el.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(el, echo).await.unwrap() });
    (echo_addr, thief_addr, stolen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_echoed_key_is_redacted_and_redirects_are_not_followed() {
    let (echo, _thief, stolen) = hostile_servers().await;
    let env: BTreeMap<String, String> = [("OPENAI_API_KEY".to_string(), CANARY.to_string())].into();
    let http = client(Duration::from_secs(5)).unwrap();
    let mut targets: Vec<Arc<dyn ProbeTarget>> = Vec::new();
    for prefix in ["echo", "redirect"] {
        let route = target::route("openai/chat").unwrap();
        let mut cfg = route.configure(&env);
        cfg.base_url = format!("http://{echo}/{prefix}");
        targets.push(Arc::new(
            HttpTarget::new(
                route,
                cfg,
                http.clone(),
                HttpOptions::loopback(),
                Budget::new(None),
            )
            .unwrap(),
        ));
    }
    // Two routes with one id would collide in the summary; run them one at a time.
    for t in targets {
        let dir = tempfile::tempdir().unwrap();
        let cat = catalog();
        let control = vec![cat.control()];
        let summary = probe::run(&cat, &control, vec![t], run_options(&dir, &[CANARY], false))
            .await
            .unwrap();
        let text = std::fs::read_to_string(&summary.log).unwrap();
        assert!(!text.contains(CANARY), "{text}");
        let log = runlog::read(&summary.log).unwrap();
        let o = &log.observations[0];
        assert_ne!(o.verdict, Verdict::Rejected);
        if o.status == Some(401) {
            assert!(
                o.error
                    .as_deref()
                    .unwrap()
                    .contains("Incorrect API key provided: Bearer [REDACTED]"),
                "{o:?}"
            );
        } else {
            assert_eq!(
                o.status,
                Some(307),
                "the redirect is reported, not followed: {o:?}"
            );
        }
    }
    assert_eq!(
        stolen.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "nothing reached the redirect target"
    );
}

/// A key echoed deep inside a long 401 message reaches neither the summary's reasons, nor its
/// refused-credential line, nor the table, nor the run log, not even in part.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_echoed_in_a_long_answer_leaves_no_piece_in_the_summary() {
    let (echo, _thief, _stolen) = hostile_servers().await;
    let env: BTreeMap<String, String> = [("OPENAI_API_KEY".to_string(), CANARY.to_string())].into();
    let route = target::route("openai/chat").unwrap();
    let mut cfg = route.configure(&env);
    cfg.base_url = format!("http://{echo}/long");
    let t = HttpTarget::new(
        route,
        cfg,
        client(Duration::from_secs(5)).unwrap(),
        HttpOptions::loopback(),
        Budget::new(None),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cat = catalog();
    let control = vec![cat.control()];
    let summary = probe::run(
        &cat,
        &control,
        vec![Arc::new(t) as Arc<dyn ProbeTarget>],
        run_options(&dir, &[CANARY], false),
    )
    .await
    .unwrap();
    let t = &summary.targets["openai/chat"];
    let refused = t.key_refused.clone().expect("the credential was refused");
    let mut shown: Vec<String> = t.inconclusive_reasons.keys().cloned().collect();
    shown.push(refused.clone());
    shown.push(toolwire::cli::probe::summary_table(&summary));
    shown.push(std::fs::read_to_string(&summary.log).unwrap());
    assert!(
        refused.contains(" … "),
        "the message was shortened: {refused}"
    );
    let key: Vec<char> = CANARY.chars().collect();
    for text in &shown {
        for run in key.windows(6) {
            let run: String = run.iter().collect();
            assert!(!text.contains(&run), "{run:?} of the key in {text}");
        }
    }
}

/// The error (`Display` and `Debug`) of building an openai/chat target with `key` in
/// `OPENAI_API_KEY` and base URL `base_url`, which must be refused.
fn refusal(key: impl Into<String>, base_url: &str, opts: HttpOptions) -> String {
    let env: BTreeMap<String, String> = [("OPENAI_API_KEY".to_string(), key.into())].into();
    let route = target::route("openai/chat").unwrap();
    let mut cfg = route.configure(&env);
    cfg.base_url = base_url.into();
    let err = HttpTarget::new(
        route,
        cfg,
        client(Duration::from_secs(1)).unwrap(),
        opts,
        Budget::new(None),
    )
    .err()
    .expect("refused");
    format!("{err} {err:?}")
}

#[test]
fn a_key_never_goes_over_plain_http_to_a_remote_host() {
    let text = refusal(CANARY, "http://api.example.com", HttpOptions::remote());
    assert!(text.contains("refusing to send OPENAI_API_KEY"), "{text}");
    assert!(!text.contains(CANARY), "{text}");
}

/// A library caller that builds a target itself gets the same refusal for a base URL with
/// userinfo as the CLI: nothing is sent, and the error shows neither the user nor the
/// password.
#[test]
fn a_base_url_with_userinfo_is_refused_without_showing_it() {
    let text = refusal(
        CANARY,
        &format!("http://{USERINFO_USER}:{USERINFO_PASSWORD}@127.0.0.1:9"),
        HttpOptions::loopback(),
    );
    assert!(text.contains("http://***@127.0.0.1:9"), "{text}");
    assert!(text.contains("OPENAI_API_KEY"), "{text}");
    for secret in [USERINFO_USER, USERINFO_PASSWORD, CANARY] {
        assert!(!text.contains(secret), "{text}");
    }
}

const USERINFO_USER: &str = "tw-user-5150";
const USERINFO_PASSWORD: &str = "tw-pass-8086";

/// `toolwire probe` with credentials written into a base URL, by `OPENAI_BASE_URL` or by
/// `--base-url`, pointed at the emulator on loopback: the run is refused before any request
/// (exit 2, the variable to use named), no run log is written, and neither the user, the
/// password nor the key is printed. A run that does not probe that target leaves it out and
/// writes neither in its run log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_probe_with_credentials_in_a_base_url_sends_and_records_nothing() {
    let emu = Emulator::start(SocketAddr::from(([127, 0, 0, 1], 0)), Options::default())
        .await
        .unwrap();
    let base = emu.base_url("openai");
    let with_userinfo = base.replacen(
        "http://",
        &format!("http://{USERINFO_USER}:{USERINFO_PASSWORD}@"),
        1,
    );
    let probe = |env: &[(&str, &str)], args: &[&str], runs: &std::path::Path| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"));
        cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("OPENAI_API_KEY", CANARY)
            .args([
                "probe",
                "--no-progress",
                "--no-regenerate",
                "--case",
                "control",
            ])
            .arg("--runs-dir")
            .arg(runs)
            .args(args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().expect("toolwire runs")
    };
    let v1 = format!("{with_userinfo}/v1");
    let flag = format!("openai/chat={with_userinfo}");
    // Per run: the environment added, the arguments added, and how the refusal names it.
    type Refused<'a> = (&'a [(&'a str, &'a str)], Vec<&'a str>, &'a str);
    let refused: [Refused<'_>; 2] = [
        (
            &[("OPENAI_BASE_URL", v1.as_str())],
            vec!["--target", "openai/chat"],
            "OPENAI_BASE_URL=http://***@127.0.0.1",
        ),
        (
            &[],
            vec!["--target", "openai/chat", "--base-url", flag.as_str()],
            "--base-url openai/chat=http://***@127.0.0.1",
        ),
    ];
    for (env, args, named) in refused {
        let runs = tempfile::tempdir().unwrap();
        let out = tokio::task::block_in_place(|| probe(env, &args, runs.path()));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(named), "{stderr}");
        assert!(stderr.contains("put the key in OPENAI_API_KEY"), "{stderr}");
        for secret in [USERINFO_USER, USERINFO_PASSWORD, CANARY] {
            assert!(
                !stdout.contains(secret) && !stderr.contains(secret),
                "{stdout}{stderr}"
            );
        }
        assert_eq!(
            std::fs::read_dir(runs.path()).unwrap().count(),
            0,
            "no run log"
        );
    }
    assert_eq!(emu.requests(), 0, "nothing was sent");
    // The variable set for another program does not stop a run of other targets.
    let runs = tempfile::tempdir().unwrap();
    let out = tokio::task::block_in_place(|| {
        probe(
            &[("OPENAI_BASE_URL", v1.as_str())],
            &["--target", "engine/jsonschema-2020-12"],
            runs.path(),
        )
    });
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let logs: Vec<_> = std::fs::read_dir(runs.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(logs.len(), 1, "{stdout}{stderr}");
    let log = std::fs::read_to_string(&logs[0]).unwrap();
    for secret in [USERINFO_USER, USERINFO_PASSWORD, CANARY] {
        assert!(!log.contains(secret), "{log}");
        assert!(
            !stdout.contains(secret) && !stderr.contains(secret),
            "{stdout}{stderr}"
        );
    }
    assert!(!log.contains("openai/chat"), "left out: {log}");
    assert_eq!(emu.requests(), 0, "nothing was sent");
    emu.stop().await;
}

/// `toolwire emulate` over HTTP takes Anthropic's built-in tools beside a function tool, as
/// `api.anthropic.com` does (the models' own table test covers every target that takes them).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_emulator_accepts_built_in_tools_over_http() {
    let emu = Emulator::start(SocketAddr::from(([127, 0, 0, 1], 0)), Options::default())
        .await
        .unwrap();
    let http = client(Duration::from_secs(5)).unwrap();
    let tools = |schema: serde_json::Value| {
        json!({"model": "claude", "max_tokens": 1, "messages": [{"role": "user", "content": "hi"}],
               "tools": [{"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
                         {"name": "get_weather", "input_schema": schema}]})
    };
    let post = |body: serde_json::Value| {
        http.post(format!("{}/v1/messages", emu.base_url("anthropic")))
            .header("x-api-key", "tw-loopback-key")
            .header("anthropic-version", "2023-06-01")
            .json(&body)
            .send()
    };
    let ok = post(tools(json!({"type": "object"}))).await.unwrap();
    assert_eq!(ok.status().as_u16(), 200);
    let bad = post(tools(json!({"type": "object", "properties": null})))
        .await
        .unwrap();
    assert_eq!(bad.status().as_u16(), 400);
    let text = bad.text().await.unwrap();
    assert!(text.contains("tools.1.custom.input_schema"), "{text}");
    emu.stop().await;
}

/// The emulator's own answers, a body over its size cap (413) and a method other than POST on
/// a route (405, with `allow: POST`), are JSON in each target's error shape: the same
/// top-level keys as that target's answer to an unparsable body. A path that is no route
/// still gets the target's 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_emulators_own_errors_are_json_in_each_targets_shape() {
    let emu = Emulator::start(SocketAddr::from(([127, 0, 0, 1], 0)), Options::default())
        .await
        .unwrap();
    let http = client(Duration::from_secs(30)).unwrap();
    let env = env_with(VALID_KEY);
    let keys = |v: &serde_json::Value| -> Vec<String> {
        v.as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    };
    let mut seen = std::collections::BTreeSet::new();
    for route in target::routes() {
        let service = route.service();
        if !seen.insert(service) {
            continue;
        }
        let mut cfg = route.configure(&env);
        cfg.base_url = emu.base_url(service);
        cfg.base_overridden = true;
        let req = route.request(&cfg, &[baseline()], &WireOptions::default());
        let url = format!("{}{}", cfg.base_url, req.path);
        let send = |method: reqwest::Method, body: Vec<u8>| {
            let mut b = http.request(method, &url).body(body);
            for (k, v) in &req.headers {
                b = b.header(k, v);
            }
            for (k, v) in req.auth_headers(&url, cfg.credential.as_ref(), chrono::Utc::now()) {
                b = b.header(k, v.expose());
            }
            b.send()
        };
        let json_of = |r: reqwest::Response| async move {
            let status = r.status().as_u16();
            let allow = r
                .headers()
                .get("allow")
                .map(|v| v.to_str().unwrap().to_string());
            let text = r.text().await.unwrap();
            let body: serde_json::Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{service}: not JSON ({e}): {text}"));
            (status, allow, body)
        };
        let (status, _, broken) =
            json_of(send(reqwest::Method::POST, b"{".to_vec()).await.unwrap()).await;
        assert!((400..500).contains(&status), "{service}: {status} {broken}");

        let (status, allow, body) =
            json_of(send(reqwest::Method::GET, req.body.to_vec()).await.unwrap()).await;
        assert_eq!(
            (status, allow.as_deref()),
            (405, Some("POST")),
            "{service}: {body}"
        );
        assert_eq!(keys(&body), keys(&broken), "{service}: {body} vs {broken}");
        assert!(
            body.to_string().contains("Method Not Allowed"),
            "{service}: {body}"
        );

        let big = vec![b' '; toolwire::emulate::MAX_REQUEST + 1];
        let (status, _, body) = json_of(send(reqwest::Method::POST, big).await.unwrap()).await;
        assert_eq!(status, 413, "{service}: {body}");
        assert_eq!(keys(&body), keys(&broken), "{service}: {body} vs {broken}");

        // The route still answers a POST, and a path that is no route stays a 404.
        let (status, _, body) = json_of(
            send(reqwest::Method::POST, req.body.to_vec())
                .await
                .unwrap(),
        )
        .await;
        assert_ne!(status, 405, "{service}: {body}");
        let nowhere = http
            .get(format!("{}/no/such/route", cfg.base_url))
            .send()
            .await
            .unwrap();
        assert_eq!(nowhere.status().as_u16(), 404, "{service}");
    }
    assert!(seen.len() > 10, "{seen:?}");
    emu.stop().await;
}

/// The proxy variables never carry a plain-http request (and its key) to a proxy: `toolwire
/// probe` with `HTTP_PROXY`, `HTTPS_PROXY` and `ALL_PROXY` all pointing at a listener sends a
/// loopback target's requests straight to the target (the emulator), and the listener sees
/// nothing. An https request to a remote host does go through the https proxy, as a CONNECT
/// tunnel (the proxy sees the host, never the request or its key).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn proxy_variables_never_see_a_loopback_request() {
    let (_echo, thief, stolen) = hostile_servers().await;
    let emu = Emulator::start(SocketAddr::from(([127, 0, 0, 1], 0)), Options::default())
        .await
        .unwrap();
    let proxy = format!("http://{thief}");
    let runs = tempfile::tempdir().unwrap();
    let out = tokio::task::block_in_place(|| {
        std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HTTP_PROXY", &proxy)
            .env("http_proxy", &proxy)
            .env("HTTPS_PROXY", &proxy)
            .env("ALL_PROXY", &proxy)
            .env("VLLM_BASE_URL", emu.base_url("vllm"))
            .env("VLLM_API_KEY", CANARY)
            .args([
                "probe",
                "--no-progress",
                "--no-regenerate",
                "--case",
                "control",
            ])
            .args(["--target", "vllm/chat", "--runs-dir"])
            .arg(runs.path())
            .output()
            .expect("toolwire runs")
    });
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("emulated run"), "{stdout}");
    assert!(emu.requests() >= 1, "the target itself answered");
    assert_eq!(
        stolen.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "the proxy saw nothing"
    );
    assert!(!stdout.contains(CANARY) && !stderr.contains(CANARY));
    emu.stop().await;

    // The library's client, with the same variables: an https request to a remote host
    // asks the proxy for a tunnel (it fails here: the listener is no proxy), and never
    // resolves or contacts the host itself.
    let env = |name: &str| {
        ["HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY"]
            .contains(&name)
            .then(|| proxy.clone())
    };
    let http = toolwire::probe::http::client_with_env(Duration::from_secs(5), &env).unwrap();
    let before = stolen.load(std::sync::atomic::Ordering::SeqCst);
    let remote = http.get("https://api.example.com/v1/models").send().await;
    assert!(remote.is_err());
    assert_eq!(
        stolen.load(std::sync::atomic::Ordering::SeqCst),
        before + 1,
        "the https request went to the proxy as a tunnel"
    );
}

/// A key equal to ordinary text (`invalid`, a word of several case ids and of providers'
/// answers) is redacted from free text only: every observation keeps its case id, target
/// and verdict, and the log reads back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_equal_to_ordinary_text_leaves_the_log_readable() {
    let s = Scenario::start(Keys::Invalid).await;
    let (_summary, log, _dir) = s.run(ALL_CASES, &["invalid"]).await;
    let ids: Vec<&str> = s.cat.cases.iter().map(|c| c.id.as_str()).collect();
    assert!(!log.observations.is_empty());
    for o in &log.observations {
        assert!(ids.contains(&o.case.as_str()), "{o:?}");
        assert!(s.routes.contains_key(&o.target), "{o:?}");
        assert!(
            o.request_digest.is_empty() || o.request_digest.starts_with("sha256:"),
            "{o:?}"
        );
    }
    // The key was echoed in some answers' text (OpenAI's `Incorrect API key provided`),
    // and only there was it removed.
    assert!(
        log.observations
            .iter()
            .any(|o| o.error.as_deref().is_some_and(|e| e.contains("[REDACTED]"))),
        "{:#?}",
        log.observations
    );
    s.stop().await;
}

/// The emulator answers a key starting `tw-invalid` (which `probe` takes as a credible key)
/// as an invalid key, as it does `invalid`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_distinctive_invalid_key_is_refused_by_the_emulator() {
    let key = "tw-invalid-key-1";
    let s = Scenario::with(
        Options::default(),
        &env_with(key),
        |_| {},
        Some(&["openai/chat", "groq/chat", "anthropic/messages"]),
    )
    .await;
    let (_summary, log, _dir) = s.run(ALL_CASES, &[key]).await;
    for id in ["openai/chat", "groq/chat", "anthropic/messages"] {
        let control = obs(&log, id, "control/baseline");
        assert_eq!(
            (control.verdict, control.stage),
            (Verdict::Inconclusive, Stage::Auth),
            "{id}: {control:?}"
        );
    }
    s.stop().await;
}

/// A key that cannot be a header value is refused when a library caller builds the target,
/// rather than dropped from every request; the error does not show it.
#[test]
fn a_key_that_cannot_be_a_header_is_refused() {
    let key = format!("{CANARY}\nmore");
    let text = refusal(key, "http://127.0.0.1:9", HttpOptions::loopback());
    assert!(text.contains("OPENAI_API_KEY holds a character"), "{text}");
    assert!(!text.contains(CANARY), "{text}");
}

/// A server answering every POST with one fixed 400 body (as trialO's evil2.py did).
async fn fixed_answer_server(body: serde_json::Value) -> SocketAddr {
    use axum::response::IntoResponse;
    let app = axum::Router::new().fallback(move || {
        let body = body.clone();
        async move { (axum::http::StatusCode::BAD_REQUEST, axum::Json(body)).into_response() }
    });
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    addr
}

/// trialO F7, through the prober: a 400 about the model name, `contents` or the generation
/// config, or another service's schema error, is no rejection on the Google routes (nor on
/// OpenAI's or Anthropic's): the control stays unrejected, so no case is confounded. The
/// bodies are SYNTHETIC fixtures shaped after Google's and OpenAI's answers, not evidence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_outside_the_tool_block_is_no_rejection_through_the_prober() {
    let bodies = [
        json!({"error":{"code":400,"message":"* GenerateContentRequest.model: unexpected model name format\n","status":"INVALID_ARGUMENT"}}),
        json!({"error":{"code":400,"message":"* GenerateContentRequest.contents: contents is not specified\n","status":"INVALID_ARGUMENT"}}),
        json!({"error":{"code":400,"message":"Invalid JSON payload received. Unknown name \"foo\" at 'generation_config': Cannot find field.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"generation_config","description":"Invalid JSON payload received. Unknown name \"foo\" at 'generation_config': Cannot find field."}]}]}}),
        json!({"error":{"message":"Invalid schema for function 'get_weather': In context=(), 'additionalProperties' is required to be supplied and to be false.","type":"invalid_request_error","param":"tools[0].function.parameters","code":"invalid_function_parameters"}}),
    ];
    let env = env_with(VALID_KEY);
    let http = client(Duration::from_secs(5)).unwrap();
    for (i, body) in bodies.into_iter().enumerate() {
        let addr = fixed_answer_server(body).await;
        for id in [
            "gemini/v1beta/parameters",
            "gemini/openai-compat",
            "vertex/v1/parameters",
            "anthropic/messages",
        ] {
            let route = target::route(id).unwrap();
            let mut cfg = route.configure(&env);
            cfg.base_url = format!("http://{addr}");
            cfg.base_overridden = true;
            let t: Arc<dyn ProbeTarget> = Arc::new(
                HttpTarget::new(
                    route,
                    cfg,
                    http.clone(),
                    HttpOptions::loopback(),
                    Budget::new(None),
                )
                .unwrap(),
            );
            let dir = tempfile::tempdir().unwrap();
            let cat = catalog();
            let selected: Vec<&Case> = cat
                .cases
                .iter()
                .filter(|c| ["control/baseline", "keywords/one-of-nested"].contains(&c.id.as_str()))
                .collect();
            let summary = probe::run(
                &cat,
                &selected,
                vec![t],
                run_options(&dir, &[VALID_KEY], true),
            )
            .await
            .unwrap();
            let log = runlog::read(&summary.log).unwrap();
            assert_eq!(log.observations.len(), 2, "{id} body {i}");
            for o in &log.observations {
                assert_eq!(o.verdict, Verdict::Inconclusive, "{id} body {i}: {o:?}");
            }
        }
    }
}
