//! `size-exceeded`: an enum, a property count (in one schema or across a request's tools) or a
//! schema larger than the profile allows.

use super::*;

pub const RULE: Rule = Rule {
    id: "size-exceeded",
    checks: "The largest `enum`, the number of properties declared in the whole schema (or \
             across the schemas of all the tools of one request, when it has several), or the \
             schema's size in bytes (compact JSON) reaches a case the profile does not allow.",
    features: "`enum-size-limit: N`, `property-count-limit: N`, \
               `request-property-count-limit: N`, `schema-bytes-limit: N`",
    example: r#"{"type": "object", "properties": {"country": {"type": "string", "enum": ["AD", "AE", "AF", "... 1,001 values"]}}}"#,
    example_target: None,
    fix: "Shrink it: move long enums into the description or a lookup tool, split the tool, \
          drop verbose descriptions; for properties counted across a request's tools, send \
          fewer tools per request.",
    repair: "partly: a property count within the limit once the definitions no `$ref` \
             reaches are dropped (repair drops them)",
    repairable: never,
    owns,
    hooks: Hooks {
        after: Some(after),
        request_after: Some(request_after),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(
        p,
        Param::Limit(
            Limit::EnumSize
                | Limit::PropertyCount
                | Limit::RequestPropertyCount
                | Limit::SchemaBytes,
            _
        )
    )
}

fn after<'a>(cx: &mut Cx<'a, '_>, t: &ToolRef<'a>, s: &Stats) {
    use super::super::detect::report_limit;
    report_limit(
        cx,
        At::Key(s.max_enum_frame, "enum"),
        Limit::EnumSize,
        s.max_enum,
        Placement::Nested,
    );
    property_count(cx, t, s.property_count, s.truncated);
    if let Some(root) = t.parameters
        && !s.truncated
        && let Some(bytes) = s.compact_bytes_exact(root, cx.limit_floor(Limit::SchemaBytes))
    {
        report_limit(cx, At::Node(0), Limit::SchemaBytes, bytes, Placement::Root);
    }
}

/// Reports the `n` properties of tool `t`'s schema; where the finding is made and some of
/// them lie in definitions no `$ref` reaches, it says so ([`Unreached`]). `truncated`: the
/// walk stopped at [`crate::schema::MAX_NODES`], so `n` is a lower bound ([`at_least`]).
fn property_count<'a>(cx: &mut Cx<'a, '_>, t: &ToolRef<'a>, n: usize, truncated: bool) {
    if truncated {
        // Unreached counts the whole schema, the walk only what it read: not comparable
        // (their difference underflowed: trial 73 D5).
        return at_least(cx, At::Node(0), Limit::PropertyCount, n, Placement::Root);
    }
    let unreached = t
        .parameters
        .filter(|_| over(cx, Limit::PropertyCount, n, Placement::Root))
        .map(|root| Unreached::of(root, None))
        .filter(|u| u.properties > 0);
    match unreached {
        Some(u) => u.report(cx, At::Node(0), Limit::PropertyCount, n, Placement::Root),
        None => super::super::detect::report_limit(
            cx,
            At::Node(0),
            Limit::PropertyCount,
            n,
            Placement::Root,
        ),
    }
}

/// A request of one tool is judged by `property-count-limit` alone: its count is that tool's.
/// A count below the profile's smallest case is allowed whatever it is (most requests). Where
/// the finding is made and some of the properties lie in definitions no `$ref` reaches, it
/// says so ([`Unreached`]).
fn request_after<'a>(cx: &mut Cx<'a, '_>, tools: &[ToolRef<'a>], s: &RequestStats) {
    let (limit, n) = (Limit::RequestPropertyCount, s.property_count);
    if tools.len() < 2 || n < cx.limit_floor(limit) {
        return;
    }
    if s.truncated {
        return at_least(cx, At::Tool, limit, n, Placement::Request);
    }
    let mut unreached = Unreached::default();
    if over(cx, limit, n, Placement::Request) {
        for t in tools {
            if let Some(root) = t.parameters {
                unreached.add(Unreached::of(root, Some(cx.other_tool(t.index))));
            }
        }
    }
    if unreached.properties > 0 {
        unreached.report(cx, At::Tool, limit, n, Placement::Request);
    } else {
        super::super::detect::report_limit(cx, At::Tool, limit, n, Placement::Request);
    }
}

/// Reports a count of `n` for `limit` read by a walk that stopped at
/// [`crate::schema::MAX_NODES`]: there are at least `n`, and the message says so rather than
/// give the count read as the schema's (trial 73 D5: "66664 properties" of 131,073).
fn at_least(cx: &mut Cx<'_, '_>, at: At<'_>, limit: Limit, n: usize, placement: Placement) {
    cx.feature(at, Feat::Limit(limit, n), placement, || {
        format!(
            "at least {n} {} (counted in the first {} subschemas of a tool, all check reads)",
            limit.unit(),
            crate::schema::MAX_NODES
        )
    });
}

/// Whether a count of `n` for `limit` at `placement` is reported (in check mode, where the
/// profile does not allow it): only then is it worth reading the schemas again.
fn over(cx: &Cx<'_, '_>, limit: Limit, n: usize, placement: Placement) -> bool {
    n >= cx.limit_floor(limit)
        && matches!(cx.judged(&Feat::Limit(limit, n), placement), Some(Some(_)))
}

/// The properties of `root` that lie in its definitions no `$ref` reaches ([`Unreached`]).
pub fn unreached_properties(root: &serde_json::Value) -> usize {
    Unreached::of(root, None).properties
}

/// Definitions listed by place in a finding's message; the rest are counted.
const NAMED: usize = 3;

/// The properties that lie in definitions of the root (`$defs`, `definitions` members) no
/// `$ref` reaches ([`crate::compile::canonical::unreached_definitions`]), counted as the walk
/// counts a tool's ([`crate::profile::detect::property_count`]). Such a definition constrains
/// nothing: `toolwire compile --target` drops every one, and `toolwire repair` drops them
/// where that brings the count within the profile's limit. Whether a provider counts them is
/// not known, so they stay in the count, and the finding says how many they are.
#[derive(Default)]
struct Unreached {
    properties: usize,
    /// The definitions holding properties, as JSON Pointers (after the tool, in a request).
    places: Vec<String>,
}

impl Unreached {
    /// The unreached definitions of `root` holding properties; `tool` names the tool in the
    /// places (for a finding about the request).
    fn of(root: &serde_json::Value, tool: Option<String>) -> Unreached {
        let mut u = Unreached::default();
        for (container, name) in crate::compile::canonical::unreached_definitions(root) {
            let Some(def) = root.get(container).and_then(|d| d.get(&name)) else {
                continue;
            };
            let n = crate::profile::detect::property_count(def);
            if n == 0 {
                continue;
            }
            u.properties += n;
            let at = crate::json::push_token(&crate::json::push_token("", container), &name);
            u.places.push(match &tool {
                Some(t) => format!("{t} {at}"),
                None => at,
            });
        }
        u
    }

    fn add(&mut self, other: Unreached) {
        self.properties += other.properties;
        self.places.extend(other.places);
    }

    /// Reports `n` for `limit` at `at` as [`super::super::detect::report_limit`] does, the
    /// message saying how many of them lie in these definitions, and the fix what dropping
    /// them leaves: within the limit, the finding is repairable (repair drops them).
    fn report(
        &self,
        cx: &mut Cx<'_, '_>,
        at: At<'_>,
        limit: Limit,
        n: usize,
        placement: Placement,
    ) {
        let left = n - self.properties;
        let within = matches!(cx.judged(&Feat::Limit(limit, left), placement), Some(None));
        let whose = match placement {
            Placement::Request => "the request's tools have",
            _ => "the schema has",
        };
        cx.feature_repairable(
            at,
            Feat::Limit(limit, n),
            placement,
            within,
            |m| {
                use std::fmt::Write;
                let _ = write!(
                    m,
                    "{n} {} ({} of them in definitions no `$ref` reaches: {}",
                    limit.unit(),
                    self.properties,
                    self.places[..self.places.len().min(NAMED)].join(", ")
                );
                if self.places.len() > NAMED {
                    let _ = write!(m, " and {} more", self.places.len() - NAMED);
                }
                m.push(')');
            },
            |m| {
                use std::fmt::Write;
                if within {
                    let _ = write!(
                        m,
                        "Drop the definitions no `$ref` reaches: they constrain nothing, and \
                         without their {} properties {whose} {left}, which the profile allows \
                         (`toolwire repair` and `toolwire compile --target` drop them).",
                        self.properties
                    );
                } else {
                    let _ = write!(
                        m,
                        "{} Dropping the definitions no `$ref` reaches (they constrain \
                         nothing; `toolwire compile --target` drops them) leaves {left} \
                         properties, which the profile does not allow either.",
                        RULE.fix
                    );
                }
                true
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn sizes_are_measured() {
        let s = json!({"type":"object","properties":{"a":{"type":"string","enum":["x","y","z"]},"b":{"type":"object","properties":{"c":{"type":"string"}}}}});
        let bytes = serde_json::to_string(&s).unwrap().len();
        assert_eq!(
            seen("size-exceeded", s),
            pairs(&[
                ("/properties/a/enum", "enum-size-limit: 3"),
                ("", "property-count-limit: 3"),
                ("", &format!("schema-bytes-limit: {bytes}")),
            ])
        );
    }

    /// Cohere's 200 fields are "across all tools": a request is measured as the sum of its
    /// tools' counts, nested properties included; one tool is measured by its own count only.
    #[test]
    fn properties_are_counted_across_the_request() {
        let props = |n: usize| {
            let p: serde_json::Map<String, serde_json::Value> = (0..n)
                .map(|i| (format!("p{i}"), json!({"type": "string"})))
                .collect();
            json!({"type": "object", "properties": p})
        };
        let nested = json!({"type": "object", "properties": {"o": props(2)}});
        let request = seen_tools(
            "size-exceeded",
            &[
                (Some("a"), Some("d"), Some(props(150))),
                (Some("b"), Some("d"), Some(nested)),
                (Some("c"), Some("d"), None),
            ],
        );
        assert!(
            request.contains(&("".into(), "request-property-count-limit: 153".into())),
            "{request:?}"
        );
        let alone = seen_tools("size-exceeded", &[(Some("a"), Some("d"), Some(props(150)))]);
        assert!(
            alone.iter().all(|(_, f)| !f.starts_with("request-")),
            "{alone:?}"
        );
    }

    /// A schema read only in part (past `MAX_NODES` subschemas) has its count said as a lower
    /// bound, and definitions no `$ref` reaches holding more properties than the part read
    /// are not subtracted from it (trial 73 D5: "66664 properties" of 131,073, and an
    /// overflow panic when the definitions held more than the count).
    #[test]
    fn a_count_read_in_part_is_said_as_at_least() {
        let mut props: serde_json::Map<String, serde_json::Value> = (0..150)
            .map(|i| (format!("p{i}"), json!({"type": "string"})))
            .collect();
        let many = vec![json!({}); crate::schema::MAX_NODES + 1];
        props.insert("a".into(), json!({"anyOf": many}));
        let defs: serde_json::Map<String, serde_json::Value> = (0..1000)
            .map(|i| (format!("q{i}"), json!({"type": "string"})))
            .collect();
        let schema = json!({"type": "object", "properties": props,
            "$defs": {"U": {"type": "object", "properties": defs}}});
        let profiles = crate::profile::embedded_set().unwrap();
        for (profile, tools) in [("portable", 1), ("cohere/v2-strict", 2)] {
            let compiled = crate::profile::CompiledProfile::new(profiles.get(profile).unwrap());
            let refs: Vec<_> = (0..tools)
                .map(|i| crate::profile::detect::ToolRef {
                    name: Some(["a", "b"][i]),
                    parameters: Some(&schema),
                    index: i,
                    ..Default::default()
                })
                .collect();
            let found: Vec<String> = crate::check::check_tools(&refs, &compiled)
                .into_iter()
                .filter(|f| f.rule == "size-exceeded" && f.message.contains("properties"))
                .map(|f| f.message.to_string())
                .collect();
            let n = 151 * tools;
            assert!(!found.is_empty(), "{profile}");
            for m in &found {
                assert!(
                    m.starts_with(&format!("at least {n} properties"))
                        || m.starts_with("at least 151 properties"),
                    "{profile}: {m}"
                );
                assert!(
                    m.contains("(counted in the first 200000 subschemas of a tool"),
                    "{profile}: {m}"
                );
                assert!(!m.contains("no `$ref` reaches"), "{profile}: {m}");
            }
        }
    }

    /// Properties in definitions no `$ref` reaches stay in both counts (whether Cohere counts
    /// them is not known), and the finding says how many they are and what dropping them
    /// leaves: within the limit it is repairable (repair drops them, as compile does); a
    /// count still past the limit without them keeps the rule's fix (trial 67 D6: "211
    /// properties across the request's tools", "send fewer tools per request", not
    /// repairable, 150 of them in an unused `$defs` entry).
    #[test]
    fn properties_no_ref_reaches_are_counted_and_said() {
        let profiles = crate::profile::embedded_set().unwrap();
        let cohere =
            crate::profile::CompiledProfile::new(profiles.get("cohere/v2-strict").unwrap());
        let props = |n: usize| {
            let p: serde_json::Map<String, serde_json::Value> = (0..n)
                .map(|i| (format!("p{i}"), json!({"type": "string"})))
                .collect();
            json!({"type": "object", "properties": p})
        };
        let with_def = |n: usize, d: usize| {
            let mut s = props(n);
            s["$defs"] = json!({"U": props(d), "V": {"type": "string"}});
            s
        };
        let size = |schemas: &[serde_json::Value]| {
            let refs: Vec<_> = schemas
                .iter()
                .enumerate()
                .map(|(i, s)| crate::profile::detect::ToolRef {
                    name: Some(["a", "b"][i]),
                    parameters: Some(s),
                    index: i,
                    ..Default::default()
                })
                .collect();
            crate::check::check_tools(&refs, &cohere)
                .into_iter()
                .filter(|f| f.rule == "size-exceeded")
                .map(|f| {
                    (
                        f.request,
                        f.message.to_string(),
                        f.fix.to_string(),
                        f.repairable,
                    )
                })
                .collect::<Vec<_>>()
        };
        let request = size(&[with_def(1, 150), props(60)]);
        assert_eq!(request.len(), 1, "{request:#?}");
        let (about_request, message, fix, repairable) = &request[0];
        assert!(about_request);
        assert!(
            message.starts_with(
                "211 properties across the request's tools (150 of them in definitions no \
                 `$ref` reaches: tool 0 /$defs/U):"
            ),
            "{message}"
        );
        assert!(
            fix.contains("the request's tools have 61, which the profile allows"),
            "{fix}"
        );
        assert!(repairable);
        let alone = size(&[with_def(1, 250)]);
        assert_eq!(alone.len(), 1, "{alone:#?}");
        assert!(
            alone[0].1.starts_with(
                "251 properties (250 of them in definitions no `$ref` reaches: /$defs/U):"
            ),
            "{alone:?}"
        );
        assert!(
            alone[0]
                .2
                .contains("the schema has 1, which the profile allows")
        );
        assert!(alone[0].3);
        // Still past the limit without them: said, and left to the rule's own fix.
        for over in [
            size(&[with_def(210, 50)]),
            size(&[with_def(10, 110), props(195)]),
        ] {
            assert_eq!(over.len(), 1, "{over:#?}");
            assert!(over[0].1.contains("(50 of them") || over[0].1.contains("(110 of them"));
            assert!(over[0].2.starts_with(super::RULE.fix), "{over:?}");
            assert!(
                over[0]
                    .2
                    .contains("which the profile does not allow either")
            );
            assert!(!over[0].3);
        }
        // A definition a `$ref` reaches is counted as before, and said as before.
        let mut reached = with_def(1, 250);
        reached["properties"]["r"] = json!({"$ref": "#/$defs/U"});
        let plain = size(&[reached]);
        assert!(plain[0].1.starts_with("252 properties:"), "{plain:?}");
        assert!(!plain[0].3);
    }
}
