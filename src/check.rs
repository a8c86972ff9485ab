//! `toolwire check`: findings for a tool set against a profile or a target.
//!
//! Rule *logic* is in [`crate::profile::rules`]; which features are allowed comes from a
//! profile derived from the evidence ([`crate::profile`]). A finding is an `error` when a
//! target of the profile has rejecting evidence for the feature, a `warning` when no target
//! rejects it but some target has no evidence (no evidence counts as not
//! accepted).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::input::{ToolEntry, ToolSet};
use crate::profile::CompiledProfile;
use crate::profile::detect;
/// A tool as [`check_tools`] reads it (re-exported from [`crate::profile::detect`]).
pub use crate::profile::detect::ToolRef;
pub use crate::profile::findings::Findings;
use crate::profile::findings::{Rendered, UNVERIFIED_FIX};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// No target of the profile rejects it, but at least one has no evidence that it accepts it.
    Warning,
    /// A target of the profile has rejecting evidence.
    Error,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

/// Text carried by findings: static (rule ids, fixes) or shared (a tool's name, a file's name,
/// a profile's parameter strings), so that the thousands of findings of a corpus do not each
/// copy the same strings. Reads as a `str` (`Deref`, `as_str`, comparisons with `str`,
/// `&str` and `String`); serializes as a JSON string.
#[derive(Clone)]
pub enum Text {
    Static(&'static str),
    Shared(std::sync::Arc<str>),
}

impl Text {
    pub fn as_str(&self) -> &str {
        match self {
            Text::Static(s) => s,
            Text::Shared(s) => s,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.as_str().is_empty()
    }
}

impl Default for Text {
    fn default() -> Self {
        Text::Static("")
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&'static str> for Text {
    fn from(s: &'static str) -> Self {
        Text::Static(s)
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text::Shared(s.into())
    }
}

impl From<Text> for String {
    fn from(t: Text) -> Self {
        t.as_str().to_string()
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `pad` honours width and alignment, as `str` does.
        f.pad(self.as_str())
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Text::from)
    }
}

/// What a finding is about: a place in the tool's parameters schema, or a part of the tool
/// itself. It decides where the finding is located in the file ([`Finding::location`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Subject {
    /// A place in the parameters schema (`Finding::pointer`).
    #[default]
    Schema,
    /// The tool's name (`name-invalid`, `name-too-long`, `name-duplicate`).
    Name,
    /// The tool's description (`description-missing`, `description-too-long`,
    /// `description-content`).
    Description,
    /// The tool as a whole (`parameters-missing`), or the request (`too-many-tools`).
    Tool,
}

/// One finding: a rule that fires at one place in one tool.
///
/// `pointer` is an RFC 6901 JSON Pointer into the tool's parameters schema (`""` is the
/// schema root); findings about the tool itself (name, description, count) use `""` and say
/// so in `message`, and their [`Finding::subject`] says which part of the tool they are
/// about. Text that many findings share (rule id, tool name, fix, parameter, file, location)
/// is a [`Text`], made once and shared.
///
/// Serialized (`check --format json`) with every field below except `subject`, `location`
/// written as [`Finding::place`] (the finding's own place in the file; read back, it is that
/// place); a
/// request-level finding (`"request": true`) is about no tool, so it has no `tool` and no
/// `tool_index`, and its `location` is the tool list's.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Finding {
    /// The rule id, kebab-case (e.g. `array-items-missing`).
    pub rule: Text,
    /// The tool's name as given.
    #[serde(default)]
    pub tool: Text,
    /// The tool's position in the input (0-based); for a request-level finding, the position
    /// of the request's first tool (which gives its JSON Lines line; not serialized).
    #[serde(default)]
    pub tool_index: usize,
    /// True when the finding is about the request as a whole (e.g. `too-many-tools`), not
    /// about one tool; `tool` is then empty.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub request: bool,
    /// JSON Pointer into the tool's parameters schema.
    pub pointer: String,
    /// What is wrong, in one sentence (shared between findings that say the same).
    pub message: Text,
    /// How to fix it.
    pub fix: Text,
    /// Whether a repair exists for this feature that does not change which arguments are
    /// accepted. `toolwire repair` applies it only to errors (a target rejects the feature);
    /// a warning (no evidence either way) is left as written. (One exception: a standard type
    /// written in another case is repaired at any level; see [`crate::repair`].) Every output
    /// (human, JSON, SARIF, GitHub, HTML) says [`Finding::marked_repairable`] instead: whether
    /// `repair` changes it.
    pub repairable: bool,
    /// `error` (a target rejects it) or `warning` (no evidence either way for some target).
    #[serde(default = "default_level")]
    pub level: Level,
    /// The profile feature (case parameter) behind the finding, e.g. `keyword-allowed: const`.
    #[serde(default)]
    pub parameter: Text,
    /// The file the tool was read from (empty when checked from memory).
    #[serde(default, skip_serializing_if = "Text::is_empty")]
    pub file: Text,
    /// 1-based line of the tool in a JSON Lines file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// RFC 6901 JSON Pointer within the file (or the JSON Lines line), so that
    /// `location + pointer` points at the finding: the tool's parameters schema for a finding
    /// in it; for one about the tool ([`Finding::subject`]) its `name` key, its `description`
    /// key (the tool object when it has none), or the tool object; for a request-level
    /// finding the request's tool list (`/tools`; see
    /// [`crate::input::ToolEntry::list_pointer`]). A bare schema, which has no envelope, gives
    /// its own place for every finding. `""` is the document root (a flat tool, a bare schema),
    /// and is written out as `""`, never left out. Empty too when checked from memory
    /// ([`check_tools`]), where there is no file.
    #[serde(default)]
    pub location: Text,
    /// What the finding is about (not serialized: `location` carries where it is).
    #[serde(skip)]
    pub subject: Subject,
    /// The evidence that decides a rejection: per rejecting target, its case and the newest
    /// and earliest evidence (kind, date, and URL or run id), as the profile's detail cites it
    /// (`rejected_by` in reports/profile.json). Shared with the profile; `None` for a finding
    /// no cited evidence decides (a warning, a rule that is no case's).
    #[serde(default, deserialize_with = "evidence_from")]
    pub evidence: Option<Arc<[crate::profile::TargetEvidence]>>,
}

/// Reads [`Finding::evidence`] back from the list it is written as.
fn evidence_from<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Arc<[crate::profile::TargetEvidence]>>, D::Error> {
    Ok(Option::<Vec<crate::profile::TargetEvidence>>::deserialize(d)?.map(Into::into))
}

fn default_level() -> Level {
    Level::Error
}

impl Finding {
    /// Whether output marks the finding repairable: whether `toolwire repair` changes it. An
    /// error with a repair, or a type written in another case; not another warning, whose
    /// feature repair leaves as written (see [`Finding::repairable`]).
    pub fn marked_repairable(&self) -> bool {
        self.repairable && (self.level == Level::Error || crate::repair::is_type_case_variant(self))
    }
}

impl Finding {
    /// The RFC 6901 JSON Pointer into the file (or the JSON Lines line) of the finding's own
    /// place: [`Finding::location`] followed by [`Finding::pointer`] (empty for a finding
    /// about the tool or the request). `check --format json` writes it as `location`.
    pub fn place(&self) -> String {
        format!("{}{}", self.location.as_str(), self.pointer)
    }
}

impl Serialize for Finding {
    /// The fields in declaration order; `tool` and `tool_index` only for a finding about a tool
    /// (see [`Finding`]), `request` only when true, `file` and `line` only when known, `evidence`
    /// only when some evidence decides it.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("rule", &self.rule)?;
        if self.request {
            m.serialize_entry("request", &true)?;
        } else {
            m.serialize_entry("tool", &self.tool)?;
            m.serialize_entry("tool_index", &self.tool_index)?;
        }
        m.serialize_entry("pointer", &self.pointer)?;
        m.serialize_entry("message", &self.message)?;
        m.serialize_entry("fix", &self.fix)?;
        m.serialize_entry("repairable", &self.marked_repairable())?;
        m.serialize_entry("level", &self.level)?;
        m.serialize_entry("parameter", &self.parameter)?;
        if !self.file.is_empty() {
            m.serialize_entry("file", &self.file)?;
        }
        if let Some(line) = self.line {
            m.serialize_entry("line", &line)?;
        }
        // Written as the finding's own place in the file, which is what a reader of the
        // JSON wants to jump to; kept apart in memory so that findings share one text per
        // schema.
        m.serialize_entry("location", &self.place())?;
        if let Some(evidence) = self.evidence.as_deref().filter(|e| !e.is_empty()) {
            m.serialize_entry("evidence", evidence)?;
        }
        m.end()
    }
}

/// Checks every request of a tool set. Findings are in input order (tool, then place), with
/// the file, line and schema location filled in.
pub fn check_set(set: &ToolSet, profile: &CompiledProfile) -> Vec<Finding> {
    render_set(set, profile, &check_set_findings(set, profile))
}

/// [`check_set`] without rendering: the findings as the check records them (see
/// [`Findings`]); [`render_set`] makes them [`Finding`]s.
pub fn check_set_findings(set: &ToolSet, profile: &CompiledProfile) -> Findings {
    // Growing a large buffer step by step makes the allocator consolidate its free lists over
    // and over (it showed in profiles); start near the usual size.
    let mut out = Findings::with_capacity(set.tools.len() * 4);
    check_set_into(set, profile, &mut out);
    out
}

/// [`check_set_findings`] into a buffer the caller keeps (cleared first), so that checking
/// many sets reuses its memory instead of touching fresh pages for each.
pub fn check_set_into(set: &ToolSet, profile: &CompiledProfile, out: &mut Findings) {
    out.clear();
    let mut checker = detect::Checker::new(profile, out);
    let mut refs: Vec<ToolRef<'_>> = Vec::new();
    for request in set.requests() {
        refs.clear();
        refs.extend(request.iter().map(|e| e.as_ref()));
        checker.request(&refs, set.builtins_of(request[0].request));
    }
}

/// The findings [`check_set_findings`] made for `set` against `profile`, rendered, with file,
/// line and schema location filled in.
pub fn render_set(set: &ToolSet, profile: &CompiledProfile, findings: &Findings) -> Vec<Finding> {
    let mut out = findings.render(profile);
    let file = Text::from(set.file.display().to_string());
    // A request-level finding has its first tool's number.
    Places::default().fill(&file, &set.tools, &mut out);
    out
}

/// Fills in file, line and location of findings, making each tool's location text once.
#[derive(Default)]
struct Places {
    last: Option<(usize, Text)>,
    /// Where a tool-level finding's location is written before it becomes a [`Text`].
    buf: String,
}

impl Places {
    /// `request` are the tools the findings are about.
    fn fill(&mut self, file: &Text, request: &[ToolEntry], findings: &mut [Finding]) {
        for f in findings {
            f.file = file.clone();
            // Numbers skip built-in tools (see `input::is_builtin`), so look the number up.
            let Some(t) = request
                .binary_search_by_key(&f.tool_index, |t| t.index)
                .ok()
                .map(|i| &request[i])
            else {
                continue;
            };
            f.line = t.line;
            if f.request {
                // About the request: its tool list, not the first tool's schema.
                f.location = Text::from(t.list_pointer().to_string());
                continue;
            }
            // A bare schema has no envelope: everything about it is located at the schema.
            let about_tool = match f.subject {
                Subject::Schema => None,
                Subject::Name => t.name_place(),
                Subject::Description => t.description_place(),
                Subject::Tool => t.tool_pointer.as_deref().map(|p| (p, "")),
            };
            f.location = match about_tool {
                Some((tool, key)) => {
                    // One allocation (the shared text), not a `String` and then its copy.
                    self.buf.clear();
                    self.buf.push_str(tool);
                    self.buf.push_str(key);
                    Text::Shared(std::sync::Arc::from(self.buf.as_str()))
                }
                None => self.schema_location(t),
            };
        }
    }

    /// The location text of `t`'s parameters schema, made once per tool: most findings of a
    /// tool are in its schema, and consecutive.
    fn schema_location(&mut self, t: &ToolEntry) -> Text {
        match &self.last {
            Some((i, text)) if *i == t.index => text.clone(),
            _ => {
                let text = Text::Shared(std::sync::Arc::from(t.schema_pointer.as_str()));
                self.last = Some((t.index, text.clone()));
                text
            }
        }
    }
}

/// Checks a file from its bytes, request by request (a JSON Lines corpus is never held in
/// memory whole). Returns the file's summary and its findings, with file, line and location
/// filled in. Errors are bad input ([`crate::error::Error::Input`]), among them a file with no
/// tool at all ([`crate::input::no_tools`]) and a JSON Lines file with a line that is not
/// JSON or no known shape (the first such line's error; [`check_bytes_with`] checks the
/// other lines).
pub fn check_bytes(
    file: &std::path::Path,
    bytes: &[u8],
    profile: &CompiledProfile,
) -> crate::Result<(FileSummary, Vec<Finding>)> {
    let mut first = None;
    let checked = check_bytes_with(file, bytes, profile, &mut |e| {
        first.get_or_insert(e);
    })?;
    match first {
        Some(e) => Err(e),
        None => Ok(checked),
    }
}

/// [`check_bytes`], except that the lines of a JSON Lines file that cannot be read go to
/// `bad_line` (see [`crate::input::for_each_request`]) while the other lines are checked:
/// `check` reports them as bad input beside the others' findings, which one bad line must
/// not hide. The summary and findings are those of the lines read.
pub fn check_bytes_with(
    file: &std::path::Path,
    bytes: &[u8],
    profile: &CompiledProfile,
    bad_line: &mut dyn FnMut(crate::Error),
) -> crate::Result<(FileSummary, Vec<Finding>)> {
    let name = file.display().to_string();
    let text = Text::from(name.clone());
    let mut findings = Vec::new();
    let mut flagged = 0usize;
    let mut erred = 0usize;
    let mut strict = 0usize;
    let mut strict_tool_use = 0usize;
    let mut gemini_fields = GeminiFields::default();
    let mut unformed = 0usize;
    let mut places = Places::default();
    let mut indexes: Vec<usize> = Vec::new();
    // The findings' texts are kept from request to request (only the records go), so that
    // repeated findings share their texts across the file; up to a bound on their size.
    let mut made = Findings::default();
    let mut rendered = Rendered::default();
    let mut buffers = detect::Buffers::default();
    // The requests that hold built-in tools, for [`builtin_notes`] once the format (JSON
    // Lines or not) is known: (request, function tools, built-ins).
    let mut with_builtins: Vec<(usize, usize, Vec<crate::input::BuiltinTool>)> = Vec::new();
    // The memory of each batch's tool references, handed to the next batch (a JSON Lines
    // corpus has a batch per line: an allocation each).
    let mut spare_refs: Vec<ToolRef<'static>> = Vec::new();
    let read = crate::input::for_each_request(
        file,
        bytes,
        &mut |batch, named| {
            for b in named.chunk_by(|a, b| a.request == b.request) {
                let request = b[0].request;
                let functions = batch.iter().filter(|t| t.request == request).count();
                with_builtins.push((request, functions, b.to_vec()));
            }
            if made.text_len() > SHARED_TEXT_CAP {
                made.clear();
                rendered = Rendered::default();
            } else {
                made.forget_records();
            }
            // One checker per batch (a JSON Lines line, or the whole document), in the
            // memory of the last one.
            let mut checker =
                detect::Checker::reusing(profile, &mut made, std::mem::take(&mut buffers));
            let mut refs = emptied(std::mem::take(&mut spare_refs));
            strict += batch.iter().filter(|t| t.strict == Some(true)).count();
            strict_tool_use += batch.iter().filter(|t| t.strict_tool_use.is_some()).count();
            gemini_fields.count(batch);
            unformed += unformed_tools(&profile.name, batch);
            for request in batch.chunk_by(|a, b| a.request == b.request) {
                refs.clear();
                refs.extend(request.iter().map(|e| e.as_ref()));
                let from = checker.findings().len();
                checker.request(&refs, crate::input::builtins_of(named, request[0].request));
                let start = findings.len();
                checker
                    .findings()
                    .render_from(from, profile, &mut findings, &mut rendered);
                let new = &mut findings[start..];
                places.fill(&text, request, new);
                flagged += distinct_tools(new, |_| true, &mut indexes);
                erred += distinct_tools(new, |f| f.level == Level::Error, &mut indexes);
            }
            buffers = checker.into_buffers();
            spare_refs = emptied(refs);
        },
        bad_line,
    )?;
    judged_as_read(&mut findings, &read.inexact_numbers);
    let tools = read.tools;
    let summary = FileSummary {
        file: name,
        format: crate::input::format_label(read.format, &read.line_formats),
        tools,
        clean: tools - flagged,
        request_findings: findings.iter().filter(|f| f.request).count(),
        without_errors: tools - erred,
        detected: Some(read.format),
        strict,
        strict_tool_use,
        gemini_fields,
        unformed,
        unreadable_lines: read.unreadable_lines,
        empty_lines: read.empty_lines,
        duplicate_keys: read.duplicate_keys,
        inexact_numbers: read.inexact_numbers,
        notes: Vec::new(),
        unsent: 0,
    };
    let mut summary = summary;
    let jsonl = read.format == crate::input::Format::JsonLines;
    for (request, functions, builtins) in &with_builtins {
        let line = jsonl.then_some(*request);
        if builtin_notes(
            &profile.targets,
            line,
            *functions,
            builtins,
            &mut summary.notes,
        ) {
            summary.unsent += 1;
        }
    }
    Ok((summary, findings))
}

/// Adds to `notes` what `targets` do with the built-in tools of one request (JSON Lines
/// `line`, if any) that holds `functions` function tools: each built-in a target does not take
/// ([`crate::target::fit_builtin`], the decision `compile` makes) is one it leaves out, said so
/// here that check and compile tell one story. True when some target takes no tool of the
/// request at all: nothing would be sent (compile exits 1), which is said too.
pub fn builtin_notes(
    targets: &[String],
    line: Option<usize>,
    functions: usize,
    builtins: &[crate::input::BuiltinTool],
    notes: &mut Vec<ReadingNote>,
) -> bool {
    not_taken_notes(targets, line, builtins, notes);
    unsent_notes(
        targets,
        line,
        |target| functions > 0 || builtins.iter().any(|b| takes(target, b)),
        notes,
    )
}

/// Whether `target` takes built-in tool `b` (as written or converted), as `compile` decides.
pub fn takes(target: &str, b: &crate::input::BuiltinTool) -> bool {
    use crate::target::BuiltinFit;
    matches!(
        crate::target::fit_builtin(target, &b.value),
        BuiltinFit::AsWritten | BuiltinFit::Converted { .. }
    )
}

/// The notes of [`builtin_notes`] on each of `builtins` that a target of `targets` leaves
/// out.
pub fn not_taken_notes(
    targets: &[String],
    line: Option<usize>,
    builtins: &[crate::input::BuiltinTool],
    notes: &mut Vec<ReadingNote>,
) {
    use crate::target::BuiltinFit;
    let at = line.map_or(String::new(), |l| format!("line {l}: "));
    let mut note = |text: String| {
        notes.push(ReadingNote {
            line,
            lines: Vec::new(),
            pointer: None,
            text: crate::report::escape_inline(&text).into_owned(),
            fails: false,
        })
    };
    for b in builtins {
        let what = match &b.name {
            Some(name) => format!("built-in tool `{name}` (type {})", b.kind),
            None => format!("built-in tool of type {}", b.kind),
        };
        // One note per built-in for the targets that do not take its kind (under a profile of
        // five targets, one line rather than five); each has its own reason it cannot be placed.
        let mut not_taken: Vec<&str> = Vec::new();
        for target in targets {
            match crate::target::fit_builtin(target, &b.value) {
                BuiltinFit::NotTaken => not_taken.push(target),
                BuiltinFit::Unplaceable(why) => note(format!(
                    "{at}{what} cannot be sent to {target}: {why}: `compile --target {target}` \
                     leaves it out"
                )),
                _ => {}
            }
        }
        match not_taken.as_slice() {
            [] => {}
            [target] => note(format!(
                "{at}{what} is not one {target} takes: `compile --target {target}` leaves it out"
            )),
            [first @ .., last] => note(format!(
                "{at}{what} is not one {} or {last} takes: `compile --target` leaves it out for \
                 each of them",
                first.join(", ")
            )),
        }
    }
}

/// The failing note of [`builtin_notes`] for each target of `targets` to which a request
/// (JSON Lines `line`, if any) `sends` no tool at all; true when there is one.
pub fn unsent_notes(
    targets: &[String],
    line: Option<usize>,
    sends: impl Fn(&str) -> bool,
    notes: &mut Vec<ReadingNote>,
) -> bool {
    let at = line.map_or(String::new(), |l| format!("line {l}: "));
    let mut unsent = false;
    for target in targets.iter().filter(|t| !sends(t)) {
        unsent = true;
        notes.push(ReadingNote {
            line,
            lines: Vec::new(),
            pointer: None,
            text: format!(
                "{at}the request holds no tool {target} takes: nothing would be sent, and `compile \
                 --target {target}` exits 1"
            ),
            fails: true,
        });
    }
    unsent
}

/// How many of `tools` have a schema not yet in the strict form of `target`'s wire format
/// ([`crate::compile::wire::is_in`], compile's own test); 0 for a target without one. A tool
/// that itself asks for strict mode is not counted: `strict-form-missing` judges it, as sent.
fn unformed_tools(target: &str, tools: &[crate::input::ToolEntry]) -> usize {
    use crate::compile::wire::{Form, is_in};
    let form = Form::of(target);
    if form == Form::Plain {
        return 0;
    }
    tools
        .iter()
        .filter(|t| t.strict != Some(true))
        .filter(|t| t.parameters.as_ref().is_some_and(|p| !is_in(form, p)))
        .count()
}

/// Says in `findings` (of one file) that they judge its `inexact` numbers as read: a finding
/// at such a number names it as written (`multipleOf: 1e-400` is judged as 0.0), and no
/// finding of a document (or JSON Lines line) that holds one is repairable, since `repair`
/// refuses to write that document changed and `compile` a schema holding it
/// ([`crate::json::refuse_inexact`]): check, repair and compile tell one story.
fn judged_as_read(findings: &mut [Finding], inexact: &[crate::json::InexactNumberAt]) {
    if inexact.is_empty() {
        return;
    }
    for f in findings {
        let mut here = inexact.iter().filter(|n| n.line == f.line).peekable();
        if here.peek().is_none() {
            continue;
        }
        f.repairable = false;
        let at = f.place();
        if let Some(n) = here.find(|n| n.pointer == at) {
            f.message = Text::from(format!(
                "the number written `{}` is read as {}, and judged so: {}",
                crate::json::shown_number(&n.written),
                n.read_as,
                f.message.as_str()
            ));
        }
    }
}

/// `refs` emptied, in the same memory, for references of another lifetime: the standard
/// library collects a vector mapped into items of the same size and alignment in place, and
/// an empty one maps no item.
fn emptied<'b>(mut refs: Vec<ToolRef<'_>>) -> Vec<ToolRef<'b>> {
    refs.clear();
    refs.into_iter()
        .map(|_| unreachable!("an emptied vector has no item"))
        .collect()
}

/// Bytes of findings' text [`check_bytes`] keeps for sharing before it starts afresh.
const SHARED_TEXT_CAP: usize = 1 << 22;

/// How many distinct tools `findings` that pass `keep` are about (request-level findings are
/// about no tool). `scratch` is a reused buffer.
fn distinct_tools(
    findings: &[Finding],
    keep: impl Fn(&Finding) -> bool,
    scratch: &mut Vec<usize>,
) -> usize {
    scratch.clear();
    scratch.extend(
        findings
            .iter()
            .filter(|f| !f.request && keep(f))
            .map(|f| f.tool_index),
    );
    scratch.sort_unstable();
    scratch.dedup();
    scratch.len()
}

/// The result of checking some files against one profile. Serialized as `check --format
/// json` writes it ([`Report::write_json`]): a library user's `serde_json::to_string(&report)`
/// gets the CLI's shape, `counts`, `hidden_warnings` and `unsent_requests` included.
#[derive(Debug, Clone)]
pub struct Report {
    /// The profile's name (`portable`, or a target id).
    pub profile: String,
    pub targets: Vec<String>,
    pub files: Vec<FileSummary>,
    pub findings: Vec<Finding>,
    /// True after [`Report::errors_only`]: warnings are left out and `clean` counts tools
    /// without errors.
    pub errors_only: bool,
    /// How many warnings [`Report::errors_only`] left out: the summary counts them, since a
    /// target with little evidence yet has mostly warnings, and "0 errors" alone reads as a
    /// clean bill.
    pub warnings_hidden: usize,
    /// Rule ids whose findings were left out ([`Report::ignore`]), in the order given.
    pub ignored: Vec<String>,
}

impl Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.out(&self.files).serialize(s)
    }
}

/// A [`Report`] as output: every field, `ignored` too when empty. `hidden_warnings` and
/// `unsent_requests` are always present (0 when there is none), so that a program reads from
/// the top level what the summary line says: how many warnings `--errors-only` left out, and
/// how many requests would send nothing (the reason for exit 1 beside an empty `findings`).
/// `files` is the files read, or those with the ones that could not be
/// ([`crate::report::json`]).
#[derive(Serialize)]
struct ReportOut<'a, F> {
    profile: &'a str,
    targets: &'a [String],
    errors_only: bool,
    hidden_warnings: usize,
    unsent_requests: usize,
    ignored: &'a [String],
    files: F,
    counts: BTreeMap<&'a str, usize>,
    findings: &'a [Finding],
}

/// One file of a [`Report`].
#[derive(Debug, Clone, Default, Serialize)]
pub struct FileSummary {
    pub file: String,
    /// The input format detected (see [`crate::input::Format`]).
    pub format: String,
    pub tools: usize,
    /// Tools with no finding of their own (with no error finding after
    /// [`Report::errors_only`]). A request-level finding (`too-many-tools`) is about no tool,
    /// so it leaves every tool clean: see [`FileSummary::request_findings`].
    pub clean: usize,
    /// Findings about one of the file's requests as a whole (`too-many-tools`), which `clean`
    /// does not count: the file's requests are fine only when `clean` equals `tools` and this
    /// is 0 (3000 MCP tools read `clean: 3000` beside a too-many-tools error).
    pub request_findings: usize,
    /// Tools with no error finding (only warnings, or none).
    #[serde(skip)]
    pub without_errors: usize,
    /// The detected format (`jsonl` for JSON Lines; `format` names the lines' formats).
    #[serde(skip)]
    pub detected: Option<crate::input::Format>,
    /// Tools that say OpenAI's `strict: true` (see [`crate::input::ToolEntry::strict`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub strict: usize,
    /// Tools that say a provider's own `strict: true` (Anthropic's, Bedrock Converse's: strict
    /// tool use, see [`crate::input::ToolEntry::strict_tool_use`]), whose subset check does
    /// not judge.
    #[serde(skip_serializing_if = "is_zero")]
    pub strict_tool_use: usize,
    /// Gemini declarations whose schema is sent as `parameters` and as
    /// `parametersJsonSchema` ([`crate::input::ToolEntry::gemini_schema_field`]): two routes
    /// with their own rules, of which a target judges one ([`Report::gemini_field_note`]).
    #[serde(skip)]
    pub gemini_fields: GeminiFields,
    /// Tools whose schema is not yet in the strict form of the profile's target
    /// ([`crate::compile::wire::is_in`]; always 0 for a target with no strict form): whether
    /// [`strict_note`] has anything to say.
    #[serde(skip)]
    pub unformed: usize,
    /// JSON Lines lines that could not be read while the file's other lines were
    /// ([`crate::input::Read::unreadable_lines`]): a file with any is only partly checked,
    /// which its count of tools alone does not say.
    #[serde(skip_serializing_if = "is_zero")]
    pub unreadable_lines: usize,
    /// JSON Lines lines that hold no tool ([`crate::input::ToolSet::empty_lines`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub empty_lines: Vec<usize>,
    /// Object keys written twice, of which only the last value was checked
    /// ([`crate::input::ToolSet::duplicate_keys`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub duplicate_keys: Vec<crate::json::duplicates::DuplicateKey>,
    /// Numbers read as another value than written, which the findings judge as read
    /// ([`crate::input::ToolSet::inexact_numbers`]; see [`judged_as_read`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inexact_numbers: Vec<crate::json::InexactNumberAt>,
    /// What reading the file found that its findings do not say, in the words every output
    /// format carries (standard error, `::notice`, SARIF notifications, HTML, JSON `notes`):
    /// built once per file by the command, so that no format words them again.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<ReadingNote>,
    /// Requests (the file, or JSON Lines lines) that hold no tool some target of the profile
    /// takes ([`builtin_notes`]): nothing would be sent, which `compile` refuses, so check
    /// exits 1 for it as for a finding.
    #[serde(skip)]
    pub unsent: usize,
}

/// How many lines of a note about several JSON Lines lines ([`ReadingNote::lines`]) SARIF and
/// `--format github` place it on: as many as the bad lines a file reports one by one
/// ([`crate::input::BAD_LINES_SHOWN`]), so that a file of empty tool lists does not grow the
/// report without bound; `--format json`'s `empty_lines` lists them all.
pub const NOTE_LINES_PLACED: usize = crate::input::BAD_LINES_SHOWN;

/// One note on reading a file ([`FileSummary::notes`]): keys written twice, numbers read as
/// another value, JSON Lines lines with no tool, built-in tools only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadingNote {
    /// The JSON Lines line (1-based) it is about, when it is about one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Every JSON Lines line (1-based) it is about, when it is about several (the lines that
    /// hold no tool): SARIF places it on each and `--format github` annotates each, the
    /// first [`NOTE_LINES_PLACED`] of them, where its text lists only the first ten.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<usize>,
    /// RFC 6901 JSON Pointer of the place in the document (a JSON Lines line's document),
    /// when it is about one: SARIF locates it in the file as it locates a finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// The note, as standard error says it after the file's name.
    pub text: String,
    /// True for the one note that fails the check by itself (check exits 1 on it, as on a
    /// finding): a request that would send nothing ([`builtin_notes`]). It is an error in
    /// every format (`::error`, SARIF level `error`, `"fails": true` in JSON), so that a CI
    /// run that fails on it shows why.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fails: bool,
}

impl Report {
    /// Checks every tool set and collects the findings.
    pub fn new(sets: &[ToolSet], profile: &CompiledProfile) -> Report {
        let per_set = sets.iter().map(|set| check_set(set, profile)).collect();
        Report::of_sets(sets, per_set, profile)
    }

    /// Checks all tools of all sets as one request (`--one-request`): request-level rules see
    /// every tool; findings keep their file and per-file tool number, and a request-level
    /// finding goes to the first file.
    pub fn one_request(sets: &[ToolSet], profile: &CompiledProfile) -> Report {
        let mut offsets = Vec::with_capacity(sets.len());
        let mut refs: Vec<ToolRef<'_>> = Vec::new();
        let mut builtins = Vec::new();
        let mut offset = 0;
        for set in sets {
            offsets.push(offset);
            refs.extend(set.tools.iter().map(|t| {
                let mut r = t.as_ref();
                r.index += offset;
                r
            }));
            builtins.extend(set.builtins.iter().map(|b| crate::input::BuiltinTool {
                index: b.index + offset,
                request: 0,
                ..b.clone()
            }));
            // Past the set's last number, a function tool's or a built-in tool's.
            let last_tool = set.tools.last().map_or(0, |t| t.index + 1);
            let last_builtin = set.builtins.last().map_or(0, |b| b.index + 1);
            offset += last_tool.max(last_builtin);
        }
        // The set a tool of the joined request came from: the last set starting at or before
        // it (empty sets share an offset).
        let set_of = |index: usize| offsets.partition_point(|&o| o <= index).saturating_sub(1);
        // Another tool is named as every finding is placed: by its per-file number (and its
        // line in JSON Lines), and by its file when that is not the finding's file.
        let name_other = |this: usize, other: usize| {
            let s = set_of(other);
            let local = other - offsets[s];
            let mut words = format!("tool {local}");
            // Numbers skip built-in tools: look the number up.
            let tool = sets[s].tools.iter().find(|t| t.index == local);
            if let Some(line) = tool.and_then(|t| t.line) {
                words.push_str(&format!(" (line {line})"));
            }
            if set_of(this) != s {
                words.push_str(&format!(" of {}", crate::error::file_name(&sets[s].file)));
            }
            words
        };
        let mut all = Vec::new();
        detect::check_request_naming(&refs, &builtins, profile, &mut all, &name_other);
        let mut per_set: Vec<Vec<Finding>> = vec![Vec::new(); sets.len()];
        for mut f in all {
            let s = set_of(f.tool_index);
            f.tool_index -= offsets[s];
            per_set[s].push(f);
        }
        for (set, findings) in sets.iter().zip(&mut per_set) {
            let file = Text::from(set.file.display().to_string());
            Places::default().fill(&file, &set.tools, findings);
        }
        Report::of_sets(sets, per_set, profile)
    }

    fn of_sets(sets: &[ToolSet], per_set: Vec<Vec<Finding>>, profile: &CompiledProfile) -> Report {
        let mut files = Vec::new();
        let mut findings = Vec::new();
        let mut scratch = Vec::new();
        for (set, mut f) in sets.iter().zip(per_set) {
            judged_as_read(&mut f, &set.inexact_numbers);
            let flagged = distinct_tools(&f, |_| true, &mut scratch);
            let erred = distinct_tools(&f, |x| x.level == Level::Error, &mut scratch);
            files.push(FileSummary {
                file: set.file.display().to_string(),
                format: set.format_label(),
                tools: set.tools.len(),
                clean: set.tools.len() - flagged,
                request_findings: f.iter().filter(|x| x.request).count(),
                without_errors: set.tools.len() - erred,
                detected: Some(set.format),
                strict: set.tools.iter().filter(|t| t.strict == Some(true)).count(),
                strict_tool_use: set
                    .tools
                    .iter()
                    .filter(|t| t.strict_tool_use.is_some())
                    .count(),
                gemini_fields: {
                    let mut fields = GeminiFields::default();
                    fields.count(&set.tools);
                    fields
                },
                unformed: unformed_tools(&profile.name, &set.tools),
                unreadable_lines: 0,
                empty_lines: set.empty_lines.clone(),
                duplicate_keys: set.duplicate_keys.clone(),
                inexact_numbers: set.inexact_numbers.clone(),
                notes: Vec::new(),
                unsent: 0,
            });
            findings.extend(f);
        }
        Report {
            profile: profile.name.clone(),
            targets: profile.targets.clone(),
            files,
            findings,
            errors_only: false,
            warnings_hidden: 0,
            ignored: Vec::new(),
        }
    }

    /// A report from files already read and checked with [`check_bytes`].
    pub fn from_checked(
        profile: &CompiledProfile,
        files: Vec<(FileSummary, Vec<Finding>)>,
    ) -> Report {
        let mut summaries = Vec::with_capacity(files.len());
        let mut findings = Vec::new();
        for (s, f) in files {
            summaries.push(s);
            findings.extend(f);
        }
        Report {
            profile: profile.name.clone(),
            targets: profile.targets.clone(),
            files: summaries,
            findings,
            errors_only: false,
            warnings_hidden: 0,
            ignored: Vec::new(),
        }
    }

    /// Leaves out the findings of the rules `ids` (a team's decision to accept them, e.g.
    /// `object-properties-missing` for a tool without arguments that no portable form fits):
    /// each file's clean counts are taken again from the findings kept. Leaving findings out
    /// afterwards cannot bring back what they covered (a meta-schema error settled into one):
    /// turn the rules off on the profile before checking ([`CompiledProfile::turn_off`]), as
    /// `check --ignore` does, and call this to record them.
    pub fn ignore(&mut self, ids: &[String]) {
        self.findings
            .retain(|f| !ids.iter().any(|id| id == f.rule.as_str()));
        // Per file, the tools (by number) still with a finding, and with an error.
        let mut flagged: BTreeMap<&str, (BTreeSet<usize>, BTreeSet<usize>)> = BTreeMap::new();
        for f in self.findings.iter().filter(|f| !f.request) {
            let (any, errors) = flagged.entry(f.file.as_str()).or_default();
            any.insert(f.tool_index);
            if f.level == Level::Error {
                errors.insert(f.tool_index);
            }
        }
        for file in &mut self.files {
            let (any, errors) = flagged.remove(file.file.as_str()).unwrap_or_default();
            file.clean = file.tools - any.len();
            file.without_errors = file.tools - errors.len();
        }
        self.count_request_findings();
        self.ignored.extend(ids.iter().cloned());
    }

    /// Counts each file's request-level findings again from those kept.
    fn count_request_findings(&mut self) {
        let mut per_file: BTreeMap<&str, usize> = BTreeMap::new();
        for f in self.findings.iter().filter(|f| f.request) {
            *per_file.entry(f.file.as_str()).or_default() += 1;
        }
        for file in &mut self.files {
            file.request_findings = per_file.get(file.file.as_str()).copied().unwrap_or(0);
        }
    }

    /// Keeps only `error` findings (a target rejects the feature); a tool then counts as clean
    /// when it has no error.
    pub fn errors_only(&mut self) {
        let before = self.findings.len();
        self.findings.retain(|f| f.level == Level::Error);
        self.warnings_hidden += before - self.findings.len();
        for f in &mut self.files {
            f.clean = f.without_errors;
        }
        self.count_request_findings();
        self.errors_only = true;
    }

    /// Human output: findings grouped by file and tool, then counts per rule.
    pub fn human(&self) -> String {
        use crate::report::escape_inline;
        use std::fmt::Write;
        let mut s = String::new();
        let mut notes = FixNotes::new(&self.findings);
        let mut by_file: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
        for f in &self.findings {
            by_file.entry(f.file.as_str()).or_default().push(f);
        }
        for file in &self.files {
            let Some(fs) = by_file.get_mut(file.file.as_str()) else {
                continue;
            };
            // One group per tool: request rules (name-duplicate) report on a tool before the
            // tool rules run, so their findings come first. A request's own findings lead.
            fs.sort_by_key(|f| (f.tool_index, !f.request));
            let _ = writeln!(
                s,
                "{} ({}, {})",
                crate::error::file_name(std::path::Path::new(&file.file)),
                file.format,
                count(file.tools, "tool")
            );
            let mut last_tool = None;
            for f in fs {
                if last_tool != Some((f.request, f.tool_index)) {
                    last_tool = Some((f.request, f.tool_index));
                    let _ = writeln!(s, "  {}", escape_inline(&group_header(f)));
                }
                // Names, pointers, messages and fixes carry the file's text: one line each,
                // escaped alike, so a value the fix quotes reads as the message quotes it.
                let pointer = place_label(f);
                let pointer = escape_inline(&pointer);
                let _ = writeln!(s, "    {:<7} {:<26} {pointer}", f.level.as_str(), f.rule);
                let _ = writeln!(s, "            {}", escape_inline(&f.message));
                let _ = writeln!(
                    s,
                    "            fix: {}{}",
                    escape_inline(&notes.fix_line(&f.fix)),
                    if f.marked_repairable() {
                        " (repairable)"
                    } else {
                        ""
                    }
                );
            }
            s.push('\n');
        }
        let counts = counts(&self.findings);
        if !counts.is_empty() {
            let _ = writeln!(s, "Findings per rule:");
            for (rule, n) in &counts {
                let _ = writeln!(s, "  {rule:<28} {n}");
            }
        }
        if !notes.texts().is_empty() {
            let _ = writeln!(s, "Notes:");
            for (i, text) in notes.texts().iter().enumerate() {
                let _ = writeln!(s, "  [{}] {}", i + 1, escape_inline(text));
            }
        }
        let _ = writeln!(s, "{}", self.summary());
        for note in self.closing_notes() {
            let _ = writeln!(s, "{note}");
        }
        s
    }

    /// The notes that end output for people (human, HTML): [`Report::closing_note`],
    /// [`Report::strict_tool_use_note`] and [`Report::gemini_field_note`], each when it has
    /// something to say.
    pub fn closing_notes(&self) -> Vec<String> {
        [
            self.closing_note(),
            self.strict_tool_use_note(),
            self.gemini_field_note(),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// The note that ends output for people: under a strict target's profile
    /// [`Report::strict_form_note`], else [`Report::strict_tools_note`].
    pub fn closing_note(&self) -> Option<String> {
        if crate::compile::wire::Form::of(&self.profile)
            .requirements()
            .is_some()
        {
            self.strict_form_note()
        } else {
            self.strict_tools_note()
        }
    }

    /// Under a strict target's profile, [`strict_note`], when some tool checked is not yet in
    /// that strict form (a file compile wrote for the target needs no such word).
    pub fn strict_form_note(&self) -> Option<String> {
        if self.files.iter().all(|f| f.unformed == 0) {
            return None;
        }
        strict_note(&self.profile, "check judges")
    }

    /// Under a profile of plain (canonical) schemas, the line saying that tools which ask for
    /// OpenAI's strict mode are judged by OpenAI in that mode: their strict form is judged
    /// here (`strict-form-missing`; under `--ignore` of it, the note says it is not), the rest
    /// of strict mode's subset only under a strict target's profile; `None` when no tool asks
    /// for it.
    pub fn strict_tools_note(&self) -> Option<String> {
        let n: usize = self.files.iter().map(|f| f.strict).sum();
        (n > 0).then(|| {
            let (who, them, their) = if n == 1 {
                ("1 tool asks".to_string(), "it", "its")
            } else {
                (format!("{n} tools ask"), "them", "their")
            };
            // Under `--ignore strict-form-missing` the form is not judged: say so, not that it is.
            let form = if self.ignored.iter().any(|r| r == "strict-form-missing") {
                format!(
                    "{their} strict form (every object closed, every property required) is not judged here (`--ignore strict-form-missing`)"
                )
            } else {
                format!(
                    "check judges {their} strict form (`strict-form-missing`: every object closed, every property required)"
                )
            };
            format!(
                "note: {who} for OpenAI's strict mode (`strict: true`, a Responses tool's default): OpenAI judges {them} in that mode; {form}, and the rest of strict mode's subset (keywords, formats, sizes) only under `--target openai/chat-strict` (or `openai/responses-strict`)"
            )
        })
    }

    /// The line saying that tools which ask for a provider's own strict tool use (Anthropic's,
    /// Bedrock Converse's `strict: true`) are judged by the provider against a subset of JSON
    /// Schema check does not model; `None` when no tool asks for it.
    pub fn strict_tool_use_note(&self) -> Option<String> {
        let n: usize = self.files.iter().map(|f| f.strict_tool_use).sum();
        (n > 0).then(|| {
            let (who, its, it) = if n == 1 {
                ("1 tool asks".to_string(), "its", "it")
            } else {
                (format!("{n} tools ask"), "their", "each")
            };
            format!(
                "note: {who} for strict tool use (Anthropic's or Bedrock Converse's own `strict: true`): the provider holds {its} schema to the subset of JSON Schema that mode takes (Anthropic: https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use; Bedrock: https://docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html), which check does not judge: {it} is checked as a plain tool"
            )
        })
    }

    /// Under the profile of a Gemini or Vertex route, the line saying that declarations which
    /// send their schema in the other field (`parametersJsonSchema` under a `parameters` route,
    /// `parameters` under `gemini/v1beta/parameters-json-schema`) are judged by this route's
    /// rules all the same, and which target judges the route of the field they use: the two
    /// fields take different schemas (an OpenAPI subset, JSON Schema), so the findings may be
    /// about a route the request does not take. `None` under any other profile, or when no
    /// declaration uses the other field.
    pub fn gemini_field_note(&self) -> Option<String> {
        let sum = |f: fn(&GeminiFields) -> usize| -> usize {
            self.files.iter().map(|file| f(&file.gemini_fields)).sum()
        };
        const JSON_SCHEMA: &str = "`parametersJsonSchema` (JSON Schema)";
        let (n, used, judged, instead) = match self.profile.as_str() {
            "gemini/v1beta/parameters" => (
                sum(|f| f.json_schema),
                JSON_SCHEMA,
                "`parameters` (Gemini's OpenAPI subset)",
                "`--target gemini/v1beta/parameters-json-schema` judges the route of the field \
                 used"
                    .to_string(),
            ),
            "gemini/v1beta/parameters-json-schema" => (
                sum(|f| f.parameters),
                "`parameters` (Gemini's OpenAPI subset)",
                JSON_SCHEMA,
                "`--target gemini/v1beta/parameters` judges the route of the field used"
                    .to_string(),
            ),
            // Vertex's FunctionDeclaration has `parametersJsonSchema` too
            // (evidence/PROVIDERS.md §3), for which toolwire has no route.
            "vertex/v1/parameters" => (
                sum(|f| f.json_schema),
                JSON_SCHEMA,
                "`parameters` (Vertex's OpenAPI subset)",
                "toolwire has no route for Vertex's `parametersJsonSchema`; \
                 `--target gemini/v1beta/parameters-json-schema` judges the Gemini Developer \
                 API's"
                    .to_string(),
            ),
            _ => return None,
        };
        (n > 0).then(|| {
            let (who, them) = if n == 1 {
                ("1 declaration sends its".to_string(), "it")
            } else {
                (format!("{n} declarations send their"), "them")
            };
            format!(
                "note: {who} schema as {used}, but check judges {them} by the rules of `{}`, the route of the field {judged}; {instead}",
                self.profile
            )
        })
    }

    /// The sentence that ends every output for people: findings by level, and how many tools
    /// are clean under which profile, e.g. `3 findings (1 error, 2 warnings); 4 of 5 tools
    /// clean under `portable` (gemini/v1beta/parameters, openai/chat)`.
    ///
    /// Request-level findings (`too-many-tools`) are about no tool, so every tool may be
    /// clean while the request is not: the tools are then said to be clean "on their own"
    /// and the request-level findings are counted after, e.g. `...; 129 of 129 tools without
    /// errors of their own under ...; 1 request-level error (about a request as a whole)`.
    pub fn summary(&self) -> String {
        let tools: usize = self.files.iter().map(|f| f.tools).sum();
        let clean: usize = self.files.iter().map(|f| f.clean).sum();
        let errors = self
            .findings
            .iter()
            .filter(|f| f.level == Level::Error)
            .count();
        let request = self.findings.iter().filter(|f| f.request).count();
        let mut out = if self.errors_only {
            format!(
                "{} ({}); {clean} of {} without errors{} under `{}` ({})",
                count(errors, "error"),
                match self.warnings_hidden {
                    0 => "--errors-only: no warning to leave out".to_string(),
                    n => format!("{} not shown: --errors-only", count(n, "warning")),
                },
                count(tools, "tool"),
                if request > 0 { " of their own" } else { "" },
                self.profile,
                self.targets.join(", ")
            )
        } else {
            format!(
                "{} ({}, {}); {clean} of {} clean{} under `{}` ({})",
                count(self.findings.len(), "finding"),
                count(errors, "error"),
                count(self.findings.len() - errors, "warning"),
                count(tools, "tool"),
                if request > 0 { " on their own" } else { "" },
                self.profile,
                self.targets.join(", ")
            )
        };
        if request > 0 {
            // With --errors-only every finding shown is an error.
            let noun = if self.errors_only {
                "request-level error"
            } else {
                "request-level finding"
            };
            out.push_str(&format!(
                "; {} (about a request as a whole)",
                count(request, noun)
            ));
        }
        let unsent = self.unsent_requests();
        if unsent > 0 {
            // The reason check exits 1 where no finding is shown (see `builtin_notes`).
            out.push_str(&format!(
                "; {} nothing to a target of the profile",
                match unsent {
                    1 => "1 request would send".to_string(),
                    n => format!("{n} requests would send"),
                }
            ));
        }
        let unreadable: usize = self.files.iter().map(|f| f.unreadable_lines).sum();
        if unreadable > 0 {
            // Past the first lines, standard error gives only their number: this is where
            // every format that shows the summary says how much went unchecked.
            out.push_str(&format!(
                "; {} of JSON Lines could not be read and {} skipped",
                count(unreadable, "line"),
                if unreadable == 1 { "was" } else { "were" }
            ));
        }
        if !self.ignored.is_empty() {
            out.push_str(&format!(
                "; findings of {} not shown (--ignore)",
                self.ignored.join(", ")
            ));
        }
        out
    }

    /// How many requests (files, or JSON Lines lines) would send nothing to a target of the
    /// profile ([`FileSummary::unsent`]): check fails on each as on a finding, and the summary
    /// line and JSON's `unsent_requests` count them.
    pub fn unsent_requests(&self) -> usize {
        self.files.iter().map(|f| f.unsent).sum()
    }

    /// JSON output: the report with counts per rule.
    pub fn json(&self) -> String {
        let mut out = Vec::new();
        // Writing into memory fails only if serialization does, which a report cannot.
        let _ = self.write_json(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// [`Report::json`] written to `w`, serialized straight from the findings (no JSON value
    /// of the whole report is built: that took about 4 kB per finding). Errors are `w`'s.
    pub fn write_json(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.write_json_with_files(w, &self.files)
    }

    /// [`Report::write_json`] with `files` serialized as its `files` field (the files read,
    /// and with them those that could not be: [`crate::report::json`]).
    pub fn write_json_with_files(
        &self,
        w: &mut dyn std::io::Write,
        files: impl Serialize,
    ) -> std::io::Result<()> {
        use std::io::Write as _;
        let mut w = std::io::BufWriter::new(w);
        serde_json::to_writer_pretty(&mut w, &self.out(files))?;
        w.write_all(b"\n")?;
        w.flush()
    }

    /// The report as output, with `files` as its `files` ([`ReportOut`]).
    fn out<F: Serialize>(&self, files: F) -> ReportOut<'_, F> {
        ReportOut {
            profile: &self.profile,
            targets: &self.targets,
            errors_only: self.errors_only,
            hidden_warnings: self.warnings_hidden,
            unsent_requests: self.unsent_requests(),
            ignored: &self.ignored,
            files,
            counts: counts(&self.findings),
            findings: &self.findings,
        }
    }
}

/// How many Gemini declarations of a file send their schema in each field
/// ([`crate::input::ToolEntry::gemini_schema_field`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GeminiFields {
    /// Declarations with `parameters`.
    pub parameters: usize,
    /// Declarations with `parametersJsonSchema` (or `parameters_json_schema`).
    pub json_schema: usize,
}

impl GeminiFields {
    /// Adds the declarations among `tools`.
    fn count(&mut self, tools: &[crate::input::ToolEntry]) {
        for tool in tools {
            match tool.gemini_schema_field() {
                Some("parameters") => self.parameters += 1,
                Some(_) => self.json_schema += 1,
                None => {}
            }
        }
    }
}

/// For a strict target's profile, the line that ends human output: `command` (check, repair)
/// judges or writes the canonical schema, and the target's strict wire requirements are added
/// by `compile`, so a clean check (or an unchanged tool) does not mean the schema as written is
/// what that target must be sent.
pub(crate) fn strict_note(profile: &str, command: &str) -> Option<String> {
    let requirements = crate::compile::wire::Form::of(profile).requirements()?;
    Some(format!(
        "note: `{profile}` also needs its strict form ({requirements}), which `toolwire compile --target {profile}` produces; {command} the canonical schema"
    ))
}

/// Fixes shorter than this many characters are always printed in full: a reference to a note
/// would save little and cost the reader a look down.
const NOTE_MIN_CHARS: usize = 120;

/// How many shown findings must share a long fix before it is printed once as a note.
const NOTE_MIN_FINDINGS: usize = 5;

/// The fixes output for people prints once, as numbered notes after the counts, instead of on
/// every finding: the missing-evidence text ([`UNVERIFIED_FIX`], which is no fix a reader can
/// apply) whenever it is shown, and any other long fix many findings share (a corpus repeats
/// `type-invalid`'s spelling table thousands of times, drowning the errors to act on).
/// Numbered in order of first reference, so the notes read in the order the findings do.
/// Machine formats (JSON, SARIF, annotations) keep every fix whole on every finding.
pub(crate) struct FixNotes<'a> {
    /// The long fixes shared by enough findings to become notes.
    shared: BTreeSet<&'a str>,
    /// The notes referred to so far, in order of first reference.
    texts: Vec<&'a str>,
}

impl<'a> FixNotes<'a> {
    /// The notes for output that shows `findings`.
    pub(crate) fn new(findings: &'a [Finding]) -> FixNotes<'a> {
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for f in findings {
            // Bytes first: most fixes are short, and a text has no more characters than bytes.
            let long = f.fix.len() >= NOTE_MIN_CHARS && f.fix.chars().count() >= NOTE_MIN_CHARS;
            if long || f.fix == UNVERIFIED_FIX {
                *seen.entry(f.fix.as_str()).or_default() += 1;
            }
        }
        let shared = seen
            .into_iter()
            .filter(|&(fix, n)| n >= NOTE_MIN_FINDINGS || fix == UNVERIFIED_FIX)
            .map(|(fix, _)| fix)
            .collect();
        FixNotes {
            shared,
            texts: Vec::new(),
        }
    }

    /// The number (from 1) of the note that holds `fix`, if it is one.
    pub(crate) fn refer(&mut self, fix: &'a str) -> Option<usize> {
        let fix = *self.shared.get(fix)?;
        Some(match self.texts.iter().position(|t| *t == fix) {
            Some(i) => i + 1,
            None => {
                self.texts.push(fix);
                self.texts.len()
            }
        })
    }

    /// What a finding's fix line says: `fix` itself, or a reference to its note.
    pub(crate) fn fix_line(&mut self, fix: &'a str) -> std::borrow::Cow<'a, str> {
        match self.refer(fix) {
            Some(n) if fix == UNVERIFIED_FIX => {
                format!("none yet (no evidence either way; see note [{n}] below)").into()
            }
            Some(n) => format!("see note [{n}] below").into(),
            None => fix.into(),
        }
    }

    /// The notes referred to so far, note 1 first.
    pub(crate) fn texts(&self) -> &[&'a str] {
        &self.texts
    }
}

/// How human output shows the empty JSON Pointer (the whole schema or tool).
const ROOT: &str = "(root)";

/// Where a finding is, as output for people shows it: its JSON Pointer into the parameters
/// schema (a long one shortened by [`crate::report::short_pointer`]), `(root)` for the
/// schema's empty pointer (RFC 6901's `/` is the property named "", so the root gets a word),
/// or for a finding about the tool rather than its schema ([`Finding::subject`]) the part of
/// the tool: `name`, `description`, `(tool)` (a finding about the whole tool, such as a
/// missing schema), or `(request)`. Those have the empty schema pointer too, and `(root)`
/// put them at the schema's root.
pub(crate) fn place_label(f: &Finding) -> std::borrow::Cow<'_, str> {
    if f.request {
        "(request)".into()
    } else if f.subject == Subject::Name {
        "name".into()
    } else if f.subject == Subject::Description {
        "description".into()
    } else if f.subject == Subject::Tool {
        "(tool)".into()
    } else if f.pointer.is_empty() {
        ROOT.into()
    } else {
        crate::report::short_pointer(&f.pointer)
    }
}

/// The line heading a finding's group in human output: the tool (name and place), or the
/// request for a request-level finding.
pub(crate) fn group_header(f: &Finding) -> String {
    let place = match f.line {
        Some(l) => format!("line {l}"),
        // The tool list itself, not its first tool.
        None if f.request && f.location.is_empty() => "the tool list".to_string(),
        None if f.request => format!("tool list {}", f.location),
        None => format!("tool {}", f.tool_index),
    };
    if f.request {
        return format!("(request) [{place}]");
    }
    let name = if f.tool.is_empty() {
        "(unnamed)"
    } else {
        f.tool.as_str()
    };
    format!("{name} [{place}]")
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// `n` and `noun`, with an `s` unless `n` is 1: "1 error", "2 errors", "0 warnings".
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Checks tools given directly (one request). A tool whose parameters nest deeper than
/// [`crate::input::LIMITS`] allows (brackets counted, as in a file) is not checked: it gets
/// one error, rule `nesting-too-deep`, at the first place past the cap (the rules recurse once
/// per level). [`check_set`] takes a [`ToolSet`], whose reading ([`crate::input::from_value`],
/// [`crate::input::read_file`]) already holds it to that cap.
pub fn check_tools(tools: &[ToolRef<'_>], profile: &CompiledProfile) -> Vec<Finding> {
    use crate::profile::rules::nesting_too_deep::RULE as NESTING;
    let max = crate::input::LIMITS.max_depth;
    let too_deep = |t: &ToolRef<'_>| {
        t.parameters
            .and_then(|p| crate::json::first_too_deep(p, max))
    };
    if !tools.iter().any(|t| too_deep(t).is_some()) {
        return check_tools_within_cap(tools, profile);
    }
    let mut deep = Vec::new();
    let within: Vec<ToolRef<'_>> = tools
        .iter()
        .filter(|t| match too_deep(t) {
            Some(pointer) => {
                deep.push(Finding {
                    rule: Text::Static(NESTING.id),
                    tool: Text::Shared(t.name.unwrap_or_default().into()),
                    tool_index: t.index,
                    request: false,
                    pointer,
                    message: Text::from(format!(
                        "{}; the tool is not checked",
                        crate::json::too_deep_problem(max)
                    )),
                    fix: Text::Static(NESTING.fix),
                    repairable: false,
                    level: Level::Error,
                    parameter: Text::default(),
                    file: Text::default(),
                    line: None,
                    location: Text::default(),
                    subject: Subject::Schema,
                    evidence: None,
                });
                false
            }
            None => true,
        })
        .copied()
        .collect();
    let mut out = check_tools_within_cap(&within, profile);
    out.extend(deep);
    // Input order, as the rules give it: by tool (a stable sort keeps each tool's order).
    out.sort_by_key(|f| f.tool_index);
    out
}

#[cfg(test)]
thread_local! {
    /// Tools [`check_tools`] checked, for tests of the work a command skips.
    pub(crate) static TOOLS_CHECKED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// [`check_tools`] for tools known to be within the nesting cap (repair's own, checked at its
/// entry): no walk to measure them.
pub(crate) fn check_tools_within_cap(
    tools: &[ToolRef<'_>],
    profile: &CompiledProfile,
) -> Vec<Finding> {
    #[cfg(test)]
    TOOLS_CHECKED.with(|n| n.set(n.get() + tools.len()));
    let mut out = Vec::new();
    detect::check_request(tools, profile, &mut out);
    out
}

/// Counts per rule, sorted by rule id.
pub fn counts(findings: &[Finding]) -> BTreeMap<&str, usize> {
    let mut m = BTreeMap::new();
    for f in findings {
        *m.entry(f.rule.as_str()).or_default() += 1;
    }
    m
}

/// `reports/corpora.md`: per corpus file, the tools checked, how many are clean (no finding)
/// and how many have no error (only unknowns) under `portable` and under each of its targets,
/// and the findings per rule under each. Files are named by their file name only, so the
/// report does not depend on where the corpora sit (standard input as `standard input`). The rules in `ignore` are not run (as
/// `check --ignore` runs none of them); the header names them, the files and
/// `profiles_file` (`None`: the built-in profiles), so that it says what was checked.
pub fn corpus_markdown(
    sets: &[ToolSet],
    profiles: &crate::profile::ProfileSet,
    profiles_file: Option<&std::path::Path>,
    ignore: &[String],
) -> String {
    use crate::report::escape_inline;
    use std::fmt::Write;
    let Some(portable) = profiles.get(crate::profile::PORTABLE) else {
        return "No `portable` profile.\n".into();
    };
    let mut names = vec![portable.name.clone()];
    names.extend(portable.targets.iter().cloned());
    let compiled: Vec<CompiledProfile> = names
        .iter()
        .filter_map(|n| profiles.get(n).map(CompiledProfile::new))
        .map(|mut p| {
            p.turn_off(ignore);
            p
        })
        .collect();
    // Standard input is named as every other output names it, not as a file called `-`.
    let file_name = |set: &ToolSet| {
        if set.file == std::path::Path::new(crate::report::STDIN) {
            return crate::error::file_name(&set.file);
        }
        let name = set
            .file
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| set.file.display().to_string());
        format!("`{}`", escape_inline(&name))
    };
    let quoted = |items: &mut dyn Iterator<Item = String>| {
        items
            .map(|i| format!("`{}`", escape_inline(&i)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let files = sets.iter().map(file_name).collect::<Vec<_>>().join(", ");
    let profiles_from = match profiles_file {
        Some(p) => format!(
            "the profiles of `{}` (`--profiles`)",
            escape_inline(&p.display().to_string())
        ),
        None => "the built-in profiles (`reports/profile.json`)".to_string(),
    };
    let ignored = if ignore.is_empty() {
        String::new()
    } else {
        format!(
            ", without the rules ignored (`--ignore`): {}",
            quoted(&mut ignore.iter().cloned())
        )
    };
    let mut s = String::new();
    let _ = writeln!(s, "# Real tool definitions checked\n");
    let _ = writeln!(
        s,
        "Generated by `toolwire check --corpus-report` over {} ({files}) with {profiles_from}{ignored}; do not edit. Only counts are kept here, not the tool definitions. Each JSON Lines line is checked as its own request. *Clean*: no finding at all. *No error*: findings are only warnings (a feature some target has no evidence for), none a rejection.\n",
        count(sets.len(), "file")
    );
    for set in sets {
        let file = file_name(set);
        let _ = writeln!(s, "## {file}\n");
        let _ = writeln!(s, "{} ({}).\n", count(set.tools.len(), "tool"), set.format);
        let mut b = tabled::builder::Builder::default();
        b.push_record(["profile", "clean", "no error", "errors", "warnings"].map(String::from));
        let mut per_rule: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
        for (i, p) in compiled.iter().enumerate() {
            let findings = check_set(set, p);
            let mut flagged = std::collections::BTreeSet::new();
            let mut erred = std::collections::BTreeSet::new();
            for f in &findings {
                // A request-level finding is about no tool in particular.
                if !f.request {
                    flagged.insert(f.tool_index);
                    if f.level == Level::Error {
                        erred.insert(f.tool_index);
                    }
                }
                let e = per_rule
                    .entry(f.rule.to_string())
                    .or_insert_with(|| vec![(0, 0); compiled.len()]);
                if f.level == Level::Error {
                    e[i].0 += 1;
                } else {
                    e[i].1 += 1;
                }
            }
            let n = set.tools.len();
            let errors = findings.iter().filter(|f| f.level == Level::Error).count();
            b.push_record([
                format!("`{}`", p.name),
                format!("{} ({})", n - flagged.len(), percent(n - flagged.len(), n)),
                format!("{} ({})", n - erred.len(), percent(n - erred.len(), n)),
                errors.to_string(),
                (findings.len() - errors).to_string(),
            ]);
        }
        let mut t = b.build();
        t.with(tabled::settings::Style::markdown());
        let _ = writeln!(s, "{t}\n");
        let _ = writeln!(
            s,
            "Findings per rule (errors + warnings) under each profile:\n"
        );
        let mut b = tabled::builder::Builder::default();
        let mut head = vec!["rule".to_string()];
        head.extend(compiled.iter().map(|p| format!("`{}`", p.name)));
        b.push_record(head);
        for (rule, counts) in &per_rule {
            let mut row = vec![format!("`{rule}`")];
            row.extend(counts.iter().map(|(e, w)| {
                if e + w == 0 {
                    "·".to_string()
                } else {
                    format!("{e} + {w}")
                }
            }));
            b.push_record(row);
        }
        let mut t = b.build();
        t.with(tabled::settings::Style::markdown());
        let _ = writeln!(s, "{t}\n");
    }
    s
}

fn percent(a: usize, b: usize) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

#[cfg(test)]
mod tests {
    /// Each batch's tool references take the memory of the last batch's: emptied, a vector
    /// keeps its allocation (and a reference of a `'static` lifetime is made of none).
    #[test]
    fn emptied_references_keep_their_memory() {
        let refs = vec![super::ToolRef::default(); 3];
        let (at, capacity) = (refs.as_ptr() as usize, refs.capacity());
        let spare: Vec<super::ToolRef<'static>> = super::emptied(refs);
        assert!(spare.is_empty());
        assert_eq!((spare.as_ptr() as usize, spare.capacity()), (at, capacity));
    }

    /// A finding of rule `rule` at `level` on tool 0, message `m`, fix `f`, not repairable,
    /// about the tool, with every other field empty: what the tests below vary from.
    fn finding(rule: &str, level: super::Level) -> super::Finding {
        super::Finding {
            rule: rule.to_string().into(),
            tool: super::Text::default(),
            tool_index: 0,
            request: false,
            pointer: String::new(),
            message: "m".into(),
            fix: "f".into(),
            repairable: false,
            level,
            parameter: super::Text::default(),
            file: super::Text::default(),
            line: None,
            location: super::Text::default(),
            subject: super::Subject::Tool,
            evidence: None,
        }
    }

    #[test]
    fn request_findings_get_a_request_header_and_roots_a_word() {
        let f = |tool: &str, request: bool, line: Option<usize>| super::Finding {
            tool: tool.to_string().into(),
            tool_index: 3,
            request,
            line,
            ..finding("too-many-tools", super::Level::Warning)
        };
        // A request is its tool list, never its first tool.
        assert_eq!(
            super::group_header(&f("", true, None)),
            "(request) [the tool list]"
        );
        let mut listed = f("", true, None);
        listed.location = "/tools".into();
        assert_eq!(super::group_header(&listed), "(request) [tool list /tools]");
        assert_eq!(
            super::group_header(&f("", true, Some(4))),
            "(request) [line 4]"
        );
        assert_eq!(super::group_header(&f("a", false, None)), "a [tool 3]");
        assert_eq!(
            super::group_header(&f("", false, None)),
            "(unnamed) [tool 3]"
        );
        assert_ne!(super::ROOT, "/");
        // A finding about the tool is at a part of the tool, not at the schema's root, which
        // its empty schema pointer would say.
        let about = |subject| super::Finding {
            subject,
            ..f("a", false, None)
        };
        let label = |subject| super::place_label(&about(subject)).into_owned();
        assert_eq!(label(super::Subject::Name), "name");
        assert_eq!(label(super::Subject::Description), "description");
        assert_eq!(label(super::Subject::Tool), "(tool)");
        assert_eq!(label(super::Subject::Schema), super::ROOT);
        assert_eq!(super::place_label(&f("", true, None)), "(request)");
    }

    /// The built-in `portable` profile, compiled.
    fn compiled_portable() -> crate::profile::CompiledProfile {
        let profiles = crate::profile::embedded().unwrap();
        crate::profile::CompiledProfile::new(profiles.get(crate::profile::PORTABLE).unwrap())
    }

    /// `files[].clean` counts tools alone: 3000 MCP tools read `clean: 3000` in JSON beside a
    /// too-many-tools error, with nothing in the file's entry to say its request was not
    /// clean. The entry counts the request-level findings, again after `--ignore` and
    /// `--errors-only` leave findings out.
    #[test]
    fn a_files_entry_counts_its_request_level_findings() {
        let tools: Vec<String> = (0..200)
            .map(|i| format!(r#"{{"name":"t{i}","description":"d","input_schema":{{"type":"object","properties":{{"a":{{"type":"string"}}}}}}}}"#))
            .collect();
        let text = format!("[{}]", tools.join(","));
        let p = compiled_portable();
        let checked = super::check_bytes(std::path::Path::new("t.json"), text.as_bytes(), &p)
            .expect("the tools read");
        let mut report = super::Report::from_checked(&p, vec![checked]);
        assert!(
            report.findings.iter().any(|f| f.request),
            "{:?}",
            report.findings
        );
        let file = &report.files[0];
        // too-many-tools (an error) and 200 properties across the tools (a warning: no
        // evidence for the core targets).
        assert_eq!(
            (file.tools, file.clean, file.request_findings),
            (200, 200, 2)
        );
        let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
        assert_eq!(json["files"][0]["request_findings"], 2);
        report.errors_only();
        assert_eq!(report.files[0].request_findings, 1);
        report.ignore(&["too-many-tools".to_string()]);
        assert_eq!(report.files[0].request_findings, 0);
    }

    /// A request-level error with every tool clean read as a clean run ("129 of 129 tools
    /// without errors"): the tools are now clean on their own and the request is counted.
    #[test]
    fn the_summary_counts_request_level_findings_apart_from_the_tools() {
        let finding = |request: bool, level| super::Finding {
            request,
            ..finding("too-many-tools", level)
        };
        let report = |findings, errors_only| super::Report {
            profile: "p".into(),
            targets: vec!["t".into()],
            files: vec![super::FileSummary {
                file: "a.json".into(),
                format: "openai".into(),
                tools: 3,
                clean: 3,
                without_errors: 3,
                ..Default::default()
            }],
            findings,
            errors_only,
            warnings_hidden: 0,
            ignored: Vec::new(),
        };
        let error = || finding(true, super::Level::Error);
        assert_eq!(
            report(vec![error()], true).summary(),
            "1 error (--errors-only: no warning to leave out); 3 of 3 tools without errors of their \
             own under `p` (t); 1 request-level error (about a request as a whole)"
        );
        let both = vec![error(), finding(true, super::Level::Warning)];
        // The warnings --errors-only leaves out are counted: "0 errors" alone reads as clean.
        let mut hidden = report(both.clone(), false);
        hidden.errors_only();
        assert!(
            hidden
                .summary()
                .starts_with("1 error (1 warning not shown: --errors-only); "),
            "{}",
            hidden.summary()
        );
        assert_eq!(
            report(both, false).summary(),
            "2 findings (1 error, 1 warning); 3 of 3 tools clean on their own under `p` (t); \
             2 request-level findings (about a request as a whole)"
        );
        // Without one the sentence is as it was.
        assert_eq!(
            report(Vec::new(), false).summary(),
            "0 findings (0 errors, 0 warnings); 3 of 3 tools clean under `p` (t)"
        );
        // JSON Lines lines skipped as unreadable: every one counted, past those shown too.
        let mut partly = report(Vec::new(), false);
        partly.files[0].unreadable_lines = 102;
        assert_eq!(
            partly.summary(),
            "0 findings (0 errors, 0 warnings); 3 of 3 tools clean under `p` (t); 102 lines of \
             JSON Lines could not be read and were skipped"
        );
    }

    /// Trial 80 D7: check's JSON carried neither what the summary line says of warnings
    /// `--errors-only` hid nor of requests that would send nothing, so a gate reading exit 1
    /// beside `"findings": []` found the reason only by walking every file's notes. Both are
    /// now top-level counts, present (as 0) when there is none.
    #[test]
    fn the_json_counts_hidden_warnings_and_requests_sending_nothing_as_the_summary_does() {
        let finding = |level| super::Finding {
            tool: super::Text::from("t".to_string()),
            file: super::Text::from("a.json".to_string()),
            ..finding("r", level)
        };
        let file = |unsent| super::FileSummary {
            file: "a.json".into(),
            format: "openai".into(),
            tools: 1,
            unsent,
            ..Default::default()
        };
        let report = |findings, files| super::Report {
            profile: "p".into(),
            targets: vec!["t".into()],
            files,
            findings,
            errors_only: false,
            warnings_hidden: 0,
            ignored: Vec::new(),
        };
        let json =
            |r: &super::Report| -> serde_json::Value { serde_json::from_str(&r.json()).unwrap() };
        let (warning, error) = (super::Level::Warning, super::Level::Error);
        let three = vec![finding(error), finding(warning), finding(warning)];
        let shown = report(three.clone(), vec![file(0)]);
        assert_eq!(json(&shown)["hidden_warnings"], 0);
        assert_eq!(json(&shown)["unsent_requests"], 0);
        let mut hidden = report(three, vec![file(0)]);
        hidden.errors_only();
        assert!(
            hidden
                .summary()
                .starts_with("1 error (2 warnings not shown")
        );
        assert_eq!(json(&hidden)["hidden_warnings"], 2);
        assert_eq!(json(&hidden)["findings"].as_array().unwrap().len(), 1);
        // Two files, one request each sending nothing: counted over the files.
        let unsent = report(Vec::new(), vec![file(1), file(1)]);
        assert!(
            unsent
                .summary()
                .ends_with("; 2 requests would send nothing to a target of the profile")
        );
        assert_eq!(json(&unsent)["unsent_requests"], 2);
        // A library user serializing the report gets the same: its derived form left out
        // `counts`, `hidden_warnings` and `unsent_requests`.
        for r in [&shown, &hidden, &unsent] {
            assert_eq!(serde_json::to_value(r).unwrap(), json(r));
        }
    }

    /// `--one-request` numbers tools across files; a duplicate name must still be traced to
    /// the other tool's own file, per-file number and (for JSON Lines) line.
    #[test]
    fn one_request_names_the_other_tool_by_its_file_and_number() {
        use crate::input::{Format, ToolEntry, ToolSet};
        let entry = |index: usize, line: Option<usize>| ToolEntry {
            name: Some("search".into()),
            description: Some("Searches.".into()),
            parameters: Some(serde_json::json!({"type": "object", "properties": {}})),
            index,
            request: line.unwrap_or(0),
            line,
            schema_pointer: String::new(),
            tool_pointer: None,
            strict: None,
            strict_tool_use: None,
        };
        let set = |file: &str, format, tools| ToolSet {
            file: file.into(),
            format,
            line_formats: Vec::new(),
            tools,
            builtins: Vec::new(),
            empty_lines: Vec::new(),
            duplicate_keys: Vec::new(),
            inexact_numbers: Vec::new(),
        };
        let sets = [
            set("a.json", Format::Anthropic, vec![entry(0, None)]),
            set(
                "b.jsonl",
                Format::JsonLines,
                vec![entry(0, Some(1)), entry(1, Some(2))],
            ),
        ];
        let profiles = crate::profile::embedded().expect("built-in profiles load");
        let portable = profiles.get(crate::profile::PORTABLE).expect("portable");
        let report = super::Report::one_request(&sets, &super::CompiledProfile::new(portable));
        let said: Vec<(&str, usize, &str)> = report
            .findings
            .iter()
            .filter(|f| f.rule == "name-duplicate")
            .map(|f| {
                let other = f.message.split(": ").next().unwrap_or_default();
                (f.file.as_str(), f.tool_index, other)
            })
            .collect();
        // Every tool of the name is reported, naming the others.
        assert_eq!(
            said,
            [
                (
                    "a.json",
                    0,
                    "tool name `search` is also used by tool 0 (line 1) of b.jsonl, tool 1 (line 2) of b.jsonl"
                ),
                (
                    "b.jsonl",
                    0,
                    "tool name `search` is also used by tool 0 of a.json, tool 1 (line 2)"
                ),
                (
                    "b.jsonl",
                    1,
                    "tool name `search` is also used by tool 0 of a.json, tool 0 (line 1)"
                ),
            ]
        );
        // The other way round: a tool of the same file is named by its line, not its file.
        let sets = [sets[1].clone(), sets[0].clone()];
        let report = super::Report::one_request(&sets, &super::CompiledProfile::new(portable));
        let messages: Vec<&str> = report
            .findings
            .iter()
            .filter(|f| f.rule == "name-duplicate")
            .map(|f| f.message.split(": ").next().unwrap_or_default())
            .collect();
        assert_eq!(
            messages,
            [
                "tool name `search` is also used by tool 1 (line 2), tool 0 of a.json",
                "tool name `search` is also used by tool 0 (line 1), tool 0 of a.json",
                "tool name `search` is also used by tool 0 (line 1) of b.jsonl, tool 1 (line 2) of b.jsonl",
            ]
        );
    }

    #[test]
    fn a_reused_findings_buffer_renders_as_a_fresh_one() {
        let set = |text: &str| {
            crate::input::from_bytes(std::path::Path::new("t.jsonl"), text.as_bytes()).unwrap()
        };
        let a = set(concat!(
            r#"{"name":"Get-Thing","parameters":{"type":"dict","properties":{"type":{"type":"str"}},"x-a":1}}"#,
            "\n",
            r#"{"name":"b","parameters":{"type":"object","properties":{"v":{"type":"string","pattern":"[a-z]"}}}}"#,
            "\n"
        ));
        let b = set(r#"{"name":"other","parameters":{"type":"float","minimum":1}}"#);
        let portable = compiled_portable();
        let mut reused = super::Findings::default();
        super::check_set_into(&a, &portable, &mut reused);
        assert!(reused.len() >= 4, "{}", reused.len());
        super::check_set_into(&b, &portable, &mut reused);
        let fresh = super::check_set(&b, &portable);
        assert!(!fresh.is_empty());
        assert_eq!(super::render_set(&b, &portable, &reused), fresh);
        assert!(fresh.iter().all(|f| f.tool == "other" && f.line == Some(1)));
    }

    /// A number read as another value (`1e-400` as 0.0) is named as written in the finding at
    /// it, and no finding of its document or line is repairable (repair refuses to write it
    /// rounded), by either reading path; a line without one keeps its repairs.
    #[test]
    fn a_number_read_inexactly_is_named_and_repaired_by_nothing() {
        let text = concat!(
            r#"{"name":"a","parameters":{"type":"object","properties":{"x":{"type":"number","multipleOf":1e-400},"s":{"type":"string","const":"k"}}}}"#,
            "\n",
            r#"{"name":"b","parameters":{"type":"object","properties":{"s":{"type":"string","const":"k"}}}}"#,
            "\n"
        );
        let file = std::path::Path::new("t.jsonl");
        let portable = compiled_portable();
        let (summary, streamed) = super::check_bytes(file, text.as_bytes(), &portable).unwrap();
        assert_eq!(summary.inexact_numbers.len(), 1);
        let set = crate::input::from_bytes(file, text.as_bytes()).unwrap();
        let whole = super::Report::new(&[set], &portable).findings;
        for findings in [streamed, whole] {
            let at = findings
                .iter()
                .find(|f| f.pointer == "/properties/x/multipleOf")
                .expect("multipleOf 0 is a finding");
            assert!(
                at.message.as_str().starts_with(
                    "the number written `1e-400` is read as 0.0, and judged so: `multipleOf` is 0.0"
                ),
                "{}",
                at.message.as_str()
            );
            let repairable = |line: usize| {
                findings
                    .iter()
                    .filter(|f| f.line == Some(line))
                    .any(|f| f.repairable)
            };
            assert!(!repairable(1));
            assert!(repairable(2));
        }
    }

    /// A finding about the tool rather than a place in its schema is located at the tool's
    /// `name` key (name rules), its `description` key (the tool object when it has none) or
    /// the tool object; schema findings stay at the schema. Bedrock nests the tool object in
    /// `toolSpec`; a bare schema has no envelope and keeps the schema's place.
    #[test]
    fn tool_findings_are_located_at_the_name_the_description_or_the_tool() {
        use serde_json::json;
        let long = format!("a.{}", "x".repeat(80));
        let described = format!("\u{e9}{}", "d".repeat(20_000));
        let doc = json!({"toolConfig":{"tools":[
            {"toolSpec":{"name":long,"description":described,
                "inputSchema":{"json":{"type":"object","properties":{"q":{"type":"string","const":"a"}}}}}},
            {"toolSpec":{"name":"b"}},
            {"toolSpec":{"name":"b","inputSchema":{"json":{"type":"object"}}}},
        ]}});
        let set = crate::input::from_value(std::path::Path::new("t.json"), doc).unwrap();
        let profiles = crate::profile::embedded().expect("built-in profiles load");
        let portable = profiles.get(crate::profile::PORTABLE).expect("portable");
        let findings = super::check_set(&set, &super::CompiledProfile::new(portable));
        let tool = |i: usize| format!("/toolConfig/tools/{i}/toolSpec");
        let expected = |f: &super::Finding| -> String {
            let tool = tool(f.tool_index);
            match f.rule.as_str() {
                "name-invalid" | "name-too-long" | "name-duplicate" => format!("{tool}/name"),
                "description-too-long" | "description-content" => format!("{tool}/description"),
                "description-missing" | "parameters-missing" => tool,
                _ => format!("{tool}/inputSchema/json"),
            }
        };
        let mut rules: Vec<&str> = Vec::new();
        for f in &findings {
            if f.request {
                // About the request as a whole: the tool list's place.
                assert_eq!(f.location, "/toolConfig/tools", "{f:?}");
                continue;
            }
            assert_eq!(f.location, expected(f), "{f:?}");
            rules.push(f.rule.as_str());
        }
        for rule in [
            "name-invalid",
            "name-too-long",
            "name-duplicate",
            "description-too-long",
            "description-content",
            "description-missing",
            "parameters-missing",
            "keyword-unsupported",
        ] {
            assert!(rules.contains(&rule), "{rule} not made: {rules:?}");
        }
        // A bare schema has no name or description to point at: its place is the root.
        let bare = crate::input::from_value(
            std::path::Path::new("t.json"),
            json!({"type":"object","properties":{"q":{"const":"a"}}}),
        )
        .unwrap();
        let findings = super::check_set(&bare, &super::CompiledProfile::new(portable));
        assert!(!findings.is_empty());
        assert!(
            findings.iter().all(|f| f.location.is_empty()),
            "{findings:?}"
        );
    }

    /// `location` is always written, the finding's own place in the file (`""` for the
    /// document root: a flat tool's own findings); a request-level finding names no tool and
    /// is located at the tool list.
    #[test]
    fn json_findings_always_have_a_location_and_requests_no_tool() {
        use serde_json::json;
        let profiles = crate::profile::embedded().expect("built-in profiles load");
        let portable =
            super::CompiledProfile::new(profiles.get(crate::profile::PORTABLE).expect("portable"));
        let json_of = |doc: serde_json::Value| -> Vec<serde_json::Value> {
            let set = crate::input::from_value(std::path::Path::new("t.json"), doc).unwrap();
            let findings = super::check_set(&set, &portable);
            assert!(!findings.is_empty());
            serde_json::to_value(&findings)
                .unwrap()
                .as_array()
                .unwrap()
                .clone()
        };
        // A finding in the schema is located at its own place in the file, not the schema's.
        let bare = json_of(json!({"type":"object","properties":{"q":{"const":"a"}}}));
        assert!(
            bare.iter().all(|f| f["location"] == f["pointer"]),
            "{bare:?}"
        );
        assert!(
            bare.iter().any(|f| f["location"] == "/properties/q/const"),
            "{bare:?}"
        );
        let flat = json_of(
            json!({"name":"f","parameters":{"type":"object","properties":{"q":{"const":"a"}}}}),
        );
        let locations: Vec<&str> = flat
            .iter()
            .map(|f| f["location"].as_str().unwrap())
            .collect();
        assert!(locations.contains(&""), "{locations:?}");
        assert!(
            locations.contains(&"/parameters/properties/q/const"),
            "{locations:?}"
        );
        let tool = |name: &str| json!({"name": name, "input_schema": {"type":"object"}});
        let many: Vec<serde_json::Value> = (0..200).map(|i| tool(&format!("t{i}"))).collect();
        let findings = json_of(json!({ "tools": many }));
        let request: Vec<&serde_json::Value> =
            findings.iter().filter(|f| f["request"] == true).collect();
        assert!(
            !request.is_empty(),
            "no request-level finding: {findings:?}"
        );
        for f in request {
            assert_eq!(f["location"], "/tools", "{f}");
            assert!(
                f.get("tool").is_none() && f.get("tool_index").is_none(),
                "{f}"
            );
            // What is written reads back.
            let back: super::Finding = serde_json::from_value(f.clone()).unwrap();
            assert!(back.request && back.tool.is_empty());
        }
    }

    #[test]
    fn counts_are_pluralized() {
        assert_eq!(super::count(1, "error"), "1 error");
        assert_eq!(super::count(0, "warning"), "0 warnings");
        assert_eq!(super::count(2, "finding"), "2 findings");
    }

    /// The corpus report counts a file's tools in words that agree with the number.
    #[test]
    fn the_corpus_report_says_1_tool_not_1_tools() {
        let one = crate::input::from_value(
            std::path::Path::new("one.json"),
            serde_json::json!([{"name": "a", "description": "d",
                "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}}]),
        )
        .unwrap();
        let profiles = crate::profile::embedded().unwrap();
        let md = super::corpus_markdown(&[one], &profiles, None, &[]);
        assert!(md.contains("\n1 tool (functions).\n"), "{md}");
    }

    /// Standard input is named "standard input", as the other outputs name it: the report
    /// spoke of a file `-`.
    #[test]
    fn the_corpus_report_names_standard_input_so() {
        let tools = crate::input::from_value(
            std::path::Path::new(crate::report::STDIN),
            serde_json::json!({"type": "object", "properties": {"x": {"type": "string"}}}),
        )
        .unwrap();
        let profiles = crate::profile::embedded().unwrap();
        let md = super::corpus_markdown(&[tools], &profiles, None, &[]);
        assert!(md.contains("over 1 file (standard input) with"), "{md}");
        assert!(md.contains("\n## standard input\n"), "{md}");
        assert!(!md.contains("`-`"), "{md}");
    }

    /// The header says which files were checked, with which profiles and without which
    /// rules, and the counts leave the ignored rules out: it spoke of "the corpora" and
    /// ignored `--ignore`.
    #[test]
    fn the_corpus_report_header_says_what_was_checked() {
        let tools = crate::input::from_value(
            std::path::Path::new("dir/mine.json"),
            serde_json::json!([{"name": "a.b", "description": "d",
                "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}}]),
        )
        .unwrap();
        let profiles = crate::profile::embedded().unwrap();
        let plain = super::corpus_markdown(std::slice::from_ref(&tools), &profiles, None, &[]);
        assert!(
            plain.contains("over 1 file (`mine.json`) with the built-in profiles (`reports/profile.json`); do not edit."),
            "{plain}"
        );
        assert!(!plain.contains("corpora"), "{plain}");
        assert!(plain.contains("| `name-invalid`"), "{plain}");
        let ignore = ["name-invalid".to_string()];
        let md = super::corpus_markdown(
            &[tools],
            &profiles,
            Some(std::path::Path::new("p.json")),
            &ignore,
        );
        assert!(
            md.contains("with the profiles of `p.json` (`--profiles`), without the rules ignored (`--ignore`): `name-invalid`; do not edit."),
            "{md}"
        );
        assert!(!md.contains("| `name-invalid`"), "{md}");
    }

    /// A report of `findings` (each `(level, fix)`, on one tool of `t.json`).
    fn report_of(findings: &[(super::Level, &str)]) -> super::Report {
        let findings = findings
            .iter()
            .enumerate()
            .map(|(i, &(level, fix))| super::Finding {
                tool: "search".into(),
                pointer: format!("/properties/p{i}/minimum"),
                message: format!("message {i}").into(),
                fix: fix.to_string().into(),
                repairable: true,
                file: "t.json".into(),
                subject: super::Subject::Schema,
                ..finding("keyword-unsupported", level)
            })
            .collect();
        super::Report {
            profile: "portable".into(),
            targets: vec!["openai/chat".into()],
            files: vec![super::FileSummary {
                file: "t.json".into(),
                format: "anthropic".into(),
                tools: 1,
                ..Default::default()
            }],
            findings,
            errors_only: false,
            warnings_hidden: 0,
            ignored: Vec::new(),
        }
    }

    /// The fix lines of human output, without their indentation.
    fn fix_lines(human: &str) -> Vec<&str> {
        human
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("fix: "))
            .collect()
    }

    /// The missing-evidence text is no fix: each warning refers to it, and it is printed once,
    /// after the counts; machines still get it on every finding.
    #[test]
    fn the_missing_evidence_text_is_printed_once_as_a_note() {
        use super::{Level, UNVERIFIED_FIX};
        let add_items = "Say what the array holds, e.g. \"items\": {\"type\": \"string\"}.";
        let report = report_of(&[
            (Level::Warning, UNVERIFIED_FIX),
            (Level::Error, add_items),
            (Level::Warning, UNVERIFIED_FIX),
        ]);
        let human = report.human();
        assert_eq!(human.matches(UNVERIFIED_FIX).count(), 1, "{human}");
        let short = "none yet (no evidence either way; see note [1] below)";
        assert_eq!(
            fix_lines(&human),
            [short, &format!("{add_items} (repairable)"), short]
        );
        let counts = human.find("Findings per rule:").unwrap();
        let note = human
            .find(&format!("Notes:\n  [1] {UNVERIFIED_FIX}\n"))
            .unwrap();
        assert!(counts < note, "{human}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&report.json()).unwrap()["findings"][2]["fix"],
            UNVERIFIED_FIX
        );
        let annotations = crate::report::github::render(&report.findings, |_| {
            crate::report::sarif::Site::default()
        });
        assert_eq!(annotations.matches("Nothing to fix yet").count(), 2);
    }

    /// JSON and SARIF say `repairable` as the human output marks it: whether `repair` changes
    /// the finding. A warning whose feature has a repair is left as written by `repair`, so it
    /// is not repairable there (before: `true` in JSON and SARIF, unmarked for people).
    #[test]
    fn machine_outputs_call_repairable_what_repair_changes() {
        use super::{Level, UNVERIFIED_FIX};
        let report = report_of(&[
            (Level::Warning, UNVERIFIED_FIX),
            (Level::Error, "Add `items`."),
        ]);
        let json: Vec<serde_json::Value> = report
            .findings
            .iter()
            .map(|f| serde_json::to_value(f).unwrap())
            .collect();
        assert_eq!(json[0]["repairable"], false);
        assert_eq!(json[1]["repairable"], true);
        let sarif = crate::report::sarif::to_value(
            &report.findings,
            |_| crate::report::sarif::Site::default(),
            |_| None,
        );
        let repairable: Vec<&serde_json::Value> = sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| &r["properties"]["repairable"])
            .collect();
        assert_eq!(repairable, [false, true], "{sarif}");
        assert_eq!(
            fix_lines(&report.human()),
            [
                "none yet (no evidence either way; see note [1] below)",
                "Add `items`. (repairable)"
            ]
        );
        // The one warning repair does change, a standard type in another case, is marked.
        let mut case = report.findings[0].clone();
        case.rule = "type-invalid".into();
        case.parameter = "type-spelling: Integer".into();
        assert_eq!(serde_json::to_value(&case).unwrap()["repairable"], true);
        case.parameter = "type-spelling: int".into();
        assert_eq!(serde_json::to_value(&case).unwrap()["repairable"], false);
    }

    /// A fix quoting the file's text (a tool name in a rename fix, a pattern) is escaped as
    /// the message above it is: a backslash doubled in both, a line break unable to start a
    /// line of its own; and so is a long fix printed once as a note.
    #[test]
    fn fix_lines_quote_values_as_the_message_does() {
        use super::Level;
        let quoted = "Rename `a\\k<t>\nerror   x` by hand.";
        let mut report = report_of(&[(Level::Error, quoted)]);
        report.findings[0].message = "`a\\k<t>\nerror   x` is taken".into();
        let human = report.human();
        assert!(
            human.contains("            `a\\\\k<t>\\nerror   x` is taken\n"),
            "{human}"
        );
        assert_eq!(
            fix_lines(&human),
            ["Rename `a\\\\k<t>\\nerror   x` by hand. (repairable)"]
        );
        let long = format!("{quoted} {}", "x".repeat(super::NOTE_MIN_CHARS));
        let human = report_of(&[(Level::Error, long.as_str()); super::NOTE_MIN_FINDINGS]).human();
        assert!(
            human.contains("  [1] Rename `a\\\\k<t>\\nerror   x`"),
            "{human}"
        );
        assert!(!human.contains("\nerror   x"), "{human}");
    }

    /// With no missing-evidence warning shown (`--errors-only`, or none made) there is no note.
    #[test]
    fn no_note_is_printed_for_findings_not_shown() {
        use super::{Level, UNVERIFIED_FIX};
        let mut report = report_of(&[
            (Level::Warning, UNVERIFIED_FIX),
            (Level::Error, "Add `items`."),
        ]);
        report.errors_only();
        let human = report.human();
        assert_eq!(fix_lines(&human), ["Add `items`. (repairable)"]);
        assert!(!human.contains("Notes:"), "{human}");
        assert!(!human.contains("note [1]"), "{human}");
        assert!(!human.contains(UNVERIFIED_FIX), "{human}");
    }

    /// Another long fix becomes a note only when enough findings share it; short ones, and
    /// long ones said once or twice, stay in place. Notes are numbered as first referred to.
    #[test]
    fn long_fixes_many_findings_share_become_notes() {
        use super::{Level, NOTE_MIN_CHARS, NOTE_MIN_FINDINGS, UNVERIFIED_FIX};
        let (long, rare) = (
            "Use a type every target accepts. ".repeat(4),
            "Remove it and say it in the description. ".repeat(3),
        );
        let (long, rare) = (long.as_str(), rare.as_str());
        assert!(long.chars().count() >= NOTE_MIN_CHARS && rare.len() >= NOTE_MIN_CHARS);
        let mut findings = vec![(Level::Error, long); NOTE_MIN_FINDINGS];
        findings.extend([(Level::Error, rare); NOTE_MIN_FINDINGS - 1]);
        findings.extend([(Level::Error, "Add `items`."); 10]);
        findings.push((Level::Warning, UNVERIFIED_FIX));
        let human = report_of(&findings).human();
        assert_eq!(human.matches(long).count(), 1, "{human}");
        assert_eq!(human.matches(rare).count(), NOTE_MIN_FINDINGS - 1);
        let lines = fix_lines(&human);
        assert_eq!(lines[0], "see note [1] below (repairable)");
        assert_eq!(
            lines.last().unwrap(),
            &"none yet (no evidence either way; see note [2] below)"
        );
        assert!(human.contains(&format!("Notes:\n  [1] {long}\n  [2] {UNVERIFIED_FIX}\n")));
        let mut fewer = findings.clone();
        fewer.remove(0);
        let human = report_of(&fewer).human();
        assert_eq!(
            human.matches(long).count(),
            NOTE_MIN_FINDINGS - 1,
            "{human}"
        );
    }

    #[test]
    fn a_tool_asking_for_strict_mode_is_not_counted_unformed_but_judged() {
        let text = r#"{"tools":[
            {"type":"function","function":{"name":"a","description":"A.","strict":true,"parameters":{"type":"object","properties":{"x":{"type":"string"}}}}},
            {"type":"function","function":{"name":"b","description":"B.","parameters":{"type":"object","properties":{"x":{"type":"string"}}}}}]}"#;
        let tools = crate::input::from_bytes(std::path::Path::new("t.json"), text.as_bytes())
            .unwrap()
            .tools;
        // Only `b` waits for compile; `a` is sent as written, and the rule says so.
        assert_eq!(super::unformed_tools("openai/chat-strict", &tools), 1);
        let set = crate::profile::embedded().unwrap();
        let profile = crate::profile::CompiledProfile::new(set.get("openai/chat-strict").unwrap());
        let refs: Vec<_> = tools.iter().map(|t| t.as_ref()).collect();
        let found: Vec<(usize, String)> = super::check_tools(&refs, &profile)
            .into_iter()
            .filter(|f| f.rule == "strict-form-missing")
            .map(|f| (f.tool_index, f.place()))
            .collect();
        assert_eq!(
            found,
            vec![(0, String::new()), (0, "/properties/x".to_string())]
        );
    }

    #[test]
    fn tools_asking_for_strict_mode_get_a_note_under_a_plain_profile_only() {
        let file = |strict, unformed| super::FileSummary {
            file: "t.json".into(),
            format: "openai-chat".into(),
            tools: 3,
            clean: 3,
            without_errors: 3,
            strict,
            unformed,
            ..Default::default()
        };
        let report = |profile: &str, files| super::Report {
            profile: profile.into(),
            targets: Vec::new(),
            files,
            findings: Vec::new(),
            errors_only: false,
            warnings_hidden: 0,
            ignored: Vec::new(),
        };
        assert_eq!(
            report("portable", vec![file(0, 0)]).strict_tools_note(),
            None
        );
        let two = report("portable", vec![file(1, 0), file(1, 0)]);
        let note = two.strict_tools_note().unwrap();
        assert!(note.starts_with("note: 2 tools ask for OpenAI's strict mode"));
        assert!(note.contains("OpenAI judges them"));
        assert!(note.contains("check judges their strict form (`strict-form-missing`"));
        assert!(two.human().ends_with(&format!("{note}\n")));
        // Anthropic's strict tool use has a note of its own, beside OpenAI's.
        assert_eq!(two.strict_tool_use_note(), None);
        let mut anthropic = vec![file(0, 0), file(0, 0)];
        anthropic[0].strict_tool_use = 1;
        anthropic[1].strict_tool_use = 2;
        let anthropic = report("portable", anthropic);
        let note = anthropic.strict_tool_use_note().unwrap();
        assert!(note.starts_with("note: 3 tools ask for strict tool use (Anthropic's"));
        assert!(note.ends_with("each is checked as a plain tool"), "{note}");
        assert!(anthropic.human().ends_with(&format!("{note}\n")));
        // Ignored, the rule judges nothing, and the note says so instead.
        let mut ignoring = report("portable", vec![file(1, 0)]);
        ignoring.ignored = vec!["strict-form-missing".into()];
        let note = ignoring.strict_tools_note().unwrap();
        assert!(!note.contains("check judges"), "{note}");
        assert!(note.contains("is not judged here (`--ignore strict-form-missing`)"));
        // A strict target's own note says it already; the two are never both printed.
        let strict = report("openai/chat-strict", vec![file(1, 1)]);
        assert_eq!(strict.human().matches("note:").count(), 1);
        assert!(strict.human().contains("also needs its strict form"));
        // Tools already in that strict form (compile's output for the target) need no word.
        let formed = report("openai/chat-strict", vec![file(1, 0)]);
        assert_eq!(
            formed.human().matches("note:").count(),
            0,
            "{}",
            formed.human()
        );
    }

    /// A JSON Lines line that cannot be read stopped the file's check, so the other lines'
    /// findings were lost; read strictly (`check_bytes`), it is still the file's error.
    #[test]
    fn a_bad_json_lines_line_leaves_the_others_checked() {
        let text = concat!(
            r#"{"name":"a","description":"d","parameters":{"type":"object","properties":{"s":{"type":"string"}}}}"#,
            "\nnot json at all\n",
            r#"{"name":"b","description":"d","parameters":{"type":"object","properties":{"xs":{"type":"array"}}}}"#,
            "\n"
        );
        let file = std::path::Path::new("t.jsonl");
        let portable = compiled_portable();
        let strict = super::check_bytes(file, text.as_bytes(), &portable).unwrap_err();
        assert!(
            strict
                .to_string()
                .starts_with("t.jsonl: line 2, column 2: "),
            "{strict}"
        );
        let mut bad = Vec::new();
        let (summary, findings) =
            super::check_bytes_with(file, text.as_bytes(), &portable, &mut |e| bad.push(e))
                .unwrap();
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].to_string(), strict.to_string());
        assert_eq!(summary.tools, 2);
        let items = findings
            .iter()
            .find(|f| f.rule == "array-items-missing")
            .expect("line 3 is checked");
        assert_eq!((items.line, items.tool_index), (Some(3), 1));
    }

    /// (pointer, rule) of each finding `check --target target` makes for one tool whose
    /// `parameters` are `schema`.
    fn findings_under(target: &str, schema: serde_json::Value) -> Vec<(String, String)> {
        let tool = serde_json::json!({"name": "f", "description": "F.", "parameters": schema});
        let set = crate::input::from_value(std::path::Path::new("t.json"), tool).unwrap();
        let profiles = crate::profile::embedded().unwrap();
        let profile = crate::profile::CompiledProfile::new(profiles.get(target).unwrap());
        super::check_set(&set, &profile)
            .into_iter()
            .map(|f| (f.pointer, f.rule.to_string()))
            .collect()
    }

    /// Draft 4-7's `dependencies` in its schema form (`dependentSchemas` before 2019-09) holds
    /// subschemas, which the crate `args` judges with runs under every draft: check reads
    /// them, and a problem inside one is reported at its place (it reported the keyword
    /// alone). The property form (a list of names) is no schema and is not read as one.
    #[test]
    fn check_reads_schema_form_dependencies_and_not_the_property_form() {
        let found = |schema| findings_under("gemini/v1beta/parameters", schema);
        let object = |dependencies| {
            serde_json::json!({"type": "object", "dependencies": dependencies,
                "properties": {"x": {"type": "string"}, "y": {"type": "string"}}})
        };
        let dependency = object(serde_json::json!({"x": ["y"],
            "y": {"properties": {"z": {"type": "array"}}}, "n": {"not": {"type": "array"}}}));
        assert_eq!(
            found(dependency),
            [
                ("/dependencies", "keyword-unsupported"),
                ("/dependencies/y/properties/z", "array-items-missing"),
                ("/dependencies/n/not", "keyword-unsupported"),
                ("/dependencies/n/not", "array-items-missing"),
            ]
            .map(|(p, r)| (p.to_string(), r.to_string()))
        );
        // A list of names is neither a schema without `type` nor a non-schema.
        assert_eq!(
            found(object(serde_json::json!({"x": ["y"], "y": ["x"]}))),
            [(
                "/dependencies".to_string(),
                "keyword-unsupported".to_string()
            )]
        );
    }

    /// `contentSchema` annotates a string's decoded content and asserts nothing of the
    /// arguments: check names the keyword (its fix removes it, and what it holds with it) and
    /// does not judge the schema inside as an argument's; a target that validates inside it
    /// (Anthropic's meta-schema) is answered by the meta-schema pass at the inner place.
    #[test]
    fn check_names_content_schema_and_does_not_judge_inside_it() {
        let schema = |inner: serde_json::Value| {
            serde_json::json!({"type": "object", "properties": {"p": {"type": "string",
                "contentSchema": {"type": "object", "properties": {"n": inner}}}}})
        };
        let pairs = |l: &[(&str, &str)]| -> Vec<(String, String)> {
            l.iter()
                .map(|(p, r)| (p.to_string(), r.to_string()))
                .collect()
        };
        assert_eq!(
            findings_under(
                "gemini/v1beta/parameters",
                schema(serde_json::json!({"type": "array"}))
            ),
            pairs(&[("/properties/p/contentSchema", "keyword-unsupported")])
        );
        assert_eq!(
            findings_under("anthropic/messages", schema(serde_json::json!({"type": 5}))),
            pairs(&[
                ("/properties/p/contentSchema", "keyword-unsupported"),
                (
                    "/properties/p/contentSchema/properties/n/type",
                    "meta-schema-invalid"
                ),
            ])
        );
    }
}
