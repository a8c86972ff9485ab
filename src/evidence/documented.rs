//! Documented evidence: provider documentation (`doc`), public reports (`report`) and third
//! parties' readings of a provider (`secondary`), kept in `reports/documented/*.yaml` in the
//! format `reports/documented/README.md` describes, and mapped to the matrix cells they
//! speak to.
//!
//! An entry says which (feature, target) cells it speaks to in one of two ways:
//! - `cells`: explicit verdicts for a case parameter (optionally one placement) at targets;
//! - `rules`: a documented statement applied mechanically to every case of the catalog it
//!   covers: a name pattern, a complete keyword field list, a type enum, a numeric limit, a
//!   required root type, the keywords allowed beside a `$ref`, or "must be valid JSON Schema
//!   2020-12" (the meta-schema decides).
//!
//! A report showing a target accepting its whole `tool` also speaks, by derivation, to every
//! feature that tool shows at the placement it shows it ([`whole_tool`]).
//!
//! Entries that speak to no cell say why in `unmapped`. Dates are the source's: a report's
//! date, or for documentation the date it was read. A date may be partial (`2025`, `2025-07`)
//! when that is all the source gives; an undated entry has `date: ''` and a `date_note`, and
//! sorts before every dated piece of evidence, so any dated evidence overrides it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::matrix::{Documented, EvidenceItem, Shown};
use super::{EvidenceKind, Stage, Verdict};
use crate::case::{Case, Catalog, Placement};
use crate::error::{Error, Place, Result};
use crate::profile::detect::ToolRef;

/// One documented fact or public report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Unique across `reports/documented/`.
    pub id: String,
    pub kind: EvidenceKind,
    pub url: String,
    /// `YYYY-MM-DD`, `YYYY-MM`, `YYYY`, or `''` (undated).
    pub date: String,
    /// Required when the date is partial or empty: what the source says about its date.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub date_note: String,
    /// `date` is the day the source was read, not a day it gives for what it says (a page
    /// read today says nothing of when it began to say it): shown as `read <date>`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub date_read: bool,
    /// Page title (doc) or short title (report).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub provider: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub route: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub model: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub strict: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub status: String,
    /// The provider's error text verbatim (report), or the documentation's words (doc).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub quote: String,
    /// `false` on a `report` whose `quote` is not the provider's answer verbatim (the source
    /// has none: a reporter's paraphrase, an issue title, an acceptance in a PR author's
    /// words, an excerpt cut short): every item whose quote is the entry's is shown as
    /// `not verbatim`, so that it never reads as the provider's own error.
    #[serde(default = "yes", skip_serializing_if = "Clone::clone")]
    pub verbatim: bool,
    /// Required when `verbatim` is `false`: what the quote is instead of the provider's words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub verbatim_note: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// The minimal schema as the source gave it (verbatim text).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub schema: String,
    /// The tool that triggers it, as JSON (`name`, `description`?, `parameters`?), when the
    /// schema is one the target really received; used as a regression input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<Value>,
    /// How `tool` relates to `schema` when it is not a plain copy.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tool_note: String,
    /// The source's own outcome label (`rejected`, `accepted`, `changed`, `mangled`, ...).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub outcome: String,
    /// The source's own classification.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reported_kind: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<CellMap>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<RuleMap>,
    /// Why the entry speaks to no cell (required when `cells` and `rules` are both empty).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unmapped: String,
}

/// Explicit verdicts for one case parameter at some targets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellMap {
    pub targets: Vec<String>,
    /// Case parameters (each matched exactly, whitespace-normalized).
    pub features: Vec<String>,
    /// Only the cases at this placement (default: every placement).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
    pub verdict: Verdict,
    /// When this cell's evidence is dated differently from the entry (a "changed" report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The words that speak to these cells, when not the entry's `quote`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// The stage of the target's pipeline the verdict belongs to (`parse` or `validate`), for
    /// words that do not name it themselves: a documented field list says a list for `type`
    /// is refused, not that Gemini's parser refuses it, which its error template would say
    /// ([`google_stage`]). The stage decides whether a later parse-only acceptance overturns
    /// the verdict ([`super::parsed_only`]); `note` says why the stage is the one given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<Stage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The verdict is inferred from the words, not stated by them (`note` says how): shown
    /// as `inferred` wherever the evidence is cited.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inferred: bool,
    /// `false` when what this cell shows (its own `quote`, else the entry's) is not the
    /// provider's answer to these cells (`note` says what it is instead): shown as `not
    /// verbatim`, as an entry's `verbatim: false` is.
    #[serde(default = "yes", skip_serializing_if = "Clone::clone")]
    pub verbatim: bool,
}

/// Serde's default for the `verbatim` flags: a quote is the source's words unless it says
/// otherwise.
fn yes() -> bool {
    true
}

/// A documented statement evaluated against every case it covers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleMap {
    pub targets: Vec<String>,
    #[serde(flatten)]
    pub statement: Statement,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// The verdicts the statement gives are inferred from the words, not stated by them (the
    /// entry's `notes` say how): shown as `inferred` wherever the evidence is cited.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inferred: bool,
}

/// What a documented statement says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Statement {
    /// Every tool name must match this regex. Speaks to `name-chars` and `name-length-limit`
    /// cases: accepted when all the case's names match, rejected otherwise.
    NamePattern(String),
    /// The schema's complete field list: a key outside it is an error. Speaks to every case
    /// whose schemas use a key outside the list (rejected), and to `keyword-allowed: K` cases
    /// (no form) whose keys are all in it (accepted).
    Fields(Vec<String>),
    /// The type names accepted, each spelling exactly as a source gives it (an enum documented
    /// as `STRING` says nothing of `String`); `unknown` lists spellings the source does not
    /// settle; every other `type-spelling` case is rejected.
    Types {
        accepted: Vec<String>,
        #[serde(default)]
        unknown: Vec<String>,
    },
    /// A numeric limit: the family's cases up to `max` accepted, above it rejected.
    Limit { feature: String, max: usize },
    /// The root must be `{"type": "object", ...}`: root-shape cases whose root is not an
    /// object schema with that type are rejected.
    RootType(String),
    /// The schema must be valid against the JSON Schema 2020-12 meta-schema: cases whose
    /// schema is not are rejected (valid ones are not thereby accepted).
    MetaSchema(String),
    /// The only keywords allowed beside a `$ref` (Gemini's JSON-Schema field: "only
    /// description and default can be set alongside it"). Speaks to every `$ref (with …)`
    /// case: rejected when a key beside a `$ref` in its schemas is outside the list, accepted
    /// otherwise.
    RefSiblings(Vec<String>),
}

/// The documented evidence files.
#[derive(Debug, Clone)]
pub struct Documents {
    /// (file, entries) in file-name order.
    pub files: Vec<(PathBuf, Vec<Entry>)>,
}

/// Largest documented-evidence file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// The top level of an evidence file: a list of entries. A file of `null` (or `~`) holds
/// none, as an empty one does, and is refused with it; a mapping or a scalar is named as not
/// being the list (the reader's own "expected sequence start" says neither in a file's terms).
struct EntryList(Vec<Entry>);

impl<'de> Deserialize<'de> for EntryList {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Top;
        impl<'de> serde::de::Visitor<'de> for Top {
            type Value = EntryList;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of entries")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<EntryList, A::Error> {
                let mut entries = Vec::new();
                while let Some(e) = seq.next_element()? {
                    entries.push(e);
                }
                Ok(EntryList(entries))
            }
            fn visit_unit<E>(self) -> std::result::Result<EntryList, E> {
                Ok(EntryList(Vec::new()))
            }
            fn visit_none<E>(self) -> std::result::Result<EntryList, E> {
                Ok(EntryList(Vec::new()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                _: A,
            ) -> std::result::Result<EntryList, A::Error> {
                Err(serde::de::Error::custom(not_a_list("a mapping")))
            }
            fn visit_bool<E: serde::de::Error>(self, _: bool) -> std::result::Result<EntryList, E> {
                Err(E::custom(not_a_list("a scalar")))
            }
            fn visit_i64<E: serde::de::Error>(self, _: i64) -> std::result::Result<EntryList, E> {
                Err(E::custom(not_a_list("a scalar")))
            }
            fn visit_u64<E: serde::de::Error>(self, _: u64) -> std::result::Result<EntryList, E> {
                Err(E::custom(not_a_list("a scalar")))
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> std::result::Result<EntryList, E> {
                Err(E::custom(not_a_list("a scalar")))
            }
            fn visit_str<E: serde::de::Error>(self, _: &str) -> std::result::Result<EntryList, E> {
                Err(E::custom(not_a_list("a scalar")))
            }
        }
        d.deserialize_any(Top)
    }
}

/// The problem of an evidence file whose top level is `what`, not a list.
fn not_a_list(what: &str) -> String {
    format!(
        "is not a list of entries: the file holds {what}; an evidence file is a YAML list, each entry starting `- id:`"
    )
}

impl Documents {
    /// Reads every `*.yaml` under `dir` (none is fine: no documented evidence). Checks each
    /// entry: unique ids, a date in the allowed forms (with a note when partial or empty), a
    /// known target, and either a mapping or an `unmapped` reason.
    pub fn load(dir: &Path) -> Result<Documents> {
        let mut paths = Vec::new();
        if dir.exists() {
            let entries = std::fs::read_dir(dir)
                .map_err(|e| Error::input(dir, Place::File, e.to_string()))?;
            for e in entries {
                let e = e.map_err(|e| Error::input(dir, Place::File, e.to_string()))?;
                let p = e.path();
                if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                    paths.push(p);
                }
            }
        }
        paths.sort();
        let mut files = Vec::new();
        let mut ids: BTreeMap<String, (PathBuf, usize)> = BTreeMap::new();
        for path in paths {
            let limits = crate::json::Limits {
                max_bytes: MAX_FILE_BYTES,
                max_depth: 64,
            };
            crate::project::refuse_special_file(&path)?;
            let bytes = crate::json::read_capped(&path, limits)?;
            let text = crate::json::check_utf8(&path, &bytes)?;
            // Quotes are folded verbatim into the matrix and the profiles: a key pasted with
            // a report's error text would be published with them.
            super::runlog::refuse_key_shaped(&path, text)?;
            let EntryList(entries) = crate::case::from_yaml(
                &path,
                text,
                serde_saphyr::Options::default,
                std::convert::identity,
            )?;
            // An emptied file would silently drop every verdict it carried, and the files
            // regenerated from it would then pass `rules --check`.
            if entries.is_empty() {
                return Err(Error::input(
                    &path,
                    Place::File,
                    "holds no entries: an evidence file lists at least one (to drop a file's evidence, delete the file)",
                ));
            }
            for (i, entry) in entries.iter().enumerate() {
                let at =
                    |problem: String| Error::input(&path, Place::Pointer(format!("/{i}")), problem);
                if let Some((prev, j)) = ids.insert(entry.id.clone(), (path.clone(), i)) {
                    return Err(at(format!(
                        "id {:?} is also used in {} at /{j}",
                        entry.id,
                        prev.display()
                    )));
                }
                validate(entry).map_err(|(below, problem)| {
                    Error::input(&path, Place::Pointer(format!("/{i}{below}")), problem)
                })?;
            }
            files.push((path, entries));
        }
        Ok(Documents { files })
    }

    /// Every entry, in file then file order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.files.iter().flat_map(|(_, e)| e.iter())
    }
}

/// The first day `s` can mean (`2025` → 2025-01-01, `2025-07` → 2025-07-01), when it is a
/// calendar date in one of the allowed forms (`2025-02-30` is not).
pub(crate) fn first_day(s: &str) -> Option<chrono::NaiveDate> {
    // Matched by hand, not by regex: every profile file's evidence dates come through here
    // (twice 618 for the built-in profiles), and compiling a regex per call was nearly all of
    // `profile::embedded_set`'s first call in a debug build.
    let digits =
        |part: &str, len: usize| part.len() == len && part.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = s.split('-').collect();
    let full = match parts.as_slice() {
        [y, m, d] if digits(y, 4) && digits(m, 2) && digits(d, 2) => s.to_string(),
        [y, m] if digits(y, 4) && digits(m, 2) => format!("{s}-01"),
        [y] if digits(y, 4) => format!("{s}-01-01"),
        _ => return None,
    };
    chrono::NaiveDate::parse_from_str(&full, "%Y-%m-%d").ok()
}

/// Whether `s` has the shape of an allowed date form (`2025-02-30` has; `2025/02` has not).
fn written_as_date(s: &str) -> bool {
    let lens: Vec<usize> = s.split('-').map(str::len).collect();
    s.bytes().all(|b| b.is_ascii_digit() || b == b'-')
        && matches!(lens.as_slice(), [4] | [4, 2] | [4, 2, 2])
}

/// The first year a date of evidence may name. Chosen to catch a slip of the keyboard
/// (`0000`, `0202`, `1025`), not to judge what is plausible: no model provider's API existed
/// before it, let alone tool calling (OpenAI's function calling, the first, came in 2023), yet
/// it leaves room for an old page a fact might still be dated by.
const FIRST_EVIDENCE_YEAR: i32 = 2000;

/// Why `date` (non-empty) cannot date evidence: not a date in an allowed form, a day before
/// [`FIRST_EVIDENCE_YEAR`] (year 0000 is a calendar day to chrono, but no observation's), or
/// a day not yet come (which would make the entry the newest evidence of its cells until then;
/// a day of time-zone skew is tolerated).
fn date_problem(date: &str) -> Option<String> {
    use chrono::Datelike;
    let problem = match first_day(date) {
        None if written_as_date(date) => "names no day of the calendar (no such month or day)",
        None => "is not a date written YYYY-MM-DD, YYYY-MM, YYYY or ''",
        Some(d) if d.year() < FIRST_EVIDENCE_YEAR => {
            return Some(format!(
                "is before {FIRST_EVIDENCE_YEAR}, earlier than any tool-calling API it could date"
            ));
        }
        Some(d) if d > chrono::Utc::now().date_naive() + chrono::Days::new(1) => "is in the future",
        Some(_) => return None,
    };
    Some(problem.into())
}

/// Why `url` (non-empty) cannot be cited as the page evidence came from, when it cannot: not
/// an absolute `http://` or `https://` URL, one with whitespace or a control character, or
/// one with no host before its path ([`crate::probe::http::http_url`]). The scheme is
/// written in lower case, as every cited page's is.
fn url_problem(url: &str) -> Option<String> {
    use crate::probe::http::{HttpUrlProblem, http_url};
    if !(url.starts_with("https://") || url.starts_with("http://")) {
        return Some("is not an http(s) address".into());
    }
    match http_url(url).err()? {
        HttpUrlProblem::NotHttp => Some("is not an http(s) address".into()),
        HttpUrlProblem::Whitespace => {
            Some("holds whitespace or a control character (a space in a URL is written %20)".into())
        }
        HttpUrlProblem::NoHost => Some("names no host (expected http(s)://host/...)".into()),
        HttpUrlProblem::Unreadable(err) => Some(format!("is not an http(s) address: {err}")),
    }
}

/// Checks one entry; the error is the JSON Pointer below the entry (`/kind`, `/cells/0/date`)
/// and the problem.
fn validate(e: &Entry) -> std::result::Result<(), (String, String)> {
    let bad = |at: String, problem: String| Err((at, format!("{}: {problem}", e.id)));
    if e.id.trim().is_empty() {
        return Err(("/id".into(), "empty id".into()));
    }
    // Only toolwire's own run logs are `probe` evidence: a file of documented facts that
    // called itself observed would publish a transcript nobody saw.
    if e.kind == EvidenceKind::Probe {
        return bad(
            "/kind".into(),
            format!(
                "kind {:?}: documented evidence is `doc`, `report` or `secondary`; `probe` evidence comes only from toolwire's own run logs",
                e.kind.as_str()
            ),
        );
    }
    // A third party's reading stands for a provider's statement it does not quote: the note
    // is where a reader learns which statement, and what the verdict infers from the words.
    if e.kind == EvidenceKind::Secondary && e.notes.trim().is_empty() {
        return bad(
            "/notes".into(),
            "a `secondary` entry needs `notes`: whose reading it is, which provider statement it stands for and what is inferred from its words".into(),
        );
    }
    let quotes =
        std::iter::once(("/quote".to_string(), e.quote.as_str()))
            .chain(
                e.cells.iter().enumerate().filter_map(|(j, c)| {
                    c.quote.as_deref().map(|q| (format!("/cells/{j}/quote"), q))
                }),
            )
            .chain(
                e.rules.iter().enumerate().filter_map(|(j, r)| {
                    r.quote.as_deref().map(|q| (format!("/rules/{j}/quote"), q))
                }),
            );
    for (at, quote) in quotes {
        if declares_summary(quote) {
            return bad(
                at,
                "the quote says it is a summary: a quote is the source's own words (a summary belongs in `notes`, and words not the provider's in a `secondary` entry)".into(),
            );
        }
    }
    if e.url.trim().is_empty() {
        return bad("/url".into(), "no url".into());
    }
    if let Some(problem) = url_problem(&e.url) {
        return bad("/url".into(), format!("url {:?} {problem}", e.url));
    }
    if !e.date.is_empty()
        && let Some(problem) = date_problem(&e.date)
    {
        return bad("/date".into(), format!("date {:?} {problem}", e.date));
    }
    if (e.date.len() != 10) && e.date_note.trim().is_empty() {
        return bad(
            "/date_note".into(),
            "a partial or empty date needs a date_note".into(),
        );
    }
    // Only a report's quote claims to be the provider's words: a doc's are the provider's by
    // kind and a secondary's are a third party's by kind, so the flag would say nothing.
    let unverbatim_cell = e.cells.iter().position(|c| !c.verbatim);
    if (!e.verbatim || unverbatim_cell.is_some()) && e.kind != EvidenceKind::Report {
        return bad(
            "/verbatim".into(),
            "`verbatim: false` is for a `report` whose quote is not the provider's words".into(),
        );
    }
    if !e.verbatim && e.verbatim_note.trim().is_empty() {
        return bad(
            "/verbatim_note".into(),
            "`verbatim: false` needs a `verbatim_note`: what the quote is instead of the provider's words".into(),
        );
    }
    if let Some(j) = unverbatim_cell
        && e.cells[j]
            .note
            .as_deref()
            .is_none_or(|n| n.trim().is_empty())
    {
        return bad(
            format!("/cells/{j}/verbatim"),
            "a cell with `verbatim: false` needs a `note` saying what its quote is instead".into(),
        );
    }
    // A report of a rejection that also says what was accepted (the fix that worked, the
    // same schema on another field) keeps the rejection as its quote: an accepted cell that
    // showed it would cite a refusal of another schema as the provider's answer to this one
    // (trial 75 D2).
    // (An inferred cell says its verdict is read out of those words, and is shown so.)
    let rejection = matches!(e.outcome.as_str(), "rejected" | "client-side-rejected")
        || e.cells.iter().any(|c| c.verdict == Verdict::Rejected);
    if e.kind == EvidenceKind::Report
        && rejection
        && e.verbatim
        && let Some(j) = e.cells.iter().position(|c| {
            c.verdict == Verdict::Accepted && c.quote.is_none() && c.verbatim && !c.inferred
        })
    {
        return bad(
            format!("/cells/{j}"),
            "an accepted cell of a report of a rejection would show the rejection as the \
             provider's answer to it: give the cell its own `quote` (the provider's words that \
             accept it), `inferred: true` when its verdict is read out of the rejection's words, \
             or `verbatim: false` with a `note` saying where the acceptance comes from"
                .into(),
        );
    }
    // An undated entry has no day to call the day it was read.
    if e.date_read && e.date.is_empty() {
        return bad(
            "/date_read".into(),
            "`date_read` says the date is the day the source was read, and there is no date".into(),
        );
    }
    if let Some(tool) = &e.tool
        && !tool.is_object()
    {
        return bad(
            "/tool".into(),
            "tool is not an object (`name`, `description`, `parameters`)".into(),
        );
    }
    let mapped = !e.cells.is_empty() || !e.rules.is_empty();
    if mapped != e.unmapped.is_empty() {
        return bad(
            String::new(),
            "give either cells/rules or an `unmapped` reason (not both, not neither)".into(),
        );
    }
    let known = |t: &String| crate::target::find(t).is_some();
    // An empty list in a cell or rule maps the entry to nothing, as `cells: []` would, but
    // silently: the entry counts as mapped and its evidence reaches no cell (trial 87 D4).
    let nothing = |what: &str| {
        format!("no {what}: its evidence would reach no cell of the matrix (name at least one)")
    };
    for (j, c) in e.cells.iter().enumerate() {
        if c.targets.is_empty() {
            return bad(format!("/cells/{j}/targets"), nothing("targets"));
        }
        if c.features.is_empty() {
            return bad(format!("/cells/{j}/features"), nothing("features"));
        }
        if let Some((k, t)) = c.targets.iter().enumerate().find(|(_, t)| !known(t)) {
            return bad(
                format!("/cells/{j}/targets/{k}"),
                format!("unknown target {t:?}"),
            );
        }
        if !matches!(
            c.verdict,
            Verdict::Accepted | Verdict::Rejected | Verdict::AcceptedIgnored
        ) {
            return bad(
                format!("/cells/{j}/verdict"),
                format!(
                    "verdict {:?} decides nothing: documented evidence says accepted, rejected or accepted-ignored",
                    c.verdict.as_str()
                ),
            );
        }
        if let Some(d) = &c.date
            && let Some(problem) = date_problem(d)
        {
            return bad(
                format!("/cells/{j}/date"),
                format!("cell date {d:?} {problem}"),
            );
        }
        if let Some(stage) = c.stage
            && !matches!(stage, Stage::Parse | Stage::Validate)
        {
            return bad(
                format!("/cells/{j}/stage"),
                format!(
                    "stage {:?}: a schema verdict belongs to the `parse` or `validate` stage",
                    stage.as_str()
                ),
            );
        }
        for (k, f) in c.features.iter().enumerate() {
            if crate::profile::feature::parse_parameter(f).is_none() {
                return bad(
                    format!("/cells/{j}/features/{k}"),
                    format!("feature {f:?} is outside the case vocabulary"),
                );
            }
        }
    }
    for (j, r) in e.rules.iter().enumerate() {
        if r.targets.is_empty() {
            return bad(format!("/rules/{j}/targets"), nothing("targets"));
        }
        if let Some((k, t)) = r.targets.iter().enumerate().find(|(_, t)| !known(t)) {
            return bad(
                format!("/rules/{j}/targets/{k}"),
                format!("unknown target {t:?}"),
            );
        }
        if let Statement::NamePattern(p) = &r.statement
            && let Err(err) = Regex::new(p)
        {
            return bad(
                format!("/rules/{j}/name-pattern"),
                format!("name-pattern: {err}"),
            );
        }
        if let Statement::Limit { feature, .. } = &r.statement
            && crate::profile::feature::Limit::from_family(feature).is_none()
        {
            return bad(
                format!("/rules/{j}"),
                format!("limit feature {feature:?} is not a limit family"),
            );
        }
    }
    Ok(())
}

/// Whether a quote says of itself that it is not the source's words: `(summary, not the
/// page's words: …)` opened the quotes that once stood in for a page the project had only
/// read about.
fn declares_summary(quote: &str) -> bool {
    let q = quote.to_lowercase();
    q.contains("summary, not the") || q.contains("not the page's words")
}

/// Documented evidence resolved against a catalog.
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    pub documented: Vec<Documented>,
    /// Every feature a report shows a target accepting as part of a whole tool, sorted.
    pub shown: Vec<Shown>,
    /// Features of entries' cells that matched no case of the catalog.
    pub unmatched: Vec<Unmatched>,
}

/// A feature of a documented cell that no case has (at its placement, when the cell names
/// one): a typo, or a feature that needs a case of its own. Its evidence reaches no cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Unmatched {
    /// The documented-evidence file.
    pub file: PathBuf,
    /// JSON Pointer of the feature in the file: `/entry/cells/cell/features/feature`.
    pub pointer: String,
    /// The entry's id.
    pub id: String,
    pub feature: String,
    pub placement: Option<Placement>,
}

impl Unmatched {
    /// The error naming the file, the place and the problem.
    pub fn error(&self) -> Error {
        let at = self
            .placement
            .map(|p| format!(" at placement {p}"))
            .unwrap_or_default();
        Error::input(
            &self.file,
            Place::Pointer(self.pointer.clone()),
            format!(
                "{}: feature {:?}{at} matches no case under cases/ (a typo, or a feature that \
                 needs a case of its own): its evidence would reach no cell of the matrix. \
                 Features are looked up among the cases' `parameter` and `placement`: if a \
                 case file was just edited, its `parameter` or `placement` may be what changed",
                self.id, self.feature
            ),
        )
    }
}

fn normalize(p: &str) -> String {
    p.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn item(
    e: &Entry,
    verdict: Verdict,
    date: Option<&String>,
    quote: Option<&String>,
    stage: Option<Stage>,
    note: String,
    verbatim: bool,
) -> EvidenceItem {
    // A cell dated apart from its entry carries the date its source gives that cell.
    let read = e.date_read && date.is_none();
    // A cell's own quote answers for itself; without one it shows the entry's.
    let not_verbatim = !verbatim || (quote.is_none() && !e.verbatim);
    let date = date.cloned().unwrap_or_else(|| e.date.clone());
    let quote = quote
        .cloned()
        .or_else(|| (!e.quote.is_empty()).then(|| e.quote.clone()));
    let stage = stage.or_else(|| quote.as_deref().and_then(google_stage));
    let endpoint = if !e.route.is_empty() {
        Some(e.route.clone())
    } else if !e.title.is_empty() {
        Some(e.title.clone())
    } else {
        None
    };
    EvidenceItem {
        kind: e.kind,
        verdict,
        first_seen: date.clone(),
        last_seen: date,
        count: 1,
        source: e.url.clone(),
        quote,
        path: (!e.path.is_empty()).then(|| e.path.clone()),
        stage,
        model: (!e.model.is_empty()).then(|| e.model.clone()),
        endpoint,
        note: Some(note),
        parsed_only: false,
        via: None,
        whole_tool: false,
        inferred: false,
        read,
        not_verbatim,
    }
}

/// The stage of Google's front end a quoted error comes from, when its template says so:
/// the JSON-to-proto transcoding answers `Invalid JSON payload received…` or `Invalid value at
/// '…'` (templates T1–T7 of PROVIDERS.md section 1), the validator answers
/// `* GenerateContentRequest…` (section 2). Other quotes give `None`: the stage is unknown.
pub fn google_stage(quote: &str) -> Option<Stage> {
    if quote.contains("Invalid JSON payload received") || quote.contains("Invalid value at '") {
        Some(Stage::Parse)
    } else if quote.contains("GenerateContentRequest") {
        Some(Stage::Validate)
    } else {
        None
    }
}

/// Maps every entry to the matrix cells it speaks to.
pub fn resolve(docs: &Documents, catalog: &Catalog) -> Resolved {
    let mut by_param: BTreeMap<String, Vec<&Case>> = BTreeMap::new();
    for c in &catalog.cases {
        by_param.entry(normalize(&c.parameter)).or_default().push(c);
    }
    let mut at_place: BTreeMap<(String, Placement), Vec<&Case>> = BTreeMap::new();
    for c in catalog.cases.iter().filter(|c| !c.is_control()) {
        at_place
            .entry((normalize(&c.parameter), c.placement))
            .or_default()
            .push(c);
    }
    let mut out = Resolved::default();
    let located = docs
        .files
        .iter()
        .flat_map(|(file, entries)| entries.iter().enumerate().map(move |(i, e)| (file, i, e)));
    for (file, i, e) in located {
        let mapped_before = out.documented.len();
        for (j, cell) in e.cells.iter().enumerate() {
            for (k, feature) in cell.features.iter().enumerate() {
                let cases: Vec<&&Case> = by_param
                    .get(&normalize(feature))
                    .map(|v| {
                        v.iter()
                            .filter(|c| cell.placement.is_none_or(|p| p == c.placement))
                            .collect()
                    })
                    .unwrap_or_default();
                if cases.is_empty() {
                    out.unmatched.push(Unmatched {
                        file: file.clone(),
                        pointer: format!("/{i}/cells/{j}/features/{k}"),
                        id: e.id.clone(),
                        feature: feature.clone(),
                        placement: cell.placement,
                    });
                }
                for case in cases {
                    for target in &cell.targets {
                        let note = match &cell.note {
                            Some(n) => format!("{}: {n}", e.id),
                            None => e.id.clone(),
                        };
                        let mut item = item(
                            e,
                            cell.verdict,
                            cell.date.as_ref(),
                            cell.quote.as_ref(),
                            cell.stage,
                            note,
                            cell.verbatim,
                        );
                        item.inferred = cell.inferred;
                        out.documented.push(Documented {
                            case: case.id.clone(),
                            target: target.clone(),
                            item,
                        });
                    }
                }
            }
        }
        // A statement and a hand mapping of one entry are one source speaking once: the cell
        // the entry maps by hand says what it says of that case (an inference the statement's
        // words do not carry, or the same verdict), so the statement adds no second item.
        let by_hand: BTreeSet<(String, String)> = out.documented[mapped_before..]
            .iter()
            .map(|d| (d.case.clone(), d.target.clone()))
            .collect();
        for rule in &e.rules {
            for case in &catalog.cases {
                if case.is_control() {
                    continue;
                }
                let Some((verdict, why)) = judge(&rule.statement, case) else {
                    continue;
                };
                for target in &rule.targets {
                    if by_hand.contains(&(case.id.clone(), target.clone())) {
                        continue;
                    }
                    let mut item = item(
                        e,
                        verdict,
                        rule.date.as_ref(),
                        rule.quote.as_ref(),
                        None,
                        format!("{}: {why}", e.id),
                        true,
                    );
                    item.inferred = rule.inferred;
                    out.documented.push(Documented {
                        case: case.id.clone(),
                        target: target.clone(),
                        item,
                    });
                }
            }
        }
        let mapped: BTreeSet<(String, String)> = out.documented[mapped_before..]
            .iter()
            .map(|d| (d.case.clone(), d.target.clone()))
            .collect();
        let (cells, shown) = whole_tool(e, &at_place);
        out.documented.extend(
            cells
                .into_iter()
                .filter(|d| !mapped.contains(&(d.case.clone(), d.target.clone()))),
        );
        out.shown.extend(shown);
    }
    out.shown.sort();
    out.shown.dedup();
    out
}

/// What of an entry's `tool` its target received, as its `tool_note` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Received {
    /// The tool as reported: name, description and parameters are what the target received.
    Whole,
    /// Only the parameters: toolwire wrapped the reported schema in a name and description of
    /// its own, which no target saw.
    Parameters,
}

/// What of `e.tool` the target received, read from the forms `tool_note` is written in
/// (`reports/documented/README.md`): none (a plain copy) or "… as reported" for the whole
/// tool, "… (name and description added by toolwire)" for its parameters. `None` for no tool,
/// a tool toolwire constructed or a middleware rewrote, and a note in any other words: what
/// the target received is then not plain, and an acceptance says nothing of this tool.
pub fn received(e: &Entry) -> Option<Received> {
    e.tool.as_ref()?;
    let note = e.tool_note.to_lowercase();
    let rewritten = [
        "constructed",
        "rewr",
        "convert",
        "changed",
        "modified",
        "stripped",
    ];
    if rewritten.iter().any(|w| note.contains(w)) {
        None
    } else if note.contains("added by toolwire") {
        Some(Received::Parameters)
    } else if note.is_empty() || note.contains("as reported") {
        Some(Received::Whole)
    } else {
        None
    }
}

/// The acceptance a report shows of its whole tool, spread to every feature the tool shows
/// (the walk's collect mode: each feature with its placement): an item for each case of the
/// catalog with that feature at that placement, and a [`Shown`] for each feature (limit
/// measurements aside), at each accepting target, labelled with the entry's kind, URL and
/// date (that of the target's first accepting cell, with its quote).
///
/// A target accepted the tool when the entry is a `report` (what the provider answered; a
/// doc's or a third party's example tool was never sent), the target received the tool
/// ([`received`]), a cell of the entry accepts at the target and nothing of it rejects there
/// (a rejected report's accepted cells are inferences about other schemas, its fix or the
/// rule its message states), and no statement (`rules`) of the entry is made for the target
/// (statements are read from the error the tool drew). Only a plain `accepted` cell counts: an
/// accepted-ignored one says part of the tool was dropped or not enforced (Ollama stripping
/// `items`, ollama-items-stripped), and what was dropped was never received. Nor does an entry
/// whose own `outcome` label is `rejected` or `mangled`: its acceptance at another target
/// ("Vertex AI did not fail", aichat-empty-properties-generic) does not show that target
/// received this very tool.
pub fn whole_tool(
    e: &Entry,
    at_place: &BTreeMap<(String, Placement), Vec<&Case>>,
) -> (Vec<Documented>, Vec<Shown>) {
    let (mut cells, mut shown) = (Vec::new(), Vec::new());
    let (Some(received), Some(tool)) = (received(e), e.tool.as_ref()) else {
        return (cells, shown);
    };
    if e.kind != EvidenceKind::Report {
        return (cells, shown);
    }
    let whole = |field: &str| {
        tool.get(field)
            .and_then(Value::as_str)
            .filter(|_| received == Received::Whole)
    };
    let tool_ref = ToolRef {
        name: whole("name"),
        description: whole("description"),
        parameters: tool.get("parameters"),
        index: 0,
        ..Default::default()
    };
    let seen = crate::profile::detect::collect(&[tool_ref]);
    let refers = tool.get("parameters").is_some_and(refers_into_defs);
    let mut cases: Vec<&Case> = Vec::new();
    for s in &seen {
        for case in at_place
            .get(&(normalize(&s.parameter), s.placement))
            .into_iter()
            .flatten()
        {
            if same_use_of_defs(case, refers) && !cases.iter().any(|c| c.id == case.id) {
                cases.push(case);
            }
        }
    }
    let note = match whole("name") {
        Some(n) => format!("accepted as part of the tool `{n}` in {}", e.id),
        None => format!(
            "accepted as part of the parameters of the tool in {} (its name and description were added by toolwire)",
            e.id
        ),
    };
    let rejects = |t: &String| {
        e.rules.iter().any(|r| r.targets.contains(t))
            || e.cells
                .iter()
                .any(|c| c.verdict == Verdict::Rejected && c.targets.contains(t))
    };
    let mut done: BTreeSet<&String> = BTreeSet::new();
    if matches!(e.outcome.as_str(), "rejected" | "mangled") {
        return (cells, shown);
    }
    for cell in e.cells.iter().filter(|c| c.verdict == Verdict::Accepted) {
        for target in &cell.targets {
            if rejects(target) || !done.insert(target) {
                continue;
            }
            let mut it = item(
                e,
                Verdict::Accepted,
                cell.date.as_ref(),
                cell.quote.as_ref(),
                cell.stage,
                note.clone(),
                cell.verbatim,
            );
            it.whole_tool = true;
            for s in seen.iter().filter(|s| !s.limit) {
                shown.push(Shown {
                    target: target.clone(),
                    parameter: normalize(&s.parameter),
                    placement: s.placement,
                    date: it.first_seen.clone(),
                    source: it.source.clone(),
                    note: note.clone(),
                });
            }
            for case in &cases {
                cells.push(Documented {
                    case: case.id.clone(),
                    target: target.clone(),
                    item: it.clone(),
                });
            }
        }
    }
    (cells, shown)
}

/// Whether a tool that does (`refers`) or does not refer into its definitions speaks to
/// `case`. The walk names a definitions container by its keyword alone, used or not, so a
/// case about the container (`keywords/defs-unused-nested`: a `$defs` nothing refers to;
/// `keywords/ref-definitions-nested`: `definitions` a `$ref` uses) takes only a tool that uses
/// its definitions as the case's own tool does. A target that resolves a `$ref` into `$defs`
/// has shown nothing of one that never meets a reference, nor the reverse.
fn same_use_of_defs(case: &Case, refers: bool) -> bool {
    let container = case
        .parameter
        .strip_prefix("keyword-allowed: ")
        .is_some_and(|k| k == "$defs" || k == "definitions");
    !container
        || case
            .tools
            .first()
            .and_then(|t| t.parameters.as_ref())
            .is_some_and(refers_into_defs)
            == refers
}

/// Whether a `$ref` in `schema` points into a definitions container (`#/$defs/…`,
/// `#/definitions/…`, at any depth). The values of data keywords (`const`, `enum`, `default`,
/// `examples`) are instances, not schemas: a `$ref` key in one refers to nothing.
fn refers_into_defs(schema: &Value) -> bool {
    let into_defs = |r: &str| {
        r.strip_prefix("#/")
            .is_some_and(|p| p.split('/').any(|t| t == "$defs" || t == "definitions"))
    };
    match schema {
        Value::Object(map) => map.iter().any(|(k, v)| match k.as_str() {
            "$ref" => v.as_str().is_some_and(into_defs),
            "const" | "enum" | "default" | "examples" => false,
            // Keyed by names, not keywords: a property called `const` is a schema.
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => v
                .as_object()
                .is_some_and(|m| m.values().any(refers_into_defs)),
            _ => refers_into_defs(v),
        }),
        Value::Array(items) => items.iter().any(refers_into_defs),
        _ => false,
    }
}

/// The reason a `meta-schema: 2020-12` statement gives for each case it rejects (the end of
/// the matrix item's note, `<entry id>: <reason>`): how the profile finds the targets whose
/// evidence carries the rule (`profile::derive`).
pub const META_SCHEMA_REASON: &str =
    "the schema is not valid against the JSON Schema 2020-12 meta-schema";

/// What a documented statement says about one case, with the reason, or `None` when it does
/// not speak to it.
pub fn judge(statement: &Statement, case: &Case) -> Option<(Verdict, String)> {
    use crate::profile::feature::{Kind, Param, parse_parameter};
    // A strict-form case's feature is strict mode's, which no statement about a schema's
    // fields, types or sizes speaks to: its companion keys would be blamed on it.
    if case.strict {
        return None;
    }
    let param = parse_parameter(&case.parameter)?;
    match statement {
        Statement::NamePattern(pattern) => {
            let names = matches!(&param, Param::Keyed(Kind::NameChars, _))
                || matches!(
                    &param,
                    Param::Limit(crate::profile::feature::Limit::NameLength, _)
                );
            if !names {
                return None;
            }
            let re = Regex::new(pattern).ok()?;
            let bad = case.tools.iter().find(|t| !re.is_match(&t.name));
            Some(match bad {
                Some(t) => (
                    Verdict::Rejected,
                    format!("name {:?} does not match {pattern}", t.name),
                ),
                None => (Verdict::Accepted, format!("every name matches {pattern}")),
            })
        }
        Statement::Fields(fields) => {
            let keys = schema_keys(case);
            if let Some(k) = keys.iter().find(|k| !fields.iter().any(|f| f == *k)) {
                return Some((
                    Verdict::Rejected,
                    format!("`{k}` is not in the documented field list"),
                ));
            }
            match &param {
                Param::Keyed(Kind::Keyword, k) if fields.contains(k) => Some((
                    Verdict::Accepted,
                    format!("`{k}` is in the documented field list"),
                )),
                _ => None,
            }
        }
        Statement::Types { accepted, unknown } => {
            let Param::Keyed(Kind::TypeSpelling, spelling) = &param else {
                return None;
            };
            let plain = spelling.as_str();
            if unknown.iter().any(|u| u == plain) {
                return None;
            }
            if accepted.iter().any(|a| a == plain) {
                Some((
                    Verdict::Accepted,
                    format!("`{plain}` names a documented type"),
                ))
            } else {
                Some((
                    Verdict::Rejected,
                    format!("`{plain}` is not a documented type"),
                ))
            }
        }
        Statement::Limit { feature, max } => {
            let Param::Limit(l, n) = param else {
                return None;
            };
            if l.family() != feature {
                return None;
            }
            Some(if n <= *max {
                (
                    Verdict::Accepted,
                    format!("{n} is within the documented limit of {max}"),
                )
            } else {
                (
                    Verdict::Rejected,
                    format!("{n} exceeds the documented limit of {max}"),
                )
            })
        }
        Statement::RootType(t) => {
            if !matches!(param, Param::Keyed(Kind::RootShape, _)) {
                return None;
            }
            let tool = case.tools.first()?;
            let ok = tool
                .parameters
                .as_ref()
                .and_then(|p| p.get("type"))
                .and_then(Value::as_str)
                == Some(t.as_str());
            // A root with the right type may still be refused for another reason; the
            // statement only speaks to roots without it. An absent schema is not a root.
            if ok || tool.parameters.is_none() {
                None
            } else {
                Some((Verdict::Rejected, format!("the root is not `type: {t}`")))
            }
        }
        Statement::MetaSchema(draft) => {
            if draft != "2020-12" {
                return None;
            }
            let invalid = case
                .tools
                .iter()
                .filter_map(|t| t.parameters.as_ref())
                .find(|p| !jsonschema::draft202012::meta::is_valid(p));
            invalid.map(|_| (Verdict::Rejected, META_SCHEMA_REASON.to_string()))
        }
        Statement::RefSiblings(allowed) => {
            let form = crate::profile::rules::keyword_form_of(&param, "$ref")?;
            if !form.starts_with("with ") {
                return None;
            }
            let listed = allowed
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let refused = case
                .tools
                .iter()
                .filter_map(|t| t.parameters.as_ref())
                .flat_map(|p| crate::schema::walk(p).nodes)
                .filter_map(|n| n.value.as_object().filter(|m| m.contains_key("$ref")))
                .flat_map(|m| m.keys())
                .find(|k| *k != "$ref" && !allowed.contains(k))
                .cloned();
            Some(match refused {
                Some(k) => (
                    Verdict::Rejected,
                    format!(
                        "`{k}` beside a `$ref` is not among the siblings allowed there ({listed})"
                    ),
                ),
                None => (
                    Verdict::Accepted,
                    format!(
                        "every key beside the `$ref` is among the siblings allowed there ({listed})"
                    ),
                ),
            })
        }
    }
}

/// Every key used as a schema keyword in the case's parameters schemas (property names
/// excluded), with `type` included.
fn schema_keys(case: &Case) -> Vec<String> {
    let mut keys = std::collections::BTreeSet::new();
    for t in &case.tools {
        let Some(p) = &t.parameters else { continue };
        for node in crate::schema::walk(p).nodes {
            if let Some(m) = node.value.as_object() {
                keys.extend(m.keys().cloned());
            }
        }
    }
    keys.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::ToolDef;
    use serde_json::json;

    #[test]
    fn google_quotes_name_their_stage() {
        assert_eq!(
            google_stage("Invalid JSON payload received. Unknown name \"const\" at 'tools[0]'"),
            Some(Stage::Parse)
        );
        assert_eq!(
            google_stage("Invalid value at 'tools[0].function_declarations[0].parameters.type'"),
            Some(Stage::Parse)
        );
        assert_eq!(
            google_stage(
                "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[x].items: missing field."
            ),
            Some(Stage::Validate)
        );
        assert_eq!(google_stage("Invalid schema for function 'f'"), None);
    }

    fn case(parameter: &str, name: &str, parameters: Value) -> Case {
        Case {
            id: "x/y".into(),
            title: "t".into(),
            family: "x".into(),
            parameter: parameter.into(),
            placement: Placement::Nested,
            strict: false,
            tools: vec![ToolDef {
                name: name.into(),
                description: None,
                parameters: Some(parameters),
            }],
            instances: Vec::new(),
            notes: String::new(),
            links: Vec::new(),
            path: PathBuf::new(),
        }
    }

    #[test]
    fn statements_judge_the_cases_they_cover() {
        let base = json!({"type":"object","properties":{"v":{"type":"string"}}});
        let pattern = Statement::NamePattern("^[a-z_]{1,8}$".into());
        assert_eq!(
            judge(&pattern, &case("name-chars: dot", "a.b", base.clone())).map(|v| v.0),
            Some(Verdict::Rejected)
        );
        assert_eq!(
            judge(
                &pattern,
                &case("name-length-limit: 5", "abcde", base.clone())
            )
            .map(|v| v.0),
            Some(Verdict::Accepted)
        );
        assert_eq!(
            judge(
                &pattern,
                &case("keyword-allowed: const", "abc", base.clone())
            ),
            None
        );

        let fields = Statement::Fields(vec!["type".into(), "properties".into(), "minimum".into()]);
        let with = |k: &str| json!({"type":"object","properties":{"v":{"type":"integer", k: 1}}});
        assert_eq!(
            judge(
                &fields,
                &case("keyword-allowed: minimum", "a", with("minimum"))
            )
            .map(|v| v.0),
            Some(Verdict::Accepted)
        );
        assert_eq!(
            judge(&fields, &case("keyword-allowed: const", "a", with("const"))).map(|v| v.0),
            Some(Verdict::Rejected)
        );
        // A property named like an unlisted keyword is a name, not a key.
        let named = json!({"type":"object","properties":{"const":{"type":"string"}}});
        assert_eq!(
            judge(&fields, &case("structure: property-named-type", "a", named)),
            None
        );

        let limit = Statement::Limit {
            feature: "depth-limit".into(),
            max: 10,
        };
        assert_eq!(
            judge(&limit, &case("depth-limit: 10", "a", base.clone())).map(|v| v.0),
            Some(Verdict::Accepted)
        );
        assert_eq!(
            judge(&limit, &case("depth-limit: 11", "a", base.clone())).map(|v| v.0),
            Some(Verdict::Rejected)
        );
        assert_eq!(
            judge(&limit, &case("enum-size-limit: 11", "a", base.clone())),
            None
        );

        let types = Statement::Types {
            accepted: vec!["STRING".into(), "string".into()],
            unknown: vec!["String".into()],
        };
        let typed = |t: &str| json!({"type":"object","properties":{"v":{"type":t}}});
        assert_eq!(
            judge(&types, &case("type-spelling: STRING", "a", typed("STRING"))).map(|v| v.0),
            Some(Verdict::Accepted)
        );
        // A spelling no source gives is not accepted by likeness to one that is.
        assert_eq!(
            judge(&types, &case("type-spelling: String", "a", typed("String"))),
            None
        );
        assert_eq!(
            judge(&types, &case("type-spelling: sTrInG", "a", typed("sTrInG"))).map(|v| v.0),
            Some(Verdict::Rejected)
        );

        let meta = Statement::MetaSchema("2020-12".into());
        let tuple = json!({"type":"object","properties":{"p":{"type":"array","items":[{"type":"string"}]}}});
        assert_eq!(
            judge(&meta, &case("keyword-allowed: items (list)", "a", tuple)).map(|v| v.0),
            Some(Verdict::Rejected)
        );
        assert_eq!(
            judge(&meta, &case("keyword-allowed: const", "a", base.clone())),
            None
        );

        let siblings = Statement::RefSiblings(vec!["description".into(), "default".into()]);
        let beside = |k: &str| {
            json!({"type":"object","properties":{"v":{"$ref":"#/$defs/S", k: "x"}},
                   "$defs":{"S":{"type":"string"}}})
        };
        for (parameter, key, verdict) in [
            (
                "keyword-allowed: $ref (with other keywords)",
                "format",
                Some(Verdict::Rejected),
            ),
            (
                "keyword-allowed: $ref (with title)",
                "title",
                Some(Verdict::Rejected),
            ),
            (
                "keyword-allowed: $ref (with default)",
                "default",
                Some(Verdict::Accepted),
            ),
            (
                "keyword-allowed: $ref (with siblings)",
                "description",
                Some(Verdict::Accepted),
            ),
            // Not a form with siblings: the statement does not speak to it.
            ("keyword-allowed: $ref (local $defs)", "format", None),
        ] {
            assert_eq!(
                judge(&siblings, &case(parameter, "a", beside(key))).map(|v| v.0),
                verdict,
                "{parameter}"
            );
        }

        let root = Statement::RootType("object".into());
        assert_eq!(
            judge(
                &root,
                &case("root-shape: string", "a", json!({"type":"string"}))
            )
            .map(|v| v.0),
            Some(Verdict::Rejected)
        );
        assert_eq!(
            judge(
                &root,
                &case(
                    "root-shape: anyOf-with-type",
                    "a",
                    json!({"type":"object","anyOf":[]})
                )
            ),
            None
        );
    }

    /// An unclosed `[` where an entry's field starts was named in serde's words for the
    /// field's type ("externally tagged enum expected scalar or mapping", "expected string
    /// scalar", trial 79 D5); it is the syntax error now, at its place, as `{{{` always was.
    /// A closed list where a word goes is said in the file author's words.
    #[test]
    fn an_unclosed_bracket_is_named_not_the_type_it_starts() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("reports.yaml");
        for (text, said) in [
            ("- id: x\n  kind: [unclosed\n", "unclosed bracket '['"),
            ("- id: x\n  title: [unclosed\n", "unclosed bracket '['"),
            ("- id: x\n  kind: {{{\n", "unclosed bracket '{'"),
            (
                "- id: x\n  kind: [report, paper]\n",
                "line 2, column 9: at /0/kind: expected one of the names this field takes (a \
                 plain word), found a list or another value",
            ),
        ] {
            std::fs::write(&file, text).unwrap();
            let err = Documents::load(dir.path()).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("{}: line 2, column ", file.display())),
                "{text}: {err}"
            );
            assert!(err.contains(said), "{text}: {err}");
            assert!(!err.contains("externally tagged"), "{text}: {err}");
            assert!(!err.contains("scalar"), "{text}: {err}");
        }
    }

    #[test]
    fn entries_are_checked_when_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let base = "- id: r1\n  kind: report\n  url: https://example.com/1\n";
        write(&format!("{base}  date: '2025-07'\n  unmapped: x\n"));
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.ends_with("at /0/date_note: r1: a partial or empty date needs a date_note"),
            "{err}"
        );
        write(&format!("{base}  date: '2025-07-01'\n"));
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("give either cells/rules or an `unmapped` reason"),
            "{err}"
        );
        write(&format!(
            "{base}  date: '2025-07-01'\n  cells:\n  - targets: [nowhere/chat]\n    features: ['keyword-allowed: const']\n    verdict: rejected\n"
        ));
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("at /0/cells/0/targets/0: r1: unknown target \"nowhere/chat\""),
            "{err}"
        );
        write(&format!(
            "{base}  date: '2025-07-01'\n  cells:\n  - targets: [openai/chat]\n    features: ['keyword-allowd: const']\n    verdict: rejected\n"
        ));
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains(
                "at /0/cells/0/features/0: r1: feature \"keyword-allowd: const\" is outside"
            ),
            "{err}"
        );
        write(&format!(
            "{base}  date: '2025-07-01'\n  colour: red\n  unmapped: x\n"
        ));
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("a.yaml: line "), "{err}");
        write(&format!(
            "{base}  date: ''\n  date_note: not shown\n  unmapped: x\n"
        ));
        assert_eq!(Documents::load(dir.path()).unwrap().entries().count(), 1);
    }

    /// Documented evidence is `doc` or `report`, from an http(s) page, with a verdict that
    /// decides: an entry calling itself `probe` would pass off a transcript nobody observed
    /// as toolwire's own (it was folded in as probe evidence, linked as a run log).
    #[test]
    fn only_doc_and_report_evidence_with_a_web_source_and_a_verdict_load() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let cell =
            "  cells:\n  - targets: [openai/chat]\n    features: ['keyword-allowed: const']\n";
        let entry = |kind: &str, url: &str, verdict: &str| {
            format!(
                "- id: r1\n  kind: {kind}\n  url: '{url}'\n  date: '2025-07-01'\n{cell}    verdict: {verdict}\n"
            )
        };
        for (text, place, problem) in [
            (
                entry("probe", "https://example.com/1", "rejected"),
                "/0/kind",
                "kind \"probe\": documented evidence is `doc`, `report` or `secondary`",
            ),
            (
                entry("report", "javascript:alert(1)", "rejected"),
                "/0/url",
                "url \"javascript:alert(1)\" is not an http(s) address",
            ),
            (
                entry("doc", "https://example.com/1", "inconclusive"),
                "/0/cells/0/verdict",
                "verdict \"inconclusive\" decides nothing",
            ),
            (
                entry("doc", "https://example.com/1", "skipped"),
                "/0/cells/0/verdict",
                "verdict \"skipped\" decides nothing",
            ),
            (
                format!(
                    "{}  tool: 5\n",
                    entry("report", "https://example.com/1", "rejected")
                ),
                "/0/tool",
                "tool is not an object",
            ),
        ] {
            write(&text);
            let err = Documents::load(dir.path()).unwrap_err().to_string();
            assert!(err.contains(&format!("at {place}: r1: {problem}")), "{err}");
        }
        for kind in ["doc", "report"] {
            write(&entry(kind, "http://example.com/1", "accepted-ignored"));
            assert_eq!(Documents::load(dir.path()).unwrap().entries().count(), 1);
        }
    }

    /// A third party's reading is no provider's words: it loads only with `notes` saying
    /// what it stands for, and keeps its own kind through to the matrix item.
    #[test]
    fn a_secondary_entry_needs_notes_and_keeps_its_kind() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let base = "- id: r1\n  kind: secondary\n  url: https://example.com/lib\n  date: '2026-12-02'\n  quote: names are at most 64 characters\n  unmapped: x\n";
        write(base);
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("at /0/notes: r1: a `secondary` entry needs `notes`"),
            "{err}"
        );
        write(&format!("{base}  notes: 'a client library''s reading'\n"));
        let docs = Documents::load(dir.path()).unwrap();
        let e = docs.entries().next().unwrap();
        assert_eq!(e.kind, EvidenceKind::Secondary);
        let it = item(e, Verdict::Rejected, None, None, None, String::new(), true);
        assert_eq!(it.kind.as_str(), "secondary");
    }

    /// Trial 87 D4: a cell with `targets: []` or `features: []` (or a rule with `targets: []`)
    /// loaded silently, counted as mapped, and reached no cell, while `cells: []` is refused.
    #[test]
    fn a_cell_or_rule_with_an_empty_list_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let head = "- id: r1\n  kind: doc\n  url: https://example.com/1\n  date: '2025-07-01'\n";
        let cell = |targets: &str, features: &str| {
            format!(
                "{head}  cells:\n  - targets: [openai/chat]\n    features: ['keyword-allowed: const']\n    \
                 verdict: rejected\n  - targets: [{targets}]\n    features: [{features}]\n    \
                 verdict: rejected\n"
            )
        };
        let rule = |targets: &str| {
            format!("{head}  rules:\n  - targets: [{targets}]\n    name-pattern: ^a$\n")
        };
        let problem = |what: &str| {
            format!(
                "r1: no {what}: its evidence would reach no cell of the matrix (name at least one)"
            )
        };
        for (text, place, what) in [
            (
                cell("", "'keyword-allowed: const'"),
                "/0/cells/1/targets",
                "targets",
            ),
            (cell("xai/chat", ""), "/0/cells/1/features", "features"),
            (rule(""), "/0/rules/0/targets", "targets"),
        ] {
            write(&text);
            let err = Documents::load(dir.path()).unwrap_err().to_string();
            assert!(
                err.contains(&format!("a.yaml: at {place}: {}", problem(what))),
                "{err}"
            );
        }
        for text in [
            cell("xai/chat", "'keyword-allowed: enum'"),
            rule("openai/chat"),
        ] {
            write(&text);
            assert_eq!(
                Documents::load(dir.path()).unwrap().entries().count(),
                1,
                "{text}"
            );
        }
    }

    /// Trial 87 D2: a url that starts `https://` but names no host (`https://`,
    /// `https:///issues/1`, which the url crate alone reads as the host `issues`) or holds a
    /// space (which it alone would percent-encode) loaded, and MATRIX.md linked `https://`.
    #[test]
    fn a_url_without_a_host_or_with_whitespace_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let entry = |url: &str| {
            format!(
                "- id: r1\n  kind: doc\n  url: '{url}'\n  date: '2025-07-01'\n  cells:\n  \
                 - targets: [openai/chat]\n    features: ['keyword-allowed: const']\n    \
                 verdict: rejected\n"
            )
        };
        let no_host = "names no host";
        let space = "holds whitespace or a control character";
        for (url, problem) in [
            ("https://", no_host),
            ("http://", no_host),
            ("https:///issues/1", no_host),
            ("https://\\\\example.com/x", no_host),
            ("https://exa mple.com/x", space),
            ("https://github.com/a b/issues/1", space),
            ("https://example.com/x\t", space),
            (
                "https://exa%20mple.com/x",
                "is not an http(s) address: invalid international domain name",
            ),
            (
                "https://[::1/x",
                "is not an http(s) address: invalid IPv6 address",
            ),
            ("ftp://example.com/x", "is not an http(s) address"),
        ] {
            write(&entry(url));
            let err = Documents::load(dir.path()).unwrap_err().to_string();
            assert!(
                err.contains(&format!("a.yaml: at /0/url: r1: url {url:?} {problem}")),
                "{url}: {err}"
            );
        }
        for url in [
            "https://example.com",
            "http://example.com/a%20b?x=1#y",
            "https://github.com/o/r/issues/1",
        ] {
            write(&entry(url));
            assert_eq!(
                Documents::load(dir.path()).unwrap().entries().count(),
                1,
                "{url}"
            );
        }
    }

    /// A report of a rejection that says what was accepted keeps the rejection as its quote:
    /// an accepted cell without a quote of its own would cite that refusal as the provider's
    /// answer to it (trial 75 D2: six cells did, none marked), so it loads only with its own
    /// quote, `inferred: true`, or `verbatim: false` (shown `not verbatim`).
    #[test]
    fn an_accepted_cell_of_a_rejection_report_needs_words_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let head = |outcome: &str| {
            format!(
                "- id: r1\n  kind: report\n  url: https://example.com/1\n  date: '2026-11-30'\n  \
                 quote: 'Unknown name \"const\"'\n  outcome: {outcome}\n  cells:\n  \
                 - targets: [openai/chat]\n    features: ['keyword-allowed: const']\n    \
                 verdict: rejected\n  - targets: [openai/chat]\n    features: ['keyword-allowed: enum']\n    \
                 verdict: accepted\n"
            )
        };
        for outcome in ["rejected", "accepted"] {
            write(&head(outcome));
            let err = Documents::load(dir.path()).unwrap_err().to_string();
            assert!(
                err.contains("at /0/cells/1: r1: an accepted cell of a report of a rejection"),
                "{err}"
            );
        }
        for own in [
            "    quote: enum is fine\n",
            "    inferred: true\n    note: read out of the path\n",
            "    verbatim: false\n    note: the reporter says the fix works\n",
        ] {
            write(&format!("{}{own}", head("rejected")));
            let docs = Documents::load(dir.path()).unwrap();
            let e = docs.entries().next().unwrap();
            let c = &e.cells[1];
            let it = item(
                e,
                c.verdict,
                None,
                c.quote.as_ref(),
                None,
                String::new(),
                c.verbatim,
            );
            // Only the cell that keeps the rejection's words says they are not its answer.
            assert_eq!(it.not_verbatim, c.quote.is_none() && !c.inferred, "{own}");
        }
    }

    /// A quote is the source's own words: one that says it is a summary (as the quotes
    /// standing in for pages the project had only read about once did) is refused wherever
    /// it is, the entry's, a cell's or a rule's.
    #[test]
    fn a_quote_that_declares_itself_a_summary_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let head = "- id: r1\n  kind: doc\n  url: https://example.com/1\n  date: '2026-11-30'\n";
        let summary = "'(summary, not the page''s words: a reading) names are short'";
        let cell = "  - targets: [openai/chat]\n    features: ['keyword-allowed: const']\n    verdict: rejected\n";
        let rule = "  - targets: [openai/chat]\n    name-pattern: ^a$\n";
        for (text, place) in [
            (
                format!("{head}  quote: {summary}\n  unmapped: x\n"),
                "/0/quote",
            ),
            (
                format!("{head}  cells:\n{cell}    quote: {summary}\n"),
                "/0/cells/0/quote",
            ),
            (
                format!("{head}  rules:\n{rule}    quote: {summary}\n"),
                "/0/rules/0/quote",
            ),
        ] {
            write(&text);
            let err = Documents::load(dir.path()).unwrap_err().to_string();
            assert!(
                err.contains(&format!("at {place}: r1: the quote says it is a summary")),
                "{err}"
            );
        }
        write(&format!(
            "{head}  quote: names are short\n  cells:\n{cell}    quote: 'enum?: string[];'\n"
        ));
        assert!(Documents::load(dir.path()).is_ok());
    }

    /// Words that do not name their stage (a field list) can be given one, which the matrix
    /// item carries; without it only a Google template quote names a stage, and a stage a
    /// schema verdict cannot have is refused.
    #[test]
    fn a_cell_may_name_the_stage_its_words_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let head = "- id: r1\n  kind: doc\n  url: https://example.com/1\n  date: '2026-11-30'\n  cells:\n  - targets: [gemini/v1beta/parameters]\n    features: ['type-list: string']\n    verdict: rejected\n    quote: 'type?: Type;'\n";
        write(&format!("{head}    stage: quota\n"));
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("at /0/cells/0/stage: r1: stage \"quota\": a schema verdict belongs to"),
            "{err}"
        );
        write(&format!("{head}    stage: parse\n"));
        let docs = Documents::load(dir.path()).unwrap();
        let e = docs.entries().next().unwrap();
        let c = &e.cells[0];
        let staged = item(
            e,
            c.verdict,
            None,
            c.quote.as_ref(),
            c.stage,
            String::new(),
            true,
        );
        assert_eq!(staged.stage, Some(Stage::Parse));
        let unstaged = item(
            e,
            c.verdict,
            None,
            c.quote.as_ref(),
            None,
            String::new(),
            true,
        );
        assert_eq!(unstaged.stage, None);
    }

    /// serde's message names the type it expected, not the field: in a file of many entries
    /// with many lists, the error names the field's pointer too; a key given twice is named
    /// in our words.
    #[test]
    fn a_field_of_the_wrong_type_or_a_key_twice_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let base = "- id: r1\n  kind: report\n  url: https://example.com/1\n  date: '2025-07-01'\n";
        write(&format!(
            "{base}  cells:\n  - targets: openai/chat\n    features: ['keyword-allowed: const']\n    verdict: rejected\n"
        ));
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("a.yaml: line 6, column ")
                && err.contains(": at /0/cells/0/targets: expected sequence"),
            "{err}"
        );
        write(&format!("{base}  unmapped: x\n  unmapped: y\n"));
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("duplicate key \"unmapped\": a mapping may give each key once"),
            "{err}"
        );
        assert!(!err.contains("DuplicateKeyPolicy"), "{err}");
    }

    /// A key pasted with a report's error text would reach the matrix and the profiles
    /// verbatim: the file is refused at that line.
    #[test]
    fn key_shaped_text_is_refused_at_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.yaml");
        // Built at run time, so that no key-shaped literal is tracked.
        let shaped = format!("sk-{}", "z".repeat(30));
        let base = "- id: r1\n  kind: report\n  url: https://example.com/1\n  date: '2025-07-01'\n";
        std::fs::write(
            &path,
            format!("{base}  quote: 'Incorrect API key provided: {shaped}'\n  unmapped: x\n"),
        )
        .unwrap();
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("a.yaml: line 5, column 1: key-shaped text"),
            "{err}"
        );
        assert!(!err.contains(&shaped[..12]), "{err}");
        std::fs::write(
            &path,
            format!("{base}  quote: 'Incorrect API key provided: [REDACTED]'\n  unmapped: x\n"),
        )
        .unwrap();
        assert_eq!(Documents::load(dir.path()).unwrap().entries().count(), 1);
    }

    /// The three written forms give their first day; anything else around them (a sign,
    /// a time, a short part, spaces, non-ASCII digits, a day that is none) gives none.
    #[test]
    fn first_day_reads_the_three_forms_only() {
        let day = |y, m, d| chrono::NaiveDate::from_ymd_opt(y, m, d);
        assert_eq!(first_day("2025-07-14"), day(2025, 7, 14));
        assert_eq!(first_day("2025-07"), day(2025, 7, 1));
        assert_eq!(first_day("2025"), day(2025, 1, 1));
        for refused in [
            "",
            "25",
            "2025-7",
            "2025-07-1",
            "2025-07-14T00:00",
            " 2025",
            "2025-",
            "-2025",
            "2025-07-14-01",
            "+2025",
            "２０２５",
            "2025-02-30",
            "2025-13",
            "2025/07/14",
        ] {
            assert_eq!(first_day(refused), None, "{refused:?}");
        }
    }

    /// A date that is no calendar day, one before any tool-calling API, or one not yet come,
    /// cannot date evidence: the entry would sort wrongly, or decide its cells until that day.
    #[test]
    fn dates_are_real_days_not_in_the_future() {
        let dir = tempfile::tempdir().unwrap();
        let write = |text: &str| std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let base = "- id: r1\n  kind: report\n  url: https://example.com/1\n  date_note: n\n";
        let next_year = chrono::Utc::now()
            .format("%Y")
            .to_string()
            .parse::<i32>()
            .unwrap()
            + 1;
        for (date, problem) in [
            (
                "2025-02-30".to_string(),
                "names no day of the calendar (no such month or day)",
            ),
            (
                "2025-13".to_string(),
                "names no day of the calendar (no such month or day)",
            ),
            (
                "2025-00-10".to_string(),
                "names no day of the calendar (no such month or day)",
            ),
            (
                "0000-01-01".to_string(),
                "is before 2000, earlier than any tool-calling API it could date",
            ),
            (
                "1999-12-31".to_string(),
                "is before 2000, earlier than any tool-calling API it could date",
            ),
            (
                "0202".to_string(),
                "is before 2000, earlier than any tool-calling API it could date",
            ),
            ("2025/07/14".to_string(), "is not a date written YYYY-MM-DD"),
            ("July 2025".to_string(), "is not a date written YYYY-MM-DD"),
            (format!("{next_year}"), "is in the future"),
            (format!("{next_year}-01-01"), "is in the future"),
        ] {
            write(&format!("{base}  date: '{date}'\n  unmapped: x\n"));
            let err = Documents::load(dir.path()).unwrap_err().to_string();
            assert!(
                err.contains(&format!("at /0/date: r1: date {date:?} {problem}")),
                "{date}: {err}"
            );
            write(&format!(
                "{base}  date: '2025-07-01'\n  cells:\n  - targets: [openai/chat]\n    features: ['keyword-allowed: const']\n    verdict: rejected\n    date: '{date}'\n"
            ));
            let err = Documents::load(dir.path()).unwrap_err().to_string();
            assert!(
                err.contains(&format!(
                    "at /0/cells/0/date: r1: cell date {date:?} {problem}"
                )),
                "{date}: {err}"
            );
        }
        for date in ["2024-02-29", "2025-07", "2025", "2000-01-01"] {
            write(&format!("{base}  date: '{date}'\n  unmapped: x\n"));
            assert!(Documents::load(dir.path()).is_ok(), "{date}");
        }
    }

    /// An emptied evidence file drops every verdict it carried, and `rules --check` would
    /// then hold the regenerated files to the loss: loading refuses it instead.
    #[test]
    fn a_file_without_entries_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for text in ["", "[]\n", "# only a comment\n", "null\n", "~\n"] {
            std::fs::write(dir.path().join("reports.yaml"), text).unwrap();
            let err = Documents::load(dir.path()).unwrap_err().to_string();
            assert!(
                err.contains("reports.yaml") && err.contains("holds no entries"),
                "{text:?}: {err}"
            );
        }
    }

    /// A mapping or a scalar at the top level is named as not the list an evidence file is,
    /// with the file; the first entry of a list is still read in full.
    #[test]
    fn a_file_that_is_not_a_list_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for (text, what) in [
            ("{}\n", "a mapping"),
            ("id: r1\nkind: report\n", "a mapping"),
            ("\"x\"\n", "a scalar"),
            ("3\n", "a scalar"),
            ("true\n", "a scalar"),
        ] {
            std::fs::write(dir.path().join("reports.yaml"), text).unwrap();
            let err = Documents::load(dir.path()).unwrap_err().to_string();
            assert!(
                err.contains("reports.yaml")
                    && err.contains(&format!("is not a list of entries: the file holds {what}")),
                "{text:?}: {err}"
            );
        }
        std::fs::write(dir.path().join("reports.yaml"), "- id: r1\n  kind: nope\n").unwrap();
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("kind"), "{err}");
    }

    /// A repeated id names where it was first used, so the two entries can be compared.
    #[test]
    fn a_repeated_id_names_its_first_use() {
        let dir = tempfile::tempdir().unwrap();
        let entry = |id: &str| {
            format!(
                "- id: {id}\n  kind: report\n  url: https://example.com/1\n  date: '2025-07-01'\n  unmapped: x\n"
            )
        };
        std::fs::write(
            dir.path().join("a.yaml"),
            entry("r0") + &entry("r1") + &entry("r2"),
        )
        .unwrap();
        std::fs::write(dir.path().join("b.yaml"), entry("r3") + &entry("r1")).unwrap();
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains("b.yaml") && err.contains("/1") && err.contains("a.yaml at /1"),
            "{err}"
        );
    }
}

#[cfg(test)]
mod whole_tool_tests {
    use super::*;
    use serde_json::json;

    /// A case per feature of the reported tool below, and one it does not show.
    fn catalog() -> Catalog {
        let case = |id: &str, parameter: &str, placement| Case {
            id: id.into(),
            title: id.into(),
            family: id.split('/').next().unwrap_or_default().into(),
            parameter: parameter.into(),
            placement,
            strict: false,
            tools: vec![crate::case::baseline()],
            instances: Vec::new(),
            notes: String::new(),
            links: Vec::new(),
            path: PathBuf::new(),
        };
        Catalog {
            root: PathBuf::new(),
            cases: vec![
                case(
                    "types/string-nested",
                    "type-spelling: string",
                    Placement::Nested,
                ),
                case(
                    "types/string-root",
                    "type-spelling: string",
                    Placement::Root,
                ),
                case(
                    "keywords/const-nested",
                    "keyword-allowed: const",
                    Placement::Nested,
                ),
                case(
                    "keywords/enum-nested",
                    "keyword-allowed: enum (strings)",
                    Placement::Nested,
                ),
                case("names/uppercase", "name-chars: uppercase", Placement::Tool),
            ],
        }
    }

    /// A report of `verdict` at xai/chat for a tool named `Get_city` with a nested string
    /// `const`, its `tool_note` and its `kind`.
    fn entry(kind: &str, verdict: &str, tool_note: &str) -> Documents {
        entry_with_outcome(kind, verdict, tool_note, "")
    }

    /// [`entry`] with the report's own `outcome` label.
    fn entry_with_outcome(kind: &str, verdict: &str, tool_note: &str, outcome: &str) -> Documents {
        let dir = tempfile::tempdir().unwrap();
        let text = format!(
            "- id: r1\n  kind: {kind}\n  url: https://example.com/1\n  date: '2026-05-01'\n  \
             outcome: '{outcome}'\n  quote: ok\n  tool: {{\"name\": \"Get_city\", \"parameters\": {{\"type\": \"object\", \
             \"properties\": {{\"c\": {{\"type\": \"string\", \"const\": \"x\"}}}}}}}}\n  \
             tool_note: '{tool_note}'\n  notes: n\n  cells:\n  - targets: [xai/chat]\n    \
             features: ['keyword-allowed: const']\n    placement: nested\n    verdict: {verdict}\n"
        );
        // An accepted cell of a report of a rejection has words of its own.
        let own = if verdict == "accepted" && outcome == "rejected" {
            "    quote: the const works\n"
        } else {
            ""
        };
        let text = format!("{text}{own}");
        std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        Documents::load(dir.path()).unwrap()
    }

    /// (case, note) of every item the entry gives xai/chat.
    fn items(docs: &Documents) -> Vec<(String, String)> {
        resolve(docs, &catalog())
            .documented
            .into_iter()
            .map(|d| (d.case, d.item.note.unwrap_or_default()))
            .collect()
    }

    /// A cell or statement the entry says is inferred gives items marked so, and a read
    /// date marks every item dated by the entry, not a cell dated apart (that date is the
    /// source's own); nothing else is marked.
    #[test]
    fn inferred_mappings_and_read_dates_reach_their_items() {
        let dir = tempfile::tempdir().unwrap();
        let text = "- id: s1\n  kind: secondary\n  url: https://example.com/1\n  date: '2026-12-02'\n  \
             date_read: true\n  notes: n\n  cells:\n  - targets: [xai/chat]\n    \
             features: ['keyword-allowed: const']\n    verdict: rejected\n    inferred: true\n  \
             - targets: [xai/chat]\n    features: ['keyword-allowed: enum (strings)']\n    \
             verdict: accepted\n  - targets: [xai/chat]\n    features: ['name-chars: uppercase']\n    \
             verdict: accepted\n    date: '2025-01-02'\n  rules:\n  - targets: [openai/chat]\n    \
             name-pattern: '^[a-z]+$'\n    inferred: true\n";
        std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let docs = Documents::load(dir.path()).unwrap();
        let marks: Vec<(String, String, bool, bool)> = resolve(&docs, &catalog())
            .documented
            .into_iter()
            .map(|d| (d.case, d.target, d.item.inferred, d.item.read))
            .collect();
        let row = |case: &str, target: &str, inferred, read| {
            (case.to_string(), target.to_string(), inferred, read)
        };
        assert_eq!(
            marks,
            [
                row("keywords/const-nested", "xai/chat", true, true),
                row("keywords/enum-nested", "xai/chat", false, true),
                row("names/uppercase", "xai/chat", false, false),
                row("names/uppercase", "openai/chat", true, true),
            ]
        );
        // An undated entry has no day it was read.
        let undated = "- id: s1\n  kind: doc\n  url: https://example.com/1\n  date: ''\n  \
             date_note: not shown\n  date_read: true\n  unmapped: x\n";
        std::fs::write(dir.path().join("a.yaml"), undated).unwrap();
        let err = Documents::load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("at /0/date_read: s1: `date_read`"), "{err}");
    }

    /// An entry mapping a case by hand and stating a rule that covers it speaks once to that
    /// cell, through its hand mapping (bedrock-type-object-goose was counted twice in
    /// root/empty-schema × bedrock/converse); cases only the rule covers keep the rule's item.
    #[test]
    fn a_hand_mapping_and_a_rule_of_one_entry_give_one_item() {
        let dir = tempfile::tempdir().unwrap();
        let text = "- id: r1\n  kind: report\n  url: https://example.com/1\n  date: '2025-10-08'\n  \
             quote: q\n  cells:\n  - targets: [openai/chat]\n    features: ['name-chars: uppercase']\n    \
             verdict: rejected\n    inferred: true\n    note: why\n  rules:\n  - targets: [openai/chat]\n    \
             name-pattern: '^[a-z]+$'\n";
        std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let docs = Documents::load(dir.path()).unwrap();
        let items: Vec<(String, Verdict, bool)> = resolve(&docs, &catalog())
            .documented
            .into_iter()
            .filter(|d| d.target == "openai/chat" && d.case == "names/uppercase")
            .map(|d| {
                (
                    d.item.note.unwrap_or_default(),
                    d.item.verdict,
                    d.item.inferred,
                )
            })
            .collect();
        assert_eq!(items, [("r1: why".to_string(), Verdict::Rejected, true)]);
    }

    /// An entry's `verbatim: false` marks every item showing its quote (cells, statements and
    /// the acceptances its tool derives), but not a cell with a quote of its own; a cell's
    /// `verbatim: false` marks that cell alone; the flag needs its reason and a `report`.
    #[test]
    fn not_verbatim_quotes_reach_their_items() {
        let dir = tempfile::tempdir().unwrap();
        let text = "- id: r1\n  kind: report\n  url: https://example.com/1\n  date: '2025-04-09'\n  \
             quote: (no verbatim message) it failed\n  verbatim: false\n  verbatim_note: the reporter's words\n  \
             cells:\n  - targets: [xai/chat]\n    features: ['keyword-allowed: const']\n    verdict: rejected\n  \
             - targets: [xai/chat]\n    features: ['keyword-allowed: enum (strings)']\n    verdict: rejected\n    \
             quote: the provider's own words\n\
             - id: r2\n  kind: report\n  url: https://example.com/2\n  date: '2025-04-09'\n  \
             quote: control rejected\n  cells:\n  - targets: [xai/chat]\n    features: ['name-chars: uppercase']\n    \
             verdict: accepted\n    note: a maintainer's account\n    verbatim: false\n  \
             - targets: [xai/chat]\n    features: ['type-spelling: string']\n    placement: nested\n    verdict: rejected\n";
        std::fs::write(dir.path().join("a.yaml"), text).unwrap();
        let docs = Documents::load(dir.path()).unwrap();
        let marks: Vec<(String, bool)> = resolve(&docs, &catalog())
            .documented
            .into_iter()
            .map(|d| (d.case, d.item.not_verbatim))
            .collect();
        let row = |case: &str, marked| (case.to_string(), marked);
        assert_eq!(
            marks,
            [
                row("keywords/const-nested", true),
                row("keywords/enum-nested", false),
                row("names/uppercase", true),
                row("types/string-nested", false),
            ]
        );
        let refused = |text: &str| {
            std::fs::write(dir.path().join("a.yaml"), text).unwrap();
            Documents::load(dir.path()).unwrap_err().to_string()
        };
        let no_reason = "- id: r1\n  kind: report\n  url: https://example.com/1\n  date: '2025-04-09'\n  \
             verbatim: false\n  unmapped: x\n";
        assert!(
            refused(no_reason).contains("at /0/verbatim_note"),
            "{}",
            refused(no_reason)
        );
        let doc = "- id: d1\n  kind: doc\n  url: https://example.com/1\n  date: '2025-04-09'\n  \
             verbatim: false\n  verbatim_note: n\n  unmapped: x\n";
        assert!(refused(doc).contains("at /0/verbatim"), "{}", refused(doc));
    }

    #[test]
    fn an_accepted_tool_speaks_to_every_feature_it_shows_at_its_placement() {
        let resolved = resolve(
            &entry("report", "accepted", "the tool as reported"),
            &catalog(),
        );
        let cases: Vec<(&str, bool)> = resolved
            .documented
            .iter()
            .map(|d| (d.case.as_str(), d.item.whole_tool))
            .collect();
        // The hand-mapped cell stays the entry's one item for its case; the nested string and
        // the uppercase name are derived; the root string and the enum are not shown.
        assert_eq!(
            cases,
            [
                ("keywords/const-nested", false),
                ("names/uppercase", true),
                ("types/string-nested", true),
            ]
        );
        let derived = &resolved.documented[1].item;
        assert_eq!(
            derived.note.as_deref(),
            Some("accepted as part of the tool `Get_city` in r1")
        );
        assert_eq!(
            (derived.kind, derived.verdict, derived.first_seen.as_str()),
            (EvidenceKind::Report, Verdict::Accepted, "2026-05-01")
        );
        assert_eq!(derived.source, "https://example.com/1");
        // Features without a case are still shown, for the profiles to infer from.
        assert!(resolved.shown.iter().any(|s| s.target == "xai/chat"
            && s.parameter == "keyword-allowed: properties"
            && s.placement == Placement::Root));
    }

    /// An accepted-ignored cell says part of the tool was dropped or not enforced: what was
    /// dropped was never received, so the tool speaks only through its own cell.
    #[test]
    fn an_ignored_feature_leaves_the_tool_unspoken_for() {
        let docs = entry("report", "accepted-ignored", "");
        assert_eq!(
            items(&docs),
            [("keywords/const-nested".into(), "r1".into())]
        );
        assert!(resolve(&docs, &catalog()).shown.is_empty());
    }

    /// A report whose own outcome is a rejection or a mangling speaks of its tool only through
    /// its cells, even where a cell accepts at another target.
    #[test]
    fn a_rejected_or_mangled_outcome_leaves_the_tool_unspoken_for() {
        for outcome in ["rejected", "mangled"] {
            let docs = entry_with_outcome("report", "accepted", "the tool as reported", outcome);
            assert_eq!(items(&docs).len(), 1, "{outcome}");
            assert!(resolve(&docs, &catalog()).shown.is_empty(), "{outcome}");
        }
    }

    #[test]
    fn a_rejected_tool_speaks_to_nothing_but_its_cells() {
        let docs = entry("report", "rejected", "the tool as reported");
        assert_eq!(
            items(&docs),
            [("keywords/const-nested".into(), "r1".into())]
        );
        assert!(resolve(&docs, &catalog()).shown.is_empty());
    }

    #[test]
    fn only_a_reported_tool_the_target_received_speaks() {
        // A doc's example tool was never sent.
        assert_eq!(items(&entry("doc", "accepted", "")).len(), 1);
        assert_eq!(items(&entry("secondary", "accepted", "")).len(), 1);
        // Rewritten or constructed before it was sent: not what the target received.
        for note in [
            "the client input; the converter rewrote it before it was sent",
            "constructed: the report shows a placeholder",
            "the second schema of the report",
        ] {
            assert_eq!(items(&entry("report", "accepted", note)).len(), 1, "{note}");
        }
        // A wrapped schema speaks for its parameters only: toolwire named the tool.
        let wrapped = items(&entry(
            "report",
            "accepted",
            "the reported schema wrapped in a tool (name and description added by toolwire)",
        ));
        assert_eq!(
            wrapped,
            [
                ("keywords/const-nested".to_string(), "r1".to_string()),
                (
                    "types/string-nested".into(),
                    "accepted as part of the parameters of the tool in r1 (its name and description were added by toolwire)".into()
                ),
            ]
        );
    }

    /// A `$defs` a `$ref` uses speaks to the `$ref` case, not to the case of a `$defs` nothing
    /// refers to; an unused `$defs` speaks to that case. A `$ref`-shaped `const` refers to
    /// nothing, and a property named `const` is still searched.
    #[test]
    fn used_and_unused_defs_speak_to_their_own_cases() {
        let defs = json!({"id": {"type": "string"}});
        let case = |id: &str, parameter: &str, parameters: Value| Case {
            id: id.into(),
            title: id.into(),
            family: "keywords".into(),
            parameter: parameter.into(),
            placement: Placement::Nested,
            strict: false,
            tools: vec![crate::tool::ToolDef {
                parameters: Some(parameters),
                ..crate::case::baseline()
            }],
            instances: Vec::new(),
            notes: String::new(),
            links: Vec::new(),
            path: PathBuf::new(),
        };
        let catalog = Catalog {
            root: PathBuf::new(),
            cases: vec![
                case(
                    "keywords/defs-unused-nested",
                    "keyword-allowed: $defs",
                    json!({"type": "object", "properties": {"v": {"type": "string"}}, "$defs": defs}),
                ),
                case(
                    "keywords/ref-defs-nested",
                    "keyword-allowed: $ref (local $defs)",
                    json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/id"}}, "$defs": defs}),
                ),
            ],
        };
        let derived = |parameters: Value| {
            let dir = tempfile::tempdir().unwrap();
            let tool = json!({"name": "get", "parameters": parameters});
            std::fs::write(
                dir.path().join("a.yaml"),
                format!(
                    "- id: r1\n  kind: report\n  url: https://example.com/1\n  date: '2026-05-01'\n  \
                     quote: ok\n  tool: {tool}\n  notes: n\n  cells:\n  - targets: [xai/chat]\n    \
                     features: ['keyword-allowed: description']\n    verdict: accepted\n"
                ),
            )
            .unwrap();
            let docs = Documents::load(dir.path()).unwrap();
            let mut cases: Vec<String> = resolve(&docs, &catalog)
                .documented
                .into_iter()
                .filter(|d| d.item.whole_tool)
                .map(|d| d.case)
                .collect();
            cases.sort();
            cases
        };
        assert_eq!(
            derived(
                json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/id"}}, "$defs": defs})
            ),
            ["keywords/ref-defs-nested"]
        );
        assert_eq!(
            derived(
                json!({"type": "object", "properties": {"v": {"type": "string"}}, "$defs": defs})
            ),
            ["keywords/defs-unused-nested"]
        );
        assert_eq!(
            derived(
                json!({"type": "object", "properties": {"v": {"type": "string", "const": {"$ref": "#/$defs/id"}}}, "$defs": defs})
            ),
            ["keywords/defs-unused-nested"]
        );
        assert!(refers_into_defs(
            &json!({"properties": {"const": {"$ref": "#/definitions/id"}}})
        ));
        assert!(!refers_into_defs(
            &json!({"properties": {"v": {"$ref": "https://example.com/s#/$defs/id"}}})
        ));
    }

    #[test]
    fn a_schema_without_a_tool_speaks_to_nothing_but_its_cells() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.yaml"),
            "- id: r1\n  kind: report\n  url: https://example.com/1\n  date: '2026-05-01'\n  \
             schema: '{\"type\":\"object\",\"properties\":{\"c\":{\"type\":\"string\",\"const\":\"x\"}}}'\n  \
             cells:\n  - targets: [xai/chat]\n    features: ['keyword-allowed: const']\n    \
             placement: nested\n    verdict: accepted\n",
        )
        .unwrap();
        let docs = Documents::load(dir.path()).unwrap();
        assert_eq!(items(&docs).len(), 1);
        assert!(resolve(&docs, &catalog()).shown.is_empty());
    }
}
