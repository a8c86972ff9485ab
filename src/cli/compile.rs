//! `toolwire compile`. (Being built.)

use crate::cli::Paths;
use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct CompileArgs {}

pub fn run(_args: CompileArgs, _paths: &Paths) -> Result<u8> {
    Err(Error::Usage("`toolwire compile` is not built yet".into()))
}
