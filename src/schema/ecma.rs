//! ECMA-262 regular expressions (the dialect of JSON Schema's `pattern`, 2020-12 validation
//! §6.3.3) read by Rust's engines.
//!
//! The `jsonschema` crate translates most of ECMA-262 (`\d` as ASCII digits, `\cX`, ...)
//! before fancy-regex compiles a pattern (not one with a lookaround or a backreference, which
//! is translated here, [`ecma_reading`]), but it refuses two character escapes that
//! ECMA-262 (2024, §22.2.1) defines and Rust's engines spell otherwise, so a valid pattern such
//! as zod's `/^[^\0]+$/` was called invalid:
//!
//! - `\0` not followed by a decimal digit (CharacterEscape `0 [lookahead ∉ DecimalDigit]`): the
//!   NUL character. Followed by a digit it is an octal escape, which only Annex B's non-Unicode
//!   mode has, and it is left to be refused.
//! - `\b` inside a character class (ClassEscape `b`): the backspace character (outside a
//!   class it is a word boundary, ASCII in ECMA-262, [`ecma_reading`]).
//!
//! - `[^]` (any character, newline included) and `[]` (no character): ECMA-262's empty
//!   classes (ClassContents may be empty, §22.2.1), common in generated schemas (`[^]*` for "any
//!   text"). Rust's engines refuse an empty class; `[\s\S]` and `[^\s\S]` mean the same.
//!
//! - `\k<name>`, the named backreference, which the `jsonschema` crate's translation refuses:
//!   the numbered `\N` of its group, where that means the same ([`backrefs`]).
//!
//! - `\uD83D\uDE00`, a UTF-16 surrogate pair written as two escapes: one code point, U+1F600
//!   (RegExpUnicodeEscapeSequence :: `u` HexLeadSurrogate `\u` HexTrailSurrogate, §22.2.1;
//!   without the `u` flag the two UTF-16 units a string holds it as, the same text). Rust's
//!   engines refuse each half ([`surrogate_pair`]).
//!
//! - `\uD800`, a lone surrogate, which ECMA-262's Unicode mode reads as a code point that no
//!   Rust string, so no argument, holds: what it matches there, nothing, in a class or not
//!   (`[^\uD800-\uDFFF]` is then any character; [`lone_surrogates`]).
//!
//! A backreference to a group that may not have matched cannot be spelled for fancy-regex at
//! all (ECMA-262 matches the empty string there, fancy-regex fails); [`unsupported`] says so,
//! and such a pattern is left unchecked with a warning rather than checked wrongly.
//!
//! `\u{...}` needs no rewriting: Rust reads it as a code point, which is what it means in
//! Unicode mode (in Annex B's non-Unicode mode it is `u` repeated, a reading no schema means).

use std::borrow::Cow;

mod backrefs;
#[cfg(test)]
mod node_verdicts;

/// `pattern` with the ECMA-262 spellings Rust's engines lack written in theirs (`\0` →
/// `\x00`, `[\b]` → `[\x08]`, `[^]` → `[\s\S]`, `[]` → `[^\s\S]`, `\uD83D\uDE00` →
/// `\u{1F600}`; `\b`, `\B` as lookarounds and, in a pattern the `jsonschema` crate leaves
/// untranslated, `\d`, `\w`, `\s`, `.` with their ECMA-262 meaning, [`ecma_reading`]), for
/// the `jsonschema` crate (fancy-regex); everything else as written, so a pattern that is
/// invalid stays invalid. Borrowed when nothing is rewritten.
pub fn rust_pattern(pattern: &str) -> Cow<'_, str> {
    engine_pattern(pattern, Engine::Fancy)
}

/// [`rust_pattern`] for the `regex` crate, which has no lookaround and no ECMA-262 reading of
/// its own: `\b` and `\B` written as its ASCII boundaries, `(?-u:\b)` and `(?-u:\B)` (which
/// the `jsonschema` crate refuses), and `\d`, `\w`, `\s`, `.` always with their ECMA-262
/// meaning ([`ecma_reading`]).
pub fn regex_crate_pattern(pattern: &str) -> Cow<'_, str> {
    engine_pattern(pattern, Engine::Regex)
}

fn engine_pattern(pattern: &str, engine: Engine) -> Cow<'_, str> {
    let numbered = match numbered_references(pattern) {
        Cow::Borrowed(_) => lone_surrogates(pattern),
        Cow::Owned(numbered) => Cow::Owned(lone_surrogates(&numbered).into_owned()),
    };
    let spelled = match numbered {
        Cow::Borrowed(_) => spelled(pattern),
        Cow::Owned(numbered) => Cow::Owned(spelled(&numbered).into_owned()),
    };
    match ecma_reading(&spelled, engine) {
        Some(ascii) => Cow::Owned(ascii),
        None => spelled,
    }
}

/// The engine a pattern is written for.
#[derive(Clone, Copy, PartialEq)]
enum Engine {
    /// fancy-regex, through the `jsonschema` crate.
    Fancy,
    /// The `regex` crate.
    Regex,
}

/// ECMA-262's word characters, `[A-Za-z0-9_]`: what `\w` matches and `\b`, `\B` look at on
/// either side (2024, §22.2.2.4 CompileAssertion, IsWordChar; WordCharacters holds only these
/// unless both the `u` and `i` flags are set, and a `pattern` has no flags).
const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
const DIGIT: &[(char, char)] = &[('0', '9')];
/// ECMA-262's `\s`: WhiteSpace and LineTerminator (2024, §12.2: TAB, VT, FF, ZWNBSP and
/// every Zs; §12.3: LF, CR, LS, PS). Rust's `\s` adds U+0085 and lacks U+FEFF.
const SPACE: &[(char, char)] = &[
    ('\t', '\r'),
    (' ', ' '),
    ('\u{A0}', '\u{A0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200A}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202F}', '\u{202F}'),
    ('\u{205F}', '\u{205F}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{FEFF}', '\u{FEFF}'),
];

/// `pattern` (in the engine's spelling) with what ECMA-262 reads otherwise than Rust's engines
/// written with its ECMA-262 meaning for `engine`; `None` when nothing needs it.
///
/// - `\b`, `\B` outside a class: Rust's engines read them by Unicode's word characters, so
///   `^caf\b` refused "café" and `^\bé` took "é", where ECMA-262 reads the opposite ([`WORD`]).
///   For fancy-regex they become lookarounds on `[A-Za-z0-9_]`, for the `regex` crate
///   `(?-u:\b)`, `(?-u:\B)` (which the `jsonschema` crate refuses).
/// - `\d`, `\w` (ASCII), `\s` ([`SPACE`]), their negations, in a class too, and `.` (no line
///   terminator, [`NOT_LINE_TERMINATOR`]): Rust reads them by Unicode (`\d` takes "١", `.` a
///   U+2028). The `jsonschema` crate writes them so itself, but not in a pattern with a
///   lookaround or a backreference, which it leaves as written: for fancy-regex they are
///   written here only in such a pattern (a boundary written as lookarounds makes one), so
///   that any other keeps the crate's own reading and the faster engines it picks for it. The
///   `regex` crate has no such reading: there they are always written here.
/// - `\cX`, for fancy-regex, in a pattern the crate leaves as written.
/// - `.`, `^` and `$` inside an ES2025 modifier group that sets `s` or `m` ([`Modifiers`]):
///   `(?s:.)` any character (the crate wrote it as `.` without `s`, so `^b(?s:.)$` refused
///   "b\n"), `(?m:$)` before any line terminator and `(?m:^)` after one, as lookarounds (Rust's
///   `(?m)` knows only LF, so `^a(?m:$)\rb$` refused "a\rb"); such a pattern is always written
///   here.
fn ecma_reading(pattern: &str, engine: Engine) -> Option<String> {
    let mut out = String::with_capacity(pattern.len() * 2);
    let mut rewritten = false;
    // Whether the `jsonschema` crate leaves the pattern as written for fancy-regex.
    let mut untranslated = false;
    // Whether a `.`, `^` or `$` was written as an ES2025 modifier (`(?s:`, `(?m:`) makes it
    // read, which neither the crate nor the engines know: the pattern must be written here.
    let mut modified = false;
    // The modifiers in force (dotAll `s`, multiline `m`), and those of each open group.
    let mut flags = Modifiers::default();
    let mut groups: Vec<Modifiers> = Vec::new();
    let mut in_class = false;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(b @ ('b' | 'B')) if !in_class => {
                    rewritten = true;
                    untranslated = true;
                    out.push_str(match (engine, b) {
                        (Engine::Regex, 'b') => "(?-u:\\b)",
                        (Engine::Regex, _) => "(?-u:\\B)",
                        (Engine::Fancy, 'b') => {
                            "(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))"
                        }
                        (Engine::Fancy, _) => {
                            "(?:(?<=[A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<![A-Za-z0-9_])(?![A-Za-z0-9_]))"
                        }
                    });
                }
                Some(e) if is_class_escape(e) => {
                    rewritten = true;
                    let set = match e.to_ascii_lowercase() {
                        'd' => DIGIT,
                        'w' => WORD,
                        _ => SPACE,
                    };
                    let negated = e.is_ascii_uppercase();
                    if in_class {
                        out.push_str(&class_items(set, negated));
                    } else {
                        out.push_str(if negated { "[^" } else { "[" });
                        out.push_str(&class_items(set, false));
                        out.push(']');
                    }
                }
                Some('c')
                    if engine == Engine::Fancy
                        && chars.peek().is_some_and(char::is_ascii_alphabetic) =>
                {
                    rewritten = true;
                    let letter = chars.next().map_or(0, |l| l as u32);
                    out.push_str(&format!("\\x{{{:X}}}", letter % 32));
                }
                Some(e) => {
                    // `\1`: a backreference (in a class, Annex B's octal, which the crate
                    // leaves as written too).
                    untranslated |= matches!(e, '1'..='9');
                    out.push('\\');
                    out.push(e);
                }
                None => out.push('\\'),
            },
            '.' if !in_class => {
                rewritten = true;
                modified |= flags.dot_all;
                out.push_str(if flags.dot_all {
                    ANY_CHARACTER
                } else {
                    NOT_LINE_TERMINATOR
                });
            }
            '^' | '$' if !in_class && flags.multiline => {
                rewritten = true;
                modified = true;
                // A lookaround: the crate leaves the pattern as written.
                untranslated = true;
                out.push_str(if c == '^' {
                    r"(?:\A|(?<=[\n\r\x{2028}\x{2029}]))"
                } else {
                    r"(?:\z|(?=[\n\r\x{2028}\x{2029}]))"
                });
            }
            '(' if !in_class => {
                let mut ahead = chars.clone();
                untranslated |= ahead.next() == Some('?')
                    && match ahead.next() {
                        Some('=' | '!') => true,
                        Some('<') => matches!(ahead.next(), Some('=' | '!')),
                        _ => false,
                    };
                groups.push(flags);
                // `?` and at most `ims-ims:` (more is no modifier group).
                if let Some(rest) = chars.clone().take(10).collect::<String>().strip_prefix('?') {
                    flags = flags.in_group(rest);
                }
                out.push(c);
            }
            ')' if !in_class => {
                flags = groups.pop().unwrap_or_default();
                out.push(c);
            }
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
    (modified || (rewritten && (engine == Engine::Regex || untranslated))).then_some(out)
}

/// ES2025's modifiers that change what `.`, `^` and `$` match (2025, §22.2.2.3, §22.2.2.6;
/// `i` is left to the engines, which read `(?i:...)` alike): `s` (dotAll) makes `.` any
/// character, `m` (multiline) makes `^` and `$` match beside every LineTerminator too (LF, CR,
/// U+2028, U+2029; Rust's `(?m)` knows only LF). A pattern has no flags: both are off outside
/// such a group.
#[derive(Clone, Copy, Default)]
struct Modifiers {
    dot_all: bool,
    multiline: bool,
}

impl Modifiers {
    /// The modifiers inside the group whose text after `(?` is `rest`: changed where it is a
    /// modifier group (`s:`, `m-s:`, [`modifiers`]), else these.
    fn in_group(self, rest: &str) -> Self {
        let written: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphabetic() || *c == '-')
            .collect();
        if written.is_empty() || !rest[written.len()..].starts_with(':') || !modifiers(&written) {
            return self;
        }
        let (on, off) = written.split_once('-').unwrap_or((&written, ""));
        let mut out = self;
        for (set, value) in [(on, true), (off, false)] {
            out.dot_all = if set.contains('s') {
                value
            } else {
                out.dot_all
            };
            out.multiline = if set.contains('m') {
                value
            } else {
                out.multiline
            };
        }
        out
    }
}

/// ECMA-262's `.` with the `s` flag (dotAll): any character, line terminators included
/// (2024, §22.2.2.7 CharacterSetMatcher with dotAll, as Node's `/^b.$/su` matches "b\n").
const ANY_CHARACTER: &str = r"[\x{0}-\x{10FFFF}]";

/// ECMA-262's `.` (without the `s` flag): any character but a LineTerminator (2024, §12.3:
/// LF, CR, LS, PS); Rust's `.` refuses only LF.
const NOT_LINE_TERMINATOR: &str = r"[^\n\r\x{2028}\x{2029}]";

/// `set` (or every other character, `negated`) as the ranges of a class, `\x{30}-\x{39}`.
fn class_items(set: &[(char, char)], negated: bool) -> String {
    let mut ranges: Vec<(u32, u32)> = set.iter().map(|&(a, b)| (a.into(), b.into())).collect();
    if negated {
        let mut next = 0;
        let mut others = Vec::with_capacity(ranges.len() + 1);
        for (a, b) in ranges {
            if a > next {
                others.push((next, a - 1));
            }
            next = b + 1;
        }
        others.push((next, char::MAX.into()));
        ranges = others;
    }
    ranges
        .iter()
        .map(|(a, b)| format!("\\x{{{a:X}}}-\\x{{{b:X}}}"))
        .collect()
}

/// `pattern` with its backreferences written for fancy-regex: each named one as the numbered
/// one of its group (`(?<n>a)\k<n>` → `(?<n>a)\1`; the crate refuses `\k`), and each to a
/// group that may not have matched, where fancy-regex's conditional reads it as ECMA-262 does
/// ([`backrefs::Backref::guarded`]), as that conditional, `(?(1)\1|)`: the group's text where
/// it has matched, else the empty string (2024, §22.2.2.7.2 BackreferenceMatcher). The others
/// keep the engine's reading, for [`unsupported`] to name.
///
/// A pattern holding a conditional begins with `(?=)` (an empty lookahead, which always
/// holds): the `jsonschema` crate's translation refuses a conditional, and leaves a pattern
/// whose first construct it cannot translate is a lookaround as written (`^(?:(a)|b)(?(1)\1|)$`
/// alone does not compile).
fn numbered_references(pattern: &str) -> Cow<'_, str> {
    if !pattern.contains('\\') {
        return Cow::Borrowed(pattern);
    }
    let (refs, _) = backrefs::scan(pattern);
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut at = 0;
    let mut guarded = false;
    for r in refs.iter().filter(|r| r.named || r.guarded) {
        let Some(n) = r.group else { continue };
        out.push_str(&pattern[at..r.span.start]);
        if r.guarded {
            guarded = true;
            out.push_str(&format!("(?({n})\\{n}|)"));
        } else if pattern[r.span.end..].starts_with(|c: char| c.is_ascii_digit()) {
            // `\1` before a digit would read as `\10`.
            out.push_str(&format!("(?:\\{n})"));
        } else {
            out.push_str(&format!("\\{n}"));
        }
        at = r.span.end;
    }
    if at == 0 {
        return Cow::Borrowed(pattern);
    }
    out.push_str(&pattern[at..]);
    if guarded {
        out.insert_str(0, "(?=)");
    }
    Cow::Owned(out)
}

/// `pattern` with each escape of a lone surrogate (`\uD800`, `\u{DFFF}`: half of a UTF-16
/// pair, not followed by the other half as a `\uHHHH` escape) written as what it matches in
/// the text `pattern` is checked against. With the `u` flag ECMA-262 reads it as the code
/// point U+D800 (2024, §22.2.1 RegExpUnicodeEscapeSequence; valid: Node v20 compiles
/// `/^[^\uD800-\uDFFF]*$/u`), which Rust's engines refuse to spell; and no text toolwire
/// checks holds one: a Rust string cannot, and a JSON string escaping one is refused as no
/// JSON (`crate::json`'s lone surrogate problem). So, exactly for such text:
///
/// - outside a class, one matches nothing: `[]` (which [`spelled`] writes `[^\s\S]`);
/// - in a class, one is left out, and a range with one end a lone surrogate keeps the code
///   points that are no surrogate (`\uD800-\uFFFF` → `\u{E000}-\uFFFF`, `a-\uDBFF` →
///   `a-\u{D7FF}`), so `[\uD800-\uDFFF]` matches nothing (`[]`) and `[^\uD800-\uDFFF]` every
///   character (`[^]`). A range whose ends are out of order stays as written, refused as
///   ECMA-262 refuses it; beside a class escape (`[\d-\uD800]`) the `-` is itself, as Annex B
///   reads it ([`spelled`]).
///
/// A class holding none is left as written.
fn lone_surrogates(pattern: &str) -> Cow<'_, str> {
    if !pattern.contains("\\u") {
        return Cow::Borrowed(pattern);
    }
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut at = 0;
    let mut changed = false;
    while at < pattern.len() {
        let rest = &pattern[at..];
        if rest.starts_with('[') {
            let (end, rewritten) = class_without_surrogates(pattern, at);
            match rewritten {
                Some(class) => {
                    changed = true;
                    out.push_str(&class);
                }
                None => out.push_str(&pattern[at..end]),
            }
            at = end;
            continue;
        }
        let atom = class_atom(rest);
        if let Atom::Lone(_) = atom.kind {
            changed = true;
            out.push_str("[]");
        } else {
            out.push_str(atom.text);
        }
        at += atom.text.len();
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(pattern)
    }
}

/// One atom of a pattern (or of a class): its text and what it is.
struct ClassAtom<'a> {
    text: &'a str,
    kind: Atom,
}

#[derive(Clone, Copy, PartialEq)]
enum Atom {
    /// An escape of a lone surrogate, with its code unit.
    Lone(u32),
    /// A class escape (`\d`, `\p{L}`): a set, which ends no range.
    Set,
    /// A `-` as written (in a class, a range's dash or the character).
    Dash,
    /// Anything else: a character, or an escape of one.
    Other,
}

/// The atom `text` begins with (at least one character; `text` is not empty).
fn class_atom(text: &str) -> ClassAtom<'_> {
    let mut chars = text.chars();
    let first = chars.next().unwrap_or('\\');
    let one = |len: usize, kind| ClassAtom {
        text: &text[..len.min(text.len())],
        kind,
    };
    if first != '\\' {
        return one(
            first.len_utf8(),
            if first == '-' {
                Atom::Dash
            } else {
                Atom::Other
            },
        );
    }
    let Some(e) = chars.next() else {
        return one(1, Atom::Other);
    };
    let braced = |from: usize| text[from..].find('}').map(|end| from + end + 1);
    match e {
        'u' => {
            let hex4 = |from: usize| {
                text.get(from..from + 4)
                    .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
                    .and_then(|d| u32::from_str_radix(d, 16).ok())
            };
            if text[2..].starts_with('{')
                && let Some(end) = braced(2)
            {
                let digits = &text[3..end - 1];
                // Hex digits only: `from_str_radix` would also take a sign (`\u{+d800}`).
                let point = digits
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit())
                    .then(|| u32::from_str_radix(digits, 16).ok())
                    .flatten();
                return match point.filter(|u| (0xD800..0xE000).contains(u)) {
                    Some(u) => one(end, Atom::Lone(u)),
                    None => one(end, Atom::Other),
                };
            }
            match hex4(2) {
                // A pair: one code point, [`spelled`]'s to write.
                Some(0xD800..0xDC00)
                    if text[6..].starts_with("\\u")
                        && hex4(8).is_some_and(|t| (0xDC00..0xE000).contains(&t)) =>
                {
                    one(12, Atom::Other)
                }
                Some(u @ 0xD800..0xE000) => one(6, Atom::Lone(u)),
                Some(_) => one(6, Atom::Other),
                None => one(2, Atom::Other),
            }
        }
        'p' | 'P' if text[2..].starts_with('{') => one(braced(2).unwrap_or(2), Atom::Set),
        e if is_class_escape(e) => one(2, Atom::Set),
        e => one(1 + e.len_utf8(), Atom::Other),
    }
}

/// The class that begins at `start` of `pattern`: where it ends (past its `]`, or the end of
/// the pattern) and, when it holds a lone surrogate, its text with them written as
/// [`lone_surrogates`] says.
fn class_without_surrogates(pattern: &str, start: usize) -> (usize, Option<String>) {
    let mut at = start + 1;
    let negated = pattern[at..].starts_with('^');
    if negated {
        at += 1;
    }
    let mut atoms = Vec::new();
    while at < pattern.len() && !pattern[at..].starts_with(']') {
        let atom = class_atom(&pattern[at..]);
        at += atom.text.len();
        atoms.push(atom);
    }
    let end = (at + 1).min(pattern.len());
    if !atoms.iter().any(|a| matches!(a.kind, Atom::Lone(_))) || at == pattern.len() {
        return (end, None);
    }
    // As Rust's engines read it: `-`, `^`, `&`, `~`, `[` escaped, so that no atom left beside
    // another makes a range, a negation, a set operation or a nested class of them.
    let written = |a: &ClassAtom<'_>| match a.text {
        "-" | "^" | "&" | "~" | "[" => format!("\\{}", a.text),
        t => t.to_string(),
    };
    let mut out = String::from(if negated { "[^" } else { "[" });
    let mut i = 0;
    while i < atoms.len() {
        let a = &atoms[i];
        let range = atoms.get(i + 1).is_some_and(|d| d.kind == Atom::Dash) && i + 2 < atoms.len();
        if !range || a.kind == Atom::Set || atoms[i + 2].kind == Atom::Set {
            // One atom (a `-` beside a class escape is one, Annex B).
            if !matches!(a.kind, Atom::Lone(_)) {
                out.push_str(&written(a));
            }
            i += 1;
            continue;
        }
        let b = &atoms[i + 2];
        match (a.kind, b.kind) {
            (Atom::Lone(x), Atom::Lone(y)) if x <= y => {}
            (Atom::Lone(_), Atom::Lone(_)) => {
                out.push_str(a.text);
                out.push('-');
                out.push_str(b.text);
            }
            (_, Atom::Lone(_)) => {
                // `a` is no surrogate: at most U+D7FF where the range is in order (else the
                // engine refuses it, as ECMA-262 does).
                out.push_str(&written(a));
                out.push_str("-\\u{D7FF}");
            }
            (Atom::Lone(_), _) => {
                out.push_str("\\u{E000}-");
                out.push_str(&written(b));
            }
            _ => {
                out.push_str(&written(a));
                out.push('-');
                out.push_str(&written(b));
            }
        }
        i += 3;
    }
    out.push(']');
    (end, Some(out))
}

/// The ECMA-262 character spellings of [`rust_pattern`], on a pattern whose backreferences
/// are already numbered.
fn spelled(pattern: &str) -> Cow<'_, str> {
    if !["\\0", "\\b", "\\u", "[]", "[^]", "{", "-"]
        .iter()
        .any(|s| pattern.contains(s))
    {
        return Cow::Borrowed(pattern);
    }
    // Whether the last atom written in the class was a class escape (`\d`): a `-` beside
    // one is literal in Annex B (`[\d-z]` is digits, `-` and `z`), a range Rust refuses.
    let mut after_class_escape = false;
    let mut out = String::with_capacity(pattern.len() + 4);
    let mut in_class = false;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        let escape_before = std::mem::take(&mut after_class_escape);
        match c {
            '\\' => match chars.next() {
                Some('0') if !chars.peek().is_some_and(char::is_ascii_digit) => {
                    out.push_str("\\x00");
                }
                Some('b') if in_class => out.push_str("\\x08"),
                Some(e) => {
                    if e == 'u'
                        && let Some(point) = surrogate_pair(chars.clone())
                    {
                        out.push_str(&format!("\\u{{{:X}}}", u32::from(point)));
                        // The ten characters after this `u`: `D83D\uDE00`.
                        chars.nth(9);
                        continue;
                    }
                    out.push('\\');
                    out.push(e);
                    // `\p{L}`, `\u{1F600}`: the braces are the escape's, no quantifier.
                    if matches!(e, 'p' | 'P' | 'u') && chars.peek() == Some(&'{') {
                        for b in chars.by_ref() {
                            out.push(b);
                            if b == '}' {
                                break;
                            }
                        }
                    }
                    after_class_escape = in_class && is_class_escape(e);
                    continue;
                }
                None => out.push('\\'),
            },
            '-' if in_class
                && (escape_before
                    || (chars.peek() == Some(&'\\')
                        && chars.clone().nth(1).is_some_and(is_class_escape))) =>
            {
                out.push_str("\\-");
            }
            // Annex B reads a `{` that begins no quantifier (`a{,2}`, `x{`, `{}`) as itself;
            // Rust refuses it (and `a{,2}` would be `{0,2}` to Python).
            '{' if !in_class && !starts_quantifier(chars.clone()) => out.push_str("\\{"),
            // ECMA-262 has no nested classes: `[` in a class is literal, `]` always ends it
            // (so `[]` is a whole class, not one holding `]`).
            '[' if !in_class && chars.peek() == Some(&']') => {
                chars.next();
                out.push_str("[^\\s\\S]");
            }
            '[' if !in_class && chars.clone().take(2).eq(['^', ']']) => {
                chars.nth(1);
                out.push_str("[\\s\\S]");
            }
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

/// The code point of the surrogate pair that `rest`, the text after a `\u`, begins with as
/// four hex digits of a lead surrogate, `\u` and four of a trail one (`D83D\uDE00` →
/// U+1F600); `None` for anything else, a lone surrogate included.
fn surrogate_pair(rest: impl Iterator<Item = char>) -> Option<char> {
    let text: String = rest.take(10).collect();
    let hex = |digits: &str| {
        (digits.len() == 4 && digits.bytes().all(|b| b.is_ascii_hexdigit()))
            .then(|| u32::from_str_radix(digits, 16).ok())
            .flatten()
    };
    let lead = hex(text.get(..4)?).filter(|u| (0xD800..0xDC00).contains(u))?;
    let trail =
        hex(text.get(4..)?.strip_prefix("\\u")?).filter(|u| (0xDC00..0xE000).contains(u))?;
    char::from_u32(0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00))
}

/// ECMA-262's class escapes (CharacterClassEscape): one stands for a set, so it cannot end a
/// range.
fn is_class_escape(c: char) -> bool {
    matches!(c, 'd' | 'D' | 's' | 'S' | 'w' | 'W')
}

/// Whether the text after a `{` makes it a quantifier: `n}`, `n,}` or `n,m}` (Annex B's
/// QuantifierPrefix; anything else leaves the `{` a literal).
fn starts_quantifier(mut rest: impl Iterator<Item = char>) -> bool {
    let mut digits = 0;
    let mut comma = false;
    for c in rest.by_ref() {
        match c {
            '0'..='9' => digits += 1,
            ',' if !comma && digits > 0 => comma = true,
            '}' => return digits > 0,
            _ => return false,
        }
    }
    false
}

/// The first construct of `pattern` that ECMA-262 does not have but Rust's or PCRE's syntax
/// does, as a clause to follow "the pattern ..." naming it; `None` when there is none (the
/// pattern may still be invalid in other ways, which compiling it tells). The engine would
/// compile these with their Rust meaning (`(?i)` turning case off), so a pattern no JavaScript
/// validator accepts would be checked as if it were valid.
///
/// Escapes are judged as JSON Schema asks patterns to be read, with the `u` flag (2020-12 core
/// §6.4): there an escaped letter must be one ECMA-262 defines (2024, §22.2.1
/// CharacterEscape, CharacterClassEscape, IdentityEscape[+UnicodeMode] :: SyntaxCharacter or
/// `/`). Without `u`, Annex B (§B.1.2 IdentityEscape) reads `\A` as the letter `A`, never as
/// the anchor Rust reads, so either way the engine's reading is not ECMA-262's. Escaped
/// punctuation (`\-`, `\@`) is left: Annex B and Rust both read it as itself.
pub fn not_ecma(pattern: &str) -> Option<String> {
    let mut chars = pattern.char_indices().peekable();
    let mut in_class = false;
    // Whether the last token was a quantifier (`a+`, `a{2}`, lazy `a+?` included).
    let mut after_quantifier = false;
    // Whether the last token was an assertion no quantifier may follow (`^`, `$`, `\b`, `\B`).
    let mut after_assertion = false;
    const REPEATED_ASSERTION: &str = "quantifies an assertion (`^`, `$`, `\\b` or `\\B`, as in \
        `\\b*`), which ECMA-262 refuses with or without the `u` flag (a syntax error: nothing to \
        repeat)";
    while let Some((at, c)) = chars.next() {
        let quantified = std::mem::take(&mut after_quantifier);
        let asserted = std::mem::take(&mut after_assertion);
        match c {
            '\\' => match chars.next() {
                // `\k` is judged by [`unsupported`] (Annex B's literal `k` without named groups).
                Some((_, e)) if e.is_ascii_alphabetic() && !ecma_letter_escape(e, in_class) => {
                    return Some(format!(
                        "uses `\\{e}`, which is no ECMA-262 escape (with the `u` flag it is a \
                         syntax error; without it, the letter `{e}`){}",
                        escape_hint(e)
                    ));
                }
                Some((_, 'b' | 'B')) if !in_class => after_assertion = true,
                Some((_, 'p' | 'P' | 'u')) if chars.peek().is_some_and(|&(_, b)| b == '{') => {
                    for (_, b) in chars.by_ref() {
                        if b == '}' {
                            break;
                        }
                    }
                }
                _ => {}
            },
            '[' if in_class && pattern[at + 1..].starts_with(':') => {
                let rest = &pattern[at + 2..];
                if let Some(end) = rest.find(":]")
                    && rest[..end].chars().all(|n| n.is_ascii_alphabetic())
                    && end > 0
                {
                    return Some(format!(
                        "uses `[:{}:]`, a POSIX class, which ECMA-262 does not have (it reads \
                         `[`, `:` and the letters as characters of the class); write the class \
                         out, e.g. `[A-Za-z]` for `[:alpha:]`",
                        &rest[..end]
                    ));
                }
            }
            '[' if !in_class => {
                in_class = true;
                // `]` first in a class ends it (an empty class), `[^]` too.
                if chars.peek().is_some_and(|&(_, n)| n == '^') {
                    chars.next();
                }
                if chars.peek().is_some_and(|&(_, n)| n == ']') {
                    chars.next();
                    in_class = false;
                }
            }
            ']' if in_class => in_class = false,
            _ if in_class => {}
            '^' | '$' => after_assertion = true,
            '(' if pattern[at + 1..].starts_with('?') => {
                if let Some(why) = group_construct(&pattern[at + 2..]) {
                    return Some(why);
                }
                chars.next();
            }
            '*' | '+' | '?' if asserted => return Some(REPEATED_ASSERTION.into()),
            '{' if asserted && starts_quantifier(pattern[at + 1..].chars()) => {
                return Some(REPEATED_ASSERTION.into());
            }
            '*' | '+' | '?' => {
                if c == '+' && quantified {
                    return Some(
                        "uses a possessive quantifier (`+` after a quantifier, as in `a++`), \
                         which ECMA-262 does not have (it is a syntax error there: nothing to \
                         repeat)"
                            .into(),
                    );
                }
                // `+?` is lazy: the `?` belongs to the quantifier before it, and what
                // follows is no longer after a quantifier.
                after_quantifier = !(quantified && c == '?');
            }
            '{' if starts_quantifier(pattern[at + 1..].chars()) => {
                for (_, b) in chars.by_ref() {
                    if b == '}' {
                        break;
                    }
                }
                after_quantifier = true;
            }
            _ => {}
        }
    }
    None
}

/// Whether `\e` (a letter) is an escape ECMA-262 defines in Unicode mode, inside a class or
/// outside it (2024, §22.2.1: `b` is backspace in a class and a boundary outside, `B` only
/// outside; `k` is left to [`unsupported`]).
fn ecma_letter_escape(e: char, in_class: bool) -> bool {
    matches!(
        e,
        'b' | 'c'
            | 'd'
            | 'D'
            | 'f'
            | 'k'
            | 'n'
            | 'p'
            | 'P'
            | 'r'
            | 's'
            | 'S'
            | 't'
            | 'u'
            | 'v'
            | 'w'
            | 'W'
            | 'x'
    ) || (e == 'B' && !in_class)
}

/// What ECMA-262 writes for an escape of Rust's or PCRE's, where it has one.
fn escape_hint(e: char) -> &'static str {
    match e {
        'A' => "; for the start of the text write `^`",
        'z' | 'Z' => "; for the end of the text write `$`",
        'h' => "; for a hexadecimal digit write `[0-9A-Fa-f]`",
        _ => "",
    }
}

/// Why the group opened by `(?` followed by `rest` is none ECMA-262 has; `None` for a
/// non-capturing group, a lookaround, a named group and ES2025's modifiers (`(?i:...)`,
/// `(?m-s:...)`: flags `i`, `m`, `s` on a group, §22.2.1 RegularExpressionModifiers).
fn group_construct(rest: &str) -> Option<String> {
    let mut it = rest.chars();
    match it.next()? {
        // `(?<=`, `(?<!` and `(?<name>` alike: a bad name is the engine's to refuse.
        ':' | '=' | '!' | '<' => return None,
        'P' => {
            return Some(if rest[1..].starts_with('<') {
                "uses `(?P<name>...)`, Python's named group, which ECMA-262 does not have: \
                 ECMA-262 writes `(?<name>...)`"
                    .into()
            } else {
                "uses `(?P`, Python's named-group syntax, which ECMA-262 does not have: \
                 ECMA-262 writes `(?<name>...)` and `\\k<name>`"
                    .into()
            });
        }
        '>' => {
            return Some("uses `(?>...)`, an atomic group, which ECMA-262 does not have".into());
        }
        '#' => return Some("uses `(?#...)`, a comment, which ECMA-262 does not have".into()),
        _ => {}
    }
    let flags: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphabetic() || *c == '-')
        .collect();
    let after = rest[flags.len()..].chars().next();
    if !flags.is_empty() && after == Some(':') && modifiers(&flags) {
        return None;
    }
    Some(match after {
        Some(')') if !flags.is_empty() => format!(
            "uses `(?{flags})`, an inline flag group, which ECMA-262 does not have (a \
             JavaScript pattern's flags are set outside it, and JSON Schema sets none)"
        ),
        Some(':') => format!(
            "uses `(?{flags}:...)`, flags ECMA-262 does not have on a group (only `i`, `m` and \
             `s`, each once)"
        ),
        _ => format!(
            "uses `(?{}`, a group ECMA-262 does not have",
            rest.chars().next().unwrap_or(')')
        ),
    })
}

/// Whether `flags` (before a `:`) are ES2025 modifiers: `i`, `m`, `s`, each at most once,
/// optionally `-` and more, not both sides empty.
fn modifiers(flags: &str) -> bool {
    let (on, off) = flags.split_once('-').unwrap_or((flags, ""));
    let mut seen = String::new();
    for c in on.chars().chain(off.chars()) {
        if !matches!(c, 'i' | 'm' | 's') || seen.contains(c) {
            return false;
        }
        seen.push(c);
    }
    !seen.is_empty() && !off.contains('-')
}

/// Whether `pattern` is refused by Rust's regex engine only for its size (repetitions such as
/// `(?:a{1000}){1000}` compile to more than the engine's limit, about 10 MB): it may be
/// valid ECMA-262, and its fault is not the schema's. Patterns with lookarounds or
/// backreferences are not measured (this engine refuses them first).
pub fn too_large(pattern: &str) -> bool {
    matches!(
        regex::Regex::new(&regex_crate_pattern(pattern)),
        Err(regex::Error::CompiledTooBig(_))
    )
}

/// Why `pattern`, valid ECMA-262, cannot be checked as ECMA-262 reads it by the engine
/// toolwire checks patterns with, as a clause to follow "the pattern ..."; `None` when nothing
/// in it is known to be beyond the engine (it may still be invalid).
pub fn unsupported(pattern: &str) -> Option<&'static str> {
    if !pattern.contains('\\') {
        return None;
    }
    let (refs, named_groups) = backrefs::scan(pattern);
    // A pattern invalid for another reason (`(?<=a+)b\1((`: a group left open) is said not
    // to compile, not blamed on its references.
    if !refs.is_empty() && !compiles_without(pattern, &refs) {
        return None;
    }
    if named_groups == 0 && refs.iter().any(|r| r.named) {
        return Some(
            "uses `\\k` in a pattern without named groups, which Annex B reads as the letter \
             `k`: valid ECMA-262 (without the `u` flag), but the regular-expression engine \
             toolwire checks with cannot compile it",
        );
    }
    refs.iter()
        .any(|r| r.group.is_some() && !r.exact && !r.guarded)
        .then_some(
            "uses a backreference to a group that may not have matched where it is reached \
         (one inside a repeated group, or a reference inside its own group or a lookbehind): \
         ECMA-262 then matches the empty string, which the regular-expression engine toolwire \
         checks with does not",
        )
}

/// Whether `pattern` compiles, as the `jsonschema` crate compiles a `pattern`, with each of
/// `refs` written as a one-character group (the crate refuses a quantified empty one, so
/// `\1+` as `(?:)+` would not compile).
fn compiles_without(pattern: &str, refs: &[backrefs::Backref]) -> bool {
    let mut out = String::with_capacity(pattern.len());
    let mut at = 0;
    for r in refs {
        out.push_str(&pattern[at..r.span.start]);
        out.push_str("(?:x)");
        at = r.span.end;
    }
    out.push_str(&pattern[at..]);
    engine_check(&out).is_some()
}

/// A validator of the one keyword `pattern: pattern`, read through [`rust_pattern`] and
/// compiled as the `jsonschema` crate compiles a `pattern` (fancy-regex); `None` where it
/// does not compile. No check of [`not_ecma`] is made here.
pub fn engine_check(pattern: &str) -> Option<jsonschema::Validator> {
    jsonschema::draft202012::options()
        .build(&serde_json::json!({ "pattern": rust_pattern(pattern) }))
        .ok()
}

/// Whether ECMA-262 may match `text` with `pattern`, valid ECMA-262 that [`unsupported`] names
/// for a backreference to a group that may not have matched: read with each such reference
/// `\N` as `(?:\N|)`, which matches all ECMA-262 matches there (the group's text, or the empty
/// string where it did not match) and maybe more. `true` where even that cannot be told (the
/// reading does not compile, the engine gives up, or `\k` is the letter `k`).
pub fn may_match(pattern: &str, text: &str) -> bool {
    let (refs, _) = backrefs::scan(pattern);
    if refs.iter().any(|r| r.group.is_none()) {
        return true;
    }
    let mut wider = String::with_capacity(pattern.len() + 4 * refs.len());
    let mut at = 0;
    for r in refs.iter().filter(|r| !r.exact && !r.guarded) {
        wider.push_str(&pattern[at..r.span.start]);
        wider.push_str("(?:");
        wider.push_str(&pattern[r.span.clone()]);
        wider.push_str("|)");
        at = r.span.end;
    }
    wider.push_str(&pattern[at..]);
    let Some(check) = engine_check(&wider) else {
        return true;
    };
    check
        .iter_errors(&serde_json::Value::String(text.to_string()))
        .all(|e| {
            !matches!(
                e.kind(),
                jsonschema::error::ValidationErrorKind::Pattern { .. }
            )
        })
}

#[cfg(test)]
mod tests {
    use super::rust_pattern;

    /// Annex B's readings, as JavaScript's `new RegExp(p)` has them (Node 22): `a{,2}` is the
    /// text `a{,2}`, `[\d-z]` a digit, `-` or `z`; Unicode mode refuses both.
    #[test]
    fn annex_b_literal_braces_and_dashes_beside_class_escapes() {
        assert!(!compiles(r"^a{,2}$"), "the crate alone refuses it");
        assert_eq!(rust_pattern(r"^a{,2}$"), r"^a\{,2}$");
        assert!(matches(r"^a{,2}$", "a{,2}"));
        assert!(!matches(r"^a{,2}$", "aa"));
        assert!(matches(r"^x{$", "x{"));
        assert!(matches(r"^{}$", "{}"));
        assert_eq!(rust_pattern(r"^a{2}b{1,}c{1,3}$"), r"^a{2}b{1,}c{1,3}$");
        assert!(!compiles(r"[\d-z]"), "the crate alone refuses it");
        assert_eq!(rust_pattern(r"^[\d-z]$"), r"^[\d\-z]$");
        for (text, meant) in [("5", true), ("-", true), ("z", true), ("e", false)] {
            assert_eq!(matches(r"^[\d-z]$", text), meant, "{text}");
        }
        for (text, meant) in [("5", true), ("-", true), ("a", true), ("z", false)] {
            assert_eq!(matches(r"^[a-\d]$", text), meant, "{text}");
        }
        assert_eq!(rust_pattern(r"^\p{L}\u{1F600}$"), r"^\p{L}\u{1F600}$");
        // Ranges of characters keep their meaning.
        assert_eq!(rust_pattern(r"^[a-z-]{2}$"), r"^[a-z-]{2}$");
    }

    /// Whether `pattern` compiles as the `jsonschema` crate compiles a `pattern`.
    fn compiles(pattern: &str) -> bool {
        jsonschema::draft202012::options()
            .build(&serde_json::json!({ "pattern": pattern }))
            .is_ok()
    }

    /// Whether `pattern`, read through [`rust_pattern`], matches `text`.
    fn matches(pattern: &str, text: &str) -> bool {
        super::engine_check(pattern)
            .expect("compiles")
            .is_valid(&serde_json::json!(text))
    }

    /// Rust's and PCRE's constructs the engine would compile with their own meaning, each
    /// named; ECMA-262's own spellings of the same characters are left.
    #[test]
    fn constructs_ecma_262_lacks_are_named() {
        use super::not_ecma;
        for (p, named) in [
            (r"(?i)^abc$", "`(?i)`, an inline flag group"),
            (r"(?x)a", "`(?x)`"),
            (r"(?x:a)", "`(?x:...)`"),
            (r"(?ii:a)", "`(?ii:...)`"),
            (r"^(?P<n>a)$", "`(?P<name>...)`, Python's named group"),
            (r"(?P=n)", "`(?P`"),
            (r"(?>a)", "`(?>...)`, an atomic group"),
            (r"(?#note)a", "`(?#...)`"),
            (r"(?|a)", "`(?|`"),
            (r"a++", "possessive"),
            (r"a*+", "possessive"),
            (r"a{2}+", "possessive"),
            (r"a?+", "possessive"),
            (r"\Aabc\z", r"`\A`"),
            (r"abc\Z", r"`\Z`"),
            (r"\h", r"`\h`"),
            (r"\e", r"`\e`"),
            (r"\Qa\E", r"`\Q`"),
            (r"[\A]", r"`\A`"),
            (r"[\B]", r"`\B`"),
            (r"^[[:alpha:]]+$", "`[:alpha:]`, a POSIX class"),
            // Node: `new RegExp(p)` and `new RegExp(p, "u")` throw "Nothing to repeat" for
            // each (trial 57 D8: `^\b*a$` was taken, and `args` matched it).
            (r"^\b*a$", "quantifies an assertion"),
            (r"\b{2}a", "quantifies an assertion"),
            (r"a\B+", "quantifies an assertion"),
            (r"^*a", "quantifies an assertion"),
            (r"a$?", "quantifies an assertion"),
        ] {
            let why = not_ecma(p).unwrap_or_else(|| panic!("{p}: not named"));
            assert!(why.contains(named), "{p}: {why}");
        }
        for p in [
            r"^\d+\.\w\s\S\D\W\b\B\cA\f\n\r\t\v\x41\u0041\u{1F600}\p{L}\P{Lu}\/\-$",
            r"[\b\-\d\s\w\x41]",
            r"(?<n>a)\k<n>(?<=a)(?<!b)(?=c)(?!d)(?:e)",
            r"(?i:a)(?m-s:b)(?-i:c)",
            r"a+?b??c*?d{2}?e{1,}f{1,2}",
            r"a{,2}+",
            r"[a++][[:]\\A",
            r"[^]*[]",
            r"\k",
            r"[\b*][$+^?]\\b*",
            r"\b{,2}",
        ] {
            assert_eq!(not_ecma(p), None, "{p}");
        }
    }

    /// `^(?:a{1000}){1000}$` is valid ECMA-262; the engine refuses it for its size only.
    #[test]
    fn too_large_is_told_from_invalid() {
        assert!(super::too_large(r"^(?:a{1000}){1000}$"));
        assert!(!compiles(r"^(?:a{1000}){1000}$"));
        for p in [r"^a{3}$", r"(", r"a{2,1}", r"(?<=a)b"] {
            assert!(!super::too_large(p), "{p}");
        }
    }

    /// A pattern invalid apart from its backreferences is not blamed on them.
    #[test]
    fn an_invalid_pattern_with_backreferences_is_not_called_unsupported() {
        assert_eq!(super::unsupported(r"(?<=a+)b\1(("), None);
        assert_eq!(super::unsupported(r"^(?:(a)|b)\1($"), None);
        assert_eq!(super::unsupported(r"(?<=(a)\1)b(("), None);
        assert!(super::unsupported(r"(?<=(a)\1)b").is_some());
        assert!(super::unsupported(r"^((a)|b)+\2$").is_some());
        // Quantified, the reference was written as `(?:)+`, which the crate refuses, and the
        // pattern was checked with the engine's reading (trial 58 D2).
        assert!(super::unsupported(r"^((a)|b)+\2+$").is_some());
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
        let read = rust_pattern(r"\b[\b]\b");
        assert!(read.contains(r"[\x08]") && !read.contains(r"\b"), "{read}");
        assert!(matches(r"^[\b]$", "\u{8}"));
        assert!(!matches(r"^[\b]$", "b"));
    }

    #[test]
    fn escaped_backslash_and_brackets_are_not_escapes_or_classes() {
        // `\\0` is a backslash then `0`; `\[\b` is outside any class, a word boundary.
        assert!(rust_pattern(r"\\0\[\b").starts_with(r"\\0\[(?:(?<=[A-Za-z0-9_])"));
        assert!(matches(r"^\\0$", "\\0"));
    }

    /// The `jsonschema` crate gives `\d`, `\w`, `\s`, `.` their ECMA-262 meaning itself, but
    /// leaves a pattern with a lookaround or a backreference as written (trial 55: `^a(?=.)\d$`
    /// and `^(a)\1\d$` took "a١" and "aa١"): only such a pattern is written here, so that any
    /// other keeps the crate's faster engines and is not translated twice.
    #[test]
    fn class_escapes_are_written_only_where_the_crate_leaves_them() {
        for p in [
            r"^\d.\s\W[\D_]$",
            r"^(?:a)\d$",
            r"(?<n>a)\d",
            r"[(?=]\d",
            r"\(?=\d",
        ] {
            assert_eq!(rust_pattern(p), p, "{p}");
        }
        for p in [r"(?=a)b", r"^(a)\1$", r"(?<!a)[b]"] {
            assert_eq!(rust_pattern(p), p, "nothing to write in {p}");
        }
        for (p, read) in [
            (
                r"^a(?=.)\d$",
                r"^a(?=[^\n\r\x{2028}\x{2029}])[\x{30}-\x{39}]$",
            ),
            (r"^(a)\1\d$", r"^(a)\1[\x{30}-\x{39}]$"),
            (r"(?<=a)[^\D]", r"(?<=a)[^\x{0}-\x{2F}\x{3A}-\x{10FFFF}]"),
            (r"(?!a)\cA", r"(?!a)\x{1}"),
        ] {
            assert_eq!(rust_pattern(p), read, "{p}");
        }
        assert!(!matches(r"^a(?=.)\d$", "a١"));
        assert!(matches(r"^a(?=.)\d$", "a1"));
        assert!(!matches(r"^(a)\1\d$", "aa١"));
        assert!(matches(r"^(a)\1\d$", "aa1"));
    }

    #[test]
    fn escapes_the_crate_already_reads_and_invalid_ones_are_left() {
        for p in [r"^\cC$", r"\u{41}", r"\u0041", r"\q", r"(", r"[a-"] {
            assert_eq!(rust_pattern(p), p);
        }
        assert!(matches(r"^\cC$", "\u{3}"));
        assert!(!compiles(&rust_pattern(r"\q")));
    }

    /// A surrogate pair written as two escapes is the one code point ECMA-262 reads it as
    /// (trial 46 D10: `^\uD83D\uDE00$` was "not a regex"; Node: `new RegExp(p, "u")` and
    /// `new RegExp(p)` both match "😀"), in a class and a range too (a range Node reads with
    /// `u` only); a trail before a lead, or a pair spelled otherwise, is two lone surrogates
    /// ([`lone_surrogates_match_no_text`]).
    #[test]
    fn a_surrogate_pair_of_escapes_is_one_code_point() {
        assert!(!compiles(r"^\uD83D\uDE00$"), "the crate alone refuses it");
        assert_eq!(rust_pattern(r"^\uD83D\uDE00$"), r"^\u{1F600}$");
        assert_eq!(rust_pattern(r"^\ud83d\ude00$"), r"^\u{1F600}$");
        assert!(matches(r"^\uD83D\uDE00$", "😀"));
        assert!(!matches(r"^\uD83D\uDE00$", "😁"));
        assert!(matches(r"^[\uD83D\uDE00-\uD83D\uDE4F]+$", "😀🙏"));
        assert!(!matches(r"^[\uD83D\uDE00-\uD83D\uDE4F]+$", "😀a"));
        assert!(matches(r"^\uDBFF\uDFFF$", "\u{10FFFF}"));
        for p in [
            r"\uD83D",
            r"\uDE00",
            r"\uDE00\uD83D",
            r"\uD83Dx\uDE00",
            r"\uD83D\u{DE00}",
            r"\uD83D\uDE0",
            r"\\uD83D\uDE00",
        ] {
            assert!(!rust_pattern(p).contains("1F600"), "{p}");
        }
    }

    /// Trial 59 D3: a lone surrogate escape, valid ECMA-262 (with the `u` flag, the code
    /// point; Node v20: `new RegExp("^[^\\uD800-\\uDFFF]*$", "u").test("abc")` is true),
    /// made the schema no regex (args exit 2, check keyword-value-invalid). No text toolwire
    /// checks holds one, so it is written as what it matches there: nothing, or, in a class,
    /// no character of it (`node_verdicts` has Node's verdicts).
    #[test]
    fn lone_surrogates_match_no_text() {
        for (p, engine) in [
            (r"^[^\uD800-\uDFFF]*$", r"^[\s\S]*$"),
            (r"^[\uD800-\uDFFF]$", r"^[^\s\S]$"),
            (r"^b\uDE00?$", r"^b[^\s\S]?$"),
            (r"^\u{D800}$", r"^[^\s\S]$"),
            (r"[\uD800-\uFFFF]", r"[\u{E000}-\uFFFF]"),
            (r"[a-\uDBFF]", r"[a-\u{D7FF}]"),
            (r"[^a\uDC00]", r"[^a]"),
            (r"[-\uD800-\uDBFF-]", r"[\-\-]"),
            (r"[\uD800^]", r"[\^]"),
            (r"[\d-\uD800]", r"[\d\-]"),
            (r"[\uD83D\uDE00\uD800]", r"[\u{1F600}]"),
            // Out of order: refused, as ECMA-262 refuses it.
            (r"[\uDFFF-\uD800]", r"[\uDFFF-\uD800]"),
            (r"[\uE000-\uD800]", r"[\uE000-\u{D7FF}]"),
            (r"[a-z]\[\uD83D\uDE00", r"[a-z]\[\u{1F600}"),
            // A sign is no hex digit: not a surrogate, left for the engine to refuse.
            (r"^\u{+D800}$", r"^\u{+D800}$"),
        ] {
            assert_eq!(rust_pattern(p), engine, "{p}");
        }
        assert!(matches(r"^[^\uD800-\uDFFF]*$", "abc\u{2028}😀"));
        assert!(!matches(r"^[\uD800-\uDFFF]$", "😀"));
        assert!(matches(r"^b\uDE00?$", "b"));
        for p in [r"[\uDFFF-\uD800]", r"[\uE000-\uD800]"] {
            assert!(super::engine_check(p).is_none(), "{p}");
        }
    }

    /// Trial 59 D1: ES2025's modifiers were taken as ECMA-262 but `s` was ignored (the crate
    /// writes `.` without it) and `m` knew only LF (Rust's `(?m)`): `^b(?s:.)$` refused "b\n",
    /// `^a(?m:$)\rb$` "a\rb". Node v20 has no modifiers (it throws "Invalid group"); the
    /// verdicts are those of the same flags on the whole pattern, `new RegExp("^b.$", "su")`,
    /// `new RegExp("^a$\rb$", "mu")` and so on, which ES2025 gives the group's contents.
    #[test]
    fn modifiers_s_and_m_are_read_as_ecma_262_reads_them() {
        for (p, texts) in [
            (
                r"^b(?s:.)$",
                &[
                    ("b\n", true),
                    ("b\r", true),
                    ("b\u{2028}", true),
                    ("b\u{2029}", true),
                    ("bx", true),
                    ("b😀", true),
                    ("b", false),
                ][..],
            ),
            (r"^b.$", &[("b\n", false), ("bx", true)]),
            (r"^(?s:a(?-s:.))$", &[("a\n", false), ("ax", true)]),
            (r"^(?s:a)(?:.)$", &[("a\n", false), ("ax", true)]),
            (r"^a(?m:$)\rb$", &[("a\rb", true)]),
            (r"^a(?m:$)\u2028b$", &[("a\u{2028}b", true)]),
            (r"^a(?m:$)\u2029b$", &[("a\u{2029}b", true)]),
            (r"^a(?m:$)\nb$", &[("a\nb", true)]),
            (r"^a(?m:$)b$", &[("ab", false)]),
            (r"^a\r(?m:^)b$", &[("a\rb", true)]),
            (r"^a\u2028(?m:^)b$", &[("a\u{2028}b", true)]),
            (r"^a(?m:^)b$", &[("ab", false)]),
            (r"^a\r(?m:$)\nb$", &[("a\r\nb", true)]),
            (
                r"(?m:^a$)",
                &[("a", true), ("a\n", true), ("b\ra", true), ("ab", false)],
            ),
            (r"^(?m-s:a.$)", &[("ab", true), ("a\n", false)]),
            (r"^(?i:a)$", &[("A", true), ("b", false)]),
        ] {
            for (text, meant) in texts {
                assert_eq!(
                    matches(p, text),
                    *meant,
                    "{p} on {text:?} (read as {})",
                    rust_pattern(p)
                );
            }
        }
        // Outside a modifier group `^` and `$` are left to the crate's reading.
        assert_eq!(rust_pattern(r"^a$"), r"^a$");
    }

    #[test]
    fn empty_classes_match_anything_and_nothing() {
        assert!(!compiles("^[^]$"), "the crate alone refuses it");
        assert!(!compiles("a[]"), "the crate alone refuses it");
        assert_eq!(rust_pattern("^[^]*$"), r"^[\s\S]*$");
        assert_eq!(rust_pattern("a[]|b"), r"a[^\s\S]|b");
        assert!(matches("^[^]*$", "any\ntext"));
        assert!(matches("^a[^]c$", "a\nc"));
        assert!(!matches("^a[^]c$", "ac"));
        assert!(!matches("a[]", "a"));
        assert!(matches("a[]|b", "b"));
    }

    #[test]
    fn brackets_in_a_class_or_escaped_are_not_empty_classes() {
        // `[\]]` and `[^\]]` hold `]`; `\[]` is a literal `[` then `]`; `[[]` holds `[`.
        for p in [r"[\]]", r"[^\]]", r"\[]", r"[[]", r"\[^]"] {
            assert_eq!(rust_pattern(p), p);
        }
        assert!(matches(r"^[\]]$", "]"));
        assert!(!matches(r"^[^\]]$", "]"));
        assert!(matches(r"^[^\]][^]$", "a\n"));
    }
}
