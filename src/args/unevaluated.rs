//! The members an `unevaluatedProperties` *schema* refuses, and the items an
//! `unevaluatedItems` schema refuses, said by what their value fails.
//!
//! Unlike `additionalProperties` and `patternProperties`, whose refusals the validator reports
//! as the errors of the member's value under their schema, `unevaluatedProperties` reports a
//! member whose value fails its schema only by name, as it does one its `false` refuses. Such
//! a member was accepted by name: "not a declared argument; leave it out" was false, and the
//! model could not tell what was wrong with the value (`unevaluatedProperties: {type: string}`
//! and `{"b": 1}`). `unevaluatedItems` reports such items by their values' JSON text only, at
//! the list, and "the list has extra items; expected no items beyond the declared ones" was as
//! false (`prefixItems: [{type: string}]`, `unevaluatedItems: {type: integer}` and `["x",
//! "y"]`). Here those values are checked again under that schema alone, at their place in
//! the arguments, and their errors are said as a declared member's are; normalisation (an
//! optional member sent as null, coercion) reads them as it reads a declared member's.

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;
use serde_json::{Map, Value};

use super::ArgsSchema;

/// The members or items an `unevaluatedProperties` or `unevaluatedItems` schema refuses by
/// their value: each as its token in the arguments' pointer (a member's name, an item's
/// index in digits) and its value.
pub(super) type Refused = Vec<(String, Value)>;

impl ArgsSchema {
    /// Whether the keyword of `e` (an `unevaluatedProperties` or `unevaluatedItems` error) is
    /// a schema, which refuses by value, not `false`, which refuses whatever is there.
    pub(super) fn unevaluated_is_schema(&self, e: &ValidationError<'_>) -> bool {
        self.keyword_owner(e)
            .and_then(|o| o.get(e.kind().keyword()))
            .is_some_and(Value::is_object)
    }

    /// The members `names` of the object of `e`, with their values ([`Refused`]); `None`
    /// where one is not there.
    pub(super) fn refused_members(e: &ValidationError<'_>, names: &[&String]) -> Option<Refused> {
        let object = e.instance().as_object()?;
        names
            .iter()
            .map(|n| Some(((*n).clone(), object.get(n.as_str())?.clone())))
            .collect()
    }

    /// The items of the list of `e`, an `unevaluatedItems` error whose keyword is a schema,
    /// that the keyword refuses ([`Refused`]). The validator names them by their JSON text
    /// alone (`unexpected`), which an evaluated item may share: their indexes are those the
    /// keyword's schema fails below it when the keyword's owner is evaluated on the list on
    /// its own. `None` where the keyword is no such schema, its owner's place cannot be told,
    /// or those items are not the ones named (a `$dynamicRef` read otherwise out of its
    /// dynamic scope).
    pub(super) fn refused_items(
        &self,
        e: &ValidationError<'_>,
        unexpected: &[String],
    ) -> Option<Refused> {
        if !matches!(e.kind(), ValidationErrorKind::UnevaluatedItems { .. })
            || !self.unevaluated_is_schema(e)
        {
            return None;
        }
        let uri = self.union_uri(e)?;
        let owner = uri.strip_suffix("/unevaluatedItems")?;
        let array = e.instance().as_array()?;
        let evaluation = self
            .branch_validator(owner)?
            .evaluate(e.instance().as_ref());
        // The keyword's unit, reached through the wrapper's `$ref`: each item it evaluates is a
        // child at the item's place, invalid where the item fails the keyword's schema.
        let mut indexes: Vec<usize> = Vec::new();
        let mut stack = vec![evaluation.root()];
        while let Some(unit) = stack.pop() {
            if unit.evaluation_path().as_str() != "/$ref/unevaluatedItems" {
                stack.extend(unit.children());
                continue;
            }
            indexes.extend(
                unit.children()
                    .filter(|item| !item.valid())
                    .filter_map(|item| {
                        item.instance_location()
                            .as_str()
                            .split('/')
                            .nth(1)?
                            .parse::<usize>()
                            .ok()
                    }),
            );
        }
        indexes.sort_unstable();
        indexes.dedup();
        let refused: Refused = indexes
            .into_iter()
            .map(|i| Some((i.to_string(), array.get(i)?.clone())))
            .collect::<Option<_>>()?;
        let mut found: Vec<String> = refused.iter().map(|(_, v)| v.to_string()).collect();
        let mut named = unexpected.to_vec();
        found.sort_unstable();
        named.sort_unstable();
        (found == named).then_some(refused)
    }

    /// The errors of what `e`, an `unevaluatedProperties` or `unevaluatedItems` error whose
    /// keyword is a schema (not `false`), refuses ([`Refused`]), under that schema: each at its
    /// place in the arguments (the object's or list's pointer, then the member's name or the
    /// item's index), its schema path the place in the compiled schema, as the whole schema's
    /// validator would give them. `None` where the keyword is no such schema, or its place or
    /// the value cannot be told.
    pub(super) fn unevaluated_errors(
        &self,
        e: &ValidationError<'_>,
        refused: &Refused,
    ) -> Option<Vec<ValidationError<'static>>> {
        if !self.unevaluated_is_schema(e) {
            return None;
        }
        let uri = self.union_uri(e)?;
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
        let mut instance = Value::Object(refused.iter().cloned().collect::<Map<_, _>>());
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

    /// The errors of the values an `unevaluatedProperties` or `unevaluatedItems` schema
    /// refuses by value in `e` ([`ArgsSchema::unevaluated_errors`]), for normalisation to
    /// read as it reads a declared member's: a member declared only in a part of the schema
    /// the call does not meet is left out (said otherwise, and another schema will judge it).
    /// `None` for any other error.
    pub(super) fn refused_by_value(
        &self,
        e: &ValidationError<'_>,
    ) -> Option<Vec<ValidationError<'static>>> {
        let refused = match e.kind() {
            ValidationErrorKind::UnevaluatedProperties { unexpected }
                if self.unevaluated_is_schema(e) =>
            {
                let in_place = self
                    .schema_place(e)
                    .and_then(|p| Some(p.at.rsplit_once('/')?.0.to_string()))
                    .map(|owner| super::declared_in_place(self.lookup_root(), &owner))
                    .unwrap_or_default();
                let names: Vec<&String> = unexpected
                    .iter()
                    .filter(|n| !in_place.contains(&n.as_str()))
                    .collect();
                Self::refused_members(e, &names)?
            }
            ValidationErrorKind::UnevaluatedItems { unexpected } => {
                self.refused_items(e, unexpected)?
            }
            _ => return None,
        };
        self.unevaluated_errors(e, &refused)
    }
}
