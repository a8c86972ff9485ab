//! `toolwire rules` (regenerate the matrix, profiles and rule table; `--check`: exit 1 naming
//! every stale file) and `toolwire rule ID` (one rule's documentation).

use crate::cli::{EXIT_FINDINGS, EXIT_OK, Paths};
use crate::error::{Error, Result};
use crate::profile::rules::{self, REGISTRY, Rule};
use crate::profile::{PORTABLE, ProfileSet, Status, table};
use crate::report::Mode;

#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// Compare instead of writing; exit 1 naming every stale file.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub paths: Paths,
}

/// Regenerates reports/matrix.json, MATRIX.md, profile.json and RULES.md.
/// The reports folder must exist: the generated files are made from the run logs and
/// documented evidence inside it, so a mistyped `--reports` would otherwise compare against
/// (or write) reports with no evidence at all, and `--check` would call them all stale.
pub fn run(args: RulesArgs) -> Result<u8> {
    let paths = &args.paths;
    paths.require_reports()?;
    let project = paths.project();
    for (log, line) in project.cut_lines()? {
        eprintln!(
            "warning: {}: line {line} was cut short mid-write (an interrupted probe); that line \
             is ignored",
            log.display()
        );
    }
    for (log, why) in project.unstarted_runs()? {
        eprintln!(
            "note: {}: {why}; it is not folded in (delete it)",
            log.display()
        );
    }
    for (log, n) in project.cut_short_runs()? {
        if n == 0 {
            eprintln!(
                "note: {} was cut short before its first observation: it holds nothing observed \
                 and is not folded in (delete it)",
                log.display()
            );
        } else {
            eprintln!(
                "note: {} was cut short (no footer); its {n} observations are folded in",
                log.display()
            );
        }
    }
    // Without its documented evidence a reports folder regenerates into a matrix of run logs
    // alone (or of nothing): `rules` would overwrite the committed files with it, and
    // `--check` would call them stale and send the user to do so.
    let documented = project.documented_dir();
    if !documented.is_dir() {
        return Err(Error::input(
            &documented,
            crate::error::Place::Path,
            "no such folder: the documented evidence the generated files are made from (a \
             mistyped `--reports`, or a checkout without it?)",
        ));
    }
    let mode = if args.check { Mode::Check } else { Mode::Write };
    let done = project.regenerate(mode)?;
    for w in done.left_out_warnings() {
        eprintln!("{w}");
    }
    if !args.check
        && let Some(note) = done.built_in_note()
    {
        eprintln!("{note}");
    }
    let changed = done.changed;
    for p in &changed {
        if args.check {
            println!("{}", check_line(p));
        } else {
            println!("wrote {}", p.display());
        }
    }
    // Said also when nothing is stale, so that a CI log shows the check ran.
    if args.check && changed.is_empty() {
        println!("{}", fresh_line(done.files, &paths.reports_dir));
    }
    Ok(if args.check && !changed.is_empty() {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    })
}

/// What `rules --check` says of a generated file that differs from what the evidence gives:
/// `stale`, or `missing` when there is no file (deleted, or a new one never written).
fn check_line(path: &std::path::Path) -> String {
    format!(
        "{}: {} (run `toolwire rules` and commit it)",
        if path.exists() { "stale" } else { "missing" },
        path.display()
    )
}

/// What `rules --check` says when every generated file is what the evidence gives.
fn fresh_line(files: usize, reports: &std::path::Path) -> String {
    format!(
        "fresh: all {files} generated files in {} match the evidence",
        reports.display()
    )
}

#[derive(Debug, clap::Args)]
pub struct RuleArgs {
    #[command(flatten)]
    pub no_project: crate::cli::NoProject,
    /// The rule id, e.g. `array-items-missing`; without one, every rule is listed.
    pub id: Option<String>,
    /// List every rule id with what it checks (what `toolwire rule` with no ID does).
    #[arg(long, conflicts_with = "id")]
    pub list: bool,
    /// Read profiles from this file instead of the ones built into the binary.
    #[arg(long, value_name = "FILE")]
    pub profiles: Option<std::path::PathBuf>,
    /// Output: `human` or `json` (one rule's entry as an object; without an ID, or with
    /// `--list`, every rule's entry in a list).
    #[arg(long, default_value = "human", value_parser = ["human", "json"])]
    pub format: String,
}

/// Prints one rule's documentation, or the list of rules (`--list`, or no id). An unknown id
/// is a usage error.
pub fn run_rule(args: RuleArgs) -> Result<u8> {
    args.no_project.refuse(
        "rule",
        "the rule registry built into the binary (and `--profiles FILE`)",
    )?;
    // Read whenever given, even where nothing is printed from it (the list): a wrong
    // `--profiles` is an error whatever else was asked.
    let given = match &args.profiles {
        Some(p) => Some(ProfileSet::load(p)?),
        None => None,
    };
    let json = args.format == "json";
    if args.list || args.id.is_none() {
        if json {
            let set = or_embedded(given)?;
            let docs: Vec<RuleDoc<'_>> = REGISTRY.iter().map(|r| rule_data(r, &set)).collect();
            println!("{}", to_json(&docs));
            return Ok(EXIT_OK);
        }
        for r in REGISTRY.iter() {
            println!("{:<28} {}", r.id, first_sentence(r.checks));
        }
        return Ok(EXIT_OK);
    }
    // Trimmed as `--ignore` trims its ids (a pasted id often carries a space).
    let id = args.id.unwrap_or_default().trim().to_string();
    if id.is_empty() {
        // Every id "contains" the empty one: the hint would list them all.
        return Err(Error::Usage(format!(
            "the rule id is empty; `toolwire rule` lists the {} rules",
            REGISTRY.len()
        )));
    }
    let Some(rule) = rules::find(&id) else {
        let near = near_ids(&id, REGISTRY.iter().map(|r| r.id));
        let hint = if near.is_empty() {
            String::new()
        } else {
            format!(" (did you mean {}?)", near.join(", "))
        };
        return Err(Error::Usage(format!(
            "unknown rule {id:?}{hint}; `toolwire rule` lists the {} rules",
            REGISTRY.len()
        )));
    };
    let set = or_embedded(given)?;
    if json {
        println!("{}", to_json(&rule_data(rule, &set)));
    } else {
        print!("{}", rule_doc(rule, &set));
    }
    Ok(EXIT_OK)
}

/// The profiles given with `--profiles`, else the ones built into the binary (read only when
/// something is printed from them: the text list is not).
fn or_embedded(given: Option<ProfileSet>) -> Result<ProfileSet> {
    match given {
        Some(set) => Ok(set),
        None => crate::profile::embedded(),
    }
}

/// `value` as pretty JSON. Serializing a [`RuleDoc`] cannot fail (strings, lists and maps
/// with string keys only).
fn to_json(value: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// The text up to the first sentence end: ". " outside parentheses and not closing "e.g." or
/// "i.e.", so that "(for instance …)" and "e.g. …" stay whole.
fn first_sentence(s: &str) -> &str {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '.' if depth == 0
                && s[i + 1..].starts_with(' ')
                && !s[..i].ends_with("e.g")
                && !s[..i].ends_with("i.e") =>
            {
                return &s[..=i];
            }
            _ => {}
        }
    }
    s
}

/// Lowercase with no separators: `ARRAY_ITEMS_MISSING` and `arrayitemsmissing` are the
/// same id typed another way.
fn squashed(id: &str) -> String {
    id.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' ' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The words of an id, lowercase.
fn words(id: &str) -> impl Iterator<Item = String> + '_ {
    id.split(['-', '_', ' ', '.'])
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

/// The ids to suggest for an unknown `id`, closest first (edit distance once case and
/// separators are set aside; ties keep registry order), at most five.
///
/// Ids within a third of the squashed length in edits are close, and when any is, only
/// they are shown (only the id itself when case or separators were all that differed): a
/// typo wants its fix, not every id sharing `missing`. Otherwise ids
/// sharing a word of three letters or more, or holding (or held in) the id, are shown, so
/// `type` lists the `type-…` rules. A one- or two-letter id is close to nothing.
fn near_ids<'a>(id: &str, ids: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let wanted = squashed(id);
    let wanted_words: Vec<String> = words(id).filter(|w| w.chars().count() >= 3).collect();
    let within = wanted.chars().count() / 3;
    let mut close = Vec::new();
    let mut related = Vec::new();
    for candidate in ids {
        let squashed_candidate = squashed(candidate);
        let distance = strsim::levenshtein(&wanted, &squashed_candidate);
        if distance <= within {
            close.push((distance, candidate));
        } else if wanted.chars().count() >= 3
            && (squashed_candidate.contains(&wanted)
                || wanted.contains(&squashed_candidate)
                || words(candidate).any(|w| wanted_words.contains(&w)))
        {
            related.push((distance, candidate));
        }
    }
    // The id itself in another case or spacing is the one meant.
    if close.iter().any(|(d, _)| *d == 0) {
        close.retain(|(d, _)| *d == 0);
    }
    let mut near = if close.is_empty() { related } else { close };
    // A stable sort: equally distant ids stay in registry order.
    near.sort_by_key(|(d, _)| *d);
    near.into_iter().take(5).map(|(_, id)| id).collect()
}

/// A rule's documentation: what it checks, why (generated from the profiles: which targets
/// reject its features, since when, with links), example, fix, repair. "Since" gives the
/// evidence the verdict dates from and "newest" the one that decides it, each with its own
/// kind, date and link. This is what `toolwire rule ID` prints.
pub fn rule_doc(rule: &Rule, set: &ProfileSet) -> String {
    let mut s = format!("{}\n", rule.id);
    for part in rule_parts(rule, set) {
        s.push('\n');
        match part {
            Part::Inline(label, value) => s.push_str(&format!("{label}: {value}\n")),
            Part::Lines(label, lines) | Part::Code(label, lines) => {
                s.push_str(&format!("{label}:\n"));
                for l in lines {
                    s.push_str(&format!("  {l}\n"));
                }
            }
        }
    }
    s
}

/// [`rule_doc`] as Markdown (for SARIF's `help.markdown`, which code scanning shows on an
/// alert's page): the same parts, labels in bold, the evidence as a list, the example as code.
pub fn rule_doc_markdown(rule: &Rule, set: &ProfileSet) -> String {
    let mut s = format!("**{}**\n", rule.id);
    for part in rule_parts(rule, set) {
        s.push('\n');
        match part {
            Part::Inline(label, value) => s.push_str(&format!("**{label}:** {value}\n")),
            Part::Lines(label, lines) if lines.len() == 1 => {
                s.push_str(&format!("**{label}:** {}\n", lines[0]));
            }
            Part::Lines(label, lines) => {
                s.push_str(&format!("**{label}:**\n\n"));
                for l in lines {
                    s.push_str(&format!("- {l}\n"));
                }
            }
            Part::Code(label, lines) => {
                s.push_str(&format!("**{label}:**\n\n```\n{}\n```\n", lines.join("\n")));
            }
        }
    }
    s
}

/// One part of a rule's documentation, written the same way by [`rule_doc`] and
/// [`rule_doc_markdown`].
enum Part {
    /// `label: value` on one line.
    Inline(String, String),
    /// A label and its lines of prose.
    Lines(String, Vec<String>),
    /// A label and a schema shown as written.
    Code(String, Vec<String>),
}

/// A rule's registry entry with the evidence behind it, as `toolwire rule ID --format json`
/// prints it and as every text of the rule ([`rule_doc`], [`rule_doc_markdown`], SARIF's
/// help) is written from: the texts are the registry's ([`Rule`]), the evidence rows the
/// profiles' ([`table::rejections`], [`table::meta_schema_evidence`]), never copied.
#[derive(Debug, serde::Serialize)]
pub struct RuleDoc<'a> {
    /// The rule id, e.g. `array-items-missing`.
    pub id: &'static str,
    /// What it checks (text's `What it checks`).
    pub checks: &'static str,
    /// The case parameters it reports, as prose (text's `Features (case parameters)`).
    pub features: &'static str,
    /// The lines of text's `Why (from the evidence)`, in its order: one per row of
    /// `rejected_by`, or one line saying why there is none (toolwire's own cap, or no
    /// rejecting evidence yet).
    pub why: Vec<String>,
    /// Each target's rejection of one of the rule's features, with the evidence for it, in
    /// the order of `why`; empty when `why` says there is none.
    pub rejected_by: Vec<Rejection<'a>>,
    /// What the `portable` profile says of the rule's features; absent when the profiles
    /// given have no `portable`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub portable: Option<PortableDoc<'a>>,
    /// The example's label (text's: `Example`, or what to check it with, or that it is a
    /// sketch).
    pub example_label: String,
    /// A parameters schema (or a tool) that triggers the rule, as JSON text; a sketch with
    /// `...` where `example_label` says so.
    pub example: &'static str,
    /// The target whose profile reports the example as this rule's error where `portable`
    /// does not; `null` when `portable` does (or the example is a sketch).
    pub example_target: Option<&'static str>,
    /// How to fix it by hand.
    pub fix: &'static str,
    /// Whether `toolwire repair` fixes it: `yes`, `no` or `partly: ...` with why.
    pub repair: &'static str,
    /// Where the rule's evidence table is, in toolwire's repository.
    pub evidence_table: String,
}

/// One row of a rule's "Why (from the evidence)": one target rejecting one feature.
#[derive(Debug, serde::Serialize)]
pub struct Rejection<'a> {
    /// The target id, e.g. `gemini/v1beta/parameters`.
    pub target: &'a str,
    /// The case parameter, e.g. `structure: array-without-items`; for `meta-schema-invalid`,
    /// which has no case of its own, the class of schemas its evidence speaks of.
    pub parameter: &'a str,
    /// Where in a tool the feature sits (`nested`, `root`, ...); `any` for
    /// `meta-schema-invalid`.
    pub placement: String,
    /// The placement whose verdict the target was given, when it has no evidence at this one
    /// ([`crate::profile::FeatureEntry::judged_elsewhere`]); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged_from: Option<crate::case::Placement>,
    /// The case whose matrix cell decided it.
    pub case: &'a str,
    /// The evidence the verdict dates from, as reports/profile.json cites it.
    pub since: &'a crate::profile::Cited,
    /// The newest evidence, the one that decides the verdict, as reports/profile.json cites it.
    pub latest: &'a crate::profile::Cited,
}

/// What the `portable` profile says of a rule (text's `Under `portable` (...)` line).
#[derive(Debug, serde::Serialize)]
pub struct PortableDoc<'a> {
    /// The profile's targets, in its order.
    pub targets: &'a [String],
    /// The line as text shows it: how many of the rule's features are allowed, rejected and
    /// unknown (or, for `meta-schema-invalid`, which targets reject by the meta-schema).
    pub summary: String,
}

/// A rule's [`RuleDoc`] under the profiles `set`.
pub fn rule_data<'a>(rule: &'a Rule, set: &'a ProfileSet) -> RuleDoc<'a> {
    use std::fmt::Write;
    // One line per piece of rejecting evidence: since when, and the newest when it differs.
    let line_of = |target: &str, what: &str, e: &crate::profile::TargetEvidence| {
        let mut line = format!(
            "{target} rejects {what} since {}: {}",
            e.since.date_text(),
            cited(&e.since)
        );
        if e.latest != e.since {
            let _ = write!(
                line,
                "; newest {}: {}",
                e.latest.date_text(),
                cited(&e.latest)
            );
        }
        line
    };
    let row = |parameter: &'a str,
               placement: String,
               judged_from: Option<crate::case::Placement>,
               e: &'a crate::profile::TargetEvidence| Rejection {
        target: &e.target,
        parameter,
        placement,
        judged_from,
        case: &e.case,
        since: &e.since,
        latest: &e.latest,
    };
    let mut rows = Vec::new();
    for (f, e) in table::rejections(set, rule) {
        let what = match crate::profile::judged_from(&f.judged_elsewhere, &e.target) {
            Some(judged) => format!("`{}` ({}, {judged})", f.parameter, f.placement),
            None => format!("`{}` ({})", f.parameter, f.placement),
        };
        let judged = f.judged_elsewhere.get(&e.target).copied();
        rows.push((
            line_of(&e.target, &what, e),
            row(&f.parameter, f.placement.to_string(), judged, e),
        ));
    }
    if rule.id == table::META_SCHEMA_RULE {
        // The rule has no case: its evidence is the profiles' meta-schema requirement, the
        // same items `check` cites for its findings.
        let what = format!("{} (any placement)", table::META_SCHEMA_FEATURE);
        for e in table::meta_schema_evidence(set) {
            rows.push((
                line_of(&e.target, &what, e),
                row(table::META_SCHEMA_FEATURE, "any".to_string(), None, e),
            ));
        }
    }
    // Ordered and made distinct by the line shown, so that the rows are the lines.
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    rows.dedup_by(|a, b| a.0 == b.0);
    let (mut why, mut rejected_by): (Vec<String>, Vec<Rejection<'a>>) = rows.into_iter().unzip();
    if table::is_own_cap(rule.id) {
        why = vec![format!("None: {}.", table::OWN_CAP)];
        rejected_by.clear();
    } else if why.is_empty() {
        why = vec!["No target has rejecting evidence for these features yet.".to_string()];
    }
    RuleDoc {
        id: rule.id,
        checks: rule.checks,
        features: rule.features,
        why,
        rejected_by,
        portable: set.get(PORTABLE).map(|p| PortableDoc {
            targets: &p.targets,
            summary: portable_line(p, rule),
        }),
        example_label: rule.example_label(),
        example: rule.example,
        example_target: rule.example_target,
        fix: rule.fix,
        repair: rule.repair,
        // Said as toolwire's file: SARIF carries this page into a user's repository, where a
        // bare `reports/RULES.md` would name a file that is not there.
        evidence_table: format!("reports/RULES.md#{} in toolwire's repository", rule.id),
    }
}

/// The parts of a rule's documentation, in order (see [`rule_doc`]), from its [`RuleDoc`].
fn rule_parts(rule: &Rule, set: &ProfileSet) -> Vec<Part> {
    let doc = rule_data(rule, set);
    let mut parts = vec![
        Part::Lines("What it checks".into(), vec![doc.checks.to_string()]),
        Part::Inline(
            "Features (case parameters)".into(),
            doc.features.to_string(),
        ),
        Part::Lines("Why (from the evidence)".into(), doc.why),
    ];
    if let Some(p) = doc.portable {
        parts.push(Part::Inline(
            format!("Under `portable` ({})", p.targets.join(", ")),
            p.summary,
        ));
    }
    parts.extend([
        Part::Code(doc.example_label, vec![doc.example.to_string()]),
        Part::Lines("Fix".into(), vec![doc.fix.to_string()]),
        Part::Inline("Repair".into(), doc.repair.to_string()),
        Part::Inline("Evidence table".into(), doc.evidence_table),
    ]);
    parts
}

/// What SARIF says of a rule (see [`crate::report::sarif::RuleHelp`]): its first sentence,
/// all of what it checks, and its documentation as [`rule_doc`] and [`rule_doc_markdown`].
pub fn sarif_help(rule: &Rule, set: &ProfileSet) -> crate::report::sarif::RuleHelp {
    crate::report::sarif::RuleHelp {
        short: first_sentence(rule.checks).to_string(),
        full: rule.checks.to_string(),
        text: rule_doc(rule, set),
        markdown: rule_doc_markdown(rule, set),
    }
}

/// "doc evidence, URL" (a probe names its run log): one item's kind and link, and the target
/// it is inherited from when it is another target's evidence.
fn cited(c: &crate::profile::Cited) -> String {
    let source = match c.kind {
        _ if c.source.is_empty() => "(no source)".to_string(),
        crate::evidence::EvidenceKind::Probe => format!("run {}", c.source),
        _ => c.source.clone(),
    };
    // An inferred verdict never reads as a stated one (the entry's note says how it is read).
    // Nor does a report whose quote is not the provider's words read as one that is.
    let marks: Vec<&str> = [
        (c.not_verbatim, "not verbatim"),
        (c.inferred, "inferred, not stated"),
    ]
    .into_iter()
    .filter_map(|(on, mark)| on.then_some(mark))
    .collect();
    let kind = if marks.is_empty() {
        format!("{} evidence", c.kind.as_str())
    } else {
        format!("{} evidence ({})", c.kind.as_str(), marks.join("; "))
    };
    match &c.via {
        Some(from) => format!("{kind}, {source}, inherited from {from}"),
        None => format!("{kind}, {source}"),
    }
}

fn portable_line(p: &crate::profile::Profile, rule: &Rule) -> String {
    if rule.id == table::META_SCHEMA_RULE {
        // No case to count: the profile itself says whether such schemas are rejected.
        let mut targets: Vec<&str> = p.meta_schema.iter().map(|e| e.target.as_str()).collect();
        targets.sort();
        targets.dedup();
        return if targets.is_empty() {
            "no case of its own; no target rejects by the meta-schema".to_string()
        } else {
            format!(
                "rejected: {}, by {} (the profile's meta-schema requirement, no case of its own)",
                table::META_SCHEMA_FEATURE,
                targets.join(", ")
            )
        };
    }
    // Counted in RULES.md's unit (trial 78 D7: this line counted features at placements,
    // the row listed values, and the two looked contradictory).
    let features = table::rule_features(p, rule);
    let count = |s: Status| features.iter().filter(|f| f.status == s).count();
    let allowed: Vec<String> = features
        .iter()
        .filter(|f| f.status == Status::Allowed)
        .map(|f| {
            let at: Vec<String> = f.placements.iter().map(|p| p.to_string()).collect();
            format!("{} ({})", f.parameter, at.join(", "))
        })
        .collect();
    format!(
        "{} allowed, {} rejected, {} unknown features (each case parameter once, over its \
         placements, as RULES.md lists them){}",
        count(Status::Allowed),
        count(Status::Rejected),
        count(Status::Unknown),
        if allowed.is_empty() {
            String::new()
        } else {
            format!("; allowed: {}", allowed.join(", "))
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `portable` cell of RULES.md cut into its family groups, `; ` outside parentheses
    /// and code spans (`$ref (with type)` holds parentheses of its own).
    fn family_groups(cell: &str) -> Vec<String> {
        let (mut groups, mut now, mut depth, mut in_code) = (Vec::new(), String::new(), 0, false);
        let mut chars = cell.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '`' => in_code = !in_code,
                '(' if !in_code => depth += 1,
                ')' if !in_code => depth -= 1,
                ';' if !in_code && depth == 0 && chars.peek() == Some(&' ') => {
                    chars.next();
                    groups.push(std::mem::take(&mut now));
                    continue;
                }
                _ => {}
            }
            now.push(c);
        }
        groups.push(now);
        groups
    }

    /// `toolwire rule ID`'s `portable` line counts what RULES.md's row for the rule lists, per
    /// status, for every rule (trial 78 D7: size-exceeded's "14 unknown" against 10 values in
    /// the row, type-unsupported's "8 allowed, 9 unknown" against 2 and 5), and says its unit.
    /// Reads the committed RULES.md, kept fresh by `rules --check`.
    #[test]
    fn the_portable_line_counts_what_the_committed_row_lists() {
        let md = std::fs::read_to_string("reports/RULES.md").unwrap();
        let set = crate::profile::embedded().unwrap();
        let p = set.get(PORTABLE).unwrap();
        let mut values = 0;
        for rule in REGISTRY.iter().filter(|r| r.id != table::META_SCHEMA_RULE) {
            let head = format!("| [`{}`](#{}) | ", rule.id, rule.id);
            let row = md.lines().find(|l| l.starts_with(&head)).expect(rule.id);
            let cell = row.split(" | ").nth(2).unwrap();
            // Allowed, rejected, no evidence.
            let mut listed = [0usize; 3];
            if cell != "(no case)" {
                for group in family_groups(cell) {
                    let inner = group
                        .split_once(" (")
                        .and_then(|(_, rest)| rest.strip_suffix(')'))
                        .unwrap_or_else(|| panic!("{}: {group}", rule.id));
                    for part in inner.split("; ") {
                        let (status, n) = match part.split_once(": ") {
                            Some((status, items)) => {
                                let more: usize = items
                                    .rsplit_once(" and ")
                                    .and_then(|(_, m)| m.strip_suffix(" more"))
                                    .map_or(0, |m| m.parse().unwrap());
                                (status, items.matches('`').count() / 2 + more)
                            }
                            None => (part, 1),
                        };
                        let slot = ["allowed", "rejected", "no evidence"]
                            .iter()
                            .position(|s| *s == status)
                            .unwrap_or_else(|| panic!("{}: {status}", rule.id));
                        listed[slot] += n;
                    }
                }
            }
            let line = portable_line(p, rule);
            let counted: Vec<usize> = line
                .splitn(4, ", ")
                .take(3)
                .map(|s| s.split(' ').next().unwrap().parse().unwrap())
                .collect();
            assert_eq!(counted, listed, "{}: {line} | {cell}", rule.id);
            assert!(
                line.contains(" unknown features (each case parameter once"),
                "{line}"
            );
            values += listed.iter().sum::<usize>();
        }
        assert!(values > 200, "{values}");
    }

    /// `toolwire rule` says of an inferred verdict that it is inferred, and of a stated one
    /// nothing more than its kind.
    /// The closest id comes first whatever its case or separators, and an id close to
    /// nothing gets no suggestion (it used to match any id holding its letter).
    #[test]
    fn suggestions_are_ranked_by_distance_and_ignore_case_and_separators() {
        let ids = || REGISTRY.iter().map(|r| r.id);
        let typo = near_ids("array-item-missing", ids());
        assert_eq!(typo.first(), Some(&"array-items-missing"), "{typo:?}");
        for typed in [
            "ARRAY-ITEMS-MISSING",
            "arrayitemsmissing",
            "Array_Items_Missing",
        ] {
            assert_eq!(near_ids(typed, ids()), ["array-items-missing"], "{typed}");
        }
        assert!(near_ids("x", ids()).is_empty());
        assert!(near_ids("qq", ids()).is_empty());
        assert_eq!(
            near_ids("ref", ids()),
            [
                "ref-remote",
                "ref-dangling",
                "ref-unsupported",
                "ref-expansion-exceeded"
            ]
        );
        let arrays = near_ids("arrays-items", ids());
        assert_eq!(arrays.first(), Some(&"array-items-missing"), "{arrays:?}");
        assert!(near_ids("type", ids()).len() <= 5);
    }

    #[test]
    fn an_inferred_citation_says_so() {
        let mut c = crate::profile::Cited {
            kind: crate::evidence::EvidenceKind::Secondary,
            date: "2026-12-02".into(),
            source: "https://example.org/a".into(),
            via: None,
            read: true,
            inferred: true,
            not_verbatim: false,
        };
        assert_eq!(
            cited(&c),
            "secondary evidence (inferred, not stated), https://example.org/a"
        );
        c.inferred = false;
        assert_eq!(cited(&c), "secondary evidence, https://example.org/a");
    }

    /// `toolwire rule` says of a report whose quote is not the provider's words that it is
    /// not verbatim, with any other mark, and of a verbatim one nothing more than its kind.
    #[test]
    fn a_not_verbatim_citation_says_so() {
        let mut c = crate::profile::Cited {
            kind: crate::evidence::EvidenceKind::Report,
            date: "2025-04-09".into(),
            source: "https://example.org/r".into(),
            via: None,
            read: false,
            inferred: false,
            not_verbatim: true,
        };
        assert_eq!(
            cited(&c),
            "report evidence (not verbatim), https://example.org/r"
        );
        assert_eq!(c.label(), "report 2025-04-09, not verbatim");
        c.inferred = true;
        assert_eq!(
            cited(&c),
            "report evidence (not verbatim; inferred, not stated), https://example.org/r"
        );
        c.inferred = false;
        c.not_verbatim = false;
        assert_eq!(cited(&c), "report evidence, https://example.org/r");
        assert_eq!(c.label(), "report 2025-04-09");
    }

    /// Trial 80 D6: `rule` had no machine format (`rule --format json` exited 2). Its JSON
    /// entry is the text's pieces, not a second copy: for every rule, each part the text
    /// prints is a field of the entry, and each `Why` line stands for one evidence row that
    /// is the profiles' own.
    #[test]
    fn every_rules_json_entry_says_what_its_text_says() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let mut rows = 0;
        for rule in REGISTRY.iter() {
            let doc = rule_data(rule, &set);
            let text = rule_doc(rule, &set);
            let json = serde_json::to_value(&doc).unwrap();
            assert_eq!(json["id"], rule.id);
            // README tells a program to read `repair` by its first word (trial 81 D2: ten
            // rules say more after it, `yes, unless ...`, `no: ...`).
            let first = rule.repair.split(|c: char| !c.is_ascii_alphabetic()).next();
            assert!(
                matches!(first, Some("yes" | "no" | "partly")),
                "{}: repair {:?}",
                rule.id,
                rule.repair
            );
            for field in ["checks", "features", "example", "fix", "repair"] {
                let value = json[field].as_str().unwrap();
                assert!(
                    text.contains(value),
                    "{}: {field} {value:?} not in {text}",
                    rule.id
                );
            }
            let why = json["why"].as_array().unwrap();
            for line in why {
                let line = format!("\n  {}\n", line.as_str().unwrap());
                assert!(text.contains(&line), "{}: {line:?} not in {text}", rule.id);
            }
            let rejected = json["rejected_by"].as_array().unwrap();
            if !rejected.is_empty() {
                assert_eq!(rejected.len(), why.len(), "{}", rule.id);
            }
            for (row, line) in rejected.iter().zip(why) {
                let line = line.as_str().unwrap();
                let target = row["target"].as_str().unwrap();
                assert!(line.starts_with(&format!("{target} rejects ")), "{line}");
                let param = row["parameter"].as_str().unwrap();
                assert!(line.contains(param), "{line} / {param}");
                // The evidence is profile.json's item, whole: `via` and the marks included.
                let own = set
                    .get(target)
                    .unwrap()
                    .features
                    .iter()
                    .flat_map(|f| &f.rejected_by)
                    .chain(&set.get(target).unwrap().meta_schema)
                    .any(|e| {
                        serde_json::to_value(&e.since).unwrap() == row["since"]
                            && serde_json::to_value(&e.latest).unwrap() == row["latest"]
                            && e.case == row["case"].as_str().unwrap()
                    });
                assert!(
                    own,
                    "{}: {row} is no evidence of {target}'s profile",
                    rule.id
                );
                rows += 1;
            }
            let portable = &json["portable"];
            let shown = format!(
                "Under `portable` ({}): {}",
                portable["targets"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(", "),
                portable["summary"].as_str().unwrap()
            );
            assert!(text.contains(&shown), "{shown:?} not in {text}");
        }
        assert!(
            rows > 0,
            "no rule has an evidence row: the comparison read nothing"
        );
    }

    /// A generated file that is not there was called stale.
    #[test]
    fn a_deleted_generated_file_is_missing_not_stale() {
        let dir = tempfile::tempdir().unwrap();
        let there = dir.path().join("MATRIX.md");
        std::fs::write(&there, "old").unwrap();
        assert!(super::check_line(&there).starts_with("stale: "));
        let gone = dir.path().join("RULES.md");
        assert!(super::check_line(&gone).starts_with("missing: "));
    }

    #[test]
    fn meta_schema_rule_cites_the_profiles_requirement() {
        // The rule has no case: its evidence is `Profile::meta_schema`, which `check` cites.
        let set = crate::profile::embedded().expect("built-in profiles load");
        let rule = rules::find("meta-schema-invalid").unwrap();
        let doc = rule_doc(rule, &set);
        assert!(!doc.contains("No target has rejecting evidence"), "{doc}");
        for e in table::meta_schema_evidence(&set) {
            let line = format!(
                "  {} rejects {} (any placement) since {}: {}",
                e.target,
                table::META_SCHEMA_FEATURE,
                e.since.date_text(),
                cited(&e.since)
            );
            assert!(doc.contains(&line), "{line:?} not in {doc}");
        }
        let portable = set.get(PORTABLE).unwrap();
        assert!(!portable.meta_schema.is_empty());
        let line = portable_line(portable, rule);
        assert!(line.starts_with("rejected: "), "{line}");
        for e in &portable.meta_schema {
            assert!(line.contains(&e.target), "{line}");
        }
        // A profile without the requirement says so instead of counting cases.
        let openai = set.get("openai/chat").unwrap();
        assert!(openai.meta_schema.is_empty());
        assert!(
            portable_line(openai, rule).starts_with("no case of its own"),
            "{}",
            portable_line(openai, rule)
        );
    }
}
