//! The texts to read in an error, and each problem's statement in the provider's own words.
//!
//! An error arrives in an envelope: a provider's JSON body (`{"error":{"message":..}}`,
//! Google's array wrapper, Mistral's `detail`, Bedrock's `message`), OpenRouter's
//! `metadata.raw` holding the upstream's body as a string, a relay that JSON-encodes the body
//! once more, a client's prefix (`Error: 400 {...}`), LiteLLM printing Vertex's body as a
//! Python bytes literal (`b'{\n  "error": ...}'`), OpenAI's Python SDK printing the
//! body as a Python dict (`Error code: 400 - {'error': {'message': "..."}}`), the Anthropic
//! Java SDK printing it as a Java map (`{type=error, error={..., message=...}}`), or the AWS
//! Rust SDK's `Debug` printout (`ValidationException { message: Some("..."), ... }`); clients
//! also wrap long lines inside the body's strings. Each envelope is decoded once, so the
//! message quoted back is the provider's text exactly, without the envelope around it or the
//! trailers relays append.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::templates::{CLIENT_PREFIX, LINE_READ, ceil_boundary, floor_boundary};
use crate::target::pyrepr;

/// A text to read.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Text {
    pub text: String,
    /// Whether the text is a provider's message decoded from its envelope (its lines are the
    /// provider's own), rather than the error as given (which may carry a client's prefix or
    /// envelope residue around the message).
    pub decoded: bool,
    /// Which record of a list or JSON Lines of records (the error as a whole) the text was
    /// read from: each record is another failed request, so one record's reading does not
    /// stand for another's. `None`: the error holds one record, or the text is the error as
    /// given, a reading of all of it.
    pub record: Option<usize>,
}

/// How many places a JSON or Python envelope may start at before the search stops (bounds
/// the work on a large error file).
const MAX_STARTS: usize = 32;

/// How deep JSON and Python literals nest before their parsers refuse them (serde_json's
/// recursion limit, and [`pyrepr::parse_prefix`]'s).
const MAX_NESTING: usize = 128;

/// How deep envelopes nest (a message holding a body holding a message ...) before reading
/// stops.
const MAX_DEPTH: usize = 8;

/// How many readings (a text read for envelopes, or a place one may start parsed) the reading
/// of one error may make before it stops looking. An envelope's values are read for envelopes
/// of their own at each place one may start, so text of maps nested in maps was read up to
/// 32^8 times: `{a=` 150 times over (600 bytes) took 20 s and 200 times over ran past 100 s
/// (debug build; an audit of explain's reader, 2026-12-07). Every error of the tests is read
/// as before with only 2 (a budget of none loses their envelopes): this leaves a wide margin,
/// and bounds the reading to this many parses of at most the error's length.
pub(super) const MAX_READINGS: usize = 256;

thread_local! {
    /// The readings left to the reading of the error at hand ([`error_texts`]).
    pub(super) static READINGS_LEFT: std::cell::Cell<usize> = const { std::cell::Cell::new(MAX_READINGS) };
}

/// Takes one reading from [`READINGS_LEFT`]; false when none is left.
fn take_reading() -> bool {
    READINGS_LEFT.with(|left| {
        let n = left.get();
        left.set(n.saturating_sub(1));
        n > 0
    })
}

/// The texts to read in `error`, most specific first: the messages decoded from its
/// envelopes, the error as given when it shows no envelope, then the error as given with JSON
/// string escapes undone (for an envelope cut short, which does not parse).
pub(super) fn error_texts(error: &str) -> Vec<Text> {
    READINGS_LEFT.with(|left| left.set(MAX_READINGS));
    let mut texts = messages_in(error, 0).unwrap_or_default();
    // A message's own `\r\n` (decoded from an envelope's escapes) reads as the error's does.
    for t in &mut texts {
        if let std::borrow::Cow::Owned(lf) = crlf_as_lf(&t.text) {
            t.text = lf;
        }
    }
    // A message pasted as the provider wrote it (no JSON string escape, no start of a body)
    // is read first as it is: its `\'`, `\\` and `\n` are Python's, inside the literals of
    // OpenAI's `In context=(...)` tuple, and undoing them would break those literals (a name
    // `'a\\nb'` cut at a line break). Only what is outside those literals can show an envelope.
    if !shows_envelope(error) {
        texts.push(Text {
            text: error.to_string(),
            decoded: false,
            record: None,
        });
    }
    let text = Text {
        text: unescaped(error),
        decoded: false,
        record: None,
    };
    if !texts.contains(&text) {
        texts.push(text);
    }
    texts
}

/// A client's printout of a body, cut short, that a record's message field holds (a JSON
/// log's `"error": "API Error: 400 {\"error\":{...,\"message\":\"...` with no end), read as
/// that printout given alone is: with its escapes undone (see [`error_texts`]). Empty when
/// `text` is no such printout.
fn cut_printout(text: &str) -> Vec<Text> {
    // A body that parses whole is read by [`messages_in`]: its message is no cut printout's.
    let parses = || {
        text.match_indices('{').take(MAX_STARTS).any(|(start, _)| {
            envelope_at(&text[start..])
                .and_then(|v| v.as_object().cloned())
                .is_some_and(|o| MESSAGE_KEYS.iter().any(|k| o.contains_key(*k)))
        })
    };
    if !(shows_envelope(text) && names_a_message_field(text)) || parses() {
        return Vec::new();
    }
    vec![Text {
        text: unescaped(text),
        decoded: false,
        record: None,
    }]
}

/// Whether `text` holds a body's message field (`"message":`, `'message':`, `\"error\":`):
/// a printout of a body, not a message that quotes a value (Fireworks' `could not understand
/// the instance `{'required': [...]}``).
fn names_a_message_field(text: &str) -> bool {
    MESSAGE_KEYS.iter().any(|k| {
        text.match_indices(k).any(|(at, _)| {
            let after = text[at + k.len()..].trim_start_matches('\\');
            after.starts_with("\":") || after.starts_with("':")
        })
    })
}

/// Whether `text` shows an envelope (a JSON string escape, the start of a body) outside the
/// literals of OpenAI's `In context=(...)` tuples: then it is read with its escapes undone
/// ([`unescaped`]), as an envelope cut short that does not parse.
fn shows_envelope(text: &str) -> bool {
    let envelope_residue = ["\\\"", "\\n", "{'", "{\""];
    let outside = outside_spans(text, &tuple_literals(text, false));
    envelope_residue.iter().any(|r| outside.contains(r))
}

/// `text` with each `\r\n` line break written `\n`: an error saved on Windows, or printed by
/// a client that ends lines so, reads as the same error with `\n` (the templates end a
/// statement at `\n`, and one read `\r` as part of the line: `'object' is not of type
/// 'object', 'boolean'\r\n` matched none, trial 41).
pub(super) fn crlf_as_lf(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains("\r\n") {
        text.replace("\r\n", "\n").into()
    } else {
        text.into()
    }
}

/// `text` without an e-mail's quoting: each line that starts with `>` loses its leading run
/// of `>` (with the spaces between, `>> ` and `> > ` alike: a reply to a reply, trial 46 D9)
/// and the space after it (a rejection pasted from a quoted reply, `>
/// tools.13.custom.input_schema: ...`, trial 42, whose `> ` at the start of each wrapped line
/// kept the templates from reading it as one), also where the replier's own lines come before
/// or after the quote (trial 44: `Same here on 1.2.0.` after the quoted error kept it quoted,
/// and its explanation lost).
pub(super) fn unquoted(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.split('\n').any(|l| l.starts_with('>')) {
        return text.into();
    }
    text.split('\n')
        .map(unquoted_line)
        .collect::<Vec<_>>()
        .join("\n")
        .into()
}

/// `line` less its leading run of `>` with the spaces between, and one space after it (see
/// [`unquoted`]).
fn unquoted_line(mut line: &str) -> &str {
    while let Some(rest) = line.strip_prefix('>') {
        let deeper = rest.trim_start_matches(' ');
        // Past the last `>`, only one space is the quoting's: the rest is the line's own
        // indentation.
        line = if deeper.starts_with('>') {
            deeper
        } else {
            rest.strip_prefix(' ').unwrap_or(rest)
        };
    }
    line
}

/// The column a client cuts lines at when it wraps them hard, mid-word.
pub(super) const HARD_WRAP_COLUMN: usize = 80;

/// A line that starts, after its indentation, as a log's next record does (a date and time,
/// a time, or a level word: `2026-12-05 10:00:01 INFO other: ...`, `ERROR ...`) or as a
/// stack frame does (`at Client.post (client.js:12)`, `at file:///app.js:3:7`, Python's
/// `File "app.py", line 12`): what follows an error in a log, never the error's sentence
/// going on, so no rejoining reading joins it to the line before (trial 44: each was quoted as
/// the provider's words).
static RECORD_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^\s*(?:\[?(?:[0-9]{4}-[0-9]{2}-[0-9]{2}[T ])?[0-9]{2}:[0-9]{2}:[0-9]{2}|\[?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\b|at (?:async )?[^\s()]+ ?\([^()]*:[0-9]+(?::[0-9]+)?\)\s*$|at (?:async )?[^\s()]+:[0-9]+:[0-9]+\s*$|File "[^"]*", line [0-9]+)"#,
    )
    .expect("the record pattern compiles")
});

/// Whether `line` starts as a log record or a stack frame does (see [`RECORD_START`]).
pub(super) fn starts_record(line: &str) -> bool {
    RECORD_START.is_match(line)
}

/// `text` with the lines a client cut at [`HARD_WRAP_COLUMN`] characters joined again: a line
/// of exactly that many characters is joined to the next without
/// a space where the cut falls inside a word (`Cannot fi` / `nd field.`, `'tools[` / `1]`) or
/// at a space (`oneOf, allOf,` / ` or anyOf`; trial 42). `None` when no line is joined; else the
/// joined text, and whether a cut shows the text was cut hard: a client wrapping at spaces
/// leaves none at a line's ends, and its line may fill the column too (`...
/// `parameters.entries`` / `schema specified ...`, vercel-ai-vertex-anyof-only-field in
/// reports.yaml), where joining glues two words; nor does it cut inside a bracketed token
/// ([`cut_inside_brackets`]: `properties[` / `tags].items`, which read with the break as a
/// space named a property ` tags`, trial 48 D7).
pub(super) fn hard_unwrapped(text: &str) -> Option<(String, bool)> {
    let lines: Vec<&str> = text.split('\n').collect();
    let width = |l: &str| l.chars().count();
    // A longer line (a log's next record) is no wrapped line, and joins nothing: only lines of
    // exactly the column are joined (trial 44: a 90-character log line after a wrapped error
    // kept the error from being rejoined).
    if lines.len() < 2 {
        return None;
    }
    let word = |c: Option<char>| c.is_some_and(|c| !c.is_whitespace());
    let indentation = |l: &'_ str| l.len() - l.trim_start().len();
    let mut out = String::with_capacity(text.len());
    let (mut joined, mut cut_hard) = (false, false);
    // The indentation of the line a run of joined lines starts with: an indented block's cut
    // lines start with it too (`    ...function_de` / `    clarations[15]...`, trial 44), which
    // is no cut at a space, and is left out of the joined text.
    let mut indent = indentation(lines[0]);
    let mut from = 0;
    for (i, line) in lines.iter().enumerate() {
        out.push_str(&line[from..]);
        let Some(next) = lines.get(i + 1) else { break };
        // Both cut short of the indentation (a line starting with a character wider than
        // it) share none: slicing there would cut that character (trial 85 D2).
        let shared =
            matches!((next.get(..indent), line.get(..indent)), (Some(n), Some(l)) if n == l);
        from = if shared { indent } else { 0 };
        let rest = &next[from..];
        let in_brackets = cut_inside_brackets(line, rest);
        let full = width(line) == HARD_WRAP_COLUMN && (!starts_record(rest) || in_brackets);
        let space = full && (line.ends_with(' ') || rest.starts_with(' '));
        if space || (full && word(line.chars().next_back()) && word(rest.chars().next())) {
            joined = true;
            cut_hard |= space || in_brackets;
        } else {
            out.push('\n');
            indent = indentation(next);
            from = 0;
        }
    }
    joined.then_some((out, cut_hard))
}

/// Whether `line` ends inside a bracketed token (`...properties[`, `...[ERR`) that `next`
/// goes on and closes before any space (`ERROR].items: ...`, `12:30:00].items: ...`): a cut
/// mid-token, where no log record can begin, whatever the token's rest looks like (trial 46
/// D5: a property named `ERROR` or `12:30:00` cut so was read as a record's head, and the
/// message lost).
fn cut_inside_brackets(line: &str, next: &str) -> bool {
    let token = |t: &str, end: char| !t.contains(|c: char| c.is_whitespace() || c == end);
    line.rsplit_once('[').is_some_and(|(_, t)| token(t, ']'))
        && next.split_once(']').is_some_and(|(t, _)| token(t, '['))
}

/// `text` with each line break a client's wrap at spaces made written as a space, byte for
/// byte, among lines no longer than [`HARD_WRAP_COLUMN`]: a break is such a wrap where
/// the next line's first word would not have fit on the line within the text's longest line
/// of at most that column
/// (`... cannot start` / `list`, `... 'required' is` / `required to be ...`, trial 42), whatever
/// the case or stop around it, unless `after_sentences` is false: then a line ending a
/// sentence (`.`, `!`, `?`) is joined to nothing. A longer line, a log record's or a stack
/// frame's first line ([`starts_record`]) joins nothing and is joined to nothing. `None` when
/// there is none. A log's next line may look like a wrap too (`... with a maximum length of
/// 64.` / `Retrying in 2 seconds.`, trial 44): the caller keeps this reading only where it
/// explains more, and the one joining after sentences only where that explains more than
/// the one that does not ([`unwrapped`] alone joins no such line).
pub(super) fn column_unwrapped(text: &str, after_sentences: bool) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let width = |l: &str| l.chars().count();
    // The column is the longest line within [`HARD_WRAP_COLUMN`]; a longer line (a log's next
    // record, trial 44) is no wrapped line and joins nothing.
    let column = lines
        .iter()
        .map(|l| width(l))
        .filter(|w| *w <= HARD_WRAP_COLUMN)
        .max()?;
    if lines.len() < 2 {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut joined = false;
    for (i, line) in lines.iter().enumerate() {
        out.push_str(line);
        let Some(next) = lines.get(i + 1) else { break };
        let first_word = next.split_whitespace().next().map_or(0, width);
        let sentence_ends = line
            .trim_end()
            .trim_end_matches(['"', '\'', ')', ']'])
            .ends_with(['.', '!', '?']);
        if !line.trim().is_empty()
            && width(line) <= column
            && width(next) <= column
            && first_word > 0
            && width(line) + 1 + first_word > column
            && !starts_record(next)
            && (after_sentences || !sentence_ends)
        {
            out.push(' ');
            joined = true;
        } else {
            out.push('\n');
        }
    }
    joined.then_some(out)
}

/// `text` with each line break a terminal or a client wrapped into a sentence written as a
/// space, byte for byte (`\r\n` as two spaces), so that places found in it are places in
/// `text`: a break is a wrap when the line before it ends in no stop (`.`, `:`, `;`, `!`, `?`)
/// and the line after it goes on in lower case (`array schema` / `missing items.`), outside
/// the literals of an `In context=(...)` tuple and outside quotes opened on its line. A break
/// before a new statement (a capital, a `*` list item) or after a full one is kept: the
/// templates read one problem per line there.
///
/// In an error as given (`decoded` false: a log, a terminal's copy) the line after may be the
/// log's next line, not the sentence going on (`... at the top level` / `retrying in 2s
/// (attempt 2 of 3)`, trial 41): there a break is a wrap only when the sentence it wraps ends
/// in a stop, on the line after or on a line it wraps into in turn. A decoded message's lines
/// are all the provider's, so a break there needs no such stop.
pub(super) fn unwrapped(text: &str, decoded: bool) -> std::borrow::Cow<'_, str> {
    if !text.contains('\n') {
        return text.into();
    }
    let literals = tuple_literals(text, false);
    let wraps: Vec<(usize, bool)> = text
        .match_indices('\n')
        .map(|(at, _)| (at, wraps_at(text, at, &literals)))
        .collect();
    let mut out = text.as_bytes().to_vec();
    // Whether the line after the break looked at (read from the last line back) ends a
    // sentence, itself or through the wraps after it.
    let mut goes_to_stop = false;
    for (i, &(at, wrap)) in wraps.iter().enumerate().rev() {
        let line_end = wraps.get(i + 1).map_or(text.len(), |&(next, _)| next);
        let line = text[at + 1..line_end].trim_end_matches(['\r', ' ', '\t']);
        let ends_sentence = line
            .trim_end_matches(['"', '\'', ')', ']', '>'])
            .ends_with(STOPS);
        let next_wraps = wraps.get(i + 1).is_some_and(|&(_, w)| w);
        goes_to_stop = ends_sentence || (next_wraps && goes_to_stop);
        if !wrap || !(decoded || goes_to_stop) {
            continue;
        }
        out[at] = b' ';
        if at > 0 && out[at - 1] == b'\r' {
            out[at - 1] = b' ';
        }
    }
    // Only ASCII line breaks were replaced by ASCII spaces.
    String::from_utf8(out).map_or_else(|_| text.into(), Into::into)
}

/// What ends a statement at the end of a line.
const STOPS: [char; 5] = ['.', ':', ';', '!', '?'];

/// Whether the line break at byte `at` of `text` reads as a wrap inside a sentence (see
/// [`unwrapped`]); `literals` are the text's [`tuple_literals`].
fn wraps_at(text: &str, at: usize, literals: &[Range<usize>]) -> bool {
    if literals.iter().any(|l| l.contains(&at)) {
        return false;
    }
    // Inside a quoted name (`function 'b` / `c'`, `path 'properti` / `es.x'`) the break
    // is the name's own, or a wrap the name's reader undoes.
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    if line.matches('\'').count() % 2 == 1 || line.matches('"').count() % 2 == 1 {
        return false;
    }
    let before = text[..at].trim_end_matches(['\r', ' ', '\t']);
    let after = text[at + 1..].trim_start_matches([' ', '\t']);
    // The envelope's fields kept with a decoded message ([`collect`]), and a log record or a
    // stack frame after it, are not the provider's sentence going on: joined, they would be
    // quoted as its words.
    let next_line = after.split('\n').next().unwrap_or(after);
    if ENVELOPE_FIELDS.iter().any(|f| after.starts_with(f)) || starts_record(next_line) {
        return false;
    }
    let line_ended = before.is_empty() || before.ends_with('\n') || before.ends_with(STOPS);
    !line_ended && after.starts_with(|c: char| c.is_ascii_lowercase())
}

/// The lines [`collect`] adds after a decoded message, each an envelope field that helps
/// locate the problem (OpenAI's `param`, pydantic's `loc`), not part of the message.
const ENVELOPE_FIELDS: &[&str] = &["param: ", "loc: "];

/// `error` with the JSON string escapes of an envelope it was cut out of undone: outside the
/// literals of an `In context=(...)` tuple, line breaks (also escaped twice, by a relay
/// encoding the body once more), quotes and `<` `>`; inside each literal, one level of JSON
/// escapes, so that the literal is Python's again for the tuple reader to decode (its escapes
/// decoded once, by it: a line break JSON wrote as `\n` is kept as Python's `\n`, not a raw
/// one that would cut the literal).
fn unescaped(error: &str) -> String {
    let text_unescaped = |s: &str| {
        s.replace("\\\\n", "\n")
            .replace("\\n", "\n")
            .replace("\\\"", "\"")
            .replace("\\'", "'")
            .replace("\\u003c", "<")
            .replace("\\u003e", ">")
    };
    let mut out = String::with_capacity(error.len());
    let mut at = 0;
    for span in tuple_literals(error, true) {
        out.push_str(&text_unescaped(&error[at..span.start]));
        let literal = &error[span.clone()];
        let decoded = serde_json::from_str::<String>(&format!("\"{literal}\""))
            .map(|d| {
                d.replace('\n', "\\n")
                    .replace('\r', "\\r")
                    .replace('\t', "\\t")
            })
            .unwrap_or_else(|_| literal.to_string());
        out.push_str(&decoded);
        at = span.end;
    }
    out.push_str(&text_unescaped(&error[at..]));
    out
}

/// `text` less the byte ranges `spans` (in order, not overlapping).
fn outside_spans(text: &str, spans: &[Range<usize>]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for span in spans {
        out.push_str(&text[at..span.start]);
        at = span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// How many `In context=(` tuples are looked at (bounds the work on a large error file).
const MAX_TUPLES: usize = 64;

/// The byte ranges of the string literals (quotes included) of each OpenAI `In context=(...)`
/// tuple in `text`, read element by element (Python string literals with backslash escapes,
/// integers, commas) up to its `)`, or up to what is none of these (a tuple cut short or
/// mangled: the literals read before it are kept). `json`: `text` is a message still
/// JSON-escaped (cut out of a body that does not parse), so a backslash is `\\` and a double
/// quote `\"` there, and a literal's escapes are Python's written in JSON.
pub(super) fn tuple_literals(text: &str, json: bool) -> Vec<Range<usize>> {
    const OPEN: &str = "In context=(";
    let mut spans = Vec::new();
    // Where the last tuple's reading stopped: an `In context=(` inside a literal already read
    // is text of that literal, not a tuple (read again, its ranges overlapped the first's,
    // which the callers slice between; trial 85 D1).
    let mut read_to = 0;
    for (start, _) in text.match_indices(OPEN).take(MAX_TUPLES) {
        if start < read_to {
            continue;
        }
        let mut at = start + OPEN.len();
        loop {
            let rest = &text[at..];
            let trimmed = rest.trim_start_matches([' ', ',']);
            at += rest.len() - trimmed.len();
            let number = trimmed.strip_prefix('-').unwrap_or(trimmed);
            let digits = number.len()
                - number
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .len();
            if let Some(len) = literal_len(trimmed, json) {
                spans.push(at..at + len);
                at += len;
            } else if digits > 0 {
                at += trimmed.len() - number.len() + digits;
            } else {
                break;
            }
        }
        read_to = at;
    }
    spans
}

/// The length in bytes of the Python string literal `text` starts with (see
/// [`tuple_literals`] for `json`); `None` when it starts with none or the literal is not closed.
fn literal_len(text: &str, json: bool) -> Option<usize> {
    // Characters as the message holds them, each with the bytes it takes in `text`.
    let mut chars = text.char_indices().peekable();
    let mut next = || -> Option<(char, usize)> {
        let (i, c) = chars.next()?;
        // JSON's `\\` and `\"`; any other escape is left to be read as Python's (`\n` is a
        // line break either way, and `\'` is Python's alone).
        if json
            && c == '\\'
            && let Some(&(j, e @ ('\\' | '"'))) = chars.peek()
        {
            chars.next();
            return Some((e, j + 1));
        }
        Some((c, i + c.len_utf8()))
    };
    let (quote, _) = next().filter(|(q, _)| matches!(q, '\'' | '"'))?;
    let mut escaped = false;
    while let Some((c, end)) = next() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == quote {
            return Some(end);
        }
    }
    None
}

/// The messages of the envelope `s` is or holds: the whole text as JSON, else the first
/// place an object or list starts that parses (as JSON, then as a Python printout) and holds
/// a message. `None` when there is none.
fn messages_in(s: &str, depth: usize) -> Option<Vec<Text>> {
    if depth > MAX_DEPTH || !take_reading() {
        return None;
    }
    let from = |v: &Value| {
        let texts = match records_of(v) {
            Some(records) if depth == 0 => numbered(records.into_iter()),
            _ => collected(v, depth, 0),
        };
        Some(texts).filter(|t| !t.is_empty())
    };
    if let Some(v) = json_value(s.trim()) {
        return match &v {
            // The whole error a body written as a JSON string: its records are read as the
            // body's own are (trial 54 D7: a list of message objects so written lost all but
            // its first). Each step undoes one encoding, so the string shortens each time.
            Value::String(inner) if depth == 0 && inner.trim_start().starts_with(['{', '[']) => {
                messages_in(inner, depth).or_else(|| string_texts(inner, depth))
            }
            Value::String(inner) => string_texts(inner, depth),
            _ => from(&v),
        };
    }
    // JSON Lines (a log of records): each record is read, as a list's items are, not only the
    // first one holding a message.
    let records: Option<Vec<Value>> = serde_json::Deserializer::from_str(s)
        .into_iter::<Value>()
        .map(Result::ok)
        .collect();
    if let Some(records) = records.filter(|r| r.len() > 1 && r.iter().all(is_record))
        && let Some(found) = from(&Value::Array(records))
    {
        return Some(found);
    }
    if depth == 0
        && let Some(records) = lines_as_records(s)
    {
        return Some(numbered(records.into_iter())).filter(|t| !t.is_empty());
    }
    for (start, _) in s.match_indices(['{', '[']).take(MAX_STARTS) {
        if !take_reading() {
            break;
        }
        let found = envelope_at(&s[start..])
            .filter(|v| !quoted_values(v))
            .and_then(|v| from(&v));
        if found.is_some() {
            return found;
        }
    }
    // A Python bytes literal holding the body (LiteLLM's `VertexAIException BadRequestError -
    // b'{\n  "error": ...}'`): its escapes are the literal's, not JSON's, so the body is read
    // once they are undone.
    for (start, _) in s
        .match_indices("b'")
        .chain(s.match_indices("b\""))
        .take(MAX_STARTS)
    {
        let starts_word = s[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '\'' || c == '"'));
        let found = starts_word
            .then(|| pyrepr::bytes_prefix(&s[start..]))
            .flatten()
            .and_then(|(body, _)| messages_in(&body, depth + 1));
        if found.is_some() {
            return found;
        }
    }
    if let Some(message) = cut_message(s) {
        let mut texts = messages_in(&message, depth + 1).unwrap_or_else(|| {
            vec![Text {
                text: message.clone(),
                decoded: true,
                record: None,
            }]
        });
        texts.extend(cut_printout(&message));
        return Some(first_of_each(texts));
    }
    debug_message(s).map(|text| {
        vec![Text {
            text,
            decoded: true,
            record: None,
        }]
    })
}

/// The texts of a list or JSON Lines of records (a log of failed requests), given as each
/// record's own: each carries its record's number ([`Text::record`]). A text several records
/// hold (a client's retries) is read once, as the first's ([`first_of_each`]).
fn numbered(records: impl Iterator<Item = Vec<Text>>) -> Vec<Text> {
    first_of_each(records.enumerate().flat_map(|(i, own)| {
        own.into_iter().map(move |mut t| {
            t.record = Some(i);
            t
        })
    }))
}

/// `texts` less each text (and its `decoded`) read before, in their order: a text several
/// records hold (a client's retries in a log) is read once, as the first's. The texts seen are
/// kept in a set, as an error may hold many thousands of them (trial 54 D8: a search of the
/// texts kept for each one took 7.8 s on a Google body of 40,000 `details`).
fn first_of_each(texts: impl IntoIterator<Item = Text>) -> Vec<Text> {
    let mut seen = std::collections::HashSet::new();
    texts
        .into_iter()
        .filter(|t| seen.insert((t.text.clone(), t.decoded)))
        .collect()
}

/// The records of an error read as JSON, each record's texts ([`record_texts`]): the items of
/// a list (or JSON Lines) of records, a log of failed requests; and in an object, the items of
/// each member that is a list of records, after the object's other members read as one record
/// more (an API's `{"errors": [...], "request_id": ...}`, pydantic's `{"detail": [...]}`, of
/// bodies or of strings: trial 48 D11 and trial 50 D5, D15 read one text alone, the rest
/// dropped with no word). A list of strings, or of objects each with a message of its own, is
/// a list of records deeper in an object too, and in each record of a list ([`lists_out`]).
/// `None` when `v` holds no list of records.
fn records_of(v: &Value) -> Option<Vec<Vec<Text>>> {
    match v {
        Value::Array(records) => Some(
            records
                .iter()
                .flat_map(|r| {
                    match r {
                        Value::Object(o) => split(o, false),
                        _ => None,
                    }
                    .unwrap_or_else(|| vec![record_texts(r, 1)])
                })
                .collect(),
        ),
        Value::Object(o) => split(o, true),
        _ => None,
    }
}

/// The records of the object `o` ([`lists_out`]): its other members as one record, then the
/// items of its lists of records, in order. `None` when it holds no list of records.
fn split(o: &serde_json::Map<String, Value>, top: bool) -> Option<Vec<Vec<Text>>> {
    let mut items = Vec::new();
    let rest = lists_out(o, top, &mut items, 1);
    if items.is_empty() {
        return None;
    }
    let mut records = vec![record_texts(&Value::Object(rest), 1)];
    records.extend(items.iter().map(|r| record_texts(r, 2)));
    Some(records)
}

/// `o` less its lists of records, whose items are pushed onto `items` in order: at the top of
/// the error (`top`), the records of each member that is a list; at any depth through its
/// objects, the statements of each list ([`statements_out`]: statements, or objects each with
/// a message of its own, a list's other items left in it, its `null`s skipped; `{"error":
/// {"details": [A, G]}}`, trial 52 D8: read as one text, whose quotes carried the JSON between
/// the strings, `", "` and `"]}}`; `{"error": {"details": [{"message": A}, {"message": G}]}}`:
/// all but the first message dropped with no word). A string in a list under a key naming
/// errors, or reading as a sentence, is a statement of its own, and so is an object there
/// holding a message; other lists of strings are the error's values, and an object with an
/// `@type`, or with no message, is left in its list to be read as the body's own (Google's
/// `error.details`, objects each with an `@type`, are details of the one error, one kind,
/// `google.rpc.LocalizedMessage`, with a `message` of its own: `google.rpc.Status`,
/// <https://cloud.google.com/apis/design/errors#error_model>,
/// <https://cloud.google.com/bigquery/docs/reference/datatransfer/rest/v1/Status> and
/// <https://cloud.google.com/php/docs/reference/common-protos/latest/Rpc.LocalizedMessage>,
/// read 2026-12-05). A member that is a JSON string holding an object (a body a logger or a
/// relay wrote as text: `{"level": "error", "response": "{\"error\": {\"details\": [A,
/// G]}}"}`, read as plain text with JSON in its quotes), or a client's printout of one
/// (`"Error code: 400 - {...}"`: [`held_body`]), is looked into as that object, and kept as
/// the object less its lists only where a list was taken out of it; one holding a list
/// (`"response": "[A, G]"`, a relay's `{"error": "[A, G]"}`, trial 54 D7: an error dropped
/// with no word, or quoted running on into the JSON) as that list under its key. The envelope's
/// own fields ([`ENVELOPE_KEYS`], pydantic's `loc` list) are no list of records. `nesting`
/// counts the objects `o` lies in (bounded by [`MAX_NESTING`]).
fn lists_out(
    o: &serde_json::Map<String, Value>,
    top: bool,
    items: &mut Vec<Value>,
    nesting: usize,
) -> serde_json::Map<String, Value> {
    let mut rest = serde_json::Map::new();
    for (key, value) in o {
        let own = ENVELOPE_KEYS.contains(&key.as_str());
        match value {
            Value::Array(l) if !own => {
                let before = items.len();
                let kept = statements_out(key, l, top, items, nesting);
                match kept {
                    _ if items.len() == before => rest.insert(key.clone(), value.clone()),
                    kept if kept.is_empty() => None,
                    kept => rest.insert(key.clone(), kept.into()),
                };
            }
            Value::Object(inner) if !own && nesting < MAX_NESTING => {
                let inner = lists_out(inner, false, items, nesting + 1);
                rest.insert(key.clone(), Value::Object(inner));
            }
            Value::String(s) if !own && nesting < MAX_NESTING => {
                let before = items.len();
                let body = match held_body(s) {
                    Some(Value::Object(body)) => {
                        Some(lists_out(&body, false, items, nesting + 1).into())
                    }
                    Some(Value::Array(l)) => {
                        Some(statements_out(key, &l, false, items, nesting + 1))
                            .filter(|kept| !kept.is_empty())
                            .map(Value::Array)
                    }
                    _ => None,
                };
                match body {
                    _ if items.len() == before => rest.insert(key.clone(), value.clone()),
                    Some(body) => rest.insert(key.clone(), body),
                    None => None,
                };
            }
            _ => {
                rest.insert(key.clone(), value.clone());
            }
        }
    }
    rest
}

/// `s` as JSON, where a `\uD800`-`\uDFFF` escape that is no half of a pair reads as U+FFFD:
/// a body echoing a name cut in the middle of a character holds one (Python's `json` takes it,
/// serde_json refuses it), and read as text its quote ran on into the envelope's `param`, whose
/// tool index was lost (trial 83 D4). `None` when it is no JSON even so.
fn json_value(s: &str) -> Option<Value> {
    match serde_json::from_str(s) {
        Ok(v) => Some(v),
        // serde_json's words for a half pair: "lone leading surrogate in hex escape", or
        // "unexpected end of hex escape" when no escape follows a leading half.
        Err(e) if e.to_string().contains("hex escape") => {
            serde_json::from_str(&lone_surrogates_replaced(s)).ok()
        }
        Err(_) => None,
    }
}

/// `s` with every `\u` escape of a surrogate that is no half of a high-low pair written
/// `\ufffd`. Other escapes are copied whole, so `\\u` (a backslash, then `u`) is left alone.
fn lone_surrogates_replaced(s: &str) -> String {
    let unit = |at: usize| {
        s.get(at..at + 6)
            .filter(|e| e.starts_with("\\u") && e[2..].bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|e| u16::from_str_radix(&e[2..], 16).ok())
    };
    let mut out = String::with_capacity(s.len());
    let mut rest = 0;
    let mut i = 0;
    while let Some(k) = s[i..].find('\\') {
        let at = i + k;
        match unit(at) {
            Some(0xD800..=0xDBFF)
                if unit(at + 6).is_some_and(|lo| (0xDC00..=0xDFFF).contains(&lo)) =>
            {
                i = at + 12;
            }
            Some(0xD800..=0xDFFF) => {
                out.push_str(&s[rest..at]);
                out.push_str("\\ufffd");
                i = at + 6;
                rest = i;
            }
            // Any other escape is two characters or more; skipping both keeps `\\` whole.
            _ => i = at + 1 + s[at + 1..].chars().next().map_or(0, char::len_utf8),
        }
    }
    out.push_str(&s[rest..]);
    out
}

/// The body a string member holds ([`lists_out`]): the string itself as JSON where it starts
/// as an object or list does, else a client's printout of one (`"Error code: 400 - {...}"`,
/// JSON or Python, trial 54 D7: quoted running on into the JSON, the errors in reverse order,
/// where the same printout given as the whole error was read right): the first object that
/// parses where one starts ([`envelope_at`]), as [`messages_in`] looks for one in a whole
/// error, in a text that shows an envelope ([`shows_envelope`]: OpenAI's `In context=(...)`
/// tuples are no body).
fn held_body(s: &str) -> Option<Value> {
    if s.trim_start().starts_with(['{', '[']) {
        return serde_json::from_str(s.trim()).ok();
    }
    if !shows_envelope(s) {
        return None;
    }
    s.match_indices('{')
        .take(MAX_STARTS)
        .find_map(|(start, _)| envelope_at(&s[start..]).filter(Value::is_object))
}

/// The statements of the list `l` under `key`, pushed onto `items` in order, a list among
/// them looked into likewise; the rest of `l`, less its `null`s, is returned (trial 54 D12:
/// `[A, {"message": G}, 5]` was left whole to the body, which drops a list's strings, so A
/// was lost with no word; `[A, ["nested", G]]` was read as one text, each quote running on).
/// A statement is a string under a key that names statements ([`names_statements`]) or, where
/// every string of the list reads as a sentence ([`reads_as_sentence`]), under any key; and
/// an object that is a record ([`is_record`]) at the top of the error (`top`) and below it
/// one holding a message field ([`MESSAGE_KEYS`]) and no `@type` (the JSON of a
/// `google.protobuf.Any`, which a Google body's `details` are: see [`lists_out`]). Other
/// lists of strings are values of the error (trial 54 D6: OpenAI-style `"allowed": ["auto",
/// "none", "required"]`, a `"path"`, an echoed schema's `enum` and `required`, a
/// `"supportedModels"` list were each noted as more records of the error). `nesting` counts
/// the objects and lists `l` lies in (bounded by [`MAX_NESTING`]).
fn statements_out(
    key: &str,
    l: &[Value],
    top: bool,
    items: &mut Vec<Value>,
    nesting: usize,
) -> Vec<Value> {
    let strings =
        names_statements(key) || l.iter().filter_map(Value::as_str).all(reads_as_sentence);
    let mut rest = Vec::new();
    for x in l {
        match x {
            Value::String(_) if strings => items.push(x.clone()),
            Value::Object(o)
                if top
                    || !o.contains_key("@type")
                        && MESSAGE_KEYS.iter().any(|k| o.contains_key(*k)) =>
            {
                items.push(x.clone())
            }
            Value::Array(inner) if nesting < MAX_NESTING => {
                let inner = statements_out(key, inner, top, items, nesting + 1);
                if !inner.is_empty() {
                    rest.push(inner.into());
                }
            }
            Value::Null => {}
            _ => rest.push(x.clone()),
        }
    }
    rest
}

/// Whether the key `key` names statements: it ends in a message field's name
/// ([`MESSAGE_KEYS`]) or its plural, in any case (`errors`, `details`, `messages`,
/// `validationErrors`, `error_details`).
fn names_statements(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    let key = key.strip_suffix('s').unwrap_or(&key);
    MESSAGE_KEYS.iter().any(|k| key.ends_with(k))
}

/// Whether `v`, found inside a text, is a list of values the message quotes, not a list of
/// records: strings (`null`s aside) that do not all read as sentences ([`reads_as_sentence`]),
/// as a body's lists of values are told from its statements ([`statements_out`]). Trial 59
/// D11: Google's `required fields ['position', 'args'] are not defined` and pydantic's
/// `input_value=['array', 'null']` were read as records of the error, each noted as a message
/// no template matches.
fn quoted_values(v: &Value) -> bool {
    v.as_array().is_some_and(|l| {
        is_list_of(l, Value::is_string)
            && !l.iter().filter_map(Value::as_str).all(reads_as_sentence)
    })
}

/// Whether `s` reads as a sentence, not a value: three words or more (an allowed value, a
/// path's step, a model's name or an enum's value is one word or two).
fn reads_as_sentence(s: &str) -> bool {
    s.split_whitespace().nth(2).is_some()
}

/// Whether a line of JSON Lines is a record: an object (a body, a log record) or a string
/// (an error's text, trial 48 D6: JSON Lines of strings were read as one text, their quotes
/// and the next record in each quote).
fn is_record(v: &Value) -> bool {
    v.is_object() || v.is_string()
}

/// Whether `v` is a list of records ([`is_record`]), one or more, a `null` among them standing
/// for none (trial 52 D7, D8: a one-item list beside a `message` or `request_id`, or a list
/// holding a `null`, was read as one text, an error in it dropped or quoted with the JSON
/// around it).
fn is_record_list(items: &[Value]) -> bool {
    is_list_of(items, is_record)
}

/// Whether `items` holds one item that is `kind` or more, and nothing else but `null`s.
fn is_list_of(items: &[Value], kind: impl Fn(&Value) -> bool) -> bool {
    items.iter().any(&kind) && items.iter().all(|x| kind(x) || x.is_null())
}

/// The texts of one record of a list or JSON Lines (a string is read as a whole error given
/// as a JSON string is: [`string_texts`]); `nesting` counts the lists and objects it lies in.
fn record_texts(record: &Value, nesting: usize) -> Vec<Text> {
    match record {
        Value::String(s) => string_texts(s, 0).unwrap_or_default(),
        _ => collected(record, 0, nesting),
    }
}

/// The texts of a JSON string at envelope depth `depth`: a body encoded once more as a JSON
/// string, whose text is the body's messages, or the message itself.
fn string_texts(inner: &str, depth: usize) -> Option<Vec<Text>> {
    messages_in(inner, depth + 1).or_else(|| {
        Some(vec![Text {
            text: inner.to_string(),
            decoded: true,
            record: None,
        }])
        .filter(|_| !inner.trim().is_empty())
    })
}

/// The records of JSON Lines with other lines among them (a banner, a message a logger wrote
/// as text, trial 48 D11: all but the first record were dropped), each record's texts: a line
/// that is a JSON object or string is a record ([`is_record`]), as in JSON Lines, and so is
/// each run of the other lines, read as that run given alone is ([`error_texts`]). `None`
/// unless a line is a record and another line is not blank (JSON Lines alone are read as a
/// whole): one JSON line among plain ones is a record too (trial 50 D19: a plain error line
/// beside one JSON body was dropped with no word).
fn lines_as_records(s: &str) -> Option<Vec<Vec<Text>>> {
    let mut records: Vec<Result<Value, String>> = Vec::new();
    for line in s.lines() {
        match serde_json::from_str::<Value>(line.trim()) {
            Ok(v) if is_record(&v) => records.push(Ok(v)),
            // A line holding a list of records is those records (trial 52 D11: the plain
            // error beside it was dropped with no word).
            Ok(Value::Array(items)) if is_record_list(&items) => {
                records.extend(items.into_iter().filter(is_record).map(Ok));
            }
            _ => match records.last_mut() {
                Some(Err(run)) => {
                    run.push('\n');
                    run.push_str(line);
                }
                _ => records.push(Err(line.to_string())),
            },
        }
    }
    let objects = records.iter().filter(|r| r.is_ok()).count();
    let other = records
        .iter()
        .any(|r| r.as_ref().is_err_and(|run| !run.trim().is_empty()));
    if objects == 0 || !other {
        return None;
    }
    let texts = records.into_iter().map(|record| match record {
        Ok(v) => record_texts(&v, 1),
        Err(run) if run.trim().is_empty() => Vec::new(),
        Err(run) => error_texts(&run),
    });
    Some(texts.collect())
}

/// The message of the one envelope in `s` cut short after it (a client or a log cutting a
/// line at a length limit: `Error code: 400 - {'error': {'message': "...", 'type': '`): the
/// string of its `message` key, JSON or Python, when that string is whole. Read so, the
/// message is the provider's alone, without the envelope's residue after it. A text with
/// several `message` keys (a log of many errors) is left to be read as it is.
fn cut_message(s: &str) -> Option<String> {
    let mut keys = ["\"message\":", "'message':"]
        .iter()
        .flat_map(|k| s.match_indices(k).take(2).map(|(at, k)| at + k.len()));
    let (Some(at), None) = (keys.next(), keys.next()) else {
        return None;
    };
    let rest = s[at..].trim_start();
    let read = |t: &str| {
        serde_json::Deserializer::from_str(t)
            .into_iter::<String>()
            .next()
            .and_then(Result::ok)
            .or_else(|| match pyrepr::parse_prefix(t) {
                Some((Value::String(m), _)) => Some(m),
                _ => None,
            })
    };
    read(rest)
        .or_else(|| escape_line_breaks(rest, &['\'', '"']).and_then(|t| read(&t)))
        .filter(|m| !m.trim().is_empty())
}

/// The `message` field of a Rust `Debug` printout (the AWS SDK's `ValidationException {
/// message: Some("..."), ... }`, bedrock-type-object-goose in reports.yaml): its string
/// literal, decoded; or of a struct whose `message` is no `Option` (`ApiError { status: 400,
/// message: "..." }`). Such a printout is often cut short (`...`), so only the field is read.
fn debug_message(s: &str) -> Option<String> {
    let at = s
        .find("message: Some(\"")
        .map(|i| i + "message: Some(".len())
        .or_else(|| {
            s.find(" { ")
                .and(s.find("message: \""))
                .map(|i| i + "message: ".len())
        })?;
    let literal = &s[at..];
    let read = |t: &str| {
        serde_json::Deserializer::from_str(t)
            .into_iter::<String>()
            .next()
            .and_then(Result::ok)
    };
    read(literal)
        .or_else(|| escape_line_breaks(literal, &['"']).and_then(|t| read(&t)))
        .filter(|m| !m.trim().is_empty())
}

/// The envelope `rest` starts with: JSON, a Python printout, or a Java `Map` printout (each
/// also when a client wrapped a long line inside one of its strings, which leaves a raw line
/// break there that neither JSON nor Python allows: it is read as the `\n` it shows).
fn envelope_at(rest: &str) -> Option<Value> {
    let json = |t: &str| {
        serde_json::Deserializer::from_str(t)
            .into_iter::<Value>()
            .next()
            .and_then(Result::ok)
    };
    let python = |t: &str| pyrepr::parse_prefix(t).map(|(v, _)| v);
    json(rest)
        .or_else(|| escape_line_breaks(rest, &['"']).and_then(|t| json(&t)))
        .or_else(|| python(rest))
        .or_else(|| escape_line_breaks(rest, &['\'', '"']).and_then(|t| python(&t)))
        .or_else(|| java_map(rest, 0).map(|(v, _)| v))
}

/// The start of `text`, up to the end of the value it starts with (its brackets closed, or its
/// string literal, outside brackets), with the raw line breaks and tabs inside its string
/// literals (opened and closed by one of `quotes`, with backslash escapes) written as escapes;
/// `None` when there is none. Only that value is parsed from it: what follows is not read (a
/// 16 MB log was scanned to its end once per place an envelope might start).
pub(super) fn escape_line_breaks(text: &str, quotes: &[char]) -> Option<String> {
    let mut out = String::new();
    let mut open: Option<char> = None;
    let mut escaped = false;
    let mut changed = false;
    let mut depth = 0usize;
    for c in text.chars() {
        if open.is_none() && depth == 0 && !out.is_empty() {
            break;
        }
        match open {
            Some(q) => {
                let raw = match c {
                    _ if escaped => None,
                    '\n' => Some("\\n"),
                    '\r' => Some("\\r"),
                    '\t' => Some("\\t"),
                    _ => None,
                };
                if let Some(e) = raw {
                    out.push_str(e);
                    changed = true;
                    continue;
                }
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    open = None;
                }
            }
            None if quotes.contains(&c) => open = Some(c),
            // Deeper than JSON or Python is read (serde_json's and `pyrepr`'s limit): what
            // is written here would not parse, and `[` after `[` to the end of a 10 MB text
            // was copied once per place an envelope might start.
            None if matches!(c, '{' | '[' | '(') && depth == MAX_NESTING => return None,
            None if matches!(c, '{' | '[' | '(') => depth += 1,
            None if matches!(c, '}' | ']' | ')') => depth = depth.saturating_sub(1),
            None => {}
        }
        out.push(c);
    }
    changed.then_some(out)
}

/// Reads the Java `Map.toString()` printout at the start of `text` (the Anthropic Java SDK
/// prints an error body so: `{type=error, error={type=invalid_request_error, message=...}}`):
/// `{key=value, ...}` with identifier keys; a value is a nested map or the text up to the
/// `, key=` or `}` that ends it (braces inside it balanced, as in a pattern's `{1,64}`).
/// Values are strings. Returns the value and the bytes read; `None` when `text` does not
/// start with such a map.
fn java_map(text: &str, depth: usize) -> Option<(Value, usize)> {
    if depth > MAX_DEPTH * 4 || !text.starts_with('{') {
        return None;
    }
    let mut map = serde_json::Map::new();
    let mut at = 1;
    loop {
        let rest = &text[at..];
        if map.is_empty() && rest.starts_with('}') {
            return None;
        }
        let key_len = java_key(rest)?;
        let key = rest[..key_len].to_string();
        at += key_len + 1;
        let rest = &text[at..];
        let (value, len) = match java_map(rest, depth + 1) {
            Some(nested) => nested,
            None => {
                let len = java_text_len(rest)?;
                (Value::String(rest[..len].to_string()), len)
            }
        };
        map.insert(key, value);
        at += len;
        let rest = &text[at..];
        if rest.starts_with('}') {
            return Some((Value::Object(map), at + 1));
        }
        at += rest.strip_prefix(", ").map(|_| 2)?;
    }
}

/// The length of the identifier key and `=` at the start of `text` (less the `=`).
fn java_key(text: &str) -> Option<usize> {
    let len = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|&n| n > 0 && text[n..].starts_with('='))?;
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        .then_some(len)
}

/// The length of a Java map's text value at the start of `text`: up to the `, key=` or the
/// `}` that ends it, outside braces it opened itself. `None` when nothing ends it.
fn java_text_len(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(i),
            '}' => depth -= 1,
            ',' if depth == 0
                && text[i..]
                    .strip_prefix(", ")
                    .is_some_and(|r| java_key(r).is_some()) =>
            {
                return Some(i);
            }
            _ => {}
        }
    }
    None
}

/// The fields a provider's envelope, or a record that carries its message (a JSON log
/// line), holds the message in: loggers write an error under `err` (Go's `log/slog`, zap's
/// `zap.Error`), `exception` (Python's `python-json-logger`, structlog) or `reason`.
const MESSAGE_KEYS: [&str; 7] = [
    "message",
    "error",
    "err",
    "exception",
    "reason",
    "detail",
    "msg",
];

/// The other fields of a provider's envelope that [`collect`] reads (or that hold no message):
/// never looked into for an envelope.
const ENVELOPE_KEYS: &[&str] = &["param", "loc", "type", "code", "status"];

/// The messages of the envelopes `v` is or holds, each once ([`first_of_each`]), in the order
/// [`collect`] finds them.
fn collected(v: &Value, depth: usize, nesting: usize) -> Vec<Text> {
    let mut texts = Vec::new();
    collect(v, &mut texts, depth, nesting);
    first_of_each(texts)
}

/// The messages of the envelopes `v` is or holds, pushed onto `texts` (a text may be pushed
/// more than once: [`collected`] keeps the first). `depth` counts the
/// envelopes decoded to reach `v` (bounded by [`MAX_DEPTH`]), `nesting` the lists and objects
/// `v` lies in within its own (bounded by [`MAX_NESTING`], as its parsers bound it).
fn collect(v: &Value, texts: &mut Vec<Text>, depth: usize, nesting: usize) {
    if depth > MAX_DEPTH || nesting > MAX_NESTING {
        return;
    }
    match v {
        Value::Array(a) => {
            for x in a {
                collect(x, texts, depth, nesting + 1);
            }
        }
        Value::Object(o) => {
            // A record that is no provider's envelope (a JSON log line) may hold one, or a
            // client's printout of one, as a string in a field of its own (`"err": "Error code:
            // 400 - {...}"`; OpenRouter's `metadata.raw`, the upstream's own body), or as an
            // object at any depth in one (`"response": {"error": {...}}`): read through it, as
            // the known fields below are.
            for (key, value) in o {
                if MESSAGE_KEYS.contains(&key.as_str()) || ENVELOPE_KEYS.contains(&key.as_str()) {
                    continue;
                }
                match value {
                    Value::String(s) => {
                        if let Some(inner) = messages_in(s, depth + 1) {
                            texts.extend(inner);
                        }
                    }
                    Value::Object(_) | Value::Array(_) => collect(value, texts, depth, nesting + 1),
                    _ => {}
                }
            }
            let mut own = String::new();
            for key in MESSAGE_KEYS {
                match o.get(key) {
                    Some(Value::String(s)) => match messages_in(s, depth + 1) {
                        // A body inside the message (a relay encoding it once more).
                        Some(inner) => {
                            texts.extend(inner);
                            texts.extend(cut_printout(s));
                        }
                        None if !cut_printout(s).is_empty() => texts.extend(cut_printout(s)),
                        None => {
                            // A blank line between the fields (a JSON log's own `msg` beside
                            // the `error` it carries): one is not the other's wrapped line.
                            if !own.is_empty() {
                                own.push_str("\n\n");
                            }
                            own.push_str(s);
                        }
                    },
                    Some(inner @ (Value::Object(_) | Value::Array(_))) => {
                        collect(inner, texts, depth + 1, nesting + 1)
                    }
                    _ => {}
                }
            }
            if own.trim().is_empty() {
                return;
            }
            // OpenAI's `param` says which tool; keep it with the message, on its own line.
            if let Some(param) = o.get("param").and_then(Value::as_str) {
                own.push_str(&format!("\nparam: {param}"));
            }
            // Mistral/pydantic `loc`.
            if let Some(loc) = o.get("loc").and_then(Value::as_array) {
                let parts: Vec<String> = loc
                    .iter()
                    .map(|p| p.as_str().map_or_else(|| p.to_string(), str::to_string))
                    .collect();
                own.push_str(&format!("\nloc: {}", parts.join(".")));
            }
            texts.push(Text {
                text: own,
                decoded: true,
                record: None,
            });
        }
        _ => {}
    }
}

/// The provider's whole statement of a problem a template found as `found` at byte `at` of
/// `text` (`None`: looked up): from there to the end of its line (a template may stop short of
/// the end, at a quote or a period), and in a decoded message from the start of the line (less
/// Google's `* ` list marker: each line of its list is one problem). Lines past the last one
/// `found` reaches are other problems, or the envelope fields (`param: ...`) kept with the
/// message; so are the parts of its own line outside `within` (where the problems before and
/// after it were found: a text joined into one line states each problem in its own stretch).
/// `found` is returned as it is when it is not in `text` (a template's fixed wording).
///
/// A line is read at most [`LINE_READ`] bytes either side of `found`; one that runs on past
/// that is not one statement, so `found` alone is. This bounds the work per problem (a scan to
/// the line's ends was quadratic on a text of one long line) and what is quoted.
pub(super) fn statement(
    text: &Text,
    found: &str,
    at: Option<usize>,
    within: Range<usize>,
) -> String {
    clipped(&whole_statement(text, found, at, within))
}

fn whole_statement(text: &Text, found: &str, at: Option<usize>, within: Range<usize>) -> String {
    let t = text.text.as_str();
    let at = at
        .filter(|&a| t.get(a..a + found.len()) == Some(found))
        .or_else(|| t.find(found));
    let Some(at) = at.filter(|_| !found.trim().is_empty()) else {
        return found.to_string();
    };
    let end_of_found = at + found.len();
    let first = within.start.min(at);
    let from = ceil_boundary(t, at.saturating_sub(LINE_READ).max(first));
    let before = &t[from..at];
    let line_start = match before.rfind('\n') {
        Some(i) => Some(from + i + 1),
        None if from == first => Some(first),
        None => None,
    };
    let last = t[at..end_of_found].trim_end().len();
    let rest = at + last;
    let stop = within.end.clamp(rest, t.len());
    let to = floor_boundary(t, rest.saturating_add(LINE_READ).min(stop));
    let end = match t[rest..to].find('\n') {
        Some(i) => Some(rest + i),
        None if to == stop => Some(stop.max(end_of_found)),
        None => None,
    };
    let (Some(line_start), Some(end)) = (line_start, end) else {
        // The line runs on past what is read: not one statement.
        return without_trailers(found).to_string();
    };
    let start = if text.decoded {
        // A message field may hold what a client or relay wrote before the provider's message
        // (a JSON log's `"error": "Gemini API Error: * ..."`, a relay's `"message": "400
        // Invalid schema ..."`): the quote starts after it, unless the words matched are in it.
        line_start
            + CLIENT_PREFIXES
                .find(&t[line_start..at])
                .map_or(0, |m| m.end())
    } else {
        // Text given as is may carry a client's prefix before the message, so the statement
        // starts where the template matched, or earlier at a provider's own lead-in.
        LEAD_INS
            .iter()
            .find_map(|l| {
                t[line_start..at]
                    .strip_suffix(l)
                    .map(|b| line_start + b.len())
            })
            .unwrap_or(at)
    };
    let line = t[start..end].trim();
    let line = if text.decoded {
        line.strip_prefix("* ").unwrap_or(line)
    } else {
        line
    };
    without_trailers(line).to_string()
}

/// `s`, less what is past its first [`LINE_READ`] bytes: a template reading to the end of a
/// line (`[^\n]+`) takes all of a text that is one huge line, which quoted whole would make the
/// output as large as the input.
fn clipped(s: &str) -> String {
    if s.len() <= LINE_READ {
        return s.to_string();
    }
    let kept = &s[..floor_boundary(s, LINE_READ)];
    format!("{kept} [...]")
}

/// Words a provider writes before the part of its message a template matches: Vertex's and
/// Gemini's validator start a statement with "Unable to submit request because " (then the
/// function's name, or the fields; vercel-ai-vertex-anyof-only-field and
/// openrouter-vertex-required-not-defined in reports.yaml), so the quote keeps them.
const LEAD_INS: &[&str] = &["Unable to submit request because "];

/// The run of [`CLIENT_PREFIX`]es at the start of a text.
static CLIENT_PREFIXES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!("^(?:{CLIENT_PREFIX})+"))
        .unwrap_or_else(|e| panic!("client prefix regex: {e}"))
});

/// What relays and clients append to a provider's message, not part of it: one-api's
/// `(request id: ...)` (oai-subschema-empty-list-relay in reports.yaml), a client's
/// `(request_id: ...)` (bedrock-type-object-kiro-builtin), the AWS Java SDK's `(Service:
/// ..., Status Code: ..., Request ID: ...)` (bedrock-strict-ref-nonexistent).
static TRAILER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\s*\((?:request[ _]id:|service:[^)]*request id:)[^)]*\)\s*$")
        .unwrap_or_else(|e| panic!("trailer regex: {e}"))
});

/// `line` less the trailers ([`TRAILER`]) at its end, trimmed.
fn without_trailers(line: &str) -> &str {
    let mut line = line.trim();
    while let Some(m) = TRAILER.find(line) {
        line = line[..m.start()].trim_end();
    }
    line
}
