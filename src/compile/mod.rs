//! `toolwire compile --target T`: the canonical tool definitions → that target's wire form,
//! checked by the target's offline model before it is returned.
//!
//! Three steps, after every known non-standard `type` spelling (`dict`, `float`, ...) is
//! written as the JSON Schema type it means ([`canonical`]: compile writes the canonical
//! schema, for every target):
//! 1. [`crate::repair`] against the target's own profile (so nothing the evidence says the
//!    target rejects is sent; what cannot be repaired is refused with the reason);
//! 2. the target's wire form ([`wire::Form`]): strict structured outputs close every object,
//!    require every property and make the optional ones nullable, after writing OpenAPI's
//!    `nullable` as JSON Schema (strict forms read JSON Schema only); DeepSeek strict also drops
//!    length bounds and unknown formats; Cohere strict requires one property per object;
//!    every target gets its envelope from the prober's own request builder (the route), so the
//!    tool block is exactly what `toolwire probe` would send; a tool's OpenAI `strict: true`
//!    is not sent to a target of the plain form, and the report says so;
//! 3. the request goes through the target's offline model ([`crate::target::model`]) with a
//!    stand-in valid key, so its validator stage runs; a rejection is returned with the
//!    model's own error, explained ([`crate::explain`]). What the profile cannot repair (it has
//!    no evidence there) and a rejection that names no tool are traced and answered by asking
//!    the model about each tool alone ([`localize`]).
//!
//! The argument round trip: arguments valid under the canonical schema are valid under the
//! wire schema once absent optional ones are sent as null ([`wire::to_wire_arguments`]), and
//! a null the model sends for an optional argument maps back to absent (`toolwire args`).

mod budget;
pub mod canonical;
mod localize;
pub mod wire;

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;
use serde_json::{Value, json};

use crate::evidence::Verdict;
use crate::explain::{CheckProfile, Explanation};
use crate::input::BuiltinTool;
use crate::profile::CompiledProfile;
use crate::repair::{self, Outcome, Tool, ToolRepair};
use crate::target::{Classified, Credential, Reply, Secret, WireOptions};
use crate::tool::ToolDef;
use wire::Unwirable;

/// What the target's offline model said about the compiled request.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum ModelCheck {
    /// The model accepts the request.
    Accepted { stage: String },
    /// The model rejects it: its status, its own message, and what explain makes of it.
    Rejected {
        status: u16,
        error: String,
        explanations: Vec<Explanation>,
    },
    /// The model's answer reads as neither (e.g. an auth answer); the note says what.
    Inconclusive { status: u16, note: String },
    /// No tool was left to send.
    NothingToSend,
}

/// The result of compiling one request's tools for one target.
#[derive(Debug, Clone, Serialize)]
pub struct Compilation {
    pub target: String,
    /// The JSON Lines line (1-based) the request was read from; `None` for other files, and
    /// as the library returns it (the caller knows where the tools came from).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Per input tool: the repairs for the target's profile and the wire changes, or the
    /// refusal; empty when [`Compilation::not_compiled`] counts them.
    pub tools: Vec<ToolRepair>,
    /// The request's built-in tools, each passed through or left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub builtins: Vec<BuiltinOutcome>,
    /// The target's tool block: the value the target's request carries its tools in
    /// (`tools` for most, Bedrock's `toolConfig`), with the tools that were not refused and
    /// the built-ins passed through, in input order.
    pub wire: Value,
    /// The whole request body the offline model was given; `null` where none was, for a
    /// request the CLI passed over (built-ins only, none of which the target takes) and one
    /// refused for its tool count before its tools were compiled ([`Compilation::not_compiled`]).
    pub request: Value,
    pub check: ModelCheck,
    /// Per place of the request's tool list as last sent (the numbers the model's errors
    /// use): the index in `tools` of the function tool there, `None` for a built-in. Refused
    /// tools are not sent, so a place may differ from the tool's number in the input.
    #[serde(skip)]
    pub sent: Vec<Option<usize>>,
    /// How many function tools were not compiled because the request is refused whatever
    /// their schemas: it holds more tools than the target takes (`too-many-tools`, checked
    /// first), and `tools` is then empty. Compiling them would cost the time and memory of
    /// the whole file (10,000 tools: seconds, hundreds of MB) for findings the user cannot
    /// act on before splitting the request, which compiles each part anew.
    #[serde(skip_serializing_if = "is_zero")]
    pub not_compiled: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Compilation {
    /// The input tool at place `position` of the request as sent (see [`Compilation::sent`]).
    pub fn sent_tool(&self, position: usize) -> Option<&ToolRepair> {
        let i = (*self.sent.get(position)?)?;
        self.tools.get(i)
    }
}

impl Compilation {
    /// The tools sent under another name than given, as (name sent, name given), in input
    /// order: what a caller maps the provider's tool calls back with, since the model calls a
    /// tool by the name sent (trial 76 D3: the new name was only in each change's words and
    /// in the wire, whose shape differs per target). Refused tools are not sent and not
    /// listed.
    pub fn renamed(&self) -> Vec<(&str, &str)> {
        self.tools
            .iter()
            .filter_map(|t| Some((t.sent_name()?, t.name.as_str())))
            .filter(|(sent, given)| sent != given)
            .collect()
    }

    /// True when every tool compiled and the model accepts the request.
    pub fn is_ok(&self) -> bool {
        self.tools.iter().all(|t| t.outcome != Outcome::Refused)
            && matches!(self.check, ModelCheck::Accepted { .. })
    }
}

/// Why compile cannot start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The target has no wire form (an in-process engine) or is unknown.
    #[error(
        "target {0:?} has no wire form to compile to (engines and unknown ids have no request)"
    )]
    NoRoute(String),
    /// A bare schema has no name; a wire form needs one.
    #[error("tool #{0} is a bare schema without a name; a wire form needs a tool name")]
    Unnamed(usize),
    /// The profile given is not the target's own: compile repairs against the target's own
    /// profile (the one named for it, as `toolwire compile --target T` picks it), and another
    /// target's (or `portable`) would repair for the wrong provider.
    #[error(
        "the profile {profile:?} is not {target}'s own; compile for {target} with the profile \
         named {target:?}"
    )]
    WrongProfile { target: String, profile: String },
    /// Tool `tool`'s schema nests deeper than [`crate::input::LIMITS`]' `max_depth` (brackets
    /// counted); `pointer` is the first place past the cap, whole (its message shortens it as
    /// [`crate::report::short_pointer`] does, as other errors' places are: trial 76 D5, 3,372
    /// characters).
    #[error(
        "tool #{tool}: at {}: {}",
        crate::report::short_pointer(pointer),
        crate::json::too_deep_problem(*.max)
    )]
    TooDeep {
        tool: usize,
        pointer: String,
        max: usize,
    },
}

/// The stand-in key the offline model is called with: the models treat any key other than
/// `invalid` as valid, so the validator stage runs. Never sent anywhere.
const MODEL_KEY: &str = "toolwire-compile-offline-check";

/// Compiles one request's `tools` for `target`, whose profile is `profile`: the target's own
/// (`profiles.get(target)`, [`CompiledProfile::is_own`]), else [`CompileError::WrongProfile`].
/// A schema nesting deeper than [`crate::input::LIMITS`] allows is [`CompileError::TooDeep`].
pub fn compile(
    tools: &[Tool],
    target: &str,
    profile: &CompiledProfile,
    opts: &repair::Options,
) -> Result<Compilation, CompileError> {
    compile_request(tools, &[], target, profile, opts)
}

/// [`compile`] for a request that also holds built-in tools: `builtins` are the request's
/// built-in tools, each with its position in the request's tool list (0-based, function
/// tools and built-ins counted together; `tools` fill the other positions in order). A
/// built-in the target takes ([`crate::target::takes_builtin`]: one of the target's own
/// provider) is passed through as written, in its place among the compiled tools, and the
/// offline model sees it there (an OpenAI custom tool in the other OpenAI API's shape is
/// converted to the target's, [`BuiltinOutcome::changed`]); any other is left out
/// ([`BuiltinOutcome::left_out`] says why).
pub fn compile_request(
    tools: &[Tool],
    builtins: &[(usize, &BuiltinTool)],
    target: &str,
    profile: &CompiledProfile,
    opts: &repair::Options,
) -> Result<Compilation, CompileError> {
    // Admitted before the copy: a schema past the nesting cap is never copied (a copy
    // recurses as deep as the schema nests).
    admit(tools, target, profile)?;
    compile_admitted(tools.to_vec(), builtins, target, profile, opts)
}

/// [`compile_request`] for a caller that gives its tools up: they become the canonical
/// schemas in place, so a large schema is held once less than [`compile_request`] holds it.
pub fn compile_owned(
    tools: Vec<Tool>,
    builtins: &[(usize, &BuiltinTool)],
    target: &str,
    profile: &CompiledProfile,
    opts: &repair::Options,
) -> Result<Compilation, CompileError> {
    admit(&tools, target, profile)?;
    compile_admitted(tools, builtins, target, profile, opts)
}

/// Why compile cannot start on `tools` for `target`, if it cannot (the errors of
/// [`compile_request`]).
fn admit(tools: &[Tool], target: &str, profile: &CompiledProfile) -> Result<(), CompileError> {
    if crate::target::route(target).is_none() {
        return Err(CompileError::NoRoute(target.into()));
    }
    if !profile.is_own(target) {
        return Err(CompileError::WrongProfile {
            target: target.into(),
            profile: profile.name.clone(),
        });
    }
    let max = crate::input::LIMITS.max_depth;
    for (tool, t) in tools.iter().enumerate() {
        if let Some(pointer) = t
            .parameters
            .as_ref()
            .and_then(|p| crate::json::first_too_deep(p, max))
        {
            return Err(CompileError::TooDeep { tool, pointer, max });
        }
    }
    if let Some(i) = tools.iter().position(|t| t.name.is_none()) {
        return Err(CompileError::Unnamed(i));
    }
    Ok(())
}

/// [`compile_request`] on tools [`admit`] let through, owned.
fn compile_admitted(
    tools: Vec<Tool>,
    builtins: &[(usize, &BuiltinTool)],
    target: &str,
    profile: &CompiledProfile,
    opts: &repair::Options,
) -> Result<Compilation, CompileError> {
    // Every answer of the model is explained against the built-in profile check uses:
    // compiled once for the run (when an answer first needs it), not once per answer, nor
    // once per compile of a refused tool again ([`name_every_blocker`]).
    let check = CheckProfile::new(target);
    compile_once(tools, builtins, target, profile, opts, &check, true)
}

/// [`compile_admitted`]; with `every_blocker`, each refused tool is compiled again without
/// the places it was refused at, to name the places past them ([`name_every_blocker`]).
fn compile_once(
    tools: Vec<Tool>,
    builtins: &[(usize, &BuiltinTool)],
    target: &str,
    profile: &CompiledProfile,
    opts: &repair::Options,
    check: &CheckProfile<'_>,
    every_blocker: bool,
) -> Result<Compilation, CompileError> {
    let form = wire::Form::of(target);
    // The request's built-ins as written, as `check` sees them (see [`model_basis`]).
    let given = builtins;
    let outcomes: Vec<BuiltinOutcome> = builtins
        .iter()
        .map(|(_, b)| BuiltinOutcome::of(b, target))
        .collect();
    // A built-in converted to the target API's shape is sent (and shown to the model) so.
    let converted: Vec<BuiltinTool> = builtins
        .iter()
        .zip(&outcomes)
        .map(|(&(_, b), o)| o.as_sent(b))
        .collect();
    // A Gemini entry takes no number: it goes after the declarations, which keep theirs.
    let builtins: Vec<(usize, &BuiltinTool)> = builtins
        .iter()
        .zip(&converted)
        .map(|(&(position, b), sent)| {
            (
                if gemini_entry(b) {
                    usize::MAX
                } else {
                    position
                },
                sent,
            )
        })
        .collect();
    let slots = request_order(tools.len(), &builtins);
    if let Some(refused) = refused_for_tool_count(&tools, &slots, &outcomes, &builtins, check) {
        return Ok(refused);
    }
    // A tool past toolwire's own caps as given, whose canonical form holds the same
    // subschemas (an object root without definitions for compile to drop), is one repair
    // refuses before rewriting any of it, and a refused tool's report reads no warning as
    // given ([`left_as_compiled`]): such a tool is not checked for them (trial 73 D4: a check
    // of 175,782 subschemas, its warnings dropped, before a refusal a count decides).
    let past_the_caps: Vec<bool> = tools.iter().map(past_the_caps_as_canonical).collect();
    // The warnings of each tool as given, which those compile brings in are told from.
    let given_warnings: Vec<BTreeMap<String, usize>> = tools
        .iter()
        .zip(&past_the_caps)
        .map(|(t, &past)| {
            if past {
                return BTreeMap::new();
            }
            let check = |t: &Tool| crate::check::check_tools(&[t.as_ref(0)], profile);
            repair::warnings_as_given(t, &check(t), check)
        })
        .collect();
    // The canonical schema first: no definition nothing reaches, every known type spelling
    // as the type it means, and for OpenAI's and DeepSeek's strict forms a `true` branch as
    // `{}`.
    let mut canonical: Vec<Tool> = tools;
    // A root that is no schema object first (`true`, `null`): what it becomes is what the
    // target's profile and model then judge; one no wire form carries is refused.
    let mut root_refusals: Vec<Option<repair::Refusal>> = Vec::with_capacity(canonical.len());
    let written: Vec<Vec<repair::Change>> = canonical
        .iter_mut()
        .zip(&past_the_caps)
        .map(|(t, &past)| {
            let mut changes = Vec::new();
            // A tool repair refuses for the caps keeps none of these changes (a refused
            // tool's are cleared below), and its canonical form holds the subschemas as
            // given: each rewrite would only walk it, a pointer per subschema.
            if past {
                root_refusals.push(None);
                return changes;
            }
            match canonical::write_root(&mut t.parameters) {
                Ok(change) => changes.extend(change),
                Err(refusal) => {
                    root_refusals.push(Some(refusal));
                    return changes;
                }
            }
            root_refusals.push(None);
            if let Some(s) = t.parameters.as_mut() {
                changes.extend(canonical::drop_unreferenced_definitions(s));
                changes.extend(canonical::write_type_names(s));
                if matches!(form, wire::Form::Strict | wire::Form::DeepSeekStrict) {
                    changes.extend(canonical::write_true_branches_as_empty(s));
                }
            }
            changes
        })
        .collect();
    // A tool past the caps is handed to its refusal, not copied into it: the schema is what
    // the refused tool keeps, and nothing after its refusal reads it as the canonical one.
    let mut results =
        repair::repair_schemas_giving_up(&mut canonical, &past_the_caps, profile, opts);
    for (r, &past) in results.iter().zip(&past_the_caps) {
        debug_assert!(
            !past || r.outcome == Outcome::Refused,
            "tool #{}: past the caps as given, not refused by repair",
            r.index
        );
    }
    // Each result holds its own tool, and its canonical form is kept beside it (moved, not
    // copied): every change line and refusal names a place of the tool as given
    // ([`name_in_given`]), and what compile sends may hold places the tool as given lacks, in
    // every form (a type list made of `"any"`, a repair's rewrite the model then names).
    // Places are followed back through compile's moves, and the steps that judge the schema
    // as given read it, only where compile may move places ([`repair::place::original_place`]):
    // a strict form wraps schemas in `anyOf`, repair inlines what a `$ref` reaches.
    let canonicals: Vec<Option<Value>> = canonical.into_iter().map(|t| t.parameters).collect();
    let originals: Vec<Option<&Value>> = canonicals
        .iter()
        .map(|p| {
            p.as_ref()
                .filter(|p| form != wire::Form::Plain || repair::place::has_ref(p))
        })
        .collect();
    // The places the canonical rewrites wrote anew (a `true` branch as `{}`, a `true` root):
    // nothing below them is in the tool as given.
    let rewritten: Vec<Vec<String>> = written
        .iter()
        .map(|w| w.iter().map(|c| c.pointer.clone()).collect())
        .collect();
    for (((r, written), root), given) in results
        .iter_mut()
        .zip(written)
        .zip(root_refusals)
        .zip(originals.iter().copied())
    {
        if let Some(refusal) = root {
            // Repair may have refused it too, by the profile's word: this reason is the
            // whole story.
            r.outcome = Outcome::Refused;
            r.changes.clear();
            r.refusals = vec![refusal];
            continue;
        }
        if r.outcome == Outcome::Refused {
            continue;
        }
        if !written.is_empty() {
            r.changes.splice(0..0, written);
            if r.outcome == Outcome::Unchanged {
                r.outcome = Outcome::Repaired;
            }
        }
        if form == wire::Form::Plain {
            leave_strict_out(r, target);
        }
        declare_no_arguments(r, target);
        // A strict form promises arguments that match the schema, and `args` refuses a schema
        // whose `$ref` comes back to itself on the same value (no verdict). Judged on the
        // schema as given, so every strict form says the same: a target's repair may rewrite
        // the loop first (OpenAI's `allOf` merge left a bare self-reference), and Cohere's
        // and DeepSeek's wrote it out, exit 0 (trial 62 D5). A bare chain of `$ref`s that
        // loops is left to `broken_ref` below, which words it as every command does ("a cycle
        // of references ... that never reaches a schema").
        if form != wire::Form::Plain
            && let Some(given) = given
            && crate::schema::broken_ref(given).is_none()
            && let Some((at, problem)) = crate::schema::in_place::ref_loop(given)
        {
            refuse(r, at, problem);
            continue;
        }
        if let Some((at, problem)) = r
            .tool
            .parameters
            .as_ref()
            .and_then(crate::schema::broken_ref)
        {
            refuse(r, at, problem);
            continue;
        }
        if let (Some(given), Some(schema)) = (given, &r.tool.parameters) {
            let blocked = wire::members_elsewhere(form, given, schema)
                .map(|b| vec![b])
                .unwrap_or_else(|| wire::conditionals_given(form, given, schema));
            if !blocked.is_empty() {
                refuse_at_each(r, blocked);
                continue;
            }
        }
        if let Some(schema) = r.tool.parameters.as_mut() {
            match wire::apply(form, schema, given, opts.max_inline_nodes) {
                Ok(changes) => {
                    if !changes.is_empty() && r.outcome == Outcome::Unchanged {
                        r.outcome = Outcome::Repaired;
                    }
                    r.changes.extend(changes);
                }
                Err(blocked) => refuse_at_each(r, blocked),
            }
        }
    }
    // The profile only knows what the evidence says. When the model rejects a feature the
    // profile has no evidence for, the finding the model's error points at is repaired too,
    // and the model asked again.
    let mut budget = budget::Budget::new(results.len());
    let mut tried = Tried::new();
    let mut settled = false;
    let round = Round {
        target,
        form,
        profile,
        opts,
        given,
        check,
        originals: &originals,
    };
    let (body, reply, classified, sent) = loop {
        // The request as sent, in input order: the tools not refused, the built-ins taken.
        let sent: Vec<Slot> = slots
            .iter()
            .copied()
            .filter(|s| match *s {
                Slot::Tool(i) => results[i].outcome != Outcome::Refused,
                Slot::Builtin(j) => outcomes[j].left_out.is_none(),
            })
            .collect();
        let mut defs: Vec<ToolDef> = Vec::new();
        let mut passed: Vec<(usize, &Value)> = Vec::new();
        for (position, slot) in sent.iter().enumerate() {
            match *slot {
                Slot::Tool(i) => {
                    // Lent to the request, not copied (a schema may be megabytes): it goes
                    // back to its tool once the model has answered.
                    let t = &mut results[i].tool;
                    defs.push(ToolDef {
                        name: t.name.clone().unwrap_or_default(),
                        description: t.description.clone(),
                        parameters: t.parameters.take(),
                    });
                }
                Slot::Builtin(j) => passed.push((position, &builtins[j].1.value)),
            }
        }
        let answer = ask_model_with_builtins(target, &defs, &passed);
        let none_sent = defs.is_empty();
        let lent = sent.iter().filter_map(|s| match *s {
            Slot::Tool(i) => Some(i),
            Slot::Builtin(_) => None,
        });
        for (i, def) in lent.zip(defs) {
            results[i].tool.parameters = def.parameters;
        }
        let ModelAnswer {
            mut body,
            reply,
            classified,
        } = answer.ok_or_else(|| CompileError::NoRoute(target.into()))?;
        // The model names one problem per answer, so acting on the whole request's answers
        // costs a round of the whole request per problem: n tools with k problems each took
        // n·k rounds of n tools (300 tools of 4: 151 s). Once the request is rejected, each
        // tool is settled alone first (k + 1 calls of one tool), and the whole request asked
        // again for what only the request as a whole shows; this answer is not acted on, so
        // it is not counted as a round.
        if !settled && classified.verdict == Verdict::Rejected && !none_sent {
            settled = true;
            // The body holds a copy of every schema sent: while each tool is settled alone
            // (and copied for its trials), it is kept as its text, a fraction of the parsed
            // value's size, and read back only when this answer is acted on after all.
            let text = body.to_string();
            drop(body);
            if round.settle_alone(&mut results, &sent, &mut budget, &mut tried) {
                continue;
            }
            body = crate::target::wire::parse_json(text.as_bytes()).unwrap_or_else(|e| {
                debug_assert!(false, "{target}: the request body does not read back: {e}");
                Value::Null
            });
        }
        budget.next_round();
        let mut progress = false;
        if !none_sent
            && classified.verdict == Verdict::Rejected
            && !budget.past_backstop(results.len())
        {
            let explained = crate::explain::explain_for(Some(&body), &reply.text_body(), check);
            progress = round.answer(&mut results, &sent, &explained, &mut budget, &mut tried);
            if !progress {
                progress = localize_rejection(&mut results, &sent, &explained, &round);
            }
        }
        // Last, once the model has said what it rejects: a tool whose schema as compiled is
        // past the cap `args` checks calls within is not written, and the rest are sent again.
        if !progress && !refuse_past_the_args_cap(&mut results, &sent, target) {
            break (body, reply, classified, sent);
        }
    };
    for (((r, original), given), (canonical, rewritten)) in results
        .iter_mut()
        .zip(originals.iter().copied())
        .zip(&given_warnings)
        .zip(canonicals.iter().zip(&rewritten))
    {
        if let Some(compiled) = &r.tool.parameters {
            written_again(&mut r.changes, compiled);
        }
        // Lent, not copied (a schema may be megabytes): the change lines and refusals are
        // renamed beside it, and it goes back to its tool.
        if let Some(original) = original
            && let Some(compiled) = r.tool.parameters.take()
        {
            repair::place::name_as_given(r, original, &compiled);
            r.tool.parameters = Some(compiled);
            wire::null_given_back(&mut r.changes, original);
            wire::closing_given_back(&mut r.changes, original);
            // Read at the place as given: repair may have dropped the `default` that says
            // what leaving the argument out meant.
            for c in &mut r.changes {
                if c.lost.is_none()
                    && (c.action == wire::NULL_PASSED_ON || c.action == wire::FIRST_NULL_PASSED_ON)
                    && let Some(given) = original.pointer(&c.pointer)
                {
                    c.lost = wire::absent_reads_as_null(given);
                }
            }
            wire::default_out_of_reach(&mut r.changes, original);
        }
        if let Some(canonical) = canonical {
            name_in_given(r, canonical, rewritten);
        }
        left_as_compiled(r, profile, given);
    }
    if every_blocker {
        let mut values_left = BLOCKER_SEARCH_BUDGET;
        for (((r, original), canonical), rewritten) in results
            .iter_mut()
            .zip(originals)
            .zip(&canonicals)
            .zip(&rewritten)
        {
            if r.outcome == Outcome::Refused {
                name_every_blocker(r, original, target, profile, opts, check, &mut values_left);
                // Found in a form of the tool with places taken out: named as given again.
                if let Some(canonical) = canonical {
                    name_in_given(r, canonical, rewritten);
                }
            }
        }
    }
    let check = if sent.is_empty() {
        ModelCheck::NothingToSend
    } else {
        let c = classified;
        match c.verdict {
            Verdict::Accepted | Verdict::AcceptedIgnored => ModelCheck::Accepted {
                stage: c.stage.as_str().to_string(),
            },
            Verdict::Rejected => {
                let error = c.error.clone().unwrap_or_else(|| reply.text_body());
                let mut explanations =
                    crate::explain::explain_for(Some(&body), &reply.text_body(), check);
                say_the_prefix_that_fits(&mut explanations, &results, &sent, target);
                ModelCheck::Rejected {
                    status: reply.status,
                    explanations,
                    error,
                }
            }
            _ => ModelCheck::Inconclusive {
                status: reply.status,
                note: c
                    .note
                    .or(c.error)
                    .unwrap_or_else(|| "the model's answer reads as neither verdict".into()),
            },
        }
    };
    Ok(Compilation {
        target: target.to_string(),
        line: None,
        wire: wire_block(target, &body),
        request: body,
        tools: results,
        builtins: outcomes,
        check,
        sent: sent
            .iter()
            .map(|s| match *s {
                Slot::Tool(i) => Some(i),
                Slot::Builtin(_) => None,
            })
            .collect(),
        not_compiled: 0,
    })
}

/// Whether repair refuses `tool` for toolwire's own caps ([`repair::past_the_caps`]) as
/// compile's canonical form of it: its root an object without `$defs` or `definitions`, the
/// only place compile drops subschemas from, so that the canonical form holds the very
/// subschemas of the tool as given (it only respells `type` names and writes a `true` branch
/// as `{}`), which are all those caps count.
fn past_the_caps_as_canonical(tool: &Tool) -> bool {
    tool.parameters
        .as_ref()
        .and_then(Value::as_object)
        .is_some_and(|o| {
            !o.contains_key("$defs")
                && !o.contains_key("definitions")
                && tool
                    .parameters
                    .as_ref()
                    .and_then(repair::past_the_caps)
                    .is_some()
        })
}

/// Adds to the fix of a rejection read at the request as `size-exceeded` (Cohere's 200 fields
/// across all tools) how many of the tools `sent`, from the first, the offline model accepts
/// sent as one request: "send fewer tools per request" named no number, and the user had
/// to find where to split by trial. Found by halving (about log₂ n calls, each asking about
/// a prefix), and said only as asked: the model accepts the first k and rejects the first
/// k + 1. Nothing is added for a request with built-ins (the prefixes are asked without
/// them), nor when it rejects the first tool alone.
fn say_the_prefix_that_fits(
    explanations: &mut [Explanation],
    results: &[ToolRepair],
    sent: &[Slot],
    target: &str,
) {
    let over = |e: &Explanation| {
        e.located == crate::explain::Located::Request && e.rule.as_deref() == Some("size-exceeded")
    };
    if !explanations.iter().any(over) {
        return;
    }
    let mut tools = Vec::new();
    for s in sent {
        match *s {
            Slot::Tool(i) => tools.push(&results[i]),
            Slot::Builtin(_) => return,
        }
    }
    let rejects = |k: usize| {
        let defs: Vec<ToolDef> = tools[..k]
            .iter()
            .map(|r| localize::def_of(&r.tool))
            .collect();
        ask_model(target, &defs).is_some_and(|a| a.classified.verdict == Verdict::Rejected)
    };
    // The model rejects all of them; `fits` is a prefix it accepts (none, at first).
    let (mut fits, mut over_at) = (0, tools.len());
    while over_at - fits > 1 {
        let mid = fits + (over_at - fits) / 2;
        if rejects(mid) {
            over_at = mid;
        } else {
            fits = mid;
        }
    }
    if fits == 0 {
        return;
    }
    let next = tools[fits].number;
    let sentence = if fits == 1 {
        format!(
            "The offline model accepts the first tool of this request (#{}) sent alone, and \
             rejects it with #{next}.",
            tools[0].number
        )
    } else {
        format!(
            "The offline model accepts the first {fits} tools of this request (#{}..#{}) sent \
             as one request, and rejects them with #{next}.",
            tools[0].number,
            tools[fits - 1].number
        )
    };
    for e in explanations.iter_mut().filter(|e| over(e)) {
        e.fix = Some(match e.fix.take() {
            Some(fix) => format!("{fix} {sentence}"),
            None => sentence.clone(),
        });
    }
}

/// What every round of compile's talk with the offline model is made with.
#[derive(Clone, Copy)]
struct Round<'a> {
    target: &'a str,
    form: wire::Form,
    profile: &'a CompiledProfile,
    opts: &'a repair::Options,
    /// The request's built-ins as written, as `check` sees them (see [`model_basis`]).
    given: &'a [(usize, &'a BuiltinTool)],
    /// The built-in profile of `target`, which the model's answers are explained against.
    check: &'a CheckProfile<'a>,
    /// Each tool's parameters schema as given (canonical), where compile keeps it
    /// ([`wire::apply`] judges optional nulls there).
    originals: &'a [Option<&'a Value>],
}

/// The model's errors compile acted on, as (tool, place, rule): the same error named again
/// means the repair and the wire form undo each other, and the tool is refused.
type Tried = std::collections::HashSet<(usize, String, Option<String>)>;

impl Round<'_> {
    /// Acts on the model's answer `explained` to the request `sent`: each tool it names is
    /// repaired where a repair answers it, else refused by itself. Returns whether any tool
    /// changed (the request is then sent again).
    fn answer(
        &self,
        results: &mut [ToolRepair],
        sent: &[Slot],
        explained: &[Explanation],
        budget: &mut budget::Budget,
        tried: &mut Tried,
    ) -> bool {
        let Round {
            target,
            form,
            profile,
            opts,
            given,
            check: _,
            originals,
        } = *self;
        let mut progress = false;
        // Places repaired in this round, per tool: an answer may name several places of one
        // feature, which the first repair already answered at every place.
        let mut repaired: Vec<(usize, String)> = Vec::new();
        for e in explained {
            let (Some(w), Some(pointer)) = (e.tool_index, e.pointer.as_deref()) else {
                continue;
            };
            // The model numbers the whole list, built-ins included.
            let Some(&Slot::Tool(i)) = sent.get(w) else {
                continue;
            };
            if repaired.iter().any(|(t, p)| {
                *t == i && (p == pointer || one_step(p, pointer) || one_step(pointer, p))
            }) {
                continue;
            }
            if results[i].outcome == Outcome::Refused {
                // Refused earlier in this answer: it is not sent again.
                continue;
            }
            if !budget.charge(i) {
                // Refused by itself, so the model's answer on the others still counts.
                let rule = e.rule.as_deref().unwrap_or(UNEXPLAINED);
                let basis = model_basis(results, i, given, e.rule.as_deref(), profile, target);
                refuse(
                    &mut results[i],
                    pointer.to_string(),
                    format!(
                        "the offline model of {target} still rejects the schema at this place \
                         {} ({rule}{basis}): {}",
                        budget.spent_words(),
                        e.message
                    ),
                );
                progress = true;
                continue;
            }
            if e.rule.as_deref() == Some("description-too-long")
                && let Some(max) = localize::stated_max_length(&e.message)
                && cut_description(&mut results[i], max)
            {
                progress = true;
                continue;
            }
            // The same place and rule named again means the repair and the wire form undo
            // each other (an optional `any` made nullable, the list split again): refused.
            let key = (i, pointer.to_string(), e.rule.clone());
            let first_time = !tried.contains(&key);
            let mut places = Vec::new();
            let taken = names_but(results, i);
            // What a repair here rests on, said as a refusal says it: the profile may have no
            // evidence that the target rejects what the model does.
            let named_basis = if first_time {
                model_basis(results, i, given, e.rule.as_deref(), profile, target)
            } else {
                String::new()
            };
            // A `true` branch a strict form's model names is one the form wrote itself (a
            // `true` property made nullable, a branch a `$ref` reaches into): each given one
            // was written `{}` first ([`canonical::write_true_branches_as_empty`]). It stands
            // for a `true` that stays refused as `{}` is, in the model's words (trial 60 D1),
            // not for a branch repair writes `{}` (trial 61 D3).
            let own_true = form != wire::Form::Plain && e.rule.as_deref() == Some(BOOLEAN_RULE);
            if first_time
                && !own_true
                && fix_what_the_model_named(
                    &mut results[i],
                    pointer,
                    e.rule.as_deref(),
                    profile,
                    opts,
                    &taken,
                    &mut places,
                    &named_basis,
                )
            {
                tried.insert(key);
                progress = true;
                repaired.extend(places.into_iter().map(|p| (i, p)));
                // The repair may have made the wire form apply where it did not (a `dict`
                // that is now an object): apply it again (it leaves a done form alone).
                let r = &mut results[i];
                if let Some(schema) = r.tool.parameters.as_mut() {
                    match wire::apply(form, schema, originals[i], opts.max_inline_nodes) {
                        // What the form did here already (closing an object again after a
                        // keyword its `additionalProperties: false` rested on was dropped)
                        // is said once, by its first line.
                        Ok(more) => {
                            let new: Vec<_> = more
                                .into_iter()
                                .filter(|c| {
                                    !r.changes
                                        .iter()
                                        .any(|x| (&x.pointer, &x.action) == (&c.pointer, &c.action))
                                })
                                .collect();
                            r.changes.extend(new);
                        }
                        Err(blocked) => refuse_at_each(r, blocked),
                    }
                }
            } else if first_time && repaired.iter().any(|(t, _)| *t == i) {
                // An answer names every problem of the request it was given: a repair made
                // this round may have changed what this one is about (the `$defs` dropped
                // with the last reference inlined), so the model is asked again first.
                continue;
            } else if results[i].outcome != Outcome::Refused {
                tried.insert(key);
                let basis = model_basis(results, i, given, e.rule.as_deref(), profile, target);
                // No finding of the profile answers it (it has no evidence there): the
                // repairs that could are tried, each kept only if the model then accepts.
                let mut cap = String::new();
                if first_time {
                    match localize::repair_until_accepted(
                        &mut results[i],
                        target,
                        form,
                        profile,
                        opts,
                        &e.message,
                        e.rule.as_deref(),
                        Some(pointer),
                        &taken,
                        &basis,
                        originals[i],
                    ) {
                        Ok(place) => {
                            progress = true;
                            repaired.push((i, place));
                            continue;
                        }
                        Err(not) => cap = not.words(),
                    }
                }
                // Nothing repairs what the model named: that tool is left out (with the
                // model's own words), and the others are sent again.
                let rule = e.rule.as_deref().unwrap_or(UNEXPLAINED);
                // The place is the one the model's error names (its path into the schema, as
                // the explanation read it), not the tool's root.
                refuse(
                    &mut results[i],
                    pointer.to_string(),
                    format!(
                        "the offline model of {target} rejects the schema at this place ({rule}{basis}): {}{cap}{}",
                        e.message,
                        e.fix
                            .as_deref()
                            .map(|f| format!(" Fix: {f}"))
                            .unwrap_or_default()
                    ),
                );
                progress = true;
            }
        }
        progress
    }

    /// Asks the model about each tool of `sent` alone and acts on its answers
    /// ([`Round::answer`]) until it accepts the tool alone, refuses it, or an answer names
    /// nothing compile can act on (which the whole request's rounds then trace). Each answer
    /// acted on is a round of the budget, charged to that tool. Returns whether any tool
    /// changed.
    fn settle_alone(
        &self,
        results: &mut [ToolRepair],
        sent: &[Slot],
        budget: &mut budget::Budget,
        tried: &mut Tried,
    ) -> bool {
        let mut progress = false;
        for &slot in sent {
            let Slot::Tool(i) = slot else { continue };
            while results[i].outcome != Outcome::Refused && !budget.past_backstop(results.len()) {
                let t = &mut results[i].tool;
                // Lent, not copied, as the whole request's schemas are.
                let def = [ToolDef {
                    name: t.name.clone().unwrap_or_default(),
                    description: t.description.clone(),
                    parameters: t.parameters.take(),
                }];
                let answer = ask_model(self.target, &def);
                let [def] = def;
                results[i].tool.parameters = def.parameters;
                let Some(a) = answer.filter(|a| a.classified.verdict == Verdict::Rejected) else {
                    break;
                };
                budget.next_round();
                let explained =
                    crate::explain::explain_for(Some(&a.body), &a.reply.text_body(), self.check);
                // The body holds a copy of the tool's schema: not kept while it is repaired.
                drop(a);
                if !self.answer(results, &[Slot::Tool(i)], &explained, budget, tried) {
                    break;
                }
                progress = true;
            }
        }
        progress
    }
}

/// The request refused for its tool count before any tool is compiled, or `None` when its
/// count is not what the target refuses. The target's offline model is asked with each tool
/// by name alone (a schema cannot change the count, and one left out costs nothing to send),
/// so the refusal is in the model's own words, as when it is given the compiled tools. Only
/// a `too-many-tools` rejection counts: a stand-in without its schema may be refused for
/// other reasons that the real tool does not have, which are left out of the answer. The
/// count is the request's as written: a request that would fit only once some of its tools
/// are refused still has to be split (which tools would be refused is a per-tool finding).
/// `check` is the run's built-in profile of the target, which the answer is explained with.
fn refused_for_tool_count(
    tools: &[Tool],
    slots: &[Slot],
    outcomes: &[BuiltinOutcome],
    builtins: &[(usize, &BuiltinTool)],
    check: &CheckProfile<'_>,
) -> Option<Compilation> {
    let target = check.id();
    let mut defs: Vec<ToolDef> = Vec::new();
    let mut passed: Vec<(usize, &Value)> = Vec::new();
    for slot in slots {
        match *slot {
            Slot::Tool(i) => defs.push(ToolDef {
                name: tools[i].name.clone().unwrap_or_default(),
                description: None,
                parameters: None,
            }),
            Slot::Builtin(j) if outcomes[j].left_out.is_none() => {
                passed.push((defs.len() + passed.len(), &builtins[j].1.value));
            }
            Slot::Builtin(_) => {}
        }
    }
    if defs.is_empty() {
        return None;
    }
    let answer = ask_model_with_builtins(target, &defs, &passed)?;
    if answer.classified.verdict != Verdict::Rejected {
        return None;
    }
    let explanations: Vec<Explanation> =
        crate::explain::explain_for(Some(&answer.body), &answer.reply.text_body(), check)
            .into_iter()
            .filter(|e| e.rule.as_deref() == Some("too-many-tools"))
            .collect();
    if explanations.is_empty() {
        return None;
    }
    let error = explanations
        .iter()
        .map(|e| e.message.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    Some(Compilation {
        target: target.to_string(),
        line: None,
        tools: Vec::new(),
        builtins: outcomes.to_vec(),
        wire: empty_tool_block(target),
        // The body the model saw holds stand-ins, not the compiled tools: none was built.
        request: Value::Null,
        check: ModelCheck::Rejected {
            status: answer.reply.status,
            error,
            explanations,
        },
        sent: Vec::new(),
        not_compiled: tools.len(),
    })
}

/// One place of a request's tool list: a function tool (its index among the tools) or a
/// built-in tool (its index among the built-ins).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Tool(usize),
    Builtin(usize),
}

/// The request's tool list in input order: each built-in at its position, the `tools`
/// (in order) in the other places; a position past the end puts its built-in after them.
fn request_order(tools: usize, builtins: &[(usize, &BuiltinTool)]) -> Vec<Slot> {
    let mut by_position: Vec<usize> = (0..builtins.len()).collect();
    by_position.sort_by_key(|&j| builtins[j].0);
    let mut out = Vec::with_capacity(tools + builtins.len());
    let (mut next_tool, mut next_builtin) = (0, 0);
    while next_tool < tools || next_builtin < by_position.len() {
        let j = by_position.get(next_builtin).copied();
        match j {
            Some(j) if builtins[j].0 <= out.len() || next_tool == tools => {
                out.push(Slot::Builtin(j));
                next_builtin += 1;
            }
            _ => {
                out.push(Slot::Tool(next_tool));
                next_tool += 1;
            }
        }
    }
    out
}

/// Whether `b` is a Gemini `tools` entry of built-in tools (`{"googleSearch": {}}`).
fn gemini_entry(b: &BuiltinTool) -> bool {
    b.value
        .as_object()
        .is_some_and(crate::input::is_gemini_builtin_entry)
}

/// What compile did with one built-in tool of the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BuiltinOutcome {
    /// Its number in the input, as a tool's ([`crate::input::BuiltinTool::index`]); `None`
    /// for a Gemini `tools` entry, which takes no number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// Its `type` (e.g. `web_search_20250305`; empty for Bedrock's `cachePoint`).
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// How it was rewritten to fit the target's API (an OpenAI custom tool between Chat
    /// Completions' and the Responses API's shapes, [`crate::target::BuiltinFit::Converted`]);
    /// `None`: as written, or left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed: Option<String>,
    /// Why it is not in the compiled request; `None`: passed through (as written unless
    /// `changed` says otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_out: Option<String>,
    /// The tool as sent when `changed`.
    #[serde(skip)]
    converted: Option<Value>,
}

impl BuiltinOutcome {
    /// What compile does with `b` for `target`.
    pub fn of(b: &BuiltinTool, target: &str) -> BuiltinOutcome {
        use crate::target::BuiltinFit;
        let (changed, converted, left_out) = match crate::target::fit_builtin(target, &b.value) {
            BuiltinFit::AsWritten => (None, None, None),
            BuiltinFit::Converted { tool, change } => (Some(change), Some(tool), None),
            BuiltinFit::Unplaceable(why) => (
                None,
                None,
                Some(format!("{target} cannot take this built-in tool: {why}")),
            ),
            BuiltinFit::NotTaken => (
                None,
                None,
                Some(format!(
                    "{target} does not take this built-in tool (built-ins carry no schema to \
                     compile, and pass through only to a target of their own provider whose \
                     API takes them)"
                )),
            ),
        };
        BuiltinOutcome {
            index: (!gemini_entry(b)).then_some(b.index),
            kind: b.kind.clone(),
            name: b.name.clone(),
            changed,
            left_out,
            converted,
        }
    }

    /// `b` as it is sent: converted when [`BuiltinOutcome::changed`], else as written.
    fn as_sent(&self, b: &BuiltinTool) -> BuiltinTool {
        BuiltinTool {
            value: self.converted.clone().unwrap_or_else(|| b.value.clone()),
            ..b.clone()
        }
    }
}

#[cfg(test)]
thread_local! {
    /// The offline model's calls made on this thread, and the tools they sent in all (a
    /// call costs about the size of what it sends): a test bounds what compile asks.
    pub static MODEL_CALLS: std::cell::Cell<(usize, usize)> =
        const { std::cell::Cell::new((0, 0)) };
}

/// What a target's offline model said about one request.
pub struct ModelAnswer {
    /// The request body the model was given.
    pub body: Value,
    pub reply: Reply,
    /// The reply read as the target's route reads a live answer.
    pub classified: Classified,
}

/// Sends `tools` exactly as given (no wire baseline: `raw`), in `target`'s envelope, to
/// `target`'s offline model with a stand-in valid key (`MODEL_KEY`), so its validator stage
/// runs. `None` when `target` has no route (an engine or an unknown id). Nothing leaves the
/// process.
pub fn ask_model(target: &str, tools: &[ToolDef]) -> Option<ModelAnswer> {
    ask_model_with_builtins(target, tools, &[])
}

/// [`ask_model`] with built-in tools as written inserted into the request's tool list, each
/// at its position ([`crate::target::model_with_builtins`]).
pub fn ask_model_with_builtins(
    target: &str,
    tools: &[ToolDef],
    builtins: &[(usize, &Value)],
) -> Option<ModelAnswer> {
    #[cfg(test)]
    MODEL_CALLS.with(|c| {
        let (n, t) = c.get();
        c.set((n + 1, t + tools.len()));
    });
    let route = crate::target::route(target)?;
    let cfg = route.configure(&std::collections::BTreeMap::<String, String>::new());
    let wire_opts = WireOptions {
        raw: true,
        ..WireOptions::default()
    };
    let credential = Credential::Key(Secret::new(MODEL_KEY));
    let (request, reply) = crate::target::model_with_builtins(
        target,
        &cfg,
        tools,
        builtins,
        &wire_opts,
        Some(&credential),
    )?;
    // The body nests as deep as the tools in it: past serde_json's default limit of 128
    // levels (62 object schemas) a plain parse failed, and compile wrote `null`. Input is
    // capped at 512 levels and the body parse at 1024, so only a request builder's bug fails.
    let body = crate::target::wire::parse_json(&request.body).unwrap_or_else(|e| {
        debug_assert!(false, "{target}: the request body does not parse: {e}");
        Value::Null
    });
    let classified = route.classify(&cfg, &reply, false);
    Some(ModelAnswer {
        body,
        reply,
        classified,
    })
}

/// The names of the tools of `results` other than tool `i`, as they are sent.
fn names_but(results: &[ToolRepair], i: usize) -> Vec<String> {
    results
        .iter()
        .enumerate()
        .filter(|&(k, r)| k != i && r.outcome != Outcome::Refused)
        .filter_map(|(_, r)| r.tool.name.clone())
        .collect()
}

/// A rejection the model's error ties to no tool (vLLM's "features not supported by
/// xgrammar", Vertex's invalid function name: the explanation names no tool), or none compile
/// could act on: the tools sent are bisected ([`localize::bisect`]), so the ones in a part the
/// model accepts are kept and each one it rejects alone is repaired where a repair answers
/// it, else refused by itself, at the place the model names, with what the refusal rests on
/// ([`model_basis`]). Tools the bisection could not tell apart (rejected together for no limit
/// of the whole request, or past its cap on model calls, when nothing else was found) are
/// refused and the reason says so; a run rejected for a limit of the whole request blames no
/// tool, and the request's rejection is reported as such. So is one `explained` at the
/// request: a tool past the cap is not refused for what may be that limit. Returns whether
/// any tool changed (the request is then sent again).
fn localize_rejection(
    results: &mut [ToolRepair],
    sent: &[Slot],
    explained: &[Explanation],
    round: &Round<'_>,
) -> bool {
    let &Round {
        target,
        form,
        profile,
        opts,
        given,
        check,
        originals,
    } = round;
    let tools: Vec<usize> = sent
        .iter()
        .filter_map(|s| match *s {
            Slot::Tool(i) => Some(i),
            Slot::Builtin(_) => None,
        })
        .collect();
    let defs: Vec<ToolDef> = tools
        .iter()
        .map(|&i| localize::def_of(&results[i].tool))
        .collect();
    let traced = localize::bisect(&defs, check);
    drop(defs);
    let mut progress = false;
    for (at, alone) in traced.culprits {
        let i = tools[at];
        progress = true;
        let basis = model_basis(results, i, given, alone.rule.as_deref(), profile, target);
        let taken = names_but(results, i);
        let repaired = localize::repair_until_accepted(
            &mut results[i],
            target,
            form,
            profile,
            opts,
            &alone.error,
            alone.rule.as_deref(),
            alone.pointer.as_deref(),
            &taken,
            &basis,
            originals[i],
        );
        let Err(not) = repaired else {
            continue;
        };
        if let Some(new) = localize::clashing_rename(&results[i].tool, target, &alone.error, &taken)
        {
            refuse_clash(results, i, &new, target, &alone.error, &basis);
            continue;
        }
        let rule = alone.rule.as_deref().unwrap_or("its error names no rule");
        refuse(
            &mut results[i],
            alone.pointer.unwrap_or_default(),
            format!(
                "the offline model of {target} rejects the request with this tool in it, and \
                 this tool sent alone ({rule}{basis}): {}{}{}",
                alone.error,
                not.words(),
                unanswerable_fix(not)
            ),
        );
    }
    let numbers = |a: usize, b: usize| format!("#{}..#{}", tools[a], tools[b - 1]);
    for &(a, b) in &traced.together {
        for &i in &tools[a..b] {
            progress = true;
            refuse(
                &mut results[i],
                String::new(),
                format!(
                    "the offline model of {target} rejects tools {} sent together and accepts \
                     each half of them, so no one tool is the one it rejects (not traced further)",
                    numbers(a, b)
                ),
            );
        }
    }
    // Past the cap, the tools untraced are sent again with the others repaired or refused,
    // and the next round traces them with a cap of its own; only when this round found
    // nothing else are they refused, so a round always changes something. Not when the
    // request's rejection is read at the request (Cohere's 200 fields across all tools): the
    // runs untraced lie in runs that limit may be all the model rejects (100 tools of 101
    // fields had 51 tools refused "not traced", and the request was still over the limit).
    let about_the_request = explained
        .iter()
        .any(|e| e.located == crate::explain::Located::Request);
    let untraced = if progress || about_the_request {
        &[][..]
    } else {
        &traced.untraced[..]
    };
    for &(a, b) in untraced {
        for &i in &tools[a..b] {
            progress = true;
            refuse(
                &mut results[i],
                String::new(),
                format!(
                    "not traced: the offline model of {target} rejects the request with tools {} \
                     in it, and compile stopped tracing which one at its cap of {} model calls \
                     for a request of {} tools",
                    numbers(a, b),
                    traced.budget,
                    tools.len()
                ),
            );
        }
    }
    progress
}

/// Refuses tool `i`, whose name the model rejects (`error`, resting on `basis`) and accepts
/// renamed `new`, which another tool sent has: that tool keeps it, as repair's name census
/// says when a rename would take a name.
fn refuse_clash(
    results: &mut [ToolRepair],
    i: usize,
    new: &str,
    target: &str,
    error: &str,
    basis: &str,
) {
    let owner = results
        .iter()
        .enumerate()
        .find(|&(k, r)| {
            k != i && r.outcome != Outcome::Refused && r.tool.name.as_deref() == Some(new)
        })
        .map_or(new, |(_, r)| r.name.as_str())
        .to_string();
    let given = results[i].name.clone();
    refuse(
        &mut results[i],
        String::new(),
        format!(
            "the offline model of {target} rejects this tool's name, and renamed to fit, \
             `{given}` becomes `{new}`, the name of the tool `{owner}`, which keeps it; \
             `{given}` is left out (name-invalid{basis}): {error}"
        ),
    );
    if let Some(refusal) = results[i].refusals.last_mut() {
        refusal.rule = "name-duplicate".into();
    }
}

/// What a refusal names in place of a rule id when `explain` maps the model's answer to no
/// rule ("unknown rule" read as an id toolwire did not know).
const UNEXPLAINED: &str = "no rule of toolwire explains this answer";

/// A target whose wire form is the canonical schema ([`wire::Form::Plain`]) is not sent
/// OpenAI's `strict: true` (its request builder writes no `strict`): the tool's flag is taken
/// out and the change says so, with what compiles the strict form (strict modes
/// are reached by compiling for a strict target).
fn leave_strict_out(r: &mut ToolRepair, target: &str) {
    leave_strict_tool_use_out(r, target);
    if r.tool.strict != Some(true) {
        return;
    }
    r.tool.strict = None;
    r.changes.push(repair::Change {
        pointer: String::new(),
        rule: "compile".into(),
        action: format!(
            "left out `strict: true`: {target} gets the canonical schema, not strict mode's form \
             (`toolwire compile --target openai/chat-strict` or `openai/responses-strict` writes \
             that)"
        ),
        emptied: false,
        lost: Some(
            "strict mode: the provider does not hold the model's arguments to the schema \
             (`toolwire args` still checks them)"
                .into(),
        ),
    });
    if r.outcome == Outcome::Unchanged {
        r.outcome = Outcome::Repaired;
    }
}

/// A provider's own `strict: true` (Anthropic's, Bedrock Converse's: strict tool use) is
/// written by no target's request builder, theirs included: toolwire does not model the
/// subset of JSON Schema it takes ([`crate::input::ToolEntry::strict_tool_use`]), so a
/// compiled tool leaves it out, and says so rather than dropping the sampling constraint
/// unseen.
fn leave_strict_tool_use_out(r: &mut ToolRepair, target: &str) {
    let Some(provider) = r.tool.strict_tool_use.take() else {
        return;
    };
    // Written back, the flag means strict tool use only to its own provider's API: OpenAI's
    // `strict` is another mode (reached by its strict targets), and the others take none.
    let own = crate::input::strict_tool_use_target(provider) == Some(target);
    let then = if own {
        "write it back on the compiled tool if you rely on it, and check the schema against \
         the provider's JSON Schema limitations"
            .to_string()
    } else {
        format!(
            "{target} has no such flag; OpenAI's own strict mode is reached by `toolwire \
             compile --target openai/chat-strict` (or `openai/responses-strict`)"
        )
    };
    r.changes.push(repair::Change {
        pointer: String::new(),
        rule: "compile".into(),
        action: format!(
            "left out {provider}'s `strict: true` (strict tool use): toolwire does not model \
             the subset of JSON Schema it takes, so {target} gets the canonical schema \
             without it ({then})"
        ),
        emptied: false,
        lost: Some(format!(
            "strict tool use: {target} does not hold the model's arguments to the schema \
             (`toolwire args` still checks them)"
        )),
    });
    if r.outcome == Outcome::Unchanged {
        r.outcome = Outcome::Repaired;
    }
}

/// Bedrock Converse has no way to leave a tool's schema out: `toolSpec.inputSchema.json` must
/// be an object schema ("The value at toolConfig.tools.N.toolSpec.inputSchema.json.type must
/// be one of the following: object", the offline model in [`crate::target::bedrock`]). A tool
/// without one gets the empty argument object, which says the same thing.
fn declare_no_arguments(r: &mut ToolRepair, target: &str) {
    if !target.starts_with("bedrock/") || r.tool.parameters.is_some() {
        return;
    }
    r.tool.parameters = Some(serde_json::json!({"type": "object", "properties": {}}));
    r.changes.push(repair::Change {
        pointer: String::new(),
        rule: "compile".into(),
        action: format!(
            "wrote the empty argument object: {target} takes no tool without an input schema"
        ),
        emptied: false,
        lost: None,
    });
    if r.outcome == Outcome::Unchanged {
        r.outcome = Outcome::Repaired;
    }
}

/// " Fix: ..." with the fix of the rule a refusal no repair answers reads as
/// ([`localize::NotRepaired::Unanswerable`]), what the user must do; empty otherwise.
fn unanswerable_fix(not: localize::NotRepaired) -> String {
    match not {
        localize::NotRepaired::Unanswerable(rule) => crate::profile::rules::find(rule)
            .map(|r| format!(" Fix: {}", r.fix))
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// Rules that name the same kind of problem from different sides.
const RELATED: &[&[&str]] = &[
    &[
        "root-not-object",
        "type-invalid",
        "type-unsupported",
        "type-missing",
        "type-list",
        "nullable-spelling",
    ],
    &[
        "keyword-unsupported",
        "keyword-value-invalid",
        "format-unsupported",
        "enum-not-string",
        "ref-unsupported",
        "anyof-with-siblings",
        "root-combinator",
    ],
    &[
        "required-undeclared",
        "required-invalid",
        "object-properties-missing",
        "properties-invalid",
    ],
];

/// Whether a finding of rule `a` may answer a model's error that names rule `b` (the same
/// rule, or two of one [`RELATED`] group).
fn related(a: &str, b: &str) -> bool {
    a == b || RELATED.iter().any(|g| g.contains(&a) && g.contains(&b))
}

/// Repairs, in `r`'s tool, the finding at `pointer` (preferring one of rule `rule`) that the
/// model's error named, and the same feature's other places
/// ([`fix_the_same_feature_elsewhere`]). Returns whether anything changed; the places of the
/// findings repaired are added to `places`.
#[allow(clippy::too_many_arguments)]
fn fix_what_the_model_named(
    r: &mut ToolRepair,
    pointer: &str,
    rule: Option<&str>,
    profile: &CompiledProfile,
    opts: &repair::Options,
    taken: &[String],
    places: &mut Vec<String>,
    basis: &str,
) -> bool {
    let t = &r.tool;
    let findings = crate::check::check_tools(&[t.as_ref(0)], profile);
    // The finding of the named rule at the named place, or one keyword away from it (a
    // message may name the schema or its keyword); without a rule, nothing is guessed.
    let Some(rule) = rule else {
        return false;
    };
    // Providers name a problem by what they check, the detector by what it sees: a root
    // `type: dict` is `root-not-object` to Bedrock and `type-invalid` here.
    let mut ranked: Vec<&crate::check::Finding> = findings
        .iter()
        .filter(|f| {
            related(&f.rule, rule)
                && (f.pointer == pointer
                    || one_step(&f.pointer, pointer)
                    || one_step(pointer, &f.pointer))
        })
        .collect();
    ranked.sort_by_key(|f| (f.rule != rule, f.pointer != pointer));
    for f in ranked {
        if let Ok((tool, changes)) = repair::fix_finding_among(&r.tool, &findings, f, profile, opts)
        {
            // The repair sees this tool alone: a rename to another tool's name would send
            // two tools under one name (and map the provider's calls of it to both).
            if tool.name != r.tool.name && tool.name.as_ref().is_some_and(|n| taken.contains(n)) {
                continue;
            }
            take_model_repair(r, tool, changes, basis);
            places.push(f.pointer.clone());
            // A keyword written in its valid form ([`repair::fixes`]' respelling: a
            // `dependentRequired` with each name once) keeps its feature, here and elsewhere,
            // where the same feature may be valid as written: its other places would be
            // dropped, not respelled. The model names any other it still rejects.
            let kept = crate::check::check_tools(&[r.tool.as_ref(0)], profile)
                .iter()
                .any(|g| g.pointer == f.pointer && g.rule == f.rule && g.parameter == f.parameter);
            if !kept {
                fix_the_same_feature_elsewhere(r, f, profile, opts, places, basis);
            }
            return true;
        }
    }
    // A model that wants a `type` on the schema of a `not`, `if`, `then` or `else`, where no
    // evidence asks one (so `check` has no finding there): the type of the schema holding
    // it, which applies to the same value, as repair writes for a branch (trial 55 D2).
    if rule == TYPE_MISSING
        && let Some((tool, changes)) = repair::typed_from_holder(&r.tool, pointer, profile)
    {
        take_model_repair(r, tool, changes, basis);
        places.push(pointer.to_string());
        return true;
    }
    // A model that reads no `$ref` names the `$defs` it does not know (Vertex), or what it
    // misses where a reference stands (Gemini's OpenAI-compatible route: that property's
    // `type`); `$defs` goes only once nothing refers into it.
    let at_reference = findings
        .iter()
        .any(|f| f.rule == REF_RULE && (f.pointer == pointer || one_step(&f.pointer, pointer)));
    if rule == REF_RULE || at_reference {
        return inline_references(r, profile, opts, places, basis);
    }
    false
}

const REF_RULE: &str = "ref-unsupported";
const BOOLEAN_RULE: &str = crate::profile::rules::boolean_schema::RULE.id;
const TYPE_MISSING: &str = crate::profile::rules::type_missing::RULE.id;

/// Inlines every `$ref` of the tool, then drops the definitions nothing refers to any more,
/// as `repair` does where a profile rejects them; whether anything changed.
fn inline_references(
    r: &mut ToolRepair,
    profile: &CompiledProfile,
    opts: &repair::Options,
    places: &mut Vec<String>,
    basis: &str,
) -> bool {
    let before = places.len();
    repair_each(r, profile, opts, places, basis, |findings, failed| {
        let open = |f: &&crate::check::Finding| f.rule == REF_RULE && !failed.contains(&f.pointer);
        let reference = |f: &&crate::check::Finding| f.pointer.ends_with("/$ref");
        (findings.iter().filter(open).find(reference)).or_else(|| findings.iter().find(open))
    });
    places.len() > before
}

/// Repairs, one at a time, the findings `next` picks from the tool's findings as they stand
/// (given the places whose repair failed, which it must not pick again), until it picks none
/// or [`MAX_SAME_FEATURE_REPAIRS`] were tried. The places repaired are added to `places`.
fn repair_each(
    r: &mut ToolRepair,
    profile: &CompiledProfile,
    opts: &repair::Options,
    places: &mut Vec<String>,
    basis: &str,
    next: impl for<'f> Fn(&'f [crate::check::Finding], &[String]) -> Option<&'f crate::check::Finding>,
) {
    let mut failed: Vec<String> = Vec::new();
    for _ in 0..MAX_SAME_FEATURE_REPAIRS {
        let findings = crate::check::check_tools(&[r.tool.as_ref(0)], profile);
        let Some(f) = next(&findings, &failed) else {
            return;
        };
        match repair::fix_finding_among(&r.tool, &findings, f, profile, opts) {
            Ok((tool, changes)) => {
                places.push(f.pointer.clone());
                take_model_repair(r, tool, changes, basis);
            }
            Err(_) => failed.push(f.pointer.clone()),
        }
    }
}

/// Whether place `a` is one keyword below place `b` (a message may name a schema or its
/// keyword).
fn one_step(a: &str, b: &str) -> bool {
    a.strip_prefix(b)
        .is_some_and(|rest| rest.starts_with('/') && rest[1..].find('/').is_none())
}

/// Sets what `r` says is left (`unverified`, `introduced`, `left_as_written`) from a check of
/// the tool as compile writes it out, `given` being the warnings of the tool as given: repair
/// listed them for the tool as it left repair, and the model loop and the wire form change it
/// after that (a feature the model rejects is dropped; a strict form's `null` in an `enum`
/// brought in). A refused tool is not written: nothing is left of it.
fn left_as_compiled(
    r: &mut ToolRepair,
    profile: &CompiledProfile,
    given: &BTreeMap<String, usize>,
) {
    let written = if r.outcome == Outcome::Refused {
        r.unverified.clear();
        Vec::new()
    } else {
        crate::check::check_tools(&[r.tool.as_ref(0)], profile)
    };
    repair::set_left(r, &written, given);
}

/// Leaves out of `changes` a keyword dropped because the one it rested on was (a change of no
/// rule, "dropped `K: V` too: ...") that the wire form wrote again, the same, at the same
/// place of the `compiled` schema: a strict form's closing `additionalProperties: false`,
/// dropped with a `patternProperties` the model rejected and closed again after. Said, the
/// line would claim a loss the output does not have.
fn written_again(changes: &mut Vec<repair::Change>, compiled: &Value) {
    changes.retain(|c| {
        let Some((_, k)) = c.pointer.rsplit_once('/') else {
            return true;
        };
        // `k` is a keyword (`additionalProperties`, ...), which no escape changes.
        !(c.rule.is_empty()
            && compiled
                .pointer(&c.pointer)
                .is_some_and(|v| c.action.starts_with(&repair::dropped_too(k, v))))
    });
}

/// Records a repair made because the target's offline model rejects what it changed;
/// `basis` is what that rests on ([`model_basis`]).
fn take_model_repair(r: &mut ToolRepair, tool: Tool, changes: Vec<repair::Change>, basis: &str) {
    r.tool = tool;
    r.changes.extend(changes.into_iter().map(|mut c| {
        // A change no finding asked for follows from another: the model did not reject it.
        if !c.rule.is_empty() {
            c.action.push_str(&model_label(basis));
        }
        c
    }));
    if r.outcome == Outcome::Unchanged {
        r.outcome = Outcome::Repaired;
    }
}

/// The words after a change made because the target's offline model rejects what it changed,
/// with what that rests on ([`model_basis`]): one wording for every path that makes such a
/// change, so a drop the evidence does not back always says it is the model's assumption.
fn model_label(basis: &str) -> String {
    format!(" (the target's offline model rejects it{basis})")
}

/// A model names the first place of a feature it rejects (OpenAI: one `'default' is not
/// permitted` per answer), so a tool with that feature at many places would take one round
/// each, past [`budget::MAX_ROUNDS_PER_TOOL`]. The model rejects the feature, not the place: its other
/// places in the tool (the same rule and profile parameter) are repaired too, without asking
/// again. A place no repair removes is left as it is (the model, asked again, names it). The
/// places repaired are added to `places`.
fn fix_the_same_feature_elsewhere(
    r: &mut ToolRepair,
    named: &crate::check::Finding,
    profile: &CompiledProfile,
    opts: &repair::Options,
    places: &mut Vec<String>,
    basis: &str,
) {
    if named.parameter.is_empty() {
        return;
    }
    repair_each(r, profile, opts, places, basis, |findings, failed| {
        findings.iter().find(|f| {
            f.rule == named.rule && f.parameter == named.parameter && !failed.contains(&f.pointer)
        })
    });
}

/// Cap on the other places of one rejected feature repaired at once (see
/// [`fix_the_same_feature_elsewhere`]); the largest corpus tool has fewer.
const MAX_SAME_FEATURE_REPAIRS: usize = 400;

/// Marks a tool refused, at `pointer` (the most precise place known: into its parameters
/// schema, `""` its root), for `reason` (which does not repeat the place).
fn refuse(r: &mut ToolRepair, pointer: String, reason: String) {
    r.outcome = Outcome::Refused;
    r.changes.clear();
    r.refusals.push(repair::Refusal {
        pointer,
        rule: "compile".into(),
        parameter: String::new(),
        reason,
    });
}

/// Names every change and refusal of `r` at a place of its parameters schema as given, which
/// `canonical` (compile's canonical form of it) holds but for what `rewritten` (the places the
/// canonical rewrites wrote anew) replaced: a place compile wrote below the schema as given
/// is named by the deepest place as given it is in ([`repair::place::resolving_prefix`]), the
/// one the user edits. A strict form's `type: ["any", "null"]` made of `type: "any"` was named
/// `/type/0`, into the string as given, and every consumer resolving it found nothing (trial 80
/// D1). A refusal named so says the place as compiled too, for the model's words (`['any',
/// 'null']`) name what compile wrote, not what the user did.
fn name_in_given(r: &mut ToolRepair, canonical: &Value, rewritten: &[String]) {
    let as_given = |pointer: &str| -> String {
        let place = repair::place::resolving_prefix(canonical, pointer);
        let outermost = rewritten
            .iter()
            .filter(|w| w.len() < place.len() && at_or_inside(place, w))
            .min_by_key(|w| w.len());
        outermost.map_or(place, String::as_str).to_string()
    };
    let mut moved = false;
    for c in &mut r.changes {
        let place = as_given(&c.pointer);
        moved |= place != c.pointer;
        c.pointer = place;
    }
    for x in &mut r.refusals {
        let place = as_given(&x.pointer);
        if place != x.pointer {
            moved = true;
            x.reason.push_str(&format!(
                " (named at `{}` in the schema as compiled: the tool as given has nothing \
                 there, and this is the place as given it is in)",
                x.pointer
            ));
            x.pointer = place;
        }
    }
    if moved {
        let mut said = HashSet::new();
        r.changes.retain(|c| said.insert(c.clone()));
        let mut said = HashSet::new();
        r.refusals.retain(|x| said.insert(x.clone()));
    }
}

/// How many times a refused tool is compiled again to find the places past those it was
/// refused at ([`name_every_blocker`]): each time finds at least one more (the offline model
/// names one per answer), and each costs a compile of that tool alone, so the cost stays
/// linear in the schema.
const BLOCKER_TRIES: usize = 8;

/// The most JSON values ([`crate::json::value_count`]) a refused tool's schema may hold for
/// compile to look for more places that refuse it ([`name_every_blocker`]); a larger one is
/// reported with the places found and a note that more may remain. Each look compiles the
/// tool again, and a compile that reaches the offline model grows faster than the schema
/// (many `patternProperties` take seconds), so an unbounded search on a large refused tool
/// could run for minutes; 1,000 values is well past the tools people write (the largest in
/// the bfcl_gorilla, livemcpbench_mcp and github_mcp_server_toolsnaps corpora holds 231) and
/// keeps each look to milliseconds.
pub const BLOCKER_SEARCH_MAX_VALUES: usize = 1_000;

/// How many JSON values, over all looks, compile compiles again per request to look for more
/// places that refuse its tools ([`name_every_blocker`]): [`BLOCKER_TRIES`] looks at
/// [`BLOCKER_SEARCH_MAX_VALUES`] are 8,000 values for one tool, so this lets 250 refused
/// tools of that size be searched in full, then stops, so a request of thousands of refused
/// tools costs at most that much more than one compile (the tools past it are reported with
/// a note that more places may refuse them).
pub const BLOCKER_SEARCH_BUDGET: usize = 2_000_000;

/// The rules that refuse a tool for a count over the whole schema (its depth, its size, what
/// its `$ref`s expand to), not for what stands at one place: taking that place out moves the
/// refusal to the next place, which is the same problem, not another one.
const WHOLE_SCHEMA_RULES: &[&str] = &[
    crate::profile::rules::depth_exceeded::RULE.id,
    crate::profile::rules::nesting_too_deep::RULE.id,
    crate::profile::rules::size_exceeded::RULE.id,
    crate::profile::rules::ref_expansion_exceeded::RULE.id,
    crate::profile::rules::too_many_tools::RULE.id,
];

/// Whether refusal `x` is of the whole schema: at its root, or by a rule of
/// [`WHOLE_SCHEMA_RULES`] (for the offline model's refusals, the rule its answer was read
/// as, which the reason names in parentheses).
fn of_the_whole_schema(x: &repair::Refusal) -> bool {
    x.pointer.is_empty()
        || WHOLE_SCHEMA_RULES.iter().any(|id| {
            x.rule == *id || (x.rule == "compile" && x.reason.contains(&format!("({id}")))
        })
}

/// Whether `inner` is `outer` or a place inside it (whole tokens: `/a` is not inside `/ab`).
fn at_or_inside(inner: &str, outer: &str) -> bool {
    inner
        .strip_prefix(outer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Adds to the refusals of `r` (a refused tool) the places past them that would refuse it
/// too: it is compiled again alone, from `canonical` (its canonical schema, else the schema
/// it was refused with), with every place it is refused at taken out, until it compiles, no
/// place is new, or [`BLOCKER_TRIES`] are spent (then a refusal at its root says more may
/// remain). Without this a user fixed one place per run: repair refused a map, and the
/// `patternProperties` the model rejects came out only on the next run.
///
/// A place is taken out only to look past it, so what the next compile says because it is
/// gone is not a problem of the tool: when a refusal is at or around a place taken out (an
/// array whose `prefixItems` went is then without `items`), is a `$ref` taking them out
/// changed ([`refers_into`]), or is of the
/// whole schema ([`of_the_whole_schema`]: the depth is still past the cap one level up), that
/// compile's refusals are all left out and the search stops. A tool refused for its whole
/// schema is not searched.
fn name_every_blocker(
    r: &mut ToolRepair,
    canonical: Option<&Value>,
    target: &str,
    profile: &CompiledProfile,
    opts: &repair::Options,
    check: &CheckProfile<'_>,
    values_left: &mut usize,
) {
    if r.refusals.iter().any(of_the_whole_schema) {
        return;
    }
    let compiled;
    let before = match canonical {
        Some(c) => c,
        None => match r.tool.parameters.clone() {
            Some(p) => {
                compiled = p;
                &compiled
            }
            None => return,
        },
    };
    let mut probe = before.clone();
    let size = crate::json::value_count(&probe);
    if size > BLOCKER_SEARCH_MAX_VALUES {
        more_may_remain(
            r,
            &format!(
                "compile did not look for more places that refuse this tool, as its schema \
                 holds {size} JSON values (more than {BLOCKER_SEARCH_MAX_VALUES})"
            ),
        );
        return;
    }
    let mut taken: Vec<String> = Vec::new();
    let mut known: HashSet<String> = HashSet::new();
    let mut new_from = 0;
    for _ in 0..BLOCKER_TRIES {
        let mut taken_out = false;
        for x in &r.refusals[new_from..] {
            if known.insert(x.pointer.clone()) && take_out(&mut probe, &x.pointer) {
                taken.push(x.pointer.clone());
                taken_out = true;
            }
        }
        if !taken_out {
            return;
        }
        new_from = r.refusals.len();
        // The probe only shrinks, so `size` bounds what each look compiles.
        if *values_left < size {
            more_may_remain(
                r,
                &format!(
                    "compile stopped looking for more places that refuse this tool, as it \
                     had compiled {BLOCKER_SEARCH_BUDGET} JSON values of this request's \
                     refused tools again"
                ),
            );
            return;
        }
        *values_left -= size;
        let given = r.tool.parameters.take();
        let mut tool = r.tool.clone();
        r.tool.parameters = given;
        tool.parameters = Some(probe.clone());
        let Ok(again) = compile_once(vec![tool], &[], target, profile, opts, check, false) else {
            return;
        };
        let Some(again) = again.tools.into_iter().next() else {
            return;
        };
        if again.outcome != Outcome::Refused {
            return;
        }
        let made_by_taking_out = |x: &repair::Refusal| {
            of_the_whole_schema(x)
                || taken
                    .iter()
                    .any(|t| at_or_inside(t, &x.pointer) || at_or_inside(&x.pointer, t))
                || refers_into(before, &probe, &x.pointer, &taken)
        };
        if again.refusals.iter().any(made_by_taking_out) {
            return;
        }
        r.refusals.extend(
            again
                .refusals
                .into_iter()
                .filter(|x| !known.contains(&x.pointer)),
        );
        if r.refusals.len() == new_from {
            return;
        }
    }
    more_may_remain(
        r,
        &format!(
            "compile stopped looking for more places that refuse this tool after compiling it \
             {BLOCKER_TRIES} more times, each without the places found before"
        ),
    );
}

/// Ends the refusals of `r` with one at its root saying why compile stopped looking for more
/// (`why`) and that more may remain.
fn more_may_remain(r: &mut ToolRepair, why: &str) {
    r.refusals.push(repair::Refusal {
        pointer: String::new(),
        rule: "compile".into(),
        parameter: String::new(),
        reason: format!("{why}: fix these and compile again, as more may remain"),
    });
}

/// Whether the place at `pointer` in `probe` is a `$ref` (or the schema holding one) that
/// taking `taken` out of `given` (the schema before) changed: in `given` it reaches a place at
/// or inside one of `taken`, or `probe` resolves it elsewhere or nowhere. It is resolved as
/// every command resolves it ([`crate::schema::refs::step_from`]), so a reference by
/// `$anchor` into a subschema taken out counts (trial 54 D3: `#xa` in a `not` taken out), and
/// one a taken `$schema` reads under another draft (D5: a draft-04 `id` no keyword after).
fn refers_into(given: &Value, probe: &Value, pointer: &str, taken: &[String]) -> bool {
    use crate::schema::refs::{Step, step_from};
    let node = repair::place::keyword_value_owner(pointer, "$ref");
    let node = node.as_deref().unwrap_or(pointer);
    let Some(reference) = probe.pointer(node).and_then(|v| v.get("$ref")) else {
        return false;
    };
    let Some(reference) = reference.as_str() else {
        return false;
    };
    let Step::Local(_, was) = step_from(given, node, reference) else {
        return false;
    };
    taken.iter().any(|t| at_or_inside(&was, t))
        || !matches!(step_from(probe, node, reference), Step::Local(_, now) if now == was)
}

/// Takes the place at `pointer` out of `schema`: a keyword or member is removed (a property
/// with its name in the `required` beside it, which a strict form would otherwise refuse as
/// naming no property: trial 48 D2), an element of a list (whose later elements keep their
/// places) becomes `{}`. Returns whether the place was there.
fn take_out(schema: &mut Value, pointer: &str) -> bool {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return false;
    };
    let last = last.replace("~1", "/").replace("~0", "~");
    match schema.pointer_mut(parent) {
        Some(Value::Object(o)) => {
            let was = o.remove(&last).is_some();
            if was
                && let Some(holder) = parent.strip_suffix("/properties")
                && let Some(Value::Array(required)) = schema
                    .pointer_mut(holder)
                    .and_then(|h| h.get_mut("required"))
            {
                required.retain(|n| n.as_str() != Some(last.as_str()));
            }
            was
        }
        Some(Value::Array(a)) => match last.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
            Some(v) => {
                *v = json!({});
                true
            }
            None => false,
        },
        _ => false,
    }
}

/// Refuses each tool of `sent` not refused yet whose schema as compiled for `target` is past
/// toolwire's own cap ([`crate::args::MAX_EXPANDED`] subschemas, `$ref`s counted as copies), in
/// the words `check` and `repair` use for it. Repair refuses a tool past it as given; the
/// target's form may still take one within it past (a strict form closes every object and
/// makes optional arguments nullable, each a subschema more: 99,998 one-`anyOf`-branch enum
/// members became 100,003 subschemas, written with exit 0, then refused by `args`). Returns
/// whether any tool was refused.
fn refuse_past_the_args_cap(results: &mut [ToolRepair], sent: &[Slot], target: &str) -> bool {
    let mut refused = false;
    for &slot in sent {
        let Slot::Tool(i) = slot else { continue };
        let r = &mut results[i];
        if r.outcome == Outcome::Refused {
            continue;
        }
        let Some(words) = r
            .tool
            .parameters
            .as_ref()
            .and_then(|p| crate::profile::rules::ref_expansion_exceeded::past_cap(p, false))
        else {
            continue;
        };
        r.outcome = Outcome::Refused;
        r.changes.clear();
        r.refusals.push(repair::Refusal {
            pointer: String::new(),
            rule: crate::profile::rules::ref_expansion_exceeded::RULE
                .id
                .into(),
            parameter: String::new(),
            reason: format!(
                "as compiled for {target}, {words}; the schema as given is within the cap, and \
                 {target}'s form took it past (each object closed, each optional argument \
                 made nullable, each `$ref` inlined adds subschemas), so compile does not \
                 write it: make the schema smaller"
            ),
        });
        refused = true;
    }
    refused
}

/// Marks a tool refused at every place its wire form cannot be written at ([`wire::apply`]).
fn refuse_at_each(r: &mut ToolRepair, blocked: Vec<Unwirable>) {
    for Unwirable { pointer, reason } in blocked {
        refuse(r, pointer, reason);
    }
}

/// What a refusal by the offline model rests on, as words to add after its rule: when
/// `check --target` (the target's own profile, made from the evidence) reports an error of
/// that rule on tool `i` of the request (the whole request, its built-ins too, as check
/// sees it: `name-duplicate` is about the request, not one tool), that finding's evidence;
/// else a note that the rejection is the model's assumption. The models are calibrated to the
/// evidence but also refuse what the evidence does not speak to (a JSON Schema meta-schema
/// pass, strict mode's documented subset applied to every form); a user must be able to tell
/// such a refusal from a known rejection, which `check` reports.
fn model_basis(
    results: &[ToolRepair],
    i: usize,
    builtins: &[(usize, &BuiltinTool)],
    rule: Option<&str>,
    profile: &CompiledProfile,
    target: &str,
) -> String {
    let slots = request_order(results.len(), builtins);
    // A rule about one tool's schema is judged on that tool alone: checking the whole
    // request for each repair made compile quadratic in its tools. Names and the tool count
    // are about the request (`name-duplicate`, a rename onto a taken name), so those, and an
    // error of no rule, are judged on the whole request.
    let alone = rule.is_some_and(|r| !r.starts_with("name-") && r != "too-many-tools");
    let mut tools: Vec<crate::check::ToolRef<'_>> = Vec::new();
    let mut named: Vec<BuiltinTool> = Vec::new();
    let mut at = 0;
    for (position, slot) in slots.iter().enumerate() {
        match *slot {
            Slot::Tool(k) if k == i => {
                at = position;
                tools.push(results[k].tool.as_ref(position));
            }
            Slot::Tool(_) | Slot::Builtin(_) if alone => {}
            Slot::Tool(k) => tools.push(results[k].tool.as_ref(position)),
            Slot::Builtin(j) => named.push(BuiltinTool {
                index: position,
                ..builtins[j].1.clone()
            }),
        }
    }
    let mut made = crate::check::Findings::default();
    crate::profile::detect::Checker::new(profile, &mut made).request(&tools, &named);
    let findings = made.render(profile);
    // The tool judged is the one compiled, which the strict form may take past toolwire's own
    // caps where the tool given is not: those findings are neither a provider's rejection
    // nor what `check` reports on the input.
    let known = findings.iter().find(|f| {
        f.tool_index == at
            && f.level == crate::check::Level::Error
            && rule.is_none_or(|r| f.rule.as_str() == r)
            && !crate::profile::table::is_own_cap(f.rule.as_str())
    });
    match known {
        // Check's own words for the evidence, a placement it was judged from among them.
        Some(f) => match f
            .evidence
            .as_ref()
            .filter(|e| !e.is_empty())
            .and_then(|e| profile.because_of(e))
        {
            Some(because) => format!("; `check --target {target}` reports it too: {because}"),
            None => format!(
                "; `check --target {target}` reports it too, by the profile `{}`, which cites \
                 no evidence",
                profile.name
            ),
        },
        None => format!(
            "; the offline model's assumption, not evidence: the profile `{}` (made from the \
             docs, reports and probes) does not say {target} rejects this, so `check --target \
             {target}` reports no error for it",
            profile.name
        ),
    }
}

/// Cuts the tool's description to at most `max` characters as `repair` cuts one
/// ([`crate::repair::Cut`]). Returns whether it was longer.
fn cut_description(r: &mut ToolRepair, max: usize) -> bool {
    let Some(cut) = r
        .tool
        .description
        .as_deref()
        .and_then(|old| crate::repair::Cut::of(old, max))
    else {
        return false;
    };
    r.tool.description = Some(cut.text);
    r.changes.push(repair::Change {
        pointer: String::new(),
        rule: "description-too-long".into(),
        action: format!(
            "cut the description from {} to {} characters (the limit the target's offline model states){}",
            cut.was,
            cut.now,
            crate::repair::short_of(cut.now, max)
        ),
        emptied: false,
        lost: Some(format!(
            "the last {} characters of the description",
            cut.was - cut.kept
        )),
    });
    if r.outcome == Outcome::Unchanged {
        r.outcome = Outcome::Repaired;
    }
    true
}

/// The target's tool block with no tool in it (OpenAI's `[]`, Bedrock's `{"tools": []}`...):
/// what a request whose tools were all refused is written as, so that the requests after it
/// keep their places. Taken from the target's own request builder, not written out per
/// target; `[]` for a target without a route.
pub fn empty_tool_block(target: &str) -> Value {
    ask_model_with_builtins(target, &[], &[])
        .map(|a| tool_block(&a.body))
        .unwrap_or_else(|| Value::Array(Vec::new()))
}

/// The tool block compile writes for `target`, from the request its offline model judged. A
/// target of the plain form gets no `strict` its request builder put there: SGLang compiles a
/// tool's schema into a grammar only for a strict tool (PROVIDERS.md §19, open-historia
/// PR#667), so the probe sends every tool strict, and the model judged the tools so (the
/// stricter reading); the user's own flag was already left out with a line saying so
/// ([`leave_strict_out`]). Written into the output, it would turn on a mode the user did not
/// ask for, with no line saying so, and `check` would read it as OpenAI's strict mode.
fn wire_block(target: &str, body: &Value) -> Value {
    let mut block = tool_block(body);
    if wire::Form::of(target).requirements().is_none()
        && let Value::Array(tools) = &mut block
    {
        for t in tools {
            if let Some(Value::Object(f)) = t.get_mut("function") {
                f.remove("strict");
            }
        }
    }
    block
}

/// Where a request body carries its tools.
fn tool_block(body: &Value) -> Value {
    for p in [
        "/tools",
        "/generateContentRequest/tools",
        "/request/tools",
        "/toolConfig",
        "/input/converse/toolConfig",
    ] {
        if let Some(v) = body.pointer(p) {
            return v.clone();
        }
    }
    Value::Null
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod rounds_tests;
