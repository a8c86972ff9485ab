//! Targets: every provider route (and in-process engine) that can accept or reject a tool
//! block.
//!
//! [`registry`] is the one list of targets. Live targets get one module each under
//! `src/target/`: a [`Route`] (endpoint and model defaults, auth from documented environment
//! variables, the wire request with the target's documented baseline, and how its answers are
//! read — from the body, not the status) and a [`Service`], the offline model of the provider
//! (a function from a wire request to the status and body the provider answers, with its
//! exact message templates). Engines live in `src/engine/`.
//!
//! Every model first checks the request's envelope ([`envelope`]: a JSON object, the
//! conversation present, the tool list an array of named tools) and refuses a malformed body
//! with the provider's malformed-request error shape. The *text* of those refusals is inferred
//! (no provider documents it): it is a generic message marked `emulated:`.

use serde::{Deserialize, Serialize};

pub mod anthropic;
pub mod azure;
pub mod bedrock;
pub mod cohere;
pub mod compact;
pub mod deepseek;
pub mod envelope;
pub mod fireworks;
pub mod gemini;
pub mod gemini_compat;
pub mod google;
pub mod groq;
pub mod llamacpp;
pub mod mistral;
pub mod moonshot;
pub mod ollama;
pub mod openai;
pub mod openrouter;
pub mod pyrepr;
pub mod secret;
pub mod sigv4;
pub mod together;
pub mod vertex;
pub mod vllm;
pub mod wire;
pub mod xai;

#[cfg(test)]
mod builtin_tests;
#[cfg(test)]
mod foreign_answer_tests;
#[cfg(test)]
mod malformed_tests;

pub use secret::{Credential, Secret};
pub use wire::{
    Classified, Env, Incoming, Keyless, ProcessEnv, Reply, Retry, Route, RouteConfig, Service,
    Settings, WireOptions, WireRequest,
};

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
        live(
            "together/chat",
            Key,
            false,
            false,
            "Together AI chat completions",
        ),
        live(
            "fireworks/chat",
            Key,
            false,
            false,
            "Fireworks AI chat completions",
        ),
    ]
}

/// A sourced fact that one target runs every check another target runs, and more: whatever
/// `from` rejects, `target` rejects too, and so whatever `target` accepts, `from` accepts. The
/// matrix uses it to fill only gaps: a cell of `target` with no evidence of its own takes the
/// rejection of `from`'s cell, citing `from`'s evidence (its kind, date and link, marked "via
/// `from`"), and a cell of `from` with none takes the acceptance of `target`'s cell, marked
/// "via `target`"; never `from`'s acceptance nor `target`'s rejection (`target` may reject
/// more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inheritance {
    /// The target that inherits the rejections.
    pub target: &'static str,
    /// The target whose rejections it inherits.
    pub from: &'static str,
    /// Why: the source's words and the public reports it cites, for MATRIX.md's legend.
    pub because: &'static str,
}

/// Every [`Inheritance`]: the one place it is declared.
///
/// `openai/responses-strict` is not listed: it is another endpoint, and what is known of it
/// (PROVIDERS.md section 6: "same envelope", and mysql-mcp#5's `In context=()` message, a
/// strict-mode check) shows a shared message template, not that Responses runs the checks a
/// Chat Completions request gets.
pub const INHERITANCE: &[Inheritance] = &[Inheritance {
    target: "openai/chat-strict",
    from: "openai/chat",
    because: "strict mode adds the Structured-Outputs subset to the checks every Chat \
              Completions request gets (PROVIDERS.md section 5, read 2026-12-02: \"Even without \
              strict, basic shape checks run\", citing \
              https://github.com/github/github-mcp-server/issues/1548 (2025-12-07) and \
              https://github.com/FoundationAgents/OpenManus/issues/1162 (2025-06-11); \"With \
              `strict:true` the Structured-Outputs subset applies\")",
}];

/// The [`Inheritance`] declared for `target`, if any.
pub fn inheritance(target: &str) -> Option<&'static Inheritance> {
    INHERITANCE.iter().find(|i| i.target == target)
}

/// Every live target id, comma-separated, for messages that list the known ones.
pub fn route_ids() -> String {
    routes()
        .iter()
        .map(|r| r.id())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every live route, in registry order (one per non-engine registry id).
pub fn routes() -> Vec<Box<dyn Route>> {
    use gemini::{Field, Gemini};
    vec![
        Box::new(Gemini(Field::Parameters)),
        Box::new(Gemini(Field::ParametersJsonSchema)),
        Box::new(vertex::Vertex),
        Box::new(gemini_compat::GeminiCompat),
        Box::new(openai::OpenAi::Chat),
        Box::new(openai::OpenAi::ChatStrict),
        Box::new(openai::OpenAi::ResponsesStrict),
        Box::new(azure::Azure),
        Box::new(anthropic::Anthropic),
        Box::new(bedrock::Bedrock),
        Box::new(mistral::Mistral),
        Box::new(cohere::Cohere),
        Box::new(xai::Xai),
        Box::new(deepseek::DeepSeek),
        Box::new(groq::Groq),
        Box::new(openrouter::OpenRouter),
        Box::new(ollama::Ollama),
        Box::new(llamacpp::LlamaCpp),
        Box::new(vllm::Server::Vllm),
        Box::new(vllm::Server::Sglang),
        Box::new(moonshot::Moonshot),
        Box::new(together::Together),
        Box::new(fireworks::Fireworks),
    ]
}

/// The live route with this id.
pub fn route(id: &str) -> Option<Box<dyn Route>> {
    routes().into_iter().find(|r| r.id() == id)
}

/// Every offline model, one per provider service (the emulator's path prefixes).
pub fn services() -> Vec<Box<dyn Service>> {
    vec![
        Box::new(gemini::GeminiService),
        Box::new(vertex::VertexService),
        Box::new(openai::OpenAiService),
        Box::new(azure::AzureService),
        Box::new(anthropic::AnthropicService),
        Box::new(bedrock::BedrockService),
        Box::new(mistral::MistralService),
        Box::new(cohere::CohereService),
        Box::new(xai::XaiService),
        Box::new(deepseek::DeepSeekService),
        Box::new(groq::GroqService),
        Box::new(openrouter::OpenRouterService),
        Box::new(ollama::OllamaService),
        Box::new(llamacpp::LlamaCppService),
        Box::new(vllm::ServerService(vllm::Server::Vllm)),
        Box::new(vllm::ServerService(vllm::Server::Sglang)),
        Box::new(moonshot::MoonshotService),
        Box::new(together::TogetherService),
        Box::new(fireworks::FireworksService),
    ]
}

/// The offline model serving this slug.
pub fn service(slug: &str) -> Option<Box<dyn Service>> {
    services().into_iter().find(|s| s.slug() == slug)
}

/// The path a target's error message names, read the way the target's answer reader reads
/// it (also used to read public reports' texts).
pub fn path_in_message(id: &str, msg: &str) -> Option<String> {
    let first = |m: &str, at: &str, end: char| {
        m.find(at)
            .map(|i| &m[i + at.len()..])
            .and_then(|r| r.split(end).next())
            .map(str::to_string)
    };
    match id.split('/').next().unwrap_or(id) {
        "gemini" | "vertex" => google::path_in_message(msg),
        "anthropic" => anthropic::path_in_message(msg),
        "bedrock" => bedrock::path_in_message(msg),
        "moonshot" => first(msg, "At path '", '\''),
        "ollama" => first(msg, "Go struct field ", ' '),
        "cohere" => first(msg, "invalid function at ", ':'),
        "xai" => first(msg, "] ", ':'),
        "mistral" | "llama.cpp" | "fireworks" | "vllm" | "sglang" => None,
        "openrouter" => google::path_in_message(msg)
            .or_else(|| openai::path_in_message(msg))
            .or_else(|| anthropic::path_in_message(msg)),
        _ => openai::path_in_message(msg),
    }
}

/// Runs a target's offline model in-process: builds the wire request the prober would send
/// for `tools`, attaches `credential` as the HTTP layer would, and returns the request and the
/// model's answer. `None` for engines and unknown ids.
pub fn model(
    id: &str,
    cfg: &RouteConfig,
    tools: &[crate::tool::ToolDef],
    opts: &WireOptions,
    credential: Option<&Credential>,
) -> Option<(WireRequest, Reply)> {
    model_with_builtins(id, cfg, tools, &[], opts, credential)
}

/// [`model`] for a request that also holds built-in tools as written: each `(position,
/// tool)` is inserted into the request's tool list (`tools`, Converse's `toolConfig.tools`)
/// at `position`, in order (positions count the whole list, built-ins included).
pub fn model_with_builtins(
    id: &str,
    cfg: &RouteConfig,
    tools: &[crate::tool::ToolDef],
    builtins: &[(usize, &serde_json::Value)],
    opts: &WireOptions,
    credential: Option<&Credential>,
) -> Option<(WireRequest, Reply)> {
    let route = route(id)?;
    let svc = service(route.service())?;
    let mut req = route.request(cfg, tools, opts);
    if !builtins.is_empty()
        && let Ok(mut body) = wire::parse_json(&req.body)
        && let Some(list) = tool_list_mut(&mut body)
    {
        for (position, tool) in builtins {
            list.insert((*position).min(list.len()), (*tool).clone());
        }
        req.body = body.to_string().into_bytes().into();
    }
    let reply = svc.answer(&req.to_incoming(credential));
    Some((req, reply))
}

/// A request body's tool list: `tools`, Gemini countTokens' `generateContentRequest.tools`,
/// Vertex's `request.tools`, or Converse's `toolConfig.tools`.
fn tool_list_mut(body: &mut serde_json::Value) -> Option<&mut Vec<serde_json::Value>> {
    let at = [
        "/tools",
        "/generateContentRequest/tools",
        "/request/tools",
        "/toolConfig/tools",
    ]
    .into_iter()
    .find(|p| body.pointer(p).is_some_and(serde_json::Value::is_array))?;
    body.pointer_mut(at)
        .and_then(serde_json::Value::as_array_mut)
}

/// How a target takes one built-in tool ([`fit_builtin`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuiltinFit {
    /// Sent as written.
    AsWritten,
    /// Sent in the shape the target's API writes it in: the tool so rewritten, and a
    /// sentence saying what changed (an OpenAI `custom` tool between Chat Completions' nested
    /// shape and the Responses API's flat one, [`openai::custom_in_shape`]).
    Converted {
        tool: serde_json::Value,
        change: String,
    },
    /// Its kind is one the target takes, but this tool has a field the target's shape has no
    /// place for: the reason.
    Unplaceable(String),
    /// The target does not take this kind of built-in tool.
    NotTaken,
}

/// How `target`'s offline model takes `tool`, a provider's built-in tool as written, as a
/// built-in (unchecked, in its place in the list): Anthropic's built-ins on
/// `anthropic/messages` ([`anthropic::is_builtin`]), OpenAI's on `openai/responses-strict`
/// ([`openai::is_builtin`]), OpenAI's `custom` tool, the only tool besides `function` that
/// Chat Completions takes, on `openai/chat` and `openai/chat-strict`
/// ([`openai::is_chat_custom`]; both APIs take it, each in its own shape, so one in the
/// other API's shape is [`BuiltinFit::Converted`]), Bedrock's `cachePoint` on
/// `bedrock/converse`, and Gemini's built-in `tools` entries (`googleSearch`,
/// `codeExecution`, ...: the `Tool` fields of ai.google.dev/api/caching#Tool) on the Gemini
/// and Vertex parameters routes. Each model's documentation gives its source; a built-in of
/// another provider cannot be sent.
pub fn fit_builtin(target: &str, tool: &serde_json::Value) -> BuiltinFit {
    let taken = match target {
        "anthropic/messages" => anthropic::is_builtin(tool),
        "openai/responses-strict" => openai::is_responses_builtin(tool),
        "openai/chat" | "openai/chat-strict" => openai::is_chat_custom(tool),
        "bedrock/converse" => tool
            .as_object()
            .is_some_and(crate::input::bedrock_cache_point),
        "gemini/v1beta/parameters"
        | "gemini/v1beta/parameters-json-schema"
        | "vertex/v1/parameters" => tool
            .as_object()
            .is_some_and(crate::input::is_gemini_builtin_entry),
        _ => false,
    };
    if taken {
        return BuiltinFit::AsWritten;
    }
    let (responses, from, to) = match target {
        "openai/responses-strict" => (
            true,
            "Chat Completions' nested shape (`custom: {name, ..}`)",
            "the Responses API's flat shape (`name`, .. beside `type`)",
        ),
        "openai/chat" | "openai/chat-strict" => (
            false,
            "the Responses API's flat shape (`name`, .. beside `type`)",
            "Chat Completions' nested shape (`custom: {name, ..}`)",
        ),
        _ => return BuiltinFit::NotTaken,
    };
    match openai::custom_in_shape(tool, responses) {
        Some(Ok(tool)) => BuiltinFit::Converted {
            tool,
            change: format!("OpenAI custom tool converted from {from} to {to}"),
        },
        Some(Err(why)) => {
            BuiltinFit::Unplaceable(format!("it is an OpenAI custom tool in {from}, and {why}"))
        }
        None => BuiltinFit::NotTaken,
    }
}

/// Whether `target` takes `tool`, a provider's built-in tool, as written or converted to its
/// API's shape ([`fit_builtin`]).
pub fn takes_builtin(target: &str, tool: &serde_json::Value) -> bool {
    matches!(
        fit_builtin(target, tool),
        BuiltinFit::AsWritten | BuiltinFit::Converted { .. }
    )
}

/// The README's table of each live target's defaults (Markdown, one row per [`routes`]
/// entry, a header first, `\n` after each line): the model probed, what replaces it
/// (`--model`, the route's model variable), the base URL (or the variable that must give it)
/// and the route's other defaults (Bedrock's region, Vertex's location, OpenRouter's
/// upstream) with the variables that replace them. Read from each route's configuration with
/// no variable set, so it says what a run with nothing set probes.
pub fn defaults_table() -> String {
    let none = std::collections::BTreeMap::new();
    let mut out = String::from(
        "| target | default model | model from | default base URL | other defaults |\n\
         |---|---|---|---|---|\n",
    );
    for route in routes() {
        let s = route.settings();
        let cfg = route.configure(&none);
        let model_from = std::iter::once("--model")
            .chain(s.model_env)
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let base = match (cfg.base_url.as_str(), s.base_env) {
            ("", Some(var)) => format!("none: set `{var}`"),
            (url, Some(var)) => format!("`{url}` (`{var}`)"),
            (url, None) => format!("`{url}`"),
        };
        let others = cfg
            .extra
            .iter()
            .map(|(k, v)| {
                let vars = extra_variables(route.as_ref(), k)
                    .iter()
                    .map(|v| format!("`{v}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!("{k} `{v}` ({vars})")
            })
            .collect::<Vec<_>>()
            .join("; ");
        out.push_str(&format!(
            "| `{}` | `{}` | {model_from} | {base} | {others} |\n",
            route.id(),
            cfg.model
        ));
    }
    out
}

/// The variables that set `route`'s route-specific setting `key` ([`RouteConfig::extra`]),
/// found by setting each variable the route reads alone and seeing which ones land there, so
/// that the table cannot name a variable the code does not read.
fn extra_variables(route: &dyn Route, key: &str) -> Vec<String> {
    struct Asked(std::cell::RefCell<Vec<String>>);
    impl Env for Asked {
        fn var(&self, name: &str) -> Option<String> {
            self.0.borrow_mut().push(name.to_string());
            None
        }
    }
    let asked = Asked(Default::default());
    route.configure(&asked);
    let mut names = asked.0.into_inner();
    names.dedup();
    let marker = "tw-setting-marker";
    names
        .into_iter()
        .filter(|name| {
            let env = std::collections::BTreeMap::from([(name.clone(), marker.to_string())]);
            route.configure(&env).extra.get(key).map(String::as_str) == Some(marker)
        })
        .collect()
}

/// Looks a target up by id.
pub fn find(id: &str) -> Option<TargetSpec> {
    registry().into_iter().find(|t| t.id == id)
}

/// True for targets run inside this process.
pub fn is_engine(id: &str) -> bool {
    id.starts_with("engine/")
}

#[cfg(test)]
mod readme_tests {
    /// The lines around the README's generated table.
    const BEGIN: &str = "<!-- generated from the code by toolwire::target::defaults_table(): \
                         TOOLWIRE_README=overwrite cargo test --lib readme_defaults -->\n";
    const END: &str = "<!-- end of the generated table -->\n";

    /// The README's "Targets' defaults" table is what the routes configure with nothing set
    /// (`TOOLWIRE_README=overwrite` rewrites it): the README named no target's model, nor
    /// Bedrock's region and model.
    #[test]
    fn readme_defaults_table_is_the_routes_own() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
        let readme = std::fs::read_to_string(&path).expect("README.md");
        let start = readme.find(BEGIN).expect("the table's first marker") + BEGIN.len();
        let end = start + readme[start..].find(END).expect("the table's end marker");
        let table = super::defaults_table();
        if std::env::var("TOOLWIRE_README").as_deref() == Ok("overwrite") {
            let new = format!("{}{table}{}", &readme[..start], &readme[end..]);
            std::fs::write(&path, new).expect("README.md written");
            return;
        }
        assert_eq!(
            readme[start..end],
            table,
            "README.md's defaults table is stale: run TOOLWIRE_README=overwrite cargo test \
             --lib readme_defaults and commit it"
        );
    }

    /// Bedrock's and Vertex's silent defaults, and the variables that replace them, are in
    /// the table (they were named nowhere a user would look).
    #[test]
    fn the_defaults_table_names_region_and_location() {
        let table = super::defaults_table();
        let row = |id: &str| {
            table
                .lines()
                .find(|l| l.starts_with(&format!("| `{id}` |")))
                .unwrap_or_else(|| panic!("no row for {id}: {table}"))
                .to_string()
        };
        let bedrock = row("bedrock/converse");
        assert!(
            bedrock.contains("`anthropic.claude-3-5-haiku-20241022-v1:0`")
                && bedrock.contains("region `us-east-1` (`AWS_REGION`, `AWS_DEFAULT_REGION`)"),
            "{bedrock}"
        );
        let vertex = row("vertex/v1/parameters");
        assert!(
            vertex.contains("location `us-central1` (`GOOGLE_CLOUD_LOCATION`)"),
            "{vertex}"
        );
        assert!(row("azure-openai/chat").contains("none: set `AZURE_OPENAI_ENDPOINT`"));
        assert!(row("openrouter").contains("`--model`, `OPENROUTER_MODEL`"));
        assert_eq!(table.lines().count(), super::routes().len() + 2);
    }
}
