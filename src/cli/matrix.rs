//! `toolwire matrix`: rebuild reports/matrix.json and reports/MATRIX.md.

use crate::cli::{EXIT_FINDINGS, EXIT_OK, Paths};
use crate::error::Result;
use crate::report::Mode;

#[derive(Debug, clap::Args)]
pub struct MatrixArgs {
    /// Compare instead of writing; exit 1 naming every stale file.
    #[arg(long)]
    pub check: bool,
}

pub fn run(args: MatrixArgs, paths: &Paths) -> Result<u8> {
    let project = paths.project();
    let mode = if args.check { Mode::Check } else { Mode::Write };
    let changed = project.regenerate(mode)?;
    for p in &changed {
        if args.check {
            println!("stale: {}", p.display());
        } else {
            println!("wrote {}", p.display());
        }
    }
    Ok(if args.check && !changed.is_empty() {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    })
}
