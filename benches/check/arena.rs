//! A minimal borrowed document, to measure what `check` could reach on its own reading of the
//! bytes instead of `serde_json::Value` trees (issue 3, item 9). A measurement, not a feature:
//! nothing in `src/` uses it.
//!
//! A line reads into one flat arena of [`Node`]s: an array's elements and an object's members
//! are contiguous index ranges into it; strings and object keys are borrowed from the line
//! where they have no escapes; every object key is also classified as read into the keyword
//! id ([`Kw`]) that `profile::detect::read_keys` would match it to. serde_json's own parser
//! does the reading (a `DeserializeSeed` pushing into the arena), not a tokenizer of ours.
//!
//! It refuses what toolwire's reader refuses only where that is cheap: anything serde_json
//! refuses, and nesting deeper than [`MAX_DEPTH`] levels. It does not look for duplicate keys
//! (toolwire counts them as it builds; that cost is left out of the measurement) and keeps
//! every member of an object, where serde_json keeps the last of a duplicate key.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Levels of arrays and objects a line may nest: toolwire's cap (`input::LIMITS.max_depth`).
pub const MAX_DEPTH: u32 = 512;

/// The keywords `profile::detect::read_keys` has an arm for; `Other` for every other key
/// (and for an array element, which has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kw {
    Type,
    Properties,
    Items,
    Required,
    Const,
    Enum,
    Ref,
    AnyOf,
    OneOf,
    AllOf,
    PrefixItems,
    Not,
    Format,
    Nullable,
    Defs,
    Definitions,
    PatternProperties,
    DependentSchemas,
    AdditionalProperties,
    UnevaluatedProperties,
    UnevaluatedItems,
    AdditionalItems,
    PropertyNames,
    Contains,
    If,
    Then,
    Else,
    Description,
    Title,
    Default,
    Other,
}

impl Kw {
    fn of(key: &str) -> Kw {
        match key {
            "type" => Kw::Type,
            "properties" => Kw::Properties,
            "items" => Kw::Items,
            "required" => Kw::Required,
            "const" => Kw::Const,
            "enum" => Kw::Enum,
            "$ref" => Kw::Ref,
            "anyOf" => Kw::AnyOf,
            "oneOf" => Kw::OneOf,
            "allOf" => Kw::AllOf,
            "prefixItems" => Kw::PrefixItems,
            "not" => Kw::Not,
            "format" => Kw::Format,
            "nullable" => Kw::Nullable,
            "$defs" => Kw::Defs,
            "definitions" => Kw::Definitions,
            "patternProperties" => Kw::PatternProperties,
            "dependentSchemas" => Kw::DependentSchemas,
            "additionalProperties" => Kw::AdditionalProperties,
            "unevaluatedProperties" => Kw::UnevaluatedProperties,
            "unevaluatedItems" => Kw::UnevaluatedItems,
            "additionalItems" => Kw::AdditionalItems,
            "propertyNames" => Kw::PropertyNames,
            "contains" => Kw::Contains,
            "if" => Kw::If,
            "then" => Kw::Then,
            "else" => Kw::Else,
            "description" => Kw::Description,
            "title" => Kw::Title,
            "default" => Kw::Default,
            _ => Kw::Other,
        }
    }
}

/// A value; containers hold the range `start..end` of their children in the arena.
#[derive(Debug)]
pub enum Val<'a> {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(Cow<'a, str>),
    Array(u32, u32),
    Object(u32, u32),
}

/// One arena entry: a value, with its key when it is an object's member (empty otherwise).
#[derive(Debug)]
pub struct Node<'a> {
    pub key: Cow<'a, str>,
    pub kw: Kw,
    pub value: Val<'a>,
}

/// A line read whole, with the index of the node a workload starts from.
pub struct Tree<'a> {
    /// The line's values, each container's children before it, the line's own value last.
    pub nodes: Vec<Node<'a>>,
    /// Index in `nodes` of the value the walks start from.
    pub root: u32,
}

impl<'a> Tree<'a> {
    /// The members or elements of a container (none for a scalar).
    pub fn children(&self, v: &Val<'a>) -> &[Node<'a>] {
        match *v {
            Val::Array(s, e) | Val::Object(s, e) => &self.nodes[s as usize..e as usize],
            _ => &[],
        }
    }

    /// The index of member `key` of the object at `at`.
    pub fn get(&self, at: u32, key: &str) -> Option<u32> {
        match self.nodes[at as usize].value {
            Val::Object(s, e) => (s..e).find(|&i| self.nodes[i as usize].key == key),
            _ => None,
        }
    }
}

/// Reads lines into arenas, keeping the scratch space from line to line.
#[derive(Default)]
pub struct Reader<'a> {
    /// Children of the containers still open, moved into the arena as each closes (so that
    /// every container's children end up contiguous).
    scratch: Vec<Node<'a>>,
}

impl<'a> Reader<'a> {
    /// Reads one line (of a file already checked as UTF-8, as toolwire's reader and the parse
    /// workload check it once: `from_slice` would check every string again) into `nodes`,
    /// replacing what they held, and returns the index of the line's value (the last node).
    pub fn read(&mut self, line: &'a str, nodes: &mut Vec<Node<'a>>) -> serde_json::Result<u32> {
        nodes.clear();
        self.scratch.clear();
        let mut de = serde_json::Deserializer::from_str(line);
        // The depth is counted by `Seed`, up to toolwire's cap rather than serde_json's 128.
        de.disable_recursion_limit();
        let value = Seed {
            nodes,
            scratch: &mut self.scratch,
            depth: 0,
        }
        .deserialize(&mut de)?;
        de.end()?;
        nodes.push(Node {
            key: Cow::Borrowed(""),
            kw: Kw::Other,
            value,
        });
        Ok(nodes.len() as u32 - 1)
    }
}

struct Seed<'d, 'a> {
    nodes: &'d mut Vec<Node<'a>>,
    scratch: &'d mut Vec<Node<'a>>,
    /// Containers open around the value read.
    depth: u32,
}

impl<'a> Seed<'_, 'a> {
    fn below<E: de::Error>(&mut self) -> Result<Seed<'_, 'a>, E> {
        if self.depth >= MAX_DEPTH {
            return Err(E::custom(format_args!(
                "nesting deeper than {MAX_DEPTH} levels"
            )));
        }
        Ok(Seed {
            nodes: self.nodes,
            scratch: self.scratch,
            depth: self.depth + 1,
        })
    }

    /// Moves the children read since `mark` into the arena: their range.
    fn close(self, mark: usize) -> (u32, u32) {
        let start = self.nodes.len() as u32;
        self.nodes.extend(self.scratch.drain(mark..));
        (start, self.nodes.len() as u32)
    }
}

impl<'de> DeserializeSeed<'de> for Seed<'_, 'de> {
    type Value = Val<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Val<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_, 'de> {
    type Value = Val<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Val<'de>, E> {
        Ok(Val::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Val<'de>, E> {
        Ok(Val::Bool(b))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Val<'de>, E> {
        Ok(Val::U64(n))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Val<'de>, E> {
        Ok(Val::I64(n))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Val<'de>, E> {
        Ok(Val::F64(n))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Val<'de>, E> {
        Ok(Val::Str(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Val<'de>, E> {
        Ok(Val::Str(Cow::Owned(s.to_owned())))
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Val<'de>, A::Error> {
        let mark = self.scratch.len();
        while let Some(value) = seq.next_element_seed(self.below()?)? {
            self.scratch.push(Node {
                key: Cow::Borrowed(""),
                kw: Kw::Other,
                value,
            });
        }
        let (s, e) = self.close(mark);
        Ok(Val::Array(s, e))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Val<'de>, A::Error> {
        let mark = self.scratch.len();
        while let Some(key) = map.next_key_seed(Key)? {
            let value = map.next_value_seed(self.below()?)?;
            let kw = Kw::of(&key);
            self.scratch.push(Node { key, kw, value });
        }
        let (s, e) = self.close(mark);
        Ok(Val::Object(s, e))
    }
}

/// An object key, borrowed when it has no escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(s))
    }

    fn visit_str<E>(self, s: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s.to_owned()))
    }
}

/// The tree as a `serde_json::Value`, for holding the arena to the parse.
pub fn to_value(t: &Tree<'_>, at: u32) -> serde_json::Value {
    use serde_json::Value;
    let v = &t.nodes[at as usize].value;
    match *v {
        Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(b),
        Val::U64(n) => n.into(),
        Val::I64(n) => n.into(),
        Val::F64(n) => n.into(),
        Val::Str(ref s) => Value::String(s.to_string()),
        Val::Array(s, e) => (s..e).map(|i| to_value(t, i)).collect(),
        Val::Object(s, e) => (s..e)
            .map(|i| (t.nodes[i as usize].key.to_string(), to_value(t, i)))
            .collect(),
    }
}

/// The floor of any check on the arena: visiting every value of every tree below its root and
/// reading every object key's keyword id, and nothing else (as `visit_parsed` does on
/// `Value` trees, which reads the keys' bytes instead: here they were classified as read).
pub fn visit(trees: &[Tree<'_>]) -> usize {
    let mut sum = 0usize;
    let mut stack: Vec<u32> = Vec::new();
    for t in trees {
        stack.push(t.root);
        while let Some(i) = stack.pop() {
            match t.nodes[i as usize].value {
                Val::Object(s, e) => {
                    for j in s..e {
                        sum += t.nodes[j as usize].kw as usize;
                        stack.push(j);
                    }
                }
                Val::Array(s, e) => stack.extend(s..e),
                _ => sum += 1,
            }
        }
    }
    sum
}

/// What `read_keys` records of one subschema, as arena indices.
#[derive(Default)]
struct Schema {
    ty: Option<u32>,
    properties: Option<u32>,
    items: Option<u32>,
    required: Option<u32>,
    enum_: Option<u32>,
    reference: Option<u32>,
    any_of: Option<u32>,
    format: Option<u32>,
    nullable: Option<u32>,
    prefix_items: bool,
    one_of: bool,
    all_of: bool,
    not: bool,
    defs: bool,
    definitions: bool,
    has_if: bool,
    has_const: bool,
    object_depth: u32,
}

/// The per-tool measurements the walk gathers (`detect::Stats`, without the meta-schema
/// proof and the truncation cap).
#[derive(Default)]
pub struct Stats {
    /// Object schemas on the deepest path.
    pub max_object_depth: u32,
    /// Some subschema holds `$ref`, `$defs` or `definitions`.
    pub refers: bool,
    /// Values of the longest `enum` list.
    pub max_enum: usize,
    /// Members of every `properties` map.
    pub property_count: usize,
    /// Bytes of the schema as compact JSON, strings counted without their escapes.
    pub compact_bytes: usize,
    /// Bytes of string contents counted in `compact_bytes`.
    pub string_bytes: usize,
}

impl Stats {
    fn add_str(&mut self, s: &str) {
        self.compact_bytes += s.len() + 2;
        self.string_bytes += s.len();
    }

    /// As `detect::Stats::add_value`: a value the walk does not visit as a subschema.
    fn add_value(&mut self, t: &Tree<'_>, v: &Val<'_>) {
        match *v {
            Val::Str(ref s) => self.add_str(s),
            Val::Array(s, e) => {
                self.compact_bytes += 2 + (e - s).saturating_sub(1) as usize;
                for n in t.children(v) {
                    self.add_value(t, &n.value);
                }
            }
            Val::Object(s, e) => {
                self.compact_bytes += 2 + (e - s).saturating_sub(1) as usize + (e - s) as usize;
                for n in t.children(v) {
                    self.add_str(&n.key);
                    self.add_value(t, &n.value);
                }
            }
            Val::Null | Val::Bool(true) => self.compact_bytes += 4,
            Val::Bool(false) => self.compact_bytes += 5,
            Val::U64(n) => self.compact_bytes += digits(n),
            Val::I64(n) => self.compact_bytes += 1 + digits(n.unsigned_abs()),
            // As `detect::number_len` measures a float.
            Val::F64(n) => {
                self.compact_bytes +=
                    serde_json::Number::from_f64(n).map_or(4, |n| n.to_string().len())
            }
        }
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

/// The fused floor: the walk of `profile::detect::walk` over every tree, without the rules.
/// Per subschema: its keys read in `read_keys`' shape (the keyword switch setting the
/// subschema's fields, its subschemas listed in document order, the `Stats` byte counts),
/// a frame per subschema for pointers (parent frame and arena index, which names the key or
/// the element), and the depth, enum and reference measures. Left out, as the rules' work:
/// the node hooks and their facts, the meta-schema proof (`meta_shape`), and the forms of
/// `keyword-value-invalid`. Returns a digest of the `Stats`, so that none is optimized away.
pub fn fused(trees: &[Tree<'_>]) -> usize {
    let mut walk = Walk::default();
    trees
        .iter()
        .map(|t| {
            let stats = walk.tree(t);
            stats.compact_bytes
                + stats.string_bytes
                + stats.property_count
                + stats.max_enum
                + stats.max_object_depth as usize
                + usize::from(stats.refers)
                + walk.frames.len()
        })
        .sum()
}

/// The walk's buffers, kept from tree to tree as `detect::Checker` keeps them.
#[derive(Default)]
pub struct Walk {
    /// (subschema, its frame, keyword it sits under, object depth of its parent)
    stack: Vec<(u32, u32, Kw, u32)>,
    children: Vec<(u32, Kw)>,
    /// (parent frame, arena index)
    frames: Vec<(u32, u32)>,
}

impl Walk {
    /// Walks one tree from its root: its `Stats`.
    pub fn tree(&mut self, t: &Tree<'_>) -> Stats {
        let mut stats = Stats::default();
        self.frames.clear();
        self.frames.push((0, t.root));
        self.stack.push((t.root, 0, Kw::Other, 0));
        while let Some((at, frame, via, parent_depth)) = self.stack.pop() {
            let value = &t.nodes[at as usize].value;
            let mut node = Schema {
                object_depth: parent_depth,
                ..Schema::default()
            };
            self.children.clear();
            match *value {
                Val::Object(s, e) => {
                    stats.compact_bytes += 2 + (e - s).saturating_sub(1) as usize;
                    read_keys(t, s, e, &mut node, &mut self.children, &mut stats);
                }
                _ => stats.add_value(t, value),
            }
            let is_object = node.properties.is_some()
                || node.ty.is_some_and(|i| {
                    matches!(&t.nodes[i as usize].value,
                        Val::Str(s) if s.eq_ignore_ascii_case("object"))
                });
            if is_object {
                node.object_depth = parent_depth + 1;
            }
            stats.refers |= node.reference.is_some() || node.defs || node.definitions;
            stats.max_object_depth = stats.max_object_depth.max(node.object_depth);
            if let Some(i) = node.enum_
                && let Val::Array(s, e) = t.nodes[i as usize].value
            {
                stats.max_enum = stats.max_enum.max((e - s) as usize);
            }
            // The rules would be handed the subschema here.
            std::hint::black_box((&node, via));
            let first = self.stack.len();
            for &(sub, kw) in &self.children {
                self.frames.push((frame, sub));
                self.stack
                    .push((sub, self.frames.len() as u32 - 1, kw, node.object_depth));
            }
            self.stack[first..].reverse();
        }
        stats
    }
}

/// `detect::read_keys` on the members `s..e` of an object subschema.
fn read_keys(
    t: &Tree<'_>,
    s: u32,
    e: u32,
    node: &mut Schema,
    children: &mut Vec<(u32, Kw)>,
    stats: &mut Stats,
) {
    for i in s..e {
        let n = &t.nodes[i as usize];
        stats.add_str(&n.key);
        stats.compact_bytes += 1;
        let before = children.len();
        let is_object = matches!(n.value, Val::Object(..));
        match n.kw {
            Kw::Type => node.ty = Some(i),
            Kw::Properties => {
                node.properties = Some(i);
                if let Val::Object(s, e) = n.value {
                    stats.property_count += (e - s) as usize;
                }
                push_members(children, &n.value, n.kw, true);
            }
            Kw::Items => {
                node.items = Some(i);
                match n.value {
                    Val::Array(..) => push_members(children, &n.value, n.kw, false),
                    _ => children.push((i, n.kw)),
                }
            }
            Kw::Required => node.required = Some(i),
            Kw::Const => node.has_const = true,
            Kw::Enum => node.enum_ = Some(i),
            Kw::Ref => node.reference = Some(i),
            Kw::AnyOf => {
                node.any_of = Some(i);
                push_members(children, &n.value, n.kw, false);
            }
            Kw::OneOf => {
                node.one_of = true;
                push_members(children, &n.value, n.kw, false);
            }
            Kw::AllOf => {
                node.all_of = true;
                push_members(children, &n.value, n.kw, false);
            }
            Kw::PrefixItems => {
                node.prefix_items = true;
                push_members(children, &n.value, n.kw, false);
            }
            Kw::Not => {
                node.not = true;
                children.push((i, n.kw));
            }
            Kw::Format => node.format = Some(i),
            Kw::Nullable => node.nullable = Some(i),
            Kw::Defs => {
                node.defs = true;
                push_members(children, &n.value, n.kw, true);
            }
            Kw::Definitions => {
                node.definitions = true;
                push_members(children, &n.value, n.kw, true);
            }
            Kw::PatternProperties | Kw::DependentSchemas => {
                push_members(children, &n.value, n.kw, true)
            }
            Kw::AdditionalProperties
            | Kw::UnevaluatedProperties
            | Kw::UnevaluatedItems
            | Kw::AdditionalItems
                if is_object =>
            {
                children.push((i, n.kw))
            }
            Kw::If => {
                node.has_if = true;
                children.push((i, n.kw));
            }
            Kw::PropertyNames | Kw::Contains | Kw::Then | Kw::Else => children.push((i, n.kw)),
            _ => {}
        }
        // As `read_keys`: a value with no subschema counts whole; a single subschema counts
        // itself when visited; a list or map of them, its brackets (and keys) here.
        match (children.get(before), &n.value) {
            (None, v) => stats.add_value(t, v),
            (Some(&(sub, _)), _) if sub == i => {}
            (Some(_), Val::Object(s, e)) => {
                stats.compact_bytes += 2 + (e - s).saturating_sub(1) as usize + (e - s) as usize;
                for m in t.children(&n.value) {
                    stats.add_str(&m.key);
                }
            }
            (Some(_), Val::Array(s, e)) => {
                stats.compact_bytes += 2 + (e - s).saturating_sub(1) as usize
            }
            (Some(_), _) => {}
        }
    }
}

/// Lists the elements of a list keyword's array, or the members of a map keyword's object.
fn push_members(children: &mut Vec<(u32, Kw)>, v: &Val<'_>, kw: Kw, map: bool) {
    match (v, map) {
        (&Val::Array(s, e), false) | (&Val::Object(s, e), true) => {
            children.extend((s..e).map(|i| (i, kw)))
        }
        _ => {}
    }
}
