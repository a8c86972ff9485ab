//! `format-unsupported`: a `format` the profile does not allow.

use super::*;

pub const RULE: Rule = Rule {
    id: "format-unsupported",
    checks: "A string `format` value (`uri`, `email`, `date-time`, a custom one, ...), judged \
             by the `format-allowed` case for that exact value.",
    features: "`format-allowed: <format>`",
    example: r#"{"type": "object", "properties": {"url": {"type": "string", "format": "uri"}}}"#,
    example_target: None,
    fix: "Remove `format` and keep what it said in the description (`Format: uri.`), or use a format the profile allows.",
    repair: "yes: `format` is dropped and said in the description, as `Format: uri.` after what it says",
    repairable: always,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::FORMAT,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::Format, _))
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if let Some(serde_json::Value::String(f)) = n.format {
        cx.feature_with_fix(
            At::Key(n.frame, "format"),
            Feat::Format(f),
            n.placement,
            || format!("`format: \"{f}\"`"),
            || Some(fix_for(f)),
        );
    }
}

/// The fix for `format: f`, with what to write in the description for the formats JSON
/// Schema 2020-12 defines that tools use most (its section 7.3); other formats get no
/// example rather than one written for another format.
pub fn fix_for(f: &str) -> String {
    let words = match f {
        "uri" => "a URL",
        "uri-reference" => "a URL, or a path relative to one",
        "email" => "an email address",
        "uuid" => "a UUID such as 123e4567-e89b-12d3-a456-426614174000",
        "date" => "a date as YYYY-MM-DD",
        "date-time" => "a date and time as in RFC 3339, e.g. 2024-05-01T13:00:00Z",
        "time" => "a time of day as HH:MM:SS",
        "duration" => "a duration as in ISO 8601, e.g. P3D",
        "hostname" => "a host name",
        "ipv4" => "an IPv4 address",
        "ipv6" => "an IPv6 address",
        _ => {
            return "Remove `format` and say it in the description, or use a format the \
                    profile allows."
                .into();
        }
    };
    format!(
        "Remove `format` and say it in the description (\"{words}\"), or use a format the \
         profile allows."
    )
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn formats_by_value() {
        let r = "format-unsupported";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"u":{"type":"string","format":"uri"}}})
            ),
            pairs(&[("/properties/u/format", "format-allowed: uri")])
        );
    }

    /// Each finding's fix gives words for its own format (the rule's one fix gave `uri`'s
    /// "a URL" on every format), and none for a format without common words.
    #[test]
    fn each_format_gets_its_own_example() {
        let fix = |f: &str| {
            let found = fixes(
                "format-unsupported",
                json!({"type":"object","properties":{"a":{"type":"string","format":f}}}),
            );
            assert_eq!(found.len(), 1, "{f}: {found:?}");
            found[0].clone()
        };
        for (f, words) in [
            ("uri", "(\"a URL\")"),
            ("email", "(\"an email address\")"),
            ("uuid", "(\"a UUID such as "),
            ("date", "(\"a date as YYYY-MM-DD\")"),
        ] {
            let fix = fix(f);
            assert!(fix.contains(words), "{f}: {fix}");
            assert_eq!(fix.contains("URL"), f == "uri", "{f}: {fix}");
        }
        let custom = super::fix_for("x-custom");
        assert!(
            !custom.contains('(') && custom.starts_with("Remove `format`"),
            "{custom}"
        );
    }
}
