//! Inlining local `$ref`s: every `{"$ref": "#/..."}` in a schema position is replaced by a
//! copy of its target (itself inlined), and the `$defs`/`definitions` containers are dropped.
//! Remote and recursive references are refused. Inlining is bounded three ways, so that no
//! schema read within the input caps makes it recurse deep or grow without end: each chain is
//! followed with the shared resolver ([`crate::schema::refs::follow`]: a cycle or a chain
//! longer than [`MAX_REF_HOPS`] is refused in the words every command uses), at most
//! [`MAX_REF_HOPS`] references are expanded inside one another, the result nests no deeper
//! than [`crate::input::LIMITS`] allows, and it has at most `max_nodes` schema nodes (the
//! expansion cap).
//!
//! Keywords beside a `$ref` apply together with its target (JSON Schema 2019-09 on), so they
//! are merged into the copy where one schema can say both (an annotation replaces the
//! target's, `properties` declaring other names are joined, and a keyword both set whose
//! conjunction is one value, as two `minimum`s or `type` lists, becomes that value:
//! [`crate::repair::conjunction`]);
//! where the two set one keyword differently, both are kept as `allOf: [target, siblings]`
//! when the profile takes `allOf` ([`Conflicts`]), and the inlining is refused otherwise.

use serde_json::{Map, Value};

use crate::json::push_token;
use crate::repair::conjunction::merge;
use crate::schema::refs::{self as shared, MAX_REF_HOPS};
use crate::schema::{LIST_OF_SCHEMAS, MAP_OF_SCHEMAS, ONE_SCHEMA};

/// Default cap on the schema nodes an inlined schema may have (each object or array counted
/// once). The largest corpus schema has well under 1,000; the cap stops a few `$defs` that
/// reference each other twice over from growing exponentially.
pub const MAX_INLINE_NODES: usize = 10_000;

/// The most the expansion cap may be raised to (`--max-inline-nodes`, [`inline_with`]'s
/// `max_nodes`): [`crate::args::MAX_EXPANDED`], past which `args` refuses a declared schema,
/// so a larger inlined schema could not be checked anyway. Memory and time grow with the cap
/// for a schema that reaches it: a 3 KB `$ref` bomb took 1.1 s and 85 MB inlined to 100,000
/// nodes, 11 s and 640 MB to 1,000,000, and ran out of memory past that (trial 86 D1,
/// release build, 2026-12-07).
pub const MAX_INLINE_NODES_CEILING: usize = crate::args::MAX_EXPANDED;

/// Sibling keywords a `$ref` may carry that only annotate; they override the target's.
pub(crate) const ANNOTATIONS: &[&str] =
    &["description", "title", "default", "examples", "$comment"];

/// Keywords each read in the light of the others of its group (`additionalProperties` covers
/// the names that `properties` and `patternProperties` do not declare; `items` the positions
/// past `prefixItems`; `minContains` counts what `contains` matches; `then` applies by `if`):
/// one group's keywords from the target and from beside the `$ref` cannot be pooled, as that
/// would change what the pooled `additionalProperties` or `items` covers. Each group with how
/// its keywords are read together, in words.
const RELATED: &[(&[&str], &str)] = &[
    (
        &[
            "properties",
            "patternProperties",
            "additionalProperties",
            "unevaluatedProperties",
        ],
        "`additionalProperties` covers the members its own `properties` do not declare",
    ),
    (
        &[
            "prefixItems",
            "items",
            "additionalItems",
            "unevaluatedItems",
        ],
        "`items` covers the positions its own `prefixItems` do not",
    ),
    (
        &["contains", "minContains", "maxContains"],
        "`minContains` and `maxContains` count the items its own `contains` matches",
    ),
    (
        &["if", "then", "else"],
        "`then` and `else` apply as its own `if` decides",
    ),
];

/// How OpenAPI 3.0's `nullable: true` is read: it admits null to the `type` of its own schema
/// (as every command reads it), so it cannot be pooled with the other side's `type`.
const NULLABLE: &str = "OpenAPI's `nullable` admits null to the `type` of its own schema only";

/// How a draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` is read: it makes the
/// `minimum`/`maximum` of its own schema exclusive (JSON Schema draft-04 validation §5.1), so
/// neither can be pooled with the other side's bound.
const DRAFT4_BOUND: &str = "a draft-04 boolean `exclusiveMinimum` or `exclusiveMaximum` makes its own schema's bound exclusive";

/// What inlining does with a keyword beside a `$ref` that its target also sets, to another
/// value (so that the two schemas cannot be merged into one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conflicts {
    /// Refuse to inline the schema (the profile rejects `allOf`).
    Refuse,
    /// Write `allOf: [target, siblings]`, which applies both, as the `$ref` did.
    AllOf,
}

impl Conflicts {
    /// What repair does under `profile`: what JSON Schema applies together beside a `$ref`
    /// stays together as `allOf` where the profile does not reject `allOf`. Check asks the
    /// same, so that its "(repairable)" and fix agree with what repair writes.
    pub fn under(profile: &crate::profile::CompiledProfile) -> Conflicts {
        use crate::profile::compiled::Slot;
        use crate::profile::feature::Feat;
        match profile.lookup(&Feat::Keyword("allOf"), crate::case::Placement::Nested) {
            Slot::Rejected(_) => Conflicts::Refuse,
            _ => Conflicts::AllOf,
        }
    }
}

/// The containers of definitions, dropped once every reference into them is inlined.
fn is_definitions(k: &str) -> bool {
    k == "$defs" || k == "definitions"
}

/// Why a schema's references cannot be inlined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// JSON Pointer of the `$ref` (or of the schema, for the cap) in the schema as written:
    /// inside a definition, the place in `$defs` the user edits, never one that exists only
    /// in the expanded copy.
    pub pointer: String,
    /// How the expansion reached `pointer`: the places (as written) of the schemas whose
    /// `$ref`s were being inlined, outermost first; empty where `pointer` was reached as
    /// written (outside every definition). Said after the place ([`Refusal::place`]): the
    /// same definition may be reached from several properties.
    pub reached_through: Vec<String>,
    /// Why, in words (a cycle, a missing or remote target, a chain or expansion past a cap).
    pub reason: String,
    /// Whether `pointer` is a `$ref` that cannot be inlined (a place of its own), not the place
    /// where the expansion or nesting cap stopped the schema as a whole.
    pub reference: bool,
    /// What kind of problem it is, which decides the advice ([`Cause::advice`]).
    pub cause: Cause,
}

impl Refusal {
    /// Where the refusal arose, in words: its JSON Pointer as written ("the schema's root" for
    /// the empty one), then, inside a definition, ", reached through /properties/n" (the
    /// `$ref`s followed to get there; past three, the first, how many more and the last).
    pub fn place(&self) -> String {
        let at = if self.pointer.is_empty() {
            "the schema's root"
        } else {
            &self.pointer
        };
        // A root that is itself a `$ref` holds the outermost one.
        let named: Vec<&str> = self
            .reached_through
            .iter()
            .map(|p| if p.is_empty() { "the root" } else { p.as_str() })
            .collect();
        let through = match named.as_slice() {
            [] => return at.to_string(),
            [first, .., last] if named.len() > 3 => format!(
                "{first}, then {} more `$ref`s, then {last}",
                named.len() - 2
            ),
            all => all.join(", then "),
        };
        format!("{at}, reached through {through}")
    }
}

/// The kinds of [`Refusal`], each fixed its own way: advice for one (flattening, for a schema
/// too large to inline) misleads about another (a keyword beside a `$ref` that contradicts
/// its definition needs no flattening).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// A keyword beside a `$ref` that cannot be said together with its definition in one
    /// schema (set differently, with `allOf` rejected, or leaving no valid value).
    Clash,
    /// A keyword beside a `$ref` that the draft the root's `$schema` declares (04 to 07)
    /// ignores there, but that would apply once pooled with the definition.
    Ignored,
    /// A `$ref` that refers to nothing (no such definition, or not a string).
    Dangling,
    /// The schema's shape: recursion, a cycle, a chain too long, a remote reference, or the
    /// expansion or nesting cap.
    Shape,
}

impl Cause {
    /// What to do by hand, said after the refusal's reason.
    pub fn advice(self) -> &'static str {
        match self {
            Cause::Clash => {
                "Make the keyword beside the `$ref` agree with the definition's, or move it \
                 into the definition and drop it beside the `$ref`."
            }
            // Moving it into the definition would make it apply: only removing it keeps
            // every call as it was.
            Cause::Ignored => {
                "Remove the keyword beside the `$ref`: the draft ignores it there, so no \
                 argument changes."
            }
            Cause::Dangling => {
                "Point the `$ref` at a definition that exists (or add the one it names)."
            }
            Cause::Shape => {
                "Flatten the schema by hand (shorter chains, fewer repeated references), or \
                 take a JSON string for that part."
            }
        }
    }
}

/// One `$ref` that was inlined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inlined {
    /// Where the `$ref` was, as the result has it: inside a copy of a definition, the place
    /// of the copy (what a reader of the result finds there), not the definition's own.
    pub pointer: String,
    /// The reference as written (`#/$defs/A`).
    pub reference: String,
    /// The annotations of the target (`description`, `title`, ...) that a keyword beside the
    /// `$ref` replaced, with the target's values: what the provider no longer sees there.
    pub replaced: Vec<(String, Value)>,
    /// What kept the keywords beside the `$ref` from its target, when the two were kept as
    /// the branches of an `allOf` ([`Conflicts::AllOf`]).
    pub all_of: Option<Conflict>,
}

/// Why `toolwire repair` (with its default expansion cap, [`MAX_INLINE_NODES`]) refuses to
/// inline the local `$ref`s of `root`, or `None` when it inlines them all. The one decision
/// both `repair` and `check`'s "(repairable)" mark for `ref-unsupported` rest on, so they
/// cannot disagree: a chain past the hop limit or a `$ref` "bomb" anywhere in the schema
/// leaves every reference of it unrepaired, since repair inlines the whole schema or nothing.
pub fn refusal(root: &Value) -> Option<Refusal> {
    inline(root, MAX_INLINE_NODES).err()
}

/// [`refusal`], with a keyword beside a `$ref` that its target sets differently handled as
/// `conflicts` says (see [`Conflicts::under`]).
pub fn refusal_with(root: &Value, conflicts: Conflicts) -> Option<Refusal> {
    inline_with(root, MAX_INLINE_NODES, conflicts).err()
}

/// The words of a [`Refusal`] as `repair` reports them: the reason and where it arose.
pub fn refusal_text(r: &Refusal) -> String {
    format!("{} (at {})", r.reason, r.place())
}

/// [`refusal_text`] as said of the `$ref` (or `$defs`) at `own`: when the refusal is another
/// `$ref`'s, it says so, since repair inlines every reference of a schema or none and that one
/// keeps `own` from being inlined too.
pub fn refusal_text_for(r: &Refusal, own: &str) -> String {
    if !r.reference || r.pointer == own {
        return refusal_text(r);
    }
    format!(
        "repair inlines all of a schema's `$ref`s or none, and cannot inline the one at {}: {}",
        r.place(),
        r.reason
    )
}

/// What `repair` says of a `$ref` (or `$defs`) refused because another `$ref`, the one `r` is
/// about, cannot be inlined, when the report has a line of that one's own: that one's place,
/// its reason left to its line (said here, it would read as this place's).
pub fn refused_with(r: &Refusal) -> String {
    format!(
        "repair inlines all of the schema's `$ref`s or none, and cannot inline the one at {} \
         (see its line)",
        r.place()
    )
}

/// Inlines every local `$ref` of `root`. Returns the new schema, the references inlined and
/// the places (as written) of the containers of definitions dropped ([`Inlining`]), or the
/// first reason it cannot be done: a remote, anchor, missing or recursive reference, a cycle
/// or a chain longer than [`MAX_REF_HOPS`] hops (followed in a row, or nested each in the
/// target of the one before), a result nesting deeper than
/// [`crate::input::LIMITS`]`.max_depth`, or more than `max_nodes` schema nodes (at most
/// [`MAX_INLINE_NODES_CEILING`], whatever is asked). The recursion
/// is at most one level per level of the result plus two per reference being expanded, so
/// it stays within a few hundred frames whatever `root` holds; it runs on a thread with a
/// stack of its own ([`crate::json::on_deep_stack`]), so it fits a caller on a small stack.
pub fn inline(root: &Value, max_nodes: usize) -> Result<Inlining, Refusal> {
    inline_with(root, max_nodes, Conflicts::Refuse)
}

/// [`inline`], with a keyword beside a `$ref` that its target sets differently handled as
/// `conflicts` says.
pub fn inline_with(
    root: &Value,
    max_nodes: usize,
    conflicts: Conflicts,
) -> Result<Inlining, Refusal> {
    let max_nodes = max_nodes.min(MAX_INLINE_NODES_CEILING);
    let mut cx = Cx {
        root,
        conflicts,
        budget: max_nodes,
        max_nodes,
        max_depth: crate::input::LIMITS.max_depth,
        stack: Vec::new(),
        done: Vec::new(),
        dropped: Vec::new(),
    };
    // A few hundred frames of a few KB each in a debug build: more than a 2 MiB thread has.
    // A schema that cannot recurse that deep is expanded in place: a thread of its own costs
    // more than the whole expansion of a usual schema (`check` asks this of every tool with a
    // `$ref` finding).
    let mut expand = || {
        // On the thread that expands: the memo is the thread's own.
        let _declarations = shared::indexed(root);
        cx.expand(root, &Place::root(), 1)
    };
    let out = if frames_at_most(root) <= IN_PLACE_FRAMES {
        expand()
    } else {
        crate::json::on_deep_stack(expand)
    }?;
    Ok((out, cx.done, cx.dropped))
}

/// What [`inline`] makes of a schema: the schema with every local `$ref` inlined, the
/// references inlined, and the JSON Pointers of the containers of definitions (`$defs`,
/// `definitions`) it dropped, as written (those inside a copy of a definition go with it).
pub type Inlining = (Value, Vec<Inlined>, Vec<String>);

/// Most frames of [`inline`]'s recursion run on the caller's stack (a few KB each in a debug
/// build, well within the 2 MiB of a test thread).
const IN_PLACE_FRAMES: usize = 64;

/// A bound on the frames [`inline`] recurses through for `root`: one per level of the result
/// plus two per reference being expanded. With `d` the nesting of `root` and `r` its `$ref`s,
/// the result nests at most `d` levels per reference stacked on the way (`d * (r + 1)`), and
/// at most `r` references are ever being expanded at once.
fn frames_at_most(root: &Value) -> usize {
    let mut refs = 0usize;
    let mut depth = 0usize;
    let mut stack = vec![(root, 1usize)];
    while let Some((v, d)) = stack.pop() {
        depth = depth.max(d);
        match v {
            Value::Object(m) => {
                refs += usize::from(m.contains_key("$ref"));
                stack.extend(m.values().map(|x| (x, d + 1)));
            }
            Value::Array(a) => stack.extend(a.iter().map(|x| (x, d + 1))),
            _ => {}
        }
    }
    depth.saturating_mul(refs + 1).saturating_add(2 * refs)
}

struct Cx<'a> {
    root: &'a Value,
    conflicts: Conflicts,
    budget: usize,
    max_nodes: usize,
    /// Deepest nesting of the result (brackets counted, as files are).
    max_depth: usize,
    /// The references being expanded, outermost first (the cycle guard and the nesting
    /// limit): the decoded pointer of the target, where the schema holding the `$ref` is
    /// written and the `$ref`'s text.
    stack: Vec<Expanding>,
    done: Vec<Inlined>,
    /// The containers of definitions dropped, as written ([`Inlining`]).
    dropped: Vec<String>,
}

struct Expanding {
    target: String,
    holder: String,
    text: String,
}

/// A subschema's place twice over. Inside a copy of a definition the two differ: the copy
/// goes where the `$ref` was (`out`, what the report of inlined `$ref`s names), while the user
/// edits the definition where it is written (`written`, what a refusal names, with
/// [`Refusal::reached_through`] saying how it was reached).
struct Place {
    out: String,
    written: String,
}

impl Place {
    fn root() -> Place {
        Place {
            out: String::new(),
            written: String::new(),
        }
    }

    fn push(&self, token: &str) -> Place {
        Place {
            out: push_token(&self.out, token),
            written: push_token(&self.written, token),
        }
    }
}

impl Cx<'_> {
    /// Whether keyword `k` of the schema at `at` is a container of definitions, which goes:
    /// with every `$ref` inlined, none names what it holds, wherever it is (a `$defs` in an
    /// `anyOf` branch too). Noted when it is written there, not in a copy of a definition.
    fn drops(&mut self, k: &str, at: &Place) -> bool {
        let drops = is_definitions(k);
        if drops && self.stack.is_empty() {
            self.dropped.push(push_token(&at.written, k));
        }
        drops
    }

    /// The written places of the schemas whose `$ref`s are being expanded, outermost first.
    fn reached_through(&self) -> Vec<String> {
        self.stack.iter().map(|e| e.holder.clone()).collect()
    }

    fn spend(&mut self, at: &Place) -> Result<(), Refusal> {
        if self.budget == 0 {
            return Err(Refusal {
                pointer: at.written.clone(),
                reached_through: self.reached_through(),
                reference: false,
                cause: Cause::Shape,
                reason: format!(
                    "inlining the `$ref`s would grow the schema past {} nodes (the expansion cap)",
                    self.max_nodes
                ),
            });
        }
        self.budget -= 1;
        Ok(())
    }

    /// The refusal for an inlining that would nest the schema past the nesting cap.
    fn too_deep(&self, at: &Place) -> Refusal {
        Refusal {
            pointer: at.written.clone(),
            reached_through: self.reached_through(),
            reference: false,
            cause: Cause::Shape,
            reason: format!(
                "inlining the `$ref`s would nest the schema deeper than {} levels (the nesting \
                 cap)",
                self.max_depth
            ),
        }
    }

    /// Expands the subschema `node` found at `at` (a copy of a target goes where its `$ref`
    /// was, and is written where the target is), which sits `depth` levels deep in the result
    /// (the root object is 1).
    fn expand(&mut self, node: &Value, at: &Place, depth: usize) -> Result<Value, Refusal> {
        let Value::Object(map) = node else {
            return Ok(node.clone());
        };
        if depth > self.max_depth {
            return Err(self.too_deep(at));
        }
        self.spend(at)?;
        if let Some(r) = map.get("$ref") {
            return self.resolve(map, r, at, depth);
        }
        // A `$dynamicRef` names a `$dynamicAnchor`, which inlining takes out of its copies and
        // whose definitions it drops: it would be left pointing to nothing, so it refuses.
        if let Some(r) = map.get("$dynamicRef") {
            let text = r.as_str().unwrap_or("");
            return Err(Refusal {
                pointer: push_token(&at.written, "$dynamicRef"),
                reached_through: self.reached_through(),
                reason: format!(
                    "`$dynamicRef` to `{text}`: toolwire does not inline dynamic references, \
                     and inlining the others would leave it pointing to nothing"
                ),
                reference: true,
                cause: Cause::Shape,
            });
        }
        let mut out = Map::new();
        for (k, v) in map {
            if self.drops(k, at) {
                continue;
            }
            out.insert(k.clone(), self.keyword(k, v, at, depth)?);
        }
        Ok(Value::Object(out))
    }

    /// The value of keyword `k` of the subschema at `at` (`depth` levels deep), with the
    /// subschemas it holds expanded.
    fn keyword(&mut self, k: &str, v: &Value, at: &Place, depth: usize) -> Result<Value, Refusal> {
        let here = at.push(k);
        Ok(if MAP_OF_SCHEMAS.contains(&k) && v.is_object() {
            let mut m = Map::new();
            for (name, sub) in v.as_object().into_iter().flatten() {
                m.insert(name.clone(), self.expand(sub, &here.push(name), depth + 2)?);
            }
            Value::Object(m)
        } else if (ONE_SCHEMA.contains(&k) || k == "items") && v.is_object() {
            self.expand(v, &here, depth + 1)?
        } else if k == "dependencies"
            && let Some(members) = v.as_object()
        {
            // The schema form's members are subschemas; a property list is data.
            let mut m = Map::new();
            for (name, sub) in members {
                let sub = match sub {
                    Value::Object(_) => self.expand(sub, &here.push(name), depth + 2)?,
                    _ => sub.clone(),
                };
                m.insert(name.clone(), sub);
            }
            Value::Object(m)
        } else if (LIST_OF_SCHEMAS.contains(&k) || k == "items") && v.is_array() {
            let mut list = Vec::new();
            for (i, sub) in v.as_array().into_iter().flatten().enumerate() {
                let place = here.push(&i.to_string());
                list.push(self.expand(sub, &place, depth + 2)?);
            }
            Value::Array(list)
        } else {
            // A keyword whose value is data (`enum`, `const`, `default`, `required`...).
            v.clone()
        })
    }

    fn resolve(
        &mut self,
        map: &Map<String, Value>,
        reference: &Value,
        at: &Place,
        depth: usize,
    ) -> Result<Value, Refusal> {
        let here = at.push("$ref");
        let through = self.reached_through();
        let refuse = |reason: String| Refusal {
            pointer: here.written.clone(),
            reached_through: through.clone(),
            reason,
            reference: true,
            cause: Cause::Shape,
        };
        let Some(text) = reference.as_str() else {
            return Err(Refusal {
                cause: Cause::Dangling,
                ..refuse("`$ref` is not a string".into())
            });
        };
        // Read where the `$ref` is written (inside a copy, in its definition), so that a
        // reference inside a subschema with its own `$id` names what it names there.
        let first = shared::step_from(self.root, &at.written, text);
        if first == shared::Step::Remote {
            return Err(refuse(format!(
                "`$ref` to `{text}` is remote; toolwire never fetches schemas"
            )));
        }
        // The whole chain from here first, with the resolver every command shares: a cycle or
        // an over-long chain is refused in the same words as `check`, `compile` and `args`
        // use, before any recursion.
        let chain = shared::follow_from(self.root, &at.written, text);
        if let Some(problem) = shared::chain_problem(text, &chain) {
            return Err(refuse(problem));
        }
        let (target, decoded) = match first {
            shared::Step::Local(target, decoded) => (target, decoded),
            other => {
                return Err(Refusal {
                    cause: Cause::Dangling,
                    ..refuse(shared::unresolved(text, &other).unwrap_or_default())
                });
            }
        };
        if self.stack.iter().any(|e| e.target == decoded) {
            return Err(refuse(format!(
                "`$ref` to `{text}` is recursive; a recursive schema cannot be written out"
            )));
        }
        if self.stack.len() >= MAX_REF_HOPS {
            let outer = &self.stack[0];
            return Err(Refusal {
                pointer: push_token(&outer.holder, "$ref"),
                reached_through: Vec::new(),
                reason: shared::too_long_nested(&outer.text),
                reference: true,
                cause: Cause::Shape,
            });
        }
        let copy = Place {
            out: at.out.clone(),
            written: decoded.clone(),
        };
        self.stack.push(Expanding {
            target: decoded,
            holder: at.written.clone(),
            text: text.to_string(),
        });
        let expanded = self.expand(target, &copy, depth);
        self.stack.pop();
        let mut expanded = expanded?;
        // The copy is not the schema that declared the anchor or the resource: two schemas may
        // not declare one, and with every `$ref` inlined nothing names them any more.
        if let Value::Object(obj) = &mut expanded {
            obj.shift_remove("$anchor");
            obj.shift_remove("$dynamicAnchor");
            obj.shift_remove("$id");
        }
        self.done.push(Inlined {
            pointer: here.out.clone(),
            reference: text.to_string(),
            replaced: Vec::new(),
            all_of: None,
        });
        let done = self.done.len() - 1;
        // Definitions beside the `$ref` go with every reference to them, as where there is no
        // `$ref`.
        let mut siblings: Vec<(&String, &Value)> = Vec::new();
        for (k, v) in map {
            if k != "$ref" && !self.drops(k, at) {
                siblings.push((k, v));
            }
        }
        if siblings.is_empty() {
            return Ok(expanded);
        }
        // Drafts 04 to 07 ignore keywords beside a `$ref` (as `toolwire args` does): pooled
        // with the target they refused calls the original accepts (trial 48 D4).
        // Pooling one that only annotates, or that says what the target already says (a
        // `type` equal to its own), changes no call either way (trial 50 D14: refused since).
        if !ref_siblings_apply(self.root)
            && let Some((k, _)) = siblings
                .iter()
                .find(|(k, v)| asserts_beside_ref(k, v, Some(&expanded)))
        {
            return Err(Refusal {
                cause: Cause::Ignored,
                ..refuse(format!(
                    "`$ref` to `{text}` has `{k}` beside it, which the draft the root's \
                     `$schema` declares (04 to 07) ignores there: pooled with the target, it \
                     would refuse arguments the schema accepts"
                ))
            });
        }
        let Value::Object(obj) = &mut expanded else {
            return Err(Refusal {
                cause: Cause::Clash,
                ..refuse(format!(
                    "`$ref` to `{text}` has keywords next to it but its target is not an object \
                     schema"
                ))
            });
        };
        // Expanded first, so that a sibling holding the same `$ref` as the target compares equal.
        let mut beside = Map::new();
        for (k, v) in siblings {
            beside.insert(k.clone(), self.keyword(k, v, at, depth)?);
        }
        // Two values of a keyword that leave no valid value (`type: string` beside
        // `integer`) cannot be merged; where `allOf` is rejected the refusal says so plainly
        // (an `allOf`, where allowed, still says exactly what the `$ref` did).
        if self.conflicts == Conflicts::Refuse
            && let Some((_, words)) = clash(obj, &beside)
        {
            return Err(Refusal {
                cause: Cause::Clash,
                ..refuse(format!("`$ref` to `{text}`: {words}"))
            });
        }
        let Some(k) = conflict(obj, &beside) else {
            join(obj, beside, &mut self.done[done].replaced);
            return Ok(expanded);
        };
        if self.conflicts == Conflicts::Refuse {
            return Err(Refusal {
                cause: Cause::Clash,
                ..refuse(format!("`$ref` to `{text}` sits next to {}", k.words()))
            });
        }
        // Two levels deeper (`allOf` and its list), and three nodes more.
        if depth + 2 + crate::json::value_depth(&expanded) > self.max_depth {
            return Err(self.too_deep(at));
        }
        for _ in 0..3 {
            self.spend(at)?;
        }
        // Annotations stay on the schema itself, where the provider reads them.
        let (notes, rest): (Map<String, Value>, Map<String, Value>) = beside
            .into_iter()
            .partition(|(k, _)| ANNOTATIONS.contains(&k.as_str()));
        let mut out = notes;
        out.insert(
            "allOf".into(),
            Value::Array(vec![expanded, Value::Object(rest)]),
        );
        self.done[done].all_of = Some(k);
        Ok(Value::Object(out))
    }
}

/// The first keyword both `target` and `beside` set whose two values no value satisfies
/// together (two `type`s or `enum`s with nothing in common), with [`merge`]'s words saying so:
/// such a pair cannot be joined into one schema, nor written as any schema but one refusing
/// all.
pub(crate) fn clash<'b>(
    target: &Map<String, Value>,
    beside: &'b Map<String, Value>,
) -> Option<(&'b str, String)> {
    beside.iter().find_map(|(k, v)| {
        target
            .get(k)
            .and_then(|t| merge(k, t, v))
            .and_then(Result::err)
            .map(|words| (k.as_str(), words))
    })
}

/// Joins `beside`'s keywords into `target`, which must have no [`conflict`] with them: a
/// keyword both set equally is kept once, an annotation of `beside` replaces the target's
/// (whose value is pushed onto `replaced`), `properties` are pooled, and a keyword of
/// [`merge`]'s table becomes the conjunction of the two.
pub(crate) fn join(
    target: &mut Map<String, Value>,
    beside: Map<String, Value>,
    replaced: &mut Vec<(String, Value)>,
) {
    for (k, v) in beside {
        let joined = match target.get(&k) {
            Some(existing) if *existing == v => continue,
            Some(existing) if ANNOTATIONS.contains(&k.as_str()) => {
                replaced.push((k.clone(), existing.clone()));
                v
            }
            Some(existing) => match (merge(&k, existing, &v), existing, v) {
                (Some(Ok(both)), _, _) => both,
                (_, Value::Object(props), Value::Object(more)) => {
                    let mut props = props.clone();
                    props.extend(more);
                    Value::Object(props)
                }
                (_, _, v) => v,
            },
            None => v,
        };
        target.insert(k, joined);
    }
}

/// What keeps the keywords beside a `$ref` from being merged into its target ([`conflict`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The keyword beside the `$ref`.
    pub keyword: String,
    /// `None`: the target sets `keyword` too, to another value. `Some(k)`: `keyword` is one of
    /// a group of [`RELATED`] keywords, and the target sets `k` of that group, which JSON
    /// Schema reads with the target's own keywords only, as `keyword` with those beside it.
    pub target_sets: Option<String>,
}

impl Conflict {
    /// Why, in words, after "sits next to " ("sits next to `additionalProperties` while its
    /// target sets `properties`: ...").
    pub fn words(&self) -> String {
        let k = &self.keyword;
        match &self.target_sets {
            None => format!("`{k}`, which its target also sets differently"),
            Some(j) => {
                let how = if [k, j].iter().any(|x| *x == "nullable") {
                    NULLABLE
                } else {
                    RELATED
                        .iter()
                        .find(|(group, _)| group.contains(&k.as_str()))
                        .map_or(DRAFT4_BOUND, |(_, how)| how)
                };
                format!(
                    "`{k}` while its target sets `{j}`: JSON Schema reads each with the keywords \
                     of its own schema only ({how}), so pooled into one schema they could \
                     accept other values"
                )
            }
        }
    }

    /// The same, shorter, for a line saying the two were kept apart as `allOf` branches.
    pub fn kept_apart(&self) -> String {
        match &self.target_sets {
            None => format!("both set `{}`", self.keyword),
            Some(j) => format!(
                "`{}` beside it is read apart from the target's `{j}`",
                self.keyword
            ),
        }
    }
}

/// The first keyword beside a `$ref` (`beside`) that keeps it from being merged into its
/// target: one the target sets to another value (an annotation replaces the target's;
/// `properties` declaring other names are joined, and a keyword of
/// [`crate::repair::conjunction`]'s table merged), or one of a group of
/// [`RELATED`] keywords that both use, other than `properties` alone on each side. Of a
/// group, the keyword named is one the two sides do not set alike, other than `properties`
/// where there is one (the keyword whose reach pooling would change).
pub(crate) fn conflict(
    target: &Map<String, Value>,
    beside: &Map<String, Value>,
) -> Option<Conflict> {
    let joined = |k: &str, ours: &Value, theirs: &Value| match (k, ours, theirs) {
        (k, ours, theirs) if matches!(merge(k, ours, theirs), Some(Ok(_))) => true,
        ("properties", Value::Object(a), Value::Object(b)) => {
            b.iter().all(|(name, s)| a.get(name).is_none_or(|t| t == s))
        }
        _ => ANNOTATIONS.contains(&k),
    };
    if let Some((k, _)) = beside
        .iter()
        .find(|(k, v)| target.get(*k).is_some_and(|t| t != *v && !joined(k, t, v)))
    {
        return Some(Conflict {
            keyword: k.clone(),
            target_sets: None,
        });
    }
    if let Some(c) = draft4_bounds(target, beside) {
        return Some(c);
    }
    for (a, b) in [(target, beside), (beside, target)] {
        if a.get("nullable") == Some(&Value::Bool(true))
            && b.contains_key("type")
            && b.get("nullable") != Some(&Value::Bool(true))
        {
            let named = |m: &Map<String, Value>| {
                if m.contains_key("nullable") {
                    "nullable"
                } else {
                    "type"
                }
                .to_string()
            };
            return Some(Conflict {
                keyword: named(beside),
                target_sets: Some(named(target)),
            });
        }
    }
    RELATED.iter().find_map(|(group, _)| {
        let ours: Vec<&String> = target
            .keys()
            .filter(|k| group.contains(&k.as_str()))
            .collect();
        let theirs: Vec<&String> = beside
            .keys()
            .filter(|k| group.contains(&k.as_str()))
            .collect();
        let pooled = ours.is_empty()
            || theirs.is_empty()
            || (ours == ["properties"] && theirs == ["properties"])
            || (ours.len() == theirs.len()
                && theirs.iter().all(|k| target.get(*k) == beside.get(*k)));
        if pooled {
            return None;
        }
        let named = |side: &[&String], this: &Map<String, Value>, other: &Map<String, Value>| {
            let unlike: Vec<&String> = side
                .iter()
                .copied()
                .filter(|k| this.get(*k) != other.get(*k))
                .collect();
            unlike
                .iter()
                .find(|k| **k != "properties")
                .or(unlike.first())
                .copied()
                .unwrap_or(side[0])
                .clone()
        };
        Some(Conflict {
            keyword: named(&theirs, beside, target),
            target_sets: Some(named(&ours, target, beside)),
        })
    })
}

/// [`conflict`] for the draft-04 bounds ([`DRAFT4_BOUND`]): a boolean `exclusiveMinimum`
/// (`exclusiveMaximum`) on either side while the other sets a lower (upper) bound.
fn draft4_bounds(target: &Map<String, Value>, beside: &Map<String, Value>) -> Option<Conflict> {
    for (bound, exclusive) in [
        ("minimum", "exclusiveMinimum"),
        ("maximum", "exclusiveMaximum"),
    ] {
        let sets = |m: &Map<String, Value>| m.contains_key(bound) || m.contains_key(exclusive);
        let boolean = |m: &Map<String, Value>| m.get(exclusive).is_some_and(Value::is_boolean);
        if (boolean(target) || boolean(beside)) && sets(target) && sets(beside) {
            let named =
                |m: &Map<String, Value>| if boolean(m) { exclusive } else { bound }.to_string();
            return Some(Conflict {
                keyword: named(beside),
                target_sets: Some(named(target)),
            });
        }
    }
    None
}

/// Whether keywords beside a `$ref` apply together with it in the schema `root`: from JSON
/// Schema 2019-09 on they do (the default, as every command reads a schema without `$schema`
/// as 2020-12); drafts 04 to 07, declared by the root's `$schema`, ignore them (draft-07 core
/// §8.3: "All other properties in a \"$ref\" object MUST be ignored").
pub fn ref_siblings_apply(root: &Value) -> bool {
    !root
        .get("$schema")
        .and_then(Value::as_str)
        .is_some_and(|s| {
            ["draft-03", "draft-04", "draft-06", "draft-07"]
                .iter()
                .any(|d| s.contains(d))
        })
}

/// Whether keyword `k: v` beside a `$ref` whose target is `target` (`None`: not reached)
/// changes what the schema accepts where it applies (JSON Schema 2019-09 on): not when it only
/// annotates, nor when it says what the target says already (trial 50 D14).
fn asserts_beside_ref(k: &str, v: &Value, target: Option<&Value>) -> bool {
    !crate::profile::rules::ANNOTATIONS.contains(&k)
        && !["$schema", "$id"].contains(&k)
        && target.is_none_or(|t| t.get(k) != Some(v))
}

/// The first keyword of `map` (a schema holding a `$ref` whose target is `target`; `None`: not
/// reached) that [`asserts_beside_ref`], other than `$ref` and the definitions a `$ref` may
/// point into.
fn beside<'m>(map: &'m Map<String, Value>, target: Option<&Value>) -> Option<&'m String> {
    map.iter()
        .find(|(k, v)| {
            !matches!(k.as_str(), "$ref" | "$defs" | "definitions")
                && asserts_beside_ref(k, v, target)
        })
        .map(|(k, _)| k)
}

/// Whether [`ignored_beside_ref`], [`draft_tuple_items`] or [`draft_resolved_ref`] may find
/// something in `root`: its `$schema` declares draft-04 to 07 ([`ref_siblings_apply`]) and some
/// object holds what one of them looks for first (a string `$ref` with a keyword beside it that
/// asserts, a list `items`, a string `id` or `$id`). `false` says all three are `None`, from one
/// scan without pointers where each would make its own: `check` asks this of every tool with a
/// root `$schema` finding (zod-to-json-schema writes draft-07's), almost all of which hold none.
pub fn draft_may_decide(root: &Value) -> bool {
    !ref_siblings_apply(root)
        && crate::schema::any_object(root, |m| {
            // The keys read, not looked up: each lookup hashes the key, and most maps are small.
            m.iter().any(|(k, v)| match k.as_str() {
                "$ref" => v.is_string() && beside(m, None).is_some(),
                "items" => v.is_array(),
                "id" | "$id" => v.is_string(),
                _ => false,
            })
        })
}

/// Where the root's `$schema` declares draft-04 to 07 ([`ref_siblings_apply`]): the place of
/// the first `$ref` of `root` with a keyword beside it that such a draft ignores and a later
/// one applies ([`asserts_beside_ref`]), and that keyword. Dropping the `$schema` would make
/// the schema read as 2020-12 and that keyword apply, refusing arguments the schema accepts
/// (trial 50 D2), as inlining the `$ref` would (the inliner refuses it the same way).
pub fn ignored_beside_ref(root: &Value) -> Option<(String, String)> {
    // Most draft-07 schemas (zod-to-json-schema writes that `$schema`) hold no `$ref` with
    // such a keyword beside it: a scan without pointers says so before a walk that writes one
    // per subschema and follows every `$ref` (`check` asks this of each such tool).
    let some = || {
        crate::schema::any_object(root, |m| {
            m.get("$ref").is_some_and(Value::is_string) && beside(m, None).is_some()
        })
    };
    if ref_siblings_apply(root) || !some() {
        return None;
    }
    crate::schema::walk(root).nodes.iter().find_map(|n| {
        let map = n.object()?;
        let text = map.get("$ref")?.as_str()?;
        let target = match crate::schema::refs::follow_from(root, &n.pointer, text) {
            crate::schema::refs::Chain::Reaches { schema, .. } => Some(schema),
            _ => None,
        };
        beside(map, target).map(|k| (n.pointer.clone(), k.clone()))
    })
}

/// Where the root's `$schema` declares draft-04 to 07 ([`ref_siblings_apply`]): the place of
/// the first `items` of `root` written as a list of schemas, the tuple form of those drafts
/// (draft-07 validation §6.4.1), which 2020-12 replaced by `prefixItems` (2020-12 core
/// §10.3.1.1: `items` is one schema). Dropping the `$schema` would make the schema read as
/// 2020-12, where it is no valid schema (trial 54 D11).
pub fn draft_tuple_items(root: &Value) -> Option<String> {
    // `check` asks this of every draft-07 tool with a root `$schema` finding: a scan without
    // pointers answers "none" before a walk that writes one per subschema.
    if ref_siblings_apply(root)
        || !crate::schema::any_object(root, |m| m.get("items").is_some_and(Value::is_array))
    {
        return None;
    }
    crate::schema::walk(root).nodes.iter().find_map(|n| {
        n.object()?
            .get("items")?
            .is_array()
            .then(|| crate::json::push_token(&n.pointer, "items"))
    })
}

/// The place of the first `$ref` of `root` that reaches another schema, or none, once keyword
/// `key` is removed from the schema at `at` ([`shared::step_from`], as `args` resolves): `key`
/// is then no mere annotation. For a root `$schema` ([`draft_resolved_ref`]); the keyword that
/// declares a resource has [`id_moves_ref`], which compares only the `$ref`s it may move.
/// `None` when no `$ref` moves, or nothing is at `at/key`. Clones and walks the schema.
pub fn moved_ref_without(root: &Value, at: &str, key: &str) -> Option<String> {
    let without = without_key(root, at, key)?;
    crate::schema::walk(root).nodes.iter().find_map(|n| {
        let text = n.object()?.get("$ref")?.as_str()?;
        (lands(shared::step_from(root, &n.pointer, text))
            != lands(shared::step_from(&without, &n.pointer, text)))
        .then(|| push_token(&n.pointer, "$ref"))
    })
}

/// [`moved_ref_without`] for the keyword `key` declaring a resource at `at` (`$id`; draft-04's
/// `id`), where `refs` are the `$ref`s of `root`. A `$ref` written as a JSON Pointer fragment
/// (`#/$defs/V`) in that resource reaches another place without it (the resource around it
/// holds the fragment instead): found by a walk of the subschema alone, as `check` asks this
/// of each such keyword it reports. A `$ref` that names a resource or an anchor (`x.json#/a`,
/// `#name`) is compared with and without `key` only where it may move: written below `at`,
/// reaching below it or nothing, or naming an anchor of a resource around it
/// ([`RefList::named`], listed once per schema).
pub fn id_moves_ref(root: &Value, at: &str, key: &str, refs: &RefList) -> Option<String> {
    let sub = root.pointer(at)?;
    let below = crate::schema::walk(sub).nodes.iter().find_map(|n| {
        let text = n.object()?.get("$ref")?.as_str()?;
        let fragment = text.strip_prefix('#')?;
        let from = format!("{at}{}", n.pointer);
        (fragment.is_empty() || fragment.starts_with('/'))
            .then(|| shared::resource(root, &from).1 == at)?
            .then(|| push_token(&from, "$ref"))
    });
    if below.is_some() {
        return below;
    }
    let inside = |p: &str| crate::schema::at_or_inside(p, at);
    let mut may_move = refs
        .named(root)
        .iter()
        .filter(|r| {
            inside(&r.from)
                || r.lands.as_deref().is_ok_and(inside)
                || r.lands.is_err()
                || (r.anchor && crate::schema::at_or_inside(at, &r.resource))
        })
        .peekable();
    may_move.peek()?;
    let without = without_key(root, at, key)?;
    may_move
        .find(|r| lands(shared::step_from(&without, &r.from, &r.text)) != r.lands)
        .map(|r| push_token(&r.from, "$ref"))
}

/// A copy of `root` without keyword `key` of the schema at `at`; `None` where it has none.
fn without_key(root: &Value, at: &str, key: &str) -> Option<Value> {
    let mut without = root.clone();
    without
        .pointer_mut(at)?
        .as_object_mut()?
        .shift_remove(key)?;
    Some(without)
}

/// Where one step of a `$ref` lands: the place it reaches, else what kind of failure it is.
fn lands(step: shared::Step<'_>) -> Result<String, u8> {
    match step {
        shared::Step::Local(_, pointer) => Ok(pointer),
        shared::Step::Remote => Err(0),
        shared::Step::Missing => Err(1),
        shared::Step::Ambiguous(_) => Err(2),
        shared::Step::Unsearched(_) => Err(3),
    }
}

/// A `$ref` that names a resource or an anchor ([`RefList::named`]).
#[derive(Debug)]
pub struct Named {
    /// Where it is written (the schema holding it).
    from: String,
    text: String,
    /// Where its first step lands ([`shared::step_from`]).
    lands: Result<String, u8>,
    /// Whether it names an anchor (`#name`), and the resource it is read in.
    anchor: bool,
    resource: String,
}

/// Where the root's `$schema` declares draft-04 to 07 ([`ref_siblings_apply`]): the place of
/// the first `$ref` that the draft resolves through an `id` (`$id` from draft-06: a base URI,
/// or a `#name`), and that would reach another schema, or none, were `$schema` dropped and the
/// schema read as 2020-12 ([`moved_ref_without`]; trial 54 D5).
pub fn draft_resolved_ref(root: &Value) -> Option<String> {
    // `check` asks this of every draft-07 tool with a root `$schema` finding: a scan without
    // pointers for a string `id` or `$id` answers "none" for almost all (zod writes neither).
    let declares = |m: &Map<String, Value>| {
        ["id", "$id"]
            .iter()
            .any(|k| m.get(*k).is_some_and(Value::is_string))
    };
    if ref_siblings_apply(root) || !crate::schema::any_object(root, declares) {
        return None;
    }
    moved_ref_without(root, "", "$schema")
}

/// Every `$ref` string of a schema, percent-decoded (a `$ref` is a URI fragment: `%20` is a
/// space of a member's name, trial 48 D15) and sorted, so that asking whether some `$ref`
/// points under a place costs a search, not a walk: `check` asks it of each `allOf` it meets,
/// and a walk each made it quadratic (trial 48 D12: 8,000 `allOf`s took 3.3 s).
/// With it, made when first asked, the `$ref`s that name a resource or an anchor
/// ([`RefList::named`]).
#[derive(Debug, Default)]
pub struct RefList(Vec<String>, std::cell::OnceCell<Vec<Named>>);

impl RefList {
    /// The `$ref`s of `root`, in one walk.
    pub fn of(root: &Value) -> Self {
        let mut refs = Vec::new();
        any_ref(root, &mut |r| {
            refs.push(r.into_owned());
            false
        });
        refs.sort_unstable();
        RefList(refs, Default::default())
    }

    /// The `$ref`s of `root` (the schema the list was made of) that name a resource or an
    /// anchor rather than a JSON Pointer fragment of the resource they are written in
    /// (`#/$defs/A`, `#`), with where each is written and lands: walked once, and only where
    /// the list holds one (most schemas' `$ref`s are all fragments).
    pub fn named(&self, root: &Value) -> &[Named] {
        let fragment = |r: &str| r.is_empty() || r == "#" || r.starts_with("#/");
        self.1.get_or_init(|| {
            if self.0.iter().all(|r| fragment(r)) {
                return Vec::new();
            }
            let walked = crate::schema::walk(root);
            walked
                .nodes
                .iter()
                .filter_map(|n| {
                    let text = n.object()?.get("$ref")?.as_str()?;
                    (!fragment(text)).then(|| Named {
                        from: n.pointer.clone(),
                        text: text.to_string(),
                        lands: lands(shared::step_from(root, &n.pointer, text)),
                        anchor: text.starts_with('#'),
                        resource: shared::resource(root, &n.pointer).1,
                    })
                })
                .collect()
        })
    }

    /// Whether the schema has no `$ref`.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether some `$ref` starts with `prefix` (decoded, as the list is).
    pub fn points_under(&self, prefix: &str) -> bool {
        let i = self.0.partition_point(|r| r.as_str() < prefix);
        self.0.get(i).is_some_and(|r| r.starts_with(prefix))
    }
}

/// [`RefList::points_under`] asked once: a walk of `root` that stops at the first `$ref`
/// found, listing nothing (repair asks it once per merge, of a schema each merge changes).
pub fn points_under(root: &Value, prefix: &str) -> bool {
    any_ref(root, &mut |r| r.starts_with(prefix))
}

/// Whether `found` holds for some `$ref` string of `root` (percent-decoded), each asked in
/// turn until one does; iterative, so any nesting the input caps allow is walked.
fn any_ref(root: &Value, found: &mut dyn FnMut(std::borrow::Cow<'_, str>) -> bool) -> bool {
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    match v {
                        Value::String(r) if k == "$ref" => {
                            if found(crate::schema::percent_decode(r)) {
                                return true;
                            }
                        }
                        _ => stack.push(v),
                    }
                }
            }
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trial 86 D1: a raised expansion cap let a 3 KB `$ref` bomb (each definition naming the
    /// one before twice) grow until memory ran out (3.8 GB, abort). Whatever cap is asked,
    /// inlining stops at the ceiling, and says so.
    #[test]
    fn inlining_stops_at_the_ceiling_whatever_cap_is_asked() {
        let mut defs = Map::new();
        defs.insert("L0".into(), json!({"type": "string"}));
        for i in 1..=20 {
            let below = format!("#/$defs/L{}", i - 1);
            defs.insert(
                format!("L{i}"),
                json!({"type": "object", "properties": {"a": {"$ref": below}, "b": {"$ref": below}}}),
            );
        }
        let bomb = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/L20"}},
            "$defs": defs});
        let refused = inline(&bomb, usize::MAX).expect_err("2^20 copies: past the ceiling");
        let words = refusal_text(&refused);
        let ceiling = format!("past {MAX_INLINE_NODES_CEILING} nodes (the expansion cap)");
        assert!(words.contains(&ceiling), "{words}");
    }

    /// A `$ref` under a place is found by its decoded prefix, wherever it sits; one beside the
    /// place (a sibling with a longer name) is not under it.
    #[test]
    fn a_ref_list_finds_refs_under_a_place() {
        let s = json!({"properties":{"a b":{"allOf":[{"type":"object"}]},
            "c":{"items":[{"$ref":"#/properties/a%20b/allOf/0"}]},
            "d":{"$ref":"#/properties/x/allOfX"}}});
        let refs = RefList::of(&s);
        assert!(refs.points_under("#/properties/a b/allOf"));
        assert!(!refs.points_under("#/properties/c/allOf"));
        assert!(refs.points_under("#/properties/x/allOf"));
        assert!(!refs.points_under("#/properties/x/allOf/"));
        assert!(!RefList::of(&json!({"$ref": 1})).points_under(""));
        // Trial 50 D3: a `$ref` into one place is under no place that merely sorts near it.
        let near = RefList::of(&json!({"a":{"$ref":"#/properties/p/allOf/0"},
            "b":{"$ref":"#/properties/a~1b/allOf/0"}}));
        assert!(near.points_under("#/properties/p/allOf"));
        assert!(near.points_under("#/properties/a~1b/allOf"));
        for place in ["p~1x", "z", "a~0c", "a", "a~1bc"] {
            assert!(
                !near.points_under(&format!("#/properties/{place}/allOf")),
                "{place}"
            );
        }
        for prefix in [
            "#/properties/a b/allOf",
            "#/properties/c/allOf",
            "#/properties/x/allOf/",
        ] {
            assert_eq!(
                points_under(&s, prefix),
                refs.points_under(prefix),
                "{prefix}"
            );
        }
    }

    /// The cap is about the whole schema, at the empty pointer: said as its root, not `(at )`.
    #[test]
    fn a_refusal_at_the_root_names_the_root() {
        let schema = serde_json::json!({"$defs": {"a": {"type": "string"}},
            "properties": {"x": {"$ref": "#/$defs/a"}}});
        let r = inline(&schema, 0).unwrap_err();
        assert_eq!(r.pointer, "");
        assert!(
            refusal_text(&r).ends_with("(at the schema's root)"),
            "{}",
            refusal_text(&r)
        );
    }
    use serde_json::json;

    /// Inlined copies of a schema that declares a `$dynamicAnchor` do not declare it again:
    /// two copies in one resource would declare the name twice, as with `$anchor` (before:
    /// `$anchor` and `$id` were dropped from copies, `$dynamicAnchor` kept).
    #[test]
    fn inlined_copies_drop_their_dynamic_anchor() {
        let s = json!({"type":"object","properties":{"a":{"$ref":"#node"},"b":{"$ref":"#node"}},
            "$defs":{"n":{"$dynamicAnchor":"node","type":"string"}}});
        let (out, _, _) = inline(&s, 1000).expect("inlined");
        assert_eq!(
            out,
            json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}})
        );
    }

    /// A `$dynamicRef` is a reference to its `$dynamicAnchor`: inlining the `$ref`s and
    /// dropping the definitions would leave it pointing to nothing, so repair refuses
    /// (before: it inlined and dropped `$defs`, the `$dynamicRef` dangling).
    #[test]
    fn a_dynamic_reference_is_not_left_dangling() {
        let s = json!({"type":"object","properties":{"a":{"$ref":"#node"},
            "b":{"$dynamicRef":"#node"}},
            "$defs":{"n":{"$dynamicAnchor":"node","type":"string"}}});
        let r = inline(&s, 1000).unwrap_err();
        assert_eq!(r.pointer, "/properties/b/$dynamicRef");
        assert!(
            r.reason.contains("`$dynamicRef` to `#node`"),
            "{}",
            r.reason
        );
    }

    /// Every place a refusal names is a JSON Pointer into the schema as written (a user's
    /// cyc.json was refused at `/properties/n/properties/next/$ref`, which only the expanded
    /// copy has); how the expansion got there is said after it.
    #[test]
    fn a_refusal_in_a_definition_names_it_as_written_and_how_it_was_reached() {
        let s = json!({"type":"object","properties":{"n":{"$ref":"#/$defs/node"}},
            "$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}}});
        let e = inline(&s, MAX_INLINE_NODES).unwrap_err();
        assert_eq!(e.pointer, "/$defs/node/properties/next/$ref");
        assert_eq!(
            e.place(),
            "/$defs/node/properties/next/$ref, reached through /properties/n"
        );
        assert!(s.pointer(e.pointer.trim_end_matches("/$ref")).is_some());
        assert_eq!(
            refusal_text_for(&e, "/$defs"),
            "repair inlines all of a schema's `$ref`s or none, and cannot inline the one at \
             /$defs/node/properties/next/$ref, reached through /properties/n: `$ref` to \
             `#/$defs/node` is recursive; a recursive schema cannot be written out"
        );
        // Two definitions deep, both `$ref`s followed are named, outermost first.
        let s = json!({"properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{
            "A":{"properties":{"b":{"$ref":"#/$defs/B"}}},
            "B":{"properties":{"c":{"$ref":"#/$defs/A"}}}}});
        let e = inline(&s, MAX_INLINE_NODES).unwrap_err();
        assert_eq!(
            e.place(),
            "/$defs/B/properties/c/$ref, reached through /properties/a, then /$defs/A/properties/b"
        );
        // A root that is a `$ref` is named as the root.
        let s = json!({"$ref":"#/$defs/R","$defs":{"R":{"properties":{"a":{"$ref":"#/$defs/R"}}}}});
        let e = inline(&s, MAX_INLINE_NODES).unwrap_err();
        assert_eq!(
            e.place(),
            "/$defs/R/properties/a/$ref, reached through the root"
        );
        // Reached as written, nothing more is said.
        let top = json!({"properties":{"a":{"$ref":"https://example.com/a.json"}}});
        assert_eq!(inline(&top, 100).unwrap_err().place(), "/properties/a/$ref");
    }

    /// A `#/...` reference inside a subschema with its own `$id` names that resource's
    /// definition, as the validator `args` uses reads it: the inlined schema takes the same
    /// instances as the schema as written, and the resource's definitions go with the root's.
    #[test]
    fn a_reference_inside_a_nested_resource_inlines_what_it_names_there() {
        let s = json!({"type":"object",
            "$defs":{"Zip":{"type":"string"},
                "Address":{"$id":"https://example.com/address.json","type":"object",
                    "$defs":{"Zip":{"anyOf":[{"type":"integer"},{"type":"null"}]}},
                    "properties":{"zip":{"$ref":"#/$defs/Zip"},
                        "again":{"$ref":"address.json#/$defs/Zip"}}}},
            "properties":{"addr":{"$ref":"#/$defs/Address"},"top":{"$ref":"#/$defs/Zip"},
                "other":{"$ref":"https://example.com/address.json"}}});
        let (out, _, _) = inline(&s, MAX_INLINE_NODES).unwrap();
        let nested = json!({"anyOf":[{"type":"integer"},{"type":"null"}]});
        let address = json!({"type":"object","properties":{"zip":nested.clone(),"again":nested}});
        assert_eq!(
            out,
            json!({"type":"object","properties":{"addr":address.clone(),
                "top":{"type":"string"},"other":address}})
        );
        let before = jsonschema::validator_for(&s).unwrap();
        let after = jsonschema::validator_for(&out).unwrap();
        for instance in [
            json!({"addr":{"zip":12}}),
            json!({"addr":{"zip":null,"again":3}}),
            json!({"addr":{"zip":"12"}}),
            json!({"other":{"again":"x"}}),
            json!({"top":"x"}),
            json!({"top":12}),
        ] {
            assert_eq!(
                before.is_valid(&instance),
                after.is_valid(&instance),
                "{instance}"
            );
        }
        assert!(before.is_valid(&json!({"addr":{"zip":12}})));
        assert!(!before.is_valid(&json!({"addr":{"zip":"12"}})));
    }

    #[test]
    fn local_refs_are_inlined_and_defs_dropped() {
        let s = json!({"type":"object","properties":{
            "a":{"$ref":"#/$defs/A","description":"the a"},
            "list":{"type":"array","items":{"$ref":"#/$defs/B"}},
            "$ref":{"type":"string"}
        },"$defs":{"A":{"type":"string","description":"an A"},
                   "B":{"type":"object","properties":{"x":{"$ref":"#/$defs/A"}}}}});
        let (out, done, _) = inline(&s, MAX_INLINE_NODES).unwrap();
        assert_eq!(
            out,
            json!({"type":"object","properties":{
                "a":{"type":"string","description":"the a"},
                "list":{"type":"array","items":{"type":"object","properties":{"x":{"type":"string","description":"an A"}}}},
                "$ref":{"type":"string"}
            }})
        );
        let places: Vec<&str> = done.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(
            places,
            [
                "/properties/a/$ref",
                "/properties/list/items/properties/x/$ref",
                "/properties/list/items/$ref"
            ]
        );
    }

    /// A `$ref` in a schema-form `dependencies` member (draft 4-7's `dependentSchemas`) is
    /// inlined as one in any subschema, since the definitions it names are dropped; a
    /// property list there is data, kept as written.
    #[test]
    fn refs_in_schema_form_dependencies_are_inlined() {
        let s = json!({"type":"object","properties":{"x":{"type":"string"}},
            "dependencies":{"x":{"properties":{"y":{"$ref":"#/definitions/Y"}}},"y":["x"]},
            "definitions":{"Y":{"type":"integer"}}});
        let (out, done, _) = inline(&s, MAX_INLINE_NODES).unwrap();
        assert_eq!(
            out,
            json!({"type":"object","properties":{"x":{"type":"string"}},
                "dependencies":{"x":{"properties":{"y":{"type":"integer"}}},"y":["x"]}})
        );
        let places: Vec<&str> = done.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(places, ["/dependencies/x/properties/y/$ref"]);
    }

    /// A root that is a `$ref` loses its definitions too, and the subschemas of the keywords
    /// beside that `$ref` are inlined as anywhere else (found by a fresh-user trial: the root's
    /// `$defs` stayed while the report said it was dropped). The target's
    /// `additionalProperties` covers `y` too, so the two are kept apart, in an `allOf`
    /// (pooled, `y` would escape it).
    #[test]
    fn a_root_ref_takes_its_definitions_and_its_siblings_refs_with_it() {
        let s = json!({"$ref":"#/$defs/R","properties":{"y":{"$ref":"#/definitions/S"}},
            "$defs":{"R":{"type":"object","additionalProperties":{"$ref":"#/$defs/T"}},"T":{"type":"string"}},
            "definitions":{"S":{"type":"integer"}}});
        let (out, done, _) = inline_with(&s, MAX_INLINE_NODES, Conflicts::AllOf).unwrap();
        assert_eq!(
            out,
            json!({"allOf":[{"type":"object","additionalProperties":{"type":"string"}},
                {"properties":{"y":{"type":"integer"}}}]})
        );
        assert_eq!(done.len(), 3);
        let e = inline(&s, MAX_INLINE_NODES).unwrap_err();
        assert_eq!((e.pointer.as_str(), e.reference), ("/$ref", true));
    }

    #[test]
    fn recursive_remote_and_missing_refs_are_refused() {
        let rec = json!({"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},
            "$defs":{"N":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/N"}}}}}});
        let e = inline(&rec, MAX_INLINE_NODES).unwrap_err();
        assert!(e.reason.contains("recursive"), "{e:?}");
        // Named where it is written, not where the copy would be.
        assert_eq!(e.pointer, "/$defs/N/properties/kids/items/$ref");
        assert_eq!(e.reached_through, ["/properties/n"]);
        let remote = json!({"properties":{"a":{"$ref":"https://example.com/a.json"}}});
        assert!(inline(&remote, 100).unwrap_err().reason.contains("remote"));
        let missing = json!({"properties":{"a":{"$ref":"#/$defs/Z"}}});
        assert!(
            inline(&missing, 100)
                .unwrap_err()
                .reason
                .contains("not in the schema")
        );
    }

    #[test]
    fn a_schema_that_would_grow_past_the_cap_is_refused_quickly() {
        // D0 refers to D1 twice, D1 to D2 twice, ... : 2^30 copies if written out.
        let mut defs = serde_json::Map::new();
        for i in 0..30 {
            defs.insert(
                format!("D{i}"),
                json!({"type":"object","properties":{
                    "l":{"$ref": format!("#/$defs/D{}", i + 1)},
                    "r":{"$ref": format!("#/$defs/D{}", i + 1)}}}),
            );
        }
        defs.insert("D30".into(), json!({"type":"string"}));
        let s = json!({"type":"object","properties":{"root":{"$ref":"#/$defs/D0"}},"$defs":defs});
        let started = std::time::Instant::now();
        let e = inline(&s, MAX_INLINE_NODES).unwrap_err();
        assert!(e.reason.contains("expansion cap"), "{e:?}");
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        // The same schema with a few levels fits.
        let mut small = s.clone();
        small["properties"]["root"]["$ref"] = json!("#/$defs/D27");
        assert!(inline(&small, MAX_INLINE_NODES).is_ok());
    }

    #[test]
    fn a_chain_past_the_hop_limit_is_refused_in_the_shared_words() {
        let (out, done, _) = inline(
            &crate::schema::refs::fixtures::chain(MAX_REF_HOPS - 1, false),
            MAX_INLINE_NODES,
        )
        .unwrap();
        assert_eq!(
            out,
            json!({"type":"object","properties":{"a":{"type":"string"}}})
        );
        assert_eq!(done.len(), MAX_REF_HOPS);
        for n in [MAX_REF_HOPS, 1_500, 20_000] {
            let e =
                inline(&crate::schema::refs::fixtures::chain(n, false), usize::MAX).unwrap_err();
            assert_eq!(
                e,
                Refusal {
                    pointer: "/properties/a/$ref".into(),
                    reached_through: Vec::new(),
                    reason: shared::too_long("#/$defs/D0"),
                    reference: true,
                    cause: Cause::Shape,
                }
            );
        }
        // A cycle is still called a cycle.
        let cycle = json!({"properties":{"a":{"$ref":"#/$defs/A"}},
            "$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}});
        let e = inline(&cycle, MAX_INLINE_NODES).unwrap_err();
        assert!(e.reason.contains("is a cycle of references"), "{e:?}");
    }

    #[test]
    fn references_nested_past_the_hop_limit_are_refused() {
        let (out, done, _) = inline(
            &crate::schema::refs::fixtures::chain(MAX_REF_HOPS - 1, true),
            MAX_INLINE_NODES,
        )
        .unwrap();
        assert_eq!(done.len(), MAX_REF_HOPS);
        assert_eq!(crate::json::value_depth(&out), 2 * MAX_REF_HOPS + 1);
        for n in [MAX_REF_HOPS, 1_500] {
            let e = inline(&crate::schema::refs::fixtures::chain(n, true), usize::MAX).unwrap_err();
            assert_eq!(
                e,
                Refusal {
                    pointer: "/properties/a/$ref".into(),
                    reached_through: Vec::new(),
                    reason: shared::too_long_nested("#/$defs/D0"),
                    reference: true,
                    cause: Cause::Shape,
                }
            );
        }
    }

    #[test]
    fn an_inlined_schema_is_held_to_the_nesting_cap() {
        // Few references, each target nesting ten levels: the result would pass the cap.
        let mut defs = Map::new();
        for i in 0..60 {
            let mut def = json!({"$ref": format!("#/$defs/D{}", i + 1)});
            for _ in 0..5 {
                def = json!({"type":"object","properties":{"x": def}});
            }
            defs.insert(format!("D{i}"), def);
        }
        defs.insert("D60".into(), json!({"type":"string"}));
        let s = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":defs});
        let e = inline(&s, usize::MAX).unwrap_err();
        let max = crate::input::LIMITS.max_depth;
        assert_eq!(
            e.reason,
            format!(
                "inlining the `$ref`s would nest the schema deeper than {max} levels (the nesting \
                 cap)"
            )
        );
        // Inside a definition, as written, reached through the `$ref`s followed.
        assert!(e.pointer.starts_with("/$defs/D"), "{e:?}");
        assert_eq!(e.reached_through[0], "/properties/a");
        assert!(
            e.place().contains(", reached through /properties/a, then "),
            "{}",
            e.place()
        );
    }

    /// The worst schema within the input caps (nesting to the cap, with the longest chains of
    /// references allowed along the way) is inlined or refused on a 2 MiB stack, the default
    /// of a spawned thread and of tokio's workers, in a debug build.
    #[test]
    fn inlining_fits_a_small_stack() {
        let max = crate::input::LIMITS.max_depth;
        // 60 hops in a row, then a schema nesting `not` to just under the cap.
        let mut defs = Map::new();
        for i in 0..60 {
            defs.insert(
                format!("D{i}"),
                json!({"$ref": format!("#/$defs/D{}", i + 1)}),
            );
        }
        let mut deep = json!({"type":"string"});
        for _ in 0..(max - 4) {
            deep = json!({"not": deep});
        }
        defs.insert("D60".into(), deep);
        let s = json!({"type":"object","properties":{"a":{"$ref":"#/$defs/D0"}},"$defs":defs});
        let nested = crate::schema::refs::fixtures::chain(1_500, true);
        let outcome = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let deep = inline(&s, usize::MAX).map(|(v, _, _)| crate::json::value_depth(&v));
                let nested = inline(&nested, usize::MAX).map(|_| ());
                (deep, nested)
            })
            .unwrap()
            .join()
            .expect("no stack overflow");
        assert_eq!(outcome.0, Ok(max - 1));
        assert!(outcome.1.is_err());
    }

    #[test]
    fn conflicting_siblings_are_refused() {
        let s = json!({"properties":{"a":{"$ref":"#/$defs/A","type":"integer"}},"$defs":{"A":{"type":"string"}}});
        let e = inline(&s, 100).unwrap_err();
        assert_eq!(e.pointer, "/properties/a/$ref");
        // Two types with nothing in common: said as what it is, no value being valid.
        assert_eq!(
            e.reason,
            "`$ref` to `#/$defs/A`: no value can satisfy both `type: string` (the definition) \
             and `type: integer` (beside the `$ref`)"
        );
    }

    /// Keywords beside a `$ref` apply with its target: merged where one schema says both
    /// (M5 of an adversarial trial: structural siblings were lost or the tool refused).
    #[test]
    fn siblings_are_merged_into_the_target_where_one_schema_says_both() {
        let s = json!({"properties":{"a":{"$ref":"#/$defs/A","description":"mine",
                "properties":{"extra":{"$ref":"#/$defs/N"},"k":{"type":"string"}},
                "required":["extra","k"],"minProperties":1}},
            "$defs":{"A":{"type":"object","description":"an A","properties":{"k":{"type":"string"}},
                "required":["k"]},"N":{"type":"integer"}}});
        for conflicts in [Conflicts::Refuse, Conflicts::AllOf] {
            let (out, done, _) = inline_with(&s, 100, conflicts).unwrap();
            assert_eq!(
                out,
                json!({"properties":{"a":{"type":"object","description":"mine",
                    "properties":{"k":{"type":"string"},"extra":{"type":"integer"}},
                    "required":["k","extra"],"minProperties":1}}})
            );
            let a = done.iter().find(|d| d.reference == "#/$defs/A").unwrap();
            assert_eq!(a.replaced, [("description".to_string(), json!("an A"))]);
            assert_eq!(a.all_of, None);
        }
    }

    /// Where the target and the siblings set one keyword differently, or pool keywords read
    /// together (`additionalProperties` beside the target's `properties`), both are kept as
    /// `allOf` where allowed, the sibling annotations on the schema itself; else refused,
    /// naming the `$ref` and the keyword.
    #[test]
    fn conflicting_siblings_are_kept_as_all_of_or_refused() {
        let defs = json!({"A":{"type":"object","properties":{"k":{"type":"string"}}}});
        for (beside, keyword) in [
            (json!({"properties":{"k":{"type":"integer"}}}), "properties"),
            (
                json!({"additionalProperties":false}),
                "additionalProperties",
            ),
            (json!({"type":["string","null"]}), "type"),
        ] {
            let mut a = json!({"$ref":"#/$defs/A","title":"T"});
            a.as_object_mut()
                .unwrap()
                .extend(beside.as_object().unwrap().clone());
            let s = json!({"properties":{"a":a},"$defs":defs});
            let (out, done, _) = inline_with(&s, 100, Conflicts::AllOf).unwrap();
            assert_eq!(
                out,
                json!({"properties":{"a":{"title":"T","allOf":[defs["A"], beside]}}}),
                "{keyword}"
            );
            assert_eq!(
                done[0].all_of.as_ref().map(|c| c.keyword.as_str()),
                Some(keyword)
            );
            assert!(done[0].replaced.is_empty());
            let e = inline_with(&s, 100, Conflicts::Refuse).unwrap_err();
            assert_eq!(e.pointer, "/properties/a/$ref");
            assert_eq!(e.cause, Cause::Clash);
            // `additionalProperties` is not set by the target: it is named with the target's
            // `properties`, whose members it would cover once pooled (trial 46 D8.7).
            let said = match keyword {
                "type" => "`$ref` to `#/$defs/A`: no value can satisfy both `type: object` (the \
                           definition) and `type: [\"string\",\"null\"]` (beside the `$ref`)"
                    .to_string(),
                "additionalProperties" => "`$ref` to `#/$defs/A` sits next to \
                    `additionalProperties` while its target sets `properties`: JSON Schema reads \
                    each with the keywords of its own schema only (`additionalProperties` covers \
                    the members its own `properties` do not declare), so pooled into one schema \
                    they could accept other values"
                    .to_string(),
                _ => format!(
                    "`$ref` to `#/$defs/A` sits next to `{keyword}`, which its target also sets \
                     differently"
                ),
            };
            assert_eq!(e.reason, said);
        }
    }

    /// A keyword set on both sides whose conjunction is one value is merged into it, whether
    /// or not the profile takes `allOf` (trial H: `type: [integer, null]` beside a `$ref` to
    /// an integer, and `minimum: 10` beside one with `minimum: 5`, refused the tool under
    /// gemini/v1beta/parameters).
    #[test]
    fn exact_conjunctions_are_merged_into_one_value() {
        let s = json!({"properties":{
                "u":{"$ref":"#/$defs/n","type":["integer","null"]},
                "q":{"$ref":"#/$defs/n","minimum":10,"maximum":7,"required":["b"]},
                "e":{"$ref":"#/$defs/e","enum":["z","x","w"]}},
            "$defs":{"n":{"type":"integer","minimum":5,"maximum":9,"required":["a"]},
                "e":{"enum":["x","y","z"]}}});
        for conflicts in [Conflicts::Refuse, Conflicts::AllOf] {
            let (out, done, _) = inline_with(&s, 100, conflicts).unwrap();
            assert_eq!(
                out,
                json!({"properties":{
                    "u":{"type":"integer","minimum":5,"maximum":9,"required":["a"]},
                    "q":{"type":"integer","minimum":10,"maximum":7,"required":["a","b"]},
                    "e":{"enum":["x","z"]}}})
            );
            assert!(
                done.iter()
                    .all(|d| d.all_of.is_none() && d.replaced.is_empty())
            );
        }
    }

    /// Disjoint `enum`s leave no valid value: refused where `allOf` is rejected, in plain
    /// words, as a clash.
    #[test]
    fn an_empty_conjunction_is_refused_plainly() {
        let s = json!({"properties":{"e":{"$ref":"#/$defs/e","enum":["q"]}},
            "$defs":{"e":{"enum":["x","y"]}}});
        let e = inline_with(&s, 100, Conflicts::Refuse).unwrap_err();
        assert_eq!(
            (e.pointer.as_str(), e.cause),
            ("/properties/e/$ref", Cause::Clash)
        );
        assert_eq!(
            e.reason,
            "`$ref` to `#/$defs/e`: no value can satisfy both the values the definition \
             allows (`\"x\"`, `\"y\"`) and those the keywords beside the `$ref` allow \
             (`\"q\"`)"
        );
    }

    /// The `$ref`s an `$id` (draft-04: `id`) decides, each way one can: a fragment written in
    /// its resource, a URI naming it, an anchor it keeps from the resource around it; and
    /// none where the `$ref` reads the same without it (trial 54 D2, D5).
    #[test]
    fn an_id_moves_the_refs_resolved_through_it() {
        let moves = |s: &Value, at: &str, key: &str| {
            let refs = RefList::of(s);
            let fast = id_moves_ref(s, at, key, &refs);
            assert_eq!(fast, moved_ref_without(s, at, key), "{s}");
            fast
        };
        let inner = json!({"$id":"https://ex.com/in","$defs":{"V":{"type":"string"}},
            "properties":{"v":{"$ref":"#/$defs/V"}}});
        let s = json!({"properties":{"a":inner},"$defs":{"V":{"type":"integer"}}});
        assert_eq!(
            moves(&s, "/properties/a", "$id").as_deref(),
            Some("/properties/a/properties/v/$ref")
        );
        let named = json!({"properties":{"a":{"$id":"https://ex.com/in","type":"string"},
            "b":{"$ref":"https://ex.com/in"},"c":{"$ref":"#/properties/a"}}});
        assert_eq!(
            moves(&named, "/properties/a", "$id").as_deref(),
            Some("/properties/b/$ref")
        );
        let anchor = json!({"properties":{"a":{"$id":"https://ex.com/in",
            "$defs":{"X":{"$anchor":"x","type":"string"}}},"b":{"$ref":"#x"}}});
        assert_eq!(
            moves(&anchor, "/properties/a", "$id").as_deref(),
            Some("/properties/b/$ref")
        );
        let draft04 = json!({"$schema":"http://json-schema.org/draft-04/schema#",
            "properties":{"a":{"id":"http://ex.com/in","definitions":{"V":{}},
                "properties":{"v":{"$ref":"#/definitions/V"}}}},"definitions":{"V":{}}});
        assert_eq!(
            moves(&draft04, "/properties/a", "id").as_deref(),
            Some("/properties/a/properties/v/$ref")
        );
        // Without the draft, `id` is no keyword: the `$ref` reaches the root's `V`.
        assert_eq!(
            draft_resolved_ref(&draft04).as_deref(),
            Some("/properties/a/properties/v/$ref")
        );
        // Nothing resolves through these: a `$ref` outside, or one naming a resource of its
        // own below.
        let outside = json!({"properties":{"a":{"$id":"https://ex.com/in","type":"string"},
            "b":{"$ref":"#/properties/a"}}});
        assert_eq!(moves(&outside, "/properties/a", "$id"), None);
        let own = json!({"properties":{"a":{"$id":"https://ex.com/in",
            "properties":{"b":{"$id":"https://ex.com/b","$defs":{"V":{}},
                "properties":{"v":{"$ref":"#/$defs/V"}}}}}}});
        assert_eq!(moves(&own, "/properties/a", "$id"), None);
        assert_eq!(draft_resolved_ref(&outside), None);
    }

    /// [`draft_may_decide`] is `false` only where [`ignored_beside_ref`], [`draft_tuple_items`]
    /// and [`draft_resolved_ref`] are all `None` (check asks it first, in their stead), and
    /// `true` for each thing one of them finds.
    #[test]
    fn the_one_scan_says_no_only_where_none_of_the_three_finds_anything() {
        let d7 = "http://json-schema.org/draft-07/schema#";
        let d4 = "http://json-schema.org/draft-04/schema#";
        let found = |s: &Value| {
            ignored_beside_ref(s).is_some()
                || draft_tuple_items(s).is_some()
                || draft_resolved_ref(s).is_some()
        };
        let beside = json!({"$schema":d7,"properties":{"a":{"$ref":"#/definitions/A",
            "required":["y"]}},"definitions":{"A":{"type":"object"}}});
        let tuple = json!({"$schema":d7,"type":"object","properties":{"a":{"type":"array",
            "items":[{"type":"string"}]}}});
        let resolved = json!({"$schema":d4,"properties":{"a":{"id":"http://ex.com/in",
            "definitions":{"V":{}},"properties":{"v":{"$ref":"#/definitions/V"}}}},
            "definitions":{"V":{}}});
        for s in [&beside, &tuple, &resolved] {
            assert!(found(s), "{s}");
            assert!(draft_may_decide(s), "{s}");
        }
        // The same schemas read as 2020-12, and draft-07 ones holding none of the three (an
        // annotation beside a `$ref`, one `items` schema, a `$ref` alone).
        let plain = |mut s: Value| {
            s.as_object_mut().unwrap().remove("$schema");
            s
        };
        let none = [
            plain(beside.clone()),
            plain(tuple.clone()),
            plain(resolved.clone()),
            json!({"$schema":d7,"properties":{"a":{"$ref":"#/definitions/A",
                "description":"d"},"b":{"type":"array","items":{"type":"string"}}},
                "definitions":{"A":{"type":"string"}}}),
        ];
        for s in &none {
            assert!(!found(s), "{s}");
            assert!(!draft_may_decide(s), "{s}");
        }
    }

    /// Each cause has its own advice: flattening is for a schema too large or too deep, not
    /// for a keyword that contradicts its definition or a `$ref` to nothing.
    #[test]
    fn each_cause_has_its_own_advice() {
        let clash = json!({"properties":{"a":{"$ref":"#/$defs/A","pattern":"b"}},
            "$defs":{"A":{"type":"string","pattern":"a"}}});
        let dangling = json!({"properties":{"a":{"$ref":"#/$defs/Z"}}});
        let capped =
            json!({"properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"string"}}});
        // Draft-07 ignores `required` beside the `$ref`: moving it into the definition, as
        // a clash's advice says, would make it apply.
        let ignored = json!({"$schema":"http://json-schema.org/draft-07/schema#",
            "properties":{"a":{"$ref":"#/definitions/A","required":["y"]}},
            "definitions":{"A":{"type":"object","properties":{"y":{"type":"string"}}}}});
        let cause = |s: &Value, nodes| inline(s, nodes).unwrap_err().cause;
        assert_eq!(cause(&clash, 100), Cause::Clash);
        assert_eq!(cause(&ignored, 100), Cause::Ignored);
        assert!(
            Cause::Ignored
                .advice()
                .starts_with("Remove the keyword beside the `$ref`: the draft ignores it")
        );
        assert_eq!(cause(&dangling, 100), Cause::Dangling);
        assert_eq!(cause(&capped, 1), Cause::Shape);
        assert!(
            Cause::Clash
                .advice()
                .starts_with("Make the keyword beside the `$ref` agree")
        );
        assert!(
            Cause::Dangling
                .advice()
                .starts_with("Point the `$ref` at a definition")
        );
        assert!(
            Cause::Shape
                .advice()
                .starts_with("Flatten the schema by hand")
        );
    }

    #[test]
    fn data_that_looks_like_a_ref_is_left_alone() {
        let s = json!({"type":"object","properties":{"p":{"enum":[{"$ref":"#/x"}],"default":{"$ref":"#/y"}}}});
        let (out, done, _) = inline(&s, 100).unwrap();
        assert_eq!(out, s);
        assert!(done.is_empty());
    }

    #[test]
    fn only_a_schema_that_may_recurse_deep_gets_a_thread() {
        let usual = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"type": "string"}}});
        assert!(super::frames_at_most(&usual) <= super::IN_PLACE_FRAMES);
        // Deep chains and deep nesting are bounded above the limit, so they get the thread.
        let chain = crate::schema::refs::fixtures::chain(40, false);
        assert!(super::frames_at_most(&chain) > super::IN_PLACE_FRAMES);
        let mut deep = json!({"type": "string"});
        for _ in 0..70 {
            deep = json!({"type": "object", "properties": {"a": deep}});
        }
        assert!(super::frames_at_most(&deep) > super::IN_PLACE_FRAMES);
        // Both ways give the same expansion.
        assert!(inline(&usual, MAX_INLINE_NODES).is_ok());
    }
}
