//! toolwire: a conformance suite and prober for the JSON Schemas that LLM tool calling sends
//! to model providers.
//!
//! Pipeline (see DESIGN.md): [`case`] files → [`probe`] against every [`target`] (in-process
//! [`engine`]s and live providers) → run logs and the [`evidence`] matrix → [`profile`]s and
//! rules → [`check`], [`repair`], [`compile`], [`args`], [`explain`].

pub mod args;
pub mod case;
pub mod check;
pub mod cli;
pub mod compile;
pub mod describe;
pub mod emulate;
pub mod engine;
pub mod error;
pub mod evidence;
pub mod explain;
pub mod input;
pub mod json;
pub mod names;
pub mod probe;
pub mod profile;
pub mod project;
pub mod repair;
pub mod report;
pub mod schema;
pub mod target;
pub mod tool;

pub use error::{Error, Result};
