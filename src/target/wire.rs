//! What travels between the prober and a target: the wire request a route builds, the request
//! as a server sees it ([`Incoming`]), the answer ([`Reply`]) and how a route reads it
//! ([`Classified`]).
//!
//! The same types serve the live prober (`src/probe/http.rs`), the offline models (each
//! route's [`Service`]) and the emulator (`src/emulate/`), so a model is exercised by exactly
//! the bytes the prober would send.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::Value;

use super::compact;
use super::openai::{Close, Closed};
use super::secret::{Credential, Secret};
use super::sigv4;
use crate::evidence::{Stage, Verdict};
use crate::tool::ToolDef;

/// Where the credential goes on the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthPlacement {
    /// Nothing is attached (local servers, the pre-auth probe).
    None,
    /// A header `name: prefix + key` (e.g. `authorization: Bearer sk-…`, `x-api-key: …`).
    Header {
        name: &'static str,
        prefix: &'static str,
    },
    /// AWS SigV4 over the request (`authorization`, `x-amz-date`, `x-amz-security-token`), or
    /// `authorization: Bearer <key>` when the credential is a Bedrock API key.
    SigV4 {
        region: String,
        service: &'static str,
    },
}

/// One HTTP request a route wants sent, relative to the route's base URL, without its
/// credential (attached by [`WireRequest::auth_headers`] at the last moment).
#[derive(Debug, Clone, PartialEq)]
pub struct WireRequest {
    pub method: &'static str,
    /// Path and query below the base URL, starting with `/`.
    pub path: String,
    /// Non-secret headers (lower-case names), e.g. `anthropic-version`.
    pub headers: Vec<(String, String)>,
    pub auth: AuthPlacement,
    /// The exact body (JSON, key order as built); shared, not copied, by every attempt.
    pub body: bytes::Bytes,
}

impl WireRequest {
    /// A JSON POST.
    pub fn post_json(path: impl Into<String>, body: &Value, auth: AuthPlacement) -> Self {
        WireRequest {
            method: "POST",
            path: path.into(),
            headers: vec![("content-type".into(), "application/json".into())],
            auth,
            body: serde_json::to_vec(body).unwrap_or_default().into(),
        }
    }

    /// A JSON POST of a [`Body`].
    pub fn post_body(path: impl Into<String>, body: &Body<'_>, auth: AuthPlacement) -> Self {
        WireRequest {
            method: "POST",
            path: path.into(),
            headers: vec![("content-type".into(), "application/json".into())],
            auth,
            body: body.to_vec().into(),
        }
    }

    /// Adds a non-secret header.
    pub fn with_header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.to_string(), value.into()));
        self
    }

    /// The credential headers for this request to `url` (the full URL, needed by SigV4),
    /// signed at `now`. Empty when there is no credential or the placement is `None`.
    pub fn auth_headers(
        &self,
        url: &str,
        credential: Option<&Credential>,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Vec<(String, Secret)> {
        let Some(credential) = credential else {
            return Vec::new();
        };
        match (&self.auth, credential) {
            (AuthPlacement::None, _) => Vec::new(),
            (AuthPlacement::Header { name, prefix }, Credential::Key(k)) => {
                vec![(
                    name.to_string(),
                    Secret::new(format!("{prefix}{}", k.expose())),
                )]
            }
            (AuthPlacement::SigV4 { .. }, Credential::Key(k)) => {
                vec![(
                    "authorization".into(),
                    Secret::new(format!("Bearer {}", k.expose())),
                )]
            }
            (AuthPlacement::SigV4 { region, service }, Credential::Aws(keys)) => sigv4::sign(
                self.method,
                url,
                &self.headers,
                &self.body,
                keys,
                region,
                service,
                now,
            ),
            (AuthPlacement::Header { .. }, Credential::Aws(_)) => Vec::new(),
        }
    }

    /// The request as a server would see it (for calling an offline model in-process).
    pub fn to_incoming(&self, credential: Option<&Credential>) -> Incoming {
        let url = format!("http://model.invalid{}", self.path);
        let now = chrono::DateTime::from_timestamp(1_767_225_600, 0).unwrap_or_default();
        let mut headers = self.headers.clone();
        for (name, value) in self.auth_headers(&url, credential, now) {
            headers.push((name, value.expose().to_string()));
        }
        Incoming::new(self.method, &self.path, headers, self.body.to_vec())
    }
}

/// How a tool list is laid out on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Chat Completions: `{"type":"function","function":{name, description, parameters[, strict]}}`.
    Chat { strict: Option<bool> },
    /// Responses API: `{"type":"function", name, description, parameters, strict}`.
    Flat { strict: bool },
    /// Gemini: `[{"functionDeclarations":[{name, description, <field>}]}]`.
    Gemini { field: &'static str },
    /// Anthropic: `{name, description, input_schema}`.
    Anthropic,
    /// Bedrock Converse: `{"toolSpec":{name, description, inputSchema:{json}[, strict]}}`.
    Bedrock { strict: Option<bool> },
}

/// A tool list serialized in place: the schemas are written straight from the case, never
/// copied into a new JSON tree (the largest cases carry hundreds of kilobytes).
#[derive(Debug, Clone, Copy)]
pub struct Tools<'a> {
    pub tools: &'a [ToolDef],
    pub shape: Shape,
}

/// Object members in order.
pub struct Fields<'a>(Vec<(Key, Part<'a>)>);

/// A member name: static for the fixed envelope, owned for extras.
type Key = std::borrow::Cow<'static, str>;

impl Fields<'_> {
    fn write(&self, out: &mut Vec<u8>) {
        out.push(b'{');
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            compact::key(out, k);
            v.write(out);
        }
        out.push(b'}');
    }
}

impl Tools<'_> {
    /// The tool list, each schema under the strict baseline when `close` is set.
    fn write(&self, close: Option<Close>, out: &mut Vec<u8>) {
        let one = |t| tool_fields(t, self.shape, close);
        if let Shape::Gemini { .. } = self.shape {
            let decls: Vec<Fields<'_>> = self.tools.iter().map(one).collect();
            out.push(b'[');
            Fields(vec![("functionDeclarations".into(), Part::List(decls))]).write(out);
            out.push(b']');
            return;
        }
        out.push(b'[');
        for (i, t) in self.tools.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            one(t).write(out);
        }
        out.push(b']');
    }
}

fn tool_fields(t: &ToolDef, shape: Shape, close: Option<Close>) -> Fields<'_> {
    let k = |s: &'static str| -> Key { Key::Borrowed(s) };
    let schema = |p| match close {
        Some(c) => Part::Closed(Closed::new(p, c)),
        None => Part::Ref(p),
    };
    let mut f: Vec<(Key, Part<'_>)> = vec![(k("name"), Part::Str(&t.name))];
    if let Some(d) = &t.description {
        f.push((k("description"), Part::Str(d)));
    }
    let schema_key = match shape {
        Shape::Gemini { field } => field,
        Shape::Anthropic => "input_schema",
        _ => "parameters",
    };
    match shape {
        Shape::Bedrock { strict } => {
            let json = match &t.parameters {
                Some(p) => schema(p),
                None => Part::Ref(&EMPTY_OBJECT),
            };
            f.push((k("inputSchema"), Part::Obj(Fields(vec![(k("json"), json)]))));
            if let Some(s) = strict {
                f.push((k("strict"), Part::Bool(s)));
            }
            return Fields(vec![(k("toolSpec"), Part::Obj(Fields(f)))]);
        }
        _ => {
            if let Some(p) = &t.parameters {
                f.push((k(schema_key), schema(p)));
            }
        }
    }
    match shape {
        Shape::Chat { strict } => {
            if let Some(s) = strict {
                f.push((k("strict"), Part::Bool(s)));
            }
            Fields(vec![
                (k("type"), Part::Str("function")),
                (k("function"), Part::Obj(Fields(f))),
            ])
        }
        Shape::Flat { strict } => {
            let mut all = vec![(k("type"), Part::Str("function"))];
            all.extend(f);
            all.push((k("strict"), Part::Bool(strict)));
            Fields(all)
        }
        _ => Fields(f),
    }
}

static EMPTY_OBJECT: std::sync::LazyLock<Value> =
    std::sync::LazyLock::new(|| Value::Object(serde_json::Map::new()));

/// One member value of a request body being written.
pub enum Part<'a> {
    /// An owned JSON value (small envelope members).
    Json(Value),
    /// A borrowed JSON value (a case's schema).
    Ref(&'a Value),
    /// A case's schema under the strict baseline.
    Closed(Closed<'a>),
    Str(&'a str),
    Bool(bool),
    Tools(Tools<'a>, Option<Close>),
    Obj(Fields<'a>),
    List(Vec<Fields<'a>>),
}

impl Part<'_> {
    fn write(&self, out: &mut Vec<u8>) {
        match self {
            Part::Json(v) => compact::value(out, v),
            Part::Ref(v) => compact::value(out, v),
            Part::Closed(v) => v.write(out),
            Part::Str(v) => compact::string(out, v),
            Part::Bool(b) => compact::boolean(out, *b),
            Part::Tools(t, close) => t.write(*close, out),
            Part::Obj(o) => o.write(out),
            Part::List(l) => {
                out.push(b'[');
                for (i, f) in l.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    f.write(out);
                }
                out.push(b']');
            }
        }
    }
}

/// A JSON object body written member by member, in order.
pub struct Body<'a>(Fields<'a>);

impl<'a> Body<'a> {
    pub fn new() -> Self {
        Body(Fields(Vec::new()))
    }
    /// An owned member.
    pub fn json(mut self, key: &'static str, v: Value) -> Self {
        self.0.0.push((key.into(), Part::Json(v)));
        self
    }
    /// The tool list.
    pub fn tools(self, key: &'static str, tools: Tools<'a>) -> Self {
        self.tools_closed(key, tools, None)
    }
    /// The tool list, each schema under the strict baseline when `close` is set.
    pub fn tools_closed(
        mut self,
        key: &'static str,
        tools: Tools<'a>,
        close: Option<Close>,
    ) -> Self {
        self.0.0.push((key.into(), Part::Tools(tools, close)));
        self
    }
    /// A nested object.
    pub fn object(mut self, key: &'static str, inner: Body<'a>) -> Self {
        self.0.0.push((key.into(), Part::Obj(inner.0)));
        self
    }
    /// Every member of `extra` (an object), after the others.
    pub fn extend(mut self, extra: Value) -> Self {
        if let Value::Object(m) = extra {
            for (k, v) in m {
                self.0.0.push((Key::Owned(k), Part::Json(v)));
            }
        }
        self
    }
    /// The serialized body.
    pub fn to_vec(&self) -> Vec<u8> {
        // Most probe bodies are a few KiB: start there instead of growing from 128 bytes.
        let mut out = Vec::with_capacity(4096);
        self.0.write(&mut out);
        out
    }
}

impl Default for Body<'_> {
    fn default() -> Self {
        Self::new()
    }
}

/// A request as the server side sees it: what an offline model answers.
#[derive(Debug, Clone, PartialEq)]
pub struct Incoming {
    pub method: String,
    /// The path without the query.
    pub path: String,
    /// Decoded query pairs.
    pub query: Vec<(String, String)>,
    /// Headers with lower-case names.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Incoming {
    /// Splits `path_and_query` and lower-cases header names.
    pub fn new(
        method: &str,
        path_and_query: &str,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    ) -> Self {
        let (path, query) = match path_and_query.split_once('?') {
            Some((p, q)) => (p, q),
            None => (path_and_query, ""),
        };
        let query = form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect();
        Incoming {
            method: method.to_ascii_uppercase(),
            path: path.to_string(),
            query,
            headers: headers
                .into_iter()
                .map(|(k, v)| (k.to_ascii_lowercase(), v))
                .collect(),
            body,
        }
    }

    /// The first header with this (lower-case) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first query parameter with this name.
    pub fn query(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The bearer token of `authorization: Bearer …`, if any.
    pub fn bearer(&self) -> Option<&str> {
        let v = self.header("authorization")?;
        let (scheme, token) = v.split_once(' ')?;
        scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
    }
}

/// Start of the keys the emulator answers as invalid ([`Cred`]).
pub const INVALID_KEY_PREFIX: &str = "tw-invalid";

/// What the emulator makes of the credential a request carries, the convention every model
/// follows: none, an invalid key (one starting `tw-invalid`, e.g. `tw-invalid-key-1`, which
/// `probe` accepts as a credible key; or the literal `invalid`, for library callers: `probe`
/// refuses plain words as keys), or anything else (taken as valid).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cred {
    Missing,
    Invalid,
    Valid,
}

impl Cred {
    /// Classifies a credential value as the emulator convention says.
    pub fn of(value: Option<&str>) -> Cred {
        match value.map(str::trim) {
            None | Some("") => Cred::Missing,
            Some(k) if k == "invalid" || k.starts_with(INVALID_KEY_PREFIX) => Cred::Invalid,
            Some(_) => Cred::Valid,
        }
    }
}

/// An HTTP answer: from a live target, or produced by an offline model.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    pub status: u16,
    /// Headers with lower-case names.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    /// A JSON answer.
    pub fn json(status: u16, body: &Value) -> Self {
        Reply {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: serde_json::to_vec(body).unwrap_or_default(),
        }
    }

    /// A plain-text answer.
    pub fn text(status: u16, body: &str) -> Self {
        Reply {
            status,
            headers: vec![("content-type".into(), "text/plain; charset=utf-8".into())],
            body: body.as_bytes().to_vec(),
        }
    }

    /// Adds a header.
    pub fn with_header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.to_ascii_lowercase(), value.into()));
        self
    }

    /// The first header with this (lower-case) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON, if it is JSON.
    pub fn json_body(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }

    /// The body as text (lossy).
    pub fn text_body(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// True when the body looks like an HTML page (a proxy's or load balancer's error page).
    pub fn is_html(&self) -> bool {
        let ct = self.header("content-type").unwrap_or("");
        if ct.contains("text/html") {
            return true;
        }
        let head = String::from_utf8_lossy(&self.body[..self.body.len().min(256)]).to_lowercase();
        let head = head.trim_start();
        head.starts_with("<!doctype html") || head.starts_with("<html")
    }
}

/// Whether and when to send a request again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// The answer is final.
    No,
    /// Transient (5xx, transport, a 429 without a hint): back off exponentially with jitter.
    Backoff,
    /// The server said when (`Retry-After`, `retry-after-ms`, Google `RetryInfo`).
    After(Duration),
}

/// A route's reading of one answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Classified {
    pub verdict: Verdict,
    pub stage: Stage,
    /// The verbatim error text (the provider's message, not the whole body).
    pub error: Option<String>,
    /// The path the error names, as the provider wrote it.
    pub path: Option<String>,
    pub note: Option<String>,
    pub retry: Retry,
}

impl Classified {
    /// Accepted at `stage`.
    pub fn accepted(stage: Stage) -> Self {
        Classified {
            verdict: Verdict::Accepted,
            stage,
            error: None,
            path: None,
            note: None,
            retry: Retry::No,
        }
    }

    /// Rejected at `stage` with the provider's message and the path it names.
    pub fn rejected(stage: Stage, error: impl Into<String>, path: Option<String>) -> Self {
        Classified {
            verdict: Verdict::Rejected,
            stage,
            error: Some(error.into()),
            path,
            note: None,
            retry: Retry::No,
        }
    }

    /// Inconclusive at `stage`: says nothing about the schema.
    pub fn inconclusive(stage: Stage, error: Option<String>, note: impl Into<String>) -> Self {
        Classified {
            verdict: Verdict::Inconclusive,
            stage,
            error,
            path: None,
            note: Some(note.into()),
            retry: Retry::No,
        }
    }

    /// With a note.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// With a retry hint.
    pub fn retry(mut self, retry: Retry) -> Self {
        self.retry = retry;
        self
    }
}

/// The answers every HTTP target shares once its own rules found nothing to say: auth
/// failures, rate limits, server errors, HTML pages and anything unreadable are inconclusive
/// (never rejected); retries follow `Retry-After`.
pub fn classify_common(reply: &Reply, error: Option<String>) -> Classified {
    let status = reply.status;
    if reply.is_html() {
        return Classified::inconclusive(
            Stage::Transport,
            None,
            format!("HTTP {status} with an HTML page (a proxy or load balancer answered)"),
        )
        .retry(if status >= 500 || status == 429 {
            retry_after(reply).unwrap_or(Retry::Backoff)
        } else {
            Retry::No
        });
    }
    match status {
        401 | 403 | 407 => Classified::inconclusive(
            Stage::Auth,
            error,
            format!("HTTP {status}: credentials refused or missing"),
        ),
        408 => Classified::inconclusive(Stage::Transport, error, "HTTP 408: request timeout")
            .retry(Retry::Backoff),
        429 => Classified::inconclusive(Stage::Quota, error, "HTTP 429: rate limited")
            .retry(retry_after(reply).unwrap_or(Retry::Backoff)),
        500..=599 => Classified::inconclusive(
            Stage::Transport,
            error,
            format!("HTTP {status}: server error"),
        )
        .retry(retry_after(reply).unwrap_or(Retry::Backoff)),
        200..=299 => Classified::inconclusive(
            Stage::Transport,
            error,
            format!("HTTP {status} with a body this target's reader does not recognise"),
        ),
        _ => Classified::inconclusive(
            Stage::Transport,
            error,
            format!("HTTP {status}: not recognised as a schema rejection"),
        ),
    }
}

/// `Retry-After` (seconds or an HTTP date) or Azure's `retry-after-ms`, as the server sent it:
/// not capped here, so that a wait longer than the prober allows is reported as asked (a cap
/// of 600 s made `Retry-After: 99999999999999999999` read "asked to wait 600s").
pub fn retry_after(reply: &Reply) -> Option<Retry> {
    if let Some(ms) = reply
        .header("retry-after-ms")
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
    {
        return Some(Retry::After(wait_secs(ms / 1000.0)));
    }
    let v = reply.header("retry-after")?.trim();
    if let Ok(secs) = v.parse::<f64>()
        && secs.is_finite()
        && secs >= 0.0
    {
        return Some(Retry::After(wait_secs(secs)));
    }
    let when = chrono::DateTime::parse_from_rfc2822(v).ok()?;
    let wait = (when.with_timezone(&chrono::Utc) - chrono::Utc::now())
        .to_std()
        .unwrap_or(Duration::ZERO);
    Some(Retry::After(wait))
}

/// A wait the server asked for, in seconds (finite, not negative), as a [`Duration`]; one past
/// what a `Duration` holds (about 5.8e11 years) is [`Duration::MAX`], which the prober reports
/// as too large to read. `Duration::from_secs_f64` would panic on it (`1e20`).
pub fn wait_secs(secs: f64) -> Duration {
    Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX)
}

/// Reads configuration from the environment (or a map, in tests).
pub trait Env {
    /// The variable's value; empty values count as unset.
    fn var(&self, name: &str) -> Option<String>;
}

/// The process environment.
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.trim().is_empty())
    }
}

impl Env for BTreeMap<String, String> {
    fn var(&self, name: &str) -> Option<String> {
        self.get(name).filter(|v| !v.trim().is_empty()).cloned()
    }
}

/// One route's configuration for a run.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteConfig {
    /// Base URL without a trailing slash, e.g. `https://api.openai.com`.
    pub base_url: String,
    /// The model probed (empty where the route has none).
    pub model: String,
    pub api_version: Option<String>,
    pub credential: Option<Credential>,
    /// Route-specific settings (Vertex project and location, Azure deployment, Bedrock region,
    /// OpenRouter upstream).
    pub extra: BTreeMap<String, String>,
    /// True when `--base-url` or the base-URL variable replaced the default.
    pub base_overridden: bool,
}

impl RouteConfig {
    /// A route-specific setting, or `default`.
    pub fn extra_or(&self, key: &str, default: &str) -> String {
        self.extra
            .get(key)
            .cloned()
            .unwrap_or_else(|| default.to_string())
    }
}

/// What a keyed route does when it has no credential.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyless {
    /// Nothing is sent: `skipped: set VAR`.
    Skip,
    /// Probed without a key: the front end parses before it authenticates, so a parse
    /// rejection is visible and the auth refusal means "parsed" (Gemini).
    Preauth,
    /// Unknown whether the front end parses before it authenticates: one request with a body
    /// that cannot parse finds out; if it is refused at parse, the route is probed pre-auth,
    /// otherwise it is recorded as authenticating first and nothing more is sent.
    Discover,
    /// The route needs no credential (local servers).
    Open,
}

/// A route's documented defaults (README `## Live probing` is generated from these).
#[derive(Debug, Clone)]
pub struct Settings {
    /// Default base URL; empty for local servers that are only probed when configured.
    pub base_url: &'static str,
    /// Variable that overrides the base URL.
    pub base_env: Option<&'static str>,
    /// Default model.
    pub model: &'static str,
    /// Variable that overrides the model.
    pub model_env: Option<&'static str>,
    /// Variables read for the credential, first set wins.
    pub key_env: &'static [&'static str],
    pub api_version: Option<&'static str>,
    pub keyless: Keyless,
    /// The request sent per case, e.g. `POST /v1/messages/count_tokens`.
    pub method: &'static str,
    /// What one probe costs.
    pub cost: &'static str,
}

/// Options for building one wire request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WireOptions {
    /// Override the route's strict setting (the fidelity test replays reports sent strict).
    pub strict: Option<bool>,
    /// The case's feature (its `parameter`, e.g. `keyword-allowed: additionalProperties
    /// (false)`): the route's wire baseline must not add or change what it names.
    pub feature: Option<String>,
    /// Send the tools exactly as given, without the route's wire baseline (replaying a public
    /// report's schema).
    pub raw: bool,
}

impl WireOptions {
    /// The options a probe of `case` is sent with: its feature, and strict mode when the case
    /// asks for it ([`crate::case::Case::strict`]).
    pub fn for_case(case: &crate::case::Case) -> WireOptions {
        WireOptions {
            strict: case.strict.then_some(true),
            feature: Some(case.parameter.clone()),
            raw: false,
        }
    }
}

/// A target route: request building and answer reading. Offline models are [`Service`]s.
pub trait Route: Send + Sync {
    /// The registry id.
    fn id(&self) -> &'static str;
    /// The emulated service that answers this route (the emulator's path prefix).
    fn service(&self) -> &'static str;
    /// Documented defaults.
    fn settings(&self) -> Settings;
    /// The configuration from the environment (base URL, model, credential).
    fn configure(&self, env: &dyn Env) -> RouteConfig {
        default_config(&self.settings(), env)
    }
    /// Variables besides the base-URL one whose values may be private and are written in
    /// requests (Vertex's project id in its path): the run log names them, not their values.
    fn private_env(&self) -> &'static [&'static str] {
        &[]
    }
    /// The variables this route needs besides its key and base URL that `cfg` lacks: the
    /// target is then skipped (`skipped: set VAR`), as it is without its key, rather than
    /// sent a request the provider can only refuse or read as someone else's (Vertex's
    /// project, which a keyed request would otherwise send as `projects/-`).
    fn missing_settings(&self, _cfg: &RouteConfig) -> Vec<&'static str> {
        Vec::new()
    }
    /// The base URL requests go to, from one as written in the base-URL variable or in
    /// `--base-url`: both are read here, so that one value means one thing wherever it was
    /// given (`OPENAI_BASE_URL=…/v1` and `--base-url openai/chat=…/v1` both end before the
    /// `/v1` the route's paths carry).
    fn base_url(&self, written: &str) -> String {
        written.to_string()
    }
    /// The request that makes the target validate `tools`, and nothing more.
    fn request(&self, cfg: &RouteConfig, tools: &[ToolDef], opts: &WireOptions) -> WireRequest;
    /// Reads an answer. `keyless` is true when the request was sent without a credential on
    /// purpose (pre-auth probing).
    fn classify(&self, cfg: &RouteConfig, reply: &Reply, keyless: bool) -> Classified;
    /// For [`Keyless::Discover`]: a request whose body cannot parse.
    fn discovery(&self, _cfg: &RouteConfig) -> Option<WireRequest> {
        None
    }
}

/// An offline model of one provider's HTTP service: a function from a request to the answer
/// that provider gives (status, headers, body), with its exact message templates.
pub trait Service: Send + Sync {
    /// The emulator path prefix, e.g. `gemini`, `openai`.
    fn slug(&self) -> &'static str;
    /// Answers one request.
    fn answer(&self, req: &Incoming) -> Reply;
    /// An error answer with HTTP `status` saying `message`, in the JSON shape this model gives
    /// its request errors (its 400s). The emulator answers with it what no model is asked
    /// about: a body over its size cap (413) and a method a route does not take (405). Only
    /// the shape is the provider's; the status word or type inside it is the one the model
    /// uses for its 400s.
    fn error_reply(&self, status: u16, message: &str) -> Reply;
}

/// The default configuration: base URL from `base_env`, model from `model_env`, key from the
/// first set `key_env`.
pub fn default_config(s: &Settings, env: &dyn Env) -> RouteConfig {
    let base_from_env = s.base_env.and_then(|v| env.var(v));
    RouteConfig {
        base_overridden: base_from_env.is_some(),
        base_url: base_from_env
            .unwrap_or_else(|| s.base_url.to_string())
            .trim_end_matches('/')
            .to_string(),
        model: s
            .model_env
            .and_then(|v| env.var(v))
            .unwrap_or_else(|| s.model.to_string()),
        api_version: s.api_version.map(str::to_string),
        credential: s
            .key_env
            .iter()
            .find_map(|v| env.var(v))
            .map(|k| Credential::Key(Secret::new(k))),
        extra: BTreeMap::new(),
    }
}

/// Deepest JSON nesting a model parses (real providers take schemas 100 levels deep, which
/// is about 200 JSON levels; this bound keeps the recursive parser's stack small).
pub const MAX_BODY_NESTING: usize = 1024;

/// The JSON body of a request as a model reads it, with serde_json's default 128-level
/// recursion limit lifted (after a non-recursive nesting check).
pub fn parse_json(body: &[u8]) -> Result<Value, serde_json::Error> {
    use serde::Deserialize;
    use serde::de::Error as _;
    if crate::json::nesting_exceeds(body, MAX_BODY_NESTING).is_some() {
        return Err(serde_json::Error::custom(format!(
            "nesting deeper than {MAX_BODY_NESTING} levels"
        )));
    }
    let mut de = serde_json::Deserializer::from_slice(body);
    de.disable_recursion_limit();
    let v = Value::deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// [`parse_json`] with the error as text.
pub fn parse_body(body: &[u8]) -> Result<Value, String> {
    parse_json(body).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_forms() {
        let r = Reply::text(429, "").with_header("retry-after", "2");
        assert_eq!(retry_after(&r), Some(Retry::After(Duration::from_secs(2))));
        let r = Reply::text(429, "").with_header("retry-after-ms", "1500");
        assert_eq!(
            retry_after(&r),
            Some(Retry::After(Duration::from_millis(1500)))
        );
        let r = Reply::text(429, "").with_header("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT");
        assert_eq!(retry_after(&r), Some(Retry::After(Duration::ZERO)));
        // Long waits are kept as sent, for the prober to report; past what a Duration holds,
        // the largest one, never a panic.
        let r = Reply::text(429, "").with_header("retry-after", "99999");
        assert_eq!(
            retry_after(&r),
            Some(Retry::After(Duration::from_secs(99999)))
        );
        for (header, value) in [
            ("retry-after", "1e20"),
            ("retry-after", "99999999999999999999"),
            ("retry-after-ms", "1e300"),
        ] {
            let r = Reply::text(429, "").with_header(header, value);
            assert_eq!(
                retry_after(&r),
                Some(Retry::After(Duration::MAX)),
                "{header}: {value}"
            );
        }
        assert_eq!(retry_after(&Reply::text(429, "")), None);
    }

    #[test]
    fn common_answers_are_never_rejections() {
        for status in [200, 400, 401, 403, 404, 408, 422, 429, 500, 502, 503] {
            let c = classify_common(&Reply::text(status, "x"), None);
            assert_ne!(c.verdict, Verdict::Rejected, "{status}");
        }
        let html = Reply::text(502, "<!DOCTYPE html><html>Bad gateway</html>");
        let c = classify_common(&html, None);
        assert_eq!(c.verdict, Verdict::Inconclusive);
        assert_eq!(c.retry, Retry::Backoff);
    }

    #[test]
    fn incoming_parses_query_and_bearer() {
        let i = Incoming::new(
            "post",
            "/v1/x?key=a%20b&alt=sse",
            vec![("Authorization".into(), "Bearer tok".into())],
            vec![],
        );
        assert_eq!(i.query("key"), Some("a b"));
        assert_eq!(i.query("alt"), Some("sse"));
        assert_eq!(i.bearer(), Some("tok"));
        assert_eq!(Cred::of(i.bearer()), Cred::Valid);
        assert_eq!(Cred::of(Some("invalid")), Cred::Invalid);
        assert_eq!(Cred::of(Some("tw-invalid-key-1")), Cred::Invalid);
        assert_eq!(Cred::of(Some("tw-valid-key-1")), Cred::Valid);
        assert_eq!(Cred::of(None), Cred::Missing);
    }

    /// A query is decoded as a form (`+` is a space); an escape is two hex digits, and one
    /// cut by a multi-byte character is kept as written (slicing it by bytes panicked).
    #[test]
    fn incoming_decodes_only_whole_escapes() {
        let i = Incoming::new("get", "/x?a=%+5&b=%a\u{e9}&c=1+2&d=%zz", vec![], vec![]);
        assert_eq!(i.query("a"), Some("% 5"));
        assert_eq!(i.query("b"), Some("%a\u{e9}"));
        assert_eq!(i.query("c"), Some("1 2"));
        assert_eq!(i.query("d"), Some("%zz"));
    }
}
