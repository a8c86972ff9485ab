//! The texts to read in an error, and each problem's statement in the provider's own words.
//!
//! An error arrives in an envelope: a provider's JSON body (`{"error":{"message":..}}`,
//! Google's array wrapper, Mistral's `detail`, Bedrock's `message`), OpenRouter's
//! `metadata.raw` holding the upstream's body as a string, a relay that JSON-encodes the body
//! once more, a client's prefix (`Error: 400 {...}`), or OpenAI's Python SDK printing the
//! body as a Python dict (`Error code: 400 - {'error': {'message': "..."}}`). Each envelope is
//! decoded once, so the message quoted back is the provider's text exactly.

use serde_json::Value;

use crate::target::pyrepr;

/// A text to read.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Text {
    pub text: String,
    /// Whether the text is a provider's message decoded from its envelope (its lines are the
    /// provider's own), rather than the error as given (which may carry a client's prefix or
    /// envelope residue around the message).
    pub decoded: bool,
}

/// How many places a JSON or Python envelope may start at before the search stops (bounds
/// the work on a large error file).
const MAX_STARTS: usize = 32;

/// How deep envelopes nest (a message holding a body holding a message ...) before reading
/// stops.
const MAX_DEPTH: usize = 8;

/// The texts to read in `error`, most specific first: the messages decoded from its
/// envelopes, then the error as given with JSON string escapes undone (for an envelope cut
/// short, which does not parse).
pub(super) fn error_texts(error: &str) -> Vec<Text> {
    let mut texts = messages_in(error, 0).unwrap_or_default();
    let unescaped = error
        .replace("\\\\n", "\n")
        .replace("\\n", "\n")
        .replace("\\\"", "\"")
        .replace("\\'", "'")
        .replace("\\u003c", "<")
        .replace("\\u003e", ">");
    texts.push(Text {
        text: unescaped,
        decoded: false,
    });
    texts
}

/// The messages of the envelope `s` is or holds: the whole text as JSON, else the first
/// place an object or list starts that parses (as JSON, then as a Python printout) and holds
/// a message. `None` when there is none.
fn messages_in(s: &str, depth: usize) -> Option<Vec<Text>> {
    if depth > MAX_DEPTH {
        return None;
    }
    let from = |v: &Value| {
        let mut texts = Vec::new();
        collect(v, &mut texts, depth);
        Some(texts).filter(|t| !t.is_empty())
    };
    if let Ok(v) = serde_json::from_str::<Value>(s.trim()) {
        return match &v {
            // A body encoded once more as a JSON string: its text is the body (or the message).
            Value::String(inner) => messages_in(inner, depth + 1).or_else(|| {
                Some(vec![Text {
                    text: inner.clone(),
                    decoded: true,
                }])
                .filter(|_| !inner.trim().is_empty())
            }),
            _ => from(&v),
        };
    }
    for (start, _) in s.match_indices(['{', '[']).take(MAX_STARTS) {
        let rest = &s[start..];
        let json = serde_json::Deserializer::from_str(rest)
            .into_iter::<Value>()
            .next()
            .and_then(Result::ok);
        let found = json
            .or_else(|| pyrepr::parse_prefix(rest).map(|(v, _)| v))
            .and_then(|v| from(&v));
        if found.is_some() {
            return found;
        }
    }
    None
}

fn collect(v: &Value, texts: &mut Vec<Text>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Array(a) => {
            for x in a {
                collect(x, texts, depth + 1);
            }
        }
        Value::Object(o) => {
            // OpenRouter's relay: the upstream's own body, as a string.
            if let Some(raw) = o
                .get("metadata")
                .and_then(|m| m.get("raw"))
                .and_then(Value::as_str)
                && let Some(inner) = messages_in(raw, depth + 1)
            {
                push_all(texts, inner);
            }
            let mut own = String::new();
            for key in ["message", "error", "detail", "msg"] {
                match o.get(key) {
                    Some(Value::String(s)) => match messages_in(s, depth + 1) {
                        // A body inside the message (a relay encoding it once more).
                        Some(inner) => push_all(texts, inner),
                        None => {
                            if !own.is_empty() {
                                own.push('\n');
                            }
                            own.push_str(s);
                        }
                    },
                    Some(inner @ (Value::Object(_) | Value::Array(_))) => {
                        collect(inner, texts, depth + 1)
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
            push_all(
                texts,
                vec![Text {
                    text: own,
                    decoded: true,
                }],
            );
        }
        _ => {}
    }
}

fn push_all(texts: &mut Vec<Text>, more: Vec<Text>) {
    for t in more {
        if !texts.contains(&t) {
            texts.push(t);
        }
    }
}

/// The provider's whole statement of a problem a template found as `found` in `text`: from
/// there to the end of its line (a template may stop short of the end, at a quote or a
/// period), and in a decoded message from the start of the line (less Google's `* ` list
/// marker: each line of its list is one problem). Lines past the last one `found` reaches are
/// other problems, or the envelope fields (`param: ...`) kept with the message. `found` is
/// returned as it is when it is not in `text` (a template's fixed wording).
pub(super) fn statement(text: &Text, found: &str) -> String {
    let t = text.text.as_str();
    let Some(at) = t.find(found).filter(|_| !found.trim().is_empty()) else {
        return found.to_string();
    };
    let line_start = t[..at].rfind('\n').map_or(0, |i| i + 1);
    let start = if text.decoded { line_start } else { at };
    let last = t[at..at + found.len()].trim_end().len();
    let end = t[at + last..].find('\n').map_or(t.len(), |i| at + last + i);
    let line = t[start..end].trim();
    let line = if text.decoded {
        line.strip_prefix("* ").unwrap_or(line)
    } else {
        line
    };
    line.trim().to_string()
}
