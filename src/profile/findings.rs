//! Findings as the check makes them: compact records whose texts (pointer, what was found,
//! the tool's name) sit in one shared buffer, rendered into owned [`Finding`]s only when
//! output needs them.
//!
//! Making a [`Finding`] costs several allocations (pointer, message with the evidence
//! sentence appended) and reference-count updates (shared texts); most findings of a corpus
//! are warnings nobody reads one by one, and the evidence sentence is the same for every
//! finding of a profile slot. So the walk records what varies per finding and nothing else;
//! [`Findings::render_into`] adds the profile's sentence and shared texts afterwards.

use std::sync::Arc;

use super::compiled::{CompiledProfile, PLACEMENTS, Slot, is_case};

/// The fix of a warning about a case's missing evidence: no target of the profile rejects
/// the feature, some have no evidence either way.
pub const UNVERIFIED_FIX: &str = "Nothing to fix yet: no target of the profile is known to reject this, but some have no evidence either way. `toolwire probe` (or the scheduled probe workflow) records what they do; `check --errors-only` shows only known rejections.";
use super::detect::covering_words;
use super::rules::Rule;
use crate::check::{Finding, Level, Subject, Text};

/// Whether what `rule` finds is wrong whatever a target does with it: a value its keyword
/// does not take is no JSON Schema (the meta-schema refuses it), so the rule's fix (what value
/// to write) holds even where no target is known to reject it.
fn wrong_without_evidence(rule: &Rule) -> bool {
    rule.id == super::rules::keyword_value_invalid::RULE.id
}

/// What an unverified finding of `rule` about the case `parameter` says of an ordinary thing,
/// if it is one: the words after what was found, and what "no evidence yet whether T accepts
/// ..." is about ([`CompiledProfile::no_evidence_yet`]). A standard type or a tool name of the
/// baseline class is warned about where a target has no evidence for it, and "`type:
/// \"array\"`: no evidence for T" read as if the type were wrong.
fn ordinary(
    rule: &Rule,
    profile: &CompiledProfile,
    slot: Slot,
) -> Option<(&'static str, &'static str)> {
    use super::feature::{Kind, Param, STANDARD_TYPES, value};
    let Slot::Unknown(i) = slot else { return None };
    let d = profile.details().get(i as usize)?;
    match super::feature::parse_parameter(&d.parameter)? {
        Param::Keyed(Kind::TypeSpelling, t)
            if rule.id == super::rules::type_unsupported::RULE.id
                && STANDARD_TYPES.contains(&t.as_str()) =>
        {
            Some(("a standard JSON Schema type", "it"))
        }
        Param::Keyed(Kind::NameChars, k)
            if rule.id == super::rules::name_invalid::RULE.id
                && [value::NAME_LOWER, value::NAME_DIGIT, value::NAME_UNDERSCORE]
                    .contains(&k.as_str()) =>
        {
            Some((
                "ordinary in tool names: lowercase letters, digits, `_`",
                "such names",
            ))
        }
        _ => None,
    }
}

/// The memo table slot of a (rule, feature): a multiplicative hash of the rule's id, the
/// kind, and the key's length and first and last eight bytes (a hash over every byte cost
/// more than the texts it saves; the entry is compared whole). The rule goes in by its id's
/// bytes, not its address: with the address, where the linker put the rules decided which
/// findings shared a slot, and a corpus check moved by 2% from build to build.
fn memo_slot(rule: &Rule, tag: (u8, &'static str), key: &str, words: (u64, u64)) -> usize {
    let (head, tail) = words;
    let (id_head, id_tail) = key_words(rule.id);
    let h = (id_head ^ id_tail.rotate_left(17))
        ^ u64::from(tag.0) << 56
        ^ (key.len() as u64) << 48
        ^ head
        ^ tail.rotate_left(29);
    (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize % MEMO_SLOTS
}

#[cfg(test)]
thread_local! {
    /// Findings rendered into owned [`Finding`]s: the tests keep callers that read a few
    /// places from rendering every finding.
    pub(crate) static RENDERED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Slots of the caches of rendered messages and fixes in [`Findings::render_into`], by the
/// start of the text they were made from.
const SHARED_SLOTS: usize = 64;

/// Texts already rendered from one [`Findings`]: findings whose texts are shared (see
/// [`Findings::memo`]) and whose verdict is the same say the same, so they share one message
/// and one fix instead of a copy each. Both caches are direct-mapped by the start of the text
/// they were made from; empty until the first finding.
#[derive(Default)]
pub(crate) struct Rendered {
    messages: Vec<Option<(MessageKey, Text, Level)>>,
    fixes: Vec<Option<(Span, Text)>>,
    scratch: String,
}

/// What a rendered message follows from: what was found, the verdict, the parameter text and
/// whether it is a limit.
type MessageKey = (Span, Slot, Option<Span>, bool);

/// A range of bytes in [`Findings`]' text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The slot of the text at this span in [`Rendered`]'s caches.
    fn slot(self) -> usize {
        self.start as usize % SHARED_SLOTS
    }

    /// The span from the start of `self` to the end of `next`, which follows it directly.
    pub(crate) fn join(self, next: Span) -> Span {
        debug_assert_eq!(self.end, next.start);
        Span {
            start: self.start,
            end: next.end,
        }
    }

    /// The first `len` bytes of the span (at most all of it).
    pub(crate) fn head(self, len: u32) -> Span {
        Span {
            start: self.start,
            end: self.end.min(self.start + len),
        }
    }

    /// Bytes in the span.
    pub(crate) fn len(self) -> u32 {
        self.end - self.start
    }
}

/// The text findings' records point into: one growing string.
#[derive(Debug, Default, Clone)]
pub(crate) struct TextBuf(String);

impl TextBuf {
    /// Appends what `f` writes and returns where it went.
    pub(crate) fn write(&mut self, f: impl FnOnce(&mut String)) -> Span {
        let start = self.0.len() as u32;
        f(&mut self.0);
        Span {
            start,
            end: self.0.len() as u32,
        }
    }

    /// Appends a copy of the text at `s` and returns where it went.
    pub(crate) fn copy(&mut self, s: Span) -> Span {
        let start = self.0.len() as u32;
        self.0.extend_from_within(s.start as usize..s.end as usize);
        Span {
            start,
            end: self.0.len() as u32,
        }
    }

    /// The bytes at `s`: for a comparison, which needs no check that `s` falls between
    /// characters.
    fn bytes(&self, s: Span) -> &[u8] {
        &self.0.as_bytes()[s.start as usize..s.end as usize]
    }

    pub(crate) fn get(&self, s: Span) -> &str {
        &self.0[s.start as usize..s.end as usize]
    }
}

/// One finding as recorded by the walk; see [`Findings`].
#[derive(Clone, Copy)]
pub(crate) struct Record {
    pub(crate) rule: &'static Rule,
    pub(crate) tool_index: usize,
    pub(crate) request: bool,
    pub(crate) tool: Span,
    pub(crate) pointer: Span,
    /// What was found: the message before the evidence sentence.
    pub(crate) what: Span,
    /// The feature's parameter spelled out, when the profile's detail does not give it (no
    /// case covers the feature, or a limit with its measured value).
    pub(crate) parameter: Option<Span>,
    /// A fix written for this finding; `None`: the rule's own.
    pub(crate) fix: Option<Span>,
    /// Never [`Slot::Allowed`].
    pub(crate) slot: Slot,
    pub(crate) limit: bool,
    pub(crate) repairable: bool,
    /// What it is about, which decides where it is located.
    pub(crate) subject: Subject,
    /// The frame of the subschema whose keyword the finding is at (`At::Key`), else
    /// [`Record::NO_FRAME`]: a finding at another subschema's keyword is at no keyword of
    /// this one, which `Cx::error_at` tells without reading its place.
    pub(crate) key_frame: u32,
}

impl Record {
    /// [`Record::key_frame`] of a finding not at a subschema's keyword.
    pub(crate) const NO_FRAME: u32 = u32::MAX;
}

/// The findings of one or more checked requests against one profile, in the order made
/// (tool, then place). Rendered with [`Findings::render_into`] (by the profile they were
/// made with); [`Findings::clear`] keeps the buffers for the next requests.
#[derive(Clone)]
pub struct Findings {
    pub(crate) records: Vec<Record>,
    pub(crate) text: TextBuf,
    /// Texts already written by findings that share them, by [`memo_slot`] (see
    /// [`Findings::memo`]); empty until the first one.
    memo: Vec<Option<Memo>>,
    /// [`CompiledProfile::id`] of the profile the memo's verdicts are from (0: none yet).
    profile: u64,
}

impl Default for Findings {
    fn default() -> Findings {
        Findings::with_capacity(0)
    }
}

/// Where the texts of an earlier finding of the same rule, feature kind and form, and key as
/// written went, so that a repeat shares them instead of writing them again (real tool
/// definitions repeat a few findings, `type: "float"` or `default`, thousands of times).
/// The feature is the same for the same key (the callers derive it from the key), so a
/// repeat also shares what the profile and the rule said of it.
#[derive(Clone, Copy)]
pub(crate) struct Memo {
    rule: &'static Rule,
    /// The feature's kind tag and form, and the key as written (in the text buffer).
    tag: (u8, &'static str),
    key: Span,
    /// The key's [`key_words`]: a key of up to 16 bytes is compared by them without reading
    /// the text (a call to compare bytes cost a fifth of a lookup).
    words: (u64, u64),
    pub(crate) what: Span,
    pub(crate) fix: Option<Span>,
    /// The profile's verdict on the feature at each placement, once asked
    /// ([`CompiledProfile::placement_index`]): a repeat skips the profile's lookup (hashing a
    /// spelling such as `float`). Valid for the profile [`Findings`] was last used with.
    pub(crate) slots: [Option<Slot>; PLACEMENTS],
    /// The rule's `repairable` answer, once given, when the caller says it depends on the
    /// feature alone (`type-invalid`'s spellings), not on the place.
    pub(crate) repairable: Option<bool>,
}

/// Two words holding every byte of `s` for a key of up to 16 bytes
/// ([`covering_words`]), else its first and last eight bytes: the memo's hash input and,
/// with the length, its comparison of short keys.
fn key_words(s: &str) -> (u64, u64) {
    covering_words(s.as_bytes()).unwrap_or_else(|| {
        let b = s.as_bytes();
        let word = |c: &[u8; 8]| u64::from_le_bytes(*c);
        (
            b.first_chunk::<8>().map_or(0, word),
            b.last_chunk::<8>().map_or(0, word),
        )
    })
}

/// Slots of [`Findings`]' memo table: a direct-mapped cache, so a lookup hashes the key and
/// compares one entry (a scan of even a few entries cost more than writing a short text).
/// At 64 slots, collisions were frequent enough that where the linker put the rules (the
/// hash takes the rule's address) moved a corpus check by 1–2% from build to build.
const MEMO_SLOTS: usize = 256;

impl Findings {
    /// An empty collection with room for `n` findings.
    pub fn with_capacity(n: usize) -> Findings {
        Findings {
            records: Vec::with_capacity(n),
            text: TextBuf(String::with_capacity(n * 48)),
            memo: Vec::new(),
            profile: 0,
        }
    }

    /// How many findings were made.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The fix written for the finding of `rule` at JSON Pointer `pointer` in tool
    /// `tool_index`, whatever its level (a rendered warning says only that the evidence is
    /// missing); `None` where there is no such finding or it has the rule's own fix. For
    /// `explain`, which reads a rejection the target did make.
    pub fn written_fix(&self, tool_index: usize, rule: &str, pointer: &str) -> Option<&str> {
        self.records
            .iter()
            .find(|r| {
                r.tool_index == tool_index
                    && !r.request
                    && r.rule.id == rule
                    && self.text.get(r.pointer) == pointer
            })
            .and_then(|r| r.fix)
            .map(|f| self.text.get(f))
    }

    /// Forgets every finding, keeping the buffers.
    pub fn clear(&mut self) {
        self.records.clear();
        self.text.0.clear();
        self.memo.clear();
    }

    /// Forgets every finding but keeps the texts they wrote, which later findings of the
    /// same rule and feature share ([`Findings::memo`]); spans of the forgotten findings stay
    /// valid for a [`Rendered`] made from these findings.
    pub(crate) fn forget_records(&mut self) {
        self.records.clear();
    }

    /// Bytes of text written so far (what [`Findings::clear`] gives back).
    pub(crate) fn text_len(&self) -> usize {
        self.text.0.len()
    }

    /// Makes the findings to come be made under the profile of [`CompiledProfile::id`] `id`:
    /// the memo's verdicts are that profile's, so another profile forgets them.
    pub(crate) fn use_profile(&mut self, id: u64) {
        if self.profile != id {
            self.memo.clear();
            self.profile = id;
        }
    }

    /// Where the memo table holds what an earlier finding of `rule` about the feature
    /// `(tag, key)` wrote, if it still does ([`Findings::memo_entry`]).
    pub(crate) fn memo(&self, rule: &Rule, tag: (u8, &'static str), key: &str) -> Option<usize> {
        let words = key_words(key);
        let slot = memo_slot(rule, tag, key, words);
        let m = self.memo.get(slot)?.as_ref()?;
        // The forms are the catalog's constants: the same address, as a rule, for the same form.
        let same_tag = m.tag.0 == tag.0 && (std::ptr::eq(m.tag.1, tag.1) || m.tag.1 == tag.1);
        let same_key = m.words == words
            && (m.key.end - m.key.start) as usize == key.len()
            && (key.len() <= 16 || self.text.bytes(m.key) == key.as_bytes());
        (std::ptr::eq(m.rule, rule) && same_tag && same_key).then_some(slot)
    }

    /// The memo table's entry at `at`, as [`Findings::memo`] or [`Findings::remember`] gave it.
    pub(crate) fn memo_entry(&mut self, at: usize) -> &mut Memo {
        self.memo[at].as_mut().expect("a memo entry given out")
    }

    /// Remembers the texts a finding of `rule` about `(tag, key)` wrote (see [`Findings::memo`]),
    /// in place of whatever shared its slot; returns where.
    pub(crate) fn remember(
        &mut self,
        rule: &'static Rule,
        tag: (u8, &'static str),
        key: &str,
        what: Span,
        fix: Option<Span>,
    ) -> usize {
        let words = key_words(key);
        let slot = memo_slot(rule, tag, key, words);
        let key = self.text.write(|t| t.push_str(key));
        if self.memo.is_empty() {
            self.memo.resize(MEMO_SLOTS, None);
        }
        self.memo[slot] = Some(Memo {
            rule,
            tag,
            key,
            words,
            what,
            fix,
            slots: [None; PLACEMENTS],
            repairable: None,
        });
        slot
    }

    /// Appends every finding, as an owned [`Finding`], to `out`: the message is what was found
    /// followed by what `profile`'s evidence says. `profile` must be the one they were made
    /// with. File, line and location are left empty (the caller knows them).
    pub fn render_into(&self, profile: &CompiledProfile, out: &mut Vec<Finding>) {
        self.render_from(0, profile, out, &mut Rendered::default());
    }

    /// [`Findings::render_into`] for the findings from the `from`-th on, sharing texts with
    /// those `rendered` already made from these findings (for a caller that renders the
    /// findings of each request as it is checked).
    pub(crate) fn render_from(
        &self,
        from: usize,
        profile: &CompiledProfile,
        out: &mut Vec<Finding>,
        rendered: &mut Rendered,
    ) {
        out.reserve(self.records.len() - from);
        self.render_kept(from, profile, out, rendered, |_| true);
    }

    /// The findings `keep` lets through, given each one's tool number, whether it is about
    /// the request as a whole, its rule id and its JSON Pointer; rendered as
    /// [`Findings::render_into`] renders them. For a caller that reads the findings at a few places: a schema with
    /// hundreds of thousands of places has as many findings, and rendering each into an owned
    /// [`Finding`] held them all at once.
    pub fn render_where(
        &self,
        profile: &CompiledProfile,
        keep: impl Fn(usize, bool, &str, &str) -> bool,
    ) -> Vec<Finding> {
        let mut out = Vec::new();
        self.render_kept(0, profile, &mut out, &mut Rendered::default(), |r| {
            keep(r.tool_index, r.request, r.rule.id, self.text.get(r.pointer))
        });
        out
    }

    /// [`Findings::render_from`] for the records `keep` lets through.
    fn render_kept(
        &self,
        from: usize,
        profile: &CompiledProfile,
        out: &mut Vec<Finding>,
        rendered: &mut Rendered,
        keep: impl Fn(&Record) -> bool,
    ) {
        let records = &self.records[from..];
        if rendered.messages.is_empty() && !records.is_empty() {
            rendered.messages.resize(SHARED_SLOTS, None);
            rendered.fixes.resize(SHARED_SLOTS, None);
        }
        let Rendered {
            messages,
            fixes,
            scratch,
        } = rendered;
        // Consecutive findings are mostly about the same tool: share its name.
        let mut last_tool: Option<(Span, Text)> = None;
        for r in records.iter().filter(|r| keep(r)) {
            #[cfg(test)]
            RENDERED.with(|c| c.set(c.get() + 1));
            let tool = match &last_tool {
                Some((span, text)) if *span == r.tool => text.clone(),
                _ => {
                    let text = Text::Shared(Arc::from(self.text.get(r.tool)));
                    last_tool = Some((r.tool, text.clone()));
                    text
                }
            };
            let parameter = r.parameter.map(|s| self.text.get(s));
            let key = (r.what, r.slot, r.parameter, r.limit);
            let (message, level) = match &messages[r.what.slot()] {
                Some((k, message, level)) if *k == key => (message.clone(), *level),
                _ => {
                    scratch.clear();
                    scratch.push_str(self.text.get(r.what));
                    let plain = ordinary(r.rule, profile, r.slot)
                        .and_then(|(is, them)| Some((is, profile.no_evidence_yet(r.slot, them)?)));
                    let level = match plain {
                        Some((is, why)) => {
                            scratch.push_str(" (");
                            scratch.push_str(is);
                            scratch.push_str("): ");
                            scratch.push_str(&why);
                            Level::Warning
                        }
                        None => {
                            scratch.push_str(": ");
                            profile.explain_with(r.slot, &parameter.unwrap_or(""), r.limit, scratch)
                        }
                    };
                    let message = Text::Shared(Arc::from(scratch.as_str()));
                    messages[r.what.slot()] = Some((key, message.clone(), level));
                    (message, level)
                }
            };
            let parameter = match (parameter, r.slot) {
                (Some(p), _) => Text::Shared(Arc::from(p)),
                (None, Slot::Rejected(i) | Slot::Unknown(i)) if is_case(i) => {
                    profile.details()[i as usize].text.clone()
                }
                (None, _) => Text::default(),
            };
            out.push(Finding {
                rule: Text::Static(r.rule.id),
                tool,
                tool_index: r.tool_index,
                request: r.request,
                pointer: self.text.get(r.pointer).to_string(),
                message,
                // A rule's fix says how to remove a feature a target rejects. A warning about
                // a case's missing evidence (a plain `integer` no one has probed yet) is not
                // answered by removing it; a feature no case covers keeps the rule's fix.
                fix: match (level, r.slot, r.fix) {
                    (Level::Warning, Slot::Unknown(i), _)
                        if is_case(i) && !wrong_without_evidence(r.rule) =>
                    {
                        Text::Static(UNVERIFIED_FIX)
                    }
                    (_, _, Some(f)) => match &fixes[f.slot()] {
                        Some((k, fix)) if *k == f => fix.clone(),
                        _ => {
                            let fix = Text::Shared(Arc::from(self.text.get(f)));
                            fixes[f.slot()] = Some((f, fix.clone()));
                            fix
                        }
                    },
                    (_, _, None) => Text::Static(r.rule.fix),
                },
                repairable: r.repairable,
                level,
                parameter,
                file: Text::default(),
                line: None,
                location: Text::default(),
                subject: r.subject,
                evidence: match r.slot {
                    Slot::Rejected(i) if is_case(i) && level == Level::Error => {
                        Some(profile.details()[i as usize].rejected_by.clone())
                    }
                    _ => None,
                },
            });
        }
    }

    /// Every finding as an owned [`Finding`] (see [`Findings::render_into`]).
    pub fn render(&self, profile: &CompiledProfile) -> Vec<Finding> {
        let mut out = Vec::new();
        self.render_into(profile, &mut out);
        out
    }
}

#[cfg(test)]
mod ordinary_tests {
    use crate::check::Level;
    use crate::profile::detect::ToolRef;

    /// A warning on a standard type or an ordinary tool name says that the thing is ordinary
    /// and that the evidence is missing (before: "`type: \"array\"`: no evidence for
    /// mistral/chat" and "tool name `f` has lowercase characters: no evidence for
    /// cohere/v2-strict", read as "my type is wrong"). An error keeps its wording.
    #[test]
    fn ordinary_things_without_evidence_say_so() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let parameters = serde_json::json!({"type": "object", "properties": {
            "tags": {"type": "array", "items": {"type": "string"}},
            "n": {"type": "integer"}}});
        let tool = ToolRef {
            name: Some("get_weather"),
            description: Some("Looks up the weather for a city."),
            parameters: Some(&parameters),
            index: 0,
            ..Default::default()
        };
        let (mut typed, mut named) = (Vec::new(), Vec::new());
        for p in &set.profiles {
            let profile = crate::profile::CompiledProfile::new(p);
            for f in crate::check::check_tools(std::slice::from_ref(&tool), &profile) {
                let m = f.message.to_string();
                let (standard, ordinary) = match f.rule.as_ref() {
                    "type-unsupported" => (&mut typed, "(a standard JSON Schema type): "),
                    "name-invalid" => (
                        &mut named,
                        " (ordinary in tool names: lowercase letters, digits, `_`): ",
                    ),
                    _ => continue,
                };
                if f.level == Level::Error {
                    assert!(!m.contains("no evidence yet"), "{}: {m}", p.name);
                    assert!(!m.contains(ordinary), "{}: {m}", p.name);
                    continue;
                }
                assert!(!m.contains("no evidence for"), "{}: {m}", p.name);
                assert!(m.contains(ordinary), "{}: {m}", p.name);
                standard.push((p.name.clone(), m));
            }
        }
        let said = |list: &[(String, String)], profile: &str, text: &str| {
            list.iter().any(|(p, m)| p == profile && m == text)
        };
        assert!(
            said(
                &typed,
                "portable",
                "`type: \"array\"` (a standard JSON Schema type): no evidence yet whether \
                 mistral/chat accepts it"
            ),
            "{typed:?}"
        );
        assert!(
            said(
                &named,
                "xai/chat",
                "tool name `get_weather` has lowercase characters (ordinary in tool names: \
                 lowercase letters, digits, `_`): no evidence yet whether xai/chat accepts \
                 such names"
            ),
            "{named:?}"
        );
    }
}
