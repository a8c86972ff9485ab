//! Repairs of `type`: non-standard spellings, `[T, "null"]`, a missing type.

use serde_json::{Value, json};

use super::*;

/// The JSON Schema type a non-standard spelling means, with what the spelling said that the
/// type does not.
fn standard_type(t: &str) -> Option<(&'static str, Option<&'static str>)> {
    Some(match t.to_ascii_lowercase().as_str() {
        "object" | "dict" | "map" | "hashmap" | "record" | "struct" => ("object", None),
        "number" | "float" | "double" | "decimal" | "numeric" | "real" => ("number", None),
        "integer" | "int" | "long" | "short" | "int32" | "int64" | "bigint" => ("integer", None),
        "string" | "str" | "text" => ("string", None),
        "char" | "character" => ("string", Some("a single character")),
        "array" | "list" | "arraylist" | "sequence" => ("array", None),
        "tuple" => ("array", Some("a fixed-length tuple")),
        "set" => ("array", Some("items without repeats")),
        "boolean" | "bool" => ("boolean", None),
        "null" | "none" => ("null", None),
        _ => return None,
    })
}

pub(super) fn type_spelling(tool: &Tool, f: &Finding) -> Found {
    let steps = place::steps(&f.pointer);
    let (node, index) = match steps.last() {
        Some(Step::Keyword(k, rest)) if k == "type" => {
            let idx = rest.first().and_then(|r| r.parse::<usize>().ok());
            let suffix = 5 + rest.iter().map(|r| r.len() + 1).sum::<usize>();
            (f.pointer[..f.pointer.len() - suffix].to_string(), idx)
        }
        _ => return Err(format!("no `type` at {:?}", f.pointer)),
    };
    let map = schema_at(tool, &node)?;
    let written = match (map.get("type"), index) {
        (Some(Value::String(s)), None) => s.clone(),
        (Some(Value::Array(a)), Some(i)) => a
            .get(i)
            .and_then(Value::as_str)
            .ok_or("not a type name")?
            .to_string(),
        (Some(Value::Array(a)), None) => {
            return Err(format!(
                "a list of types: {}",
                show(&Value::Array(a.clone()))
            ));
        }
        _ => return Err("`type` is not a name".into()),
    };
    let Some((std, lost)) = standard_type(&written) else {
        return Err(format!(
            "`type: {written:?}` names no JSON type (\"any\" accepts every value; no schema says that portably)"
        ));
    };
    if std == written {
        return Err(format!("`type: {written}` is already standard"));
    }
    let mut t = tool.clone();
    let m = schema_mut(&mut t, &node)?;
    match index {
        Some(i) => {
            if let Some(Value::Array(a)) = m.get_mut("type") {
                a[i] = json!(std);
            }
        }
        None => {
            m.insert("type".into(), json!(std));
        }
    }
    Ok(vec![Candidate::one(
        t,
        &f_at(&node, "type"),
        &f.rule,
        format!("wrote the type `{written}` as `{std}`"),
        lost.map(|l| format!("`{written}` also said {l}")),
    )])
}

pub(super) fn type_list(tool: &Tool, f: &Finding) -> Found {
    let node = owner(f, "type").ok_or("no `type` where the finding points")?;
    let map = schema_at(tool, &node)?;
    let list = map
        .get("type")
        .and_then(Value::as_array)
        .ok_or("`type` is not a list")?;
    let mut names: Vec<&str> = Vec::new();
    for v in list {
        let s = v.as_str().ok_or("a type in the list is not a name")?;
        if !names.contains(&s) {
            names.push(s);
        }
    }
    let had_null = names.contains(&"null");
    let rest: Vec<&str> = names.iter().copied().filter(|n| *n != "null").collect();
    let [one] = rest.as_slice() else {
        return Err(format!(
            "a union of types ({}): no single type accepts the same arguments",
            names.join(", ")
        ));
    };
    let one = (*one).to_string();
    let mut base = tool.clone();
    schema_mut(&mut base, &node)?.insert("type".into(), json!(one));
    if !had_null {
        return Ok(vec![Candidate::one(
            base,
            &f_at(&node, "type"),
            &f.rule,
            format!("wrote the one-type list as `type: {one}`"),
            None,
        )]);
    }
    let mut out = Vec::new();
    let mut optional = base.clone();
    if make_optional(&mut optional, &node) {
        out.push(Candidate::one(
            optional,
            &f_at(&node, "type"),
            &f.rule,
            format!("wrote `[{one}, null]` as `{one}` and made the argument optional"),
            Some(OPTIONAL_LOSS.into()),
        ));
    }
    let mut nullable = base;
    schema_mut(&mut nullable, &node)?.insert("nullable".into(), json!(true));
    out.push(
        Candidate::one(
            nullable,
            &f_at(&node, "type"),
            &f.rule,
            format!("wrote `[{one}, null]` as `{one}` with `nullable: true`"),
            None,
        )
        .nullable(),
    );
    Ok(out)
}

/// The type every value of an `enum`/`const` has, when they agree.
fn type_of_values(values: &[Value]) -> Option<&'static str> {
    let kind = |v: &Value| match v {
        Value::String(_) => Some("string"),
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        _ => None,
    };
    let first = kind(values.first()?)?;
    values
        .iter()
        .all(|v| kind(v) == Some(first))
        .then_some(first)
}

pub(super) fn type_missing(tool: &Tool, f: &Finding) -> Found {
    let node = place::keyword_owner(&f.pointer, "type").unwrap_or_else(|| f.pointer.clone());
    let map = schema_at(tool, &node)?;
    let values: Option<Vec<Value>> = map
        .get("enum")
        .and_then(Value::as_array)
        .cloned()
        .or_else(|| map.get("const").map(|c| vec![c.clone()]));
    let (ty, why, narrows) = if let Some(t) = values.as_deref().and_then(type_of_values) {
        (t, "every value of its `enum`/`const` is one", false)
    } else if map.contains_key("properties") {
        ("object", "it declares `properties`", true)
    } else if map.contains_key("items") {
        ("array", "it declares `items`", true)
    } else {
        return Err(
            "no `type`, and nothing says which: it accepts any value, which no portable schema says"
                .into(),
        );
    };
    let mut t = tool.clone();
    schema_mut(&mut t, &node)?.insert("type".into(), json!(ty));
    Ok(vec![Candidate::one(
        t,
        &node,
            &f.rule,
            format!("added `type: {ty}` ({why})"),
            narrows.then(|| format!("values that are not {ty}s, which the schema accepted by saying nothing, are refused")),
    )])
}
