//! Repairs of `type`: non-standard spellings, `[T, "null"]`, a missing type.

use serde_json::{Value, json};

use super::*;

pub(super) fn type_spelling(tool: &Tool, f: &Finding, profile: &CompiledProfile) -> Found {
    let steps = place::steps(&f.pointer);
    let (node, index) = match steps.last() {
        Some(Step::Keyword(k, rest)) if k == "type" => {
            let idx = rest.first().and_then(|r| r.parse::<usize>().ok());
            let suffix = 5 + rest.iter().map(|r| r.len() + 1).sum::<usize>();
            (f.pointer[..f.pointer.len() - suffix].to_string(), idx)
        }
        _ => return Err(format!("no `type` at {:?}", f.pointer)),
    };
    let map = schema_at(tool, &node)?;
    let written = match (map.get("type"), index) {
        (Some(Value::String(s)), None) => s.clone(),
        (Some(Value::Array(a)), Some(i)) => a
            .get(i)
            .and_then(Value::as_str)
            .ok_or("not a type name")?
            .to_string(),
        (Some(Value::Array(a)), None) if a.is_empty() => {
            // Said as check says it: the list names no type (not "not a string").
            return Err(
                "`type: []` names no type (JSON Schema wants at least one), so it allows no \
                 value and what was meant cannot be known"
                    .into(),
            );
        }
        (Some(Value::Array(a)), None) => {
            return Err(format!(
                "a list of types: {}",
                show(&Value::Array(a.clone()))
            ));
        }
        _ => return Err("`type` is not a name".into()),
    };
    if let Some(names) = crate::profile::feature::joined_type_names(&written) {
        return joined_spelling(tool, f, profile, (&node, index), &written, &names);
    }
    let Some((std, lost)) = crate::profile::feature::type_meant_by(&written) else {
        return Err(unknown_type(&written));
    };
    if std == written {
        return Err(format!("`type: {written}` is already standard"));
    }
    let mut out = Vec::new();
    if PROTO_TYPES.contains(&written.as_str()) {
        out.extend(lower_proto_types(tool, &f.rule));
    }
    let t = edited(tool, &node, |m| match index {
        Some(i) => {
            if let Some(Value::Array(a)) = m.get_mut("type") {
                a[i] = json!(std);
            }
        }
        None => {
            m.insert("type".into(), json!(std));
        }
    })?;
    // A name in a list is said at its place in the list, where check reports it and compile
    // says its own rewrite of it (`/type/0`).
    let at = match index {
        Some(i) => format!("{}/{i}", f_at(&node, "type")),
        None => f_at(&node, "type"),
    };
    out.push(Candidate::one(
        t,
        &at,
        &f.rule,
        format!("wrote the type `{written}` as `{std}`"),
        lost.map(|l| format!("`{written}` also said {l}")),
    ));
    Ok(out)
}

/// Rewrites `written`, a `type` (`index`: a name in a `type` list) that joins the type names
/// `names` in one string (`"string, null"`), as the list it means: `type: ["string", "null"]`,
/// or, in a list, the names in its place (`["string, null"]` becomes `["string", "null"]`),
/// a name the list gives already not written again. Lossless: the names are what the string
/// says. Where the profile rejects that list as a list (a target takes no type lists), the
/// list is rewritten in the same candidate as `type-list`'s own finding on it would be (one
/// type made optional, or `nullable`), since the list alone would be a new kind of error; a
/// union no one type says is refused with `type-list`'s reason.
fn joined_spelling(
    tool: &Tool,
    f: &Finding,
    profile: &CompiledProfile,
    (node, index): (&str, Option<usize>),
    written: &str,
    names: &[&str],
) -> Found {
    let map = schema_at(tool, node)?;
    let mut read: Vec<Value> = Vec::new();
    let (at, action) = match (index, map.get("type")) {
        (Some(i), Some(Value::Array(list))) => {
            for (j, v) in list.iter().enumerate() {
                if j != i {
                    read.push(v.clone());
                    continue;
                }
                for name in names {
                    let name = json!(name);
                    // Given elsewhere in the list, or twice in the string: written once.
                    if !read.contains(&name) && !list.contains(&name) {
                        read.push(name);
                    }
                }
            }
            (
                format!("{}/{i}", f_at(node, "type")),
                format!(
                    "wrote `{written}` in the `type` list as the names it joins: `{}`",
                    show(&Value::Array(read.clone()))
                ),
            )
        }
        _ => {
            for name in names {
                let name = json!(name);
                if !read.contains(&name) {
                    read.push(name);
                }
            }
            (
                f_at(node, "type"),
                format!(
                    "wrote the type `{written}` as the list it names, `{}`",
                    show(&Value::Array(read.clone()))
                ),
            )
        }
    };
    let listed = Value::Array(read);
    let mut t = tool.clone();
    schema_mut(&mut t, node)?.insert("type".into(), listed.clone());
    let respelled = change(&at, &f.rule, action, None);
    let list_at = f_at(node, "type");
    let refused = crate::repair::errors(&t, profile)
        .into_iter()
        .find(|g| g.pointer == list_at && g.rule == crate::profile::rules::type_list::RULE.id);
    let Some(refused) = refused else {
        return Ok(vec![Candidate::many(t, vec![respelled])]);
    };
    let unwrapped = type_list(&t, &refused).map_err(|why| {
        format!(
            "`type: \"{written}\"` means the list `{}`, which the profile does not take as a \
             list, and it cannot be written otherwise: {why}",
            show(&listed)
        )
    })?;
    let then = |c: Candidate| -> Result<Candidate, String> {
        let mut changes = vec![respelled.clone()];
        changes.extend(c.changes);
        Ok(Candidate {
            rewrite: Rewrite::Tool(c.rewrite.applied_to(&t)?),
            changes,
            uses_nullable: c.uses_nullable,
            respells: c.respells,
            instead: None,
        })
    };
    unwrapped
        .into_iter()
        .map(|mut c| {
            let instead = c.instead.take().map(|i| then(*i)).transpose()?;
            let mut made = then(c)?;
            made.instead = instead.map(Box::new);
            Ok(made)
        })
        .collect()
}

/// Why a `type` spelling repair has no reading for (`strin`, `any`) is refused: it is none of
/// JSON Schema's types nor a known other spelling of one, so the type meant is a guess. `any`
/// is a spelling of its own: it means every value, which no one type says.
fn unknown_type(written: &str) -> String {
    if written.eq_ignore_ascii_case("any") {
        return format!(
            "`type: \"{written}\"` means any value, but JSON Schema has no such type and no one \
             type accepts every value; repair does not guess which to write (by hand: leave \
             `type` out where the targets accept that)"
        );
    }
    format!(
        "`type: \"{written}\"` is not a JSON Schema type ({}) nor a known other spelling of one \
         (such as `str` or `dict`); repair does not guess which type was meant",
        crate::profile::feature::STANDARD_TYPES.join(", ")
    )
}

/// Gemini's (Protocol Buffers `Type` enum) spellings of JSON Schema's types.
const PROTO_TYPES: &[&str] = &[
    "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL",
];

/// Every Gemini spelling of a type in the schema written in JSON Schema's lower case: when
/// the profile rejects one of them, the others (which may have no evidence either way) would
/// otherwise stay upper case next to it. `NULL` becomes `null`, which later rounds treat like
/// any other null (optional argument, or `nullable` where the profile prefers it). `None`
/// when there is no such spelling.
fn lower_proto_types(tool: &Tool, rule: &str) -> Option<Candidate> {
    let schema = tool.parameters.as_ref()?;
    let pointers: Vec<String> = crate::schema::walk(schema)
        .nodes
        .iter()
        .filter(|n| {
            let names: Vec<&Value> = match n.object().and_then(|o| o.get("type")) {
                Some(Value::Array(a)) => a.iter().collect(),
                Some(v) => vec![v],
                None => Vec::new(),
            };
            names
                .iter()
                .any(|v| v.as_str().is_some_and(|s| PROTO_TYPES.contains(&s)))
        })
        .map(|n| n.pointer.clone())
        .collect();
    let mut t = Draft::of(tool);
    let mut changes = Vec::new();
    for p in &pointers {
        let Ok(m) = t.schema(p) else {
            continue;
        };
        let Some(ty) = m.get_mut("type") else {
            continue;
        };
        let names: Vec<&mut Value> = match ty {
            Value::Array(a) => a.iter_mut().collect(),
            v => vec![v],
        };
        for v in names {
            if let Some(s) = v.as_str().filter(|s| PROTO_TYPES.contains(s)) {
                let lower = s.to_ascii_lowercase();
                changes.push(change(
                    &f_at(p, "type"),
                    rule,
                    format!("wrote the type `{s}` as `{lower}`"),
                    None,
                ));
                *v = Value::String(lower);
            }
        }
    }
    (!changes.is_empty()).then(|| Candidate::many(t, changes))
}

/// What a `type` list says, read the way repair rewrites it (a name that joins several in one
/// string, `"string, null"`, read as the names it joins): the one type left besides
/// `null` (with `integer` folded into a `number` beside it: every integer is a number), and
/// whether `null` was listed.
#[derive(Debug)]
pub struct TypeListReading<'a> {
    /// The names as written, each once, in order.
    pub names: Vec<&'a str>,
    /// The one type the list says besides `null`.
    pub one: &'a str,
    /// `null` was listed.
    pub null: bool,
    /// `integer` was dropped for the `number` beside it.
    pub folded: bool,
}

/// Reads the `type` list of `schema` as [`TypeListReading`], or says why no single type says
/// what it does: a real union (`[string, integer]`), only `null`, or a schema whose only
/// value is null (`const: null`), which as an optional argument of the other type would
/// accept every value of that type instead. What `type-list` marks repairable.
pub fn type_list_reading(schema: &Map<String, Value>) -> Result<TypeListReading<'_>, String> {
    let list = schema
        .get("type")
        .and_then(Value::as_array)
        .ok_or("`type` is not a list")?;
    let mut names: Vec<&str> = Vec::new();
    for v in list {
        let s = v.as_str().ok_or("a type in the list is not a name")?;
        // A name that joins several (`["string, null"]`) says the names it joins, as check
        // reads it ([`crate::profile::rules::type_list::representative`]).
        let joined = crate::profile::feature::joined_type_names(s);
        for s in joined.unwrap_or_else(|| vec![s]) {
            if !names.contains(&s) {
                names.push(s);
            }
        }
    }
    let null = names.contains(&"null");
    let mut rest: Vec<&str> = names.iter().copied().filter(|n| *n != "null").collect();
    let folded = rest.contains(&"number") && rest.contains(&"integer");
    if folded {
        rest.retain(|n| *n != "integer");
    }
    let one = match rest.as_slice() {
        [one] => *one,
        [] => {
            return Err(format!(
                "`type: [{}]` accepts only null: the argument carries no value, which no type \
                 but `null` says (leave the property out)",
                names.join(", ")
            ));
        }
        _ => {
            return Err(format!(
                "a union of types ({}): no single type accepts the same arguments",
                names.join(", ")
            ));
        }
    };
    let values = allowed_values(schema);
    if null && !values.is_empty() && values.iter().all(|v| v.is_null()) {
        return Err(format!(
            "its only value is null ({}): written as `{one}`, it would accept any {one} \
             instead (leave the property out)",
            only_values(schema)
        ));
    }
    Ok(TypeListReading {
        names,
        one,
        null,
        folded,
    })
}

pub(super) fn type_list(tool: &Tool, f: &Finding) -> Found {
    let node = owner(f, "type").ok_or("no `type` where the finding points")?;
    let map = schema_at(tool, &node)?;
    let reading = type_list_reading(map)?;
    let listed = map
        .get("type")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    // A name given twice in a list of several types: written once, the list kept (lossless),
    // as a target that takes lists but not the repeat (the meta-schema's `uniqueItems`)
    // wants; where lists are refused, the next round rewrites the list itself.
    if listed > reading.names.len() && reading.names.len() > 1 && !reading.folded {
        let names: Vec<Value> = reading.names.iter().map(|n| json!(n)).collect();
        let mut t = Draft::of(tool);
        t.schema(&node)?.insert("type".into(), Value::Array(names));
        return Ok(vec![Candidate::one(
            t,
            &f_at(&node, "type"),
            &f.rule,
            format!(
                "wrote `{}` as `[{}]`, each type once",
                show(&map["type"]),
                reading.names.join(", ")
            ),
            None,
        )]);
    }
    let one = reading.one.to_string();
    let had_null = reading.null;
    // As written, when `integer` was folded in; else as before (`[T, null]`).
    let written = if reading.folded {
        reading.names.join(", ")
    } else {
        format!("{one}, null")
    };
    let mut base = Draft::of(tool);
    base.schema(&node)?.insert("type".into(), json!(one));
    // A `const` or `enum` none of whose values is null admits no null whatever the list
    // says: the null is said by nothing, and writing it as `nullable: true` (or an optional
    // argument) would let a null through that the schema refuses.
    let values = allowed_values(map);
    let null_said = values.is_empty() || values.iter().any(|v| v.is_null());
    if had_null && !null_said {
        return Ok(vec![Candidate::one(
            base,
            &f_at(&node, "type"),
            &f.rule,
            format!(
                "wrote `[{written}]` as `type: {one}`: its {} admits no null",
                only_values(map)
            ),
            None,
        )]);
    }
    if !had_null {
        return Ok(vec![Candidate::one(
            base,
            &f_at(&node, "type"),
            &f.rule,
            if reading.folded {
                format!("wrote `[{written}]` as `type: {one}` (every integer is a number)")
            } else if listed > 1 {
                format!(
                    "wrote `{}` as `type: {one}`, the one type it names",
                    show(&map["type"])
                )
            } else {
                format!("wrote the one-type list as `type: {one}`")
            },
            None,
        )]);
    }
    let mut out = Vec::new();
    let mut optional = base.clone();
    if let Some(lost) = make_optional(&mut optional, &node) {
        // The schema no longer accepts null, so neither does its `enum` (a null left there
        // would name a value the type refuses); `nullable: true` below keeps it.
        let dropped = drop_null_from_enum(optional.schema(&node)?);
        out.push(Candidate::one(
            optional,
            &f_at(&node, "type"),
            &f.rule,
            format!(
                "wrote `[{written}]` as `{one}` and made the argument optional{}",
                if dropped {
                    ", and dropped `null` from its `enum`"
                } else {
                    ""
                }
            ),
            Some(lost.into()),
        ));
    }
    let mut nullable = base.clone();
    nullable
        .schema(&node)?
        .insert("nullable".into(), json!(true));
    let mut without_null = base;
    let dropped = drop_null_from_enum(without_null.schema(&node)?);
    let without_null = Candidate::one(
        without_null,
        &f_at(&node, "type"),
        &f.rule,
        format!(
            "wrote `[{written}]` as `{one}`, without null{}",
            if dropped {
                ", and dropped `null` from its `enum`"
            } else {
                ""
            }
        ),
        Some(NULL_DROPPED_LOSS.into()),
    );
    out.push(
        Candidate::one(
            nullable,
            &f_at(&node, "type"),
            &f.rule,
            format!("wrote `[{written}]` as `{one}` with `nullable: true`"),
            None,
        )
        .nullable(without_null),
    );
    Ok(out)
}

/// Drops `null` from the `enum` of `schema` when it lists one beside other values (an `enum`
/// of null alone is left: dropping it would leave a schema that accepts nothing). Returns
/// whether it did.
fn drop_null_from_enum(schema: &mut Map<String, Value>) -> bool {
    let Some(Value::Array(values)) = schema.get_mut("enum") else {
        return false;
    };
    if !values.iter().any(Value::is_null) || values.iter().all(Value::is_null) {
        return false;
    }
    values.retain(|v| !v.is_null());
    true
}

/// The values the `const` (else the `enum`) of `schema` allows; empty when it has neither.
fn allowed_values(schema: &Map<String, Value>) -> Vec<&Value> {
    match (schema.get("const"), schema.get("enum")) {
        (Some(c), _) => vec![c],
        (None, Some(Value::Array(e))) => e.iter().collect(),
        _ => Vec::new(),
    }
}

/// The `const` (else `enum`) of `schema` as written, quoted: `` `const: null` ``.
fn only_values(schema: &Map<String, Value>) -> String {
    match schema
        .get_key_value("const")
        .or_else(|| schema.get_key_value("enum"))
    {
        Some((k, v)) => format!("`{k}: {}`", crate::report::Shown(v)),
        None => String::new(),
    }
}

/// Why no `type` can be written for an untyped schema ([`type_said_by`] found none): what its
/// `enum`/`const` holds, or that nothing restricts it. `profile` is the one in force (a
/// target's under `--target`): an unrestricted schema is refused for what it rejects, which
/// need not be what `portable` rejects.
fn untyped(map: &Map<String, Value>, profile: &str) -> String {
    let values = allowed_values(map);
    let keyword = if map.contains_key("const") {
        "const"
    } else {
        "enum"
    };
    if values.is_empty() {
        return format!(
            "no `type`, and nothing says which: it accepts any value, which no schema under \
             `{profile}` says"
        );
    }
    if values.iter().all(|v| v.is_null()) {
        return format!(
            "no `type`, and its only value is null ({}): the argument carries no value, \
             which no type but `null` says (leave the property out)",
            only_values(map)
        );
    }
    let mut kinds: Vec<&str> = Vec::new();
    for v in &values {
        let k = crate::json::kind(v);
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    if kinds.len() > 1 {
        format!(
            "no `type`, and the values of its `{keyword}` are of different kinds ({}): no \
             single type accepts them all",
            kinds.join(", ")
        )
    } else {
        format!(
            "no `type`, and the values of its `{keyword}` are {}s: repair writes a type only \
             for string, number or boolean values",
            kinds[0]
        )
    }
}

/// The type every value of an `enum`/`const` has, when they agree (integers among numbers
/// are numbers).
fn type_of_values(values: &[Value]) -> Option<&'static str> {
    let kind = |v: &Value| match v {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        _ => None,
    };
    let first = kind(values.first()?)?;
    let mut said = first;
    for v in values {
        match (said, kind(v)?) {
            (a, b) if a == b => {}
            ("integer" | "number", "integer" | "number") => said = "number",
            _ => return None,
        }
    }
    Some(said)
}

/// The `type` an untyped schema says by its other keywords, with why and whether writing it
/// narrows what the schema accepted: the one type of every `enum`/`const` value, else `object`
/// for `properties`, else `array` for `items`; `None` when nothing says (what repair writes
/// for a missing `type`, and so what `type-missing` marks repairable).
pub fn type_said_by(map: &Map<String, Value>) -> Option<(&'static str, &'static str, bool)> {
    let values: Option<Vec<Value>> = map
        .get("enum")
        .and_then(Value::as_array)
        .cloned()
        .or_else(|| map.get("const").map(|c| vec![c.clone()]));
    if let Some(t) = values.as_deref().and_then(type_of_values) {
        Some((t, "every value of its `enum`/`const` is one", false))
    } else if map.contains_key("properties") {
        Some(("object", "it declares `properties`", true))
    } else if map.contains_key("items") {
        Some(("array", "it declares `items`", true))
    } else {
        None
    }
}

/// The list applicators whose branches apply to the value of the schema holding them.
const IN_PLACE_LISTS: &[&str] = &["anyOf", "oneOf", "allOf"];
/// The one-schema applicators that apply to the value of the schema holding them.
const IN_PLACE_ONE: &[&str] = &["not", "if", "then", "else"];

/// Where an untyped subschema's [`type_from_combinator`] comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeSource<'a> {
    /// The `type` as the schema it comes from wrote it.
    pub ty: &'a Value,
    /// That schema has OpenAPI's `nullable: true` beside its `type`, which the copy takes too.
    pub nullable: bool,
    /// The in-place applicator (`anyOf`, `not`, `if`, ...) the subschema is in, or, for a
    /// property, the one nearest to the object whose `properties` hold it.
    pub keyword: String,
    /// For a property schema, the pointer of the property's schema in the object the
    /// applicators apply to, which gives the `type`; `None` when the schema holding the
    /// applicator gives it.
    pub property: Option<String>,
}

/// The `type` an untyped subschema of an in-place applicator (a branch of `anyOf`, `oneOf` or
/// `allOf`, or the schema of `not`, `if`, `then` or `else`) takes from the schema holding that
/// keyword, with the keyword: `root` is the parameters schema and `pointer` the subschema's
/// place in it. So does an untyped property schema of such a subschema (`/if/properties/v`,
/// or a property of one: `/if/properties/o/properties/v`) from the same property of the
/// object the applicators apply to (`/properties/v`, `/properties/o/properties/v`), which
/// applies to the same value: only where that object and its property have a `type`, so that
/// the property's `type` already holds wherever the object's does (a conditional over a
/// property, `if: {properties: {v: {pattern}}}`, is the common shape; session 45's helper E
/// found it refused under `llama.cpp/server`, which wants a `type` on every schema).
/// JSON Schema applies the holder's `type` and those keywords to the same value
/// (2020-12 core §10.2: <https://json-schema.org/draft/2020-12/json-schema-core#section-10.2>),
/// so that `type` already holds in each of them and, written into one, changes nothing the
/// schema accepts (for `not`, T ∧ ¬S is T ∧ ¬(T ∧ S)), which a type said by the subschema's own
/// keywords, [`type_said_by`], may. Subschemas that apply to other values (`properties`,
/// `items`, `contains`, ...) take nothing. The `type` is a name or a list of names
/// (`["string", "null"]`), as the holder wrote it.
///
/// Errors: `None` when `pointer` is no such subschema, it has a `type` of its own, or the
/// holder has no `type` of that shape; `Some(why)` when the subschema with that `type` would
/// be a shape `profile` rejects (`object` over one without `properties`, `array` over one
/// without `items`), which repair could not then keep. What repair writes for a missing
/// `type` first, and so what `type-missing` marks repairable there.
pub fn type_from_combinator<'a>(
    root: &'a Value,
    pointer: &str,
    profile: &CompiledProfile,
) -> Result<TypeSource<'a>, Option<String>> {
    // The placement check judges the subschema's shapes at (`detect`'s).
    let (k, owner, placement, property) = match place::steps(pointer).pop() {
        Some(Step::Element(k, n)) if IN_PLACE_LISTS.contains(&k.as_str()) => {
            let owner = pointer[..pointer.len() - format!("/{k}/{n}").len()].to_string();
            (k, owner, crate::case::Placement::AnyofBranch, false)
        }
        Some(Step::Keyword(k, rest)) if rest.is_empty() && IN_PLACE_ONE.contains(&k.as_str()) => {
            let owner = pointer[..pointer.len() - k.len() - 1].to_string();
            (k, owner, crate::case::Placement::Nested, false)
        }
        Some(Step::Member(..)) => {
            let (owner, object, k) = same_value_property(pointer).ok_or(None)?;
            // The object the applicators apply to must say it is one (conservative: where it
            // does not, both `properties` still say nothing of another value).
            let is_object = root
                .pointer(&object)
                .and_then(|o| o.get("type"))
                .is_some_and(|t| t == "object");
            if !is_object {
                return Err(None);
            }
            (k, owner, crate::case::Placement::Nested, true)
        }
        _ => return Err(None),
    };
    let owner = owner.as_str();
    // A `true` branch is `{}` (2020-12 core §4.3.2), which repair writes it as first:
    // `boolean-schema` asks what the `{}` would then be given.
    let empty = Map::new();
    let branch = match root.pointer(pointer) {
        Some(Value::Object(branch)) => branch,
        Some(Value::Bool(true)) => &empty,
        _ => return Err(None),
    };
    if branch.contains_key("type") {
        return Err(None);
    }
    let source = root.pointer(owner).and_then(Value::as_object).ok_or(None)?;
    let ty = source.get("type").ok_or(None)?;
    // OpenAPI's `nullable: true` beside the `type` admits null too (as `args` reads it, and
    // repair writes a `[T, "null"]` list so for a target that wants it): the copy carries it,
    // or a null the schema accepted would be refused there (trial 55 D1).
    let nullable = source.get("nullable") == Some(&Value::Bool(true));
    let names: Vec<&str> = match ty {
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        v => v.as_str().into_iter().collect(),
    };
    let listed = match ty {
        Value::Array(a) => a.len(),
        _ => 1,
    };
    if names.is_empty() || names.len() != listed {
        return Err(None);
    }
    // The shapes object-properties-missing and array-items-missing report once the branch
    // names the type.
    let brought = if names.contains(&"object") {
        match branch.get("properties") {
            None => Some((
                value::OBJECT_WITHOUT_PROPERTIES,
                "an object schema without `properties`",
            )),
            Some(Value::Object(m)) if m.is_empty() => Some((
                value::EMPTY_PROPERTIES,
                "an object schema with an empty `properties` map",
            )),
            Some(_) => None,
        }
    } else {
        None
    }
    .or_else(|| {
        (names.contains(&"array")
            && !branch.contains_key("items")
            && !branch.contains_key("prefixItems"))
        .then_some((
            value::ARRAY_WITHOUT_ITEMS,
            "an array schema without `items`",
        ))
    });
    if let Some((shape, what)) = brought {
        let slot = profile.lookup(&Feat::Structure(shape), placement);
        if matches!(slot, Slot::Rejected(_)) {
            let whence = if property {
                format!("of {owner}, the same value's schema outside the `{k}`,")
            } else {
                format!("beside the `{k}`")
            };
            return Err(Some(format!(
                "no `type`; the `type: {}` {whence} applies to it, but written there it \
                 makes {what}, which `{}` rejects (`structure: {shape}`)",
                show(ty),
                profile.name
            )));
        }
    }
    Ok(TypeSource {
        ty,
        nullable,
        keyword: k,
        property: property.then(|| owner.to_string()),
    })
}

/// For a property schema `B/properties/n` (or `B/properties/m/properties/n`, any run of
/// properties) whose `B` is in place of a schema `S` through one or more in-place applicators
/// (`S/if`, `S/allOf/0/not`, ...): the pointer of `S/properties/n` (`S/properties/m/
/// properties/n`), which applies to the same value (both `properties` read the same member of
/// the same object, and say nothing of a value that is no object), and the applicator nearest
/// to `B`, with the pointer of `S`. `None` for any other place.
fn same_value_property(pointer: &str) -> Option<(String, String, String)> {
    let mut steps = place::steps(pointer);
    let mut members = Vec::new();
    while let Some(Step::Member(map, name)) = steps.last() {
        if map != "properties" {
            return None;
        }
        members.push(name.clone());
        steps.pop();
    }
    let mut nearest = None;
    while let Some(k) = steps.last().and_then(|step| match step {
        Step::Element(k, _) if IN_PLACE_LISTS.contains(&k.as_str()) => Some(k.clone()),
        Step::Applicator(k) if IN_PLACE_ONE.contains(&k.as_str()) => Some(k.clone()),
        _ => None,
    }) {
        nearest.get_or_insert(k);
        steps.pop();
    }
    let nearest = nearest?;
    let mut holder = String::new();
    for step in &steps {
        holder = match step {
            Step::Applicator(k) => crate::json::push_token(&holder, k),
            Step::Member(k, n) => crate::json::push_token(&crate::json::push_token(&holder, k), n),
            Step::Element(k, i) => {
                crate::json::push_token(&crate::json::push_token(&holder, k), &i.to_string())
            }
            Step::Keyword(..) => return None,
        };
    }
    let mut property = holder.clone();
    for name in members.iter().rev() {
        property = crate::json::push_token(&crate::json::push_token(&property, "properties"), name);
    }
    (!members.is_empty()).then_some((property, holder, nearest))
}

/// Why the untyped schema at `f`'s place cannot be given a `type`; `None` when the schema
/// holding its applicator ([`type_from_combinator`]) or its other keywords say one (or there
/// is no schema there).
pub(super) fn untyped_at(tool: &Tool, f: &Finding, profile: &CompiledProfile) -> Option<String> {
    let node = untyped_node(f);
    let map = schema_at(tool, &node).ok()?;
    match type_from_combinator(tool.parameters.as_ref()?, &node, profile) {
        Ok(_) => None,
        Err(Some(why)) => Some(why),
        Err(None) => type_said_by(map)
            .is_none()
            .then(|| untyped(map, &profile.name)),
    }
}

/// The schema a `type-missing` finding is about (it may point at where `type` would be).
fn untyped_node(f: &Finding) -> String {
    place::keyword_owner(&f.pointer, "type").unwrap_or_else(|| f.pointer.clone())
}

/// The untyped schema at `node` given the `type` (and `nullable`) [`type_from_combinator`]
/// found for it, as a change of rule `rule`.
fn typed_as_holder(
    tool: &Tool,
    node: &str,
    rule: &str,
    source: TypeSource<'_>,
) -> Result<Candidate, String> {
    let TypeSource {
        ty,
        nullable,
        keyword: k,
        property,
    } = source;
    let mut t = Draft::of(tool);
    let schema = t.schema(node)?;
    schema.insert("type".into(), ty.clone());
    if nullable {
        schema.insert("nullable".into(), Value::Bool(true));
    }
    let from = match property {
        Some(p) => format!(
            "from {p} (the `{k}` applies to the object holding it, so the same property is \
             the same value)"
        ),
        None => format!(
            "from the schema holding the `{k}` (it applies to {})",
            if k.ends_with("Of") {
                "every branch"
            } else {
                "the same value"
            }
        ),
    };
    let nullable = if nullable {
        " and `nullable: true`"
    } else {
        ""
    };
    Ok(Candidate::one(
        t,
        node,
        rule,
        format!("wrote `type: {}`{nullable} {from}", show(ty)),
        None,
    ))
}

/// The tool with the untyped schema at `node` given the `type` [`type_from_combinator`] says,
/// and the change, as repair writes it for `type-missing`; `None` where it says none. For
/// compile, where a target's offline model wants a `type` on a schema `check` does not ask one
/// of (the schema of a `not`, `if`, `then` or `else`, which no evidence says a target rejects
/// untyped).
pub fn typed_from_holder(
    tool: &Tool,
    node: &str,
    profile: &CompiledProfile,
) -> Option<(Tool, Vec<Change>)> {
    let source = type_from_combinator(tool.parameters.as_ref()?, node, profile).ok()?;
    let rule = crate::profile::rules::type_missing::RULE.id;
    let c = typed_as_holder(tool, node, rule, source).ok()?;
    Some((c.rewrite.applied_to(tool).ok()?, c.changes))
}

pub(super) fn type_missing(tool: &Tool, f: &Finding, profile: &CompiledProfile) -> Found {
    let node = untyped_node(f);
    let map = schema_at(tool, &node)?;
    let root = tool.parameters.as_ref().ok_or_else(|| no_schema(&node))?;
    match type_from_combinator(root, &node, profile) {
        Ok(source) => return Ok(vec![typed_as_holder(tool, &node, &f.rule, source)?]),
        Err(Some(why)) => return Err(why),
        Err(None) => {}
    }
    let Some((ty, why, narrows)) = type_said_by(map) else {
        return Err(untyped(map, &profile.name));
    };
    let mut t = Draft::of(tool);
    t.schema(&node)?.insert("type".into(), json!(ty));
    Ok(vec![Candidate::one(
        t,
        &node,
            &f.rule,
            format!("added `type: {ty}` ({why})"),
            narrows.then(|| format!("values that are not {ty}s, which the schema accepted by saying nothing, are refused")),
    )])
}
