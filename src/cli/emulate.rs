//! `toolwire emulate`. (Being built.)

use crate::cli::Paths;
use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct EmulateArgs {}

pub fn run(_args: EmulateArgs, _paths: &Paths) -> Result<u8> {
    Err(Error::Usage("`toolwire emulate` is not built yet".into()))
}
