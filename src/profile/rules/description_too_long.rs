//! `description-too-long`: a tool description longer than the profile allows.

use super::*;

pub const RULE: Rule = Rule {
    id: "description-too-long",
    checks: "The tool description's length in characters reaches a `description-length-limit` \
             case the profile does not allow.",
    features: "`description-length-limit: N`",
    example: r#"{"name": "list_issues", "description": "Lists issues ... 1,103 characters of usage notes ...", "parameters": {"type": "object", "properties": {}}}"#,
    example_target: None,
    fix: "Shorten the description; move long usage notes into parameter descriptions or documentation.",
    repair: "yes: cut to the longest length the profile allows, ending in `...` (`…` where the kept text is not ASCII already; the cut text is reported as lost), after whole grapheme clusters: an emoji with its modifier, a ZWJ sequence or a letter with its combining accent that straddles the limit goes whole, and the cut says why it is shorter",
    repairable,
    owns,
    hooks: Hooks {
        tool: Some(tool),
        ..Hooks::NONE
    },
};

/// Repair cuts the description to the longest length the profile allows, or, where that
/// leaves no room for a character and the `…`, the longest it does not reject, which needs that
/// room.
fn repairable(_: &Feat<'_>, r: &Repairing<'_>) -> bool {
    crate::repair::max_allowed(r.profile, Limit::DescriptionLength).is_some_and(|max| max >= 2)
}

fn owns(p: &Param) -> bool {
    matches!(p, Param::Limit(Limit::DescriptionLength, _))
}

fn tool<'a>(cx: &mut Cx<'a, '_>, t: &ToolRef<'a>) {
    if let Some(d) = t.description {
        // Characters never outnumber bytes: a short text needs no count.
        if d.len() < cx.limit_floor(Limit::DescriptionLength) {
            return;
        }
        let n = d.chars().count();
        super::super::detect::report_limit(
            cx,
            At::Tool,
            Limit::DescriptionLength,
            n,
            Placement::Tool,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn counts_characters() {
        let d = "é".repeat(1025);
        assert_eq!(
            seen_tools("description-too-long", &[(Some("f"), Some(&d), None)]),
            pairs(&[("", "description-length-limit: 1025")])
        );
    }
}
