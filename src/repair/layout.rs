//! Writing a document in the layout of the text it was read from, so that `repair -o` over
//! the input changes only what repair changed: a document (or a JSON Lines line) repair left
//! as it was is written back byte for byte, and one it changed is pretty-printed with the
//! input's own indentation unit and line ending.

use serde::Serialize;
use serde_json::Value;

/// The indentation unit of `text` (a JSON document): the leading whitespace of its first
/// indented line when that starts with a tab (`"\t"`) or is 4 spaces (`"    "`); 2 spaces
/// otherwise, including for a document on one line.
pub fn indent_of(text: &str) -> &'static str {
    let first = text
        .lines()
        .skip(1)
        .find(|l| l.starts_with([' ', '\t']) && !l.trim().is_empty());
    match first {
        Some(l) if l.starts_with('\t') => "\t",
        Some(l) if l.len() - l.trim_start_matches(' ').len() == 4 => "    ",
        _ => "  ",
    }
}

/// The line ending of `text`'s first line: `"\r\n"` when it ends so, else `"\n"`.
pub fn line_ending_of(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if text[..i].ends_with('\r') => "\r\n",
        _ => "\n",
    }
}

/// `value` pretty-printed with `indent` as the unit and `newline` between lines, followed by
/// `newline` (JSON strings hold no raw line break, so every one is the printer's).
pub fn pretty(value: &Value, indent: &str, newline: &str) -> String {
    let mut bytes = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut bytes, formatter);
    // Writing a `Value` to memory cannot fail.
    let _ = value.serialize(&mut ser);
    let mut s = String::from_utf8(bytes).unwrap_or_default();
    s.push('\n');
    if newline == "\n" {
        s
    } else {
        s.replace('\n', newline)
    }
}

/// The text of one whole document read from `text` as `original` and to be written as
/// `written`: `text` itself when they are equal, else [`pretty`] in `text`'s indentation unit
/// and line ending (with a final line ending when `text` has one).
pub fn document(text: &str, original: &Value, written: &Value) -> String {
    if original == written {
        return text.to_string();
    }
    let newline = line_ending_of(text);
    let mut out = pretty(written, indent_of(text), newline);
    if !text.ends_with('\n') {
        out.truncate(out.len() - newline.len());
    }
    out
}

/// The line ending `line` (a piece of `str::split_inclusive('\n')`) ends with: `"\r\n"`,
/// `"\n"`, or `""` for a last line without one.
pub fn ending_of_line(line: &str) -> &str {
    if line.ends_with("\r\n") {
        "\r\n"
    } else if line.ends_with('\n') {
        "\n"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_indentation_unit_is_read_from_the_first_indented_line() {
        assert_eq!(
            indent_of("{\n    \"a\": {\n        \"b\": 1\n    }\n}\n"),
            "    "
        );
        assert_eq!(indent_of("[\n\t{\n\t\t\"a\": 1\n\t}\n]"), "\t");
        assert_eq!(indent_of("{\n  \"a\": 1\n}"), "  ");
        assert_eq!(indent_of("{\"a\": 1}"), "  ", "one line: the default");
        assert_eq!(
            indent_of("{\n   \"a\": 1\n}"),
            "  ",
            "3 spaces: the default"
        );
        assert_eq!(indent_of("{\r\n    \"a\": 1\r\n}\r\n"), "    ");
    }

    #[test]
    fn an_unchanged_document_is_its_own_text_and_a_changed_one_keeps_the_layout() {
        let text = "{\r\n    \"a\": [1,   2],\r\n    \"b\": 1.50\r\n}";
        let original: Value = serde_json::from_str(text).unwrap();
        assert_eq!(document(text, &original, &original), text);
        let changed = json!({"a": [1, 2], "b": 2});
        assert_eq!(
            document(text, &original, &changed),
            "{\r\n    \"a\": [\r\n        1,\r\n        2\r\n    ],\r\n    \"b\": 2\r\n}"
        );
        let tabbed = "[\n\t{\"x\": 1}\n]\n";
        let original: Value = serde_json::from_str(tabbed).unwrap();
        assert_eq!(
            document(tabbed, &original, &json!([{"x": 2}])),
            "[\n\t{\n\t\t\"x\": 2\n\t}\n]\n"
        );
    }

    #[test]
    fn line_endings_are_read_per_line() {
        let pieces: Vec<&str> = "a\r\nb\n\r\nc".split_inclusive('\n').collect();
        let endings: Vec<&str> = pieces.iter().map(|l| ending_of_line(l)).collect();
        assert_eq!(endings, ["\r\n", "\n", "\r\n", ""]);
        assert_eq!(line_ending_of("x\r\ny"), "\r\n");
        assert_eq!(line_ending_of("x"), "\n");
    }
}
