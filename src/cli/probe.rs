//! `toolwire probe`: probe cases against targets, write a run log, regenerate the reports.

use std::sync::Arc;

use crate::case::id_matches;
use crate::cli::{EXIT_OK, Paths};
use crate::error::{Error, Result};
use crate::evidence::Verdict;
use crate::evidence::runlog::Redactor;
use crate::probe::{self, EngineTarget, ProbeTarget, RunOptions, RunSummary};
use crate::report::Mode;

#[derive(Debug, clap::Args)]
pub struct ProbeArgs {
    /// Only these targets (an id, a prefix such as `engine/`, or a glob ending in `*`). Repeatable.
    #[arg(long = "target", value_name = "TARGET")]
    pub targets: Vec<String>,
    /// Only these cases (an id, a family such as `keywords`, or a glob ending in `*`). Repeatable.
    #[arg(long = "case", value_name = "CASE")]
    pub case_filters: Vec<String>,
    /// In-process engines only; no network is attempted.
    #[arg(long)]
    pub offline: bool,
    /// Do not show a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Do not regenerate the matrix and other generated files after the run.
    #[arg(long)]
    pub no_regenerate: bool,
}

pub fn run(args: ProbeArgs, paths: &Paths) -> Result<u8> {
    let project = paths.project();
    let catalog = project.catalog()?;
    for f in &args.case_filters {
        if !catalog.cases.iter().any(|c| id_matches(&c.id, f)) {
            return Err(Error::Usage(format!(
                "--case {f:?} matches no case in {}",
                paths.cases_dir.display()
            )));
        }
    }
    let cases: Vec<_> = catalog.select(&args.case_filters).collect();
    let mut targets: Vec<Arc<dyn ProbeTarget>> = Vec::new();
    for engine in crate::engine::engines() {
        targets.push(Arc::new(EngineTarget(engine)));
    }
    if !args.targets.is_empty() {
        targets.retain(|t| args.targets.iter().any(|f| id_matches(&t.record().id, f)));
        if targets.is_empty() {
            return Err(Error::Usage(format!(
                "--target {:?} matches no target",
                args.targets
            )));
        }
    }
    let previous = project
        .matrix(&catalog)
        .map(|m| m.verdicts())
        .unwrap_or_default();
    let opts = RunOptions {
        runs_dir: project.runs_dir(),
        progress: !args.no_progress,
        previous,
        redactor: Redactor::default(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Other(format!("cannot start the async runtime: {e}")))?;
    let summary = runtime.block_on(probe::run(&catalog, &cases, targets, opts))?;
    print_summary(&summary);
    if !args.no_regenerate {
        for p in project.regenerate(Mode::Write)? {
            println!("wrote {}", p.display());
        }
    }
    Ok(EXIT_OK)
}

fn print_summary(s: &RunSummary) {
    let mut b = tabled::builder::Builder::default();
    b.push_record([
        "target",
        "accepted",
        "accepted-ignored",
        "rejected",
        "confounded",
        "inconclusive",
        "skipped",
        "requests",
        "wall",
    ]);
    for (id, t) in &s.targets {
        let n = |v: Verdict| t.counts.get(&v).copied().unwrap_or(0).to_string();
        let skipped = match &t.skipped {
            Some(why) => format!("skipped: {why}"),
            None => n(Verdict::Skipped),
        };
        b.push_record([
            id.clone(),
            n(Verdict::Accepted),
            n(Verdict::AcceptedIgnored),
            n(Verdict::Rejected),
            n(Verdict::Confounded),
            (t.counts.get(&Verdict::Inconclusive).copied().unwrap_or(0)
                + t.counts.get(&Verdict::Unreachable).copied().unwrap_or(0))
            .to_string(),
            skipped,
            t.requests.to_string(),
            format!("{:.2}s", t.wall.as_secs_f64()),
        ]);
    }
    let mut table = b.build();
    table.with(tabled::settings::Style::sharp());
    println!("{table}");
    println!("run log: {}", s.log.display());
}
