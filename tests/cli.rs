//! CLI cases (trycmd): each `tests/cli/<command>/*.toml` pins args, exit code and output.
//! They run with the repository root as the working directory.

#[test]
fn cli_cases() {
    // The `probe` cases write their run logs under RUNS (a TOML case cannot name a temporary
    // folder): removed when the cases end, passed or failed, so that runs do not pile up.
    // Only this test writes there, and its cases all end before the guard goes.
    let _runs = RemovedOnDrop(std::path::Path::new(RUNS));
    trycmd::TestCases::new().case("tests/cli/*/*.toml").run();
}

/// The folder, relative to the repository root, under which `tests/cli/probe/*.toml` write
/// their run logs (`--runs-dir target/trycmd-runs/<case>`).
const RUNS: &str = "target/trycmd-runs";

/// Removes its folder, with everything in it, when dropped (a panic included).
struct RemovedOnDrop<'a>(&'a std::path::Path);

impl Drop for RemovedOnDrop<'_> {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0);
    }
}

/// Every `--runs-dir` of the CLI cases is under [`RUNS`], which `cli_cases` removes: a case
/// writing its run logs elsewhere would leave a new file behind on every run.
#[test]
fn cli_cases_write_run_logs_only_under_the_removed_folder() {
    let mut seen = 0;
    for case in std::fs::read_dir("tests/cli/probe").expect("tests/cli/probe") {
        let path = case.expect("a case").path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a case reads");
        let words: Vec<&str> = text
            .split(|c: char| c == ',' || c.is_whitespace() || c == '[' || c == ']')
            .map(|w| w.trim_matches(['"', '\'']))
            .filter(|w| !w.is_empty())
            .collect();
        for pair in words.windows(2).filter(|p| p[0] == "--runs-dir") {
            let dir = pair[1];
            seen += 1;
            assert!(
                dir.starts_with(&format!("{RUNS}/")),
                "{}: --runs-dir {dir} is not under {RUNS}",
                path.display()
            );
        }
    }
    assert!(
        seen > 0,
        "no case names a --runs-dir: the scan no longer reads them"
    );
}

/// A reader that goes away (`toolwire rule | head -1`) ends the output quietly with the
/// status a shell gives SIGPIPE, for every command that prints a lot: never a panic.
#[test]
fn a_closed_standard_output_ends_quietly() {
    use std::process::{Command, Stdio};
    let explain =
        "function_declarations[15].parameters.properties[deliverables].items: missing field";
    let commands: [&[&str]; 3] = [
        &["rule"],
        &["explain", explain, "--format", "json"],
        &["repair", "tests/cli/repair/gemini-types.json"],
    ];
    for args in commands {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("toolwire starts");
        // Close the read end before the command writes.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("toolwire ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
    }
}

/// Output that cannot be written (a full device) is one line naming the failure and exit
/// status 2, never a panic. Needs `/dev/full` to be the Linux device: some sandboxes replace
/// device nodes by regular files, and there the test says so instead of asserting.
#[test]
fn an_unwritable_standard_output_is_a_clear_error() {
    use std::os::unix::fs::FileTypeExt;
    use std::process::{Command, Stdio};
    let is_device = std::fs::metadata("/dev/full").is_ok_and(|m| m.file_type().is_char_device());
    if !is_device {
        eprintln!("not run: /dev/full is not the full device on this machine");
        return;
    }
    for args in [
        &["rule", "--list"][..],
        &["repair", "tests/cli/repair/gemini-types.json"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(args)
            .stdout(Stdio::from(full))
            .stderr(Stdio::piped())
            .output()
            .expect("toolwire runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("toolwire: cannot write to stdout: "),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// A standard output closed by the caller (`toolwire check x.json >&-`) is refused with exit
/// status 2 and a line saying so: the result would be lost while the status says all is well.
/// A `/dev/null` opened for reading and writing (as std reopens a closed fd 1, and as Python's
/// `subprocess.DEVNULL` gives it) is a chosen destination: output discarded, exit 0.
#[cfg(target_os = "linux")]
#[test]
fn a_closed_standard_output_is_refused_not_silently_lost() {
    use std::process::{Command, Stdio};
    let args = [
        "check",
        "--profiles",
        "tests/cli/check/profiles.json",
        "tests/cli/check/clean.json",
    ];
    let out = Command::new("sh")
        .args([
            "-c",
            r#"exec "$0" "$@" >&-"#,
            env!("CARGO_BIN_EXE_toolwire"),
        ])
        .args(args)
        .stderr(Stdio::piped())
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("toolwire: cannot write to stdout: it is closed"),
        "{stderr}"
    );

    let devnull = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
        .expect("/dev/null opens");
    let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(args)
        .stdout(Stdio::from(devnull))
        .stderr(Stdio::piped())
        .output()
        .expect("toolwire runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr, "");
}

/// `check --corpus-report FILE` naming one of the checked files (through another spelling of
/// its path, too) is refused before anything is written, as `compile -o` naming its input is:
/// exit 2, the input left as it was.
#[test]
fn a_corpus_report_never_overwrites_an_input() {
    use std::process::Command;
    let dir = tempfile::tempdir().expect("temporary directory");
    let tools = dir.path().join("tools.jsonl");
    let text = "{\"name\":\"a\",\"parameters\":{\"type\":\"object\"}}\n";
    std::fs::write(&tools, text).expect("tools written");
    let other = dir.path().join("other.json");
    std::fs::write(&other, "{\"type\":\"object\"}").expect("schema written");
    let respelled = dir.path().join(".").join("tools.jsonl");
    // A hard link is another name for the same file.
    let linked = dir.path().join("linked.jsonl");
    std::fs::hard_link(&tools, &linked).expect("hard link made");
    for report in [&tools, &respelled, &linked] {
        let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .arg("check")
            .arg("--corpus-report")
            .arg(report)
            .arg(&other)
            .arg(&tools)
            .output()
            .expect("toolwire runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("is the input"), "{stderr}");
        assert!(out.stdout.is_empty());
        assert_eq!(std::fs::read_to_string(&tools).expect("tools kept"), text);
    }
}

/// `repair -o LINK`, LINK a hard link of the input, keeps the refused tools as `-o` naming the
/// input does, but the atomic write makes LINK a file of its own: the note names LINK as the
/// file written and says the input is left as it was (before: "kept unchanged in in.json,
/// which was the input", though in.json was untouched).
#[test]
fn repair_to_a_hard_link_of_the_input_names_the_file_written() {
    use std::process::Command;
    let dir = tempfile::tempdir().expect("temporary directory");
    let input = dir.path().join("in.json");
    // `a b` is renamed; the recursive `$ref` is refused and kept.
    let text = r##"[{"name":"a b","parameters":{"type":"object","properties":{"x":{"type":"string"}}}},
{"name":"r","parameters":{"type":"object","properties":{"n":{"$ref":"#"}}}}]"##;
    std::fs::write(&input, text).expect("input written");
    let linked = dir.path().join("hard.json");
    std::fs::hard_link(&input, &linked).expect("hard link made");
    let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .arg("repair")
        .arg(&input)
        .arg("-o")
        .arg(&linked)
        .output()
        .expect("toolwire runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let (i, l) = (input.display(), linked.display());
    assert!(
        stdout.contains(&format!(
            "note: 1 refused tool kept unchanged in {l}, a hard link of the input {i} (as with \
             `--keep-unrepairable`); {l} was written as a new file, so {i} is left as it was"
        )),
        "{stdout}"
    );
    assert!(!stdout.contains("which was the input"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&input).expect("input kept"), text);
    let written = std::fs::read_to_string(&linked).expect("output written");
    assert!(
        written.contains("a_b") && written.contains("\"r\""),
        "{written}"
    );
}

/// `check --corpus-report FILE` with an input that cannot be read writes no report (before:
/// the report of the files read replaced the old one and read as the whole corpus): exit 2,
/// the old file kept, the reason said.
#[test]
fn a_corpus_report_is_not_written_when_an_input_is_unreadable() {
    use std::process::Command;
    let dir = tempfile::tempdir().expect("temporary directory");
    let report = dir.path().join("corpora.md");
    std::fs::write(&report, "OLD\n").expect("old report written");
    let good = dir.path().join("good.json");
    std::fs::write(&good, "{\"type\":\"object\"}").expect("schema written");
    let not_json = dir.path().join("bad.json");
    std::fs::write(&not_json, "{\"type\":").expect("bad file written");
    let missing = dir.path().join("missing.json");
    for bad in [&not_json, &missing] {
        let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .arg("check")
            .arg("--corpus-report")
            .arg(&report)
            .arg(&good)
            .arg(bad)
            .output()
            .expect("toolwire runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("not written: 1 of 2 inputs could not be read"),
            "{stderr}"
        );
        assert_eq!(std::fs::read_to_string(&report).expect("kept"), "OLD\n");
    }
}

/// `check --corpus-report FILE -` names what it read from standard input "standard input", as
/// the findings do (before: a file `-`).
#[test]
fn a_corpus_report_names_standard_input_so() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().expect("temporary directory");
    let report = dir.path().join("corpora.md");
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .arg("check")
        .arg("--corpus-report")
        .arg(&report)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("toolwire runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"{\"type\":\"object\"}")
        .expect("schema written");
    // Exit 1: the bare object has findings under `portable`; the report is written anyway.
    assert_eq!(child.wait().expect("toolwire ends").code(), Some(1));
    let md = std::fs::read_to_string(&report).expect("report written");
    assert!(md.contains("over 1 file (standard input) with"), "{md}");
    assert!(md.contains("\n## standard input\n"), "{md}");
}

/// Ctrl-C during an engines-only probe (in-process work, no network to wait on) ends the run
/// between cases with the interrupted status, leaving a log of what was observed and no
/// footer; it used to be noticed only after the last case.
#[test]
fn ctrl_c_stops_an_engines_only_probe() {
    stop_an_engines_only_probe("-INT", 130, "interrupted");
}

/// SIGTERM (a timeout, `docker stop`, a CI runner cancelling the job) ends the run as Ctrl-C
/// does, with 143 (before: the process died with the signal, and no summary was written).
#[test]
fn sigterm_stops_an_engines_only_probe_as_ctrl_c_does() {
    stop_an_engines_only_probe("-TERM", 143, "terminated");
}

fn stop_an_engines_only_probe(signal: &str, status: i32, said: &str) {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let runs = tempfile::tempdir().expect("temporary directory");
    let summary = tempfile::tempdir().expect("temporary directory");
    let summary = summary.path().join("summary.json");
    let child = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(["probe", "--offline", "--no-progress", "--runs-dir"])
        .arg(runs.path())
        .arg("--summary-json")
        .arg(&summary)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("toolwire starts");
    let lines = || -> usize {
        std::fs::read_dir(runs.path())
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| {
                std::fs::read_to_string(e.path())
                    .unwrap_or_default()
                    .lines()
                    .count()
            })
            .sum()
    };
    // Signal once observations are being written (the handler is in place by then).
    let start = Instant::now();
    while lines() < 3 && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let signalled = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(signalled.success());
    let out = child.wait_with_output().expect("toolwire ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(status), "{stderr}");
    assert!(stderr.contains(said), "{stderr}");
    let log = std::fs::read_dir(runs.path())
        .expect("the runs folder")
        .flatten()
        .next()
        .expect("a run log");
    let text = std::fs::read_to_string(log.path()).expect("the log reads");
    assert!(text.lines().count() >= 3);
    assert!(!text.contains("\"type\":\"footer\""), "{text}");
    // The summary names the log and says how the run ended: a scheduled job that was
    // cancelled had no summary and guessed its log from the files git did not know.
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).expect("the summary is written"))
            .expect("the summary is JSON");
    assert_eq!(
        summary["run_log"],
        log.path().display().to_string(),
        "{summary}"
    );
    // The message names the log too (it said "the newest run log in" the folder).
    assert!(
        stderr.contains(&format!(
            "the run log {} has no footer",
            log.path().display()
        )),
        "{stderr}"
    );
    assert_eq!(summary["complete"], false, "{summary}");
    assert_eq!(summary["exit_status"], status, "{summary}");
    assert_eq!(
        summary["live_targets"],
        serde_json::Value::Null,
        "{summary}"
    );
}

/// Output for people shows a control character from the file as `\u{1b}` (trycmd's cases
/// cannot show the backslash: it reads `\` as a Windows path separator), and no control or
/// bidi character reaches the terminal, in every command that quotes the file: check, repair,
/// args, explain, and the error lines.
#[test]
fn control_characters_from_input_are_escaped_in_output_for_people() {
    use std::process::Command;
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(args)
            .output()
            .expect("toolwire runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let raw = |c: char| {
            (c.is_control() && c != '\n')
                || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        };
        assert!(!text.chars().any(raw), "{args:?}: {text:?}");
        text
    };
    let check = run(&["check", "tests/cli/check/control-chars.json"]);
    assert!(
        check.contains(r"  \u{1b}[2J\u{1b}]0;owned\u{7}red\u{9b}31m\u{202e}gnp.exe [tool 0]"),
        "{check}"
    );
    assert!(
        check.contains(r"/properties/a\u{1b}[31m\nb/const"),
        "{check}"
    );
    let github = run(&[
        "check",
        "--format",
        "github",
        "tests/cli/check/control-chars.json",
    ]);
    assert!(
        github.contains(r"at /properties/a\u{1b}[31m\nb/const"),
        "{github}"
    );
    // SARIF viewers show `message.text` (and logical locations) as text: escaped there too
    // (JSON escaping alone keeps a bidi override raw); `properties` keep the data as it is.
    let sarif = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args([
            "check",
            "--format",
            "sarif",
            "tests/cli/check/name-control-bidi.json",
        ])
        .output()
        .expect("toolwire runs");
    let v: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("SARIF is JSON");
    let location = &v["runs"][0]["results"][0]["locations"][0]["logicalLocations"][0];
    assert_eq!(location["name"], r"t\u{7}\u{202e}é…");
    assert_eq!(
        v["runs"][0]["results"][0]["properties"]["tool"],
        "t\u{7}\u{202e}é…"
    );
    let texts: Vec<&str> = v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["message"]["text"].as_str().unwrap())
        .collect();
    assert!(!texts.is_empty());
    for t in &texts {
        assert!(
            !t.chars().any(|c| c.is_control() || c == '\u{202e}'),
            "{t:?}"
        );
        assert!(t.starts_with(r"t\u{7}\u{202e}é…: "), "{t:?}");
    }
    assert!(
        texts
            .iter()
            .any(|t| t.contains("has control characters (U+0007)"))
    );
    assert!(
        texts
            .iter()
            .any(|t| t.contains("bidi control characters (U+202E)"))
    );
    let repair = run(&["repair", "tests/cli/repair/control-chars.json"]);
    assert!(
        repair.contains(r"tool #0 `\u{1b}[2Jwipe`: repaired"),
        "{repair}"
    );
    let dir = tempfile::tempdir().expect("temporary directory");
    let schema = dir.path().join("s.json");
    std::fs::write(
        &schema,
        r#"{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}"#,
    )
    .unwrap();
    let call = r#"{"\u001b]8;;http://x\u0007b": 1}"#;
    let args = run(&["args", "--schema", schema.to_str().unwrap(), "--call", call]);
    assert!(args.contains(r"\u{1b}]8;;http://x\u{7}b"), "{args}");
    let explain = run(&[
        "explain",
        "Invalid schema for function 'f\u{1b}[31m': In context=('properties', 'x')",
    ]);
    assert!(explain.contains(r"f\u{1b}[31m"), "{explain}");
    // Google's words, quoted with the place they name.
    let google = run(&[
        "explain",
        "Unable to submit request because function_declarations[0].parameters.properties[x\u{1b}[2J].items: missing field",
    ]);
    assert!(
        google.contains(r"google said: Unable to submit request because function_declarations[0].parameters.properties[x\u{1b}[2J].items"),
        "{google}"
    );
    let unknown = dir.path().join("u.json");
    std::fs::write(&unknown, r#"{"\u001b[31mkey": 1}"#).unwrap();
    let error = run(&["check", unknown.to_str().unwrap()]);
    assert!(error.contains(r"(keys: \u{1b}[31mkey)"), "{error}");
}

/// Each SARIF rule entry carries the rule's documentation, made by the same code as
/// `toolwire rule ID` (code scanning shows `help` and `fullDescription` on an alert's page).
#[test]
fn sarif_rules_carry_the_rules_documentation() {
    use std::process::Command;
    let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args([
            "check",
            "--format",
            "sarif",
            "tests/cli/check/findings.json",
        ])
        .output()
        .expect("toolwire runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let rules = v["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(!rules.is_empty());
    for r in rules {
        let id = r["id"].as_str().unwrap();
        let doc = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(["rule", id])
            .output()
            .expect("toolwire runs");
        assert_eq!(
            r["help"]["text"],
            String::from_utf8_lossy(&doc.stdout).as_ref()
        );
        let full = r["fullDescription"]["text"].as_str().unwrap();
        assert!(
            doc.stdout
                .starts_with(format!("{id}\n\nWhat it checks:\n  {full}\n").as_bytes())
        );
        let short = r["shortDescription"]["text"].as_str().unwrap();
        assert!(full.starts_with(short) && short.ends_with('.'), "{short:?}");
        let markdown = r["help"]["markdown"].as_str().unwrap();
        for part in [
            "**What it checks:**",
            "**Why (from the evidence):**",
            "**Fix:**",
        ] {
            assert!(markdown.contains(part), "{part} not in {markdown}");
        }
        assert!(markdown.contains("```\n{"), "{markdown}");
        assert!(r.get("helpUri").is_none());
    }
}

/// A SARIF artifact URI is a relative reference that decodes back to the file's path: `#`,
/// `:` and spaces percent-encoded.
#[test]
fn sarif_artifact_uris_round_trip_reserved_characters() {
    use std::process::Command;
    let dir = tempfile::tempdir().expect("temporary directory");
    let name = "a#b:c d\u{e9}.json";
    std::fs::write(
        dir.path().join(name),
        r#"{"type":"object","properties":{"q":{"const":"x"}}}"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(["check", "--format", "sarif", name])
        .current_dir(dir.path())
        .output()
        .expect("toolwire runs");
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for r in results {
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert_eq!(uri, "a%23b%3Ac%20d%C3%A9.json");
    }
}

/// A copy of the committed `reports/` (its files, `documented/` and `runs/`) in `dir`.
fn copy_reports(dir: &std::path::Path) -> std::path::PathBuf {
    let reports = dir.join("reports");
    let copy = |from: &str, to: &std::path::Path| {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    };
    copy("reports", &reports);
    copy("reports/documented", &reports.join("documented"));
    copy("reports/runs", &reports.join("runs"));
    reports
}

/// Evidence that cannot be read stops `probe` before its first request (exit 2, naming the
/// file and line), not after the run has spent its requests and written its log.
#[test]
fn probe_refuses_unreadable_evidence_before_probing() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let reports = copy_reports(dir.path());
    let runs = reports.join("runs");
    std::fs::write(
        runs.join("20200101T000000Z-0bad.jsonl"),
        "{\"type\":\"header\"}\n",
    )
    .unwrap();
    let before = std::fs::read_dir(&runs).unwrap().count();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(["probe", "--offline", "--no-progress", "--case", "control"])
        .arg("--reports")
        .arg(&reports)
        .output()
        .expect("toolwire runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("20200101T000000Z-0bad.jsonl: line 1, column 1: missing field `run`"),
        "{stderr}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(std::fs::read_dir(&runs).unwrap().count(), before);
}

/// A run log whose last line was cut mid-write (a probe killed while writing) does not stop
/// `rules`: the line is named in a warning and left out, the rest folded in. Corruption
/// anywhere else still stops it (exit 2, naming the file and line).
#[test]
fn rules_tolerates_only_a_cut_short_last_line() {
    use std::process::Command;
    let dir = tempfile::tempdir().expect("temporary directory");
    let reports = copy_reports(dir.path());
    // The newest committed log, with a copy sorted after every other whose last line is cut.
    let mut logs: Vec<_> = std::fs::read_dir("reports/runs")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    logs.sort();
    let newest = logs.last().expect("a committed run log");
    let run = newest.file_stem().unwrap().to_string_lossy().into_owned();
    // A run of its own: one run in two files is refused.
    let text = std::fs::read_to_string(newest)
        .unwrap()
        .replace(&run, "99991231T000000Z-cut0");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 3);
    let cut = format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..20]);
    let cut_path = reports.join("runs/99991231T000000Z-cut0.jsonl");
    std::fs::write(&cut_path, cut).unwrap();
    let rules = || {
        Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .arg("rules")
            .arg("--reports")
            .arg(&reports)
            .output()
            .expect("toolwire runs")
    };
    let out = rules();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("99991231T000000Z-cut0.jsonl: line 3 was cut short mid-write"),
        "{stderr}"
    );
    // The same cut in the middle of the file is corruption.
    let bad = format!("{}\n{}\n{}\n", lines[0], &lines[1][..20], lines[2]);
    std::fs::write(&cut_path, bad).unwrap();
    let out = rules();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("99991231T000000Z-cut0.jsonl: line 2"),
        "{stderr}"
    );
}

/// `rules` says when the profiles it writes are not the ones built into the binary (which
/// `check` and the other commands use without `--profiles`): a contributor's new evidence
/// is otherwise not seen by `check` until a rebuild, with nothing to say so.
#[test]
fn rules_says_when_the_profiles_written_are_not_the_built_in_ones() {
    use std::process::Command;
    let dir = tempfile::tempdir().expect("temporary directory");
    let reports = copy_reports(dir.path());
    let rules = || {
        let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .arg("rules")
            .arg("--reports")
            .arg(&reports)
            .output()
            .expect("toolwire runs");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let note = "differs from the profiles built into this toolwire";
    let stderr = rules();
    assert!(!stderr.contains(note), "{stderr}");
    // Without the probe runs, the engines' verdicts go, and so the profiles change.
    for log in std::fs::read_dir(reports.join("runs")).unwrap() {
        std::fs::remove_file(log.unwrap().path()).unwrap();
    }
    let stderr = rules();
    let profile = reports.join("profile.json");
    assert!(
        stderr.contains(&format!("note: {} {note}", profile.display()))
            && stderr.contains(&format!("--profiles {}", profile.display())),
        "{stderr}"
    );
}

/// A provider's answer that quotes a key (OpenAI's `Incorrect API key provided: …`) is
/// redacted in every format `explain` writes, whether the key is one read from the
/// environment or only key-shaped; so is an error line that quotes one.
#[test]
fn explain_never_prints_a_key() {
    use std::process::Command;
    // Key-shaped fakes, built at run time so no key-shaped literal is tracked.
    let alnum: String = ('A'..='Z').chain('0'..='5').collect();
    let shaped = format!("sk-{}-{alnum}", "proj");
    let env_only = format!("tw-canary-{}", "e7d1c0ffee42");
    let dir = tempfile::tempdir().expect("temporary directory");
    let error = dir.path().join("keyerr.json");
    let message = format!(
        "Incorrect API key provided: {shaped}. Also {env_only}. Invalid schema for function \
         'get_weather': In context=(), array schema missing items."
    );
    std::fs::write(
        &error,
        serde_json::json!({"error": {"message": message}}).to_string(),
    )
    .unwrap();
    let request = dir.path().join("openai.json");
    std::fs::write(
        &request,
        r#"[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{"tags":{"type":"array"}}}}}]"#,
    )
    .unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(args)
            .env("OPENAI_API_KEY", &shaped)
            .env("ANTHROPIC_API_KEY", &env_only)
            .output()
            .expect("toolwire runs");
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let (req, err) = (request.to_str().unwrap(), error.to_str().unwrap());
    for format in ["human", "json"] {
        let text = run(&["explain", "--format", format, "--request", req, err]);
        assert!(!text.contains(&shaped), "{format}: {text}");
        assert!(!text.contains(&alnum), "{format}: {text}");
        assert!(!text.contains(&env_only), "{format}: {text}");
        assert!(
            text.contains("Incorrect API key provided: [REDACTED]"),
            "{format}: {text}"
        );
        assert!(text.contains("array-items-missing"), "{format}: {text}");
    }
    // Only key-shaped (not in the environment of this run): still redacted.
    let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(["explain", "--request", req, err])
        .env_remove("OPENAI_API_KEY")
        .output()
        .expect("toolwire runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains(&alnum), "{text}");
    // An error line quoting the argument.
    let missing = format!("{}/{shaped}.json", dir.path().display());
    let text = run(&["explain", &missing]);
    assert!(text.contains("toolwire: "), "{text}");
    assert!(!text.contains(&alnum), "{text}");
}

/// A folder that is there but refuses a new file (`/proc` on Linux) gets the OS's error, not
/// "does not exist". Needs Linux's /proc; elsewhere the test says so instead of asserting.
#[test]
fn a_refusing_output_folder_gets_the_os_error() {
    use std::process::Command;
    if !std::path::Path::new("/proc/version").is_file() {
        eprintln!("not run: no /proc/version on this machine");
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args([
            "repair",
            "tests/cli/repair/gemini-types.json",
            "-o",
            "/proc/version",
        ])
        .output()
        .expect("toolwire runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("toolwire: /proc/version: cannot create a file in the folder /proc: "),
        "{stderr}"
    );
    assert!(stderr.contains("(os error "), "{stderr}");
    assert!(!stderr.contains("does not exist"), "{stderr}");
}

/// `args` quotes the model's values in its problems and retry message: a key-shaped value is
/// redacted there (human and JSON), and the `arguments` data in JSON is kept as sent.
#[test]
fn args_messages_never_print_a_key() {
    use std::process::Command;
    // Built at run time so no key-shaped literal is tracked.
    let key = format!("sk-{}", "abc1".repeat(6));
    let dir = tempfile::tempdir().expect("temporary directory");
    let schema = dir.path().join("s.json");
    std::fs::write(
        &schema,
        r#"{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false}"#,
    )
    .unwrap();
    let call = serde_json::json!({"a": key}).to_string();
    let run = |format: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(["args", "--format", format, "--schema"])
            .arg(&schema)
            .args(["--call", &call])
            .output()
            .expect("toolwire runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let human = run("human");
    assert!(!human.contains(&key), "{human}");
    assert!(human.contains("\"[REDACTED]\" is a string"), "{human}");
    let json: serde_json::Value = serde_json::from_str(&run("json")).expect("JSON");
    assert!(!json["message"].to_string().contains(&key), "{json}");
    assert!(!json["problems"].to_string().contains(&key), "{json}");
    assert_eq!(json["arguments"]["a"], key.as_str());
}

/// `repair` never writes a file it cannot read back: a schema whose inlined `$ref` nests 509
/// levels is repaired as a bare schema, but refused inside OpenAI's envelope, which adds 4
/// levels (`/tools/0/function/parameters`) and would put the file past the 512-level cap.
#[test]
fn repair_counts_the_envelope_against_the_nesting_cap() {
    use serde_json::{Value, json};
    use std::process::Command;
    fn chain(levels: usize, leaf: Value) -> Value {
        (0..levels).fold(
            leaf,
            |v, _| json!({"type": "object", "properties": {"n": v}}),
        )
    }
    // Inlined: root and `properties` (2), 126 objects of 2 levels each, then the 127 of `D`
    // and its leaf: 2 + 252 + 254 + 1 = 509 levels.
    let schema = json!({"type": "object",
        "properties": {"n": chain(126, json!({"$ref": "#/$defs/D"}))},
        "$defs": {"D": chain(127, json!({"type": "string"}))}});
    let dir = tempfile::tempdir().expect("temporary directory");
    let bare = dir.path().join("bare.json");
    let wrapped = dir.path().join("tools.json");
    let tool = json!({"type": "function", "function": {"name": "deep", "description": "d",
        "parameters": schema}});
    std::fs::write(&bare, schema.to_string()).expect("written");
    std::fs::write(&wrapped, json!({"tools": [tool]}).to_string()).expect("written");
    let run = |args: &[&std::path::Path]| {
        Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(args)
            .output()
            .expect("toolwire runs")
    };
    let out_bare = dir.path().join("bare.out.json");
    let repaired = run(&["repair".as_ref(), &bare, "-o".as_ref(), &out_bare]);
    let stderr = String::from_utf8_lossy(&repaired.stderr);
    assert_eq!(repaired.status.code(), Some(0), "{stderr}");
    let read_back = run(&["check".as_ref(), &out_bare]);
    assert_ne!(
        read_back.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&read_back.stderr)
    );
    let out_wrapped = dir.path().join("tools.out.json");
    let refused = run(&["repair".as_ref(), &wrapped, "-o".as_ref(), &out_wrapped]);
    // With `-o FILE` the report is on standard output.
    let report = String::from_utf8_lossy(&refused.stdout);
    assert_eq!(refused.status.code(), Some(1), "{report}");
    assert!(
        report.contains("cannot repair: repaired, the schema would nest 509 levels, 513 in the file with the 4 above it: past the 512 levels every command reads [nesting-too-deep]"),
        "{report}"
    );
    assert!(!out_wrapped.exists());
}

/// `repair --format json` carries what the human report says: every outcome's count (zeros
/// too: they were left out) and the notes on what no repair changes (a request of too many
/// tools, said only in the human report).
#[test]
fn the_repair_json_report_carries_zero_counts_and_request_notes() {
    let dir = tempfile::tempdir().unwrap();
    let tools: Vec<serde_json::Value> = (0..129)
        .map(|i| {
            serde_json::json!({"type": "function", "function": {"name": format!("t{i}"),
                "description": "d", "parameters": {"type": "object",
                "properties": {"a": {"type": "string"}}}}})
        })
        .collect();
    let file = dir.path().join("tools.json");
    std::fs::write(&file, serde_json::to_string(&tools).unwrap()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(["repair", "--format", "json", "-o"])
        .arg(dir.path().join("out.json"))
        .arg(&file)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(
        report["summary"],
        serde_json::json!({"unchanged": 129, "repaired": 0, "refused": 0})
    );
    let notes = report["request_notes"].as_array().expect("request notes");
    assert!(
        notes[0].as_str().is_some_and(
            |n| n.starts_with("129 tools in one request") && n.contains("(too-many-tools)")
        ),
        "{notes:?}"
    );
}

/// `toolwire emulate` on a free loopback port (it ends by itself after two minutes, should a
/// test fail before it is killed), with its address.
fn emulator() -> (std::process::Child, String) {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(["emulate", "--listen", "127.0.0.1:0", "--exit-after", "120"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the emulator starts");
    let mut out = std::io::BufReader::new(child.stdout.take().expect("its output"));
    let mut first = String::new();
    out.read_line(&mut first)
        .expect("the emulator says where it listens");
    // Drained to its end: with the pipe closed, its next line would end it.
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr = first
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_string();
    (child, addr)
}

/// `toolwire probe` of the control against the emulator at `addr` for each of `targets`
/// (id, emulator service), with only `env` set. Returns the status, standard output and the
/// run logs written.
fn probe_emulated(
    addr: &str,
    targets: &[(&str, &str)],
    env: &[(&str, &str)],
) -> (Option<i32>, String, usize) {
    let runs = tempfile::tempdir().expect("temporary directory");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"));
    cmd.args([
        "probe",
        "--no-progress",
        "--case",
        "control",
        "--retries",
        "0",
    ])
    .arg("--runs-dir")
    .arg(runs.path())
    .env_clear()
    .envs(env.iter().copied());
    for (id, service) in targets {
        cmd.args(["--target", id, "--base-url"])
            .arg(format!("{id}=http://{addr}/{service}"));
    }
    let out = cmd.output().expect("toolwire runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    let logs = std::fs::read_dir(runs.path())
        .expect("the runs folder")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .count();
    (out.status.code(), stdout, logs)
}

/// A target whose key is set but refused (the emulator refuses `tw-invalid…` keys as the
/// provider refuses a wrong one) fails the run with exit 3, and the summary names each such
/// target and the variable its key came from; the run log is still written. An expired key
/// in scheduled CI used to leave the run green.
#[test]
fn a_refused_key_is_named_and_fails_the_probe() {
    let (mut emu, addr) = emulator();
    let openai_key = "tw-invalid-key-openai-1";
    let google_key = "tw-invalid-key-google-2";
    let (status, stdout, logs) = probe_emulated(
        &addr,
        &[
            ("openai/chat", "openai"),
            ("gemini/v1beta/parameters", "gemini"),
            ("anthropic/messages", "anthropic"),
        ],
        &[
            ("OPENAI_API_KEY", openai_key),
            // The second of Gemini's variables: the summary names the one that was set.
            ("GOOGLE_API_KEY", google_key),
            ("ANTHROPIC_API_KEY", "tw-emulator-key-1"),
        ],
    );
    emu.kill().ok();
    emu.wait().ok();
    assert_eq!(status, Some(3), "{stdout}");
    let refused: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("its credential was refused"))
        .collect();
    assert_eq!(refused.len(), 2, "{stdout}");
    assert!(
        refused[0].starts_with("gemini/v1beta/parameters: its credential was refused (auth: ")
            && refused[0].ends_with("check GOOGLE_API_KEY (expired, revoked or rotated?)"),
        "{stdout}"
    );
    assert!(
        refused[1].starts_with("openai/chat: its credential was refused (auth: 401 ")
            && refused[1].ends_with("check OPENAI_API_KEY (expired, revoked or rotated?)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("2 target(s) could not authenticate with the credential set: exit 3"),
        "{stdout}"
    );
    // The valid key's target is not named, and no key is printed.
    assert!(
        !stdout.contains("anthropic/messages: its credential"),
        "{stdout}"
    );
    assert!(
        !stdout.contains(openai_key) && !stdout.contains(google_key),
        "{stdout}"
    );
    assert_eq!(logs, 1, "the run log is kept: {stdout}");
    assert!(stdout.contains("run log: "), "{stdout}");
}

/// Without keys nothing is refused: Gemini's pre-auth probe meets its expected 403 and
/// Vertex's discovery its 401 (no credential was sent), and the run exits 0.
#[test]
fn a_keyless_probe_meets_auth_and_exits_0() {
    let (mut emu, addr) = emulator();
    let (status, stdout, logs) = probe_emulated(
        &addr,
        &[
            ("gemini/v1beta/parameters", "gemini"),
            ("vertex/v1/parameters", "vertex"),
        ],
        &[("GOOGLE_CLOUD_PROJECT", "tw-test-project")],
    );
    emu.kill().ok();
    emu.wait().ok();
    assert_eq!(status, Some(0), "{stdout}");
    assert!(!stdout.contains("credential was refused"), "{stdout}");
    assert!(!stdout.contains("could not authenticate"), "{stdout}");
    // Both were reached: Vertex's answer is an auth refusal all the same.
    assert!(
        stdout.contains("vertex/v1/parameters: every answer was inconclusive")
            && stdout.contains("auth: 401"),
        "{stdout}"
    );
    assert_eq!(logs, 1, "{stdout}");
}

/// A pointer hundreds of levels deep is shortened for people (`…(381 tokens)…`, pinned by the
/// `deep-pointer` cases) and kept whole for machines: check's JSON and SARIF, args' JSON.
#[test]
fn output_for_machines_keeps_a_deep_pointer_whole() {
    use std::process::Command;
    let json = |args: &[&str]| -> serde_json::Value {
        let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(args)
            .output()
            .expect("toolwire runs");
        serde_json::from_slice(&out.stdout).expect("the output is JSON")
    };
    // The 200th object, where the nesting passes the limit.
    let deep = "/properties/a".repeat(199);
    let check = json(&[
        "check",
        "--format",
        "json",
        "tests/cli/check/deep-pointer.json",
    ]);
    let pointers: Vec<&str> = check["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["pointer"].as_str())
        .collect();
    assert!(pointers.contains(&deep.as_str()), "{pointers:?}");
    let sarif = json(&[
        "check",
        "--format",
        "sarif",
        "tests/cli/check/deep-pointer.json",
    ]);
    let name = &sarif["runs"][0]["results"][0]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"];
    assert_eq!(name.as_str(), Some(format!("deep#{deep}").as_str()));
    // Args' JSON echoes the arguments, deeper than serde_json reads by default: the text is
    // searched instead.
    let args = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args([
            "args",
            "--format",
            "json",
            "--schema",
            "tests/cli/args/nest.tool.json",
            "--call",
            "@tests/cli/args/deep-pointer-call.json",
        ])
        .output()
        .expect("toolwire runs");
    let args = String::from_utf8_lossy(&args.stdout);
    let whole = format!("\"pointer\": \"{}/b\"", "/a".repeat(511));
    assert!(args.contains(&whole), "{args}");
}

/// `probe --summary-json FILE` says which run log this run wrote (null when none was kept)
/// and whether a stand-in answered in the provider's stead, also when the stand-in never
/// answered at all: a scheduled job read both from the printed lines, and a stand-in that
/// reached nothing printed no `emulated run` line, so the job stayed green on no evidence.
#[test]
fn the_summary_json_names_the_run_log_and_a_stand_in() {
    use std::process::Command;
    let dir = tempfile::tempdir().expect("temporary directory");
    let runs = dir.path().join("runs");
    let file = dir.path().join("summary.json");
    let probe = |targets: &[&str]| -> serde_json::Value {
        let _ = std::fs::remove_file(&file);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_toolwire"));
        cmd.args([
            "probe",
            "--no-progress",
            "--no-regenerate",
            "--case",
            "control",
        ])
        .args(["--retries", "0", "--runs-dir"])
        .arg(&runs)
        .arg("--summary-json")
        .arg(&file)
        .env_clear()
        .env("OPENAI_API_KEY", "tw-emulator-key-1");
        for t in targets {
            cmd.args(["--target", t]);
        }
        if targets.contains(&"openai/chat") {
            // A closed loopback port: a stand-in that never answers.
            cmd.args(["--base-url", "openai/chat=http://127.0.0.1:9"]);
        }
        let out = cmd.output().expect("toolwire runs");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = std::fs::read_to_string(&file).expect("the summary is written");
        serde_json::from_str(&text).expect("the summary is JSON")
    };
    let logs = || -> Vec<std::path::PathBuf> {
        let mut l: Vec<_> = std::fs::read_dir(&runs)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        l.sort();
        l
    };
    let real = probe(&["engine/jsonschema-2020-12"]);
    assert_eq!(real["emulated"], false, "{real}");
    assert_eq!(real["complete"], true, "{real}");
    assert_eq!(real["exit_status"], 0, "{real}");
    // No live target in the run: nothing for a scheduled job to miss.
    assert_eq!(
        real["live_targets"],
        serde_json::json!({"selected": 0, "skipped": 0, "probed": 0, "observed": 0})
    );
    assert_eq!(real["emulated_because"], serde_json::Value::Null, "{real}");
    assert_eq!(logs().len(), 1);
    assert_eq!(real["run_log"], logs()[0].display().to_string(), "{real}");

    let reached = probe(&["engine/jsonschema-2020-12", "openai/chat"]);
    assert_eq!(reached["emulated"], true, "{reached}");
    let because = reached["emulated_because"].as_str().unwrap_or_default();
    assert!(
        because.starts_with("openai/chat answered from http://127.0.0.1:9"),
        "{reached}"
    );
    let written = reached["run_log"].as_str().expect("a run log");
    assert!(logs().iter().any(|l| l.display().to_string() == written));

    // The engines answered; the one live target, probed, did not.
    assert_eq!(
        reached["live_targets"],
        serde_json::json!({"selected": 1, "skipped": 0, "probed": 1, "observed": 0})
    );

    let never = probe(&["openai/chat"]);
    assert_eq!(never["run_log"], serde_json::Value::Null, "{never}");
    assert_eq!(never["complete"], true, "{never}");
    assert_eq!(never["emulated"], true, "{never}");
    assert_eq!(never["emulated_because"], reached["emulated_because"]);

    // No key: the live target is skipped, and the summary counts it so.
    let _ = std::fs::remove_file(&file);
    let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args([
            "probe",
            "--no-progress",
            "--no-regenerate",
            "--case",
            "control",
        ])
        .args([
            "--target",
            "engine/jsonschema-2020-12",
            "--target",
            "openai/chat",
        ])
        .arg("--runs-dir")
        .arg(&runs)
        .arg("--summary-json")
        .arg(&file)
        .env_clear()
        .output()
        .expect("toolwire runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let keyless: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("the summary is written"))
            .expect("the summary is JSON");
    assert_eq!(
        keyless["live_targets"],
        serde_json::json!({"selected": 1, "skipped": 1, "probed": 0, "observed": 0})
    );
}

/// Each README output block marked `<!-- pinned: tests/cli/<command>/<case>.toml (stream) -->`
/// is a `console` block whose `$ ` line is the case's command line (`toolwire` and its args;
/// a trailing `> FILE` sends standard output away, so the block shows standard error) and whose
/// other lines are that stream of the case, exactly (`...` and `[..]` included): the case runs
/// in `cli_cases`, so a README example cannot print anything but what the binary prints.
#[test]
fn readme_blocks_match_their_cases() {
    let readme = std::fs::read_to_string("README.md").expect("README.md reads");
    let marker = "<!-- pinned: ";
    let mut seen = 0;
    for (at, _) in readme.match_indices(marker) {
        let line_no = readme[..at].lines().count() + 1;
        let rest = &readme[at + marker.len()..];
        let (spec, after) = rest
            .split_once(" -->\n")
            .unwrap_or_else(|| panic!("README.md:{line_no}: the marker does not end with ` -->`"));
        let (case, stream) = spec
            .split_once(' ')
            .unwrap_or_else(|| panic!("README.md:{line_no}: `{spec}` names no (stream)"));
        let stream = stream.trim_matches(['(', ')']);
        let block = after
            .strip_prefix("```console\n")
            .and_then(|b| b.split_once("```\n"))
            .map(|(b, _)| b)
            .unwrap_or_else(|| {
                panic!("README.md:{line_no}: no ```console block right after the marker")
            });
        let (command, shown) = block
            .split_once('\n')
            .unwrap_or_else(|| panic!("README.md:{line_no}: the block is one line"));
        let command = command
            .strip_prefix("$ ")
            .unwrap_or_else(|| panic!("README.md:{line_no}: the block does not begin with `$ `"));
        let (command, redirected) = match command.split_once(" > ") {
            Some((c, _)) => (c, true),
            None => (command, false),
        };
        assert_eq!(
            redirected,
            stream == "stderr",
            "README.md:{line_no}: a block of stderr sends stdout away (`> FILE`), one of stdout does not"
        );
        let toml = std::fs::read_to_string(case)
            .unwrap_or_else(|e| panic!("README.md:{line_no}: {case}: {e}"));
        let args = toml
            .lines()
            .find_map(|l| l.strip_prefix("args = ["))
            .and_then(|l| l.strip_suffix(']'))
            .unwrap_or_else(|| panic!("{case}: no one-line `args = [...]`"));
        let args: Vec<&str> = args.split(", ").map(|a| a.trim_matches('"')).collect();
        assert_eq!(
            command,
            format!("toolwire {}", args.join(" ")),
            "README.md:{line_no}: the command is not {case}'s"
        );
        let pinned = match toml.split_once(&format!("\n{stream} = \"\"\"\n")) {
            Some((_, s)) => {
                s.split_once("\"\"\"\n")
                    .unwrap_or_else(|| panic!("{case}: {stream} does not end"))
                    .0
            }
            None if toml.contains(&format!("\n{stream} = \"\"\n")) => "",
            None => panic!("{case}: no {stream} = \"\"\"...\"\"\""),
        };
        assert_eq!(
            shown, pinned,
            "README.md:{line_no}: the block differs from {stream} in {case} (update the one that is wrong)"
        );
        seen += 1;
    }
    // The quick start's six and the two samples in "Checking your own tools" (the warnings,
    // and `--profile`).
    assert_eq!(seen, 8, "README.md: {seen} pinned blocks found");
}

/// Every long flag a command's `--help` names is named in the README too (trial 79 D6:
/// `--profile`, the flag that picks a profile of your own, `--retries`, `--no-progress`,
/// `emulate --exit-after`, `rule --list`, `--cases` and `-o`'s `--output` were in `--help`
/// only), so that what the README says of profiles and runs can be acted on.
#[test]
fn the_readme_names_every_flag_of_the_help() {
    use std::process::Command;
    let readme = std::fs::read_to_string("README.md").expect("README.md reads");
    let mut missing = std::collections::BTreeSet::new();
    for command in [
        "check", "repair", "compile", "args", "explain", "rule", "rules", "probe", "emulate",
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args([command, "--help"])
            .output()
            .expect("toolwire runs");
        let help = String::from_utf8_lossy(&out.stdout);
        // The flags a line begins with (`  -o, --output <FILE>`, `      --retries <N>`), not
        // those a description mentions.
        for line in help.lines() {
            let line = line.trim_start();
            let line = line.strip_prefix("-").map_or(line, |_| {
                line.split_once(", ").map_or(line, |(_, long)| long)
            });
            let Some(flag) = line.strip_prefix("--") else {
                continue;
            };
            let flag: String = flag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if flag.is_empty() || flag == "help" {
                continue;
            }
            let named = readme.match_indices(&format!("--{flag}")).any(|(at, _)| {
                // `--profile` is not named by `--profiles`.
                !readme[at + 2 + flag.len()..]
                    .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
            });
            if !named {
                missing.insert(format!("{command} --{flag}"));
            }
        }
    }
    assert!(missing.is_empty(), "README.md never names: {missing:?}");
}

/// What `repair` writes for a typed `anyOf` with untyped branches under Gemini (the `type`
/// into each branch, then the branch's `format` into its description) passes `check` under
/// the same target with no error.
#[test]
fn a_repaired_typed_any_of_passes_check_for_gemini() {
    use std::process::Command;
    let dir = tempfile::tempdir().expect("temporary directory");
    let out = dir.path().join("repaired.json");
    let target = "gemini/v1beta/parameters";
    let repaired = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args([
            "repair",
            "--target",
            target,
            "tests/cli/repair/typed-any-of.json",
            "-o",
        ])
        .arg(&out)
        .output()
        .expect("toolwire runs");
    let report = String::from_utf8_lossy(&repaired.stdout);
    assert_eq!(repaired.status.code(), Some(0), "{report}");
    let checked = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(["check", "--errors-only", "--target", target])
        .arg(&out)
        .output()
        .expect("toolwire runs");
    let said = String::from_utf8_lossy(&checked.stdout);
    assert_eq!(checked.status.code(), Some(0), "{said}");
    assert!(said.starts_with("0 errors"), "{said}");
}

/// A loopback server that answers every request with a short 401 (no key echoed), for
/// `probe` runs whose stand-in base URL must be reported without the key or private URL.
fn refusing_server() -> std::net::SocketAddr {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("loopback port");
    let addr = listener.local_addr().expect("address");
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            let _ = s.set_read_timeout(Some(std::time::Duration::from_millis(300)));
            let mut buf = [0u8; 65536];
            let _ = s.read(&mut buf);
            let body = r#"{"error":{"message":"no","type":"invalid_request_error"}}"#;
            let _ = write!(
                s,
                "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    addr
}

/// The stand-in line on standard output and `emulated_because` in `--summary-json` (both
/// kept as CI artifacts) go through the run log's redactor: a key pasted into `--base-url`
/// is `[REDACTED]`, and a base URL from `OPENAI_BASE_URL` is written as `{OPENAI_BASE_URL}`,
/// in the run log's endpoints too, also when it holds a key-shaped segment or the key itself
/// (trial 63 D5: `http://127.0.0.1:8099/acct/[REDACTED]/v1/chat/completions`).
#[test]
fn the_stand_in_reason_shows_no_key_nor_private_base_url() {
    let key = format!("tw-canary-{}", "standin0123456789");
    let addr = refusing_server();
    for (flag, var) in [
        (Some(format!("openai/chat=http://{addr}/{key}")), None),
        (None, Some(format!("http://{addr}/privatehost-4e5f"))),
        (
            None,
            // Key-shaped, made here so that no literal looks like a real key.
            Some(format!(
                "http://{addr}/privatehost/sk-live-{}",
                "q".repeat(20)
            )),
        ),
        (None, Some(format!("http://{addr}/privatehost/x{key}x"))),
    ] {
        let dir = tempfile::tempdir().expect("temporary directory");
        let summary = dir.path().join("summary.json");
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"));
        cmd.args(["probe", "--no-progress", "--target", "openai/chat"])
            .args(["--case", "keywords/id-root", "--retries", "0"])
            .arg("--runs-dir")
            .arg(dir.path().join("runs"))
            .arg("--summary-json")
            .arg(&summary)
            .env_remove("OPENAI_BASE_URL")
            .env("OPENAI_API_KEY", &key);
        if let Some(f) = &flag {
            cmd.args(["--base-url", f]);
        }
        if let Some(v) = &var {
            cmd.env("OPENAI_BASE_URL", v);
        }
        let out = cmd.output().expect("toolwire runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stdout.contains("emulated run (openai/chat answered from "),
            "{stdout}{stderr}"
        );
        let json = std::fs::read_to_string(&summary).expect("summary written");
        assert!(
            json.contains("\"emulated_because\": \"openai/chat answered from "),
            "{json}"
        );
        let mut texts = vec![stdout.to_string(), stderr.to_string(), json];
        for e in std::fs::read_dir(dir.path().join("runs")).expect("run log") {
            texts.push(std::fs::read_to_string(e.expect("entry").path()).expect("log"));
        }
        for text in &texts {
            assert!(!text.contains(&key), "{text}");
            assert!(!text.contains("privatehost"), "{text}");
            assert!(!text.contains("sk-live-qqqq"), "{text}");
        }
        let shown = if flag.is_some() {
            format!("http://{addr}/[REDACTED]")
        } else {
            "{OPENAI_BASE_URL}".to_string()
        };
        assert!(
            stdout.contains(&format!("answered from {shown}, not")),
            "{stdout}"
        );
        let log = texts.last().expect("a run log");
        assert!(
            log.contains(&format!(r#""endpoint":"{shown}/v1/chat/completions""#)),
            "{log}"
        );
    }
}

/// Every command that reads a file says a missing one with its name redacted: a key set in
/// the environment, pasted into a path, is `[REDACTED]` on standard error and output.
#[test]
fn every_command_redacts_a_key_in_an_error_line() {
    let key = format!("tw-canary-{}", "errorline0123456789");
    let missing = format!("nofile-{key}.json");
    let runs: [&[&str]; 5] = [
        &["check", &missing],
        &["repair", &missing],
        &["compile", "--target", "openai/chat", &missing],
        &["args", "--schema", &missing, "--call", "{}"],
        &["explain", "--target", "openai/chat", &missing],
    ];
    for args in runs {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(args)
            .env("OPENAI_API_KEY", &key)
            .output()
            .expect("toolwire runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout}{stderr}");
        assert!(
            stderr.contains("nofile-[REDACTED].json"),
            "{args:?}: {stderr}"
        );
        assert!(
            !stderr.contains(&key) && !stdout.contains(&key),
            "{args:?}: {stdout}{stderr}"
        );
    }
}

/// A file name that is not UTF-8 (Linux allows any byte but `/` and NUL) was refused by the
/// argument parser with "invalid UTF-8 was detected in one or more arguments", naming no
/// file, and `check` then checked none of the others either (trial 68 D1). Every command
/// now reads it, naming it with replacement characters.
#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_read_by_every_command() {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let name = dir
        .path()
        .join(OsString::from_vec(b"tools-\xff.json".to_vec()));
    std::fs::write(
        &name,
        r#"[{"type":"function","function":{"name":"f","description":"Finds.","parameters":{"type":"object","properties":{"q":{"type":"string","description":"What."}},"required":["q"]}}}]"#,
    )
    .expect("written");
    let error = dir
        .path()
        .join(OsString::from_vec(b"error-\xff.txt".to_vec()));
    std::fs::write(
        &error,
        r#"{"error":{"message":"Invalid schema for function 'f': In context=(), 'additionalProperties' is required to be supplied and to be false."}}"#,
    )
    .expect("written");
    let missing = dir
        .path()
        .join(OsString::from_vec(b"missing-\xff.json".to_vec()));
    let out = dir.path().join("out.json");
    let runs: [(Vec<OsString>, i32, &str); 6] = [
        (vec!["check".into(), name.clone().into()], 0, ""),
        (
            vec!["check".into(), missing.clone().into(), name.clone().into()],
            2,
            "missing-\u{fffd}.json",
        ),
        (vec!["repair".into(), name.clone().into()], 0, ""),
        (
            vec![
                "compile".into(),
                "--target".into(),
                "openai/chat".into(),
                name.clone().into(),
                "-o".into(),
                out.clone().into(),
            ],
            0,
            "",
        ),
        (
            vec![
                "explain".into(),
                "--target".into(),
                "openai/chat".into(),
                "--request".into(),
                name.clone().into(),
                error.clone().into(),
            ],
            0,
            "",
        ),
        (
            vec!["explain".into(), missing.clone().into()],
            2,
            "missing-\u{fffd}.json",
        ),
    ];
    for (args, code, said) in runs {
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(&args)
            .output()
            .expect("toolwire runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        assert_eq!(run.status.code(), Some(code), "{args:?}: {text}");
        assert!(
            !text.contains("invalid UTF-8 was detected"),
            "{args:?}: {text}"
        );
        assert!(text.contains(said), "{args:?}: {text}");
    }
}

/// `--corpus-report` replaces its file through a temporary file renamed over it (trial 74 D1:
/// it wrote in place, so a run killed between truncating and writing left an empty report,
/// two runs at once could leave one's head and the other's tail, and a hard link to the
/// report was written through). The other name of a hard link keeps the old text.
#[test]
fn the_corpus_report_replaces_its_file_rather_than_writing_into_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let report = dir.path().join("corpora.md");
    let other = dir.path().join("linked.md");
    std::fs::write(&report, "the old report\n").expect("written");
    std::fs::hard_link(&report, &other).expect("a hard link");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args([
            "check",
            "--profiles",
            "tests/cli/check/profiles.json",
            "--corpus-report",
        ])
        .arg(&report)
        .arg("tests/cli/check/clean.json")
        .output()
        .expect("toolwire runs");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let new = std::fs::read_to_string(&report).expect("the report");
    assert!(new.contains("clean.json"), "{new}");
    assert_eq!(
        std::fs::read_to_string(&other).expect("the link"),
        "the old report\n"
    );
}

/// A loopback relay in front of `emulator` that answers the emulator's question
/// (`GET /__toolwire/emulator`) 404, as a gateway does with a path it does not know, and
/// passes every other connection through whole, the answers' `x-toolwire-emulator` header
/// included.
fn relay_hiding_the_emulator(emulator: String) -> std::net::SocketAddr {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("loopback port");
    let addr = listener.local_addr().expect("address");
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut client) = stream else { continue };
            let emulator = emulator.clone();
            std::thread::spawn(move || {
                let mut head = [0u8; 4096];
                let n = client.read(&mut head).unwrap_or(0);
                if head[..n].starts_with(b"GET /__toolwire/emulator") {
                    let _ = client.write_all(
                        b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    );
                    return;
                }
                let Ok(mut upstream) = std::net::TcpStream::connect(&emulator) else {
                    return;
                };
                let _ = upstream.write_all(&head[..n]);
                let (Ok(mut up_read), Ok(mut client_write)) =
                    (upstream.try_clone(), client.try_clone())
                else {
                    return;
                };
                std::thread::spawn(move || std::io::copy(&mut up_read, &mut client_write));
                let _ = std::io::copy(&mut client, &mut upstream);
            });
        }
    });
    addr
}

/// Trial 77 D2 (high): behind a relay that answers the emulator's question 404, the run was
/// not marked emulated though every answer carried the emulator's marker (and each
/// observation was noted "emulated answer"): the log went to reports/runs and the matrix
/// was regenerated with `probe` cells. The log is now set apart, marked emulated, and nothing
/// is regenerated; a log holding such answers is refused in the runs folder.
#[test]
fn answers_marked_by_the_emulator_are_never_folded_in_behind_a_relay() {
    let (mut emulator, at) = emulator();
    let relay = relay_hiding_the_emulator(at);
    let dir = tempfile::tempdir().expect("temporary directory");
    let reports = copy_reports(dir.path());
    let runs = reports.join("runs");
    let listed = |d: &std::path::Path| -> Vec<std::ffi::OsString> {
        let mut l: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        l.sort();
        l
    };
    let before = listed(&runs);
    let matrix = std::fs::read(reports.join("MATRIX.md")).unwrap();
    let summary = dir.path().join("summary.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(["probe", "--no-progress", "--case", "control"])
        .args(["--target", "ollama/chat", "--retries", "0", "--base-url"])
        .arg(format!("ollama/chat=http://{relay}/ollama"))
        .arg("--reports")
        .arg(&reports)
        .arg("--summary-json")
        .arg(&summary)
        .env_clear()
        .output()
        .expect("toolwire runs");
    let _ = emulator.kill();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{out:?}");
    assert!(
        stdout.contains("emulated run (answers carried x-toolwire-emulator"),
        "{stdout}"
    );
    assert_eq!(listed(&runs), before, "{stdout}");
    assert_eq!(std::fs::read(reports.join("MATRIX.md")).unwrap(), matrix);
    let said: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    assert_eq!(said["emulated"], true, "{said}");
    let log = std::path::PathBuf::from(said["run_log"].as_str().expect("a run log"));
    let text = std::fs::read_to_string(&log).expect("the log set apart");
    let header = text.lines().next().unwrap();
    assert!(header.contains("\"emulated\":true"), "{header}");
    assert!(!log.starts_with(&reports), "{}", log.display());

    // Copied into the runs folder with its header's mark taken off, it is still refused.
    let unmarked = runs.join(log.file_name().unwrap());
    std::fs::write(&unmarked, text.replacen(",\"emulated\":true", "", 1)).unwrap();
    let _ = std::fs::remove_dir_all(log.parent().unwrap());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(["rules", "--check", "--reports"])
        .arg(&reports)
        .output()
        .expect("toolwire runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("answers are noted as emulated") && stderr.contains(".jsonl"),
        "{stderr}"
    );
}

/// Trial 80 D2–D6: a CI consumer found fields in every command's JSON that the README never
/// named (`via`, check's `line` and `duplicate_keys`, compile's `check`, `wire`, `request`,
/// explain's `located`, ...). README's "Machine-readable output" section (and its
/// profile.json table) names every key these runs print, at any depth but inside the values
/// that are data rather than toolwire's report (a compiled tool block, a request body, the
/// arguments checked, a rule's example): a field added without its documentation fails here.
#[test]
fn the_readme_names_every_field_of_the_json_outputs() {
    use std::process::Command;
    let readme = std::fs::read_to_string("README.md").expect("README.md reads");
    let start = readme
        .find("### Machine-readable output")
        .expect("the README's machine-readable output section");
    let end = readme[start..]
        .find("\nThe three lists are exclusive")
        .map(|e| start + e)
        .expect("the end of the profile.json table");
    let section = &readme[start..end];
    // A key is named when it stands as a word of its own (`a_b`, not inside `x_a_b`).
    let named = |key: &str| {
        section.match_indices(key).any(|(i, _)| {
            let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
            let before = section[..i].chars().next_back().is_none_or(|c| !word(c));
            let after = section[i + key.len()..]
                .chars()
                .next()
                .is_none_or(|c| !word(c));
            before && after
        })
    };
    // Values that are data, not the report's fields (`counts` is keyed by rule id).
    const DATA: [&str; 7] = [
        "wire",
        "request",
        "arguments",
        "to",
        "example",
        "values",
        "counts",
    ];
    fn keys(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m {
                    out.insert(k.clone());
                    if !DATA.contains(&k.as_str()) {
                        keys(v, out);
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|v| keys(v, out)),
            _ => {}
        }
    }
    let runs: [(&[&str], bool); 10] = [
        (
            &["check", "--format", "json", "examples/openai-tools.json"],
            false,
        ),
        (
            &[
                "check",
                "--format",
                "json",
                "--profiles",
                "tests/cli/check/profiles.json",
                "tests/cli/check/builtins-only.json",
                "tests/cli/check/empty-lines.jsonl",
                "tests/cli/check/inexact-number.json",
                "tests/cli/check/bad-lines.jsonl",
                "tests/cli/check/too-many-tools.json",
                "tests/cli/repair/duplicate-keys-lost.json",
            ],
            false,
        ),
        (
            &[
                "check",
                "--format",
                "json",
                "--target",
                "openai/chat-strict",
                "examples/openai-tools.json",
            ],
            false,
        ),
        (
            &["repair", "--format", "json", "examples/mcp-tools-list.json"],
            true,
        ),
        (
            &[
                "repair",
                "--format",
                "json",
                "tests/cli/repair/duplicate-keys-lost.json",
            ],
            true,
        ),
        (
            &[
                "compile",
                "--format",
                "json",
                "--target",
                "openai/chat-strict",
                "examples/openai-tools.json",
            ],
            true,
        ),
        (
            &[
                "args",
                "--format",
                "json",
                "--schema",
                "examples/mcp-tools-list.json",
                "--tool",
                "get_weather",
                "--call",
                r#"{"city": 3, "days": "2"}"#,
            ],
            false,
        ),
        (
            &["explain", "--format", "json", "examples/gemini-error.txt"],
            false,
        ),
        (&["rule", "--format", "json"], false),
        (&["rule", "--format", "json", "array-items-missing"], false),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (args, on_stderr) in runs {
        let out = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(args)
            .output()
            .expect("toolwire runs");
        let text = if on_stderr { &out.stderr } else { &out.stdout };
        let value: serde_json::Value = serde_json::from_slice(text)
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {out:?}"));
        keys(&value, &mut seen);
    }
    // reports/profile.json, whose table is part of the section.
    let profile: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("reports/profile.json").expect("reports/profile.json reads"),
    )
    .expect("reports/profile.json is JSON");
    keys(&profile["evidence"], &mut seen);
    for must in [
        "via",
        "line",
        "duplicate_keys",
        "located",
        "hidden_warnings",
        "rejected_by",
    ] {
        assert!(seen.contains(must), "no run printed `{must}`: {seen:?}");
    }
    let missing: Vec<&String> = seen.iter().filter(|k| !named(k)).collect();
    assert!(
        missing.is_empty(),
        "README's machine-readable output section does not name {missing:?}"
    );
}
