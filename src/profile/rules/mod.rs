//! The rule registry (ruff-style): one file per rule, each one unit with its id, what it
//! checks, an example, the fix, whether `toolwire repair` can fix it, which profile features
//! it speaks for, and its logic.
//!
//! Rules never decide what is allowed. Their logic finds a *feature* (a case parameter such as
//! `keyword-allowed: const` or `depth-limit: 11`) at a place in a tool; the profile, derived
//! from the evidence, says whether that feature is allowed. So the *why* of a rule (which
//! targets reject, since when, with links) is generated from the evidence
//! ([`super::table`]), never written here.

use std::sync::OnceLock;

pub use super::compiled::Slot;
pub use super::detect::{
    At, Cx, InlineRefusal, Node, SettleIndex, Stats, ToolRef, Ty, Via, ty_bit,
};
pub use super::feature::{Feat, Kind, Limit, Param, value};
pub use crate::case::Placement;
pub use crate::input::BuiltinTool;

pub mod anyof_with_siblings;
pub mod array_items_missing;
pub mod boolean_schema;
pub mod depth_exceeded;
pub mod description_content;
pub mod description_missing;
pub mod description_too_long;
pub mod enum_invalid;
pub mod enum_not_string;
pub mod format_unsupported;
pub mod items_not_schema;
pub mod items_on_non_array;
pub mod keyword_unsupported;
pub mod keyword_value_invalid;
pub mod meta_schema_invalid;
pub mod name_duplicate;
pub mod name_invalid;
pub mod name_too_long;
pub mod nesting_too_deep;
pub mod nullable_spelling;
pub mod object_properties_missing;
pub mod parameters_missing;
pub mod properties_invalid;
pub mod properties_on_non_object;
pub mod property_name_invalid;
pub mod property_named_keyword;
pub mod ref_dangling;
pub mod ref_expansion_exceeded;
pub mod ref_remote;
pub mod ref_unsupported;
pub mod required_invalid;
pub mod required_undeclared;
pub mod root_combinator;
pub mod root_not_object;
pub mod schema_invalid;
pub mod size_exceeded;
pub mod strict_form_missing;
pub mod too_many_tools;
pub mod type_invalid;
pub mod type_list;
pub mod type_missing;
pub mod type_unsupported;

/// A hook run on every subschema.
pub type NodeHook = for<'a, 'p, 'n> fn(&mut Cx<'a, 'p>, &Node<'n>);
/// A hook run once per tool, before its schema is walked.
pub type ToolHook = for<'a, 'p> fn(&mut Cx<'a, 'p>, &ToolRef<'a>);
/// A hook run once per tool after its schema was walked, with the walk's measurements.
pub type AfterHook = for<'a, 'p> fn(&mut Cx<'a, 'p>, &ToolRef<'a>, &Stats);
/// A hook run once per request with all its function tools and its named built-in tools
/// (which have no schema and are no [`ToolRef`]: only their names and numbers matter).
pub type RequestHook = for<'a, 'p> fn(&mut Cx<'a, 'p>, &[ToolRef<'a>], &[BuiltinTool]);
/// A hook run once per request after all its tools were walked, with what their walks
/// measured together.
pub type RequestAfterHook = for<'a, 'p> fn(&mut Cx<'a, 'p>, &[ToolRef<'a>], &RequestStats);

/// What the walks of one request's tools measured together, for [`RequestAfterHook`]s.
#[derive(Debug, Default, Clone, Copy)]
pub struct RequestStats {
    /// The sum of the tools' [`Stats::property_count`].
    pub property_count: usize,
    /// Some tool's walk stopped at [`crate::schema::MAX_NODES`] ([`Stats::truncated`]), so
    /// `property_count` is a lower bound.
    pub truncated: bool,
}

/// Where a rule's logic runs.
#[derive(Clone, Copy)]
pub struct Hooks {
    pub node: Option<NodeHook>,
    /// The subschemas the node hook is called for: those with any of these [`when`] facts.
    /// A rule that can report only when a keyword is present says so here, and the walk
    /// skips the call on every other subschema.
    pub node_when: u32,
    pub tool: Option<ToolHook>,
    pub after: Option<AfterHook>,
    pub request: Option<RequestHook>,
    pub request_after: Option<RequestAfterHook>,
}

impl Hooks {
    pub const NONE: Hooks = Hooks {
        node: None,
        node_when: when::ALWAYS,
        tool: None,
        after: None,
        request: None,
        request_after: None,
    };
}

/// Facts about a subschema that decide which node hooks run (see [`Hooks::node_when`]).
pub mod when {
    pub const ALWAYS: u32 = u32::MAX;
    /// A `type` key.
    pub const TYPE: u32 = 1;
    pub const ITEMS: u32 = 1 << 1;
    pub const PROPERTIES: u32 = 1 << 2;
    pub const REQUIRED: u32 = 1 << 3;
    pub const ENUM: u32 = 1 << 4;
    /// A `$ref` key.
    pub const REF: u32 = 1 << 5;
    /// A `$defs` or `definitions` key.
    pub const DEFS: u32 = 1 << 6;
    pub const ANY_OF: u32 = 1 << 7;
    pub const FORMAT: u32 = 1 << 8;
    pub const NULLABLE: u32 = 1 << 9;
    /// The parameters schema itself.
    pub const ROOT: u32 = 1 << 10;
    /// A subschema that is not a JSON object (a boolean schema, or not a schema at all).
    pub const NOT_OBJECT: u32 = 1 << 11;
    /// A `type` written as a list.
    pub const TYPE_LIST: u32 = 1 << 12;
    /// A `type` key in a tool that asks for strict mode.
    pub const STRICT_TYPE: u32 = 1 << 13;
    /// A schema object without a `type` key.
    pub const UNTYPED: u32 = 1 << 14;
    /// A `type` that is not one standard type as the standard spells it (a list, another
    /// spelling, or no string at all).
    pub const ODD_TYPE: u32 = 1 << 15;
    /// A `type` that names `object` ([`Node::names`](crate::profile::detect::Node::names)).
    pub const OBJECT_TYPE: u32 = 1 << 16;
    /// A `type` that names `array`.
    pub const ARRAY_TYPE: u32 = 1 << 17;
    /// A key whose value its keyword may not take
    /// ([`Node::value_form`](crate::profile::detect::Node::value_form)), or more keys than
    /// the walk marks.
    pub const BAD_VALUE: u32 = 1 << 18;
    /// A `required` other than a non-empty list of distinct strings.
    pub const ODD_REQUIRED: u32 = 1 << 19;
}

/// What `toolwire rule` and RULES.md call a rule's example: a sketch (`...` in it) says so,
/// since it cannot be run as written.
pub const SKETCH_LABEL: &str = "Example (a sketch: `...` stands for what one line cannot show)";

impl Rule {
    /// Whether the example is a sketch (it holds `...`) rather than input to run.
    pub fn example_is_sketch(&self) -> bool {
        self.example.contains("...")
    }

    /// "Example", [`SKETCH_LABEL`] for a sketch, or, for an example `check` reports as this
    /// rule's error only under [`Rule::example_target`], the label naming that target.
    pub fn example_label(&self) -> String {
        match self.example_target {
            _ if self.example_is_sketch() => SKETCH_LABEL.to_string(),
            Some(target) => format!(
                "Example (check it with `--target {target}`: under `portable`, check's default, \
                 it is not this rule's error)"
            ),
            None => "Example".to_string(),
        }
    }
}

/// One rule.
pub struct Rule {
    /// Kebab-case id, e.g. `array-items-missing`.
    pub id: &'static str,
    /// What it checks, in one sentence.
    pub checks: &'static str,
    /// Which profile features (case parameters) it reports, for readers.
    pub features: &'static str,
    /// A parameters schema (or tool) that triggers it, as JSON; or, where a line cannot show
    /// the input (a 1,103-character description, 513 tools), a sketch of one, with `...`
    /// standing for the rest ([`Rule::example_label`]).
    pub example: &'static str,
    /// The target whose own profile (`check --target T`) reports the example as this rule's
    /// error, where `portable`, check's default profile, does not: there another rule's error
    /// stands for it, or no target of `portable` is known to reject it and it only warns.
    /// `None`: `portable` reports it (or it is a sketch, or no target rejects it). Named in
    /// [`Rule::example_label`]; `tests/rules_suite.rs` (`example::ID`) holds it to `check`.
    pub example_target: Option<&'static str>,
    /// How to fix it by hand.
    pub fix: &'static str,
    /// `yes`, `no` or `partly: ...`, for tables.
    pub repair: &'static str,
    /// Whether `toolwire repair` fixes this feature (as an error) in this tool under this
    /// profile: what `check` marks "(repairable)". It must say what `crate::repair` does;
    /// `tests/seam.rs` holds the two to each other.
    pub repairable: fn(&Feat<'_>, &Repairing<'_>) -> bool,
    /// Whether a case parameter is one this rule reports.
    pub owns: fn(&Param) -> bool,
    pub hooks: Hooks,
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule").field("id", &self.id).finish()
    }
}

/// What a rule's `repairable` may look at besides the feature: repair's choices for a root
/// shape depend on what the profile rejects and on whether the tool has an envelope (a bare
/// schema cannot be left out).
pub struct Repairing<'x> {
    /// The profile the finding is made under.
    pub profile: &'x super::compiled::CompiledProfile,
    /// Where the finding sits, as the profile is asked about it: a rule whose repair hangs on
    /// another rule's finding at the same node asks the profile about that one here.
    pub placement: Placement,
    /// The tool's parameters schema (`None`: the tool declares none).
    pub root: Option<&'x serde_json::Value>,
    /// Whether repair would refuse to inline the schema's references ([`InlineRefusal`]).
    pub inline_refused: &'x dyn Fn() -> bool,
    /// Whether the tool has an envelope (a name), rather than being a bare schema.
    pub named: bool,
    /// The key the tool's shape requires its schema under ([`ToolRef::required_schema_key`]),
    /// which repair then never leaves out.
    pub required_schema_key: Option<&'static str>,
    /// The JSON Pointer of the subschema the finding sits in, made only when asked for.
    pub node_pointer: &'x dyn Fn() -> String,
    /// The subschema the finding sits in and whether it is the root, when the walk met it
    /// (`None`: a place given by pointer, or the tool itself; [`Repairing::node`] then
    /// resolves `node_pointer`). Asked of every `keyword-unsupported` finding, so it is not
    /// made from the pointer.
    pub node: Option<(&'x serde_json::Value, bool)>,
    /// Why `toolwire repair` would refuse to rename the tool (the new name is one another
    /// tool of the request is sent under: repair's name census), made only when asked for;
    /// `None` when a rename would stand or none is needed.
    pub name_clash: &'x dyn Fn() -> Option<String>,
    /// The `$ref`s of `root`, listed when first asked ([`Repairing::root_refs`]) and kept for
    /// the tool's other findings.
    pub root_refs: &'x std::cell::OnceCell<crate::repair::refs::RefList>,
    /// The nearest `not`, `if`, `oneOf`, `$defs` or `definitions` the finding's subschema
    /// lies below, or subschema naming itself (`"$anchor"`: an `$anchor` or `$id` a `$ref` may
    /// reach), read from the walk's frames without a pointer: only there can dropping a
    /// keyword narrow the schema ([`Repairing::drop_narrows`]).
    pub turned: &'x dyn Fn() -> Option<&'static str>,
}

impl<'x> Repairing<'x> {
    /// Whether repair refuses to drop keyword `k` of the finding's subschema because the
    /// schema around it would then accept less or other values (inside a `not`, an `if`, an
    /// overlapping `oneOf`: [`crate::repair::narrowing_drop`]).
    pub fn drop_narrows(&self, k: &str) -> bool {
        let Some(turn) = (self.turned)() else {
            return false;
        };
        // A `not` or `if` the profile rejects goes whole, and what it held with it: repair
        // drops it before it would drop `k` inside it.
        let goes_whole = crate::profile::keyword::id(turn).is_some_and(|id| {
            matches!(turn, "not" | "if")
                && [
                    Placement::Root,
                    Placement::Nested,
                    Placement::Items,
                    Placement::AnyofBranch,
                ]
                .into_iter()
                .any(|p| matches!(self.profile.keyword_slot(id, p), Slot::Rejected(_)))
        });
        !goes_whole
            && self.root.is_some_and(|root| {
                crate::repair::narrowing_drop(root, &(self.node_pointer)(), k).is_some()
            })
    }

    /// The `$ref`s of the tool's schema ([`crate::repair::refs::RefList`]), listed once per
    /// tool; `None` when it has no schema.
    pub fn root_refs(&self) -> Option<(&'x serde_json::Value, &'x crate::repair::refs::RefList)> {
        let root = self.root?;
        Some((
            root,
            self.root_refs
                .get_or_init(|| crate::repair::refs::RefList::of(root)),
        ))
    }

    /// Whether the finding's schema has no `type` (nor a keyword standing in for one), the
    /// profile rejects that (`type-missing`), and repair cannot write one: repair then refuses
    /// the place on `type-missing` whatever else it could fix there, and dropping a keyword
    /// (an untyped `enum` of mixed kinds, a `const: null`) would not help, as nothing would
    /// say the type either. Not at the root, which is `root-not-object`'s.
    pub fn left_untyped(&self) -> bool {
        // The profile's verdict first (read by position, before the subschema: most profiles
        // do not reject an untyped schema), then one pass over the keys: a subschema has a
        // few, and hashing five names into its map showed in profiles (this is asked of
        // every keyword finding).
        if !matches!(
            self.profile.type_missing_slot(self.placement),
            super::compiled::Slot::Rejected(_)
        ) {
            return false;
        }
        let Some(node) = self.node() else {
            return false;
        };
        !self.at_root()
            && !node
                .keys()
                .any(|k| matches!(k.as_str(), "type" | "anyOf" | "oneOf" | "allOf" | "$ref"))
            && !(type_missing::RULE.repairable)(&Feat::TypeMissing, self)
    }

    /// The subschema (object) the finding sits in: the one holding the keyword it is about.
    pub fn node(&self) -> Option<&'x serde_json::Map<String, serde_json::Value>> {
        match self.node {
            Some((value, _)) => {
                debug_assert!(
                    self.root
                        .and_then(|r| crate::json::at_pointer(r, &(self.node_pointer)()))
                        .is_some_and(|v| std::ptr::eq(v, value)),
                    "the walk's subschema is the one at its pointer"
                );
                value.as_object()
            }
            None => crate::json::at_pointer(self.root?, &(self.node_pointer)())?.as_object(),
        }
    }

    /// Whether the finding's subschema is the parameters schema itself.
    pub fn at_root(&self) -> bool {
        match self.node {
            Some((_, root)) => root,
            None => (self.node_pointer)().is_empty(),
        }
    }

    /// Whether the profile rejects the root shape `shape` (a `value::ROOT_*`): a repair that
    /// writes it brings in an error, which repair does not keep.
    pub fn rejects_root(&self, shape: &'static str) -> bool {
        matches!(
            self.profile
                .lookup(&Feat::RootShape(shape), Placement::Root),
            super::compiled::Slot::Rejected(_)
        )
    }

    /// Whether repair writes the whole schema anew, so that every finding in it goes: the
    /// root is an object that declares no arguments (`properties` absent or empty), the
    /// profile rejects that shape, and repair can write the tool without arguments another
    /// way (what `object-properties-missing` marks repairable at the root). Repair takes that
    /// error first (`repair::replaces_schema`).
    pub fn replaces_schema(&self) -> bool {
        let Some(root) = self.root.and_then(serde_json::Value::as_object) else {
            return false;
        };
        // A root has a few keys: a scan costs less than hashing two (this is asked of most
        // tools with a finding, and most declare properties).
        let (mut ty, mut properties) = (None, None);
        for (k, v) in root {
            match k.as_str() {
                "type" => ty = Some(v),
                "properties" => properties = Some(v),
                _ => {}
            }
        }
        let shape = match properties {
            None => value::ROOT_OBJECT_WITHOUT_PROPERTIES,
            Some(serde_json::Value::Object(m)) if m.is_empty() => value::ROOT_NO_ARGUMENTS,
            Some(_) => return false,
        };
        let ty = match ty {
            Some(serde_json::Value::String(t)) => Ty::One(t),
            Some(serde_json::Value::Array(l)) => Ty::List(l),
            _ => return false,
        };
        if !ty.names("object") {
            return false;
        }
        self.rejects_root(shape) && self.rewrites_no_arguments(shape)
    }

    /// Whether repair writes a tool whose root has `shape` (it takes no arguments) another
    /// way the profile does not reject (`repair::fixes::shapes::root_shape`): an empty
    /// `properties` only by leaving the schema out, an object without `properties` either way.
    pub fn rewrites_no_arguments(&self, shape: &str) -> bool {
        if self
            .root
            .and_then(serde_json::Value::as_object)
            .is_some_and(crate::repair::says_members_elsewhere)
        {
            return false;
        }
        match shape {
            value::ROOT_NO_ARGUMENTS => {
                self.may_leave_schema_out() && !self.rejects_root(value::ROOT_ABSENT)
            }
            value::ROOT_OBJECT_WITHOUT_PROPERTIES => self.can_take_no_arguments(),
            _ => false,
        }
    }

    /// Whether repair can make the tool take no arguments in a way the profile does not
    /// reject: by leaving the schema out ([`Repairing::may_leave_schema_out`]) or by declaring
    /// an empty argument object (`repair::fixes::shapes::root_shape`'s two candidates).
    pub fn can_take_no_arguments(&self) -> bool {
        (self.may_leave_schema_out() && !self.rejects_root(value::ROOT_ABSENT))
            || !self.rejects_root(value::ROOT_NO_ARGUMENTS)
    }

    /// Whether repair may write the tool with its schema left out: it has an envelope (a bare
    /// schema has nothing to leave it out of) and its shape does not require the schema's key
    /// (repair writes the tool back in its shape, `repair::Options::required_schema_key`).
    pub fn may_leave_schema_out(&self) -> bool {
        self.named && self.required_schema_key.is_none()
    }
}

/// How an error goes with a keyword `toolwire repair` drops whole (`Cx`'s pass over a tool's
/// findings after its walk): the keyword's place is a JSON Pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gone {
    /// The error is at or inside the keyword's value.
    With(String),
    /// The error is in a definition that only `$ref`s in dropped keywords reach: the places of
    /// those keywords that hold a `$ref`.
    Unreached(Vec<String>),
}

/// Whether `profile` rejects the `allOf` of the schema `map` at `pointer`, placed at
/// `placement`: its `root-combinator` shape at the root, the keyword below it. Repair merges an
/// `allOf` exactly where it is rejected, so the rules whose findings that merge removes
/// (`type-missing` in a branch, `object-properties-missing` on the object) ask this.
pub fn all_of_rejected(
    profile: &super::compiled::CompiledProfile,
    pointer: &str,
    map: &serde_json::Map<String, serde_json::Value>,
    placement: Placement,
) -> bool {
    let feat = match (pointer.is_empty(), map.contains_key("type")) {
        (true, true) => Feat::RootShape("allOf-with-type"),
        (true, false) => Feat::RootShape("allOf"),
        (false, _) => Feat::Keyword("allOf"),
    };
    matches!(
        profile.lookup(&feat, placement),
        super::compiled::Slot::Rejected(_)
    )
}

/// `repairable` for the name rules: repair renames the tool unless the new name is one
/// another tool of the request is sent under ([`Repairing::name_clash`]).
pub fn unless_rename_clashes(_: &Feat<'_>, r: &Repairing<'_>) -> bool {
    (r.name_clash)().is_none()
}

/// The fix of a name finding whose rename repair would refuse (`clash`, the reason
/// [`Cx::name_clash`] gives): the rename is no fix, so it is for the author to make.
pub fn rename_clash_fix(clash: &str) -> String {
    format!(
        "Rename it by hand to a name the profile accepts that no other tool of the request has. \
         `toolwire repair` cannot: {clash}."
    )
}

/// `repairable` for rules that never have a repair.
pub fn never(_: &Feat<'_>, _: &Repairing<'_>) -> bool {
    false
}

/// `repairable` for rules whose every finding can be repaired.
pub fn always(_: &Feat<'_>, _: &Repairing<'_>) -> bool {
    true
}

/// Whether `p` is `kind` with a value in `values`.
pub fn keyed_in(p: &Param, kind: Kind, values: &[&str]) -> bool {
    matches!(p, Param::Keyed(k, v) if *k == kind && values.contains(&v.as_str()))
}

/// Whether `p` is `keyword-allowed: K (form)` for this `keyword`.
pub fn keyword_form_of(p: &Param, keyword: &str) -> Option<String> {
    match p {
        Param::Keyed(Kind::KeywordForm, v) => {
            let (k, rest) = v.split_once(" (")?;
            (k == keyword).then(|| rest.trim_end_matches(')').to_string())
        }
        _ => None,
    }
}

/// Every rule, in the order tables list them. Catch-all rules come last so that
/// [`owner`] finds the specific rule first.
pub static REGISTRY: [Rule; 42] = [
    parameters_missing::RULE,
    root_not_object::RULE,
    root_combinator::RULE,
    type_missing::RULE,
    type_invalid::RULE,
    type_unsupported::RULE,
    type_list::RULE,
    array_items_missing::RULE,
    items_not_schema::RULE,
    items_on_non_array::RULE,
    object_properties_missing::RULE,
    properties_on_non_object::RULE,
    properties_invalid::RULE,
    property_named_keyword::RULE,
    property_name_invalid::RULE,
    schema_invalid::RULE,
    boolean_schema::RULE,
    required_undeclared::RULE,
    required_invalid::RULE,
    strict_form_missing::RULE,
    enum_not_string::RULE,
    enum_invalid::RULE,
    format_unsupported::RULE,
    anyof_with_siblings::RULE,
    nullable_spelling::RULE,
    ref_unsupported::RULE,
    ref_dangling::RULE,
    ref_remote::RULE,
    keyword_value_invalid::RULE,
    keyword_unsupported::RULE,
    meta_schema_invalid::RULE,
    depth_exceeded::RULE,
    nesting_too_deep::RULE,
    ref_expansion_exceeded::RULE,
    size_exceeded::RULE,
    too_many_tools::RULE,
    name_invalid::RULE,
    name_too_long::RULE,
    name_duplicate::RULE,
    description_missing::RULE,
    description_too_long::RULE,
    description_content::RULE,
];

/// Looks a rule up by id.
pub fn find(id: &str) -> Option<&'static Rule> {
    REGISTRY.iter().find(|r| r.id == id)
}

/// The rule that reports a case parameter (`None` for the control and for strings outside
/// the vocabulary).
pub fn owner(parameter: &str) -> Option<&'static Rule> {
    let p = super::feature::parse_parameter(parameter)?;
    REGISTRY.iter().find(|r| (r.owns)(&p))
}

/// The rules grouped by where they run, computed once.
#[derive(Debug, Clone)]
pub struct HookLists {
    pub node: Vec<&'static Rule>,
    /// For each [`when`] fact (bit `b`), the node rules (bit `i`: `node[i]`) called for a
    /// subschema with it: the walk ORs those of a subschema's facts and calls the rules of
    /// the bits set, in order, instead of testing every rule's `node_when` at every subschema.
    pub node_by_fact: [u64; 32],
    /// The bit of `keyword-unsupported` among `node` (0 when it is off): the walk clears it
    /// for a subschema whose keys that rule passes over unread
    /// ([`CompiledProfile::quiet_keywords`](crate::profile::compiled::CompiledProfile::quiet_keywords)).
    pub keyword_unsupported: u64,
    pub tool: Vec<&'static Rule>,
    pub after: Vec<&'static Rule>,
    pub request: Vec<&'static Rule>,
    pub request_after: Vec<&'static Rule>,
}

pub fn hooks() -> &'static HookLists {
    static LISTS: OnceLock<HookLists> = OnceLock::new();
    LISTS.get_or_init(|| HookLists::without(&[]))
}

impl HookLists {
    /// No hooks at all: a walk that only reads the schema.
    pub const NONE: HookLists = HookLists {
        node: Vec::new(),
        node_by_fact: [0; 32],
        keyword_unsupported: 0,
        tool: Vec::new(),
        after: Vec::new(),
        request: Vec::new(),
        request_after: Vec::new(),
    };

    /// The node rules (bit `i`: `node[i]`) called for a subschema of facts `facts`: those
    /// whose `node_when` shares a bit with them.
    #[inline]
    pub fn node_due(&self, facts: u32) -> u64 {
        let (mut f, mut due) = (facts, 0);
        while f != 0 {
            due |= self.node_by_fact[f.trailing_zeros() as usize];
            f &= f - 1;
        }
        due
    }

    /// Every rule's hooks but those of the rules `off` (ids).
    pub fn without(off: &[&str]) -> HookLists {
        let on = || REGISTRY.iter().filter(|r| !off.contains(&r.id));
        let node: Vec<&'static Rule> = on().filter(|r| r.hooks.node.is_some()).collect();
        assert!(
            node.len() <= 64,
            "node rules are told apart by a bit of a u64"
        );
        let mut node_by_fact = [0u64; 32];
        for (b, rules) in node_by_fact.iter_mut().enumerate() {
            for (i, r) in node.iter().enumerate() {
                if r.hooks.node_when & 1 << b != 0 {
                    *rules |= 1 << i;
                }
            }
        }
        let keyword_unsupported = node
            .iter()
            .position(|r| r.id == keyword_unsupported::RULE.id)
            .map_or(0, |i| 1 << i);
        HookLists {
            node_by_fact,
            keyword_unsupported,
            node,
            tool: on().filter(|r| r.hooks.tool.is_some()).collect(),
            after: on().filter(|r| r.hooks.after.is_some()).collect(),
            request: on().filter(|r| r.hooks.request.is_some()).collect(),
            request_after: on().filter(|r| r.hooks.request_after.is_some()).collect(),
        }
    }
}

/// The logic `items-on-non-array` and `properties-on-non-object` share: `keyword` is present
/// on a schema whose `type` is given and excludes `ty` (see [`Ty::excludes`]); `a_ty` names the
/// type in the message ("an array").
pub fn keyword_on_other_type(
    cx: &mut Cx<'_, '_>,
    n: &Node<'_>,
    keyword: &'static str,
    present: bool,
    ty: &str,
    a_ty: &'static str,
    feature: &'static str,
) {
    if present && n.ty.excludes(ty) {
        cx.feature(
            At::Key(n.frame, keyword),
            Feat::Structure(feature),
            n.placement,
            || format!("`{keyword}` on a schema that is not {a_ty}"),
        );
    }
}

/// Keys of a schema that only annotate (they never change which instances are valid).
pub const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "default",
    "examples",
    "example",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// The standard JSON type `t` names (ASCII case-insensitively), as a static string.
pub fn standard_type(t: &str) -> Option<&'static str> {
    // Nearly every `type` is written as the standard name itself, which one match finds.
    if let Some(i) = super::feature::standard_type_index(t) {
        return Some(super::feature::STANDARD_TYPES[i]);
    }
    super::feature::STANDARD_TYPES
        .iter()
        .copied()
        .find(|s| s.eq_ignore_ascii_case(t))
}

pub use crate::json::kind as json_kind;

#[cfg(test)]
pub mod testing {
    //! Fixtures in, findings out: the features one rule reports for a tool.

    use serde_json::Value;

    use crate::profile::detect::{self, ToolRef};

    /// (pointer, parameter) of every feature `rule` reports for one tool with `parameters`.
    pub fn seen(rule: &str, parameters: Value) -> Vec<(String, String)> {
        seen_tools(
            rule,
            &[(
                Some("probe_tool"),
                Some("Looks up a record by its identifier."),
                Some(parameters),
            )],
        )
    }

    /// [`seen`] for a tool that asks for OpenAI's strict mode ([`ToolRef::strict`]).
    pub fn seen_strict(rule: &str, parameters: Value) -> Vec<(String, String)> {
        seen_with(rule, &[(Some("probe_tool"), None, Some(parameters))], true)
    }

    /// Same for a request of several tools given as (name, description, parameters).
    pub fn seen_tools(
        rule: &str,
        tools: &[(Option<&str>, Option<&str>, Option<Value>)],
    ) -> Vec<(String, String)> {
        seen_with(rule, tools, false)
    }

    fn seen_with(
        rule: &str,
        tools: &[(Option<&str>, Option<&str>, Option<Value>)],
        strict: bool,
    ) -> Vec<(String, String)> {
        let refs: Vec<ToolRef<'_>> = tools
            .iter()
            .enumerate()
            .map(|(i, (n, d, p))| ToolRef {
                strict,
                name: *n,
                description: *d,
                parameters: p.as_ref(),
                index: i,
                ..Default::default()
            })
            .collect();
        assert!(super::find(rule).is_some(), "no rule {rule}");
        detect::collect(&refs)
            .into_iter()
            .filter(|s| s.rule == rule)
            .map(|s| (s.pointer, s.parameter))
            .collect()
    }

    /// A profile of one target, `target`, with `features` (parameter, status) at the nested
    /// placement, for a rule's test to decide the evidence itself.
    pub fn nested_profile(
        target: &str,
        features: &[(&str, crate::profile::Status)],
    ) -> crate::profile::CompiledProfile {
        use crate::profile::{FeatureEntry, Profile, Status};
        crate::profile::CompiledProfile::new(&Profile {
            name: "test".into(),
            targets: vec![target.into()],
            control: Status::Allowed,
            features: features
                .iter()
                .map(|&(parameter, status)| FeatureEntry {
                    parameter: parameter.into(),
                    placement: crate::case::Placement::Nested,
                    status,
                    rejected_by: Vec::new(),
                    unknown_for: Vec::new(),
                    judged_elsewhere: Default::default(),
                })
                .collect(),
            summary: Default::default(),
            meta_schema: Vec::new(),
        })
    }

    /// Every finding for one tool with `parameters` under `profile`.
    pub fn check_under(
        profile: &crate::profile::CompiledProfile,
        parameters: &Value,
    ) -> Vec<crate::check::Finding> {
        let tool = ToolRef {
            name: Some("probe_tool"),
            description: Some("Looks up a record by its identifier."),
            parameters: Some(parameters),
            index: 0,
            ..Default::default()
        };
        crate::check::check_tools(&[tool], profile)
    }

    /// The messages of `rule`'s findings for one tool with `parameters` under the built-in
    /// `portable` profile (for wording; which features fire is tested with [`seen`]).
    pub fn messages(rule: &str, parameters: Value) -> Vec<String> {
        findings(rule, parameters)
            .into_iter()
            .map(|f| f.message.to_string())
            .collect()
    }

    /// The fixes of `rule`'s findings, as [`messages`] gives their messages.
    pub fn fixes(rule: &str, parameters: Value) -> Vec<String> {
        findings(rule, parameters)
            .into_iter()
            .map(|f| f.fix.to_string())
            .collect()
    }

    fn findings(rule: &str, parameters: Value) -> Vec<crate::check::Finding> {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let portable = set.get(crate::profile::PORTABLE).expect("portable profile");
        let profile = crate::profile::CompiledProfile::new(portable);
        let tool = ToolRef {
            name: Some("probe_tool"),
            description: Some("Looks up a record by its identifier."),
            parameters: Some(&parameters),
            index: 0,
            ..Default::default()
        };
        crate::check::check_tools(&[tool], &profile)
            .into_iter()
            .filter(|f| f.rule == rule)
            .collect()
    }

    /// Shorthand for expected (pointer, parameter) pairs.
    pub fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }
}
