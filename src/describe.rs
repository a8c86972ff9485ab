//! Descriptions written for tools that came without one, and short phrases for schemas.
//!
//! A tool whose description is missing or blank gets one written from what is known: its
//! name, the fact that no description came with it, and its first [`MAX_INPUTS`] inputs (each
//! with its type, whether it is required and the first line of its own description), every
//! line cut to [`LINE_WIDTH`] characters, then "and N more". [`written_description`] is the
//! one place that text is made, so check, repair and compile show the same words.

use std::borrow::Cow;

use serde_json::Value;

use crate::tool::ToolDef;

/// How many inputs the written description lists before "and N more".
pub const MAX_INPUTS: usize = 12;
/// The longest line of a written description, in characters (Unicode scalar values),
/// including the "…" that marks a cut.
pub const LINE_WIDTH: usize = 100;

/// True when a description is absent, empty, or only whitespace.
pub fn is_blank(description: Option<&str>) -> bool {
    description.is_none_or(|d| d.trim().is_empty())
}

/// The tool's own description when it has one, else the [`written_description`].
pub fn description_or_written(tool: &ToolDef) -> Cow<'_, str> {
    match tool.description.as_deref() {
        Some(d) if !is_blank(Some(d)) => Cow::Borrowed(d),
        _ => Cow::Owned(written_description(&tool.name, tool.parameters.as_ref())),
    }
}

/// The description written for a tool named `name` with parameters schema `parameters`.
///
/// Lines are joined with `\n`; each is at most [`LINE_WIDTH`] characters. Property names are
/// listed in the schema's key order.
pub fn written_description(name: &str, parameters: Option<&Value>) -> String {
    let mut lines = vec![cut_line(&format!(
        "{name}: no description came with this tool."
    ))];
    let properties = parameters
        .and_then(|p| p.get("properties"))
        .and_then(Value::as_object);
    match properties {
        Some(props) if !props.is_empty() => {
            let required = required_names(parameters);
            lines.push("Inputs:".to_string());
            for (prop, schema) in props.iter().take(MAX_INPUTS) {
                let need = if required.contains(&prop.as_str()) {
                    "required"
                } else {
                    "optional"
                };
                let mut line = format!("- {prop} ({}, {need})", type_label(schema));
                if let Some(first) = schema
                    .get("description")
                    .and_then(Value::as_str)
                    .and_then(|d| d.lines().map(str::trim).find(|l| !l.is_empty()))
                {
                    line.push_str(": ");
                    line.push_str(first);
                }
                lines.push(cut_line(&line));
            }
            if props.len() > MAX_INPUTS {
                lines.push(format!("and {} more.", props.len() - MAX_INPUTS));
            }
        }
        _ if parameters.is_none() => lines.push("It takes no inputs.".to_string()),
        _ => lines.push("Its schema declares no named inputs.".to_string()),
    }
    lines.join("\n")
}

/// Cuts `line` to [`LINE_WIDTH`] characters, ending a cut line with "…" (after whole
/// grapheme clusters: [`whole_graphemes`]).
pub fn cut_line(line: &str) -> String {
    if line.chars().count() <= LINE_WIDTH {
        return line.to_string();
    }
    let mut out = whole_graphemes(line, LINE_WIDTH - 1).to_string();
    out.push('…');
    out
}

/// The longest start of `text` that is whole extended grapheme clusters (Unicode UAX #29, as
/// the `unicode-segmentation` crate reads them) and at most `max` characters (Unicode scalar
/// values, the unit every length limit of toolwire counts). A cut by characters alone could
/// end between an emoji and its skin-tone modifier, inside a ZWJ sequence (`👩‍👩‍👧` is five
/// characters) or between a letter and its combining accent, leaving a different character,
/// or a stray joiner, where the text was cut. Shorter than `max` where a cluster straddles it;
/// empty where the first cluster alone is longer.
pub fn whole_graphemes(text: &str, max: usize) -> &str {
    use unicode_segmentation::UnicodeSegmentation;
    let mut chars = 0;
    let mut end = 0;
    for (at, cluster) in text.grapheme_indices(true) {
        chars += cluster.chars().count();
        if chars > max {
            break;
        }
        end = at + cluster.len();
    }
    &text[..end]
}

fn required_names(parameters: Option<&Value>) -> Vec<&str> {
    parameters
        .and_then(|p| p.get("required"))
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// A short label for what a schema accepts: its `type` as written (a list joined with
/// " or "), else what its `const`, `enum`, combinators, `$ref`, `properties` or `items` imply,
/// else "any".
pub fn type_label(schema: &Value) -> String {
    match schema {
        Value::Bool(true) => return "any".into(),
        Value::Bool(false) => return "nothing".into(),
        Value::Object(_) => {}
        _ => return "not a schema".into(),
    }
    match schema.get("type") {
        Some(Value::String(t)) => return t.clone(),
        Some(Value::Array(ts)) => {
            let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
            if !names.is_empty() {
                return names.join(" or ");
            }
        }
        _ => {}
    }
    if schema.get("const").is_some() {
        return "constant".into();
    }
    if let Some(e) = schema.get("enum").and_then(Value::as_array) {
        return format!("one of {} values", e.len());
    }
    for kw in ["anyOf", "oneOf"] {
        if let Some(branches) = schema.get(kw).and_then(Value::as_array) {
            let mut labels: Vec<String> = Vec::new();
            for b in branches {
                let l = type_label(b);
                if !labels.contains(&l) {
                    labels.push(l);
                }
            }
            if !labels.is_empty() {
                return labels.join(" or ");
            }
        }
    }
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or(r).to_string();
    }
    if schema.get("properties").is_some() {
        return "object".into();
    }
    if schema.get("items").is_some() {
        return "array".into();
    }
    "any".into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The start kept is whole clusters: never a base without its combining mark, an emoji
    /// without its modifier, or a ZWJ sequence cut after a joiner.
    #[test]
    fn whole_graphemes_keeps_only_whole_clusters() {
        let family = "👩\u{200d}👩\u{200d}👧";
        assert_eq!(whole_graphemes("ab👍🏽c", 3), "ab");
        assert_eq!(whole_graphemes("ab👍🏽c", 4), "ab👍🏽");
        assert_eq!(whole_graphemes(&format!("a{family}b"), 5), "a");
        assert_eq!(
            whole_graphemes(&format!("a{family}b"), 6),
            format!("a{family}")
        );
        assert_eq!(whole_graphemes("ae\u{301}", 2), "a");
        assert_eq!(whole_graphemes("abc", 10), "abc");
        assert_eq!(whole_graphemes(family, 4), "");
        let long = format!("{}{family}", "x".repeat(LINE_WIDTH - 3));
        assert_eq!(cut_line(&long), format!("{}…", "x".repeat(LINE_WIDTH - 3)));
    }

    #[test]
    fn lists_inputs_in_key_order_with_type_requiredness_and_first_line() {
        let params = json!({"type":"object","properties":{
            "units":{"type":"string","description":"\n  Metric or imperial.\nMore text."},
            "city":{"type":["string","null"]},
            "when":{"anyOf":[{"type":"string"},{"type":"null"}]}
        },"required":["city"]});
        assert_eq!(
            written_description("get_weather", Some(&params)),
            "get_weather: no description came with this tool.\nInputs:\n\
             - units (string, optional): Metric or imperial.\n\
             - city (string or null, required)\n\
             - when (string or null, optional)"
        );
    }

    #[test]
    fn cuts_long_lines_and_counts_the_rest() {
        let mut props = serde_json::Map::new();
        for i in 0..15 {
            props.insert(
                format!("p{i}"),
                json!({"type":"integer","description":"x".repeat(300)}),
            );
        }
        let params = json!({"type":"object","properties":props});
        let text = written_description("t", Some(&params));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2 + MAX_INPUTS + 1);
        assert!(lines.iter().all(|l| l.chars().count() <= LINE_WIDTH));
        assert!(lines[2].ends_with('…'), "{}", lines[2]);
        assert_eq!(*lines.last().unwrap(), "and 3 more.");
    }

    #[test]
    fn no_parameters_and_no_properties_are_told_apart() {
        assert_eq!(
            written_description("ping", None),
            "ping: no description came with this tool.\nIt takes no inputs."
        );
        assert_eq!(
            written_description("ping", Some(&json!({"type":"object"}))),
            "ping: no description came with this tool.\nIts schema declares no named inputs."
        );
    }

    #[test]
    fn blank_descriptions_are_replaced_and_real_ones_kept() {
        let mut tool = ToolDef {
            name: "t".into(),
            description: Some("  \n".into()),
            parameters: None,
        };
        assert!(description_or_written(&tool).starts_with("t: no description"));
        tool.description = Some("Does t.".into());
        assert_eq!(description_or_written(&tool), "Does t.");
    }

    #[test]
    fn labels_follow_what_the_schema_says() {
        assert_eq!(type_label(&json!({"enum":["a","b"]})), "one of 2 values");
        assert_eq!(type_label(&json!({"$ref":"#/$defs/Node"})), "Node");
        assert_eq!(type_label(&json!({"type":"dict"})), "dict");
        assert_eq!(type_label(&json!({})), "any");
        assert_eq!(type_label(&json!(false)), "nothing");
    }
}
