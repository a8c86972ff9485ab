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
use crate::tool::ToolDef;

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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Generate {
    /// `n` nested object schemas counting the root (`value` → `value` → ...), a string leaf.
    NestedDepth { n: usize },
    /// `value` gets an `enum` of `n` distinct strings.
    EnumSize { n: usize },
    /// The root gets `n` string properties.
    PropertyCount { n: usize },
    /// The parameters schema is padded with described properties to exactly `n` bytes of
    /// compact JSON.
    SchemaBytes { n: usize },
    /// `n` copies of the baseline named `probe_tool_0` ... in one request.
    ToolCount { n: usize },
    /// The tool name is exactly `n` characters.
    NameLength { n: usize },
    /// The description is exactly `n` characters.
    DescriptionLength { n: usize },
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
        d.deserialize_any(JsonVisitor).map(JsonValue)
    }
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
/// Deepest value a case file may write out (generated depth cases go deeper).
pub const MAX_CASE_DEPTH: usize = 256;
/// Largest `n` a generator accepts, so that a typo cannot ask for a gigabyte.
pub const MAX_GENERATE_N: usize = 200_000;

/// Loads and validates one case file. `root` is the `cases/` folder, used to check that the
/// id matches the file's place.
pub fn load_case(root: &Path, path: &Path) -> Result<Case> {
    let limits = Limits {
        max_bytes: MAX_CASE_BYTES,
        max_depth: MAX_CASE_DEPTH,
    };
    let bytes = json::read_capped(path, limits)?;
    let text = json::check_utf8(path, &bytes)?;
    let file: CaseFile = serde_saphyr::from_str(text).map_err(|e| yaml_error(path, &e))?;
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
    let instances = file
        .instances
        .into_iter()
        .map(|i| Instance {
            args: i.args.0,
            valid: i.valid,
        })
        .collect();
    Ok(Case {
        id: file.id,
        title: file.title,
        family: file.family,
        parameter: file.parameter,
        placement: file.placement,
        tools,
        instances,
        notes: file.notes,
        links: file.links,
        path: path.to_path_buf(),
    })
}

fn yaml_error(path: &Path, e: &serde_saphyr::Error) -> Error {
    let place = match e.location() {
        Some(loc) if loc.line() > 0 => Place::LineColumn {
            line: loc.line() as usize,
            column: loc.column() as usize,
        },
        _ => Place::File,
    };
    let text = e.without_snippet().to_string();
    // The library appends its own position; we report the place separately.
    let problem = match text.find(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    };
    Error::input(path, place, problem.trim().to_string())
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
    let n = match g {
        Generate::NestedDepth { n }
        | Generate::EnumSize { n }
        | Generate::PropertyCount { n }
        | Generate::SchemaBytes { n }
        | Generate::ToolCount { n }
        | Generate::NameLength { n }
        | Generate::DescriptionLength { n } => *n,
    };
    if n == 0 || n > MAX_GENERATE_N {
        return Err(format!("n must be between 1 and {MAX_GENERATE_N}, got {n}"));
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
            let props: Map<String, Value> = (0..*n)
                .map(|i| (format!("p{i}"), json!({"type": "string"})))
                .collect();
            tool.parameters =
                Some(json!({"type": "object", "properties": props, "required": ["p0"]}));
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

/// A parameters schema of exactly `n` bytes of compact JSON: the baseline plus described
/// string properties, the last description trimmed to land on `n`.
fn pad_schema_to(n: usize) -> std::result::Result<Value, String> {
    let base = baseline().parameters.expect("baseline has parameters");
    let size = |v: &Value| serde_json::to_string(v).map(|s| s.len()).unwrap_or(0);
    if size(&base) > n {
        return Err(format!(
            "schema-bytes n={n} is smaller than the baseline ({} bytes)",
            size(&base)
        ));
    }
    let mut schema = base;
    let mut i = 0;
    let filler = "Padding text that makes the schema larger. ".repeat(4);
    while size(&schema) < n {
        let key = format!("pad{i}");
        schema["properties"][&key] = json!({"type": "string", "description": filler.clone()});
        if size(&schema) > n {
            // Shrink this description to fit; if even empty overshoots, drop it and pad the
            // previous one instead.
            let over = size(&schema) - n;
            let keep = filler.len().saturating_sub(over);
            schema["properties"][&key]["description"] = Value::String(filler[..keep].to_string());
            if size(&schema) != n {
                return Err(format!("cannot pad the schema to exactly {n} bytes"));
            }
        }
        i += 1;
    }
    Ok(schema)
}

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
        for f in &files {
            let case = load_case(root, f)?;
            if let Some(prev) = seen.insert(case.id.clone(), f.clone()) {
                return Err(Error::input(
                    f,
                    Place::Pointer("/id".into()),
                    format!("id {:?} is also used by {}", case.id, prev.display()),
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
        Error::input(
            dir,
            Place::File,
            format!("cannot read the case folder: {e}"),
        )
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
