//! `toolwire check`. (Being built.)

use crate::cli::Paths;
use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct CheckArgs {}

pub fn run(_args: CheckArgs, _paths: &Paths) -> Result<u8> {
    Err(Error::Usage("`toolwire check` is not built yet".into()))
}
