//! `properties-invalid`: `properties` is not a map of schemas.

use super::*;

pub const RULE: Rule = Rule {
    id: "properties-invalid",
    checks: "`properties` is not a JSON object (e.g. `null`, or `[]` from a serializer that \
             writes empty maps as lists).",
    features: "`structure: properties-list`, `structure: properties-null`, `structure: properties-not-object`",
    example: r#"{"type": "object", "properties": []}"#,
    example_target: None,
    fix: "Write `properties` as an object mapping names to schemas. With none, `{}` only where the profile accepts an empty `properties` map; where it does not, see `object-properties-missing`.",
    repair: "partly: `null` is written `{}` where that stands: below the root, where the profile accepts an empty `properties` map there (or the object's `allOf`, merged, gives it members); at the root, where a tool without arguments has a form",
    repairable: null_only,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::PROPERTIES,
        ..Hooks::NONE
    },
};

/// `null` declares no property, as `{}` does; a list or a scalar says nothing repair could
/// read as a map without guessing. The `{}` repair writes leaves an object without members,
/// which it keeps only where the profile has a form for that: at the root, a tool that takes
/// no arguments ([`Repairing::can_take_no_arguments`]); below it, an empty `properties` map
/// ([`empty_map_refused`]).
fn null_only(f: &Feat<'_>, r: &Repairing<'_>) -> bool {
    matches!(f, Feat::Structure(s) if *s == value::PROPERTIES_NULL)
        && if r.at_root() {
            r.can_take_no_arguments()
        } else {
            !empty_map_refused(r)
        }
}

/// Whether repair, having written a nested `properties: null` as `{}`, refuses the object on
/// `object-properties-missing`: the profile rejects an empty `properties` map there
/// (gemini/v1beta/parameters, report pipecat-properties-empty-object), the object is in that
/// rule's reach once repaired (typed `object`, or untyped where repair writes `object` for
/// `type-missing`; no `$ref` beside it), and no `allOf` merge gives it members.
fn empty_map_refused(r: &Repairing<'_>) -> bool {
    let rejected =
        |feat: &Feat<'_>| matches!(r.profile.lookup(feat, r.placement), Slot::Rejected(_));
    let Some(map) = r.node() else {
        return false;
    };
    let object = match map.get("type") {
        Some(serde_json::Value::String(t)) => Ty::One(t).names("object"),
        Some(serde_json::Value::Array(l)) => Ty::List(l).names("object"),
        Some(_) => false,
        None => {
            rejected(&Feat::TypeMissing)
                && crate::repair::type_said_by(map).is_some_and(|(t, ..)| t == "object")
        }
    };
    rejected(&Feat::Structure(value::EMPTY_PROPERTIES))
        && object
        && !map.contains_key("$ref")
        && !members_merged_in(r, map)
}

/// `object-properties-missing`'s merge of the object's rejected `allOf`, asked of the schema
/// as repair meets it: with the `null` already written `{}`, which the branches' `properties`
/// would otherwise clash with.
fn members_merged_in(r: &Repairing<'_>, map: &serde_json::Map<String, serde_json::Value>) -> bool {
    let (Some(root), true) = (r.root, map.contains_key("allOf")) else {
        return false;
    };
    let pointer = (r.node_pointer)();
    let written = written_empty(root, &pointer);
    all_of_rejected(r.profile, &pointer, map, r.placement)
        && crate::repair::all_of_declares_members(
            &written,
            &pointer,
            &crate::repair::refs::RefList::of(&written),
        )
}

/// `root` with the `properties` of the schema at `pointer` written `{}`, as repair writes a
/// `null` there.
fn written_empty(root: &serde_json::Value, pointer: &str) -> serde_json::Value {
    let mut written = root.clone();
    if let Some(m) = written
        .pointer_mut(pointer)
        .and_then(serde_json::Value::as_object_mut)
    {
        m.insert("properties".into(), serde_json::json!({}));
    }
    written
}

/// The tool's schema as repair meets the other keywords of the finding's subschema when that
/// subschema has `properties: null` and repair writes it `{}` first: the profile rejects the
/// `null` there (an error, which check reports, and repair takes, before the keywords beside
/// it) and the rewrite stands ([`null_only`]). `None` where repair leaves the `null` as it
/// is. `keyword-unsupported` asks it of an `allOf` whose branch declares `properties`, which
/// merges only beside the `{}` (trial 58 C2: marked not repairable under `portable`, which
/// repair merged).
pub(super) fn as_repair_meets_it(r: &Repairing<'_>) -> Option<serde_json::Value> {
    let null = Feat::Structure(value::PROPERTIES_NULL);
    let root = r.root?;
    (r.node()?.get("properties")? == &serde_json::Value::Null
        && matches!(r.profile.lookup(&null, r.placement), Slot::Rejected(_))
        && null_only(&null, r))
    .then(|| written_empty(root, &(r.node_pointer)()))
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
        let rejected = cx.rejecting_targets(&feat, placement)?;
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
    // Beside an `allOf`, repair merges the branches in after writing the `null` `{}`, and
    // keeps the object where they declare members (`members_merged_in`): refusal is not sure.
    let refused = if n.all_of {
        "`toolwire repair` refuses such a tool unless the `allOf` beside it, merged in, \
         declares members"
    } else {
        "`toolwire repair` refuses such a tool"
    };
    Some(match none {
        Some(none) if none == empty => format!(
            "{fix} {empty} rejects both an empty `properties` map (`{{}}`) and an object without \
             `properties` here: an object with no members has no form there ({refused})."
        ),
        Some(none) => format!(
            "{fix} {empty} rejects an empty `properties` map (`{{}}`) here, and {none} an object \
             without `properties`: an object with no members has no form there ({refused})."
        ),
        None => format!("{fix} {empty} rejects an empty `properties` map (`{{}}`) here."),
    })
}

/// [`no_empty_map_fix`]'s text for a finding that goes with a keyword repair drops whole
/// (`gone`): repair refuses an object without members there only where it keeps the object,
/// so the ending that says it refuses such a tool says what it does with this one (trial 59
/// D9: "(`toolwire repair` refuses such a tool)" in a `not` repair dropped, exit 0). `None`
/// for a fix without that ending.
pub fn gone_fix(fix: &str, gone: &Gone) -> Option<String> {
    const REFUSES: &str = " (`toolwire repair` refuses such a tool";
    let at = fix.find(REFUSES)?;
    let end = at + fix[at..].find(").")?;
    let name = |place: &str| {
        crate::repair::place::split_keyword(place).map_or_else(
            || format!("the keyword at {place}"),
            |(_, k)| format!("`{k}` at {place}"),
        )
    };
    let how = match gone {
        Gone::With(place) => format!("drops {} whole, and the object with it", name(place)),
        Gone::Unreached(places) if !places.is_empty() => {
            let (way, them) = match places.len() {
                1 => ("way", "it"),
                _ => ("ways", "them"),
            };
            format!(
                "drops {} whole, the only {way} a `$ref` reaches this definition, and the \
                 definition goes with {them}",
                places
                    .iter()
                    .map(|p| name(p))
                    .collect::<Vec<_>>()
                    .join(" and ")
            )
        }
        Gone::Unreached(_) => "drops the definition, which no `$ref` reaches once it drops the \
                               keywords the profile rejects"
            .to_string(),
    };
    Some(format!(
        "{}{REFUSES} where it keeps the object; here it {how}){}",
        &fix[..at],
        &fix[end + 1..]
    ))
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

    /// A nested `null` is repairable only where repair's `{}` stands: where the profile
    /// rejects an empty `properties` map there (gemini/v1beta/parameters, one of portable's
    /// targets), repair refuses the object on `object-properties-missing`, so check must not
    /// mark it (before: "(repairable)" under every profile), unless the object's rejected
    /// `allOf` gives it members. An untyped object is one once repair types it.
    #[test]
    fn a_nested_null_is_repairable_only_where_an_empty_map_stands() {
        use crate::profile::Status::{Allowed, Rejected};
        let marked = |empty, schema: serde_json::Value| {
            let p = nested_profile(
                "t",
                &[
                    ("structure: properties-null", Rejected),
                    ("structure: empty-properties", empty),
                    ("type-missing", Rejected),
                    ("keyword-allowed: allOf", Rejected),
                ],
            );
            let f: Vec<bool> = check_under(&p, &json!({"type":"object","properties":{"v":schema}}))
                .into_iter()
                .filter(|f| f.rule == "properties-invalid")
                .map(|f| f.repairable)
                .collect();
            f
        };
        let object = json!({"type":"object","properties":null});
        let untyped = json!({"properties":null});
        let merged = json!({"type":"object","properties":null,
            "allOf":[{"type":"object","properties":{"a":{"type":"string"}}}]});
        assert_eq!(marked(Allowed, object.clone()), [true]);
        assert_eq!(marked(Rejected, object), [false]);
        assert_eq!(marked(Rejected, untyped), [false]);
        assert_eq!(marked(Rejected, merged), [true]);
    }

    /// The nested fix where the profile has no form for an object without members says repair
    /// refuses it only where nothing may give it members: beside an `allOf`, repair merges
    /// the branches in and keeps the object when they declare some (before: "(`toolwire
    /// repair` refuses such a tool). (repairable)" on an object repair then repaired).
    #[test]
    fn the_nested_fix_does_not_promise_a_refusal_an_all_of_may_avert() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile = crate::profile::CompiledProfile::new(
            set.get("gemini/v1beta/parameters").expect("gemini"),
        );
        let fix = |v: serde_json::Value| {
            check_under(&profile, &json!({"type":"object","properties":{"v":v}}))
                .into_iter()
                .filter(|f| f.rule == "properties-invalid")
                .map(|f| (f.fix.to_string(), f.repairable))
                .collect::<Vec<_>>()
        };
        let alone = fix(json!({"type":"object","properties":null}));
        assert_eq!(alone.len(), 1, "{alone:?}");
        assert!(
            alone[0]
                .0
                .ends_with("(`toolwire repair` refuses such a tool)."),
            "{alone:?}"
        );
        assert!(!alone[0].1, "{alone:?}");
        let merged = fix(json!({"type":"object","properties":null,
            "allOf":[{"properties":{"a":{"type":"string"}}}]}));
        assert_eq!(merged.len(), 1, "{merged:?}");
        assert!(
            merged[0].0.ends_with(
                "(`toolwire repair` refuses such a tool unless the `allOf` beside it, merged in, \
                 declares members)."
            ),
            "{merged:?}"
        );
        assert!(merged[0].1, "{merged:?}");
    }

    /// An object without members in a keyword repair drops whole goes with it, as does one in
    /// a definition only such a keyword's `$ref` reaches: check marks it repairable and says
    /// what repair does with it (trial 59 D9; before: not repairable, "(`toolwire repair`
    /// refuses such a tool)", while repair dropped the keyword, exit 0). Where nothing drops
    /// the keyword around it (a `$ref` from outside reaches in, so repair inlines it first),
    /// or it is in no such keyword, the fix and the mark are as before.
    #[test]
    fn a_null_in_a_keyword_repair_drops_goes_with_it() {
        let set = crate::profile::embedded().expect("built-in profiles load");
        let v = |extra: serde_json::Value| {
            let mut v = json!({"type":"object","properties":{"a":{"type":"string"}}});
            v.as_object_mut()
                .unwrap()
                .extend(extra.as_object().unwrap().clone());
            v
        };
        let no_members = json!({"type":"object","properties":null});
        let ending = |k: &str| {
            format!(
                "(`toolwire repair` refuses such a tool where it keeps the object; here it drops \
                 `{k}` at /properties/v/{k} whole, and the object with it)."
            )
        };
        for name in [crate::profile::PORTABLE, "gemini/v1beta/parameters"] {
            let profile = crate::profile::CompiledProfile::new(set.get(name).expect(name));
            let found = |parameters: serde_json::Value, rule: &str| {
                check_under(&profile, &parameters)
                    .into_iter()
                    .filter(|f| f.rule == rule)
                    .map(|f| (f.pointer.to_string(), f.fix.to_string(), f.repairable))
                    .collect::<Vec<_>>()
            };
            let tool = |v: serde_json::Value| json!({"type":"object","properties":{"v":v}});
            for k in ["not", "if", "additionalProperties"] {
                let f = found(
                    tool(v(json!({k: no_members.clone()}))),
                    "properties-invalid",
                );
                assert_eq!(f.len(), 1, "{name} {k}: {f:?}");
                assert_eq!(f[0].0, format!("/properties/v/{k}/properties"));
                assert!(f[0].1.ends_with(&ending(k)), "{name} {k}: {f:?}");
                assert!(f[0].2, "{name} {k}: {f:?}");
            }
            let empty = found(
                tool(v(json!({"not":{"type":"object","properties":{}}}))),
                "object-properties-missing",
            );
            assert_eq!(empty.len(), 1, "{name}: {empty:?}");
            assert!(empty[0].2, "{name}: {empty:?}");
            let defs = found(
                json!({"type":"object","properties":{"v":v(json!({"not":{"$ref":"#/$defs/A"}}))},
                    "$defs":{"A":no_members.clone()}}),
                "properties-invalid",
            );
            assert_eq!(defs.len(), 1, "{name}: {defs:?}");
            assert!(
                defs[0].1.ends_with(
                    "(`toolwire repair` refuses such a tool where it keeps the object; here it \
                     drops `not` at /properties/v/not whole, the only way a `$ref` reaches this \
                     definition, and the definition goes with it)."
                ),
                "{name}: {defs:?}"
            );
            assert!(defs[0].2, "{name}: {defs:?}");
            // Also reached from outside the `not`: the definition stays.
            let kept = found(
                json!({"type":"object","properties":{
                    "v":v(json!({"not":{"$ref":"#/$defs/A"}})),"w":{"$ref":"#/$defs/A"}},
                    "$defs":{"A":no_members.clone()}}),
                "properties-invalid",
            );
            assert_eq!(kept.len(), 1, "{name}: {kept:?}");
            assert!(
                kept[0]
                    .1
                    .ends_with("(`toolwire repair` refuses such a tool)."),
                "{name}: {kept:?}"
            );
            assert!(!kept[0].2, "{name}: {kept:?}");
        }
    }

    /// Gemini reads `parameters` as proto3 JSON, where a null is a field not set
    /// (protobuf.dev JSON mapping): a `properties: null` is the absent map Google calls
    /// empty ("should be non-empty for OBJECT type", report pipecat-properties-empty-object),
    /// so it is an error with that evidence at the root and below it, marked repairable only
    /// where repair's `{}` goes on to a form the target takes (a named tool left without its
    /// schema). Before (trial 58 D17): a warning, "no evidence for gemini/v1beta/parameters".
    /// Targets without that reading keep their own evidence.
    #[test]
    fn a_null_properties_is_the_absent_map_google_rejects() {
        use crate::check::Level;
        let set = crate::profile::embedded().expect("built-in profiles load");
        let under = |name: &str, parameters: serde_json::Value| {
            let profile = crate::profile::CompiledProfile::new(set.get(name).expect(name));
            check_under(&profile, &parameters)
                .into_iter()
                .filter(|f| f.rule == "properties-invalid")
                .map(|f| (f.pointer, f.level, f.message.to_string(), f.repairable))
                .collect::<Vec<_>>()
        };
        let gemini = "gemini/v1beta/parameters";
        let because = "rejected by gemini/v1beta/parameters (report 2025-03-17, inferred)";
        let root = under(gemini, json!({"type":"object","properties":null}));
        assert_eq!(root.len(), 1, "{root:?}");
        assert_eq!(
            (root[0].0.as_str(), root[0].1),
            ("/properties", Level::Error)
        );
        assert!(root[0].2.ends_with(because), "{root:?}");
        assert!(
            root[0].3,
            "a named tool is left without its schema: {root:?}"
        );
        let nested = under(
            gemini,
            json!({"type":"object","properties":{"v":{"type":"object","properties":null}}}),
        );
        assert_eq!(nested.len(), 1, "{nested:?}");
        assert_eq!(
            (nested[0].0.as_str(), nested[0].1),
            ("/properties/v/properties", Level::Error)
        );
        assert!(nested[0].2.ends_with(because), "{nested:?}");
        assert!(!nested[0].3, "repair refuses a member object: {nested:?}");
        let anthropic = under(
            "anthropic/messages",
            json!({"type":"object","properties":null}),
        );
        assert!(!anthropic[0].2.contains("gemini"), "{anthropic:?}");
    }
}
