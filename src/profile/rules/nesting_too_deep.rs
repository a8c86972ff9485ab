//! `nesting-too-deep`: a schema nested past the cap every toolwire command reads.
//!
//! Not a provider's rule but toolwire's own limit ([`crate::input::LIMITS`]`.max_depth`,
//! brackets counted as in a file): the rules, repair and serde_json recurse once per level,
//! so a deeper value is refused before any of them runs. `check` meets it in tools given
//! straight to the library ([`crate::check::check_tools`]), since a file that deep is bad input;
//! `repair` refuses a tool whose inlined references would nest past it. No walk runs it, so
//! it has no hooks and reports no feature of a case.

use super::*;

pub const RULE: Rule = Rule {
    id: "nesting-too-deep",
    checks: "The schema nests past the 512 levels (brackets counted, as in a file) every toolwire \
             command reads: toolwire's own cap, not a provider's, so that no command recurses \
             without bound. A file that deep is bad input (exit 2); a tool given to the library \
             that deep, or one whose `$ref`s repair would inline past the cap, gets this error \
             and is not checked or repaired further. The one rule `--ignore` refuses: no \
             command reads past the cap.",
    features: "none: toolwire's own cap, not a feature of a case",
    example: r#"{"type": "array", "items": {"type": "array", "items": {"type": "array", "items": ... 513 nested objects ...}}}"#,
    example_target: None,
    fix: "Flatten the schema, or accept a JSON string for the deep part; for a recursive `$ref`, keep the reference (on a target that reads it) instead of inlining it.",
    repair: "no",
    repairable: never,
    owns: |_| false,
    hooks: Hooks::NONE,
};
