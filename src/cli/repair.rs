//! `toolwire repair`. (Being built.)

use crate::cli::Paths;
use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct RepairArgs {}

pub fn run(_args: RepairArgs, _paths: &Paths) -> Result<u8> {
    Err(Error::Usage("`toolwire repair` is not built yet".into()))
}
