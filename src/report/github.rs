//! Findings as GitHub Actions workflow commands (`::error file=…,line=…,col=…,title=…::msg`),
//! which GitHub shows as annotations on the pull request's changed lines.
//!
//! Escaping follows the Actions runner (`actions/toolkit` `command.ts`): in the message `%`,
//! `\r` and `\n` become `%25`, `%0D`, `%0A`; property values additionally escape `:` and `,`
//! as `%3A` and `%2C`. Other control characters (ESC) and bidi controls are written as `\u{1b}`.

use crate::check::{Finding, Level};
use crate::report::sarif::Site;

/// One `::error` (or `::warning`) line per finding, each ending in `\n`. `locate` gives each
/// finding's site, e.g. [`crate::report::sarif::file_sites`] (an empty file leaves out
/// `file`, a missing line leaves out `line`).
pub fn render(findings: &[Finding], locate: impl Fn(&Finding) -> Site) -> String {
    let mut out = String::new();
    for f in findings {
        out.push_str(&annotation(f, &locate(f)));
        out.push('\n');
    }
    out
}

/// The workflow command for one finding.
pub fn annotation(f: &Finding, site: &Site) -> String {
    let stdin = site.file == crate::report::STDIN;
    let mut props = place(site);
    props.push(format!(
        "title={}",
        escape_property(&format!("toolwire {}", f.rule))
    ));
    // A tool name and the property names in a pointer have their line breaks written `\n`,
    // as output for people writes them: the runner turns `%0A` back into a line break, so a
    // name holding one would start a line of the annotation that is not ours.
    use crate::report::escape_inline;
    let place = if f.pointer.is_empty() {
        String::new()
    } else {
        format!(" at {}", escape_inline(&f.pointer))
    };
    let subject = if f.request {
        "request".to_string()
    } else if f.tool.is_empty() {
        // A bare schema has no tool name; the place alone says where.
        String::new()
    } else {
        format!("tool `{}`", escape_inline(&f.tool))
    };
    // The message quotes names too (`tool name `b\nc` has control characters`).
    let mut message = format!("{subject}{place}: {}", escape_inline(&f.message));
    if let Some(rest) = message.strip_prefix(" at ") {
        message = format!("at {rest}");
    } else if let Some(rest) = message.strip_prefix(": ") {
        message = rest.to_string();
    }
    if stdin {
        message = format!(
            "{}: {message}",
            crate::error::file_name(std::path::Path::new(crate::report::STDIN))
        );
    }
    if !f.fix.is_empty() {
        message.push_str("\nFix: ");
        message.push_str(&f.fix);
        // As output for people marks it: a reader of the annotation learns that `toolwire
        // repair` would fix it.
        if f.marked_repairable() {
            message.push_str(" (repairable)");
        }
    }
    let command = match f.level {
        Level::Error => "error",
        Level::Warning => "warning",
    };
    format!("::{command} {}::{}", props.join(","), escape_data(&message))
}

/// A note on reading `file` (a key written twice, a JSON Lines line with no tool) as a
/// `::notice` on the file, at its (line, column) where known (a JSON Lines line's number, a
/// place located by [`crate::report::sarif::note_sites`]), `note`
/// being the text standard error would carry after `toolwire: FILE: `; an `::error` when it
/// `fails` the check (a request that would send nothing), so that the run failing shows why.
/// Written beside the findings so that the only `toolwire: FILE:` lines on standard error are
/// errors.
pub fn reading_note(
    file: &str,
    (line, column): (Option<usize>, Option<usize>),
    note: &str,
    fails: bool,
) -> String {
    let site = Site {
        file: file.to_string(),
        line,
        column,
    };
    on_file(if fails { "error" } else { "notice" }, &site, note)
}

/// A file that could not be read as an `::error` on it, at the line and column the error
/// names: the annotations of the files read alone would show a clean pull request.
pub fn unreadable(u: &super::Unreadable) -> String {
    let site = Site {
        file: u.file.clone(),
        line: u.line,
        column: u.column,
    };
    on_file("error", &site, &u.problem)
}

/// A closing note of the report ([`crate::check::Report::closing_notes`]: a strict mode
/// check does not judge in full) as a `::notice` on no file, its leading `note: ` dropped (the
/// command says it): output for people ends with it, and a run read through its annotations
/// would otherwise pass a strict tool without the word.
pub fn closing_note(note: &str) -> String {
    let text = super::closing_note_text(note);
    format!("::notice title=toolwire::{}", escape_data(text))
}

/// The workflow command `command` about reading a file at `site`, `text` being what standard
/// error says after `toolwire: FILE: `. Standard input goes without a file, named in the
/// message, as in [`annotation`].
fn on_file(command: &str, site: &Site, text: &str) -> String {
    let mut props = place(site);
    props.push("title=toolwire".to_string());
    let message = if site.file == crate::report::STDIN {
        let stdin = crate::error::file_name(std::path::Path::new(&site.file));
        format!("{stdin}: {text}")
    } else {
        text.to_string()
    };
    format!("::{command} {}::{}", props.join(","), escape_data(&message))
}

/// The `file`, `line` and `col` properties of `site`, as far as it knows them. Standard input
/// is no file of the repository: `file=-` would point the annotation at one, so it goes
/// without a file (the message names the input) but keeps its line, which still says which
/// JSON Lines request of the input the annotation is about.
fn place(site: &Site) -> Vec<String> {
    let mut props = Vec::new();
    if site.file.is_empty() {
        return props;
    }
    if site.file != crate::report::STDIN {
        props.push(format!("file={}", escape_property(&site.file)));
    }
    if let Some(line) = site.line {
        props.push(format!("line={line}"));
        if let Some(col) = site.column {
            props.push(format!("col={col}"));
        }
    }
    props
}

/// The runner's escaping, then every other control character and bidi control written as
/// `\u{1b}` ([`crate::report::escape_output`]): the runner unescapes `%0A`, but prints an ESC
/// from a tool name raw into the log, where it drives the log viewer's terminal emulation.
fn escape_data(s: &str) -> String {
    let s = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    crate::report::escape_output(&s).into_owned()
}

fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Text;

    fn finding() -> Finding {
        Finding {
            rule: "keyword-unsupported".into(),
            tool: "search".into(),
            tool_index: 2,
            request: false,
            pointer: "/properties/q/const".into(),
            message: "`const` is not accepted by gemini/v1beta/parameters (100% sure)".into(),
            fix: "Use a one-value `enum`.\nOr run `toolwire repair`.".into(),
            repairable: true,
            level: Level::Error,
            parameter: "keyword-allowed: const".into(),
            file: Text::default(),
            line: None,
            location: Text::default(),
            subject: crate::check::Subject::Schema,
            evidence: None,
        }
    }

    /// A file that could not be read had no annotation of toolwire's (the check action made
    /// one from standard error): an error on the file, its line and column, with the message
    /// escaped; serde_json's column 0 is no column.
    #[test]
    fn an_unreadable_file_is_an_error_on_its_place() {
        let unread = |file: &str, place| {
            let e = crate::error::Error::input(file, place, "100% \r wrong");
            crate::report::Unreadable::new(std::path::Path::new(file), 0, &e).unwrap()
        };
        let at = |line, column| crate::error::Place::LineColumn { line, column };
        assert_eq!(
            unreadable(&unread("mcp/a,b:c%.json", at(2, 11))),
            "::error file=mcp/a%2Cb%3Ac%25.json,line=2,col=11,title=toolwire::line 2, column 11: 100%25 %0D wrong"
        );
        assert_eq!(
            unreadable(&unread("t.json", at(3, 0))),
            "::error file=t.json,line=3,title=toolwire::line 3, column 0: 100%25 %0D wrong"
        );
        assert_eq!(
            unreadable(&unread("-", crate::error::Place::File)),
            "::error title=toolwire::standard input: (whole file): 100%25 %0D wrong"
        );
    }

    #[test]
    fn annotation_has_file_line_col_title_and_escaped_message() {
        let site = Site {
            file: "tools/a,b:c.json".into(),
            line: Some(12),
            column: Some(9),
        };
        assert_eq!(
            annotation(&finding(), &site),
            "::error file=tools/a%2Cb%3Ac.json,line=12,col=9,title=toolwire keyword-unsupported::\
             tool `search` at /properties/q/const: `const` is not accepted by \
             gemini/v1beta/parameters (100%25 sure)%0AFix: Use a one-value `enum`.%0AOr run `toolwire repair`. (repairable)"
        );
    }

    /// Standard input is no file of the repository: `file=-` pointed the annotation at a file
    /// named `-`. Its line stays: it says which JSON Lines request the finding is about
    /// (before, an annotation on standard input had none).
    #[test]
    fn standard_input_is_named_in_the_message_not_as_a_file() {
        let site = Site {
            file: crate::report::STDIN.into(),
            line: Some(3),
            column: Some(7),
        };
        let a = annotation(&finding(), &site);
        assert!(
            a.starts_with(
                "::error line=3,col=7,title=toolwire keyword-unsupported::standard input: tool \
                 `search` at "
            ),
            "{a}"
        );
        let no_line = Site { line: None, ..site };
        let a = annotation(&finding(), &no_line);
        assert!(
            a.starts_with("::error title=toolwire keyword-unsupported::standard input: "),
            "{a}"
        );
    }

    /// A reading note is a notice on its file (on standard error it read, in the action, as
    /// an error annotation when another file was bad input).
    #[test]
    fn reading_notes_are_notices_on_their_file() {
        assert_eq!(
            reading_note(
                "a,b.json",
                (None, None),
                "at /x: the key `type` is written more than once; 100%",
                false
            ),
            "::notice file=a%2Cb.json,title=toolwire::at /x: the key `type` is written more \
             than once; 100%25"
        );
        // The one note that fails the check is an error: the run fails, and shows why.
        assert_eq!(
            reading_note("a.json", (None, None), "nothing would be sent", true),
            "::error file=a.json,title=toolwire::nothing would be sent"
        );
        assert_eq!(
            reading_note(
                crate::report::STDIN,
                (None, None),
                "the input holds no tools",
                false
            ),
            "::notice title=toolwire::standard input: the input holds no tools"
        );
    }

    /// A note about one JSON Lines line is annotated on that line, of a file or of standard
    /// input (before, notices had no line even where the message named it).
    #[test]
    fn reading_notes_on_a_line_carry_it() {
        assert_eq!(
            reading_note("a.jsonl", (Some(4), None), "line 4 holds no tools", false),
            "::notice file=a.jsonl,line=4,title=toolwire::line 4 holds no tools"
        );
        // A note at a place in the file (a key written twice) carries its column too.
        assert_eq!(
            reading_note("a.json", (Some(1), Some(32)), "at /x: twice", false),
            "::notice file=a.json,line=1,col=32,title=toolwire::at /x: twice"
        );
        assert_eq!(
            reading_note(
                crate::report::STDIN,
                (Some(2), None),
                "line 2 holds no tools",
                false
            ),
            "::notice line=2,title=toolwire::standard input: line 2 holds no tools"
        );
    }

    /// Marked "(repairable)" where output for people marks it: an error `repair` rewrites,
    /// never a warning (left as written) nor a finding repair has no rewrite for.
    #[test]
    fn repairable_errors_are_marked_as_for_people() {
        let error = annotation(&finding(), &Site::default());
        assert!(
            error.ends_with("`toolwire repair`. (repairable)"),
            "{error}"
        );
        let mut w = finding();
        w.level = Level::Warning;
        let warning = annotation(&w, &Site::default());
        assert!(warning.ends_with("`toolwire repair`."), "{warning}");
        let mut no = finding();
        no.repairable = false;
        let unrepairable = annotation(&no, &Site::default());
        assert!(!unrepairable.contains("(repairable)"), "{unrepairable}");
    }

    /// A name from the file cannot drive the log viewer's terminal (ESC, C1 CSI, a bidi
    /// override) nor start a line of its own (a line break is written `\n`, as for people:
    /// `%0A` would be a line break again in the annotation).
    #[test]
    fn control_characters_from_the_file_are_escaped() {
        let mut f = finding();
        f.tool = "x\u{1b}]0;owned\u{7}\u{9b}2J\u{202e}gnp.exe\n::error::fake".into();
        f.pointer = "/properties/a\u{1b}[31m".into();
        let line = annotation(&f, &Site::default());
        assert!(!line.chars().any(|c| c.is_control()), "{line:?}");
        assert!(!line.contains('\u{202e}'), "{line:?}");
        assert!(
            line.contains(
                "tool `x\\u{1b}]0;owned\\u{7}\\u{9b}2J\\u{202e}gnp.exe\\n::error::fake` at /properties/a\\u{1b}[31m"
            ),
            "{line}"
        );
    }

    #[test]
    fn nameless_tools_and_requests_are_not_called_tool() {
        let mut f = finding();
        f.tool = Text::default();
        let bare = annotation(&f, &Site::default());
        assert!(bare.contains("::at /properties/q/const: `const`"), "{bare}");
        f.pointer.clear();
        let root = annotation(&f, &Site::default());
        assert!(root.contains("::`const` is not"), "{root}");
        f.request = true;
        let request = annotation(&f, &Site::default());
        assert!(request.contains("::request: `const`"), "{request}");
    }

    #[test]
    fn unknown_places_are_left_out() {
        let mut f = finding();
        f.pointer.clear();
        f.fix = Text::default();
        let mut w = f.clone();
        w.level = Level::Warning;
        let out = render(&[f, w], |_| Site::default());
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[1].starts_with("::warning title="), "{}", lines[1]);
        assert_eq!(
            lines[0],
            "::error title=toolwire keyword-unsupported::tool `search`: `const` is not accepted by gemini/v1beta/parameters (100%25 sure)"
        );
    }
}
