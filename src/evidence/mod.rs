//! Observations, evidence and the matrix.
//!
//! Vocabulary: an [`Observation`] is what one probe saw; *evidence*
//! ([`EvidenceKind`]) is an observation (`probe`), a provider's documented fact (`doc`), a
//! public report (`report`) or a third party's reading of a provider (`secondary`); the matrix
//! folds all evidence into one cell per (case, target).

pub mod documented;
pub mod matrix;
pub mod runlog;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// What a target did with a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The target accepted the tool block.
    Accepted,
    /// The target rejected the tool block because of the schema.
    Rejected,
    /// Accepted, but an instance check showed the feature is not enforced.
    AcceptedIgnored,
    /// The control failed in this run, so this result says nothing about the case.
    Confounded,
    /// Transport error, quota, 5xx, timeout, or an answer we cannot read as either verdict.
    Inconclusive,
    /// The target could not be reached at all.
    Unreachable,
    /// Not probed (no key, filtered out, budget spent).
    Skipped,
}

impl Verdict {
    /// The kebab-case name used in files and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::Rejected => "rejected",
            Verdict::AcceptedIgnored => "accepted-ignored",
            Verdict::Confounded => "confounded",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Unreachable => "unreachable",
            Verdict::Skipped => "skipped",
        }
    }

    /// True for the verdicts that say something about the case: accepted, accepted-ignored,
    /// rejected. Only these ever enter the matrix as a current verdict.
    pub fn is_decisive(self) -> bool {
        matches!(
            self,
            Verdict::Accepted | Verdict::AcceptedIgnored | Verdict::Rejected
        )
    }

    /// True when the target took the schema (whether or not it enforces it).
    pub fn is_accepting(self) -> bool {
        matches!(self, Verdict::Accepted | Verdict::AcceptedIgnored)
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which stage of the target's pipeline produced the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// Connection, TLS, timeout, a body we could not read.
    Transport,
    /// Credentials were checked (and failed, or this is as far as a pre-auth probe gets).
    Auth,
    /// Rate limit or quota.
    Quota,
    /// The request body was parsed (Gemini's JSON-to-proto transcoding; an engine's schema
    /// compile).
    Parse,
    /// The request was validated semantically (the schema itself was checked).
    Validate,
}

impl Stage {
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Transport => "transport",
            Stage::Auth => "auth",
            Stage::Quota => "quota",
            Stage::Parse => "parse",
            Stage::Validate => "validate",
        }
    }
}

/// Whether an answer took the body only as far as its parser: an accepting verdict at the
/// parse stage that came with an HTTP status other than 2xx. Gemini's front end parses a body
/// into protobuf before it checks credentials, so without a key a body that parses answers
/// 403 `PERMISSION_DENIED` (README, "Without keys"; PROVIDERS.md section 2: such a 403 "is
/// **not** full acceptance: semantic checks are still unknown"). Such an answer proves that
/// the body parses, not that the target accepts it: the matrix never counts it as acceptance
/// (see [`matrix::EvidenceItem::parsed_only`]). An engine's parse (no HTTP status) and a
/// served request (2xx) are whole answers.
pub fn parsed_only(verdict: Verdict, stage: Stage, status: Option<u16>) -> bool {
    verdict.is_accepting()
        && stage == Stage::Parse
        && status.is_some_and(|s| !(200..300).contains(&s))
}

/// The kind of a piece of evidence. Only `Probe` is ever called observed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EvidenceKind {
    /// Observed by this tool: run id, date, endpoint, model and the verbatim answer.
    Probe,
    /// A provider's own documentation or source: URL, date read, the page's own words.
    Doc,
    /// A public bug report: URL, date, verbatim error.
    Report,
    /// A third party's published reading of a provider's documentation or behaviour (a client
    /// library, an SDK wrapper): its URL, the date read and its own words. What it stands for
    /// is that party's claim, not the provider's words, so it is labelled apart from `doc`
    /// wherever evidence is shown; like `report`, it may decide a verdict.
    Secondary,
}

impl EvidenceKind {
    /// The name used in files and in every label a reader sees (`secondary 2026-12-02`).
    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceKind::Probe => "probe",
            EvidenceKind::Doc => "doc",
            EvidenceKind::Report => "report",
            EvidenceKind::Secondary => "secondary",
        }
    }
}

/// What one probe of one case against one target saw. One line of a run log.
///
/// Invariant: no field ever holds a credential; `runlog::redact` is applied to every
/// string before it is written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    /// Always `"observation"` in a run log line.
    #[serde(rename = "type")]
    pub record: String,
    pub run: String,
    pub case: String,
    pub target: String,
    /// The endpoint the request went to (`in-process:<engine>@<version>` for engines).
    pub endpoint: String,
    /// The model, where acceptance depends on one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// UTC time the answer arrived.
    pub time: DateTime<Utc>,
    /// `sha256:<hex>` of the exact request body sent.
    pub request_digest: String,
    /// `sha256:<hex>` of the case as probed ([`crate::case::Case::digest`]: its tools and
    /// strict flag), the same for every target. `rules` folds the observation in only while
    /// the case still gives this digest: an edited case's older verdicts are about another
    /// request. Absent from logs written before 2026-12-07, for which `rules` compares an
    /// engine's `request_digest` with the input the case gives it now
    /// ([`crate::engine::Engine::input`]); nothing can be compared for an HTTP target's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case_digest: Option<String>,
    /// HTTP status, for HTTP targets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    pub verdict: Verdict,
    pub stage: Stage,
    /// The verbatim error text (redacted of credentials), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The path the error names, as the target wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Milliseconds from send to answer.
    pub latency_ms: f64,
    /// Free-form notes (e.g. "instance check: uniqueItems not enforced").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Observation {
    /// See [`parsed_only`].
    pub fn parsed_only(&self) -> bool {
        parsed_only(self.verdict, self.stage, self.status)
    }
}

/// The digest of a request body, as recorded in observations: `sha256:<hex>`.
pub fn digest(body: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let hash = Sha256::digest(body);
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(7 + 64);
    s.push_str("sha256:");
    for b in hash {
        s.push(HEX[usize::from(b >> 4)] as char);
        s.push(HEX[usize::from(b & 0xf)] as char);
    }
    s
}
