//! `toolwire args`. (Being built.)

use crate::cli::Paths;
use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct ArgsArgs {}

pub fn run(_args: ArgsArgs, _paths: &Paths) -> Result<u8> {
    Err(Error::Usage("`toolwire args` is not built yet".into()))
}
