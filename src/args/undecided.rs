//! `pattern` matches the regex engine could not finish (fancy-regex's backtracking limit, met
//! by backreferences and lookaround on long text).
//!
//! The `jsonschema` crate validates again under each outcome of such a match and reports only
//! the errors every outcome shares: when the call has another problem, the undecided `pattern`
//! is silently left out (its error exists under one outcome only), and when it has none the
//! crate reports the engine's failure instead. `args` promises every problem at once, so the
//! places where a string meets a pattern the engine gives up on are found here and listed as
//! problems of their own, saying that the engine gave up rather than that the value fails.
//!
//! Only places every outcome reaches are searched (`properties`, `additionalProperties`,
//! `items`, `prefixItems`, `allOf` and local `$ref`s): under `anyOf`, `oneOf`, `not` or
//! `if` whether the pattern applies at all depends on other keywords.

use jsonschema::Validator;
use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

/// How many `$ref`s one path may follow (a loop is cut here; `ArgsSchema::new` refuses loops
/// that never reach a schema, so this only bounds legitimate recursion).
const MAX_REF_HOPS: usize = 32;

/// The schema's patterns that can make the engine give up, each with a validator of that
/// pattern alone (built with the same engine options as the schema's own validator, so it
/// gives up exactly where that one does).
#[derive(Default)]
pub(super) struct FancyPatterns {
    checks: Vec<(String, Validator)>,
}

/// One place where a string meets a pattern the engine could not decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct UndecidedMatch {
    /// JSON Pointer into the arguments.
    pub pointer: String,
    /// The pattern as the schema writes it.
    pub pattern: String,
}

impl FancyPatterns {
    /// Collects the backtracking patterns of `schema` (the schema the validator compiled).
    pub(super) fn of(schema: &Value) -> FancyPatterns {
        let mut patterns = Vec::new();
        collect(schema, &mut patterns, 0);
        patterns.sort();
        patterns.dedup();
        let checks = patterns
            .into_iter()
            .filter_map(|p| {
                let alone = serde_json::json!({ "pattern": p });
                jsonschema::options()
                    .build(&alone)
                    .ok()
                    .map(|v| (p.to_string(), v))
            })
            .collect();
        FancyPatterns { checks }
    }

    /// True when the schema has no pattern the engine could give up on (most schemas).
    pub(super) fn is_empty(&self) -> bool {
        self.checks.is_empty()
    }

    /// Whether the engine gives up matching `pattern` against `text`.
    fn gives_up(&self, pattern: &str, text: &str) -> bool {
        let Some((_, validator)) = self.checks.iter().find(|(p, _)| p == pattern) else {
            return false;
        };
        let subject = Value::String(text.to_string());
        validator
            .iter_errors(&subject)
            .any(|e| is_engine_failure(e.kind()))
    }

    /// Every place of `instance` where a string meets one of these patterns and the engine
    /// gives up, in document order.
    pub(super) fn undecided(&self, root: &Value, instance: &Value) -> Vec<UndecidedMatch> {
        let mut out = Vec::new();
        if self.is_empty() {
            return out;
        }
        let mut walk = Walk {
            patterns: self,
            root,
            out: &mut out,
        };
        walk.visit(root, instance, &mut String::new(), 0, 0);
        out
    }
}

/// True for the errors the crate gives when the engine could not finish a match.
pub(super) fn is_engine_failure(kind: &ValidationErrorKind) -> bool {
    matches!(
        kind,
        ValidationErrorKind::BacktrackLimitExceeded { .. }
            | ValidationErrorKind::RegexEngineFailure { .. }
    )
}

/// Whether `pattern` uses what only a backtracking engine runs (backreferences, lookaround,
/// atomic groups); any other pattern goes to the linear-time engine, which never gives up.
fn backtracks(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'\\' {
            if (b[i + 1].is_ascii_digit() && b[i + 1] != b'0') || b[i + 1] == b'k' {
                return true;
            }
            i += 2;
            continue;
        }
        if b[i] == b'(' && b[i + 1] == b'?' {
            let rest = &pattern[i + 2..];
            if ["=", "!", "<=", "<!", ">"]
                .iter()
                .any(|s| rest.starts_with(s))
            {
                return true;
            }
        }
        i += 1;
    }
    false
}

fn collect<'s>(schema: &'s Value, out: &mut Vec<&'s str>, depth: usize) {
    if depth > crate::args::MAX_DEPTH {
        return;
    }
    match schema {
        Value::Object(o) => {
            for (k, v) in o {
                match (k.as_str(), v) {
                    ("pattern", Value::String(p)) if backtracks(p) => out.push(p),
                    // Member names and values of `enum`, `const`, `examples` are data.
                    ("enum" | "const" | "examples" | "default", _) => {}
                    _ => collect(v, out, depth + 1),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| collect(v, out, depth + 1)),
        _ => {}
    }
}

struct Walk<'a> {
    patterns: &'a FancyPatterns,
    root: &'a Value,
    out: &'a mut Vec<UndecidedMatch>,
}

impl Walk<'_> {
    fn visit(
        &mut self,
        schema: &Value,
        instance: &Value,
        at: &mut String,
        hops: usize,
        depth: usize,
    ) {
        if depth > crate::args::MAX_DEPTH {
            return;
        }
        let Value::Object(s) = schema else {
            return;
        };
        if let (Some(Value::String(p)), Value::String(text)) = (s.get("pattern"), instance)
            && self.patterns.gives_up(p, text)
            && !self.out.iter().any(|u| u.pointer == *at && u.pattern == *p)
        {
            self.out.push(UndecidedMatch {
                pointer: at.clone(),
                pattern: p.clone(),
            });
        }
        if let Some(Value::String(r)) = s.get("$ref")
            && hops < MAX_REF_HOPS
            && let crate::schema::refs::Step::Local(target, _) =
                crate::schema::refs::step(self.root, r)
        {
            self.visit(target, instance, at, hops + 1, depth + 1);
        }
        if let Some(Value::Array(all)) = s.get("allOf") {
            for sub in all {
                self.visit(sub, instance, at, hops, depth + 1);
            }
        }
        match instance {
            Value::Object(members) => {
                let declared = s.get("properties").and_then(Value::as_object);
                // `additionalProperties` applies to members no `patternProperties` matches
                // either; with patterns present which members those are is not followed here.
                let extra = s
                    .get("additionalProperties")
                    .filter(|_| !s.contains_key("patternProperties"));
                for (name, value) in members {
                    let sub = match declared.and_then(|d| d.get(name)) {
                        Some(sub) => Some(sub),
                        None => extra,
                    };
                    if let Some(sub) = sub {
                        let len = at.len();
                        at.push('/');
                        at.push_str(&crate::json::escape_token(name));
                        self.visit(sub, value, at, hops, depth + 1);
                        at.truncate(len);
                    }
                }
            }
            Value::Array(items) => {
                let tuple = s
                    .get("prefixItems")
                    .or_else(|| s.get("items").filter(|i| i.is_array()))
                    .and_then(Value::as_array);
                let rest = match s.get("prefixItems") {
                    Some(_) => s.get("items"),
                    None => s.get("items").filter(|i| i.is_object()),
                };
                for (i, value) in items.iter().enumerate() {
                    let sub = tuple.and_then(|t| t.get(i)).or(match tuple {
                        Some(t) if i < t.len() => None,
                        _ => rest,
                    });
                    if let Some(sub) = sub {
                        let len = at.len();
                        at.push('/');
                        at.push_str(&i.to_string());
                        self.visit(sub, value, at, hops, depth + 1);
                        at.truncate(len);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_backtracking_patterns_are_collected() {
        assert!(backtracks(r"^(a|a)+\1$"));
        assert!(backtracks(r"(?<=x)y"));
        assert!(backtracks(r"a(?!b)"));
        assert!(backtracks(r"(?<n>a)\k<n>"));
        assert!(!backtracks(r"^(a+)+$"));
        assert!(
            !backtracks(r"^\d{3}\\1$"),
            "an escaped backslash is not a backreference"
        );
        assert!(
            !backtracks(r"(?<name>a)b"),
            "a named group is not a lookbehind"
        );
        assert!(!backtracks(r"\0"));
    }

    #[test]
    fn a_string_the_engine_gives_up_on_is_found_at_its_place() {
        let schema = json!({"type":"object","$defs":{"c":{"type":"string","pattern":"^(a|a)+\\1$"}},
            "properties":{
                "c":{"$ref":"#/$defs/c"},
                "list":{"type":"array","items":{"allOf":[{"$ref":"#/$defs/c"}]}},
                "t":{"type":"string"}}});
        let p = FancyPatterns::of(&schema);
        assert!(!p.is_empty());
        let long = format!("{}!", "a".repeat(30));
        let call = json!({"c": long, "list": ["zz", long], "t": 5});
        let found = p.undecided(&schema, &call);
        let pointers: Vec<&str> = found.iter().map(|u| u.pointer.as_str()).collect();
        // "zz" is decided (it fails plainly), so only the long values are undecided.
        assert_eq!(pointers, ["/c", "/list/1"]);
        assert_eq!(found[0].pattern, "^(a|a)+\\1$");
        assert!(p.undecided(&schema, &json!({"c":"aa"})).is_empty());
    }

    #[test]
    fn a_schema_without_backtracking_patterns_has_nothing_to_search() {
        let schema = json!({"properties":{"s":{"type":"string","pattern":"^(a+)+$"}}});
        assert!(FancyPatterns::of(&schema).is_empty());
    }
}
