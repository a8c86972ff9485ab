//! `parameters-missing`: the tool declares no parameters schema at all.

use super::*;

pub const RULE: Rule = Rule {
    id: "parameters-missing",
    checks: "The tool has no parameters (input) schema at all.",
    features: "`root-shape: parameters-absent`",
    example: r#"{"name": "list_projects", "description": "Lists the projects."}"#,
    example_target: None,
    fix: "Declare an empty argument object: {\"type\":\"object\",\"properties\":{}}. Where the profile rejects that too, keep it and let `toolwire compile --target T` write the form each target takes.",
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
    let Some(absent) = rejecting(cx, value::ROOT_ABSENT) else {
        return no_form_in_shape_fix(cx);
    };
    // A bare schema cannot be left out: the rule's own fix says what is left.
    let empty = rejecting(cx, value::ROOT_NO_ARGUMENTS).filter(|_| cx.named())?;
    Some(format!(
        "No way of writing a tool without arguments passes this profile: {absent} rejects \
         leaving the schema out, {empty} an empty `properties` map. Keep \
         `{{\"type\":\"object\",\"properties\":{{}}}}`, check the tool under each target \
         (`check --target T`) and send what `toolwire compile --target T` writes (each \
         target's form)."
    ))
}

/// The fix of a tool without arguments whose shape requires its schema's key
/// ([`Cx::required_schema_key`]: Anthropic's `input_schema`...) where the profile rejects
/// the empty argument object, its one form in that shape, though not leaving the schema out:
/// what `repair` says when it refuses such a tool (`repair::fixes::no_form_in_shape`), so
/// that check neither marks it repairable nor advises leaving the schema out (before: "leave
/// the schema out (gemini/v1beta/parameters rejects an empty `properties` map)", which a
/// tool of that shape cannot do). `None` for any other tool, or where the map is accepted.
fn no_form_in_shape_fix(cx: &Cx<'_, '_>) -> Option<String> {
    let key = cx.required_schema_key()?;
    let empty = rejecting(cx, value::ROOT_NO_ARGUMENTS)?;
    Some(format!(
        "No way of writing a tool without arguments passes this profile in the tool's shape: \
         the shape requires `{key}`, so the schema cannot be left out, and {empty} rejects an \
         empty `properties` map (`toolwire repair` refuses the tool). Keep \
         `{{\"type\":\"object\",\"properties\":{{}}}}` and send what `toolwire compile \
         --target T` writes (each target's form)."
    ))
}

/// The fix of a root object without `properties` (which repair writes as a tool without
/// arguments) from what the profile's evidence says of the two ways of writing one: both
/// rejected, [`no_form_fix`] after the advice to declare them; one rejected, the other named
/// with who rejects the first; neither, `None` (the rule's own fix).
pub(super) fn no_arguments_fix(cx: &Cx<'_, '_>) -> Option<String> {
    if let Some(both) = no_form_fix(cx) {
        return Some(format!("{DECLARE} {both}"));
    }
    if let Some(absent) = rejecting(cx, value::ROOT_ABSENT) {
        return Some(format!(
            "{DECLARE} For a tool with no arguments, declare an empty argument object \
             `{{\"type\":\"object\",\"properties\":{{}}}}` ({absent} rejects leaving the \
             schema out)."
        ));
    }
    leave_out_fix(cx)
}

/// The fix of a root empty `properties` map (a tool without arguments): [`no_form_fix`] where
/// the profile rejects both ways of writing one; where it rejects only the empty map, leaving
/// the schema out, naming who rejects the map (what `repair` does with such a named tool, and
/// what [`no_arguments_fix`] says of a root without `properties` or with a `null` one, so
/// that the three agree under gemini/v1beta/parameters, report
/// pipecat-properties-empty-object); else `None` (the rule's own fix).
pub(super) fn empty_map_fix(cx: &Cx<'_, '_>) -> Option<String> {
    no_form_fix(cx).or_else(|| leave_out_fix(cx))
}

/// What the object-properties-missing fixes at the root say first.
const DECLARE: &str = "Declare the object's properties: each key the model may send, with its \
                       schema.";

/// Leaving the schema out, where the profile rejects an empty `properties` map at the root
/// (`None` where it does not, or for a schema that cannot be left out: a bare schema, whose
/// rule's own fix says what is left, or one whose shape requires its key, which
/// [`no_form_in_shape_fix`] answers first).
fn leave_out_fix(cx: &Cx<'_, '_>) -> Option<String> {
    let empty = rejecting(cx, value::ROOT_NO_ARGUMENTS).filter(|_| cx.may_leave_schema_out())?;
    Some(format!(
        "{DECLARE} For a tool with no arguments, leave the schema out ({empty} rejects an \
         empty `properties` map)."
    ))
}

/// The targets of the profile whose evidence rejects the root shape `shape`, joined; `None`
/// where none does.
fn rejecting(cx: &Cx<'_, '_>, shape: &'static str) -> Option<String> {
    let rejected = cx.rejecting_targets(&Feat::RootShape(shape), Placement::Root)?;
    (!rejected.is_empty()).then(|| rejected.join(", "))
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
