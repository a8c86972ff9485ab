//! What compile does when the offline model rejects something no finding of the target's
//! profile answers: the request as a whole, naming no tool (vLLM's "features not supported by
//! xgrammar", Vertex's invalid function name), or a place where the profile has no evidence
//! (so `check --target` reports no error there). The model is then asked about the tool alone,
//! and the repairs that could answer it are tried one at a time; a repair is kept only when the
//! model accepts the tool once it is made, so what is kept is what the model rejected, not a
//! guess. A tool no repair answers is refused on its own, and the other tools are still sent.

use crate::evidence::Verdict;
use crate::names::{FirstChar, NameRule};
use crate::profile::CompiledProfile;
use crate::repair::{self, Change, Tool, ToolRepair};
use crate::tool::ToolDef;

use super::wire;

/// Cap on the tools of one request asked about alone after one rejection that names none:
/// each is one call of the offline model (in process, but a large schema costs its size).
pub const MAX_ALONE: usize = 64;

/// Cap on the repairs tried for one tool, each checked by asking the model again.
pub const MAX_TRIALS: usize = 24;

/// The offline model's rejection of one tool sent alone.
pub struct Alone {
    /// The model's own error.
    pub error: String,
    /// The first place into the tool's schema the model's error names, if it names one.
    pub pointer: Option<String>,
    /// The rule the model's error reads as, if any.
    pub rule: Option<String>,
}

/// The tool `t` as a request sends it.
fn def_of(t: &Tool) -> ToolDef {
    ToolDef {
        name: t.name.clone().unwrap_or_default(),
        description: t.description.clone(),
        parameters: t.parameters.clone(),
    }
}

/// What `target`'s offline model says about `t` sent alone: `None` when it does not reject
/// it (accepted, or an answer that reads as neither verdict).
pub fn rejected_alone(t: &Tool, target: &str) -> Option<Alone> {
    let answer = super::ask_model(target, &[def_of(t)])?;
    if answer.classified.verdict != Verdict::Rejected {
        return None;
    }
    let text = answer.reply.text_body();
    let explained = crate::explain::explain(Some(&answer.body), &text, Some(target));
    let first = explained
        .iter()
        .find(|e| e.tool_index.is_none_or(|i| i == 0));
    Some(Alone {
        error: answer.classified.error.clone().unwrap_or(text),
        pointer: first.and_then(|e| e.pointer.clone()),
        rule: first.and_then(|e| e.rule.clone()),
    })
}

/// The longest name a message states ("maximum length 64", "maximum length of 64").
pub fn stated_max_length(message: &str) -> Option<usize> {
    let key = "maximum length ";
    let at = message.find(key)? + key.len();
    let rest = message[at..].strip_prefix("of ").unwrap_or(&message[at..]);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The name rule a rename tried for a rejection uses: the characters and first character
/// every provider's name rule takes (letters, digits, `_`, `-`; a letter or `_` first), and
/// the length the model's message states (64, the common limit, when it states none).
fn fallback_name_rule(target: &str, message: &str) -> NameRule {
    NameRule {
        scope: target.to_string(),
        max_len: stated_max_length(message).unwrap_or(64),
        punctuation: "_-".into(),
        first: FirstChar::LetterOrUnderscore,
        source: "the offline model's rejection".into(),
        assumed: true,
    }
}

/// One repair to try: the tool once made, and its changes.
struct Trial {
    tool: Tool,
    changes: Vec<Change>,
}

/// Depth of a JSON Pointer (its number of tokens).
fn depth(pointer: &str) -> usize {
    pointer.matches('/').count()
}

/// Tries the repairs that could answer the model's rejection of `r`'s tool (its `message`,
/// at `pointer` when it names one), keeping the first after which the model accepts the tool
/// alone: a rename (when the name breaks the rule every provider takes or is longer than the
/// message states, and no tool of `taken` has the new name), then the repairs of the profile's
/// keyword findings, those at or below `pointer` first, then the deepest first (a repair of a
/// keyword higher up, such as `properties`, would drop the place the model rejects with
/// everything around it). `note` is added to each change kept (what the rejection rests on).
/// Returns the place repaired, or `None` when no repair tried answers the model.
#[allow(clippy::too_many_arguments)]
pub fn repair_until_accepted(
    r: &mut ToolRepair,
    target: &str,
    form: wire::Form,
    profile: &CompiledProfile,
    opts: &repair::Options,
    message: &str,
    pointer: Option<&str>,
    taken: &[String],
    note: &str,
) -> Option<String> {
    let mut tried = 0;
    let mut keep = |trial: Trial, r: &mut ToolRepair| -> bool {
        tried += 1;
        if tried > MAX_TRIALS || rejected_alone(&trial.tool, target).is_some() {
            return false;
        }
        let before = r.changes.len();
        super::take_model_repair(r, trial.tool, trial.changes);
        for c in &mut r.changes[before..] {
            // Inside the parenthesis take_model_repair closes.
            if c.action.ends_with(')') {
                c.action.pop();
                c.action.push_str(note);
                c.action.push(')');
            }
        }
        true
    };
    if let Some(trial) = rename(&r.tool, target, message, taken)
        && keep(trial, r)
    {
        return Some(String::new());
    }
    let findings = crate::check::check_tools(&[r.tool.as_ref(0)], profile);
    let keyword_rules = super::RELATED[1];
    let mut ranked: Vec<&crate::check::Finding> = findings
        .iter()
        .filter(|f| keyword_rules.contains(&f.rule.as_str()))
        .collect();
    let under = |f: &crate::check::Finding| {
        pointer.is_some_and(|p| f.pointer == p || f.pointer.starts_with(&format!("{p}/")))
    };
    ranked.sort_by_key(|f| (!under(f), std::cmp::Reverse(depth(&f.pointer))));
    for f in ranked.into_iter().take(MAX_TRIALS) {
        let Ok((mut tool, mut changes)) =
            repair::fix_finding_among(&r.tool, &findings, f, profile, opts)
        else {
            continue;
        };
        // The repair may make the wire form apply where it did not (see the main loop).
        if let Some(schema) = tool.parameters.as_mut() {
            match wire::apply(form, schema) {
                Ok(more) => changes.extend(more),
                Err(_) => continue,
            }
        }
        if keep(Trial { tool, changes }, r) {
            return Some(f.pointer.clone());
        }
    }
    None
}

/// A rename of `t` to fit [`fallback_name_rule`], unless its name fits or the new name is
/// one of `taken`.
fn rename(t: &Tool, target: &str, message: &str, taken: &[String]) -> Option<Trial> {
    let name = t.name.as_deref()?;
    let rule = fallback_name_rule(target, message);
    let new = rule.sanitize(name);
    if new == name || taken.contains(&new) {
        return None;
    }
    let rule_id = if name.chars().count() > rule.max_len {
        "name-too-long"
    } else {
        "name-invalid"
    };
    let mut tool = t.clone();
    tool.name = Some(new.clone());
    Some(Trial {
        tool,
        changes: vec![Change {
            pointer: String::new(),
            rule: rule_id.into(),
            action: format!(
                "renamed `{name}` to `{new}` (map the provider's calls of `{new}` back to `{name}`)"
            ),
            emptied: false,
            lost: None,
        }],
    })
}
