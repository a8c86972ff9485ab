//! Writing generated files, with a check mode that reports staleness instead of writing.

pub mod github;
pub mod html;
pub mod json;
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
/// `keep_layout` (output's own line breaks and tabs). Without `keep_layout` a backslash is
/// written `\\` as well: otherwise a name holding a line feed and one holding a backslash
/// and an `n` would both read `\n`. Whole output keeps its backslashes, since the values in
/// it were escaped inline already. Borrowed when nothing needs escaping.
fn escape_with(text: &str, keep_layout: bool) -> std::borrow::Cow<'_, str> {
    let needs = |c: char| {
        (shown_escaped(c) && !(keep_layout && (c == '\n' || c == '\t')))
            || (!keep_layout && c == '\\')
    };
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
            '\\' => out.push_str("\\\\"),
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
/// escaped too (`\n`), so that the value cannot start a line that looks like toolwire's own,
/// and backslashes doubled (`\\`), so that a real line feed and a backslash followed by `n`
/// stay two different names.
pub fn escape_inline(text: &str) -> std::borrow::Cow<'_, str> {
    escape_with(text, false)
}

/// A JSON value as a message quotes it: compact JSON, but every string (members of arrays
/// and objects, and keys, too) its text unescaped between quotes. Messages are escaped once
/// for people ([`escape_inline`]: a backslash written `\\`, a line feed `\n`), so a value
/// then reads as the file writes it (`"c:\\tmp"`, `"a\nb"`), not escaped twice as quoting
/// its JSON encoding made it (`"c:\\\\tmp"`); JSON output keeps the text exact. A quote
/// inside a string stays a bare `"`: the one escape this cannot give back, since a
/// backslash before it would be doubled.
pub struct Shown<'v>(pub &'v serde_json::Value);

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use serde_json::Value;
        match self.0 {
            Value::String(s) => write!(f, "\"{s}\""),
            Value::Array(items) => {
                f.write_str("[")?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", Shown(v))?;
                }
                f.write_str("]")
            }
            Value::Object(members) => {
                f.write_str("{")?;
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "\"{k}\":{}", Shown(v))?;
                }
                f.write_str("}")
            }
            v => write!(f, "{v}"),
        }
    }
}

/// The file name the commands read as standard input, and that findings of it carry as their
/// `file` (JSON keeps it so; the other formats name the input as notes do,
/// [`crate::error::file_name`]).
pub const STDIN: &str = "-";

/// A closing note of a report ([`crate::check::Report::closing_notes`]) as a machine format
/// carries it: without the leading `note: ` output for people writes, since the format says
/// it is a note (a `::notice`, a SARIF notification of level `note`).
pub fn closing_note_text(note: &str) -> &str {
    note.strip_prefix("note: ").unwrap_or(note)
}

/// An input file `check` could not read (bad input, reported on standard error and skipped
/// so that the other files are still checked). Machine formats record it beside the files
/// read: without it a report of the others reads as complete, e.g. a SARIF file uploaded
/// with `if: always()` or a script reading the JSON, which never see standard error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// The file as given ([`STDIN`] for standard input), as a read file's summary names it.
    pub file: String,
    /// How many files read come before it among the files given: output lists the files in
    /// the order given.
    pub after: usize,
    /// The 1-based line of the problem, where the error names one.
    pub line: Option<usize>,
    /// The 1-based column, where the error names one (serde_json's column 0, before the
    /// line's first character, is none).
    pub column: Option<usize>,
    /// The error as standard error says it after `toolwire: `: file, place and problem.
    pub error: String,
    /// The place and problem without the file: what an annotation on the file says.
    pub problem: String,
}

impl Unreadable {
    /// `file`'s bad-input `error`, `after` files read; `None` for any other error (which
    /// stops the command rather than skipping a file).
    /// An error that names a JSON Pointer (the file parsed, but `tools[2]` is not an object)
    /// is placed where the pointer's value is in the file, as a finding is: the file is read
    /// again for it, and standard input, which cannot be, keeps only its JSON Lines line.
    pub fn new(file: &std::path::Path, after: usize, error: &crate::error::Error) -> Option<Self> {
        let text = || {
            if file.as_os_str() == STDIN {
                return None;
            }
            let bytes = crate::json::read_capped(file, crate::input::LIMITS).ok()?;
            Some(lossy(bytes))
        };
        let locator = std::cell::OnceCell::new();
        Self::located(file, after, error, || {
            locator
                .get_or_init(|| text().map(sarif::Locator::new))
                .as_ref()
        })
    }

    /// The lines of JSON Lines `file` that could not be read while its other lines were
    /// ([`crate::check::check_bytes_with`]), `after` files read before it, each placed as
    /// [`Unreadable::new`] places a file's error, in `bytes` (the file as it was read: it is
    /// not read again, and its lines are indexed once for all of them). An error that is no
    /// bad input is left out (the readers give none).
    pub fn lines(
        file: &std::path::Path,
        after: usize,
        errors: &[crate::error::Error],
        bytes: &[u8],
    ) -> Vec<Self> {
        let locator = std::cell::OnceCell::new();
        let locator = || {
            locator
                .get_or_init(|| Some(sarif::Locator::new(lossy(bytes.to_vec()))))
                .as_ref()
        };
        errors
            .iter()
            .filter_map(|e| Self::located(file, after, e, locator))
            .collect()
    }

    /// [`Unreadable::new`] with the file's text indexed by `locator` (called only when the
    /// error names a pointer; `None` when the text cannot be had).
    fn located<'t>(
        file: &std::path::Path,
        after: usize,
        error: &crate::error::Error,
        locator: impl FnOnce() -> Option<&'t sarif::Locator>,
    ) -> Option<Self> {
        use crate::error::Place;
        let crate::error::Error::Input {
            file: named, place, ..
        } = error
        else {
            return None;
        };
        let (line, column) = match place {
            Place::LineColumn { line, column } => (Some(*line), Some(*column).filter(|&c| c > 0)),
            Place::Pointer(pointer) => locator()
                .and_then(|t| t.locate(pointer))
                .map_or((None, None), |(l, c)| (Some(l), Some(c))),
            Place::LinePointer { line, pointer } => (
                Some(*line),
                locator().and_then(|t| t.locate_in_line(*line, pointer)),
            ),
            Place::File | Place::Path => (None, None),
        };
        let text = error.to_string();
        let problem = text
            .strip_prefix(named.as_str())
            .and_then(|rest| rest.strip_prefix(": "))
            .unwrap_or(&text)
            .to_string();
        Some(Unreadable {
            file: file.display().to_string(),
            after,
            line,
            column,
            error: text,
            problem,
        })
    }
}

/// `bytes` as text for placing a pointer in it, a byte sequence that is no UTF-8 replaced by
/// U+FFFD: only the line holding it changes (a line feed is never part of one), and that line's
/// own error names its column itself. Read strictly, one such line left every other bad line of
/// a JSON Lines file without its column (trial 81 D3).
fn lossy(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The longest JSON Pointer, in characters, that output for people shows whole (see
/// [`short_pointer`]): about a line and a half of a terminal.
pub const POINTER_SHOWN: usize = 120;

/// A JSON Pointer as output for people shows it: whole when it has at most [`POINTER_SHOWN`]
/// characters; longer, its first and last reference tokens (about half the bound each, at least
/// one each) around `…(N tokens)…`, N the reference tokens left out, one per level of JSON
/// they descend (not "levels": beside a finding's "200 levels of object nesting", where a
/// `properties` map and its member are two tokens, the count read as another nesting).
/// A schema or arguments nested hundreds of levels deep otherwise print a place of kilobytes
/// that no one reads past its start and end. JSON, SARIF and every other output for machines
/// keep the pointer whole: a tool needs the exact place. Borrowed when it is shown whole.
pub fn short_pointer(pointer: &str) -> std::borrow::Cow<'_, str> {
    use std::borrow::Cow;
    if pointer.chars().count() <= POINTER_SHOWN {
        return Cow::Borrowed(pointer);
    }
    // Each part is `/token`; the pointer is non-empty, so it starts with `/`.
    let parts: Vec<&str> = pointer.split('/').skip(1).collect();
    // How many parts, taken from one end, fit in half the bound (the first always).
    let kept = |parts: &mut dyn Iterator<Item = &&str>| {
        let mut used = 0;
        parts
            .take_while(|p| {
                let first = used == 0;
                used += p.chars().count() + 1;
                first || used <= POINTER_SHOWN / 2
            })
            .count()
    };
    let head_n = kept(&mut parts.iter());
    let tail_n = kept(&mut parts[head_n..].iter().rev());
    let left_out = parts.len() - head_n - tail_n;
    if left_out == 0 {
        return Cow::Borrowed(pointer);
    }
    let mut out = String::with_capacity(POINTER_SHOWN + 24);
    for p in &parts[..head_n] {
        out.push('/');
        out.push_str(p);
    }
    out.push_str(&format!(
        "/…({left_out} token{})…",
        if left_out == 1 { "" } else { "s" }
    ));
    for p in &parts[parts.len() - tail_n..] {
        out.push('/');
        out.push_str(p);
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::{POINTER_SHOWN, Unreadable, escape_inline, escape_output, short_pointer};

    /// An error naming a pointer into a file that parsed is placed at the pointer's value in
    /// the file's text, as a finding is (before: no line at all for a file, and only the line
    /// for a JSON Lines line); without the text there is no column to give.
    #[test]
    fn an_unreadable_file_at_a_pointer_gets_its_line_and_column() {
        use crate::error::{Error, Place};
        let at = |place: Place, text: Option<&str>| {
            let e = Error::input("t.json", place, "not a tool");
            let locator = text.map(|t| super::sarif::Locator::new(t.to_string()));
            let u = Unreadable::located(std::path::Path::new("t.json"), 0, &e, || locator.as_ref())
                .unwrap();
            (u.line, u.column)
        };
        let file = "{\"tools\": [\n  {\"name\": \"a\"},\n  {\"name\": \"é\"}, 7\n]}";
        let pointer = || Place::Pointer("/tools/2".into());
        assert_eq!(at(pointer(), Some(file)), (Some(3), Some(18)));
        assert_eq!(at(pointer(), None), (None, None));
        assert_eq!(
            at(Place::Pointer("/tools/9".into()), Some(file)),
            (None, None)
        );
        let lines = "{\"name\": \"a\"}\n{\"é\": 1, \"hello\": 2}\n";
        let line = |pointer: &str| Place::LinePointer {
            line: 2,
            pointer: pointer.into(),
        };
        assert_eq!(at(line("/hello"), Some(lines)), (Some(2), Some(10)));
        assert_eq!(at(line(""), Some(lines)), (Some(2), Some(1)));
        assert_eq!(at(line("/hello"), None), (Some(2), None));
        assert_eq!(at(Place::File, Some(file)), (None, None));
    }

    /// A line that is no UTF-8 leaves the other bad lines of the file their columns: the same
    /// error on the same line text is placed alike whatever else the file holds (before: no
    /// `column` for `[1,2,3]` at `/0` beside a line holding the byte FF, and 2 without it).
    #[test]
    fn a_line_that_is_no_utf8_leaves_the_others_their_columns() {
        use crate::error::{Error, Place};
        let at_0 = |line| {
            Error::input(
                "t.jsonl",
                Place::LinePointer {
                    line,
                    pointer: "/0".into(),
                },
                "x",
            )
        };
        let columns = |bytes: &[u8]| {
            let errors = [at_0(1), at_0(3)];
            Unreadable::lines(std::path::Path::new("t.jsonl"), 0, &errors, bytes)
                .iter()
                .map(|u| (u.line, u.column))
                .collect::<Vec<_>>()
        };
        let placed = vec![(Some(1), Some(2)), (Some(3), Some(3))];
        assert_eq!(columns(b"[1,2,3]\n{\"name\": \"ok\"}\n [4]\n"), placed);
        assert_eq!(columns(b"[1,2,3]\n{\"name\": \"\xff\"}\n [4]\n"), placed);
    }

    /// A value quoted in a message and escaped once for people reads as the file writes it
    /// (before: its JSON encoding escaped again, `"c:\\\\x\\n"`); a line break and a
    /// control character cannot break the line; a quote is the one escape not given back.
    #[test]
    fn shown_values_escaped_inline_read_as_the_file_writes_them() {
        let v = serde_json::json!({"k\\":["c:\\x\n", 1, null, "\u{7}"]});
        let shown = super::Shown(&v).to_string();
        assert_eq!(
            escape_inline(&shown),
            r#"{"k\\":["c:\\x\n",1,null,"\u{7}"]}"#
        );
        assert_eq!(
            escape_inline(&super::Shown(&serde_json::json!("a\"b")).to_string()),
            r#""a"b""#
        );
        assert!(!escape_inline(&shown).contains('\n'));
    }

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

    /// A name holding a line feed and one holding a backslash and an `n` are two names, and
    /// read as two (before: both were shown `a\nb`); whole output leaves backslashes alone.
    #[test]
    fn a_line_feed_and_a_backslash_n_are_told_apart_inline() {
        assert_eq!(escape_inline("a\nb"), "a\\nb");
        assert_eq!(escape_inline("a\\nb"), "a\\\\nb");
        assert_ne!(escape_inline("a\nb"), escape_inline("a\\nb"));
        assert_eq!(escape_inline("a\\"), "a\\\\");
        assert_eq!(escape_output("a\\nb"), "a\\nb");
    }

    #[test]
    fn long_pointers_keep_their_ends_and_count_the_levels_left_out() {
        let deep = "/properties/a".repeat(200);
        let short = short_pointer(&deep);
        assert!(short.chars().count() <= POINTER_SHOWN + 20, "{short}");
        let (head, rest) = short.split_once("/…(").expect("shortened");
        let (count, tail) = rest.split_once(" tokens)…").expect("a count");
        assert!(deep.starts_with(head) && deep.ends_with(tail), "{short}");
        // The levels left out and those shown are every level of the pointer.
        let shown = head.matches('/').count() + tail.matches('/').count();
        assert_eq!(count.parse::<usize>().unwrap() + shown, 400, "{short}");
        // Up to the bound, and where no whole level can be left out, the pointer is whole.
        let at_bound = "/a".repeat(POINTER_SHOWN / 2);
        assert!(matches!(
            short_pointer(&at_bound),
            std::borrow::Cow::Borrowed(_)
        ));
        let two_long_names = format!("/{}/{}", "x".repeat(100), "y".repeat(100));
        assert_eq!(short_pointer(&two_long_names), two_long_names);
        // A long name is kept whole at either end, never cut inside.
        let long_ends = format!(
            "/{}{}/{}",
            "x".repeat(100),
            "/a".repeat(50),
            "y".repeat(100)
        );
        assert_eq!(
            short_pointer(&long_ends),
            format!("/{}/…(50 tokens)…/{}", "x".repeat(100), "y".repeat(100))
        );
    }
}
