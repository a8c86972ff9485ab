//! Errors that name the file, the place in it and the problem.
//!
//! Every error that comes from input a user handed us is an [`Error::Input`]; the CLI maps it to
//! exit code 2. Nothing in the library panics on bad input.

use std::fmt;
use std::path::Path;

/// Where in a file a problem sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// The file as a whole (too large, unreadable, not UTF-8 at the start).
    File,
    /// The path itself, of which nothing was read (no such file, a folder where a file
    /// belongs): "(whole file)" would say there is a file with something wrong in it.
    Path,
    /// 1-based line and column in the file's text.
    LineColumn { line: usize, column: usize },
    /// An RFC 6901 JSON Pointer into the parsed document.
    Pointer(String),
    /// A line of a JSON Lines file plus a JSON Pointer into that line's value.
    LinePointer { line: usize, pointer: String },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::File => f.write_str("(whole file)"),
            Place::Path => f.write_str("(the path)"),
            Place::LineColumn { line, column } => write!(f, "line {line}, column {column}"),
            Place::Pointer(p) if p.is_empty() => f.write_str("at the document root"),
            Place::Pointer(p) => write!(f, "at {}", shown_pointer(p)),
            Place::LinePointer { line, pointer } if pointer.is_empty() => write!(f, "line {line}"),
            Place::LinePointer { line, pointer } => {
                write!(f, "line {line}, at {}", shown_pointer(pointer))
            }
        }
    }
}

/// The crate's error type.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: the file, the place and what is wrong. Exit code 2.
    #[error("{file}: {}{problem}", place_prefix(.place))]
    Input {
        file: String,
        place: Place,
        problem: String,
    },
    /// A usage error (unknown target, conflicting flags). Exit code 2.
    #[error("{0}")]
    Usage(String),
    /// An I/O failure while writing our own outputs. Exit code 2.
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// Anything else that stops a command (a network runtime that cannot start, ...).
    #[error("{0}")]
    Other(String),
}

impl Error {
    /// An input error at `place` in `file`.
    pub fn input(file: impl AsRef<Path>, place: Place, problem: impl Into<String>) -> Self {
        Error::Input {
            file: file_name(file.as_ref()),
            place,
            problem: problem.into(),
        }
    }

    /// This error with the option that named its file said, when the error is about the path
    /// itself ("t.json: no such file (given to `--request`)"): a command reading several files
    /// (the error body and `--request`, the call and `--schema`) otherwise leaves the reader to
    /// guess which argument was wrong. Any other error is returned as it is.
    pub fn given_to(self, option: &str) -> Self {
        match self {
            Error::Input {
                file,
                place: Place::Path,
                problem,
            } => Error::Input {
                file,
                place: Place::Path,
                problem: format!("{problem} (given to `{option}`)"),
            },
            other => other,
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Self {
        Error::Io {
            path: inline(&path.as_ref().display().to_string()).into_owned(),
            source,
        }
    }
}

/// The place as it leads an error's problem: none for [`Place::Path`], whose problem is about
/// the file name just printed ("t.json: no such file").
fn place_prefix(place: &Place) -> String {
    match place {
        Place::Path => String::new(),
        place => format!("{place}: "),
    }
}

/// `file` as messages about what was read from it name it: `standard input` for `-`
/// (commands read `-` as standard input; no file of that name was read), else the path with
/// line breaks escaped.
pub fn file_name(file: &Path) -> String {
    if file == Path::new("-") {
        "standard input".to_string()
    } else {
        inline(&file.display().to_string()).into_owned()
    }
}

/// A path or JSON Pointer inside an error line, line breaks escaped: a file named
/// `a\n::error file=...` must not start a line a CI log reads as a workflow command (the
/// whole line is escaped again when printed, keeping only its own layout).
fn inline(text: &str) -> std::borrow::Cow<'_, str> {
    crate::report::escape_inline(text)
}

/// `pointer` as an error line shows it: [`crate::report::short_pointer`] (a place past the
/// depth cap is hundreds of tokens deep, and a line of kilobytes hides the problem after it),
/// [`inline`]. The [`Place`] keeps it whole.
fn shown_pointer(pointer: &str) -> String {
    inline(&crate::report::short_pointer(pointer)).into_owned()
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The name of `names` closest to `wanted` when it is close enough to be a slip: the same
/// name in another case, or within a third of its length in edits (Levenshtein; so a name
/// of one or two characters is only matched in another case). Ties go to the first in file
/// order.
pub(crate) fn did_you_mean<'a>(
    wanted: &str,
    names: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    let wanted_lower = wanted.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for name in names {
        let distance = if name.to_lowercase() == wanted_lower {
            0
        } else {
            strsim::levenshtein(wanted, name)
        };
        let close = distance <= wanted.chars().count() / 3;
        if close && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, name));
        }
    }
    best.map(|(_, n)| n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pointer of hundreds of tokens (the place past the depth cap) is shown by its ends,
    /// as human output shows a finding's; a short one whole.
    #[test]
    fn long_pointers_are_shown_by_their_ends() {
        let deep = "/properties/a".repeat(300);
        let short = crate::report::short_pointer(&deep).into_owned();
        assert!(short.contains("…(") && short.len() < 200, "{short}");
        let e = Error::input("t.json", Place::Pointer(deep.clone()), "too deep").to_string();
        assert_eq!(e, format!("t.json: at {short}: too deep"));
        let line = Place::LinePointer {
            line: 3,
            pointer: deep,
        };
        assert_eq!(line.to_string(), format!("line 3, at {short}"));
        let whole = "/properties/a".repeat(8);
        let e = Error::input("t.json", Place::Pointer(whole.clone()), "x").to_string();
        assert_eq!(e, format!("t.json: at {whole}: x"));
    }

    /// A slip is named (another case, or a third of the length in edits); a short or far
    /// name is not guessed at.
    #[test]
    fn did_you_mean_names_slips_only() {
        let names = ["a", "get_weather", "openai/chat-strict"];
        assert_eq!(
            did_you_mean("GET_WEATHER", names.into_iter()),
            Some("get_weather")
        );
        assert_eq!(
            did_you_mean("openai/chat-strikt", names.into_iter()),
            Some("openai/chat-strict")
        );
        assert_eq!(did_you_mean("ab", ["xy"].into_iter()), None);
        assert_eq!(did_you_mean("send_email", names.into_iter()), None);
    }

    /// Only an error about the path names the option that gave it: one inside the file says
    /// where in the file, which is what the reader needs.
    #[test]
    fn only_path_errors_name_the_option() {
        let path = Error::input("t.json", Place::Path, "no such file").given_to("--request");
        assert_eq!(
            path.to_string(),
            "t.json: no such file (given to `--request`)"
        );
        let inside = Error::input("t.json", Place::Pointer("/a".into()), "expected value")
            .given_to("--request");
        assert_eq!(inside.to_string(), "t.json: at /a: expected value");
    }

    /// A line break in a file name or a pointer cannot start a line of its own in an error
    /// (GitHub Actions reads a line starting `::error` as a workflow command).
    #[test]
    fn line_breaks_in_paths_and_pointers_are_escaped() {
        let e = Error::input(
            "a\n::error file=README.md::x.json",
            Place::Pointer("/properties/b\nc".into()),
            "expected value",
        );
        assert_eq!(
            e.to_string(),
            "a\\n::error file=README.md::x.json: at /properties/b\\nc: expected value"
        );
        let e = Error::io("o\nut", std::io::Error::other("denied"));
        assert!(!e.to_string().contains('\n'), "{e}");
    }
}
