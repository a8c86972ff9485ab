//! Following local `$ref`s: the one resolver and the one hop limit that `check`, `repair`,
//! `compile` and `args` share, so a chain is judged (and worded) the same by every command.
//!
//! A *hop* is one `$ref` followed. A chain continues while the schema reached holds a `$ref`
//! (with or without keywords beside it: a validator follows it either way), so a chain of
//! [`MAX_REF_HOPS`] references reaches its schema and one more is refused as too long. A chain
//! that comes back to a place it passed is a *cycle*, whatever its length.
//!
//! A `$ref` is read where it is written: against the base URI of the resource around it (a
//! subschema with an `$id` starts one, draft 2020-12 §8.2.1), as the validator `args` uses
//! reads it. So `#/$defs/Zip` inside such a subschema names its own `Zip`, and
//! `other.json#/...` names a resource the document declares as `other.json`; a URI the
//! document does not declare is remote, and is never fetched.

use serde_json::Value;

use super::percent_decode;

/// Most `$ref`s followed one after another: in a chain of schemas that are each a `$ref` to
/// the next, and, when `repair` inlines, in references nested in the targets of others. A
/// limit, not a guess at a loop: a longer chain is refused as longer than the limit (a cycle
/// is found as a cycle within it). 64 is far past anything in the corpora (their longest
/// chain is a handful of hops) and keeps every follower's work and recursion small.
pub const MAX_REF_HOPS: usize = 64;

/// One `$ref` resolved in `root`, without following what it reaches.
#[derive(Debug, Clone, PartialEq)]
pub enum Step<'v> {
    /// A reference into this document that names a value: a JSON Pointer fragment (`#`,
    /// `#/$defs/A`, percent-escapes decoded) or a plain name (`#foo`) the resource declares
    /// as an `$anchor`, in the resource the reference names. The value and its decoded JSON
    /// Pointer in the document.
    Local(&'v Value, String),
    /// A reference to a resource this document does not declare ([`resource`]): toolwire
    /// never fetches it.
    Remote,
    /// A reference into this document that names nothing in it.
    Missing,
    /// A reference to a URI that two subschemas of this document declare as their `$id`, or
    /// to a plain name two subschemas of one resource declare as their anchor: which of them
    /// it names cannot be told (validators differ), so it is followed by none.
    Ambiguous(Twice),
    /// A reference by URI or plain name that none of the first [`MAX_SEARCHED_SCHEMAS`] schema
    /// positions declares, in a schema that has more: the search stopped at that cap, so
    /// whether the document declares it further on was not looked at. Not [`Step::Missing`]
    /// (it may be there) nor [`Step::Remote`].
    Unsearched(Sought),
}

/// What a reference names other than by JSON Pointer, and is looked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Sought {
    /// A resource, by the URI of its `$id`.
    Id,
    /// A plain name in one resource: an `$anchor`, a `$dynamicAnchor` (2020-12), or a
    /// draft-04 to -07 `#name` id.
    Anchor,
}

/// What two subschemas declare alike, making a reference [`Step::Ambiguous`]: the URI or
/// plain name, and the document pointers of the first two that declare it (`""` is the root).
#[derive(Debug, Clone, PartialEq)]
pub struct Twice {
    /// Whether the two declare a resource's URI or an anchor.
    pub sought: Sought,
    /// The URI (resolved) or the plain name they both declare.
    pub name: String,
    /// Where the first two are, in the order the search met them.
    pub at: [String; 2],
}

/// Why the `$ref` to `reference` is [`Step::Ambiguous`], in the words every command uses:
/// what is declared twice, and both places.
pub fn ambiguous(reference: &str, twice: &Twice) -> String {
    let [a, b] = &twice.at;
    let name = &twice.name;
    match twice.sought {
        Sought::Id => format!(
            "`$ref` to `{reference}` is ambiguous: two subschemas declare `{name}` as their \
             `$id` (at `#{a}` and `#{b}`), so which one it means cannot be told; give each its \
             own `$id`"
        ),
        Sought::Anchor => format!(
            "`$ref` to `{reference}` is ambiguous: two subschemas of one resource declare the \
             anchor `{name}` (at `#{a}` and `#{b}`), so which one it means cannot be told; give \
             each its own name"
        ),
    }
}

/// Why the `$ref` to `reference` is [`Step::Unsearched`], in the words every command uses:
/// the cap the search stopped at, never that the target is absent.
pub fn unsearched(reference: &str, sought: Sought) -> String {
    let what = match sought {
        Sought::Id => "a resource (`$id`)",
        Sought::Anchor => "an anchor",
    };
    format!(
        "`$ref` to `{reference}` names {what} that toolwire did not find in the first \
         {MAX_SEARCHED_SCHEMAS} schema positions, where its search stops (the schema has more), \
         so whether it is declared further on was not checked; declare it nearer the root, or \
         refer to it by JSON Pointer (`#/$defs/...`)"
    )
}

/// Why a `$ref` to `reference` that reaches no value is refused, in the words every command
/// uses: [`Step::Missing`], [`Step::Ambiguous`] or [`Step::Unsearched`]; `None` for a step that
/// reaches a value or another document.
pub fn unresolved(reference: &str, step: &Step<'_>) -> Option<String> {
    match step {
        Step::Missing => Some(format!(
            "`$ref` to `{reference}`, which is not in the schema"
        )),
        Step::Ambiguous(twice) => Some(ambiguous(reference, twice)),
        Step::Unsearched(sought) => Some(unsearched(reference, *sought)),
        Step::Local(..) | Step::Remote => None,
    }
}

/// The base URI a document is read under when its root declares none: the one `args`
/// compiles its validator under, so that every command resolves a relative `$id` (`x.json`)
/// alike. Hierarchical, and of a scheme nothing fetches.
pub const BASE: &str = "toolwire:///declared.json";

/// The keyword that declares a resource in `root`'s draft: draft-04's `id`, `$id` after.
pub fn id_keyword(root: &Value) -> &'static str {
    match jsonschema::Draft::Draft202012.detect(root) {
        jsonschema::Draft::Draft4 => "id",
        _ => "$id",
    }
}

/// `id` resolved against `base`, without an empty fragment; `None` when it cannot be resolved
/// or carries a fragment (drafts differ on what that declares: draft-07's `"$id": "#a"` is an
/// anchor, not a resource).
pub fn resolve_uri(base: &str, id: &str) -> Option<String> {
    let base = jsonschema::uri::from_str(base).ok()?;
    let uri = jsonschema::uri::resolve_against(&base.borrow(), id).ok()?;
    let text = uri.as_str();
    match text.split_once('#') {
        None => Some(text.to_string()),
        Some((whole, "")) => Some(whole.to_string()),
        Some(_) => None,
    }
}

/// The URI of the resource `schema` declares with its `$id` (`id` in draft-04, `key`),
/// resolved against `base`; `None` when it declares none.
fn declares(schema: &Value, key: &str, base: &str) -> Option<String> {
    let id = schema.get(key)?.as_str()?;
    if id.starts_with('#') {
        return None;
    }
    resolve_uri(base, id)
}

/// The resource that holds the schema at document pointer `from` (draft 2020-12 §8.2.1: a
/// subschema with an `$id` starts a resource, and that `$id` is resolved against the base of
/// the resource around it): its absolute URI and its JSON Pointer in `root`. Only subschemas
/// on the way to `from` are read (the keywords of [`super::walk`] that hold schemas), so each
/// call costs the length of `from`; a place that is no schema position stays in the resource
/// of the last one on the way.
pub fn resource(root: &Value, from: &str) -> (String, String) {
    let key = id_keyword(root);
    let mut uri = declares(root, key, BASE).unwrap_or_else(|| BASE.to_string());
    let mut at = String::new();
    let mut here = String::new();
    let mut node = root;
    // What the value at `here` is: a schema, a map of schemas, a list of them, a
    // `dependencies` map (of schemas and of property lists), or data.
    #[derive(Clone, Copy, PartialEq)]
    enum Is {
        Schema,
        Map,
        List,
        Dependencies,
        Data,
    }
    let mut is = Is::Schema;
    for token in from.split('/').skip(1) {
        // Unescaped, and `here` extended, in place where the token needs no escape (most do
        // not): `check` asks this for each `$ref` of each rule that follows one.
        let token = if token.contains('~') {
            std::borrow::Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
        } else {
            std::borrow::Cow::Borrowed(token)
        };
        let Some(next) = (match node {
            Value::Object(m) => m.get(&*token),
            Value::Array(a) => token.parse::<usize>().ok().and_then(|i| a.get(i)),
            _ => None,
        }) else {
            break;
        };
        let t: &str = &token;
        is = match is {
            Is::Schema if super::MAP_OF_SCHEMAS.contains(&t) => Is::Map,
            Is::Schema
                if super::LIST_OF_SCHEMAS.contains(&t) || (t == "items" && next.is_array()) =>
            {
                Is::List
            }
            Is::Schema if super::ONE_SCHEMA.contains(&t) || t == "items" => Is::Schema,
            Is::Schema if t == "dependencies" => Is::Dependencies,
            Is::Map | Is::List => Is::Schema,
            Is::Dependencies if super::is_schema_dependency(next) => Is::Schema,
            _ => Is::Data,
        };
        here.push('/');
        if t.contains(['~', '/']) {
            here.push_str(&crate::json::escape_token(t));
        } else {
            here.push_str(t);
        }
        node = next;
        if is == Is::Schema
            && let Some(declared) = declares(node, key, &uri)
        {
            uri = declared;
            at = here.clone();
        }
    }
    (uri, at)
}

/// Schema positions searched for what a `$ref` names by URI (a resource's `$id`) or by plain
/// name (an anchor): every place [`super::walk`] reads a schema (`properties`, `items`, `anyOf`
/// branches, definitions, ...), breadth-first from the root, the first this many. Bounded so
/// that each search stays cheap however many `$ref`s a schema holds (one may hold a `$ref` at
/// each of [`super::MAX_NODES`] places); tool schemas (pydantic's, zod's) declare their
/// resources and anchors near the root, mostly on definitions, far inside this.
pub const MAX_SEARCHED_SCHEMAS: usize = 1024;

/// A token below a schema position: a map keyword's member, or a list keyword's index.
#[derive(Clone, Copy)]
enum Member<'v> {
    Name(&'v str),
    Index(usize),
}

/// A schema position met by a search: the number of the position holding it, and the
/// keyword (and member) it is under there. Its pointer is written only when it declares
/// something.
struct Place<'v> {
    parent: usize,
    keyword: &'v str,
    member: Option<Member<'v>>,
}

/// The JSON Pointer of `places[at]` from the search's start (place 0).
fn pointer_of(places: &[Place<'_>], mut at: usize) -> String {
    let mut chain = Vec::new();
    while at != 0 {
        chain.push(at);
        at = places[at].parent;
    }
    let mut p = String::new();
    for &i in chain.iter().rev() {
        let place = &places[i];
        p = crate::json::push_token(&p, place.keyword);
        match place.member {
            Some(Member::Name(n)) => p = crate::json::push_token(&p, n),
            Some(Member::Index(n)) => p = crate::json::push_token(&p, &n.to_string()),
            None => {}
        }
    }
    p
}

/// The subschemas of `schema`, in the keywords [`resource`] reads (those of
/// [`super::walk`]), each with the keyword and member it is under; at most `room` of them, and
/// whether there were more (the search was cut there).
fn subschemas<'v>(schema: &'v Value, room: usize) -> (Vec<(Place<'v>, &'v Value)>, bool) {
    let mut out = Vec::new();
    let Some(o) = schema.as_object() else {
        return (out, false);
    };
    let mut add = |keyword: &'v str, member, sub: &'v Value| {
        if out.len() == room {
            return false;
        }
        let place = Place {
            parent: 0,
            keyword,
            member,
        };
        out.push((place, sub));
        true
    };
    for (k, v) in o {
        let keyword = k.as_str();
        let room_left = if super::MAP_OF_SCHEMAS.contains(&keyword) {
            let mut members = v.as_object().into_iter().flatten();
            members.all(|(name, sub)| add(keyword, Some(Member::Name(name)), sub))
        } else if super::LIST_OF_SCHEMAS.contains(&keyword) || (keyword == "items" && v.is_array())
        {
            let mut items = v.as_array().into_iter().flatten().enumerate();
            items.all(|(i, sub)| add(keyword, Some(Member::Index(i)), sub))
        } else if super::ONE_SCHEMA.contains(&keyword) || keyword == "items" {
            add(keyword, None, v)
        } else if keyword == "dependencies" {
            let mut members = super::schema_dependencies(v);
            members.all(|(name, sub)| add(keyword, Some(Member::Name(name)), sub))
        } else {
            true
        };
        if !room_left {
            return (out, true);
        }
    }
    (out, false)
}

/// What a bounded search for a declaration found.
enum Search<T> {
    /// One declaration: what it is and its pointer.
    Found(T, String),
    /// None among every schema position.
    Absent,
    /// Two declarations, at these pointers.
    Twice([String; 2]),
    /// None among the first [`MAX_SEARCHED_SCHEMAS`], and the schema has more.
    Cut,
}

/// What one search declares: each URI or plain name declared among the schema positions
/// searched, with the pointers of its first two declarations in the order met, and whether
/// the search stopped at [`MAX_SEARCHED_SCHEMAS`] with positions left.
#[derive(Default)]
struct Declarations {
    at: std::collections::HashMap<String, Vec<String>>,
    cut: bool,
}

impl Declarations {
    fn add(&mut self, name: String, pointer: &str) {
        let places = self.at.entry(name).or_default();
        if places.len() < 2 {
            places.push(pointer.to_string());
        }
    }

    /// What a search from `start` for `name` finds.
    fn find<'v>(&self, start: &'v Value, name: &str) -> Search<&'v Value> {
        match self.at.get(name).map(Vec::as_slice) {
            Some([a, b, ..]) => Search::Twice([a.clone(), b.clone()]),
            Some([a]) => match start.pointer(a) {
                Some(v) => Search::Found(v, a.clone()),
                None => Search::Absent,
            },
            _ if self.cut => Search::Cut,
            _ => Search::Absent,
        }
    }
}

/// Breadth-first over the schema positions of `start` (at pointer `""`), the first
/// [`MAX_SEARCHED_SCHEMAS`] of them, `start` included: `start` declares `own`, and `test` says
/// of each subschema, given the state of its parent, what it declares, the state its own
/// children are read with, and whether they are searched at all. One search, so that every
/// lookup is bounded and cut alike.
fn declarations<'v, S: Clone>(
    start: &'v Value,
    state: S,
    own: Vec<String>,
    test: impl Fn(&'v Value, &S) -> (Vec<String>, S, bool),
) -> Declarations {
    #[cfg(test)]
    SEARCHES.with(|c| c.set(c.get() + 1));
    let mut found = Declarations::default();
    for name in own {
        found.add(name, "");
    }
    let mut places = vec![Place {
        parent: 0,
        keyword: "",
        member: None,
    }];
    let mut queue = std::collections::VecDeque::from([(start, 0, state)]);
    while let Some((schema, at, state)) = queue.pop_front() {
        let (subs, cut) = subschemas(schema, MAX_SEARCHED_SCHEMAS - places.len());
        for (mut place, sub) in subs {
            place.parent = at;
            places.push(place);
            let here = places.len() - 1;
            let (names, inner, descend) = test(sub, &state);
            if !names.is_empty() {
                let pointer = pointer_of(&places, here);
                for name in names {
                    found.add(name, &pointer);
                }
            }
            if descend {
                queue.push_back((sub, here, inner));
            }
        }
        if cut {
            found.cut = true;
            break;
        }
    }
    found
}

#[cfg(test)]
thread_local! {
    /// Searches made by [`declarations`], for tests of how often a resource is searched.
    static SEARCHES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

thread_local! {
    /// The declarations searched in the document of the innermost live [`Indexed`], by what
    /// was sought: resources (`None`) or the anchors of one resource (its schema).
    static MEMO: std::cell::RefCell<Option<Memo>> = const { std::cell::RefCell::new(None) };
}

/// What [`MEMO`] keeps for one document.
struct Memo {
    /// The document's root, compared by address only: the [`Indexed`] that installed this
    /// borrows it, so it is neither changed nor freed while the memo is in place.
    root: *const Value,
    searched: std::collections::HashMap<Option<*const Value>, std::rc::Rc<Declarations>>,
}

/// While alive, every resolution of a `$ref` in `root` ([`step_from`], [`follow_from`])
/// searches each resource's declarations once and keeps them, instead of searching up to
/// [`MAX_SEARCHED_SCHEMAS`] positions again for each reference: without it, 10,000 `$ref`s
/// by anchor cost minutes. Made by [`indexed`]; dropping it restores the memo of the
/// document before.
pub struct Indexed<'v> {
    previous: Option<Memo>,
    root: std::marker::PhantomData<&'v Value>,
}

/// Keeps the declarations searched in `root` until the returned guard is dropped.
pub fn indexed(root: &Value) -> Indexed<'_> {
    let memo = Memo {
        root,
        searched: Default::default(),
    };
    Indexed {
        previous: MEMO.with(|m| m.replace(Some(memo))),
        root: std::marker::PhantomData,
    }
}

impl Drop for Indexed<'_> {
    fn drop(&mut self) {
        let previous = self.previous.take();
        MEMO.with(|m| *m.borrow_mut() = previous);
    }
}

/// The declarations of `root` sought as `key` says ([`Memo::searched`]): kept by the live
/// [`Indexed`] of `root`, else made by `search` for this lookup alone.
fn searched(
    root: &Value,
    key: Option<&Value>,
    search: impl FnOnce() -> Declarations,
) -> std::rc::Rc<Declarations> {
    let key = key.map(std::ptr::from_ref);
    let kept = MEMO.with(|m| {
        m.borrow()
            .as_ref()
            .filter(|memo| std::ptr::eq(memo.root, root))
            .map(|memo| memo.searched.get(&key).cloned())
    });
    match kept {
        Some(Some(found)) => found,
        Some(None) => {
            let found = std::rc::Rc::new(search());
            MEMO.with(|m| {
                if let Some(memo) = m.borrow_mut().as_mut() {
                    memo.searched.insert(key, found.clone());
                }
            });
            found
        }
        None => std::rc::Rc::new(search()),
    }
}

/// Where `root` declares the resource `uri`: the root itself, or one of the first
/// [`MAX_SEARCHED_SCHEMAS`] schema positions (breadth-first, each `$id` resolved against the
/// base of the resource around it). [`Search::Absent`] when none does: the reference is then
/// remote (toolwire never fetches it).
fn declared<'v>(root: &'v Value, uri: &str) -> Search<&'v Value> {
    let found = searched(root, None, || {
        let key = id_keyword(root);
        let root_uri = declares(root, key, BASE).unwrap_or_else(|| BASE.to_string());
        // Each subschema is read under the base of the resource around it.
        declarations(
            root,
            root_uri.clone(),
            vec![root_uri],
            |sub, base: &String| {
                let own = declares(sub, key, base);
                let inner = own.clone().unwrap_or_else(|| base.clone());
                (own.into_iter().collect(), inner, true)
            },
        )
    });
    found.find(root, uri)
}

/// The fragment of `reference` (the text of a `$ref`) when it refers into the document
/// `root` from the root's own resource: the part after `#` of `#...`; `""` for the empty
/// reference, which RFC 3986 §4.4 makes the document itself; and the fragment of a reference
/// whose part before `#` is the root's own `$id` (`https://ex.com/s#/$defs/A` in a schema with
/// that `$id`). `None` for any other resource (see [`step_from`] for those this document
/// declares below its root).
pub fn fragment<'r>(root: &Value, reference: &'r str) -> Option<&'r str> {
    let (base, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    if base.is_empty() {
        return Some(fragment);
    }
    let id = root.get("$id").and_then(Value::as_str)?;
    (id.trim_end_matches('#') == base).then_some(fragment)
}

/// Resolves `reference` (the text of a `$ref`) as written in the root schema of `root`.
pub fn step<'v>(root: &'v Value, reference: &str) -> Step<'v> {
    step_from(root, "", reference)
}

/// Resolves `reference` (the text of a `$ref`) as written in the schema at document pointer
/// `from`: against the base URI of the resource that holds it ([`resource`]), so that
/// `#/$defs/Zip` inside a subschema with its own `$id` names that resource's `Zip`, and
/// `other.json#/$defs/A` names a resource the document declares as `other.json`. As the
/// `jsonschema` crate `args` validates with reads it.
pub fn step_from<'v>(root: &'v Value, from: &str, reference: &str) -> Step<'v> {
    let (base, mut at) = resource(root, from);
    let (uri, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    if !uri.is_empty() {
        let Some(target) = resolve_uri(&base, uri) else {
            return Step::Remote;
        };
        at = match declared(root, &target) {
            Search::Found(_, at) => at,
            Search::Absent => return Step::Remote,
            Search::Twice(at) => {
                return Step::Ambiguous(Twice {
                    sought: Sought::Id,
                    name: target,
                    at,
                });
            }
            Search::Cut => return Step::Unsearched(Sought::Id),
        };
    }
    let Some(holder) = crate::json::at_pointer(root, &at) else {
        return Step::Missing;
    };
    if !fragment.is_empty() && !fragment.starts_with('/') {
        return match anchor(root, holder, fragment) {
            Search::Found(v, pointer) => Step::Local(v, format!("{at}{pointer}")),
            Search::Absent => Step::Missing,
            Search::Twice([a, b]) => Step::Ambiguous(Twice {
                sought: Sought::Anchor,
                name: fragment.to_string(),
                at: [format!("{at}{a}"), format!("{at}{b}")],
            }),
            Search::Cut => Step::Unsearched(Sought::Anchor),
        };
    }
    let pointer = percent_decode(fragment);
    match crate::json::at_pointer(holder, &pointer) {
        Some(v) => Step::Local(v, format!("{at}{pointer}")),
        None => Step::Missing,
    }
}

/// The schema that declares the plain name `name` in the resource `holder` (the document, or
/// a subschema with its own `$id`) and its JSON Pointer there: by `$anchor: name` (draft
/// 2020-12 §8.2.2) or, in 2020-12, `$dynamicAnchor: name` (which also declares a plain-name
/// fragment, §8.2.2, as Python's `jsonschema` reads it), or, in drafts 04 to 07, by an `$id`
/// (draft-04: `id`) of `#name`. Searched among the first [`MAX_SEARCHED_SCHEMAS`] schema
/// positions of the resource, breadth-first; a subschema with an `$id` of its own starts
/// another resource, and declares its anchors there. [`Search::Twice`] when two of those
/// declare it: a validator would pick either.
fn anchor<'v>(root: &Value, holder: &'v Value, name: &str) -> Search<&'v Value> {
    let found = searched(root, Some(holder), || {
        let key = id_keyword(root);
        let draft = jsonschema::Draft::Draft202012.detect(root);
        let fragment_ids = matches!(
            draft,
            jsonschema::Draft::Draft4 | jsonschema::Draft::Draft6 | jsonschema::Draft::Draft7
        );
        // 2019-09 spells a dynamic anchor `$recursiveAnchor: true`, which names nothing.
        let dynamic = draft == jsonschema::Draft::Draft202012;
        let names = |v: &Value| {
            let mut names: Vec<String> = Vec::new();
            let mut add = |name: Option<&str>| {
                if let Some(name) = name
                    && !names.iter().any(|n| n == name)
                {
                    names.push(name.to_string());
                }
            };
            add(v.get("$anchor").and_then(Value::as_str));
            if dynamic {
                add(v.get("$dynamicAnchor").and_then(Value::as_str));
            }
            if fragment_ids {
                add(v
                    .get(key)
                    .and_then(Value::as_str)
                    .and_then(|i| i.strip_prefix('#')));
            }
            names
        };
        declarations(holder, (), names(holder), |sub, _| {
            let own_resource = sub
                .get(key)
                .and_then(Value::as_str)
                .is_some_and(|i| !i.starts_with('#'));
            // Another resource's anchors are its own.
            let names = if own_resource { Vec::new() } else { names(sub) };
            (names, (), !own_resource)
        })
    });
    found.find(holder, name)
}

/// Where following a `$ref` and the `$ref`s of what it reaches ends ([`follow`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Chain<'v> {
    /// At a value that holds no string `$ref` (a schema, or whatever a broken schema put
    /// there): the value, its decoded JSON Pointer, and the last reference followed, as
    /// written.
    Reaches {
        schema: &'v Value,
        pointer: String,
        last: &'v str,
    },
    /// At a reference the chain cannot follow: `last` is its text, `step` what it is
    /// ([`Step::Remote`] or [`Step::Missing`]).
    Stops { last: &'v str, step: Step<'v> },
    /// Back at a place already passed: the decoded pointers of the loop in order, its first
    /// repeated at the end (`[A, B, A]`; `[A, A]` for a schema that refers to itself).
    Cycle(Vec<String>),
    /// More than [`MAX_REF_HOPS`] references in a row without reaching a schema.
    TooLong,
}

/// Follows `reference`, as written in the root schema of `root` ([`follow_from`]).
pub fn follow<'v>(root: &'v Value, reference: &'v str) -> Chain<'v> {
    follow_from(root, "", reference)
}

/// Follows `reference`, as written in the schema at document pointer `from`, then the `$ref`
/// of each value reached (each read in the resource that holds it, [`step_from`]), for at
/// most [`MAX_REF_HOPS`] hops in all. Iterative, and each step costs one pointer lookup.
pub fn follow_from<'v>(root: &'v Value, from: &str, reference: &'v str) -> Chain<'v> {
    let mut last = reference;
    let mut from = from.to_string();
    let mut seen: Vec<String> = Vec::new();
    let mut hops = 0;
    loop {
        hops += 1;
        let (node, pointer) = match step_from(root, &from, last) {
            Step::Local(node, pointer) => (node, pointer),
            other => return Chain::Stops { last, step: other },
        };
        if let Some(start) = seen.iter().position(|s| *s == pointer) {
            let mut cycle = seen.split_off(start);
            cycle.push(pointer);
            return Chain::Cycle(cycle);
        }
        let Some(next) = node.get("$ref").and_then(Value::as_str) else {
            return Chain::Reaches {
                schema: node,
                pointer,
                last,
            };
        };
        if hops == MAX_REF_HOPS {
            return Chain::TooLong;
        }
        seen.push(pointer.clone());
        from = pointer;
        last = next;
    }
}

/// The problem with a chain that reaches no schema, in the words every command uses:
/// [`cycle`] for a [`Chain::Cycle`], [`too_long`] for a [`Chain::TooLong`]; `None` otherwise.
/// `reference` is the `$ref` the chain started from.
pub fn chain_problem(reference: &str, chain: &Chain<'_>) -> Option<String> {
    match chain {
        Chain::Cycle(c) => Some(cycle(reference, c)),
        Chain::TooLong => Some(too_long(reference)),
        _ => None,
    }
}

/// "`$ref` to `X` starts a `$ref` chain longer than 64 hops (...)": a chain toolwire stops
/// following at [`MAX_REF_HOPS`], which may still reach a schema further on.
pub fn too_long(reference: &str) -> String {
    format!(
        "`$ref` to `{reference}` starts a `$ref` chain longer than {MAX_REF_HOPS} hops \
         (toolwire follows at most {MAX_REF_HOPS} references in a row; shorten the chain)"
    )
}

/// The same limit met while inlining: the references nest, each inside the target of the one
/// before, more than [`MAX_REF_HOPS`] deep from the `$ref` to `reference`.
pub fn too_long_nested(reference: &str) -> String {
    format!(
        "`$ref` to `{reference}` starts a `$ref` chain longer than {MAX_REF_HOPS} hops \
         (each target holds the next `$ref`; inlining follows at most {MAX_REF_HOPS} nested \
         references)"
    )
}

/// A chain from `reference` that loops (`c` as in [`Chain::Cycle`]), in words: a reference
/// to itself, one leading to a schema that refers to itself, or a cycle through the
/// definitions it names; each "never reaches a schema".
pub fn cycle(reference: &str, c: &[String]) -> String {
    let starts_here = c
        .first()
        .is_some_and(|p| reference.strip_prefix('#') == Some(p.as_str()));
    match (c.len(), starts_here) {
        (2, true) => {
            format!("`$ref` to `{reference}` refers to itself and never reaches a schema")
        }
        (2, false) => format!(
            "`$ref` to `{reference}` leads to `#{}`, which refers to itself and never reaches a \
             schema",
            c[0]
        ),
        _ => {
            let names: Vec<String> = c.iter().map(|p| format!("`#{p}`")).collect();
            format!(
                "`$ref` to `{reference}` {} a cycle of references through {} that never reaches \
                 a schema",
                if starts_here { "is" } else { "leads into" },
                names.join(" → ")
            )
        }
    }
}

/// How many subschemas `root` holds with every local `$ref` counted as a copy of its target
/// (a reference back into a target being counted counts nothing more: a validator recurses
/// there only as deep as the instance), capped: any count above `cap` is `cap + 1`.
///
/// A schema whose definitions each reference the next twice ("billion laughs") is small as
/// written and exponential expanded; a validator that compiles references eagerly (the
/// `jsonschema` crate `args` uses) spends time and memory in proportion to this count. Each
/// distinct target is walked once (memoised), and the references between targets are
/// followed with an explicit stack, so a chain of 100,000 definitions costs no recursion.
/// Remote and dangling references count nothing: they are reported where they are met.
pub fn expanded_size(root: &Value, cap: usize) -> usize {
    expanded_size_counted(root, cap, &super::count(root))
}

/// [`expanded_size`] of `root` whose [`super::count`] is `counted`: a schema without a `$ref`
/// is its count as written, its root's definitions left out (nothing references them), read
/// off the count with no pointer made; only a schema with references is walked target by
/// target.
pub(crate) fn expanded_size_counted(root: &Value, cap: usize, counted: &super::Count) -> usize {
    if !counted.refers {
        return (counted.nodes - counted.in_root_definitions).min(cap + 1);
    }
    expanded_size_walked(root, cap)
}

/// [`expanded_size`] by walking each target a reference names, with no count first: for a
/// schema known to be small as written, whose references alone can take it past `cap`.
pub(crate) fn expanded_size_walked(root: &Value, cap: usize) -> usize {
    let _declarations = indexed(root);
    /// A target's own subschemas and the targets its references name.
    struct Target {
        own: usize,
        refs: Vec<usize>,
    }
    let mut pointers: Vec<String> = vec![String::new()];
    let mut index: std::collections::HashMap<String, usize> =
        std::collections::HashMap::from([(String::new(), 0)]);
    let mut targets: Vec<Target> = Vec::new();
    // Walk each target once, numbering the targets met in order.
    while targets.len() < pointers.len() {
        let at = pointers[targets.len()].clone();
        let Some(value) = root.pointer(&at) else {
            targets.push(Target {
                own: 0,
                refs: Vec::new(),
            });
            continue;
        };
        let mut nodes = super::walk_from(value, &at).nodes;
        if at.is_empty() {
            // The root's definitions count where they are referenced, not as written.
            nodes.retain(|n| {
                !(n.pointer.starts_with("/$defs/") || n.pointer.starts_with("/definitions/"))
            });
        }
        let mut refs = Vec::new();
        for node in &nodes {
            let Some(text) = node
                .object()
                .and_then(|o| o.get("$ref"))
                .and_then(Value::as_str)
            else {
                continue;
            };
            if let Step::Local(_, pointer) = step_from(root, &node.pointer, text) {
                let next = pointers.len();
                let i = *index.entry(pointer.clone()).or_insert_with(|| {
                    pointers.push(pointer);
                    next
                });
                refs.push(i);
            }
        }
        targets.push(Target {
            own: nodes.len(),
            refs,
        });
    }
    // Sizes in post-order; a target still open when met again is a recursion (counts 0).
    let mut size: Vec<Option<usize>> = vec![None; targets.len()];
    let mut open = vec![false; targets.len()];
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    open[0] = true;
    while let Some(&mut (t, ref mut next)) = stack.last_mut() {
        if let Some(&r) = targets[t].refs.get(*next) {
            *next += 1;
            if size[r].is_none() && !open[r] {
                open[r] = true;
                stack.push((r, 0));
            }
            continue;
        }
        let total = targets[t].refs.iter().fold(targets[t].own, |sum, &r| {
            sum.saturating_add(size[r].unwrap_or(0)).min(cap + 1)
        });
        size[t] = Some(total);
        open[t] = false;
        stack.pop();
    }
    size[0].unwrap_or(0).min(cap + 1)
}

/// Schemas shared by the tests of every command that follows `$ref` chains.
#[cfg(test)]
pub(crate) mod fixtures {
    use serde_json::{Map, Value, json};

    /// `properties.a` → `#/$defs/D0` → ... → `Dn` (a string): each `Di` a bare `$ref` to the
    /// next, or (`nested`) an object whose property `x` is one. Following `#/$defs/D0` takes
    /// `n + 1` hops.
    pub(crate) fn chain(n: usize, nested: bool) -> Value {
        let mut defs = Map::new();
        for i in 0..n {
            let next = json!({"$ref": format!("#/$defs/D{}", i + 1)});
            let def = if nested {
                json!({"type":"object","properties":{"x": next}})
            } else {
                next
            };
            defs.insert(format!("D{i}"), def);
        }
        defs.insert(format!("D{n}"), json!({"type":"string"}));
        json!({"type":"object","properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":defs})
    }

    /// "Billion laughs": `properties.x` → `d0`, each `di` an `anyOf` referencing `d(i+1)`
    /// twice, `d{levels}` a string: small as written, 2^levels subschemas expanded.
    pub(crate) fn laughs(levels: usize) -> Value {
        let mut defs = Map::new();
        for i in 0..levels {
            let next = json!({"$ref": format!("#/$defs/d{}", i + 1)});
            defs.insert(format!("d{i}"), json!({"anyOf": [next.clone(), next]}));
        }
        defs.insert(format!("d{levels}"), json!({"type":"string"}));
        json!({"type":"object","properties":{"x":{"$ref":"#/$defs/d0"}},"$defs":defs})
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{chain, laughs};
    use super::*;
    use serde_json::json;

    #[test]
    fn a_schema_without_references_is_measured_by_its_count_as_the_walk_measured_it() {
        // Nested `anyOf`s (the shape of trial 73 D4, smaller), with definitions no reference
        // reaches at the root and a `$defs` deeper down, which counts.
        fn tree(depth: usize) -> Value {
            if depth == 0 {
                return json!({"type": "object", "properties": {"k": {"type": "string"}}});
            }
            json!({"anyOf": [tree(depth - 1), tree(depth - 1), tree(depth - 1)]})
        }
        let mut s = json!({"type": "object", "properties": {"v": tree(6), "w": {"$defs": {"x": {}}}},
            "$defs": {"unused": {"anyOf": [{}, {}]}}, "definitions": {"old": {}}});
        for cap in [10, 1000, 3000, 100_000] {
            let before = crate::schema::WALKED.with(|w| w.get());
            let fast = expanded_size(&s, cap);
            assert_eq!(
                crate::schema::WALKED.with(|w| w.get()),
                before,
                "no walk at {cap}"
            );
            assert_eq!(fast, expanded_size_walked(&s, cap), "cap {cap}");
        }
        // 3^6 leaves of 2 subschemas each, the 364 branches above them, the root, `w` and `x`.
        assert_eq!(expanded_size(&s, 100_000), 2 * 729 + 364 + 3);
        // One reference, anywhere (even in a definition nothing reaches), takes the walk.
        s["$defs"]["unused"]["$ref"] = json!("#/$defs/old");
        let before = crate::schema::WALKED.with(|w| w.get());
        assert_eq!(expanded_size(&s, 100_000), 2 * 729 + 364 + 3);
        assert!(crate::schema::WALKED.with(|w| w.get()) > before);
    }

    #[test]
    fn expanded_size_counts_each_reference_as_its_target_and_stays_capped() {
        // Root, a, b, and a copy of S for each (the definitions as written count nothing).
        let s = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/S"},"b":{"$ref":"#/$defs/S"}},
            "$defs":{"S":{"type":"string"}}});
        assert_eq!(expanded_size(&s, 1000), 5);
        // Each definition referencing the next twice: 2^levels, cut at the cap.
        let small = expanded_size(&laughs(4), 1_000_000);
        assert!(small > 2usize.pow(4) && small < 2usize.pow(7), "{small}");
        assert_eq!(expanded_size(&laughs(40), 100_000), 100_001);
        // A recursive schema counts its recursion once; a long chain needs no deep stack.
        let rec = json!({"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},
            "$defs":{"N":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/N"}}}}}});
        assert!(expanded_size(&rec, 1000) < 20);
        assert!(expanded_size(&chain(20_000, true), usize::MAX - 1) < 100_000);
    }

    #[test]
    fn a_chain_of_the_limit_reaches_its_schema_and_one_more_hop_is_too_long() {
        let under = chain(MAX_REF_HOPS - 1, false);
        match follow(&under, "#/$defs/D0") {
            Chain::Reaches {
                schema,
                pointer,
                last,
            } => {
                assert_eq!(schema, &json!({"type":"string"}));
                assert_eq!(pointer, format!("/$defs/D{}", MAX_REF_HOPS - 1));
                assert_eq!(last, format!("#/$defs/D{}", MAX_REF_HOPS - 1));
            }
            other => panic!("{other:?}"),
        }
        let over = chain(MAX_REF_HOPS, false);
        assert_eq!(follow(&over, "#/$defs/D0"), Chain::TooLong);
        let long = chain(1_500, false);
        assert_eq!(follow(&long, "#/$defs/D0"), Chain::TooLong);
        assert_eq!(
            chain_problem("#/$defs/D0", &Chain::TooLong).unwrap(),
            format!(
                "`$ref` to `#/$defs/D0` starts a `$ref` chain longer than {MAX_REF_HOPS} hops \
                 (toolwire follows at most {MAX_REF_HOPS} references in a row; shorten the chain)"
            )
        );
    }

    #[test]
    fn a_cycle_is_a_cycle_at_any_length() {
        let s = json!({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"},"c":{"$ref":"#/$defs/c"}}});
        let c = follow(&s, "#/$defs/a");
        assert_eq!(
            c,
            Chain::Cycle(vec![
                "/$defs/a".into(),
                "/$defs/b".into(),
                "/$defs/a".into()
            ])
        );
        assert_eq!(
            chain_problem("#/$defs/a", &c).unwrap(),
            "`$ref` to `#/$defs/a` is a cycle of references through `#/$defs/a` → `#/$defs/b` → `#/$defs/a` that never reaches a schema"
        );
        assert_eq!(
            chain_problem("#/$defs/c", &follow(&s, "#/$defs/c")).unwrap(),
            "`$ref` to `#/$defs/c` refers to itself and never reaches a schema"
        );
        // A loop that closes within the limit is a cycle however far its run-up started.
        let mut long = chain(200, false);
        long["$defs"]["D200"] = json!({"$ref":"#/$defs/D170"});
        assert!(matches!(follow(&long, "#/$defs/D160"), Chain::Cycle(c) if c.len() == 32));
        assert_eq!(follow(&long, "#/$defs/D0"), Chain::TooLong);
        // Keywords beside a `$ref` do not end the chain: the validator follows it too.
        let sib = json!({"$defs":{"a":{"$ref":"#/$defs/a","description":"x"}}});
        assert!(matches!(follow(&sib, "#/$defs/a"), Chain::Cycle(_)));
    }

    #[test]
    fn what_cannot_be_followed_stops_the_chain() {
        let s = json!({"$defs":{"a":{"$ref":"#/$defs/x%20y"},"x y":{"$ref":"https://e.org/s"},
            "m":{"$ref":"#/$defs/none"},"n":{"$ref":"#anchor"}}});
        assert_eq!(
            follow(&s, "#/$defs/a"),
            Chain::Stops {
                last: "https://e.org/s",
                step: Step::Remote
            }
        );
        assert_eq!(
            follow(&s, "#/$defs/m"),
            Chain::Stops {
                last: "#/$defs/none",
                step: Step::Missing
            }
        );
        assert_eq!(
            follow(&s, "#/$defs/n"),
            Chain::Stops {
                last: "#anchor",
                step: Step::Missing
            }
        );
        assert!(matches!(step(&s, "#"), Step::Local(v, p) if v == &s && p.is_empty()));
    }

    #[test]
    fn the_document_itself_its_id_and_anchors_are_local() {
        let s = json!({"$id": "https://ex.com/root", "properties": {"a": {"$ref": "#foo"}},
            "$defs": {"f": {"$anchor": "foo", "type": "string"}}});
        // The empty reference is the document itself (RFC 3986 §4.4), as `#` is.
        assert!(matches!(step(&s, ""), Step::Local(v, p) if v == &s && p.is_empty()));
        assert_eq!(
            step(&s, "#foo"),
            Step::Local(&s["$defs"]["f"], "/$defs/f".into())
        );
        assert_eq!(
            step(&s, "https://ex.com/root#/$defs/f"),
            Step::Local(&s["$defs"]["f"], "/$defs/f".into())
        );
        assert!(matches!(step(&s, "https://ex.com/root"), Step::Local(_, p) if p.is_empty()));
        assert_eq!(step(&s, "https://ex.com/other#/$defs/f"), Step::Remote);
        assert_eq!(step(&s, "#bar"), Step::Missing);
        // Without an `$id`, a URL is another document.
        assert_eq!(step(&json!({}), "https://ex.com/root#/x"), Step::Remote);
    }

    /// Under [`indexed`], each resource's declarations are searched once however many
    /// references name them (before: one search of up to 1,024 positions per reference; a
    /// schema of 10,000 references by anchor took 134 s to check in a release build); without
    /// it, once per lookup. A guard for another document leaves the outer memo in place.
    #[test]
    fn under_indexed_each_resource_is_searched_once() {
        let n = 300;
        let mut defs = serde_json::Map::new();
        let mut props = serde_json::Map::new();
        for i in 0..n {
            defs.insert(format!("D{i}"), json!({"$anchor": format!("a{i}")}));
            props.insert(format!("p{i}"), json!({"$ref": format!("#a{i}")}));
        }
        defs.insert(
            "R".into(),
            json!({"$id": "r.json", "$defs": {"I": {"$anchor": "inner"}}}),
        );
        let s = json!({"properties": props, "$defs": defs});
        let lookups = || {
            for i in 0..n {
                let step = step_from(&s, &format!("/properties/p{i}"), &format!("#a{i}"));
                assert!(
                    matches!(&step, Step::Local(_, p) if *p == format!("/$defs/D{i}")),
                    "{step:?}"
                );
            }
            let inner = step(&s, "r.json#inner");
            assert!(
                matches!(&inner, Step::Local(_, p) if p == "/$defs/R/$defs/I"),
                "{inner:?}"
            );
            assert_eq!(step(&s, "#nowhere"), Step::Missing);
        };
        let searches = |f: &dyn Fn()| {
            SEARCHES.with(|c| c.set(0));
            f();
            SEARCHES.with(std::cell::Cell::get)
        };
        // One per anchor lookup, and the resource `r.json` costs two (its URI, its anchor).
        assert_eq!(searches(&lookups), n + 3);
        {
            let _kept = indexed(&s);
            // The root's anchors, the resources, `r.json`'s anchors.
            assert_eq!(searches(&lookups), 3);
            {
                let other = json!({"$defs": {"X": {"$anchor": "x"}}});
                let _inner = indexed(&other);
                assert!(matches!(step(&other, "#x"), Step::Local(_, p) if p == "/$defs/X"));
                // `s` is not the inner guard's document: searched, not kept.
                assert_eq!(searches(&|| drop(step(&s, "#a0"))), 1);
            }
            assert_eq!(searches(&lookups), 0);
        }
        assert_eq!(searches(&|| drop(step(&s, "#a0"))), 1);
    }

    /// Anchors are looked for at every schema position, breadth-first, the first
    /// [`MAX_SEARCHED_SCHEMAS`] of them, so a schema of many references costs each of them a
    /// bounded search.
    #[test]
    fn anchors_are_found_at_every_schema_position_within_the_cap() {
        let mut defs = serde_json::Map::new();
        for i in 0..MAX_SEARCHED_SCHEMAS {
            defs.insert(format!("D{i}"), json!({"$anchor": format!("a{i}")}));
        }
        let s = json!({"$anchor": "top", "$defs": defs,
            "properties": {"p": {"$anchor": "inside", "type": "string"}},
            "items": {"anyOf": [{"$defs": {"B": {"$anchor": "deep"}}}]}});
        assert!(matches!(step(&s, "#top"), Step::Local(_, p) if p.is_empty()));
        // The root, then its `$defs` members (keys in order): the 1,023rd is the last searched.
        let last = MAX_SEARCHED_SCHEMAS - 2;
        assert!(
            matches!(step(&s, &format!("#a{last}")), Step::Local(_, p) if p == format!("/$defs/D{last}"))
        );
        // Past the cap the search stops: not found there is not absent.
        assert_eq!(
            step(&s, &format!("#a{}", last + 1)),
            Step::Unsearched(Sought::Anchor)
        );
        assert_eq!(step(&s, "#nowhere"), Step::Unsearched(Sought::Anchor));
        assert_eq!(
            unresolved("#nowhere", &Step::Unsearched(Sought::Anchor)).unwrap(),
            "`$ref` to `#nowhere` names an anchor that toolwire did not find in the first 1024 \
             schema positions, where its search stops (the schema has more), so whether it is \
             declared further on was not checked; declare it nearer the root, or refer to it by \
             JSON Pointer (`#/$defs/...`)"
        );
        // So is a resource's URI (not called remote: it may be declared further on).
        assert_eq!(step(&s, "late.json"), Step::Unsearched(Sought::Id));
        // Exactly as many positions as the cap: all searched, so absent is absent.
        let mut full = serde_json::Map::new();
        for i in 0..MAX_SEARCHED_SCHEMAS - 1 {
            full.insert(format!("D{i}"), json!({}));
        }
        let full = json!({"$defs": full});
        assert_eq!(step(&full, "#nowhere"), Step::Missing);
        assert_eq!(step(&full, "late.json"), Step::Remote);
        let small = json!({"properties": {"p": {"$anchor": "inside", "type": "string"}},
            "items": {"anyOf": [{"$defs": {"B": {"$anchor": "deep"}}}]},
            "$defs": {"A": {"$defs": {"B": {"$anchor": "nest"}}}}});
        assert!(matches!(step(&small, "#inside"), Step::Local(_, p) if p == "/properties/p"));
        assert!(
            matches!(step(&small, "#deep"), Step::Local(_, p) if p == "/items/anyOf/0/$defs/B")
        );
        assert!(matches!(step(&small, "#nest"), Step::Local(_, p) if p == "/$defs/A/$defs/B"));
        // In data, a `$anchor` declares nothing.
        assert_eq!(
            step(&json!({"const": {"$anchor": "c"}}), "#c"),
            Step::Missing
        );
    }

    #[test]
    fn a_name_two_subschemas_of_one_resource_anchor_names_neither() {
        let s = json!({"$defs": {"A": {"$anchor": "x", "type": "integer"},
            "B": {"$anchor": "x", "type": "string"}}, "properties": {"v": {"$ref": "#x"}}});
        let twice = Twice {
            sought: Sought::Anchor,
            name: "x".into(),
            at: ["/$defs/A".into(), "/$defs/B".into()],
        };
        assert_eq!(step(&s, "#x"), Step::Ambiguous(twice));
        let (at, problem) = super::super::broken_ref(&s).unwrap();
        assert_eq!(at, "/properties/v/$ref");
        assert_eq!(
            problem,
            "`$ref` to `#x` is ambiguous: two subschemas of one resource declare the anchor `x` \
             (at `#/$defs/A` and `#/$defs/B`), so which one it means cannot be told; give each \
             its own name"
        );
        // In a nested resource, the places are the document's.
        let nested = json!({"$defs": {"R": {"$id": "r.json", "$defs": {"A": {"$anchor": "x"},
            "B": {"$anchor": "x"}}}}});
        assert!(
            matches!(step(&nested, "r.json#x"), Step::Ambiguous(Twice { at, .. })
            if at == ["/$defs/R/$defs/A", "/$defs/R/$defs/B"])
        );
        // In two resources, each is its own resource's.
        let two = json!({"$defs": {"A": {"$anchor": "x"},
            "B": {"$id": "b.json", "$defs": {"C": {"$anchor": "x"}}}}});
        assert!(matches!(step(&two, "#x"), Step::Local(_, p) if p == "/$defs/A"));
        assert!(matches!(step(&two, "b.json#x"), Step::Local(_, p) if p == "/$defs/B/$defs/C"));
    }

    /// In 2020-12 a `$dynamicAnchor` declares a plain name as `$anchor` does (§8.2.2): a
    /// `$ref` (or a `$dynamicRef` with no other dynamic scope) to `#node` reaches it, as
    /// Python's `jsonschema` reads it.
    #[test]
    fn a_dynamic_anchor_declares_a_plain_name_in_2020_12() {
        let s = json!({"type":"object","properties":{"v":{"$ref":"#node"}},
            "$defs":{"N":{"$dynamicAnchor":"node","type":"string"}}});
        assert!(matches!(step(&s, "#node"), Step::Local(_, p) if p == "/$defs/N"));
        assert_eq!(super::super::broken_ref(&s), None);
        // Declared by both keywords in one resource, the name is declared twice.
        let mut both = s.clone();
        both["$defs"]["M"] = json!({"$anchor":"node"});
        assert!(matches!(step(&both, "#node"), Step::Ambiguous(..)));
        // 2019-09 has no named dynamic anchors (`$recursiveAnchor` is a boolean).
        let mut old = s.clone();
        old["$schema"] = json!("https://json-schema.org/draft/2019-09/schema");
        assert_eq!(step(&old, "#node"), Step::Missing);
    }

    #[test]
    fn plain_name_ids_are_anchors_in_drafts_04_to_07() {
        for (draft, key) in [("draft-04", "id"), ("draft-06", "$id"), ("draft-07", "$id")] {
            let s = json!({"$schema": format!("http://json-schema.org/{draft}/schema#"),
                "definitions": {"A": {key: "#foo", "type": "integer"}},
                "properties": {"v": {"$ref": "#foo"}}});
            assert!(
                matches!(step(&s, "#foo"), Step::Local(_, p) if p == "/definitions/A"),
                "{draft}"
            );
        }
        // 2020-12 declares plain names with `$anchor` only.
        let late = json!({"$defs": {"A": {"$id": "#foo"}}});
        assert_eq!(step(&late, "#foo"), Step::Missing);
    }

    /// A schema-form `dependencies` member is a schema position (draft-07 validation §6.5.7):
    /// what it declares is found, and a `$ref` in it is read in its resource. A property
    /// list there is data and declares nothing.
    #[test]
    fn schema_form_dependencies_are_schema_positions() {
        let s = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "dependencies": {"a": {"$id": "#foo", "type": "integer"}, "b": [{"$id": "#bar"}]}});
        assert!(matches!(step(&s, "#foo"), Step::Local(_, p) if p == "/dependencies/a"));
        assert_eq!(step(&s, "#bar"), Step::Missing);
        let s = json!({"$id": "https://example.com/root.json",
            "dependencies": {"a": {"$id": "dep.json", "not": {"$ref": "#/definitions/Z"},
                "definitions": {"Z": {"type": "null"}}}}});
        assert_eq!(
            resource(&s, "/dependencies/a/not"),
            (
                "https://example.com/dep.json".into(),
                "/dependencies/a".into()
            )
        );
        assert!(matches!(step(&s, "dep.json"), Step::Local(_, p) if p == "/dependencies/a"));
    }

    #[test]
    fn a_resource_declared_outside_definitions_is_found() {
        let s = json!({"$id": "https://ex.com/m.json", "type": "object",
            "properties": {"p": {"$id": "p.json", "type": "object", "$defs": {"Z": {"type": "integer"}},
                "properties": {"z": {"$ref": "#/$defs/Z"}}},
                "q": {"$ref": "p.json"},
                "r": {"items": [{"anyOf": [{"$id": "r.json"}]}]}}});
        assert!(matches!(step(&s, "p.json"), Step::Local(_, p) if p == "/properties/p"));
        assert!(
            matches!(step(&s, "p.json#/$defs/Z"), Step::Local(_, p) if p == "/properties/p/$defs/Z")
        );
        assert!(
            matches!(step(&s, "r.json"), Step::Local(_, p) if p == "/properties/r/items/0/anyOf/0")
        );
        assert_eq!(super::super::broken_ref(&s), None);
        // Declared twice, at any positions, is ambiguous.
        let mut twice = s.clone();
        twice["properties"]["o"] = json!({"additionalProperties": {"$id": "p.json"}});
        assert_eq!(
            step(&twice, "p.json"),
            Step::Ambiguous(Twice {
                sought: Sought::Id,
                name: "https://ex.com/p.json".into(),
                at: [
                    "/properties/p".into(),
                    "/properties/o/additionalProperties".into()
                ],
            })
        );
    }

    /// The trial's shape: `Address` declares its own resource and a `Zip` of its own; the root
    /// declares another `Zip`.
    fn nested() -> Value {
        json!({"type":"object",
            "$defs":{"Zip":{"type":"string"},
                "Address":{"$id":"https://example.com/address.json","type":"object",
                    "$defs":{"Zip":{"anyOf":[{"type":"integer"},{"type":"null"}]}},
                    "properties":{"zip":{"$ref":"#/$defs/Zip"}}}},
            "properties":{"addr":{"$ref":"#/$defs/Address"},"top":{"$ref":"#/$defs/Zip"}}})
    }

    /// A resource declared under a member whose name holds `/` or `~` is found through the
    /// escaped tokens of the pointer, and its place is written escaped again.
    #[test]
    fn a_resource_under_an_escaped_member_name_is_found_and_written_escaped() {
        let s = json!({"properties":{"a/b~c":{"$id":"https://e.org/in",
            "$defs":{"Zip":{"type":"string"}},"properties":{"z":{"$ref":"#/$defs/Zip"}}}},
            "$defs":{"Zip":{"type":"integer"}}});
        let from = "/properties/a~1b~0c/properties/z";
        assert_eq!(
            resource(&s, from),
            (
                "https://e.org/in".to_string(),
                "/properties/a~1b~0c".to_string()
            )
        );
        assert_eq!(
            step_from(&s, from, "#/$defs/Zip"),
            Step::Local(
                &s["properties"]["a/b~c"]["$defs"]["Zip"],
                "/properties/a~1b~0c/$defs/Zip".into()
            )
        );
    }

    #[test]
    fn a_fragment_inside_a_nested_resource_names_that_resource() {
        let s = nested();
        let inner = &s["$defs"]["Address"]["$defs"]["Zip"];
        assert_eq!(
            step_from(&s, "/$defs/Address/properties/zip", "#/$defs/Zip"),
            Step::Local(inner, "/$defs/Address/$defs/Zip".into())
        );
        // The same text at the root names the root's.
        assert_eq!(
            step_from(&s, "/properties/top", "#/$defs/Zip"),
            Step::Local(&s["$defs"]["Zip"], "/$defs/Zip".into())
        );
        // A chain carries the resource of each place it reaches.
        let mut chained = s.clone();
        chained["$defs"]["Address"]["properties"]["zip"] = json!({"$ref":"#/$defs/Alias"});
        chained["$defs"]["Address"]["$defs"]["Alias"] = json!({"$ref":"#/$defs/Zip"});
        assert!(matches!(
            follow_from(&chained, "/$defs/Address/properties/zip", "#/$defs/Alias"),
            Chain::Reaches { pointer, .. } if pointer == "/$defs/Address/$defs/Zip"
        ));
        // Without the root's own `Zip` the reference still names the nested one.
        let mut only = s.clone();
        only["$defs"].as_object_mut().unwrap().remove("Zip");
        assert!(matches!(
            step_from(&only, "/$defs/Address/properties/zip", "#/$defs/Zip"),
            Step::Local(..)
        ));
        assert_eq!(step(&only, "#/$defs/Zip"), Step::Missing);
        // A property named `$id`, or `$id` in data, declares nothing.
        let named = json!({"properties":{"$id":{"type":"string"},"a":{"$ref":"#/properties/$id"}},
            "const":{"$id":"https://e.org/x"}});
        assert_eq!(
            resource(&named, "/properties/$id"),
            (BASE.into(), String::new())
        );
        assert_eq!(resource(&named, "/const"), (BASE.into(), String::new()));
    }

    #[test]
    fn relative_ids_resolve_against_the_enclosing_base() {
        let s = json!({"$id":"https://example.com/root.json",
            "$defs":{"Address":{"$id":"address.json",
                "$defs":{"Zip":{"type":"integer"},
                    "Inner":{"$id":"sub/inner.json","$defs":{"Z":{"$anchor":"z","type":"null"}},
                        "properties":{"back":{"$ref":"../address.json#/$defs/Zip"}}}}}},
            "properties":{"a":{"$ref":"address.json#/$defs/Zip"}}});
        let zip = &s["$defs"]["Address"]["$defs"]["Zip"];
        assert_eq!(
            resource(&s, "/$defs/Address/$defs/Inner/properties/back"),
            (
                "https://example.com/sub/inner.json".into(),
                "/$defs/Address/$defs/Inner".into()
            )
        );
        assert_eq!(
            step(&s, "address.json#/$defs/Zip"),
            Step::Local(zip, "/$defs/Address/$defs/Zip".into())
        );
        assert_eq!(
            step(&s, "https://example.com/address.json#/$defs/Zip"),
            Step::Local(zip, "/$defs/Address/$defs/Zip".into())
        );
        assert_eq!(
            step_from(
                &s,
                "/$defs/Address/$defs/Inner/properties/back",
                "../address.json#/$defs/Zip"
            ),
            Step::Local(zip, "/$defs/Address/$defs/Zip".into())
        );
        // An anchor belongs to the resource that declares it.
        assert!(matches!(step(&s, "sub/inner.json#z"), Step::Local(_, p)
            if p == "/$defs/Address/$defs/Inner/$defs/Z"));
        assert_eq!(step(&s, "#z"), Step::Missing);
        // `sub/inner.json` read at the root is `https://example.com/sub/inner.json` too, but a
        // URI no subschema declares is another document.
        assert_eq!(step(&s, "other.json#/$defs/Zip"), Step::Remote);
        assert_eq!(step(&s, "https://example.org/address.json"), Step::Remote);
        // No root `$id`: a relative `$id` resolves against the base `args` compiles under.
        let bare = json!({"$defs":{"X":{"$id":"x.json","type":"string"}}});
        assert!(matches!(step(&bare, "x.json"), Step::Local(_, p) if p == "/$defs/X"));
        assert_eq!(step(&bare, "y.json"), Step::Remote);
    }

    #[test]
    fn a_uri_two_subschemas_declare_names_neither() {
        let s = json!({"$defs":{"A":{"$id":"https://e.org/a.json","type":"string"},
            "B":{"$id":"https://e.org/a.json","type":"integer"}},
            "properties":{"p":{"$ref":"https://e.org/a.json"}}});
        assert!(matches!(step(&s, "https://e.org/a.json"),
            Step::Ambiguous(Twice { sought: Sought::Id, at, .. }) if at == ["/$defs/A", "/$defs/B"]));
        // Each one's own fragments are still its own.
        assert!(matches!(step_from(&s, "/$defs/B", "#/type"), Step::Local(v, _) if v == "integer"));
        let (at, problem) = super::super::broken_ref(&s).unwrap();
        assert_eq!(at, "/properties/p/$ref");
        assert_eq!(
            problem,
            "`$ref` to `https://e.org/a.json` is ambiguous: two subschemas declare \
             `https://e.org/a.json` as their `$id` (at `#/$defs/A` and `#/$defs/B`), so which one \
             it means cannot be told; give each its own `$id`"
        );
    }

    #[test]
    fn cycles_through_resources_are_cycles() {
        let s = json!({"$defs":{"A":{"$id":"https://e.org/a.json","$ref":"b.json"},
            "B":{"$id":"https://e.org/b.json","$ref":"a.json"},
            "C":{"$id":"https://e.org/c.json","$defs":{"X":{"$ref":"#/$defs/Y"},"Y":{"$ref":"#/$defs/X"}}}},
            "properties":{"p":{"$ref":"https://e.org/a.json"},
                "q":{"$ref":"https://e.org/c.json#/$defs/X"}}});
        assert_eq!(
            follow_from(&s, "/properties/p", "https://e.org/a.json"),
            Chain::Cycle(vec![
                "/$defs/A".into(),
                "/$defs/B".into(),
                "/$defs/A".into()
            ])
        );
        assert_eq!(
            follow_from(&s, "/properties/q", "https://e.org/c.json#/$defs/X"),
            Chain::Cycle(vec![
                "/$defs/C/$defs/X".into(),
                "/$defs/C/$defs/Y".into(),
                "/$defs/C/$defs/X".into()
            ])
        );
        assert!(super::super::broken_ref(&s).unwrap().1.contains("cycle"));
    }

    #[test]
    fn draft_04_declares_resources_with_id() {
        let s = json!({"$schema":"http://json-schema.org/draft-04/schema#",
            "id":"https://e.com/root.json",
            "definitions":{"X":{"id":"x.json","definitions":{"Y":{"type":"integer"}},
                "properties":{"y":{"$ref":"#/definitions/Y"}}}}});
        assert!(matches!(
            step_from(&s, "/definitions/X/properties/y", "#/definitions/Y"),
            Step::Local(_, p) if p == "/definitions/X/definitions/Y"
        ));
        assert!(matches!(step(&s, "x.json#/definitions/Y"), Step::Local(..)));
        // In 2020-12 `id` is no keyword.
        let late = json!({"definitions":{"X":{"id":"x.json"}}});
        assert_eq!(step(&late, "x.json"), Step::Remote);
    }
}
