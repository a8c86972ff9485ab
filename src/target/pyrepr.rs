//! Python `repr()` of JSON values.
//!
//! Several providers validate schemas in Python and echo the offending value with `repr()`:
//! OpenAI's `[] is not of type 'object', 'boolean'` and `None is not of type 'array'`
//! (OpenManus#1162, YoMo report in reports.yaml), Fireworks' ``could not understand the
//! instance `{'items': {'type': 'string'}}` `` (reports.yaml fireworks-*). Models reproduce
//! that text exactly.

use serde_json::Value;

/// `repr(value)` as CPython prints the equivalent `json.loads` result.
pub fn repr(v: &Value) -> String {
    let mut out = String::new();
    write(v, &mut out);
    out
}

/// `repr(s)` for a string.
pub fn repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

fn write(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("None"),
        Value::Bool(true) => out.push_str("True"),
        Value::Bool(false) => out.push_str("False"),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => out.push_str(&repr_str(s)),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write(x, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&repr_str(k));
                out.push_str(": ");
                write(x, out);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn matches_cpython() {
        assert_eq!(repr(&json!([])), "[]");
        assert_eq!(repr(&json!(null)), "None");
        assert_eq!(repr(&json!("object")), "'object'");
        assert_eq!(
            repr(&json!({"items": {"type": "string"}})),
            "{'items': {'type': 'string'}}"
        );
        assert_eq!(
            repr(&json!({"required": ["criteria"]})),
            "{'required': ['criteria']}"
        );
        assert_eq!(repr(&json!([true, 1.5, 2])), "[True, 1.5, 2]");
        assert_eq!(repr(&json!("it's")), "\"it's\"");
    }
}
