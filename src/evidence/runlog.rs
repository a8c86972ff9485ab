//! Run logs: JSON Lines, one file per run under `reports/runs/`, append-only.
//!
//! Line 1 is a [`RunHeader`], then one [`Observation`] per line, then a [`RunFooter`].
//! Every line passes through [`Redactor::redact`] before it is written, so a credential can
//! never reach a run log even if an error message echoes it back.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use regex::Regex;
use serde::{Deserialize, Serialize};

use super::{Observation, Verdict};
use crate::error::{Error, Place, Result};

/// One target as it was configured for a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TargetRecord {
    pub id: String,
    /// Base URL, or `in-process:<engine>@<version>`.
    pub endpoint: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// Auth mode: `none`, `preauth`, `key`, `sigv4`, `in-process`.
    pub auth: String,
    /// Why nothing was sent to this target in this run (e.g. `set OPENAI_API_KEY`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

/// First line of a run log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunHeader {
    /// Always `"header"`.
    #[serde(rename = "type")]
    pub record: String,
    pub run: String,
    pub toolwire_version: String,
    pub started: DateTime<Utc>,
    pub targets: Vec<TargetRecord>,
    /// Number of cases selected for the run (control included).
    pub cases: usize,
    /// True for a run against `toolwire emulate`: not evidence, never folded into the matrix.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub emulated: bool,
}

/// Last line of a run log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunFooter {
    /// Always `"footer"`.
    #[serde(rename = "type")]
    pub record: String,
    pub run: String,
    pub ended: DateTime<Utc>,
    /// target → verdict → count.
    pub counts: BTreeMap<String, BTreeMap<Verdict, usize>>,
    /// HTTP requests actually sent (0 for an offline run).
    pub requests: usize,
}

/// A run log read back.
#[derive(Debug, Clone)]
pub struct RunLog {
    pub path: PathBuf,
    pub header: RunHeader,
    pub observations: Vec<Observation>,
    /// `None` when the run was cut short (the log is still usable).
    pub footer: Option<RunFooter>,
}

/// A new run id from the start time: `20261130T044112Z` plus 4 random hex digits.
pub fn new_run_id(started: DateTime<Utc>) -> String {
    format!(
        "{}-{:04x}",
        started.format("%Y%m%dT%H%M%SZ"),
        fastrand::u16(..)
    )
}

/// A URL's userinfo: `scheme://` then everything up to the last `@` before the host's end
/// (`/`, `?`, `#`, whitespace, or a quote or backslash that ends a JSON string), so that a
/// password holding an unescaped `@` is taken whole. Group 1 is the scheme, kept.
static USERINFO: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
    Regex::new(r#"(?i)\b([a-z][a-z0-9+.\-]*://)[^/?#\s"\\<>]*@"#).expect("static pattern")
});

/// The text written for a URL's userinfo.
pub const USERINFO_MASK: &str = "***";

/// `text` with the userinfo of every URL in it (`http://user:password@host/...`, RFC 3986
/// §3.2.1, a credential) written as `http://***@host/...`; borrowed when there is none.
/// Everything else of the URL is kept, so an endpoint stays recognisable.
pub fn redact_userinfo(text: &str) -> Cow<'_, str> {
    if !text.contains('@') {
        return Cow::Borrowed(text);
    }
    USERINFO.replace_all(text, format!("${{1}}{USERINFO_MASK}@").as_str())
}

/// Whether `url` (or any URL in the text) carries userinfo (`user:password@` before the host).
pub fn has_userinfo(url: &str) -> bool {
    url.contains('@') && USERINFO.is_match(url)
}

/// Removes credentials from text before it is written anywhere.
///
/// It replaces every exact secret it was given (the keys read from the environment) and
/// anything shaped like a known key format (OpenAI `sk-…`, Google `AIza…`, AWS `AKIA…`,
/// `Bearer …`, `x-api-key`/`key=` values) with `[REDACTED]`, and a URL's userinfo
/// (`http://user:password@host`) with `***` ([`redact_userinfo`]).
#[derive(Debug, Clone)]
pub struct Redactor {
    secrets: Vec<String>,
    patterns: Vec<Regex>,
    /// The same patterns as one alternation: a line none of them matches (nearly every line)
    /// is scanned once instead of once per pattern (measured 0.15 µs against 0.5 µs for a
    /// run-log line).
    any_pattern: Regex,
}

/// Key-shaped tokens; a capture group 1, when present, is a prefix kept in the output.
const KEY_PATTERNS: [&str; 5] = [
    r"sk-[A-Za-z0-9_\-]{16,}",
    r"AIza[0-9A-Za-z_\-]{30,}",
    r"AKIA[0-9A-Z]{16}",
    r"(?i)(bearer\s+)[A-Za-z0-9._\-~+/]{8,}=*",
    r"(?i)((?:api[_-]?key|x-api-key|x-goog-api-key|key)\s*[=:]\s*)[A-Za-z0-9._\-]{8,}",
];

impl Default for Redactor {
    fn default() -> Self {
        Self::new(Vec::new())
    }
}

impl Redactor {
    /// A redactor for these exact secrets (empty and very short strings are ignored: they
    /// would redact ordinary text).
    pub fn new(secrets: Vec<String>) -> Self {
        let patterns = KEY_PATTERNS
            .iter()
            .map(|p| Regex::new(p).expect("static pattern"))
            .collect();
        let any_pattern = Regex::new(
            &KEY_PATTERNS
                .iter()
                .map(|p| format!("(?:{p})"))
                .collect::<Vec<_>>()
                .join("|"),
        )
        .expect("static patterns");
        let mut secrets: Vec<String> = secrets.into_iter().filter(|s| s.len() >= 6).collect();
        // Longest first, so that a key that contains another is removed whole.
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        Redactor {
            secrets,
            patterns,
            any_pattern,
        }
    }

    /// Adds one exact secret.
    pub fn add_secret(&mut self, secret: &str) {
        if secret.len() >= 6 && !self.secrets.iter().any(|s| s == secret) {
            self.secrets.push(secret.to_string());
            self.secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        }
    }

    /// `text` with every secret and key-shaped token replaced by `[REDACTED]` and every URL's
    /// userinfo by `***` (borrowed when there is nothing to replace, as for nearly every
    /// run-log line).
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = Cow::Borrowed(text);
        for s in &self.secrets {
            if out.contains(s.as_str()) {
                out = Cow::Owned(out.replace(s.as_str(), "[REDACTED]"));
            }
        }
        if has_userinfo(&out) {
            out = Cow::Owned(redact_userinfo(&out).into_owned());
        }
        if !self.any_pattern.is_match(&out) {
            return out;
        }
        let mut out = out.into_owned();
        for p in &self.patterns {
            let replaced = p.replace_all(&out, |c: &regex::Captures| match c.get(1) {
                Some(prefix) => format!("{}[REDACTED]", prefix.as_str()),
                None => "[REDACTED]".to_string(),
            });
            if let Cow::Owned(r) = replaced {
                out = r;
            }
        }
        Cow::Owned(out)
    }
}

/// Appends lines to one run log, redacting each.
pub struct RunLogWriter {
    path: PathBuf,
    file: std::io::BufWriter<std::fs::File>,
    redactor: Redactor,
    /// The line being written, before redaction.
    text: Vec<u8>,
}

impl RunLogWriter {
    /// Creates `dir/<run>.jsonl` (never overwrites) and writes the header.
    pub fn create(dir: &Path, header: &RunHeader, redactor: Redactor) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let path = dir.join(format!("{}.jsonl", header.run));
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        let mut w = RunLogWriter {
            path,
            // Room for a few hundred lines: a burst of answers is written in one go.
            file: std::io::BufWriter::with_capacity(64 * 1024, file),
            redactor,
            text: Vec::with_capacity(1024),
        };
        w.line(header)?;
        w.flush()?;
        Ok(w)
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one observation into the buffer; [`RunLogWriter::flush`] puts it in the file.
    pub fn observation(&mut self, o: &Observation) -> Result<()> {
        self.line(o)
    }

    /// Puts every line written so far in the file. The runner calls it whenever no further
    /// observation is waiting, so a run cut short keeps everything it observed while lines
    /// that arrive together share one write.
    pub fn flush(&mut self) -> Result<()> {
        self.file.flush().map_err(|e| Error::io(&self.path, e))
    }

    /// Writes the footer and flushes.
    pub fn finish(mut self, footer: &RunFooter) -> Result<PathBuf> {
        self.line(footer)?;
        self.flush()?;
        Ok(self.path)
    }

    fn line<T: Serialize>(&mut self, record: &T) -> Result<()> {
        // One buffer for every line: a line is serialized without growing a new string.
        self.text.clear();
        serde_json::to_writer(&mut self.text, record).map_err(|e| Error::Other(e.to_string()))?;
        let text = std::str::from_utf8(&self.text).map_err(|e| Error::Other(e.to_string()))?;
        let text = self.redactor.redact(text);
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.write_all(b"\n"))
            .map_err(|e| Error::io(&self.path, e))
    }
}

/// Reads one run log. Errors name the file and line.
pub fn read(path: &Path) -> Result<RunLog> {
    let limits = crate::json::Limits {
        max_bytes: 256 * 1024 * 1024,
        max_depth: 64,
    };
    let bytes = crate::json::read_capped(path, limits)?;
    let text = crate::json::check_utf8(path, &bytes)?;
    let mut header = None;
    let mut observations = Vec::new();
    let mut footer = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let lineno = i + 1;
        let place = || Place::LineColumn {
            line: lineno,
            column: 1,
        };
        let value = crate::json::parse_str(path, line, limits, i)?;
        let kind = value.get("type").and_then(|t| t.as_str()).unwrap_or("");
        let bad = |e: serde_json::Error| Error::input(path, place(), e.to_string());
        match kind {
            "header" if header.is_none() && lineno == 1 => {
                header = Some(serde_json::from_value(value).map_err(bad)?)
            }
            "observation" if header.is_some() && footer.is_none() => {
                observations.push(serde_json::from_value(value).map_err(bad)?)
            }
            "footer" if header.is_some() && footer.is_none() => {
                footer = Some(serde_json::from_value(value).map_err(bad)?)
            }
            other => {
                return Err(Error::input(
                    path,
                    place(),
                    format!(
                        "unexpected record type {other:?} here (a run log is header, observations, footer)"
                    ),
                ));
            }
        }
    }
    let header =
        header.ok_or_else(|| Error::input(path, Place::File, "empty run log (no header line)"))?;
    Ok(RunLog {
        path: path.to_path_buf(),
        header,
        observations,
        footer,
    })
}

/// Reads every `*.jsonl` in `dir`, sorted by file name (= by start time).
pub fn read_all(dir: &Path) -> Result<Vec<RunLog>> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Error::io(dir, e)),
    };
    files.sort();
    files.iter().map(|p| read(p)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::{Stage, digest};

    fn obs(error: &str) -> Observation {
        Observation {
            record: "observation".into(),
            run: "r1".into(),
            case: "control/baseline".into(),
            target: "openai/chat".into(),
            endpoint: "https://api.openai.com/v1".into(),
            model: Some("gpt-test".into()),
            time: "2026-11-30T00:00:00Z".parse().unwrap(),
            request_digest: digest(b"{}"),
            status: Some(401),
            verdict: Verdict::Inconclusive,
            stage: Stage::Auth,
            error: Some(error.into()),
            path: None,
            latency_ms: 1.5,
            note: None,
        }
    }

    #[test]
    fn canary_key_never_reaches_the_file() {
        let canary = "tw-canary-9f8e7d6c5b4a";
        let dir = tempfile::tempdir().unwrap();
        let header = RunHeader {
            record: "header".into(),
            run: "r1".into(),
            toolwire_version: "0".into(),
            started: "2026-11-30T00:00:00Z".parse().unwrap(),
            targets: vec![],
            cases: 1,
            emulated: false,
        };
        let mut w =
            RunLogWriter::create(dir.path(), &header, Redactor::new(vec![canary.into()])).unwrap();
        // A fake key in OpenAI's shape, built at run time so no key-shaped literal is tracked.
        let shaped = format!("sk-{}", "abcdefghijklmnopqrstuvwx");
        w.observation(&obs(&format!(
            "Incorrect API key provided: {canary}. Also {shaped} and Bearer abcdefghijk"
        )))
        .unwrap();
        let path = w
            .finish(&RunFooter {
                record: "footer".into(),
                run: "r1".into(),
                ended: "2026-11-30T00:00:01Z".parse().unwrap(),
                counts: BTreeMap::new(),
                requests: 1,
            })
            .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains(canary), "{text}");
        assert!(!text.contains("sk-abcdefghijklmnop"), "{text}");
        assert!(!text.contains("abcdefghijk\""), "{text}");
        assert!(
            text.contains("Incorrect API key provided: [REDACTED]"),
            "{text}"
        );
        let log = read(&path).unwrap();
        assert_eq!(log.observations.len(), 1);
        assert!(log.footer.is_some());
    }

    #[test]
    fn every_key_shape_is_redacted_and_other_text_is_kept() {
        let r = Redactor::default();
        // Key-shaped fakes, built at run time so no key-shaped literal is tracked.
        let google = format!("AIza{}", "x".repeat(35));
        let aws = format!("AKIA{}", "ABCDEFGHIJKLMNOP");
        let line = format!(
            "k1 {google} k2 {aws} x-goog-api-key: abcdefgh123 API_KEY=zyxwvuts987 BEARER tok.en-12345"
        );
        assert_eq!(
            r.redact(&line),
            "k1 [REDACTED] k2 [REDACTED] x-goog-api-key: [REDACTED] API_KEY=[REDACTED] BEARER [REDACTED]"
        );
        let plain = r#"{"case":"keywords/additional-properties-false","error":"Invalid schema"}"#;
        assert_eq!(r.redact(plain), plain);
        // A URL's userinfo is a credential: masked, the rest of the URL kept.
        assert_eq!(
            r.redact(r#"{"endpoint":"http://tw-user:tw-pass@127.0.0.1:9/v1/chat/completions"}"#),
            r#"{"endpoint":"http://***@127.0.0.1:9/v1/chat/completions"}"#
        );
        assert_eq!(
            r.redact("error sending request for url (HTTPS://tw-user@api.example.com/v1)"),
            "error sending request for url (HTTPS://***@api.example.com/v1)"
        );
        // A password with an unescaped `@` goes whole; an `@` after the host is kept.
        assert_eq!(
            r.redact("http://u:p@ss@host.example/x?to=a@b.example"),
            "http://***@host.example/x?to=a@b.example"
        );
        for kept in [
            "https://host.example/a@b",
            "https://host.example?q=a@b",
            "mail me at a@b.example",
            r#"{"url":"https://host.example","mail":"a@b"}"#,
        ] {
            assert_eq!(r.redact(kept), kept);
        }
    }

    /// A base URL given with userinfo (`OPENAI_BASE_URL=http://user:pw@host/v1`) reaches the
    /// writer only through the endpoint fields and any error quoting the URL: neither the
    /// user nor the password is written, with or without secrets to redact.
    #[test]
    fn a_base_urls_userinfo_never_reaches_the_file() {
        let (user, password) = ("tw-user-3141", "tw-pass-2718");
        let endpoint = format!("http://{user}:{password}@127.0.0.1:9/v1/chat/completions");
        assert!(has_userinfo(&endpoint));
        assert!(!has_userinfo("http://127.0.0.1:9/v1/chat/completions"));
        let dir = tempfile::tempdir().unwrap();
        let header = RunHeader {
            record: "header".into(),
            run: "r2".into(),
            toolwire_version: "0".into(),
            started: "2026-11-30T00:00:00Z".parse().unwrap(),
            targets: vec![TargetRecord {
                id: "openai/chat".into(),
                endpoint: endpoint.clone(),
                model: Some("gpt-test".into()),
                api_version: None,
                auth: "key".into(),
                skipped: None,
            }],
            cases: 1,
            emulated: false,
        };
        let mut w = RunLogWriter::create(dir.path(), &header, Redactor::default()).unwrap();
        let mut o = obs(&format!("error sending request for url ({endpoint})"));
        o.endpoint = endpoint.clone();
        w.observation(&o).unwrap();
        let path = w
            .finish(&RunFooter {
                record: "footer".into(),
                run: "r2".into(),
                ended: "2026-11-30T00:00:01Z".parse().unwrap(),
                counts: BTreeMap::new(),
                requests: 1,
            })
            .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains(user), "{text}");
        assert!(!text.contains(password), "{text}");
        let log = read(&path).unwrap();
        let masked = "http://***@127.0.0.1:9/v1/chat/completions";
        assert_eq!(log.header.targets[0].endpoint, masked);
        assert_eq!(log.observations[0].endpoint, masked);
        assert!(
            log.observations[0]
                .error
                .as_deref()
                .unwrap()
                .contains(masked)
        );
    }

    #[test]
    fn the_digest_is_sha256_in_lower_hex() {
        assert_eq!(
            digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_bad_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.jsonl");
        std::fs::write(&path, "{\"type\":\"observation\"}\n").unwrap();
        let err = read(&path).unwrap_err().to_string();
        assert!(
            err.contains("x.jsonl: line 1, column 1: unexpected record type \"observation\""),
            "{err}"
        );
    }
}
