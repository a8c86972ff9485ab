//! The composite GitHub Action's shell steps (`.github/actions/check/action.yml`), run here
//! with the inputs a workflow would give: the step scripts are taken from the file itself,
//! so what is tested is what a workflow runs.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `run:` script of the step named `name`.
fn step(name: &str) -> String {
    let text = std::fs::read_to_string(repo().join(".github/actions/check/action.yml"))
        .expect("action.yml reads");
    let action: Value = serde_saphyr::from_str(&text).expect("action.yml is YAML");
    action["runs"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["name"] == name)
        .and_then(|s| s["run"].as_str())
        .unwrap_or_else(|| panic!("no step {name:?}"))
        .to_string()
}

/// Runs `script` with bash in `cwd` with `env`; returns its status and what it wrote to
/// `$GITHUB_OUTPUT`.
fn run(script: &str, cwd: &Path, env: &[(&str, &str)]) -> (i32, String, String) {
    let out_file = tempfile::NamedTempFile::new().expect("output file");
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(cwd)
        .env("GITHUB_OUTPUT", out_file.path())
        .envs(env.iter().copied())
        .output()
        .expect("bash runs");
    let outputs = std::fs::read_to_string(out_file.path()).unwrap_or_default();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.code().unwrap_or(-1), outputs, stdout)
}

/// A workspace with a clean tool file and one with an error, in a subfolder.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("workspace");
    std::fs::create_dir_all(dir.path().join("tools/more")).unwrap();
    let clean = r#"{"type":"object","properties":{"a":{"type":"string"}}}"#;
    let broken = r#"{"type":"object","properties":{"a":{"type":"array"}}}"#;
    std::fs::write(dir.path().join("tools/clean.json"), clean).unwrap();
    std::fs::write(dir.path().join("tools/more/broken.json"), broken).unwrap();
    dir
}

fn check_step(ws: &Path, files: &str, ignore: &str) -> (i32, String, String) {
    run(
        &step("Check the tool definitions"),
        ws,
        &[
            ("TOOLWIRE", env!("CARGO_BIN_EXE_toolwire")),
            ("INPUT_FILES", files),
            ("INPUT_PROFILE", "portable"),
            ("INPUT_TARGET", "openai/chat"),
            ("INPUT_SARIF", ""),
            ("INPUT_ERRORS_ONLY", "true"),
            ("INPUT_IGNORE", ignore),
            ("INPUT_FAIL", "true"),
        ],
    )
}

/// `files:` written as a YAML block (one file per line) checks every line's files; it read
/// only the first line, so a broken file on a later line passed.
#[test]
fn every_line_of_files_is_checked() {
    let ws = workspace();
    let (status, outputs, stdout) =
        check_step(ws.path(), "tools/clean.json\ntools/more/broken.json\n", "");
    assert_eq!(status, 1, "{stdout}");
    assert!(outputs.contains("findings=true"), "{outputs}");
    assert!(
        stdout.contains("::error file=tools/more/broken.json"),
        "{stdout}"
    );
}

/// `**` matches directories as well as files: only the files are checked (a directory was
/// passed to toolwire, which refused it).
#[test]
fn a_glob_passes_over_directories() {
    let ws = workspace();
    let (status, _, stdout) = check_step(ws.path(), "tools/**", "");
    assert_eq!(status, 1, "{stdout}");
    assert!(stdout.contains("broken.json"), "{stdout}");
    let (status, _, stdout) = check_step(ws.path(), "nothing/**/*.json", "");
    assert_eq!(status, 2, "{stdout}");
    assert!(stdout.contains("no file matches"), "{stdout}");
}

/// `ignore:` leaves out the named rules' findings: the job passes.
#[test]
fn ignored_rules_let_the_job_pass() {
    let ws = workspace();
    let (status, outputs, stdout) = check_step(ws.path(), "tools/**", "array-items-missing");
    assert_eq!(status, 0, "{stdout}");
    assert!(outputs.contains("findings=false"), "{outputs}");
}

/// The binary's cache key is a digest of the action's source, which a downloaded action
/// (no `.git`) has too: it was `unknown` there, so every run reused the first build.
#[test]
fn the_cache_key_is_a_digest_of_the_source() {
    let action_path = repo().join(".github/actions/check");
    let action_path = action_path.to_str().expect("a UTF-8 path");
    let (status, outputs, _) = run(
        &step("Locate toolwire's source"),
        &repo(),
        &[("GITHUB_ACTION_PATH", action_path)],
    );
    assert_eq!(status, 0);
    let rev = outputs
        .lines()
        .find_map(|l| l.strip_prefix("rev="))
        .expect("a rev output");
    assert_eq!(rev.len(), 32, "{rev}");
    assert!(rev.bytes().all(|b| b.is_ascii_hexdigit()), "{rev}");
}
