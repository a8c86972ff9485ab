//! The accept/reject matrix: case × target → cell, folded from every run log and every piece
//! of documented evidence.
//!
//! Rules of the fold:
//! - each cell keeps a history: consecutive probe observations with one verdict collapse into
//!   one entry with first/last date and a count; documented and reported facts stay one entry
//!   each with their URL and date;
//! - the newest decisive evidence decides the current verdict (an inferred item only where no
//!   stated item speaks to the cell), except that a probe verdict
//!   that *changes* an earlier probe verdict only counts once it was seen twice (in two runs,
//!   or repeated within one); until then the cell shows it as `pending`;
//! - evidence that disagrees is kept and the cell is marked `conflict`, never resolved
//!   silently;
//! - a cell with no decisive evidence has no verdict ("no evidence");
//! - a cell names two items of its history by index: the one that decides its verdict
//!   (`decided_by`, whose kind and last date are the cell's `kind` and `last_seen`) and the one
//!   its verdict dates from (`since_from`, whose first date is `since`), so that whoever shows
//!   a kind, a date and a link shows them from one item.
//!
//! The output is deterministic: the same inputs give the same bytes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::runlog::RunLog;
use super::{EvidenceKind, Observation, Stage, Verdict};
use crate::case::{Case, Catalog};

/// One piece of evidence in a cell's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvidenceItem {
    pub kind: EvidenceKind,
    pub verdict: Verdict,
    /// First date (UTC, `YYYY-MM-DD`) this verdict was seen or stated.
    pub first_seen: String,
    /// Last date it was seen (equal to `first_seen` for doc/report).
    pub last_seen: String,
    /// Probe: how many observations this entry folds. Doc/report: 1.
    pub count: usize,
    /// Probe: the run ids of the first and last observation. Doc/report: the URL.
    pub source: String,
    /// Verbatim error text (probe: of the last observation; report: as reported) or the
    /// documentation's quote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// The path the error names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<Stage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Probe: the endpoint. Doc/report: the route or page title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Probe: accepting answers that took the body only as far as the target's parser
    /// ([`crate::evidence::parsed_only`]: Gemini's keyless 403). Kept as history, never as
    /// acceptance: such an item decides no verdict and disagrees with none, and it ends a
    /// parse-stage rejection older than it (the body parses now; whether the validator takes
    /// it is unknown).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub parsed_only: bool,
    /// The target whose cell this item was copied from, by a declared
    /// [`crate::target::Inheritance`]: another target's rejection, never an observation or a
    /// statement about this one, shown everywhere as "via" that target. `None` for the cell's
    /// own evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// Documented: an acceptance derived for a feature a tool showed, from an entry showing
    /// the target accepting that whole tool ([`super::documented::whole_tool`]), not stated
    /// about the feature itself. It yields to every other item of its date, so that it
    /// never overturns a rejection of the same day.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub whole_tool: bool,
    /// Documented: the verdict is inferred from the source's words, not stated by them (a
    /// list of what is supported read as refusing what it leaves out; the item's note says
    /// how), so that no reader takes it for a statement.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inferred: bool,
    /// Documented: the date is the day the source was read, not a day the source gives for
    /// what it says, so it is shown as `read <date>`, never as the fact's own date.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub read: bool,
    /// Documented `report`: the quote shown is not the provider's answer verbatim (a
    /// reporter's paraphrase, an issue title, a truncated excerpt), so the item is shown as
    /// `not verbatim`, never as the provider's own error.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_verbatim: bool,
}

#[cfg(test)]
impl EvidenceItem {
    /// A test's piece of evidence: seen once on `date`, from `source`, with nothing else.
    pub(crate) fn seen_once(
        kind: EvidenceKind,
        verdict: Verdict,
        date: &str,
        source: &str,
    ) -> Self {
        EvidenceItem {
            kind,
            verdict,
            first_seen: date.into(),
            last_seen: date.into(),
            count: 1,
            source: source.into(),
            quote: None,
            path: None,
            stage: None,
            model: None,
            endpoint: None,
            note: None,
            parsed_only: false,
            via: None,
            whole_tool: false,
            inferred: false,
            read: false,
            not_verbatim: false,
        }
    }
}

/// A documented fact or public report mapped to one (case, target) cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Documented {
    pub case: String,
    pub target: String,
    pub item: EvidenceItem,
}

/// One cell of the matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub case: String,
    pub target: String,
    /// The current verdict; `None` when there is no decisive evidence.
    pub verdict: Option<Verdict>,
    /// The kind of the evidence that decided it (the item at `decided_by`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<EvidenceKind>,
    /// The date the current verdict was first seen: the `first_seen` of the item at
    /// `since_from`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// The date of the newest evidence for the current verdict: the `last_seen` of the item at
    /// `decided_by`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_seen: Option<String>,
    /// Index into `evidence` of the item that decides the current verdict: the newest one
    /// believed. MATRIX.md shows its kind and date, and `check` quotes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<usize>,
    /// Index into `evidence` of the item the current verdict dates from: among the items of
    /// the current verdict since it last changed, the one first seen earliest (a dated item
    /// before an undated one). RULES.md and `toolwire rule` give its date as "since".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since_from: Option<usize>,
    /// A newer probe verdict seen only once, not yet believed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Verdict>,
    /// Evidence disagrees (shown with dates in `evidence`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub conflict: bool,
    /// The last non-decisive probe outcome (confounded, inconclusive, unreachable), if newer
    /// than every decisive one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_attempt: Option<String>,
    /// History, oldest first.
    pub evidence: Vec<EvidenceItem>,
}

/// A case as the matrix lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseRow {
    pub id: String,
    pub title: String,
    pub family: String,
    pub parameter: String,
    pub placement: String,
}

/// The whole matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Matrix {
    /// Target ids, in column order.
    pub targets: Vec<String>,
    pub cases: Vec<CaseRow>,
    /// Run ids folded in, oldest first.
    pub runs: Vec<String>,
    /// For each run folded in (by run id), the targets that gave it a decisive verdict
    /// (accepted, accepted-ignored, rejected), sorted: what the run reached. A run with none
    /// is listed with an empty list. Empty when read from a `matrix.json` written before it
    /// was kept.
    #[serde(default)]
    pub reached: BTreeMap<String, Vec<String>>,
    /// Cells with any evidence, ordered by case then target column.
    pub cells: Vec<Cell>,
    /// Every feature a report shows a target accepting as part of a whole tool, sorted: the
    /// acceptance the profiles infer for a feature with no case of its own (a lowercase name,
    /// `properties` at the root), as they do from an accepted control.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shown: Vec<Shown>,
}

/// A feature a report shows a target accepting as part of a whole tool
/// ([`super::documented::whole_tool`]).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Shown {
    pub target: String,
    /// The case parameter (`keyword-allowed: required`).
    pub parameter: String,
    pub placement: crate::case::Placement,
    /// The report's date (that of its accepting cell, when dated apart).
    pub date: String,
    /// The report's URL.
    pub source: String,
    /// "accepted as part of the tool … in <entry id>".
    pub note: String,
}

impl Cell {
    /// The item that decides the current verdict (see [`Cell::decided_by`]).
    pub fn deciding_item(&self) -> Option<&EvidenceItem> {
        self.decided_by.and_then(|i| self.evidence.get(i))
    }

    /// The item the current verdict dates from (see [`Cell::since_from`]).
    pub fn since_item(&self) -> Option<&EvidenceItem> {
        self.since_from.and_then(|i| self.evidence.get(i))
    }
}

impl Matrix {
    /// The cell for (case, target), if it has any evidence.
    pub fn cell(&self, case: &str, target: &str) -> Option<&Cell> {
        self.cells
            .iter()
            .find(|c| c.case == case && c.target == target)
    }

    /// Current decisive verdicts keyed by (case, target).
    pub fn verdicts(&self) -> std::collections::HashMap<(String, String), Verdict> {
        self.cells
            .iter()
            .filter_map(|c| c.verdict.map(|v| ((c.case.clone(), c.target.clone()), v)))
            .collect()
    }
}

fn day(o: &Observation) -> String {
    o.time.format("%Y-%m-%d").to_string()
}

/// Folds run logs (oldest first) and documented evidence into the matrix. `targets` fixes the
/// column order; evidence for a case or target not listed is ignored.
pub fn build(
    catalog: &Catalog,
    targets: &[String],
    runs: &[RunLog],
    documented: &[Documented],
) -> Matrix {
    let case_index: BTreeMap<&str, usize> = catalog
        .cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.as_str(), i))
        .collect();
    let target_index: BTreeMap<&str, usize> = targets
        .iter()
        .enumerate()
        .map(|(i, t)| (t.as_str(), i))
        .collect();
    // (case idx, target idx) → history being built.
    let mut hist: BTreeMap<(usize, usize), History> = BTreeMap::new();

    let mut runs_sorted: Vec<&RunLog> = runs.iter().collect();
    runs_sorted
        .sort_by(|a, b| (a.header.started, &a.header.run).cmp(&(b.header.started, &b.header.run)));
    for run in &runs_sorted {
        let mut obs: Vec<&Observation> = run.observations.iter().collect();
        obs.sort_by(|a, b| (a.time, &a.case, &a.target).cmp(&(b.time, &b.case, &b.target)));
        for o in obs {
            let (Some(&ci), Some(&ti)) = (
                case_index.get(o.case.as_str()),
                target_index.get(o.target.as_str()),
            ) else {
                continue;
            };
            // A request that never reached the target says nothing (see `add_probe`), so it
            // makes no cell either: a run without network would otherwise add an empty cell
            // (no verdict, no evidence) for every case of every route it tried, and the
            // regenerated matrix would differ from the committed one by more than the run.
            if History::says_nothing(o) {
                continue;
            }
            hist.entry((ci, ti)).or_default().add_probe(o);
        }
    }
    let mut docs: Vec<&Documented> = documented.iter().collect();
    docs.sort_by(|a, b| {
        (&a.item.first_seen, &a.item.source).cmp(&(&b.item.first_seen, &b.item.source))
    });
    for d in docs {
        let (Some(&ci), Some(&ti)) = (
            case_index.get(d.case.as_str()),
            target_index.get(d.target.as_str()),
        ) else {
            continue;
        };
        hist.entry((ci, ti)).or_default().items.push(d.item.clone());
    }

    let mut cells: BTreeMap<(usize, usize), Cell> = hist
        .into_iter()
        .map(|((ci, ti), h)| ((ci, ti), h.into_cell(&catalog.cases[ci].id, &targets[ti])))
        .collect();
    inherit(&mut cells, &target_index);
    Matrix {
        targets: targets.to_vec(),
        cases: catalog.cases.iter().map(case_row).collect(),
        runs: runs_sorted.iter().map(|r| r.header.run.clone()).collect(),
        reached: runs_sorted.iter().map(|r| reached(r)).collect(),
        cells: cells.into_values().collect(),
        shown: Vec::new(),
    }
}

/// Fills the gaps of the columns an [`crate::target::INHERITANCE`] fact speaks to, both ways
/// it reads: a cell of the inheriting target with no evidence of its own (none, or only
/// non-decisive attempts) whose source cell is rejected takes that rejection; and a cell of
/// the source with none whose inheriting cell is accepted takes that acceptance (what passes
/// every check the inheriting target runs passes the source's checks, a subset of them). The
/// cell takes the deciding item and the item its verdict dates from, marked `via` the target
/// that holds them. A cell with any evidence of its own is left to it; the source's acceptance
/// and the inheriting target's rejection are never passed on (the inheriting target may reject
/// more).
fn inherit(cells: &mut BTreeMap<(usize, usize), Cell>, target_index: &BTreeMap<&str, usize>) {
    for rule in crate::target::INHERITANCE {
        let (Some(&to), Some(&from)) = (target_index.get(rule.target), target_index.get(rule.from))
        else {
            continue;
        };
        // Both taken before either is written: the rejections are never the acceptances'
        // targets, and the other way round, so nothing travels back the way it came.
        let rejected = passed_on(cells, from, Verdict::Rejected);
        let accepted = passed_on(cells, to, Verdict::Accepted);
        fill(cells, (to, rule.target), rule.from, rejected);
        fill(cells, (from, rule.from), rule.target, accepted);
    }
}

/// The cells of column `source` whose verdict is `verdict`, each as
/// (case index, its deciding item and the item its verdict dates from, case id).
fn passed_on(
    cells: &BTreeMap<(usize, usize), Cell>,
    source: usize,
    verdict: Verdict,
) -> Vec<(usize, Vec<EvidenceItem>, String)> {
    cells
        .iter()
        .filter(|((_, ti), c)| *ti == source && c.verdict == Some(verdict))
        .filter_map(|(&(ci, _), c)| {
            let mut items = vec![c.deciding_item()?.clone()];
            items.extend(c.since_item().filter(|s| *s != &items[0]).cloned());
            Some((ci, items, c.case.clone()))
        })
        .collect()
}

/// Writes each of `sources` into column `gap` (its index and target id) where its cell has no
/// evidence of its own, each item marked `via` the target `holder` it was taken from, or where
/// that target took it from.
fn fill(
    cells: &mut BTreeMap<(usize, usize), Cell>,
    (gap, gap_target): (usize, &str),
    holder: &str,
    sources: Vec<(usize, Vec<EvidenceItem>, String)>,
) {
    for (ci, items, case) in sources {
        let own = cells.get(&(ci, gap));
        if own.is_some_and(|c| !c.evidence.is_empty()) {
            continue;
        }
        let items = items
            .into_iter()
            .map(|it| EvidenceItem {
                via: Some(it.via.clone().unwrap_or_else(|| holder.to_string())),
                ..it
            })
            .collect();
        let last_attempt = own.and_then(|c| c.last_attempt.clone());
        let mut cell = History {
            items,
            last_attempt: None,
        }
        .into_cell(&case, gap_target);
        cell.last_attempt = last_attempt;
        cells.insert((ci, gap), cell);
    }
}

/// The run id of `run` and the targets it has a decisive verdict from, sorted, once each.
fn reached(run: &RunLog) -> (String, Vec<String>) {
    let targets: std::collections::BTreeSet<&str> = run
        .observations
        .iter()
        .filter(|o| o.verdict.is_decisive())
        .map(|o| o.target.as_str())
        .collect();
    (
        run.header.run.clone(),
        targets.into_iter().map(str::to_string).collect(),
    )
}

impl Matrix {
    /// How many runs are folded in and which kinds of target they reached (from
    /// [`Matrix::reached`]: an in-process engine is a target whose id starts with `engine/`,
    /// [`crate::target::is_engine`]; any other is a provider route), e.g. `7 (all 7 reached
    /// the in-process engines only; no provider route was probed: every provider verdict is
    /// doc, report or secondary evidence)`, the kinds named being those that decide the
    /// verdicts of the other provider routes' cells. RULES.md and
    /// MATRIX.md both say it, so that no reader takes the run count for provider probing, nor
    /// a third party's reading for the provider's own words.
    pub fn runs_folded(&self) -> String {
        let n = self.runs.len();
        let mut engines_only = 0;
        let mut none = 0;
        let mut providers = std::collections::BTreeSet::new();
        for run in &self.runs {
            let targets = self.reached.get(run).map_or(&[][..], Vec::as_slice);
            let (engines, routes): (Vec<&String>, Vec<&String>) =
                targets.iter().partition(|t| crate::target::is_engine(t));
            match (engines.is_empty(), routes.is_empty()) {
                (true, true) => none += 1,
                (false, true) => engines_only += 1,
                _ => providers.extend(routes),
            }
        }
        let with_routes = n - engines_only - none;
        let kinds = self.deciding_kinds(&providers);
        if n == 0 {
            return format!("0 (no provider route was probed: {kinds})");
        }
        let mut parts = Vec::new();
        if engines_only > 0 {
            let all = if engines_only == n { "all " } else { "" };
            parts.push(format!(
                "{all}{engines_only} reached the in-process engines only"
            ));
        }
        if none > 0 {
            parts.push(format!("{none} had no decisive verdict"));
        }
        if with_routes > 0 {
            let routes: Vec<String> = providers.iter().map(|t| format!("`{t}`")).collect();
            parts.push(format!(
                "{with_routes} reached provider routes: {}",
                routes.join(", ")
            ));
        }
        let provider_evidence = if with_routes == 0 {
            format!("no provider route was probed: {kinds}")
        } else {
            format!("only these routes' cells can hold probe evidence; {kinds}")
        };
        format!("{n} ({}; {provider_evidence})", parts.join(", "))
    }

    /// `every provider verdict is doc, report or secondary evidence`: the kinds of the items
    /// deciding the verdicts of provider cells (not [`crate::target::is_engine`]), once each
    /// in [`EvidenceKind`]'s order. With `probed` routes, only the other routes' cells count
    /// and it says `every other provider verdict`; `no (other) provider cell has a verdict`
    /// when none does.
    fn deciding_kinds(&self, probed: &std::collections::BTreeSet<&String>) -> String {
        let kinds: std::collections::BTreeSet<EvidenceKind> = self
            .cells
            .iter()
            .filter(|c| c.verdict.is_some() && !crate::target::is_engine(&c.target))
            .filter(|c| !probed.contains(&c.target))
            .filter_map(|c| c.kind)
            .collect();
        let other = if probed.is_empty() { "" } else { "other " };
        let mut names: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
        let Some(last) = names.pop() else {
            return format!("no {other}provider cell has a verdict");
        };
        let list = if names.is_empty() {
            last.to_string()
        } else {
            format!("{} or {last}", names.join(", "))
        };
        format!("every {other}provider verdict is {list} evidence")
    }
}

fn case_row(c: &Case) -> CaseRow {
    CaseRow {
        id: c.id.clone(),
        title: c.title.clone(),
        family: c.family.clone(),
        parameter: c.parameter.clone(),
        placement: c.placement.to_string(),
    }
}

#[derive(Default)]
struct History {
    items: Vec<EvidenceItem>,
    /// Newest non-decisive probe outcome after the last decisive one: (date, text).
    last_attempt: Option<(String, String)>,
}

impl History {
    /// A request that never reached the target (no network, DNS, TLS) says nothing about
    /// it; only answers from the target are shown as a cell's last attempt.
    fn says_nothing(o: &Observation) -> bool {
        !o.verdict.is_decisive() && o.stage == Stage::Transport
    }

    fn add_probe(&mut self, o: &Observation) {
        let date = day(o);
        if Self::says_nothing(o) {
            return;
        }
        if !o.verdict.is_decisive() {
            self.last_attempt = Some((
                date.clone(),
                format!("{} on {date} (run {})", o.verdict, o.run),
            ));
            return;
        }
        self.last_attempt = None;
        // Documents are added after all runs, so the last item is the newest probe entry.
        let parsed_only = o.parsed_only();
        if let Some(last) = self.items.last_mut()
            && last.kind == EvidenceKind::Probe
            && last.verdict == o.verdict
            && last.parsed_only == parsed_only
        {
            last.last_seen = date;
            last.count += 1;
            let first_run = last
                .source
                .split(" .. ")
                .next()
                .unwrap_or_default()
                .to_string();
            last.source = if first_run == o.run {
                first_run
            } else {
                format!("{first_run} .. {}", o.run)
            };
            last.quote = o.error.clone();
            last.path = o.path.clone();
            last.stage = Some(o.stage);
            last.model = o.model.clone();
            last.endpoint = Some(o.endpoint.clone());
            last.note = o.note.clone();
            return;
        }
        self.items.push(EvidenceItem {
            kind: EvidenceKind::Probe,
            verdict: o.verdict,
            first_seen: date.clone(),
            last_seen: date,
            count: 1,
            source: o.run.clone(),
            quote: o.error.clone(),
            path: o.path.clone(),
            stage: Some(o.stage),
            model: o.model.clone(),
            endpoint: Some(o.endpoint.clone()),
            note: o.note.clone(),
            parsed_only,
            via: None,
            whole_tool: false,
            inferred: false,
            read: false,
            not_verbatim: false,
        });
    }

    fn into_cell(self, case: &str, target: &str) -> Cell {
        let mut items = self.items;
        // Oldest first by date, an acceptance derived from a whole tool before the other items
        // of its date (so that they decide); other ties keep insertion order (probe history,
        // then documents).
        items.sort_by(|a, b| (&a.last_seen, !a.whole_tool).cmp(&(&b.last_seen, !b.whole_tool)));
        // A parsed-only item is no verdict, so it disagrees with none.
        let conflict = {
            let mut verdicts = items.iter().filter(|i| !i.parsed_only).map(|i| i.verdict);
            verdicts
                .next()
                .is_some_and(|first| verdicts.any(|v| v != first))
        };
        let mut verdict = None;
        let mut decided_by: Option<usize> = None;
        let mut since_from: Option<usize> = None;
        let mut pending = None;
        let mut probe_verdict: Option<Verdict> = None;
        // Whether a rejection that still stands (one of the run of rejections deciding the cell
        // now, not only the newest) came from past the parser or from a stage not known: a
        // parse-stage answer overturns only a run of parse-stage rejections (trial 87 D1: a
        // parse-stage rejection between them had hidden an older validator's).
        let mut rejected_past_parse = false;
        // Earlier first, and any date before none: "since" is the earliest *known* date.
        let since_key = |it: &EvidenceItem| (it.first_seen.is_empty(), it.first_seen.clone());
        // Stated evidence outranks inference: a doc read today and read as refusing what it
        // leaves out must not overturn a provider's own error of last year, so an inferred item
        // decides only a cell no stated item speaks to (it stays in the history, and a
        // disagreement still marks the conflict).
        let stated = items.iter().any(|i| !i.parsed_only && !i.inferred);
        for (i, it) in items.iter().enumerate() {
            if it.inferred && stated {
                continue;
            }
            if it.parsed_only {
                // The body parses now: a parse-stage rejection before it no longer holds, and
                // what the validator behind the parser does is not known.
                // Seen twice, as any probe verdict that changes the cell must be.
                if verdict == Some(Verdict::Rejected) && !rejected_past_parse && it.count >= 2 {
                    (verdict, decided_by, since_from) = (None, None, None);
                }
                continue;
            }
            // A body that parsed says nothing about the validator behind the parser (Gemini's
            // keyless pre-auth probe answers 403 once the body parses), so a parse-stage
            // acceptance never overturns a rejection from the validator or of unknown stage.
            if it.stage == Some(Stage::Parse)
                && it.verdict.is_accepting()
                && verdict == Some(Verdict::Rejected)
                && rejected_past_parse
            {
                continue;
            }
            if it.kind == EvidenceKind::Probe {
                let changes = probe_verdict.is_some_and(|p| p != it.verdict);
                probe_verdict = Some(it.verdict);
                if changes && it.count < 2 {
                    pending = Some(it.verdict);
                    continue;
                }
            }
            pending = pending.filter(|p| *p != it.verdict && it.kind != EvidenceKind::Probe);
            // Items are ordered by `last_seen`, so a later item of the same verdict can have
            // been first seen earlier (a probe entry folding many runs).
            if verdict != Some(it.verdict)
                || since_from.is_none_or(|s| since_key(it) < since_key(&items[s]))
            {
                since_from = Some(i);
            }
            rejected_past_parse = it.verdict == Verdict::Rejected
                && (it.stage != Some(Stage::Parse)
                    || (verdict == Some(Verdict::Rejected) && rejected_past_parse));
            verdict = Some(it.verdict);
            decided_by = Some(i);
        }
        let decided = decided_by.map(|i| &items[i]);
        Cell {
            case: case.to_string(),
            target: target.to_string(),
            verdict,
            kind: decided.map(|it| it.kind),
            since: since_from.map(|i| items[i].first_seen.clone()),
            last_seen: decided.map(|it| it.last_seen.clone()),
            decided_by,
            since_from,
            pending,
            conflict,
            last_attempt: self.last_attempt.map(|(_, t)| t),
            evidence: items,
        }
    }
}

/// The one-glyph form of a verdict used in tables.
pub fn glyph(v: Option<Verdict>) -> &'static str {
    match v {
        Some(Verdict::Accepted) => "✓",
        Some(Verdict::AcceptedIgnored) => "~",
        Some(Verdict::Rejected) => "✗",
        Some(_) => "?",
        None => "·",
    }
}

/// Renders MATRIX.md: a legend, then one table per family, one row per case, one column per
/// target; each cell is glyph, evidence kind and date.
pub fn to_markdown(m: &Matrix) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "# Accept/reject matrix\n");
    let _ = writeln!(
        out,
        "Generated by `toolwire matrix` from `reports/runs/*.jsonl` and `reports/documented/`; do not edit.\n"
    );
    let _ = writeln!(
        out,
        "Legend: ✓ accepted · ✗ rejected · ~ accepted but not enforced (instance check) · `·` no evidence (`· parses`: a probe got the body only past the target's parser, as Gemini's front end answers without a key, which is no verdict) · ⚠ evidence disagrees (every piece is listed, with its date, under the family's table) · ⏳ a newer probe verdict seen once, not yet believed · `in a tool`: the evidence shows the target accepting a whole tool that has this feature, not a statement about the feature (derived: reports/documented/README.md) · `, inferred` after the date: the verdict is inferred from the source's words, not stated by them (a list of what is supported read as refusing what it leaves out; the entry's note in reports/documented/ says how); such an item decides a cell only when no stated item speaks to it: stated evidence outranks inference, and among equals the newest decides · `read` before a date: the day the source was read, not a date the source gives for what it says · `, not verbatim` after a report's date: the quote kept for it is not the provider's answer verbatim (a reporter's paraphrase, an issue title, a cut-short excerpt; the entry's `verbatim_note` says which), so the report is weaker than one quoting the provider's error. \
Each cell: verdict, evidence kind (`probe` = observed by toolwire; `doc` = the provider's own documentation; `report` = public bug report; `secondary` = a third party's reading of the provider, such as a client library's) and the date of the newest evidence for it, linked to that evidence (a probe to its run log, any other to its page). \
`engine/gemini-proto-snapshot/*` is a protobuf parse against a snapshot of Gemini v1beta's published field list, not Gemini itself. \
Where a case's cell has no evidence, the profiles judge its feature by the same feature at the nearest placement that has some (RULES.md says which case a rejection is from; profile.json's `judged_elsewhere` names that placement per feature and target, for every verdict).\n"
    );
    for rule in crate::target::INHERITANCE
        .iter()
        .filter(|r| m.targets.iter().any(|t| t == r.target))
    {
        let _ = writeln!(
            out,
            // "each", not an article: "a" or "an" depends on how the target's name is read.
            "Inherited: each `{to}` cell with no evidence of its own takes `{from}`'s rejection, shown \
             as `{from}`'s evidence \"via {from}\" (never an acceptance, and never evidence \
             observed on `{to}`), and each `{from}` cell with none takes `{to}`'s acceptance, \
             shown \"via {to}\" (what passes every check `{to}` runs passes `{from}`'s; never a \
             rejection), because {because}.\n",
            to = rule.target,
            from = rule.from,
            because = rule.because
        );
    }
    let _ = writeln!(out, "Runs folded in: {}.\n", m.runs_folded());
    let mut live_seen: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &m.cells {
        if c.verdict.is_some() {
            *live_seen.entry(c.target.as_str()).or_default() += 1;
        }
    }
    let without: Vec<&str> = m
        .targets
        .iter()
        .map(String::as_str)
        .filter(|t| !live_seen.contains_key(t))
        .collect();
    if !without.is_empty() {
        let _ = writeln!(
            out,
            "Targets with no evidence yet: {}.\n",
            without
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let cells: BTreeMap<(&str, &str), &Cell> = m
        .cells
        .iter()
        .map(|c| ((c.case.as_str(), c.target.as_str()), c))
        .collect();
    let mut refs = References::default();
    let mut families: Vec<&str> = m.cases.iter().map(|c| c.family.as_str()).collect();
    families.dedup();
    for family in families {
        let _ = writeln!(out, "## {family}\n");
        let mut builder = tabled::builder::Builder::default();
        let mut head = vec!["case".to_string(), "parameter".to_string()];
        head.extend(m.targets.iter().cloned());
        builder.push_record(head);
        for case in m.cases.iter().filter(|c| c.family == family) {
            let mut row = vec![format!("`{}`", case.id), case.parameter.clone()];
            for t in &m.targets {
                row.push(match cells.get(&(case.id.as_str(), t.as_str())) {
                    Some(c) => cell_text(c, &mut refs),
                    None => "·".into(),
                });
            }
            builder.push_record(row);
        }
        let mut table = builder.build();
        table.with(tabled::settings::Style::markdown());
        let _ = writeln!(out, "{table}\n");
        let disagreeing: Vec<&Cell> = m
            .cases
            .iter()
            .filter(|c| c.family == family)
            .flat_map(|case| {
                m.targets
                    .iter()
                    .filter_map(|t| cells.get(&(case.id.as_str(), t.as_str())).copied())
            })
            .filter(|c| c.conflict)
            .collect();
        if !disagreeing.is_empty() {
            let _ = writeln!(
                out,
                "Where the evidence disagrees (⚠), every piece of it, oldest first; the one in bold decides:\n"
            );
            for c in disagreeing {
                let _ = writeln!(out, "- {}", disagreement(c));
            }
            out.push('\n');
        }
    }
    refs.write_definitions(&mut out);
    out
}

/// Every ⚠ cell's whole history, one line each ([`disagreement`]), in case then target order:
/// RULES.md lists them too, since a verdict the newer evidence decides is not the only thing
/// an integrator needs to know (trial 78 D5: MATRIX.md's 10 disagreements were not in RULES.md).
pub fn disagreements(m: &Matrix) -> Vec<String> {
    m.cells
        .iter()
        .filter(|c| c.conflict)
        .map(disagreement)
        .collect()
}

/// One ⚠ cell's whole history on one line: `` `case` on `target`: ✗ [doc 2024-05-01](url),
/// **✓ [report 2025-11-30](url)** ``, each item with its own verdict, kind, date and link, so
/// that the matrix shows both sides of a disagreement and which one decides.
fn disagreement(c: &Cell) -> String {
    let items: Vec<String> = c
        .evidence
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let text = format!("{} {}", glyph(Some(it.verdict)), item_link(it));
            if c.decided_by == Some(i) {
                format!("**{text}**")
            } else {
                text
            }
        })
        .collect();
    format!("`{}` on `{}`: {}", c.case, c.target, items.join(", "))
}

/// One piece of evidence as cited, dated by its newest sighting: a folded probe entry names
/// its first and last run, and is cited by the last's log.
fn cited(it: &EvidenceItem) -> crate::profile::Cited {
    let source = match it.kind {
        EvidenceKind::Probe => it.source.rsplit(" .. ").next().unwrap_or_default(),
        _ => it.source.as_str(),
    };
    crate::profile::Cited {
        kind: it.kind,
        date: it.last_seen.clone(),
        source: source.to_string(),
        via: it.via.clone(),
        read: it.read,
        inferred: it.inferred,
        not_verbatim: it.not_verbatim,
    }
}

/// One piece of evidence as an inline markdown link, `[report 2025-07-03](url)`.
fn item_link(it: &EvidenceItem) -> String {
    crate::profile::table::evidence_link(&cited(it))
}

/// The link targets of the table cells, numbered in order of first use: a cell cites
/// `[doc 2026-11-30][3]` and the page ends with `[3]: url`. Inline links would pad every cell
/// of a column to its longest URL (MATRIX.md grew from 0.2 to 0.44 MB).
#[derive(Default)]
struct References {
    numbers: BTreeMap<String, usize>,
    order: Vec<String>,
}

impl References {
    /// `[label][n]` for evidence with a link (a run log, a page), the bare label otherwise.
    fn cite(&mut self, it: &EvidenceItem) -> String {
        let c = cited(it);
        let label = c.label();
        let target = match c.kind {
            EvidenceKind::Probe => format!("runs/{}.jsonl", c.source),
            _ if c.source.starts_with("http") => c.source,
            _ => return label,
        };
        let next = self.order.len() + 1;
        let n = *self.numbers.entry(target.clone()).or_insert_with(|| {
            self.order.push(target);
            next
        });
        format!("[{label}][{n}]")
    }

    fn write_definitions(&self, out: &mut String) {
        use std::fmt::Write;
        for (i, target) in self.order.iter().enumerate() {
            let _ = writeln!(out, "[{}]: {target}", i + 1);
        }
    }
}

/// A cell's verdict and its deciding evidence, linked (to the run log for a probe, to the page
/// for a doc or report), so that why a feature is accepted is one click away, as a rejection
/// is in RULES.md.
fn cell_text(c: &Cell, refs: &mut References) -> String {
    let mut s = match (c.verdict, c.deciding_item()) {
        // A derived acceptance says so: its page shows a whole tool accepted, not this feature.
        (Some(v), Some(it)) if it.whole_tool => {
            format!("{} {} in a tool", glyph(Some(v)), refs.cite(it))
        }
        (Some(v), Some(it)) => format!("{} {}", glyph(Some(v)), refs.cite(it)),
        // No verdict, but the newest probe got the body past the parser: say so and link it.
        _ => match c.evidence.iter().rev().find(|it| it.parsed_only) {
            Some(it) => format!("· parses {}", refs.cite(it)),
            None => "·".to_string(),
        },
    };
    if c.conflict {
        s.push_str(" ⚠");
    }
    if let Some(p) = c.pending {
        s.push_str(&format!(" ⏳{}", glyph(Some(p))));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{Placement, baseline};
    use crate::evidence::runlog::RunHeader;
    use std::path::PathBuf;

    fn case(id: &str) -> Case {
        Case {
            id: id.into(),
            title: id.into(),
            family: id.split('/').next().unwrap().into(),
            parameter: "keyword-allowed: not".into(),
            placement: Placement::Nested,
            strict: false,
            tools: vec![baseline()],
            instances: vec![],
            notes: String::new(),
            links: vec![],
            path: PathBuf::new(),
        }
    }

    fn catalog() -> Catalog {
        Catalog {
            root: PathBuf::from("cases"),
            cases: vec![case("control/baseline"), case("keywords/not-nested")],
        }
    }

    fn run(id: &str, date: &str, verdicts: &[(&str, &str, Verdict)]) -> RunLog {
        let time: chrono::DateTime<chrono::Utc> = format!("{date}T10:00:00Z").parse().unwrap();
        RunLog {
            path: PathBuf::from(format!("{id}.jsonl")),
            header: RunHeader {
                record: "header".into(),
                run: id.into(),
                toolwire_version: "0".into(),
                started: time,
                targets: vec![],
                cases: 2,
                emulated: false,
            },
            observations: verdicts
                .iter()
                .map(|(c, t, v)| Observation {
                    record: "observation".into(),
                    run: id.into(),
                    case: (*c).into(),
                    target: (*t).into(),
                    endpoint: "in-process:x".into(),
                    model: None,
                    time,
                    request_digest: String::new(),
                    case_digest: None,
                    status: None,
                    verdict: *v,
                    stage: Stage::Parse,
                    error: (*v == Verdict::Rejected).then(|| "no".to_string()),
                    path: None,
                    latency_ms: 1.0,
                    note: None,
                })
                .collect(),
            lines: (2..).take(verdicts.len()).collect(),
            footer: None,
            cut_line: None,
        }
    }

    const T: &str = "engine/x";
    const C: &str = "keywords/not-nested";

    fn targets() -> Vec<String> {
        vec![T.to_string(), "openai/chat".to_string()]
    }

    #[test]
    fn same_verdict_in_two_runs_folds_into_one_entry() {
        let runs = [
            run("r1", "2026-11-01", &[(C, T, Verdict::Rejected)]),
            run("r2", "2026-11-08", &[(C, T, Verdict::Rejected)]),
        ];
        let m = build(&catalog(), &targets(), &runs, &[]);
        let cell = m.cell(C, T).unwrap();
        assert_eq!(cell.verdict, Some(Verdict::Rejected));
        assert_eq!(cell.kind, Some(EvidenceKind::Probe));
        assert_eq!(cell.since.as_deref(), Some("2026-11-01"));
        assert_eq!(cell.last_seen.as_deref(), Some("2026-11-08"));
        assert_eq!(cell.evidence.len(), 1);
        assert_eq!(cell.evidence[0].count, 2);
        assert_eq!(cell.evidence[0].source, "r1 .. r2");
        assert!(!cell.conflict);
    }

    #[test]
    fn a_change_seen_once_is_pending_and_seen_twice_decides() {
        let mut runs = vec![
            run("r1", "2026-11-01", &[(C, T, Verdict::Rejected)]),
            run("r2", "2026-11-08", &[(C, T, Verdict::Accepted)]),
        ];
        let m = build(&catalog(), &targets(), &runs, &[]);
        let cell = m.cell(C, T).unwrap();
        assert_eq!(cell.verdict, Some(Verdict::Rejected));
        assert_eq!(cell.pending, Some(Verdict::Accepted));
        assert!(cell.conflict);

        runs.push(run("r3", "2026-11-15", &[(C, T, Verdict::Accepted)]));
        let m = build(&catalog(), &targets(), &runs, &[]);
        let cell = m.cell(C, T).unwrap();
        assert_eq!(cell.verdict, Some(Verdict::Accepted));
        assert_eq!(cell.since.as_deref(), Some("2026-11-08"));
        assert_eq!(cell.pending, None);
    }

    fn doc(kind: EvidenceKind, date: &str, verdict: Verdict) -> Documented {
        Documented {
            case: C.into(),
            target: "openai/chat".into(),
            item: EvidenceItem::seen_once(
                kind,
                verdict,
                date,
                &format!("https://example.org/{date}"),
            ),
        }
    }

    #[test]
    fn newer_evidence_decides_and_the_conflict_is_shown() {
        let docs = [
            doc(EvidenceKind::Report, "2024-03-01", Verdict::Rejected),
            doc(EvidenceKind::Doc, "2026-02-01", Verdict::Accepted),
        ];
        let m = build(&catalog(), &targets(), &[], &docs);
        let cell = m.cell(C, "openai/chat").unwrap();
        assert_eq!(cell.verdict, Some(Verdict::Accepted));
        assert_eq!(cell.kind, Some(EvidenceKind::Doc));
        assert!(cell.conflict);
        assert_eq!(cell.evidence.len(), 2);
        assert_eq!(cell.evidence[0].first_seen, "2024-03-01");
        let md = to_markdown(&m);
        assert!(md.contains("✓ [doc 2026-02-01][1] ⚠"), "{md}");
        assert!(
            md.contains("\n[1]: https://example.org/2026-02-01\n"),
            "{md}"
        );
        // Both sides, each with its date and link, under the table; the newer in bold.
        assert!(
            md.contains(
                "- `keywords/not-nested` on `openai/chat`: ✗ [report 2024-03-01](https://example.org/2024-03-01), **✓ [doc 2026-02-01](https://example.org/2026-02-01)**\n"
            ),
            "{md}"
        );
    }

    /// A cell decided by an acceptance derived from a whole tool says so in MATRIX.md, where
    /// it would otherwise read as a page stating the feature accepted.
    #[test]
    fn a_whole_tool_acceptance_is_marked_in_the_table() {
        let mut d = doc(EvidenceKind::Report, "2026-02-01", Verdict::Accepted);
        d.item.whole_tool = true;
        let md = to_markdown(&build(&catalog(), &targets(), &[], &[d]));
        assert!(md.contains("✓ [report 2026-02-01][1] in a tool"), "{md}");
        let plain = doc(EvidenceKind::Report, "2026-02-01", Verdict::Accepted);
        let md = to_markdown(&build(&catalog(), &targets(), &[], &[plain]));
        assert!(!md.contains("][1] in a tool"), "{md}");
    }

    /// A verdict inferred from a source's words is marked so in its cell, where it would
    /// otherwise read as a stated one, and a date that is only the day the source was read
    /// says so; a stated verdict with the source's own date carries neither mark.
    #[test]
    fn an_inferred_rejection_and_a_read_date_are_marked_in_the_table() {
        let mut d = doc(EvidenceKind::Secondary, "2026-12-02", Verdict::Rejected);
        d.item.inferred = true;
        d.item.read = true;
        let m = build(&catalog(), &targets(), &[], &[d]);
        let md = to_markdown(&m);
        assert!(
            md.contains("✗ [secondary read 2026-12-02, inferred][1]"),
            "{md}"
        );
        // matrix.json carries both flags on the item.
        let json = serde_json::to_value(&m).unwrap();
        let item = &json["cells"][0]["evidence"][0];
        assert_eq!(
            (&item["inferred"], &item["read"]),
            (&true.into(), &true.into())
        );

        let stated = doc(EvidenceKind::Secondary, "2026-12-02", Verdict::Rejected);
        let m = build(&catalog(), &targets(), &[], &[stated]);
        let md = to_markdown(&m);
        assert!(md.contains("✗ [secondary 2026-12-02][1]"), "{md}");
        assert!(!md.contains("2026-12-02, inferred"), "{md}");
        assert!(!md.contains("read 2026-12-02"), "{md}");
        let json = serde_json::to_value(&m).unwrap();
        let item = &json["cells"][0]["evidence"][0];
        assert!(
            item.get("inferred").is_none() && item.get("read").is_none(),
            "{item}"
        );
    }

    /// A report whose quote is not the provider's answer verbatim is marked so in its cell and
    /// in matrix.json, where it would otherwise read as the provider's error; a report with
    /// the provider's words carries no mark.
    #[test]
    fn a_report_without_the_providers_words_is_marked_not_verbatim() {
        let mut d = doc(EvidenceKind::Report, "2025-04-09", Verdict::Rejected);
        d.item.not_verbatim = true;
        let m = build(&catalog(), &targets(), &[], &[d]);
        let md = to_markdown(&m);
        assert!(
            md.contains("✗ [report 2025-04-09, not verbatim][1]"),
            "{md}"
        );
        let json = serde_json::to_value(&m).unwrap();
        assert_eq!(json["cells"][0]["evidence"][0]["not_verbatim"], true);

        let verbatim = doc(EvidenceKind::Report, "2025-04-09", Verdict::Rejected);
        let m = build(&catalog(), &targets(), &[], &[verbatim]);
        let md = to_markdown(&m);
        assert!(md.contains("✗ [report 2025-04-09][1]"), "{md}");
        assert!(!md.contains("2025-04-09, not verbatim"), "{md}");
        let json = serde_json::to_value(&m).unwrap();
        assert!(
            json["cells"][0]["evidence"][0]
                .get("not_verbatim")
                .is_none(),
            "{json}"
        );
    }

    /// The item an inheriting target copies keeps its marks: an inferred rejection is no
    /// less inferred "via" another target.
    #[test]
    fn an_inherited_inferred_rejection_stays_inferred() {
        let mut d = doc(EvidenceKind::Secondary, "2026-12-02", Verdict::Rejected);
        d.item.inferred = true;
        let targets = vec!["openai/chat".to_string(), "openai/chat-strict".to_string()];
        let m = build(&catalog(), &targets, &[], &[d]);
        let cell = m.cell(C, "openai/chat-strict").unwrap();
        let item = cell.deciding_item().unwrap();
        assert!(
            item.inferred && item.via.as_deref() == Some("openai/chat"),
            "{item:?}"
        );
        assert!(
            to_markdown(&m).contains("✗ [secondary 2026-12-02, inferred, via openai/chat]"),
            "{}",
            to_markdown(&m)
        );
    }

    /// Stated evidence outranks inference: an inferred item read later does not overturn a
    /// stated one (formats/uri-nested × openai/responses-strict, an inferred read of 2026-12-03
    /// over OpenAI's verbatim error of 2026-05-06), though it stays in the history and marks
    /// the conflict; where nothing stated speaks to the cell, the inferred item decides.
    #[test]
    fn an_inferred_item_decides_only_where_nothing_stated_speaks() {
        let stated = doc(EvidenceKind::Report, "2026-05-06", Verdict::Accepted);
        let mut inferred = doc(EvidenceKind::Secondary, "2026-12-03", Verdict::Rejected);
        inferred.item.inferred = true;
        let m = build(
            &catalog(),
            &targets(),
            &[],
            &[stated.clone(), inferred.clone()],
        );
        let cell = m.cell(C, "openai/chat").unwrap();
        assert_eq!(
            (cell.verdict, cell.conflict),
            (Some(Verdict::Accepted), true)
        );
        assert_eq!(cell.deciding_item().unwrap().kind, EvidenceKind::Report);
        assert_eq!(cell.evidence.len(), 2);
        let m = build(&catalog(), &targets(), &[], &[inferred]);
        let cell = m.cell(C, "openai/chat").unwrap();
        assert_eq!(cell.verdict, Some(Verdict::Rejected));
        assert!(cell.deciding_item().unwrap().inferred);
    }

    /// An acceptance derived from a whole tool is inferred, not stated: a rejection of the
    /// feature on its day or later decides over it, whichever sorts first by source or kind;
    /// only an older rejection is overturned by it, as by any newer evidence (both shown).
    #[test]
    fn a_whole_tool_acceptance_never_overturns_a_rejection_of_its_day_or_later() {
        let derived = |date: &str| {
            let mut d = doc(EvidenceKind::Report, date, Verdict::Accepted);
            // Sorts after the rejection's source, which alone would let it decide.
            d.item.source = "https://z.example/whole-tool".into();
            d.item.whole_tool = true;
            d
        };
        let rejected = |date: &str| {
            let mut d = doc(EvidenceKind::Report, date, Verdict::Rejected);
            d.item.source = "https://a.example/rejection".into();
            d
        };
        let verdict = |runs: &[RunLog], docs: &[Documented]| {
            let m = build(&catalog(), &targets(), runs, docs);
            let cell = m.cell(C, "openai/chat").unwrap().clone();
            (cell.verdict, cell.conflict)
        };
        for (accepted, rejected_on) in [("2026-02-01", "2026-02-01"), ("2026-02-01", "2026-03-01")]
        {
            assert_eq!(
                verdict(&[], &[derived(accepted), rejected(rejected_on)]),
                (Some(Verdict::Rejected), true),
                "{accepted} vs {rejected_on}"
            );
            assert_eq!(
                verdict(&[], &[rejected(rejected_on), derived(accepted)]),
                (Some(Verdict::Rejected), true),
                "{accepted} vs {rejected_on}, the other order"
            );
        }
        // A probe's rejection of the same day is inserted before every document.
        let probed = [run(
            "r1",
            "2026-02-01",
            &[(C, "openai/chat", Verdict::Rejected)],
        )];
        assert_eq!(
            verdict(&probed, &[derived("2026-02-01")]),
            (Some(Verdict::Rejected), true)
        );
        assert_eq!(
            verdict(&[], &[rejected("2025-01-01"), derived("2026-02-01")]),
            (Some(Verdict::Accepted), true)
        );
    }

    #[test]
    fn the_listed_disagreement_marks_the_item_that_decides_even_when_older() {
        let cell = parse_acceptances_after_a_rejection_at(Stage::Validate);
        assert_eq!(
            disagreement(&cell),
            "`keywords/not-nested` on `openai/chat`: **✗ [report 2025-03-01](https://example.org/2025-03-01)**, ✓ [probe 2026-11-08](runs/r2.jsonl)"
        );
    }

    #[test]
    fn a_cell_without_disagreement_is_not_listed() {
        let docs = [doc(EvidenceKind::Report, "2024-03-01", Verdict::Rejected)];
        let md = to_markdown(&build(&catalog(), &targets(), &[], &docs));
        assert!(!md.contains("Where the evidence disagrees"), "{md}");
    }

    #[test]
    fn the_deciding_item_and_the_since_item_are_each_one_item() {
        let docs = [
            doc(EvidenceKind::Report, "2025-11-24", Verdict::Rejected),
            doc(EvidenceKind::Doc, "2026-11-30", Verdict::Rejected),
            doc(EvidenceKind::Report, "", Verdict::Rejected),
        ];
        let m = build(&catalog(), &targets(), &[], &docs);
        let cell = m.cell(C, "openai/chat").unwrap();
        let newest = cell.deciding_item().unwrap();
        assert_eq!(
            (
                newest.kind,
                newest.last_seen.as_str(),
                newest.source.as_str()
            ),
            (
                EvidenceKind::Doc,
                "2026-11-30",
                "https://example.org/2026-11-30"
            )
        );
        assert_eq!(cell.kind, Some(newest.kind));
        assert_eq!(cell.last_seen.as_deref(), Some("2026-11-30"));
        // The undated report sorts first but knows no date: the dated report is the earliest.
        let since = cell.since_item().unwrap();
        assert_eq!(
            (since.kind, since.first_seen.as_str(), since.source.as_str()),
            (
                EvidenceKind::Report,
                "2025-11-24",
                "https://example.org/2025-11-24"
            )
        );
        assert_eq!(cell.since.as_deref(), Some("2025-11-24"));
    }

    #[test]
    fn since_starts_again_when_the_verdict_changes() {
        let docs = [
            doc(EvidenceKind::Report, "2024-03-01", Verdict::Rejected),
            doc(EvidenceKind::Doc, "2025-02-01", Verdict::Accepted),
            doc(EvidenceKind::Report, "2026-02-01", Verdict::Rejected),
        ];
        let m = build(&catalog(), &targets(), &[], &docs);
        let cell = m.cell(C, "openai/chat").unwrap();
        assert_eq!(cell.since_item().unwrap().first_seen, "2026-02-01");
        assert_eq!(cell.since_from, cell.decided_by);
    }

    /// The cell after a 2025 report rejected at `stage` and two 2026 parse-stage acceptances.
    fn parse_acceptances_after_a_rejection_at(stage: Stage) -> Cell {
        let mut report = doc(EvidenceKind::Report, "2025-03-01", Verdict::Rejected);
        report.item.stage = Some(stage);
        let runs: Vec<RunLog> = [("r1", "2026-11-01"), ("r2", "2026-11-08")]
            .iter()
            .map(|(id, date)| run(id, date, &[(C, "openai/chat", Verdict::Accepted)]))
            .collect();
        let m = build(&catalog(), &targets(), &runs, &[report]);
        m.cell(C, "openai/chat").unwrap().clone()
    }

    #[test]
    fn a_parse_stage_acceptance_does_not_overturn_a_validator_rejection() {
        let cell = parse_acceptances_after_a_rejection_at(Stage::Validate);
        assert_eq!(cell.verdict, Some(Verdict::Rejected));
        assert!(cell.conflict, "both pieces of evidence stay visible");
        assert_eq!(cell.evidence.len(), 2);
    }

    /// Trial 87 D1: a parse-stage rejection after a rejection from the validator (or of
    /// unknown stage) leaves that one standing; neither a parse-stage acceptance nor a keyless
    /// parse overturns the two. Once an acceptance past the parser has overturned the older
    /// rejection, a later parse-stage rejection stands alone again.
    #[test]
    fn a_parse_stage_rejection_does_not_hide_an_older_validator_rejection() {
        let rejection = |date: &str, stage: Option<Stage>| {
            let mut r = doc(EvidenceKind::Report, date, Verdict::Rejected);
            r.item.stage = stage;
            r
        };
        let accepted = |date: &str| run(date, date, &[(C, "openai/chat", Verdict::Accepted)]);
        let keyless = parse_stage_runs(&["2026-11-01", "2026-11-08"], "openai/chat", 403);
        for first in [None, Some(Stage::Validate)] {
            let docs = [
                rejection("2024-01-10", first),
                rejection("2025-02-10", Some(Stage::Parse)),
            ];
            let runs = [accepted("2026-11-01"), accepted("2026-11-08")];
            for runs in [&runs[..], &keyless[..]] {
                let m = build(&catalog(), &targets(), runs, &docs);
                let cell = m.cell(C, "openai/chat").unwrap();
                assert_eq!(cell.verdict, Some(Verdict::Rejected), "{first:?}");
                let decided = &cell.evidence[cell.decided_by.unwrap()];
                assert_eq!(decided.first_seen, "2025-02-10");
            }
        }
        let docs = [
            rejection("2024-01-10", Some(Stage::Validate)),
            doc(EvidenceKind::Doc, "2024-06-01", Verdict::Accepted),
            rejection("2025-02-10", Some(Stage::Parse)),
        ];
        let runs = [accepted("2026-11-01"), accepted("2026-11-08")];
        let m = build(&catalog(), &targets(), &runs, &docs);
        let cell = m.cell(C, "openai/chat").unwrap();
        assert_eq!(cell.verdict, Some(Verdict::Accepted));
        assert_eq!(cell.kind, Some(EvidenceKind::Probe));
    }

    #[test]
    fn a_parse_stage_acceptance_overturns_an_older_parse_stage_rejection() {
        let cell = parse_acceptances_after_a_rejection_at(Stage::Parse);
        assert_eq!(cell.verdict, Some(Verdict::Accepted));
        assert_eq!(cell.kind, Some(EvidenceKind::Probe));
    }

    /// Runs on `target` in which every answer was an acceptance at the parse stage with HTTP
    /// status `status` (Gemini's keyless 403, or a served 200), two a run.
    fn parse_stage_runs(dates: &[&str], target: &str, status: u16) -> Vec<RunLog> {
        dates
            .iter()
            .enumerate()
            .map(|(i, date)| {
                let mut r = run(
                    &format!("p{i}"),
                    date,
                    &[
                        (C, target, Verdict::Accepted),
                        (C, target, Verdict::Accepted),
                    ],
                );
                for o in &mut r.observations {
                    o.status = Some(status);
                }
                r
            })
            .collect()
    }

    #[test]
    fn a_keyless_parse_is_no_acceptance_and_no_disagreement() {
        let runs = parse_stage_runs(&["2026-11-01", "2026-11-08"], "openai/chat", 403);
        let m = build(&catalog(), &targets(), &runs, &[]);
        let cell = m.cell(C, "openai/chat").unwrap();
        assert_eq!(cell.verdict, None, "a parse is not acceptance");
        assert!(!cell.conflict);
        assert_eq!(cell.evidence.len(), 1, "kept as history");
        assert!(cell.evidence[0].parsed_only);
        assert_eq!(cell.evidence[0].count, 4);
        let md = to_markdown(&m);
        assert!(md.contains("· parses [probe 2026-11-08]"), "{md}");

        // After a validator's rejection it changes nothing and disagrees with nothing.
        let mut report = doc(EvidenceKind::Report, "2025-03-01", Verdict::Rejected);
        report.item.stage = Some(Stage::Validate);
        let m = build(&catalog(), &targets(), &runs, std::slice::from_ref(&report));
        let cell = m.cell(C, "openai/chat").unwrap();
        assert_eq!(cell.verdict, Some(Verdict::Rejected));
        assert_eq!(cell.kind, Some(EvidenceKind::Report));
        assert!(!cell.conflict);

        // A parse-stage rejection older than it no longer holds: unknown, not accepted.
        report.item.stage = Some(Stage::Parse);
        let m = build(&catalog(), &targets(), &runs, std::slice::from_ref(&report));
        let cell = m.cell(C, "openai/chat").unwrap();
        assert_eq!(cell.verdict, None);
        assert_eq!((cell.decided_by, cell.since_from), (None, None));
    }

    #[test]
    fn a_keyless_parse_seen_once_leaves_a_parse_stage_rejection_standing() {
        let mut report = doc(EvidenceKind::Report, "2025-03-01", Verdict::Rejected);
        report.item.stage = Some(Stage::Parse);
        let mut runs = parse_stage_runs(&["2026-11-01"], "openai/chat", 403);
        runs[0].observations.pop();
        let m = build(&catalog(), &targets(), &runs, &[report]);
        assert_eq!(
            m.cell(C, "openai/chat").unwrap().verdict,
            Some(Verdict::Rejected)
        );
    }

    #[test]
    fn a_served_request_accepted_at_the_parse_stage_is_acceptance() {
        // Ollama answers 200 once the body decodes: the request was served.
        let runs = parse_stage_runs(&["2026-11-01"], "openai/chat", 200);
        let m = build(&catalog(), &targets(), &runs, &[]);
        let cell = m.cell(C, "openai/chat").unwrap();
        assert_eq!(cell.verdict, Some(Verdict::Accepted));
        assert!(!cell.evidence[0].parsed_only);
    }

    #[test]
    fn an_undated_report_is_shown_as_undated() {
        let docs = [doc(EvidenceKind::Report, "", Verdict::Rejected)];
        let m = build(&catalog(), &targets(), &[], &docs);
        let md = to_markdown(&m);
        assert!(md.contains("✗ [report undated][1]"), "{md}");
    }

    #[test]
    fn non_decisive_outcomes_give_no_verdict() {
        let runs = [run("r1", "2026-11-01", &[(C, T, Verdict::Inconclusive)])];
        let m = build(&catalog(), &targets(), &runs, &[]);
        let cell = m.cell(C, T).unwrap();
        assert_eq!(cell.verdict, None);
        assert_eq!(
            cell.last_attempt.as_deref(),
            Some("inconclusive on 2026-11-01 (run r1)")
        );
    }

    #[test]
    fn a_request_that_never_reached_the_target_leaves_the_cell_alone() {
        let mut runs = vec![run("r1", "2026-11-01", &[(C, T, Verdict::Rejected)])];
        let before = build(&catalog(), &targets(), &runs, &[]);
        let mut offline = run("r2", "2026-11-08", &[(C, T, Verdict::Inconclusive)]);
        offline.observations[0].stage = Stage::Transport;
        runs.push(offline);
        let after = build(&catalog(), &targets(), &runs, &[]);
        assert_eq!(
            serde_json::to_value(before.cell(C, T)).unwrap(),
            serde_json::to_value(after.cell(C, T)).unwrap()
        );
    }

    /// A run without network (every live route `unreachable` at the transport stage) adds
    /// no cell: the regenerated matrix differs from the committed one by the run alone, not
    /// by an empty cell (no verdict, no evidence) per case of every route it tried.
    #[test]
    fn a_request_that_never_reached_the_target_makes_no_cell() {
        let mut offline = run("r1", "2026-11-08", &[(C, T, Verdict::Unreachable)]);
        offline.observations[0].stage = Stage::Transport;
        let m = build(&catalog(), &targets(), &[offline], &[]);
        assert!(m.cell(C, T).is_none(), "{:?}", m.cells);
        assert!(m.cells.is_empty());
    }

    /// The run count says which kinds of target the runs reached, from their verdicts:
    /// engine-only runs say no provider route was probed (the committed reports said only
    /// "7", read as seven provider probes); once a run has a provider route's verdict, the
    /// line names that route and no longer says none was probed. The kinds it says decide
    /// the other provider verdicts are those that do (it said "doc or report" while 221
    /// provider cells were decided by `secondary` evidence).
    #[test]
    fn the_run_count_says_which_kinds_of_target_the_runs_reached() {
        let anthropic = "anthropic/messages";
        let targets = [T, "openai/chat", anthropic].map(String::from);
        let docs = [
            doc(EvidenceKind::Secondary, "2026-12-02", Verdict::Rejected),
            doc_at(
                anthropic,
                EvidenceKind::Doc,
                "2026-12-01",
                Verdict::Accepted,
            ),
        ];
        assert_eq!(
            build(&catalog(), &targets, &[], &[]).runs_folded(),
            "0 (no provider route was probed: no provider cell has a verdict)"
        );
        assert_eq!(
            build(&catalog(), &targets, &[], &docs).runs_folded(),
            "0 (no provider route was probed: every provider verdict is doc or secondary \
             evidence)"
        );
        let engine_runs = || {
            vec![
                run("r1", "2026-11-01", &[(C, T, Verdict::Accepted)]),
                run("r2", "2026-11-02", &[(C, T, Verdict::Rejected)]),
            ]
        };
        let m = build(&catalog(), &targets, &engine_runs(), &docs);
        let engines_only = "2 (all 2 reached the in-process engines only; no provider route \
                            was probed: every provider verdict is doc or secondary evidence)";
        assert_eq!(m.runs_folded(), engines_only);
        let md = to_markdown(&m);
        assert!(
            md.contains(&format!("Runs folded in: {engines_only}.")),
            "{md}"
        );
        let mut runs = engine_runs();
        runs.push(run(
            "r3",
            "2026-11-03",
            &[
                (C, "openai/chat", Verdict::Rejected),
                (C, T, Verdict::Rejected),
            ],
        ));
        runs.push(run(
            "r4",
            "2026-11-04",
            &[(C, "openai/chat", Verdict::Skipped)],
        ));
        let m = build(&catalog(), &targets, &runs, &docs);
        assert_eq!(
            m.runs_folded(),
            "4 (2 reached the in-process engines only, 1 had no decisive verdict, 1 reached \
             provider routes: `openai/chat`; only these routes' cells can hold probe evidence; \
             every other provider verdict is doc evidence)"
        );
        // Read back from matrix.json, the line is the same.
        let json = serde_json::to_string(&m).unwrap();
        let back: Matrix = serde_json::from_str(&json).unwrap();
        assert_eq!(back.runs_folded(), m.runs_folded());
    }

    #[test]
    fn unknown_cases_and_targets_are_ignored_and_output_is_deterministic() {
        let runs = [run(
            "r1",
            "2026-11-01",
            &[
                (C, T, Verdict::Accepted),
                ("gone/case", T, Verdict::Accepted),
                (C, "gone/target", Verdict::Accepted),
            ],
        )];
        let a = build(&catalog(), &targets(), &runs, &[]);
        let b = build(&catalog(), &targets(), &runs, &[]);
        assert_eq!(a.cells.len(), 1);
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
        let md = to_markdown(&a);
        assert!(md.contains("## keywords"), "{md}");
        let row = md
            .lines()
            .find(|l| l.starts_with("| `keywords/not-nested`"))
            .unwrap();
        let cols: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(
            cols,
            [
                "",
                "`keywords/not-nested`",
                "keyword-allowed: not",
                "✓ [probe 2026-11-01][1]",
                "·",
                ""
            ]
        );
        // The probe cites its run log, defined once at the end.
        assert!(md.ends_with("\n[1]: runs/r1.jsonl\n"), "{md}");
    }

    const STRICT: &str = "openai/chat-strict";

    fn openai_targets() -> Vec<String> {
        ["openai/chat", STRICT, "openai/responses-strict"]
            .map(String::from)
            .to_vec()
    }

    fn doc_at(target: &str, kind: EvidenceKind, date: &str, verdict: Verdict) -> Documented {
        Documented {
            target: target.into(),
            ..doc(kind, date, verdict)
        }
    }

    #[test]
    fn a_strict_cell_without_evidence_takes_the_rejection_of_openai_chat() {
        let docs = [
            doc(EvidenceKind::Report, "2025-01-20", Verdict::Rejected),
            doc(EvidenceKind::Report, "2026-02-02", Verdict::Rejected),
        ];
        let m = build(&catalog(), &openai_targets(), &[], &docs);
        let cell = m.cell(C, STRICT).expect("the gap is filled");
        assert_eq!(cell.verdict, Some(Verdict::Rejected));
        // The source's kind, dates and links, each item marked as openai/chat's.
        assert_eq!(cell.kind, Some(EvidenceKind::Report));
        assert_eq!(cell.since.as_deref(), Some("2025-01-20"));
        assert_eq!(cell.last_seen.as_deref(), Some("2026-02-02"));
        assert_eq!(
            cell.deciding_item().unwrap().source,
            "https://example.org/2026-02-02"
        );
        assert!(
            cell.evidence
                .iter()
                .all(|it| it.via.as_deref() == Some("openai/chat")),
            "{cell:?}"
        );
        // openai/chat's own cell is its own evidence; Responses is another endpoint.
        assert!(m.cell(C, "openai/chat").unwrap().evidence[0].via.is_none());
        assert!(m.cell(C, "openai/responses-strict").is_none());
        let md = to_markdown(&m);
        assert!(
            md.contains("✗ [report 2026-02-02, via openai/chat][1]"),
            "{md}"
        );
        assert!(
            md.contains("Inherited: each `openai/chat-strict` cell"),
            "{md}"
        );
    }

    #[test]
    fn a_strict_cell_with_its_own_evidence_is_decided_by_it() {
        let docs = [
            doc(EvidenceKind::Report, "2026-02-02", Verdict::Rejected),
            doc_at(STRICT, EvidenceKind::Doc, "2024-01-01", Verdict::Accepted),
        ];
        let m = build(&catalog(), &openai_targets(), &[], &docs);
        let cell = m.cell(C, STRICT).unwrap();
        assert_eq!(cell.verdict, Some(Verdict::Accepted));
        assert_eq!(cell.evidence.len(), 1);
        assert!(cell.evidence[0].via.is_none());
    }

    #[test]
    fn an_acceptance_by_openai_chat_is_not_inherited() {
        let docs = [doc(EvidenceKind::Doc, "2026-02-02", Verdict::Accepted)];
        let m = build(&catalog(), &openai_targets(), &[], &docs);
        assert!(m.cell(C, STRICT).is_none());
        // A rejection that openai/chat's newer evidence overturned is not inherited either.
        let docs = [
            doc(EvidenceKind::Report, "2025-01-01", Verdict::Rejected),
            doc(EvidenceKind::Doc, "2026-02-02", Verdict::Accepted),
        ];
        let m = build(&catalog(), &openai_targets(), &[], &docs);
        assert!(m.cell(C, STRICT).is_none());
    }

    #[test]
    fn an_openai_chat_cell_without_evidence_takes_the_acceptance_of_strict_mode() {
        let docs = [
            doc_at(STRICT, EvidenceKind::Doc, "2025-08-01", Verdict::Accepted),
            doc_at(STRICT, EvidenceKind::Doc, "2026-03-03", Verdict::Accepted),
        ];
        let m = build(&catalog(), &openai_targets(), &[], &docs);
        let cell = m.cell(C, "openai/chat").expect("the gap is filled");
        assert_eq!(cell.verdict, Some(Verdict::Accepted));
        assert_eq!(cell.kind, Some(EvidenceKind::Doc));
        assert_eq!(cell.since.as_deref(), Some("2025-08-01"));
        assert_eq!(cell.last_seen.as_deref(), Some("2026-03-03"));
        assert!(
            cell.evidence
                .iter()
                .all(|it| it.via.as_deref() == Some(STRICT)),
            "{cell:?}"
        );
        // The strict cell keeps its own evidence; Responses is another endpoint.
        assert!(m.cell(C, STRICT).unwrap().evidence[0].via.is_none());
        assert!(m.cell(C, "openai/responses-strict").is_none());
        let md = to_markdown(&m);
        assert!(
            md.contains(&format!("✓ [doc 2026-03-03, via {STRICT}][1]")),
            "{md}"
        );
        assert!(
            md.contains("each `openai/chat` cell with none takes"),
            "{md}"
        );
    }

    #[test]
    fn strict_modes_rejection_is_not_passed_to_openai_chat_nor_over_its_own_evidence() {
        let docs = [doc_at(
            STRICT,
            EvidenceKind::Report,
            "2026-02-02",
            Verdict::Rejected,
        )];
        let m = build(&catalog(), &openai_targets(), &[], &docs);
        assert!(m.cell(C, "openai/chat").is_none());
        // openai/chat's own rejection stands beside strict mode's acceptance (a disagreement
        // of the evidence, not a gap to fill); strict mode keeps its own acceptance.
        let docs = [
            doc(EvidenceKind::Report, "2025-01-01", Verdict::Rejected),
            doc_at(STRICT, EvidenceKind::Doc, "2026-02-02", Verdict::Accepted),
        ];
        let m = build(&catalog(), &openai_targets(), &[], &docs);
        let chat = m.cell(C, "openai/chat").unwrap();
        assert_eq!(chat.verdict, Some(Verdict::Rejected));
        assert!(chat.evidence.iter().all(|it| it.via.is_none()));
        assert_eq!(m.cell(C, STRICT).unwrap().verdict, Some(Verdict::Accepted));
    }

    #[test]
    fn an_inherited_probe_is_openai_chats_observation_not_the_strict_targets() {
        let runs = [
            run("r1", "2026-11-01", &[(C, "openai/chat", Verdict::Rejected)]),
            // The strict target's only own answer decided nothing: still a gap.
            run("r2", "2026-11-02", &[(C, STRICT, Verdict::Inconclusive)]),
        ];
        let m = build(&catalog(), &openai_targets(), &runs, &[]);
        let cell = m.cell(C, STRICT).unwrap();
        assert_eq!(cell.verdict, Some(Verdict::Rejected));
        assert_eq!(cell.kind, Some(EvidenceKind::Probe));
        let item = cell.deciding_item().unwrap();
        assert_eq!(item.via.as_deref(), Some("openai/chat"));
        assert_eq!(item.source, "r1");
        assert!(cell.last_attempt.as_deref().unwrap().contains("run r2"));
        // No run reached the strict target with a verdict.
        assert_eq!(m.reached["r2"], Vec::<String>::new());
        let md = to_markdown(&m);
        assert!(
            md.contains("✗ [probe 2026-11-01, via openai/chat][1]"),
            "{md}"
        );
    }
}
