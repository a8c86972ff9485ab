//! A profile compiled for lookups: one hash lookup per feature met, no allocation unless the
//! feature is not allowed.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use super::derive::FALLBACK;
use super::feature::{
    Feat, Kind, Limit, Param, STANDARD_TYPES, parse_parameter, standard_type_index as standard_type,
};
use super::keyword;
use super::rules::HookLists;
use super::{Profile, Status, TargetEvidence};
use crate::case::Placement;
use crate::check::{Level, Text};

/// A feature's status at one placement. The index points into the profile's details.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Allowed,
    Rejected(u32),
    Unknown(u32),
}

impl Slot {
    fn rank(self) -> u8 {
        match self {
            Slot::Allowed => 0,
            Slot::Unknown(_) => 1,
            Slot::Rejected(_) => 2,
        }
    }

    fn worst(self, other: Slot) -> Slot {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }
}

/// A small multiplicative hasher for the profile's short string keys (keyword names, type
/// spellings). The keys come from our own profile file, not from an adversary, so a keyed
/// hash buys nothing here and SipHash showed up in profiles.
#[derive(Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            h = (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        for &b in chunks.remainder() {
            h = (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        self.0 = h;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type Map<V> = HashMap<Box<str>, V, BuildHasherDefault<KeyHasher>>;
/// A feature's slot at each placement.
type Slots = [Option<Slot>; PLACEMENTS];
/// The forms of one keyword and their slots.
type Forms = Vec<(Box<str>, Slots)>;

/// Index of the "no case covers it" detail.
pub(crate) const NO_CASE: u32 = u32::MAX;

/// Index of the "toolwire's own cap" detail: a [`Slot::Rejected`] of it is an error no
/// target's evidence stands behind, made by a rule that holds a schema to a limit of
/// toolwire's own (`ref-expansion-exceeded`), so no case or evidence is looked up for it.
pub(crate) const OWN_CAP: u32 = u32::MAX - 1;

/// Whether a slot's detail index names one of the profile's cases (not [`NO_CASE`] nor
/// [`OWN_CAP`]), so that the profile's details may be indexed with it.
pub(crate) fn is_case(i: u32) -> bool {
    i < OWN_CAP
}

/// What a finding under [`CompiledProfile::no_schema`] says instead of evidence.
const NO_SCHEMA: &str =
    "there is no schema there, whatever a target does with `$ref` (no evidence needed)";

/// Why a feature is not allowed.
#[derive(Debug, Clone)]
pub struct Detail {
    pub parameter: String,
    /// Shared with every finding it decides ([`crate::check::Finding::evidence`]).
    pub rejected_by: Arc<[TargetEvidence]>,
    pub unknown_for: Vec<String>,
    /// The sentence findings quote, made once.
    pub because: String,
    /// The parameter as findings quote it (the spelling [`Feat`]'s `Display` gives), made once
    /// and shared by every finding about it.
    pub text: Text,
    /// True when [`Detail::because`] names each target's own case (a limit value past several
    /// cases), so the explanation adds no single `(case ...)` after it.
    pub cites_cases: bool,
}

/// Placements a feature has a slot at ([`CompiledProfile::placement_index`]).
pub(crate) const PLACEMENTS: usize = 6;

fn slot_index(p: Placement) -> usize {
    match p {
        Placement::Root => 0,
        Placement::Nested => 1,
        Placement::Items => 2,
        Placement::AnyofBranch => 3,
        Placement::Tool => 4,
        Placement::Request => 5,
    }
}

#[cfg(test)]
thread_local! {
    /// The profiles compiled on this thread: a build costs more than checking a small
    /// request, so a test bounds how many a caller makes.
    pub static BUILDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A profile ready for [`super::detect::check_request`].
#[derive(Debug, Clone)]
pub struct CompiledProfile {
    pub name: String,
    pub targets: Vec<String>,
    maps: Vec<Map<[Option<Slot>; PLACEMENTS]>>,
    /// `keyword-allowed: K (form)` by keyword, then form: looked up without building the
    /// parameter string (forms such as `enum (strings)` are met on every enum).
    forms: Map<Forms>,
    /// Per limit (in [`Limit::ALL`] order): case values ascending, each with the worst status
    /// of every case value at or below it.
    limits: Vec<Vec<(usize, Slot)>>,
    details: Vec<Detail>,
    /// The slots of the keywords with an id ([`super::keyword`]) and of the standard type
    /// spellings, by position: these are met on nearly every subschema, and reading the id
    /// costs less than hashing the name.
    keywords: [Option<Slots>; keyword::COUNT],
    /// Per placement ([`slot_index`]), the keys `keyword-unsupported` passes over without a
    /// look at their values under this profile
    /// ([`super::rules::keyword_unsupported::quiet_keys`] of the keywords allowed there):
    /// made once here, not per walk, as a JSON Lines check walks one request per line.
    quiet_keywords: [u64; PLACEMENTS],
    types: [Option<Slots>; STANDARD_TYPES.len()],
    /// The slots of the `name-chars` kinds, by position in [`NAME_KINDS`]: every tool name is
    /// judged by two or more of them, and hashing the kind cost more than the rest of the
    /// lookup.
    names: [Option<Slots>; NAME_KINDS.len()],
    /// The slots of `type-missing`, asked of every `keyword-unsupported` finding
    /// ([`super::rules::Repairing::left_untyped`]).
    type_missing: Option<Slots>,
    /// The rejection of schemas the JSON Schema 2020-12 meta-schema refuses, when a target of
    /// the profile has evidence for it ([`Profile::meta_schema`]); its detail cites them.
    meta_schema: Option<Slot>,
    /// The verdict on a `$ref` that resolves to nothing where the profile has no evidence
    /// either way ([`CompiledProfile::no_schema`]).
    no_schema: Slot,
    /// The rules a check under this profile runs: all of them, unless some were turned off
    /// ([`CompiledProfile::turn_off`]).
    hooks: Option<std::sync::Arc<HookLists>>,
    /// [`CompiledProfile::id`].
    id: u64,
}

/// The last [`CompiledProfile::id`] given out.
static LAST_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

// The `name-chars` kinds are looked up by position in this list (see
// [`CompiledProfile::lookup`]): all of those the detector reports.
use super::feature::value::NAME_KINDS;

fn name_kind(k: &str) -> Option<usize> {
    // A match, not a scan of `NAME_KINDS` (whose order it keeps; a test holds the two).
    Some(match k {
        "lowercase" => 0,
        "uppercase" => 1,
        "digit" => 2,
        "underscore" => 3,
        "hyphen" => 4,
        "dot" => 5,
        "colon" => 6,
        "slash" => 7,
        "space" => 8,
        "other-punctuation" => 9,
        "non-ascii" => 10,
        "leading-digit" => 11,
        "leading-underscore" => 12,
        "leading-hyphen" => 13,
        "leading-dot" => 14,
        "leading-colon" => 15,
        "empty" => 16,
        _ => return None,
    })
}

impl CompiledProfile {
    /// True when this is `target`'s own profile: named for it (as the embedded profiles and
    /// `toolwire profile` name a target's), or spanning that one target alone (a hand-made
    /// profile). `portable` and every other target's profile are not.
    pub fn is_own(&self, target: &str) -> bool {
        self.name == target || (self.targets.len() == 1 && self.targets[0] == target)
    }

    /// Compiles a derived profile.
    pub fn new(profile: &Profile) -> CompiledProfile {
        #[cfg(test)]
        BUILDS.with(|b| b.set(b.get() + 1));
        let mut maps: Vec<Map<[Option<Slot>; PLACEMENTS]>> =
            (0..Kind::COUNT).map(|_| Map::default()).collect();
        let mut limits: Vec<Vec<(usize, Slot)>> = Limit::ALL.iter().map(|_| Vec::new()).collect();
        let mut details = Vec::new();
        for f in &profile.features {
            let parsed = parse_parameter(&f.parameter);
            let slot = match f.status {
                Status::Allowed => Slot::Allowed,
                s => {
                    details.push(Detail {
                        text: Text::from(
                            parsed
                                .as_ref()
                                .map_or_else(|| f.parameter.clone(), Param::to_string),
                        ),
                        parameter: f.parameter.clone(),
                        because: because(&f.rejected_by, &f.unknown_for, &f.judged_elsewhere),
                        rejected_by: f.rejected_by.as_slice().into(),
                        unknown_for: f.unknown_for.clone(),
                        cites_cases: false,
                    });
                    let i = (details.len() - 1) as u32;
                    if s == Status::Rejected {
                        Slot::Rejected(i)
                    } else {
                        Slot::Unknown(i)
                    }
                }
            };
            match parsed {
                Some(Param::Keyed(kind, value)) => {
                    let slots = maps[kind.index()]
                        .entry(value.into_boxed_str())
                        .or_insert([None; PLACEMENTS]);
                    let s = &mut slots[slot_index(f.placement)];
                    *s = Some(s.map_or(slot, |old| old.worst(slot)));
                }
                Some(Param::Limit(l, n)) => {
                    let list = &mut limits[Limit::ALL.iter().position(|x| *x == l).unwrap_or(0)];
                    list.push((n, slot));
                }
                None => {}
            }
        }
        let mut forms: Map<Forms> = Map::default();
        for (key, slots) in maps[Kind::KeywordForm.index()].drain() {
            if let Some((k, rest)) = key.split_once(" (") {
                let form = rest.strip_suffix(')').unwrap_or(rest);
                forms
                    .entry(k.into())
                    .or_default()
                    .push((form.into(), slots));
            }
        }
        let all_slots = maps.iter_mut().flat_map(|m| m.values_mut()).chain(
            forms
                .values_mut()
                .flat_map(|v| v.iter_mut().map(|(_, s)| s)),
        );
        for slots in all_slots {
            {
                let given = *slots;
                for p in Placement::ALL {
                    if given[slot_index(p)].is_none() {
                        slots[slot_index(p)] = FALLBACK.iter().find_map(|q| given[slot_index(*q)]);
                    }
                }
            }
        }
        for list in &mut limits {
            list.sort_by_key(|(n, s)| (*n, std::cmp::Reverse(s.rank())));
            list.dedup_by_key(|(n, _)| *n);
            accumulate(list, &mut details);
        }
        let meta_schema = (!profile.meta_schema.is_empty()).then(|| {
            let parameter = Feat::Structure(super::feature::value::META_SCHEMA_INVALID).parameter();
            details.push(Detail {
                text: Text::from(parameter.clone()),
                parameter,
                because: because(&profile.meta_schema, &[], &Default::default()),
                rejected_by: profile.meta_schema.as_slice().into(),
                unknown_for: Vec::new(),
                cites_cases: false,
            });
            Slot::Rejected((details.len() - 1) as u32)
        });
        let parameter = Feat::Structure(super::feature::value::REF_UNRESOLVED).parameter();
        details.push(Detail {
            text: Text::from(parameter.clone()),
            parameter,
            because: NO_SCHEMA.into(),
            rejected_by: Arc::from([]),
            unknown_for: Vec::new(),
            cites_cases: false,
        });
        let no_schema = Slot::Rejected((details.len() - 1) as u32);
        let keywords = &maps[Kind::Keyword.index()];
        let keywords = keyword::KEYWORDS.map(|k| keywords.get(k).copied());
        let mut quiet_keywords = [0u64; PLACEMENTS];
        for (p, quiet) in quiet_keywords.iter_mut().enumerate() {
            let allowed = keywords.iter().enumerate().fold(0u64, |bits, (id, slots)| {
                match slots.and_then(|s| s[p]) {
                    Some(Slot::Allowed) => bits | 1 << id,
                    _ => bits,
                }
            });
            *quiet = super::rules::keyword_unsupported::quiet_keys(allowed);
        }
        let spellings = &maps[Kind::TypeSpelling.index()];
        let mut types = [None; STANDARD_TYPES.len()];
        for (slots, t) in types.iter_mut().zip(STANDARD_TYPES) {
            *slots = spellings.get(*t).copied();
        }
        let name_chars = &maps[Kind::NameChars.index()];
        let names = NAME_KINDS.map(|k| name_chars.get(k).copied());
        let type_missing = maps[Kind::TypeMissing.index()].get("").copied();
        CompiledProfile {
            name: profile.name.clone(),
            targets: profile.targets.clone(),
            maps,
            forms,
            limits,
            details,
            keywords,
            quiet_keywords,
            types,
            names,
            type_missing,
            meta_schema,
            no_schema,
            hooks: None,
            id: LAST_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
        }
    }

    /// A number this profile's verdicts go by: never 0, and the same for two profiles only
    /// when one is a clone of the other (no method changes a verdict once built), so that
    /// findings kept from one check reuse what the profile said only under the same one
    /// ([`super::findings::Findings`]' memo).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// The index of `placement` in the verdicts per placement [`super::findings::Findings`]
    /// keeps, below [`PLACEMENTS`].
    pub(crate) fn placement_index(placement: Placement) -> usize {
        slot_index(placement)
    }

    /// Turns the rules `ids` off for checks under this profile (`check --ignore`): they are
    /// not run at all, so they neither report nor stand in for another rule's finding (a
    /// meta-schema error at a place only an ignored rule reported is then reported on its
    /// own, and a tool only an ignored rule rejects is still validated against the
    /// meta-schema).
    pub fn turn_off(&mut self, ids: &[impl AsRef<str>]) {
        let ids: Vec<&str> = ids.iter().map(AsRef::as_ref).collect();
        self.hooks = (!ids.is_empty()).then(|| std::sync::Arc::new(HookLists::without(&ids)));
    }

    /// The rules a check under this profile runs, grouped by hook.
    pub fn hooks(&self) -> &HookLists {
        self.hooks
            .as_deref()
            .unwrap_or_else(|| super::rules::hooks())
    }

    /// The slot of a schema the JSON Schema 2020-12 meta-schema refuses: `Some` (a rejection
    /// citing the targets' evidence) when a target of the profile rejects every such schema,
    /// `None` when none is known to (then `check` does not run the meta-schema at all).
    pub fn meta_schema(&self) -> Option<Slot> {
        self.meta_schema
    }

    /// The verdict on a local `$ref` that resolves to nothing, where the profile has no
    /// evidence either way: an error all the same, since there is no schema there for
    /// any target to read, whatever it does with `$ref` (as `compile` and `args` refuse it).
    /// Its detail says so and cites no evidence.
    pub fn no_schema(&self) -> Slot {
        self.no_schema
    }

    /// The status of `feat` at `placement`. A feature no case covers is unknown.
    pub fn lookup(&self, feat: &Feat<'_>, placement: Placement) -> Slot {
        if let Feat::Limit(l, v) = *feat {
            let list = &self.limits[Limit::ALL.iter().position(|x| *x == l).unwrap_or(0)];
            return match list.partition_point(|(n, _)| *n <= v) {
                0 => Slot::Allowed,
                i => list[i - 1].1,
            };
        }
        if let Feat::KeywordForm(k, form) = *feat {
            return self
                .forms
                .get(k)
                .and_then(|v| v.iter().find(|(f, _)| &**f == form))
                .and_then(|(_, slots)| slots[slot_index(placement)])
                .unwrap_or(Slot::Unknown(NO_CASE));
        }
        // By reference: copying the slot arrays out showed in profiles.
        let by_position = match *feat {
            Feat::Keyword(k) => keyword::id(k).map(|i| self.keywords[i as usize].as_ref()),
            Feat::TypeSpelling(t) => standard_type(t).map(|i| self.types[i].as_ref()),
            Feat::NameChars(k) => name_kind(k).map(|i| self.names[i].as_ref()),
            Feat::TypeMissing => Some(self.type_missing.as_ref()),
            _ => None,
        };
        if let Some(slots) = by_position {
            return slots
                .and_then(|s| s[slot_index(placement)])
                .unwrap_or(Slot::Unknown(NO_CASE));
        }
        let Some((kind, value)) = feat.lookup_key() else {
            return Slot::Unknown(NO_CASE);
        };
        match self.maps[kind.index()].get(value.as_ref()) {
            Some(slots) => slots[slot_index(placement)].unwrap_or(Slot::Unknown(NO_CASE)),
            None => Slot::Unknown(NO_CASE),
        }
    }

    /// [`CompiledProfile::lookup`] of `keyword-allowed: K` for `K` the keyword of id `id`
    /// ([`super::keyword`]), which the caller has read already.
    pub fn keyword_slot(&self, id: u8, placement: Placement) -> Slot {
        self.keywords[id as usize]
            .and_then(|s| s[slot_index(placement)])
            .unwrap_or(Slot::Unknown(NO_CASE))
    }

    /// Per placement ([`CompiledProfile::placement_index`]), the keys (bit `id` for the
    /// keyword of [`keyword`] id `id`) that `keyword-unsupported` passes over without reading
    /// their values: a subschema whose keys all have ids in it gets nothing from that rule's
    /// node hook, which the walk then skips.
    pub(crate) fn quiet_keywords(&self) -> [u64; PLACEMENTS] {
        self.quiet_keywords
    }

    /// [`CompiledProfile::lookup`] of `type-missing`, read by position.
    pub fn type_missing_slot(&self, placement: Placement) -> Slot {
        self.type_missing
            .and_then(|s| s[slot_index(placement)])
            .unwrap_or(Slot::Unknown(NO_CASE))
    }

    /// [`CompiledProfile::lookup`] of `type-spelling: T` for `T` the `i`-th of
    /// [`STANDARD_TYPES`], by position: the walk knows `i` from its read of `type`.
    pub fn standard_type_slot(&self, i: usize, placement: Placement) -> Slot {
        self.types
            .get(i)
            .copied()
            .flatten()
            .and_then(|s| s[slot_index(placement)])
            .unwrap_or(Slot::Unknown(NO_CASE))
    }

    /// The finding level and the evidence sentence for a slot that is not allowed.
    pub fn explain(&self, slot: Slot, feat: &Feat<'_>, _placement: Placement) -> (Level, String) {
        let mut s = String::new();
        let level = self.explain_into(slot, feat, &mut s);
        (level, s)
    }

    /// Bytes [`CompiledProfile::explain_into`] appends for `slot`, near enough to reserve.
    pub fn explanation_len(&self, slot: Slot) -> usize {
        match slot {
            Slot::Rejected(i) | Slot::Unknown(i) if is_case(i) => {
                let d = &self.details[i as usize];
                d.because.len() + d.parameter.len() + 10
            }
            _ => 80 + self.name.len(),
        }
    }

    /// Like [`CompiledProfile::explain`], appending the sentence to `out`.
    pub fn explain_into(&self, slot: Slot, feat: &Feat<'_>, out: &mut String) -> Level {
        self.explain_with(slot, feat, matches!(feat, Feat::Limit(..)), out)
    }

    /// [`CompiledProfile::explain_into`] for a feature already spelled out: `parameter` is
    /// its case parameter (used only when no case covers it), `limit` whether it is a limit.
    pub fn explain_with(
        &self,
        slot: Slot,
        parameter: &dyn std::fmt::Display,
        limit: bool,
        out: &mut String,
    ) -> Level {
        use std::fmt::Write;
        let (level, index) = match slot {
            Slot::Allowed => return Level::Warning,
            Slot::Rejected(i) => (Level::Error, i),
            Slot::Unknown(i) => (Level::Warning, i),
        };
        if index == OWN_CAP {
            out.push_str(super::table::OWN_CAP);
            return level;
        }
        if index == NO_CASE {
            let _ = write!(
                out,
                "no case covers `{parameter}`, so no target of `{}` has evidence for it",
                self.name
            );
            return level;
        }
        let d = &self.details[index as usize];
        out.push_str(&d.because);
        if limit && !d.cites_cases {
            out.push_str(" (case `");
            out.push_str(&d.parameter);
            out.push_str("`)");
        }
        level
    }

    /// The parameter a finding about `feat` quotes: the profile's shared text when the slot
    /// names a case with that parameter, else the feature spelled out (a limit carries the
    /// measured value, not the case's).
    pub fn parameter_text(&self, slot: Slot, feat: &Feat<'_>) -> Text {
        match slot {
            Slot::Rejected(i) | Slot::Unknown(i)
                if is_case(i) && !matches!(feat, Feat::Limit(..)) =>
            {
                self.details[i as usize].text.clone()
            }
            _ => Text::from(feat.parameter()),
        }
    }

    /// The smallest case value of a limit family in the profile: a measured value below it
    /// is allowed whatever it is, so it need not be measured exactly.
    pub fn limit_floor(&self, limit: Limit) -> usize {
        self.limits[Limit::ALL.iter().position(|x| *x == limit).unwrap_or(0)]
            .first()
            .map_or(usize::MAX, |(n, _)| *n)
    }

    /// The sentence ([`Detail::because`]: "rejected by T (kind date, judged from the nested
    /// placement), ...") of the detail whose evidence a finding shares
    /// ([`crate::check::Finding::evidence`] is that detail's, by reference); `None` for
    /// evidence no detail of this profile holds.
    pub fn because_of(&self, evidence: &Arc<[TargetEvidence]>) -> Option<&str> {
        self.details
            .iter()
            .find(|d| Arc::ptr_eq(&d.rejected_by, evidence))
            .map(|d| d.because.as_str())
    }

    /// The details of the features not allowed (for tests and tables).
    pub fn details(&self) -> &[Detail] {
        &self.details
    }

    /// The evidence sentence of a warning about an ordinary thing (a standard type, a tool name of
    /// the baseline class) that no target rejects: "no evidence yet whether T accepts `them`".
    /// "no evidence for T" read, to a first-time user, as if `array` or `get_weather` were wrong;
    /// said as an open question it reads as what it is, a probe not yet run. `None` where some
    /// target rejects it (that error keeps its wording) or no case covers it.
    pub fn no_evidence_yet(&self, slot: Slot, them: &str) -> Option<String> {
        let Slot::Unknown(i) = slot else { return None };
        let d = self.details.get(i as usize)?;
        if !d.rejected_by.is_empty() || d.unknown_for.is_empty() {
            return None;
        }
        let verb = if d.unknown_for.len() == 1 {
            "accepts"
        } else {
            "accept"
        };
        Some(format!(
            "no evidence yet whether {} {verb} {them}",
            list(d.unknown_for.iter().cloned())
        ))
    }
}

/// Gives each case value of one limit (ascending) the worst status of every case value at or
/// below it: a measured value past several cases is judged by all of them. When more than one
/// of those cases rejects, the value's slot points to a detail naming every rejecting target
/// with its own evidence and case, so no target that rejects a smaller value is left out
/// because another case's rejection was met first.
fn accumulate(list: &mut [(usize, Slot)], details: &mut Vec<Detail>) {
    let mut acc = Slot::Allowed;
    // Each rejecting target once, from the smallest case value it rejects, with that case.
    let mut rejecting: Vec<(TargetEvidence, String)> = Vec::new();
    // Each target without evidence once, from the smallest case value it has none for.
    let mut unknown: Vec<(String, String)> = Vec::new();
    for (_, s) in list.iter_mut() {
        if let Slot::Rejected(i) | Slot::Unknown(i) = *s {
            let d = &details[i as usize];
            for e in d.rejected_by.iter() {
                if !rejecting.iter().any(|(r, _)| r.target == e.target) {
                    rejecting.push((e.clone(), d.parameter.clone()));
                }
            }
            for u in d.unknown_for.iter() {
                if !unknown.iter().any(|(t, _)| t == u) {
                    unknown.push((u.clone(), d.parameter.clone()));
                }
            }
        }
        acc = acc.worst(*s);
        *s = match acc {
            Slot::Rejected(first)
                if rejecting.len() > details[first as usize].rejected_by.len() =>
            {
                let unknown_for: Vec<String> = unknown
                    .iter()
                    .map(|(u, _)| u)
                    .filter(|u| !rejecting.iter().any(|(r, _)| &r.target == *u))
                    .cloned()
                    .collect();
                let first = &details[first as usize];
                details.push(Detail {
                    text: first.text.clone(),
                    parameter: rejecting.last().map(|(_, p)| p.clone()).unwrap_or_default(),
                    because: because_per_case(&rejecting, &unknown_for),
                    rejected_by: rejecting.iter().map(|(e, _)| e.clone()).collect(),
                    unknown_for,
                    cites_cases: true,
                });
                Slot::Rejected((details.len() - 1) as u32)
            }
            // Past a case that leaves more targets without evidence than the first unknown
            // one: every one is named, each with its case (a 12-level schema was said to lack
            // evidence only for the targets of the 4-level case, as if openai/chat, known to
            // take 10 levels and not known to take 11, took it).
            Slot::Unknown(first) if unknown.len() > details[first as usize].unknown_for.len() => {
                let first = &details[first as usize];
                details.push(Detail {
                    text: first.text.clone(),
                    parameter: unknown.last().map(|(_, p)| p.clone()).unwrap_or_default(),
                    because: unknown_per_case(&unknown),
                    rejected_by: Arc::from([]),
                    unknown_for: unknown.iter().map(|(u, _)| u.clone()).collect(),
                    cites_cases: true,
                });
                Slot::Unknown((details.len() - 1) as u32)
            }
            _ => acc,
        };
    }
}

/// "no evidence for T, U (case `c`), V (case `d`)": each target without evidence, grouped by
/// the smallest case it has none for, in the order `unknown` (target, case) met them.
fn unknown_per_case(unknown: &[(String, String)]) -> String {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (target, case) in unknown {
        match groups.iter_mut().find(|(c, _)| c == case) {
            Some((_, targets)) => targets.push(target),
            None => groups.push((case, vec![target])),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(case, targets)| format!("{} (case `{case}`)", targets.join(", ")))
        .collect();
    format!("no evidence for {}", parts.join(", "))
}

/// [`because`] for a limit value past several rejecting cases: every target is named (a list
/// cut short would hide one that rejects), each with its evidence and the case it rejects.
fn because_per_case(rejecting: &[(TargetEvidence, String)], unknown_for: &[String]) -> String {
    let mut s = format!(
        "rejected by {}",
        rejecting
            .iter()
            .map(|(e, case)| format!("{} ({}, case `{case}`)", e.target, e.latest.label()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !unknown_for.is_empty() {
        s.push_str("; no evidence for ");
        s.push_str(&unknown_for.join(", "));
    }
    s
}

/// "rejected by T (kind date), ...; no evidence for U, ...": each target with the kind and
/// date of the evidence that decides its verdict (the newest, as MATRIX.md shows it), and
/// where the verdict was judged from another placement (`elsewhere`), that placement
/// ([`super::judged_from`]).
fn because(
    rejected_by: &[TargetEvidence],
    unknown_for: &[String],
    elsewhere: &BTreeMap<String, Placement>,
) -> String {
    let mut parts = Vec::new();
    if !rejected_by.is_empty() {
        parts.push(format!(
            "rejected by {}",
            list(rejected_by.iter().map(|e| {
                let mut label = e.latest.label();
                if let Some(judged) = super::judged_from(elsewhere, &e.target) {
                    label = format!("{label}, {judged}");
                }
                format!("{} ({label})", e.target)
            }))
        ));
    }
    if !unknown_for.is_empty() {
        parts.push(format!(
            "no evidence for {}",
            list(unknown_for.iter().cloned())
        ));
    }
    if parts.is_empty() {
        // A hand-made profile (`--profiles`) may reject a feature without citing anything;
        // the finding says so rather than end in an empty citation.
        return "rejected by the profile, which cites no evidence".into();
    }
    parts.join("; ")
}

fn list(items: impl Iterator<Item = String>) -> String {
    let all: Vec<String> = items.collect();
    if all.len() <= 4 {
        all.join(", ")
    } else {
        format!("{} and {} more", all[..3].join(", "), all.len() - 3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `type_missing_slot` (asked of every keyword finding's repair, before the subschema is
    /// read) is the lookup of `type-missing`, in every built-in profile at every placement.
    #[test]
    fn the_type_missing_slot_is_the_lookup() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let mut rejected = 0;
        for p in &set.profiles {
            let profile = CompiledProfile::new(p);
            for placement in Placement::ALL {
                let slot = profile.type_missing_slot(placement);
                assert_eq!(
                    slot,
                    profile.lookup(&Feat::TypeMissing, placement),
                    "{}",
                    p.name
                );
                rejected += usize::from(matches!(slot, Slot::Rejected(_)));
            }
        }
        assert!(
            rejected > 0,
            "some profile rejects an untyped schema somewhere"
        );
    }

    use crate::evidence::EvidenceKind;
    use crate::profile::{Cited, FeatureEntry, Summary};

    /// A rejection without evidence (a hand-made profile) was explained by an empty text, so
    /// `check` printed `... is not one of JSON Schema's types: ` and nothing after it.
    #[test]
    fn a_rejection_citing_nothing_says_so() {
        assert_eq!(
            super::because(&[], &[], &Default::default()),
            "rejected by the profile, which cites no evidence"
        );
        assert_eq!(
            super::because(&[], &["x/y".into()], &Default::default()),
            "no evidence for x/y"
        );
    }

    /// An inherited rejection names the target whose evidence it is, after the kind and date.
    #[test]
    fn an_inherited_rejection_says_whose_evidence_it_is() {
        let cited = Cited {
            kind: EvidenceKind::Report,
            date: "2026-02-02".into(),
            source: "https://example.com".into(),
            via: Some("openai/chat".into()),
            read: false,
            inferred: false,
            not_verbatim: false,
        };
        let e = TargetEvidence {
            target: "openai/chat-strict".into(),
            case: "c".into(),
            latest: cited.clone(),
            since: cited,
        };
        assert_eq!(
            super::because(std::slice::from_ref(&e), &[], &Default::default()),
            "rejected by openai/chat-strict (report 2026-02-02, via openai/chat)"
        );
        assert_eq!(
            super::because_per_case(&[(e, "c".into())], &[]),
            "rejected by openai/chat-strict (report 2026-02-02, via openai/chat, case `c`)"
        );
    }

    /// A rejection judged from the same feature at another placement says which (trial 51
    /// D9: `check` cited gemini's report on a nested property as a rejection at `items`).
    #[test]
    fn a_rejection_judged_elsewhere_names_the_placement() {
        let cited = Cited {
            kind: EvidenceKind::Report,
            date: "2025".into(),
            source: "https://example.com".into(),
            via: None,
            read: false,
            inferred: false,
            not_verbatim: false,
        };
        let e = |target: &str| TargetEvidence {
            target: target.into(),
            case: "types/missing-nested".into(),
            latest: cited.clone(),
            since: cited.clone(),
        };
        let elsewhere = BTreeMap::from([("a/x".to_string(), Placement::Nested)]);
        assert_eq!(
            super::because(&[e("a/x"), e("b/y")], &[], &elsewhere),
            "rejected by a/x (report 2025, judged from the nested placement), b/y (report 2025)"
        );
    }

    fn entry(p: &str, place: Placement, status: Status) -> FeatureEntry {
        FeatureEntry {
            parameter: p.into(),
            placement: place,
            status,
            rejected_by: if status == Status::Rejected {
                vec![TargetEvidence {
                    target: "openai/chat".into(),
                    case: "c".into(),
                    latest: Cited {
                        kind: EvidenceKind::Report,
                        date: String::new(),
                        source: "https://example.com".into(),
                        via: None,
                        read: false,
                        inferred: false,
                        not_verbatim: false,
                    },
                    since: Cited {
                        kind: EvidenceKind::Report,
                        date: String::new(),
                        source: "https://example.com".into(),
                        via: None,
                        read: false,
                        inferred: false,
                        not_verbatim: false,
                    },
                }]
            } else {
                Vec::new()
            },
            unknown_for: if status == Status::Unknown {
                vec!["mistral/chat".into()]
            } else {
                Vec::new()
            },
            judged_elsewhere: Default::default(),
        }
    }

    fn profile(features: Vec<FeatureEntry>) -> CompiledProfile {
        CompiledProfile::new(&Profile {
            name: "p".into(),
            targets: vec!["openai/chat".into(), "mistral/chat".into()],
            control: Status::Allowed,
            features,
            summary: Summary::default(),
            meta_schema: Vec::new(),
        })
    }

    #[test]
    fn placements_fall_back_to_the_nearest_case() {
        let p = profile(vec![
            entry(
                "keyword-allowed: const",
                Placement::Nested,
                Status::Rejected,
            ),
            entry("keyword-allowed: title", Placement::Root, Status::Allowed),
        ]);
        let const_ = Feat::Keyword("const");
        assert!(matches!(
            p.lookup(&const_, Placement::AnyofBranch),
            Slot::Rejected(_)
        ));
        assert!(matches!(
            p.lookup(&const_, Placement::Root),
            Slot::Rejected(_)
        ));
        assert_eq!(
            p.lookup(&Feat::Keyword("title"), Placement::Nested),
            Slot::Allowed
        );
        // No case at all: unknown, and the explanation says so.
        let slot = p.lookup(&Feat::Keyword("frobnicate"), Placement::Nested);
        let (level, why) = p.explain(slot, &Feat::Keyword("frobnicate"), Placement::Nested);
        assert_eq!(level, Level::Warning);
        assert!(
            why.starts_with("no case covers `keyword-allowed: frobnicate`"),
            "{why}"
        );
        let (level, why) = p.explain(
            p.lookup(&const_, Placement::Nested),
            &const_,
            Placement::Nested,
        );
        assert_eq!(
            (level, why.as_str()),
            (Level::Error, "rejected by openai/chat (report undated)")
        );
    }

    /// The matches that stand in for scans of `STANDARD_TYPES` say what the list says, in
    /// its order, and nothing of other spellings.
    #[test]
    fn standard_type_matches_hold_to_the_list() {
        for (i, t) in STANDARD_TYPES.iter().enumerate() {
            assert_eq!(standard_type(t), Some(i), "{t}");
            assert!(super::super::feature::is_standard_type(t), "{t}");
        }
        for t in ["String", "dict", "", "nul", "objects"] {
            assert_eq!(standard_type(t), None, "{t}");
            assert!(!super::super::feature::is_standard_type(t), "{t}");
        }
    }

    #[test]
    fn keywords_with_an_id_are_looked_up_as_any_other() {
        let p = profile(vec![
            entry("keyword-allowed: title", Placement::Root, Status::Allowed),
            entry(
                "keyword-allowed: minimum",
                Placement::Nested,
                Status::Rejected,
            ),
            entry("type-spelling: string", Placement::Nested, Status::Unknown),
        ]);
        for (i, k) in keyword::KEYWORDS.into_iter().enumerate() {
            let feat = Feat::Keyword(k);
            for placement in [Placement::Root, Placement::Nested, Placement::Items] {
                let by_hash = p.maps[Kind::Keyword.index()]
                    .get(k)
                    .and_then(|s| s[slot_index(placement)])
                    .unwrap_or(Slot::Unknown(NO_CASE));
                assert_eq!(p.lookup(&feat, placement), by_hash, "{k}");
                assert_eq!(p.keyword_slot(i as u8, placement), by_hash, "{k}");
            }
        }
        assert_eq!(
            p.lookup(&Feat::Keyword("title"), Placement::Nested),
            Slot::Allowed
        );
        assert!(matches!(
            p.lookup(&Feat::Keyword("minimum"), Placement::Root),
            Slot::Rejected(_)
        ));
        assert!(matches!(
            p.lookup(&Feat::TypeSpelling("string"), Placement::Items),
            Slot::Unknown(i) if i != NO_CASE
        ));
        assert_eq!(
            p.lookup(&Feat::TypeSpelling("object"), Placement::Items),
            Slot::Unknown(NO_CASE)
        );
    }

    /// The name kinds looked up by position are judged as the hash map judges them, and the
    /// match keeps the list's order.
    #[test]
    fn name_kinds_are_looked_up_as_any_other() {
        let p = profile(vec![
            entry("name-chars: lowercase", Placement::Tool, Status::Allowed),
            entry("name-chars: dot", Placement::Tool, Status::Rejected),
            entry(
                "name-chars: leading-colon",
                Placement::Tool,
                Status::Unknown,
            ),
        ]);
        for (i, k) in NAME_KINDS.iter().enumerate() {
            assert_eq!(name_kind(k), Some(i), "{k}");
            let by_hash = p.maps[Kind::NameChars.index()]
                .get(*k)
                .and_then(|s| s[slot_index(Placement::Tool)])
                .unwrap_or(Slot::Unknown(NO_CASE));
            assert_eq!(
                p.lookup(&Feat::NameChars(k), Placement::Tool),
                by_hash,
                "{k}"
            );
        }
        assert_eq!(
            p.lookup(&Feat::NameChars("lowercase"), Placement::Tool),
            Slot::Allowed
        );
        assert!(matches!(
            p.lookup(&Feat::NameChars("dot"), Placement::Tool),
            Slot::Rejected(_)
        ));
        assert!(matches!(
            p.lookup(&Feat::NameChars("leading-colon"), Placement::Tool),
            Slot::Unknown(i) if i != NO_CASE
        ));
        assert_eq!(
            p.lookup(&Feat::NameChars("uppercase"), Placement::Tool),
            Slot::Unknown(NO_CASE)
        );
        assert_eq!(name_kind("tilde"), None);
    }

    #[test]
    fn limits_take_the_worst_case_at_or_below_the_value() {
        let p = profile(vec![
            entry("depth-limit: 5", Placement::Nested, Status::Allowed),
            entry("depth-limit: 10", Placement::Nested, Status::Unknown),
            entry("depth-limit: 11", Placement::Nested, Status::Rejected),
            entry("depth-limit: 16", Placement::Nested, Status::Allowed),
        ]);
        let at = |v| p.lookup(&Feat::Limit(Limit::Depth, v), Placement::Nested);
        assert_eq!(at(3), Slot::Allowed);
        assert_eq!(at(9), Slot::Allowed);
        assert!(matches!(at(10), Slot::Unknown(_)));
        assert!(matches!(at(12), Slot::Rejected(_)));
        assert!(matches!(at(40), Slot::Rejected(_)));
    }

    /// A 12-level schema under `portable` was said to lack evidence only for the targets of
    /// the 4-level case, leaving out openai/chat, which has evidence up to 10 levels and none
    /// at 11 (trial 43): past a case that adds a target without evidence, every one is named
    /// with its own case.
    #[test]
    fn a_limit_past_several_unknown_cases_names_every_target_without_evidence() {
        let unknown = |case: &str, targets: &[&str]| {
            let mut e = entry(case, Placement::Nested, Status::Unknown);
            e.rejected_by = Vec::new();
            e.unknown_for = targets.iter().map(|t| t.to_string()).collect();
            e
        };
        let p = profile(vec![
            entry("depth-limit: 3", Placement::Nested, Status::Allowed),
            unknown(
                "depth-limit: 4",
                &["gemini/v1beta/parameters", "mistral/chat"],
            ),
            unknown(
                "depth-limit: 10",
                &["gemini/v1beta/parameters", "mistral/chat"],
            ),
            unknown(
                "depth-limit: 11",
                &["gemini/v1beta/parameters", "openai/chat", "mistral/chat"],
            ),
        ]);
        let why = |v| {
            let slot = p.lookup(&Feat::Limit(Limit::Depth, v), Placement::Nested);
            p.explain(slot, &Feat::Limit(Limit::Depth, v), Placement::Nested)
        };
        assert_eq!(
            why(10),
            (
                Level::Warning,
                "no evidence for gemini/v1beta/parameters, mistral/chat (case `depth-limit: 4`)"
                    .to_string()
            )
        );
        assert_eq!(
            why(12),
            (
                Level::Warning,
                "no evidence for gemini/v1beta/parameters, mistral/chat (case `depth-limit: 4`), \
                 openai/chat (case `depth-limit: 11`)"
                    .to_string()
            )
        );
    }

    /// A 10,000-character name was said to be rejected by the targets rejecting the 65
    /// case alone: the target whose rejecting case is 129 was left out, as if it accepted.
    #[test]
    fn a_limit_past_several_cases_names_every_rejecting_target_with_its_case() {
        let by = |target: &str, case: &str| {
            let mut e = entry(case, Placement::Tool, Status::Rejected);
            e.rejected_by[0].target = target.into();
            e.unknown_for = Vec::new();
            e
        };
        let mut below = by("openai/chat", "name-length-limit: 65");
        below.unknown_for = vec!["mistral/chat".into()];
        let p = profile(vec![
            entry("name-length-limit: 64", Placement::Tool, Status::Allowed),
            below,
            by("mistral/chat", "name-length-limit: 129"),
        ]);
        let why = |v| {
            let slot = p.lookup(&Feat::Limit(Limit::NameLength, v), Placement::Tool);
            p.explain(slot, &Feat::Limit(Limit::NameLength, v), Placement::Tool)
        };
        // Between the cases: the 65 case alone, cited as before.
        assert_eq!(
            why(100),
            (
                Level::Error,
                "rejected by openai/chat (report undated); no evidence for mistral/chat \
                 (case `name-length-limit: 65`)"
                    .to_string()
            )
        );
        // Past both: both targets, each with its own case, and mistral/chat is no longer
        // said to lack evidence.
        assert_eq!(
            why(10_000),
            (
                Level::Error,
                "rejected by openai/chat (report undated, case `name-length-limit: 65`), \
                 mistral/chat (report undated, case `name-length-limit: 129`)"
                    .to_string()
            )
        );
    }
}
