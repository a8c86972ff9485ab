//! `ref-unsupported`: a local `$ref` (plain, recursive, self-referencing, or with siblings),
//! or the `$defs`/`definitions` it points into. A dangling one is `ref-dangling`'s.

use super::*;
use crate::check::Level;
use crate::schema::refs;
use serde_json::Value;

pub const RULE: Rule = Rule {
    id: "ref-unsupported",
    checks: "A local `$ref` (`#/...`), told apart by form: plain (`local $defs`), recursive \
             (the target refers back to itself through its subschemas, directly or via other \
             references), a self-reference (a \
             chain of bare `$ref`s that never reaches a schema), a chain of more than 64 \
             `$ref`s in a row or nested in each other's targets (`chain too long`: toolwire \
             follows no further), with sibling \
             keywords (any, and apart from that a `type`, a `title`, a `default` or any other \
             keyword but `description` beside it, which some targets tell from a \
             `description`; the `$defs`/`definitions` beside a root `$ref` are no such \
             keyword); and the `$defs`/`definitions` containers. One that resolves to nothing is `ref-dangling`'s.",
    features: "`keyword-allowed: $ref (local $defs)`, `$ref (recursive)`, `$ref (self-reference)`, `$ref (chain too long)`, `$ref (with siblings)`, `$ref (with type)`, `$ref (with title)`, `$ref (with default)`, `$ref (with other keywords)`, `keyword-allowed: $defs`, `keyword-allowed: definitions`",
    example: r##"{"type": "object", "properties": {"city": {"$ref": "#/$defs/City"}}, "$defs": {"City": {"type": "string"}}}"##,
    example_target: None,
    fix: "Inline the referenced schema where it is used (recursive schemas cannot be inlined: flatten them by hand or take a JSON string).",
    repair: "partly: a `type`, `title`, `default` or other keyword (but `description`) beside a `$ref` is dropped, and what it narrowed reported lost (a `type` its target declares too loses nothing); plain local references are inlined (with a cycle guard, a size cap, a nesting cap and at most 64 references followed in a row or nested); recursive, self-referencing and too-long ones cannot be",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::REF | when::DEFS,
        ..Hooks::NONE
    },
};

/// The siblings of `$ref` told apart by kind, each with its `$ref` form: a target may allow one
/// sibling and not another (Gemini's JSON-Schema field allows `description` and `default`
/// only, anomalyco/opencode#12295). Any sibling, these included, is also `$ref (with siblings)`.
pub const SIBLING_FORMS: [(&str, &str); 3] = [
    ("type", value::REF_WITH_TYPE),
    ("title", value::REF_WITH_TITLE),
    ("default", value::REF_WITH_DEFAULT),
];

/// The siblings beside a `$ref` in `map` that [`SIBLING_FORMS`] does not name: those
/// `$ref (with other keywords)` is about, in the schema's order. Not `description` (the
/// `$ref (with siblings)` case has one), nor the `$defs`/`definitions` a root `$ref` points
/// into: they hold schemas, say nothing of the node's value, and Gemini's JSON-Schema field
/// took a root `$ref` beside `$defs` (NousResearch/hermes-agent#98928).
pub fn other_siblings(map: &serde_json::Map<String, Value>) -> impl Iterator<Item = &str> {
    map.keys().map(String::as_str).filter(|k| {
        !matches!(*k, "$ref" | "description" | "$defs" | "definitions")
            && !SIBLING_FORMS.iter().any(|(s, _)| s == k)
    })
}

/// The sibling keyword a `$ref` form is about (`with type` → `type`), if it is one of
/// [`SIBLING_FORMS`].
pub fn sibling_of(form: &str) -> Option<&'static str> {
    SIBLING_FORMS
        .iter()
        .find(|(_, f)| *f == form)
        .map(|(k, _)| *k)
}

/// Whether `form` (of `$ref`) is one whose repair drops siblings beside the reference instead
/// of inlining it: a form of [`SIBLING_FORMS`], or `with other keywords`.
pub fn drops_siblings(form: &str) -> bool {
    sibling_of(form).is_some() || form == value::REF_WITH_OTHER
}

/// A plain reference (or one with siblings) and the containers are repaired by inlining the
/// whole schema, which repair refuses for some schemas whose every reference is plain (a chain
/// past the hop limit further on, a `$ref` "bomb" past the expansion cap): repair's own
/// decision ([`crate::repair::refs::refusal`]) says which, so that check's "(repairable)"
/// and fix text agree with it.
fn repairable(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    // `repair::fixes::keywords` drops that sibling, which needs no inlining; but where the
    // profile refuses the `$ref` itself, repair also inlines the schema, and a refusal to
    // inline it refuses the whole tool, this sibling's drop with it.
    if matches!(f, Feat::KeywordForm("$ref", v) if drops_siblings(v)) {
        let ref_rejected = [Placement::Nested, Placement::Root].into_iter().any(|p| {
            matches!(
                r.profile
                    .lookup(&Feat::KeywordForm("$ref", value::REF_LOCAL), p),
                crate::profile::compiled::Slot::Rejected(_)
            )
        });
        return r.root.is_some() && !(ref_rejected && (r.inline_refused)());
    }
    let inlined_by_repair = matches!(f, Feat::KeywordForm("$ref", v) if *v == value::REF_LOCAL || *v == value::WITH_SIBLINGS)
        || matches!(f, Feat::Keyword(_));
    inlined_by_repair && r.root.is_some() && !(r.inline_refused)()
}

/// The fix for the reference (or container) at `own` that repair would inline were it not
/// refused: repair's own reason, said of `own`. The refusal is the whole schema's (repair
/// inlines every reference or none), so one at another `$ref` is named as that one's, with
/// that one to fix first, not quoted as if it were this one's.
fn refused_fix(refusal: &InlineRefusal<'_>, own: &str) -> Option<String> {
    let r = refusal.get()?;
    Some(if !r.reference || r.pointer == own {
        let text = crate::repair::refs::refusal_text(r);
        format!(
            "`toolwire repair` cannot inline it: {text}. {}",
            r.cause.advice()
        )
    } else {
        // Which place is refused, because of which other one, that one's reason as its own,
        // then what to do: the reason said first read as this place's.
        let this = if own.ends_with("/$ref") {
            "this `$ref`"
        } else {
            "the `$ref`s to these definitions"
        };
        format!(
            "`toolwire repair` cannot inline {this} because of the `$ref` at {}: it inlines \
             all of a schema's `$ref`s or none, and cannot inline that one ({}). Fix that one \
             first (its own finding says how).",
            r.place(),
            r.reason
        )
    })
}

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::Keyword, v) if matches!(v.as_str(), "$ref" | "$defs" | "definitions"))
        || keyword_form_of(p, "$ref").is_some_and(|f| f != value::REF_REMOTE)
}

/// Subschemas of a target scanned for a reference back to it.
const MAX_SCAN: usize = 10_000;

/// The target of `reference` written in the schema at `from`, and its pointer.
fn target<'v>(root: &'v Value, from: &str, reference: &str) -> Option<(&'v Value, String)> {
    match refs::step_from(root, from, reference) {
        refs::Step::Local(v, pointer) => Some((v, pointer)),
        refs::Step::Remote
        | refs::Step::Missing
        | refs::Step::Ambiguous(_)
        | refs::Step::Unsearched(_) => None,
    }
}

/// How a resolvable local reference behaves: `self-reference` when following bare `$ref`s
/// loops without reaching a schema, `chain too long` when it takes more than
/// [`refs::MAX_REF_HOPS`] hops ([`refs::follow`]) or when references nest, each in the
/// target of the one before, more than that deep (where inlining stops), `recursive` when the
/// target contains a reference back to itself (or to a schema around it), otherwise
/// `local $defs`.
pub fn form(root: &Value, reference: &str, here: &str) -> Option<&'static str> {
    form_in(root, reference, here, &mut Scans::default())
}

/// [`form`], reusing what `scans` (made for this same `root`) already found: a schema with
/// many references to one target asks about that target once, not once per reference.
pub fn form_in<'v>(
    root: &'v Value,
    reference: &str,
    here: &str,
    scans: &mut Scans<'v>,
) -> Option<&'static str> {
    target(root, here, reference)?;
    let (node, ptr) = match refs::follow_from(root, here, reference) {
        refs::Chain::Reaches {
            schema, pointer, ..
        } => (schema, pointer),
        // Dangling further on: the reference written here is plain.
        refs::Chain::Stops { .. } => return Some(value::REF_LOCAL),
        refs::Chain::Cycle(_) => return Some(value::REF_SELF),
        refs::Chain::TooLong => return Some(value::REF_CHAIN_TOO_LONG),
    };
    if crate::schema::at_or_inside(here, &ptr) {
        return Some(value::REF_RECURSIVE);
    }
    // The chain's value lives no longer than `reference`; `scans` keeps values as long as
    // `root`, so the target is found again there by its pointer.
    let (looped, too_deep) = match crate::json::at_pointer(root, &ptr) {
        Some(kept) if std::ptr::eq(kept, node) => {
            let id = scans.intern(kept, ptr);
            scans.outcome(root, id)
        }
        _ => {
            let mut once = Scans::default();
            let id = once.intern(node, ptr);
            once.outcome(root, id)
        }
    };
    // Does anything inside the target refer, directly or through other references (a → b →
    // a), to the target or to a schema around it? Then inlining never ends, which is why
    // `repair` refuses it.
    if looped {
        return Some(value::REF_RECURSIVE);
    }
    // References nested each in the target of the one before, past the limit: inlining
    // stops there (`repair::refs`), so the chain is too long, not plain.
    Some(if too_deep {
        value::REF_CHAIN_TOO_LONG
    } else {
        value::REF_LOCAL
    })
}

#[cfg(test)]
thread_local! {
    /// Values [`Scans`] has read, so tests can tell that the work stays bounded by the
    /// schema's size however many references it has (tests never time things).
    static SCANNED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// What one target's subschemas hold, read once: how many values they are (capped just past
/// [`MAX_SCAN`], which no search can afford) and, in the order a search meets them, the
/// targets of the local references among them.
struct Scan {
    size: usize,
    inner: Vec<u32>,
}

/// One schema's reference targets and what searching them found, so that each is scanned
/// once per schema: with one search per `$ref`, 10,000 references to one large definition
/// cost 10,000 scans of it (refs × [`MAX_SCAN`]).
#[derive(Default)]
pub struct Scans<'v> {
    /// Each target met: its value and decoded JSON Pointer, by id.
    targets: Vec<(&'v Value, String)>,
    ids: std::collections::HashMap<String, u32>,
    /// By id, once read.
    scans: Vec<Option<Scan>>,
    /// By id, once searched: whether it loops back, and whether the search went too deep.
    outcomes: Vec<Option<(bool, bool)>>,
}

impl<'v> Scans<'v> {
    /// The id of the target at `pointer` (`node`), new or as met before.
    fn intern(&mut self, node: &'v Value, pointer: String) -> u32 {
        if let Some(id) = self.ids.get(&pointer) {
            return *id;
        }
        // More targets than `u32` holds would need a schema of billions of values.
        let id = u32::try_from(self.targets.len()).unwrap_or(u32::MAX);
        self.ids.insert(pointer.clone(), id);
        self.targets.push((node, pointer));
        self.scans.push(None);
        self.outcomes.push(None);
        id
    }

    /// Whether a reference to target `id` loops back, and whether its search went too deep
    /// ([`Self::loops_back`] from a budget of [`MAX_SCAN`]); searched once per target, as
    /// the result depends on nothing else.
    fn outcome(&mut self, root: &'v Value, id: u32) -> (bool, bool) {
        if let Some(o) = self.outcomes[id as usize] {
            return o;
        }
        let mut path = vec![id];
        let mut explored = std::collections::HashSet::new();
        let mut budget = MAX_SCAN;
        let mut too_deep = false;
        let looped = self.loops_back(root, &mut path, &mut explored, &mut budget, &mut too_deep);
        self.outcomes[id as usize] = Some((looped, too_deep));
        (looped, too_deep)
    }

    /// Reads target `id` once: its values up to one past [`MAX_SCAN`], and the targets of
    /// the local references among them.
    fn scan(&mut self, root: &'v Value, id: u32) {
        if self.scans[id as usize].is_some() {
            return;
        }
        let (node, ptr) = &self.targets[id as usize];
        let node: &'v Value = node;
        // Each reference with the place of the schema holding it: a reference is read in the
        // resource around it (an `$id` inside the target changes what `#/...` names).
        let mut inner: Vec<(String, &'v str)> = Vec::new();
        let mut stack = vec![(node, ptr.clone())];
        let mut size = 0;
        while let Some((v, at)) = stack.pop() {
            if size > MAX_SCAN {
                // No search has budget for it: which references it holds never matters.
                inner.clear();
                break;
            }
            size += 1;
            match v {
                Value::Object(m) => {
                    if let Some(r) = m.get("$ref").and_then(Value::as_str) {
                        inner.push((at.clone(), r));
                    }
                    stack.extend(m.iter().map(|(k, x)| (x, crate::json::push_token(&at, k))));
                }
                Value::Array(a) => stack.extend(
                    a.iter()
                        .enumerate()
                        .map(|(i, x)| (x, crate::json::push_token(&at, &i.to_string()))),
                ),
                _ => {}
            }
        }
        #[cfg(test)]
        SCANNED.with(|c| c.set(c.get() + size));
        let inner = inner
            .into_iter()
            .filter_map(|(from, r)| target(root, &from, r))
            .map(|(next, p)| self.intern(next, p))
            .collect();
        self.scans[id as usize] = Some(Scan { size, inner });
    }

    /// Whether a `$ref` inside the target of the last reference on `path`, or inside what
    /// such references reach in turn, points at a schema on `path` or around one. `path`
    /// holds the ids of the targets being expanded; `explored` the targets already searched
    /// (each is searched once); at most `budget` values are scanned in all (a target larger
    /// than what is left uses it up unsearched) and at most [`refs::MAX_REF_HOPS`] references
    /// followed nested in one another, beyond which the search stops and sets `too_deep` (a
    /// loop found elsewhere still counts).
    fn loops_back(
        &mut self,
        root: &'v Value,
        path: &mut Vec<u32>,
        explored: &mut std::collections::HashSet<u32>,
        budget: &mut usize,
        too_deep: &mut bool,
    ) -> bool {
        let Some(&id) = path.last() else {
            return false;
        };
        self.scan(root, id);
        let Some(scan) = &self.scans[id as usize] else {
            return false;
        };
        if scan.size > *budget {
            *budget = 0;
            return false;
        }
        *budget -= scan.size;
        // Cloned out of `self`, which the searches below extend.
        let inner = scan.inner.clone();
        for next in inner {
            let p = &self.targets[next as usize].1;
            if path
                .iter()
                .any(|q| crate::schema::at_or_inside(&self.targets[*q as usize].1, p))
            {
                return true;
            }
            if path.len() >= refs::MAX_REF_HOPS {
                *too_deep = true;
                continue;
            }
            if !explored.insert(next) {
                continue;
            }
            path.push(next);
            let found = self.loops_back(root, path, explored, budget, too_deep);
            path.pop();
            if found {
                return true;
            }
        }
        false
    }
}

/// What a `$ref` to `text` whose chain loops is, in words ([`refs::cycle`], as every command
/// words it), with the form's name. Only a definition that refers to itself is called a
/// self-reference; a cycle through several (A → B → A) is called a cycle, with its size, and
/// is judged by the same case (it never reaches a schema either).
fn cycle_message(root: &Value, here: &str, text: &str) -> String {
    match refs::follow_from(root, here, text) {
        // `c` lists the cycle's members with the first repeated at its end.
        refs::Chain::Cycle(c) if c.len() > 2 => format!(
            "{} (a cycle of {} definitions, judged by the `$ref (self-reference)` case)",
            refs::cycle(text, &c),
            c.len() - 1
        ),
        refs::Chain::Cycle(c) => format!("{} (self-reference)", refs::cycle(text, &c)),
        _ => format!("`$ref` to `{text}` (self-reference)"),
    }
}

/// Sibling forms whose findings say the same: what they say (`None`: not refused, or collect
/// mode), the first form, and the siblings of every form in backticks.
struct Group {
    said: Option<(Level, String)>,
    form: &'static str,
    named: Vec<String>,
}

/// The `$ref (with …)` forms of a node beside whose `$ref` there are siblings: one per
/// sibling form ([`SIBLING_FORMS`], then `with other keywords`), except that the forms the
/// profile refuses on the same evidence (level and sentence) are one group naming every
/// sibling, under the first form's feature: SARIF and GitHub show one annotation per finding,
/// and two at one `$ref` saying the same would read as two problems. Forms refused on other
/// evidence keep groups of their own, so each sibling's evidence is shown.
fn sibling_groups(cx: &Cx<'_, '_>, n: &Node<'_>) -> Vec<Group> {
    let Some(map) = n.map else { return Vec::new() };
    let mut forms: Vec<(&'static str, String)> = SIBLING_FORMS
        .iter()
        .filter(|(s, _)| map.contains_key(*s))
        .map(|(s, f)| (*f, format!("`{s}`")))
        .collect();
    let others: Vec<String> = other_siblings(map).map(|k| format!("`{k}`")).collect();
    if !others.is_empty() {
        forms.push((value::REF_WITH_OTHER, others.join(", ")));
    }
    // Forms grouped by what their findings would say; in collect mode, each its own group.
    let mut groups: Vec<Group> = Vec::new();
    for (form, named) in forms {
        let said = cx.judged(&Feat::KeywordForm("$ref", form), n.placement);
        let joined = match &said {
            Some(Some(s)) => groups.iter_mut().find(|g| g.said.as_ref() == Some(s)),
            _ => None,
        };
        match joined {
            Some(g) => g.named.push(named),
            None => groups.push(Group {
                said: said.flatten(),
                form,
                named: vec![named],
            }),
        }
    }
    groups
}

/// The findings of sibling `groups` ([`sibling_groups`]) not joined to the reference's, less
/// those refused on `said_all`, the evidence of a part already naming every sibling
/// ([`beside`]): said again they would list the siblings twice, in another order (trial 50
/// D10: "`$ref` next to `properties`, `required`, `description`, `type` and `$ref` next to
/// `type`, `properties`, `required`").
fn siblings(
    cx: &mut Cx<'_, '_>,
    n: &Node<'_>,
    groups: Vec<Group>,
    parts: &mut Vec<Part>,
    said_all: Option<(Level, String)>,
) {
    let all = beside(n);
    let named_before = |g: &Group| {
        g.named
            .iter()
            .flat_map(|named| named.split(", "))
            .all(|k| all.split(", ").any(|a| a == k))
    };
    for g in groups {
        if said_all.is_some() && g.said == said_all && named_before(&g) {
            continue;
        }
        let named = g.named.join(", ");
        part(
            cx,
            n,
            parts,
            g.form,
            || format!("`$ref` next to {named}"),
            || Some(remove_fix(&named)),
        );
    }
}

/// What one `$ref (…)` form refused at a `$ref` would say as a finding of its own: the forms
/// refused at one `$ref` are said as one finding ([`one_finding`]).
struct Part {
    form: &'static str,
    level: Level,
    sentence: String,
    what: String,
    fix: Option<String>,
}

/// Records the form `form` at the `$ref` of `n` when the profile refuses it (nothing when it
/// allows it). Collect mode records every feature as it is, so there it is reported at once.
fn part(
    cx: &mut Cx<'_, '_>,
    n: &Node<'_>,
    parts: &mut Vec<Part>,
    form: &'static str,
    what: impl FnOnce() -> String,
    fix: impl FnOnce() -> Option<String>,
) {
    let feat = Feat::KeywordForm("$ref", form);
    match cx.judged(&feat, n.placement) {
        None => cx.feature_with_fix(At::Key(n.frame, "$ref"), feat, n.placement, what, fix),
        Some(None) => {}
        Some(Some((level, sentence))) => parts.push(Part {
            form,
            level,
            sentence,
            what: what(),
            fix: fix(),
        }),
    }
}

/// One finding at the `$ref` of `n` for every form refused there: SARIF and GitHub show one
/// annotation per finding, and two at one `$ref` (a plain reference with no evidence, and the
/// keywords beside it rejected by a report) would read as two problems. It is the worst
/// form's (an error before a warning, then the first), which decides its level, parameter and
/// cited evidence; each other form's words and evidence sentence (which target, what kind,
/// what date) are quoted in its message, so no piece of evidence is lost.
fn one_finding(cx: &mut Cx<'_, '_>, n: &Node<'_>, mut parts: Vec<Part>) {
    let Some(worst) = parts.iter().map(|p| p.level).max() else {
        return;
    };
    let host = parts.iter().position(|p| p.level == worst).unwrap_or(0);
    // The other forms' words each with its own sentence, then the forms said on the host's
    // sentence, which the rendered finding appends last.
    // A warning and an error can have the same sentence (a case citing no evidence): only
    // the same level and sentence are said once.
    let same = |p: &Part| p.level == parts[host].level && p.sentence == parts[host].sentence;
    let mut what = String::new();
    for (i, p) in parts.iter().enumerate().filter(|(_, p)| !same(p)) {
        // `$ref (with siblings)` and the one sibling form it names can say the same words
        // on the same evidence: said once.
        let said_before = parts[..i]
            .iter()
            .any(|q| q.what == p.what && q.sentence == p.sentence && q.level == p.level);
        if !said_before {
            what.push_str(&format!("{}: {}; ", p.what, p.sentence));
        }
    }
    // Two forms can say the same words (`$ref (with siblings)` and the sibling form it
    // names): each said once.
    let mut said: Vec<&str> = Vec::new();
    for p in parts.iter().filter(|p| same(p)) {
        if !said.contains(&p.what.as_str()) {
            said.push(&p.what);
        }
    }
    what.push_str(&said.join(" and "));
    // The host's fix, or (`None`) the rule's: inlining, which removes every sibling too.
    let host = parts.swap_remove(host);
    let fix = host.fix;
    cx.feature_with_fix(
        At::Key(n.frame, "$ref"),
        Feat::KeywordForm("$ref", host.form),
        n.placement,
        || what,
        || fix,
    );
}

/// Takes out of `groups` those rejected by the same targets as the reference's own finding
/// (about `host`, itself a rejection), which that finding says: the siblings' finding would stand at the same
/// place on the same targets, and its fix (remove the siblings) would leave the refused
/// `$ref`, while inlining (the reference's fix) removes both. Returns what the reference's
/// message adds for them: their siblings, and for each whose evidence is not the reference's, its siblings and
/// its sentence (`` (`type` beside a `$ref`: rejected by T (probe 2026-12-02)) ``), so each piece of
/// evidence is quoted.
fn join_siblings(
    cx: &Cx<'_, '_>,
    n: &Node<'_>,
    host: &'static str,
    groups: &mut Vec<Group>,
) -> (Vec<String>, String) {
    let feat = Feat::KeywordForm("$ref", host);
    let Some(targets) = cx.refusing_targets(&feat, n.placement) else {
        return (Vec::new(), String::new());
    };
    let own = cx.judged(&feat, n.placement).flatten();
    // Only rejections are joined: a form with no evidence keeps its own warning, which names
    // the case a probe would decide (and repair lists among those it leaves as written).
    let rejected = |said: Option<&(Level, String)>| said.is_some_and(|(l, _)| *l == Level::Error);
    if !rejected(own.as_ref()) {
        return (Vec::new(), String::new());
    }
    let mut added = String::new();
    let mut named = Vec::new();
    groups.retain(|g| {
        let same = rejected(g.said.as_ref())
            && cx
                .refusing_targets(&Feat::KeywordForm("$ref", g.form), n.placement)
                .is_some_and(|t| t == targets);
        if let Some((_, sentence)) = g.said.as_ref().filter(|s| same && Some(*s) != own.as_ref()) {
            added.push_str(&format!(
                " ({} beside a `$ref`: {sentence})",
                g.named.join(", ")
            ));
        }
        if same {
            named.extend(g.named.iter().cloned());
        }
        !same
    });
    (named, added)
}

/// Every key beside the node's `$ref` but the definitions it may point into, in backticks.
fn keys_beside(n: &Node<'_>) -> String {
    n.map.map_or_else(String::new, |m| {
        m.keys()
            .filter(|k| !matches!(k.as_str(), "$ref" | "$defs" | "definitions"))
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

/// Whether the finding of the plain reference (form `host`), which names siblings refused
/// beside it, also says `$ref (with siblings)`: so when both are rejections by the same
/// targets. Then the siblings' evidence is appended to `added` unless it is already quoted
/// there or is the reference's own, so each piece of evidence is still quoted once. When
/// different evidence decides the two (a report for the reference, an inferred doc for its
/// siblings), two findings at one `$ref` would read as two problems with one fix (inlining).
fn join_with_siblings(
    cx: &Cx<'_, '_>,
    n: &Node<'_>,
    host: &'static str,
    added: &mut String,
) -> bool {
    let own = Feat::KeywordForm("$ref", host);
    let sib = Feat::KeywordForm("$ref", value::WITH_SIBLINGS);
    let error = |f: &Feat<'_>| {
        cx.judged(f, n.placement)
            .flatten()
            .filter(|(l, _)| *l == Level::Error)
            .map(|(_, s)| s)
    };
    let (Some(own_said), Some(sib_said)) = (error(&own), error(&sib)) else {
        return false;
    };
    let targets = cx.refusing_targets(&own, n.placement);
    if targets.is_none() || cx.refusing_targets(&sib, n.placement) != targets {
        return false;
    }
    if sib_said != own_said && !added.contains(&format!(": {sib_said})")) {
        added.push_str(&format!(" (`$ref` next to other keywords: {sib_said})"));
    }
    true
}

/// The fix for siblings `named` (in backticks) beside a `$ref`: the siblings kept are those
/// targets that refuse others allow (Gemini's JSON-Schema field, anomalyco/opencode#12295),
/// `default` only when it is not among the refused.
fn remove_fix(named: &str) -> String {
    let keep = if named.contains("`default`") {
        "`description` may stay"
    } else {
        "`description` and `default` may stay"
    };
    format!("Remove {named} beside the `$ref` ({keep}), or inline the referenced schema.")
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if let Some(r) = n.reference {
        let text = r.as_str().unwrap_or("");
        let root = cx.root();
        let with_siblings = n.map.is_some_and(|m| m.len() > 1);
        // A plain local reference with siblings refused on the same evidence as the
        // `$ref (with siblings)` they make is one finding, under the siblings' case, which
        // says both: two at one `$ref` would read as two problems, and the fix of both is
        // the same inlining. `Some(words)`: the reference's own words, for that finding.
        let mut folded: Option<String> = None;
        // The reference's finding already names its refused siblings and quotes the
        // `$ref (with siblings)` evidence: no second finding at the same `$ref`.
        let mut siblings_said = false;
        // The forms refused at this `$ref`, said as one finding at the end.
        let mut parts = Vec::new();
        // The sibling forms' groups, those refused by the same targets as the reference then
        // taken into its finding.
        let mut groups = if with_siblings {
            sibling_groups(cx, n)
        } else {
            Vec::new()
        };
        let here = cx.pointer(At::Node(n.frame));
        if root
            .is_some_and(|root| !matches!(refs::step_from(root, &here, text), refs::Step::Remote))
            || !r.is_string()
        {
            let refusal = cx.inline_refusal();
            let own = cx.pointer(At::Key(n.frame, "$ref"));
            // A `$ref` that is no string refers to nothing (not to the document, as `""` does);
            // a reference to nothing is ref-dangling's.
            if let Some(f) = root
                .filter(|_| r.is_string())
                .and_then(|root| form_in(root, text, &here, cx.ref_scans()))
            {
                let said = |form| {
                    cx.judged(&Feat::KeywordForm("$ref", form), n.placement)
                        .flatten()
                };
                if with_siblings
                    && f == value::REF_LOCAL
                    && !beside(n).is_empty()
                    && said(f).is_some_and(|own| said(value::WITH_SIBLINGS) == Some(own))
                {
                    folded = Some(own_message(root, &here, text, f));
                } else {
                    // Siblings refused by the targets that refuse this plain reference: its
                    // finding names them (its fix, inlining, removes them too).
                    let (joined, mut added) = if with_siblings && f == value::REF_LOCAL {
                        join_siblings(cx, n, f, &mut groups)
                    } else {
                        (Vec::new(), String::new())
                    };
                    // Siblings the reference's finding does not name yet (`description`, of no
                    // kind of its own): named when it also says `$ref (with siblings)`.
                    let unnamed = if joined.is_empty() {
                        keys_beside(n)
                    } else {
                        String::new()
                    };
                    if !joined.is_empty() || !unnamed.is_empty() {
                        siblings_said = join_with_siblings(cx, n, f, &mut added);
                    }
                    part(
                        cx,
                        n,
                        &mut parts,
                        f,
                        || {
                            let words = own_message(root, &here, text, f);
                            if joined.is_empty() && siblings_said {
                                format!("{words}, next to {unnamed}{added}")
                            } else if joined.is_empty() {
                                words
                            } else {
                                format!("{words}, next to {}{added}", joined.join(", "))
                            }
                        },
                        || {
                            (f == value::REF_LOCAL)
                                .then(|| refused_fix(&refusal, &own))
                                .flatten()
                        },
                    );
                }
            }
        }
        if with_siblings && !siblings_said {
            let refusal = cx.inline_refusal();
            let own = cx.pointer(At::Key(n.frame, "$ref"));
            // The plain reference said here: sibling forms refused by the same targets are
            // said here too, with their evidence where it differs.
            let added = match folded {
                Some(_) => join_siblings(cx, n, value::WITH_SIBLINGS, &mut groups).1,
                None => String::new(),
            };
            part(
                cx,
                n,
                &mut parts,
                value::WITH_SIBLINGS,
                || match folded {
                    Some(words) => format!("{words}, next to {}{added}", beside(n)),
                    // Named, so that said beside the reference's own words it is clear
                    // which keywords are meant.
                    None if beside(n).is_empty() => "`$ref` next to other keywords".into(),
                    None => format!("`$ref` next to {}", beside(n)),
                },
                || refused_fix(&refusal, &own),
            );
        }
        // The evidence of the part naming every sibling, when there is one.
        let said_all = parts
            .last()
            .filter(|p| p.form == value::WITH_SIBLINGS)
            .map(|p| (p.level, p.sentence.clone()));
        if with_siblings {
            siblings(cx, n, groups, &mut parts, said_all);
        }
        one_finding(cx, n, parts);
    }
    // The containers sit at the root but serve references below it, so the catalog files
    // them under `nested` (as property-named-keyword does with the root's `properties`).
    let placement = n.members_placement();
    for (has, kw) in [(n.defs, "$defs"), (n.definitions, "definitions")] {
        if has {
            let refusal = cx.inline_refusal();
            let own = cx.pointer(At::Key(n.frame, kw));
            cx.feature_with_fix(
                At::Key(n.frame, kw),
                Feat::Keyword(kw),
                placement,
                || format!("`{kw}` (definitions for `$ref`)"),
                || refused_fix(&refusal, &own),
            );
        }
    }
}

/// The words for a `$ref` to `text` of form `f` in `root`, before the evidence sentence.
fn own_message(root: Option<&Value>, here: &str, text: &str, f: &str) -> String {
    match root {
        Some(root) if f == value::REF_SELF => cycle_message(root, here, text),
        Some(root) if f == value::REF_CHAIN_TOO_LONG => match refs::follow_from(root, here, text) {
            refs::Chain::TooLong => refs::too_long(text),
            _ => refs::too_long_nested(text),
        },
        // The case is named for `$defs`; a local pointer elsewhere
        // (`#/properties/to/items`) is judged by it but is no definition.
        _ if f == value::REF_LOCAL
            && !["#/$defs/", "#/definitions/"]
                .iter()
                .any(|d| text.starts_with(d)) =>
        {
            format!(
                "`$ref` to `{text}` (a local reference, judged by the \
                 `$ref ({f})` case)"
            )
        }
        _ => format!("`$ref` to `{text}` ({f})"),
    }
}

/// The keywords beside the `$ref` of `n`, in backticks (`` `description`, `minLength` ``),
/// but for the `$defs` or `definitions` a root `$ref` points into: they hold schemas, and the
/// reference's own case (`keywords/ref-defs-root`) has them.
fn beside(n: &Node<'_>) -> String {
    let named: Vec<String> = n
        .map
        .into_iter()
        .flat_map(|m| m.keys())
        .filter(|k| !matches!(k.as_str(), "$ref" | "$defs" | "definitions"))
        .map(|k| format!("`{k}`"))
        .collect();
    named.join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    /// Where the profile does not reject `allOf`, repair keeps a sibling its `$ref`'s target
    /// sets differently as `allOf: [target, siblings]`: check calls the finding repairable
    /// and gives no "cannot inline" fix (before: it asked repair's refusal without the
    /// profile, which always refuses on such a clash, while repair wrote the `allOf`).
    #[test]
    fn a_clash_beside_a_reference_is_repairable_where_allof_is_allowed() {
        use crate::profile::Status::{Allowed, Rejected};
        let s = json!({"type":"object","properties":{"x":{"$ref":"#/$defs/X","type":"integer"}},
            "$defs":{"X":{"type":"string"}}});
        let under = |all_of| {
            let p = nested_profile(
                "t",
                &[
                    ("keyword-allowed: $ref (local $defs)", Rejected),
                    ("keyword-allowed: $ref (with siblings)", Rejected),
                    ("keyword-allowed: $ref (with type)", Allowed),
                    ("keyword-allowed: $defs", Rejected),
                    ("keyword-allowed: allOf", all_of),
                ],
            );
            check_under(&p, &s)
                .into_iter()
                .filter(|f| f.pointer == "/properties/x/$ref")
                .map(|f| (f.repairable, f.fix.to_string()))
                .collect::<Vec<_>>()
        };
        let kept = under(Allowed);
        assert!(!kept.is_empty() && kept.iter().all(|(r, _)| *r), "{kept:?}");
        assert!(
            kept.iter().all(|(_, fix)| !fix.contains("cannot inline")),
            "{kept:?}"
        );
        let refused = under(Rejected);
        assert!(
            !refused.is_empty()
                && refused
                    .iter()
                    .all(|(r, fix)| !*r && fix.contains("cannot inline")),
            "{refused:?}"
        );
    }

    /// The fix at `$defs` names the `$ref` that keeps repair from inlining where it is written
    /// (a user's cyc.json: `/properties/n/properties/next/$ref`, which only the expanded copy
    /// has), with the `$ref` it was reached through after it, as repair says it.
    #[test]
    fn the_fix_names_the_refused_ref_as_written() {
        use crate::profile::Status::Rejected;
        let s = json!({"type":"object","properties":{"n":{"$ref":"#/$defs/node"}},
            "$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}}});
        let p = nested_profile(
            "t",
            &[
                ("keyword-allowed: $ref (recursive)", Rejected),
                ("keyword-allowed: $defs", Rejected),
            ],
        );
        let fix = check_under(&p, &s)
            .into_iter()
            .find(|f| f.pointer == "/$defs")
            .map(|f| f.fix.to_string())
            .unwrap();
        assert!(
            fix.contains(
                "because of the `$ref` at /$defs/node/properties/next/$ref, reached through \
                 /properties/n:"
            ),
            "{fix}"
        );
    }

    /// A `$ref` with siblings refused on the same evidence as the reference itself is one
    /// finding naming the siblings (before: a second finding, "`$ref` next to other
    /// keywords", at the same place with the same fix); on other evidence, two.
    #[test]
    fn siblings_refused_with_the_reference_are_one_finding() {
        use crate::profile::Status::{Allowed, Rejected, Unknown};
        let s = json!({"type":"object","$defs":{"B":{"type":"string"}},
            "properties":{"b":{"$ref":"#/$defs/B","description":"The b.","minLength":1}}});
        let at_ref = |p: &crate::profile::CompiledProfile| -> Vec<String> {
            check_under(p, &s)
                .into_iter()
                .filter(|f| f.rule == "ref-unsupported" && f.pointer == "/properties/b/$ref")
                .map(|f| f.message.to_string())
                .collect()
        };
        let both = |local, siblings| {
            nested_profile(
                "t",
                &[
                    ("keyword-allowed: $ref (local $defs)", local),
                    ("keyword-allowed: $ref (with siblings)", siblings),
                    ("keyword-allowed: $ref (with other keywords)", Allowed),
                    ("keyword-allowed: $defs", Allowed),
                ],
            )
        };
        let one = at_ref(&both(Rejected, Rejected));
        assert_eq!(one.len(), 1, "{one:?}");
        // Under the siblings' case: the case of a `$ref` with siblings is flagged as itself.
        let parameters: Vec<String> = check_under(&both(Rejected, Rejected), &s)
            .into_iter()
            .filter(|f| f.rule == "ref-unsupported" && f.pointer == "/properties/b/$ref")
            .map(|f| f.parameter.to_string())
            .collect();
        assert_eq!(parameters, ["keyword-allowed: $ref (with siblings)"]);
        assert!(
            one[0].starts_with(
                "`$ref` to `#/$defs/B` (local $defs), next to `description`, `minLength`"
            ),
            "{one:?}"
        );
        let own = at_ref(&both(Rejected, Allowed));
        assert_eq!(own.len(), 1, "{own:?}");
        assert!(!own[0].contains("next to"), "{own:?}");
        // Decided apart (a rejection, no evidence): still one finding, quoting each.
        let apart = at_ref(&both(Rejected, Unknown));
        assert_eq!(apart.len(), 1, "{apart:?}");
        assert!(
            apart[0].starts_with("`$ref` next to `description`, `minLength`: ")
                && apart[0].contains("; `$ref` to `#/$defs/B` (local $defs): "),
            "{apart:?}"
        );
        let siblings_only = at_ref(&both(Allowed, Rejected));
        assert_eq!(siblings_only.len(), 1, "{siblings_only:?}");
        assert!(siblings_only[0].starts_with("`$ref` next to `description`, `minLength`"));
        // Collecting records both features: the evidence derivation sees each.
        let found = seen("ref-unsupported", s.clone());
        for form in ["local $defs", "with siblings"] {
            let parameter = format!("keyword-allowed: $ref ({form})");
            assert!(
                found
                    .iter()
                    .any(|(p, f)| p == "/properties/b/$ref" && *f == parameter),
                "{found:?}"
            );
        }
    }

    /// A profile of nested features each rejected by the targets given, on evidence dated
    /// as given (`(parameter, [(target, date)])`; no targets: allowed).
    fn cited_profile(features: &[(&str, &[(&str, &str)])]) -> crate::profile::CompiledProfile {
        use crate::evidence::EvidenceKind;
        use crate::profile::{Cited, FeatureEntry, Profile, Status, TargetEvidence};
        let mut targets: Vec<String> = features
            .iter()
            .flat_map(|(_, by)| by.iter().map(|(t, _)| t.to_string()))
            .collect();
        targets.sort();
        targets.dedup();
        crate::profile::CompiledProfile::new(&Profile {
            name: "test".into(),
            targets,
            control: Status::Allowed,
            features: features
                .iter()
                .map(|&(parameter, by)| {
                    let cited = |date: &str| Cited {
                        kind: EvidenceKind::Probe,
                        date: date.into(),
                        source: "run".into(),
                        via: None,
                        read: false,
                        inferred: false,
                        not_verbatim: false,
                    };
                    FeatureEntry {
                        parameter: parameter.into(),
                        placement: crate::case::Placement::Nested,
                        status: if by.is_empty() {
                            Status::Allowed
                        } else {
                            Status::Rejected
                        },
                        rejected_by: by
                            .iter()
                            .map(|&(target, date)| TargetEvidence {
                                target: target.into(),
                                case: "c".into(),
                                latest: cited(date),
                                since: cited(date),
                            })
                            .collect(),
                        unknown_for: Vec::new(),
                        judged_elsewhere: Default::default(),
                    }
                })
                .collect(),
            summary: Default::default(),
            meta_schema: Vec::new(),
        })
    }

    /// The r4 shape (`{$ref, type: [integer, null]}`): where the targets that reject the plain
    /// reference (and its siblings) also reject `$ref (with type)`, one finding says both, each
    /// piece of evidence quoted, with the inline fix (before: a second finding, "`$ref` next to
    /// `type`", whose fix, removing `type`, leaves the rejected `$ref`). Where another target
    /// rejects only the sibling form, or only the sibling form is rejected, the two stay apart.
    #[test]
    fn a_sibling_rejected_with_the_reference_is_said_by_its_finding() {
        let s = json!({"type":"object","$defs":{"n":{"type":"integer","minimum":5}},
            "properties":{"u":{"$ref":"#/$defs/n","type":["integer","null"]}}});
        let at_ref = |p: &crate::profile::CompiledProfile| -> Vec<(String, String, String)> {
            check_under(p, &s)
                .into_iter()
                .filter(|f| f.rule == "ref-unsupported" && f.pointer == "/properties/u/$ref")
                .map(|f| {
                    (
                        f.parameter.to_string(),
                        f.message.to_string(),
                        f.fix.to_string(),
                    )
                })
                .collect()
        };
        let inline = super::RULE.fix;
        let reference: &[(&str, &str)] = &[("x/y", "2026-11-30")];
        let one = at_ref(&cited_profile(&[
            ("keyword-allowed: $ref (local $defs)", reference),
            ("keyword-allowed: $ref (with siblings)", reference),
            (
                "keyword-allowed: $ref (with type)",
                &[("x/y", "2026-12-02")],
            ),
            ("keyword-allowed: $defs", &[]),
        ]));
        assert_eq!(one.len(), 1, "{one:?}");
        let (parameter, message, fix) = &one[0];
        assert_eq!(parameter, "keyword-allowed: $ref (with siblings)");
        assert_eq!(
            message,
            "`$ref` to `#/$defs/n` (local $defs), next to `type` (`type` beside a `$ref`: \
             rejected by x/y (probe 2026-12-02)): rejected by x/y (probe 2026-11-30)"
        );
        assert_eq!(fix, inline);
        // On the same evidence, it is quoted once.
        let same = at_ref(&cited_profile(&[
            ("keyword-allowed: $ref (local $defs)", reference),
            ("keyword-allowed: $ref (with siblings)", reference),
            ("keyword-allowed: $ref (with type)", reference),
            ("keyword-allowed: $defs", &[]),
        ]));
        assert_eq!(same.len(), 1, "{same:?}");
        assert_eq!(
            same[0].1,
            "`$ref` to `#/$defs/n` (local $defs), next to `type`: rejected by x/y (probe 2026-11-30)"
        );
        // The plain reference's own finding (its siblings allowed) takes the sibling form too.
        let plain = at_ref(&cited_profile(&[
            ("keyword-allowed: $ref (local $defs)", reference),
            ("keyword-allowed: $ref (with siblings)", &[]),
            ("keyword-allowed: $ref (with type)", reference),
            ("keyword-allowed: $defs", &[]),
        ]));
        assert_eq!(plain.len(), 1, "{plain:?}");
        assert_eq!(plain[0].0, "keyword-allowed: $ref (local $defs)");
        assert!(
            plain[0]
                .1
                .starts_with("`$ref` to `#/$defs/n` (local $defs), next to `type`: "),
            "{plain:?}"
        );
        // Another target rejects the sibling form: still one finding at the `$ref`, quoting
        // the sibling form's evidence (its fix, inlining, removes the sibling too).
        let apart = at_ref(&cited_profile(&[
            ("keyword-allowed: $ref (local $defs)", reference),
            ("keyword-allowed: $ref (with siblings)", reference),
            (
                "keyword-allowed: $ref (with type)",
                &[("x/y", "2026-11-30"), ("x/z", "2026-12-02")],
            ),
            ("keyword-allowed: $defs", &[]),
        ]));
        assert_eq!(apart.len(), 1, "{apart:?}");
        assert_eq!(apart[0].0, "keyword-allowed: $ref (with siblings)");
        assert!(
            apart[0]
                .1
                .starts_with("`$ref` next to `type`: rejected by x/y")
                && apart[0].1.contains("x/z")
                && apart[0]
                    .1
                    .contains("`$ref` to `#/$defs/n` (local $defs), next to `type`"),
            "{apart:?}"
        );
        assert_eq!(&apart[0].2, inline);
        // Only the sibling form rejected (Gemini's JSON-Schema field): today's sibling finding.
        let sibling_only = at_ref(&cited_profile(&[
            ("keyword-allowed: $ref (local $defs)", &[]),
            ("keyword-allowed: $ref (with siblings)", &[]),
            ("keyword-allowed: $ref (with type)", reference),
            ("keyword-allowed: $defs", &[]),
        ]));
        assert_eq!(sibling_only.len(), 1, "{sibling_only:?}");
        assert_eq!(sibling_only[0].0, "keyword-allowed: $ref (with type)");
        assert!(
            sibling_only[0]
                .2
                .starts_with("Remove `type` beside the `$ref`")
        );
    }

    #[test]
    fn cycles_name_the_definitions_they_pass_through() {
        let s = json!({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"},"c":{"$ref":"#/$defs/c"}}});
        assert_eq!(
            super::cycle_message(&s, "", "#/$defs/a"),
            "`$ref` to `#/$defs/a` is a cycle of references through `#/$defs/a` → `#/$defs/b` → `#/$defs/a` that never reaches a schema (a cycle of 2 definitions, judged by the `$ref (self-reference)` case)"
        );
        let three = json!({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/c"},"c":{"$ref":"#/$defs/b"}}});
        let m = super::cycle_message(&three, "", "#/$defs/a");
        assert!(
            m.contains(
                "leads into a cycle of references through `#/$defs/b` → `#/$defs/c` → `#/$defs/b`"
            ),
            "{m}"
        );
        assert!(!m.contains("schema (self-reference)"), "{m}");
        assert_eq!(
            super::cycle_message(
                &json!({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/b"}}}),
                "",
                "#/$defs/a"
            ),
            "`$ref` to `#/$defs/a` leads to `#/$defs/b`, which refers to itself and never reaches a schema (self-reference)"
        );
        assert_eq!(
            super::cycle_message(&s, "", "#/$defs/c"),
            "`$ref` to `#/$defs/c` refers to itself and never reaches a schema (self-reference)"
        );
    }

    /// A local pointer outside the definitions is not called one (before: "`$ref` to
    /// `#/properties/to/items` (local $defs)").
    #[test]
    fn a_local_reference_outside_the_definitions_is_not_called_one() {
        let s = json!({"type":"object","properties":{
            "to":{"type":"array","items":{"type":"string"}},
            "cc":{"$ref":"#/properties/to"},
            "bcc":{"$ref":"#/$defs/Address"}},
            "$defs":{"Address":{"type":"string"}}});
        let said = messages("ref-unsupported", s);
        assert!(
            said.iter().any(|m| m.starts_with(
                "`$ref` to `#/properties/to` (a local reference, judged by the `$ref (local $defs)` case)"
            )),
            "{said:?}"
        );
        assert!(
            said.iter()
                .any(|m| m.starts_with("`$ref` to `#/$defs/Address` (local $defs)")),
            "{said:?}"
        );
    }

    #[test]
    fn a_chain_past_the_shared_hop_limit_is_too_long_not_plain_nor_a_cycle() {
        let hops = crate::schema::refs::MAX_REF_HOPS;
        assert_eq!(
            super::form(
                &crate::schema::refs::fixtures::chain(hops - 1, false),
                "#/$defs/D0",
                "/properties/a"
            ),
            Some("local $defs")
        );
        for n in [hops, 1_500] {
            let s = crate::schema::refs::fixtures::chain(n, false);
            assert_eq!(
                super::form(&s, "#/$defs/D0", "/properties/a"),
                Some("chain too long")
            );
            let found = seen("ref-unsupported", s.clone());
            assert!(
                found.contains(&(
                    "/properties/a/$ref".to_string(),
                    "keyword-allowed: $ref (chain too long)".to_string()
                )),
                "{found:?}"
            );
            let messages = messages("ref-unsupported", s);
            let words = crate::schema::refs::too_long("#/$defs/D0");
            assert!(
                messages
                    .iter()
                    .any(|m| m.starts_with(&format!("{words}: "))),
                "{messages:?}"
            );
        }
        // References nested each in the target of the one before: the same limit, as
        // inlining applies it (`repair::refs`).
        let nested = |n: usize| {
            let mut defs = serde_json::Map::new();
            for i in 0..n {
                defs.insert(
                    format!("D{i}"),
                    json!({"type":"object","properties":{"x":{"$ref": format!("#/$defs/D{}", i + 1)}}}),
                );
            }
            defs.insert(format!("D{n}"), json!({"type":"string"}));
            json!({"type":"object","properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":defs})
        };
        assert_eq!(
            super::form(&nested(hops - 1), "#/$defs/D0", "/properties/a"),
            Some("local $defs")
        );
        for n in [hops, 1_500] {
            assert_eq!(
                super::form(&nested(n), "#/$defs/D0", "/properties/a"),
                Some("chain too long")
            );
        }
        let words = crate::schema::refs::too_long_nested("#/$defs/D0");
        let messages = messages("ref-unsupported", nested(1_500));
        assert!(
            messages
                .iter()
                .any(|m| m.starts_with(&format!("{words}: "))),
            "{messages:?}"
        );
        // The rule's documentation states the limit the code applies.
        assert!(super::RULE.checks.contains(&format!("more than {hops} ")));
        assert!(super::RULE.repair.contains(&format!("at most {hops} ")));
    }

    #[test]
    fn references_that_come_back_through_another_definition_are_recursive() {
        // a → b → a with each reference under `properties`: inlining never ends.
        let s = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},
            "$defs":{"A":{"type":"object","properties":{"b":{"$ref":"#/$defs/B"}}},
                     "B":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}},
                     "C":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}}},
                     "D":{"type":"object","properties":{"s":{"$ref":"#/$defs/S"}}},
                     "S":{"type":"string"}}});
        for r in ["#/$defs/A", "#/$defs/B", "#/$defs/C"] {
            assert_eq!(super::form(&s, r, ""), Some("recursive"), "{r}");
        }
        // A chain that ends (D → S) stays plain.
        assert_eq!(super::form(&s, "#/$defs/D", ""), Some("local $defs"));
    }

    /// Siblings told apart by kind (anomalyco/opencode#12295: Gemini's JSON-Schema field allows
    /// only `description` and `default` beside `$ref`), each also a sibling at all.
    #[test]
    fn siblings_of_a_reference_are_told_apart_by_kind() {
        let s = json!({"type":"object","properties":{
            "options":{"type":"array","items":{"$ref":"#/$defs/Option","type":"object","title":"Option"}},
            "d":{"$ref":"#/$defs/Option","description":"d","default":{}},
            "e":{"$ref":"#/$defs/Option","format":"uri","description":"e","minProperties":1}},
            "$defs":{"Option":{"type":"object","properties":{"label":{"type":"string"}}}}});
        let siblings: Vec<(String, String)> = seen("ref-unsupported", s.clone())
            .into_iter()
            .filter(|(_, f)| f.contains("(with "))
            .collect();
        assert_eq!(
            siblings,
            pairs(&[
                (
                    "/properties/options/items/$ref",
                    "keyword-allowed: $ref (with siblings)"
                ),
                (
                    "/properties/options/items/$ref",
                    "keyword-allowed: $ref (with type)"
                ),
                (
                    "/properties/options/items/$ref",
                    "keyword-allowed: $ref (with title)"
                ),
                (
                    "/properties/d/$ref",
                    "keyword-allowed: $ref (with siblings)"
                ),
                ("/properties/d/$ref", "keyword-allowed: $ref (with default)"),
                (
                    "/properties/e/$ref",
                    "keyword-allowed: $ref (with siblings)"
                ),
                (
                    "/properties/e/$ref",
                    "keyword-allowed: $ref (with other keywords)"
                ),
            ])
        );
        // The definitions a root reference points into are no keyword about the value.
        let root = json!({"$ref":"#/$defs/A","$defs":{"A":{"type":"object"}}});
        assert!(
            !seen("ref-unsupported", root)
                .iter()
                .any(|(_, f)| f.contains("other keywords"))
        );
        // Under `portable` the targets that reject the reference reject these siblings too, so
        // the reference's one finding names them: every sibling when one piece of evidence
        // decides both the reference and `$ref (with siblings)`; those refused beside it, each
        // with its evidence, when different evidence decides them (today: a report for the
        // reference, an inferred doc for the siblings).
        let m = messages("ref-unsupported", s);
        let folded = m.iter().any(|m| {
            m.starts_with(
                "`$ref` to `#/$defs/Option` (local $defs), next to `format`, `description`, `minProperties`: ",
            )
        });
        let split = m.iter().any(|m| {
            m.starts_with(
                "`$ref` to `#/$defs/Option` (local $defs), next to `format`, `minProperties`",
            )
        });
        // Or, where the targets with no evidence differ (the reference's acceptance by
        // openai/chat-strict read for openai/chat, the siblings' not), the siblings' words
        // and evidence first, once, then the reference's.
        let quoted = m.iter().any(|m| {
            m.starts_with("`$ref` next to `format`, `description`, `minProperties`: ")
                && m.matches("`$ref` next to `format`, `description`, `minProperties`")
                    .count()
                    == 1
                && m.contains("; `$ref` to `#/$defs/Option` (local $defs)")
        });
        // Either way one finding at each of the three `$ref`s, the reference's words in it
        // (the fourth finding is the `$defs`').
        assert!(folded || split || quoted, "{m:?}");
        assert_eq!(m.len(), 4, "{m:?}");
        assert_eq!(
            m.iter()
                .filter(|m| m.contains("`$ref` to `#/$defs/Option`"))
                .count(),
            3,
            "{m:?}"
        );
    }

    /// The findings' (parameter, message) of `ref-unsupported` at `/properties/a/$ref` under the
    /// built-in profile `name`.
    fn at_a(name: &str, a: serde_json::Value) -> Vec<(String, String)> {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile = crate::profile::CompiledProfile::new(set.get(name).expect("profile"));
        let schema = json!({"type":"object","properties":{"a":a},
            "$defs":{"O":{"type":"object","properties":{"l":{"type":"string"}}}}});
        let tool = crate::profile::detect::ToolRef {
            name: Some("t"),
            description: Some("d"),
            parameters: Some(&schema),
            index: 0,
            ..Default::default()
        };
        crate::check::check_tools(&[tool], &profile)
            .into_iter()
            .filter(|f| f.rule == "ref-unsupported" && f.pointer == "/properties/a/$ref")
            .map(|f| (f.parameter.to_string(), f.message.to_string()))
            .collect()
    }

    /// Siblings refused on the same evidence are one finding (one annotation at the `$ref`),
    /// naming each; an allowed one (`default`) is not named.
    #[test]
    fn siblings_refused_on_the_same_evidence_are_one_finding() {
        let found = at_a(
            "gemini/v1beta/parameters-json-schema",
            json!({"$ref":"#/$defs/O","type":"object","title":"O","default":{},"enum":[{}]}),
        );
        assert_eq!(found.len(), 1, "{found:?}");
        let (parameter, message) = &found[0];
        assert_eq!(parameter, "keyword-allowed: $ref (with type)");
        assert!(
            message.starts_with(
                "`$ref` next to `type`, `title`, `enum`: rejected by gemini/v1beta/parameters-json-schema (report 2026-02-05)"
            ),
            "{message}"
        );
    }

    /// Two forms refused on the same sentence with the same words are said once (trial 48,
    /// before: "`$ref` next to `properties`, `required` and `$ref` next to `properties`,
    /// `required`: no evidence for openai/chat-strict").
    #[test]
    fn forms_saying_the_same_words_are_said_once() {
        let found = at_a(
            "openai/chat-strict",
            json!({"$ref":"#/$defs/O","properties":{"s":{"type":"string"}},"required":["s"]}),
        );
        assert_eq!(found.len(), 1, "{found:?}");
        let message = &found[0].1;
        assert_eq!(message.matches("`$ref` next to").count(), 1, "{message}");
        assert!(
            message.starts_with("`$ref` next to `properties`, `required`: "),
            "{message}"
        );
    }

    /// The siblings are said once when two forms name them in another order, or one names
    /// an annotation too (trial 50 D10, before: "`$ref` next to `properties`, `required`,
    /// `description`, `type` and `$ref` next to `type`, `properties`, `required`: ...").
    #[test]
    fn siblings_named_by_two_forms_are_said_once() {
        let found = at_a(
            "openai/chat-strict",
            json!({"$ref":"#/$defs/O","properties":{"y":{"type":"string"}},"required":["y"],
                   "description":"k","type":"object"}),
        );
        assert_eq!(found.len(), 1, "{found:?}");
        let message = &found[0].1;
        assert!(
            message.starts_with(
                "`$ref` next to `properties`, `required`, `description`, `type`: no evidence"
            ),
            "{message}"
        );
    }

    /// Siblings whose findings would say different things are still one finding at the
    /// `$ref`, at the worse level, quoting each one's evidence: here one is rejected, the
    /// other has no evidence (before: a finding each).
    #[test]
    fn siblings_refused_on_different_evidence_are_one_finding_quoting_each() {
        use crate::profile::Status;
        let profile = nested_profile(
            "openai/chat",
            &[
                ("keyword-allowed: $ref (with type)", Status::Rejected),
                ("keyword-allowed: $ref (with title)", Status::Unknown),
            ],
        );
        let schema = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/O","type":"object","title":"O"}},
            "$defs":{"O":{"type":"object"}}});
        let found: Vec<_> = check_under(&profile, &schema)
            .into_iter()
            .filter(|f| f.pointer == "/properties/a/$ref")
            .map(|f| (f.level, f.parameter.to_string(), f.message.to_string()))
            .collect();
        assert_eq!(found.len(), 1, "{found:?}");
        let (level, parameter, message) = &found[0];
        assert_eq!(*level, crate::check::Level::Error);
        assert_eq!(parameter, "keyword-allowed: $ref (with type)");
        assert!(
            message.contains("; `$ref` next to `title`: ")
                && message.ends_with(
                    "; `$ref` next to `type`: rejected by the profile, which cites no evidence"
                ),
            "{found:?}"
        );
    }

    /// A `$ref` beside only `description` (a sibling of no kind of its own) is one finding
    /// under `portable`, whichever evidence decides the reference and `$ref (with siblings)`
    /// (before: the reference's and the siblings' own, two errors at one `$ref`, once a report
    /// decided the one and an inferred doc the other).
    #[test]
    fn a_reference_beside_only_a_description_is_one_finding() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile = crate::profile::CompiledProfile::new(
            set.get(crate::profile::PORTABLE).expect("portable"),
        );
        let s = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/C","description":"d"}},
            "$defs":{"C":{"type":"string"}}});
        let at: Vec<String> = check_under(&profile, &s)
            .into_iter()
            .filter(|f| f.pointer == "/properties/a/$ref")
            .map(|f| f.message.to_string())
            .collect();
        assert_eq!(at.len(), 1, "{at:?}");
    }

    /// One finding per `$ref` under every profile of `reports/profile.json` (each target's
    /// and `portable`), whatever siblings it has and whichever targets and levels decide its
    /// forms (before: under moonshot/chat a plain `$ref` beside a `description` was a warning,
    /// the reference with no evidence, and an error, its siblings rejected by a report: two
    /// findings at one `$ref`). The one finding has the worse level and quotes every sentence.
    #[test]
    fn one_finding_per_reference_under_every_profile() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let beside = [
            json!({"description":"d"}),
            json!({"type":"string"}),
            json!({"default":"x"}),
            json!({"title":"T","description":"d"}),
            json!({"type":"string","title":"T","default":"x","minLength":1,"description":"d"}),
            json!({"$defs":{"y":{"type":"integer"}},"description":"d"}),
        ];
        assert!(set.profiles.len() > 10, "{}", set.profiles.len());
        for p in &set.profiles {
            let profile = crate::profile::CompiledProfile::new(p);
            for b in &beside {
                let mut a = json!({"$ref":"#/$defs/x"});
                a.as_object_mut()
                    .expect("object")
                    .extend(b.as_object().expect("object").clone());
                let s = json!({"type":"object","properties":{"a":a},
                    "$defs":{"x":{"type":"string"}}});
                let at: Vec<_> = check_under(&profile, &s)
                    .into_iter()
                    .filter(|f| f.rule == "ref-unsupported" && f.pointer == "/properties/a/$ref")
                    .map(|f| (f.level, f.parameter.to_string(), f.message.to_string()))
                    .collect();
                assert!(at.len() <= 1, "{} {b}: {at:#?}", p.name);
            }
        }
        // moonshot/chat: the reference has no evidence, its siblings are rejected.
        let profile =
            crate::profile::CompiledProfile::new(set.get("moonshot/chat").expect("moonshot"));
        let s = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/x","description":"d"}},
            "$defs":{"x":{"type":"string"}}});
        let at: Vec<_> = check_under(&profile, &s)
            .into_iter()
            .filter(|f| f.rule == "ref-unsupported" && f.pointer == "/properties/a/$ref")
            .collect();
        assert_eq!(at.len(), 1, "{at:#?}");
        assert_eq!(at[0].level, crate::check::Level::Error);
        assert_eq!(
            at[0].message.to_string(),
            "`$ref` to `#/$defs/x` (local $defs): no evidence for moonshot/chat; `$ref` next to \
             `description`: rejected by moonshot/chat (report 2026-04-24)"
        );
    }

    /// Each finding's fix speaks of its own `$ref`: repair inlines a schema's references all
    /// together, and a refusal that arose at another one (dangling here) is named as that
    /// one's (before: the fix at `x` and at `$defs` said "cannot inline it: `$ref` to
    /// `#/$defs/Missing`, which is not in the schema", as if `x` were that reference).
    #[test]
    fn a_fix_names_another_references_refusal_as_that_ones() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile = crate::profile::CompiledProfile::new(
            set.get(crate::profile::PORTABLE).expect("portable"),
        );
        let fix_at = |s: &serde_json::Value, at: &str, parameter: &str| {
            check_under(&profile, s)
                .into_iter()
                .find(|f| f.pointer == at && f.parameter.ends_with(parameter))
                .map(|f| f.fix.to_string())
                .unwrap_or_else(|| panic!("no {parameter} finding at {at}"))
        };
        let s = json!({"type":"object","properties":{
            "x":{"$ref":"#/$defs/X"},"y":{"$ref":"#/$defs/Missing"}},
            "$defs":{"X":{"type":"string"}}});
        // In order: which place, because of which other `$ref`, that one's reason, what to do.
        for (at, parameter, this) in [
            ("/properties/x/$ref", "(local $defs)", "this `$ref`"),
            ("/$defs", "$defs", "the `$ref`s to these definitions"),
        ] {
            let fix = fix_at(&s, at, parameter);
            assert_eq!(
                fix,
                format!(
                    "`toolwire repair` cannot inline {this} because of the `$ref` at \
                     /properties/y/$ref: it inlines all of a schema's `$ref`s or none, and \
                     cannot inline that one (`$ref` to `#/$defs/Missing`, which is not in the \
                     schema). Fix that one first (its own finding says how)."
                )
            );
        }
        // A refusal at the finding's own `$ref` is said as its own.
        let own = json!({"type":"object","properties":{"x":{"$ref":"#/$defs/X","type":"integer"}},
            "$defs":{"X":{"type":"string"}}});
        // One finding at the `$ref`, under the siblings' case or the reference's (whichever
        // the evidence folds it under).
        let at_ref: Vec<String> = check_under(&profile, &own)
            .into_iter()
            .filter(|f| f.pointer == "/properties/x/$ref")
            .map(|f| f.fix.to_string())
            .collect();
        assert_eq!(at_ref.len(), 1, "{at_ref:?}");
        let fix = &at_ref[0];
        assert!(
            fix.starts_with(
                "`toolwire repair` cannot inline it: `$ref` to `#/$defs/X`: no value can \
                 satisfy both `type: string` (the definition) and `type: integer` (beside the \
                 `$ref`) (at /properties/x/$ref). Make the \
                 keyword beside the `$ref` agree with the definition's, or move it into the \
                 definition and drop it beside the `$ref`."
            ),
            "{fix}"
        );
        // One that dangles further on is named where it is written, in the definition (whose
        // own `ref-dangling` finding points it at a definition), not told to flatten.
        let on = json!({"type":"object","properties":{"x":{"$ref":"#/$defs/X"}},
            "$defs":{"X":{"$ref":"#/$defs/Missing"}}});
        let fix = fix_at(&on, "/properties/x/$ref", "(local $defs)");
        assert!(
            fix.contains(
                "because of the `$ref` at /$defs/X/$ref, reached through /properties/x: it \
                 inlines all of a schema's `$ref`s or none, and cannot inline that one (`$ref` \
                 to `#/$defs/Missing`, which is not in the schema)"
            ) && !fix.contains("Flatten"),
            "{fix}"
        );
    }

    #[test]
    fn a_percent_escaped_reference_resolves() {
        let s = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/x%20y"}},
            "$defs":{"x y":{"type":"string"}}});
        let found = seen("ref-unsupported", s);
        assert!(
            found.contains(&(
                "/properties/a/$ref".to_string(),
                "keyword-allowed: $ref (local $defs)".to_string()
            )),
            "{found:?}"
        );
        assert!(
            !found.iter().any(|(_, f)| f.contains("unresolved")),
            "{found:?}"
        );
    }

    #[test]
    fn anchors_the_empty_reference_and_the_root_id_are_followed() {
        let r = "ref-unsupported";
        let s = json!({"$id":"https://ex.com/s","type":"object","properties":{
            "a":{"$ref":"#foo"}, "b":{"$ref":"https://ex.com/s#/$defs/B"}, "c":{"$ref":""},
            "d":{"$ref":"#nothing"}},
            "$defs":{"f":{"$anchor":"foo","type":"string"},"B":{"type":"integer"}}});
        let found = seen(r, s.clone());
        for (at, feature) in [
            ("/properties/a/$ref", "keyword-allowed: $ref (local $defs)"),
            ("/properties/b/$ref", "keyword-allowed: $ref (local $defs)"),
            // The empty reference is the whole document, around the place it is written.
            ("/properties/c/$ref", "keyword-allowed: $ref (recursive)"),
        ] {
            assert!(
                found.contains(&(at.to_string(), feature.to_string())),
                "{at}: {found:?}"
            );
        }
        assert!(seen("ref-remote", s).is_empty());
    }

    #[test]
    fn local_references() {
        let r = "ref-unsupported";
        let s = json!({"type":"object","properties":{
            "a":{"$ref":"#/$defs/A"}, "b":{"$ref":"#/$defs/B"}, "c":{"$ref":"https://x.org/s.json"},
            "d":{"$ref":"#/$defs/A","description":"d"}, "e":{"$ref":"#/$defs/node"}, "f":{"$ref":"#/$defs/loop"}},
            "$defs":{"A":{"type":"string"},
                     "node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}},
                     "loop":{"$ref":"#/$defs/loop"}}});
        let found = seen(r, s);
        assert_eq!(
            found,
            pairs(&[
                ("/$defs", "keyword-allowed: $defs"),
                ("/properties/a/$ref", "keyword-allowed: $ref (local $defs)"),
                ("/properties/d/$ref", "keyword-allowed: $ref (local $defs)"),
                (
                    "/properties/d/$ref",
                    "keyword-allowed: $ref (with siblings)"
                ),
                ("/properties/e/$ref", "keyword-allowed: $ref (recursive)"),
                (
                    "/properties/f/$ref",
                    "keyword-allowed: $ref (self-reference)"
                ),
                (
                    "/$defs/node/properties/kids/items/$ref",
                    "keyword-allowed: $ref (recursive)"
                ),
                ("/$defs/loop/$ref", "keyword-allowed: $ref (self-reference)"),
            ])
        );
    }

    /// Values in `v`, counted as [`super::Scans`] counts them.
    fn values(v: &serde_json::Value) -> usize {
        1 + match v {
            serde_json::Value::Object(m) => m.values().map(values).sum(),
            serde_json::Value::Array(a) => a.iter().map(values).sum(),
            _ => 0,
        }
    }

    /// The values the rule scans for `schema`, with its findings.
    fn scanned(schema: serde_json::Value) -> (usize, Vec<(String, String)>) {
        super::SCANNED.with(|c| c.set(0));
        let found = seen("ref-unsupported", schema);
        (super::SCANNED.with(std::cell::Cell::get), found)
    }

    /// Each target is searched once however many references point at it, so the search reads
    /// no more values than the schema has (before: once per reference, 10,000 references to
    /// one definition of 120 references to another took 5 s, refs × the scan).
    #[test]
    fn many_references_to_one_target_scan_it_once() {
        let b: serde_json::Map<String, serde_json::Value> = (0..20)
            .map(|i| (format!("b{i}"), json!({"type":"string"})))
            .collect();
        let a: serde_json::Map<String, serde_json::Value> = (0..20)
            .map(|i| (format!("a{i}"), json!({"$ref":"#/$defs/B"})))
            .collect();
        let props: serde_json::Map<String, serde_json::Value> = (0..300)
            .map(|i| (format!("p{i}"), json!({"$ref":"#/$defs/A"})))
            .collect();
        let s = json!({"type":"object","properties":props,"$defs":{
            "A":{"type":"object","properties":a},"B":{"type":"object","properties":b}}});
        let total = values(&s);
        let (work, found) = scanned(s);
        assert!(
            work <= total,
            "{work} values scanned, {total} in the schema"
        );
        let plain = found
            .iter()
            .filter(|(_, f)| f == "keyword-allowed: $ref (local $defs)")
            .count();
        assert_eq!(plain, 320, "{found:?}");
    }

    /// Definitions each referring to every other: every reference is recursive, and each
    /// definition is read once (before: once or twice per reference, a 320-definition clique
    /// took 33 s).
    #[test]
    fn a_clique_of_definitions_is_scanned_once_each() {
        let n = 12;
        let defs: serde_json::Map<String, serde_json::Value> = (0..n)
            .map(|i| {
                let props: serde_json::Map<String, serde_json::Value> = (0..n)
                    .filter(|j| *j != i)
                    .map(|j| (format!("p{j}"), json!({"$ref":format!("#/$defs/D{j}")})))
                    .collect();
                (format!("D{i}"), json!({"type":"object","properties":props}))
            })
            .collect();
        let s = json!({"type":"object","properties":{"x":{"$ref":"#/$defs/D0"}},"$defs":defs});
        let total = values(&s);
        let (work, found) = scanned(s);
        assert!(
            work <= total,
            "{work} values scanned, {total} in the schema"
        );
        let recursive = found
            .iter()
            .filter(|(_, f)| f == "keyword-allowed: $ref (recursive)")
            .count();
        assert_eq!(recursive, n * (n - 1) + 1, "{found:?}");
    }
}
