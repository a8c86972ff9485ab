//! `check --format html`: one self-contained page (no script, no external resource) for a
//! person reading a CI artifact: the summary, counts per rule, then each file's findings
//! grouped by tool. Every text from the input (tool names, pointers, messages) is escaped by
//! `maud`, so a tool named `<script>` is shown, never run; and its control characters and
//! bidi controls are shown escaped (`\u{202e}`), as in every other output for people
//! ([`super::escape_output`]), so that a browser does not reorder the text around them.

use maud::{DOCTYPE, Markup, html};

use crate::check::{Finding, FixNotes, Report, count, counts, group_header, place_label};
use crate::profile::findings::UNVERIFIED_FIX;

use super::Unreadable;

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em;max-width:80em;color:#1b1b1b}\
table{border-collapse:collapse;width:100%;margin:.5em 0 1.5em}\
th,td{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}\
th{background:#f4f4f4}code{font-size:13px}\
.error{color:#b00020;font-weight:600}.warning{color:#8a5a00}\
.tool td{background:#fafafa;font-weight:600}.fix{color:#444}";

/// The page for `report`, as one HTML5 document (UTF-8, ending in a newline). The files in
/// `unread` could not be read (or a line of them, for JSON Lines whose other lines were read:
/// [`Unreadable::lines`]): each has its section, with the error, among the others in the
/// order given, and the top says the summary leaves them out.
pub fn render(report: &Report, unread: &[Unreadable]) -> String {
    let title = format!("toolwire check: {}", report.profile);
    // The files first, so that the notes their fixes refer to are known for the top.
    let mut notes = FixNotes::new(&report.findings);
    let unread_section = |u: &Unreadable| {
        html! {
            h2 { code { (crate::error::file_name(std::path::Path::new(&u.file))) } }
            p.error { "Not read: " (u.problem) }
        }
    };
    let mut sections: Vec<Markup> = Vec::new();
    for (i, file) in report.files.iter().enumerate() {
        sections.extend(unread.iter().filter(|u| u.after == i).map(unread_section));
        let findings = report
            .findings
            .iter()
            .filter(|f| f.file.as_str() == file.file);
        sections.push(html! {
            h2 { code { (crate::error::file_name(std::path::Path::new(&file.file))) } }
            p {
                (file.format) ", " (count(file.tools, "tool")) ", " (file.clean) " clean"
                // "N clean" alone read as a clean request beside a too-many-tools error.
                @if file.request_findings > 0 {
                    " on their own, "
                    (count(file.request_findings, "request-level finding"))
                    " (about a request as a whole)"
                }
            }
            (reading_notes(file))
            (file_findings(findings, &mut notes))
        });
    }
    sections.extend(
        unread
            .iter()
            .filter(|u| u.after >= report.files.len())
            .map(unread_section),
    );
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (title) }
                style { (STYLE) }
            }
            body {
                h1 { (title) }
                @if !unread.is_empty() {
                    p.error { (unread_summary(report, unread)) }
                }
                p { (report.summary()) }
                @for note in report.closing_notes() {
                    p { (note) }
                }
                (rule_counts(&report.findings))
                @if !notes.texts().is_empty() {
                    h2 { "Notes" }
                    @for (i, text) in notes.texts().iter().enumerate() {
                        p id=(format!("note-{}", i + 1)) { "[" (i + 1) "] " (text) }
                    }
                }
                @for section in sections { (section) }
            }
        }
    };
    let mut s = super::escape_output(&page.into_string()).into_owned();
    s.push('\n');
    s
}

/// What reading `file` found that its findings do not say ([`crate::check::FileSummary::notes`]),
/// in its section: a reviewer handed the page otherwise never sees standard error.
fn reading_notes(file: &crate::check::FileSummary) -> Markup {
    html! {
        @if !file.notes.is_empty() {
            ul.notes {
                @for n in &file.notes {
                    @if n.fails {
                        li.error { "Fails the check: " (n.text) }
                    } @else {
                        li { "Note on reading: " (n.text) }
                    }
                }
            }
        }
    }
}

/// What the top of the page says of `unread`: the files not read, and the JSON Lines lines
/// not read of files whose other lines were (those files are among `report`'s), counted
/// from the files' [`crate::check::FileSummary::unreadable_lines`]: past the first lines,
/// `unread` holds one entry for all the others.
fn unread_summary(report: &Report, unread: &[Unreadable]) -> String {
    let read: std::collections::HashSet<&str> =
        report.files.iter().map(|f| f.file.as_str()).collect();
    let files = unread
        .iter()
        .filter(|u| !read.contains(u.file.as_str()))
        .count();
    let lines: usize = report.files.iter().map(|f| f.unreadable_lines).sum();
    let lines_text = format!("{} of JSON Lines", count(lines, "line"));
    match (files, lines) {
        (_, 0) => format!(
            "{} could not be read (see below): the summary and the counts are of the other \
             files only.",
            count(files, "file")
        ),
        (0, _) => format!(
            "{lines_text} could not be read (see below): the summary and the counts are of \
             what was read only."
        ),
        _ => format!(
            "{} and {lines_text} could not be read (see below): the summary and the counts \
             are of what was read only.",
            count(files, "file")
        ),
    }
}

fn rule_counts(findings: &[Finding]) -> Markup {
    let counts = counts(findings);
    html! {
        @if !counts.is_empty() {
            h2 { "Findings per rule" }
            table {
                tr { th { "rule" } th { "findings" } th { "what it checks" } }
                @for (rule, n) in &counts {
                    tr {
                        td { code { (rule) } }
                        td { (n) }
                        td { (crate::profile::rules::find(rule).map_or("", |r| r.checks)) }
                    }
                }
            }
        }
    }
}

fn file_findings<'a>(
    findings: impl Iterator<Item = &'a Finding>,
    notes: &mut FixNotes<'a>,
) -> Markup {
    let mut rows = Vec::new();
    let mut last_tool = None;
    for f in findings {
        if last_tool != Some((f.request, f.tool_index)) {
            last_tool = Some((f.request, f.tool_index));
            rows.push(html! { tr.tool { td colspan="4" { (group_header(f)) } } });
        }
        let level = f.level.as_str();
        let repairable = f.marked_repairable();
        rows.push(html! {
            tr {
                td class=(level) { (level) }
                td { code { (f.rule) } }
                td { code { (place_label(f)) } }
                td {
                    (f.message)
                    br;
                    span.fix { "fix: " (fix_cell(f, notes)) @if repairable { " (repairable)" } }
                }
            }
        });
    }
    html! {
        @if rows.is_empty() {
            p { "No findings." }
        } @else {
            table {
                tr { th { "level" } th { "rule" } th { "where" } th { "message and fix" } }
                @for row in rows { (row) }
            }
        }
    }
}

/// A finding's fix, or a link to the note that holds it (see [`FixNotes`]).
fn fix_cell<'a>(f: &'a Finding, notes: &mut FixNotes<'a>) -> Markup {
    match notes.refer(&f.fix) {
        Some(n) => {
            let link = html! { a href=(format!("#note-{n}")) { "note [" (n) "]" } };
            if f.fix == UNVERIFIED_FIX {
                html! { "none yet (no evidence either way; see " (link) ")" }
            } else {
                html! { "see " (link) }
            }
        }
        None => html! { (f.fix) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Level;
    use crate::profile::{self, CompiledProfile};

    fn report(tools: serde_json::Value) -> Report {
        let set = crate::input::from_value(std::path::Path::new("t.json"), tools).unwrap();
        let profiles = profile::embedded().unwrap();
        let p = CompiledProfile::new(profiles.get(profile::PORTABLE).unwrap());
        Report::new(&[set], &p)
    }

    /// A file read from standard input was headed `-`, a name no file has.
    #[test]
    fn standard_input_is_headed_as_notes_name_it() {
        let set = crate::input::from_value(
            std::path::Path::new(crate::report::STDIN),
            serde_json::json!([{"name": "f", "description": "d", "input_schema": {"type": "array"}}]),
        )
        .unwrap();
        let profiles = profile::embedded().unwrap();
        let p = CompiledProfile::new(profiles.get(profile::PORTABLE).unwrap());
        let page = render(&Report::new(&[set], &p), &[]);
        assert!(
            page.contains("<h2><code>standard input</code></h2>"),
            "{page}"
        );
    }

    /// The notes on reading a file (here a key written twice) went only to standard error,
    /// so the page was silent on a document whose meaning is ambiguous.
    #[test]
    fn a_files_reading_notes_are_in_its_section() {
        let mut r = report(serde_json::json!([{"name": "f", "description": "d",
            "input_schema": {"type": "object", "properties": {}}}]));
        r.files[0].notes.push(crate::check::ReadingNote {
            line: None,
            lines: Vec::new(),
            pointer: Some("/0".into()),
            text: "at /0: the key `<description>` is written more than once".into(),
            fails: false,
        });
        let page = render(&r, &[]);
        let section = page
            .find(&format!("<h2><code>{}</code></h2>", r.files[0].file))
            .unwrap_or_else(|| panic!("{page}"));
        let note = "<ul class=\"notes\"><li>Note on reading: at /0: the key `&lt;description&gt;` \
                    is written more than once</li></ul>";
        let at = page.find(note).unwrap_or_else(|| panic!("{page}"));
        assert!(at > section, "{page}");
    }

    /// A file of 200 tools said "200 clean" beside a too-many-tools error (and, for their 200
    /// properties together, a size-exceeded warning).
    #[test]
    fn a_files_line_counts_its_request_level_findings() {
        let tools: Vec<serde_json::Value> = (0..200)
            .map(|i| {
                serde_json::json!({"name": format!("t{i}"), "description": "d",
                    "input_schema": {"type": "object", "properties": {"a": {"type": "string"}}}})
            })
            .collect();
        let page = render(&report(serde_json::Value::Array(tools)), &[]);
        assert!(
            page.contains(
                "200 tools, 200 clean on their own, 2 request-level findings (about a request as \
                 a whole)"
            ),
            "{page}"
        );
    }

    /// A file that could not be read had no section, so the page read as a clean run.
    #[test]
    fn unread_files_have_their_section_and_the_top_says_so() {
        let r = report(serde_json::json!([{"name": "f", "description": "d",
            "input_schema": {"type": "object", "properties": {}}}]));
        let e = crate::error::Error::input(
            "<b>.json",
            crate::error::Place::LineColumn { line: 1, column: 4 },
            "EOF",
        );
        let unread = Unreadable::new(std::path::Path::new("<b>.json"), 0, &e).unwrap();
        let page = render(&r, std::slice::from_ref(&unread));
        assert!(
            page.contains(
                "1 file could not be read (see below): the summary and the counts are of the \
                 other files only."
            ),
            "{page}"
        );
        // A bad line of a file read (named as it is) is no file not read.
        let line = crate::error::Error::input(
            "t.json",
            crate::error::Place::LineColumn { line: 2, column: 1 },
            "EOF",
        );
        let line = Unreadable::new(std::path::Path::new(&r.files[0].file), 0, &line).unwrap();
        let mut r = r;
        r.files[0].unreadable_lines = 1;
        let both = render(&r, &[unread.clone(), line.clone()]);
        assert!(
            both.contains("1 file and 1 line of JSON Lines could not be read (see below)"),
            "{both}"
        );
        // Past the lines shown one by one, one entry stands for the rest: the count is the
        // file's, not the entries' (it said 2 lines for 102).
        r.files[0].unreadable_lines = 102;
        let lines = render(&r, &[line.clone(), line]);
        assert!(
            lines.contains(
                "102 lines of JSON Lines could not be read (see below): the summary and the \
                 counts are of what was read only."
            ),
            "{lines}"
        );
        let section = "<h2><code>&lt;b&gt;.json</code></h2><p class=\"error\">Not read: line 1, column 4: EOF</p>";
        let at = page.find(section).unwrap_or_else(|| panic!("{page}"));
        // Given before the file read, shown before it.
        let read = page
            .find(&format!("<h2><code>{}</code>", r.files[0].file))
            .unwrap();
        assert!(at < read, "{page}");
    }

    #[test]
    fn input_text_is_escaped_never_markup() {
        let r = report(serde_json::json!([{
            "name": "<script>alert(1)</script>",
            "description": "d",
            "input_schema": {"type":"object","properties":{"<b>x":{"type":"array"}}}
        }]));
        let page = render(&r, &[]);
        assert!(!page.contains("<script>"), "{page}");
        assert!(!page.contains("<b>"), "{page}");
        assert!(
            page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{page}"
        );
        assert!(page.contains("/properties/&lt;b&gt;x"), "{page}");
    }

    #[test]
    fn control_and_bidi_characters_are_shown_escaped() {
        let r = report(serde_json::json!([{
            "name": "a\u{202e}b\u{1b}[2J\u{0}",
            "description": "d",
            "input_schema": {"type":"object","properties":{"x\u{2066}":{"type":"array"}}}
        }]));
        let page = render(&r, &[]);
        assert!(
            !page.chars().any(|c| c.is_control() && c != '\n'
                || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')),
            "{page:?}"
        );
        assert!(page.contains(r"a\u{202e}b\u{1b}[2J\u{0}"), "{page}");
        assert!(page.contains(r"/properties/x\u{2066}"), "{page}");
    }

    #[test]
    fn the_page_has_the_summary_every_rule_counted_and_every_finding() {
        let r = report(serde_json::json!([{
            "name": "f", "description": "d",
            "input_schema": {"type":"object","properties":{"a":{"type":"array"},"b":{"const":"x"}}}
        }]));
        assert!(!r.findings.is_empty());
        let page = render(&r, &[]);
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains(&maud::html! { (r.summary()) }.into_string()));
        for (rule, n) in counts(&r.findings) {
            assert!(
                page.contains(&format!("<td><code>{rule}</code></td><td>{n}</td>")),
                "{rule}: {page}"
            );
        }
        // One row per finding, plus one heading row per tool.
        assert_eq!(page.matches("<td class=\"").count(), r.findings.len());
        assert_eq!(page.matches("<tr class=\"tool\">").count(), 1);
    }

    /// As in text output, the missing-evidence text is one note the warnings link to.
    #[test]
    fn the_missing_evidence_text_is_one_linked_note() {
        let mut r = report(serde_json::json!([{
            "name": "f", "description": "d",
            "input_schema": {"type":"object","properties":{"a":{"type":"array"}}}
        }]));
        let warning = |pointer: &str| crate::check::Finding {
            pointer: pointer.into(),
            fix: UNVERIFIED_FIX.into(),
            level: Level::Warning,
            ..r.findings[0].clone()
        };
        let (a, b) = (
            warning("/properties/a/minimum"),
            warning("/properties/b/minimum"),
        );
        r.findings.extend([a, b]);
        let unverified = r
            .findings
            .iter()
            .filter(|f| f.fix == UNVERIFIED_FIX)
            .count();
        assert!(unverified >= 2);
        let page = render(&r, &[]);
        assert_eq!(page.matches(UNVERIFIED_FIX).count(), 1, "{page}");
        assert_eq!(
            page.matches(r##"see <a href="#note-1">note [1]</a>"##)
                .count(),
            unverified
        );
        assert!(
            page.contains(r#"<p id="note-1">[1] Nothing to fix yet"#),
            "{page}"
        );
        r.errors_only();
        let page = render(&r, &[]);
        assert!(
            !page.contains("note-1") && !page.contains("Nothing to fix"),
            "{page}"
        );
    }

    #[test]
    fn tools_asking_for_strict_mode_get_their_note() {
        let r = report(serde_json::json!({"tools":[{"type":"function","function":{
            "name":"f","description":"d","strict":true,
            "parameters":{"type":"object","properties":{"a":{"type":"array"}}}}}]}));
        let page = render(&r, &[]);
        assert!(
            page.contains("1 tool asks for OpenAI&#39;s strict mode")
                || page.contains("1 tool asks for OpenAI's strict mode"),
            "{page}"
        );
        // Anthropic's strict tool use has its note on the page as in human output.
        let r = report(
            serde_json::json!({"tools":[{"name":"f","description":"d","strict":true,
            "input_schema":{"type":"object","properties":{"a":{"type":"string"}}}}]}),
        );
        let page = render(&r, &[]);
        assert!(page.contains("1 tool asks for strict tool use"), "{page}");
    }
}
