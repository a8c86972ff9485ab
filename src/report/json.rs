//! `check --format json` with the files that could not be read among those that were.
//!
//! [`crate::check::Report::write_json`] knows only the files read; a file skipped as bad input
//! would leave no trace in the JSON, which then reads as a complete, clean report. Here each
//! such file is a `files[]` entry of its own, `{"file", "line"?, "column"?, "error"}` with no tool counts, in the
//! order the files were given; so is each JSON Lines line not read of a file whose other lines
//! were, just before that file's entry (its error names the line). Without such files the output is `write_json`'s, byte for byte
//! (a test holds the two together).

use serde::Serialize;

use super::Unreadable;
use crate::check::{FileSummary, Report};

/// `report` as JSON with `unread` in its `files` (pretty JSON and a final newline), written
/// by [`Report::write_json_with_files`]. Errors are `w`'s.
pub fn write(
    w: &mut dyn std::io::Write,
    report: &Report,
    unread: &[Unreadable],
) -> std::io::Result<()> {
    report.write_json_with_files(
        w,
        Files {
            read: &report.files,
            unread,
        },
    )
}

/// The files read and those not, in the order given.
struct Files<'a> {
    read: &'a [FileSummary],
    unread: &'a [Unreadable],
}

/// A file that could not be read, as `files[]` lists it: `line` and `column` (1-based) where
/// the error names them, so that a consumer need not read them out of `error`'s text (trial
/// 80 D5: one file's unreadable JSON Lines lines were told apart only by that text).
#[derive(Serialize)]
struct UnreadEntry<'a> {
    file: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    error: &'a str,
}

/// One entry of `files[]`.
#[derive(Serialize)]
#[serde(untagged)]
enum Entry<'a> {
    Read(&'a FileSummary),
    Unread(UnreadEntry<'a>),
}

impl<'a> Entry<'a> {
    fn unread(u: &'a Unreadable) -> Self {
        Entry::Unread(UnreadEntry {
            file: &u.file,
            line: u.line,
            column: u.column,
            error: &u.error,
        })
    }
}

impl Serialize for Files<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let unread_before = |i: usize| {
            self.unread
                .iter()
                .filter(move |u| u.after == i)
                .map(Entry::unread)
        };
        // Each file read after those given before it; the files not read after the last
        // file read end the list.
        let entries = self
            .read
            .iter()
            .enumerate()
            .flat_map(|(i, f)| unread_before(i).chain(std::iter::once(Entry::Read(f))))
            .chain(
                self.unread
                    .iter()
                    .filter(|u| u.after >= self.read.len())
                    .map(Entry::unread),
            );
        s.collect_seq(entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(files: &[&str]) -> Report {
        let profile = crate::profile::CompiledProfile::new(
            crate::profile::embedded_set()
                .unwrap()
                .get(crate::profile::PORTABLE)
                .unwrap(),
        );
        let checked = files
            .iter()
            .map(|name| {
                let text = br#"{"type":"object","properties":{"a":{"type":"string"}}}"#;
                crate::check::check_bytes(std::path::Path::new(name), text, &profile).unwrap()
            })
            .collect();
        Report::from_checked(&profile, checked)
    }

    fn unread(file: &str, after: usize) -> Unreadable {
        let e = crate::error::Error::input(
            file,
            crate::error::Place::LineColumn {
                line: 1,
                column: 18,
            },
            "EOF while parsing a value",
        );
        Unreadable::new(std::path::Path::new(file), after, &e).unwrap()
    }

    fn json(report: &Report, unread: &[Unreadable]) -> serde_json::Value {
        let mut out = Vec::new();
        write(&mut out, report, unread).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    /// With every file read, the output is the report's own JSON: the shape is written twice
    /// (here and in `Report::write_json`), and a field added to one must reach the other.
    #[test]
    fn without_unread_files_it_is_the_reports_json() {
        let report = report(&["a.json", "b.json"]);
        let mut out = Vec::new();
        write(&mut out, &report, &[]).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), report.json());
    }

    /// A file that could not be read was missing from `files`, so the JSON of the others read
    /// as complete.
    #[test]
    fn unread_files_are_listed_in_the_order_given_with_their_error() {
        let report = report(&["a.json", "c.json"]);
        let v = json(
            &report,
            &[
                unread("0.json", 0),
                unread("b.json", 1),
                unread("d.json", 2),
            ],
        );
        let files = v["files"].as_array().unwrap();
        let names: Vec<&str> = files.iter().map(|f| f["file"].as_str().unwrap()).collect();
        assert_eq!(names, ["0.json", "a.json", "b.json", "c.json", "d.json"]);
        let b = files[2].as_object().unwrap();
        assert_eq!(
            b["error"],
            "b.json: line 1, column 18: EOF while parsing a value"
        );
        // Trial 80 D5: the place was only in the error's text.
        assert_eq!((&b["line"], &b["column"]), (&1.into(), &18.into()));
        // No counts: nothing of the file was checked.
        assert_eq!(b.len(), 4, "{b:?}");
        assert_eq!(files[1]["tools"], 1);
        assert!(files[1].get("error").is_none());
    }
}
