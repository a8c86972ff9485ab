//! `properties-invalid`: `properties` is not a map of schemas.

use super::*;

pub const RULE: Rule = Rule {
    id: "properties-invalid",
    checks: "`properties` is not a JSON object (e.g. `null`, or `[]` from a serializer that \
             writes empty maps as lists).",
    features: "`structure: properties-list`, `structure: properties-null`, `structure: properties-not-object`",
    example: r#"{"type": "object", "properties": []}"#,
    fix: "Write `properties` as an object mapping names to schemas. With none, `{}` only where the profile accepts an empty `properties` map; where it does not, see `object-properties-missing`.",
    repair: "partly: `null` is written `{}`",
    repairable: null_only,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::PROPERTIES,
        ..Hooks::NONE
    },
};

/// `null` declares no property, as `{}` does; a list or a scalar says nothing repair could
/// read as a map without guessing. At the root, `{}` leaves a tool that takes no arguments,
/// which repair keeps only where the profile has a form for that
/// ([`Repairing::can_take_no_arguments`]).
fn null_only(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    matches!(f, Feat::Structure(s) if *s == value::PROPERTIES_NULL)
        && (!r.at_root() || r.can_take_no_arguments())
}

fn owns(p: &Param) -> bool {
    keyed_in(
        p,
        Kind::Structure,
        &[
            value::PROPERTIES_LIST,
            value::PROPERTIES_NULL,
            value::PROPERTIES_NOT_OBJECT,
        ],
    )
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if let Some(p) = n.properties
        && !p.is_object()
    {
        let kind = json_kind(p);
        let fix = no_empty_map_fix(cx, n);
        cx.feature_with_fix(
            At::Key(n.frame, "properties"),
            Feat::Structure(match p {
                serde_json::Value::Array(_) => value::PROPERTIES_LIST,
                serde_json::Value::Null => value::PROPERTIES_NULL,
                _ => value::PROPERTIES_NOT_OBJECT,
            }),
            n.placement,
            || format!("`properties` is a JSON {kind}, not an object"),
            || fix,
        );
    }
}

/// The fix where the profile rejects an empty `properties` map in this place as well
/// (`object-properties-missing`: gemini/v1beta/parameters, report
/// pipecat-properties-empty-object), so `{}` is no way to write an object without members
/// there: at the root, what that rule says of a tool without arguments; below it, declare
/// the members, naming who rejects `{}`. `None` (the rule's own fix) where `{}` is not rejected.
fn no_empty_map_fix(cx: &Cx<'_, '_>, n: &Node<'_>) -> Option<String> {
    let rejecting = |feat, placement| {
        let (rejected, _) = cx.refusing_targets(&feat, placement)?;
        (!rejected.is_empty()).then(|| rejected.join(", "))
    };
    if n.is_root() {
        rejecting(Feat::RootShape(value::ROOT_NO_ARGUMENTS), Placement::Root)?;
        return super::parameters_missing::no_arguments_fix(cx);
    }
    let empty = rejecting(Feat::Structure(value::EMPTY_PROPERTIES), n.placement)?;
    let none = rejecting(
        Feat::Structure(value::OBJECT_WITHOUT_PROPERTIES),
        n.placement,
    );
    let fix = super::object_properties_missing::NESTED_FIX;
    Some(match none {
        Some(none) if none == empty => format!(
            "{fix} {empty} rejects both an empty `properties` map (`{{}}`) and an object without \
             `properties` here: an object with no members has no form there (`toolwire repair` \
             refuses such a tool)."
        ),
        Some(none) => format!(
            "{fix} {empty} rejects an empty `properties` map (`{{}}`) here, and {none} an object \
             without `properties`: an object with no members has no form there (`toolwire \
             repair` refuses such a tool)."
        ),
        None => format!("{fix} {empty} rejects an empty `properties` map (`{{}}`) here."),
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn properties_must_be_a_map() {
        let r = "properties-invalid";
        assert_eq!(
            seen(r, json!({"type":"object","properties":null})),
            pairs(&[("/properties", "structure: properties-null")])
        );
        assert_eq!(
            seen(r, json!({"type":"object","properties":[]})),
            pairs(&[("/properties", "structure: properties-list")])
        );
        assert!(seen(r, json!({"type":"object","properties":{}})).is_empty());
    }
}
