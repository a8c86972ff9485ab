//! `toolwire repair`: conservative rewrites of tool definitions so that a profile accepts
//! them, with every repair and every loss reported, and a refusal (with the reason) for what
//! cannot be repaired.
//!
//! Repair is driven by `check` itself: it checks the tool against the profile, takes the first
//! *error* finding (a feature some target of the profile has rejecting evidence for), tries
//! that finding's candidate rewrites in order (the `fixes` submodule) and keeps the first after
//! which the finding is gone and no new kind of error appears; then checks again. The same
//! rewrite is first tried at every other error of that kind, all at once and checked once, so
//! a kind found at a thousand places takes one round; rewrites copy only the subschemas they
//! edit, and a tool that would take more work than [`MAX_WORK`] allows is refused with the
//! reason, so time stays bounded. So the
//! parameters (allowed keywords, types, formats, limits, name characters) all come from the
//! profile, and the output passes `check --errors-only` for the same profile by construction.
//! Findings that are only warnings (a target has no evidence either way) are left as they are
//! and listed as unverified, with one exception: a standard type written in another case
//! (`Integer`, `STRING`) that the profile does not allow as written is always written in lower
//! case, since it names that type for every target that accepts it (so no accepted argument
//! changes) and the lowercase name is what the profile judges.
//!
//! What a rewrite may do: drop a keyword that only annotates or narrows (saying what it
//! narrowed in the description, e.g. "At least 1."), inline local `$ref`s (cycle guard,
//! expansion cap [`refs::MAX_INLINE_NODES`], the nesting cap, and the hop limit every command
//! shares, [`crate::schema::refs::MAX_REF_HOPS`]), write a string `const` as a one-value `enum`,
//! write `[T, "null"]` as `T` with the property made optional, drop `required` names that are
//! not properties, normalise non-standard type spellings (`dict` → `object`), rename a tool
//! to the profile's name characters, write a missing description. What it never does: guess
//! what an array without `items`, a free-form object, a union of types or a recursive or
//! remote `$ref` means; those tools are refused and left out (unless kept on request). A
//! property named like a keyword (`default`, `type`, `properties`) is always a name: every
//! pointer is read with schema semantics ([`place`]).
//!
//! A repaired tool that says OpenAI's `strict: true` keeps it only while the offline model of
//! `openai/chat-strict` accepts the repaired schema; otherwise the flag is written `false` and
//! the change reported ([`strict`]): repair never emits a strict tool its own model rejects.
//!
//! Repair is idempotent: its output has no error finding left, so a second run changes
//! nothing.

pub mod conjunction;
pub mod duplicates;
pub mod envelope;
mod fixes;
pub(crate) use fixes::made_optional_for_null;
pub mod layout;
pub mod place;
pub mod refs;
pub mod rename;
pub mod strict;
pub mod tool_choice;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Serialize;
use serde_json::Value;

use crate::check::{Finding, Level};
use crate::profile::CompiledProfile;
use crate::profile::detect::ToolRef;
use crate::profile::feature::{Kind, Param, parse_parameter};

pub use fixes::TypeListReading;
pub use fixes::{
    ACCEPTED_ANY, MEMBERS_ELSEWHERE, TypeSource, all_of_declares_members, all_of_repairable,
    any_of_siblings_movable, const_outside_enum, declares_members, max_allowed, name_rule,
    one_of_repairable, only_annotates, root_is_an_object, says_members_elsewhere,
    type_from_combinator, type_list_reading, type_said_by, typed_from_holder,
};
pub(crate) use fixes::{
    Cut, EMPTY_ALL_OF_DROPPED, branch_place, dropped_too, inlined, mend_required, narrowing_drop,
    short_of, show, true_branch_written,
};

/// One tool as repair sees it: a bare schema has no name.
#[derive(Debug, PartialEq, Serialize)]
pub struct Tool {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    /// OpenAI's `strict` flag as the input wrote it ([`crate::input::ToolEntry::strict`]);
    /// repair sets it to `false` when strict mode rejects the repaired schema
    /// ([`strict::settle`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
    /// The provider whose own `strict: true` the input wrote
    /// ([`crate::input::ToolEntry::strict_tool_use`]): repair writes it back as it was,
    /// compile leaves it out and says so.
    #[serde(skip)]
    pub strict_tool_use: Option<&'static str>,
}

#[cfg(test)]
thread_local! {
    /// The tools with a schema copied on this thread ([`Tool`]'s `clone`): a schema may be
    /// megabytes, so a test bounds how many copies a caller makes of one.
    pub static SCHEMA_COPIES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

// By hand, not derived, for the count above.
impl Clone for Tool {
    fn clone(&self) -> Tool {
        #[cfg(test)]
        if self.parameters.is_some() {
            SCHEMA_COPIES.with(|c| c.set(c.get() + 1));
        }
        Tool {
            name: self.name.clone(),
            description: self.description.clone(),
            parameters: self.parameters.clone(),
            strict: self.strict,
            strict_tool_use: self.strict_tool_use,
        }
    }
}

impl Tool {
    /// The tool as the checker sees it, numbered `index` (its position in the request):
    /// re-check a repaired tool with [`crate::check::check_tools`]`(&[t.as_ref(0)], profile)`.
    pub fn as_ref(&self, index: usize) -> ToolRef<'_> {
        ToolRef {
            // Repair writes the canonical schema, never the strict form (`strict::settle`
            // decides the flag), so its re-check does not judge `strict-form-missing`.
            strict: false,
            name: self.name.as_deref(),
            description: self.description.as_deref(),
            parameters: self.parameters.as_ref(),
            index,
            // Repair settles a tool without arguments by `Options::required_schema_key`
            // itself (`fixes::shapes::root_shape`), not by what its re-checks mark repairable.
            required_schema_key: None,
        }
    }

    /// The tool without its schema (a copy that never recurses into `parameters`).
    fn clone_shallow(&self) -> Tool {
        Tool {
            name: self.name.clone(),
            description: self.description.clone(),
            parameters: None,
            strict: self.strict,
            strict_tool_use: self.strict_tool_use,
        }
    }

    /// The tool as `{"name","description","parameters"}` (a bare schema: the schema itself).
    pub fn to_value(&self) -> Value {
        match (&self.name, &self.parameters) {
            (None, Some(p)) => p.clone(),
            _ => serde_json::to_value(self).unwrap_or(Value::Null),
        }
    }
}

impl From<&crate::input::ToolEntry> for Tool {
    fn from(e: &crate::input::ToolEntry) -> Tool {
        Tool {
            name: e.name.clone(),
            description: e.description.clone(),
            parameters: e.parameters.clone(),
            strict: e.strict,
            strict_tool_use: e.strict_tool_use,
        }
    }
}

impl From<&crate::tool::ToolDef> for Tool {
    fn from(t: &crate::tool::ToolDef) -> Tool {
        Tool {
            name: Some(t.name.clone()),
            description: t.description.clone(),
            parameters: t.parameters.clone(),
            strict: None,
            strict_tool_use: None,
        }
    }
}

/// One repair or loss.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Change {
    /// JSON Pointer into the tool's input schema (`""`: the schema root or the tool itself).
    /// `compile` names a place of the schema as given, the one the user edits, also where it
    /// moved that place (a schema strict mode wrapped in `anyOf` is named itself, one inlined
    /// from a `$ref` is named at the definition the reference reaches), and so does `repair`
    /// ([`place::name_as_given`]); a place compile wrote below the schema as given is named by
    /// the place as given it is in, so compile's pointers resolve in the schema as given.
    pub pointer: String,
    /// The rule whose finding it answers; empty for a loss no finding asked for: a key
    /// written twice whose first value the rewritten file no longer holds
    /// ([`duplicates::losses`]), or a keyword dropped because the one its meaning rests on was
    /// (`additionalProperties` beside a dropped `patternProperties`).
    pub rule: String,
    /// What was done.
    pub action: String,
    /// True when the change leaves an argument the model can send only as `{}`: strict mode
    /// closing a nested free-form object, which declares no member to keep. The tool still
    /// compiles, so its report line says so, lest "repaired" read as "fine".
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub emptied: bool,
    /// What the provider no longer sees or enforces, when anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost: Option<String>,
}

/// Why a tool could not be repaired.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Refusal {
    /// JSON Pointer into the tool's schema as given, as for [`Change::pointer`]: `compile`
    /// names a place its offline model (or its wire form) names in the schema as compiled by
    /// the place as given it is in, so its pointers resolve in the schema as given (RFC 6901).
    pub pointer: String,
    /// The rule id of the finding left unrepaired (`toolwire rule ID` documents it); `compile`
    /// for a refusal of compile's own (its offline model's rejection, a wire form it cannot
    /// write), whose reason names the rule the rejection reads as.
    pub rule: String,
    /// The profile feature the refusal rests on, e.g. `structure: array-without-items`; empty
    /// (and left out of the JSON report) when it rests on none: compile's own refusals (rule
    /// `compile`: the offline model's answer or the wire form, not a finding of the profile)
    /// and toolwire's own caps. An empty string read as a feature named nothing (trial 80 D1).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub parameter: String,
    /// Why no repair applies, in words.
    pub reason: String,
}

/// What happened to one tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// No error finding: nothing to do.
    Unchanged,
    /// Every error finding was repaired.
    Repaired,
    /// At least one error finding has no repair; the tool is left out (or kept unchanged).
    Refused,
}

/// The result for one tool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolRepair {
    /// Position in the input (0-based).
    pub index: usize,
    /// The JSON Lines line the tool was read from (1-based; `None` for a JSON document, and
    /// when repair is called on tools rather than a file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The tool's number in human reports ([`human`]): its place in its request (0-based;
    /// built-in tools counted, as [`crate::input::ToolEntry::index`] counts them), so that a
    /// JSON Lines tool is named by its line and its place there, as `check` names it by its
    /// line; for a JSON document, which is one request, it is `index`.
    #[serde(skip)]
    pub number: usize,
    /// The name as given (empty for a bare schema).
    pub name: String,
    /// Unchanged, repaired or refused.
    pub outcome: Outcome,
    /// Every rewrite made, each with what it lost.
    pub changes: Vec<Change>,
    /// Why the tool was refused (empty unless [`Outcome::Refused`]).
    pub refusals: Vec<Refusal>,
    /// The features (profile parameters) of every warning `check` gives on the tool as repair
    /// leaves it (no target of the profile has rejecting evidence, some have none either
    /// way), each with how many warnings it gives (one per place, as `check` counts them, for
    /// the human report's closing line): those of the input repair left and those its
    /// rewrites brought in (`float` written as `number`, `oneOf` as `anyOf`). JSON lists the
    /// features, each once, sorted.
    #[serde(serialize_with = "features_only")]
    pub unverified: BTreeMap<String, usize>,
    /// The part of `unverified` repair's own rewrites brought in: per feature, the warnings
    /// past those `check` gives on the tool as given (a `float` written as `number`, a
    /// non-ASCII description cut with `…`), so that the report can tell them from the
    /// input's. JSON lists the features, sorted, and leaves the list out when it is empty.
    #[serde(
        serialize_with = "features_only",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub introduced: BTreeMap<String, usize>,
    /// The part of `unverified` repair has a rewrite for ([`Finding::repairable`]) but does
    /// not make, since no target of the profile has rejecting evidence for it (a rewrite
    /// could only lose what the provider would have used); `check` does not mark these
    /// "(repairable)", as repair does not change them. The input's only: a feature whose
    /// every such warning repair's rewrites brought in is `introduced` alone, and one listed
    /// in both has warnings of each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_as_written: Vec<String>,
    /// The repaired tool (for a refused tool: the input, unchanged).
    #[serde(skip)]
    pub tool: Tool,
}

impl ToolRepair {
    /// The name the tool is sent under: the repaired tool's ([`ToolRepair::tool`]), which a
    /// rename for the profile's name rule (or, in compile, for the offline model's rejection)
    /// changed from [`ToolRepair::name`]; the model calls the tool by it. `None` for a
    /// refused tool (not sent) and a bare schema.
    pub fn sent_name(&self) -> Option<&str> {
        match self.outcome {
            Outcome::Refused => None,
            _ => self.tool.name.as_deref(),
        }
    }
}

/// Repair settings.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Cap on the schema nodes `$ref` inlining may produce (a value past
    /// [`refs::MAX_INLINE_NODES_CEILING`] is read as that ceiling).
    pub max_inline_nodes: usize,
    /// Refused tools are written unchanged (`repair --keep-unrepairable`), so their names are
    /// still sent and take part in the name census: a rename onto one is refused.
    pub keep_unrepairable: bool,
    /// Cap on the schema values repair may copy and read for one tool ([`MAX_WORK`]).
    pub max_work: usize,
    /// Levels of the document above the schemas (the containers of their place, e.g. 4 for
    /// `/tools/0/function/parameters`), so that a repaired schema (its `$ref`s inlined) is
    /// refused when the file written would nest past [`crate::input::LIMITS`], which every
    /// command reads; 0 for a bare schema.
    pub envelope_depth: usize,
    /// The key the request's tool shape requires each tool's schema under
    /// ([`crate::input::ToolEntry::required_schema_key`]: Anthropic's `input_schema`, MCP's
    /// `inputSchema`, Bedrock Converse's `toolSpec.inputSchema`), where repair writes the tools
    /// back in that shape: a tool without arguments is then never written with its schema left
    /// out, which would not be a tool of that shape (trial 64 D3: `toolwire check` refused the
    /// output as bad input), but with the empty argument object, or refused where the profile
    /// rejects that too. `None` where the shape may leave the schema out, and for `compile`,
    /// which writes each target's own shape.
    pub required_schema_key: Option<&'static str>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_inline_nodes: refs::MAX_INLINE_NODES,
            keep_unrepairable: false,
            max_work: MAX_WORK,
            envelope_depth: 0,
            required_schema_key: None,
        }
    }
}

/// Rules whose findings concern the request as a whole; the name census handles duplicates
/// and the tool count is the caller's to change.
const REQUEST_RULES: &[&str] = &["name-duplicate", "too-many-tools"];

/// Rounds that change the tool, at most: each rewrites every error of one kind, so this is
/// far more than any tool needs; it stops two rewrites that would undo each other forever.
/// Rounds that change nothing (a kind with no repair) do not count: there is one per kind.
const MAX_ROUNDS: usize = 400;

/// Schema values that repair may copy or read for one tool before it gives up (each check
/// reads the whole schema; a rewrite copies what it edits, or the whole tool). It bounds the
/// time of the largest inputs whatever their rewrites, and lets through every corpus tool
/// and 30,000 misspelt types among 30,000 properties (0.5 s here).
pub const MAX_WORK: usize = 50_000_000;

/// Repairs the tools of one request against `profile`, then takes a census of the names
/// ([`crate::names::census_of`]): a tool renamed onto the name of a tool that keeps it is
/// refused, and tools whose names collide otherwise (two renames, or as given) are all
/// refused, except tools sharing a name as given under a profile none of whose targets is
/// known to reject that (`name-unique` not rejected): those are kept, with `name-unique`
/// listed as unverified. A repaired tool
/// that says `strict: true` keeps it only while OpenAI's strict mode accepts the repaired
/// schema ([`strict::settle`]); one left unchanged whose schema is not in strict form is
/// refused ([`strict::refuse_not_in_strict_form`]). One that asks for a provider's own
/// strict tool use keeps its flag, and each closed object repair opened says so in its loss
/// ([`strict::mark_tool_use_losses`]).
///
/// One [`ToolRepair`] per tool, in order; nothing is an error, a tool that cannot be
/// repaired is [`Outcome::Refused`] with its [`Refusal`]s:
///
/// ```
/// use serde_json::json;
/// use toolwire::profile::{CompiledProfile, PORTABLE};
/// use toolwire::repair::{Outcome, Tool, repair_request};
///
/// let profiles = toolwire::profile::embedded_set()?;
/// let portable = CompiledProfile::new(profiles.get(PORTABLE).expect("built in"));
/// let tool = |name: &str, parameters| Tool {
///     name: Some(name.into()),
///     description: Some("d".into()),
///     parameters: Some(parameters),
///     strict: None,
///     strict_tool_use: None,
/// };
/// let tools = [
///     tool("fine", json!({"type": "object", "properties": {"q": {"type": "string"}}})),
///     // A `$ref` to nothing: no repair can know what was meant.
///     tool("broken", json!({"type": "object", "properties": {"q": {"$ref": "#/$defs/gone"}}})),
/// ];
/// let repaired = repair_request(&tools, &portable, &Default::default());
/// assert_eq!(repaired[0].outcome, Outcome::Unchanged);
/// assert_eq!(repaired[1].outcome, Outcome::Refused);
/// println!("{}", toolwire::repair::human(&repaired[1]));
/// # Ok::<(), toolwire::Error>(())
/// ```
pub fn repair_request(
    tools: &[Tool],
    profile: &CompiledProfile,
    opts: &Options,
) -> Vec<ToolRepair> {
    let drops = request_count_drops(tools, profile);
    let out = match &drops {
        Some((dropped, _)) => repair_schemas(dropped, profile, opts),
        None => repair_schemas(tools, profile, opts),
    };
    settle_request(out, tools, drops, &[], profile, opts)
}

/// [`repair_request`] for a caller that gives its tools up: a tool refused before any
/// rewrite for toolwire's own caps ([`past_the_caps`]: megabytes of schema, hundreds of
/// thousands of subschemas) is moved into its refusal's [`ToolRepair::tool`], where
/// [`repair_request`] copies it there. The results are those of [`repair_request`].
pub fn repair_request_owned(
    mut tools: Vec<Tool>,
    profile: &CompiledProfile,
    opts: &Options,
) -> Vec<ToolRepair> {
    let drops = request_count_drops(&tools, profile);
    if drops.is_some() {
        // Repaired from the copies with definitions dropped, which are given up instead.
        return repair_request(&tools, profile, opts);
    }
    let objects: Vec<bool> = tools
        .iter()
        .map(|t| matches!(t.parameters, Some(Value::Object(_))))
        .collect();
    let out = repair_schemas_giving_up(&mut tools, &objects, profile, opts);
    // The tools given up hold their schemas in their results alone.
    let given_up: Vec<bool> = tools
        .iter()
        .zip(&objects)
        .map(|(t, &object)| object && t.parameters.is_none())
        .collect();
    settle_request(out, &tools, None, &given_up, profile, opts)
}

/// What [`repair_request`] does after each tool's repair (`out`, of `tools`, repaired from
/// `drops`' copies when some definitions were dropped): the drops' change lines, `strict`,
/// places named as given and what a refused tool leaves. A tool marked in `given_up` holds
/// its schema as given in its result alone ([`repair_schemas_giving_up`]).
fn settle_request(
    mut out: Vec<ToolRepair>,
    tools: &[Tool],
    drops: Option<(Vec<Tool>, Vec<Vec<Change>>)>,
    given_up: &[bool],
    profile: &CompiledProfile,
    opts: &Options,
) -> Vec<ToolRepair> {
    let drops = drops.map(|(_, changes)| changes).unwrap_or_default();
    for ((r, given), changes) in out.iter_mut().zip(tools).zip(drops) {
        if changes.is_empty() {
            continue;
        }
        if r.outcome == Outcome::Refused {
            // Left out, or kept as given: none of its repairs happen.
            r.tool = given.clone();
        } else {
            r.changes.splice(0..0, changes);
            r.outcome = Outcome::Repaired;
        }
    }
    for (i, (r, given)) in out.iter_mut().zip(tools).enumerate() {
        strict::settle(r);
        strict::refuse_not_in_strict_form(r, profile);
        strict::mark_tool_use_losses(r);
        // A refused tool's is the tool as given.
        let kept = given_up.get(i).copied().unwrap_or(false).then(|| {
            let shallow = r.tool.clone_shallow();
            std::mem::replace(&mut r.tool, shallow)
        });
        let given = kept.as_ref().unwrap_or(given);
        name_places_as_given(r, given);
        left_of_refused(r, given, profile, opts.keep_unrepairable);
        if let Some(kept) = kept {
            r.tool = kept;
        }
    }
    out
}

/// Makes every change line and refusal of `r` name its place in the schema as given, the one
/// the user edits (as compile's do): repair works on a copy where what a local `$ref` reaches
/// is inlined, so `/properties/channel/oneOf` there is `/$defs/Channel/oneOf` as written
/// ([`place::name_as_given`]).
fn name_places_as_given(r: &mut ToolRepair, given: &Tool) {
    let (Some(original), Some(repaired)) = (given.parameters.as_ref(), r.tool.parameters.as_ref())
    else {
        return;
    };
    if place::has_ref(original) {
        let repaired = repaired.clone();
        place::name_as_given(r, original, &repaired);
    }
}

/// The tools of a request whose properties across its tools the profile rejects
/// (`request-property-count-limit`, an error of the request that no tool's repair answers),
/// where without those in definitions no `$ref` reaches the count is within the limit, as
/// check then marks that finding repairable: each tool with such definitions has them
/// dropped, as compile drops them (they constrain nothing), the change lines answering
/// `size-exceeded`: the tools so written, and each one's changes (none for a tool as given).
/// `None` when nothing is dropped.
/// Only a profile with a case of that limit, and a request whose schemas hold definitions, is
/// measured.
fn request_count_drops(
    tools: &[Tool],
    profile: &CompiledProfile,
) -> Option<(Vec<Tool>, Vec<Vec<Change>>)> {
    use crate::profile::compiled::Slot;
    use crate::profile::feature::{Feat, Limit};
    use crate::profile::rules::size_exceeded;
    let limit = Limit::RequestPropertyCount;
    let defines = |t: &Tool| {
        t.parameters.as_ref().is_some_and(|p| {
            ["$defs", "definitions"]
                .iter()
                .any(|c| p.get(c).is_some_and(Value::is_object))
        })
    };
    if tools.len() < 2 || profile.limit_floor(limit) == usize::MAX || !tools.iter().any(defines) {
        return None;
    }
    let roots = || tools.iter().filter_map(|t| t.parameters.as_ref());
    let n: usize = roots().map(crate::profile::detect::property_count).sum();
    let at = crate::case::Placement::Request;
    if n < profile.limit_floor(limit)
        || !matches!(
            profile.lookup(&Feat::Limit(limit, n), at),
            Slot::Rejected(_)
        )
    {
        return None;
    }
    let unreached: usize = roots().map(size_exceeded::unreached_properties).sum();
    if unreached == 0 || profile.lookup(&Feat::Limit(limit, n - unreached), at) != Slot::Allowed {
        return None;
    }
    let mut written = tools.to_vec();
    let changes = written
        .iter_mut()
        .map(|t| {
            let mut changes = match t.parameters.as_mut() {
                Some(p) => crate::compile::canonical::drop_unreferenced_definitions(p),
                None => Vec::new(),
            };
            for c in &mut changes {
                c.rule = size_exceeded::RULE.id.into();
            }
            changes
        })
        .collect();
    Some((written, changes))
}

/// [`repair_request`] without [`strict::settle`]: `compile` decides `strict` by its target.
pub(crate) fn repair_schemas(
    tools: &[Tool],
    profile: &CompiledProfile,
    opts: &Options,
) -> Vec<ToolRepair> {
    let out: Vec<ToolRepair> = tools
        .iter()
        .enumerate()
        .map(|(i, t)| repair_tool(t, i, profile, opts))
        .collect();
    settle_names(out, tools, &[], profile, opts)
}

/// [`repair_schemas`] for a caller that gives up the schema of each tool marked in `past`
/// (one [`past_the_caps`] refuses, as compile finds before its rewrites): such a tool is
/// refused as [`repair_tool`] refuses it, and its schema is moved into the refusal's
/// [`ToolRepair::tool`] (the input, unchanged, as for every refused tool), not copied, which
/// leaves `tools[i].parameters` `None`. A tool marked but within the caps after all is
/// repaired as any other.
pub(crate) fn repair_schemas_giving_up(
    tools: &mut [Tool],
    past: &[bool],
    profile: &CompiledProfile,
    opts: &Options,
) -> Vec<ToolRepair> {
    let mut given_up = vec![false; tools.len()];
    let out: Vec<ToolRepair> = tools
        .iter_mut()
        .enumerate()
        .map(|(i, t)| {
            if past.get(i) != Some(&true) {
                return repair_tool(t, i, profile, opts);
            }
            if let Some(refusal) = refused_before_any_rewrite(t) {
                given_up[i] = true;
                let schema = t.parameters.take();
                let kept = Tool {
                    // As [`repair_tool`] keeps it: no schema past the nesting cap.
                    parameters: schema.filter(|_| refusal.rule != NESTING_TOO_DEEP),
                    ..t.clone_shallow()
                };
                return refused_outright(t, i, refusal, kept);
            }
            match t.parameters {
                // Measured already: the depth and the caps are not walked again.
                Some(Value::Object(_)) => repair_admitted(t, i, profile, opts),
                _ => repair_tool(t, i, profile, opts),
            }
        })
        .collect();
    settle_names(out, tools, &given_up, profile, opts)
}

/// The name census of [`repair_schemas`] over its results `out` for `tools`; a tool marked
/// in `given_up` holds its schema in its result alone ([`repair_schemas_giving_up`]), so a
/// refusal here keeps that result's tool rather than copying the tool from `tools`.
fn settle_names(
    mut out: Vec<ToolRepair>,
    tools: &[Tool],
    given_up: &[bool],
    profile: &CompiledProfile,
    opts: &Options,
) -> Vec<ToolRepair> {
    // Each tool's name as given and as repair left it: repair renamed exactly the names the
    // profile rejects, so only the names sent are compared (a name the profile's rule would
    // sanitize but no evidence rejects is sent as written, and collides with nothing).
    // A refused tool is sent only when it is kept, and then under its name as given (its
    // `tool` is the input).
    let named: Vec<(usize, &str, String)> = out
        .iter()
        .enumerate()
        .filter(|(_, r)| opts.keep_unrepairable || r.outcome != Outcome::Refused)
        .filter_map(|(i, r)| Some((i, tools[i].name.as_deref()?, r.tool.name.clone()?)))
        .collect();
    let pairs: Vec<(&str, &str)> = named
        .iter()
        .map(|(_, given, sent)| (*given, sent.as_str()))
        .collect();
    let census = crate::names::census_of(&pairs, &profile.name);
    // Tools that share a name as given, none renamed onto it, are refused only where a target
    // of the profile rejects two tools of one name (`name-unique`, as `check` makes it an
    // error); elsewhere they are kept, as `check` only warns. A rename that collides is
    // repair's own doing and is always refused.
    let duplicates_rejected = matches!(
        profile.lookup(
            &crate::profile::feature::Feat::NameUnique,
            crate::case::Placement::Request
        ),
        crate::profile::compiled::Slot::Rejected(_)
    );
    let as_given = |i: usize| {
        let (given, sent) = pairs[i];
        given == sent
            && pairs
                .iter()
                .filter(|(_, s)| *s == sent)
                .all(|(g, s)| g == s)
    };
    for (k, ((i, _, _), outcome)) in named.iter().zip(census).enumerate() {
        if !duplicates_rejected
            && matches!(outcome, crate::names::NameOutcome::Refused { .. })
            && as_given(k)
        {
            // Kept, and listed as `check` lists it: a warning no evidence backs.
            let r = &mut out[*i];
            // `check` gives each tool of the name its own warning.
            r.unverified.entry("name-unique".into()).or_insert(1);
            continue;
        }
        if let crate::names::NameOutcome::Refused { reason } = outcome {
            let r = &mut out[*i];
            r.outcome = Outcome::Refused;
            r.refusals.push(Refusal {
                pointer: String::new(),
                rule: "name-duplicate".into(),
                parameter: "name-unique".into(),
                reason: format!("after repair, {reason}"),
            });
            // Left out or kept unchanged: none of its repairs (its rename included) happen.
            r.changes.clear();
            if given_up.get(*i) != Some(&true) {
                r.tool = tools[*i].clone();
            }
        }
    }
    out
}

/// Findings about a request as a whole that repair leaves to its caller (it cannot split a
/// request, and the name census already settles duplicates): the errors of `too-many-tools`
/// over `tools`, the tools of one request as they will be written.
pub fn request_findings(tools: &[&Tool], profile: &CompiledProfile) -> Vec<Finding> {
    let refs: Vec<ToolRef<'_>> = tools.iter().enumerate().map(|(i, t)| t.as_ref(i)).collect();
    crate::check::check_tools(&refs, profile)
        .into_iter()
        .filter(|f| f.request && f.level == Level::Error && f.rule != "name-duplicate")
        .collect()
}

/// Every finding of `tool` alone.
fn findings(tool: &Tool, profile: &CompiledProfile) -> Vec<Finding> {
    crate::check::check_tools_within_cap(&[tool.as_ref(0)], profile)
}

/// Whether repair must remove a finding: an error of the tool's own (not the request's), or
/// a standard type written in another case that the profile does not allow as written, at any
/// level (see [`is_type_case_variant`]).
fn is_own_error(f: &Finding) -> bool {
    (f.level == Level::Error && !REQUEST_RULES.contains(&f.rule.as_str()))
        || is_type_case_variant(f)
}

/// Whether `f` is a standard type written in another case (`Integer`, `STRING`). Such a
/// spelling is repaired even when no target rejects it (a warning): every target that accepts
/// it reads it as the lowercase type, so the rewrite changes no accepted argument and loses
/// nothing, while leaving it would leave a finding that the lowercase name does not have.
pub(crate) fn is_type_case_variant(f: &Finding) -> bool {
    f.rule == crate::profile::rules::type_invalid::RULE.id
        && matches!(
            parse_parameter(&f.parameter),
            Some(Param::Keyed(Kind::TypeSpelling, t))
                if crate::profile::feature::case_variant_of_standard_type(&t).is_some()
        )
}

/// The error findings of `tool` that are its own (not the request's).
fn errors(tool: &Tool, profile: &CompiledProfile) -> Vec<Finding> {
    let mut all = findings(tool, profile);
    all.retain(is_own_error);
    all
}

/// Counts per kind of every finding and of the tool's own errors, from one check.
fn kinds_all_and_errors(fs: &[Finding]) -> (Kinds, Kinds) {
    let mut all = Kinds::new();
    let mut errors = Kinds::new();
    for f in fs {
        let k = kind(f);
        if is_own_error(f) {
            *errors.entry(k.clone()).or_default() += 1;
        }
        *all.entry(k).or_default() += 1;
    }
    (all, errors)
}

/// Whether `k`, a kind of error left after a rewrite, is one of the kinds in `before` (the
/// errors before it). A `type-list` finding quotes the names of its list as written
/// (`type-list: integer,Number`), so respelling a name in it quotes the list anew: judged by
/// the same case (`type-list: string,integer`), it is the error the list had, not a new one
/// (before, `["integer", "Number"]` could not be respelled and was refused as a union).
fn known_kind(k: &(String, String), before: &Kinds) -> bool {
    let list = crate::profile::rules::type_list::RULE.id;
    before.contains_key(k)
        || (k.0 == list
            && list_case(&k.1).is_some()
            && before
                .keys()
                .any(|b| b.0 == list && list_case(&b.1) == list_case(&k.1)))
}

/// The case that judges a `type-list` finding's parameter (`type-list: integer,Number` is
/// judged by `type-list: string,integer`); `None` for another parameter. The parameter
/// quotes a name that joins several in one string as written (`type-list: string, null` for
/// `["string, null"]`), which check judges as the names it joins: split at `|` too and
/// trimmed, it is read the same (before, split at `,` alone into `string` and ` null`, it
/// was taken for a union).
fn list_case(parameter: &str) -> Option<&'static str> {
    let names = parameter.strip_prefix("type-list: ")?;
    // A standard type in another case is read as that type, as the respelling of it that
    // repair always makes reads it (trial 84 D1: respelling `["String", "String"]` in place
    // gave `["string", "String"]`, judged a union of two types, a new kind: the respelling
    // was undone, the list written as `type: String`, and `["string", "String"]` was refused
    // as a union of `string` and `String`).
    let names: Vec<Value> = names
        .split([',', '|'])
        .map(|n| {
            let n = n.trim();
            Value::String(
                crate::profile::feature::case_variant_of_standard_type(n)
                    .unwrap_or(n)
                    .into(),
            )
        })
        .collect();
    Some(crate::profile::rules::type_list::representative(&names))
}

/// A finding's kind: rule and feature, with a limit's measured value left out.
fn kind(f: &Finding) -> (String, String) {
    let feature = match parse_parameter(&f.parameter) {
        Some(Param::Limit(l, _)) => l.family().to_string(),
        _ => f.parameter.to_string(),
    };
    (f.rule.to_string(), feature)
}

/// Findings counted per kind.
type Kinds = BTreeMap<(String, String), usize>;

fn kinds(fs: &[Finding]) -> Kinds {
    let mut m = Kinds::new();
    for f in fs {
        *m.entry(kind(f)).or_default() += 1;
    }
    m
}

/// Repairs one finding of `tool` (any level, e.g. one a target's offline model turned out to
/// reject): the first candidate rewrite after which the finding's kind has fewer instances
/// and no new kind of error appears. `None` (with the reason) when there is none.
pub fn fix_finding(
    tool: &Tool,
    finding: &Finding,
    profile: &CompiledProfile,
    opts: &Options,
) -> Result<(Tool, Vec<Change>), String> {
    fix_finding_among(tool, &findings(tool, profile), finding, profile, opts)
}

/// [`fix_finding`] for a caller that already has every finding of `tool` (`all`, as
/// [`crate::check::check_tools`] gives them for the tool alone), so they are not made again.
pub fn fix_finding_among(
    tool: &Tool,
    all: &[Finding],
    finding: &Finding,
    profile: &CompiledProfile,
    opts: &Options,
) -> Result<(Tool, Vec<Change>), String> {
    let (before_all, before_errors) = kinds_all_and_errors(all);
    let target = kind(finding);
    let memo = fixes::Memo::of(opts);
    for c in fixes::candidates(tool, finding, profile, &memo)? {
        let rewritten = c.rewrite.applied_to(tool)?;
        let (after_all, after_errors) = kinds_all_and_errors(&findings(&rewritten, profile));
        let gone = after_all.get(&target).copied().unwrap_or(0)
            < before_all.get(&target).copied().unwrap_or(0);
        let new_error = after_errors.keys().any(|k| !known_kind(k, &before_errors));
        // A keyword written in its valid form keeps its finding's feature: an error of the
        // kind must be gone, a warning need only bring in no error.
        let errors_of = |k: &Kinds| k.get(&target).copied().unwrap_or(0);
        let respelled = c.respells
            && match finding.level {
                Level::Error => errors_of(&after_errors) < errors_of(&before_errors),
                _ => errors_of(&after_errors) <= errors_of(&before_errors),
            };
        if (gone || respelled) && !new_error {
            return Ok((rewritten, c.changes));
        }
    }
    Err("no repair tried removes it".into())
}

/// Applies the `nth` candidate rewrite, the one that removed the first of them cleanly, to
/// every finding in `all` (the errors of one kind, in document order), so that a kind found
/// at a thousand places takes one round, not a thousand. They are rewritten last first: an
/// edit then never moves the pointer of one still to be rewritten (removing an array member
/// shifts only the members after it). `None` unless each of them has that candidate, more
/// than one is fixed, no two rewrites change the same place, and together they remove every
/// one of them without bringing in a new kind of error; the caller then keeps the single
/// rewrite. Rewrites of one subschema are made in place: the tool is copied once, not once
/// each. `work` counts the values copied and read; past `opts.max_work`, `None`.
fn fix_all_of_kind(
    tool: &Tool,
    all: &[&Finding],
    nth: usize,
    before: &Kinds,
    profile: &CompiledProfile,
    opts: &Options,
    work: &mut usize,
) -> Option<(Tool, Vec<Change>)> {
    let [first, _, ..] = all else {
        return None;
    };
    let target = kind(first);
    let size = tool.parameters.as_ref().map_or(1, crate::json::value_count);
    let mut current = tool.clone();
    *work += size;
    let mut made: Vec<Vec<Change>> = Vec::with_capacity(all.len());
    // Made for `tool`, and asked about `current`: those of its changes made so far are of
    // one kind, which [`fixes::Memo`] allows for.
    let memo = fixes::Memo::of(opts);
    for f in all.iter().rev() {
        let list = fixes::candidates(&current, f, profile, &memo).ok()?;
        *work += list.iter().map(|c| c.rewrite.copied()).sum::<usize>();
        if *work > opts.max_work {
            return None;
        }
        let c = list.into_iter().nth(nth)?;
        c.rewrite.apply(&mut current).ok()?;
        made.push(c.changes);
    }
    // Two rewrites at one place (several members of one `required`) mean the first already
    // fixed what the second was for, whose change then says nothing true.
    let mut places: Vec<&str> = made.iter().flatten().map(|c| c.pointer.as_str()).collect();
    places.sort_unstable();
    if places.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    *work += size;
    let after = kinds(&errors(&current, profile));
    let left = after.get(&target).copied().unwrap_or(0);
    let had = before.get(&target).copied().unwrap_or(0);
    let clean = left + all.len() <= had && after.keys().all(|k| known_kind(k, before));
    clean.then(|| (current, made.into_iter().rev().flatten().collect()))
}

/// Why repair gave up on a tool past the work cap: how much work was done, how large the
/// schema is, and the errors it was rewriting together, if it was.
fn gave_up_reason(
    work: usize,
    cap: usize,
    size: usize,
    during: Option<(usize, &(String, String))>,
) -> String {
    let during = during.map_or(String::new(), |(n, (rule, feature))| {
        format!(" while rewriting {n} errors of `{rule}` ({feature})")
    });
    format!(
        "repair gave up after copying and reading {work} schema values{during}, more than it \
         does for one tool ({cap}); the schema has {size} values"
    )
}

/// Why repair gave up on a tool whose errors of one kind could not be rewritten together,
/// when rewriting them one a round would pass the work cap.
fn one_at_a_time_reason(
    work: usize,
    cap: usize,
    size: usize,
    (n, (rule, feature)): (usize, &(String, String)),
) -> String {
    format!(
        "repair gave up after copying and reading {work} schema values while rewriting {n} \
         errors of `{rule}` ({feature}): rewritten together they bring in another error, and \
         one at a time would take more than it does for one tool ({cap}); the schema has \
         {size} values"
    )
}

/// Whether `f` is a root shape whose repair writes the schema anew ([`Repairing::
/// replaces_schema`](crate::profile::rules::Repairing::replaces_schema) is check's side):
/// an object that declares no arguments.
fn replaces_schema(f: &Finding) -> bool {
    use crate::profile::feature::value;
    f.rule == crate::profile::rules::object_properties_missing::RULE.id
        && matches!(
            parse_parameter(&f.parameter),
            Some(Param::Keyed(Kind::RootShape, v))
                if v == value::ROOT_NO_ARGUMENTS || v == value::ROOT_OBJECT_WITHOUT_PROPERTIES
        )
}

/// Whether `f` is one of the two rules about how a tool without arguments is written.
fn no_arguments_rule(f: &Finding) -> bool {
    matches!(
        f.rule.as_str(),
        "object-properties-missing" | "parameters-missing"
    )
}

/// Repairs one tool (see the module documentation for the loop). A schema nesting deeper than
/// [`crate::input::LIMITS`] allows (brackets counted, as in a file) is refused (rule
/// `nesting-too-deep`, at the first place past the cap) before any step recurses into it; its
/// [`ToolRepair::tool`] then has no `parameters` (a copy would recurse as deep). A parameters
/// schema that is no schema object is first read as compile reads it
/// ([`crate::compile::canonical::write_root`]: `true` as `{}`, `null` as no schema, the
/// reading reported as the first change) or refused with compile's reason (`false`, a
/// string, number or list).
pub fn repair_tool(
    tool: &Tool,
    index: usize,
    profile: &CompiledProfile,
    opts: &Options,
) -> ToolRepair {
    // A root that is no schema object (`true`, `null`) is read the way compile reads it
    // ([`crate::compile::canonical::write_root`]), so the two commands agree on what such a
    // tool takes; only the roots that helper refuses are refused here.
    // A bare `null` document is no tool without arguments: read as absent, it would be
    // written as `{}`, which takes any.
    let mut parameters = match &tool.parameters {
        Some(Value::Object(_)) | None => return repair_schema_object(tool, index, profile, opts),
        Some(Value::Null) if tool.name.is_none() => {
            return repair_schema_object(tool, index, profile, opts);
        }
        Some(other) => Some(other.clone()),
    };
    match crate::compile::canonical::write_root(&mut parameters) {
        Err(refusal) => refused_outright(tool, index, refusal, tool.clone()),
        Ok(mut written) => {
            // `null` declares no schema, read as left out; a shape that requires the key
            // (Anthropic's `input_schema`...) has no tool without it, so there the empty
            // argument object says it (checked below like any schema).
            if parameters.is_none()
                && let Some(key) = opts.required_schema_key
                && let Some(c) = &mut written
            {
                parameters = Some(serde_json::json!({"type": "object", "properties": {}}));
                c.action = format!(
                    "declared an empty argument object (`null` declares no schema: the tool \
                     takes no arguments, and its shape requires `{key}`)"
                );
            }
            let read = Tool {
                parameters,
                ..tool.clone_shallow()
            };
            let mut r = repair_schema_object(&read, index, profile, opts);
            if r.outcome == Outcome::Refused {
                // Passed on as given (or left out), like every refused tool; its refusals
                // name places of the schema as read, so they say how it was read.
                r.tool = tool.clone();
                if let Some(c) = &written {
                    for x in &mut r.refusals {
                        x.reason = format!("after repair {}, {}", c.action, x.reason);
                    }
                }
            } else {
                r.changes.splice(0..0, written);
                r.outcome = Outcome::Repaired;
                // Brought in by repair: what the root as read has past the root as given.
                let given =
                    warnings_as_given(tool, &findings(tool, profile), |t| findings(t, profile));
                let written = findings(&r.tool, profile);
                set_left(&mut r, &written, &given);
            }
            r
        }
    }
}

/// Whether JSON Pointer `pointer` is strictly inside one of `places` (`/a/b/c` is inside
/// `/a/b` and `/a`, not inside `/a/bc`).
fn within_any(pointer: &str, places: &HashSet<&str>) -> bool {
    pointer
        .match_indices('/')
        .any(|(at, _)| at > 0 && places.contains(&pointer[..at]))
}

/// Whether a branch of the `allOf` of the schema at `node` in `root` (or of a branch's own
/// `allOf`, and so on) sets `keyword`, which merging joins with the schema's.
fn all_of_sets(root: &Value, node: &str, keyword: &str) -> bool {
    // A list, not recursion: the branches nest as deep as the input's nesting cap.
    let mut open: Vec<&Value> = root.pointer(node).into_iter().collect();
    while let Some(at) = open.pop() {
        for branch in at
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if branch.get(keyword).is_some() {
                return true;
            }
            open.push(branch);
        }
    }
    false
}

/// The result for a tool refused before any check: `refusal` says why, and `kept` is what
/// `--keep-unrepairable` writes.
fn refused_outright(tool: &Tool, index: usize, refusal: Refusal, kept: Tool) -> ToolRepair {
    ToolRepair {
        index,
        line: None,
        number: index,
        name: tool.name.clone().unwrap_or_default(),
        outcome: Outcome::Refused,
        changes: Vec::new(),
        refusals: vec![refusal],
        unverified: BTreeMap::new(),
        introduced: BTreeMap::new(),
        left_as_written: Vec::new(),
        tool: kept,
    }
}

/// Why repair refuses a tool whose parameters schema is `schema` before rewriting any of it,
/// in `ref-expansion-exceeded`'s words: past toolwire's own caps (one `args` refuses, or
/// more subschemas than check reads); `None` within them. Its values bound its subschemas,
/// and only a schema with that many values is measured.
pub(crate) fn past_the_caps(schema: &Value) -> Option<String> {
    if crate::json::value_count(schema) <= crate::args::MAX_EXPANDED {
        return None;
    }
    let truncated = crate::schema::count(schema).truncated;
    crate::profile::rules::ref_expansion_exceeded::past_cap(schema, truncated)
}

/// The rule of a refusal for a schema past the nesting cap, whose schema is not kept.
const NESTING_TOO_DEEP: &str = crate::profile::rules::nesting_too_deep::RULE.id;

/// Why [`repair_schema_object`] refuses `tool` before rewriting any of it, if it does: its
/// schema nests past [`crate::input::LIMITS`] (rule `nesting-too-deep`, at the first place
/// past the cap), or is past toolwire's own caps ([`past_the_caps`], rule
/// `ref-expansion-exceeded`, at the root).
fn refused_before_any_rewrite(tool: &Tool) -> Option<Refusal> {
    let max = crate::input::LIMITS.max_depth;
    let schema = tool.parameters.as_ref()?;
    if let Some(pointer) = crate::json::first_too_deep(schema, max) {
        return Some(Refusal {
            pointer,
            rule: NESTING_TOO_DEEP.into(),
            parameter: format!("nesting: at most {max} levels"),
            reason: crate::json::too_deep_problem(max),
        });
    }
    // A schema past toolwire's own caps (one `args` refuses, or more subschemas than check
    // reads) stays refused whatever is rewritten: say so before rewriting any of it. Its
    // values bound its subschemas, and only a schema with that many values is measured.
    past_the_caps(schema).map(|reason| Refusal {
        pointer: String::new(),
        rule: crate::profile::rules::ref_expansion_exceeded::RULE
            .id
            .into(),
        parameter: String::new(),
        reason,
    })
}

/// [`repair_tool`] for a tool whose parameters schema is an object or absent.
fn repair_schema_object(
    tool: &Tool,
    index: usize,
    profile: &CompiledProfile,
    opts: &Options,
) -> ToolRepair {
    if let Some(refusal) = refused_before_any_rewrite(tool) {
        // A schema past the nesting cap is not kept (a copy would recurse as deep).
        let kept = if refusal.rule == NESTING_TOO_DEEP {
            Tool {
                parameters: None,
                ..tool.clone_shallow()
            }
        } else {
            tool.clone()
        };
        return refused_outright(tool, index, refusal, kept);
    }
    repair_admitted(tool, index, profile, opts)
}

/// [`repair_schema_object`] for a tool [`refused_before_any_rewrite`] does not refuse.
fn repair_admitted(
    tool: &Tool,
    index: usize,
    profile: &CompiledProfile,
    opts: &Options,
) -> ToolRepair {
    let mut current = tool.clone();
    let mut changes = Vec::new();
    let mut refusals: Vec<Refusal> = Vec::new();
    // Ranges of `refusals` made because of a `$ref` repair cannot inline
    // ([`refer_to_the_ref_refused`]).
    let mut ref_refused: Vec<(std::ops::Range<usize>, refs::Refusal)> = Vec::new();
    let mut stuck: BTreeSet<(String, String)> = BTreeSet::new();
    // Places refused for a reason of their own (an `enum` of mixed kinds): the other places
    // of their kind stay open, since each may still be repaired.
    let mut stuck_at: BTreeSet<((String, String), String)> = BTreeSet::new();
    let mut repaired: BTreeSet<(String, String)> = BTreeSet::new();
    let mut converged = false;
    // The warnings of the last check of `current`, kept so that they need no check of their
    // own.
    let mut last_check = Vec::new();
    // The warnings of the tool as given (its first check), which those left are told from.
    let mut given = BTreeMap::new();
    let mut work = 0;
    let mut gave_up = None;
    let mut rounds = 0;
    let mut changed = true;
    let mut size = 0;
    let mut errs: Vec<Finding> = Vec::new();
    let mut before = Kinds::new();
    // What the fixes read of the whole of `current`, made anew with each change of it.
    let mut memo = fixes::Memo::of(opts);
    'rounds: loop {
        if changed {
            memo = fixes::Memo::of(opts);
            if rounds == MAX_ROUNDS {
                break;
            }
            rounds += 1;
            size = current
                .parameters
                .as_ref()
                .map_or(1, crate::json::value_count);
            if work > opts.max_work {
                gave_up = Some(gave_up_reason(work, opts.max_work, size, None));
                break;
            }
            work += size;
            // Split, not copied: a tool may have hundreds of thousands of findings.
            errs.clear();
            last_check.clear();
            for f in findings(&current, profile) {
                match (f.level == Level::Warning, is_own_error(&f)) {
                    (true, true) => {
                        errs.push(f.clone());
                        last_check.push(f);
                    }
                    (true, false) => last_check.push(f),
                    (false, true) => errs.push(f),
                    (false, false) => {}
                }
            }
            before = kinds(&errs);
            if rounds == 1 {
                given = warnings_as_given(&current, &last_check, |t| findings(t, profile));
            }
        }
        // A rewrite of the whole schema (a tool that takes no arguments, written another way)
        // comes first: every other error of the schema goes with it.
        let open = |f: &&Finding| {
            let k = kind(f);
            !stuck.contains(&k) && !stuck_at.contains(&(k, f.pointer.clone()))
        };
        // An error inside a keyword another open error would drop (a `contains` the profile
        // rejects, holding a `const` it rejects too) waits for that one: rewritten first, its
        // change would name a rewrite the output does not keep, and the drop's loss would
        // quote a value never written (new-user trial).
        let drops: HashSet<&str> = errs
            .iter()
            .filter(|g| {
                open(g) && g.rule.as_str() == crate::profile::rules::keyword_unsupported::RULE.id
            })
            .map(|g| g.pointer.as_str())
            .collect();
        // An object declaring its members only in its `allOf` waits for the merge
        // that gives them to it (trial 47 D10: it was refused first as a free-form object).
        let merges: HashSet<&str> = errs
            .iter()
            .filter(|g| open(g))
            .filter_map(|g| g.pointer.strip_suffix("/allOf"))
            .collect();
        // So does a `type` list the branch narrows (trial 48 D1: `[string, null]` beside
        // `allOf: [{type: string}]` was made optional for a null the schema never accepted).
        let narrowed_type = |g: &Finding| {
            g.rule.as_str() == crate::profile::rules::type_list::RULE.id
                && g.pointer.strip_suffix("/type").is_some_and(|node| {
                    merges.contains(node)
                        && current
                            .parameters
                            .as_ref()
                            .is_some_and(|p| all_of_sets(p, node, "type"))
                })
        };
        // So does an annotation dropped at a node whose merge meets the same annotation, or a
        // description, in a branch (trial 58 D19: `default: "a"` beside `allOf: [{default:
        // "b"}]` was said first, then the branch's came up and was said too: "Default: \"a\".
        // Default: \"b\"."): merged, the node holds the one value the merge keeps and the
        // descriptions joined in the order written, and the drop says what the merge left.
        // The merge sets these annotations apart before it looks for a conflict
        // ([`refs::ANNOTATIONS`]), so they never keep it from being made and waiting changes
        // nothing else; a merge refused is no longer open, and the drop goes ahead.
        let merged_annotation = |g: &Finding| {
            g.rule.as_str() == crate::profile::rules::keyword_unsupported::RULE.id
                && g.pointer.rsplit_once('/').is_some_and(|(node, k)| {
                    refs::ANNOTATIONS.contains(&k)
                        && merges.contains(node)
                        && current.parameters.as_ref().is_some_and(|p| {
                            all_of_sets(p, node, k) || all_of_sets(p, node, "description")
                        })
                })
        };
        let waits = |g: &Finding| {
            merged_annotation(g)
                || (!drops.is_empty() && within_any(&g.pointer, &drops))
                || (g.rule.as_str() == crate::profile::rules::object_properties_missing::RULE.id
                    && (merges.contains(g.pointer.as_str())
                        || g.pointer
                            .strip_suffix("/properties")
                            .is_some_and(|node| merges.contains(node))))
                || narrowed_type(g)
        };
        let members_elsewhere = current
            .parameters
            .as_ref()
            .and_then(Value::as_object)
            .is_some_and(says_members_elsewhere);
        let Some(f) = (errs
            .iter()
            .filter(open)
            .find(|f| !members_elsewhere && replaces_schema(f)))
        .or_else(|| errs.iter().filter(open).find(|g| !waits(g)))
        .or_else(|| errs.iter().find(open)) else {
            converged = true;
            break;
        };
        let target = kind(f);
        let tried = fixes::candidates(&current, f, profile, &memo);
        // Each is built (copied), then applied to a copy of the tool and checked.
        work += tried
            .as_ref()
            .map_or(0, |l| l.iter().map(|c| c.rewrite.copied() + 2 * size).sum());
        let mut fixed = false;
        let mut why = String::new();
        match tried {
            Ok(list) => {
                // A candidate that removes the finding and brings in no new kind of error
                // wins; failing that, one whose new kinds were never repaired in this tool
                // before (so two repairs cannot undo each other forever), and they are
                // repaired or refused in later rounds.
                let mut second: Option<(Tool, Vec<Change>)> = None;
                for (nth, c) in list.into_iter().enumerate() {
                    let rewritten = match c.rewrite.applied_to(&current) {
                        Ok(t) => t,
                        Err(e) => {
                            why = e;
                            continue;
                        }
                    };
                    let after = kinds(&errors(&rewritten, profile));
                    let gone = after.get(&target).copied().unwrap_or(0)
                        < before.get(&target).copied().unwrap_or(0);
                    let new_kinds: Vec<&(String, String)> =
                        after.keys().filter(|k| !known_kind(k, &before)).collect();
                    if gone && new_kinds.is_empty() {
                        let all: Vec<&Finding> = errs
                            .iter()
                            .filter(|g| kind(g) == target && open(g) && !waits(g))
                            .collect();
                        let together =
                            fix_all_of_kind(&current, &all, nth, &before, profile, opts, &mut work);
                        if work > opts.max_work {
                            // One at a time would take more work still.
                            let during = Some((all.len(), &target));
                            gave_up = Some(gave_up_reason(work, opts.max_work, size, during));
                            break 'rounds;
                        }
                        // Rewritten together they brought in another error (one the check
                        // could not see while they were there), so each takes a round of its
                        // own, and every round checks the whole schema: give up now rather
                        // than after rounds that cannot finish within the cap.
                        let rounds_left = all.len().saturating_sub(1);
                        if together.is_none()
                            && rounds_left > 0
                            && work.saturating_add(rounds_left.saturating_mul(3 * size))
                                > opts.max_work
                        {
                            gave_up = Some(one_at_a_time_reason(
                                work,
                                opts.max_work,
                                size,
                                (all.len(), &target),
                            ));
                            break 'rounds;
                        }
                        let (tool, made) = together.unwrap_or((rewritten, c.changes));
                        current = tool;
                        changes.extend(made);
                        fixed = true;
                        break;
                    }
                    // A warning is never traded for another error.
                    if gone
                        && f.level == Level::Error
                        && second.is_none()
                        && new_kinds.iter().all(|k| !repaired.contains(*k))
                    {
                        second = Some((rewritten, c.changes));
                        continue;
                    }
                    why = match new_kinds.first() {
                        Some(k) if repaired.contains(*k) => format!(
                            "the profile rejects both ways of writing it: `{}` and `{}`",
                            target.1, k.1
                        ),
                        Some((r, p)) => format!(
                            "every repair tried brings in another rejected feature ({r}: {p})"
                        ),
                        None => "no repair tried removes it".into(),
                    };
                }
                if !fixed && let Some((tool, made)) = second {
                    current = tool;
                    changes.extend(made);
                    fixed = true;
                }
            }
            Err(reason) => why = reason,
        }
        if fixed {
            repaired.insert(target.clone());
        }
        changed = fixed;
        let mut about = f;
        let first_seen;
        if !fixed && no_arguments_rule(f) && takes_no_arguments(&current) {
            // `properties: {}` beside `required: ["x"]` takes x: no tool without arguments
            // (trial 48 D2: gemini/v1beta/parameters said it was one).
            why = if members_elsewhere {
                MEMBERS_ELSEWHERE.into()
            } else if opts.required_schema_key.is_some() {
                fixes::no_form_in_shape(opts.required_schema_key)
            } else {
                "a tool without arguments has no form every target of the profile accepts \
                 (`parameters` left out, or an object with no properties); `toolwire compile \
                 --target T` writes the form each target takes"
                    .into()
            };
            // Earlier rounds may have tried the other form (`properties: {}` left out): the
            // refusal names the tool's form as written, where `check` puts the finding.
            first_seen = findings(tool, profile);
            if let Some(original) = first_seen
                .iter()
                .find(|o| is_own_error(o) && no_arguments_rule(o))
            {
                about = original;
            }
        }
        if !fixed {
            // A reason of the place's own says nothing of the kind's other places (trial Q:
            // an `enum` of mixed kinds gave its reason to a `const: 5` beside it): those
            // with no reason of their own are tried in their turn.
            // Each place's own reason may resolve its `$ref`: the declarations are searched
            // once for all of them (10,000 `$ref`s to anchors kept: 47 s without, in debug).
            let _declarations = current
                .parameters
                .as_ref()
                .map(crate::schema::refs::indexed);
            let own_place = f.level == Level::Error
                && fixes::own_reason(&current, about, profile, &memo).is_some();
            if !own_place {
                stuck.insert(target.clone());
            }
            if f.level == Level::Warning {
                // A case variant no target rejects: left as written (listed as unverified),
                // never a reason to refuse the tool.
                continue;
            }
            // Every place of the kind is refused for the same reason, as check lists each,
            // unless the reason was the place's own.
            let others = errs.iter().filter(|g| {
                !std::ptr::eq(*g, f) && kind(g) == target && g.pointer != about.pointer
            });
            let from = refusals.len();
            for g in std::iter::once(about).chain(others) {
                let reason = match fixes::own_reason(&current, g, profile, &memo) {
                    Some(own) => own,
                    None if own_place => continue,
                    None => why.clone(),
                };
                stuck_at.insert((kind(g), g.pointer.clone()));
                refusals.push(Refusal {
                    pointer: g.pointer.clone(),
                    rule: g.rule.to_string(),
                    parameter: g.parameter.to_string(),
                    reason,
                });
            }
            // Which `$ref` kept these from being inlined, in the schema as it was then.
            if about.rule == crate::profile::rules::ref_unsupported::RULE.id
                && let Some(s) = current.parameters.as_ref()
                && let Err(r) =
                    refs::inline_with(s, opts.max_inline_nodes, refs::Conflicts::under(profile))
            {
                ref_refused.push((from..refusals.len(), r));
            }
        }
    }
    refer_to_the_ref_refused(&mut refusals, &ref_refused, &last_check);
    if !converged {
        refusals.push(Refusal {
            pointer: String::new(),
            rule: String::new(),
            parameter: String::new(),
            reason: gave_up
                .unwrap_or_else(|| format!("repair did not settle within {MAX_ROUNDS} rounds")),
        });
    }
    if !converged {
        last_check = findings(&current, profile);
    }
    // Two kinds refused at one place for one reason (a `$ref` both plain and with siblings)
    // are one refusal to the reader.
    let mut said = BTreeSet::new();
    refusals.retain(|r| said.insert((r.pointer.clone(), r.rule.clone(), r.reason.clone())));
    one_line_per_place(&mut refusals);
    if refusals.is_empty() && !changes.is_empty() {
        let depth = current
            .parameters
            .as_ref()
            .map_or(0, crate::json::value_depth);
        // Saturating: `envelope_depth` is the caller's number, and any sum past the cap is
        // refused the same way (a wrapped sum would pass as shallow).
        let in_file = depth.saturating_add(opts.envelope_depth);
        let max = crate::input::LIMITS.max_depth;
        if in_file > max {
            refusals.push(Refusal {
                pointer: String::new(),
                rule: crate::profile::rules::nesting_too_deep::RULE.id.into(),
                parameter: format!("nesting: at most {max} levels"),
                reason: format!(
                    "repaired, the schema would nest {depth} levels, {} in the file with the \
                     {} above it: past the {max} levels every command reads",
                    in_file, opts.envelope_depth
                ),
            });
        }
    }
    let outcome = if !refusals.is_empty() {
        Outcome::Refused
    } else if changes.is_empty() {
        Outcome::Unchanged
    } else {
        Outcome::Repaired
    };
    if outcome == Outcome::Refused {
        // The tool is passed on unchanged (or left out): nothing was repaired.
        changes.clear();
    }
    let mut r = ToolRepair {
        index,
        line: None,
        number: index,
        name: tool.name.clone().unwrap_or_default(),
        outcome,
        changes,
        refusals,
        unverified: BTreeMap::new(),
        introduced: BTreeMap::new(),
        left_as_written: Vec::new(),
        tool: if outcome == Outcome::Refused {
            tool.clone()
        } else {
            current
        },
    };
    set_left(&mut r, &last_check, &given);
    r
}

/// Sets what `r` says is left ([`ToolRepair::unverified`], its part
/// [`ToolRepair::introduced`], and [`ToolRepair::left_as_written`]) from `written`, a check
/// of the tool as it is written, and `given`, the warnings per feature of the tool as given
/// ([`warnings_per_feature`]). `name-unique` is kept when listed: it is the request's, which a
/// check of one tool never gives.
pub(crate) fn set_left(r: &mut ToolRepair, written: &[Finding], given: &BTreeMap<String, usize>) {
    let request = r.unverified.remove_entry("name-unique");
    r.unverified = warnings_per_feature(written);
    r.introduced = past(&r.unverified, given);
    r.unverified.extend(request);
    r.left_as_written = left_of_the_input(written, &r.introduced);
}

/// The features [`ToolRepair::left_as_written`] lists: those of the warnings in `written` (a
/// check of the tool as written) that repair has a rewrite for ([`Finding::repairable`]), where
/// at least one of them is the input's, being past the `introduced` ones. A feature whose
/// every such warning the rewrites brought in (compile's strict form writes an optional
/// `anyOf` with a `null` branch; repair cuts a description to 1024 characters) is
/// `introduced` only: left as written, it would read as the input's (trial 66 D6).
fn left_of_the_input(written: &[Finding], introduced: &BTreeMap<String, usize>) -> Vec<String> {
    let mut repairable: BTreeMap<&str, usize> = BTreeMap::new();
    for f in written
        .iter()
        .filter(|f| f.level == Level::Warning && f.repairable)
    {
        *repairable.entry(f.parameter.as_str()).or_default() += 1;
    }
    repairable
        .into_iter()
        .filter(|&(feature, n)| n > introduced.get(feature).copied().unwrap_or(0))
        .map(|(feature, _)| feature.to_string())
        .collect()
}

/// Per feature, the warnings of `left` past those of `given` (both [`warnings_per_feature`]):
/// those repair brought in.
///
/// Some features' words move with any rewrite ([`counted_as`]): a limit's names the size
/// measured (`schema-bytes-limit: 20126`), a `type-list`'s quotes its names (`type-list:
/// String,null` respelled `string,null`). Such a warning counts as brought in only past the
/// warnings of its class the tool as given had, so a size the input was already over, or a
/// list whose name repair respelled, stays the input's (trial 73 D2: compile's strict form
/// added 55 bytes to a schema of 20,071 and its warning was said "written by compile"; the
/// input's lists were said "written by repair").
fn past(
    left: &BTreeMap<String, usize>,
    given: &BTreeMap<String, usize>,
) -> BTreeMap<String, usize> {
    let per_class = |m: &BTreeMap<String, usize>| {
        let mut per: BTreeMap<String, usize> = BTreeMap::new();
        for (feature, n) in m {
            if let Some(class) = counted_as(feature) {
                *per.entry(class).or_default() += n;
            }
        }
        per
    };
    let given_classes = per_class(given);
    // What each class holds past the input's, handed out to its features in turn.
    let mut surplus = per_class(left);
    for (class, n) in &mut surplus {
        *n = n.saturating_sub(given_classes.get(class).copied().unwrap_or(0));
    }
    let mut past = BTreeMap::new();
    for (feature, &n) in left {
        let mut here = n.saturating_sub(given.get(feature).copied().unwrap_or(0));
        if let Some(left_over) = counted_as(feature).and_then(|c| surplus.get_mut(&c)) {
            here = here.min(*left_over);
            *left_over -= here;
        }
        if here > 0 {
            past.insert(feature.clone(), here);
        }
    }
    past
}

/// The class [`past`] counts a feature's warnings in, where its words move with a rewrite:
/// a limit's family (its size left out) or the case that judges a `type-list`
/// ([`list_case`]); `None` for any other feature, counted by its own words.
fn counted_as(feature: &str) -> Option<String> {
    match parse_parameter(feature) {
        Some(Param::Limit(l, _)) => Some(l.family().to_string()),
        _ => list_case(feature).map(|c| format!("type-list: {c}")),
    }
}

/// Sets what a refused tool's report says is left from what is written for it: nothing (it
/// is left out), or with `keep` (`--keep-unrepairable`) the tool as `given`, whose warnings
/// are the input's, none of them repair's; not what its rewrites had left when it was refused,
/// which no one is sent.
pub(crate) fn left_of_refused(
    r: &mut ToolRepair,
    given: &Tool,
    profile: &CompiledProfile,
    keep: bool,
) {
    if r.outcome != Outcome::Refused {
        return;
    }
    let written = if keep {
        crate::check::check_tools(&[given.as_ref(0)], profile)
    } else {
        // Not even `name-unique`: a tool left out shares its name with none.
        r.unverified.clear();
        Vec::new()
    };
    let as_given = warnings_per_feature(&written);
    set_left(r, &written, &as_given);
}

/// [`ToolRepair::unverified`] as JSON writes it: its features, sorted.
fn features_only<S: serde::Serializer>(
    per: &BTreeMap<String, usize>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    s.collect_seq(per.keys())
}

/// The warnings of `tool` as given per feature ([`warnings_per_feature`]), `checked` its
/// check, for telling those repair's rewrites bring in from the input's: where its schema
/// writes a number as Gemini's string (`"maxItems": "3"`, read by
/// [`crate::args::numbers_read`]), per feature the more of those and of the warnings `check`
/// gives with the numbers written. `check` judges such a keyword by its value (an error), not
/// by the evidence for the keyword itself; once repair writes the number, that warning
/// (`keyword-allowed: maxItems`, no evidence either way) is the input's keyword's, not one
/// repair wrote (it was said to be "written by repair"). So for a `dependentRequired` list
/// that repeats a name, which repair writes with each name once
/// ([`fixes::name_lists_written_once`]).
pub(crate) fn warnings_as_given(
    tool: &Tool,
    checked: &[Finding],
    check: impl Fn(&Tool) -> Vec<Finding>,
) -> BTreeMap<String, usize> {
    let mut given = warnings_per_feature(checked);
    let Some(schema) = tool.parameters.as_ref() else {
        return given;
    };
    let numbers = crate::args::numbers_read(schema);
    let once = fixes::name_lists_written_once(numbers.as_ref().unwrap_or(schema));
    let Some(read) = once.or(numbers) else {
        return given;
    };
    let as_read = Tool {
        parameters: Some(read),
        ..tool.clone_shallow()
    };
    for (feature, n) in warnings_per_feature(&check(&as_read)) {
        let e = given.entry(feature).or_default();
        *e = (*e).max(n);
    }
    given
}

/// The warnings among `findings` (a check of one tool) counted per feature, one per place as
/// `check` counts them.
pub(crate) fn warnings_per_feature(findings: &[Finding]) -> BTreeMap<String, usize> {
    let mut per = BTreeMap::new();
    for f in findings.iter().filter(|f| f.level == Level::Warning) {
        *per.entry(f.parameter.to_string()).or_default() += 1;
    }
    per
}

/// Repair inlines a schema's `$ref`s together or not at all, so one `$ref` it cannot inline
/// refuses the others too: each range of `refusals` made while `$ref` refusal `r` held (as
/// `refused` pairs them) names that one at other places, its reason left to its own line,
/// when the report has one. Quoted at another place,
/// the reason (a keyword beside the `$ref`) reads as that place's, where there is no such
/// thing.
///
/// A `$ref` whose only finding is a warning (a chain past the hop limit, which no case
/// covers) has no line of its own, though the others name it as their cause: it gets one,
/// before the lines it causes, with `warnings`' parameter for it (the last check's).
fn refer_to_the_ref_refused(
    refusals: &mut Vec<Refusal>,
    refused: &[(std::ops::Range<usize>, refs::Refusal)],
    warnings: &[Finding],
) {
    let rule = crate::profile::rules::ref_unsupported::RULE.id;
    let mut added: Vec<(usize, Refusal)> = Vec::new();
    for (range, r) in refused {
        if !r.reference || range.is_empty() {
            continue;
        }
        let listed = refusals.iter().any(|x| x.pointer == r.pointer)
            || added.iter().any(|(_, x)| x.pointer == r.pointer);
        if !listed {
            let Some(parameter) = warnings
                .iter()
                .find(|f| f.rule == rule && f.pointer == r.pointer)
                .map(|f| f.parameter.to_string())
            else {
                continue;
            };
            added.push((
                range.start,
                Refusal {
                    pointer: r.pointer.clone(),
                    rule: rule.into(),
                    parameter,
                    reason: refs::refusal_text(r),
                },
            ));
        }
        let own = refs::refusal_text(r);
        for x in refusals[range.clone()].iter_mut() {
            if x.pointer != r.pointer
                && (x.reason == own || x.reason == refs::refusal_text_for(r, &x.pointer))
            {
                x.reason = refs::refused_with(r);
            }
        }
    }
    // From the last, so that each place is where its range started.
    for (at, x) in added.into_iter().rev() {
        refusals.insert(at, x);
    }
}

/// One refusal per place and rule: a place refused by two findings of one rule (a `$ref` both
/// plain and with siblings) that were made while different `$ref`s held the inlining back
/// reads as two problems, the second blaming another place. Its own reason is kept over
/// another `$ref`'s ([`refs::refused_with`]), else the first said. Refusals of the whole
/// schema (at the empty pointer) each say something else and are all kept.
fn one_line_per_place(refusals: &mut Vec<Refusal>) {
    let another = |r: &Refusal| r.reason.starts_with("repair inlines all of the schema's");
    let mut kept: Vec<Refusal> = Vec::with_capacity(refusals.len());
    for r in refusals.drain(..) {
        let same = kept
            .iter_mut()
            .find(|k| !r.pointer.is_empty() && k.pointer == r.pointer && k.rule == r.rule);
        match same {
            Some(k) if another(k) && !another(&r) => *k = r,
            Some(_) => {}
            None => kept.push(r),
        }
    }
    *refusals = kept;
}

/// Counts per outcome (of a slice of results, or of references to them: no copy needed).
pub fn summary<'a>(
    results: impl IntoIterator<Item = &'a ToolRepair>,
) -> BTreeMap<&'static str, usize> {
    // Every outcome, zero counts too: a consumer reads `summary.refused` without a default.
    let mut m = BTreeMap::from([("unchanged", 0), ("repaired", 0), ("refused", 0)]);
    for r in results {
        let k = match r.outcome {
            Outcome::Unchanged => "unchanged",
            Outcome::Repaired => "repaired",
            Outcome::Refused => "refused",
        };
        *m.entry(k).or_default() += 1;
    }
    m
}

/// The human report for one tool's repair. The tool's name and the pointers (property names)
/// are the file's text, each kept on its line with its control characters escaped
/// ([`crate::report::escape_inline`]); so are the actions, losses and reasons, which quote
/// names and values of the file (a line feed in a renamed tool's name would start a line).
pub fn human(r: &ToolRepair) -> String {
    use crate::report::escape_inline;
    use std::fmt::Write;
    let mut s = String::new();
    let name = match (r.name.is_empty(), r.tool.name.is_some()) {
        (false, _) => format!("`{}`", escape_inline(&r.name)),
        (true, true) => "(empty name)".to_string(),
        (true, false) => "(bare schema)".to_string(),
    };
    let what = match r.outcome {
        Outcome::Unchanged => "unchanged",
        Outcome::Repaired => "repaired",
        Outcome::Refused => "refused",
    };
    let line = r.line.map(|n| format!(" [line {n}]")).unwrap_or_default();
    let place = |p: &str| {
        if p.is_empty() {
            "/".to_string()
        } else {
            escape_inline(p).into_owned()
        }
    };
    let emptied: Vec<String> = r
        .changes
        .iter()
        .filter(|c| c.emptied)
        .map(|c| place(&c.pointer))
        .collect();
    let emptied = if emptied.is_empty() {
        String::new()
    } else {
        format!(
            ", but emptied at {} (the model can send only `{{}}` there)",
            emptied.join(", ")
        )
    };
    let _ = writeln!(s, "tool #{} {name}{line}: {what}{emptied}", r.number);
    let runs = Runs::of(&r.changes);
    for (i, c) in r.changes.iter().enumerate() {
        let run = runs.of_item(i);
        if run.is_some_and(|(nth, _)| nth >= RUN_SHOWN) {
            continue;
        }
        // A loss of the rewrite itself (a key written twice, a keyword dropped with the one
        // its meaning rests on) answers no rule.
        let rule = if c.rule.is_empty() {
            String::new()
        } else {
            format!(" [{}]", c.rule)
        };
        let _ = writeln!(
            s,
            "  {}  {}{rule}",
            place(&c.pointer),
            escape_inline(&c.action)
        );
        if let Some(l) = &c.lost {
            let _ = writeln!(s, "      lost: {}", escape_inline(l));
        }
        if let Some((nth, members)) = run
            && nth + 1 == RUN_SHOWN
        {
            let at = |i: usize| r.changes[i].pointer.as_str();
            s.push_str(&run_tail(
                &members[RUN_SHOWN..],
                at,
                "changed the same way",
                &rule,
            ));
        }
    }
    let runs = Runs::of_refusals(&r.refusals);
    // The runs whose summary line is printed (by their first member): their later members
    // are said by it.
    let mut summarised: std::collections::HashSet<usize> = std::collections::HashSet::new();
    let mut lines = 0;
    for (i, x) in r.refusals.iter().enumerate() {
        let run = runs.of_item(i);
        if run.is_some_and(|(nth, _)| nth >= RUN_SHOWN) {
            continue;
        }
        if lines >= REFUSAL_LINES {
            let left = (i..r.refusals.len())
                .filter(|&k| {
                    !runs
                        .of_item(k)
                        .is_some_and(|(nth, m)| nth >= RUN_SHOWN && summarised.contains(&m[0]))
                })
                .count();
            let _ = writeln!(
                s,
                "  ... and {left} more refused places (`--format json` lists each)"
            );
            break;
        }
        lines += 1;
        // A refusal of the tool as a whole (repair gave up) has no rule.
        let rule = if x.rule.is_empty() {
            String::new()
        } else {
            format!(" [{}]", x.rule)
        };
        let _ = writeln!(
            s,
            "  {}  cannot repair: {}{rule}",
            place(&x.pointer),
            escape_inline(&x.reason)
        );
        if let Some((nth, members)) = run
            && nth + 1 == RUN_SHOWN
        {
            let at = |i: usize| r.refusals[i].pointer.as_str();
            let how = "refused for the same reason";
            s.push_str(&run_tail(&members[RUN_SHOWN..], at, how, &rule));
            summarised.insert(members[0]);
            lines += 1;
        }
    }
    s
}

/// The line that stands for the `rest` of a summarised run (items at pointers `at`), done
/// `how`.
fn run_tail<'a>(rest: &[usize], at: impl Fn(usize) -> &'a str, how: &str, rule: &str) -> String {
    use crate::report::escape_inline;
    let place = |p: &str| {
        if p.is_empty() {
            "/".to_string()
        } else {
            escape_inline(p).into_owned()
        }
    };
    let (first, last) = (at(rest[0]), at(rest[rest.len() - 1]));
    let parent = member_of(first).map_or("", |(p, _)| p);
    format!(
        "  ... and {} more of {}, {} to {}, {how}{rule} (`--format json` lists each)\n",
        rest.len(),
        place(parent),
        place(first),
        place(last)
    )
}

/// A run longer than this many changes of one kind in one object is summarised in the human
/// report: strict mode makes every optional property required, one line each, and a tool with
/// thousands of them buried everything else the report said.
const RUN_MAX: usize = 10;

/// How many lines of refusals one tool gets in the human report, before a line that counts
/// the rest: compile names every place that refuses a tool, which may be hundreds.
const REFUSAL_LINES: usize = 20;

/// How many changes of a summarised run are printed in full before its summary line.
const RUN_SHOWN: usize = 5;

/// What makes items one run: the object whose members they are at, the place below the
/// member, the rule, and what was done (action or reason, loss, emptiness).
type RunKey<'a> = (
    &'a str,
    &'a str,
    &'a str,
    (std::borrow::Cow<'a, str>, Option<&'a str>, bool),
);

/// The changes (or refusals) of a tool that [`human`] summarises: those with the same action,
/// rule, loss and emptiness (the same rule and reason) at members of one object, or at the same
/// place under each ([`member_of`]), in runs of more than [`RUN_MAX`]. `--format json` still
/// lists every one.
struct Runs {
    /// Per item, its run (an index into `members`) and its place in it, when summarised.
    at: Vec<Option<(usize, usize)>>,
    /// The items (indexes) of each summarised run, in the report's order.
    members: Vec<Vec<usize>>,
}

impl Runs {
    fn of(changes: &[Change]) -> Runs {
        Runs::by(changes.len(), |i| {
            let c = &changes[i];
            // The root has no object around it: it is alone in its kind.
            let (parent, below) = member_of(&c.pointer)?;
            let what = (c.action.as_str().into(), c.lost.as_deref(), c.emptied);
            Some((parent, below, c.rule.as_str(), what))
        })
    }

    /// The refusals of a tool in runs as [`Runs::of`] makes them of changes: the same rule and
    /// reason at members of one object, the reason read with the member's own name (which
    /// strict-form-missing quotes) written `…`.
    fn of_refusals(refusals: &[Refusal]) -> Runs {
        Runs::by(refusals.len(), |i| {
            let x = &refusals[i];
            let (parent, below) = member_of(&x.pointer)?;
            let token = x.pointer[..x.pointer.len() - below.len()]
                .rsplit('/')
                .next()?;
            let name = token.replace("~1", "/").replace("~0", "~");
            let reason = x.reason.replace(&format!("`{name}`"), "`…`");
            Some((parent, below, x.rule.as_str(), (reason.into(), None, false)))
        })
    }

    /// Runs of more than [`RUN_MAX`] of `n` items of one `key`, in the items' order.
    fn by<'a>(n: usize, key: impl Fn(usize) -> Option<RunKey<'a>>) -> Runs {
        let mut groups: HashMap<RunKey<'a>, Vec<usize>> = HashMap::new();
        for i in 0..n {
            if let Some(k) = key(i) {
                groups.entry(k).or_default().push(i);
            }
        }
        let mut members: Vec<Vec<usize>> =
            groups.into_values().filter(|m| m.len() > RUN_MAX).collect();
        members.sort_unstable_by_key(|m| m[0]);
        let mut at = vec![None; n];
        for (run, m) in members.iter().enumerate() {
            for (nth, &i) in m.iter().enumerate() {
                at[i] = Some((run, nth));
            }
        }
        Runs { at, members }
    }

    /// The place of item `i` in its summarised run and the run's items, when it is in one.
    fn of_item(&self, i: usize) -> Option<(usize, &[usize])> {
        self.at[i].map(|(run, nth)| (nth, self.members[run].as_slice()))
    }
}

/// The object whose member `pointer` is at or under, and the part of `pointer` below that
/// member: `/properties/p3/type` is `("/properties", "/type")` and `/properties/p3` is
/// `("/properties", "")`, so that the same rewrite of 3000 properties' `type` is one run, as
/// the same change of 3000 properties is. Members of the other maps of schemas count alike
/// (`/$defs/D6/$ref` is `("/$defs", "/$ref")`: a chain of 70 definitions refused one way is one
/// run). A pointer through no map member is a member of what its last token leaves
/// (`/items/anyOf/2`: `("/items/anyOf", "")`); the root is `None`.
/// The pointer is read with schema semantics ([`place::steps`]): a property literally named
/// `properties` is a member, not the keyword.
fn member_of(pointer: &str) -> Option<(&str, &str)> {
    use place::Step;
    // Where each raw token ends (member names hold no bare `/`: RFC 6901 writes it `~1`).
    let ends: Vec<usize> = pointer
        .match_indices('/')
        .skip(1)
        .map(|(at, _)| at)
        .chain(std::iter::once(pointer.len()))
        .collect();
    let mut token = 0;
    let mut last = None;
    for step in place::steps(pointer) {
        match step {
            Step::Member(..) => {
                last = Some(token);
                token += 2;
            }
            Step::Element(..) => token += 2,
            Step::Applicator(_) => token += 1,
            Step::Keyword(..) => break,
        }
    }
    match last {
        // `token` is the `properties` keyword's; the member's name is the next.
        Some(token) => Some((&pointer[..ends[token]], &pointer[ends[token + 1]..])),
        None => pointer.rsplit_once('/').map(|(parent, _)| (parent, "")),
    }
}

/// Whether `tool` declares no arguments: no parameters schema, or an object schema with an
/// empty `properties` that says nothing of other members (`{"type":"object"}` alone is a
/// free-form object, not this).
fn takes_no_arguments(tool: &Tool) -> bool {
    let Some(p) = &tool.parameters else {
        return true;
    };
    let Some(m) = p.as_object() else {
        return false;
    };
    m.get("properties")
        .is_some_and(|v| v.as_object().is_some_and(|o| o.is_empty()))
        && !m.contains_key("additionalProperties")
        && !m.contains_key("patternProperties")
}

#[cfg(test)]
pub(crate) mod tests;
