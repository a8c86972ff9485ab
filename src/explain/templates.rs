//! Each provider's message templates, read into raw problems, and their resolution against
//! the request's tools. Templates and their sources: `evidence/PROVIDERS.md` (Google T1–T10 and
//! validator messages; OpenAI, Anthropic, Bedrock, Mistral, Cohere, xAI, DeepSeek, Groq,
//! OpenRouter, Ollama envelopes) and the verbatim errors in `reports/documented/reports.yaml`
//! (Moonshot, llama.cpp, Fireworks, Vertex "Unable to submit request") and
//! `reports/documented/requests.yaml` (two tools of one name, Anthropic's and Gemini's words),
//! and the words toolwire's offline models infer where no provider's text is known (OpenAI's
//! tool-count and strict depth limits), read so that compile names the rule of their refusals.

use std::collections::HashSet;
use std::rc::Rc;
use std::sync::LazyLock;

use regex::{Captures, Regex};
use serde_json::Value;

use super::{Against, Explanation, Located, RequestTool, at_keyword, fix_for};
use crate::json::{append_token, push_token};
use crate::schema::walk;

/// Which tool a message names.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum ToolLoc {
    /// Google `tools[group].function_declarations[position]` (group absent in some paths).
    Google {
        group: Option<usize>,
        position: usize,
    },
    /// A flat index (`tools.N`, `tools[N]`, `toolConfig.tools.N`).
    Index(usize),
    /// A name (`function 'f'`, `` `f` functionDeclaration ``).
    Name(String),
    /// Both.
    IndexName(usize, String),
    /// Not said: found by where the place resolves.
    Unknown,
    /// The problem is not about one tool (tool count, a request field).
    NotATool,
    /// Two or more tools share a name: the one given (Gemini names it) or, when `None`, any
    /// name the request repeats (Anthropic names none). Resolved to each tool sharing the
    /// name, where `check` reports `name-duplicate`.
    SharedName(Option<String>),
    /// Each tool whose parameters declare properties and require none (Cohere strict's "a
    /// tool with optional parameters", named by no index or name). Resolved to each such
    /// tool ([`resolve_all_optional`]).
    AllOptional,
}

/// What a Google positional path must find to be trusted.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Expect {
    /// The node has this key.
    Keyword(String),
    /// The node lacks this key (a message that says it is missing).
    Absent(String),
    /// The node's `type` is a list.
    TypeList,
    /// The value at the pointer, as JSON text, is this (a Google "Invalid value" echo).
    Value(String),
    Nothing,
}

/// Where in the tool's schema a message points.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Place {
    /// The schema root.
    Root,
    /// The tool itself (name, description).
    Tool,
    /// A Google path after `parameters` (`.properties[3].value.any_of[0]`), then a keyword.
    Google {
        path: String,
        keyword: Option<String>,
        expect: Expect,
    },
    /// A JSON Pointer built from names the provider gave.
    Pointer(String),
    /// Property names from the root (Vertex's `parameters.a.b`).
    PropertyPath(Vec<String>),
    /// The subschema the provider echoed.
    Echo(Value),
    /// Only "the schema is invalid": locate with the draft 2020-12 meta-schema. The place the
    /// message names, when it names one (OpenAI's `In context=('properties', 'a'), 'object'
    /// is not of type 'object', 'boolean'`: the value there is no schema), is the place
    /// without a request to search.
    Meta(Option<String>),
    /// Found by a condition on the schema.
    Search(Cond),
    /// Nothing to locate.
    None,
}

/// A condition a node must meet.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Cond {
    HasKeyword(String),
    RefTo(String),
    RefNamedWithSiblings(String),
    TypeList,
    /// `items` given as a list (draft-07 tuple form).
    ItemsList,
    UnanchoredPattern,
    AnyPattern,
    RequiredUndeclared(Vec<String>),
    RootCombinator,
    /// Each of these, at its first place: one problem per condition met (a message that lists
    /// several names, or several possible causes).
    Each(Vec<Cond>),
}

/// One problem read from a message, before resolution.
#[derive(Debug, Clone)]
pub(super) struct Raw {
    pub provider: &'static str,
    /// Shared: a template may read several problems out of one statement (a list of places
    /// after one Bedrock preamble, Mistral's message for every `loc`), each quoting all of it.
    pub message: Rc<str>,
    pub tool: ToolLoc,
    pub place: Place,
    pub rule: Option<&'static str>,
    /// A fix for problems no rule covers (the strict structured-outputs requirements), or
    /// the message's own narrower one than its rule's (Gemini's siblings of `$ref`).
    pub fix: Option<&'static str>,
    pub notes: Vec<String>,
    /// Whether the rule holds only where the place is found: the message names no place, and
    /// the rule is the cause its public report found, which a request without that place
    /// does not have (see [`Raw::only_where_found`]).
    pub rule_needs_place: bool,
    /// The JSON type the provider says it found at the place (Bedrock's `$.properties: null
    /// found, object expected`): a request with another value there is not the one the error
    /// is about (see [`found_elsewhere`]).
    pub found: Option<&'static str>,
    /// Where `message` starts in the text read (set by [`read`]); `None` for a template's
    /// fixed wording that is not in it.
    pub at: Option<usize>,
    /// The address `message` was taken from. Templates take their messages as slices of the
    /// text, so [`read`] finds each one's offset from this in O(1): looking a message up in
    /// the text instead costs a scan per problem, quadratic on an error listing thousands.
    origin: usize,
}

impl Raw {
    fn new(provider: &'static str, message: &str, tool: ToolLoc, place: Place) -> Raw {
        let message = message.trim();
        // Past twice what a statement quotes (see `envelope::statement`), a message is kept
        // only as far as it is quoted, with enough beyond to show it was cut: a text that is one
        // huge line would otherwise be copied once per problem on it.
        let message = &message[..floor_boundary(message, 2 * LINE_READ)];
        Raw {
            provider,
            message: Rc::from(message),
            tool,
            place,
            rule: None,
            fix: None,
            notes: Vec::new(),
            rule_needs_place: false,
            found: None,
            at: None,
            origin: message.as_ptr() as usize,
        }
    }
    /// What tells one problem from another: everything but where the text states it, so a
    /// problem stated again reads as the same one.
    pub(super) fn key(&self) -> (Rc<str>, String) {
        let rest = format!(
            "{:?}",
            (
                self.provider,
                &self.tool,
                &self.place,
                self.rule,
                self.fix,
                &self.notes,
                self.rule_needs_place,
                self.found,
            )
        );
        (self.message.clone(), rest)
    }
    /// The rule is said only where the search finds the place: given a request that has none,
    /// the message is explained without a rule (and a note says why).
    fn only_where_found(mut self) -> Raw {
        self.rule_needs_place = true;
        self
    }
    fn rule(mut self, rule: &'static str) -> Raw {
        self.rule = Some(rule);
        self
    }
    /// Sets the rule when there is one.
    fn with_rule(mut self, rule: Option<&'static str>) -> Raw {
        self.rule = rule;
        self
    }
    fn note(mut self, note: impl Into<String>) -> Raw {
        self.notes.push(note.into());
        self
    }
}

/// A template's regex. A space in `pattern` (outside a character class) matches any run of
/// whitespace: clients wrap, indent and pad providers' texts (`String \n    should match
/// pattern`, anth-name-pattern-128 in reports.yaml), so a template must not depend on single
/// spaces.
fn re(pattern: &str) -> Regex {
    let pattern = spaces_as_runs(pattern);
    // Patterns are literals in this file; a bad one is caught by the unit tests.
    Regex::new(&pattern).unwrap_or_else(|e| panic!("template regex {pattern:?}: {e}"))
}

/// `pattern` with each run of literal spaces outside a character class written `\s+`
/// (grouped when a quantifier follows it, so the quantifier applies to the whole run).
fn spaces_as_runs(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            ' ' if !in_class => {
                while chars.peek() == Some(&' ') {
                    chars.next();
                }
                if chars
                    .peek()
                    .is_some_and(|n| matches!(n, '?' | '*' | '+' | '{'))
                {
                    out.push_str("(?:\\s+)");
                } else {
                    out.push_str("\\s+");
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// One of the prefixes clients and relays write before a provider's message on its line,
/// spaces after it included: a status (`400 `, `400: `, `[400 Bad Request] `, `Bad Request
/// (400) - `, `400 Bad Request: `), an exception's name (`AI_APICallError: `, `BadRequestError: 400 `,
/// `VertexAIException - `), or a phrase saying that something failed or erred (`Gemini API
/// Error: `, `Gemini request failed (400): `, `GPT failed with reason: `,
/// `invalid_request_error (invalid_function_parameters): `). Seen in reports.yaml:
/// gemini-desktop-items-missing, oai-nested-oneof-agentsjs, oai-type-none-beeai,
/// fazer-exclusiveMinimum-propertyNames, wordpress-type-union-every-call,
/// litellm-vertex-sdk-unknown-field, nakama-exclusiveMinimum-zod4,
/// oai-array-items-typeunion-tidewave, oai-property-without-type,
/// zed-ext-brave-const-anyof-gemini3; and a log record's head (`2026-12-04 10:00:00,123 ERROR
/// agent.llm: `, Python logging's default format with a date). A message's own words match it only where they come
/// before the words a template matched, so a prefix is stripped only from there.
pub(super) const CLIENT_PREFIX: &str = r"(?:\[[^\]\n]{1,40}\]|[1-5][0-9]{2}\b[:,]?|[\w.]*(?:Error|Exception)\b(?: [1-5][0-9]{2})?(?:\s*-|:)|[^:\n]{0,60}?(?:[Ee]rror|[Ff]ailed)\b[^:\n]{0,60}?:|Bad Request(?: \([1-5][0-9]{2}\)\s+-|:)|body:|\.\.\.|[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:.,]+Z?(?:\s+[A-Z]+)?(?:\s+[\w.-]+:)?)\s+";

/// `text` with each run of whitespace made one space: what a template's fixed phrases are
/// looked for in (see [`re`]).
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The longest line [`line_after`] reads: a template's words are on one line, and a text
/// that is one huge line (a log joined on spaces) must not be read to its end once per
/// problem on it.
pub(super) const LINE_READ: usize = 4096;

/// The largest char boundary of `s` at or below `i` (`str::floor_char_boundary`, newer than
/// the crate's minimum Rust).
pub(super) fn floor_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest char boundary of `s` at or above `i`.
pub(super) fn ceil_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The rest of the line of `text` from byte `at`, at most [`LINE_READ`] bytes of it.
fn line_after(text: &str, at: usize) -> &str {
    let rest = &text[at..];
    let rest = &rest[..floor_boundary(rest, LINE_READ)];
    rest.split('\n').next().unwrap_or(rest)
}

/// The whole text a template matched.
fn matched<'t>(c: &Captures<'t>) -> &'t str {
    c.get(0).map_or("", |m| m.as_str())
}

/// Capture `i` read as a tool index: `usize::MAX`, which names no tool, when it does not
/// parse (a number too large).
fn index_at(c: &Captures<'_>, i: usize) -> usize {
    c.get(i)
        .and_then(|m| m.as_str().parse().ok())
        .unwrap_or(usize::MAX)
}

/// The first number in `message` too large to read as a `usize` (a tool index past any
/// request's), as written.
fn unparsed_index(message: &str) -> Option<&str> {
    message
        .split(|c: char| !c.is_ascii_digit())
        .find(|d| !d.is_empty() && d.parse::<usize>().is_err())
}

/// A JSON Pointer from reference tokens as the provider wrote them (unescaped).
/// Built in one string: a path read from an error may hold hundreds of thousands of tokens,
/// and a copy of the pointer per token made a 1 MB path take minutes (quadratic).
pub(super) fn pointer_from<'a>(tokens: impl IntoIterator<Item = &'a str>) -> String {
    tokens.into_iter().fold(String::new(), |mut p, t| {
        append_token(&mut p, t);
        p
    })
}

/// The rule of the first phrase that `what` contains.
fn rule_by_phrase(what: &str, phrases: &[(&str, &'static str)]) -> Option<&'static str> {
    phrases
        .iter()
        .find(|(phrase, _)| what.contains(phrase))
        .map(|(_, rule)| *rule)
}

/// For each of `raws` (as [`read`] orders them), the stretch of the text no other problem
/// was found in around it: from the end of the furthest-reaching problem found before it to
/// the start of the next one found after it (problems found at one place do not bound each
/// other). What a statement may quote of its line (see `envelope::statement`).
pub(super) fn stretches(raws: &[Raw], len: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = vec![0..len; raws.len()];
    // Ends of the problems before the current place, and the furthest of them.
    let mut reach = 0;
    let mut i = 0;
    while i < raws.len() {
        let Some(at) = raws[i].at else { break };
        let same = raws[i..].iter().take_while(|r| r.at == Some(at)).count();
        for r in &mut out[i..i + same] {
            r.start = reach;
        }
        for r in &raws[i..i + same] {
            reach = reach.max(at + r.message.len());
        }
        i += same;
    }
    let mut next = len;
    let mut j = raws.len();
    while j > 0 {
        let Some(at) = raws[j - 1].at else {
            j -= 1;
            continue;
        };
        let same = raws[..j]
            .iter()
            .rev()
            .take_while(|r| r.at == Some(at))
            .count();
        for r in &mut out[j - same..j] {
            r.end = next;
        }
        next = at;
        j -= same;
    }
    out
}

/// One provider's template reader.
type Reader = fn(&str) -> Vec<Raw>;

/// Reads every problem in `text` with the templates of `family` (`None` or `any`: all).
/// Whether the templates read for a target of `family` ([`super::family_of`]; `None`: no
/// target) include `provider`'s.
pub(super) fn reads(family: Option<&str>, provider: &str) -> bool {
    match family {
        None | Some("any") => true,
        // Bedrock relays Anthropic's messages; Groq and Azure relay OpenAI's.
        Some("bedrock") => provider == "bedrock" || provider == "anthropic",
        Some("groq") => provider == "groq" || provider == "openai",
        Some("gemini-openai-compat") => provider == "google" || provider == "openai",
        Some(f) => f == provider,
    }
}

pub(super) fn read(text: &str, family: Option<&str>) -> Vec<Raw> {
    let families: [(&str, Reader); 11] = [
        ("google", google),
        ("openai", openai),
        ("groq", groq),
        ("anthropic", anthropic),
        ("bedrock", bedrock),
        ("xai", xai),
        ("moonshot", moonshot),
        ("cohere", cohere),
        ("mistral", mistral),
        ("llama.cpp", llama_cpp),
        ("ollama", ollama),
    ];
    let mut out = Vec::new();
    for (name, read) in families {
        if reads(family, name) {
            let mut found = read(text);
            let base = text.as_ptr() as usize;
            for r in &mut found {
                // A message that is a slice of `text` lies within its bytes; any other string
                // (a template's fixed wording, a copy) is a separate allocation, so outside.
                r.at = r
                    .origin
                    .checked_sub(base)
                    .filter(|&at| at + r.message.len() <= text.len())
                    .filter(|&at| text.get(at..at + r.message.len()) == Some(&*r.message))
                    .or_else(|| text.find(&*r.message));
            }
            // Problems in the order the message lists them.
            found.sort_by_key(|r| r.at.unwrap_or(usize::MAX));
            out.extend(found);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Google (Gemini, Vertex, the OpenAI-compatible endpoint)

/// Most places besides the one explained that a meta-schema note names (the rest are counted).
const MAX_OTHER_PLACES: usize = 20;

/// The note on a keyword a message calls missing that the request gives as a JSON null:
/// Google reads JSON as proto3 does, where a null is "treated as the default value of the
/// corresponding field type" (https://protobuf.dev/programming-guides/json/, read
/// 2026-12-05), i.e. not set.
fn null_as_unset(keyword: &str) -> String {
    format!(
        "`{keyword}` is a JSON null in the request, which reads as not given (proto3 JSON takes a \
         null as a field not set): the null is what the message is about"
    )
}

/// The note on a place an error names that the request's tool does not have (see
/// [`in_schema`]): a different request, or an older or newer version of the tool, was sent,
/// so neither the request nor the evidence is to blame for it.
const NOT_IN_REQUEST: &str = "is not in this tool's schema in the request given: the error came from another request or another version of \
     the tool";

static G_TOOL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:request\.)?(?:generate_content_request\.)?(?:GenerateContentRequest\.)?(?:tools(?:\[(\d+)\])?\.)?function_declarations\[(\d+)\]((?:\.[A-Za-z_]+(?:\[[^\]]*\])?)*)$",
    )
});
static G_UNKNOWN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?:Invalid JSON payload received\. )?Unknown name "([^"]*)"(?:\s+at\s+'([^']*)')?(?::\s*(Cannot find field|Proto field is not repeating, cannot start list))?"#,
    )
});
static G_INVALID_VALUE: LazyLock<Regex> =
    LazyLock::new(|| re(r"Invalid value at '([^']*)' \(([^)]*)\), ([^\n]*)"));
/// Google's validator: `GenerateContentRequest.<path>: <what>`, the path a function
/// declaration's (`tools[0].function_declarations[3].parameters.properties[tags].items: missing
/// field.`) or the request's structured-output schema's
/// (`generation_config.response_schema.properties[tags].items: missing field.`, as a user
/// received it in trial 41).
static G_VALIDATOR: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?m)(?:GenerateContentRequest\.)?((?:(?:tools(?:\[\d+\])?\.)?\bfunction_declarations(?:\[\d+\])?|\bgeneration_config\.response_schema)(?:\.[A-Za-z_]+(?:\[[^\]\n]*\])?)*): (?:\[FIELD_INVALID\] )?([^\n]+)",
    )
});
static G_DEPTH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?:A )?FunctionDeclaration(?: '([^']+)')? in the request exceeds the maximum allowed nesting depth",
    )
});
/// Vertex AI's "Unable to submit request" message, which a client may wrap over lines
/// (reports.yaml's vercel-ai Dropbox report); [`wrapped_end`] says where it ends.
static G_UNABLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"Unable to submit request because `([^`]+)` functionDeclaration\s+(?:`([^`]+)`\s+)?(?:schema\s+)?([^\n]*(?:\n[^\n]+)*)",
    )
});
/// Where a message that `text` starts with ends, when lines may follow it: at the first line
/// break after a line ending in a stop (`.`, `:`, `;`, `!`, `?`), or before a line that does
/// not go on in lower case (a log's next record, `2026-12-04 10:00:00 INFO ...`, or its
/// `retrying in 2s` after a full stop: trial 42), or before a stack frame (`at Client.post
/// (client.js:12)`, [`super::envelope::starts_record`]). A wrapped sentence goes on in lower
/// case.
fn wrapped_end(text: &str) -> usize {
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end();
        let goes_on = end == 0
            || text[..end]
                .trim_end()
                .chars()
                .last()
                .is_some_and(|c| !matches!(c, '.' | ':' | ';' | '!' | '?'))
                && body
                    .trim_start()
                    .starts_with(|c: char| c.is_ascii_lowercase())
                && !super::envelope::starts_record(body);
        if !goes_on {
            break;
        }
        end += line.len();
    }
    end
}

static G_REQUIRED_FIELDS: LazyLock<Regex> =
    LazyLock::new(|| re(r"required fields \[([^\]]*)\] are not defined in the schema properties"));
static G_UNDEFINED_REF: LazyLock<Regex> =
    LazyLock::new(|| re(r"reference to undefined schema at ([\w.$-]+)"));
static G_REF_SIBLINGS: LazyLock<Regex> =
    LazyLock::new(|| re(r"\$ref '([^']+)' was set alongside unsupported fields"));
/// The fix for Gemini's "$ref ... was set alongside unsupported fields", whose message goes on
/// "only description and default can be set alongside it".
const REF_SIBLINGS_FIX: &str = "Remove the keywords beside the `$ref` other than `description` and \
     `default` (a `type`, a `title`, ...): the referenced schema says what they would; or inline \
     the referenced schema.";
static G_FIELD_FOR_SCHEMA: LazyLock<Regex> =
    LazyLock::new(|| re(r"Unknown field for Schema: (\w+)"));
static G_CANNOT_FIND_FIELD: LazyLock<Regex> = LazyLock::new(|| re(r"Cannot find field: ([\w$]+)"));
/// Two function declarations of one name: `Duplicate function declaration found: NAME`
/// (gemini-duplicate-function-declaration in reports/documented/requests.yaml,
/// <https://github.com/tridz-dev/huf/pull/341>).
static G_DUPLICATE: LazyLock<Regex> =
    LazyLock::new(|| re(r"Duplicate function declaration found: ([^\s\x22',]+)"));
/// google-genai's pydantic path: `tools.0.Tool.function_declarations.0.parameters.a.b`.
static G_SDK_PATH: LazyLock<Regex> = LazyLock::new(|| {
    re(r"tools\.(\d+)\.Tool\.function_declarations\.(\d+)\.parameters((?:\.[\w$-]+)*)")
});

/// Google's validator messages that name their rule by a phrase alone.
const G_VALIDATOR_RULES: &[(&str, &str)] = &[
    // An empty `enum` on a string (kibana-enum-format-empty-gemini3 in reports.yaml).
    (
        "should be non-empty for STRING type with enum format",
        "enum-invalid",
    ),
    (
        "should be non-empty for OBJECT type",
        "object-properties-missing",
    ),
    ("property is not defined", "required-undeclared"),
    ("only allowed for STRING type", "enum-not-string"),
    ("are supported for STRING type", "format-unsupported"),
    ("Invalid function name", "name-invalid"),
];

/// The rule `check` reports a keyword under when a target does not take it: the one that owns
/// it where one does (`format` is format-unsupported's, `$ref` and its containers
/// ref-unsupported's; keyword-unsupported leaves them to those), else keyword-unsupported. A
/// message that names only the keyword ("'format' is not permitted") is so read without a
/// target as with one.
fn unsupported_keyword_rule(keyword: &str) -> &'static str {
    match keyword {
        "format" => "format-unsupported",
        "$ref" | "$defs" | "definitions" => "ref-unsupported",
        _ => "keyword-unsupported",
    }
}

/// The field Google's `Unknown name "X"` message names (a keyword, or a vendor key), if
/// `message` is one.
pub(super) fn unknown_name(message: &str) -> Option<&str> {
    G_UNKNOWN
        .captures(message)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str())
}

fn google(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in G_UNKNOWN.captures_iter(text) {
        let keyword = c[1].to_string();
        let msg = matched(&c);
        let line_rest = line_after(text, c.get(0).map_or(0, |m| m.end()));
        let list = c.get(3).is_some_and(|m| m.as_str().contains("repeating"))
            || (c.get(2).is_none() && line_rest.contains("cannot start list"));
        let rule = match (keyword.as_str(), list) {
            ("type", true) => "type-list",
            (k, true) => wrong_kind_rule(k),
            (k, false) => unsupported_keyword_rule(k),
        };
        let Some(path) = c.get(2).map(|m| m.as_str()) else {
            // `Unknown name "X": Cannot find field.` (a colon right after the name) is a field
            // of the request itself (T2); anything else lost its path to the client ("at ...",
            // "..."), so the keyword is looked for instead.
            if text[c.get(1).map_or(0, |m| m.end()) + 1..].starts_with(':') {
                out.push(
                    Raw::new("google", msg, ToolLoc::NotATool, Place::None).note(format!(
                        "`{keyword}` is a field of the request itself, not of a tool's schema"
                    )),
                );
            } else {
                let cond = if list && keyword == "type" {
                    Cond::TypeList
                } else if list && keyword == "items" {
                    Cond::ItemsList
                } else {
                    Cond::HasKeyword(keyword.clone())
                };
                out.push(
                    Raw::new("google", msg, ToolLoc::Unknown, Place::Search(cond))
                        .rule(rule)
                        .note("the message lost its path; the keyword was found by searching"),
                );
            }
            continue;
        };
        let expect = if list && keyword == "type" {
            Expect::TypeList
        } else {
            Expect::Keyword(keyword.clone())
        };
        out.push(google_path_raw(msg, path, Some(keyword), expect).rule(rule));
    }
    for c in G_INVALID_VALUE.captures_iter(text) {
        let msg = matched(&c);
        let (path, ty, value) = (&c[1], &c[2], c[3].trim());
        // T8 names the parent message's path and, in parentheses, the field given an object
        // (`'….parameters' (required), Starting an object on a scalar field`): the place is
        // that field, and its rule the one `check` reports a wrong kind of value under there.
        if value.starts_with("Starting an object")
            && ty.starts_with(|c: char| c.is_ascii_lowercase())
            // A proto field's name, not a type's (`TYPE_STRING`, `type.googleapis.com/…`).
            && ty
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            let keyword = camel(ty);
            let rule = if keyword == "type" {
                "type-invalid"
            } else {
                wrong_kind_rule(&keyword)
            };
            let expect = Expect::Keyword(keyword.clone());
            out.push(google_path_raw(msg, path, Some(keyword), expect).rule(rule));
            continue;
        }
        let rule = if path.contains(".enum[") {
            "enum-not-string"
        } else if ty.ends_with(".Type") || path.ends_with(".type") {
            type_rule(value.trim_matches('"'))
        } else {
            // A scalar where a Schema message is expected, or another bad value.
            "schema-invalid"
        };
        let expect = if value.starts_with("Starting an object") {
            Expect::Nothing
        } else {
            Expect::Value(value.to_string())
        };
        out.push(google_path_raw(msg, path, None, expect).rule(rule));
    }
    for c in G_VALIDATOR.captures_iter(text) {
        let what = words(&c[2]);
        let (path, what) = (&c[1], what.as_str());
        let msg = matched(&c);
        // The parse templates above quote their paths; skip those here.
        if what.starts_with("Cannot find field") {
            continue;
        }
        let rule = if let Some(rule) = rule_by_phrase(what, G_VALIDATOR_RULES) {
            Some(rule)
        } else if what.starts_with("missing field") {
            // The field the message names decides: Gemini's only documented wording is
            // `items: missing field`; `type` is what type-missing is about; any other field
            // is named in a note, under no rule.
            missing_field_rule(path)
        } else if (what.contains("field predicate failed") && what.contains("Type.ARRAY"))
            // The full wording ends "...when not using one_of, any_of or all_of fields"; some
            // relays and SDKs pass only its start on.
            || (what.starts_with("must be specified") && path.ends_with(".type"))
        {
            Some("type-missing")
        } else if what.contains("only allowed for OBJECT type") {
            Some("properties-on-non-object")
        } else if what.contains("function declarations can be specified") {
            Some("too-many-tools")
        } else {
            None
        };
        // "…items: missing field" names the keyword that is missing, and "…items: field
        // predicate failed: $type == Type.ARRAY" the `items` of a schema not typed as an array:
        // both point at the schema that needs the fix.
        let mut path = path;
        // A keyword the message says is missing must be missing from the schema it names.
        let mut expect = Expect::Nothing;
        if let Some(r) = rule {
            for (missing_rule, kw) in MISSING_RULES {
                if r == *missing_rule
                    && let Some(parent) = path.strip_suffix(&format!(".{kw}"))
                {
                    path = parent;
                    // `properties` is "missing" when it is there but empty, too.
                    if *kw != "properties" {
                        expect = Expect::Absent(kw.to_string());
                    }
                }
            }
            if r == "type-missing" && what.contains("field predicate failed") {
                path = path.strip_suffix(".items").unwrap_or(path);
            }
        }
        let mut note = None;
        if rule.is_none()
            && what.starts_with("missing field")
            && let Some((parent, field)) = path.rsplit_once('.')
            && field
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            note = Some(format!(
                "the message says the schema here lacks `{field}`; no rule covers that field"
            ));
            path = parent;
            expect = Expect::Absent(camel(field));
        }
        let raw = if rule == Some("too-many-tools") {
            Raw::new("google", msg, ToolLoc::NotATool, Place::None)
        } else {
            google_path_raw(msg, path, None, expect)
        };
        let raw = match note {
            Some(n) => raw.note(n),
            None => raw,
        };
        out.push(raw.with_rule(rule));
    }
    for c in G_DEPTH.captures_iter(text) {
        let msg = matched(&c);
        let tool = c
            .get(1)
            .map_or(ToolLoc::Unknown, |n| ToolLoc::Name(n.as_str().to_string()));
        let mut raw = Raw::new("google", msg, tool.clone(), Place::Root).rule("depth-exceeded");
        if tool == ToolLoc::Unknown {
            raw = raw.note("the message does not say which declaration; the deepest one is named when a request is given");
            raw.place = Place::Search(Cond::HasKeyword(String::new()));
        }
        out.push(raw);
    }
    for c in G_UNABLE.captures_iter(text) {
        let (Some(all), Some(tail)) = (c.get(0), c.get(3)) else {
            continue;
        };
        let end = tail.start() + wrapped_end(tail.as_str());
        let msg = text[all.start()..end].trim_end();
        let name = c[1].to_string();
        let what = words(&text[tail.start()..end]);
        let (place, rule) = match c.get(2).map(|m| m.as_str()) {
            None if what.contains("should be of type OBJECT") => {
                (Place::Root, Some("root-not-object"))
            }
            Some(p) => {
                let names: Vec<String> = p.split('.').skip(1).map(str::to_string).collect();
                let rule = if what.contains("didn't specify the schema type field") {
                    Some("type-missing")
                } else if what.contains("alongside any_of") {
                    Some("anyof-with-siblings")
                } else {
                    None
                };
                (Place::PropertyPath(names), rule)
            }
            None => (Place::None, None),
        };
        out.push(Raw::new("google", msg, ToolLoc::Name(name), place).with_rule(rule));
    }
    for c in G_REQUIRED_FIELDS.captures_iter(text) {
        let names: Vec<String> = c[1]
            .split(',')
            .map(|n| n.trim().trim_matches(['\'', '"']).to_string())
            .filter(|n| !n.is_empty())
            .collect();
        // Every name listed is one problem, each at its own `required` entry.
        let each = names
            .into_iter()
            .map(|n| Cond::RequiredUndeclared(vec![n]))
            .collect();
        out.push(
            Raw::new(
                "google",
                matched(&c),
                ToolLoc::Unknown,
                Place::Search(Cond::Each(each)),
            )
            .rule("required-undeclared"),
        );
    }
    for c in G_UNDEFINED_REF.captures_iter(text) {
        let pointer = pointer_from(c[1].split('.'));
        out.push(
            Raw::new(
                "google",
                matched(&c),
                ToolLoc::Unknown,
                Place::Pointer(pointer),
            )
            // A `$ref` to nothing: Gemini resolves references, so the message is not about
            // `$ref` being refused (gemini-cli#13326: the `$defs` were lost on the way).
            .rule("ref-dangling"),
        );
    }
    for c in G_REF_SIBLINGS.captures_iter(text) {
        let mut raw = Raw::new(
            "google",
            matched(&c),
            ToolLoc::Unknown,
            Place::Search(Cond::RefNamedWithSiblings(c[1].to_string())),
        )
        .rule("ref-unsupported");
        // The message says what to keep (anomalyco/opencode#12295): the `$ref` is allowed,
        // so inlining it, the rule's general fix, is more than it asks for.
        raw.fix = Some(REF_SIBLINGS_FIX);
        out.push(raw);
    }
    for c in G_FIELD_FOR_SCHEMA.captures_iter(text) {
        out.push(
            Raw::new(
                "google",
                matched(&c),
                ToolLoc::Unknown,
                Place::Search(Cond::HasKeyword(c[1].to_string())),
            )
            .rule(if c[1].starts_with('$') {
                "ref-unsupported"
            } else {
                "keyword-unsupported"
            }),
        );
    }
    if out.is_empty() && words(text).contains("Proto field is not repeating, cannot start list") {
        out.push(
            Raw::new(
                "google",
                "Proto field is not repeating, cannot start list",
                ToolLoc::Unknown,
                Place::Search(Cond::TypeList),
            )
            .rule("type-list")
            .note("the message names no place; the first list-valued `type` is shown"),
        );
    }
    for c in G_CANNOT_FIND_FIELD.captures_iter(text) {
        out.push(
            Raw::new(
                "google",
                matched(&c),
                ToolLoc::Unknown,
                Place::Search(Cond::HasKeyword(c[1].to_string())),
            )
            .rule("keyword-unsupported"),
        );
    }
    let sdk: Vec<Captures<'_>> = G_SDK_PATH.captures_iter(text).collect();
    for (k, c) in sdk.iter().enumerate() {
        // Pydantic prints what is wrong (`input_type=list`) under the path, before the next
        // path: that stretch is this problem's (reading to the end of the text instead is a
        // scan per problem, and takes a later problem's words for this one's).
        let end = sdk
            .get(k + 1)
            .map_or(text.len(), |n| n.get(0).map_or(0, |m| m.start()));
        let pointer = pointer_from(c[3].split('.').filter(|t| !t.is_empty()));
        let what = &text[c.get(0).map_or(0, |m| m.end())..end];
        let rule = if what.contains("input_type=list") && pointer.ends_with("/type") {
            Some("type-list")
        } else if pointer.ends_with("/type") {
            // Pydantic quotes the rejected value: `input_value='null'`.
            let value = what
                .split_once("input_value='")
                .and_then(|(_, v)| v.split_once('\''))
                .map_or("", |(v, _)| v);
            Some(type_rule(value))
        } else {
            None
        };
        out.push(Raw::new(
            "google",
            matched(c),
            ToolLoc::Google {
                group: c[1].parse().ok(),
                position: index_at(c, 2),
            },
            Place::Pointer(pointer),
        )
        .note(
            "this message comes from the google-genai SDK's own check, before any request is sent",
        ).with_rule(rule));
    }
    for c in G_DUPLICATE.captures_iter(text) {
        out.push(
            Raw::new(
                "google",
                matched(&c),
                ToolLoc::SharedName(Some(c[1].to_string())),
                Place::Tool,
            )
            .rule("name-duplicate"),
        );
    }
    if words(text).contains("produces a constraint that has too many states") {
        out.push(
            Raw::new(
                "google",
                "The specified schema produces a constraint that has too many states for serving.",
                ToolLoc::NotATool,
                Place::None,
            )
            .rule("size-exceeded")
            .note("the message does not say which tool"),
        );
    }
    out
}

/// A raw problem from a Google path `tools[i].function_declarations[j].parameters…`.
fn google_path_raw(msg: &str, path: &str, keyword: Option<String>, expect: Expect) -> Raw {
    let path = path.trim();
    let Some(c) = G_TOOL.captures(path) else {
        // Gemini's structured output (`generation_config.response_schema`) is a schema of the
        // request's, not a tool's.
        // Its place in that schema is given when the path names it (by names: a position in
        // the request's key order is not resolved, as no tool's schema holds it).
        if let Some((field, rest)) = ["generation_config.", "generationConfig."]
            .iter()
            .find_map(|p| path.strip_prefix(p))
            .and_then(|rest| {
                let end = rest.find(['.', '[']).unwrap_or(rest.len());
                Some(rest.split_at(end)).filter(|(f, _)| f.starts_with("response"))
            })
        {
            let place = google_pointer(rest, None)
                .ok()
                .map(|(node, _)| match &keyword {
                    Some(k) => at_keyword(&node, k),
                    None => node,
                });
            return structured_output_raw(
                "google",
                &format!("generation_config.{field}"),
                msg,
                place,
            );
        }
        return Raw::new("google", msg, ToolLoc::Unknown, Place::None).note(format!(
            "the path {path:?} does not name a function declaration"
        ));
    };
    let group = c.get(1).and_then(|m| m.as_str().parse().ok());
    let position = index_at(&c, 2);
    let rest = c.get(3).map_or("", |m| m.as_str());
    let tool = ToolLoc::Google { group, position };
    for field in [".parameters_json_schema", ".parameters"] {
        if let Some(after) = rest.strip_prefix(field) {
            return Raw::new(
                "google",
                msg,
                tool,
                Place::Google {
                    path: after.to_string(),
                    keyword,
                    expect,
                },
            );
        }
    }
    // `.name`, `.description`, or the declaration itself.
    Raw::new("google", msg, tool, Place::Tool)
}

/// `any_of` → `anyOf`.
fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut up = false;
    for ch in snake.chars() {
        if ch == '_' && !out.is_empty() {
            up = true;
        } else if up {
            out.push(ch.to_ascii_uppercase());
            up = false;
        } else {
            out.push(ch);
        }
    }
    out
}

/// Turns a Google path after `parameters` into a JSON Pointer. Positional map indices
/// (`properties[k].value`) need `schema`. Returns the pointer and whether an index was used.
pub(super) fn google_pointer(path: &str, schema: Option<&Value>) -> Result<(String, bool), String> {
    let segs: Vec<&str> = split_path(path);
    let mut pointer = String::new();
    let mut positional = false;
    let mut i = 0;
    while i < segs.len() {
        let seg = segs[i];
        let (field, index) = match seg.find('[') {
            Some(b) => (&seg[..b], Some(seg[b + 1..].trim_end_matches(']'))),
            None => (seg, None),
        };
        let field = camel(field);
        match index {
            None => append_token(&mut pointer, &field),
            Some(ix) if field == "properties" => {
                let next = segs.get(i + 1).copied();
                let numeric = ix.parse::<usize>().ok();
                match (numeric, next) {
                    (Some(k), Some("value" | "key")) => {
                        positional = true;
                        let schema = schema.ok_or_else(|| {
                            format!("`properties[{k}]` is an index into the request's key order; give the request to resolve it")
                        })?;
                        let node = schema
                            .pointer(&pointer)
                            .ok_or_else(|| format!("the request has nothing {}", at(&pointer)))?;
                        let props = node
                            .get("properties")
                            .and_then(Value::as_object)
                            .ok_or_else(|| {
                                format!("the request declares no `properties` {}", at(&pointer))
                            })?;
                        let (name, _) = props.iter().nth(k).ok_or_else(|| {
                            format!(
                                "the request declares {} {}, so index {k} is not one of them",
                                match props.len() {
                                    1 => "1 property".to_string(),
                                    n => format!("{n} properties"),
                                },
                                at(&pointer)
                            )
                        })?;
                        append_token(&mut pointer, "properties");
                        append_token(&mut pointer, name);
                        i += 1;
                    }
                    _ => {
                        append_token(&mut pointer, "properties");
                        append_token(&mut pointer, ix);
                    }
                }
            }
            Some(ix) => {
                append_token(&mut pointer, &field);
                append_token(&mut pointer, ix);
            }
        }
        i += 1;
    }
    Ok((pointer, positional))
}

/// Where in the parameters schema `pointer` is, for a message: `at the schema's root` for
/// `""` (a bare `""` reads as nothing), else `at "/properties/a"`.
fn at(pointer: &str) -> String {
    if pointer.is_empty() {
        "at the schema's root".to_string()
    } else {
        format!("at {pointer:?}")
    }
}

/// Splits `.a[x.y].b` into `a[x.y]`, `b` (dots inside brackets belong to the key).
fn split_path(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, ch) in path.char_indices() {
        match ch {
            '[' => depth += 1,
            ']' => depth -= 1,
            '.' if depth == 0 => {
                if i > start {
                    out.push(&path[start..i]);
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    if path.len() > start {
        out.push(&path[start..]);
    }
    out
}

// ---------------------------------------------------------------------------------------
// OpenAI (also Azure OpenAI and DeepSeek, which use the same templates)

/// OpenAI's `In context=(...)` tuple: Python's `repr` of a tuple of strings (and numbers),
/// each string in single quotes, or double quotes when it holds a `'`, with backslash escapes.
/// Read literal by literal, not up to the first `)` or `, `: a property name may hold either
/// (`'range (km)'`, `'x, y'`), and the place is then read by [`context_pointer`].
const O_TUPLE: &str = r#"\((?:(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|-?[0-9]+)(?:,\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|-?[0-9]+))*,?)?\)"#;
/// How every message [`O_SCHEMA`] reads begins (its spaces any run of whitespace, as there).
static O_SCHEMA_START: LazyLock<Regex> = LazyLock::new(|| re("Invalid schema for function '"));
static O_SCHEMA: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?s)Invalid schema for function '([^']+)':\s*(?:In context=({O_TUPLE}),\s*)?(.+?)(?:\n|$|\(request id)"
    ))
});
static O_BARE_CONTEXT: LazyLock<Regex> =
    LazyLock::new(|| re(&format!(r"In context=({O_TUPLE}),\s*([^\n]+)")));
/// OpenAI's meta-schema message without its `Invalid schema for function 'f': ` prefix, as
/// clients print it: Python jsonschema's `<repr> is not of type <types>` alone on its line
/// (`'object' is not of type 'object', 'boolean'`, oai-meta-object-string in reports.yaml,
/// <https://github.com/promptfoo/promptfoo/pull/5965>), after a client's prefixes if any
/// ([`CLIENT_PREFIX`]: `Error: `, a log record's `2026-12-04 10:00:00,123 ERROR agent.llm:
/// request failed: `). The value must be a Python repr, so another template's line that ends
/// in the same words (Groq's) is not read twice.
static O_BARE_TYPE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r#"(?m)^[ \t]*(?:{CLIENT_PREFIX})*((?:'[^'\n]*'|"[^"\n]*"|\[[^\n]*\]|\{{[^\n]*\}}|None|True|False|-?[0-9][0-9.eE+-]*) is not of type '[^'\n]+'(?:, '[^'\n]+')*)\.?[ \t]*(?:\(request id[^\n]*)?$"#
    ))
});
/// [`O_BARE_TYPE`] for the other words of [`O_META_VALUE`] that name a value the meta-schema
/// refuses (`'strng' is not one of ['array', ...]`, `[] should be non-empty`, `['a', 'a'] has
/// non-unique elements`, `-1 is less than the minimum of 0`), read alone on their line as the
/// same words after `Invalid schema for function 'f': ` are. Not `does not match`, which other
/// messages end in too.
static O_BARE_META_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r#"(?m)^[ \t]*(?:{CLIENT_PREFIX})*((?:'[^'\n]*'|"[^"\n]*"|\[[^\n]*\]|\{{[^\n]*\}}|None|True|False|-?[0-9][0-9.eE+-]*) (?:is not one of \[[^\n]*\]|should be non-empty|is too short|has non-unique elements|is less than (?:or equal to )?the minimum of -?[0-9][0-9.eE+-]*))\.?[ \t]*(?:\(request id[^\n]*)?$"#
    ))
});
static O_PARAM: LazyLock<Regex> = LazyLock::new(|| re(r"param: (?:tool \S+, )?tools\[(\d+)\]"));
/// A tool's name or description: `tools[N].function.name` in Chat Completions,
/// `tools[N].name` in the Responses API (flat tools; `openai::check_tools`).
static O_FIELD: LazyLock<Regex> =
    LazyLock::new(|| re(r"Invalid 'tools\[(\d+)\](?:\.function)?\.(name|description)': ([^\n]+)"));
static O_PARAMS_REQUIRED: LazyLock<Regex> =
    LazyLock::new(|| re(r"'parameters' is a required property - 'tools\.(\d+)\.function'"));
/// The tool list past its length limit (the wording is inferred from the description error's
/// template, as `openai::check_tools` writes it): about the request, no tool of it.
static O_TOO_MANY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"Invalid 'tools': array too long\. Expected an array with maximum length \d+, but got an array with length \d+ instead\.",
    )
});

/// The end of a name quoted in `'...'` in `rest` (which starts after its opening quote): the
/// first `'` that ends the message or is followed by a stop, a space or the quote of an
/// envelope the message was cut out of (a name may hold a `'` inside it).
fn closing_quote(rest: &str) -> Option<usize> {
    rest.match_indices('\'').map(|(i, _)| i).find(|&i| {
        rest[i + 1..]
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || matches!(c, '.' | ',' | '"' | '\''))
    })
}

/// The words of OpenAI's strict structured-outputs requirements (`In context=(),
/// 'additionalProperties' is required to be supplied and to be false`, `'required' is
/// required to be supplied and to be an array including every key in properties. Missing
/// 'x'`), for a function's schema and for `response_format`'s alike.
const STRICT_REQUIRED: &str = "is required to be supplied";

/// Where a strict requirement `what` stated at `node` is placed: at the property it names
/// missing from `required` (where check places it), else at `node`. The name ends at its
/// closing quote: what follows it, when a client cut the envelope short after the message,
/// is not part of it.
fn strict_place(what: &str, node: &str) -> String {
    match what
        .split_once("Missing '")
        .and_then(|(_, rest)| closing_quote(rest).map(|end| &rest[..end]))
    {
        Some(name) => format!("{node}/properties/{}", crate::json::escape_token(name)),
        None => node.to_string(),
    }
}

/// The fix for a strict requirement in a structured-output schema: the strict form written
/// in it (`strict-form-missing`'s own fix, less what is a tool's: `toolwire compile` writes
/// the strict form of tools and refuses a schema without a tool's name).
const STRICT_FORMAT_FIX: &str = "Write the strict form in that schema: `additionalProperties: \
     false` on every object and every property in its `required`, an optional one made nullable \
     (`type: [\"number\", \"null\"]`).";

/// A structured-output schema's error, not a tool's: Chat Completions' `response_format`
/// (`Invalid schema for response_format 'answer': In context=(...), ...`, the message
/// OpenAI writes for a function's schema with `response_format` in its place) or the
/// Responses API's `text.format`, named by the message or by the body's `param` (kept on a
/// line of its own after a decoded message, or as written in a body not decoded).
static O_RESPONSE_FORMAT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?m)Invalid schema for response_format '|^param: (response_format|text\.format)\b|['"]param['"]: ?['"](response_format|text\.format)\b"#,
    )
});

/// The structured-output field `text` is about, when [`O_RESPONSE_FORMAT`] says it is about
/// one: `text.format` when a `param` names the Responses API's, else `response_format`.
fn response_format_field(text: &str) -> Option<&'static str> {
    let mut found = None;
    for c in O_RESPONSE_FORMAT.captures_iter(text) {
        if c.get(1)
            .or(c.get(2))
            .is_some_and(|m| m.as_str() == "text.format")
        {
            return Some("text.format");
        }
        found = Some("response_format");
    }
    found
}

/// The raw problem an OpenAI message about the request's structured-output schema `field`
/// states: see [`structured_output_raw`].
fn response_format_raw(
    field: &str,
    msg: &str,
    place: Option<String>,
    rule: Option<&'static str>,
) -> Raw {
    structured_output_raw("openai", field, msg, place).with_rule(rule)
}

/// The raw problem a message of `provider` about the request's structured-output schema
/// `field` (OpenAI's `response_format`, Gemini's `generation_config.response_schema`) states
/// (at `place`, a JSON Pointer in that schema, when the message names one): no tool's, under
/// the rule the message reads as (its fix holds for that schema too).
fn structured_output_raw(
    provider: &'static str,
    field: &str,
    msg: &str,
    place: Option<String>,
) -> Raw {
    let at = match place.as_deref() {
        Some("") => " at its root".to_string(),
        Some(p) => format!(" at {p}"),
        None => String::new(),
    };
    Raw::new(provider, msg, ToolLoc::NotATool, Place::None).note(format!(
        "the message is about the request's `{field}` (its structured-output schema){at}, \
             not a tool: fix that schema"
    ))
}

/// OpenAI's messages about a schema's shape, with or without the function's name.
const O_SHAPE_RULES: &[(&str, &str)] = &[
    ("array schema missing items", "array-items-missing"),
    (
        "object schema missing properties",
        "object-properties-missing",
    ),
    ("schema must have a 'type' key", "type-missing"),
];

/// The documented size limits of strict mode (structured-outputs "Supported schemas": 10
/// nesting levels, 1,000 enum values, 5,000 object properties) in the words of toolwire's own
/// offline model (`target::openai`'s `strict_size_problem`, which the DeepSeek strict model
/// uses too: `In context=(), the schema nests 11 object levels; at most 10 are allowed.`).
/// The wording is inferred, as that model's doc says, not a text any provider was seen to
/// send; it is read so that compile's refusal and explain name the rule of what the model
/// rejects, whatever the size (trial 66 D3: the depth read as no rule, and at 100 levels as
/// check's `size-exceeded` at the root).
const O_LIMIT_RULES: &[(&str, &str)] = &[
    ("object levels; at most", "depth-exceeded"),
    ("values; at most 1000 are allowed", "size-exceeded"),
    ("object properties; at most", "size-exceeded"),
];

/// The words of OpenAI's meta-schema messages (Python jsonschema's) about a keyword's value the
/// draft 2020-12 meta-schema refuses other than by its kind: `-1 is less than the minimum of 0`
/// (a negative `maxLength`, as the emulator answers), `0 is less than or equal to the minimum
/// of 0` (`multipleOf: 0`), `[] should be non-empty` and, before jsonschema 4.21, `[] is too
/// short` (an empty `anyOf`, `prefixItems` or `type` list), `['a', 'a'] has non-unique
/// elements` (`required`, `dependentRequired` or a `type` list naming one twice), `'strng' is
/// not one of ['array', ...]` (a `type` that is no type), `'1a' does not match '^[A-Za-z_]...'`
/// (an `$anchor`). Like "is not of type", located by the meta-schema (trial 71 D5: no rule was
/// named, exit 1). The upper-bound words (`is greater than the maximum of`, `is too long`,
/// `is expected to be empty`) are not here: the meta-schema bounds no keyword's value from
/// above, so such a message is about no keyword's value.
const O_META_VALUE: &[&str] = &[
    "is less than the minimum of",
    "is less than or equal to the minimum of",
    "should be non-empty",
    "is too short",
    "has non-unique elements",
    "is not one of",
    "does not match",
];

/// The rule of a meta-schema message whose place is not found: `X is not of type 'object',
/// 'boolean'` says a value stands where a subschema belongs, which is `schema-invalid`'s (a
/// place found names a narrower rule, such as `items-not-schema`, by [`meta_rule_for`]).
fn meta_type_rule(what: &str) -> Option<&'static str> {
    what.contains("is not of type 'object', 'boolean'")
        .then_some("schema-invalid")
}

fn openai(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    let param_index = O_PARAM
        .captures(text)
        .and_then(|c| c[1].parse::<usize>().ok());
    // Messages joined on one line (a log record, a client that aggregates errors): each runs
    // up to the next one's start, not to the end of the line, which made the first quote
    // them all and the others go unexplained (trial 63 D6). Every match starts at this prefix.
    let starts: Vec<usize> = O_SCHEMA_START.find_iter(text).map(|m| m.start()).collect();
    let each = starts.iter().enumerate().filter_map(|(n, &at)| {
        let end = starts.get(n + 1).copied().unwrap_or(text.len());
        O_SCHEMA.captures_at(&text[..end], at)
    });
    for c in each {
        // The message may start on the line after the function's (a wrap after the colon),
        // but not a log record's or a stack frame's line: that is another record's.
        let start = c.get(2).or_else(|| c.get(3)).map_or(0, |m| m.start());
        let gap = &text[c.get(1).map_or(0, |m| m.end())..start];
        if gap.contains('\n') && super::envelope::starts_record(line_after(text, start)) {
            continue;
        }
        let name = c[1].to_string();
        let tool = match param_index {
            Some(i) => ToolLoc::IndexName(i, name),
            None => ToolLoc::Name(name),
        };
        let what = words(&c[3]).trim_end_matches('.').to_string();
        let msg = matched(&c);
        let node = c.get(2).and_then(|m| context_pointer(m.as_str()));
        // A context that is not a tuple of literals (cut short, mangled by a client) names a
        // place that cannot be read: none is claimed rather than the root.
        let unread = node.is_none() && c[3].trim_start().starts_with("In context=");
        let at = |kw: &str| match unread {
            true => Place::None,
            false => Place::Pointer(at_keyword(node.as_deref().unwrap_or(""), kw)),
        };
        let here = match unread {
            true => Place::None,
            false => Place::Pointer(node.clone().unwrap_or_default()),
        };
        let quoted = |s: &str| s.split('\'').nth(1).map(str::to_string);
        let (place, rule): (Place, Option<&'static str>) = if what.contains(STRICT_REQUIRED) {
            // Strict structured outputs: `additionalProperties: false` and a complete
            // `required` on every object, which a tool asking for strict mode is judged by
            // (`strict-form-missing`).
            let place = match unread {
                true => Place::None,
                false => Place::Pointer(strict_place(&what, node.as_deref().unwrap_or(""))),
            };
            (place, Some("strict-form-missing"))
        } else if let Some(rule) =
            rule_by_phrase(&what, O_SHAPE_RULES).or_else(|| rule_by_phrase(&what, O_LIMIT_RULES))
        {
            (here, Some(rule))
        } else if what.ends_with("is not permitted") {
            let kw = quoted(&what).unwrap_or_default();
            (at(&kw), Some(unsupported_keyword_rule(&kw)))
        } else if what.contains("is not a valid format") {
            (at("format"), Some("format-unsupported"))
        } else if what.contains("schema must be a JSON Schema of 'type: \"object\"'") {
            (Place::Root, Some("root-not-object"))
        } else if what.contains("at the top level") {
            (Place::Search(Cond::RootCombinator), Some("root-combinator"))
        } else if what.contains("is not of type")
            || what.contains("is not valid under any of the")
            || what.contains("is not a '")
            || O_META_VALUE.iter().any(|p| what.contains(p))
        {
            (Place::Meta(node.clone()), meta_type_rule(&what))
        } else {
            (node.map_or(Place::None, Place::Pointer), None)
        };
        let mut raw = Raw::new("openai", msg, tool, place).with_rule(rule);
        if what.contains("is required to be supplied") {
            raw.fix = Some(super::STRICT_FIX);
            raw.notes.push(
                "a strict structured-outputs requirement: a tool asking for strict mode is sent \
                 as written"
                    .into(),
            );
        }
        out.push(raw);
    }
    // Without a function's name, the `response_format` wording or `param` says the schema
    // is the structured output's: no tool's place is looked for.
    let format = if out.is_empty() {
        response_format_field(text)
    } else {
        None
    };
    if out.is_empty() {
        for c in O_BARE_CONTEXT.captures_iter(text) {
            let what = words(c[2].trim());
            let strict = what.contains(STRICT_REQUIRED);
            let rule = match strict {
                true => Some("strict-form-missing"),
                false => rule_by_phrase(&what, O_SHAPE_RULES)
                    .or_else(|| rule_by_phrase(&what, O_LIMIT_RULES)),
            };
            let node = context_pointer(&c[1]);
            if let Some(field) = format {
                let node = node.map(|n| match strict {
                    true => strict_place(&what, &n),
                    false => n,
                });
                // The statement starts at OpenAI's own `Invalid schema for response_format`
                // when its line has it.
                let (start, end) = c.get(0).map_or((0, 0), |m| (m.start(), m.end()));
                let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
                let from = text[line_start..start]
                    .rfind("Invalid schema for response_format '")
                    .map_or(start, |i| line_start + i);
                let mut raw = response_format_raw(field, &text[from..end], node, rule);
                if strict {
                    raw.fix = Some(STRICT_FORMAT_FIX);
                }
                out.push(raw);
                continue;
            }
            let place = node.map_or(Place::None, Place::Pointer);
            out.push(Raw::new("openai", matched(&c), ToolLoc::Unknown, place).with_rule(rule));
        }
    }
    if out.is_empty() {
        let bare = O_BARE_TYPE
            .captures_iter(text)
            .chain(O_BARE_META_VALUE.captures_iter(text));
        for c in bare {
            let what = words(&c[1]);
            let msg = c.get(1).map_or("", |m| m.as_str());
            if let Some(field) = format {
                out.push(response_format_raw(field, msg, None, meta_type_rule(&what)));
                continue;
            }
            out.push(
                Raw::new("openai", msg, ToolLoc::Unknown, Place::Meta(None))
                    .with_rule(meta_type_rule(&what)),
            );
        }
    }
    for c in O_FIELD.captures_iter(text) {
        let i = index_at(&c, 1);
        let what = words(&c[3]);
        let rule = match (&c[2], what.as_str()) {
            ("name", w) if w.contains("too long") => "name-too-long",
            ("name", _) => "name-invalid",
            (_, _) => "description-too-long",
        };
        out.push(Raw::new("openai", matched(&c), ToolLoc::Index(i), Place::Tool).rule(rule));
    }
    for c in O_PARAMS_REQUIRED.captures_iter(text) {
        let i = index_at(&c, 1);
        out.push(
            Raw::new("openai", matched(&c), ToolLoc::Index(i), Place::Tool)
                .rule("parameters-missing"),
        );
    }
    for c in O_TOO_MANY.captures_iter(text) {
        out.push(
            Raw::new("openai", matched(&c), ToolLoc::NotATool, Place::None).rule("too-many-tools"),
        );
    }
    out
}

/// `('properties', 'x', 'items', 'type', '0')` → `/properties/x/items`: each element read
/// as the Python literal it is (quotes and escapes undone), the trailing `('type', N)` dropped
/// as OpenAI's expansion of a `type` list, not a place in the schema. `None` when `tuple` is
/// not a tuple of strings and numbers.
fn context_pointer(tuple: &str) -> Option<String> {
    let (Value::Array(items), len) = crate::target::pyrepr::parse_prefix(tuple)? else {
        return None;
    };
    if len != tuple.len() {
        return None;
    }
    let mut tokens = items
        .iter()
        .map(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .collect::<Option<Vec<String>>>()?;
    if tokens.len() >= 2
        && tokens[tokens.len() - 2] == "type"
        && tokens[tokens.len() - 1].parse::<usize>().is_ok()
    {
        tokens.truncate(tokens.len() - 2);
    }
    Some(pointer_from(tokens.iter().map(String::as_str)))
}

static GROQ: LazyLock<Regex> = LazyLock::new(|| {
    re(r"invalid JSON schema for tool ([^,\s]+), tools\[(\d+)\]\.function\.parameters: ([^\n]+)")
});

fn groq(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in GROQ.captures_iter(text) {
        let what = words(&c[3]);
        // `required` names properties that are not declared (there are none): the rule
        // `check` reports at `/required`, and the one whose evidence is this message
        // (groq-required-without-properties, usestrix/strix#1088).
        let (place, rule) = if what.contains("'required' present but 'properties' is missing") {
            (
                Place::Pointer(at_keyword("", "required")),
                Some("required-undeclared"),
            )
        } else {
            (Place::Meta(None), None)
        };
        out.push(
            Raw::new(
                "groq",
                matched(&c),
                ToolLoc::IndexName(index_at(&c, 2), c[1].to_string()),
                place,
            )
            .with_rule(rule),
        );
    }
    if words(text).contains("Tool call validation failed") {
        out.push(
            Raw::new(
                "groq",
                "Tool call validation failed",
                ToolLoc::NotATool,
                Place::None,
            )
            .note("the model's generated arguments failed the schema; the schema itself was accepted (check the arguments with `toolwire args`)"),
        );
    }
    out
}

// ---------------------------------------------------------------------------------------
// Anthropic (also relayed by Bedrock as `tools.N.custom`)

/// A tool's schema, by index; some clients print the path without `tools.N.`
/// (stack-openai-sanitizer-empties-params in reports.yaml: `custom.input_schema: ...`).
static A_INPUT_SCHEMA: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?:tools\.(\d+)\.custom(?:\.input_schema)?|\bcustom\.input_schema):\s*([^\n]+)")
});
/// The same refusal under the path Anthropic wrote before `custom` (2024:
/// anth-input-schema-field-missing in reports.yaml, `tools.0.input_schema`), in its wording of
/// then, which relays and clients still print ("JSON schema is invalid - please consult
/// ...").
static A_INPUT_SCHEMA_2024: LazyLock<Regex> =
    LazyLock::new(|| re(r"tools\.(\d+)\.input_schema:\s*(JSON schema is invalid[^\n]*)"));
static A_NAME: LazyLock<Regex> =
    LazyLock::new(|| re(r"tools\.(\d+)\.[A-Za-z]+\.name: String should ([^\n'\x22]+)"));
static A_FIELD_REQUIRED: LazyLock<Regex> =
    LazyLock::new(|| re(r"tools\.(\d+)\.input_schema: Field required"));
/// Two tools of one name; the message names neither (anthropic-tool-names-unique in
/// reports/documented/requests.yaml, <https://github.com/eclipse-theia/theia/issues/16122>;
/// the same words in anthropics/claude-code#10687).
static A_UNIQUE: LazyLock<Regex> = LazyLock::new(|| re(r"tools: Tool names must be unique\.?"));
static A_NONEXISTENT: LazyLock<Regex> =
    LazyLock::new(|| re(r"Reference to non-existent definition: (\S+)"));

fn anthropic(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in A_INPUT_SCHEMA.captures_iter(text) {
        let i = index_at(&c, 1);
        let what = words(&c[2]);
        let msg = matched(&c);
        let (place, rule) =
            if what.contains("does not support oneOf, allOf, or anyOf at the top level") {
                (Place::Search(Cond::RootCombinator), Some("root-combinator"))
            } else if let Some(r) = A_NONEXISTENT.captures(&what) {
                // The definition is missing, not the keyword refused: check's `ref-dangling`.
                (
                    Place::Search(Cond::RefTo(r[1].to_string())),
                    Some("ref-dangling"),
                )
            } else if what.contains("JSON schema is invalid") {
                (Place::Meta(None), None)
            } else {
                (Place::None, None)
            };
        let tool = c.get(1).map_or(ToolLoc::Unknown, |_| ToolLoc::Index(i));
        out.push(Raw::new("anthropic", msg, tool, place).with_rule(rule));
    }
    for c in A_INPUT_SCHEMA_2024.captures_iter(text) {
        let tool = ToolLoc::Index(index_at(&c, 1));
        out.push(Raw::new("anthropic", matched(&c), tool, Place::Meta(None)));
    }
    for c in A_NAME.captures_iter(text) {
        let rule = if c[2].contains("at most") {
            "name-too-long"
        } else {
            "name-invalid"
        };
        out.push(
            Raw::new(
                "anthropic",
                matched(&c),
                ToolLoc::Index(index_at(&c, 1)),
                Place::Tool,
            )
            .rule(rule),
        );
    }
    for c in A_FIELD_REQUIRED.captures_iter(text) {
        out.push(
            Raw::new(
                "anthropic",
                matched(&c),
                ToolLoc::Index(index_at(&c, 1)),
                Place::Tool,
            )
            .rule("parameters-missing"),
        );
    }
    for c in A_UNIQUE.captures_iter(text) {
        out.push(
            Raw::new(
                "anthropic",
                matched(&c),
                ToolLoc::SharedName(None),
                Place::Tool,
            )
            .rule("name-duplicate"),
        );
    }
    out
}

// ---------------------------------------------------------------------------------------
// Bedrock

static B_VALUE_AT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"The value at\s+toolConfig\.tools\.(\d+)\.toolSpec\.inputSchema\.json((?:\.[\w$]+)*)\s+must\s+be\s+one\s+of\s+the\s+following:\s*([^.\n]+)",
    )
});
static B_DEFINITION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"The json schema definition at toolConfig\.tools\.(\d+)\.toolSpec\.inputSchema is invalid\. Fix the following errors and try again: ([^\n]+)",
    )
});
static B_JSONPATH: LazyLock<Regex> =
    LazyLock::new(|| re(r"\$((?:\.[\w$]+|\[\d+\])*): ([^,\x22]+)"));
/// One constraint of AWS's `N validation error(s) detected: ...; ...` list on a tool's name
/// or description (API_runtime_ToolSpecification: name 1–64 characters `[a-zA-Z0-9_-]+`,
/// description at least 1 character). Verbatim in BerriAI/litellm#24668 (one tool of empty
/// name and description sent, `Value '' at 'toolConfig.tools.1.member.toolSpec.name' ...
/// pattern: [a-zA-Z0-9_-]+`, `... must have length greater than or equal to 1` for the name
/// and the description), microsoft/mcp#842 (2025-10-16, `... toolSpec.name' failed to satisfy
/// constraint: Member must have length less than or equal to 64`) and
/// aws-samples/remote-swe-agents#457 (2026-09-07, `Value 'Complete Session' at ...`), all read
/// 2026-12-05; some clients print it without the value (`Value at '...'`, awslabs/mcp#3181).
/// The list numbers its members from 1 ([`B_MEMBER_NOTE`]). A quote inside the value is
/// one not followed by a space, so a value never runs on into the next item of the list.
static B_CONSTRAINT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"Value(?: '((?:[^'\n]|'\S)*)')? at 'toolConfig\.tools\.(\d+)\.member\.toolSpec\.(name|description)' failed to satisfy constraint: Member must (satisfy regular expression pattern: \[a-zA-Z0-9_-\]\+|have length less than or equal to 64|have length greater than or equal to 1)",
    )
});
/// Bedrock's refusal of a tool's schema value as a whole (aws-sdk-net#3377, 2024-07-09,
/// quoted in PROVIDERS.md §9), index from 0 as in `The value at ...`.
static B_FORMAT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"The format of the value at toolConfig\.tools\.(\d+)\.toolSpec\.inputSchema\.json is invalid\.(?: Provide a json object for the field and try again\.)?",
    )
});
/// Why `toolConfig.tools.N.member` is tool #N-1: BerriAI/litellm#24668 sent one tool and was
/// answered `toolConfig.tools.1.member.toolSpec.name`.
const B_MEMBER_NOTE: &str = "Bedrock's validation list numbers the tools from 1 \
     (`toolConfig.tools.1.member` is the first tool, BerriAI/litellm#24668)";

fn bedrock(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in B_VALUE_AT.captures_iter(text) {
        let i = index_at(&c, 1);
        let rule = if c[2].is_empty() || &c[2] == ".type" {
            Some("root-not-object")
        } else {
            None
        };
        // `.json.type` names the root's `type`, where check reports a root of another type
        // (as Google's `parameters.type: must be OBJECT` is placed): trial 88 D2.
        let place = if c[2].is_empty() {
            Place::Root
        } else {
            Place::Pointer(pointer_from(c[2].split('.').skip(1)))
        };
        out.push(Raw::new("bedrock", matched(&c), ToolLoc::Index(i), place).with_rule(rule));
    }
    for c in B_DEFINITION.captures_iter(text) {
        let statement = Raw::new(
            "bedrock",
            matched(&c),
            ToolLoc::Index(index_at(&c, 1)),
            Place::None,
        );
        // The list may name one place many times; its statement is long, and each problem
        // quotes all of it.
        let mut seen = std::collections::HashSet::new();
        for p in B_JSONPATH.captures_iter(&c[2]) {
            let pointer = jsonpath_pointer(&p[1]);
            if !seen.insert(pointer.clone()) {
                continue;
            }
            let mut raw = statement.clone().rule(meta_rule(&pointer));
            raw.place = Place::Pointer(pointer);
            raw.found = found_type(&p[2]);
            out.push(raw);
        }
    }
    for c in B_CONSTRAINT.captures_iter(text) {
        let rule = match (&c[3], &c[4]) {
            ("description", _) => "description-missing",
            (_, m) if m.contains("less than") => "name-too-long",
            _ => "name-invalid",
        };
        let tool = match (index_at(&c, 2), c.get(1)) {
            (usize::MAX, _) => ToolLoc::Index(usize::MAX),
            (0, _) => ToolLoc::Unknown,
            (n, Some(name)) if &c[3] == "name" => ToolLoc::IndexName(n - 1, name.as_str().into()),
            (n, _) => ToolLoc::Index(n - 1),
        };
        out.push(
            Raw::new("bedrock", matched(&c), tool, Place::Tool)
                .rule(rule)
                .note(B_MEMBER_NOTE),
        );
    }
    for c in B_FORMAT.captures_iter(text) {
        out.push(
            Raw::new(
                "bedrock",
                matched(&c),
                ToolLoc::Index(index_at(&c, 1)),
                Place::Root,
            )
            .note(
                "Bedrock asks for a JSON object as the tool's schema (`inputSchema.json`), but \
                 what it found wrong with the value is not established (its one public report, \
                 aws-sdk-net#3377, does not say): no rule is named",
            ),
        );
    }
    out
}

/// `.properties.a[0]` → `/properties/a/0`.
/// The JSON type a Bedrock JSONPath item says it found (`null found, object expected`, the
/// wording of the reports.yaml bedrock entries), `None` for another wording.
fn found_type(what: &str) -> Option<&'static str> {
    let kind = what.trim().strip_suffix(" found")?;
    [
        "null", "object", "array", "string", "integer", "number", "boolean",
    ]
    .into_iter()
    .find(|t| *t == kind)
}

/// The request's `value`, cut to a line, when it is not of the JSON type `found` the provider
/// found there; `None` when it is (an integer is a number too).
fn found_elsewhere(value: &Value, found: &str) -> Option<String> {
    let fits = match value {
        Value::Null => found == "null",
        Value::Bool(_) => found == "boolean",
        Value::Number(n) => {
            found == "number" || found == "integer" && n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        Value::String(_) => found == "string",
        Value::Array(_) => found == "array",
        Value::Object(_) => found == "object",
    };
    (!fits).then(|| crate::describe::cut_line(&value.to_string()))
}

fn jsonpath_pointer(path: &str) -> String {
    let mut pointer = String::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (name, rest) = part.split_once('[').unwrap_or((part, ""));
        if !name.is_empty() {
            append_token(&mut pointer, name);
        }
        for ix in rest.split('[').filter(|s| !s.is_empty()) {
            append_token(&mut pointer, ix.trim_end_matches(']'));
        }
    }
    pointer
}

// ---------------------------------------------------------------------------------------
// xAI, Moonshot, Cohere, Mistral

static X_VIOLATION: LazyLock<Regex> =
    LazyLock::new(|| re(r"Schema validation failed: \[(\w+)\] (/\S*): ([^\n\x22]+)"));

fn xai(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in X_VIOLATION.captures_iter(text) {
        let what = words(&c[3]);
        let pointer = &c[2];
        // `additionalProperties: false` and `items: false` are keyword forms, which `check`
        // reports as the keyword (boolean-schema is a boolean property, branch or element).
        let keyword_form =
            pointer.ends_with("/additionalProperties") || pointer.ends_with("/items");
        let boolean = what.contains("property schema 'false'") || what.contains("'true'");
        let rule = if boolean && !keyword_form {
            Some("boolean-schema")
        } else if boolean || what.contains("not supported") {
            Some("keyword-unsupported")
        } else {
            None
        };
        let mut raw = Raw::new(
            "xai",
            matched(&c),
            ToolLoc::Unknown,
            Place::Pointer(pointer.to_string()),
        )
        .with_rule(rule);
        if keyword_form && pointer.contains("/properties/properties/") {
            raw = raw.note(
                "xAI was reported to refuse `additionalProperties: false` only in a tool with a \
                 property literally named `properties` (xai-additionalproperties-false, \
                 https://github.com/vercel/ai/issues/15283), and to accept it since 2026-09 \
                 (https://github.com/vercel/ai/pull/20760): renaming the property (rule \
                 property-named-keyword) also avoids it",
            );
        }
        out.push(raw);
    }
    out
}

/// Moonshot's `[Invalid request: ]tools.function.parameters is not a valid moonshot flavored
/// json schema, details: <At path '...': ...>`: the preamble belongs to the one statement
/// (moonshot-* in reports.yaml, where clients wrap it over several lines).
static M_AT_PATH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?s)(?:(?:Invalid request: )?tools\.function\.parameters is not a valid moonshot flavored json schema, details: <)?At path '([^']*)':\s*(.*?)>",
    )
});

const M_RULES: &[(&str, &str)] = &[
    (
        "when using anyOf, type should be defined in anyOf items",
        "anyof-with-siblings",
    ),
    ("type is not defined", "type-missing"),
    (
        "conflicting keywords found after $ref expansion",
        "ref-unsupported",
    ),
];

fn moonshot(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in M_AT_PATH.captures_iter(text) {
        let path: String = c[1].split_whitespace().collect();
        let what = words(&c[2]);
        let pointer = pointer_from(path.split('.').filter(|t| !t.is_empty()));
        let rule = rule_by_phrase(&what, M_RULES);
        out.push(
            Raw::new(
                "moonshot",
                matched(&c),
                ToolLoc::Unknown,
                Place::Pointer(pointer),
            )
            .with_rule(rule),
        );
    }
    out
}

static C_FUNCTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"invalid function at tools\[(\d+)\]\.function:\s*invalid 'parameters' provided: ([^\n\x22]+)",
    )
});

/// Cohere's documented "maximum of 200 fields across all tools" under `strict_tools`
/// (cohere-strict-tools-field-limit in providers.yaml) in the words of toolwire's offline
/// model (`target::cohere::strict_tools_problem`): the wording is inferred, no provider was
/// seen to send it; read so that compile's refusal and explain name the rule (trial 67 D4).
static C_FIELDS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"with strict_tools, at most \d+ fields are allowed across all tools(?:, got \d+)?")
});

/// Cohere's documented refusal of a tool with only optional parameters under `strict_tools`
/// (cohere-strict-tools-requires-required in reports.yaml: "tool definitions that have
/// optional parameters must specify at least one required parameter") in the words of
/// toolwire's offline model (`target::cohere::strict_tools_problem`): inferred, as
/// [`C_FIELDS`]'s are. It names no tool: the tools it is about are found in the request.
static C_REQUIRED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"with strict_tools, a tool with optional parameters must specify at least one required parameter",
    )
});

/// The fix for [`C_REQUIRED`]: the rule `required-invalid`'s own (write `required` as a list,
/// or leave it out) leaves the tool with optional parameters only, still refused.
pub(super) const COHERE_REQUIRED_FIX: &str = "Require at least one of the tool's parameters \
     (name it in `required`), or send the tool through `toolwire compile --target \
     cohere/v2-strict`, which makes the first optional parameter of each object required and \
     nullable (null meaning \"not given\").";

/// The note on [`C_REQUIRED`]'s reading: its words are inferred.
const COHERE_INFERRED: &str = "the words of toolwire's offline model of Cohere's documented limit \
     (inferred): Cohere's own message for it is unknown";

fn cohere(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in C_REQUIRED.captures_iter(text) {
        let mut raw = Raw::new("cohere", matched(&c), ToolLoc::AllOptional, Place::Root)
            .note(COHERE_INFERRED);
        raw.fix = Some(COHERE_REQUIRED_FIX);
        out.push(raw);
    }
    for c in C_FIELDS.captures_iter(text) {
        out.push(
            Raw::new("cohere", matched(&c), ToolLoc::NotATool, Place::None)
                .rule("size-exceeded")
                .note(COHERE_INFERRED),
        );
    }
    for c in C_FUNCTION.captures_iter(text) {
        let what = words(&c[2]);
        let (place, rule) = if what.contains("pattern must be a valid regex") {
            (Place::Search(Cond::AnyPattern), Some("keyword-unsupported"))
        } else {
            (Place::None, None)
        };
        out.push(
            Raw::new(
                "cohere",
                matched(&c),
                ToolLoc::Index(index_at(&c, 1)),
                place,
            )
            .with_rule(rule),
        );
    }
    let flat = words(text);
    if flat.contains("is not a valid field") && flat.contains("unknown field: parameter") {
        out.push(
            Raw::new("cohere", text.lines().find(|l| l.contains("unknown field")).unwrap_or(text), ToolLoc::NotATool, Place::None)
                .note("a field of the request or of the tool envelope that Cohere does not know; not a schema problem"),
        );
    }
    out
}

static MISTRAL_LOC: LazyLock<Regex> =
    LazyLock::new(|| re(r"loc: body\.tools\.(\d+)\.function\.(\w+)"));
/// Mistral's grammar compiler refusing a schema (mistral-id-schema-grammar in reports.yaml,
/// BerriAI/litellm#13389: `Grammar error: at 3(11): failed to compile JSON schema`).
static MISTRAL_GRAMMAR: LazyLock<Regex> =
    LazyLock::new(|| re(r"Grammar error: at [^:\n]*: failed to compile JSON schema"));

/// Mistral's refusal of a function name (mistral-function-name-pattern in
/// reports/documented/providers.yaml, https://github.com/Kochava-Studios/witsy/pull/164,
/// 2025-04-04, as LiteLLM relayed it): the name between single whitespace characters, as sent.
static MISTRAL_NAME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"Function name was\s(.*?)\sbut must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64\.?",
    )
});
/// The rule Mistral's name message states, as providers.yaml records it.
const MISTRAL_NAME_PATTERN: &str = "^[a-zA-Z0-9_-]{0,64}$";

/// What Mistral's grammar error was traced to in its one public report
/// (mistral-id-schema-grammar: "their API stopped accepting $id and $schema fields"), the
/// report `check --target mistral/chat` cites for both keywords.
const MISTRAL_GRAMMAR_CAUSES: &[&str] = &["$schema", "$id"];

fn mistral(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in MISTRAL_GRAMMAR.captures_iter(text) {
        let causes = MISTRAL_GRAMMAR_CAUSES
            .iter()
            .map(|k| Cond::HasKeyword(k.to_string()))
            .collect();
        out.push(
            Raw::new(
                "mistral",
                matched(&c),
                ToolLoc::Unknown,
                Place::Search(Cond::Each(causes)),
            )
            .rule("keyword-unsupported")
            .only_where_found()
            .note(
                "the grammar compiler failed on the schema; the message names no tool or place \
                 (its `at` is a position in the compiled grammar, not in the request). Its one \
                 public report (mistral-id-schema-grammar, https://github.com/BerriAI/litellm/pull/13389) \
                 traced it to `$id` and `$schema`, so the request is searched for those two",
            ),
        );
    }
    for c in MISTRAL_NAME.captures_iter(text) {
        let name = &c[1];
        let rule = if fails_only_by_length_of(MISTRAL_NAME_PATTERN, name) {
            "name-too-long"
        } else {
            "name-invalid"
        };
        out.push(
            Raw::new(
                "mistral",
                matched(&c),
                ToolLoc::Name(name.to_string()),
                Place::Tool,
            )
            .rule(rule),
        );
    }
    let statement = Raw::new(
        "mistral",
        text.lines().next().unwrap_or(text),
        ToolLoc::Unknown,
        Place::Tool,
    );
    for c in MISTRAL_LOC.captures_iter(text) {
        let mut raw = statement.clone();
        raw.tool = ToolLoc::Index(index_at(&c, 1));
        out.push(raw.note(format!(
            "`function.{}` is not a field of the tool envelope (it belongs in `parameters`)",
            &c[2]
        )));
    }
    out
}

// ---------------------------------------------------------------------------------------
// llama.cpp's converter, Fireworks, Ollama (messages that echo the subschema or a Go path)

static L_UNRECOGNIZED: LazyLock<Regex> = LazyLock::new(|| re(r"Unrecognized schema: ([^\n]+)"));
static F_INSTANCE: LazyLock<Regex> =
    LazyLock::new(|| re(r"could not understand the instance `([^`]+)`"));

fn llama_cpp(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in L_UNRECOGNIZED
        .captures_iter(text)
        .map(|c| ("llama.cpp", c))
        .chain(F_INSTANCE.captures_iter(text).map(|c| ("fireworks", c)))
    {
        let (provider, c) = c;
        let value = parse_echo(c[1].trim());
        let Some(value) = value else {
            out.push(Raw::new(
                provider,
                matched(&c),
                ToolLoc::Unknown,
                Place::None,
            ));
            continue;
        };
        let rule = echo_rule(&value);
        out.push(Raw::new(provider, matched(&c), ToolLoc::Unknown, Place::Echo(value)).rule(rule));
    }
    if words(text).contains("Pattern must start with '^' and end with '$'") {
        out.push(
            Raw::new(
                "llama.cpp",
                "Pattern must start with '^' and end with '$'",
                ToolLoc::Unknown,
                Place::Search(Cond::UnanchoredPattern),
            )
            .rule("keyword-unsupported"),
        );
    }
    out
}

/// Reads an echoed subschema: JSON, or Python's repr of it.
fn parse_echo(text: &str) -> Option<Value> {
    // The echo may be followed by the rest of the body (`",` …): read the first value only.
    let first = |t: &str| {
        serde_json::Deserializer::from_str(t)
            .into_iter::<Value>()
            .next()
            .and_then(Result::ok)
    };
    if let Some(v) = first(text) {
        return Some(v);
    }
    // Python's repr (Fireworks echoes the instance that way).
    crate::target::pyrepr::parse_prefix(text).map(|(v, _)| v)
}

fn echo_rule(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "boolean-schema",
        Value::Object(o) if o.contains_key("$ref") => "ref-unsupported",
        Value::Object(o) if o.contains_key("not") => "keyword-unsupported",
        Value::Object(o) if !o.contains_key("type") => "type-missing",
        _ => "keyword-unsupported",
    }
}

static OLLAMA: LazyLock<Regex> =
    LazyLock::new(|| re(r"json: cannot unmarshal (\w+) into Go struct field (\S+) of type (\S+)"));

fn ollama(text: &str) -> Vec<Raw> {
    let mut out = Vec::new();
    for c in OLLAMA.captures_iter(text) {
        let field = c[2].rsplit('.').next().unwrap_or("");
        let (place, rule) = if field == "type" && &c[1] == "array" {
            (Place::Search(Cond::TypeList), Some("type-list"))
        } else {
            (Place::None, None)
        };
        out.push(Raw::new("ollama", matched(&c), ToolLoc::Unknown, place).with_rule(rule));
    }
    out
}

// ---------------------------------------------------------------------------------------
// Resolution

/// The rule for a meta-schema violation at `pointer`.
pub(super) fn meta_rule(pointer: &str) -> &'static str {
    meta_reading(pointer).0
}

/// [`meta_rule`], with the place of the keyword whose value holds `pointer`: `pointer` itself
/// when it is a schema or a keyword, else the keyword it is inside
/// (`/dependentRequired/a` → `/dependentRequired`, `/required/0` → `/required`).
fn meta_reading(pointer: &str) -> (&'static str, String) {
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    // Read the pointer with schema semantics: after a map keyword comes a member name, after
    // a list keyword an index; anything else is a keyword of the current schema.
    let mut last_keyword: Option<&str> = None;
    let mut member = false;
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i].as_str();
        member = false;
        last_keyword = Some(t);
        // A `dependencies` member with a keyword after its name is a schema (its schema form);
        // the member itself, or an index into it (its list of names), is the keyword's value.
        let schema_dependency = t == "dependencies"
            && tokens
                .get(i + 2)
                .is_some_and(|k| k.parse::<usize>().is_err());
        if (crate::schema::MAP_OF_SCHEMAS.contains(&t) || schema_dependency) && i + 1 < tokens.len()
        {
            i += 2;
            member = true;
            last_keyword = None;
            continue;
        }
        if (crate::schema::LIST_OF_SCHEMAS.contains(&t) || t == "items")
            && tokens
                .get(i + 1)
                .is_some_and(|n| n.parse::<usize>().is_ok())
            && i + 2 < tokens.len()
        {
            i += 2;
            last_keyword = None;
            continue;
        }
        if (crate::schema::ONE_SCHEMA.contains(&t) || t == "items") && i + 1 < tokens.len() {
            i += 1;
            last_keyword = None;
            continue;
        }
        // A keyword whose value is not a schema: stop (`/required/0`, `/enum/1`).
        break;
    }
    let keyword = pointer_from(tokens[..tokens.len().min(i + 1)].iter().map(String::as_str));
    if member {
        // A member of `properties` (or `$defs`) that is not a schema.
        return ("schema-invalid", keyword);
    }
    let rule = match last_keyword.unwrap_or("") {
        "type" => "type-invalid",
        "" => "schema-invalid",
        k => wrong_kind_rule(k),
    };
    (rule, keyword)
}

/// [`meta_rule`], told by the value at `pointer` when the request has it: a value
/// `keyword-value-invalid` does not judge a wrong kind (draft-04's boolean `exclusiveMinimum`,
/// a form of its own) is `keyword-unsupported`'s, as `check` reports it.
pub(super) fn meta_rule_for(pointer: &str, value: Option<&Value>) -> &'static str {
    let rule = meta_rule(pointer);
    let keyword = pointer
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .replace("~1", "/")
        .replace("~0", "~");
    match value {
        Some(v)
            if rule == "keyword-value-invalid"
                && crate::profile::rules::keyword_value_invalid::form(&keyword, v).is_none() =>
        {
            "keyword-unsupported"
        }
        Some(Value::String(t)) if rule == "type-invalid" => type_rule(t),
        // A list refused for a name that is no standard type is refused for that name, which
        // check reports as `type-invalid` at its place in the list ([`misspelt_in_list`]); a
        // list of standard names is refused for naming one twice, `type-list`'s, as check
        // reports every non-empty list; an empty one allows no value, `type-invalid`'s.
        Some(v @ Value::Array(a)) if rule == "type-invalid" && !a.is_empty() => {
            if misspelt_in_list(v).is_some() {
                rule
            } else {
                "type-list"
            }
        }
        _ => rule,
    }
}

/// The index of the first name of the `type` list `v` that is not one of JSON Schema's types
/// as the standard spells them (`0` in `["strng", "null"]`, also a name that is no string):
/// where check's `type-invalid` finding is, so that a meta-schema refusal of the list is
/// placed there. `None` for anything else.
pub(super) fn misspelt_in_list(v: &Value) -> Option<usize> {
    v.as_array()?.iter().position(|n| {
        !n.as_str()
            .is_some_and(crate::profile::rules::type_unsupported::is_standard)
    })
}

/// The rule `check` reports for `type: t` (a string) that a provider refused: a standard type
/// as the standard spells it is `type-unsupported` (the type is valid JSON Schema, the target
/// does not take it), any other spelling `type-invalid`.
pub(super) fn type_rule(t: &str) -> &'static str {
    if crate::profile::rules::type_unsupported::is_standard(t) {
        crate::profile::rules::type_unsupported::RULE.id
    } else {
        crate::profile::rules::type_invalid::RULE.id
    }
}

/// The rule `check` reports for keyword `k` given a value of a kind it does not take (a list
/// where the provider's parser wants one value or a map, or a meta-schema violation at the
/// keyword): the keyword's own rule (`properties-invalid` for a map written as a list, as PHP
/// and some serializers write an empty map), `keyword-value-invalid` for the keywords that
/// rule judges by kind, and `keyword-unsupported` only for the rest. `type` is left to the
/// callers: a list there is `type-list`, another bad value `type-invalid` (or `type-unsupported`,
/// [`type_rule`]).
pub(super) fn wrong_kind_rule(k: &str) -> &'static str {
    use crate::profile::rules::keyword_value_invalid;
    match k {
        "required" => "required-invalid",
        "enum" => "enum-invalid",
        "items" => "items-not-schema",
        "properties" => "properties-invalid",
        // OpenAPI's flag written as a list of names is that rule's form.
        "nullable" => "nullable-spelling",
        // An empty list is no value any keyword of that rule takes (a number, a count, a
        // string, a schema or boolean, a boolean, a non-empty list of schemas): asking it
        // about one says whether it judges `k` at all.
        _ if keyword_value_invalid::form(k, &Value::Array(Vec::new())).is_some() => {
            "keyword-value-invalid"
        }
        _ => "keyword-unsupported",
    }
}

/// The rules of Gemini's messages about a schema a client (the AI SDK, a relay) rewrote from
/// a list-valued `type` before sending: `{"type":["array","null"],"items":…}` arrives as
/// `any_of:[{type:ARRAY},{type:NULL}]` beside `items`, refused as `items: field predicate
/// failed: $type == Type.ARRAY` and `any_of[0].items: missing field`
/// (opencode-nullable-array-predicate in the evidence's reports.yaml).
const CONVERTED_TYPE_LIST_RULES: &[&str] = &["type-missing", "array-items-missing"];

/// The note of an explanation moved to the list-valued `type` the message's place came from.
pub(super) const CONVERTED_TYPE_LIST: &str = "the request's `type` here is a list, which a client \
     rewrote (into `any_of` branches) before sending; the message is about that rewrite, and \
     the list is what to fix";

/// The place in `schema` of the list-valued `type` that `node` (a place a Gemini message
/// names) was rewritten from: `node` itself when its `type` is a list, or the nearest schema
/// above it when `node` and what lies between are not in `schema` (an `any_of` branch the
/// client made). `None` when the schema at `node` (or the first one above it that exists) has
/// no list for `type`: the message is then about what the request has.
fn converted_type_list(schema: &Value, node: &str) -> Option<String> {
    let mut at = node;
    loop {
        if let Some(here) = schema.pointer(at) {
            return here
                .get("type")
                .is_some_and(Value::is_array)
                .then(|| at.to_string());
        }
        at = &at[..at.rfind('/')?];
    }
}

/// The one tool of `tools` named `name`; `None` when none or several are.
fn unique_named<'a, 'b>(tools: &'b [RequestTool<'a>], name: &str) -> Option<&'b RequestTool<'a>> {
    match tools
        .iter()
        .filter(|t| t.name == Some(name))
        .collect::<Vec<_>>()[..]
    {
        [t] => Some(t),
        _ => None,
    }
}

/// The rule of Gemini's "`…X: missing field`" by the field `X` that ends `path`: `items` is
/// array-items-missing, `type` type-missing; another field names no rule.
fn missing_field_rule(path: &str) -> Option<&'static str> {
    match path.rsplit_once('.').map(|(_, field)| field.trim()) {
        Some("items") => Some("array-items-missing"),
        Some("type") => Some("type-missing"),
        _ => None,
    }
}

/// Whether `schema` is typed as an array: `type` is `array` (in any case, as Gemini spells it
/// `ARRAY`) or a list holding it.
fn typed_array(schema: &Value) -> bool {
    let is_array = |t: &Value| t.as_str().is_some_and(|t| t.eq_ignore_ascii_case("array"));
    match schema.get("type") {
        Some(Value::Array(list)) => list.iter().any(is_array),
        Some(t) => is_array(t),
        None => false,
    }
}

/// Rules whose pointer names the schema that lacks something (not the missing keyword).
const MISSING_RULES: &[(&str, &str)] = &[
    ("type-missing", "type"),
    ("array-items-missing", "items"),
    ("object-properties-missing", "properties"),
];

/// Whether `keyword` is of the kind `rule` (one of [`MISSING_RULES`]) says is missing: that
/// keyword or one named after it (`prefixItems` for `items`, `patternProperties` for
/// `properties`), which a schema may give instead.
pub(super) fn stands_in_for_missing(rule: &str, keyword: &str) -> bool {
    // The keyword itself, there, is no stand-in: where the message calls it missing, a
    // finding about its value (a `type` check has no evidence for) is about something else.
    MISSING_RULES.iter().any(|(r, k)| {
        *r == rule
            && !keyword.eq_ignore_ascii_case(k)
            && keyword
                .to_ascii_lowercase()
                .ends_with(&k.to_ascii_lowercase())
    })
}

/// Resolves a raw problem against the request's tools (see [`Against`]): which tool, which
/// place, the rule's fix, and notes on what could not be found. One explanation per place:
/// several when a search for [`Cond::Each`] finds more than one in the tool.
pub(super) fn resolve(raw: Raw, against: Against<'_, '_>) -> Vec<Explanation> {
    if let ToolLoc::SharedName(name) = &raw.tool {
        let name = name.clone();
        return resolve_shared(raw, name.as_deref(), against);
    }
    if raw.tool == ToolLoc::AllOptional {
        return resolve_all_optional(raw, against);
    }
    let Raw {
        provider,
        message,
        tool: tool_loc,
        place,
        mut rule,
        fix,
        mut notes,
        rule_needs_place,
        found,
        ..
    } = raw;
    // Further places of the same problem (a [`Cond::Each`] search).
    let mut more: Vec<String> = Vec::new();
    let (tools, have_request): (&[RequestTool<'_>], bool) = match against {
        Against::Tools(t) => (t, true),
        Against::Nothing | Against::Foreign => (&[], false),
    };
    let mut tool: Option<&RequestTool<'_>> = None;
    let mut index_from_error: Option<usize> = None;
    let mut name_from_error: Option<String> = None;
    // An index past `usize` (read as `usize::MAX` by `index_at`) names no tool of any request:
    // said once, with the digits as the provider wrote them, never as the number it was read as.
    let past_any = match &tool_loc {
        ToolLoc::Google { group, position } => {
            *position == usize::MAX || *group == Some(usize::MAX)
        }
        ToolLoc::Index(i) | ToolLoc::IndexName(i, _) => *i == usize::MAX,
        _ => false,
    };
    if past_any {
        let written = unparsed_index(&message).unwrap_or("given");
        notes.push(format!(
            "the error's tool index {written} is past any index a request can have: it names no \
             tool"
        ));
    }
    match &tool_loc {
        ToolLoc::Google { .. } | ToolLoc::Index(_) if past_any => {}
        ToolLoc::IndexName(_, n) if past_any => {
            name_from_error = Some(n.clone());
            tool = tools.iter().find(|t| t.name == Some(n.as_str()));
        }
        ToolLoc::Google { group, position } => {
            tool = tools
                .iter()
                .find(|t| t.group == group.unwrap_or(0) && t.position == *position);
            if tools.iter().all(|t| t.group == 0) || group.is_some() {
                index_from_error = Some(*position).filter(|_| group.unwrap_or(0) == 0);
            }
            if have_request && tool.is_none() {
                notes.push(format!(
                    "the request has no function declaration at tools[{}].function_declarations[{position}]",
                    group.unwrap_or(0)
                ));
            }
        }
        ToolLoc::Index(i) => {
            index_from_error = Some(*i);
            tool = tools.get(*i);
            if have_request && tool.is_none() {
                notes.push(format!("the request has no tool at index {i}"));
            }
        }
        ToolLoc::Name(n) => {
            name_from_error = Some(n.clone());
            let matching: Vec<&RequestTool<'_>> = tools
                .iter()
                .filter(|t| t.name == Some(n.as_str()))
                .collect();
            match matching.len() {
                1 => tool = Some(matching[0]),
                _ if !have_request => {}
                0 => notes.push(format!("no tool in the request is named `{n}`")),
                k => notes.push(format!("{k} tools in the request are named `{n}`")),
            }
        }
        ToolLoc::IndexName(i, n) => {
            index_from_error = Some(*i);
            name_from_error = Some(n.clone());
            match tools.get(*i) {
                Some(t) if t.name == Some(n.as_str()) => tool = Some(t),
                Some(t) => {
                    notes.push(format!(
                        "the error names `{n}` at index {i}, but the request has `{}` there",
                        t.name.unwrap_or("")
                    ));
                    tool = tools.iter().find(|t| t.name == Some(n.as_str()));
                }
                None if have_request => {
                    // A request cut down to the tool at fault (or grown since) still has it by
                    // name: read there, so check's findings for it are looked up as well.
                    tool = unique_named(tools, n);
                    notes.push(match tool {
                        Some(t) => format!(
                            "the request has no tool at index {i}; its tool #{} named `{n}` is read instead",
                            t.index
                        ),
                        None => format!("the request has no tool at index {i}"),
                    });
                }
                None => {}
            }
        }
        ToolLoc::Unknown | ToolLoc::NotATool | ToolLoc::SharedName(_) | ToolLoc::AllOptional => {}
    }

    let mut located = Located::Unknown;
    let mut pointer: Option<String> = None;
    let mut candidates: Vec<&RequestTool<'_>> = match tool {
        Some(t) => vec![t],
        None if tool_loc == ToolLoc::Unknown => tools.iter().collect(),
        None => Vec::new(),
    };
    candidates.retain(|t| t.schema.is_some() || matches!(place, Place::Root | Place::Tool));
    match place {
        Place::Root => {
            pointer = Some(String::new());
            located = Located::Tool;
        }
        Place::Tool => {
            pointer = Some(String::new());
            located = Located::Tool;
        }
        Place::None => {}
        Place::Pointer(p) => {
            located = Located::Path;
            if tool.is_none() && !candidates.is_empty() {
                // The place itself first: its parent exists in every tool with a
                // `properties` map. The parent alone counts only when no tool has the place
                // (an error naming a keyword that is missing, such as `items`).
                let fits_by = |fits: &dyn Fn(&Value) -> bool| -> Vec<&RequestTool<'_>> {
                    candidates
                        .iter()
                        .filter(|t| t.schema.is_some_and(fits))
                        .copied()
                        .collect()
                };
                let mut fits = fits_by(&|s| s.pointer(&p).is_some());
                if fits.is_empty() {
                    fits = fits_by(&|s| in_schema(s, &p));
                }
                tool = unique(&fits, &mut notes, &p);
            } else if tool
                .and_then(|t| t.schema)
                .is_some_and(|s| !in_schema(s, &p))
            {
                notes.push(format!("{p} {NOT_IN_REQUEST}"));
            } else if let Some(found) = found
                && let Some(value) = tool.and_then(|t| t.schema).and_then(|s| s.pointer(&p))
                && let Some(has) = found_elsewhere(value, found)
            {
                // The place is in the request, but not what the provider found there (trial
                // 59 D17): as for Google's positional index, the place is not the one to fix.
                notes.push(format!(
                    "{p} is in the request, but the request has {has} there, not the {found} \
                     {provider} found; not trusted: the error came from another request or \
                     another version of the tool"
                ));
            }
            pointer = Some(p);
        }
        Place::PropertyPath(names) => {
            located = Located::Path;
            match tool.and_then(|t| t.schema) {
                Some(s) => {
                    let (at, said) = dotted_place(s, &names, rule);
                    notes.extend(said);
                    pointer = at;
                }
                None => {
                    pointer = Some(pointer_from(
                        names.iter().flat_map(|n| ["properties", n.as_ref()]),
                    ))
                }
            }
        }
        Place::Google {
            path,
            keyword,
            expect,
        } => {
            let schema = tool.and_then(|t| t.schema);
            let listed = schema
                .zip(google_pointer(&path, schema).ok())
                .and_then(|(s, (n, _))| {
                    converted_type_list(s, &n)
                        .filter(|_| rule.is_some_and(|r| CONVERTED_TYPE_LIST_RULES.contains(&r)))
                });
            match google_pointer(&path, schema) {
                // Checked first: the message is about the client's rewrite of the list, which
                // the request's schema does not have (an `any_of` branch without `items`).
                Ok((_, positional)) if let Some(at) = listed => {
                    located = if positional {
                        Located::PositionalIndex
                    } else {
                        Located::Path
                    };
                    rule = Some("type-list");
                    notes.push(CONVERTED_TYPE_LIST.into());
                    pointer = Some(at);
                }
                Ok((node, positional)) => {
                    let full = match &keyword {
                        Some(k) => at_keyword(&node, k),
                        None => node.clone(),
                    };
                    located = if positional {
                        Located::PositionalIndex
                    } else {
                        Located::Path
                    };
                    let check = schema.map(|s| expectation_holds(s, &node, &full, &expect));
                    // `items` is missing only from an array: at a schema the request does not
                    // type as one, no missing `items` is claimed.
                    let here = schema.and_then(|s| s.pointer(&node));
                    if rule == Some("array-items-missing")
                        && matches!(&expect, Expect::Absent(k) if k == "items")
                        && let Some(here) = here.filter(|h| !typed_array(h))
                    {
                        notes.push(format!(
                            "the schema at {node:?} is not an array in the request (its `type` \
                             is {}), so it needs no `items`: the message was about another \
                             version of the request, or its cause is not a missing `items`",
                            here.get("type")
                                .map_or_else(|| "absent".to_string(), |t| format!("{t}"))
                        ));
                        rule = None;
                    }
                    match check {
                        Some(Err(why)) if positional => {
                            notes.push(format!(
                                "the positional index resolves to {node:?}, but {why}; not trusted"
                            ));
                            located = Located::Unknown;
                        }
                        Some(Err(why)) => {
                            notes.push(format!("{why} in the request"));
                            pointer = Some(full);
                        }
                        // A keyword "missing" that is there as a JSON null: the null is the
                        // place (where `check` reports it).
                        _ => match &expect {
                            Expect::Absent(k)
                                if here.and_then(|h| h.get(k.as_str())) == Some(&Value::Null) =>
                            {
                                notes.push(null_as_unset(k));
                                pointer = Some(at_keyword(&node, k));
                            }
                            _ => pointer = Some(full),
                        },
                    }
                }
                // A request without the tool has no key order to resolve against; the note
                // that it has no such tool says so already.
                Err(_) if have_request && schema.is_none() => {}
                // Nothing is said of another provider's request.
                Err(_) if matches!(against, Against::Foreign) => {}
                Err(why) => notes.push(why),
            }
        }
        Place::Echo(v) => {
            located = Located::Search;
            let found = find_in(&candidates, |s| {
                walk(s)
                    .nodes
                    .iter()
                    .find(|n| *n.value == v)
                    .map(|n| n.pointer.clone())
            });
            (tool, pointer) = pick(tool, found, &mut notes, "the echoed subschema", against);
        }
        Place::Meta(named) => {
            located = Located::MetaSchema;
            // Each candidate's places are found once: the deepest locates the error, the
            // others are named (validating a large schema twice was half of compile's time).
            let all = find_in(&candidates, |s| Some(meta_violations(s)));
            let found = all
                .iter()
                .filter_map(|(t, places)| Some((*t, deepest(places)?.clone())))
                .collect();
            match named {
                // Nothing was searched: the place the message names stands.
                Some(p) if !have_request => {
                    located = Located::Path;
                    pointer = Some(p);
                }
                _ => {
                    (tool, pointer) =
                        pick(tool, found, &mut notes, "a meta-schema violation", against);
                }
            }
            let value = |p: &str| tool.and_then(|t| t.schema).and_then(|s| s.pointer(p));
            // The place found names the rule; the message's own words only when none is.
            if let Some(p) = pointer.as_deref() {
                rule = Some(meta_rule_for(p, value(p)));
            }
            // A `type` list refused for a name in it is placed at that name, where check
            // reports it (`/type/0`).
            if rule == Some(crate::profile::rules::type_invalid::RULE.id)
                && let Some(p) = pointer.as_mut()
                && let Some(i) = value(p).and_then(misspelt_in_list)
            {
                p.push('/');
                p.push_str(&i.to_string());
            }
            // The provider names none of the places, so each must be fixed before it accepts
            // the tool: the others are said, not left for the next rejection.
            // Past `MAX_OTHER_PLACES` they are counted, not named: a note naming 300,000
            // places is no help, and `check` lists every one.
            if let (Some(here), Some(t)) = (&pointer, tool) {
                let places = all
                    .iter()
                    .filter(|(c, _)| c.index == t.index)
                    .flat_map(|(_, places)| places);
                notes.extend(meta_others_note(t.schema, places, here));
            }
            // Check reports an unsupported keyword at the keyword, not inside its value (a
            // repeat in a `dependentRequired` list is refused at `/dependentRequired/a`).
            if rule == Some("keyword-unsupported")
                && let Some(p) = pointer.as_mut()
            {
                *p = meta_reading(p).1;
            }
        }
        Place::Search(cond) => {
            located = Located::Search;
            if rule == Some("depth-exceeded") {
                if have_request {
                    let deepest = candidates
                        .iter()
                        .filter_map(|t| t.schema.map(|s| (crate::schema::object_depth(s), *t)))
                        .max_by_key(|(d, t)| (*d, usize::MAX - t.index));
                    if let Some((_, t)) = deepest {
                        tool = Some(t);
                        pointer = Some(String::new());
                    }
                }
            } else {
                let hits = find_in(&candidates, |s| {
                    Some(search_all(s, &cond)).filter(|h| !h.is_empty())
                });
                let found: Vec<_> = hits.iter().map(|(t, h)| (*t, h[0].clone())).collect();
                if cond == Cond::RootCombinator && found.is_empty() {
                    // "At the top level" says where: the root of the tool's schema (the
                    // keyword there, where `check` reports it, is found when the request has
                    // it). The tool is the one named, or the request's only one.
                    if have_request {
                        notes.push("no combinator at the root was found in the request".into());
                    }
                    if let (None, ToolLoc::Unknown, [only]) = (tool, &tool_loc, tools) {
                        tool = Some(only);
                    }
                    if tool.is_some() || !have_request {
                        pointer = Some(String::new());
                        located = Located::Tool;
                    }
                } else {
                    (tool, pointer) =
                        pick(tool, found, &mut notes, "the place it describes", against);
                }
                if let [(_, h)] = hits.as_slice()
                    && pointer.is_some()
                {
                    more = h[1..].to_vec();
                }
            }
        }
    }
    if rule == Some("object-properties-missing")
        && let (Some(schema), Some(p)) = (tool.and_then(|t| t.schema), pointer.as_mut())
    {
        *p = properties_missing_place(schema, p, provider == "google");
        if schema.pointer(p) == Some(&Value::Null) {
            notes.push(null_as_unset("properties"));
        }
    }
    if rule_needs_place && have_request && pointer.is_none() {
        rule = None;
        notes.push(
            "the cause its public report found is not in this request, and the message says \
             nothing else: no rule is named"
                .into(),
        );
    }
    if rule == Some("name-invalid")
        && let Some(name) = tool.and_then(|t| t.name)
        && fails_only_by_length(&message, name)
    {
        rule = Some("name-too-long");
    }
    // An unknown key of a root that holds no schema keyword at all is an example of the
    // arguments written where the schema belongs: removing the key leaves `{}`, refused
    // again; the root is the problem, as check's `root-not-object` says (trial 71 D7).
    if rule == Some("keyword-unsupported")
        && let (Some(Value::Object(root)), Some(p)) =
            (tool.and_then(|t| t.schema), pointer.as_mut())
        && p.strip_prefix('/').is_some_and(|key| !key.contains('/'))
        && crate::profile::rules::root_not_object::is_instance(root)
    {
        notes.push(instance_root_note(root));
        *p = String::new();
        rule = Some("root-not-object");
    }
    // Bedrock says `.json.type` of a root without `type` too (`{}`): check reports that root
    // as a whole, at `""`, so the message is placed there.
    if rule == Some("root-not-object")
        && pointer.as_deref() == Some("/type")
        && let Some(Value::Object(root)) = tool.and_then(|t| t.schema)
        && !root.contains_key("type")
    {
        notes.push(
            "the request's schema has no `type` at its root for the message's `.type` to name: \
             the root as a whole is the place"
                .into(),
        );
        pointer = Some(String::new());
    }
    // The error's own number is the answer only without a request: a request that has no tool
    // there (noted above) shows the error is not about this request's tools.
    let tool_index = tool
        .map(|t| t.index)
        .or(index_from_error.filter(|_| !have_request));
    // Likewise its name: a tool named must be in the request.
    let tool_name = tool
        .and_then(|t| t.name.map(str::to_string))
        .or(name_from_error
            .filter(|n| !have_request || tools.iter().any(|t| t.name == Some(n.as_str()))));
    if tool_loc == ToolLoc::NotATool {
        pointer = None;
        located = Located::Request;
    }
    let first = Explanation {
        provider,
        message: message.to_string(),
        tool_index,
        tool: tool_name,
        pointer,
        located,
        fix: fix.or(rule.and_then(fix_for)).map(str::to_string),
        rule: rule.map(str::to_string),
        notes,
    };
    let others: Vec<Explanation> = more
        .into_iter()
        .map(|p| Explanation {
            pointer: Some(p),
            ..first.clone()
        })
        .collect();
    std::iter::once(first).chain(others).collect()
}

/// How many keys of example arguments written as the schema [`instance_root_note`] names.
const INSTANCE_KEYS_NAMED: usize = 5;

/// The note of an unknown key of `root`, which holds no schema keyword at all: the root's keys
/// (the first [`INSTANCE_KEYS_NAMED`]) are example arguments, and removing them leaves `{}`.
/// Every key is named, not only the message's: a provider names one key a message (Google),
/// and removing that one leaves the others refused (trial 71 D7 with several keys).
fn instance_root_note(root: &serde_json::Map<String, Value>) -> String {
    let mut keys: Vec<String> = root
        .keys()
        .take(INSTANCE_KEYS_NAMED)
        .map(|k| format!("`{k}`"))
        .collect();
    let (what, them) = match root.len() {
        1 => (format!("{} is no schema keyword", keys[0]), "the key"),
        n => {
            if n > INSTANCE_KEYS_NAMED {
                keys.push(crate::check::count(n - INSTANCE_KEYS_NAMED, "more key"));
            }
            (
                format!("{} are no schema keywords", keys.join(", ")),
                "them",
            )
        }
    };
    format!(
        "{what}, and the schema holds none at all: it is an example of the arguments, not a \
         schema; removing {them} would leave `{{}}`, refused again"
    )
}

/// A pattern quoted in a message (`should match pattern '^[a-zA-Z0-9_-]{1,64}$'`).
static QUOTED_PATTERN: LazyLock<Regex> = LazyLock::new(|| re(r"pattern '([^']+)'"));
/// A length bound in a pattern: `{1,64}`, its lower bound captured.
static LENGTH_BOUND: LazyLock<Regex> = LazyLock::new(|| re(r"\{(\d+),\d+\}"));

/// Whether `name` fails the name pattern `message` quotes only by being too long: the pattern
/// refuses it, and the same pattern with its upper length bounds lifted takes it. A message
/// that quotes a pattern (Anthropic's and OpenAI's) cannot say which part failed, so a
/// 70-character name of allowed characters would otherwise be explained as bad characters.
/// The lower bound stays: an empty name fails `{1,64}` by being short, which no shortening
/// fixes (trial 71 D4), and is `name-invalid` as check calls it.
fn fails_only_by_length(message: &str, name: &str) -> bool {
    QUOTED_PATTERN
        .captures(message)
        .is_some_and(|c| fails_only_by_length_of(&c[1], name))
}

/// Whether `name` fails `pattern` only by being too long (see [`fails_only_by_length`]).
fn fails_only_by_length_of(pattern: &str, name: &str) -> bool {
    let unbounded = LENGTH_BOUND.replace_all(pattern, "{${1},}");
    match (Regex::new(pattern), Regex::new(&unbounded)) {
        (Ok(bounded), Ok(unbounded)) => !bounded.is_match(name) && unbounded.is_match(name),
        _ => false,
    }
}

/// The explanation of `raw` with `fix` and `rule`, placed nowhere yet: what a resolver
/// starts from before it finds the tools the message is about.
fn unlocated(raw: Raw, fix: Option<&str>, rule: Option<&str>) -> Explanation {
    Explanation {
        provider: raw.provider,
        message: raw.message.to_string(),
        tool_index: None,
        tool: None,
        pointer: None,
        located: Located::Unknown,
        fix: fix.map(str::to_string),
        rule: rule.map(str::to_string),
        notes: raw.notes,
    }
}

/// Resolves a message about tools sharing a name (`name`, or any when `None`): one
/// explanation per tool of a repeated name, where `check` reports `name-duplicate` (no one of
/// them is the original: the request is refused whichever came first), noting the others.
/// Without a request, or when the request repeats no such name, one explanation naming only
/// what the message names.
fn resolve_shared(raw: Raw, name: Option<&str>, against: Against<'_, '_>) -> Vec<Explanation> {
    let fix = raw.rule.and_then(fix_for);
    let rule = raw.rule;
    let base = unlocated(raw, fix, rule);
    let tools = match against {
        Against::Tools(t) => t,
        Against::Nothing | Against::Foreign => {
            let mut e = base;
            match name {
                Some(n) => {
                    e.tool = Some(n.to_string());
                    e.pointer = Some(String::new());
                    e.located = Located::Tool;
                }
                None if matches!(against, Against::Nothing) => e.notes.push(
                    "the message does not say which name; give the request to find the tools \
                     sharing one"
                        .into(),
                ),
                None => {}
            }
            return vec![e];
        }
    };
    let mut out = Vec::new();
    for (k, t) in tools.iter().enumerate() {
        let Some(n) = t.name.filter(|n| name.is_none_or(|w| w == *n)) else {
            continue;
        };
        let others: Vec<String> = tools
            .iter()
            .enumerate()
            .filter(|(j, u)| *j != k && u.name == Some(n))
            .map(|(_, u)| format!("tool #{}", u.index))
            .collect();
        if others.is_empty() {
            continue;
        }
        let mut e = base.clone();
        e.tool_index = Some(t.index);
        e.tool = Some(n.to_string());
        e.pointer = Some(String::new());
        e.located = Located::Tool;
        e.notes
            .push(format!("also named `{n}`: {}", others.join(", ")));
        out.push(e);
    }
    if out.is_empty() {
        let mut e = base;
        e.notes.push(match name {
            Some(n) => format!("the request has no two tools named `{n}`"),
            None => "no two tools of the request share a name".to_string(),
        });
        if let Some(n) = name {
            let named: Vec<_> = tools.iter().filter(|t| t.name == Some(n)).collect();
            e.tool = Some(n.to_string()).filter(|_| !named.is_empty());
            e.tool_index = named.first().map(|t| t.index).filter(|_| named.len() == 1);
            e.pointer = e.tool.as_ref().map(|_| String::new());
            if e.pointer.is_some() {
                e.located = Located::Tool;
            }
        }
        out.push(e);
    }
    out
}

/// Resolves a message about tools with optional parameters only ([`ToolLoc::AllOptional`]):
/// one explanation per tool of the request whose parameters' root declares properties and
/// whose `required` names none, the condition Cohere's offline model refuses
/// (`target::cohere::strict_tools_problem`, which reads the root alone and stops at the first
/// such tool: each must be fixed). Where the tool writes `required` (an empty list, or no
/// list), that is where `check` reports `required-invalid`, the rule read there; where it
/// writes none, no rule of the profile covers it (the strict form is compile's: check judges
/// the canonical schema) and the fix says what to do. Without a request, or when the request
/// has no such tool, one explanation naming no tool.
fn resolve_all_optional(raw: Raw, against: Against<'_, '_>) -> Vec<Explanation> {
    let fix = raw.fix;
    let base = unlocated(raw, fix, None);
    let tools = match against {
        Against::Tools(t) => t,
        Against::Nothing | Against::Foreign => {
            let mut e = base;
            if matches!(against, Against::Nothing) {
                e.notes.push(
                    "the message does not say which tool; give the request to find the tools \
                     with optional parameters only"
                        .into(),
                );
            }
            return vec![e];
        }
    };
    let mut out = Vec::new();
    for t in tools {
        let Some(schema) = t.schema.filter(|s| crate::target::cohere::only_optional(s)) else {
            continue;
        };
        let written = schema.get("required").is_some();
        let mut e = base.clone();
        e.tool_index = Some(t.index);
        e.tool = t.name.map(str::to_string);
        e.pointer = Some(if written { "/required" } else { "" }.to_string());
        e.located = Located::Search;
        e.rule = written.then(|| "required-invalid".to_string());
        out.push(e);
    }
    if out.is_empty() {
        let mut e = base;
        e.notes.push(
            "no tool of the request declares properties without requiring one: the message \
             came from another request or another version of its tools"
                .into(),
        );
        out.push(e);
    }
    out
}

fn unique<'a, 'b>(
    fits: &[&'b RequestTool<'a>],
    notes: &mut Vec<String>,
    what: &str,
) -> Option<&'b RequestTool<'a>> {
    match fits.len() {
        1 => Some(fits[0]),
        0 => {
            notes.push(format!("no tool in the request has {what}"));
            None
        }
        n => {
            notes.push(format!(
                "{n} tools in the request have {what}; the error does not say which"
            ));
            None
        }
    }
}

/// Searches each candidate tool's schema with `f`; returns the (tool, hit) pairs.
fn find_in<'a, 'b, T>(
    candidates: &[&'b RequestTool<'a>],
    f: impl Fn(&Value) -> Option<T>,
) -> Vec<(&'b RequestTool<'a>, T)> {
    candidates
        .iter()
        .filter_map(|t| t.schema.and_then(&f).map(|p| (*t, p)))
        .collect()
}

/// The one (tool, pointer) hit of a search for `what`, noting none or several. Without a
/// request nothing was searched: the note says so instead (nothing is said of another
/// provider's request).
fn pick<'a, 'b>(
    tool: Option<&'b RequestTool<'a>>,
    found: Vec<(&'b RequestTool<'a>, String)>,
    notes: &mut Vec<String>,
    what: &str,
    against: Against<'_, '_>,
) -> (Option<&'b RequestTool<'a>>, Option<String>) {
    match found.len() {
        1 => (Some(found[0].0), Some(found[0].1.clone())),
        0 => {
            match against {
                Against::Tools(_) => notes.push(format!("{what} was not found in the request")),
                Against::Nothing => notes.push(format!(
                    "the message does not say where; give the request to find {what} in its tools"
                )),
                Against::Foreign => {}
            }
            (tool, None)
        }
        n => {
            notes.push(format!(
                "{what} is in {n} tools; the error does not say which"
            ));
            (tool, None)
        }
    }
}

/// Where `check` reports `object-properties-missing` for the object schema at `pointer`: at
/// its `properties` when that map is there but empty, at the object when it has none
/// (`profile::rules::object_properties_missing`). Google's and OpenAI's messages cannot
/// tell the two apart (a proto map is empty either way); the request can. With `null_unset`
/// (Google, see [`null_as_unset`]), a `properties: null` is the place too, where `check`
/// reports `properties-invalid`.
fn properties_missing_place(schema: &Value, pointer: &str, null_unset: bool) -> String {
    let properties = schema.pointer(pointer).and_then(|n| n.get("properties"));
    let empty_map = properties
        .and_then(Value::as_object)
        .is_some_and(serde_json::Map::is_empty);
    if empty_map || (null_unset && properties == Some(&Value::Null)) {
        at_keyword(pointer, "properties")
    } else {
        pointer.to_string()
    }
}

/// Whether the place `pointer` names is in `schema`: it is there, or it is a keyword its
/// schema lacks (an error naming `items` of an array that has none). A property, definition
/// or list position that is not there is not in it: the error is about another schema.
pub(super) fn in_schema(schema: &Value, pointer: &str) -> bool {
    if schema.pointer(pointer).is_some() {
        return true;
    }
    let Some((parent, _)) = pointer.rsplit_once('/') else {
        return false;
    };
    // Walks the parent's tokens, knowing at each step whether the value reached is a schema
    // (its members are keywords) or a map or list of schemas (its members are names or
    // positions): a keyword may be missing, a name or position must be there.
    let mut node = schema;
    let mut is_schema = true;
    for token in parent.split('/').skip(1) {
        let Some(next) = crate::json::at_token(node, token) else {
            return false;
        };
        // The maps of schemas are keywords, which hold no `~` or `/` to unescape.
        is_schema = !is_schema || !(SCHEMA_MAPS.contains(&token) || next.is_array());
        node = next;
    }
    is_schema && node.is_object()
}

/// The keywords whose value maps names to schemas.
const SCHEMA_MAPS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// Follows property names from the root; a name missing from `properties` is looked for
/// under `items` (Vertex leaves array steps out of its dotted paths).
/// The most readings of a dotted path [`dotted_place`] tries: each `.` may be inside a
/// property's name, so a path of `n` names has `2^(n-1)`.
const DOTTED_READINGS: usize = 64;

/// Where a dotted property path (Vertex's `parameters.data.meta.width`, split at each `.`) is
/// in `schema`, and notes on it. A `.` may be part of a property's name (`data.meta`), so every
/// grouping of the names the request has is a reading, the plain split first. For a rule whose
/// message calls a keyword missing ([`MISSING_RULES`]), the reading whose schema really lacks
/// it is the place (trial 63 D4); where several do, the others are noted as well, and where
/// none does, the first reading is given with the note that its schema has that keyword, as for
/// Google's bracket paths.
fn dotted_place(
    schema: &Value,
    names: &[String],
    rule: Option<&str>,
) -> (Option<String>, Vec<String>) {
    let readings = dotted_readings(names)
        .filter_map(|grouped| property_path(schema, &grouped))
        .collect::<Vec<_>>();
    let Some(first) = readings.first() else {
        return (
            None,
            vec![format!(
                "the request's schema has no property path {}",
                names.join(".")
            )],
        );
    };
    let missing = MISSING_RULES
        .iter()
        .find(|(r, _)| Some(*r) == rule)
        .map(|(_, k)| *k);
    let lacking: Vec<&String> = match missing {
        Some(k) => readings
            .iter()
            .filter(|p| {
                schema
                    .pointer(p)
                    .is_some_and(|n| matches!(n.get(k), None | Some(Value::Null)))
            })
            .collect(),
        None => readings.iter().collect(),
    };
    let mut notes = Vec::new();
    let at = match (lacking.first(), missing) {
        (Some(p), _) => (*p).clone(),
        (None, Some(k)) => {
            notes.push(format!("that schema does have `{k}` in the request"));
            first.clone()
        }
        (None, None) => first.clone(),
    };
    let others: Vec<&str> = lacking
        .iter()
        .map(|p| p.as_str())
        .filter(|p| *p != at)
        .collect();
    if !others.is_empty() {
        notes.push(format!(
            "the dotted path {} also reads as {} (a `.` may be inside a property's name)",
            names.join("."),
            others.join(", ")
        ));
    }
    (Some(at), notes)
}

/// The groupings of `names` into property names, each group joined by `.`: the plain split
/// first, then those joining more, at most [`DOTTED_READINGS`] of them.
fn dotted_readings(names: &[String]) -> impl Iterator<Item = Vec<String>> + '_ {
    let gaps = names
        .len()
        .saturating_sub(1)
        .min(DOTTED_READINGS.ilog2() as usize);
    // Bit `i` of a mask set: the `.` after name `i` is inside a name. Fewer joins first.
    let mut masks: Vec<usize> = (0..1usize << gaps).collect();
    masks.sort_by_key(|m| m.count_ones());
    masks.into_iter().map(move |mask| {
        let mut out: Vec<String> = Vec::new();
        let mut joined = false;
        for (i, n) in names.iter().enumerate() {
            match out.last_mut() {
                Some(last) if joined => {
                    last.push('.');
                    last.push_str(n);
                }
                _ => out.push(n.clone()),
            }
            joined = i < gaps && mask & (1 << i) != 0;
        }
        out
    })
}

fn property_path(schema: &Value, names: &[String]) -> Option<String> {
    let mut node = schema;
    let mut pointer = String::new();
    for n in names {
        if let Some(next) = node.get("properties").and_then(|p| p.get(n)) {
            pointer = push_token(&push_token(&pointer, "properties"), n);
            node = next;
        } else if let Some(next) = node
            .get("items")
            .and_then(|i| i.get("properties"))
            .and_then(|p| p.get(n))
        {
            pointer = push_token(&push_token(&push_token(&pointer, "items"), "properties"), n);
            node = next;
        } else {
            return None;
        }
    }
    Some(pointer)
}

fn expectation_holds(
    schema: &Value,
    node: &str,
    full: &str,
    expect: &Expect,
) -> Result<(), String> {
    let n = schema
        .pointer(node)
        .ok_or_else(|| format!("nothing is at {node:?}"))?;
    match expect {
        Expect::Nothing => Ok(()),
        Expect::Keyword(k) => n
            .get(k)
            .map(|_| ())
            .ok_or_else(|| format!("that schema has no `{k}`")),
        Expect::Absent(k) => match n.get(k.as_str()) {
            None | Some(Value::Null) => Ok(()),
            Some(_) => Err(format!("that schema does have `{k}`")),
        },
        Expect::TypeList => n
            .get("type")
            .filter(|t| t.is_array())
            .map(|_| ())
            .ok_or_else(|| "its `type` is not a list".to_string()),
        Expect::Value(v) => {
            let found = schema
                .pointer(full)
                .ok_or_else(|| format!("nothing is at {full:?}"))?;
            let expected: Option<Value> = serde_json::from_str(v).ok();
            if expected.as_ref() == Some(found)
                || expected
                    .as_ref()
                    .and_then(Value::as_str)
                    .zip(found.as_str())
                    .is_some_and(|(a, b)| a.eq_ignore_ascii_case(b))
            {
                Ok(())
            } else {
                // Quoted as the request's other values are in human output (`Shown`).
                let shown = crate::report::Shown;
                Err(format!(
                    "the request has {} there, not {}",
                    shown(found),
                    expected
                        .as_ref()
                        .map_or_else(|| v.to_string(), |e| shown(e).to_string())
                ))
            }
        }
    }
}

/// The words that begin [`meta_others_note`]: `agree_with_check` finds that note by them.
pub(super) const META_OTHERS: &str = "the meta-schema also refuses this tool's schema at ";

/// The note naming the `places` of `schema` the meta-schema refuses other than `here` (the
/// explanation's place), each with its rule, past [`MAX_OTHER_PLACES`] counted: the provider
/// names none of them, so each must be fixed before it accepts the tool. `None` when there is
/// no other.
pub(super) fn meta_others_note<'p>(
    schema: Option<&Value>,
    places: impl IntoIterator<Item = &'p String>,
    here: &str,
) -> Option<String> {
    let value = |p: &str| schema.and_then(|s| s.pointer(p));
    // A place holding `here` (a `type` list, `here` a name in it) is the same refusal.
    let holds_here = |p: &str| {
        here.strip_prefix(p)
            .is_some_and(|rest| rest.starts_with('/'))
    };
    let mut others = places
        .into_iter()
        .filter(|p| p.as_str() != here && !holds_here(p));
    let mut named: Vec<String> = others
        .by_ref()
        .take(MAX_OTHER_PLACES)
        .map(|p| {
            let shown = if p.is_empty() { "(root)" } else { p.as_str() };
            format!("`{shown}` ({})", meta_rule_for(p, value(p)))
        })
        .collect();
    let unnamed = others.count();
    if unnamed > 0 {
        named.push(format!(
            "and {} (`toolwire check` lists every one)",
            crate::check::count(unnamed, "more place")
        ));
    }
    (!named.is_empty()).then(|| {
        format!(
            "{META_OTHERS}{}: fix every place, or the provider rejects the tool again",
            named.join(", ")
        )
    })
}

/// The first of the deepest of `places` (the most precise place of a meta-schema violation).
fn deepest(places: &[String]) -> Option<&String> {
    let depth = |p: &String| p.matches('/').count();
    let mut best: Option<&String> = None;
    for p in places {
        if best.is_none_or(|b| depth(p) > depth(b)) {
            best = Some(p);
        }
    }
    best
}

/// Every place in `schema` the draft 2020-12 meta-schema refuses, as JSON Pointers in
/// document order, each once, leaving out a place around another (the error there is the
/// one inside it, seen from further out).
pub(super) fn meta_violations(schema: &Value) -> Vec<String> {
    let Some(validator) = META.as_ref() else {
        return Vec::new();
    };
    #[cfg(test)]
    META_RUNS.with(|c| c.set(c.get() + 1));
    let mut places = Vec::new();
    for e in validator.iter_errors(schema) {
        error_places(&e, &mut places);
    }
    innermost(places.into_iter())
}

/// The places meta-schema error `e` is about: its own, or, for a schema-form `dependencies`
/// member (an object; the meta-schema's `anyOf` of a schema and a list of names refuses it
/// at the member as a whole), the places inside it that the schema branch refuses, as for
/// a `dependentSchemas` member (`/dependencies/a/type`, not `/dependencies/a`); for a
/// `required` naming a property twice, each repeat (`/required/1`), where check reports it.
fn error_places(e: &jsonschema::ValidationError<'_>, out: &mut Vec<String>) {
    if let jsonschema::error::ValidationErrorKind::AnyOf { context } = e.kind()
        && e.schema_path()
            .as_str()
            .ends_with("/dependencies/additionalProperties/anyOf")
        && e.instance().is_object()
        && let Some(branch) = context.first().filter(|b| !b.is_empty())
    {
        for inner in branch {
            error_places(inner, out);
        }
        return;
    }
    let at = e.instance_path().as_str();
    // `required` naming a property twice is refused as a whole (`uniqueItems`); check reports
    // each repeat at its index (`/required/1`), which is what to remove.
    if matches!(
        e.kind(),
        jsonschema::error::ValidationErrorKind::UniqueItems
    ) && meta_rule(at) == "required-invalid"
        && let Value::Array(names) = e.instance().as_ref()
    {
        let repeats = crate::schema::repeated_names(names).enumerate();
        let before = out.len();
        out.extend(
            repeats
                .filter(|(_, r)| *r)
                .map(|(i, _)| format!("{at}/{i}")),
        );
        if out.len() > before {
            return;
        }
    }
    out.push(at.to_string());
}

/// `places` (JSON Pointers) in their order, each once, without a place around another.
/// Sets, not scans: a schema may have hundreds of thousands of places, and comparing each with
/// every other was quadratic (minutes at 8,000 refused properties).
fn innermost(places: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut once: Vec<String> = Vec::new();
    for p in places {
        count_place_probe();
        if !seen.contains(&p) {
            seen.insert(p.clone());
            once.push(p);
        }
    }
    drop(seen);
    // A place is around another exactly when it is one of that place's prefixes ending before
    // a `/`: with those in a set, the question costs one lookup per place.
    let mut around: HashSet<&str> = HashSet::new();
    for p in &once {
        for (slash, _) in p.match_indices('/') {
            count_place_probe();
            around.insert(&p[..slash]);
        }
    }
    once.iter()
        .filter(|p| {
            count_place_probe();
            !around.contains(p.as_str())
        })
        .cloned()
        .collect()
}

#[cfg(test)]
thread_local! {
    /// Set operations [`innermost`] made: the tests keep this linear in the places.
    static PLACE_PROBES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Schemas [`meta_violations`] validated against the meta-schema.
    static META_RUNS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn count_place_probe() {
    #[cfg(test)]
    PLACE_PROBES.with(|c| c.set(c.get() + 1));
}

/// The draft 2020-12 meta-schema with `format` asserted (so `$id: "not a uri"` is found).
/// The crate carries the meta-schemas; nothing is fetched.
static META: LazyLock<Option<jsonschema::Validator>> = LazyLock::new(|| {
    jsonschema::options()
        .should_validate_formats(true)
        .build(&serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": "https://json-schema.org/draft/2020-12/schema"
        }))
        .ok()
});

/// Every place `cond` describes in `schema`: for [`Cond::Each`], each condition's first place
/// (in its order, each place once); otherwise the first place.
fn search_all(schema: &Value, cond: &Cond) -> Vec<String> {
    let Cond::Each(conds) = cond else {
        return search(schema, cond).into_iter().collect();
    };
    let mut out: Vec<String> = Vec::new();
    for p in conds.iter().filter_map(|c| search(schema, c)) {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The first place `cond` describes in `schema` (for [`Cond::Each`]: the first of
/// [`search_all`]).
fn search(schema: &Value, cond: &Cond) -> Option<String> {
    if let Cond::Each(_) = cond {
        return search_all(schema, cond).into_iter().next();
    }
    if let Cond::RootCombinator = cond {
        return ["oneOf", "anyOf", "allOf", "enum", "not"]
            .iter()
            .find(|k| schema.get(**k).is_some())
            .map(|k| at_keyword("", k));
    }
    let w = walk(schema);
    for n in &w.nodes {
        let Some(o) = n.object() else {
            continue;
        };
        let hit = match cond {
            Cond::HasKeyword(k) => o.contains_key(k).then(|| at_keyword(&n.pointer, k)),
            Cond::RefTo(r) => (o.get("$ref").and_then(Value::as_str) == Some(r))
                .then(|| at_keyword(&n.pointer, "$ref")),
            Cond::RefNamedWithSiblings(name) => o
                .get("$ref")
                .and_then(Value::as_str)
                .filter(|r| r.rsplit('/').next() == Some(name.as_str()))
                .filter(|_| {
                    o.keys()
                        .any(|k| !["$ref", "description", "default"].contains(&k.as_str()))
                })
                .map(|_| n.pointer.clone()),
            Cond::TypeList => o
                .get("type")
                .filter(|t| t.is_array())
                .map(|_| at_keyword(&n.pointer, "type")),
            Cond::ItemsList => o
                .get("items")
                .filter(|t| t.is_array())
                .map(|_| at_keyword(&n.pointer, "items")),
            Cond::UnanchoredPattern => o
                .get("pattern")
                .and_then(Value::as_str)
                .filter(|p| !(p.starts_with('^') && p.ends_with('$')))
                .map(|_| at_keyword(&n.pointer, "pattern")),
            Cond::AnyPattern => o.get("pattern").map(|_| at_keyword(&n.pointer, "pattern")),
            Cond::RequiredUndeclared(names) => {
                let props = o.get("properties").and_then(Value::as_object);
                o.get("required").and_then(Value::as_array).and_then(|req| {
                    req.iter().enumerate().find_map(|(i, r)| {
                        let r = r.as_str()?;
                        (names.iter().any(|n| n == r) && !props.is_some_and(|p| p.contains_key(r)))
                            .then(|| {
                                at_keyword(&at_keyword(&n.pointer, "required"), &i.to_string())
                            })
                    })
                })
            }
            Cond::RootCombinator | Cond::Each(_) => None,
        };
        if hit.is_some() {
            return hit;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_template_compiles() {
        for r in [
            &G_TOOL,
            &G_UNKNOWN,
            &G_INVALID_VALUE,
            &G_VALIDATOR,
            &G_DEPTH,
            &G_UNABLE,
            &G_REQUIRED_FIELDS,
            &G_UNDEFINED_REF,
            &G_REF_SIBLINGS,
            &G_FIELD_FOR_SCHEMA,
            &G_CANNOT_FIND_FIELD,
            &G_SDK_PATH,
            &O_BARE_CONTEXT,
            &O_BARE_TYPE,
            &O_BARE_META_VALUE,
            &O_SCHEMA,
            &O_PARAM,
            &O_FIELD,
            &O_PARAMS_REQUIRED,
            &GROQ,
            &A_INPUT_SCHEMA,
            &A_NAME,
            &A_FIELD_REQUIRED,
            &A_NONEXISTENT,
            &B_VALUE_AT,
            &B_DEFINITION,
            &B_JSONPATH,
            &B_CONSTRAINT,
            &B_FORMAT,
            &X_VIOLATION,
            &M_AT_PATH,
            &C_FUNCTION,
            &MISTRAL_LOC,
            &MISTRAL_GRAMMAR,
            &MISTRAL_NAME,
            &L_UNRECOGNIZED,
            &F_INSTANCE,
            &OLLAMA,
        ] {
            let _ = r.as_str();
        }
    }

    #[test]
    fn google_positional_paths_need_the_request_and_are_checked() {
        let s = json!({"type":"object","properties":{"a":{"type":"string"},"b":{"anyOf":[{"const":1}]}}});
        assert_eq!(
            google_pointer(".properties[1].value.any_of[0]", Some(&s)).unwrap(),
            ("/properties/b/anyOf/0".to_string(), true)
        );
        assert!(google_pointer(".properties[1].value", None).is_err());
        let err = google_pointer(".properties[5].value", Some(&s)).unwrap_err();
        assert_eq!(
            err,
            "the request declares 2 properties at the schema's root, so index 5 is not one of them"
        );
        let nested = json!({"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"string"}}}}});
        let err =
            google_pointer(".properties[0].value.properties[3].value", Some(&nested)).unwrap_err();
        assert_eq!(
            err,
            "the request declares 1 property at \"/properties/a\", so index 3 is not one of them"
        );
        assert_eq!(
            google_pointer(".properties[links].items.properties[url].format", None).unwrap(),
            (
                "/properties/links/items/properties/url/format".to_string(),
                false
            )
        );
        assert_eq!(
            google_pointer(".properties[a.b].max_items", None)
                .unwrap()
                .0,
            "/properties/a.b/maxItems"
        );
    }

    #[test]
    fn openai_context_drops_the_type_list_expansion() {
        let at = |t: &str| context_pointer(t).unwrap_or_else(|| panic!("{t} unread"));
        assert_eq!(
            at("('properties', 'arguments', 'items', 'type', '0')"),
            "/properties/arguments/items"
        );
        assert_eq!(at("()"), "");
        assert_eq!(at("('properties', 'a/b')"), "/properties/a~1b");
    }

    /// Each element of the tuple is a Python string literal, read by its quotes: a `)`, a
    /// `, ` or a quote inside a property's name is part of the name (the trial's `range (km)`
    /// and `x, y` were split there and named another place).
    #[test]
    fn openai_context_reads_each_element_by_its_quotes() {
        for (name, tuple) in [
            ("range (km)", r#"('properties', 'range (km)')"#),
            ("e)f", r#"('properties', 'e)f')"#),
            ("x, y", r#"('properties', 'x, y')"#),
            ("it's", r#"('properties', "it's")"#),
            (r#"say "hi""#, r#"('properties', 'say "hi"')"#),
            (r#"it's "x""#, r#"('properties', 'it\'s "x"')"#),
            (r"a\b", r"('properties', 'a\\b')"),
            (r"end\", r"('properties', 'end\\')"),
            ("tab\there", r"('properties', 'tab\there')"),
            ("\u{7f}del", r"('properties', '\x7fdel')"),
            ("größe (m²)", "('properties', 'größe (m²)')"),
            ("\u{2028}sep", r"('properties', '\u2028sep')"),
        ] {
            let text = format!("In context={tuple}, array schema missing items.");
            let raws = openai(&text);
            let [raw] = raws.as_slice() else {
                panic!("{text}: {raws:?}")
            };
            assert_eq!(
                raw.place,
                Place::Pointer(push_token("/properties", name)),
                "{text}"
            );
        }
    }

    #[test]
    fn python_reprs_are_read() {
        assert_eq!(
            parse_echo("{'items': {'type': 'string'}, 'x': True, 'y': None}"),
            Some(json!({"items":{"type":"string"},"x":true,"y":null}))
        );
        assert_eq!(parse_echo("true"), Some(json!(true)));
    }

    /// A place is left out only when another lies inside it (`/a` around `/a/b`, not around
    /// `/ab`; the root around every place), and each is kept once, in the order met.
    #[test]
    fn innermost_keeps_order_and_drops_only_places_around_others() {
        let places = |ps: &[&str]| innermost(ps.iter().map(|p| p.to_string()));
        assert_eq!(
            places(&["/ab", "/a", "/a/b", "/ab", "/c/~1d", "/c", "/c~1d"]),
            ["/ab", "/a/b", "/c/~1d", "/c~1d"]
        );
        assert_eq!(places(&["", "/x"]), ["/x"]);
        assert_eq!(places(&["", ""]), [""]);
    }

    /// Each place costs a few set operations (it was compared with every other place: 8,000
    /// refused properties took 24 s in `compile --target openai/chat-strict`).
    #[test]
    fn innermost_is_linear_in_the_places() {
        let n = 20_000;
        let places = (0..n).flat_map(|i| {
            let p = format!("/properties/p{i}/anyOf/0");
            [format!("/properties/p{i}"), p.clone(), p]
        });
        PLACE_PROBES.with(|c| c.set(0));
        let kept = innermost(places);
        let probes = PLACE_PROBES.with(|c| c.get());
        assert_eq!(kept.len(), n);
        assert_eq!(kept[n - 1], format!("/properties/p{}/anyOf/0", n - 1));
        // Per property: 3 places met, 2 distinct, 4 + 2 prefixes, 2 lookups.
        assert!(
            probes <= 11 * n,
            "{probes} set operations for {n} properties"
        );
    }

    /// The tool a rejection without a place is about is validated once: its deepest place is
    /// the one explained and the others are named from the same list (it was validated
    /// twice, half of `compile`'s time on a tool with thousands of refused properties).
    #[test]
    fn a_meta_schema_rejection_validates_each_tool_once() {
        let request = json!({"tools": [{"name": "ok", "input_schema": {"type": "object"}},
            {"name": "bad", "input_schema": {"type": "object", "properties": {
                "a": "string", "b": {"type": "integer", "minimum": "3"}}}}]});
        let text = "tools.1.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).";
        META_RUNS.with(|c| c.set(0));
        let e = &crate::explain::explain(Some(&request), text, None)[0];
        assert_eq!(META_RUNS.with(|c| c.get()), 1);
        assert_eq!(e.pointer.as_deref(), Some("/properties/b/minimum"));
        assert!(
            e.notes
                .iter()
                .any(|n| n.contains("also refuses this tool's schema at `/properties/a`")),
            "{:?}",
            e.notes
        );
    }

    #[test]
    fn jsonpath_becomes_a_pointer() {
        assert_eq!(jsonpath_pointer(".properties.a[0]"), "/properties/a/0");
        assert_eq!(jsonpath_pointer(""), "");
    }
}
