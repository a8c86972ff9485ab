//! The case catalog as shipped: it loads, it is large and well formed, its generated cases give
//! what their parameters say, its instances are right under JSON Schema 2020-12, and bad case
//! files are clear errors (file, place, problem), never a panic, a hang or unbounded memory.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use regex::Regex;
use serde_json::Value;
use toolwire::case::{Case, Catalog, MAX_CASE_BYTES, Placement, load_case};

const FAMILIES: [&str; 9] = [
    "control",
    "root",
    "types",
    "keywords",
    "formats",
    "structure",
    "limits",
    "names",
    "descriptions",
];

fn catalog() -> Catalog {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    Catalog::load(&root).unwrap_or_else(|e| panic!("the catalog does not load: {e}"))
}

fn failures_report(what: &str, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} {what}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_whole_catalog_loads_with_at_least_150_cases_in_every_family() {
    let c = catalog();
    assert!(c.cases.len() >= 150, "only {} cases", c.cases.len());
    let mut per_family: BTreeMap<&str, usize> = BTreeMap::new();
    for case in &c.cases {
        assert!(
            FAMILIES.contains(&case.family.as_str()),
            "{}: unknown family {:?}",
            case.id,
            case.family
        );
        *per_family.entry(&case.family).or_default() += 1;
    }
    for f in FAMILIES {
        assert!(per_family.contains_key(f), "family {f} has no case");
    }
    assert_eq!(c.control().tools, vec![toolwire::case::baseline()]);
}

#[test]
fn every_id_is_its_path_and_every_name_is_kebab_case() {
    let c = catalog();
    let kebab = Regex::new(r"^[a-z0-9]+(-[a-z0-9]+)*$").unwrap();
    let mut failures = Vec::new();
    for case in &c.cases {
        let rel = case.path.strip_prefix(&c.root).unwrap();
        let rel = rel.to_string_lossy().replace('\\', "/");
        if rel != format!("{}.yaml", case.id) {
            failures.push(format!("{}: file {rel}", case.id));
        }
        let (family, name) = case.id.split_once('/').unwrap();
        if family != case.family || name.contains('/') || !kebab.is_match(name) {
            failures.push(format!("{}: not <family>/<kebab-case-name>", case.id));
        }
        // Families whose features sit at several places name the place last.
        if matches!(family, "types" | "keywords" | "formats" | "structure") {
            let suffix = format!("-{}", case.placement);
            if !name.ends_with(&suffix) {
                failures.push(format!(
                    "{}: placement {} but no {suffix}",
                    case.id, case.placement
                ));
            }
        }
    }
    failures_report("misnamed cases", &failures);
}

/// The parameter vocabulary of cases/README.md, written out again independently of the
/// loader's check, with the family each kind belongs to.
fn vocabulary() -> Vec<(&'static str, Regex)> {
    let word = r"[A-Za-z0-9$-]+";
    let form = r"( \([^()]+\))?";
    let n = r"[1-9][0-9]*";
    let rules = [
        ("control", "control".to_string()),
        ("root", format!("root-shape: {word}")),
        ("types", format!(r#"type-spelling: ([^ ]+|""){form}"#)),
        ("types", r"type-list: [a-z]+(,[a-z]+)*".to_string()),
        ("types", "type-missing".to_string()),
        ("keywords", format!(r"keyword-allowed: [A-Za-z$_-]+{form}")),
        ("formats", r"format-allowed: [A-Za-z0-9_-]+".to_string()),
        ("structure", format!("structure: {word}")),
        ("limits", format!("depth-limit: {n}")),
        ("limits", format!("enum-size-limit: {n}")),
        ("limits", format!("property-count-limit: {n}")),
        ("limits", format!("request-property-count-limit: {n}")),
        ("limits", format!("schema-bytes-limit: {n}")),
        ("limits", format!("tool-count-limit: {n}")),
        ("limits", format!("property-name-length-limit: {n}")),
        ("names", format!("name-length-limit: {n}")),
        ("names", format!("name-chars: {word}")),
        ("names", "name-unique".to_string()),
        ("descriptions", format!("description-length-limit: {n}")),
        ("descriptions", format!("description: {word}")),
    ];
    rules
        .into_iter()
        .map(|(f, r)| (f, Regex::new(&format!("^{r}$")).unwrap()))
        .collect()
}

#[test]
fn every_parameter_follows_the_vocabulary_of_its_family() {
    let vocab = vocabulary();
    let mut failures = Vec::new();
    for case in &catalog().cases {
        let fits = vocab
            .iter()
            .any(|(family, re)| *family == case.family && re.is_match(&case.parameter));
        if !fits {
            failures.push(format!("{}: {:?}", case.id, case.parameter));
        }
    }
    failures_report("parameters outside the vocabulary", &failures);
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

fn limit(case: &Case) -> Option<(&str, usize)> {
    let (kind, n) = case.parameter.split_once(": ")?;
    Some((kind, n.parse().ok()?))
}

#[test]
fn every_limit_case_is_exactly_the_size_its_parameter_names() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &catalog().cases {
        let Some((kind, n)) = limit(case) else {
            continue;
        };
        let tool = &case.tools[0];
        let params = tool.parameters.as_ref();
        let got = match kind {
            "depth-limit" => object_depth(params.unwrap()),
            "enum-size-limit" => params.unwrap()["properties"]["value"]["enum"]
                .as_array()
                .map_or(0, Vec::len),
            "property-count-limit" => params.unwrap()["properties"]
                .as_object()
                .map_or(0, |o| o.len()),
            "schema-bytes-limit" => serde_json::to_string(params.unwrap()).unwrap().len(),
            "tool-count-limit" => {
                let names: BTreeSet<_> = case.tools.iter().map(|t| &t.name).collect();
                if names.len() != case.tools.len() {
                    failures.push(format!("{}: tool names repeat", case.id));
                }
                case.tools.len()
            }
            "name-length-limit" => tool.name.chars().count(),
            "property-name-length-limit" => {
                let props = params.unwrap()["properties"].as_object().unwrap();
                if props.len() != 1 {
                    failures.push(format!("{}: more than one property", case.id));
                }
                props.keys().map(|k| k.chars().count()).max().unwrap_or(0)
            }
            "description-length-limit" => tool.description.as_deref().unwrap_or("").chars().count(),
            _ => continue,
        };
        checked += 1;
        if got != n {
            failures.push(format!("{}: {kind} {n} but the case has {got}", case.id));
        }
    }
    failures_report("limit cases of the wrong size", &failures);
    // 8 depths, 4 enum sizes, 2 property counts, 2 schema sizes, 5 tool counts, 4 name
    // lengths, 3 description lengths (issue 2).
    assert!(checked >= 28, "only {checked} limit cases");
}

#[test]
fn every_instance_has_the_validity_json_schema_2020_12_gives_it() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in catalog().cases.iter().filter(|c| !c.instances.is_empty()) {
        let schema = case.tools[0]
            .parameters
            .clone()
            .unwrap_or(Value::Bool(true));
        let validator = match jsonschema::draft202012::options().build(&schema) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!(
                    "{}: has instances but does not compile: {e}",
                    case.id
                ));
                continue;
            }
        };
        for (i, inst) in case.instances.iter().enumerate() {
            checked += 1;
            if validator.is_valid(&inst.args) != inst.valid {
                failures.push(format!(
                    "{}: instance {i} {} is claimed {} under 2020-12",
                    case.id,
                    inst.args,
                    if inst.valid { "valid" } else { "invalid" }
                ));
            }
        }
    }
    failures_report("instances with a wrong validity", &failures);
    assert!(checked >= 200, "only {checked} instances checked");
}

/// Assertion keywords of JSON Schema 2020-12 whose cases must show, with an instance the
/// keyword makes invalid, whether a target enforces them. Forms that have no 2020-12 meaning
/// (draft-4 booleans, lists, remote or cyclic references, values the keyword does not take)
/// carry no instances and are left out,
/// and so are the forms that cannot make anything invalid.
fn must_have_an_invalid_instance(parameter: &str) -> bool {
    let Some(rest) = parameter.strip_prefix("keyword-allowed: ") else {
        return false;
    };
    let (keyword, form) = match rest.split_once(" (") {
        Some((k, f)) => (k, f.trim_end_matches(')')),
        None => (rest, ""),
    };
    let assertions = [
        "additionalProperties",
        "$ref",
        "definitions",
        "const",
        "enum",
        "pattern",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "uniqueItems",
        "prefixItems",
        "items",
        "contains",
        "minContains",
        "maxContains",
        "minProperties",
        "maxProperties",
        "patternProperties",
        "propertyNames",
        "dependentRequired",
        "dependentSchemas",
        "if",
        "not",
        "oneOf",
        "allOf",
        "anyOf",
        "unevaluatedProperties",
        "unevaluatedItems",
    ];
    // Values the keyword does not take: the schema is invalid under 2020-12, so it judges no
    // instance (keyword-value-invalid's forms).
    let no_meaning = [
        "remote",
        "self-reference",
        "draft-4 boolean",
        "list",
        "string",
        "not a number",
        "negative",
        "not an integer",
        "zero",
        "not a string",
        "invalid regex",
        "not a schema",
    ];
    let nothing_invalid = ["true", "large"];
    assertions.contains(&keyword) && !no_meaning.contains(&form) && !nothing_invalid.contains(&form)
}

#[test]
fn constraining_cases_carry_an_invalid_instance_and_annotations_carry_none() {
    let mut failures = Vec::new();
    for case in &catalog().cases {
        let has_invalid = case.instances.iter().any(|i| !i.valid);
        if must_have_an_invalid_instance(&case.parameter) && !has_invalid {
            failures.push(format!(
                "{}: no instance the keyword makes invalid",
                case.id
            ));
        }
        // Formats are annotations in 2020-12; an instance would claim an assertion.
        if case.family == "formats" && !case.instances.is_empty() {
            failures.push(format!("{}: a format case with instances", case.id));
        }
        // Instances are argument objects for the first tool.
        if case.instances.iter().any(|i| !i.args.is_object()) {
            failures.push(format!("{}: an instance that is not an object", case.id));
        }
    }
    failures_report("cases with the wrong instances", &failures);
}

/// The features issue 2 lists, as parameters (and placement where it matters).
#[test]
fn the_catalog_covers_every_feature_of_issue_2() {
    let c = catalog();
    let have: BTreeSet<(String, Placement)> = c
        .cases
        .iter()
        .map(|c| (c.parameter.clone(), c.placement))
        .collect();
    let has = |p: &str, at: Placement| have.contains(&(p.to_string(), at));
    let mut missing = Vec::new();
    let mut need = |p: &str, at: Placement| {
        if !has(p, at) {
            missing.push(format!("{p} at {at}"));
        }
    };
    use Placement::*;
    for shape in [
        "string",
        "array",
        "no-type",
        "empty-schema",
        "no-arguments",
        "parameters-absent",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "enum",
        "const",
    ] {
        need(&format!("root-shape: {shape}"), Root);
    }
    for t in [
        "string", "integer", "number", "boolean", "object", "array", "null", "dict", "float",
        "any", "tuple", "int", "str", "enum", "\"\"", "String", "OBJECT",
    ] {
        need(&format!("type-spelling: {t}"), Nested);
    }
    need("type-list: string,null", Nested);
    need("type-list: string,integer", Nested);
    need("type-missing", Nested);
    for (k, places) in [
        ("additionalProperties (false)", &[Nested, Root][..]),
        ("additionalProperties (true)", &[Nested, Root]),
        ("additionalProperties (schema)", &[Nested, Root]),
        ("$ref (local $defs)", &[Nested, Root]),
        ("definitions", &[Nested]),
        ("$ref (remote)", &[Nested]),
        ("$ref (recursive)", &[Nested]),
        ("$ref (self-reference)", &[Nested]),
        ("$schema", &[Root]),
        ("$id", &[Root, Nested]),
        ("$anchor", &[Nested]),
        ("$comment", &[Nested, Root]),
        ("const", &[Nested]),
        ("enum (strings)", &[Nested]),
        ("enum (numbers)", &[Nested]),
        ("enum (mixed)", &[Nested]),
        ("enum (null member)", &[Nested]),
        ("enum (empty)", &[Nested]),
        ("default", &[Nested]),
        ("examples", &[Nested]),
        ("example", &[Nested]),
        ("title", &[Nested, Root]),
        ("description", &[Root]),
        ("deprecated", &[Nested]),
        ("readOnly", &[Nested]),
        ("writeOnly", &[Nested]),
        ("pattern", &[Nested]),
        ("minLength", &[Nested]),
        ("maxLength", &[Nested]),
        ("minimum", &[Nested]),
        ("maximum", &[Nested]),
        ("exclusiveMinimum", &[Nested]),
        ("exclusiveMaximum", &[Nested]),
        ("exclusiveMinimum (draft-4 boolean)", &[Nested]),
        ("exclusiveMaximum (draft-4 boolean)", &[Nested]),
        ("multipleOf", &[Nested]),
        ("minItems", &[Nested]),
        ("maxItems", &[Nested]),
        ("uniqueItems", &[Nested]),
        ("prefixItems", &[Nested]),
        ("items (list)", &[Nested]),
        ("items (true)", &[Nested]),
        ("items (false)", &[Nested]),
        ("contains", &[Nested]),
        ("minContains", &[Nested]),
        ("maxContains", &[Nested]),
        ("minProperties", &[Nested, Root]),
        ("maxProperties", &[Nested, Root]),
        ("patternProperties", &[Nested, Root]),
        ("propertyNames", &[Nested, Root]),
        ("dependentRequired", &[Nested]),
        ("dependentSchemas", &[Nested]),
        ("if", &[Nested, Root]),
        ("not", &[Nested]),
        ("oneOf", &[Nested]),
        ("allOf", &[Nested]),
        ("anyOf", &[Nested]),
        ("anyOf (with siblings)", &[Nested]),
        ("anyOf (null branch)", &[Nested]),
        ("unevaluatedProperties", &[Nested, Root]),
        ("unevaluatedItems", &[Nested]),
        ("nullable (true)", &[Nested]),
        ("nullable (array)", &[Root]),
        ("propertyOrdering", &[Root]),
        ("x-vendor", &[Nested]),
    ] {
        for at in places {
            need(&format!("keyword-allowed: {k}"), *at);
        }
    }
    for f in [
        "date-time",
        "date",
        "time",
        "email",
        "uri",
        "uuid",
        "ipv4",
        "hostname",
        "enum",
        "toolwire-custom",
    ] {
        need(&format!("format-allowed: {f}"), Nested);
    }
    for s in [
        "array-without-items",
        "object-without-properties",
        "empty-properties",
        "properties-on-non-object",
        "items-on-non-array",
        "required-undeclared",
        "required-not-array",
        "property-schema-string",
        "property-schema-true",
        "property-schema-false",
        "property-named-default",
        "property-named-type",
        "property-named-properties",
        "property-named-enum",
    ] {
        let at = if s == "required-not-array" {
            Root
        } else {
            Nested
        };
        need(&format!("structure: {s}"), at);
    }
    for n in [5, 10, 11, 16, 32, 33, 64, 100] {
        need(&format!("depth-limit: {n}"), Nested);
    }
    for n in [100, 500, 1000, 1001] {
        need(&format!("enum-size-limit: {n}"), Nested);
    }
    for n in [100, 200, 201, 1000, 5000, 5001] {
        need(&format!("property-count-limit: {n}"), Root);
    }
    for n in [10240, 102400] {
        need(&format!("schema-bytes-limit: {n}"), Root);
    }
    for n in [20, 128, 129, 512, 513] {
        need(&format!("tool-count-limit: {n}"), Request);
    }
    for n in [64, 65, 128, 129] {
        need(&format!("name-length-limit: {n}"), Tool);
    }
    // Property names (trial 69 D2): the kinds of character `property-name-invalid` reads
    // and the 64-character bound of the one documented pattern.
    for n in [64, 65] {
        need(&format!("property-name-length-limit: {n}"), Nested);
    }
    for w in [
        "space",
        "slash",
        "tilde",
        "other-punctuation",
        "non-ascii",
        "control",
        "empty",
    ] {
        need(&format!("structure: property-name-{w}"), Nested);
    }
    for w in [
        "dot",
        "colon",
        "hyphen",
        "leading-digit",
        "space",
        "other-punctuation",
        "non-ascii",
        "empty",
    ] {
        need(&format!("name-chars: {w}"), Tool);
    }
    need("name-unique", Request);
    for d in ["missing", "empty", "whitespace-only", "non-ascii"] {
        need(&format!("description: {d}"), Tool);
    }
    for n in [1024, 1025, 4096] {
        need(&format!("description-length-limit: {n}"), Tool);
    }
    failures_report("features of issue 2 without a case", &missing);
}

#[test]
fn cases_that_are_about_json_null_and_the_string_null_differ() {
    let c = catalog();
    let value_type = |id: &str| {
        c.get(id).unwrap().tools[0].parameters.as_ref().unwrap()["properties"]["value"]["type"]
            .clone()
    };
    assert_eq!(
        value_type("types/null-nested"),
        Value::String("null".into())
    );
    assert_eq!(value_type("types/json-null-nested"), Value::Null);
    let root = c.get("root/parameters-null").unwrap();
    assert_eq!(root.tools[0].parameters, Some(Value::Null));
    let absent = c.get("root/parameters-absent").unwrap();
    assert_eq!(absent.tools[0].parameters, None);
}

#[test]
fn the_json_key_order_of_a_case_file_is_kept() {
    let c = catalog();
    let keys = |id: &str| -> Vec<String> {
        let p = c.get(id).unwrap().tools[0].parameters.clone().unwrap();
        p.as_object().unwrap().keys().cloned().collect()
    };
    assert_eq!(
        keys("keywords/id-root"),
        ["$id", "type", "properties", "required"]
    );
    assert_eq!(
        keys("keywords/ref-defs-nested"),
        ["type", "properties", "required", "$defs"]
    );
}

// ---------------------------------------------------------------- bad input

/// A catalog folder with the real control case and one more file.
struct Scratch {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Scratch {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("cases");
        let control = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/control/baseline.yaml");
        std::fs::create_dir_all(root.join("control")).unwrap();
        std::fs::copy(control, root.join("control/baseline.yaml")).unwrap();
        Scratch { _dir: dir, root }
    }

    fn write(&self, rel: &str, body: impl AsRef<[u8]>) -> PathBuf {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, body).unwrap();
        path
    }

    /// Loads the catalog, which must fail; returns the error text with the folder shortened.
    fn error(&self) -> String {
        let err = Catalog::load(&self.root).expect_err("the catalog should not load");
        let code = toolwire::cli::EXIT_BAD_INPUT;
        assert!(
            matches!(err, toolwire::error::Error::Input { .. }),
            "{err:?} (exit {code})"
        );
        err.to_string()
            .replace(&format!("{}/", self.root.display()), "")
    }
}

/// The header of a valid case file at `keywords/bad.yaml`.
const HEAD: &str = "id: keywords/bad\ntitle: Bad\nfamily: keywords\n\
                    parameter: \"keyword-allowed: enum\"\nplacement: nested\n";

fn with_schema(schema: &str) -> String {
    format!("{HEAD}tool:\n  name: probe_tool\n  parameters: {schema}\n")
}

#[test]
fn malformed_yaml_names_the_line_and_column() {
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        with_schema("{type: object, properties: {a: 1}"),
    );
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: line 8, column 15: at /tool: unclosed bracket '{'"
    );
}

#[test]
fn a_schema_that_is_not_json_compatible_is_refused() {
    for (schema, expected) in [
        (
            "{minimum: .nan}",
            "line 8, column 25: at /tool: non-finite float `.nan` rejected by the configured policy",
        ),
        (
            "{maximum: -.inf}",
            "line 8, column 25: at /tool: non-finite float `-.inf` rejected by the configured policy",
        ),
        (
            "{1: a}",
            "line 8, column 16: at /tool: mapping key 1 is not a string (quote it)",
        ),
        (
            "{default: !!binary aGVsbG8=}",
            "line 8, column 34: at /tool: YAML tag \"tag:yaml.org,2002:binary\" has no JSON form (only plain JSON values are allowed)",
        ),
        (
            "{enum: !!set {a, b}}",
            "line 8, column 28: at /tool: YAML tag \"tag:yaml.org,2002:set\" has no JSON form (only plain JSON values are allowed)",
        ),
        (
            "{type: object, type: string}",
            "line 8, column 30: duplicate key \"type\": a mapping may give each key once",
        ),
    ] {
        let s = Scratch::new();
        s.write("keywords/bad.yaml", with_schema(schema));
        assert_eq!(
            s.error(),
            format!("keywords/bad.yaml: {expected}"),
            "{schema}"
        );
    }
}

#[test]
fn a_duplicate_key_in_block_style_names_the_second_key() {
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        format!(
            "{HEAD}tool:\n  name: probe_tool\n  parameters:\n    type: object\n    type: string\n"
        ),
    );
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: line 10, column 5: duplicate key \"type\": a mapping may give each key once"
    );
}

/// serde's message names the type it expected, not the field: the error names the field's
/// pointer too.
#[test]
fn a_field_of_the_wrong_type_is_named_by_its_pointer() {
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        format!(
            "{}instances:\n  - {{args: {{}}, valid: 5}}\n",
            with_schema("{type: object}")
        ),
    );
    let err = s.error();
    assert!(
        err.starts_with("keywords/bad.yaml: line 10, column ")
            && err.contains(": at /instances/0/valid: invalid boolean"),
        "{err}"
    );
}

#[test]
fn a_file_nested_10000_deep_is_an_error_not_a_stack_overflow() {
    // Flow collections and compact block sequences reach 10,000 levels in one line; block
    // mappings need a line per level and deeper indentation, so 200 levels stand for them.
    let flow = with_schema(&"[".repeat(10_000));
    let sequences = format!(
        "{HEAD}tool:\n  name: probe_tool\n  parameters:\n    {}a\n",
        "- ".repeat(10_000)
    );
    let mut mappings = format!("{HEAD}tool:\n  name: probe_tool\n  parameters:\n");
    for level in 0..200 {
        mappings.push_str(&" ".repeat(4 + 2 * level));
        mappings.push_str("k:\n");
    }
    for (what, body, line) in [
        ("flow", flow, 8),
        ("sequences", sequences, 9),
        ("mappings", mappings, 71),
    ] {
        let s = Scratch::new();
        s.write("keywords/bad.yaml", body);
        let err = s.error();
        assert!(
            err.starts_with(&format!("keywords/bad.yaml: line {line}, column "))
                && err.ends_with(": nesting deeper than 64 levels"),
            "{what}: {err}"
        );
    }
}

#[test]
fn a_50_mb_file_is_refused_before_it_is_read() {
    let s = Scratch::new();
    let path = s.write("keywords/bad.yaml", HEAD);
    // A sparse file: 50 MB long without writing 50 MB.
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(50 * 1024 * 1024).unwrap();
    drop(file);
    assert_eq!(
        s.error(),
        format!(
            "keywords/bad.yaml: (whole file): file is 52428800 bytes, larger than the limit of {MAX_CASE_BYTES} bytes"
        )
    );
}

#[test]
fn an_unknown_field_is_named_with_the_fields_allowed() {
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        format!("{}flavour: vanilla\n", with_schema("{}")),
    );
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: line 9, column 1: at /flavour: unknown field `flavour`, expected one of id, title, family, parameter, placement, tool, tools, generate, strict, instances, notes, links"
    );
}

/// An instance whose claimed validity JSON Schema 2020-12 contradicts is refused when the
/// case loads: `probe` judged enforcement by it and recorded the reference engine itself as
/// "accepted, not enforced".
#[test]
fn an_instance_claimed_wrongly_is_refused_at_load() {
    let schema =
        "{type: object, properties: {value: {type: array, items: {type: string, minLength: 3}}}}";
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        format!(
            "{}instances:\n  - {{args: {{value: [abcd]}}, valid: true}}\n  - {{args: {{value: [abcd]}}, valid: false}}\n",
            with_schema(schema)
        ),
    );
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: at /instances/1/valid: the instance is valid under JSON Schema 2020-12, not invalid as claimed"
    );
    let s = Scratch::new();
    s.write(
        "keywords/min-length-items.yaml",
        format!(
            "{}instances:\n  - {{args: {{value: [ab]}}, valid: false}}\n",
            min_length_items("keyword-allowed: minLength", "")
        ),
    );
    let loaded = Catalog::load(&s.root).expect("a rightly claimed instance loads");
    assert!(
        loaded
            .cases
            .iter()
            .any(|c| c.id == "keywords/min-length-items")
    );
}

#[test]
fn a_wrong_id_or_family_is_named() {
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        with_schema("{}").replace("id: keywords/bad", "id: keywords/good"),
    );
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: at /id: id \"keywords/good\" does not match the file's place (expected \"keywords/bad\")"
    );
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        with_schema("{}").replace("family: keywords", "family: types"),
    );
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: at /family: family \"types\" is not the folder \"keywords\""
    );
}

#[test]
fn two_files_with_one_id_are_refused() {
    let s = Scratch::new();
    let body = min_length_items("keyword-allowed: minLength", "")
        .replace("id: keywords/min-length-items", "id: keywords/bad");
    s.write("keywords/bad.yaml", &body);
    s.write("keywords/bad.yml", &body);
    let err = s.error();
    assert!(
        err.starts_with("keywords/bad.yml: at /id: id \"keywords/bad\" is also used by ")
            && err.ends_with("keywords/bad.yaml"),
        "{err}"
    );
}

#[test]
fn the_tool_must_be_given_exactly_once() {
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        format!(
            "{}generate: {{kind: tool-count, n: 2}}\n",
            with_schema("{}")
        ),
    );
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: at the document root: give exactly one of `tool`, `tools` or `generate`"
    );
    let s = Scratch::new();
    s.write("keywords/bad.yaml", HEAD);
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: at the document root: give exactly one of `tool`, `tools` or `generate`"
    );
}

#[test]
fn a_bad_generator_or_tool_is_named() {
    for (tail, expected) in [
        (
            "generate: {kind: nested-depth, n: 10000}\n",
            "at /generate: nested-depth n must be at most 127 (the schema would nest deeper than 256 JSON levels), got 10000",
        ),
        (
            "generate: {kind: enum-size, n: 0}\n",
            "at /generate: n must be between 1 and 200000, got 0",
        ),
        (
            "generate: {kind: schema-bytes, n: 10}\n",
            "at /generate: schema-bytes n=10 is below the smallest schema it can build (125 bytes bare, 167 with one padding property)",
        ),
        (
            "tool: {name: probe_tool, input_schema: {}}\n",
            "at /tool: unknown tool key \"input_schema\" (allowed: name, description, parameters)",
        ),
        (
            "tool: {description: d}\n",
            "at /tool: a tool needs a `name`",
        ),
        ("tools: []\n", "at /tools: must list at least one tool"),
        (
            "tools: [{name: a}, {name: 7}]\n",
            "at /tools/1: `name` must be a string",
        ),
    ] {
        let s = Scratch::new();
        s.write("keywords/bad.yaml", format!("{HEAD}{tail}"));
        assert_eq!(
            s.error(),
            format!("keywords/bad.yaml: {expected}"),
            "{tail}"
        );
    }
}

#[test]
fn an_unknown_generator_kind_is_named() {
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        format!("{HEAD}generate: {{kind: fractal, n: 3}}\n"),
    );
    let err = s.error();
    assert!(
        err.starts_with("keywords/bad.yaml: line 6, column ") && err.contains("fractal"),
        "{err}"
    );
}

#[test]
fn a_parameter_outside_the_vocabulary_is_named() {
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        with_schema("{}").replace("keyword-allowed: enum", "keyword-alowed: enum"),
    );
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: at /parameter: parameter \"keyword-alowed: enum\": unknown kind (see cases/README.md for the vocabulary)"
    );
}

/// cases/README.md gives each parameter kind one family; filed in another folder, the case
/// would inform rules that never read it.
#[test]
fn a_parameter_of_another_family_is_named() {
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        with_schema("{}").replace("keyword-allowed: enum", "depth-limit: 3"),
    );
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: at /parameter: parameter \"depth-limit: 3\" belongs to the family \"limits\", not \"keywords\" (see cases/README.md for the vocabulary of each family)"
    );
}

/// A tool call's arguments are always an object, so an instance that is not one claims
/// something no target is ever sent.
#[test]
fn an_instance_that_is_not_an_object_is_named() {
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        format!(
            "{}instances:\n  - {{args: {{value: a}}, valid: true}}\n  - {{args: 5, valid: false}}\n",
            with_schema("{type: object}")
        ),
    );
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: at /instances/1/args: an instance must be an object (a tool call's arguments are always an object)"
    );
}

/// The parameter and placement identify what a case informs: a second case for them (a copy
/// whose feature was not changed) is refused naming both files.
#[test]
fn two_cases_for_one_feature_are_refused_naming_both() {
    let s = Scratch::new();
    let body = min_length_items("keyword-allowed: minLength", "");
    s.write("keywords/min-length-items.yaml", &body);
    s.write(
        "keywords/x-copy.yaml",
        body.replace("id: keywords/min-length-items", "id: keywords/x-copy"),
    );
    let err = s.error();
    assert!(
        err.starts_with(
            "keywords/x-copy.yaml: at /parameter: parameter \"keyword-allowed: minLength\" at placement items is also the feature of "
        ) && err.ends_with("keywords/min-length-items.yaml: one case per parameter and placement"),
        "{err}"
    );
    // The same parameter at another placement is another feature.
    let nested =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/keywords/min-length-nested.yaml");
    s.write(
        "keywords/x-copy.yaml",
        std::fs::read_to_string(nested)
            .unwrap()
            .replace("id: keywords/min-length-nested", "id: keywords/x-copy"),
    );
    assert_eq!(Catalog::load(&s.root).unwrap().cases.len(), 3);
}

#[test]
fn invalid_utf8_is_named_with_its_place() {
    let s = Scratch::new();
    let mut body = with_schema("{description: \"").into_bytes();
    body.truncate(body.len() - 1);
    body.extend_from_slice(b"\xff\"}\n");
    s.write("keywords/bad.yaml", body);
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: line 8, column 30: invalid UTF-8 (the file must be UTF-8 text)"
    );
}

#[test]
fn a_catalog_without_its_control_is_refused() {
    let s = Scratch::new();
    std::fs::remove_file(s.root.join("control/baseline.yaml")).unwrap();
    s.write(
        "keywords/min-length-items.yaml",
        min_length_items("keyword-allowed: minLength", ""),
    );
    let err = Catalog::load(&s.root).unwrap_err().to_string();
    assert!(
        err.ends_with("(whole file): the catalog has no control case (control/baseline.yaml)"),
        "{err}"
    );
}

#[test]
fn a_ref_cycle_in_a_case_loads_without_being_expanded() {
    // The loader never resolves references; the cycle is the engines' to handle.
    let c = catalog();
    let case = c.get("keywords/ref-self-cycle-nested").unwrap();
    let p = case.tools[0].parameters.as_ref().unwrap();
    assert_eq!(p["$defs"]["a"]["$ref"], "#/$defs/a");
    let one = load_case(&c.root, &case.path).unwrap();
    assert_eq!(&one, case);
}

#[test]
fn an_alias_bomb_is_refused_without_expanding_it() {
    // Nine levels of ten aliases each would expand to 10^9 nodes.
    let mut schema = String::from("\n    l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n");
    for level in 1..=9 {
        let refs = vec![format!("*l{}", level - 1); 10].join(", ");
        schema.push_str(&format!("    l{level}: &l{level} [{refs}]\n"));
    }
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        format!("{HEAD}tool:\n  name: probe_tool\n  parameters:{schema}"),
    );
    let started = std::time::Instant::now();
    let err = s.error();
    // A hang guard, not a speed goal: the alias budget refuses it before expanding, and
    // expanding 10^9 nodes would take far longer (and run out of memory). The bound is wide
    // because wall time on a loaded 2-core machine is several times the CPU time (10 s failed
    // at a load average of 11).
    assert!(
        started.elapsed().as_secs() < 60,
        "took {:?}",
        started.elapsed()
    );
    assert!(
        err.starts_with("keywords/bad.yaml: line ")
            && err.contains("aliases (`*name`) would copy more than 10000 YAML events"),
        "{err}"
    );
}

/// README states the catalog's size twice (what it holds, what a full run costs): both must be
/// the count the catalog loads, which grows with every case added.
#[test]
fn the_readme_states_the_catalog_size() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md reads");
    let n = catalog().cases.len();
    for (before, after) in [
        ("`cases/`: ", " synthetic cases"),
        ("the catalog has ", " cases"),
    ] {
        let stated = readme
            .split(before)
            .nth(1)
            .and_then(|rest| rest.split_once(after))
            .map(|(count, _)| count)
            .unwrap_or_else(|| panic!("README no longer says \"{before}N{after}\""));
        assert_eq!(
            stated,
            n.to_string(),
            "README says \"{before}{stated}{after}\"; the catalog has {n}"
        );
    }
}

/// `strict: true` belongs to the strict-form cases and they need it: a flag elsewhere would
/// be a second feature, and a strict-form case without it would be sent as a plain tool.
#[test]
fn the_strict_flag_goes_exactly_with_the_strict_form_features() {
    let s = Scratch::new();
    s.write(
        "keywords/bad.yaml",
        format!("{}strict: true\n", with_schema("{type: object}")),
    );
    assert_eq!(
        s.error(),
        "keywords/bad.yaml: at /strict: `strict: true` belongs only to the `structure: strict-*` cases, not \"keyword-allowed: enum\""
    );
    let s = Scratch::new();
    s.write(
        "structure/bad.yaml",
        "id: structure/bad\ntitle: Bad\nfamily: structure\n\
         parameter: \"structure: strict-open-object\"\nplacement: root\n\
         tool:\n  name: probe_tool\n  parameters: {type: object}\n",
    );
    assert_eq!(
        s.error(),
        "structure/bad.yaml: at /strict: parameter \"structure: strict-open-object\" needs `strict: true`"
    );
}

/// A case of `minLength` at items, as cases/README.md builds it on the array host, with
/// `extra` added to the root's properties and `parameter` declared.
fn min_length_items(parameter: &str, extra: &str) -> String {
    format!(
        "id: keywords/min-length-items\ntitle: t\nfamily: keywords\n\
         parameter: \"{parameter}\"\nplacement: items\ntool:\n  name: probe_tool\n  \
         description: Looks up a record by its identifier.\n  \
         parameters:\n    type: object\n    properties:\n      value:\n        type: array\n        \
         description: The identifiers of the records.\n        \
         items: {{type: string, minLength: 3}}\n{extra}    required: [value]\n"
    )
}

/// A case with a second feature would have a target's rejection of that one recorded against
/// the declared one: the new-user trial's `minLength` case with an `additionalProperties:
/// false` beside it loaded, and the reference engine's rejection became evidence against
/// `minLength`.
#[test]
fn a_case_with_a_second_feature_is_refused_naming_it() {
    let s = Scratch::new();
    let extra = "      other: {type: string, additionalProperties: false}\n";
    s.write(
        "keywords/min-length-items.yaml",
        min_length_items("keyword-allowed: minLength", extra),
    );
    assert_eq!(
        s.error(),
        "keywords/min-length-items.yaml: at /tool/parameters/properties/other/additionalProperties: \
         the case also has `keyword-allowed: additionalProperties (false)` at nested, a second \
         feature beside `keyword-allowed: minLength`: a case holds exactly one \
         (cases/README.md), or a target's rejection of the other would be blamed on it; a \
         companion the feature cannot be written without is listed, with the reason, in \
         KNOWN_COMPANIONS (src/case/isolation.rs, then rebuild)"
    );
    // Outside the schema too: the baseline has a description, so leaving it out is a feature.
    s.write(
        "keywords/min-length-items.yaml",
        min_length_items("keyword-allowed: minLength", "")
            .replace("  description: Looks up a record by its identifier.\n", ""),
    );
    assert_eq!(
        s.error(),
        "keywords/min-length-items.yaml: at /tool/description: the case also has \
         `description: missing` at tool, a second feature beside `keyword-allowed: minLength`: \
         a case holds exactly one (cases/README.md), or a target's rejection of the other \
         would be blamed on it; a companion the feature cannot be written without is listed, \
         with the reason, in KNOWN_COMPANIONS (src/case/isolation.rs, then rebuild)"
    );
    // The same case without the second feature loads: the check is about the feature, not
    // about the file.
    s.write(
        "keywords/min-length-items.yaml",
        min_length_items("keyword-allowed: minLength", ""),
    );
    Catalog::load(&s.root).unwrap();
}

/// A parameter naming a keyword the schema does not have at that placement would list a
/// matrix row (`maxLength`) no one probed, with the verdicts of another keyword in it.
#[test]
fn a_parameter_naming_a_feature_the_case_lacks_is_refused() {
    let s = Scratch::new();
    s.write(
        "keywords/min-length-items.yaml",
        min_length_items("keyword-allowed: maxLength", ""),
    );
    assert_eq!(
        s.error(),
        "keywords/min-length-items.yaml: at /parameter: parameter says `keyword-allowed: \
         maxLength` at items, but the tool has no such feature there (it has \
         `keyword-allowed: minLength` at items)"
    );
    // The right keyword at the wrong placement is as false: MATRIX.md splits by placement.
    s.write(
        "keywords/min-length-items.yaml",
        min_length_items("keyword-allowed: minLength", "")
            .replace("placement: items", "placement: nested"),
    );
    assert_eq!(
        s.error(),
        "keywords/min-length-items.yaml: at /parameter: parameter says `keyword-allowed: \
         minLength` at nested, but the tool has no such feature there (it has \
         `keyword-allowed: minLength` at items)"
    );
}

/// The exceptions to "exactly one feature" are reviewed by hand: each names a case of the
/// catalog, gives a reason, and lists only companions the case still has, so that the list
/// cannot outlive the schema it was written for.
#[test]
fn every_known_companion_is_in_its_case_with_a_reason() {
    use toolwire::case::isolation::KNOWN_COMPANIONS;
    let catalog = catalog();
    let mut failures = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    for (id, companions, reason) in KNOWN_COMPANIONS {
        if !ids.insert(*id) {
            failures.push(format!("{id}: listed twice"));
        }
        if reason.trim().is_empty() || companions.is_empty() {
            failures.push(format!("{id}: no reason or no companion"));
        }
        let Some(case) = catalog.get(id) else {
            failures.push(format!("{id}: no such case"));
            continue;
        };
        let features = beyond_background(case);
        for c in *companions {
            if !features.iter().any(|f| f == c) {
                failures.push(format!(
                    "{id}: `{c}` is not in the case (it has {features:?})"
                ));
            }
        }
    }
    failures_report("known companions", &failures);
}

/// The companions listed by generator kind are each a real kind's and in what it builds, for
/// a small and a large `n`, so that the list cannot outlive its reason.
#[test]
fn every_generated_companion_is_built_by_its_generator() {
    use toolwire::case::isolation::GENERATED_COMPANIONS;
    use toolwire::case::{Generate, generate};
    let mut failures = Vec::new();
    for (kind, companions, reason) in GENERATED_COMPANIONS {
        if reason.trim().is_empty() || companions.is_empty() {
            failures.push(format!("{kind}: no reason or no companion"));
        }
        for n in [1, 150] {
            let g: Generate =
                match serde_json::from_value(serde_json::json!({"kind": kind, "n": n})) {
                    Ok(g) => g,
                    Err(e) => {
                        failures.push(format!("{kind}: not a generator kind ({e})"));
                        break;
                    }
                };
            let case = Case {
                id: format!("limits/{kind}-{n}"),
                title: "t".into(),
                family: "limits".into(),
                parameter: format!("{}: {n}", g.limit().family()),
                placement: g.placement(),
                tools: generate(&g).unwrap(),
                strict: false,
                instances: Vec::new(),
                notes: String::new(),
                links: Vec::new(),
                path: Default::default(),
            };
            let features = beyond_background(&case);
            for c in *companions {
                if !features.iter().any(|f| f == c) {
                    failures.push(format!(
                        "{kind} n={n}: `{c}` is not built (it has {features:?})"
                    ));
                }
            }
        }
    }
    failures_report("generated companions", &failures);
}

/// A case's features past the background every case may carry, as `parameter @ placement`.
fn beyond_background(case: &Case) -> Vec<String> {
    use toolwire::case::isolation::background;
    toolwire::profile::derive::case_features(case)
        .into_iter()
        .filter(|f| !background().contains(f))
        .map(|(p, placement)| format!("{p} @ {placement}"))
        .collect()
}

/// The background every case may carry is the baseline and the hosts of cases/README.md,
/// built in code; it must be exactly what the host cases of the catalog hold, or a case
/// could carry a feature no case of its own probes.
#[test]
fn the_background_is_what_the_host_cases_hold() {
    use toolwire::case::isolation::background;
    use toolwire::profile::derive::case_features;
    let catalog = catalog();
    let hosts = [
        "control/baseline",
        "types/string-nested",
        "types/integer-nested",
        "types/number-nested",
        "types/array-nested",
        "types/object-nested",
        "keywords/any-of-null-nested",
    ];
    let held: std::collections::BTreeSet<_> = hosts
        .iter()
        .flat_map(|id| case_features(catalog.get(id).unwrap_or_else(|| panic!("{id}"))))
        .collect();
    assert_eq!(&held, background());
}
