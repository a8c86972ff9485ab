//! Deriving profiles from the matrix.
//!
//! For a feature (case parameter at a placement) and one target, the verdict comes from, in
//! order:
//! 1. the feature's own cases at that placement (a case *is* the baseline plus that feature);
//! 2. acceptance inferred from a tool that contains the feature and was accepted as a whole:
//!    the control (the bare baseline every target is sent first), any case whose cell was
//!    decided by a probe, since a probe sent that exact tool, or a report's tool the target
//!    accepted (the matrix's [`Matrix::shown`]). A documented fact mapped to a case speaks
//!    only to that case's feature, not to the rest of the case's tool, which no one sent;
//! 3. the same feature at the nearest other placement (nested, root, items, anyOf branch),
//!    as decided by steps 1 and 2 there, so that e.g. `const` in an `anyOf` branch is judged
//!    by the nested case and `properties` on a nested object by the control's root. The
//!    placement is kept per target ([`FeatureEntry::judged_elsewhere`]) so that profile.json
//!    does not pass such a verdict off as evidence at the feature's own placement;
//! 4. otherwise no evidence: unknown.
//!
//! Nothing here reads anything but the matrix and the catalog, and the output is sorted, so
//! deriving twice gives identical bytes.

use std::collections::{BTreeMap, BTreeSet};

use super::detect::{self, ToolRef};
use super::feature::{Kind, Limit, Param, parse_parameter};
use super::{
    Cited, FamilySummary, FeatureEntry, LimitSummary, Profile, ProfileSet, ProfileSpec, Status,
    Summary, TargetEvidence,
};
use crate::case::{Case, Catalog, Placement};
use crate::evidence::matrix::{Cell, EvidenceItem, Matrix};
use crate::evidence::{EvidenceKind, Verdict};

/// Placements tried after the exact one, nearest first.
pub const FALLBACK: [Placement; 6] = [
    Placement::Nested,
    Placement::Root,
    Placement::Items,
    Placement::AnyofBranch,
    Placement::Tool,
    Placement::Request,
];

/// What one target says about one feature.
#[derive(Debug, Clone, PartialEq)]
enum TargetStatus {
    Accepted,
    /// Boxed: the evidence is most of the enum's size, and most statuses carry none.
    Rejected(Box<TargetEvidence>),
    Unknown,
}

/// The features every case uses, and the cells, indexed for derivation.
pub struct Index<'m> {
    /// (parameter, placement) → cases that declare it as their feature.
    own: BTreeMap<(String, Placement), Vec<String>>,
    /// (parameter, placement) → cases whose tools contain it (detected).
    seen_in: BTreeMap<(String, Placement), Vec<String>>,
    /// Every feature key to list in profiles.
    keys: BTreeSet<(String, Placement)>,
    cells: BTreeMap<(&'m str, &'m str), &'m Cell>,
    control: Option<String>,
    /// The cases whose parameters schemas the JSON Schema 2020-12 meta-schema refuses.
    meta_invalid: BTreeSet<String>,
    /// (parameter, placement, target) a report shows accepted as part of a whole tool.
    shown: BTreeSet<(String, Placement, &'m str)>,
    /// Case id → the other limits its tools reach ([`LimitsReached`]), as (limit, size).
    reached: BTreeMap<String, Vec<(Limit, usize)>>,
}

/// The smallest size any limit case of a catalog probes, by limit, with that case's id: a
/// case whose tools reach it in a limit not its own could be refused for that size instead of
/// for its own feature.
pub struct LimitsReached<'c> {
    smallest: BTreeMap<Limit, (usize, &'c str)>,
}

impl<'c> LimitsReached<'c> {
    pub fn of(cases: &'c [Case]) -> LimitsReached<'c> {
        let mut smallest: BTreeMap<Limit, (usize, &'c str)> = BTreeMap::new();
        for case in cases {
            if let Some(Param::Limit(limit, n)) = parse_parameter(&case.parameter) {
                let least = smallest.entry(limit).or_insert((n, &case.id));
                if n < least.0 {
                    *least = (n, &case.id);
                }
            }
        }
        LimitsReached { smallest }
    }

    /// The measurements of `measured` (a case's, from [`case_seen_and_measured`]) that reach
    /// the smallest probed size of a limit other than the case's own: each with its limit, its
    /// size, and the smallest probed size of that limit with the id of the case probing it.
    pub fn in_case<'s>(
        &self,
        case: &Case,
        measured: &'s [detect::Seen],
    ) -> Vec<(&'s detect::Seen, Limit, usize, (usize, &'c str))> {
        let own = match parse_parameter(&case.parameter) {
            Some(Param::Limit(limit, _)) => Some(limit),
            _ => None,
        };
        measured
            .iter()
            .filter_map(|s| match parse_parameter(&s.parameter) {
                Some(Param::Limit(limit, n)) if Some(limit) != own => {
                    let least = *self.smallest.get(&limit)?;
                    (n >= least.0).then_some((s, limit, n, least))
                }
                _ => None,
            })
            .collect()
    }
}

/// Every feature (parameter, placement) the tools of `case` contain, limits excluded.
pub fn case_features(case: &Case) -> BTreeSet<(String, Placement)> {
    case_seen(case)
        .into_iter()
        .map(|s| (s.parameter, s.placement))
        .collect()
}

/// Root shapes whose parameters are not a schema at all: the keys of an argument instance
/// given in its place (`{value: abc}`) would otherwise read as keywords (`value`), and a
/// target's verdict on the shape would become evidence about keywords no one sent as such.
pub const NOT_A_SCHEMA: [&str; 3] = [
    "root-shape: instance-not-schema",
    "root-shape: parameters-null",
    "root-shape: parameters-absent",
];

/// Every feature met in the tools of `case`, with its pointer, limits excluded. A case whose
/// parameters are not a schema ([`NOT_A_SCHEMA`]) keeps only its root shape and what sits
/// outside its schema (name, description, the request).
pub fn case_seen(case: &Case) -> Vec<detect::Seen> {
    case_seen_and_measured(case).0
}

/// [`case_seen`] and, from the same walk, every limit the rules measure in the tools of
/// `case` (each [`detect::Seen`] carries its measured value in its parameter).
pub fn case_seen_and_measured(case: &Case) -> (Vec<detect::Seen>, Vec<detect::Seen>) {
    let schema = !NOT_A_SCHEMA.contains(&normalize(&case.parameter).as_str());
    let (measured, seen): (Vec<_>, Vec<_>) = detect::collect(&ToolRef::of_case(case))
        .into_iter()
        .partition(|s| s.limit);
    let seen = seen
        .into_iter()
        .filter(|s| {
            schema
                || s.parameter.starts_with("root-shape: ")
                || matches!(s.placement, Placement::Tool | Placement::Request)
        })
        .collect();
    (seen, measured)
}

impl<'m> Index<'m> {
    pub fn new(matrix: &'m Matrix, catalog: &Catalog) -> Index<'m> {
        let mut own: BTreeMap<(String, Placement), Vec<String>> = BTreeMap::new();
        let mut seen_in: BTreeMap<(String, Placement), Vec<String>> = BTreeMap::new();
        let mut keys = BTreeSet::new();
        let mut control = None;
        let mut meta_invalid = BTreeSet::new();
        let mut reached = BTreeMap::new();
        let limits = LimitsReached::of(&catalog.cases);
        for case in &catalog.cases {
            if case
                .tools
                .iter()
                .filter_map(|t| t.parameters.as_ref())
                .any(|p| !jsonschema::draft202012::meta::is_valid(p))
            {
                meta_invalid.insert(case.id.clone());
            }
            if case.is_control() {
                control = Some(case.id.clone());
            } else if parse_parameter(&case.parameter).is_some() {
                let key = (normalize(&case.parameter), case.placement);
                own.entry(key.clone()).or_default().push(case.id.clone());
                keys.insert(key);
            }
            let (seen, measured) = case_seen_and_measured(case);
            let other: Vec<(Limit, usize)> = limits
                .in_case(case, &measured)
                .into_iter()
                .map(|(_, limit, n, _)| (limit, n))
                .collect();
            if !other.is_empty() {
                reached.insert(case.id.clone(), other);
            }
            for key in seen.into_iter().map(|s| (s.parameter, s.placement)) {
                seen_in
                    .entry(key.clone())
                    .or_default()
                    .push(case.id.clone());
                keys.insert(key);
            }
        }
        let cells = matrix
            .cells
            .iter()
            .map(|c| ((c.case.as_str(), c.target.as_str()), c))
            .collect();
        let shown = matrix
            .shown
            .iter()
            .map(|s| (normalize(&s.parameter), s.placement, s.target.as_str()))
            .collect();
        Index {
            own,
            seen_in,
            keys,
            cells,
            control,
            meta_invalid,
            shown,
            reached,
        }
    }

    /// The evidence that `target` rejects every parameters schema the JSON Schema 2020-12
    /// meta-schema refuses: the first rejecting cell (in case order) decided by a documented or
    /// reported `meta-schema: 2020-12` statement made for it, cited as that cell is (its
    /// deciding item and the item it dates from), or, for `engine/jsonschema-2020-12` (whose
    /// definition is that check), its newest probe rejection of a case the meta-schema refuses.
    /// `None` for every other target: a target rejecting some such cases for reasons of its
    /// own says nothing about the rest. The citation is the cell's, not the first statement
    /// found in it, because a cell may hold several statements and MATRIX.md, RULES.md and
    /// `check` must all quote the newest, which decides.
    fn meta_schema(&self, target: &str) -> Option<TargetEvidence> {
        let cells = || self.cells.values().filter(move |c| c.target == target);
        let stated = cells().find(|c| {
            c.verdict == Some(Verdict::Rejected)
                && c.deciding_item().is_some_and(|e| {
                    e.verdict == Verdict::Rejected
                        && e.kind != EvidenceKind::Probe
                        && e.note.as_deref().is_some_and(|n| {
                            n.ends_with(crate::evidence::documented::META_SCHEMA_REASON)
                        })
                })
        });
        if let Some(cell) = stated {
            return evidence(cell);
        }
        if target != crate::engine::meta_schema::TARGET {
            return None;
        }
        cells()
            .filter(|c| {
                self.meta_invalid.contains(&c.case)
                    && c.verdict == Some(Verdict::Rejected)
                    && c.kind == Some(EvidenceKind::Probe)
            })
            .max_by(|a, b| a.last_seen.cmp(&b.last_seen))
            .and_then(|c| evidence(c))
    }

    fn cell(&self, case: &str, target: &str) -> Option<&'m Cell> {
        self.cells.get(&(case, target)).copied()
    }

    /// The target's verdict from the feature's own cases at exactly `placement`.
    fn own_verdict(&self, param: &str, placement: Placement, target: &str) -> Option<TargetStatus> {
        let cases = self.own.get(&(param.to_string(), placement))?;
        let mut accepted = false;
        for case in cases {
            let Some(cell) = self.cell(case, target) else {
                continue;
            };
            match cell.verdict {
                Some(Verdict::Rejected) if !self.refusal_is_its_own(case, target, cell) => {}
                Some(Verdict::Rejected) => {
                    return Some(evidence(cell).map_or(TargetStatus::Unknown, |e| {
                        TargetStatus::Rejected(Box::new(e))
                    }));
                }
                Some(v) if v.is_accepting() => accepted = true,
                _ => {}
            }
        }
        accepted.then_some(TargetStatus::Accepted)
    }

    /// Whether a refusal of `case` by `target` is a verdict on the case's own feature. A
    /// probed refusal of a case whose tools also reach another limit's smallest probed size
    /// ([`LimitsReached`]: `limits/depth-100` nests 100 properties, the size
    /// `limits/property-count-100` probes) is one only where the target is known to accept
    /// that other limit at that size; otherwise it may be a refusal of the size. A documented,
    /// reported or secondary refusal is one: someone read it as about this feature.
    fn refusal_is_its_own(&self, case: &str, target: &str, cell: &Cell) -> bool {
        if cell.kind != Some(EvidenceKind::Probe) {
            return true;
        }
        self.reached.get(case).is_none_or(|other| {
            other
                .iter()
                .all(|&(limit, n)| self.accepts_at_least(limit, n, target))
        })
    }

    /// Whether `target` accepts a case of `limit` at `n` or above.
    fn accepts_at_least(&self, limit: Limit, n: usize, target: &str) -> bool {
        self.own.iter().any(|((param, _), cases)| {
            matches!(parse_parameter(param), Some(Param::Limit(l, m)) if l == limit && m >= n)
                && cases.iter().any(|case| {
                    self.cell(case, target)
                        .is_some_and(|c| c.verdict.is_some_and(Verdict::is_accepting))
                })
        })
    }

    /// Acceptance inferred from a case, or a report's tool, accepted as a whole that contains
    /// the feature.
    fn inferred(&self, key: &(String, Placement), target: &str) -> bool {
        if self.shown.contains(&(key.0.clone(), key.1, target)) {
            return true;
        }
        let Some(cases) = self.seen_in.get(key) else {
            return false;
        };
        cases.iter().any(|case| {
            self.cell(case, target).is_some_and(|cell| {
                cell.verdict.is_some_and(Verdict::is_accepting)
                    && (Some(case) == self.control.as_ref()
                        || cell.kind == Some(EvidenceKind::Probe))
            })
        })
    }

    /// Steps 1 and 2: the feature's own cases at this placement, then inferred acceptance.
    /// Limits are monotonic: a target that accepts N accepts every smaller value, and one that
    /// rejects N rejects every larger value, so a limit case without its own verdict takes it
    /// from the nearest decided case of the same family.
    fn direct(&self, key: &(String, Placement), target: &str) -> TargetStatus {
        let (param, placement) = key;
        if let Some(s) = self.own_verdict(param, *placement, target) {
            return s;
        }
        if let Some(Param::Limit(limit, n)) = parse_parameter(param) {
            return self.limit_bound(limit, n, target);
        }
        if self.inferred(key, target) {
            return TargetStatus::Accepted;
        }
        TargetStatus::Unknown
    }

    /// A limit case's verdict from the other cases of its family at this target.
    fn limit_bound(&self, limit: super::feature::Limit, n: usize, target: &str) -> TargetStatus {
        let mut accepted_at_or_above = None;
        let mut rejected_at_or_below: Option<Box<TargetEvidence>> = None;
        for ((param, placement), _) in self.own.iter() {
            let Some(Param::Limit(l, m)) = parse_parameter(param) else {
                continue;
            };
            if l != limit || m == n {
                continue;
            }
            match self.own_verdict(param, *placement, target) {
                Some(TargetStatus::Accepted) if m > n => accepted_at_or_above = Some(m),
                Some(TargetStatus::Rejected(e)) if m < n => rejected_at_or_below = Some(e),
                _ => {}
            }
        }
        match (accepted_at_or_above, rejected_at_or_below) {
            (Some(_), None) => TargetStatus::Accepted,
            (None, Some(e)) => TargetStatus::Rejected(e),
            _ => TargetStatus::Unknown,
        }
    }

    /// All four steps, with the other placement whose verdict step 3 took (`None` when the
    /// verdict is from this placement, or there is none).
    fn status(&self, key: &(String, Placement), target: &str) -> (TargetStatus, Option<Placement>) {
        let here = self.direct(key, target);
        if here != TargetStatus::Unknown {
            return (here, None);
        }
        for p in FALLBACK {
            if p == key.1 {
                continue;
            }
            let other = (key.0.clone(), p);
            if !self.keys.contains(&other) {
                continue;
            }
            let s = self.direct(&other, target);
            if s != TargetStatus::Unknown {
                return (s, Some(p));
            }
        }
        (TargetStatus::Unknown, None)
    }

    fn control_status(&self, target: &str) -> TargetStatus {
        let Some(control) = &self.control else {
            return TargetStatus::Unknown;
        };
        match self
            .cell(control, target)
            .and_then(|c| c.verdict.map(|v| (c, v)))
        {
            Some((_, v)) if v.is_accepting() => TargetStatus::Accepted,
            Some((c, Verdict::Rejected)) => evidence(c).map_or(TargetStatus::Unknown, |e| {
                TargetStatus::Rejected(Box::new(e))
            }),
            _ => TargetStatus::Unknown,
        }
    }
}

/// Case parameters are compared with surrounding whitespace trimmed and single spaces.
pub fn normalize(parameter: &str) -> String {
    parameter.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The rejecting cell's evidence as the profile cites it. `None` when the cell does not name
/// the items behind its verdict (a matrix read from an older `matrix.json`).
fn evidence(cell: &Cell) -> Option<TargetEvidence> {
    Some(TargetEvidence {
        target: cell.target.clone(),
        case: cell.case.clone(),
        latest: cite(cell.deciding_item()?, Sighting::Last),
        since: cite(cell.since_item()?, Sighting::First),
    })
}

/// Which end of a probe entry (it folds consecutive observations) a citation names.
#[derive(Clone, Copy)]
enum Sighting {
    First,
    Last,
}

/// One item's kind, date and link. A probe entry's source is `first-run .. last-run`: the
/// citation takes the run whose observation carries the date it gives.
fn cite(item: &EvidenceItem, end: Sighting) -> Cited {
    let (date, source) = match (item.kind, end) {
        (EvidenceKind::Probe, Sighting::First) => (
            &item.first_seen,
            item.source.split(" .. ").next().unwrap_or(&item.source),
        ),
        (EvidenceKind::Probe, Sighting::Last) => (
            &item.last_seen,
            item.source.rsplit(" .. ").next().unwrap_or(&item.source),
        ),
        (_, Sighting::First) => (&item.first_seen, item.source.as_str()),
        (_, Sighting::Last) => (&item.last_seen, item.source.as_str()),
    };
    Cited {
        kind: item.kind,
        date: date.clone(),
        source: source.to_string(),
        via: item.via.clone(),
        read: item.read,
        inferred: item.inferred,
        not_verbatim: item.not_verbatim,
    }
}

fn combine(statuses: Vec<(String, TargetStatus)>) -> (Status, Vec<TargetEvidence>, Vec<String>) {
    let mut rejected = Vec::new();
    let mut unknown = Vec::new();
    for (target, s) in statuses {
        match s {
            TargetStatus::Accepted => {}
            TargetStatus::Rejected(e) => rejected.push(*e),
            TargetStatus::Unknown => unknown.push(target),
        }
    }
    let status = if !rejected.is_empty() {
        Status::Rejected
    } else if !unknown.is_empty() {
        Status::Unknown
    } else {
        Status::Allowed
    };
    (status, rejected, unknown)
}

/// Derives every profile of `specs` from the matrix.
pub fn derive(matrix: &Matrix, catalog: &Catalog, specs: &[ProfileSpec]) -> ProfileSet {
    let index = Index::new(matrix, catalog);
    let profiles = specs.iter().map(|spec| derive_one(&index, spec)).collect();
    ProfileSet {
        about:
            "Generated by `toolwire rules` from reports/matrix.json (see RULES.md); do not edit. \
A feature is a case parameter at a placement; it is `allowed` only when every target of the \
profile has accepting evidence, `rejected` when any target has rejecting evidence, and `unknown` \
(not accepted) when some target has none. A target's evidence is the feature's own case at its \
placement, or a whole accepted tool containing the feature there, or, when neither exists, the \
same feature at the nearest other placement (nested, root, items, anyof-branch, tool, request): \
`judged_elsewhere` names, per feature, each target judged so and that placement."
                .into(),
        profiles,
    }
}

fn derive_one(index: &Index<'_>, spec: &ProfileSpec) -> Profile {
    let (control, ..) = combine(
        spec.targets
            .iter()
            .map(|t| (t.clone(), index.control_status(t)))
            .collect(),
    );
    let features: Vec<FeatureEntry> = index
        .keys
        .iter()
        .map(|key| {
            let mut judged_elsewhere = BTreeMap::new();
            let (status, rejected_by, unknown_for) = combine(
                spec.targets
                    .iter()
                    .map(|t| {
                        let (s, elsewhere) = index.status(key, t);
                        if let Some(p) = elsewhere {
                            judged_elsewhere.insert(t.clone(), p);
                        }
                        (t.clone(), s)
                    })
                    .collect(),
            );
            FeatureEntry {
                parameter: key.0.clone(),
                placement: key.1,
                status,
                rejected_by,
                unknown_for,
                judged_elsewhere,
            }
        })
        .collect();
    let summary = summarize(&features);
    Profile {
        name: spec.name.clone(),
        targets: spec.targets.clone(),
        control,
        features,
        summary,
        meta_schema: spec
            .targets
            .iter()
            .filter_map(|t| index.meta_schema(t))
            .collect(),
    }
}

fn summarize(features: &[FeatureEntry]) -> Summary {
    // family → value → worst status over placements
    let mut values: BTreeMap<String, BTreeMap<String, Status>> = BTreeMap::new();
    let mut limits: BTreeMap<String, BTreeMap<usize, Status>> = BTreeMap::new();
    for f in features {
        match parse_parameter(&f.parameter) {
            Some(Param::Limit(l, n)) => {
                let e = limits
                    .entry(l.family().to_string())
                    .or_default()
                    .entry(n)
                    .or_insert(f.status);
                *e = (*e).max(f.status);
            }
            Some(Param::Keyed(Kind::Control, _)) | None => {}
            Some(Param::Keyed(_, value)) => {
                let family = f
                    .parameter
                    .split(':')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_string();
                let value = if value.is_empty() {
                    family.clone()
                } else {
                    value
                };
                let e = values
                    .entry(family)
                    .or_default()
                    .entry(value)
                    .or_insert(f.status);
                *e = (*e).max(f.status);
            }
        }
    }
    let families = values
        .into_iter()
        .map(|(family, vals)| {
            let mut s = FamilySummary::default();
            for (v, st) in vals {
                match st {
                    Status::Allowed => s.allowed.push(v),
                    Status::Rejected => s.rejected.push(v),
                    Status::Unknown => s.unknown.push(v),
                }
            }
            (family, s)
        })
        .collect();
    let limits = limits
        .into_iter()
        .map(|(family, ns)| {
            let mut s = LimitSummary::default();
            let mut all_allowed_so_far = true;
            for (n, st) in ns {
                match st {
                    Status::Allowed if all_allowed_so_far => s.allowed_up_to = Some(n),
                    Status::Allowed => {}
                    Status::Rejected => {
                        all_allowed_so_far = false;
                        s.rejected_from.get_or_insert(n);
                    }
                    Status::Unknown => {
                        all_allowed_so_far = false;
                        s.unknown.push(n);
                    }
                }
            }
            (family, s)
        })
        .collect();
    Summary { families, limits }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::matrix::{Documented, build};

    const CASE: &str = "structure/array-without-items-nested";

    /// An argument instance given as the parameters (`{value: abc}`) is no schema: its keys
    /// are not keywords, and the shape is all the case informs. A schema's keywords still
    /// count, and so does the tool's name around an instance.
    #[test]
    fn a_case_whose_parameters_are_not_a_schema_contributes_no_keywords() {
        let catalog = Catalog::load(std::path::Path::new("cases")).unwrap();
        let features = |id: &str| case_features(catalog.get(id).unwrap());
        let instance = features("root/instance-not-schema");
        assert!(
            instance.contains(&("root-shape: instance-not-schema".into(), Placement::Root)),
            "{instance:?}"
        );
        assert!(
            instance
                .iter()
                .all(|(p, placement)| p.starts_with("root-shape: ")
                    || matches!(placement, Placement::Tool | Placement::Request)),
            "{instance:?}"
        );
        assert!(
            instance
                .iter()
                .any(|(_, placement)| *placement == Placement::Tool),
            "{instance:?}"
        );
        let schema = features("root/type-string");
        assert!(
            schema.contains(&("type-spelling: string".into(), Placement::Root)),
            "{schema:?}"
        );
    }

    /// openai/chat's probe rejection reaches openai/chat-strict's profile as openai/chat's
    /// probe, "via" it, and every citation of it says so; it is no observation of the strict
    /// target, and no acceptance comes with it.
    #[test]
    fn an_inherited_rejection_is_cited_as_the_source_targets_evidence() {
        let catalog = Catalog::load(std::path::Path::new("cases")).unwrap();
        let targets: Vec<String> = ["openai/chat", "openai/chat-strict"]
            .map(String::from)
            .into();
        let item =
            |verdict| EvidenceItem::seen_once(EvidenceKind::Probe, verdict, "2026-11-01", "r1");
        let control = catalog.cases.iter().find(|c| c.is_control()).unwrap();
        let documented = [
            Documented {
                case: CASE.into(),
                target: "openai/chat".into(),
                item: item(Verdict::Rejected),
            },
            // openai/chat accepting the whole control tool says nothing of the strict target.
            Documented {
                case: control.id.clone(),
                target: "openai/chat".into(),
                item: item(Verdict::Accepted),
            },
        ];
        let matrix = build(&catalog, &targets, &[], &documented);
        let spec = ProfileSpec {
            name: "openai/chat-strict".into(),
            targets: vec!["openai/chat-strict".into()],
        };
        let set = derive(&matrix, &catalog, &[spec]);
        let profile = &set.profiles[0];
        assert_eq!(profile.control, Status::Unknown);
        let feature = profile
            .features
            .iter()
            .find(|f| f.parameter == "structure: array-without-items")
            .unwrap();
        assert_eq!(feature.status, Status::Rejected);
        let e = &feature.rejected_by[0];
        assert_eq!(e.target, "openai/chat-strict");
        assert_eq!(e.latest.kind, EvidenceKind::Probe);
        assert_eq!(e.latest.via.as_deref(), Some("openai/chat"));
        assert_eq!(e.since.via.as_deref(), Some("openai/chat"));
        assert_eq!(e.latest.label(), "probe 2026-11-01, via openai/chat");
        assert!(
            !profile.features.iter().any(|f| f.status == Status::Allowed),
            "nothing is accepted on openai/chat-strict's behalf"
        );
    }

    /// `limits/depth-100` nests 100 properties, the size `limits/property-count-100` probes:
    /// a probed refusal of it is a verdict on depth only where the target is known to accept
    /// 100 properties. A reported refusal is one in any case: someone read it as about depth.
    #[test]
    fn a_probed_refusal_reaching_another_limit_decides_only_once_that_limit_is_accepted() {
        let catalog = Catalog::load(std::path::Path::new("cases")).unwrap();
        let targets: Vec<String> = vec!["xai/chat".into()];
        let item = |kind, case: &str, verdict| Documented {
            case: case.into(),
            target: "xai/chat".into(),
            item: EvidenceItem::seen_once(kind, verdict, "2026-11-01", "r1"),
        };
        let depth = ("depth-limit: 100".to_string(), Placement::Nested);
        let status = |documented: &[Documented]| {
            let matrix = build(&catalog, &targets, &[], documented);
            let index = Index::new(&matrix, &catalog);
            match index.direct(&depth, "xai/chat") {
                TargetStatus::Rejected(_) => "rejected",
                TargetStatus::Accepted => "accepted",
                TargetStatus::Unknown => "unknown",
            }
        };
        let refused = |kind| item(kind, "limits/depth-100", Verdict::Rejected);
        let count = |verdict| item(EvidenceKind::Probe, "limits/property-count-100", verdict);
        assert_eq!(status(&[refused(EvidenceKind::Probe)]), "unknown");
        assert_eq!(
            status(&[refused(EvidenceKind::Probe), count(Verdict::Rejected)]),
            "unknown"
        );
        assert_eq!(
            status(&[refused(EvidenceKind::Probe), count(Verdict::Accepted)]),
            "rejected"
        );
        assert_eq!(status(&[refused(EvidenceKind::Report)]), "rejected");
    }

    /// A feature a report shows xai/chat accepting as part of a whole tool is allowed in its
    /// profile, where no case of the feature decides: `properties` at the root has no case of
    /// its own, and the shown acceptance decides it as an accepted control would. A rejection
    /// of the feature's own case still decides that feature, and nothing is said of another
    /// target.
    #[test]
    fn a_feature_shown_in_an_accepted_tool_is_allowed_where_no_case_decides() {
        use crate::evidence::matrix::Shown;
        let catalog = Catalog::load(std::path::Path::new("cases")).unwrap();
        let targets: Vec<String> = ["xai/chat", "moonshot/chat"].map(String::from).into();
        let rejection = Documented {
            case: "types/string-nested".into(),
            target: "xai/chat".into(),
            item: EvidenceItem::seen_once(
                EvidenceKind::Report,
                Verdict::Rejected,
                "2026-01-01",
                "https://example.com/r",
            ),
        };
        let mut matrix = build(&catalog, &targets, &[], &[rejection]);
        let shown = |parameter: &str, placement| Shown {
            target: "xai/chat".into(),
            parameter: parameter.into(),
            placement,
            date: "2026-05-01".into(),
            source: "https://example.com/1".into(),
            note: "accepted as part of the tool `t` in r1".into(),
        };
        matrix.shown = vec![
            shown("keyword-allowed: properties", Placement::Root),
            shown("type-spelling: string", Placement::Nested),
        ];
        let specs: Vec<ProfileSpec> = targets
            .iter()
            .map(|t| ProfileSpec {
                name: t.clone(),
                targets: vec![t.clone()],
            })
            .collect();
        let set = derive(&matrix, &catalog, &specs);
        let status = |profile: usize, parameter: &str, placement| {
            set.profiles[profile]
                .features
                .iter()
                .find(|f| f.parameter == parameter && f.placement == placement)
                .map(|f| f.status)
        };
        assert_eq!(
            status(0, "keyword-allowed: properties", Placement::Root),
            Some(Status::Allowed)
        );
        assert_eq!(
            status(0, "type-spelling: string", Placement::Nested),
            Some(Status::Rejected)
        );
        assert_eq!(
            status(1, "keyword-allowed: properties", Placement::Root),
            Some(Status::Unknown)
        );
    }
    /// `const` in an `anyOf` branch has a case of its own, but no evidence for it at either
    /// target: its verdicts are the nested case's, and the profile, and profile.json read
    /// back, say so per target, for an allowed and a rejected feature alike. `const @ nested`,
    /// judged by its own case, names no other placement.
    #[test]
    fn a_feature_judged_at_another_placement_records_that_placement() {
        let catalog = Catalog::load(std::path::Path::new("cases")).unwrap();
        let targets: Vec<String> = ["xai/chat", "moonshot/chat"].map(String::from).into();
        let documented = |target: &str, verdict| Documented {
            case: "keywords/const-nested".into(),
            target: target.into(),
            item: EvidenceItem::seen_once(
                EvidenceKind::Doc,
                verdict,
                "2026-01-01",
                "https://example.com/d",
            ),
        };
        let matrix = build(
            &catalog,
            &targets,
            &[],
            &[
                documented("xai/chat", Verdict::Accepted),
                documented("moonshot/chat", Verdict::Rejected),
            ],
        );
        let specs: Vec<ProfileSpec> = targets
            .iter()
            .map(|t| ProfileSpec {
                name: t.clone(),
                targets: vec![t.clone()],
            })
            .chain([ProfileSpec {
                name: "both".into(),
                targets: targets.clone(),
            }])
            .collect();
        let set = derive(&matrix, &catalog, &specs);
        let text = serde_json::to_string_pretty(&set).unwrap();
        let again = serde_json::to_string_pretty(&derive(&matrix, &catalog, &specs)).unwrap();
        assert_eq!(text, again, "deriving twice gives identical bytes");
        let read = ProfileSet::from_json(std::path::Path::new("profile.json"), &text).unwrap();
        for set in [&set, &read] {
            let entry = |profile: usize, placement| {
                set.profiles[profile]
                    .features
                    .iter()
                    .find(|f| f.parameter == "keyword-allowed: const" && f.placement == placement)
                    .unwrap()
            };
            let nested = |t: &str| BTreeMap::from([(t.to_string(), Placement::Nested)]);
            let branch = entry(0, Placement::AnyofBranch);
            assert_eq!(branch.status, Status::Allowed);
            assert_eq!(branch.judged_elsewhere, nested("xai/chat"));
            let branch = entry(1, Placement::AnyofBranch);
            assert_eq!(branch.status, Status::Rejected);
            assert_eq!(branch.rejected_by[0].case, "keywords/const-nested");
            assert_eq!(branch.judged_elsewhere, nested("moonshot/chat"));
            let both = entry(2, Placement::AnyofBranch);
            assert_eq!(
                both.judged_elsewhere.keys().collect::<Vec<_>>(),
                ["moonshot/chat", "xai/chat"]
            );
            for profile in 0..3 {
                assert!(
                    entry(profile, Placement::Nested)
                        .judged_elsewhere
                        .is_empty()
                );
            }
        }
        let file: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            file["profiles"][0]["judged_elsewhere"]["keyword-allowed: const @ anyof-branch"],
            serde_json::json!({"xai/chat": "nested"}),
            "profile.json names the placement per feature and target"
        );
    }
}
