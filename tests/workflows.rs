//! The GitHub workflows (`.github/workflows/*.yml`) and the composite action, read as data:
//! what actionlint cannot know about this project (which variables the live targets read,
//! how steps must run, how actions are pinned).

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::Value;
use toolwire::target::{Env, routes};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn yaml(path: &str) -> Value {
    serde_saphyr::from_str(&read(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// An environment that records every variable asked for; it answers `Some` for the names in
/// `set` (all names when `invert`, except those in `set`).
struct Recorder<'a> {
    set: &'a BTreeSet<String>,
    invert: bool,
    asked: RefCell<BTreeSet<String>>,
}

impl Env for Recorder<'_> {
    fn var(&self, name: &str) -> Option<String> {
        self.asked.borrow_mut().insert(name.to_string());
        (self.set.contains(name) != self.invert).then(|| "value".to_string())
    }
}

/// Every variable some route's `configure` reads. A route reads some only when others are
/// set or unset (Bedrock's `AWS_SESSION_TOKEN` only with access keys and no bearer token), so
/// each variable found is tried alone set and alone unset until no new one turns up.
fn variables_read() -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for route in routes() {
        let mut known: BTreeSet<String> = BTreeSet::new();
        let mut tried: BTreeSet<(Option<String>, bool)> = BTreeSet::new();
        loop {
            let mut settings: Vec<(Option<String>, bool)> = vec![(None, false), (None, true)];
            for n in &known {
                settings.push((Some(n.clone()), false));
                settings.push((Some(n.clone()), true));
            }
            let before = known.len();
            for (name, invert) in settings {
                if !tried.insert((name.clone(), invert)) {
                    continue;
                }
                let set: BTreeSet<String> = name.into_iter().collect();
                let env = Recorder {
                    set: &set,
                    invert,
                    asked: RefCell::new(BTreeSet::new()),
                };
                route.configure(&env);
                known.extend(env.asked.into_inner());
            }
            if known.len() == before {
                break;
            }
        }
        found.extend(known);
    }
    found
}

/// probe.yml passes every variable a live target reads, each from the secret of the same
/// name (settings that are not secret may also come from a repository variable): the job
/// passed neither `OPENROUTER_MODEL` nor `AWS_SESSION_TOKEN`, so those targets could not be
/// configured in CI. `VERTEX_ACCESS_TOKEN` is minted in the Probe step itself from the
/// service-account key: written to `$GITHUB_ENV` by a step of its own, it stayed in every
/// later step's environment (upload, regeneration, pull request).
#[test]
fn the_probe_job_passes_every_variable_a_target_reads() {
    let read = variables_read();
    // The discovery itself: these are read by routes' own `configure`, not their settings.
    for n in [
        "AWS_SESSION_TOKEN",
        "OPENROUTER_MODEL",
        "GOOGLE_CLOUD_PROJECT",
    ] {
        assert!(read.contains(n), "{n} not found among {read:?}");
    }
    let workflow = yaml(".github/workflows/probe.yml");
    let env = probe_step(&workflow)["env"]
        .as_object()
        .expect("the Probe step's env");
    let minted = "VERTEX_ACCESS_TOKEN";
    let script = probe_step(&workflow)["run"]
        .as_str()
        .expect("the Probe script");
    assert!(
        read.contains(minted)
            && script.contains(&format!("{minted}=\"$(gcloud auth print-access-token)\""))
            && script.contains(&format!("export {minted}"))
            && env["GCP_SERVICE_ACCOUNT_KEY"] == "${{ secrets.GCP_SERVICE_ACCOUNT_KEY }}",
        "{minted} is minted in the Probe step"
    );
    assert!(
        !read_text_has("GITHUB_ENV"),
        "no step hands a value to later steps through $GITHUB_ENV"
    );
    // The key itself is gone before toolwire starts.
    let unset = script
        .find("unset GCP_SERVICE_ACCOUNT_KEY")
        .expect("the key is unset");
    assert!(unset < script.find("toolwire probe").expect("the probe"));
    let missing: Vec<&String> = read
        .iter()
        .filter(|n| *n != minted && !env.contains_key(*n))
        .collect();
    assert!(missing.is_empty(), "probe.yml does not pass {missing:?}");
    for n in read.iter().filter(|n| *n != minted) {
        let value = env[n].as_str().unwrap_or_default();
        let secret = format!("${{{{ secrets.{n} }}}}");
        let either = format!("${{{{ secrets.{n} || vars.{n} }}}}");
        assert!(value == secret || value == either, "{n}: {value}");
    }
}

/// The step of probe.yml that runs `toolwire probe`.
fn probe_step(workflow: &Value) -> &Value {
    let steps = workflow["jobs"]["probe"]["steps"]
        .as_array()
        .expect("steps");
    steps
        .iter()
        .find(|s| s["name"].as_str() == Some("Probe"))
        .expect("a step named Probe")
}

/// Keys reach the Probe step alone: the job's env (which every step inherits) held them all,
/// so `cargo build` ran every dependency's build script and proc macro with every provider
/// key in its environment, and so did the upload, regeneration and pull-request steps.
#[test]
fn secrets_reach_only_the_steps_that_use_them() {
    let workflow = yaml(".github/workflows/probe.yml");
    let job = &workflow["jobs"]["probe"];
    let text = |v: &Value| serde_json::to_string(v).unwrap();
    assert!(
        !text(&job["env"]).contains("secrets."),
        "the probe job's env passes secrets to every step: {}",
        text(&job["env"])
    );
    let steps = job["steps"].as_array().expect("steps");
    let building: Vec<&Value> = steps
        .iter()
        .filter(|s| s["run"].as_str().is_some_and(|r| r.contains("cargo ")))
        .collect();
    assert!(!building.is_empty(), "a step builds toolwire");
    for s in building {
        assert!(
            !text(s).contains("secrets."),
            "a cargo step sees a secret: {}",
            text(s)
        );
    }
    assert!(text(probe_step(&workflow)).contains("secrets.OPENAI_API_KEY"));
}

/// No checkout leaves a token in `.git/config` (actions/checkout persists it by default),
/// where the build steps' dependency scripts could read it; the push token reaches the
/// pull-request step alone.
#[test]
fn no_token_outlives_the_step_that_uses_it() {
    for file in ["ci.yml", "probe.yml"] {
        let w = yaml(&format!(".github/workflows/{file}"));
        let mut checkouts = 0;
        for (id, job) in w["jobs"].as_object().expect("jobs") {
            for step in job["steps"].as_array().expect("steps") {
                if !step["uses"]
                    .as_str()
                    .is_some_and(|u| u.starts_with("actions/checkout@"))
                {
                    continue;
                }
                checkouts += 1;
                assert_eq!(
                    step["with"]["persist-credentials"],
                    Value::Bool(false),
                    "{file}: job {id}: {step}"
                );
                assert!(step["with"].get("token").is_none(), "{file}: {step}");
            }
        }
        assert!(checkouts > 0, "{file} checks out the repository");
    }
    let workflow = yaml(".github/workflows/probe.yml");
    let steps = workflow["jobs"]["probe"]["steps"]
        .as_array()
        .expect("steps");
    let with_token: Vec<&str> = steps
        .iter()
        .filter(|s| {
            let t = serde_json::to_string(s).unwrap();
            t.contains("PROBE_PR_TOKEN") || t.contains("github.token")
        })
        .map(|s| s["name"].as_str().unwrap_or("(unnamed)"))
        .collect();
    assert_eq!(with_token, ["Open a pull request when a verdict changed"]);
}

fn read_text_has(needle: &str) -> bool {
    read(".github/workflows/probe.yml").contains(needle)
}

/// Every `run:` step of every workflow runs with `shell: bash` (GitHub then runs
/// `bash --noprofile --norc -eo pipefail`), set on the step or as the workflow's default:
/// without it a step is `bash -e` with no pipefail, and `toolwire probe | tee` never failed.
#[test]
fn every_run_step_has_pipefail() {
    for file in ["ci.yml", "probe.yml"] {
        let w = yaml(&format!(".github/workflows/{file}"));
        let default = w["defaults"]["run"]["shell"].as_str();
        let jobs = w["jobs"].as_object().expect("jobs");
        let mut runs = 0;
        for (id, job) in jobs {
            let job_default = job["defaults"]["run"]["shell"].as_str().or(default);
            for step in job["steps"].as_array().expect("steps") {
                if step.get("run").is_none() {
                    continue;
                }
                runs += 1;
                let shell = step["shell"].as_str().or(job_default);
                assert_eq!(shell, Some("bash"), "{file}: job {id}, step {step}");
            }
        }
        assert!(runs > 0, "{file} has run: steps");
    }
}

/// Every action used (workflows and the composite action) is pinned to a full commit SHA
/// with its version in a comment, so a moved tag cannot change what runs.
#[test]
fn actions_are_pinned_to_commits() {
    let mut uses = 0;
    for file in [
        ".github/workflows/ci.yml",
        ".github/workflows/probe.yml",
        ".github/actions/check/action.yml",
    ] {
        for line in read(file).lines() {
            let Some((_, rest)) = line.split_once("uses: ") else {
                continue;
            };
            if rest.starts_with("./") {
                continue;
            }
            uses += 1;
            let (action, comment) = rest.split_once(" # ").unwrap_or((rest, ""));
            let sha = action.rsplit_once('@').map(|(_, r)| r).unwrap_or("");
            assert!(
                sha.len() == 40 && sha.bytes().all(|b| b.is_ascii_hexdigit()),
                "{file}: {line}"
            );
            assert!(comment.starts_with('v'), "{file}: {line}: no `# vX.Y.Z`");
        }
    }
    assert!(uses >= 5, "{uses} uses: lines found");
}

/// The README's GitHub Actions example is a workflow actionlint accepts, and it uploads the
/// SARIF the action writes even when the check step failed the job on findings (a plain next
/// step would not run), with the permission the upload needs.
#[test]
fn the_readme_workflow_uploads_sarif_and_passes_actionlint() {
    let readme = read("README.md");
    let (_, after) = readme
        .split_once("In GitHub Actions, the composite action")
        .expect("the README's GitHub Actions section");
    let (_, block) = after.split_once("```yaml\n").expect("its YAML example");
    let (workflow, _) = block.split_once("```").expect("the example ends");
    let parsed: Value = serde_saphyr::from_str(workflow).expect("the example is YAML");
    assert_eq!(
        parsed["permissions"]["security-events"], "write",
        "{workflow}"
    );
    let steps = parsed["jobs"]["tools"]["steps"].as_array().expect("steps");
    // The action's build runs dependencies' build scripts, which could read a token that
    // actions/checkout leaves in .git/config by default.
    let checkouts: Vec<&Value> = steps
        .iter()
        .filter(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("actions/checkout@"))
        })
        .collect();
    assert_eq!(checkouts.len(), 1, "{workflow}");
    for s in checkouts {
        assert_eq!(s["with"]["persist-credentials"], Value::Bool(false), "{s}");
    }
    let check = steps
        .iter()
        .position(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.contains("/.github/actions/check@"))
        })
        .expect("a step uses the action");
    let sarif = steps[check]["with"]["sarif"]
        .as_str()
        .expect("the sarif input");
    let upload = steps
        .iter()
        .position(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("github/codeql-action/upload-sarif@"))
        })
        .expect("an upload-sarif step");
    assert!(upload > check);
    assert_eq!(steps[upload]["with"]["sarif_file"], sarif);
    let condition = steps[upload]["if"].as_str().unwrap_or("");
    assert!(condition.starts_with("always()"), "{condition:?}");
    // A fork's pull request gets a token that cannot upload: the step is skipped there.
    assert!(
        condition.contains("github.event.pull_request.head.repo.full_name == github.repository"),
        "{condition:?}"
    );
    assert_eq!(parsed["permissions"]["actions"], "read", "{workflow}");
    let local = repo().join("target/ci-tools/bin/actionlint");
    let actionlint = if local.is_file() {
        local.display().to_string()
    } else {
        "actionlint".to_string()
    };
    if !available(&actionlint) {
        return;
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = dir.path().join("readme.yml");
    std::fs::write(&file, workflow).expect("workflow written");
    let out = std::process::Command::new(&actionlint)
        .arg(&file)
        .output()
        .expect("actionlint runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The MSRV job builds with the toolchain Cargo.toml's `rust-version` names, read by its own
/// script (so the two cannot drift), which is the version the README promises.
#[test]
fn the_msrv_job_builds_with_the_promised_toolchain() {
    let w = yaml(".github/workflows/ci.yml");
    let steps = w["jobs"]["msrv"]["steps"].as_array().expect("an msrv job");
    let script = steps
        .iter()
        .find_map(|s| s["run"].as_str().filter(|r| r.contains("rust-version")))
        .expect("a step that reads rust-version");
    let sed = script
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("version=\"$(")
                .and_then(|r| r.strip_suffix(")\""))
        })
        .expect("the line that reads the version");
    let out = std::process::Command::new("bash")
        .args(["-c", sed])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("bash runs");
    let version = String::from_utf8(out.stdout).expect("UTF-8");
    let version = version.trim();
    assert!(!version.is_empty(), "no version read");
    assert!(
        read("README.md").contains(&format!("Rust toolchain ({version} or newer)")),
        "the README promises another version than {version}"
    );
    assert!(
        steps
            .iter()
            .any(|s| s["run"].as_str() == Some("cargo check --locked --all-targets")),
        "the job builds every target"
    );
}

/// The rail's cache key names the toolchain its install step installs: with a key of
/// `Cargo.lock` alone, a new toolchain restored a `target/` built by the old one (rebuilt in
/// full on every run) and, the key being hit, never saved a fresh one.
#[test]
fn the_rail_cache_key_names_the_toolchain() {
    let w = yaml(".github/workflows/ci.yml");
    let rail = &w["jobs"]["rail"];
    let toolchain = rail["env"]["RUST_TOOLCHAIN"]
        .as_str()
        .expect("the rail names its toolchain in env.RUST_TOOLCHAIN");
    assert!(!toolchain.is_empty());
    let steps = rail["steps"].as_array().expect("steps");
    let install = steps
        .iter()
        .find_map(|s| {
            s["run"]
                .as_str()
                .filter(|r| r.contains("rustup toolchain install"))
        })
        .expect("a toolchain step");
    assert!(
        install.contains("install \"$RUST_TOOLCHAIN\"")
            && install.contains("default \"$RUST_TOOLCHAIN\""),
        "the install step uses env.RUST_TOOLCHAIN: {install}"
    );
    let key = steps
        .iter()
        .find_map(|s| s["with"]["key"].as_str())
        .expect("a cache step with a key");
    assert!(key.contains("${{ env.RUST_TOOLCHAIN }}"), "cache key {key}");
    assert!(key.contains("hashFiles('Cargo.lock')"), "cache key {key}");
}

/// probe.yml's step named `name`.
fn probe_yml_named(name: &str) -> Value {
    let workflow = yaml(".github/workflows/probe.yml");
    workflow["jobs"]["probe"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("probe.yml has no step {name:?}"))
        .clone()
}

/// The `run:` script of probe.yml's step named `name`, and the step itself.
fn probe_yml_step(name: &str) -> (String, Value) {
    let step = probe_yml_named(name);
    let script = step["run"].as_str().expect("a run: step").to_string();
    (script, step)
}

/// Runs a step's script in `cwd` as GitHub runs a `shell: bash` step (a file given to
/// `bash --noprofile --norc -eo pipefail`), with `env` and `bin` first on PATH. Returns its
/// status, what it wrote to `$GITHUB_OUTPUT`, and its standard output.
fn run_step(
    script: &str,
    cwd: &std::path::Path,
    bin: Option<&std::path::Path>,
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("step.sh");
    let output = dir.path().join("github-output");
    std::fs::write(&file, script).expect("script written");
    std::fs::write(&output, "").expect("output file");
    let path = match bin {
        Some(b) => format!(
            "{}:{}",
            b.display(),
            std::env::var("PATH").unwrap_or_default()
        ),
        None => std::env::var("PATH").unwrap_or_default(),
    };
    let out = std::process::Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail"])
        .arg(&file)
        .current_dir(cwd)
        .env("PATH", path)
        .env("GITHUB_OUTPUT", &output)
        .env("RUNNER_TEMP", dir.path())
        .envs(env.iter().copied())
        .output()
        .expect("bash runs");
    let outputs = std::fs::read_to_string(&output).unwrap_or_default();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), outputs, stdout)
}

/// An executable shell script at `path`.
fn script_file(path: &std::path::Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder made");
    std::fs::write(path, text).expect("script written");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("executable");
}

/// A refused key (`toolwire probe` exit 3) lets the Probe step pass with `key_refused`
/// set, so that the run log is uploaded and the other targets' evidence regenerated and
/// proposed, and the job then fails in its last step naming the target; any other failure
/// still ends the Probe step with toolwire's status. A rotated key left every scheduled run
/// green.
#[test]
fn a_refused_key_fails_the_job_after_the_evidence_is_proposed() {
    let (probe, _) = probe_yml_step("Probe");
    let refused = "openai/chat: its credential was refused (auth: 401 Incorrect API key \
                   provided); check OPENAI_API_KEY (expired, revoked or rotated?)";
    let ws = tempfile::tempdir().expect("workspace");
    script_file(
        &ws.path().join("target/release/toolwire"),
        &format!("#!/bin/sh\necho '{refused}'\nexit \"$STUB_STATUS\"\n"),
    );
    let env = |status: &'static str| {
        [
            ("STUB_STATUS", status),
            ("MAX_REQUESTS", "10"),
            ("TARGETS", ""),
            ("MODELS", ""),
            ("PROBE_MODELS", ""),
            ("GCP_SERVICE_ACCOUNT_KEY", ""),
        ]
    };
    let (status, outputs, stdout) = run_step(&probe, ws.path(), None, &env("3"));
    assert_eq!(status, 0, "{stdout}");
    assert_eq!(outputs.trim(), "key_refused=true");
    let tee = std::fs::read_to_string(ws.path().join("probe-output.txt")).expect("tee'd");
    assert!(tee.contains(refused), "{tee}");
    for (code, expected) in [("0", 0), ("2", 2), ("130", 130)] {
        let (status, outputs, _) = run_step(&probe, ws.path(), None, &env(code));
        assert_eq!(status, expected, "toolwire exit {code}");
        assert_eq!(outputs, "", "toolwire exit {code}");
    }

    let workflow = yaml(".github/workflows/probe.yml");
    let names: Vec<&str> = workflow["jobs"]["probe"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    assert_eq!(
        names.last(),
        Some(&"Fail when a key was refused"),
        "{names:?}"
    );
    let (fail, step) = probe_yml_step("Fail when a key was refused");
    let condition = step["if"].as_str().expect("an if:");
    assert!(
        condition.contains("steps.probe.outputs.key_refused == 'true'")
            && condition.contains("!cancelled()"),
        "{condition}"
    );
    let (status, _, stdout) = run_step(&fail, ws.path(), None, &[]);
    assert_eq!(status, 1, "{stdout}");
    assert!(
        stdout.contains("::error") && stdout.contains(refused),
        "{stdout}"
    );
}

/// A stub `toolwire` in `ws` that records its arguments (one a line) in `ws/args.txt` and
/// writes `summary` (a `--summary-json` document) where `--summary-json` says, as the real
/// one does when a run that began ends, then exits `$STUB_STATUS` (0 when unset).
fn summarizing_stub(ws: &std::path::Path, summary: &Value) {
    std::fs::write(ws.join("summary.json"), summary.to_string()).expect("summary written");
    script_file(
        &ws.join("target/release/toolwire"),
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > args.txt\nwhile [ $# -gt 0 ]; do\n  \
         if [ \"$1\" = --summary-json ]; then cp summary.json \"$2\"; fi\n  shift\ndone\n\
         echo 'requests sent: 1'\nexit \"${STUB_STATUS:-0}\"\n",
    );
}

/// The `--summary-json` of a real (not emulated) run that kept the log `log`, ended with
/// `exit_status` (`complete` when it is not 130), with `live` as its live targets' counts.
fn real_run_summary(log: &str, exit_status: u8, live: Value) -> Value {
    serde_json::json!({
        "run_log": log,
        "complete": exit_status != 130,
        "exit_status": exit_status,
        "emulated": false,
        "emulated_because": null,
        "live_targets": live,
    })
}

/// The Probe step's environment with no dispatch input, no repository variable and no
/// secret.
const NO_INPUTS: [(&str, &str); 5] = [
    ("MAX_REQUESTS", "10"),
    ("TARGETS", ""),
    ("MODELS", ""),
    ("PROBE_MODELS", ""),
    ("GCP_SERVICE_ACCOUNT_KEY", ""),
];

/// Runs probe.yml's Probe step in `ws`, then (as GitHub does however it ended) the step
/// that collects this run's log for the upload. Returns the Probe step's status, outputs
/// and standard output.
fn probe_then_collect(ws: &std::path::Path, env: &[(&str, &str)]) -> (i32, String, String) {
    let (probe, _) = probe_yml_step("Probe");
    let ran = run_step(&probe, ws, None, env);
    let (collect, step) = probe_yml_step("Collect this run's log");
    assert_eq!(step["if"].as_str(), Some("always()"));
    let (status, _, stdout) = run_step(&collect, ws, None, &[]);
    assert_eq!(status, 0, "{stdout}");
    ran
}

/// The names of the files in `ws/folder`, sorted; none when it does not exist.
fn files_in(ws: &std::path::Path, folder: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(ws.join(folder))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A run answered by a stand-in (`OPENAI_BASE_URL` pointing at a gateway) fails the Probe
/// step with an annotation naming why, and its log, written to the system temp folder, is
/// copied where the artifact step uploads it: the job stayed green, uploaded no log of the
/// run and said nowhere that the weekly run produced no evidence. The step reads
/// `--summary-json`, not the printed lines: a stand-in that never answered printed no
/// `emulated run` line, kept no log, and its run stayed green.
#[test]
fn a_stand_in_run_fails_the_job_and_keeps_its_log() {
    if !available("jq") {
        return;
    }
    let temp = tempfile::tempdir().expect("the system temp folder");
    let log = temp.path().join("20261202T000000Z-abcd.jsonl");
    std::fs::write(&log, "{\"type\":\"header\"}\n").expect("log written");
    let why = "openai/chat answered from https://gw.example.com/openai%2F, not the provider's \
               own host: a stand-in for the provider";
    for kept in [Some(&log), None] {
        let ws = tempfile::tempdir().expect("workspace");
        summarizing_stub(
            ws.path(),
            &serde_json::json!({
                "run_log": kept.map(|l| l.display().to_string()),
                "emulated": true,
                "emulated_because": why,
            }),
        );
        let (status, outputs, stdout) = probe_then_collect(ws.path(), &NO_INPUTS);
        assert_eq!(status, 1, "{stdout}");
        assert_eq!(outputs, "");
        let annotation = stdout
            .lines()
            .find(|l| l.starts_with("::error"))
            .unwrap_or_else(|| panic!("no ::error annotation: {stdout}"));
        assert!(
            annotation.contains(&why.replace('%', "%25")) && annotation.contains("stand-in-run/"),
            "{annotation}"
        );
        let copied = ws.path().join("stand-in-run/20261202T000000Z-abcd.jsonl");
        match kept {
            Some(_) => assert_eq!(
                std::fs::read_to_string(copied).expect("the log kept in the workspace"),
                "{\"type\":\"header\"}\n"
            ),
            None => assert!(!copied.exists()),
        }
        assert!(!ws.path().join("run-log").exists(), "not a run's evidence");
    }
    let upload = probe_yml_named("Upload the run log");
    let paths = upload["with"]["path"].as_str().expect("upload paths");
    assert!(
        paths.lines().any(|l| l.trim() == "stand-in-run/"),
        "{paths}"
    );
    assert_eq!(upload["if"].as_str(), Some("always()"));
}

/// The artifact holds this run's log alone, the one `--summary-json` names, beside the
/// output and the summary: it held every log ever committed in `reports/runs/`, and which
/// was this run's had to be worked out from the names.
#[test]
fn the_artifact_holds_this_runs_log_alone() {
    if !available("jq") {
        return;
    }
    let ws = tempfile::tempdir().expect("workspace");
    let runs = ws.path().join("reports/runs");
    std::fs::create_dir_all(&runs).expect("runs folder");
    std::fs::write(runs.join("20250101T000000Z-old0.jsonl"), "old\n").expect("old log");
    std::fs::write(runs.join("20261202T000000Z-new0.jsonl"), "new\n").expect("new log");
    summarizing_stub(
        ws.path(),
        &real_run_summary(
            "reports/runs/20261202T000000Z-new0.jsonl",
            0,
            serde_json::json!({"selected": 20, "skipped": 19, "probed": 1, "observed": 1}),
        ),
    );
    let (status, _, stdout) = probe_then_collect(ws.path(), &NO_INPUTS);
    assert_eq!(status, 0, "{stdout}");
    assert_eq!(
        files_in(ws.path(), "run-log"),
        ["20261202T000000Z-new0.jsonl"]
    );
    assert!(!ws.path().join("stand-in-run").exists());
    let upload = probe_yml_named("Upload the run log");
    let paths: Vec<&str> = upload["with"]["path"]
        .as_str()
        .expect("upload paths")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(
        paths,
        [
            "run-log/",
            "stand-in-run/",
            "probe-output.txt",
            "probe-summary.json"
        ]
    );
}

/// A run that observed no live target (every one skipped for its secret, or none gave an
/// accepted or rejected answer: DNS, a firewall, a provider down) fails the Probe step with
/// an annotation saying why and what to check, its log still collected: toolwire exits 0
/// (a person probing without keys has not failed), the engines answer in every run, and the
/// weekly job stayed green on no evidence of any provider. A keyless run that reached
/// Gemini's pre-auth front end, and a dispatch narrowed to the engines, pass.
#[test]
fn a_run_that_observed_no_live_target_fails_the_job() {
    if !available("jq") {
        return;
    }
    for (live, fails) in [
        (
            serde_json::json!({"selected": 20, "skipped": 20, "probed": 0, "observed": 0}),
            Some("of 20 live target(s), 20 skipped for a missing secret or setting and 0 probed"),
        ),
        (
            serde_json::json!({"selected": 20, "skipped": 19, "probed": 1, "observed": 0}),
            Some("19 skipped for a missing secret or setting and 1 probed without"),
        ),
        (
            serde_json::json!({"selected": 20, "skipped": 19, "probed": 1, "observed": 1}),
            None,
        ),
        (
            serde_json::json!({"selected": 0, "skipped": 0, "probed": 0, "observed": 0}),
            None,
        ),
    ] {
        let ws = tempfile::tempdir().expect("workspace");
        let runs = ws.path().join("reports/runs");
        std::fs::create_dir_all(&runs).expect("runs folder");
        std::fs::write(runs.join("20261202T000000Z-new0.jsonl"), "new\n").expect("log");
        summarizing_stub(
            ws.path(),
            &real_run_summary("reports/runs/20261202T000000Z-new0.jsonl", 0, live.clone()),
        );
        let (status, _, stdout) = probe_then_collect(ws.path(), &NO_INPUTS);
        let annotation = stdout.lines().find(|l| l.starts_with("::error"));
        match fails {
            Some(why) => {
                assert_eq!(status, 1, "{live}: {stdout}");
                let annotation = annotation.unwrap_or_else(|| panic!("no annotation: {stdout}"));
                assert!(
                    annotation.contains("no live target was observed")
                        && annotation.contains(why)
                        && annotation.contains("secrets and variables"),
                    "{annotation}"
                );
            }
            None => assert!(status == 0 && annotation.is_none(), "{live}: {stdout}"),
        }
        assert_eq!(
            files_in(ws.path(), "run-log"),
            ["20261202T000000Z-new0.jsonl"],
            "{live}"
        );
    }
}

/// A run cut short keeps what it observed in the artifact: the step that collects the log
/// runs however the Probe step ended and finds this run's log itself, from the summary
/// toolwire writes on Ctrl-C (exit 130), else, toolwire killed before it wrote one (a job
/// cancelled or timed out), from the logs git does not know, never an earlier run's. The
/// copy was made by the Probe step, which a cancelled job never finishes.
#[test]
fn a_run_cut_short_keeps_its_log() {
    if !available("jq") || !available("git") {
        return;
    }
    let ws = tempfile::tempdir().expect("workspace");
    let runs = ws.path().join("reports/runs");
    std::fs::create_dir_all(&runs).expect("runs folder");
    std::fs::write(runs.join("20261202T000000Z-cut0.jsonl"), "cut\n").expect("log");
    summarizing_stub(
        ws.path(),
        &real_run_summary("reports/runs/20261202T000000Z-cut0.jsonl", 130, Value::Null),
    );
    let mut env = NO_INPUTS.to_vec();
    env.push(("STUB_STATUS", "130"));
    let (status, _, stdout) = probe_then_collect(ws.path(), &env);
    assert_eq!(status, 130, "{stdout}");
    assert_eq!(
        files_in(ws.path(), "run-log"),
        ["20261202T000000Z-cut0.jsonl"]
    );

    // Killed before any summary: an earlier run's log is committed, this run's is not.
    let ws = tempfile::tempdir().expect("workspace");
    let runs = ws.path().join("reports/runs");
    std::fs::create_dir_all(&runs).expect("runs folder");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(ws.path())
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(&["init", "-q"]);
    std::fs::write(runs.join("20250101T000000Z-old0.jsonl"), "old\n").expect("old log");
    git(&["add", "reports"]);
    git(&["commit", "-q", "-m", "earlier runs"]);
    std::fs::write(runs.join("20261202T000000Z-kill.jsonl"), "killed\n").expect("log");
    let (collect, _) = probe_yml_step("Collect this run's log");
    let (status, _, stdout) = run_step(&collect, ws.path(), None, &[]);
    assert_eq!(status, 0, "{stdout}");
    assert_eq!(
        files_in(ws.path(), "run-log"),
        ["20261202T000000Z-kill.jsonl"]
    );
}

/// The dispatch's `models` (or, for scheduled runs, the `PROBE_MODELS` repository variable)
/// becomes one `--model` per `TARGET=MODEL`, passed through `env:` and not expanded against
/// the checkout's files: the workflow could not choose a model at all. `PROBE_MODELS`, a
/// standing default, also passes `--ignore-unprobed-models`, so that a dispatch narrowed to
/// other targets runs (it stopped with exit 2); the dispatch's own `models` does not: a
/// target it names that `targets` leaves out is the user's mistake.
#[test]
fn models_become_model_flags() {
    if !available("jq") {
        return;
    }
    let workflow = yaml(".github/workflows/probe.yml");
    let input = &workflow["on"]["workflow_dispatch"]["inputs"]["models"];
    assert_eq!(input["required"], false, "{input}");
    let step = probe_step(&workflow);
    assert_eq!(step["env"]["MODELS"], "${{ inputs.models }}");
    assert_eq!(step["env"]["PROBE_MODELS"], "${{ vars.PROBE_MODELS }}");
    let (probe, _) = probe_yml_step("Probe");
    assert!(
        !probe.contains("${{"),
        "inputs reach the script through env: only"
    );
    let pairs = " openai/chat=gpt-4.1\n bedrock/converse=anthropic.claude-x-v1:0  openai* ";
    let expected = [
        "openai/chat=gpt-4.1",
        "bedrock/converse=anthropic.claude-x-v1:0",
        "openai*",
    ];
    for (models, probe_models, flags, lenient) in [
        (pairs, "", &expected[..], false),
        ("", pairs, &expected[..], true),
        ("mistral/chat=m", pairs, &["mistral/chat=m"][..], false),
    ] {
        let ws = tempfile::tempdir().expect("workspace");
        // A file a glob would match, had the shell expanded `*`.
        std::fs::write(ws.path().join("openai-x"), "").expect("file");
        summarizing_stub(
            ws.path(),
            &serde_json::json!({"run_log": null, "emulated": false, "emulated_because": null}),
        );
        let mut env = NO_INPUTS;
        env[2] = ("MODELS", models);
        env[3] = ("PROBE_MODELS", probe_models);
        let (status, _, stdout) = run_step(&probe, ws.path(), None, &env);
        assert_eq!(status, 0, "{stdout}");
        let args = std::fs::read_to_string(ws.path().join("args.txt")).expect("args recorded");
        let args: Vec<&str> = args.lines().collect();
        let given: Vec<&str> = args
            .windows(2)
            .filter(|w| w[0] == "--model")
            .map(|w| w[1])
            .collect();
        assert_eq!(given, flags, "{models:?} {probe_models:?}");
        assert_eq!(
            args.contains(&"--ignore-unprobed-models"),
            lenient,
            "{models:?} {probe_models:?}: {args:?}"
        );
    }
}

/// Whether `program` runs here. Under CI (`CI` set) it must: a test skipped there would
/// pass without testing anything.
fn available(program: &str) -> bool {
    if std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok()
    {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{program} not found under CI"
    );
    eprintln!("{program} not found: the test needing it was skipped");
    false
}

/// One cell of a test matrix: case, target, and (verdict, evidence kind) or `None` for a
/// cell without a verdict.
type Cell<'a> = (&'a str, &'a str, Option<(&'a str, &'a str)>);

/// A matrix.json of `cells`.
fn matrix(cells: &[Cell]) -> String {
    let cells: Vec<Value> = cells
        .iter()
        .map(|(case, target, v)| {
            serde_json::json!({
                "case": case,
                "target": target,
                "verdict": v.map(|v| v.0),
                "kind": v.map(|v| v.1),
            })
        })
        .collect();
    serde_json::json!({ "cells": cells }).to_string()
}

/// Runs probe.yml's pull-request step in a checkout whose committed matrix is `before` and
/// whose regenerated one is `after`, with a local bare repository as `origin` and a `gh`
/// that records the pull request's body. Returns the body, `None` when no pull request was
/// opened.
fn pull_request_body(before: &str, after: &str) -> Option<String> {
    let (script, _) = probe_yml_step("Open a pull request when a verdict changed");
    let dir = tempfile::tempdir().expect("temp dir");
    let git = |cwd: &std::path::Path, args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(cwd)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    let origin = dir.path().join("origin.git");
    let work = dir.path().join("work");
    std::fs::create_dir_all(work.join("reports")).expect("folders");
    git(
        dir.path(),
        &["init", "-q", "--bare", origin.to_str().unwrap()],
    );
    git(&work, &["init", "-q"]);
    std::fs::write(work.join("reports/matrix.json"), before).expect("written");
    git(&work, &["add", "reports"]);
    git(&work, &["commit", "-q", "-m", "before"]);
    git(
        &work,
        &["remote", "add", "origin", origin.to_str().unwrap()],
    );
    std::fs::write(work.join("reports/matrix.json"), after).expect("written");
    std::fs::write(work.join("probe-output.txt"), "requests sent: 0\n").expect("written");
    // What a dependency's build script could have left for this step, where GH_TOKEN is:
    // hooks in the checkout and a global configuration with hooks and an fsmonitor command.
    let ran = dir.path().join("planted-ran");
    let planted = format!("#!/bin/sh\necho \"$0\" >> '{}'\n", ran.display());
    for hook in [
        "pre-commit",
        "commit-msg",
        "post-commit",
        "post-checkout",
        "pre-push",
        "reference-transaction",
    ] {
        script_file(&work.join(".git/hooks").join(hook), &planted);
        script_file(&dir.path().join("home/hooks").join(hook), &planted);
    }
    script_file(&dir.path().join("home/fsmonitor"), &planted);
    let home = dir.path().join("home");
    std::fs::write(
        home.join(".gitconfig"),
        format!(
            "[core]\n\thooksPath = {}\n\tfsmonitor = {}\n",
            home.join("hooks").display(),
            home.join("fsmonitor").display()
        ),
    )
    .expect("written");
    let (_, step) = probe_yml_step("Open a pull request when a verdict changed");
    let step_env: Vec<(String, String)> = step["env"]
        .as_object()
        .expect("the step's env")
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
        .filter(|(_, v)| !v.contains("${{"))
        .collect();
    let body = dir.path().join("pr-body.md");
    script_file(
        &dir.path().join("bin/gh"),
        &format!(
            "#!/bin/sh\n[ \"$1 $2\" = 'pr create' ] || exit 0\nwhile [ $# -gt 0 ]; do\n  \
             if [ \"$1\" = --body-file ]; then cp \"$2\" '{}'; fi\n  shift\ndone\n",
            body.display()
        ),
    );
    let home = home.to_str().expect("a UTF-8 path");
    let mut env = vec![
        ("RUN_ID", "7"),
        ("RUN_ATTEMPT", "1"),
        ("BASE", "main"),
        ("ALWAYS", "false"),
        ("GH_TOKEN", "unused"),
        ("GITHUB_SERVER_URL", "https://github.com"),
        ("HOME", home),
    ];
    env.extend(step_env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let (status, _, stdout) = run_step(&script, &work, Some(&dir.path().join("bin")), &env);
    assert_eq!(status, 0, "{stdout}");
    assert!(
        !ran.exists(),
        "a planted hook or fsmonitor ran beside GH_TOKEN: {}",
        std::fs::read_to_string(&ran).unwrap_or_default()
    );
    std::fs::read_to_string(&body).ok()
}

/// The pull request lists every cell whose verdict (or evidence kind) is new or changed,
/// and every cell that had a verdict and has none now (`OLD → no verdict`); a verdict that
/// only disappeared opens one too. Only new and changed cells were listed, so a removed case
/// or dropped evidence went unsaid (or, alone, opened no pull request).
#[test]
fn the_pull_request_lists_changed_and_vanished_verdicts() {
    if !available("jq") {
        return;
    }
    let acc = Some(("accepted", "probe"));
    let before = matrix(&[
        ("a/same", "t1", acc),
        ("a/kind", "t1", Some(("rejected", "doc"))),
        ("a/removed", "t1", Some(("rejected", "probe"))),
        ("a/dropped", "t2", acc),
        ("a/new", "t2", None),
    ]);
    let after = matrix(&[
        ("a/same", "t1", acc),
        ("a/kind", "t1", Some(("rejected", "probe"))),
        ("a/dropped", "t2", None),
        ("a/new", "t2", acc),
    ]);
    let body = pull_request_body(&before, &after).expect("a pull request");
    let listed: Vec<&str> = body.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(
        listed,
        [
            "- `a/kind` × `t1`: rejected (doc) → rejected (probe)",
            "- `a/new` × `t2`: no verdict → accepted (probe)",
            "- `a/dropped` × `t2`: accepted (probe) → no verdict",
            "- `a/removed` × `t1`: rejected (probe) → no verdict",
        ],
        "{body}"
    );
    assert!(body.contains("Changed verdicts (4):"), "{body}");

    let only_gone = matrix(&[("a/same", "t1", acc)]);
    let body = pull_request_body(&before, &only_gone).expect("a pull request");
    assert!(
        body.contains("- `a/dropped` × `t2`: accepted (probe) → no verdict"),
        "{body}"
    );
    // Run ids, dates and counts aside, nothing changed: no pull request.
    let same = before.replace("\"cells\"", "\"runs\":[1],\"cells\"");
    assert_eq!(pull_request_body(&before, &same), None);
}
