//! Profiles derived from the matrix, and the rule registry that applies them.
//!
//! A *profile* is the schema subset a declared set of targets all accept. It is
//! derived from the matrix alone ([`mod@derive`]): a feature (a case's `parameter` at a
//! placement) is in a profile only when every target of the profile has accepting evidence
//! for it; a rejection by any target keeps it out and is listed with its evidence; a target
//! with no evidence makes it *unknown*, which is also out. `portable` spans the core
//! (non-strict) targets; every target also gets its own profile; strict targets are never in
//! `portable` (they are reached by compiling: `compile --target`).
//!
//! The derived set is written to `reports/profile.json` and embedded in the binary
//! ([`embedded`]) so that `toolwire check` works outside this repository.

pub mod compiled;
pub mod derive;
pub mod detect;
pub mod feature;
pub mod findings;
pub mod keyword;
pub mod rules;
pub mod table;

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::case::Placement;
use crate::error::{Error, Place, Result};
use crate::evidence::EvidenceKind;

pub use compiled::CompiledProfile;

/// The name of the profile over the core targets.
pub const PORTABLE: &str = "portable";

/// Which targets a profile spans.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileSpec {
    pub name: String,
    pub targets: Vec<String>,
}

/// The profile definitions: `portable` over the targets flagged `core` in
/// [`crate::target::registry`] (or over the list in `reports/profiles.yaml` when that file
/// exists), then one profile per target, named by the target id.
pub fn specs(reports: &Path) -> Result<Vec<ProfileSpec>> {
    let registry = crate::target::registry();
    let config = reports.join("profiles.yaml");
    let mut specs = if config.exists() {
        read_config(&config)?
    } else {
        vec![ProfileSpec {
            name: PORTABLE.into(),
            targets: registry
                .iter()
                .filter(|t| t.core && !t.strict)
                .map(|t| t.id.to_string())
                .collect(),
        }]
    };
    for spec in &specs {
        let at = || Place::Pointer(crate::json::push_token("", &spec.name));
        // Names are given on the command line (`--profile`) and shown in reports: spelled
        // like the target ids, so that none is empty, blank or hard to type.
        if !is_profile_name(&spec.name) {
            return Err(Error::input(
                &config,
                at(),
                format!(
                    "{:?} is not a profile name: use letters, digits and `-`, `_`, `.`, `/`, \
                     starting with a letter or digit",
                    spec.name
                ),
            ));
        }
        if spec.targets.is_empty() {
            return Err(Error::input(
                &config,
                at(),
                "a profile spans at least one target",
            ));
        }
        if let Some((i, t)) =
            (spec.targets.iter().enumerate()).find(|(i, t)| spec.targets[..*i].contains(t))
        {
            return Err(Error::input(
                &config,
                Place::Pointer(format!("{}/{i}", crate::json::push_token("", &spec.name))),
                format!("{t} is listed twice; list each target once"),
            ));
        }
        // A profile named like a target would replace that target's own profile, which
        // `check --target` and the rule table read as that target's evidence.
        if crate::target::find(&spec.name).is_some() && spec.targets != [spec.name.clone()] {
            return Err(Error::input(
                &config,
                at(),
                format!(
                    "{:?} is a target's own profile; it spans that target alone ([{}]); name \
                     this profile otherwise",
                    spec.name, spec.name
                ),
            ));
        }
        for (i, t) in spec.targets.iter().enumerate() {
            if crate::target::find(t).is_none() {
                return Err(Error::input(
                    &config,
                    Place::Pointer(format!("{}/{i}", crate::json::push_token("", &spec.name))),
                    format!("unknown target {t:?}{}", target_hint(t)),
                ));
            }
            if crate::target::find(t).is_some_and(|t| t.strict) && spec.name == PORTABLE {
                return Err(Error::input(
                    &config,
                    Place::Pointer(format!("/{PORTABLE}")),
                    format!(
                        "{t} is a strict target; strict modes are reached by compiling, never by shrinking `portable`"
                    ),
                ));
            }
        }
    }
    for t in &registry {
        if !specs.iter().any(|s| s.name == t.id) {
            specs.push(ProfileSpec {
                name: t.id.to_string(),
                targets: vec![t.id.to_string()],
            });
        }
    }
    Ok(specs)
}

/// Whether `name` may name a profile: ASCII letters, digits, `-`, `_`, `.` and `/`, starting
/// with a letter or digit (as every target id is spelled).
fn is_profile_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
}

/// What follows "unknown target T" in an error: the target id `t` was probably meant to be,
/// else the ids there are.
fn target_hint(t: &str) -> String {
    let ids: Vec<&str> = crate::target::registry().iter().map(|r| r.id).collect();
    match crate::error::did_you_mean(t, ids.iter().copied()) {
        Some(near) => format!(" (did you mean {near:?}?)"),
        None => format!("; known: {}", ids.join(", ")),
    }
}

/// `reports/profiles.yaml`: a mapping from profile name to its list of target ids.
fn read_config(path: &Path) -> Result<Vec<ProfileSpec>> {
    let bytes = crate::json::read_capped(path, crate::json::Limits::default())?;
    let text = crate::json::check_utf8(path, &bytes)?;
    // Duplicates are read, then named below; the library's own error would print
    // the key as [REDACTED] and suggest a setting of its own API.
    fn options() -> serde_saphyr::Options {
        let mut options = serde_saphyr::Options::default();
        options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::PassThrough;
        options
    }
    // Read as the case files are, so that an error names the line and the profile (and the
    // item) it is about, not only the type serde expected.
    let map: indexmap_like::Ordered =
        crate::case::from_yaml(path, text, options, std::convert::identity)?;
    let twice = (map.0.iter().enumerate())
        .find(|(i, (name, _))| map.0[..*i].iter().any(|(n, _)| n == name))
        .map(|(_, (name, _))| name);
    if let Some(name) = twice {
        // The keys are read again with their places, on this path only: serde_path_to_error
        // names no key read with its place, and the errors above need it to name the field.
        let keys = serde_saphyr::from_str_with_options::<indexmap_like::Keys>(text, options());
        let places: Vec<_> = (keys.map(|k| k.0).unwrap_or_default().into_iter())
            .filter(|k| k.value == *name)
            .map(|k| k.referenced)
            .collect();
        let (place, first) = match places.as_slice() {
            [first, second, ..] => (
                Place::LineColumn {
                    line: second.line() as usize,
                    column: second.column() as usize,
                },
                format!(" (first on line {})", first.line()),
            ),
            _ => (Place::File, String::new()),
        };
        return Err(Error::input(
            path,
            place,
            format!("the profile {name:?} is defined twice{first}; define it once"),
        ));
    }
    if !map.0.iter().any(|(n, _)| n == PORTABLE) {
        return Err(Error::input(
            path,
            Place::File,
            "must define the `portable` profile",
        ));
    }
    Ok(map
        .0
        .into_iter()
        .map(|(name, targets)| ProfileSpec { name, targets })
        .collect())
}

mod indexmap_like {
    //! A YAML mapping read in file order.
    use serde::de::{Deserializer, MapAccess, Visitor};

    pub struct Ordered(pub Vec<(String, Vec<String>)>);

    /// The mapping's keys with their places, in file order (the values passed over): where
    /// a profile defined twice is.
    pub struct Keys(pub Vec<serde_saphyr::Spanned<String>>);

    impl<'de> serde::Deserialize<'de> for Keys {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Keys;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a mapping")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Keys, A::Error> {
                    let mut out = Vec::new();
                    while let Some((k, serde::de::IgnoredAny)) = m.next_entry()? {
                        out.push(k);
                    }
                    Ok(Keys(out))
                }
            }
            d.deserialize_map(V)
        }
    }

    impl<'de> serde::Deserialize<'de> for Ordered {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Ordered;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a mapping from profile name to a list of target ids")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Ordered, A::Error> {
                    let mut out = Vec::new();
                    while let Some(entry) = m.next_entry()? {
                        out.push(entry);
                    }
                    Ok(Ordered(out))
                }
            }
            d.deserialize_map(V)
        }
    }
}

/// Whether a feature is in a profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Every target of the profile has accepting evidence.
    Allowed,
    /// No target rejects, but at least one has no evidence: not accepted.
    Unknown,
    /// At least one target has rejecting evidence.
    Rejected,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Allowed => "allowed",
            Status::Unknown => "unknown",
            Status::Rejected => "rejected",
        }
    }
}

/// One piece of evidence as the profile cites it: kind, date and link all copied from the same
/// item of a matrix cell's history, never mixed from two.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cited {
    pub kind: EvidenceKind,
    /// `YYYY-MM-DD` (or the partial date the source gives); empty when undated. A probe
    /// entry's date is that of the observation `source` names.
    pub date: String,
    /// URL (doc, report) or the id of the run whose log holds the observation (probe).
    pub source: String,
    /// The target whose evidence this is, when the cited target inherits its rejections
    /// ([`crate::target::Inheritance`]): `kind`, `date` and `source` are that target's, never
    /// evidence about the cited one. `None` for the cited target's own evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    /// `date` is the day the source was read, not one it gives for what it says
    /// ([`crate::evidence::matrix::EvidenceItem::read`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub read: bool,
    /// The verdict is inferred from the source's words, not stated by them
    /// ([`crate::evidence::matrix::EvidenceItem::inferred`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inferred: bool,
    /// The report's quote is not the provider's answer verbatim
    /// ([`crate::evidence::matrix::EvidenceItem::not_verbatim`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_verbatim: bool,
}

impl Cited {
    /// The date as shown to readers: `undated` when there is none, `read 2026-12-02` when it
    /// is the day the source was read (a reader would otherwise take it for the day the
    /// provider said so).
    pub fn date_text(&self) -> String {
        if self.date.is_empty() {
            "undated".into()
        } else if self.read {
            format!("read {}", self.date)
        } else {
            self.date.clone()
        }
    }

    /// Kind and date as every citation shows them, `report 2025-04-24`; a verdict inferred
    /// from the words, not stated by them, says so (`secondary read 2026-12-02, inferred`),
    /// and another target's inherited evidence names the target it is from: `report
    /// 2025-04-24, via openai/chat`. A report whose quote is not the provider's words says so
    /// (`report 2025-04-09, not verbatim`), since it would otherwise read as the error itself.
    pub fn label(&self) -> String {
        let mut label = format!("{} {}", self.kind.as_str(), self.date_text());
        if self.not_verbatim {
            label.push_str(", not verbatim");
        }
        if self.inferred {
            label.push_str(", inferred");
        }
        if let Some(from) = &self.via {
            label.push_str(", via ");
            label.push_str(from);
        }
        label
    }
}

/// The evidence behind one target's rejection of a feature: the matrix cell that decided it,
/// and two items of its history.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TargetEvidence {
    pub target: String,
    /// The case whose cell decided it.
    pub case: String,
    /// The newest evidence for the verdict, the one that decides it (the matrix cell's
    /// `decided_by`, dated by its last sighting): what MATRIX.md shows and `check` quotes.
    pub latest: Cited,
    /// The evidence the verdict dates from (the cell's `since_from`, dated by its first
    /// sighting): the earliest evidence of the current verdict since it last changed.
    pub since: Cited,
}

/// One feature of a profile: a case parameter at a placement, and whether it is in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeatureEntry {
    pub parameter: String,
    pub placement: Placement,
    pub status: Status,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejected_by: Vec<TargetEvidence>,
    /// Targets with no evidence either way.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown_for: Vec<String>,
    /// Target → the other placement whose verdict for the same feature it was given, for each
    /// target with no evidence at this one (`derive`'s step 3). Without it a reader of
    /// `allowed` would take e.g. `properties @ anyof-branch` for something seen accepted in
    /// an `anyOf` branch, when it was only seen on a nested object.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub judged_elsewhere: BTreeMap<String, Placement>,
}

/// `judged from the nested placement` when `target`'s verdict on a feature is the same
/// feature's at another placement (`elsewhere`: [`FeatureEntry::judged_elsewhere`]), else
/// `None`. Said wherever the verdict is cited in words, so that a rejection is never read as
/// seen at a placement no evidence speaks to (trial 51 D9: `rule type-missing` said gemini
/// rejects it at `items`, judged from a report about a nested property).
pub fn judged_from(elsewhere: &BTreeMap<String, Placement>, target: &str) -> Option<String> {
    elsewhere
        .get(target)
        .map(|p| format!("judged from the {p} placement"))
}

/// What a profile allows, per family, for readers (RULES.md, `toolwire rule`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Family (e.g. `keyword-allowed`) → values by status.
    pub families: BTreeMap<String, FamilySummary>,
    /// Limit family (e.g. `depth-limit`) → the values the cases settle.
    pub limits: BTreeMap<String, LimitSummary>,
}

/// The values of one family by status. A value with several placements is allowed only when
/// allowed at every placement, rejected when rejected at any.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FamilySummary {
    pub allowed: Vec<String>,
    pub rejected: Vec<String>,
    pub unknown: Vec<String>,
}

/// One limit family: the largest case value allowed with every smaller one, the smallest
/// rejected, and the case values with no verdict.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LimitSummary {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_up_to: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejected_from: Option<usize>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<usize>,
}

/// One profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub name: String,
    pub targets: Vec<String>,
    /// Whether the control (the bare baseline) is accepted by every target.
    pub control: Status,
    pub features: Vec<FeatureEntry>,
    pub summary: Summary,
    /// The targets of the profile that reject every parameters schema the JSON Schema draft
    /// 2020-12 meta-schema refuses, each with one piece of evidence for it: a documented
    /// `meta-schema: 2020-12` rule (`anth-2020-12-property-values-strings`), or for
    /// `engine/jsonschema-2020-12`, whose definition is that check, its newest probe rejection
    /// of a case the meta-schema refuses. `check` validates schemas against the meta-schema
    /// only when this is not empty (rule `meta-schema-invalid`).
    pub meta_schema: Vec<TargetEvidence>,
}

/// Every profile. Written to `reports/profile.json` in a compact form (`file::FileForm`):
/// one shared, deduplicated evidence table, and per profile the allowed, rejected and unknown
/// features as `parameter @ placement` strings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "file::FileForm", from = "file::FileForm")]
pub struct ProfileSet {
    /// What the file is and how it was made.
    pub about: String,
    pub profiles: Vec<Profile>,
}

impl ProfileSet {
    pub fn get(&self, name: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.name == name)
    }

    /// Parses `reports/profile.json` text. `file` only names the source in errors
    /// (`{file}: {place}: {problem}`); for text held in memory any label works.
    pub fn from_json(file: &Path, text: &str) -> Result<ProfileSet> {
        let limits = crate::json::Limits {
            max_bytes: 64 * 1024 * 1024,
            max_depth: 32,
        };
        // Read once, from the text, so that a wrong shape is named at its line and column.
        // Only when that fails, or the text nests too deep, is it read as any JSON file is,
        // whose error (empty, too deep, not JSON) then comes first, worded as for every file.
        let body = text.strip_prefix(crate::json::BOM).unwrap_or(text);
        let read = serde_json::from_str::<file::FileForm>(body);
        if read.is_err()
            || crate::json::nesting_exceeds(body.as_bytes(), limits.max_depth).is_some()
        {
            crate::json::parse_str(file, text, limits, 0)?;
        }
        let form = read.map_err(|e| {
            // A root that is no object is some other file (a tool list given by mistake):
            // serde read a list as the fields in order and named only the type the first
            // wanted ("invalid type: map, expected a string", trial 79 D5), so the root is
            // named instead, at its own line and column.
            if let Some((line, column, root)) = not_an_object_root(body) {
                return Error::input(
                    file,
                    Place::LineColumn { line, column },
                    format!(
                        "not a profiles file: its root is {root}, where a profiles file's is an \
                         object with `about`, `evidence` and `profiles` (the shape `toolwire \
                         rules` writes to reports/profile.json)"
                    ),
                );
            }
            // serde names only the type it expected ("expected a sequence"): the field is
            // found by reading again with its path tracked, on this failing path only.
            let mut again = serde_json::Deserializer::from_str(body);
            let at = serde_path_to_error::deserialize::<_, file::FileForm>(&mut again)
                .err()
                .map(|e| crate::json::pointer_of(e.path()))
                .filter(|p| !p.is_empty())
                .map(|p| format!("at {p}: "))
                .unwrap_or_default();
            Error::input(
                file,
                Place::LineColumn {
                    line: e.line(),
                    column: e.column(),
                },
                format!(
                    "not a profiles file (the shape `toolwire rules` writes to \
                     reports/profile.json): {at}{}",
                    crate::json::strip_position(&e.to_string())
                ),
            )
        })?;
        // A file edited by hand or cut short in another way than its JSON would otherwise be
        // read into profiles that cite no evidence.
        form.validate()
            .map_err(|(pointer, problem)| Error::input(file, Place::Pointer(pointer), problem))?;
        // Evidence sources are printed by `check` and `rule`: a key pasted into one would be
        // published with every finding that cites it.
        crate::evidence::runlog::refuse_key_shaped(file, text)?;
        Ok(ProfileSet::from(form))
    }

    /// Reads a profile file from disk.
    pub fn load(path: &Path) -> Result<ProfileSet> {
        let bytes = crate::json::read_capped(
            path,
            crate::json::Limits {
                max_bytes: 64 * 1024 * 1024,
                max_depth: 32,
            },
        )?;
        let text = crate::json::check_utf8(path, &bytes)?;
        Self::from_json(path, text)
    }
}

/// Where the root of `body` (JSON text that parses) starts, as a 1-based line and column,
/// and what it is, when it is no object: `None` for an object.
fn not_an_object_root(body: &str) -> Option<(usize, usize, &'static str)> {
    let start = body.len() - body.trim_start().len();
    let root = match body[start..].chars().next()? {
        '{' => return None,
        '[' => "a list (a tool list?)",
        '"' => "a string",
        't' | 'f' => "a boolean",
        'n' => "null",
        _ => "a number",
    };
    let before = &body[..start];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Some((line, column, root))
}

mod file {
    //! The on-disk form of [`ProfileSet`](super::ProfileSet).

    use std::collections::BTreeMap;

    use serde::{Deserialize, Serialize};

    use super::{FeatureEntry, Profile, ProfileSet, Status, Summary, TargetEvidence};
    use crate::case::Placement;

    #[derive(Debug, Clone, Serialize, Deserialize)]
    pub(super) struct FileForm {
        about: String,
        /// Every piece of evidence a rejection refers to, once.
        evidence: Vec<TargetEvidence>,
        profiles: Vec<FileProfile>,
    }

    #[derive(Debug, Clone, Serialize, Deserialize)]
    struct FileProfile {
        name: String,
        targets: Vec<String>,
        control: Status,
        /// `parameter @ placement`.
        allowed: Vec<String>,
        rejected: Vec<Rejected>,
        unknown: Vec<Unknown>,
        /// Feature → target → placement, for every feature some target of which was judged
        /// by the same feature at another placement (`FeatureEntry::judged_elsewhere`).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        judged_elsewhere: BTreeMap<String, BTreeMap<String, Placement>>,
        summary: Summary,
        /// Indexes into `evidence`: the targets that reject schemas the 2020-12 meta-schema
        /// refuses (`Profile::meta_schema`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        meta_schema: Vec<usize>,
    }

    #[derive(Debug, Clone, Serialize, Deserialize)]
    struct Rejected {
        feature: String,
        /// Indexes into `evidence`.
        by: Vec<usize>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        unknown_for: Vec<String>,
    }

    /// A feature with no evidence at some target: a plain string in a one-target profile.
    #[derive(Debug, Clone, Serialize, Deserialize)]
    #[serde(untagged)]
    enum Unknown {
        Single(String),
        Many {
            feature: String,
            unknown_for: Vec<String>,
        },
    }

    impl FileForm {
        /// What serde cannot see: every evidence index in range, every feature written
        /// `parameter @ placement`, targets in every profile and one profile per name. Neither
        /// a `portable` profile is required (a file for `compile --target T` needs only T's;
        /// the command that asks for a missing one says so) nor are target ids checked against
        /// the registry: a hand-written file may name a gateway of its own (the CLI tests name
        /// `test/target`). The error is the JSON Pointer of the first problem and the problem.
        pub(super) fn validate<'a>(&'a self) -> Result<(), (String, String)> {
            for (i, e) in self.evidence.iter().enumerate() {
                // `check` prints the date as it is: one that is no day would be quoted. Not
                // refused for being in the future, unlike documented evidence: the built-in
                // profiles go through here, and a machine whose clock is behind must still run.
                for (field, cited) in [("latest", &e.latest), ("since", &e.since)] {
                    if !cited.date.is_empty()
                        && crate::evidence::documented::first_day(&cited.date).is_none()
                    {
                        return Err((
                            format!("/evidence/{i}/{field}/date"),
                            format!(
                                "date {:?} is not a date written YYYY-MM-DD, YYYY-MM or YYYY",
                                cited.date
                            ),
                        ));
                    }
                }
            }
            let in_range = |at: String, index: usize| {
                if index < self.evidence.len() {
                    Ok(())
                } else {
                    Err((
                        at,
                        format!(
                            "evidence index {index} is past the {} entries of `evidence`",
                            self.evidence.len()
                        ),
                    ))
                }
            };
            let feature = |at: String, key: &str| match key.rsplit_once(" @ ") {
                Some((p, place)) if !p.is_empty() && placement(place).is_some() => Ok(()),
                _ => Err((
                    at,
                    format!("{key:?} is not a feature written `parameter @ placement`"),
                )),
            };
            let mut names = std::collections::HashSet::new();
            for (i, p) in self.profiles.iter().enumerate() {
                let at = format!("/profiles/{i}");
                if !names.insert(p.name.as_str()) {
                    return Err((
                        format!("{at}/name"),
                        format!("a second profile named {:?}", p.name),
                    ));
                }
                if p.targets.is_empty() {
                    return Err((format!("{at}/targets"), "a profile with no target".into()));
                }
                // The three lists are exclusive verdicts: a feature in two of them (or twice in
                // one) would be judged by whichever `check` happened to read last.
                let mut listed: std::collections::HashMap<&str, String> =
                    std::collections::HashMap::new();
                let mut once = |at: String, key: &'a str| match listed.get(key) {
                    Some(first) => Err((at, format!("{key:?} is listed already, at {first}"))),
                    None => {
                        listed.insert(key, at);
                        Ok(())
                    }
                };
                for (j, a) in p.allowed.iter().enumerate() {
                    feature(format!("{at}/allowed/{j}"), a)?;
                    once(format!("{at}/allowed/{j}"), a)?;
                }
                for (j, r) in p.rejected.iter().enumerate() {
                    feature(format!("{at}/rejected/{j}/feature"), &r.feature)?;
                    once(format!("{at}/rejected/{j}/feature"), &r.feature)?;
                    for (k, &e) in r.by.iter().enumerate() {
                        let at = format!("{at}/rejected/{j}/by/{k}");
                        in_range(at.clone(), e)?;
                        // A rejection a target inherits is cited as that target's own
                        // evidence (`target::INHERITANCE`), so every citation names one of
                        // the profile's targets; another's would be quoted as this profile's.
                        let by = &self.evidence[e].target;
                        if !p.targets.contains(by) {
                            return Err((
                                at,
                                format!("evidence {e} is {by:?}'s, not a target of the profile"),
                            ));
                        }
                    }
                }
                for (j, u) in p.unknown.iter().enumerate() {
                    let (at, key) = match u {
                        Unknown::Single(key) => (format!("{at}/unknown/{j}"), key),
                        Unknown::Many { feature: key, .. } => {
                            (format!("{at}/unknown/{j}/feature"), key)
                        }
                    };
                    feature(at.clone(), key)?;
                    once(at, key)?;
                }
                for (key, targets) in &p.judged_elsewhere {
                    let at = format!("{at}/judged_elsewhere/{}", pointer_token(key));
                    feature(at.clone(), key)?;
                    if let Some(t) = targets.keys().find(|t| !p.targets.contains(t)) {
                        return Err((
                            format!("{at}/{}", pointer_token(t)),
                            format!("{t:?} is not a target of the profile"),
                        ));
                    }
                }
                for (k, &e) in p.meta_schema.iter().enumerate() {
                    in_range(format!("{at}/meta_schema/{k}"), e)?;
                }
            }
            Ok(())
        }
    }

    /// `key` as one JSON Pointer reference token: a target id holds `/`.
    fn pointer_token(key: &str) -> String {
        key.replace('~', "~0").replace('/', "~1")
    }

    fn key(f: &FeatureEntry) -> String {
        format!("{} @ {}", f.parameter, f.placement)
    }

    /// The placement written `place` (`root`, `nested`, ...), as serde names it.
    fn placement(place: &str) -> Option<Placement> {
        serde_json::from_value(serde_json::Value::String(place.to_string())).ok()
    }

    fn split(key: &str) -> (String, Placement) {
        let (p, place) = key.rsplit_once(" @ ").unwrap_or((key, "nested"));
        (p.to_string(), placement(place).unwrap_or(Placement::Nested))
    }

    impl From<ProfileSet> for FileForm {
        fn from(set: ProfileSet) -> FileForm {
            let mut index: BTreeMap<TargetEvidence, usize> = BTreeMap::new();
            for p in &set.profiles {
                for f in &p.features {
                    for e in &f.rejected_by {
                        let n = index.len();
                        index.entry(e.clone()).or_insert(n);
                    }
                }
                for e in &p.meta_schema {
                    let n = index.len();
                    index.entry(e.clone()).or_insert(n);
                }
            }
            // Number the evidence in sorted order so the file does not depend on profile order.
            let evidence: Vec<TargetEvidence> = index.keys().cloned().collect();
            let position: BTreeMap<&TargetEvidence, usize> =
                evidence.iter().enumerate().map(|(i, e)| (e, i)).collect();
            let profiles = set
                .profiles
                .into_iter()
                .map(|p| {
                    let single = p.targets.len() == 1;
                    let mut allowed = Vec::new();
                    let mut rejected = Vec::new();
                    let mut unknown = Vec::new();
                    let mut judged_elsewhere = BTreeMap::new();
                    for f in &p.features {
                        if !f.judged_elsewhere.is_empty() {
                            judged_elsewhere.insert(key(f), f.judged_elsewhere.clone());
                        }
                        match f.status {
                            Status::Allowed => allowed.push(key(f)),
                            Status::Rejected => rejected.push(Rejected {
                                feature: key(f),
                                by: f.rejected_by.iter().map(|e| position[e]).collect(),
                                unknown_for: f.unknown_for.clone(),
                            }),
                            Status::Unknown if single => unknown.push(Unknown::Single(key(f))),
                            Status::Unknown => unknown.push(Unknown::Many {
                                feature: key(f),
                                unknown_for: f.unknown_for.clone(),
                            }),
                        }
                    }
                    FileProfile {
                        name: p.name,
                        targets: p.targets,
                        control: p.control,
                        allowed,
                        rejected,
                        unknown,
                        judged_elsewhere,
                        summary: p.summary,
                        meta_schema: p.meta_schema.iter().map(|e| position[e]).collect(),
                    }
                })
                .collect();
            FileForm {
                about: set.about,
                evidence,
                profiles,
            }
        }
    }

    impl From<FileForm> for ProfileSet {
        fn from(f: FileForm) -> ProfileSet {
            let profiles = f
                .profiles
                .into_iter()
                .map(|p| {
                    let elsewhere =
                        |key: &str| p.judged_elsewhere.get(key).cloned().unwrap_or_default();
                    let mut features = Vec::new();
                    for a in &p.allowed {
                        let (parameter, placement) = split(a);
                        features.push(FeatureEntry {
                            parameter,
                            placement,
                            status: Status::Allowed,
                            rejected_by: Vec::new(),
                            unknown_for: Vec::new(),
                            judged_elsewhere: elsewhere(a),
                        });
                    }
                    for r in &p.rejected {
                        let (parameter, placement) = split(&r.feature);
                        features.push(FeatureEntry {
                            parameter,
                            placement,
                            status: Status::Rejected,
                            rejected_by: r
                                .by
                                .iter()
                                .filter_map(|i| f.evidence.get(*i).cloned())
                                .collect(),
                            unknown_for: r.unknown_for.clone(),
                            judged_elsewhere: elsewhere(&r.feature),
                        });
                    }
                    for u in &p.unknown {
                        let (feature, unknown_for) = match u {
                            Unknown::Single(s) => (s.clone(), p.targets.clone()),
                            Unknown::Many {
                                feature,
                                unknown_for,
                            } => (feature.clone(), unknown_for.clone()),
                        };
                        let (parameter, placement) = split(&feature);
                        features.push(FeatureEntry {
                            parameter,
                            placement,
                            status: Status::Unknown,
                            rejected_by: Vec::new(),
                            unknown_for,
                            judged_elsewhere: elsewhere(&feature),
                        });
                    }
                    features.sort_by(|a, b| {
                        (&a.parameter, a.placement).cmp(&(&b.parameter, b.placement))
                    });
                    Profile {
                        name: p.name,
                        targets: p.targets,
                        control: p.control,
                        features,
                        summary: p.summary,
                        meta_schema: p
                            .meta_schema
                            .iter()
                            .filter_map(|i| f.evidence.get(*i).cloned())
                            .collect(),
                    }
                })
                .collect();
            ProfileSet {
                about: f.about,
                profiles,
            }
        }
    }
}

/// `reports/profile.json` as committed when this crate was built: the text [`embedded_set`]
/// parses.
pub const EMBEDDED_JSON: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/reports/profile.json"));

/// The profiles committed in `reports/profile.json` when this crate was built, parsed on the
/// first call and shared after it (the file is about 1 MB). Pick one with
/// [`ProfileSet::get`]: [`PORTABLE`], or a target's own by its id (`openai/chat`). The error
/// (a crate built with a broken `reports/profile.json`) is [`Error::Other`] with the parser's
/// words, on every call.
pub fn embedded_set() -> Result<&'static ProfileSet> {
    static SET: std::sync::OnceLock<std::result::Result<ProfileSet, String>> =
        std::sync::OnceLock::new();
    SET.get_or_init(|| {
        ProfileSet::from_json(Path::new("(embedded reports/profile.json)"), EMBEDDED_JSON)
            .map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(|e| Error::Other(e.clone()))
}

/// An owned copy of [`embedded_set`] (for callers that change it; reading needs no copy).
pub fn embedded() -> Result<ProfileSet> {
    embedded_set().cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_is_the_core_targets_unless_configured() {
        let dir = tempfile::tempdir().unwrap();
        let specs = specs(dir.path()).unwrap();
        assert_eq!(specs[0].name, PORTABLE);
        let core: Vec<String> = crate::target::registry()
            .iter()
            .filter(|t| t.core && !t.strict)
            .map(|t| t.id.to_string())
            .collect();
        assert_eq!(specs[0].targets, core);
        // One profile per target follows.
        assert_eq!(specs.len(), 1 + crate::target::registry().len());

        std::fs::write(
            dir.path().join("profiles.yaml"),
            "portable: [openai/chat, anthropic/messages]\nopenai-family: [openai/chat, azure-openai/chat]\n",
        )
        .unwrap();
        let specs = super::specs(dir.path()).unwrap();
        assert_eq!(specs[0].targets, ["openai/chat", "anthropic/messages"]);
        assert_eq!(specs[1].name, "openai-family");

        std::fs::write(
            dir.path().join("profiles.yaml"),
            "portable: [openai/chat-strict]\n",
        )
        .unwrap();
        let err = super::specs(dir.path()).unwrap_err().to_string();
        assert!(err.contains("is a strict target"), "{err}");
    }

    /// What a profiles file may not say: an empty profile (RULES.md then said "`portable`
    /// spans  (the core targets)"), a profile named like a target that spans anything else
    /// (it replaced that target's own), and a profile defined twice (the YAML library's error
    /// showed the key as [REDACTED]).
    #[test]
    fn a_profiles_config_is_refused_naming_the_profile() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profiles.yaml");
        for (text, expected) in [
            (
                "portable: []\n",
                "/portable: a profile spans at least one target",
            ),
            (
                "portable: [openai/chat]\nmistral/chat: [openai/chat]\n",
                "/mistral~1chat: \"mistral/chat\" is a target's own profile",
            ),
            (
                "portable: [openai/chat]\n\"\": [openai/chat]\n",
                "\"\" is not a profile name",
            ),
            (
                "portable: [openai/chat]\n\"a b/../x\": [anthropic/messages]\n",
                "/a b~1..~1x: \"a b/../x\" is not a profile name",
            ),
            (
                "portable: [openai/chat, anthropic/messages, openai/chat]\n",
                "/portable/2: openai/chat is listed twice",
            ),
            // The place is the target's own entry, and a slip is named.
            (
                "portable: [openai/chat, antropic/messages]\n",
                "/portable/1: unknown target \"antropic/messages\" (did you mean \"anthropic/messages\"?)",
            ),
            (
                "portable: [openai/chat]\nmine: [nowhere]\n",
                "/mine/0: unknown target \"nowhere\"; known: engine/",
            ),
            (
                "portable: [openai/chat]\nmine: [openai/chat]\nportable: [anthropic/messages]\n",
                "line 3, column 1: the profile \"portable\" is defined twice (first on line 1)",
            ),
        ] {
            std::fs::write(&path, text).unwrap();
            let err = super::specs(dir.path()).unwrap_err().to_string();
            assert!(err.contains(expected), "{text}: {err}");
            assert!(err.contains("profiles.yaml"), "{err}");
            assert!(!err.contains("REDACTED"), "{err}");
        }
        // A target's own name spanning that target alone says what the default says.
        std::fs::write(
            &path,
            "portable: [openai/chat]\nmistral/chat: [mistral/chat]\n",
        )
        .unwrap();
        assert!(super::specs(dir.path()).is_ok());
    }

    /// A profiles.yaml of the wrong shape is refused naming the file, the line and the
    /// profile (and the item) that is wrong: before, the problem came alone, as "(whole
    /// file)", with no word of which profile.
    #[test]
    fn a_profiles_config_of_the_wrong_shape_names_the_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("profiles.yaml");
        for (text, expected) in [
            (
                "portable: [openai/chat]\nmine: openai/chat\n",
                "line 2, column 7: at /mine: expected sequence start",
            ),
            (
                "portable: [openai/chat, [anthropic/messages]]\n",
                "line 1, column 25: at /portable/1: expected string scalar",
            ),
            (
                "portable: [openai/chat]\nmine: [{a: b}]\n",
                "line 2, column 8: at /mine/0: expected string scalar",
            ),
            // Not a mapping: no field to name, the place is the line.
            (
                "- portable\n",
                "line 1, column 1: the document is not a mapping of `key: value` lines",
            ),
            // A null key: serde's own words were Rust's ("use Option<String>").
            (
                ": : :\n",
                "line 1, column 1: found nothing (an empty or null key or value) where a \
                 string is expected",
            ),
        ] {
            std::fs::write(&path, text).unwrap();
            let err = super::specs(dir.path()).unwrap_err().to_string();
            let file = path.display().to_string();
            assert!(err.starts_with(&format!("{file}: ")), "{text}: {err}");
            assert!(err.contains(expected), "{text}: {err}");
        }
    }

    /// A file whose root is no object (a tool list given to `--profiles` by mistake) is named
    /// not a profiles file by what its root is, at the root's line and column (trial 79 D5:
    /// serde's "invalid type: map, expected a string", about a field it never named).
    #[test]
    fn a_root_that_is_no_object_is_named() {
        let file = Path::new("tools.json");
        for (text, place, root) in [
            (
                r#"[{"type": "function"}]"#,
                "line 1, column 1",
                "a list (a tool list?)",
            ),
            ("\n  \"about\"", "line 2, column 3", "a string"),
            ("  7", "line 1, column 3", "a number"),
            ("true", "line 1, column 1", "a boolean"),
        ] {
            let err = ProfileSet::from_json(file, text).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!(
                    "tools.json: {place}: not a profiles file: its root is {root}, where a \
                     profiles file's is an object with `about`, `evidence` and `profiles`"
                )),
                "{text}: {err}"
            );
        }
        // An object keeps serde's words, which name the field (`missing field`).
        let err = ProfileSet::from_json(file, r#"{"tools": []}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a profiles file (the shape"), "{err}");
        // A field of the wrong kind is named by its pointer: serde said only "invalid type:
        // integer `5`, expected a sequence", which fits many fields of the file.
        let mut form: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string("reports/profile.json").unwrap())
                .unwrap();
        form["profiles"][1]["targets"] = 5.into();
        let err = ProfileSet::from_json(file, &form.to_string())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(
                "(the shape `toolwire rules` writes to reports/profile.json): at \
                 /profiles/1/targets: invalid type: integer `5`, expected a sequence"
            ),
            "{err}"
        );
    }

    /// A profiles file edited by hand is read whole or refused at its first problem: before,
    /// an evidence index out of range was dropped (`rule` then said no target rejects), and a
    /// profile without targets, a malformed feature or a second profile of one name were read
    /// as if valid; a date that is no day was quoted by `check` as it was
    /// (`report 2025-13-45`), and a wrong shape was named only as `(whole file)`. A feature
    /// both allowed and rejected (or unknown), or rejected on another target's evidence, was
    /// read too: `check --target openai/chat` said "rejected by anthropic/messages" (trial 70 D5).
    #[test]
    fn a_profiles_file_that_does_not_hold_together_is_refused_where_it_breaks() {
        let text = include_str!("../../reports/profile.json");
        let committed: serde_json::Value = serde_json::from_str(text).unwrap();
        type Case = (&'static str, fn(&mut serde_json::Value), &'static str);
        let cases: [Case; 13] = [
            (
                "allowed and unknown",
                |v| {
                    let first = v["profiles"][0]["allowed"][0].clone();
                    v["profiles"][0]["unknown"]
                        .as_array_mut()
                        .unwrap()
                        .push(first);
                },
                "is listed already, at /profiles/0/allowed/0",
            ),
            (
                "allowed twice",
                |v| {
                    let first = v["profiles"][0]["allowed"][0].clone();
                    v["profiles"][0]["allowed"]
                        .as_array_mut()
                        .unwrap()
                        .push(first);
                },
                "is listed already, at /profiles/0/allowed/0",
            ),
            (
                "another target's evidence",
                |v| {
                    let other = v["evidence"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .position(|e| e["target"] != "openai/chat")
                        .unwrap();
                    let p = v["profiles"]
                        .as_array_mut()
                        .unwrap()
                        .iter_mut()
                        .find(|p| p["name"] == "openai/chat")
                        .unwrap();
                    p["rejected"][0]["by"][0] = other.into();
                },
                "'s, not a target of the profile",
            ),
            (
                "by",
                |v| v["profiles"][0]["rejected"][0]["by"][0] = 1_000_000_000_000u64.into(),
                "at /profiles/0/rejected/0/by/0: evidence index 1000000000000 is past the",
            ),
            (
                "meta",
                |v| v["profiles"][0]["meta_schema"] = serde_json::json!([1_000_000_000]),
                "at /profiles/0/meta_schema/0: evidence index 1000000000 is past the",
            ),
            (
                "no target",
                |v| v["profiles"][0]["targets"] = serde_json::json!([]),
                "at /profiles/0/targets: a profile with no target",
            ),
            (
                "no day",
                |v| v["evidence"][0]["latest"]["date"] = "2025-13-45".into(),
                "at /evidence/0/latest/date: date \"2025-13-45\" is not a date",
            ),
            (
                "no month",
                |v| v["evidence"][0]["since"]["date"] = "2025-00".into(),
                "at /evidence/0/since/date: date \"2025-00\" is not a date",
            ),
            (
                "shape",
                |v| v["profiles"][0]["rejected"][0]["by"][0] = (-1).into(),
                "line 1, column ",
            ),
            (
                "feature",
                |v| v["profiles"][0]["allowed"][0] = "keyword-allowed: x @ nowhere".into(),
                "at /profiles/0/allowed/0: \"keyword-allowed: x @ nowhere\" is not a feature",
            ),
            (
                "elsewhere feature",
                |v| {
                    v["profiles"][0]["judged_elsewhere"] =
                        serde_json::json!({"keyword-allowed: x": {"openai/chat": "root"}})
                },
                "at /profiles/0/judged_elsewhere/keyword-allowed: x: \"keyword-allowed: x\" is not a feature",
            ),
            (
                "elsewhere target",
                |v| {
                    v["profiles"][0]["judged_elsewhere"] = serde_json::json!(
                        {"keyword-allowed: x @ items": {"nobody/chat": "root"}}
                    )
                },
                "at /profiles/0/judged_elsewhere/keyword-allowed: x @ items/nobody~1chat: \"nobody/chat\" is not a target",
            ),
            (
                "duplicate",
                |v| {
                    let first = v["profiles"][0].clone();
                    v["profiles"].as_array_mut().unwrap().push(first);
                },
                "a second profile named \"portable\"",
            ),
        ];
        for (what, edit, expected) in cases {
            let mut v = committed.clone();
            edit(&mut v);
            let err = ProfileSet::from_json(Path::new("p.json"), &v.to_string())
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("p.json: "), "{what}: {err}");
            assert!(err.contains(expected), "{what}: {err}");
            // The place is said once, not again in serde's words.
            assert!(!err.contains(" at line "), "{what}: {err}");
        }
        let read = ProfileSet::from_json(Path::new("p.json"), text).unwrap();
        assert!(read.get(PORTABLE).is_some());
        // Without `portable` a file still reads: `compile --target T` needs only T's profile.
        let mut v = committed.clone();
        let profiles = v["profiles"].as_array_mut().unwrap();
        profiles.retain(|p| p["name"] != PORTABLE);
        let read = ProfileSet::from_json(Path::new("p.json"), &v.to_string()).unwrap();
        assert!(read.get(PORTABLE).is_none() && read.get("openai/chat").is_some());
        // A date still to come is read: the built-in profiles must work on a machine whose
        // clock is behind the evidence.
        let mut v = committed.clone();
        v["evidence"][0]["latest"]["date"] = "2999-01-01".into();
        ProfileSet::from_json(Path::new("p.json"), &v.to_string()).unwrap();
    }

    /// Evidence sources are printed with findings: a key-shaped one is refused at its line,
    /// and the error does not repeat it.
    #[test]
    fn key_shaped_text_in_a_profiles_file_is_refused() {
        let mut v: serde_json::Value =
            serde_json::from_str(include_str!("../../reports/profile.json")).unwrap();
        // Built at run time, so that no key-shaped literal is tracked.
        let shaped = format!("sk-{}", "z".repeat(30));
        v["evidence"][0]["latest"]["source"] = format!("https://example.com/?key={shaped}").into();
        let text = serde_json::to_string_pretty(&v).unwrap();
        let err = ProfileSet::from_json(Path::new("p.json"), &text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("key-shaped text"), "{err}");
        assert!(err.contains("line "), "{err}");
        assert!(!err.contains(&shaped[..12]), "{err}");
    }
}
