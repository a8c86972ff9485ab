//! A rewrite being made: copies of the subschemas it edits, not of the whole tool. Repair
//! applies many rewrites of one kind to one tool in place ([`super::Rewrite::apply`]); a copy
//! of the tool per rewrite would make a schema with n such errors cost n copies of itself.

use serde_json::{Map, Value};

use super::{Rewrite, Tool, no_schema, schema_at, schema_mut};
use crate::repair::place;

/// Edits of a few subschemas of a tool.
#[derive(Clone, Default)]
pub(in crate::repair) struct Edits {
    /// Edited copies of subschema objects, by pointer; none lies inside another.
    schemas: Vec<(String, Map<String, Value>)>,
    /// Members set (`Some`) or removed (`None`) in a subschema object that is not copied:
    /// `(pointer, key, value)`, applied after `schemas`.
    members: Vec<(String, String, Option<Value>)>,
}

impl Edits {
    /// Makes the edits in `tool`. Errors when it has no subschema object at a pointer.
    pub fn apply(self, tool: &mut Tool) -> Result<(), String> {
        for (pointer, schema) in self.schemas {
            *schema_mut(tool, &pointer)? = schema;
        }
        for (pointer, key, value) in self.members {
            set(schema_mut(tool, &pointer)?, key, value);
        }
        Ok(())
    }

    /// How many schema values the edits hold (repair's work cap counts them).
    pub fn copied(&self) -> usize {
        let count = crate::json::value_count;
        let copied = self.schemas.iter().flat_map(|(_, m)| m.values()).map(count);
        let set = self
            .members
            .iter()
            .filter_map(|(_, _, v)| v.as_ref())
            .map(count);
        self.schemas.len() + copied.sum::<usize>() + set.sum::<usize>()
    }
}

/// Sets member `key` of `m` to `value`, or removes it (`None`).
fn set(m: &mut Map<String, Value>, key: String, value: Option<Value>) {
    match value {
        Some(v) => {
            m.insert(key, v);
        }
        None => {
            m.shift_remove(&key);
        }
    }
}

/// The edits of one candidate rewrite of `base`, read and written like the tool itself.
#[derive(Clone)]
pub(in crate::repair) struct Draft<'a> {
    base: &'a Tool,
    edits: Edits,
}

impl<'a> Draft<'a> {
    pub fn of(base: &'a Tool) -> Draft<'a> {
        Draft {
            base,
            edits: Edits::default(),
        }
    }

    /// The subschema object at `pointer`, as this draft has it, to edit. Errors (naming the
    /// pointer) when there is no such object.
    pub fn schema(&mut self, pointer: &str) -> Result<&mut Map<String, Value>, String> {
        if let Some(i) = self.covering(pointer) {
            let (at, schema) = &mut self.edits.schemas[i];
            let rel = &pointer[at.len()..];
            return within_mut(schema, rel).ok_or_else(|| no_schema(pointer));
        }
        let mut copy = schema_at(self.base, pointer)?.clone();
        // Copies already made below it move into the new copy, so that none is lost.
        let mut i = 0;
        while i < self.edits.schemas.len() {
            if is_below(&self.edits.schemas[i].0, pointer) {
                let (at, schema) = self.edits.schemas.swap_remove(i);
                let slot =
                    within_mut(&mut copy, &at[pointer.len()..]).ok_or_else(|| no_schema(&at))?;
                *slot = schema;
            } else {
                i += 1;
            }
        }
        self.edits.schemas.push((pointer.to_string(), copy));
        let last = self.edits.schemas.len() - 1;
        Ok(&mut self.edits.schemas[last].1)
    }

    /// The subschema object at `pointer` as this draft has it, to read.
    pub fn view(&self, pointer: &str) -> Result<&Map<String, Value>, String> {
        match self.covering(pointer) {
            Some(i) => {
                let (at, schema) = &self.edits.schemas[i];
                within(schema, &pointer[at.len()..]).ok_or_else(|| no_schema(pointer))
            }
            None => schema_at(self.base, pointer),
        }
    }

    /// Sets member `key` of the subschema object at `pointer` to `value`, or removes it
    /// (`None`), without copying that subschema. Errors when there is no such object.
    pub fn set_member(
        &mut self,
        pointer: &str,
        key: &str,
        value: Option<Value>,
    ) -> Result<(), String> {
        if self.covering(pointer).is_none() {
            schema_at(self.base, pointer)?;
            let member = (pointer.to_string(), key.to_string(), value);
            self.edits.members.push(member);
            return Ok(());
        }
        set(self.schema(pointer)?, key.to_string(), value);
        Ok(())
    }

    /// The copy at or above `pointer`, if one was made.
    fn covering(&self, pointer: &str) -> Option<usize> {
        self.edits
            .schemas
            .iter()
            .position(|(at, _)| at == pointer || is_below(pointer, at))
    }
}

impl From<Draft<'_>> for Rewrite {
    fn from(d: Draft<'_>) -> Rewrite {
        Rewrite::Edits(d.edits)
    }
}

/// Whether `pointer` lies strictly inside the value at `above`.
fn is_below(pointer: &str, above: &str) -> bool {
    pointer.len() > above.len()
        && pointer.starts_with(above)
        && pointer[above.len()..].starts_with('/')
}

/// The object at `rel` (a pointer relative to `map`, `""` for `map` itself).
fn within<'m>(map: &'m Map<String, Value>, rel: &str) -> Option<&'m Map<String, Value>> {
    let mut tokens = place::tokens(rel).into_iter();
    let Some(first) = tokens.next() else {
        return Some(map);
    };
    let mut v = map.get(&first)?;
    for t in tokens {
        v = match v {
            Value::Object(m) => m.get(&t)?,
            Value::Array(a) => a.get(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    v.as_object()
}

/// [`within`], to edit.
fn within_mut<'m>(
    map: &'m mut Map<String, Value>,
    rel: &str,
) -> Option<&'m mut Map<String, Value>> {
    let mut tokens = place::tokens(rel).into_iter();
    let Some(first) = tokens.next() else {
        return Some(map);
    };
    let mut v = map.get_mut(&first)?;
    for t in tokens {
        v = match v {
            Value::Object(m) => m.get_mut(&t)?,
            Value::Array(a) => a.get_mut(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    v.as_object_mut()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tool(params: Value) -> Tool {
        Tool {
            name: Some("t".into()),
            description: None,
            parameters: Some(params),
            strict: None,
            strict_tool_use: None,
        }
    }

    fn applied(d: Draft<'_>, base: &Tool) -> Value {
        Rewrite::from(d)
            .applied_to(base)
            .unwrap()
            .parameters
            .unwrap()
    }

    /// Edits at a subschema, below it, above it (after the one below) and a member of the
    /// root all land, as a copy of the whole tool edited the same way would have them.
    #[test]
    fn edits_at_nested_places_all_land() {
        let base = tool(json!({"type":"object","required":["a","b"],"properties":{
            "a":{"type":"object","properties":{"x":{"type":"int"}}},
            "b":{"anyOf":[{"type":"str"},{"type":"null"}]}}}));
        let mut d = Draft::of(&base);
        d.schema("/properties/a/properties/x")
            .unwrap()
            .insert("type".into(), json!("integer"));
        d.schema("/properties/a")
            .unwrap()
            .insert("title".into(), json!("A"));
        // Now inside the copy of `a`: still the edited `x`.
        assert_eq!(
            d.view("/properties/a/properties/x").unwrap()["type"],
            "integer"
        );
        d.schema("/properties/b/anyOf/0")
            .unwrap()
            .insert("type".into(), json!("string"));
        d.set_member("", "required", Some(json!(["a"]))).unwrap();
        d.set_member("/properties/a", "description", Some(json!("d")))
            .unwrap();
        assert_eq!(
            applied(d, &base),
            json!({"type":"object","required":["a"],"properties":{
                "a":{"type":"object","properties":{"x":{"type":"integer"}},"title":"A","description":"d"},
                "b":{"anyOf":[{"type":"string"},{"type":"null"}]}}})
        );
    }

    /// A copy made above earlier ones takes them in, instead of overwriting them.
    #[test]
    fn a_copy_above_earlier_ones_keeps_their_edits() {
        let base = tool(json!({"properties":{"a/b":{"type":"x"},"c":{"type":"y"}}}));
        let mut d = Draft::of(&base);
        d.schema("/properties/a~1b")
            .unwrap()
            .insert("type".into(), json!("string"));
        d.schema("/properties/c")
            .unwrap()
            .insert("type".into(), json!("number"));
        d.schema("").unwrap().insert("type".into(), json!("object"));
        assert_eq!(
            applied(d, &base),
            json!({"properties":{"a/b":{"type":"string"},"c":{"type":"number"}},"type":"object"})
        );
    }

    #[test]
    fn no_subschema_there_is_an_error_naming_the_pointer() {
        let base = tool(json!({"properties":{"a":{"type":"string"}}}));
        let mut d = Draft::of(&base);
        let e = d.schema("/properties/b").unwrap_err();
        assert!(e.contains("/properties/b"), "{e}");
        assert!(d.schema("/properties/a/type").is_err());
        assert!(d.set_member("/properties/c", "type", None).is_err());
    }
}
