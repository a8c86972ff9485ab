//! `toolwire matrix`: the same as `toolwire rules` (the matrix, the profiles and the rule table
//! are made together from the same evidence, so rebuilding one rebuilds all).

use crate::cli::Paths;
use crate::cli::rules::RulesArgs;
use crate::error::Result;

#[derive(Debug, clap::Args)]
pub struct MatrixArgs {
    /// Compare instead of writing; exit 1 naming every stale file.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub paths: Paths,
}

pub fn run(args: MatrixArgs) -> Result<u8> {
    crate::cli::rules::run(RulesArgs {
        check: args.check,
        paths: args.paths,
    })
}
