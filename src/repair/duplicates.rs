//! Keys written twice that a rewrite drops. The reader keeps the last value of a key written
//! more than once (as most JSON parsers do), and a document repair writes from its value has
//! only that one: the other values the author wrote are gone from the file, though a provider
//! that keeps the first would have read the first. That is a loss like any other repair makes.

use crate::input::ToolEntry;
use crate::json::duplicates::{DuplicateKey, WrittenTwice, locate_values};

use super::envelope::Placed;
use super::{Change, Outcome};

/// A key written twice whose other values a rewrite dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct Dropped {
    /// Where the key is, in its document (its line's).
    pub at: DuplicateKey,
    /// The tool it is in (an index in the `tools` given to [`losses`]); `None` for a key of
    /// the request around the tools, which is no tool's loss.
    pub tool: Option<usize>,
    /// The loss line, its pointer in the tool's schema (`""` for the tool's own keys).
    pub change: Change,
}

/// Each key that `source` (one document or JSON Lines line, as read) writes more than once
/// with values that differ and that `written` (what repair writes in its place) no longer
/// holds so. `entries` are the tools of `source` as read, `tools` what repair made of them;
/// a key in a tool left out (refused, and `keep` not set) is not written at all, so it is
/// not a loss.
pub fn losses(
    source: &str,
    written: &str,
    entries: &[ToolEntry],
    tools: &[Placed<'_>],
    keep: bool,
) -> Vec<Dropped> {
    let kept = locate_values(written);
    let mut out = Vec::new();
    for w in locate_values(source) {
        if w.values.windows(2).all(|p| p[0] == p[1]) || kept.contains(&w) {
            continue;
        }
        let (tool, pointer) = match owner(&w.at, entries) {
            Some((i, _)) if !keep && tools[i].repair.outcome == Outcome::Refused => continue,
            Some((i, pointer)) => (Some(i), pointer),
            None => (None, w.at.pointer.clone()),
        };
        out.push(Dropped {
            change: loss(&w, pointer),
            tool,
            at: w.at,
        });
    }
    out
}

/// The tool the key at `at` belongs to, and the key's place in that tool's schema (`""` for
/// a key of the tool itself, such as its `description`).
fn owner(at: &DuplicateKey, entries: &[ToolEntry]) -> Option<(usize, String)> {
    let under = |prefix: &str| {
        at.pointer
            .strip_prefix(prefix)
            .filter(|rest| rest.is_empty() || rest.starts_with('/'))
    };
    let key = crate::json::escape_token(&at.key);
    entries.iter().enumerate().find_map(|(i, e)| {
        if let Some(rest) = under(&e.schema_pointer) {
            return Some((i, format!("{rest}/{key}")));
        }
        under(e.tool_pointer.as_deref()?).map(|_| (i, String::new()))
    })
}

fn loss(w: &WrittenTwice, pointer: String) -> Change {
    let shown: Vec<String> = w.values.iter().map(super::fixes::show).collect();
    let n = w.values.len();
    let gone = if n == 2 {
        "the first is".to_string()
    } else {
        format!("the other {} are", n - 1)
    };
    Change {
        pointer,
        rule: String::new(),
        action: format!(
            "kept the last of the {n} values of `{}` ({})",
            w.at.key,
            shown.join(", ")
        ),
        emptied: false,
        lost: Some(format!(
            "{gone} gone from the file: a provider that keeps the first would have read {}",
            shown[0]
        )),
    }
}
