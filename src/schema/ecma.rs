//! ECMA-262 regular expressions (the dialect of JSON Schema's `pattern`, 2020-12 validation
//! §6.3.3) read by Rust's engines.
//!
//! The `jsonschema` crate translates most of ECMA-262 (`\d` as ASCII digits, `\cX`, ...)
//! before fancy-regex compiles a pattern, but it refuses two character escapes that
//! ECMA-262 (2024, §22.2.1) defines and Rust's engines spell otherwise, so a valid pattern such
//! as zod's `/^[^\0]+$/` was called invalid:
//!
//! - `\0` not followed by a decimal digit (CharacterEscape `0 [lookahead ∉ DecimalDigit]`): the
//!   NUL character. Followed by a digit it is an octal escape, which only Annex B's non-Unicode
//!   mode has, and it is left to be refused.
//! - `\b` inside a character class (ClassEscape `b`): the backspace character (outside a
//!   class it is a word boundary, as in Rust).
//!
//! `\u{...}` needs no rewriting: Rust reads it as a code point, which is what it means in
//! Unicode mode (in Annex B's non-Unicode mode it is `u` repeated, a reading no schema means).

use std::borrow::Cow;

/// `pattern` with the ECMA-262 escapes Rust's engines lack written in their Rust spelling
/// (`\0` → `\x00`, `[\b]` → `[\x08]`); everything else as written, so a pattern that is
/// invalid stays invalid. Borrowed when nothing is rewritten.
pub fn rust_pattern(pattern: &str) -> Cow<'_, str> {
    if !pattern.contains("\\0") && !pattern.contains("\\b") {
        return Cow::Borrowed(pattern);
    }
    let mut out = String::with_capacity(pattern.len() + 4);
    let mut in_class = false;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('0') if !chars.peek().is_some_and(char::is_ascii_digit) => {
                    out.push_str("\\x00");
                }
                Some('b') if in_class => out.push_str("\\x08"),
                Some(e) => {
                    out.push('\\');
                    out.push(e);
                }
                None => out.push('\\'),
            },
            // ECMA-262 has no nested classes: `[` in a class is literal, `]` always ends it.
            '[' => {
                in_class = true;
                out.push(c);
            }
            ']' => {
                in_class = false;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    if out == pattern {
        Cow::Borrowed(pattern)
    } else {
        Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use super::rust_pattern;

    /// Whether `pattern` compiles as the `jsonschema` crate compiles a `pattern`.
    fn compiles(pattern: &str) -> bool {
        jsonschema::draft202012::options()
            .build(&serde_json::json!({ "pattern": pattern }))
            .is_ok()
    }

    /// Whether `pattern`, read through [`rust_pattern`], matches `text`.
    fn matches(pattern: &str, text: &str) -> bool {
        let schema = serde_json::json!({ "pattern": rust_pattern(pattern) });
        jsonschema::draft202012::options()
            .build(&schema)
            .expect("compiles")
            .is_valid(&serde_json::json!(text))
    }

    #[test]
    fn nul_escape_is_the_nul_character() {
        assert!(!compiles(r"^[^\0]+$"), "the crate alone refuses it");
        assert_eq!(rust_pattern(r"^[^\0]+$"), r"^[^\x00]+$");
        assert!(matches(r"^[^\0]+$", "abc"));
        assert!(!matches(r"^[^\0]+$", "a\0c"));
        assert!(matches(r"^a\0$", "a\0"));
    }

    #[test]
    fn nul_followed_by_a_digit_stays_refused() {
        assert_eq!(rust_pattern(r"\01"), r"\01");
        assert!(!compiles(&rust_pattern(r"\01")));
    }

    #[test]
    fn backspace_in_a_class_and_word_boundary_outside() {
        assert!(!compiles(r"[\b]"), "the crate alone refuses it");
        assert_eq!(rust_pattern(r"\b[\b]\b"), r"\b[\x08]\b");
        assert!(matches(r"^[\b]$", "\u{8}"));
        assert!(!matches(r"^[\b]$", "b"));
    }

    #[test]
    fn escaped_backslash_and_brackets_are_not_escapes_or_classes() {
        // `\\0` is a backslash then `0`; `\[\b` is outside any class.
        assert_eq!(rust_pattern(r"\\0\[\b"), r"\\0\[\b");
        assert!(matches(r"^\\0$", "\\0"));
    }

    #[test]
    fn escapes_the_crate_already_reads_and_invalid_ones_are_left() {
        for p in [r"^\cC$", r"\u{41}", r"\u0041", r"\q", r"(", r"[a-"] {
            assert_eq!(rust_pattern(p), p);
        }
        assert!(matches(r"^\cC$", "\u{3}"));
        assert!(!compiles(&rust_pattern(r"\q")));
    }
}
