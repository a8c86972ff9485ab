//! Compact JSON into a byte buffer. Escaping and number formatting are serde_json's; the
//! request-body writers ([`super::wire`], the strict closer in [`super::openai`]) lay out
//! the members around these calls so that a case's schema is written straight from the case,
//! never copied into a new tree first. Writing into a `Vec` cannot fail, and neither can
//! serializing a `Value` or a `str`, so the results are not looked at.

use serde_json::Value;

/// Writes `s` as a JSON string.
pub fn string(out: &mut Vec<u8>, s: &str) {
    let _ = serde_json::to_writer(&mut *out, s);
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
    let _ = serde_json::to_writer(&mut *out, v);
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

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
