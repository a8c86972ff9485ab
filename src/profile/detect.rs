//! Walking a request's tools once and handing every tool, subschema and request to the rules.
//!
//! The walk is iterative (any parsed value is safe), visits subschemas in document order, and
//! allocates nothing per node on the happy path: JSON Pointers are built from a frame arena
//! only when a rule reports something. The same walk serves two modes: *check* (look each
//! feature up in a compiled profile and turn the ones not allowed into findings) and
//! *collect* (record every feature seen, used to derive profiles and to test the rules).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::compiled::{CompiledProfile, Detail, NO_CASE, OWN_CAP, PLACEMENTS, Slot, is_case};
use super::feature::{Feat, Limit};
use super::findings::{Findings, Record, Span, TextBuf};
use super::keyword as kw;
use super::rules::{self, Rule};
use crate::case::Placement;
use crate::check::{Finding, Subject};
use crate::input::BuiltinTool;
use crate::schema::meta_shape;

/// One tool as the rules see it, borrowed from wherever it was read. `Default` is a bare
/// schema that declares none, numbered 0: a caller names the fields it knows and takes the
/// rest with `..Default::default()`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ToolRef<'a> {
    /// `None` for a bare schema (no envelope): name and description rules do not apply.
    pub name: Option<&'a str>,
    pub description: Option<&'a str>,
    /// The parameters (input) schema; `None` when the tool declares none.
    pub parameters: Option<&'a Value>,
    /// Position in the input (0-based), carried into findings.
    pub index: usize,
    /// Whether the tool asks for OpenAI's strict mode (`strict: true` on a Chat Completions
    /// function, a Responses tool without `strict: false`): it is then sent as written and
    /// judged by the provider in that mode (`strict-form-missing`).
    pub strict: bool,
    /// The key the tool's shape requires its schema under, as a report names it
    /// ([`crate::input::ToolEntry::required_schema_key`]: Anthropic's `input_schema`, MCP's
    /// `inputSchema`, Bedrock Converse's `toolSpec.inputSchema`): a tool of that shape without
    /// arguments cannot have its schema left out, so no fix advises that and `repair`, which
    /// writes the tool back in its shape, has only the empty argument object. `None` where
    /// the shape may leave it out (OpenAI, Gemini, a bare function list) and for a bare
    /// schema (which [`ToolRef::has_envelope`] tells apart).
    pub required_schema_key: Option<&'static str>,
}

impl<'a> ToolRef<'a> {
    /// Every tool of a list (a case's tools, a request), numbered by position.
    pub fn all(tools: &'a [crate::tool::ToolDef]) -> Vec<ToolRef<'a>> {
        tools
            .iter()
            .enumerate()
            .map(|(i, t)| ToolRef {
                name: Some(&t.name),
                description: t.description.as_deref(),
                parameters: t.parameters.as_ref(),
                index: i,
                ..Default::default()
            })
            .collect()
    }

    /// A case's tools, each asking for strict mode when the case says so
    /// ([`crate::case::Case::strict`]).
    pub fn of_case(case: &'a crate::case::Case) -> Vec<ToolRef<'a>> {
        let mut refs = ToolRef::all(&case.tools);
        for r in &mut refs {
            r.strict = case.strict;
        }
        refs
    }
}

impl ToolRef<'_> {
    /// Whether the tool came with an envelope (name, description) rather than as a bare schema.
    pub fn has_envelope(&self) -> bool {
        self.name.is_some()
    }
}

/// How a subschema was reached from its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Root,
    Property,
    PatternProperty,
    DefsMember,
    DependentSchema,
    /// `items` given as one schema.
    Items,
    /// One element of draft-07 `items: [...]`.
    ItemsElement,
    PrefixItems,
    AnyOf,
    OneOf,
    AllOf,
    Not,
    If,
    Then,
    Else,
    AdditionalProperties,
    UnevaluatedProperties,
    UnevaluatedItems,
    AdditionalItems,
    PropertyNames,
    Contains,
}

impl Via {
    fn placement(self) -> Placement {
        match self {
            Via::Root => Placement::Root,
            Via::Items
            | Via::ItemsElement
            | Via::PrefixItems
            | Via::AdditionalItems
            | Via::UnevaluatedItems
            | Via::Contains => Placement::Items,
            Via::AnyOf | Via::OneOf | Via::AllOf => Placement::AnyofBranch,
            _ => Placement::Nested,
        }
    }

    /// Whether the subschema is a branch that constrains its parent's instance (so `required`
    /// there may name the parent's properties).
    pub fn is_applicator_branch(self) -> bool {
        matches!(
            self,
            Via::AnyOf
                | Via::OneOf
                | Via::AllOf
                | Via::Not
                | Via::If
                | Via::Then
                | Via::Else
                | Via::DependentSchema
        )
    }
}

/// The `type` of a subschema, read once.
#[derive(Debug, Clone, Copy)]
pub enum Ty<'a> {
    Absent,
    One(&'a str),
    List(&'a [Value]),
    Invalid(&'a Value),
}

impl Ty<'_> {
    /// Whether the type names `t`, alone or in a list: ASCII case-insensitively (Gemini's
    /// `OBJECT` counts), and by any spelling [`type_meant_by`](super::feature::type_meant_by)
    /// reads as `t` (`dict` is an object). So the rules of `t` apply to what `repair` would
    /// write: a `dict` without `properties` is an object without properties, which respelling
    /// alone does not mend.
    pub fn names(&self, t: &str) -> bool {
        super::feature::standard_type_index(t).is_some_and(|i| self.means() & 1 << i != 0)
    }

    /// The standard types the type names, as [`Ty::names`] reads it: bit `i` for
    /// [`STANDARD_TYPES`](super::feature::STANDARD_TYPES)`[i]`. The walk reads it once per
    /// subschema ([`Node::ty_means`]) for the rules that ask.
    pub fn means(&self) -> u8 {
        let means = |s: &str| {
            // Nearly every `type` is written in JSON Schema's own lowercase: no reading.
            super::feature::standard_type_index(s).map_or_else(|| read_type_bits(s), |i| 1u8 << i)
        };
        match self {
            Ty::One(s) => means(s),
            Ty::List(l) => l
                .iter()
                .filter_map(Value::as_str)
                .fold(0, |bits, s| bits | means(s)),
            _ => 0,
        }
    }

    /// Whether a type is given, every name in it is one of JSON Schema's types (any case), and
    /// none is `t`. A non-standard spelling (`dict`, `float`) says nothing about which type was
    /// meant, so it excludes nothing (type-invalid reports it).
    pub fn excludes(&self, t: &str) -> bool {
        let standard = |s: &str| {
            super::feature::STANDARD_TYPES
                .iter()
                .any(|x| x.eq_ignore_ascii_case(s))
        };
        match self {
            Ty::One(s) => standard(s) && !s.eq_ignore_ascii_case(t),
            Ty::List(l) => l.iter().all(|v| v.as_str().is_some_and(standard)) && !self.names(t),
            _ => false,
        }
    }
}

/// [`Ty::means`] of a type name that is no standard spelling as written: the bit of the
/// standard type [`type_meant_by`](super::feature::type_meant_by) reads it as, if any.
fn read_type_bits(s: &str) -> u8 {
    super::feature::type_meant_by(s)
        .and_then(|(meant, _)| super::feature::standard_type_index(meant))
        .map_or(0, |i| 1u8 << i)
}

/// Bits of [`Node::ty_means`] the rules test, by position in
/// [`STANDARD_TYPES`](super::feature::STANDARD_TYPES) (a test holds them to it).
pub mod ty_bit {
    /// `array`.
    pub const ARRAY: u8 = 1 << 4;
    /// `object`.
    pub const OBJECT: u8 = 1 << 5;
}

/// One subschema, with the keywords the rules ask about read in one pass over its keys.
#[derive(Debug, Clone, Copy)]
pub struct Node<'a> {
    pub value: &'a Value,
    pub map: Option<&'a Map<String, Value>>,
    pub frame: u32,
    pub via: Via,
    pub placement: Placement,
    /// Object schemas on the path from the root to here, this one included.
    pub object_depth: u32,
    pub ty: Ty<'a>,
    /// [`Ty::means`] of `ty`, read once by the walk: the rules that ask whether the type
    /// names `object` or `array` test a bit.
    pub ty_means: u8,
    /// The position in [`STANDARD_TYPES`](super::feature::STANDARD_TYPES) of a `type` that is
    /// one standard type as the standard spells it (`type-unsupported`'s half of the
    /// spellings), read once by the walk.
    pub ty_standard: Option<u8>,
    pub properties: Option<&'a Value>,
    pub items: Option<&'a Value>,
    pub prefix_items: bool,
    pub required: Option<&'a Value>,
    /// `required` is a non-empty list of distinct strings (the meta-schema's form, read once by
    /// the walk): `required-invalid` has nothing to say of it.
    pub required_names: bool,
    pub enum_: Option<&'a Value>,
    pub reference: Option<&'a Value>,
    pub any_of: Option<&'a Value>,
    pub one_of: bool,
    pub all_of: bool,
    pub not: bool,
    pub format: Option<&'a Value>,
    pub nullable: Option<&'a Value>,
    pub defs: bool,
    pub definitions: bool,
    /// An `if` key is present (its `then`/`else` belong to it).
    pub has_if: bool,
    pub has_const: bool,
    /// An `$anchor`, `$dynamicAnchor`, `$id` or `id` string is present
    /// ([`crate::schema::names_itself`]).
    pub names_itself: bool,
    /// Bit `i` is set when the map's `i`-th key (of the first 64) may hold a value its
    /// keyword does not take: read with [`Node::value_form`].
    pub bad_values: u64,
    /// The [`keyword::id`](super::keyword::id) of each of the map's first [`KEY_IDS`] keys,
    /// [`NO_ID`] for a key that has none, read once by the walk: read with [`Node::key_id`].
    key_ids: [u8; KEY_IDS],
}

/// How many of a subschema's keys [`Node::key_id`] answers from the walk's reading (nearly
/// every subschema has fewer).
const KEY_IDS: usize = 16;

/// [`Node::key_ids`]' mark for a key that is no keyword toolwire numbers.
const NO_ID: u8 = u8::MAX;

impl Node<'_> {
    /// [`keyword::id`](super::keyword::id) of the map's `i`-th key `k`, as the walk read it
    /// (keyword-unsupported asks it of every key; the walk already had).
    pub fn key_id(&self, i: usize, k: &str) -> Option<u8> {
        let id = match self.key_ids.get(i) {
            Some(&NO_ID) => None,
            Some(&id) => Some(id),
            None => return kw::id(k),
        };
        debug_assert_eq!(id, kw::id(k), "{k}");
        id
    }

    /// [`keyword_value_invalid::form`](super::rules::keyword_value_invalid::form) of the
    /// map's `i`-th key `k` and its value `v`, computed once by the walk for the first 64 keys
    /// (two rules ask it of every key).
    pub fn value_form(&self, i: usize, k: &str, v: &Value) -> Option<&'static str> {
        if i < 64 && self.bad_values & (1 << i) == 0 {
            debug_assert!(
                rules::keyword_value_invalid::form(k, v).is_none(),
                "{k}: {v}"
            );
            return None;
        }
        rules::keyword_value_invalid::form(k, v)
    }

    /// The placement the catalog files this schema's members under (the names of its
    /// `properties`, its `$defs`/`definitions` containers): the root's are `nested`, as the
    /// cases put them below the root; elsewhere the schema's own.
    pub fn members_placement(&self) -> Placement {
        match self.placement {
            Placement::Root => Placement::Nested,
            p => p,
        }
    }

    pub fn is_root(&self) -> bool {
        matches!(self.via, Via::Root)
    }

    /// [`Ty::names`] of the node's type for the standard type of bit `bit` (a [`ty_bit`]),
    /// from the walk's one reading of it.
    pub fn names(&self, bit: u8) -> bool {
        self.ty_means & bit != 0
    }

    /// Whether the node carries a combinator or a reference that stands in for a `type`.
    pub fn has_type_substitute(&self) -> bool {
        self.any_of.is_some() || self.one_of || self.all_of || self.reference.is_some()
    }
}

/// Per-tool measurements gathered by the walk, for the limit rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct Stats {
    /// Object schemas on the deepest inline path (`$defs` counted below the schema that holds
    /// them); [`crate::schema::depth::nesting`] is the measure when `refers` is set.
    pub max_object_depth: u32,
    pub deepest_frame: u32,
    /// Some subschema holds a `$ref`, `$defs` or `definitions`: nesting then follows
    /// references, which the walk does not, so the depth rule measures it with
    /// [`crate::schema::depth::nesting`] (the walk's count is that measure otherwise).
    pub refers: bool,
    pub max_enum: usize,
    pub max_enum_frame: u32,
    pub property_count: usize,
    /// Bytes of the schema as compact JSON (what `serde_json::to_string` gives) with every
    /// string counted without its escapes: a lower bound, exact for text without characters
    /// JSON escapes. See [`Stats::compact_bytes_exact`].
    pub compact_bytes: usize,
    /// Bytes of string contents counted in `compact_bytes`: escaping can at most multiply
    /// them by 6 (`\u00XX`), which bounds the exact size from above.
    pub string_bytes: usize,
    /// The walk stopped at [`crate::schema::MAX_NODES`].
    pub truncated: bool,
    /// Subschemas the walk visited, the root among them, as written (`$ref`s not followed);
    /// `MAX_NODES + 1` when it stopped there ([`Stats::truncated`]).
    pub subschemas: usize,
    /// Some keyword or subschema met is one [`crate::schema::meta_shape`] cannot prove valid
    /// against the draft 2020-12 meta-schema (or the walk was truncated): only then does
    /// `meta-schema-invalid` ask the `jsonschema` crate.
    pub meta_unproven: bool,
    /// Where the first [`UNPROVEN_PLACES`] unproven places are: the subschema's frame and the
    /// index of the keyword among its keys ([`Stats::WHOLE`]: the subschema itself is no
    /// object or boolean). A tool with another error is searched at these places alone
    /// (`meta-schema-invalid`): the whole meta-schema over a schema already invalid costs more
    /// than the rest of the check.
    pub unproven_at: [(u32, u32); UNPROVEN_PLACES],
    /// How many unproven places the walk met (past [`UNPROVEN_PLACES`], only counted).
    pub unproven: usize,
}

/// Unproven places [`Stats`] remembers.
pub const UNPROVEN_PLACES: usize = 32;

impl Stats {
    /// [`Stats::unproven_at`]'s keyword index for the subschema itself.
    pub const WHOLE: u32 = u32::MAX;

    /// Notes an unproven place: keyword `key` (or [`Stats::WHOLE`]) of the subschema at
    /// `frame`.
    fn unproven_place(&mut self, frame: u32, key: u32) {
        self.meta_unproven = true;
        if let Some(slot) = self.unproven_at.get_mut(self.unproven) {
            *slot = (frame, key);
        }
        self.unproven += 1;
    }

    /// The unproven places, when every one is remembered and the walk was not truncated.
    pub fn unproven_places(&self) -> Option<&[(u32, u32)]> {
        (!self.truncated && self.unproven <= UNPROVEN_PLACES)
            .then(|| &self.unproven_at[..self.unproven])
    }

    /// The exact compact size of `root` (the schema this walk read) when it reaches `floor`,
    /// else `None` (it is below).
    pub fn compact_bytes_exact(&self, root: &Value, floor: usize) -> Option<usize> {
        if self.compact_bytes + 5 * self.string_bytes < floor {
            return None;
        }
        // Short of the floor but for escapes: their bytes decide, counted only until the
        // strings left could no longer make up the difference (a long schema is mostly long
        // text, with little to escape).
        if self.compact_bytes < floor
            && !escapes_reach(root, floor - self.compact_bytes, self.string_bytes)
        {
            return None;
        }
        Some(compact_len(root))
    }
}

#[derive(Debug, Clone, Copy)]
enum Tok<'a> {
    Root,
    Key(&'static str),
    Index(u32),
    Pair(&'static str, &'a str),
}

/// The root frame's value for a tool that declares no parameters schema.
static NO_SCHEMA: Value = Value::Null;

#[derive(Debug, Clone, Copy)]
struct Frame<'a> {
    parent: u32,
    tok: Tok<'a>,
    /// The value at this place (the subschema; for a keyword's list, the list), so that a
    /// finding's subschema is at hand without resolving its pointer.
    value: &'a Value,
    /// The subschema names itself ([`crate::schema::names_itself`]); set when it is visited.
    names_itself: bool,
}

/// What a walk does with each feature it meets.
pub enum Mode<'p> {
    /// Look features up in a profile; append findings for those not allowed.
    Check {
        profile: &'p CompiledProfile,
        out: &'p mut Findings,
    },
    /// Record every feature met (rule, parameter, placement, pointer).
    Collect { out: &'p mut Vec<Seen> },
}

/// A feature met in collect mode.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Seen {
    pub rule: &'static str,
    pub tool_index: usize,
    pub parameter: String,
    pub placement: Placement,
    pub pointer: String,
    /// True for a limit measurement (the parameter carries the measured value).
    pub limit: bool,
}

/// The context rules report through.
pub struct Cx<'a, 'p> {
    mode: Mode<'p>,
    frames: Vec<Frame<'a>>,
    stack: Vec<Pending<'a>>,
    children: Vec<(&'a Value, Child<'a>, Via)>,
    /// The current tool's subschemas holding the places of [`Stats::unproven_at`], by frame.
    unproven_nodes: Vec<(u32, &'a Value)>,
    root: Option<&'a Value>,
    tool_name: &'a str,
    /// Whether the tool being walked has an envelope (see [`ToolRef::has_envelope`]).
    named: bool,
    /// The key the tool being walked must keep its schema under ([`ToolRef::required_schema_key`]).
    required_schema_key: Option<&'static str>,
    /// Whether the tool being walked asks for OpenAI's strict mode ([`ToolRef::strict`]).
    strict: bool,
    /// `tool_name` in the findings' text, written at the tool's first finding.
    tool_text: Option<Span>,
    tool_index: usize,
    /// True while a request-level rule reports about the request as a whole (no tool).
    request: bool,
    rule: &'static Rule,
    /// How a finding names another tool of the request (see [`NameOther`]); `None`: by its
    /// index, `tool N`.
    name_other: Option<NameOther<'p>>,
    /// The request's tool names, for whether repair's rename of one would clash.
    names: RequestNames<'a>,
    /// The frame whose JSON Pointer the last finding of this tool wrote, and where (in the
    /// findings' text): the next finding at the same subschema copies it instead of walking
    /// the frames again.
    node_pointer: LastNode,
    /// Why repair would refuse to inline the tool's references ([`Cx::inline_refusal`]);
    /// made at the first reference of a tool (most tools have none).
    inline_refusal: Option<InlineRefusal<'a>>,
    /// [`rules::Repairing::replaces_schema`] for this tool, once asked (it reads the root and
    /// the profile, for every finding not otherwise repairable).
    replaces_schema: std::cell::Cell<Option<bool>>,
    /// What `ref-unsupported` found searching the tool's reference targets, each searched
    /// once however many references point at it ([`Cx::ref_scans`]).
    ref_scans: rules::ref_unsupported::Scans<'a>,
    /// [`rules::Repairing::root_refs`] for this tool, once asked.
    root_refs: std::cell::OnceCell<crate::repair::refs::RefList>,
    /// The tool's definitions no `$ref` reaches, once a finding in a definition asks
    /// ([`unreached_definition`]).
    unreached: std::cell::OnceCell<HashSet<crate::compile::canonical::Definition>>,
}

/// Why `toolwire repair` would refuse to inline the references of one tool's schema
/// ([`crate::repair::refs::refusal`]), found when first asked (a fix made only for a finding)
/// and then kept: it expands the whole schema, so once per tool, however many findings ask.
#[derive(Clone)]
pub struct InlineRefusal<'a> {
    root: Option<&'a Value>,
    /// What repair does with a keyword beside a `$ref` that its target sets differently,
    /// under the profile of the check.
    conflicts: crate::repair::refs::Conflicts,
    found: std::rc::Rc<std::cell::OnceCell<Option<crate::repair::refs::Refusal>>>,
}

impl InlineRefusal<'_> {
    /// The refusal; `None` when repair would inline every reference, or there is no schema.
    pub fn get(&self) -> Option<&crate::repair::refs::Refusal> {
        self.found
            .get_or_init(|| {
                self.root
                    .and_then(|root| crate::repair::refs::refusal_with(root, self.conflicts))
            })
            .as_ref()
    }
}

/// The named tools of the request being walked, and (made at the first rename asked about)
/// the names repair sends them under: what [`Cx::name_clash`] compares a rename with.
#[derive(Default)]
struct RequestNames<'a> {
    /// Each named tool's index ([`ToolRef::index`]) and name as written, in request order.
    given: Vec<(usize, &'a str)>,
    /// The profile's name rule ([`crate::repair::name_rule`]), made at the first rename asked
    /// about and kept: the profile a walker checks against never changes.
    rule: std::cell::OnceCell<crate::names::NameRule>,
    /// The names `given` are sent under, made at the first rename asked about.
    sent: std::cell::OnceCell<SentNames>,
}

/// The names the tools of a request are sent under ([`crate::repair::rename::sent_name`]), in
/// the order of [`RequestNames::given`], counted by name and with each tool's place in that
/// order: so that whether a rename lands on another tool's name costs a lookup, not a pass
/// over the request (20,000 tools to rename took minutes).
struct SentNames {
    names: Vec<String>,
    count: HashMap<String, usize>,
    at: HashMap<usize, usize>,
}

impl<'a> RequestNames<'a> {
    /// Starts on a new request.
    fn reset(&mut self, tools: &[ToolRef<'a>]) {
        self.given.clear();
        self.given
            .extend(tools.iter().filter_map(|t| Some((t.index, t.name?))));
        self.sent.take();
    }

    /// Why repair's rename of tool `index` (named `name`) would be refused for landing on a
    /// name another tool of the request is sent under; `None` when it would not, or the name
    /// needs no rename.
    fn clash(&self, profile: &CompiledProfile, index: usize, name: &str) -> Option<String> {
        use crate::repair::rename;
        // A rename can only land on the name of another tool: a tool alone in its request
        // (each line of a JSON Lines corpus) never pays for the name rule.
        if self.given.len() < 2 {
            return None;
        }
        let rule = self.rule.get_or_init(|| crate::repair::name_rule(profile));
        let to = rename::new_name(name, rule);
        if to == name {
            return None;
        }
        let sent = self.sent.get_or_init(|| {
            let names: Vec<String> = self
                .given
                .iter()
                .map(|(_, n)| rename::sent_name(n, profile, rule).into_owned())
                .collect();
            let mut count: HashMap<String, usize> = HashMap::new();
            for n in &names {
                *count.entry(n.clone()).or_default() += 1;
            }
            let mut at = HashMap::new();
            for (k, (i, _)) in self.given.iter().enumerate() {
                at.entry(*i).or_insert(k);
            }
            SentNames { names, count, at }
        });
        let at = *sent.at.get(&index)?;
        let others = sent.count.get(&to).copied().unwrap_or(0) - usize::from(sent.names[at] == to);
        if others == 0 {
            return None;
        }
        // Another tool is sent under that name: the census says which way it goes.
        #[cfg(test)]
        CENSUSES.with(|c| c.set(c.get() + 1));
        let given: Vec<&str> = self.given.iter().map(|(_, n)| *n).collect();
        let names: Vec<&str> = sent.names.iter().map(String::as_str).collect();
        rename::clash(&given, &names, at, &to, &profile.name)
    }
}

/// How a finding about one tool names another tool of the same request: called with the
/// index of the tool the finding is about and the index of the other tool (both
/// [`ToolRef::index`]), it returns the words, e.g. `tool 0 of a.json`. A request built from
/// several files (`check --one-request`) numbers its tools across files, so the plain
/// `tool N` would not say which file's tool is meant.
pub type NameOther<'p> = &'p dyn Fn(usize, usize) -> String;

/// Where in the tool a feature sits: a subschema, optionally with a keyword (and an array
/// index) below it, or the tool itself.
#[derive(Debug, Clone, Copy)]
pub enum At<'x> {
    Tool,
    Node(u32),
    Key(u32, &'x str),
    KeyIndex(u32, &'x str, usize),
    /// A member of a map keyword below the subschema: `/properties/name`.
    Member(u32, &'x str, &'x str),
    /// A JSON Pointer into the tool's parameters schema, already escaped (RFC 6901), for a
    /// place found without the walk (nesting measured through `$ref`s, the meta-schema's
    /// instance paths).
    Pointer(&'x str),
}

impl<'a, 'p> Cx<'a, 'p> {
    fn new(mut mode: Mode<'p>) -> Self {
        // Findings kept from another check remember that profile's verdicts.
        if let Mode::Check { profile, out } = &mut mode {
            out.use_profile(profile.id());
        }
        Cx {
            mode,
            frames: Vec::new(),
            stack: Vec::new(),
            children: Vec::new(),
            unproven_nodes: Vec::new(),
            root: None,
            tool_name: "",
            named: false,
            required_schema_key: None,
            strict: false,
            tool_text: None,
            tool_index: 0,
            request: false,
            rule: &rules::REGISTRY[0],
            name_other: None,
            inline_refusal: None,
            replaces_schema: std::cell::Cell::new(None),
            ref_scans: Default::default(),
            root_refs: Default::default(),
            unreached: Default::default(),
            names: RequestNames::default(),
            node_pointer: None,
        }
    }

    /// In check mode, why `toolwire repair` would refuse the current tool rather than rename
    /// it: the name it would give the tool is one another tool of the request is sent under
    /// (repair's name census). `None` when the rename would stand, the name needs none, or in
    /// collect mode.
    pub fn name_clash(&self) -> Option<String> {
        match &self.mode {
            Mode::Check { profile, .. } if self.named => {
                self.names.clash(profile, self.tool_index, self.tool_name)
            }
            _ => None,
        }
    }

    /// Whether the tool being walked has an envelope (a name), rather than being a bare
    /// schema.
    pub fn named(&self) -> bool {
        self.named
    }

    /// Whether the schema of the tool being walked could be left out: it has an envelope (a
    /// bare schema cannot be) whose shape does not require the schema's key
    /// ([`Cx::required_schema_key`]).
    pub fn may_leave_schema_out(&self) -> bool {
        self.named && self.required_schema_key.is_none()
    }

    /// The key the shape of the tool being walked requires its schema under
    /// ([`ToolRef::required_schema_key`]).
    pub fn required_schema_key(&self) -> Option<&'static str> {
        self.required_schema_key
    }

    /// How a finding about the current tool names tool `other` of the same request: `tool N`
    /// unless the caller gave a [`NameOther`].
    pub fn other_tool(&self, other: usize) -> String {
        match self.name_other {
            Some(name) => name(self.tool_index, other),
            None => format!("tool {other}"),
        }
    }

    /// The parameters schema of the tool being walked.
    pub fn root(&self) -> Option<&'a Value> {
        self.root
    }

    /// The `$ref`s of the tool being walked ([`rules::Repairing::root_refs`]), listed once per
    /// tool when first asked; `None` without a schema.
    pub fn root_refs(&self) -> Option<&crate::repair::refs::RefList> {
        let root = self.root?;
        Some(
            self.root_refs
                .get_or_init(|| crate::repair::refs::RefList::of(root)),
        )
    }

    /// Marks repairable every error of the tool being walked that `toolwire repair` removes
    /// by dropping a keyword whole (trial 59 D9: `properties: null` in a `not` was "not
    /// repairable", its fix saying repair refuses such a tool, while repair dropped the `not`
    /// and the error with it, exit 0). Repair takes a `keyword-unsupported` error before the
    /// errors inside its keyword (they wait for it: `repair::repair_schema_object`'s `drops`),
    /// so where check marks that error repairable and the repair is a drop ([`drops_whole`]),
    /// whatever is in the keyword's value goes with it: an error at or inside its place, and
    /// one in a definition that only `$ref`s inside such keywords reach (repair inlines them
    /// there and drops the keyword, or drops the definition once no `$ref` reaches it).
    /// Nothing in collect mode, nor for a tool without such an error.
    fn mark_what_goes_with_dropped_keywords(&mut self) {
        let Mode::Check { out, .. } = &mut self.mode else {
            return;
        };
        let Some(root) = self.root else {
            return;
        };
        let Findings { records, text, .. } = &mut **out;
        let tool_index = self.tool_index;
        let ours = records
            .iter()
            .rev()
            .take_while(|r| r.tool_index == tool_index && !r.request)
            .count();
        let start = records.len() - ours;
        let error =
            |r: &Record| matches!(r.slot, Slot::Rejected(_)) && r.subject == Subject::Schema;
        // Most tools have no error left unmarked: nothing to look for then.
        if !records[start..].iter().any(|r| error(r) && !r.repairable) {
            return;
        }
        let refs = self
            .root_refs
            .get_or_init(|| crate::repair::refs::RefList::of(root));
        let dropped: Vec<(usize, String)> = records[start..]
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                error(r) && r.repairable && r.rule.id == rules::keyword_unsupported::RULE.id
            })
            .map(|(i, r)| (start + i, text.get(r.pointer).to_string()))
            .filter(|(_, at)| drops_whole(root, at, refs))
            .collect();
        if dropped.is_empty() {
            return;
        }
        // By place, so that each error looks up the places around it (a token at a time)
        // rather than every dropped keyword.
        let places: HashMap<&str, usize> =
            dropped.iter().map(|(i, at)| (at.as_str(), *i)).collect();
        // The definitions no `$ref` reaches once the dropped keywords are gone (and did before),
        // listed when a finding in a definition asks.
        let mut unreached: Option<HashSet<crate::compile::canonical::Definition>> = None;
        for (i, r) in records.iter_mut().enumerate().skip(start) {
            if !error(r) || r.repairable {
                continue;
            }
            let pointer = text.get(r.pointer);
            // The place itself (the value of the keyword: another rule's finding about it),
            // then each place holding it, nearest first.
            let around = std::iter::once(pointer.len())
                .chain(pointer.rmatch_indices('/').map(|(at, _)| at))
                .map(|end| &pointer[..end])
                .find(|p| places.get(p).is_some_and(|k| *k != i))
                .map(str::to_string);
            let goes = match around {
                Some(at) => Some(rules::Gone::With(at)),
                None => crate::compile::canonical::definition_holding(pointer)
                    .filter(|def| {
                        unreached
                            .get_or_insert_with(|| unreached_without(root, &dropped))
                            .contains(def)
                    })
                    .map(|def| rules::Gone::Unreached(refs_holders(root, &dropped, &def))),
            };
            let Some(goes) = goes else {
                continue;
            };
            r.repairable = true;
            // A fix that says repair refuses such a tool is written anew for this one.
            if let Some(fix) = r.fix
                && r.rule.id == rules::properties_invalid::RULE.id
                && let Some(said) = rules::properties_invalid::gone_fix(text.get(fix), &goes)
            {
                r.fix = Some(text.write(|t| t.push_str(&said)));
            }
        }
    }

    /// What `ref-unsupported` has found about the reference targets of the tool being
    /// walked ([`rules::ref_unsupported::form_in`]), kept for the tool's other references.
    pub fn ref_scans(&mut self) -> &mut rules::ref_unsupported::Scans<'a> {
        &mut self.ref_scans
    }

    /// Why `toolwire repair` would refuse to inline the references of the tool being walked,
    /// to ask when needed ([`InlineRefusal::get`]).
    pub fn inline_refusal(&mut self) -> InlineRefusal<'a> {
        let root = self.root;
        let conflicts = self.conflicts();
        self.inline_refusal
            .get_or_insert_with(|| InlineRefusal {
                root,
                conflicts,
                found: Default::default(),
            })
            .clone()
    }

    /// What repair would do with a keyword beside a `$ref` that its target sets differently:
    /// under the check's profile, as repair decides; collecting, refuse (no profile).
    fn conflicts(&self) -> crate::repair::refs::Conflicts {
        match &self.mode {
            Mode::Check { profile, .. } => crate::repair::refs::Conflicts::under(profile),
            Mode::Collect { .. } => crate::repair::refs::Conflicts::Refuse,
        }
    }

    /// In check mode, what a finding about `feat` at `placement` would end with: `Some(None)`
    /// when the profile allows it (no finding), else `Some(Some((level, sentence)))`, its
    /// level and evidence sentence. `None` in collect mode, which records every feature: a
    /// rule may join features whose findings would say the same into one finding, and must
    /// not in collect mode.
    pub fn judged(
        &self,
        feat: &Feat<'_>,
        placement: Placement,
    ) -> Option<Option<(crate::check::Level, String)>> {
        match &self.mode {
            Mode::Check { profile, .. } => {
                let slot = profile.lookup(feat, placement);
                Some(
                    (!matches!(slot, Slot::Allowed))
                        .then(|| profile.explain(slot, feat, placement)),
                )
            }
            Mode::Collect { .. } => None,
        }
    }

    /// In check mode, the evidence of the case that refuses `feat` at `placement`, which
    /// [`Cx::refusing_targets`] and [`Cx::rejecting_targets`] read their targets from. `None`
    /// when the profile allows it, no case covers it (no targets to compare, so nothing is
    /// joined to it), or in collect mode.
    fn refusal_case(&self, feat: &Feat<'_>, placement: Placement) -> Option<&Detail> {
        let Mode::Check { profile, .. } = &self.mode else {
            return None;
        };
        let (Slot::Rejected(i) | Slot::Unknown(i)) = profile.lookup(feat, placement) else {
            return None;
        };
        profile.details().get(i as usize).filter(|_| is_case(i))
    }

    /// In check mode, the targets a finding about `feat` at `placement` would be for: those
    /// that reject it and those with no evidence, each sorted. Two features refused by the
    /// same targets may be said as one finding even when their evidence differs (each piece
    /// then quoted). `None` when the profile allows it, no case covers it, or in collect mode.
    pub fn refusing_targets(
        &self,
        feat: &Feat<'_>,
        placement: Placement,
    ) -> Option<(Vec<String>, Vec<String>)> {
        let d = self.refusal_case(feat, placement)?;
        let mut rejected: Vec<String> = d.rejected_by.iter().map(|e| e.target.clone()).collect();
        let mut unknown = d.unknown_for.clone();
        rejected.sort();
        unknown.sort();
        Some((rejected, unknown))
    }

    /// [`Cx::refusing_targets`]' first list alone, borrowed from the profile: the targets that
    /// reject `feat` at `placement`, sorted (for a fix that names them; the list of those
    /// without evidence, as long as the profile's targets, is not copied).
    pub fn rejecting_targets(&self, feat: &Feat<'_>, placement: Placement) -> Option<Vec<&str>> {
        let d = self.refusal_case(feat, placement)?;
        let mut rejected: Vec<&str> = d.rejected_by.iter().map(|e| e.target.as_str()).collect();
        rejected.sort_unstable();
        Some(rejected)
    }

    /// In check mode, whether the profile allows `type-spelling: T` at `placement` for `T` the
    /// `i`-th of [`STANDARD_TYPES`](super::feature::STANDARD_TYPES), looked up by position: a
    /// rule then has nothing to report. False in collect mode, which records every feature.
    pub fn allows_standard_type(&self, i: usize, placement: Placement) -> bool {
        matches!(&self.mode, Mode::Check { profile, .. }
            if profile.standard_type_slot(i, placement) == Slot::Allowed)
    }

    /// In check mode, whether the profile rejects `feat` at `placement` (some target has
    /// rejecting evidence); false in collect mode, which judges nothing.
    pub fn rejects(&self, feat: &Feat<'_>, placement: Placement) -> bool {
        matches!(&self.mode, Mode::Check { profile, .. }
            if matches!(profile.lookup(feat, placement), Slot::Rejected(_)))
    }

    /// [`Cx::rejects`] for `type-spelling: T`, `T` the `i`-th of
    /// [`STANDARD_TYPES`](super::feature::STANDARD_TYPES), looked up by position as
    /// [`Cx::allows_standard_type`] does.
    pub fn rejects_standard_type(&self, i: usize, placement: Placement) -> bool {
        matches!(&self.mode, Mode::Check { profile, .. }
            if matches!(profile.standard_type_slot(i, placement), Slot::Rejected(_)))
    }

    /// In check mode, whether the profile allows `keyword-allowed: K` at `placement` for `K`
    /// the keyword of id `id` ([`super::keyword`]), looked up by position. False in collect
    /// mode, which records every feature.
    pub fn allows_keyword(&self, id: u8, placement: Placement) -> bool {
        matches!(&self.mode, Mode::Check { profile, .. }
            if profile.keyword_slot(id, placement) == Slot::Allowed)
    }

    /// Reports that the tool uses `feat` at `at`. In check mode nothing happens when the
    /// profile allows it; otherwise a finding is made, its message `what` followed by what the
    /// evidence says.
    pub fn feature(
        &mut self,
        at: At<'_>,
        feat: Feat<'_>,
        placement: Placement,
        what: impl FnOnce() -> String,
    ) {
        self.feature_with_fix(at, feat, placement, what, || None)
    }

    /// [`Cx::feature`] with a fix written for this finding (`None`: the rule's own `fix`).
    pub fn feature_with_fix(
        &mut self,
        at: At<'_>,
        feat: Feat<'_>,
        placement: Placement,
        what: impl FnOnce() -> String,
        fix: impl FnOnce() -> Option<String>,
    ) {
        let fix = |m: &mut String| match fix() {
            Some(f) => {
                m.push_str(&f);
                true
            }
            None => false,
        };
        self.report(
            at,
            feat,
            placement,
            Given::NONE,
            |m| m.push_str(&what()),
            fix,
        )
    }

    /// [`Cx::feature_with_fix`] for a finding that `toolwire repair` removes when `repairable`
    /// says so, whatever the rule's `repairable` says of the feature alone (a count some of
    /// which lies in definitions repair drops).
    pub fn feature_repairable(
        &mut self,
        at: At<'_>,
        feat: Feat<'_>,
        placement: Placement,
        repairable: bool,
        what: impl FnOnce(&mut String),
        fix: impl FnOnce(&mut String) -> bool,
    ) {
        let given = Given {
            repairable,
            ..Given::NONE
        };
        self.report(at, feat, placement, given, what, fix)
    }

    /// Reports `feat` at `at` under `slot`, a verdict the profile carries outside its
    /// features (the meta-schema requirement, [`Cx::meta_schema`]), instead of looking the
    /// feature up.
    pub fn feature_under(
        &mut self,
        at: At<'_>,
        feat: Feat<'_>,
        placement: Placement,
        slot: Slot,
        what: impl FnOnce(&mut String),
    ) {
        self.report(
            at,
            feat,
            placement,
            Given {
                slot: Some(slot),
                shown: None,
                memo: None,
                repairable: false,
                by_feature: false,
            },
            what,
            |_| false,
        )
    }

    /// Reports at `at` that the tool passes a limit of toolwire's own, not a case's: in check
    /// mode an error whose message is `what` followed by the words that no target's evidence
    /// applies, with the rule's own fix, never repairable. Collect mode records nothing, as
    /// there is no feature for a case to speak for.
    pub fn own_cap(&mut self, at: At<'_>, what: impl FnOnce(&mut String)) {
        let Mode::Check { out, .. } = &mut self.mode else {
            return;
        };
        let text = &mut out.text;
        let pointer = write_pointer_at(text, &self.frames, at, &mut self.node_pointer);
        let tool = *self
            .tool_text
            .get_or_insert_with(|| text.write(|t| t.push_str(self.tool_name)));
        let what = text.write(what);
        out.records.push(Record {
            rule: self.rule,
            tool_index: self.tool_index,
            request: self.request,
            tool,
            pointer,
            what,
            parameter: None,
            fix: None,
            slot: Slot::Rejected(OWN_CAP),
            limit: false,
            repairable: false,
            subject: Subject::Schema,
            key_frame: key_frame(at),
        });
    }

    /// [`Cx::feature_with_fix`] for rules that fire often: `what` writes the message, and
    /// `fix` a fix of its own (returning `false` when it writes none: the rule's own `fix`),
    /// into the findings' shared text instead of returning strings of their own.
    pub fn feature_written(
        &mut self,
        at: At<'_>,
        feat: Feat<'_>,
        placement: Placement,
        what: impl FnOnce(&mut String),
        fix: impl FnOnce(&mut String) -> bool,
    ) {
        self.report(at, feat, placement, Given::NONE, what, fix)
    }

    /// [`Cx::feature_written`] that, when `memo` gives the one string the rule's `what` and
    /// `fix` depend on besides the feature's kind and form (`Keyword`, `KeywordForm` or
    /// `TypeSpelling`): the keyword or spelling as written), lets a later finding of the same
    /// kind, form and string share the texts written for an earlier one instead of writing
    /// them again.
    pub fn feature_memo(
        &mut self,
        at: At<'_>,
        feat: Feat<'_>,
        placement: Placement,
        memo: Option<&str>,
        what: impl FnOnce(&mut String),
        fix: impl FnOnce(&mut String) -> bool,
    ) {
        let given = Given {
            memo,
            ..Given::NONE
        };
        self.report(at, feat, placement, given, what, fix)
    }

    /// [`Cx::feature_memo`] for a rule whose `repairable` answers from the feature alone
    /// (not its place): a repeat shares that answer as well as the texts.
    pub fn feature_memo_by_feature(
        &mut self,
        at: At<'_>,
        feat: Feat<'_>,
        placement: Placement,
        memo: &str,
        what: impl FnOnce(&mut String),
    ) {
        let given = Given {
            memo: Some(memo),
            by_feature: true,
            ..Given::NONE
        };
        self.report(at, feat, placement, given, what, |_| false)
    }

    /// [`Cx::feature_written`] for `keyword-allowed: K (form)`, a value keyword `K` does not
    /// take: judged by that form's evidence, unless the profile has no evidence that a target
    /// accepts the form (the slot is unknown) and rejects the keyword itself
    /// (`keyword-allowed: K`, whatever its value): then that rejection decides, the finding
    /// quotes the form and names the keyword's case (as [`Cx::feature_shown`] does), and
    /// `what` and `fix` are told so (their `bool`). Else, with no evidence on the form, a
    /// profile that rejects schemas the meta-schema refuses rejects `value` when the
    /// meta-schema refuses it ([`Cx::meta_refusal`]). Evidence that the form is accepted is
    /// never overridden. Collect mode records the form.
    pub fn keyword_value(
        &mut self,
        at: At<'_>,
        feat: Feat<'_>,
        placement: Placement,
        value: &Value,
        what: impl FnOnce(&mut String, bool),
        fix: impl FnOnce(&mut String, bool) -> bool,
    ) {
        let keyword = match (&self.mode, feat) {
            (Mode::Check { profile, .. }, Feat::KeywordForm(k, _)) => {
                match (
                    profile.lookup(&feat, placement),
                    profile.lookup(&Feat::Keyword(k), placement),
                ) {
                    (Slot::Unknown(_), slot @ Slot::Rejected(_)) => Some(slot),
                    _ => None,
                }
            }
            _ => None,
        };
        let Some(slot) = keyword else {
            // No evidence on the form, but a target of the profile rejects every schema the
            // meta-schema refuses, and it refuses this value: that rejection decides, as it
            // does after the walk in a tool without other errors (`meta-schema-invalid`); here
            // whatever else the tool has, so that a fix loop meets it in the first round.
            if let Some(meta) = self.meta_refusal(&feat, placement, value) {
                // The finding keeps the form as its parameter (what repair's fix is keyed by),
                // as a warning the meta-schema pass settles does.
                let shown = feat.parameter();
                return self.report(
                    at,
                    feat,
                    placement,
                    Given {
                        slot: Some(meta),
                        shown: Some(&shown),
                        memo: None,
                        repairable: false,
                        by_feature: false,
                    },
                    |m| {
                        what(m, false);
                        m.push_str(" (");
                        m.push_str(rules::meta_schema_invalid::WHY);
                        m.push(')');
                    },
                    |m| fix(m, false),
                );
            }
            return self.report(
                at,
                feat,
                placement,
                Given::NONE,
                |m| what(m, false),
                |m| fix(m, false),
            );
        };
        let shown = feat.parameter();
        self.report(
            at,
            feat,
            placement,
            Given {
                slot: Some(slot),
                shown: Some(&shown),
                memo: None,
                repairable: false,
                by_feature: false,
            },
            |m| what(m, true),
            |m| fix(m, true),
        )
    }

    /// In check mode, the profile's meta-schema rejection ([`Cx::meta_schema`]) for
    /// `keyword-allowed: K (form)` when no evidence speaks to the form (its slot is unknown)
    /// and the draft 2020-12 meta-schema refuses `{K: value}`; `None` otherwise. The value is
    /// the form's, so the meta-schema is asked about the keyword alone, only when a rule found
    /// a value its keyword does not take.
    fn meta_refusal(&self, feat: &Feat<'_>, placement: Placement, value: &Value) -> Option<Slot> {
        let (Mode::Check { profile, .. }, Feat::KeywordForm(k, _)) = (&self.mode, feat) else {
            return None;
        };
        let meta = profile.meta_schema()?;
        if !matches!(profile.lookup(feat, placement), Slot::Unknown(_)) {
            return None;
        }
        let alone =
            serde_json::Value::Object(std::iter::once((k.to_string(), value.clone())).collect());
        (!jsonschema::draft202012::meta::validator().is_valid(&alone)).then_some(meta)
    }

    /// [`Cx::feature`] for a feature judged by a case that stands for it: `shown` is the
    /// parameter as the tool has it (`type-list: integer,null`, judged by the case
    /// `type-list: string,null`), which the finding quotes, its message naming the case, as a
    /// limit quotes its measured value. Collect mode records the case's parameter.
    pub fn feature_shown(
        &mut self,
        at: At<'_>,
        feat: Feat<'_>,
        placement: Placement,
        shown: &str,
        what: impl FnOnce() -> String,
    ) {
        let shown = (shown != feat.parameter()).then_some(shown);
        self.report(
            at,
            feat,
            placement,
            Given {
                slot: None,
                shown,
                memo: None,
                repairable: false,
                by_feature: false,
            },
            |m| m.push_str(&what()),
            |_| false,
        )
    }

    /// The one place findings are made. `what` writes what was found (the start of the
    /// message; the evidence sentence is added when the finding is rendered).
    fn report(
        &mut self,
        at: At<'_>,
        feat: Feat<'_>,
        placement: Placement,
        given: Given<'_>,
        what: impl FnOnce(&mut String),
        fix: impl FnOnce(&mut String) -> bool,
    ) {
        match &mut self.mode {
            Mode::Check { profile, out } => {
                let profile: &CompiledProfile = profile;
                let Given {
                    slot,
                    shown,
                    repairable,
                    by_feature,
                    ..
                } = given;
                let memo_key = given.memo.and_then(|key| Some((memo_tag(&feat)?, key)));
                // A repeat of an earlier finding's feature (same rule, kind, form and key)
                // shares its texts, and the verdict at a placement it was judged at.
                let mut memo = memo_key.and_then(|(tag, key)| out.memo(self.rule, tag, key));
                let at_placement = CompiledProfile::placement_index(placement);
                let slot = match (slot, memo) {
                    (Some(slot), _) => slot,
                    (None, Some(m)) => match out.memo_entry(m).slots[at_placement] {
                        Some(known) => {
                            debug_assert_eq!(known, profile.lookup(&feat, placement), "{feat}");
                            known
                        }
                        None => {
                            let slot = profile.lookup(&feat, placement);
                            out.memo_entry(m).slots[at_placement] = Some(slot);
                            slot
                        }
                    },
                    (None, None) => profile.lookup(&feat, placement),
                };
                let (Slot::Rejected(detail) | Slot::Unknown(detail)) = slot else {
                    return;
                };
                let text = &mut out.text;
                let pointer = write_pointer_at(text, &self.frames, at, &mut self.node_pointer);
                let tool = *self
                    .tool_text
                    .get_or_insert_with(|| text.write(|t| t.push_str(self.tool_name)));
                // An error in a definition no `$ref` reaches: repair drops the definition,
                // whatever it holds (trial 56 D9).
                let unreached = matches!(slot, Slot::Rejected(_))
                    .then(|| unreached_definition(self.root, &self.unreached, text.get(pointer)))
                    .flatten();
                // The detail's shared parameter text serves unless no case covers the feature
                // or the feature is a limit (which carries the measured value).
                // A feature shown with its own value names the case that judged it, as a limit
                // does.
                let limit = matches!(feat, Feat::Limit(..)) || shown.is_some();
                let subject = subject_of(at, &feat);
                let parameter = (detail == NO_CASE || limit).then(|| {
                    text.write(|t| match shown {
                        Some(s) if detail != NO_CASE => t.push_str(s),
                        _ => {
                            use std::fmt::Write;
                            let _ = write!(t, "{feat}");
                        }
                    })
                });
                let (what, fix) = match memo {
                    Some(m) => {
                        let m = out.memo_entry(m);
                        (m.what, m.fix)
                    }
                    None => {
                        let what = text.write(what);
                        let mut written = false;
                        let fix = text.write(|t| written = fix(t));
                        let fix = written.then_some(fix);
                        if let Some((tag, key)) = memo_key {
                            let m = out.remember(self.rule, tag, key, what, fix);
                            out.memo_entry(m).slots[at_placement] = Some(slot);
                            memo = Some(m);
                        }
                        (what, fix)
                    }
                };
                let fix = match &unreached {
                    Some((_, name)) => Some(out.text.write(|t| {
                        t.push_str("Drop the definition `");
                        t.push_str(name);
                        t.push_str(
                            "`: no `$ref` reaches it, so it constrains nothing (`toolwire \
                             repair` drops it).",
                        );
                    })),
                    None => fix,
                };
                // What the rule's `repairable` needs is made only when it is asked: a rule
                // that answers from the feature alone answered a repeat already.
                let inline_refused = || match &self.inline_refusal {
                    Some(r) => r.get().is_some(),
                    None => self.root.is_some_and(|root| {
                        crate::repair::refs::refusal_with(
                            root,
                            crate::repair::refs::Conflicts::under(profile),
                        )
                        .is_some()
                    }),
                };
                let node_pointer = || pointer_of(&self.frames, node_of(at));
                let name_clash = || {
                    let named = self.named && !self.request;
                    named
                        .then(|| self.names.clash(profile, self.tool_index, self.tool_name))
                        .flatten()
                };
                let turned = || in_subschema(at).and_then(|(f, _)| turned_above(&self.frames, f));
                let repairing = || rules::Repairing {
                    profile,
                    placement,
                    root: self.root,
                    inline_refused: &inline_refused,
                    named: self.named,
                    required_schema_key: self.required_schema_key,
                    node_pointer: &node_pointer,
                    node: self
                        .root
                        .and(in_subschema(at))
                        .map(|(f, _)| (self.frames[f as usize].value, f == 0)),
                    name_clash: &name_clash,
                    root_refs: &self.root_refs,
                    turned: &turned,
                };
                let repairable = repairable
                    || unreached.is_some()
                    || {
                        let known = memo
                            .filter(|_| by_feature)
                            .and_then(|m| out.memo_entry(m).repairable);
                        match known {
                            Some(known) => known,
                            None => {
                                let said = (self.rule.repairable)(&feat, &repairing());
                                if let Some(m) = memo.filter(|_| by_feature) {
                                    out.memo_entry(m).repairable = Some(said);
                                }
                                said
                            }
                        }
                    }
                    || (subject == Subject::Schema
                        && match self.replaces_schema.get() {
                            Some(known) => known,
                            None => {
                                let known = repairing().replaces_schema();
                                self.replaces_schema.set(Some(known));
                                known
                            }
                        });
                out.records.push(Record {
                    rule: self.rule,
                    tool_index: self.tool_index,
                    request: self.request,
                    tool,
                    pointer,
                    what,
                    parameter,
                    fix,
                    slot,
                    limit,
                    subject,
                    key_frame: key_frame(at),
                    repairable,
                });
            }
            Mode::Collect { out } => out.push(Seen {
                rule: self.rule.id,
                tool_index: self.tool_index,
                parameter: feat.parameter(),
                placement,
                pointer: pointer_of(&self.frames, at),
                limit: matches!(feat, Feat::Limit(..)),
            }),
        }
    }

    /// In check mode, the smallest case value of `limit` in the profile: a measurement below
    /// it needs no exact value. `0` in collect mode, where every measurement is recorded.
    pub fn limit_floor(&self, limit: Limit) -> usize {
        match &self.mode {
            Mode::Check { profile, .. } => profile.limit_floor(limit),
            Mode::Collect { .. } => 0,
        }
    }

    /// Makes later reports of `rule` about the request as a whole, numbered by its first tool
    /// (so that a JSON Lines request gets its line); [`Cx::set_tool`] narrows them to one tool.
    fn about_request(&mut self, tools: &[ToolRef<'_>], rule: &'static Rule) {
        self.tool_index = tools.first().map_or(0, |t| t.index);
        self.tool_name = "";
        self.tool_text = None;
        self.request = true;
        self.rule = rule;
    }

    /// Makes later reports belong to tool `index` named `name` (for request-level rules).
    pub fn set_tool(&mut self, index: usize, name: &'a str) {
        self.tool_index = index;
        self.tool_name = name;
        self.tool_text = None;
        self.request = false;
    }

    /// Whether the tool being walked asks for OpenAI's strict mode ([`ToolRef::strict`]).
    pub fn asks_strict(&self) -> bool {
        self.strict
    }

    /// The JSON Pointer of `at` (for rules that need it in a message).
    pub fn pointer(&self, at: At<'_>) -> String {
        pointer_of(&self.frames, at)
    }

    /// In check mode, the profile's rejection of schemas the JSON Schema 2020-12 meta-schema
    /// refuses ([`CompiledProfile::meta_schema`]); `None` in collect mode, which records the
    /// features of cases, and the meta-schema requirement is no case's feature.
    pub fn meta_schema(&self) -> Option<Slot> {
        match &self.mode {
            Mode::Check { profile, .. } => profile.meta_schema(),
            Mode::Collect { .. } => None,
        }
    }

    /// The verdict on `feat`, a place that leaves no schema to read, at `placement`: the
    /// profile's own where its evidence decides (a rejection the finding cites; acceptance by
    /// every target, which is never overridden), else [`CompiledProfile::no_schema`]. `None`
    /// in collect mode, which records the feature as any other.
    pub fn no_schema(&self, feat: &Feat<'_>, placement: Placement) -> Option<Slot> {
        match &self.mode {
            Mode::Check { profile, .. } => Some(match profile.lookup(feat, placement) {
                Slot::Unknown(_) => profile.no_schema(),
                slot => slot,
            }),
            Mode::Collect { .. } => None,
        }
    }

    /// Whether the walk already made an error finding about the current tool (its schema, name
    /// or description) on other grounds than the meta-schema rejection (a value the
    /// meta-schema refuses, [`Cx::meta_refusal`], is what the meta-schema pass would find
    /// anyway); always false in collect mode.
    pub fn tool_has_error(&self) -> bool {
        let (Mode::Check { profile, .. }, Some((_, mut records))) =
            (&self.mode, self.tool_records())
        else {
            return false;
        };
        let meta = profile.meta_schema();
        records.any(|r| matches!(r.slot, Slot::Rejected(_)) && Some(r.slot) != meta)
    }

    /// The findings so far and, newest first, the records of those about the current tool
    /// (not its request); `None` in collect mode.
    fn tool_records(&self) -> Option<(&Findings, impl Iterator<Item = &Record> + '_)> {
        let Mode::Check { out, .. } = &self.mode else {
            return None;
        };
        let tool = self.tool_index;
        let records = out.records.iter().rev();
        Some((
            &**out,
            records.take_while(move |r| r.tool_index == tool && !r.request),
        ))
    }

    /// Whether the walk already made an error finding about the current tool's schema at
    /// exactly the subschema at `frame` (its keyword `key` when given); always false in
    /// collect mode. The findings' places are matched token by token from their ends, without
    /// writing the place asked about: nearly every place asked about has such an error.
    pub fn error_at(&self, frame: u32, key: Option<&str>) -> bool {
        let Some((out, mut records)) = self.tool_records() else {
            return false;
        };
        let at = |r: &Record| out.text.get(r.pointer);
        records.any(|r| {
            matches!(r.slot, Slot::Rejected(_))
                && r.subject == Subject::Schema
                // Places and frames are one to one: a keyword of another subschema is never
                // a keyword of this one.
                && match (key, r.key_frame) {
                    (Some(_), Record::NO_FRAME) | (None, _) => {
                        is_place(at(r), &self.frames, frame, key)
                    }
                    // At a keyword of this subschema, whose place ends `/key` exactly when it
                    // is that keyword (a token holds no `/`).
                    (Some(key), f) => f == frame && strip_token(at(r), key).is_some(),
                }
        })
    }

    /// Whether the walk made a warning (no evidence either way) about the current tool's
    /// schema at keyword `key` of the subschema at `frame` or at an item of its value
    /// (`/type/0` in a `type` list): a place another rule's error covers may still hold a
    /// finding of its own that a rejection of the place settles. Always false in collect mode.
    pub fn warning_within(&self, frame: u32, key: &str) -> bool {
        let Some((out, mut records)) = self.tool_records() else {
            return false;
        };
        records.any(|r| {
            if !matches!(r.slot, Slot::Unknown(_)) || r.subject != Subject::Schema {
                return false;
            }
            let at = out.text.get(r.pointer);
            is_place(at, &self.frames, frame, Some(key))
                || at
                    .rsplit_once('/')
                    .is_some_and(|(holder, _)| is_place(holder, &self.frames, frame, Some(key)))
        })
    }

    /// The subschema at `frame` of the current tool's walk, if it holds one of the places of
    /// [`Stats::unproven_at`].
    pub fn unproven_node(&self, frame: u32) -> Option<&'a Value> {
        self.unproven_nodes
            .iter()
            .find(|(f, _)| *f == frame)
            .map(|(_, v)| *v)
    }

    /// Writes into `p` (cleared first) the JSON Pointer of the subschema at `frame` of the
    /// current tool's walk, and of its keyword `key` when given.
    pub fn write_place(&self, p: &mut String, frame: u32, key: Option<&str>) {
        p.clear();
        write_frames(p, &self.frames, frame);
        if let Some(k) = key {
            write_below(p, (Some(k), None, None));
        }
    }

    /// Settles the findings the walk already made about the current tool's schema at or
    /// around `pointer` (the same place, a place inside it, or the keyword it is inside: see
    /// `related`) against a rejection `slot` that covers that place too:
    /// returns true when one of them already is an error (nothing more to report), and turns
    /// every warning among them into an error under `slot` whose message gains `why` (the
    /// place is rejected, whatever the missing evidence for the feature itself). Returns
    /// false, changing nothing, when the walk reported nothing there, and in collect mode.
    pub fn settle_at(
        &mut self,
        index: &mut SettleIndex,
        pointer: &str,
        slot: Slot,
        why: &str,
    ) -> bool {
        let Mode::Check { profile, out } = &mut self.mode else {
            return false;
        };
        let mut covered = false;
        let Findings { records, text, .. } = &mut **out;
        // Most tools have a few findings: scanning them costs less than hashing every prefix
        // of their places into the index (which the tools with thousands need).
        let tool_index = self.tool_index;
        let ours = match index.seen {
            None => records
                .iter()
                .rev()
                .take(SETTLE_SCAN + 1)
                .take_while(|r| r.tool_index == tool_index && !r.request)
                .count(),
            Some(_) => usize::MAX,
        };
        let candidates = if ours <= SETTLE_SCAN {
            (records.len() - ours..records.len()).rev().collect()
        } else {
            index.refresh(records, text, tool_index);
            index.candidates(pointer)
        };
        let related_here: Vec<usize> = candidates
            .into_iter()
            .filter(|&i| {
                #[cfg(test)]
                SETTLE_VISITS.with(|v| v.set(v.get() + 1));
                let r = &records[i];
                r.subject == Subject::Schema && related(text.get(r.pointer), pointer)
            })
            .collect();
        // A `type` list the meta-schema refuses for a name in it (`["strng", "null"]`) is
        // refused for that name, which `type-invalid` reports at `/type/i`: every list of
        // distinct standard names is valid, so the list's own warning (no evidence on lists)
        // stays one, and repair respells the name rather than unwrapping the list.
        let named_inside = |r: &Record| {
            r.rule.id == rules::type_list::RULE.id
                && related_here.iter().any(|&j| {
                    let inner = text.get(records[j].pointer);
                    let outer = text.get(r.pointer);
                    inner.len() > outer.len()
                        && inner.starts_with(outer)
                        && inner.as_bytes()[outer.len()] == b'/'
                })
        };
        let skipped: Vec<bool> = related_here
            .iter()
            .map(|&i| named_inside(&records[i]))
            .collect();
        for (i, skip) in related_here.iter().copied().zip(skipped) {
            covered = true;
            if skip {
                continue;
            }
            let r = &mut records[i];
            if let Slot::Unknown(i) = r.slot {
                if r.parameter.is_none() && is_case(i) {
                    // The detail's shared parameter text goes with the old slot: keep it.
                    let parameter = profile.details()[i as usize].parameter.clone();
                    r.parameter = Some(text.write(|t| t.push_str(&parameter)));
                }
                let what = text.get(r.what).to_string();
                r.what = text.write(|t| {
                    t.push_str(&what);
                    t.push_str(" (");
                    t.push_str(why);
                    t.push(')');
                });
                r.slot = slot;
            }
        }
        covered
    }
}

/// Findings of a tool up to which [`Cx::settle_at`] scans them all rather than index them.
const SETTLE_SCAN: usize = 32;

/// The current tool's schema findings by place, for [`Cx::settle_at`]: a meta-schema error
/// at each of 200,000 properties would otherwise scan every finding of the tool once per
/// error (quadratic). Places are hashed, so a lookup gives a superset of the findings that
/// `related` accepts, which it then decides exactly.
#[derive(Default)]
pub struct SettleIndex {
    /// The first record not yet indexed; `None` until the first lookup.
    seen: Option<usize>,
    /// Findings by the hash of their place.
    at: HashMap<u64, Vec<u32>>,
    /// Findings by the hash of each place that holds theirs (a proper, non-empty prefix
    /// ending before a `/`).
    inside: HashMap<u64, Vec<u32>>,
    hasher: std::hash::RandomState,
}

impl SettleIndex {
    fn key(&self, place: &str) -> u64 {
        std::hash::BuildHasher::hash_one(&self.hasher, place)
    }

    /// Indexes the records made since the last lookup. The findings that count are the last
    /// ones of the current tool (request rules ran first), as far back as the first record
    /// that is another tool's or the request's.
    fn refresh(&mut self, records: &[Record], text: &TextBuf, tool_index: usize) {
        let ours = |r: &Record| r.tool_index == tool_index && !r.request;
        let from = match self.seen {
            Some(n) => n,
            None => records.len() - records.iter().rev().take_while(|r| ours(r)).count(),
        };
        for (i, r) in records.iter().enumerate().skip(from) {
            if !ours(r) {
                self.at.clear();
                self.inside.clear();
                continue;
            }
            if r.subject != Subject::Schema {
                continue;
            }
            let place = text.get(r.pointer);
            let n = i as u32;
            self.at.entry(self.key(place)).or_default().push(n);
            for (cut, _) in place.match_indices('/').filter(|(cut, _)| *cut > 0) {
                let k = self.key(&place[..cut]);
                self.inside.entry(k).or_default().push(n);
            }
        }
        self.seen = Some(records.len());
    }

    /// Every finding that may be `related` to `meta`, latest first (the order the findings
    /// were once scanned in): at it, inside it, or at the place directly holding it.
    fn candidates(&self, meta: &str) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        let mut add = |m: &HashMap<u64, Vec<u32>>, place: &str| {
            if let Some(v) = m.get(&self.key(place)) {
                out.extend(v.iter().map(|&i| i as usize));
            }
        };
        add(&self.at, meta);
        add(&self.inside, meta);
        if let Some(cut) = meta.rfind('/') {
            add(&self.at, &meta[..cut]);
        }
        out.sort_unstable_by(|a, b| b.cmp(a));
        out.dedup();
        out
    }
}

/// What a rule gives [`Cx::report`] besides the feature: a verdict the profile carries
/// outside its features, and the parameter as the tool has it (see [`Cx::feature_shown`]).
#[derive(Clone, Copy)]
struct Given<'s> {
    slot: Option<Slot>,
    shown: Option<&'s str>,
    /// The finding's `what` and `fix` depend on nothing but the rule, the feature's kind and
    /// form, and this string, so a repeat may share an earlier finding's texts
    /// ([`Findings::memo`]).
    memo: Option<&'s str>,
    /// `toolwire repair` removes the finding whatever the rule's `repairable` says of its
    /// feature: the rule worked out from more than the feature that repair does.
    repairable: bool,
    /// With `memo`: the rule's `repairable` answers from the feature alone, so a repeat
    /// shares that answer too.
    by_feature: bool,
}

impl Given<'_> {
    const NONE: Given<'static> = Given {
        slot: None,
        shown: None,
        memo: None,
        repairable: false,
        by_feature: false,
    };
}

/// The feature's kind and form, which with the string a rule gives ([`Given::memo`]) key the
/// texts a finding shares; `None` for the kinds that share none.
fn memo_tag(feat: &Feat<'_>) -> Option<(u8, &'static str)> {
    match *feat {
        Feat::Keyword(_) => Some((0, "")),
        Feat::KeywordForm(_, form) => Some((1, form)),
        Feat::TypeSpelling(_) => Some((2, "")),
        _ => None,
    }
}

/// Whether a finding at `found` speaks to the place `meta` (JSON Pointers into one schema):
/// the same place, a place inside it (the walk pinpoints deeper), or a keyword whose value
/// directly holds it (`/dependentRequired` for `/dependentRequired/p`). A subschema or a
/// property holding it does not: a finding about a property's name or a schema's missing
/// `type` says nothing of a bad value inside it, nor does the root; nor does a keyword that
/// holds subschemas (`$defs`, `anyOf`, ...): a bad value in one of its schemas says nothing
/// of whether a target takes the keyword.
fn related(found: &str, meta: &str) -> bool {
    fn inside(inner: &str, outer: &str) -> bool {
        !outer.is_empty()
            && inner.len() > outer.len()
            && inner.starts_with(outer)
            && inner.as_bytes()[outer.len()] == b'/'
    }
    found == meta
        || inside(found, meta)
        || (inside(meta, found)
            && !meta[found.len() + 1..].contains('/')
            && names_keyword(found)
            && !holds_schemas(found.rsplit('/').next().unwrap_or("")))
}

/// Whether keyword `k` (2020-12 core applicators, and draft-07's `definitions` and `items`
/// list) takes subschemas in its value.
fn holds_schemas(k: &str) -> bool {
    matches!(
        k,
        "$defs"
            | "definitions"
            | "properties"
            | "patternProperties"
            | "dependentSchemas"
            | "anyOf"
            | "allOf"
            | "oneOf"
            | "prefixItems"
            | "items"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "additionalProperties"
            | "additionalItems"
            | "propertyNames"
            | "unevaluatedItems"
            | "unevaluatedProperties"
    )
}

/// Whether the last token of `pointer` is a keyword of a schema rather than a list index or
/// a member of a map keyword (`/properties/type` is the property `type`,
/// `/dependencies/enum` the dependency of a property `enum`): [`crate::schema::last_token`],
/// the schema not at hand.
fn names_keyword(pointer: &str) -> bool {
    let last = pointer.rsplit('/').next().unwrap_or("");
    !last.is_empty()
        && !last.bytes().all(|b| b.is_ascii_digit())
        && crate::schema::last_token(pointer) == crate::schema::Token::Key
}

/// What a feature found at `at` is about: a feature of the tool itself is about its name,
/// its description, or the whole tool (a missing schema, the request's tool count).
fn subject_of(at: At<'_>, feat: &Feat<'_>) -> Subject {
    if !matches!(at, At::Tool) {
        return Subject::Schema;
    }
    match feat {
        Feat::NameChars(_) | Feat::NameUnique | Feat::Limit(Limit::NameLength, _) => Subject::Name,
        Feat::Description(_) | Feat::Limit(Limit::DescriptionLength, _) => Subject::Description,
        _ => Subject::Tool,
    }
}

/// The subschema `at` is in (itself for a node).
fn node_of(at: At<'_>) -> At<'_> {
    match at {
        At::Key(f, _) | At::KeyIndex(f, _, _) | At::Member(f, _, _) => At::Node(f),
        other => other,
    }
}

fn pointer_of(frames: &[Frame<'_>], at: At<'_>) -> String {
    let mut p = String::with_capacity(32);
    write_pointer(&mut p, frames, at);
    p
}

/// Where the previous finding's subschema pointer went ([`write_pointer_at`]): its frame, its
/// span, and the length of its parent frame's pointer, which the span starts with.
type LastNode = Option<(u32, Span, u32)>;

/// Writes the JSON Pointer of `at` into `text`, copying the subschema's part from where
/// `last` says the previous finding wrote it when it is the same subschema, and its parent's
/// part when it is that subschema's sibling or child (findings come in document order: the
/// next property's `type` follows the last one's), and remembering where this one's went.
fn write_pointer_at(
    text: &mut TextBuf,
    frames: &[Frame<'_>],
    at: At<'_>,
    last: &mut LastNode,
) -> Span {
    let Some((frame, below)) = in_subschema(at) else {
        return text.write(|t| write_pointer(t, frames, at));
    };
    let (node, parent_len) = match *last {
        Some((f, span, parent_len)) if f == frame => (text.copy(span), parent_len),
        // The root's pointer is empty: no frames to read (most tools' findings are at its
        // keywords or its properties).
        _ if frame == 0 => (text.write(|_| {}), 0),
        _ => {
            let fr = &frames[frame as usize];
            let parent = match *last {
                // Below the root (most subschemas with findings): nothing to write.
                _ if fr.parent == 0 => text.write(|_| {}),
                Some((f, span, parent_len)) if frames[f as usize].parent == fr.parent => {
                    text.copy(span.head(parent_len))
                }
                Some((f, span, _)) if f == fr.parent => text.copy(span),
                _ => text.write(|t| write_frames(t, frames, fr.parent)),
            };
            let own = text.write(|t| push_tok(t, fr.tok));
            (parent.join(own), parent.len())
        }
    };
    *last = Some((frame, node, parent_len));
    node.join(text.write(|t| match at {
        // The usual place, a keyword of the subschema, without the general case's options.
        At::Key(_, key) => push(t, key),
        _ => write_below(t, below),
    }))
}

/// Whether `pointer` is the JSON Pointer of the subschema at `frame`, followed by `/key`
/// when given: what [`write_frames`] and [`push`] would write, read back from the end.
fn is_place(pointer: &str, frames: &[Frame<'_>], frame: u32, key: Option<&str>) -> bool {
    let strip = strip_token;
    let mut rest = pointer;
    if let Some(k) = key {
        match strip(rest, k) {
            Some(r) => rest = r,
            None => return false,
        }
    }
    let mut i = frame as usize;
    // Each step strips at least one token or stops, and frames lead to the root.
    while let Some(fr) = frames.get(i) {
        let stripped = match fr.tok {
            Tok::Root => return rest.is_empty(),
            Tok::Key(k) => strip(rest, k),
            Tok::Index(n) => rest.rsplit_once('/').and_then(|(before, last)| {
                // As `push_index` writes it: decimal digits, no leading zero.
                let canonical = last.bytes().all(|b| b.is_ascii_digit())
                    && (last.len() == 1 || !last.starts_with('0'));
                (canonical && last.parse::<u32>() == Ok(n)).then_some(before)
            }),
            Tok::Pair(kw, name) => strip(rest, name).and_then(|r| strip(r, kw)),
        };
        match stripped {
            Some(r) => rest = r,
            None => return false,
        }
        i = fr.parent as usize;
    }
    false
}

/// `rest` without its last token when that is `token` (escaped as [`push`] does).
fn strip_token<'s>(rest: &'s str, token: &str) -> Option<&'s str> {
    let before = if needs_escape(token.as_bytes()) {
        let escaped = token.replace('~', "~0").replace('/', "~1");
        rest.strip_suffix(escaped.as_str())?
    } else {
        rest.strip_suffix(token)?
    };
    before.strip_suffix('/')
}

/// What lies below a subschema's frame in a place: a key, an index in it, a member of it.
type Below<'x> = (Option<&'x str>, Option<usize>, Option<&'x str>);

/// [`Record::key_frame`] of a finding at `at`.
/// The nearest `not`, `if`, `oneOf`, `$defs` or `definitions` frame `f` lies below, or
/// subschema that names itself (`$anchor`, `$id`: [`crate::schema::names_itself`], given as
/// `"$anchor"`), which a `$ref` in one of the others may reach, if any
/// ([`rules::Repairing::turned`]).
fn turned_above(frames: &[Frame<'_>], mut f: u32) -> Option<&'static str> {
    loop {
        let frame = &frames[f as usize];
        match frame.tok {
            Tok::Key(k @ ("not" | "if" | "oneOf"))
            | Tok::Pair(k @ ("$defs" | "definitions"), _) => {
                return Some(k);
            }
            Tok::Root => return None,
            _ if frame.names_itself => return Some("$anchor"),
            _ => f = frame.parent,
        }
    }
}

/// Whether repair's fix of a `keyword-unsupported` error at `at` (a keyword's place in
/// `root`, whose `$ref`s are `refs`), where check marks it repairable, takes the keyword out
/// with its whole value (`repair::fixes::keywords::keyword`'s drops), so that nothing in it is
/// left: not an `anyOf`, `oneOf` or `allOf`, which are rewritten or merged, their branches
/// kept; not one a `$ref` points into, which repair inlines first, copying out what it reaches
/// (a `$ref` by anchor or `$id` may: any such `$ref` counts). A value holding no subschema
/// holds no finding either.
fn drops_whole(root: &Value, at: &str, refs: &crate::repair::refs::RefList) -> bool {
    let Some((_, k)) = crate::repair::place::split_keyword(at) else {
        return false;
    };
    !matches!(k.as_str(), "anyOf" | "oneOf" | "allOf")
        && crate::json::at_pointer(root, at).is_some_and(|v| v.is_object() || v.is_array())
        && !refs.points_under(&format!("#{at}"))
        && refs.named(root).is_empty()
}

/// The places of `dropped` keywords in `root` holding a `$ref` to definition `def` (or into
/// it); where none does (it is reached through another definition), those holding any `$ref`.
fn refs_holders(
    root: &Value,
    dropped: &[(usize, String)],
    def: &crate::compile::canonical::Definition,
) -> Vec<String> {
    let target = format!("#/{}/{}", def.0, crate::json::escape_token(&def.1));
    let holding = |at: &str, to: Option<&str>| {
        crate::json::at_pointer(root, at).is_some_and(|v| {
            let mut open = vec![v];
            while let Some(v) = open.pop() {
                match v {
                    Value::Object(m) => {
                        for (k, v) in m {
                            match (k.as_str(), v, to) {
                                ("$ref", Value::String(r), Some(to)) => {
                                    let r = crate::schema::percent_decode(r);
                                    if r.strip_prefix(to).is_some_and(|rest| {
                                        rest.is_empty() || rest.starts_with('/')
                                    }) {
                                        return true;
                                    }
                                }
                                ("$ref", Value::String(_), None) => return true,
                                _ => open.push(v),
                            }
                        }
                    }
                    Value::Array(a) => open.extend(a),
                    _ => {}
                }
            }
            false
        })
    };
    let direct: Vec<String> = dropped
        .iter()
        .filter(|(_, at)| holding(at, Some(&target)))
        .map(|(_, at)| at.clone())
        .collect();
    if !direct.is_empty() {
        return direct;
    }
    dropped
        .iter()
        .filter(|(_, at)| holding(at, None))
        .map(|(_, at)| at.clone())
        .collect()
}

/// The root's definitions no `$ref` reaches once the keywords at `dropped` are taken out of
/// `root` ([`crate::compile::canonical::unreached_definitions`]).
fn unreached_without(
    root: &Value,
    dropped: &[(usize, String)],
) -> HashSet<crate::compile::canonical::Definition> {
    let mut without = root.clone();
    for (_, at) in dropped {
        if let Some((node, k)) = crate::repair::place::split_keyword(at)
            && let Some(m) = without.pointer_mut(&node).and_then(Value::as_object_mut)
        {
            m.shift_remove(&k);
        }
    }
    crate::compile::canonical::unreached_definitions(&without)
        .into_iter()
        .collect()
}

fn key_frame(at: At<'_>) -> u32 {
    match at {
        At::Key(f, _) => f,
        _ => Record::NO_FRAME,
    }
}

/// The root's definition `pointer` lies in, when no `$ref` of the schema `root` reaches it
/// ([`crate::compile::canonical::unreached_definitions`], listed into `unreached` once per
/// tool): repair drops it, as compile does.
fn unreached_definition(
    root: Option<&Value>,
    unreached: &std::cell::OnceCell<HashSet<crate::compile::canonical::Definition>>,
    pointer: &str,
) -> Option<crate::compile::canonical::Definition> {
    let def = crate::compile::canonical::definition_holding(pointer)?;
    let root = root?;
    unreached
        .get_or_init(|| {
            crate::compile::canonical::unreached_definitions(root)
                .into_iter()
                .collect()
        })
        .contains(&def)
        .then_some(def)
}

/// The subschema's frame `at` is in, and what lies below it; `None` for a place that is not
/// in a subschema the walk met (the tool, a pointer given whole).
fn in_subschema(at: At<'_>) -> Option<(u32, Below<'_>)> {
    Some(match at {
        At::Tool | At::Pointer(_) => return None,
        At::Node(f) => (f, (None, None, None)),
        At::Key(f, k) => (f, (Some(k), None, None)),
        At::KeyIndex(f, k, i) => (f, (Some(k), Some(i), None)),
        At::Member(f, k, name) => (f, (Some(k), None, Some(name))),
    })
}

/// Appends the JSON Pointer of `at` to `p`.
fn write_pointer(p: &mut String, frames: &[Frame<'_>], at: At<'_>) {
    match (at, in_subschema(at)) {
        (At::Pointer(pointer), _) => p.push_str(pointer),
        (_, Some((frame, below))) => {
            write_frames(p, frames, frame);
            write_below(p, below);
        }
        (_, None) => {}
    }
}

/// Appends the JSON Pointer of the subschema at `frame`.
fn write_frames(p: &mut String, frames: &[Frame<'_>], frame: u32) {
    // Walk up to the root, then write the tokens root first.
    // Room for the chains nearly every pointer has; zeroed on each call, so no larger.
    let mut chain: [u32; 16] = [0; 16];
    let mut len = 0;
    let mut deep: Vec<u32> = Vec::new();
    let mut i = frame as usize;
    while let Some(fr) = frames.get(i) {
        if matches!(fr.tok, Tok::Root) {
            break;
        }
        if len < chain.len() {
            chain[len] = i as u32;
            len += 1;
        } else {
            deep.push(i as u32);
        }
        i = fr.parent as usize;
    }
    for &f in deep.iter().rev().chain(chain[..len].iter().rev()) {
        push_tok(p, frames[f as usize].tok);
    }
}

/// Appends the token(s) of a frame below its parent.
#[inline(always)]
fn push_tok(p: &mut String, tok: Tok<'_>) {
    match tok {
        Tok::Root => {}
        Tok::Key(k) => push_keyword(p, k),
        Tok::Index(n) => push_index(p, n as usize),
        Tok::Pair(kw, name) => {
            push_keyword(p, kw);
            push(p, name);
        }
    }
}

#[inline]
fn write_below(p: &mut String, (key, index, member): Below<'_>) {
    if let Some(k) = key {
        push(p, k);
    }
    if let Some(n) = index {
        push_index(p, n);
    }
    if let Some(name) = member {
        push(p, name);
    }
}

/// Appends `/token`, escaped per RFC 6901 (`~` → `~0`, `/` → `~1`). Inlined into the
/// pointer writers: as a call, saving and restoring registers cost a third of each token
/// written, and every finding writes two or three; the rare escape is a call of its own.
#[inline(always)]
fn push(p: &mut String, token: &str) {
    if needs_escape(token.as_bytes()) {
        return push_escaped(p, token);
    }
    p.reserve(1 + token.len());
    p.push('/');
    p.push_str(token);
}

/// [`push`] for a token that holds a `~` or a `/`.
#[cold]
#[inline(never)]
fn push_escaped(p: &mut String, token: &str) {
    p.reserve(1 + token.len());
    p.push('/');
    for c in token.chars() {
        match c {
            '~' => p.push_str("~0"),
            '/' => p.push_str("~1"),
            c => p.push(c),
        }
    }
}

/// Appends `/keyword` for a keyword the walk names by its own literal (`properties`,
/// `anyOf`, ...), which holds no `~` nor `/`: no escape search, which every frame of every
/// finding's pointer paid for.
fn push_keyword(p: &mut String, keyword: &'static str) {
    debug_assert!(!needs_escape(keyword.as_bytes()), "{keyword}");
    p.reserve(1 + keyword.len());
    p.push('/');
    p.push_str(keyword);
}

/// Whether `bytes` holds a `~` or a `/`, eight bytes at a time (a per-byte search showed in
/// profiles: every finding's pointer is escaped token by token). Inlined into `push`: the
/// call cost as much as the test.
#[inline]
fn needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    let has = |x: u64| {
        let (t, s) = (x ^ (ONES * u64::from(b'~')), x ^ (ONES * u64::from(b'/')));
        (t.wrapping_sub(ONES) & !t | s.wrapping_sub(ONES) & !s) & HIGHS != 0
    };
    // Tokens are mostly keywords and property names of up to 16 bytes: two words, and no
    // loop (the bytes of a shorter one went through a loop of their own, a third of the cost
    // of every token written).
    if let Some((a, b)) = covering_words(bytes) {
        return has(a) || has(b);
    }
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        if has(u64::from_le_bytes(c.try_into().expect("eight bytes"))) {
            return true;
        }
    }
    // The last eight bytes hold the remainder (the string is longer than 16).
    !chunks.remainder().is_empty()
        && has(u64::from_le_bytes(
            *bytes.last_chunk::<8>().expect("more than sixteen bytes"),
        ))
}

/// Two words that together hold every byte of `bytes` (some twice; zero bytes pad a string
/// shorter than four), for a test on each of its bytes without a loop; `None` past 16 bytes.
#[inline]
pub(crate) fn covering_words(bytes: &[u8]) -> Option<(u64, u64)> {
    if bytes.len() > 16 {
        return None;
    }
    // Fixed-size chunks: no bounds check left to pay for.
    if let (Some(a), Some(b)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        return Some((u64::from_le_bytes(*a), u64::from_le_bytes(*b)));
    }
    if let (Some(a), Some(b)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let half = |h: &[u8; 4]| u64::from(u32::from_le_bytes(*h));
        return Some((half(a), half(b)));
    }
    let w = bytes
        .iter()
        .enumerate()
        .fold(0u64, |w, (i, &x)| w | u64::from(x) << (8 * i));
    Some((w, w))
}

fn push_index(p: &mut String, n: usize) {
    p.push('/');
    if n < 10 {
        p.push(char::from(b'0' + n as u8));
    } else {
        use std::fmt::Write;
        let _ = write!(p, "{n}");
    }
}

/// Checks one request's tools (no built-in tools among them) against `profile`, appending
/// findings to `out`.
pub fn check_request(tools: &[ToolRef<'_>], profile: &CompiledProfile, out: &mut Vec<Finding>) {
    check(tools, &[], profile, out, None);
}

/// [`check_request`] for a request that also holds the named built-in tools `builtins`
/// (numbered like `tools`), whose findings name other tools of the request with `name_other`.
pub fn check_request_naming(
    tools: &[ToolRef<'_>],
    builtins: &[BuiltinTool],
    profile: &CompiledProfile,
    out: &mut Vec<Finding>,
    name_other: NameOther<'_>,
) {
    check(tools, builtins, profile, out, Some(name_other));
}

fn check(
    tools: &[ToolRef<'_>],
    builtins: &[BuiltinTool],
    profile: &CompiledProfile,
    out: &mut Vec<Finding>,
    name_other: Option<NameOther<'_>>,
) {
    let mut findings = Findings::default();
    let mut cx = Cx::new(Mode::Check {
        profile,
        out: &mut findings,
    });
    cx.name_other = name_other;
    run(tools, builtins, &mut cx);
    drop(cx);
    findings.render_into(profile, out);
}

/// Checks many requests whose tools all live as long as `'a`, reusing the walk's buffers.
pub struct Checker<'a, 'p> {
    cx: Cx<'a, 'p>,
}

/// The memory of a [`Checker`]'s walk (its frames and work lists), kept by a caller that
/// checks many batches one after the other ([`Checker::reusing`], [`Checker::into_buffers`]):
/// a JSON Lines corpus makes a checker per line, and each grew these anew from empty and
/// freed them again. Holds no value: only capacity.
#[derive(Default)]
pub struct Buffers {
    frames: Vec<Frame<'static>>,
    stack: Vec<Pending<'static>>,
    children: Vec<(&'static Value, Child<'static>, Via)>,
    unproven_nodes: Vec<(u32, &'static Value)>,
    given: Vec<(usize, &'static str)>,
}

/// `v` emptied, as a vector of another type of the same size and alignment (a borrow of
/// another lifetime): the standard library collects an emptied `IntoIter` mapped so into its
/// own allocation, so the capacity is kept without `unsafe`. Were it not, this would only
/// allocate anew.
fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().map(|_| unreachable!("emptied")).collect()
}

impl<'a, 'p> Checker<'a, 'p> {
    pub fn new(profile: &'p CompiledProfile, out: &'p mut Findings) -> Self {
        Self::reusing(profile, out, Buffers::default())
    }

    /// [`Checker::new`] walking in the memory `buffers` kept from an earlier checker.
    pub fn reusing(profile: &'p CompiledProfile, out: &'p mut Findings, buffers: Buffers) -> Self {
        let mut cx = Cx::new(Mode::Check { profile, out });
        cx.frames = recycle(buffers.frames);
        cx.stack = recycle(buffers.stack);
        cx.children = recycle(buffers.children);
        cx.unproven_nodes = recycle(buffers.unproven_nodes);
        cx.names.given = recycle(buffers.given);
        Checker { cx }
    }

    /// The walk's memory, for [`Checker::reusing`].
    pub fn into_buffers(self) -> Buffers {
        let cx = self.cx;
        Buffers {
            frames: recycle(cx.frames),
            stack: recycle(cx.stack),
            children: recycle(cx.children),
            unproven_nodes: recycle(cx.unproven_nodes),
            given: recycle(cx.names.given),
        }
    }

    /// Checks one request, appending to the output given to [`Checker::new`]: its function
    /// tools and its named built-in tools (which only request rules see). Tool indexes
    /// ([`ToolRef::index`]) must be unique among all the requests one `Checker` sees (as a
    /// file numbers its tools): a tool's own findings are told from the others' by them.
    pub fn request(&mut self, tools: &[ToolRef<'a>], builtins: &[BuiltinTool]) {
        run(tools, builtins, &mut self.cx);
    }

    /// Findings made so far.
    pub fn findings(&mut self) -> &mut Findings {
        match &mut self.cx.mode {
            Mode::Check { out, .. } => out,
            Mode::Collect { .. } => unreachable!("a Checker checks"),
        }
    }
}

/// Whether the walk proves `schema` valid against the JSON Schema draft 2020-12 meta-schema,
/// keyword by keyword ([`Stats::meta_unproven`]). `false` proves nothing: ask the
/// meta-schema.
pub fn meta_proven(schema: &Value) -> bool {
    !bare_walk(schema).meta_unproven
}

/// The properties `schema` declares, counted as the walk counts them for a tool
/// ([`Stats::property_count`]: every `properties` map it meets), by the same walk.
pub fn property_count(schema: &Value) -> usize {
    bare_walk(schema).property_count
}

/// What the walk counts of `schema` with no rule run.
fn bare_walk(schema: &Value) -> Stats {
    let mut seen = Vec::new();
    let mut cx = Cx::new(Mode::Collect { out: &mut seen });
    cx.frames.push(Frame {
        parent: 0,
        tok: Tok::Root,
        value: schema,
        names_itself: false,
    });
    let mut stats = Stats::default();
    walk(
        schema,
        &mut cx,
        &rules::HookLists::NONE,
        &mut Vec::new(),
        &mut Vec::new(),
        &mut stats,
    );
    stats
}

/// Every feature the tools of one request use, in the order met.
pub fn collect(tools: &[ToolRef<'_>]) -> Vec<Seen> {
    let mut out = Vec::new();
    let mut cx = Cx::new(Mode::Collect { out: &mut out });
    run(tools, &[], &mut cx);
    drop(cx);
    out
}

fn run<'a, 'p>(tools: &[ToolRef<'a>], builtins: &[BuiltinTool], cx: &mut Cx<'a, 'p>) {
    // A check runs the rules its profile has on; collecting runs every rule.
    let hooks: &'p rules::HookLists = match &cx.mode {
        Mode::Check { profile, .. } => {
            let profile: &'p CompiledProfile = profile;
            profile.hooks()
        }
        Mode::Collect { .. } => rules::hooks(),
    };
    if matches!(cx.mode, Mode::Check { .. }) {
        cx.names.reset(tools);
    }
    for rule in &hooks.request {
        cx.about_request(tools, rule);
        (rule.hooks.request.expect("listed as a request hook"))(cx, tools, builtins);
    }
    cx.request = false;
    let mut request_stats = rules::RequestStats::default();
    for tool in tools {
        cx.tool_index = tool.index;
        cx.tool_name = tool.name.unwrap_or("");
        cx.named = tool.has_envelope();
        cx.required_schema_key = tool.required_schema_key;
        cx.strict = tool.strict;
        cx.tool_text = None;
        cx.node_pointer = None;
        cx.frames.clear();
        cx.frames.push(Frame {
            parent: 0,
            tok: Tok::Root,
            value: tool.parameters.unwrap_or(&NO_SCHEMA),
            names_itself: false,
        });
        cx.root = tool.parameters;
        // The tool's rules resolve its `$ref`s many times over: search each resource once.
        let _declarations = tool.parameters.map(crate::schema::refs::indexed);
        cx.unproven_nodes.clear();
        cx.inline_refusal = None;
        cx.replaces_schema.set(None);
        cx.ref_scans = Default::default();
        cx.root_refs = Default::default();
        cx.unreached = Default::default();
        for rule in &hooks.tool {
            cx.rule = rule;
            (rule.hooks.tool.expect("listed as a tool hook"))(cx, tool);
        }
        let mut stats = Stats::default();
        if let Some(root) = tool.parameters {
            let mut stack = std::mem::take(&mut cx.stack);
            let mut children = std::mem::take(&mut cx.children);
            walk(root, cx, hooks, &mut stack, &mut children, &mut stats);
            cx.stack = stack;
            cx.children = children;
        }
        for rule in &hooks.after {
            cx.rule = rule;
            (rule.hooks.after.expect("listed as an after hook"))(cx, tool, &stats);
        }
        cx.mark_what_goes_with_dropped_keywords();
        request_stats.property_count += stats.property_count;
        request_stats.truncated |= stats.truncated;
    }
    for rule in &hooks.request_after {
        cx.about_request(tools, rule);
        (rule
            .hooks
            .request_after
            .expect("listed as a request-after hook"))(cx, tools, &request_stats);
    }
    cx.request = false;
}

/// How a child subschema hangs below its parent, for its JSON Pointer.
#[derive(Debug, Clone, Copy)]
enum Child<'a> {
    /// A single-schema keyword: `/not`.
    Key(&'static str),
    /// A member of a map keyword: `/properties/name`.
    Member(&'static str, &'a str),
    /// An element of a list keyword: `/anyOf/2`.
    Element(&'static str, u32),
}

/// A subschema to visit: its value, frame, how it hangs below its parent, the object depth
/// above it, and whether it is the one branch of an `allOf` in an object schema (or in such a
/// branch), which is that object, as repair's merge makes it (no level of its own:
/// [`crate::schema::depth`] counts so too).
type Pending<'a> = (&'a Value, u32, Via, u32, bool);

/// Visits `root` and every subschema check judges below it (those of the applicators, of
/// `properties` and the other keywords of members and items, of `$defs`/`definitions`, and of
/// draft 4-7's schema-form `dependencies`), running the rules' hooks on each. Not the schema
/// in `contentSchema`: it annotates a string argument's decoded content (2020-12 validation
/// §8.5) and asserts nothing of the arguments (`args` does not check it, `repair` drops it
/// whole), and check names the keyword itself under every profile, with the fix that removes
/// it and what it holds (keyword-unsupported: "it only annotates"), so a finding inside it
/// would ask for a fix to what that fix deletes. A target that does read inside it (one that
/// validates the request against the 2020-12 meta-schema, as Anthropic does) is answered by
/// the meta-schema pass, which validates the whole schema and names the place inside
/// (`meta-schema-invalid`). Its bytes count toward the size as any keyword's value does.
fn walk<'a>(
    root: &'a Value,
    cx: &mut Cx<'a, '_>,
    hooks: &rules::HookLists,
    stack: &mut Vec<Pending<'a>>,
    children: &mut Vec<(&'a Value, Child<'a>, Via)>,
    stats: &mut Stats,
) {
    // Per placement, the keys keyword-unsupported passes over unread: in check mode by the
    // profile's verdicts; collecting, it records every keyword but those it leaves to others.
    let quiet = match &cx.mode {
        Mode::Check { profile, .. } => profile.quiet_keywords(),
        Mode::Collect { .. } => [rules::keyword_unsupported::quiet_keys(0); PLACEMENTS],
    };
    stack.clear();
    stack.push((root, 0, Via::Root, 0, false));
    let mut visited = 0usize;
    while let Some((value, frame, via, parent_depth, joined)) = stack.pop() {
        visited += 1;
        if visited > crate::schema::MAX_NODES {
            stats.truncated = true;
            stats.meta_unproven = true;
            break;
        }
        let map = value.as_object();
        let mut node = Node {
            value,
            map,
            frame,
            via,
            placement: via.placement(),
            object_depth: parent_depth,
            ty: Ty::Absent,
            ty_means: 0,
            ty_standard: None,
            properties: None,
            items: None,
            prefix_items: false,
            required: None,
            required_names: false,
            enum_: None,
            reference: None,
            any_of: None,
            one_of: false,
            all_of: false,
            not: false,
            format: None,
            nullable: None,
            defs: false,
            definitions: false,
            has_if: false,
            has_const: false,
            names_itself: false,
            bad_values: 0,
            key_ids: [NO_ID; KEY_IDS],
        };
        children.clear();
        // The keys met (see `read_keys`); none in a subschema that is no object.
        let mut keys = 0;
        match map {
            Some(map) => {
                stats.compact_bytes += 2 + map.len().saturating_sub(1);
                let before = stats.unproven;
                keys = read_keys(map, &mut node, children, stats);
                if node.names_itself {
                    cx.frames[frame as usize].names_itself = true;
                }
                if stats.unproven != before && before < UNPROVEN_PLACES {
                    cx.unproven_nodes.push((frame, value));
                }
            }
            None => {
                if !meta_shape::schema_position(value) {
                    if stats.unproven < UNPROVEN_PLACES {
                        cx.unproven_nodes.push((frame, value));
                    }
                    stats.unproven_place(frame, Stats::WHOLE);
                }
                stats.add_value(value)
            }
        }
        // What `crate::schema::is_object_schema` says, from the keys already read.
        let object = node.properties.is_some()
            || matches!(node.ty, Ty::One(t) if t.eq_ignore_ascii_case("object"));
        if object && !joined {
            node.object_depth = parent_depth + 1;
        }
        // The one branch of an `allOf` in an object is that object (trial 50 D8: an inline
        // chain of such links was counted two levels a link).
        let joins = (object || joined)
            && node.all_of
            && map
                .and_then(|m| m.get("allOf"))
                .and_then(Value::as_array)
                .is_some_and(|a| a.len() == 1);
        stats.refers |= node.reference.is_some() || node.defs || node.definitions;
        if node.object_depth > stats.max_object_depth {
            stats.max_object_depth = node.object_depth;
            stats.deepest_frame = frame;
        }
        if let Some(Value::Array(e)) = node.enum_
            && e.len() > stats.max_enum
        {
            stats.max_enum = e.len();
            stats.max_enum_frame = frame;
        }
        let mut due = if every_hook() {
            u64::MAX
        } else {
            let due = hooks.node_due(facts(&node, cx.strict));
            // Keys keyword-unsupported passes over unread, and nothing else: its hook would
            // say nothing (most subschemas hold only keywords the profile allows).
            if keys & !quiet[CompiledProfile::placement_index(node.placement)] == 0 {
                due & !hooks.keyword_unsupported
            } else {
                due
            }
        };
        // Lowest bit first: the rules run in the order they are listed.
        while due != 0 {
            let Some(rule) = hooks.node.get(due.trailing_zeros() as usize) else {
                break;
            };
            due &= due - 1;
            cx.rule = rule;
            (rule.hooks.node.expect("listed as a node hook"))(cx, &node);
        }
        // Make the children's frames, then push them so that they pop in document order.
        let first = stack.len();
        let mut list_kw: Option<(&'static str, u32)> = None;
        for &(sub, child, child_via) in children.iter() {
            let (parent, tok) = match child {
                Child::Key(k) => (frame, Tok::Key(k)),
                Child::Member(kw, name) => (frame, Tok::Pair(kw, name)),
                Child::Element(kw, i) => {
                    let kw_frame = match list_kw {
                        Some((k, f)) if k == kw => f,
                        _ => {
                            cx.frames.push(Frame {
                                parent: frame,
                                tok: Tok::Key(kw),
                                // Asked once per list keyword, which few subschemas have.
                                value: map.and_then(|m| m.get(kw)).unwrap_or(&NO_SCHEMA),
                                names_itself: false,
                            });
                            let f = (cx.frames.len() - 1) as u32;
                            list_kw = Some((kw, f));
                            f
                        }
                    };
                    (kw_frame, Tok::Index(i))
                }
            };
            cx.frames.push(Frame {
                parent,
                tok,
                value: sub,
                names_itself: false,
            });
            let f = (cx.frames.len() - 1) as u32;
            let joined = joins && matches!(child_via, Via::AllOf);
            stack.push((sub, f, child_via, node.object_depth, joined));
        }
        stack[first..].reverse();
    }
    stats.subschemas = visited;
}

#[cfg(test)]
thread_local! {
    /// Findings [`Cx::settle_at`] looked at: the tests keep this linear in the findings.
    pub(crate) static SETTLE_VISITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
thread_local! {
    /// Tests set this to call every node hook on every subschema, to hold the facts to it.
    static EVERY_HOOK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
fn every_hook() -> bool {
    EVERY_HOOK.with(|c| c.get())
}

#[cfg(not(test))]
#[inline(always)]
fn every_hook() -> bool {
    false
}

/// The [`rules::when`] facts of a subschema, from the keys the walk read; `strict`: whether
/// its tool asks for strict mode ([`Cx::asks_strict`]).
fn facts(n: &Node<'_>, strict: bool) -> u32 {
    use rules::when::*;
    // One OR per fact, without branches: this runs for every subschema.
    let fact = |present: bool, fact: u32| u32::from(present) * fact;
    let typed = !matches!(n.ty, Ty::Absent);
    fact(typed, TYPE)
        | fact(matches!(n.ty, Ty::List(_)), TYPE_LIST)
        | fact(typed && strict, STRICT_TYPE)
        | fact(n.items.is_some(), ITEMS)
        | fact(n.properties.is_some(), PROPERTIES)
        | fact(n.required.is_some(), REQUIRED)
        | fact(n.required.is_some() && !n.required_names, ODD_REQUIRED)
        | fact(n.enum_.is_some(), ENUM)
        | fact(n.reference.is_some(), REF)
        | fact(n.defs || n.definitions, DEFS)
        | fact(n.any_of.is_some(), ANY_OF)
        | fact(n.format.is_some(), FORMAT)
        | fact(n.nullable.is_some(), NULLABLE)
        | fact(n.is_root(), ROOT)
        | fact(n.map.is_none(), NOT_OBJECT)
        | fact(n.map.is_some() && !typed, UNTYPED)
        | fact(typed && n.ty_standard.is_none(), ODD_TYPE)
        | fact(n.names(ty_bit::OBJECT), OBJECT_TYPE)
        | fact(n.names(ty_bit::ARRAY), ARRAY_TYPE)
        | fact(
            n.bad_values != 0 || n.map.is_some_and(|m| m.len() > 64),
            BAD_VALUE,
        )
        // Hooks that run on every subschema.
        | 1 << 31
}

/// [`read_keys`]' bit for a key that has no [`kw::id`] (the ids are below it).
const UNNUMBERED: u64 = 1 << 63;
const _: () = assert!(kw::COUNT < 63);

/// Reads the keywords the rules ask about and lists the subschemas below `map`. Returns the
/// keys met: bit `id` for each [`kw::id`], [`UNNUMBERED`] for any key without one.
fn read_keys<'a>(
    map: &'a Map<String, Value>,
    node: &mut Node<'a>,
    children: &mut Vec<(&'a Value, Child<'a>, Via)>,
    stats: &mut Stats,
) -> u64 {
    let mut keys = 0;
    for (i, (k, v)) in map.iter().enumerate() {
        stats.add_str(k);
        stats.compact_bytes += 1;
        let before = children.len();
        let mut proven = true;
        // Whether the value may be one its keyword does not take (see `Node::value_form`):
        // the arms below know their keyword's answer; the rest ask.
        let mut bad = false;
        let id = kw::id(k);
        keys |= id.map_or(UNNUMBERED, |id| 1 << id);
        if let Some(slot) = node.key_ids.get_mut(i) {
            *slot = id.unwrap_or(NO_ID);
        }
        match id {
            Some(kw::TYPE) => {
                node.ty = match v {
                    Value::String(s) => Ty::One(s),
                    // An empty list names no type at all (the meta-schema wants at least one):
                    // no list of types a `type-list` case speaks for.
                    Value::Array(a) if !a.is_empty() => Ty::List(a),
                    other => Ty::Invalid(other),
                };
                // A standard spelling means its own type: `Ty::means` only for the rest.
                node.ty_standard = match node.ty {
                    Ty::One(s) => super::feature::standard_type_index(s).map(|i| i as u8),
                    _ => None,
                };
                // The meta-schema's simple types are the standard spellings just read: a
                // string is proven by that reading, not by a second match of it.
                proven &= match v {
                    Value::String(_) => node.ty_standard.is_some(),
                    _ => meta_shape::keyword("type", v),
                };
                debug_assert_eq!(proven, meta_shape::keyword("type", v), "{v}");
                node.ty_means = match (node.ty_standard, node.ty) {
                    (Some(i), _) => 1 << i,
                    // Not a standard spelling, as just read: only a reading of it can mean one.
                    (None, Ty::One(s)) => read_type_bits(s),
                    (None, ty) => ty.means(),
                };
            }
            Some(kw::PROPERTIES) => {
                proven &= meta_shape::keyword("properties", v);
                node.properties = Some(v);
                if let Some(m) = v.as_object() {
                    stats.property_count += m.len();
                    for (name, sub) in m {
                        children.push((sub, Child::Member("properties", name), Via::Property));
                    }
                }
            }
            Some(kw::ITEMS) => {
                proven &= meta_shape::keyword("items", v);
                node.items = Some(v);
                match v {
                    Value::Array(_) => push_list(children, v, "items", Via::ItemsElement),
                    _ => children.push((v, Child::Key("items"), Via::Items)),
                }
            }
            Some(kw::REQUIRED) => {
                node.required = Some(v);
                proven &= meta_shape::keyword("required", v);
                node.required_names = proven && v.as_array().is_some_and(|a| !a.is_empty());
            }
            Some(kw::CONST) => node.has_const = true,
            Some(kw::ENUM) => {
                node.enum_ = Some(v);
                proven &= meta_shape::keyword("enum", v);
            }
            Some(kw::REF) => {
                node.reference = Some(v);
                proven &= meta_shape::keyword("$ref", v);
            }
            Some(kw::ANY_OF) => {
                proven &= meta_shape::keyword("anyOf", v);
                bad = v.as_array().is_none_or(|a| a.is_empty());
                node.any_of = Some(v);
                push_list(children, v, "anyOf", Via::AnyOf);
            }
            Some(kw::ONE_OF) => {
                proven &= meta_shape::keyword("oneOf", v);
                bad = v.as_array().is_none_or(|a| a.is_empty());
                node.one_of = true;
                push_list(children, v, "oneOf", Via::OneOf);
            }
            Some(kw::ALL_OF) => {
                proven &= meta_shape::keyword("allOf", v);
                bad = v.as_array().is_none_or(|a| a.is_empty());
                node.all_of = true;
                push_list(children, v, "allOf", Via::AllOf);
            }
            Some(kw::PREFIX_ITEMS) => {
                proven &= meta_shape::keyword("prefixItems", v);
                bad = v.as_array().is_none_or(|a| a.is_empty());
                node.prefix_items = true;
                push_list(children, v, "prefixItems", Via::PrefixItems);
            }
            Some(kw::NOT) => {
                node.not = true;
                children.push((v, Child::Key("not"), Via::Not));
            }
            Some(kw::FORMAT) => {
                node.format = Some(v);
                proven &= meta_shape::keyword("format", v);
                bad = !v.is_string();
            }
            Some(kw::NULLABLE) => node.nullable = Some(v),
            Some(kw::DEFS) => {
                proven &= meta_shape::keyword("$defs", v);
                node.defs = true;
                push_map(children, v, "$defs", Via::DefsMember)
            }
            Some(kw::DEFINITIONS) => {
                proven &= meta_shape::keyword("definitions", v);
                node.definitions = true;
                push_map(children, v, "definitions", Via::DefsMember)
            }
            Some(kw::PATTERN_PROPERTIES) => {
                proven &= meta_shape::keyword("patternProperties", v);
                bad = rules::keyword_value_invalid::invalid_pattern_key(v).is_some();
                push_map(children, v, "patternProperties", Via::PatternProperty)
            }
            Some(kw::DEPENDENT_SCHEMAS) => {
                proven &= meta_shape::keyword("dependentSchemas", v);
                push_map(children, v, "dependentSchemas", Via::DependentSchema)
            }
            Some(kw::DEPENDENCIES) => {
                proven &= meta_shape::keyword("dependencies", v);
                bad = rules::keyword_value_invalid::form(k, v).is_some();
                push_dependencies(children, v, stats)
            }
            Some(kw::ADDITIONAL_PROPERTIES) if v.is_object() => children.push((
                v,
                Child::Key("additionalProperties"),
                Via::AdditionalProperties,
            )),
            Some(kw::UNEVALUATED_PROPERTIES) if v.is_object() => children.push((
                v,
                Child::Key("unevaluatedProperties"),
                Via::UnevaluatedProperties,
            )),
            Some(kw::UNEVALUATED_ITEMS) if v.is_object() => {
                children.push((v, Child::Key("unevaluatedItems"), Via::UnevaluatedItems))
            }
            Some(kw::ADDITIONAL_ITEMS) if v.is_object() => {
                children.push((v, Child::Key("additionalItems"), Via::AdditionalItems))
            }
            Some(kw::PROPERTY_NAMES) => {
                children.push((v, Child::Key("propertyNames"), Via::PropertyNames))
            }
            Some(kw::CONTAINS) => children.push((v, Child::Key("contains"), Via::Contains)),
            Some(kw::IF) => {
                node.has_if = true;
                children.push((v, Child::Key("if"), Via::If))
            }
            Some(kw::THEN) => children.push((v, Child::Key("then"), Via::Then)),
            Some(kw::ELSE) => children.push((v, Child::Key("else"), Via::Else)),
            // The keys met most often besides those above, one arm each so that the
            // meta-schema's test folds to the one it needs. The arms above leave out the
            // keywords the meta-schema takes any value of (`const`, `not`, ...) or that it
            // does not know (`nullable`).
            Some(kw::DESCRIPTION) => {
                proven &= meta_shape::keyword("description", v);
                bad = !v.is_string();
            }
            Some(kw::TITLE) => {
                proven &= meta_shape::keyword("title", v);
                bad = !v.is_string();
            }
            Some(kw::DEFAULT) => proven &= meta_shape::keyword("default", v),
            _ => {
                proven &= meta_shape::keyword(k, v);
                bad = rules::keyword_value_invalid::form(k, v).is_some();
                node.names_itself |=
                    v.is_string() && crate::schema::NAMING_KEYWORDS.contains(&k.as_str());
            }
        }
        if bad && i < 64 {
            node.bad_values |= 1 << i;
        }
        if !proven {
            stats.unproven_place(node.frame, i as u32);
        }
        // The value's own bytes: the walk counts the subschemas it visits (each adds its
        // own size); here the containers around them, or the whole value when none.
        match (children.get(before), v) {
            // Most values are strings (`description`, `type`): no call.
            (None, Value::String(s)) => stats.add_str(s),
            (None, v) => stats.add_value(v),
            // A single subschema (`not`, `items`, ...) counts itself when visited.
            (Some((_, Child::Key(_), _)), _) => {}
            (Some(_), Value::Object(m)) => {
                stats.compact_bytes += 2 + m.len().saturating_sub(1) + m.len();
                for k in m.keys() {
                    stats.add_str(k);
                }
            }
            (Some(_), Value::Array(a)) => stats.compact_bytes += 2 + a.len().saturating_sub(1),
            (Some(_), _) => {}
        }
    }
    keys
}

fn push_list<'a>(
    children: &mut Vec<(&'a Value, Child<'a>, Via)>,
    v: &'a Value,
    kw: &'static str,
    via: Via,
) {
    if let Some(list) = v.as_array() {
        for (i, sub) in list.iter().enumerate() {
            children.push((sub, Child::Element(kw, i as u32), via));
        }
    }
}

fn push_map<'a>(
    children: &mut Vec<(&'a Value, Child<'a>, Via)>,
    v: &'a Value,
    kw: &'static str,
    via: Via,
) {
    if let Some(map) = v.as_object() {
        for (name, sub) in map {
            children.push((sub, Child::Member(kw, name), via));
        }
    }
}

/// Lists the schema-form members of a `dependencies` value `v` (draft 4-7's
/// `dependentSchemas`, which the crate `args` judges with runs under every draft) as
/// [`Via::DependentSchema`] subschemas. Its property lists are no subschemas: where some member
/// is one, their bytes are counted here, as the walk counts only the map around the subschemas.
fn push_dependencies<'a>(
    children: &mut Vec<(&'a Value, Child<'a>, Via)>,
    v: &'a Value,
    stats: &mut Stats,
) {
    let before = children.len();
    for (name, sub) in crate::schema::schema_dependencies(v) {
        children.push((
            sub,
            Child::Member("dependencies", name),
            Via::DependentSchema,
        ));
    }
    if children.len() > before {
        let lists = v.as_object().into_iter().flatten().map(|(_, m)| m);
        for list in lists.filter(|m| !crate::schema::is_schema_dependency(m)) {
            stats.add_value(list);
        }
    }
}

impl Stats {
    fn add_str(&mut self, s: &str) {
        self.compact_bytes += s.len() + 2;
        self.string_bytes += s.len();
    }

    /// Adds a value the walk does not visit, strings counted without escapes.
    fn add_value(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.add_str(s),
            Value::Array(a) => {
                self.compact_bytes += 2 + a.len().saturating_sub(1);
                for x in a {
                    self.add_value(x);
                }
            }
            Value::Object(m) => {
                self.compact_bytes += 2 + m.len().saturating_sub(1) + m.len();
                for (k, x) in m {
                    self.add_str(k);
                    self.add_value(x);
                }
            }
            scalar => self.compact_bytes += scalar_len(scalar),
        }
    }
}

/// Length in bytes of `value` serialized as compact JSON (what `serde_json::to_string` gives),
/// computed without serializing.
pub fn compact_len(value: &Value) -> usize {
    compact_len_capped(value, usize::MAX)
}

/// [`compact_len`], stopping as soon as the length reaches `cap` (then the result is at least
/// `cap` but not exact).
pub fn compact_len_capped(value: &Value, cap: usize) -> usize {
    // Scalars and flat lists (the common values: `type`, `description`, `required`, `enum`)
    // need no stack.
    match value {
        Value::Array(a) if a.iter().all(|v| !v.is_array() && !v.is_object()) => {
            return 2 + a.len().saturating_sub(1) + a.iter().map(scalar_len).sum::<usize>();
        }
        Value::Array(_) | Value::Object(_) => {}
        scalar => return scalar_len(scalar),
    }
    let mut total = 0usize;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        if total >= cap {
            return total;
        }
        total += match v {
            Value::Array(a) => {
                stack.extend(a.iter());
                2 + a.len().saturating_sub(1)
            }
            Value::Object(m) => {
                let mut n = 2 + m.len().saturating_sub(1);
                for (k, sub) in m {
                    n += string_len(k) + 1;
                    stack.push(sub);
                }
                n
            }
            scalar => scalar_len(scalar),
        };
    }
    total
}

fn scalar_len(v: &Value) -> usize {
    match v {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => number_len(n),
        Value::String(s) => string_len(s),
        // Containers are counted by the callers.
        Value::Array(_) | Value::Object(_) => 0,
    }
}

fn number_len(n: &serde_json::Number) -> usize {
    if let Some(u) = n.as_u64() {
        digits(u)
    } else if let Some(i) = n.as_i64() {
        1 + digits(i.unsigned_abs())
    } else {
        n.to_string().len()
    }
}

fn digits(mut u: u64) -> usize {
    let mut d = 1;
    while u >= 10 {
        u /= 10;
        d += 1;
    }
    d
}

/// Bytes of `s` as a JSON string literal (quotes and escapes included).
pub fn string_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut n = 2 + bytes.len();
    // Eight bytes at a time: nearly all text has nothing to escape, and a byte-by-byte count
    // over every description was most of `size-exceeded`'s cost.
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let x = u64::from_le_bytes(c.try_into().expect("eight bytes"));
        if may_escape(x) {
            n += c.iter().map(|&b| escape_extra(b)).sum::<usize>();
        }
    }
    n + chunks
        .remainder()
        .iter()
        .map(|&b| escape_extra(b))
        .sum::<usize>()
}

/// Whether escaping the strings of `value` (its keys and string values, `strings` bytes in
/// all, as [`Stats::string_bytes`] counts them) adds at least `need` bytes to their compact
/// JSON. Stops as soon as the answer is known: the strings not yet read can add at most five
/// bytes each (a control character's `\u00XX`). Answers `true`, which costs the caller an
/// exact count, if `value` holds more string bytes than `strings`.
fn escapes_reach(value: &Value, need: usize, strings: usize) -> bool {
    let (mut added, mut left) = (0usize, strings);
    let mut read = |s: &str| -> Option<bool> {
        added += string_len(s) - 2 - s.len();
        let Some(l) = left.checked_sub(s.len()) else {
            return Some(true);
        };
        left = l;
        if added >= need {
            Some(true)
        } else if added + 5 * left < need {
            Some(false)
        } else {
            None
        }
    };
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => {
                if let Some(known) = read(s) {
                    return known;
                }
            }
            Value::Array(a) => stack.extend(a.iter()),
            Value::Object(m) => {
                for (k, sub) in m {
                    if let Some(known) = read(k) {
                        return known;
                    }
                    stack.push(sub);
                }
            }
            _ => {}
        }
    }
    added >= need
}

/// Bytes JSON's escape of `b` adds to it.
fn escape_extra(b: u8) -> usize {
    match b {
        b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
        0x00..=0x1f => 5,
        _ => 0,
    }
}

/// Whether one of the eight bytes of `x` may need escaping in a JSON string (a control
/// character, `"` or a backslash); never false when one does.
fn may_escape(x: u64) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    let zero_in = |y: u64| y.wrapping_sub(ONES) & !y & HIGHS != 0;
    // A byte below 0x20: subtracting 0x20 from it borrows into its high bit.
    x.wrapping_sub(ONES * 0x20) & !x & HIGHS != 0
        || zero_in(x ^ (ONES * u64::from(b'"')))
        || zero_in(x ^ (ONES * u64::from(b'\\')))
}

/// Placement of a node, for rules that report at the node itself.
pub fn placement_of(node: &Node<'_>) -> Placement {
    node.placement
}

/// A limit measured in a tool, reported only when something was measured.
pub fn report_limit(
    cx: &mut Cx<'_, '_>,
    at: At<'_>,
    limit: Limit,
    value: usize,
    placement: Placement,
) {
    // Below the profile's smallest case value every target takes it: the lookup would allow
    // it (collect mode's floor is 0, and it records every measurement).
    if value == 0 || value < cx.limit_floor(limit) {
        return;
    }
    cx.feature(at, Feat::Limit(limit, value), placement, || {
        format!("{value} {}", limit.unit())
    });
}

/// Whether a `$ref` points at something in `root`, by the resolver every command shares
/// ([`crate::schema::refs::step`]: JSON Pointer fragments, `$anchor` names, the root's `$id`).
pub fn resolves(root: &Value, reference: &str) -> bool {
    matches!(
        crate::schema::refs::step(root, reference),
        crate::schema::refs::Step::Local(..)
    )
}

#[cfg(test)]
thread_local! {
    /// Renames whose clash the whole request's name census was taken for.
    static CENSUSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The rejecting targets a fix names are those [`Cx::refusing_targets`] lists first, under
    /// every built-in profile, for the root shapes and structures whose fixes name them.
    #[test]
    fn rejecting_targets_are_refusing_targets_first_list() {
        use super::super::feature::value;
        let set = crate::profile::embedded().unwrap();
        let feats = [
            Feat::RootShape(value::ROOT_ABSENT),
            Feat::RootShape(value::ROOT_NO_ARGUMENTS),
            Feat::RootShape(value::ROOT_OBJECT_WITHOUT_PROPERTIES),
            Feat::Structure(value::EMPTY_PROPERTIES),
            Feat::Structure(value::OBJECT_WITHOUT_PROPERTIES),
            Feat::Keyword("const"),
            Feat::Keyword("madeUp"),
        ];
        let mut named = 0;
        for p in &set.profiles {
            let profile = CompiledProfile::new(p);
            let mut out = Findings::default();
            let cx = Cx::new(Mode::Check {
                profile: &profile,
                out: &mut out,
            });
            for feat in &feats {
                for placement in [Placement::Root, Placement::Nested] {
                    let whole = cx.refusing_targets(feat, placement);
                    let first = cx.rejecting_targets(feat, placement);
                    assert_eq!(
                        first,
                        whole
                            .as_ref()
                            .map(|(r, _)| r.iter().map(String::as_str).collect::<Vec<_>>()),
                        "{} {feat}",
                        p.name
                    );
                    named += first.map_or(0, |r| r.len());
                }
            }
        }
        assert!(named > 0, "some profile rejects some of them");
        let mut seen = Vec::new();
        let cx = Cx::new(Mode::Collect { out: &mut seen });
        assert_eq!(cx.rejecting_targets(&feats[0], Placement::Root), None);
    }

    /// A finding's pointer is the same whichever finding came before it in the tool: copied
    /// whole from the same subschema's, its parent's part from a sibling's or the parent's
    /// own, or written from the frames (every ordered pair, and each place after itself).
    #[test]
    fn pointers_copied_from_the_previous_finding_are_exact() {
        let v = Value::Null;
        let frame = |parent, tok| Frame {
            parent,
            tok,
            value: &v,
            names_itself: false,
        };
        let frames = [
            frame(0, Tok::Root),
            frame(0, Tok::Pair("properties", "a")),
            frame(0, Tok::Pair("properties", "b/c~")),
            frame(1, Tok::Pair("properties", "x")),
            frame(1, Tok::Pair("properties", "y")),
            frame(4, Tok::Key("anyOf")),
            frame(5, Tok::Index(0)),
            frame(5, Tok::Index(12)),
            frame(2, Tok::Key("items")),
            frame(8, Tok::Pair("properties", "")),
            frame(0, Tok::Key("not")),
        ];
        let mut places = Vec::new();
        for f in 0..frames.len() as u32 {
            places.extend([
                At::Key(f, "type"),
                At::Node(f),
                At::Member(f, "properties", "q/r"),
                At::KeyIndex(f, "enum", 3),
            ]);
        }
        places.extend([At::Tool, At::Pointer("/x/y")]);
        for &first in &places {
            for &second in &places {
                let mut text = TextBuf::default();
                let mut last = None;
                for at in [first, second, second, first] {
                    let span = write_pointer_at(&mut text, &frames, at, &mut last);
                    assert_eq!(
                        text.get(span),
                        pointer_of(&frames, at),
                        "{first:?} then {second:?}"
                    );
                }
            }
        }
    }

    /// The bits the rules test are the standard types' positions, and a type's bits are the
    /// types its spellings mean in any case (`dict` an object, `LIST` an array), nothing for
    /// `any`, a number or an empty list.
    #[test]
    fn type_bits_are_the_types_meant() {
        use super::super::feature::STANDARD_TYPES;
        assert_eq!(
            ty_bit::ARRAY,
            1 << STANDARD_TYPES.iter().position(|t| *t == "array").unwrap()
        );
        assert_eq!(
            ty_bit::OBJECT,
            1 << STANDARD_TYPES.iter().position(|t| *t == "object").unwrap()
        );
        let list = json!(["Dict", "null", "any", 3, "LIST"]);
        let Value::Array(l) = &list else {
            unreachable!()
        };
        let ty = Ty::List(l);
        assert_eq!(ty.means(), ty_bit::OBJECT | ty_bit::ARRAY | 1 << 6);
        assert!(ty.names("object") && ty.names("array") && !ty.names("string"));
        assert_eq!(Ty::One("object").means(), ty_bit::OBJECT);
        assert_eq!(Ty::One("OBJECT").means(), ty_bit::OBJECT);
        assert_eq!(Ty::One("any").means(), 0);
        assert_eq!(Ty::Invalid(&json!(7)).means(), 0);
        assert_eq!(Ty::Absent.means(), 0);
    }

    /// Findings kept from a check under one profile and reused under another (the texts
    /// stay, only the records go) judge a repeated feature by the new profile: the memo of a
    /// repeat holds the old profile's verdict and the rule's `repairable`, which must not
    /// carry over (before the memo kept verdicts, nothing could). Rendered, they are what a
    /// fresh check under the second profile makes, and the second profile's errors differ.
    #[test]
    fn a_findings_buffer_reused_under_another_profile_judges_by_that_one() {
        let schema = json!({"type": "dict", "properties": {
            "a": {"type": "float", "default": 1}, "b": {"type": "float", "default": 2}}});
        let tool = [ToolRef {
            name: Some("t"),
            description: Some("d"),
            parameters: Some(&schema),
            index: 0,
            ..Default::default()
        }];
        let rejecting = crate::repair::tests::profile(&[
            "type-spelling: float",
            "type-spelling: dict",
            "keyword-allowed: default",
        ]);
        let silent = crate::repair::tests::profile(&[]);
        let fresh = |profile: &CompiledProfile| {
            let mut out = Vec::new();
            check_request(&tool, profile, &mut out);
            out
        };
        let mut kept = Findings::default();
        for (first, then) in [(&rejecting, &silent), (&silent, &rejecting)] {
            kept.clear();
            Checker::new(first, &mut kept).request(&tool, &[]);
            assert!(kept.len() >= 5, "two floats, two defaults, the dict");
            kept.forget_records();
            Checker::new(then, &mut kept).request(&tool, &[]);
            let mut reused = Vec::new();
            kept.render_into(then, &mut reused);
            assert_eq!(reused, fresh(then));
        }
        let errors = |out: Vec<Finding>| {
            out.iter()
                .filter(|f| f.level == crate::check::Level::Error)
                .count()
        };
        assert_eq!(errors(fresh(&rejecting)), 5);
        assert_eq!(errors(fresh(&silent)), 0);
    }

    /// `report_limit` skips the lookup of a measurement below the profile's smallest case
    /// value: for every built-in profile, limit and placement, the lookup allows every value
    /// below it and judges the value itself by the cases (a limit with no case allows all).
    #[test]
    fn a_measurement_below_the_floor_is_what_the_lookup_allows() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let placements = [Placement::Root, Placement::Nested, Placement::Tool];
        let mut judged = 0;
        for p in &set.profiles {
            let profile = CompiledProfile::new(p);
            for limit in Limit::ALL {
                let floor = profile.limit_floor(limit);
                for placement in placements {
                    let at = |v| profile.lookup(&Feat::Limit(limit, v), placement);
                    if floor == usize::MAX {
                        assert_eq!(at(1 << 20), Slot::Allowed, "{limit:?}");
                        continue;
                    }
                    assert_eq!(at(floor - 1), Slot::Allowed, "{}: {limit:?}", p.name);
                    judged += usize::from(at(floor) != Slot::Allowed);
                }
            }
        }
        assert!(judged > 0, "some profile judges a value at its floor");
    }

    /// A meta-schema error settles a finding at its place, inside it, or on a keyword whose
    /// value holds it directly; never one on a keyword of subschemas (`$defs`, `anyOf`) nor on
    /// anything further up.
    #[test]
    fn meta_places_relate_only_to_their_own_keyword() {
        assert!(related("/properties/a/format", "/properties/a/format"));
        assert!(related("/dependentRequired", "/dependentRequired/p"));
        assert!(related("/properties/v/anyOf", "/properties/v/anyOf"));
        assert!(!related("/$defs", "/$defs/node/properties/label/maxLength"));
        assert!(!related(
            "/properties/v/anyOf",
            "/properties/v/anyOf/0/minLength"
        ));
        assert!(!related("/properties/v/anyOf", "/properties/v/anyOf/0"));
        assert!(!related("/properties/type", "/properties/type/format"));
        // A member of `dependencies` or `dependentRequired` is named by a property, not a keyword.
        assert!(!related(
            "/properties/a/dependencies/enum",
            "/properties/a/dependencies/enum/type"
        ));
        assert!(!related(
            "/dependentRequired/enum",
            "/dependentRequired/enum/0"
        ));
        assert!(!related("", "/type"));
    }

    #[test]
    fn needs_escape_finds_tilde_and_slash_anywhere() {
        for len in 0..40 {
            let plain = "a".repeat(len);
            assert!(!needs_escape(plain.as_bytes()), "{plain}");
            for at in 0..len {
                for c in ['~', '/'] {
                    let mut s = plain.clone();
                    s.replace_range(at..=at, &c.to_string());
                    assert!(needs_escape(s.as_bytes()), "{s}");
                }
            }
        }
        // Bytes one off either character, and UTF-8 continuation bytes, are no match.
        assert!(!needs_escape("}.0\u{7f}éü名前xx".as_bytes()));
        let mut p = String::new();
        push(&mut p, "a/b~c");
        push_index(&mut p, 7);
        push_index(&mut p, 12);
        assert_eq!(p, "/a~1b~0c/7/12");
    }

    #[test]
    fn string_len_matches_serde_at_every_offset() {
        // Each escaped character at each place of a chunk and of the tail.
        for c in [
            '"', '\\', '\n', '\u{1}', '\u{1f}', '\u{8}', '\u{c}', ' ', '~', '\u{7f}', 'é',
        ] {
            for len in 0..20 {
                for at in 0..len {
                    let s: String = (0..len).map(|i| if i == at { c } else { 'a' }).collect();
                    assert_eq!(
                        string_len(&s),
                        serde_json::to_string(&s).unwrap().len(),
                        "{s:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn compact_len_matches_serde() {
        for v in [
            json!({"a":[1,-2,3.5,null,true,false],"b\"\n\u{1}":"x\\y","c":{}, "d":[], "e":"é"}),
            json!("plain"),
            json!(12345678901u64),
            json!({"type":"object","properties":{"v":{"type":"string","description":"The id."}}}),
        ] {
            assert_eq!(
                compact_len(&v),
                serde_json::to_string(&v).unwrap().len(),
                "{v}"
            );
        }
    }

    #[test]
    fn the_walk_counts_compact_bytes_exactly() {
        for v in [
            json!({"type":"object","properties":{"a":{"type":"string","enum":["x","y\n"]},"b":{"type":"array","items":{"type":"integer"}},"c":true,"d":{"anyOf":[{"type":"null"},{"not":{}}]}},"required":["a"],"additionalProperties":false,"$defs":{"D":{"items":[{"type":"string"},false]}},"x-k":{"deep":[1,2,{"z":null}]}}),
            json!({}),
            json!({"properties":{}, "anyOf":[]}),
            json!({"dependencies":{"a":["b","c"],"b":{"type":"string"},"c":5,"d":false}}),
            json!({"dependencies":{"a":["b"]}}),
            json!(true),
            // Escapes (one and five bytes more) in keys and values, after escape-free text.
            json!({"description":"plain words and more plain words","a\"b":{"enum":["\u{1}\t","x\\"]},"\n":"\u{1f}"}),
            json!({"description":"x\"\"\"\"\"\"\"\"\"\"","title":"long text with nothing to escape"}),
        ] {
            let refs = [ToolRef {
                name: None,
                description: None,
                parameters: Some(&v),
                index: 0,
                ..Default::default()
            }];
            let mut out = Vec::new();
            let mut cx = Cx::new(Mode::Collect { out: &mut out });
            let (mut stack, mut children) = (Vec::new(), Vec::new());
            let mut stats = Stats::default();
            cx.frames.push(Frame {
                parent: 0,
                tok: Tok::Root,
                value: &v,
                names_itself: false,
            });
            walk(
                refs[0].parameters.unwrap(),
                &mut cx,
                &rules::HookLists::NONE,
                &mut stack,
                &mut children,
                &mut stats,
            );
            let exact = serde_json::to_string(&v).unwrap().len();
            assert!(stats.compact_bytes <= exact, "{v}");
            assert!(stats.compact_bytes + 5 * stats.string_bytes >= exact, "{v}");
            assert_eq!(stats.compact_bytes_exact(&v, 0), Some(exact), "{v}");
            // Around the exact size and the bounds: the size when it reaches the floor, else
            // nothing.
            let (low, high) = (
                stats.compact_bytes,
                stats.compact_bytes + 5 * stats.string_bytes,
            );
            for floor in [exact - 1, exact, exact + 1, low, low + 1, high, high + 1] {
                assert_eq!(
                    stats.compact_bytes_exact(&v, floor),
                    (exact >= floor).then_some(exact),
                    "{v} {floor}"
                );
            }
            // Escape-free text is counted exactly without a second pass.
            if !v.to_string().contains('\\') {
                assert_eq!(stats.compact_bytes, exact, "{v}");
            }
        }
    }

    #[test]
    fn shared_texts_belong_to_their_own_feature() {
        // 150 made-up keywords and type spellings, each twice and in turn, more than the
        // memo table has slots: every finding must still name its own keyword or spelling.
        let mut props = serde_json::Map::new();
        for round in 0..2 {
            for i in 0..150 {
                // `x-` keys are one feature (the vendor-key case) under many names.
                let key = if i % 2 == 0 {
                    format!("x{i}")
                } else {
                    format!("x-{i}")
                };
                props.insert(
                    format!("p{round}_{i}"),
                    json!({"type": format!("t{i}"), key: 1}),
                );
            }
        }
        let schema = json!({"type": "object", "properties": props});
        let tool = [ToolRef {
            name: Some("t"),
            description: None,
            parameters: Some(&schema),
            index: 0,
            ..Default::default()
        }];
        let set = crate::profile::embedded().unwrap();
        let portable = CompiledProfile::new(set.get(crate::profile::PORTABLE).unwrap());
        let mut out = Vec::new();
        check_request(&tool, &portable, &mut out);
        let mut seen = 0;
        // Findings about the tool itself (no description, ...) are not the test's.
        for f in out.iter().filter(|f| f.pointer.starts_with("/properties/")) {
            let (prop, key) = f.pointer.rsplit_once('/').unwrap();
            let i = prop.rsplit_once('_').unwrap().1;
            match key {
                "type" => assert!(f.message.starts_with(&format!("`type: \"t{i}\"`")), "{f:?}"),
                _ => {
                    assert!(key == format!("x{i}") || key == format!("x-{i}"), "{f:?}");
                    assert!(f.message.starts_with(&format!("keyword `{key}`")), "{f:?}");
                    assert!(f.fix.contains(&format!("`{key}`")), "{f:?}");
                }
            }
            seen += 1;
        }
        assert_eq!(seen, 600, "a type and a keyword finding per property");
    }

    /// The rules the walk calls for a subschema, read from the per-fact masks, are exactly
    /// those whose `node_when` shares a fact with it, for every single fact and a few mixes.
    #[test]
    fn node_rules_due_are_those_whose_facts_match() {
        let hooks = rules::hooks();
        let mut mixes: Vec<u32> = (0..32).map(|b| 1 << b).collect();
        mixes.extend([0, rules::when::TYPE | rules::when::ROOT | 1 << 31, u32::MAX]);
        for facts in mixes {
            let due = hooks.node_due(facts);
            for (i, r) in hooks.node.iter().enumerate() {
                assert_eq!(
                    due & 1 << i != 0,
                    r.hooks.node_when & facts != 0,
                    "{} {facts:#x}",
                    r.id
                );
            }
            assert_eq!(due >> hooks.node.len(), 0);
        }
    }

    #[test]
    fn skipping_hooks_by_facts_changes_no_finding() {
        // Every case of the catalog, plus shapes the catalog has few of.
        let catalog = crate::case::Catalog::load(std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/cases"
        )))
        .unwrap();
        let extra = [
            json!(null),
            json!(true),
            json!("x"),
            json!({"type":"object","properties":{"a":true,"b":7,"c":{"anyOf":[{"type":"null"},{"type":"string"}],"nullable":true}},"required":["a","z"],"$defs":{"d":{"$ref":"#/$defs/d"}}}),
            json!({"anyOf":[{"type":"object"}],"enum":[1],"const":1,"not":{}}),
            json!({"type":"object","properties":{"o":{"type":"object","properties":{"l":{"type":["string","null"]}}},"a":{"type":"array","items":{"type":"object"}}}}),
            // Types of every reading (the facts of type-invalid, object-properties-missing,
            // array-items-missing), keys without a type, values their keywords do not take.
            json!({"properties":{"a":{}},"required":["a","a",1]}),
            json!({"properties":{"a":{}},"required":[]}),
            json!({"properties":{"a":{}},"required":"a","items":{"required":null}}),
            json!({"type":"object","properties":{"a":{"type":"dict"},"b":{"type":"ARRAY"},"c":{"minLength":"x","title":3},"d":{"items":{}},"e":{"type":7},"f":{"type":"Object"},"g":{"type":[]},"h":{"type":"list"}}}),
            // Keys keyword-unsupported passes over unread or not, at every placement: allowed
            // keywords alone, keywords of forms, unnumbered and `x-` keys, `then` beside an
            // `if`, and the root's `$schema` and `$id`.
            json!({"$schema":"http://json-schema.org/draft-07/schema#","$id":"a b","type":"object","description":"d","properties":{"a":{"type":"string","description":"d","default":"x"},"b":{"type":"integer","minimum":0,"exclusiveMinimum":true,"multipleOf":0.5},"c":{"type":"string","pattern":"a","maxLength":100000,"x-v":1,"madeUp":2},"d":{"type":"array","items":{"type":"string","enum":["a"],"title":"t"},"minItems":1,"uniqueItems":true},"e":{"anyOf":[{"type":"string","format":"date","const":"x"},{"type":"null","nullable":true}]},"f":{"if":{"required":["a"]},"then":{"minProperties":1},"else":false},"g":{"type":"object","additionalProperties":false,"properties":{"h":{"oneOf":[{"type":"integer"}],"allOf":[{"not":{}}],"dependencies":{"a":["b"]}}}}},"required":["a"],"additionalProperties":{"type":"string"},"$defs":{"q":{"type":"string","readOnly":true,"deprecated":true,"$comment":"c"}}}),
        ];
        let mut tools: Vec<Vec<ToolRef<'_>>> = catalog.cases.iter().map(ToolRef::of_case).collect();
        // Each also as a tool that asks for strict mode (the facts of strict-form-missing).
        tools.extend(extra.iter().flat_map(|v| {
            [false, true].map(|strict| {
                vec![ToolRef {
                    name: Some("t"),
                    description: None,
                    parameters: Some(v),
                    index: 0,
                    strict,
                    ..Default::default()
                }]
            })
        }));
        assert!(tools.len() > 100);
        for request in &tools {
            let skipping = collect(request);
            EVERY_HOOK.with(|c| c.set(true));
            let all = collect(request);
            EVERY_HOOK.with(|c| c.set(false));
            assert_eq!(skipping, all, "{:?}", request[0].parameters);
        }
        // Checking too, under every built-in profile: keyword-unsupported's hook is skipped by
        // what each profile allows at each placement (`CompiledProfile::quiet_keywords`),
        // which collecting (that records every keyword) never shows.
        let set = crate::profile::embedded().unwrap();
        assert!(set.profiles.len() > 3);
        for profile in &set.profiles {
            let profile = CompiledProfile::new(profile);
            for request in &tools {
                let mut skipping = Vec::new();
                check_request(request, &profile, &mut skipping);
                EVERY_HOOK.with(|c| c.set(true));
                let mut all = Vec::new();
                check_request(request, &profile, &mut all);
                EVERY_HOOK.with(|c| c.set(false));
                assert_eq!(
                    skipping, all,
                    "{} {:?}",
                    profile.name, request[0].parameters
                );
            }
        }
    }

    /// The walk skips keyword-unsupported's hook on a subschema of keys the profile allows,
    /// and only there: a key it does not allow is still reported, at every placement.
    #[test]
    fn keyword_unsupported_is_skipped_only_where_every_key_is_quiet() {
        let set = crate::profile::embedded().unwrap();
        let portable = CompiledProfile::new(set.get(crate::profile::PORTABLE).unwrap());
        let quiet = portable.quiet_keywords();
        let at = |p| quiet[CompiledProfile::placement_index(p)];
        // Left to other rules wherever it is; allowed everywhere under portable (a keyword
        // without forms); never allowed (a vendor key has no id at all).
        assert_ne!(at(Placement::Nested) & 1 << kw::TYPE, 0);
        assert_ne!(at(Placement::Nested) & 1 << kw::DESCRIPTION, 0);
        assert_eq!(at(Placement::Nested) & 1 << kw::ADDITIONAL_PROPERTIES, 0);
        assert_eq!(at(Placement::Nested) & UNNUMBERED, 0);
        let schema = json!({"type":"object","description":"d","properties":{
            "a":{"type":"string","description":"d"},
            "b":{"type":"string","description":"d","x-v":1},
            "c":{"type":"array","items":{"type":"string","madeUp":1}}}});
        let tool = [ToolRef {
            name: Some("t"),
            description: Some("Does a thing for the caller."),
            parameters: Some(&schema),
            index: 0,
            ..Default::default()
        }];
        let mut out = Vec::new();
        check_request(&tool, &portable, &mut out);
        let places: Vec<&str> = out
            .iter()
            .filter(|f| &*f.rule == "keyword-unsupported")
            .map(|f| f.pointer.as_str())
            .collect();
        assert_eq!(places, ["/properties/b/x-v", "/properties/c/items/madeUp"]);
    }

    /// Whether a tool's rename lands on another tool's name is a lookup: the census of the
    /// request runs only for a rename that does (before: for every tool to rename, a pass
    /// over the request; 20,000 tools named `t N` took minutes to check).
    #[test]
    fn only_a_rename_onto_another_name_takes_the_census() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let mut names: Vec<String> = (0..2_000).map(|i| format!("t {i}")).collect();
        names.push("t_5".into());
        let tools: Vec<ToolRef<'_>> = names
            .iter()
            .enumerate()
            .map(|(index, name)| ToolRef {
                name: Some(name),
                description: Some("Does a thing for the caller."),
                parameters: Some(&schema),
                index,
                ..Default::default()
            })
            .collect();
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile = CompiledProfile::new(set.get("portable").expect("portable"));
        CENSUSES.with(|c| c.set(0));
        let findings = crate::check::check_tools(&tools, &profile);
        // For `t 5` alone: once for name-invalid's fix, once for its repairable mark.
        assert_eq!(CENSUSES.with(std::cell::Cell::get), 2);
        let clashing: Vec<&str> = findings
            .iter()
            .filter(|f| f.fix.contains("t_5"))
            .map(|f| f.tool.as_ref())
            .collect();
        assert_eq!(clashing, ["t 5"], "{findings:?}");
    }

    #[test]
    fn local_refs_resolve() {
        let root = json!({"$defs":{"a/b":{"type":"string"}}});
        assert!(resolves(&root, "#/$defs/a~1b"));
        assert!(resolves(&root, "#"));
        assert!(!resolves(&root, "#/$defs/missing"));
        assert!(!resolves(&root, "https://example.com/s.json"));
    }
}
