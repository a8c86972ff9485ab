//! Python `repr()` of JSON values.
//!
//! Several providers validate schemas in Python and echo the offending value with `repr()`:
//! OpenAI's `[] is not of type 'object', 'boolean'` and `None is not of type 'array'`
//! (OpenManus#1162, YoMo report in reports.yaml), Fireworks' ``could not understand the
//! instance `{'items': {'type': 'string'}}` `` (reports.yaml fireworks-*). Models reproduce
//! that text exactly. [`parse_prefix`] reads such a printout back (OpenAI's Python SDK prints
//! the error body as `Error code: 400 - {'error': {'message': ...}}`).

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

/// Reads the Python literal (dict, list, tuple, str, int, float, `True`, `False`, `None`) at
/// the start of `text`, after any whitespace, as the JSON value it prints: a tuple becomes a
/// list, a dict's keys must be strings. Returns the value and the bytes read; `None` when the
/// text does not start with such a literal (or nests deeper than 128 levels).
pub fn parse_prefix(text: &str) -> Option<(Value, usize)> {
    let mut p = Parser { text, at: 0 };
    let v = p.value(0)?;
    Some((v, p.at))
}

/// Reads the Python bytes literal (`b'...'` or `b"..."`) at the start of `text`, as Python's
/// `repr` of bytes writes it (LiteLLM prints a Vertex error body so: `b'{\n  "error": ...}'`):
/// its escapes (`\\`, `\'`, `\"`, `\n`, `\r`, `\t`, `\xHH`) undone into bytes, read as
/// UTF-8 (a byte sequence that is not becomes U+FFFD). Returns the text and the bytes read;
/// `None` when `text` does not start with a whole bytes literal.
pub fn bytes_prefix(text: &str) -> Option<(String, usize)> {
    let rest = text.strip_prefix('b')?;
    let quote = rest.chars().next().filter(|q| *q == '\'' || *q == '"')?;
    let mut out: Vec<u8> = Vec::new();
    let mut bytes = rest.bytes().enumerate().skip(1);
    while let Some((i, b)) = bytes.next() {
        match b {
            b if b == quote as u8 => {
                return Some((String::from_utf8_lossy(&out).into_owned(), i + 2));
            }
            b'\\' => {
                let (_, e) = bytes.next()?;
                match e {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'x' => {
                        let hi = bytes.next()?.1;
                        let lo = bytes.next()?.1;
                        if !(hi.is_ascii_hexdigit() && lo.is_ascii_hexdigit()) {
                            return None;
                        }
                        let hex = [hi, lo];
                        let hex = std::str::from_utf8(&hex).ok()?;
                        out.push(u8::from_str_radix(hex, 16).ok()?);
                    }
                    b'\\' | b'\'' | b'"' => out.push(e),
                    // An unknown escape keeps its backslash, as in Python.
                    other => out.extend([b'\\', other]),
                }
            }
            b'\n' => return None,
            b => out.push(b),
        }
    }
    None
}

struct Parser<'t> {
    text: &'t str,
    at: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }
    fn skip_space(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }
    fn eat(&mut self, token: &str) -> bool {
        self.skip_space();
        let hit = self.rest().starts_with(token);
        if hit {
            self.at += token.len();
        }
        hit
    }
    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > 128 {
            return None;
        }
        self.skip_space();
        let first = self.rest().chars().next()?;
        match first {
            '{' => {
                self.at += 1;
                let mut map = serde_json::Map::new();
                while !self.eat("}") {
                    self.skip_space();
                    let Value::String(key) = self.string()? else {
                        return None;
                    };
                    if !self.eat(":") {
                        return None;
                    }
                    map.insert(key, self.value(depth + 1)?);
                    if !self.eat(",") && !self.rest().trim_start().starts_with('}') {
                        return None;
                    }
                }
                Some(Value::Object(map))
            }
            '[' | '(' => {
                let close = if first == '[' { "]" } else { ")" };
                self.at += 1;
                let mut list = Vec::new();
                while !self.eat(close) {
                    list.push(self.value(depth + 1)?);
                    if !self.eat(",") && !self.rest().trim_start().starts_with(close) {
                        return None;
                    }
                }
                Some(Value::Array(list))
            }
            '\'' | '"' => self.string(),
            _ => self.scalar(),
        }
    }
    /// A quoted string (`'...'` or `"..."`) with Python's escapes.
    fn string(&mut self) -> Option<Value> {
        let mut chars = self.rest().char_indices();
        let (_, quote) = chars.next().filter(|(_, q)| *q == '\'' || *q == '"')?;
        let mut out = String::new();
        while let Some((i, c)) = chars.next() {
            match c {
                c if c == quote => {
                    self.at += i + 1;
                    return Some(Value::String(out));
                }
                '\\' => {
                    let (_, e) = chars.next()?;
                    match e {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        '0' => out.push('\0'),
                        'x' | 'u' | 'U' => {
                            let width = match e {
                                'x' => 2,
                                'u' => 4,
                                _ => 8,
                            };
                            let hex: String = (0..width)
                                .filter_map(|_| chars.next())
                                .map(|(_, h)| h)
                                .collect();
                            // Python takes exactly `width` hex digits, never a sign.
                            if hex.len() != width || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                                return None;
                            }
                            let code = u32::from_str_radix(&hex, 16).ok()?;
                            out.push(char::from_u32(code)?);
                        }
                        '\n' => {}
                        // `\\`, `\'`, `\"`; an unknown escape keeps its backslash, as in Python.
                        '\\' | '\'' | '"' => out.push(e),
                        other => {
                            out.push('\\');
                            out.push(other);
                        }
                    }
                }
                '\n' => return None,
                c => out.push(c),
            }
        }
        None
    }
    fn scalar(&mut self) -> Option<Value> {
        let rest = self.rest();
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_')))
            .unwrap_or(rest.len());
        let word = &rest[..len];
        let v = match word {
            "True" => Value::Bool(true),
            "False" => Value::Bool(false),
            "None" => Value::Null,
            w => serde_json::from_str::<serde_json::Number>(w)
                .ok()
                .map(Value::Number)?,
        };
        self.at += len;
        Some(v)
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

    /// What `repr(json.dumps(body, indent=2).encode())` prints, as LiteLLM shows a Vertex
    /// error, is read back to the body's text: escapes, quotes of both kinds, UTF-8 bytes.
    #[test]
    fn bytes_literals_are_read_back() {
        let text =
            r#"b'{\n  "message": "schema didn\'t say \xe2\x80\x9cx\xe2\x80\x9d \\ y"\n}' tail"#;
        let (s, len) = bytes_prefix(text).unwrap();
        assert_eq!(
            s,
            "{\n  \"message\": \"schema didn't say \u{201c}x\u{201d} \\ y\"\n}"
        );
        assert_eq!(&text[len..], " tail");
        assert_eq!(bytes_prefix(r#"b"it's""#), Some(("it's".to_string(), 7)));
        // `\x` takes two hex digits, never a sign (`from_str_radix` reads `+5` as 5).
        for bad in ["", "b", "'x'", "b'open", "b'\\x4'", "b'\\x+5'", "b'a\nb'"] {
            assert_eq!(bytes_prefix(bad), None, "{bad}");
        }
    }

    #[test]
    fn printouts_are_read_back() {
        for v in [
            json!({"error": {"message": "Invalid schema for function 'f': 'x' is not a 'uri'.", "param": "tools[0]", "code": null}}),
            json!([true, 1.5, -2, "it's", "say \"hi\"", {"a": []}]),
            json!("back\\slash\nnew line"),
        ] {
            let text = repr(&v);
            assert_eq!(parse_prefix(&text), Some((v, text.len())), "{text}");
        }
        // Trailing text is left; a tuple is a list.
        assert_eq!(
            parse_prefix(" (1, 'a') and more"),
            Some((json!([1, "a"]), 9))
        );
        let bad_escapes = ["'\\x+5'", "'\\u+041'", "'\\U+0000041'", "'\\u04'"];
        for bad in ["", "{'a' 1}", "{1: 2}", "'open", "[1 2]", "nope", "{'a': 1"]
            .into_iter()
            .chain(bad_escapes)
        {
            assert_eq!(parse_prefix(bad), None, "{bad}");
        }
    }
}
