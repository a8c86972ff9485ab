//! `type-missing`: a property (or item, branch, definition) schema without `type`.

use super::*;

pub const RULE: Rule = Rule {
    id: "type-missing",
    checks: "A property, `items`, combinator branch or `$defs` schema has no `type` and no \
             `anyOf`/`oneOf`/`allOf`/`$ref` standing in for one (`{}`, `{\"description\":..}`, \
             `{\"enum\":[..]}` alone).",
    features: "`type-missing`, `structure: items-without-type` (an untyped schema with `items`)",
    example: r#"{"type": "object", "properties": {"value": {"description": "Any JSON value."}}}"#,
    example_target: None,
    fix: "Give the schema a `type` (for \"any value\", pick the types the tool really takes, e.g. `\"string\"`); a branch of `anyOf`/`oneOf`/`allOf` (or the schema of `not`/`if`/`then`/`else`) takes the `type` beside that keyword, which already applies to it; so does a property of such a schema (`if: {properties: {v: ..}}`) from the same property of the typed object (`properties: {v: {type: ..}}`).",
    repair: "partly: a branch of `anyOf`/`oneOf`/`allOf` (or the schema of `not`/`if`/`then`/`else`) is given the `type` of the schema holding it (which already applies to it), and an untyped property of such a schema the `type` of the same property of the `type: object` schema it applies to, unless that makes a shape the profile rejects (an object without `properties`, an array without `items`); else the type the schema's other keywords say is written (the one type of its `enum`/`const` values, `object` for `properties`, `array` for `items`); a schema that says nothing is left to its author",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::UNTYPED,
        ..Hooks::NONE
    },
};

/// What repair writes for a missing `type`: in a branch of `anyOf`/`oneOf`/`allOf` (or the
/// schema of `not`/`if`/`then`/`else`), the `type` of the schema holding it (which already
/// applies there), or for a property of such a schema the `type` of the same property of the
/// object it applies to, when the profile takes the shape that makes, else a type the schema's other
/// keywords say, or, in a branch of an `anyOf`, the `type` beside it that repair moves into
/// every branch.
fn repairable(_: &Feat<'_>, r: &Repairing<'_>) -> bool {
    r.root.is_some_and(|root| {
        crate::repair::type_from_combinator(root, &(r.node_pointer)(), r.profile).is_ok()
    }) || r.node().and_then(crate::repair::type_said_by).is_some()
        || typed_by_moved_siblings(r)
        || merged_away(r)
}

/// Whether the schema is a branch of an `allOf` that repair merges into the schema holding
/// it, as the profile rejects that `allOf` there (`root-combinator` at the root,
/// `keyword-unsupported` below it): the branch, and its missing `type`, are then gone.
fn merged_away(r: &Repairing<'_>) -> bool {
    let pointer = (r.node_pointer)();
    let owner = pointer
        .rsplit_once('/')
        .filter(|(_, i)| i.parse::<usize>().is_ok())
        .and_then(|(list, _)| list.strip_suffix("/allOf"));
    let (Some(owner), Some((root, refs))) = (owner, r.root_refs()) else {
        return false;
    };
    let Some(map) = root.pointer(owner).and_then(|v| v.as_object()) else {
        return false;
    };
    let placement = if owner.is_empty() {
        Placement::Root
    } else if owner.ends_with("/items") {
        Placement::Items
    } else {
        Placement::Nested
    };
    all_of_rejected(r.profile, owner, map, placement)
        && crate::repair::all_of_repairable(root, owner, refs)
}

/// Whether the schema is a branch of an `anyOf` whose sibling `type` repair moves into the
/// branches (`anyof-with-siblings` is rejected where that `anyOf` is, and its siblings can
/// move): that repair comes first, as check reports the `anyOf` before its branches.
fn typed_by_moved_siblings(r: &Repairing<'_>) -> bool {
    let pointer = (r.node_pointer)();
    let Some((parent, index)) = pointer.rsplit_once('/') else {
        return false;
    };
    let Some(owner) = parent.strip_suffix("/anyOf") else {
        return false;
    };
    let Some(map) = r
        .root
        .and_then(|root| root.pointer(owner))
        .and_then(|v| v.as_object())
    else {
        return false;
    };
    let placement = if owner.ends_with("/items") {
        Placement::Items
    } else {
        Placement::Nested
    };
    // At the root an `anyOf` is root-combinator's, which has no such repair.
    !owner.is_empty()
        && index.parse::<usize>().is_ok()
        && map.contains_key("type")
        && matches!(
            r.profile
                .lookup(&Feat::KeywordForm("anyOf", value::WITH_SIBLINGS), placement),
            crate::profile::compiled::Slot::Rejected(_)
        )
        && crate::repair::any_of_siblings_movable(map).is_ok()
}

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::TypeMissing, _))
        || keyed_in(p, Kind::Structure, &[value::ITEMS_WITHOUT_TYPE])
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let applies = matches!(
        n.via,
        Via::Property
            | Via::Items
            | Via::ItemsElement
            | Via::PrefixItems
            | Via::AnyOf
            | Via::OneOf
            | Via::AllOf
            | Via::DefsMember
    );
    if applies && n.map.is_some() && matches!(n.ty, Ty::Absent) && !n.has_type_substitute() {
        if n.items.is_some() {
            cx.feature(
                At::Node(n.frame),
                Feat::Structure(value::ITEMS_WITHOUT_TYPE),
                n.placement,
                || "the schema has `items` but no `type`".into(),
            );
        } else {
            cx.feature(At::Node(n.frame), Feat::TypeMissing, n.placement, || {
                "the schema has no `type`".into()
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn untyped_subschemas() {
        let r = "type-missing";
        let s = json!({"type":"object","properties":{
            "a":{"description":"x"},
            "b":{"enum":["x"]},
            "c":{"anyOf":[{"type":"string"},{"required":["z"]}]},
            "d":{"$ref":"#/$defs/D"},
            "e":{"type":"array","items":{}},
            "f":{"items":{"type":"string"}}
        },"$defs":{"D":{}}});
        assert_eq!(
            seen(r, s),
            pairs(&[
                ("/properties/a", "type-missing"),
                ("/properties/b", "type-missing"),
                ("/properties/c/anyOf/1", "type-missing"),
                ("/properties/e/items", "type-missing"),
                ("/properties/f", "structure: items-without-type"),
                ("/$defs/D", "type-missing"),
            ])
        );
        // The root is root-not-object's.
        assert!(seen(r, json!({"properties":{}})).is_empty());
    }
}
