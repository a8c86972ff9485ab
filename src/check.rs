//! `toolwire check`: findings for a tool set against a profile or a target.
//!
//! Rule *logic* is in [`crate::profile::rules`]; which features are allowed comes from a
//! profile derived from the evidence ([`crate::profile`]). A finding is an `error` when a
//! target of the profile has rejecting evidence for the feature, a `warning` when no target
//! rejects it but some target has no evidence (DESIGN.md: no evidence counts as not
//! accepted).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::input::ToolSet;
use crate::profile::CompiledProfile;
use crate::profile::detect::{self, ToolRef};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// No target of the profile rejects it, but at least one has no evidence that it accepts it.
    Warning,
    /// A target of the profile has rejecting evidence.
    Error,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

/// One finding: a rule that fires at one place in one tool.
///
/// `pointer` is an RFC 6901 JSON Pointer into the tool's parameters schema (`""` is the
/// schema root); findings about the tool itself (name, description, count) use `""` and say
/// so in `message`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The rule id, kebab-case (e.g. `array-items-missing`).
    pub rule: String,
    /// The tool's name as given.
    pub tool: String,
    /// The tool's position in the input (0-based).
    pub tool_index: usize,
    /// JSON Pointer into the tool's parameters schema.
    pub pointer: String,
    /// What is wrong, in one sentence.
    pub message: String,
    /// How to fix it.
    pub fix: String,
    /// Whether `toolwire repair` can fix it without changing which arguments are accepted.
    pub repairable: bool,
    /// `error` (a target rejects it) or `warning` (no evidence either way for some target).
    #[serde(default = "default_level")]
    pub level: Level,
    /// The profile feature (case parameter) behind the finding, e.g. `keyword-allowed: const`.
    #[serde(default)]
    pub parameter: String,
}

fn default_level() -> Level {
    Level::Error
}

/// Checks every request of a tool set. Findings are in input order (tool, then place).
pub fn check_set(set: &ToolSet, profile: &CompiledProfile) -> Vec<Finding> {
    let mut out = Vec::new();
    for request in set.requests() {
        let refs: Vec<ToolRef<'_>> = request.iter().map(|e| e.as_ref()).collect();
        detect::check_request(&refs, profile, &mut out);
    }
    out
}

/// Checks tools given directly (one request).
pub fn check_tools(tools: &[ToolRef<'_>], profile: &CompiledProfile) -> Vec<Finding> {
    let mut out = Vec::new();
    detect::check_request(tools, profile, &mut out);
    out
}

/// Counts per rule, sorted by rule id.
pub fn counts(findings: &[Finding]) -> BTreeMap<&str, usize> {
    let mut m = BTreeMap::new();
    for f in findings {
        *m.entry(f.rule.as_str()).or_default() += 1;
    }
    m
}
