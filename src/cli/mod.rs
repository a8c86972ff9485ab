//! The command line: one file per subcommand; `main.rs` only calls [`main`].

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::Error;

pub mod matrix;
pub mod probe;

/// Exit code for success.
pub const EXIT_OK: u8 = 0;
/// Exit code for findings, stale files or a failed check.
pub const EXIT_FINDINGS: u8 = 1;
/// Exit code for bad input or usage.
pub const EXIT_BAD_INPUT: u8 = 2;

/// toolwire: which tool schemas does each model provider accept, today?
#[derive(Debug, Parser)]
#[command(name = "toolwire", version, about, long_about = None)]
pub struct Cli {
    #[command(flatten)]
    pub paths: Paths,
    #[command(subcommand)]
    pub command: Command,
}

/// Where the project's data lives.
#[derive(Debug, Clone, clap::Args)]
pub struct Paths {
    /// The case catalog.
    #[arg(
        long = "cases",
        global = true,
        default_value = "cases",
        value_name = "DIR"
    )]
    pub cases_dir: PathBuf,
    /// Reports: runs/, documented/, matrix, profiles, rule table.
    #[arg(
        long = "reports",
        global = true,
        default_value = "reports",
        value_name = "DIR"
    )]
    pub reports_dir: PathBuf,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Probe every case against every selected target, write a run log, regenerate the matrix.
    Probe(probe::ProbeArgs),
    /// Rebuild reports/matrix.json and reports/MATRIX.md from all run logs and documented evidence.
    Matrix(matrix::MatrixArgs),
}

/// Parses the command line, runs it and maps errors to exit codes.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Probe(a) => probe::run(a, &cli.paths),
        Command::Matrix(a) => matrix::run(a, &cli.paths),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("toolwire: {e}");
            ExitCode::from(exit_code(&e))
        }
    }
}

impl Paths {
    /// The project these paths point at.
    pub fn project(&self) -> crate::project::Project {
        crate::project::Project::new(&self.cases_dir, &self.reports_dir)
    }
}

/// The exit code for an error: always 2 (bad input, usage, or a failure to write).
pub fn exit_code(_e: &Error) -> u8 {
    EXIT_BAD_INPUT
}
