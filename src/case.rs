//! The case catalog: one YAML file per case under `cases/<family>/<name>.yaml`.
//!
//! A case is a known-good baseline tool plus exactly one feature. The file format is
//! documented in `cases/README.md`; every file is validated when loaded and a bad file is an
//! error naming the file, the line and the problem. Large inputs (limits) are not written out
//! but produced by a `generate:` block applied to the baseline, so the catalog stays readable.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value, json};

use crate::error::{Error, Place, Result};
use crate::json::{self, Limits};
use crate::profile::feature::Limit;
use crate::tool::ToolDef;

pub mod isolation;

/// The id of the control case: the bare baseline, sent first to every target.
pub const CONTROL_ID: &str = "control/baseline";

/// The baseline tool every case starts from. Its one property, `value`, is where nested
/// features go.
pub fn baseline() -> ToolDef {
    ToolDef {
        name: "probe_tool".into(),
        description: Some("Looks up a record by its identifier.".into()),
        parameters: Some(json!({
            "type": "object",
            "properties": {
                "value": {"type": "string", "description": "The identifier of the record."}
            },
            "required": ["value"]
        })),
    }
}

/// Where in the tool the case's feature sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// The parameters schema itself.
    Root,
    /// A property of the root object.
    Nested,
    /// The `items` schema of an array property.
    Items,
    /// A branch of an `anyOf`.
    AnyofBranch,
    /// The tool outside its schema: name, description.
    Tool,
    /// The request: several tools, their count or their names together.
    Request,
}

impl Placement {
    /// Every placement, in declaration order.
    pub const ALL: [Placement; 6] = [
        Placement::Root,
        Placement::Nested,
        Placement::Items,
        Placement::AnyofBranch,
        Placement::Tool,
        Placement::Request,
    ];
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Placement::Root => "root",
            Placement::Nested => "nested",
            Placement::Items => "items",
            Placement::AnyofBranch => "anyof-branch",
            Placement::Tool => "tool",
            Placement::Request => "request",
        };
        f.write_str(s)
    }
}

/// A generated feature, applied to the baseline (see `cases/README.md`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Generate {
    /// `n` nested object schemas counting the root (`value` → `value` → ...), a string leaf;
    /// `n` at most [`MAX_NESTED_DEPTH`].
    NestedDepth { n: usize },
    /// `value` gets an `enum` of `n` distinct strings.
    EnumSize { n: usize },
    /// The root gets `n` string properties.
    PropertyCount { n: usize },
    /// `n` string properties across the tools of one request: copies of the baseline named
    /// `probe_tool_0` ..., each with up to [`PROPERTIES_PER_TOOL`] of them (the last the rest).
    RequestPropertyCount { n: usize },
    /// The parameters schema is padded with described properties to exactly `n` bytes of
    /// compact JSON: `n` is the baseline's 125 bytes, or 167 (one empty padding property) or
    /// more.
    SchemaBytes { n: usize },
    /// `n` copies of the baseline named `probe_tool_0` ... in one request.
    ToolCount { n: usize },
    /// The tool name is exactly `n` characters.
    NameLength { n: usize },
    /// The description is exactly `n` characters.
    DescriptionLength { n: usize },
}

impl Generate {
    /// The kind as a case file writes it (`nested-depth`).
    pub fn kind(&self) -> &'static str {
        match self {
            Generate::NestedDepth { .. } => "nested-depth",
            Generate::EnumSize { .. } => "enum-size",
            Generate::PropertyCount { .. } => "property-count",
            Generate::RequestPropertyCount { .. } => "request-property-count",
            Generate::SchemaBytes { .. } => "schema-bytes",
            Generate::ToolCount { .. } => "tool-count",
            Generate::NameLength { .. } => "name-length",
            Generate::DescriptionLength { .. } => "description-length",
        }
    }

    /// The size asked for.
    pub fn n(&self) -> usize {
        match *self {
            Generate::NestedDepth { n }
            | Generate::EnumSize { n }
            | Generate::PropertyCount { n }
            | Generate::RequestPropertyCount { n }
            | Generate::SchemaBytes { n }
            | Generate::ToolCount { n }
            | Generate::NameLength { n }
            | Generate::DescriptionLength { n } => n,
        }
    }

    /// The limit the generator builds, `n` of it: the parameter kind of the cases it serves.
    pub fn limit(&self) -> Limit {
        match self {
            Generate::NestedDepth { .. } => Limit::Depth,
            Generate::EnumSize { .. } => Limit::EnumSize,
            Generate::PropertyCount { .. } => Limit::PropertyCount,
            Generate::RequestPropertyCount { .. } => Limit::RequestPropertyCount,
            Generate::SchemaBytes { .. } => Limit::SchemaBytes,
            Generate::ToolCount { .. } => Limit::ToolCount,
            Generate::NameLength { .. } => Limit::NameLength,
            Generate::DescriptionLength { .. } => Limit::DescriptionLength,
        }
    }

    /// Where the rules measure [`Generate::limit`]: the placement of the cases it serves.
    pub fn placement(&self) -> Placement {
        match self.limit() {
            Limit::Depth | Limit::EnumSize | Limit::PropertyNameLength => Placement::Nested,
            Limit::PropertyCount | Limit::SchemaBytes => Placement::Root,
            Limit::RequestPropertyCount | Limit::ToolCount => Placement::Request,
            Limit::NameLength | Limit::DescriptionLength => Placement::Tool,
        }
    }
}

/// An argument object with its verdict under JSON Schema 2020-12, used to tell whether a
/// target that accepts the schema also enforces the feature (`accepted-ignored`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Instance {
    pub args: Value,
    pub valid: bool,
}

/// One case, loaded and expanded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Case {
    /// `<family>/<name>`, equal to the file's path under `cases/` without `.yaml`.
    pub id: String,
    pub title: String,
    /// The rule family (the folder).
    pub family: String,
    /// The rule-family parameter this case informs, e.g. `keyword-allowed: not`.
    pub parameter: String,
    pub placement: Placement,
    /// The tools of the request (one for most cases).
    pub tools: Vec<ToolDef>,
    /// Whether the tools ask for OpenAI's strict mode (`strict: true`): sent so wherever the
    /// target's envelope carries the flag. Only the `structure: strict-*` cases do, whose
    /// feature is a schema not in strict form sent that way.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub strict: bool,
    pub instances: Vec<Instance>,
    pub notes: String,
    pub links: Vec<String>,
    /// The file it came from.
    #[serde(skip)]
    pub path: PathBuf,
}

impl Case {
    /// True for the control case.
    pub fn is_control(&self) -> bool {
        self.id == CONTROL_ID
    }

    /// `sha256:<hex>` of what the case sends: its tools (as compact JSON, key order kept)
    /// and its strict flag. Every observation records it (`case_digest`), so that a run of
    /// the case as it was before an edit is told apart from one of the case as it is.
    pub fn digest(&self) -> String {
        let sent = serde_json::to_vec(&(&self.tools, self.strict)).unwrap_or_default();
        crate::evidence::digest(&sent)
    }
}

/// The raw file, before expansion.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    id: String,
    title: String,
    family: String,
    parameter: String,
    placement: Placement,
    #[serde(default)]
    tool: Option<JsonValue>,
    #[serde(default)]
    tools: Option<Vec<JsonValue>>,
    #[serde(default)]
    generate: Option<Generate>,
    #[serde(default)]
    strict: bool,
    #[serde(default)]
    instances: Vec<InstanceFile>,
    #[serde(default)]
    notes: String,
    #[serde(default)]
    links: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct InstanceFile {
    args: JsonValue,
    valid: bool,
}

/// A YAML value that must also be plain JSON: string keys, finite numbers, no binary, no
/// duplicate keys. Key order is kept.
#[derive(Debug, Clone)]
struct JsonValue(Value);

impl<'de> Deserialize<'de> for JsonValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        // serde-saphyr decodes `!!binary` into a string before any visitor sees it, so the
        // tag itself is the only way to tell; every other explicit tag is refused too, since
        // JSON has no tags and a tag that changes a value's meaning would be lost silently.
        let serde_saphyr::Tagged(UntaggedJson(value), tag) = Deserialize::deserialize(d)?;
        match tag.as_deref() {
            None => Ok(JsonValue(value)),
            Some(t) if json_core_tag(t) => Ok(JsonValue(value)),
            Some(t) => Err(de::Error::custom(format!(
                "YAML tag {t:?} has no JSON form (only plain JSON values are allowed)"
            ))),
        }
    }
}

/// A value read with `deserialize_any`, its tag not yet checked.
struct UntaggedJson(Value);

impl<'de> Deserialize<'de> for UntaggedJson {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_any(JsonVisitor).map(UntaggedJson)
    }
}

/// Explicit YAML core-schema tags whose values JSON can hold unchanged (`!!str`, `!!int`, ...).
fn json_core_tag(tag: &str) -> bool {
    let name = tag
        .strip_prefix("tag:yaml.org,2002:")
        .or_else(|| tag.strip_prefix("!!"))
        .unwrap_or(tag);
    matches!(
        name,
        "str" | "int" | "float" | "bool" | "null" | "map" | "seq"
    )
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-compatible value")
    }
    fn visit_bool<E>(self, v: bool) -> std::result::Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> std::result::Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> std::result::Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Value, E> {
        Number::from_f64(v).map(Value::Number).ok_or_else(|| {
            E::custom(format!(
                "{v} is not a JSON number (NaN and infinities have no JSON form)"
            ))
        })
    }
    fn visit_str<E>(self, v: &str) -> std::result::Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> std::result::Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> std::result::Result<Value, E> {
        Err(E::custom("binary data is not JSON-compatible"))
    }
    fn visit_unit<E>(self) -> std::result::Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> std::result::Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Value, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(JsonValue(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(StringKey(k)) = map.next_key()? {
            if out.contains_key(&k) {
                return Err(de::Error::custom(format!("duplicate key {k:?}")));
            }
            let JsonValue(v) = map.next_value()?;
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

/// A mapping key that must be a string (JSON objects have string keys only).
struct StringKey(String);

impl<'de> Deserialize<'de> for StringKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = String;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_str<E>(self, v: &str) -> std::result::Result<String, E> {
                Ok(v.to_string())
            }
            fn visit_string<E>(self, v: String) -> std::result::Result<String, E> {
                Ok(v)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<String, E> {
                Err(E::custom(format!(
                    "mapping key {v} is not a string (quote it)"
                )))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<String, E> {
                Err(E::custom(format!(
                    "mapping key {v} is not a string (quote it)"
                )))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<String, E> {
                Err(E::custom(format!(
                    "mapping key {v} is not a string (quote it)"
                )))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<String, E> {
                Err(E::custom(format!(
                    "mapping key {v} is not a string (quote it)"
                )))
            }
            fn visit_unit<E: de::Error>(self) -> std::result::Result<String, E> {
                Err(E::custom("mapping key null is not a string (quote it)"))
            }
        }
        d.deserialize_any(V).map(StringKey)
    }
}

/// Largest case file accepted, in bytes. The biggest literal case is a few KB; large inputs
/// are generated.
pub const MAX_CASE_BYTES: u64 = 1024 * 1024;
/// Deepest value a case may carry, counting JSON arrays and objects (generated depth cases go
/// deeper than a file may write out, up to this).
pub const MAX_CASE_DEPTH: usize = 256;
/// Deepest YAML nesting a case file may write out, its top-level mapping counted: a schema
/// written literally may nest about 60 levels; deeper inputs are generated.
pub const MAX_CASE_YAML_DEPTH: usize = 64;
/// Largest `n` of the `nested-depth` generator: `n` object schemas nest `2n + 1` JSON levels
/// (each object and its `properties`, then the string leaf), which must stay within
/// [`MAX_CASE_DEPTH`].
pub const MAX_NESTED_DEPTH: usize = (MAX_CASE_DEPTH - 1) / 2;
/// Largest `n` a generator accepts, so that a typo cannot ask for a gigabyte.
pub const MAX_GENERATE_N: usize = 200_000;

/// Loads and validates one case file. `root` is the `cases/` folder, used to check that the
/// id matches the file's place.
pub fn load_case(root: &Path, path: &Path) -> Result<Case> {
    load_measured(root, path).map(|(case, _)| case)
}

/// [`load_case`], with the limits the rules measure in the case's tools and where it wrote
/// them, for the catalog's check across cases ([`isolation::within_other_limits`]).
fn load_measured(root: &Path, path: &Path) -> Result<(Case, isolation::Measured)> {
    let (case, source) = read_case(root, path)?;
    let measured = isolation::check(&case, source)
        .map_err(|(pointer, problem)| Error::input(path, Place::Pointer(pointer), problem))?;
    Ok((case, measured))
}

/// Reads and validates one case file as a file: everything [`load_case`] checks but that it
/// holds exactly its one feature.
fn read_case(root: &Path, path: &Path) -> Result<(Case, isolation::Source)> {
    let limits = Limits {
        max_bytes: MAX_CASE_BYTES,
        max_depth: MAX_CASE_DEPTH,
    };
    crate::project::refuse_special_file(path)?;
    let bytes = json::read_capped(path, limits)?;
    let text = json::check_utf8(path, &bytes)?;
    let file: CaseFile = from_yaml(path, text, yaml_options, case_field)?;
    let at = |pointer: &str, problem: String| {
        Error::input(path, Place::Pointer(pointer.into()), problem)
    };

    let rel = path.strip_prefix(root).unwrap_or(path);
    let expected_id = rel.with_extension("").to_string_lossy().replace('\\', "/");
    if file.id != expected_id {
        return Err(at(
            "/id",
            format!(
                "id {:?} does not match the file's place (expected {expected_id:?})",
                file.id
            ),
        ));
    }
    let folder = expected_id.split('/').next().unwrap_or_default();
    if file.family != folder {
        return Err(at(
            "/family",
            format!("family {:?} is not the folder {folder:?}", file.family),
        ));
    }
    for (key, v) in [("/title", &file.title), ("/parameter", &file.parameter)] {
        if v.trim().is_empty() {
            return Err(at(key, "must not be empty".into()));
        }
    }
    check_parameter(&file.parameter).map_err(|p| at("/parameter", p))?;
    // The family's rules read only their own family's cases: a kind filed in another folder
    // would inform rules that never look at it.
    if let Some(owner) = parameter_family(&file.parameter)
        && owner != file.family
    {
        return Err(at(
            "/parameter",
            format!(
                "parameter {:?} belongs to the family {owner:?}, not {:?} (see cases/README.md \
                 for the vocabulary of each family)",
                file.parameter, file.family
            ),
        ));
    }
    // The strict-form features exist only in a tool sent in strict mode, and strict mode
    // informs nothing else: a flag elsewhere would add a second feature to the case.
    let strict_feature = [
        crate::profile::feature::value::STRICT_OPEN_OBJECT,
        crate::profile::feature::value::STRICT_REQUIRED_INCOMPLETE,
    ]
    .iter()
    .any(|v| file.parameter == format!("structure: {v}"));
    if file.strict != strict_feature {
        return Err(at(
            "/strict",
            if file.strict {
                format!(
                    "`strict: true` belongs only to the `structure: strict-*` cases, not {:?}",
                    file.parameter
                )
            } else {
                format!("parameter {:?} needs `strict: true`", file.parameter)
            },
        ));
    }
    let given = [
        file.tool.is_some(),
        file.tools.is_some(),
        file.generate.is_some(),
    ];
    if given.iter().filter(|b| **b).count() != 1 {
        return Err(at(
            "",
            "give exactly one of `tool`, `tools` or `generate`".into(),
        ));
    }
    let source = if file.tool.is_some() {
        isolation::Source::Tool
    } else if file.tools.is_some() {
        isolation::Source::Tools
    } else {
        isolation::Source::Generate(file.generate.expect("checked above"))
    };
    let tools = if let Some(JsonValue(t)) = file.tool {
        vec![tool_from_value(&t).map_err(|p| at("/tool", p))?]
    } else if let Some(list) = file.tools {
        if list.is_empty() {
            return Err(at("/tools", "must list at least one tool".into()));
        }
        list.iter()
            .enumerate()
            .map(|(i, JsonValue(t))| tool_from_value(t).map_err(|p| at(&format!("/tools/{i}"), p)))
            .collect::<Result<Vec<_>>>()?
    } else {
        let g = file.generate.expect("checked above");
        generate(&g).map_err(|p| at("/generate", p))?
    };
    for (i, t) in tools.iter().enumerate() {
        if let Some(p) = &t.parameters
            && json::value_depth(p) > MAX_CASE_DEPTH
        {
            return Err(at(
                &format!("/tools/{i}/parameters"),
                format!("nesting deeper than {MAX_CASE_DEPTH} levels"),
            ));
        }
    }
    let instances: Vec<Instance> = file
        .instances
        .into_iter()
        .map(|i| Instance {
            args: i.args.0,
            valid: i.valid,
        })
        .collect();
    if let Some(i) = instances.iter().position(|i| !i.args.is_object()) {
        return Err(at(
            &format!("/instances/{i}/args"),
            "an instance must be an object (a tool call's arguments are always an object)".into(),
        ));
    }
    check_instances(&tools, &instances).map_err(|(pointer, problem)| at(&pointer, problem))?;
    let case = Case {
        id: file.id,
        title: file.title,
        family: file.family,
        parameter: file.parameter,
        placement: file.placement,
        tools,
        strict: file.strict,
        instances,
        notes: file.notes,
        links: file.links,
        path: path.to_path_buf(),
    };
    Ok((case, source))
}

/// Each instance's `valid` is what JSON Schema 2020-12 (the jsonschema crate, the reference
/// engine) says of it under the first tool's parameters. The prober judges enforcement by
/// these claims: a wrong one made the reference engine itself "accepted, not enforced" in
/// the run log. The error is the instance's JSON Pointer in the case file and the problem.
fn check_instances(
    tools: &[ToolDef],
    instances: &[Instance],
) -> std::result::Result<(), (String, String)> {
    if instances.is_empty() {
        return Ok(());
    }
    let schema = tools
        .first()
        .and_then(|t| t.parameters.clone())
        .unwrap_or(Value::Bool(true));
    let validator = jsonschema::draft202012::options()
        .build(&schema)
        .map_err(|e| {
            (
                "/instances".to_string(),
                format!(
                    "instances need a schema valid under JSON Schema 2020-12 to be judged by, \
                     and this one is not: {e}"
                ),
            )
        })?;
    for (i, inst) in instances.iter().enumerate() {
        let valid = validator.is_valid(&inst.args);
        if valid != inst.valid {
            let word = |v: bool| if v { "valid" } else { "invalid" };
            return Err((
                format!("/instances/{i}/valid"),
                format!(
                    "the instance is {} under JSON Schema 2020-12, not {} as claimed",
                    word(valid),
                    word(inst.valid)
                ),
            ));
        }
    }
    Ok(())
}

// The `parameter` vocabulary of `cases/README.md`: `<kind>` or `<kind>: <value>`.

/// Kinds without a value.
const BARE_PARAMETERS: [&str; 3] = ["control", "type-missing", "name-unique"];
/// Kinds whose value is a positive whole number (a size, a count, a depth).
const LIMIT_PARAMETERS: [&str; 9] = [
    "depth-limit",
    "enum-size-limit",
    "property-count-limit",
    "request-property-count-limit",
    "schema-bytes-limit",
    "tool-count-limit",
    "name-length-limit",
    "description-length-limit",
    "property-name-length-limit",
];
/// Kinds whose value is one kebab-case word.
const WORD_PARAMETERS: [&str; 4] = ["root-shape", "structure", "name-chars", "description"];

/// Checks a case's `parameter` against the vocabulary in `cases/README.md` (the profile code
/// parses it, so a typo would silently inform nothing). Errors say what is wrong.
pub fn check_parameter(parameter: &str) -> std::result::Result<(), String> {
    if BARE_PARAMETERS.contains(&parameter) {
        return Ok(());
    }
    let Some((kind, value)) = parameter.split_once(": ") else {
        return Err(format!(
            "parameter {parameter:?} is neither one of {BARE_PARAMETERS:?} nor `<kind>: <value>`"
        ));
    };
    let is_word = |w: &str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'$')
    };
    let bad = |why: &str| Err(format!("parameter {parameter:?}: {why}"));
    match kind {
        k if LIMIT_PARAMETERS.contains(&k) => match value.parse::<u64>() {
            Ok(n) if n > 0 && value == n.to_string() => Ok(()),
            _ => bad("the value must be a positive whole number"),
        },
        k if WORD_PARAMETERS.contains(&k) => {
            if is_word(value) {
                Ok(())
            } else {
                bad("the value must be one kebab-case word")
            }
        }
        "type-spelling" => {
            // Any spelling, written as it appears in `type` (`""` for the empty string),
            // optionally with a ` (form)` note such as `null (JSON null)`.
            let spelling = value.split(" (").next().unwrap_or_default();
            if spelling.is_empty() || spelling.contains(char::is_whitespace) {
                bad("the spelling must be one word (write `\"\"` for the empty string)")
            } else {
                check_form(value.strip_prefix(spelling).unwrap_or_default()).or_else(|e| bad(&e))
            }
        }
        "type-list" => {
            if value.split(',').all(|t| !t.is_empty() && !t.contains(' ')) {
                Ok(())
            } else {
                bad("the value must be type names joined by `,` without spaces")
            }
        }
        "keyword-allowed" | "format-allowed" => {
            let name = value.split(" (").next().unwrap_or_default();
            let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '$' | '-' | '_');
            if name.is_empty() || !name.chars().all(name_char) {
                return bad("the keyword or format must be one word, as written in the schema");
            }
            let form = value.strip_prefix(name).unwrap_or_default();
            if kind == "format-allowed" && !form.is_empty() {
                return bad("a format takes no ` (form)`");
            }
            check_form(form).or_else(|e| bad(&e))
        }
        _ => bad("unknown kind (see cases/README.md for the vocabulary)"),
    }
}

/// The family (folder) a parameter's kind belongs to, per the vocabulary table of
/// `cases/README.md`; `None` for a kind outside it (which [`check_parameter`] refuses).
pub fn parameter_family(parameter: &str) -> Option<&'static str> {
    let kind = parameter.split_once(": ").map_or(parameter, |(k, _)| k);
    Some(match kind {
        "control" => "control",
        "root-shape" => "root",
        "type-spelling" | "type-list" | "type-missing" => "types",
        "keyword-allowed" => "keywords",
        "format-allowed" => "formats",
        "structure" => "structure",
        "depth-limit"
        | "enum-size-limit"
        | "property-count-limit"
        | "request-property-count-limit"
        | "schema-bytes-limit"
        | "tool-count-limit"
        | "property-name-length-limit" => "limits",
        "name-length-limit" | "name-chars" | "name-unique" => "names",
        "description" | "description-length-limit" => "descriptions",
        _ => return None,
    })
}

/// An optional ` (<form>)` suffix: empty, or a space, a parenthesised non-empty text.
fn check_form(form: &str) -> std::result::Result<(), String> {
    if form.is_empty() {
        return Ok(());
    }
    match form.strip_prefix(" (").and_then(|f| f.strip_suffix(')')) {
        Some(inner) if !inner.trim().is_empty() && !inner.contains(['(', ')']) => Ok(()),
        _ => Err(format!("{form:?} is not a ` (<form>)` suffix")),
    }
}

/// How many events aliases may replay in one case file, all aliases together.
const MAX_CASE_ALIAS_REPLAY: usize = 10_000;

/// The YAML reader's settings: its default budget (events, nodes, aliases, scalar bytes) with
/// the nesting cap stated here, duplicate keys refused, and YAML 1.2 booleans (only `true` and
/// `false`; YAML 1.1 would read `n`, `no`, `off` as false, turning the generator key `n` and
/// enum members like `no` into booleans).
fn yaml_options() -> serde_saphyr::Options {
    let mut options = serde_saphyr::Options::default();
    options.duplicate_keys = serde_saphyr::DuplicateKeyPolicy::Error;
    options.strict_booleans = true;
    // A case file is a few KiB: an alias replaying more than this is a bomb (billion laughs),
    // refused at once instead of after a million replayed events (5 s in a debug build).
    options.alias_limits.max_total_replayed_events = MAX_CASE_ALIAS_REPLAY;
    if let Some(budget) = options.budget.as_mut() {
        budget.max_depth = MAX_CASE_YAML_DEPTH;
        // The scanner's own cap on `[`/`{` nesting, met before the depth budget is.
        budget.flow_nesting_limit = MAX_CASE_YAML_DEPTH;
    }
    options
}

/// Reads `text`, the contents of `path`, as YAML into `T`. An error names the line and
/// column, and, when it is about a field (a wrong type, a bad value), the field's JSON Pointer
/// too: serde's own message names only the type it expected, which a file with many fields
/// of that type leaves the reader to guess. Read on a deep stack: the path tracking adds
/// frames to every level, and the 64 levels the reader allows overflowed a test thread's
/// 2 MiB stack in a debug build.
/// `field_of` turns the pointer serde tracked into the field's pointer in the file.
pub(crate) fn from_yaml<T: de::DeserializeOwned + Send>(
    path: &Path,
    text: &str,
    options: fn() -> serde_saphyr::Options,
    field_of: fn(String) -> String,
) -> Result<T> {
    json::on_deep_stack(|| {
        let mut field = None;
        serde_saphyr::with_deserializer_from_str_with_options(text, options(), |d| {
            serde_path_to_error::deserialize(d).map_err(|e| {
                field = Some(field_of(json::pointer_of(e.path())));
                e.into_inner()
            })
        })
        .map_err(|e| {
            let field = field.as_deref().unwrap_or_default();
            // A value met as the wrong type may be the start of one that is not YAML at all
            // (`kind: [unclosed`): serde's words for the type ("externally tagged enum
            // expected scalar or mapping", trial 79 D5) hid the syntax error, which the
            // author must fix first. So the text is read again without a type, and its
            // syntax error, if any, is the one said; at the field when on its line.
            match serde_saphyr::from_str_with_options::<de::IgnoredAny>(text, options()) {
                Err(syntax) if !is_duplicate_key(&syntax) => {
                    let line = |e: &serde_saphyr::Error| e.location().map(|l| l.line());
                    let at = if line(&syntax) == line(&e) { field } else { "" };
                    yaml_error(path, &syntax, at)
                }
                _ => yaml_error(path, &e, field),
            }
        })
    })
}

/// Whether the reader's error `e` is a key given twice (the typed read's own error then).
fn is_duplicate_key(e: &serde_saphyr::Error) -> bool {
    let mut inner = e;
    while let serde_saphyr::Error::WithSnippet { error, .. }
    | serde_saphyr::Error::AliasError { error, .. } = inner
    {
        inner = error;
    }
    matches!(inner, serde_saphyr::Error::DuplicateMappingKey { .. })
}

/// The pointer of a case file's field, cut at the start of a free JSON value (`tool`, a
/// member of `tools`, an instance's `args`): inside one, serde's path also steps through the
/// tag check's wrapper of every value ([`JsonValue`]), and the line and column already say
/// where in the value the problem is.
fn case_field(pointer: String) -> String {
    let steps: Vec<&str> = pointer.split('/').collect();
    let keep = match steps.as_slice() {
        ["", "tool", _, ..] => 2,
        ["", "tools", _, _, ..] => 3,
        ["", "instances", _, "args", _, ..] => 4,
        _ => return pointer,
    };
    steps[..keep].join("/")
}

/// The library's wording for a malformed document, said in the file author's terms: some of
/// it names the library's own API (`use from_str_multiple`) or the parser's states, which the
/// author of a case file has none of. `None` keeps the library's text.
fn plain_yaml_problem(problem: &str) -> Option<String> {
    let p = problem.trim();
    if p.starts_with("multiple YAML documents detected") {
        return Some(
            "a second YAML document (after a `---` line): the file must hold one document".into(),
        );
    }
    if p == "expected mapping start" {
        return Some(
            "the document is not a mapping of `key: value` lines (a bare value, or a list)".into(),
        );
    }
    if p.starts_with("mapping values are not allowed in this context") {
        return Some(
            "a `key:` where none can start (is this line indented like the key above it, and is a `:` inside a value quoted?)".into(),
        );
    }
    if p.starts_with("alias replay limit exceeded") {
        return Some(format!(
            "aliases (`*name`) would copy more than {MAX_CASE_ALIAS_REPLAY} YAML events (an alias bomb?): a case file writes its values out"
        ));
    }
    if p == "externally tagged enum expected scalar or mapping" {
        return Some(
            "expected one of the names this field takes (a plain word), found a list or another value".into(),
        );
    }
    if p.starts_with("tabs disallowed") {
        return Some("a tab in the indentation: YAML indents with spaces only".into());
    }
    None
}

/// The error for a YAML file that could not be read into its type: the place is the line and
/// column; `field`, the JSON Pointer of the field being read (empty at the top level), goes
/// before the problem.
fn yaml_error(path: &Path, e: &serde_saphyr::Error, field: &str) -> Error {
    let place = match e.location() {
        Some(loc) if loc.line() > 0 => Place::LineColumn {
            line: loc.line() as usize,
            column: loc.column() as usize,
        },
        _ => Place::File,
    };
    // The cause may sit behind a snippet or an alias wrapper (an error met while replaying an
    // alias); its message is what the user needs, the place stays the outer one.
    let mut inner = e;
    while let serde_saphyr::Error::WithSnippet { error, .. }
    | serde_saphyr::Error::AliasError { error, .. } = inner
    {
        inner = error;
    }
    if let serde_saphyr::Error::Budget { breach, .. } = inner {
        use serde_saphyr::budget::BudgetBreach;
        let problem = match breach {
            BudgetBreach::Depth { .. } => {
                format!("nesting deeper than {MAX_CASE_YAML_DEPTH} levels")
            }
            BudgetBreach::Nodes { nodes } => format!(
                "more than {} YAML nodes (an alias counts every time it is used)",
                nodes.saturating_sub(1)
            ),
            other => format!("the file is beyond the YAML reader's limits ({other:?})"),
        };
        return Error::input(path, place, problem);
    }
    // The library's own wording points at its options, which the user of a case file has none
    // of.
    if let serde_saphyr::Error::DuplicateMappingKey { key, .. } = inner {
        let key = key
            .as_deref()
            .map(|k| format!(" {k:?}"))
            .unwrap_or_default();
        return Error::input(
            path,
            place,
            format!("duplicate key{key}: a mapping may give each key once"),
        );
    }
    let text = inner.to_string();
    // The library appends its own position; we report the place separately.
    let problem = match text.find(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    };
    let problem = plain_yaml_problem(&problem).unwrap_or(problem);
    // The scanner words its flow-nesting cap (set in `yaml_options`) as recursion.
    let problem = if problem.trim() == "recursion limit exceeded" {
        format!("nesting deeper than {MAX_CASE_YAML_DEPTH} levels")
    } else {
        problem
    };
    // serde's advice for a null ("use Option<String>") is about Rust types, which the author
    // of a YAML file has none of: name what was found and what belongs there.
    let problem = match problem.trim().strip_prefix("cannot deserialize null into ") {
        Some(rest) => {
            let expected = rest.split(';').next().unwrap_or(rest).trim();
            format!("found nothing (an empty or null key or value) where a {expected} is expected")
        }
        None => problem,
    };
    let problem = problem.trim();
    if field.is_empty() {
        Error::input(path, place, problem.to_string())
    } else {
        Error::input(path, place, format!("at {field}: {problem}"))
    }
}

/// Turns a case's `tool` value into a [`ToolDef`]. Only `name`, `description` and
/// `parameters` are allowed; `description` and `parameters` may be left out.
fn tool_from_value(v: &Value) -> std::result::Result<ToolDef, String> {
    let obj = v.as_object().ok_or("a tool must be a mapping")?;
    for k in obj.keys() {
        if !matches!(k.as_str(), "name" | "description" | "parameters") {
            return Err(format!(
                "unknown tool key {k:?} (allowed: name, description, parameters)"
            ));
        }
    }
    let name = match obj.get("name") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err("`name` must be a string".into()),
        None => return Err("a tool needs a `name`".into()),
    };
    let description = match obj.get("description") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err("`description` must be a string".into()),
    };
    Ok(ToolDef {
        name,
        description,
        parameters: obj.get("parameters").cloned(),
    })
}

/// Expands a generator against the baseline.
pub fn generate(g: &Generate) -> std::result::Result<Vec<ToolDef>, String> {
    let n = g.n();
    if n == 0 || n > MAX_GENERATE_N {
        return Err(format!("n must be between 1 and {MAX_GENERATE_N}, got {n}"));
    }
    // Checked before building: a value nested thousands deep would overflow the stack when
    // dropped, long before the depth check on the result could refuse it.
    if let Generate::NestedDepth { n } = g
        && *n > MAX_NESTED_DEPTH
    {
        return Err(format!(
            "nested-depth n must be at most {MAX_NESTED_DEPTH} (the schema would nest deeper than {MAX_CASE_DEPTH} JSON levels), got {n}"
        ));
    }
    let mut tool = baseline();
    match g {
        Generate::NestedDepth { n } => {
            let mut inner = json!({"type": "string", "description": "The innermost value."});
            for level in (1..*n).rev() {
                inner = json!({
                    "type": "object",
                    "description": format!("Level {level}."),
                    "properties": {"value": inner},
                    "required": ["value"]
                });
            }
            tool.parameters = Some(
                json!({"type": "object", "properties": {"value": inner}, "required": ["value"]}),
            );
        }
        Generate::EnumSize { n } => {
            let values: Vec<Value> = (0..*n).map(|i| Value::String(format!("v{i}"))).collect();
            tool.parameters.as_mut().expect("baseline has parameters")["properties"]["value"]["enum"] =
                Value::Array(values);
        }
        Generate::PropertyCount { n } => {
            tool.parameters = Some(properties_schema(*n));
        }
        Generate::RequestPropertyCount { n } => {
            return Ok((0..n.div_ceil(PROPERTIES_PER_TOOL))
                .map(|i| ToolDef {
                    name: format!("probe_tool_{i}"),
                    parameters: Some(properties_schema(
                        (n - i * PROPERTIES_PER_TOOL).min(PROPERTIES_PER_TOOL),
                    )),
                    ..baseline()
                })
                .collect());
        }
        Generate::SchemaBytes { n } => {
            tool.parameters = Some(pad_schema_to(*n)?);
        }
        Generate::ToolCount { n } => {
            return Ok((0..*n)
                .map(|i| ToolDef {
                    name: format!("probe_tool_{i}"),
                    ..baseline()
                })
                .collect());
        }
        Generate::NameLength { n } => {
            let mut name = String::from("probe_tool");
            name.truncate(*n);
            while name.len() < *n {
                name.push('x');
            }
            tool.name = name;
        }
        Generate::DescriptionLength { n } => {
            let base = "Looks up a record by its identifier. ";
            tool.description = Some(base.chars().cycle().take(*n).collect());
        }
    }
    Ok(vec![tool])
}

/// Properties per tool of a [`Generate::RequestPropertyCount`] case: the largest
/// `property-count-limit` case every target with evidence accepts, so that only the count
/// across the request is new.
pub const PROPERTIES_PER_TOOL: usize = 100;

/// A root of `n` string properties `p0` ... (`p0` required).
fn properties_schema(n: usize) -> Value {
    let props: Map<String, Value> = (0..n)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    json!({"type": "object", "properties": props, "required": ["p0"]})
}

/// A parameters schema of exactly `n` bytes of compact JSON (`serde_json::to_string`): the
/// baseline plus string properties `pad0`, `pad1`, ... whose descriptions are ASCII filler of
/// at most [`PAD_DESCRIPTION_CHARS`] characters; the last one is cut to land on `n`, and when
/// the bytes left are fewer than an empty padding property costs, the previous description is
/// lengthened instead. `n` equal to the baseline's size gives the baseline; any `n` from the
/// baseline plus one empty padding property upwards can be reached.
fn pad_schema_to(n: usize) -> std::result::Result<Value, String> {
    let mut schema = baseline().parameters.expect("baseline has parameters");
    let compact_len = |v: &Value| serde_json::to_string(v).map(|s| s.len()).unwrap_or(0);
    // What one padding property adds: a comma, its key and an empty-description schema.
    // The filler is ASCII without characters JSON escapes, so one char is one byte.
    let empty_pad_len =
        |i: usize| format!(r#","pad{i}":{{"type":"string","description":""}}"#).len();
    let filler = |len: usize| -> String { PAD_TEXT.chars().cycle().take(len).collect() };
    let base = compact_len(&schema);
    if n != base && n < base + empty_pad_len(0) {
        return Err(format!(
            "schema-bytes n={n} is below the smallest schema it can build ({base} bytes bare, {} with one padding property)",
            base + empty_pad_len(0)
        ));
    }
    let props = schema["properties"]
        .as_object_mut()
        .expect("baseline has properties");
    let mut size = base;
    let mut i = 0;
    while size < n {
        let gap = n - size;
        let overhead = empty_pad_len(i);
        if gap >= overhead {
            let len = (gap - overhead).min(PAD_DESCRIPTION_CHARS);
            props.insert(
                format!("pad{i}"),
                json!({"type": "string", "description": filler(len)}),
            );
            size += overhead + len;
            i += 1;
        } else {
            // Too few bytes left for another property: the previous one (full, or the loop
            // would have ended) takes them.
            let last = format!("pad{}", i - 1);
            props[&last]["description"] = Value::String(filler(PAD_DESCRIPTION_CHARS + gap));
            size += gap;
        }
    }
    let got = compact_len(&schema);
    if got != n {
        return Err(format!("padding produced {got} bytes, not {n}"));
    }
    Ok(schema)
}

/// Longest filler description of one padding property of a `schema-bytes` case.
pub const PAD_DESCRIPTION_CHARS: usize = 160;
const PAD_TEXT: &str = "Padding text that makes the schema larger. ";

/// The loaded catalog, sorted by id.
#[derive(Debug, Clone)]
pub struct Catalog {
    pub root: PathBuf,
    pub cases: Vec<Case>,
}

impl Catalog {
    /// Loads every `*.yaml` below `root` (README and other files are ignored). Errors: any bad
    /// file, two files with one id, or no control case.
    pub fn load(root: &Path) -> Result<Catalog> {
        let mut files = Vec::new();
        collect_yaml(root, &mut files)?;
        files.sort();
        let mut cases = Vec::with_capacity(files.len());
        let mut seen: BTreeMap<String, PathBuf> = BTreeMap::new();
        let mut features: BTreeMap<(String, Placement), PathBuf> = BTreeMap::new();
        let mut measured = Vec::with_capacity(files.len());
        for f in &files {
            let (case, m) = load_measured(root, f)?;
            measured.push(m);
            if let Some(prev) = seen.insert(case.id.clone(), f.clone()) {
                return Err(Error::input(
                    f,
                    Place::Pointer("/id".into()),
                    format!("id {:?} is also used by {}", case.id, prev.display()),
                ));
            }
            // cases/README.md: the parameter and placement together identify what a case
            // informs, so a second case for them is most often a copy whose feature was never
            // changed.
            let feature = (
                crate::profile::derive::normalize(&case.parameter),
                case.placement,
            );
            if let Some(prev) = features.insert(feature, f.clone()) {
                return Err(Error::input(
                    f,
                    Place::Pointer("/parameter".into()),
                    format!(
                        "parameter {:?} at placement {} is also the feature of {}: one case \
                         per parameter and placement",
                        case.parameter,
                        case.placement,
                        prev.display()
                    ),
                ));
            }
            cases.push(case);
        }
        if !seen.contains_key(CONTROL_ID) {
            return Err(Error::input(
                root,
                Place::File,
                format!("the catalog has no control case ({CONTROL_ID}.yaml)"),
            ));
        }
        isolation::within_other_limits(&cases, &measured).map_err(|(i, pointer, problem)| {
            Error::input(&files[i], Place::Pointer(pointer), problem)
        })?;
        cases.sort_by(|a, b| a.id.cmp(&b.id));
        Ok(Catalog {
            root: root.to_path_buf(),
            cases,
        })
    }

    /// The control case.
    pub fn control(&self) -> &Case {
        self.cases
            .iter()
            .find(|c| c.is_control())
            .expect("load checks the control exists")
    }

    /// Looks a case up by id.
    pub fn get(&self, id: &str) -> Option<&Case> {
        self.cases.iter().find(|c| c.id == id)
    }

    /// Cases whose id matches `filter` (an id, a family, or a prefix ending in `/` or `*`).
    pub fn select<'a>(&'a self, filters: &'a [String]) -> impl Iterator<Item = &'a Case> + 'a {
        self.cases
            .iter()
            .filter(move |c| filters.is_empty() || filters.iter().any(|f| id_matches(&c.id, f)))
    }
}

/// Whether case or target id `id` matches a filter: exact, a family/prefix (`keywords`,
/// `keywords/`), or a glob ending in `*`.
pub fn id_matches(id: &str, filter: &str) -> bool {
    if let Some(prefix) = filter.strip_suffix('*') {
        return id.starts_with(prefix);
    }
    id == filter
        || id
            .strip_prefix(filter)
            .is_some_and(|rest| rest.starts_with('/') || filter.ends_with('/'))
}

fn collect_yaml(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        let problem = match e.kind() {
            std::io::ErrorKind::NotFound => "no such case folder".to_string(),
            _ => format!("cannot read the case folder: {e}"),
        };
        Error::input(dir, Place::Path, problem)
    })?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::input(dir, Place::File, e.to_string()))?;
        let path = entry.path();
        let ft = entry
            .file_type()
            .map_err(|e| Error::input(&path, Place::File, e.to_string()))?;
        if ft.is_dir() {
            collect_yaml(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(g: Generate) -> Vec<ToolDef> {
        generate(&g).unwrap_or_else(|e| panic!("{g:?}: {e}"))
    }

    fn params_of(tools: &[ToolDef]) -> &Value {
        tools[0]
            .parameters
            .as_ref()
            .expect("generated tools have parameters")
    }

    /// Object schemas met walking `properties.value` from the root.
    fn object_depth(schema: &Value) -> usize {
        let mut depth = 0;
        let mut at = Some(schema);
        while let Some(s) = at.filter(|s| s["type"] == "object") {
            depth += 1;
            at = s.get("properties").and_then(|p| p.get("value"));
        }
        depth
    }

    #[test]
    fn nested_depth_gives_n_objects_and_a_string_leaf() {
        for n in [1, 2, 5, 33, 100, MAX_NESTED_DEPTH] {
            let tools = one(Generate::NestedDepth { n });
            let p = params_of(&tools);
            assert_eq!(object_depth(p), n, "n={n}");
            assert_eq!(json::value_depth(p), 2 * n + 1, "n={n}");
            let mut leaf = p;
            for _ in 0..n {
                leaf = &leaf["properties"]["value"];
            }
            assert_eq!(leaf["type"], "string", "n={n}");
        }
    }

    #[test]
    fn nested_depth_beyond_the_cap_is_refused_before_building() {
        let err = generate(&Generate::NestedDepth { n: 10_000 }).unwrap_err();
        assert!(err.contains("at most 127"), "{err}");
        assert!(
            generate(&Generate::NestedDepth {
                n: MAX_NESTED_DEPTH + 1
            })
            .is_err()
        );
    }

    #[test]
    fn enum_size_gives_n_distinct_strings() {
        for n in [1, 100, 1001] {
            let tools = one(Generate::EnumSize { n });
            let members = params_of(&tools)["properties"]["value"]["enum"]
                .as_array()
                .unwrap();
            assert_eq!(members.len(), n);
            let distinct: std::collections::BTreeSet<_> =
                members.iter().map(|m| m.as_str().unwrap()).collect();
            assert_eq!(distinct.len(), n);
        }
    }

    #[test]
    fn property_count_gives_n_properties() {
        for n in [1, 100, 1000] {
            let tools = one(Generate::PropertyCount { n });
            let p = params_of(&tools);
            assert_eq!(p["properties"].as_object().unwrap().len(), n);
            assert_eq!(p["required"], json!(["p0"]));
        }
    }

    #[test]
    fn request_property_count_spreads_n_properties_over_uniquely_named_tools() {
        for (n, per_tool) in [
            (1, &[1][..]),
            (100, &[100]),
            (200, &[100, 100]),
            (201, &[100, 100, 1]),
        ] {
            let tools = one(Generate::RequestPropertyCount { n });
            let counts: Vec<usize> = tools
                .iter()
                .map(|t| {
                    t.parameters.as_ref().unwrap()["properties"]
                        .as_object()
                        .unwrap()
                        .len()
                })
                .collect();
            assert_eq!(counts, per_tool, "n={n}");
            let names: std::collections::BTreeSet<_> = tools.iter().map(|t| &t.name).collect();
            assert_eq!(names.len(), tools.len());
        }
    }

    #[test]
    fn schema_bytes_is_exact_for_every_reachable_size() {
        let compact = |tools: &[ToolDef]| serde_json::to_string(params_of(tools)).unwrap().len();
        let base = serde_json::to_string(&baseline().parameters).unwrap().len();
        assert_eq!(compact(&one(Generate::SchemaBytes { n: base })), base);
        let smallest_padded = base + r#","pad0":{"type":"string","description":""}"#.len();
        // Every size across several padding properties (each boundary case of the
        // arithmetic), then the catalog's sizes and the largest allowed.
        for n in (smallest_padded..smallest_padded + 1200).chain([10_240, 102_400, MAX_GENERATE_N])
        {
            assert_eq!(compact(&one(Generate::SchemaBytes { n })), n, "n={n}");
        }
        for n in [1, base - 1, base + 1, smallest_padded - 1] {
            let err = generate(&Generate::SchemaBytes { n }).unwrap_err();
            assert!(err.contains("below the smallest schema"), "n={n}: {err}");
        }
    }

    #[test]
    fn tool_count_gives_n_uniquely_named_tools() {
        for n in [1, 129, 513] {
            let tools = one(Generate::ToolCount { n });
            assert_eq!(tools.len(), n);
            let names: std::collections::BTreeSet<_> = tools.iter().map(|t| &t.name).collect();
            assert_eq!(names.len(), n);
            assert!(tools.iter().all(|t| t.parameters == baseline().parameters));
        }
    }

    #[test]
    fn name_and_description_lengths_are_exact_in_characters() {
        for n in [1, 9, 10, 64, 65, 128, 129] {
            let tools = one(Generate::NameLength { n });
            assert_eq!(tools[0].name.chars().count(), n);
            assert!(tools[0].name.starts_with(&"probe_tool"[..n.min(10)]));
        }
        for n in [1, 1024, 1025, 4096] {
            let tools = one(Generate::DescriptionLength { n });
            assert_eq!(tools[0].description.as_ref().unwrap().chars().count(), n);
        }
    }

    #[test]
    fn n_zero_and_huge_n_are_refused() {
        for g in [
            Generate::EnumSize { n: 0 },
            Generate::ToolCount {
                n: MAX_GENERATE_N + 1,
            },
        ] {
            let err = generate(&g).unwrap_err();
            assert!(err.starts_with("n must be between 1 and"), "{err}");
        }
    }

    #[test]
    fn parameter_vocabulary_accepts_every_documented_form() {
        for p in [
            "control",
            "type-missing",
            "name-unique",
            "root-shape: anyOf-with-type",
            "type-spelling: integer",
            "type-spelling: \"\"",
            "type-spelling: null (JSON null)",
            "type-list: string,null",
            "keyword-allowed: $ref",
            "keyword-allowed: additionalProperties (false)",
            "keyword-allowed: exclusiveMinimum (draft-4 boolean)",
            "format-allowed: date-time",
            "structure: array-without-items",
            "depth-limit: 33",
            "schema-bytes-limit: 102400",
            "name-chars: leading-digit",
            "description: whitespace-only",
            "description-length-limit: 1025",
        ] {
            assert_eq!(check_parameter(p), Ok(()), "{p}");
        }
    }

    #[test]
    fn parameter_vocabulary_refuses_typos_with_a_reason() {
        for (p, why) in [
            ("keyword: enum", "unknown kind"),
            ("depth-limit: 0", "positive whole number"),
            ("depth-limit: 033", "positive whole number"),
            ("depth-limit: ten", "positive whole number"),
            ("keyword-allowed: additionalProperties(false)", "one word"),
            ("keyword-allowed: enum ()", "not a ` (<form>)` suffix"),
            ("keyword-allowed: min Length", "one word"),
            ("keyword-allowed: min-Length)", "one word"),
            ("format-allowed: uri (strict)", "takes no ` (form)`"),
            ("type-list: string, null", "without spaces"),
            ("structure: array without items", "one kebab-case word"),
            ("type-spelling: ", "one word"),
            ("controls", "neither one of"),
        ] {
            let err = check_parameter(p).expect_err(p);
            assert!(err.contains(why), "{p}: {err}");
        }
    }

    fn write_case(root: &Path, id: &str, body: &str) -> PathBuf {
        let path = root.join(format!("{id}.yaml"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, body).unwrap();
        path
    }

    /// `load_case`'s error for `body`, written at `id`, with the folder shortened.
    fn refused(id: &str, body: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = write_case(dir.path(), id, body);
        let e = load_case(dir.path(), &path).expect_err(body);
        assert!(matches!(e, Error::Input { .. }), "{e}");
        e.to_string()
            .replace(&format!("{}/", dir.path().display()), "")
    }

    fn limit_case(id: &str, parameter: &str, placement: &str, rest: &str) -> String {
        let family = id.split('/').next().unwrap();
        format!(
            "id: {id}\ntitle: t\nfamily: {family}\nparameter: \"{parameter}\"\n\
             placement: {placement}\n{rest}"
        )
    }

    /// A case written out may not reach the smallest size a limit case of the catalog probes
    /// for a limit not its own: a property-name-length case nested 13 levels deep, beside
    /// `limits/depth-10`, would have a refusal of its depth blamed on its property name. The
    /// same case nested 2 levels loads, and so does a generated case whose own size reaches
    /// another limit (`nested-depth` n 10 nests 10 properties, beside `property-count: 10`).
    #[test]
    fn a_written_case_reaching_another_limit_is_refused() {
        let nested = |levels: usize| {
            let mut schema = "{type: string, description: The identifier.}".to_string();
            for _ in 0..levels {
                schema = format!(
                    "{{type: object, description: A level., properties: {{value: {schema}}}}}"
                );
            }
            schema
        };
        let long = format!("value{}", "x".repeat(60));
        let written = |levels: usize| {
            limit_case(
                "limits/property-name-length-65",
                "property-name-length-limit: 65",
                "nested",
                &format!(
                    "tool:\n  name: probe_tool\n  description: Looks up a record.\n  \
                     parameters: {{type: object, properties: {{{long}: {}}}, required: [{long}]}}\n",
                    nested(levels)
                ),
            )
        };
        let catalog = |levels: usize, property_count: usize| {
            let dir = tempfile::tempdir().unwrap();
            let baseline = std::fs::read_to_string("cases/control/baseline.yaml").unwrap();
            write_case(dir.path(), "control/baseline", &baseline);
            for (id, parameter, placement, generate) in [
                (
                    "limits/depth-10",
                    "depth-limit: 10".to_string(),
                    "nested",
                    "nested-depth",
                ),
                (
                    &format!("limits/property-count-{property_count}") as &str,
                    format!("property-count-limit: {property_count}"),
                    "root",
                    "property-count",
                ),
            ] {
                let n = parameter.rsplit(' ').next().unwrap();
                let body = limit_case(
                    id,
                    &parameter,
                    placement,
                    &format!("generate: {{kind: {generate}, n: {n}}}\n"),
                );
                write_case(dir.path(), id, &body);
            }
            write_case(
                dir.path(),
                "limits/property-name-length-65",
                &written(levels),
            );
            Catalog::load(dir.path())
                .map(|c| c.cases.len())
                .map_err(|e| {
                    e.to_string()
                        .replace(&format!("{}/", dir.path().display()), "")
                })
        };
        let e = catalog(12, 100).expect_err("depth 13 reaches depth-10");
        assert!(
            e.starts_with("limits/property-name-length-65.yaml: at /tool/parameters/properties/"),
            "{e}"
        );
        assert!(
            e.contains(
                "its tools measure `depth-limit: 13` at nested (13 levels of object nesting), \
                 as much as `limits/depth-10` probes (`depth-limit: 10`): a target refusing \
                 that size would have its verdict blamed on `property-name-length-limit: 65`"
            ),
            "{e}"
        );
        assert_eq!(catalog(1, 100), Ok(4));
        // depth-10's generator nests 10 properties, as many as property-count-10 probes.
        assert_eq!(catalog(1, 10), Ok(4));
    }

    /// Trial 70 D1: a parameter its generator does not build loaded, and the verdict on the
    /// generated tool went into the matrix under the parameter's size (depth 120 accepted
    /// where 32 was refused).
    #[test]
    fn a_generated_case_declares_the_limit_its_generator_builds() {
        for (id, parameter, placement, generate, built) in [
            (
                "limits/depth-120",
                "depth-limit: 120",
                "nested",
                "{kind: nested-depth, n: 4}",
                "`generate` (nested-depth, n: 4) builds `depth-limit: 4` at nested (4 levels \
                 of object nesting)",
            ),
            (
                "names/length-300",
                "name-length-limit: 300",
                "tool",
                "{kind: name-length, n: 10}",
                "`generate` (name-length, n: 10) builds `name-length-limit: 10` at tool (10 \
                 characters of name)",
            ),
            (
                "limits/enum-size-901",
                "enum-size-limit: 901",
                "nested",
                "{kind: nested-depth, n: 3}",
                "`generate` (nested-depth, n: 3) builds `depth-limit: 3` at nested (3 levels \
                 of object nesting)",
            ),
            (
                "limits/depth-3",
                "depth-limit: 3",
                "root",
                "{kind: nested-depth, n: 3}",
                "`generate` (nested-depth, n: 3) builds `depth-limit: 3` at nested (3 levels \
                 of object nesting)",
            ),
        ] {
            let body = limit_case(id, parameter, placement, &format!("generate: {generate}\n"));
            assert_eq!(
                refused(id, &body),
                format!(
                    "{id}.yaml: at /parameter: parameter says `{parameter}` at {placement}, but \
                     {built}"
                )
            );
        }
    }

    /// A limit case written out is held to its size by the rules' own measure of it.
    #[test]
    fn a_written_limit_case_is_the_size_its_parameter_names() {
        let one = |props: &str| {
            format!(
                "tool:\n  name: probe_tool\n  description: Looks up a record by its \
                 identifier.\n  parameters: {{type: object, properties: {props}}}\n"
            )
        };
        let string = "{type: string, description: The identifier of the record.}";
        for (id, parameter, placement, rest, has) in [
            (
                "limits/property-name-length-99",
                "property-name-length-limit: 99",
                "nested",
                one(&format!("{{valuexx: {string}}}")),
                "its tools measure `property-name-length-limit: 7` there (7 characters of \
                 property name)"
                    .to_string(),
            ),
            (
                "limits/depth-2",
                "depth-limit: 2",
                "root",
                one(&format!(
                    "{{value: {{type: object, properties: {{value: {string}}}}}}}"
                )),
                "nothing in its tools measures as `depth-limit` there (they have \
                 `depth-limit: 2` at nested)"
                    .to_string(),
            ),
            (
                "limits/tool-count-3",
                "tool-count-limit: 3",
                "request",
                "tools:\n  - {name: a_tool}\n  - {name: b_tool}\n".to_string(),
                "its tools measure `tool-count-limit: 2` there (2 tools in one request)"
                    .to_string(),
            ),
        ] {
            let body = limit_case(id, parameter, placement, &rest);
            assert_eq!(
                refused(id, &body),
                format!(
                    "{id}.yaml: at /parameter: parameter says `{parameter}` at {placement}, but \
                     {has}"
                )
            );
        }
        // The same files with the size they have load.
        let dir = tempfile::tempdir().unwrap();
        let id = "limits/property-name-length-7";
        let body = limit_case(
            id,
            "property-name-length-limit: 7",
            "nested",
            &one(&format!("{{valuexx: {string}}}")),
        );
        let path = write_case(dir.path(), id, &body);
        load_case(dir.path(), &path).unwrap();
    }

    /// Trial 70 D2: a new `tool-count` case, a copy of a shipped one with another `n`, was
    /// refused for the digits its generator numbers the tools with; the companions a generator
    /// cannot build without are known by its kind, not by case id. The same tools written out
    /// are still held to KNOWN_COMPANIONS alone.
    #[test]
    fn a_generators_own_companions_are_known_by_its_kind() {
        let dir = tempfile::tempdir().unwrap();
        for (id, parameter, placement, generate) in [
            (
                "limits/tool-count-21",
                "tool-count-limit: 21",
                "request",
                "tool-count, n: 21",
            ),
            (
                "limits/enum-size-700",
                "enum-size-limit: 700",
                "nested",
                "enum-size, n: 700",
            ),
            (
                "limits/request-property-count-150",
                "request-property-count-limit: 150",
                "request",
                "request-property-count, n: 150",
            ),
        ] {
            let body = limit_case(
                id,
                parameter,
                placement,
                &format!("generate: {{kind: {generate}}}\n"),
            );
            let path = write_case(dir.path(), id, &body);
            if let Err(e) = load_case(dir.path(), &path) {
                panic!("{id}: {e}");
            }
        }
        let tool = |i: usize| {
            format!(
                "  - {{name: probe_tool_{i}, description: Looks up a record by its identifier., \
                 parameters: {{type: object, properties: {{value: {{type: string, description: \
                 The identifier of the record.}}}}, required: [value]}}}}\n"
            )
        };
        let id = "limits/tool-count-2";
        let body = limit_case(
            id,
            "tool-count-limit: 2",
            "request",
            &format!("tools:\n{}{}", tool(0), tool(1)),
        );
        let e = refused(id, &body);
        assert!(
            e.starts_with(&format!(
                "{id}.yaml: at /tools/0/name: the case also has `name-chars: digit` at tool, a \
                 second feature beside `tool-count-limit: 2`"
            )) && e.ends_with("in KNOWN_COMPANIONS (src/case/isolation.rs, then rebuild)"),
            "{e}"
        );
    }

    /// Trial 72 D2: a case whose one feature is `minLength: 3.0` loaded as
    /// `keyword-allowed: minLength`, so llguidance's rejection of the spelling ("Expected
    /// positive integer for 'minLength', got 3.0") was recorded against the keyword. The
    /// spelling is a form of its own, `(decimal)`: the case must say so.
    #[test]
    fn a_whole_count_written_as_a_decimal_is_no_plain_keyword_case() {
        let body = |parameter: &str| {
            format!(
                "id: keywords/min-length-items\ntitle: t\nfamily: keywords\nparameter: \
                 \"{parameter}\"\nplacement: items\ntool:\n  name: probe_tool\n  \
                 description: Looks up a record by its identifier.\n  parameters:\n    \
                 type: object\n    properties:\n      value:\n        type: array\n        \
                 description: The identifiers of the records.\n        items: {{type: \
                 string, minLength: 3.0}}\n    required: [value]\n"
            )
        };
        let e = refused(
            "keywords/min-length-items",
            &body("keyword-allowed: minLength"),
        );
        assert!(
            e.contains(
                "parameter says `keyword-allowed: minLength` at items, but the tool has no such \
                 feature there (it has `keyword-allowed: minLength (decimal)` at items)"
            ),
            "{e}"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = write_case(
            dir.path(),
            "keywords/min-length-items",
            &body("keyword-allowed: minLength (decimal)"),
        );
        if let Err(e) = load_case(dir.path(), &path) {
            panic!("{e}");
        }
    }

    #[test]
    fn json_key_order_is_kept_from_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let body = "id: keywords/order\ntitle: t\nfamily: keywords\nparameter: \"keyword-allowed: x\"\n\
                    placement: root\ntool:\n  name: t\n  parameters:\n    zeta: 1\n    $id: x\n    \
                    alpha: {b: 1, a: 2}\n";
        let path = write_case(dir.path(), "keywords/order", body);
        let case = read_case(dir.path(), &path).unwrap().0;
        assert_eq!(
            serde_json::to_string(&case.tools[0].parameters).unwrap(),
            r#"{"zeta":1,"$id":"x","alpha":{"b":1,"a":2}}"#
        );
    }

    #[test]
    fn only_true_and_false_are_booleans() {
        let dir = tempfile::tempdir().unwrap();
        let body = "id: keywords/b\ntitle: t\nfamily: keywords\nparameter: \"keyword-allowed: x\"\n\
                    placement: root\ntool:\n  name: t\n  parameters: {enum: [yes, no, on, off, n, true, false]}\n";
        let path = write_case(dir.path(), "keywords/b", body);
        let case = read_case(dir.path(), &path).unwrap().0;
        assert_eq!(
            case.tools[0].parameters,
            Some(json!({"enum": ["yes", "no", "on", "off", "n", true, false]}))
        );
    }

    #[test]
    fn core_tags_that_keep_a_json_value_are_allowed() {
        let dir = tempfile::tempdir().unwrap();
        let body = "id: keywords/t\ntitle: t\nfamily: keywords\nparameter: \"keyword-allowed: x\"\n\
                    placement: root\ntool:\n  name: t\n  parameters: {a: !!str 12, b: !!int 3}\n";
        let path = write_case(dir.path(), "keywords/t", body);
        let case = read_case(dir.path(), &path).unwrap().0;
        assert_eq!(case.tools[0].parameters, Some(json!({"a": "12", "b": 3})));
    }
}

#[cfg(test)]
mod yaml_error_tests {
    //! Each kind of malformed case file is refused with its place and the problem in plain
    //! words, never the YAML library's advice about its own API.

    use std::time::{Duration, Instant};

    const HEAD: &str = "id: keywords/x\ntitle: t\nfamily: keywords\nparameter: \"keyword-allowed: x\"\nplacement: root\n";

    fn refusal(body: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("keywords");
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("x.yaml");
        std::fs::write(&path, body).unwrap();
        let e = super::load_case(dir.path(), &path).expect_err(body);
        // Bad input, exit 2.
        assert!(matches!(e, crate::error::Error::Input { .. }), "{e}");
        e.to_string()
    }

    #[test]
    fn malformed_documents_are_refused_in_plain_words_with_their_place() {
        let cases = [
            (
                format!("{HEAD}tool: {{name: \"t, parameters: {{}}}}\n"),
                "line 6, column 14",
                "unclosed quote",
            ),
            (
                format!("{HEAD}tool:\n  name: t\n   parameters: {{}}\n"),
                "line 8,",
                "indented like the key above",
            ),
            (
                format!("{HEAD}tool:\n\tname: t\n"),
                "line 7,",
                "YAML indents with spaces only",
            ),
            (format!("{HEAD}: : :\n"), "line 6,", "found nothing"),
            (
                format!("{HEAD}title: u\ntool: {{name: t, parameters: {{}}}}\n"),
                "line 6,",
                "duplicate key \"title\"",
            ),
            (
                "hello\n".to_string(),
                "line 1, column 1",
                "not a mapping of `key: value` lines",
            ),
            (
                format!("{HEAD}tool: {{name: t, parameters: {{}}}}\n---\n{HEAD}"),
                "line 8,",
                "a second YAML document",
            ),
        ];
        for (body, place, words) in cases {
            let e = refusal(&body);
            assert!(e.contains(place) && e.contains(words), "{e}");
            assert!(!e.contains("from_str") && !e.contains("Options"), "{e}");
        }
    }

    /// Billion laughs: nine levels of nine aliases (9^9 strings once expanded) is refused by
    /// the reader's node budget, quickly, before it is expanded.
    #[test]
    fn an_alias_bomb_is_refused_quickly() {
        let mut body = format!(
            "{HEAD}tool:\n  name: t\n  parameters:\n    a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        );
        let mut prev = 'a';
        for c in "bcdefghi".chars() {
            let refs = vec![format!("*{prev}"); 9].join(", ");
            body.push_str(&format!("    {c}: &{c} [{refs}]\n"));
            prev = c;
        }
        let t = Instant::now();
        let e = refusal(&body);
        assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
        assert!(e.contains("aliases (`*name`) would copy more than"), "{e}");
    }
}
