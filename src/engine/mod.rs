//! In-process engines probed as targets on every run: real consumers of tool schemas, run
//! for real (no network, no model).

use crate::case::Instance;
use crate::evidence::{Stage, Verdict};
use crate::tool::ToolDef;

/// What an engine said about one request's tools.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineAnswer {
    /// `Accepted`, `Rejected` or `AcceptedIgnored`.
    pub verdict: Verdict,
    /// `Parse` for a schema the engine could not take; `Validate` for meta-schema checks.
    pub stage: Stage,
    /// The engine's own error text, verbatim (normalised only where the engine puts volatile
    /// text such as timestamps in it).
    pub error: Option<String>,
    /// The place the error names (tool index and schema path as the engine wrote it).
    pub path: Option<String>,
    /// What an instance check found, e.g. `not enforced: instance 0 ({"value":"x"}) accepted`.
    pub note: Option<String>,
    /// The exact input given to the engine (for the observation's request digest).
    pub input: Vec<u8>,
}

/// An in-process engine.
pub trait Engine: Send + Sync {
    /// The target id, e.g. `engine/llguidance`.
    fn id(&self) -> &'static str;
    /// `in-process:<crate>@<version>`.
    fn endpoint(&self) -> String;
    /// Checks every tool's parameters (a request is rejected when any tool is); `instances`
    /// are argument objects for the first tool with their expected validity, used to detect
    /// `accepted-ignored`.
    fn check(&self, tools: &[ToolDef], instances: &[Instance]) -> EngineAnswer;
}

/// Every engine, in registry order.
pub fn engines() -> Vec<Box<dyn Engine>> {
    Vec::new()
}
