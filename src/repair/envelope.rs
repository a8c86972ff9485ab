//! Writing repaired tools back into the document they were read from, so that the output
//! keeps the input's envelope: OpenAI `tools` stay `{"type":"function","function":{..}}`
//! (inside the same `{"tools":[..]}` object when the file was one), Anthropic keeps
//! `input_schema`, an MCP `tools/list` result keeps `inputSchema` (and its JSON-RPC
//! wrapping), Gemini keeps `functionDeclarations`, Bedrock keeps `toolSpec.inputSchema.json`,
//! a JSON Lines line stays a line of the same shape, and a bare schema stays a bare schema.
//!
//! Only what repair changed is written: the tool's `name`, its `description`, its
//! parameters schema, each at the key it was read from ([`crate::input::ToolEntry`]'s
//! `schema_pointer` says where), and OpenAI's `strict` when repair wrote it `false`
//! ([`super::strict`]). Every other field (`annotations`, `cache_control`, a request's
//! `model`...) is left as it was. A tool left out (refused) is removed from its
//! list; a document whose only tool is left out (a bare schema, one tool object, a corpus
//! line) is left out as a whole (`toolwire repair` writes an empty tool list in a JSON Lines
//! line's place, so that the lines keep their numbers).

use serde_json::Value;

use super::{Outcome, ToolRepair};

/// One tool of a document: where its parameters schema sits (a JSON Pointer into the
/// document, as the reader recorded it) and what repair made of it.
#[derive(Debug, Clone, Copy)]
pub struct Placed<'a> {
    /// [`crate::input::ToolEntry::schema_pointer`].
    pub schema_pointer: &'a str,
    /// What repair made of the tool.
    pub repair: &'a ToolRepair,
}

/// Bedrock nests the schema one level deeper than everyone else.
const BEDROCK_SCHEMA: &str = "/toolSpec/inputSchema/json";

/// Writes the repaired `tools` back into `doc`. Refused tools are removed unless `keep`
/// (then they stay as they were). Returns `None` when the whole document is left out.
pub fn write_back(mut doc: Value, tools: &[Placed<'_>], keep: bool) -> Option<Value> {
    let mut removals: Vec<Vec<String>> = Vec::new();
    for t in tools {
        let refused = t.repair.outcome == Outcome::Refused;
        // The tool object and the path, inside it, of its schema.
        let (object, schema_path): (Vec<String>, Vec<String>) =
            if let Some(spec) = t.schema_pointer.strip_suffix(BEDROCK_SCHEMA) {
                let mut object = tokens(spec);
                object.push("toolSpec".into());
                (object, vec!["inputSchema".into(), "json".into()])
            } else {
                let mut object = tokens(t.schema_pointer);
                match object.pop() {
                    Some(key) => (object, vec![key]),
                    // A bare schema: the document is the tool.
                    None if refused && !keep => return None,
                    None if refused => continue,
                    None => {
                        if let Some(p) = &t.repair.tool.parameters {
                            doc = p.clone();
                        }
                        continue;
                    }
                }
            };
        if refused {
            if !keep {
                match list_element(&doc, &object) {
                    Some(element) => removals.push(element),
                    None => return None,
                }
            }
            continue;
        }
        if let Some(Value::Object(o)) = at_mut(&mut doc, &object) {
            let tool = &t.repair.tool;
            if let Some(name) = &tool.name
                && o.get("name").and_then(Value::as_str) != Some(name)
            {
                o.insert("name".into(), Value::String(name.clone()));
            }
            if let Some(d) = &tool.description
                && o.get("description").and_then(Value::as_str) != Some(d)
            {
                let value = Value::String(d.clone());
                match o.keys().position(|k| k == "name") {
                    // A description written where there was none goes next to the name.
                    Some(i) if !o.contains_key("description") => {
                        o.shift_insert(i + 1, "description".into(), value);
                    }
                    _ => {
                        o.insert("description".into(), value);
                    }
                }
            }
            // Only ever `true` → `false` ([`super::strict::settle`]), in the object that holds
            // `strict` (Chat's `function`, a Responses tool).
            // (A Responses tool strict by default has no key to rewrite: `false` is added.)
            if tool.strict == Some(false) && o.get("strict").and_then(Value::as_bool) != Some(false)
            {
                o.insert("strict".into(), Value::Bool(false));
            }
            match &tool.parameters {
                Some(p) => set_path(o, &schema_path, p.clone()),
                // Repair left the schema out (a tool that takes no arguments).
                None => remove_path(o, &schema_path),
            }
        }
    }
    // Later elements of a list first, so that earlier indexes stay valid.
    removals.sort_by(|a, b| compare_paths(b, a));
    for r in removals {
        let (last, parent) = r.split_last().expect("an element has an index");
        if let (Some(Value::Array(list)), Ok(i)) = (at_mut(&mut doc, parent), last.parse())
            && i < list.len()
        {
            list.remove(i);
        }
    }
    Some(doc)
}

/// The reference tokens of a JSON Pointer, unescaped.
fn tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

fn at_mut<'v>(doc: &'v mut Value, path: &[String]) -> Option<&'v mut Value> {
    path.iter().try_fold(doc, |node, token| match node {
        Value::Object(o) => o.get_mut(token),
        Value::Array(a) => a.get_mut(token.parse::<usize>().ok()?),
        _ => None,
    })
}

fn at<'v>(doc: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(doc, |node, token| match node {
        Value::Object(o) => o.get(token),
        Value::Array(a) => a.get(token.parse::<usize>().ok()?),
        _ => None,
    })
}

/// Sets `value` at `path` inside `object`, making the objects on the way when missing
/// (a tool that had no parameters and now has some).
fn set_path(object: &mut serde_json::Map<String, Value>, path: &[String], value: Value) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    if rest.is_empty() {
        object.insert(first.clone(), value);
        return;
    }
    let slot = object
        .entry(first.clone())
        .or_insert_with(|| Value::Object(Default::default()));
    if let Value::Object(inner) = slot {
        set_path(inner, rest, value);
    }
}

/// Removes the member at `path` inside `object`, when there is one.
fn remove_path(object: &mut serde_json::Map<String, Value>, path: &[String]) {
    match path {
        [] => {}
        [last] => {
            object.shift_remove(last);
        }
        [first, rest @ ..] => {
            if let Some(Value::Object(inner)) = object.get_mut(first) {
                remove_path(inner, rest);
            }
        }
    }
}

/// The path of the list element that holds the tool object at `object` (the object itself,
/// or the nearest ancestor that is a list element: OpenAI's `{"type":"function",..}` around
/// `function`). `None` when no list holds it (the document is the tool).
fn list_element(doc: &Value, object: &[String]) -> Option<Vec<String>> {
    (1..=object.len())
        .rev()
        .find(|&n| matches!(at(doc, &object[..n - 1]), Some(Value::Array(_))))
        .map(|n| object[..n].to_vec())
}

/// Orders paths token by token, list indexes by number.
fn compare_paths(a: &[String], b: &[String]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = match (x.parse::<usize>(), y.parse::<usize>()) {
            (Ok(i), Ok(j)) => i.cmp(&j),
            _ => x.cmp(y),
        };
        if o.is_ne() {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::Tool;
    use serde_json::json;

    fn result(outcome: Outcome, name: &str, description: Option<&str>) -> ToolRepair {
        ToolRepair {
            index: 0,
            line: None,
            number: 0,
            name: name.into(),
            outcome,
            changes: vec![],
            refusals: vec![],
            unverified: Default::default(),
            introduced: Default::default(),
            left_as_written: vec![],
            tool: Tool {
                name: Some(name.into()),
                description: description.map(str::to_string),
                parameters: Some(json!({"type": "object"})),
                strict: None,
                strict_tool_use: None,
            },
        }
    }

    #[test]
    fn refused_tools_leave_their_list_and_the_others_keep_their_fields() {
        let doc = json!({"tools": [
            {"type": "function", "function": {"name": "a", "parameters": {}}},
            {"type": "function", "function": {"name": "b", "parameters": {}}, "x": 1},
            {"type": "function", "function": {"name": "c", "parameters": {}}},
            {"type": "function", "function": {"name": "d", "parameters": {}}}
        ], "model": "m"});
        let refused = result(Outcome::Refused, "a", None);
        let kept = result(Outcome::Repaired, "b2", Some("Written."));
        let at = |i: usize| format!("/tools/{i}/function/parameters");
        let (p0, p1, p2, p3) = (at(0), at(1), at(2), at(3));
        let unchanged = result(Outcome::Unchanged, "d", None);
        let tools = [
            Placed {
                schema_pointer: &p0,
                repair: &refused,
            },
            Placed {
                schema_pointer: &p1,
                repair: &kept,
            },
            Placed {
                schema_pointer: &p2,
                repair: &refused,
            },
            Placed {
                schema_pointer: &p3,
                repair: &unchanged,
            },
        ];
        let out = write_back(doc, &tools, false).unwrap();
        assert_eq!(
            out,
            json!({"tools": [
                {"type": "function", "function": {"name": "b2", "description": "Written.",
                    "parameters": {"type": "object"}}, "x": 1},
                {"type": "function", "function": {"name": "d", "parameters": {"type": "object"}}}
            ], "model": "m"})
        );
        // The written description sits next to the name.
        let keys: Vec<&str> = out["tools"][0]["function"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["name", "description", "parameters"]);
    }

    #[test]
    fn a_document_whose_only_tool_is_refused_is_left_out_unless_kept() {
        let refused = result(Outcome::Refused, "a", None);
        let line = json!({"source": "s", "license": "MIT", "tool": {"name": "a"}});
        let tools = [Placed {
            schema_pointer: "/tool/parameters",
            repair: &refused,
        }];
        assert_eq!(write_back(line.clone(), &tools, false), None);
        assert_eq!(write_back(line.clone(), &tools, true), Some(line));
        let bare = [Placed {
            schema_pointer: "",
            repair: &refused,
        }];
        assert_eq!(write_back(json!({"type": "object"}), &bare, false), None);
    }

    #[test]
    fn a_schema_repair_left_out_is_removed_and_one_it_wrote_is_added() {
        let mut none = result(Outcome::Repaired, "a", Some("D."));
        none.tool.parameters = None;
        let doc = json!([{"name": "a", "description": "D.", "input_schema": null, "x": 1}]);
        let tools = [Placed {
            schema_pointer: "/0/input_schema",
            repair: &none,
        }];
        assert_eq!(
            write_back(doc, &tools, false),
            Some(json!([{"name": "a", "description": "D.", "x": 1}]))
        );
        let written = result(Outcome::Repaired, "a", Some("D."));
        let doc =
            json!({"toolConfig": {"tools": [{"toolSpec": {"name": "a", "description": "D."}}]}});
        let tools = [Placed {
            schema_pointer: "/toolConfig/tools/0/toolSpec/inputSchema/json",
            repair: &written,
        }];
        assert_eq!(
            write_back(doc, &tools, false),
            Some(
                json!({"toolConfig": {"tools": [{"toolSpec": {"name": "a", "description": "D.",
                "inputSchema": {"json": {"type": "object"}}}}]}})
            )
        );
    }
}
