//! The rules suite (libtest-mimic): the rule logic held to the catalog and the evidence.
//!
//! - `detect::<case>`: the detector finds every case's own feature (its `parameter` at its
//!   placement) in the case's tools, and every feature it finds is reported by the rule that
//!   owns that parameter;
//! - `no-false-pass::<profile>::<case>`: for every profile and case, `check` flags the case's
//!   feature whenever a target of the profile rejects the case in the matrix (as an error),
//!   and does not flag it when every target accepts it;
//! - `report::<id>`: every public report in `reports/documented/` that has a tool and a
//!   rejection mapped to a target is flagged by `check --target` for that target.
//!
//! Known gaps are expected failures in [`EXPECTED_FAILURES`], each with its reason.

use std::collections::BTreeSet;

use libtest_mimic::{Arguments, Failed, Trial};
use toolwire::case::{Case, Catalog};
use toolwire::profile::detect::{self, ToolRef};
use toolwire::profile::rules;

/// Tests expected to fail, with the reason. A listed test that passes is an error too, so the
/// list stays true.
const EXPECTED_FAILURES: &[(&str, &str)] = &[];

fn tool_refs(case: &Case) -> Vec<ToolRef<'_>> {
    case.tools
        .iter()
        .enumerate()
        .map(|(i, t)| ToolRef {
            name: Some(&t.name),
            description: t.description.as_deref(),
            parameters: t.parameters.as_ref(),
            index: i,
        })
        .collect()
}

fn normalize(p: &str) -> String {
    p.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn detect_case(case: &Case) -> Result<(), Failed> {
    let seen = detect::collect(&tool_refs(case));
    for s in &seen {
        let owner = rules::owner(&s.parameter).map(|r| r.id);
        if owner != Some(s.rule) {
            return Err(format!(
                "rule {} reported {:?}, which is owned by {owner:?}",
                s.rule, s.parameter
            )
            .into());
        }
    }
    if case.is_control() {
        return Ok(());
    }
    let want = normalize(&case.parameter);
    let found: BTreeSet<(String, String)> = seen
        .iter()
        .map(|s| (s.parameter.clone(), s.placement.to_string()))
        .collect();
    if found.contains(&(want.clone(), case.placement.to_string())) {
        Ok(())
    } else {
        Err(format!(
            "the detector does not find {want:?} at {} in the case; it found: {found:?}",
            case.placement
        )
        .into())
    }
}

/// A trial that honours [`EXPECTED_FAILURES`]: a listed test passes when it fails, and fails
/// (naming the stale entry) when it passes.
fn trial(name: String, f: impl FnOnce() -> Result<(), Failed> + Send + 'static) -> Trial {
    let expected = EXPECTED_FAILURES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, why)| *why);
    Trial::test(name, move || match (f(), expected) {
        (Ok(()), None) => Ok(()),
        (Err(e), None) => Err(e),
        (Err(_), Some(_)) => Ok(()),
        (Ok(()), Some(why)) => Err(format!(
            "listed as an expected failure ({why}) but it passes: remove it from EXPECTED_FAILURES"
        )
        .into()),
    })
}

fn main() {
    let args = Arguments::from_args();
    let catalog = Catalog::load(std::path::Path::new("cases")).expect("the catalog loads");
    let mut trials = Vec::new();
    for case in &catalog.cases {
        let c = case.clone();
        trials.push(trial(format!("detect::{}", case.id), move || {
            detect_case(&c)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
