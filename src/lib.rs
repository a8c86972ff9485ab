//! toolwire: a conformance suite and prober for the JSON Schemas that LLM tool calling sends
//! to model providers.
//!
//! Pipeline: [`case`] files → [`probe`] against every [`target`] (in-process
//! [`engine`]s and live providers) → run logs and the [`evidence`] matrix → [`profile`]s and
//! rules → [`check`], [`repair`], [`compile`], [`args`], [`explain`].
//!
//! # Using the library
//!
//! The profiles the crate was built with ([`profile::embedded_set`], parsed once) say what each
//! target accepts; [`profile::PORTABLE`] is what every core target accepts, and a target's own
//! profile has its id. Tools come from a [`serde_json::Value`] in any shape [`input`] reads
//! (or from a file: [`input::read_file`]). Checking, repairing, compiling and validating
//! arguments touch neither the network nor the disk (compile's check is the target's offline
//! model); reading files ([`input::read_file`]), the project's evidence ([`project`],
//! [`evidence`]), [`probe`] and [`emulate`] do. Every error type implements
//! [`std::error::Error`]. Values nesting deeper than 512 levels (arrays and objects counted,
//! as in a file) are refused at the entry points, so no step overflows a 2 MiB thread.
//! A value holding no tool at all reads as an empty set, whose check is clean: call
//! [`input::require_tools`] to refuse it, as every command does.
//!
//! Comments cite provider facts by their source: a URL, a report's id, a probe run, or
//! `PROVIDERS.md §N`, the project's research notes, whose facts are kept with their URLs and
//! dates in `reports/documented/providers.yaml`.
//!
//! ```
//! use serde_json::json;
//! use std::path::Path;
//! use toolwire::args::{Coercions, check_arguments};
//! use toolwire::profile::{CompiledProfile, PORTABLE};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let profiles = toolwire::profile::embedded_set()?;
//! let portable = CompiledProfile::new(profiles.get(PORTABLE).expect("built in"));
//!
//! // OpenAI Chat tools here; the path only names the source in error messages.
//! let set = toolwire::input::from_value(Path::new("tools"), json!({"tools": [{
//!     "type": "function",
//!     "function": {"name": "get_weather", "description": "Weather for a city.",
//!         "parameters": {"type": "object", "required": ["city"], "properties": {
//!             "city": {"type": "string", "format": "hostname"},
//!             "days": {"type": "integer"}}}}}]}))?;
//! toolwire::input::require_tools(&set)?;
//!
//! // Check against what every core target accepts.
//! for f in toolwire::check::check_set(&set, &portable) {
//!     println!("{} {} {}: {}", f.level.as_str(), f.rule.as_str(), f.pointer, f.message);
//! }
//!
//! // Repair, and re-check what repair made.
//! let tools: Vec<toolwire::repair::Tool> = set.tools.iter().map(Into::into).collect();
//! for r in toolwire::repair::repair_request(&tools, &portable, &Default::default()) {
//!     println!("{}", toolwire::repair::human(&r));
//!     let left = toolwire::check::check_tools(&[r.tool.as_ref(r.index)], &portable);
//!     assert!(left.iter().all(|f| f.level != toolwire::check::Level::Error));
//! }
//!
//! // Compile for one target, with that target's own profile; its offline model checks it.
//! let target = "gemini/v1beta/parameters";
//! let own = CompiledProfile::new(profiles.get(target).expect("a target's profile"));
//! let compiled = toolwire::compile::compile(&tools, target, &own, &Default::default())?;
//! assert!(compiled.is_ok());
//! println!("{}", compiled.wire);
//!
//! // A tool call's arguments, against the declared schema ("3" coerced to 3).
//! let schema = set.tools[0].parameters.as_ref().expect("a schema");
//! let report = check_arguments(schema, &json!({"city": "oslo", "days": "3"}), Coercions::ALL)?;
//! assert!(report.is_valid(), "{}", report.retry_message(Some("get_weather")));
//!
//! // A provider's rejection, explained against the request sent: the tool, the place in its
//! // schema, the rule and its fix.
//! let request = json!({"tools": [{"functionDeclarations": [{"name": "tag", "parameters":
//!     {"type": "object", "properties": {"tags": {"type": "array"}}}}]}]});
//! let error = "function_declarations[0].parameters.properties[tags].items: missing field";
//! let e = &toolwire::explain::explain(Some(&request), error, Some(target))[0];
//! assert_eq!((e.pointer.as_deref(), e.rule.as_deref()), (Some("/properties/tags"), Some("array-items-missing")));
//! println!("{:?}: {:?}", e.tool, e.fix);
//! # Ok(())
//! # }
//! ```

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
