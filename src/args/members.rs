//! What an object schema gives a member its `properties` does not declare, for the problem of
//! a required member left out: the schema of the keyword that places it (`patternProperties`,
//! `additionalProperties`, the one `allOf` entry declaring it), no value at all (`false`
//! there), or nothing that can be told from the object's own keywords. And, for a member
//! `additionalProperties: false` refuses, the subschemas beside that declare it, which that
//! keyword does not see ([`declared_beside`]).
//!
//! Which `patternProperties` keys match a name is asked of the validator's own regex engine,
//! with the keys as the validator compiled them: a key the engine reads otherwise than
//! ECMA-262 ([`crate::schema::ecma::unsupported`]), or one it gives up on, leaves it untold.

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;
use serde_json::{Map, Value};

use super::{ArgsSchema, resolve_pointer, says_nothing, says_of_members, silent_on, unions};

/// What an object schema's own keywords give a member its `properties` does not declare.
#[derive(Debug, PartialEq)]
pub(super) enum Given<'s> {
    /// No value: the keyword that places it is `false`.
    Nothing,
    /// The schema of the one keyword that places it, nothing beside saying more of it.
    One(&'s Value),
    /// The schemas of the several `patternProperties` keys (as written) that match its name,
    /// each of which applies; nothing beside says more of it.
    Patterns(Vec<(&'s str, &'s Value)>),
    /// Nothing that can be told here: another keyword beside may say something of it, a key's
    /// match is not known, or what places it accepts any value (a keyword elsewhere may still
    /// constrain it).
    Untold,
}

impl ArgsSchema {
    /// What the object schema at `at` (a pointer into the compiled schema), whose `properties`
    /// does not declare its member `name`, gives that member.
    pub(super) fn given(&self, at: &str, name: &str) -> Given<'_> {
        let document = self.lookup_root();
        // An `allOf` entry that is a reference alone is the schema it reaches (one hop, read
        // where it is written, as the validator reads it): a member declared only there is
        // declared as an inline entry declares it.
        let entry = |i: usize, e: &'_ Value| -> Option<&Value> {
            let reference = e
                .as_object()
                .filter(|o| o.len() == 1)?
                .get("$ref")?
                .as_str()?;
            let from = format!("{at}/allOf/{i}");
            reference_target(document, &from, "$ref", reference).map(|(s, _)| s)
        };
        match resolve_pointer(document, at) {
            Some(owner) => given(owner, self.keys_matching(at, name), name, &entry),
            None => Given::Untold,
        }
    }

    /// The `patternProperties` keys of the object schema at `at` (a pointer into the compiled
    /// schema) whose regular expression matches `name`, as the schema writes them, each with
    /// its schema; empty without such keys. `None` where that cannot be told: a key the engine
    /// reads otherwise than ECMA-262, or gives up matching, or keys the engine refuses.
    fn keys_matching(&self, at: &str, name: &str) -> Option<Vec<(&str, &Value)>> {
        let owner = resolve_pointer(self.lookup_root(), at)?;
        let Some(keys) = owner.get("patternProperties") else {
            return Some(Vec::new());
        };
        let keys = keys.as_object()?;
        if keys.is_empty() {
            return Some(Vec::new());
        }
        // The keys as written: the compiled copy spells some otherwise (see `compat`), in the
        // same order.
        let written = resolve_pointer(&self.declared, &self.declared_place(at))?
            .get("patternProperties")?
            .as_object()?;
        if written.len() != keys.len()
            || written
                .keys()
                .any(|k| crate::schema::ecma::unsupported(k).is_some())
        {
            return None;
        }
        // One validator with every key refusing its members: each key matching `name` gives
        // one error, at the key's place.
        let refusing: Map<String, Value> = keys
            .keys()
            .map(|k| (k.clone(), Value::Bool(false)))
            .collect();
        let probe = jsonschema::options()
            .build(&serde_json::json!({ "patternProperties": refusing }))
            .ok()?;
        let mut matched = vec![false; keys.len()];
        let member = Value::Object(Map::from_iter([(name.to_string(), Value::Null)]));
        for e in probe.iter_errors(&member) {
            if !matches!(e.kind(), ValidationErrorKind::FalseSchema) {
                return None;
            }
            let token = e
                .schema_path()
                .as_str()
                .strip_prefix("/patternProperties/")?;
            let key = token.replace("~1", "/").replace("~0", "~");
            matched[keys.keys().position(|k| *k == key)?] = true;
        }
        Some(
            written
                .keys()
                .zip(keys.values())
                .zip(matched)
                .filter_map(|(pair, m)| m.then_some(pair))
                .map(|(k, s)| (k.as_str(), s))
                .collect(),
        )
    }
}

/// What the object schema `owner` gives its member `name`, `matched` being the
/// `patternProperties` keys matching the name (`None`: not known): its `properties` entry
/// where it has one, else a matching key's schema (the intersection of several), else
/// `additionalProperties`, else `unevaluatedProperties` where nothing else may evaluate it
/// ([`evaluated_elsewhere`]), else the one `allOf` entry whose `properties` declares it
/// (without `patternProperties` of its own, the other entries silent on it), each only where
/// no other keyword beside may say something of it ([`says_of_members`]); `false` from any
/// of these but the `allOf` entry is [`Given::Nothing`] whatever is beside. `referred` gives
/// the schema an `allOf` entry (by its index) that is a reference alone reaches, read in its
/// place; that entry is read as that schema.
fn given<'s>(
    owner: &'s Value,
    matched: Option<Vec<(&'s str, &'s Value)>>,
    name: &str,
    referred: &dyn Fn(usize, &'s Value) -> Option<&'s Value>,
) -> Given<'s> {
    let Some(o) = owner.as_object() else {
        return Given::Untold;
    };
    if let Some(declared) = o.get("properties").and_then(|p| p.get(name)) {
        return match declared {
            Value::Bool(false) => Given::Nothing,
            s => Given::One(s),
        };
    }
    let Some(matched) = matched else {
        return Given::Untold;
    };
    if matched.iter().any(|(_, s)| **s == Value::Bool(false)) {
        return Given::Nothing;
    }
    // `patternProperties` and `additionalProperties` place different members, and
    // `unevaluatedProperties` only those neither places: beside the one that places it, the
    // others say nothing of it.
    let only = |keywords: &[&str]| {
        o.keys()
            .all(|k| keywords.contains(&k.as_str()) || !says_of_members(k))
    };
    let placing = [
        "patternProperties",
        "additionalProperties",
        "unevaluatedProperties",
    ];
    if !matched.is_empty() {
        if !only(&placing) {
            return Given::Untold;
        }
        let mut told: Vec<(&str, &Value)> = matched
            .into_iter()
            .filter(|(_, s)| !says_nothing(s))
            .collect();
        return match told.len() {
            0 => Given::Untold,
            1 => Given::One(told.remove(0).1),
            _ => Given::Patterns(told),
        };
    }
    if let Some(additional) = o.get("additionalProperties") {
        return match additional {
            Value::Bool(false) => Given::Nothing,
            s if only(&placing) && !says_nothing(s) => Given::One(s),
            _ => Given::Untold,
        };
    }
    if let Some(unevaluated) = o.get("unevaluatedProperties")
        && !evaluated_elsewhere(o, name, 0)
    {
        return match unevaluated {
            Value::Bool(false) => Given::Nothing,
            s if only(&placing) && !says_nothing(s) => Given::One(s),
            _ => Given::Untold,
        };
    }
    let Some(entries) = o.get("allOf").and_then(Value::as_array) else {
        return Given::Untold;
    };
    // `unevaluatedProperties` does not apply to a member an `allOf` entry declares.
    if !only(&["allOf", "patternProperties", "unevaluatedProperties"]) {
        return Given::Untold;
    }
    let entries: Vec<&Value> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| referred(i, e).unwrap_or(e))
        .collect();
    let mut declaring = entries.into_iter().filter(|e| !silent_on(e, name, None));
    let (Some(entry), None) = (declaring.next(), declaring.next()) else {
        return Given::Untold;
    };
    match entry
        .get("patternProperties")
        .is_none()
        .then(|| entry.get("properties")?.get(name))
    {
        Some(Some(s)) if !says_nothing(s) => Given::One(s),
        _ => Given::Untold,
    }
}

/// Whether a keyword of the object schema `o` other than its own `properties`,
/// `patternProperties` and `additionalProperties` may evaluate its member `name`, so that
/// `unevaluatedProperties` beside does not apply to it (2020-12 core §11.3): a reference
/// (what it reaches is not read here), or an in-place subschema (`allOf`, `anyOf`, `oneOf`,
/// `if`, `then`, `else`, `dependentSchemas`, draft-07's `dependencies`, and theirs in turn, 16
/// deep) that declares it or has a keyword that may place it. `not` evaluates nothing.
fn evaluated_elsewhere(o: &Map<String, Value>, name: &str, depth: usize) -> bool {
    const EVALUATING: &[&str] = &[
        "patternProperties",
        "additionalProperties",
        "unevaluatedProperties",
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
    ];
    let nested = |sub: &Value| match sub {
        Value::Object(s) => {
            depth >= 16
                || s.get("properties").is_some_and(|p| p.get(name).is_some())
                || EVALUATING.iter().any(|k| s.contains_key(*k))
                || evaluated_elsewhere(s, name, depth + 1)
        }
        _ => false,
    };
    ["$ref", "$dynamicRef", "$recursiveRef"]
        .iter()
        .any(|k| o.contains_key(*k))
        || ["allOf", "anyOf", "oneOf"]
            .iter()
            .filter_map(|k| o.get(*k).and_then(Value::as_array))
            .flatten()
            .any(nested)
        || ["if", "then", "else"]
            .iter()
            .filter_map(|k| o.get(*k))
            .any(nested)
        || ["dependentSchemas", "dependencies"]
            .iter()
            .filter_map(|k| o.get(*k).and_then(Value::as_object))
            .flat_map(Map::values)
            .any(nested)
}

/// The object schema the schema at `at` (a pointer) is an `allOf` entry of, which applies to
/// the same value; `None` where it is none.
fn all_of_owner(at: &str) -> Option<&str> {
    let (rest, index) = at.rsplit_once('/')?;
    index.parse::<usize>().ok()?;
    rest.strip_suffix("/allOf")
}

impl ArgsSchema {
    /// Whether an object schema the one at `at` is an `allOf` entry of, at any level, gives
    /// its member `name` no value: it applies to the same object, so the member is refused
    /// there too (`unevaluatedProperties: false` beside an `allOf` whose entry requires it).
    pub(super) fn refused_above(&self, at: &str, name: &str) -> bool {
        let mut at = at;
        while let Some(owner) = all_of_owner(at) {
            if self.given(owner, name) == Given::Nothing {
                return true;
            }
            at = owner;
        }
        false
    }
}

/// The keywords whose subschema applies to a value wherever the object or array holding it,
/// or the value itself (`allOf`, a reference in an evaluation path), is reached: a member or
/// item the call sends is checked there with no condition on other values.
const REACHED: &[&str] = &[
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "unevaluatedItems",
    "allOf",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
];

/// Whether the schema at `at` (a pointer into the schema, or an evaluation path through the
/// references the validator followed) applies to the value at its place whatever else the
/// call holds: every step from the root is a keyword of [`REACHED`] (with its member name or
/// index). Not under `anyOf`, `oneOf`, `if`/`then`/`else`, `not`, `dependentSchemas`, `$defs`
/// (a place there is reached by a reference, which only an evaluation path shows): another
/// alternative, or other values, may avoid it.
fn reached_unconditionally(at: &str) -> bool {
    let mut tokens = at.split('/').skip(1);
    while let Some(keyword) = tokens.next() {
        if !REACHED.contains(&keyword) {
            return false;
        }
        let named = matches!(
            keyword,
            "properties" | "patternProperties" | "prefixItems" | "allOf"
        );
        // Draft-07's `items` list names an index too.
        if named || (keyword == "items" && tokens.clone().next().is_some_and(is_index)) {
            tokens.next();
        }
    }
    true
}

fn is_index(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}

/// Whether keywords beside a `$ref` apply under the draft `document` is read in: from 2019-09
/// on (an in-place applicator, 2019-09 core §8.2.4.1); drafts 04 to 07 ignore every keyword
/// beside it, as the validator does (its compiler keeps the `$ref` alone there).
fn beside_ref_applies(document: &Value) -> bool {
    !matches!(
        jsonschema::Draft::Draft202012.detect(document),
        jsonschema::Draft::Draft4 | jsonschema::Draft::Draft6 | jsonschema::Draft::Draft7
    )
}

/// The schema the reference `keyword: reference` (`$ref`, `$dynamicRef` or `$recursiveRef`)
/// of the schema at document pointer `from` in `document` evaluates its value against whatever
/// the dynamic scope, one hop (the schema reached may hold a reference of its own), with its
/// document pointer. Read where it is written: against the base URI of the resource holding
/// `from` (a subschema with its own `$id` starts one, so `#` inside it names that subschema),
/// as the validator reads it. `None` where it reaches no schema of `document`, or where the
/// dynamic scope may redirect it ([`dynamic_target`], [`recursive_target`]).
pub(super) fn reference_target<'d>(
    document: &'d Value,
    from: &str,
    keyword: &str,
    reference: &str,
) -> Option<(&'d Value, String)> {
    match keyword {
        "$ref" => match crate::schema::refs::step_from(document, from, reference) {
            crate::schema::refs::Step::Local(schema, pointer) => Some((schema, pointer)),
            _ => None,
        },
        "$dynamicRef" => dynamic_target(document, from, reference),
        "$recursiveRef" => recursive_target(document, from, reference),
        _ => None,
    }
}

/// The document place of the schema the validator reached by the evaluation path `path` (the
/// keywords from the root, with each reference it followed: `/properties/child/$recursiveRef`),
/// each reference read as [`reference_target`] reads it. `None` where one cannot be told.
pub(super) fn evaluated_place(document: &Value, path: &str) -> Option<String> {
    let mut here = String::new();
    for token in path.split('/').skip(1) {
        if matches!(token, "$ref" | "$dynamicRef" | "$recursiveRef") {
            let reference = resolve_pointer(document, &here)?.get(token)?.as_str()?;
            here = reference_target(document, &here, token, reference)?.1;
        } else {
            here.push('/');
            here.push_str(token);
        }
    }
    Some(here)
}

/// The members the subschemas applying to the object schema at `owner` (a pointer into
/// `document`, the whole schema) declare in their `properties`, each with the place of a
/// declaring subschema, relative to `owner` (`allOf/0`, `anyOf/1/then`, `allOf/0/$ref`): the
/// in-place applicators (`allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`,
/// the schema form of `dependencies`), the `$ref`s, and the `$dynamicRef`s and
/// `$recursiveRef`s that always reach one schema ([`reference_target`]: each read against the
/// base URI of the resource it is written in, as the validator reads it), theirs in turn, 16
/// deep. Not `owner`'s own `properties`, nor under `not`, which declares nothing; under drafts
/// 04 to 07 nothing of a schema holding a `$ref` but what it reaches
/// ([`beside_ref_applies`]). `additionalProperties` beside sees none of them (2020-12 core
/// §10.3.2.3: only `properties` and `patternProperties` of its own object).
pub(super) fn declared_beside<'s>(document: &'s Value, owner: &str) -> Vec<(&'s str, String)> {
    let mut out = Vec::new();
    let beside_ref = beside_ref_applies(document);
    let mut stack: Vec<(String, String, usize)> = vec![(owner.to_string(), String::new(), 0)];
    while let Some((at, place, depth)) = stack.pop() {
        let Some(o) = resolve_pointer(document, &at).and_then(Value::as_object) else {
            continue;
        };
        let ref_alone = !beside_ref && o.contains_key("$ref");
        if depth > 0
            && !ref_alone
            && let Some(p) = o.get("properties").and_then(Value::as_object)
        {
            out.extend(p.keys().map(|k| (k.as_str(), place.clone())));
        }
        if depth >= 16 {
            continue;
        }
        let below = |token: &str| {
            if place.is_empty() {
                token.to_string()
            } else {
                format!("{place}/{token}")
            }
        };
        // Pushed in reverse, so that places come out in the schema's order.
        let mut children: Vec<(String, String, usize)> = Vec::new();
        let mut child = |token: String| {
            let pointer = format!("{at}/{token}");
            children.push((pointer, below(&token), depth + 1));
        };
        if !ref_alone {
            for k in ["allOf", "anyOf", "oneOf"] {
                let entries = o.get(k).and_then(Value::as_array).map_or(0, Vec::len);
                for i in 0..entries {
                    child(format!("{k}/{i}"));
                }
            }
            for k in ["if", "then", "else"] {
                if o.contains_key(k) {
                    child(k.to_string());
                }
            }
            for k in ["dependentSchemas", "dependencies"] {
                for (name, b) in o.get(k).and_then(Value::as_object).into_iter().flatten() {
                    if b.is_object() {
                        child(format!("{k}/{}", crate::json::escape_token(name)));
                    }
                }
            }
        }
        for k in ["$ref", "$dynamicRef", "$recursiveRef"] {
            if let Some(reference) = o.get(k).and_then(Value::as_str)
                && (k == "$ref" || !ref_alone)
                && let Some((_, pointer)) = reference_target(document, &at, k, reference)
            {
                children.push((pointer, below(k), depth + 1));
            }
        }
        stack.extend(children.into_iter().rev());
    }
    out
}

/// The schema a `$dynamicRef` of text `reference`, in the schema at document pointer `from` of
/// `document`, evaluates its value against whatever the dynamic scope, with its document
/// pointer. It resolves as a `$ref` does (2020-12 core §8.2.3.2, against the base URI of the
/// resource holding `from`), unless the schema so reached declares a `$dynamicAnchor` of the
/// fragment's name: evaluation then takes the outermost resource in the dynamic scope
/// declaring that name, which is the schema reached only when `document` declares it there
/// alone (its whole walk counted; [`crate::schema::in_place`] reads a loop so). `None` under a
/// draft without the keyword (before 2020-12, where the validator ignores it), where another
/// declaration may redirect it, or where it reaches no schema of `document`.
fn dynamic_target<'d>(
    document: &'d Value,
    from: &str,
    reference: &str,
) -> Option<(&'d Value, String)> {
    if jsonschema::Draft::Draft202012.detect(document) != jsonschema::Draft::Draft202012 {
        return None;
    }
    let crate::schema::refs::Step::Local(reached, pointer) =
        crate::schema::refs::step_from(document, from, reference)
    else {
        return None;
    };
    let name = reference.rsplit_once('#').map_or("", |(_, f)| f);
    let declares = |v: &Value| {
        !name.is_empty() && v.get("$dynamicAnchor").and_then(Value::as_str) == Some(name)
    };
    if declares(reached) {
        let walk = crate::schema::walk(document);
        if walk.truncated || walk.nodes.iter().filter(|n| declares(n.value)).count() != 1 {
            return None;
        }
    }
    Some((reached, pointer))
}

/// The schema a `$recursiveRef` of text `reference`, in the schema at document pointer `from`
/// of `document`, evaluates its value against whatever the dynamic scope, with its document
/// pointer, as [`dynamic_target`] for 2019-09's keyword: `#` names the root of the resource
/// holding `from` (a subschema with its own `$id` starts one; the validator resolves `#`
/// against that base URI), unless that root says `$recursiveAnchor: true`, when evaluation
/// takes the outermost resource in the dynamic scope saying so too (2019-09 core
/// §8.2.4.2.2), which can only be that root when `document` says it there alone (its whole
/// walk counted, as [`crate::schema::in_place`] reads a loop). `None` under another draft (the
/// validator ignores the keyword there), for a reference other than `#` (the only one 2019-09
/// defines, §8.2.4.2.1; `args` refuses the schema), and where another declaration may
/// redirect it.
fn recursive_target<'d>(
    document: &'d Value,
    from: &str,
    reference: &str,
) -> Option<(&'d Value, String)> {
    if jsonschema::Draft::Draft202012.detect(document) != jsonschema::Draft::Draft201909
        || reference != "#"
    {
        return None;
    }
    let (_, at) = crate::schema::refs::resource(document, from);
    let root = resolve_pointer(document, &at)?;
    let declares = |v: &Value| v.get("$recursiveAnchor") == Some(&Value::Bool(true));
    if declares(root) {
        let walk = crate::schema::walk(document);
        if walk.truncated || walk.nodes.iter().filter(|n| declares(n.value)).count() != 1 {
            return None;
        }
    }
    Some((root, at))
}

/// The places of [`declared_beside`]'s list `beside` where `name` is declared, each quoted
/// for a message; `None` where it is declared in none.
pub(super) fn declaring(beside: &[(&str, String)], name: &str) -> Option<Vec<String>> {
    let places: Vec<String> = beside
        .iter()
        .filter(|(n, _)| *n == name)
        .map(|(_, place)| format!("`{}`", crate::report::escape_inline(place)))
        .collect();
    (!places.is_empty()).then_some(places)
}

/// How a member that `additionalProperties: false` of `owner` refuses, though the subschemas
/// at `places` ([`declaring`]) declare it, is said: declared there, and not seen by the
/// keyword. "Not a declared argument" would be false, and the model could not tell why.
pub(super) fn declared_unseen(name: &str, places: &[String], owner: Option<&Value>) -> String {
    let own = if owner.is_some_and(|o| o.get("patternProperties").is_some()) {
        "`properties` and `patternProperties`"
    } else {
        "`properties`"
    };
    format!(
        "`{}` is declared under {}, but `additionalProperties: false` here sees only this \
         object's own {own}",
        crate::report::escape_inline(name),
        super::list(places, 3)
    )
}

/// What a member [`declared_unseen`] says of expects, where the object does not also require
/// it ([`unsatisfiable`] then): no value, as the schema stands.
pub(super) fn refused_though_declared(name: &str) -> String {
    format!(
        "no value at all: the tool's schema, not the call, must change to take `{}`",
        crate::report::escape_inline(name)
    )
}

/// What a required member the schema refuses every value of expects, sent or left out: the
/// same words either way, so that the model is not sent back and forth between "leave it out"
/// and "required", and told that only the schema can change.
pub(super) fn unsatisfiable(name: &str) -> String {
    format!(
        "no value at all: the schema both requires `{}` and refuses every value of it, so no \
         call can satisfy it here; the tool's schema, not the call, must change",
        crate::report::escape_inline(name)
    )
}

impl ArgsSchema {
    /// Whether the object schema at `at` (a pointer into the compiled schema), with the
    /// schemas applying to the same object in place (those it is an `allOf` entry of, theirs,
    /// and their entries; from 2019-09 on also through references, [`beside_ref_applies`]:
    /// the schema holding the reference it was reached by, and what its own references reach,
    /// [`reference_target`]), both requires its member `name` and refuses every value of it
    /// ([`Given::Nothing`]), where that object is reached whatever else the call holds
    /// ([`reached_unconditionally`]): no call can satisfy it there. `evaluated` is the
    /// validator's evaluation path to the schema at `at` where it followed a reference to get
    /// there (`/properties/child/$recursiveRef` for the root): the schemas it passed on the way
    /// apply to the same object, which the place alone does not tell.
    pub(super) fn requires_and_refuses(
        &self,
        at: &str,
        evaluated: Option<&str>,
        name: &str,
    ) -> bool {
        let document = self.lookup_root();
        let through_refs = beside_ref_applies(document);
        let mut top = evaluated.unwrap_or(at);
        loop {
            if let Some(owner) = all_of_owner(top) {
                top = owner;
                continue;
            }
            match top.rsplit_once('/') {
                Some((owner, k))
                    if through_refs && matches!(k, "$ref" | "$dynamicRef" | "$recursiveRef") =>
                {
                    top = owner;
                }
                _ => break,
            }
        }
        if !reached_unconditionally(top) {
            return false;
        }
        let Some(top) = evaluated_place(document, top) else {
            return false;
        };
        // The object's schemas: `top`, its `allOf` entries and what its references reach,
        // theirs in turn, 16 deep.
        let mut group: Vec<String> = Vec::new();
        let mut stack = vec![(top, 0)];
        while let Some((place, depth)) = stack.pop() {
            let Some(schema) = resolve_pointer(document, &place) else {
                continue;
            };
            if group.contains(&place) {
                continue;
            }
            if depth < 16 {
                if let Some(entries) = schema.get("allOf").and_then(Value::as_array) {
                    stack.extend(
                        (0..entries.len()).map(|i| (format!("{place}/allOf/{i}"), depth + 1)),
                    );
                }
                for k in ["$ref", "$dynamicRef", "$recursiveRef"] {
                    if through_refs
                        && let Some(reference) = schema.get(k).and_then(Value::as_str)
                        && let Some((_, reached)) = reference_target(document, &place, k, reference)
                    {
                        stack.push((reached, depth + 1));
                    }
                }
            }
            group.push(place);
        }
        let requires = |place: &String| {
            resolve_pointer(document, place)
                .and_then(|s| s.get("required"))
                .and_then(Value::as_array)
                .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name)))
        };
        // Which keys match is asked of the engine: only for a member some schema requires.
        group.iter().any(requires)
            && group
                .iter()
                .any(|place| self.given(place, name) == Given::Nothing)
    }

    /// The validator's evaluation path to the object schema `up` steps above the keyword of
    /// its error `e`, which sits at `at` in the document, where the validator followed a
    /// reference on the way ([`ArgsSchema::requires_and_refuses`] reads it); `None` where it
    /// followed none, or where the path does not lead back to `at` as [`evaluated_place`]
    /// reads it (the place alone then says what is known).
    pub(super) fn evaluated_owner(
        &self,
        e: &ValidationError<'_>,
        at: &str,
        up: usize,
    ) -> Option<String> {
        let mut owner = e.evaluation_path().as_str();
        for _ in 0..up {
            owner = owner.rsplit_once('/')?.0;
        }
        if !owner
            .split('/')
            .any(|t| matches!(t, "$ref" | "$dynamicRef" | "$recursiveRef"))
        {
            return None;
        }
        (evaluated_place(self.lookup_root(), owner)? == at).then(|| owner.to_string())
    }
}

/// What a missing member the schemas of several `patternProperties` keys (`(key, schema)`)
/// all apply to expects: what they describe alike, else each key with what its schema
/// expects ("a value meeting the schema of every `patternProperties` key its name matches:
/// `^b` (an integer), `c$` (at least 3)"), a schema with no words of its own ("a value") said
/// by its bounds ([`unions::push_bounds`]), else named by its key alone.
pub(super) fn expected_of_keys(root: &Value, keys: &[(&str, &Value)]) -> String {
    let described: Vec<String> = keys
        .iter()
        .map(|(_, s)| match unions::described(root, s) {
            d if d == super::SOME_VALUE => {
                let mut bounds = String::new();
                unions::push_bounds(&mut bounds, s);
                match bounds.trim_start() {
                    "" => d,
                    b => b.to_string(),
                }
            }
            d => d,
        })
        .collect();
    if described
        .iter()
        .all(|d| *d == described[0] && d != super::SOME_VALUE)
    {
        return described[0].clone();
    }
    let mut text = String::from(
        "a value meeting the schema of every `patternProperties` key its name matches: ",
    );
    for (i, ((key, _), d)) in keys.iter().zip(&described).enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        text.push('`');
        text.push_str(&crate::report::escape_inline(key));
        text.push('`');
        if d != super::SOME_VALUE {
            text.push_str(" (");
            text.push_str(d);
            text.push(')');
        }
    }
    text
}
