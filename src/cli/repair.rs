//! `toolwire repair FILE [--profile P | --target T]`: rewrite tool definitions so that the
//! profile accepts them, reporting every repair, every loss and every refusal.
//!
//! The repaired tools go to standard output (or `--output FILE`) as function declarations
//! (`{"name","description","parameters"}`; a JSON array, or JSON Lines when the input was
//! JSON Lines; a bare schema stays a bare schema). The report goes to standard error (to
//! standard output when `--output` is given). Exit 0 when every tool is clean or repaired, 1
//! when a tool was refused, 2 on bad input.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::cli::{EXIT_FINDINGS, EXIT_OK, Paths};
use crate::error::{Error, Result};
use crate::input::{Format, ToolSet};
use crate::profile::{PORTABLE, ProfileSet};
use crate::repair::{self, Options, Outcome, Tool, ToolRepair};

#[derive(Debug, clap::Args)]
pub struct RepairArgs {
    /// The tool definitions (any format `check` reads).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The profile to repair for.
    #[arg(long, value_name = "NAME", default_value = PORTABLE, conflicts_with = "target")]
    pub profile: String,
    /// Repair for one target's own profile (e.g. `gemini/v1beta/parameters`).
    #[arg(long, value_name = "TARGET")]
    pub target: Option<String>,
    /// Keep tools that cannot be repaired, unchanged, in the output (they are left out by
    /// default).
    #[arg(long)]
    pub keep_unrepairable: bool,
    /// Write the repaired tools here instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Report format: `human` (changed and refused tools, then counts) or `json`.
    #[arg(long, default_value = "human", value_parser = ["human", "json"])]
    pub format: String,
    /// Read profiles from this file instead of the ones built into the binary.
    #[arg(long, value_name = "FILE")]
    pub profiles: Option<PathBuf>,
    /// Cap on the schema nodes that inlining `$ref`s may produce per tool.
    #[arg(long, value_name = "N", default_value_t = repair::refs::MAX_INLINE_NODES)]
    pub max_inline_nodes: usize,
}

/// The profile set: `--profiles FILE` or the one built into the binary.
pub(crate) fn profiles(path: Option<&PathBuf>) -> Result<ProfileSet> {
    match path {
        Some(p) => ProfileSet::load(p),
        None => crate::profile::embedded(),
    }
}

pub fn run(args: RepairArgs, _paths: &Paths) -> Result<u8> {
    let set = profiles(args.profiles.as_ref())?;
    let profile = crate::cli::check::select(&set, &args.profile, args.target.as_deref())?;
    let tools = crate::input::read_file(&args.file)?;
    let opts = Options {
        max_inline_nodes: args.max_inline_nodes,
    };
    let mut results: Vec<(usize, ToolRepair)> = Vec::new();
    for request in tools.requests() {
        let input: Vec<Tool> = request.iter().map(Tool::from).collect();
        for (entry, mut r) in request
            .iter()
            .zip(repair::repair_request(&input, &profile, &opts))
        {
            r.index = entry.index;
            results.push((entry.request, r));
        }
    }
    let output = render_tools(&tools, &results, args.keep_unrepairable);
    let report = if args.format == "json" {
        let body: Vec<&ToolRepair> = results.iter().map(|(_, r)| r).collect();
        crate::report::to_json_pretty(&json!({
            "file": args.file.display().to_string(),
            "profile": profile.name,
            "targets": profile.targets,
            "summary": repair::summary(&body.iter().map(|r| (*r).clone()).collect::<Vec<_>>()),
            "tools": body,
        }))
    } else {
        human_report(&results, &profile.name, args.keep_unrepairable)
    };
    match &args.output {
        Some(path) => {
            std::fs::write(path, &output).map_err(|e| Error::io(path, e))?;
            print!("{report}");
        }
        None => {
            print!("{output}");
            eprint!("{report}");
        }
    }
    let refused = results.iter().any(|(_, r)| r.outcome == Outcome::Refused);
    Ok(if refused { EXIT_FINDINGS } else { EXIT_OK })
}

/// The repaired tools in the output shape (see the module documentation).
fn render_tools(set: &ToolSet, results: &[(usize, ToolRepair)], keep: bool) -> String {
    let kept = |r: &ToolRepair| keep || r.outcome != Outcome::Refused;
    if set.format == Format::JsonLines {
        let mut out = String::new();
        let mut requests: Vec<(usize, Vec<Value>)> = Vec::new();
        for (req, r) in results {
            if !kept(r) {
                continue;
            }
            match requests.last_mut() {
                Some((last, list)) if last == req => list.push(r.tool.to_value()),
                _ => requests.push((*req, vec![r.tool.to_value()])),
            }
        }
        for (_, mut list) in requests {
            let line = if list.len() == 1 {
                list.remove(0)
            } else {
                Value::Array(list)
            };
            out.push_str(&line.to_string());
            out.push('\n');
        }
        return out;
    }
    let list: Vec<Value> = results
        .iter()
        .filter(|(_, r)| kept(r))
        .map(|(_, r)| r.tool.to_value())
        .collect();
    if set.format == Format::Schema
        && let [one] = list.as_slice()
    {
        return crate::report::to_json_pretty(one);
    }
    crate::report::to_json_pretty(&Value::Array(list))
}

fn human_report(results: &[(usize, ToolRepair)], profile: &str, keep: bool) -> String {
    let mut s = String::new();
    for (_, r) in results {
        if r.outcome != Outcome::Unchanged {
            s.push_str(&repair::human(r));
        }
    }
    let all: Vec<ToolRepair> = results.iter().map(|(_, r)| r.clone()).collect();
    let counts = repair::summary(&all);
    let n = |k: &str| counts.get(k).copied().unwrap_or(0);
    let losses: usize = all
        .iter()
        .flat_map(|r| &r.changes)
        .filter(|c| c.lost.is_some())
        .count();
    s.push_str(&format!(
        "{} tools under `{profile}`: {} unchanged, {} repaired ({losses} losses), {} refused ({})\n",
        all.len(),
        n("unchanged"),
        n("repaired"),
        n("refused"),
        if keep {
            "kept unchanged"
        } else {
            "left out"
        }
    ));
    s
}
