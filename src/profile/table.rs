//! `reports/RULES.md`: the rule table, generated from the registry, the profiles and the
//! matrix. It answers "what may I send, and why": one row per rule with its condition, its
//! features under `portable` by family, the targets that reject and the evidence behind each
//! (kind, date, link), and whether a repair exists; then what `portable` allows; then every target's
//! own profile; then one section per rule with the rejected features and their evidence.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use super::rules::{self, REGISTRY, Rule};
use super::{Cited, PORTABLE, Profile, ProfileSet, Status, TargetEvidence};
use crate::evidence::EvidenceKind;
use crate::evidence::matrix::Matrix;

/// A markdown table without column padding: cells here hold long sentences and link lists,
/// and padding every row to the longest one would multiply the file's size for no reader.
fn table(head: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut s = String::new();
    let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
    s.push_str(&line(
        &head.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
    ));
    s.push_str(&line(
        &head.iter().map(|_| "---".to_string()).collect::<Vec<_>>(),
    ));
    for r in rows {
        s.push_str(&line(&r));
    }
    s.pop();
    s
}

/// A markdown link to one piece of evidence: `[report 2025-07-03](url)`; probe evidence links
/// to the run log under `reports/runs/` that holds the observation of that date.
pub fn evidence_link(e: &Cited) -> String {
    let label = e.label();
    match e.kind {
        EvidenceKind::Probe => format!("[{label}](runs/{}.jsonl)", e.source),
        _ if e.source.starts_with("http") => format!("[{label}]({})", e.source),
        _ => label,
    }
}

/// The evidence of one rejection: the newest (deciding) item, then, when an older item is
/// where the verdict dates from, `since` that one, each with its own kind, date and link.
pub fn evidence_links(e: &TargetEvidence) -> String {
    if e.since == e.latest {
        evidence_link(&e.latest)
    } else {
        format!(
            "{}, since {}",
            evidence_link(&e.latest),
            evidence_link(&e.since)
        )
    }
}

/// Escapes text for a markdown table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn code(s: &str) -> String {
    format!("`{}`", s.replace('`', "'"))
}

/// Targets rejecting at least one feature of `rule`, each with its newest evidence.
fn rejecting(set: &ProfileSet, rule: &Rule) -> BTreeMap<String, TargetEvidence> {
    let mut out: BTreeMap<String, TargetEvidence> = BTreeMap::new();
    for p in set
        .profiles
        .iter()
        .filter(|p| p.targets.len() == 1 && p.name == p.targets[0])
    {
        for f in &p.features {
            if f.status != Status::Rejected
                || rules::owner(&f.parameter).map(|r| r.id) != Some(rule.id)
            {
                continue;
            }
            for e in &f.rejected_by {
                let keep = out
                    .get(&e.target)
                    .is_none_or(|old| e.latest.date > old.latest.date);
                if keep {
                    out.insert(e.target.clone(), e.clone());
                }
            }
        }
    }
    if rule.id == META_SCHEMA_RULE {
        for e in meta_schema_evidence(set) {
            out.entry(e.target.clone()).or_insert_with(|| e.clone());
        }
    }
    out
}

/// The rule that reports toolwire's own nesting cap rather than any target's verdict.
pub const OWN_CAP_RULE: &str = super::rules::nesting_too_deep::RULE.id;

/// Whether rule `id` holds schemas to a limit of toolwire's own ([`OWN_CAP_RULE`], and
/// `ref-expansion-exceeded`, the cap `args` expands references within), so that no target's
/// evidence stands behind it.
pub fn is_own_cap(id: &str) -> bool {
    id == OWN_CAP_RULE || id == super::rules::ref_expansion_exceeded::RULE.id
}

/// What RULES.md says of the [`is_own_cap`] rules where the rejecting targets would stand.
pub const OWN_CAP: &str = "toolwire's own cap, not a provider's, so no target's evidence applies";

/// The rule whose evidence is the profiles' meta-schema requirement, not a feature's.
pub const META_SCHEMA_RULE: &str = "meta-schema-invalid";

/// What the meta-schema requirement covers, in the words RULES.md and `toolwire rule` use
/// where a feature's parameter would stand: it is a class of schemas, not a case's feature.
pub const META_SCHEMA_FEATURE: &str = "any schema the 2020-12 meta-schema refuses";

/// The evidence of every target rejecting the schemas the 2020-12 meta-schema refuses
/// ([`Profile::meta_schema`]), over the per-target profiles as [`rejections`] reads them, so
/// `toolwire rule meta-schema-invalid` and RULES.md cite what `check` cites. Each item's
/// `case` is the case its matrix cell belongs to, not a case of `meta-schema-invalid`
/// (which has none).
pub fn meta_schema_evidence(set: &ProfileSet) -> impl Iterator<Item = &TargetEvidence> {
    set.profiles
        .iter()
        .filter(|p| p.targets.len() == 1 && p.name == p.targets[0])
        .flat_map(|p| &p.meta_schema)
}

/// The `portable` cell of the meta-schema rule: the requirement is carried by the profile,
/// not by a case, so it names the targets it comes from and says there is no case.
fn meta_schema_parameters(profile: &Profile) -> String {
    if profile.meta_schema.is_empty() {
        return "(no case of its own; no target rejects by the meta-schema)".to_string();
    }
    let mut targets: Vec<String> = profile
        .meta_schema
        .iter()
        .map(|e| code(&e.target))
        .collect();
    targets.sort();
    targets.dedup();
    format!(
        "not allowed: {META_SCHEMA_FEATURE}, by {} (the profile's meta-schema requirement, no \
         case of its own)",
        targets.join(", ")
    )
}

/// One feature of a rule under a profile, as RULES.md's row and `toolwire rule` both count
/// it: a case parameter (`enum-size-limit: 100`) once, over every placement the profile has a
/// case for it at (root, nested, items, anyOf branch, request), with the status of the worst
/// of them (rejected over unknown over allowed, as the per-family tables of a profile's
/// section merge placements), so that "allowed" means allowed wherever it was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleFeature<'a> {
    /// The case parameter, family and value: `enum-size-limit: 100`, or a family alone
    /// (`type-missing`).
    pub parameter: &'a str,
    /// The merged status over [`RuleFeature::placements`].
    pub status: Status,
    /// The placements with a verdict for the feature, in the profile's order.
    pub placements: Vec<crate::case::Placement>,
}

impl<'a> RuleFeature<'a> {
    /// The family (the part of the parameter before `: `, as in `cases/README.md`) and the
    /// value, `None` for a parameter that is a family alone (`type-missing`).
    pub fn family_and_value(&self) -> (&'a str, Option<&'a str>) {
        match self.parameter.split_once(": ") {
            Some((family, value)) => (family, Some(value)),
            None => (self.parameter, None),
        }
    }
}

/// The features of `rule` under `profile`, each once ([`RuleFeature`]), in number order of
/// their parameters (`depth-limit: 5` before `depth-limit: 10`). The unit both RULES.md's row
/// and `toolwire rule ID`'s `portable` line count in (trial 78 D7: the row listed values with
/// placements and families merged, the command counted features at placements, so 10 values
/// stood against "14 unknown").
pub fn rule_features<'a>(profile: &'a Profile, rule: &Rule) -> Vec<RuleFeature<'a>> {
    let mut out: Vec<RuleFeature<'a>> = Vec::new();
    for f in &profile.features {
        if rules::owner(&f.parameter).map(|r| r.id) != Some(rule.id) {
            continue;
        }
        match out.iter_mut().find(|r| r.parameter == f.parameter) {
            Some(r) => {
                r.status = r.status.max(f.status);
                if !r.placements.contains(&f.placement) {
                    r.placements.push(f.placement);
                }
            }
            None => out.push(RuleFeature {
                parameter: &f.parameter,
                status: f.status,
                placements: vec![f.placement],
            }),
        }
    }
    out.sort_by(|a, b| in_number_order(a.parameter, b.parameter));
    out
}

/// What `profile` allows for the features of `rule`, grouped by family so that no value is
/// read without its family (trial 78 D7: `1000` was an enum size, a property count or
/// neither): `` `enum-size-limit` (no evidence: `100`, `500`) ``, statuses apart by `; `,
/// families apart by `; ` outside the parentheses; a family that is its own parameter
/// (`type-missing`) has just its status in them.
fn parameters(profile: &Profile, rule: &Rule) -> String {
    // Family -> values per status (allowed, rejected, no evidence), or the status of a
    // parameter that is a family alone.
    let mut families: BTreeMap<&str, ([BTreeSet<String>; 3], Option<Status>)> = BTreeMap::new();
    for f in rule_features(profile, rule) {
        let (family, value) = f.family_and_value();
        let entry = families.entry(family).or_default();
        match value {
            Some(v) => {
                let slot = match f.status {
                    Status::Allowed => 0,
                    Status::Rejected => 1,
                    Status::Unknown => 2,
                };
                entry.0[slot].insert(v.to_string());
            }
            None => entry.1 = Some(f.status),
        }
    }
    if families.is_empty() {
        return "(no case)".to_string();
    }
    let status_word = |s: Status| match s {
        Status::Unknown => "no evidence",
        s => s.as_str(),
    };
    families
        .into_iter()
        .map(|(family, (values, alone))| {
            let mut parts: Vec<String> = alone
                .map(|s| status_word(s).to_string())
                .into_iter()
                .collect();
            for (status, set) in [Status::Allowed, Status::Rejected, Status::Unknown]
                .into_iter()
                .zip(&values)
            {
                if !set.is_empty() {
                    parts.push(format!("{}: {}", status_word(status), list(set, 12)));
                }
            }
            format!("{} ({})", code(family), parts.join("; "))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn list(items: &BTreeSet<String>, max: usize) -> String {
    let mut sorted: Vec<&String> = items.iter().collect();
    // Limits are numbers: `4, 5, 10`, not the text order `10, 4, 5`.
    sorted.sort_by(|a, b| by_number_then_text(a, b));
    let all: Vec<String> = sorted.into_iter().map(|s| code(s)).collect();
    if all.len() <= max {
        all.join(", ")
    } else {
        format!("{} and {} more", all[..max].join(", "), all.len() - max)
    }
}

/// Numbers (a value written as one: a digit first, or `-` and a digit) before other values
/// and in numeric order; other values, and numbers of equal value, in text order.
/// `a` and `b` compared as text, but each run of digits as the number it spells:
/// `depth-limit: 5` before `depth-limit: 10`.
fn in_number_order(a: &str, b: &str) -> std::cmp::Ordering {
    // Runs of digits and of anything else; a digit is one byte, so a boundary is a char's.
    fn pieces(s: &str) -> Vec<&str> {
        let b = s.as_bytes();
        let mut out = Vec::new();
        let mut start = 0;
        for i in 1..=b.len() {
            if i == b.len() || b[i].is_ascii_digit() != b[start].is_ascii_digit() {
                out.push(&s[start..i]);
                start = i;
            }
        }
        out
    }
    let number = |p: &str| p.starts_with(|c: char| c.is_ascii_digit());
    let (pa, pb) = (pieces(a), pieces(b));
    for (x, y) in pa.iter().zip(&pb) {
        let order = if number(x) && number(y) {
            let (x, y) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
            x.len().cmp(&y.len()).then_with(|| x.cmp(y))
        } else {
            x.cmp(y)
        };
        if order.is_ne() {
            return order;
        }
    }
    pa.len().cmp(&pb.len())
}

fn by_number_then_text(a: &str, b: &str) -> std::cmp::Ordering {
    let number = |v: &str| -> Option<f64> {
        let digits = v.strip_prefix('-').unwrap_or(v);
        if !digits.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        v.parse().ok()
    };
    match (number(a), number(b)) {
        (Some(x), Some(y)) => x.total_cmp(&y).then_with(|| a.cmp(b)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.cmp(b),
    }
}

/// Renders RULES.md.
pub fn rules_md(set: &ProfileSet, matrix: &Matrix) -> String {
    let mut out = String::new();
    let portable = set.get(PORTABLE);
    let _ = writeln!(out, "# Rules: what may I send, and why\n");
    let _ = writeln!(
        out,
        "Generated by `toolwire rules` from `reports/matrix.json` (documented evidence in `reports/documented/`, probe runs in `reports/runs/`) and written with `reports/profile.json`; do not edit. `toolwire rule ID` prints one rule.\n"
    );
    let _ = writeln!(
        out,
        "A rule finds a *feature* (a case parameter such as `keyword-allowed: const` or `depth-limit: 11`) in a tool; the profile, derived from the evidence alone, says whether that feature may be sent. A feature is **allowed** only when every target of the profile has accepting evidence; **rejected** when any target has rejecting evidence (a `check` *error*); **unknown** when no target rejects it but some target has no evidence (a `check` *warning*: no evidence counts as not accepted). Evidence kinds: `probe` (observed by toolwire, links to the run log), `doc` (the provider's own documentation), `report` (a public bug report, dated as reported), `secondary` (a third party's published reading of the provider, such as a client library's: its words, not the provider's). A date written `read 2026-12-02` is the day the source was read, not a date it gives for what it says (a date without `read` is the source's own; `undated`: the source gives none); `, inferred` after it says the verdict is inferred from the source's words, not stated by them (the entry's note in reports/documented/ says how). `, not verbatim` after a report's date says the quote kept for it is not the provider's answer verbatim (a reporter's paraphrase, an issue title, a cut-short excerpt; the entry's `verbatim_note` says which). Only `probe` evidence is ever called observed. `format-allowed: enum` is the `format` value Gemini's `Schema` gives a string with `enum`, not JSON Schema's `enum` keyword nor a `type` spelling. `, via openai/chat` after a cell says the evidence is about another target and inherited, never observed on this one (MATRIX.md's *Inherited*): `openai/chat-strict` takes `openai/chat`'s rejections and `openai/chat` takes `openai/chat-strict`'s acceptances, one way each, so a feature `openai/chat` is known to accept (a 1,024-character description) may still be unknown for `openai/chat-strict`. Each piece of evidence is shown with its own kind, date and link: first the newest, which decides the verdict (as in MATRIX.md and `check`), then, when an older piece is where the verdict dates from, `since` that one. A feature with no evidence at its own placement (a keyword in an `anyOf` branch, say) is judged by the same feature at the nearest placement that has some (nested, root, items, anyOf branch; `derive.rs`), so a row may cite a case of another placement while MATRIX.md, which shows each case's own cells, has none there; profile.json's `judged_elsewhere` names, per feature and target, the placement so used, for allowed features too.\n"
    );
    if let Some(p) = portable {
        let _ = writeln!(
            out,
            "`portable` spans {} (the core targets). Strict modes (OpenAI/DeepSeek strict, Cohere strict) have their own profiles and are reached by compiling, never by shrinking `portable`. Runs folded into the matrix: {}.\n",
            p.targets
                .iter()
                .map(|t| code(t))
                .collect::<Vec<_>>()
                .join(", "),
            matrix.runs_folded()
        );
    }
    let _ = writeln!(out, "## The rules\n");
    let _ = writeln!(
        out,
        "A row is not read across: its `portable` values are what the core targets take together, and a target named as rejecting rejects some feature of the rule, not each value listed (`openai/chat-strict` takes `format: email`, which `portable` rejects for Gemini). Each target's own section below (*What `T` allows*) and the rule's section say which. The `portable` cell lists each feature once, in parentheses after its family (the case parameter's name, such as `enum-size-limit` or `schema-bytes-limit`, so that a number is never read without what it counts), its placements (root, nested, items, anyOf branch, request) together: a value is allowed when it is allowed at every placement it has a case at, rejected when a target rejects it at any, else no evidence. `toolwire rule ID` counts these same features in its `portable` line and names the placements of the allowed ones.\n"
    );
    let mut rows = Vec::new();
    for rule in REGISTRY.iter() {
        let rej = rejecting(set, rule);
        let rejected = if is_own_cap(rule.id) {
            format!("none: {OWN_CAP}")
        } else if rej.is_empty() {
            "none with evidence yet".to_string()
        } else {
            rej.iter()
                .map(|(t, e)| format!("{} ({})", code(t), evidence_link(&e.latest)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        rows.push(vec![
            format!("[{}](#{})", code(rule.id), rule.id),
            cell(rule.checks),
            portable
                .map(|p| {
                    cell(&if rule.id == META_SCHEMA_RULE {
                        meta_schema_parameters(p)
                    } else {
                        parameters(p, rule)
                    })
                })
                .unwrap_or_default(),
            cell(&rejected),
            cell(rule.repair),
        ]);
    }
    let _ = writeln!(
        out,
        "{}\n",
        table(
            &[
                "rule",
                "what it checks",
                "features under `portable` (all its targets together), by family",
                "targets rejecting some feature of the rule, each its own (newest evidence; which ones: the rule's section and the target's own)",
                "repair"
            ],
            rows
        )
    );
    if let Some(p) = portable {
        allows_section(&mut out, p);
    }
    profiles_section(&mut out, set);
    for p in set.profiles.iter().filter(|p| has_own_section(p)) {
        allows_section(&mut out, p);
    }
    let disagreeing = crate::evidence::matrix::disagreements(matrix);
    if !disagreeing.is_empty() {
        let _ = writeln!(out, "## Where the evidence disagrees\n");
        let _ = writeln!(
            out,
            "Cells whose evidence says both: every piece, oldest first, with its verdict; the one in bold decides the verdict the profiles and the tables above use (stated evidence outranks inferred, and among equals the newest decides; MATRIX.md marks these cells ⚠).\n"
        );
        for line in disagreeing {
            let _ = writeln!(out, "- {line}");
        }
        out.push('\n');
    }
    for rule in REGISTRY.iter() {
        rule_section(&mut out, set, rule);
    }
    out
}

/// The heading of a profile's section of what it allows.
fn allows_heading(p: &Profile) -> String {
    format!("What `{}` allows", p.name)
}

/// The anchor GitHub gives a heading: lowercase, spaces as `-`, and only letters, digits,
/// `-` and `_` kept.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Whether a profile gets a section of what it allows after `portable`'s: every provider
/// route's own (trial 78 D1: only `portable` had one, so for one target a feature with no
/// rejecting row could be allowed or unknown); the engines, which no request is sent to, are
/// in the matrix.
fn has_own_section(p: &Profile) -> bool {
    p.name != PORTABLE && !p.name.starts_with("engine/")
}

fn allows_section(out: &mut String, p: &Profile) {
    let _ = writeln!(out, "## {}\n", allows_heading(p));
    let by = if p.name == PORTABLE {
        "any target rejects"
    } else {
        "the target rejects"
    };
    if p.features.iter().all(|f| f.status == Status::Unknown) {
        let _ = writeln!(
            out,
            "No evidence yet: every feature ({}) is unknown, and `check --target {}` warns on each one it finds.\n",
            p.features.len(),
            p.name
        );
        return;
    }
    let _ = writeln!(
        out,
        "Control (the bare baseline): **{}**. Per family, the values the catalog has a case for; a value is rejected when {by} it at any placement.\n",
        p.control.as_str()
    );
    let mut rows = Vec::new();
    for (family, s) in &p.summary.families {
        let fmt = |v: &Vec<String>| {
            if v.is_empty() {
                "·".to_string()
            } else {
                v.iter().map(|x| code(x)).collect::<Vec<_>>().join(", ")
            }
        };
        rows.push(vec![
            code(family),
            cell(&fmt(&s.allowed)),
            cell(&fmt(&s.rejected)),
            cell(&fmt(&s.unknown)),
        ]);
    }
    let _ = writeln!(
        out,
        "{}\n",
        table(
            &["family", "allowed", "rejected", "unknown (no evidence)"],
            rows
        )
    );
    let mut rows = Vec::new();
    for (family, s) in &p.summary.limits {
        rows.push(vec![
            code(family),
            s.allowed_up_to.map_or("·".into(), |n| n.to_string()),
            s.rejected_from.map_or("·".into(), |n| n.to_string()),
            if s.unknown.is_empty() {
                "·".into()
            } else {
                s.unknown
                    .iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        ]);
    }
    let _ = writeln!(
        out,
        "Limits (a value is allowed when every case at or below it is):\n\n{}\n",
        table(
            &[
                "limit",
                "allowed up to",
                "rejected from",
                "case values without evidence"
            ],
            rows
        )
    );
}

fn profiles_section(out: &mut String, set: &ProfileSet) {
    let _ = writeln!(out, "## Every target's own profile\n");
    let _ = writeln!(
        out,
        "Counted in features at placements, as profile.json lists them (`type-spelling: object` at the root and nested counts twice), not in the features the rule table and `toolwire rule` count once over their placements.\n"
    );
    let mut rows = Vec::new();
    for p in &set.profiles {
        let count = |s: Status| p.features.iter().filter(|f| f.status == s).count();
        let strict = p
            .targets
            .iter()
            .any(|t| crate::target::find(t).is_some_and(|t| t.strict));
        let name = if has_own_section(p) || p.name == PORTABLE {
            format!("[{}](#{})", code(&p.name), anchor(&allows_heading(p)))
        } else {
            code(&p.name)
        };
        rows.push(vec![
            name,
            if strict { "yes" } else { "" }.to_string(),
            p.control.as_str().to_string(),
            count(Status::Allowed).to_string(),
            count(Status::Rejected).to_string(),
            count(Status::Unknown).to_string(),
        ]);
    }
    let _ = writeln!(
        out,
        "{}\n",
        table(
            &[
                "profile", "strict", "control", "allowed", "rejected", "unknown"
            ],
            rows
        )
    );
}

/// Every (feature, rejecting evidence) pair that `rule` speaks for, over the per-target
/// profiles (the `why` of a rule, shared by RULES.md and `toolwire rule`).
pub fn rejections<'a>(
    set: &'a ProfileSet,
    rule: &'a Rule,
) -> impl Iterator<Item = (&'a super::FeatureEntry, &'a TargetEvidence)> + 'a {
    set.profiles
        .iter()
        .filter(|p| p.targets.len() == 1 && p.name == p.targets[0])
        .flat_map(|p| &p.features)
        .filter(move |f| {
            f.status == Status::Rejected
                && rules::owner(&f.parameter).map(|r| r.id) == Some(rule.id)
        })
        .flat_map(|f| f.rejected_by.iter().map(move |e| (f, e)))
}

fn rule_section(out: &mut String, set: &ProfileSet, rule: &Rule) {
    let _ = writeln!(out, "## `{}`\n", rule.id);
    let _ = writeln!(out, "{}\n", rule.checks);
    let _ = writeln!(out, "- Features: {}", rule.features);
    let _ = writeln!(
        out,
        "- {}: `{}`",
        rule.example_label(),
        rule.example.replace('`', "'")
    );
    let _ = writeln!(out, "- Fix: {}", rule.fix);
    let _ = writeln!(out, "- Repair: {}\n", rule.repair);
    let mut rows = Vec::new();
    for (f, e) in rejections(set, rule) {
        let placement = match super::judged_from(&f.judged_elsewhere, &e.target) {
            Some(judged) => format!("{} ({judged})", f.placement),
            None => f.placement.to_string(),
        };
        rows.push(vec![
            code(&f.parameter),
            placement,
            code(&e.target),
            evidence_links(e),
            code(&e.case),
        ]);
    }
    if rule.id == META_SCHEMA_RULE {
        // A class of schemas, carried by the profiles, with no case of its own: the case
        // column names the case whose evidence states or shows it, and says so.
        for e in meta_schema_evidence(set) {
            rows.push(vec![
                META_SCHEMA_FEATURE.to_string(),
                "any".to_string(),
                code(&e.target),
                evidence_links(e),
                format!("none of its own; evidence from {}", code(&e.case)),
            ]);
        }
    }
    if is_own_cap(rule.id) {
        let _ = writeln!(out, "None: {OWN_CAP}.\n");
    } else if rows.is_empty() {
        let _ = writeln!(
            out,
            "No target has rejecting evidence for these features yet.\n"
        );
    } else {
        // Limits read in number order (trial 78 D6: depth 100, 10, 11, ... 4, 5, 64).
        rows.sort_by(|a, b| in_number_order(&a[0], &b[0]).then_with(|| a.cmp(b)));
        rows.dedup();
        let _ = writeln!(
            out,
            "{}\n",
            table(
                &["feature", "placement", "rejected by", "evidence", "case"],
                rows
            )
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Placement;

    /// The rule table's values: limits in numeric order, numbers before words.
    /// Each profile's section is linked by the anchor GitHub gives its heading.
    #[test]
    fn a_profile_section_is_linked_by_its_headings_anchor() {
        assert_eq!(
            anchor("What `openai/chat-strict` allows"),
            "what-openaichat-strict-allows"
        );
        assert_eq!(
            anchor("What `llama.cpp/server` allows"),
            "what-llamacppserver-allows"
        );
    }

    /// The committed RULES.md (kept fresh by `rules --check`) has a section of what each
    /// provider route allows, as `portable` has (trial 78 D1), and every `#anchor` link in it
    /// leads to a heading.
    #[test]
    fn every_route_has_its_section_and_every_anchor_resolves() {
        let md = std::fs::read_to_string("reports/RULES.md").unwrap();
        let headings: std::collections::HashSet<String> = md
            .lines()
            .filter_map(|l| l.strip_prefix("## "))
            .map(anchor)
            .collect();
        for route in [
            "gemini/v1beta/parameters",
            "openai/chat-strict",
            "anthropic/messages",
        ] {
            let heading = format!("What `{route}` allows");
            assert!(headings.contains(&anchor(&heading)), "{heading}");
        }
        let links: Vec<&str> = md
            .split("](#")
            .skip(1)
            .filter_map(|rest| rest.split_once(')').map(|(a, _)| a))
            .collect();
        assert!(links.len() > 60, "{}", links.len());
        for link in links {
            assert!(headings.contains(link), "#{link}");
        }
    }

    /// The committed RULES.md lists each cell MATRIX.md marks ⚠ (trial 78 D5: none was).
    #[test]
    fn every_disagreement_of_the_matrix_is_in_the_rules() {
        let rules = std::fs::read_to_string("reports/RULES.md").unwrap();
        let matrix = std::fs::read_to_string("reports/MATRIX.md").unwrap();
        let listed = |md: &str| -> Vec<String> {
            md.lines()
                .filter(|l| l.starts_with("- `") && l.contains("` on `"))
                .map(|l| l.split(": ").next().unwrap_or_default().to_string())
                .collect()
        };
        let in_matrix = listed(&matrix);
        assert!(!in_matrix.is_empty());
        assert_eq!(listed(&rules), in_matrix);
    }

    /// Limits read in number order (trial 78 D6: depth 100, 10, 11, ... 4, 5, 64).
    #[test]
    fn rows_of_limits_are_in_number_order() {
        let mut v = vec![
            "`depth-limit: 100`",
            "`depth-limit: 4`",
            "`depth-limit: 10`",
            "`a`",
            "`depth-limit: 64`",
        ];
        v.sort_by(|a, b| in_number_order(a, b));
        assert_eq!(
            v,
            [
                "`a`",
                "`depth-limit: 4`",
                "`depth-limit: 10`",
                "`depth-limit: 64`",
                "`depth-limit: 100`"
            ]
        );
        assert!(in_number_order("x 007", "x 7").is_eq());
        assert!(in_number_order("", "a").is_lt());
    }

    #[test]
    fn values_are_listed_numbers_first_in_numeric_order() {
        let items: BTreeSet<String> = ["10", "100", "11", "4", "64", "-1", "2.5", "const"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(
            list(&items, 12),
            "`-1`, `2.5`, `4`, `10`, `11`, `64`, `100`, `const`"
        );
        assert_eq!(list(&items, 3), "`-1`, `2.5`, `4` and 5 more");
    }

    fn feature(
        parameter: &str,
        placement: Placement,
        status: Status,
    ) -> super::super::FeatureEntry {
        super::super::FeatureEntry {
            parameter: parameter.into(),
            placement,
            status,
            rejected_by: Vec::new(),
            unknown_for: Vec::new(),
            judged_elsewhere: BTreeMap::new(),
        }
    }

    fn profile_of(features: Vec<super::super::FeatureEntry>) -> Profile {
        Profile {
            name: "t/one".into(),
            targets: vec!["t/one".into()],
            control: Status::Allowed,
            features,
            summary: Default::default(),
            meta_schema: Vec::new(),
        }
    }

    /// A synthetic profile (no evidence behind it): each value of a rule's row is under its
    /// family (trial 78 D7: size-exceeded read `no evidence: 100, 200, ... 1000`, four limit
    /// families merged, so `1000` could be an enum size or a property count), and a value two
    /// families share is listed in each with its own status (the old row kept the rejected
    /// property count `1000` and dropped the enum size `1000` without evidence).
    #[test]
    fn a_rows_values_are_each_under_their_family() {
        let p = profile_of(vec![
            feature("enum-size-limit: 1000", Placement::Nested, Status::Unknown),
            feature(
                "schema-bytes-limit: 10240",
                Placement::Root,
                Status::Unknown,
            ),
            feature(
                "property-count-limit: 1000",
                Placement::Root,
                Status::Rejected,
            ),
            feature("enum-size-limit: 100", Placement::Nested, Status::Unknown),
        ]);
        let rule = rules::find("size-exceeded").unwrap();
        assert_eq!(
            parameters(&p, rule),
            "`enum-size-limit` (no evidence: `100`, `1000`); `property-count-limit` \
             (rejected: `1000`); `schema-bytes-limit` (no evidence: `10240`)"
        );
        let p = profile_of(vec![
            feature(
                "structure: items-without-type",
                Placement::Items,
                Status::Rejected,
            ),
            feature("type-missing", Placement::Nested, Status::Unknown),
        ]);
        assert_eq!(
            parameters(&p, rules::find("type-missing").unwrap()),
            "`structure` (rejected: `items-without-type`); `type-missing` (no evidence)"
        );
    }

    /// A feature is counted once over its placements, with the worst of their statuses, as
    /// the per-family tables of a profile's section merge them: allowed at the root but
    /// without evidence nested is not "allowed".
    #[test]
    fn a_feature_is_one_over_its_placements_and_its_worst_status() {
        let p = profile_of(vec![
            feature("type-spelling: object", Placement::Root, Status::Allowed),
            feature("type-spelling: object", Placement::Nested, Status::Unknown),
            feature("type-spelling: string", Placement::Root, Status::Allowed),
            feature("type-spelling: string", Placement::Items, Status::Allowed),
        ]);
        let rule = rules::find("type-unsupported").unwrap();
        let got = rule_features(&p, rule);
        assert_eq!(
            got,
            [
                RuleFeature {
                    parameter: "type-spelling: object",
                    status: Status::Unknown,
                    placements: vec![Placement::Root, Placement::Nested],
                },
                RuleFeature {
                    parameter: "type-spelling: string",
                    status: Status::Allowed,
                    placements: vec![Placement::Root, Placement::Items],
                },
            ]
        );
        assert_eq!(
            parameters(&p, rule),
            "`type-spelling` (allowed: `string`; no evidence: `object`)"
        );
    }

    /// A code span of a row's `portable` cell, with the family whose parentheses hold it
    /// (`None` outside any).
    type Span = (Option<String>, String);

    /// The `portable` cell of every row of the committed RULES.md (kept fresh by `rules
    /// --check`) as its rule's id and code spans.
    fn committed_row_values() -> Vec<(String, Vec<Span>)> {
        let md = std::fs::read_to_string("reports/RULES.md").unwrap();
        let mut rows = Vec::new();
        for line in md.lines().filter(|l| l.starts_with("| [`")) {
            let cells: Vec<&str> = line.split(" | ").collect();
            let id = cells[0]
                .trim_start_matches("| [`")
                .split('`')
                .next()
                .unwrap();
            let mut spans = Vec::new();
            let (mut depth, mut family, mut last) = (0usize, None, String::new());
            let mut chars = cells[2].chars();
            while let Some(c) = chars.next() {
                match c {
                    '`' => {
                        last = chars.by_ref().take_while(|&c| c != '`').collect();
                        spans.push((family.clone(), last.clone()));
                    }
                    '(' => {
                        if depth == 0 {
                            family = Some(last.clone());
                        }
                        depth += 1;
                    }
                    ')' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            family = None;
                        }
                    }
                    _ => {}
                }
            }
            rows.push((id.to_string(), spans));
        }
        rows
    }

    /// No number in a rule's `portable` cell of the committed RULES.md stands without its
    /// limit family (trial 78 D7: size-exceeded's `1000`, property-name-invalid's bare `64`).
    #[test]
    fn no_number_in_the_committed_rule_table_is_without_its_family() {
        let rows = committed_row_values();
        assert!(rows.len() > 40, "{}", rows.len());
        let mut numbers = 0;
        for (id, spans) in rows {
            for (family, value) in spans {
                if value.starts_with(|c: char| c.is_ascii_digit()) {
                    numbers += 1;
                    let family = family.unwrap_or_default();
                    assert!(
                        family.ends_with("-limit"),
                        "{id}: `{value}` under {family:?}"
                    );
                }
            }
        }
        assert!(numbers > 30, "{numbers}");
    }

    fn cited(date: &str, read: bool, inferred: bool) -> Cited {
        Cited {
            kind: EvidenceKind::Secondary,
            date: date.into(),
            source: format!("https://example.org/{date}"),
            via: None,
            read,
            inferred,
            not_verbatim: false,
        }
    }

    /// RULES.md's evidence (the newest, then `since`) says of each item whether its date is
    /// the day the source was read and whether its verdict is inferred, each of its own item;
    /// a stated item with its own date carries neither mark.
    #[test]
    fn read_dates_and_inferred_verdicts_are_marked_per_item() {
        let e = TargetEvidence {
            target: "openai/chat-strict".into(),
            case: "formats/byte-nested".into(),
            latest: cited("2026-12-03", true, true),
            since: cited("2026-05-06", false, false),
        };
        assert_eq!(
            evidence_links(&e),
            "[secondary read 2026-12-03, inferred](https://example.org/2026-12-03), \
             since [secondary 2026-05-06](https://example.org/2026-05-06)"
        );
        assert_eq!(e.latest.date_text(), "read 2026-12-03");
        assert_eq!(e.since.date_text(), "2026-05-06");
        // An undated item has no day it was read.
        assert_eq!(cited("", true, false).date_text(), "undated");
    }
}
