//! The composite GitHub Action's shell steps (`.github/actions/check/action.yml`), run here
//! with the inputs a workflow would give: the step scripts are taken from the file itself,
//! so what is tested is what a workflow runs.

use std::io::Write;
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

/// Runs `script` in `cwd` with `env` the way GitHub runs a `shell: bash` step: written to a
/// file and run as `bash --noprofile --norc -eo pipefail FILE` (GitHub's documented command
/// for `shell: bash`). Under plain `bash -c` a failing command does not end the script, which
/// hid that toolwire's exit 1 (findings) ended the step before its outputs were written.
/// Returns its status, what it wrote to `$GITHUB_OUTPUT`, and its standard output.
fn run(script: &str, cwd: &Path, env: &[(&str, &str)]) -> (i32, String, String) {
    let ran = run_full(script, cwd, env);
    (ran.status, ran.outputs, ran.stdout)
}

/// What a step did: [`run`]'s three, and its standard error.
struct Ran {
    status: i32,
    outputs: String,
    stdout: String,
    stderr: String,
}

/// [`run`], keeping standard error too.
fn run_full(script: &str, cwd: &Path, env: &[(&str, &str)]) -> Ran {
    let out_file = tempfile::NamedTempFile::new().expect("output file");
    let mut script_file = tempfile::NamedTempFile::new().expect("script file");
    script_file
        .write_all(script.as_bytes())
        .expect("script written");
    let out = Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail"])
        .arg(script_file.path())
        .current_dir(cwd)
        .env("GITHUB_OUTPUT", out_file.path())
        .envs(env.iter().copied())
        .output()
        .expect("bash runs");
    let outputs = std::fs::read_to_string(out_file.path()).unwrap_or_default();
    Ran {
        status: out.status.code().unwrap_or(-1),
        outputs,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A workspace with a clean tool file, one with an error in a subfolder, and one that is not
/// JSON.
fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("workspace");
    std::fs::create_dir_all(dir.path().join("tools/more")).unwrap();
    let clean = r#"{"type":"object","properties":{"a":{"type":"string"}}}"#;
    let broken = r#"{"type":"object","properties":{"a":{"type":"array"}}}"#;
    std::fs::write(dir.path().join("tools/clean.json"), clean).unwrap();
    std::fs::write(dir.path().join("tools/more/broken.json"), broken).unwrap();
    std::fs::write(dir.path().join("bad.json"), r#"{"type":"#).unwrap();
    dir
}

/// The inputs of the check step that the tests vary; the rest are the action's defaults
/// (`target` set to one route so the findings do not depend on the portable profile).
struct Inputs<'a> {
    files: &'a str,
    ignore: &'a str,
    sarif: &'a str,
    fail: &'a str,
    /// `$GITHUB_STEP_SUMMARY` (unset when empty).
    summary: &'a str,
}

impl Default for Inputs<'_> {
    fn default() -> Self {
        Inputs {
            files: "tools/**",
            ignore: "",
            sarif: "",
            fail: "true",
            summary: "",
        }
    }
}

fn check(ws: &Path, i: Inputs) -> (i32, String, String) {
    let ran = check_full(ws, i);
    (ran.status, ran.outputs, ran.stdout)
}

/// [`check`], keeping standard error too.
fn check_full(ws: &Path, i: Inputs) -> Ran {
    run_full(
        &step("Check the tool definitions"),
        ws,
        &[
            ("TOOLWIRE", env!("CARGO_BIN_EXE_toolwire")),
            ("INPUT_FILES", i.files),
            ("INPUT_PROFILE", "portable"),
            ("INPUT_TARGET", "openai/chat"),
            ("INPUT_SARIF", i.sarif),
            ("INPUT_ERRORS_ONLY", "true"),
            ("INPUT_IGNORE", i.ignore),
            ("INPUT_FAIL", i.fail),
            ("GITHUB_STEP_SUMMARY", i.summary),
        ],
    )
}

fn check_step(ws: &Path, files: &str, ignore: &str) -> (i32, String, String) {
    check(
        ws,
        Inputs {
            files,
            ignore,
            ..Inputs::default()
        },
    )
}

/// The annotation of the broken file's finding, as `--format github` writes it.
const BROKEN_ANNOTATION: &str = "::error file=tools/more/broken.json";

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

/// Files in hidden folders (`.mcp/`, where MCP configurations live) are matched by `**`, and
/// a pattern that matches only folders says so instead of "no file matches".
#[test]
fn hidden_folders_are_globbed_and_folders_alone_are_named() {
    let ws = workspace();
    let hidden = ws.path().join(".mcp");
    std::fs::create_dir_all(&hidden).unwrap();
    std::fs::copy(
        ws.path().join("tools/more/broken.json"),
        hidden.join("tools.json"),
    )
    .unwrap();
    let (status, _, stdout) = check_step(ws.path(), "**/tools.json", "");
    assert_eq!(status, 1, "{stdout}");
    assert!(stdout.contains("::error file=.mcp/tools.json"), "{stdout}");
    let (status, _, stdout) = check_step(ws.path(), "tools", "");
    assert_eq!(status, 2, "{stdout}");
    assert!(
        stdout.contains(
            "'tools' matches only folders; name the files in them (e.g. 'tools/**/*.json')"
        ),
        "{stdout}"
    );
}

/// A word naming nothing gets "no file matches" with its hint on paths with spaces: under
/// nullglob a word without glob characters stays as written, and was called "only folders"
/// (`missing.json`, and `my` from `my tools/tools list.json`).
#[test]
fn a_word_naming_nothing_is_no_file_not_only_folders() {
    let ws = workspace();
    std::fs::create_dir_all(ws.path().join("my tools")).unwrap();
    std::fs::copy(
        ws.path().join("tools/clean.json"),
        ws.path().join("my tools/tools list.json"),
    )
    .unwrap();
    for (files, word) in [
        ("missing.json", "missing.json"),
        ("my tools/tools list.json", "my"),
        ("tools/clean.json missing/*.json", "missing/*.json"),
    ] {
        let (status, outputs, stdout) = check_step(ws.path(), files, "");
        assert_eq!(status, 2, "{files}\n{stdout}");
        assert_eq!(outputs, "", "{files}");
        assert!(
            stdout.contains(&format!(
                "::error title=toolwire::no file matches '{word}' (files are separated by \
                 whitespace; a glob reaches a path with spaces)"
            )),
            "{files}\n{stdout}"
        );
        assert!(!stdout.contains("only folders"), "{files}\n{stdout}");
    }
    // The hint's way: a glob reaches it.
    let (status, _, stdout) = check_step(ws.path(), "my*/tools*list.json", "");
    assert_eq!(status, 0, "{stdout}");
}

/// A file whose path holds glob characters (`app/[slug]/tools.json`, Next.js's dynamic
/// routes) is taken as written when no file matches it as a glob (`[slug]` matches one
/// letter), and a file named `-x.json` reaches toolwire as a file, not an option: it was a
/// usage error (`unexpected argument '-x'`) in all three of the step's calls.
#[test]
fn bracketed_and_dash_file_names_are_checked() {
    let ws = workspace();
    std::fs::create_dir_all(ws.path().join("app/[slug]")).unwrap();
    let broken = ws.path().join("tools/more/broken.json");
    std::fs::copy(&broken, ws.path().join("app/[slug]/tools.json")).unwrap();
    std::fs::copy(&broken, ws.path().join("-x.json")).unwrap();
    // A SARIF location is a URI: `[` and `]` percent-encoded.
    for (files, annotated, uri) in [
        (
            "app/[slug]/tools.json",
            "app/[slug]/tools.json",
            "app/%5Bslug%5D/tools.json",
        ),
        ("-x.json", "-x.json", "-x.json"),
        ("-*.json", "-x.json", "-x.json"),
    ] {
        let (status, outputs, stdout) = check(
            ws.path(),
            Inputs {
                files,
                sarif: "out.sarif",
                ..Inputs::default()
            },
        );
        assert_eq!(status, 1, "{files}\n{stdout}");
        assert_eq!(outputs, "sarif-file=out.sarif\nfindings=true\n", "{files}");
        assert!(
            stdout.contains(&format!("::error file={annotated},")),
            "{files}\n{stdout}"
        );
        assert!(stdout.contains("Findings per rule:"), "{files}\n{stdout}");
        let text = std::fs::read_to_string(ws.path().join("out.sarif")).unwrap();
        assert!(
            text.contains(&format!("\"uri\": \"{uri}\"")),
            "{files}\n{text}"
        );
    }
}

/// The counts go to the log and to the job's summary page: a clean run printed nothing, and
/// a failing one only annotations, of which GitHub shows a few per step.
#[test]
fn the_counts_reach_the_log_and_the_step_summary() {
    let ws = workspace();
    let summary = ws.path().join("summary.md");
    let path = summary.to_str().unwrap();
    let (status, _, stdout) = check(
        ws.path(),
        Inputs {
            summary: path,
            ..Inputs::default()
        },
    );
    assert_eq!(status, 1, "{stdout}");
    assert!(stdout.contains("Findings per rule:"), "{stdout}");
    let page = std::fs::read_to_string(&summary).unwrap();
    assert!(
        page.starts_with(
            "### toolwire check\n\n```text\nFindings per rule:\n  array-items-missing"
        ),
        "{page}"
    );
    std::fs::remove_file(&summary).unwrap();
    let (status, _, stdout) = check(
        ws.path(),
        Inputs {
            files: "tools/clean.json",
            summary: path,
            ..Inputs::default()
        },
    );
    assert_eq!(status, 0, "{stdout}");
    let page = std::fs::read_to_string(&summary).unwrap();
    let line = page.lines().nth(3).unwrap_or_default();
    assert!(
        !line.is_empty() && stdout.contains(line),
        "{page}\n{stdout}"
    );
    assert!(!page.contains("Findings per rule"), "{page}");
}

/// A SARIF path in a folder that does not exist yet is written there (the redirect failed
/// with status 1, read as findings: the step passed naming a file never written); one that
/// cannot be written fails the step.
/// A run with bad input still writes the summary, heading it as incomplete, with the counts
/// of the files that were read (before: the step ended at the bad input with no summary).
#[test]
fn the_summary_says_a_run_with_bad_input_is_incomplete() {
    let ws = workspace();
    let summary = ws.path().join("summary.md");
    let (status, _, stdout) = check(
        ws.path(),
        Inputs {
            files: "tools/more/broken.json\nbad.json",
            summary: summary.to_str().unwrap(),
            ..Inputs::default()
        },
    );
    assert_eq!(status, 2, "{stdout}");
    let page = std::fs::read_to_string(&summary).unwrap();
    assert!(
        page.starts_with(
            "### toolwire check (exited 2: bad input or usage; the log says which)\n\n```text\n\
             Findings per rule:\n  array-items-missing"
        ),
        "{page}"
    );
}

#[test]
fn the_sarif_file_is_written_or_the_step_fails() {
    let ws = workspace();
    let (status, outputs, stdout) = check(
        ws.path(),
        Inputs {
            files: "tools/clean.json",
            sarif: "reports/new/out.sarif",
            ..Inputs::default()
        },
    );
    assert_eq!(status, 0, "{stdout}");
    assert_eq!(
        outputs,
        "sarif-file=reports/new/out.sarif\nfindings=false\n"
    );
    let text = std::fs::read_to_string(ws.path().join("reports/new/out.sarif")).unwrap();
    assert!(text.contains("\"version\": \"2.1.0\""), "{text}");
    std::fs::create_dir_all(ws.path().join("taken.sarif")).unwrap();
    let (status, outputs, stdout) = check(
        ws.path(),
        Inputs {
            files: "tools/clean.json",
            sarif: "taken.sarif",
            ..Inputs::default()
        },
    );
    assert_eq!(status, 2, "{stdout}");
    assert_eq!(outputs, "");
    assert!(
        stdout.contains("::error title=toolwire::cannot write the SARIF file 'taken.sarif'"),
        "{stdout}"
    );
}

/// A SARIF path whose folder cannot be made (here under a file; `/proc/nope/x.sarif` in
/// the trial) fails the step with 2 and the same annotation as a path that is a folder, with
/// findings or without: `mkdir -p` ended the script under `-e` with 1 (the "findings"
/// status) and no annotation. After bad input the step keeps toolwire's 2 and names no file;
/// a folder at the path is neither named nor removed (it was named as the SARIF file).
#[test]
fn a_sarif_folder_that_cannot_be_made_fails_the_step_annotated() {
    let ws = workspace();
    std::fs::create_dir_all(ws.path().join("taken.sarif")).unwrap();
    for files in ["tools/clean.json", "tools/**", "tools/clean.json bad.json"] {
        for sarif in ["tools/clean.json/x.sarif", "taken.sarif"] {
            let (status, outputs, stdout) = check(
                ws.path(),
                Inputs {
                    files,
                    sarif,
                    ..Inputs::default()
                },
            );
            assert_eq!(status, 2, "{files} {sarif}\n{stdout}");
            assert_eq!(outputs, "", "{files} {sarif}");
            assert!(
                stdout.contains(&format!(
                    "::error title=toolwire::cannot write the SARIF file '{sarif}'"
                )),
                "{files} {sarif}\n{stdout}"
            );
        }
    }
    assert!(ws.path().join("taken.sarif").is_dir());
    assert!(ws.path().join("tools/clean.json").is_file());
}

/// `ignore:` leaves out the named rules' findings: the job passes.
#[test]
fn ignored_rules_let_the_job_pass() {
    let ws = workspace();
    let (status, outputs, stdout) = check_step(ws.path(), "tools/**", "array-items-missing");
    assert_eq!(status, 0, "{stdout}");
    assert!(outputs.contains("findings=false"), "{outputs}");
}

/// Findings fail the step only with `fail-on-findings: true`; either way the annotations are
/// printed and both outputs written. Under GitHub's `bash -eo pipefail`, toolwire's exit 1
/// ended the script at the toolwire call: `false` failed the job all the same and no output
/// was set.
#[test]
fn findings_fail_the_step_only_when_asked() {
    let ws = workspace();
    for (fail, want) in [("true", 1), ("false", 0)] {
        let (status, outputs, stdout) = check(
            ws.path(),
            Inputs {
                fail,
                ..Inputs::default()
            },
        );
        assert_eq!(status, want, "fail-on-findings: {fail}\n{stdout}");
        assert_eq!(
            outputs, "sarif-file=\nfindings=true\n",
            "fail-on-findings: {fail}"
        );
        assert!(stdout.contains(BROKEN_ANNOTATION), "{stdout}");
    }
}

/// The boolean inputs take true or false in any case (YAML's `True` arrives as written);
/// anything else is refused naming the input: `yes` or `True` read as false, so a gate with
/// findings passed, or warnings failed the step.
#[test]
fn boolean_inputs_are_true_or_false() {
    let ws = workspace();
    for (fail, want) in [("True", 1), ("FALSE", 0)] {
        let (status, _, stdout) = check(
            ws.path(),
            Inputs {
                fail,
                ..Inputs::default()
            },
        );
        assert_eq!(status, want, "fail-on-findings: {fail}\n{stdout}");
    }
    for fail in ["yes", "1", ""] {
        let (status, outputs, stdout) = check(
            ws.path(),
            Inputs {
                fail,
                ..Inputs::default()
            },
        );
        assert_eq!(status, 2, "fail-on-findings: {fail:?}\n{stdout}");
        assert!(
            stdout.contains(&format!(
                "::error title=toolwire::the fail-on-findings input must be true or false, not '{fail}'"
            )),
            "{stdout}"
        );
        assert_eq!(outputs, "", "nothing checked, no output set");
    }
}

/// With `sarif` set the SARIF file is written (valid JSON holding the finding), the
/// annotations are still printed, and `sarif-file` names the file, whether or not findings
/// fail the step.
#[test]
fn sarif_is_written_beside_the_annotations() {
    let ws = workspace();
    for (fail, want) in [("true", 1), ("false", 0)] {
        let sarif = format!("findings-{fail}.sarif");
        let (status, outputs, stdout) = check(
            ws.path(),
            Inputs {
                sarif: &sarif,
                fail,
                ..Inputs::default()
            },
        );
        assert_eq!(status, want, "fail-on-findings: {fail}\n{stdout}");
        assert_eq!(outputs, format!("sarif-file={sarif}\nfindings=true\n"));
        assert!(stdout.contains(BROKEN_ANNOTATION), "{stdout}");
        let text = std::fs::read_to_string(ws.path().join(&sarif)).expect("the SARIF file");
        let log: Value = serde_json::from_str(&text).expect("the SARIF file is JSON");
        assert_eq!(log["version"], "2.1.0");
        let results = log["runs"][0]["results"].as_array().expect("results");
        let uris: Vec<&str> = results
            .iter()
            .filter(|r| r["ruleId"] == "array-items-missing")
            .filter_map(|r| {
                r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str()
            })
            .collect();
        assert_eq!(uris, ["tools/more/broken.json"], "{text}");
    }
}

/// Clean input passes with `findings=false`, with or without SARIF (then with no result).
#[test]
fn clean_input_passes() {
    let ws = workspace();
    for sarif in ["", "clean.sarif"] {
        let (status, outputs, stdout) = check(
            ws.path(),
            Inputs {
                files: "tools/clean.json",
                sarif,
                ..Inputs::default()
            },
        );
        assert_eq!(status, 0, "{stdout}");
        assert_eq!(outputs, format!("sarif-file={sarif}\nfindings=false\n"));
        assert!(!stdout.contains("::error"), "{stdout}");
        if !sarif.is_empty() {
            let text = std::fs::read_to_string(ws.path().join(sarif)).expect("the SARIF file");
            let log: Value = serde_json::from_str(&text).expect("the SARIF file is JSON");
            assert_eq!(log["runs"][0]["results"], Value::Array(vec![]), "{text}");
        }
    }
}

/// Bad input (a file that is not JSON) fails the step with toolwire's 2 even when findings
/// do not fail it and says so in an annotation; `findings` is not set, since not everything
/// was checked. With `sarif` set the SARIF file is still written, recording the unreadable
/// file, and named in `sarif-file`, so that an upload with `if: always()` shows an
/// incomplete run (before: neither file nor output, and the upload found nothing).
#[test]
fn bad_input_always_fails() {
    let ws = workspace();
    for sarif in ["", "bad.sarif"] {
        for fail in ["true", "false"] {
            let (status, outputs, stdout) = check(
                ws.path(),
                Inputs {
                    files: "tools/clean.json bad.json",
                    sarif,
                    fail,
                    ..Inputs::default()
                },
            );
            assert_eq!(
                status, 2,
                "sarif {sarif:?}, fail-on-findings: {fail}\n{stdout}"
            );
            let named = if sarif.is_empty() {
                String::new()
            } else {
                format!("sarif-file={sarif}\n")
            };
            assert_eq!(outputs, named, "sarif {sarif:?}, fail-on-findings: {fail}");
            assert!(
                stdout.contains("::error title=toolwire::toolwire check exited 2"),
                "{stdout}"
            );
            if !sarif.is_empty() {
                let text = std::fs::read_to_string(ws.path().join(sarif)).expect("the SARIF file");
                let log: serde_json::Value = serde_json::from_str(&text).expect("SARIF is JSON");
                let invocation = &log["runs"][0]["invocations"][0];
                assert_eq!(invocation["executionSuccessful"], false, "{text}");
                let at = &invocation["toolExecutionNotifications"][0]["locations"][0];
                assert_eq!(
                    at["physicalLocation"]["artifactLocation"]["uri"], "bad.json",
                    "{text}"
                );
                std::fs::remove_file(ws.path().join(sarif)).unwrap();
            }
        }
    }
}

/// The README's example says what its upload step gets after bad input as
/// [`bad_input_always_fails`] finds it: `sarif-file` set and the SARIF run marked
/// unsuccessful. Its comment said "bad input (no SARIF written) uploads nothing".
#[test]
fn the_readme_example_says_bad_input_is_uploaded() {
    let readme = std::fs::read_to_string(repo().join("README.md")).expect("README reads");
    let (_, after) = readme
        .split_once("In GitHub Actions, the composite action")
        .expect("the README's GitHub Actions section");
    let (_, block) = after.split_once("```yaml\n").expect("its YAML example");
    let (workflow, _) = block.split_once("```").expect("the example ends");
    let comment: String = workflow
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('#'))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(!comment.contains("uploads nothing"), "{comment}");
    assert!(
        comment.contains("After bad input `sarif-file` is set as well")
            && comment.contains("`executionSuccessful: false`"),
        "{comment}"
    );
    let ws = workspace();
    let (status, outputs, stdout) = check(
        ws.path(),
        Inputs {
            files: "tools/clean.json bad.json",
            sarif: "bad.sarif",
            ..Inputs::default()
        },
    );
    assert_eq!(
        (status, outputs.as_str()),
        (2, "sarif-file=bad.sarif\n"),
        "{stdout}"
    );
    let log: Value =
        serde_json::from_str(&std::fs::read_to_string(ws.path().join("bad.sarif")).unwrap())
            .expect("SARIF is JSON");
    assert_eq!(
        log["runs"][0]["invocations"][0]["executionSuccessful"],
        false
    );
}

/// A usage error (an unknown rule id) stops toolwire before any log is written: with `sarif`
/// set, no empty SARIF file is left and none is named.
#[test]
fn a_usage_error_leaves_no_sarif_file() {
    let ws = workspace();
    let (status, outputs, stdout) = check(
        ws.path(),
        Inputs {
            ignore: "no-such-rule",
            sarif: "usage.sarif",
            ..Inputs::default()
        },
    );
    assert_eq!(status, 2, "{stdout}");
    assert_eq!(outputs, "");
    assert!(!ws.path().join("usage.sarif").exists());
}

/// toolwire's error reaches the log once: the SARIF run after a failed one said it again.
#[test]
fn an_error_is_logged_once_also_with_sarif() {
    let ws = workspace();
    for (files, ignore, error) in [
        ("tools/**", "no-such-rule", "no such rule"),
        ("bad.json", "", "bad.json"),
    ] {
        let ran = check_full(
            ws.path(),
            Inputs {
                files,
                ignore,
                sarif: "out.sarif",
                ..Inputs::default()
            },
        );
        assert_eq!(ran.status, 2, "{}", ran.stdout);
        let n = ran.stderr.matches(error).count();
        assert_eq!(
            n, 1,
            "{error:?} {n} times in\n{}\n---stdout\n{}",
            ran.stderr, ran.stdout
        );
    }
}

/// Each file that could not be read is an annotation on that file, on its line and column
/// when the place gives them, with GitHub's escapes (toolwire's own since `--format github`
/// writes them; the step made them from standard error before, and tested its escaping with
/// a stub, now `report::github`'s unit test); the generic annotation stays.
#[test]
fn bad_input_is_annotated_on_its_file() {
    let ws = tempfile::tempdir().expect("workspace");
    std::fs::create_dir_all(ws.path().join("mcp")).unwrap();
    std::fs::write(ws.path().join("mcp/empty.json"), r#"{"tools": []}"#).unwrap();
    // `,` and `:` end a property unless escaped; `%` starts an escape.
    std::fs::write(ws.path().join("mcp/a,b:c%.json"), "{\n  \"type\": x}").unwrap();
    let (status, outputs, stdout) = check(
        ws.path(),
        Inputs {
            files: "mcp/*.json",
            ..Inputs::default()
        },
    );
    assert_eq!(status, 2, "{stdout}");
    assert_eq!(outputs, "");
    let lines: Vec<&str> = stdout.lines().collect();
    for want in [
        "::error file=mcp/empty.json,title=toolwire::(whole file): no tools found (the tool list is empty)",
        "::error file=mcp/a%2Cb%3Ac%25.json,line=2,col=11,title=toolwire::line 2, column 11: expected value (a bare word is not JSON: strings are quoted)",
        "::error title=toolwire::toolwire check exited 2 (bad input or usage; the log says which)",
    ] {
        assert!(lines.contains(&want), "{want:?} not in\n{stdout}");
    }
    // Once each: toolwire's own, not again from standard error.
    for file in ["mcp/empty.json", "mcp/a%2Cb%3Ac%25.json"] {
        let on_file = format!("::error file={file},");
        let n = lines.iter().filter(|l| l.starts_with(&on_file)).count();
        assert_eq!(n, 1, "{file}: {n} annotations in\n{stdout}");
    }
}

/// A note on reading a good file (a key written twice) is a notice on it, not an error: on
/// standard error it read as `toolwire: FILE: ...` and was annotated as an error when another
/// file was bad input.
#[test]
fn reading_notes_are_notices_also_beside_bad_input() {
    let ws = tempfile::tempdir().expect("workspace");
    std::fs::create_dir_all(ws.path().join("tools")).unwrap();
    let twice = r#"{"type":"object","properties":{"a":{"type":"string","type":"string"}}}"#;
    std::fs::write(ws.path().join("tools/twice.json"), twice).unwrap();
    std::fs::write(ws.path().join("tools/bad.json"), r#"{"type":"#).unwrap();
    let (status, _, stdout) = check(ws.path(), Inputs::default());
    assert_eq!(status, 2, "{stdout}");
    assert!(
        stdout.contains(
            "::notice file=tools/twice.json,line=1,col=32,title=toolwire::at /properties/a: the key `type`"
        ),
        "{stdout}"
    );
    assert!(
        !stdout.contains("::error file=tools/twice.json"),
        "{stdout}"
    );
    assert!(stdout.contains("::error file=tools/bad.json"), "{stdout}");
}

/// `ignore:` is split on commas and whitespace and never globbed: `*` reaches toolwire as
/// itself (an unknown rule, exit 2) instead of the names of the files in the workspace.
#[test]
fn ignore_is_not_globbed() {
    let ws = workspace();
    let (status, outputs, stdout) = check(
        ws.path(),
        Inputs {
            ignore: "array-items-missing, *",
            ..Inputs::default()
        },
    );
    assert_eq!(status, 2, "{stdout}");
    assert_eq!(outputs, "");
}

/// Every step's script passes shellcheck (actionlint, which .ci/run runs, lints the workflows'
/// scripts but not an action's). Without shellcheck on PATH or in `target/ci-tools/bin`
/// (where .ci/run installs it) the test says so and passes, except under CI (`CI` set), which
/// must not skip it silently.
#[test]
fn step_scripts_pass_shellcheck() {
    let local = repo().join("target/ci-tools/bin/shellcheck");
    let shellcheck = if local.is_file() {
        local
    } else {
        PathBuf::from("shellcheck")
    };
    if Command::new(&shellcheck).arg("--version").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "shellcheck not found under CI (.ci/run installs it into target/ci-tools)"
        );
        eprintln!("shellcheck not found: the action's scripts were not linted");
        return;
    }
    let text = std::fs::read_to_string(repo().join(".github/actions/check/action.yml"))
        .expect("action.yml reads");
    let action: Value = serde_saphyr::from_str(&text).expect("action.yml is YAML");
    let steps = action["runs"]["steps"].as_array().expect("steps");
    let mut linted = 0;
    for s in steps {
        let Some(script) = s["run"].as_str() else {
            continue;
        };
        assert_eq!(s["shell"], "bash", "step {}", s["name"]);
        let mut file = tempfile::NamedTempFile::new().expect("script file");
        file.write_all(script.as_bytes()).expect("script written");
        let out = Command::new(&shellcheck)
            .args(["--shell=bash", "--format=gcc"])
            .arg(file.path())
            .output()
            .expect("shellcheck runs");
        assert!(
            out.status.success(),
            "step {}: {}",
            s["name"],
            String::from_utf8_lossy(&out.stdout)
        );
        linted += 1;
    }
    assert_eq!(linted, 3, "the action has three shell steps");
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

/// Every source file counts, `src/target/` (the provider modules) among them; only the build
/// folder `target/` and `.git` at the top do not.
#[test]
fn the_cache_key_covers_every_source_folder_and_not_the_build() {
    let root = tempfile::tempdir().expect("a temp dir");
    let write = |path: &str, text: &str| {
        let p = root.path().join(path);
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("folders");
        std::fs::write(p, text).expect("written");
    };
    write(".github/actions/check/action.yml", "name: check\n");
    write("src/target/openai.rs", "// v1\n");
    write("target/release/toolwire", "binary v1");
    write(".git/HEAD", "ref: main\n");
    let action_path = root.path().join(".github/actions/check");
    let action_path = action_path.to_str().expect("a UTF-8 path");
    let rev = || {
        let (status, outputs, err) = run(
            &step("Locate toolwire's source"),
            root.path(),
            &[("GITHUB_ACTION_PATH", action_path)],
        );
        assert_eq!(status, 0, "{err}");
        outputs
            .lines()
            .find_map(|l| l.strip_prefix("rev="))
            .expect("a rev output")
            .to_string()
    };
    let first = rev();
    write("target/release/toolwire", "binary v2");
    write(".git/HEAD", "ref: other\n");
    assert_eq!(rev(), first, "the build and .git are not source");
    write("src/target/openai.rs", "// v2\n");
    assert_ne!(rev(), first, "a provider module is source");
}

/// The binary is saved right after a build, not in `actions/cache`'s post step, which saves
/// only when the job succeeds: while the check failed the job on findings, every run built
/// toolwire again. Restore and save are one pinned commit of actions/cache, under one key.
#[test]
fn the_binary_is_cached_after_the_build_whatever_the_check_finds() {
    let text = std::fs::read_to_string(repo().join(".github/actions/check/action.yml"))
        .expect("action.yml reads");
    let action: Value = serde_saphyr::from_str(&text).expect("action.yml is YAML");
    let steps = action["runs"]["steps"].as_array().expect("steps");
    let uses = |s: &Value| s["uses"].as_str().unwrap_or_default().to_string();
    let at = |prefix: &str| {
        steps
            .iter()
            .position(|s| uses(s).starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix} step"))
    };
    assert!(
        !steps.iter().any(|s| uses(s).starts_with("actions/cache@")),
        "the combined cache action saves only on success"
    );
    let (restore, save) = (at("actions/cache/restore@"), at("actions/cache/save@"));
    let build = steps
        .iter()
        .position(|s| s["name"] == "Build toolwire")
        .expect("the build step");
    assert_eq!(
        (restore + 1, build + 1),
        (build, save),
        "restore, build, save in a row"
    );
    let check = steps
        .iter()
        .position(|s| s["name"] == "Check the tool definitions")
        .expect("the check step");
    assert!(save < check, "saved before the check can fail the job");
    let miss = "steps.cache.outputs.cache-hit != 'true'";
    assert_eq!(steps[restore]["id"], "cache");
    assert_eq!(steps[build]["if"], miss);
    assert_eq!(steps[save]["if"], miss);
    assert_eq!(
        steps[restore]["with"], steps[save]["with"],
        "one path, one key"
    );
    let sha = |i: usize| uses(&steps[i]).rsplit_once('@').map(|(_, r)| r.to_string());
    assert_eq!(sha(restore), sha(save));
}
