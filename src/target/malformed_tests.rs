//! Every offline model, given malformed request bodies, answers the provider's
//! malformed-request error (a 4xx in the provider's error shape), never 200.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::secret::{Credential, Secret};
use super::{routes, service};
use crate::tool::ToolDef;

/// The first value under key `key`, depth first.
fn find_mut<'v>(v: &'v mut Value, key: &str) -> Option<&'v mut Value> {
    match v {
        Value::Object(o) => {
            if o.contains_key(key) {
                return o.get_mut(key);
            }
            o.values_mut().find_map(|c| find_mut(c, key))
        }
        Value::Array(a) => a.iter_mut().find_map(|c| find_mut(c, key)),
        _ => None,
    }
}

/// Removes the first key `key`, depth first; whether there was one.
fn remove(v: &mut Value, key: &str) -> bool {
    match v {
        Value::Object(o) => {
            if o.shift_remove(key).is_some() {
                return true;
            }
            o.values_mut().any(|c| remove(c, key))
        }
        Value::Array(a) => a.iter_mut().any(|c| remove(c, key)),
        _ => false,
    }
}

/// The malformed variants of a well-formed body: (what, body bytes).
fn malformed(body: &Value) -> Vec<(&'static str, Vec<u8>)> {
    let mut out = vec![
        ("not JSON", b"{\"model\": ".to_vec()),
        ("a JSON array", b"[1, 2]".to_vec()),
        ("a JSON string", b"\"hi\"".to_vec()),
    ];
    let mut tools_not_array = body.clone();
    if let Some(t) = find_mut(&mut tools_not_array, "tools") {
        *t = json!({"name": "f"});
        out.push((
            "tools not an array",
            tools_not_array.to_string().into_bytes(),
        ));
    }
    let mut tool_not_object = body.clone();
    if let Some(Value::Array(t)) = find_mut(&mut tool_not_object, "tools") {
        t[0] = json!("f");
        out.push((
            "a tool that is not an object",
            tool_not_object.to_string().into_bytes(),
        ));
    }
    let mut no_name = body.clone();
    if let Some(t) = find_mut(&mut no_name, "tools")
        && remove(t, "name")
    {
        out.push(("a tool without a name", no_name.to_string().into_bytes()));
    }
    for conversation in ["messages", "contents", "input"] {
        let mut without = body.clone();
        if remove(&mut without, conversation) {
            out.push(("no conversation", without.to_string().into_bytes()));
        }
    }
    out
}

/// Malformed-looking bodies a real service accepts, with the reason.
fn accepted_as_real(id: &str, what: &str) -> Option<&'static str> {
    match (id, what) {
        ("ollama/chat", "no conversation") => {
            Some("Ollama's API docs: a chat without messages loads the model")
        }
        ("ollama/chat", "a tool without a name") => {
            Some("Go decodes a missing name as \"\"; nothing checks it before the template")
        }
        _ => None,
    }
}

#[test]
fn every_model_refuses_malformed_bodies() {
    let tools = vec![ToolDef {
        name: "get_weather".into(),
        description: Some("Gets the weather.".into()),
        parameters: Some(
            json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
        ),
    }];
    let key = Credential::Key(Secret::new("tw-malformed-key"));
    let mut wrong = Vec::new();
    for r in routes() {
        let id = r.id();
        let cfg = r.configure(&BTreeMap::<String, String>::new());
        let svc = service(r.service()).expect("a model");
        let req = r.request(&cfg, &tools, &Default::default());
        let good = req.to_incoming(Some(&key));
        let ok = svc.answer(&good);
        assert!(
            ok.status < 300,
            "{id}: the well-formed body answers {}",
            ok.status
        );
        let body: Value = serde_json::from_slice(&good.body).expect("a JSON request");
        let not_json = svc.answer(&{
            let mut i = good.clone();
            i.body = b"{".to_vec();
            i
        });
        let shape = |v: &Value| -> Vec<String> {
            v.as_object()
                .map(|o| o.keys().cloned().collect())
                .unwrap_or_default()
        };
        for (what, bytes) in malformed(&body) {
            if let Some(why) = accepted_as_real(id, what) {
                let mut i = good.clone();
                i.body = bytes;
                let reply = svc.answer(&i);
                assert!(
                    reply.status < 300,
                    "{id}: {what} is accepted ({why}), got {}",
                    reply.status
                );
                continue;
            }
            let mut i = good.clone();
            i.body = bytes;
            let reply = svc.answer(&i);
            let expect_shape = shape(&not_json.json_body().unwrap_or(Value::Null));
            let got_shape = shape(&reply.json_body().unwrap_or(Value::Null));
            if !(400..500).contains(&reply.status)
                || matches!(reply.status, 401 | 403 | 404)
                || got_shape != expect_shape
            {
                wrong.push(format!(
                    "{id}: {what}: {} {}",
                    reply.status,
                    reply.text_body()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
