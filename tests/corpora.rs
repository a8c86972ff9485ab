//! The seam over the real tool definitions of the corpora (licensed, kept outside the
//! repository): repair then check, args, and compile for each core target, for every tool;
//! and `reports/corpora.md`, generated from them, is current.
//!
//! Where the corpora are: `TOOLWIRE_CORPORA` (a folder of `*.jsonl`; a relative path is read
//! from the repository root), else `shared/corpora` beside the checkout or beside one of its
//! two nearest ancestors (a worktree sits one level deeper). Set explicitly, a folder that does
//! not read fails every test. Not found, or `TOOLWIRE_CORPORA=skip`, every test is reported
//! `ignored` with the reason printed first, never `ok`: a run without the data never passes
//! silently. `.ci/run` sets the variable when the corpora sit beside the clone.

use std::path::{Path, PathBuf};

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Value, json};
use toolwire::input::ToolSet;

const CORPORA_ENV: &str = "TOOLWIRE_CORPORA";

/// The targets compile is run for, one test each so the harness spreads them over cores: the
/// core ones, and those whose offline models rejected whole requests of these corpora before
/// compile wrote the canonical type names (moonshot, llama.cpp, Cohere strict: BFCL's `dict`)
/// and read the Responses API's field errors (`openai/responses-strict`). For each, the
/// offline model accepts every request compile writes (a tool may still be refused, with its
/// reason).
const COMPILE_TARGETS: &[&str] = &[
    "gemini/v1beta/parameters",
    "openai/chat",
    "openai/chat-strict",
    "anthropic/messages",
    "bedrock/converse",
    "mistral/chat",
    "openai/responses-strict",
    "moonshot/chat",
    "llama.cpp/server",
    "cohere/v2-strict",
];

/// The corpora folder, or why there is none.
fn corpora_dir() -> Result<PathBuf, String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    match std::env::var(CORPORA_ENV) {
        Ok(v) if v == "skip" => Err(format!("{CORPORA_ENV}=skip")),
        Ok(v) => Ok(manifest.join(v)),
        Err(_) => manifest
            .ancestors()
            .skip(1)
            .take(3)
            .map(|a| a.join("shared/corpora"))
            .find(|p| p.is_dir())
            .ok_or_else(|| {
                format!(
                    "no corpora at {}/../shared/corpora nor one or two levels further up \
                     (set {CORPORA_ENV}=DIR to a folder of *.jsonl corpora)",
                    manifest.display()
                )
            }),
    }
}

/// Every `*.jsonl` corpus in `dir`, read; an error names the file.
fn load(dir: &Path) -> Result<Vec<ToolSet>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{CORPORA_ENV}: cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no *.jsonl corpus in {}", dir.display()));
    }
    files
        .iter()
        .map(|f| {
            toolwire::input::read_file(f)
                .map_err(|e| format!("{}: the corpus does not read: {e}", f.display()))
        })
        .collect()
}

fn compiled(name: &str) -> toolwire::profile::CompiledProfile {
    let set = toolwire::profile::embedded().expect("embedded profiles");
    toolwire::profile::CompiledProfile::new(set.get(name).expect("profile"))
}

/// The profiles repair is tried under over the corpora: `portable`, and the core target whose
/// profile rejects the most of them.
const REPAIR_PROFILES: &[&str] = &["portable", "gemini/v1beta/parameters"];

/// Repairs every corpus tool under `name`: a tool whose every error `check` marks
/// "(repairable)" is repaired and any other is refused, a repaired one checks clean and
/// repairs again to itself, and a refused one says why.
fn repair_then_check_is_clean_or_refused_with_a_reason(sets: &[ToolSet], name: &str) {
    use toolwire::repair::{Options, Outcome, Tool, repair_request};
    let profile = compiled(name);
    let opts = Options::default();
    for set in sets {
        let file = &set.file;
        let mut counts = std::collections::BTreeMap::<&str, usize>::new();
        for request in set.requests() {
            let tools: Vec<Tool> = request.iter().map(Tool::from).collect();
            let refs: Vec<_> = request.iter().map(|e| e.as_ref()).collect();
            let findings = toolwire::check::check_tools(&refs, &profile);
            for (entry, r) in request.iter().zip(repair_request(&tools, &profile, &opts)) {
                let at = format!("{name}: {} line {:?}", file.display(), entry.line);
                let mut errors = findings.iter().filter(|f| {
                    f.tool_index == entry.index
                        && !f.request
                        && f.level == toolwire::check::Level::Error
                });
                // "(repairable)" says what repair does, both ways.
                match errors.find(|f| !f.repairable) {
                    None => assert_ne!(
                        r.outcome,
                        Outcome::Refused,
                        "{at}: every error marked repairable, refused: {:#?}",
                        r.refusals
                    ),
                    Some(f) => assert_eq!(
                        r.outcome,
                        Outcome::Refused,
                        "{at}: {} at {:?} not marked repairable, repaired: {:#?}",
                        f.rule,
                        f.pointer,
                        r.changes
                    ),
                }
                match r.outcome {
                    Outcome::Refused => {
                        *counts.entry("refused").or_default() += 1;
                        assert!(!r.refusals.is_empty(), "{at}: refused without a reason");
                        assert!(r.refusals.iter().all(|x| !x.reason.is_empty()), "{at}");
                        assert!(
                            r.changes.is_empty(),
                            "{at}: a refused tool reports no repair"
                        );
                    }
                    o => {
                        *counts
                            .entry(if o == Outcome::Repaired {
                                "repaired"
                            } else {
                                "unchanged"
                            })
                            .or_default() += 1;
                        let t = &r.tool;
                        let refs = [toolwire::profile::detect::ToolRef {
                            name: t.name.as_deref(),
                            description: t.description.as_deref(),
                            parameters: t.parameters.as_ref(),
                            index: 0,
                            ..Default::default()
                        }];
                        let errors: Vec<_> = toolwire::check::check_tools(&refs, &profile)
                            .into_iter()
                            .filter(|f| f.level == toolwire::check::Level::Error)
                            .filter(|f| f.rule != "name-duplicate" && f.rule != "too-many-tools")
                            .collect();
                        assert!(errors.is_empty(), "{at}: {errors:#?}");
                        // Idempotent: a second repair changes nothing.
                        let again = toolwire::repair::repair_tool(t, 0, &profile, &opts);
                        assert_eq!(again.outcome, Outcome::Unchanged, "{at}: {again:#?}");
                        assert_eq!(&again.tool, t, "{at}");
                    }
                }
            }
        }
        println!("{}: {counts:?}", file.display());
    }
}

fn args_reports_every_missing_required_argument(sets: &[ToolSet]) {
    use toolwire::args::{ArgsSchema, Coercions};
    let (mut compiled, mut invalid) = (0, 0);
    for set in sets {
        let file = &set.file;
        for t in &set.tools {
            let Some(schema) = &t.parameters else {
                continue;
            };
            let Ok(s) = ArgsSchema::new(schema) else {
                // Not JSON Schema (a `type` naming no type, such as `any`; BFCL's `dict` and
                // `float` are read as what they mean): args says so, never panics.
                invalid += 1;
                continue;
            };
            compiled += 1;
            let required: Vec<String> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default();
            let empty = json!({});
            let r = s.check(&empty, Coercions::NONE);
            let missing: Vec<&str> = r
                .problems
                .iter()
                .filter(|p| p.keyword == "required")
                .map(|p| p.pointer.as_str())
                .collect();
            for name in &required {
                let pointer = format!("/{}", name.replace('~', "~0").replace('/', "~1"));
                assert!(
                    missing.contains(&pointer.as_str()),
                    "{} {:?}: {pointer} not reported: {:#?}",
                    file.display(),
                    t.name,
                    r.problems
                );
            }
        }
    }
    println!("args over the corpora: {compiled} schemas compiled, {invalid} not JSON Schema");
    assert!(compiled > 500);
}

/// Compiles every corpus request for `target`: each tool is accepted by the target's offline
/// model or refused with a reason, and every rejection the model still gives is explained.
fn compile_over_the_corpora(sets: &[ToolSet], target: &str) {
    use toolwire::compile::{ModelCheck, compile};
    use toolwire::repair::{Options, Outcome, Tool};
    let set = toolwire::profile::embedded().expect("embedded profiles");
    let profile = toolwire::profile::CompiledProfile::new(set.get(target).expect("profile"));
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    let mut rejections: Vec<String> = Vec::new();
    for tools in sets {
        for request in tools.requests() {
            let input: Vec<Tool> = request.iter().map(Tool::from).collect();
            let c = compile(&input, target, &profile, &Options::default()).expect("named tools");
            for t in &c.tools {
                if t.outcome == Outcome::Refused {
                    *counts.entry("refused").or_default() += 1;
                    assert!(!t.refusals.is_empty());
                    assert!(t.refusals.iter().all(|r| !r.reason.is_empty()));
                }
            }
            match &c.check {
                ModelCheck::Accepted { .. } => *counts.entry("accepted").or_default() += 1,
                ModelCheck::NothingToSend => {}
                ModelCheck::Rejected {
                    error,
                    explanations,
                    ..
                } => {
                    *counts.entry("model-rejected").or_default() += 1;
                    assert!(!error.is_empty());
                    rejections.push(error.clone());
                    assert!(
                        !explanations.is_empty(),
                        "{target}: the model's error is not explained: {error}"
                    );
                }
                ModelCheck::Inconclusive { note, .. } => {
                    panic!("{target}: inconclusive model answer: {note}")
                }
            }
        }
    }
    println!("compile for {target} over the corpora: {counts:?}");
    assert_eq!(
        counts.get("model-rejected"),
        None,
        "{target}: the offline model rejects requests compile wrote, e.g. {:?}",
        &rejections[..rejections.len().min(3)]
    );
}

/// The committed corpus report, relative to the repository root.
const CORPUS_REPORT: &str = "reports/corpora.md";

/// `reports/corpora.md` is what the README's command writes over these corpora now, byte for
/// byte: the report is generated but `rules --check` cannot regenerate it (the corpora are
/// not in the repository), so a rule or profile change once left it stale with every test
/// passing. The command is run as the README gives it, by the binary, into a temporary file.
fn corpus_report_is_current(sets: &[ToolSet]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<&Path> = sets.iter().map(|s| s.file.as_path()).collect();
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let fresh = tmp.path().join("corpora.md");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .current_dir(root)
        .arg("check")
        .arg("--corpus-report")
        .arg(&fresh)
        .args(&files)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("toolwire runs");
    // 0: no finding, 1: findings; anything else is a failure to write the report.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "toolwire check --corpus-report failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let fresh = std::fs::read_to_string(&fresh).expect("the report was written");
    let committed = std::fs::read_to_string(root.join(CORPUS_REPORT))
        .unwrap_or_else(|e| panic!("{CORPUS_REPORT}: {e}"));
    if fresh != committed {
        let dir = files[0].parent().unwrap_or(Path::new("."));
        panic!(
            "{CORPUS_REPORT} is stale: it is not what the corpus report command writes now. \
             Regenerate it from the repository root with\n\n    cargo run --release -- check \
             --corpus-report {CORPUS_REPORT} {}/*.jsonl\n\nand commit it. {}",
            dir.display(),
            first_differences(&committed, &fresh)
        );
    }
}

/// The first lines where `committed` and `fresh` differ, numbered, for a failure message:
/// the report's counts sit on lines of their own, so the lines show which counts moved.
fn first_differences(committed: &str, fresh: &str) -> String {
    const SHOWN: usize = 6;
    let (old, new): (Vec<&str>, Vec<&str>) = (committed.lines().collect(), fresh.lines().collect());
    let mut out = format!(
        "First differing lines (of {} committed, {} regenerated):\n",
        old.len(),
        new.len()
    );
    let differing = (0..old.len().max(new.len()))
        .filter(|&i| old.get(i) != new.get(i))
        .take(SHOWN);
    for i in differing {
        let line = |l: Option<&&str>| l.map_or("(no line)".to_string(), |l| format!("{l:?}"));
        out += &format!(
            "  line {}:\n    committed:   {}\n    regenerated: {}\n",
            i + 1,
            line(old.get(i)),
            line(new.get(i))
        );
    }
    if committed.lines().eq(fresh.lines()) {
        out += "  (the lines are equal: the line endings or the final newline differ)\n";
    }
    out
}

/// One corpus test, given the corpora.
type CorpusTest = Box<dyn FnOnce(&'static [ToolSet]) + Send>;

/// What the run has to test with.
enum Data {
    Ready(&'static [ToolSet]),
    /// Not found, or skipped on request: every test is reported ignored.
    Absent(String),
    /// Found or named, but does not read: every test fails with this.
    Broken(String),
}

fn main() {
    let args = Arguments::from_args();
    let data = match corpora_dir() {
        Err(why) => Data::Absent(why),
        Ok(dir) => match load(&dir) {
            Ok(sets) => Data::Ready(Vec::leak(sets)),
            Err(why) => Data::Broken(why),
        },
    };
    let mut trials: Vec<(String, CorpusTest)> = vec![(
        "args_reports_every_missing_required_argument_for_every_corpus_schema".into(),
        Box::new(args_reports_every_missing_required_argument),
    )];
    trials.push((
        "reports_corpora_md_is_what_check_corpus_report_writes_now".into(),
        Box::new(corpus_report_is_current),
    ));
    for &name in REPAIR_PROFILES {
        trials.push((
            format!("repair_then_check_is_clean_or_refused_with_a_reason_for_every_corpus_tool_under_{name}"),
            Box::new(move |sets| repair_then_check_is_clean_or_refused_with_a_reason(sets, name)),
        ));
    }
    for &target in COMPILE_TARGETS {
        trials.push((
            format!("compile_over_the_corpora_for_{target}"),
            Box::new(move |sets| compile_over_the_corpora(sets, target)),
        ));
    }
    if let Data::Absent(why) = &data {
        eprintln!("corpus tests ignored: {why}");
    }
    let trials = trials
        .into_iter()
        .map(|(name, test)| match &data {
            Data::Ready(sets) => {
                let sets: &'static [ToolSet] = sets;
                Trial::test(name, move || {
                    test(sets);
                    Ok(())
                })
            }
            Data::Absent(_) => Trial::test(name, || Ok(())).with_ignored_flag(true),
            Data::Broken(why) => {
                let why = why.clone();
                Trial::test(name, move || Err(Failed::from(why)))
            }
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
