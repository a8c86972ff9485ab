//! Where in the arguments a `pattern` left unchecked ([`super::UncheckedPattern`]) meets a
//! string, or such a `patternProperties` key meets a member: the schema and the arguments
//! walked together, so that a warning names the value
//! whose verdict lacks the pattern (`/tags/1`), whether the pattern is placed by `properties`,
//! `items`, an `anyOf` branch or a `$ref`.
//!
//! Every branch of `anyOf`, `oneOf`, `not` and `if`/`then`/`else` is entered: whatever the
//! branches decide, the pattern was not checked there, and saying so too often is the safe
//! side. A `propertyNames` subschema is walked over each member's name, placed at that member
//! (`/x/aba`): the name is the string its pattern meets. Keywords whose places are not
//! followed here (`unevaluated*`, dynamic and remote references) make the walk incomplete,
//! which the caller must say.

use serde_json::Value;

use crate::schema::refs::{Step, step_from};

/// How many `$ref`s one path may follow (a loop is cut here, and the walk said incomplete).
const MAX_REF_HOPS: usize = 32;

/// How many (subschema, value) pairs one walk visits at most: `anyOf` under `items` under a
/// `$ref` multiplies, and a warning is not worth an unbounded walk.
const MAX_VISITS: usize = 200_000;

/// The places found: (index into the patterns searched for, JSON Pointer into the
/// arguments), in walk order without repeats; `incomplete` when some place the walk met was
/// not followed, so a pattern not found may still concern the arguments; `repeated` when a
/// pair was met again with another string: a member's name (by `propertyNames`) and its value
/// share a place, and ECMA-262 may match the one and not the other.
#[derive(Debug, Default)]
pub(super) struct Places {
    pub found: Vec<(usize, String)>,
    /// The string each of `found` met first: the value there, or under `propertyNames` the
    /// member's name.
    pub texts: Vec<String>,
    pub incomplete: bool,
    pub repeated: bool,
}

/// Walks `root` (the declared schema) over `instance`, finding where a string meets a
/// `pattern` whose keyword's JSON Pointer in `root` is one of `patterns`.
pub(super) fn places(root: &Value, instance: &Value, patterns: &[&str]) -> Places {
    let mut walk = Walk {
        root,
        patterns,
        visits: 0,
        out: Places::default(),
    };
    walk.visit(root, &mut String::new(), instance, &mut String::new(), 0, 0);
    walk.out
}

struct Walk<'a> {
    root: &'a Value,
    patterns: &'a [&'a str],
    visits: usize,
    out: Places,
}

impl Walk<'_> {
    /// `schema` sits at document pointer `here`; `instance` at arguments pointer `at`.
    fn visit(
        &mut self,
        schema: &Value,
        here: &mut String,
        instance: &Value,
        at: &mut String,
        hops: usize,
        depth: usize,
    ) {
        self.visits += 1;
        if depth > crate::args::MAX_DEPTH || self.visits > MAX_VISITS {
            self.out.incomplete = true;
            return;
        }
        let Value::Object(s) = schema else {
            return;
        };
        if let (Value::String(text), Some(Value::String(_))) = (instance, s.get("pattern")) {
            let keyword = format!("{here}/pattern");
            if let Some(i) = self.patterns.iter().position(|p| *p == keyword) {
                self.found(i, at, text);
            }
        }
        for unfollowed in ["$dynamicRef", "$recursiveRef"] {
            self.out.incomplete |= s.contains_key(unfollowed);
        }
        self.out.incomplete |= (instance.is_object() && s.contains_key("unevaluatedProperties"))
            || (instance.is_array() && s.contains_key("unevaluatedItems"));
        if let Some(Value::String(r)) = s.get("$ref") {
            match step_from(self.root, here, r) {
                Step::Local(target, mut there) if hops < MAX_REF_HOPS => {
                    self.visit(target, &mut there, instance, at, hops + 1, depth + 1);
                }
                _ => self.out.incomplete = true,
            }
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = s.get(keyword) {
                for (i, sub) in branches.iter().enumerate() {
                    self.sub(
                        sub,
                        here,
                        &[keyword, &i.to_string()],
                        instance,
                        at,
                        hops,
                        depth,
                    );
                }
            }
        }
        for keyword in ["not", "if", "then", "else"] {
            if let Some(sub) = s.get(keyword) {
                self.sub(sub, here, &[keyword], instance, at, hops, depth);
            }
        }
        if let (Some(names), Value::Object(members)) = (s.get("propertyNames"), instance) {
            // Each name is a string the subschema (its `pattern`) meets; named by its member,
            // as no other place of the arguments holds it (trial 59 D13: the warning said "a
            // place in the arguments not followed").
            for name in members.keys() {
                let name_value = Value::String(name.clone());
                self.child(
                    names,
                    here,
                    &["propertyNames"],
                    &name_value,
                    at,
                    name,
                    hops,
                    depth,
                );
            }
        }
        match instance {
            Value::Object(members) => self.members(s, here, members, at, hops, depth),
            Value::Array(items) => self.items(s, here, items, at, hops, depth),
            _ => {}
        }
    }

    /// Records that the pattern `i` meets the string `text` at the arguments' place `at`.
    fn found(&mut self, i: usize, at: &str, text: &str) {
        match self.out.found.iter().position(|(j, a)| *j == i && a == at) {
            Some(k) => self.out.repeated |= self.out.texts[k] != text,
            None => {
                self.out.found.push((i, at.to_string()));
                self.out.texts.push(text.to_string());
            }
        }
    }

    /// Visits `sub`, found at `here` followed by `tokens`, over the same value.
    #[allow(clippy::too_many_arguments)]
    fn sub(
        &mut self,
        sub: &Value,
        here: &mut String,
        tokens: &[&str],
        instance: &Value,
        at: &mut String,
        hops: usize,
        depth: usize,
    ) {
        let len = here.len();
        for t in tokens {
            here.push('/');
            here.push_str(&crate::json::escape_token(t));
        }
        self.visit(sub, here, instance, at, hops, depth + 1);
        here.truncate(len);
    }

    /// Visits `sub` (at `here` + `tokens`) over the member or item `token` of the value at `at`.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        sub: &Value,
        here: &mut String,
        tokens: &[&str],
        value: &Value,
        at: &mut String,
        token: &str,
        hops: usize,
        depth: usize,
    ) {
        let len = at.len();
        at.push('/');
        at.push_str(&crate::json::escape_token(token));
        self.sub(sub, here, tokens, value, at, hops, depth);
        at.truncate(len);
    }

    fn members(
        &mut self,
        s: &serde_json::Map<String, Value>,
        here: &mut String,
        members: &serde_json::Map<String, Value>,
        at: &mut String,
        hops: usize,
        depth: usize,
    ) {
        let declared = s.get("properties").and_then(Value::as_object);
        let patterned: Vec<(&String, Option<regex::Regex>, &Value)> = s
            .get("patternProperties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(p, sub)| {
                let rust = crate::schema::ecma::regex_crate_pattern(p);
                (p, regex::Regex::new(&rust).ok(), sub)
            })
            .collect();
        // A key left unchecked decides which members it places as the engine reads it, not
        // as ECMA-262 does: every member's verdict may rest on it (trial 57 D4), and each is
        // named, so what the key places is followed no further.
        let mut unchecked_keys = Vec::new();
        for (p, _, _) in &patterned {
            let keyword = crate::json::push_token(&format!("{here}/patternProperties"), p);
            if let Some(i) = self.patterns.iter().position(|x| *x == keyword) {
                unchecked_keys.push(p.as_str());
                for name in members.keys() {
                    let member = crate::json::push_token(at, name);
                    self.found(i, &member, name);
                }
            }
        }
        for (name, value) in members {
            let mut placed = false;
            if let Some(sub) = declared.and_then(|d| d.get(name)) {
                placed = true;
                self.child(
                    sub,
                    here,
                    &["properties", name],
                    value,
                    at,
                    name,
                    hops,
                    depth,
                );
            }
            for (p, re, sub) in &patterned {
                match re {
                    Some(re) if re.is_match(name) => {
                        placed = true;
                        self.child(
                            sub,
                            here,
                            &["patternProperties", p],
                            value,
                            at,
                            name,
                            hops,
                            depth,
                        );
                    }
                    Some(_) => {}
                    None if unchecked_keys.contains(&p.as_str()) => {}
                    // Which members it places is unknown, and so are the others.
                    None => self.out.incomplete = true,
                }
            }
            if !placed && let Some(sub) = s.get("additionalProperties") {
                self.child(
                    sub,
                    here,
                    &["additionalProperties"],
                    value,
                    at,
                    name,
                    hops,
                    depth,
                );
            }
        }
        for keyword in ["dependentSchemas", "dependencies"] {
            let Some(Value::Object(by_name)) = s.get(keyword) else {
                continue;
            };
            for (name, sub) in by_name {
                if sub.is_object() && members.contains_key(name) {
                    // The dependency applies to the object itself, not to the member.
                    let mut object = at.clone();
                    let whole = Value::Object(members.clone());
                    self.sub(
                        sub,
                        here,
                        &[keyword, name],
                        &whole,
                        &mut object,
                        hops,
                        depth,
                    );
                }
            }
        }
    }

    fn items(
        &mut self,
        s: &serde_json::Map<String, Value>,
        here: &mut String,
        items: &[Value],
        at: &mut String,
        hops: usize,
        depth: usize,
    ) {
        // 2020-12 `prefixItems` + `items`, or the older array `items` + `additionalItems`.
        let (tuple_keyword, rest_keyword) = if s.contains_key("prefixItems") {
            ("prefixItems", "items")
        } else if s.get("items").is_some_and(Value::is_array) {
            ("items", "additionalItems")
        } else {
            ("", "items")
        };
        let tuple = s.get(tuple_keyword).and_then(Value::as_array);
        let rest = s.get(rest_keyword).filter(|r| !r.is_array());
        for (i, value) in items.iter().enumerate() {
            let index = i.to_string();
            match tuple.and_then(|t| t.get(i)) {
                Some(sub) => self.child(
                    sub,
                    here,
                    &[tuple_keyword, &index],
                    value,
                    at,
                    &index,
                    hops,
                    depth,
                ),
                None => {
                    if let Some(sub) = rest {
                        self.child(sub, here, &[rest_keyword], value, at, &index, hops, depth);
                    }
                }
            }
            if let Some(sub) = s.get("contains") {
                self.child(sub, here, &["contains"], value, at, &index, hops, depth);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn found(schema: &Value, call: &Value, pattern_at: &str) -> (Vec<String>, bool) {
        let p = places(schema, call, &[pattern_at]);
        (p.found.into_iter().map(|(_, a)| a).collect(), p.incomplete)
    }

    #[test]
    fn items_nested_properties_branches_and_refs_are_followed() {
        let p = json!({"type":"string","pattern":"^(?:(a)|b)+\\1$"});
        let items = json!({"properties":{"tags":{"type":"array","items":p}}});
        assert_eq!(
            found(
                &items,
                &json!({"tags":["x","b",3]}),
                "/properties/tags/items/pattern"
            ),
            (vec!["/tags/0".into(), "/tags/1".into()], false)
        );
        let nested = json!({"properties":{"address":{"properties":{"zip":p}}}});
        assert_eq!(
            found(
                &nested,
                &json!({"address":{"zip":"b"}}),
                "/properties/address/properties/zip/pattern"
            ),
            (vec!["/address/zip".into()], false)
        );
        let branch = json!({"properties":{"v":{"anyOf":[{"type":"integer"},p]}}});
        assert_eq!(
            found(&branch, &json!({"v":"b"}), "/properties/v/anyOf/1/pattern"),
            (vec!["/v".into()], false)
        );
        let referenced = json!({"$defs":{"code":p},
            "properties":{"list":{"items":{"oneOf":[{"$ref":"#/$defs/code"}]}}}});
        assert_eq!(
            found(
                &referenced,
                &json!({"list":["a","b"]}),
                "/$defs/code/pattern"
            ),
            (vec!["/list/0".into(), "/list/1".into()], false)
        );
        // A key escaped in the arguments pointer as RFC 6901 writes it.
        let odd = json!({"additionalProperties":p});
        assert_eq!(
            found(&odd, &json!({"a/b":"b"}), "/additionalProperties/pattern"),
            (vec!["/a~1b".into()], false)
        );
    }

    #[test]
    fn places_not_followed_make_the_walk_incomplete_and_member_names_are_placed() {
        let p = json!({"type":"string","pattern":"^(?:(a)|b)+\\1$"});
        let names = json!({"properties":{"x":{"propertyNames":p}}});
        assert_eq!(
            found(
                &names,
                &json!({"x":{"b":1,"a/b":2}}),
                "/properties/x/propertyNames/pattern"
            ),
            (vec!["/x/b".into(), "/x/a~1b".into()], false),
            "a `propertyNames` pattern is placed at each member whose name it meets"
        );
        // A name and a value at one place are two strings the pattern may tell apart.
        let both = json!({"properties":{"x":{"propertyNames":{"$ref":"#/$defs/p"},
            "additionalProperties":{"$ref":"#/$defs/p"}}},"$defs":{"p":p}});
        let met = places(&both, &json!({"x":{"b":"c"}}), &["/$defs/p/pattern"]);
        assert_eq!((met.found.len(), met.repeated), (1, true));
        let met = places(&both, &json!({"x":{"b":"b"}}), &["/$defs/p/pattern"]);
        assert_eq!((met.found.len(), met.repeated), (1, false));
        let remote = json!({"properties":{"s":{"$ref":"https://example.com/s.json"}}});
        assert!(found(&remote, &json!({"s":"b"}), "/x/pattern").1);
        // A loop through `$ref` ends at the hop limit, said incomplete.
        let looped = json!({"$ref":"#"});
        assert!(found(&looped, &json!("b"), "/pattern").1);
    }
}
