//! Reading a JSON Pointer into a schema with schema semantics: which tokens are keywords,
//! which are member names (under `properties`, `$defs`, ...), which are indices. A property
//! literally named `default` or `type` is a member name, never a keyword.

use crate::schema::{LIST_OF_SCHEMAS, MAP_OF_SCHEMAS, ONE_SCHEMA};

/// One step of a pointer read with schema semantics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A keyword of the current subschema whose value is a subschema (`not`, `items`,
    /// `additionalProperties`, ...) or a map/list of them (followed by a member or index).
    Applicator(String),
    /// A member of a map keyword: `properties/<name>`.
    Member(String, String),
    /// An element of a list keyword: `anyOf/<n>`.
    Element(String, usize),
    /// A keyword whose value is not a subschema (`type`, `enum`, `required`, `minimum`...),
    /// with what follows inside its value (`required/0` → `["0"]`).
    Keyword(String, Vec<String>),
}

/// Unescapes and splits an RFC 6901 pointer (`""` → no tokens).
pub fn tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Reads `pointer` step by step.
pub fn steps(pointer: &str) -> Vec<Step> {
    let toks = tokens(pointer);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].as_str();
        let next = toks.get(i + 1);
        if MAP_OF_SCHEMAS.contains(&t)
            && let Some(name) = next
        {
            out.push(Step::Member(t.to_string(), name.clone()));
            i += 2;
        } else if (LIST_OF_SCHEMAS.contains(&t) || t == "items")
            && let Some(n) = next.and_then(|n| n.parse::<usize>().ok())
        {
            out.push(Step::Element(t.to_string(), n));
            i += 2;
        } else if (ONE_SCHEMA.contains(&t) || t == "items") && next.is_some() {
            out.push(Step::Applicator(t.to_string()));
            i += 1;
        } else {
            out.push(Step::Keyword(t.to_string(), toks[i + 1..].to_vec()));
            break;
        }
    }
    out
}

/// When `pointer` names keyword `keyword` of a subschema, that subschema's pointer.
pub fn keyword_owner(pointer: &str, keyword: &str) -> Option<String> {
    match steps(pointer).last() {
        Some(Step::Keyword(k, rest)) if k == keyword && rest.is_empty() => {
            Some(pointer[..pointer.len() - escaped(keyword).len() - 1].to_string())
        }
        _ => None,
    }
}

/// When `pointer` names keyword `keyword` of a subschema or a place inside its value
/// (`/required/1`: the second name in `required`), that subschema's pointer.
pub fn keyword_value_owner(pointer: &str, keyword: &str) -> Option<String> {
    match steps(pointer).last() {
        Some(Step::Keyword(k, rest)) if k == keyword => {
            let suffix: usize = std::iter::once(k)
                .chain(rest)
                .map(|t| escaped(t).len() + 1)
                .sum();
            Some(pointer[..pointer.len() - suffix].to_string())
        }
        _ => None,
    }
}

/// When `pointer` ends in a keyword (whatever it is), that keyword and its subschema's pointer.
pub fn split_keyword(pointer: &str) -> Option<(String, String)> {
    match steps(pointer).last() {
        Some(Step::Keyword(k, rest)) if rest.is_empty() => Some((
            pointer[..pointer.len() - escaped(k).len() - 1].to_string(),
            k.clone(),
        )),
        _ => None,
    }
}

/// When `pointer` names a member of `properties`: the object schema's pointer and the name.
pub fn property_of(pointer: &str) -> Option<(String, String)> {
    match steps(pointer).last() {
        Some(Step::Member(kw, name)) if kw == "properties" => {
            let suffix = format!("/properties/{}", escaped(name));
            Some((
                pointer[..pointer.len() - suffix.len()].to_string(),
                name.clone(),
            ))
        }
        _ => None,
    }
}

fn escaped(token: &str) -> String {
    crate::json::escape_token(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_named_like_keywords_are_names() {
        assert_eq!(
            steps("/properties/default/default"),
            [
                Step::Member("properties".into(), "default".into()),
                Step::Keyword("default".into(), vec![])
            ]
        );
        assert_eq!(
            keyword_owner("/properties/default/default", "default").as_deref(),
            Some("/properties/default")
        );
        assert_eq!(keyword_owner("/properties/default", "default"), None);
        assert_eq!(
            property_of("/properties/a~1b"),
            Some((String::new(), "a/b".to_string()))
        );
    }

    #[test]
    fn lists_applicators_and_keyword_values() {
        assert_eq!(
            steps("/anyOf/1/items/not/required/0"),
            [
                Step::Element("anyOf".into(), 1),
                Step::Applicator("items".into()),
                Step::Applicator("not".into()),
                Step::Keyword("required".into(), vec!["0".into()])
            ]
        );
        assert_eq!(
            split_keyword("/properties/x/type"),
            Some(("/properties/x".into(), "type".into()))
        );
        assert_eq!(split_keyword("/properties/x"), None);
        assert_eq!(split_keyword("/required/0"), None);
        assert_eq!(
            keyword_value_owner("/properties/a~1b/required/1", "required").as_deref(),
            Some("/properties/a~1b")
        );
        assert_eq!(
            keyword_value_owner("/required", "required").as_deref(),
            Some("")
        );
        assert_eq!(keyword_value_owner("/required/0", "type"), None);
    }
}
