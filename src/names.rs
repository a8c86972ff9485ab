//! Tool names: each target's rule (length, characters, first character), the portable rule
//! (what every core target accepts), a sanitizer, and a census that refuses names that
//! collide after sanitizing.
//!
//! Every rule cites where it comes from (`evidence/PROVIDERS.md` and public reports in
//! `reports/documented/reports.yaml`); where two sources disagree the newer one decides. A target with
//! no documented rule gets the portable rule, marked [`NameRule::assumed`].

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;
use sha2::{Digest, Sha256};

/// What the first character of a name may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstChar {
    /// Any character the rule allows elsewhere.
    Any,
    /// An ASCII letter or `_`.
    LetterOrUnderscore,
}

/// One name rule: ASCII letters and digits plus `punctuation`, a first-character rule and a
/// maximum length in characters. Names are at least one character long.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NameRule {
    /// `portable` or a target id.
    pub scope: String,
    /// Longest accepted name, in characters.
    pub max_len: usize,
    /// Allowed characters besides ASCII letters and digits.
    pub punctuation: String,
    pub first: FirstChar,
    /// Where the rule comes from.
    pub source: String,
    /// True when no rule was found for the target and the portable rule stands in.
    pub assumed: bool,
}

/// One way a name breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "problem", rename_all = "kebab-case")]
pub enum NameProblem {
    Empty,
    TooLong {
        length: usize,
        max: usize,
    },
    /// A character outside the allowed set, at a 0-based character index.
    BadCharacter {
        index: usize,
        character: char,
    },
    /// The first character is allowed elsewhere but not first.
    BadFirstCharacter {
        character: char,
    },
}

impl fmt::Display for NameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameProblem::Empty => f.write_str("the name is empty"),
            NameProblem::TooLong { length, max } => {
                write!(f, "the name is {length} characters long, more than {max}")
            }
            NameProblem::BadCharacter { index, character } => {
                write!(f, "character {character:?} at {index} is not allowed")
            }
            NameProblem::BadFirstCharacter { character } => write!(
                f,
                "the name starts with {character:?}; it must start with a letter or `_`"
            ),
        }
    }
}

impl NameRule {
    fn new(scope: &str, max_len: usize, punctuation: &str, first: FirstChar, source: &str) -> Self {
        NameRule {
            scope: scope.to_string(),
            max_len,
            punctuation: punctuation.to_string(),
            first,
            source: source.to_string(),
            assumed: false,
        }
    }

    /// True when `c` may appear in a name.
    pub fn allows(&self, c: char) -> bool {
        c.is_ascii_alphanumeric() || self.punctuation.contains(c)
    }

    fn allows_first(&self, c: char) -> bool {
        match self.first {
            FirstChar::Any => self.allows(c),
            FirstChar::LetterOrUnderscore => c.is_ascii_alphabetic() || c == '_',
        }
    }

    /// Every problem `name` has under this rule (empty when it is accepted).
    pub fn problems(&self, name: &str) -> Vec<NameProblem> {
        let mut out = Vec::new();
        let Some(first) = name.chars().next() else {
            return vec![NameProblem::Empty];
        };
        let length = name.chars().count();
        if length > self.max_len {
            out.push(NameProblem::TooLong {
                length,
                max: self.max_len,
            });
        }
        if self.allows(first) && !self.allows_first(first) {
            out.push(NameProblem::BadFirstCharacter { character: first });
        }
        for (index, character) in name.chars().enumerate() {
            if !self.allows(character) {
                out.push(NameProblem::BadCharacter { index, character });
            }
        }
        out
    }

    /// True when `name` is accepted.
    pub fn accepts(&self, name: &str) -> bool {
        let mut n = 0;
        for c in name.chars() {
            if !(if n == 0 {
                self.allows_first(c)
            } else {
                self.allows(c)
            }) {
                return false;
            }
            n += 1;
        }
        n >= 1 && n <= self.max_len
    }

    /// The rule as a regular expression, e.g. `^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`.
    pub fn pattern(&self) -> String {
        let mut class = String::from("a-zA-Z0-9");
        // `-` last so that it is literal inside the class.
        for c in self.punctuation.chars().filter(|c| *c != '-') {
            if "\\]^".contains(c) {
                class.push('\\');
            }
            class.push(c);
        }
        if self.punctuation.contains('-') {
            class.push('-');
        }
        match self.first {
            FirstChar::Any => format!("^[{class}]{{1,{}}}$", self.max_len),
            FirstChar::LetterOrUnderscore => {
                format!("^[a-zA-Z_][{class}]{{0,{}}}$", self.max_len - 1)
            }
        }
    }

    /// A name this rule accepts, made from `name`: a name already accepted is returned as is;
    /// otherwise each run of disallowed characters becomes one `_`, a bad first character gets
    /// a `_` in front, and a name that is too long (or has no letter or digit left) is cut and
    /// ends in `_` plus 8 hex digits of the SHA-256 of the original name, so distinct long
    /// names stay distinct. Sanitizing twice gives the same name as sanitizing once.
    pub fn sanitize(&self, name: &str) -> String {
        if self.accepts(name) {
            return name.to_string();
        }
        let mut out = String::with_capacity(name.len());
        let mut replacing = false;
        for c in name.chars() {
            if self.allows(c) {
                out.push(c);
                replacing = false;
            } else if !replacing {
                out.push('_');
                replacing = true;
            }
        }
        if let Some(first) = out.chars().next()
            && !self.allows_first(first)
        {
            out.insert(0, '_');
        }
        let tag = short_hash(name);
        if !out.chars().any(|c| c.is_ascii_alphanumeric()) {
            out = format!("tool_{tag}");
        }
        if out.chars().count() > self.max_len {
            let keep = self.max_len.saturating_sub(tag.len() + 1);
            out = out.chars().take(keep).collect::<String>() + "_" + &tag;
        }
        out
    }

    /// The strictest rule that every rule in `rules` accepts: shortest length, common
    /// punctuation, letter-or-underscore first when any rule says so. `None` for no rules.
    pub fn intersection(scope: &str, rules: &[NameRule]) -> Option<NameRule> {
        let first = rules.first()?;
        let max_len = rules.iter().map(|r| r.max_len).min()?;
        let punctuation: String = first
            .punctuation
            .chars()
            .filter(|c| rules.iter().all(|r| r.punctuation.contains(*c)))
            .collect();
        let first_char = if rules
            .iter()
            .any(|r| r.first == FirstChar::LetterOrUnderscore)
        {
            FirstChar::LetterOrUnderscore
        } else {
            FirstChar::Any
        };
        let sources: Vec<String> = rules.iter().map(|r| r.scope.clone()).collect();
        Some(NameRule {
            scope: scope.to_string(),
            max_len,
            punctuation,
            first: first_char,
            source: format!("intersection of the rules of {}", sources.join(", ")),
            assumed: rules.iter().any(|r| r.assumed),
        })
    }
}

fn short_hash(name: &str) -> String {
    let digest = Sha256::digest(name.as_bytes());
    digest[..4].iter().map(|b| format!("{b:02x}")).collect()
}

/// The targets the portable rule is taken over (the core non-strict targets of `portable`).
pub const CORE_TARGETS: &[&str] = &[
    "gemini/v1beta/parameters",
    "openai/chat",
    "anthropic/messages",
    "bedrock/converse",
    "mistral/chat",
];

const GEMINI_SOURCE: &str = "Gemini's validator message \"Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.) or dashes (-), with a maximum length of 64.\" (microsoft/vscode-copilot-release#7928, 2025-04-16). A text listing colons (kaitranntt/ccs#25, 2025-11-30) is a Code Assist style backend's, which speaks to no target";
const VERTEX_SOURCE: &str = "Vertex AI function name: \"Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 64.\" (PROVIDERS.md §3); other Vertex pages leave colons out";
const OPENAI_SOURCE: &str = "OpenAI function name: \"a-z, A-Z, 0-9, underscores and dashes, max length 64\" (platform docs; PROVIDERS.md §5)";
const ANTHROPIC_SOURCE: &str = "Anthropic `tools.N.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'` (claude-code#96152 2025-08-14, MCP#1345; PROVIDERS.md §8); `{1,64}` before (2025-03-07), the newer one decides";
const BEDROCK_SOURCE: &str = "Bedrock ToolSpecification.name: 1-64 characters, pattern `[a-zA-Z0-9_-]+` (API_runtime_ToolSpecification; PROVIDERS.md §9); headroom PR#2129 (2026-07-13) reports names over 64 rejected";
const DEEPSEEK_SOURCE: &str = "DeepSeek: \"Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'\" (deepseek-name-pattern report, 2026-05-04), at most 64 (ds-api docs; PROVIDERS.md §13)";

/// The name rule of target `id`. Targets with no documented rule get the portable rule with
/// `assumed: true` and their own id as scope.
pub fn for_target(id: &str) -> NameRule {
    use FirstChar::*;
    match id {
        "gemini/v1beta/parameters"
        | "gemini/v1beta/parameters-json-schema"
        | "gemini/openai-compat"
        | "engine/gemini-proto-snapshot/parameters"
        | "engine/gemini-proto-snapshot/parameters-json-schema" => {
            NameRule::new(id, 64, "_.-", LetterOrUnderscore, GEMINI_SOURCE)
        }
        "vertex/v1/parameters" => NameRule::new(id, 64, "_.:-", LetterOrUnderscore, VERTEX_SOURCE),
        "openai/chat" | "openai/chat-strict" | "openai/responses-strict" | "azure-openai/chat" => {
            NameRule::new(id, 64, "_-", Any, OPENAI_SOURCE)
        }
        "anthropic/messages" => NameRule::new(id, 128, "_-", Any, ANTHROPIC_SOURCE),
        "bedrock/converse" => NameRule::new(id, 64, "_-", Any, BEDROCK_SOURCE),
        "deepseek/beta-strict" => NameRule::new(id, 64, "_-", Any, DEEPSEEK_SOURCE),
        _ => {
            let mut r = portable_over(&documented_core());
            r.scope = id.to_string();
            r.source =
                format!("no documented name rule found for {id}; the portable rule stands in");
            r.assumed = true;
            r
        }
    }
}

/// The documented rules of the core targets (those without one are left out here).
fn documented_core() -> Vec<NameRule> {
    CORE_TARGETS
        .iter()
        .filter(|t| **t != "mistral/chat")
        .map(|t| for_target(t))
        .collect()
}

fn portable_over(rules: &[NameRule]) -> NameRule {
    NameRule::intersection("portable", rules).unwrap_or_else(|| {
        NameRule::new(
            "portable",
            64,
            "_-",
            FirstChar::LetterOrUnderscore,
            "default",
        )
    })
}

/// The portable rule: the intersection of the core targets' rules. Mistral documents no rule,
/// so the result is marked `assumed` for it.
pub fn portable() -> NameRule {
    let mut rules = documented_core();
    rules.push(for_target_assumed("mistral/chat", &rules));
    portable_over(&rules)
}

fn for_target_assumed(id: &str, known: &[NameRule]) -> NameRule {
    let mut r = portable_over(known);
    r.scope = id.to_string();
    r.assumed = true;
    r
}

/// The rule for a `--profile`/`--target` choice: a target id, or `portable`.
pub fn rule_for(scope: &str) -> NameRule {
    if scope == "portable" {
        portable()
    } else {
        for_target(scope)
    }
}

/// What the census decided for one tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum NameOutcome {
    /// The name is accepted as it is.
    Kept,
    /// The name is sanitized to `to`.
    Renamed { to: String },
    /// The tool is left out.
    Refused { reason: String },
}

/// Decides every tool's name under `rule`, in input order: accepted names are kept, others
/// sanitized. When two or more tools end up with the same name, a tool that had that name to
/// begin with (and is the only one) keeps it and the tools renamed onto it are refused; when
/// no tool had it (two renames collide) or two had it as given, all of them are refused. So
/// no call is ever routed to the wrong tool, and a valid name is never lost to a rename.
pub fn census(names: &[&str], rule: &NameRule) -> Vec<NameOutcome> {
    let sanitized: Vec<String> = names.iter().map(|n| rule.sanitize(n)).collect();
    let pairs: Vec<(&str, &str)> = names
        .iter()
        .zip(&sanitized)
        .map(|(n, s)| (*n, s.as_str()))
        .collect();
    census_of(&pairs, &rule.scope)
}

/// [`census`] of names already decided: each pair is a tool's name as given and the name it
/// is sent under (the same when it is not renamed), in input order. Only the names sent are
/// compared: a name that is not renamed collides only with a tool sent under that very name,
/// and then keeps it while the renamed tools are refused. `scope` names the rule the renames
/// were made under, for the reason.
pub fn census_of(pairs: &[(&str, &str)], scope: &str) -> Vec<NameOutcome> {
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, (_, sent)) in pairs.iter().enumerate() {
        groups.entry(sent).or_default().push(i);
    }
    pairs
        .iter()
        .enumerate()
        .map(|(i, &(given, sent))| {
            let group = &groups[sent];
            let owner = sole_owner(pairs, group);
            if group.len() > 1 && owner != Some(i) {
                NameOutcome::Refused {
                    reason: collision(pairs, group, owner, i, scope),
                }
            } else if sent == given {
                NameOutcome::Kept
            } else {
                NameOutcome::Renamed {
                    to: sent.to_string(),
                }
            }
        })
        .collect()
}

/// The one tool of `group` (tools sent under one name) that is not renamed, when exactly one
/// is: it keeps the name.
fn sole_owner(pairs: &[(&str, &str)], group: &[usize]) -> Option<usize> {
    let mut unchanged = group.iter().filter(|j| pairs[**j].0 == pairs[**j].1);
    match (unchanged.next(), unchanged.next()) {
        (Some(j), None) => Some(*j),
        _ => None,
    }
}

/// Why tool `i` of `group` (tools sent under one name, `owner` the one that keeps it) is
/// refused.
fn collision(
    pairs: &[(&str, &str)],
    group: &[usize],
    owner: Option<usize>,
    i: usize,
    scope: &str,
) -> String {
    let (given, sent) = pairs[i];
    if let Some(o) = owner {
        return format!(
            "`{given}` becomes `{sent}` under the {scope} name rule, the name of the tool `{}`, \
             which keeps it; `{given}` is left out",
            pairs[o].0
        );
    }
    if group.iter().all(|j| pairs[*j].0 == given) {
        return format!(
            "the name `{given}` is used by {} tools of the request; all of them are left out",
            group.len()
        );
    }
    // Others are named, not numbered: callers number tools in their own ways (per request,
    // per file, skipping built-in tools).
    let named = |keep: &dyn Fn(usize) -> bool| -> String {
        let names: Vec<String> = group
            .iter()
            .filter(|j| keep(**j))
            .map(|j| format!("`{}`", pairs[*j].0))
            .collect();
        names.join(", ")
    };
    if given == sent {
        // Not renamed itself, but shared with another tool of that very name: others were
        // renamed onto it too.
        format!(
            "{} becomes `{sent}` under the {scope} name rule, the name of this tool; all of them are left out",
            named(&|j| pairs[j].0 != sent)
        )
    } else {
        format!(
            "`{given}` becomes `{sent}` under the {scope} name rule, the same as {}; all of them are left out",
            named(&|j| j != i)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_is_the_intersection_of_the_core_targets() {
        let p = portable();
        assert_eq!(p.pattern(), "^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$");
        assert!(p.assumed, "mistral/chat has no documented rule");
        assert!(p.source.contains("gemini/v1beta/parameters"));
    }

    #[test]
    fn each_target_rule_matches_its_source() {
        assert_eq!(
            for_target("gemini/v1beta/parameters").pattern(),
            "^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$"
        );
        assert_eq!(
            for_target("vertex/v1/parameters").pattern(),
            "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$"
        );
        assert_eq!(for_target("openai/chat").pattern(), "^[a-zA-Z0-9_-]{1,64}$");
        assert_eq!(
            for_target("anthropic/messages").pattern(),
            "^[a-zA-Z0-9_-]{1,128}$"
        );
        let groq = for_target("groq/chat");
        assert!(groq.assumed);
        assert_eq!(groq.pattern(), portable().pattern());
    }

    #[test]
    fn patterns_agree_with_accepts() {
        let names = [
            "a",
            "_a",
            "1a",
            "a.b",
            "a:b",
            "a-b",
            "a b",
            "ü",
            "",
            "-a",
            &"x".repeat(64),
            &"x".repeat(65),
            &"x".repeat(129),
        ];
        for scope in [
            "portable",
            "gemini/v1beta/parameters",
            "openai/chat",
            "anthropic/messages",
        ] {
            let rule = rule_for(scope);
            let re = regex::Regex::new(&rule.pattern()).unwrap();
            for n in names {
                assert_eq!(rule.accepts(n), re.is_match(n), "{scope} {n:?}");
                assert_eq!(
                    rule.accepts(n),
                    rule.problems(n).is_empty(),
                    "{scope} {n:?}"
                );
            }
        }
    }

    #[test]
    fn reported_rejections_are_caught() {
        // Names from public reports (reports.yaml) that the named provider rejected.
        assert!(!for_target("gemini/v1beta/parameters").accepts("21st_magic_component_builder"));
        assert!(!for_target("gemini/v1beta/parameters").accepts("mcp server/list-items"));
        assert!(!for_target("anthropic/messages").accepts("malloy/executeQuery"));
        assert!(!for_target("anthropic/messages").accepts("someuser.some-actor"));
        assert!(!for_target("openai/chat").accepts("get_/whoami"));
        assert!(!for_target("bedrock/converse").accepts(&"n".repeat(65)));
    }

    #[test]
    fn problems_name_each_fault() {
        let p = portable();
        assert_eq!(
            p.problems("1a.b"),
            [
                NameProblem::BadFirstCharacter { character: '1' },
                NameProblem::BadCharacter {
                    index: 2,
                    character: '.'
                }
            ]
        );
        assert_eq!(p.problems(""), [NameProblem::Empty]);
    }

    #[test]
    fn sanitizer_makes_accepted_names_and_is_idempotent() {
        let p = portable();
        assert_eq!(p.sanitize("math.sum"), "math_sum");
        assert_eq!(
            p.sanitize("mcp server//list-items"),
            "mcp_server_list-items"
        );
        assert_eq!(p.sanitize("21st_magic"), "_21st_magic");
        assert_eq!(p.sanitize("ok_name"), "ok_name");
        let cjk = p.sanitize("搜索");
        assert!(cjk.starts_with("tool_") && p.accepts(&cjk), "{cjk}");
        let long_a = p.sanitize(&"a".repeat(80));
        let long_b = p.sanitize(&("a".repeat(79) + "b"));
        assert_eq!(long_a.len(), 64);
        assert_ne!(long_a, long_b);
        for n in ["math.sum", "1x", &"a".repeat(80), "搜索", "a b c", "-"] {
            let once = p.sanitize(n);
            assert!(p.accepts(&once), "{n:?} -> {once:?}");
            assert_eq!(p.sanitize(&once), once);
        }
    }

    #[test]
    fn census_keeps_the_name_of_the_tool_that_had_it_and_refuses_the_renames() {
        let p = portable();
        let out = census(&["math.sum", "math_sum", "ok", "dup", "dup", "a.b"], &p);
        assert_eq!(
            out[0],
            NameOutcome::Refused {
                reason: "`math.sum` becomes `math_sum` under the portable name rule, the name of \
                         the tool `math_sum`, which keeps it; `math.sum` is left out"
                    .into()
            }
        );
        assert_eq!(out[1], NameOutcome::Kept);
        assert_eq!(out[2], NameOutcome::Kept);
        assert!(
            matches!(&out[3], NameOutcome::Refused { reason } if reason.contains("`dup` is used by 2 tools"))
        );
        assert!(matches!(&out[4], NameOutcome::Refused { .. }));
        assert_eq!(out[5], NameOutcome::Renamed { to: "a_b".into() });
    }

    #[test]
    fn census_of_decided_names_compares_only_the_names_sent() {
        // Not renamed: `a.b` and `a_b` are two names.
        assert_eq!(
            census_of(&[("a.b", "a.b"), ("a_b", "a_b")], "x"),
            [NameOutcome::Kept, NameOutcome::Kept]
        );
        // Two renamed onto a third tool's name: that tool keeps it, each rename is refused.
        let out = census_of(
            &[("a.b", "a_b"), ("a_b", "a_b"), ("a b", "a_b"), ("c", "c")],
            "x",
        );
        assert_eq!(
            out,
            [
                NameOutcome::Refused {
                    reason: "`a.b` becomes `a_b` under the x name rule, the name of the tool \
                             `a_b`, which keeps it; `a.b` is left out"
                        .into()
                },
                NameOutcome::Kept,
                NameOutcome::Refused {
                    reason: "`a b` becomes `a_b` under the x name rule, the name of the tool \
                             `a_b`, which keeps it; `a b` is left out"
                        .into()
                },
                NameOutcome::Kept,
            ]
        );
        // Two renames onto one name no tool had: both refused, each told who.
        let out = census_of(&[("a.b", "a_b"), ("a b", "a_b")], "x");
        assert_eq!(
            out[0],
            NameOutcome::Refused {
                reason: "`a.b` becomes `a_b` under the x name rule, the same as `a b`; all of \
                         them are left out"
                    .into()
            }
        );
        assert!(
            matches!(&out[1], NameOutcome::Refused { reason } if reason.contains("the same as `a.b`"))
        );
        // Two tools of one name as given and a rename onto it: no tool keeps it.
        let out = census_of(&[("a_b", "a_b"), ("a_b", "a_b"), ("a.b", "a_b")], "x");
        assert!(out.iter().all(|o| matches!(o, NameOutcome::Refused { .. })));
        assert_eq!(
            census_of(&[("a b", "a_b")], "x"),
            [NameOutcome::Renamed { to: "a_b".into() }]
        );
    }
}
