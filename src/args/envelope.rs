//! Whole tool-call objects pasted where the arguments go. Users paste what the provider
//! returned (`{"type":"tool_use","name":…,"input":{…}}`), and checked as the arguments such a
//! call is a handful of undeclared keys, which an open schema calls valid: the arguments inside
//! were never checked. A value none of whose keys is a declared property is read as a call when
//! it fits a shape. One with declared keys is read as a call only when it is that shape exactly
//! (every key one the shape has, its `type` and payload of the shape's JSON types) and one of its
//! keys is still undeclared: tools taking `name` or `type` arguments (GitHub's
//! `create_repository`, `issue_write`) are common, and a call to them must not pass for its own
//! arguments. A value whose keys are all declared is the arguments, so a tool that really takes
//! `name` and `input` arguments is not misread.

use std::collections::HashSet;

use serde_json::{Map, Value};

/// A tool-call envelope read around the arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    /// Which provider's shape was read (`Anthropic tool_use block`).
    pub shape: &'static str,
    /// The tool name the call names, when it names one as a string.
    pub name: Option<String>,
    /// JSON Pointer of the arguments in the envelope (`/function/arguments`).
    pub pointer: String,
    /// The arguments' JSON text as sent, to be read exactly once
    /// ([`crate::args::parse_call_arguments`]): the member's text, or, where the shape's
    /// arguments are a string (OpenAI's `arguments`), the text inside it, so that numbers are
    /// quoted as written. That text holding a JSON string again (an object encoded twice) is a
    /// string, as `json.loads(arguments)` gives it; so is a string where the shape's arguments
    /// are an object (Anthropic's `input`), its text being the member's.
    pub text: String,
    /// The message or response the call was the only call of, when it came in one.
    pub within: Option<Within>,
    /// The call leaves its arguments out, as a Gemini `functionCall` to a tool without
    /// parameters may (`args` is optional in google-genai's `FunctionCall`): `text` is `{}`
    /// and `pointer` where they would be.
    pub left_out: bool,
}

/// Where in a message or response the one call it holds was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Within {
    /// Which message or response (`OpenAI Chat Completions message`).
    pub container: &'static str,
    /// JSON Pointer of the call in it (`/tool_calls/0`).
    pub call_at: String,
    /// The calls to custom tools beside it ([`Refused::FreeText`]), each its place and the
    /// tool it calls: skipped, as their input is free text.
    pub free_text: Vec<(String, Option<String>)>,
}

/// Why a value cannot be read as one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The call fits more than one shape: these.
    Ambiguous(Vec<&'static str>),
    /// A call to a custom tool ([`Payload::FreeText`]), whose input is free text.
    FreeText {
        /// Which shape (`OpenAI Responses custom_tool_call item`).
        shape: &'static str,
        /// The tool it calls.
        name: Option<String>,
    },
    /// One event or chunk of a streamed reply ([`streamed`]), a piece of a call at most:
    /// `args` checks a whole call, assembled from the stream.
    StreamPiece {
        /// Which event, as the provider's reference names it (`Anthropic content_block_delta
        /// event`).
        event: &'static str,
        /// Why it is a piece, where its name does not say (what a Chat Completions tool call
        /// delta lacks to be a whole call: [`Tag::why`]).
        why: Option<String>,
    },
    /// A user turn sending tools' results back to the model ([`RESULT_TURNS`]): no call.
    ToolResult {
        /// Which message (`Gemini Content`).
        container: &'static str,
        /// What a result is in it (`functionResponse part`).
        result: &'static str,
    },
    /// A message or response holding no call, or several: `args` checks one, and its output
    /// (one retry message, one `call`) can say which call a problem is of only for one.
    NotOneCall {
        /// Which message or response.
        container: &'static str,
        /// The calls in it, each with its [`Within::call_at`].
        calls: Vec<Envelope>,
    },
}

/// How many calls [`Refused::message`] names before saying how many more there are.
const CALLS_LISTED: usize = 10;

impl Refused {
    /// The tool every call of a [`Refused::NotOneCall`] names, when they all name one.
    pub fn one_tool(&self) -> Option<&str> {
        let Refused::NotOneCall { calls, .. } = self else {
            return None;
        };
        let first = calls.first()?.name.as_deref()?;
        calls
            .iter()
            .all(|c| c.name.as_deref() == Some(first))
            .then_some(first)
    }

    /// The refusal in words, for the user (exit 2): what the value is and what to pass.
    pub fn message(&self) -> String {
        match self {
            Refused::Ambiguous(shapes) => format!(
                "the call could be read as a {}; pass its arguments alone",
                shapes.join(" or a ")
            ),
            Refused::FreeText { shape, name } => format!(
                "the call{} is an {shape}: custom tools take free text, not JSON arguments, and \
                 `args` checks only JSON arguments against a schema, so there is nothing to check",
                name.as_deref()
                    .map(|n| format!(" to {n:?}"))
                    .unwrap_or_default()
            ),
            Refused::StreamPiece { event, why } => format!(
                "the value is one streamed piece of a reply ({event}{}), not a whole tool call: \
                 `args` checks a whole call, so assemble the stream first and pass the call (or \
                 the reply) it makes",
                why.as_deref().map(|w| format!(": {w}")).unwrap_or_default()
            ),
            Refused::ToolResult { container, result } => format!(
                "the value is a user's {container} sending a tool's result back to the model (a \
                 {result}), not a tool call: there are no arguments to check; pass the call the \
                 model made"
            ),
            Refused::NotOneCall { container, calls } if calls.is_empty() => format!(
                "the value is a whole {container} holding no tool call (the model answered \
                 without calling a tool): there are no arguments to check"
            ),
            Refused::NotOneCall { container, calls } => {
                let mut listed: Vec<String> = calls
                    .iter()
                    .take(CALLS_LISTED)
                    .map(|c| {
                        let at = c.within.as_ref().map_or("", |w| w.call_at.as_str());
                        match &c.name {
                            Some(n) => format!("{n:?} at {at}"),
                            None => format!("an unnamed call at {at}"),
                        }
                    })
                    .collect();
                if calls.len() > CALLS_LISTED {
                    listed.push(format!("and {} more", calls.len() - CALLS_LISTED));
                }
                let skipped = calls
                    .first()
                    .and_then(|c| c.within.as_ref())
                    .map(|w| free_text_said(&w.free_text))
                    .unwrap_or_default();
                format!(
                    "the value is a whole {container} holding {} tool calls ({}){skipped}; \
                     `args` checks one call at a time: pass each call alone (the object at its \
                     place)",
                    calls.len(),
                    listed.join(", ")
                )
            }
        }
    }
}

/// The custom tool calls skipped beside function calls, in words (`, besides …`), or nothing.
pub fn free_text_said(free_text: &[(String, Option<String>)]) -> String {
    if free_text.is_empty() {
        return String::new();
    }
    let listed: Vec<String> = free_text
        .iter()
        .map(|(at, name)| match name {
            Some(n) => format!("{n:?} at {at}"),
            None => format!("an unnamed call at {at}"),
        })
        .collect();
    format!(
        ", besides {} custom tool call{} ({}), skipped: custom tools take free text, not JSON \
         arguments",
        free_text.len(),
        if free_text.len() == 1 { "" } else { "s" },
        listed.join(", ")
    )
}

/// One shape: the member holding the arguments, and what else marks it.
struct Shape {
    name: &'static str,
    /// Keys from the top-level object down to the object holding `name` and the arguments.
    wrapper: Option<&'static str>,
    /// The member holding the arguments.
    payload: &'static str,
    /// The `type` the shape carries, if it must carry one.
    kind: Option<&'static str>,
    /// The `type` the shape carries where it may leave it out (Chat Completions' `function`,
    /// which a pasted call may lack): checked only when the value has declared keys.
    optional_kind: Option<&'static str>,
    /// Every top-level key the shape's call has, from the provider's reference (the SDKs'
    /// generated types: anthropic `ToolUseBlockParam`, openai `ResponseFunctionToolCall`): a
    /// value with declared keys is a call only when all its keys are among these.
    keys: &'static [&'static str],
    /// The JSON type the payload has in the shape (OpenAI's `arguments` are a string), checked
    /// when the value has declared keys.
    payload_type: Payload,
    /// Whether the call may leave the payload out, meaning no arguments (`{}`): only where
    /// the provider's reference says so.
    payload_optional: bool,
    /// Every key the object holding the name and payload may have, where that must be
    /// checked: a Gemini `function_call` holds `args`, never the legacy OpenAI one's
    /// `arguments`.
    holder_keys: Option<&'static [&'static str]>,
}

/// The JSON types a shape's payload may have.
#[derive(Clone, Copy)]
enum Payload {
    Object,
    String,
    ObjectOrString,
    /// A string of free text, not JSON arguments (OpenAI's custom tools): refused, as
    /// there is no schema to check it against.
    FreeText,
}

impl Payload {
    fn admits(self, value: &Value) -> bool {
        match self {
            Payload::Object => value.is_object(),
            Payload::String | Payload::FreeText => value.is_string(),
            Payload::ObjectOrString => value.is_object() || value.is_string(),
        }
    }
}

/// In the order a message names them.
const SHAPES: &[Shape] = &[
    // `function.arguments` is a string: "The arguments to call the function with, as generated
    // by the model in JSON format" (OpenAI's "The chat completion object",
    // https://platform.openai.com/docs/api-reference/chat/object, checked 2026-12-05 against
    // openai-python's `Function.arguments: str`, generated from it, not the page itself).
    Shape {
        name: "OpenAI Chat Completions tool call",
        wrapper: Some("function"),
        payload: "arguments",
        kind: None,
        optional_kind: Some("function"),
        keys: &["id", "type", "function", "index"],
        payload_type: Payload::String,
        payload_optional: false,
        holder_keys: None,
    },
    // FunctionCall's `args` is optional (google-genai `FunctionCall.args: Optional[dict]`;
    // "args: Optional. The function parameters and values in JSON object format",
    // https://ai.google.dev/api/python/google/ai/generativelanguage/FunctionCall, read
    // 2026-12-04): a call to a tool without parameters leaves it out. Only the part, marked by
    // its `functionCall`, is read so: a bare `{"name": …}` is as likely the arguments.
    Shape {
        name: "Gemini functionCall part",
        wrapper: Some("functionCall"),
        payload: "args",
        kind: None,
        optional_kind: None,
        keys: &["functionCall", "thoughtSignature", "thought"],
        payload_type: Payload::Object,
        payload_optional: true,
        holder_keys: None,
    },
    // The protobuf JSON mapping takes a field's original snake_case name as well as its
    // lowerCamelCase one ("Parsers accept both the lowerCamelCase name (or the one specified
    // by the json_name option) and the original proto field name",
    // https://protobuf.dev/programming-guides/json/, as quoted in awakesecurity/proto3-suite#206,
    // 2022-07-06), and Vertex AI's Python SDK writes `function_call`: the same part.
    Shape {
        name: "Gemini function_call part",
        wrapper: Some("function_call"),
        payload: "args",
        kind: None,
        optional_kind: None,
        keys: &["function_call", "thought_signature", "thought"],
        payload_type: Payload::Object,
        payload_optional: true,
        holder_keys: Some(&["id", "name", "args"]),
    },
    Shape {
        name: RESPONSES_CALL,
        wrapper: None,
        payload: "arguments",
        kind: Some("function_call"),
        optional_kind: None,
        keys: &["type", "id", "call_id", "name", "arguments", "status"],
        payload_type: Payload::String,
        payload_optional: false,
        holder_keys: None,
    },
    // `input` is an object (Anthropic's Messages API reference,
    // https://docs.anthropic.com/en/api/messages, the `tool_use` content block; checked
    // 2026-12-05 against anthropic-sdk-python's `ToolUseBlockParam.input:
    // Required[Dict[str, object]]`, generated from its OpenAPI spec, not the page itself).
    Shape {
        name: "Anthropic tool_use block",
        wrapper: None,
        payload: "input",
        kind: Some("tool_use"),
        optional_kind: None,
        keys: &[
            "type",
            "id",
            "name",
            "input",
            "cache_control",
            "caller",
            "toolset_name",
        ],
        payload_type: Payload::Object,
        payload_optional: false,
        holder_keys: None,
    },
    // Converse's ContentBlock is a union (one member); its ToolUseBlock is
    // `{toolUseId, name, input, type?}` ("ToolUseBlock", Amazon Bedrock API Reference,
    // https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolUseBlock.html,
    // read 2026-12-04): `input` a JSON value, in practice the arguments object.
    Shape {
        name: "Bedrock Converse toolUse block",
        wrapper: Some("toolUse"),
        payload: "input",
        kind: None,
        optional_kind: None,
        keys: &["toolUse"],
        payload_type: Payload::Object,
        payload_optional: false,
        holder_keys: None,
    },
    Shape {
        name: "Gemini FunctionCall",
        wrapper: None,
        payload: "args",
        kind: None,
        optional_kind: None,
        keys: &["id", "name", "args"],
        payload_type: Payload::Object,
        payload_optional: false,
        holder_keys: None,
    },
    // Chat Completions' deprecated `function_call` member of an assistant message,
    // `{name, arguments: str}` (openai-python `ChatCompletionMessage.function_call`), the one
    // call a message made before `tool_calls`.
    Shape {
        name: LEGACY_CHAT_CALL,
        wrapper: Some("function_call"),
        payload: "arguments",
        kind: None,
        optional_kind: None,
        keys: CHAT_MESSAGE_KEYS,
        payload_type: Payload::String,
        payload_optional: false,
        holder_keys: None,
    },
    // OpenAI's custom tools take free text (openai-python `ChatCompletionMessageCustomToolCall`
    // `{id, type: "custom", custom: {name, input: str}}` and `ResponseCustomToolCall`
    // `{type: "custom_tool_call", call_id, name, input: str, id?, caller?, namespace?}`): read
    // to be refused rather than taken for arguments or for a `{name, input}` call.
    Shape {
        name: "OpenAI Chat Completions custom tool call",
        wrapper: Some("custom"),
        payload: "input",
        kind: Some("custom"),
        optional_kind: None,
        keys: &["id", "type", "custom"],
        payload_type: Payload::FreeText,
        payload_optional: false,
        holder_keys: None,
    },
    Shape {
        name: "OpenAI Responses custom_tool_call item",
        wrapper: None,
        payload: "input",
        kind: Some("custom_tool_call"),
        optional_kind: None,
        keys: &[
            "type",
            "id",
            "call_id",
            "name",
            "input",
            "caller",
            "namespace",
        ],
        payload_type: Payload::FreeText,
        payload_optional: false,
        holder_keys: None,
    },
    Shape {
        name: "{name, input} call",
        wrapper: None,
        payload: "input",
        kind: None,
        optional_kind: None,
        keys: &["name", "input"],
        payload_type: Payload::Object,
        payload_optional: false,
        holder_keys: None,
    },
    Shape {
        name: "{name, arguments} call",
        wrapper: None,
        payload: "arguments",
        kind: None,
        optional_kind: None,
        keys: &["name", "arguments"],
        payload_type: Payload::ObjectOrString,
        payload_optional: false,
        holder_keys: None,
    },
];

/// The envelope `call` (parsed from `text`) is, if it is one: `Ok(None)` when it is not (it is
/// then the arguments), `Err` when it fits more than one shape. `declared` are the schema's
/// top-level property names: a call using any of them as a key is arguments unless it is a
/// shape exactly and has a key left undeclared (see the module's comment).
pub fn read(text: &str, call: &Value, declared: &[&str]) -> Result<Option<Envelope>, Refused> {
    let Some(top) = call.as_object() else {
        return Ok(None);
    };
    // A set: the arguments may have as many keys as the schema has properties.
    let declared: HashSet<&str> = declared.iter().copied().collect();
    let is_declared = |k: &String| declared.contains(k.as_str());
    let loose = !top.keys().any(is_declared);
    if !loose && top.keys().all(is_declared) {
        // Every key an argument: read as the arguments the tool declares.
        return Ok(None);
    }
    if let Some(read) = streamed(text, top, loose) {
        return read;
    }
    if let Some(turn) = RESULT_TURNS.iter().find(|t| t.is(top, loose)) {
        return Err(Refused::ToolResult {
            container: turn.container,
            result: turn.result,
        });
    }
    if let Some((container, result)) = result_message(top, loose) {
        return Err(Refused::ToolResult { container, result });
    }
    match one_call(text, top, loose)? {
        Some(e) if e.shape == LEGACY_CHAT_CALL => beside_tool_calls(text, top, loose, e),
        Some(e) => Ok(Some(e)),
        None => in_container(text, top, loose),
    }
}

/// A message's legacy `function_call` (`legacy`), with the calls of its `tool_calls` when it
/// has any too: each is a call, so the message holds several.
fn beside_tool_calls(
    text: &str,
    top: &Map<String, Value>,
    loose: bool,
    mut legacy: Envelope,
) -> Result<Option<Envelope>, Refused> {
    let container = CHAT_MESSAGE;
    let others = match in_container(text, top, loose) {
        Ok(Some(e)) => vec![e],
        Err(Refused::NotOneCall { calls, .. }) if !calls.is_empty() => calls,
        // Custom calls alone beside it: the one call, which says it skipped them.
        Err(Refused::FreeText { .. }) => {
            let message = CONTAINERS.iter().find(|c| c.name == container);
            let read = message.map(|c| calls_in(c, text, top)).transpose()?;
            let free_text = read.map_or_else(Vec::new, |(_, custom, _)| skipped(custom));
            legacy.within = Some(Within {
                container,
                call_at: "/function_call".to_string(),
                free_text,
            });
            return Ok(Some(legacy));
        }
        _ => return Ok(Some(legacy)),
    };
    legacy.within = Some(Within {
        container,
        call_at: "/function_call".to_string(),
        free_text: others
            .first()
            .and_then(|e| e.within.as_ref())
            .map(|w| w.free_text.clone())
            .unwrap_or_default(),
    });
    let mut calls = vec![legacy];
    calls.extend(others);
    Err(Refused::NotOneCall { container, calls })
}

/// [`read`] for the shapes of one call: `loose` when no key of `top` is declared (else only
/// an exact shape counts).
fn one_call(
    text: &str,
    top: &Map<String, Value>,
    loose: bool,
) -> Result<Option<Envelope>, Refused> {
    let fits: Vec<&Shape> = SHAPES
        .iter()
        .filter(|s| fits(s, top) && (loose || exactly(s, top)))
        .collect();
    // A specific shape (marked by its wrapper or `type`) implies the generic ones it also
    // fits (`{name, arguments}`); only two specific ones, or two payloads, are ambiguous.
    let specific: Vec<&&Shape> = fits
        .iter()
        .filter(|s| s.wrapper.is_some() || s.kind.is_some())
        .collect();
    let shape = match (specific.as_slice(), fits.as_slice()) {
        ([one], _) => **one,
        ([], [one]) => *one,
        ([], []) => return Ok(None),
        ([], _) => {
            return Err(Refused::Ambiguous(fits.iter().map(|s| s.name).collect()));
        }
        (specific, _) => {
            return Err(Refused::Ambiguous(
                specific.iter().map(|s| s.name).collect(),
            ));
        }
    };
    let (holder, holder_text, mut pointer) = match shape.wrapper {
        Some(w) => {
            let inner = top.get(w).and_then(Value::as_object);
            let span = member_text(text, w);
            match (inner, span) {
                (Some(inner), Some(span)) => (inner, span, format!("/{w}")),
                _ => return Ok(None),
            }
        }
        None => (top, text, String::new()),
    };
    let payload = holder.get(shape.payload);
    let text = match (payload, member_text(holder_text, shape.payload)) {
        // OpenAI's form: the arguments are the text inside the string, decoded here once, as
        // the application's `json.loads(arguments)` does. Where the payload is an object
        // (Anthropic's `input`), a string is the value the tool gets: its text as written.
        (Some(Value::String(inner)), Some(_))
            if matches!(
                shape.payload_type,
                Payload::String | Payload::ObjectOrString
            ) =>
        {
            inner.clone()
        }
        (Some(_), Some(payload_text)) => payload_text.to_string(),
        (Some(_), None) => return Ok(None),
        // Left out where the shape may leave it out (else it would not fit): no arguments.
        (None, _) => "{}".to_string(),
    };
    pointer.push('/');
    pointer.push_str(shape.payload);
    let name = holder
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_string);
    if matches!(shape.payload_type, Payload::FreeText) {
        return Err(Refused::FreeText {
            shape: shape.name,
            name,
        });
    }
    Ok(Some(Envelope {
        shape: shape.name,
        name,
        pointer,
        text,
        within: None,
        left_out: payload.is_none(),
    }))
}

/// What one event of a stream holds, to `args`.
#[derive(Clone, Copy)]
enum Holds {
    /// A piece of a call at most (a delta; a block's or item's start, its input still empty):
    /// refused as [`Refused::StreamPiece`].
    Piece,
    /// The Responses output item whole, at `item`: read as that call when it is a function
    /// call.
    Item,
    /// The call's whole arguments, a JSON string at `arguments` (with its `name` where the
    /// event carries one): read as that call's arguments.
    Arguments,
    /// The response whole, at `response` (`response.completed`): read as that response.
    Response,
}

/// How an event is told.
enum Tag {
    /// Its `type` (OpenAI Responses, Anthropic).
    Type(&'static str),
    /// Its one member, an object holding the second key (Bedrock's event union).
    Member(&'static str, &'static str),
    /// A Chat Completions chunk: `object: "chat.completion.chunk"`, or choices that are all
    /// `delta`s (a pasted chunk may lack `object`).
    Chunk,
    /// One tool call of a Chat Completions chunk's delta, given alone
    /// ([`delta_lacks`]).
    ToolCallDelta,
    /// A Chat Completions chunk's `delta`, a message one of whose tool calls is a tool call
    /// delta ([`delta_piece_at`]).
    ChunkDelta,
    /// One choice of a Chat Completions chunk, given alone ([`chunk_choice`]).
    ChunkChoice,
}

/// One event of a provider's stream.
struct Event {
    /// As the provider's reference names it.
    name: &'static str,
    tag: Tag,
    /// Every top-level key the event has: with declared keys it is read only when all its
    /// keys are among these, as [`exactly`] does for one call.
    keys: &'static [&'static str],
    holds: Holds,
}

const RESPONSES_EVENT_KEYS: &[&str] = &[
    "type",
    "item_id",
    "output_index",
    "content_index",
    "sequence_number",
    "item",
    "part",
    "delta",
    "text",
    "logprobs",
    "arguments",
    "name",
    "response",
];

const COHERE_EVENT_KEYS: &[&str] = &["type", "id", "index", "delta", "logprobs"];

const ANTHROPIC_EVENT_KEYS: &[&str] = &[
    "type",
    "index",
    "message",
    "content_block",
    "delta",
    "usage",
];

/// The events of the providers' streams that a streamed tool call comes in, as their API
/// references name them (the pages below; the names checked on 2026-12-05 against the SDKs'
/// generated types and copies of the pages, not the pages themselves):
/// - OpenAI Chat Completions, "The chat completion chunk object"
///   (https://platform.openai.com/docs/api-reference/chat-streaming): `object:
///   "chat.completion.chunk"`, `choices[].delta.tool_calls[]` each a piece of a call (its
///   `function.arguments` a fragment of the text); one such item alone too, while it is not
///   yet a whole call ([`delta_lacks`]), and the `delta` holding one (`choices[].delta`,
///   openai-python's `ChoiceDelta`: `role`, `content`, `refusal`, `function_call` and
///   `tool_calls`, each optional; [`delta_piece_at`]), and the choice holding it
///   (`choices[]`: `index`, `delta`, `finish_reason`, `logprobs`; [`chunk_choice`]).
/// - OpenAI Responses streaming events
///   (https://platform.openai.com/docs/api-reference/responses-streaming):
///   `response.output_item.added` (the `function_call` item with its arguments still to
///   come), `response.function_call_arguments.delta` (a fragment), then
///   `response.function_call_arguments.done` (`arguments`: "the function-call arguments",
///   whole, as openai-python's `ResponseFunctionCallArgumentsDoneEvent` has them; newer
///   events add the function's `name`) and `response.output_item.done` (the item whole).
///   Both of these hold the whole arguments, so they are read as the call: a stream logged
///   event by event is checked from its last event.
/// - Anthropic "Streaming Messages" (https://docs.anthropic.com/en/api/messages-streaming):
///   `message_start` (the message, `content` empty), `content_block_start` (a `tool_use`
///   block whose `input` is `{}` until its deltas), `content_block_delta`
///   (`input_json_delta`, a `partial_json` fragment), `content_block_stop`, `message_delta`,
///   `message_stop`: no event holds a whole call.
/// - Bedrock `ConverseStreamOutput`, a union of `messageStart`, `contentBlockStart`
///   (`start.toolUse` with `toolUseId` and `name`, no input), `contentBlockDelta`
///   (`delta.toolUse.input`, a fragment of the input's JSON text), `contentBlockStop`,
///   `messageStop`
///   (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html),
///   and `metadata` (usage and metrics): no event holds a whole call.
/// - The Responses stream's other events: `response.created` and `response.in_progress`
///   (the response so far), text and content-part events, pieces; `response.completed` and
///   `response.incomplete` hold the response whole, read as that response. Anthropic's `ping`
///   is a piece.
/// - Cohere v2's chat stream (https://docs.cohere.com/reference/chat-stream): `message-start`,
///   `content-start`/`-delta`/`-end`, `tool-plan-delta`, `tool-call-start`/`-delta`/`-end`
///   (the call's arguments come as fragments), `citation-start`/`-end`, `message-end`: no
///   event holds a whole call.
const EVENTS: &[Event] = &[
    Event {
        name: "OpenAI Chat Completions chat.completion.chunk",
        tag: Tag::Chunk,
        keys: CHAT_RESPONSE_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: CHAT_TOOL_CALL_DELTA,
        tag: Tag::ToolCallDelta,
        keys: &["index", "id", "type", "function"],
        holds: Holds::Piece,
    },
    Event {
        name: CHAT_DELTA,
        tag: Tag::ChunkDelta,
        keys: CHAT_DELTA_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "OpenAI Chat Completions chunk's choice",
        tag: Tag::ChunkChoice,
        keys: &["index", "delta", "finish_reason", "logprobs"],
        holds: Holds::Piece,
    },
    Event {
        name: "OpenAI Responses response.output_item.added event",
        tag: Tag::Type("response.output_item.added"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "OpenAI Responses response.function_call_arguments.delta event",
        tag: Tag::Type("response.function_call_arguments.delta"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "OpenAI Responses response.function_call_arguments.done event",
        tag: Tag::Type("response.function_call_arguments.done"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Arguments,
    },
    Event {
        name: "OpenAI Responses response.output_item.done event",
        tag: Tag::Type("response.output_item.done"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Item,
    },
    Event {
        name: "Anthropic message_start event",
        tag: Tag::Type("message_start"),
        keys: ANTHROPIC_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Anthropic content_block_start event",
        tag: Tag::Type("content_block_start"),
        keys: ANTHROPIC_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Anthropic content_block_delta event",
        tag: Tag::Type("content_block_delta"),
        keys: ANTHROPIC_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Anthropic content_block_stop event",
        tag: Tag::Type("content_block_stop"),
        keys: ANTHROPIC_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Anthropic message_delta event",
        tag: Tag::Type("message_delta"),
        keys: ANTHROPIC_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Anthropic message_stop event",
        tag: Tag::Type("message_stop"),
        keys: ANTHROPIC_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Bedrock ConverseStream messageStart event",
        tag: Tag::Member("messageStart", "role"),
        keys: &["messageStart"],
        holds: Holds::Piece,
    },
    Event {
        name: "Bedrock ConverseStream contentBlockStart event",
        tag: Tag::Member("contentBlockStart", "contentBlockIndex"),
        keys: &["contentBlockStart"],
        holds: Holds::Piece,
    },
    Event {
        name: "Bedrock ConverseStream contentBlockDelta event",
        tag: Tag::Member("contentBlockDelta", "contentBlockIndex"),
        keys: &["contentBlockDelta"],
        holds: Holds::Piece,
    },
    Event {
        name: "Bedrock ConverseStream contentBlockStop event",
        tag: Tag::Member("contentBlockStop", "contentBlockIndex"),
        keys: &["contentBlockStop"],
        holds: Holds::Piece,
    },
    Event {
        name: "Bedrock ConverseStream messageStop event",
        tag: Tag::Member("messageStop", "stopReason"),
        keys: &["messageStop"],
        holds: Holds::Piece,
    },
    Event {
        name: "OpenAI Responses response.created event",
        tag: Tag::Type("response.created"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "OpenAI Responses response.in_progress event",
        tag: Tag::Type("response.in_progress"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "OpenAI Responses response.output_text.delta event",
        tag: Tag::Type("response.output_text.delta"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "OpenAI Responses response.output_text.done event",
        tag: Tag::Type("response.output_text.done"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "OpenAI Responses response.content_part.added event",
        tag: Tag::Type("response.content_part.added"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "OpenAI Responses response.content_part.done event",
        tag: Tag::Type("response.content_part.done"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "OpenAI Responses response.completed event",
        tag: Tag::Type("response.completed"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Response,
    },
    Event {
        name: "OpenAI Responses response.incomplete event",
        tag: Tag::Type("response.incomplete"),
        keys: RESPONSES_EVENT_KEYS,
        holds: Holds::Response,
    },
    Event {
        name: "Anthropic ping event",
        tag: Tag::Type("ping"),
        keys: ANTHROPIC_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Bedrock ConverseStream metadata event",
        tag: Tag::Member("metadata", "usage"),
        keys: &["metadata"],
        holds: Holds::Piece,
    },
    Event {
        name: "Cohere v2 message-start event",
        tag: Tag::Type("message-start"),
        keys: COHERE_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Cohere v2 content-start event",
        tag: Tag::Type("content-start"),
        keys: COHERE_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Cohere v2 content-delta event",
        tag: Tag::Type("content-delta"),
        keys: COHERE_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Cohere v2 content-end event",
        tag: Tag::Type("content-end"),
        keys: COHERE_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Cohere v2 tool-plan-delta event",
        tag: Tag::Type("tool-plan-delta"),
        keys: COHERE_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Cohere v2 tool-call-start event",
        tag: Tag::Type("tool-call-start"),
        keys: COHERE_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Cohere v2 tool-call-delta event",
        tag: Tag::Type("tool-call-delta"),
        keys: COHERE_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Cohere v2 tool-call-end event",
        tag: Tag::Type("tool-call-end"),
        keys: COHERE_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Cohere v2 citation-start event",
        tag: Tag::Type("citation-start"),
        keys: COHERE_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Cohere v2 citation-end event",
        tag: Tag::Type("citation-end"),
        keys: COHERE_EVENT_KEYS,
        holds: Holds::Piece,
    },
    Event {
        name: "Cohere v2 message-end event",
        tag: Tag::Type("message-end"),
        keys: COHERE_EVENT_KEYS,
        holds: Holds::Piece,
    },
];

impl Tag {
    fn marks(&self, top: &Map<String, Value>) -> bool {
        match self {
            Tag::Type(kind) => str_is(top, "type", kind),
            Tag::Member(member, inner) => top
                .get(*member)
                .and_then(Value::as_object)
                .is_some_and(|m| m.contains_key(*inner)),
            Tag::Chunk => {
                str_is(top, "object", "chat.completion.chunk")
                    || top
                        .get("choices")
                        .and_then(Value::as_array)
                        .is_some_and(|choices| {
                            !choices.is_empty()
                                && choices
                                    .iter()
                                    .all(|c| c.get("delta").is_some_and(Value::is_object))
                        })
            }
            Tag::ToolCallDelta => delta_lacks(top).is_some(),
            Tag::ChunkDelta => delta_piece_at(top).is_some(),
            Tag::ChunkChoice => chunk_choice(top),
        }
    }

    /// Why `top`, which this tag marks, is a piece, where the event's name does not say: what
    /// its tool call delta lacks to be a whole call.
    fn why(&self, top: &Map<String, Value>) -> Option<String> {
        match self {
            Tag::ToolCallDelta => delta_lacks(top).map(|lacks| {
                format!(
                    "it has an `index` and {lacks}; a call assembled from a stream that was cut \
                     short looks the same, and is checked as a call without its `index`"
                )
            }),
            Tag::ChunkDelta => delta_piece_at(top).map(|(i, lacks)| {
                format!(
                    "its tool call at /tool_calls/{i} has an `index` and {lacks}; a message \
                     assembled from a stream that was cut short looks the same, and is read as \
                     a message without its calls' `index`"
                )
            }),
            _ => None,
        }
    }
}

const CHAT_TOOL_CALL_DELTA: &str = "OpenAI Chat Completions chunk's tool call delta";

const CHAT_DELTA: &str = "OpenAI Chat Completions chunk's delta";

/// openai-python `ChoiceDelta`'s keys, each optional.
const CHAT_DELTA_KEYS: &[&str] = &["role", "content", "refusal", "function_call", "tool_calls"];

/// What `top` lacks to be a whole call when it is one `choices[].delta.tool_calls[]` item of a
/// Chat Completions chunk, a piece of a call, in words (`no function name`); `None` when it is
/// no such item or is whole. openai-python's `ChoiceDeltaToolCall` (generated from OpenAI's
/// API spec, src/openai/types/chat/chat_completion_chunk.py, read 2026-12-05) is `{index: int,
/// id?, type?, function?: {name?, arguments?}}`, the `index` required, where a reply's call
/// (`ChatCompletionMessageFunctionToolCall`) has none. A call assembled from the stream keeps
/// its `index` though (openai-python's `accumulate_delta`, src/openai/lib/streaming/_deltas.py,
/// read 2026-12-05, merges the deltas into the first, `index` and all), so only an item that
/// cannot be a whole call is one: without its function's `name`, or without `arguments` that
/// are one whole JSON value (OpenAI's first delta has `""`, the next ones fragments).
fn delta_lacks(top: &Map<String, Value>) -> Option<&'static str> {
    let function = top.get("function").and_then(Value::as_object)?;
    if !(top.get("index").is_some_and(Value::is_u64) && absent_or(top, "type", "function")) {
        return None;
    }
    let named = function.get("name").is_some_and(Value::is_string);
    let whole = function.get("arguments").map(|arguments| match arguments {
        Value::String(text) => serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok(),
        arguments => arguments.is_object(),
    });
    match (named, whole) {
        (true, Some(true)) => None,
        (true, Some(false)) => Some("its arguments are not whole JSON"),
        (true, None) => Some("no arguments"),
        (false, Some(true)) => Some("no function name"),
        (false, Some(false)) => Some("no function name, and its arguments are not whole JSON"),
        (false, None) => Some("neither a function name nor arguments"),
    }
}

/// The first tool call of `top` that is a piece ([`delta_lacks`]), its place in `tool_calls`
/// and what it lacks, when `top` is a Chat Completions chunk's `delta` (`role` absent, as after
/// the first chunk, or `assistant`). One piece is enough: the message holding it is not whole,
/// and its other calls read alone would leave the piece unchecked.
fn delta_piece_at(top: &Map<String, Value>) -> Option<(usize, &'static str)> {
    if !absent_or(top, "role", "assistant") {
        return None;
    }
    let calls = top.get("tool_calls")?.as_array()?;
    calls
        .iter()
        .enumerate()
        .find_map(|(i, call)| Some((i, delta_lacks(call.as_object()?)?)))
}

/// `top` is one `choices[]` item of a Chat Completions chunk: `{index, delta, finish_reason,
/// logprobs}` (OpenAI's "The chat completion chunk object",
/// https://platform.openai.com/docs/api-reference/chat-streaming, checked 2026-12-05 against
/// the SDKs' generated types, openai-python's and openai-node's `ChatCompletionChunk.Choice`,
/// not the page itself), its `delta` a `ChoiceDelta` ([`CHAT_DELTA_KEYS`] only, `role` absent or
/// `assistant`) carrying its `index` or a tool call delta ([`delta_piece_at`]). A
/// reply's choice has `message` instead, so any chunk's choice is a piece of a reply, as the
/// chunk holding it is.
fn chunk_choice(top: &Map<String, Value>) -> bool {
    let Some(delta) = top.get("delta").and_then(Value::as_object) else {
        return false;
    };
    delta.keys().all(|k| CHAT_DELTA_KEYS.contains(&k.as_str()))
        && absent_or(delta, "role", "assistant")
        && (top.get("index").is_some_and(Value::is_u64) || delta_piece_at(delta).is_some())
}

/// [`read`] for one event of a streamed reply ([`EVENTS`]): `None` when `top` is none (with
/// declared keys, only an event exactly), else the call it holds whole or its refusal as a
/// piece.
fn streamed(
    text: &str,
    top: &Map<String, Value>,
    loose: bool,
) -> Option<Result<Option<Envelope>, Refused>> {
    let event = EVENTS.iter().find(|e| {
        e.tag.marks(top) && (loose || top.keys().all(|k| e.keys.contains(&k.as_str())))
    })?;
    let piece = Err(Refused::StreamPiece {
        event: event.name,
        why: event.tag.why(top),
    });
    Some(match event.holds {
        Holds::Piece => piece,
        Holds::Arguments => match top.get("arguments") {
            Some(Value::String(arguments)) => Ok(Some(Envelope {
                shape: event.name,
                name: top.get("name").and_then(Value::as_str).map(str::to_string),
                pointer: "/arguments".to_string(),
                text: arguments.clone(),
                within: None,
                left_out: false,
            })),
            _ => piece,
        },
        Holds::Response => {
            let response = top.get("response").and_then(Value::as_object);
            match (response, member_text(text, "response")) {
                (Some(r), Some(r_text)) => match in_container(r_text, r, true) {
                    Ok(Some(e)) => Ok(Some(under("/response", e))),
                    Err(Refused::NotOneCall { container, calls }) => Err(Refused::NotOneCall {
                        container,
                        calls: calls.into_iter().map(|e| under("/response", e)).collect(),
                    }),
                    Err(refused) => Err(refused),
                    Ok(None) => piece,
                },
                _ => piece,
            }
        }
        Holds::Item => {
            let item = top.get("item").and_then(Value::as_object);
            match (item, member_text(text, "item")) {
                (Some(item), Some(item_text)) => match one_call(item_text, item, true) {
                    Ok(Some(mut e)) if e.shape == RESPONSES_CALL => {
                        e.pointer = format!("/item{}", e.pointer);
                        e.within = Some(Within {
                            container: event.name,
                            call_at: "/item".to_string(),
                            free_text: Vec::new(),
                        });
                        Ok(Some(e))
                    }
                    Err(refused) => Err(refused),
                    // A message or reasoning item: no call.
                    Ok(_) => piece,
                },
                _ => piece,
            }
        }
    })
}

/// A message or item that is one tool's result, sent back to the model, as (container, what
/// marks it): a Chat Completions message with `role: "tool"` and its `tool_call_id` (openai-
/// python `ChatCompletionToolMessageParam` `{role, content, tool_call_id}`; Ollama's and
/// Mistral's tool messages add `name` or `tool_name`), or a Responses `function_call_output`
/// item (`ResponseInputItemParam.FunctionCallOutput` `{type, call_id, output, id?, status?}`).
/// With declared keys, only exactly these (trial 44: both passed as the arguments, `ok`).
fn result_message(top: &Map<String, Value>, loose: bool) -> Option<(&'static str, &'static str)> {
    let exactly = |keys: &[&str]| loose || top.keys().all(|k| keys.contains(&k.as_str()));
    if str_is(top, "role", "tool")
        && top.contains_key("content")
        && exactly(&["role", "content", "tool_call_id", "name", "tool_name"])
    {
        return Some(("Chat Completions message", "`role: tool` message"));
    }
    if str_is(top, "type", "function_call_output")
        && top.contains_key("output")
        && exactly(&["type", "call_id", "output", "id", "status"])
    {
        return Some(("Responses input item", "`function_call_output` item"));
    }
    None
}

/// `e`, read in the member at `prefix` of the value given: its places made the value's.
fn under(prefix: &str, mut e: Envelope) -> Envelope {
    e.pointer = format!("{prefix}{}", e.pointer);
    if let Some(w) = &mut e.within {
        w.call_at = format!("{prefix}{}", w.call_at);
        for (at, _) in &mut w.free_text {
            *at = format!("{prefix}{at}");
        }
    }
    e
}

/// A user turn that sends tools' results back to the model: what the caller sends, never
/// what the model returns, so no call is in it.
struct ResultTurn {
    container: &'static str,
    /// Its `role` (`user`), which Gemini's Content may leave out.
    role_optional: bool,
    /// The member holding its items.
    items: &'static str,
    /// Every top-level key it has: with declared keys it is read only when all its keys are
    /// among these.
    keys: &'static [&'static str],
    /// What a result is in it, and how an item is told as one.
    result: &'static str,
    is_result: fn(&Value) -> bool,
}

/// From the providers' references (shapes checked on 2026-12-05 against the SDKs' generated
/// types and copies of the pages, not the pages themselves): Gemini's `Content` with `role: "user"` and
/// `functionResponse` parts ("FunctionResponse: the result output from a FunctionCall",
/// https://ai.google.dev/api/caching#FunctionResponse; `role` optional, see
/// the Gemini Content container); Anthropic's user message with `tool_result` blocks
/// (https://docs.anthropic.com/en/docs/build-with-claude/tool-use);
/// Converse's user message with `toolResult` blocks
/// (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultBlock.html).
const RESULT_TURNS: &[ResultTurn] = &[
    ResultTurn {
        container: "Gemini Content",
        role_optional: true,
        items: "parts",
        keys: &["role", "parts"],
        result: "functionResponse part",
        is_result: |p| {
            ["functionResponse", "function_response"]
                .iter()
                .any(|k| p.get(*k).is_some_and(Value::is_object))
        },
    },
    ResultTurn {
        container: "Anthropic message",
        role_optional: false,
        items: "content",
        keys: &["role", "content"],
        result: "tool_result block",
        is_result: |b| b.get("type").and_then(Value::as_str) == Some("tool_result"),
    },
    ResultTurn {
        container: "Bedrock Converse message",
        role_optional: false,
        items: "content",
        keys: &["role", "content"],
        result: "toolResult block",
        is_result: |b| b.get("toolResult").is_some_and(Value::is_object),
    },
];

impl ResultTurn {
    /// Whether `top` is this turn holding a result (with declared keys, only exactly).
    fn is(&self, top: &Map<String, Value>, loose: bool) -> bool {
        let role = if self.role_optional {
            // Gemini's Content: a functionResponse is sent back under `user`, or the older
            // samples' `function` (trial 44: `role: "function"` passed as the arguments).
            absent_or(top, "role", "user") || str_is(top, "role", "function")
        } else {
            str_is(top, "role", "user")
        };
        role && (loose || top.keys().all(|k| self.keys.contains(&k.as_str())))
            && top
                .get(self.items)
                .and_then(Value::as_array)
                .is_some_and(|items| items.iter().any(self.is_result))
    }
}

/// One step from a message or response down to its calls.
enum Step {
    /// The member of this name.
    Key(&'static str),
    /// Each item of the array.
    Each,
}

/// A message or response that holds calls, as a provider returns it.
struct Container {
    name: &'static str,
    /// Every top-level key it has, from the provider's reference: with declared keys it is
    /// read only when all its keys are among these, as [`exactly`] does for one call.
    keys: &'static [&'static str],
    /// What marks it at the top (a role, an array where the calls are).
    marks: fn(&Map<String, Value>) -> bool,
    /// From the top to each item that may be a call.
    path: &'static [Step],
    /// The shapes a call in it has; other items (text, reasoning) are not calls.
    calls: &'static [&'static str],
    /// Whether `top`, exactly this container and holding no call, is a reply calling no tool
    /// (refused), given whether items were found at `path`. Without items it is not told from
    /// arguments named as its keys (`{"output": []}`), save where the reply's own marks tell
    /// it: an assistant or model role, an `object` naming the response, Gemini's
    /// `promptFeedback` or candidates (a candidate may lack `content`, and a blocked prompt
    /// gets no candidates).
    no_call: fn(&Map<String, Value>, bool) -> bool,
}

fn str_is(top: &Map<String, Value>, key: &str, want: &str) -> bool {
    top.get(key).and_then(Value::as_str) == Some(want)
}

/// `key` is absent or the string `want` (a pasted message may leave its `type` out).
fn absent_or(top: &Map<String, Value>, key: &str, want: &str) -> bool {
    top.get(key).is_none_or(|v| v.as_str() == Some(want))
}

fn is_array(top: &Map<String, Value>, key: &str) -> bool {
    top.get(key).is_some_and(Value::is_array)
}

/// A Chat Completions assistant message, with calls or none: openai-python's
/// `ChatCompletionMessage` has `role: "assistant"`, `content: Optional[str]` and
/// `tool_calls: Optional[List[…]]`, null or left out when the model calls no tool. An array
/// `content` without `tool_calls` is left to the Anthropic message it also is.
fn chat_message(m: &Map<String, Value>) -> bool {
    str_is(m, "role", "assistant")
        && match m.get("tool_calls") {
            Some(calls) => calls.is_array() || calls.is_null(),
            None => m
                .get("content")
                .is_none_or(|c| c.is_string() || c.is_null()),
        }
}

/// A Chat Completions assistant message written without its `role`, holding calls: LangChain
/// keeps a message's provider fields as `AIMessage.additional_kwargs`, which for an OpenAI reply
/// is `{"tool_calls": [...]}` alone (trial 70 D4: checked as the arguments, the model was told
/// an argument it sent was missing). As a Gemini `Content` without `role`, it is that message
/// only when it holds a call, and a tool declaring a `tool_calls` argument gets it as the
/// arguments ([`read`]: a value whose keys are all declared is).
fn roleless_chat_message(m: &Map<String, Value>) -> bool {
    !m.contains_key("role") && is_array(m, "tool_calls")
}

/// A reply whose `message` is the assistant's (Ollama's, Cohere's).
fn assistant_message(t: &Map<String, Value>) -> bool {
    t.get("message")
        .and_then(Value::as_object)
        .is_some_and(|m| str_is(m, "role", "assistant"))
}

/// From a reply to the calls of its `message` (Ollama's, Cohere's).
const MESSAGE_TOOL_CALLS: &[Step] = &[Step::Key("message"), Step::Key("tool_calls"), Step::Each];

/// A Chat Completions response whose every choice's `message` is a [`chat_message`].
fn chat_response(t: &Map<String, Value>) -> bool {
    t.get("choices")
        .and_then(Value::as_array)
        .is_some_and(|choices| {
            !choices.is_empty()
                && choices.iter().all(|c| {
                    c.get("message")
                        .and_then(Value::as_object)
                        .is_some_and(chat_message)
                })
        })
}

/// openai-python `ChatCompletionMessage`, `ChatCompletionAssistantMessageParam`.
const CHAT_MESSAGE_KEYS: &[&str] = &[
    "role",
    "content",
    "refusal",
    "tool_calls",
    "function_call",
    "audio",
    "annotations",
    "name",
];

/// openai-python `ChatCompletion`.
const CHAT_RESPONSE_KEYS: &[&str] = &[
    "id",
    "choices",
    "created",
    "model",
    "object",
    "service_tier",
    "system_fingerprint",
    "usage",
];

const CHAT_MESSAGE: &str = "OpenAI Chat Completions message";

const CHAT_CHOICE: &str = "OpenAI Chat Completions response's choice";

/// openai-python `ChatCompletion.Choice`.
const CHAT_CHOICE_KEYS: &[&str] = &["index", "message", "finish_reason", "logprobs"];

/// One `choices[]` item of a Chat Completions response: its `index` and a [`chat_message`].
fn chat_choice(t: &Map<String, Value>) -> bool {
    t.get("index").is_some_and(Value::is_u64)
        && t.get("message")
            .and_then(Value::as_object)
            .is_some_and(chat_message)
}

const RESPONSES_CALL: &str = "OpenAI Responses function_call item";

const LEGACY_CHAT_CALL: &str = "OpenAI Chat Completions message with a legacy function_call";

const GEMINI_CALLS: &[&str] = &["Gemini functionCall part", "Gemini function_call part"];

const ANTHROPIC_CALLS: &[&str] = &["Anthropic tool_use block", "Bedrock Converse toolUse block"];

/// Keys from the SDKs' generated types (openai-python `ChatCompletionMessage`,
/// `ChatCompletionAssistantMessageParam`, `ChatCompletion`, `responses.Response`;
/// anthropic-sdk-python `Message`, `MessageParam`; google-genai `Content`,
/// `GenerateContentResponse`, whose `modelStatus` is the Gemini API's and `createTime`
/// Vertex AI's) and Bedrock's Converse API reference (`ConverseResponse`:
/// aws-sdk-bedrockruntime's `ConverseOutput`, `Message`).
const CONTAINERS: &[Container] = &[
    Container {
        name: CHAT_MESSAGE,
        keys: CHAT_MESSAGE_KEYS,
        marks: |t| chat_message(t) || roleless_chat_message(t),
        path: &[Step::Key("tool_calls"), Step::Each],
        calls: &["OpenAI Chat Completions tool call"],
        // Only the assistant's `role` tells a reply calling no tool: without it, `tool_calls`
        // holding no call is as likely an argument so named.
        no_call: |t, _| chat_message(t),
    },
    Container {
        name: "OpenAI Chat Completions response",
        keys: CHAT_RESPONSE_KEYS,
        marks: |t| absent_or(t, "object", "chat.completion") && is_array(t, "choices"),
        path: &[
            Step::Key("choices"),
            Step::Each,
            Step::Key("message"),
            Step::Key("tool_calls"),
            Step::Each,
        ],
        calls: &["OpenAI Chat Completions tool call"],
        // Its marks leave `object` out or `chat.completion`; `{"choices":[]}` alone stays
        // arguments.
        no_call: |t, items| items || str_is(t, "object", "chat.completion") || chat_response(t),
    },
    // The same response whose message calls by its legacy `function_call`.
    Container {
        name: "OpenAI Chat Completions response",
        keys: CHAT_RESPONSE_KEYS,
        marks: |t| absent_or(t, "object", "chat.completion") && is_array(t, "choices"),
        path: &[Step::Key("choices"), Step::Each, Step::Key("message")],
        calls: &[LEGACY_CHAT_CALL],
        // Its items are the messages, which any `{"choices":[{"message":…}]}` has: the
        // container above tells a reply without calls.
        no_call: |_, _| false,
    },
    // One choice of that response given alone: `{index, message, finish_reason, logprobs}`
    // (OpenAI's "The chat completion object",
    // https://platform.openai.com/docs/api-reference/chat/object, checked 2026-12-05 against
    // openai-python's and openai-node's `ChatCompletion.Choice`, not the page itself); its
    // `index` tells it from a Cohere v2 reply, which has none.
    Container {
        name: CHAT_CHOICE,
        keys: CHAT_CHOICE_KEYS,
        marks: chat_choice,
        path: &[Step::Key("message"), Step::Key("tool_calls"), Step::Each],
        calls: &["OpenAI Chat Completions tool call"],
        no_call: |_, _| true,
    },
    Container {
        name: CHAT_CHOICE,
        keys: CHAT_CHOICE_KEYS,
        marks: chat_choice,
        path: &[Step::Key("message")],
        calls: &[LEGACY_CHAT_CALL],
        no_call: |_, _| false,
    },
    Container {
        name: "Anthropic or Bedrock Converse message",
        keys: &[
            "id",
            "type",
            "role",
            "content",
            "model",
            "stop_reason",
            "stop_sequence",
            "usage",
            "container",
            "context_management",
        ],
        marks: |t| {
            str_is(t, "role", "assistant")
                && absent_or(t, "type", "message")
                && is_array(t, "content")
        },
        path: &[Step::Key("content"), Step::Each],
        calls: ANTHROPIC_CALLS,
        // `role: "assistant"` tells the reply, its `content` empty or not.
        no_call: |_, _| true,
    },
    Container {
        name: "Bedrock Converse response",
        keys: &[
            "output",
            "stopReason",
            "usage",
            "metrics",
            "additionalModelResponseFields",
            "trace",
            "performanceConfig",
            "serviceTier",
        ],
        marks: |t| {
            t.get("output")
                .and_then(|o| o.get("message"))
                .and_then(Value::as_object)
                .is_some_and(|m| str_is(m, "role", "assistant") && is_array(m, "content"))
        },
        path: &[
            Step::Key("output"),
            Step::Key("message"),
            Step::Key("content"),
            Step::Each,
        ],
        calls: ANTHROPIC_CALLS,
        // Its `output.message` with `role: "assistant"` tells the reply.
        no_call: |_, _| true,
    },
    // Content's `role` is optional ("Optional. The producer of the content. Must be either
    // 'user' or 'model'. ... can be left blank or unset",
    // https://ai.google.dev/api/python/google/ai/generativelanguage/Content, read 2026-12-04):
    // without it the value is that Content when it holds a call, else as likely arguments
    // named `parts`.
    Container {
        name: "Gemini Content",
        keys: &["role", "parts"],
        marks: |t| absent_or(t, "role", "model") && is_array(t, "parts"),
        path: &[Step::Key("parts"), Step::Each],
        calls: GEMINI_CALLS,
        no_call: |t, _| str_is(t, "role", "model"),
    },
    Container {
        name: "Gemini response",
        keys: &[
            "candidates",
            "promptFeedback",
            "usageMetadata",
            "modelVersion",
            "responseId",
            "createTime",
            "modelStatus",
            // The same fields by their proto names (see "Gemini function_call part").
            "prompt_feedback",
            "usage_metadata",
            "model_version",
            "response_id",
            "create_time",
            "model_status",
        ],
        // A prompt blocked gets `promptFeedback` and no `candidates`, a response blocked
        // candidates without `content`
        // (https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/process-blocked-responses,
        // read 2026-12-04).
        marks: |t| match t.get("candidates") {
            Some(c) => c.as_array().is_some_and(|c| c.iter().all(Value::is_object)),
            None => ["promptFeedback", "prompt_feedback"]
                .iter()
                .any(|k| t.get(*k).is_some_and(Value::is_object)),
        },
        path: &[
            Step::Key("candidates"),
            Step::Each,
            Step::Key("content"),
            Step::Key("parts"),
            Step::Each,
        ],
        calls: GEMINI_CALLS,
        no_call: |_, _| true,
    },
    Container {
        name: "OpenAI Responses response",
        keys: &[
            "id",
            "object",
            "created_at",
            "status",
            "error",
            "incomplete_details",
            "instructions",
            "metadata",
            "model",
            "output",
            "parallel_tool_calls",
            "temperature",
            "tool_choice",
            "tools",
            "top_p",
            "background",
            "conversation",
            "max_output_tokens",
            "max_tool_calls",
            "previous_response_id",
            "prompt",
            "prompt_cache_key",
            "prompt_cache_retention",
            "reasoning",
            "safety_identifier",
            "service_tier",
            "text",
            "top_logprobs",
            "truncation",
            "usage",
            "user",
        ],
        // Every output item carries its `type`: what tells the list from an `output`
        // argument that is an array.
        marks: |t| {
            absent_or(t, "object", "response")
                && t.get("output").and_then(Value::as_array).is_some_and(|o| {
                    o.iter()
                        .all(|i| i.get("type").is_some_and(Value::is_string))
                })
        },
        path: &[Step::Key("output"), Step::Each],
        calls: &[RESPONSES_CALL],
        no_call: |t, items| items || str_is(t, "object", "response"),
    },
    // Ollama's /api/chat reply: `{model, created_at, message: {role, content, tool_calls:
    // [{function: {name, arguments: {…}}}]}, done, …}` ("Generate a chat completion", the
    // "Chat request (with tools)" response, https://github.com/ollama/ollama/blob/main/docs/api.md,
    // shape checked 2026-12-05 against copies of the page): its message is the assistant's.
    Container {
        name: "Ollama /api/chat response",
        keys: &[
            "model",
            "created_at",
            "message",
            "done",
            "done_reason",
            "total_duration",
            "load_duration",
            "prompt_eval_count",
            "prompt_eval_duration",
            "eval_count",
            "eval_duration",
        ],
        marks: |t| t.get("done").is_some_and(Value::is_boolean) && assistant_message(t),
        path: MESSAGE_TOOL_CALLS,
        calls: &["OpenAI Chat Completions tool call"],
        // The assistant's message tells the reply, as an Anthropic message's role does.
        no_call: |_, _| true,
    },
    // Cohere's v2 chat reply: `{id, finish_reason, message: {role: "assistant", tool_plan,
    // tool_calls: [{id, type: "function", function: {name, arguments: "…"}}], content,
    // citations}, usage, logprobs}` (https://docs.cohere.com/reference/chat;
    // shape checked 2026-12-05 against Cohere's SDK types, not the page itself).
    Container {
        name: "Cohere v2 chat response",
        keys: &["id", "finish_reason", "message", "usage", "logprobs"],
        marks: |t| {
            t.get("finish_reason").is_some_and(Value::is_string)
                && !t.contains_key("index")
                && assistant_message(t)
        },
        path: MESSAGE_TOOL_CALLS,
        calls: &["OpenAI Chat Completions tool call"],
        no_call: |_, _| true,
    },
];

/// [`read`] for a message or response: the one call it holds, read as if given alone (its
/// pointers from the top), or [`Refused::NotOneCall`]. Where two containers fit (an OpenAI
/// message whose `content` is an array of parts), the one holding calls is it.
fn in_container(
    text: &str,
    top: &Map<String, Value>,
    loose: bool,
) -> Result<Option<Envelope>, Refused> {
    let mut first_empty = None;
    let mut first_custom = None;
    let mut found: Vec<(&'static str, Vec<Envelope>)> = Vec::new();
    // Custom calls by container: a reply read by two paths (a Chat Completions response's
    // `tool_calls` and its legacy `function_call`) may hold them on one path only.
    let mut customs: Vec<(&'static str, Skipped)> = Vec::new();
    for c in CONTAINERS {
        if !(c.marks)(top) || !(loose || top.keys().all(|k| c.keys.contains(&k.as_str()))) {
            continue;
        }
        let (calls, free_text, items) = calls_in(c, text, top)?;
        if calls.is_empty() {
            // Custom calls alone: nothing to check, as one alone is refused.
            if let Some((_, custom)) = free_text.first() {
                first_custom.get_or_insert(custom.clone());
                customs.push((c.name, skipped(free_text)));
                continue;
            }
            // Said only of the container exactly, with items or a reply without them: an
            // argument that happens to be named `output` or `candidates` stays an argument.
            let exact = top.keys().all(|k| c.keys.contains(&k.as_str()));
            if exact && (c.no_call)(top, items) {
                first_empty.get_or_insert(c.name);
            }
            continue;
        }
        customs.push((c.name, skipped(free_text)));
        // One reply read by two paths (a Chat Completions message's `tool_calls` and its
        // legacy `function_call`): its calls are all one list.
        match found.iter_mut().find(|f| f.0 == c.name) {
            Some(f) => f.1.extend(calls),
            None => found.push((c.name, calls)),
        }
    }
    // Custom calls beside function calls are skipped, which each call's note says.
    for (container, calls) in &mut found {
        let skipped: Skipped = customs
            .iter()
            .filter(|(c, _)| c == container)
            .flat_map(|(_, s)| s.iter().cloned())
            .collect();
        for e in calls.iter_mut() {
            if let Some(w) = &mut e.within {
                w.free_text.clone_from(&skipped);
            }
        }
    }
    match (found.len(), first_custom, first_empty) {
        (0, Some(custom), _) => Err(custom),
        (0, None, None) => Ok(None),
        (0, None, Some(container)) => Err(Refused::NotOneCall {
            container,
            calls: Vec::new(),
        }),
        (1, _, _) => {
            let (container, mut calls) = found.remove(0);
            if calls.len() == 1 {
                Ok(calls.pop())
            } else {
                Err(Refused::NotOneCall { container, calls })
            }
        }
        _ => Err(Refused::Ambiguous(found.iter().map(|f| f.0).collect())),
    }
}

/// The items of `c` in `top` (whose text is `text`) read as calls: the function calls (their
/// pointers from the top, `within` naming `c`), the custom tool calls (each its place and
/// [`Refused::FreeText`]), and whether `c`'s path led to any item.
fn calls_in(c: &Container, text: &str, top: &Map<String, Value>) -> Result<ItemCalls, Refused> {
    let mut items = Vec::new();
    items_at(top, text, String::new(), c.path, &mut items);
    let mut calls = Vec::new();
    let mut free_text = Vec::new();
    for (at, item, item_text) in &items {
        // The items are not arguments: read as calls with no declared keys (and as calls
        // only: a Chat Completions response's message is no container here).
        let Some(item) = item.as_object() else {
            continue;
        };
        let mut e = match one_call(item_text, item, true) {
            Ok(Some(e)) => e,
            Ok(None) => continue,
            Err(custom @ Refused::FreeText { .. }) => {
                free_text.push((at.clone(), custom));
                continue;
            }
            Err(refused) => return Err(refused),
        };
        if !c.calls.contains(&e.shape) {
            continue;
        }
        e.pointer = format!("{at}{}", e.pointer);
        e.within = Some(Within {
            container: c.name,
            call_at: at.clone(),
            free_text: Vec::new(),
        });
        calls.push(e);
    }
    Ok((calls, free_text, !items.is_empty()))
}

/// What [`calls_in`] finds among a container's items.
type ItemCalls = (Vec<Envelope>, Vec<(String, Refused)>, bool);

/// Custom tool calls skipped, as [`Within::free_text`] lists them: each its place and tool.
type Skipped = Vec<(String, Option<String>)>;

/// Custom tool calls ([`calls_in`]) as [`Within::free_text`] lists them.
fn skipped(free_text: Vec<(String, Refused)>) -> Skipped {
    free_text
        .into_iter()
        .map(|(at, custom)| match custom {
            Refused::FreeText { name, .. } => (at, name),
            _ => (at, None),
        })
        .collect()
}

/// The items `path` leads to from `top` (whose text is `text`), each with its pointer and
/// text; a step that finds nothing (a candidate without content) leads to none.
fn items_at<'v>(
    top: &'v Map<String, Value>,
    text: &'v str,
    pointer: String,
    path: &[Step],
    out: &mut Vec<(String, &'v Value, &'v str)>,
) {
    let Some((Step::Key(k), rest)) = path.split_first() else {
        return;
    };
    let (Some(value), Some(text)) = (top.get(*k), member_text(text, k)) else {
        return;
    };
    let pointer = format!("{pointer}/{k}");
    match rest.split_first() {
        None => out.push((pointer, value, text)),
        Some((Step::Key(_), _)) => {
            if let Some(inner) = value.as_object() {
                items_at(inner, text, pointer, rest, out);
            }
        }
        Some((Step::Each, after)) => {
            let (Some(items), Some(texts)) = (value.as_array(), element_texts(text)) else {
                return;
            };
            if items.len() != texts.len() {
                return;
            }
            for (i, (item, item_text)) in items.iter().zip(texts).enumerate() {
                let at = format!("{pointer}/{i}");
                match (after.is_empty(), item.as_object()) {
                    (true, _) => out.push((at, item, item_text)),
                    (false, Some(inner)) => items_at(inner, item_text, at, after, out),
                    (false, None) => {}
                }
            }
        }
    }
}

/// The text of each item of the JSON array `text`; `None` when it is not an array.
fn element_texts(text: &str) -> Option<Vec<&str>> {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, text.find('[')? + 1);
    let mut items = Vec::new();
    if bytes.get(at) == Some(&b']') {
        return Some(items);
    }
    loop {
        let (_, end) = next_value::<serde::de::IgnoredAny>(text, at)?;
        items.push(&text[at..end]);
        at = skip_space(bytes, end);
        match bytes.get(at) {
            Some(b',') => at = skip_space(bytes, at + 1),
            Some(b']') => return Some(items),
            _ => return None,
        }
    }
}

fn fits(shape: &Shape, top: &Map<String, Value>) -> bool {
    if let Some(kind) = shape.kind
        && top.get("type").and_then(Value::as_str) != Some(kind)
    {
        return false;
    }
    // A name is what makes `{name, args}` a call rather than arguments named `args`.
    holder(shape, top).is_some_and(|h| {
        h.get("name").is_some_and(Value::is_string)
            && (shape.payload_optional || h.contains_key(shape.payload))
            && shape
                .holder_keys
                .is_none_or(|keys| h.keys().all(|k| keys.contains(&k.as_str())))
    })
}

/// The object of `top` that holds the call's name and payload: `top` itself, or its
/// `shape.wrapper` member when the shape has one (`None` when that is not an object).
fn holder<'m>(shape: &Shape, top: &'m Map<String, Value>) -> Option<&'m Map<String, Value>> {
    match shape.wrapper {
        Some(w) => top.get(w).and_then(Value::as_object),
        None => Some(top),
    }
}

/// Whether `top`, which [`fits`] `shape`, is that shape exactly: no key the shape lacks, a
/// `type` (when the shape may carry one) of the shape's own value, and the payload of the
/// shape's JSON type.
fn exactly(shape: &Shape, top: &Map<String, Value>) -> bool {
    if !top.keys().all(|k| shape.keys.contains(&k.as_str())) {
        return false;
    }
    if let Some(kind) = shape.optional_kind
        && top.get("type").is_some_and(|t| t.as_str() != Some(kind))
    {
        return false;
    }
    holder(shape, top).is_some_and(|h| match h.get(shape.payload) {
        Some(p) => shape.payload_type.admits(p),
        None => shape.payload_optional,
    })
}

/// The text of the value of the top-level member `key` of the JSON object `text` (the last
/// one, as serde_json keeps the last of a key written twice); `None` when `text` is not an
/// object or has no such member.
fn member_text<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, text.find('{')? + 1);
    let mut found = None;
    loop {
        if bytes.get(at) == Some(&b'}') {
            return found;
        }
        let (name, after) = next_value::<String>(text, at)?;
        at = skip_space(bytes, after);
        if bytes.get(at) != Some(&b':') {
            return None;
        }
        let start = skip_space(bytes, at + 1);
        let (_, end) = next_value::<serde::de::IgnoredAny>(text, start)?;
        if name == key {
            found = Some(&text[start..end]);
        }
        at = skip_space(bytes, end);
        match bytes.get(at) {
            Some(b',') => at = skip_space(bytes, at + 1),
            Some(b'}') => return found,
            _ => return None,
        }
    }
}

/// One JSON value of type `T` starting at `at` in `text`, and the offset just past it.
fn next_value<T: serde::de::DeserializeOwned>(text: &str, at: usize) -> Option<(T, usize)> {
    let rest = text.get(at..)?;
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<T>();
    let value = stream.next()?.ok()?;
    Some((value, at + stream.byte_offset()))
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str, declared: &[&str]) -> Result<Option<Envelope>, Refused> {
        read(text, &serde_json::from_str(text).unwrap(), declared)
    }

    /// The call `text` is read as with `limit` declared: (shape, name, pointer, arguments).
    fn call_of(text: &str) -> (&'static str, Option<String>, String, String) {
        let e = read_text(text, &["limit"]).unwrap().expect(text);
        (e.shape, e.name, e.pointer, e.text)
    }

    /// Each of `cases` (the value, the container it is) is refused as a reply holding no
    /// call, with no key declared and with `declared`.
    fn refused_as_holding_no_call(cases: &[(&str, &'static str)], declared: &[&str]) {
        for &(text, container) in cases {
            for declared in [&[][..], declared] {
                assert_eq!(
                    read_text(text, declared),
                    Err(Refused::NotOneCall {
                        container,
                        calls: Vec::new()
                    }),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn each_providers_call_is_read_with_its_arguments_as_written() {
        let cases = [
            (
                r#"{"id":"call_1","type":"function","function":{"name":"s","arguments":"{\"limit\":1e3}"}}"#,
                "OpenAI Chat Completions tool call",
                "/function/arguments",
                r#"{"limit":1e3}"#,
            ),
            (
                r#"{"type":"tool_use","id":"toolu_1","name":"s","input":{"limit": 1e3}}"#,
                "Anthropic tool_use block",
                "/input",
                r#"{"limit": 1e3}"#,
            ),
            (
                r#"{"functionCall":{"name":"s","args":{"limit":"ten"}}}"#,
                "Gemini functionCall part",
                "/functionCall/args",
                r#"{"limit":"ten"}"#,
            ),
            (
                r#"{"name":"s","args":{"limit":"ten"}}"#,
                "Gemini FunctionCall",
                "/args",
                r#"{"limit":"ten"}"#,
            ),
            (
                r#"{ "name" : "s" , "arguments" : { "limit" : "ten" } }"#,
                "{name, arguments} call",
                "/arguments",
                r#"{ "limit" : "ten" }"#,
            ),
            (
                r#"{"type":"function_call","call_id":"c","name":"s","arguments":"{\"limit\":\"ten\"}"}"#,
                "OpenAI Responses function_call item",
                "/arguments",
                r#"{"limit":"ten"}"#,
            ),
            (
                r#"{"toolUse":{"toolUseId":"t1","name":"s","input":{"limit": 1e3}}}"#,
                "Bedrock Converse toolUse block",
                "/toolUse/input",
                r#"{"limit": 1e3}"#,
            ),
        ];
        for (text, shape, pointer, args) in cases {
            let (shape_read, name, pointer_read, args_read) = call_of(text);
            assert_eq!(
                (
                    shape_read,
                    name.as_deref(),
                    pointer_read.as_str(),
                    args_read.as_str()
                ),
                (shape, Some("s"), pointer, args),
                "{text}"
            );
        }
    }

    /// Gemini leaves `args` out of a call to a tool without parameters (trial 41): the part
    /// is that call, with no arguments, alone or in a response; other shapes need theirs.
    #[test]
    fn a_gemini_call_without_args_is_read_as_a_call_without_arguments() {
        for declared in [&[][..], &["limit"][..]] {
            let e = read_text(r#"{"functionCall":{"name":"get_time"}}"#, declared)
                .unwrap()
                .expect("the part");
            assert_eq!(
                (e.shape, e.name.as_deref(), e.text.as_str(), e.left_out),
                ("Gemini functionCall part", Some("get_time"), "{}", true)
            );
        }
        let response = r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_time"}}]},"finishReason":"STOP"}]}"#;
        let e = read_text(response, &[]).unwrap().expect("the response");
        assert_eq!(
            (e.pointer.as_str(), e.text.as_str(), e.left_out),
            (
                "/candidates/0/content/parts/0/functionCall/args",
                "{}",
                true
            )
        );
        let with = read_text(r#"{"functionCall":{"name":"s","args":{}}}"#, &[]).unwrap();
        assert!(!with.expect("with args").left_out);
        for text in [
            r#"{"name":"get_time"}"#,
            r#"{"type":"tool_use","id":"t","name":"get_time"}"#,
            r#"{"toolUse":{"toolUseId":"t","name":"get_time"}}"#,
            r#"{"type":"function","function":{"name":"get_time"}}"#,
        ] {
            assert_eq!(read_text(text, &[]), Ok(None), "{text}");
        }
    }

    /// OpenAI's custom tools take free text: such a call is refused, alone or in a message,
    /// not read as arguments nor as a `{name, input}` call (trial 41).
    #[test]
    fn a_custom_tool_call_is_refused_as_free_text() {
        let chat = r#"{"id":"call_1","type":"custom","custom":{"name":"get_weather","input":"city=Paris"}}"#;
        let responses =
            r#"{"type":"custom_tool_call","call_id":"c","name":"get_weather","input":"Paris"}"#;
        let message = r#"{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"custom","custom":{"name":"get_weather","input":"city=Paris"}}]}"#;
        for (text, shape) in [
            (chat, "OpenAI Chat Completions custom tool call"),
            (responses, "OpenAI Responses custom_tool_call item"),
            (message, "OpenAI Chat Completions custom tool call"),
        ] {
            for declared in [&[][..], &["city", "type"][..]] {
                let refused = read_text(text, declared).unwrap_err();
                assert_eq!(
                    refused,
                    Refused::FreeText {
                        shape,
                        name: Some("get_weather".to_string())
                    },
                    "{text}"
                );
            }
        }
        assert_eq!(
            read_text(responses, &[]).unwrap_err().message(),
            "the call to \"get_weather\" is an OpenAI Responses custom_tool_call item: custom \
             tools take free text, not JSON arguments, and `args` checks only JSON arguments \
             against a schema, so there is nothing to check"
        );
        // With declared keys, only the shape exactly.
        let extra = r#"{"type":"custom","custom":{"name":"x","input":"t"},"mood":1}"#;
        assert_eq!(read_text(extra, &["type"]), Ok(None));
    }

    /// Chat Completions' deprecated `function_call` is the message's one call, in a message
    /// or a response alike (trial 41: checked as the arguments, `ok`).
    #[test]
    fn a_legacy_function_call_is_the_messages_call() {
        let message = r#"{"role":"assistant","content":null,"function_call":{"name":"get_weather","arguments":"{\"city\":3}"}}"#;
        let response = r#"{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"function_call":{"name":"get_weather","arguments":"{\"city\":3}"}},"finish_reason":"function_call"}]}"#;
        for (text, pointer, within) in [
            (message, "/function_call/arguments", None),
            (
                response,
                "/choices/0/message/function_call/arguments",
                Some("/choices/0/message"),
            ),
        ] {
            for declared in [&[][..], &["city"][..]] {
                let e = read_text(text, declared).unwrap().expect(text);
                assert_eq!(
                    (
                        e.shape,
                        e.name.as_deref(),
                        e.pointer.as_str(),
                        e.text.as_str(),
                        e.within.map(|w| w.call_at)
                    ),
                    (
                        LEGACY_CHAT_CALL,
                        Some("get_weather"),
                        pointer,
                        r#"{"city":3}"#,
                        within.map(str::to_string)
                    ),
                    "{text}"
                );
            }
        }
    }

    /// A Gemini Content may leave its `role` out (trial 41): read when it holds a call, and
    /// refused as a reply without one only with `role: "model"`.
    #[test]
    fn a_gemini_content_without_role_is_read_when_it_holds_a_call() {
        let e = read_text(
            r#"{"parts":[{"functionCall":{"name":"get_weather","args":{"city":9}}}]}"#,
            &["city"],
        )
        .unwrap()
        .expect("the content");
        assert_eq!(
            (
                e.pointer.as_str(),
                e.text.as_str(),
                e.within.map(|w| w.container)
            ),
            (
                "/parts/0/functionCall/args",
                r#"{"city":9}"#,
                Some("Gemini Content")
            )
        );
        assert_eq!(read_text(r#"{"parts":[{"text":"hi"}]}"#, &[]), Ok(None));
        assert_eq!(
            read_text(
                r#"{"role":"user","parts":[{"functionCall":{"name":"s","args":{}}}]}"#,
                &[]
            ),
            Ok(None)
        );
        assert!(read_text(r#"{"role":"model","parts":[{"text":"hi"}]}"#, &[]).is_err());
    }

    /// A Chat Completions message without `role` (LangChain's `additional_kwargs`, trial 70
    /// D4) is read when it holds a call; with `tool_calls` declared, or no call in it, it is the
    /// arguments, and without `role` it is never refused as a reply calling no tool.
    #[test]
    fn a_chat_message_without_role_is_read_when_it_holds_a_call() {
        let call = r#"{"id":"a","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}"#;
        let message = format!(r#"{{"tool_calls":[{call}]}}"#);
        for declared in [&[][..], &["city"][..]] {
            let e = read_text(&message, declared).unwrap().expect(&message);
            assert_eq!(
                (
                    e.name.as_deref(),
                    e.pointer.as_str(),
                    e.text.as_str(),
                    e.within.map(|w| (w.container, w.call_at))
                ),
                (
                    Some("get_weather"),
                    "/tool_calls/0/function/arguments",
                    r#"{"city":"Paris"}"#,
                    Some((CHAT_MESSAGE, "/tool_calls/0".to_string()))
                ),
                "{declared:?}"
            );
        }
        // Declared keys beside it: the message exactly, one key undeclared.
        let with_content = format!(r#"{{"content":null,"tool_calls":[{call}]}}"#);
        assert!(read_text(&with_content, &["tool_calls"]).unwrap().is_some());
        assert_eq!(
            read_text(
                &format!(r#"{{"tool_calls":[{call}],"x":1}}"#),
                &["tool_calls"]
            ),
            Ok(None)
        );
        // A tool taking a `tool_calls` argument gets it.
        assert_eq!(read_text(&message, &["tool_calls"]), Ok(None));
        // Two calls are refused as a message's, as with `role`.
        let two = format!(r#"{{"tool_calls":[{call},{call}]}}"#);
        assert!(matches!(
            read_text(&two, &[]),
            Err(Refused::NotOneCall { calls, .. }) if calls.len() == 2
        ));
        // No call in it: arguments, not a reply calling no tool.
        for text in [r#"{"tool_calls":[]}"#, r#"{"tool_calls":[{"a":1}]}"#] {
            assert_eq!(read_text(text, &[]), Ok(None), "{text}");
        }
        assert!(read_text(r#"{"role":"assistant","tool_calls":[]}"#, &[]).is_err());
    }

    #[test]
    fn declared_keys_and_nameless_objects_are_arguments() {
        let call = r#"{"name":"s","input":{"a":1}}"#;
        assert_eq!(read_text(call, &["name", "input"]), Ok(None));
        assert_eq!(read_text(call, &["input", "name", "limit"]), Ok(None));
        assert_eq!(read_text(r#"{"input":{"a":1}}"#, &[]), Ok(None));
        assert_eq!(read_text(r#"{"name":"s"}"#, &[]), Ok(None));
        assert_eq!(read_text(r#"[1]"#, &[]), Ok(None));
    }

    #[test]
    fn a_call_to_a_tool_declaring_its_keys_is_read_when_some_key_is_not_declared() {
        // github-mcp-server's create_repository declares `name`, issue_write `type`.
        let repo = ["autoInit", "description", "name", "organization", "private"];
        let cases = [
            (
                r#"{"type":"tool_use","id":"toolu_1","name":"create_repository","input":{"private":"yes"}}"#,
                &repo[..],
                "Anthropic tool_use block",
                r#"{"private":"yes"}"#,
            ),
            (
                r#"{"type":"function_call","call_id":"c1","name":"create_repository","arguments":"{\"private\":\"yes\"}"}"#,
                &repo[..],
                "OpenAI Responses function_call item",
                r#"{"private":"yes"}"#,
            ),
            (
                r#"{"id":"call_1","type":"function","function":{"name":"issue_write","arguments":"{}"}}"#,
                &["method", "owner", "repo", "type"][..],
                "OpenAI Chat Completions tool call",
                "{}",
            ),
            (
                r#"{"name":"s","input":{"a":1}}"#,
                &["name"][..],
                "{name, input} call",
                r#"{"a":1}"#,
            ),
        ];
        for (text, declared, shape, args) in cases {
            let e = read_text(text, declared).unwrap().expect(text);
            assert_eq!((e.shape, e.text.as_str()), (shape, args), "{text}");
        }
    }

    #[test]
    fn with_declared_keys_only_an_exact_shape_is_a_call() {
        let declared = ["name", "type", "id"];
        for text in [
            // A key the shape lacks.
            r#"{"type":"tool_use","name":"s","input":{},"limit":1}"#,
            r#"{"name":"s","input":{},"id":"x"}"#,
            // The payload of another JSON type than the shape's.
            r#"{"type":"tool_use","name":"s","input":"{}"}"#,
            r#"{"type":"function_call","name":"s","arguments":{}}"#,
            r#"{"id":"x","type":"function","function":{"name":"s","arguments":{}}}"#,
            // Chat Completions' `type` is "function" when sent.
            r#"{"id":"x","type":"tool","function":{"name":"s","arguments":"{}"}}"#,
            // Every key declared.
            r#"{"type":"x","name":"s","id":"y"}"#,
        ] {
            assert_eq!(read_text(text, &declared), Ok(None), "{text}");
        }
        // Without declared keys the same values are read as before.
        let open = read_text(r#"{"type":"function_call","name":"s","arguments":{}}"#, &[]);
        assert_eq!(
            open.unwrap().map(|e| e.shape),
            Some("OpenAI Responses function_call item")
        );
    }

    #[test]
    fn two_payloads_are_ambiguous() {
        let both = read_text(r#"{"name":"s","args":{},"arguments":{}}"#, &[]).unwrap_err();
        assert_eq!(
            both,
            Refused::Ambiguous(vec!["Gemini FunctionCall", "{name, arguments} call"])
        );
        let two = read_text(
            r#"{"type":"tool_use","name":"s","input":{},"function":{"name":"s","arguments":"{}"}}"#,
            &[],
        )
        .unwrap_err();
        assert_eq!(
            two,
            Refused::Ambiguous(vec![
                "OpenAI Chat Completions tool call",
                "Anthropic tool_use block"
            ])
        );
    }

    /// A trial's messages and responses, each holding one call to `opt`: the call is read as
    /// if given alone, at its place in the whole.
    #[test]
    fn the_one_call_of_a_message_or_response_is_read() {
        let cases = [
            (
                r#"{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"opt","arguments":"{\"limit\":\"ten\"}"}}]}"#,
                "OpenAI Chat Completions message",
                "/tool_calls/0",
                "/tool_calls/0/function/arguments",
            ),
            (
                r#"{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"opt","arguments":"{\"limit\":\"ten\"}"}}]}}]}"#,
                "OpenAI Chat Completions response",
                "/choices/0/message/tool_calls/0",
                "/choices/0/message/tool_calls/0/function/arguments",
            ),
            (
                r#"{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t","name":"opt","input":{"limit":"ten"}}]}"#,
                "Anthropic or Bedrock Converse message",
                "/content/1",
                "/content/1/input",
            ),
            (
                r#"{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"opt","input":{"limit":"ten"}}}]}"#,
                "Anthropic or Bedrock Converse message",
                "/content/0",
                "/content/0/toolUse/input",
            ),
            (
                r#"{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"opt","input":{"limit":"ten"}}}]}},"stopReason":"tool_use"}"#,
                "Bedrock Converse response",
                "/output/message/content/0",
                "/output/message/content/0/toolUse/input",
            ),
            (
                r#"{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"opt","args":{"limit":"ten"}}}]}}]}"#,
                "Gemini response",
                "/candidates/0/content/parts/0",
                "/candidates/0/content/parts/0/functionCall/args",
            ),
            (
                r#"{"role":"model","parts":[{"text":"ok"},{"functionCall":{"name":"opt","args":{"limit":"ten"}}}]}"#,
                "Gemini Content",
                "/parts/1",
                "/parts/1/functionCall/args",
            ),
            (
                r#"{"output":[{"type":"reasoning","id":"r"},{"type":"function_call","name":"opt","arguments":"{\"limit\":\"ten\"}","call_id":"c"}]}"#,
                "OpenAI Responses response",
                "/output/1",
                "/output/1/arguments",
            ),
        ];
        for (text, container, call_at, pointer) in cases {
            for declared in [&[][..], &["q", "limit"][..]] {
                let e = read_text(text, declared).unwrap().expect(text);
                let w = e.within.clone().expect(text);
                assert_eq!(
                    (
                        w.container,
                        w.call_at.as_str(),
                        e.pointer.as_str(),
                        e.name.as_deref(),
                        e.text.as_str()
                    ),
                    (
                        container,
                        call_at,
                        pointer,
                        Some("opt"),
                        r#"{"limit":"ten"}"#
                    ),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn a_message_with_several_calls_or_none_is_refused_naming_them() {
        let two = read_text(
            r#"{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"x","input":{}},{"type":"tool_use","id":"b","name":"y","input":{}}]}"#,
            &[],
        )
        .unwrap_err();
        assert_eq!(
            two.message(),
            "the value is a whole Anthropic or Bedrock Converse message holding 2 tool calls \
             (\"x\" at /content/0, \"y\" at /content/1); `args` checks one call at a time: pass \
             each call alone (the object at its place)"
        );
        assert_eq!(two.one_tool(), None);
        let same = read_text(
            r#"{"role":"model","parts":[{"functionCall":{"name":"x","args":{}}},{"functionCall":{"name":"x","args":{"a":1}}}]}"#,
            &[],
        )
        .unwrap_err();
        assert_eq!(same.one_tool(), Some("x"));
        let none = read_text(
            r#"{"role":"assistant","content":[{"type":"text","text":"Paris is sunny."}]}"#,
            &[],
        )
        .unwrap_err();
        assert_eq!(
            none.message(),
            "the value is a whole Anthropic or Bedrock Converse message holding no tool call \
             (the model answered without calling a tool): there are no arguments to check"
        );
        // Not the container exactly: an `output` argument of text items is an argument.
        assert_eq!(
            read_text(r#"{"output":[{"type":"text"}],"q":"x"}"#, &["q"]),
            Ok(None)
        );
    }

    /// A Chat Completions reply calling no tool leaves `tool_calls` out or null, or empty as a
    /// pasted message may (trial 41): refused as other providers' replies are, unless every
    /// key is a declared argument.
    #[test]
    fn a_chat_completions_reply_without_a_call_is_refused() {
        let cases = [
            (
                r#"{"id":"chatcmpl-abc","object":"chat.completion","created":1741569952,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":"The weather is nice.","refusal":null,"annotations":[]},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":82,"completion_tokens":17,"total_tokens":99}}"#,
                "OpenAI Chat Completions response",
            ),
            (
                r#"{"choices":[{"index":0,"message":{"role":"assistant","content":"Hi","tool_calls":[]}}]}"#,
                "OpenAI Chat Completions response",
            ),
            (
                r#"{"role":"assistant","content":"Hi","tool_calls":[]}"#,
                "OpenAI Chat Completions message",
            ),
            (
                r#"{"role":"assistant","content":"hi","tool_calls":null}"#,
                "OpenAI Chat Completions message",
            ),
            (
                r#"{"role":"assistant","content":"The weather is nice.","refusal":null}"#,
                "OpenAI Chat Completions message",
            ),
        ];
        refused_as_holding_no_call(&cases, &["city", "units"]);
        // Every key declared: the arguments.
        let msg = r#"{"role":"assistant","content":"Hi","tool_calls":[]}"#;
        assert_eq!(read_text(msg, &["role", "content", "tool_calls"]), Ok(None));
        // Not a reply: choices that are no messages, a user's message, a key the message
        // lacks.
        for text in [
            r#"{"choices":["a","b"]}"#,
            r#"{"choices":[{"message":"hello"}]}"#,
            r#"{"choices":[]}"#,
            r#"{"role":"user","content":"hi"}"#,
            r#"{"role":"assistant","content":"hi","mood":"x"}"#,
        ] {
            assert_eq!(read_text(text, &[]), Ok(None), "{text}");
        }
    }

    /// A reply with nothing at all where calls go (trial 42): a Gemini candidate without
    /// `content` or `parts`, no candidates, a blocked prompt, empty `content`, `output` or
    /// `choices`. Its own marks tell it from arguments named as its keys.
    #[test]
    fn a_reply_with_nothing_where_calls_go_is_refused() {
        let cases = [
            (
                r#"{"candidates":[{"finishReason":"MALFORMED_FUNCTION_CALL"}]}"#,
                "Gemini response",
            ),
            (
                r#"{"candidates":[{"content":{"role":"model"},"finishReason":"STOP"}]}"#,
                "Gemini response",
            ),
            (r#"{"candidates":[]}"#, "Gemini response"),
            (
                r#"{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":5}}"#,
                "Gemini response",
            ),
            (r#"{"role":"model","parts":[]}"#, "Gemini Content"),
            (
                r#"{"id":"msg_1","type":"message","role":"assistant","content":[],"stop_reason":"end_turn"}"#,
                "Anthropic or Bedrock Converse message",
            ),
            (
                r#"{"output":{"message":{"role":"assistant","content":[]}},"stopReason":"end_turn"}"#,
                "Bedrock Converse response",
            ),
            (
                r#"{"id":"resp_1","object":"response","status":"incomplete","output":[]}"#,
                "OpenAI Responses response",
            ),
            (
                r#"{"id":"x","object":"chat.completion","choices":[]}"#,
                "OpenAI Chat Completions response",
            ),
        ];
        refused_as_holding_no_call(&cases, &["limit", "q"]);
        // Without those marks, with every key declared, or with a key the reply lacks: the
        // arguments.
        for (text, declared) in [
            (r#"{"output":[]}"#, &[][..]),
            (r#"{"parts":[]}"#, &[]),
            (r#"{"role":"user","parts":[]}"#, &[]),
            (r#"{"choices":[]}"#, &[]),
            (r#"{"candidates":[]}"#, &["candidates"]),
            (r#"{"candidates":["Ann"]}"#, &[]),
            (r#"{"candidates":[],"q":"x"}"#, &["q"]),
            (r#"{"promptFeedback":"good"}"#, &[]),
        ] {
            assert_eq!(read_text(text, declared), Ok(None), "{text}");
        }
    }

    /// The event a refused streamed piece is named by, and what the refusal says it lacks.
    fn piece_of(text: &str, declared: &[&str]) -> (&'static str, String) {
        match read_text(text, declared) {
            Err(Refused::StreamPiece { event, why }) => (event, why.unwrap_or_default()),
            other => panic!("{text}: {other:?}"),
        }
    }

    /// A Chat Completions chunk's tool call given alone, its `index` with it (trial 44: the
    /// first delta, `{"a"` as its arguments, was judged as a whole call, exit 1): a piece while
    /// it cannot be a whole call, as the chunk holding it is, the refusal saying what it lacks
    /// (trial 46: it said "its arguments are not whole JSON" of whole arguments and of none);
    /// with a name and whole arguments it is a call assembled from the stream, which keeps the
    /// `index`.
    #[test]
    fn a_lone_chat_tool_call_delta_is_a_streamed_piece() {
        for (text, lacks) in [
            (
                r#"{"index":0,"id":"call_1","type":"function","function":{"name":"opt","arguments":"{\"limit\""}}"#,
                "its arguments are not whole JSON",
            ),
            (
                r#"{"index":0,"id":"call_1","type":"function","function":{"name":"opt","arguments":""}}"#,
                "its arguments are not whole JSON",
            ),
            (
                r#"{"index":0,"function":{"arguments":"\"ten\"}"}}"#,
                "no function name, and its arguments are not whole JSON",
            ),
            (
                r#"{"index":0,"function":{"arguments":"{\"limit\":\"ten\"}"}}"#,
                "no function name",
            ),
            (r#"{"index":0,"function":{"name":"opt"}}"#, "no arguments"),
            (
                r#"{"index":0,"id":"call_1","function":{}}"#,
                "neither a function name nor arguments",
            ),
        ] {
            for declared in [&[][..], &["limit", "q"][..]] {
                let (event, why) = piece_of(text, declared);
                assert_eq!(event, CHAT_TOOL_CALL_DELTA, "{text}");
                assert_eq!(
                    why,
                    format!(
                        "it has an `index` and {lacks}; a call assembled from a stream that was \
                         cut short looks the same, and is checked as a call without its `index`"
                    ),
                    "{text}"
                );
            }
        }
        let whole = r#"{"index":0,"id":"call_1","type":"function","function":{"name":"opt","arguments":"{\"limit\":\"ten\"}"}}"#;
        let e = read_text(whole, &["limit"]).unwrap().expect("a call");
        assert_eq!(
            (e.shape, e.pointer.as_str()),
            ("OpenAI Chat Completions tool call", "/function/arguments")
        );
        // Without `index` the same cut-short call is a call, whose arguments are the problem.
        let cut = r#"{"id":"call_1","type":"function","function":{"name":"opt","arguments":"{\"limit\""}}"#;
        assert!(read_text(cut, &[]).unwrap().is_some());
    }

    /// A Chat Completions chunk's `delta` (`choices[0].delta`), a message whose tool calls
    /// carry their `index` (trial 46: the first delta, `""` as its arguments, was a retry
    /// message, exit 1; a later one, no name, "a whole ... message holding no tool call"): a
    /// piece while one of its calls is, as the chunk and the call alone are, naming that call;
    /// a message whose calls are whole with their `index` is read as before.
    #[test]
    fn a_chat_chunk_delta_holding_a_tool_call_delta_is_a_streamed_piece() {
        let piece = |at: usize, lacks: &str| {
            format!(
                "its tool call at /tool_calls/{at} has an `index` and {lacks}; a message \
                 assembled from a stream that was cut short looks the same, and is read as a \
                 message without its calls' `index`"
            )
        };
        let first = r#"{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_x","type":"function","function":{"name":"opt","arguments":""}}],"refusal":null}"#;
        let later = r#"{"role":"assistant","content":null,"tool_calls":[{"index":0,"function":{"arguments":"{\"limit\":"}}]}"#;
        let no_role = r#"{"tool_calls":[{"index":0,"function":{"arguments":"\"ten\"}"}}]}"#;
        let second = r#"{"role":"assistant","tool_calls":[{"index":0,"id":"c0","type":"function","function":{"name":"opt","arguments":"{}"}},{"index":1,"function":{"name":"opt"}}]}"#;
        for (text, at, lacks) in [
            (first, 0, "its arguments are not whole JSON"),
            (
                later,
                0,
                "no function name, and its arguments are not whole JSON",
            ),
            (
                no_role,
                0,
                "no function name, and its arguments are not whole JSON",
            ),
            (second, 1, "no arguments"),
        ] {
            for declared in [&[][..], &["limit", "q"][..]] {
                assert_eq!(
                    piece_of(text, declared),
                    (CHAT_DELTA, piece(at, lacks)),
                    "{text}"
                );
            }
        }
        // Calls whole with their `index`: a message assembled from the stream, read as one.
        let whole = r#"{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"opt","arguments":"{\"limit\":\"ten\"}"}}]}"#;
        let e = read_text(whole, &["limit"]).unwrap().expect("a call");
        assert_eq!(e.pointer, "/tool_calls/0/function/arguments");
        // Another role's message is no delta of the assistant's reply.
        let user = r#"{"role":"user","tool_calls":[{"index":0,"function":{"name":"opt"}}]}"#;
        assert!(!matches!(
            read_text(user, &[]),
            Err(Refused::StreamPiece { .. })
        ));
    }

    /// One choice of a Chat Completions chunk (`choices[0]`: `index`, `delta`,
    /// `finish_reason`), between the chunk and its `delta`, both pieces (trial 48 D16: checked
    /// as the arguments, a retry message for a call never made, exit 1): a piece, as they
    /// are, with its `index` or a tool call delta in its `delta`; a response's choice
    /// (`message`) is read for its call, named as such (it was "Cohere v2 chat response").
    #[test]
    fn a_chat_chunk_choice_is_a_streamed_piece() {
        for text in [
            r#"{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"limit\":"}}]},"finish_reason":null,"logprobs":null}"#,
            r#"{"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"opt","arguments":""}}]}}"#,
            r#"{"index":0,"delta":{},"finish_reason":"tool_calls"}"#,
        ] {
            for declared in [&[][..], &["limit", "q"][..]] {
                assert_eq!(
                    piece_of(text, declared),
                    ("OpenAI Chat Completions chunk's choice", String::new()),
                    "{text}"
                );
            }
        }
        // Another event's `delta` is no `ChoiceDelta`.
        let other = r#"{"index":0,"delta":{"type":"x"}}"#;
        assert_eq!(read_text(other, &[]), Ok(None));
        let choice = r#"{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"opt","arguments":"{\"limit\":\"ten\"}"}}]},"finish_reason":"tool_calls","logprobs":null}"#;
        for declared in [&[][..], &["limit", "q"][..]] {
            let e = read_text(choice, declared).unwrap().expect("a call");
            assert_eq!(
                (e.within.map(|w| w.container), e.pointer.as_str()),
                (
                    Some(CHAT_CHOICE),
                    "/message/tool_calls/0/function/arguments"
                )
            );
        }
        refused_as_holding_no_call(
            &[(
                r#"{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}"#,
                CHAT_CHOICE,
            )],
            &["limit"],
        );
    }

    /// A tool whose arguments are named as a message's keys: with all of them declared the
    /// value is the arguments; with a key left undeclared it is read as the message only when
    /// it is that message exactly.
    #[test]
    fn a_message_with_declared_keys_is_read_only_when_exact() {
        let msg = r#"{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"opt","input":{}}]}"#;
        assert_eq!(read_text(msg, &["role", "content"]), Ok(None));
        assert!(read_text(msg, &["content"]).unwrap().is_some());
        let extra = r#"{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"opt","input":{}}],"mood":"x"}"#;
        assert_eq!(read_text(extra, &["content"]), Ok(None));
        assert!(read_text(extra, &[]).unwrap().is_some());
    }
    /// One event or chunk of a stream (trial 42: each was checked as the arguments, `ok`):
    /// a piece is refused naming the event; an event holding the whole arguments is read as
    /// that call.
    #[test]
    fn a_streamed_piece_is_refused_and_a_whole_call_event_read() {
        let pieces = [
            (
                r#"{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"opt","arguments":""}}]}}]}"#,
                "OpenAI Chat Completions chat.completion.chunk",
            ),
            (
                r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"limit\": \"te"}}]}}]}"#,
                "OpenAI Chat Completions chat.completion.chunk",
            ),
            (
                r#"{"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"limit\""}"#,
                "OpenAI Responses response.function_call_arguments.delta event",
            ),
            (
                r#"{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"m","role":"assistant","content":[]}}"#,
                "OpenAI Responses response.output_item.done event",
            ),
            (
                r#"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"opt","input":{}}}"#,
                "Anthropic content_block_start event",
            ),
            (
                r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"limit\": \"te"}}"#,
                "Anthropic content_block_delta event",
            ),
            (
                r#"{"contentBlockStart":{"start":{"toolUse":{"toolUseId":"t1","name":"opt"}},"contentBlockIndex":1}}"#,
                "Bedrock ConverseStream contentBlockStart event",
            ),
            (
                r#"{"contentBlockDelta":{"delta":{"toolUse":{"input":"{\"limit\": \"te"}},"contentBlockIndex":1}}"#,
                "Bedrock ConverseStream contentBlockDelta event",
            ),
            // Trial 44: these passed as the arguments, `ok`.
            (
                r#"{"type":"tool-call-delta","index":1,"delta":{"message":{"tool_calls":{"function":{"arguments":"{\"limit\""}}}}}"#,
                "Cohere v2 tool-call-delta event",
            ),
            (
                r#"{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"Hi"}"#,
                "OpenAI Responses response.output_text.delta event",
            ),
            (r#"{"type":"ping"}"#, "Anthropic ping event"),
            (
                r#"{"metadata":{"usage":{"inputTokens":1,"outputTokens":1,"totalTokens":2},"metrics":{"latencyMs":1}}}"#,
                "Bedrock ConverseStream metadata event",
            ),
        ];
        for (text, event) in pieces {
            for declared in [&[][..], &["limit", "q"][..]] {
                assert_eq!(
                    read_text(text, declared),
                    Err(Refused::StreamPiece { event, why: None }),
                    "{text}"
                );
            }
        }
        assert_eq!(
            Refused::StreamPiece {
                event: "Anthropic content_block_delta event",
                why: None,
            }
            .message(),
            "the value is one streamed piece of a reply (Anthropic content_block_delta event), \
             not a whole tool call: `args` checks a whole call, so assemble the stream first and \
             pass the call (or the reply) it makes"
        );
        let done = r#"{"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0,"arguments":"{\"limit\":\"ten\"}"}"#;
        let item = r#"{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"opt","arguments":"{\"limit\":\"ten\"}"}}"#;
        for (text, shape, name, pointer) in [
            (
                done,
                "OpenAI Responses response.function_call_arguments.done event",
                None,
                "/arguments",
            ),
            (item, RESPONSES_CALL, Some("opt"), "/item/arguments"),
            // The response whole, read as that response (trial 44: `ok` for `limit: "ten"`).
            (
                r#"{"type":"response.completed","sequence_number":9,"response":{"id":"r","object":"response","status":"completed","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"opt","arguments":"{\"limit\":\"ten\"}"}]}}"#,
                RESPONSES_CALL,
                Some("opt"),
                "/response/output/0/arguments",
            ),
        ] {
            let (shape_read, name_read, pointer_read, args) = call_of(text);
            assert_eq!(
                (
                    shape_read,
                    name_read.as_deref(),
                    pointer_read.as_str(),
                    args.as_str()
                ),
                (shape, name, pointer, r#"{"limit":"ten"}"#),
                "{text}"
            );
        }
        // With declared keys, only an event exactly; every key declared, the arguments.
        let extra = r#"{"type":"content_block_delta","index":1,"delta":{},"limit":1}"#;
        assert_eq!(read_text(extra, &["limit"]), Ok(None));
        let declared = r#"{"type":"message_stop"}"#;
        assert_eq!(read_text(declared, &["type"]), Ok(None));
    }
    /// A user turn sending a tool's result back holds no call (trial 42: checked as the
    /// arguments, `ok`): refused saying so, with or without declared keys.
    #[test]
    fn a_tool_result_turn_is_refused_as_no_call() {
        for (text, container, result) in [
            // Trial 44: these passed as the arguments, `ok`.
            (
                r#"{"role":"tool","tool_call_id":"call_1","content":"{\"temp\": 20}"}"#,
                "Chat Completions message",
                "`role: tool` message",
            ),
            (
                r#"{"type":"function_call_output","call_id":"call_1","output":"20"}"#,
                "Responses input item",
                "`function_call_output` item",
            ),
            (
                r#"{"role":"function","parts":[{"functionResponse":{"name":"opt","response":{"x":1}}}]}"#,
                "Gemini Content",
                "functionResponse part",
            ),
            (
                r#"{"role":"user","parts":[{"functionResponse":{"name":"opt","response":{"x":1}}}]}"#,
                "Gemini Content",
                "functionResponse part",
            ),
            (
                r#"{"parts":[{"functionResponse":{"name":"opt","response":{"x":1}}}]}"#,
                "Gemini Content",
                "functionResponse part",
            ),
            (
                r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]}"#,
                "Anthropic message",
                "tool_result block",
            ),
            (
                r#"{"role":"user","content":[{"toolResult":{"toolUseId":"t1","content":[{"text":"ok"}]}}]}"#,
                "Bedrock Converse message",
                "toolResult block",
            ),
        ] {
            for declared in [&[][..], &["limit", "role"][..]] {
                assert_eq!(
                    read_text(text, declared),
                    Err(Refused::ToolResult { container, result }),
                    "{text}"
                );
            }
        }
        assert_eq!(
            Refused::ToolResult {
                container: "Anthropic message",
                result: "tool_result block"
            }
            .message(),
            "the value is a user's Anthropic message sending a tool's result back to the model \
             (a tool_result block), not a tool call: there are no arguments to check; pass the \
             call the model made"
        );
        // A user's text, or every key declared: as before.
        for (text, declared) in [
            (
                r#"{"role":"user","content":[{"type":"text","text":"hi"}]}"#,
                &[][..],
            ),
            (
                r#"{"role":"user","content":[{"type":"tool_result"}]}"#,
                &["role", "content"][..],
            ),
        ] {
            assert_eq!(read_text(text, declared), Ok(None), "{text}");
        }
    }
    /// Ollama's /api/chat reply and Cohere's v2 chat reply hold their calls in `message`
    /// (trial 42: both checked as the arguments, `ok`): the one call is read, and a reply
    /// without one refused.
    #[test]
    fn an_ollama_or_cohere_reply_is_read_for_its_call() {
        let ollama = r#"{"model":"qwen3","created_at":"2026-12-05T00:00:00Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"opt","arguments":{"limit":"ten"}}}]},"done":true}"#;
        let cohere = r#"{"id":"x","finish_reason":"TOOL_CALL","message":{"role":"assistant","tool_plan":"I will","tool_calls":[{"id":"c","type":"function","function":{"name":"opt","arguments":"{\"limit\":\"ten\"}"}}]}}"#;
        for (text, container) in [
            (ollama, "Ollama /api/chat response"),
            (cohere, "Cohere v2 chat response"),
        ] {
            for declared in [&[][..], &["limit", "q"][..]] {
                let e = read_text(text, declared).unwrap().expect(text);
                assert_eq!(
                    (
                        e.within.map(|w| (w.container, w.call_at)),
                        e.pointer.as_str(),
                        e.text.as_str()
                    ),
                    (
                        Some((container, "/message/tool_calls/0".to_string())),
                        "/message/tool_calls/0/function/arguments",
                        r#"{"limit":"ten"}"#
                    ),
                    "{text}"
                );
            }
        }
        refused_as_holding_no_call(
            &[
                (
                    r#"{"model":"qwen3","message":{"role":"assistant","content":"Hi"},"done":true}"#,
                    "Ollama /api/chat response",
                ),
                (
                    r#"{"id":"x","finish_reason":"COMPLETE","message":{"role":"assistant","content":[{"type":"text","text":"Hi"}]}}"#,
                    "Cohere v2 chat response",
                ),
            ],
            &["limit"],
        );
        // A `message` argument that is no assistant's: the arguments.
        assert_eq!(
            read_text(r#"{"message":{"role":"user"},"done":true}"#, &[]),
            Ok(None)
        );
    }
    /// The protobuf JSON mapping's snake_case names (trial 42: `{"function_call":{"name",
    /// "args"}}` was checked as the arguments, a Vertex snake_case response refused as holding
    /// no call): read as the lowerCamelCase ones are; an OpenAI legacy `function_call`
    /// (`arguments`) stays that.
    #[test]
    fn gemini_snake_case_names_are_read_as_the_camel_case_ones() {
        for (text, pointer) in [
            (
                r#"{"function_call":{"name":"opt","args":{"limit":"ten"}}}"#,
                "/function_call/args",
            ),
            (
                r#"{"candidates":[{"content":{"role":"model","parts":[{"function_call":{"name":"opt","args":{"limit":"ten"}}}]},"finish_reason":"STOP"}],"usage_metadata":{"prompt_token_count":5}}"#,
                "/candidates/0/content/parts/0/function_call/args",
            ),
        ] {
            for declared in [&[][..], &["limit", "q"][..]] {
                let e = read_text(text, declared).unwrap().expect(text);
                assert_eq!(
                    (e.shape, e.pointer.as_str(), e.text.as_str()),
                    ("Gemini function_call part", pointer, r#"{"limit":"ten"}"#),
                    "{text}"
                );
            }
        }
        let legacy = read_text(
            r#"{"role":"assistant","content":null,"function_call":{"name":"opt","arguments":"{}"}}"#,
            &[],
        );
        assert_eq!(legacy.unwrap().map(|e| e.shape), Some(LEGACY_CHAT_CALL));
        refused_as_holding_no_call(
            &[(
                r#"{"prompt_feedback":{"block_reason":"SAFETY"}}"#,
                "Gemini response",
            )],
            &["limit"],
        );
        assert_eq!(
            read_text(
                r#"{"role":"user","parts":[{"function_response":{"name":"opt","response":{}}}]}"#,
                &[]
            ),
            Err(Refused::ToolResult {
                container: "Gemini Content",
                result: "functionResponse part"
            })
        );
    }
    /// A message's legacy `function_call` beside its `tool_calls`, and custom calls beside
    /// function calls (trial 42: one of the first was checked, unsaid; the second refused as
    /// free text, unsaid that a function call was there): every function call counts, and
    /// the custom calls are skipped, said.
    #[test]
    fn every_function_call_counts_and_custom_calls_beside_them_are_skipped() {
        let both = r#"{"role":"assistant","content":null,"function_call":{"name":"opt","arguments":"{\"limit\":\"ten\"}"},"tool_calls":[{"id":"c","type":"function","function":{"name":"opt","arguments":"{}"}}]}"#;
        let refused = read_text(both, &[]).unwrap_err();
        assert_eq!(
            refused.message(),
            "the value is a whole OpenAI Chat Completions message holding 2 tool calls (\"opt\" \
             at /function_call, \"opt\" at /tool_calls/0); `args` checks one call at a time: \
             pass each call alone (the object at its place)"
        );
        let response = r#"{"object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"function_call":{"name":"opt","arguments":"{}"},"tool_calls":[{"id":"c","type":"function","function":{"name":"opt","arguments":"{}"}}]}}]}"#;
        let Err(Refused::NotOneCall { calls, .. }) = read_text(response, &[]) else {
            panic!("{response}");
        };
        assert_eq!(calls.len(), 2);
        let custom = r#"{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"opt","arguments":"{\"limit\":\"ten\"}"}},{"id":"c2","type":"custom","custom":{"name":"opt","input":"x"}}]}"#;
        let e = read_text(custom, &["limit"]).unwrap().expect(custom);
        assert_eq!(
            (e.pointer.as_str(), e.within.unwrap().free_text),
            (
                "/tool_calls/0/function/arguments",
                vec![("/tool_calls/1".to_string(), Some("opt".to_string()))]
            )
        );
        let two = r#"{"output":[{"type":"function_call","call_id":"a","name":"x","arguments":"{}"},{"type":"function_call","call_id":"b","name":"y","arguments":"{}"},{"type":"custom_tool_call","call_id":"c","name":"z","input":"t"}]}"#;
        assert_eq!(
            read_text(two, &[]).unwrap_err().message(),
            "the value is a whole OpenAI Responses response holding 2 tool calls (\"x\" at \
             /output/0, \"y\" at /output/1), besides 1 custom tool call (\"z\" at /output/2), \
             skipped: custom tools take free text, not JSON arguments; `args` checks one call at \
             a time: pass each call alone (the object at its place)"
        );
    }

    /// A legacy `function_call` beside `tool_calls` holding custom calls only (trial 44: the
    /// message's function_call was checked with no word of them, and the response holding it
    /// was refused as a custom call alone): the function_call is the one call, and the custom
    /// calls are skipped, said, as beside function calls.
    #[test]
    fn a_legacy_function_call_beside_custom_calls_only_skips_them_said() {
        let custom = r#"{"id":"c2","type":"custom","custom":{"name":"z","input":"x"}}"#;
        let legacy = r#""function_call":{"name":"opt","arguments":"{\"limit\":\"ten\"}"}"#;
        let message =
            format!(r#"{{"role":"assistant","content":null,{legacy},"tool_calls":[{custom}]}}"#);
        let e = read_text(&message, &["limit"]).unwrap().expect(&message);
        assert_eq!(
            (e.shape, e.pointer.as_str()),
            (LEGACY_CHAT_CALL, "/function_call/arguments")
        );
        let w = e.within.unwrap();
        assert_eq!(
            (w.container, w.call_at.as_str(), w.free_text),
            (
                CHAT_MESSAGE,
                "/function_call",
                vec![("/tool_calls/0".to_string(), Some("z".to_string()))]
            )
        );
        let response = format!(
            r#"{{"object":"chat.completion","choices":[{{"index":0,"message":{message}}}]}}"#
        );
        let e = read_text(&response, &[]).unwrap().expect(&response);
        assert_eq!(e.pointer, "/choices/0/message/function_call/arguments");
        assert_eq!(
            e.within.unwrap().free_text,
            vec![(
                "/choices/0/message/tool_calls/0".to_string(),
                Some("z".to_string())
            )]
        );
    }
}
