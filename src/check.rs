//! `toolwire check`: findings for a tool set against a profile or a target. (Being built.)

use serde::{Deserialize, Serialize};

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
}
