//! The repairs for each kind of finding, as candidate rewrites of one tool. The caller tries
//! them in order and keeps the first that the profile accepts (see [`super::repair_tool`]).
//! A finding with no repair gets a refusal reason instead. Keyword repairs are in
//! [`keywords`], type repairs in [`types`], the schema's and the tool's shape in [`shapes`].

mod draft;
mod keywords;
#[cfg(test)]
pub(crate) use keywords::VALUES_MERGED;
mod shapes;
mod types;

use keywords::keyword;
pub(crate) use keywords::{EMPTY_ALL_OF_DROPPED, Memo, inlined, name_lists_written_once};
pub use keywords::{
    all_of_declares_members, all_of_repairable, any_of_siblings_movable, const_outside_enum,
    declares_members, one_of_repairable,
};
pub use shapes::{ACCEPTED_ANY, MEMBERS_ELSEWHERE, root_is_an_object, says_members_elsewhere};
pub(crate) use shapes::{
    Cut, branch_place, mend_required, no_form_in_shape, own_reason, short_of, true_branch_written,
};
use shapes::{cut_description, description, rename, root_shape, structure};
pub use types::{
    TypeListReading, TypeSource, type_from_combinator, type_list_reading, type_said_by,
    typed_from_holder,
};
use types::{type_list, type_missing, type_spelling};

use draft::{Draft, Edits};
use serde_json::{Map, Value, json};

use super::place::{self, Step};
use super::{Change, Tool};
use crate::check::Finding;
use crate::profile::CompiledProfile;
use crate::profile::compiled::Slot;
use crate::profile::feature::{Feat, Kind, Limit, Param, parse_parameter, value};
use crate::profile::rules::{keyword_value_invalid, ref_unsupported};

/// What a candidate rewrite writes: a whole new tool, or (most rewrites) edits of a few
/// subschemas ([`Draft`]), which repair can then make in place without copying the tool.
pub(super) enum Rewrite {
    Tool(Tool),
    Edits(Edits),
}

impl From<Tool> for Rewrite {
    fn from(t: Tool) -> Rewrite {
        Rewrite::Tool(t)
    }
}

impl Rewrite {
    /// Rewrites `tool`, the tool the candidate was made from, in place. Errors when it has no
    /// subschema object at an edit's pointer (then it is not the tool the candidate was made
    /// from).
    pub fn apply(self, tool: &mut Tool) -> Result<(), String> {
        match self {
            Rewrite::Tool(t) => *tool = t,
            Rewrite::Edits(e) => e.apply(tool)?,
        }
        Ok(())
    }

    /// The rewritten copy of `base`, the tool the candidate was made from.
    pub fn applied_to(self, base: &Tool) -> Result<Tool, String> {
        match self {
            Rewrite::Tool(t) => Ok(t),
            edits => {
                let mut t = base.clone();
                edits.apply(&mut t)?;
                Ok(t)
            }
        }
    }

    /// How many schema values making it copied (repair's work cap counts them).
    pub fn copied(&self) -> usize {
        match self {
            Rewrite::Tool(t) => t.parameters.as_ref().map_or(1, crate::json::value_count),
            Rewrite::Edits(e) => e.copied(),
        }
    }
}

/// One rewrite of the tool and what it changed.
pub(super) struct Candidate {
    pub rewrite: Rewrite,
    pub changes: Vec<Change>,
    /// Writes null as `nullable: true` (preferred, being lossless, where the profile allows
    /// that spelling; otherwise the argument is made optional first).
    pub uses_nullable: bool,
    /// The rewrite writes the keyword the finding is about in the form JSON Schema defines,
    /// with the same meaning (a `dependentRequired` list with each name once), so the
    /// finding's feature stays: a warning where the profile has no evidence for the keyword.
    /// [`crate::repair::fix_finding_among`] takes such a rewrite when no error of the kind is
    /// left and none of a new kind comes in, as the feature itself is not gone.
    pub respells: bool,
    /// What a `nullable: true` candidate writes instead where the profile does not accept
    /// that spelling ([`candidates`]): the same rewrite with the null dropped, said as a loss.
    instead: Option<Box<Candidate>>,
}

impl Candidate {
    /// A rewrite that made one change: `action` at `pointer` (what was `lost`, if anything).
    fn one(
        rewrite: impl Into<Rewrite>,
        pointer: &str,
        rule: &str,
        action: impl Into<String>,
        lost: Option<String>,
    ) -> Candidate {
        Candidate::many(rewrite, vec![change(pointer, rule, action.into(), lost)])
    }

    /// A rewrite that made several changes.
    fn many(rewrite: impl Into<Rewrite>, changes: Vec<Change>) -> Candidate {
        Candidate {
            rewrite: rewrite.into(),
            changes,
            uses_nullable: false,
            respells: false,
            instead: None,
        }
    }

    /// Marks a rewrite that writes the finding's keyword in its valid form ([`Self::respells`]).
    fn respelled(mut self) -> Candidate {
        self.respells = true;
        self
    }

    /// Marks a rewrite that spells null as `nullable: true`; `instead` drops the null, for a
    /// profile some of whose targets do not read `nullable` (JSON Schema has no such keyword:
    /// there the rewrite would refuse null while saying it lost nothing, trial 56 D5).
    fn nullable(mut self, instead: Candidate) -> Candidate {
        self.uses_nullable = true;
        self.instead = Some(Box::new(instead));
        self
    }

    /// This candidate made on `base`, then `more` made on the rewritten tool, adding its
    /// changes after the candidate's: one candidate of both. Errors as
    /// [`Rewrite::applied_to`] does.
    fn then(
        self,
        base: &Tool,
        more: impl FnOnce(&mut Tool, &mut Vec<Change>),
    ) -> Result<Candidate, String> {
        let Candidate {
            rewrite,
            mut changes,
            uses_nullable,
            respells,
            ..
        } = self;
        let mut t = rewrite.applied_to(base)?;
        more(&mut t, &mut changes);
        // Made after [`candidates`] chose between `nullable` and its `instead`.
        Ok(Candidate {
            rewrite: Rewrite::Tool(t),
            changes,
            uses_nullable,
            respells,
            instead: None,
        })
    }
}

/// Keywords that only annotate: dropping them changes no argument's validity.
const ANNOTATIONS: &[&str] = &[
    "title",
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "deprecated",
    "readOnly",
    "writeOnly",
    "default",
    "examples",
    "example",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
    "description",
];

/// Keywords that only narrow what is accepted: dropping one accepts more, which is reported
/// as a loss (and, where it can be said in words, moved into the description).
const NARROWING: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "const",
    "enum",
];

/// Whether keyword `k` only annotates (`title`, `$schema`, `$id`, `default`, ...): repair
/// drops it and reports the annotation as the only loss.
pub fn only_annotates(k: &str) -> bool {
    ANNOTATIONS.contains(&k)
}

type Found = Result<Vec<Candidate>, String>;

/// The candidate rewrites for finding `f` of `tool`, best first, or why none exists. `memo`
/// keeps what they read of the whole schema ([`Memo`]), for the next finding of this schema.
pub(super) fn candidates(
    tool: &Tool,
    f: &Finding,
    profile: &CompiledProfile,
    memo: &Memo,
) -> Found {
    if let Some(c) = drop_unreached_definition(tool, f, memo)? {
        return Ok(vec![c]);
    }
    let reads_nullable = prefers_nullable(profile);
    let mut found: Vec<Candidate> = dispatch(tool, f, profile, memo)?
        .into_iter()
        .map(|c| match c.instead {
            Some(instead) if !reads_nullable => *instead,
            _ => c,
        })
        .collect();
    if about_ref_siblings(f) {
        found = found
            .into_iter()
            .map(|c| with_other_refused_siblings(tool, c, f, profile, memo.max_inline_nodes))
            .collect::<Result<_, _>>()?;
        // Dropped, a sibling that narrows is no longer enforced; inlined, the `$ref`'s target
        // takes it, as for a target without `$ref` (trial 55 D15: `enum` beside a `$ref` was
        // dropped for Gemini's JSON-Schema field). Tried first, the inlining is kept only
        // where the profile then finds no error of a new kind; a lost annotation alone is
        // not worth writing out every `$ref` of the tool.
        let narrowing_lost = |c: &Change| {
            c.lost.is_some() && !only_annotates(c.pointer.rsplit('/').next().unwrap_or_default())
        };
        if found.iter().flat_map(|c| &c.changes).any(narrowing_lost)
            && let Ok(inlining) = keywords::inline_refs(
                tool,
                &f.rule,
                &f.pointer,
                memo.max_inline_nodes,
                crate::repair::refs::Conflicts::under(profile),
            )
        {
            found.splice(0..0, inlining);
        }
    }
    if reads_nullable {
        found.sort_by_key(|c| !c.uses_nullable);
    }
    Ok(found)
}

/// Drops the root's definitions that no `$ref` reaches when `f` lies in one of them, as compile
/// does ([`crate::compile::canonical::drop_unreferenced_definitions`], the same change lines,
/// here answering `f`'s rule): they constrain nothing, so what they hold is not judged (trial
/// 56 D9: an array without `items` in such a definition refused the whole tool). All of them
/// at once: one that refers to another is unreached too, and dropping only the other would
/// leave its `$ref` dangling. `None` for a finding anywhere else; an error when the
/// definition is gone already (another finding's drop took it).
fn drop_unreached_definition(
    tool: &Tool,
    f: &Finding,
    memo: &Memo,
) -> Result<Option<Candidate>, String> {
    let Some((container, name)) = crate::compile::canonical::definition_holding(&f.pointer)
        .filter(|def| memo.unreached(tool, def))
    else {
        return Ok(None);
    };
    let at = crate::json::push_token(&crate::json::push_token("", container), &name);
    let mut t = tool.clone();
    let Some(schema) = t.parameters.as_mut().filter(|p| p.pointer(&at).is_some()) else {
        return Err(format!("the definition `{name}` is dropped already"));
    };
    let mut changes = crate::compile::canonical::drop_unreferenced_definitions(schema);
    for c in &mut changes {
        c.rule = f.rule.to_string();
    }
    Ok(Some(Candidate::many(t, changes)))
}

/// The root's definitions no `$ref` reaches dropped, as compile drops them
/// ([`crate::compile::canonical::drop_unreferenced_definitions`], the change lines answering
/// `f`'s rule), where without them the schema's `n` properties come within the profile's
/// limit, as check then marks `f` repairable: they constrain nothing. Otherwise no rewrite:
/// shrinking the schema further would change the arguments.
fn count_without_unreached(tool: &Tool, f: &Finding, profile: &CompiledProfile, n: usize) -> Found {
    let refused = |why: &str| {
        Err(format!(
            "{n} {} is past what the profile allows{why}; shrinking it would change the arguments",
            Limit::PropertyCount.unit()
        ))
    };
    // Copied only when there is something to drop: a schema may be megabytes.
    let none_unreached = |root| crate::compile::canonical::unreached_definitions(root).is_empty();
    if tool.parameters.as_ref().is_none_or(none_unreached) {
        return refused("");
    }
    let mut t = tool.clone();
    let Some(schema) = t.parameters.as_mut() else {
        return refused("");
    };
    let mut changes = crate::compile::canonical::drop_unreferenced_definitions(schema);
    let left = crate::profile::detect::property_count(schema);
    let feat = Feat::Limit(Limit::PropertyCount, left);
    if profile.lookup(&feat, crate::case::Placement::Root) != Slot::Allowed {
        return refused(&format!(
            ", and {left} without the definitions no `$ref` reaches"
        ));
    }
    for c in &mut changes {
        c.rule = f.rule.to_string();
    }
    Ok(vec![Candidate::many(t, changes)])
}

/// Whether `f` is `ref-unsupported`'s about siblings beside a `$ref`, which repair drops.
fn about_ref_siblings(f: &Finding) -> bool {
    f.rule == ref_unsupported::RULE.id
        && parse_parameter(&f.parameter)
            .and_then(|p| crate::profile::rules::keyword_form_of(&p, "$ref"))
            .is_some_and(|form| ref_unsupported::drops_siblings(&form))
}

/// Candidate `c` for `f` (siblings beside a `$ref`), and the siblings beside that `$ref` the
/// rewritten tool still has errors for dropped too, as their own findings would drop them.
/// Check makes one finding of the siblings refused on the same evidence, under the first
/// one's form: dropping only that one would leave the rest under another form, which repair
/// would take for a new kind of error (and refuse, when that form was repaired elsewhere in the
/// tool: "rejects both ways of writing it"). A further drop that fails is left out. Errors as
/// [`Rewrite::applied_to`] does.
fn with_other_refused_siblings(
    tool: &Tool,
    c: Candidate,
    f: &Finding,
    profile: &CompiledProfile,
    max_inline_nodes: usize,
) -> Result<Candidate, String> {
    c.then(tool, |t, changes| {
        // Each round drops one form's siblings; there are no more forms than that.
        for _ in 0..=ref_unsupported::SIBLING_FORMS.len() {
            let left = super::errors(t, profile)
                .into_iter()
                .find(|g| g.pointer == f.pointer && about_ref_siblings(g));
            // `t` is another schema than the one the caller's memo is about.
            let memo = Memo::new(max_inline_nodes);
            let Some(next) = left
                .and_then(|g| dispatch(t, &g, profile, &memo).ok())
                .and_then(|found| found.into_iter().next())
            else {
                break;
            };
            let Ok(dropped) = next.rewrite.applied_to(t) else {
                break;
            };
            *t = dropped;
            changes.extend(next.changes);
        }
    })
}

/// Whether the profile accepts `nullable: true` (Gemini's spelling of "may be null").
fn prefers_nullable(profile: &CompiledProfile) -> bool {
    matches!(
        profile.lookup(
            &Feat::KeywordForm("nullable", value::BOOL_TRUE),
            crate::case::Placement::Nested
        ),
        Slot::Allowed
    )
}

fn dispatch(tool: &Tool, f: &Finding, profile: &CompiledProfile, memo: &Memo) -> Found {
    // A limit of toolwire's own has no feature to rewrite: its finding says why, in full.
    if crate::profile::table::is_own_cap(&f.rule) {
        return Err(f.message.to_string());
    }
    let Some(param) = parse_parameter(&f.parameter) else {
        return Err(format!(
            "`{}` is not a feature toolwire can repair",
            f.parameter
        ));
    };
    let conflicts = crate::repair::refs::Conflicts::under(profile);
    match param {
        Param::Keyed(Kind::Keyword, k) => keyword(tool, f, &k, None, profile, memo, conflicts),
        Param::Keyed(Kind::KeywordForm, kf) => {
            let (k, form) = kf
                .rsplit_once(" (")
                .map(|(k, f)| (k.to_string(), f.trim_end_matches(')').to_string()))
                .unwrap_or((kf.clone(), String::new()));
            keyword(tool, f, &k, Some(&form), profile, memo, conflicts)
        }
        Param::Keyed(Kind::TypeSpelling, _) => type_spelling(tool, f, profile),
        Param::Keyed(Kind::TypeList, _) => type_list(tool, f),
        Param::Keyed(Kind::TypeMissing, _) => type_missing(tool, f, profile),
        Param::Keyed(Kind::Format, _) => {
            let node = owner(f, "format").ok_or("no `format` where the finding points")?;
            drop_keyword(tool, &f.rule, &node, "format", true)
        }
        Param::Keyed(Kind::Structure, s) => structure(tool, f, &s, profile),
        Param::Keyed(Kind::RootShape, s) => root_shape(tool, f, &s, memo.required_schema_key),
        Param::Keyed(Kind::NameChars, _) | Param::Limit(Limit::NameLength, _) => {
            rename(tool, f, profile)
        }
        Param::Keyed(Kind::Description, d) => description(tool, f, &d),
        Param::Limit(Limit::DescriptionLength, _) => cut_description(tool, f, profile),
        Param::Limit(Limit::PropertyCount, n) => count_without_unreached(tool, f, profile, n),
        Param::Limit(l, n) => Err(format!(
            "{n} {} is past what the profile allows; shrinking it would change the arguments",
            l.unit()
        )),
        Param::Keyed(Kind::NameUnique, _) => {
            Err("two tools share this name; see the name census".into())
        }
        Param::Keyed(Kind::Control, _) => Err("not a feature of a tool".into()),
    }
}

/// The subschema that owns keyword `k` at the finding's pointer.
fn owner(f: &Finding, k: &str) -> Option<String> {
    place::keyword_owner(&f.pointer, k)
}

/// Why a rewrite found no schema object where its finding points.
fn no_schema(pointer: &str) -> String {
    format!("no schema object at {pointer:?}")
}

fn schema_mut<'a>(tool: &'a mut Tool, pointer: &str) -> Result<&'a mut Map<String, Value>, String> {
    tool.parameters
        .as_mut()
        .and_then(|p| p.pointer_mut(pointer))
        .and_then(Value::as_object_mut)
        .ok_or_else(|| no_schema(pointer))
}

fn schema_at<'a>(tool: &'a Tool, pointer: &str) -> Result<&'a Map<String, Value>, String> {
    tool.parameters
        .as_ref()
        .and_then(|p| p.pointer(pointer))
        .and_then(Value::as_object)
        .ok_or_else(|| no_schema(pointer))
}

/// The subschema object of `tool` at `pointer`, copied and changed by `edit`.
fn edited<'t>(
    tool: &'t Tool,
    pointer: &str,
    edit: impl FnOnce(&mut Map<String, Value>),
) -> Result<Draft<'t>, String> {
    let mut d = Draft::of(tool);
    edit(d.schema(pointer)?);
    Ok(d)
}

fn change(pointer: &str, rule: &str, action: String, lost: Option<String>) -> Change {
    Change {
        pointer: pointer.to_string(),
        rule: rule.to_string(),
        action,
        emptied: false,
        lost,
    }
}

/// A value as short JSON for messages, its strings' text quoted as
/// [`crate::report::Shown`] quotes it.
pub(crate) fn show(v: &Value) -> String {
    cut(crate::report::Shown(&whole(v)).to_string())
}

/// `v`, a float of integral value (`1e2`, read as 100.0) as the integer it is: the reader
/// wrote no `.0`, and an integer keyword's bound reads as a fraction with one. Past 2^53 a
/// float stands for no one integer, and is left as it is.
fn whole(v: &Value) -> std::borrow::Cow<'_, Value> {
    match v.as_f64() {
        Some(f) if v.is_f64() && f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => {
            std::borrow::Cow::Owned(Value::from(f as i64))
        }
        _ => std::borrow::Cow::Borrowed(v),
    }
}

/// `v` as compact JSON, cut as [`show`] cuts it: what a description written into the
/// repaired schema says, where the value is data read by a model, not a message.
fn show_json(v: &Value) -> String {
    cut(whole(v).to_string())
}

/// `s` cut to 80 characters, ending in "…", after whole grapheme clusters
/// ([`crate::describe::whole_graphemes`]): what it cuts is written into descriptions too.
fn cut(s: String) -> String {
    if s.chars().count() > 80 {
        format!("{}…", crate::describe::whole_graphemes(&s, 79))
    } else {
        s
    }
}

/// What keyword `k` with value `v` said, in words, for the description.
fn phrase(k: &str, v: &Value, node: &Map<String, Value>) -> Option<String> {
    let n = || show_json(v);
    Some(match k {
        "minimum" => format!("at least {}", n()),
        "maximum" => format!("at most {}", n()),
        "exclusiveMinimum" if v.is_number() => format!("greater than {}", n()),
        "exclusiveMaximum" if v.is_number() => format!("less than {}", n()),
        "exclusiveMinimum" if v == &json!(true) => {
            format!("greater than {}", node.get("minimum").map(show_json)?)
        }
        "exclusiveMaximum" if v == &json!(true) => {
            format!("less than {}", node.get("maximum").map(show_json)?)
        }
        "multipleOf" => format!("a multiple of {}", n()),
        "minLength" => format!("at least {} characters", n()),
        "maxLength" => format!("at most {} characters", n()),
        // The regular expression as a model must read it, not as a JSON string: `\d+`, not
        // `"\\d+"` (the description is itself a JSON string; trial 51 D10).
        "pattern" => match v.as_str() {
            Some(re) if !re.contains('`') => {
                format!("matching the regular expression `{}`", cut(re.to_string()))
            }
            _ => format!("matching the regular expression {}", n()),
        },
        "format" => format!("format: {}", v.as_str().map_or_else(n, str::to_string)),
        "minItems" => format!("at least {} items", n()),
        "maxItems" => format!("at most {} items", n()),
        "uniqueItems" if v == &json!(true) => "no item repeated".into(),
        // "1 entries" read wrong in the description (trial 52, noted).
        "minProperties" if v == &json!(1) => "at least 1 entry".into(),
        "maxProperties" if v == &json!(1) => "at most 1 entry".into(),
        "minProperties" => format!("at least {} entries", n()),
        "maxProperties" => format!("at most {} entries", n()),
        "const" => format!("must be {}", n()),
        "enum" => {
            let items: Vec<String> = v.as_array()?.iter().map(show_json).collect();
            format!("one of {}", items.join(", "))
        }
        "default" => format!("default: {}", n()),
        "examples" => {
            let items: Vec<String> = v.as_array()?.iter().take(3).map(show_json).collect();
            format!("for example {}", items.join(", "))
        }
        "example" => format!("for example {}", n()),
        "contentMediaType" => format!("media type {}", n()),
        _ => return None,
    })
}

/// Appends `phrase` as a sentence ([`sentence`]) to `node`'s description, unless the
/// description says it already.
fn note(node: &mut Map<String, Value>, phrase: &str) {
    let sentence = sentence(phrase);
    let d = node
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("");
    // Said already (a schema repaired before, or written so): not said twice.
    if d.contains(&sentence) {
        return;
    }
    let new = appended(d, &sentence);
    node.insert("description".into(), Value::String(new));
}

/// Description text `d` with the text `more` after it, as sentences: a full stop is put
/// between them where `d` ends without one; `more` alone where `d` is blank. A text ending in
/// a stop inside closing brackets or quotes (`(see below.)`), or in a colon, semicolon or comma
/// (`Contact address:`, which introduces what follows), takes `more` after a space: a stop
/// there would read `address:. Format: email.` (trial 71).
fn appended(d: &str, more: &str) -> String {
    let d = d.trim_end();
    let closed = d.trim_end_matches([')', ']', '"', '\'', '”', '’']);
    if d.is_empty() {
        more.to_string()
    } else if closed.ends_with(['.', '!', '?', ':', ';', ',']) {
        format!("{d} {more}")
    } else {
        format!("{d}. {more}")
    }
}

/// `phrase` as the sentence [`note`] writes: capitalised, with a full stop.
fn sentence(phrase: &str) -> String {
    let mut sentence: String = phrase
        .chars()
        .take(1)
        .flat_map(char::to_uppercase)
        .collect();
    sentence.extend(phrase.chars().skip(1));
    sentence.push('.');
    sentence
}

/// Dropping keyword `k` at `node`: with its meaning moved into the description (when
/// `describe` and it can be said), and without.
/// Whether some object in `root` has a key that makes a subschema's meaning other than "more
/// values are fine" (`not`, `if`, `oneOf`, as a keyword or as a name: a quick, sure "no"
/// before [`widening_narrows`] looks closer).
fn holds_narrowing(root: &Value) -> bool {
    crate::schema::any_object(root, |m| {
        ["not", "if", "oneOf"].iter().any(|k| m.contains_key(*k))
    })
}

/// Why keyword `k` of the subschema at `node` cannot be dropped though it only narrows that
/// subschema: accepting more there makes the schema accept less, or other values
/// ([`widening_narrows`]); `None` when it may be (an annotation or a key no validator reads
/// changes nothing wherever it is). Callers ask [`holds_narrowing`] of the schema first.
pub(crate) fn narrowing_drop(root: &Value, node: &str, k: &str) -> Option<String> {
    if !crate::schema::is_keyword(k) || ANNOTATIONS.contains(&k) {
        return None;
    }
    let why = widening_narrows(root, node)?;
    Some(format!(
        "dropping `{k}` there would not just accept more: {why}, refusing arguments the schema \
         accepts"
    ))
}

/// [`narrowing_drop`] for `tool`'s schema.
pub(crate) fn drop_refused(tool: &Tool, node: &str, k: &str) -> Option<String> {
    let root = tool.parameters.as_ref()?;
    holds_narrowing(root)
        .then(|| narrowing_drop(root, node, k))
        .flatten()
}

/// What a subschema accepting more means at the place entered by keyword `k` whose value is
/// `v`, where that is not simply "the schema accepts more": inside a `not` it excludes more;
/// in an `if`, values it sent to `else` take `then`; in a branch of a `oneOf` whose branches
/// may overlap ([`keywords::branches_exclusive`]), a value two branches then match is refused.
/// The keyword and the words for why.
fn turned_by(k: &str, v: &Value) -> Option<(&'static str, &'static str)> {
    match k {
        "not" => Some(("not", "which would then exclude more values")),
        "if" => Some(("if", "so values it sends to `else` would take `then`")),
        "oneOf"
            if v.as_array()
                .is_some_and(|b| b.len() > 1 && !keywords::branches_exclusive(b)) =>
        {
            Some((
                "oneOf",
                "whose branches may overlap: a value two of them then match is refused",
            ))
        }
        _ => None,
    }
}

/// Where a schema accepting more at `node` (a narrowing keyword dropped there) makes `root`
/// accept less, or other values ([`turned_by`]): `node` is inside such a place, or in a
/// definition, or a subschema that names itself ([`crate::schema::names_itself`]: an
/// `$anchor`, an `$id`), that a `$ref` inside one reaches ([`named_from_turned`]). A `$ref`
/// by JSON Pointer to another kind of place (`#/properties/a`) is not looked for. The words
/// say where, for a refusal; `None` where accepting more at `node` only accepts more.
fn widening_narrows(root: &Value, node: &str) -> Option<String> {
    let branch = |k: &str| if k == "oneOf" { "a branch of " } else { "" };
    let mut named = None;
    // The value reached (`None` where the schema has no such place), one step further each
    // time: resolving each step's place from the root again made a place at depth d cost d²
    // tokens read, and a check asks this of every keyword below a `oneOf` (a chain of 100
    // objects in one took a minute to compile for deepseek/beta-strict, debug build: trial
    // 66 D2). The place is written out only for the words.
    let steps = place::steps(node);
    let mut reached = Some(root);
    for (n, step) in steps.iter().enumerate() {
        let (Step::Applicator(k) | Step::Keyword(k, _) | Step::Member(k, _) | Step::Element(k, _)) =
            step;
        let value = crate::json::child(reached?, k)?;
        if let Some((k, why)) = turned_by(k, value) {
            let here = keyword_place(&steps[..=n]);
            return Some(format!("it is in {}the `{k}` at {here}, {why}", branch(k)));
        }
        reached = match step {
            Step::Member(_, name) => crate::json::child(value, name),
            Step::Element(_, i) => crate::json::child(value, &i.to_string()),
            _ => Some(value),
        };
        let definition = matches!(k.as_str(), "$defs" | "definitions");
        let names_itself = reached.is_some_and(crate::schema::names_itself);
        if (definition || names_itself)
            && let Some((k, why)) = *named.get_or_insert_with(|| named_from_turned(root, node))
        {
            let what = if definition {
                "its definition is named"
            } else {
                "a schema holding it is reached"
            };
            return Some(format!("{what} by a `$ref` in {}a `{k}`, {why}", branch(k)));
        }
    }
    None
}

/// The JSON Pointer of the keyword the last of `steps` (read from the root) enters by.
fn keyword_place(steps: &[Step]) -> String {
    let mut at = String::new();
    let mut push = |token: &str| {
        at.push('/');
        at.push_str(&crate::json::escape_token(token));
    };
    for (n, step) in steps.iter().enumerate() {
        let (Step::Applicator(k) | Step::Keyword(k, _) | Step::Member(k, _) | Step::Element(k, _)) =
            step;
        push(k);
        match step {
            _ if n + 1 == steps.len() => {}
            Step::Member(_, name) => push(name),
            Step::Element(_, i) => push(&i.to_string()),
            _ => {}
        }
    }
    at
}

/// What [`turned_by`] says of a place: its keyword and the words for why.
type Turn = (&'static str, &'static str);

/// The place ([`turned_by`]) holding a `$ref` that reaches `node`: whose target, resolved as
/// validators resolve it (a JSON Pointer, an `$anchor`, an `$id`, in the resource around the
/// `$ref`: [`crate::schema::refs::step_from`]), holds `node`, or holds a `$ref` that does,
/// and so on (each target looked into once).
fn named_from_turned(root: &Value, node: &str) -> Option<Turn> {
    let mut named = Vec::new();
    turned_refs(root, String::new(), None, &mut named);
    let mut seen = std::collections::HashSet::new();
    while let Some((from, reference, turn)) = named.pop() {
        let crate::schema::refs::Step::Local(target, at) =
            crate::schema::refs::step_from(root, &from, reference)
        else {
            continue;
        };
        if crate::schema::at_or_inside(node, &at) {
            return Some(turn);
        }
        if seen.insert(at.clone()) {
            turned_refs(target, at, Some(turn), &mut named);
        }
    }
    None
}

/// Every string `$ref` in `v` (at document pointer `at`) inside a [`turned_by`] place, or
/// anywhere when `inside` is one: the pointer of the object holding it, its text, and the
/// place's [`Turn`].
fn turned_refs<'v>(
    v: &'v Value,
    at: String,
    inside: Option<Turn>,
    out: &mut Vec<(String, &'v str, Turn)>,
) {
    let mut stack = vec![(v, at, inside)];
    while let Some((v, at, inside)) = stack.pop() {
        match v {
            Value::Object(m) => {
                if let (Some(turn), Some(Value::String(r))) = (inside, m.get("$ref")) {
                    out.push((at.clone(), r, turn));
                }
                for (k, x) in m {
                    let turn = turned_by(k, x).or(inside);
                    stack.push((x, crate::json::push_token(&at, k), turn));
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    stack.push((x, crate::json::push_token(&at, &i.to_string()), inside));
                }
            }
            _ => {}
        }
    }
}

/// [`drop_keyword_read`] where the profile is not at hand: a number string's rewrite names no
/// provider, words true under any profile.
fn drop_keyword(tool: &Tool, rule: &str, node: &str, k: &str, describe: bool) -> Found {
    drop_keyword_read(tool, rule, node, k, describe, StringsRead::Unnamed)
}

/// Who the words of a number string's rewrite ([`drop_keyword_read`]) name as reading the
/// string: Gemini, only where a target of the profile reads Gemini's `Schema` message
/// ([`reads_gemini_schema`]); else no provider (under `anthropic/messages` the rewrite of
/// `minimum: "1"` spoke of "Gemini's double string", which that target never reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum StringsRead {
    Gemini,
    Unnamed,
}

impl StringsRead {
    /// [`StringsRead::Gemini`] where a target of `profile` reads Gemini's `Schema`.
    pub(super) fn under(profile: &CompiledProfile) -> StringsRead {
        if profile.targets.iter().any(|t| reads_gemini_schema(t)) {
            StringsRead::Gemini
        } else {
            StringsRead::Unnamed
        }
    }
}

/// Whether target `t` takes a tool's schema as Gemini's `Schema` message (protobuf, whose JSON
/// reads an int64 or a double from a string: [`crate::args::number_string_of`]): the
/// `parameters` field of the Gemini API and of Vertex AI, and the offline snapshot of that
/// message. Not `parametersJsonSchema`, which is JSON Schema.
fn reads_gemini_schema(t: &str) -> bool {
    matches!(
        t,
        "gemini/v1beta/parameters"
            | "vertex/v1/parameters"
            | "engine/gemini-proto-snapshot/parameters"
    )
}

/// [`drop_keyword`], a number string's rewrite naming its reader as `read` says.
pub(super) fn drop_keyword_read(
    tool: &Tool,
    rule: &str,
    node: &str,
    k: &str,
    describe: bool,
    read: StringsRead,
) -> Found {
    let map = schema_at(tool, node)?;
    let v = map
        .get(k)
        .ok_or_else(|| format!("no `{k}` at {node:?}"))?
        .clone();
    let at = crate::json::push_token(node, k);
    // Gemini's int64 string for a count (`"maxItems": "3"`) is that count, and its double
    // string for a bound (`"minimum": "1"`) that number, as `toolwire args` reads them:
    // written as the number, nothing is lost (trial 71 D6: they were dropped as no valid
    // bound, "0 losses", and the repaired schema took 4 items). Where the keyword itself must
    // go, it goes as that number: said and lost as any bound is.
    if let Some(n) = crate::args::number_string_of(map, k) {
        let count = crate::args::is_int64_count(k);
        let (what, spelling) = if count {
            ("count", "int64")
        } else {
            ("number", "double")
        };
        let number = Value::Number(n);
        let (whose, written) = match read {
            StringsRead::Gemini => (
                format!(
                    "the {what} Gemini's {spelling} string spells (as `toolwire args` reads it)"
                ),
                format!(" (written `{k}: {}`, Gemini's {spelling} string)", show(&v)),
            ),
            // No target of the profile reads the string: what is true of it anywhere is that
            // it spells the number, which JSON Schema wants written as one.
            StringsRead::Unnamed => (
                format!(
                    "the {what} the string spells (JSON Schema wants {}; `toolwire args` reads \
                     the string so)",
                    if count {
                        "a non-negative integer"
                    } else {
                        "a number"
                    }
                ),
                format!(" (written `{k}: {}`, a string)", show(&v)),
            ),
        };
        // A number no double nor 64-bit integer holds (`"12345678901234567.5"`, 21 digits) is
        // written as the double nearest it: another number, said as a loss, never silently.
        let moved = v
            .as_str()
            .filter(|text| match &number {
                Value::Number(n) => !crate::args::spells_same_number(text, n),
                _ => false,
            })
            .map(|text| {
                format!(
                    "`{k}: {}` spells {text}, which neither a 64-bit integer nor a 64-bit \
                     float holds (the numbers toolwire writes): it is written as the float \
                     nearest it, {number}, another bound",
                    show(&v)
                )
            });
        let action = if moved.is_some() {
            format!(
                "wrote `{k}: {}` as `{k}: {number}`, the 64-bit float nearest the number the \
                 string spells",
                show(&v)
            )
        } else {
            format!("wrote `{k}: {}` as `{k}: {number}`, {whose}", show(&v))
        };
        // A number repair may not drop here still has the lossless rewrite.
        let mut found =
            rewritten_then_dropped(tool, rule, node, k, &number, action, &written, describe)?;
        if let (Some(moved), Some(first)) = (moved, found.first_mut())
            && let Some(c) = first.changes.iter_mut().find(|c| c.pointer == at)
            && c.lost.is_none()
        {
            c.lost = Some(moved);
        }
        return Ok(found);
    }
    if let Some(need) = keyword_value_invalid::wanted(k, &v) {
        // Not a value the keyword takes: nothing to say in the description, and nothing is
        // lost that a validator would have enforced; but a bound written as a string other
        // than the number strings above (`"02"`, `"NaN"`, `"multipleOf": "2"`) may be one a
        // provider reads as a number, so dropping it is a loss, never silent.
        // Nor where the keyword constrains no type the schema takes: read as a number or not,
        // it refused no argument (said only where a loss would otherwise be).
        let bound = keyword_value_invalid::is_bound(k);
        let what = if bound { "bound" } else { "value" };
        let off = (bound && v.is_string()).then(|| off_type(map, k)).flatten();
        let lost =
            (bound && v.is_string() && off.is_none()).then(|| string_bound_lost(k, &v, read));
        let t = edited(tool, node, |m| {
            m.shift_remove(k);
        })?;
        let mut action = format!(
            "dropped `{k}: {}`, which is not a valid {what} (JSON Schema wants {need})",
            show(&v)
        );
        if let Some(why) = off {
            action.push_str(&format!(" and {why}: nothing it enforced is lost"));
        }
        return Ok(vec![Candidate::one(t, &at, rule, action, lost)]);
    }
    drop_valued(tool, rule, node, k, &v, describe)
}

/// The loss of dropping bound `k` written as string `v` that
/// [`crate::args::number_string_of`] does not read: a provider reading a number in it may have
/// enforced it, while `toolwire args` refuses the schema for it.
///
/// A number string at `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` (or another bound
/// Gemini's `Schema` has no field for) is dropped, not written as its number as `minimum: "1"`
/// is: the one reading of a bound from a string the evidence shows is
/// protobuf's JSON reading Gemini's double fields (`engine/gemini-proto-snapshot/parameters`
/// accepts `minimum: "1"`, `src/engine/proto/gemini_v1beta.proto`), and that `Schema` has no
/// such field, so Gemini's `parameters` refuses the keyword whatever its value; JSON Schema
/// wants a number (2020-12 validation §6.2), and the validating engines probed and Anthropic's
/// report refuse a string bound (`keywords/minimum-string-nested`). No target is known to have enforced the number, so repair does not enforce it
/// either; the loss says the author may have meant it. Gemini is named only where `read` says a
/// target of the profile reads its `Schema` (under `anthropic/messages` the loss spoke of
/// "Gemini's double", which that target never reads).
fn string_bound_lost(k: &str, v: &Value, read: StringsRead) -> String {
    let gemini = read == StringsRead::Gemini;
    let why = if crate::args::is_int64_count(k) && gemini {
        "a count written as a string that is no canonical integer: a provider reading it as \
         Gemini's int64 may have enforced it"
            .to_string()
    } else if crate::args::is_int64_count(k) {
        "a count written as a string that is no canonical integer (JSON Schema wants a \
         non-negative integer): a provider reading a number from it may have enforced it"
            .to_string()
    } else if crate::args::is_double_bound(k)
        && v.as_str().is_some_and(crate::args::json_number_text)
    {
        // `"1E400"`: a number's spelling, which no double holds, and no JSON number repair
        // could write holds its value either.
        "a bound written as a string holding a number past a 64-bit float's range, which no \
         finite number written in its place keeps: a provider reading it as a number may have \
         enforced it"
            .to_string()
    } else if crate::args::is_double_bound(k) && gemini {
        "a bound written as a string that is no JSON number: a provider reading it as Gemini's \
         double (protobuf's JSON also takes \"NaN\" and \"Infinity\") may have enforced it"
            .to_string()
    } else if crate::args::is_double_bound(k) {
        "a bound written as a string that is no JSON number (JSON Schema wants a number): a \
         provider reading a number from it may have enforced it"
            .to_string()
    } else if gemini {
        format!(
            "a bound written as a string, not read as a number: `{k}` is no field of Gemini's \
             `Schema` (whose double `minimum` and `maximum` are the bounds read from strings) \
             and JSON Schema wants a number; a provider reading a number in it may have \
             enforced it"
        )
    } else {
        "a bound written as a string, not read as a number (JSON Schema wants a number): a \
         provider reading a number in it may have enforced it"
            .to_string()
    };
    format!(
        "`{k}: {}`, {why} (`toolwire args` refuses the original schema for it)",
        show(v)
    )
}

/// Keyword `k` at `node` written as `value`, a rewrite that loses nothing (said as `action`);
/// then, for a profile that rejects the keyword itself, the drops of that value
/// ([`drop_valued`]), each saying after its action how the keyword was `written`.
#[allow(clippy::too_many_arguments)]
fn rewritten_then_dropped(
    tool: &Tool,
    rule: &str,
    node: &str,
    k: &str,
    value: &Value,
    action: String,
    written: &str,
    describe: bool,
) -> Found {
    let t = edited(tool, node, |m| {
        m.insert(k.to_string(), value.clone());
    })?;
    let at = f_at(node, k);
    let mut out = vec![Candidate::one(t, &at, rule, action, None)];
    if let Ok(dropped) = drop_valued(tool, rule, node, k, value, describe) {
        for mut c in dropped {
            c.changes
                .iter_mut()
                .filter(|c| c.pointer == at)
                .for_each(|c| c.action.push_str(written));
            out.push(c);
        }
    }
    Ok(out)
}

/// The candidates dropping keyword `k`, read as `v`, from the subschema at `node`: said in
/// the description (when `describe` and it narrows), or plainly, each with its loss and with
/// the keywords resting on it ([`resting_on`], [`resting_above`]).
fn drop_valued(tool: &Tool, rule: &str, node: &str, k: &str, v: &Value, describe: bool) -> Found {
    let map = schema_at(tool, node)?;
    let at = crate::json::push_token(node, k);
    let annotation = ANNOTATIONS.contains(&k);
    let standard = crate::schema::is_keyword(k);
    if let Some(why) = drop_refused(tool, node, k) {
        return Err(why);
    }
    // A resource's `$id` (draft-04: `id`) is the base its `$ref`s resolve against (2020-12
    // core §8.2.1): without it one may name another schema, which is no lost annotation but
    // another meaning (trial 57 D5: `$ref: "#/$defs/B"` beside it went from the resource's own
    // `B` to the root's, verdicts inverted, exit 0).
    if matches!(k, "$id" | "id")
        && let Some(root) = tool.parameters.as_ref()
        && let Some(place) = crate::repair::refs::moved_ref_without(root, node, k)
    {
        return Err(format!(
            "the `$ref` at {place} resolves against this `{k}`, and without it would name \
             another schema or none; inline that `$ref` first"
        ));
    }
    let said = phrase(k, v, map);
    let inert = tool
        .parameters
        .as_ref()
        .and_then(|root| inert_in_draft(root, map, k))
        .or_else(|| off_type(map, k));
    let lost = if !standard || inert.is_some() {
        None
    } else if annotation {
        Some(format!("the annotation `{k}: {}`", show(v)))
    } else {
        Some(format!(
            "the provider no longer enforces `{k}: {}` (`toolwire args` still checks it against the original schema)",
            show(v)
        ))
    };
    // What rests on `k` goes with it, each dropped with its own loss.
    let mut resting = resting_on(k, map, node, &format!("`{k}`"));
    resting.extend(resting_above(tool, node, k));
    let dropped = |extra: &dyn Fn(&mut Map<String, Value>)| -> Result<Draft<'_>, String> {
        let mut d = Draft::of(tool);
        let m = d.schema(node)?;
        m.shift_remove(k);
        extra(m);
        for r in &resting {
            d.schema(&r.at)?.shift_remove(r.keyword.as_str());
        }
        Ok(d)
    };
    let with_resting = |first: Change| {
        let mut changes = vec![first];
        changes.extend(resting.iter().map(|r| {
            let (d, dv, on) = (&r.keyword, show(&r.value), &r.on);
            let at = crate::json::push_token(&r.at, d);
            // Resting on a keyword the draft never runs, it never ran either.
            let enforced = inert.is_none();
            // No finding asked for it (no rule): `compile` does not call it the target's.
            if let Some(when) = conditional_branch(d) {
                // What the conditional required is said with its condition: the `if`'s own
                // loss names only the condition, which alone requires nothing (trial 88 D1).
                let asserts = !crate::schema::asserts_nothing(&r.value, only_annotates);
                return change(
                    &at,
                    "",
                    format!(
                        "{} it applies only where `if` {when}, and without `if` it means nothing",
                        dropped_too(d, &r.value)
                    ),
                    (enforced && asserts).then(|| {
                        format!(
                            "the provider no longer enforces `{d}: {dv}` where `if: {}` {when} \
                             (`toolwire args` still checks it against the original schema)",
                            show(v)
                        )
                    }),
                );
            }
            change(
                &at,
                "",
                format!(
                    "{} it rests on {on}, and kept it would apply to what that keyword covered, \
                     refusing values the schema accepts",
                    dropped_too(d, &r.value)
                ),
                enforced.then(|| {
                    format!(
                        "the provider no longer enforces `{d}: {dv}` (`toolwire args` still \
                         checks it against the original schema)"
                    )
                }),
            )
        }));
        changes
    };
    let mut out = Vec::new();
    // A keyword the draft never runs is no constraint to tell the model of.
    if describe
        && inert.is_none()
        && let Some(said) = said
    {
        let t = dropped(&|m| note(m, &said))?;
        out.push(Candidate::many(
            t,
            with_resting(change(
                &at,
                rule,
                format!(
                    "dropped `{k}: {}`, said in the description as \"{}\"",
                    show(v),
                    sentence(&said)
                ),
                lost.clone()
                    .map(|l| l.replace("the annotation", "nothing but the wording of")),
            )),
        ));
    }
    let t = dropped(&|_| {})?;
    let action = if let Some(why) = &inert {
        format!(
            "dropped `{k}: {}`, which {why}: nothing it enforced is lost",
            show(v)
        )
    } else if standard {
        format!("dropped `{k}: {}`", show(v))
    } else {
        format!("dropped `{k}`, which is not a JSON Schema keyword")
    };
    out.push(Candidate::many(
        t,
        with_resting(change(&at, rule, action, lost)),
    ));
    Ok(out)
}

/// Why the draft the schema `root` declares never runs keyword `k` of its subschema `map`, as
/// `toolwire args` reads it (the jsonschema crate's draft, from the root's `$schema`), in
/// words following "which": drafts 04 to 07 ignore every keyword beside a `$ref` (draft-07
/// core §8.3, [`crate::repair::refs::ref_siblings_apply`]), and a draft has no keyword defined
/// after it ([`crate::schema::in_place::draft_has`]: `if`/`then`/`else` before draft-07,
/// `dependentSchemas` before 2019-09). `None` where it runs, and for keywords that assert
/// nothing there either (`$schema`, `$id`, definitions, annotations): dropping such a `k`
/// loses nothing a validator enforced (session 52: a draft-07 `not` beside a `$ref` was
/// dropped with "the provider no longer enforces" it).
fn inert_in_draft(root: &Value, map: &Map<String, Value>, k: &str) -> Option<String> {
    use jsonschema::Draft;
    if only_annotates(k) || ["$schema", "$id", "id", "$defs", "definitions", "$ref"].contains(&k) {
        return None;
    }
    let draft = Draft::Draft202012.detect(root);
    let name = match draft {
        Draft::Draft4 => "draft-04",
        Draft::Draft6 => "draft-06",
        Draft::Draft7 => "draft-07",
        _ => return None,
    };
    if map.contains_key("$ref") && !crate::repair::refs::ref_siblings_apply(root) {
        return Some(format!(
            "{name} (the root's `$schema`) ignores beside `$ref`"
        ));
    }
    (!crate::schema::in_place::draft_has(draft, k))
        .then(|| format!("{name} (the root's `$schema`) does not have"))
}

/// The JSON types validation keyword `k` constrains (JSON Schema 2020-12 validation §6.2 to
/// §6.5: "If the instance is a number, then ..."; an instance of another type passes it), with
/// their name in words; `None` for a keyword that constrains any type (`enum`, `const`) or is no
/// such keyword. `format` is left out: Gemini and OpenAPI give numbers formats (`int32`).
fn constrained_types(k: &str) -> Option<(&'static [&'static str], &'static str)> {
    Some(match k {
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            (&["number", "integer"], "numbers")
        }
        "minLength" | "maxLength" | "pattern" => (&["string"], "strings"),
        "minItems" | "maxItems" | "uniqueItems" | "minContains" | "maxContains" => {
            (&["array"], "arrays")
        }
        "minProperties" | "maxProperties" | "required" | "dependentRequired" => {
            (&["object"], "objects")
        }
        _ => return None,
    })
}

/// Why keyword `k` of the subschema `map` constrains no value that subschema accepts, in words
/// following "which": its `type` names only types `k` does not constrain
/// ([`constrained_types`]; `minimum` beside `type: string`), so no argument is refused by it
/// and dropping it loses nothing. Said in the description, it would read as a constraint on
/// the value that is not there ("At least 1." of a string, task B4). `None` without a `type`,
/// or with a name that is no JSON Schema type (`dict`: [`Ty::excludes`] reads it as no
/// exclusion).
///
/// [`Ty::excludes`]: crate::profile::detect::Ty::excludes
fn off_type(map: &Map<String, Value>, k: &str) -> Option<String> {
    use crate::profile::detect::Ty;
    let (types, what) = constrained_types(k)?;
    let written = map.get("type")?;
    let ty = match written {
        Value::String(s) => Ty::One(s),
        Value::Array(a) if !a.is_empty() => Ty::List(a),
        _ => return None,
    };
    types.iter().all(|t| ty.excludes(t)).then(|| {
        format!(
            "constrains only {what}, while the schema's `type` is {}",
            show(written)
        )
    })
}

/// How a change dropping `keyword: value` because what it rested on was dropped begins: a
/// caller that finds the keyword written again (`compile`'s strict closing) knows the line by it.
pub(crate) fn dropped_too(keyword: &str, value: &Value) -> String {
    format!("dropped `{keyword}: {}` too:", show(value))
}

/// A keyword dropped because one its meaning rests on was: at the schema `at`, its value, and
/// the keyword it rests on, in words (`` `patternProperties` ``).
struct Resting {
    at: String,
    keyword: String,
    value: Value,
    on: String,
}

/// The keywords beside `k` in the schema `map` at `at` whose meaning rests on `k` ([`rests`]),
/// in the schema's order, `k` named by `on`: with `k` dropped and these kept, they would apply
/// to what `k` covered and refuse values the schema accepts, while the loss said only that
/// `k` was no longer enforced (trial 51 D5: `patternProperties` dropped beside
/// `additionalProperties: false` refused `{"x1": 1}`, exit 0). The relation is followed
/// (`patternProperties` → `additionalProperties` → `unevaluatedProperties`).
fn resting_on(k: &str, map: &Map<String, Value>, at: &str, on: &str) -> Vec<Resting> {
    let mut gone: Vec<(String, String)> = Vec::new();
    let mut grew = true;
    while grew {
        grew = false;
        for d in map.keys() {
            if d == k || gone.iter().any(|(g, _)| g == d) {
                continue;
            }
            let is_gone = |key: &str| key == k || gone.iter().any(|(g, _)| g == key);
            let found = std::iter::once(k)
                .chain(gone.iter().map(|(g, _)| g.as_str()))
                .find(|o| rests(map, d, o, &is_gone))
                .map(str::to_string);
            if let Some(o) = found {
                gone.push((d.clone(), o));
                grew = true;
            }
        }
    }
    map.iter()
        .filter_map(|(d, v)| {
            let (_, o) = gone.iter().find(|(g, _)| g == d)?;
            Some(Resting {
                at: at.to_string(),
                keyword: d.clone(),
                value: v.clone(),
                on: if o == k {
                    on.to_string()
                } else {
                    format!("`{o}`")
                },
            })
        })
        .collect()
}

/// The `unevaluatedProperties`/`unevaluatedItems` of the schemas around `node` whose meaning
/// rests on `k` there: the annotations of an `allOf`/`anyOf`/`oneOf` branch, an `if`, `then`,
/// `else`, a `dependentSchemas` entry, or a schema a `$ref` leads to, reach the `unevaluated*`
/// of the schema holding it (or the `$ref`), and of the one holding that, in turn (trial 52
/// D1: an `if` dropped in an `allOf` branch, or in a definition a `$ref` names, left the
/// `unevaluatedProperties: false` around it refusing what its `then` declared). Not a
/// schema-form `dependencies` member: the validator `toolwire args` uses counts none of its
/// annotations for `unevaluatedProperties` (as `args`' `declared_in_place` reads it), so
/// nothing around it rests on what it holds.
fn resting_above(tool: &Tool, node: &str, k: &str) -> Vec<Resting> {
    // Asked at every drop: most drop a keyword no `unevaluated*` rests on (`format`, a bound),
    // and most schemas have no `unevaluated*`; neither walks the schema.
    let evaluates = [IN_PLACE, OF_MEMBERS, OF_ITEMS]
        .iter()
        .any(|l| l.contains(&k));
    let Some(root) = tool
        .parameters
        .as_ref()
        .filter(|root| evaluates && holds_unevaluated(root))
    else {
        return Vec::new();
    };
    let on = format!("`{k}` at {node}");
    let mut out: Vec<Resting> = Vec::new();
    let mut seen: std::collections::HashSet<String> = [node.to_string()].into();
    let mut queue = vec![node.to_string()];
    while let Some(here) = queue.pop() {
        let tokens: Vec<&str> = here.rsplitn(3, '/').collect();
        let holder = match tokens.as_slice() {
            [i, "allOf" | "anyOf" | "oneOf", rest] if i.parse::<usize>().is_ok() => Some(*rest),
            [_, "dependentSchemas", rest] => Some(*rest),
            [last @ ("if" | "then" | "else"), ..] => Some(&here[..here.len() - last.len() - 1]),
            _ => None,
        };
        let referrers = crate::schema::walk(root).nodes.into_iter().filter(|n| {
            n.object()
                .and_then(|o| o.get("$ref"))
                .and_then(Value::as_str)
                .is_some_and(|r| {
                    matches!(crate::schema::refs::step_from(root, &n.pointer, r),
                        crate::schema::refs::Step::Local(_, at) if at == here)
                })
        });
        let around: Vec<String> = holder
            .map(str::to_string)
            .into_iter()
            .chain(referrers.map(|n| n.pointer.clone()))
            .collect();
        for at in around {
            if !seen.insert(at.clone()) {
                continue;
            }
            if let Ok(map) = schema_at(tool, &at) {
                for d in ["unevaluatedProperties", "unevaluatedItems"] {
                    if rests(map, d, k, &|_| false) {
                        out.push(Resting {
                            at: at.clone(),
                            keyword: d.to_string(),
                            value: map[d].clone(),
                            on: on.clone(),
                        });
                    }
                }
                queue.push(at);
            }
        }
    }
    out
}

/// The applicators whose annotations reach an `unevaluated*` beside them, of members and items
/// alike (JSON Schema 2020-12 §10.2, §8.2.3).
const IN_PLACE: &[&str] = &[
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
];

/// The keywords whose annotations say which members an `unevaluatedProperties` beside them
/// has left to cover (§10.3.2).
const OF_MEMBERS: &[&str] = &[
    "properties",
    "patternProperties",
    "additionalProperties",
    "dependentSchemas",
];

/// The keywords whose annotations say which items an `unevaluatedItems` beside them has left
/// to cover (§10.3.1, §11.2).
const OF_ITEMS: &[&str] = &["prefixItems", "items", "additionalItems", "contains"];

/// Whether any schema in `v` has an `unevaluatedProperties` or `unevaluatedItems` key; no
/// allocation, nesting walked with a stack of borrowed values.
fn holds_unevaluated(v: &Value) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                if o.contains_key("unevaluatedProperties") || o.contains_key("unevaluatedItems") {
                    return true;
                }
                stack.extend(o.values());
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    false
}

/// Whether keyword `d` of the schema `map` rests on keyword `on` (JSON Schema 2020-12 §10.3.2,
/// §11), where `gone` says which keywords of `map` are dropped: `additionalProperties` covers
/// the members `properties` and `patternProperties` do not, `items` the positions past
/// `prefixItems`, `additionalItems` those past an `items` list, and `unevaluatedProperties` /
/// `unevaluatedItems` whatever no applicator evaluated, unless an `additionalProperties` (or
/// `items`) kept beside them still evaluates all the rest. One accepting every value rests on
/// nothing, but for `then` and `else`, which rest on `if` whatever they hold.
fn rests(map: &Map<String, Value>, d: &str, on: &str, gone: &dyn Fn(&str) -> bool) -> bool {
    let Some(value) = map.get(d) else {
        return false;
    };
    let kept = |key: &str| map.contains_key(key) && !gone(key);
    let items_list = map.get("items").is_some_and(Value::is_array);
    // Without `if`, `then` and `else` are ignored (2020-12 core §10.2.2.2-3), whatever they
    // hold: kept, they are dead keywords a check of the output warns about as repair's.
    if matches!(d, "then" | "else") {
        return on == "if";
    }
    !crate::schema::asserts_nothing(value, only_annotates)
        && match d {
            "additionalProperties" => ["properties", "patternProperties"].contains(&on),
            "items" => !value.is_array() && on == "prefixItems",
            "additionalItems" => items_list && on == "items",
            "unevaluatedProperties" => {
                !kept("additionalProperties")
                    && (IN_PLACE.contains(&on) || OF_MEMBERS.contains(&on))
            }
            "unevaluatedItems" => {
                !(kept("items") && !items_list || kept("additionalItems"))
                    && (IN_PLACE.contains(&on) || OF_ITEMS.contains(&on))
            }
            _ => false,
        }
}

/// When the branch `d` of a conditional applies, in words following "where `if`": `then`
/// where it holds, `else` where it fails (2020-12 core §10.2.2.2-3); `None` for another keyword.
fn conditional_branch(d: &str) -> Option<&'static str> {
    match d {
        "then" => Some("holds"),
        "else" => Some("fails"),
        _ => None,
    }
}

fn f_at(node: &str, k: &str) -> String {
    crate::json::push_token(node, k)
}

/// Makes the property at `pointer` optional (drops it from its object's `required`) to drop
/// the null it accepted. Returns the loss to report: [`OPTIONAL_LOSS`], or
/// [`REQUIRED_NULL_LOSS`] when the property was required; `None` when `pointer` is not a
/// property.
fn make_optional(t: &mut Draft<'_>, pointer: &str) -> Option<&'static str> {
    let (parent, name) = place::property_of(pointer)?;
    let obj = t.view(&parent).ok()?;
    let mut lost = OPTIONAL_LOSS;
    if let Some(Value::Array(req)) = obj.get("required") {
        let kept: Vec<Value> = req
            .iter()
            .filter(|r| r.as_str() != Some(name.as_str()))
            .cloned()
            .collect();
        if kept.len() < req.len() {
            lost = REQUIRED_NULL_LOSS;
        }
        let kept = (!kept.is_empty()).then_some(Value::Array(kept));
        t.set_member(&parent, "required", kept).ok()?;
    }
    Some(lost)
}

/// The loss of a rewrite that dropped the null a schema accepted where no argument can be left
/// out for it (an array item, a branch) and the profile does not accept `nullable: true`.
pub(crate) const NULL_DROPPED_LOSS: &str = "null is no longer accepted here: `nullable: true`, the other way to say it, is not read by every target of the profile (JSON Schema has no such keyword)";

/// The loss of a rewrite that made an argument optional to drop the null it accepted.
pub(crate) const OPTIONAL_LOSS: &str = "null is no longer accepted: the model leaves the argument out instead (`toolwire args` reads null for an optional argument as absent)";

/// [`OPTIONAL_LOSS`] for an argument that was required: the original schema refuses a call
/// that leaves it out (`toolwire args` answers "required argument is missing"; it maps absent
/// to null for no argument), so what the model now sends for null must be put back (trial 56
/// D4: the optional argument's text promised a mapping `args` does not make).
pub(crate) const REQUIRED_NULL_LOSS: &str = "null is no longer accepted, and the argument is no longer required: the model leaves it out to mean null, and the original schema refuses such a call (`toolwire args` reports the required argument missing, as a server validating that schema would), so the caller must put the null back";

/// Whether `lost` is the loss of a rewrite that made an argument optional to drop its null
/// ([`OPTIONAL_LOSS`], [`REQUIRED_NULL_LOSS`]).
pub(crate) fn made_optional_for_null(lost: Option<&str>) -> bool {
    lost.is_some_and(|l| l == OPTIONAL_LOSS || l == REQUIRED_NULL_LOSS)
}

/// The tool-name rule for repairing names under `profile`: the documented rules of the
/// profile's targets ([`crate::names::for_target`], their intersection), further narrowed by
/// the profile's evidence: a name character, a leading character or a length the evidence
/// rejects is not used even where a document allows it.
pub fn name_rule(profile: &CompiledProfile) -> crate::names::NameRule {
    use crate::case::Placement;
    use crate::names::{FirstChar, NameRule};
    let rejected =
        |feat: Feat<'_>| matches!(profile.lookup(&feat, Placement::Tool), Slot::Rejected(_));
    let documented: Vec<NameRule> = profile
        .targets
        .iter()
        .map(|t| crate::names::for_target(t))
        .collect();
    let doc =
        NameRule::intersection(&profile.name, &documented).unwrap_or_else(crate::names::portable);
    let punctuation: String = [
        ('_', value::NAME_UNDERSCORE),
        ('-', value::NAME_HYPHEN),
        ('.', value::NAME_DOT),
        (':', value::NAME_COLON),
    ]
    .iter()
    .filter(|(c, kind)| doc.punctuation.contains(*c) && !rejected(Feat::NameChars(kind)))
    .map(|(c, _)| *c)
    .collect();
    // A rejected leading digit, hyphen, dot or colon all narrow the start to the one rule
    // names have for it: a letter or `_` (what every documented first-character rule says).
    let first = if doc.first == FirstChar::LetterOrUnderscore
        || [
            value::NAME_LEADING_DIGIT,
            value::NAME_LEADING_HYPHEN,
            value::NAME_LEADING_DOT,
            value::NAME_LEADING_COLON,
        ]
        .iter()
        .any(|kind| rejected(Feat::NameChars(kind)))
    {
        FirstChar::LetterOrUnderscore
    } else {
        FirstChar::Any
    };
    let evidence_len = max_allowed(profile, Limit::NameLength).unwrap_or(doc.max_len);
    NameRule {
        scope: profile.name.clone(),
        max_len: doc.max_len.min(evidence_len).clamp(16, 1024),
        punctuation,
        first,
        source: format!(
            "{}; narrowed by the `{}` profile's evidence",
            doc.source, profile.name
        ),
        assumed: doc.assumed,
    }
}

/// The largest value of `limit` the profile has no rejecting evidence for (`None` when even
/// 1 is rejected). The profile's limit statuses only get worse as the value grows.
pub fn max_allowed(profile: &CompiledProfile, limit: Limit) -> Option<usize> {
    largest(profile, limit, |slot| !matches!(slot, Slot::Rejected(_)))
}

/// The largest value of `limit` the profile allows (below its smallest case, or at most a case
/// every target of the profile has accepting evidence for), at which `check` reports nothing:
/// a value with no evidence either way draws its warning (`None` when even 1 is not allowed).
pub fn max_quiet(profile: &CompiledProfile, limit: Limit) -> Option<usize> {
    largest(profile, limit, |slot| slot == Slot::Allowed)
}

/// The largest value of `limit` whose status passes `ok` (`None` when 1 does not), by halving:
/// the statuses only get worse as the value grows.
fn largest(profile: &CompiledProfile, limit: Limit, ok: impl Fn(Slot) -> bool) -> Option<usize> {
    let ok = |n: usize| ok(profile.lookup(&Feat::Limit(limit, n), crate::case::Placement::Tool));
    if !ok(1) {
        return None;
    }
    let (mut lo, mut hi) = (1usize, 1usize << 24);
    if ok(hi) {
        return Some(hi);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

#[cfg(test)]
mod appended_tests {
    use super::appended;

    #[test]
    fn a_description_is_continued_as_its_last_sentence_allows() {
        for (d, joined) in [
            ("", "Format: email."),
            ("Contact address", "Contact address. Format: email."),
            ("Contact address.", "Contact address. Format: email."),
            ("Contact address:", "Contact address: Format: email."),
            ("Contact address;  ", "Contact address; Format: email."),
            (
                "Where to write (see below.)",
                "Where to write (see below.) Format: email.",
            ),
            ("Say \"hi.\"", "Say \"hi.\" Format: email."),
            ("Where (the office)", "Where (the office). Format: email."),
        ] {
            assert_eq!(appended(d, "Format: email."), joined, "{d:?}");
        }
    }
}
