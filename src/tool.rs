//! A tool definition as every provider's envelope carries it: a name, a description and a
//! parameters (input) schema.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One tool (function declaration). MCP calls `parameters` `inputSchema`, Anthropic
/// `input_schema`, Gemini `parameters` or `parametersJsonSchema`; here it is always
/// `parameters`, key order preserved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    /// The function name the model calls the tool by.
    pub name: String,
    /// What the model reads to decide when to call the tool; `None` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `None` when the tool declares no parameters at all (a distinct case from `{}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
}

impl ToolDef {
    /// The tool as a JSON object `{"name", "description"?, "parameters"?}`.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
