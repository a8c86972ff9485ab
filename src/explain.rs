//! Explaining a provider's rejection: which tool (index and name), which place in its schema
//! (a JSON Pointer), which rule, and the fix.
//!
//! Input: the error body (JSON in any provider's envelope, or the text a client printed) and,
//! when available, the request that was sent. Each provider's message templates (see
//! `evidence/PROVIDERS.md` and the public reports in `reports/documented/reports.yaml`) are read by
//! the `templates` submodule; each problem found becomes one [`Explanation`].
//!
//! Places are turned into JSON Pointers against the request's own tools:
//! - Google's parse errors index map entries by position (`properties[3].value` is the 4th
//!   key of `properties` in the request), so names come from the request's key order. An
//!   index is trusted only when that tool really declares a property at that position *and*
//!   the node found there has what the error speaks of (the unknown keyword, the list-valued
//!   `type`, the invalid value); otherwise no pointer is claimed and a note says why.
//! - OpenAI's `In context=('properties', 'x')` tuples, xAI's JSON Pointers, Moonshot's and
//!   Vertex's dotted paths and Bedrock's JSONPath are converted directly.
//! - Messages that echo a subschema (llama.cpp, Fireworks) are located by searching the
//!   tool's schema for that subschema; "JSON schema is invalid" messages (Anthropic, OpenAI's
//!   meta-schema errors) by validating the tool's schema against the draft 2020-12
//!   meta-schema.

mod checked;
mod envelope;
mod templates;

pub use checked::CheckProfile;

use std::collections::HashSet;

use serde::Serialize;
use serde_json::Value;

use crate::json::push_token;

/// One tool of a request, in the order the provider indexes them.
#[derive(Debug, Clone)]
pub struct RequestTool<'a> {
    /// Position over all tools of the request (Gemini: over every `functionDeclarations` list
    /// in order).
    pub index: usize,
    /// Gemini: index into `tools`; 0 elsewhere.
    pub group: usize,
    /// Gemini: index into that entry's `functionDeclarations`; `index` elsewhere.
    pub position: usize,
    pub name: Option<&'a str>,
    /// The parameters (input) schema, when the tool has one.
    pub schema: Option<&'a Value>,
    /// Whether it is a function tool: false for OpenAI's built-in and custom tools (an entry
    /// whose `type` is not `function`: `web_search`, `custom`, ...), which a relay to another
    /// provider does not send as function declarations (see [`relayed_tools`]).
    pub function: bool,
}

/// The tools of a wire request: Gemini (`tools[].functionDeclarations[]`, also inside
/// `generateContentRequest` or `request`), OpenAI chat (`tools[].function`), OpenAI
/// Responses (flat `tools[]`), Anthropic (`input_schema`), MCP (`inputSchema`), Bedrock
/// (`toolConfig.tools[].toolSpec.inputSchema.json`, also under `input.converse`), a bare
/// array of tools, one tool, one Gemini Tool object, or a bare JSON Schema (one unnamed
/// tool), as [`crate::input`] reads them.
pub fn request_tools(request: &Value) -> Vec<RequestTool<'_>> {
    let mut root = request;
    for wrapper in ["generateContentRequest", "request"] {
        if let Some(inner) = root.get(wrapper).filter(|v| v.is_object()) {
            root = inner;
        }
    }
    if let Some(conv) = root.get("input").and_then(|i| i.get("converse")) {
        root = conv;
    }
    // An MCP `tools/list` answer in its JSON-RPC envelope.
    if root.get("jsonrpc").is_some()
        && let Some(result) = root.get("result").filter(|r| r.is_object())
    {
        root = result;
    }
    let list = if let Some(a) = root.as_array() {
        a
    } else if let Some(a) = root
        .get("toolConfig")
        .and_then(|t| t.get("tools"))
        .and_then(Value::as_array)
    {
        a
    } else if let Some(a) = root.get("tools").and_then(Value::as_array) {
        a
    } else if let Some(a) = root.get("functions").and_then(Value::as_array) {
        // OpenAI's legacy `functions`: bare function objects.
        a
    } else if let Some(one) = root
        .get("tool")
        .filter(|_| root.get("source").is_some() && root.get("license").is_some())
    {
        // The corpora line shape.
        std::slice::from_ref(one)
    } else if let Some(one) = root.get("tools").filter(|t| t.is_object()) {
        // Gemini's front end also takes `tools` as one Tool object.
        std::slice::from_ref(one)
    } else if root.is_object() && root.get("tools").is_none() {
        // One Gemini Tool object, one tool, or a bare JSON Schema (the parameters of one
        // unnamed tool), as `check` reads them.
        std::slice::from_ref(root)
    } else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (group, entry) in list.iter().enumerate() {
        // Gemini's built-in tools (`googleSearch`, ...) are not function declarations: numbered
        // over declarations, as `check` numbers them.
        if entry
            .as_object()
            .is_some_and(crate::input::is_gemini_builtin_entry)
        {
            continue;
        }
        let decls = entry
            .get("functionDeclarations")
            .or_else(|| entry.get("function_declarations"))
            .and_then(Value::as_array);
        if let Some(decls) = decls {
            for (position, d) in decls.iter().enumerate() {
                out.push(RequestTool {
                    index: out.len(),
                    group,
                    position,
                    name: d.get("name").and_then(Value::as_str),
                    schema: [
                        "parameters",
                        "parametersJsonSchema",
                        "parameters_json_schema",
                    ]
                    .iter()
                    .find_map(|k| d.get(*k)),
                    function: true,
                });
            }
            continue;
        }
        let tool = entry
            .get("function")
            .or_else(|| entry.get("toolSpec"))
            .unwrap_or(entry);
        let bare_schema = list.len() == 1
            && std::ptr::eq(entry, root)
            && ["name", "function", "toolSpec"]
                .iter()
                .all(|k| entry.get(*k).is_none());
        let schema = tool
            .get("parameters")
            .or_else(|| tool.get("input_schema"))
            .or_else(|| tool.get("inputSchema"))
            .map(|s| {
                s.get("json")
                    .filter(|_| entry.get("toolSpec").is_some())
                    .unwrap_or(s)
            })
            .or(Some(entry).filter(|_| bare_schema));
        let index = out.len();
        out.push(RequestTool {
            index,
            group: 0,
            position: index,
            name: tool.get("name").and_then(Value::as_str),
            schema,
            function: entry
                .get("type")
                .and_then(Value::as_str)
                .is_none_or(|t| t == "function"),
        });
    }
    out
}

/// How the pointer of an [`Explanation`] was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Located {
    /// The error names the place by names (keys, keywords), converted directly.
    Path,
    /// Google's positional `properties[k].value`, turned into names from the request's key
    /// order and checked against the request.
    PositionalIndex,
    /// The error echoes or describes the offending subschema; found by searching the schema.
    Search,
    /// The error only says the schema is invalid; found by the draft 2020-12 meta-schema.
    MetaSchema,
    /// The problem is about the tool itself (name, description) or the whole schema.
    Tool,
    /// The problem is about the request, not one of its tools: a field of it, the length of
    /// its tool list, its structured-output schema (`response_format`).
    Request,
    /// Not found.
    Unknown,
}

/// One problem a provider reported, explained.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Explanation {
    /// The template family that read it (`google`, `openai`, `anthropic`, `bedrock`, ...).
    pub provider: &'static str,
    /// The provider's own words for this problem.
    pub message: String,
    /// The tool's position in the request (see [`RequestTool::index`]).
    pub tool_index: Option<usize>,
    pub tool: Option<String>,
    /// JSON Pointer into that tool's parameters schema (`""` is its root).
    pub pointer: Option<String>,
    pub located: Located,
    /// The rule id (see `toolwire rule ID`).
    pub rule: Option<String>,
    pub fix: Option<String>,
    /// Why something is unknown, or what else to know.
    pub notes: Vec<String>,
}

impl Explanation {
    /// True when tool, pointer and rule are all known.
    pub fn is_complete(&self) -> bool {
        self.tool_index.is_some() && self.pointer.is_some() && self.rule.is_some()
    }
}

/// How many distinct problems [`explain`] reads from one error. Past this the output would
/// be too long to act on (an error file may hold up to 16 MiB of text), and the first problems
/// are the ones to fix first; the last explanation notes that the rest were not read.
pub const MAX_PROBLEMS: usize = 1000;

/// Explains `error` (a body or a client's printout) for `request` (the request sent, if
/// known). `target` (a target id) limits the templates to that provider's; `None` tries all.
/// Returns one explanation per problem found; an empty list means no template matched.
///
/// A tool is named only when it is in the request (without a request, the one the error names).
/// Given a request and a target, where `check --target T` reports an error at the place an
/// explanation names under another rule, that rule is named (see [`agree_with_check`]), so that
/// explain and check name one rule for one problem. An error in another provider's words than
/// the request's shape names no tool (it is not about this request's tools), unless `target`
/// relays the request to that provider (see [`relays`]): then the provider's tool numbers are
/// read against the tools the relay sends ([`relayed_tools`]).
///
/// A `request` nesting deeper than [`crate::input::LIMITS`] allows (brackets counted) is not
/// read (as if `None`): the walks over it recurse once per level.
pub fn explain(request: Option<&Value>, error: &str, target: Option<&str>) -> Vec<Explanation> {
    let check = CheckProfile::new(target.unwrap_or(crate::profile::PORTABLE));
    explain_checked(request, error, target, &check)
}

/// [`explain`] for the target whose built-in profile is `check` (its id is the target),
/// compiled at most once however many answers are explained with it.
pub fn explain_for(
    request: Option<&Value>,
    error: &str,
    check: &CheckProfile<'_>,
) -> Vec<Explanation> {
    explain_checked(request, error, Some(check.id()), check)
}

/// The longest error read again with its wrapped lines joined ([`explain_checked`]): a pasted
/// error a terminal or a mail wrapped is short, and each reading is another pass over a log.
const REWRAP_MAX: usize = 64 * 1024;

/// [`explain`], where `check` is the built-in profile of `target` (`portable` without one).
fn explain_checked(
    request: Option<&Value>,
    error: &str,
    target: Option<&str>,
    check: &CheckProfile<'_>,
) -> Vec<Explanation> {
    let error = envelope::crlf_as_lf(error);
    let error = envelope::unquoted(&error);
    let read = |text: &str| explain_text(request, text, target, check);
    let as_given = read(&error);
    // A line cut at the column may also be a line a client wrapped at a space that filled it
    // (then the join glues two words), and a line wrapped at a space may be a log's next
    // record (trial 41): unless a cut at a space shows the text was cut hard, a joined text is
    // the reading only where it explains more, or names more tools, places or rules.
    let score = |all: &[Explanation]| {
        let count = |f: fn(&Explanation) -> bool| all.iter().filter(|e| f(e)).count();
        (
            all.len(),
            count(|e| e.tool_index.is_some()),
            count(|e| e.pointer.is_some()),
            count(|e| e.rule.is_some()),
        )
    };
    let mut best = as_given;
    if error.len() > REWRAP_MAX {
        return best;
    }
    if let Some((joined, cut_hard)) = envelope::hard_unwrapped(&error) {
        let rejoined = read(&joined);
        let (a, b) = (score(&rejoined), score(&best));
        if a > b || (cut_hard && a == b) {
            best = rejoined;
        }
    }
    // A break after a sentence's end is also where a provider's message ends and a log's next
    // line starts: joined only where that explains more than leaving it.
    let mut tried = None;
    for after_sentences in [false, true] {
        let Some(joined) = envelope::column_unwrapped(&error, after_sentences) else {
            continue;
        };
        if tried.as_ref() == Some(&joined) {
            continue;
        }
        let rejoined = read(&joined);
        if score(&rejoined) > score(&best) {
            best = rejoined;
        }
        tried = Some(joined);
    }
    best
}

/// [`explain_checked`] of an error whose lines are as the client wrote them.
fn explain_text(
    request: Option<&Value>,
    error: &str,
    target: Option<&str>,
    check: &CheckProfile<'_>,
) -> Vec<Explanation> {
    let max = crate::input::LIMITS.max_depth;
    let request = request.filter(|r| crate::json::first_too_deep(r, max).is_none());
    // A request is an object or a list; anything else (`null` for a body that could not be
    // read back, e.g. one nested past serde_json's recursion limit) is none.
    let request = request.filter(|r| r.is_object() || r.is_array());
    let tools = request.map(request_tools).unwrap_or_default();
    let relayed = relayed_tools(&tools);
    let shape = request.and_then(request_family);
    let texts = envelope::error_texts(error);
    let family = target.map(family_of);
    let mut out: Vec<Explanation> = Vec::new();
    // An error repeating one problem many times over (a client's retry loop in a log) is read
    // as that problem once: each problem is resolved once, and kept once.
    let mut read_before = HashSet::new();
    let mut kept: HashSet<Explanation> = HashSet::new();
    let mut cut_short = false;
    // The records of a list or JSON Lines whose texts a template read: each record's texts are
    // its readings, most specific first, read up to the first a template reads, as the texts of
    // an error holding one record are (`Text::record`).
    let mut records_read = HashSet::new();
    // Each record's first provider message, to say which records no template read: a record
    // is another request's error, and one not explained is not to be lost with no word.
    let mut messages = std::collections::BTreeMap::new();
    for t in &texts {
        if let (Some(r), true) = (t.record, t.decoded) {
            messages.entry(r).or_insert(t.text.as_str());
        }
    }
    'texts: for text in &texts {
        match text.record {
            Some(r) if records_read.contains(&r) => continue,
            None if !out.is_empty() => break,
            _ => {}
        }
        // Read with its wrapped lines joined (byte for byte, so places match), quoted as
        // written.
        let reading = envelope::unwrapped(&text.text, text.decoded);
        // Read a part at a time, so that what lies past the problem that reaches the cap is
        // not read at all (a 16 MB log of 150,000 problems was read whole for its first 1,000).
        for part in parts(&reading) {
            let chunk = &reading[part.clone()];
            #[cfg(test)]
            tests::READ_BYTES.with(|n| n.set(n.get() + chunk.len()));
            let mut raws = templates::read(chunk, family);
            if let (Some(r), false) = (text.record, raws.is_empty()) {
                records_read.insert(r);
            }
            let stretches = templates::stretches(&raws, chunk.len());
            for r in &mut raws {
                r.at = r.at.map(|at| at + part.start);
            }
            for (mut raw, within) in raws.into_iter().zip(stretches) {
                let within = within.start + part.start..within.end + part.start;
                let len = raw.message.len();
                let found = raw
                    .at
                    .filter(|&at| reading.get(at..at + len) == Some(&*raw.message))
                    .and_then(|at| text.text.get(at..at + len))
                    .unwrap_or(&raw.message)
                    .to_string();
                raw.message = envelope::statement(text, &found, raw.at, within).into();
                if !read_before.insert(raw.key()) {
                    continue;
                }
                if out.len() >= MAX_PROBLEMS {
                    cut_short = true;
                    break 'texts;
                }
                let provider = raw.provider;
                let relay = shape == Some("openai") && target.is_some_and(|t| relays(t, provider));
                let foreign = shape.filter(|s| !relay && other_provider(s, provider));
                let resolved = if relay {
                    let numbered = matches!(
                        raw.tool,
                        templates::ToolLoc::Google { .. }
                            | templates::ToolLoc::Index(_)
                            | templates::ToolLoc::IndexName(..)
                    );
                    let mut all = templates::resolve(raw, Against::Tools(&relayed));
                    if numbered {
                        for e in &mut all {
                            e.notes.push(format!(
                                "{} relays the request to {provider}, which numbers the request's \
                             function tools in order",
                                target.unwrap_or_default()
                            ));
                        }
                    }
                    all
                } else if let Some(s) = foreign {
                    // Another provider's request: its tools are not the ones the error numbers or
                    // names, so none is claimed (the error's own words are still explained).
                    let mut all = templates::resolve(raw, Against::Foreign);
                    // A relay (LiteLLM, an AI SDK, a compatible endpoint) sends OpenAI-shaped
                    // tools on in order: the targets that read them so are named.
                    let relaying: Vec<&str> = ["gemini/openai-compat", "openrouter"]
                        .into_iter()
                        .filter(|t| s == "openai" && relays(t, provider) && Some(*t) != target)
                        .collect();
                    let hint = match relaying.as_slice() {
                        [] => String::new(),
                        [first, ..] => format!(
                            "; if a relay sent it on (LiteLLM, an AI SDK, a compatible endpoint), \
                         `--target {first}` reads the request's function tools in the order it \
                         sends them"
                        ),
                    };
                    for e in &mut all {
                        e.tool_index = None;
                        e.tool = None;
                        e.notes.push(format!(
                            "the request is in {s}'s shape, but the error is {provider}'s: it is \
                         not about this request's tools, so none is named{hint}"
                        ));
                    }
                    all
                } else {
                    templates::resolve(
                        raw,
                        match request {
                            Some(_) => Against::Tools(&tools),
                            None => Against::Nothing,
                        },
                    )
                };
                for mut e in resolved {
                    if e.fix.as_deref() == Some(STRICT_FIX) {
                        e.fix = Some(strict_fix(target));
                    }
                    // One problem drawing one message per part, explained once with the other
                    // messages' words noted: a rewritten type list (a message per part of the
                    // rewrite), and a root that is no object schema, as check reports it once
                    // (example arguments written as the schema draw Google's unknown name per
                    // key, trial 71 D7).
                    let one_problem = |x: &Explanation| {
                        x.notes.iter().any(|n| n == templates::CONVERTED_TYPE_LIST)
                            || (x.rule.as_deref(), x.pointer.as_deref())
                                == (Some("root-not-object"), Some(""))
                    };
                    if one_problem(&e)
                        && let Some(first) = out.iter_mut().find(|k| {
                            one_problem(k)
                                && (k.provider, k.tool_index, &k.tool, &k.pointer, &k.rule)
                                    == (e.provider, e.tool_index, &e.tool, &e.pointer, &e.rule)
                        })
                    {
                        let also = format!("{} also said: {}", e.provider, e.message);
                        if !first.notes.contains(&also) {
                            first.notes.push(also);
                        }
                        continue;
                    }
                    if !kept.contains(&e) {
                        kept.insert(e.clone());
                        out.push(e);
                    }
                }
            }
        }
    }
    if cut_short {
        out.truncate(MAX_PROBLEMS);
        if let Some(last) = out.last_mut() {
            last.notes.push(format!(
                "the error states more problems than the first {MAX_PROBLEMS} read here; the \
                 rest were not read"
            ));
        }
    }
    let unread: Vec<&str> = messages
        .into_iter()
        .filter(|(r, _)| !cut_short && !records_read.contains(r))
        .map(|(_, m)| m)
        .collect();
    if let (Some(last), Some(first)) = (out.last_mut(), unread.first()) {
        let first = crate::describe::cut_line(first.lines().next().unwrap_or_default());
        last.notes.push(match unread.len() {
            1 => format!(
                "1 more record of the error holds a message no known template matches, not \
                 explained here: \"{first}\""
            ),
            n => format!(
                "{n} more records of the error hold a message no known template matches, not \
                 explained here; the first: \"{first}\""
            ),
        });
    }
    match (request, target) {
        (Some(request), Some(_)) => agree_with_check_in(&mut out, request, check),
        (Some(request), None) => note_nothing_here(&mut out, request),
        (None, _) => {}
    }
    for e in &mut out {
        keyword_fix(e, &tools);
        format_fix(e, &tools);
        empty_required_fix(e, &tools);
        nested_object_fix(e);
    }
    if out.is_empty()
        && let Some(request) = request
    {
        out = unrecognized_at_place(request, error, target, check);
    }
    out
}

/// How many bytes of an error's text [`explain`] gives its templates at once: a text no longer
/// is read whole, as one; a longer one in parts of whole lines (Google's and the others'
/// templates read a problem per line), so that reading stops at the part where the
/// [`MAX_PROBLEMS`] cap is reached.
const PART: usize = 256 * 1024;

/// The parts `text` is read in (see [`PART`]): ranges of whole lines, each at least `PART`
/// bytes long but the last (a line longer than that is one part).
fn parts(text: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start >= text.len() && !(start == 0 && text.is_empty()) {
            return None;
        }
        let from = start;
        let end = match text
            .as_bytes()
            .get(from + PART..)
            .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
        {
            Some(i) => from + PART + i + 1,
            None => text.len(),
        };
        // An empty text is one empty part, read as before (a template may match nothing).
        start = end.max(from + 1);
        Some(from..end)
    })
}

/// For `keyword-unsupported` at a keyword's own place (`/properties/x/pattern`), the fix for
/// that keyword, as `check` writes it (drop what only annotates, restructure what declares
/// the arguments: `oneOf` is not removed), instead of the rule's general "Remove the keyword"
/// that would delete a union's schemas. A fix check already gave is kept.
///
/// The fix is for the form of the value at that place in the request's tool (`tools`):
/// `additionalProperties: false` is removed and said in the description, a schema there is
/// restructured. Where the value cannot be read (no request, a place the tool lacks) and the
/// fix depends on it, the rule's general fix stays: a form's fix for another form misleads.
fn keyword_fix(e: &mut Explanation, tools: &[RequestTool<'_>]) {
    use crate::profile::feature::Feat;
    use crate::profile::rules::keyword_unsupported::{fix_in, form};
    if e.rule.as_deref() != Some("keyword-unsupported")
        || e.fix.as_deref() != self::fix_for("keyword-unsupported")
    {
        return;
    }
    use crate::schema::Token;
    // Of the schema holding the keyword: a `dependencies` of name lists is fixed as
    // `dependentRequired` is.
    let fix_of = |last: &str, v: &Value| {
        let node = serde_json::Map::from_iter([(last.to_string(), v.clone())]);
        match form(last, v) {
            Some(f) => fix_in(last, &Feat::KeywordForm(last, f), &node),
            None => fix_in(last, &Feat::Keyword(last), &node),
        }
    };
    // Where the value cannot be read, the values whose forms tell fixes apart (booleans, a
    // schema): one fix for all of them is the keyword's whatever its value.
    let any_value_fix = |last: &str| {
        let [a, b, c, d] = [
            Value::Bool(true),
            Value::Bool(false),
            serde_json::json!({}),
            serde_json::json!({"a": ["b"]}),
        ]
        .map(|v| fix_of(last, &v));
        (a == b && b == c && c == d).then_some(a)
    };
    let Some(at) = e.pointer.as_deref() else {
        // No place (Google's positional index without the request), but the message names
        // the keyword: its fix, not the rule's that names none (trial 83 D3).
        // The message says the field is refused whatever its value, so removing it cures it
        // where the fixes of its forms differ.
        if let Some(k) =
            templates::unknown_name(&e.message).filter(|k| crate::schema::is_keyword(k))
        {
            e.fix = Some(any_value_fix(k).unwrap_or_else(|| {
                format!("Remove `{k}`; if it constrained the value, say so in the description.")
            }));
        }
        return;
    };
    let Some((holder, token)) = at.rsplit_once('/') else {
        return;
    };
    // `/properties/pattern` is a property named `pattern`, not the keyword. A member of
    // `dependencies` (or `dependentRequired`) is named by a property too (`/dependencies/format`):
    // refused under this rule, it is that keyword's value refused, and the keyword's fix is
    // the one, not the fix for a keyword named as the property is.
    let (pointer, last) = match crate::schema::last_token(at) {
        Token::Key if crate::schema::is_keyword(token) => (at, token),
        Token::Name(k @ ("dependencies" | "dependentRequired")) => (holder, k),
        _ => return,
    };
    let root = tools
        .iter()
        .find(|t| Some(t.index) == e.tool_index)
        .and_then(|t| t.schema);
    let value = root.and_then(|r| r.pointer(pointer));
    // The root `$schema` of a draft that decides what another keyword means, and an `$id`
    // a `$ref` resolves through, are not removed alone (as `check` says).
    let parent = &pointer[..pointer.len() - last.len() - 1];
    let own =
        root.and_then(|r| crate::profile::rules::keyword_unsupported::place_fix(r, parent, last));
    let fix = match value {
        Some(v) => Some(own.unwrap_or_else(|| fix_of(last, v))),
        None => any_value_fix(last),
    };
    if fix.is_some() {
        e.fix = fix;
    }
}

/// The value of `keyword` in the request's tool where `e` is placed, when its JSON Pointer
/// ends at that keyword (`/properties/x/format` for `format`).
fn keyword_value<'a>(
    e: &Explanation,
    tools: &[RequestTool<'a>],
    keyword: &str,
) -> Option<&'a Value> {
    let pointer = e.pointer.as_deref()?;
    let parent = pointer.strip_suffix(keyword)?;
    if !parent.ends_with('/') {
        return None;
    }
    tools
        .iter()
        .find(|t| Some(t.index) == e.tool_index)
        .and_then(|t| t.schema?.pointer(pointer))
}

/// For `format-unsupported` at a `format` of the request's tool, the fix for that format's
/// value, as `check` writes it (`regex` has no example of its own; `uri` is "a URL"), instead
/// of the rule's general fix that speaks of `uri` whatever the format. A fix check already gave
/// is kept; without the value (no request, a place the tool lacks) the general fix stays.
fn format_fix(e: &mut Explanation, tools: &[RequestTool<'_>]) {
    if e.rule.as_deref() != Some("format-unsupported")
        || e.fix.as_deref() != self::fix_for("format-unsupported")
    {
        return;
    }
    if let Some(Value::String(f)) = keyword_value(e, tools, "format") {
        e.fix = Some(crate::profile::rules::format_unsupported::fix_for(f));
    }
}

/// The fix for `required-undeclared` at a `required` of the request's tool that is an empty
/// list: it names no property, so "remove the name" (the rule's fix) names nothing to remove;
/// the list itself is what a schema without `properties` is refused for (Groq's "'required'
/// present but 'properties' is missing").
const EMPTY_REQUIRED_FIX: &str = "Remove the empty `required` list: it names no property, and \
     the schema has no `properties` for it to name.";

/// For `required-undeclared` at a `required` that the request's tool holds as `[]`,
/// [`EMPTY_REQUIRED_FIX`] instead of the rule's fix, which speaks of a name.
fn empty_required_fix(e: &mut Explanation, tools: &[RequestTool<'_>]) {
    if e.rule.as_deref() != Some("required-undeclared") {
        return;
    }
    if keyword_value(e, tools, "required")
        .and_then(Value::as_array)
        .is_some_and(Vec::is_empty)
    {
        e.fix = Some(EMPTY_REQUIRED_FIX.to_string());
    }
}

/// For `object-properties-missing` below the root, the fix check writes there under every
/// profile ([`NESTED_FIX`](crate::profile::rules::object_properties_missing::NESTED_FIX)),
/// instead of the rule's, whose advice for a tool without arguments (keep an empty
/// `properties` map and let `compile` write each target's form) is for the root only: a
/// nested object is an argument, and Google's "should be non-empty for OBJECT type" there is
/// the rejection of that very map (trial 58 D7: without `--target`, where check is not asked,
/// the rule's fix came back). The root is `""` or its `properties` keyword, `/properties`
/// (an argument named `properties` is at `/properties/properties`). A fix check gave is kept.
fn nested_object_fix(e: &mut Explanation) {
    let rule = "object-properties-missing";
    if e.rule.as_deref() == Some(rule)
        && e.fix.as_deref() == self::fix_for(rule)
        && e.pointer
            .as_deref()
            .is_some_and(|p| !matches!(p, "" | "/properties"))
    {
        e.fix = Some(crate::profile::rules::object_properties_missing::NESTED_FIX.to_string());
    }
}

/// A tool's place as OpenAI-compatible APIs write it in their errors:
/// `tools[0].function.parameters.properties.x`, the dotted keys of the place in the tool's
/// parameters.
static TOOL_PLACE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r"tools\[(\d+)\]\.function\.parameters((?:\.[A-Za-z0-9_$-]+)*)")
        .expect("the tool place pattern compiles")
});

/// For an error no template reads (cut short, reworded by a client) that still names a place
/// in a tool of `request` whole (see [`TOOL_PLACE`]; a place the request's tool does not
/// have may have lost its end, and is not guessed at): one explanation per finding of
/// `check --target {target}` (`portable` without a target) at or below that place in the
/// parameters schema (not those about the tool's name, description or the tool as a whole,
/// which check also puts at `""`), with the finding's rule and fix, or one naming the place alone when check finds nothing there. A
/// note says the message itself was not recognized. Empty when no such place is named.
fn unrecognized_at_place(
    request: &Value,
    error: &str,
    target: Option<&str>,
    check_profile: &CheckProfile<'_>,
) -> Vec<Explanation> {
    let tools = request_tools(request);
    let Some((tool, pointer, named, line)) = TOOL_PLACE.captures_iter(error).find_map(|c| {
        let index: usize = c[1].parse().ok()?;
        let tool = tools.iter().find(|t| t.index == index)?;
        let pointer = templates::pointer_from(c[2].split('.').skip(1));
        tool.schema?.pointer(&pointer)?;
        // The line that names the place is the provider's words shown (a log may be long).
        let start = error[..c.get(0)?.start()].rfind('\n').map_or(0, |i| i + 1);
        let end = error[start..].find('\n').map_or(error.len(), |i| start + i);
        Some((tool, pointer, c[0].to_string(), error[start..end].trim()))
    }) else {
        return Vec::new();
    };
    let findings = check_profile
        .get()
        .zip(crate::input::from_value(std::path::Path::new("request"), request.clone()).ok())
        .map(|(profile, set)| {
            crate::check::check_set_findings(&set, profile).render_where(
                profile,
                |index, in_request, _, p| {
                    index == tool.index && !in_request && crate::schema::at_or_inside(p, &pointer)
                },
            )
        })
        .unwrap_or_default()
        .into_iter()
        // Findings about the tool's name or description (or the tool as a whole) carry the
        // pointer `""` like the schema's root, but are not in the parameters schema at all.
        .filter(|f| f.subject == crate::check::Subject::Schema)
        .collect::<Vec<_>>();
    let check = match target {
        Some(t) => format!("`check --target {t}`"),
        None => "`check` (under `portable`)".to_string(),
    };
    let unread = format!(
        "the message itself was not recognized (cut short or reworded); the place it names, \
         `{named}`, is in the request"
    );
    let base = Explanation {
        provider: target.map(family_of).unwrap_or("the provider"),
        message: line.to_string(),
        tool_index: Some(tool.index),
        tool: tool.name.map(str::to_string),
        pointer: Some(pointer.clone()),
        located: Located::Path,
        rule: None,
        fix: None,
        notes: Vec::new(),
    };
    if findings.is_empty() {
        return vec![Explanation {
            notes: vec![format!("{unread}, and {check} finds nothing there")],
            ..base
        }];
    }
    findings
        .into_iter()
        .map(|f| {
            let mut e = Explanation {
                pointer: Some(f.pointer.clone()),
                rule: Some(f.rule.to_string()),
                fix: Some(f.fix.to_string()),
                notes: vec![format!(
                    "{unread}; {check} reports this there ({})",
                    f.level.as_str()
                )],
                ..base.clone()
            };
            empty_required_fix(&mut e, &tools);
            e
        })
        .collect()
}

/// Names, for each explanation of a tool at a place, the rule `check --target {target}`
/// reports there as an error (same tool, same JSON Pointer) when the template's own reading
/// is another rule or none: one problem, one rule, whichever command is asked. Where check
/// reports the template's rule there too (at any level) beside other errors, that rule stands
/// and the others become notes with their fixes (rejections still to come). Where check
/// has no error there (the target's rejecting evidence is not in the profile yet), the rule
/// of its warning about the schema there is named the same way; where it has nothing there
/// but one rule's errors at the place's keywords (`/anyOf` of a root that is a bare
/// `anyOf`), that rule and its place; where it has the message's own rule only below the
/// place, or the message names only the tool and check has its rule inside it (a depth limit
/// at the deepest object, beside a size error at the root), the closest such place. A place is never
/// moved to an ancestor's finding of the message's rule, which is about something else there.
/// Where check has nothing at the place or its keywords,
/// a note says so (the newest evidence accepts what the message rejected). Several rules
/// there leave the template's; a strict structured-outputs requirement (a fix, no rule) is a
/// target's form, which check does not judge, and is left as it is. Nothing changes when the
/// target has no built-in profile or the request cannot be read as check reads it, nor for
/// a place the request's tool does not have (the error is about another request).
pub fn agree_with_check(out: &mut [Explanation], request: &Value, target: &str) {
    agree_with_check_in(out, request, &CheckProfile::new(target));
}

/// [`agree_with_check`] for the target whose built-in profile is `check`.
fn agree_with_check_in(out: &mut [Explanation], request: &Value, check: &CheckProfile<'_>) {
    let target = check.id();
    let placed = |e: &Explanation| e.tool_index.is_some() && e.pointer.is_some();
    if !out.iter().any(placed) {
        return;
    }
    // The built-in profiles, the ones `check --target T` uses.
    let Some(profile) = check.get() else {
        return;
    };
    let Ok(set) = crate::input::from_value(std::path::Path::new("request"), request.clone()) else {
        return;
    };
    // Only the findings that can be read below are rendered: those of an explained tool at an
    // explained place or at one of its keywords. A schema with hundreds of thousands of
    // places has as many findings, and rendering them all was most of `compile`'s peak memory.
    let places: HashSet<(usize, &str)> = out
        .iter()
        .filter_map(|e| Some((e.tool_index?, e.pointer.as_deref()?)))
        .collect();
    let parents: HashSet<(usize, &str)> = places
        .iter()
        .filter_map(|&(tool, p)| Some((tool, parent_of(p)?)))
        .collect();
    // A rule the message reads as may be reported elsewhere in its tool (a depth limit
    // that check places at the deepest object).
    let own: HashSet<(usize, &str)> = out
        .iter()
        .filter_map(|e| Some((e.tool_index?, e.rule.as_deref()?)))
        .collect();
    // A meta-schema rejection names no place: check's errors anywhere in its tool may say
    // which of the places the meta-schema refuses the target rejects.
    let meta_tools: HashSet<usize> = out
        .iter()
        .filter(|e| e.located == Located::MetaSchema)
        .filter_map(|e| e.tool_index)
        .collect();
    let checked = crate::check::check_set_findings(&set, profile);
    let findings = checked.render_where(profile, |tool, request, rule, pointer| {
        !request
            && (meta_tools.contains(&tool)
                || places.contains(&(tool, pointer))
                || parent_of(pointer).is_some_and(|p| places.contains(&(tool, p)))
                || parents.contains(&(tool, pointer))
                || own.contains(&(tool, rule)))
    });
    let tools = request_tools(request);
    // What every rule finds in the request, whatever the profile: made when first needed.
    let mut seen: Option<Vec<crate::profile::detect::Seen>> = None;
    for e in out.iter_mut() {
        let (Some(index), Some(pointer)) = (e.tool_index, e.pointer.as_deref()) else {
            continue;
        };
        if e.rule.is_none() && e.fix.is_some() {
            continue;
        }
        // A place the request does not have is no place check could judge: the error is
        // about another request, as the template's note says, not about stale evidence.
        let schema = tools
            .iter()
            .find(|t| t.index == index)
            .and_then(|t| t.schema);
        if schema.is_some_and(|s| !templates::in_schema(s, pointer)) {
            continue;
        }
        // A provider's message is never about toolwire's own caps, which a request may be
        // past when the provider is not (compile's strict form adds a subschema per object):
        // their findings are no reading of it.
        // A message about the tool's name or description (OpenAI's `Invalid 'tools[1].name'`)
        // is about that part of the tool, which check also reports at `""`: only check's
        // finding of that rule there reads it. A finding about the schema's root (strict mode's
        // `additionalProperties`) or another rule about the name is another problem, and its
        // fix leaves the message standing (trial 59 D18).
        let part = e
            .rule
            .as_deref()
            .and_then(|own| Some((tool_part(own)?, own)));
        let of_tool = |f: &&crate::check::Finding| {
            f.tool_index == index
                && !f.request
                && e.tool.as_deref().is_none_or(|n| f.tool.as_str() == n)
                && !crate::profile::table::is_own_cap(f.rule.as_str())
                && part.is_none_or(|(subject, own)| {
                    f.subject == subject && f.rule == own && part_counts(own, &f.parameter, profile)
                })
        };
        let error_at = |at: &str| {
            findings.iter().filter(of_tool).find(|f| {
                f.pointer == at
                    && f.level == crate::check::Level::Error
                    && f.subject == crate::check::Subject::Schema
            })
        };
        // The meta-schema refuses several places and the template took the deepest; where
        // check has no error there but has one at another of them, that is the one the target
        // is known to reject: name it, and the others (the first among them) in the note.
        if e.located == Located::MetaSchema
            && error_at(pointer).is_none()
            && let Some(schema) = schema
        {
            let all = templates::meta_violations(schema);
            if let Some(f) = all.iter().find_map(|p| error_at(p)) {
                e.notes.retain(|n| !n.starts_with(templates::META_OTHERS));
                e.notes
                    .extend(templates::meta_others_note(Some(schema), &all, &f.pointer));
                e.pointer = Some(f.pointer.clone());
                e.rule = Some(f.rule.to_string());
                e.fix = Some(f.fix.to_string());
                continue;
            }
        }
        // The rules of check's findings at the places `at` accepts: its errors, or (`warnings`)
        // its warnings too; about the schema only when `schema` (a finding about the tool's
        // name or description, also at `""`, is not what a schema error is about), or about the
        // part of the tool the message is about (`of_tool` keeps those alone).
        let rules_at = |at: &dyn Fn(&str) -> bool, warnings: bool, schema: bool| {
            let mut rules: Vec<&str> = Vec::new();
            for f in findings.iter().filter(of_tool).filter(|f| at(&f.pointer)) {
                let counts = (warnings || f.level == crate::check::Level::Error)
                    && (!schema || part.is_some() || f.subject == crate::check::Subject::Schema);
                if counts && !rules.contains(&f.rule.as_str()) {
                    rules.push(f.rule.as_str());
                }
            }
            rules
        };
        let keyword_of = |p: &str| {
            p.strip_prefix(pointer)
                .and_then(|rest| rest.strip_prefix('/'))
                .is_some_and(|token| !token.contains('/'))
        };
        let parent = parent_of(pointer);
        let is_parent = |p: &str| parent == Some(p);
        // Check's errors at the place itself; else at one of its keywords (a message about a
        // schema whose `anyOf` check names at `/anyOf`); else at its parent (a branch of a
        // combinator check rejects as a whole); else, when the target has no evidence yet for
        // what it just rejected (check only warns), the warnings there. A "no evidence"
        // warning elsewhere is no reason to read the message otherwise.
        // A message that reads as no rule is not about the tool's name or description, which
        // check also reports at `""` (Bedrock's "format of the value at ... inputSchema.json").
        // A message about how deep the whole tool nests names no place in it (its root stands
        // for the tool): another rule's finding at the root or at one of its keywords is
        // another problem, whose fix may leave the message standing or make it worse (an
        // inlined `$ref` nests deeper: trial 83 D1). Only check's own depth findings read it.
        let whole_tool = e.rule.as_deref() == Some("depth-exceeded");
        let mut rules = if whole_tool {
            Vec::new()
        } else {
            rules_at(&|p| p == pointer, false, e.rule.is_none())
        };
        // Check reports the rule the message reads as here too (perhaps only as a warning, the
        // target's evidence not in the profile yet) beside another error: the message is about
        // its own rule, whose fix is what answers it; check's other errors at the place are
        // further rejections to come, named with their fixes, not a different reading
        // (Responses strict's "array schema missing items" at an optional array is
        // `array-items-missing`; `strict-form-missing` there asks to require it, which alone
        // leaves the message standing). So is an error of check's at the schema holding the
        // place, where the place is a keyword of it that check's finding of the rule is about
        // (its feature names the keyword): Google's unknown `foo` in an array without `items`
        // is the keyword's, since adding `items` leaves `foo` refused (trial 63 D3). A branch of
        // a combinator check rejects as a whole is no keyword, and is read as that below.
        let same = e.rule.as_deref().and_then(|own| {
            findings.iter().filter(of_tool).find(|f| {
                f.rule == own && f.pointer == pointer && f.subject == crate::check::Subject::Schema
            })
        });
        let on_keyword = same.is_some_and(|f| {
            let token = pointer.rsplit('/').next().unwrap_or_default();
            f.parameter.rsplit(": ").next() == Some(token)
        });
        let elsewhere = |p: &str| on_keyword && p != pointer && parent == Some(p);
        if let Some(own) = e.rule.as_deref()
            && !rules.contains(&own)
            && (!rules.is_empty() || !rules_at(&elsewhere, false, true).is_empty())
            && let Some(same) = same
        {
            if e.fix.as_deref() == fix_for(own) {
                let written = checked.written_fix(index, own, pointer).map(str::to_string);
                if same.level == crate::check::Level::Error {
                    e.fix = Some(same.fix.to_string());
                } else if written.is_some() {
                    e.fix = written;
                }
            }
            e.notes.push(format!(
                "`check --target {target}` reports `{own}` here too ({})",
                same.level.as_str()
            ));
            let mut others: Vec<&crate::check::Finding> = Vec::new();
            for f in findings.iter().filter(of_tool) {
                if f.pointer == pointer
                    && f.level == crate::check::Level::Error
                    && f.rule != own
                    && !others.iter().any(|o| o.rule == f.rule)
                {
                    others.push(f);
                }
            }
            for f in findings.iter().filter(of_tool) {
                if elsewhere(&f.pointer)
                    && f.level == crate::check::Level::Error
                    && f.subject == crate::check::Subject::Schema
                    && !others
                        .iter()
                        .any(|o| o.rule == f.rule && o.pointer == f.pointer)
                {
                    others.push(f);
                }
            }
            e.notes.extend(others.iter().map(|f| {
                let at = if f.pointer == pointer {
                    "here".to_string()
                } else if f.pointer.is_empty() {
                    "at the schema's root".to_string()
                } else {
                    format!("at {}", f.pointer)
                };
                format!(
                    "`check --target {target}` also reports `{}` {at}, which the target is known \
                     to reject as well: {}",
                    f.rule, f.fix
                )
            }));
            continue;
        }
        let mut moved_to = None;
        for at in [&keyword_of as &dyn Fn(&str) -> bool, &is_parent] {
            if !rules.is_empty() || whole_tool {
                break;
            }
            rules = rules_at(at, false, true);
            if let [rule] = rules.as_slice() {
                moved_to = findings
                    .iter()
                    .filter(of_tool)
                    .find(|f| f.rule == *rule && at(&f.pointer))
                    .map(|f| f.pointer.clone());
            }
        }
        if rules.is_empty() && !whole_tool {
            rules = rules_at(&|p| p == pointer, true, true);
        }
        // The rule the message reads as, reported below the place (a depth limit that the
        // message names the tool for and check places at the deepest object): the closest
        // such finding. Never above it: the place exists, and a finding at an ancestor is
        // about something else there (a "no evidence" warning about the root's `properties`,
        // whose fix would remove every argument).
        let below = || {
            e.rule.as_deref().and_then(|own| {
                findings
                    .iter()
                    .filter(of_tool)
                    .filter(|f| f.rule == own && f.subject == crate::check::Subject::Schema)
                    .filter(|f| at_or_below(&f.pointer, pointer))
                    .min_by_key(|f| f.pointer.matches('/').count())
            })
        };
        // A message that names only the tool (its place is the root) and a rule check
        // reports inside it is about that finding, not about another rule check has at the
        // root: Gemini's "exceeds the maximum allowed nesting depth" is `depth-exceeded` at
        // the deepest object, though check also finds the root too large.
        let named_inside =
            pointer.is_empty() && e.rule.as_deref().is_some_and(|own| !rules.contains(&own));
        if (rules.is_empty() || named_inside)
            && let Some(f) = below()
        {
            // Said with its level, as a finding here is: a warning (no evidence) is not what
            // `--errors-only` or compile's "no error" would lead one to look for (trial 67 D5).
            e.notes.push(format!(
                "`check --target {target}` reports `{}` at {} ({})",
                f.rule,
                if f.pointer.is_empty() {
                    "the schema's root"
                } else {
                    &f.pointer
                },
                f.level.as_str()
            ));
            e.pointer = Some(f.pointer.clone());
            continue;
        }
        // Whether the request has here what the message's rule is about at all, whatever any
        // profile says of it: if not, no evidence is stale; the message was about another
        // version of the request, unless check warns about one keyword of the place that
        // stands in for the one the message calls missing (OpenAI's "array schema missing
        // items" at an array with `prefixItems`, which check warns about): the request has
        // that here, and that is what the message is about. A warning about another keyword
        // there is about something else.
        let mut present = false;
        if rules.is_empty()
            && let Some(own) = &e.rule
        {
            let seen = seen.get_or_insert_with(|| {
                let refs: Vec<_> = set.tools.iter().map(|t| t.as_ref()).collect();
                crate::profile::detect::collect(&refs)
            });
            present = if tool_part(own).is_some() {
                part_here(seen, index, own, profile)
            } else {
                finds_here(seen, index, own, pointer)
            };
            let stands_in = |p: &str| {
                keyword_of(p)
                    && p.rsplit('/')
                        .next()
                        .is_some_and(|k| templates::stands_in_for_missing(own, k))
            };
            let warned = if present {
                Vec::new()
            } else {
                rules_at(&stands_in, true, true)
            };
            if let [rule] = warned.as_slice() {
                moved_to = findings
                    .iter()
                    .filter(of_tool)
                    .find(|f| f.rule == *rule && stands_in(&f.pointer))
                    .map(|f| f.pointer.clone());
                rules = warned;
            }
        }
        if rules.is_empty() {
            if let Some(own) = &e.rule {
                e.notes.push(if present {
                    format!(
                        "`check --target {target}` reports nothing here: the evidence its profile \
                         is derived from (the newest decides) does not reject `{own}` here; the \
                         message predates that evidence, or its cause is not what it reads as"
                    )
                } else {
                    nothing_here(own)
                });
            }
            continue;
        }
        let [rule] = rules.as_slice() else {
            continue;
        };
        // Check's own fix for the finding, which names the keyword or value found (the rule's
        // fix is written for any of them). A warning's, as rendered, says only that the
        // evidence is missing, which the target's rejection answers: the fix check wrote for
        // it serves (a `properties: null` where the target rejects an empty map too is not
        // fixed by the rule's `{}`).
        let at = moved_to.as_deref().unwrap_or(pointer);
        let own_fix = findings
            .iter()
            .filter(of_tool)
            .find(|f| f.rule == *rule && f.pointer == at && f.level == crate::check::Level::Error)
            .map(|f| f.fix.to_string())
            .or_else(|| checked.written_fix(index, rule, at).map(str::to_string));
        if e.rule.as_deref() == Some(*rule) {
            if own_fix.is_some() && e.fix.as_deref() == fix_for(rule) {
                e.fix = own_fix;
            }
            continue;
        }
        e.notes.push(match &e.rule {
            Some(own) => format!(
                "`check --target {target}` reports `{rule}` here; the message alone reads as \
                 `{own}`"
            ),
            None => format!(
                "`check --target {target}` reports `{rule}` here; the message alone names no rule"
            ),
        });
        e.rule = Some(rule.to_string());
        e.fix = own_fix.or_else(|| fix_for(rule).map(str::to_string));
        if moved_to.is_some() {
            e.pointer = moved_to;
        }
    }
}

/// Whether what every rule finds in the request, whatever the profile (`seen`,
/// [`crate::profile::detect::collect`]), holds rule `rule` in tool `index` at `pointer`, below
/// it, or at its parent, as [`agree_with_check_in`] reads it.
fn finds_here(
    seen: &[crate::profile::detect::Seen],
    index: usize,
    rule: &str,
    pointer: &str,
) -> bool {
    seen.iter().any(|s| {
        s.tool_index == index
            && s.rule == rule
            && (at_or_below(&s.pointer, pointer) || parent_of(pointer) == Some(&s.pointer))
    })
}

/// Whether what every rule finds in the request (`seen`) holds rule `rule`, one about the
/// tool's name or description ([`tool_part`]), in tool `index` as `profile` could judge it
/// ([`part_counts`]).
fn part_here(
    seen: &[crate::profile::detect::Seen],
    index: usize,
    rule: &str,
    profile: &crate::profile::CompiledProfile,
) -> bool {
    seen.iter()
        .filter(|s| s.tool_index == index && s.rule == rule)
        .any(|s| part_counts(rule, &s.parameter, profile))
}

/// Whether feature `parameter` (`name-chars: dot`, `description-length-limit: 2121`) of rule
/// `rule`, one about the tool's name or description, is something the rule is about. Every
/// name and every length is recorded, and check warns about ordinary names where a target has
/// no evidence for them: a name of letters, digits, `_` and `-` alone, starting with neither
/// (the form `name-invalid`'s fix asks for), is nothing that rule is about, and a length below
/// the profile's smallest case of its limit nothing a length rule is about (trial 63 D1: a
/// refusal of such a name was said to predate the evidence, or read as that warning).
fn part_counts(rule: &str, parameter: &str, profile: &crate::profile::CompiledProfile) -> bool {
    use crate::profile::feature::{Limit, value};
    let ordinary = [
        value::NAME_LOWER,
        value::NAME_UPPER,
        value::NAME_DIGIT,
        value::NAME_UNDERSCORE,
        value::NAME_HYPHEN,
    ];
    let reaches = |n: &str, limit: Limit| {
        n.parse::<usize>()
            .is_ok_and(|n| n >= profile.limit_floor(limit))
    };
    let found = parameter.rsplit(": ").next().unwrap_or_default();
    match rule {
        "name-invalid" => !ordinary.contains(&found),
        "name-too-long" => reaches(found, Limit::NameLength),
        "description-too-long" => reaches(found, Limit::DescriptionLength),
        _ => true,
    }
}

/// The note for an explanation of rule `rule` at a place of the request that holds nothing
/// that rule is about ([`finds_here`]).
fn nothing_here(rule: &str) -> String {
    format!(
        "the request given has nothing here that `{rule}` is about (check finds it under no \
         profile): the message was about another version of the request, or its cause is not \
         what it reads as"
    )
}

/// Without a target, [`agree_with_check_in`]'s note that the request has nothing at the place
/// that the message's rule is about, whose words hold whatever the target: it was given only
/// with `--target` (trial 59 D20: Vertex's `anyOf` "must be the only field set" at an array
/// with no `anyOf` was explained without it, its fix sent to a schema with no `anyOf`). It is
/// given where every built-in profile whose target would read the message ([`family_of`],
/// [`templates::reads`]; `portable`, check's own default, among them) gives it: under each,
/// check finds nothing there, nor another rule that reads the message otherwise (a bare root
/// `anyOf` is `root-combinator` for `openai/chat`, where OpenAI's "type: None" is about this
/// request), nor a keyword standing in for the one the message calls missing.
fn note_nothing_here(out: &mut [Explanation], request: &Value) {
    let asked: Vec<usize> = (0..out.len())
        .filter(|&i| {
            let e = &out[i];
            e.tool_index.is_some() && e.pointer.is_some() && e.rule.is_some()
        })
        .collect();
    if asked.is_empty() {
        return;
    }
    let Ok(set) = crate::profile::embedded_set() else {
        return;
    };
    // Per explanation: whether each profile asked so far gave the note (`None`: none asked).
    let mut given: Vec<Option<bool>> = vec![None; out.len()];
    for profile in &set.profiles {
        let family = family_of(&profile.name);
        let reading: Vec<usize> = asked
            .iter()
            .copied()
            .filter(|&i| given[i] != Some(false) && templates::reads(Some(family), out[i].provider))
            .collect();
        if reading.is_empty() {
            continue;
        }
        let check = CheckProfile::new(&profile.name);
        if check.get().is_none() {
            continue;
        }
        let mut trial: Vec<Explanation> = reading.iter().map(|&i| out[i].clone()).collect();
        agree_with_check_in(&mut trial, request, &check);
        for (t, &i) in trial.iter().zip(&reading) {
            let note = nothing_here(out[i].rule.as_deref().unwrap_or_default());
            given[i] = Some(t.notes.contains(&note));
        }
    }
    for (e, given) in out.iter_mut().zip(given) {
        if given == Some(true)
            && let Some(own) = e.rule.as_deref()
        {
            let note = nothing_here(own);
            if !e.notes.contains(&note) {
                e.notes.push(note);
            }
        }
    }
}

/// The part of a tool a rule about the tool itself is about, as check's findings of it say
/// (`Finding::subject`): its name or its description; `None` for any other rule.
pub(crate) fn tool_part(rule: &str) -> Option<crate::check::Subject> {
    use crate::check::Subject;
    match rule {
        "name-invalid" | "name-too-long" | "name-duplicate" => Some(Subject::Name),
        "description-missing" | "description-too-long" | "description-content" => {
            Some(Subject::Description)
        }
        _ => None,
    }
}

/// Whether JSON Pointer `p` is `place` or inside the value at it (`/a/b` is inside `/a`, not
/// inside `/ab`).
fn at_or_below(p: &str, place: &str) -> bool {
    p.strip_prefix(place)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// The JSON Pointer one level up, `None` for the root.
fn parent_of(pointer: &str) -> Option<&str> {
    pointer.rfind('/').map(|slash| &pointer[..slash])
}

/// What a provider's error is read against.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Against<'r, 'a> {
    /// No request was given: the error's own tool numbers and names are all there is.
    Nothing,
    /// A request in another provider's shape: its tools are not the error's, and nothing is
    /// said of them.
    Foreign,
    /// The tools the error numbers, in its order.
    Tools(&'r [RequestTool<'a>]),
}

/// Whether `target` relays an OpenAI-shaped request to a provider whose errors are read by
/// the `error` template family, numbering the request's function tools in order: Gemini's
/// OpenAI-compatible endpoint converts the tools into Google function declarations (its
/// errors come back as `GenerateContentRequest.tools[0].function_declarations[i]`, mcp-obsidian#21
/// in `target::gemini_compat`); OpenRouter hands back the upstream's own body in
/// `metadata.raw` (`target::openrouter`), Google's or Anthropic's for those upstreams.
pub fn relays(target: &str, error: &str) -> bool {
    match target {
        "gemini/openai-compat" => error == "google",
        "openrouter" => matches!(error, "google" | "anthropic"),
        _ => false,
    }
}

/// The tools a relay sends on (see [`relays`]): the request's function tools, numbered in
/// order as one list of function declarations (`position`); `index` stays the tool's place in
/// the request.
pub fn relayed_tools<'a>(tools: &[RequestTool<'a>]) -> Vec<RequestTool<'a>> {
    tools
        .iter()
        .filter(|t| t.function)
        .enumerate()
        .map(|(position, t)| RequestTool {
            group: 0,
            position,
            ..t.clone()
        })
        .collect()
}

/// The provider family whose request shape `request` is in, as [`family_of`] names them:
/// `google` (Gemini `functionDeclarations`, `contents`), `bedrock` (`toolConfig`,
/// `toolSpec`), `anthropic` (`input_schema`) or `openai` (`{"type":"function"}` tools, Chat or
/// Responses); `None` when it says none of these (a bare list of schemas, MCP).
pub fn request_family(request: &Value) -> Option<&'static str> {
    let mut root = request;
    for wrapper in ["generateContentRequest", "request"] {
        if let Some(inner) = root.get(wrapper).filter(|v| v.is_object()) {
            root = inner;
        }
    }
    if root.get("contents").is_some() {
        return Some("google");
    }
    // Gemini's `toolConfig` holds a `functionCallingConfig`; Bedrock's holds the tools.
    if root.pointer("/toolConfig/tools").is_some() || root.pointer("/input/converse").is_some() {
        return Some("bedrock");
    }
    let tools = root
        .get("tools")
        .and_then(Value::as_array)
        .or(root.as_array())?;
    tools.iter().find_map(|t| {
        if t.get("functionDeclarations").is_some() || t.get("function_declarations").is_some() {
            Some("google")
        } else if t.get("toolSpec").is_some() {
            Some("bedrock")
        } else if t.get("input_schema").is_some() {
            Some("anthropic")
        } else if t.get("type").and_then(Value::as_str) == Some("function") {
            Some("openai")
        } else {
            None
        }
    })
}

/// Whether an error read by the `error` template family cannot be the answer to a request in
/// `shape` (a [`request_family`]). Only the four shapes are told apart: the OpenAI-compatible
/// providers (xAI, Groq, Mistral, ...) take OpenAI's shape, so only Google's, Anthropic's and
/// Bedrock's errors name a shape of their own.
fn other_provider(shape: &str, error: &str) -> bool {
    // Bedrock relays the model's own validator: Claude's errors come back inside Bedrock's
    // ("The model returned the following errors: tools.1.custom: ...", the offline model in
    // `target::bedrock`), numbering the same `toolConfig.tools` list.
    if shape == "bedrock" && error == "anthropic" {
        return false;
    }
    let own_shape = matches!(error, "google" | "anthropic" | "bedrock");
    if own_shape {
        shape != error
    } else {
        error == "openai" && shape != "openai"
    }
}

/// The template family of a target id (`gemini-openai-compat` reads Google's and OpenAI's:
/// that endpoint answers in both providers' words, see `target::gemini_compat`).
pub fn family_of(target: &str) -> &'static str {
    if target.starts_with("engine/gemini-proto-snapshot") {
        return "google";
    }
    if target == "gemini/openai-compat" {
        return "gemini-openai-compat";
    }
    let head = target.split('/').next().unwrap_or(target);
    match head {
        "gemini" | "vertex" => "google",
        "openai" | "azure-openai" | "deepseek" => "openai",
        "anthropic" => "anthropic",
        "bedrock" => "bedrock",
        "xai" => "xai",
        "groq" => "groq",
        "mistral" => "mistral",
        "cohere" => "cohere",
        "moonshot" => "moonshot",
        "ollama" => "ollama",
        "llama.cpp" | "vllm" | "sglang" => "llama.cpp",
        _ => "any",
    }
}

/// The fix for a rule: the rule registry's own text (`toolwire rule ID`).
pub fn fix_for(rule: &str) -> Option<&'static str> {
    crate::profile::rules::find(rule).map(|r| r.fix)
}

/// Marks, in a template's result, the fix for the strict structured-outputs requirements
/// (every object closed, every property required), which no portable rule covers; [`explain`]
/// replaces it with [`strict_fix`] for the target at hand.
pub(crate) const STRICT_FIX: &str = "strict-fix";

/// The fix for the strict structured-outputs requirements: compile for the strict target.
/// `target` is the one the request went to: a strict target is named as it is, a non-strict
/// one by its strict sibling (`openai/chat` → `openai/chat-strict`); unknown means OpenAI
/// Chat's, with the Responses API's named too.
pub fn strict_fix(target: Option<&str>) -> String {
    let spec = target.and_then(crate::target::find);
    let sibling = spec.as_ref().and_then(|t| {
        if t.strict {
            return Some(t.id.to_string());
        }
        let strict = format!("{}-strict", t.id);
        crate::target::find(&strict)
            .filter(|s| s.strict)
            .map(|s| s.id.to_string())
    });
    let command = match sibling {
        Some(id) => format!("`toolwire compile --target {id}`"),
        None => "`toolwire compile --target openai/chat-strict`, or `openai/responses-strict` \
                 for the Responses API"
            .to_string(),
    };
    format!(
        "Compile for the strict target ({command}): it closes every object with \
         `additionalProperties: false` and lists every property in `required`, making optional \
         ones nullable."
    )
}

/// Appends `keyword` to a pointer (escaping it).
pub(crate) fn at_keyword(pointer: &str, keyword: &str) -> String {
    push_token(pointer, keyword)
}

#[cfg(test)]
mod tests;
