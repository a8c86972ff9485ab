//! Compact JSON written straight into a byte buffer: the same bytes as `serde_json::to_vec`
//! (member order kept, `"`, `\` and control characters escaped, everything else verbatim
//! UTF-8, numbers as serde_json prints them), about twice as fast on tool schemas because
//! nothing goes through serde's serializer state machine. Request bodies are written with it
//! (see [`super::wire::Body::to_vec`]); the tests hold it to serde_json's output.

use std::io::Write as _;

use serde_json::Value;

/// What follows a backslash for each byte that must be escaped (`u`: `\u00XX`); 0: verbatim.
const ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0a] = b'n';
    t[0x0c] = b'f';
    t[0x0d] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// True when none of the 8 bytes needs escaping (no control character, `"` or `\`): the
/// classic "has a byte less than / equal to" word tests, exact for the word as a whole.
fn clean_word(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let control = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    let quote = has_zero(w ^ (ONES * u64::from(b'"')));
    let backslash = has_zero(w ^ (ONES * u64::from(b'\\')));
    (control | quote | backslash) == 0
}

/// Writes `s` as a JSON string.
pub fn string(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Skip eight bytes at a time while nothing needs escaping.
        if let Some(word) = bytes.get(i..i + 8)
            && clean_word(u64::from_le_bytes(word.try_into().unwrap_or_default()))
        {
            i += 8;
            continue;
        }
        let b = bytes[i];
        let e = ESCAPE[usize::from(b)];
        i += 1;
        if e == 0 {
            continue;
        }
        let i = i - 1;
        out.extend_from_slice(&bytes[start..i]);
        if e == b'u' {
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ]);
        } else {
            out.extend_from_slice(&[b'\\', e]);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Writes `"key":`.
pub fn key(out: &mut Vec<u8>, k: &str) {
    string(out, k);
    out.push(b':');
}

/// Writes `true` or `false`.
pub fn boolean(out: &mut Vec<u8>, b: bool) {
    out.extend_from_slice(if b { b"true" } else { b"false" });
}

/// Writes any JSON value.
pub fn value(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(b) => boolean(out, *b),
        // serde_json prints a Number the same way it serializes one (itoa / ryu).
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => string(out, s),
        Value::Array(a) => {
            out.push(b'[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                value(out, x);
            }
            out.push(b']');
        }
        Value::Object(o) => {
            out.push(b'{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                key(out, k);
                value(out, x);
            }
            out.push(b'}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn same(v: &Value) {
        let mut out = Vec::new();
        value(&mut out, v);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            serde_json::to_string(v).unwrap()
        );
    }

    #[test]
    fn the_bytes_are_serde_jsons() {
        same(&json!({
            "s": "quote \" backslash \\ slash / tab \t nl \n cr \r bs \u{8} ff \u{c} nul \u{0} us \u{1f} del \u{7f}",
            "unicode": "é ✓ 𝄞 \u{2028}",
            "n": [0, -1, 1.5, -0.0, 1e100, 2.5e-8, u64::MAX, i64::MIN, 12345678901234567890u64, 0.1],
            "empty": {"o": {}, "a": [], "s": ""},
            "b": [true, false, null],
            "\"k\"": {"nested": [{"x": [[]]}]}
        }));
    }

    #[test]
    fn escapes_are_found_at_every_offset_of_a_word() {
        for special in ["\"", "\\", "\n", "\u{1}", "\u{1f}", "é", "\u{7f}", " "] {
            for before in 0..17 {
                for after in 0..10 {
                    let s = format!("{}{special}{}", "a".repeat(before), "b".repeat(after));
                    let mut out = Vec::new();
                    string(&mut out, &s);
                    assert_eq!(out, serde_json::to_vec(&s).unwrap(), "{s:?}");
                }
            }
        }
    }

    #[test]
    fn every_case_schema_is_written_as_serde_json_writes_it() {
        let catalog = crate::case::Catalog::load(std::path::Path::new("cases")).unwrap();
        let mut n = 0;
        for case in &catalog.cases {
            for t in &case.tools {
                if let Some(p) = &t.parameters {
                    same(p);
                    n += 1;
                }
            }
        }
        assert!(n * 2 > catalog.cases.len(), "{n} schemas");
    }

    /// Every request body of every route for every case is serde_json's compact form of
    /// itself: the bytes the serde-based writer produced before.
    #[test]
    fn every_request_body_is_serde_jsons_compact_form() {
        let catalog = crate::case::Catalog::load(std::path::Path::new("cases")).unwrap();
        let env = std::collections::BTreeMap::new();
        for route in crate::target::routes() {
            let cfg = route.configure(&env);
            for case in &catalog.cases {
                let opts = crate::target::WireOptions {
                    feature: Some(case.parameter.clone()),
                    ..Default::default()
                };
                let body = route.request(&cfg, &case.tools, &opts).body;
                // Depth cases nest past serde_json's default limit of 128.
                let mut de = serde_json::Deserializer::from_slice(&body);
                de.disable_recursion_limit();
                let parsed = <Value as serde::Deserialize>::deserialize(&mut de).unwrap();
                assert!(
                    serde_json::to_vec(&parsed).unwrap() == body,
                    "{} × {}",
                    route.id(),
                    case.id
                );
            }
        }
    }
}
