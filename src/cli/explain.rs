//! `toolwire explain`. (Being built.)

use crate::cli::Paths;
use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct ExplainArgs {}

pub fn run(_args: ExplainArgs, _paths: &Paths) -> Result<u8> {
    Err(Error::Usage("`toolwire explain` is not built yet".into()))
}
