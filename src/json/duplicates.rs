//! Object keys written twice in one JSON object. serde_json keeps the last value silently,
//! and so every command read only that one; a provider's parser may keep the first or refuse
//! the request. The parse counts them as it builds the value (`Counting`); only a document
//! that has some is parsed again ([`locate`]) to say where they are.

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// One key written twice (or more) in one object.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DuplicateKey {
    /// The JSON Lines line (1-based) of the document; `None` for a file of one document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// RFC 6901 JSON Pointer of the object, in its document (a JSON Lines line's document).
    pub pointer: String,
    /// The key, as written.
    pub key: String,
}

/// Deserializes a [`Value`] exactly as serde_json's own `Deserialize` does (same numbers,
/// same key order), counting every key an object already had; [`Counting::take`] reads the
/// count. A zero-sized visitor, as serde_json's is: the count lives in a thread-local, touched
/// only at a duplicate.
pub(crate) struct Counting;

thread_local! {
    static TWICE: Cell<usize> = const { Cell::new(0) };
    static FLOATS: Cell<bool> = const { Cell::new(false) };
}

impl Counting {
    /// The keys counted on this thread since the last call.
    pub(crate) fn take() -> usize {
        TWICE.with(|n| n.replace(0))
    }

    /// Whether a number was read as a float (`f64`) on this thread since the last call. Only
    /// such a number can be read as another value than written ([`super::inexact_numbers`]):
    /// integers are kept digit for digit and a number past the float range is refused. So a
    /// document read without one needs no scan for them, which costs more than the parse.
    pub(crate) fn take_floats() -> bool {
        FLOATS.with(|f| f.replace(false))
    }
}

impl<'de> DeserializeSeed<'de> for Counting {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(Build(Count))
    }
}

/// Where the duplicate keys of `text` (one JSON document that parses) are, in document
/// order. Empty when it has none (or does not parse: the caller's parse says why).
pub fn locate(text: &str) -> Vec<DuplicateKey> {
    located(text).map_or_else(Vec::new, |(_, found)| {
        found.into_iter().map(|(d, _)| d).collect()
    })
}

/// Whether `text` (one JSON document) has a key written twice in one object, read without
/// building its values: the gate before [`locate`] for a caller that parsed the document
/// without counting (a call's arguments of a million small objects built a second copy of
/// them, some 300 bytes each, to find none). True when the text does not parse, so that
/// [`locate`] decides as before.
pub fn written_twice(text: &str) -> bool {
    /// Reads one value; says whether any object in it has a key twice.
    struct Seek;
    impl<'de> DeserializeSeed<'de> for Seek {
        type Value = bool;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Seek {
        type Value = bool;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_str<E>(self, _: &str) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_unit<E>(self) -> Result<bool, E> {
            Ok(false)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
            let mut found = false;
            while let Some(inner) = seq.next_element_seed(Seek)? {
                found |= inner;
            }
            Ok(found)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
            let mut keys = std::collections::HashSet::new();
            let mut found = false;
            while let Some(key) = map.next_key::<String>()? {
                found |= !keys.insert(key);
                found |= map.next_value_seed(Seek)?;
            }
            Ok(found)
        }
    }
    let text = text.strip_prefix(super::BOM).unwrap_or(text);
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    de.deserialize_any(Seek).unwrap_or(true)
}

/// One key written more than once in one object, with every value it was given.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenTwice {
    /// Where, as [`locate`] says (one entry however many times the key is written).
    pub at: DuplicateKey,
    /// Its values in the order written; the last is the one every command read.
    pub values: Vec<Value>,
}

/// [`locate`], each key once with the values it was written with, in the order it was first
/// found written again: what a rewrite of the document that keeps only the last value drops.
pub fn locate_values(text: &str) -> Vec<WrittenTwice> {
    let Some((doc, found)) = located(text) else {
        return Vec::new();
    };
    let mut out: Vec<WrittenTwice> = Vec::new();
    for (at, replaced) in found {
        match out.iter_mut().find(|w| w.at == at) {
            Some(w) => w.values.push(replaced),
            None => out.push(WrittenTwice {
                at,
                values: vec![replaced],
            }),
        }
    }
    for w in &mut out {
        // The kept value is the document's; a pointer `locate` made always reaches it.
        if let Some(kept) = doc.pointer(&w.at.pointer).and_then(|o| o.get(&w.at.key)) {
            w.values.push(kept.clone());
        }
    }
    out
}

/// The document and its duplicate keys, each with the value the next one replaced; `None`
/// when `text` does not parse.
fn located(text: &str) -> Option<(Value, Vec<(DuplicateKey, Value)>)> {
    let text = text.strip_prefix(super::BOM).unwrap_or(text);
    let place = Place {
        path: &RefCell::new(Vec::new()),
        found: &RefCell::new(Vec::new()),
    };
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let doc = de.deserialize_any(Build(place)).ok()?;
    Some((doc, place.found.take()))
}

/// What the visitor does besides building: count duplicates, or place them.
trait Track: Copy {
    /// Whether [`Track::duplicate`] is told the key (which then is copied before it is
    /// stored: counting needs no copy).
    const NAMES_KEYS: bool;
    /// Builds the value under `token` (one token deeper in the path, if one is kept).
    fn under<T>(self, token: impl FnOnce() -> String, build: impl FnOnce() -> T) -> T;
    /// `key` was written again: `replaced` is the value it had until then.
    fn duplicate(self, key: &str, replaced: Value);
}

#[derive(Clone, Copy)]
struct Count;

impl Track for Count {
    const NAMES_KEYS: bool = false;
    fn under<T>(self, _: impl FnOnce() -> String, build: impl FnOnce() -> T) -> T {
        build()
    }

    fn duplicate(self, _: &str, _: Value) {
        TWICE.with(|n| n.set(n.get() + 1));
    }
}

#[derive(Clone, Copy)]
struct Place<'a> {
    /// The tokens down to the value being built.
    path: &'a RefCell<Vec<String>>,
    found: &'a RefCell<Vec<(DuplicateKey, Value)>>,
}

impl Track for Place<'_> {
    const NAMES_KEYS: bool = true;
    fn under<T>(self, token: impl FnOnce() -> String, build: impl FnOnce() -> T) -> T {
        self.path.borrow_mut().push(token());
        let built = build();
        self.path.borrow_mut().pop();
        built
    }

    fn duplicate(self, key: &str, replaced: Value) {
        let pointer = self
            .path
            .borrow()
            .iter()
            .map(|t| format!("/{}", super::escape_token(t)))
            .collect();
        self.found.borrow_mut().push((
            DuplicateKey {
                line: None,
                pointer,
                key: key.to_string(),
            },
            replaced,
        ));
    }
}

/// The visitor both use.
#[derive(Clone, Copy)]
struct Build<T>(T);

impl<'de, T: Track> DeserializeSeed<'de> for Build<T> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T: Track> Visitor<'de> for Build<T> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        FLOATS.with(|f| f.set(true));
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        loop {
            let i = out.len();
            match self
                .0
                .under(|| i.to_string(), || seq.next_element_seed(self))?
            {
                Some(v) => out.push(v),
                None => return Ok(Value::Array(out)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = self.0.under(|| key.clone(), || map.next_value_seed(self))?;
            // The last value is kept in the first one's place, as `Map::insert` does. Reported
            // at the object, after the value (whose own duplicates come first).
            let named = T::NAMES_KEYS.then(|| key.clone());
            if let Some(replaced) = out.insert(key, value) {
                self.0
                    .duplicate(named.as_deref().unwrap_or_default(), replaced);
            }
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn counted(text: &str) -> (Value, usize) {
        let mut de = serde_json::Deserializer::from_str(text);
        let v = Counting.deserialize(&mut de).unwrap();
        (v, Counting::take())
    }

    /// The gate before [`locate`] says of a document what the counting parse says: a key
    /// twice in any object at any depth, in arrays too, and not two equal keys of different
    /// objects; a text that does not parse is left to `locate`.
    #[test]
    fn written_twice_agrees_with_the_counting_parse() {
        let twice = [
            r#"{"a":1,"a":2}"#,
            r#"{"x":[{"k":1},{"k":2,"k":3}]}"#,
            r#"[[[{"deep":{"q":null,"q":true}}]]]"#,
            "\u{feff}{\"a\":1,\"a\":1}",
            r#"{"a\u0062":1,"ab":2}"#,
        ];
        let once = [
            r#"{"a":1,"b":{"a":2}}"#,
            r#"[{"k":1},{"k":2}]"#,
            r#""{\"a\":1,\"a\":2}""#,
            "1e400",
            "[]",
        ];
        for text in twice {
            assert!(written_twice(text), "{text}");
            let plain = text.trim_start_matches('\u{feff}');
            assert!(counted(plain).1 > 0, "{text}");
        }
        for text in once {
            assert!(
                !written_twice(text) || serde_json::from_str::<Value>(text).is_err(),
                "{text}"
            );
        }
        assert!(written_twice("{\"a\":"));
    }

    /// A parse says whether it read a float, the only kind of number that can be read as
    /// another value: the scan for those is skipped without one, and must run with one.
    #[test]
    fn a_parse_says_whether_it_read_a_float() {
        for (text, float) in [
            (
                r#"{"minimum": 0, "maximum": 18446744073709551615, "d": "1e-400"}"#,
                false,
            ),
            (r#"{"m": -3}"#, false),
            (r#"{"m": 1e-400}"#, true),
            (r#"{"m": 18446744073709551616}"#, true),
            (r#"{"a": [0.5]}"#, true),
            (r#"{"m": -0}"#, true),
        ] {
            Counting::take_floats();
            counted(text);
            assert_eq!(Counting::take_floats(), float, "{text}");
            if !float {
                assert!(crate::json::inexact_numbers(text).is_empty(), "{text}");
            }
        }
    }

    /// The same value serde_json builds (numbers, nulls, key order, last value kept), and the
    /// duplicates counted and placed.
    #[test]
    fn values_are_serde_jsons_and_duplicates_are_found() {
        let text = r#"{"b":1,"a":[1.5,-2,18446744073709551615,null,true,"s",{"x":{},"x":[]}],
            "b":{"c~/":0,"c~/":1},"e":"\u00e9"}"#;
        let (v, n) = counted(text);
        assert_eq!(v, serde_json::from_str::<Value>(text).unwrap());
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            serde_json::to_string(&serde_json::from_str::<Value>(text).unwrap()).unwrap()
        );
        assert_eq!(n, 3);
        let at: Vec<(String, String)> = locate(text)
            .into_iter()
            .map(|d| (d.pointer, d.key))
            .collect();
        assert_eq!(
            at,
            [
                ("/a/6".to_string(), "x".to_string()),
                ("/b".to_string(), "c~/".to_string()),
                (String::new(), "b".to_string()),
            ]
        );
        assert_eq!(counted(r#"{"a":{"a":1},"b":[{"a":2}]}"#).1, 0);
        assert!(locate("{").is_empty());
    }

    /// Every value a key was written with, in order, once per key however often it repeats;
    /// the last is the one read.
    #[test]
    fn values_of_a_key_written_again_are_kept_in_order() {
        let text = r#"{"m":5,"o":{"k":[1],"k":{"k":1,"k":1}},"m":50,"m":{"x":0}}"#;
        let found: Vec<(String, String, Vec<Value>)> = locate_values(text)
            .into_iter()
            .map(|w| (w.at.pointer, w.at.key, w.values))
            .collect();
        assert_eq!(
            found,
            [
                ("/o/k".into(), "k".into(), vec![json!(1), json!(1)]),
                ("/o".into(), "k".into(), vec![json!([1]), json!({"k": 1})]),
                (
                    String::new(),
                    "m".into(),
                    vec![json!(5), json!(50), json!({"x": 0})]
                ),
            ]
        );
        assert!(locate_values(r#"{"m":5}"#).is_empty());
        assert!(locate_values("{").is_empty());
    }
}
