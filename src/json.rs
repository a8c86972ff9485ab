//! Bounded loading of JSON: a size cap, a nesting cap checked before parsing (so a 10,000-deep
//! document is an error, not a stack overflow), UTF-8 checked up front, key order preserved.

use std::path::Path;

use serde_json::Value;

use crate::error::{Error, Place, Result};

pub mod duplicates;

/// Caps applied to every document we read.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest file accepted, in bytes.
    pub max_bytes: u64,
    /// Deepest nesting of JSON arrays and objects accepted (the count of open brackets).
    pub max_depth: usize,
}

impl Default for Limits {
    /// 16 MiB and 512 levels: the largest corpus file is 2.9 MB, the deepest case (100 nested
    /// objects) nests about 210 levels.
    fn default() -> Self {
        Limits {
            max_bytes: 16 * 1024 * 1024,
            max_depth: 512,
        }
    }
}

/// Reads a file into memory, refusing it before reading when it exceeds `limits.max_bytes`.
/// The path `-` reads standard input (to the same cap).
pub fn read_capped(path: &Path, limits: Limits) -> Result<Vec<u8>> {
    use std::io::Read;
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(limits.max_bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Error::input(path, Place::File, e.to_string()))?;
        return capped(path, bytes, limits);
    }
    let meta = std::fs::metadata(path).map_err(|e| path_error(path, &e))?;
    if meta.is_dir() {
        return Err(Error::input(path, Place::Path, "is a folder, not a file"));
    }
    if meta.len() > limits.max_bytes {
        return Err(Error::input(
            path,
            Place::File,
            format!(
                "file is {} bytes, larger than the limit of {} bytes",
                meta.len(),
                limits.max_bytes
            ),
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| path_error(path, &e))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The file may grow between stat and read; never read past the cap.
    file.take(limits.max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::input(path, Place::File, e.to_string()))?;
    capped(path, bytes, limits)
}

/// A path that could not be opened or looked at: nothing of it was read, so the error is
/// about the path ("no such file" rather than the OS's "No such file or directory (os error
/// 2)").
pub(crate) fn path_error(path: &Path, e: &std::io::Error) -> Error {
    let problem = match e.kind() {
        // A quoted glob reaches us as it was typed; saying so beats a bare "no such file"
        // when the user expected toolwire to match the files.
        std::io::ErrorKind::NotFound if looks_like_glob(path) => {
            "no such file (toolwire does not expand globs; let the shell do it)".to_string()
        }
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        _ => e.to_string(),
    };
    Error::input(path, Place::Path, problem)
}

/// Whether `path` holds a glob metacharacter (`*`, `?`, `[`), as a pattern the shell did not
/// expand (quoted, or matching nothing) does.
fn looks_like_glob(path: &Path) -> bool {
    path.to_string_lossy().contains(['*', '?', '['])
}

/// `bytes` read with one byte past the cap allowed: an error when that byte was read.
fn capped(path: &Path, bytes: Vec<u8>, limits: Limits) -> Result<Vec<u8>> {
    if bytes.len() as u64 > limits.max_bytes {
        return Err(Error::input(
            path,
            Place::File,
            format!(
                "file is larger than the limit of {} bytes",
                limits.max_bytes
            ),
        ));
    }
    Ok(bytes)
}

/// The UTF-8 byte order mark. RFC 8259 §8.1: JSON text must not begin with one, but a parser
/// "MAY ignore the presence of a byte order mark rather than treating it as an error"; editors
/// on Windows write one, so we skip it.
pub const BOM: &str = "\u{feff}";

/// Checks that `bytes` are UTF-8, naming the line and column of the first bad byte, and returns
/// the text without a leading byte order mark ([`BOM`]; columns on the first line are then
/// counted after it).
pub fn check_utf8<'a>(file: &Path, bytes: &'a [u8]) -> Result<&'a str> {
    let not_utf8 = |offset: usize| {
        let (line, column) = line_column(bytes, offset);
        let what = match wide_encoding(bytes) {
            Some((encoding, iconv)) => format!(
                "not UTF-8 text: it is written in {encoding}; convert it to UTF-8 (e.g. `iconv -f \
                 {iconv} -t UTF-8`, or `Out-File -Encoding utf8` in Windows PowerShell)"
            ),
            None => "invalid UTF-8 (the file must be UTF-8 text)".to_string(),
        };
        Error::input(file, Place::LineColumn { line, column }, what)
    };
    let text = std::str::from_utf8(bytes).map_err(|e| not_utf8(e.valid_up_to()))?;
    // A NUL is valid UTF-8, but no JSON or error text holds one raw: among the first two
    // bytes, it is the other half of an ASCII character written in UTF-16 or UTF-32.
    if let Some(nul) = bytes.iter().take(2).position(|&b| b == 0)
        && wide_encoding(bytes).is_some()
    {
        return Err(not_utf8(nul));
    }
    Ok(text.strip_prefix(BOM).unwrap_or(text))
}

/// The encoding `bytes` are written in, in words and as `iconv` names it, when it is UTF-16
/// or UTF-32 (RFC 8259 §8.1 asks for UTF-8): told by the byte order mark, or without one by
/// the NUL bytes an ASCII first character is written with (RFC 4627 §3 told these encodings
/// apart by the same NULs: `00 00 00 xx`, `00 xx 00 xx`, `xx 00 00 00`, `xx 00 xx 00`, each `xx`
/// here an ASCII character other than NUL; a text of one character has only its own two or
/// four bytes). Other bytes with a NUL among them are no text in any of these encodings (a
/// binary file: trial 68 D2 was told `00 01 02 ff` is UTF-16 big-endian, with an `iconv`
/// recipe that makes garbage of it). Windows PowerShell 5.1's `>` writes UTF-16 little-endian with a
/// mark by default: `>` is "functionally equivalent to piping to Out-File"
/// (learn.microsoft.com/powershell/module/microsoft.powershell.utility/out-file), whose 5.1
/// help says "Unicode is the default", as quoted, with a file found to be UTF-16
/// little-endian, in forums.powershell.org/t/why-does-powershell-output-unix-text-really-utf-16/11215
/// (both pages' excerpts read 2026-12-05).
pub(crate) fn wide_encoding(bytes: &[u8]) -> Option<(&'static str, &'static str)> {
    let encoding = match bytes {
        [0xFF, 0xFE, 0, 0, ..] => ("UTF-32 little-endian", "UTF-32LE"),
        [0, 0, 0xFE, 0xFF, ..] => ("UTF-32 big-endian", "UTF-32BE"),
        [0xFF, 0xFE, ..] => ("UTF-16 little-endian", "UTF-16LE"),
        [0xFE, 0xFF, ..] => ("UTF-16 big-endian", "UTF-16BE"),
        [x, 0, 0, 0, ..] if starts_json(*x) => ("UTF-32 little-endian", "UTF-32LE"),
        [0, 0, 0, x, ..] if starts_json(*x) => ("UTF-32 big-endian", "UTF-32BE"),
        [x, 0, ..] if starts_json(*x) && bytes.get(3).is_none_or(|&b| b == 0) => {
            ("UTF-16 little-endian", "UTF-16LE")
        }
        [0, x, rest @ ..] if starts_json(*x) && rest.first().is_none_or(|&b| b == 0) => {
            ("UTF-16 big-endian", "UTF-16BE")
        }
        _ => return None,
    };
    Some(encoding)
}

/// Whether `b` is a character a JSON text may start with, in ASCII: white space or the first
/// character of a value (RFC 8259 §2, §3), as the low byte of a wide encoding's first unit.
fn starts_json(b: u8) -> bool {
    matches!(
        b,
        b'\t' | b'\n' | b'\r' | b' ' | b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
    )
}

/// 1-based line and column of byte `offset`; the column counts Unicode code points (what SARIF
/// `columnKind: unicodeCodePoints` and editors mean), not bytes.
pub fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    // Code points, not bytes: UTF-8 continuation bytes (0b10xx_xxxx) do not start a character.
    let column = before
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .filter(|&&b| b & 0xC0 != 0x80)
        .count()
        + 1;
    (line, column)
}

/// Finds the first place where JSON bracket nesting exceeds `max_depth`, ignoring brackets
/// inside strings. Runs in one pass with no allocation.
pub fn nesting_exceeds(bytes: &[u8], max_depth: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max_depth {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Why a file's `text` holds no JSON value at all, in the words a file's errors use: "empty
/// file" (nothing but a leading byte order mark, which is no content either), or "no JSON in it:
/// only whitespace"; `None` when there is something to parse. serde_json would say "EOF while
/// parsing a value" at column 0 for both, naming no problem a reader can act on.
pub fn nothing_in(text: &str) -> Option<&'static str> {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    if text.is_empty() {
        Some("empty file")
    } else if text.trim().is_empty() {
        Some("no JSON in it: only whitespace")
    } else {
        None
    }
}

/// Parses one JSON document from `text` (already size-checked), with the nesting cap.
/// `file` is only used to name the source in errors; `line_offset` shifts reported lines
/// (for one line of a JSON Lines file).
pub fn parse_str(file: &Path, text: &str, limits: Limits, line_offset: usize) -> Result<Value> {
    parse_str_counting(file, text, limits, line_offset).map(|(v, _)| v)
}

/// [`parse_str`], with the number of object keys written twice (serde_json keeps the last
/// value; [`duplicates::locate`] says where they are).
pub fn parse_str_counting(
    file: &Path,
    text: &str,
    limits: Limits,
    line_offset: usize,
) -> Result<(Value, usize)> {
    if let Some(problem) = nothing_in(text) {
        return Err(Error::input(file, Place::File, problem));
    }
    let text = text.strip_prefix(BOM).unwrap_or(text);
    let bytes = text.as_bytes();
    if let Some(at) = nesting_exceeds(bytes, limits.max_depth) {
        let (line, column) = line_column(bytes, at);
        return Err(Error::input(
            file,
            Place::LineColumn {
                line: line + line_offset,
                column,
            },
            too_deep_problem(limits.max_depth),
        ));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    // Depth is already bounded above; serde_json's own limit (128) is lower than real schemas.
    de.disable_recursion_limit();
    duplicates::Counting::take();
    duplicates::Counting::take_floats();
    let value = serde::de::DeserializeSeed::deserialize(duplicates::Counting, &mut de)
        .and_then(|v: Value| de.end().map(|()| (v, duplicates::Counting::take())));
    value.map_err(|e| {
        let yaml = file
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("yaml") || x.eq_ignore_ascii_case("yml"));
        let mut problem = lone_surrogate(text, &e)
            .or_else(|| out_of_range(text, &e))
            .unwrap_or_else(|| plain_words(strip_position(&e.to_string()), at_letter(text, &e)));
        if yaml {
            problem.push_str(" (this is read as JSON; YAML is not taken here: convert it to JSON)");
        }
        let (line, column) = error_place(text, &e);
        Error::input(
            file,
            Place::LineColumn {
                line: line + line_offset,
                column,
            },
            problem,
        )
    })
}

/// serde_json's "number out of range" (`e`, in `text`) said as what every command says of a
/// number past the `f64` range: the number as written and the range. `None` for any other
/// error.
fn out_of_range(text: &str, e: &serde_json::Error) -> Option<String> {
    if !e.to_string().starts_with("number out of range") {
        return None;
    }
    let (_, number) = number_tokens(text)
        .into_iter()
        .find(|(_, n)| n.parse::<f64>().is_ok_and(f64::is_infinite))?;
    Some(format!("the number {}{OUT_OF_RANGE}", shown_number(number)))
}

/// `written`, a JSON number token (ASCII) as written, for quoting in a message: whole up to
/// 60 characters (the length `args` cuts a quoted value to), else its first 24 and last 12
/// characters around `...` and how many digits it has (`999999999999999999999999...999999999999
/// (1000000 digits)`). The place already names the number, and quoted whole a number of a
/// million digits makes a megabyte error line; the end is kept because an exponent is there.
pub(crate) fn shown_number(written: &str) -> std::borrow::Cow<'_, str> {
    const MAX: usize = 60;
    if written.len() <= MAX || !written.is_ascii() {
        return written.into();
    }
    let digits = written.bytes().filter(u8::is_ascii_digit).count();
    format!(
        "{}...{} ({digits} digits)",
        &written[..24],
        &written[written.len() - 12..]
    )
    .into()
}

/// The end of [`out_of_range`]'s message, by which a caller tells it from other errors.
pub(crate) const OUT_OF_RANGE: &str = " is past the range of a 64-bit float (toolwire reads \
    JSON numbers as 64-bit integers and floats; the largest is about 1.8e308)";

/// serde_json's error `e` about a string escape of half a UTF-16 surrogate pair, said as what
/// it is: serde_json says "unexpected end of hex escape" for `"\ud800"` and "lone leading
/// surrogate in hex escape" for a lone trailing half too. `None` for any other error, or when
/// no surrogate escape precedes the error on its line.
fn lone_surrogate(text: &str, e: &serde_json::Error) -> Option<String> {
    let message = e.to_string();
    if !(message.starts_with("unexpected end of hex escape")
        || message.starts_with("lone leading surrogate in hex escape"))
    {
        return None;
    }
    let line = text.split('\n').nth(e.line().checked_sub(1)?)?;
    // serde_json's column counts bytes; the escape ends at or before it.
    let upto = line.get(..e.column().min(line.len())).unwrap_or(line);
    let escape = upto
        .match_indices("\\u")
        .filter(|&(i, _)| {
            // `\\ud800` is a backslash and then text: an escape starts after an even run.
            upto.as_bytes()[..=i]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\\')
                .count()
                % 2
                == 1
        })
        .filter_map(|(i, _)| upto.get(i..i + 6))
        .filter(|esc| {
            u16::from_str_radix(&esc[2..], 16).is_ok_and(|u| (0xD800..=0xDFFF).contains(&u))
        })
        .last()?;
    Some(format!(
        "a lone surrogate `{escape}`: half of a UTF-16 pair, which JSON must write as a \
         \\uD800-\\uDBFF escape followed by a \\uDC00-\\uDFFF one"
    ))
}

/// The 1-based line and column of serde_json's error `e` in `text`, the text it parsed.
/// serde_json names the character it stopped at, 1-based; at the end of the input there is
/// none, and it names the last character instead (its column is clamped to the line's
/// length) or, after a final line break, column 0 of a line past the text. The end is named
/// here as the place after the last character that is not white space (the column that
/// character's successor would have), so that a truncated document or line is placed alike
/// whether or not a line break follows, and at the place where more was expected.
/// serde_json counts the column in bytes; it is given here in code points, as every other
/// column toolwire writes is (SARIF declares `columnKind: unicodeCodePoints`), so that an
/// error after non-ASCII text on its line is not placed further right than it is.
pub(crate) fn error_place(text: &str, e: &serde_json::Error) -> (usize, usize) {
    if e.is_eof() {
        return line_column(text.as_bytes(), text.trim_end().len());
    }
    (e.line(), code_point_column(text, e.line(), e.column()))
}

/// The 1-based code-point column of the character at 1-based byte column `column` of 1-based
/// line `line` of `text` (a byte inside a character is that character's column). Column 0
/// (before the line's first character) stays 0, and a line not in `text` keeps the column.
fn code_point_column(text: &str, line: usize, column: usize) -> usize {
    let Some(line) = line.checked_sub(1).and_then(|l| text.split('\n').nth(l)) else {
        return column;
    };
    if column == 0 {
        return 0;
    }
    let bytes = line.as_bytes();
    // The characters that start at or before the byte; past the line's end (serde_json names
    // the place after its last character) each byte further is one column further.
    // Code points, not bytes: UTF-8 continuation bytes (0b10xx_xxxx) do not start a character.
    let upto = &bytes[..column.min(bytes.len())];
    upto.iter().filter(|&&b| b & 0xC0 != 0x80).count() + column.saturating_sub(bytes.len())
}

/// Reads and parses a JSON file with all caps applied.
pub fn load_file(path: &Path, limits: Limits) -> Result<Value> {
    let bytes = read_capped(path, limits)?;
    let text = check_utf8(path, &bytes)?;
    parse_str(path, text, limits, 0)
}

/// serde_json appends " at line L column C"; we report the place separately.
pub(crate) fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// serde_json's problem `problem` in words a reader of the file knows: its "expected ident"
/// (a bare word where JSON has only `true`, `false` and `null`: `tru`, `True`, an unquoted
/// string, YAML) names no JSON term. Other problems are kept as serde_json says them.
///
/// serde_json's "expected value" where a letter stands (`garbage`, `hello`: a bare word not
/// starting as `true`, `false` or `null` do) gets the same word on bare words, so that every
/// bare word is told the same; `at_letter` says whether a letter stands there.
fn plain_words(problem: String, at_letter: bool) -> String {
    const BARE_WORD: &str = "(a bare word is not JSON: strings are quoted)";
    if problem == "expected ident" {
        format!("expected `true`, `false` or `null` {BARE_WORD}")
    } else if problem == "expected value" && at_letter {
        format!("expected value {BARE_WORD}")
    } else {
        problem
    }
}

/// Whether the byte serde_json's error `e` names in `text` is an ASCII letter.
fn at_letter(text: &str, e: &serde_json::Error) -> bool {
    let (Some(line), Some(column)) = (e.line().checked_sub(1), e.column().checked_sub(1)) else {
        return false;
    };
    text.split('\n')
        .nth(line)
        .and_then(|l| l.as_bytes().get(column))
        .is_some_and(u8::is_ascii_alphabetic)
}

/// Every number token of the JSON text `text`, in order, as (the RFC 6901 JSON Pointer of the
/// value, the token as written). For what serde_json reads into an `f64` and so cannot show
/// as written: a number past the `f64` range (`1e400`, which it refuses) or past its
/// precision (`12345678901234567890123`, which it rounds). A scan, not a parse: `text` is
/// taken to be JSON (or JSON up to a number serde_json refused); past a syntax error the
/// pointers mean nothing. No recursion (a stack of open brackets), so any depth is safe.
pub fn number_tokens(text: &str) -> Vec<(String, &str)> {
    enum Open {
        /// An object, with the key of the member being read (`None` before its key).
        Object(Option<String>),
        /// An array, with the position of the element being read.
        Array(usize),
    }
    let pointer = |open: &[Open]| {
        let mut p = String::new();
        for o in open {
            match o {
                Open::Object(Some(k)) => {
                    p.push('/');
                    p.push_str(&escape_token(k));
                }
                Open::Object(None) => {}
                Open::Array(i) => {
                    p.push('/');
                    p.push_str(&i.to_string());
                }
            }
        }
        p
    };
    let bytes = text.as_bytes();
    let mut open: Vec<Open> = Vec::new();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => open.push(Open::Object(None)),
            b'[' => open.push(Open::Array(0)),
            b'}' | b']' => {
                open.pop();
            }
            b',' => match open.last_mut() {
                Some(Open::Array(n)) => *n += 1,
                Some(Open::Object(key)) => *key = None,
                None => {}
            },
            b'"' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let end = (i + 1).min(bytes.len());
                if let Some(Open::Object(key @ None)) = open.last_mut() {
                    // A string where a member starts is its key.
                    let raw = &text[start..end];
                    *key = Some(serde_json::from_str(raw).unwrap_or_else(|_| raw.to_string()));
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i + 1 < bytes.len()
                    && matches!(bytes[i + 1], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                {
                    i += 1;
                }
                out.push((pointer(&open), &text[start..=i]));
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// A number of a JSON text that serde_json reads as another value than written: into an
/// `f64` that is not its value (an integer past the 64-bit ones, more significant digits than
/// 17, an underflow to 0). serde_json's `arbitrary_precision` feature would keep the digits,
/// but it changes every `Value` number of the crate and of its dependencies (jsonschema's
/// too), so toolwire does not turn it on: what reads such a number says so, and what would
/// write it back changed refuses ([`refuse_inexact`]).
#[derive(Debug, Clone, PartialEq)]
pub struct InexactNumber<'t> {
    /// RFC 6901 JSON Pointer of the number in the text's value.
    pub pointer: String,
    /// The number as written.
    pub written: &'t str,
    /// The value serde_json reads.
    pub read_as: serde_json::Number,
}

/// The numbers of the JSON text `text` that serde_json reads as another value
/// ([`InexactNumber`]), in order; a number past the `f64` range, which serde_json refuses, is
/// not one of them. Like [`number_tokens`], a scan: past a syntax error the pointers mean
/// nothing.
pub fn inexact_numbers(text: &str) -> Vec<InexactNumber<'_>> {
    if !may_hold_inexact(text) {
        return Vec::new();
    }
    number_tokens(text)
        .into_iter()
        .filter_map(|(pointer, written)| {
            let Ok(Value::Number(read_as)) = serde_json::from_str::<Value>(written) else {
                return None;
            };
            // Integers serde_json keeps (i64, u64) are exact; only its `f64`s can differ. An
            // integer written as one but past the 64-bit ones is read as a float even when the
            // float's shortest spelling is its value (`100000000000000000000000`, read as the
            // float spelled `1e23`, which is 99999999999999991611392): what is judged is that
            // float, so it is not the value written, as for every integer past 2^64.
            // (`-0`, the one other integer read as a float, is spelled back as it was written.)
            let written_as_integer =
                !written.contains(['.', 'e', 'E']) && read_as.as_f64() != Some(0.0);
            (read_as.is_f64() && (written_as_integer || !spells(written, &read_as))).then_some(
                InexactNumber {
                    pointer,
                    written,
                    read_as,
                },
            )
        })
        .collect()
}

/// How to send again `written`, a number [`inexact_numbers`] names read as `read_as`, when it
/// is an integer written in full past the 64-bit ones: in exponent form, which that test reads
/// by its digits, not by its size. The form is its own digits (`1e22` for
/// 10000000000000000000000) where the float read is spelled with them, and the bool is true;
/// else the float's rounded to 15 significant digits, which every float spells back
/// (`1.84467440737096e19` for 18446744073709551617, and for 2^64, whose float's shortest
/// spelling `1.8446744073709552e19` has other digits), cut toward zero where rounding leaves
/// the float range (`1.79769313486231e308` for the largest float written in full), and false.
/// `None` for a number written with a point or an exponent, whose digits are what is not read
/// exactly.
pub(crate) fn exponent_form(written: &str, read_as: &serde_json::Number) -> Option<(String, bool)> {
    if written.contains(['.', 'e', 'E']) {
        return None;
    }
    let own = decimal(written);
    if own == decimal(&read_as.to_string()) {
        return Some((exponent_spelling(&own), true));
    }
    let float = read_as.as_f64()?;
    let mut rounded = decimal(&format!("{float:.14e}"));
    // Rounded up, the largest floats (about 1.8e308) leave the float range, and the form named
    // would be refused as past it: their digits are cut toward zero instead.
    if exponent_spelling(&rounded)
        .parse::<f64>()
        .is_ok_and(f64::is_infinite)
    {
        rounded = decimal(&format!("{float:e}"));
        rounded.1.truncate(15);
        rounded.1.truncate(rounded.1.trim_end_matches('0').len());
    }
    Some((exponent_spelling(&rounded), false))
}

/// A [`decimal`] spelled with one digit before the point and an exponent (`1.5e22`).
fn exponent_spelling((negative, digits, point): &(bool, String, i64)) -> String {
    let (first, rest) = digits.split_at(1.min(digits.len()));
    let sign = if *negative { "-" } else { "" };
    let point_rest = if rest.is_empty() {
        String::new()
    } else {
        format!(".{rest}")
    };
    format!("{sign}{first}{point_rest}e{}", point - 1)
}

/// Whether `text` may hold a number serde_json reads inexactly: one needs at least 16
/// significant digits (16 digits and points in a row) or an exponent of three digits (an
/// underflow or overflow). Most tool files have neither, and are then not scanned pointer by
/// pointer.
///
/// Either needs five bytes in a row of [`in_number`] (16 digits; or a digit, `e`, any signs
/// and three digits), so only such runs are read ([`long_number_in`]); the others are passed
/// over looking at one byte in five: the last of the next five, which ends every run of five
/// that holds it when it is no number byte. A line with a float is read so for every check
/// of a corpus file, where reading each byte cost more than its parse's share.
fn may_hold_inexact(text: &str) -> bool {
    const RUN: usize = 5;
    let bytes = text.as_bytes();
    // The byte before `start` (if any) is no number byte: a run starts at `start` or later.
    let mut start = 0;
    while let Some(&last) = bytes.get(start + RUN - 1) {
        let at = start + RUN - 1;
        if !in_number(last) {
            start = at + 1;
            continue;
        }
        let first = (start..at)
            .rev()
            .take_while(|&i| in_number(bytes[i]))
            .last()
            .unwrap_or(at);
        let end = (at + 1..bytes.len())
            .find(|&i| !in_number(bytes[i]))
            .unwrap_or(bytes.len());
        if end - first >= RUN && long_number_in(&bytes[first..end]) {
            return true;
        }
        start = end + 1;
    }
    false
}

/// A byte a number with many digits or a long exponent is written with.
fn in_number(b: u8) -> bool {
    matches!(b, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
}

/// [`may_hold_inexact`]'s test, byte by byte, on `bytes`: a whole run of [`in_number`]
/// bytes (the bytes on either side of it are none, and so end a run of digits or an exponent
/// as the run's ends do).
fn long_number_in(bytes: &[u8]) -> bool {
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b.is_ascii_digit() || b == b'.' {
            run += 1;
            if run >= 16 {
                return true;
            }
            continue;
        }
        run = 0;
        if matches!(b, b'e' | b'E') && i > 0 && bytes[i - 1].is_ascii_digit() {
            let exponent = bytes[i + 1..]
                .iter()
                .skip_while(|&&c| c == b'+' || c == b'-')
                .take_while(|c| c.is_ascii_digit())
                .count();
            if exponent >= 3 {
                return true;
            }
        }
    }
    false
}

/// An [`InexactNumber`] of a tool file, kept after its text is gone: what `check` says of it
/// (a note, and no finding of its document marked repairable, since `repair` and `compile`
/// refuse to write it rounded).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct InexactNumberAt {
    /// The JSON Lines line (1-based) of the document; `None` for a file of one document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// RFC 6901 JSON Pointer of the number in its document (a JSON Lines line's document).
    pub pointer: String,
    /// The number as written.
    pub written: String,
    /// The value serde_json reads, and every rule judges.
    pub read_as: serde_json::Number,
}

impl InexactNumberAt {
    /// The inexact numbers of the JSON text `text` ([`inexact_numbers`]), as read from JSON
    /// Lines line `line` (`None`: a whole document).
    pub fn all_in(text: &str, line: Option<usize>) -> Vec<InexactNumberAt> {
        inexact_numbers(text)
            .into_iter()
            .map(|n| InexactNumberAt {
                line,
                pointer: n.pointer,
                written: n.written.to_string(),
                read_as: n.read_as,
            })
            .collect()
    }
}

/// Which numbers toolwire reads exactly, for messages about one it does not.
pub const EXACT_NUMBERS: &str = "an integer from -2^63 to 2^64-1 is read exactly, and so is a number of at most 15 significant digits from about 1e-307 to 1e308 in size, one past 2^64 only when written with a point or an exponent, as `1e23`";

/// How every command says that the number written `written` is read as `read_as`; a long
/// one shortened ([`shown_number`]): a bound of a million digits quoted whole made a
/// megabyte note (trial 58 D14).
pub fn read_as_said(written: &str, read_as: &serde_json::Number) -> String {
    format!(
        "the number {} is read as {read_as} (toolwire reads JSON numbers as 64-bit integers \
         and floats)",
        shown_number(written)
    )
}

/// Refuses to write anew the JSON text `text` (of `file`, or of its JSON Lines line `line`)
/// when it holds, at or under one of the JSON Pointers `written`, a number serde_json reads as
/// another value ([`inexact_numbers`]): the output would hold the rounded value
/// (`18446744073709551616` written as `1.8446744073709552e19`). `command` names what would
/// write it (`repair`, `compile`).
///
/// Errors: an [`Error::Input`] at the first such number, naming it and the value it would
/// become, and naming the others (up to [`OTHERS_NAMED`], then how many more): a user who
/// fixes the one named must not meet the next on every run.
pub fn refuse_inexact(
    file: &Path,
    line: Option<usize>,
    text: &str,
    written: &[&str],
    command: &str,
) -> Result<()> {
    let under = |p: &str| {
        written.iter().any(|w| {
            p.strip_prefix(w)
                .is_some_and(|r| r.is_empty() || r.starts_with('/'))
        })
    };
    let mut found = inexact_numbers(text)
        .into_iter()
        .filter(|n| under(&n.pointer));
    let Some(first) = found.next() else {
        return Ok(());
    };
    let others: Vec<InexactNumber<'_>> = found.collect();
    let mut problem = format!(
        "{}, and {command} would write it so",
        read_as_said(first.written, &first.read_as)
    );
    if !others.is_empty() {
        let named: Vec<String> = others
            .iter()
            .take(OTHERS_NAMED)
            .map(|n| {
                let written = shown_number(n.written);
                format!("{written} at {} (read as {})", n.pointer, n.read_as)
            })
            .collect();
        problem.push_str(&format!(
            "; it would also rewrite {} other number{}: {}",
            others.len(),
            if others.len() == 1 { "" } else { "s" },
            named.join(", ")
        ));
        if let Some(more) = others.len().checked_sub(OTHERS_NAMED).filter(|&m| m > 0) {
            problem.push_str(&format!(" and {more} more"));
        }
    }
    let place = match line {
        Some(line) => Place::LinePointer {
            line,
            pointer: first.pointer,
        },
        None => Place::Pointer(first.pointer),
    };
    Err(Error::input(
        file,
        place,
        format!("{problem}; nothing was written ({EXACT_NUMBERS})"),
    ))
}

/// How many inexact numbers besides the first [`refuse_inexact`] names before it says how
/// many more there are: a file of generated numbers must not turn one error into a screenful.
const OTHERS_NAMED: usize = 10;

/// How a JSON text spells its floats, so that a document written anew from its value keeps
/// each number as the user wrote it: serde_json reads `-0`, `0.0`, `1e2`, `1E-7` into `f64`s
/// and writes them back as `-0.0`, `0.0`, `100.0`, `1e-7`. Keyed by the float's bits (so `-0`
/// and `0.0` stay apart); only numbers read exactly count (an inexact one is refused by
/// [`refuse_inexact`] before anything is written). A value spelled two ways in the text
/// (`100.0` and `1e2`) keeps serde_json's spelling: which one was meant cannot be told.
/// Integers need no entry: serde_json reads and writes them digit for digit.
pub struct Spellings<'t> {
    /// Float bits → the one token that reads as them (`None`: spelled more than one way).
    by_bits: std::collections::HashMap<u64, Option<&'t str>>,
}

impl<'t> Spellings<'t> {
    /// The spellings of the floats of the JSON text `text` (a scan, as [`number_tokens`]).
    pub fn of(text: &'t str) -> Self {
        Self::read(text, false)
    }

    /// [`Spellings::of`] with the numbers read as another value ([`inexact_numbers`]) too,
    /// for a value written whole where one may stand (the arguments `args` passes: one that
    /// nothing judges by the digits its float does not hold must reach the tool as sent).
    pub fn of_all(text: &'t str) -> Self {
        Self::read(text, true)
    }

    fn read(text: &'t str, inexact: bool) -> Self {
        let mut by_bits = std::collections::HashMap::new();
        for (_, token) in number_tokens(text) {
            let Ok(Value::Number(n)) = serde_json::from_str::<Value>(token) else {
                continue;
            };
            let Some(x) = n.as_f64().filter(|_| n.is_f64()) else {
                continue;
            };
            if !inexact && !spells(token, &n) {
                continue;
            }
            by_bits
                .entry(x.to_bits())
                .and_modify(|t: &mut Option<&str>| {
                    if *t != Some(token) {
                        *t = None;
                    }
                })
                .or_insert(Some(token));
        }
        Spellings { by_bits }
    }

    /// `written`, JSON text serde_json wrote, with each float spelled as in the text these
    /// spellings were read from, where that text spells its value one way. serde_json writes
    /// every float with a `.` or an exponent and every integer without, so an integer is never
    /// taken for a float.
    pub fn respell(&self, written: &str) -> String {
        if self.by_bits.is_empty() {
            return written.to_string();
        }
        let mut out = String::with_capacity(written.len());
        let mut from = 0;
        for (_, token) in number_tokens(written) {
            if !token.contains(['.', 'e', 'E']) {
                continue;
            }
            let Some(Some(spelled)) = token
                .parse::<f64>()
                .ok()
                .and_then(|x| self.by_bits.get(&x.to_bits()))
            else {
                continue;
            };
            // The token is a slice of `written`: its offset is where it starts.
            let start = token.as_ptr() as usize - written.as_ptr() as usize;
            out.push_str(&written[from..start]);
            out.push_str(spelled);
            from = start + token.len();
        }
        out.push_str(&written[from..]);
        out
    }
}

/// Whether the JSON number token `token` has the value of the float `read` it is read as:
/// its digits are the float's shortest spelling (`0.1`, which JSON readers take for the float
/// nearest it), or the float's exact value (`0.1000000000000000055511151231257827021181583404541015625`,
/// the value of that same float: trial 59 D15 called it read as another value).
fn spells(token: &str, read: &serde_json::Number) -> bool {
    let written = decimal(token);
    written == decimal(&read.to_string())
        || read.as_f64().is_some_and(|f| written == exact_decimal(f))
}

/// The exact value of the finite float `f` as a [`decimal`]: every float is m × 2^e for
/// integers m and e, so a finite decimal, m × 5^-e / 10^-e where e < 0 (at most 767
/// significant digits, for the smallest subnormals).
fn exact_decimal(f: f64) -> (bool, String, i64) {
    if f == 0.0 || !f.is_finite() {
        return (false, String::new(), 0);
    }
    let bits = f.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (mut m, mut e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    };
    let zeros = m.trailing_zeros();
    m >>= zeros;
    e += i64::from(zeros);
    // Little-endian limbs of nine decimal digits.
    const LIMB: u64 = 1_000_000_000;
    let mut limbs = vec![m % LIMB, m / LIMB % LIMB, m / LIMB / LIMB];
    let times = |limbs: &mut Vec<u64>, factor: u64| {
        let mut carry = 0;
        for l in limbs.iter_mut() {
            let v = *l * factor + carry;
            *l = v % LIMB;
            carry = v / LIMB;
        }
        while carry > 0 {
            limbs.push(carry % LIMB);
            carry /= LIMB;
        }
    };
    // 2^29 and 5^12 keep a limb's product under 2^64.
    let (base, chunk, factor) = if e >= 0 { (2u64, 29, e) } else { (5, 12, -e) };
    let mut left = factor;
    while left > 0 {
        let step = left.min(chunk);
        times(&mut limbs, base.pow(step as u32));
        left -= step;
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut digits = limbs.last().map_or(String::new(), u64::to_string);
    for l in limbs.iter().rev().skip(1) {
        digits.push_str(&format!("{l:09}"));
    }
    // The integer is the value × 10^(fraction digits): -e of them where e < 0.
    let point = digits.len() as i64 - if e < 0 { -e } else { 0 };
    digits.truncate(digits.trim_end_matches('0').len());
    (f < 0.0, digits, point)
}

/// A JSON number token as (negative, significant digits, exponent) with the value
/// 0.DIGITS × 10^exponent, so that two spellings of one value compare equal (`1e2`, `100`,
/// `100.0`); zero is `(false, "", 0)` whatever its sign.
fn decimal(token: &str) -> (bool, String, i64) {
    let (negative, rest) = match token.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, token),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().unwrap_or(0)),
        None => (rest, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let leading = digits.len() - digits.trim_start_matches('0').len();
    let significant = digits
        .trim_start_matches('0')
        .trim_end_matches('0')
        .to_string();
    if significant.is_empty() {
        return (false, String::new(), 0);
    }
    let point = int.len() as i64 - leading as i64 + exponent;
    (negative, significant, point)
}

/// Escapes one reference token for an RFC 6901 JSON Pointer (`~` → `~0`, `/` → `~1`).
pub fn escape_token(token: &str) -> String {
    if token.contains(['~', '/']) {
        token.replace('~', "~0").replace('/', "~1")
    } else {
        token.to_string()
    }
}

/// The value at RFC 6901 JSON Pointer `pointer` in `root`, as `serde_json::Value::pointer`
/// finds it, without its two allocations per token (it unescapes every token with
/// `str::replace`): this runs for many findings of a check. `None` for a pointer that does
/// not start with `/` (but the empty one) or leads nowhere.
pub fn at_pointer<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/').try_fold(root, at_token)
}

/// The member or element of `v` that one JSON Pointer token names (`token` as written in the
/// pointer, `~1` and `~0` escaped): an object's member, or an array's element at a position
/// written as RFC 6901 and serde_json write it (digits only, no leading zero but "0").
pub fn at_token<'v>(v: &'v Value, token: &str) -> Option<&'v Value> {
    if token.contains('~') {
        child(v, &token.replace("~1", "/").replace("~0", "~"))
    } else {
        child(v, token)
    }
}

/// [`at_token`] for a token already unescaped (`name`: a member's name as the object holds
/// it, or an array position), for a caller that walks down a value step by step.
pub fn child<'v>(v: &'v Value, name: &str) -> Option<&'v Value> {
    #[cfg(test)]
    TOKENS_READ.with(|c| c.set(c.get() + 1));
    match v {
        Value::Object(m) => m.get(name),
        Value::Array(a) => {
            if name.is_empty()
                || (name.len() > 1 && name.starts_with('0'))
                || !name.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            a.get(name.parse::<usize>().ok()?)
        }
        _ => None,
    }
}

#[cfg(test)]
thread_local! {
    /// The JSON Pointer tokens [`child`] has resolved on this thread: what a walk costs, for
    /// the tests that pin it.
    pub static TOKENS_READ: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Appends `token` to `pointer` as one escaped reference token.
pub fn push_token(pointer: &str, token: &str) -> String {
    let mut p = String::with_capacity(pointer.len() + token.len() + 1);
    p.push_str(pointer);
    append_token(&mut p, token);
    p
}

/// Appends `/` and `token`, escaped as RFC 6901 says, to the JSON Pointer `pointer` in
/// place: a walk that keeps one pointer for the path it is on writes each step with this and
/// truncates it again. A token with nothing to escape (nearly every one) is copied as it is.
pub fn append_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    if token.contains(['~', '/']) {
        pointer.push_str(&escape_token(token));
    } else {
        pointer.push_str(token);
    }
}

/// The JSON Pointer of the first array or object (in document order) that nests deeper than
/// `max_depth`, counting brackets as [`nesting_exceeds`] does (`{}` is 1 level, `[{}]` 2), or
/// `None` when `value` is within the cap. Iterative: safe on a value of any depth, so every
/// entry point that takes a caller's [`Value`] measures it with this before any recursive step.
pub fn first_too_deep(value: &Value, max_depth: usize) -> Option<String> {
    enum Children<'a> {
        Array(std::iter::Enumerate<std::slice::Iter<'a, Value>>),
        Object(serde_json::map::Iter<'a>),
    }
    enum Token<'a> {
        Index(usize),
        Key(&'a str),
    }
    fn children(v: &Value) -> Option<Children<'_>> {
        match v {
            Value::Array(a) => Some(Children::Array(a.iter().enumerate())),
            Value::Object(o) => Some(Children::Object(o.iter())),
            _ => None,
        }
    }
    let root = children(value)?;
    if max_depth == 0 {
        return Some(String::new());
    }
    // `path[i]` is the token of the container open at `stack[i + 1]` (the root has none).
    let mut stack = vec![root];
    let mut path: Vec<Token<'_>> = Vec::new();
    while let Some(top) = stack.last_mut() {
        let next = match top {
            Children::Array(it) => it.next().map(|(i, c)| (Token::Index(i), c)),
            Children::Object(it) => it.next().map(|(k, c)| (Token::Key(k.as_str()), c)),
        };
        let Some((token, child)) = next else {
            stack.pop();
            path.pop();
            continue;
        };
        let Some(grandchildren) = children(child) else {
            continue;
        };
        path.push(token);
        if stack.len() + 1 > max_depth {
            let mut pointer = String::new();
            for t in &path {
                pointer = match t {
                    Token::Index(i) => push_token(&pointer, &i.to_string()),
                    Token::Key(k) => push_token(&pointer, k),
                };
            }
            return Some(pointer);
        }
        stack.push(grandchildren);
    }
    None
}

/// The problem text for a value that nests deeper than `max_depth` (the words a file's
/// nesting error uses, [`parse_str`]).
pub fn too_deep_problem(max_depth: usize) -> String {
    format!("nesting deeper than {max_depth} levels")
}

/// Drops `value` without recursion: serde_json's own drop recurses once per level, so a
/// value refused for its depth is taken apart here instead of overflowing the stack.
pub fn drop_deep(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => stack.extend(o.into_iter().map(|(_, c)| c)),
            _ => {}
        }
    }
}

/// 64 MiB: a stack for work whose recursion follows a value's nesting up to the cap
/// [`crate::input::LIMITS`] sets (512 levels), at four times the worst cost measured per
/// level (the `jsonschema` crate's ~14 KB in a debug build, see `crate::args`). Reserved, not
/// committed: only the pages used are touched.
pub const DEEP_STACK: usize = 64 << 20;

/// Runs `f` on a scoped thread with a [`DEEP_STACK`] stack, so that recursion bounded by the
/// nesting cap fits whatever stack the caller has (a spawned thread's or tokio worker's
/// 2 MiB, where a debug build overflows at a few hundred levels). Runs `f` on the caller's
/// stack when no thread can be started; a panic in `f` is resumed in the caller.
pub fn on_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let mut f = Some(f);
    let out = std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("toolwire-deep".into())
            .stack_size(DEEP_STACK)
            .spawn_scoped(scope, || f.take().map(|f| f()));
        match spawned {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => None,
        }
    });
    match (out, f) {
        (Some(out), _) => out,
        (None, Some(f)) => f(),
        (None, None) => unreachable!("the thread ran `f` and returned its value"),
    }
}

/// Depth of nesting of a parsed value (a scalar is 0, `{}` is 1).
pub fn value_depth(value: &Value) -> usize {
    // Iterative so that it is safe on any value we ever built.
    let mut max = 0;
    let mut stack = vec![(value, 0usize)];
    while let Some((v, d)) = stack.pop() {
        match v {
            Value::Array(a) => {
                max = max.max(d + 1);
                stack.extend(a.iter().map(|c| (c, d + 1)));
            }
            Value::Object(o) => {
                max = max.max(d + 1);
                stack.extend(o.values().map(|c| (c, d + 1)));
            }
            _ => {}
        }
    }
    max
}

/// How many JSON values `value` holds, itself included (`{"a": [1]}` holds 3): the measure
/// of a schema's size that repair's work cap counts in.
pub fn value_count(value: &Value) -> usize {
    // Iterative so that it is safe on any value we ever built.
    let mut n = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        n += 1;
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    n
}

/// The sum over the JSON values `value` holds of their depth (itself at 1: `{"a": [1]}` sums
/// 1 + 2 + 3 = 6): the work of reading every value with its JSON Pointer, which a check does
/// for each finding, so a deep schema costs more than its value count says.
pub fn depth_sum(value: &Value) -> usize {
    // Iterative so that it is safe on any value we ever built.
    let mut n = 0usize;
    let mut stack = vec![(value, 1usize)];
    while let Some((v, d)) = stack.pop() {
        n = n.saturating_add(d);
        match v {
            Value::Array(a) => stack.extend(a.iter().map(|c| (c, d + 1))),
            Value::Object(o) => stack.extend(o.values().map(|c| (c, d + 1))),
            _ => {}
        }
    }
    n
}

/// The JSON type of a value, as JSON Schema names it (`null`, `boolean`, `number`, `string`,
/// `array`, `object`), for messages.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether `schema`'s `type` (a name or a list of names) rules `v` out, so that an `enum`
/// member `v` beside it can never match: such a member is dead, and dropping it loses
/// nothing. False when there is no `type` or it names a type JSON Schema does not know
/// (`STRING`, `str`: read elsewhere), since then nothing here says what it admits; and for
/// null beside OpenAPI's `nullable: true`, which admits it whatever `type` says.
pub fn type_excludes(schema: &serde_json::Map<String, Value>, v: &Value) -> bool {
    if v.is_null() && schema.get("nullable") == Some(&Value::Bool(true)) {
        return false;
    }
    let names: Vec<&Value> = match schema.get("type") {
        Some(t @ Value::String(_)) => vec![t],
        Some(Value::Array(ts)) if !ts.is_empty() => ts.iter().collect(),
        _ => return false,
    };
    let mut admits = false;
    for name in names {
        let ok = match name.as_str() {
            // JSON Schema's `integer` admits any number with no fraction (`1.0` too).
            Some("integer") => v.as_f64().is_some_and(|f| f.fract() == 0.0),
            Some(n @ ("null" | "boolean" | "number" | "string" | "array" | "object")) => {
                n == kind(v)
            }
            _ => return false,
        };
        admits |= ok;
    }
    !admits
}

/// The `enum` members of schema `map` its `type` lets match, when it rules some out and some
/// remain (`None` otherwise: with none left the schema admits nothing, which dropping members
/// would hide). What `repair` keeps of an `enum` with dead members.
pub fn live_enum_members(map: &serde_json::Map<String, Value>) -> Option<Vec<Value>> {
    let members = map.get("enum")?.as_array()?;
    let dead = |v: &Value| type_excludes(map, v);
    let live: Vec<Value> = members.iter().filter(|v| !dead(v)).cloned().collect();
    (live.len() < members.len() && !live.is_empty()).then_some(live)
}

/// `value` read into `T`; an error comes with the JSON Pointer of the field it is about (empty
/// at the top level), since serde's message names only the type it expected, which a file
/// with many fields of that type leaves the reader to guess.
pub(crate) fn from_value_at<T: serde::de::DeserializeOwned>(
    value: Value,
) -> std::result::Result<T, (String, serde_json::Error)> {
    serde_path_to_error::deserialize(value).map_err(|e| (pointer_of(e.path()), e.into_inner()))
}

/// The RFC 6901 JSON Pointer of a serde path (`instances[0].args` → `/instances/0/args`); an
/// untracked step ends it where it was lost.
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => pointer = push_token(&pointer, &index.to_string()),
            Segment::Map { key } => pointer = push_token(&pointer, key),
            Segment::Enum { variant } => pointer = push_token(&pointer, variant),
            Segment::Unknown => break,
        }
    }
    pointer
}

#[cfg(test)]
mod tests {
    #[test]
    fn at_pointer_finds_what_serde_json_finds() {
        let v: serde_json::Value = serde_json::json!({"a": {"b/c": [1, {"~d": 2}]}, "": 3, "0": 4});
        for p in [
            "",
            "/a",
            "/a/b~1c",
            "/a/b~1c/0",
            "/a/b~1c/1/~0d",
            "/a/b~1c/01",
            "/a/b~1c/2",
            "/a/b~1c/-",
            "/",
            "/0",
            "a",
            "/a/x",
            "/a/b~1c/1/~0d/x",
            "/a/b~1c/+1",
        ] {
            assert_eq!(super::at_pointer(&v, p), v.pointer(p), "{p:?}");
        }
    }

    use super::*;
    use serde_json::json;

    /// A member is dead only where a known `type` leaves out its kind: `integer` keeps `1.0`,
    /// `number` keeps integers, `nullable: true` keeps null, and a missing, empty or unknown
    /// `type` rules nothing out.
    #[test]
    fn type_excludes_only_kinds_a_known_type_leaves_out() {
        let dead = |schema: Value, v: Value| type_excludes(schema.as_object().unwrap(), &v);
        assert!(dead(json!({"type": "string"}), json!(null)));
        assert!(dead(json!({"type": ["string", "integer"]}), json!(null)));
        assert!(dead(json!({"type": "string"}), json!(1)));
        assert!(dead(json!({"type": "integer"}), json!(1.5)));
        assert!(!dead(json!({"type": "integer"}), json!(1.0)));
        assert!(!dead(json!({"type": "number"}), json!(3)));
        assert!(!dead(json!({"type": ["string", "null"]}), json!(null)));
        assert!(!dead(json!({"type": "string"}), json!("a")));
        assert!(!dead(json!({}), json!(null)));
        assert!(!dead(json!({"type": []}), json!(null)));
        assert!(!dead(json!({"type": "STRING"}), json!(null)));
        assert!(!dead(json!({"type": ["string", "str"]}), json!(null)));
        assert!(!dead(
            json!({"type": "string", "nullable": true}),
            json!(null)
        ));
        assert!(dead(json!({"type": "string", "nullable": true}), json!(1)));
    }

    /// Only a number at or under a part written stops the write (`/a/bc` is not under `/a/b`),
    /// and 64-bit integers and exact floats never do.
    #[test]
    fn an_inexact_number_stops_only_the_parts_written() {
        let text = r#"{"a": {"bc": 123456789012345678901, "b": 1}, "c": [1e2, 9007199254740993]}"#;
        let file = Path::new("t.json");
        assert!(refuse_inexact(file, None, text, &["/a/b", "/c"], "compile").is_ok());
        let err = refuse_inexact(file, Some(3), text, &["/a"], "repair").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("t.json: line 3, at /a/bc: the number 123456789012345678901 is read as 1.2345678901234568e+20"),
            "{err}"
        );
        assert!(refuse_inexact(file, None, text, &[""], "repair").is_err());
    }

    /// Every inexact number of the parts written is named, the first as the error's place;
    /// past [`OTHERS_NAMED`] others, how many more.
    /// An integer past 2^64 is read as a float whatever its digits, also one whose float is
    /// spelled back with the same value (`1e23`): it is named, and so refused by repair and
    /// a `number-precision` problem of a call, as the README says of every such integer. The
    /// same value written as `1e23` is a decimal the float spells back, and is not.
    #[test]
    fn an_integer_past_the_64_bit_ones_is_named_whatever_its_float() {
        let named: Vec<&str> = inexact_numbers(
            r#"{"a": 100000000000000000000000, "b": 1e23, "c": 18446744073709551615}"#,
        )
        .into_iter()
        .map(|n| n.written)
        .collect();
        assert_eq!(named, ["100000000000000000000000"]);
    }

    #[test]
    fn every_inexact_number_is_named() {
        let text = r#"{"a": 1e-400, "b": [1, 18446744073709551616], "c": 0.10000000000000000001}"#;
        let err = refuse_inexact(Path::new("t.json"), None, text, &[""], "repair")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("t.json: at /a: the number 1e-400 is read as 0.0"),
            "{err}"
        );
        assert!(
            err.contains(
                "and repair would write it so; it would also rewrite 2 other numbers: \
                 18446744073709551616 at /b/1 (read as 1.8446744073709552e+19), \
                 0.10000000000000000001 at /c (read as 0.1); nothing was written"
            ),
            "{err}"
        );
        let many: Vec<String> = (0..13).map(|i| format!("1e-40{i}")).collect();
        let text = format!("[{}]", many.join(", "));
        let err = refuse_inexact(Path::new("t.json"), Some(2), &text, &[""], "compile")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("t.json: line 2, at /0: the number 1e-400"),
            "{err}"
        );
        assert!(
            err.contains("it would also rewrite 12 other numbers: 1e-401 at /1"),
            "{err}"
        );
        assert!(
            err.contains("1e-4010 at /10 (read as 0.0) and 2 more;"),
            "{err}"
        );
        assert!(!err.contains("/11"), "{err}");
    }

    /// Floats come back as written where the text spells their value one way; integers,
    /// numbers in strings and a value spelled two ways are left as serde_json writes them.
    #[test]
    fn floats_are_written_as_the_text_spells_them() {
        let text = r#"{"a": -0, "b": 0.0, "c": 1.0, "d": 1e2, "e": 1E-7, "f": 9007199254740993, "g": 2.50}"#;
        let value: Value = serde_json::from_str(text).unwrap();
        let spellings = Spellings::of(text);
        assert_eq!(
            spellings.respell(&value.to_string()),
            text.replace(": ", ":").replace(", ", ",")
        );
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        assert!(
            spellings.respell(&pretty).contains("\"d\": 1e2,\n"),
            "{pretty}"
        );
        // `100` is an integer, not the float `1e2`; "1.0" in a string is no number.
        let other = r#"{"x":100,"y":"1.0","z":[-0.0,100.0]}"#;
        assert_eq!(
            spellings.respell(other),
            r#"{"x":100,"y":"1.0","z":[-0,1e2]}"#
        );
        let twice = r#"{"a": 1e2, "b": 100.0}"#;
        let value: Value = serde_json::from_str(twice).unwrap();
        assert_eq!(
            Spellings::of(twice).respell(&value.to_string()),
            r#"{"a":100.0,"b":100.0}"#
        );
    }

    /// A decimal that is a float's exact value is read as itself, however many digits it has
    /// (trial 59 D15: `0.1000000000000000055511151231257827021181583404541015625`, the value
    /// of the float `0.1`, was called read as another value); one digit off, it is not.
    #[test]
    fn a_float_written_as_its_exact_value_is_read_exactly() {
        for exact in [
            "0.1000000000000000055511151231257827021181583404541015625",
            "-0.1000000000000000055511151231257827021181583404541015625",
            "1000000000000000055511151231257827021181583404541015625e-55",
            "0.3000000000000000444089209850062616169452667236328125",
            "0.299999999999999988897769753748434595763683319091796875",
            "8.67361737988403547205962240695953369140625e-19",
            "295147905179352825856.0",
        ] {
            let text = format!("[{exact}]");
            assert!(inexact_numbers(&text).is_empty(), "{exact}");
        }
        for off in [
            "0.1000000000000000055511151231257827021181583404541015624",
            "0.10000000000000000555111512312578270211815834045410156250001",
            "8.67361737988403547205962240695953369140626e-19",
            "9007199254740993.0",
            "295147905179352825857.0",
        ] {
            let text = format!("[{off}]");
            assert_eq!(inexact_numbers(&text).len(), 1, "{off}");
        }
        // The exact value's digits, as `decimal` writes a token.
        assert_eq!(exact_decimal(0.5), decimal("0.5"));
        assert_eq!(exact_decimal(-3.0), decimal("-3"));
        assert_eq!(
            exact_decimal(2f64.powi(70)),
            decimal("1180591620717411303424")
        );
        assert_eq!(exact_decimal(0.0), decimal("0"));
        // The smallest float: 2^-1074, 751 significant digits, the last at 10^-1074.
        let (_, digits, point) = exact_decimal(f64::from_bits(1));
        assert_eq!((digits.len(), point), (751, -323));
        assert!(digits.starts_with("4940656458412465441765687928682213723650598026143247"));
        assert!(digits.ends_with("265533447265625"));
    }

    /// The pre-scan lets through every number that can be read inexactly (16 significant
    /// digits, however the point splits them; a three-digit exponent) and passes over text
    /// without one.
    #[test]
    fn only_long_numbers_and_big_exponents_are_scanned() {
        for text in [
            "[12345678.123456789]",
            "[1e-400]",
            "[1E-400]",
            "[18446744073709551617]",
        ] {
            assert!(may_hold_inexact(text), "{text}");
            assert_eq!(inexact_numbers(text).len(), 1, "{text}");
        }
        for text in [
            r#"{"e": 1e2, "x": 123456789012345, "type": "number"}"#,
            "[1.5e-7]",
        ] {
            assert!(!may_hold_inexact(text), "{text}");
        }
        // The scan that skips reads the same as one reading every byte of the text
        // (`long_number_in` on the whole text), wherever a run starts or ends.
        let pieces = [
            "1",
            "0",
            "9",
            ".",
            "e",
            "E",
            "+",
            "-",
            "12345678",
            "1e",
            "e-4",
            "00",
            "\"",
            " ",
            "x",
            ",",
            "é",
            "[",
            "1.5e-7",
            "123456789012345",
        ];
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let mut long = 0;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..next() % 16 + 1 {
                text.push_str(pieces[next() % pieces.len()]);
            }
            long += usize::from(long_number_in(text.as_bytes()));
            assert_eq!(
                may_hold_inexact(&text),
                long_number_in(text.as_bytes()),
                "{text:?}"
            );
        }
        // Both answers are met often.
        assert!((2_000..18_000).contains(&long), "{long}");
        assert_eq!(
            InexactNumberAt::all_in(r#"{"m": 1e-400}"#, Some(4)),
            vec![InexactNumberAt {
                line: Some(4),
                pointer: "/m".into(),
                written: "1e-400".into(),
                read_as: serde_json::Number::from_f64(0.0).unwrap(),
            }]
        );
    }

    /// A number past the `f64` range is named as written, wherever it is.
    #[test]
    fn a_number_out_of_range_is_named() {
        assert_eq!(
            problem("{\"a\": [1, -2E+400]}"),
            format!("the number -2E+400{OUT_OF_RANGE}")
        );
        // One of a million digits was quoted whole: a megabyte error line (trial 56 D3).
        let long = format!("[{}]", "9".repeat(1_000_000));
        assert_eq!(
            problem(&long),
            format!(
                "the number {}...{} (1000000 digits){OUT_OF_RANGE}",
                "9".repeat(24),
                "9".repeat(12)
            )
        );
        let sixty = format!("1.{}e400", "0".repeat(54));
        assert_eq!(problem(&sixty), format!("the number {sixty}{OUT_OF_RANGE}"));
        assert!(
            problem(&format!("-1.{}e400", "5".repeat(100))).contains(
                "the number -1.555555555555555555555...55555555e400 (104 digits) is past"
            )
        );
    }

    fn problem(text: &str) -> String {
        match parse_str(Path::new("f.json"), text, Limits::default(), 0) {
            Err(Error::Input { problem, .. }) => problem,
            other => panic!("{text}: {other:?}"),
        }
    }

    /// A file of only white space is not called empty; an empty one is.
    #[test]
    fn whitespace_only_is_told_from_empty() {
        assert_eq!(problem(""), "empty file");
        assert_eq!(problem(" \n\t"), "no JSON in it: only whitespace");
        assert_eq!(problem("\u{feff}"), "empty file");
    }

    /// Half a surrogate pair is named as such, whichever of serde_json's two words it comes
    /// with (before: "unexpected end of hex escape"); other escape errors keep serde_json's.
    #[test]
    fn a_lone_surrogate_is_named() {
        for (text, escape) in [
            (r#"{"q": "\ud800"}"#, r"\ud800"),
            (r#"{"q": "\uDBFFx"}"#, r"\uDBFF"),
            (r#"{"q": "\udc00"}"#, r"\udc00"),
            (r#"{"q": "é\ud800\u0041"}"#, r"\ud800"),
            ("{\n\"q\": \"\\ud800\"}", r"\ud800"),
        ] {
            let p = problem(text);
            assert!(
                p.starts_with(&format!(
                    "a lone surrogate `{escape}`: half of a UTF-16 pair"
                )),
                "{text}: {p}"
            );
        }
        assert_eq!(problem(r#"{"q": "\u12"}"#), "invalid escape");
        // An escaped backslash before `u` is no escape.
        assert!(!problem(r#"{"q": "\\ud800\x"}"#).contains("surrogate"));
    }

    /// Numbers are found with their pointers through objects, arrays, keys that need
    /// escaping and strings holding digits, brackets, commas and escaped quotes.
    #[test]
    fn number_tokens_come_with_their_pointers() {
        let text = r#"{"a": [1, -2.5e3, {"b\"c": 3}], "s": "4, [5]: {\"6\"}", "d/e~": {"f": [[7], 8]}, "g": 9E+2}"#;
        let found = number_tokens(text);
        let expected = [
            ("/a/0", "1"),
            ("/a/1", "-2.5e3"),
            ("/a/2/b\"c", "3"),
            ("/d~1e~0/f/0/0", "7"),
            ("/d~1e~0/f/1", "8"),
            ("/g", "9E+2"),
        ];
        let found: Vec<(&str, &str)> = found.iter().map(|(p, n)| (p.as_str(), *n)).collect();
        assert_eq!(found, expected);
        // Every pointer resolves to the number it names.
        let value: Value = serde_json::from_str(text).unwrap();
        for (p, n) in expected {
            assert_eq!(
                value.pointer(p),
                Some(&serde_json::from_str::<Value>(n).unwrap()),
                "{p}"
            );
        }
        assert_eq!(number_tokens("12"), [(String::new(), "12")]);
        // Cut short: no panic, what was read is kept.
        assert_eq!(number_tokens(r#"{"a": 1, "b": "\"#).len(), 1);
    }

    #[test]
    fn first_too_deep_counts_brackets_as_the_file_cap_does() {
        for (text, cap) in [
            ("[[1]]", 1),
            ("[[1]]", 2),
            ("{\"a\": [{}, {\"b\": [[]]}]}", 3),
            ("{\"a\": [{}, {\"b\": [[]]}]}", 4),
            ("{\"a/b\": {\"~\": {}}}", 2),
            ("1", 0),
            ("{}", 0),
        ] {
            let v: Value = serde_json::from_str(text).unwrap();
            let found = first_too_deep(&v, cap);
            assert_eq!(
                found.is_some(),
                nesting_exceeds(text.as_bytes(), cap).is_some()
            );
            if let Some(p) = &found {
                // The pointer names the first container past the cap.
                let at = v.pointer(p).unwrap();
                assert!(at.is_array() || at.is_object(), "{text} {p}");
            }
        }
        let v: Value = serde_json::from_str("{\"a/b\": {\"~\": {}}}").unwrap();
        assert_eq!(first_too_deep(&v, 2).as_deref(), Some("/a~1b/~0"));
        let v: Value = serde_json::from_str("[1, [2, [3]]]").unwrap();
        assert_eq!(first_too_deep(&v, 2).as_deref(), Some("/1/1"));
        drop_deep(v);
    }

    #[test]
    fn deep_nesting_is_an_error_with_a_place() {
        let text = "[".repeat(10_000);
        let err = parse_str(Path::new("deep.json"), &text, Limits::default(), 0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "deep.json: line 1, column 513: nesting deeper than 512 levels"
        );
    }

    #[test]
    fn brackets_inside_strings_do_not_count() {
        let text = format!("{{\"a\":\"{}\"}}", "[".repeat(1000));
        assert!(parse_str(Path::new("s.json"), &text, Limits::default(), 0).is_ok());
    }

    /// serde_json's "expected ident" names no JSON term; a misspelt literal is said as such.
    #[test]
    fn a_bare_word_is_said_in_json_terms() {
        let err = parse_str(Path::new("x.json"), "{\"a\": tru}", Limits::default(), 0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.json: line 1, column 10: expected `true`, `false` or `null` (a bare word is not \
             JSON: strings are quoted)"
        );
    }

    #[test]
    fn syntax_error_names_line_and_column() {
        let err = parse_str(
            Path::new("x.json"),
            "{\n  \"a\": ,\n}",
            Limits::default(),
            0,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "x.json: line 2, column 8: expected value");
    }

    /// serde_json counts a column in bytes; toolwire's columns (SARIF's `unicodeCodePoints`,
    /// a finding's column) count code points, and a parse error's does too (before: column
    /// 34 for the `x` after `"héllo wörld", `, the 32nd character). A character serde_json
    /// stops inside is at its own column; a JSON Lines line keeps its line number.
    #[test]
    fn a_syntax_error_column_counts_code_points() {
        let err = |text: &str, offset: usize| {
            parse_str(Path::new("x.json"), text, Limits::default(), offset)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("{\"description\": \"héllo wörld\", x}", 0),
            "x.json: line 1, column 32: key must be a string"
        );
        assert_eq!(
            err("[1,\n\"ü\" x]", 3),
            "x.json: line 5, column 5: expected `,` or `]`"
        );
        assert_eq!(
            err("{\"a\": é}", 0),
            "x.json: line 1, column 7: expected value"
        );
        assert_eq!(code_point_column("aé", 1, 0), 0);
        assert_eq!(code_point_column("aé", 1, 4), 3);
        assert_eq!(code_point_column("aé", 2, 9), 9);
    }

    /// serde_json places the end of the input at the last character (`column 11`), or at
    /// `column 0` of a line past the text after a final line break; both are the place after
    /// the last character written.
    #[test]
    fn the_end_of_the_input_is_placed_after_its_last_character() {
        let err = |text: &str, offset: usize| {
            parse_str(Path::new("x.json"), text, Limits::default(), offset)
                .unwrap_err()
                .to_string()
        };
        let cut = "x.json: line 1, column 12: EOF while parsing a list";
        assert_eq!(err("{\"tools\": [", 0), cut);
        assert_eq!(err("{\"tools\": [\n", 0), cut);
        assert_eq!(err("{\"tools\": [\r\n\n  \n", 0), cut);
        // Code points, not bytes; and the line of a JSON Lines line is shifted.
        assert_eq!(
            err("[\n  \"é\",", 4),
            "x.json: line 6, column 7: EOF while parsing a value"
        );
        // Not at the end: serde_json's own place.
        assert_eq!(
            err("[1,\n 2 x]", 0),
            "x.json: line 2, column 4: expected `,` or `]`"
        );
    }

    #[test]
    fn key_order_is_preserved() {
        let v = parse_str(
            Path::new("o.json"),
            r#"{"z":1,"a":2,"m":3}"#,
            Limits::default(),
            0,
        )
        .unwrap();
        let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["z", "a", "m"]);
    }

    #[test]
    fn invalid_utf8_names_the_place() {
        let err = check_utf8(Path::new("u.json"), b"{\n\"a\": \"\xff\"}").unwrap_err();
        assert_eq!(
            err.to_string(),
            "u.json: line 2, column 7: invalid UTF-8 (the file must be UTF-8 text)"
        );
    }

    /// A file saved as UTF-16 (Windows PowerShell's `>`) was "invalid UTF-8" at column 1
    /// with its byte order mark, and "expected value" at column 2 without one (trial 45): both
    /// now name the encoding and how to convert.
    /// Binary bytes with a NUL among the first were named UTF-16 with an `iconv` recipe that
    /// makes garbage of them (trial 68 D2): only the NUL patterns of an ASCII start are.
    #[test]
    fn binary_with_nuls_is_not_called_a_wide_encoding() {
        for bytes in [
            &b"\x00\x01\x02\xff\xfe binary"[..],
            b"\x01\x00\x02\x00",
            b"\x00\x00\x00\x01",
            b"{\x00\x7f\xff",
            b"\x00{\x7f\x00",
        ] {
            assert_eq!(wide_encoding(bytes), None, "{bytes:?}");
            let err = check_utf8(Path::new("b.bin"), bytes).map(str::len);
            assert!(
                err.as_ref().is_ok()
                    || err
                        .as_ref()
                        .is_err_and(|e| e.to_string().contains("invalid UTF-8")),
                "{bytes:?}: {err:?}"
            );
        }
        assert_eq!(
            check_utf8(Path::new("b.bin"), b"\x00\x01\x02\xff\xfe binary")
                .unwrap_err()
                .to_string(),
            "b.bin: line 1, column 4: invalid UTF-8 (the file must be UTF-8 text)"
        );
        // One character, in two or four bytes, is still told.
        assert_eq!(wide_encoding(b"1\x00").map(|e| e.1), Some("UTF-16LE"));
        assert_eq!(wide_encoding(b"\x00[").map(|e| e.1), Some("UTF-16BE"));
        assert_eq!(
            wide_encoding(b"\x00\x00\x00 ").map(|e| e.1),
            Some("UTF-32BE")
        );
    }

    #[test]
    fn utf16_and_utf32_are_named() {
        let iconv_name = |encoding: &str| {
            let bits = &encoding[..6];
            let order = if encoding.ends_with("little-endian") {
                "LE"
            } else {
                "BE"
            };
            format!("{bits}{order}")
        };
        let wide = |text: &str, encoding: &str, bom: bool| -> Vec<u8> {
            let units: Vec<u8> = match encoding {
                "UTF-16 little-endian" => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
                "UTF-16 big-endian" => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
                "UTF-32 little-endian" => text
                    .chars()
                    .flat_map(|c| (c as u32).to_le_bytes())
                    .collect(),
                _ => text
                    .chars()
                    .flat_map(|c| (c as u32).to_be_bytes())
                    .collect(),
            };
            let mark: Vec<u8> = match (bom, encoding) {
                (false, _) => Vec::new(),
                (true, "UTF-16 little-endian") => vec![0xFF, 0xFE],
                (true, "UTF-16 big-endian") => vec![0xFE, 0xFF],
                (true, "UTF-32 little-endian") => vec![0xFF, 0xFE, 0, 0],
                (true, _) => vec![0, 0, 0xFE, 0xFF],
            };
            [mark, units].concat()
        };
        for encoding in [
            "UTF-16 little-endian",
            "UTF-16 big-endian",
            "UTF-32 little-endian",
            "UTF-32 big-endian",
        ] {
            for bom in [true, false] {
                let bytes = wide(r#"[{"name": "a"}]"#, encoding, bom);
                let err = check_utf8(Path::new("w.json"), &bytes)
                    .unwrap_err()
                    .to_string();
                assert!(
                    err.starts_with("w.json: line 1, column ")
                        && err.contains(&format!("not UTF-8 text: it is written in {encoding};"))
                        && err.contains(&format!("`iconv -f {} -t UTF-8`", iconv_name(encoding))),
                    "{encoding} {bom}: {err}"
                );
            }
        }
        // UTF-8 text, with or without its own mark, and a bad byte further on are as before.
        assert!(check_utf8(Path::new("u.json"), b"\xef\xbb\xbf[]").is_ok());
        let err = check_utf8(Path::new("u.json"), b"[\"\xfe\"]").unwrap_err();
        assert!(
            err.to_string()
                .ends_with("invalid UTF-8 (the file must be UTF-8 text)")
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let text = check_utf8(Path::new("b.json"), b"\xef\xbb\xbf{\"a\": 1}").unwrap();
        assert_eq!(text, "{\"a\": 1}");
        let v = parse_str(Path::new("b.json"), "\u{feff}[1]", Limits::default(), 0).unwrap();
        assert_eq!(v, serde_json::json!([1]));
        // Only a leading one: a BOM inside the text is still a syntax error, with its place.
        let err = parse_str(Path::new("b.json"), "[1,\u{feff}2]", Limits::default(), 0);
        assert!(err.is_err());
    }

    #[test]
    fn pointer_tokens_are_escaped() {
        assert_eq!(push_token("/properties", "a/b~c"), "/properties/a~1b~0c");
    }

    #[test]
    fn oversized_file_is_refused_before_reading() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json");
        std::fs::write(&path, vec![b' '; 2048]).unwrap();
        let limits = Limits {
            max_bytes: 1024,
            max_depth: 8,
        };
        let err = load_file(&path, limits).unwrap_err();
        assert!(
            err.to_string()
                .ends_with("file is 2048 bytes, larger than the limit of 1024 bytes"),
            "{err}"
        );
    }

    /// The exponent form named for an integer written in full is one the float range holds
    /// (trial 58 D4: the largest float written in full, 309 digits, was told
    /// `1.79769313486232e308`, rounded up past the range, which `args` then refused).
    #[test]
    fn the_exponent_form_named_stays_in_the_float_range() {
        for float in [f64::MAX, -f64::MAX, f64::MAX.next_down()] {
            let written = format!("{float:.0}");
            let read_as: serde_json::Number = serde_json::from_str(&written).unwrap();
            let (form, own_digits) = super::exponent_form(&written, &read_as).unwrap();
            let expected = if float < 0.0 {
                "-1.79769313486231e308"
            } else {
                "1.79769313486231e308"
            };
            assert_eq!((form.as_str(), own_digits), (expected, false));
            assert!(super::inexact_numbers(&form).is_empty(), "{form}");
        }
        // Below, the 15 digits are rounded as before.
        let read_as: serde_json::Number = serde_json::from_str("18446744073709551617").unwrap();
        let (form, _) = super::exponent_form("18446744073709551617", &read_as).unwrap();
        assert_eq!(form, "1.84467440737096e19");
    }

    /// A long number is said read shortened, in check's note and repair's and compile's
    /// refusal alike (trial 58 D14: a schema bound of 3,000 digits was quoted whole).
    #[test]
    fn a_long_number_is_said_read_shortened() {
        let written = format!("0.{}", "1".repeat(3000));
        let read_as: serde_json::Number = serde_json::from_str(&written).unwrap();
        assert_eq!(
            super::read_as_said(&written, &read_as),
            "the number 0.1111111111111111111111...111111111111 (3001 digits) is read as \
             0.1111111111111111 (toolwire reads JSON numbers as 64-bit integers and floats)"
        );
    }
}
