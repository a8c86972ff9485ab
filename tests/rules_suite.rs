//! The rules suite (libtest-mimic): the rule logic held to the catalog and the evidence.
//!
//! - `detect::<case>`: the detector finds every case's own feature (its `parameter` at its
//!   placement) in the case's tools, and every feature it finds is reported by the rule that
//!   owns that parameter;
//! - `no-false-pass::<profile>::<case>`: for every profile and case, `check` flags the case's
//!   feature whenever a target of the profile rejects the case in the matrix (as an error),
//!   and does not flag it when every target accepts it;
//! - `report::<id>::<target>`: every public report in `reports/documented/` that has a tool
//!   and a rejection mapped to a target is flagged by `check --target` for that target, and
//!   (`report::<id>::<heir>::via::<target>`) for each target inheriting that rejection where
//!   it has no evidence of its own (`target::INHERITANCE`);
//! - `example::<rule>`: each rule's documented example (RULES.md, `toolwire rule ID`), read
//!   as `check` reads a file, is reported by that rule as an error under at least one
//!   target's profile;
//! - `features::<rule>`: each case parameter a rule's doc names in full is one it owns.
//!
//! Known gaps are expected failures in [`EXPECTED_FAILURES`], each with its reason.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use toolwire::case::{Case, Catalog};
use toolwire::check::{Finding, Level};
use toolwire::evidence::Verdict;
use toolwire::evidence::documented::{self, Documents, Entry};
use toolwire::evidence::matrix::Matrix;
use toolwire::profile::detect::{self, ToolRef};
use toolwire::profile::{CompiledProfile, Profile, ProfileSet, Status, derive, rules};
use toolwire::project::Project;
use toolwire::tool::ToolDef;

/// Tests expected to fail, with the reason. A listed test that passes is an error too, so the
/// list stays true.
const EXPECTED_FAILURES: &[(&str, &str)] = &[
    (
        "example::nesting-too-deep",
        "the example sketches 513 levels with `...`: toolwire's own cap, which no file can show in a line",
    ),
    (
        "example::size-exceeded",
        "the example sketches an enum of 1,001 values with `...`",
    ),
    (
        "example::too-many-tools",
        "the example sketches 513 tools with `...`",
    ),
    (
        "example::description-too-long",
        "the example sketches a description of 1,103 characters as `<...>`",
    ),
    (
        "example::property-named-keyword",
        "no target has rejecting evidence for a property named like a keyword: the rule warns",
    ),
    (
        "example::property-name-invalid",
        "no target has rejecting evidence for a property name's characters or length (the one documented pattern, `anth-documented-limits-managed-agents`, is Anthropic Managed Agents', not the Messages API's): the rule warns",
    ),
    (
        "example::type-unsupported",
        "no target has rejecting evidence for a standard type as the standard spells it (every `types/<type>-nested` cell is accepted or unknown): the rule warns",
    ),
    (
        "example::description-content",
        "no target has rejecting evidence for a description's language or content: the rule warns",
    ),
    (
        "report::cohere-strict-tools-requires-required::cohere/v2-strict",
        "the reported tool has no `required` at all; check judges the canonical schema, and a strict target's strict form (here: one required property per object) is compile's to write, as check's note under a strict target says (`compile --target cohere/v2-strict` makes the first optional argument required and nullable); only an explicit `required: []` is a feature of the canonical schema the evidence speaks to",
    ),
    (
        "report::moonshot-anyof-parent-type-property::moonshot/chat",
        "newer evidence decides: a maintainer measured the official endpoint accepting anyOf beside a parent type on 2026-09-21 (moonshot-acceptance-official-endpoint)",
    ),
];

fn normalize(p: &str) -> String {
    p.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn detect_case(case: &Case) -> Result<(), Failed> {
    let seen = detect::collect(&ToolRef::of_case(case));
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

/// The verdict of the matrix cell (case, target), if decisive.
fn cell_verdict(m: &Matrix, case: &str, target: &str) -> Option<Verdict> {
    m.cell(case, target).and_then(|c| c.verdict)
}

/// No false pass: a case any target of the profile rejects is flagged as an error for the
/// case's own feature; a case every target accepts is not flagged for it. When some target has
/// no evidence in the case's own cell, check follows the profile exactly: it flags the feature
/// unless the profile allows it (acceptance inferred from an identical control, a probed case
/// containing it, or the nearest placement; see `profile::derive`).
fn no_false_pass(
    case: &Case,
    profile: &CompiledProfile,
    derived: &Profile,
    m: &Matrix,
) -> Result<(), Failed> {
    let want = normalize(&case.parameter);
    let owner = rules::owner(&want).map(|r| r.id);
    let findings = toolwire::check::check_tools(&ToolRef::of_case(case), profile);
    let own: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.parameter == want && Some(f.rule.as_str()) == owner)
        .collect();
    let verdicts: Vec<(String, Option<Verdict>)> = profile
        .targets
        .iter()
        .map(|t| (t.clone(), cell_verdict(m, &case.id, t)))
        .collect();
    let rejecting: Vec<&str> = verdicts
        .iter()
        .filter(|(_, v)| *v == Some(Verdict::Rejected))
        .map(|(t, _)| t.as_str())
        .collect();
    let all_accept = verdicts
        .iter()
        .all(|(_, v)| v.is_some_and(Verdict::is_accepting));
    if !rejecting.is_empty() {
        if own.iter().any(|f| f.level == Level::Error) || said_by_its_reference(&want, &findings) {
            return Ok(());
        }
        return Err(format!(
            "false pass: {} reject(s) the case but check reports no error for {want:?}; findings: {:?}",
            rejecting.join(", "),
            findings.iter().map(|f| (&f.rule, &f.parameter)).collect::<Vec<_>>()
        )
        .into());
    }
    if all_accept {
        return match own.first() {
            None => Ok(()),
            Some(f) => Err(format!(
                "every target accepts the case but check flags it: {}: {}",
                f.rule, f.message
            )
            .into()),
        };
    }
    let status = derived
        .features
        .iter()
        .find(|f| f.parameter == want && f.placement == case.placement)
        .map(|f| f.status);
    match (status, own.is_empty() && !quoted_by_its_reference(&want, &findings)) {
        (Some(Status::Allowed), true) | (Some(Status::Unknown | Status::Rejected), false) => Ok(()),
        (status, _) => Err(format!(
            "check and the profile disagree on {want:?} at {}: profile says {status:?}, findings {:?}",
            case.placement,
            own.iter().map(|f| &f.message).collect::<Vec<_>>()
        )
        .into()),
    }
}

/// Whether a sibling form of `$ref` (`want`, e.g. `$ref (with type)`) is said by the error
/// finding of its reference: `ref-unsupported` joins a sibling form rejected by the same
/// targets as the plain reference into that reference's one finding (under `$ref (local
/// $defs)` or `$ref (with siblings)`, "... next to `type`"), whose fix, inlining, removes both;
/// a sibling form refused with other targets lacking evidence is quoted in that finding with
/// its own rejection ([`quotes_sibling_rejection`]).
fn said_by_its_reference(want: &str, findings: &[Finding]) -> bool {
    let sibling_form = want
        .strip_prefix("keyword-allowed: $ref (")
        .and_then(|f| f.strip_suffix(')'))
        // `with siblings` too: a reference refused by the same targets says its siblings in its
        // own finding, quoting their evidence where it differs (one finding per `$ref`).
        .is_some_and(|f| rules::ref_unsupported::drops_siblings(f) || f == "with siblings");
    sibling_form
        && findings.iter().any(|f| {
            f.level == Level::Error
                && f.rule == rules::ref_unsupported::RULE.id
                && [
                    "keyword-allowed: $ref (local $defs)",
                    "keyword-allowed: $ref (with siblings)",
                ]
                .contains(&f.parameter.as_str())
                && (f.message.contains(", next to ") || quotes_sibling_rejection(&f.message))
        })
}

/// Whether `message` quotes a sibling form's own rejection: `` `$ref` next to `type`: rejected
/// by T (…); `` before the reference's words, as the one finding at a `$ref` says a form
/// refused by other targets (or with other targets lacking evidence) than the reference.
fn quotes_sibling_rejection(message: &str) -> bool {
    message.split("; ").any(|part| {
        part.starts_with("`$ref` next to ")
            && part
                .split_once(": ")
                .is_some_and(|(_, said)| said.starts_with("rejected by "))
    })
}

/// Whether a `$ref (…)` form `want` is said inside the one `ref-unsupported` finding at its
/// `$ref` (check says every form refused at one `$ref` as one finding, under the worst form's
/// parameter, quoting each other form's words and evidence): a sibling form by the siblings
/// it names (`next to`), a reference form by its name in parentheses.
fn quoted_by_its_reference(want: &str, findings: &[Finding]) -> bool {
    let Some(form) = want
        .strip_prefix("keyword-allowed: $ref (")
        .and_then(|f| f.strip_suffix(')'))
    else {
        return false;
    };
    let words = if rules::ref_unsupported::drops_siblings(form) || form == "with siblings" {
        "next to ".to_string()
    } else {
        format!("({form})")
    };
    findings.iter().any(|f| {
        f.rule == rules::ref_unsupported::RULE.id
            && f.parameter.starts_with("keyword-allowed: $ref (")
            && f.message.contains(&words)
    })
}

/// The report's tool as a [`ToolDef`] (`"parameters": null` stays the JSON null).
fn report_tool(e: &Entry) -> Option<ToolDef> {
    let t = e.tool.as_ref()?;
    Some(ToolDef {
        name: t.get("name")?.as_str()?.to_string(),
        description: t
            .get("description")
            .and_then(|d| d.as_str())
            .map(str::to_string),
        parameters: t.get("parameters").cloned(),
    })
}

/// Which of a report's rejections at a target a trial holds a profile to.
struct Wanted {
    /// The cells' rejected features (`None`: every one).
    features: Option<BTreeSet<String>>,
    /// Whether its name rules' rejections are.
    names: bool,
}

impl Wanted {
    const ALL: Wanted = Wanted {
        features: None,
        names: true,
    };
}

/// Every rejection a report maps to `target` is flagged by `check` under `profile` (the
/// target's own, or an heir's: [`inherited`]): at least one error finding for one of the
/// rejected features that `wanted` keeps (for limits and type lists: by their rule; for a
/// name rule: by the name rules).
fn report_flagged(
    e: &Entry,
    target: &str,
    profile: &CompiledProfile,
    wanted_by: &Wanted,
) -> Result<(), Failed> {
    let tool = report_tool(e).ok_or("the entry's tool does not read as a tool")?;
    let refs = [ToolRef {
        name: Some(&tool.name),
        description: tool.description.as_deref(),
        parameters: tool.parameters.as_ref(),
        index: 0,
        ..Default::default()
    }];
    let findings = toolwire::check::check_tools(&refs, profile);
    let errors: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.level == Level::Error)
        .collect();
    let mut wanted: BTreeSet<String> = BTreeSet::new();
    let mut wanted_rules: BTreeSet<&str> = BTreeSet::new();
    for c in &e.cells {
        if c.verdict == Verdict::Rejected && c.targets.iter().any(|t| t == target) {
            let kept = |f: &&String| {
                wanted_by
                    .features
                    .as_ref()
                    .is_none_or(|w| w.contains(&normalize(f)))
            };
            for f in c.features.iter().filter(kept) {
                let f = normalize(f);
                // Limits and type lists are quoted with the tool's own value (`depth-limit: 14`,
                // `type-list: integer,null`), not the case's: matched by their rule.
                if let Some(r) = rules::owner(&f)
                    && matches!(
                        toolwire::profile::feature::parse_parameter(&f),
                        Some(
                            toolwire::profile::feature::Param::Limit(..)
                                | toolwire::profile::feature::Param::Keyed(
                                    toolwire::profile::feature::Kind::TypeList,
                                    _
                                )
                        )
                    )
                {
                    wanted_rules.insert(r.id);
                }
                wanted.insert(f);
            }
        }
    }
    for r in &e.rules {
        if wanted_by.names
            && r.targets.iter().any(|t| t == target)
            && matches!(r.statement, documented::Statement::NamePattern(_))
        {
            wanted_rules.insert("name-invalid");
            wanted_rules.insert("name-too-long");
        }
    }
    let hit = errors
        .iter()
        .any(|f| wanted.contains(f.parameter.as_str()) || wanted_rules.contains(f.rule.as_str()));
    if hit {
        Ok(())
    } else {
        Err(format!(
            "not flagged: wanted an error for one of {wanted:?} {wanted_rules:?}; got {:?}",
            findings
                .iter()
                .map(|f| (&f.rule, &f.parameter, f.level))
                .collect::<Vec<_>>()
        )
        .into())
    }
}

/// The rejections a report maps to `from` that `heir` inherits ([`INHERITANCE`]): each whose
/// cases include one whose matrix cell at `heir` holds no evidence of the heir's own (every
/// item, if any, came "via" `from`). A rejection every case of which the heir has its own
/// evidence for is the heir's to decide, not the report's. The cases of a cell's feature are
/// those with that parameter (at its placement, if given); of a name rule, the name cases it
/// rejects (`documented::judge`). `None` when the heir inherits none of them.
///
/// [`INHERITANCE`]: toolwire::target::INHERITANCE
fn inherited(e: &Entry, from: &str, heir: &str, catalog: &Catalog, m: &Matrix) -> Option<Wanted> {
    let inherits = |case: &Case| {
        !m.cell(&case.id, heir)
            .is_some_and(|c| c.evidence.iter().any(|i| i.via.is_none()))
    };
    let features: BTreeSet<String> = e
        .cells
        .iter()
        .filter(|c| c.verdict == Verdict::Rejected && c.targets.iter().any(|t| t == from))
        .flat_map(|c| c.features.iter().map(move |f| (c, normalize(f))))
        .filter(|(c, f)| {
            catalog.cases.iter().any(|k| {
                normalize(&k.parameter) == *f
                    && c.placement.is_none_or(|p| p == k.placement)
                    && inherits(k)
            })
        })
        .map(|(_, f)| f)
        .collect();
    let names = e.rules.iter().any(|r| {
        r.targets.iter().any(|t| t == from)
            && matches!(r.statement, documented::Statement::NamePattern(_))
            && catalog.cases.iter().any(|k| {
                documented::judge(&r.statement, k).is_some_and(|(v, _)| v == Verdict::Rejected)
                    && inherits(k)
            })
    });
    (!features.is_empty() || names).then_some(Wanted {
        features: Some(features),
        names,
    })
}

/// Whether the entry maps a rejection (by cells or by a name rule) to `target`.
fn rejects_at(e: &Entry, target: &str) -> bool {
    e.cells
        .iter()
        .any(|c| c.verdict == Verdict::Rejected && c.targets.iter().any(|t| t == target))
        || e.rules.iter().any(|r| {
            r.targets.iter().any(|t| t == target)
                && matches!(r.statement, documented::Statement::NamePattern(ref p)
                    if report_tool(e).is_some_and(|t| !regex::Regex::new(p).is_ok_and(|re| re.is_match(&t.name))))
        })
}

/// Every (kind, date, link) a profile cites for a rejection, the newest and the one the verdict
/// dates from, is one piece of evidence as written: a documented entry with that kind, URL and
/// date (its own or a cell's), or an observation of that case and target, rejected on that
/// day, in the run log with that id. This is what keeps `check`, `toolwire rule` and RULES.md
/// from showing one item's kind and link with another item's date.
fn cited_evidence_exists(
    set: &ProfileSet,
    runs: &[toolwire::evidence::runlog::RunLog],
    docs: &Documents,
) -> Result<(), Failed> {
    use toolwire::evidence::EvidenceKind;
    let documented: BTreeSet<(EvidenceKind, &str, &str)> = docs
        .entries()
        .flat_map(|e| {
            std::iter::once(e.date.as_str())
                .chain(e.cells.iter().filter_map(|c| c.date.as_deref()))
                .map(move |d| (e.kind, e.url.as_str(), d))
        })
        .collect();
    let observed: BTreeSet<(&str, &str, &str, String)> = runs
        .iter()
        .flat_map(|r| &r.observations)
        .filter(|o| o.verdict == Verdict::Rejected)
        .map(|o| {
            (
                o.run.as_str(),
                o.case.as_str(),
                o.target.as_str(),
                o.time.format("%Y-%m-%d").to_string(),
            )
        })
        .collect();
    let mut checked = 0usize;
    let mut missing = Vec::new();
    for p in &set.profiles {
        for f in &p.features {
            for e in &f.rejected_by {
                for c in [&e.latest, &e.since] {
                    checked += 1;
                    let found = match c.kind {
                        EvidenceKind::Probe => observed.contains(&(
                            c.source.as_str(),
                            e.case.as_str(),
                            e.target.as_str(),
                            c.date.clone(),
                        )),
                        kind => documented.contains(&(kind, c.source.as_str(), c.date.as_str())),
                    };
                    if !found {
                        missing.push(format!(
                            "{} {} @ {} by {}: {} {} {}",
                            p.name,
                            f.parameter,
                            f.placement,
                            e.target,
                            c.kind.as_str(),
                            c.date_text(),
                            c.source
                        ));
                    }
                }
            }
        }
    }
    if checked == 0 {
        return Err("no profile cites any evidence: nothing was checked".into());
    }
    missing.sort();
    missing.dedup();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} citations match no single piece of evidence, e.g.:\n{}",
            missing.len(),
            missing[..missing.len().min(10)].join("\n")
        )
        .into())
    }
}

/// Every piece of evidence `reports/profile.json` cites as a rejection's newest (`latest`) is
/// the item that decides that (case, target) cell in `reports/matrix.json`, so `check`,
/// RULES.md and MATRIX.md quote the same evidence. Read over the committed files, not a fresh
/// derivation: they are what users read. (The meta-schema requirement once cited the older of
/// two reports in a cell while the matrix was decided by the newer one.)
fn latest_is_the_deciding_evidence() -> Result<(), Failed> {
    let read = |p: &str| -> Result<serde_json::Value, Failed> {
        let text = std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"))?;
        serde_json::from_str(&text).map_err(|e| format!("{p}: {e}").into())
    };
    let (profiles, matrix) = (read("reports/profile.json")?, read("reports/matrix.json")?);
    let deciding: BTreeMap<(&str, &str), &serde_json::Value> = matrix["cells"]
        .as_array()
        .ok_or("matrix.json has no cells")?
        .iter()
        .filter_map(|c| {
            let item = c["evidence"].get(c["decided_by"].as_u64()? as usize)?;
            Some(((c["case"].as_str()?, c["target"].as_str()?), item))
        })
        .collect();
    let entries = profiles["evidence"]
        .as_array()
        .ok_or("profile.json has no evidence table")?;
    let mut wrong = Vec::new();
    for e in entries {
        let (case, target) = (e["case"].as_str(), e["target"].as_str());
        let latest = &e["latest"];
        let Some(item) = case.zip(target).and_then(|k| deciding.get(&k)) else {
            wrong.push(format!("{e}: no decided cell"));
            continue;
        };
        // A probe item folds runs `first .. last`; its newest citation names the last run.
        let source = item["source"].as_str().unwrap_or_default();
        let source = if item["kind"] == "probe" {
            source.rsplit(" .. ").next().unwrap_or(source)
        } else {
            source
        };
        let same = latest["kind"] == item["kind"]
            && latest["date"] == item["last_seen"]
            && latest["source"].as_str() == Some(source);
        if !same {
            wrong.push(format!(
                "{} x {}: cites {latest}, the matrix is decided by {} {} {source}",
                case.unwrap_or_default(),
                target.unwrap_or_default(),
                item["kind"],
                item["last_seen"]
            ));
        }
    }
    if entries.is_empty() {
        return Err("profile.json cites no evidence: nothing was checked".into());
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} of {} citations are not their cell's deciding evidence:\n{}",
            wrong.len(),
            entries.len(),
            wrong.join("\n")
        )
        .into())
    }
}

/// A trial that honours [`EXPECTED_FAILURES`]: a listed test passes when it fails, and fails
/// (naming the stale entry) when it passes.
/// Every documented limit statement (`limit: {feature, max}`), as (entry id, feature, max).
fn documented_limits(docs: &Documents) -> Vec<(String, String, usize)> {
    docs.entries()
        .flat_map(|e| e.rules.iter().map(move |r| (e, r)))
        .filter_map(|(e, r)| match &r.statement {
            documented::Statement::Limit { feature, max } => {
                Some((e.id.clone(), feature.clone(), *max))
            }
            _ => None,
        })
        .collect()
}

/// A documented limit judges only the cases of its family, and a value between two cases takes
/// the lower one's verdict: without cases at `max` and `max + 1` a schema just past the limit
/// reads as allowed (Cohere's 200 fields under `strict_tools` were judged only at 100 and
/// 1000, so `check --target cohere/v2-strict` passed 250 properties; trial 65 D2).
fn limit_edges_have_cases(
    limits: &[(String, String, usize)],
    parameters: &BTreeSet<String>,
) -> Result<(), Failed> {
    let missing: Vec<String> = limits
        .iter()
        .flat_map(|(id, feature, max)| {
            [*max, max + 1]
                .into_iter()
                .map(move |n| (id, format!("{feature}: {n}")))
        })
        .filter(|(_, p)| !parameters.contains(p))
        .map(|(id, p)| format!("{p} (entry {id})"))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("documented limits without a case at their edge: {missing:?}").into())
    }
}

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
    let project = Project::new("cases", "reports");
    let catalog = Catalog::load(std::path::Path::new("cases")).expect("the catalog loads");
    let matrix = Arc::new(project.matrix(&catalog).expect("the matrix builds"));
    let specs = project
        .profile_specs()
        .expect("the profile definitions load");
    let set = derive::derive(&matrix, &catalog, &specs);
    let mut trials = Vec::new();
    for case in &catalog.cases {
        let c = case.clone();
        trials.push(trial(format!("detect::{}", case.id), move || {
            detect_case(&c)
        }));
    }
    // Profiles: derived twice, identical; the file form reads back to the same profiles.
    {
        let again = derive::derive(&matrix, &catalog, &specs);
        let first = set.clone();
        trials.push(trial("profiles::deterministic".into(), move || {
            let a = serde_json::to_string(&first).map_err(|e| e.to_string())?;
            let b = serde_json::to_string(&again).map_err(|e| e.to_string())?;
            if a == b {
                Ok(())
            } else {
                Err("two derivations differ".into())
            }
        }));
        let first = set.clone();
        trials.push(trial("profiles::file-round-trip".into(), move || {
            let text = serde_json::to_string(&first).map_err(|e| e.to_string())?;
            let back: ProfileSet = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            if back == first {
                Ok(())
            } else {
                Err("profile.json does not read back to the same profiles".into())
            }
        }));
    }
    {
        let runs = project.runs().expect("the run logs read");
        let docs = Documents::load(&project.documented_dir()).expect("documented evidence loads");
        let set = set.clone();
        trials.push(trial("profiles::cited-evidence-exists".into(), move || {
            cited_evidence_exists(&set, &runs, &docs)
        }));
    }
    trials.push(trial(
        "profiles::latest-is-the-deciding-evidence".into(),
        latest_is_the_deciding_evidence,
    ));
    for p in &set.profiles {
        let compiled = Arc::new(CompiledProfile::new(p));
        let derived = Arc::new(p.clone());
        for case in catalog.cases.iter().filter(|c| !c.is_control()) {
            let (c, prof, d, m) = (
                case.clone(),
                compiled.clone(),
                derived.clone(),
                matrix.clone(),
            );
            trials.push(trial(
                format!("no-false-pass::{}::{}", p.name, case.id),
                move || no_false_pass(&c, &prof, &d, &m),
            ));
        }
    }
    // Documented evidence: loads, and every feature it names has a case.
    let docs = Documents::load(&project.documented_dir()).expect("documented evidence loads");
    let unmatched: Vec<String> = documented::resolve(&docs, &catalog)
        .unmatched
        .iter()
        .map(|u| u.error().to_string())
        .collect();
    trials.push(trial(
        "documented::every-feature-has-a-case".into(),
        move || {
            if unmatched.is_empty() {
                Ok(())
            } else {
                Err(format!("features with no case: {unmatched:?}").into())
            }
        },
    ));
    let parameters: BTreeSet<String> = catalog.cases.iter().map(|c| c.parameter.clone()).collect();
    let limits = documented_limits(&docs);
    trials.push(trial(
        "documented::every-limit-has-cases-at-its-edge".into(),
        move || limit_edges_have_cases(&limits, &parameters),
    ));
    {
        let docs = Documents::load(&project.documented_dir()).expect("documented evidence loads");
        trials.push(trial(
            "documented::secondary-labelled-as-secondary".into(),
            move || secondary_labelled(&docs),
        ));
    }
    let by_name: BTreeMap<String, Arc<CompiledProfile>> = set
        .profiles
        .iter()
        .map(|p| (p.name.clone(), Arc::new(CompiledProfile::new(p))))
        .collect();
    for e in docs.entries() {
        if e.kind != toolwire::evidence::EvidenceKind::Report || e.tool.is_none() {
            continue;
        }
        let targets: BTreeSet<&String> = e
            .cells
            .iter()
            .flat_map(|c| c.targets.iter())
            .chain(e.rules.iter().flat_map(|r| r.targets.iter()))
            .collect();
        for t in targets {
            if !rejects_at(e, t) {
                continue;
            }
            let (entry, target) = (e.clone(), t.clone());
            let prof = by_name[t.as_str()].clone();
            trials.push(trial(format!("report::{}::{}", e.id, t), move || {
                report_flagged(&entry, &target, &prof, &Wanted::ALL)
            }));
            // A target inheriting `t`'s rejections (`openai/chat-strict` from `openai/chat`)
            // is held to each it inherits: the matrix shows them in its column.
            for heir in toolwire::target::INHERITANCE.iter().filter(|i| i.from == t) {
                let Some(wanted) = inherited(e, t, heir.target, &catalog, &matrix) else {
                    continue;
                };
                let (entry, target) = (e.clone(), t.clone());
                let prof = by_name[heir.target].clone();
                trials.push(trial(
                    format!("report::{}::{}::via::{}", e.id, heir.target, t),
                    move || report_flagged(&entry, &target, &prof, &wanted),
                ));
            }
        }
    }
    trials.push(trial(
        "examples::sketches-are-labelled".into(),
        sketches_are_labelled,
    ));
    for rule in rules::REGISTRY.iter() {
        let profiles = by_name.clone();
        trials.push(trial(format!("example::{}", rule.id), move || {
            example_reported(rule, &profiles)
        }));
        trials.push(trial(format!("features::{}", rule.id), move || {
            features_owned(rule)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}

/// Every link a reader follows to a third party's reading (`secondary`) is labelled
/// `secondary`, never `doc`, in the committed RULES.md (inline links) and MATRIX.md (numbered
/// references): such words are not the provider's, wherever they are shown. Some link must
/// exist, or the check would pass on pages that cite no such evidence at all.
fn secondary_labelled(docs: &Documents) -> Result<(), Failed> {
    use toolwire::evidence::EvidenceKind;
    // The kinds of the entries at each address of a `secondary` entry: one page may carry a
    // provider's answer (`report`) and a third party's reading of it (`secondary`).
    let mut kinds: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for e in docs.entries().filter(|e| e.kind == EvidenceKind::Secondary) {
        kinds.entry(e.url.as_str()).or_default();
    }
    for e in docs.entries() {
        if let Some(k) = kinds.get_mut(e.url.as_str()) {
            k.insert(e.kind.as_str());
        }
    }
    let read = |f: &str| std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"));
    let (rules_md, matrix_md) = (read("reports/RULES.md")?, read("reports/MATRIX.md")?);
    let mut labels: Vec<(String, String, String)> = Vec::new();
    let inline = regex::Regex::new(r"\[([^\]]+)\]\((https?://[^)\s]+)\)").unwrap();
    for c in inline.captures_iter(&rules_md) {
        labels.push(("RULES.md".into(), c[2].to_string(), c[1].to_string()));
    }
    let defs = regex::Regex::new(r"(?m)^\[(\d+)\]: (\S+)$").unwrap();
    let numbered: BTreeMap<String, String> = defs
        .captures_iter(&matrix_md)
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect();
    let cites = regex::Regex::new(r"\[([^\]\[]+)\]\[(\d+)\]").unwrap();
    for c in cites.captures_iter(&matrix_md) {
        if let Some(url) = numbered.get(&c[2]) {
            labels.push(("MATRIX.md".into(), url.clone(), c[1].to_string()));
        }
    }
    let to_secondary: Vec<_> = labels
        .iter()
        .filter_map(|(file, url, label)| Some((file, url, label, kinds.get(url.as_str())?)))
        .collect();
    let wrong: Vec<_> = to_secondary
        .iter()
        .filter(|(_, _, label, k)| !k.iter().any(|k| label.starts_with(&format!("{k} "))))
        .map(|(file, url, label, _)| format!("{file} {url}: {label}"))
        .collect();
    if !to_secondary
        .iter()
        .any(|(_, _, label, _)| label.starts_with("secondary "))
    {
        return Err("no link to `secondary` evidence found in RULES.md or MATRIX.md".into());
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("links to `secondary` evidence labelled otherwise: {wrong:?}").into())
    }
}

/// Each case parameter a rule's doc names (`description: empty`, `depth-limit: N` for any
/// number; not a pattern such as `keyword-allowed: <keyword>`) is one the rule owns: what RULES.md
/// and `toolwire rule ID` list is what `check --format json` reports and profile.json holds
/// (before: `description: whitespace` for `description: whitespace-only`, trial 70 D7).
fn features_owned(rule: &rules::Rule) -> Result<(), Failed> {
    let named: Vec<String> = rule
        .features
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|f| !f.contains('<'))
        // A limit is named with `N` for its number: any number is the same rule's.
        .map(|f| match f.strip_suffix(": N") {
            Some(kind) => format!("{kind}: 1"),
            None => f.to_string(),
        })
        // Shorthands for a form (`(not a number)`, `pattern (invalid regex)`) name no
        // parameter; a parameter without a value (`name-unique`) does.
        .filter(|f| f.contains(": ") || rules::owner(f).is_some())
        .collect();
    let wrong: Vec<String> = named
        .iter()
        .filter(|f| rules::owner(f).map(|r| r.id) != Some(rule.id))
        .map(|f| match rules::owner(f) {
            Some(r) => format!("`{f}` (owned by {})", r.id),
            None => format!("`{f}` (no such parameter)"),
        })
        .collect();
    if named.is_empty() && rule.features.contains('`') && !rule.features.contains('<') {
        return Err(format!("no feature named in `{}`", rule.features).into());
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("the doc names {}", wrong.join(", ")).into())
    }
}

/// A rule's example that cannot run as written (its `example::` test is an expected failure
/// for being a sketch) is the one `toolwire rule` and RULES.md label a sketch, and no other
/// is (trial 72, D4: they were printed like runnable input).
fn sketches_are_labelled() -> Result<(), Failed> {
    let listed_sketch = |id: &str| {
        EXPECTED_FAILURES
            .iter()
            .any(|(n, why)| *n == format!("example::{id}") && why.contains("sketch"))
    };
    let wrong: Vec<String> = rules::REGISTRY
        .iter()
        .filter(|r| r.example_is_sketch() != listed_sketch(r.id))
        .map(|r| format!("{} (labelled a sketch: {})", r.id, r.example_is_sketch()))
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("examples labelled otherwise than listed: {wrong:?}").into())
    }
}

/// `rule`'s example, read as a file is (a bare schema, a tool, a list of tools), gets an error
/// of `rule` under `portable`, the profile `check` uses by default, or, where the rule names
/// its `example_target`, under that target's profile only: the docs show what the rule
/// rejects, and where `check` shows it.
fn example_reported(
    rule: &rules::Rule,
    profiles: &BTreeMap<String, Arc<CompiledProfile>>,
) -> Result<(), Failed> {
    let value: serde_json::Value = serde_json::from_str(rule.example)
        .map_err(|e| format!("the example is not JSON ({e}): {}", rule.example))?;
    let set = toolwire::input::from_value(std::path::Path::new("example"), value)
        .map_err(|e| format!("the example is not a tool file: {e}"))?;
    let reports = |p: &CompiledProfile| {
        toolwire::check::check_set(&set, p)
            .iter()
            .any(|f| f.rule.as_str() == rule.id && f.level == Level::Error)
    };
    // What a reader who runs `check` on the example sees: under `portable` unless the label
    // names a target (trial: meta-schema-invalid's example showed as keyword-unsupported under
    // `portable`, with the target that shows it named only deep in the rule's text).
    let portable = reports(&profiles[toolwire::profile::PORTABLE]);
    match rule.example_target {
        None if portable => Ok(()),
        None => Err(match profiles.iter().find(|(_, p)| reports(p)) {
            Some((name, _)) => format!(
                "`portable` (check's default) does not report `{}` as an error for its example, \
                 `{name}` does: name such a target as the rule's `example_target`, or take an \
                 example `portable` reports: {}",
                rule.id, rule.example
            ),
            None => format!(
                "no profile reports `{}` as an error for its example {}",
                rule.id, rule.example
            ),
        }
        .into()),
        Some(target) => match profiles.get(target) {
            None => Err(format!("the example's target `{target}` is no profile").into()),
            Some(_) if portable => Err(format!(
                "`portable` reports `{}` for its example: the label naming `{target}` is wrong",
                rule.id
            )
            .into()),
            Some(p) if reports(p) => Ok(()),
            Some(_) => Err(format!(
                "`{target}` (the example's target) does not report `{}` as an error for its \
                 example {}",
                rule.id, rule.example
            )
            .into()),
        },
    }
}
