//! `parameters-missing`: the tool declares no parameters schema at all.

use super::*;

pub const RULE: Rule = Rule {
    id: "parameters-missing",
    checks: "The tool has no parameters (input) schema at all.",
    features: "`root-shape: parameters-absent`",
    example: r#"{"name": "list_projects", "description": "Lists the projects."}"#,
    fix: "Declare an empty argument object: {\"type\":\"object\",\"properties\":{}}. Where the profile rejects that too (no form of a tool without arguments is accepted by every target of `portable`), keep it and let `toolwire compile --target T` write the form each target takes.",
    repair: "yes, unless the profile rejects an empty `properties` map at the root (`root-shape: no-arguments`) too",
    repairable,
    owns,
    hooks: Hooks {
        tool: Some(tool),
        ..Hooks::NONE
    },
};

/// Repair declares an empty argument object, which is no repair where the profile rejects
/// that as well (it then refuses: the profile rejects both ways of taking no arguments).
fn repairable(_: &Feat<'_>, r: &Repairing<'_>) -> bool {
    !r.rejects_root(value::ROOT_NO_ARGUMENTS)
}

fn owns(p: &Param) -> bool {
    keyed_in(p, Kind::RootShape, &[value::ROOT_ABSENT])
}

fn tool<'a>(cx: &mut Cx<'a, '_>, t: &ToolRef<'a>) {
    if t.has_envelope() && t.parameters.is_none() {
        let fix = no_form_fix(cx);
        cx.feature_with_fix(
            At::Tool,
            Feat::RootShape(value::ROOT_ABSENT),
            Placement::Root,
            || "the tool declares no parameters schema".into(),
            || fix,
        );
    }
}

/// The fix of a tool without arguments where the profile's evidence rejects both ways of
/// writing one (no schema: `parameters-missing`; an empty `properties` map at the root:
/// `object-properties-missing`), naming who rejects which; `None` (the rule's own fix, which
/// says it conditionally) unless both are rejected. Without it, each finding's fix sent the
/// user to the form the other finding rejects.
pub(super) fn no_form_fix(cx: &Cx<'_, '_>) -> Option<String> {
    let by = |shape| {
        let (rejected, _) = cx.refusing_targets(&Feat::RootShape(shape), Placement::Root)?;
        (!rejected.is_empty()).then(|| rejected.join(", "))
    };
    let absent = by(value::ROOT_ABSENT)?;
    let empty = by(value::ROOT_NO_ARGUMENTS)?;
    Some(format!(
        "No way of writing a tool without arguments passes this profile: {absent} rejects \
         leaving the schema out, {empty} an empty `properties` map. Keep \
         `{{\"type\":\"object\",\"properties\":{{}}}}`, check the tool under each target \
         (`check --target T`) and send what `toolwire compile --target T` writes (each \
         target's form)."
    ))
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn fires_only_when_parameters_are_left_out() {
        let absent = seen_tools("parameters-missing", &[(Some("f"), Some("d"), None)]);
        assert_eq!(absent, pairs(&[("", "root-shape: parameters-absent")]));
        assert!(seen("parameters-missing", serde_json::json!({})).is_empty());
        // A bare schema has no envelope to leave parameters out of.
        assert!(seen_tools("parameters-missing", &[(None, None, None)]).is_empty());
    }
}
