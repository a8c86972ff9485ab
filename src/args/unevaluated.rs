//! The members an `unevaluatedProperties` *schema* refuses, said by what their value fails.
//!
//! Unlike `additionalProperties` and `patternProperties`, whose refusals the validator reports
//! as the errors of the member's value under their schema, `unevaluatedProperties` reports a
//! member whose value fails its schema only by name, as it does one its `false` refuses. Such
//! a member was accepted by name: "not a declared argument; leave it out" was false, and the
//! model could not tell what was wrong with the value (`unevaluatedProperties: {type: string}`
//! and `{"b": 1}`). Here those values are checked again under that schema alone, at their
//! place in the arguments, and their errors are said as a declared member's are.

use jsonschema::ValidationError;
use serde_json::{Map, Value};

use super::ArgsSchema;

impl ArgsSchema {
    /// The errors of the members `names` of the object of `e`, an `unevaluatedProperties`
    /// error whose keyword is a schema (not `false`), under that schema: each at its place in
    /// the arguments (the object's pointer, then the member's), its schema path the place in
    /// the compiled schema, as the whole schema's validator would give them. `None` where the
    /// keyword is no such schema, or its place or the object cannot be told.
    pub(super) fn unevaluated_errors(
        &self,
        e: &ValidationError<'_>,
        names: &[&String],
    ) -> Option<Vec<ValidationError<'static>>> {
        if !self
            .keyword_owner(e)?
            .get("unevaluatedProperties")?
            .is_object()
        {
            return None;
        }
        let uri = self.union_uri(e)?;
        let object = e.instance().as_object()?;
        // The object's own place: its tokens rebuilt as objects around the members, which
        // a wrapper of as many `additionalProperties` reaches, so the errors carry the
        // arguments' pointers (an array index prints as the object key of its digits).
        let tokens: Vec<String> = e
            .instance_path()
            .as_str()
            .split('/')
            .skip(1)
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect();
        let key = format!("{} {uri}", tokens.len());
        let validator = self.wrapper_validator(&key, || {
            let mut wrapper = serde_json::json!({ "additionalProperties": { "$ref": uri } });
            for _ in &tokens {
                wrapper = serde_json::json!({ "additionalProperties": wrapper });
            }
            wrapper
        })?;
        let mut members = Map::new();
        for name in names {
            members.insert((*name).clone(), object.get(name.as_str())?.clone());
        }
        let mut instance = Value::Object(members);
        for token in tokens.into_iter().rev() {
            instance = Value::Object(Map::from_iter([(token, instance)]));
        }
        Some(
            validator
                .iter_errors(&instance)
                .map(ValidationError::to_owned)
                .collect(),
        )
    }
}
