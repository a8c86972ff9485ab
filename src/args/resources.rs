//! Where an error's keyword sits in the document when a subschema below the root declares its
//! own `$id` (draft-04: `id`), as pydantic and zod output sometimes does.
//!
//! The validator names a keyword by its path inside the resource that holds it, not in the
//! document: `/properties/y/anyOf` of a resource at `/$defs/X` reads as the document's own
//! `/properties/y/anyOf`, another union. Its absolute keyword location
//! (`toolwire:///x.json#/properties/y/anyOf`) does say which resource; this module maps each
//! resource's URI back to where the document holds it.

use std::borrow::Cow;

use serde_json::Value;

/// The base URI the schema is compiled under when it names none (a root `$id` is resolved
/// against it): the one every command's resolver reads the document under.
pub(super) use crate::schema::refs::BASE;

use crate::schema::refs::{id_keyword, resolve_uri as resolve};

/// The resources of one schema: the root's URI and each nested resource's.
#[derive(Debug)]
pub(super) struct Resources {
    root: String,
    /// Each nested resource's URI (no fragment) and JSON Pointer in the document; `None` for
    /// a URI two places declare, which cannot say which of them an error is in.
    nested: Vec<(String, Option<String>)>,
}

/// A keyword's place in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Place<'a> {
    /// JSON Pointer of the keyword in the document.
    pub at: Cow<'a, str>,
    /// How long the pointer of the resource holding it is (0: the root): `at[..resource]`.
    pub resource: usize,
}

impl Resources {
    /// The resources of `root`, or `None` when no subschema below it declares an `$id` (the
    /// validator's paths are then the document's). A walk cut short might have missed one, so
    /// it is mapped too: an error in a resource the walk never reached maps to no place.
    pub(super) fn of(root: &Value) -> Option<Resources> {
        let key = id_keyword(root);
        let walk = crate::schema::walk(root);
        let declared: Vec<(&str, &str)> = walk
            .nodes
            .iter()
            .filter(|n| !n.pointer.is_empty())
            .filter_map(|n| Some((n.pointer.as_str(), n.object()?.get(key)?.as_str()?)))
            // An anchor (draft-06/07 `"$id": "#name"`) declares no resource.
            .filter(|(_, id)| !id.starts_with('#'))
            .collect();
        if declared.is_empty() && !walk.truncated {
            return None;
        }
        let root_uri = root_uri(root);
        let mut found = Resources {
            root: root_uri.clone().unwrap_or_default(),
            nested: Vec::new(),
        };
        let Some(root_uri) = root_uri else {
            // No URI for the root: no error's location can be told apart from another's.
            return Some(found);
        };
        // The walk lists a subschema before those inside it, so a resource's enclosing
        // resource is already known.
        let mut bases: Vec<(&str, String)> = vec![("", root_uri)];
        for (pointer, id) in declared {
            let base = bases
                .iter()
                .rev()
                .find(|(p, _)| inside(pointer, p))
                .map(|(_, u)| u.as_str())
                .unwrap_or_default();
            let Some(uri) = resolve(base, id) else {
                continue;
            };
            bases.push((pointer, uri.clone()));
            if uri == found.root {
                found.root.clear();
            }
            match found.nested.iter_mut().find(|(u, _)| *u == uri) {
                Some((_, at)) => *at = None,
                None => found.nested.push((uri, Some(pointer.to_string()))),
            }
        }
        Some(found)
    }

    /// The document place of the keyword at `absolute` (an absolute keyword location: a
    /// resource's URI, `#`, and a JSON Pointer into the resource, percent-encoded); `None`
    /// when the resource is not one of the schema's own or two places declare it.
    pub(super) fn place(&self, absolute: &str) -> Option<Place<'static>> {
        let (uri, fragment) = absolute.split_once('#').unwrap_or((absolute, ""));
        // The validator writes every escape whole and as UTF-8: anything else is not its text.
        let whole = |escape: &str| {
            escape
                .as_bytes()
                .get(..2)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
        };
        if !fragment.split('%').skip(1).all(whole) {
            return None;
        }
        let inner = percent_encoding::percent_decode_str(fragment)
            .decode_utf8()
            .ok()?;
        if !inner.is_empty() && !inner.starts_with('/') {
            return None;
        }
        let resource = if !self.root.is_empty() && uri == self.root {
            ""
        } else {
            self.nested.iter().find(|(u, _)| u == uri)?.1.as_deref()?
        };
        Some(Place {
            resource: resource.len(),
            at: Cow::Owned(format!("{resource}{inner}")),
        })
    }

    /// The URI the validator gives the root resource.
    pub(super) fn root(&self) -> Option<&str> {
        (!self.root.is_empty()).then_some(self.root.as_str())
    }
}

/// The URI the validator compiled under [`BASE`] gives `root`: its `$id` resolved against the
/// base, or the base (also for an anchor, draft-07's `"$id": "#name"`). `None` for an `$id`
/// that cannot be resolved or carries a fragment.
pub(super) fn root_uri(root: &Value) -> Option<String> {
    match root.get(id_keyword(root)) {
        Some(Value::String(id)) if !id.starts_with('#') => resolve(BASE, id),
        _ => Some(BASE.to_string()),
    }
}

/// True when `pointer` is `outer` or below it.
fn inside(pointer: &str, outer: &str) -> bool {
    pointer
        .strip_prefix(outer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nested_resources_map_to_their_document_places() {
        let r = Resources::of(&json!({"$defs":{
            "X":{"$id":"x.json","$defs":{"Y":{"$id":"sub/y.json"}}},
            "A":{"$id":"#anchor"},
            "D1":{"$id":"https://e.com/d.json"},"D2":{"$id":"https://e.com/d.json"}}}))
        .unwrap();
        let at = |a: &str| r.place(a).map(|p| (p.at.into_owned(), p.resource));
        assert_eq!(
            at("toolwire:///x.json#/properties/a%20%C3%A9/anyOf"),
            Some(("/$defs/X/properties/a é/anyOf".into(), 8))
        );
        assert_eq!(
            at("toolwire:///sub/y.json#/type"),
            Some(("/$defs/X/$defs/Y/type".into(), 16))
        );
        assert_eq!(
            at(&format!("{BASE}#/$defs/A/type")),
            Some(("/$defs/A/type".into(), 0))
        );
        // Declared twice: which one is unknown. Not the schema's: no place.
        assert_eq!(at("https://e.com/d.json#/type"), None);
        assert_eq!(at("https://e.com/other.json#/type"), None);
        // A malformed escape or an anchor is no pointer.
        assert_eq!(at("toolwire:///x.json#/a%2"), None);
        assert_eq!(at("toolwire:///x.json#/a%+5"), None);
        assert_eq!(at("toolwire:///x.json#/a%FF"), None);
        assert_eq!(at("toolwire:///x.json#name"), None);
        // No nested resource: the validator's paths are the document's.
        assert!(
            Resources::of(&json!({"$id":"https://e.com/t.json","$defs":{"A":{"$id":"#a"}}}))
                .is_none()
        );
    }

    #[test]
    fn draft_04_declares_resources_with_id() {
        let r = Resources::of(&json!({"$schema":"http://json-schema.org/draft-04/schema#",
            "id":"https://e.com/root.json","definitions":{"X":{"id":"x.json"}}}))
        .unwrap();
        assert_eq!(r.root(), Some("https://e.com/root.json"));
        assert_eq!(
            r.place("https://e.com/x.json#/type")
                .map(|p| p.at.into_owned()),
            Some("/definitions/X/type".into())
        );
        // In 2020-12 `id` is no keyword.
        assert!(Resources::of(&json!({"$defs":{"X":{"id":"x.json"}}})).is_none());
    }
}
