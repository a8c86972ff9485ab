//! `toolwire args --schema FILE --call JSON`: check one tool call's arguments against the
//! tool's declared schema. Exit 0 valid, 1 problems, 2 bad input.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::args::{ArgsSchema, Coercions, parse_arguments, parse_arguments_from};
use crate::cli::{EXIT_FINDINGS, EXIT_OK, Paths};
use crate::error::{Error, Place, Result};
use crate::json::{self, Limits};

#[derive(Debug, clap::Args)]
pub struct ArgsArgs {
    /// The declared schema: a bare JSON Schema, or one tool definition (OpenAI
    /// `{"type":"function","function":{...}}` or flat, Anthropic `input_schema`, MCP
    /// `inputSchema`, Gemini `parameters`/`parametersJsonSchema`).
    #[arg(long, value_name = "FILE")]
    pub schema: PathBuf,
    /// The call's arguments: JSON text, a JSON string holding the JSON text (OpenAI's
    /// `arguments`), or `@FILE`.
    #[arg(long, value_name = "JSON")]
    pub call: String,
    /// Allowed coercions: `json` (JSON text to array/object), `boolean` (true/false/yes/no/
    /// on/off/1/0), `number` (numeric text), or `all`. Comma-separated or repeated.
    #[arg(long, value_name = "KINDS", value_delimiter = ',')]
    pub coerce: Vec<String>,
    /// Output: `human` (the retry message for the model) or `json` (the full report).
    #[arg(long, default_value = "human", value_parser = ["human", "json"])]
    pub format: String,
}

pub fn run(args: ArgsArgs, _paths: &Paths) -> Result<u8> {
    let coerce = parse_coercions(&args.coerce)?;
    let doc = json::load_file(&args.schema, Limits::default())?;
    let (tool, schema) = declared_schema(&doc);
    let compiled = ArgsSchema::new(schema).map_err(|p| {
        Error::input(
            &args.schema,
            Place::Pointer(p.pointer),
            format!("the schema is not valid JSON Schema: {}", p.message),
        )
    })?;
    let call = match args.call.strip_prefix('@') {
        Some(path) => {
            let text = read_call_file(Path::new(path))?;
            parse_arguments_from(Path::new(path), &text)?
        }
        None => parse_arguments(&args.call)
            .map_err(|e| Error::Usage(format!("--call is not JSON: {e}")))?,
    };
    let report = compiled.check(&call, coerce);
    if args.format == "json" {
        let out = json!({
            "tool": tool,
            "valid": report.is_valid(),
            "arguments": report.arguments,
            "problems": report.problems,
            "coercions": report.coercions,
            "absent_nulls": report.absent_nulls,
            "message": report.retry_message(tool),
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        if report.is_valid() {
            println!("ok: the arguments match the schema");
        } else {
            println!("{}", report.retry_message(tool));
        }
        for c in &report.coercions {
            println!(
                "coerced {}: {} -> {} ({})",
                c.pointer,
                Value::String(c.from.clone()),
                c.to,
                match c.kind {
                    crate::args::CoercionKind::JsonText => "JSON text",
                    crate::args::CoercionKind::BooleanText => "boolean text",
                    crate::args::CoercionKind::NumericText => "numeric text",
                }
            );
        }
        for p in &report.absent_nulls {
            println!("null treated as absent: {p}");
        }
    }
    Ok(if report.is_valid() {
        EXIT_OK
    } else {
        EXIT_FINDINGS
    })
}

fn parse_coercions(kinds: &[String]) -> Result<Coercions> {
    let mut c = Coercions::NONE;
    for k in kinds {
        match k.trim() {
            "json" => c.json_text = true,
            "boolean" => c.boolean_text = true,
            "number" => c.numeric_text = true,
            "all" => c = Coercions::ALL,
            other => {
                return Err(Error::Usage(format!(
                    "--coerce {other:?}: expected json, boolean, number or all"
                )));
            }
        }
    }
    Ok(c)
}

fn read_call_file(path: &Path) -> Result<String> {
    let bytes = json::read_capped(path, Limits::default())?;
    Ok(json::check_utf8(path, &bytes)?.to_string())
}

/// The tool's name (when the file is a tool definition) and its parameters schema.
fn declared_schema(doc: &Value) -> (Option<&str>, &Value) {
    let tool = doc
        .get("function")
        .filter(|f| f.get("name").is_some())
        .unwrap_or(doc);
    if let Some(name) = tool.get("name").and_then(Value::as_str) {
        for key in [
            "parameters",
            "parametersJsonSchema",
            "input_schema",
            "inputSchema",
        ] {
            if let Some(schema) = tool.get(key) {
                return (Some(name), schema);
            }
        }
    }
    (None, doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_envelopes_are_unwrapped_and_bare_schemas_kept() {
        let s = json!({"type":"object"});
        for doc in [
            json!({"type":"function","function":{"name":"f","parameters":s}}),
            json!({"name":"f","input_schema":s}),
            json!({"name":"f","inputSchema":s}),
            json!({"name":"f","parametersJsonSchema":s}),
        ] {
            assert_eq!(declared_schema(&doc), (Some("f"), &s));
        }
        // A schema with a property called `name` is not a tool.
        let bare = json!({"type":"object","properties":{"name":{"type":"string"}}});
        assert_eq!(declared_schema(&bare), (None, &bare));
    }

    #[test]
    fn coercion_kinds_parse() {
        let c = parse_coercions(&["json".into(), "number".into()]).unwrap();
        assert!(c.json_text && c.numeric_text && !c.boolean_text);
        assert_eq!(parse_coercions(&["all".into()]).unwrap(), Coercions::ALL);
        assert!(parse_coercions(&["bool".into()]).is_err());
    }
}
