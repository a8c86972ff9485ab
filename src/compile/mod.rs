//! `toolwire compile --target T`: the canonical tool definitions → that target's wire form,
//! checked by the target's offline model before it is returned.
//!
//! Three steps:
//! 1. [`crate::repair`] against the target's own profile (so nothing the evidence says the
//!    target rejects is sent; what cannot be repaired is refused with the reason);
//! 2. the target's wire form ([`wire::Form`]): strict structured outputs close every object,
//!    require every property and make the optional ones nullable; DeepSeek strict also drops
//!    length bounds and unknown formats; Cohere strict requires one property per object;
//!    every target gets its envelope from the prober's own request builder (the route), so the
//!    tool block is exactly what `toolwire probe` would send;
//! 3. the request goes through the target's offline model ([`crate::target::model`]) with a
//!    stand-in valid key, so its validator stage runs; a rejection is returned with the
//!    model's own error, explained ([`crate::explain`]).
//!
//! The argument round trip: arguments valid under the canonical schema are valid under the
//! wire schema once absent optional ones are sent as null ([`wire::to_wire_arguments`]), and
//! a null the model sends for an optional argument maps back to absent (`toolwire args`).

pub mod wire;

use serde::Serialize;
use serde_json::Value;

use crate::evidence::Verdict;
use crate::explain::Explanation;
use crate::profile::CompiledProfile;
use crate::repair::{self, Outcome, Tool, ToolRepair};
use crate::target::{Credential, Secret, WireOptions};
use crate::tool::ToolDef;

/// What the target's offline model said about the compiled request.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum ModelCheck {
    /// The model accepts the request.
    Accepted { stage: String },
    /// The model rejects it: its status, its own message, and what explain makes of it.
    Rejected {
        status: u16,
        error: String,
        explanations: Vec<Explanation>,
    },
    /// The model's answer reads as neither (e.g. an auth answer); the note says what.
    Inconclusive { status: u16, note: String },
    /// No tool was left to send.
    NothingToSend,
}

/// The result of compiling one request's tools for one target.
#[derive(Debug, Clone, Serialize)]
pub struct Compilation {
    pub target: String,
    /// Per input tool: the repairs for the target's profile and the wire changes, or the
    /// refusal.
    pub tools: Vec<ToolRepair>,
    /// The target's tool block: the value the target's request carries its tools in
    /// (`tools` for most, Bedrock's `toolConfig`), with the tools that were not refused.
    pub wire: Value,
    /// The whole request body the offline model was given.
    pub request: Value,
    pub check: ModelCheck,
}

impl Compilation {
    /// True when every tool compiled and the model accepts the request.
    pub fn is_ok(&self) -> bool {
        self.tools.iter().all(|t| t.outcome != Outcome::Refused)
            && matches!(self.check, ModelCheck::Accepted { .. })
    }
}

/// Why compile cannot start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompileError {
    /// The target has no wire form (an in-process engine) or is unknown.
    NoRoute(String),
    /// A bare schema has no name; a wire form needs one.
    Unnamed(usize),
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileError::NoRoute(t) => write!(
                f,
                "{t} has no wire form to compile to (engines and unknown ids have no request)"
            ),
            CompileError::Unnamed(i) => write!(
                f,
                "tool #{i} is a bare schema without a name; a wire form needs a tool name"
            ),
        }
    }
}

/// The stand-in key the offline model is called with: the models treat any key other than
/// `invalid` as valid, so the validator stage runs. Never sent anywhere.
const MODEL_KEY: &str = "toolwire-compile-offline-check";

/// Compiles one request's `tools` for `target`, whose profile is `profile`.
pub fn compile(
    tools: &[Tool],
    target: &str,
    profile: &CompiledProfile,
    opts: &repair::Options,
) -> Result<Compilation, CompileError> {
    let route = crate::target::route(target).ok_or_else(|| CompileError::NoRoute(target.into()))?;
    if let Some(i) = tools.iter().position(|t| t.name.is_none()) {
        return Err(CompileError::Unnamed(i));
    }
    let form = wire::Form::of(target);
    let mut results = repair::repair_request(tools, profile, opts);
    for r in &mut results {
        if r.outcome == Outcome::Refused {
            continue;
        }
        if let Some(schema) = r.tool.parameters.as_mut() {
            match wire::apply(form, schema) {
                Ok(changes) => {
                    if !changes.is_empty() && r.outcome == Outcome::Unchanged {
                        r.outcome = Outcome::Repaired;
                    }
                    r.changes.extend(changes);
                }
                Err(reason) => {
                    r.outcome = Outcome::Refused;
                    r.changes.clear();
                    r.refusals.push(repair::Refusal {
                        pointer: String::new(),
                        rule: "compile".into(),
                        parameter: String::new(),
                        reason,
                    });
                }
            }
        }
    }
    let defs: Vec<ToolDef> = results
        .iter()
        .filter(|r| r.outcome != Outcome::Refused)
        .map(|r| ToolDef {
            name: r.tool.name.clone().unwrap_or_default(),
            description: r.tool.description.clone(),
            parameters: r.tool.parameters.clone(),
        })
        .collect();
    let cfg = route.configure(&std::collections::BTreeMap::<String, String>::new());
    let wire_opts = WireOptions {
        raw: true,
        ..WireOptions::default()
    };
    let credential = Credential::Key(Secret::new(MODEL_KEY));
    let (request, reply) = crate::target::model(target, &cfg, &defs, &wire_opts, Some(&credential))
        .ok_or_else(|| CompileError::NoRoute(target.into()))?;
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    let check = if defs.is_empty() {
        ModelCheck::NothingToSend
    } else {
        let c = route.classify(&cfg, &reply, false);
        match c.verdict {
            Verdict::Accepted | Verdict::AcceptedIgnored => ModelCheck::Accepted {
                stage: c.stage.as_str().to_string(),
            },
            Verdict::Rejected => {
                let error = c.error.clone().unwrap_or_else(|| reply.text_body());
                ModelCheck::Rejected {
                    status: reply.status,
                    explanations: crate::explain::explain(
                        Some(&body),
                        &reply.text_body(),
                        Some(target),
                    ),
                    error,
                }
            }
            _ => ModelCheck::Inconclusive {
                status: reply.status,
                note: c
                    .note
                    .or(c.error)
                    .unwrap_or_else(|| "the model's answer reads as neither verdict".into()),
            },
        }
    };
    Ok(Compilation {
        target: target.to_string(),
        wire: tool_block(&body),
        request: body,
        tools: results,
        check,
    })
}

/// Where a request body carries its tools.
fn tool_block(body: &Value) -> Value {
    for p in [
        "/tools",
        "/generateContentRequest/tools",
        "/request/tools",
        "/toolConfig",
        "/input/converse/toolConfig",
    ] {
        if let Some(v) = body.pointer(p) {
            return v.clone();
        }
    }
    Value::Null
}

#[cfg(test)]
mod tests;
