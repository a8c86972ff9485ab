//! Findings as SARIF 2.1.0 (the format GitHub code scanning and most CI tools read), and
//! locating a JSON Pointer in JSON text so each finding gets a file line and column.
//!
//! Shape (OASIS SARIF 2.1.0, <https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html>):
//! one run whose driver is `toolwire` with the rules that fired; one result per finding with
//! `ruleId`, `level: "error"`, the message (plus the fix), a physical location (file, line,
//! column) and a logical location (the tool and the JSON Pointer into its schema); its
//! properties carry the finding's fields, with the deciding evidence (kind, date, URL or run
//! id) under `evidence` when some decides it.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};

use serde_json::{Value, json};

use crate::check::{Finding, Level};

/// Where a finding sits in the user's files.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Site {
    /// The file as given on the command line (a relative path stays relative, which is what
    /// code scanning expects).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
}

/// Sites for findings read from files: each distinct `Finding::file` is read once (capped like
/// every input) and the finding located at `location` + `pointer` (within its JSON Lines
/// line when `line` is set). A file that cannot be read, or a place not found, leaves the
/// line out. Locating every finding of a file costs about one pass over it, however many
/// findings it has (see [`Locator`]).
pub fn file_sites(findings: &[Finding]) -> impl Fn(&Finding) -> Site + use<> {
    let mut texts: HashMap<String, Option<Locator>> = HashMap::new();
    for f in findings {
        texts.entry(f.file.to_string()).or_insert_with(|| {
            let path = std::path::Path::new(f.file.as_str());
            crate::json::read_capped(path, crate::input::LIMITS)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .map(Locator::new)
        });
    }
    move |f: &Finding| site_with(f, texts.get(f.file.as_str()).and_then(Option::as_ref))
}

/// The site of `f` given its file's text (or `None` when the text is not at hand).
pub fn site_in(f: &Finding, text: Option<&str>) -> Site {
    site_with(f, text.map(|t| Locator::new(t.to_string())).as_ref())
}

fn site_with(f: &Finding, text: Option<&Locator>) -> Site {
    let pointer = f.place();
    let (line, column) = match (text, f.line) {
        (Some(t), Some(l)) => match t.locate_in_line(l, &pointer) {
            Some(c) => (Some(l), Some(c)),
            None => (Some(l), None),
        },
        (Some(t), None) => t
            .locate(&pointer)
            .map_or((None, None), |(l, c)| (Some(l), Some(c))),
        (None, l) => (l, None),
    };
    Site {
        file: f.file.to_string(),
        line,
        column,
    }
}

/// What a SARIF rule entry (`reportingDescriptor`) says of a rule: code scanning shows
/// `shortDescription` in alert lists, and `fullDescription` and `help` on an alert's page.
/// No `helpUri`: the project has no published URL for a rule's page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RuleHelp {
    /// One sentence: what the rule checks.
    pub short: String,
    /// All of what the rule checks.
    pub full: String,
    /// The rule's documentation as plain text (what `toolwire rule ID` prints).
    pub text: String,
    /// The same documentation as GitHub-flavoured Markdown.
    pub markdown: String,
}

/// The SARIF level of a finding.
fn level(f: &Finding) -> &'static str {
    match f.level {
        Level::Error => "error",
        Level::Warning => "warning",
    }
}

/// The SARIF log for `findings`. `locate` gives each finding's site (see [`file_sites`]);
/// `rule_text` gives what SARIF says of a rule id (or `None`, and the rule entry has only its
/// id and name).
pub fn render(
    findings: &[Finding],
    locate: impl Fn(&Finding) -> Site,
    rule_text: impl Fn(&str) -> Option<RuleHelp>,
) -> String {
    let mut out = Vec::new();
    // Writing into memory fails only if serialization does, which these values cannot.
    let _ = write(&mut out, findings, &[], &[], &[], locate, rule_text);
    String::from_utf8(out).unwrap_or_default()
}

/// [`render`] written to `w` (pretty JSON and a final newline), one result at a time: only
/// one result's JSON value is alive at once, so memory follows the findings, not the output
/// (which is about 1.6 kB per finding). The files in `unread` could not be read: the run's
/// invocation says it did not succeed, with a notification for each ([`invocation`]); the
/// notes on reading the files `read` are notifications too, and so are the report's
/// `closing` notes ([`crate::check::Report::closing_notes`]).
/// Errors are `w`'s.
pub fn write(
    w: &mut dyn std::io::Write,
    findings: &[Finding],
    unread: &[super::Unreadable],
    read: &[crate::check::FileSummary],
    closing: &[String],
    locate: impl Fn(&Finding) -> Site,
    rule_text: impl Fn(&str) -> Option<RuleHelp>,
) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut w = std::io::BufWriter::new(w);
    serde_json::to_writer_pretty(
        &mut w,
        &log(findings, unread, read, closing, locate, rule_text),
    )?;
    w.write_all(b"\n")?;
    w.flush()
}

/// [`render`] as a JSON value.
pub fn to_value(
    findings: &[Finding],
    locate: impl Fn(&Finding) -> Site,
    rule_text: impl Fn(&str) -> Option<RuleHelp>,
) -> Value {
    serde_json::to_value(log(findings, &[], &[], &[], locate, rule_text)).unwrap_or_default()
}

/// The SARIF log, its results made as they are serialized.
#[derive(serde::Serialize)]
struct Log<R> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<R>; 1],
}

#[derive(serde::Serialize)]
struct Run<R> {
    tool: Value,
    invocations: [Value; 1],
    results: R,
    /// Columns count Unicode code points (SARIF's default is UTF-16 code units).
    #[serde(rename = "columnKind")]
    column_kind: &'static str,
}

/// The results, each made from its finding when the serializer reaches it.
struct Results<'a, F> {
    findings: &'a [Finding],
    make: F,
}

impl<F: Fn(&Finding) -> Value> serde::Serialize for Results<'_, F> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.findings.iter().map(&self.make))
    }
}

/// The run's one invocation (SARIF 2.1.0 §3.20): `executionSuccessful` is false when a file
/// could not be read, with a `toolExecutionNotifications` entry (§3.58) for each, at its
/// file and, where the error names them, line and column. Always written, so that a reader
/// finds the field in every log, `true` when every file was read. Each note on reading a file
/// read ([`crate::check::FileSummary::notes`]: a key written twice, a number read as another
/// value) is a notification of level `note` at its file and, where known, line and column:
/// a log uploaded to code scanning otherwise says nothing of a document whose meaning is
/// ambiguous. Each `closing` note (what a strict mode check does not judge) is a
/// notification of level `note` on no location, as output for people ends with it.
fn invocation(
    unread: &[super::Unreadable],
    read: &[crate::check::FileSummary],
    closing: &[String],
) -> Value {
    let mut notifications: Vec<Value> = unread
        .iter()
        .map(|u| {
            let mut physical = json!({"artifactLocation": artifact(&u.file)});
            if let Some(region) = region(u.line, u.column) {
                physical["region"] = region;
            }
            json!({
                "level": "error",
                "message": {"text": super::escape_output(&u.error)},
                "locations": [{"physicalLocation": physical}],
            })
        })
        .collect();
    for file in read.iter().filter(|f| !f.notes.is_empty()) {
        notifications.extend(reading_notifications(file));
    }
    notifications.extend(closing.iter().map(|note| {
        let text = super::escape_output(super::closing_note_text(note));
        json!({"level": "note", "message": {"text": text}})
    }));
    let mut invocation = json!({"executionSuccessful": unread.is_empty()});
    if !notifications.is_empty() {
        invocation["toolExecutionNotifications"] = Value::Array(notifications);
    }
    invocation
}

/// The notifications for `file`'s notes on reading, each placed by [`note_sites`].
fn reading_notifications(file: &crate::check::FileSummary) -> Vec<Value> {
    let sites = note_sites(&file.file, &file.notes);
    file.notes
        .iter()
        .zip(sites)
        .map(|(n, sites)| {
            let locations: Vec<Value> = sites
                .into_iter()
                .map(|(line, column)| {
                    let mut physical = json!({"artifactLocation": artifact(&file.file)});
                    if let Some(region) = region(line, column) {
                        physical["region"] = region;
                    }
                    json!({"physicalLocation": physical})
                })
                .collect();
            json!({
                "level": if n.fails { "error" } else { "note" },
                "message": {"text": super::escape_output(&n.text)},
                "locations": locations,
            })
        })
        .collect()
}

/// The (line, column) sites of each of `file`'s notes on reading, placed as a finding is: its
/// pointer located in the file's text (within its JSON Lines line), else only the line; a
/// note about several lines ([`crate::check::ReadingNote::lines`]) has a site on each of the
/// first [`crate::check::NOTE_LINES_PLACED`], any other one site. The file is read again
/// only when a note has a pointer (never standard input, read once).
pub fn note_sites(
    file: &str,
    notes: &[crate::check::ReadingNote],
) -> Vec<Vec<(Option<usize>, Option<usize>)>> {
    let locator = (file != super::STDIN && notes.iter().any(|n| n.pointer.is_some()))
        .then(|| {
            crate::json::read_capped(std::path::Path::new(file), crate::input::LIMITS)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .map(Locator::new)
        })
        .flatten();
    notes
        .iter()
        .map(|n| {
            if !n.lines.is_empty() {
                let placed = n.lines.iter().take(crate::check::NOTE_LINES_PLACED);
                return placed.map(|&l| (Some(l), None)).collect();
            }
            vec![match (&locator, n.line, n.pointer.as_deref()) {
                (Some(t), Some(l), Some(p)) => (Some(l), t.locate_in_line(l, p)),
                (Some(t), None, Some(p)) => t
                    .locate(p)
                    .map_or((None, None), |(l, c)| (Some(l), Some(c))),
                (_, l, _) => (l, None),
            }]
        })
        .collect()
}

/// Where `file` is, as an artifact location. Standard input has no URI (`-` would be a
/// relative reference to a file of that name); SARIF 2.1.0 §3.4 lets an artifact location be
/// only its description.
fn artifact(file: &str) -> Value {
    if file == super::STDIN {
        json!({"description": {"text": crate::error::file_name(std::path::Path::new(super::STDIN))}})
    } else {
        json!({"uri": uri(file)})
    }
}

/// A region at `line` (and `column`), or none when the line is not known: a region is
/// optional, and a wrong one (line 1 for "unknown") points at the wrong text.
fn region(line: Option<usize>, column: Option<usize>) -> Option<Value> {
    let mut region = json!({"startLine": line?});
    if let Some(c) = column {
        region["startColumn"] = json!(c);
    }
    Some(region)
}

fn log<'a>(
    findings: &'a [Finding],
    unread: &[super::Unreadable],
    read: &[crate::check::FileSummary],
    closing: &[String],
    locate: impl Fn(&Finding) -> Site,
    rule_text: impl Fn(&str) -> Option<RuleHelp>,
) -> Log<Results<'a, impl Fn(&Finding) -> Value>> {
    let mut rule_index: BTreeMap<&str, usize> = BTreeMap::new();
    for f in findings {
        let next = rule_index.len();
        rule_index.entry(f.rule.as_str()).or_insert(next);
    }
    let mut rules: Vec<(&str, usize)> = rule_index.iter().map(|(k, v)| (*k, *v)).collect();
    rules.sort_by_key(|(_, i)| *i);
    let rules: Vec<Value> = rules
        .iter()
        .map(|(id, _)| {
            let mut r = json!({"id": id, "name": id});
            if let Some(help) = rule_text(id) {
                r["shortDescription"] = json!({"text": help.short});
                r["fullDescription"] = json!({"text": help.full});
                r["help"] = json!({"text": help.text, "markdown": help.markdown});
            }
            r
        })
        .collect();
    let make = move |f: &Finding| {
        let site = locate(f);
        let mut physical = json!({"artifactLocation": artifact(&site.file)});
        // A line not known (standard input, a file gone since it was read) is left out.
        if let Some(region) = region(site.line, site.column) {
            physical["region"] = region;
        }
        // A request-level finding is about the tool list (at `location`), not about a tool.
        let logical = if f.request {
            json!({"name": "(request)", "fullyQualifiedName": f.location, "kind": "array"})
        } else {
            // Shown by viewers as text, as the message is: escaped the same way.
            json!({
                "name": super::escape_output(&f.tool),
                "fullyQualifiedName": super::escape_output(&format!("{}#{}", f.tool, f.pointer)),
                "kind": "member",
            })
        };
        let mut properties = serde_json::Map::new();
        if f.request {
            properties.insert("request".into(), json!(true));
        } else {
            properties.insert("tool".into(), json!(f.tool));
            properties.insert("toolIndex".into(), json!(f.tool_index));
        }
        properties.insert("pointer".into(), json!(f.pointer));
        properties.insert("fix".into(), json!(f.fix));
        properties.insert("repairable".into(), json!(f.marked_repairable()));
        properties.insert("parameter".into(), json!(f.parameter));
        // The deciding evidence with its link (a result has no `helpUri`; a rule's would be
        // one link for findings that different evidence decides).
        if let Some(evidence) = f.evidence.as_deref().filter(|e| !e.is_empty()) {
            properties.insert("evidence".into(), json!(evidence));
        }
        let mut text = match (f.request, f.tool.is_empty()) {
            (true, _) => format!("request: {}", f.message),
            // A bare schema has no tool name to lead with.
            (false, true) => f.message.to_string(),
            (false, false) => format!("{}: {}", f.tool, f.message),
        };
        if !f.fix.is_empty() {
            text.push_str(" Fix: ");
            text.push_str(&f.fix);
        }
        // Viewers show the message as text: a control character or bidi override from
        // the input is escaped as in output for people (JSON escaping alone keeps U+202E
        // raw, and a viewer then shows the text reordered).
        let text = super::escape_output(&text).into_owned();
        json!({
            "ruleId": f.rule,
            "ruleIndex": rule_index[f.rule.as_str()],
            "level": level(f),
            "message": {"text": text},
            "locations": [{
                "physicalLocation": physical,
                "logicalLocations": [logical],
            }],
            "properties": properties,
        })
    };
    Log {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: [Run {
            tool: json!({"driver": {
                "name": "toolwire",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }}),
            invocations: [invocation(unread, read, closing)],
            results: Results { findings, make },
            column_kind: "unicodeCodePoints",
        }],
    }
}

/// What a path segment keeps unescaped in an artifact URI: RFC 3986's unreserved characters
/// (`A-Z a-z 0-9 - . _ ~`) and the segment separator `/`. Everything else is percent-encoded
/// as UTF-8 bytes: `%`, `#` and `?` (which would end the path), `:` (which in a first segment
/// would read as a scheme), spaces, the other reserved characters, controls and non-ASCII.
const URI_ESCAPED: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/');

/// A file path as a SARIF artifact URI (SARIF 2.1.0 §3.4.3: a URI reference, RFC 3986):
/// backslashes become `/`, and every byte but unreserved characters and `/` is
/// percent-encoded (`URI_ESCAPED`), so a relative path stays a relative reference that
/// decodes back to the path (`a#b:c.json` → `a%23b%3Ac.json`). An absolute path becomes a
/// `file` URI (RFC 8089: `/tmp/t.json` → `file:///tmp/t.json`, on Windows `C:\\t.json` →
/// `file:///C:/t.json`), as SARIF §3.4.3 asks of a reference with no `uriBaseId`; a bare
/// `/tmp/t.json` would read as a path on whatever host the log is viewed against.
pub fn uri(file: &str) -> String {
    let file = file.replace('\\', "/");
    let encoded = |p: &str| percent_encoding::utf8_percent_encode(p, URI_ESCAPED).to_string();
    let bytes = file.as_bytes();
    // A drive only where paths have drives: on Unix `C:/x.json` is a relative path (trial 52 D9).
    if cfg!(windows)
        && bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && bytes[2] == b'/'
    {
        // A Windows drive: its colon is the one RFC 8089 keeps.
        format!("file:///{}:{}", &file[..1], encoded(&file[2..]))
    } else if file.starts_with('/') {
        format!("file://{}", encoded(&file))
    } else {
        encoded(&file)
    }
}

/// The 1-based line and column where the value at RFC 6901 `pointer` starts in the JSON
/// `text`, or `None` when the text has no such value or is not JSON. For a member of an
/// object the position is that of its key, which is where an editor should jump. One pass,
/// no allocation per value; nesting is walked without recursion. A leading byte order mark is
/// skipped as the readers skip it ([`crate::json::check_utf8`]), so the pointer is looked up
/// in the text it was found in; it takes no column (editors do not show it), so positions
/// match those of the same file without it.
pub fn locate(text: &str, pointer: &str) -> Option<(usize, usize)> {
    Locator::new(text.to_string()).locate(pointer)
}

/// One JSON text prepared for locating many pointers in it (every finding of a file): line
/// starts are indexed once, and every place a search passes (a value found, each array
/// element skipped over) is remembered by its pointer, so that the findings of the 3,000th
/// tool of a file resume from there instead of rescanning the tools before it. Without this,
/// SARIF and GitHub output took time quadratic in the file (42 s for one 3.9 MB file).
pub struct Locator {
    text: String,
    /// Byte offset where each line starts (line 1 at index 0).
    line_starts: Vec<usize>,
    /// Pointer (as written, escaped) → (where an editor should jump, where its value starts).
    seen: RefCell<HashMap<String, (usize, usize)>>,
    /// Per array (by pointer): the furthest element reached and where it starts.
    furthest: RefCell<HashMap<String, (usize, usize)>>,
    /// Per object (by pointer): where the first member not yet passed starts (or its `}`).
    resume: RefCell<HashMap<String, usize>>,
    /// Code points before every `CHECKPOINT`-th byte offset, so that a column is counted over
    /// at most `CHECKPOINT` bytes whatever the order findings come in. Counting onwards from
    /// the last column found helped only when offsets grew: a tool's findings are ordered by
    /// rule, not offset, so on one long line (minified JSON) nearly every column was counted
    /// from the line start again (25 s for 8,000 tools as SARIF).
    code_points_before: Vec<usize>,
    /// Bytes looked at to count columns, so a test can pin that the counting stays linear.
    counted: Cell<usize>,
}

/// Bytes between two entries of [`Locator::code_points_before`].
const CHECKPOINT: usize = 1024;

/// Whether `b` starts a code point: UTF-8 continuation bytes (0b10xx_xxxx) do not.
fn starts_code_point(b: &u8) -> bool {
    b & 0xC0 != 0x80
}

impl Locator {
    /// A leading byte order mark is dropped (see [`locate`]).
    pub fn new(mut text: String) -> Locator {
        if text.starts_with(crate::json::BOM) {
            text.drain(..crate::json::BOM.len());
        }
        let line_starts = std::iter::once(0)
            .chain(offsets_of(text.as_bytes(), b'\n').map(|i| i + 1))
            .collect();
        let code_points_before = std::iter::once(0)
            .chain(text.as_bytes().chunks(CHECKPOINT).scan(0, |before, chunk| {
                *before += chunk.iter().filter(|b| starts_code_point(b)).count();
                Some(*before)
            }))
            .collect();
        Locator {
            text,
            line_starts,
            seen: RefCell::new(HashMap::new()),
            furthest: RefCell::new(HashMap::new()),
            resume: RefCell::new(HashMap::new()),
            code_points_before,
            counted: Cell::new(0),
        }
    }

    /// [`locate`] in the whole text.
    pub fn locate(&self, pointer: &str) -> Option<(usize, usize)> {
        let at = self.find(0, self.text.len(), "", pointer)?;
        Some(self.line_column(at))
    }

    /// The 1-based column of `pointer` within 1-based line `line` (a JSON Lines record).
    pub fn locate_in_line(&self, line: usize, pointer: &str) -> Option<usize> {
        let start = *self.line_starts.get(line.checked_sub(1)?)?;
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |next| next - 1);
        // The reader skips a BOM at the start of any line (files joined line by line keep
        // theirs), so the record starts after it, and it takes no column, as on line 1.
        let bom = self.text[start..end].starts_with(crate::json::BOM);
        let start = start + if bom { crate::json::BOM.len() } else { 0 };
        let at = self.find(start, end, &format!("#{line}"), pointer)?;
        Some(self.line_column(at).1 - usize::from(bom))
    }

    /// The byte offset of `pointer` in the value spanning `start..end` of the text; `scope`
    /// keeps what is remembered about different values (JSON Lines records) apart.
    fn find(&self, start: usize, end: usize, scope: &str, pointer: &str) -> Option<usize> {
        let bytes = &self.text.as_bytes()[..end];
        // Token boundaries in `pointer`: the prefix up to boundary k is the pointer of the
        // value reached after k tokens.
        let ends: Vec<usize> = pointer
            .match_indices('/')
            .map(|(i, _)| i)
            .skip(1)
            .chain((!pointer.is_empty()).then_some(pointer.len()))
            .collect();
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return None;
        }
        let key = |prefix: &str| format!("{scope}{prefix}");
        let mut seen = self.seen.borrow_mut();
        let mut furthest = self.furthest.borrow_mut();
        let mut resume = self.resume.borrow_mut();
        // Resume from the longest prefix already found.
        let (mut done, mut at, mut pos) = (0, start, skip_ws(bytes, start));
        for k in (1..=ends.len()).rev() {
            if let Some(&(a, p)) = seen.get(&key(&pointer[..ends[k - 1]])) {
                (done, at, pos) = (k, a, p);
                break;
            }
        }
        for k in done..ends.len() {
            let from = if k == 0 { 0 } else { ends[k - 1] + 1 };
            let token = pointer[from..ends[k]]
                .trim_start_matches('/')
                .replace("~1", "/")
                .replace("~0", "~");
            match bytes.get(pos)? {
                b'{' => {
                    // Every member passed is remembered, so a member before the furthest one
                    // reached is found at once (above); a later one resumes from there.
                    let parent = &pointer[..if k == 0 { 0 } else { ends[k - 1] }];
                    let object = key(parent);
                    pos = resume.get(&object).copied().unwrap_or(pos + 1);
                    // The member found, as (key, value) offsets. A key written twice is read
                    // with its last value (serde_json keeps the last), so once the key is
                    // found the rest of the object is read too, and a later copy wins.
                    let mut found: Option<(usize, usize)> = None;
                    loop {
                        pos = skip_ws(bytes, pos);
                        if *bytes.get(pos)? != b'"' {
                            resume.insert(object, pos);
                            match found {
                                Some(_) => break,
                                None => return None,
                            }
                        }
                        let key_start = pos;
                        let (name, after) = read_string(bytes, pos)?;
                        pos = skip_ws(bytes, after);
                        if *bytes.get(pos)? != b':' {
                            return None;
                        }
                        pos = skip_ws(bytes, pos + 1);
                        let member = format!("{parent}/{}", crate::json::escape_token(&name));
                        seen.insert(key(&member), (key_start, pos));
                        if name == token {
                            found = Some((key_start, pos));
                        }
                        pos = skip_ws(bytes, skip_value(bytes, pos)?);
                        match bytes.get(pos)? {
                            b',' => pos += 1,
                            _ if found.is_some() => {
                                resume.insert(object, pos);
                                break;
                            }
                            _ => return None,
                        }
                    }
                    let (key_start, value_start) = found?;
                    (at, pos) = (key_start, value_start);
                }
                b'[' => {
                    let index: usize = token.parse().ok()?;
                    let parent = &pointer[..if k == 0 { 0 } else { ends[k - 1] }];
                    // Every element passed is remembered, so an element before the furthest
                    // one reached is found at once; a later one resumes from the furthest.
                    let mut i = 0;
                    pos = skip_ws(bytes, pos + 1);
                    let array = key(parent);
                    if index > 0 {
                        if let Some(&(_, p)) = seen.get(&key(&format!("{parent}/{index}"))) {
                            (i, pos) = (index, p);
                        } else if let Some(&(j, p)) = furthest.get(&array)
                            && j < index
                        {
                            (i, pos) = (j, p);
                        }
                    }
                    while i < index {
                        pos = skip_ws(bytes, skip_value(bytes, pos)?);
                        match bytes.get(pos)? {
                            b',' => pos = skip_ws(bytes, pos + 1),
                            _ => return None,
                        }
                        i += 1;
                        seen.insert(key(&format!("{parent}/{i}")), (pos, pos));
                    }
                    if furthest.get(&array).is_none_or(|&(j, _)| j < i) {
                        furthest.insert(array, (i, pos));
                    }
                    if *bytes.get(pos)? == b']' {
                        return None;
                    }
                    at = pos;
                }
                _ => return None,
            }
            seen.insert(key(&pointer[..ends[k]]), (at, pos));
        }
        if ends.is_empty() {
            at = pos;
        }
        bytes.get(at)?;
        Some(at)
    }

    /// 1-based line and column (in code points) of byte offset `at`.
    fn line_column(&self, at: usize) -> (usize, usize) {
        let line = self.line_starts.partition_point(|&s| s <= at);
        let line_start = self.line_starts[line - 1];
        (
            line,
            1 + self.code_points_to(at) - self.code_points_to(line_start),
        )
    }

    /// Code points in the text before byte offset `at`, counted from the checkpoint before it.
    fn code_points_to(&self, at: usize) -> usize {
        let checkpoint = at / CHECKPOINT;
        let from = checkpoint * CHECKPOINT;
        self.counted.set(self.counted.get() + (at - from));
        self.code_points_before[checkpoint]
            + self.text.as_bytes()[from..at]
                .iter()
                .filter(|b| starts_code_point(b))
                .count()
    }
}

/// Offsets of every `needle` in `bytes`.
fn offsets_of(bytes: &[u8], needle: u8) -> impl Iterator<Item = usize> + '_ {
    bytes
        .iter()
        .enumerate()
        .filter(move |&(_, &b)| b == needle)
        .map(|(i, _)| i)
}

fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while matches!(bytes.get(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        pos += 1;
    }
    pos
}

/// Reads the string starting at `pos` (a `"`), returning its decoded text and the position
/// after the closing quote.
fn read_string(bytes: &[u8], pos: usize) -> Option<(String, usize)> {
    let mut end = pos + 1;
    let mut escaped = false;
    loop {
        let b = *bytes.get(end)?;
        if escaped {
            escaped = false;
        } else if b == b'\\' {
            escaped = true;
        } else if b == b'"' {
            break;
        }
        end += 1;
    }
    let raw = std::str::from_utf8(&bytes[pos..=end]).ok()?;
    let key: String = serde_json::from_str(raw).ok()?;
    Some((key, end + 1))
}

/// The position just after the value starting at `pos`.
fn skip_value(bytes: &[u8], pos: usize) -> Option<usize> {
    match bytes.get(pos)? {
        b'"' => read_string_end(bytes, pos),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut p = pos;
            loop {
                match bytes.get(p)? {
                    b'"' => {
                        p = read_string_end(bytes, p)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(p + 1);
                        }
                    }
                    _ => {}
                }
                p += 1;
            }
        }
        _ => {
            let mut p = pos;
            while let Some(b) = bytes.get(p) {
                if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                p += 1;
            }
            (p > pos).then_some(p)
        }
    }
}

fn read_string_end(bytes: &[u8], pos: usize) -> Option<usize> {
    let mut p = pos + 1;
    let mut escaped = false;
    loop {
        let b = *bytes.get(p)?;
        if escaped {
            escaped = false;
        } else if b == b'\\' {
            escaped = true;
        } else if b == b'"' {
            return Some(p + 1);
        }
        p += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Text;

    pub(crate) fn finding(rule: &str, tool: &str, pointer: &str) -> Finding {
        Finding {
            rule: rule.to_string().into(),
            tool: tool.to_string().into(),
            tool_index: 0,
            request: false,
            pointer: pointer.into(),
            message: "array without `items`.".into(),
            fix: "Add `items`.".into(),
            repairable: false,
            level: Level::Error,
            parameter: "structure: array-without-items".into(),
            file: Text::default(),
            line: None,
            location: Text::default(),
            subject: crate::check::Subject::Schema,
            evidence: None,
        }
    }

    /// A note about several JSON Lines lines (those that hold no tool) is placed on each, up
    /// to [`crate::check::NOTE_LINES_PLACED`] (trial 74 D2: it was placed on none); a note
    /// about one line, or none, keeps one site.
    #[test]
    fn a_note_about_several_lines_is_placed_on_each() {
        let note = |line, lines: Vec<usize>| crate::check::ReadingNote {
            line,
            lines,
            pointer: None,
            text: "hold no tools".into(),
            fails: false,
        };
        let many: Vec<usize> = (1..=250).map(|i| 2 * i).collect();
        let sites = note_sites(
            "a.jsonl",
            &[
                note(None, vec![2, 7]),
                note(Some(4), vec![]),
                note(None, many),
            ],
        );
        assert_eq!(sites[0], [(Some(2), None), (Some(7), None)]);
        assert_eq!(sites[1], [(Some(4), None)]);
        assert_eq!(sites[2].len(), crate::check::NOTE_LINES_PLACED);
        assert_eq!(sites[2].last(), Some(&(Some(200), None)));
    }

    #[test]
    fn sites_come_from_the_file_line_and_schema_location() {
        let mut f = finding("r", "t", "/properties/a");
        f.file = "tools.json".into();
        f.location = "/tools/1/function/parameters".into();
        let text = "{\"tools\": [\n {},\n {\"function\": {\"parameters\": {\n   \"properties\": {\"a\": {}}}}}]}";
        assert_eq!(
            site_in(&f, Some(text)),
            Site {
                file: "tools.json".into(),
                line: Some(4),
                column: Some(19)
            }
        );
        // JSON Lines: the line is the tool's, the column is within it.
        f.line = Some(2);
        f.location = "/parameters".into();
        let jsonl = "{\"name\":\"x\"}\n{\"name\":\"t\",\"parameters\":{\"properties\":{\"a\":{}}}}";
        assert_eq!(site_in(&f, Some(jsonl)).line, Some(2));
        assert_eq!(site_in(&f, Some(jsonl)).column, Some(41));
        assert_eq!(
            site_in(&f, None),
            Site {
                file: "tools.json".into(),
                line: Some(2),
                column: None
            }
        );
    }

    #[test]
    fn file_sites_read_each_file_once_and_survive_missing_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.json");
        std::fs::write(&path, "{\"properties\": {\n  \"a\": {}}}").unwrap();
        let mut f = finding("r", "t", "/properties/a");
        f.file = path.display().to_string().into();
        let mut missing = f.clone();
        missing.file = dir.path().join("nope.json").display().to_string().into();
        let sites = file_sites(&[f.clone(), missing.clone()]);
        assert_eq!(sites(&f).line, Some(2));
        assert_eq!(sites(&missing).line, None);
    }

    #[test]
    fn locate_finds_keys_elements_and_escaped_tokens() {
        let text = "{\n  \"tools\": [\n    {\"name\": \"a\"},\n    {\"name\": \"b\", \"p\": {\"a/b\": {\"x~\": 1}}}\n  ]\n}";
        assert_eq!(locate(text, ""), Some((1, 1)));
        assert_eq!(locate(text, "/tools"), Some((2, 3)));
        assert_eq!(locate(text, "/tools/1"), Some((4, 5)));
        assert_eq!(locate(text, "/tools/1/name"), Some((4, 6)));
        assert_eq!(locate(text, "/tools/1/p/a~1b/x~0"), Some((4, 33)));
        assert_eq!(locate(text, "/tools/2"), None);
        assert_eq!(locate(text, "/nope"), None);
        assert_eq!(locate("{\"a\": \"}\\\"]\", \"b\": 2}", "/b"), Some((1, 15)));
        assert_eq!(locate("not json", "/a"), None);
    }

    #[test]
    fn a_byte_order_mark_keeps_lines_and_columns() {
        // Readers skip a leading BOM (json::check_utf8); sites must too, on JSON and on the
        // first line of JSON Lines, and take it as no column.
        let bom = crate::json::BOM;
        let json = "{\"properties\": {\n  \"a\": {}}}";
        let mut f = finding("r", "t", "/properties/a");
        f.file = "bom.json".into();
        let plain = site_in(&f, Some(json));
        assert_eq!((plain.line, plain.column), (Some(2), Some(3)));
        assert_eq!(site_in(&f, Some(&format!("{bom}{json}"))), plain);
        assert_eq!(locate(&format!("{bom}{json}"), ""), Some((1, 1)));
        f.line = Some(1);
        f.location = "/parameters".into();
        let line = "{\"name\":\"t\",\"parameters\":{\"properties\":{\"a\":{}}}}";
        let jsonl = format!("{bom}{line}\n{line}");
        assert_eq!(site_in(&f, Some(&jsonl)).column, Some(41));
        f.line = Some(2);
        assert_eq!(site_in(&f, Some(&jsonl)).column, Some(41));
        // A BOM on a later line too (before: no column there).
        let each = format!("{bom}{line}\n{bom}{line}");
        assert_eq!(site_in(&f, Some(&each)).column, Some(41));
    }

    #[test]
    fn locate_agrees_with_serde_on_what_exists() {
        let text = r#"{"a":[1,{"b":[true,null,{"c":"d"}]}],"e":{}}"#;
        let v: Value = serde_json::from_str(text).unwrap();
        for p in ["/a/1/b/2/c", "/a/0", "/e", "/a/1/b/3", "/e/x", "/a/x"] {
            assert_eq!(locate(text, p).is_some(), v.pointer(p).is_some(), "{p}");
        }
    }

    /// Members of a wide object, asked in any order (and ones it lacks, and a key written
    /// twice), are found where a fresh search finds them: the search resumes after the
    /// members already passed instead of reading the object from its start each time.
    #[test]
    fn members_of_a_wide_object_are_found_in_any_order() {
        let members: Vec<String> = (0..60)
            .map(|i| format!("\"m{i}\": {{\"x\": [{i}]}}"))
            .collect();
        let text = format!(
            "{{\"o\": {{{}, \"m7\": 1, \"a~b/c\": 2}}, \"z\": 3}}",
            members.join(",\n ")
        );
        let mut pointers: Vec<String> = Vec::new();
        for i in [30, 0, 59, 31, 7, 58, 60, 1, 29, 45] {
            pointers.push(format!("/o/m{i}"));
            pointers.push(format!("/o/m{i}/x/0"));
        }
        pointers.extend([
            "/o/a~0b~1c".into(),
            "/o/nope".into(),
            "/z".into(),
            "/o/m3".into(),
        ]);
        let shared = Locator::new(text.clone());
        for p in &pointers {
            let fresh = Locator::new(text.clone()).locate(p);
            assert_eq!(shared.locate(p), fresh, "{p}");
        }
        assert_eq!(shared.locate("/o/m60"), None);
        assert_eq!(shared.locate("/o/m7"), locate(&text, "/o/m7"));
        // `m7` is written twice; its last copy (`"m7": 1`, after `m59`) is the one read.
        assert!(shared.locate("/o/m7").is_some_and(|(line, _)| line == 60));
    }

    /// A key written twice is located at its last copy, whose value serde_json keeps and every
    /// rule judged (before: the first, so a finding about the value read pointed at the other).
    #[test]
    fn a_key_written_twice_is_located_at_the_copy_read() {
        let text = "{\"a\": {\"type\": \"string\",\n  \"type\": \"integer\"}, \"b\": 1}";
        assert_eq!(locate(text, "/a/type"), Some((2, 3)));
        assert_eq!(locate(text, "/b"), Some((2, 23)));
        let shared = Locator::new(text.to_string());
        assert_eq!(shared.locate("/b"), Some((2, 23)));
        assert_eq!(shared.locate("/a/type"), Some((2, 3)));
    }

    /// What one [`Locator`] remembers between pointers (places passed, the last column) never
    /// changes an answer: every pointer, asked in any order, gets what a fresh search gives.
    #[test]
    fn a_locator_answers_as_fresh_searches_in_any_order() {
        let tools: Vec<serde_json::Value> = (0..40)
            .map(|i| serde_json::json!({"name": format!("t{i}"), "p": {"a/b": [i, {"é": "x"}], "c": null}}))
            .collect();
        let compact = serde_json::json!({"tools": tools}).to_string();
        let pretty = serde_json::to_string_pretty(&serde_json::json!({"tools": tools})).unwrap();
        let mut pointers: Vec<String> = Vec::new();
        for i in [0, 39, 5, 6, 38, 1, 20, 20, 40] {
            for rest in ["", "/name", "/p", "/p/a~1b/1/é", "/p/c", "/p/nope"] {
                pointers.push(format!("/tools/{i}{rest}"));
            }
        }
        pointers.extend(["".into(), "/tools".into(), "/nope".into()]);
        for text in [&compact, &pretty] {
            let shared = Locator::new(text.clone());
            for p in &pointers {
                let fresh = Locator::new(text.clone()).locate(p);
                assert_eq!(shared.locate(p), fresh, "{p}");
            }
        }
        // JSON Lines: each line is its own document; the same pointer on two lines differs.
        let lines = format!("{}\n{}\n", tools[0], tools[1]);
        let shared = Locator::new(lines.clone());
        for (line, p) in [(2, "/p/c"), (1, "/p/c"), (2, "/name"), (1, "/p/a~1b/1")] {
            let row = lines.lines().nth(line - 1).unwrap();
            let fresh = locate(row, p).map(|(_, c)| c);
            assert_eq!(shared.locate_in_line(line, p), fresh, "{line} {p}");
        }
    }

    #[test]
    fn columns_count_code_points_not_bytes() {
        // "é" is 2 bytes, "😀" 4 bytes (2 UTF-16 units); each is one code point.
        let text = r#"{"d": "é😀", "x": 1}"#;
        assert_eq!(locate(text, "/x"), Some((1, 13)));
        let sarif = to_value(&[finding("r", "t", "")], |_| Site::default(), |_| None);
        assert_eq!(sarif["runs"][0]["columnKind"], "unicodeCodePoints");
    }

    /// Every pointer to a value in `v`, escaped as RFC 6901 writes them.
    fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => m.iter().for_each(|(k, v)| {
                pointers(v, format!("{at}/{}", crate::json::escape_token(k)), out)
            }),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, v)| pointers(v, format!("{at}/{i}"), out)),
            _ => {}
        }
        out.push(at);
    }

    /// The column counting `Locator` did before checkpoints: onwards from the last offset
    /// when it is on the same line and not after `at`, else from the line start.
    fn column_as_before(text: &str, last: &mut (usize, usize), at: usize) -> (usize, usize) {
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = 1 + text[..at].matches('\n').count();
        let (from, col) = if last.0 >= line_start && last.0 <= at {
            *last
        } else {
            (line_start, 1)
        };
        let column = col
            + text.as_bytes()[from..at]
                .iter()
                .filter(|&&b| b & 0xC0 != 0x80)
                .count();
        *last = (at, column);
        (line, column)
    }

    #[test]
    fn columns_are_as_before_in_any_order() {
        // Long lines with multi-byte characters across checkpoints, CRLF, escaped and
        // pointer-escaped keys (`~1`, `~0`), a BOM, and the same tools pretty-printed.
        let long = "é😀ab\\\"".repeat(700);
        let tool = |i: usize| {
            format!(
                r#"{{"name": "t{i}", "description": "{long}", "parameters": {{"properties": {{"a/b": {{"format": "email"}}, "~c\u00e9\"": {{"type": "array", "x": "{}"}}, "é😀": [1, {{"y~/": 2}}]}}}}}}"#,
                "é".repeat(i * 300)
            )
        };
        let minified = format!("[{}]", (0..6).map(tool).collect::<Vec<_>>().join(","));
        let value: Value = serde_json::from_str(&minified).unwrap();
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        let texts = [
            minified.clone(),
            format!("{}{minified}", crate::json::BOM),
            pretty.clone(),
            pretty.replace('\n', "\r\n"),
            minified.replace(", ", ",\r\n  "),
        ];
        let mut all = Vec::new();
        pointers(&value, String::new(), &mut all);
        assert!(all.iter().any(|p| p.contains("~1")) && all.iter().any(|p| p.contains("~0")));
        let mut orders = vec![all.clone(), all.iter().rev().cloned().collect()];
        // Interleaved: back and forth across the file, as findings ordered by rule are.
        let (front, back) = all.split_at(all.len() / 2);
        orders.push(
            front
                .iter()
                .zip(back.iter().rev())
                .flat_map(|(a, b)| [b, a])
                .cloned()
                .collect(),
        );
        for text in &texts {
            let bare = text.strip_prefix(crate::json::BOM).unwrap_or(text);
            for order in &orders {
                let locator = Locator::new(text.clone());
                let mut last = (0, 1);
                for p in order {
                    let at = locator.find(0, bare.len(), "", p).unwrap();
                    assert_eq!(
                        locator.locate(p),
                        Some(column_as_before(bare, &mut last, at)),
                        "{p}"
                    );
                }
            }
        }
        // JSON Lines: columns within each line, in either order.
        let jsonl = format!("{}\r\n{}\n", tool(1), tool(2));
        let locator = Locator::new(jsonl.clone());
        let second = jsonl.find('\n').unwrap() + 1;
        let mut in_line = Vec::new();
        pointers(
            &serde_json::from_str(&tool(2)).unwrap(),
            String::new(),
            &mut in_line,
        );
        for p in in_line.iter().rev().chain(&in_line) {
            let at = locator.find(second, jsonl.len() - 1, "#2", p).unwrap();
            let mut last = (0, 1);
            assert_eq!(
                locator.locate_in_line(2, p),
                Some(column_as_before(&jsonl, &mut last, at).1)
            );
        }
    }

    #[test]
    fn counting_columns_is_linear_whatever_the_order() {
        // One line of 2,000 tools, located last to first: counting each column from the
        // line start (as before) looked at ~2,000 × half the line.
        let tools: Vec<String> = (0..2000)
            .map(|i| {
                format!(
                    r#"{{"name":"t{i}","description":"{}","x":1}}"#,
                    "d".repeat(200)
                )
            })
            .collect();
        let text = format!("[{}]", tools.join(","));
        let locator = Locator::new(text.clone());
        for i in (0..2000).rev() {
            assert!(locator.locate(&format!("/{i}/x")).is_some());
        }
        assert!(
            locator.counted.get() <= 2 * 2000 * CHECKPOINT,
            "{} bytes counted for a {}-byte line",
            locator.counted.get(),
            text.len()
        );
    }

    #[test]
    fn messages_lead_with_the_tool_only_when_it_has_a_name() {
        let text = |f: &Finding| {
            let v = to_value(std::slice::from_ref(f), |_| Site::default(), |_| None);
            v["runs"][0]["results"][0]["message"]["text"]
                .as_str()
                .unwrap()
                .to_string()
        };
        assert!(text(&finding("r", "t", "")).starts_with("t: array"));
        assert!(text(&finding("r", "", "")).starts_with("array"));
        let mut request = finding("r", "", "");
        request.request = true;
        assert!(text(&request).starts_with("request: array"));
        // A control character or bidi override from the input is escaped in the message
        // (and kept as it is in the machine-read properties).
        let tricky = finding("r", "t\u{7}\u{202e}x", "");
        assert!(
            text(&tricky).starts_with("t\\u{7}\\u{202e}x: array"),
            "{}",
            text(&tricky)
        );
        let v = to_value(&[tricky], |_| Site::default(), |_| None);
        assert_eq!(
            v["runs"][0]["results"][0]["properties"]["tool"],
            "t\u{7}\u{202e}x"
        );
    }

    /// Standard input has no URI: `-` was written as one, a relative reference to a file
    /// named `-`.
    #[test]
    fn standard_input_is_described_not_given_a_uri() {
        let fs = [finding("array-items-missing", "search", "/properties/tags")];
        let stdin = |_: &Finding| Site {
            file: crate::report::STDIN.into(),
            ..Site::default()
        };
        let v = to_value(&fs, stdin, |_| None);
        assert_eq!(
            v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"],
            json!({"description": {"text": "standard input"}})
        );
    }

    /// A file that could not be read left no trace in the log, which then read as a complete
    /// run: now the invocation fails, with a notification at the file, line and column.
    #[test]
    fn unread_files_fail_the_invocation_with_a_notification_each() {
        let fs = [finding("array-items-missing", "search", "/properties/tags")];
        let e = |file: &str, place| crate::error::Error::input(file, place, "EOF while parsing");
        let at = crate::error::Place::LineColumn { line: 3, column: 7 };
        let unread = [
            crate::report::Unreadable::new(std::path::Path::new("a b.json"), 0, &e("a b.json", at))
                .unwrap(),
            crate::report::Unreadable::new(
                std::path::Path::new("-"),
                1,
                &e("-", crate::error::Place::File),
            )
            .unwrap(),
        ];
        let mut out = Vec::new();
        write(
            &mut out,
            &fs,
            &unread,
            &[],
            &[],
            |_| Site::default(),
            |_| None,
        )
        .unwrap();
        let v: Value = serde_json::from_slice(&out).unwrap();
        let invocation = &v["runs"][0]["invocations"][0];
        assert_eq!(invocation["executionSuccessful"], false, "{invocation:#}");
        let notes = invocation["toolExecutionNotifications"].as_array().unwrap();
        assert_eq!(
            notes[0],
            json!({
                "level": "error",
                "message": {"text": "a b.json: line 3, column 7: EOF while parsing"},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": "a%20b.json"},
                    "region": {"startLine": 3, "startColumn": 7},
                }}],
            })
        );
        // Standard input, with no line: described, and no region.
        assert_eq!(
            notes[1]["locations"][0]["physicalLocation"],
            json!({"artifactLocation": {"description": {"text": "standard input"}}})
        );
        assert_eq!(
            notes[1]["message"]["text"],
            "standard input: (whole file): EOF while parsing"
        );
        // The findings of the files read are still there.
        assert_eq!(v["runs"][0]["results"].as_array().unwrap().len(), 1);
        // Every file read: the same field, true, and no notifications.
        let clean = to_value(&fs, |_| Site::default(), |_| None);
        assert_eq!(
            clean["runs"][0]["invocations"],
            json!([{"executionSuccessful": true}])
        );
    }

    #[test]
    fn sarif_has_rules_results_and_locations() {
        let mut warn = finding("keyword-unsupported", "search", "/properties/q/const");
        warn.level = Level::Warning;
        let fs = [
            finding("array-items-missing", "search", "/properties/tags"),
            warn,
            finding("array-items-missing", "list", "/properties/ids"),
        ];
        let v = to_value(
            &fs,
            |f| Site {
                file: "my tools.json".into(),
                line: (f.tool == "search").then_some(7),
                column: Some(3),
            },
            |id| {
                (id == "array-items-missing").then(|| RuleHelp {
                    short: "Array schema without items.".into(),
                    full: "Array schema without items. Some targets reject it.".into(),
                    text: "array-items-missing\n\nFix:\n  Add items.\n".into(),
                    markdown: "**array-items-missing**\n\n**Fix:** Add items.\n".into(),
                })
            },
        );
        assert_eq!(v["version"], "2.1.0");
        let run = &v["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        assert_eq!(rules.len(), 2);
        assert_eq!(
            rules[0]["shortDescription"]["text"],
            "Array schema without items."
        );
        assert_eq!(
            rules[0]["fullDescription"]["text"],
            "Array schema without items. Some targets reject it."
        );
        assert_eq!(
            rules[0]["help"]["text"],
            "array-items-missing\n\nFix:\n  Add items.\n"
        );
        assert_eq!(
            rules[0]["help"]["markdown"],
            "**array-items-missing**\n\n**Fix:** Add items.\n"
        );
        // No URL is invented for a rule's page.
        assert!(rules[0].get("helpUri").is_none());
        for absent in ["shortDescription", "fullDescription", "help"] {
            assert!(rules[1].get(absent).is_none(), "{absent}");
        }
        let r = &run["results"];
        assert_eq!(r.as_array().unwrap().len(), 3);
        assert_eq!(r[2]["ruleIndex"], 0);
        assert_eq!(r[1]["ruleIndex"], 1);
        assert_eq!(r[1]["level"], "warning");
        assert_eq!(r[0]["level"], "error");
        let loc = &r[0]["locations"][0];
        assert_eq!(
            loc["physicalLocation"]["artifactLocation"]["uri"],
            "my%20tools.json"
        );
        assert_eq!(loc["physicalLocation"]["region"]["startLine"], 7);
        // No line known: no region (it was stated as line 1).
        assert!(
            r[2]["locations"][0]["physicalLocation"]
                .get("region")
                .is_none()
        );
        assert_eq!(
            loc["logicalLocations"][0]["fullyQualifiedName"],
            "search#/properties/tags"
        );
        assert_eq!(
            r[0]["message"]["text"],
            "search: array without `items`. Fix: Add `items`."
        );
    }

    /// An artifact URI is a relative reference whose path decodes back to the file name:
    /// `#` would start a fragment, `?` a query, `:` in a first segment a scheme.
    #[test]
    fn artifact_uris_percent_encode_everything_a_path_segment_cannot_hold() {
        for (file, want) in [
            ("a#b:c.json", "a%23b%3Ac.json"),
            ("dir/my tools.json", "dir/my%20tools.json"),
            ("100%?.json", "100%25%3F.json"),
            (
                "x[1]@y!$&'()*+,;=.json",
                "x%5B1%5D%40y%21%24%26%27%28%29%2A%2B%2C%3B%3D.json",
            ),
            ("outils/\u{e9}t\u{e9}.json", "outils/%C3%A9t%C3%A9.json"),
            ("a-b_c~d.json", "a-b_c~d.json"),
        ] {
            let u = uri(file);
            assert_eq!(u, want);
            assert!(
                u.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._~/%".contains(&b)),
                "{u}"
            );
            let back = percent_encoding::percent_decode_str(&u)
                .decode_utf8()
                .unwrap();
            assert_eq!(back, file);
        }
        // Windows separators become `/`.
        assert_eq!(uri("tools\\a.json"), "tools/a.json");
        // An absolute path is a `file` URI (RFC 8089); a drive's colon is kept there only.
        assert_eq!(uri("/tmp/my tools.json"), "file:///tmp/my%20tools.json");
        let drive = uri("C:\\t\\a:b.json");
        if cfg!(windows) {
            assert_eq!(drive, "file:///C:/t/a%3Ab.json");
        } else {
            assert_eq!(drive, "C%3A/t/a%3Ab.json");
        }
        assert_eq!(uri("//host/share/t.json"), "file:////host/share/t.json");
    }

    /// A finding about the request is about its tool list: no tool, no tool number, the
    /// list's pointer as its logical place.
    #[test]
    fn request_findings_are_about_the_tool_list_not_a_tool() {
        let mut request = finding("too-many-tools", "", "");
        request.request = true;
        request.tool_index = 3;
        request.location = "/tools".into();
        let v = to_value(&[request], |_| Site::default(), |_| None);
        let result = &v["runs"][0]["results"][0];
        let logical = &result["locations"][0]["logicalLocations"][0];
        assert_eq!(logical["fullyQualifiedName"], "/tools");
        assert_eq!(logical["kind"], "array");
        assert_eq!(result["properties"]["request"], true);
        assert!(result["properties"].get("toolIndex").is_none());
        assert!(result["properties"].get("tool").is_none());
    }

    #[test]
    fn sarif_validates_against_its_own_required_fields() {
        // The parts of the SARIF 2.1.0 schema a consumer needs: version, runs[].tool.driver.name,
        // results[].message.text, and region lines >= 1.
        let v = to_value(&[finding("r", "t", "")], |_| Site::default(), |_| None);
        let schema = serde_json::json!({
            "type":"object","required":["version","runs"],
            "properties":{"version":{"const":"2.1.0"},"runs":{"type":"array","items":{
                "type":"object","required":["tool"],
                "properties":{"tool":{"type":"object","required":["driver"],"properties":{
                    "driver":{"type":"object","required":["name"]}}},
                "results":{"type":"array","items":{"type":"object","required":["message"],
                    "properties":{"message":{"type":"object","required":["text"]},
                    "locations":{"type":"array","items":{"properties":{"physicalLocation":{
                        "properties":{"region":{"properties":{"startLine":{"type":"integer","minimum":1}}}}}}}}}}}}}}}
        });
        let validator = jsonschema::validator_for(&schema).unwrap();
        assert!(validator.is_valid(&v), "{v:#}");
    }
}
