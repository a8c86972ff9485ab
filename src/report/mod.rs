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

/// Whether `c` is shown escaped in output for people and in GitHub workflow commands: a C0
/// control, DEL, a C1 control (`char::is_control` covers those three), or a bidirectional
/// embedding, override or isolate (U+202A..U+202E, U+2066..U+2069, the "Trojan Source"
/// characters of CVE-2021-42574), or a line or paragraph separator (U+2028, U+2029). Tool
/// names, property names, descriptions and provider messages come from files and models: raw,
/// an ESC starts a terminal escape sequence (colours, cursor moves, window titles, hyperlinks)
/// and a bidi override makes text read differently from what it is.
fn shown_escaped(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// `text` with every character [`shown_escaped`] written as Rust writes it in a string
/// literal, `\u{1b}` (`\n`, `\r` and `\t` as `\n`, `\r`, `\t`), except `\n` and `\t` when
/// `keep_layout` (output's own line breaks and tabs). Borrowed when nothing needs escaping.
fn escape_with(text: &str, keep_layout: bool) -> std::borrow::Cow<'_, str> {
    let needs = |c: char| shown_escaped(c) && !(keep_layout && (c == '\n' || c == '\t'));
    if !text.chars().any(needs) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !needs(c) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Text for a terminal or a CI log, made safe whole: every control character and bidi control
/// escaped (`ESC` → `\u{1b}`), except the line breaks and tabs of the output's own layout.
/// Every command's output for people, and every error line, goes through it before it is
/// written (see [`escape_inline`] for one value inside a line), and so does SARIF's
/// `message.text` (viewers show it as text; serde_json escapes C0 controls but keeps a bidi
/// override or C1 control raw). JSON output keeps the values as they are: it is data.
pub fn escape_output(text: &str) -> std::borrow::Cow<'_, str> {
    escape_with(text, true)
}

/// One user-derived value (a tool name, a JSON Pointer holding property names, a message)
/// placed inside a line of output for people: as [`escape_output`], and line breaks and tabs
/// escaped too (`\n`), so that the value cannot start a line that looks like toolwire's own.
pub fn escape_inline(text: &str) -> std::borrow::Cow<'_, str> {
    escape_with(text, false)
}

#[cfg(test)]
mod tests {
    use super::{escape_inline, escape_output};

    #[test]
    fn controls_and_bidi_overrides_are_escaped_and_layout_kept_only_for_whole_output() {
        let text = "a\u{1b}[2Jb\u{7f}\u{85}\u{9b}\u{202e}\u{2066}\u{2028}\u{0}\r\n\tc";
        assert_eq!(
            escape_output(text),
            "a\\u{1b}[2Jb\\u{7f}\\u{85}\\u{9b}\\u{202e}\\u{2066}\\u{2028}\\u{0}\\r\n\tc"
        );
        assert_eq!(
            escape_inline(text),
            "a\\u{1b}[2Jb\\u{7f}\\u{85}\\u{9b}\\u{202e}\\u{2066}\\u{2028}\\u{0}\\r\\n\\tc"
        );
        // Text with nothing to escape is not copied; other non-ASCII text is kept.
        let plain = "météo \u{2192} 東京 \u{200d}";
        assert!(matches!(
            escape_output(plain),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(escape_inline(plain), plain);
    }
}
