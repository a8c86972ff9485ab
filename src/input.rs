//! Reading tool definitions in the shapes people keep them in, with the shape detected.
//!
//! Recognised (see [`Format`]): OpenAI Chat `tools` (`{"type":"function","function":{..}}`),
//! OpenAI Responses tools (flat `{"type":"function","name",..}`), Anthropic `tools`
//! (`input_schema`), an MCP `tools/list` result (`{"tools":[{.., "inputSchema"}]}`, bare or in
//! a JSON-RPC response), Gemini `functionDeclarations` (a Tool object, a list of them, or a
//! request), Bedrock `toolSpec` lists, a plain list of function declarations
//! (`{"name","description","parameters"}`), a bare JSON Schema, and JSON Lines of any of these
//! (one request per line, including the corpora line `{"source","license","tool"}`).
//! Request bodies (`{"tools": [...]}`, Gemini `generateContentRequest`, Bedrock `toolConfig`)
//! are unwrapped.
//!
//! Every file is read with [`crate::json`]'s caps; a file that is not JSON, has an unknown
//! shape, nests too deep, is too large or is not UTF-8 is an [`Error::Input`] naming the file
//! and the place (line and column, or line and JSON Pointer).

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::{Error, Place, Result};
use crate::json::duplicates::DuplicateKey;
use crate::json::{self, Limits};
use crate::profile::detect::ToolRef;

/// Caps for tool files: 16 MiB (the largest corpus file is 2.9 MB) and 512 levels of nesting.
pub const LIMITS: Limits = Limits {
    max_bytes: 16 * 1024 * 1024,
    max_depth: 512,
};

/// The shape a file was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// OpenAI Chat Completions `tools`: `{"type": "function", "function": {..}}`.
    OpenaiChat,
    /// OpenAI Responses API tools: flat `{"type": "function", "name", "parameters", ..}`.
    OpenaiResponses,
    /// Anthropic Messages `tools`: `{"name", "description", "input_schema"}`.
    Anthropic,
    /// An MCP `tools/list` result (`inputSchema`), bare or in its JSON-RPC response.
    McpToolsList,
    /// Gemini `functionDeclarations` (`parameters` or `parametersJsonSchema`).
    Gemini,
    /// Bedrock Converse `toolConfig.tools[].toolSpec`.
    Bedrock,
    /// A list of `{"name", "description", "parameters"}` (OpenAI's legacy `functions` too).
    Functions,
    /// A bare JSON Schema: one nameless tool's parameters.
    Schema,
    /// JSON Lines, one request per line ([`ToolSet::line_formats`] names their shapes).
    JsonLines,
}

impl Format {
    /// The name shown by `--show-format` and in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::OpenaiChat => "openai-chat",
            Format::OpenaiResponses => "openai-responses",
            Format::Anthropic => "anthropic",
            Format::McpToolsList => "mcp-tools-list",
            Format::Gemini => "gemini",
            Format::Bedrock => "bedrock",
            Format::Functions => "functions",
            Format::Schema => "schema",
            Format::JsonLines => "jsonl",
        }
    }

    /// One line describing the shape.
    pub fn describe(self) -> &'static str {
        match self {
            Format::OpenaiChat => {
                "OpenAI Chat Completions tools ({\"type\":\"function\",\"function\":{..}})"
            }
            Format::OpenaiResponses => {
                "OpenAI Responses tools (flat {\"type\":\"function\",\"name\",..})"
            }
            Format::Anthropic => "Anthropic tools (input_schema)",
            Format::McpToolsList => "MCP tools/list result (inputSchema)",
            Format::Gemini => "Gemini functionDeclarations",
            Format::Bedrock => "Bedrock Converse toolSpec",
            Format::Functions => {
                "function declarations ({\"name\",\"description\",\"parameters\"})"
            }
            Format::Schema => "a bare JSON Schema (one tool's parameters)",
            Format::JsonLines => "JSON Lines, one request per line",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One tool read from a file, owning its parts.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolEntry {
    /// `None` for a bare schema.
    pub name: Option<String>,
    /// The tool's description; `None` when it has none (or it is `null`).
    pub description: Option<String>,
    /// The parameters schema as written, whatever its JSON type (a `true`, a string or a
    /// list is kept for `check` to report); `None` when the tool declares none.
    pub parameters: Option<Value>,
    /// Position among all tools of the file (0-based).
    pub index: usize,
    /// Which request of the file it belongs to (each JSON Lines line is one request).
    pub request: usize,
    /// 1-based line for JSON Lines input.
    pub line: Option<usize>,
    /// JSON Pointer, within the document (or the line), of the tool's parameters schema
    /// (where it is, or would be when the tool declares none).
    pub schema_pointer: String,
    /// JSON Pointer, within the document (or the line), of the tool object that holds its
    /// `name`: Chat's `tools[i].function`, Bedrock's `toolSpec`, the declaration itself in the
    /// other shapes. `None` for a bare schema, which has no envelope. Findings about the tool
    /// rather than a place in its schema are located from it ([`ToolEntry::name_place`],
    /// [`ToolEntry::description_place`]).
    pub tool_pointer: Option<String>,
    /// OpenAI's `strict` flag (Chat Completions' `function.strict`, a Responses tool's
    /// `strict`, which is `true` when absent or `null`: its documented default); `None` when Chat's is
    /// absent, it is not a boolean, or the tool is in another provider's shape (whose strict
    /// modes toolwire does not model).
    pub strict: Option<bool>,
    /// The provider whose own `strict: true` the tool carries, when it is not OpenAI's
    /// (`"Anthropic"`: an Anthropic tool's `strict`; `"Bedrock Converse"`: a `toolSpec`'s
    /// `strict`): strict tool use, which constrains sampling to the schema and takes only a
    /// subset of JSON Schema (Anthropic: "JSON Schema limitations",
    /// <https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use>, read
    /// 2026-12-04; Bedrock: "Strict tool use",
    /// <https://docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html>, read
    /// 2026-12-04, which says a schema with features outside the subset is refused with a 400,
    /// and the Converse request body of evidence/PROVIDERS.md §9). toolwire
    /// does not model that subset: check says so in a note, and compile, whose request
    /// builders write no such flag, says it leaves it out.
    pub strict_tool_use: Option<&'static str>,
}

/// The target of the API whose own strict tool use `provider` names
/// ([`ToolEntry::strict_tool_use`]): the one route that reads that flag (`"Anthropic"`:
/// `anthropic/messages`, `"Bedrock Converse"`: `bedrock/converse`).
pub fn strict_tool_use_target(provider: &str) -> Option<&'static str> {
    match provider {
        "Anthropic" => Some("anthropic/messages"),
        "Bedrock Converse" => Some("bedrock/converse"),
        _ => None,
    }
}

impl ToolEntry {
    /// The borrowed form [`crate::check::check_tools`] takes.
    pub fn as_ref(&self) -> ToolRef<'_> {
        ToolRef {
            strict: self.strict == Some(true),
            name: self.name.as_deref(),
            description: self.description.as_deref(),
            parameters: self.parameters.as_ref(),
            index: self.index,
            required_schema_key: self.required_schema_key(),
        }
    }

    /// The JSON Pointer of the tool's `name` key in two parts (the tool object's pointer,
    /// `/name`), for a caller that writes it into its own buffer; `None` for a bare schema.
    pub fn name_place(&self) -> Option<(&str, &'static str)> {
        Some((self.tool_pointer.as_deref()?, "/name"))
    }

    /// The JSON Pointer, within the document (or the JSON Lines line), of the tool list the
    /// tool is in: where a finding about the request as a whole (too many tools) is located.
    /// `/tools` for OpenAI, Anthropic, MCP (`/result/tools`) and Gemini (whose request's
    /// declarations are spread over the `tools` entries' `functionDeclarations`),
    /// `/toolConfig/tools` for Bedrock, `""` for a top-level list; a tool that stands alone (a
    /// flat tool, a corpus line's `tool`) is its own list, and a bare schema is at the root.
    /// Derived from [`ToolEntry::tool_pointer`], whose segments are the reader's own (list
    /// positions and envelope keys, never a name from the file).
    pub fn list_pointer(&self) -> &str {
        let Some(tool) = self.tool_pointer.as_deref() else {
            return "";
        };
        // Chat's `function` and Bedrock's `toolSpec` wrap the tool object in the list's item.
        let item = tool
            .strip_suffix("/function")
            .or_else(|| tool.strip_suffix("/toolSpec"))
            .unwrap_or(tool);
        let numbered = |p: &str| -> Option<usize> {
            let (list, last) = p.rsplit_once('/')?;
            (!last.is_empty() && last.bytes().all(|b| b.is_ascii_digit())).then_some(list.len())
        };
        let Some(end) = numbered(item) else {
            return item;
        };
        let list = &item[..end];
        // A Gemini `Tool` of a `tools` list holds declarations: the request's list is `tools`.
        for key in ["/functionDeclarations", "/function_declarations"] {
            if let Some(gemini_tool) = list.strip_suffix(key)
                && let Some(end) = numbered(gemini_tool)
            {
                return &gemini_tool[..end];
            }
        }
        list
    }

    /// The field of a Gemini `functionDeclarations` entry that holds the tool's schema, as
    /// the request sends it: `parameters` (Gemini's OpenAPI subset) or `parametersJsonSchema`
    /// (JSON Schema, also for its snake-case spelling); `None` for a tool of another shape or
    /// one with no schema. Read from [`ToolEntry::schema_pointer`], whose segments are the
    /// reader's own keys.
    pub fn gemini_schema_field(&self) -> Option<&'static str> {
        self.parameters.as_ref()?;
        // The last segment read by its suffix (a key holds no `/`), and the one before it by a
        // byte search: a `char` search from the end cost ~190 instructions a tool, whose
        // check reads this once.
        let pointer = self.schema_pointer.as_str();
        if pointer.ends_with("/parametersJsonSchema")
            || pointer.ends_with("/parameters_json_schema")
        {
            return Some("parametersJsonSchema");
        }
        // `parameters` is also OpenAI's and a bare function list's key: only a declaration of
        // a `functionDeclarations` list is Gemini's.
        let holder = pointer.strip_suffix("/parameters")?;
        let list = &holder[..holder.bytes().rposition(|b| b == b'/')?];
        (list.ends_with("/functionDeclarations") || list.ends_with("/function_declarations"))
            .then_some("parameters")
    }

    /// The key the tool's shape requires its schema under, as a report names it: `input_schema`
    /// (Anthropic's Messages API lists it as required for a custom tool), `inputSchema` (MCP's
    /// `Tool` requires it in the specification's schema) or `toolSpec.inputSchema` (Bedrock
    /// Converse's `ToolSpecification`: the SDKs make it required, holding the schema as
    /// `{"json": ..}`, where only `description` is optional). `None` where the schema may be
    /// left out: OpenAI's `parameters` (Chat Completions' reference: "Omitting `parameters`
    /// defines a function with an empty parameter list"; a Responses tool's is read the same
    /// way, though its SDK types make the key required but nullable), Gemini's declarations
    /// and a bare function list, and a bare schema, which has no envelope. Read from
    /// [`ToolEntry::schema_pointer`], whose segments are the reader's own keys.
    pub fn required_schema_key(&self) -> Option<&'static str> {
        // The last segment, compared by suffix: asked for every tool `check` reads, and a
        // reverse search for the `/` cost more than the rest of making the tool's `ToolRef`.
        let p = self.schema_pointer.as_str();
        if p.ends_with("/toolSpec/inputSchema/json") {
            Some("toolSpec.inputSchema")
        } else if p.ends_with("/input_schema") {
            Some("input_schema")
        } else if p.ends_with("/inputSchema") {
            Some("inputSchema")
        } else {
            None
        }
    }

    /// The JSON Pointer of the tool's `description` key in two parts (the tool object's
    /// pointer, then `/description`, or nothing when the tool has no description: the tool
    /// object itself); `None` for a bare schema.
    pub fn description_place(&self) -> Option<(&str, &'static str)> {
        let key = if self.description.is_some() {
            "/description"
        } else {
            ""
        };
        Some((self.tool_pointer.as_deref()?, key))
    }
}

/// A provider's built-in tool in a request's tool list, e.g. Anthropic's `{"type":
/// "web_search_20250305", "name": "web_search"}`, OpenAI's `{"type": "web_search"}` or its
/// free-form `custom` tool, Bedrock's `cachePoint` (see `anthropic_builtin`,
/// `openai_builtin`, [`bedrock_cache_point`]). It carries no JSON Schema, so it is no
/// [`ToolEntry`] and nothing checks it; it is kept because a named one shares the request's
/// tool names with the function tools, and so that `compile` can pass it through as written.
/// Gemini's built-in entries (`googleSearch`) are kept too, but take no tool number.
#[derive(Debug, Clone, PartialEq)]
pub struct BuiltinTool {
    /// Its `name` (or Chat's `custom.name`); `None` for one without (`web_search`).
    pub name: Option<String>,
    /// Its `type`, e.g. `web_search_20250305` or `custom`.
    pub kind: String,
    /// Its position among all tools of the file (0-based), as a [`ToolEntry::index`]; a
    /// Gemini entry, which takes no number, has the next function declaration's.
    pub index: usize,
    /// Which request of the file it belongs to, as [`ToolEntry::request`].
    pub request: usize,
    /// The tool object as written.
    pub value: Value,
}

/// The tools of one file.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSet {
    /// The label given to the reader (a path, or any label for an in-memory value): errors
    /// and findings name it.
    pub file: PathBuf,
    /// The shape detected.
    pub format: Format,
    /// For JSON Lines: the shapes of the lines, each once, in the order met (empty otherwise).
    pub line_formats: Vec<Format>,
    /// The function tools, in input order; empty when the input holds none
    /// ([`require_tools`] refuses that).
    pub tools: Vec<ToolEntry>,
    /// The built-in tools, in input order (not among `tools`).
    pub builtins: Vec<BuiltinTool>,
    /// For JSON Lines: the lines (1-based) whose document holds no tool at all (`[]`,
    /// `{"tools": []}`), which commands say they passed over.
    pub empty_lines: Vec<usize>,
    /// Object keys written twice, of which only the last value was read.
    pub duplicate_keys: Vec<DuplicateKey>,
    /// Numbers read as another value than written ([`json::inexact_numbers`]).
    pub inexact_numbers: Vec<json::InexactNumberAt>,
}

/// How a file's format is named in output: `anthropic`, `jsonl of anthropic`, or for JSON
/// Lines whose lines differ in shape `jsonl (mixed: anthropic, openai-chat)`.
pub fn format_label(format: Format, line_formats: &[Format]) -> String {
    match line_formats {
        [] => format.to_string(),
        [one] => format!("{format} of {one}"),
        many => {
            let names: Vec<&str> = many.iter().map(|f| f.as_str()).collect();
            format!("{format} (mixed: {})", names.join(", "))
        }
    }
}

impl ToolSet {
    /// The file's format as [`format_label`] names it.
    pub fn format_label(&self) -> String {
        format_label(self.format, &self.line_formats)
    }

    /// The tools grouped by request, in order.
    pub fn requests(&self) -> impl Iterator<Item = &[ToolEntry]> {
        self.tools.chunk_by(|a, b| a.request == b.request)
    }

    /// The number ([`ToolEntry::index`]) of request `request`'s first tool, function or
    /// built-in (the two are numbered in one run): a tool's place in its request is its number
    /// less this. 0 for a request with no tool.
    pub fn first_index(&self, request: usize) -> usize {
        let start = self.tools.partition_point(|t| t.request < request);
        let tool = self.tools.get(start).filter(|t| t.request == request);
        let builtin = self.builtins_of(request).first();
        (tool.map(|t| t.index).into_iter())
            .chain(builtin.map(|b| b.index))
            .min()
            .unwrap_or(0)
    }

    /// The built-in tools of request `request` (a [`ToolEntry::request`]).
    pub fn builtins_of(&self, request: usize) -> &[BuiltinTool] {
        builtins_of(&self.builtins, request)
    }

    /// Treats every tool as part of one request (`--one-request`).
    pub fn merge_requests(&mut self) {
        for t in &mut self.tools {
            t.request = 0;
        }
        for b in &mut self.builtins {
            b.request = 0;
        }
    }
}

/// The part of `builtins` (in input order) that belongs to request `request`.
pub fn builtins_of(builtins: &[BuiltinTool], request: usize) -> &[BuiltinTool] {
    let start = builtins.partition_point(|b| b.request < request);
    let end = builtins.partition_point(|b| b.request <= request);
    &builtins[start..end]
}

/// Reads and parses a tool file with the caps of [`LIMITS`].
pub fn read_file(path: &Path) -> Result<ToolSet> {
    let bytes = json::read_capped(path, LIMITS)?;
    from_bytes(path, &bytes)
}

/// Refuses `set`, read from `bytes` of `file`, when a tool's schema holds a number serde_json
/// reads as another value ([`json::refuse_inexact`]), for `command`, which writes every schema
/// anew (`compile`).
///
/// Errors: an [`Error::Input`] naming the first such number and its line (JSON Lines) and
/// place.
pub fn refuse_inexact_schemas(
    file: &Path,
    bytes: &[u8],
    set: &ToolSet,
    command: &str,
) -> Result<()> {
    let text = json::check_utf8(file, bytes)?;
    let schemas = |line: Option<usize>| -> Vec<&str> {
        set.tools
            .iter()
            .filter(|t| t.line == line)
            .map(|t| t.schema_pointer.as_str())
            .collect()
    };
    if set.format != Format::JsonLines {
        return json::refuse_inexact(file, None, text, &schemas(None), command);
    }
    for (i, line) in text.lines().enumerate() {
        // Most lines hold no number past 64 bits: the tools are looked up only then.
        if !json::inexact_numbers(line).is_empty() {
            json::refuse_inexact(file, Some(i + 1), line, &schemas(Some(i + 1)), command)?;
        }
    }
    Ok(())
}

/// Parses tool definitions from bytes. `file` names the source in errors. A file ending in
/// `.jsonl` or `.ndjson` is JSON Lines; otherwise JSON Lines is recognised when the text is not
/// one JSON document but its first line is.
pub fn from_bytes(file: &Path, bytes: &[u8]) -> Result<ToolSet> {
    let text = json::check_utf8(file, bytes)?;
    if named_json_lines(file) {
        return json_lines(file, text).map_err(|e| one_document_hint(file, text, e));
    }
    match one_document(file, text)? {
        Some(set) => Ok(set),
        None => json_lines(file, text),
    }
}

/// Whether `file` is named as JSON Lines (`.jsonl`, `.ndjson`).
fn named_json_lines(file: &Path) -> bool {
    file.extension()
        .is_some_and(|e| e == "jsonl" || e == "ndjson")
}

/// `e`, an error of `text` read as JSON Lines, with a word on why it was read so when it is
/// about the first line, `file` is named as JSON Lines and `text` parses as one JSON
/// document: a pretty-printed document named `.jsonl` fails at its first line (`[` alone is
/// no document), in words that do not say the name chose the reading. The whole text is
/// parsed only here, on the way out with an error.
fn one_document_hint(file: &Path, text: &str, e: Error) -> Error {
    let Error::Input {
        file: name,
        place: place @ Place::LineColumn { line, .. },
        mut problem,
    } = e
    else {
        return e;
    };
    let first = text
        .lines()
        .position(|l| !l.trim().is_empty())
        .map(|i| i + 1);
    if first == Some(line)
        && let Some(extension) = file.extension().filter(|_| named_json_lines(file))
        && json::parse_str(file, text, LIMITS, 0).is_ok()
    {
        problem.push_str(&format!(
            " (read as JSON Lines, one request per line, because of its `.{}` name; the \
             file parses as one JSON document: name it `.json`, or write each request on one \
             line)",
            extension.to_string_lossy()
        ));
    }
    Error::Input {
        file: name,
        place,
        problem,
    }
}

/// `text` read as one JSON document; `None` when it is not one but looks like JSON Lines
/// ([`looks_like_json_lines`]), else the document's error.
fn one_document(file: &Path, text: &str) -> Result<Option<ToolSet>> {
    match json::parse_str_counting(file, text, LIMITS, 0) {
        Ok((value, twice)) => {
            let keys = if twice > 0 {
                json::duplicates::locate(text)
            } else {
                Vec::new()
            };
            let mut set = read_value(file, value, &keys)?;
            set.duplicate_keys = keys;
            if json::duplicates::Counting::take_floats() {
                set.inexact_numbers = json::InexactNumberAt::all_in(text, None);
            }
            Ok(Some(set))
        }
        Err(_) if looks_like_json_lines(file, text) => Ok(None),
        Err(e) => Err(e),
    }
}

fn looks_like_json_lines(file: &Path, text: &str) -> bool {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let (Some(first), Some(_)) = (lines.next(), lines.next()) else {
        return false;
    };
    json::parse_str(file, first, LIMITS, 0).is_ok()
}

fn json_lines(file: &Path, text: &str) -> Result<ToolSet> {
    let mut tools = Vec::new();
    let mut builtins = Vec::new();
    let lines = json_lines_each(file, text, None, &mut |batch, named| {
        tools.append(batch);
        builtins.append(named);
    })?;
    Ok(ToolSet {
        file: file.to_path_buf(),
        format: Format::JsonLines,
        line_formats: lines.formats,
        tools,
        builtins,
        empty_lines: lines.empty,
        duplicate_keys: lines.duplicate_keys,
        inexact_numbers: lines.inexact_numbers,
    })
}

/// What reading JSON Lines finds besides the tools.
struct LinesRead {
    /// The lines' formats, each once, in the order met.
    formats: Vec<Format>,
    /// Lines (1-based) whose document holds no tool.
    empty: Vec<usize>,
    /// Keys written twice, with their lines.
    duplicate_keys: Vec<DuplicateKey>,
    /// Numbers read as another value, with their lines.
    inexact_numbers: Vec<json::InexactNumberAt>,
}

/// How many unreadable JSON Lines lines [`for_each_request`] reports one by one; past them it
/// says how many more there were. A file of another kind named `.jsonl` (a log, YAML) would
/// otherwise make an error per line.
pub const BAD_LINES_SHOWN: usize = 100;

/// The lines of a JSON Lines file read leniently that could not be read.
#[derive(Default)]
struct BadLines {
    /// The first [`BAD_LINES_SHOWN`] lines' errors, in line order.
    shown: Vec<Error>,
    /// How many more lines could not be read.
    more: usize,
    /// Whether a bad line is passed over only once an earlier line held a tool: so for a
    /// file recognised as JSON Lines by its content alone, whose first line being JSON says
    /// little (a JSON log, one object and then YAML). Until a tool is read, the file is as
    /// likely not JSON Lines at all, and its first bad line is the file's error, as when
    /// read strictly, rather than one of hundreds.
    after_a_tool: bool,
}

impl BadLines {
    fn push(&mut self, e: Error) {
        if self.shown.len() < BAD_LINES_SHOWN {
            self.shown.push(e);
        } else {
            self.more += 1;
        }
    }
}

/// Whether `e` is a cap's refusal (nesting), which stops reading the whole file even when
/// other lines' errors are passed over: the caps bound what any reading costs, and a file
/// past them is refused whole, as every command refuses it.
fn past_a_cap(e: &Error) -> bool {
    matches!(e, Error::Input { problem, .. } if *problem == json::too_deep_problem(LIMITS.max_depth))
}

/// What [`for_each_request`] read besides the tools it handed over.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The file's format.
    pub format: Format,
    /// For JSON Lines, the lines' formats, as [`ToolSet::line_formats`].
    pub line_formats: Vec<Format>,
    /// The function tools read (built-in tools not counted).
    pub tools: usize,
    /// For JSON Lines, the lines that hold no tool, as [`ToolSet::empty_lines`].
    pub empty_lines: Vec<usize>,
    /// Keys written twice, as [`ToolSet::duplicate_keys`].
    pub duplicate_keys: Vec<DuplicateKey>,
    /// Numbers read as another value, as [`ToolSet::inexact_numbers`].
    pub inexact_numbers: Vec<json::InexactNumberAt>,
    /// For JSON Lines read leniently, how many lines could not be read: every one, not only
    /// the [`BAD_LINES_SHOWN`] handed over one by one.
    pub unreadable_lines: usize,
}

/// Reads JSON Lines, handing each line's tools (one request) to `each` as soon as the line is
/// read, which may take them (with the line's built-in tools); a line's tools share their
/// `request` (the line number) and tool indexes count across lines. Returns the lines'
/// formats, each once, in the order met, and the lines that hold no tool. One line at a
/// time, not a batch: a line's values
/// are then dropped before the next line is parsed, so the allocator hands the same memory
/// out again (batches of 64 lines cost reading 10% more, by callgrind over the corpora).
///
/// With `bad` (check's reading), a line that is not JSON or no known shape is recorded there
/// and skipped, as if it held no tool but without being listed among the empty lines; a
/// line past the nesting cap ([`past_a_cap`]) is still an error for the whole file, and so
/// is a bad line before any line held a tool under [`BadLines::after_a_tool`]. Without
/// it, the first such line is the error.
fn json_lines_each(
    file: &Path,
    text: &str,
    mut bad: Option<&mut BadLines>,
    each: &mut dyn FnMut(&mut Vec<ToolEntry>, &mut Vec<BuiltinTool>),
) -> Result<LinesRead> {
    let mut line_formats = Vec::new();
    let mut empty = Vec::new();
    let mut duplicate_keys = Vec::new();
    let mut inexact_numbers = Vec::new();
    let mut tools = Vec::new();
    let mut builtins = Vec::new();
    let mut next_index = 0;
    let mut read_a_tool = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let number = i + 1;
        let read = parse_line(file, line, i).and_then(|(value, twice)| {
            // Taken before anything else is parsed: the flag is the parser's, per thread.
            let floats = json::duplicates::Counting::take_floats();
            let keys = if twice > 0 {
                json::duplicates::locate(line)
            } else {
                Vec::new()
            };
            let mut reader = Reader {
                file,
                line: Some(number),
                tools: &mut tools,
                builtins: &mut builtins,
                request: number,
                next_index,
            };
            let format = read_twice(value, &keys, |v| reader.document(v)).map_err(
                |(pointer, problem)| {
                    Error::input(
                        file,
                        Place::LinePointer {
                            line: number,
                            pointer,
                        },
                        problem,
                    )
                },
            )?;
            next_index = reader.next_index;
            Ok((format, keys, floats))
        });
        let (format, keys, floats) = match read {
            Ok(read) => read,
            Err(e) => match bad.as_deref_mut() {
                Some(bad) if !past_a_cap(&e) && (read_a_tool || !bad.after_a_tool) => {
                    // The tools read before the problem in the line are not a request.
                    tools.clear();
                    builtins.clear();
                    bad.push(e);
                    continue;
                }
                _ => return Err(e),
            },
        };
        duplicate_keys.extend(keys.into_iter().map(|d| DuplicateKey {
            line: Some(number),
            ..d
        }));
        if floats {
            inexact_numbers.extend(json::InexactNumberAt::all_in(line, Some(number)));
        }
        if !tools.is_empty() || !builtins.is_empty() {
            // A line with no tool (`{"tools": []}`) has no shape to name: read as one, it
            // made a file of one shape "mixed".
            if !line_formats.contains(&format) {
                line_formats.push(format);
            }
            each(&mut tools, &mut builtins);
            tools.clear();
            builtins.clear();
            read_a_tool = true;
        } else {
            empty.push(number);
        }
    }
    Ok(LinesRead {
        formats: line_formats,
        empty,
        duplicate_keys,
        inexact_numbers,
    })
}

/// Reads a tool file a request at a time, handing its tools to `each` (grouped by
/// request, in order: see [`ToolSet::requests`]), with the same requests' built-in tools
/// ([`ToolSet::builtins`]), and dropping them afterwards, so that a large JSON Lines corpus is
/// checked in bounded memory. Returns the file's format (and for JSON Lines the lines'
/// formats, as [`ToolSet::line_formats`]) and the number of tools. A file that holds no tool
/// at all, function or built-in, is an error ([`no_tools`]), as it is for [`require_tools`].
///
/// JSON Lines is read line by line, and a line that is not JSON or not a known shape does
/// not stop it: the other lines' tools are still handed to `each`, and once the file is read
/// each such line's error ([`Error::Input`] at its line and column or pointer) goes to
/// `bad_line`, in line order, the first [`BAD_LINES_SHOWN`] of them, then one at
/// [`Place::File`] saying how many more there were. A bad line must not hide what the others
/// hold (`check` reports both). That holds from the first line for a file named `.jsonl` or
/// `.ndjson`; a file recognised as JSON Lines by its content (standard input too) is read so
/// only once a line has held a tool ([`BadLines::after_a_tool`]); in a file named so, a line
/// that is not UTF-8 is a bad line too (trial 49 D7: one such line lost every other line's
/// findings). Still errors for the whole file, with nothing handed to `bad_line`: bytes that
/// are not UTF-8 in any other file (or a file in UTF-16 or UTF-32), a line nested past the
/// cap, a bad line of a file recognised by content before any line held a tool, and a file
/// where no line holds a tool while some line is bad (its first bad line's error, as if it
/// were read strictly). Any other file is one document, whose error is the file's.
pub fn for_each_request(
    file: &Path,
    bytes: &[u8],
    each: &mut dyn FnMut(&[ToolEntry], &[BuiltinTool]),
    bad_line: &mut dyn FnMut(Error),
) -> Result<Read> {
    let by_name = named_json_lines(file);
    let mut not_utf8 = Vec::new();
    let utf8_lines;
    // The file's own UTF-8 error, for a file none of whose lines holds a tool.
    let mut whole = None;
    let text = match json::check_utf8(file, bytes) {
        Ok(text) => text,
        Err(e) if by_name && json::wide_encoding(bytes).is_none() => {
            utf8_lines = utf8_lines_only(file, bytes, &mut not_utf8);
            if utf8_lines.trim().is_empty() {
                return Err(e);
            }
            whole = Some(e);
            &utf8_lines
        }
        Err(e) => return Err(e),
    };
    if !by_name && let Some(set) = one_document(file, text)? {
        require_tools(&set)?;
        each(&set.tools, &set.builtins);
        return Ok(Read {
            format: set.format,
            line_formats: set.line_formats,
            tools: set.tools.len(),
            empty_lines: set.empty_lines,
            duplicate_keys: set.duplicate_keys,
            inexact_numbers: set.inexact_numbers,
            unreadable_lines: 0,
        });
    }
    let mut count = 0;
    let mut builtins_seen = false;
    let mut bad = BadLines {
        after_a_tool: !by_name,
        ..BadLines::default()
    };
    let inner = json_lines_each(file, text, Some(&mut bad), &mut |tools, builtins| {
        count += tools.len();
        builtins_seen |= !builtins.is_empty();
        each(tools, builtins);
    })
    .map_err(|e| one_document_hint(file, text, e))?;
    if count == 0 && !builtins_seen {
        // Refused whole, as a file of no tool is, at its first bad line whichever kind it
        // is (trial 50 D4: a line that was no JSON before the one that was no UTF-8 was lost).
        if let Some(e) = whole {
            let first_bad = bad.shown.first().map_or(usize::MAX, line_of);
            if not_utf8.first().map_or(usize::MAX, line_of) < first_bad {
                return Err(e);
            }
            return Err(one_document_hint(file, text, bad.shown.remove(0)));
        }
        return Err(bad.shown.into_iter().next().map_or_else(
            || no_tools_given(file, &inner.duplicate_keys),
            |e| one_document_hint(file, text, e),
        ));
    }
    if !not_utf8.is_empty() {
        // In line order with the lines that are no JSON.
        let mut all: Vec<Error> = not_utf8;
        all.append(&mut bad.shown);
        all.sort_by_key(line_of);
        let shown_before = all.len().min(BAD_LINES_SHOWN);
        bad.more += all.len() - shown_before;
        all.truncate(BAD_LINES_SHOWN);
        bad.shown = all;
    }
    let unreadable_lines = bad.shown.len() + bad.more;
    for e in bad.shown {
        bad_line(e);
    }
    if bad.more > 0 {
        let lines = if bad.more == 1 { "line" } else { "lines" };
        bad_line(Error::input(
            file,
            Place::File,
            format!(
                "{} more {lines} could not be read (only the first {BAD_LINES_SHOWN} are \
                 reported)",
                bad.more
            ),
        ));
    }
    Ok(Read {
        format: Format::JsonLines,
        line_formats: inner.formats,
        tools: count,
        empty_lines: inner.empty,
        duplicate_keys: inner.duplicate_keys,
        inexact_numbers: inner.inexact_numbers,
        unreadable_lines,
    })
}

/// `bytes` (a JSON Lines file that is not all UTF-8) with each line that is not UTF-8 left
/// empty, so that the other lines keep their numbers; each such line's error, naming its
/// line and column, goes to `errors`. A leading byte order mark is dropped, as
/// [`json::check_utf8`] drops it.
fn utf8_lines_only(file: &Path, bytes: &[u8], errors: &mut Vec<Error>) -> String {
    let bytes = bytes.strip_prefix(json::BOM.as_bytes()).unwrap_or(bytes);
    let mut text = String::with_capacity(bytes.len());
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        match std::str::from_utf8(line) {
            Ok(line) => text.push_str(line),
            Err(e) => {
                let (_, column) = json::line_column(line, e.valid_up_to());
                errors.push(Error::input(
                    file,
                    Place::LineColumn {
                        line: i + 1,
                        column,
                    },
                    "invalid UTF-8 (the line must be UTF-8 text)",
                ));
            }
        }
        text.push('\n');
    }
    text
}

/// The line an error of a JSON Lines file names (0 for the file as a whole).
fn line_of(e: &Error) -> usize {
    match e {
        Error::Input {
            place: Place::LineColumn { line, .. } | Place::LinePointer { line, .. },
            ..
        } => *line,
        _ => 0,
    }
}

/// How the error for a Chat Completions tool whose `type` beside `function` is not
/// `"function"` begins: `explain --request` reads such a request all the same, as it is the
/// one a provider refused for that `type` (trial 50 D17).
pub const TOOL_TYPE_NOT_FUNCTION: &str = "the tool's `type` is ";

/// The error for a file that holds no tool at all: an empty tool list (`[]`, `{"tools": []}`,
/// an MCP `tools/list` result with none), or JSON Lines whose every line has an empty list.
/// Bad input (exit 2), as an empty file or `{}` is: a command that was given tools to check,
/// repair or compile and found none was most likely given the wrong file (a CI glob that
/// matched the wrong files), and must not pass as if every tool were clean. A file of
/// built-in tools only (`[{"type": "web_search"}]`) is not this: those are tools, which
/// carry no schema.
pub fn no_tools(file: &Path) -> Error {
    Error::input(file, Place::File, "no tools found (the tool list is empty)")
}

/// The keys that hold a tool list, whose value written twice is named when the last holds no
/// tool ([`empty_list_written_twice`], [`read_twice`]).
const TOOL_LISTS: [&str; 4] = [
    "tools",
    "functions",
    "functionDeclarations",
    "function_declarations",
];

/// [`no_tools`] for a file whose `keys` are written twice: where a key that holds a tool list
/// is among them (`{"tools": [{...}], "tools": []}`), the error is at that key and says that
/// only its last value, which holds no tool, was read, since the duplicate note commands give
/// is never reached (before: "the tool list is empty", hiding the tool written first).
fn no_tools_given(file: &Path, keys: &[DuplicateKey]) -> Error {
    empty_list_written_twice(file, keys).unwrap_or_else(|| no_tools(file))
}

/// The error of [`no_tools_given`] when a tool list's key is among `keys`, the keys of `file`
/// written twice; `None` when none is. For a reader that words a file without tools its own
/// way (`args --schema`).
pub fn empty_list_written_twice(file: &Path, keys: &[DuplicateKey]) -> Option<Error> {
    let d = keys.iter().find(|d| TOOL_LISTS.contains(&d.key.as_str()))?;
    let pointer = format!("{}/{}", d.pointer, d.key);
    let place = match d.line {
        Some(line) => Place::LinePointer { line, pointer },
        None => Place::Pointer(pointer),
    };
    Some(Error::input(file, place, written_twice(&d.key, "empty")))
}

/// The problem of a tool list's key `key` written twice, its last value (the tool list is
/// `found`: `empty`, `a JSON null`) holding no tool.
fn written_twice(key: &str, found: &str) -> String {
    format!(
        "no tools found (the tool list is {found}): the key `{key}` is written more than once, \
         and only its last value, which holds none, was read (most JSON parsers keep the last, \
         but a provider's may keep the first or refuse the request): write it once"
    )
}

/// `read` of `value`, a document whose `keys` are written twice, with an error at a tool
/// list's key written twice whose last value holds no tool and is no list (`null`, `{}`, a
/// string) worded as [`written_twice`]: the list written first is hidden, and the error
/// alone ("expected a list of tools, found a JSON null"; for `{}`, advice to write the tool in
/// a list) does not say why (trial 46 D7). An empty list is read without error, and
/// [`no_tools_given`] names it.
fn read_twice<T>(
    value: Value,
    keys: &[DuplicateKey],
    read: impl FnOnce(Value) -> std::result::Result<T, Problem>,
) -> std::result::Result<T, Problem> {
    // Looked up before reading takes the document.
    let lasts: Vec<(String, &str, &str)> = keys
        .iter()
        .filter(|d| TOOL_LISTS.contains(&d.key.as_str()))
        .filter_map(|d| {
            let at = format!("{}/{}", d.pointer, d.key);
            let found = match value.pointer(&at)? {
                Value::Array(_) => return None,
                Value::Object(m) if !m.is_empty() => return None,
                Value::Object(_) => "an empty object",
                Value::Null => "a JSON null",
                Value::Bool(_) => "a JSON boolean",
                Value::Number(_) => "a JSON number",
                Value::String(_) => "a JSON string",
            };
            Some((at, d.key.as_str(), found))
        })
        .collect();
    read(value).map_err(
        |(pointer, problem)| match lasts.iter().find(|(at, ..)| *at == pointer) {
            Some((_, key, found)) => (pointer, written_twice(key, found)),
            None => (pointer, problem),
        },
    )
}

/// `Ok` when `set` holds a tool, function or built-in; else [`no_tools`] (naming a tool
/// list's key written twice, where there is one).
pub fn require_tools(set: &ToolSet) -> Result<()> {
    if set.tools.is_empty() && set.builtins.is_empty() {
        return Err(no_tools_given(&set.file, &set.duplicate_keys));
    }
    Ok(())
}

/// Parses one JSON Lines line. A line with no more brackets than the nesting cap cannot nest
/// past it, so the bracket scan of [`json::parse_str`] is skipped (counting bytes is cheaper
/// than tracking strings); anything else, and every error, goes through `parse_str` so that
/// the caps and the messages are the same.
fn parse_line(file: &Path, line: &str, offset: usize) -> Result<(Value, usize)> {
    if opening_brackets(line.as_bytes()) <= LIMITS.max_depth {
        let mut de = serde_json::Deserializer::from_str(line);
        de.disable_recursion_limit();
        json::duplicates::Counting::take();
        json::duplicates::Counting::take_floats();
        let parsed = serde::de::DeserializeSeed::deserialize(json::duplicates::Counting, &mut de)
            .and_then(|v: Value| de.end().map(|()| v));
        if let Ok(v) = parsed {
            return Ok((v, json::duplicates::Counting::take()));
        }
    }
    json::parse_str_counting(file, line, LIMITS, offset)
}

/// How many `[` and `{` bytes `bytes` holds (inside strings too: an upper bound on nesting).
/// `b | 0x20 == b'{'` holds for exactly `[` (0x5B) and `{` (0x7B); counting in byte-wide lanes
/// over blocks of 255 lets the compiler use the full vector width.
pub fn opening_brackets(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|block| {
            block
                .iter()
                .fold(0u8, |n, &b| n + u8::from(b | 0x20 == b'{')) as usize
        })
        .sum()
}

/// Reads tool definitions from a document already in memory (built in code, or parsed by the
/// caller), in any shape [`from_bytes`] reads. `file` only labels the source in errors
/// (`{file}: at {pointer}: {problem}`); for in-memory data any label works (`Path::new("tools")`).
///
/// The value is held to the nesting cap files are ([`LIMITS`]`.max_depth`, brackets
/// counted): deeper, it is an [`Error::Input`] at the JSON Pointer of the first array or
/// object past the cap, "nesting deeper than 512 levels", so that no later step (check,
/// repair, compile) recurses past what a 2 MiB thread holds.
///
/// Every shape of [`Format`] reads into the same [`ToolEntry`]s:
///
/// ```
/// use serde_json::json;
/// use std::path::Path;
/// use toolwire::input::{Format, from_value};
///
/// let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
/// for (doc, format) in [
///     (json!({"tools": [{"type": "function",
///         "function": {"name": "search", "parameters": schema}}]}), Format::OpenaiChat),
///     (json!([{"name": "search", "input_schema": schema}]), Format::Anthropic),
///     (json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
///         {"name": "search", "inputSchema": schema}]}}), Format::McpToolsList),
///     (json!({"functionDeclarations": [{"name": "search", "parameters": schema}]}),
///         Format::Gemini),
/// ] {
///     let set = from_value(Path::new("tools"), doc)?;
///     assert_eq!(set.format, format);
///     assert_eq!(set.tools[0].name.as_deref(), Some("search"));
///     assert_eq!(set.tools[0].parameters.as_ref(), Some(&schema));
/// }
/// // Bad input is an error naming the label, the place and the problem.
/// let e = from_value(Path::new("tools"), json!({"tools": [{"name": 7, "parameters": {}}]}));
/// assert_eq!(
///     e.unwrap_err().to_string(),
///     "tools: at /tools/0/name: the tool name must be a string, found a JSON number"
/// );
/// # Ok::<(), toolwire::Error>(())
/// ```
pub fn from_value(file: &Path, value: Value) -> Result<ToolSet> {
    if let Some(pointer) = json::first_too_deep(&value, LIMITS.max_depth) {
        json::drop_deep(value);
        return Err(Error::input(
            file,
            Place::Pointer(pointer),
            json::too_deep_problem(LIMITS.max_depth),
        ));
    }
    read_value(file, value, &[])
}

/// [`from_value`] for a value whose depth is already capped (parsed with [`LIMITS`]), whose
/// `keys` are written twice ([`read_twice`]).
fn read_value(file: &Path, value: Value, keys: &[DuplicateKey]) -> Result<ToolSet> {
    let mut tools = Vec::new();
    let mut builtins = Vec::new();
    let mut reader = Reader {
        file,
        line: None,
        tools: &mut tools,
        builtins: &mut builtins,
        request: 0,
        next_index: 0,
    };
    let format = read_twice(value, keys, |v| reader.document(v))
        .map_err(|(pointer, problem)| Error::input(file, Place::Pointer(pointer), problem))?;
    Ok(ToolSet {
        file: file.to_path_buf(),
        format,
        line_formats: Vec::new(),
        tools,
        builtins,
        empty_lines: Vec::new(),
        duplicate_keys: Vec::new(),
        inexact_numbers: Vec::new(),
    })
}

/// The problem with an object that is no known shape, naming its first keys.
fn unknown_shape(map: &Map<String, Value>) -> String {
    if map.is_empty() {
        return "an empty JSON object: no tools, schema or known envelope".into();
    }
    let keys: Vec<&str> = map.keys().take(6).map(String::as_str).collect();
    let mut problem = format!("unknown shape (keys: {}); {EXPECTED}", keys.join(", "));
    // A JSON-RPC response whose `jsonrpc` was dropped on the way (trial 71): its `result` is
    // read only inside the envelope, where `jsonrpc` says what it is.
    if let Some(Value::Object(result)) = get(map, "result")
        && let [list, ..] = tool_lists(result)[..]
    {
        problem.push_str(&format!(
            " (`result.{}` holds tools: an MCP tools/list response keeps its `\"jsonrpc\": \
             \"2.0\"`, or give the `result` object alone)",
            shown_key(list)
        ));
    }
    problem
}

/// [`unknown_shape`] for a whole document (or JSON Lines line), which may be meant as a bare
/// schema: one of no keys, or of annotations only, says why it is not read as one (trial 60
/// D3: "expected ... or a JSON Schema" of a schema). Deeper objects (a JSON-RPC `result`, a
/// list's tool) are no bare schema, and are worded as before.
fn unknown_document(map: &Map<String, Value>, at: &str) -> String {
    if !at.is_empty() {
        return unknown_shape(map);
    }
    if map.is_empty() {
        // Ambiguous here; `args --schema` reads it as a schema, as its flag says the file is.
        return "an empty JSON object: no tools or known envelope, and not read as a bare \
                schema, as no key says it is one (`args --schema` reads it as the schema that \
                accepts any arguments)"
            .into();
    }
    if map.keys().all(|k| crate::schema::is_keyword(k)) {
        // Annotations only (`title`, `description`): what [`is_bare_schema`] leaves out.
        let keys: Vec<&str> = map.keys().take(6).map(String::as_str).collect();
        return format!(
            "only schema annotations (keys: {}): not read as a bare schema, as none of them \
             constrains the arguments (a tool missing its `name` and `parameters` has such \
             keys too); add the schema's `type` and `properties`, or the tool's `name` and \
             `parameters`",
            keys.join(", ")
        );
    }
    unknown_shape(map)
}

/// A problem at a JSON Pointer.
type Problem = (String, String);

const EXPECTED: &str = "expected OpenAI, Anthropic, MCP, Gemini or Bedrock tools, a list of function declarations, or a JSON Schema";

struct Reader<'f, 't> {
    #[allow(dead_code)]
    file: &'f Path,
    line: Option<usize>,
    tools: &'t mut Vec<ToolEntry>,
    builtins: &'t mut Vec<BuiltinTool>,
    request: usize,
    next_index: usize,
}

/// Tool objects and envelopes have a handful of keys: scanning them costs less than hashing
/// the key (serde_json's map hashes with SipHash), and most keys asked for are absent.
const SCAN_UP_TO: usize = 12;

fn get<'m>(m: &'m Map<String, Value>, key: &str) -> Option<&'m Value> {
    if m.len() <= SCAN_UP_TO {
        m.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        m.get(key)
    }
}

fn has(m: &Map<String, Value>, key: &str) -> bool {
    get(m, key).is_some()
}

/// Removes `key` from `m`, hashing only when it is there.
fn take(m: &mut Map<String, Value>, key: &str) -> Option<Value> {
    if has(m, key) { m.remove(key) } else { None }
}

fn is_schema_like(m: &Map<String, Value>) -> bool {
    [
        "type",
        "properties",
        "$schema",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "$defs",
        "definitions",
        "items",
        "enum",
        "required",
    ]
    .iter()
    .any(|k| has(m, k))
        || is_bare_schema(m)
}

/// Whether `m`, an object no envelope or tool shape claimed, is a bare JSON Schema by its
/// keys alone: each a JSON Schema keyword ([`crate::schema::is_keyword`]), one at least
/// constraining or applying a schema (`additionalProperties`, `if`, `minProperties`, `not`,
/// `const`...), as an argument schema does (trial 60 D3: `{"patternProperties": ..}` was an
/// "unknown shape"). Annotations alone (`title`, `description`) are left out: a tool whose
/// `name` and `parameters` were left out has such keys too, and as a schema they would accept
/// any arguments, so reading them so would hide the tool's missing parts. Envelope and tool
/// keys (`name`, `parameters`, `tools`) are no keywords, so no shape read before is read so.
fn is_bare_schema(m: &Map<String, Value>) -> bool {
    m.keys().all(|k| crate::schema::is_keyword(k))
        && m.keys().any(|k| !crate::repair::only_annotates(k))
}

impl Reader<'_, '_> {
    fn document(&mut self, value: Value) -> std::result::Result<Format, Problem> {
        match value {
            Value::Array(list) => self.list(list, ""),
            Value::Object(map) => self.object(map, ""),
            other => Err((
                String::new(),
                format!(
                    "a JSON {} is not a tool definition; {EXPECTED}",
                    json::kind(&other)
                ),
            )),
        }
    }

    fn object(
        &mut self,
        mut map: Map<String, Value>,
        at: &str,
    ) -> std::result::Result<Format, Problem> {
        // Most objects read here are a tool or a corpus line, with no envelope key: one pass
        // over their keys passes over the envelope lookups below, each of which finds nothing
        // in such an object (and takes nothing out of it).
        if map.keys().any(|k| ENVELOPE_KEYS.contains(&k.as_str())) {
            // Envelopes around a list of tools. A JSON-RPC response that failed, or whose
            // `result` is no object, holds no tools: an MCP server's author passing on what
            // `tools/list` answered is told so, not shown the envelope's keys.
            // A `result` holding tools beside a list of this object's own: whichever one is read,
            // the other's tools would go unchecked (a JSON-RPC response reads `result`, anything
            // else its own list).
            if let Some(Value::Object(result)) = get(&map, "result")
                && let [inner, ..] = tool_lists(result)[..]
                && let [outer, ..] = tool_lists(&map)[..]
            {
                let inner = format!("result.{}", shown_key(inner));
                let outer = shown_key(outer);
                let (first, second) = if has(&map, "jsonrpc") {
                    (inner, outer)
                } else {
                    (outer, inner)
                };
                return Err((at.to_string(), two_lists(&first, &second)));
            }
            if has(&map, "jsonrpc") {
                // JSON-RPC 2.0 forbids both; JSON-RPC 1.0 sends the other one as `null`, which
                // is no conflict. Reading the result would pass over the error the server sent.
                if get(&map, "result").is_some_and(|v| !v.is_null())
                    && get(&map, "error").is_some_and(|v| !v.is_null())
                {
                    return Err((
                        at.to_string(),
                        "the JSON-RPC response holds both `result` and `error`, so whether the \
                         request failed is unknown (JSON-RPC allows one of the two); keep the \
                         `result` of a successful MCP tools/list call"
                            .into(),
                    ));
                }
                if get(&map, "result").is_some_and(Value::is_null) && has(&map, "error") {
                    map.remove("result");
                }
                match take(&mut map, "result") {
                    Some(Value::Object(result)) => {
                        return self.object(result, &format!("{at}/result"));
                    }
                    Some(other) => {
                        return Err((
                            format!("{at}/result"),
                            format!(
                                "a JSON-RPC `result` must be an object (an MCP tools/list result), \
                                 found a JSON {}",
                                json::kind(&other)
                            ),
                        ));
                    }
                    None if has(&map, "error") => {
                        return Err((
                            format!("{at}/error"),
                            "a JSON-RPC error response holds no tools (the request failed; an MCP \
                             tools/list result is in `result`)"
                                .into(),
                        ));
                    }
                    None => {}
                }
            }
            if let [first, second, ..] = tool_lists(&map)[..] {
                return Err((
                    at.to_string(),
                    two_lists(&shown_key(first), &shown_key(second)),
                ));
            }
            if let Some(Value::Object(req)) = take(&mut map, "generateContentRequest") {
                return self.object(req, &format!("{at}/generateContentRequest"));
            }
            if let Some(Value::Object(mut config)) = take(&mut map, "toolConfig")
                && let Some(tools) = take(&mut config, "tools")
            {
                return self.list_value(tools, &format!("{at}/toolConfig/tools"));
            }
            if let Some(tools) = take(&mut map, "tools") {
                return self.list_value(tools, &format!("{at}/tools"));
            }
            // OpenAI's legacy `functions` (before `tools`): a list of bare function objects.
            if let Some(Value::Array(list)) = get(&map, "functions")
                && list.iter().all(|f| f.get("name").is_some())
                && let Some(functions) = take(&mut map, "functions")
            {
                return self.list_value(functions, &format!("{at}/functions"));
            }
            for key in ["functionDeclarations", "function_declarations"] {
                if let Some(decls) = take(&mut map, key) {
                    let here = format!("{at}/{key}");
                    let Value::Array(list) = decls else {
                        return Err((here, "expected a list of function declarations".into()));
                    };
                    self.entries(list, &here, Format::Gemini)?;
                    return Ok(Format::Gemini);
                }
            }
        }
        // A Gemini Tool of built-in tools alone (`{"googleSearch": {}}`), as a document or
        // as `tools` written as one object (before: "unknown shape").
        if is_gemini_builtin_entry(&map) {
            self.gemini_builtin(map);
            return Ok(Format::Gemini);
        }
        // The corpora line shape.
        if has(&map, "source") && has(&map, "license") && has(&map, "tool") {
            let [tool] = take_all(map, ["tool"]);
            let tool = tool.unwrap_or(Value::Null);
            let here = json::push_token(at, "tool");
            let Value::Object(t) = tool else {
                return Err((here, "`tool` must be an object".into()));
            };
            let f = classify(&t).unwrap_or(Format::Functions);
            self.tool(t, &here, f)?;
            return Ok(f);
        }
        if let Some(f) = classify(&map) {
            self.tool(map, at, f)?;
            return Ok(f);
        }
        if is_schema_like(&map) {
            self.push(
                None,
                None,
                Some(Value::Object(map)),
                at.to_string(),
                None,
                None,
            );
            return Ok(Format::Schema);
        }
        Err((at.to_string(), unknown_document(&map, at)))
    }

    fn list_value(&mut self, v: Value, at: &str) -> std::result::Result<Format, Problem> {
        match v {
            Value::Array(list) => self.list(list, at),
            // Gemini's front end also takes `tools` as one object (one Tool); no other
            // provider does, so another tool there is most likely a list left out.
            Value::Object(map)
                if has(&map, "functionDeclarations")
                    || has(&map, "function_declarations")
                    || is_builtin(&map) =>
            {
                self.object(map, at)
            }
            Value::Object(_) => Err((
                at.to_string(),
                "expected a list of tools, found one tool object: only Gemini takes `tools` as \
                 one object (a Tool holding `functionDeclarations`); write the tool in a list \
                 (`[...]`)"
                    .into(),
            )),
            other => Err((
                at.to_string(),
                format!(
                    "expected a list of tools, found a JSON {}",
                    json::kind(&other)
                ),
            )),
        }
    }

    fn list(&mut self, list: Vec<Value>, at: &str) -> std::result::Result<Format, Problem> {
        // The list's format is that of its first tool with a schema: a provider's built-in
        // tools (web search, code execution) carry none and are skipped.
        let first = list
            .iter()
            .enumerate()
            .find(|(_, v)| !v.as_object().is_some_and(is_builtin));
        let Some((position, first)) = first else {
            for item in &list {
                if let Value::Object(m) = item {
                    self.builtin(m);
                }
            }
            // Built-ins only: their provider's shape (before: `functions`, which no
            // built-in is written in).
            let format = list
                .iter()
                .filter_map(Value::as_object)
                .find_map(builtin_format);
            return Ok(format.unwrap_or(Format::Functions));
        };
        let at_first = format!("{at}/{position}");
        let format = match first {
            Value::Object(m)
                if has(m, "functionDeclarations") || has(m, "function_declarations") =>
            {
                Format::Gemini
            }
            Value::Object(m) => classify(m).ok_or_else(|| (at_first, unknown_shape(m)))?,
            other => {
                return Err((
                    at_first,
                    format!("expected a tool object, found a JSON {}", json::kind(other)),
                ));
            }
        };
        if format == Format::Gemini {
            for (i, item) in list.into_iter().enumerate() {
                let here = format!("{at}/{i}");
                let Value::Object(m) = item else {
                    return Err((here, "expected a Gemini Tool object".into()));
                };
                if is_builtin(&m) {
                    self.gemini_builtin(m);
                    continue;
                }
                // Tool objects, or declarations themselves: another provider's tool is
                // neither.
                if let Some(shape) = classify(&m)
                    && !same_list(Format::Gemini, shape, &m)
                {
                    return Err((here, mixed_shapes(shape, Format::Gemini)));
                }
                self.object(m, &here)?;
            }
            return Ok(Format::Gemini);
        }
        self.entries(list, at, format)?;
        Ok(format)
    }

    fn entries(
        &mut self,
        list: Vec<Value>,
        at: &str,
        format: Format,
    ) -> std::result::Result<(), Problem> {
        for (i, item) in list.into_iter().enumerate() {
            let here = format!("{at}/{i}");
            let Value::Object(m) = item else {
                return Err((
                    here,
                    format!("expected a tool object, found a JSON {}", json::kind(&item)),
                ));
            };
            if is_builtin(&m) {
                // Keeps every later tool's number its position in the request.
                self.builtin(&m);
                continue;
            }
            let f = match classify(&m) {
                Some(f) if !same_list(format, f, &m) => {
                    return Err((here, mixed_shapes(f, format)));
                }
                // A bare `{"name", "description"}` in an Anthropic or MCP list is a tool of
                // that shape without its schema, which `repair` writes under the shape's key.
                Some(Format::Functions)
                    if matches!(format, Format::Anthropic | Format::McpToolsList) =>
                {
                    format
                }
                Some(f) => f,
                None => format,
            };
            self.tool(m, &here, f)?;
        }
        Ok(())
    }

    /// Reads one tool object of a known shape.
    fn tool(
        &mut self,
        mut m: Map<String, Value>,
        at: &str,
        format: Format,
    ) -> std::result::Result<(), Problem> {
        let mut at = std::borrow::Cow::Borrowed(at);
        let mut strict = None;
        let strict_tool_use = match format {
            Format::Anthropic => strict_flag(&m, &at)?.filter(|s| *s).map(|_| "Anthropic"),
            _ => None,
        };
        match format {
            Format::OpenaiChat => {
                // A schema key beside `function` (the tool half in another API's shape) would
                // be dropped unread here, while a relay reading that API's shape may take it.
                // A `null` there is no schema (a serializer writing its unset fields).
                if let Some(second) = SCHEMA_KEYS
                    .into_iter()
                    .find(|k| m.get(*k).is_some_and(|v| !v.is_null()))
                {
                    return Err((at.into_owned(), schema_beside_function(second)));
                }
                // A function tool's `type` is `function` and nothing else (OpenAI's Chat
                // Completions reference, `tools[].type`; openai-python types it
                // `type: Required[Literal["function"]]`): `Function` or `funtion` fails the
                // request, every turn (trial 49 D5: reported clean). Left unset, it is left
                // alone: some OpenAI-compatible servers may default it.
                match m.get("type") {
                    None | Some(Value::Null) => {}
                    Some(Value::String(t)) if t == "function" => {}
                    Some(other) => {
                        return Err((
                            format!("{at}/type"),
                            format!(
                                "{TOOL_TYPE_NOT_FUNCTION}{}, not \"function\": OpenAI's \
                                 Chat Completions API takes no other value for a tool holding \
                                 `function`",
                                match other {
                                    Value::String(t) => format!("{t:?}"),
                                    v => format!("a JSON {}", json::kind(v)),
                                }
                            ),
                        ));
                    }
                }
                let [inner] = take_all(m, ["function"]);
                // An item with no `function` (`{}`, another shape's keys after an OpenAI
                // tool) is named at the item, as a tool with no `name` is: `/function` is no
                // place in the file (trial 63 D2).
                let Some(inner) = inner else {
                    return Err((at.into_owned(), "the tool has no `function`".into()));
                };
                at.to_mut().push_str("/function");
                let Value::Object(f) = inner else {
                    return Err((at.into_owned(), "`function` must be an object".into()));
                };
                m = f;
                strict = strict_flag(&m, &at)?;
            }
            // Responses tools are strict unless they say otherwise ("Whether to enforce strict
            // parameter validation. Default `true`", openai-python and openai-node types;
            // evidence/PROVIDERS.md §6). The SDKs type the field `Optional[bool]` and send
            // `null` as given (openai-python `FunctionToolParam.strict:
            // Required[Optional[bool]]`), so `null` leaves the default as absence does.
            Format::OpenaiResponses => strict = Some(strict_flag(&m, &at)?.unwrap_or(true)),
            Format::Bedrock => {
                // Named at the item when it has no `toolSpec`, as for OpenAI's `function`.
                let Some(spec) = take(&mut m, "toolSpec") else {
                    return Err((at.into_owned(), "the tool has no `toolSpec`".into()));
                };
                at.to_mut().push_str("/toolSpec");
                let Value::Object(mut spec) = spec else {
                    return Err((at.into_owned(), "`toolSpec` must be an object".into()));
                };
                let (name, description) = name_and_description(&mut spec, &at)?;
                let asks = strict_flag(&spec, &at)?.filter(|s| *s);
                let schema_at = format!("{at}/inputSchema/json");
                let parameters = match take(&mut spec, "inputSchema") {
                    Some(Value::Object(mut s)) => take(&mut s, "json"),
                    Some(other) => Some(other),
                    None => None,
                };
                let tool_at = Some(at.into_owned());
                self.push(
                    Some(name),
                    description,
                    parameters,
                    schema_at,
                    tool_at,
                    None,
                );
                self.mark_strict_tool_use(asks.map(|_| "Bedrock Converse"));
                return Ok(());
            }
            _ => {}
        }
        let ([name, description, schemas @ ..], stray) = take_all_noting(
            m,
            [
                "name",
                "description",
                SCHEMA_KEYS[0],
                SCHEMA_KEYS[1],
                SCHEMA_KEYS[2],
                SCHEMA_KEYS[3],
                SCHEMA_KEYS[4],
            ],
            is_schema_keyword_beside_tool,
        );
        let (name, description) = name_and_description_of(name, description, &at)?;
        // One pass over the schema keys finds the schema and a second one, if any (this runs
        // for every tool read: no list is collected).
        let mut given = SCHEMA_KEYS
            .into_iter()
            .zip(schemas)
            .filter(|(_, p)| p.is_some());
        let (schema_key, parameters) = given.next().unwrap_or((absent_schema_key(format), None));
        if let Some((second, _)) = given.next() {
            return Err((at.into_owned(), two_schemas(schema_key, second, format)));
        }
        if let Some(stray) = stray {
            let problem = schema_keyword_beside_tool(&stray, schema_key, parameters.is_some());
            return Err((json::push_token(&at, &stray), problem));
        }
        self.push(
            Some(name),
            description,
            parameters,
            json::push_token(&at, schema_key),
            Some(at.into_owned()),
            strict,
        );
        self.mark_strict_tool_use(strict_tool_use);
        Ok(())
    }

    /// Keeps one built-in tool of a tool list as a [`BuiltinTool`]; it takes a number like
    /// any tool.
    fn builtin(&mut self, m: &Map<String, Value>) {
        let index = self.next_index;
        self.next_index += 1;
        let name = get(m, "name")
            .or_else(|| get(m, "custom").and_then(|c| c.get("name")))
            .and_then(Value::as_str);
        self.builtins.push(BuiltinTool {
            name: name.map(str::to_string),
            kind: builtin_kind(m),
            index,
            request: self.request,
            value: Value::Object(m.clone()),
        });
    }

    /// Keeps a Gemini `tools` entry of built-in tools (`{"googleSearch": {}}`) as a
    /// [`BuiltinTool`]. It takes no number (Gemini numbers a request's function declarations
    /// only): its index is the next declaration's, or one past the last.
    fn gemini_builtin(&mut self, m: Map<String, Value>) {
        self.builtins.push(BuiltinTool {
            name: None,
            kind: builtin_kind(&m),
            index: self.next_index,
            request: self.request,
            value: Value::Object(m),
        });
    }

    /// Marks the tool just pushed with the provider whose own `strict: true` it carries
    /// ([`ToolEntry::strict_tool_use`]).
    fn mark_strict_tool_use(&mut self, provider: Option<&'static str>) {
        if let Some(t) = self.tools.last_mut() {
            t.strict_tool_use = provider;
        }
    }

    fn push(
        &mut self,
        name: Option<String>,
        description: Option<String>,
        parameters: Option<Value>,
        schema_pointer: String,
        tool_pointer: Option<String>,
        strict: Option<bool>,
    ) {
        let index = self.next_index;
        self.next_index += 1;
        self.tools.push(ToolEntry {
            name,
            description,
            parameters,
            index,
            request: self.request,
            line: self.line,
            schema_pointer,
            tool_pointer,
            strict,
            strict_tool_use: None,
        });
    }
}

fn name_and_description(
    m: &mut Map<String, Value>,
    at: &str,
) -> std::result::Result<(String, Option<String>), Problem> {
    let (name, description) = (take(m, "name"), take(m, "description"));
    name_and_description_of(name, description, at)
}

/// Takes `keys` out of `m`, consuming it in one pass (no hashing, no shifting of the rest).
fn take_all<const N: usize>(m: Map<String, Value>, keys: [&str; N]) -> [Option<Value>; N] {
    take_all_noting(m, keys, |_| false).0
}

/// [`take_all`], also giving the first key left over that `noted` picks.
fn take_all_noting<const N: usize>(
    m: Map<String, Value>,
    keys: [&str; N],
    noted: impl Fn(&str) -> bool,
) -> ([Option<Value>; N], Option<String>) {
    let mut out = [const { None }; N];
    let mut stray = None;
    for (k, v) in m {
        match keys.iter().position(|x| *x == k) {
            Some(i) => out[i] = Some(v),
            None if stray.is_none() && noted(&k) => stray = Some(k),
            None => {}
        }
    }
    (out, stray)
}

/// Whether `key`, beside a tool's `name`, is a JSON Schema keyword that constrains arguments
/// (`properties`, `required`, `items`, `anyOf`...): the parameters schema's keys written at
/// the tool's top level. `type` is left out (a Responses tool's `"type": "function"`), and
/// so are annotations (`title`, `description`), which tools have too.
fn is_schema_keyword_beside_tool(key: &str) -> bool {
    key != "type" && crate::schema::is_keyword(key) && !crate::repair::only_annotates(key)
}

/// The problem with a tool holding the schema keyword `stray` beside its `name`, where no
/// provider reads it as part of the tool's schema (under `schema_key`, given or not). Read as
/// the tool's, it was dropped unread (trial 88 D3: `{"name", "properties", "required"}` was a
/// tool taking no arguments, so `args` refused the valid call and `compile` wrote the tool
/// without its schema, both without a word).
fn schema_keyword_beside_tool(stray: &str, schema_key: &str, has_schema: bool) -> String {
    let schema = if has_schema {
        format!("its schema is `{schema_key}`")
    } else {
        format!("it has no `{schema_key}`, so it would be sent as taking no arguments")
    };
    format!(
        "`{stray}` is a JSON Schema keyword beside the tool's `name`, where no provider reads \
         it as part of the parameters schema ({schema}); move the schema's keywords into \
         `{schema_key}` (or, for a bare schema, remove `name`, which is no schema keyword)"
    )
}

/// A tool's `strict` flag: `None` when absent or `null`. Every provider that reads one types
/// it a boolean (OpenAI's `Optional[bool]` in openai-python's `FunctionDefinition` and
/// `FunctionToolParam`; Anthropic's and Bedrock's `strict`, evidence/PROVIDERS.md §8-9), so
/// any other value is refused as a description of the wrong type is: read as neither, it
/// passed check while the provider would refuse the request.
fn strict_flag(m: &Map<String, Value>, at: &str) -> std::result::Result<Option<bool>, Problem> {
    match get(m, "strict") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err((
            format!("{at}/strict"),
            format!(
                "`strict` must be true, false or null, found a JSON {}",
                json::kind(other)
            ),
        )),
    }
}

fn name_and_description_of(
    name: Option<Value>,
    description: Option<Value>,
    at: &str,
) -> std::result::Result<(String, Option<String>), Problem> {
    let name = match name {
        Some(Value::String(s)) => s,
        Some(other) => {
            return Err((
                format!("{at}/name"),
                format!(
                    "the tool name must be a string, found a JSON {}",
                    json::kind(&other)
                ),
            ));
        }
        None => return Err((at.to_string(), "the tool has no `name`".into())),
    };
    let description = match description {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(other) => {
            return Err((
                format!("{at}/description"),
                format!(
                    "the description must be a string, found a JSON {}",
                    json::kind(&other)
                ),
            ));
        }
    };
    Ok((name, description))
}

/// OpenAI's built-in tools, by `type` (platform.openai.com/docs/guides/tools: web search, file
/// search, code interpreter, computer use, image generation, remote MCP, local shell).
pub(crate) const OPENAI_BUILTIN: &[&str] = &[
    "web_search",
    "web_search_preview",
    "web_search_preview_2025_03_11",
    "file_search",
    "code_interpreter",
    "computer_use_preview",
    "image_generation",
    "mcp",
    "local_shell",
];

/// Keys of Gemini's built-in tools in a `tools` entry (ai.google.dev/api/caching#Tool), in both
/// spellings the front end takes.
pub(crate) const GEMINI_BUILTIN: &[&str] = &[
    "googleSearch",
    "google_search",
    "googleSearchRetrieval",
    "google_search_retrieval",
    "codeExecution",
    "code_execution",
    "urlContext",
    "url_context",
    "retrieval",
    "computerUse",
    "computer_use",
    "fileSearch",
    "file_search",
    "googleMaps",
    "google_maps",
    "enterpriseWebSearch",
    "enterprise_web_search",
];

/// Whether a tool object carries a schema (or a function wrapper) under any key a function
/// tool uses: such an object is never a built-in tool, whatever its `type` says.
fn carries_schema(m: &Map<String, Value>) -> bool {
    const SCHEMA_KEYS: [&str; 7] = [
        "parameters",
        "input_schema",
        "inputSchema",
        "function",
        "toolSpec",
        "functionDeclarations",
        "function_declarations",
    ];
    SCHEMA_KEYS.iter().any(|k| has(m, k))
}

/// The `type` of a tool object, when it is a string.
fn tool_type(m: &Map<String, Value>) -> Option<&str> {
    get(m, "type").and_then(Value::as_str)
}

/// Whether a tool object is one of Anthropic's built-in tools (docs.anthropic.com tool use:
/// server and client tools such as `{"type": "web_search_20250305", "name": "web_search"}`,
/// `text_editor_20250728`, `bash_20250124`): a `type` ending in an 8-digit date, or the MCP
/// connector's `mcp_toolset`, and no schema key.
pub(crate) fn anthropic_builtin(m: &Map<String, Value>) -> bool {
    if carries_schema(m) {
        return false;
    }
    tool_type(m).is_some_and(|t| {
        let dated = t
            .rsplit_once('_')
            .is_some_and(|(_, d)| d.len() == 8 && d.bytes().all(|b| b.is_ascii_digit()));
        dated || t == "mcp_toolset"
    })
}

/// Whether a tool object is one of OpenAI's built-in tools ([`OPENAI_BUILTIN`] types) or its
/// free-form `custom` tool, flat in the Responses API (`{"type": "custom", "name", ..}`) or
/// wrapped in Chat Completions (`{"type": "custom", "custom": {"name", ..}}`), with no schema
/// key.
pub(crate) fn openai_builtin(m: &Map<String, Value>) -> bool {
    if carries_schema(m) {
        return false;
    }
    let Some(t) = tool_type(m) else {
        return false;
    };
    // Anthropic's own tools are `type: "custom"` too: only OpenAI's shape (no schema key,
    // misspelled or not) counts, so `input_shema` is read as a tool and flagged.
    let openai_custom = t == "custom"
        && m.keys()
            .all(|k| ["type", "name", "description", "format", "custom"].contains(&k.as_str()));
    openai_custom || OPENAI_BUILTIN.contains(&t)
}

/// Whether a tool object is Bedrock Converse's `cachePoint` marker (`{"cachePoint": {"type":
/// "default"}}`), which sits among its tools.
pub fn bedrock_cache_point(m: &Map<String, Value>) -> bool {
    has(m, "cachePoint") && !carries_schema(m)
}

/// Whether a tool object is one of a provider's built-in (server) tools, which carry no JSON
/// Schema to check: [`anthropic_builtin`], [`openai_builtin`], Gemini `tools` entries holding
/// only [`GEMINI_BUILTIN`] keys, and Bedrock's `cachePoint` marker. Only these known shapes are
/// skipped: any other object still has to be a tool or fails with its place, so a misspelled
/// tool is never dropped unnoticed.
fn is_builtin(m: &Map<String, Value>) -> bool {
    if carries_schema(m) {
        return false;
    }
    if tool_type(m).is_some() {
        return anthropic_builtin(m) || openai_builtin(m);
    }
    !m.is_empty()
        && m.keys()
            .all(|k| GEMINI_BUILTIN.contains(&k.as_str()) || k == "cachePoint")
}

/// The shape of the request a built-in tool `m` is written for: Anthropic's dated types,
/// Gemini's entries, Bedrock's `cachePoint`, OpenAI's Chat Completions `custom` wrapper, and
/// else OpenAI's Responses tools (Chat Completions takes no other built-in in `tools`).
/// `None` for anything else.
fn builtin_format(m: &Map<String, Value>) -> Option<Format> {
    if anthropic_builtin(m) {
        Some(Format::Anthropic)
    } else if openai_builtin(m) {
        Some(if has(m, "custom") {
            Format::OpenaiChat
        } else {
            Format::OpenaiResponses
        })
    } else if bedrock_cache_point(m) {
        Some(Format::Bedrock)
    } else if is_gemini_builtin_entry(m) {
        Some(Format::Gemini)
    } else {
        None
    }
}

/// A built-in tool's kind: its `type`, or else its keys (a Gemini entry's `googleSearch`,
/// Bedrock's `cachePoint`), so that every note and report line can name it.
fn builtin_kind(m: &Map<String, Value>) -> String {
    match tool_type(m) {
        Some(t) => t.to_string(),
        None => m.keys().map(String::as_str).collect::<Vec<_>>().join(", "),
    }
}

/// Whether `m` is a Gemini `tools[]` entry holding only built-in tools ([`GEMINI_BUILTIN`]
/// keys, no `functionDeclarations`). Such an entry takes no tool number: a Gemini request's
/// tools are numbered over its function declarations, in order.
pub(crate) fn is_gemini_builtin_entry(m: &Map<String, Value>) -> bool {
    !m.is_empty() && m.keys().all(|k| GEMINI_BUILTIN.contains(&k.as_str()))
}

/// Whether tool `m`, of shape `item`, belongs in a list read as `list`. A Gemini
/// declaration with `parameters` is the plain function-declaration shape, so those two mix,
/// and a bare `{"name", "description"}` (no schema: a tool without arguments) has every flat
/// shape; any other pair is two providers' shapes in one request, which neither provider
/// takes.
fn same_list(list: Format, item: Format, m: &Map<String, Value>) -> bool {
    let declarations = |f| matches!(f, Format::Functions | Format::Gemini);
    let bare = item == Format::Functions && !has(m, "parameters");
    list == item || bare || (declarations(list) && declarations(item))
}

/// Every key [`Reader::object`] looks for an envelope around a list of tools by: an object
/// with none of them is no envelope.
const ENVELOPE_KEYS: [&str; 8] = [
    "result",
    "jsonrpc",
    "generateContentRequest",
    "toolConfig",
    "tools",
    "functions",
    "functionDeclarations",
    "function_declarations",
];

/// The keys of `m` that each hold a list of tools toolwire would read, in reading order.
///
/// Only the first is read, so a second one would go unchecked: a CI run would pass while its
/// tools sit there. An empty list or `null` holds no tool and is not counted, and keys that
/// belong to the same request are not lists of their own: Gemini's `toolConfig` holds
/// `functionCallingConfig` (no `tools`), and Gemini's `tools` entries hold their
/// `functionDeclarations` one level down.
fn tool_lists(m: &Map<String, Value>) -> Vec<&'static str> {
    let holds = |v: &Value| !v.is_null() && v.as_array().is_none_or(|l| !l.is_empty());
    let mut keys = Vec::new();
    if get(m, "generateContentRequest").is_some_and(Value::is_object) {
        keys.push("generateContentRequest");
    }
    if let Some(Value::Object(config)) = get(m, "toolConfig")
        && get(config, "tools").is_some_and(holds)
    {
        keys.push("toolConfig");
    }
    for key in [
        "tools",
        "functions",
        "functionDeclarations",
        "function_declarations",
    ] {
        if get(m, key).is_some_and(holds) {
            keys.push(key);
        }
    }
    keys
}

/// A key of [`tool_lists`] as the place of its list: Bedrock's is one level down.
fn shown_key(key: &str) -> String {
    if key == "toolConfig" {
        "toolConfig.tools".to_string()
    } else {
        key.to_string()
    }
}

/// The problem with one object holding two tool lists, `first` (the one that would be read)
/// and `second`, each named by its place ([`shown_key`]).
fn two_lists(first: &str, second: &str) -> String {
    format!(
        "two tool lists in one document, `{first}` and `{second}`, so which one is meant is \
         unknown and the tools of the other would go unchecked; keep one tool list per \
         document (split them into separate files, or one request per line of a .jsonl file)"
    )
}

/// The problem with a tool whose shape differs from its list's (the list's is its first
/// tool's): reading each as its own shape would check, repair and write back a list no
/// provider accepts.
fn mixed_shapes(item: Format, list: Format) -> String {
    format!(
        "this tool is in the {} shape, but the list is read as {} (the shape of its first \
         tool): a request's tool list takes one provider's shape; write every tool of the \
         list in the shape of the API it is sent to, or split the list per provider",
        item.describe(),
        list.describe()
    )
}

/// The keys a tool's parameters schema is written under, by API: OpenAI's and Gemini's
/// `parameters` first, then Anthropic's, MCP's and Gemini's JSON Schema field in both its
/// spellings.
const SCHEMA_KEYS: [&str; 5] = [
    "parameters",
    "input_schema",
    "inputSchema",
    "parametersJsonSchema",
    "parameters_json_schema",
];

/// The key a tool of shape `format` that gives no schema would hold it under: where `repair`
/// writes one ([`ToolEntry::schema_pointer`]'s last segment), so an Anthropic or MCP tool
/// gets the key its shape requires, not OpenAI's `parameters` (trial 64 D3, left by its fix).
fn absent_schema_key(format: Format) -> &'static str {
    match format {
        Format::Anthropic => "input_schema",
        Format::McpToolsList => "inputSchema",
        _ => SCHEMA_KEYS[0],
    }
}

/// The problem with a Chat Completions tool that holds schema key `second` beside its
/// `function` object, where that API reads no schema.
fn schema_beside_function(second: &str) -> String {
    format!(
        "the tool has `{second}` beside `function`: Chat Completions reads the schema in \
         `function.parameters` and nothing beside `function`, while a reader of another API's \
         shape may take `{second}`, so which schema a provider reads is unknown; keep only the \
         schema of the API the tool is sent to (for Chat Completions, `function.parameters`)"
    )
}

/// The problem with a tool that holds two parameters schemas (`first` and `second`, two of
/// the schema keys): toolwire would check one and a provider may read the other.
fn two_schemas(first: &str, second: &str, format: Format) -> String {
    // Keys come in `SCHEMA_KEYS` order: `parameters` first.
    if format == Format::Gemini && first == "parameters" && second.starts_with("parameters") {
        // Gemini's FunctionDeclaration: `parametersJsonSchema` "is mutually exclusive with
        // `parameters`" (https://ai.google.dev/api/caching#FunctionDeclaration, quoted by
        // the Geminix v0.2.0 docs of `Geminix.V1beta.FunctionDeclaration`, read 2026-12-02;
        // evidence/PROVIDERS.md §2).
        return format!(
            "the declaration has both `{first}` and `{second}`, which Gemini's \
             FunctionDeclaration documents as mutually exclusive; keep `{first}` (Gemini's \
             OpenAPI Schema subset) or `{second}` (JSON Schema), not both"
        );
    }
    format!(
        "the tool has two parameters schemas, `{first}` and `{second}`, so which one a \
         provider reads is unknown (the tool is read as {}); keep only the schema key of the \
         API it is sent to (`parameters` for OpenAI and Gemini, `input_schema` for \
         Anthropic, `inputSchema` for MCP)",
        format.describe()
    )
}

/// The shape of one tool object, if it is one.
fn classify(m: &Map<String, Value>) -> Option<Format> {
    // The keys the shapes are told apart by, read in one pass over the object (this runs for
    // every tool read, and a lookup of each key in turn cost ten scans of its keys).
    let (mut kind, mut function, mut name) = (None, None, None);
    let [
        mut tool_spec,
        mut input_schema,
        mut input_schema_mcp,
        mut gemini_schema,
    ] = [false; 4];
    let [mut properties, mut parameters] = [false; 2];
    for (k, v) in m {
        match k.as_str() {
            "type" => kind = Some(v),
            "function" => function = Some(v),
            "name" => name = Some(v),
            "toolSpec" => tool_spec = true,
            "input_schema" => input_schema = true,
            "inputSchema" => input_schema_mcp = true,
            "parametersJsonSchema" | "parameters_json_schema" => gemini_schema = true,
            "properties" => properties = true,
            "parameters" => parameters = true,
            _ => {}
        }
    }
    if kind.and_then(Value::as_str) == Some("function") {
        return Some(if function.is_some() {
            Format::OpenaiChat
        } else {
            Format::OpenaiResponses
        });
    }
    if function.is_some_and(Value::is_object) {
        return Some(Format::OpenaiChat);
    }
    if tool_spec {
        return Some(Format::Bedrock);
    }
    let name = name?;
    if input_schema {
        return Some(Format::Anthropic);
    }
    if input_schema_mcp {
        return Some(Format::McpToolsList);
    }
    if gemini_schema {
        return Some(Format::Gemini);
    }
    let name_is_text = name.is_string();
    let schema_keys = kind.is_some() && properties;
    // A declaration whose `name` is no string still is one when it holds `parameters`, so
    // that the error names its `name` rather than calling the shape unknown.
    if (name_is_text || parameters) && !schema_keys {
        return Some(Format::Functions);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `classify` reads the keys in one pass; it tells every combination of the keys it
    /// looks at (with a `type` of "function" or not, a `function` object or not, a `name`
    /// string or not, beside a key of no shape) as a lookup of each key in turn did.
    #[test]
    fn classify_in_one_pass_reads_as_key_by_key_lookups() {
        fn by_lookups(m: &Map<String, Value>) -> Option<Format> {
            if get(m, "type").and_then(Value::as_str) == Some("function") {
                return Some(if has(m, "function") {
                    Format::OpenaiChat
                } else {
                    Format::OpenaiResponses
                });
            }
            if has(m, "function") && get(m, "function").is_some_and(Value::is_object) {
                return Some(Format::OpenaiChat);
            }
            if has(m, "toolSpec") {
                return Some(Format::Bedrock);
            }
            if !has(m, "name") {
                return None;
            }
            if has(m, "input_schema") {
                return Some(Format::Anthropic);
            }
            if has(m, "inputSchema") {
                return Some(Format::McpToolsList);
            }
            if has(m, "parametersJsonSchema") || has(m, "parameters_json_schema") {
                return Some(Format::Gemini);
            }
            let name_is_text = get(m, "name").is_some_and(Value::is_string);
            let schema_keys = has(m, "type") && has(m, "properties");
            if (name_is_text || has(m, "parameters")) && !schema_keys {
                return Some(Format::Functions);
            }
            None
        }
        let keys: [(&str, [Value; 2]); 12] = [
            ("type", [Value::from("function"), Value::from("object")]),
            ("function", [serde_json::json!({}), Value::from("f")]),
            ("name", [Value::from("f"), Value::from(1)]),
            ("toolSpec", [serde_json::json!({}), Value::Null]),
            ("input_schema", [serde_json::json!({}), Value::Null]),
            ("inputSchema", [serde_json::json!({}), Value::Null]),
            ("parametersJsonSchema", [serde_json::json!({}), Value::Null]),
            (
                "parameters_json_schema",
                [serde_json::json!({}), Value::Null],
            ),
            ("properties", [serde_json::json!({}), Value::Null]),
            ("parameters", [serde_json::json!({}), Value::Null]),
            ("description", [Value::from("d"), Value::Null]),
            ("x-other", [Value::from(1), Value::Null]),
        ];
        let mut seen = std::collections::HashSet::new();
        for present in 0u32..1 << keys.len() {
            // The values of `type`, `function` and `name` in every combination.
            for variant in 0..8 {
                let m: Map<String, Value> = keys
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| present & 1 << i != 0)
                    .map(|(i, (k, v))| {
                        let pick = if i < 3 { (variant >> i) & 1 } else { 0 };
                        (k.to_string(), v[pick].clone())
                    })
                    .collect();
                assert_eq!(classify(&m), by_lookups(&m), "{m:?}");
                seen.insert(format!("{:?}", classify(&m)));
            }
        }
        // Every shape, and no shape, is met.
        assert_eq!(seen.len(), 8, "{seen:?}");
    }

    /// A document whose keys are all JSON Schema keywords, one at least constraining, is a
    /// bare schema though it holds none of the keys first looked for (trial 60 D3:
    /// `{"patternProperties": ..}` was an "unknown shape ... expected ... or a JSON Schema");
    /// annotations alone, `{}` and a key that is no keyword are still refused, each saying why,
    /// and a tool missing its `name` is not read as a schema.
    #[test]
    fn a_schema_of_any_constraining_keywords_is_a_bare_schema() {
        let read = |text: &str| from_bytes(Path::new("t.json"), text.as_bytes());
        for text in [
            r#"{"title": "Labels", "additionalProperties": {"type": "string"}}"#,
            r#"{"patternProperties": {"^x-": {"type": "string"}}, "minProperties": 1}"#,
            r#"{"if": {"required": ["a"]}, "then": {"required": ["b"]}}"#,
            r#"{"not": {"required": ["a"]}}"#,
            r#"{"const": 1}"#,
            r#"{"propertyNames": {"maxLength": 3}, "description": "Short keys."}"#,
        ] {
            let set = read(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(set.format, Format::Schema, "{text}");
            assert_eq!(set.tools.len(), 1, "{text}");
            assert_eq!(set.tools[0].schema_pointer, "", "{text}");
        }
        for (text, said) in [
            (
                r#"{"title": "Labels", "description": "Free-form labels."}"#,
                "only schema annotations (keys: title, description): not read as a bare schema",
            ),
            (
                "{}",
                "an empty JSON object: no tools or known envelope, and not read as a bare \
                 schema, as no key says it is one",
            ),
            (
                r#"{"additionalProperties": false, "hello": 1}"#,
                "unknown shape (keys: additionalProperties, hello)",
            ),
        ] {
            let Err(e) = read(text) else {
                panic!("{text} was read")
            };
            assert!(e.to_string().contains(said), "{text}: {e}");
        }
        // A tool's keys beside keywords keep it a tool (`name` is no keyword), whose keyword
        // beside `name` is refused (trial 88 D3).
        let e = read(r#"{"name": "f", "description": "d", "additionalProperties": {}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("at /additionalProperties: `additionalProperties` is a JSON Schema keyword beside the tool's `name`"), "{e}");
    }

    /// Only a Gemini declaration's schema field is named: OpenAI's and a bare function list's
    /// `parameters` are no Gemini route's.
    #[test]
    fn gemini_schema_field_names_only_declarations() {
        let field = |text: &str| -> Vec<Option<&'static str>> {
            let set = from_bytes(Path::new("t.json"), text.as_bytes()).unwrap();
            set.tools
                .iter()
                .map(ToolEntry::gemini_schema_field)
                .collect()
        };
        let schema = r#"{"type": "object", "properties": {}}"#;
        assert_eq!(
            field(&format!(
                r#"{{"tools": [{{"functionDeclarations": [{{"name": "a", "parameters": {schema}}},
                {{"name": "b", "parametersJsonSchema": {schema}}}]}},
                {{"function_declarations": [{{"name": "c", "parameters_json_schema": {schema}}},
                {{"name": "d"}}]}}]}}"#
            )),
            [
                Some("parameters"),
                Some("parametersJsonSchema"),
                Some("parametersJsonSchema"),
                None
            ]
        );
        assert_eq!(
            field(&format!(
                r#"{{"tools": [{{"type": "function", "function": {{"name": "a", "parameters": {schema}}}}}]}}"#
            )),
            [None]
        );
        assert_eq!(
            field(&format!(r#"[{{"name": "a", "parameters": {schema}}}]"#)),
            [None]
        );
    }

    /// The schema field is read from the pointer's suffix as it was from its segments, for
    /// pointers the reader makes and odd ones (no segment before `parameters`, an empty one).
    #[test]
    fn gemini_schema_field_reads_pointers_as_their_segments_do() {
        fn by_segments(pointer: &str) -> Option<&'static str> {
            let (holder, key) = pointer.rsplit_once('/')?;
            match key {
                "parametersJsonSchema" | "parameters_json_schema" => Some("parametersJsonSchema"),
                "parameters" => {
                    let (list, _) = holder.rsplit_once('/')?;
                    (list.ends_with("/functionDeclarations")
                        || list.ends_with("/function_declarations"))
                    .then_some("parameters")
                }
                _ => None,
            }
        }
        for pointer in [
            "",
            "parameters",
            "/parameters",
            "//parameters",
            "/tool/parameters",
            "/tools/0/function/parameters",
            "/tools/0/functionDeclarations/1/parameters",
            "/functionDeclarations/1/parameters",
            "functionDeclarations/1/parameters",
            "/functionDeclarations/parameters",
            "/x/function_declarations/12/parameters",
            "/x/function_declarations/12/parameters_json_schema",
            "parametersJsonSchema",
            "/parametersJsonSchema",
            "/tool/parametersJsonSchema/x",
            "/tool/xparameters",
            "/tool/input_schema",
        ] {
            let tool = ToolEntry {
                name: None,
                description: None,
                parameters: Some(json!({})),
                index: 0,
                request: 0,
                line: None,
                schema_pointer: pointer.to_string(),
                tool_pointer: None,
                strict: None,
                strict_tool_use: None,
            };
            assert_eq!(
                tool.gemini_schema_field(),
                by_segments(pointer),
                "{pointer:?}"
            );
        }
    }

    /// A line with no tool names no shape: the file is JSON Lines of its other lines' shape.
    #[test]
    fn an_empty_line_does_not_make_a_file_mixed() {
        let text = concat!(
            r#"{"tools": [{"name": "a", "inputSchema": {"type": "object", "properties": {}}}]}"#,
            "\n",
            r#"{"tools": []}"#,
            "\n"
        );
        let set = from_bytes(Path::new("t.jsonl"), text.as_bytes()).unwrap();
        assert_eq!(set.empty_lines, [2]);
        assert_eq!(set.format_label(), "jsonl of mcp-tools-list");
    }
    use serde_json::json;

    fn read(v: Value) -> ToolSet {
        from_value(Path::new("t.json"), v).unwrap()
    }

    /// A Responses tool is strict unless it says `strict: false`: `null` is what the SDKs send
    /// for "not given" (openai-python types the field `Required[Optional[bool]]`), so it asks
    /// for strict mode as absence does; a Chat function only by `true`. A value that is not a
    /// boolean is not read as either.
    #[test]
    fn a_responses_tool_is_strict_unless_it_says_false() {
        let strict_of = |tool: Value| read(json!([tool])).tools[0].strict;
        let responses = |strict: Option<Value>| {
            let mut t = json!({"type": "function", "name": "f", "parameters": {"type": "object"}});
            if let Some(v) = strict {
                t["strict"] = v;
            }
            strict_of(t)
        };
        assert_eq!(responses(None), Some(true));
        assert_eq!(responses(Some(Value::Null)), Some(true));
        assert_eq!(responses(Some(json!(true))), Some(true));
        assert_eq!(responses(Some(json!(false))), Some(false));
        let chat = |strict: Value| {
            strict_of(
                json!({"type": "function", "function": {"name": "f", "strict": strict,
                                                                "parameters": {"type": "object"}}}),
            )
        };
        assert_eq!(chat(Value::Null), None);
        assert_eq!(chat(json!(true)), Some(true));
    }

    /// A `strict` that is no boolean (nor null) is refused with its place, in every shape that
    /// has one: read as neither, `"true"` passed check while the provider refuses the request.
    #[test]
    fn a_strict_flag_that_is_no_boolean_is_refused() {
        let object = json!({"type": "object"});
        for (tool, at) in [
            (
                json!({"type": "function", "function": {"name": "f", "strict": "true", "parameters": object}}),
                "/0/function/strict",
            ),
            (
                json!({"type": "function", "name": "f", "strict": 1, "parameters": object}),
                "/0/strict",
            ),
            (
                json!({"name": "f", "strict": "true", "input_schema": object}),
                "/0/strict",
            ),
            (
                json!({"toolSpec": {"name": "f", "strict": [], "inputSchema": {"json": object}}}),
                "/0/toolSpec/strict",
            ),
        ] {
            let e = from_value(Path::new("t.json"), json!([tool]))
                .unwrap_err()
                .to_string();
            assert!(e.contains(at), "{e}");
            assert!(
                e.contains("`strict` must be true, false or null, found a JSON"),
                "{e}"
            );
        }
    }

    /// Anthropic's and Bedrock's own `strict: true` are kept apart from OpenAI's: they ask
    /// for strict tool use, not OpenAI's strict form, so `strict` stays `None` and check's
    /// strict-form-missing does not judge them.
    #[test]
    fn a_provider_s_own_strict_is_its_own_flag() {
        let anthropic = |strict: Option<Value>| {
            let mut t = json!({"name": "f", "input_schema": {"type": "object"}});
            if let Some(v) = strict {
                t["strict"] = v;
            }
            let e = read(json!([t])).tools.remove(0);
            (e.strict_tool_use, e.strict)
        };
        assert_eq!(anthropic(Some(json!(true))), (Some("Anthropic"), None));
        assert_eq!(anthropic(Some(json!(false))), (None, None));
        assert_eq!(anthropic(None), (None, None));
        let bedrock = |strict: Value| {
            let spec = json!({"toolSpec": {"name": "f", "strict": strict,
                                           "inputSchema": {"json": {"type": "object"}}}});
            let e = read(json!([spec])).tools.remove(0);
            (e.strict_tool_use, e.strict)
        };
        assert_eq!(bedrock(json!(true)), (Some("Bedrock Converse"), None));
        assert_eq!(bedrock(json!(false)), (None, None));
        // A Chat function's `strict` is OpenAI's, never Anthropic's.
        let chat = read(
            json!([{"type": "function", "function": {"name": "f", "strict": true,
                                                                    "parameters": {"type": "object"}}}]),
        );
        assert_eq!(
            (chat.tools[0].strict_tool_use, chat.tools[0].strict),
            (None, Some(true))
        );
    }

    /// Two tool lists in one document are refused, naming both keys: reading one would
    /// pass the other's tools unchecked. Keys of the same request are no second list.
    #[test]
    fn two_tool_lists_in_one_document_are_refused() {
        let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
        let oai = json!([{"type":"function","function":{"name":"w","parameters":schema}}]);
        let bad = json!([{"name":"bad name!!","parameters":schema}]);
        let bedrock = json!([{"toolSpec":{"name":"b","inputSchema":{"json":schema}}}]);
        let anth = json!([{"name":"w","input_schema":schema}]);
        for (doc, keys) in [
            (
                json!({"tools": oai, "functionDeclarations": bad}),
                "`tools` and `functionDeclarations`",
            ),
            (
                json!({"tools": oai, "functions": bad}),
                "`tools` and `functions`",
            ),
            (
                json!({"tools": anth, "toolConfig": {"tools": bedrock}}),
                "`toolConfig.tools` and `tools`",
            ),
            (
                json!({"functionDeclarations": bad, "function_declarations": bad}),
                "`functionDeclarations` and `function_declarations`",
            ),
            (
                json!({"tools": oai, "functions": {"name": "x"}}),
                "`tools` and `functions`",
            ),
        ] {
            let e = from_value(Path::new("t.json"), doc.clone())
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("t.json"), "{e}");
            assert!(
                e.contains(&format!("two tool lists in one document, {keys}")),
                "{doc}: {e}"
            );
        }
        // A `result`'s list beside the document's own: a JSON-RPC response reads `result`
        // first, any other object its own list.
        let mcp = json!({"tools":[{"name":"m","inputSchema":schema}]});
        for (doc, keys) in [
            (
                json!({"jsonrpc":"2.0","id":1,"result": mcp, "tools": oai}),
                "`result.tools` and `tools`",
            ),
            (
                json!({"jsonrpc":"2.0","id":1,"result": mcp, "functions": bad}),
                "`result.tools` and `functions`",
            ),
            (
                json!({"result": mcp, "tools": bad}),
                "`tools` and `result.tools`",
            ),
            (
                json!({"jsonrpc":"2.0","result":{"toolConfig":{"tools":bedrock}},"tools":anth}),
                "`result.toolConfig.tools` and `tools`",
            ),
        ] {
            let e = from_value(Path::new("t.json"), doc.clone())
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(&format!("two tool lists in one document, {keys}")),
                "{doc}: {e}"
            );
        }
        // A JSON-RPC response holding both a result and an error is refused, naming both;
        // JSON-RPC 1.0's `null` for the one not sent is read as before.
        let both = json!({"jsonrpc":"2.0","id":1,"result": mcp,
            "error":{"code":-32603,"message":"m"}});
        let e = from_value(Path::new("t.json"), both)
            .unwrap_err()
            .to_string();
        assert!(e.contains("both `result` and `error`"), "{e}");
        let ok = json!({"jsonrpc":"1.0","id":1,"result": mcp, "error": null});
        assert_eq!(read(ok).tools.len(), 1);
        let failed = json!({"jsonrpc":"1.0","id":1,"result": null, "error": {"code":1}});
        let e = from_value(Path::new("t.json"), failed)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("a JSON-RPC error response holds no tools"),
            "{e}"
        );
        // An empty list beside the result is no second list.
        let empty = json!({"jsonrpc":"2.0","id":1,"result": mcp, "tools": []});
        assert_eq!(read(empty).tools.len(), 1);
        let gemini = json!({"tools":[{"functionDeclarations":[{"name":"f","parameters":schema}]}],
            "toolConfig":{"functionCallingConfig":{"mode":"AUTO"}}});
        assert_eq!(read(gemini).tools.len(), 1);
        let bedrock_request = json!({"toolConfig":{"tools":bedrock,"toolChoice":{"auto":{}}}});
        assert_eq!(read(bedrock_request).format, Format::Bedrock);
        // An empty or null second list holds no tool to leave unchecked.
        assert_eq!(read(json!({"tools": oai, "functions": []})).tools.len(), 1);
        assert_eq!(
            read(json!({"tools": oai, "functionDeclarations": null}))
                .tools
                .len(),
            1
        );
    }

    /// Built-in tools are kept apart from the tools, numbered by position, as written (the
    /// named ones for the name census); Gemini's `googleSearch` entries are kept as written
    /// but take no number (the declarations keep theirs).
    #[test]
    fn built_in_tools_are_kept_apart_with_their_numbers() {
        let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
        let kept = |set: &ToolSet| -> Vec<(usize, String, String)> {
            let b = set.builtins.iter().filter(|b| b.name.is_some());
            b.map(|b| (b.index, b.name.clone().unwrap(), b.kind.clone()))
                .collect()
        };
        let anthropic = read(json!({"tools":[
            {"type":"web_search_20250305","name":"web_search"},
            {"name":"web_search","input_schema":schema},
        ]}));
        assert_eq!(anthropic.tools.len(), 1);
        assert_eq!(
            kept(&anthropic),
            [(0, "web_search".into(), "web_search_20250305".into())]
        );
        let chat = read(json!({"tools":[
            {"type":"web_search"},
            {"type":"custom","custom":{"name":"sql"}},
            {"type":"function","function":{"name":"sql","parameters":schema}},
        ]}));
        assert_eq!(kept(&chat), [(1, "sql".into(), "custom".into())]);
        assert_eq!(chat.tools[0].index, 2);
        let unnamed = &chat.builtins[0];
        assert_eq!((unnamed.index, unnamed.name.as_deref()), (0, None));
        assert_eq!(unnamed.value, json!({"type":"web_search"}));
        let gemini = read(json!({"tools":[{"googleSearch":{}},
            {"functionDeclarations":[{"name":"f","parameters":schema}]},
            {"codeExecution":{}, "urlContext":{}}]}));
        assert_eq!(gemini.tools[0].index, 0);
        let entries: Vec<(usize, &str, &Value)> = gemini
            .builtins
            .iter()
            .map(|b| (b.index, b.kind.as_str(), &b.value))
            .collect();
        assert_eq!(
            entries,
            [
                (0, "googleSearch", &json!({"googleSearch":{}})),
                (
                    1,
                    "codeExecution, urlContext",
                    &json!({"codeExecution":{}, "urlContext":{}})
                ),
            ]
        );
        // A list of built-ins only.
        let only = read(json!([{"type":"bash_20250124","name":"bash"}]));
        assert!(only.tools.is_empty());
        assert_eq!(kept(&only), [(0, "bash".into(), "bash_20250124".into())]);
        // JSON Lines: each line's built-ins belong to its request.
        let text = format!(
            "{}\n{}\n",
            json!({"tools":[{"type":"bash_20250124","name":"bash"},{"name":"f","input_schema":schema}]}),
            json!({"tools":[{"name":"bash","input_schema":schema}]})
        );
        let lines = from_bytes(Path::new("t.jsonl"), text.as_bytes()).unwrap();
        assert_eq!(lines.builtins_of(1).len(), 1);
        assert!(lines.builtins_of(2).is_empty());
    }

    /// A request of built-in tools only is named by their provider's shape (before:
    /// `functions` for each).
    #[test]
    fn built_ins_alone_name_their_provider() {
        for (tools, format) in [
            (json!([{"type":"web_search"}]), Format::OpenaiResponses),
            (
                json!([{"type":"custom","custom":{"name":"sql"}}]),
                Format::OpenaiChat,
            ),
            (
                json!([{"type":"web_search_20250305","name":"web_search"}]),
                Format::Anthropic,
            ),
            (json!([{"googleSearch":{}}]), Format::Gemini),
            // One Tool object, not in a list (Gemini's front end takes `tools` so).
            (json!({"googleSearch":{}}), Format::Gemini),
        ] {
            let set = read(json!({ "tools": tools }));
            assert_eq!((set.format, set.tools.len()), (format, 0), "{tools}");
            assert_eq!(set.builtins.len(), 1, "{tools}");
        }
        // The Tool object as the whole document.
        let set = read(json!({"googleSearch":{}}));
        assert_eq!((set.format, set.builtins.len()), (Format::Gemini, 1));
    }

    /// A provider's built-in tools carry no schema: they are skipped, every other tool keeps
    /// its position as its number, and an unknown `type` is still an error with its place.
    /// A tool without a schema in an Anthropic or MCP list is read in the list's shape, its
    /// schema's place under the shape's key, where `repair` writes the schema it declares
    /// (trial 64 D3's fix left it at `parameters`: `repair --target anthropic/messages` wrote
    /// `"parameters": {"type": "object", "properties": {}}` into an Anthropic tool).
    #[test]
    fn a_tool_without_a_schema_has_its_place_under_its_lists_key() {
        let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
        for (list, key) in [
            (
                json!([{"name":"f","input_schema":schema}, {"name":"g"}]),
                "/1/input_schema",
            ),
            (
                json!({"tools":[{"name":"f","inputSchema":schema}, {"name":"g"}]}),
                "/tools/1/inputSchema",
            ),
            (
                json!([{"name":"f","parameters":schema}, {"name":"g"}]),
                "/1/parameters",
            ),
        ] {
            let set = read(list.clone());
            assert_eq!(set.tools[1].parameters, None, "{list}");
            assert_eq!(set.tools[1].schema_pointer, key, "{list}");
        }
    }

    #[test]
    fn built_in_tools_are_skipped_and_numbers_keep_positions() {
        let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
        let anthropic = read(json!({"tools":[
            {"type":"web_search_20250305","name":"web_search","max_uses":3},
            {"name":"f","input_schema":schema},
            {"type":"bash_20250124","name":"bash"},
            {"name":"g","input_schema":schema},
        ]}));
        let numbers: Vec<(usize, &str)> = anthropic
            .tools
            .iter()
            .map(|t| (t.index, t.name.as_deref().unwrap()))
            .collect();
        assert_eq!(numbers, [(1, "f"), (3, "g")]);
        assert_eq!(anthropic.format, Format::Anthropic);
        assert_eq!(anthropic.tools[0].schema_pointer, "/tools/1/input_schema");

        let openai = read(json!({"tools":[
            {"type":"code_interpreter","container":{"type":"auto"}},
            {"type":"custom","name":"sql","format":{"type":"grammar"}},
            {"type":"function","name":"f","parameters":schema},
        ]}));
        assert_eq!(openai.format, Format::OpenaiResponses);
        assert_eq!(openai.tools.len(), 1);
        assert_eq!(openai.tools[0].index, 2);

        let gemini = read(json!({"tools":[
            {"googleSearch":{}},
            {"functionDeclarations":[{"name":"f","parameters":schema}]},
            {"code_execution":{}},
        ]}));
        assert_eq!(gemini.format, Format::Gemini);
        assert_eq!(gemini.tools.len(), 1);

        let only_builtin = read(json!({"tools":[{"type":"web_search"}]}));
        assert!(only_builtin.tools.is_empty());

        // Anthropic's `type: "custom"` with a misspelled schema key is a tool, not OpenAI's
        // free-form custom tool; Bedrock's cachePoint and Anthropic's MCP toolset are skipped.
        let typo = read(json!({"tools":[{"type":"custom","name":"f","input_shema":schema}]}));
        assert_eq!(typo.tools.len(), 1);
        let bedrock = read(json!({"toolConfig":{"tools":[
            {"toolSpec":{"name":"f","inputSchema":{"json":schema}}},
            {"cachePoint":{"type":"default"}},
        ]}}));
        assert_eq!(bedrock.tools.len(), 1);
        let mcp = read(json!({"tools":[
            {"type":"mcp_toolset","mcp_server_name":"x"},
            {"name":"f","input_schema":schema},
        ]}));
        assert_eq!(mcp.tools[0].index, 1);
        let legacy = read(json!({"model":"m","functions":[{"name":"f","parameters":schema}]}));
        assert_eq!(legacy.tools[0].schema_pointer, "/functions/0/parameters");

        // A misspelled `type` beside `function` is neither skipped nor read as if right.
        for t in [json!("fucntion"), json!("Function"), json!(1)] {
            let err = from_value(
                Path::new("t.json"),
                json!({"tools":[{"type":t,"function":{"name":"f"}}]}),
            )
            .unwrap_err()
            .to_string();
            assert!(
                err.starts_with("t.json: at /tools/0/type: the tool's `type` is ")
                    && err.contains("not \"function\""),
                "{err}"
            );
        }
        let untyped = read(json!({"tools":[{"function":{"name":"f"}}]}));
        assert_eq!(untyped.tools.len(), 1, "an unset `type` is left alone");
        let err = from_value(Path::new("t.json"), json!({"tools":[{"type":"websearch"}]}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("/tools/0"), "{err}");
    }

    /// README's "Inputs are detected" list names every shape [`Format`] has, each by its
    /// `--show-format` name, and no other: the list cannot fall behind the detector again
    /// (it once lacked Bedrock's `toolSpec` and the Responses API's flat tools).
    #[test]
    fn the_readme_lists_exactly_the_detected_shapes() {
        let readme = include_str!("../README.md");
        let start = readme
            .find("Inputs are detected")
            .expect("README has the list");
        let end = start
            + readme[start..]
                .find("A provider's built-in tools")
                .expect("the list ends before the built-ins");
        let list = &readme[start..end];
        let all = [
            Format::OpenaiChat,
            Format::OpenaiResponses,
            Format::Anthropic,
            Format::McpToolsList,
            Format::Gemini,
            Format::Bedrock,
            Format::Functions,
            Format::Schema,
            Format::JsonLines,
        ];
        // A new variant stops this match compiling until it is added to `all` and the README.
        for f in all {
            match f {
                Format::OpenaiChat
                | Format::OpenaiResponses
                | Format::Anthropic
                | Format::McpToolsList
                | Format::Gemini
                | Format::Bedrock
                | Format::Functions
                | Format::Schema
                | Format::JsonLines => {}
            }
        }
        // Each shape's name closes its parentheses: "(... ; `name`)" or "(`name`)".
        let list = list.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut named: Vec<&str> = list
            .split("`)")
            .filter_map(|before| {
                let (lead, name) = before.rsplit_once('`')?;
                (lead.ends_with("; ") || lead.ends_with('(')).then_some(name)
            })
            .collect();
        named.sort_unstable();
        let mut expected: Vec<&str> = all.iter().map(|f| f.as_str()).collect();
        expected.sort_unstable();
        assert_eq!(named, expected, "README's list: {list}");
        assert!(list.contains("`toolSpec`") && list.contains("toolConfig.tools[].toolSpec"));
    }

    #[test]
    fn every_shape_is_detected() {
        let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
        let cases = [
            (
                json!([{"type":"function","function":{"name":"f","description":"d","parameters":schema}}]),
                Format::OpenaiChat,
                "/0/function/parameters",
            ),
            (
                json!({"model":"m","tools":[{"type":"function","function":{"name":"f","parameters":schema}}]}),
                Format::OpenaiChat,
                "/tools/0/function/parameters",
            ),
            (
                json!([{"type":"function","name":"f","parameters":schema}]),
                Format::OpenaiResponses,
                "/0/parameters",
            ),
            (
                json!([{"name":"f","description":"d","input_schema":schema}]),
                Format::Anthropic,
                "/0/input_schema",
            ),
            (
                json!({"tools":[{"name":"f","inputSchema":schema}]}),
                Format::McpToolsList,
                "/tools/0/inputSchema",
            ),
            (
                json!({"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"f","inputSchema":schema}]}}),
                Format::McpToolsList,
                "/result/tools/0/inputSchema",
            ),
            (
                json!({"functionDeclarations":[{"name":"f","parameters":schema}]}),
                Format::Gemini,
                "/functionDeclarations/0/parameters",
            ),
            (
                json!([{"functionDeclarations":[{"name":"f","parametersJsonSchema":schema}]}]),
                Format::Gemini,
                "/0/functionDeclarations/0/parametersJsonSchema",
            ),
            (
                json!({"generateContentRequest":{"tools":[{"functionDeclarations":[{"name":"f","parameters":schema}]}]}}),
                Format::Gemini,
                "/generateContentRequest/tools/0/functionDeclarations/0/parameters",
            ),
            (
                json!({"toolConfig":{"tools":[{"toolSpec":{"name":"f","inputSchema":{"json":schema}}}]}}),
                Format::Bedrock,
                "/toolConfig/tools/0/toolSpec/inputSchema/json",
            ),
            (
                json!([{"name":"f","description":"d","parameters":schema}]),
                Format::Functions,
                "/0/parameters",
            ),
            (schema.clone(), Format::Schema, ""),
        ];
        for (doc, format, pointer) in cases {
            let set = read(doc.clone());
            assert_eq!(set.format, format, "{doc}");
            assert_eq!(set.tools.len(), 1, "{doc}");
            assert_eq!(set.tools[0].schema_pointer, pointer, "{doc}");
            assert_eq!(set.tools[0].parameters.as_ref(), Some(&schema), "{doc}");
            // The key the shape requires its schema under, by shape (read from the pointer).
            let required = match format {
                Format::Anthropic => Some("input_schema"),
                Format::McpToolsList => Some("inputSchema"),
                Format::Bedrock => Some("toolSpec.inputSchema"),
                _ => None,
            };
            assert_eq!(set.tools[0].required_schema_key(), required, "{doc}");
        }
    }

    /// Every shape `check` reads records where each tool object is: its pointer leads, in the
    /// parsed file (or JSON Lines line), to an object holding the tool's `name`, and the name
    /// and description pointers lead to those values (the tool object when there is no
    /// description). A bare schema has no tool object.
    #[test]
    fn tool_pointers_lead_to_the_tool_object_in_every_shape() {
        let schema = json!({"type":"object","properties":{"a":{"type":"string"}}});
        let s = &schema;
        let documents = [
            json!([{"type":"function","function":{"name":"f","description":"d","parameters":s}},
                {"type":"function","function":{"name":"g"}}]),
            json!({"model":"m","tools":[{"type":"web_search"},
                {"type":"function","function":{"name":"f","parameters":s}}]}),
            json!([{"type":"function","name":"f","description":"d","parameters":s},
                {"type":"function","name":"g","parameters":s}]),
            json!({"tools":[{"type":"bash_20250124","name":"bash"},
                {"name":"f","description":"d","input_schema":s},{"name":"g","input_schema":s}]}),
            json!({"tools":[{"name":"f","inputSchema":s},{"name":"g","description":"d"}]}),
            json!({"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"f","inputSchema":s},
                {"name":"g","description":"d","inputSchema":s}]}}),
            json!({"functionDeclarations":[{"name":"f","parameters":s},{"name":"g"}]}),
            json!([{"functionDeclarations":[{"name":"f","parametersJsonSchema":s}]},
                {"googleSearch":{}},
                {"functionDeclarations":[{"name":"g","description":"d"},{"name":"h"}]}]),
            json!({"generateContentRequest":{"tools":[{"functionDeclarations":[{"name":"f"}]},
                {"functionDeclarations":[{"name":"g","description":"d","parameters":s}]}]}}),
            json!({"toolConfig":{"tools":[{"toolSpec":{"name":"f","inputSchema":{"json":s}}},
                {"cachePoint":{"type":"default"}},
                {"toolSpec":{"name":"g","description":"d"}}]}}),
            json!({"model":"m","functions":[{"name":"f","parameters":s},{"name":"g"}]}),
            json!([{"name":"f","description":"d","parameters":s},{"name":"g"}]),
            json!({"name":"f","description":"d","parameters":s}),
            json!({"source":"s","license":"MIT","tool":{"name":"f","description":"d","parameters":s}}),
            json!({"source":"s","license":"MIT","tool":{"type":"function","function":{"name":"f"}}}),
        ];
        let joined = |place: Option<(&str, &str)>| place.map(|(tool, key)| format!("{tool}{key}"));
        let resolves = |doc: &Value, t: &ToolEntry| {
            let name = t.name.as_deref().unwrap();
            let tool = t.tool_pointer.as_deref().unwrap();
            let object = doc.pointer(tool).and_then(Value::as_object);
            assert_eq!(
                object.and_then(|o| o.get("name")),
                Some(&json!(name)),
                "{tool} in {doc}"
            );
            let at_name = doc.pointer(&joined(t.name_place()).unwrap());
            assert_eq!(at_name, Some(&json!(name)), "{doc}");
            let at_description = doc.pointer(&joined(t.description_place()).unwrap());
            match &t.description {
                Some(d) => assert_eq!(at_description, Some(&json!(d)), "{doc}"),
                None => assert_eq!(at_description, doc.pointer(tool), "{doc}"),
            }
        };
        let mut lines = String::new();
        for doc in &documents {
            let set = read(doc.clone());
            assert!(!set.tools.is_empty(), "{doc}");
            for t in &set.tools {
                resolves(doc, t);
            }
            lines.push_str(&format!("{doc}\n\n"));
        }
        // The same documents as JSON Lines: each pointer is within its own line.
        let set = from_bytes(Path::new("t.jsonl"), lines.as_bytes()).unwrap();
        let parsed: Vec<Value> = lines
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
            .collect();
        assert!(set.tools.len() > documents.len());
        for t in &set.tools {
            resolves(&parsed[t.line.unwrap() - 1], t);
        }
        // A few exactly, where the tool object is not the list entry.
        let chat = read(documents[1].clone());
        assert_eq!(
            chat.tools[0].tool_pointer.as_deref(),
            Some("/tools/1/function")
        );
        let bedrock = read(documents[9].clone());
        let at: Vec<_> = bedrock
            .tools
            .iter()
            .map(|t| t.tool_pointer.as_deref())
            .collect();
        assert_eq!(
            at,
            [
                Some("/toolConfig/tools/0/toolSpec"),
                Some("/toolConfig/tools/2/toolSpec")
            ]
        );
        let gemini = read(documents[7].clone());
        assert_eq!(
            gemini.tools[2].tool_pointer.as_deref(),
            Some("/2/functionDeclarations/1")
        );
        let corpus = read(documents[13].clone());
        assert_eq!(corpus.tools[0].tool_pointer.as_deref(), Some("/tool"));
        assert_eq!(
            read(documents[12].clone()).tools[0].tool_pointer.as_deref(),
            Some("")
        );
        // A bare schema has no envelope.
        let bare = read(schema.clone());
        assert_eq!(bare.tools[0].tool_pointer, None);
        assert_eq!(bare.tools[0].name_place(), None);
        assert_eq!(bare.tools[0].description_place(), None);
    }

    /// A request-level finding is located at the request's tool list, which every tool of the
    /// request names alike; in Gemini's shape that is `tools`, not one entry's declarations.
    #[test]
    fn list_pointers_lead_to_the_request_tool_list_in_every_shape() {
        let s = json!({"type":"object"});
        for (doc, list) in [
            (
                json!({"tools":[{"type":"web_search"},{"type":"function","function":{"name":"f","parameters":s}},
                    {"type":"function","function":{"name":"g"}}]}),
                "/tools",
            ),
            (
                json!({"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"f","inputSchema":s},{"name":"g"}]}}),
                "/result/tools",
            ),
            (
                json!({"toolConfig":{"tools":[{"toolSpec":{"name":"f"}},{"toolSpec":{"name":"g"}}]}}),
                "/toolConfig/tools",
            ),
            (
                json!({"generateContentRequest":{"tools":[{"functionDeclarations":[{"name":"f"}]},
                    {"googleSearch":{}},{"function_declarations":[{"name":"g"},{"name":"h"}]}]}}),
                "/generateContentRequest/tools",
            ),
            (
                json!({"functionDeclarations":[{"name":"f"},{"name":"g"}]}),
                "/functionDeclarations",
            ),
            (json!([{"functionDeclarations":[{"name":"f"}]}]), ""),
            (
                json!({"functions":[{"name":"f"},{"name":"g"}]}),
                "/functions",
            ),
            (json!([{"name":"f"},{"name":"g"}]), ""),
            (json!({"name":"f","parameters":s}), ""),
            (json!({"type":"function","function":{"name":"f"}}), ""),
            (
                json!({"source":"s","license":"MIT","tool":{"name":"f"}}),
                "/tool",
            ),
            (json!({"type":"object","properties":{}}), ""),
        ] {
            let set = read(doc.clone());
            assert!(!set.tools.is_empty(), "{doc}");
            for t in &set.tools {
                assert_eq!(t.list_pointer(), list, "{doc}");
                assert!(doc.pointer(list).is_some(), "{doc}");
            }
        }
    }

    /// A tool list's key written twice, its last value empty, was refused as "the tool list
    /// is empty" at the whole file, hiding the tool written first (trial 45 D4): the error is
    /// at that key and says so, in a document and in a JSON Lines line; a key of another name
    /// written twice leaves the error as it was.
    #[test]
    fn an_empty_tool_list_written_twice_names_the_key() {
        let tool = r#"{"name":"a","input_schema":{"type":"object"}}"#;
        for (text, at, key) in [
            (
                format!(r#"{{"tools":[{tool}],"tools":[]}}"#),
                "at /tools",
                "tools",
            ),
            (
                format!(r#"{{"toolConfig":{{"tools":[{tool}],"tools":[]}}}}"#),
                "at /toolConfig/tools",
                "tools",
            ),
            (
                r#"{"functionDeclarations":[{"name":"a"}],"functionDeclarations":[]}"#.into(),
                "at /functionDeclarations",
                "functionDeclarations",
            ),
        ] {
            let set = from_bytes(Path::new("t.json"), text.as_bytes()).unwrap();
            let e = require_tools(&set).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!(
                    "t.json: {at}: no tools found (the tool list is empty): the key `{key}` is \
                     written more than once, and only its last value, which holds none, was read"
                )),
                "{e}"
            );
            let e = for_each_request(
                Path::new("t.json"),
                text.as_bytes(),
                &mut |_, _| {},
                &mut |_| {},
            );
            assert_eq!(
                e.unwrap_err().to_string(),
                require_tools(&set).unwrap_err().to_string()
            );
        }
        let lines = format!("{{\"tools\":[]}}\n{{\"tools\":[{tool}],\"tools\":[]}}\n");
        let e = for_each_request(
            Path::new("t.jsonl"),
            lines.as_bytes(),
            &mut |_, _| {},
            &mut |_| {},
        );
        let e = e.unwrap_err().to_string();
        assert!(
            e.starts_with("t.jsonl: line 2, at /tools: no tools found"),
            "{e}"
        );
        let other = r#"{"model":"a","model":"b","tools":[]}"#;
        let set = from_bytes(Path::new("t.json"), other.as_bytes()).unwrap();
        assert_eq!(
            require_tools(&set).unwrap_err().to_string(),
            "t.json: (whole file): no tools found (the tool list is empty)"
        );
    }

    /// A tool list's key written twice whose last value is no list and holds no tool (`null`,
    /// `{}`, a string) is named so, as an empty last list is (trial 46 D7: "expected a list of
    /// tools, found a JSON null", and for `{}` advice to write the tool in a list, though it
    /// was), in a document, nested, and in a JSON Lines line read strictly or by check; a
    /// last value holding a tool object, or another key written twice, leaves the error as it
    /// was.
    #[test]
    fn a_tool_list_written_twice_its_last_holding_none_names_the_key() {
        let tool = r#"{"name":"a","input_schema":{"type":"object"}}"#;
        let twice = |at: &str, found: &str| {
            format!(
                "{at}: no tools found (the tool list is {found}): the key `tools` is written \
                 more than once, and only its last value, which holds none, was read"
            )
        };
        for (last, found) in [
            ("null", "a JSON null"),
            ("{}", "an empty object"),
            (r#""none""#, "a JSON string"),
        ] {
            let text = format!(r#"{{"tools":[{tool}],"tools":{last}}}"#);
            let e = from_bytes(Path::new("t.json"), text.as_bytes()).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with(&twice("t.json: at /tools", found)),
                "{e}"
            );
            let nested = format!(r#"{{"toolConfig":{{"tools":[{tool}],"tools":{last}}}}}"#);
            let e = from_bytes(Path::new("t.json"), nested.as_bytes()).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with(&twice("t.json: at /toolConfig/tools", found)),
                "{e}"
            );
            let lines = format!("{{\"tools\":[{tool}]}}\n{text}\n");
            let e = from_bytes(Path::new("t.jsonl"), lines.as_bytes()).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with(&twice("t.jsonl: line 2, at /tools", found)),
                "{e}"
            );
            let mut bad = Vec::new();
            for_each_request(
                Path::new("t.jsonl"),
                lines.as_bytes(),
                &mut |_, _| {},
                &mut |e| bad.push(e.to_string()),
            )
            .unwrap();
            assert!(
                bad[0].starts_with(&twice("t.jsonl: line 2, at /tools", found)),
                "{bad:?}"
            );
        }
        for (text, error) in [
            (
                format!(r#"{{"tools":[{tool}],"tools":{tool}}}"#),
                "t.json: at /tools: expected a list of tools, found one tool object",
            ),
            (
                r#"{"model":"a","model":"b","tools":null}"#.to_string(),
                "t.json: at /tools: expected a list of tools, found a JSON null",
            ),
        ] {
            let e = from_bytes(Path::new("t.json"), text.as_bytes()).unwrap_err();
            assert!(e.to_string().starts_with(error), "{e}");
        }
    }

    /// A file with no tool at all is bad input for every reader that checks, repairs or
    /// compiles; one of built-in tools only is not.
    #[test]
    fn a_file_with_no_tool_at_all_is_refused() {
        for text in [
            "[]",
            r#"{"tools":[]}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#,
            r#"{"functionDeclarations":[]}"#,
        ] {
            let set = from_bytes(Path::new("t.json"), text.as_bytes()).unwrap();
            let e = require_tools(&set).unwrap_err().to_string();
            assert_eq!(
                e,
                "t.json: (whole file): no tools found (the tool list is empty)"
            );
            let e = for_each_request(
                Path::new("t.json"),
                text.as_bytes(),
                &mut |_, _| {},
                &mut |_| {},
            )
            .unwrap_err();
            assert!(matches!(e, Error::Input { .. }), "{e}");
        }
        let e = for_each_request(
            Path::new("t.jsonl"),
            b"{\"tools\":[]}\n[]\n",
            &mut |_, _| {},
            &mut |_| {},
        )
        .unwrap_err();
        assert!(e.to_string().contains("no tools found"), "{e}");
        // Keys written twice are found with their lines and places, in a document too.
        let text = "{\"name\":\"a\",\"name\":\"b\"}\n{\"name\":\"c\",\"parameters\":{\"type\":\"object\",\"type\":\"object\"}}\n";
        let set = from_bytes(Path::new("t.jsonl"), text.as_bytes()).unwrap();
        let found: Vec<(Option<usize>, &str, &str)> = set
            .duplicate_keys
            .iter()
            .map(|d| (d.line, d.pointer.as_str(), d.key.as_str()))
            .collect();
        assert_eq!(
            found,
            [(Some(1), "", "name"), (Some(2), "/parameters", "type")]
        );
        assert_eq!(
            set.tools[0].name.as_deref(),
            Some("b"),
            "the last value is read"
        );
        let read = for_each_request(
            Path::new("t.jsonl"),
            text.as_bytes(),
            &mut |_, _| {},
            &mut |_| {},
        );
        assert_eq!(read.unwrap().duplicate_keys, set.duplicate_keys);
        let doc = "\u{feff}[{\"name\":\"a\",\"description\":\"x\",\"description\":\"y\"}]";
        let set = from_bytes(Path::new("t.json"), doc.as_bytes()).unwrap();
        assert_eq!(set.duplicate_keys.len(), 1);
        assert_eq!(
            (
                set.duplicate_keys[0].line,
                set.duplicate_keys[0].pointer.as_str()
            ),
            (None, "/0")
        );
        // Lines with no tool beside lines with some are passed over, and listed.
        let text = "[]\n\n{\"name\":\"a\"}\n{\"tools\":[]}\n";
        let set = from_bytes(Path::new("t.jsonl"), text.as_bytes()).unwrap();
        assert_eq!((set.tools.len(), set.empty_lines), (1, vec![1, 4]));
        let read = for_each_request(
            Path::new("t.jsonl"),
            text.as_bytes(),
            &mut |_, _| {},
            &mut |_| {},
        );
        assert_eq!(read.unwrap().empty_lines, [1, 4]);
        // `tools` as one object: Gemini's Tool only.
        let one = br#"{"tools":{"type":"function","function":{"name":"a"}}}"#;
        let e = from_bytes(Path::new("t.json"), one)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.json: at /tools: expected a list of tools, found one tool object"),
            "{e}"
        );
        let gemini = br#"{"tools":{"functionDeclarations":[{"name":"a"}]}}"#;
        assert_eq!(
            from_bytes(Path::new("t.json"), gemini).unwrap().tools.len(),
            1
        );
        let builtins_only = br#"[{"type":"web_search"}]"#;
        let set = from_bytes(Path::new("t.json"), builtins_only).unwrap();
        assert!(require_tools(&set).is_ok());
        let read = for_each_request(
            Path::new("t.json"),
            builtins_only,
            &mut |_, _| {},
            &mut |_| {},
        );
        assert_eq!(read.unwrap().tools, 0);
    }

    /// A JSON Lines line that is not JSON or no known shape stopped the whole file, so the
    /// other lines' tools were never checked.
    #[test]
    fn bad_json_lines_are_handed_over_and_the_other_lines_read() {
        let tool =
            |name: &str| format!("{{\"name\":\"{name}\",\"parameters\":{{\"type\":\"object\"}}}}");
        let lenient = |text: &str| {
            let mut requests = Vec::new();
            let mut bad = Vec::new();
            let read = for_each_request(
                Path::new("t.jsonl"),
                text.as_bytes(),
                &mut |tools, _| {
                    requests.extend(tools.iter().map(|t| (t.request, t.index, t.name.clone())));
                },
                &mut |e| bad.push(e.to_string()),
            );
            (read.map_err(|e| e.to_string()), requests, bad)
        };
        // A list whose second tool is bad: its first tool is no request either.
        let text = [
            tool("a"),
            "not json at all".into(),
            format!("[{},{{\"name\":7}}]", tool("x")),
            "{\"foo\":1}".into(),
            tool("b"),
        ]
        .join("\n");
        let (read, requests, bad) = lenient(&text);
        let read = read.unwrap();
        assert_eq!((read.tools, read.empty_lines.len()), (2, 0));
        assert_eq!(
            requests,
            [(1, 0, Some("a".into())), (5, 1, Some("b".into()))]
        );
        assert_eq!(
            bad,
            [
                "t.jsonl: line 2, column 2: expected `true`, `false` or `null` (a bare word is \
                 not JSON: strings are quoted)",
                "t.jsonl: line 3, at /1/name: the tool name must be a string, found a JSON number",
                &format!("t.jsonl: line 4: unknown shape (keys: foo); {EXPECTED}"),
            ]
        );
        // Read strictly (repair, compile), the first bad line is the file's error.
        let strict = from_bytes(Path::new("t.jsonl"), text.as_bytes()).unwrap_err();
        assert_eq!(strict.to_string(), bad[0]);
        // No line with a tool: the first bad line is the file's error, as before.
        let (read, requests, bad) = lenient("not json\n[]\n{\"foo\":1}\n");
        let e = read.unwrap_err();
        assert!(e.starts_with("t.jsonl: line 1, column 2: expected"), "{e}");
        assert!(requests.is_empty() && bad.is_empty());
        // A line past the nesting cap stops the whole file.
        let deep = format!("{}{}", "[".repeat(600), "]".repeat(600));
        let (read, _, bad) = lenient(&format!("{}\n{deep}\n", tool("a")));
        assert!(
            read.unwrap_err()
                .ends_with("nesting deeper than 512 levels")
        );
        assert!(bad.is_empty());
        // Past the bound, one error says how many more.
        let many = format!("{}\n{}", tool("a"), "x\n".repeat(BAD_LINES_SHOWN + 2));
        let (read, _, bad) = lenient(&many);
        let read = read.unwrap();
        assert_eq!(
            (read.tools, read.unreadable_lines),
            (1, BAD_LINES_SHOWN + 2)
        );
        assert_eq!(bad.len(), BAD_LINES_SHOWN + 1);
        assert_eq!(
            bad[BAD_LINES_SHOWN],
            "t.jsonl: (whole file): 2 more lines could not be read (only the first 100 are \
             reported)"
        );
    }

    /// A line of a `.jsonl` file that is not UTF-8 is one bad line, in line order with the
    /// others, and the other lines are read (trial 49 D7: the whole file was refused, every
    /// other line's findings lost). A file with no UTF-8 line holding a tool, or named
    /// otherwise, is still refused whole.
    #[test]
    fn a_json_lines_line_that_is_not_utf8_is_one_bad_line() {
        let tool = |name: &str| format!("{{\"name\":\"{name}\"}}").into_bytes();
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend(tool("a"));
        bytes.extend(b"\n{\"name\":\"b\xFF\"}\nnot json\n");
        bytes.extend(tool("c"));
        let (mut names, mut bad) = (Vec::new(), Vec::new());
        let read = for_each_request(
            Path::new("t.jsonl"),
            &bytes,
            &mut |tools, _| names.extend(tools.iter().map(|t| (t.request, t.name.clone()))),
            &mut |e| bad.push(e.to_string()),
        )
        .unwrap();
        assert_eq!(names, [(1, Some("a".into())), (4, Some("c".into()))]);
        assert_eq!(read.unreadable_lines, 2);
        assert_eq!(bad.len(), 2);
        assert_eq!(
            bad[0],
            "t.jsonl: line 2, column 11: invalid UTF-8 (the line must be UTF-8 text)"
        );
        assert!(bad[1].starts_with("t.jsonl: line 3, column 2: "), "{bad:?}");
        let whole = |file: &str, bytes: &[u8]| {
            for_each_request(Path::new(file), bytes, &mut |_, _| {}, &mut |_| {})
                .unwrap_err()
                .to_string()
        };
        assert!(whole("t.json", &bytes).contains("invalid UTF-8 (the file must be UTF-8 text)"));
        assert!(
            whole("t.jsonl", b"{\"name\":\"\xFF\"}\n")
                .contains("invalid UTF-8 (the file must be UTF-8 text)")
        );
        // No tool in any line: the first bad line, whichever kind (trial 50 D4).
        assert!(whole("t.jsonl", b"hello\n\xFF\n").starts_with("t.jsonl: line 1, column "));
        assert!(
            whole("t.jsonl", b"\xFF\nhello\n")
                .starts_with("t.jsonl: line 1, column 1: invalid UTF-8 (the file must")
        );
    }

    /// A file recognised as JSON Lines by its content (standard input, a `.txt`) stopped at
    /// its first bad line, so the other lines' tools were never checked, while the same file
    /// named `.jsonl` had them checked. Its content is trusted only once a line held a tool:
    /// a JSON log or YAML is refused at its first bad line, not reported line by line.
    #[test]
    fn json_lines_known_by_content_are_read_leniently_once_a_line_held_a_tool() {
        let tool =
            |name: &str| format!("{{\"name\":\"{name}\",\"parameters\":{{\"type\":\"object\"}}}}");
        let read_as = |file: &str, text: &str| {
            let mut names = Vec::new();
            let mut bad = Vec::new();
            let read = for_each_request(
                Path::new(file),
                text.as_bytes(),
                &mut |tools, _| names.extend(tools.iter().map(|t| t.name.clone())),
                &mut |e| bad.push(e.to_string()),
            );
            (read.map_err(|e| e.to_string()), names, bad)
        };
        let text = format!("{}\nnot json\n\n{}\n", tool("a"), tool("b"));
        for file in ["-", "t.txt", "t.json"] {
            let (read, names, bad) = read_as(file, &text);
            let read = read.unwrap();
            assert_eq!(read.format, Format::JsonLines);
            assert_eq!((read.tools, read.unreadable_lines), (2, 1), "{file}");
            assert_eq!(names, [Some("a".into()), Some("b".into())]);
            assert_eq!(bad.len(), 1);
            assert!(
                bad[0].ends_with(
                    ": line 2, column 2: expected `true`, `false` or `null` \
                 (a bare word is not JSON: strings are quoted)"
                ),
                "{}",
                bad[0]
            );
        }
        // A JSON log: its first line is JSON, but no line is a tool.
        let log = "{\"level\":\"info\",\"msg\":\"up\"}\n{\"level\":\"warn\"}\nplain\n".repeat(3);
        let (read, names, bad) = read_as("app.log", &log);
        let e = read.unwrap_err();
        assert!(
            e.starts_with("app.log: line 1: unknown shape (keys: level, msg)"),
            "{e}"
        );
        assert!(names.is_empty() && bad.is_empty());
        // YAML is no JSON Lines at all: one error, at its first line and column.
        let yaml = "name: a\nparameters:\n  type: object\n";
        let (read, _, bad) = read_as("t.yaml", yaml);
        let e = read.unwrap_err();
        assert!(e.starts_with("t.yaml: line 1, column 2: expected"), "{e}");
        assert!(e.contains("YAML is not taken here"), "{e}");
        assert!(bad.is_empty());
        // Before any tool, a bad line is the file's error; named `.jsonl`, it is passed over.
        let late = format!("{{\"tools\":[]}}\nnot json\n{}\n", tool("a"));
        let (read, _, bad) = read_as("-", &late);
        let e = read.unwrap_err();
        assert!(
            e.starts_with("standard input: line 2, column 2: expected"),
            "{e}"
        );
        assert!(bad.is_empty());
        let (read, _, bad) = read_as("t.jsonl", &late);
        assert_eq!(read.unwrap().unreadable_lines, 1);
        assert_eq!(bad.len(), 1);
        // One document is read whole, its error the file's, as before.
        let (read, _, bad) = read_as("-", "[{\"name\": 7}]");
        let e = read.unwrap_err();
        assert!(e.starts_with("standard input: at /0: unknown shape"), "{e}");
        assert!(bad.is_empty());
    }

    #[test]
    fn a_50_mb_file_is_refused_before_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json");
        // Sparse: no disk is written, and nothing is read.
        std::fs::File::create(&path)
            .unwrap()
            .set_len(50 * 1024 * 1024)
            .unwrap();
        let err = read_file(&path).unwrap_err().to_string();
        assert!(
            err.ends_with(
                "(whole file): file is 52428800 bytes, larger than the limit of 16777216 bytes"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_ref_cycle_is_read_and_checked_without_expansion() {
        let text = r##"{"name":"w","parameters":{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/a"}}}}"##;
        let set = from_bytes(Path::new("c.json"), text.as_bytes()).unwrap();
        let seen = crate::profile::detect::collect(&[set.tools[0].as_ref()]);
        assert!(
            seen.iter()
                .any(|s| s.parameter == "keyword-allowed: $ref (self-reference)")
        );
    }

    #[test]
    fn a_file_starting_with_a_byte_order_mark_is_read() {
        let tool = "{\"name\":\"a\",\"parameters\":{\"type\":\"object\"}}";
        for name in ["bom.json", "bom.jsonl"] {
            let bytes = [crate::json::BOM.as_bytes(), tool.as_bytes()].concat();
            let set = from_bytes(Path::new(name), &bytes).unwrap();
            assert_eq!(set.tools.len(), 1, "{name}");
            assert_eq!(set.tools[0].name.as_deref(), Some("a"), "{name}");
        }
    }

    #[test]
    fn opening_brackets_are_counted_in_any_block() {
        for text in [
            "",
            "[{\"a\":[1,{}]}]",
            &"{[x]}".repeat(300),
            "[{;:}]\u{7b}\u{5b}",
        ] {
            let slow = text.bytes().filter(|&b| b == b'[' || b == b'{').count();
            assert_eq!(opening_brackets(text.as_bytes()), slow, "{text}");
        }
        let every_byte: Vec<u8> = (0..=255u8).collect();
        assert_eq!(opening_brackets(&every_byte), 2);
    }

    #[test]
    fn json_lines_are_one_request_per_line() {
        let text = "{\"source\":\"s\",\"license\":\"MIT\",\"tool\":{\"name\":\"a\",\"parameters\":{\"type\":\"object\"}}}\n\n{\"name\":\"b\",\"description\":\"x\"}\n";
        let set = from_bytes(Path::new("c.txt"), text.as_bytes()).unwrap();
        assert_eq!(set.format, Format::JsonLines);
        assert_eq!(set.tools.len(), 2);
        assert_eq!(set.tools[1].line, Some(3));
        assert_eq!(set.tools[1].parameters, None);
        assert_eq!(set.requests().count(), 2);
    }

    /// The error for `doc`, read as the file `x.json`.
    fn refusal(doc: Value) -> String {
        from_value(Path::new("x.json"), doc)
            .unwrap_err()
            .to_string()
    }

    /// Trial 88 D3: a schema keyword beside a tool's `name` is refused at the keyword, with
    /// or without a schema key beside it; read as the tool's, `{"name", "properties",
    /// "required"}` was a tool taking no arguments. `type` (a Responses tool's `"function"`)
    /// and annotations (`title`) are a tool's own keys too.
    #[test]
    fn a_schema_keyword_beside_a_tool_is_refused() {
        let no_schema = refusal(json!({"name": "get_weather",
            "properties": {"city": {"type": "string"}}, "required": ["city"]}));
        assert_eq!(
            no_schema,
            "x.json: at /properties: `properties` is a JSON Schema keyword beside the tool's \
             `name`, where no provider reads it as part of the parameters schema (it has no \
             `parameters`, so it would be sent as taking no arguments); move the schema's \
             keywords into `parameters` (or, for a bare schema, remove `name`, which is no \
             schema keyword)"
        );
        let mcp = refusal(
            json!({"tools": [{"name": "f", "inputSchema": {"type": "object"},
            "required": ["a"]}]}),
        );
        assert!(
            mcp.starts_with("x.json: at /tools/0/required: `required` is a JSON Schema keyword")
                && mcp.contains("(its schema is `inputSchema`)"),
            "{mcp}"
        );
        let chat = refusal(json!({"tools": [{"type": "function",
            "function": {"name": "f", "anyOf": [{"type": "object"}]}}]}));
        assert!(
            chat.starts_with("x.json: at /tools/0/function/anyOf: "),
            "{chat}"
        );
        let set = from_value(
            Path::new("x.json"),
            json!({"tools": [{"type": "function", "name": "f", "title": "F",
                "parameters": {"type": "object"}}]}),
        )
        .unwrap();
        assert_eq!(set.tools.len(), 1);
    }

    /// A tool with two parameters schemas is refused at the tool, naming both keys: checking
    /// one while the provider may read the other would pass a schema nobody checked.
    #[test]
    fn a_tool_with_two_parameters_schemas_is_refused() {
        let object = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let gemini = refusal(json!({"functionDeclarations": [
            {"name": "ok", "parameters": object},
            {"name": "f", "parameters": object, "parametersJsonSchema": object}]}));
        assert!(
            gemini.starts_with(
                "x.json: at /functionDeclarations/1: the declaration has both \
                 `parameters` and `parametersJsonSchema`, which Gemini's FunctionDeclaration \
                 documents as mutually exclusive"
            ),
            "{gemini}"
        );
        let snake = refusal(json!([{"name": "f", "parameters": object,
            "parameters_json_schema": object}]));
        assert!(
            snake.contains("both `parameters` and `parameters_json_schema`"),
            "{snake}"
        );
        // Either order in the object: the keys are named the same way.
        for tool in [
            json!({"name": "both", "description": "d", "parameters": object,
                "input_schema": {"type": "string"}}),
            json!({"input_schema": {"type": "string"}, "name": "both", "parameters": object}),
        ] {
            let e = refusal(json!([tool]));
            assert!(
                e.starts_with(
                    "x.json: at /0: the tool has two parameters schemas, \
                     `parameters` and `input_schema`"
                ),
                "{e}"
            );
            assert!(e.contains("read as Anthropic tools (input_schema)"), "{e}");
        }
        let chat = refusal(json!({"tools": [{"type": "function", "function":
            {"name": "f", "parameters": object, "inputSchema": object}}]}));
        assert!(
            chat.starts_with(
                "x.json: at /tools/0/function: the tool has two parameters schemas, \
                 `parameters` and `inputSchema`"
            ),
            "{chat}"
        );
        // A schema key beside `function` is no schema Chat Completions reads: refused at the
        // tool, not dropped unread (trial 43: `input_schema` there gave "0 findings").
        let beside = refusal(json!({"tools": [{"type": "function", "function":
            {"name": "a", "parameters": object}, "name": "b", "input_schema": object}]}));
        assert!(
            beside
                .starts_with("x.json: at /tools/0: the tool has `input_schema` beside `function`"),
            "{beside}"
        );
        // `null` beside `function` is no schema: the tool reads.
        let set = read(json!({"tools": [{"type": "function", "function":
            {"name": "a", "parameters": object}, "parameters": null, "input_schema": null}]}));
        assert_eq!(set.tools[0].parameters.as_ref(), Some(&object));
        // One schema key, whichever, still reads.
        for key in [
            "parameters",
            "input_schema",
            "inputSchema",
            "parametersJsonSchema",
        ] {
            let set = read(json!([{"name": "f", key: object}]));
            assert_eq!(set.tools[0].parameters.as_ref(), Some(&object), "{key}");
        }
    }

    /// A list whose tools are in two providers' shapes is refused at the first tool whose
    /// shape differs from the list's (its first tool's), naming both shapes.
    #[test]
    fn a_list_mixing_providers_shapes_is_refused_at_the_odd_tool() {
        let object = json!({"type": "object", "properties": {}});
        let chat = json!({"type": "function", "function": {"name": "a", "parameters": object}});
        let anthropic = json!({"name": "b", "input_schema": object});
        let e = refusal(json!([chat, anthropic]));
        assert!(
            e.starts_with(
                "x.json: at /1: this tool is in the Anthropic tools (input_schema) \
                 shape, but the list is read as OpenAI Chat Completions tools"
            ),
            "{e}"
        );
        let e = refusal(json!({"tools": [anthropic, chat]}));
        assert!(
            e.starts_with(
                "x.json: at /tools/1: this tool is in the OpenAI Chat Completions \
                 tools"
            ),
            "{e}"
        );
        assert!(e.contains("the list is read as Anthropic tools"), "{e}");
        let responses = json!({"type": "function", "name": "c", "parameters": object});
        let e = refusal(json!([chat, chat, responses]));
        assert!(
            e.starts_with("x.json: at /2: this tool is in the OpenAI Responses"),
            "{e}"
        );
        // A Gemini request's `tools` holds Tool objects: a Chat tool among them is refused.
        let e = refusal(json!({"tools": [
            {"functionDeclarations": [{"name": "a", "parameters": object}]}, chat]}));
        assert!(
            e.starts_with("x.json: at /tools/1: this tool is in the OpenAI Chat Completions"),
            "{e}"
        );
        assert!(
            e.contains("the list is read as Gemini functionDeclarations"),
            "{e}"
        );
        // Gemini's declarations are the plain declaration shape with `parameters`: the two
        // mix, and built-in tools mix with any shape.
        let set = read(json!({"functionDeclarations": [
            {"name": "a", "parameters": object},
            {"name": "b", "parametersJsonSchema": object}]}));
        assert_eq!(set.tools.len(), 2);
        let set = read(json!([chat, {"type": "web_search"}, chat]));
        assert_eq!((set.format, set.tools.len()), (Format::OpenaiChat, 2));
    }

    /// An item of a list with no tool shape of its own (`{}`, `{"foo": 1}`) after an OpenAI
    /// Chat or Bedrock tool is named at the item, by what it lacks, as in an Anthropic list
    /// (`at /1: the tool has no `name``): it was `at /1/function: `function` must be an
    /// object`, a place the file does not have (trial 63 D2). A `function` that is there but
    /// no object is still named at its own place.
    #[test]
    fn a_list_item_without_its_lists_key_is_named_at_the_item() {
        let object = json!({"type": "object", "properties": {}});
        let chat = json!({"type": "function", "function": {"name": "a", "parameters": object}});
        let bedrock = json!({"toolSpec": {"name": "b", "inputSchema": {"json": object}}});
        for junk in [json!({"foo": 1}), json!({})] {
            let e = refusal(json!([chat, junk]));
            assert_eq!(e, "x.json: at /1: the tool has no `function`", "{junk}");
            let e = refusal(json!({"tools": [chat, chat, junk]}));
            assert_eq!(e, "x.json: at /tools/2: the tool has no `function`");
            let e = refusal(json!([bedrock, junk]));
            assert_eq!(e, "x.json: at /1: the tool has no `toolSpec`", "{junk}");
            let e = refusal(json!([{"name": "c", "input_schema": object}, junk]));
            assert_eq!(e, "x.json: at /1: the tool has no `name`");
        }
        let e = refusal(json!([chat, {"type": "function", "function": "f"}]));
        assert_eq!(e, "x.json: at /1/function: `function` must be an object");
        let e = refusal(json!([bedrock, {"toolSpec": []}]));
        assert_eq!(e, "x.json: at /1/toolSpec: `toolSpec` must be an object");
    }

    #[test]
    fn bad_inputs_name_file_and_place() {
        let err = |text: &str, name: &str| {
            from_bytes(Path::new(name), text.as_bytes())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("{\"a\": ", "x.json"),
            "x.json: line 1, column 6: EOF while parsing a value"
        );
        assert_eq!(
            err("{\"hello\": 1}", "x.json"),
            format!("x.json: at the document root: unknown shape (keys: hello); {EXPECTED}")
        );
        // A tools/list response without its `jsonrpc` (trial 71) is told how to pass it.
        assert_eq!(
            err("{\"result\": {\"tools\": [{\"name\": \"a\"}]}}", "x.json"),
            format!(
                "x.json: at the document root: unknown shape (keys: result); {EXPECTED} \
                 (`result.tools` holds tools: an MCP tools/list response keeps its \
                 `\"jsonrpc\": \"2.0\"`, or give the `result` object alone)"
            )
        );
        assert_eq!(
            err(
                "[{\"type\":\"function\",\"function\":{\"name\":3}}]",
                "x.json"
            ),
            "x.json: at /0/function/name: the tool name must be a string, found a JSON number"
        );
        assert_eq!(
            err(
                "{\"name\":\"a\"}\n{\"name\":\"b\",\"description\":7}\n",
                "x.jsonl"
            ),
            "x.jsonl: line 2, at /description: the description must be a string, found a JSON number"
        );
        assert_eq!(
            err("{\"name\":\"a\"}\n{\"name\":\n", "x.jsonl"),
            "x.jsonl: line 2, column 9: EOF while parsing a value"
        );
        assert_eq!(
            err("42", "x.json"),
            format!(
                "x.json: at the document root: a JSON number is not a tool definition; {EXPECTED}"
            )
        );
        // A declaration's name that is no string is named as such, in a plain list too.
        assert_eq!(
            err(
                "[{\"name\":1,\"description\":\"d\",\"parameters\":{}}]",
                "x.json"
            ),
            "x.json: at /0/name: the tool name must be a string, found a JSON number"
        );
        assert_eq!(
            err("[{\"name\":null,\"parameters\":{}}]", "x.json"),
            "x.json: at /0/name: the tool name must be a string, found a JSON null"
        );
        // What an MCP server's tools/list answered when it failed.
        assert_eq!(
            err(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"m\"}}",
                "x.json"
            ),
            "x.json: at /error: a JSON-RPC error response holds no tools (the request failed; an \
             MCP tools/list result is in `result`)"
        );
        assert_eq!(
            err("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}", "x.json"),
            "x.json: at /result: a JSON-RPC `result` must be an object (an MCP tools/list \
             result), found a JSON null"
        );
    }
}
