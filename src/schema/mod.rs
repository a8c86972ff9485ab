//! Walking JSON Schemas with RFC 6901 JSON Pointers.
//!
//! The walk knows which object members are *keywords* and which are *property names*: under
//! `properties` every member is a name (a property literally called `type` or `default` is a
//! name, never a keyword), and its value is a subschema. It is iterative and bounded, so any
//! parsed value is safe to walk.

use serde_json::{Map, Value};

use crate::json::push_token;

pub mod depth;
pub mod ecma;
pub mod in_place;
pub mod meta_shape;
pub mod refs;

/// Keywords whose value is a map from names to subschemas.
pub const MAP_OF_SCHEMAS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is one subschema.
pub const ONE_SCHEMA: &[&str] = &[
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "additionalItems",
];
/// Keywords whose value is a list of subschemas.
pub const LIST_OF_SCHEMAS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];

/// Whether `v`, a member of draft 4-7's `dependencies` (draft-07 validation §6.5.7), is a
/// subschema: its schema form (an object or a boolean, what `dependentSchemas` took over),
/// not its property form (an array of names, what `dependentRequired` took over). The
/// jsonschema crate `args` judges with runs the schema form under every draft.
pub fn is_schema_dependency(v: &Value) -> bool {
    v.is_object() || v.is_boolean()
}

/// The subschemas of a `dependencies` value `v` ([`is_schema_dependency`]), with their names.
pub fn schema_dependencies(v: &Value) -> impl Iterator<Item = (&String, &Value)> {
    v.as_object()
        .into_iter()
        .flatten()
        .filter(|(_, sub)| is_schema_dependency(sub))
}

/// Whether the token after `keyword` in a JSON Pointer into a schema is a name the schema's
/// author chose (a property, a definition) rather than a keyword: after [`MAP_OF_SCHEMAS`],
/// and after draft 4-7's `dependencies` and 2019-09's `dependentRequired`, whose members are
/// property names whatever their values (a schema, a list of names).
pub fn names_members(keyword: &str) -> bool {
    MAP_OF_SCHEMAS.contains(&keyword) || matches!(keyword, "dependencies" | "dependentRequired")
}

/// What the last token of a JSON Pointer into a schema is ([`last_token`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token<'p> {
    /// A key of the schema reached: a keyword, or a key no draft defines.
    Key,
    /// A name the schema's author chose, a member of the keyword given ([`names_members`]).
    Name(&'p str),
    /// A position in a list of schemas, a token inside a keyword's value (`/enum/0`), or none
    /// (the root).
    Other,
}

/// What the last token of `pointer` (RFC 6901, into a schema) is, read from the root without
/// the schema at hand: after a keyword of names ([`names_members`]) comes a name, after a name
/// or a keyword of one schema a key, after a keyword of a list of schemas (or `items`) a
/// position or, for `items` as one schema, a key, and inside any other keyword's value
/// (`enum`, `default`) no key at all. `/properties/type` is the property `type`,
/// `/dependencies/items` the dependency of a property `items`, and
/// `/properties/dependencies/format` the keyword `format` of a property `dependencies`.
pub fn last_token(pointer: &str) -> Token<'_> {
    /// What the next token is.
    #[derive(Clone, Copy)]
    enum Next<'p> {
        Key,
        Name(&'p str),
        Position,
        Value,
    }
    /// What comes after the key `t`.
    fn after_key(t: &str) -> Next<'_> {
        if names_members(t) {
            Next::Name(t)
        } else if LIST_OF_SCHEMAS.contains(&t) || t == "items" {
            Next::Position
        } else if ONE_SCHEMA.contains(&t) {
            Next::Key
        } else {
            Next::Value
        }
    }
    let mut last = Token::Other;
    let mut next = Next::Key;
    for t in pointer.split('/').skip(1) {
        (last, next) = match next {
            Next::Position if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
                (Token::Other, Next::Key)
            }
            Next::Key | Next::Position => (Token::Key, after_key(t)),
            Next::Name(k) => (Token::Name(k), Next::Key),
            Next::Value => (Token::Other, Next::Value),
        };
    }
    last
}

/// Every keyword of JSON Schema 2020-12 and of earlier drafts (`definitions`, `dependencies`,
/// `additionalItems`, `$recursiveRef`, `$recursiveAnchor`) plus OpenAPI 3.0's `nullable` and
/// `example`: a key outside this list is not a keyword and carries no validation meaning.
pub const KEYWORDS: &[&str] = &[
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "items",
    "prefixItems",
    "additionalProperties",
    "patternProperties",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "definitions",
    "$dynamicRef",
    "$recursiveRef",
    "$recursiveAnchor",
    "dependentSchemas",
    "dependencies",
    "nullable",
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
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "title",
    "description",
    "default",
    "examples",
    "example",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
];

/// Whether `k` is in [`KEYWORDS`].
pub fn is_keyword(k: &str) -> bool {
    KEYWORDS.contains(&k)
}

/// How a subschema was reached from its parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// The root of the walk.
    Root,
    /// A member of a map keyword (`properties`, `$defs`, ...): keyword and member name.
    Member { keyword: &'static str, name: String },
    /// A single-schema keyword (`not`, `additionalProperties`, ...), or `items` given as a schema.
    Keyword(&'static str),
    /// The i-th element of a list keyword (`anyOf`, `prefixItems`, or draft-07 `items: [...]`).
    Element { keyword: &'static str, index: usize },
}

/// One subschema found by [`walk`].
#[derive(Debug, Clone)]
pub struct Node<'a> {
    /// JSON Pointer from the walk's root to this subschema.
    pub pointer: String,
    /// The subschema (an object, a boolean, or anything a broken schema put there).
    pub value: &'a Value,
    /// Number of subschema steps from the root (the root is 0).
    pub depth: usize,
    /// How it was reached.
    pub via: Via,
}

impl Node<'_> {
    /// The subschema as an object, if it is one.
    pub fn object(&self) -> Option<&Map<String, Value>> {
        self.value.as_object()
    }
}

/// Cap on the number of nodes one walk visits; a bigger schema is reported as truncated.
pub const MAX_NODES: usize = 200_000;

/// The result of a walk: nodes in document order, and whether the cap cut it short.
#[derive(Debug, Clone)]
pub struct Walk<'a> {
    pub nodes: Vec<Node<'a>>,
    pub truncated: bool,
}

fn keyword_name(k: &str, set: &[&'static str]) -> Option<&'static str> {
    set.iter().copied().find(|s| *s == k)
}

/// What [`count`] finds of a schema: the subschemas [`walk`] would list, without their
/// pointers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Count {
    /// Subschemas visited, the root among them: `walk(root).nodes.len()` (at most
    /// [`MAX_NODES`]).
    pub nodes: usize,
    /// The cap cut the walk short, as [`Walk::truncated`].
    pub truncated: bool,
    /// Of `nodes`, those at or below a member of the root's `$defs` or `definitions`.
    pub in_root_definitions: usize,
    /// Some subschema visited is an object holding `$ref` (whatever its value).
    pub refers: bool,
}

#[cfg(test)]
thread_local! {
    /// Subschemas [`walk_from`] listed, for tests that a measure needs no pointers.
    pub(crate) static WALKED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts the subschemas [`walk`] lists, in the same order and under the same cap, without
/// making a pointer or a node for each: a schema past toolwire's own caps (hundreds of
/// thousands of subschemas, megabytes) is measured in time and memory of one pass over its
/// values, where a walk allocated a pointer per subschema first.
pub fn count(root: &Value) -> Count {
    let mut c = Count::default();
    // (subschema, whether it lies in the root's definitions)
    let mut stack: Vec<(&Value, bool)> = vec![(root, false)];
    while let Some((value, in_defs)) = stack.pop() {
        if c.nodes >= MAX_NODES {
            c.truncated = true;
            break;
        }
        c.nodes += 1;
        c.in_root_definitions += usize::from(in_defs);
        let Some(obj) = value.as_object() else {
            continue;
        };
        c.refers |= obj.contains_key("$ref");
        let start = stack.len();
        let root = std::ptr::eq(value, root);
        for (k, v) in obj {
            let below = in_defs || (root && (k == "$defs" || k == "definitions"));
            if keyword_name(k, MAP_OF_SCHEMAS).is_some() {
                if let Some(map) = v.as_object() {
                    stack.extend(map.values().map(|sub| (sub, below)));
                }
            } else if keyword_name(k, ONE_SCHEMA).is_some() {
                stack.push((v, below));
            } else if keyword_name(k, LIST_OF_SCHEMAS).is_some() {
                if let Some(list) = v.as_array() {
                    stack.extend(list.iter().map(|sub| (sub, below)));
                }
            } else if k == "dependencies" {
                stack.extend(schema_dependencies(v).map(|(_, sub)| (sub, below)));
            } else if k == "items" {
                match v {
                    Value::Array(list) => stack.extend(list.iter().map(|sub| (sub, below))),
                    _ => stack.push((v, below)),
                }
            }
        }
        // As the walk does: the children pop in document order.
        stack[start..].reverse();
    }
    c
}

/// Lists every subschema of `root` (including `root`), depth-first in document order.
pub fn walk(root: &Value) -> Walk<'_> {
    walk_from(root, "")
}

/// Like [`walk`], with pointers prefixed by `base` (e.g. `/parameters`).
pub fn walk_from<'a>(root: &'a Value, base: &str) -> Walk<'a> {
    let mut nodes = Vec::new();
    let mut stack = vec![Node {
        pointer: base.to_string(),
        value: root,
        depth: 0,
        via: Via::Root,
    }];
    let mut truncated = false;
    while let Some(node) = stack.pop() {
        if nodes.len() >= MAX_NODES {
            truncated = true;
            break;
        }
        let mut children = Vec::new();
        if let Some(obj) = node.value.as_object() {
            for (k, v) in obj {
                let here = push_token(&node.pointer, k);
                if let Some(kw) = keyword_name(k, MAP_OF_SCHEMAS) {
                    if let Some(map) = v.as_object() {
                        for (name, sub) in map {
                            children.push(Node {
                                pointer: push_token(&here, name),
                                value: sub,
                                depth: node.depth + 1,
                                via: Via::Member {
                                    keyword: kw,
                                    name: name.clone(),
                                },
                            });
                        }
                    }
                } else if let Some(kw) = keyword_name(k, ONE_SCHEMA) {
                    children.push(Node {
                        pointer: here,
                        value: v,
                        depth: node.depth + 1,
                        via: Via::Keyword(kw),
                    });
                } else if let Some(kw) = keyword_name(k, LIST_OF_SCHEMAS) {
                    if let Some(list) = v.as_array() {
                        for (i, sub) in list.iter().enumerate() {
                            children.push(Node {
                                pointer: push_token(&here, &i.to_string()),
                                value: sub,
                                depth: node.depth + 1,
                                via: Via::Element {
                                    keyword: kw,
                                    index: i,
                                },
                            });
                        }
                    }
                } else if k == "dependencies" {
                    for (name, sub) in schema_dependencies(v) {
                        children.push(Node {
                            pointer: push_token(&here, name),
                            value: sub,
                            depth: node.depth + 1,
                            via: Via::Member {
                                keyword: "dependencies",
                                name: name.clone(),
                            },
                        });
                    }
                } else if k == "items" {
                    match v {
                        Value::Array(list) => {
                            for (i, sub) in list.iter().enumerate() {
                                children.push(Node {
                                    pointer: push_token(&here, &i.to_string()),
                                    value: sub,
                                    depth: node.depth + 1,
                                    via: Via::Element {
                                        keyword: "items",
                                        index: i,
                                    },
                                });
                            }
                        }
                        _ => children.push(Node {
                            pointer: here,
                            value: v,
                            depth: node.depth + 1,
                            via: Via::Keyword("items"),
                        }),
                    }
                }
            }
        }
        #[cfg(test)]
        WALKED.with(|w| w.set(w.get() + 1));
        nodes.push(node);
        // Reverse so that the stack pops children in document order.
        stack.extend(children.into_iter().rev());
    }
    Walk { nodes, truncated }
}

/// Whether the schema `v` accepts every value by saying nothing: `true`, or an object whose
/// keys all say nothing there (`says_nothing`: the caller's word on what only annotates).
pub fn asserts_nothing(v: &Value, says_nothing: impl Fn(&str) -> bool) -> bool {
    match v {
        Value::Bool(accepts) => *accepts,
        Value::Object(o) => o.keys().all(|k| says_nothing(k)),
        _ => false,
    }
}

/// What RFC 3986 does not allow raw in a URI fragment (§3.5, §3.3 `pchar`, §2.2
/// `sub-delims`) but for `%` and non-ASCII, which each writer of a fragment treats its own way:
/// escaped when written anew, kept where it already starts an escape.
pub const NOT_IN_FRAGMENT: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'<')
    .add(b'>')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// A URI fragment's JSON Pointer with its percent-escapes decoded (RFC 6901 section 6:
/// `#/$defs/x%20y` names the member `x y`). An escape that is not two hex digits, or bytes
/// that do not decode to UTF-8, leave the text as written.
pub fn percent_decode(fragment: &str) -> std::borrow::Cow<'_, str> {
    percent_encoding::percent_decode_str(fragment)
        .decode_utf8()
        .unwrap_or(fragment.into())
}

/// Resolves an RFC 6901 pointer (`""` is the root). Returns `None` when a step is missing.
pub fn resolve<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    root.pointer(pointer)
}

/// Whether some object in `v`, at any depth (schema or not), is one `found` holds for: a
/// scan that writes no pointers, for a sure "no" before a closer walk.
pub fn any_object(v: &Value, mut found: impl FnMut(&Map<String, Value>) -> bool) -> bool {
    // Room for a typical tool schema's pending values from the start, rather than growing to
    // it (the growth showed in profiles of `check`).
    let mut stack = Vec::with_capacity(32);
    stack.push(v);
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if found(m) {
                    return true;
                }
                stack.extend(m.values());
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    false
}

/// Whether `schema` declares a name a `$ref` can reach it by besides its JSON Pointer: an
/// `$anchor` or `$dynamicAnchor` (2020-12 core §8.2.2), or an `$id` (draft-04: `id`) that is a
/// string (§8.2.1; drafts 04 to 07 also write an anchor as an `$id` of `#name`).
pub fn names_itself(schema: &Value) -> bool {
    NAMING_KEYWORDS
        .iter()
        .any(|k| schema.get(*k).is_some_and(Value::is_string))
}

/// Why the meta-schema refuses the `type` keyword at `pointer` (RFC 6901, into `root`), in
/// words about the text written there rather than the meta-schema's (`"strin" is not valid
/// under any of the schemas listed in the 'anyOf' keyword`: an `anyOf` of the meta-schema's
/// own, which the user never wrote): `"strin" is not a JSON Schema type (the types are
/// "string", "number", ..., "null"{aside})`, naming the first text there (one string, or a
/// list's strings) that is no standard type; `aside` ends the parenthesis (what the caller
/// reads other spellings as). `None` where `pointer` is no `type` keyword of a subschema (a
/// property named `type` is a schema: `/properties/type`) or every text there is a standard
/// type (the refusal is about something else: a repeated or empty list, a number), where the
/// meta-schema's words stand.
pub fn no_type_named(root: &Value, pointer: &str, aside: &str) -> Option<String> {
    let holder = pointer.strip_suffix("/type")?;
    if !is_subschema_at(root, holder) {
        return None;
    }
    let standard = |t: &&str| crate::profile::feature::STANDARD_TYPES.contains(t);
    let spelling = match crate::json::at_pointer(root, pointer)? {
        Value::String(t) => Some(t.as_str()),
        Value::Array(list) => list.iter().filter_map(Value::as_str).find(|t| !standard(t)),
        _ => None,
    }
    .filter(|t| !standard(t))?;
    let types: Vec<String> = crate::profile::feature::STANDARD_TYPES
        .iter()
        .map(|t| Value::from(*t).to_string())
        .collect();
    Some(format!(
        "{} is not a JSON Schema type (the types are {}{aside})",
        Value::from(spelling),
        types.join(", ")
    ))
}

/// Whether `pointer` (RFC 6901, as written: keywords hold no `~` or `/`) names a subschema of
/// `root`: the root, or a place reached from one by the keywords [`walk`] follows (a member of `properties` and the other maps of
/// schemas, an element of `anyOf` and the other lists, `not` and the other single schemas,
/// `items` in either form, a schema member of `dependencies`), not a key inside some other
/// keyword's value (`/default/type`) nor a map of schemas itself.
fn is_subschema_at(root: &Value, pointer: &str) -> bool {
    // The keyword whose value (a map or list of subschemas) the walk is in, if it is in one.
    let mut container: Option<&str> = None;
    let mut here = root;
    for raw in pointer.split('/').skip(1) {
        let Some(child) = crate::json::at_token(here, raw) else {
            return false;
        };
        container = match container {
            // Only the schema form of a `dependencies` member is a subschema.
            Some("dependencies") if !is_schema_dependency(child) => return false,
            Some(_) => None,
            None if ONE_SCHEMA.contains(&raw) || (raw == "items" && !child.is_array()) => None,
            None if raw == "items" || raw == "dependencies" => Some(raw),
            None => match keyword_name(raw, MAP_OF_SCHEMAS)
                .or_else(|| keyword_name(raw, LIST_OF_SCHEMAS))
            {
                Some(k) => Some(k),
                None => return false,
            },
        };
        here = child;
    }
    container.is_none()
}

/// The keywords whose string value names the schema holding them ([`names_itself`]).
pub const NAMING_KEYWORDS: [&str; 4] = ["$anchor", "$dynamicAnchor", "$id", "id"];

/// Whether the JSON Pointer `pointer` is `outer` or a place inside it (`/a/b` is inside `/a`,
/// `/ab` is not; every pointer is inside the root `""`). Compared in place: the reference
/// rules ask this for every pair of places on a path of up to [`refs::MAX_REF_HOPS`] targets,
/// once per `$ref`, and a `format!` per question was most of `check`'s time on long chains.
pub fn at_or_inside(pointer: &str, outer: &str) -> bool {
    pointer
        .strip_prefix(outer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// The deepest nesting of *object* schemas, counting the root object as 1 and following local
/// `$ref`s: [`depth::nesting`]'s levels (its docs say what is counted and how recursion is).
/// This is the quantity providers' depth limits speak of, and the one `check` and the
/// offline models share.
pub fn object_depth(root: &Value) -> usize {
    depth::nesting(root).levels
}

/// True for a schema that describes an object: `type: "object"` (any case) or `properties`.
pub fn is_object_schema(v: &Value) -> bool {
    v.get("properties").is_some()
        || v.get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.eq_ignore_ascii_case("object"))
}

/// Per item of `names` (a `required` list): whether it is a string an earlier item already
/// is, the test `names[..i].contains(&names[i])` makes for a string item (a non-string is
/// never a repeat here: callers report it as not a name). A long list is read once with a set
/// rather than compared pairwise, so a 30,000-name list costs linear time; a short one (the
/// usual) is compared in place, with no set to build.
pub fn repeated_names(names: &[Value]) -> impl Iterator<Item = bool> + '_ {
    let mut seen: Option<std::collections::HashSet<&str>> =
        (names.len() > SHORT_LIST).then(std::collections::HashSet::new);
    names.iter().enumerate().map(move |(i, v)| {
        let Some(name) = v.as_str() else {
            return false;
        };
        match &mut seen {
            Some(seen) => !seen.insert(name),
            // Compared as strings, not as values: inlined, where `Value`'s `==` is a call.
            None => names[..i].iter().any(|w| w.as_str() == Some(name)),
        }
    })
}

/// Lists up to this long are searched pairwise ([`repeated_names`]): cheaper than a set.
const SHORT_LIST: usize = 16;

/// The first `patternProperties` pattern of object schema `o` that matches member name
/// `name`, if any: such a member is declared by that pattern even though `properties` does not
/// name it. Patterns are read with the `regex` crate (ECMA-262's escapes it lacks spelled as
/// it writes them, and `\d`, `\w`, `\s`, `.`, `\b` with their ECMA-262 meaning,
/// [`ecma::regex_crate_pattern`]); one it cannot compile (e.g. with a lookahead,
/// which ECMA-262 has) matches nothing here.
pub fn pattern_declaring<'o>(o: &'o Map<String, Value>, name: &str) -> Option<&'o str> {
    let patterns = o.get("patternProperties")?.as_object()?;
    patterns.keys().map(String::as_str).find(|p| {
        regex::Regex::new(&ecma::regex_crate_pattern(p))
            .map(|re| re.is_match(name))
            .unwrap_or(false)
    })
}

/// The first `$ref` of `root` that cannot work, as (JSON Pointer of the `$ref`, the problem in
/// words): a local reference to nothing or to a value that is no schema (`#/required`), a
/// chain of references that loops (`A → B → A`, or one pointing at itself) or is longer than [`refs::MAX_REF_HOPS`] (worded by
/// [`refs::chain_problem`], as every command words it), or a remote reference (toolwire does
/// not fetch, so what it names cannot be checked). A validator accepts any value at a
/// reference loop and offline models do not resolve references, so without this a broken
/// one would pass as valid. `None` when every `$ref` reaches a schema within the limit.
pub fn broken_ref(root: &Value) -> Option<(String, String)> {
    broken_ref_where(root, |_| true)
}

/// [`broken_ref`] among the `$ref`s evaluation can reach: one inside a root definition no
/// reference reaches ([`crate::compile::canonical::unreached_definitions`], which lists none
/// when a reference anywhere is dangling, remote or not a local pointer, so those are still
/// found) is never evaluated, so it cannot make a validator accept what it should not. `args`
/// judges with this: `$defs: {D: {$ref: "#/$defs/D"}}` that nothing uses constrains nothing,
/// as `compile` (which drops it) and `check`'s fix say (trial 89 D2).
pub fn reached_broken_ref(root: &Value) -> Option<(String, String)> {
    // Listed once, and only for a schema with a `$ref` in a definition.
    let unreached = std::cell::OnceCell::new();
    broken_ref_where(root, |pointer| {
        crate::compile::canonical::definition_holding(pointer).is_none_or(|d| {
            !unreached
                .get_or_init(|| {
                    crate::compile::canonical::unreached_definitions(root)
                        .into_iter()
                        .collect::<std::collections::HashSet<_>>()
                })
                .contains(&d)
        })
    })
}

/// [`broken_ref`] among the `$ref`s whose subschema's JSON Pointer `counts`.
fn broken_ref_where(root: &Value, counts: impl Fn(&str) -> bool) -> Option<(String, String)> {
    let _declarations = refs::indexed(root);
    let walk = walk(root);
    for node in &walk.nodes {
        let Some(Value::String(reference)) = node.object().and_then(|o| o.get("$ref")) else {
            continue;
        };
        if !counts(&node.pointer) {
            continue;
        }
        let chain = refs::follow_from(root, &node.pointer, reference);
        let problem = match &chain {
            refs::Chain::Reaches { schema, last, .. }
                if !(schema.is_object() || schema.is_boolean()) =>
            {
                format!(
                    "`$ref` {last:?} points to a JSON {} (keyword data, not a schema)",
                    crate::json::kind(schema)
                )
            }
            refs::Chain::Reaches { .. } => continue,
            refs::Chain::Stops {
                last,
                step: refs::Step::Remote,
            } => format!(
                "remote `$ref` {last:?}: toolwire does not fetch it, so what the target would \
                 see cannot be checked; inline it"
            ),
            refs::Chain::Stops {
                last,
                step: step @ (refs::Step::Ambiguous(_) | refs::Step::Unsearched(_)),
            } => refs::unresolved(last, step).unwrap_or_default(),
            refs::Chain::Stops { last, .. } => {
                format!("`$ref` {last:?} points to nothing in the schema")
            }
            _ => refs::chain_problem(reference, &chain)?,
        };
        return Some((push_token(&node.pointer, "$ref"), problem));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `type` keyword of a subschema, wherever the walk reaches one, is named as
    /// written; a member called `type` of a map of schemas, or a key inside another keyword's
    /// value, is no `type` keyword.
    #[test]
    fn a_type_naming_no_type_is_found_only_at_a_type_keyword() {
        let root = serde_json::json!({"type": "object", "properties": {
            "a": {"type": "strin"},
            "type": "strin",
            "l": {"type": ["string", "nul"]},
            "r": {"type": ["string", "string"]},
            "i": {"type": "array", "items": [{"type": "x"}], "default": {"type": "x"}},
            "d": {"type": "object", "properties": {},
                "dependencies": {"s": {"type": "x"}, "n": ["type"]}},
            "n": {"anyOf": [{"not": {"type": "x"}}], "$defs": {"type": {"type": "x"}}}}});
        let said = |p: &str| super::no_type_named(&root, p, "");
        let named = |p: &str, t: &str| {
            let s = said(p).unwrap_or_else(|| panic!("{p}: nothing said"));
            assert!(
                s.starts_with(&format!(
                    "\"{t}\" is not a JSON Schema type (the types are "
                )),
                "{p}: {s}"
            );
        };
        named("/properties/a/type", "strin");
        named("/properties/l/type", "nul");
        named("/properties/i/items/0/type", "x");
        named("/properties/d/dependencies/s/type", "x");
        named("/properties/n/anyOf/0/not/type", "x");
        named("/properties/n/$defs/type/type", "x");
        for p in [
            "/properties/type",
            "/properties/r/type",
            "/properties/i/default/type",
            "/properties/d/dependencies/n/0",
            "/properties/missing/type",
            "/type",
        ] {
            assert_eq!(said(p), None, "{p}");
        }
        assert_eq!(
            super::no_type_named(&serde_json::json!({"type": "strin"}), "/type", "; more")
                .as_deref(),
            Some(
                "\"strin\" is not a JSON Schema type (the types are \"string\", \"number\", \
                 \"integer\", \"boolean\", \"array\", \"object\", \"null\"; more)"
            )
        );
    }

    /// A reference to keyword data (`#/required`) cannot work: compile would send it.
    #[test]
    fn a_ref_to_a_value_that_is_no_schema_is_broken() {
        let s = serde_json::json!({"type":"object","properties":{"x":{"$ref":"#/required"},
            "y":{"$ref":"#/properties/z"},"z":true},"required":["x"]});
        let (at, problem) = broken_ref(&s).unwrap();
        assert_eq!(at, "/properties/x/$ref");
        assert!(problem.contains("points to a JSON array"), "{problem}");
        let fine = serde_json::json!({"properties":{"y":{"$ref":"#/properties/z"},"z":true}});
        assert_eq!(broken_ref(&fine), None);
    }

    #[test]
    fn a_place_is_inside_the_pointers_it_extends_by_whole_tokens() {
        assert!(at_or_inside("/a/b", "/a"));
        assert!(at_or_inside("/a", "/a"));
        assert!(at_or_inside("/a", ""));
        assert!(at_or_inside("", ""));
        assert!(!at_or_inside("/ab", "/a"));
        assert!(!at_or_inside("/a", "/a/b"));
        assert!(!at_or_inside("", "/a"));
    }

    /// The set a long list is read with finds exactly the repeats the pairwise test finds,
    /// on both sides of the length where it takes over (non-strings are never repeats).
    #[test]
    fn repeated_names_are_the_pairwise_repeats_at_any_length() {
        for len in [0, 1, 5, SHORT_LIST, SHORT_LIST + 1, 100] {
            let names: Vec<Value> = (0..len)
                .map(|i| match i % 7 {
                    3 => serde_json::json!(1),
                    6 => serde_json::json!(null),
                    _ => Value::String(format!("n{}", i % 5)),
                })
                .collect();
            let pairwise: Vec<bool> = names
                .iter()
                .enumerate()
                .map(|(i, v)| v.is_string() && names[..i].contains(v))
                .collect();
            let found: Vec<bool> = repeated_names(&names).collect();
            assert_eq!(found, pairwise, "length {len}");
            assert_eq!(len > 5, found.contains(&true), "length {len}");
        }
    }

    #[test]
    fn a_member_is_declared_by_the_first_pattern_that_matches_it() {
        let o = serde_json::json!({"patternProperties":{"(?=x)":{},"^y_":{},"^x_":{},"_id$":{}}});
        let o = o.as_object().unwrap();
        assert_eq!(pattern_declaring(o, "x_id"), Some("^x_"));
        assert_eq!(pattern_declaring(o, "y_a"), Some("^y_"));
        assert_eq!(pattern_declaring(o, "z"), None);
        assert_eq!(pattern_declaring(&Map::new(), "x_id"), None);
    }

    #[test]
    fn percent_escapes_in_a_fragment_are_decoded() {
        assert_eq!(percent_decode("/$defs/x%20y"), "/$defs/x y");
        assert_eq!(percent_decode("/a%7E1b"), "/a~1b");
        assert_eq!(percent_decode("/plain"), "/plain");
        // Not an escape: kept as written.
        assert_eq!(percent_decode("/100%"), "/100%");
        assert_eq!(percent_decode("/%zz"), "/%zz");
        assert_eq!(percent_decode("/%ff"), "/%ff");
        // Two hex digits, not a signed number (`from_str_radix` reads `+5` as 5).
        assert_eq!(percent_decode("/%+5"), "/%+5");
        assert_eq!(percent_decode("/%aé"), "/%aé");
    }
    use serde_json::json;

    #[test]
    fn property_named_like_a_keyword_is_a_name() {
        let s = json!({"type":"object","properties":{"type":{"type":"string"},"not":{"type":"integer"}}});
        let w = walk(&s);
        let ptrs: Vec<_> = w.nodes.iter().map(|n| n.pointer.as_str()).collect();
        assert_eq!(ptrs, ["", "/properties/type", "/properties/not"]);
        assert!(
            matches!(&w.nodes[2].via, Via::Member { keyword: "properties", name } if name == "not")
        );
    }

    #[test]
    fn combinators_items_and_defs_are_walked_in_order() {
        let s = json!({"anyOf":[{"type":"string"},{"items":{"$ref":"#/$defs/a"}}],"$defs":{"a/b":{"not":{}}}});
        let ptrs: Vec<_> = walk(&s).nodes.iter().map(|n| n.pointer.clone()).collect();
        assert_eq!(
            ptrs,
            [
                "",
                "/anyOf/0",
                "/anyOf/1",
                "/anyOf/1/items",
                "/$defs/a~1b",
                "/$defs/a~1b/not"
            ]
        );
    }

    /// A pointer's last token read without the schema: a name after a keyword of names
    /// (`dependencies` and `dependentRequired` too, whatever their values), a key after a name
    /// or a keyword of one schema, nothing of the schema inside a value.
    #[test]
    fn the_last_token_of_a_pointer_is_read_from_the_root() {
        use super::{Token, last_token};
        assert_eq!(last_token("/properties/a/format"), Token::Key);
        assert_eq!(last_token("/properties/type"), Token::Name("properties"));
        assert_eq!(
            last_token("/properties/a/dependencies/items"),
            Token::Name("dependencies")
        );
        assert_eq!(
            last_token("/dependentRequired/enum"),
            Token::Name("dependentRequired")
        );
        assert_eq!(last_token("/dependencies/items/type"), Token::Key);
        assert_eq!(last_token("/properties/dependencies/format"), Token::Key);
        assert_eq!(last_token("/properties/properties/items"), Token::Key);
        assert_eq!(last_token("/anyOf/0"), Token::Other);
        assert_eq!(last_token("/anyOf/0/format"), Token::Key);
        assert_eq!(last_token("/items/format"), Token::Key);
        assert_eq!(last_token("/items/1/format"), Token::Key);
        assert_eq!(last_token("/not/format"), Token::Key);
        assert_eq!(last_token("/enum/0"), Token::Other);
        assert_eq!(last_token("/default/format"), Token::Other);
        assert_eq!(last_token(""), Token::Other);
    }

    /// Draft 4-7's `dependencies`: a member that is a schema (an object or a boolean) is a
    /// subschema, as a `dependentSchemas` member is; a list of names is not.
    #[test]
    fn schema_form_dependencies_are_walked_and_property_lists_are_not() {
        let s = json!({"dependencies": {"a": ["b"], "b": {"not": {}}, "c": false, "d": 5}});
        let w = walk(&s);
        let ptrs: Vec<_> = w.nodes.iter().map(|n| n.pointer.as_str()).collect();
        assert_eq!(
            ptrs,
            [
                "",
                "/dependencies/b",
                "/dependencies/b/not",
                "/dependencies/c"
            ]
        );
        assert!(
            matches!(&w.nodes[1].via, Via::Member { keyword: "dependencies", name } if name == "b")
        );
    }

    /// Schemas of every shape the walk reaches into, for [`count`] against [`walk`].
    fn shapes() -> Vec<Value> {
        let wide = |n: usize| {
            let props: Map<String, Value> = (0..n).map(|i| (format!("p{i}"), json!({}))).collect();
            json!({"$defs": {"d": {"not": {}}}, "properties": props, "items": {"anyOf": [{}, true]}})
        };
        vec![
            json!(true),
            json!(null),
            json!({}),
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/a"}, "$defs": {}},
                "$defs": {"a": {"anyOf": [{"type": "string"}, {"items": [{}, {"not": {}}]}]}},
                "definitions": {"b": {"properties": {"c": {}}}},
                "dependencies": {"x": ["y"], "z": {"if": {}, "then": false}},
                "patternProperties": {"^a": {"prefixItems": [{}, {"$defs": {"e": {}}}]}},
                "description": {"properties": {"not": "a schema"}}}),
            wide(MAX_NODES - 3),
            wide(MAX_NODES - 2),
            wide(MAX_NODES + 5),
        ]
    }

    #[test]
    fn count_finds_what_walk_lists_without_a_pointer() {
        for s in shapes() {
            let w = walk(&s);
            let before = WALKED.with(|w| w.get());
            let c = count(&s);
            assert_eq!(WALKED.with(|w| w.get()), before, "count made no node");
            let defs = w
                .nodes
                .iter()
                .filter(|n| {
                    n.pointer.starts_with("/$defs/") || n.pointer.starts_with("/definitions/")
                })
                .count();
            let refers = w
                .nodes
                .iter()
                .any(|n| n.object().is_some_and(|o| o.contains_key("$ref")));
            assert_eq!(
                c,
                Count {
                    nodes: w.nodes.len(),
                    truncated: w.truncated,
                    in_root_definitions: defs,
                    refers,
                },
                "{}",
                serde_json::to_string(&s)
                    .unwrap_or_default()
                    .chars()
                    .take(200)
                    .collect::<String>()
            );
        }
    }

    #[test]
    fn walk_is_capped() {
        let mut s = json!({});
        let props: Map<String, Value> = (0..(MAX_NODES + 5))
            .map(|i| (format!("p{i}"), json!({})))
            .collect();
        s["properties"] = Value::Object(props);
        let w = walk(&s);
        assert!(w.truncated);
        assert_eq!(w.nodes.len(), MAX_NODES);
    }

    #[test]
    fn a_broken_ref_is_named_at_its_ref_in_the_shared_words() {
        let broken = |s: Value| broken_ref(&s).unwrap();
        let long = {
            let mut defs = Map::new();
            for i in 0..refs::MAX_REF_HOPS {
                defs.insert(
                    format!("D{i}"),
                    json!({"$ref": format!("#/$defs/D{}", i + 1)}),
                );
            }
            defs.insert(format!("D{}", refs::MAX_REF_HOPS), json!({"type":"string"}));
            json!({"properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":defs})
        };
        assert_eq!(
            broken(long.clone()),
            ("/properties/a/$ref".into(), refs::too_long("#/$defs/D0"))
        );
        // One hop fewer (start one step further down the same chain) reaches the schema.
        let mut under = long;
        under["properties"]["a"]["$ref"] = json!("#/$defs/D1");
        under["$defs"].as_object_mut().unwrap().shift_remove("D0");
        assert_eq!(broken_ref(&under), None);
        assert_eq!(
            broken(json!({"properties":{"a":{"$ref":"#/properties/a"}}})),
            (
                "/properties/a/$ref".into(),
                "`$ref` to `#/properties/a` refers to itself and never reaches a schema".into()
            )
        );
        assert_eq!(
            broken(json!({"properties":{"a":{"$ref":"#/$defs/none"}}})).1,
            "`$ref` \"#/$defs/none\" points to nothing in the schema"
        );
        assert!(
            broken(json!({"properties":{"a":{"$ref":"https://e.org/s.json"}}}))
                .1
                .starts_with("remote `$ref` \"https://e.org/s.json\"")
        );
    }

    #[test]
    fn object_depth_counts_nested_objects() {
        let s = json!({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}});
        assert_eq!(object_depth(&s), 2);
    }
}
