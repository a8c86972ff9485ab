//! `toolwire repair FILE [--profile P | --target T]`: rewrite tool definitions so that the
//! profile accepts them, reporting every repair, every loss and every refusal.
//!
//! The repaired tools go to standard output (or `--output FILE`) in the input's own envelope
//! ([`crate::repair::envelope`]): OpenAI tools in, OpenAI tools out, with every other field
//! kept; JSON Lines stay JSON Lines; a bare schema stays a bare schema. The report goes to
//! standard error (to standard output when `--output` is given). Exit 0 when every tool is clean or repaired, 1
//! when a tool was refused, 2 on bad input.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::cli::{EXIT_FINDINGS, EXIT_OK, Paths};
use crate::error::{Error, Result};
use crate::input::{Format, ToolSet};
use crate::profile::{PORTABLE, ProfileSet};
use crate::repair::envelope::{self, Placed};
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
    let bytes = crate::json::read_capped(&args.file, crate::input::LIMITS)?;
    let tools = crate::input::from_bytes(&args.file, &bytes)?;
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
    let output = render_tools(&args.file, &bytes, &tools, &results, args.keep_unrepairable)?;
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

/// The repaired tools written back into the input document(s) (see the module documentation).
fn render_tools(
    file: &Path,
    bytes: &[u8],
    set: &ToolSet,
    results: &[(usize, ToolRepair)],
    keep: bool,
) -> Result<String> {
    let text = crate::json::check_utf8(file, bytes)?;
    // The reader keeps tools in file order, one result per tool.
    let placed: Vec<(Option<usize>, Placed<'_>)> = set
        .tools
        .iter()
        .zip(results)
        .map(|(entry, (_, r))| {
            (
                entry.line,
                Placed {
                    schema_pointer: &entry.schema_pointer,
                    repair: r,
                },
            )
        })
        .collect();
    if set.format != Format::JsonLines {
        let doc = crate::json::parse_str(file, text, crate::input::LIMITS, 0)?;
        let tools: Vec<Placed<'_>> = placed.iter().map(|(_, p)| *p).collect();
        return Ok(match envelope::write_back(doc, &tools, keep) {
            Some(doc) => crate::report::to_json_pretty(&doc),
            // The only tool was left out: an empty list says so in the input's terms.
            None => crate::report::to_json_pretty(&Value::Array(Vec::new())),
        });
    }
    let mut out = String::new();
    let mut rest = placed.as_slice();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let number = i + 1;
        let doc = crate::json::parse_str(file, line, crate::input::LIMITS, i)?;
        // Tools come in line order: this line's are the next ones.
        let n = rest.iter().take_while(|(l, _)| *l == Some(number)).count();
        let (here, after) = rest.split_at(n);
        rest = after;
        let tools: Vec<Placed<'_>> = here.iter().map(|(_, p)| *p).collect();
        if let Some(doc) = envelope::write_back(doc, &tools, keep) {
            out.push_str(&doc.to_string());
            out.push('\n');
        }
    }
    Ok(out)
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
        "{} tool{} under `{profile}`: {} unchanged, {} repaired ({losses} loss{}), {} refused ({})\n",
        all.len(),
        if all.len() == 1 { "" } else { "s" },
        n("unchanged"),
        n("repaired"),
        if losses == 1 { "" } else { "es" },
        n("refused"),
        if keep {
            "kept unchanged"
        } else {
            "left out"
        }
    ));
    s
}
