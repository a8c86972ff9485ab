//! `description-missing`: a tool without a usable description.

use super::*;

pub const RULE: Rule = Rule {
    id: "description-missing",
    checks: "The tool's description is missing, empty, or only whitespace.",
    features: "`description: missing`, `description: empty`, `description: whitespace-only`",
    // An empty description, which bedrock/converse rejects, so that `check` (under `portable`)
    // reports the example as this rule's error; a missing one is only a warning there, as no
    // target is known to reject it (trial: the example left out the description and warned).
    example: r#"{"name": "get_weather", "description": "", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}"#,
    example_target: None,
    fix: "Say what the tool does, when to use it and what it returns, in one or two sentences.",
    // A placeholder is no description a model can use (trial 78 D9: "yes" read as a fix).
    repair: "partly: writes a placeholder naming the tool and its inputs, for its author to \
             replace (it spans lines, so `description-content` may warn on it)",
    repairable: always,
    owns,
    hooks: Hooks {
        tool: Some(tool),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    keyed_in(
        p,
        Kind::Description,
        &[
            value::DESC_MISSING,
            value::DESC_EMPTY,
            value::DESC_WHITESPACE,
        ],
    )
}

fn tool<'a>(cx: &mut Cx<'a, '_>, t: &ToolRef<'a>) {
    if !t.has_envelope() {
        return;
    }
    let which = match t.description {
        None => value::DESC_MISSING,
        Some("") => value::DESC_EMPTY,
        Some(d) if d.trim().is_empty() => value::DESC_WHITESPACE,
        Some(_) => return,
    };
    cx.feature(At::Tool, Feat::Description(which), Placement::Tool, || {
        format!("the tool description is {which}")
    });
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn missing_empty_blank() {
        let r = "description-missing";
        assert_eq!(
            seen_tools(r, &[(Some("f"), None, None)]),
            pairs(&[("", "description: missing")])
        );
        assert_eq!(
            seen_tools(r, &[(Some("f"), Some(""), None)]),
            pairs(&[("", "description: empty")])
        );
        assert_eq!(
            seen_tools(r, &[(Some("f"), Some(" \n"), None)]),
            pairs(&[("", "description: whitespace-only")])
        );
        assert!(seen_tools(r, &[(Some("f"), Some("Does it."), None)]).is_empty());
    }
}
