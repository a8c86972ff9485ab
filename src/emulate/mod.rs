//! `toolwire emulate`: every offline target model served over HTTP (axum), with optional
//! faults, so the prober — and anyone's agent tests — can run without network or keys.
//!
//! Layout: one listener; each provider's model is mounted under its service slug at the
//! provider's real paths, e.g. `http://ADDR/openai/v1/chat/completions`,
//! `http://ADDR/gemini/v1beta/models/gemini-2.5-flash:countTokens`,
//! `http://ADDR/anthropic/v1/messages`; so a base URL of `http://ADDR/<slug>` stands in for the
//! provider's host. With `only` one service is mounted at the root instead.
//!
//! Credentials are judged as the real service would see them (see each model): none → the
//! no-credentials answer (Gemini: the pre-auth front end), a key starting `tw-invalid` (e.g.
//! `tw-invalid-key-1`, credible to `probe`) or the literal `invalid` → the invalid-key
//! answer ([`crate::target::wire::Cred`]), anything else → valid, so the validator runs.
//!
//! What the emulator answers itself is JSON in the model's error shape
//! ([`Service::error_reply`]): a body over [`MAX_REQUEST`] (413), a body cut short of its
//! `Content-Length` or with a malformed chunk (400), a body not all sent within
//! [`Options::body_timeout`] (408) and a method other than POST on a route (405 with
//! `allow: POST`). A connection whose request head is not all sent within
//! [`Options::header_timeout`] (or that stays idle that long after an answer) is closed
//! without one, and at most [`Options::max_connections`] are served at once.
//!
//! Every answer carries `x-toolwire-emulator: <version>`, and `GET /__toolwire/emulator`
//! describes the server: the prober notes emulated answers on every observation and
//! `toolwire probe` keeps runs against the emulator out of `reports/runs` (emulated answers
//! are never evidence).
//!
//! Faults (`--fault`), applied to request 1 and every `fault_every`-th after it: 429 with
//! `Retry-After` (Google services: `RESOURCE_EXHAUSTED` with `RetryInfo`, as Gemini sends it),
//! 500, 503, a slow answer, a connection reset before any byte of the answer, a truncated body,
//! and an HTML error page.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::json;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

use crate::probe::http::EMULATOR_HEADER;
use crate::target::{Incoming, Reply, Service};

/// Largest request body the emulator reads.
pub const MAX_REQUEST: usize = 16 * 1024 * 1024;

/// A fault mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Fault {
    /// 429 with `Retry-After` (Google: `RetryInfo` in the body).
    #[value(name = "429")]
    RateLimit,
    /// 500 Internal Server Error.
    #[value(name = "500")]
    ServerError,
    /// 503 Service Unavailable.
    #[value(name = "503")]
    Unavailable,
    /// The normal answer, after a delay.
    Slow,
    /// The connection is closed before any byte of the answer.
    Reset,
    /// The answer's head and half its body, then the connection closes.
    Truncated,
    /// 502 with an HTML page, as a load balancer sends it.
    Html,
}

impl Fault {
    /// Every fault, for tests and `--help`.
    pub const ALL: [Fault; 7] = [
        Fault::RateLimit,
        Fault::ServerError,
        Fault::Unavailable,
        Fault::Slow,
        Fault::Reset,
        Fault::Truncated,
        Fault::Html,
    ];
}

/// Emulator settings.
#[derive(Debug, Clone)]
pub struct Options {
    pub fault: Option<Fault>,
    /// The fault hits request 1, 1+N, 1+2N, … (1: every request).
    pub fault_every: usize,
    /// Delay of the `slow` fault.
    pub slow: Duration,
    /// Seconds announced by the 429 fault.
    pub retry_after: u64,
    /// Mount only this service, at the root.
    pub only: Option<String>,
    /// Longest wait for a request's body: a client that stops sending mid-body is answered
    /// 408 instead of holding its connection (and up to [`MAX_REQUEST`] bytes) forever.
    pub body_timeout: Duration,
    /// Longest wait for a request's head (request line and headers), from the connection's
    /// opening or the end of its previous answer: a client that sends half a request, or
    /// nothing, is disconnected instead of holding its connection and task forever (hyper
    /// has no such timer unless one is given).
    pub header_timeout: Duration,
    /// Connections served at once; past it the emulator accepts no more until one closes,
    /// so a crowd of clients cannot take every file descriptor.
    pub max_connections: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            fault: None,
            fault_every: 1,
            slow: Duration::from_secs(5),
            retry_after: 1,
            only: None,
            body_timeout: Duration::from_secs(30),
            header_timeout: Duration::from_secs(30),
            max_connections: 1024,
        }
    }
}

/// Per-connection control, shared between the socket wrapper and the handler.
#[derive(Debug, Default)]
struct ConnCtl {
    killed: AtomicBool,
}

/// The remote peer as handlers see it (address + the connection's kill switch).
#[derive(Debug, Clone)]
pub struct Peer {
    pub addr: SocketAddr,
    ctl: Arc<ConnCtl>,
}

/// A socket that fails every read and write once its connection is killed, so hyper drops
/// the connection without writing the answer.
pub struct FaultIo {
    inner: TcpStream,
    ctl: Arc<ConnCtl>,
}

fn killed_err() -> io::Error {
    io::Error::new(
        io::ErrorKind::ConnectionReset,
        "toolwire emulate: reset fault",
    )
}

impl AsyncRead for FaultIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.ctl.killed.load(Ordering::Acquire) {
            return Poll::Ready(Err(killed_err()));
        }
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for FaultIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.ctl.killed.load(Ordering::Acquire) {
            return Poll::Ready(Err(killed_err()));
        }
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.ctl.killed.load(Ordering::Acquire) {
            return Poll::Ready(Err(killed_err()));
        }
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

struct AppState {
    services: HashMap<&'static str, Box<dyn Service>>,
    opts: Options,
    requests: AtomicUsize,
}

/// A running emulator.
pub struct Emulator {
    addr: SocketAddr,
    state: Arc<AppState>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Emulator {
    /// Binds `addr` (port 0 picks a free port) and serves until [`Emulator::stop`].
    pub async fn start(addr: SocketAddr, opts: Options) -> io::Result<Emulator> {
        let listener = TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let services: HashMap<&'static str, Box<dyn Service>> = crate::target::services()
            .into_iter()
            .map(|s| (s.slug(), s))
            .collect();
        if let Some(only) = &opts.only
            && !services.contains_key(only.as_str())
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "no emulated service {only:?}; known: {}",
                    slugs().join(", ")
                ),
            ));
        }
        let state = Arc::new(AppState {
            services,
            opts,
            requests: AtomicUsize::new(0),
        });
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(state.clone());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(serve(listener, app, state.clone(), rx));
        Ok(Emulator {
            addr,
            state,
            shutdown: Some(tx),
            task,
        })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Requests answered so far (the description endpoint excluded).
    pub fn requests(&self) -> usize {
        self.state.requests.load(Ordering::Acquire)
    }

    /// True when the service `slug` is mounted (all are, unless `only` names another; the
    /// others then answer 404).
    pub fn serves(&self, slug: &str) -> bool {
        self.state
            .opts
            .only
            .as_deref()
            .is_none_or(|only| only == slug)
    }

    /// The base URL standing in for a provider's host: `http://ADDR/<slug>`.
    pub fn base_url(&self, slug: &str) -> String {
        let addr = self.client_addr();
        if self.state.opts.only.as_deref() == Some(slug) {
            format!("http://{addr}")
        } else {
            format!("http://{addr}/{slug}")
        }
    }

    /// The address a client on this machine connects to: the listening address, with an
    /// unspecified IP (`0.0.0.0`, `::`) replaced by the loopback address of its family, since
    /// `0.0.0.0` is not a destination (and `probe` sends keys over plain http only to
    /// loopback addresses).
    pub fn client_addr(&self) -> SocketAddr {
        client_addr(self.addr)
    }

    /// Stops serving (open connections are closed).
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        self.task.abort();
        let _ = (&mut self.task).await;
    }
}

/// The accept loop: `axum::serve` sets no header-read timer, so each connection is served by
/// hyper's HTTP/1 builder with one. Connections still open at `shutdown` finish their
/// current answer and close.
async fn serve(
    listener: TcpListener,
    app: axum::Router,
    state: Arc<AppState>,
    shutdown: tokio::sync::oneshot::Receiver<()>,
) {
    // Each connection watches this; dropping it (shutdown, or the task aborted) closes them.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(());
    let slots = Arc::new(tokio::sync::Semaphore::new(
        state.opts.max_connections.max(1),
    ));
    let mut http = hyper::server::conn::http1::Builder::new();
    // half_close: a client that shuts its write side once the request is sent (`nc -N`,
    // raw-socket test harnesses) still gets its answer; by default hyper reads that EOF as
    // the client gone and dropped the answer in flight (trial 73 D1: 14 of 20 POSTs of
    // 200 KB answered with 0 bytes).
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(state.opts.header_timeout)
        .half_close(true);
    tokio::pin!(shutdown);
    loop {
        let (stream, addr, slot) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = accept(&listener, &slots) => accepted,
        };
        let _ = stream.set_nodelay(true);
        let ctl = Arc::new(ConnCtl::default());
        let io = hyper_util::rt::TokioIo::new(FaultIo {
            inner: stream,
            ctl: ctl.clone(),
        });
        let peer = axum::Extension(ConnectInfo(Peer { addr, ctl }));
        let service = hyper_util::service::TowerToHyperService::new(app.clone().layer(peer));
        let conn = http.serve_connection(io, service);
        let mut stop = stop_rx.clone();
        tokio::spawn(async move {
            // Declared first, dropped last: the slot frees once the socket is closed.
            let _slot = slot;
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => return,
                _ = stop.changed() => {}
            }
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        });
    }
    drop(stop_tx);
}

/// The next connection, once a slot is free.
async fn accept(
    listener: &TcpListener,
    slots: &Arc<tokio::sync::Semaphore>,
) -> (TcpStream, SocketAddr, tokio::sync::OwnedSemaphorePermit) {
    let Ok(slot) = slots.clone().acquire_owned().await else {
        // The semaphore is never closed.
        return std::future::pending().await;
    };
    loop {
        match listener.accept().await {
            Ok((stream, addr)) => return (stream, addr, slot),
            // Out of file descriptors and similar: wait and go on, as axum's own listener does.
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// Every service slug.
pub fn slugs() -> Vec<&'static str> {
    crate::target::services().iter().map(|s| s.slug()).collect()
}

fn to_response(reply: Reply) -> Response {
    let mut builder = Response::builder()
        .status(StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR));
    for (k, v) in &reply.headers {
        builder = builder.header(k.as_str(), v.as_str());
    }
    builder.body(Body::from(reply.body)).unwrap_or_default()
}

fn fault_reply(fault: Fault, slug: &str, retry_after: u64) -> Option<Reply> {
    let generic = |status: u16, msg: &str| {
        Reply::json(
            status,
            &json!({"error": {"message": msg, "type": "toolwire_emulated_fault", "code": status}}),
        )
    };
    match fault {
        Fault::RateLimit => Some(if matches!(slug, "gemini" | "vertex") {
            Reply::json(429, &crate::target::google::resource_exhausted(retry_after))
        } else {
            generic(429, "Rate limit exceeded (toolwire emulate fault)")
                .with_header("retry-after", retry_after.to_string())
        }),
        Fault::ServerError => Some(generic(500, "Internal server error (toolwire emulate fault)")),
        Fault::Unavailable => Some(generic(503, "Service unavailable (toolwire emulate fault)")),
        Fault::Html => Some(Reply {
            status: 502,
            headers: vec![("content-type".into(), "text/html; charset=UTF-8".into())],
            body: b"<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><p>toolwire emulate fault</p></body></html>\n".to_vec(),
        }),
        Fault::Slow | Fault::Reset | Fault::Truncated => None,
    }
}

async fn handle(
    State(st): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<Peer>,
    req: Request,
) -> Response {
    let version = HeaderValue::from_static(env!("CARGO_PKG_VERSION"));
    let path = req.uri().path().to_string();
    if path == "/__toolwire/emulator" {
        let mut r = to_response(Reply::json(
            200,
            &json!({"emulator": "toolwire", "version": env!("CARGO_PKG_VERSION"),
                    "services": slugs(), "note": "emulated answers are never evidence"}),
        ));
        r.headers_mut().insert(EMULATOR_HEADER, version);
        return r;
    }
    let n = st.requests.fetch_add(1, Ordering::AcqRel);
    let fault = st
        .opts
        .fault
        .filter(|_| n % st.opts.fault_every.max(1) == 0);
    let (slug, rest) = match &st.opts.only {
        Some(only) => (only.as_str(), path.clone()),
        None => {
            let trimmed = path.trim_start_matches('/');
            let (s, r) = trimmed.split_once('/').unwrap_or((trimmed, ""));
            (s, format!("/{r}"))
        }
    };
    let method = req.method().as_str().to_string();
    let query = req
        .uri()
        .query()
        .map(|q| format!("?{q}"))
        .unwrap_or_default();
    let headers: Vec<(String, String)> = req
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let Some(service) = st.services.get(slug) else {
        let mut r = to_response(Reply::json(
            404,
            &json!({"error": {"message": format!("toolwire emulate: no service {slug:?} (known: {})", slugs().join(", "))}}),
        ));
        r.headers_mut().insert(EMULATOR_HEADER, version);
        return r;
    };
    let read = axum::body::to_bytes(req.into_body(), MAX_REQUEST);
    let body = match tokio::time::timeout(st.opts.body_timeout, read).await {
        Ok(Ok(b)) => b.to_vec(),
        Ok(Err(e)) => {
            // Only the length limit is a 413; a body cut short of its Content-Length or a
            // malformed chunk is the client's malformed request (trial 73 D3: a 7-byte body
            // was told it was over 16 MiB).
            let e = e.into_inner();
            let (status, message) = if e.is::<http_body_util::LengthLimitError>() {
                (413, too_large())
            } else {
                (
                    400,
                    format!("Bad request: toolwire emulate could not read the request body: {e}"),
                )
            };
            let mut r = to_response(service.error_reply(status, &message));
            r.headers_mut().insert(EMULATOR_HEADER, version);
            if status == 400 {
                // What is left of a malformed body cannot be told from the next request.
                r.headers_mut()
                    .insert("connection", HeaderValue::from_static("close"));
            }
            return r;
        }
        Err(_) => {
            let message = format!(
                "Request timeout: toolwire emulate waits at most {:.1}s for a request body",
                st.opts.body_timeout.as_secs_f64()
            );
            let mut r = to_response(service.error_reply(408, &message));
            r.headers_mut().insert(EMULATOR_HEADER, version);
            // The rest of the body may still arrive: the connection is not reused.
            r.headers_mut()
                .insert("connection", HeaderValue::from_static("close"));
            return r;
        }
    };
    if fault == Some(Fault::Reset) {
        peer.ctl.killed.store(true, Ordering::Release);
        return Response::new(Body::empty());
    }
    if let Some(reply) = fault.and_then(|f| fault_reply(f, slug, st.opts.retry_after)) {
        let mut r = to_response(reply);
        r.headers_mut().insert(EMULATOR_HEADER, version);
        return r;
    }
    if fault == Some(Fault::Slow) {
        tokio::time::sleep(st.opts.slow).await;
    }
    let incoming = Incoming::new(&method, &format!("{rest}{query}"), headers, body);
    let reply = answer_by_method(service.as_ref(), incoming);
    if fault == Some(Fault::Truncated) {
        let full = reply.body.len();
        let half = reply.body[..full / 2].to_vec();
        let chunks: Vec<Result<Vec<u8>, io::Error>> = vec![
            Ok(half),
            Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "toolwire emulate: truncated fault",
            )),
        ];
        let mut builder = Response::builder()
            .status(StatusCode::from_u16(reply.status).unwrap_or(StatusCode::OK))
            .header("content-length", full.to_string())
            .header(EMULATOR_HEADER, version);
        for (k, v) in &reply.headers {
            builder = builder.header(k.as_str(), v.as_str());
        }
        return builder
            .body(Body::from_stream(futures::stream::iter(chunks)))
            .unwrap_or_default();
    }
    let mut r = to_response(reply);
    r.headers_mut().insert(EMULATOR_HEADER, version);
    r
}

/// The 413's message (toolwire's words: the providers' caps and texts are not known).
fn too_large() -> String {
    format!("Request body too large: toolwire emulate reads at most {MAX_REQUEST} bytes")
}

/// The model's answer to a POST; to any other method on a route the model serves (every
/// emulated route is a POST), a 405 `Method Not Allowed` with `allow: POST`, in the model's
/// error shape (Anthropic documents 405 `invalid_request_error` "Method Not Allowed",
/// `evidence/PROVIDERS.md` §8; for the others the wording is the HTTP reason phrase). Whether
/// the path is a route is the model's to say: asked as a POST, a path it does not serve gets
/// its 404, and then the request is answered as sent (a 404 may name the method).
fn answer_by_method(service: &dyn Service, incoming: Incoming) -> Reply {
    if incoming.method == "POST" {
        return service.answer(&incoming);
    }
    let as_post = Incoming {
        method: "POST".into(),
        ..incoming.clone()
    };
    if service.answer(&as_post).status == 404 {
        return service.answer(&incoming);
    }
    service
        .error_reply(405, "Method Not Allowed")
        .with_header("allow", "POST")
}

/// Asks `base`'s origin whether it is `toolwire emulate` (GET `/__toolwire/emulator`).
pub async fn is_emulator(client: &reqwest::Client, base: &str) -> bool {
    let Some((scheme, rest)) = base.split_once("://") else {
        return false;
    };
    let authority = rest.split('/').next().unwrap_or("");
    let url = format!("{scheme}://{authority}/__toolwire/emulator");
    let fut = client.get(url).send();
    match tokio::time::timeout(Duration::from_secs(3), fut).await {
        Ok(Ok(resp)) => resp.headers().contains_key(EMULATOR_HEADER),
        _ => false,
    }
}

/// `addr` with an unspecified IP (`0.0.0.0`, `::`) replaced by the loopback address of its
/// family ([`Emulator::client_addr`]).
pub fn client_addr(addr: SocketAddr) -> SocketAddr {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv4Addr::LOCALHOST.into(), addr.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv6Addr::LOCALHOST.into(), addr.port())
        }
        _ => addr,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An emulator on a free loopback port.
    async fn started(opts: Options) -> Emulator {
        Emulator::start(SocketAddr::from(([127, 0, 0, 1], 0)), opts)
            .await
            .unwrap()
    }

    /// The status of a chat request from a well-behaved client, on a connection of its own
    /// (401: no key given).
    async fn served_status(emu: &Emulator) -> u16 {
        let send = reqwest::Client::new()
            .post(format!("http://{}/openai/v1/chat/completions", emu.addr()))
            .body("{}")
            .send();
        tokio::time::timeout(Duration::from_secs(10), send)
            .await
            .expect("served before the test's own timeout")
            .unwrap()
            .status()
            .as_u16()
    }

    /// A client that stops sending mid-body gets a 408 once the body timeout is over, and
    /// the emulator goes on answering others.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stalled_body_is_answered_408_not_waited_for_forever() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let opts = Options {
            body_timeout: Duration::from_millis(200),
            ..Options::default()
        };
        let emu = started(opts).await;
        let mut stalled = TcpStream::connect(emu.addr()).await.unwrap();
        stalled
            .write_all(
                b"POST /openai/v1/chat/completions HTTP/1.1\r\nHost: x\r\n\
                  Content-Length: 1000\r\n\r\n{\"mo",
            )
            .await
            .unwrap();
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), stalled.read_to_end(&mut answer))
            .await
            .expect("answered before the test's own timeout")
            .unwrap();
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("waits at most 0.2s"), "{answer}");
        assert!(answer.contains(EMULATOR_HEADER), "{answer}");
        assert_eq!(served_status(&emu).await, 401);
        emu.stop().await;
    }

    /// A client that sends half a request head, or goes quiet after an answer on a kept-alive
    /// connection, is disconnected once the header timeout is over, while another connection
    /// is served meanwhile.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stalled_request_head_is_disconnected_not_waited_for_forever() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let opts = Options {
            header_timeout: Duration::from_millis(200),
            ..Options::default()
        };
        let emu = started(opts).await;
        let mut stalled = TcpStream::connect(emu.addr()).await.unwrap();
        stalled
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        assert_eq!(served_status(&emu).await, 401);
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), stalled.read_to_end(&mut answer))
            .await
            .expect("disconnected before the test's own timeout")
            .unwrap();
        let answer = String::from_utf8_lossy(&answer);
        assert!(
            answer.is_empty() || answer.starts_with("HTTP/1.1 408"),
            "{answer}"
        );

        let mut idle = TcpStream::connect(emu.addr()).await.unwrap();
        idle.write_all(b"GET /__toolwire/emulator HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), idle.read_to_end(&mut answer))
            .await
            .expect("an idle kept-alive connection is closed before the test's own timeout")
            .unwrap();
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.contains("never evidence"), "{answer}");
        emu.stop().await;
    }

    /// Past `max_connections` the next client waits for a slot: with one slot held by a silent
    /// client, another request is answered only once that client has been disconnected.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn connections_past_the_cap_wait_for_a_slot() {
        use std::io::Read;
        let opts = Options {
            header_timeout: Duration::from_millis(200),
            max_connections: 1,
            ..Options::default()
        };
        let emu = started(opts).await;
        let mut silent = std::net::TcpStream::connect(emu.addr()).unwrap();
        assert_eq!(served_status(&emu).await, 401);
        silent.set_nonblocking(true).unwrap();
        let mut buf = [0u8; 64];
        // 0: the emulator had closed it (a still-open connection would block: WouldBlock).
        assert_eq!(silent.read(&mut buf).unwrap(), 0);
        emu.stop().await;
    }

    /// Writes `request` on a connection of its own, shuts the write side (as `nc -N` does),
    /// and reads the whole answer.
    async fn half_closed_answer(emu: &Emulator, request: &[u8]) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut c = TcpStream::connect(emu.addr()).await.unwrap();
        c.write_all(request).await.unwrap();
        c.shutdown().await.unwrap();
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(20), c.read_to_end(&mut answer))
            .await
            .expect("answered before the test's own timeout")
            .unwrap();
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// A client that half-closes once its request is sent gets its answer (trial 73 D1:
    /// without `half_close`, most such POSTs of 200 KB got 0 bytes back).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_client_that_half_closes_after_its_request_is_answered() {
        let emu = started(Options::default()).await;
        let body = format!(
            r#"{{"model":"m","messages":[{{"role":"user","content":"{}"}}]}}"#,
            "a".repeat(200_000)
        );
        let request = format!(
            "POST /openai/v1/chat/completions HTTP/1.1\r\nHost: x\r\n\
             Authorization: Bearer tw-emulator-key-1\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        for _ in 0..5 {
            let answer = half_closed_answer(&emu, request.as_bytes()).await;
            assert!(answer.starts_with("HTTP/1.1 200"), "{answer:.200}");
        }
        emu.stop().await;
    }

    /// A body cut short of its Content-Length, or a malformed chunk, is a 400 naming the
    /// problem, not the 413 of a body over the limit (trial 73 D3; that 413 is
    /// `the_emulators_own_errors_are_json_in_each_targets_shape` in tests/probe_loopback.rs).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_malformed_body_is_answered_400_not_413() {
        let emu = started(Options::default()).await;
        let head = "POST /openai/v1/chat/completions HTTP/1.1\r\nHost: x\r\n";
        let short = format!("{head}Content-Length: 1000\r\n\r\n{{\"model\"");
        let bad_chunk = format!("{head}Transfer-Encoding: chunked\r\n\r\nzz\r\n{{}}\r\n0\r\n\r\n");
        let cut_chunk = format!("{head}Transfer-Encoding: chunked\r\n\r\n10\r\n{{\"mo");
        for request in [short, bad_chunk, cut_chunk] {
            let answer = half_closed_answer(&emu, request.as_bytes()).await;
            assert!(answer.starts_with("HTTP/1.1 400"), "{request:?}: {answer}");
            assert!(
                answer.contains("could not read the request body"),
                "{answer}"
            );
            assert!(!answer.contains("too large"), "{answer}");
        }
        emu.stop().await;
    }

    #[test]
    fn an_unspecified_listen_address_is_shown_as_loopback() {
        let a: SocketAddr = "0.0.0.0:8089".parse().unwrap();
        assert_eq!(client_addr(a).to_string(), "127.0.0.1:8089");
        let a: SocketAddr = "[::]:8089".parse().unwrap();
        assert_eq!(client_addr(a).to_string(), "[::1]:8089");
        let a: SocketAddr = "192.168.1.2:8089".parse().unwrap();
        assert_eq!(client_addr(a), a);
    }
}
