//! Repair against a hand-made profile (so the tests do not move when the evidence does).

use serde_json::{Value, json};

use super::*;
use crate::case::Placement;
use crate::profile::{FeatureEntry, Profile, Status};

/// A profile that rejects exactly `rejected` (case parameters) and has no evidence for
/// anything else.
pub(crate) fn profile(rejected: &[&str]) -> CompiledProfile {
    profile_for(&["test/target"], rejected)
}

/// Like [`profile`], spanning `targets`.
pub(crate) fn profile_for(targets: &[&str], rejected: &[&str]) -> CompiledProfile {
    let features = rejected
        .iter()
        .map(|p| FeatureEntry {
            parameter: p.to_string(),
            placement: Placement::Nested,
            status: Status::Rejected,
            rejected_by: Vec::new(),
            unknown_for: Vec::new(),
            judged_elsewhere: Default::default(),
        })
        .collect();
    CompiledProfile::new(&Profile {
        name: "test".into(),
        targets: targets.iter().map(|t| t.to_string()).collect(),
        control: Status::Allowed,
        features,
        summary: Default::default(),
        meta_schema: Vec::new(),
    })
}

fn tool(name: &str, params: Value) -> Tool {
    Tool {
        name: Some(name.into()),
        description: Some("Does it.".into()),
        parameters: Some(params),
        strict: None,
        strict_tool_use: None,
    }
}

/// Repairs and checks the promise: a repaired tool has no error finding left.
fn repair_one(t: &Tool, p: &CompiledProfile) -> ToolRepair {
    let r = repair_tool(t, 0, p, &Options::default());
    if r.outcome != Outcome::Refused {
        let mut left = errors(&r.tool, p);
        // A type in another case that no target rejects may stay when it cannot be lowered.
        left.retain(|f| f.level == Level::Error);
        assert!(left.is_empty(), "{left:#?}");
    }
    r
}

#[test]
fn narrowing_keywords_move_into_the_description_and_are_reported_as_losses() {
    let p = profile(&["keyword-allowed: minimum", "keyword-allowed: const"]);
    let t = tool(
        "count",
        json!({"type":"object","properties":{
            "n":{"type":"integer","minimum":1,"description":"How many"},
            "mode":{"const":"fast"}},"required":["n"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{
            "n":{"type":"integer","description":"How many. At least 1."},
            "mode":{"enum":["fast"],"type":"string"}},"required":["n"]})
    );
    let got: Vec<(&str, bool)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.lost.is_some()))
        .collect();
    assert_eq!(
        got,
        [
            ("/properties/n/minimum", true),
            ("/properties/mode/const", false)
        ]
    );
    assert!(r.changes[0].lost.as_ref().unwrap().contains("minimum: 1"));
}

/// A bound beside a `type` it does not constrain (`minimum` on a string, `minLength` on an
/// integer) refuses no argument (JSON Schema 2020-12 validation §6.2 to §6.5 apply each to one
/// kind of instance), so dropping it loses nothing, and said in the description ("At least
/// 1." of a string) it read as a constraint the value never had (task B4). Dropped plainly,
/// no loss; a `type` that takes a number keeps the sentence and the loss, as does a schema
/// with no `type` or a type name that is no JSON type; a string bound that is no valid value
/// there is no loss either.
#[test]
fn a_bound_on_another_type_is_dropped_without_a_sentence_or_a_loss() {
    let p = profile(&[
        "keyword-allowed: minimum",
        "keyword-allowed: maximum",
        "keyword-allowed: exclusiveMinimum",
        "keyword-allowed: exclusiveMaximum",
        "keyword-allowed: multipleOf",
        "keyword-allowed: multipleOf (string)",
        "keyword-allowed: minLength",
        "keyword-allowed: maxLength",
        "keyword-allowed: pattern",
        "keyword-allowed: minItems",
        "keyword-allowed: minProperties",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "s":{"type":"string","description":"A name.","minimum":1,"maximum":9,
                "exclusiveMinimum":0,"exclusiveMaximum":10},
            "z":{"type":["string","null"],"multipleOf":"2"},
            "i":{"type":"integer","minLength":2,"maxLength":5,"pattern":"^[0-9]+$"},
            "o":{"type":"object","minItems":1},
            "a":{"type":"array","items":{"type":"string"},"minProperties":1},
            "n":{"type":["integer","null"],"description":"How many.","minimum":1},
            "u":{"minimum":2},
            "d":{"type":"dict","minimum":3}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.clone().unwrap(),
        json!({"type":"object","properties":{
            "s":{"type":"string","description":"A name."},
            "z":{"type":["string","null"]},
            "i":{"type":"integer"},
            "o":{"type":"object"},
            "a":{"type":"array","items":{"type":"string"}},
            "n":{"type":["integer","null"],"description":"How many. At least 1."},
            "u":{"description":"At least 2."},
            "d":{"type":"dict","description":"At least 3."}}})
    );
    let said = changes_said(&r);
    let off = |k: &str, v: &str, what: &str, ty: &str| {
        format!(
            "dropped `{k}: {v}`, which constrains only {what}, while the schema's `type` is \
             {ty}: nothing it enforced is lost"
        )
    };
    let expected = [
        (
            "/properties/a/minProperties",
            off("minProperties", "1", "objects", "\"array\""),
        ),
        (
            "/properties/i/maxLength",
            off("maxLength", "5", "strings", "\"integer\""),
        ),
        (
            "/properties/i/minLength",
            off("minLength", "2", "strings", "\"integer\""),
        ),
        (
            "/properties/i/pattern",
            off("pattern", "\"^[0-9]+$\"", "strings", "\"integer\""),
        ),
        (
            "/properties/o/minItems",
            off("minItems", "1", "arrays", "\"object\""),
        ),
        (
            "/properties/s/exclusiveMaximum",
            off("exclusiveMaximum", "10", "numbers", "\"string\""),
        ),
        (
            "/properties/s/exclusiveMinimum",
            off("exclusiveMinimum", "0", "numbers", "\"string\""),
        ),
        (
            "/properties/s/maximum",
            off("maximum", "9", "numbers", "\"string\""),
        ),
        (
            "/properties/s/minimum",
            off("minimum", "1", "numbers", "\"string\""),
        ),
    ];
    for (at, action) in &expected {
        assert!(
            said.contains(&(*at, action.as_str(), None)),
            "{at}: {action}\n{said:#?}"
        );
    }
    let z = said
        .iter()
        .find(|c| c.0 == "/properties/z/multipleOf")
        .unwrap();
    assert_eq!(
        (z.1, z.2),
        (
            "dropped `multipleOf: \"2\"`, which is not a valid bound (JSON Schema wants a number \
             greater than 0) and constrains only numbers, while the schema's `type` is \
             [\"string\",\"null\"]: nothing it enforced is lost",
            None
        )
    );
    // Where the bound may apply, it is said and lost as before.
    for (at, sentence) in [
        ("/properties/n/minimum", "At least 1."),
        ("/properties/u/minimum", "At least 2."),
        ("/properties/d/minimum", "At least 3."),
    ] {
        let c = said.iter().find(|c| c.0 == at).unwrap();
        assert!(c.1.contains(sentence), "{c:?}");
        assert!(
            c.2.is_some_and(|l| l.contains("no longer enforces")),
            "{c:?}"
        );
    }
    assert_eq!(said.len(), expected.len() + 4, "{said:#?}");
}

#[test]
fn type_with_null_becomes_an_optional_argument() {
    let p = profile(&["type-list: string,null"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"type":["string","null"]},"b":{"type":"string"}},"required":["a","b"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["b"]})
    );
    assert!(r.changes[0].lost.as_ref().unwrap().contains("null"));
}

/// A required argument made optional to drop its null says so in its loss: the model now
/// leaves it out to mean null, which the original schema refuses (`toolwire args` reports
/// the required argument missing), so the caller must put the null back (trial 56 D4: the
/// loss said `args` reads null for an optional argument as absent, a mapping that does not
/// apply to a required one). An optional argument keeps the optional text; a `oneOf` null
/// branch is said alike.
#[test]
fn a_required_argument_made_optional_for_its_null_says_the_null_must_be_put_back() {
    let p = profile(&["type-list: string,null", "keyword-allowed: oneOf"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"note":{"type":["string","null"]},
            "opt":{"type":["string","null"]},
            "a":{"oneOf":[{"type":"string"},{"type":"null"}]}},"required":["note","a"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    let lost = |at: &str| {
        r.changes
            .iter()
            .find(|c| c.pointer.starts_with(at))
            .and_then(|c| c.lost.clone())
    };
    assert_eq!(
        lost("/properties/note").as_deref(),
        Some(fixes::REQUIRED_NULL_LOSS)
    );
    assert_eq!(
        lost("/properties/a").as_deref(),
        Some(fixes::REQUIRED_NULL_LOSS)
    );
    assert_eq!(
        lost("/properties/opt").as_deref(),
        Some(fixes::OPTIONAL_LOSS)
    );
    // What the loss says of `args`: the original schema refuses the call leaving it out.
    let original = t.parameters.as_ref().unwrap();
    let left_out = json!({"a": "x", "opt": null});
    let verdict =
        crate::args::check_arguments(original, &left_out, crate::args::Coercions::NONE).unwrap();
    assert!(!verdict.is_valid());
    assert_eq!(verdict.problems[0].pointer, "/note");
}

/// Where the repaired schema no longer accepts null, its `enum` no longer lists it either
/// (said in the same change); an `enum` of null alone is left to the other rules.
#[test]
fn an_enum_loses_its_null_with_the_type_list() {
    let p = profile(&["type-list: string,null"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"s":{"type":["string","null"],
            "enum":["open","closed",null]}},"required":["s"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"s":{"type":"string","enum":["open","closed"]}}})
    );
    assert_eq!(r.changes.len(), 1, "{:#?}", r.changes);
    assert_eq!(
        r.changes[0].action,
        "wrote `[string, null]` as `string` and made the argument optional, and dropped `null` \
         from its `enum`"
    );
    // Without a null in the enum the list's null is said by nothing: the schema admits no
    // null, so the type alone says it, the argument stays required and nothing is lost.
    let plain = tool(
        "f",
        json!({"type":"object","properties":{"s":{"type":["string","null"],"enum":["a"]}},
            "required":["s"]}),
    );
    let r = repair_one(&plain, &p);
    assert_eq!(
        r.changes[0].action,
        "wrote `[string, null]` as `type: string`: its `enum: [\"a\"]` admits no null"
    );
    assert_eq!(r.changes[0].lost, None);
    assert_eq!(r.tool.parameters.unwrap()["required"], json!(["s"]));
}

/// `{"type": ["string", "null"], "const": "x"}` admits only "x", but repair for a profile
/// taking `nullable` wrote `nullable: true` beside it, with no loss: `args` then passed a
/// null the original refuses (new-user trial). Now the null the `const` rules out is not
/// written, and the repaired schema refuses null as the original does.
#[test]
fn a_type_lists_null_that_its_const_rules_out_is_not_written_as_nullable() {
    let p = crate::profile::embedded_set().unwrap();
    let gemini = CompiledProfile::new(p.get("gemini/v1beta/parameters").unwrap());
    let schema = json!({"type":"object","properties":{"b":{"type":["string","null"],
        "const":"x"}},"required":["b"]});
    let r = repair_one(&tool("f", schema.clone()), &gemini);
    assert_eq!(r.outcome, Outcome::Repaired, "{:?}", r.refusals);
    let repaired = r.tool.parameters.clone().unwrap();
    assert_eq!(
        repaired["properties"]["b"].get("nullable"),
        None,
        "{repaired:#}"
    );
    assert!(
        r.changes.iter().all(|c| c.lost.is_none()),
        "{:#?}",
        r.changes
    );
    for s in [&schema, &repaired] {
        let v = jsonschema::validator_for(s).unwrap();
        assert!(!v.is_valid(&json!({"b": null})), "{s:#}");
        assert!(v.is_valid(&json!({"b": "x"})), "{s:#}");
    }
}

/// A member the schema's own `type` rules out (`null` beside `type: string`, as zod and
/// pydantic write it) never matched: it is removed with nothing lost, a required argument
/// stays required, and a schema that is no property is repaired too (check says so). Where
/// `type` admits null, or there is none, null is a real value and its removal still makes the
/// argument optional, with the loss said.
#[test]
fn a_dead_enum_member_is_removed_without_loss_or_optionality() {
    let p = profile(&[
        "keyword-allowed: enum (null member)",
        "keyword-allowed: enum (mixed)",
        "keyword-allowed: enum (numbers)",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "m":{"type":"string","enum":["a","b",null]},
            "k":{"type":"string","enum":["x",1,null]},
            "l":{"type":"array","items":{"type":"string","enum":["a",null]}},
            "n":{"type":"integer","enum":[1,2.0]}},
            "required":["m","k","l"]}),
    );
    assert!(
        errors(&t, &p).iter().all(|f| f.repairable),
        "{:#?}",
        errors(&t, &p)
    );
    let r = repair_one(&t, &p);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{
            "m":{"type":"string","enum":["a","b"]},
            "k":{"type":"string","enum":["x"]},
            "l":{"type":"array","items":{"type":"string","enum":["a"]}},
            // `2.0` is said as the integer it is, as `multipleOf: 1e2` is `100`.
            "n":{"type":"integer","description":"One of 1, 2."}},
            "required":["m","k","l"]})
    );
    let said: Vec<(&str, &str, bool)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.action.as_str(), c.lost.is_some()))
        .collect();
    assert_eq!(
        &said[..3],
        [
            (
                "/properties/m/enum",
                "removed `null` from `enum`: `type: string` rules it out, so it could never match",
                false
            ),
            (
                "/properties/k/enum",
                "removed `1`, `null` from `enum`: `type: string` rules them out, so they could \
                 never match",
                false
            ),
            (
                "/properties/l/items/enum",
                "removed `null` from `enum`: `type: string` rules it out, so it could never match",
                false
            ),
        ]
    );
    // `integer` admits `2.0`: no member is dead, so the numbers' `enum` goes as before.
    assert!(said[3].2, "{said:#?}");
    for live in [
        json!({"type":["string","null"],"enum":["a",null]}),
        json!({"enum":["a","b",null], "type":"string", "nullable": true}),
    ] {
        let schema = json!({"type":"object","properties":{"m":live},"required":["m"]});
        let t = tool("f", schema.clone());
        let r = repair_one(&t, &p);
        let out = r.tool.parameters.unwrap();
        assert!(out.get("required").is_none(), "{schema} became {out}");
    }
}

/// `integer` beside `number` adds nothing (every integer is a number): the list is written
/// as `number`, with or without `null`, and check marks it repairable.
#[test]
fn integer_beside_number_is_folded_into_number() {
    let p = profile(&["type-list: string,null", "type-list: string,integer"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"type":["integer","number"]},
            "b":{"type":["number","null","integer"]}},"required":["a","b"]}),
    );
    assert!(
        errors(&t, &p).iter().all(|f| f.repairable),
        "{:#?}",
        errors(&t, &p)
    );
    let r = repair_one(&t, &p);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},
            "required":["a"]})
    );
    let actions: Vec<&str> = r.changes.iter().map(|c| c.action.as_str()).collect();
    assert_eq!(
        actions,
        [
            "wrote `[integer, number]` as `type: number` (every integer is a number)",
            "wrote `[number, null, integer]` as `number` and made the argument optional",
        ]
    );
}

/// A name in another case inside a `type` list is respelled in place before the list is
/// rewritten, said at its place in the list as check reports it (before: `["integer",
/// "Number"]` was refused as "a union of types (integer, Number)", since respelling it
/// quoted the list anew, a new kind of error to the loop; `["Integer", "null"]` was unwrapped
/// first and its name respelled alone, said at `/type`).
/// A name given twice is written once: `["string", "string"]` is the one type it names
/// (before: judged by the union case and said "the one-type list").
#[test]
fn a_repeated_name_in_a_type_list_is_written_once() {
    let p = profile(&["type-list: string"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"type":["string","string"]}},"required":["a"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"type":"string"}},"required":["a"]})
    );
    assert_eq!(
        r.changes[0].action,
        "wrote `[\"string\",\"string\"]` as `type: string`, the one type it names"
    );
}

#[test]
fn a_name_in_a_type_list_is_respelled_before_the_list_is_rewritten() {
    let p = profile(&["type-list: string,null", "type-list: string,integer"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"type":["integer","Number"]},
            "b":{"type":["Integer","null"]}},"required":["a","b"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"integer"}},
            "required":["a"]})
    );
    let said: Vec<(&str, &str)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.action.as_str()))
        .collect();
    assert_eq!(
        said,
        [
            (
                "/properties/a/type/1",
                "wrote the type `Number` as `number`"
            ),
            (
                "/properties/a/type",
                "wrote `[integer, number]` as `type: number` (every integer is a number)"
            ),
            (
                "/properties/b/type/0",
                "wrote the type `Integer` as `integer`"
            ),
            (
                "/properties/b/type",
                "wrote `[integer, null]` as `integer` and made the argument optional"
            ),
        ]
    );
}

/// A `type` that joins names in one string (`"string, null"`) is written as the list it
/// means, losing nothing, where the profile rejects the string and takes the list (before:
/// refused, "not a JSON Schema type ... repair does not guess"); where it rejects the list
/// too, the list is written as `type-list` writes one, in the same change set.
#[test]
fn a_joined_type_is_written_as_the_list_it_means() {
    let said = |r: &ToolRepair| -> Vec<(String, String, bool)> {
        r.changes
            .iter()
            .map(|c| (c.pointer.clone(), c.action.clone(), c.lost.is_some()))
            .collect()
    };
    let c = |p: &str, a: &str, lost| (p.to_string(), a.to_string(), lost);
    for t in ["string, null", "string|null", "string | null"] {
        let schema = json!({"type":"object","properties":{"a":{"type":t}},"required":["a"]});
        let r = repair_one(
            &tool("f", schema.clone()),
            &profile(&[&format!("type-spelling: {t}")]),
        );
        assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
        assert_eq!(
            r.tool.parameters.clone().unwrap(),
            json!({"type":"object","properties":{"a":{"type":["string","null"]}},
                "required":["a"]})
        );
        assert_eq!(
            said(&r),
            [c(
                "/properties/a/type",
                &format!("wrote the type `{t}` as the list it names, `[\"string\",\"null\"]`"),
                false
            )]
        );
        let r = repair_one(
            &tool("f", schema),
            &profile(&[&format!("type-spelling: {t}"), "type-list: string,null"]),
        );
        assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
        assert_eq!(
            r.tool.parameters.clone().unwrap(),
            json!({"type":"object","properties":{"a":{"type":"string"}}})
        );
        assert_eq!(
            said(&r),
            [
                c(
                    "/properties/a/type",
                    &format!("wrote the type `{t}` as the list it names, `[\"string\",\"null\"]`"),
                    false
                ),
                c(
                    "/properties/a/type",
                    "wrote `[string, null]` as `string` and made the argument optional",
                    true
                ),
            ]
        );
    }
    // A union no one type says: refused with the list's reason.
    let r = repair_one(
        &tool(
            "f",
            json!({"type":"object","properties":{"a":{"type":"string,integer"}}}),
        ),
        &profile(&["type-spelling: string,integer", "type-list: string,integer"]),
    );
    assert_eq!(r.outcome, Outcome::Refused);
    assert!(
        r.refusals[0].reason.starts_with(
            "`type: \"string,integer\"` means the list `[\"string\",\"integer\"]`, which the \
             profile does not take as a list, and it cannot be written otherwise: a union of types"
        ),
        "{:#?}",
        r.refusals
    );
}

/// A name in a `type` list that joins several (`["string, null"]`) is written as the names it
/// joins where the profile rejects it; where only the list is rejected, the list is read as
/// those names and unwrapped (before: "wrote the one-type list as `type: string, null`",
/// keeping the joined string).
#[test]
fn a_joined_name_in_a_type_list_is_read_as_the_names_it_joins() {
    let schema = json!({"type":"object","properties":{"a":{"type":["string, null"]}},
        "required":["a"]});
    let r = repair_one(
        &tool("f", schema.clone()),
        &profile(&["type-spelling: string, null"]),
    );
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"]})
    );
    assert_eq!(r.changes.len(), 1, "{:#?}", r.changes);
    assert_eq!(r.changes[0].pointer, "/properties/a/type/0");
    assert_eq!(
        r.changes[0].action,
        "wrote `string, null` in the `type` list as the names it joins: `[\"string\",\"null\"]`"
    );
    let r = repair_one(&tool("f", schema), &profile(&["type-list: string,null"]));
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"type":"string"}}})
    );
    // Repair's reading of a joined list's finding is check's case (before: `string,integer`).
    assert_eq!(list_case("type-list: string, null"), Some("string,null"));
    assert_eq!(
        list_case("type-list: string|integer"),
        Some("string,integer")
    );
}

/// A list naming one standard type twice, once or both times in another case, is that one
/// type, written in lower case in one repair (trial 84 D1, built-in `gemini/v1beta/parameters`
/// and `vertex/v1/parameters`, where such a spelling is only a warning: before, respelling a
/// name in place was judged a new kind of list and undone, so `["String", "String"]` was
/// written `type: String`, left a finding called repairable and changed again on a second
/// repair, and `["string", "String"]` was refused as a union of two types).
#[test]
fn a_type_named_twice_in_two_cases_is_one_type_written_in_lower_case() {
    let set = crate::profile::embedded_set().unwrap();
    for target in ["gemini/v1beta/parameters", "vertex/v1/parameters"] {
        let p = CompiledProfile::new(set.get(target).unwrap());
        for (list, written) in [
            (json!(["String", "String"]), json!({"type":"string"})),
            (json!(["string", "String"]), json!({"type":"string"})),
            (json!(["Integer", "integer"]), json!({"type":"integer"})),
        ] {
            let t = tool(
                "f",
                json!({"type":"object","properties":{"a":{"type": list.clone()}}}),
            );
            let once = repair_one(&t, &p);
            assert_eq!(
                once.outcome,
                Outcome::Repaired,
                "{target} {list}: {:#?}",
                once.refusals
            );
            let a = &once.tool.parameters.as_ref().unwrap()["properties"]["a"];
            assert_eq!(a, &written, "{target} {list}");
            let twice = repair_one(&once.tool, &p);
            assert_eq!(twice.outcome, Outcome::Unchanged, "{target} {list}");
        }
    }
}

/// Where lists are taken and a misspelt name makes the meta-schema refuse one, the name is
/// respelled and the list kept (built-in `anthropic/messages`: it rejects what the 2020-12
/// meta-schema refuses and has no evidence on lists; before, the list was unwrapped and the
/// argument made optional for a null the target takes).
#[test]
fn a_list_the_target_takes_keeps_its_null_once_its_name_is_respelled() {
    let set = crate::profile::embedded().expect("built-in profiles load");
    let p = CompiledProfile::new(set.get("anthropic/messages").unwrap());
    let t = tool(
        "f",
        json!({"type":"object","properties":{"b":{"type":["Integer","null"]}},"required":["b"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"b":{"type":["integer","null"]}},"required":["b"]})
    );
    assert_eq!(r.changes.len(), 1, "{:#?}", r.changes);
    assert_eq!(r.changes[0].pointer, "/properties/b/type/0");
    assert!(r.changes[0].lost.is_none());
    // The list's warning left is the input's list, respelled, not one repair wrote (before:
    // "type-list: integer,null, written by repair").
    assert!(r.introduced.is_empty(), "{:?}", r.introduced);
    assert_eq!(r.left_as_written, ["type-list: integer,null"]);
}

/// An untyped branch of `anyOf`/`oneOf` takes the `type` beside that keyword (a name or a
/// list), which already applies to it, before any type its own keywords would say; a branch
/// with its own `type` is left alone, and check marks every such finding repairable (before:
/// "no `type`, and nothing says which").
#[test]
fn an_untyped_branch_takes_the_type_beside_its_combinator() {
    let p = profile(&["type-missing"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "a":{"type":"string","anyOf":[{"minLength":1},{"properties":{"x":{"type":"string"}}}]},
            "b":{"type":["string","null"],"oneOf":[{"minLength":1},{"type":"integer"}]}}}),
    );
    let errors = errors(&t, &p);
    let at: Vec<(&str, bool)> = errors
        .iter()
        .map(|f| (f.pointer.as_str(), f.repairable))
        .collect();
    assert_eq!(
        at,
        [
            ("/properties/a/anyOf/0", true),
            ("/properties/a/anyOf/1", true),
            ("/properties/b/oneOf/0", true),
        ]
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{
            "a":{"type":"string","anyOf":[{"minLength":1,"type":"string"},
                {"properties":{"x":{"type":"string"}},"type":"string"}]},
            "b":{"type":["string","null"],"oneOf":[{"minLength":1,"type":["string","null"]},
                {"type":"integer"}]}}})
    );
    let said: Vec<(&str, &str, bool)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.action.as_str(), c.lost.is_some()))
        .collect();
    assert_eq!(
        said,
        [
            (
                "/properties/a/anyOf/0",
                "wrote `type: \"string\"` from the schema holding the `anyOf` (it applies to \
                 every branch)",
                false
            ),
            (
                "/properties/a/anyOf/1",
                "wrote `type: \"string\"` from the schema holding the `anyOf` (it applies to \
                 every branch)",
                false
            ),
            (
                "/properties/b/oneOf/0",
                "wrote `type: [\"string\",\"null\"]` from the schema holding the `oneOf` (it \
                 applies to every branch)",
                false
            ),
        ]
    );
}

/// An untyped branch of `allOf` takes the `type` beside it as a branch of `anyOf` does: JSON
/// Schema applies both to the same value (trial 53 D2: `{"type": "string", "allOf":
/// [{"minLength": 2}, {"pattern": ...}]}` was refused, "no `type`, and nothing says which: it
/// accepts any value", and check did not mark it repairable).
#[test]
fn an_untyped_all_of_branch_takes_the_type_beside_it() {
    let p = profile(&["type-missing"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "a":{"type":"string","allOf":[{"minLength":2},{"pattern":"^[a-z]+$"}]},
            "b":{"type":["integer","null"],"allOf":[{"minimum":1}]}}}),
    );
    let at: Vec<(String, bool)> = errors(&t, &p)
        .iter()
        .map(|f| (f.pointer.clone(), f.repairable))
        .collect();
    assert_eq!(
        at,
        [
            ("/properties/a/allOf/0".to_string(), true),
            ("/properties/a/allOf/1".to_string(), true),
            ("/properties/b/allOf/0".to_string(), true),
        ]
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{
            "a":{"type":"string","allOf":[{"minLength":2,"type":"string"},
                {"pattern":"^[a-z]+$","type":"string"}]},
            "b":{"type":["integer","null"],"allOf":[{"minimum":1,"type":["integer","null"]}]}}})
    );
    assert!(
        r.changes.iter().all(|c| c.lost.is_none()
            && c.action
                .ends_with("from the schema holding the `allOf` (it applies to every branch)")),
        "{:#?}",
        r.changes
    );
}

/// For compile, where a target's offline model wants a `type` on the schema of a `then` that
/// `check` asks none of: the `type` of the schema holding it, as for a branch (trial 55 D2:
/// the tool was refused).
#[test]
fn the_schema_of_a_then_is_typed_from_its_holder_when_asked() {
    let t = tool(
        "f",
        json!({"type":"object","properties":{"o":{"type":"object",
            "properties":{"v":{"type":"string"},"w":{"type":"string"}},
            "if":{"properties":{"v":{"const":"a"}}},"then":{"required":["w"]}}}}),
    );
    let p = profile(&[]);
    let (typed, changes) = typed_from_holder(&t, "/properties/o/then", &p).unwrap();
    assert_eq!(
        typed.parameters.unwrap().pointer("/properties/o/then"),
        Some(&json!({"required":["w"],"type":"object"}))
    );
    assert_eq!(changes.len(), 1);
    assert!(changes[0].lost.is_none());
    assert!(typed_from_holder(&t, "/properties/o/properties/v", &p).is_none());
}

/// A `type` copied into an untyped branch, or into an untyped property of one, carries the
/// `nullable: true` beside it: without it a null the schema accepted (`maxLength` says
/// nothing of null) would be refused there (trial 55 D1).
#[test]
fn a_copied_type_keeps_the_null_beside_it() {
    let p = profile(&["type-missing"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "o":{"type":"object","properties":{"v":{"type":"string","nullable":true}},
                "anyOf":[{"properties":{"v":{"maxLength":3}}},{"required":["w"]}]},
            "n":{"type":"integer","nullable":true,"allOf":[{"minimum":1}]}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    let out = r.tool.parameters.unwrap();
    assert_eq!(
        out.pointer("/properties/o/anyOf/0/properties/v"),
        Some(&json!({"maxLength":3,"type":"string","nullable":true}))
    );
    assert_eq!(
        out.pointer("/properties/n/allOf/0"),
        Some(&json!({"minimum":1,"type":"integer","nullable":true}))
    );
    let call = json!({"o":{"v":null},"n":null});
    for schema in [t.parameters.as_ref().unwrap(), &out] {
        let report = crate::args::check_arguments(schema, &call, crate::args::Coercions::NONE);
        assert!(report.unwrap().is_valid(), "{schema}");
    }
}

/// Where `anyOf` beside `type` is rejected too, the branches end with the `type` and the
/// schema holding them without it, whichever repair comes first.
#[test]
fn a_rejected_typed_any_of_ends_with_the_type_in_its_branches_only() {
    let p = profile(&["type-missing", "keyword-allowed: anyOf (with siblings)"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "a":{"type":"string","description":"A.","anyOf":[{"minLength":1},{"maxLength":0}]}}}),
    );
    assert!(errors(&t, &p).iter().all(|f| f.repairable));
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"description":"A.","anyOf":[
            {"minLength":1,"type":"string"},{"maxLength":0,"type":"string"}]}}})
    );
}

/// `object` beside an `anyOf` of `required` lists is written into the branches only where
/// the profile takes an object schema without `properties`; where it rejects that, the
/// branch is refused for that, not for saying no type, and check does not mark it.
#[test]
fn an_object_type_goes_into_a_branch_only_where_the_shape_it_makes_is_taken() {
    let schema = json!({"type":"object","properties":{"a":{"type":"object",
        "properties":{"x":{"type":"string"}},"anyOf":[{"required":["x"]}]}}});
    let t = tool("f", schema);
    let p = profile(&["type-missing"]);
    assert!(errors(&t, &p).iter().all(|f| f.repairable));
    let r = repair_one(&t, &p);
    assert_eq!(
        r.tool.parameters.unwrap()["properties"]["a"]["anyOf"],
        json!([{"required":["x"],"type":"object"}])
    );
    let p = profile(&["type-missing", "structure: object-without-properties"]);
    assert!(errors(&t, &p).iter().all(|f| !f.repairable));
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused);
    let reasons: Vec<(&str, &str)> = r
        .refusals
        .iter()
        .map(|x| (x.pointer.as_str(), x.reason.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [(
            "/properties/a/anyOf/0",
            "no `type`; the `type: \"object\"` beside the `anyOf` applies to it, but written \
             there it makes an object schema without `properties`, which `test` rejects \
             (`structure: object-without-properties`)"
        )]
    );
}

/// Which subschemas take a `type` from the schema holding their applicator: only an untyped
/// branch of `anyOf`/`oneOf`/`allOf` or schema of `not`/`if`/`then`/`else` (which apply to
/// the holder's value) under a `type` that is a name or a non-empty list of names; not one
/// that applies to another value (a member, an item, a name).
#[test]
fn the_type_from_a_combinator_is_only_a_named_type_over_an_untyped_branch() {
    let root = json!({"type":"object","properties":{
        "a":{"type":"string","anyOf":[{},{"type":"integer"}],"allOf":[{}],
            "not":{},"if":{},"then":{},"else":{"type":"string"}},
        "o":{"type":"object","properties":{"x":{}},"additionalProperties":{},
            "propertyNames":{},"dependentSchemas":{"x":{}}},
        "l":{"type":"array","items":{},"contains":{}},
        "b":{"anyOf":[{}]},
        "c":{"type":5,"oneOf":[{}]},
        "d":{"type":[],"anyOf":[{}]},
        "e":{"type":"array","items":[{}]},
        "anyOf":{"type":"string"}}});
    let p = profile(&[]);
    let from = |at: &str| {
        type_from_combinator(&root, at, &p)
            .ok()
            .map(|s| (s.ty.clone(), s.keyword))
    };
    for k in ["anyOf/0", "allOf/0", "not", "if", "then"] {
        assert_eq!(
            from(&format!("/properties/a/{k}")),
            Some((json!("string"), k.split('/').next().unwrap().to_string())),
            "{k}"
        );
    }
    for p in [
        "/properties/a/anyOf/1",
        "/properties/a/else",
        "/properties/o/properties/x",
        "/properties/o/additionalProperties",
        "/properties/o/propertyNames",
        "/properties/o/dependentSchemas/x",
        "/properties/l/items",
        "/properties/l/contains",
        "/properties/b/anyOf/0",
        "/properties/c/oneOf/0",
        "/properties/d/anyOf/0",
        "/properties/e/items/0",
        "/properties/anyOf",
        "/properties/a",
    ] {
        assert_eq!(from(p), None, "{p}");
    }
}

/// An untyped property of a subschema in place of a typed object (`/if/properties/v`, through
/// any chain of in-place applicators) takes the `type` of the object's own property schema
/// (`/properties/v`), and a property of that property (`/if/properties/o/properties/w`) the
/// type of `/properties/o/properties/w`: both apply to the same value. Not where the object has no `type:
/// object`, the object's property has no `type`, or the chain passes through a subschema for
/// another value (`items`, a member of `properties`).
#[test]
fn an_untyped_property_of_an_in_place_branch_takes_the_objects_property_type() {
    let root = json!({"type":"object",
        "properties":{"v":{"type":"string"},"n":{"description":"no type"},
            "o":{"type":"object","properties":{"w":{"type":"integer"}},
                "if":{"properties":{"w":{"minimum":1}}}}},
        "if":{"properties":{"v":{"pattern":"^[0-9]+$"},"n":{"pattern":"x"},
            "o":{"properties":{"w":{"maximum":9}}}}},
        "then":{"properties":{"v":{"maxLength":4},"x":{"minLength":1}}},
        "allOf":[{"not":{"properties":{"v":{"minLength":9}}}}],
        "anyOf":[{"properties":{"v":{"type":"integer"}}},{"items":{"properties":{"v":{}}}}]});
    let p = profile(&[]);
    let from = |at: &str| {
        type_from_combinator(&root, at, &p)
            .ok()
            .map(|s| (s.ty.clone(), s.keyword, s.property))
    };
    let v = Some("/properties/v".to_string());
    assert_eq!(
        from("/if/properties/v"),
        Some((json!("string"), "if".into(), v.clone()))
    );
    assert_eq!(
        from("/then/properties/v"),
        Some((json!("string"), "then".into(), v.clone()))
    );
    assert_eq!(
        from("/allOf/0/not/properties/v"),
        Some((json!("string"), "not".into(), v))
    );
    assert_eq!(
        from("/properties/o/if/properties/w"),
        Some((
            json!("integer"),
            "if".into(),
            Some("/properties/o/properties/w".into())
        ))
    );
    // A run of properties below the applicator: the same member of the same member.
    assert_eq!(
        from("/if/properties/o/properties/w"),
        Some((
            json!("integer"),
            "if".into(),
            Some("/properties/o/properties/w".into())
        ))
    );
    for at in [
        "/if/properties/n",
        "/then/properties/x",
        "/anyOf/0/properties/v",
        "/anyOf/1/items/properties/v",
        "/properties/v",
    ] {
        assert_eq!(from(at), None, "{at}");
    }
    let untyped = json!({"properties":{"v":{"type":"string"}},"if":{"properties":{"v":{}}}});
    assert!(type_from_combinator(&untyped, "/if/properties/v", &p).is_err());
}

/// A schema whose only value is null (`type: ["null"]`, `const: null` with no type or beside
/// `[T, null]`) says the argument carries no value: no type but `null` says that, and `T`
/// made optional would accept every `T` instead, so repair refuses it, with why, and check
/// does not mark it repairable. Untyped `enum`s of several kinds are refused naming them.
#[test]
fn a_schema_that_accepts_only_null_or_mixed_values_is_refused_with_why() {
    let p = profile(&[
        "type-list: string",
        "type-list: string,null",
        "type-list: string,integer",
        "type-missing",
    ]);
    for (schema, reason) in [
        (
            json!({"type":["null"]}),
            "`type: [null]` accepts only null: the argument carries no value, which no type \
             but `null` says (leave the property out)",
        ),
        (
            json!({"type":["string","null"],"const":null}),
            "its only value is null (`const: null`): written as `string`, it would accept any \
             string instead (leave the property out)",
        ),
        (
            json!({"type":["integer","null"],"enum":[null]}),
            "its only value is null (`enum: [null]`): written as `integer`, it would accept \
             any integer instead (leave the property out)",
        ),
        (
            json!({"const":null}),
            "no `type`, and its only value is null (`const: null`): the argument carries no \
             value, which no type but `null` says (leave the property out)",
        ),
        (
            json!({"enum":["a",1,null]}),
            "no `type`, and the values of its `enum` are of different kinds (string, number, \
             null): no single type accepts them all",
        ),
        (
            json!({"enum":[{"a":1}]}),
            "no `type`, and the values of its `enum` are objects: repair writes a type only \
             for string, number or boolean values",
        ),
        (
            json!({}),
            "no `type`, and nothing says which: it accepts any value, which no schema under `test` \
             says",
        ),
    ] {
        let t = tool("f", json!({"type":"object","properties":{"a":schema}}));
        assert!(
            errors(&t, &p).iter().any(|f| !f.repairable),
            "{schema}: {:#?}",
            errors(&t, &p)
        );
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Refused, "{schema}");
        let reasons: Vec<&str> = r.refusals.iter().map(|x| x.reason.as_str()).collect();
        assert_eq!(reasons, [reason], "{schema}");
    }
    // Two untyped places in one tool: each refusal says why for its own (before: the first
    // place's reason was given to every place of the kind).
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{},"b":{"enum":["a",1]}}}),
    );
    let r = repair_one(&t, &p);
    let reasons: Vec<(&str, &str)> = r
        .refusals
        .iter()
        .map(|x| (x.pointer.as_str(), x.reason.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [
            (
                "/properties/a",
                "no `type`, and nothing says which: it accepts any value, which no schema under \
                 `test` says"
            ),
            (
                "/properties/b",
                "no `type`, and the values of its `enum` are of different kinds (string, \
                 number): no single type accepts them all"
            ),
        ]
    );
    // Untyped places beside one that cannot be typed (trial Q, cz2.json): only that place is
    // refused, and the others, which say their type, are typed (before: all three were
    // refused with the mixed `enum`'s reason, which is false for `const: 5` and `[1, 2]`).
    for props in [
        json!({"x":{"enum":["a",1]},"z":{"const":5},"w":{"enum":[1,2]}}),
        json!({"z":{"const":5},"x":{"enum":["a",1]},"w":{"enum":[1,2]}}),
    ] {
        let t = tool("f", json!({"type":"object","properties":props}));
        let r = repair_one(&t, &p);
        let reasons: Vec<(&str, &str)> = r
            .refusals
            .iter()
            .map(|x| (x.pointer.as_str(), x.reason.as_str()))
            .collect();
        assert_eq!(
            reasons,
            [(
                "/properties/x",
                "no `type`, and the values of its `enum` are of different kinds (string, \
                 number): no single type accepts them all"
            )],
            "{props}"
        );
    }
    // Integers and other numbers in one untyped `enum` are numbers.
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"enum":[1,2.5]}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"enum":[1,2.5],"type":"number"}}})
    );
}

/// `type: []` is refused as naming no type, under the feature check reports it by: `[]`, the
/// empty list (before: `not-a-string`, as if a name were there but no string).
#[test]
fn an_empty_type_list_is_refused_as_allowing_no_value() {
    let p = profile(&["type-spelling: []"]);
    let t = tool("f", json!({"type":"object","properties":{"c":{"type":[]}}}));
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused);
    assert_eq!(r.refusals.len(), 1, "{:#?}", r.refusals);
    assert_eq!(
        (r.refusals[0].pointer.as_str(), r.refusals[0].rule.as_str()),
        ("/properties/c/type", "type-invalid")
    );
    assert!(
        r.refusals[0]
            .reason
            .starts_with("`type: []` names no type (JSON Schema wants at least one)"),
        "{}",
        r.refusals[0].reason
    );
}

#[test]
fn what_cannot_be_repaired_is_refused_with_the_reason_and_left_unchanged() {
    let p = profile(&[
        "structure: array-without-items",
        "type-list: string,integer",
        "keyword-allowed: minimum",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "tags":{"type":"array"},"v":{"type":["string","integer"]},"n":{"type":"integer","minimum":0}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused);
    assert_eq!(r.tool, t, "a refused tool is the input, unchanged");
    let reasons: Vec<(&str, &str)> = r
        .refusals
        .iter()
        .map(|x| (x.pointer.as_str(), x.rule.as_str()))
        .collect();
    assert_eq!(
        reasons,
        [
            ("/properties/tags", "array-items-missing"),
            ("/properties/v/type", "type-list")
        ]
    );
    assert!(r.refusals[0].reason.contains("without `items`"));
    assert!(r.refusals[1].reason.contains("union of types"));
}

#[test]
fn a_property_named_like_a_keyword_is_never_treated_as_one() {
    let p = profile(&["keyword-allowed: default", "keyword-allowed: minimum"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "default":{"type":"string","default":"x"},
            "minimum":{"type":"integer"},
            "properties":{"type":"object","properties":{"type":{"type":"string"}}}
        },"required":["default","minimum"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{
            "default":{"type":"string","description":"Default: \"x\"."},
            "minimum":{"type":"integer"},
            "properties":{"type":"object","properties":{"type":{"type":"string"}}}
        },"required":["default","minimum"]})
    );
    assert_eq!(r.changes.len(), 1);
    assert_eq!(r.changes[0].pointer, "/properties/default/default");
}

#[test]
fn local_refs_are_inlined_and_recursive_ones_refused() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $defs",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"who":{"$ref":"#/$defs/P"}},
               "$defs":{"P":{"type":"object","properties":{"name":{"type":"string"}}}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"who":{"type":"object","properties":{"name":{"type":"string"}}}}})
    );
    let p = profile(&[
        "keyword-allowed: $ref (recursive)",
        "keyword-allowed: $defs",
    ]);
    let t = tool(
        "g",
        json!({"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},
               "$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused);
    assert!(
        r.refusals.iter().any(|x| x.reason.contains("recursive")),
        "{:#?}",
        r.refusals
    );
}

#[test]
fn anchors_and_references_by_the_root_id_are_inlined_as_check_marks_them() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $defs",
        "keyword-allowed: $id",
    ]);
    let t = tool(
        "f",
        json!({"$id":"https://ex.com/s","type":"object","properties":{
                 "a":{"$ref":"#foo"},"b":{"$ref":"#foo","description":"the b"},
                 "c":{"$ref":"https://ex.com/s#/$defs/C"}},
               "$defs":{"f":{"$anchor":"foo","type":"string","description":"a name"},
                        "C":{"type":"integer"}}}),
    );
    // check marks every error repairable...
    assert!(
        errors(&t, &p)
            .iter()
            .all(|f| f.level != Level::Error || f.repairable),
        "{:#?}",
        errors(&t, &p)
    );
    // ...and repair does it: each copy of the anchored schema leaves its `$anchor` behind (two
    // schemas may not declare one), and a description beside a `$ref` that replaces the
    // definition's is a loss.
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{
            "a":{"type":"string","description":"a name"},
            "b":{"type":"string","description":"the b"},
            "c":{"type":"integer"}}})
    );
    let lost: Vec<_> = r.changes.iter().filter_map(|c| c.lost.as_deref()).collect();
    assert!(
        lost.contains(
            &"the definition's `description: \"a name\"`, replaced by the one beside the `$ref`"
        ),
        "{lost:?}"
    );
    // Where only the `$id` goes, a reference that named the schema by it is first written as
    // a reference into the schema, which it would otherwise no longer be.
    let r = repair_one(&t, &profile(&["keyword-allowed: $id"]));
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    let params = r.tool.parameters.unwrap();
    assert_eq!(params.get("$id"), None);
    assert_eq!(params["properties"]["c"], json!({"$ref":"#/$defs/C"}));
    assert_eq!(params["properties"]["a"], json!({"$ref":"#foo"}));
    assert!(
        r.changes
            .iter()
            .any(|c| c.pointer == "/$id" && c.action.contains("first writing the `$ref`")),
        "{:#?}",
        r.changes
    );
}

#[test]
fn a_ref_by_the_root_id_inside_another_resource_is_inlined_not_rewritten() {
    // Trial 54 D10: inside `$id: urn:inner`, `#x` names that resource's anchor (JSON Schema
    // 2020-12 core §8.2.3), not the root's `urn:outer#x`: writing it so flipped verdicts.
    let inner = |r: &str| {
        tool(
            "f",
            json!({"$id":"urn:outer","type":"object","properties":{
                     "a":{"$id":"urn:inner","type":"object","properties":{"w":{"$ref":r}},
                          "$defs":{"S":{"$anchor":"x","type":"string"},"I":{"type":"string"}}}},
                   "required":["a"],
                   "$defs":{"I":{"$anchor":"x","type":"integer"}}}),
        )
    };
    for r in ["urn:outer#x", "urn:outer#/$defs/I"] {
        let r = repair_one(&inner(r), &profile(&["keyword-allowed: $id"]));
        assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
        let params = r.tool.parameters.unwrap();
        assert_eq!(params.get("$id"), None);
        // Inlined, or (where the inner `$id` went first) still a `$ref` to the integer.
        let at = "/properties/a/properties/w";
        let w = params.pointer(at).unwrap();
        let ty = match w.get("$ref").and_then(Value::as_str) {
            Some(r) => match crate::schema::refs::follow_from(&params, at, r) {
                crate::schema::refs::Chain::Reaches { schema, .. } => schema["type"].clone(),
                _ => Value::Null,
            },
            None => w["type"].clone(),
        };
        assert_eq!(ty, json!("integer"), "{params:#}");
    }
}

#[test]
fn expansion_past_the_cap_is_refused() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $defs",
    ]);
    let mut defs = serde_json::Map::new();
    for i in 0..20 {
        defs.insert(
            format!("D{i}"),
            json!({"type":"object","properties":{
                "a":{"$ref":format!("#/$defs/D{}", i + 1)},"b":{"$ref":format!("#/$defs/D{}", i + 1)}}}),
        );
    }
    defs.insert("D20".into(), json!({"type":"string"}));
    let t = tool(
        "f",
        json!({"type":"object","properties":{"x":{"$ref":"#/$defs/D0"}},"$defs":defs}),
    );
    let r = repair_tool(
        &t,
        0,
        &p,
        &Options {
            max_inline_nodes: 1_000,
            ..Options::default()
        },
    );
    assert_eq!(r.outcome, Outcome::Refused);
    assert!(
        r.refusals
            .iter()
            .any(|x| x.reason.contains("expansion cap")),
        "{:#?}",
        r.refusals
    );
}

/// An `$anchor` a `$ref` names stays while the expansion cap keeps that `$ref` from being
/// inlined, refused for the cap's reason (before: dropped, and the `$ref` then reported as
/// pointing at nothing, `ref-dangling`, a problem repair made); one no `$ref` names is
/// dropped all the same.
#[test]
fn an_anchor_a_ref_names_is_kept_while_the_cap_stops_the_inlining() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $defs",
        "keyword-allowed: $anchor",
    ]);
    let t = tool(
        "f",
        json!({"type":"object",
            "properties":{"a":{"$ref":"#addr"},"b":{"$ref":"#/$defs/A"}},
            "$defs":{
                "A":{"$anchor":"addr","type":"object","properties":{
                    "zip":{"type":"string"},"z2":{"type":"string"},"z3":{"type":"string"}}},
                "B":{"$anchor":"unused","type":"string"}}}),
    );
    let r = repair_tool(
        &t,
        0,
        &p,
        &Options {
            max_inline_nodes: 3,
            ..Options::default()
        },
    );
    assert_eq!(r.outcome, Outcome::Refused);
    let at = |pointer: &str| -> Vec<(&str, &str)> {
        r.refusals
            .iter()
            .filter(|x| x.pointer == pointer)
            .map(|x| (x.rule.as_str(), x.reason.as_str()))
            .collect()
    };
    let anchor = at("/$defs/A/$anchor");
    assert_eq!(anchor.len(), 1, "{:#?}", r.refusals);
    assert_eq!(anchor[0].0, "keyword-unsupported");
    assert!(
        anchor[0].1.starts_with(
            "inlining the `$ref`s would grow the schema past 3 nodes (the expansion cap)"
        ),
        "{}",
        anchor[0].1
    );
    assert!(
        r.refusals.iter().all(|x| x.rule != "ref-dangling"),
        "{:#?}",
        r.refusals
    );
    assert_eq!(at("/$defs/B/$anchor"), []);
}

/// An `$anchor` found before the `$ref` that names it goes with that `$ref`'s inlining, not
/// before it (before: dropped first, the tool was refused for a `$ref` pointing at nothing).
#[test]
fn an_anchor_a_ref_names_goes_once_the_ref_is_inlined() {
    let p = profile(&["keyword-allowed: $anchor"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "a":{"$anchor":"x","type":"string"},"b":{"$ref":"#x"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}})
    );
    let said: Vec<(&str, &str)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.action.as_str()))
        .collect();
    assert_eq!(
        said,
        [
            ("/properties/b/$ref", "inlined `$ref: #x`"),
            (
                "/properties/a/$anchor",
                "dropped `$anchor: \"x\"` (no `$ref` names it once inlined)"
            ),
        ]
    );
}

/// Definitions held below the root (in an `anyOf`, `oneOf` or `allOf` branch, an `items`, a
/// property) go with the `$ref`s that name them, by anchor or by JSON Pointer, as the root's
/// do, each drop reported where it was (before: the `$ref` was inlined and the `$defs` kept,
/// so the tool was refused "no repair tried removes it", though `check` called it repairable
/// and `args` resolves the `$ref`).
#[test]
fn definitions_below_the_root_go_once_their_refs_are_inlined() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $defs",
        "keyword-allowed: $anchor",
    ]);
    let defs = json!({"X":{"$anchor":"x","type":"integer"}});
    let holding = |r: &str| json!({"$defs":defs,"type":"object","properties":{"n":{"$ref":r}}});
    let inlined = json!({"type":"object","properties":{"n":{"type":"integer"}}});
    let cases = [
        (
            json!({"anyOf":[holding("#x"),{"type":"string"}]}),
            json!({"anyOf":[inlined,{"type":"string"}]}),
            "/properties/s/anyOf/0/$defs",
        ),
        (
            json!({"anyOf":[holding("#/properties/s/anyOf/0/$defs/X"),{"type":"string"}]}),
            json!({"anyOf":[inlined,{"type":"string"}]}),
            "/properties/s/anyOf/0/$defs",
        ),
        (
            json!({"type":"array","items":holding("#x")}),
            json!({"type":"array","items":inlined}),
            "/properties/s/items/$defs",
        ),
        (holding("#x"), inlined.clone(), "/properties/s/$defs"),
    ];
    for (s, want, dropped) in cases {
        let t = tool("f", json!({"type":"object","properties":{"s":s}}));
        assert!(
            errors(&t, &p).iter().all(|f| f.repairable),
            "{:#?}",
            errors(&t, &p)
        );
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{s}: {:#?}", r.refusals);
        assert_eq!(
            r.tool.parameters.unwrap(),
            json!({"type":"object","properties":{"s":want}})
        );
        assert!(
            r.changes.iter().any(|c| c.pointer == dropped
                && c.action == "dropped `$defs` (every reference to it is inlined)"),
            "{:#?}",
            r.changes
        );
    }
}

/// A keyword repair drops (`not`, an `x-` extension) that holds a schema a `$ref` outside it
/// names, by anchor or by JSON Pointer, goes once the `$ref`s are inlined (before: dropped
/// first, the tool was refused for the `$ref`, "`#x`, which is not in the schema", a problem
/// repair made); one only its own `$ref`s reach is dropped alone.
#[test]
fn a_dropped_keyword_a_ref_reaches_into_goes_once_the_ref_is_inlined() {
    let p = profile(&["keyword-allowed: not", "keyword-allowed: x-vendor"]);
    let x = json!({"X":{"$anchor":"x","type":"integer"}});
    let cases = [
        (
            json!({"not":{"$defs":x,"required":["z"]}}),
            "#x",
            "/properties/s/not",
        ),
        (
            json!({"not":{"$defs":x,"required":["z"]}}),
            "#/properties/s/not/$defs/X",
            "/properties/s/not",
        ),
        (
            json!({"x-defs":{"X":{"type":"integer"}}}),
            "#/properties/s/x-defs/X",
            "/properties/s/x-defs",
        ),
    ];
    for (beside, r, dropped) in cases {
        let mut s = json!({"type":"object","properties":{"n":{"$ref":r}}});
        s.as_object_mut()
            .unwrap()
            .extend(beside.as_object().unwrap().clone());
        let t = tool("f", json!({"type":"object","properties":{"s":s}}));
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
        assert_eq!(
            r.tool.parameters.unwrap(),
            json!({"type":"object","properties":{"s":{"type":"object",
                "properties":{"n":{"type":"integer"}}}}})
        );
        let said: Vec<&str> = r.changes.iter().map(|c| c.pointer.as_str()).collect();
        assert_eq!(
            said.first(),
            Some(&"/properties/s/properties/n/$ref"),
            "{said:?}"
        );
        assert_eq!(said.last(), Some(&dropped), "{said:?}");
    }
    // Its own `$ref`s go with it: nothing is inlined.
    let t = tool(
        "f",
        json!({"type":"object","properties":{"s":{"type":"object",
            "not":{"$defs":x,"properties":{"n":{"$ref":"#x"}},"required":["n"]}}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    let said: Vec<&str> = r.changes.iter().map(|c| c.pointer.as_str()).collect();
    assert_eq!(said, ["/properties/s/not"]);
}

/// A valid name keeps its tool: only the tools renamed onto it are refused (each naming the
/// tool that keeps it); two renames onto a name no tool had refuse both.
#[test]
fn names_are_sanitized_and_only_the_renames_that_collide_are_refused() {
    let p = profile(&["name-chars: dot", "name-chars: space"]);
    let params = json!({"type":"object","properties":{"x":{"type":"string"}}});
    let tools = [
        tool("lookup.user", params.clone()),
        tool("lookup_user", params.clone()),
        tool("lookup user", params.clone()),
        tool("geo.dist", params.clone()),
        tool("math.sum", params.clone()),
        tool("math sum", params.clone()),
    ];
    let out = repair_request(&tools, &p, &Options::default());
    let got: Vec<(Outcome, Option<&str>)> = out
        .iter()
        .map(|r| (r.outcome, r.tool.name.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (Outcome::Refused, Some("lookup.user")),
            (Outcome::Unchanged, Some("lookup_user")),
            (Outcome::Refused, Some("lookup user")),
            (Outcome::Repaired, Some("geo_dist")),
            (Outcome::Refused, Some("math.sum")),
            (Outcome::Refused, Some("math sum")),
        ]
    );
    // A tool the census refuses is left out or kept as given: its rename is not said.
    for i in [0, 2, 4, 5] {
        assert!(out[i].changes.is_empty(), "{:#?}", out[i].changes);
    }
    let reason = |i: usize| out[i].refusals.last().unwrap().reason.as_str();
    assert!(
        reason(0).contains("the name of the tool `lookup_user`, which keeps it"),
        "{}",
        reason(0)
    );
    assert!(reason(2).contains("`lookup user` becomes `lookup_user`"));
    assert!(
        reason(4).contains("the same as `math sum`; all of them are left out"),
        "{}",
        reason(4)
    );
}

/// A tool refused for its schema is sent as given under `keep_unrepairable`, so a rename onto
/// its name would write two tools of one name: the rename is refused instead. Without the
/// option the refused tool is left out and the rename goes ahead.
#[test]
fn a_kept_refused_tool_keeps_its_name_in_the_census() {
    let p = profile(&["name-chars: dot", "structure: array-without-items"]);
    let tools = [
        tool(
            "lookup_user",
            json!({"type":"object","properties":{"tags":{"type":"array"}}}),
        ),
        tool(
            "lookup.user",
            json!({"type":"object","properties":{"x":{"type":"string"}}}),
        ),
    ];
    let sent = |keep_unrepairable: bool| -> Vec<(Outcome, Option<String>)> {
        let opts = Options {
            keep_unrepairable,
            ..Options::default()
        };
        repair_request(&tools, &p, &opts)
            .into_iter()
            .map(|r| (r.outcome, r.tool.name))
            .collect()
    };
    assert_eq!(
        sent(false),
        [
            (Outcome::Refused, Some("lookup_user".into())),
            (Outcome::Repaired, Some("lookup_user".into())),
        ]
    );
    assert_eq!(
        sent(true),
        [
            (Outcome::Refused, Some("lookup_user".into())),
            (Outcome::Refused, Some("lookup.user".into())),
        ]
    );
}

/// The census counts only the renames repair makes: a name the profile's documented rule
/// would sanitize but no evidence rejects is sent as written and collides with nothing, while
/// a rename onto another tool's name still refuses both.
#[test]
fn only_a_rename_repair_makes_can_collide() {
    let params = json!({"type":"object","properties":{"city":{"type":"string"}}});
    let tools = [
        tool("get.weather", params.clone()),
        tool("get_weather", params.clone()),
    ];
    let sent = |p: &CompiledProfile| -> Vec<(Outcome, Option<String>)> {
        repair_request(&tools, p, &Options::default())
            .into_iter()
            .map(|r| (r.outcome, r.tool.name))
            .collect()
    };
    // mistral/chat documents no rule (the portable one, without dots, stands in).
    let assumed = profile_for(&["mistral/chat"], &[]);
    assert!(!name_rule(&assumed).accepts("get.weather"));
    assert_eq!(
        sent(&assumed),
        [
            (Outcome::Unchanged, Some("get.weather".into())),
            (Outcome::Unchanged, Some("get_weather".into()))
        ]
    );
    // The same pair where the evidence rejects dots: the rename collides, and the tool that
    // had the name keeps it.
    let rejecting = profile_for(&["mistral/chat"], &["name-chars: dot"]);
    let out = repair_request(&tools, &rejecting, &Options::default());
    assert_eq!(
        out.iter().map(|r| r.outcome).collect::<Vec<_>>(),
        [Outcome::Refused, Outcome::Unchanged]
    );
    assert_eq!(out[0].tool.name.as_deref(), Some("get.weather"));
    assert_eq!(
        out[0].refusals.last().unwrap().reason,
        "after repair, `get.weather` becomes `get_weather` under the test name rule, the name \
         of the tool `get_weather`, which keeps it; `get.weather` is left out"
    );
    assert!(out[1].refusals.is_empty());
    // Gemini documents dots: nothing is renamed, both are kept.
    let gemini = profile_for(&["gemini/v1beta/parameters"], &[]);
    assert_eq!(
        sent(&gemini),
        [
            (Outcome::Unchanged, Some("get.weather".into())),
            (Outcome::Unchanged, Some("get_weather".into()))
        ]
    );
}

#[test]
fn descriptions_are_written_when_missing_and_cut_when_too_long() {
    let p = profile(&["description: missing", "description-length-limit: 1025"]);
    let mut t = tool(
        "lookup",
        json!({"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}),
    );
    t.description = None;
    let r = repair_one(&t, &p);
    assert_eq!(
        r.tool.description.as_deref(),
        Some(crate::describe::written_description("lookup", t.parameters.as_ref()).as_str())
    );
    t.description = Some("x".repeat(3000));
    let r = repair_one(&t, &p);
    assert_eq!(r.tool.description.as_ref().unwrap().chars().count(), 1024);
    assert!(r.changes[0].lost.as_ref().unwrap().contains("1979"));
}

/// A cut by characters ended inside a grapheme cluster: the skin tone of `👍🏽` gone, a ZWJ
/// family cut after its joiner, a second flag left as one regional indicator, the accent of a
/// decomposed `é` dropped from its letter, a CRLF split (task B4). The cut now keeps whole
/// clusters only, shorter than the limit where one straddles it, and says so; the loss counts
/// what was really cut.
#[test]
fn a_cut_description_never_splits_a_grapheme_cluster() {
    // Rejects 11 characters: the longest allowed is 10, so `…` leaves room for 9 (`...` for 7).
    let p = profile(&["description-length-limit: 11"]);
    let short = " (not 10: a cut there would split a character made of several code points, \
                 such as an emoji with its modifier or a letter with its accent)";
    for (old, new) in [
        ("Deploys 👍🏽 now", "Deploys …"),
        ("Family 👩\u{200d}👩\u{200d}👧 here", "Family …"),
        ("Flags 🇫🇷🇩🇪 on", "Flags 🇫🇷…"),
        ("\u{e9}xxxxxxxe\u{301}yyyy", "\u{e9}xxxxxxx…"),
        ("xxxxxx\r\nyyyy", "xxxxxx..."),
    ] {
        let mut t = tool(
            "lookup",
            json!({"type":"object","properties":{"id":{"type":"string"}}}),
        );
        t.description = Some(old.to_string());
        let r = repair_one(&t, &p);
        assert_eq!(r.tool.description.as_deref(), Some(new), "{old:?}");
        let (len, cut) = (old.chars().count(), new.chars().count());
        assert_eq!(
            r.changes[0].action,
            format!("cut the description from {len} to {cut} characters{short}"),
            "{old:?}"
        );
        let marker = if new.ends_with("...") { 3 } else { 1 };
        assert_eq!(
            r.changes[0].lost.as_deref(),
            Some(
                format!(
                    "the last {} characters of the description",
                    len - (cut - marker)
                )
                .as_str()
            ),
            "{old:?}"
        );
    }
    // A cut that lands between clusters is as long as the limit, and says nothing more.
    let mut t = tool(
        "lookup",
        json!({"type":"object","properties":{"id":{"type":"string"}}}),
    );
    t.description = Some("Deploy 👍🏽 it now".into());
    let r = repair_one(&t, &p);
    assert_eq!(r.tool.description.as_deref(), Some("Deploy 👍🏽…"));
    assert_eq!(
        r.changes[0].action,
        "cut the description from 16 to 10 characters"
    );
}

/// A description cut to 1,024 characters drew check's warning under openai/chat-strict and
/// `portable` (`1024 characters of description: no evidence for openai/chat-strict`): only
/// 1,025 and more are rejected there, and nothing accepts 1,024. The cut lands on the longest
/// length the profile allows (1,023 there, 1,024 under openai/chat, whose evidence accepts
/// it), whole characters ending in `…`.
#[test]
fn a_cut_description_is_one_check_is_quiet_about() {
    let set = crate::profile::embedded().expect("built-in profiles load");
    // Two-, three- and four-byte characters around every cut point.
    let long: String = "Lé€🦀 wörd ".repeat(300).chars().take(3000).collect();
    for (name, cut) in [
        (crate::profile::PORTABLE, 1023),
        ("openai/chat-strict", 1023),
        ("openai/chat", 1024),
    ] {
        let p = CompiledProfile::new(set.get(name).unwrap());
        let mut t = tool(
            "lookup",
            json!({"type": "object", "properties": {"id": {"type": "string"}}}),
        );
        t.description = Some(long.clone());
        let r = repair_one(&t, &p);
        let d = r.tool.description.as_deref().unwrap();
        assert_eq!(d.chars().count(), cut, "{name}");
        assert!(d.ends_with('…'), "{name}");
        let kept = d.strip_suffix('…').unwrap();
        assert!(long.starts_with(kept), "{name}");
        let said: Vec<_> = findings(&r.tool, &p)
            .into_iter()
            .filter(|f| f.rule == "description-too-long")
            .collect();
        assert!(said.is_empty(), "{name}: {said:#?}");
        assert_eq!(
            r.changes[0].lost.as_deref(),
            Some(
                format!(
                    "the last {} characters of the description",
                    3000 - (cut - 1)
                )
                .as_str()
            ),
            "{name}"
        );
    }
}

/// An ASCII description cut with `…` drew check's `description-content` warning (non-ASCII
/// characters, with no evidence either way) on repair's own output, a warning repair brought
/// in. An ASCII description now ends in `...` and stays ASCII; the profile's length holds.
#[test]
fn a_cut_ascii_description_stays_ascii() {
    let set = crate::profile::embedded().expect("built-in profiles load");
    let p = CompiledProfile::new(set.get(crate::profile::PORTABLE).unwrap());
    let mut t = tool(
        "lookup",
        json!({"type": "object", "properties": {"id": {"type": "string"}}}),
    );
    t.description = Some("word ".repeat(300));
    let r = repair_one(&t, &p);
    let d = r.tool.description.as_deref().unwrap();
    assert_eq!(d.len(), 1023);
    assert!(d.ends_with("...") && d.is_ascii(), "{d}");
    assert!(
        "word "
            .repeat(300)
            .starts_with(d.strip_suffix("...").unwrap())
    );
    assert_eq!(
        r.changes[0].lost.as_deref(),
        Some("the last 480 characters of the description")
    );
    let said: Vec<_> = findings(&r.tool, &p)
        .into_iter()
        .filter(|f| f.rule.starts_with("description-"))
        .collect();
    assert!(said.is_empty(), "{said:#?}");
}

/// Change lines and refusals name places as written, as compile's do: repair works on a copy
/// with what a `$ref` reaches inlined (before: `/properties/amount/type`, a place the user's
/// file does not have, for the definition's `type` at `/$defs/Amount/type`).
#[test]
fn places_inside_a_referenced_definition_are_named_where_it_is_written() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $defs",
        "type-spelling: float",
        "type-spelling: any",
    ]);
    let given = json!({"type":"object","properties":{"amount":{"$ref":"#/$defs/Amount"}},
               "$defs":{"Amount":{"type":"float"}}});
    let r = &repair_request(&[tool("f", given.clone())], &p, &Options::default())[0];
    assert_eq!(r.outcome, Outcome::Repaired, "{r:#?}");
    let places: Vec<&str> = r.changes.iter().map(|c| c.pointer.as_str()).collect();
    assert!(places.contains(&"/$defs/Amount/type"), "{places:?}");
    for place in places {
        assert!(
            given.pointer(place).is_some(),
            "{place} is not in the schema as given"
        );
    }
    let refused = tool(
        "g",
        json!({"type":"object","properties":{"v":{"$ref":"#/$defs/V"}},
               "$defs":{"V":{"type":"any"}}}),
    );
    let r = &repair_request(&[refused], &p, &Options::default())[0];
    assert_eq!(r.outcome, Outcome::Refused);
    let places: Vec<&str> = r.refusals.iter().map(|f| f.pointer.as_str()).collect();
    assert_eq!(places, ["/$defs/V/type"], "{:#?}", r.refusals);
    // A definition used twice is repaired at each place it was inlined; both name one place
    // as written, said once (before: the same line twice, each loss counted twice).
    let twice = json!({"type":"object","properties":{
        "n":{"$ref":"#/$defs/Amount"},"m":{"$ref":"#/$defs/Amount"}},
        "$defs":{"Amount":{"type":"float"}}});
    let r = &repair_request(&[tool("h", twice)], &p, &Options::default())[0];
    let respelled: Vec<&str> = r
        .changes
        .iter()
        .filter(|c| c.pointer == "/$defs/Amount/type")
        .map(|c| c.action.as_str())
        .collect();
    assert_eq!(respelled.len(), 1, "{:#?}", r.changes);
}

#[test]
fn non_standard_type_spellings_are_normalised() {
    let p = profile(&[
        "type-spelling: dict",
        "type-spelling: float",
        "type-spelling: any",
    ]);
    let t = tool(
        "f",
        json!({"type":"dict","properties":{"x":{"type":"float"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"x":{"type":"number"}}})
    );
    let any = tool(
        "g",
        json!({"type":"dict","properties":{"v":{"type":"any"}}}),
    );
    let r = repair_one(&any, &p);
    assert_eq!(r.outcome, Outcome::Refused);
    assert!(r.refusals[0].reason.contains("any"));
}

#[test]
fn repair_is_idempotent() {
    let p = profile(&[
        "keyword-allowed: minimum",
        "keyword-allowed: const",
        "type-list: string,null",
        "type-spelling: dict",
        "name-chars: dot",
        "keyword-allowed: additionalProperties (false)",
    ]);
    let t = tool(
        "a.b",
        json!({"type":"dict","properties":{"n":{"type":["integer","null"],"minimum":3},"k":{"const":"x"}},
               "required":["n"],"additionalProperties":false}),
    );
    let once = repair_one(&t, &p);
    assert_eq!(once.outcome, Outcome::Repaired);
    let twice = repair_one(&once.tool, &p);
    assert_eq!(twice.outcome, Outcome::Unchanged);
    assert_eq!(twice.tool, once.tool);
}

#[test]
fn no_argument_tools_leave_their_schema_out_where_the_profile_allows() {
    let p = profile(&["root-shape: no-arguments"]);
    let t = tool("ping", json!({"type":"object","properties":{}}));
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired);
    assert_eq!(r.tool.parameters, None);
    // Where leaving it out is rejected too, the tool is refused, pointing at compile (which
    // writes each target's own form), whichever form it came in.
    let p = profile(&["root-shape: no-arguments", "root-shape: parameters-absent"]);
    let absent = Tool {
        parameters: None,
        ..t.clone()
    };
    for t in [&t, &absent] {
        let r = repair_one(t, &p);
        assert_eq!(r.outcome, Outcome::Refused);
        assert!(
            r.refusals[0]
                .reason
                .starts_with("a tool without arguments has no form")
                && r.refusals[0].reason.contains("toolwire compile --target"),
            "{:?}",
            r.refusals
        );
    }
    // `properties: {}` beside `required: ["x"]` takes x: refused as a root naming its
    // members elsewhere, not as a tool without arguments (trial 48 D2, gemini/v1beta/parameters).
    let r = repair_one(
        &tool(
            "t",
            json!({"type":"object","properties":{},"required":["x"]}),
        ),
        &p,
    );
    assert_eq!(r.outcome, Outcome::Refused);
    assert_eq!(
        r.refusals[0].reason,
        super::MEMBERS_ELSEWHERE,
        "{:?}",
        r.refusals
    );
    // A free-form object is not a tool without arguments.
    assert!(!super::takes_no_arguments(&tool(
        "f",
        json!({"type":"object"})
    )));
}

/// `true` and `null` as the parameters schema are read as compile reads them (`{}`, and no
/// schema), and the report says so; `false` and values that are no schema are refused with
/// compile's reason. Before, repair refused `true` ("wrapping it would change the arguments").
#[test]
fn a_root_that_is_no_schema_object_is_read_as_compile_reads_it() {
    let p = profile(&["root-shape: true-schema", "root-shape: parameters-null"]);
    let with = |params: Value| tool("t", params);
    let r = repair_one(&with(json!(true)), &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:?}", r.refusals);
    assert_eq!(r.tool.parameters, Some(json!({})));
    assert_eq!(r.changes[0].rule, "root-not-object");
    assert!(
        r.changes[0]
            .action
            .starts_with("wrote the `true` schema as `{}`"),
        "{:?}",
        r.changes
    );
    let r = repair_one(&with(Value::Null), &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:?}", r.refusals);
    assert_eq!(r.tool.parameters, None);
    assert!(
        r.changes[0]
            .action
            .starts_with("left the parameters schema out"),
        "{:?}",
        r.changes
    );
    for (params, shape) in [
        (json!(false), "root-shape: false-schema"),
        (json!("object"), "root-shape: not-a-schema"),
        (json!(3), "root-shape: not-a-schema"),
        (json!([]), "root-shape: not-a-schema"),
    ] {
        let r = repair_one(&with(params.clone()), &p);
        assert_eq!(r.outcome, Outcome::Refused, "{params}");
        assert_eq!(r.refusals.len(), 1, "{params}: {:?}", r.refusals);
        assert_eq!(
            (
                r.refusals[0].rule.as_str(),
                r.refusals[0].parameter.as_str()
            ),
            ("root-not-object", shape),
            "{params}"
        );
        assert_eq!(r.tool.parameters, Some(params));
    }
    // Read as `{}`, a tool the profile refuses in every form is refused as `{}` would be,
    // the reading said, and kept as given.
    let p = profile(&[
        "root-shape: empty-schema",
        "root-shape: parameters-absent",
        "root-shape: no-arguments",
    ]);
    let r = repair_one(&with(json!(true)), &p);
    assert_eq!(r.outcome, Outcome::Refused, "{:?}", r.changes);
    assert!(r.changes.is_empty());
    assert!(
        r.refusals[0]
            .reason
            .starts_with("after repair wrote the `true` schema as `{}`"),
        "{:?}",
        r.refusals
    );
    assert_eq!(r.tool.parameters, Some(json!(true)));
}

#[test]
fn the_name_rule_is_the_documented_one_narrowed_by_the_evidence() {
    // Gemini's messages allow dots, and a letter or `_` first; a Vertex page allows colons.
    let gemini = name_rule(&profile_for(&["gemini/v1beta/parameters"], &[]));
    assert_eq!(gemini.pattern(), "^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$");
    let vertex = name_rule(&profile_for(&["vertex/v1/parameters"], &[]));
    assert_eq!(vertex.pattern(), "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$");
    // Evidence against colons takes them out even where a document allows them.
    let narrowed = name_rule(&profile_for(
        &["vertex/v1/parameters"],
        &["name-chars: colon", "name-length-limit: 40"],
    ));
    assert_eq!(narrowed.pattern(), "^[a-zA-Z_][a-zA-Z0-9_.-]{0,38}$");
    // Over several targets, the strictest document wins.
    let both = name_rule(&profile_for(
        &["gemini/v1beta/parameters", "openai/chat"],
        &[],
    ));
    assert_eq!(both.pattern(), "^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$");
}

/// A rejected leading hyphen, dot or colon renames the tool as a rejected leading digit
/// does (`1abc` to `_1abc`), even under a target whose document allows the character first.
#[test]
fn a_rejected_leading_hyphen_dot_or_colon_is_renamed_with_an_underscore_in_front() {
    use crate::repair::rename;
    for (name, kind, renamed) in [
        ("-ab", "leading-hyphen", "_-ab"),
        ("1ab", "leading-digit", "_1ab"),
    ] {
        let p = profile_for(&["openai/chat"], &[&format!("name-chars: {kind}")]);
        let rule = name_rule(&p);
        assert_eq!(rule.pattern(), "^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$", "{kind}");
        assert_eq!(rename::sent_name(name, &p, &rule), renamed, "{kind}");
    }
    // Without evidence against it OpenAI's pattern takes a leading hyphen as written.
    let p = profile_for(&["openai/chat"], &[]);
    assert_eq!(rename::sent_name("-ab", &p, &name_rule(&p)), "-ab");
    // A Vertex page allows dots and colons, but not first.
    let p = profile_for(
        &["vertex/v1/parameters"],
        &["name-chars: leading-dot", "name-chars: leading-colon"],
    );
    let rule = name_rule(&p);
    assert_eq!(rename::sent_name(".ab", &p, &rule), "_.ab");
    assert_eq!(rename::sent_name(":ab", &p, &rule), "_:ab");
}

#[test]
fn null_is_written_as_nullable_where_the_profile_allows_that_spelling() {
    let mut features = vec![FeatureEntry {
        parameter: "type-list: string,null".into(),
        placement: Placement::Nested,
        status: Status::Rejected,
        rejected_by: Vec::new(),
        unknown_for: Vec::new(),
        judged_elsewhere: Default::default(),
    }];
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"]}),
    );
    let make = |features: Vec<FeatureEntry>| {
        CompiledProfile::new(&Profile {
            name: "gemini-like".into(),
            targets: vec!["gemini/v1beta/parameters".into()],
            control: Status::Allowed,
            features,
            summary: Default::default(),
            meta_schema: Vec::new(),
        })
    };
    // Without evidence for `nullable`, the argument is made optional.
    let r = repair_one(&t, &make(features.clone()));
    assert_eq!(r.tool.parameters.as_ref().unwrap()["required"], json!(null));
    // With evidence that `nullable: true` is accepted, it keeps null (no loss).
    features.push(FeatureEntry {
        parameter: "keyword-allowed: nullable (true)".into(),
        placement: Placement::Nested,
        status: Status::Allowed,
        rejected_by: Vec::new(),
        unknown_for: Vec::new(),
        judged_elsewhere: Default::default(),
    });
    let r = repair_one(&t, &make(features.clone()));
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"type":"string","nullable":true}},"required":["a"]})
    );
    assert!(r.changes[0].lost.is_none());
    // `nullable: true` still accepts null, so the enum keeps it.
    let with_enum = tool(
        "f",
        json!({"type":"object","properties":{"a":{"type":["string","null"],
            "enum":["open","closed",null]}}}),
    );
    let r = repair_one(&with_enum, &make(features));
    assert_eq!(
        r.tool.parameters.unwrap()["properties"]["a"],
        json!({"type":"string","enum":["open","closed",null],"nullable":true})
    );
    assert!(!r.changes[0].action.contains("enum"), "{:?}", r.changes);
}

/// A nullable array item or `anyOf` branch, which cannot be made an optional argument, loses
/// its null with a loss line where the profile does not accept `nullable: true` (trial 56 D5:
/// under `portable` it was written `{type: string, nullable: true}` with "0 losses", and
/// `nullable` listed as left as written, while four of its five targets read JSON Schema,
/// which has no such keyword); where the profile accepts `nullable`, it keeps the null.
#[test]
fn a_nullable_item_or_branch_loses_its_null_where_nullable_is_not_accepted() {
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "v":{"type":"array","items":{"type":["string","null"]}},
            "w":{"anyOf":[{"type":["string","null"]},{"type":"integer"}]}}}),
    );
    let feature = |parameter: &str, status| FeatureEntry {
        parameter: parameter.into(),
        placement: Placement::Nested,
        status,
        rejected_by: Vec::new(),
        unknown_for: Vec::new(),
        judged_elsewhere: Default::default(),
    };
    let make = |features: Vec<FeatureEntry>| {
        CompiledProfile::new(&Profile {
            name: "p".into(),
            targets: vec!["test/target".into()],
            control: Status::Allowed,
            features,
            summary: Default::default(),
            meta_schema: Vec::new(),
        })
    };
    let mut features = vec![feature("type-list: string,null", Status::Rejected)];
    let r = repair_one(&t, &make(features.clone()));
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.as_ref().unwrap(),
        &json!({"type":"object","properties":{
            "v":{"type":"array","items":{"type":"string"}},
            "w":{"anyOf":[{"type":"string"},{"type":"integer"}]}}})
    );
    let got: Vec<(&str, Option<&str>)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.lost.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            ("/properties/v/items/type", Some(fixes::NULL_DROPPED_LOSS)),
            ("/properties/w/anyOf/0/type", Some(fixes::NULL_DROPPED_LOSS)),
        ]
    );
    assert!(
        r.unverified.keys().all(|u| !u.contains("nullable")),
        "{r:#?}"
    );
    features.push(feature("keyword-allowed: nullable (true)", Status::Allowed));
    let r = repair_one(&t, &make(features));
    assert_eq!(
        r.tool.parameters.unwrap()["properties"]["v"]["items"],
        json!({"type":"string","nullable":true})
    );
    assert!(
        r.changes.iter().all(|c| c.lost.is_none()),
        "{:#?}",
        r.changes
    );
}

#[test]
fn required_names_that_are_not_properties_are_dropped() {
    // The finding points into `required` (`/required/1`), not at a schema object.
    let p = profile(&["structure: required-undeclared"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"type":"string"},
            "o":{"type":"object","properties":{"x":{"type":"string"}},"required":["y"]}},
            "required":["a","zz"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"type":"string"},
            "o":{"type":"object","properties":{"x":{"type":"string"}}}},
            "required":["a"]})
    );
    let got: Vec<&str> = r.changes.iter().map(|c| c.pointer.as_str()).collect();
    assert_eq!(got, ["/required", "/properties/o/required"]);
    assert!(r.changes[0].action.contains("\"zz\""));
}

#[test]
fn gemini_type_spellings_are_all_lower_cased_together() {
    // Only OBJECT and STRING are rejected; INTEGER, ARRAY and NULL have no evidence either
    // way, and are still written in lower case so no schema mixes the two spellings.
    let p = profile(&["type-spelling: OBJECT", "type-spelling: STRING"]);
    let t = tool(
        "f",
        json!({"type":"OBJECT","properties":{
            "type":{"type":"STRING"},
            "n":{"type":"INTEGER"},
            "v":{"type":["NUMBER","NULL"]},
            "xs":{"type":"ARRAY","items":{"type":"BOOLEAN"}}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{
            "type":{"type":"string"},
            "n":{"type":"integer"},
            "v":{"type":["number","null"]},
            "xs":{"type":"array","items":{"type":"boolean"}}}})
    );
    assert_eq!(r.changes.len(), 7);
    assert!(r.changes.iter().all(|c| c.lost.is_none()));
}

/// A dropped `pattern` is said in the description as the regular expression a model reads
/// (`\d+`), not as the JSON string that holds it (`"\\d+"`, whose backslashes the
/// description's own JSON doubles again; trial 51 D10).
#[test]
fn a_dropped_pattern_is_said_as_written_not_as_json() {
    let p = profile(&["keyword-allowed: pattern"]);
    let r = repair_one(
        &tool(
            "f",
            json!({"type":"object","properties":{"a":{"type":"string","pattern":"^\\d+\"?$"},
                "b":{"type":"string","pattern":"^`x`$"}}}),
        ),
        &p,
    );
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    let params = r.tool.parameters.unwrap();
    assert_eq!(
        params.pointer("/properties/a/description"),
        Some(&json!("Matching the regular expression `^\\d+\"?$`."))
    );
    // A backtick in the expression would end the quote early: shown as JSON then.
    assert_eq!(
        params.pointer("/properties/b/description"),
        Some(&json!("Matching the regular expression \"^`x`$\"."))
    );
}

#[test]
fn an_invalid_bound_is_dropped_without_a_sentence_about_it() {
    // Not `"minimum": "1"`: that is Gemini's double string, written as the number.
    let p = profile(&[
        "keyword-allowed: minimum (not a number)",
        "keyword-allowed: maxLength (negative)",
        "keyword-allowed: minLength",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"type":"string",
            "minimum":true,"maxLength":-1,"minLength":2}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"type":"string",
            "description":"At least 2 characters."}}})
    );
    let said: Vec<(&str, &str, bool)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.action.as_str(), c.lost.is_some()))
        .collect();
    assert_eq!(
        said,
        [
            (
                "/properties/a/minimum",
                "dropped `minimum: true`, which is not a valid bound (JSON Schema wants a number)",
                false
            ),
            (
                "/properties/a/maxLength",
                "dropped `maxLength: -1`, which is not a valid bound (JSON Schema wants a non-negative integer)",
                false
            ),
            (
                "/properties/a/minLength",
                "dropped `minLength: 2`, said in the description as \"At least 2 characters.\"",
                true
            ),
        ]
    );
}

/// Gemini's REST `Schema` writes its count keywords as int64 strings (`"maxItems": "3"`),
/// which `toolwire args` checks as their integers; repair dropped them as no valid bound,
/// "0 losses", and the repaired schema took 4 items (trial 71 D6). Written as the integer,
/// nothing is lost; where the keyword itself must go it is said and lost as the count; a
/// string that is no canonical integer (`"02"`) is dropped as before, but as a loss.
#[test]
fn a_gemini_int64_count_string_is_written_as_its_integer() {
    let p = profile_for(
        &["gemini/v1beta/parameters"],
        &[
            "keyword-allowed: maxItems (string)",
            "keyword-allowed: minItems (string)",
            "keyword-allowed: maxLength (string)",
            "keyword-allowed: minLength (string)",
            "keyword-allowed: minLength",
        ],
    );
    let t = tool(
        "f",
        json!({"type":"object","properties":{"ids":{"type":"array",
            "items":{"type":"string","maxLength":"8","minLength":"2"},
            "maxItems":"3","minItems":"02"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.clone().unwrap(),
        json!({"type":"object","properties":{"ids":{"type":"array",
            "items":{"type":"string","maxLength":8,"description":"At least 2 characters."},
            "maxItems":3}}})
    );
    let said = changes_said(&r);
    assert_eq!(
        said,
        [
            (
                "/properties/ids/items/maxLength",
                "wrote `maxLength: \"8\"` as `maxLength: 8`, the count Gemini's int64 string \
                 spells (as `toolwire args` reads it)",
                None
            ),
            (
                "/properties/ids/items/minLength",
                "dropped `minLength: 2`, said in the description as \"At least 2 characters.\" \
                 (written `minLength: \"2\"`, Gemini's int64 string)",
                Some(
                    "the provider no longer enforces `minLength: 2` (`toolwire args` still \
                     checks it against the original schema)"
                )
            ),
            (
                "/properties/ids/maxItems",
                "wrote `maxItems: \"3\"` as `maxItems: 3`, the count Gemini's int64 string \
                 spells (as `toolwire args` reads it)",
                None
            ),
            (
                "/properties/ids/minItems",
                "dropped `minItems: \"02\"`, which is not a valid bound (JSON Schema wants a \
                 non-negative integer)",
                Some(
                    "`minItems: \"02\"`, a count written as a string that is no canonical \
                     integer: a provider reading it as Gemini's int64 may have enforced it \
                     (`toolwire args` refuses the original schema for it)"
                )
            ),
        ]
    );
}

/// Gemini's `Schema` types `minimum` and `maximum` as double, which protobuf's JSON reads from
/// a string too (`"minimum": "1"`); repair dropped it as no valid bound, "0 losses", and the
/// repaired schema took 0. A string holding a JSON number is written as that number, a
/// change with no loss; where the keyword itself must go it is said and lost as the number;
/// any other string at a numeric keyword (`"NaN"`, or at `multipleOf`, no field of Gemini's
/// `Schema`) is dropped as before, but as a loss.
#[test]
fn a_gemini_double_bound_string_is_written_as_its_number() {
    let p = profile_for(
        &["gemini/v1beta/parameters"],
        &[
            "keyword-allowed: minimum (string)",
            "keyword-allowed: maximum (string)",
            "keyword-allowed: multipleOf (string)",
            "keyword-allowed: maximum",
        ],
    );
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "n":{"type":"number","minimum":"-2e3","maximum":"10","multipleOf":"0.5"},
            "m":{"type":"integer","minimum":"NaN"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.clone().unwrap(),
        json!({"type":"object","properties":{
            "n":{"type":"number","minimum":-2000,"description":"At most 10."},
            "m":{"type":"integer"}}})
    );
    let said = changes_said(&r);
    assert_eq!(
        said,
        [
            (
                "/properties/m/minimum",
                "dropped `minimum: \"NaN\"`, which is not a valid bound (JSON Schema wants a \
                 number)",
                Some(
                    "`minimum: \"NaN\"`, a bound written as a string that is no JSON number: a \
                     provider reading it as Gemini's double (protobuf's JSON also takes \"NaN\" \
                     and \"Infinity\") may have enforced it (`toolwire args` refuses the \
                     original schema for it)"
                )
            ),
            (
                "/properties/n/maximum",
                "dropped `maximum: 10`, said in the description as \"At most 10.\" (written \
                 `maximum: \"10\"`, Gemini's double string)",
                Some(
                    "the provider no longer enforces `maximum: 10` (`toolwire args` still \
                     checks it against the original schema)"
                )
            ),
            (
                "/properties/n/minimum",
                "wrote `minimum: \"-2e3\"` as `minimum: -2000`, the number Gemini's double \
                 string spells (as `toolwire args` reads it)",
                None
            ),
            (
                "/properties/n/multipleOf",
                "dropped `multipleOf: \"0.5\"`, which is not a valid bound (JSON Schema wants a \
                 number greater than 0)",
                Some(
                    "`multipleOf: \"0.5\"`, a bound written as a string, not read as a number: \
                     `multipleOf` is no field of Gemini's `Schema` (whose double `minimum` and \
                     `maximum` are the bounds read from strings) and JSON Schema wants a \
                     number; a provider reading a number in it may have enforced it \
                     (`toolwire args` refuses the original schema for it)"
                )
            ),
        ]
    );
}

/// A whole bound spelt with an exponent was written as a float (`minimum: "-2e3"` as
/// `minimum: -2000.0`, on an integer too); it is an integer where the string has no fraction or
/// the `type` takes integers alone, a fraction stays one, and `"1E400"`, a number's spelling no
/// double holds, is dropped with a loss that says so, not called "no JSON number".
#[test]
fn a_whole_bound_string_is_written_as_an_integer() {
    let p = profile(&[
        "keyword-allowed: minimum (string)",
        "keyword-allowed: maximum (string)",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "i":{"type":"integer","minimum":"1.0","maximum":"1e2"},
            "n":{"type":"number","minimum":"-2e3","maximum":"0.5"},
            "f":{"type":"number","minimum":"1.0"},
            "big":{"type":"number","minimum":"1E400"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    let out = serde_json::to_string(r.tool.parameters.as_ref().unwrap()).unwrap();
    assert_eq!(
        out,
        r#"{"type":"object","properties":{"i":{"type":"integer","minimum":1,"maximum":100},"n":{"type":"number","minimum":-2000,"maximum":0.5},"f":{"type":"number","minimum":1.0},"big":{"type":"number"}}}"#
    );
    let big = changes_said(&r)
        .into_iter()
        .find(|(at, _, _)| *at == "/properties/big/minimum")
        .and_then(|(_, _, lost)| lost);
    assert_eq!(
        big,
        Some(
            "`minimum: \"1E400\"`, a bound written as a string holding a number past a 64-bit \
             float's range, which no finite number written in its place keeps: a provider \
             reading it as a number may have enforced it (`toolwire args` refuses the original \
             schema for it)"
        )
    );
}

/// The rewrite of a number string spoke of "Gemini's double string" (or int64 string) under
/// any profile: under `anthropic/messages`, which never reads such a string, too. Gemini is
/// named only where a target of the profile reads Gemini's `Schema` (`parameters`, not
/// `parametersJsonSchema`); elsewhere the words name no provider, in the rewrite and in the
/// drop of the keyword once written as its number.
#[test]
fn a_number_string_rewrite_names_gemini_only_where_a_target_reads_its_schema() {
    let t = tool(
        "f",
        json!({"type":"object","properties":{"n":{"type":"number","minimum":"1",
            "maximum":"5"},"c":{"type":"array","items":{"type":"string"},"maxItems":"3"}}}),
    );
    let rejected = [
        "keyword-allowed: minimum (string)",
        "keyword-allowed: maximum (string)",
        "keyword-allowed: maxItems (string)",
        "keyword-allowed: maximum",
    ];
    let said = |targets: &[&str]| {
        let r = repair_one(&t, &profile_for(targets, &rejected));
        changes_said(&r)
            .into_iter()
            .map(|(at, action, _)| format!("{at} {action}"))
            .collect::<Vec<_>>()
    };
    let neutral = [
        "/properties/c/maxItems wrote `maxItems: \"3\"` as `maxItems: 3`, the count the string \
         spells (JSON Schema wants a non-negative integer; `toolwire args` reads the string so)",
        "/properties/n/maximum dropped `maximum: 5`, said in the description as \"At most 5.\" \
         (written `maximum: \"5\"`, a string)",
        "/properties/n/minimum wrote `minimum: \"1\"` as `minimum: 1`, the number the string \
         spells (JSON Schema wants a number; `toolwire args` reads the string so)",
    ];
    for targets in [
        &["anthropic/messages"][..],
        &["openai/chat", "gemini/v1beta/parameters-json-schema"],
        &["test/target"],
    ] {
        assert_eq!(said(targets), neutral, "{targets:?}");
    }
    let gemini = [
        "/properties/c/maxItems wrote `maxItems: \"3\"` as `maxItems: 3`, the count Gemini's \
         int64 string spells (as `toolwire args` reads it)",
        "/properties/n/maximum dropped `maximum: 5`, said in the description as \"At most 5.\" \
         (written `maximum: \"5\"`, Gemini's double string)",
        "/properties/n/minimum wrote `minimum: \"1\"` as `minimum: 1`, the number Gemini's \
         double string spells (as `toolwire args` reads it)",
    ];
    for targets in [
        &["gemini/v1beta/parameters"][..],
        &["anthropic/messages", "vertex/v1/parameters"],
        &["engine/gemini-proto-snapshot/parameters"],
    ] {
        assert_eq!(said(targets), gemini, "{targets:?}");
    }
}

/// The loss of a bound string no number is read from (`"NaN"`, `"0x10"`, a count `"two"`, a
/// `multipleOf`) named Gemini's double and int64 under every profile, also under
/// `anthropic/messages`, which never reads Gemini's `Schema`; it now names Gemini only where
/// a target of the profile does, as the rewrite's words do.
#[test]
fn a_bound_string_loss_names_gemini_only_where_a_target_reads_its_schema() {
    let t = tool(
        "f",
        json!({"type":"object","properties":{"n":{"type":"number","minimum":"NaN",
            "maximum":"0x10"},"c":{"type":"array","items":{"type":"string"},"minItems":"two"},
            "m":{"type":"number","multipleOf":"2"}}}),
    );
    let losses = |targets: &[&str]| {
        let rejected = [
            "keyword-allowed: minimum (string)",
            "keyword-allowed: maximum (string)",
            "keyword-allowed: minItems (string)",
            "keyword-allowed: multipleOf (string)",
        ];
        let r = repair_one(&t, &profile_for(targets, &rejected));
        let lost: Vec<String> = r.changes.iter().filter_map(|c| c.lost.clone()).collect();
        assert_eq!(lost.len(), 4, "{targets:?}: {lost:#?}");
        lost
    };
    for lost in losses(&["anthropic/messages"]) {
        assert!(!lost.contains("Gemini"), "{lost}");
        assert!(lost.contains("JSON Schema wants"), "{lost}");
    }
    let gemini = losses(&["anthropic/messages", "gemini/v1beta/parameters"]);
    assert_eq!(
        gemini.iter().filter(|l| l.contains("Gemini's")).count(),
        4,
        "{gemini:#?}"
    );
}

/// `prefixItems: []` was refused ("not a non-empty list of schemas, and what it was meant to
/// hold cannot be known"), though keyword-value-invalid's fix says to remove it: an empty
/// list applies to no element, so `items` beside it covers every element with or without it.
/// It is dropped, no loss; `anyOf: []` (which no value matches) and a non-list `prefixItems`
/// stay refused.
#[test]
fn an_empty_prefix_items_is_dropped_as_constraining_nothing() {
    let p = profile(&["keyword-allowed: prefixItems (empty)"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"t":{"type":"array","prefixItems":[],
            "items":{"type":"string"}}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.clone().unwrap(),
        json!({"type":"object","properties":{"t":{"type":"array","items":{"type":"string"}}}})
    );
    assert_eq!(
        changes_said(&r),
        [(
            "/properties/t/prefixItems",
            "dropped `prefixItems: []`, which constrains nothing (an empty list of schemas \
             applies to no element; JSON Schema wants a non-empty list)",
            None
        )]
    );
    for (keyword, form, value) in [
        ("anyOf", "empty", json!([])),
        ("prefixItems", "not an array", json!({"type": "string"})),
    ] {
        let p = profile(&[&format!("keyword-allowed: {keyword} ({form})")]);
        let t = tool(
            "f",
            json!({"type":"object","properties":{"t":{"type":"array",(keyword): value}}}),
        );
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Refused, "{keyword}: {:#?}", r.changes);
    }
}

/// `exclusiveMinimum`/`exclusiveMaximum` written as number strings (`"0"`) are no fields of
/// Gemini's `Schema`, so no reading the evidence shows turns them into numbers, as protobuf's
/// JSON does Gemini's double `minimum: "1"`; JSON Schema wants a number. Where the profile
/// takes the keyword as a number but not as a string, they are dropped as a loss that says so,
/// not written as the number, beside a `minimum: "1"` that is (task B4: which is right). The
/// test profile's target reads no Gemini `Schema`, so the loss names none
/// ([`a_bound_string_loss_names_gemini_only_where_a_target_reads_its_schema`]).
#[test]
fn an_exclusive_bound_string_is_dropped_as_a_loss_not_read_as_a_number() {
    let p = profile(&[
        "keyword-allowed: minimum (string)",
        "keyword-allowed: exclusiveMinimum (string)",
        "keyword-allowed: exclusiveMaximum (string)",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"n":{"type":"number","description":"A value.",
            "minimum":"1","exclusiveMinimum":"0","exclusiveMaximum":"10"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.clone().unwrap(),
        json!({"type":"object","properties":{"n":{"type":"number","description":"A value.",
            "minimum":1}}})
    );
    let lost = |k: &str, v: &str| {
        format!(
            "`{k}: \"{v}\"`, a bound written as a string, not read as a number (JSON Schema \
             wants a number): a provider reading a number in it may have enforced it \
             (`toolwire args` refuses the original schema for it)"
        )
    };
    let (max_lost, min_lost) = (
        lost("exclusiveMaximum", "10"),
        lost("exclusiveMinimum", "0"),
    );
    assert_eq!(
        changes_said(&r),
        [
            (
                "/properties/n/exclusiveMaximum",
                "dropped `exclusiveMaximum: \"10\"`, which is not a valid bound (JSON Schema \
                 wants a number)",
                Some(max_lost.as_str())
            ),
            (
                "/properties/n/exclusiveMinimum",
                "dropped `exclusiveMinimum: \"0\"`, which is not a valid bound (JSON Schema \
                 wants a number)",
                Some(min_lost.as_str())
            ),
            (
                "/properties/n/minimum",
                "wrote `minimum: \"1\"` as `minimum: 1`, the number the string spells (JSON \
                 Schema wants a number; `toolwire args` reads the string so)",
                None
            ),
        ]
    );
}

/// A whole count written with a fraction part or an exponent (`minLength: 3.0`), which
/// llguidance refuses (trial 72 D2: check called it clean, repair left it), is written as
/// the integer: the same count under 2020-12, no loss, never dropped as no valid bound; where
/// the keyword itself must go it is said and lost as the count.
#[test]
fn a_whole_count_written_as_a_decimal_is_written_as_its_integer() {
    let p = profile(&[
        "keyword-allowed: minLength (decimal)",
        "keyword-allowed: maxItems (decimal)",
        "keyword-allowed: minItems (decimal)",
        "keyword-allowed: minItems",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"ids":{"type":"array",
            "items":{"type":"string","minLength":3.0},"maxItems":5e0,"minItems":2.0}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.clone().unwrap(),
        json!({"type":"object","properties":{"ids":{"type":"array",
            "items":{"type":"string","minLength":3},"maxItems":5,
            "description":"At least 2 items."}}})
    );
    let said = changes_said(&r);
    assert_eq!(
        said,
        [
            (
                "/properties/ids/items/minLength",
                "wrote `minLength: 3.0` as `minLength: 3`, the same count without a fraction \
                 part (JSON Schema 2020-12 reads both alike)",
                None
            ),
            (
                "/properties/ids/maxItems",
                "wrote `maxItems: 5.0` as `maxItems: 5`, the same count without a fraction part \
                 (JSON Schema 2020-12 reads both alike)",
                None
            ),
            (
                "/properties/ids/minItems",
                "dropped `minItems: 2`, said in the description as \"At least 2 items.\" \
                 (written `minItems: 2.0`)",
                Some(
                    "the provider no longer enforces `minItems: 2` (`toolwire args` still \
                     checks it against the original schema)"
                )
            ),
        ]
    );
}

/// A count written as Gemini's int64 string is judged by `check` by its value (an error), not
/// by the evidence for the keyword; once repair writes the integer, the keyword's own warning
/// (no evidence either way for `maxItems`) shows. It is the input's keyword, not one repair
/// wrote: it was said "written by repair" (`introduced`).
#[test]
fn the_warning_of_a_keyword_whose_number_repair_wrote_is_the_inputs() {
    let p = profile(&["keyword-allowed: maxItems (string)"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "ids":{"type":"array","items":{"type":"integer"},"maxItems":"3"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert!(
        r.changes.iter().all(|c| c.lost.is_none()),
        "{:#?}",
        r.changes
    );
    assert_eq!(r.unverified.get("keyword-allowed: maxItems"), Some(&1));
    assert!(r.introduced.is_empty(), "{:?}", r.introduced);
    assert!(
        r.left_as_written
            .contains(&"keyword-allowed: maxItems".to_string()),
        "{:?}",
        r.left_as_written
    );
}

#[test]
fn repairable_warnings_are_left_as_written_and_listed() {
    // No evidence either way for the null branch: repair leaves it and says so.
    let p = profile(&[]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"when":{"anyOf":[{"type":"string"},{"type":"null"}]}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Unchanged);
    assert_eq!(r.tool, t);
    assert!(
        r.left_as_written
            .iter()
            .any(|p| p == "keyword-allowed: anyOf (null branch)"),
        "{:?}",
        r.left_as_written
    );
    assert!(
        r.left_as_written
            .iter()
            .all(|p| r.unverified.contains_key(p))
    );
    // Where a target rejects it, the same branch is repaired.
    let p = profile(&["keyword-allowed: anyOf (null branch)"]);
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"when":{"type":"string"}}})
    );
}

/// `unverified` and `warnings` are the warnings of the tool as repaired, counted per place as
/// `check` counts them: a rewrite's own (`oneOf` written as `anyOf`) among them, the input's
/// rewritten away not (trial 64 D1).
#[test]
fn the_warnings_left_are_those_of_the_tool_as_repaired() {
    let p = profile(&["keyword-allowed: oneOf"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "n":{"type":"integer"},
            "at":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    let mut expected: BTreeMap<String, usize> = BTreeMap::new();
    for f in findings(&r.tool, &p) {
        if f.level == Level::Warning {
            *expected.entry(f.parameter.to_string()).or_default() += 1;
        }
    }
    assert_eq!(expected.get("type-spelling: integer"), Some(&2));
    assert_eq!(expected.get("keyword-allowed: anyOf"), Some(&1));
    assert!(!expected.contains_key("keyword-allowed: oneOf"));
    assert_eq!(r.unverified, expected);
    assert_eq!(
        serde_json::to_value(&r).unwrap()["unverified"],
        serde_json::json!(expected.keys().collect::<Vec<_>>())
    );
}

/// A profile over one target that allows exactly `allowed`, rejects exactly `rejected` and has
/// no evidence for anything else.
fn profile_allowing(allowed: &[&str], rejected: &[&str]) -> CompiledProfile {
    let entry = |p: &&str, status| FeatureEntry {
        parameter: p.to_string(),
        placement: Placement::Nested,
        status,
        rejected_by: Vec::new(),
        unknown_for: Vec::new(),
        judged_elsewhere: Default::default(),
    };
    let features = allowed
        .iter()
        .map(|p| entry(p, Status::Allowed))
        .chain(rejected.iter().map(|p| entry(p, Status::Rejected)))
        .collect();
    CompiledProfile::new(&Profile {
        name: "test".into(),
        targets: vec!["test/target".into()],
        control: Status::Allowed,
        features,
        summary: Default::default(),
        meta_schema: Vec::new(),
    })
}

#[test]
fn a_type_in_another_case_is_lower_cased_unless_the_profile_allows_it_as_written() {
    // `Integer` has no evidence either way (a warning), `STRING` is allowed as written (as
    // Gemini allows it): the first is written in lower case, the second left alone.
    let p = profile_allowing(
        &[
            "type-spelling: object",
            "type-spelling: integer",
            "type-spelling: string",
            "type-spelling: STRING",
        ],
        &[],
    );
    let t = tool(
        "f",
        json!({"type":"object","properties":{"n":{"type":"Integer"},"s":{"type":"STRING"}}}),
    );
    let before = findings(&t, &p);
    assert!(
        before.iter().any(|f| f.level == Level::Warning
            && f.repairable
            && f.pointer == "/properties/n/type"),
        "{before:#?}"
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.as_ref().unwrap(),
        &json!({"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"STRING"}}})
    );
    assert_eq!(r.changes.len(), 1);
    assert_eq!(r.changes[0].pointer, "/properties/n/type");
    assert!(r.changes[0].lost.is_none());
    let type_findings = |t: &Tool| {
        let mut fs = findings(t, &p);
        fs.retain(|f| f.rule == "type-invalid");
        fs
    };
    assert_eq!(type_findings(&t).len(), 1);
    // Repair then check: clean of it (this hand-made profile has no evidence about names).
    assert_eq!(type_findings(&r.tool), Vec::new());
    assert!(
        !r.left_as_written
            .iter()
            .any(|l| l.starts_with("type-spelling")),
        "{:?}",
        r.left_as_written
    );
}

#[test]
fn a_type_in_another_case_that_cannot_be_lower_cased_is_left_not_refused() {
    // Lower case is rejected, the case variant has no evidence: the rewrite would bring in a
    // rejection, so the tool is passed on as written, the variant listed as unverified.
    let p = profile_allowing(&["type-spelling: object"], &["type-spelling: integer"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"n":{"type":"Integer"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Unchanged, "{:#?}", r.refusals);
    assert_eq!(r.tool, t);
    assert!(r.unverified.contains_key("type-spelling: Integer"));
}

/// `required: "d"` naming a declared property becomes `["d"]` (nothing lost); one that names
/// nothing declared is dropped with the loss said.
#[test]
fn a_required_string_becomes_a_list_when_it_names_a_property() {
    let p = profile(&["structure: required-not-array"]);
    let named = tool(
        "f",
        json!({"type":"object","properties":{"d":{"type":"string"}},"required":"d"}),
    );
    let r = repair_one(&named, &p);
    assert_eq!(r.tool.parameters.unwrap()["required"], json!(["d"]));
    assert!(r.changes[0].lost.is_none(), "{:?}", r.changes);
    let unnamed = tool(
        "g",
        json!({"type":"object","properties":{"d":{"type":"string"}},"required":"x"}),
    );
    let r = repair_one(&unnamed, &p);
    assert!(r.tool.parameters.unwrap().get("required").is_none());
    assert!(r.changes[0].lost.is_some(), "{:?}", r.changes);
}

/// `properties: null` declares no property, as `{}` does: it is written so, nested too, with
/// nothing lost; a list is no map and stays refused.
#[test]
fn properties_null_becomes_an_empty_map() {
    let p = profile(&["structure: properties-null", "structure: properties-list"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"o":{"type":"object","properties":null}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"o":{"type":"object","properties":{}}}})
    );
    let got: Vec<(&str, bool)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.lost.is_some()))
        .collect();
    assert_eq!(got, [("/properties/o/properties", false)]);
    let list = tool("g", json!({"type":"object","properties":[]}));
    assert_eq!(repair_one(&list, &p).outcome, Outcome::Refused);
}

/// `required` holding a non-string keeps the names it does give and reports what it dropped.
#[test]
fn required_keeps_its_names_when_it_also_lists_non_strings() {
    let p = profile(&["structure: required-not-array"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},
            "required":[1,"a",true,"b"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(r.tool.parameters.unwrap()["required"], json!(["a", "b"]));
    assert_eq!(r.changes.len(), 1, "{:#?}", r.changes);
    assert_eq!(r.changes[0].pointer, "/required");
    assert!(r.changes[0].action.contains("1, true"), "{:?}", r.changes);
    let lost = r.changes[0].lost.as_deref().unwrap_or_default();
    assert!(lost.contains("1, true"), "{lost}");
    // Nothing but non-strings: nothing is left to require.
    let only = tool(
        "g",
        json!({"type":"object","properties":{"a":{"type":"string"}},"required":[1]}),
    );
    let r = repair_one(&only, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert!(r.tool.parameters.unwrap().get("required").is_none());
    assert!(r.changes[0].lost.is_some(), "{:?}", r.changes);
}

/// A `required` name that only a `patternProperties` pattern declares is dropped as that
/// pattern's member, not as an undeclared name; other names keep the old reason.
#[test]
fn required_names_declared_by_a_pattern_are_named_as_its_members() {
    let p = profile(&[
        "structure: required-undeclared",
        "structure: required-without-properties",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"type":"string"}},
            "patternProperties":{"^x_":{"type":"integer"}},"required":["a","x_id","zz"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.tool.parameters.unwrap()["required"], json!(["a"]));
    assert_eq!(
        r.changes[0].action,
        "dropped \"x_id\", \"zz\" from `required` (\"x_id\": a member of the `patternProperties` \
         pattern `^x_`, not of `properties`; \"zz\": not declared in `properties`)"
    );
    let only = tool(
        "g",
        json!({"type":"object","patternProperties":{"^x_":{"type":"integer"}},"required":["x_id"]}),
    );
    let r = repair_one(&only, &p);
    assert_eq!(
        r.changes[0].lost.as_deref(),
        Some(
            "calls without \"x_id\" are no longer refused (a member of the `patternProperties` \
             pattern `^x_`, not of `properties`)"
        )
    );
}

/// `check` marks a name finding repairable exactly when repair renames the tool: a rename
/// onto a name another tool of the request is sent under (two renames alike, or the name of
/// a tool that keeps it) is no repair, and its fix says which tool it collides with.
#[test]
fn check_marks_a_rename_repairable_only_when_repair_makes_it() {
    let p = profile(&[
        "name-chars: dot",
        "name-chars: other-punctuation",
        "name-chars: space",
        "name-length-limit: 65",
    ]);
    let params = json!({"type":"object","properties":{"x":{"type":"string"}}});
    // A name too long, and a tool already named what repair would cut it to.
    let long = "n".repeat(70);
    let cut = rename::new_name(&long, &name_rule(&p));
    let requests: [&[&str]; 5] = [
        &["a!b", "a.b"],
        &["a!b", "a_b", "c.d"],
        &["lookup.user", "lookup user", "geo.dist", "geo_dist2"],
        &["x.y", "x:y"],
        &[&long, &cut],
    ];
    let mut compared = 0;
    for names in requests {
        let tools: Vec<Tool> = names.iter().map(|n| tool(n, params.clone())).collect();
        let refs: Vec<_> = tools.iter().enumerate().map(|(i, t)| t.as_ref(i)).collect();
        let findings = crate::check::check_tools(&refs, &p);
        let repaired = repair_request(&tools, &p, &Options::default());
        for (i, r) in repaired.iter().enumerate() {
            let named: Vec<_> = findings
                .iter()
                .filter(|f| {
                    f.tool_index == i
                        && ["name-invalid", "name-too-long"].contains(&f.rule.as_str())
                        && f.level == Level::Error
                })
                .collect();
            for f in &named {
                compared += 1;
                let refused = r.outcome == Outcome::Refused;
                assert_eq!(
                    f.repairable, !refused,
                    "{names:?} {}: {f:#?} {r:#?}",
                    r.name
                );
                if refused {
                    let why = &r.refusals[0].reason;
                    assert_eq!(r.refusals[0].rule, "name-duplicate");
                    // The fix quotes the census reason repair gives.
                    let reason = why.trim_start_matches("after repair, ");
                    assert!(f.fix.contains(reason), "{} / {why}", f.fix);
                }
            }
        }
    }
    // a!b, a.b; a!b, c.d; lookup.user, lookup user, geo.dist (x:y has no rejected kind); the
    // long name.
    assert_eq!(compared, 9);
}

/// A refusal says what is wrong and that repair does not guess: a `type` that is neither a
/// JSON Schema type nor a known spelling of one (`any` told apart), a `$ref` that is not a
/// string, and one to a definition the schema does not have.
#[test]
fn refusals_of_what_cannot_be_read_say_what_is_wrong() {
    let p = profile(&[
        "type-spelling: strin",
        "type-spelling: any",
        "structure: ref-unresolved",
    ]);
    let reason = |property: Value| -> String {
        let t = tool("f", json!({"type":"object","properties":{"a": property}}));
        let r = repair_tool(&t, 0, &p, &Options::default());
        assert_eq!(r.outcome, Outcome::Refused, "{r:#?}");
        r.refusals[0].reason.clone()
    };
    assert_eq!(
        reason(json!({"type":"strin"})),
        "`type: \"strin\"` is not a JSON Schema type (string, number, integer, boolean, array, \
         object, null) nor a known other spelling of one (such as `str` or `dict`); repair does \
         not guess which type was meant"
    );
    let any = reason(json!({"type":"any"}));
    assert!(
        any.starts_with("`type: \"any\"` means any value, but JSON Schema has no such type"),
        "{any}"
    );
    assert_eq!(
        reason(json!({"$ref": 5})),
        "`$ref` is 5 (a JSON number), not a reference (a `$ref` is a string such as \
         \"#/$defs/Item\"); repair does not guess which schema was meant"
    );
    assert_eq!(
        reason(json!({"$ref": "#/$defs/Gone"})),
        "`$ref` points to `#/$defs/Gone`, which is not in the schema, so there is nothing to \
         inline; repair does not guess which schema was meant"
    );
    // Each place of the kind names its own `$ref`, not the first one's.
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"$ref":{"x":1}},"b":{"$ref":5}}}),
    );
    let r = repair_tool(&t, 0, &p, &Options::default());
    let reasons: Vec<(&str, bool)> = r
        .refusals
        .iter()
        .map(|x| (x.pointer.as_str(), x.reason.starts_with("`$ref` is 5 ")))
        .collect();
    assert_eq!(
        reasons,
        [("/properties/a/$ref", false), ("/properties/b/$ref", true)]
    );
}

fn floats(n: usize) -> Tool {
    let props: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("p{i}"), json!({"type": "float"})))
        .collect();
    tool("wide", json!({"type": "object", "properties": props}))
}

/// Errors of one kind are repaired together, in one round: a tool with more of them than
/// repair has rounds is repaired, not refused as not settling (as it was before).
#[test]
fn many_errors_of_one_kind_are_repaired_in_one_round() {
    let p = profile(&["type-spelling: float"]);
    let n = MAX_ROUNDS + 50;
    let r = repair_one(&floats(n), &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    let props = r.tool.parameters.as_ref().unwrap()["properties"]
        .as_object()
        .unwrap();
    assert_eq!(props.len(), n);
    assert!(props.values().all(|v| v == &json!({"type": "number"})));
    // Listed in document order, as one round at a time would have listed them.
    let pointers: Vec<&str> = r.changes.iter().map(|c| c.pointer.as_str()).collect();
    let want: Vec<String> = (0..n).map(|i| format!("/properties/p{i}/type")).collect();
    assert_eq!(pointers, want);
}

/// A rewrite that also edits outside its own subschema (a nullable argument made optional
/// takes its name out of the parent's `required`) gives, done together, what it gives done
/// one at a time.
#[test]
fn rewrites_done_together_agree_with_one_at_a_time() {
    let p = profile(&["type-list: string,null"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "a":{"type":["string","null"]},"b":{"type":"string"},
            "c":{"type":["string","null"]},"d":{"type":["string","null"]}},
            "required":["a","b","c","d"]}),
    );
    let together = repair_one(&t, &p);
    assert_eq!(
        together.tool.parameters.as_ref().unwrap(),
        &json!({"type":"object","properties":{
            "a":{"type":"string"},"b":{"type":"string"},
            "c":{"type":"string"},"d":{"type":"string"}},"required":["b"]})
    );
    let mut one_at_a_time = t.clone();
    loop {
        let all = findings(&one_at_a_time, &p);
        let Some(f) = all.iter().find(|f| is_own_error(f)) else {
            break;
        };
        (one_at_a_time, _) = fix_finding_among(&one_at_a_time, &all, f, &p, &Options::default())
            .expect("each is repairable alone");
    }
    assert_eq!(together.tool, one_at_a_time);
    let pointers: Vec<&str> = together
        .changes
        .iter()
        .map(|c| c.pointer.as_str())
        .collect();
    assert_eq!(
        pointers,
        [
            "/properties/a/type",
            "/properties/c/type",
            "/properties/d/type"
        ]
    );
}

/// Past the work cap repair stops and says why, while rewriting a kind together or between
/// rounds, instead of growing with errors × size (a small cap here stands for
/// [`MAX_WORK`], which the largest inputs reach).
#[test]
fn a_tool_past_the_work_cap_is_refused_with_the_reason() {
    let p = profile(&["type-spelling: float"]);
    let opts = Options {
        max_work: 500,
        ..Options::default()
    };
    let r = repair_tool(&floats(100), 0, &p, &opts);
    assert_eq!(r.outcome, Outcome::Refused);
    let [refusal] = r.refusals.as_slice() else {
        panic!("one refusal: {:#?}", r.refusals);
    };
    let (done, rest) = refusal
        .reason
        .strip_prefix("repair gave up after copying and reading ")
        .and_then(|r| r.split_once(' '))
        .expect("says how much work was done");
    assert!(done.parse::<usize>().unwrap() > 500, "{}", refusal.reason);
    assert_eq!(
        rest,
        "schema values while rewriting 100 errors of `type-invalid` (type-spelling: float), \
         more than it does for one tool (500); the schema has 203 values"
    );
    let human = human(&r);
    assert!(
        human.contains("/  cannot repair: repair gave up"),
        "{human}"
    );
    assert!(
        !human.contains("[]"),
        "a refusal with no rule shows none: {human}"
    );
    // The default cap lets the same tool through.
    assert_eq!(repair_one(&floats(100), &p).outcome, Outcome::Repaired);
}

/// Errors of one kind that cannot be rewritten together (fixing them all lets the check see
/// another error) would each take a round that checks the whole schema: past the work cap
/// repair gives up before those rounds, not after them (240,000 misspelt types, 200,000 of
/// them seen, took minutes).
#[test]
fn a_kind_rewritten_one_at_a_time_past_the_cap_is_refused_at_once() {
    let set = crate::profile::embedded().expect("built-in profiles load");
    let p = CompiledProfile::new(set.get(crate::profile::PORTABLE).unwrap());
    let mut props: serde_json::Map<String, Value> = (0..60)
        .map(|i| (format!("p{i}"), json!({"type": "float"})))
        .collect();
    // A warning while the tool has another error, and an error (the meta-schema's) once the
    // floats are all numbers: rewriting them together brings in a new error.
    props.insert("q".into(), json!({"type": "strin"}));
    let t = tool("many", json!({"type": "object", "properties": props}));
    let cap = 20_000;
    let opts = Options {
        max_work: cap,
        ..Options::default()
    };
    let r = repair_tool(&t, 0, &p, &opts);
    assert_eq!(r.outcome, Outcome::Refused);
    let reason = &r.refusals.last().expect("a refusal").reason;
    assert!(
        reason.contains("rewritten together they bring in another error"),
        "{reason}"
    );
    let done: usize = reason
        .strip_prefix("repair gave up after copying and reading ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("says how much work was done");
    assert!(done <= cap, "gave up before the rounds: {reason}");
}

/// A kind with no repair takes a round that changes nothing, and such rounds do not count
/// toward [`MAX_ROUNDS`]: every one of more kinds than that is refused with its own reason,
/// and none is cut off as "did not settle".
#[test]
fn kinds_without_a_repair_are_each_refused_however_many() {
    let n = MAX_ROUNDS + 50;
    let props: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("p{i}"), json!({"type": format!("t{i}")})))
        .collect();
    let rejected: Vec<String> = (0..n).map(|i| format!("type-spelling: t{i}")).collect();
    let rejected: Vec<&str> = rejected.iter().map(String::as_str).collect();
    let p = profile(&rejected);
    let r = repair_one(
        &tool("many", json!({"type":"object","properties": props})),
        &p,
    );
    assert_eq!(r.outcome, Outcome::Refused);
    assert_eq!(r.refusals.len(), n, "{:#?}", r.refusals.last());
    assert!(
        r.refusals
            .iter()
            .all(|x| x.rule == "type-invalid" && x.reason.contains("is not a JSON Schema type"))
    );
}

/// References are inlined all at once, so the other references of the schema have nothing
/// left to inline: each is reported once, and (rewritten together) none is tried again on
/// the inlined schema, which cost a whole expansion per reference.
#[test]
fn many_references_are_inlined_once_and_reported_once_each() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $defs",
    ]);
    let props: serde_json::Map<String, Value> = (0..5)
        .map(|i| (format!("p{i}"), json!({"$ref": "#/$defs/S"})))
        .collect();
    let t = tool(
        "f",
        json!({"type":"object","properties": props,"$defs":{"S":{"type":"string"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired);
    let got: Vec<(&str, &str)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.action.as_str()))
        .collect();
    let mut want: Vec<(String, String)> = (0..5)
        .map(|i| {
            (
                format!("/properties/p{i}/$ref"),
                "inlined `$ref: #/$defs/S`".to_string(),
            )
        })
        .collect();
    want.push((
        "/$defs".into(),
        "dropped `$defs` (every reference to it is inlined)".into(),
    ));
    let want: Vec<(&str, &str)> = want.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    assert_eq!(got, want);
    let with_no_refs = tool(
        "g",
        json!({"type":"object","properties":{"a":{"type":"string"}}}),
    );
    let f = Finding {
        pointer: "/properties/a/$ref".into(),
        ..findings(&t, &p)
            .into_iter()
            .find(|f| f.pointer.ends_with("/$ref"))
            .expect("a `$ref` finding")
    };
    let e = fixes::candidates(
        &with_no_refs,
        &f,
        &p,
        &fixes::Memo::new(refs::MAX_INLINE_NODES),
    )
    .err();
    assert_eq!(e.as_deref(), Some("no `$ref` or `$defs` left to inline"));
}

/// A repaired schema that, with the levels of the file above it, would nest past the cap
/// every command reads is refused: repair never writes a file it cannot read back (inlining
/// a `$ref` makes a schema deeper).
#[test]
fn a_repair_that_would_nest_past_the_cap_in_its_file_is_refused() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $defs",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"$ref":"#/$defs/D"}},
               "$defs":{"D":{"type":"object","properties":{"b":{"type":"string"}}}}}),
    );
    let max = crate::input::LIMITS.max_depth;
    // Inlined: the root, its `properties`, `a`, its `properties`, `b`: five levels.
    let at = |envelope_depth| {
        let opts = Options {
            envelope_depth,
            ..Options::default()
        };
        repair_tool(&t, 0, &p, &opts)
    };
    assert_eq!(at(max - 5).outcome, Outcome::Repaired);
    let r = at(max - 4);
    assert_eq!(r.outcome, Outcome::Refused);
    let [refusal] = r.refusals.as_slice() else {
        panic!("one refusal: {:#?}", r.refusals);
    };
    assert_eq!(refusal.rule, "nesting-too-deep");
    assert_eq!(
        refusal.reason,
        format!(
            "repaired, the schema would nest 5 levels, {} in the file with the {} above it: \
             past the {max} levels every command reads",
            max + 1,
            max - 4
        )
    );
}

/// An envelope depth no file has (`usize::MAX`, from a caller's arithmetic) refuses the
/// repaired tool as nesting too deep, in every build: it neither panics on the sum (debug)
/// nor wraps it into a shallow one (release).
#[test]
fn an_envelope_depth_past_any_file_refuses_without_overflow() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $defs",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"a":{"$ref":"#/$defs/D"}},
               "$defs":{"D":{"type":"object","properties":{"b":{"type":"string"}}}}}),
    );
    let opts = Options {
        envelope_depth: usize::MAX,
        ..Options::default()
    };
    let r = repair_tool(&t, 0, &p, &opts);
    assert_eq!(r.outcome, Outcome::Refused);
    assert_eq!(r.refusals[0].rule, "nesting-too-deep");
    assert!(
        r.refusals[0]
            .reason
            .contains(&format!("{} in the file", usize::MAX)),
        "{}",
        r.refusals[0].reason
    );
    let own = profile_for(
        &["openai/chat"],
        &[
            "keyword-allowed: $ref (local $defs)",
            "keyword-allowed: $defs",
        ],
    );
    let compiled = crate::compile::compile(&[t], "openai/chat", &own, &opts).unwrap();
    assert_eq!(compiled.tools[0].outcome, Outcome::Refused);
}

/// A kind with no repair is refused at every place it is found, as check lists each, not
/// only at the first.
#[test]
fn a_kind_without_a_repair_is_refused_at_every_place() {
    let p = profile(&["type-spelling: anything"]);
    let props: serde_json::Map<String, Value> = (0..4)
        .map(|i| (format!("p{i}"), json!({"type": "anything"})))
        .collect();
    let r = repair_one(&tool("t", json!({"type":"object","properties": props})), &p);
    assert_eq!(r.outcome, Outcome::Refused);
    let places: Vec<&str> = r.refusals.iter().map(|x| x.pointer.as_str()).collect();
    assert_eq!(
        places,
        (0..4)
            .map(|i| format!("/properties/p{i}/type"))
            .collect::<Vec<_>>()
    );
    assert!(r.refusals.iter().all(|x| x.reason == r.refusals[0].reason));
}

/// What a dropped keyword says in the description is reported as written there, and is not
/// written twice when the description says it already.
#[test]
fn a_dropped_keyword_is_said_once_and_reported_as_written() {
    let p = profile(&["format-allowed: uuid"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "a":{"type":"string","format":"uuid"},
            "b":{"type":"string","format":"uuid","description":"An id. Format: uuid."}}}),
    );
    let r = repair_one(&t, &p);
    let props = &r.tool.parameters.as_ref().unwrap()["properties"];
    assert_eq!(props["a"]["description"], "Format: uuid.");
    assert_eq!(props["b"]["description"], "An id. Format: uuid.");
    assert!(
        r.changes[0]
            .action
            .ends_with("said in the description as \"Format: uuid.\""),
        "{:?}",
        r.changes[0].action
    );
}

/// A place refused for one reason under two kinds (a `$ref` that is plain and has siblings)
/// is listed once. (Where `allOf` is allowed the conflicting `type` is kept in one.)
#[test]
fn one_place_refused_for_one_reason_is_listed_once() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $ref (with siblings)",
        "keyword-allowed: $defs",
        "keyword-allowed: allOf",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"x":{"$ref":"#/$defs/N","type":"string"}},
               "$defs":{"N":{"type":"integer"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused);
    let listed: Vec<(&str, &str)> = r
        .refusals
        .iter()
        .map(|x| (x.pointer.as_str(), x.reason.as_str()))
        .collect();
    let mut once = listed.clone();
    once.dedup();
    assert_eq!(listed, once, "{:#?}", r.refusals);
    assert!(
        listed.iter().any(|(p, _)| *p == "/properties/x/$ref"),
        "{listed:?}"
    );
}

/// A target that takes `$ref` but only `description` and `default` beside it (Gemini's
/// JSON-Schema field, anomalyco/opencode#12295), in a schema whose `$ref`s cannot be inlined
/// (`Tree` is recursive): the other siblings are dropped, the reference and those two kept; a
/// `type` the target declares too loses nothing, another is reported.
#[test]
fn siblings_a_target_refuses_beside_a_reference_are_dropped() {
    let p = profile(&[
        "keyword-allowed: $ref (with type)",
        "keyword-allowed: $ref (with title)",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "options":{"type":"array","items":{"$ref":"#/$defs/Option","type":"object","title":"Option","description":"d","default":{}}},
            "n":{"$ref":"#/$defs/Option","type":"string"},
            "tree":{"$ref":"#/$defs/Tree"}},
            "$defs":{"Option":{"type":"object","properties":{"label":{"type":"string"}}},
                     "Tree":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Tree"}}}}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{r:#?}");
    let params = r.tool.parameters.as_ref().unwrap();
    assert_eq!(
        params["properties"]["options"]["items"],
        json!({"$ref":"#/$defs/Option","description":"d","default":{}})
    );
    assert_eq!(params["properties"]["n"], json!({"$ref":"#/$defs/Option"}));
    let lost = |at: &str| {
        r.changes
            .iter()
            .find(|c| c.pointer == at)
            .map(|c| c.lost.clone())
            .unwrap_or_else(|| panic!("no change at {at}: {:#?}", r.changes))
    };
    assert_eq!(lost("/properties/options/items/type"), None);
    assert!(
        lost("/properties/options/items/title").is_some_and(|l| l.contains("annotation")),
        "{:#?}",
        r.changes
    );
    assert!(
        lost("/properties/n/type")
            .is_some_and(|l| l.contains("no longer enforces `type: \"string\"`")),
        "{:#?}",
        r.changes
    );
}

/// Every other sibling beside a `$ref` (`enum`, `format`, `minProperties`...) is dropped for a
/// target that refuses `$ref (with other keywords)` where the `$ref`s cannot be inlined (`Tree`
/// is recursive), each loss reported; `description` and `default`, which the target allows,
/// stay.
#[test]
fn other_siblings_a_target_refuses_beside_a_reference_are_dropped() {
    let p = profile(&["keyword-allowed: $ref (with other keywords)"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "c":{"$ref":"#/$defs/C","enum":["a"],"format":"uri","description":"d","default":"a"},
            "tree":{"$ref":"#/$defs/Tree"}},
            "$defs":{"C":{"type":"string"},"Tree":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Tree"}}}}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{r:#?}");
    assert_eq!(
        r.tool.parameters.as_ref().unwrap()["properties"]["c"],
        json!({"$ref":"#/$defs/C","description":"d","default":"a"})
    );
    for at in ["/properties/c/enum", "/properties/c/format"] {
        assert!(
            r.changes.iter().any(|c| c.pointer == at
                && c.lost
                    .as_deref()
                    .is_some_and(|l| l.contains("no longer enforces"))),
            "{at}: {:#?}",
            r.changes
        );
    }
}

/// A keyword the schema's own draft never runs is dropped with nothing lost: a draft-07 `not`
/// beside a `$ref` (ignored there, draft-07 core §8.3) and a draft-06 `if` (no such keyword
/// before draft-07), with what rests on it, are no constraint `toolwire args` checks, and
/// neither goes into the description. Before (session 52): "lost: the provider no longer
/// enforces `not: {...}` (`toolwire args` still checks it ...)". The same keywords under
/// 2020-12 keep their loss.
#[test]
fn a_keyword_the_draft_never_runs_is_dropped_with_nothing_lost() {
    let p = profile(&["keyword-allowed: not", "keyword-allowed: if"]);
    let beside = |draft: &str| {
        let mut s = json!({"type":"object","properties":{
            "n":{"$ref":"#/definitions/a","not":{"type":"null"}},
            "m":{"type":"string","if":{"maxLength":3},"then":{"pattern":"^a"}}},
            "definitions":{"a":{"type":["string","null"]}}});
        if !draft.is_empty() {
            s["$schema"] = json!(draft);
        }
        repair_one(&tool("f", s), &p)
    };
    let lost = |r: &ToolRepair, at: &str| {
        let c = r
            .changes
            .iter()
            .find(|c| c.pointer == at)
            .unwrap_or_else(|| panic!("no change at {at}: {:#?}", r.changes));
        (c.action.clone(), c.lost.clone())
    };
    let r = beside("http://json-schema.org/draft-07/schema#");
    assert_eq!(r.outcome, Outcome::Repaired, "{r:#?}");
    let (action, loss) = lost(&r, "/properties/n/not");
    assert_eq!(loss, None, "{action}");
    assert!(
        action.contains("which draft-07 (the root's `$schema`) ignores beside `$ref`: nothing it enforced is lost"),
        "{action}"
    );
    // Draft-07 has `if`: its loss stays.
    assert!(lost(&r, "/properties/m/if").1.is_some(), "{:#?}", r.changes);
    let r = beside("http://json-schema.org/draft-06/schema#");
    assert_eq!(r.outcome, Outcome::Repaired, "{r:#?}");
    let (action, loss) = lost(&r, "/properties/m/if");
    assert_eq!(loss, None, "{action}");
    assert!(
        action.contains("which draft-06 (the root's `$schema`) does not have"),
        "{action}"
    );
    let m = &r.tool.parameters.as_ref().unwrap()["properties"]["m"];
    assert!(m.get("description").is_none(), "{m}");
    let r = beside("");
    for at in ["/properties/n/not", "/properties/m/if"] {
        assert!(
            lost(&r, at)
                .1
                .is_some_and(|l| l.contains("no longer enforces")),
            "{at}: {:#?}",
            r.changes
        );
    }
}

/// A narrowing sibling (`enum`) beside a `$ref` that the target refuses there is merged into
/// the reference's target by inlining, where the `$ref`s can be inlined and the profile takes
/// the result: nothing lost (trial 55 D15, before: `enum` dropped, "no longer enforces"); a
/// sibling that only annotates (`title`) is still dropped, the `$ref` kept.
/// A resource's `$id` beside a `$ref` is not dropped as an annotation where that `$ref` (or
/// another below it) resolves against it: without it, `#/$defs/B` named the root's `B`
/// (`minLength: 5`) instead of the resource's own (`maxLength: 1`), both verdicts inverted,
/// exit 0 (trial 57 D5). Refused, with the reason.
#[test]
fn an_id_a_reference_resolves_against_is_not_dropped_as_an_annotation() {
    let p = profile(&[
        "keyword-allowed: $ref (with other keywords)",
        "keyword-allowed: $ref (with title)",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"x":{"$ref":"#/$defs/A"}},
               "$defs":{"A":{"$id":"https://ex.com/a","$ref":"#/$defs/B",
                             "$defs":{"B":{"type":"string","maxLength":1}}},
                        "B":{"type":"string","minLength":5}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused, "{:#?}", r.changes);
    assert!(
        r.refusals
            .iter()
            .any(|x| x.reason.contains("resolves against this `$id`")),
        "{:#?}",
        r.refusals
    );
}

/// Under a draft (04 to 07) that ignores keywords beside a `$ref`, dropping one loses
/// nothing: no `lost:` line, and the change says why (trial 57 D7: "lost: the provider no
/// longer enforces `enum: [\"a\"]` (`toolwire args` still checks it ...)", which args, reading
/// draft-07, does not).
#[test]
fn a_sibling_the_draft_ignores_beside_a_reference_is_dropped_without_loss() {
    let p = profile(&[
        "keyword-allowed: $ref (with other keywords)",
        "keyword-allowed: $ref (with title)",
    ]);
    for extra in [
        json!({"enum":["a"]}),
        json!({"allOf":[{"minLength":2}],"minLength":1}),
    ] {
        let mut x = json!({"$ref":"#/definitions/A"});
        x.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let t = tool(
            "f",
            json!({"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
                   "properties":{"x":x},"definitions":{"A":{"type":"string"}}}),
        );
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{r:#?}");
        assert_eq!(
            r.tool.parameters.as_ref().unwrap()["properties"]["x"],
            json!({"$ref":"#/definitions/A"})
        );
        assert!(
            r.changes
                .iter()
                .all(|c| c.lost.is_none() && c.action.contains("ignores beside a `$ref`")),
            "{:#?}",
            r.changes
        );
    }
}

#[test]
fn a_narrowing_sibling_beside_a_reference_is_inlined_not_dropped() {
    let p = profile(&[
        "keyword-allowed: $ref (with other keywords)",
        "keyword-allowed: $ref (with title)",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{"value":{"$ref":"#/$defs/Id","enum":["abc","def"]}},
               "required":["value"],"$defs":{"Id":{"type":"string"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{r:#?}");
    assert_eq!(
        r.tool.parameters.as_ref().unwrap(),
        &json!({"type":"object","properties":{"value":{"type":"string","enum":["abc","def"]}},
                "required":["value"]})
    );
    assert!(
        r.changes.iter().all(|c| c.lost.is_none()),
        "{:#?}",
        r.changes
    );
    let titled = tool(
        "f",
        json!({"type":"object","properties":{"value":{"$ref":"#/$defs/Id","title":"V"}},
               "$defs":{"Id":{"type":"string"}}}),
    );
    let r = repair_one(&titled, &p);
    assert_eq!(
        r.tool.parameters.as_ref().unwrap()["properties"]["value"],
        json!({"$ref":"#/$defs/Id"})
    );
}

/// Siblings beside a `$ref` that check makes one finding of (refused on the same evidence,
/// under the first one's form) are dropped together (the recursive `Tree` keeps the `$ref`s
/// from being inlined), so check's "(repairable)" holds when
/// another `$ref` of the tool had the other form alone (before: the tool was refused, "the
/// profile rejects both ways of writing it", for a finding check called repairable).
#[test]
fn siblings_check_makes_one_finding_of_are_dropped_together() {
    let p = profile(&[
        "keyword-allowed: $ref (with title)",
        "keyword-allowed: $ref (with other keywords)",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "a":{"$ref":"#/$defs/C","enum":["red"]},
            "b":{"$ref":"#/$defs/C","enum":["red"],"title":"B"},
            "tree":{"$ref":"#/$defs/Tree"}},
            "$defs":{"C":{"type":"string","enum":["red","blue"]},"Tree":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/Tree"}}}}}}),
    );
    let found = findings(&t, &p);
    let at_b: Vec<&Finding> = found
        .iter()
        .filter(|f| f.pointer == "/properties/b/$ref" && f.level == Level::Error)
        .collect();
    assert_eq!(at_b.len(), 1, "{at_b:#?}");
    assert!(at_b[0].repairable);
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{r:#?}");
    assert!(r.refusals.is_empty(), "{:#?}", r.refusals);
    let params = r.tool.parameters.as_ref().unwrap();
    for name in ["a", "b"] {
        assert_eq!(params["properties"][name], json!({"$ref":"#/$defs/C"}));
    }
    for at in ["/properties/b/title", "/properties/b/enum"] {
        assert!(
            r.changes
                .iter()
                .any(|c| c.pointer == at && c.lost.is_some()),
            "{at}: {:#?}",
            r.changes
        );
    }
}

/// Where the profile refuses `$ref` itself, repair inlines the schema as well as dropping a
/// sibling, and a `$ref` it cannot inline (here one to nothing) refuses the whole tool: check
/// then does not call the sibling's finding repairable (before: "(repairable)", and repair
/// refused the tool).
#[test]
fn a_sibling_beside_a_ref_is_not_repairable_when_the_tool_cannot_be_inlined() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $ref (with title)",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "x":{"$ref":"#/$defs/C","title":"X"},
            "y":{"$ref":"#/$defs/Missing"}},
            "$defs":{"C":{"type":"string"}}}),
    );
    let found = findings(&t, &p);
    let titled: Vec<&Finding> = found
        .iter()
        .filter(|f| f.pointer == "/properties/x/$ref" && f.message.contains("title"))
        .collect();
    assert!(!titled.is_empty(), "{found:#?}");
    assert!(titled.iter().all(|f| !f.repairable), "{titled:#?}");
    assert_ne!(repair_one(&t, &p).outcome, Outcome::Repaired);
    // With every `$ref` resolvable, dropping the title and inlining both stand.
    let fine = tool(
        "f",
        json!({"type":"object","properties":{
            "x":{"$ref":"#/$defs/C","title":"X"}},
            "$defs":{"C":{"type":"string"}}}),
    );
    let found = findings(&fine, &p);
    assert!(
        found
            .iter()
            .filter(|f| f.pointer == "/properties/x/$ref" && f.message.contains("title"))
            .all(|f| f.repairable),
        "{found:#?}"
    );
    assert_eq!(repair_one(&fine, &p).outcome, Outcome::Repaired);
}

/// Where the profile refuses `$ref`, the keywords beside one are kept with the inlined
/// target (M5 of an adversarial trial): merged where one schema says both, an `allOf` of the
/// two where they set one keyword differently and the profile takes `allOf`, else the tool is
/// refused naming the `$ref` and the keyword. Each repaired tool is checked again
/// (`repair_one`).
#[test]
fn keywords_beside_an_inlined_ref_are_merged_kept_as_all_of_or_refused() {
    let refs = [
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $ref (with siblings)",
        "keyword-allowed: $defs",
    ];
    let defs = json!({"A":{"type":"object","description":"an A",
        "properties":{"k":{"type":"string"}},"required":["k"]}});
    let merged = tool(
        "m",
        json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A","description":"x",
            "properties":{"extra":{"type":"integer"}},"required":["extra"]}},"$defs":defs}),
    );
    let conflicting = tool(
        "c",
        json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A","description":"x",
            "properties":{"k":{"type":"string","maxLength":3}}}},"$defs":defs}),
    );
    let mut with_all_of = refs.to_vec();
    with_all_of.push("keyword-allowed: allOf");
    for rejected in [refs.to_vec(), with_all_of.clone()] {
        let r = repair_one(&merged, &profile(&rejected));
        assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
        assert_eq!(
            r.tool.parameters.unwrap()["properties"]["a"],
            json!({"type":"object","description":"x",
                "properties":{"k":{"type":"string"},"extra":{"type":"integer"}},
                "required":["k","extra"]})
        );
    }

    let r = repair_one(&conflicting, &profile(&refs));
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap()["properties"]["a"],
        json!({"description":"x","allOf":[defs["A"],
            {"properties":{"k":{"type":"string","maxLength":3}}}]})
    );
    let said = r
        .changes
        .iter()
        .find(|c| c.pointer == "/properties/a/$ref")
        .unwrap();
    assert!(
        said.action.contains("first branch of an `allOf`")
            && said.action.contains("both set `properties`"),
        "{said:?}"
    );

    let r = repair_one(&conflicting, &profile(&with_all_of));
    assert_eq!(r.outcome, Outcome::Refused);
    let at_ref = r
        .refusals
        .iter()
        .find(|x| x.pointer == "/properties/a/$ref")
        .unwrap();
    assert!(
        at_ref.reason.contains("sits next to `properties`")
            && at_ref.reason.contains("(at /properties/a/$ref)"),
        "{at_ref:?}"
    );
}

/// A rewrite keeps one value of a key written twice (the one read): each key whose dropped
/// values differ from it is a loss of its tool at its place, and none is when the values are
/// equal, when the output still writes the key twice, or when the tool is not written.
#[test]
fn keys_written_twice_are_losses_when_the_rewrite_drops_other_values() {
    let source = r#"[{"name":"a.b","description":"first","description":"second",
        "input_schema":{"type":"object","properties":{"q":{"type":"string",
        "maxLength":5,"maxLength":50,"minLength":1,"minLength":1}}}}]"#;
    let set =
        crate::input::from_bytes(std::path::Path::new("t.json"), source.as_bytes()).expect("reads");
    let r = repair_one(&Tool::from(&set.tools[0]), &profile(&[]));
    let placed = |repair| {
        [envelope::Placed {
            schema_pointer: &set.tools[0].schema_pointer,
            repair,
        }]
    };
    let rewritten = serde_json::from_str::<Value>(source).unwrap().to_string();
    let found = duplicates::losses(source, &rewritten, &set.tools, &placed(&r), false);
    let said: Vec<(Option<usize>, &str, &str, Option<&str>)> = found
        .iter()
        .map(|d| {
            let c = &d.change;
            (
                d.tool,
                c.pointer.as_str(),
                c.action.as_str(),
                c.lost.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        said,
        [
            (
                Some(0),
                "",
                "kept the last of the 2 values of `description` (\"first\", \"second\")",
                Some(
                    "the first is gone from the file: a provider that keeps the first would \
                     have read \"first\""
                )
            ),
            (
                Some(0),
                "/properties/q/maxLength",
                "kept the last of the 2 values of `maxLength` (5, 50)",
                Some(
                    "the first is gone from the file: a provider that keeps the first would \
                     have read 5"
                )
            ),
        ]
    );
    assert!(found.iter().all(|d| d.change.rule.is_empty()));
    // Written back as it was: nothing dropped.
    assert!(duplicates::losses(source, source, &set.tools, &placed(&r), false).is_empty());
    // A refused tool is left out (not written), unless kept.
    let refused = ToolRepair {
        outcome: Outcome::Refused,
        ..r.clone()
    };
    assert!(
        duplicates::losses(source, &rewritten, &set.tools, &placed(&refused), false).is_empty()
    );
    assert_eq!(
        duplicates::losses(source, &rewritten, &set.tools, &placed(&refused), true).len(),
        2
    );
}

/// A key of the request around the tools is dropped too, but is no tool's loss.
#[test]
fn a_key_written_twice_outside_the_tools_belongs_to_no_tool() {
    let source = r#"{"tools":[{"name":"a","input_schema":{"type":"object"}}],"x":1,"x":2}"#;
    let set =
        crate::input::from_bytes(std::path::Path::new("t.json"), source.as_bytes()).expect("reads");
    let r = repair_one(&Tool::from(&set.tools[0]), &profile(&[]));
    let placed = [envelope::Placed {
        schema_pointer: &set.tools[0].schema_pointer,
        repair: &r,
    }];
    let rewritten = serde_json::from_str::<Value>(source).unwrap().to_string();
    let found = duplicates::losses(source, &rewritten, &set.tools, &placed, false);
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].tool, found[0].at.key.as_str()), (None, "x"));
}

/// One `$ref` that cannot be inlined keeps every other from being inlined (repair inlines all
/// or none): the other places name that one and leave its reason to its own line, which
/// alone says what sits beside it.
#[test]
fn places_refused_for_another_refs_reason_name_that_ref_not_its_reason() {
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $ref (with siblings)",
        "keyword-allowed: $defs",
        "keyword-allowed: allOf",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "s":{"$ref":"#/$defs/A","pattern":"^a"},
            "n":{"$ref":"#/$defs/N","description":"n"}},
            "$defs":{"A":{"type":"string","pattern":"^b"},"N":{"type":"number"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused);
    let reason = |at: &str| {
        r.refusals
            .iter()
            .find(|x| x.pointer == at)
            .map(|x| x.reason.as_str())
            .unwrap_or_else(|| panic!("no refusal at {at}: {:#?}", r.refusals))
    };
    assert!(
        reason("/properties/s/$ref").contains("sits next to `pattern`"),
        "{:#?}",
        r.refusals
    );
    let other = "repair inlines all of the schema's `$ref`s or none, and cannot inline the one \
                 at /properties/s/$ref (see its line)";
    assert_eq!(reason("/properties/n/$ref"), other);
    assert_eq!(reason("/$defs"), other);
}

/// One line per place (trial H, r1.json under gemini/v1beta/parameters: `/properties/q/$ref`
/// was listed twice, the second line blaming `/properties/r/$ref`): the place's own reason is
/// kept over another `$ref`'s; refusals of the whole schema are all kept.
#[test]
fn a_place_refused_twice_is_listed_once_with_its_own_reason() {
    let refusal = |pointer: &str, reason: &str| Refusal {
        pointer: pointer.into(),
        rule: "ref-unsupported".into(),
        parameter: "keyword-allowed: $ref (local $defs)".into(),
        reason: reason.into(),
    };
    let other = "repair inlines all of the schema's `$ref`s or none, and cannot inline the one \
                 at /properties/r/$ref (see its line)";
    let mut listed = vec![
        refusal("/properties/q/$ref", other),
        refusal("/properties/r/$ref", "its own"),
        refusal("/properties/q/$ref", "q's own"),
        refusal("/properties/r/$ref", other),
        refusal("", "past the cap"),
        refusal("", "did not settle"),
    ];
    super::one_line_per_place(&mut listed);
    let said: Vec<(&str, &str)> = listed
        .iter()
        .map(|r| (r.pointer.as_str(), r.reason.as_str()))
        .collect();
    assert_eq!(
        said,
        [
            ("/properties/q/$ref", "q's own"),
            ("/properties/r/$ref", "its own"),
            ("", "past the cap"),
            ("", "did not settle"),
        ]
    );
}

/// Each place of a cycle is refused naming its own `$ref` (a user's mcp_cycle.json: `A → B`
/// and `B → A`, all three places were said to refer to `#/$defs/B`, the first one's).
#[test]
fn each_place_of_a_cycle_names_its_own_reference() {
    let p = profile(&[
        "keyword-allowed: $ref (self-reference)",
        "keyword-allowed: $defs",
    ]);
    let t = tool(
        "cycle",
        json!({"type":"object","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}},
               "properties":{"x":{"$ref":"#/$defs/A"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused);
    for (place, to) in [
        ("/$defs/A/$ref", "#/$defs/B"),
        ("/$defs/B/$ref", "#/$defs/A"),
        ("/properties/x/$ref", "#/$defs/A"),
    ] {
        let said = r.refusals.iter().find(|x| x.pointer == place);
        let said = said.map(|x| x.reason.as_str()).unwrap_or_default();
        assert!(
            said.starts_with(&format!("`$ref` to `{to}` is a cycle")),
            "{place}: {said}"
        );
    }
}

/// A refusal inside a definition names the place as written (a user's cyc.json: the line for
/// `$defs` named `/properties/n/properties/next/$ref`, a place only the expanded copy has),
/// with the `$ref` it was reached through after it.
#[test]
fn a_refusal_inside_a_definition_names_it_as_written() {
    let p = profile(&[
        "keyword-allowed: $ref (recursive)",
        "keyword-allowed: $defs",
    ]);
    let t = tool(
        "walk",
        json!({"type":"object","properties":{"n":{"$ref":"#/$defs/node"}},
               "$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused);
    let defs = r.refusals.iter().find(|x| x.pointer == "/$defs").unwrap();
    assert_eq!(
        defs.reason,
        "repair inlines all of the schema's `$ref`s or none, and cannot inline the one at \
         /$defs/node/properties/next/$ref, reached through /properties/n (see its line)"
    );
    assert!(
        r.refusals
            .iter()
            .all(|x| !x.reason.contains("/properties/n/properties")),
        "{:#?}",
        r.refusals
    );
}

/// Whether `refused` (a refusal's place) is the place of the finding at `finding`: the same
/// pointer, or the schema holding the keyword the finding names (`/a` for `/a/enum`).
fn same_place(finding: &str, refused: &str) -> bool {
    finding == refused
        || finding
            .strip_prefix(refused)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|k| !k.is_empty() && !k.contains('/'))
}

/// For every error `check` marks repairable, `repair` does not refuse that place, over shapes
/// the corpora hold (untyped and mixed `enum`s, `const`s, combinators, nullable and nested
/// schemas), under the built-in profiles repair is most often run with. Before: an untyped
/// `enum` of mixed kinds was marked repairable (`enum-not-string`) and refused
/// (`type-missing`), so a user told "repairable" got a refusal.
#[test]
fn check_marks_repairable_only_what_repair_does_not_refuse() {
    let set = crate::profile::embedded_set().unwrap();
    let shapes = [
        json!({"enum":["a",1]}),
        json!({"enum":["a",1,null]}),
        json!({"enum":[1,2]}),
        json!({"enum":[1,2.5]}),
        json!({"enum":[true,"x"]}),
        json!({"enum":["a","b",null]}),
        json!({"type":"integer","enum":[1,2]}),
        json!({"type":["string","integer"],"enum":["a",1]}),
        json!({"type":"string","enum":["a",null]}),
        json!({"const":1}),
        json!({"const":null}),
        json!({"anyOf":[{"type":"string"},{"type":"null"}],"default":"en"}),
        json!({"anyOf":[{"enum":["a",1]},{"type":"null"}]}),
        json!({"type":"array","items":{"enum":["a",1]}}),
        json!({"type":"array","items":{"enum":[1,2]}}),
        json!({"type":"object","properties":{"y":{"enum":["a",2]}}}),
        json!({"type":["string","null"],"format":"date-time","maxLength":9}),
        json!({"oneOf":[{"type":"string"},{"type":"integer"}]}),
        json!({"description":"anything"}),
        json!({"type":"string","pattern":"^a"}),
    ];
    for name in [
        crate::profile::PORTABLE,
        "gemini/v1beta/parameters",
        "openai/chat",
    ] {
        let p = CompiledProfile::new(set.get(name).expect("built in"));
        for shape in &shapes {
            let t = tool("f", json!({"type":"object","properties":{"x":shape}}));
            let promised: Vec<String> = errors(&t, &p)
                .into_iter()
                .filter(|f| f.repairable)
                .map(|f| f.pointer)
                .collect();
            let r = repair_tool(&t, 0, &p, &Options::default());
            for refusal in &r.refusals {
                assert!(
                    !promised.iter().any(|f| same_place(f, &refusal.pointer)),
                    "{name} {shape}: check calls {promised:?} repairable, repair refuses {refusal:#?}"
                );
            }
        }
    }
}

/// Changes of one kind at members of one object are summarised past ten in the human report
/// (strict mode made 4000 optional properties required, one line each), while runs in other
/// objects, and runs of ten, keep a line per change.
#[test]
fn long_runs_of_one_change_in_one_object_are_summed_up() {
    let p = profile(&["type-spelling: float"]);
    let mut r = repair_one(&floats(1), &p);
    let change = |pointer: String| Change {
        pointer,
        rule: "compile".into(),
        action: "made required".into(),
        emptied: false,
        lost: None,
    };
    r.changes.clear();
    // Interleaved, as passes over nested objects would write them.
    for i in 0..12 {
        r.changes
            .push(change(format!("/properties/a/properties/p{i}")));
        r.changes
            .push(change(format!("/properties/b/properties/p{i}")));
    }
    r.changes
        .extend((0..10).map(|i| change(format!("/properties/c/properties/p{i}"))));
    let human = human(&r);
    let lines = |prefix: &str| {
        human
            .lines()
            .filter(|l| l.starts_with(&format!("  {prefix}")))
            .count()
    };
    assert_eq!(lines("/properties/a/"), 5, "{human}");
    assert_eq!(lines("/properties/b/"), 5, "{human}");
    assert_eq!(lines("/properties/c/"), 10, "{human}");
    assert!(
        human.contains(
            "  ... and 7 more of /properties/a/properties, /properties/a/properties/p5 to \
             /properties/a/properties/p11, changed the same way [compile]"
        ),
        "{human}"
    );
    assert_eq!(human.matches("... and 7 more").count(), 2, "{human}");
    // The same rewrite of a keyword of each member (3000 `float` types, the README's
    // example) is a run too: its pointers differ in the member, not in their last token.
    r.changes = (0..12)
        .map(|i| change(format!("/properties/p{i}/type")))
        .collect();
    let typed = super::human(&r);
    assert_eq!(typed.matches("\n  /properties/p").count(), 5, "{typed}");
    assert!(
        typed.contains(
            "  ... and 7 more of /properties, /properties/p5/type to /properties/p11/type, \
             changed the same way [compile]"
        ),
        "{typed}"
    );
}

/// Refusals are summed up as changes are: 30 optional properties of a strict tool refused
/// under a plain target printed 30 lines differing only in the property's name (session 31's
/// trial). A name holding `/` is read as its pointer escapes it; a refusal for another reason
/// keeps its line.
#[test]
fn long_runs_of_one_refusal_in_one_object_are_summed_up() {
    let p = profile(&["type-spelling: float"]);
    let mut r = repair_one(&floats(1), &p);
    let refusal = |name: &str| Refusal {
        pointer: format!("/properties/{}", name.replace('~', "~0").replace('/', "~1")),
        rule: "strict-form-missing".into(),
        parameter: String::new(),
        reason: format!("`required` does not list `{name}`; compile writes it"),
    };
    r.refusals = (0..11).map(|i| refusal(&format!("p{i}"))).collect();
    r.refusals.push(refusal("a/b"));
    r.refusals.push(Refusal {
        reason: "another reason".into(),
        ..refusal("q")
    });
    let human = human(&r);
    assert_eq!(
        human.matches("cannot repair: `required`").count(),
        5,
        "{human}"
    );
    assert!(
        human.contains(
            "  ... and 7 more of /properties, /properties/p5 to /properties/a~1b, refused for \
             the same reason [strict-form-missing]"
        ),
        "{human}"
    );
    assert!(
        human.contains("/properties/q  cannot repair: another reason"),
        "{human}"
    );
}

#[test]
fn a_change_is_a_member_of_the_object_whose_property_it_is_at_or_under() {
    use super::member_of;
    assert_eq!(member_of("/properties/p3"), Some(("/properties", "")));
    assert_eq!(
        member_of("/properties/p3/type"),
        Some(("/properties", "/type"))
    );
    assert_eq!(
        member_of("/properties/a/properties/b~1c/items/type"),
        Some(("/properties/a/properties", "/items/type"))
    );
    assert_eq!(member_of("/items/anyOf/2"), Some(("/items/anyOf", "")));
    assert_eq!(member_of(""), None);
    // A property named `properties` is a member: its `type` is its own, not a member `type`.
    assert_eq!(
        member_of("/properties/properties/type"),
        Some(("/properties", "/type"))
    );
    assert_eq!(
        member_of("/properties/properties/properties/x"),
        Some(("/properties/properties/properties", ""))
    );
    assert_eq!(member_of("/properties/a~1b"), Some(("/properties", "")));
}

/// A `const` inside a `contains` the profile rejects was rewritten as an `enum` (a change
/// line for a rewrite the output does not keep), and the drop of `contains` then quoted
/// `{"enum":["z"],"type":"string"}`, a value never written (new-user trial). The inner error
/// now waits for the keyword around it: one change, quoting the value as given.
#[test]
fn an_error_inside_a_keyword_repair_drops_is_not_rewritten_first() {
    let p = crate::profile::embedded_set().unwrap();
    let gemini = CompiledProfile::new(p.get("gemini/v1beta/parameters").unwrap());
    let schema = json!({"type":"object","properties":{
        "b":{"type":"string","const":"x"},
        "e":{"type":"array","items":{"type":"string"},"contains":{"const":"z"}}}});
    let r = repair_one(&tool("f", schema), &gemini);
    assert_eq!(r.outcome, Outcome::Repaired, "{:?}", r.refusals);
    assert!(
        !r.changes
            .iter()
            .any(|c| c.pointer.starts_with("/properties/e/contains/")),
        "{:#?}",
        r.changes
    );
    let drop = r
        .changes
        .iter()
        .find(|c| c.pointer == "/properties/e/contains")
        .unwrap();
    assert!(
        drop.action.contains(r#"`contains: {"const":"z"}`"#),
        "{}",
        drop.action
    );
    // The same error outside the dropped keyword is still rewritten.
    assert!(
        r.changes
            .iter()
            .any(|c| c.pointer == "/properties/b/const" && c.action.contains("enum")),
        "{:#?}",
        r.changes
    );
}

/// A schema past the subschemas `check` counts toward toolwire's own cap is refused before
/// anything is rewritten, with that cap's rule and words (before: 200,000 `float` properties
/// were rewritten for 6 s, debug build, and refused saying the rewrites "bring in another
/// error", which came of check reading no further than 200,000 subschemas).
#[test]
fn a_schema_past_the_written_cap_is_refused_before_any_rewrite() {
    let wide = |n: usize| {
        let props: serde_json::Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "float"})))
            .collect();
        tool("wide", json!({"type": "object", "properties": props}))
    };
    let p = profile(&["type-spelling: float"]);
    let r = repair_one(&wide(crate::args::MAX_EXPANDED), &p);
    assert_eq!(r.outcome, Outcome::Refused);
    assert!(r.changes.is_empty(), "{:?}", r.changes);
    let x = &r.refusals[0];
    assert_eq!(
        (x.rule.as_str(), x.pointer.as_str()),
        ("ref-expansion-exceeded", "")
    );
    assert!(
        x.reason.starts_with(&format!(
            "the schema has {} subschemas as written",
            crate::args::MAX_EXPANDED + 1
        )),
        "{}",
        x.reason
    );
    // One fewer is within the cap, and repaired.
    let r = repair_one(&wide(crate::args::MAX_EXPANDED - 1), &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:?}", r.refusals);
}

/// Definitions no reference reaches are not what `args` refuses a schema for: repair does not
/// refuse a tool for them (trial 42: it said `args` refuses every call, which `args` did not).
#[test]
fn unreached_definitions_past_the_cap_are_not_refused_outright() {
    let defs: serde_json::Map<String, Value> = (0..crate::args::MAX_EXPANDED + 10)
        .map(|i| (format!("d{i}"), json!({"type": "string"})))
        .collect();
    let t = tool(
        "defs",
        json!({"type": "object", "properties": {"x": {"type": "string"}}, "$defs": defs}),
    );
    let r = repair_one(&t, &profile(&[]));
    assert!(
        r.refusals
            .iter()
            .all(|x| x.rule != "ref-expansion-exceeded"),
        "{:?}",
        r.refusals
    );
}

/// An `allOf` of one branch, at the root (`root-combinator`, which refused it: "the parameters
/// schema is not an object schema (allOf-with-type)") or below it (`keyword-unsupported`,
/// which refused it when both sides declared `properties`: trial 46 D8.9), is merged where
/// one schema says both: members pooled, `required` united, the two descriptions joined, the
/// schema's own first (trial 57 D3: the branch's was dropped unsaid). A keyword no one value says for both, or `additionalProperties` beside the branch's
/// `properties`, still refuses it; and check marks it repairable exactly when repair merges.
#[test]
fn a_single_all_of_branch_is_merged_where_one_schema_says_both() {
    let p = profile(&["root-shape: allOf-with-type", "keyword-allowed: allOf"]);
    let object = |extra: Value| {
        let mut o = json!({"type":"object","description":"own",
            "properties":{"name":{"type":"string"}},"required":["name"],
            "allOf":[{"type":"object","description":"base",
                "properties":{"id":{"type":"string"}},"required":["id"]}]});
        o.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        o
    };
    let merged = json!({"type":"object","description":"own. base",
        "properties":{"name":{"type":"string"},"id":{"type":"string"}},
        "required":["name","id"]});
    let at_root = tool("r", object(json!({})));
    let r = repair_one(&at_root, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(r.tool.parameters.clone().unwrap(), merged);
    assert!(
        r.changes
            .iter()
            .any(|c| c.pointer == "/allOf" && c.action.contains("merged the single `allOf`")),
        "{:#?}",
        r.changes
    );
    let below = tool(
        "b",
        json!({"type":"object","properties":{"o":object(json!({}))},"required":["o"]}),
    );
    let r = repair_one(&below, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(r.tool.parameters.unwrap()["properties"]["o"], merged);
    for (t, at) in [(&at_root, "/allOf"), (&below, "/properties/o/allOf")] {
        let found = errors(t, &p);
        assert!(
            found.iter().any(|f| f.pointer == at && f.repairable),
            "{found:#?}"
        );
    }

    for (extra, why) in [
        (
            json!({"type":"string"}),
            "no value satisfies both `allOf`'s `type`",
        ),
        (
            json!({"additionalProperties":false}),
            "`allOf`'s `properties` and the schema's own `additionalProperties` are each read",
        ),
    ] {
        for t in [
            tool("r", object(extra.clone())),
            tool(
                "b",
                json!({"type":"object","properties":{"o":object(extra.clone())}}),
            ),
        ] {
            let r = repair_one(&t, &p);
            assert_eq!(r.outcome, Outcome::Refused, "{extra}");
            assert!(
                r.refusals.iter().any(|x| x.reason.contains(why)),
                "{extra}: {:#?}",
                r.refusals
            );
            assert!(
                errors(&t, &p)
                    .iter()
                    .all(|f| !f.pointer.ends_with("allOf") || !f.repairable),
                "{extra}"
            );
        }
    }
}

/// Merging one `allOf` branch moves keywords into another schema object; those read with
/// others of their own object are not merged (trial 47: each was merged, exit 0, "0 losses",
/// into a schema accepting or refusing other calls): `minContains` beside the branch's
/// `contains` (D1), a draft-04 boolean `exclusiveMinimum` beside the other side's `minimum`
/// (D3), keywords put beside a `$ref` under draft-07 (D5), `unevaluatedProperties` (D11),
/// OpenAPI's `nullable` beside the branch's `type` (D13, and beside a `$ref`'s target), and a
/// `$ref` elsewhere pointing into the branch (D4). A chain of one-branch `allOf`s at the root
/// is merged whole (D6).
#[test]
fn a_single_all_of_branch_read_with_its_own_keywords_is_not_merged() {
    let p = profile(&[
        "root-shape: allOf-with-type",
        "keyword-allowed: allOf",
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: $ref (with siblings)",
        "keyword-allowed: $defs",
    ]);
    let refused = [
        (
            json!({"type":"array","items":{"type":"integer"},"minContains":2,
                "allOf":[{"contains":{"const":1}}]}),
            "`allOf`'s `contains` and the schema's own `minContains`",
        ),
        (
            json!({"type":"number","minimum":5,"allOf":[{"minimum":3,"exclusiveMinimum":true}]}),
            "`allOf`'s `exclusiveMinimum` and the schema's own `minimum`",
        ),
        (
            json!({"type":"object","$ref":"#/$defs/A",
                "allOf":[{"unevaluatedProperties":false}]}),
            "`unevaluatedProperties` is read with the other keywords of its own schema",
        ),
        (
            json!({"nullable":true,"allOf":[{"type":"string"}]}),
            "`allOf`'s `type` and the schema's own `nullable`",
        ),
        (
            json!({"type":"object","allOf":[{"properties":{"x":{"type":"string"}}}]}),
            "a `$ref` points into the `allOf`",
        ),
        // Trial 50 D18: a `$ref` naming the branch by its anchor would name the whole.
        (
            json!({"type":"string","maxLength":3,"allOf":[{"$anchor":"S","minLength":2}]}),
            "the branch declares `$anchor`",
        ),
    ];
    for (o, why) in refused {
        let mut params = json!({"type":"object","properties":{"o":o},
            "$defs":{"A":{"type":"object","properties":{"a":{"type":"string"}}}}});
        if why.contains("points into") {
            // Written as a URI fragment with an escape (`%6F` is `o`: trial 48 D15).
            params["properties"]["b"] = json!({"$ref":"#/properties/%6F/allOf/0/properties/x"});
        }
        let t = tool("t", params);
        // With `$ref` rejected, the one into the branch is inlined before the merge.
        let p = if why.contains("points into") {
            profile(&["keyword-allowed: allOf"])
        } else {
            p.clone()
        };
        let r = repair_one(&t, &p);
        assert!(
            r.refusals
                .iter()
                .any(|x| x.pointer == "/properties/o/allOf" && x.reason.contains(why)),
            "{why}: {:#?}",
            r.refusals
        );
    }

    let draft7 = tool(
        "d",
        json!({"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
            "properties":{"s":{"maxLength":3,"allOf":[{"$ref":"#/definitions/S"}]}},
            "definitions":{"S":{"type":"string"}}}),
    );
    let r = repair_one(&draft7, &p);
    assert!(
        r.refusals
            .iter()
            .any(|x| x.reason.contains("the draft the root's `$schema` declares")),
        "{:#?}",
        r.refusals
    );

    let chain = tool(
        "c",
        json!({"type":"object","properties":{"a":{"type":"string"}},
            "allOf":[{"allOf":[{"properties":{"b":{"type":"string"}},"required":["b"]}]}]}),
    );
    let r = repair_one(&chain, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},
            "required":["b"]})
    );
}

/// A root `anyOf`/`oneOf`/`not` beside `type: object` is refused saying that the root is an
/// object whose combinator says which arguments go together, not that it is "not an object
/// schema" and would need wrapping (trial 55 D3); a root combinator without a `type` keeps
/// that reason.
#[test]
fn a_root_combinator_beside_type_object_is_refused_for_what_it_says() {
    let p = profile(&["root-shape: anyOf-with-type", "root-shape: anyOf"]);
    let props = json!({"value":{"type":"string"},"name":{"type":"string"}});
    let either = json!([{"required":["value"]},{"required":["name"]}]);
    let reason = |params: Value| {
        let r = repair_one(&tool("r", params), &p);
        assert_eq!(r.outcome, Outcome::Refused);
        r.refusals
            .iter()
            .find(|f| f.pointer == "/anyOf")
            .map(|f| f.reason.clone())
            .unwrap_or_default()
    };
    let typed = reason(json!({"type":"object","properties":props,"anyOf":either}));
    assert!(
        typed.starts_with(
            "the root is an object schema, but its `anyOf` says which arguments are valid \
             together, and dropping it would accept calls it refuses. Make the root a plain \
             object"
        ),
        "{typed}"
    );
    let bare = reason(json!({"properties":props,"anyOf":either}));
    assert!(
        bare.starts_with("the parameters schema is not an object schema (anyOf)"),
        "{bare}"
    );
}

/// A root object without `properties` that names its members elsewhere (`required`, a root
/// `anyOf` as an MCP server writes beside a zod union, a one-branch `allOf`) is no tool
/// without arguments (trial 47 D9: its schema was left out, exit 0, "lost: the schema accepted
/// any arguments", and the output refused every call the original accepted): the `allOf` is
/// merged, the others refused with why, and check does not mark the finding repairable.
#[test]
fn a_root_naming_its_members_outside_properties_is_not_written_as_taking_none() {
    let p = profile(&[
        "root-shape: object-without-properties",
        "root-shape: no-arguments",
        "root-shape: allOf-with-type",
        "root-shape: anyOf-with-type",
    ]);
    let x = json!({"type":"string"});
    let merged = tool(
        "m",
        json!({"type":"object","properties":{},"allOf":[{"properties":{"x":x},"required":["x"]}]}),
    );
    let r = repair_one(&merged, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"x":x},"required":["x"]})
    );
    for params in [
        json!({"type":"object","required":["x"]}),
        json!({"type":"object","additionalProperties":{"type":"string"}}),
        json!({"type":"object","anyOf":[{"properties":{"x":x},"required":["x"]},
            {"properties":{"y":x},"required":["y"]}]}),
    ] {
        let t = tool("r", params.clone());
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Refused, "{params}");
        assert!(
            r.refusals
                .iter()
                .any(|f| f.pointer.is_empty() && f.reason.contains("outside `properties`")),
            "{params}: {:#?}",
            r.refusals
        );
        assert!(
            errors(&t, &p)
                .iter()
                .all(|f| f.rule != "object-properties-missing" || !f.repairable),
            "{params}"
        );
    }
    // A root that says nothing of members still takes none.
    let none = tool("n", json!({"type":"object"}));
    assert_eq!(repair_one(&none, &p).outcome, Outcome::Repaired);
}

/// An object declaring its members only in a one-branch `allOf` is given them by the merge,
/// which repair makes first, and check marks the `object-properties-missing` finding
/// repairable (trial 47 D10: it was refused first as "a free-form object: its members are not
/// declared"), with or without an empty `properties` beside the `allOf`.
#[test]
fn an_object_declaring_members_in_its_all_of_gets_them_from_the_merge() {
    let p = profile(&[
        "structure: object-without-properties",
        "structure: empty-properties",
        "keyword-allowed: allOf",
    ]);
    let branch = json!([{"properties":{"x":{"type":"string"}},"required":["x"]}]);
    for (o, at) in [
        (json!({"type":"object","allOf":branch}), "/properties/o"),
        (
            json!({"type":"object","properties":{},"allOf":branch}),
            "/properties/o/properties",
        ),
    ] {
        let t = tool(
            "t",
            json!({"type":"object","properties":{"o":o},"required":["o"]}),
        );
        let found = errors(&t, &p);
        assert!(
            found
                .iter()
                .any(|f| f.pointer == at && f.rule == "object-properties-missing" && f.repairable),
            "{found:#?}"
        );
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
        assert_eq!(
            r.tool.parameters.unwrap()["properties"]["o"],
            json!({"type":"object","properties":{"x":{"type":"string"}},"required":["x"]})
        );
    }
}

/// A root `{"$ref": ..}` to an object schema, with no `type` of its own, is an object: repair
/// writes `type: object` beside the `$ref` (and inlines it where `$ref` is rejected), as
/// compile does (before: refused as "a root with no `type` and no `properties`" under
/// `portable` and `openai/chat`, exit 1). A `$ref` to a string schema is still refused.
#[test]
fn a_root_ref_to_an_object_gets_its_type() {
    let set = crate::profile::embedded_set().unwrap();
    let defs = json!({"A":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]},
        "S":{"type":"string"}});
    for name in ["portable", "openai/chat"] {
        let p = CompiledProfile::new(set.get(name).unwrap());
        let schema = json!({"$ref":"#/$defs/A","$defs":defs});
        let r = repair_one(&tool("f", schema.clone()), &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{name}: {:?}", r.refusals);
        assert!(
            r.changes.iter().any(|c| c.pointer.is_empty()
                && c.action.contains("its `$ref` is to an object schema")
                && c.lost.is_none()),
            "{name}: {:#?}",
            r.changes
        );
        let repaired = r.tool.parameters.clone().unwrap();
        assert_eq!(repaired["type"], "object", "{name}: {repaired:#}");
        for s in [&schema, &repaired] {
            let v = jsonschema::validator_for(s).unwrap();
            assert!(v.is_valid(&json!({"x": "a"})), "{s:#}");
            assert!(!v.is_valid(&json!({})), "{s:#}");
        }
        let to_string = json!({"$ref":"#/$defs/S","$defs":defs});
        let r = repair_one(&tool("f", to_string), &p);
        assert_eq!(r.outcome, Outcome::Refused, "{name}");
    }
}

#[test]
fn a_type_list_a_single_all_of_branch_narrows_waits_for_the_merge() {
    // Trial 48 D1: the list was repaired first, so null (which the branch refuses) was
    // dropped by making the required argument optional, and a union the branch narrows to
    // one type was refused.
    let p = profile(&[
        "type-list: string,null",
        "type-list: string,integer",
        "keyword-allowed: allOf",
    ]);
    for list in [json!(["string", "null"]), json!(["string", "integer"])] {
        let t = tool(
            "t",
            json!({"type":"object","properties":{"n":{"type":list,"allOf":[{"type":"string"}]}},
                "required":["n"]}),
        );
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{list}: {:#?}", r.refusals);
        assert_eq!(
            r.tool.parameters.unwrap(),
            json!({"type":"object","properties":{"n":{"type":"string"}},"required":["n"]}),
            "{list}"
        );
        assert!(
            r.changes.iter().all(|c| c.lost.is_none()),
            "{list}: {:#?}",
            r.changes
        );
    }
}

#[test]
fn a_const_beside_an_enum_is_their_intersection_or_refused() {
    // Trial 48 D10: the one-value `enum` replaced the `enum` already there, so the output
    // accepted "c", which neither the `enum` nor the original allowed, with no loss said.
    let p = profile(&["keyword-allowed: const", "keyword-allowed: allOf"]);
    let s = |x: Value| {
        tool(
            "t",
            json!({"type":"object","properties":{"s":x},"required":["s"]}),
        )
    };
    for (x, at, why) in [
        (
            json!({"type":"string","enum":["a","b"],"const":"c"}),
            "/properties/s/const",
            "no value satisfies both `const: \"c\"` and the `enum`",
        ),
        (
            json!({"type":"string","enum":["a","b"],"allOf":[{"const":"c"}]}),
            "/properties/s/allOf",
            "no value satisfies both the values the schema allows (`\"a\"`, `\"b\"`) and \
             those its `allOf` branch allows (`\"c\"`)",
        ),
        // Two `const`s, the schema's written as a one-value `enum` by the rewrite: said by
        // value, not as a `const` and an `enum` (trial 50).
        (
            json!({"type":"string","const":"a","allOf":[{"const":"b"}]}),
            "/properties/s/allOf",
            "no value satisfies both the values the schema allows (`\"a\"`) and those its \
             `allOf` branch allows (`\"b\"`)",
        ),
    ] {
        let t = s(x.clone());
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Refused, "{x}: {:#?}", r.changes);
        assert!(
            r.refusals
                .iter()
                .any(|f| f.pointer == at && f.reason.contains(why)),
            "{x}: {:#?}",
            r.refusals
        );
        let found = errors(&t, &p);
        assert!(
            found.iter().any(|f| f.pointer == at && !f.repairable),
            "{found:#?}"
        );
    }
    let r = repair_one(
        &s(json!({"type":"string","enum":["a","b"],"const":"b"})),
        &p,
    );
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap()["properties"]["s"],
        json!({"type":"string","enum":["b"]})
    );
}

#[test]
fn keywords_a_draft_07_ignores_beside_a_ref_are_not_pooled_with_its_target() {
    // Trial 48 D4: `required: ["y"]` beside the `$ref`, which draft-07 (and `toolwire args`)
    // ignores, was inlined into the target, so the output refused {"o": {"x": "a"}}.
    let p = profile(&[
        "keyword-allowed: $ref (local $defs)",
        "keyword-allowed: definitions",
    ]);
    let schema = |draft: Option<&str>| {
        let mut s = json!({"type":"object",
            "properties":{"o":{"$ref":"#/definitions/O","required":["y"]}},
            "definitions":{"O":{"type":"object",
                "properties":{"x":{"type":"string"},"y":{"type":"string"}},"required":["x"]}}});
        if let Some(d) = draft {
            s["$schema"] = json!(d);
        }
        tool("t", s)
    };
    let r = repair_one(&schema(Some("http://json-schema.org/draft-07/schema#")), &p);
    assert_eq!(r.outcome, Outcome::Refused, "{:#?}", r.changes);
    assert!(
        r.refusals.iter().any(|f| f
            .reason
            .contains("has `required` beside it, which the draft")),
        "{:#?}",
        r.refusals
    );
    let r = repair_one(&schema(None), &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    // One that only annotates, or says what the target says, changes no call: inlined
    // (trial 50 D14: refused by the first form of this guard).
    for (k, v) in [
        ("deprecated", json!(true)),
        ("readOnly", json!(true)),
        ("type", json!("object")),
    ] {
        let mut t = schema(Some("http://json-schema.org/draft-07/schema#"));
        let o = &mut t.parameters.as_mut().unwrap()["properties"]["o"];
        o.as_object_mut().unwrap().shift_remove("required");
        o[k] = v;
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{k}: {:#?}", r.refusals);
    }
}

/// Trial 88 D1: `then` and `else` go with a dropped `if` (without it they mean nothing,
/// 2020-12 core §10.2.2.2-3), as compile drops them, each with a loss naming the condition it
/// applied under, or none where it asserted nothing. Before, they were kept, and the report
/// called the warnings a check of the output gives on them "written by repair".
#[test]
fn then_and_else_go_with_a_dropped_if() {
    let p = profile(&["keyword-allowed: if"]);
    let params = json!({"type":"object","properties":{"k":{"type":"string"},
        "x":{"type":"integer"},"y":{"type":"integer"}},
        "if":{"properties":{"k":{"const":"a"}}},"then":{"required":["x"]},"else":{}});
    let r = repair_one(&tool("t", params), &p);
    let out = r.tool.parameters.clone().unwrap();
    assert!(
        ["if", "then", "else"].iter().all(|k| out.get(k).is_none()),
        "{out}"
    );
    let got: Vec<(&str, &str, Option<&str>)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.rule.as_str(), c.lost.as_deref()))
        .collect();
    assert_eq!(
        got[1..],
        [
            (
                "/then",
                "",
                Some(
                    "the provider no longer enforces `then: {\"required\":[\"x\"]}` where \
                     `if: {\"properties\":{\"k\":{\"const\":\"a\"}}}` holds (`toolwire args` \
                     still checks it against the original schema)"
                )
            ),
            ("/else", "", None),
        ]
    );
    assert!(r.introduced.is_empty(), "{:?}", r.introduced);
}

/// A keyword whose meaning rests on a dropped one goes with it: `additionalProperties` beside
/// a dropped `patternProperties`, `then` and `unevaluatedProperties` beside a dropped `if`,
/// `unevaluatedItems` beside a dropped `contains` (trial 51 D5: kept, they refused calls the
/// schema accepts, exit 0, the loss saying only that the dropped keyword was not enforced).
/// Each goes with a loss of its own and no rule; what accepts every value, or rests on a
/// keyword still there, stays.
#[test]
fn what_rests_on_a_dropped_keyword_goes_with_it() {
    for (rejected, schema, call, gone, kept) in [
        (
            "keyword-allowed: patternProperties",
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "patternProperties":{"^x":{"type":"integer"}},"additionalProperties":false}),
            json!({"x1":1}),
            vec!["/patternProperties", "/additionalProperties"],
            vec![],
        ),
        (
            "keyword-allowed: if",
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "if":{"required":["a"]},"then":{"properties":{"b":{"type":"integer"}}},
                "unevaluatedProperties":false}),
            json!({"a":"s","b":1}),
            vec!["/if", "/then", "/unevaluatedProperties"],
            vec![],
        ),
        (
            "keyword-allowed: contains",
            json!({"type":"array","contains":{"type":"string"},
                "unevaluatedItems":{"type":"integer"}}),
            json!(["a", 1]),
            vec!["/contains", "/unevaluatedItems"],
            vec![],
        ),
        (
            "keyword-allowed: patternProperties",
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "patternProperties":{"^x":{"type":"integer"}},
                "additionalProperties":{"description":"anything"},
                "unevaluatedProperties":false}),
            json!({"x1":1,"y":"s"}),
            vec!["/patternProperties"],
            vec!["additionalProperties", "unevaluatedProperties"],
        ),
        // Around the place (trial 52 D1): an `allOf` branch's `if`, a definition's `if`.
        (
            "keyword-allowed: if",
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "allOf":[{"if":{"required":["a"]},"then":{"properties":{"b":{"type":"integer"}}}}],
                "unevaluatedProperties":false}),
            json!({"a":"s","b":1}),
            vec!["/allOf/0/if", "/allOf/0/then", "/unevaluatedProperties"],
            vec!["allOf"],
        ),
        (
            "keyword-allowed: if",
            json!({"type":"object","properties":{"a":{"type":"string"}},
                "$defs":{"C":{"if":{"required":["a"]},"then":{"properties":{"b":{"type":"integer"}}}}},
                "$ref":"#/properties/v/$defs/C","unevaluatedProperties":false}),
            json!({"a":"s","b":1}),
            vec!["/$defs/C/if", "/$defs/C/then", "/unevaluatedProperties"],
            vec!["$ref"],
        ),
    ] {
        let p = profile(&[rejected]);
        let params = json!({"type":"object","properties":{"v":schema},"required":["v"]});
        let r = repair_one(&tool("t", params.clone()), &p);
        let got: Vec<String> = r
            .changes
            .iter()
            .map(|c| c.pointer.trim_start_matches("/properties/v").to_string())
            .collect();
        assert_eq!(got, gone, "{schema}");
        for c in &r.changes[1..] {
            assert!(c.rule.is_empty() && c.lost.is_some(), "{c:?}");
        }
        let out = r.tool.parameters.unwrap();
        for k in kept {
            assert!(
                out["properties"]["v"].get(k).is_some(),
                "{k} dropped: {out}"
            );
        }
        let call = json!({"v": call});
        assert!(jsonschema::validator_for(&params).unwrap().is_valid(&call));
        assert!(
            jsonschema::validator_for(&out).unwrap().is_valid(&call),
            "{schema} → {out} refuses {call}"
        );
    }
}

#[test]
fn a_draft_07_schema_deciding_a_list_items_is_a_tuple_is_not_dropped() {
    // Trial 54 D11: dropping `$schema` left `items: [...]` read as 2020-12, where it is no
    // valid schema (`args` exit 2), while compile said only an annotation was lost.
    let p = profile(&[
        "keyword-allowed: $schema",
        "keyword-allowed: $schema (draft-07)",
    ]);
    let t = tool(
        "t",
        json!({"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
            "properties":{"t":{"type":"array","items":[{"type":"string"}],"additionalItems":false}},
            "required":["t"]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused, "{:#?}", r.changes);
    assert!(
        r.refusals.iter().any(|f| f.pointer == "/$schema"
            && f.reason
                .contains("reads the list `items` at /properties/t/items as a tuple")),
        "{:#?}",
        r.refusals
    );
    let found = crate::check::check_tools(&[t.as_ref(0)], &p)
        .into_iter()
        .find(|f| f.pointer == "/$schema")
        .expect("$schema reported");
    assert!(!found.repairable);
    assert!(
        found.fix.starts_with(
            "Rewrite the list `items` at /properties/t/items as `prefixItems` (and any \
             `additionalItems` beside it as `items`) first, then remove `$schema`"
        ),
        "{}",
        found.fix
    );
}

#[test]
fn a_draft_07_schema_deciding_a_ref_sibling_is_ignored_is_not_dropped() {
    // Trial 50 D2: dropping `$schema` made `required: ["y"]` beside the `$ref` apply (read as
    // 2020-12), so the output refused {"o": {"x": "a"}}, which the original accepts, exit 0.
    let p = profile(&[
        "keyword-allowed: $schema",
        "keyword-allowed: $schema (draft-07)",
    ]);
    let schema = |beside: Value| {
        let mut o = json!({"$ref":"#/definitions/O"});
        o.as_object_mut()
            .unwrap()
            .extend(beside.as_object().unwrap().clone());
        tool(
            "t",
            json!({"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
                "properties":{"o": o},
                "definitions":{"O":{"type":"object",
                    "properties":{"x":{"type":"string"},"y":{"type":"string"}},"required":["x"]}}}),
        )
    };
    let repairable = |t: &Tool| {
        crate::check::check_tools(&[t.as_ref(0)], &p)
            .into_iter()
            .find(|f| f.pointer == "/$schema")
            .expect("$schema reported")
            .repairable
    };
    let t = schema(json!({"required":["y"]}));
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused, "{:#?}", r.changes);
    assert!(
        r.refusals.iter().any(|f| f.pointer == "/$schema"
            && f.reason.contains(
                "ignores `required` beside the `$ref` at /properties/o/$ref; without `$schema`"
            )),
        "{:#?}",
        r.refusals
    );
    assert!(!repairable(&t));
    // Beside it only an annotation, or what the target says already: nothing changes.
    for beside in [json!({"description":"d"}), json!({"type":"object"})] {
        let t = schema(beside);
        assert_eq!(repair_one(&t, &p).outcome, Outcome::Repaired);
        assert!(repairable(&t));
    }
    // Check's fix says so too, not "it only annotates" (the advice trial 52's helpers noted):
    // per tool, though the plain `$schema` of another tool of the file is checked first.
    let plain = schema(json!({"description":"d"}));
    let fixes: Vec<String> = crate::check::check_tools(&[plain.as_ref(0), t.as_ref(1)], &p)
        .into_iter()
        .filter(|f| f.pointer == "/$schema")
        .map(|f| f.fix.to_string())
        .collect();
    assert_eq!(fixes.len(), 2, "{fixes:?}");
    assert_eq!(
        fixes[0],
        "Remove `$schema`: it only annotates, so no argument changes."
    );
    assert!(
        fixes[1].starts_with(
            "Remove `required` beside the `$ref` at /properties/o/$ref first (and any other \
             keyword beside a `$ref` but `$defs` and `definitions`, which a `$ref` may point \
             into: the draft `$schema` declares (04 to 07) ignores them there), then `$schema`"
        ),
        "{}",
        fixes[1]
    );
}

/// Trial 54 D4 (second shape): the draft `$schema` fix told to remove "any other keyword
/// beside a `$ref`", which took along a `definitions` another `$ref` points into (`args` then
/// exits 2, "$ref to a missing definition"); and where the draft also makes a list `items` a
/// tuple, the fix named only the keyword beside the `$ref` (the tuple then no valid schema).
#[test]
fn the_draft_schema_fix_keeps_definitions_and_names_each_thing_the_draft_decides() {
    let p = profile(&["keyword-allowed: $schema (draft-07)"]);
    let fix = |properties: Value| {
        let t = tool(
            "t",
            json!({"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
                "properties":properties,
                "definitions":{"O":{"type":"object","properties":{"y":{"type":"string"}}}}}),
        );
        crate::check::check_tools(&[t.as_ref(0)], &p)
            .into_iter()
            .find(|f| f.pointer == "/$schema")
            .expect("$schema reported")
            .fix
            .to_string()
    };
    let o = json!({"$ref":"#/definitions/O","required":["y"],
        "definitions":{"B":{"type":"integer","maximum":3}}});
    let f = fix(json!({"o":o,"p":{"$ref":"#/properties/o/definitions/B"}}));
    assert!(
        f.contains("any other keyword beside a `$ref` but `$defs` and `definitions`, which a `$ref` may point into"),
        "{f}"
    );
    let tuple = json!({"type":"array","items":[{"type":"string"}],"additionalItems":false});
    let f = fix(json!({"o":o,"t":tuple}));
    assert!(f.starts_with("Remove `required` beside the `$ref`"), "{f}");
    assert!(
        f.contains(" Rewrite the list `items` at /properties/t/items as `prefixItems`"),
        "{f}"
    );
}

/// Trial 54 D2: `$id` sets the base URI a `$ref` below it resolves against (2020-12 core
/// §8.2.1, §9.1.2): removing it, as "it only annotates, so no argument changes" said, makes
/// `#/$defs/V` reach the root's `V` (an integer, not the string). The fix now says to inline
/// that `$ref` first; an `$id` no `$ref` resolves through keeps the plain fix, in a tool with
/// `$ref`s and in one checked before the other (the fix is not remembered for the key).
#[test]
fn an_id_a_ref_resolves_through_is_not_removed_alone() {
    let p = profile(&["keyword-allowed: $id"]);
    let inner = |v: Value| {
        json!({"$id":"https://ex.com/inner","type":"object","properties":{"v":v},
            "$defs":{"V":{"type":"string"}}})
    };
    let with = |a: Value, extra: Value| {
        let mut properties = json!({"a": a});
        properties
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        tool(
            "t",
            json!({"type":"object","properties":properties,"$defs":{"V":{"type":"integer"}}}),
        )
    };
    let scoped = with(inner(json!({"$ref":"#/$defs/V"})), json!({}));
    let plain = with(
        inner(json!({"type":"string"})),
        json!({"r":{"$ref":"#/$defs/V"}}),
    );
    let named = with(
        inner(json!({"type":"string"})),
        json!({"r":{"$ref":"https://ex.com/inner"}}),
    );
    let fixes: Vec<String> =
        crate::check::check_tools(&[plain.as_ref(0), scoped.as_ref(1), named.as_ref(2)], &p)
            .into_iter()
            .filter(|f| f.pointer == "/properties/a/$id")
            .map(|f| f.fix.to_string())
            .collect();
    assert_eq!(fixes.len(), 3, "{fixes:?}");
    assert_eq!(
        fixes[0],
        "Remove `$id`: it only annotates, so no argument changes."
    );
    assert!(
        fixes[1].starts_with(
            "Inline (or rewrite) the `$ref` at /properties/a/properties/v/$ref first (and any \
             other `$ref` resolved through this `$id`), then remove `$id`"
        ),
        "{}",
        fixes[1]
    );
    // A `$ref` naming the resource by its URI no longer reaches it either.
    assert!(
        fixes[2].starts_with("Inline (or rewrite) the `$ref` at /properties/r/$ref first"),
        "{}",
        fixes[2]
    );
}

/// Trial 54 D5: under a draft-04 `$schema`, `id` is the keyword that sets a base URI (draft-04
/// core §7.2), so removing it, or removing the `$schema` (the schema is then read as 2020-12,
/// where `id` is no keyword), makes `#/definitions/V` below it reach the root's `V`. Both
/// fixes say to inline that `$ref` first; an `id` nothing resolves through is no longer said
/// to be "not a JSON Schema keyword" there, as it still is under 2020-12.
#[test]
fn a_draft_04_id_and_schema_a_ref_resolves_through_are_not_removed_alone() {
    let p = profile(&[
        "keyword-allowed: id",
        "keyword-allowed: $schema (other draft)",
    ]);
    let draft04 = |v: Value| {
        tool(
            "t",
            json!({"$schema":"http://json-schema.org/draft-04/schema#","type":"object",
                "properties":{"a":{"id":"http://ex.com/inner","type":"object",
                    "properties":{"v":v},"definitions":{"V":{"type":"string"}}}},
                "definitions":{"V":{"type":"integer"}}}),
        )
    };
    let fixes = |t: &Tool| -> Vec<(String, String)> {
        crate::check::check_tools(&[t.as_ref(0)], &p)
            .into_iter()
            .filter(|f| f.pointer == "/$schema" || f.pointer == "/properties/a/id")
            .map(|f| (f.pointer.clone(), f.fix.to_string()))
            .collect()
    };
    let scoped = fixes(&draft04(json!({"$ref":"#/definitions/V"})));
    assert_eq!(scoped.len(), 2, "{scoped:?}");
    for (at, fix) in &scoped {
        assert!(
            fix.starts_with(
                "Inline (or rewrite) the `$ref` at /properties/a/properties/v/$ref first"
            ),
            "{at}: {fix}"
        );
    }
    assert!(scoped[0].1.ends_with(
        "then remove `$schema`: the draft it declares (04 to 07) resolves it through the `id` \
         around it, and without `$schema` the schema is read as 2020-12, where that `$ref` \
         reaches another schema (or none) and other arguments are accepted."
    ));
    let plain = fixes(&draft04(json!({"type":"string"})));
    assert_eq!(
        plain,
        [
            (
                "/$schema".to_string(),
                "Remove `$schema`: it only annotates, so no argument changes.".to_string()
            ),
            (
                "/properties/a/id".to_string(),
                "Remove `id`: no `$ref` resolves through it, so no argument changes (under the \
                 draft-04 `$schema` it names the schema)."
                    .to_string()
            )
        ]
    );
}

#[test]
fn each_single_all_of_branch_is_refused_for_its_own_reason_only() {
    // Trial 50 D3: the first `allOf` refused gave its reason to every later one of the tool (a
    // `$ref` pointing into it, a `const` outside the `enum`), though they merge, and `check`
    // called them repairable.
    let p = profile(&["keyword-allowed: allOf"]);
    let one = |extra: Value| json!({"type":"string","minLength":1,"allOf":[extra]});
    let cases = [
        (
            json!({"p":one(json!({"maxLength":4})),"z":one(json!({"maxLength":5})),
                "p/x":one(json!({"maxLength":6})),"q":{"$ref":"#/properties/p/allOf/0"}}),
            "/properties/p/allOf",
        ),
        (
            json!({"a/b":one(json!({"maxLength":4})),"a~c":one(json!({"maxLength":5})),
                "q":{"$ref":"#/properties/a~1b/allOf/0"}}),
            "/properties/a~1b/allOf",
        ),
        (
            json!({"a/b":one(json!({"maxLength":4})),"a~c":one(json!({"maxLength":5})),
                "q":{"$ref":"#/properties/a~0c/allOf/0"}}),
            "/properties/a~0c/allOf",
        ),
        (
            json!({"s":{"type":"string","enum":["a","b"],"allOf":[{"const":"c"}]},
                "w":{"type":"string","enum":["a","b"],"allOf":[{"const":"a"}]}}),
            "/properties/s/allOf",
        ),
    ];
    for (properties, refused) in cases {
        let t = tool("t", json!({"type":"object","properties":properties}));
        let r = repair_one(&t, &p);
        let at: Vec<&str> = r.refusals.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(at, [refused], "{:#?}", r.refusals);
        // Check marks repairable exactly the `allOf`s repair merges.
        for f in crate::check::check_tools(&[t.as_ref(0)], &p) {
            if f.pointer.ends_with("/allOf") {
                assert_eq!(f.repairable, f.pointer != refused, "{}", f.pointer);
            }
        }
    }
}

/// A count of one is said in the singular in the description (trial 52 noted "At most 1
/// entries.").
#[test]
fn a_count_of_one_entry_is_said_in_the_singular() {
    let p = profile(&[
        "keyword-allowed: maxProperties",
        "keyword-allowed: minProperties",
    ]);
    let t = tool(
        "t",
        json!({"type":"object","properties":{
            "o":{"type":"object","maxProperties":1,"description":"Options"},
            "q":{"type":"object","minProperties":2}}}),
    );
    let out = repair_one(&t, &p).tool.parameters.unwrap();
    assert_eq!(
        out["properties"]["o"]["description"],
        "Options. At most 1 entry."
    );
    assert_eq!(out["properties"]["q"]["description"], "At least 2 entries.");
}

/// A narrowing keyword dropped inside a `not`, in an `if`, or in a definition a `$ref` inside
/// a `not` names, made the output refuse calls the original accepts (`not: {}` excludes every
/// value; an `if: {}` sends every value to `then`), exit 0, the loss saying only that the
/// provider "no longer enforces" it (noted by session 45's helper E). Refused now, and check
/// does not call it repairable; in a `then` dropping it only accepts more, as anywhere else.
#[test]
fn a_keyword_is_not_dropped_where_accepting_more_narrows_the_schema() {
    let p = profile(&["keyword-allowed: minLength"]);
    let string = |extra: Value| {
        let mut s = json!({"type": "string"});
        s.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        json!({"type": "object", "properties": {"s": s},
            "$defs": {"L": {"type": "string", "minLength": 3},
                "A": {"$anchor": "long", "type": "string", "minLength": 3},
                "V": {"$ref": "#/$defs/L"}}})
    };
    for (extra, at, why) in [
        (
            json!({"not": {"minLength": 3}}),
            "/properties/s/not/minLength",
            "it is in the `not` at /properties/s/not",
        ),
        (
            json!({"if": {"minLength": 3}, "then": {"maxLength": 5}}),
            "/properties/s/if/minLength",
            "it is in the `if` at /properties/s/if",
        ),
        (
            json!({"not": {"$ref": "#/$defs/L"}}),
            "/$defs/L/minLength",
            "its definition is named by a `$ref` in a `not`",
        ),
        // By `$anchor`, and through another definition (not followed before).
        (
            json!({"not": {"$ref": "#long"}}),
            "/$defs/A/minLength",
            "its definition is named by a `$ref` in a `not`",
        ),
        (
            json!({"not": {"$ref": "#/$defs/V"}}),
            "/$defs/L/minLength",
            "its definition is named by a `$ref` in a `not`",
        ),
        // A property that names itself, reached by its anchor from a `not` elsewhere.
        (
            json!({"$anchor": "s", "minLength": 3, "not": {"$ref": "#/$defs/V"},
                "oneOf": [{"not": {"$ref": "#s"}}, {"type": "integer"}]}),
            "/properties/s/minLength",
            "a schema holding it is reached by a `$ref` in a `not`",
        ),
    ] {
        let t = tool("t", string(extra.clone()));
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Refused, "{extra}: {:#?}", r.changes);
        assert!(
            r.refusals.iter().any(|f| f.reason.contains(why)),
            "{extra}: {:#?}",
            r.refusals
        );
        let marked: Vec<bool> = crate::check::check_tools(&[t.as_ref(0)], &p)
            .into_iter()
            .filter(|f| f.pointer == at)
            .map(|f| f.repairable)
            .collect();
        assert_eq!(marked, [false], "{extra}");
    }
    let t = tool(
        "t",
        string(json!({"if": {"maxLength": 1}, "then": {"minLength": 3}})),
    );
    assert_eq!(repair_one(&t, &p).outcome, Outcome::Repaired);
}

/// Draft-07's `dependencies` in its array form says what `dependentRequired` says (draft-07
/// validation §6.5.7), so it is dropped as that is, with the same loss, and check marks it
/// repairable and fixes it as that (trial 55 D12: refused as "declares the arguments
/// themselves", fixed as "declares which arguments are valid"); its schema form, which
/// declares argument schemas as `dependentSchemas` does, is refused as before.
#[test]
fn dependencies_listing_names_is_dropped_as_dependent_required_is() {
    let p = profile(&[
        "keyword-allowed: dependencies",
        "keyword-allowed: dependentRequired",
    ]);
    let object = |k: &str, v: Value| {
        let mut o = json!({"type":"object","properties":{
            "id":{"type":"string"},"label":{"type":"string"}}});
        o.as_object_mut().unwrap().insert(k.into(), v);
        tool("t", o)
    };
    let lists = json!({"id":["label"]});
    let as_required = repair_one(&object("dependentRequired", lists.clone()), &p);
    let as_dependencies = repair_one(&object("dependencies", lists), &p);
    assert_eq!(as_dependencies.outcome, Outcome::Repaired);
    assert_eq!(as_dependencies.tool, as_required.tool);
    let said = |r: &ToolRepair| {
        r.changes
            .iter()
            .map(|c| format!("{} {} {:?}", c.pointer, c.action, c.lost))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        said(&as_dependencies),
        said(&as_required)
            .iter()
            .map(|s| s.replace("dependentRequired", "dependencies"))
            .collect::<Vec<_>>()
    );
    let finding = |t: &Tool| {
        crate::check::check_tools(&[t.as_ref(0)], &p)
            .into_iter()
            .find(|f| f.pointer.ends_with("/dependencies"))
            .expect("dependencies reported")
    };
    let f = finding(&object("dependencies", json!({"id":["label"]})));
    assert!(f.repairable);
    assert!(
        f.fix.starts_with("Remove `dependencies` and say"),
        "{}",
        f.fix
    );
    for schema in [
        json!({"id":{"required":["label"]}}),
        json!({"id":["label"], "x":true}),
    ] {
        let t = object("dependencies", schema.clone());
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Refused, "{schema}");
        assert!(
            r.refusals[0]
                .reason
                .contains("declares the arguments themselves")
        );
        let f = finding(&t);
        assert!(!f.repairable, "{schema}");
        assert!(
            f.fix.contains("declares which arguments are valid"),
            "{}",
            f.fix
        );
    }
}

/// An `allOf` of several branches is merged where one schema says what the schema and every
/// branch say (trial 55 D9: the catalog's root/allof, two object branches declaring other
/// members, and keywords/all-of-nested, `minLength` and `pattern` branches of a string, were
/// refused as "merging them could change the arguments"): each branch joins what the schema
/// and the branches before it set, as one branch does. Two branches setting a keyword apart
/// (two `pattern`s, one member declared twice differently), or `additionalProperties` in one
/// beside `properties` in another, still refuse it, and check marks it repairable exactly when
/// repair merges it.
#[test]
fn several_all_of_branches_are_merged_where_one_schema_says_them_all() {
    let p = profile(&[
        "root-shape: allOf",
        "root-shape: allOf-with-type",
        "keyword-allowed: allOf",
    ]);
    let member = |s: &str, d: &str| {
        json!({"type":"object","properties":{s:{"type":"string",
        "description":d}},"required":[s]})
    };
    for (params, merged, at) in [
        (
            json!({"allOf":[member("value","The id."), member("name","The name.")]}),
            json!({"type":"object","properties":{
                "value":{"type":"string","description":"The id."},
                "name":{"type":"string","description":"The name."}},
                "required":["value","name"]}),
            "/allOf",
        ),
        (
            json!({"type":"object","properties":{"value":{"type":"string","description":"d",
                "allOf":[{"minLength":2},{"pattern":"^[a-z]+$"}]}},"required":["value"]}),
            json!({"type":"object","properties":{"value":{"type":"string","description":"d",
                "minLength":2,"pattern":"^[a-z]+$"}},"required":["value"]}),
            "/properties/value/allOf",
        ),
        // Bounds and types as their conjunction, a branch's own `allOf` after it.
        (
            json!({"type":"object","properties":{"n":{"type":"number","minimum":0,
                "allOf":[{"minimum":2,"allOf":[{"maximum":9},{"maximum":10}]},
                    {"type":"integer","maximum":8}]}}}),
            json!({"type":"object","properties":{"n":{"type":"integer","minimum":2,
                "maximum":8}}}),
            "/properties/n/allOf",
        ),
    ] {
        let t = tool("t", params.clone());
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{params}: {:#?}", r.refusals);
        assert_eq!(r.tool.parameters.clone().unwrap(), merged, "{params}");
        assert!(
            r.changes
                .iter()
                .any(|c| c.pointer == at
                    && c.action == "merged the 2 `allOf` branches into the schema"),
            "{:#?}",
            r.changes
        );
        assert!(
            errors(&t, &p)
                .iter()
                .any(|f| f.pointer == at && f.repairable)
        );
    }
    for (params, why) in [
        (
            json!({"type":"object","properties":{"s":{"type":"string",
                "allOf":[{"pattern":"^a"},{"pattern":"b$"}]}}}),
            "`allOf` branch 1's `pattern` conflicts with the schema's own or an earlier \
             branch's",
        ),
        (
            json!({"type":"object","allOf":[{"properties":{"a":{"type":"string"}}},
                {"properties":{"a":{"type":"string","minLength":2}}}]}),
            "`allOf` branch 1's `properties` conflicts",
        ),
        (
            json!({"type":"object","allOf":[{"properties":{"a":{"type":"string"}},
                "additionalProperties":false},{"properties":{"b":{"type":"string"}}}]}),
            "`allOf` branch 1's `properties` and the schema's own or an earlier branch's \
             `additionalProperties` are each read",
        ),
    ] {
        let t = tool("t", params.clone());
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Refused, "{params}");
        assert!(
            r.refusals.iter().any(|f| f.reason.contains(why)),
            "{params}: {:#?}",
            r.refusals
        );
        assert!(
            errors(&t, &p)
                .iter()
                .any(|f| f.pointer.ends_with("/allOf") && !f.repairable),
            "{params}"
        );
    }
}

/// Annotations an `allOf` merge meets set apart are not dropped unsaid (trial 57 D3: the
/// branches' descriptions, the second branch's `title` and `default` went, "0 losses"):
/// `description`s are joined, the schema's own first (all describe the value, and the model
/// reads them); of another annotation the schema's own or the first branch's is kept and the
/// others are a loss. One branch alike; annotations set alike merge silently as before.
#[test]
fn annotations_an_all_of_merge_meets_set_apart_are_joined_or_said_lost() {
    let p = profile(&["keyword-allowed: allOf"]);
    let when = |s: Value| json!({"type":"object","properties":{"when":s}});
    for (schema, merged, action, lost) in [
        (
            json!({"type":"string","description":"A timestamp.","allOf":[
                {"description":"ISO 8601","title":"T1","default":"2020"},
                {"description":"Always in UTC; never send local time.","title":"T2",
                 "default":"1970","minLength":1}]}),
            json!({"type":"string",
                "description":"A timestamp. ISO 8601. Always in UTC; never send local time.",
                "title":"T1","default":"2020","minLength":1}),
            "merged the 2 `allOf` branches into the schema, with the `description`s joined",
            Some(
                "`allOf` branch 1's `title: \"T2\"`, `default: \"1970\"`, replaced by the \
                 schema's own or an earlier branch's",
            ),
        ),
        (
            json!({"type":"string","description":"A timestamp.","default":"2020","allOf":[
                {"description":"Always in UTC.","default":"1970","minLength":1}]}),
            json!({"type":"string","description":"A timestamp. Always in UTC.",
                "default":"2020","minLength":1}),
            "merged the single `allOf` branch into the schema, with the `description`s joined",
            Some("`allOf`'s `default: \"1970\"`, replaced by the schema's own"),
        ),
        (
            json!({"type":"string","description":"A timestamp.","title":"T","allOf":[
                {"description":"A timestamp.","title":"T"},{"minLength":1}]}),
            json!({"type":"string","description":"A timestamp.","title":"T","minLength":1}),
            "merged the 2 `allOf` branches into the schema",
            None,
        ),
    ] {
        let t = tool("t", when(schema.clone()));
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{schema}: {:#?}", r.refusals);
        assert_eq!(r.tool.parameters.clone().unwrap(), when(merged), "{schema}");
        let c = r
            .changes
            .iter()
            .find(|c| c.pointer == "/properties/when/allOf")
            .unwrap_or_else(|| panic!("{schema}: {:#?}", r.changes));
        assert_eq!(c.action, action, "{schema}");
        assert_eq!(c.lost.as_deref(), lost, "{schema}");
    }
}

/// An `allOf` merge walks a branch's own `allOf` before the next branch, in document order
/// (trial 58 D6: `allOf: [{description: X., allOf: [{description: Y., title: t1}]},
/// {description: Z., title: t2}]` gave "X. Z. Y." and title t2, said as "`allOf`'s `title:
/// "t1"`, replaced by the schema's own", though the schema had none): descriptions joined in
/// the order written, the first written `title` kept, a nested branch named by its place; a
/// description saying what is said already, its final stop aside, is not joined again ("The ID"
/// and "The ID." gave "The ID. The ID."), one that goes on from it replaces it, and a mere
/// substring is no saying ("Not in UTC." and "in UTC."). Two branches' own `allOf`s no longer
/// clash as one keyword set differently: each is merged in turn.
#[test]
fn nested_all_of_annotations_are_merged_in_document_order_and_said_once() {
    let p = profile(&["keyword-allowed: allOf"]);
    let w = |s: Value| json!({"type":"object","properties":{"w":s}});
    for (schema, merged, lost) in [
        (
            json!({"type":"string","allOf":[
                {"description":"X.","allOf":[{"description":"Y.","title":"t1"}]},
                {"description":"Z.","title":"t2"}]}),
            json!({"type":"string","description":"X. Y. Z.","title":"t1"}),
            Some(
                "`allOf` branch 1's `title: \"t2\"`, replaced by the schema's own or an \
                 earlier branch's",
            ),
        ),
        (
            json!({"type":"string","allOf":[{"title":"a","allOf":[{"title":"b"}]}]}),
            json!({"type":"string","title":"a"}),
            Some(
                "`allOf/0/allOf`'s `title: \"b\"`, replaced by the schema's own or an earlier branch's",
            ),
        ),
        (
            json!({"type":"string","description":"The ID","allOf":[{"description":"The ID."}]}),
            json!({"type":"string","description":"The ID"}),
            None,
        ),
        (
            json!({"type":"string","description":"The ID","allOf":[
                {"description":"The ID. Unique per user."}]}),
            json!({"type":"string","description":"The ID. Unique per user."}),
            None,
        ),
        (
            json!({"type":"string","description":"Not in UTC.","allOf":[{"description":"in UTC."}]}),
            json!({"type":"string","description":"Not in UTC. in UTC."}),
            None,
        ),
        (
            json!({"type":"string","allOf":[{"allOf":[{"minLength":1}]},{"allOf":[{"maxLength":5}]}]}),
            json!({"type":"string","minLength":1,"maxLength":5}),
            None,
        ),
    ] {
        let t = tool("t", w(schema.clone()));
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{schema}: {:#?}", r.refusals);
        assert_eq!(r.tool.parameters.clone().unwrap(), w(merged), "{schema}");
        let c = r
            .changes
            .iter()
            .find(|c| c.pointer.ends_with("/allOf"))
            .expect("the merge");
        assert_eq!(c.lost.as_deref(), lost, "{schema}");
    }
}

/// Annotations an `allOf` merge meets equal as JSON Schema values, numbers by value (2020-12
/// core §4.2.2), merge silently (trial 59 D6: `default: 1` beside a branch's `default: 1.0`
/// was said "lost: `allOf` branch 1's `default: 1`, replaced by ..."); `examples` alike.
#[test]
fn annotations_equal_as_values_merge_without_a_loss() {
    let p = profile(&["keyword-allowed: allOf"]);
    let w = |s: Value| json!({"type":"object","properties":{"w":s}});
    for (schema, merged) in [
        (
            json!({"type":"integer","allOf":[{"default":1,"minimum":0},
                {"default":1.0,"maximum":5}]}),
            json!({"type":"integer","default":1,"minimum":0,"maximum":5}),
        ),
        (
            json!({"type":"integer","examples":[1],"allOf":[{"examples":[1.0]}]}),
            json!({"type":"integer","examples":[1]}),
        ),
    ] {
        let t = tool("t", w(schema.clone()));
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{schema}: {:#?}", r.refusals);
        assert_eq!(r.tool.parameters.clone().unwrap(), w(merged), "{schema}");
        let c = r
            .changes
            .iter()
            .find(|c| c.pointer.ends_with("/allOf"))
            .expect("the merge");
        assert_eq!(c.lost, None, "{schema}");
    }
    // Values apart still are: `1` is not `2`, nor `"1"`.
    let t = tool(
        "t",
        w(json!({"type":"integer","default":1,"allOf":[{"default":"1"}]})),
    );
    let r = repair_one(&t, &p);
    let c = r.changes.iter().find(|c| c.pointer.ends_with("/allOf"));
    assert!(c.is_some_and(|c| c.lost.is_some()), "{:#?}", r.changes);
}

/// A branch's description is said already only as whole sentences of the text so far, and a
/// stop after an abbreviation ends no sentence (trial 59 D16: "Amount in a currency, e.g.
/// EUR." took a branch's "EUR." for said and dropped it, 0 losses): such a text is joined; a
/// sentence that is said is not ("Amount. EUR." and "EUR.").
#[test]
fn a_branch_description_after_an_abbreviation_is_joined() {
    let p = profile(&["keyword-allowed: allOf"]);
    let w = |s: Value| json!({"type":"object","properties":{"w":s}});
    for (own, branch, joined) in [
        (
            "Amount in a currency, e.g. EUR.",
            "EUR.",
            "Amount in a currency, e.g. EUR. EUR.",
        ),
        ("Units, e.g. kg.", "kg.", "Units, e.g. kg. kg."),
        ("Name (e.g. Bob).", "Bob).", "Name (e.g. Bob). Bob)."),
        ("Paid by J. Smith.", "Smith.", "Paid by J. Smith. Smith."),
        (
            "Fruit, apples etc. Pears too.",
            "Pears too.",
            "Fruit, apples etc. Pears too. Pears too.",
        ),
        ("The ID card.", "The ID", "The ID card. The ID"),
        ("An amount. EUR.", "EUR.", "An amount. EUR."),
        ("An amount! EUR", "EUR.", "An amount! EUR"),
    ] {
        let schema = json!({"type":"number","description":own,"allOf":[{"description":branch}]});
        let t = tool("t", w(schema.clone()));
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{schema}: {:#?}", r.refusals);
        assert_eq!(
            r.tool.parameters.clone().unwrap(),
            w(json!({"type":"number","description":joined})),
            "{schema}"
        );
    }
}

/// An error inside a definition no `$ref` reaches is not judged: repair drops every such
/// definition as compile does, with compile's change line, and check marks the error
/// repairable, its fix saying so (trial 56 D9: `$defs: {u2: {type: array}}` under a profile
/// rejecting an array without `items` refused the whole tool). Definitions reached (`a`) stay;
/// one reached only from an unreached one (`u2`, from `u1`) goes with it, so no `$ref` is
/// left dangling; a reference by anchor leaves every definition to the profile, as compile
/// does.
#[test]
fn an_error_in_a_definition_no_ref_reaches_is_dropped_with_it() {
    let p = profile(&["structure: array-without-items"]);
    let t = tool(
        "t",
        json!({"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},
            "$defs":{"a":{"type":"string"},"u1":{"$ref":"#/$defs/u2"},"u2":{"type":"array"}}}),
    );
    let checked = findings(&t, &p);
    let error = checked
        .iter()
        .find(|f| f.rule == "array-items-missing")
        .expect("the array without items");
    assert!(error.marked_repairable(), "{error:#?}");
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},
            "$defs":{"a":{"type":"string"}}})
    );
    let got: Vec<(&str, &str)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.action.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "/$defs/u1",
                "dropped the definition `u1`, which no `$ref` reaches (it constrains nothing)"
            ),
            (
                "/$defs/u2",
                "dropped the definition `u2`, which no `$ref` reaches (it constrains nothing)"
            ),
        ]
    );
    assert!(r.changes.iter().all(|c| c.lost.is_none()));
    // The last one goes with its container.
    let alone = tool(
        "t",
        json!({"type":"object","properties":{"x":{"type":"string"}},"$defs":{"u2":{"type":"array"}}}),
    );
    let r = repair_one(&alone, &p);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"x":{"type":"string"}}})
    );
    // Reached by an anchor: not followed, so the definition is judged as written.
    let anchored = tool(
        "t",
        json!({"type":"object","properties":{"x":{"$ref":"#s"}},
            "$defs":{"s":{"$anchor":"s","type":"string"},"u2":{"type":"array"}}}),
    );
    let error = findings(&anchored, &p)
        .into_iter()
        .find(|f| f.rule == "array-items-missing")
        .expect("the array without items");
    assert!(!error.marked_repairable());
    assert_eq!(repair_one(&anchored, &p).outcome, Outcome::Refused);
    // Reached from a place the walk of subschemas does not visit (`contentSchema`): nothing
    // counts as unreached (trial 57 D1, there in draft-07's schema-form `dependencies`: `A`
    // was dropped, the `$ref` left dangling).
    let hidden = tool(
        "t",
        json!({"type":"object","properties":{"x":{"type":"string",
            "contentMediaType":"application/json",
            "contentSchema":{"properties":{"y":{"$ref":"#/definitions/A"}}}}},
            "definitions":{"A":{"type":"string","minLength":3},"u":{"type":"array"}}}),
    );
    let r = repair_one(&hidden, &p);
    assert_eq!(r.outcome, Outcome::Refused, "{:#?}", r.changes);
    // Schema-form `dependencies` is walked: its `$ref` reaches `A`, kept, and `u`, which
    // nothing reaches, is dropped.
    let dependency = tool(
        "t",
        json!({"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
            "properties":{"x":{"type":"string"},"y":{"type":"string"}},
            "dependencies":{"x":{"properties":{"y":{"$ref":"#/definitions/A"}}}},
            "definitions":{"A":{"type":"string","minLength":3},"u":{"type":"array"}}}),
    );
    let r = repair_one(&dependency, &p);
    let out = r.tool.parameters.unwrap();
    assert_eq!(
        out["definitions"],
        json!({"A":{"type":"string","minLength":3}})
    );
    assert_eq!(
        out["dependencies"],
        json!({"x":{"properties":{"y":{"$ref":"#/definitions/A"}}}})
    );
    // Reached by a dynamic reference (no `$ref` at all): the definition a `$dynamicRef` or
    // `$recursiveRef` names is not dropped, which left the reference dangling with 0 losses.
    for (keyword, anchor) in [
        ("$dynamicRef", "$dynamicAnchor"),
        ("$recursiveRef", "$anchor"),
    ] {
        let dynamic = tool(
            "t",
            json!({"type":"object","properties":{"tree":{keyword:"#node"}},
                "$defs":{"node":{anchor:"node","type":"object",
                    "properties":{"kids":{"type":"array"}}}}}),
        );
        let error = findings(&dynamic, &p)
            .into_iter()
            .find(|f| f.rule == "array-items-missing")
            .expect("the array without items");
        assert!(!error.marked_repairable(), "{keyword}");
        let r = repair_one(&dynamic, &p);
        assert_eq!(r.outcome, Outcome::Refused, "{keyword}: {:#?}", r.changes);
    }
}

/// An annotation dropped at a schema whose `allOf` merge meets the same annotation, or a
/// description, in a branch waits for the merge (trial 58 D19: `default: "a"` beside `allOf:
/// [{default: "b"}]` under a profile rejecting both was said first, then the branch's came up
/// and was said too: "Default: \"a\". Default: \"b\"."): the schema has the one value the merge
/// keeps (its own, as where `default` is allowed), said once, the branch's said lost; the
/// descriptions stay joined in the order written, the moved sentence after them. Nested
/// branches alike.
#[test]
fn an_annotation_the_all_of_merge_meets_is_dropped_after_the_merge() {
    let p = profile(&[
        "keyword-allowed: allOf",
        "keyword-allowed: default",
        "keyword-allowed: examples",
        "keyword-allowed: title",
    ]);
    let x = |s: Value| json!({"type":"object","properties":{"x":s}});
    for (schema, merged, lost) in [
        (
            json!({"type":"string","default":"a","allOf":[{"default":"b"}]}),
            json!({"type":"string","description":"Default: \"a\"."}),
            "`allOf`'s `default: \"b\"`, replaced by the schema's own",
        ),
        (
            json!({"type":"string","title":"A","examples":["p"],
                "allOf":[{"title":"B","examples":["q"]}]}),
            json!({"type":"string","description":"For example \"p\"."}),
            "`allOf`'s `title: \"B\"`, `examples: [\"q\"]`, replaced by the schema's own",
        ),
        (
            json!({"type":"string","description":"The colour.","default":"red",
                "allOf":[{"description":"Lower case.","allOf":[{"default":"blue"}]}]}),
            json!({"type":"string","description":"The colour. Lower case. Default: \"red\"."}),
            "`allOf/0/allOf`'s `default: \"blue\"`, replaced by the schema's own or an earlier \
             branch's",
        ),
    ] {
        let r = repair_one(&tool("t", x(schema.clone())), &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{schema}: {:#?}", r.refusals);
        assert_eq!(r.tool.parameters.clone().unwrap(), x(merged), "{schema}");
        let merge = r
            .changes
            .iter()
            .find(|c| c.pointer == "/properties/x/allOf")
            .unwrap_or_else(|| panic!("{schema}: {:#?}", r.changes));
        assert_eq!(merge.lost.as_deref(), Some(lost), "{schema}");
        // One drop of each annotation, of the value the merge kept.
        let mut drops: Vec<&str> = r
            .changes
            .iter()
            .filter(|c| c.pointer != "/properties/x/allOf")
            .map(|c| c.pointer.as_str())
            .collect();
        let n = drops.len();
        drops.sort_unstable();
        drops.dedup();
        assert_eq!(drops.len(), n, "{schema}: {:#?}", r.changes);
    }
}

/// An `allOf` beside `properties: null` merges once repair has written the `null` `{}`, which
/// it does first where the profile rejects the `null` (trial 58 C2: under `portable` check
/// left the `allOf` unmarked, and repair merged it); where the `null` stays, the branch's
/// `properties` conflicts with it and both refuse. Check's "(repairable)" on the `allOf` is
/// whether repair merges it, with the `null` rejected or not.
#[test]
fn an_all_of_beside_properties_null_is_repairable_exactly_when_repair_merges_it() {
    let t = tool(
        "t",
        json!({"type":"object","properties":{"v":{"type":"object","properties":null,
            "allOf":[{"properties":{"a":{"type":"string"}}}]}}}),
    );
    for (rejected, merged) in [
        (
            &["keyword-allowed: allOf", "structure: properties-null"][..],
            true,
        ),
        (&["keyword-allowed: allOf"][..], false),
    ] {
        let p = profile(rejected);
        let f = crate::check::check_tools(&[t.as_ref(0)], &p)
            .into_iter()
            .find(|f| f.pointer == "/properties/v/allOf")
            .expect("the allOf finding");
        assert_eq!(f.level, Level::Error, "{rejected:?}");
        let r = repair_one(&t, &p);
        assert_eq!(
            r.outcome == Outcome::Repaired,
            merged,
            "{rejected:?}: {r:#?}"
        );
        assert_eq!(f.repairable, merged, "{rejected:?}: {f:#?}");
    }
}

/// A tool whose property `a` has `b` as its one `anyOf` branch and `b` has it as the first of
/// two `allOf` branches, each beside `type: string`: the fixture of the `true`-branch tests of
/// repair and compile (trial 61 D3).
pub(crate) fn with_branch(b: Value) -> Tool {
    tool(
        "t",
        json!({"type":"object","properties":{
            "a":{"type":"string","anyOf":[b.clone()]},
            "b":{"type":"string","allOf":[b,{"minLength":1}]}},"required":["a","b"]}),
    )
}

/// A `true` branch of `anyOf`/`oneOf`/`allOf` is `{}` (JSON Schema 2020-12 core §4.3.2):
/// repair writes it `{}`, which then meets the repairs `{}` meets (the `type` beside the
/// keyword, the `allOf` merged), and the tool comes out as the `{}` one does, check marking
/// the branch repairable. Before, it was refused ("a `true` schema accepts any value", "`allOf`
/// branch 0 is not an object schema") where `{}` was repaired (trial 61 D3). A `{}` typed
/// earlier in the tool does not make the rewrite read as a trade of one rejected spelling for
/// another; a `true` branch with no `type` beside it is refused with type-missing's reason
/// (not marked repairable); a `true` property and a `false` branch stay refused, each for its
/// own reason, which refuses no `true` branch beside them.
#[test]
fn a_true_branch_is_repaired_as_an_empty_one() {
    let p = profile(&[
        "structure: property-schema-true",
        "structure: property-schema-false",
        "type-missing",
        "keyword-allowed: allOf",
    ]);
    let with = with_branch;
    let marks = |t: &Tool| -> Vec<(String, String, bool)> {
        errors(t, &p)
            .iter()
            .map(|f| (f.pointer.clone(), f.rule.to_string(), f.repairable))
            .collect()
    };
    let lines = |r: &ToolRepair| -> Vec<String> {
        r.changes
            .iter()
            .map(|c| format!("{} {} [{}]", c.pointer, c.action, c.rule))
            .collect()
    };
    let empty = repair_one(&with(json!({})), &p);
    let given = with(json!(true));
    assert_eq!(
        marks(&given),
        [
            (
                "/properties/a/anyOf/0".into(),
                "boolean-schema".into(),
                true
            ),
            (
                "/properties/b/allOf".into(),
                "keyword-unsupported".into(),
                true
            ),
            (
                "/properties/b/allOf/0".into(),
                "boolean-schema".into(),
                true
            ),
            ("/properties/b/allOf/1".into(), "type-missing".into(), true),
        ]
    );
    let boolean = repair_one(&given, &p);
    assert_eq!(empty.outcome, Outcome::Repaired, "{:#?}", empty.refusals);
    assert_eq!(
        boolean.outcome,
        Outcome::Repaired,
        "{:#?}",
        boolean.refusals
    );
    assert_eq!(boolean.tool.parameters, empty.tool.parameters);
    let mut expected = vec![format!(
        "/properties/a/anyOf/0 {} [boolean-schema]",
        crate::repair::true_branch_written(None)
    )];
    expected.extend(lines(&empty));
    assert_eq!(lines(&boolean), expected);

    // The `{}` of `x` typed first: the `true` of `y` is written `{}` and typed in one step.
    let t = tool(
        "t",
        json!({"type":"object","properties":{"x":{"type":"string","anyOf":[{}]},
            "y":{"type":"string","anyOf":[true]}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.unwrap(),
        json!({"type":"object","properties":{"x":{"type":"string","anyOf":[{"type":"string"}]},
            "y":{"type":"string","anyOf":[{"type":"string"}]}}})
    );

    // Nothing beside the `anyOf` says a type: refused as `{}` is, and not marked repairable.
    let t = tool(
        "t",
        json!({"type":"object","properties":{"p":{"anyOf":[true,{"type":"string"}]}}}),
    );
    assert_eq!(
        marks(&t),
        [(
            "/properties/p/anyOf/0".into(),
            "boolean-schema".into(),
            false
        )]
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused);
    let said: Vec<(&str, &str)> = r
        .refusals
        .iter()
        .map(|x| (x.pointer.as_str(), x.rule.as_str()))
        .collect();
    assert_eq!(said, [("/properties/p/anyOf/0", "type-missing")]);
    assert!(
        r.refusals[0].reason.contains("nothing says which"),
        "{:#?}",
        r.refusals
    );

    // A `true` property and a `false` branch: refused for reasons of their own; the `true`
    // branch beside them is not.
    let t = tool(
        "t",
        json!({"type":"object","properties":{"p":true,
            "q":{"type":"string","anyOf":[true]},
            "r":{"type":"string","anyOf":[false,{"type":"string"}]}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Refused);
    let said: Vec<(&str, &str)> = r
        .refusals
        .iter()
        .map(|x| (x.pointer.as_str(), x.reason.as_str()))
        .collect();
    assert_eq!(
        said,
        [
            (
                "/properties/p",
                "a `true` schema accepts any value; no schema under `test` says that"
            ),
            (
                "/properties/r/anyOf/0",
                "a `false` schema forbids the argument; dropping it would accept it"
            )
        ]
    );
}

/// The warnings repair's own rewrites bring in are told from the input's: `float` written as
/// `number` (`float` rejected, `number` without evidence either way) is listed in
/// `introduced` with the places it was written at, not the `number` the input wrote, and a
/// warning of the input (`minimum`) is not listed there; JSON writes the features.
#[test]
fn warnings_a_rewrite_brings_in_are_listed_as_introduced() {
    let p = profile(&["type-spelling: float"]);
    let t = tool(
        "bmi",
        json!({"type": "object", "properties": {
            "w": {"type": "float"},
            "h": {"type": "float"},
            "n": {"type": "number", "minimum": 1}}}),
    );
    let r = repair_request(&[t], &p, &Options::default()).remove(0);
    assert_eq!(r.outcome, Outcome::Repaired, "{r:#?}");
    assert_eq!(
        r.unverified.get("type-spelling: number"),
        Some(&3),
        "{r:#?}"
    );
    assert_eq!(
        r.introduced,
        BTreeMap::from([("type-spelling: number".to_string(), 2)]),
        "{r:#?}"
    );
    assert!(r.unverified.contains_key("keyword-allowed: minimum"));
    let written = serde_json::to_value(&r).unwrap();
    assert_eq!(written["introduced"], json!(["type-spelling: number"]));
}

/// A refused tool's report lists the warnings of what is written for it: none when it is
/// left out, the input's own when it is kept (`--keep-unrepairable`), not those of the
/// rewrites made before it was refused (its `float` written as `number`), which no one gets.
#[test]
fn a_refused_tool_lists_the_warnings_of_what_is_written_for_it() {
    let p = profile(&["type-spelling: float", "structure: array-without-items"]);
    let t = tool(
        "predict",
        json!({"type": "object", "properties": {
            "w": {"type": "float", "minimum": 1},
            "xs": {"type": "array"}}}),
    );
    let left_out = repair_request(std::slice::from_ref(&t), &p, &Options::default()).remove(0);
    assert_eq!(left_out.outcome, Outcome::Refused, "{left_out:#?}");
    assert!(left_out.unverified.is_empty(), "{left_out:#?}");
    assert!(left_out.introduced.is_empty(), "{left_out:#?}");
    assert!(left_out.left_as_written.is_empty(), "{left_out:#?}");
    let keep = Options {
        keep_unrepairable: true,
        ..Options::default()
    };
    let kept = repair_request(std::slice::from_ref(&t), &p, &keep).remove(0);
    assert_eq!(kept.outcome, Outcome::Refused, "{kept:#?}");
    let given = crate::check::check_tools(&[t.as_ref(0)], &p);
    assert_eq!(kept.unverified, warnings_per_feature(&given));
    assert!(kept.unverified.contains_key("keyword-allowed: minimum"));
    assert!(!kept.unverified.contains_key("type-spelling: number"));
    assert!(kept.introduced.is_empty(), "{kept:#?}");
    assert!(
        kept.left_as_written
            .contains(&"keyword-allowed: minimum".to_string()),
        "{kept:#?}"
    );
}

/// `left_as_written` lists the input's warnings only: a feature repair has a rewrite for
/// whose every warning the rewrites brought in is `introduced` alone (before, it was listed
/// in both, and read as the input's: trial 66 D6); one with warnings of each is in both.
#[test]
fn left_as_written_lists_no_feature_only_the_rewrites_brought_in() {
    let p = profile(&[]);
    let minimum = "keyword-allowed: minimum";
    let t = tool(
        "days",
        json!({"type": "object", "properties": {
            "n": {"type": "integer", "minimum": 1},
            "m": {"type": "integer", "minimum": 2}}}),
    );
    let written = crate::check::check_tools(&[t.as_ref(0)], &p);
    let repairable = written
        .iter()
        .filter(|f| f.parameter == minimum && f.repairable)
        .count();
    assert_eq!(repairable, 2, "{written:#?}");
    let mut r = repair_request(std::slice::from_ref(&t), &p, &Options::default()).remove(0);
    // The input had none of its `minimum`s: both brought in.
    set_left(&mut r, &written, &BTreeMap::new());
    assert_eq!(r.introduced.get(minimum), Some(&2), "{r:#?}");
    assert!(!r.left_as_written.iter().any(|f| f == minimum), "{r:#?}");
    // The input had one: the other brought in, and each list has the feature.
    set_left(
        &mut r,
        &written,
        &BTreeMap::from([(minimum.to_string(), 1)]),
    );
    assert_eq!(r.introduced.get(minimum), Some(&1), "{r:#?}");
    assert!(r.left_as_written.iter().any(|f| f == minimum), "{r:#?}");
    // The input had both: none brought in.
    set_left(&mut r, &written, &warnings_per_feature(&written));
    assert!(r.introduced.is_empty(), "{r:#?}");
    assert!(r.left_as_written.iter().any(|f| f == minimum), "{r:#?}");
}

/// Check asks of every `allOf` whether repair merges it, and repair merges a chain of them one
/// a round (an inner `allOf` waits for the one holding it), checking the tool twice a round:
/// each ask copied the schema holding the `allOf`, with everything nested below it, so a
/// check of N levels copied O(N²) values and the repair O(N³) (trial 67 D1: 120 levels took
/// 26.8 s to repair, 35 s to compile for openai/chat-strict, debug build). The members'
/// schemas, which the merge only moves, are now set aside, so a check copies values in
/// proportion to the tool's size however deep the chain.
#[test]
fn a_check_of_nested_all_ofs_copies_each_level_once() {
    let chain = |n: usize| {
        let mut s = json!({"type": "object", "properties": {"leaf": {"type": "string"}},
            "required": ["leaf"]});
        for i in 0..n {
            let k = format!("k{i}");
            s = json!({"type": "object", "allOf": [
                {"type": "object", "properties": {"c": s}, "required": ["c"]},
                {"type": "object", "properties": {(k.clone()): {"type": "string"}},
                    "required": [k]}]});
        }
        json!({"type": "object", "properties": {"root": s}, "required": ["root"]})
    };
    let set = crate::profile::embedded().expect("built-in profiles load");
    let p = CompiledProfile::new(set.get("portable").expect("portable"));
    for n in [10, 40, 100] {
        let schema = chain(n);
        let size = crate::json::value_count(&schema);
        let t = tool("deep", schema);
        super::fixes::VALUES_MERGED.with(|c| c.set(0));
        let found = errors(&t, &p);
        let copied = super::fixes::VALUES_MERGED.with(std::cell::Cell::get);
        // Every level's `allOf` is asked about, and marked repairable.
        let merges = found
            .iter()
            .filter(|f| f.pointer.ends_with("/allOf") && f.repairable)
            .count();
        assert_eq!(merges, n, "{n} levels");
        assert!(
            copied <= 4 * size,
            "{n} levels: {copied} values copied by the merges asked, the tool has {size}"
        );
    }
    // Repaired, every level is merged, outermost first.
    let r = repair_one(&tool("deep", chain(12)), &p);
    assert_eq!(r.outcome, Outcome::Repaired);
    assert_eq!(r.changes.len(), 12, "{:#?}", r.changes);
    assert_eq!(r.changes[1].pointer, "/properties/root/properties/c/allOf");
}

/// Properties in definitions no `$ref` reaches, past Cohere's limits (per schema and across a
/// request's tools) only with them: repair drops the definitions (compile's change lines,
/// answering `size-exceeded`), and the request passes `check`; still past without them, the
/// tool is refused and nothing is dropped (trial 67 D6: repair left the request as it was,
/// its note "repair cannot change this").
#[test]
fn definitions_no_ref_reaches_are_dropped_for_a_count_they_put_past_the_limit() {
    let set = crate::profile::embedded_set().unwrap();
    let cohere = CompiledProfile::new(set.get("cohere/v2-strict").unwrap());
    let props = |n: usize| {
        let p: serde_json::Map<String, Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "string"})))
            .collect();
        json!({"type": "object", "properties": p})
    };
    let with_def = |n: usize, d: usize| {
        let mut s = props(n);
        s["$defs"] = json!({"U": props(d)});
        s
    };
    let dropped = |r: &ToolRepair| {
        r.changes
            .iter()
            .map(|c| format!("{} [{}]", c.pointer, c.rule))
            .collect::<Vec<_>>()
    };
    let request = [tool("a", with_def(1, 150)), tool("b", props(60))];
    let out = repair_request(&request, &cohere, &Options::default());
    assert_eq!(out[0].outcome, Outcome::Repaired, "{:?}", out[0].refusals);
    assert_eq!(dropped(&out[0]), ["/$defs/U [size-exceeded]"]);
    assert_eq!(out[1].outcome, Outcome::Unchanged);
    let written: Vec<&Tool> = out.iter().map(|r| &r.tool).collect();
    assert!(request_findings(&written, &cohere).is_empty());
    let alone = repair_one(&tool("a", with_def(1, 250)), &cohere);
    assert_eq!(alone.outcome, Outcome::Repaired, "{:?}", alone.refusals);
    assert_eq!(dropped(&alone), ["/$defs/U [size-exceeded]"]);
    // Still too many without them: nothing dropped.
    let over = [tool("a", with_def(10, 110)), tool("b", props(195))];
    let out = repair_request(&over, &cohere, &Options::default());
    assert!(out.iter().all(|r| r.changes.is_empty()), "{out:#?}");
    let alone = repair_one(&tool("a", with_def(210, 50)), &cohere);
    assert_eq!(alone.outcome, Outcome::Refused);
    assert!(
        alone.refusals[0]
            .reason
            .contains("and 210 without the definitions no `$ref` reaches"),
        "{:?}",
        alone.refusals
    );
}

/// (pointer, action, loss) of every change of `r`, sorted.
fn changes_said(r: &ToolRepair) -> Vec<(&str, &str, Option<&str>)> {
    let mut said: Vec<(&str, &str, Option<&str>)> = r
        .changes
        .iter()
        .map(|c| (c.pointer.as_str(), c.action.as_str(), c.lost.as_deref()))
        .collect();
    said.sort_unstable();
    said
}

#[test]
fn a_request_given_up_is_repaired_as_lent_without_a_copy_of_a_tool_past_the_caps() {
    // Issue 3 item 8: `repair` copied a tool past toolwire's own caps into its refusal (5 MB
    // of schema parsed twice over) though the file's tools were its to give up.
    let props: serde_json::Map<String, Value> = (0..crate::args::MAX_EXPANDED + 10)
        .map(|i| (format!("p{i}"), json!({"type": "float"})))
        .collect();
    let wide = tool("wide", json!({"type": "object", "properties": props}));
    let small = tool(
        "small",
        json!({"type": "object", "properties": {"n": {"type": "float"}, "t": true}}),
    );
    let bare = Tool {
        name: Some("bare".into()),
        description: None,
        parameters: Some(json!(true)),
        strict: None,
        strict_tool_use: None,
    };
    let p = profile(&["type-spelling: float"]);
    for keep_unrepairable in [false, true] {
        let opts = Options {
            keep_unrepairable,
            ..Options::default()
        };
        let tools = vec![wide.clone(), small.clone(), bare.clone()];
        let copies = || SCHEMA_COPIES.with(|c| c.get());
        let before = copies();
        let lent = repair_request(&tools, &p, &opts);
        let copied_lent = copies() - before;
        let before = copies();
        let owned = repair_request_owned(tools, &p, &opts);
        let copied_owned = copies() - before;
        assert_eq!(owned, lent, "keep {keep_unrepairable}");
        assert_eq!(owned[0].outcome, Outcome::Refused);
        assert_eq!(owned[0].refusals[0].rule, "ref-expansion-exceeded");
        assert!(owned[0].tool == wide, "kept as given");
        assert_eq!(owned[1].outcome, Outcome::Repaired, "{:#?}", owned[1]);
        // The other tools' repairs copy them as before; the tool past the caps is not.
        assert_eq!(
            copied_owned + 1,
            copied_lent,
            "keep {keep_unrepairable}: copies of a schema"
        );
    }
}

/// A `dependentRequired` list giving a name twice (`{"p": ["q", "q"]}`), which the 2020-12
/// meta-schema refuses (its lists are `uniqueItems`), was dropped whole as a loss under
/// `anthropic/messages` (built in: it rejects what the meta-schema refuses), though
/// `{"p": ["q"]}` requires the same and is taken. Each name is now written once, nothing lost,
/// and the keyword's warning left is the input's; so for draft-07's `dependencies` in its
/// array form. The rewritten schema accepts the same calls as the given one (the jsonschema
/// crate's verdicts). Where the profile rejects the keyword itself, it is still dropped.
#[test]
fn a_name_list_giving_a_name_twice_is_written_with_each_name_once() {
    let set = crate::profile::embedded().expect("built-in profiles load");
    let p = CompiledProfile::new(set.get("anthropic/messages").unwrap());
    let props = json!({"p":{"type":"string"},"q":{"type":"string"},"r":{"type":"string"}});
    for (keyword, draft) in [
        ("dependentRequired", None),
        (
            "dependencies",
            Some("http://json-schema.org/draft-07/schema#"),
        ),
    ] {
        let mut given = json!({"type":"object","properties":props,
            (keyword):{"p":["q","r","q"],"r":["q"]}});
        if let Some(d) = draft {
            given["$schema"] = json!(d);
        }
        let t = tool("f", given.clone());
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Repaired, "{keyword}: {:#?}", r.refusals);
        let written = r.tool.parameters.clone().unwrap();
        assert_eq!(
            written[keyword],
            json!({"p":["q","r"],"r":["q"]}),
            "{keyword}"
        );
        assert_eq!(
            changes_said(&r),
            [(
                format!("/{keyword}").as_str(),
                format!(
                    "wrote `{keyword}: {{\"p\":[\"q\",\"r\",\"q\"],\"r\":[\"q\"]}}` as \
                     `{keyword}: {{\"p\":[\"q\",\"r\"],\"r\":[\"q\"]}}`, each name once (a name \
                     listed twice requires nothing more than listed once; JSON Schema wants \
                     each name once)"
                )
                .as_str(),
                None
            )],
            "{keyword}"
        );
        assert!(r.introduced.is_empty(), "{keyword}: {:?}", r.introduced);
        // The crate refuses to build the given schema (the meta-schema's `uniqueItems`), so
        // what it says is read as 2020-12 validation §6.5.4 defines it: each listed name,
        // repeats too, required with its key, one `allOf` entry each.
        let mut read = given.clone();
        let lists = read.as_object_mut().unwrap().remove(keyword).unwrap();
        let each: Vec<Value> = lists
            .as_object()
            .unwrap()
            .iter()
            .flat_map(|(k, names)| {
                let k = k.clone();
                names
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(move |n| json!({(keyword):{(k.as_str()):[n]}}))
            })
            .collect();
        assert_eq!(each.len(), 4, "{keyword}");
        read["allOf"] = Value::Array(each);
        let (before, after) = (
            jsonschema::validator_for(&read).unwrap(),
            jsonschema::validator_for(&written).unwrap(),
        );
        for call in [
            json!({}),
            json!({"p":"a"}),
            json!({"p":"a","q":"b"}),
            json!({"p":"a","q":"b","r":"c"}),
            json!({"r":"c"}),
        ] {
            assert_eq!(
                before.is_valid(&call),
                after.is_valid(&call),
                "{keyword}: {call}"
            );
        }
    }
    // The keyword itself rejected: written once, it would still be rejected.
    let p = profile(&["keyword-allowed: dependentRequired"]);
    let t = tool(
        "f",
        json!({"type":"object","properties":props,"dependentRequired":{"p":["q","q"]}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert!(
        r.tool
            .parameters
            .unwrap()
            .get("dependentRequired")
            .is_none()
    );
    assert_eq!(r.changes.len(), 1, "{:#?}", r.changes);
    assert!(
        r.changes[0]
            .action
            .starts_with("dropped `dependentRequired")
    );
    assert!(r.changes[0].lost.is_some());
}

/// `allOf: []` was refused ("`allOf` is not a non-empty list of schemas, and what it was meant
/// to hold cannot be known"), though it applies no schema to the value (2020-12 core
/// §10.2.1.1), so every value is valid against it, as without it: it is dropped, no loss, as
/// `prefixItems: []` is, at the root and in a property. `anyOf: []` and `oneOf: []`, against
/// which no value is valid, stay refused, in words that say so; a non-list stays refused in
/// the old words. Built-in `anthropic/messages`, which rejects what the meta-schema refuses.
#[test]
fn an_empty_all_of_is_dropped_and_an_empty_any_of_refused_as_admitting_no_value() {
    let set = crate::profile::embedded().expect("built-in profiles load");
    let p = CompiledProfile::new(set.get("anthropic/messages").unwrap());
    let t = tool(
        "f",
        json!({"type":"object","properties":{"p":{"type":"string","allOf":[]}},"allOf":[]}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    assert_eq!(
        r.tool.parameters.clone().unwrap(),
        json!({"type":"object","properties":{"p":{"type":"string"}}})
    );
    let dropped = "dropped `allOf: []`, which constrains nothing (an empty list of schemas \
                   applies none to the value; JSON Schema wants a non-empty list)";
    assert_eq!(
        changes_said(&r),
        [
            ("/allOf", dropped, None),
            ("/properties/p/allOf", dropped, None)
        ]
    );
    for (keyword, value, said) in [
        (
            "anyOf",
            json!([]),
            "`anyOf: []` holds no schema a value could match, so no value is valid against it \
             (JSON Schema wants a non-empty list); dropping it would accept every value, and \
             what it was meant to hold cannot be known",
        ),
        (
            "oneOf",
            json!([]),
            "`oneOf: []` holds no schema a value could match, so no value is valid against it \
             (JSON Schema wants a non-empty list); dropping it would accept every value, and \
             what it was meant to hold cannot be known",
        ),
        (
            "allOf",
            json!({"type":"string"}),
            "`allOf` is not a non-empty list of schemas, and what it was meant to hold cannot \
             be known",
        ),
    ] {
        let t = tool(
            "f",
            json!({"type":"object","properties":{"p":{"type":"string",(keyword): value}}}),
        );
        let r = repair_one(&t, &p);
        assert_eq!(r.outcome, Outcome::Refused, "{keyword}: {:#?}", r.changes);
        let reasons: Vec<&str> = r.refusals.iter().map(|x| x.reason.as_str()).collect();
        assert_eq!(reasons, [said], "{keyword}");
    }
}

/// A bound string holding a whole number of 17 digits and more (`"12345678901234567"`, also
/// written `"12345678901234567.0"` or `"1.2345678901234567e16"`) is written as that integer,
/// exactly, where a 64-bit integer holds it (before, those spellings were written as the
/// double nearest, 12345678901234568 or 1.2345678901234568e16, with no loss said). A number
/// neither a 64-bit integer nor a double holds (`"12345678901234567.5"`, 21 digits) is written
/// as the double nearest it, and the change says the loss instead of keeping silent.
#[test]
fn a_bound_string_past_a_doubles_precision_is_written_exactly_or_said_lost() {
    let p = profile(&[
        "keyword-allowed: minimum (string)",
        "keyword-allowed: maximum (string)",
    ]);
    let t = tool(
        "f",
        json!({"type":"object","properties":{
            "i":{"type":"integer","minimum":"12345678901234567","maximum":"12345678901234567.0"},
            "n":{"type":"number","minimum":"1.2345678901234567e16",
                "maximum":"12345678901234567.5"},
            "w":{"type":"integer","minimum":"123456789012345678901"}}}),
    );
    let r = repair_one(&t, &p);
    assert_eq!(r.outcome, Outcome::Repaired, "{:#?}", r.refusals);
    let out = serde_json::to_string(r.tool.parameters.as_ref().unwrap()).unwrap();
    assert_eq!(
        out,
        r#"{"type":"object","properties":{"i":{"type":"integer","minimum":12345678901234567,"maximum":12345678901234567},"n":{"type":"number","minimum":12345678901234567,"maximum":1.2345678901234568e+16},"w":{"type":"integer","minimum":1.2345678901234568e+20}}}"#
    );
    let lost: Vec<(&str, Option<&str>)> = changes_said(&r)
        .into_iter()
        .map(|(at, _, lost)| (at, lost))
        .collect();
    assert_eq!(
        lost,
        [
            ("/properties/i/maximum", None),
            ("/properties/i/minimum", None),
            (
                "/properties/n/maximum",
                Some(
                    "`maximum: \"12345678901234567.5\"` spells 12345678901234567.5, which \
                     neither a 64-bit integer nor a 64-bit float holds (the numbers toolwire \
                     writes): it is written as the float nearest it, 1.2345678901234568e+16, \
                     another bound"
                )
            ),
            ("/properties/n/minimum", None),
            (
                "/properties/w/minimum",
                Some(
                    "`minimum: \"123456789012345678901\"` spells 123456789012345678901, which \
                     neither a 64-bit integer nor a 64-bit float holds (the numbers toolwire \
                     writes): it is written as the float nearest it, 1.2345678901234568e+20, \
                     another bound"
                )
            ),
        ]
    );
}
