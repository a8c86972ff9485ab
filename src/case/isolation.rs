//! A case holds exactly one feature: what a target rejects in it is blamed on its `parameter`
//! at its `placement`, so a second feature would turn the target's verdict on that one into
//! false evidence against the declared one, and a declared feature the tool lacks would list
//! a row no one probed. A limit is measured, not named: a limit case of another size than its
//! parameter names would file the target's verdict on one size under another.
//!
//! The features are the rules' own ([`crate::profile::derive::case_seen`]), so a case is held
//! to exactly what the profile will read out of it. What the baseline and its hosts carry
//! (README "The baseline") is background, probed by cases of its own. A feature that cannot
//! be written without a companion is listed in [`KNOWN_COMPANIONS`] with its reason; what a
//! generator cannot build its limit without, by the generator's kind in
//! [`GENERATED_COMPANIONS`].

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde_json::{Value, json};

use super::{Case, Generate, LIMIT_PARAMETERS, Placement, baseline};
use crate::profile::derive::{LimitsReached, case_seen_and_measured, normalize};
use crate::profile::detect::{Seen, ToolRef};
use crate::profile::feature::Limit;

/// Where a case's tools came from in its file, to name the place of a feature.
#[derive(Debug, Clone, Copy)]
pub(super) enum Source {
    /// `tool:`, one tool.
    Tool,
    /// `tools:`, a list.
    Tools,
    /// `generate:`, built by this generator.
    Generate(Generate),
}

impl Source {
    /// The place in the file of a feature a rule (`rule`) met at `inner` in a tool's schema.
    fn pointer(self, tool_index: usize, rule: &str, placement: Placement, inner: &str) -> String {
        let tool = match self {
            Source::Tool => "/tool".to_string(),
            Source::Tools => format!("/tools/{tool_index}"),
            Source::Generate(_) => return "/generate".into(),
        };
        match placement {
            // Tool features are the name's and the description's, told apart by their rule.
            Placement::Tool if rule.starts_with("name") => format!("{tool}/name"),
            Placement::Tool if rule.starts_with("description") => format!("{tool}/description"),
            Placement::Tool | Placement::Request => tool,
            _ => format!("{tool}/parameters{inner}"),
        }
    }
}

/// Cases whose feature cannot be written without another: (case id, the companions as
/// `parameter @ placement`, why). Each is reviewed by hand; a companion not listed here is an
/// error, and a listed one the case no longer has is a test failure (`tests/cases.rs`), so the
/// list can neither hide a new second feature nor outlive its reason.
pub const KNOWN_COMPANIONS: &[(&str, &[&str], &str)] = &[
    (
        "formats/enum-nested",
        &["keyword-allowed: enum (strings) @ nested"],
        "Gemini's `format: enum` names the `enum` list it comes with",
    ),
    (
        "keywords/additional-properties-false-anyof-branch",
        &[
            "keyword-allowed: properties @ anyof-branch",
            "keyword-allowed: required @ anyof-branch",
            "type-spelling: object @ anyof-branch",
        ],
        "`additionalProperties` applies to objects only, so the branch is the object host",
    ),
    (
        "keywords/additional-properties-false-items",
        &[
            "keyword-allowed: properties @ items",
            "keyword-allowed: required @ items",
            "type-spelling: object @ items",
        ],
        "`additionalProperties` applies to objects only, so the items are the object host",
    ),
    (
        "keywords/all-of-nested",
        &[
            "keyword-allowed: minLength @ anyof-branch",
            "keyword-allowed: pattern @ anyof-branch",
            "type-missing @ anyof-branch",
        ],
        "`allOf` needs branches that constrain; each holds one keyword and takes its type from the host",
    ),
    (
        "keywords/any-of-nested",
        &["type-spelling: integer @ anyof-branch"],
        "a union needs a second branch, of another type",
    ),
    (
        "keywords/any-of-siblings-nested",
        &[
            "keyword-allowed: maxLength @ anyof-branch",
            "keyword-allowed: pattern @ anyof-branch",
            "type-missing @ anyof-branch",
        ],
        "`anyOf` needs branches that constrain; each holds one keyword and takes its type from the host",
    ),
    (
        "keywords/contains-nested",
        &["keyword-allowed: const @ items"],
        "`contains` needs a subschema some item can fail: a `const`",
    ),
    (
        "keywords/enum-mixed-nested",
        &["type-missing @ nested"],
        "an enum mixing JSON types cannot carry one `type`",
    ),
    (
        "keywords/exclusive-maximum-draft-4-nested",
        &["keyword-allowed: maximum @ nested"],
        "the draft-4 boolean qualifies `maximum` and means nothing without it",
    ),
    (
        "keywords/exclusive-minimum-anyof-branch",
        &["type-spelling: integer @ anyof-branch"],
        "`exclusiveMinimum` applies to numbers, so the branch is the integer host",
    ),
    (
        "keywords/exclusive-minimum-draft-4-nested",
        &["keyword-allowed: minimum @ nested"],
        "the draft-4 boolean qualifies `minimum` and means nothing without it",
    ),
    (
        "keywords/if-then-else-nested",
        &[
            "keyword-allowed: maxLength @ nested",
            "keyword-allowed: pattern @ nested",
        ],
        "`if`, `then` and `else` need bodies that constrain; each holds one keyword",
    ),
    (
        "keywords/if-then-else-root",
        &[
            "keyword-allowed: maxLength @ nested",
            "keyword-allowed: minLength @ nested",
            "keyword-allowed: pattern @ nested",
            "type-missing @ nested",
        ],
        "`if`, `then` and `else` need bodies that constrain `value`; each holds one keyword and \
         takes its type from the host",
    ),
    (
        "keywords/items-list-nested",
        &["type-spelling: integer @ items"],
        "a tuple needs a second position, of another type",
    ),
    (
        "keywords/max-contains-nested",
        &[
            "keyword-allowed: const @ items",
            "keyword-allowed: contains @ nested",
        ],
        "`maxContains` counts the matches of `contains` (with its `const`) and means nothing without it",
    ),
    (
        "keywords/min-contains-nested",
        &[
            "keyword-allowed: const @ items",
            "keyword-allowed: contains @ nested",
        ],
        "`minContains` counts the matches of `contains` (with its `const`) and means nothing without it",
    ),
    (
        "keywords/not-nested",
        &["keyword-allowed: const @ nested"],
        "`not` needs a body: a `const`",
    ),
    (
        "keywords/one-of-nested",
        &["type-spelling: integer @ anyof-branch"],
        "a union needs a second branch, of another type",
    ),
    (
        "keywords/prefix-items-nested",
        &["type-spelling: integer @ items"],
        "a tuple needs a second position, of another type",
    ),
    (
        "keywords/property-names-nested",
        &["keyword-allowed: pattern @ nested"],
        "`propertyNames` needs a constraint on names: a `pattern`",
    ),
    (
        "keywords/property-names-root",
        &["keyword-allowed: pattern @ nested"],
        "`propertyNames` needs a constraint on names: a `pattern`",
    ),
    (
        "keywords/ref-definitions-nested",
        &["keyword-allowed: $ref (local $defs) @ nested"],
        "`definitions` is only reached through a `$ref` into it",
    ),
    (
        "keywords/ref-defs-nested",
        &["keyword-allowed: $defs @ nested"],
        "a local `$ref` needs its target under `$defs`",
    ),
    (
        "keywords/ref-defs-root",
        &[
            "keyword-allowed: $defs @ nested",
            "keyword-allowed: $ref (with siblings) @ root",
            "root-shape: no-type @ root",
        ],
        "a root `$ref` needs its `$defs` beside it (so it has a sibling) and leaves the root \
         without a `type` of its own",
    ),
    (
        "keywords/ref-recursive-nested",
        &[
            "keyword-allowed: $defs @ nested",
            "keyword-allowed: $ref (recursive) @ items",
        ],
        "a recursive `$ref` needs its `$defs` target, which refers to itself again",
    ),
    (
        "keywords/ref-self-cycle-nested",
        &["keyword-allowed: $defs @ nested"],
        "a `$ref` needs its target under `$defs`",
    ),
    (
        "keywords/ref-with-default-sibling-nested",
        &[
            "keyword-allowed: $defs @ nested",
            "keyword-allowed: $ref (local $defs) @ nested",
            "keyword-allowed: $ref (with siblings) @ nested",
            "keyword-allowed: default @ nested",
        ],
        "a `$ref` with a `default` beside it is a local `$ref` with a sibling, which is the `default`",
    ),
    (
        "keywords/ref-with-other-sibling-nested",
        &[
            "keyword-allowed: $defs @ nested",
            "keyword-allowed: $ref (local $defs) @ nested",
            "keyword-allowed: $ref (with siblings) @ nested",
            "keyword-allowed: enum (strings) @ nested",
        ],
        "a `$ref` with another keyword beside it is a local `$ref` with a sibling, which is the `enum`",
    ),
    (
        "keywords/ref-with-siblings-nested",
        &[
            "keyword-allowed: $defs @ nested",
            "keyword-allowed: $ref (local $defs) @ nested",
        ],
        "a `$ref` with siblings is a local `$ref`, whose target is under `$defs`",
    ),
    (
        "keywords/ref-with-title-sibling-nested",
        &[
            "keyword-allowed: $defs @ nested",
            "keyword-allowed: $ref (local $defs) @ nested",
            "keyword-allowed: $ref (with siblings) @ nested",
            "keyword-allowed: title @ nested",
        ],
        "a `$ref` with a `title` beside it is a local `$ref` with a sibling, which is the `title`",
    ),
    (
        "keywords/ref-with-type-sibling-nested",
        &[
            "keyword-allowed: $defs @ nested",
            "keyword-allowed: $ref (local $defs) @ nested",
            "keyword-allowed: $ref (with siblings) @ nested",
        ],
        "a `$ref` with a `type` beside it is a local `$ref` with a sibling",
    ),
    (
        "keywords/unevaluated-items-nested",
        &["structure: array-without-items @ nested"],
        "`unevaluatedItems` stands in for `items`, so the array has none",
    ),
    (
        "names/chars-leading-colon",
        &["name-chars: colon @ tool"],
        "a leading colon is a colon",
    ),
    (
        "names/chars-leading-digit",
        &["name-chars: digit @ tool"],
        "a leading digit is a digit",
    ),
    (
        "names/chars-leading-dot",
        &["name-chars: dot @ tool"],
        "a leading dot is a dot",
    ),
    (
        "names/chars-leading-hyphen",
        &["name-chars: hyphen @ tool"],
        "a leading hyphen is a hyphen",
    ),
    ("root/allof", &ROOT_BRANCH_OBJECT, ROOT_UNION),
    ("root/anyof", &ROOT_BRANCH_OBJECT, ROOT_UNION),
    ("root/oneof", &ROOT_BRANCH_OBJECT, ROOT_UNION),
    ("root/allof-with-type", &ROOT_BRANCH_TYPED, ROOT_UNION_TYPED),
    ("root/anyof-with-type", &ROOT_BRANCH_TYPED, ROOT_UNION_TYPED),
    ("root/oneof-with-type", &ROOT_BRANCH_TYPED, ROOT_UNION_TYPED),
    (
        "root/enum",
        &["keyword-allowed: enum (mixed) @ root"],
        "the root shape `enum` is an `enum` keyword at the root",
    ),
    (
        "root/type-array",
        &["type-spelling: array @ root"],
        "the root shape `array` is `type: array` at the root",
    ),
    (
        "root/type-string",
        &[
            "keyword-allowed: description @ root",
            "type-spelling: string @ root",
        ],
        "the root shape `string` is the string host (`type: string` with its description) \
         moved to the root",
    ),
    (
        "structure/property-named-ref-nested",
        &["structure: property-name-other-punctuation @ nested"],
        "the keyword `$ref` is spelled with a `$`, which is other punctuation in a property name",
    ),
    (
        "structure/required-without-properties-root",
        &["root-shape: object-without-properties @ root"],
        "a root `required` without `properties` is an object without properties (an empty \
         `required` beside no property is not `required-empty`, whose case has one optional)",
    ),
    (
        "structure/strict-required-incomplete-root",
        &["keyword-allowed: additionalProperties (false) @ root"],
        "strict mode checks that every object is closed before it checks `required`, so the \
         root is closed, or the refusal is the open object's (structure/strict-open-object-root)",
    ),
    (
        "types/dict-nested",
        &["structure: object-without-properties @ nested"],
        "`dict` reads as an object, and the spelling carries no `properties`",
    ),
    (
        "types/missing-items",
        &["keyword-allowed: description @ items"],
        "an items schema without `type` keeps a description so that it is not the empty schema",
    ),
    (
        "types/tuple-nested",
        &["structure: array-without-items @ nested"],
        "`tuple` reads as an array, and the spelling carries no `items`",
    ),
];

/// The companions a generator cannot build its limit without, by its kind
/// ([`super::Generate::kind`]): (kind, the companions as `parameter @ placement`, why). They are
/// in every case the generator builds, whatever its `n`, so a new case of the kind needs no
/// entry in [`KNOWN_COMPANIONS`]; a case written out (`tool:`, `tools:`) is held to that list
/// alone. A listed companion the generator no longer builds is a test failure.
pub const GENERATED_COMPANIONS: &[(&str, &[&str], &str)] = &[
    (
        "enum-size",
        &["keyword-allowed: enum (strings) @ nested"],
        "an enum of n members is an `enum` keyword",
    ),
    (
        "request-property-count",
        &["name-chars: digit @ tool"],
        "the request's tools need names of their own, which the generator numbers: \
         `probe_tool_0` ...",
    ),
    (
        "tool-count",
        &["name-chars: digit @ tool"],
        "n tools need n names, which the generator numbers: `probe_tool_0` ...",
    ),
];

const ROOT_UNION: &str = "a root union's branches are the baseline object, one level down";
const ROOT_UNION_TYPED: &str =
    "a typed root union's branches keep `required` and take their type from the root";
const ROOT_BRANCH_OBJECT: [&str; 3] = [
    "keyword-allowed: properties @ anyof-branch",
    "keyword-allowed: required @ anyof-branch",
    "type-spelling: object @ anyof-branch",
];
const ROOT_BRANCH_TYPED: [&str; 2] = [
    "keyword-allowed: required @ anyof-branch",
    "type-missing @ anyof-branch",
];

/// The baseline with `value` as each host of cases/README.md; their features are every
/// case's background.
pub fn host_tools() -> Vec<crate::tool::ToolDef> {
    let description = "The identifier of the record.";
    let hosts = [
        json!({"type": "string", "description": description}),
        json!({"type": "integer", "description": description}),
        json!({"type": "number", "description": description}),
        json!({"type": "array", "description": "The identifiers of the records.",
               "items": {"type": "string"}}),
        json!({"type": "object", "description": "The record.",
               "properties": {"id": {"type": "string"}, "label": {"type": "string"}},
               "required": ["id"]}),
        json!({"description": description,
               "anyOf": [{"type": "string"}, {"type": "null"}]}),
    ];
    hosts
        .into_iter()
        .map(|host| {
            let mut tool = baseline();
            if let Some(Value::Object(root)) = &mut tool.parameters
                && let Some(Value::Object(props)) = root.get_mut("properties")
            {
                props.insert("value".into(), host);
            }
            tool
        })
        .collect()
}

/// The features of the baseline and its hosts, as `(parameter, placement)`.
pub fn background() -> &'static BTreeSet<(String, Placement)> {
    static BACKGROUND: OnceLock<BTreeSet<(String, Placement)>> = OnceLock::new();
    BACKGROUND.get_or_init(|| {
        // One request per host, as each host case is: together they would be six tools of
        // one name, and `name-unique` would become background.
        host_tools()
            .iter()
            .flat_map(|host| {
                crate::profile::detect::collect(&ToolRef::all(std::slice::from_ref(host)))
            })
            .filter(|s| !s.limit)
            .map(|s| (s.parameter, s.placement))
            .collect()
    })
}

/// Whether the parameter's kind is measured (a limit) or is the control: neither is a
/// feature the rules list by name, so only "nothing else" is checked for them.
fn unnamed(parameter: &str) -> bool {
    let kind = parameter.split_once(": ").map_or(parameter, |(k, _)| k);
    kind == "control" || LIMIT_PARAMETERS.contains(&kind)
}

/// A generated case declares what its generator builds: the generator's limit, `n` of it, at
/// the placement where the rules measure it. Any other parameter would file the verdict on the
/// generated tool under a size (or a feature) no one sent.
fn built_by(case: &Case, declared: &str, g: Generate) -> Result<(), (String, String)> {
    let built = format!("{}: {}", g.limit().family(), g.n());
    if declared == built && case.placement == g.placement() {
        return Ok(());
    }
    Err((
        "/parameter".into(),
        format!(
            "parameter says `{}` at {}, but `generate` ({}, n: {}) builds `{built}` at {} \
             ({} {})",
            case.parameter,
            case.placement,
            g.kind(),
            g.n(),
            g.placement(),
            g.n(),
            g.limit().unit()
        ),
    ))
}

/// A limit case is exactly the size it names: the largest value the rules measure of its
/// limit at its placement (`measured`, the limit measurements of its tools) is its
/// parameter's. The profile reads the parameter's value as the size the target was sent, so a
/// tool of another size would put the target's verdict on that size under this one.
fn holds_its_size(case: &Case, declared: &str, measured: &[Seen]) -> Result<(), (String, String)> {
    let Some((kind, value)) = declared.split_once(": ") else {
        return Ok(());
    };
    let (Some(limit), Ok(n)) = (Limit::from_family(kind), value.parse::<usize>()) else {
        return Ok(());
    };
    let value_of = |s: &Seen| {
        s.parameter
            .strip_prefix(kind)?
            .strip_prefix(": ")?
            .parse::<usize>()
            .ok()
    };
    let here = measured
        .iter()
        .filter(|s| s.placement == case.placement)
        .filter_map(value_of)
        .max();
    if here == Some(n) {
        return Ok(());
    }
    let has = match here {
        Some(m) => format!(
            "its tools measure `{kind}: {m}` there ({m} {})",
            limit.unit()
        ),
        None => {
            let elsewhere: BTreeSet<String> = measured
                .iter()
                .filter_map(|s| Some(format!("`{kind}: {}` at {}", value_of(s)?, s.placement)))
                .collect();
            let mut has = format!("nothing in its tools measures as `{kind}` there");
            if !elsewhere.is_empty() {
                let elsewhere: Vec<String> = elsewhere.into_iter().collect();
                has.push_str(&format!(" (they have {})", elsewhere.join(", ")));
            }
            has
        }
    };
    Err((
        "/parameter".into(),
        format!(
            "parameter says `{}` at {}, but {has}",
            case.parameter, case.placement
        ),
    ))
}

/// Checks that `case` holds its declared feature and nothing beyond the background and its
/// [`KNOWN_COMPANIONS`]; a generated case, what its generator builds; a limit case, the size
/// it names. The error is a JSON Pointer into the case file and the problem.
pub(super) fn check(case: &Case, source: Source) -> Result<Measured, (String, String)> {
    let declared = normalize(&case.parameter);
    let (seen, measured) = case_seen_and_measured(case);
    if let Source::Generate(g) = source {
        built_by(case, &declared, g)?;
    }
    holds_its_size(case, &declared, &measured)?;
    let companions = KNOWN_COMPANIONS
        .iter()
        .find(|(id, ..)| *id == case.id)
        .map_or(&[][..], |(_, c, _)| *c);
    let generated = match source {
        Source::Generate(g) => GENERATED_COMPANIONS
            .iter()
            .find(|(kind, ..)| *kind == g.kind())
            .map_or(&[][..], |(_, c, _)| *c),
        Source::Tool | Source::Tools => &[],
    };
    let background = background();
    let mut present = false;
    let mut others = Vec::new();
    for s in &seen {
        if s.parameter == declared && s.placement == case.placement {
            present = true;
        } else if !background.contains(&(s.parameter.clone(), s.placement)) {
            others.push(s);
        }
    }
    // A missing declared feature first: a parameter naming the wrong keyword also makes the
    // keyword that is there look like a second feature, and the typo is the real problem.
    if !present && !unnamed(&declared) {
        let mut there: Vec<String> = others
            .iter()
            .map(|s| format!("`{}` at {}", s.parameter, s.placement))
            .collect();
        there.dedup();
        let there = if there.is_empty() {
            "nothing beside the baseline".to_string()
        } else {
            there.join(", ")
        };
        return Err((
            "/parameter".into(),
            format!(
                "parameter says `{}` at {}, but the tool has no such feature there (it has \
                 {there})",
                case.parameter, case.placement
            ),
        ));
    }
    let second = others.into_iter().find(|s| {
        let companion = format!("{} @ {}", s.parameter, s.placement);
        !companions.contains(&companion.as_str()) && !generated.contains(&companion.as_str())
    });
    if let Some(s) = second {
        return Err((
            source.pointer(s.tool_index, s.rule, s.placement, &s.pointer),
            format!(
                "the case also has `{}` at {}, a second feature beside `{}`: a case holds \
                 exactly one (cases/README.md), or a target's rejection of the other would be \
                 blamed on it; a companion the feature cannot be written without is listed, \
                 with the reason, in KNOWN_COMPANIONS (src/case/isolation.rs, then rebuild)",
                s.parameter, s.placement, case.parameter
            ),
        ));
    }
    Ok(Measured { source, measured })
}

/// The limits the rules measure in a case's tools, and where the case wrote them.
pub(super) struct Measured {
    source: Source,
    measured: Vec<Seen>,
}

/// Checks that no case written out (`tool:`, `tools:`) reaches a limit other than its own:
/// each limit its tools measure stays below the smallest size any limit case of the catalog
/// probes for it ([`LimitsReached`]). A target refusing that size would have its verdict
/// blamed on the case's own feature (a `property-name-length-limit` case nested 13 levels
/// deep, refused by a target that allows 10). A generated case may reach another limit when
/// its own size needs it (`limits/depth-100` nests 100 properties); the profile takes its
/// probed refusal as a verdict only where the target accepts that size of the other limit.
/// `cases` and `measured` are the catalog's, in the same order; the error is the index of the
/// case, a JSON Pointer into its file and the problem.
pub(super) fn within_other_limits(
    cases: &[Case],
    measured: &[Measured],
) -> Result<(), (usize, String, String)> {
    let limits = LimitsReached::of(cases);
    for (i, (case, m)) in cases.iter().zip(measured).enumerate() {
        if matches!(m.source, Source::Generate(_)) {
            continue;
        }
        let Some(&(s, limit, n, (least, by))) = limits.in_case(case, &m.measured).first() else {
            continue;
        };
        return Err((
            i,
            m.source
                .pointer(s.tool_index, s.rule, s.placement, &s.pointer),
            format!(
                "its tools measure `{}: {n}` at {} ({n} {}), as much as `{by}` probes (`{}: \
                 {least}`): a target refusing that size would have its verdict blamed on \
                 `{}`; keep every limit but the case's own below the smallest size a limit \
                 case probes (cases/README.md)",
                limit.family(),
                s.placement,
                limit.unit(),
                limit.family(),
                case.parameter
            ),
        ));
    }
    Ok(())
}
