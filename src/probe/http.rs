//! The HTTP [`ProbeTarget`]: one live route, probed politely.
//!
//! - one shared `reqwest` client (rustls, connection reuse, no redirects: a redirect could carry
//!   a key to another host);
//! - per-target concurrency (the runner's `buffer_unordered`) and a per-target rate limit
//!   (minimum spacing between request starts);
//! - retries with exponential backoff and full jitter for transport errors, 5xx and 429,
//!   honouring `Retry-After`/`retry-after-ms` and Google's `RetryInfo` (the route's reader turns
//!   them into [`Retry::After`]); a wait longer than `max_wait` is not made: the answer stays
//!   inconclusive;
//! - a per-request timeout and a per-run request budget shared by all targets;
//! - keys: only attached to requests for the configured base URL, which must be https unless it
//!   is a loopback address ([`check_key_destination`]); they never appear in an [`Answer`]
//!   (headers are built from [`crate::target::Secret`] at the last moment and marked
//!   sensitive);
//! - proxies: only an https proxy, only for https requests to non-loopback hosts (a tunnel
//!   the proxy cannot read); plain http (loopback only when keyed) always goes direct
//!   ([`client`]);
//! - settings pasted into URLs (base URLs, model ids, regions, project ids) and keys are
//!   checked before anything is sent ([`check_base_url`], [`check_model`], [`check_region`],
//!   [`check_project`], [`check_key`]);
//! - credentials written into a base URL (`http://user:password@host`) are refused, never
//!   sent (reqwest would send them as Basic auth beside the route's own key) nor recorded
//!   ([`check_no_userinfo`]).
//!
//! An answer from `toolwire emulate` carries the `x-toolwire-emulator` header; such answers
//! are noted as emulated on every observation (they are never evidence).

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use reqwest::header::HeaderName;

use crate::case::Case;
use crate::error::{Error, Result};
use crate::evidence::runlog::{TargetRecord, has_userinfo, redact_userinfo};
use crate::evidence::{Stage, Verdict};
use crate::target::wire::{AuthPlacement, Classified, Keyless, Reply, Retry, Route, RouteConfig};
use crate::target::{Credential, WireOptions, WireRequest};

use super::{Answer, BoxFuture, ProbeTarget};

/// Header every emulator answer carries.
pub const EMULATOR_HEADER: &str = "x-toolwire-emulator";

/// How the note of every observation of a target served by `toolwire emulate` begins.
pub const EMULATED_NOTE: &str = "emulated answer (toolwire emulate; not evidence)";

/// How the note of every observation of a stand-in begins: a hosted target whose base URL,
/// from `--base-url` or a variable such as `OPENAI_BASE_URL`, is not the provider's own host
/// ([`is_stand_in`]). The log may write that URL as `{OPENAI_BASE_URL}` (a private setting),
/// so without the note only the header's `emulated` flag would tell such answers from the
/// provider's (trial 87 D3).
pub const STAND_IN_NOTE: &str =
    "stand-in answer (base URL not the provider's own host; not evidence)";

/// `note` beginning with [`EMULATED_NOTE`] (once: a note that already does is kept).
pub fn emulated_note(note: Option<&str>) -> String {
    noted(EMULATED_NOTE, note)
}

/// `note` beginning with `mark` ([`EMULATED_NOTE`] or [`STAND_IN_NOTE`]; once: a note that
/// already does is kept).
pub fn noted(mark: &str, note: Option<&str>) -> String {
    match note {
        Some(n) if n.starts_with(mark) => n.to_string(),
        Some(n) => format!("{mark}; {n}"),
        None => mark.to_string(),
    }
}

/// The mark an observation's note begins with when its answer is not evidence
/// ([`EMULATED_NOTE`] or [`STAND_IN_NOTE`]), `None` for any other note.
pub fn not_evidence_mark(note: Option<&str>) -> Option<&'static str> {
    let note = note?;
    [EMULATED_NOTE, STAND_IN_NOTE]
        .into_iter()
        .find(|m| note.starts_with(m))
}

/// Whether `route` configured as `cfg` is a stand-in: a hosted target (one that needs a
/// credential; the local servers are probed on this machine by design) whose base URL was
/// replaced, by `--base-url` or a variable, with one that is not the provider's own
/// ([`is_providers_own`]). Whatever answers there (a mock, a relay, a gateway) answers in the
/// provider's stead.
pub fn is_stand_in(route: &dyn Route, cfg: &RouteConfig) -> bool {
    !matches!(route.settings().keyless, Keyless::Open)
        && cfg.base_overridden
        && !cfg.base_url.is_empty()
        && !is_providers_own(route, &cfg.base_url)
}

/// Response headers the answer readers look at.
const KEPT_HEADERS: [HeaderName; 5] = [
    HeaderName::from_static("content-type"),
    HeaderName::from_static("retry-after"),
    HeaderName::from_static("retry-after-ms"),
    HeaderName::from_static("x-amzn-errortype"),
    HeaderName::from_static(EMULATOR_HEADER),
];

/// Largest answer body read, in bytes (a longer body is cut and counts as unreadable).
pub const MAX_BODY: usize = 4 * 1024 * 1024;

/// Politeness settings of one target.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Whole-request timeout.
    pub timeout: Duration,
    /// Retries after the first attempt.
    pub retries: u32,
    /// First backoff step (doubled each retry, full jitter).
    pub backoff_base: Duration,
    /// Largest backoff step.
    pub backoff_cap: Duration,
    /// Longest `Retry-After` honoured; a longer one ends the probe inconclusive.
    pub max_wait: Duration,
    /// Probes in flight at once (1 to [`MAX_CONCURRENCY`]; a value outside is clamped).
    pub concurrency: usize,
    /// Request starts per second (`None`: unlimited).
    pub rate: Option<f64>,
}

impl HttpOptions {
    /// Conservative defaults for a remote provider: 2 in flight, 2 requests/s, 30 s timeout,
    /// 3 retries from 0.5 s, honouring waits up to 2 minutes.
    pub fn remote() -> Self {
        HttpOptions {
            timeout: Duration::from_secs(30),
            retries: 3,
            backoff_base: Duration::from_millis(500),
            backoff_cap: Duration::from_secs(30),
            max_wait: Duration::from_secs(120),
            concurrency: 2,
            rate: Some(2.0),
        }
    }

    /// Defaults for a loopback server (a local engine or the emulator): 4 in flight, no rate
    /// limit, short backoff. Four per target is polite to local model servers (which run a few
    /// requests in parallel) and, with the whole catalog against every emulated target, was
    /// both faster and cheaper than 16: 0.53–0.60 s and 38–40 µs of prober CPU per request
    /// against 0.72 s and 51–53 µs (`cargo bench --bench prober`, 2026-11-30, 2 cores).
    pub fn loopback() -> Self {
        HttpOptions {
            timeout: Duration::from_secs(30),
            retries: 3,
            backoff_base: Duration::from_millis(50),
            backoff_cap: Duration::from_secs(2),
            max_wait: Duration::from_secs(10),
            concurrency: 4,
            rate: None,
        }
    }

    /// The defaults for a base URL.
    pub fn for_base(base: &str) -> Self {
        if is_loopback(base) {
            Self::loopback()
        } else {
            Self::remote()
        }
    }
}

/// A request budget shared by every target of a run.
#[derive(Debug)]
pub struct Budget {
    left: AtomicUsize,
    spent: AtomicUsize,
    refused: AtomicUsize,
}

impl Budget {
    /// `None`: unlimited.
    pub fn new(limit: Option<usize>) -> Arc<Self> {
        Arc::new(Budget {
            left: AtomicUsize::new(limit.unwrap_or(usize::MAX)),
            spent: AtomicUsize::new(0),
            refused: AtomicUsize::new(0),
        })
    }

    /// Takes one request from the budget; false when it is spent.
    pub fn take(&self) -> bool {
        let ok = self
            .left
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
            .is_ok();
        if ok {
            self.spent.fetch_add(1, Ordering::AcqRel);
        } else {
            self.refused.fetch_add(1, Ordering::AcqRel);
        }
        ok
    }

    /// Requests taken so far.
    pub fn spent(&self) -> usize {
        self.spent.load(Ordering::Acquire)
    }

    /// Requests refused so far because the budget was spent: each ends its probe `skipped`
    /// (a probe asks again only to retry, and a refused retry ends it), so this counts the
    /// probes the budget stopped, which the run's summary names with the flag to raise.
    pub fn refused(&self) -> usize {
        self.refused.load(Ordering::Acquire)
    }
}

/// Minimum spacing between request starts.
struct Limiter {
    interval: Option<Duration>,
    next: tokio::sync::Mutex<Instant>,
}

impl Limiter {
    fn new(rate: Option<f64>) -> Self {
        Limiter {
            interval: rate
                .filter(|r| r.is_finite() && *r > 0.0)
                .map(|r| Duration::from_secs_f64(1.0 / r)),
            next: tokio::sync::Mutex::new(Instant::now()),
        }
    }

    async fn wait(&self) {
        let Some(interval) = self.interval else {
            return;
        };
        let slot = {
            let mut next = self.next.lock().await;
            let now = Instant::now();
            let slot = (*next).max(now);
            *next = slot + interval;
            slot
        };
        tokio::time::sleep_until(slot.into()).await;
    }
}

/// The HTTP client every target shares: rustls, pooled connections, no redirects, and no
/// retries of its own: every retry is the prober's, counted against the budget and spaced by
/// its backoff (reqwest's default would silently resend on HTTP/2 refusals, cloning every
/// request's headers in case it has to).
///
/// Proxies ([`proxy_for`]): the proxy variables are read from the process environment, but
/// only an https proxy setting (`HTTPS_PROXY`, `https_proxy`, `ALL_PROXY`, `all_proxy`, with
/// `NO_PROXY`) is used, and only for https requests to non-loopback hosts, where the proxy
/// sees a `CONNECT` tunnel and never the request or its key. `HTTP_PROXY` is ignored: a
/// plain-http request (allowed only to loopback hosts when it carries a key) always goes
/// direct, so a key never reaches a proxy in clear text, and a loopback target is never
/// answered by something else.
pub fn client(timeout: Duration) -> Result<reqwest::Client> {
    client_with_env(timeout, &|name| {
        std::env::var(name).ok().filter(|v| !v.trim().is_empty())
    })
}

/// [`client`] with the proxy variables read from `env` (tests pass a map).
pub fn client_with_env(
    timeout: Duration,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<reqwest::Client> {
    let mut b = reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .retry(reqwest::retry::never().max_retries_per_request(0))
        .timeout(timeout)
        .connect_timeout(timeout.min(Duration::from_secs(10)))
        .tcp_nodelay(true)
        .user_agent(concat!("toolwire/", env!("CARGO_PKG_VERSION")));
    if let Some(proxy) = ["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"]
        .iter()
        .find_map(|v| env(v))
    {
        // As curl and reqwest read it, a proxy without a scheme is an http proxy.
        let proxy = if proxy.contains("://") {
            proxy
        } else {
            format!("http://{proxy}")
        };
        let proxy = reqwest::Url::parse(&proxy).map_err(|e| {
            Error::Usage(format!(
                "the https proxy variable ({}) is not a URL: {e}",
                shown_url(&proxy)
            ))
        })?;
        // Without the client's SOCKS support another scheme would fail every request later,
        // each as an unreachable target: refuse it before anything is sent.
        if !matches!(proxy.scheme(), "http" | "https") {
            return Err(Error::Usage(format!(
                "the https proxy variable ({}) has scheme `{}`: only http:// and https:// proxies are supported",
                shown_url(proxy.as_str()),
                proxy.scheme()
            )));
        }
        let no_proxy = env("NO_PROXY")
            .or_else(|| env("no_proxy"))
            .and_then(|v| reqwest::NoProxy::from_string(&v));
        b = b.proxy(
            reqwest::Proxy::custom(move |url| proxy_for(url).then(|| proxy.clone()))
                .no_proxy(no_proxy),
        );
    }
    b.build()
        .map_err(|e| Error::Other(format!("cannot build the HTTP client: {e}")))
}

/// Whether a request to `url` may go through the configured https proxy: only https to a
/// host that is not loopback (the proxy then relays a TLS tunnel it cannot read).
pub fn proxy_for(url: &reqwest::Url) -> bool {
    url.scheme() == "https" && !is_loopback(url.as_str())
}

/// Scheme and host of a base URL (lower-cased host, without port).
fn scheme_host(base: &str) -> Option<(String, String)> {
    let (scheme, rest) = base.split_once("://")?;
    let authority = rest.split('/').next().unwrap_or("");
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']').next().unwrap_or("").to_string()
    } else {
        authority.split(':').next().unwrap_or("").to_string()
    };
    Some((scheme.to_ascii_lowercase(), host.to_ascii_lowercase()))
}

/// True for `localhost`, `127.0.0.0/8` and `::1`.
pub fn is_loopback(base: &str) -> bool {
    let Some((_, host)) = scheme_host(base) else {
        return false;
    };
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether `base` is the provider's own endpoint for `route`: https to the route's default
/// host, or to one of the provider's per-resource or per-region hosts (an Azure resource, a
/// Vertex location, a Bedrock region). Anything else (a proxy, a gateway, a mock, a relay)
/// answers in the provider's stead, and its answers are not the provider's.
pub fn is_providers_own(route: &dyn Route, base: &str) -> bool {
    let Some((scheme, host)) = scheme_host(base) else {
        return false;
    };
    if scheme != "https" {
        return false;
    }
    if scheme_host(route.settings().base_url).is_some_and(|(_, h)| h == host) {
        return true;
    }
    match route.id() {
        "azure-openai/chat" => [
            ".openai.azure.com",
            ".cognitiveservices.azure.com",
            ".services.ai.azure.com",
        ]
        .iter()
        .any(|s| host.ends_with(s)),
        "vertex/v1/parameters" => {
            host == "aiplatform.googleapis.com" || host.ends_with("-aiplatform.googleapis.com")
        }
        "bedrock/converse" => {
            host.starts_with("bedrock-runtime.") && host.ends_with(".amazonaws.com")
        }
        _ => false,
    }
}

/// Refuses a credential for a base URL that is not https (loopback excepted). `vars` names
/// the variables the key came from, for the error message (the key itself never appears,
/// nor the URL's userinfo or query: [`shown_url`]).
pub fn check_key_destination(id: &str, base: &str, vars: &str) -> Result<()> {
    let shown = shown_url(base);
    let Some((scheme, _)) = scheme_host(base) else {
        return Err(Error::Usage(format!(
            "{id}: base URL {shown:?} is not an absolute URL"
        )));
    };
    if scheme == "https" || (scheme == "http" && is_loopback(base)) {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{id}: refusing to send {vars} to {shown}: keys are only sent over https (or to a loopback address)"
    )))
}

/// Why a base URL that carries userinfo (`http://user:password@host/v1`) is refused, after
/// the place that named it: toolwire takes a target's credential only from its key
/// variables (`vars`, [`key_hint`]; empty for a route that takes none), never from a URL.
/// Refusing is the less surprising choice: the routes' credentials are API keys sent as
/// their own header (`authorization: Bearer`, `x-api-key`, ...), so the userinfo could only
/// go as HTTP Basic auth (what reqwest does with it) beside or instead of that key, which no
/// target documents. The URL in the message is masked ([`shown_url`]).
pub fn userinfo_problem(vars: &str) -> String {
    let fix = if vars.is_empty() {
        "remove them from the URL (this target takes no key)".to_string()
    } else {
        format!("put the key in {vars} and remove them from the URL")
    };
    format!(
        "the URL carries credentials (`user:password@` before the host), which toolwire \
         neither sends nor records: {fix}"
    )
}

/// Refuses `base` when it carries userinfo ([`userinfo_problem`]): a usage error that
/// starts with `place`, the text before the (masked) URL saying where it was set (e.g.
/// `openai/chat: OPENAI_BASE_URL=`, `--base-url openai/chat=`); `vars` are the route's key
/// variables.
pub fn check_no_userinfo(place: &str, base: &str, vars: &str) -> Result<()> {
    if !has_userinfo(base) {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{place}{}: {}",
        shown_url(base),
        userinfo_problem(vars)
    )))
}

/// Checks a base URL before anything is sent: an absolute `http://` or `https://` URL with a
/// host, and no query or fragment (the route's path is appended to it). The error starts
/// with `place`, the text before the (masked) URL saying where it was set (e.g.
/// `openai/chat: OPENAI_BASE_URL=`, `--base-url openai/chat=`), the same form for a flag
/// and a variable.
pub fn check_base_url(place: &str, base: &str) -> Result<()> {
    let shown = shown_url(base);
    let bad = |why: &str| Err(Error::Usage(format!("{place}{shown}: {why}")));
    let url = match http_url(base) {
        Ok(u) => u,
        Err(HttpUrlProblem::NotHttp) => return bad("expected an http:// or https:// URL"),
        Err(HttpUrlProblem::Whitespace) => {
            return bad(
                "expected an http:// or https:// URL (it holds whitespace or a control character)",
            );
        }
        // The key would go to whatever the url crate took for the host (`https:///v1`: `v1`).
        Err(HttpUrlProblem::NoHost) => {
            return bad("expected an http:// or https:// URL with a host (none before the path)");
        }
        Err(HttpUrlProblem::Unreadable(e)) => {
            return bad(&format!("expected an http:// or https:// URL ({e})"));
        }
    };
    if url.query().is_some() || url.fragment().is_some() || base.contains(['?', '#']) {
        return bad(
            "a base URL may not hold a query or fragment (`?`, `#`): the route's path is appended to it",
        );
    }
    Ok(())
}

/// Why a text is no absolute http(s) URL with a host ([`http_url`]).
#[derive(Debug)]
pub enum HttpUrlProblem {
    /// It does not start `http://` or `https://` (in any case).
    NotHttp,
    /// It holds whitespace or a control character, which the url crate would percent-encode
    /// in a path rather than refuse.
    Whitespace,
    /// No host before the path: `https://`, or `https:///issues/1`, which the url crate alone
    /// reads as the host `issues` (it skips extra slashes after an http(s) scheme).
    NoHost,
    /// The url crate's own refusal.
    Unreadable(<reqwest::Url as std::str::FromStr>::Err),
}

/// `url` parsed by the url crate (reqwest's re-export) when it is an absolute `http://` or
/// `https://` URL with a host, with the two checks the crate alone would read past
/// ([`HttpUrlProblem`]). Shared by base URLs ([`check_base_url`]) and the pages documented
/// evidence cites.
pub fn http_url(url: &str) -> std::result::Result<reqwest::Url, HttpUrlProblem> {
    let scheme_len = ["http://", "https://"]
        .into_iter()
        .find(|s| {
            url.get(..s.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(s))
        })
        .ok_or(HttpUrlProblem::NotHttp)?
        .len();
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(HttpUrlProblem::Whitespace);
    }
    let rest = &url[scheme_len..];
    if rest.is_empty() || rest.starts_with(['/', '\\']) {
        return Err(HttpUrlProblem::NoHost);
    }
    match reqwest::Url::parse(url) {
        Err(e) => Err(HttpUrlProblem::Unreadable(e)),
        Ok(u) if u.host_str().is_none_or(str::is_empty) => Err(HttpUrlProblem::NoHost),
        Ok(u) => Ok(u),
    }
}

/// A base URL (or a value given for one) as a message may show it: userinfo masked,
/// key-shaped strings redacted, and nothing from the first `?`, `#`, whitespace or control
/// character on (a query such as Google's `?key=` is where a user pastes a key; what follows
/// a space is not the URL's). Every message that quotes a base URL goes through it: a
/// message whose text differs from the secret (`https://***@host/v1?key=…`) escapes the CI
/// log's masking of secrets, and lands in uploaded output.
pub fn shown_url(base: &str) -> String {
    // The userinfo is masked before the cut, and up to the last `@` before the first `/`
    // after the scheme: a password holding a raw `?` or `#` (`user:pa#ss@host`) would
    // otherwise be cut in two and its first part shown.
    let start = base.find("://").map_or(0, |i| i + 3);
    let authority_end = base[start..].find('/').map_or(base.len(), |i| start + i);
    let masked = match base[start..authority_end].rfind('@') {
        Some(at) => Cow::Owned(format!(
            "{}{}{}",
            &base[..start],
            crate::evidence::runlog::USERINFO_MASK,
            &base[start + at..]
        )),
        None => Cow::Borrowed(base),
    };
    let end = masked
        .find(|c: char| c == '?' || c == '#' || c.is_whitespace() || c.is_control())
        .unwrap_or(masked.len());
    let head = crate::evidence::runlog::Redactor::new(Vec::new())
        .redact(&redact_userinfo(&masked[..end]))
        .into_owned();
    if end < masked.len() {
        format!("{head}… (the rest not shown)")
    } else {
        head
    }
}

/// Checks a model id (or deployment name) before it goes into a request: 1 to 256 of the
/// characters providers' model ids use (ASCII letters and digits, `.`, `_`, `-`, `:`, `/`,
/// `@`, `+`), starting with a letter or digit, and no `..` (which would climb out of the
/// route's path: `gemini` and `vertex` put the model in the URL path). `place` names where
/// it was set (e.g. `--model gemini/v1beta/parameters=`).
pub fn check_model(place: &str, model: &str) -> Result<()> {
    let ok_char =
        |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | ':' | '/' | '@' | '+');
    let ok = !model.is_empty()
        && model.len() <= 256
        && model.starts_with(|c: char| c.is_ascii_alphanumeric())
        && model.chars().all(ok_char)
        && !model.contains("..")
        && !model.contains("//");
    if ok {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{place}{model:?}: not a model id (expected letters, digits and `._-:/@+`, starting with \
         a letter or digit, without `..`, `//`, `?`, `#`, whitespace or control characters)"
    )))
}

/// Checks a setting pasted into a host name or path segment (Vertex's location, Bedrock's
/// region): lower-case letters, digits and `-`, 1 to 63 characters (a DNS label), so that
/// it can only name a region of the provider's own domain.
pub fn check_region(place: &str, value: &str) -> Result<()> {
    let ok = !value.is_empty()
        && value.len() <= 63
        && value
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if ok {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{place}{value:?}: expected a region name (lower-case letters, digits and `-`, e.g. `us-central1`)"
    )))
}

/// Checks a Google Cloud project id pasted into Vertex's path: Google's pattern (6 to 30
/// lower-case letters, digits and hyphens, starting with a letter, not ending with a hyphen;
/// cloud.google.com/resource-manager/docs/creating-managing-projects), optionally after a
/// domain prefix (`example.com:`), or the wildcard `-`.
pub fn check_project(place: &str, value: &str) -> Result<()> {
    static PROJECT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^(?:[a-z0-9][a-z0-9.\-]{0,61}[a-z0-9]:)?[a-z][a-z0-9\-]{4,28}[a-z0-9]$")
            .expect("static pattern")
    });
    if value == "-" || PROJECT.is_match(value) {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{place}{value:?}: not a Google Cloud project id (6 to 30 lower-case letters, digits \
         and hyphens, starting with a letter)"
    )))
}

/// Checks a credential read from `var` before it is used: it must be able to go in an HTTP
/// header as it is (visible ASCII, no whitespace or control characters: a key with a newline
/// would otherwise be dropped and the request sent without it), and be credible as a secret
/// (at least 8 characters, and not a plain word: the run log's redactor removes the key
/// wherever it appears in a provider's text, so a key such as `invalid` would blank ordinary
/// words out of the evidence). The key itself is never shown.
pub fn check_key(place: &str, var: &str, key: &str) -> Result<()> {
    if !key.chars().all(|c| c.is_ascii_graphic()) {
        return Err(Error::Usage(format!(
            "{place}{var} holds a character that cannot go in an HTTP header (whitespace such \
             as a newline, a control or a non-ASCII character): fix the variable; nothing was sent"
        )));
    }
    let plain_word = key.chars().all(|c| c.is_ascii_alphabetic());
    if key.len() < 8 || plain_word {
        return Err(Error::Usage(format!(
            "{place}{var} is too short or a plain word to be a credible key (at least 8 \
             characters, not only letters): the run log's redactor would blank it out of \
             ordinary text; use a distinctive key (for toolwire emulate, e.g. `tw-emulator-key-1`)"
        )));
    }
    Ok(())
}

#[derive(Debug, Clone)]
enum Discovery {
    /// The front end parsed before it authenticated: probe pre-auth.
    ParseFirst,
    /// It authenticated first (or the discovery got no readable answer): nothing more is sent.
    Stop(Answer),
}

/// One live route as a probe target.
pub struct HttpTarget {
    route: Box<dyn Route>,
    cfg: RouteConfig,
    client: reqwest::Client,
    opts: HttpOptions,
    budget: Arc<Budget>,
    limiter: Limiter,
    discovery: tokio::sync::OnceCell<(Discovery, usize)>,
    discovery_counted: AtomicBool,
    emulated: AtomicBool,
    /// Requests sent outside a probe ([`HttpTarget::ask_emulator`]) and not yet counted: the
    /// next answer counts them, so that the run's total is what went on the wire.
    uncounted: AtomicUsize,
    endpoint: String,
    /// The last request URL and its parse: a route sends every case to the same URL, so it
    /// is parsed once rather than per request.
    parsed_url: std::sync::Mutex<Option<(String, reqwest::Url)>>,
    /// [`is_stand_in`]: every answer is noted [`STAND_IN_NOTE`].
    stand_in: bool,
}

impl HttpTarget {
    /// A target for `route` with `cfg`. Errors when a credential would go over plain http to a
    /// non-loopback host, or when the base URL carries userinfo ([`check_no_userinfo`]).
    pub fn new(
        route: Box<dyn Route>,
        cfg: RouteConfig,
        client: reqwest::Client,
        opts: HttpOptions,
        budget: Arc<Budget>,
    ) -> Result<Self> {
        check_no_userinfo(
            &format!("{}: base URL ", route.id()),
            &cfg.base_url,
            &key_hint(route.as_ref()),
        )?;
        if cfg.credential.is_some() && !cfg.base_url.is_empty() {
            check_key_destination(route.id(), &cfg.base_url, &key_hint(route.as_ref()))?;
        }
        // A hosted provider is reached over https even without a key (Gemini's pre-auth
        // probe): plain http to another host could be read or answered by anything on the
        // way. Loopback is a stand-in on this machine; the local servers are exempt.
        if !matches!(route.settings().keyless, Keyless::Open)
            && scheme_host(&cfg.base_url).is_some_and(|(s, _)| s == "http")
            && !is_loopback(&cfg.base_url)
        {
            return Err(Error::Usage(format!(
                "{}: refusing plain http to {}: a hosted provider is reached over https (plain \
                 http only to a loopback address)",
                route.id(),
                shown_url(&cfg.base_url)
            )));
        }
        // A key that cannot be a header value would be dropped from the request, which would
        // then go out without it and its answer be recorded (the CLI names the variable
        // earlier: `check_key`).
        if let Some(c) = &cfg.credential
            && c.secrets()
                .iter()
                .any(|k| !k.chars().all(|c| c.is_ascii_graphic()))
        {
            return Err(Error::Usage(format!(
                "{}: {} holds a character that cannot go in an HTTP header; nothing was sent",
                route.id(),
                key_hint(route.as_ref())
            )));
        }
        let probe_path = route
            .request(&cfg, &[crate::case::baseline()], &WireOptions::default())
            .path;
        // Masked although such a URL is refused above: the endpoint is written to run logs.
        let endpoint = redact_userinfo(&format!(
            "{}{}",
            cfg.base_url,
            probe_path.split('?').next().unwrap_or("")
        ))
        .into_owned();
        let stand_in = is_stand_in(route.as_ref(), &cfg);
        Ok(HttpTarget {
            stand_in,
            limiter: Limiter::new(opts.rate),
            route,
            cfg,
            client,
            opts,
            budget,
            discovery: tokio::sync::OnceCell::new(),
            discovery_counted: AtomicBool::new(false),
            emulated: AtomicBool::new(false),
            uncounted: AtomicUsize::new(0),
            endpoint,
            parsed_url: std::sync::Mutex::new(None),
        })
    }

    /// The route's configuration (credentials print redacted).
    pub fn config(&self) -> &RouteConfig {
        &self.cfg
    }

    /// True once an answer came from `toolwire emulate`, or once [`HttpTarget::mark_emulator`]
    /// said its base URL is served by it.
    pub fn saw_emulator(&self) -> bool {
        self.emulated.load(Ordering::Acquire)
    }

    /// Marks this target as served by `toolwire emulate` (its base URL answered
    /// [`crate::emulate::is_emulator`]) before anything is sent: a request that fails before
    /// any answer (a reset, a cut-short body) is then noted as emulated too (trial 51 D6: the
    /// transport failures of an emulated run lacked the note).
    pub fn mark_emulator(&self) {
        self.emulated.store(true, Ordering::Release);
    }

    /// Asks this target's base URL whether `toolwire emulate` serves it
    /// ([`crate::emulate::is_emulator`], no key sent) and marks it when it does
    /// ([`HttpTarget::mark_emulator`]). The question is a request like any other (trial 56 D2:
    /// it went out past `--max-requests` and uncounted): it takes one from the run's budget,
    /// keeps the target's rate, and is counted in the target's first answer. False, with
    /// nothing sent, when the budget is spent.
    pub async fn ask_emulator(&self) -> bool {
        if !self.budget.take() {
            return false;
        }
        self.limiter.wait().await;
        self.uncounted.fetch_add(1, Ordering::AcqRel);
        let served = crate::emulate::is_emulator(&self.client, &self.cfg.base_url).await;
        if served {
            self.mark_emulator();
        }
        served
    }

    /// `url` parsed, from the cache when it is the URL parsed last. `None` when it does not
    /// parse (reqwest then reports the bad URL itself).
    fn parsed(&self, url: &str) -> Option<reqwest::Url> {
        let mut cache = self.parsed_url.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((text, parsed)) = cache.as_ref()
            && text == url
        {
            return Some(parsed.clone());
        }
        let parsed = reqwest::Url::parse(url).ok()?;
        *cache = Some((url.to_string(), parsed.clone()));
        Some(parsed)
    }

    fn keyless(&self) -> bool {
        self.cfg.credential.is_none()
    }

    async fn discover(&self) -> (Discovery, usize) {
        let Some(req) = self.route.discovery(&self.cfg) else {
            return (Discovery::ParseFirst, 0);
        };
        let (c, status, sent) = self.send(&req, true).await;
        // Any parse refusal shows the body was parsed before the caller was checked; the
        // discovery body's is outside the tool block (an unknown root name), so it reads as
        // inconclusive about the schema, not as a rejection.
        if matches!(c.verdict, Verdict::Rejected | Verdict::Inconclusive) && c.stage == Stage::Parse
        {
            return (Discovery::ParseFirst, sent);
        }
        let verdict = match c.verdict {
            Verdict::Unreachable => Verdict::Unreachable,
            Verdict::Skipped => Verdict::Skipped,
            _ => Verdict::Inconclusive,
        };
        let note = if c.stage == Stage::Auth || matches!(status, Some(401 | 403)) {
            format!(
                "no credentials: a body that cannot parse was answered HTTP {} (not a parse error), so this route authenticates before it parses; set {} to probe it",
                status.map(|s| s.to_string()).unwrap_or_default(),
                key_hint(self.route.as_ref())
            )
        } else {
            format!(
                "no credentials: the pre-auth discovery got no readable answer ({}); set {} to probe it",
                c.note.clone().unwrap_or_default(),
                key_hint(self.route.as_ref())
            )
        };
        let answer = Answer {
            verdict,
            stage: c.stage,
            status,
            error: c.error,
            path: None,
            note: Some(note),
            model: None,
            request_body: req.body.clone(),
            requests: 0,
        };
        (Discovery::Stop(answer), sent)
    }

    /// Sends `req` with retries; returns the classification, the last status and how many
    /// requests went out.
    async fn send(&self, req: &WireRequest, keyless: bool) -> (Classified, Option<u16>, usize) {
        let url = format!("{}{}", self.cfg.base_url, req.path);
        let mut attempt: u32 = 0;
        let mut sent = 0usize;
        let mut status = None;
        loop {
            if !self.budget.take() {
                let c = Classified {
                    verdict: Verdict::Skipped,
                    stage: Stage::Transport,
                    error: None,
                    path: None,
                    note: Some("not sent: the run's request budget is spent".into()),
                    retry: Retry::No,
                };
                return (c, status, sent);
            }
            self.limiter.wait().await;
            sent += 1;
            let c = match self.send_once(req, &url, keyless).await {
                Ok(reply) => {
                    status = Some(reply.status);
                    let emulated = reply.header(EMULATOR_HEADER).is_some();
                    if emulated {
                        self.emulated.store(true, Ordering::Release);
                    }
                    self.route.classify(&self.cfg, &reply, keyless)
                }
                Err(e) => transport_error(&e, self.opts.timeout),
            };
            let wait = match c.retry {
                Retry::No => return (c, status, sent),
                Retry::Backoff => backoff(&self.opts, attempt),
                Retry::After(d) if d > self.opts.max_wait => {
                    let note = format!(
                        "{}; {}",
                        c.note.clone().unwrap_or_default(),
                        wait_refused(d, self.opts.max_wait)
                    );
                    return (c.note(note), status, sent);
                }
                // Saturating: a library caller's `max_wait` may be as long as a Duration.
                Retry::After(d) => d.saturating_add(jitter(d / 10)),
            };
            if attempt >= self.opts.retries.min(MAX_RETRIES) {
                let note = format!(
                    "{} (gave up after {} attempts)",
                    c.note.clone().unwrap_or_default(),
                    attempt + 1
                );
                return (c.note(note), status, sent);
            }
            attempt += 1;
            tokio::time::sleep(wait).await;
        }
    }

    async fn send_once(
        &self,
        req: &WireRequest,
        url: &str,
        keyless: bool,
    ) -> std::result::Result<Reply, reqwest::Error> {
        // The URL is the configured base plus a route path: the host cannot change.
        debug_assert!(url.starts_with(&self.cfg.base_url));
        let method =
            reqwest::Method::from_bytes(req.method.as_bytes()).unwrap_or(reqwest::Method::POST);
        let rb = match self.parsed(url) {
            Some(parsed) => self.client.request(method, parsed),
            None => self.client.request(method, url),
        };
        let mut rb = rb.timeout(self.opts.timeout);
        for (k, v) in &req.headers {
            rb = rb.header(k.as_str(), v.as_str());
        }
        if !keyless && req.auth != AuthPlacement::None {
            for (name, value) in
                req.auth_headers(url, self.cfg.credential.as_ref(), chrono::Utc::now())
            {
                // Keys are checked to be header-safe when the target is built; a value that
                // still is not ends the request rather than sending it without the key.
                // (reqwest then fails the request as a builder error, naming no value).
                rb = match reqwest::header::HeaderValue::from_str(value.expose()) {
                    Ok(mut hv) => {
                        hv.set_sensitive(true);
                        rb.header(name.as_str(), hv)
                    }
                    Err(_) => rb.header(name.as_str(), value.expose()),
                };
            }
        }
        let mut resp = rb.body(req.body.clone()).send().await?;
        let status = resp.status().as_u16();
        // Only the headers answer readers use are kept (fewer copies per request).
        let headers: Vec<(String, String)> = KEPT_HEADERS
            .iter()
            .filter_map(|name| {
                resp.headers().get(name).map(|v| {
                    (
                        name.as_str().to_string(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
            })
            .collect();
        let expected = resp.content_length().unwrap_or(0).min(MAX_BODY as u64) as usize;
        let mut body = Vec::with_capacity(expected);
        while let Some(chunk) = resp.chunk().await? {
            let room = MAX_BODY.saturating_sub(body.len());
            body.extend_from_slice(&chunk[..chunk.len().min(room)]);
            if body.len() >= MAX_BODY {
                break;
            }
        }
        Ok(Reply {
            status,
            headers,
            body,
        })
    }
}

/// What to tell a user who wants to probe this route: the variables its key comes from.
pub fn key_hint(route: &dyn Route) -> String {
    let s = route.settings();
    let mut vars: Vec<String> = s.key_env.iter().map(|v| v.to_string()).collect();
    if route.id() == "bedrock/converse" {
        vars.push("AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY".into());
    }
    vars.join(" or ")
}

/// The variable (or variables) the credential of `route`, configured as `cfg` from `env`,
/// was read from: the first of the route's key variables that is set (as
/// [`crate::target::wire::default_config`] reads it), or the AWS key pair for SigV4. `None`
/// when no credential was configured. Names a variable to check, never its value.
pub fn key_source(
    route: &dyn Route,
    cfg: &RouteConfig,
    env: &dyn crate::target::Env,
) -> Option<String> {
    match cfg.credential.as_ref()? {
        Credential::Aws(_) => Some("AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY".into()),
        Credential::Key(_) => Some(
            route
                .settings()
                .key_env
                .iter()
                .find(|v| env.var(v).is_some())
                .map_or_else(|| key_hint(route), |v| v.to_string()),
        ),
    }
}

/// The most probes of one target in flight at once, whatever [`HttpOptions::concurrency`]
/// says: far above what any provider's rate limit lets through (the default is 2 remote, 4 on
/// loopback), and `--concurrency 100000` would open that many connections to one host at once.
pub const MAX_CONCURRENCY: usize = 64;

/// The most retries one request gets, whatever [`HttpOptions::retries`] says: with the
/// backoff cap this bounds the wait between one probe's attempts (about 2.5 minutes with the
/// defaults), where 100,000 retries against an unreachable host would never end.
pub const MAX_RETRIES: u32 = 10;

fn backoff(opts: &HttpOptions, attempt: u32) -> Duration {
    let step = opts
        .backoff_base
        .saturating_mul(2u32.saturating_pow(attempt))
        .min(opts.backoff_cap);
    // Full jitter in [step/2, step].
    step / 2 + jitter(step / 2)
}

/// The run log's note for a wait longer than `max_wait`: the wait as the server sent it (not a
/// capped figure presented as the server's), or that it is too large to read.
fn wait_refused(asked: Duration, max_wait: Duration) -> String {
    let asked = if asked == Duration::MAX {
        "a wait too large to read (more than 18446744073 billion seconds)".to_string()
    } else {
        format!("to wait {}s", seconds(asked))
    };
    format!(
        "the server asked {asked}, longer than the {}s allowed",
        seconds(max_wait)
    )
}

/// Seconds to the millisecond, without trailing zeros: `10`, `1.5`, `99999999999`.
fn seconds(d: Duration) -> String {
    let s = format!("{}.{:03}", d.as_secs(), d.subsec_millis());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn jitter(max: Duration) -> Duration {
    let nanos = max.as_nanos().min(u64::MAX as u128) as u64;
    if nanos == 0 {
        return Duration::ZERO;
    }
    Duration::from_nanos(fastrand::u64(0..=nanos))
}

/// A transport failure: unreachable when no connection could be made, otherwise
/// inconclusive; both retried.
fn transport_error(e: &reqwest::Error, timeout: Duration) -> Classified {
    use std::error::Error as _;
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    let (verdict, note) = if e.is_timeout() {
        (
            Verdict::Inconclusive,
            format!("timed out after {:.1}s", timeout.as_secs_f64()),
        )
    } else if e.is_connect() {
        (
            Verdict::Unreachable,
            "no connection could be made".to_string(),
        )
    } else if e.is_body() || e.is_decode() {
        (
            Verdict::Inconclusive,
            "the answer's body was cut short or unreadable".to_string(),
        )
    } else {
        (
            Verdict::Inconclusive,
            "the connection failed before a full answer arrived".to_string(),
        )
    };
    Classified {
        verdict,
        stage: Stage::Transport,
        error: Some(text),
        path: None,
        note: Some(note),
        retry: Retry::Backoff,
    }
}

impl ProbeTarget for HttpTarget {
    fn record(&self) -> TargetRecord {
        let s = self.route.settings();
        let auth = match (&self.cfg.credential, s.keyless) {
            (Some(Credential::Aws(_)), _) => "sigv4",
            (Some(_), _) => "key",
            (None, Keyless::Preauth | Keyless::Discover) => "preauth",
            (None, _) => "none",
        };
        TargetRecord {
            id: self.route.id().to_string(),
            endpoint: self.endpoint.clone(),
            model: Some(self.cfg.model.clone()).filter(|m| !m.is_empty()),
            api_version: self.cfg.api_version.clone(),
            auth: auth.into(),
            skipped: None,
        }
    }

    fn skip_reason(&self) -> Option<String> {
        let s = self.route.settings();
        let mut missing = Vec::new();
        if self.cfg.base_url.is_empty() {
            missing.push(match s.base_env {
                Some(v) => format!("{v} (or --base-url {}=URL)", self.route.id()),
                None => format!("--base-url {}=URL", self.route.id()),
            });
        }
        if self.cfg.credential.is_none() && s.keyless == Keyless::Skip {
            missing.push(key_hint(self.route.as_ref()));
        }
        missing.extend(
            self.route
                .missing_settings(&self.cfg)
                .into_iter()
                .map(String::from),
        );
        (!missing.is_empty()).then(|| format!("set {}", missing.join(" and ")))
    }

    fn concurrency(&self) -> usize {
        self.opts.concurrency.clamp(1, MAX_CONCURRENCY)
    }

    fn probe<'a>(&'a self, case: &'a Case) -> BoxFuture<'a, Answer> {
        Box::pin(async move {
            let answer = self.answer(case).await;
            // Every answer of a target `toolwire emulate` serves, or of a stand-in, whatever
            // ended it.
            let mark = if self.saw_emulator() {
                EMULATED_NOTE
            } else if self.stand_in {
                STAND_IN_NOTE
            } else {
                return answer;
            };
            Answer {
                note: Some(noted(mark, answer.note.as_deref())),
                ..answer
            }
        })
    }
}

impl HttpTarget {
    /// The answer to `case`: the discovery's, when it stops the route, else the case's own.
    async fn answer(&self, case: &Case) -> Answer {
        let keyless = self.keyless();
        let mut extra = self.uncounted.swap(0, Ordering::AcqRel);
        if keyless && self.route.settings().keyless == Keyless::Discover {
            let (d, sent) = self.discovery.get_or_init(|| self.discover()).await;
            if !self.discovery_counted.swap(true, Ordering::AcqRel) {
                extra += *sent;
            }
            if let Discovery::Stop(answer) = d {
                return Answer {
                    requests: extra,
                    ..answer.clone()
                };
            }
        }
        let opts = WireOptions::for_case(case);
        let req = self.route.request(&self.cfg, &case.tools, &opts);
        if case.strict && !super::carries_strict(&req.body) {
            return Answer {
                requests: extra,
                ..Answer::strict_not_carried()
            };
        }
        let (c, status, sent) = self.send(&req, keyless).await;
        Answer {
            verdict: c.verdict,
            stage: c.stage,
            status,
            error: c.error,
            path: c.path,
            note: c.note,
            model: None,
            request_body: req.body,
            requests: sent + extra,
        }
    }
}

#[cfg(test)]
mod tests {
    /// trialO F2: `Retry-After: 99999999999999999999` read "asked to wait 600s" (a cap
    /// reported as the server's figure); the note gives the figure sent, or says it is too
    /// large to read, beside the real limit.
    #[test]
    fn a_refused_wait_is_reported_as_the_server_sent_it() {
        use std::time::Duration;
        let reply =
            |v: &str| crate::target::wire::Reply::text(429, "").with_header("retry-after", v);
        let asked = |v: &str| match crate::target::wire::retry_after(&reply(v)) {
            Some(crate::target::wire::Retry::After(d)) => d,
            other => panic!("{v}: {other:?}"),
        };
        let ten = Duration::from_secs(10);
        assert_eq!(
            super::wait_refused(asked("99999999999"), ten),
            "the server asked to wait 99999999999s, longer than the 10s allowed"
        );
        assert_eq!(
            super::wait_refused(asked("130.5"), Duration::from_secs(120)),
            "the server asked to wait 130.5s, longer than the 120s allowed"
        );
        assert_eq!(
            super::wait_refused(asked("99999999999999999999"), ten),
            "the server asked a wait too large to read (more than 18446744073 billion \
             seconds), longer than the 10s allowed"
        );
    }

    /// A proxy the client cannot speak (SOCKS, ftp) is refused when the client is built.
    #[test]
    fn proxies_other_than_http_are_refused_up_front() {
        for proxy in ["socks5://127.0.0.1:1080", "ftp://127.0.0.1:21"] {
            let env = |name: &str| (name == "ALL_PROXY").then(|| proxy.to_string());
            let e = super::client_with_env(std::time::Duration::from_secs(1), &env)
                .unwrap_err()
                .to_string();
            assert!(e.contains("only http:// and https:// proxies"), "{e}");
        }
        let env = |name: &str| (name == "HTTPS_PROXY").then(|| "127.0.0.1:3128".to_string());
        assert!(super::client_with_env(std::time::Duration::from_secs(1), &env).is_ok());
    }

    /// A key pasted into a base URL's query or fragment, or after a space, never reaches the
    /// error text; key-shaped strings in its path are redacted.
    #[test]
    fn base_url_errors_show_no_query_fragment_or_key() {
        // Key-shaped, built at run time so no key-shaped literal is tracked.
        let key = format!("AIza{}", "SyAbCdEfGhIjKlMnOpQrStUvWxYz0123456");
        let key = key.as_str();
        for base in [
            format!("http://127.0.0.1:18089/gemini?key={key}"),
            format!("http://127.0.0.1:18089/gemini#{key}"),
            format!("http://127.0.0.1:18089/gemini {key}"),
            format!("http://127.0.0.1:18089/{key}/x y"),
            "http://127.0.0.1/openai?tw-azure-secret-value".to_string(),
        ] {
            let e = super::check_base_url("OPENAI_BASE_URL=", &base)
                .unwrap_err()
                .to_string();
            assert!(!e.contains(key) && !e.contains("tw-azure-secret"), "{e}");
            assert!(e.contains("http://127.0.0.1"), "{e}");
        }
    }

    /// Every message quoting a base URL hides its query and fragment, with or without
    /// userinfo beside them: the text differs from the secret, so a CI log's masking would
    /// not catch it (the trial: `https://***@gateway…/v1?key=QSECRET` was printed).
    #[test]
    fn messages_quoting_a_base_url_hide_its_query_and_fragment() {
        for base in [
            "https://gwuser:GWPASS-SECRET@gateway.internal.example/v1?key=QSECRET",
            "https://gateway.internal.example/v1?key=QSECRET",
            "https://gateway.internal.example/v1#QSECRET",
            "https://gwuser:GWPASS-SECRET@gateway.internal.example/v1#QSECRET",
            "http://gwuser:GWPASS-SECRET@gateway.internal.example/v1?key=QSECRET",
            // A raw `#` or `?` in the password: the URL's authority ends there, but what a
            // user meant as the password must not be shown up to it.
            "https://gwuser:GWPASS#SECRET@gateway.internal.example/v1",
            "https://gwuser:GWPASS?SECRET@gateway.internal.example/v1",
        ] {
            let mut messages = vec![
                shown_url(base),
                check_key_destination("openai/chat", base, "OPENAI_API_KEY")
                    .map_or_else(|e| e.to_string(), |()| String::new()),
                check_base_url("openai/chat: OPENAI_BASE_URL=", base)
                    .unwrap_err()
                    .to_string(),
            ];
            if has_userinfo(base) {
                messages.push(
                    check_no_userinfo("openai/chat: OPENAI_BASE_URL=", base, "OPENAI_API_KEY")
                        .unwrap_err()
                        .to_string(),
                );
            }
            for m in messages {
                assert!(
                    !m.contains("QSECRET") && !m.contains("SECRET"),
                    "{base}: {m}"
                );
                assert!(
                    !m.contains("GWPASS") && !m.contains("gwuser"),
                    "{base}: {m}"
                );
            }
            let shown = shown_url(base);
            let in_password = base.contains("GWPASS#") || base.contains("GWPASS?");
            let want = if in_password {
                "https://***@gateway.internal.example/v1"
            } else {
                "://***@gateway.internal.example/v1… (the rest not shown)"
            };
            let want = want.replace(
                "***@",
                if has_userinfo(base) || in_password {
                    "***@"
                } else {
                    ""
                },
            );
            assert!(shown.ends_with(&want), "{shown}");
        }
        // The trial's URL, as the message shows it.
        let e = check_no_userinfo(
            "openai/chat: OPENAI_BASE_URL=",
            "https://gwuser:GWPASS-SECRET@gateway.internal.example/v1?key=QSECRET",
            "OPENAI_API_KEY",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with(
                "openai/chat: OPENAI_BASE_URL=https://***@gateway.internal.example/v1… (the rest \
                 not shown): the URL carries credentials"
            ),
            "{e}"
        );
        // Nothing to hide: shown as given.
        assert_eq!(
            shown_url("https://api.example.com/v1"),
            "https://api.example.com/v1"
        );
        assert_eq!(shown_url("openai/chat"), "openai/chat");
        assert_eq!(
            shown_url("http://127.0.0.1:9/a@b"),
            "http://127.0.0.1:9/a@b"
        );
    }

    use super::*;

    #[test]
    fn keys_only_over_https_or_loopback() {
        assert!(check_key_destination("t", "https://api.example.com", "K").is_ok());
        assert!(check_key_destination("t", "http://127.0.0.1:8080/x", "K").is_ok());
        assert!(check_key_destination("t", "http://localhost:1", "K").is_ok());
        assert!(check_key_destination("t", "http://[::1]:1", "K").is_ok());
        let e = check_key_destination("t", "http://api.example.com", "OPENAI_API_KEY")
            .unwrap_err()
            .to_string();
        assert!(e.contains("refusing to send OPENAI_API_KEY"), "{e}");
        assert!(check_key_destination("t", "http://127.0.0.1.evil.com", "K").is_err());
        assert!(check_key_destination("t", "http://user@evil.com", "K").is_err());
        // The refusal quotes the URL without its userinfo.
        let e = check_key_destination("t", "http://tw-user:tw-pass@api.example.com", "K")
            .unwrap_err()
            .to_string();
        assert!(e.contains("to http://***@api.example.com"), "{e}");
        assert!(!e.contains("tw-user") && !e.contains("tw-pass"), "{e}");
    }

    #[test]
    fn a_base_url_with_userinfo_is_refused_and_masked() {
        assert!(check_no_userinfo("x: ", "https://api.example.com/v1", "K").is_ok());
        assert!(check_no_userinfo("x: ", "http://127.0.0.1:9/a@b", "K").is_ok());
        for url in [
            "http://tw-user:tw-pass@127.0.0.1:9/v1",
            "https://tw-user@api.example.com",
            "http://tw-user:tw-p@ss@api.example.com",
        ] {
            let e = check_no_userinfo("openai/chat: OPENAI_BASE_URL=", url, "OPENAI_API_KEY")
                .unwrap_err();
            assert!(matches!(e, Error::Usage(_)), "{e:?}");
            let e = e.to_string();
            assert!(e.starts_with("openai/chat: OPENAI_BASE_URL=http"), "{e}");
            assert!(e.contains("://***@"), "{e}");
            assert!(e.contains("put the key in OPENAI_API_KEY"), "{e}");
            assert!(!e.contains("tw-user") && !e.contains("tw-p"), "{e}");
        }
        let e = check_no_userinfo(
            "ollama/chat: OLLAMA_HOST=",
            "http://u:p@localhost:11434",
            "",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("this target takes no key"), "{e}");
    }

    #[test]
    fn budget_is_shared_and_exact() {
        let b = Budget::new(Some(2));
        assert!(b.take() && b.take());
        assert!(!b.take());
        assert!(!b.take());
        assert_eq!((b.spent(), b.refused()), (2, 2));
    }

    #[test]
    fn backoff_grows_and_is_capped() {
        let o = HttpOptions::remote();
        for attempt in 0..10 {
            let d = backoff(&o, attempt);
            let step = o
                .backoff_base
                .saturating_mul(1 << attempt.min(20))
                .min(o.backoff_cap);
            assert!(d >= step / 2 && d <= step, "{attempt}: {d:?}");
        }
    }

    /// With the defaults, the waits between one probe's attempts add up to minutes at most,
    /// however many retries are asked for.
    #[test]
    fn the_backoff_of_one_probe_is_bounded() {
        let o = HttpOptions::remote();
        let worst: Duration = (0..MAX_RETRIES)
            .map(|a| {
                o.backoff_base
                    .saturating_mul(2u32.saturating_pow(a))
                    .min(o.backoff_cap)
            })
            .sum();
        assert!(worst <= Duration::from_secs(160), "{worst:?}");
    }

    #[test]
    fn base_urls_are_checked_in_one_form() {
        for ok in [
            "https://api.openai.com/v1",
            "http://127.0.0.1:8089/openai",
            "http://[::1]:9",
            "HTTPS://Example.COM",
        ] {
            assert!(check_base_url("x=", ok).is_ok(), "{ok}");
        }
        for (bad, why) in [
            ("not a url", "expected an http:// or https:// URL"),
            ("127.0.0.1:9", "expected an http:// or https:// URL"),
            ("http://:18390", "expected an http:// or https:// URL"),
            ("http://", "expected an http:// or https:// URL"),
            ("http://host/v1?x=1", "query or fragment"),
            ("http://host/v1#f", "query or fragment"),
            ("http://host/a b", "whitespace"),
            ("https:///v1", "with a host (none before the path)"),
            ("http://\\\\v1", "with a host (none before the path)"),
        ] {
            let e = check_base_url("ollama/chat: OLLAMA_HOST=", bad).unwrap_err();
            assert!(matches!(e, Error::Usage(_)));
            let e = e.to_string();
            // Shown up to its first `?`, `#` or space (see `shown_url`).
            let shown = bad.split(['?', '#', ' ']).next().unwrap_or(bad);
            assert!(
                e.starts_with(&format!("ollama/chat: OLLAMA_HOST={shown}")),
                "{e}"
            );
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn model_ids_cannot_leave_the_routes_path() {
        for ok in [
            "gemini-2.5-flash",
            "openai/gpt-4.1-mini",
            "anthropic.claude-3-5-haiku-20241022-v1:0",
            "claude-3-5-sonnet@20240620",
            "hf.co/org/repo:Q4_K_M",
            "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.model-v1:0",
        ] {
            assert!(check_model("--model t=", ok).is_ok(), "{ok}");
        }
        for bad in [
            "../../../../admin",
            "gemini/../admin",
            "m?x=1",
            "m#frag",
            "m x",
            "m\nx",
            "m\u{7f}",
            "/abs",
            "a//b",
            "m%2e%2e",
            "",
        ] {
            let e = check_model("--model gemini/v1beta/parameters=", bad).unwrap_err();
            assert!(matches!(e, Error::Usage(_)));
            assert!(
                e.to_string()
                    .starts_with("--model gemini/v1beta/parameters="),
                "{e}"
            );
        }
    }

    #[test]
    fn host_and_path_settings_are_strict() {
        for ok in ["us-central1", "global", "europe-west4", "us-east-1"] {
            assert!(check_region("v=", ok).is_ok(), "{ok}");
        }
        for bad in [
            "localhost:18391/x?",
            "us-central1.evil.com",
            "US",
            "",
            "a/b",
            "x@y",
        ] {
            let e = check_region("vertex/v1/parameters: GOOGLE_CLOUD_LOCATION=", bad)
                .unwrap_err()
                .to_string();
            assert!(
                e.starts_with("vertex/v1/parameters: GOOGLE_CLOUD_LOCATION="),
                "{e}"
            );
        }
        for ok in ["my-project-123", "-", "example.com:my-project"] {
            assert!(check_project("p=", ok).is_ok(), "{ok}");
        }
        for bad in [
            "p",
            "My-Project",
            "proj/../x",
            "project-",
            "1project",
            "a?b=c",
        ] {
            assert!(check_project("p=", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn keys_must_be_header_safe_and_credible_and_are_never_shown() {
        assert!(check_key("t: ", "K", "tw-valid-key-0123456789").is_ok());
        assert!(check_key("t: ", "K", "token-abc123").is_ok());
        for bad in [
            "tw-abc\ndef-0123",
            "tw-abc def-0123",
            "tw-abc\tdef",
            "tw-\u{e9}-0123456",
        ] {
            let e = check_key("openai/chat: ", "OPENAI_API_KEY", bad).unwrap_err();
            assert!(matches!(e, Error::Usage(_)));
            let e = e.to_string();
            assert!(
                e.starts_with("openai/chat: OPENAI_API_KEY holds a character"),
                "{e}"
            );
            assert!(!e.contains("tw-abc") && !e.contains("0123"), "{e}");
        }
        for weak in ["accepted", "invalid", "abc123", "Rejected"] {
            let e = check_key("vllm/chat: ", "VLLM_API_KEY", weak)
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("VLLM_API_KEY is too short or a plain word"),
                "{e}"
            );
            assert!(!e.contains(&format!("{weak} ")), "{e}");
        }
    }

    #[test]
    fn only_https_to_remote_hosts_may_use_a_proxy() {
        let url = |u: &str| reqwest::Url::parse(u).unwrap();
        assert!(proxy_for(&url("https://api.openai.com/v1")));
        assert!(!proxy_for(&url("http://api.example.com/v1")));
        assert!(!proxy_for(&url("http://127.0.0.1:18399/v1")));
        assert!(!proxy_for(&url("https://localhost:8443/v1")));
        assert!(!proxy_for(&url("http://[::1]:9/v1")));
    }
}
