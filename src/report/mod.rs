//! Writing generated files, with a check mode that reports staleness instead of writing.

pub mod github;
pub mod html;
pub mod sarif;

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Whether generated files are written or only compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Write,
    Check,
}

/// Writes `content` to `path` (creating folders), or in [`Mode::Check`] compares it with what
/// is there. Returns `Some(path)` when the file was (or, in check mode, would be) changed.
pub fn write_generated(path: &Path, content: &str, mode: Mode) -> Result<Option<PathBuf>> {
    let current = std::fs::read_to_string(path).ok();
    if current.as_deref() == Some(content) {
        return Ok(None);
    }
    if mode == Mode::Write {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        std::fs::write(path, content).map_err(|e| Error::io(path, e))?;
    }
    Ok(Some(path.to_path_buf()))
}

/// Pretty JSON with a trailing newline (the form of every generated JSON file).
pub fn to_json_pretty<T: serde::Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}
