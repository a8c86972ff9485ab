//! `type-list`: `type` given as a list.

use super::*;

pub const RULE: Rule = Rule {
    id: "type-list",
    checks: "`type` is a list. A list of one type is judged by the `[\"string\"]` case, one \
             type plus `null` by the `[\"string\",\"null\"]` case, any other list by the \
             `[\"string\",\"integer\"]` case; a name given twice counts once \
             (`[\"string\", \"string\"]` is judged as `[\"string\"]`), and the finding says \
             the repeat, which the JSON Schema meta-schema refuses (`uniqueItems`). A name \
             that joins several in one string (`[\"string, null\"]`) counts as the names it \
             joins (`type-invalid` reports the string itself).",
    features: "`type-list: string`, `type-list: string,null`, `type-list: string,integer`",
    example: r#"{"type": "object", "properties": {"note": {"type": ["string", "null"]}}}"#,
    example_target: None,
    fix: "For `[T, \"null\"]`: use `T` and leave the property out of `required` (or `nullable: true` where the profile allows it). For a real union: `anyOf` with one branch per type, where allowed.",
    repair: "partly: `[T, \"null\"]` becomes `T` made optional, `[T]` becomes `T`, a name given twice is written once (`[T, T]` becomes `T`), and `integer` beside `number` is dropped (every integer is a number); other unions, `[\"null\"]` and a schema whose only value is null cannot be repaired",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::TYPE_LIST,
        ..Hooks::NONE
    },
};

/// What `repair::fixes::types::type_list` rewrites: a list that says one type besides `null`.
fn repairable(_: &Feat<'_>, r: &Repairing<'_>) -> bool {
    r.node()
        .is_some_and(|m| crate::repair::type_list_reading(m).is_ok())
}

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::TypeList, _))
}

/// The case that judges a type list: one type, one type plus null, or anything else, each
/// name counted once: `["string", "string"]` says one type, not a union of two (before, it
/// was judged by the `string,integer` case, and repair's words called it a union).
///
/// A name that joins several in one string (`["string, null"]`) counts as the names it joins
/// ([`joined_names`]): the list means `["string", "null"]` and is judged by that case (before,
/// by the one-name case, while repair's reading of the finding split it as a union).
pub fn representative(list: &[serde_json::Value]) -> &'static str {
    if let Some(read) = joined_names(list) {
        return representative(&read);
    }
    let mut names = 0;
    let mut null = false;
    for (i, v) in list.iter().enumerate() {
        if list[..i].contains(v) {
            continue;
        }
        names += 1;
        null |= v.as_str() == Some("null");
    }
    match (names, null) {
        (1, _) => value::LIST_OF_ONE,
        (2, true) => value::LIST_WITH_NULL,
        _ => value::LIST_OF_TYPES,
    }
}

/// `list` with each name that joins several in one string
/// ([`joined_type_names`](crate::profile::feature::joined_type_names): `"string, null"`)
/// written as the names it joins, in its place; `None` when no name in it does (nearly every
/// list: nothing is copied).
pub fn joined_names(list: &[serde_json::Value]) -> Option<Vec<serde_json::Value>> {
    fn joined(v: &serde_json::Value) -> Option<Vec<&str>> {
        v.as_str()
            .and_then(crate::profile::feature::joined_type_names)
    }
    if !list.iter().any(|v| joined(v).is_some()) {
        return None;
    }
    let mut read = Vec::new();
    for v in list {
        match joined(v) {
            Some(names) => read.extend(names.into_iter().map(serde_json::Value::from)),
            None => read.push(v.clone()),
        }
    }
    Some(read)
}

/// The first name `list` gives more than once, which the meta-schema refuses (`type` as a
/// list has `uniqueItems: true`, draft 2020-12 meta/validation); `None` when each is given
/// once.
pub fn repeated(list: &[serde_json::Value]) -> Option<&serde_json::Value> {
    list.iter()
        .enumerate()
        .find_map(|(i, v)| list[..i].contains(v).then_some(v))
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if let Ty::List(list) = n.ty {
        let rep = representative(list);
        // The finding quotes the list the tool has (`type-list: integer,null`), not only the
        // case that judges it (`type-list: string,null`): repair and compile list it by name.
        let members: Vec<String> = list
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect();
        let shown = format!("type-list: {}", members.join(","));
        cx.feature_shown(
            At::Key(n.frame, "type"),
            Feat::TypeList(rep),
            n.placement,
            &shown,
            || {
                let names: Vec<String> = list.iter().map(|v| v.to_string()).collect();
                let mut what = match repeated(list) {
                    Some(twice) => format!(
                        "`type` is a list ([{}]) that gives {twice} more than once (the JSON \
                         Schema meta-schema wants each name once)",
                        names.join(", ")
                    ),
                    None => format!("`type` is a list ([{}])", names.join(", ")),
                };
                // Said as what it means, which the case judging it is chosen by.
                if let Some(read) = joined_names(list) {
                    let read: Vec<String> = read.iter().map(|v| v.to_string()).collect();
                    what.push_str(&format!(
                        " that joins names in one string, read as [{}]",
                        read.join(", ")
                    ));
                }
                what
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn findings_quote_the_list_as_written() {
        // Judged by the case `type-list: string,null`, quoted as the tool has it, with the case
        // named in the message (what `repair` and `compile` list as unverified).
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile = crate::profile::CompiledProfile::new(set.get("anthropic/messages").unwrap());
        let parameters =
            json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}});
        let tool = crate::profile::detect::ToolRef {
            name: Some("probe_tool"),
            description: Some("Looks up a record by its identifier."),
            parameters: Some(&parameters),
            index: 0,
            ..Default::default()
        };
        let f: Vec<_> = crate::check::check_tools(&[tool], &profile)
            .into_iter()
            .filter(|f| f.rule == "type-list")
            .collect();
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].parameter, "type-list: integer,null");
        assert!(
            f[0].message.contains("(case `type-list: string,null`)"),
            "{}",
            f[0].message
        );
    }

    /// A name given twice counts once: `["string", "string"]` is judged as `["string"]`, and
    /// `["integer", "null", "null"]` as `[T, "null"]` (before: both by the `string,integer`
    /// case, as a union of types), the finding saying the repeat.
    #[test]
    fn a_repeated_name_counts_once() {
        let r = "type-list";
        let s = json!({"type":"object","properties":{
            "a":{"type":["string","string"]}, "b":{"type":["integer","null","null"]},
            "c":{"type":["string","integer","string"]}}});
        assert_eq!(
            seen(r, s.clone()),
            pairs(&[
                ("/properties/a/type", "type-list: string"),
                ("/properties/b/type", "type-list: string,null"),
                ("/properties/c/type", "type-list: string,integer"),
            ])
        );
        let m = messages(r, s);
        assert!(
            m[0].starts_with(
                "`type` is a list ([\"string\", \"string\"]) that gives \"string\" more than \
                 once (the JSON Schema meta-schema wants each name once)"
            ),
            "{}",
            m[0]
        );
        assert!(
            m[1].contains("that gives \"null\" more than once"),
            "{}",
            m[1]
        );
    }

    /// OpenAI's offline model judges `type` as the meta-schema does: a list naming a type
    /// twice is refused (`uniqueItems`), as an empty one is (before: accepted).
    #[test]
    fn the_openai_model_refuses_a_repeated_name() {
        let problem =
            |t: serde_json::Value| crate::target::openai::meta_problem(&json!({"type": t}));
        assert!(problem(json!(["string", "string"])).is_some());
        assert!(problem(json!(["string", "null", "null"])).is_some());
        assert!(problem(json!(["string", "null"])).is_none());
    }

    #[test]
    fn lists_map_to_their_representative_case() {
        let r = "type-list";
        let s = json!({"type":"object","properties":{
            "a":{"type":["integer","null"]}, "b":{"type":["string","number","null"]}, "c":{"type":["number"]}}});
        assert_eq!(
            seen(r, s),
            pairs(&[
                ("/properties/a/type", "type-list: string,null"),
                ("/properties/b/type", "type-list: string,integer"),
                ("/properties/c/type", "type-list: string"),
            ])
        );
    }

    /// A name that joins several in one string counts as the names it joins: `["string,
    /// null"]` is judged by the `string,null` case (before: by the one-name case `string`,
    /// while repair's reading of the finding split it as a union), the finding quoting it as
    /// written and its words saying the reading.
    #[test]
    fn a_joined_name_counts_as_the_names_it_joins() {
        let r = "type-list";
        let s = json!({"type":"object","properties":{
            "a":{"type":["string, null"]}, "b":{"type":["string|integer"]},
            "c":{"type":["integer", "string | null"]}, "d":{"type":["string, foo"]}}});
        assert_eq!(
            seen(r, s.clone()),
            pairs(&[
                ("/properties/a/type", "type-list: string,null"),
                ("/properties/b/type", "type-list: string,integer"),
                ("/properties/c/type", "type-list: string,integer"),
                ("/properties/d/type", "type-list: string"),
            ])
        );
        let set = crate::profile::embedded().expect("built-in profiles load");
        let profile = crate::profile::CompiledProfile::new(set.get("portable").unwrap());
        let f: Vec<_> = check_under(&profile, &s)
            .into_iter()
            .filter(|f| f.rule == r && f.pointer == "/properties/a/type")
            .collect();
        assert_eq!(f[0].parameter, "type-list: string, null");
        assert!(
            f[0].message.starts_with(
                "`type` is a list ([\"string, null\"]) that joins names in one string, read as \
                 [\"string\", \"null\"]"
            ),
            "{}",
            f[0].message
        );
        assert!(
            f[0].message.contains("(case `type-list: string,null`)"),
            "{}",
            f[0].message
        );
    }
}
