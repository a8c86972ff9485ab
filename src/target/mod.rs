//! Targets: every provider route (and in-process engine) that can accept or reject a tool
//! block.
//!
//! [`registry`] is the one list of targets. Live targets get one module each under
//! `src/target/` (request building, answer classification, offline model); engines live in
//! `src/engine/`.

use serde::{Deserialize, Serialize};

/// How a target authenticates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AuthMode {
    /// No credentials (local servers).
    None,
    /// Probed without credentials because the front end parses before it authenticates.
    Preauth,
    /// An API key from an environment variable.
    Key,
    /// AWS SigV4 or a Bedrock API key.
    Sigv4,
    /// An engine run inside this process.
    InProcess,
}

impl AuthMode {
    pub fn as_str(self) -> &'static str {
        match self {
            AuthMode::None => "none",
            AuthMode::Preauth => "preauth",
            AuthMode::Key => "key",
            AuthMode::Sigv4 => "sigv4",
            AuthMode::InProcess => "in-process",
        }
    }
}

/// One target's identity and role.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TargetSpec {
    /// e.g. `gemini/v1beta/parameters`, `engine/llguidance`.
    pub id: &'static str,
    pub auth: AuthMode,
    /// In the `portable` profile's default target set.
    pub core: bool,
    /// A strict (structured-outputs) mode, reached through compile rather than `portable`.
    pub strict: bool,
    /// One line for tables and `--help`.
    pub summary: &'static str,
}

const fn live(
    id: &'static str,
    auth: AuthMode,
    core: bool,
    strict: bool,
    summary: &'static str,
) -> TargetSpec {
    TargetSpec {
        id,
        auth,
        core,
        strict,
        summary,
    }
}

/// Every target toolwire knows, engines first, in a fixed order (the matrix's columns).
pub fn registry() -> Vec<TargetSpec> {
    use AuthMode::*;
    vec![
        live(
            "engine/jsonschema-2020-12",
            InProcess,
            false,
            false,
            "valid against the JSON Schema draft 2020-12 meta-schema (jsonschema crate)",
        ),
        live(
            "engine/llguidance",
            InProcess,
            false,
            false,
            "llguidance grammar compiler, default options (llama.cpp, vLLM)",
        ),
        live(
            "engine/llguidance-lenient",
            InProcess,
            false,
            false,
            "llguidance grammar compiler, lenient: unsupported keywords become warnings",
        ),
        live(
            "engine/gemini-proto-snapshot/parameters",
            InProcess,
            false,
            false,
            "snapshot of Gemini v1beta's published Schema field list, parsed as `parameters` (not Gemini itself)",
        ),
        live(
            "engine/gemini-proto-snapshot/parameters-json-schema",
            InProcess,
            false,
            false,
            "snapshot of Gemini v1beta's published field list, schema sent as `parametersJsonSchema` (not Gemini itself)",
        ),
        live(
            "gemini/v1beta/parameters",
            Preauth,
            true,
            false,
            "Gemini Developer API, functionDeclarations[].parameters (OpenAPI subset)",
        ),
        live(
            "gemini/v1beta/parameters-json-schema",
            Key,
            false,
            false,
            "Gemini Developer API, functionDeclarations[].parametersJsonSchema",
        ),
        live(
            "vertex/v1/parameters",
            Key,
            false,
            false,
            "Vertex AI Gemini, functionDeclarations[].parameters",
        ),
        live(
            "gemini/openai-compat",
            Key,
            false,
            false,
            "Gemini's OpenAI-compatible chat completions endpoint",
        ),
        live(
            "openai/chat",
            Key,
            true,
            false,
            "OpenAI Chat Completions, non-strict function tools",
        ),
        live(
            "openai/chat-strict",
            Key,
            false,
            true,
            "OpenAI Chat Completions, strict: true (structured outputs)",
        ),
        live(
            "openai/responses-strict",
            Key,
            false,
            true,
            "OpenAI Responses API, function tools (strict by default)",
        ),
        live(
            "azure-openai/chat",
            Key,
            false,
            false,
            "Azure OpenAI chat completions",
        ),
        live(
            "anthropic/messages",
            Key,
            true,
            false,
            "Anthropic Messages API (count_tokens), input_schema",
        ),
        live(
            "bedrock/converse",
            Sigv4,
            true,
            false,
            "AWS Bedrock Converse, toolSpec.inputSchema.json",
        ),
        live("mistral/chat", Key, true, false, "Mistral chat completions"),
        live(
            "cohere/v2-strict",
            Key,
            false,
            true,
            "Cohere v2 chat with strict_tools",
        ),
        live("xai/chat", Key, false, false, "xAI chat completions"),
        live(
            "deepseek/beta-strict",
            Key,
            false,
            true,
            "DeepSeek beta chat completions, strict function calling",
        ),
        live(
            "groq/chat",
            Key,
            false,
            false,
            "Groq OpenAI-compatible chat completions",
        ),
        live(
            "openrouter",
            Key,
            false,
            false,
            "OpenRouter chat completions (upstream pinned, no fallbacks)",
        ),
        live(
            "ollama/chat",
            None,
            false,
            false,
            "Ollama /api/chat (local)",
        ),
        live(
            "llama.cpp/server",
            None,
            false,
            false,
            "llama.cpp llama-server chat completions (local)",
        ),
        live(
            "vllm/chat",
            None,
            false,
            false,
            "vLLM OpenAI-compatible server (local)",
        ),
        live(
            "sglang/chat",
            None,
            false,
            false,
            "SGLang OpenAI-compatible server (local)",
        ),
        live(
            "moonshot/chat",
            Key,
            false,
            false,
            "Moonshot (Kimi) chat completions",
        ),
    ]
}

/// Looks a target up by id.
pub fn find(id: &str) -> Option<TargetSpec> {
    registry().into_iter().find(|t| t.id == id)
}

/// True for targets run inside this process.
pub fn is_engine(id: &str) -> bool {
    id.starts_with("engine/")
}
