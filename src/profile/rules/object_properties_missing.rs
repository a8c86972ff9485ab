//! `object-properties-missing`: an object schema without `properties`, or with none in it.

use super::*;

pub const RULE: Rule = Rule {
    id: "object-properties-missing",
    checks: "An object schema (`type: object`) has no `properties`, or an empty `properties` \
             map (at the root: a tool that takes no arguments).",
    features: "`structure: object-without-properties`, `structure: empty-properties`, `root-shape: object-without-properties`, `root-shape: no-arguments`",
    example: r#"{"type": "object", "properties": {"filter": {"type": "object"}}}"#,
    example_target: None,
    fix: "Declare the object's properties: each key the model may send, with its schema. For a tool with no arguments, leave `parameters` out where the profile allows that; where it rejects that too, keep `{\"type\":\"object\",\"properties\":{}}` and let `toolwire compile --target T` write the form each target takes.",
    repair: "partly: at the root, a tool that takes no arguments has its schema left out (a named tool in a shape that may leave it out: not Anthropic's, MCP's or Bedrock's), or an object without `properties` becomes an empty argument object, whichever the profile does not reject, and every other finding in the schema goes with it (check marks them repairable); an object, at the root or below, whose `allOf` declares its members gets them when repair merges that `allOf`; other nested objects are left to their author",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::OBJECT_TYPE,
        ..Hooks::NONE
    },
};

/// What `repair::fixes::shapes::root_shape` repairs: only the root, by taking no arguments
/// another way (an empty `properties` map can only be left out, which a bare schema cannot).
fn repairable(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    match f {
        Feat::RootShape(shape) => r.rewrites_no_arguments(shape) || members_merged_in(r),
        _ => members_merged_in(r),
    }
}

/// Whether repair's merge of the object's `allOf` gives it its members first: the profile
/// rejects that `allOf` there, and its branches declare them
/// ([`crate::repair::all_of_declares_members`]).
fn members_merged_in(r: &Repairing<'_>) -> bool {
    // Asked of every free-form object: the pointer is made only for one with an `allOf`.
    let (Some((root, refs)), Some(map)) = (r.root_refs(), r.node()) else {
        return false;
    };
    if !map.contains_key("allOf") {
        return false;
    }
    let pointer = (r.node_pointer)();
    all_of_rejected(r.profile, &pointer, map, r.placement)
        && crate::repair::all_of_declares_members(root, &pointer, refs)
}

/// The fix of an object below the root, which is an argument (or part of one), never a tool
/// without arguments: what check writes there under every profile (and `explain` for such a
/// place, whatever the target).
pub const NESTED_FIX: &str = "Declare the object's properties: each key the model may send, with \
                          its schema.";

fn owns(p: &Param) -> bool {
    keyed_in(
        p,
        Kind::Structure,
        &[value::OBJECT_WITHOUT_PROPERTIES, value::EMPTY_PROPERTIES],
    ) || keyed_in(
        p,
        Kind::RootShape,
        &[
            value::ROOT_NO_ARGUMENTS,
            value::ROOT_OBJECT_WITHOUT_PROPERTIES,
        ],
    )
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    // A `$ref` beside `type: object` supplies the properties (its target is checked where it
    // is defined): `{"$ref": "#/$defs/Option", "type": "object"}` declares them.
    if !n.names(ty_bit::OBJECT) || n.reference.is_some() {
        return;
    }
    match n.properties {
        None => {
            // The rule's own fix speaks of tools without arguments too: below the root only
            // its first sentence applies, and at the root what the profile's evidence says.
            let (feat, fix) = if n.is_root() {
                (
                    Feat::RootShape(value::ROOT_OBJECT_WITHOUT_PROPERTIES),
                    super::parameters_missing::no_arguments_fix(cx),
                )
            } else {
                (
                    Feat::Structure(value::OBJECT_WITHOUT_PROPERTIES),
                    Some(NESTED_FIX.to_owned()),
                )
            };
            cx.feature_with_fix(
                At::Node(n.frame),
                feat,
                n.placement,
                || "an object schema without `properties`".into(),
                || fix,
            )
        }
        Some(serde_json::Value::Object(m)) if m.is_empty() => {
            let (feat, fix) = if n.is_root() {
                (
                    Feat::RootShape(value::ROOT_NO_ARGUMENTS),
                    super::parameters_missing::empty_map_fix(cx),
                )
            } else {
                (
                    Feat::Structure(value::EMPTY_PROPERTIES),
                    Some(NESTED_FIX.to_owned()),
                )
            };
            cx.feature_with_fix(
                At::Key(n.frame, "properties"),
                feat,
                n.placement,
                || "an object schema with an empty `properties` map".into(),
                || fix,
            )
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn objects_without_properties() {
        let r = "object-properties-missing";
        assert_eq!(
            seen(r, json!({"type":"object","properties":{}})),
            pairs(&[("/properties", "root-shape: no-arguments")])
        );
        assert_eq!(
            seen(r, json!({"type":"object"})),
            pairs(&[("", "root-shape: object-without-properties")])
        );
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"type":"OBJECT"},"b":{"type":"object","properties":{}}}})
            ),
            pairs(&[
                ("/properties/a", "structure: object-without-properties"),
                ("/properties/b/properties", "structure: empty-properties"),
            ])
        );
    }

    /// The properties of an object typed beside a `$ref` are the reference's
    /// (anomalyco/opencode#12295's `items`); an object that is its own schema still needs them.
    #[test]
    fn a_reference_beside_type_object_supplies_the_properties() {
        let r = "object-properties-missing";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{
                    "options":{"type":"array","items":{"$ref":"#/$defs/Option","type":"object","title":"Option"}},
                    "bare":{"type":"object","title":"Option"}},
                    "$defs":{"Option":{"type":"object","properties":{"label":{"type":"string"}}}}})
            ),
            pairs(&[("/properties/bare", "structure: object-without-properties")])
        );
    }

    /// BFCL writes objects as `dict`: one without `properties` is still a free-form object
    /// after `repair` respells it, so check reports that too (repair refuses such a tool).
    #[test]
    fn spellings_of_object_need_properties_too() {
        let r = "object-properties-missing";
        assert_eq!(
            seen(r, json!({"type":"dict","properties":{}})),
            pairs(&[("/properties", "root-shape: no-arguments")])
        );
        assert_eq!(
            seen(
                r,
                json!({"type":"dict","properties":{"a":{"type":"dict"},"b":{"type":"Map","properties":{"c":{"type":"str"}}},"c":{"type":"dictionary"}}})
            ),
            pairs(&[("/properties/a", "structure: object-without-properties")])
        );
    }

    /// Below the root an object is an argument, never a tool without arguments, and no fix
    /// speaks of a profile the check is not under (trial K: `--target` named `portable`).
    #[test]
    fn fixes_speak_of_the_place_and_the_profile_checked() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let under = |name: &str, parameters: serde_json::Value| {
            let profile = crate::profile::CompiledProfile::new(set.get(name).expect(name));
            check_under(&profile, &parameters)
                .into_iter()
                .filter(|f| f.rule == "object-properties-missing")
                .map(|f| (f.pointer.to_string(), f.fix.to_string()))
                .collect::<Vec<_>>()
        };
        let nested = json!({"type":"object","properties":{
            "filter":{"type":"object"},"tags":{"type":"object","properties":{}}}});
        let found = under("gemini/v1beta/parameters", nested);
        assert_eq!(found.len(), 2, "{found:?}");
        for (_, fix) in &found {
            assert_eq!(fix, super::NESTED_FIX);
        }
        let root = under("gemini/v1beta/parameters", json!({"type":"object"}));
        assert_eq!(root.len(), 1, "{root:?}");
        assert!(!root[0].1.contains("portable"), "{root:?}");
        assert!(
            root[0].1.starts_with("Declare the object's properties"),
            "{root:?}"
        );
    }

    /// Under one target that rejects an empty `properties` map at the root and takes a tool
    /// without its schema (gemini/v1beta/parameters, report pipecat-properties-empty-object),
    /// the fix of `{}` there says so, as the fixes of a root without `properties` and of a
    /// root `properties: null` (the same tool, read as proto3 JSON) do, and as repair does
    /// (trial 58 "G"; before: the rule's conditional "... leave `parameters` out where the
    /// profile allows that; where it rejects that too, keep ...").
    #[test]
    fn an_empty_root_map_is_told_what_the_one_target_takes() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile =
            crate::profile::CompiledProfile::new(set.get("gemini/v1beta/parameters").unwrap());
        let fix = |parameters: serde_json::Value| {
            let found: Vec<_> = check_under(&profile, &parameters)
                .into_iter()
                .map(|f| f.fix.to_string())
                .collect();
            assert_eq!(found.len(), 1, "{found:?}");
            found[0].clone()
        };
        let empty = fix(json!({"type":"object","properties":{}}));
        assert_eq!(
            empty,
            "Declare the object's properties: each key the model may send, with its schema. \
             For a tool with no arguments, leave the schema out (gemini/v1beta/parameters \
             rejects an empty `properties` map)."
        );
        assert_eq!(fix(json!({"type":"object"})), empty);
        assert_eq!(fix(json!({"type":"object","properties":null})), empty);
    }

    /// A tool whose shape requires its schema's key (Anthropic's `input_schema`, MCP's
    /// `inputSchema`, Bedrock's `toolSpec.inputSchema`) cannot have it left out, so under
    /// gemini/v1beta/parameters, which rejects the empty argument object (its one form in that
    /// shape), check neither advises leaving it out nor marks it repairable: repair refuses
    /// such a tool (before: "... leave the schema out (gemini/v1beta/parameters rejects an
    /// empty `properties` map). (repairable)"). The same tool without that key is still told
    /// to leave it out, and is repairable.
    #[test]
    fn a_shape_that_requires_the_schema_is_not_told_to_leave_it_out() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile =
            crate::profile::CompiledProfile::new(set.get("gemini/v1beta/parameters").unwrap());
        let found = |parameters: serde_json::Value, key: Option<&'static str>| {
            let tool = crate::profile::detect::ToolRef {
                name: Some("ping"),
                description: Some("Checks the service."),
                parameters: Some(&parameters),
                required_schema_key: key,
                ..Default::default()
            };
            let found: Vec<_> = crate::check::check_tools(&[tool], &profile)
                .into_iter()
                .map(|f| (f.rule.to_string(), f.fix.to_string(), f.repairable))
                .collect();
            assert_eq!(found.len(), 1, "{parameters} {key:?}: {found:?}");
            found.into_iter().next().unwrap()
        };
        for parameters in [
            json!({"type":"object","properties":{}}),
            json!({"type":"object"}),
        ] {
            let (rule, fix, repairable) = found(parameters.clone(), None);
            assert_eq!(rule, "object-properties-missing");
            assert!(fix.contains("leave the schema out"), "{fix}");
            assert!(repairable, "{parameters}");
            for key in ["input_schema", "inputSchema", "toolSpec.inputSchema"] {
                let (rule, fix, repairable) = found(parameters.clone(), Some(key));
                assert_eq!(rule, "object-properties-missing");
                assert!(!repairable, "{parameters} {key}: {fix}");
                assert!(!fix.contains("leave the schema out"), "{fix}");
                assert!(
                    fix.contains(&format!(
                        "No way of writing a tool without arguments passes this profile in \
                         the tool's shape: the shape requires `{key}`, so the schema cannot \
                         be left out, and gemini/v1beta/parameters rejects an empty \
                         `properties` map (`toolwire repair` refuses the tool)."
                    )),
                    "{fix}"
                );
            }
        }
    }
}
