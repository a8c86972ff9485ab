//! `azure-openai/chat`: Azure OpenAI chat completions (v1 API), and its offline model.
//!
//! Probe: `POST {endpoint}/openai/v1/chat/completions` with the deployment as `model` and
//! `max_tokens: 1` (billed). The v1 API (August 2025 on) needs no `api-version`
//! (learn.microsoft.com api-version-lifecycle). Auth: `api-key: AZURE_OPENAI_API_KEY`;
//! endpoint `AZURE_OPENAI_ENDPOINT` (`https://{resource}.openai.azure.com`), deployment
//! `AZURE_OPENAI_DEPLOYMENT` (default `gpt-4.1-mini`). Without an endpoint or key it is skipped.
//!
//! Schema errors use OpenAI's envelope and validator (azure-strict-required, and the OpenAI
//! rules reports show for description length: azure-description-too-long); the model reuses
//! [`super::openai::check_tools`]. 401 body: BotSharp#386. `parameters: null` is refused
//! (azure-parameters-null; the report quotes no text, so the model words it as OpenAI's
//! meta-schema pass would: `None is not of type 'object', 'boolean'.`).

use serde_json::{Value, json};

use super::openai::{self, OPENAI_RULES, chat_ok, chat_views, check_tools, tool_error};
use super::wire::*;
use crate::tool::ToolDef;

/// The route.
pub struct Azure;

impl Route for Azure {
    fn id(&self) -> &'static str {
        "azure-openai/chat"
    }
    fn service(&self) -> &'static str {
        "azure-openai"
    }
    fn settings(&self) -> Settings {
        Settings {
            base_url: "",
            base_env: Some("AZURE_OPENAI_ENDPOINT"),
            model: "gpt-4.1-mini",
            model_env: Some("AZURE_OPENAI_DEPLOYMENT"),
            key_env: &["AZURE_OPENAI_API_KEY"],
            api_version: Some("v1"),
            keyless: Keyless::Skip,
            method: "POST {endpoint}/openai/v1/chat/completions (max_tokens 1)",
            cost: "billed: input tokens + 1 output token; 400s are free",
        }
    }
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], opts: &WireOptions) -> WireRequest {
        let strict = opts.strict.filter(|s| *s);
        let close = (strict.is_some() && !opts.raw)
            .then(|| openai::Close::for_feature(opts.feature.as_deref()));
        let mut r = openai::chat_request_closed(
            cfg,
            tools,
            "/openai/v1/chat/completions",
            strict,
            json!({}),
            close,
        );
        r.auth = AuthPlacement::Header {
            name: "api-key",
            prefix: "",
        };
        r
    }
    fn classify(&self, _cfg: &RouteConfig, reply: &Reply, _keyless: bool) -> Classified {
        openai::classify(reply, &["choices"])
    }
}

fn access_denied() -> Value {
    json!({"error": {"code": "401", "message": "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource."}})
}

/// The offline model of an Azure OpenAI resource.
pub struct AzureService;

impl Service for AzureService {
    fn slug(&self) -> &'static str {
        "azure-openai"
    }
    fn error_reply(&self, status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            &openai::error(message, "invalid_request_error", None, None),
        )
    }
    fn answer(&self, req: &Incoming) -> Reply {
        let v1 = req.path == "/openai/v1/chat/completions";
        let legacy =
            req.path.starts_with("/openai/deployments/") && req.path.ends_with("/chat/completions");
        if !v1 && !legacy {
            return Reply::json(
                404,
                &json!({"error": {"code": "404", "message": "Resource not found"}}),
            );
        }
        if Cred::of(req.header("api-key").or(req.bearer())) != Cred::Valid {
            return Reply::json(401, &access_denied());
        }
        let body = match super::envelope::parse(&req.body, &super::envelope::Layout::CHAT) {
            Ok(b) => b,
            Err(e) => {
                return Reply::json(
                    400,
                    &openai::error(&e.message(), "invalid_request_error", None, None),
                );
            }
        };
        for (i, t) in body
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            if t.pointer("/function/parameters") == Some(&Value::Null) {
                let name = t
                    .pointer("/function/name")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let e = openai::ToolError {
                    message: format!(
                        "Invalid schema for function '{name}': None is not of type 'object', 'boolean'."
                    ),
                    param: Some(format!("tools[{i}].function.parameters")),
                    code: Some("invalid_function_parameters"),
                };
                return Reply::json(400, &tool_error(&e));
            }
        }
        if let Some(e) = check_tools(&chat_views(&body), OPENAI_RULES) {
            return Reply::json(400, &tool_error(&e));
        }
        let model = body.get("model").and_then(Value::as_str).unwrap_or("");
        Reply::json(200, &chat_ok(model))
    }
}
