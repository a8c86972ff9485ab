//! The offline rail: one named test per case × in-process engine, `<target>::<case id>`
//! (e.g. `engine/llguidance::keywords/not-nested`). Each test loads the catalog, re-probes the
//! engine for real and must reproduce the verdict recorded in `reports/matrix.json`.
//!
//! A missing recorded verdict fails, telling how to record one. Known gaps live in
//! [`EXPECTED_FAILURES`], each with its reason; an expected failure that passes fails too, and
//! so does an entry that names no test, so the list stays true.
//!
//! `TOOLWIRE_CASES` and `TOOLWIRE_REPORTS` point the suite at another catalog and reports
//! folder (default: the crate's `cases/` and `reports/`).

use std::path::PathBuf;
use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use toolwire::case::{Case, Catalog};
use toolwire::engine::{Engine, engines};
use toolwire::evidence::matrix::Matrix;

/// Tests whose failure is known and explained: (`<target>::<case id>`, reason). Empty while
/// every engine reproduces its recorded verdict.
const EXPECTED_FAILURES: &[(&str, &str)] = &[];

/// How to record verdicts, quoted in every failure about a missing one.
const RECORD_HINT: &str = "run `cargo run -- probe --offline` and commit reports/";

fn main() {
    let args = Arguments::from_args();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let cases_dir = std::env::var_os("TOOLWIRE_CASES").map_or(root.join("cases"), PathBuf::from);
    let reports_dir =
        std::env::var_os("TOOLWIRE_REPORTS").map_or(root.join("reports"), PathBuf::from);

    let catalog = match Catalog::load(&cases_dir) {
        Ok(c) => c,
        Err(e) => {
            let msg = format!("the catalog does not load: {e}");
            libtest_mimic::run(&args, vec![Trial::test("catalog", move || Err(msg.into()))]).exit();
        }
    };
    let matrix_path = reports_dir.join("matrix.json");
    let matrix: Arc<Result<Matrix, String>> =
        Arc::new(toolwire::project::read_matrix(&matrix_path).map_err(|e| format!("{e}")));
    let mut trials = Vec::new();
    let mut names = Vec::new();
    for engine in engines() {
        let engine: Arc<dyn Engine> = Arc::from(engine);
        // An engine has no strict flag to carry: the prober never sends it a case asking for
        // strict mode (`Answer::strict_not_carried`), so there is no verdict to reproduce.
        for case in catalog.cases.iter().filter(|c| !c.strict) {
            let name = format!("{}::{}", engine.id(), case.id);
            names.push(name.clone());
            let expected_failure = EXPECTED_FAILURES
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, why)| *why);
            let engine = Arc::clone(&engine);
            let case = Arc::new(case.clone());
            let matrix = Arc::clone(&matrix);
            trials.push(Trial::test(name, move || {
                let outcome = reproduce(engine.as_ref(), &case, &matrix);
                match (expected_failure, outcome) {
                    (None, r) => r,
                    (Some(_), Err(_)) => Ok(()),
                    (Some(why), Ok(())) => Err(format!(
                        "listed in EXPECTED_FAILURES ({why}) but it passes now: remove the entry"
                    )
                    .into()),
                }
            }));
        }
    }
    for (name, why) in EXPECTED_FAILURES {
        if !names.iter().any(|n| n == name) {
            let msg = format!(
                "EXPECTED_FAILURES names {name:?} ({why}), which is no test: remove or fix the entry"
            );
            trials.push(Trial::test(
                format!("expected-failures::{name}"),
                move || Err(msg.into()),
            ));
        }
    }
    libtest_mimic::run(&args, trials).exit();
}

/// Re-probes `engine` with `case` and compares with the recorded verdict.
fn reproduce(
    engine: &dyn Engine,
    case: &Case,
    matrix: &Result<Matrix, String>,
) -> Result<(), Failed> {
    let matrix = matrix
        .as_ref()
        .map_err(|e| format!("no recorded verdict: reports/matrix.json: {e}; {RECORD_HINT}"))?;
    let cell = matrix.cell(&case.id, engine.id());
    let Some(recorded) = cell.and_then(|c| c.verdict) else {
        return Err(format!(
            "no recorded verdict for {} × {}; {RECORD_HINT}",
            case.id,
            engine.id()
        )
        .into());
    };
    let answer = engine.check(&case.tools, &case.instances);
    // `rules` holds older observations to the case by this input's digest
    // (`project::edited_since_run`): it must be what the check was given.
    if !answer.input.is_empty() && answer.input != engine.input(&case.tools) {
        return Err(format!(
            "{} × {}: Engine::input is not the input the check was given",
            case.id,
            engine.id()
        )
        .into());
    }
    if answer.verdict == recorded {
        return Ok(());
    }
    let pending = cell
        .and_then(|c| c.pending)
        .map(|p| format!(" (a newer probe verdict, {p}, is pending confirmation)"))
        .unwrap_or_default();
    Err(format!(
        "recorded {recorded}{pending}, re-probed {}\n  error: {}\n  path: {}\n  note: {}",
        answer.verdict,
        answer.error.as_deref().unwrap_or("-"),
        answer.path.as_deref().unwrap_or("-"),
        answer.note.as_deref().unwrap_or("-"),
    )
    .into())
}
