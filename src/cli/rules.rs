//! `toolwire rules`. (Being built.)

use crate::cli::Paths;
use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct RulesArgs {}

pub fn run(_args: RulesArgs, _paths: &Paths) -> Result<u8> {
    Err(Error::Usage("`toolwire rules` is not built yet".into()))
}

#[derive(Debug, clap::Args)]
pub struct RuleArgs {
    /// The rule id, e.g. `array-items-missing`.
    pub id: String,
}

pub fn run_rule(_args: RuleArgs, _paths: &Paths) -> Result<u8> {
    Err(Error::Usage("`toolwire rule` is not built yet".into()))
}
