//! What compile does when the offline model rejects something no finding of the target's
//! profile answers: the request as a whole, naming no tool (vLLM's "features not supported by
//! xgrammar", Vertex's invalid function name), or a place where the profile has no evidence
//! (so `check --target` reports no error there). A request rejected as a whole is bisected
//! down to the tools the model rejects alone (a run rejected for a limit of the whole request,
//! and accepted in halves, blames none of its tools); for each, the repairs that could answer it are
//! made all at once, then pruned by delta debugging: a repair is kept only when the model
//! rejects the tool without it, so what is kept is what the model rejected, not a guess. A
//! tool no repair answers is refused on its own, and the other tools are still sent.

use crate::evidence::Verdict;
use crate::explain::{CheckProfile, Located};
use crate::names::{FirstChar, NameRule};
use crate::profile::CompiledProfile;
use crate::repair::{self, Change, Tool, ToolRepair};
use crate::tool::ToolDef;
use serde_json::Value;

use super::wire;

/// The part of the cap on the model calls tracing one rejection that names no tool which does
/// not grow with the request (see [`call_budget`]).
pub const MAX_ALONE: usize = 64;

/// Cap on the model calls tracing one rejection that names no tool in a request of `tools`
/// tools: each is one call of the offline model (in process, but it costs the size of the
/// tools sent). Bisection takes about 2·log₂ n calls per tool rejected, and at most 2(n − 1)
/// when every tool is, so the cap grows with the request: a fixed cap of 64 tools asked
/// alone left a rejected tool at index 64 or later untraced, and the whole request was lost.
pub fn call_budget(tools: usize) -> usize {
    MAX_ALONE + tools
}

/// What bisecting a rejected request found.
#[derive(Default)]
pub struct Traced {
    /// The tools (positions in the list bisected) the model rejects sent alone, with its
    /// answer.
    pub culprits: Vec<(usize, Alone)>,
    /// Runs of tools (start, end exclusive) the model rejects sent together and accepts in
    /// each half, for no limit of the request: no one of them is the one it rejects.
    pub together: Vec<(usize, usize)>,
    /// Runs of tools not traced because the cap on model calls was reached: each lies in a
    /// run the model rejects, and was never sent on its own, or is one the model accepts in
    /// halves whose rejection was not asked about.
    pub untraced: Vec<(usize, usize)>,
    /// The model calls made.
    pub calls: usize,
    /// The cap they were held to ([`call_budget`]).
    pub budget: usize,
}

/// Finds which of `defs` the model rejects, given that it rejects them sent together
/// (possibly with built-ins): each half is sent as a request, and each half it rejects is
/// halved again, down to single tools. A tool in a half the model accepts is never blamed.
pub fn bisect(defs: &[ToolDef], check: &CheckProfile<'_>) -> Traced {
    let mut traced = Traced {
        budget: call_budget(defs.len()),
        ..Traced::default()
    };
    if defs.len() == 1 {
        // The request was asked with its built-ins: the tool is asked alone for its answer.
        traced.calls = 1;
        if let Some(alone) = rejected(defs, check) {
            traced.culprits.push((0, alone));
        }
        return traced;
    }
    split(defs, 0, defs.len(), check, true, &mut traced);
    traced
}

/// Asks about both halves of `defs[start..end]`, a run the model rejects, and follows each
/// half it rejects. `top` is the whole request, which was asked with its built-ins: when the
/// model accepts both its halves, the built-ins may be what it rejects, so no tool is blamed.
fn split(
    defs: &[ToolDef],
    start: usize,
    end: usize,
    check: &CheckProfile<'_>,
    top: bool,
    t: &mut Traced,
) {
    let mid = start + (end - start) / 2;
    let mut any = false;
    for (a, b) in [(start, mid), (mid, end)] {
        if t.calls >= t.budget {
            t.untraced.push((a, b));
            // Which half it rejects is unknown: neither may be taken as accepted.
            any = true;
            continue;
        }
        t.calls += 1;
        if b - a == 1 {
            let Some(alone) = rejected(&defs[a..b], check) else {
                continue;
            };
            t.culprits.push((a, alone));
        } else if rejects(&defs[a..b], check.id()) {
            split(defs, a, b, check, false, t);
        } else {
            continue;
        }
        any = true;
    }
    if !any && !top {
        // A limit of the whole request (Cohere's 200 fields across all tools) rejects a run
        // past it and takes each half: no tool of it is to blame, and the rejection of the
        // whole request says which limit it is (trial 71 D2: a half of 21 tools over the
        // limit had every tool refused, and compile then reported the request accepted).
        // Held to the cap like any call (asked past it, a request of 99 tools of 101 fields
        // made 164 calls under a cap of 163): a run not asked about is untraced, not refused
        // together.
        if t.calls >= t.budget {
            t.untraced.push((start, end));
            return;
        }
        t.calls += 1;
        if !about_the_request(&defs[start..end], check) {
            t.together.push((start, end));
        }
    }
}

/// Whether the offline model's answer to `defs` sent as one request is about the request,
/// not one of its tools: explain reads it at the request ([`Located::Request`]), as it reads
/// a limit counted across the request's tools.
fn about_the_request(defs: &[ToolDef], check: &CheckProfile<'_>) -> bool {
    let Some(answer) = super::ask_model(check.id(), defs) else {
        return false;
    };
    answer.classified.verdict == Verdict::Rejected
        && crate::explain::explain_for(Some(&answer.body), &answer.reply.text_body(), check)
            .iter()
            .any(|e| e.located == Located::Request)
}

/// Half the cap on the model calls tracing which repairs of one tool the model needs
/// ([`MAX_CALLS`]).
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
pub fn def_of(t: &Tool) -> ToolDef {
    #[cfg(test)]
    if t.parameters.is_some() {
        crate::repair::SCHEMA_COPIES.with(|c| c.set(c.get() + 1));
    }
    ToolDef {
        name: t.name.clone().unwrap_or_default(),
        description: t.description.clone(),
        parameters: t.parameters.clone(),
    }
}

/// Whether `target`'s offline model rejects `t` sent alone (not when it accepts it, nor for
/// an answer that reads as neither verdict). The schema is lent to the request and given
/// back, not copied: a tool's schema may be megabytes, and each trial asks about one.
pub fn rejected_alone(t: &mut Tool, target: &str) -> bool {
    let def = [ToolDef {
        name: t.name.clone().unwrap_or_default(),
        description: t.description.clone(),
        parameters: t.parameters.take(),
    }];
    let rejected = rejects(&def, target);
    let [def] = def;
    t.parameters = def.parameters;
    rejected
}

/// Whether `target`'s offline model rejects `defs` sent as one request. Its answer is not
/// explained: a caller that only needs the verdict (each trial of a repair, each half of a
/// bisection) paid for an explanation per call.
fn rejects(defs: &[ToolDef], target: &str) -> bool {
    super::ask_model(target, defs).is_some_and(|a| a.classified.verdict == Verdict::Rejected)
}

/// What the offline model of the target whose built-in profile is `check` says about `defs`
/// sent as one request: `None` when it does not reject it. The place and rule are read for the
/// request's first tool (what matters when it is sent alone).
fn rejected(defs: &[ToolDef], check: &CheckProfile<'_>) -> Option<Alone> {
    let answer = super::ask_model(check.id(), defs)?;
    if answer.classified.verdict != Verdict::Rejected {
        return None;
    }
    let text = answer.reply.text_body();
    let explained = crate::explain::explain_for(Some(&answer.body), &text, check);
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

/// The name rule a rename of `name` tried for a rejection uses: the characters and first
/// character every provider's name rule takes (letters, digits, `_`, `-`; a letter or `_`
/// first), and the length the model's message states (64, the common limit, when it states
/// none). A `.` or `:` that `name` holds is kept where the model takes it in a name of its
/// own (`a.b`): Vertex's takes dots, so `files.read:v2` is renamed `files.read_v2`, not
/// `files_read_v2`, which changed a character no rule refused (trial 82 D1).
fn fallback_name_rule(target: &str, message: &str, name: &str) -> NameRule {
    let mut punctuation = String::from("_-");
    punctuation.extend(
        ['.', ':']
            .into_iter()
            .filter(|c| name.contains(*c) && model_takes_in_names(target, *c)),
    );
    NameRule {
        scope: target.to_string(),
        max_len: stated_max_length(message).unwrap_or(64),
        punctuation,
        first: FirstChar::LetterOrUnderscore,
        source: "the offline model's rejection".into(),
        assumed: true,
    }
}

/// Whether `target`'s offline model takes a minimal tool named `a{c}b` (an empty object
/// schema): a model that refuses it for anything else counts as refusing `c`, which leaves
/// the rename as narrow as before.
fn model_takes_in_names(target: &str, c: char) -> bool {
    let def = [ToolDef {
        name: format!("a{c}b"),
        description: Some("Takes nothing.".into()),
        parameters: Some(serde_json::json!({"type": "object", "properties": {}})),
    }];
    super::ask_model(target, &def).is_some_and(|a| a.classified.verdict == Verdict::Accepted)
}

/// One repair to try: the tool once made, and its changes.
#[derive(Clone)]
struct Trial {
    tool: Tool,
    changes: Vec<Change>,
    /// The profile's findings in `tool`, checked once: a step that cannot be made leaves the
    /// tool as it was, and the next step reads the same findings. Checking anew for each step
    /// made a replay of k steps cost k checks of the whole tool, each growing with its depth
    /// (pointers): a chain of 200 nested objects took 22 s to compile for
    /// deepseek/beta-strict in the release build (trial 65 D1).
    findings: std::cell::OnceCell<Vec<crate::check::Finding>>,
}

impl Trial {
    /// `tool` as made, with `changes`; its findings are checked when a step first needs them.
    fn new(tool: Tool, changes: Vec<Change>) -> Trial {
        Trial {
            tool,
            changes,
            findings: std::cell::OnceCell::new(),
        }
    }
}

/// One repair, named so it can be made again on another form of the tool: the rename, or
/// the repair of the finding at a place, of a rule and profile parameter.
#[derive(Clone, PartialEq)]
enum Step {
    Rename,
    Finding {
        pointer: String,
        rule: String,
        parameter: String,
    },
}

/// Depth of a JSON Pointer (its number of tokens).
fn depth(pointer: &str) -> usize {
    pointer.matches('/').count()
}

/// What the steps are made with.
struct Repairs<'a> {
    target: &'a str,
    form: wire::Form,
    profile: &'a CompiledProfile,
    opts: &'a repair::Options,
    message: &'a str,
    taken: &'a [String],
    /// The tool's name as given, which a rename's line names (not a name it had on the way).
    given: &'a str,
    /// The tool's parameters schema as given (canonical), where compile keeps it: the wire
    /// form judges optional nulls there ([`wire::apply`]).
    schema_given: Option<&'a Value>,
}

impl Repairs<'_> {
    /// `trial` with `step` made, or `None` when it cannot be (its finding is gone, no repair
    /// removes it, or the wire form cannot be applied after it).
    fn make(&self, trial: &Trial, step: &Step) -> Option<Trial> {
        let Step::Finding {
            pointer,
            rule,
            parameter,
        } = step
        else {
            let renamed = rename(
                &trial.tool,
                self.given,
                self.target,
                self.message,
                self.taken,
            )?;
            let mut changes = trial.changes.clone();
            changes.extend(renamed.changes);
            return Some(Trial::new(renamed.tool, changes));
        };
        let findings = trial
            .findings
            .get_or_init(|| crate::check::check_tools(&[trial.tool.as_ref(0)], self.profile));
        let f = findings.iter().find(|f| {
            f.pointer == *pointer && f.rule.as_str() == rule && f.parameter.as_str() == parameter
        })?;
        let (mut tool, mut changes) =
            repair::fix_finding_among(&trial.tool, findings, f, self.profile, self.opts).ok()?;
        // The repair may make the wire form apply where it did not (see the main loop).
        if let Some(schema) = tool.parameters.as_mut() {
            changes.extend(
                wire::apply(
                    self.form,
                    schema,
                    self.schema_given,
                    self.opts.max_inline_nodes,
                )
                .ok()?,
            );
        }
        let mut all = trial.changes.clone();
        all.extend(changes);
        Some(Trial::new(tool, all))
    }

    /// `original` (whose findings are `findings`) with each of `steps` made in order, those
    /// that cannot be made (another step took their place away, or the name fits) left out,
    /// and the steps made.
    fn replay(
        &self,
        original: &Tool,
        findings: &[crate::check::Finding],
        steps: &[Step],
    ) -> (Trial, Vec<Step>) {
        let mut trial = Trial {
            tool: original.clone(),
            changes: Vec::new(),
            findings: std::cell::OnceCell::from(findings.to_vec()),
        };
        let mut made = Vec::new();
        for s in steps {
            if let Some(next) = self.make(&trial, s) {
                trial = next;
                made.push(s.clone());
            }
        }
        (trial, made)
    }
}

/// The work [`repair_until_accepted`] may spend making the repairs of one tool, in JSON
/// values checked, each counted at its depth ([`crate::json::depth_sum`]): each repair made
/// checks the whole tool again, writing a finding's pointer costs its depth, and pruning
/// replays the repairs up to [`MAX_CALLS`] times, so the work is the number of repairs tried
/// times the tool's size (times the replays). Without a bound a tool of 1,000
/// `patternProperties` (each a keyword finding) took 49 s to compile for openai/chat-strict in
/// the debug build (500 took 4.1 s: by that growth, 5,000 would take the best part of an
/// hour; not run). Counted in values alone, a chain of 200 nested objects (602 values, but a
/// depth sum of 121,203) had all of its 400-odd repairs tried: 22 s for deepseek/beta-strict
/// in the release build (trial 65 D1). The largest corpus tool holds 231 values with a depth
/// sum of 1,114, so any of its repairs fits thousands of times over.
pub const CANDIDATE_WORK: usize = 10_000_000;

/// Repairs tried whatever the tool's size (the best ranked).
pub const MIN_CANDIDATES: usize = 64;

/// How many of the best-ranked repairs of a tool whose schema's depth sum is `size`
/// ([`crate::json::depth_sum`]) [`repair_until_accepted`] tries: as many as
/// [`CANDIDATE_WORK`] allows, at least [`MIN_CANDIDATES`].
pub fn candidate_cap(size: usize) -> usize {
    (CANDIDATE_WORK / size.max(1)).max(MIN_CANDIDATES)
}

/// The first [`candidate_cap`] of the repairs `ranked` (best first) of a tool of `size`
/// ([`crate::json::depth_sum`]), and what not answering the model with them means:
/// [`NotRepaired::Untried`] when some were left out.
pub(super) fn capped<T>(mut ranked: Vec<T>, size: usize) -> (Vec<T>, NotRepaired) {
    let (of, cap) = (ranked.len(), candidate_cap(size));
    if of <= cap {
        return (ranked, NotRepaired::NoRepair);
    }
    ranked.truncate(cap);
    (ranked, NotRepaired::Untried { tried: cap, of })
}

/// Why [`repair_until_accepted`] changed nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotRepaired {
    /// The model rejects the tool with every repair tried made: no repair answers it.
    NoRepair,
    /// The model rejects the tool with the first `tried` repairs made, of `of` that could
    /// answer it ([`candidate_cap`]): one of the others might.
    Untried { tried: usize, of: usize },
    /// The model accepts the tool with every repair made, but compile reached its cap of
    /// this many model calls before it knew which of them the model needs: keeping them all
    /// would keep repairs the model may not need (a guess), so none is kept.
    Cap(usize),
    /// The refusal reads as this rule of [`LEVEL_RULES`], and no repair that could be tried
    /// takes an object level away ([`keeps_levels`]): none was tried.
    Unanswerable(&'static str),
    /// The model accepts the tool sent alone, as it is: what it rejects is the tool beside
    /// the request's other tools, so no repair of the tool is one it needs.
    AcceptedAlone,
}

impl NotRepaired {
    /// Words to add after the model's error in the refusal: empty when no repair answers
    /// it, else that the cap was reached (so a repair exists, which a user can make).
    pub fn words(self) -> String {
        match self {
            NotRepaired::NoRepair => String::new(),
            NotRepaired::Untried { tried, of } => format!(
                " (compile tried the first {tried} of the {of} repairs that could answer it, \
                 those at the place the model names and the deepest first; one of the others \
                 may answer it: `toolwire repair --target` shows them)"
            ),
            NotRepaired::Unanswerable(rule) => format!(
                " (no repair answers this refusal: `{rule}` is not repairable, and no repair \
                 compile could make here takes an object level away, so it tried none; the \
                 change is yours to make)"
            ),
            NotRepaired::AcceptedAlone => " (the offline model accepts this tool sent alone: \
                 it rejects it only beside the request's other tools, so no repair of it is kept)"
                .to_string(),
            NotRepaired::Cap(n) => format!(
                " (compile reached its cap of {n} model calls for one tool before it knew \
                 which of its repairs the model needs: the model accepts the tool with all of \
                 them made, so a repair exists; `toolwire repair --target` shows them)"
            ),
        }
    }
}

/// Rules that count the object levels of a schema ([`crate::schema::depth`], the one measure
/// of `check` and of the offline models): a refusal read as one of them stands whatever
/// repairs are made, unless one takes an object level away ([`keeps_levels`]). None of them
/// is repairable (`depth-exceeded`: shrinking the nesting would change the arguments).
pub const LEVEL_RULES: &[&str] = &["depth-exceeded"];

/// Whether the repair of `f`, a keyword finding on `schema` (the tool's parameters), leaves
/// every object schema of `schema` in place: its keyword's value holds none (a `required`
/// list, `additionalProperties: false`, a `format`), or it is `keyword-unsupported`'s
/// `properties` or `items`, which that repair never drops (they declare the arguments
/// themselves). A `$ref` is not counted on: inlining keeps the levels as the measure reads
/// them, but that is the measure's reading, not this check's.
fn keeps_levels(schema: &Value, f: &crate::check::Finding) -> bool {
    let keyword = f.pointer.rsplit('/').next().unwrap_or("");
    if matches!(keyword, "$ref" | "$dynamicRef" | "$recursiveRef") {
        return false;
    }
    let Some(value) = schema.pointer(&f.pointer) else {
        return false;
    };
    (f.rule.as_str() == "keyword-unsupported"
        && (keyword == "properties" || (keyword == "items" && value.is_object())))
        || !holds_object_schema(value)
}

/// Whether `v` is or holds (at any depth) an object schema ([`crate::schema::is_object_schema`]):
/// data that looks like one (an `enum` member) counts too, which only keeps a search going.
fn holds_object_schema(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            crate::schema::is_object_schema(v) || m.values().any(holds_object_schema)
        }
        Value::Array(items) => items.iter().any(holds_object_schema),
        _ => false,
    }
}

/// Tries the repairs that could answer the model's rejection of `r`'s tool (its `message`,
/// at `pointer` when it names one): a rename (when the name breaks the rule every provider
/// takes or is longer than the message states, and no tool of `taken` has the new name),
/// and the repairs of the profile's keyword findings, those at or below `pointer` first,
/// then the deepest first (a repair of a keyword higher up, such as `properties`, would drop
/// the place the model rejects with everything around it).
///
/// All of them are made at once and the model asked about the tool alone: when it still rejects
/// it, no repair answers it; when it also accepts the tool alone with none made, the tool was
/// rejected beside others, and none is kept ([`NotRepaired::AcceptedAlone`]). Else the repairs
/// are pruned by delta debugging: runs of them (halves, then quarters...) are taken out, the
/// least preferred first, and left out when the model still accepts, down to single repairs, so
/// what is kept is what the model rejected, not a guess, and each one kept was needed. This
/// takes O(k log n) model calls for k repairs needed among n; trying them one at a time in
/// schema order spent a cap of 24 calls on keywords the model takes (`minLength` on 40
/// properties before one `uniqueItems`), and vLLM's one message for every xgrammar feature
/// names no place to start from (trial P #1). One tool may use two features the model rejects,
/// which no single repair answers (trial N: `uniqueItems` beside `patternProperties`). `note`
/// is added to each change kept (what the rejection rests on). At most [`candidate_cap`]
/// repairs are tried, the best ranked. Returns the place of the last repair kept; nothing is
/// changed when it returns an error. `schema_given` is the tool's parameters schema as given,
/// where compile keeps it ([`wire::apply`]). A rejection read as `rule`, one of
/// [`LEVEL_RULES`], where no repair takes an object level away, is not searched: a 100-level
/// chain's 300 repairs were tried up to the cap on their work, seconds for a refusal they could
/// not answer, which then said one of those untried might.
#[allow(clippy::too_many_arguments)]
pub fn repair_until_accepted(
    r: &mut ToolRepair,
    target: &str,
    form: wire::Form,
    profile: &CompiledProfile,
    opts: &repair::Options,
    message: &str,
    rule: Option<&str>,
    pointer: Option<&str>,
    taken: &[String],
    note: &str,
    schema_given: Option<&Value>,
) -> Result<String, NotRepaired> {
    let repairs = Repairs {
        target,
        form,
        profile,
        opts,
        message,
        taken,
        given: &r.name,
        schema_given,
    };
    // Borrowed, not copied: every trial is made from it, and it is left as it is until the
    // repairs kept are taken.
    let original = &r.tool;
    let findings = crate::check::check_tools(&[original.as_ref(0)], profile);
    let keyword_rules = super::RELATED[1];
    let mut ranked: Vec<&crate::check::Finding> = findings
        .iter()
        .filter(|f| keyword_rules.contains(&f.rule.as_str()))
        .collect();
    let under = |f: &crate::check::Finding| {
        pointer.is_some_and(|p| f.pointer == p || f.pointer.starts_with(&format!("{p}/")))
    };
    // The keywords the target's model itself lists as unsupported come first: vLLM's
    // message names none, and the keywords before them in the schema are mostly ones it takes.
    let listed = model_listed(target);
    let named = |f: &crate::check::Finding| {
        let keyword = f.pointer.rsplit('/').next().unwrap_or("");
        listed.contains(&keyword)
    };
    let counts_levels = LEVEL_RULES.iter().find(|l| Some(**l) == rule);
    if let (Some(&level_rule), Some(schema)) = (counts_levels, original.parameters.as_ref())
        && ranked.iter().all(|f| keeps_levels(schema, f))
    {
        return Err(NotRepaired::Unanswerable(level_rule));
    }
    ranked.sort_by_key(|f| (!named(f), !under(f), std::cmp::Reverse(depth(&f.pointer))));
    let size = original
        .parameters
        .as_ref()
        .map_or(1, crate::json::depth_sum);
    let (ranked, not_answered) = capped(ranked, size);
    let candidates: Vec<Step> = std::iter::once(Step::Rename)
        .chain(ranked.into_iter().map(|f| Step::Finding {
            pointer: f.pointer.clone(),
            rule: f.rule.as_str().to_string(),
            parameter: f.parameter.as_str().to_string(),
        }))
        .collect();
    let (mut all, made) = repairs.replay(original, &findings, &candidates);
    if made.is_empty() || rejected_alone(&mut all.tool, target) {
        return Err(not_answered);
    }
    // Not held while the repairs are pruned: each trial is made anew from `original`.
    drop(all);
    // Pruning never asks about the tool with no repair made, which a rejection naming the
    // tool for what it is beside others (a name two tools share) does not reject: the one
    // repair tried (a rename) was kept as if the model rejected the tool's name, and said so.
    if !rejected_alone(&mut r.tool, target) {
        return Err(NotRepaired::AcceptedAlone);
    }
    let original = &r.tool;
    let mut calls = 2;
    let mut accepts = |steps: &[Step]| -> Option<bool> {
        if calls >= MAX_CALLS {
            return None;
        }
        calls += 1;
        let (mut trial, _) = repairs.replay(original, &findings, steps);
        Some(!rejected_alone(&mut trial.tool, target))
    };
    let needed = prune(made, &mut accepts).ok_or(NotRepaired::Cap(MAX_CALLS))?;
    let (kept, needed) = repairs.replay(original, &findings, &needed);
    let last = match needed.last() {
        Some(Step::Finding { pointer, .. }) => pointer.clone(),
        _ => String::new(),
    };
    if needed.contains(&Step::Rename) {
        // A rename made before (repair's, for the profile's name rule) gave a name that is
        // not sent: the new rename's line goes from the name as given to the one sent, and is
        // the only one, so no one maps calls of a name never sent.
        r.changes
            .retain(|c| !(c.pointer.is_empty() && c.action.starts_with("renamed `")));
    }
    super::take_model_repair(r, kept.tool, kept.changes, note);
    Ok(last)
}

/// The keywords `target`'s offline model lists as ones it rejects, where it has such a list.
fn model_listed(target: &str) -> &'static [&'static str] {
    match target {
        "vllm/chat" | "sglang/chat" => crate::target::vllm::UNSUPPORTED,
        _ => &[],
    }
}

/// Cap on the model calls [`repair_until_accepted`] makes for one tool.
pub const MAX_CALLS: usize = 2 * MAX_TRIALS;

/// Delta debugging's pruning of `steps` (a set `accepts` takes; the empty set it does not):
/// runs of 1/n of them are taken out while `accepts` still takes the rest, n doubling when
/// none can be, until single steps are tried. Runs are tried from the end, the least
/// preferred steps first, so of two sets that both answer the rejection the preferred one
/// is kept. `None` when `accepts` answers `None` (its cap is reached).
fn prune(
    mut steps: Vec<Step>,
    accepts: &mut impl FnMut(&[Step]) -> Option<bool>,
) -> Option<Vec<Step>> {
    let mut n = 2;
    while steps.len() >= 2 {
        let run = steps.len().div_ceil(n);
        let starts: Vec<usize> = (0..steps.len()).step_by(run).collect();
        let mut smaller = false;
        for &s in starts.iter().rev() {
            let e = (s + run).min(steps.len());
            let without: Vec<Step> = steps[..s].iter().chain(&steps[e..]).cloned().collect();
            if accepts(&without)? {
                steps = without;
                n = (n - 1).max(2);
                smaller = true;
                break;
            }
        }
        if !smaller {
            if n >= steps.len() {
                break;
            }
            n = (2 * n).min(steps.len());
        }
    }
    Some(steps)
}

/// The name a rename of `t` to fit [`fallback_name_rule`] would give it when that name is one
/// of `taken` and the model accepts `t` under it: the rename would answer the rejection but
/// send two tools under one name, which is why `t` is refused.
pub fn clashing_rename(t: &Tool, target: &str, message: &str, taken: &[String]) -> Option<String> {
    let name = t.name.as_deref()?;
    let new = fallback_name_rule(target, message, name).sanitize(name);
    if new == name || !taken.contains(&new) {
        return None;
    }
    let mut renamed = t.clone();
    renamed.name = Some(new.clone());
    (!rejected_alone(&mut renamed, target)).then_some(new)
}

/// A rename of `t` (named `given` in the input) to fit [`fallback_name_rule`], unless its
/// name fits or the new name is one of `taken`.
fn rename(t: &Tool, given: &str, target: &str, message: &str, taken: &[String]) -> Option<Trial> {
    let name = t.name.as_deref()?;
    let rule = fallback_name_rule(target, message, name);
    let new = rule.sanitize(name);
    if new == name || taken.contains(&new) {
        return None;
    }
    // The line names the name as given (the user maps calls back to it), whatever name the
    // tool had on the way.
    let name = if given.is_empty() { name } else { given };
    let rule_id = if name.chars().count() > rule.max_len {
        "name-too-long"
    } else {
        "name-invalid"
    };
    let mut tool = t.clone();
    tool.name = Some(new.clone());
    Some(Trial::new(
        tool,
        vec![Change {
            pointer: String::new(),
            rule: rule_id.into(),
            action: format!(
                "renamed `{name}` to `{new}` (map the provider's calls of `{new}` back to `{name}`)"
            ),
            emptied: false,
            lost: None,
        }],
    ))
}
