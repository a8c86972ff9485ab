//! Whether the verdict on a number of the arguments read as another value
//! ([`crate::json::inexact_numbers`]: an integer past 2^64, a decimal no double spells) may
//! rest on the digits the 64-bit float read does not hold.
//!
//! The engine's own evaluation of the arguments is read, keyword by keyword: only a keyword
//! evaluated can sway the verdict (one an `anyOf` left unevaluated did not), so what is
//! found is exact for the engine's verdict. Keywords comparing the number's value
//! (`minimum`, `maximum`, their exclusive forms, `multipleOf`, `enum`, `const`) judge it by
//! digits the float may not hold, and so do `enum`, `const` and `uniqueItems` at a value
//! holding it (they compare whole values). `type` judges it so only where it allows
//! `integer` and the float read is whole while the number sent is written with a point or an
//! exponent (`1.00000000000000000001`, read as 1.0): a float read is fractional only where
//! the number sent is, and an integer written in full is whole as its float is.

use serde_json::Value;

use super::ArgsSchema;

/// The keywords comparing a number's value, at the number itself.
const COMPARING: [&str; 8] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "divisibleBy",
    "enum",
    "const",
];

/// The keywords comparing whole values, at a value holding the number.
const COMPARING_WHOLE: [&str; 3] = ["enum", "const", "uniqueItems"];

impl ArgsSchema {
    /// The keyword whose verdict on the number `n` of `arguments` may rest on the digits its
    /// float does not hold (`maximum`), or `None` when no keyword evaluated does, and the
    /// verdict is the number sent's as much as the float's.
    pub(super) fn judges_digits(
        &self,
        arguments: &Value,
        n: &crate::json::InexactNumberAt,
    ) -> Option<String> {
        let depth = crate::json::value_depth(arguments);
        if depth > super::MAX_DEPTH {
            // Not evaluated (the call is refused for its depth): nothing can be vouched for.
            return Some("the schema".to_string());
        }
        let evaluation = super::on_deep_stack(self.depth.max(depth) > super::SHALLOW, || {
            serde_json::to_value(self.validator.evaluate(arguments).list()).unwrap_or_default()
        });
        let whole_read = n.read_as.as_f64().is_some_and(|f| f.fract() == 0.0);
        let integer_in_full = !n.written.contains(['.', 'e', 'E']);
        let nodes = evaluation.get("details").and_then(Value::as_array)?;
        nodes.iter().find_map(|node| {
            let at = node.get("instanceLocation")?.as_str()?;
            let keyword = last_keyword(node.get("evaluationPath")?.as_str()?)?;
            let judges = if at == n.pointer {
                COMPARING.contains(&keyword)
                    || (keyword == "type"
                        && whole_read
                        && !integer_in_full
                        && self.allows_integer(node.get("schemaLocation")))
            } else {
                n.pointer.starts_with(at)
                    && n.pointer[at.len()..].starts_with('/')
                    && COMPARING_WHOLE.contains(&keyword)
            };
            judges.then(|| keyword.to_string())
        })
    }

    /// Whether the `type` keyword at `location` (a node's `schemaLocation`) allows integers;
    /// true where it cannot be read, the safe side.
    fn allows_integer(&self, location: Option<&Value>) -> bool {
        let declared = location
            .and_then(Value::as_str)
            .and_then(|at| super::resolve_pointer(self.lookup_root(), at));
        match declared {
            Some(Value::String(t)) => t == "integer",
            Some(Value::Array(types)) => types.iter().any(|t| t == "integer"),
            _ => true,
        }
    }
}

/// The keyword an evaluation path (`/properties/a/$ref/maximum`) ends on; `None` where it ends
/// on a subschema (`/properties/maximum`, `/anyOf/0`): a member name or an index follows the
/// keywords holding subschemas by name or by position, so a token is read as a keyword only
/// where one is due.
fn last_keyword(path: &str) -> Option<&str> {
    let mut tokens = path.split('/').skip(1).peekable();
    let mut last = None;
    while let Some(keyword) = tokens.next() {
        last = Some(keyword);
        let by_name = matches!(
            keyword,
            "properties"
                | "patternProperties"
                | "$defs"
                | "definitions"
                | "dependentSchemas"
                | "dependencies"
        );
        let by_position = matches!(
            keyword,
            "allOf" | "anyOf" | "oneOf" | "prefixItems" | "items"
        ) && tokens.peek().is_some_and(|t| t.parse::<usize>().is_ok());
        if (by_name || by_position) && tokens.next().is_some() {
            last = None;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_evaluation_path_ends_on_a_keyword_or_a_subschema() {
        for (path, keyword) in [
            ("/properties/a/maximum", Some("maximum")),
            ("/properties/maximum", None),
            ("/properties/properties/maximum", Some("maximum")),
            ("/properties/a/$ref/type", Some("type")),
            ("/anyOf/0", None),
            ("/anyOf/0/const", Some("const")),
            ("/items/enum", Some("enum")),
            ("/items/0", None),
            ("", None),
        ] {
            assert_eq!(last_keyword(path), keyword, "{path}");
        }
    }

    /// Only a keyword comparing the number's value (or a whole value holding it) judges it by
    /// digits the float does not hold; `type: integer` does not for an integer written in
    /// full, and a member named as a keyword is no keyword.
    #[test]
    fn what_judges_a_number_by_digits_the_float_does_not_hold() {
        let judged = |schema: Value, text: &str| {
            let schema = ArgsSchema::new(&schema).unwrap();
            let call: Value = serde_json::from_str(text).unwrap();
            let inexact = crate::args::inexact_numbers(text);
            let [n] = inexact.as_slice() else {
                panic!("{inexact:?}")
            };
            schema.judges_digits(&call, n)
        };
        let big = r#"{"id": 123456789012345678901}"#;
        let id = |s: Value| json!({"properties": {"id": s}});
        assert_eq!(judged(id(json!({"type": "integer"})), big), None);
        assert_eq!(judged(json!({}), big), None);
        assert_eq!(
            judged(
                json!({"properties": {"maximum": {"type": "integer"}}}),
                r#"{"maximum": 123456789012345678901}"#
            ),
            None
        );
        assert_eq!(
            judged(id(json!({"type": "integer", "maximum": 5})), big).as_deref(),
            Some("maximum")
        );
        let with_defs = json!({"properties": {"id": {"$ref": "#/$defs/i"}},
            "$defs": {"i": {"anyOf": [{"type": "string"}, {"multipleOf": 7}]}}});
        assert_eq!(judged(with_defs, big).as_deref(), Some("multipleOf"));
        assert_eq!(
            judged(json!({"enum": [{"id": 1}]}), big).as_deref(),
            Some("enum")
        );
        assert_eq!(
            judged(
                json!({"properties": {"t": {"uniqueItems": true}}}),
                r#"{"t": [123456789012345678901]}"#
            )
            .as_deref(),
            Some("uniqueItems")
        );
        // A point makes `type: integer` rest on digits past the float's: 1.0 is whole.
        let point = r#"{"id": 1.00000000000000000001}"#;
        assert_eq!(
            judged(id(json!({"type": "integer"})), point).as_deref(),
            Some("type")
        );
        assert_eq!(judged(id(json!({"type": "number"})), point), None);
    }
}
