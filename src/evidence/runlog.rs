//! Run logs: JSON Lines, one file per run under `reports/runs/`, append-only.
//!
//! Line 1 is a [`RunHeader`], then one [`Observation`] per line, then a [`RunFooter`].
//! Every line passes through [`Redactor::redact_record`] before it is written, so a
//! credential can never reach a run log even if an error message echoes it back. Redaction
//! is structural: it rewrites the string values of free-text fields (answers' error texts,
//! notes, paths, endpoints, models, skip reasons), never an enumeration or id (verdict,
//! stage, case, target, run, digest, time), and never the serialized line, so a key that
//! happens to equal ordinary text can neither corrupt the JSON nor the log's meaning.

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

impl TargetRecord {
    /// Whether the target was sent a credential (`key` or `sigv4`): an auth failure then
    /// means the credential was refused, where a keyless probe's is expected.
    pub fn sends_credential(&self) -> bool {
        matches!(self.auth.as_str(), "key" | "sigv4")
    }
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
    /// The 1-based line of each observation, in the order of `observations`: where a
    /// warning about one points.
    pub lines: Vec<usize>,
    /// `None` when the run was cut short (the log is still usable).
    pub footer: Option<RunFooter>,
    /// The 1-based number of a last line that was cut short mid-write (a probe killed while
    /// writing: no newline after it and not a whole record), which was left out; callers
    /// warn about it ([`read`]).
    pub cut_line: Option<usize>,
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
/// It replaces every exact secret it was given (the keys read from the environment), in the
/// forms a provider may echo it (as given, percent-encoded, hex, base64 and base64url), and
/// anything shaped like a known key format (OpenAI `sk-…`, Google `AIza…`, AWS `AKIA…`,
/// `Bearer …`, `x-api-key`/`key=` values) with `[REDACTED]`, and a URL's userinfo
/// (`http://user:password@host`) with `***` ([`redact_userinfo`]).
#[derive(Debug, Clone)]
pub struct Redactor {
    /// Every form of every secret, longest first.
    secrets: Vec<String>,
    /// The same forms as they appear inside a JSON string (escaped), for the quick check of
    /// a serialized line ([`Redactor::may_hold_secret`]).
    escaped: Vec<String>,
    /// The secrets long enough to be echoed in part ([`PARTIAL_FROM`]): a provider's "key
    /// provided: sk-test-cana..." shows the start of the key, which is key material too.
    partial: Vec<String>,
    /// Every run of [`PARTIAL_INFIX`] characters of each secret of `partial`, as one
    /// alternation: a relay's "masked" echo (`sk-proj-****cdefSECRETzz`) or a tail of the key
    /// shows its middle or end, not its start (trial 49).
    infix: Option<Regex>,
    /// Settings that are no keys but may be private (a Google project id, an Azure resource
    /// endpoint, a base URL), as given, each with the placeholder naming its variable
    /// (`{GOOGLE_CLOUD_PROJECT}`): a scheduled run's log is published in a pull request.
    private: Vec<(String, String)>,
    /// The forms of `private` the text holds once its keys are redacted, longest first, each
    /// with its placeholder: the value as given, and the value as [`Redactor::redact_keys`]
    /// writes it when that differs (a base URL with a key-shaped or known key in its path,
    /// `…/acct/sk-live-…`, is `…/acct/[REDACTED]` by the time it is looked for; trial 63 D5).
    settings: Vec<(String, String)>,
    /// The forms of `settings` as they appear inside a JSON string, for
    /// [`Redactor::may_hold_secret`].
    settings_escaped: Vec<String>,
    patterns: Vec<Regex>,
    /// The same patterns as one alternation: a line none of them matches (nearly every line)
    /// is scanned once instead of once per pattern (measured 0.15 µs against 0.5 µs for a
    /// run-log line).
    any_pattern: Regex,
}

/// Key-shaped tokens; a capture group 1, when present, is a prefix kept in the output.
const KEY_PATTERNS: [&str; 8] = [
    // Not after a lower-case letter: `desk-assistant-mcp-server` or `task-management-server`
    // in a report's URL is no key (documented evidence holding one would be refused), while
    // `%22sk-…` or `=sk-…` still is.
    r"(^|[^a-z])sk-[A-Za-z0-9_\-]{16,}",
    r"AIza[0-9A-Za-z_\-]{30,}",
    r"AKIA[0-9A-Z]{16}",
    // GitHub tokens (`ghp_`, `gho_`, ...: a model id or base URL is where one gets pasted)
    // and Groq keys.
    r"\bgh[pousr]_[A-Za-z0-9]{30,}",
    r"\bgsk_[A-Za-z0-9]{20,}",
    // xAI keys begin `xai-` (xAI console; third-party setup guides say so, e.g.
    // https://www.mintlify.com/stat-guy/grok-x/configuration, read 2026-12-05); a long run
    // after it, so that a word such as `xai-additionalproperties` in a report id is none.
    r"(^|[^a-z])xai-[A-Za-z0-9]{32,}",
    r"(?i)(bearer\s+)[A-Za-z0-9._\-~+/]{8,}=*",
    // Last: [`Redactor::redact_patterns`] takes its token for a key only with a digit in it.
    r"(?i)((?:api[_-]?key|x-api-key|x-goog-api-key|key)\s*[=:]\s*)[A-Za-z0-9._\-]{8,}",
];

/// Shortest secret form redacted: shorter strings would redact ordinary text.
const MIN_SECRET: usize = 6;

/// A secret of at least this many bytes is also redacted where only its start is written:
/// any run of [`PARTIAL_MIN`] or more of its first characters (a provider's error echoing a
/// prefix of the key).
const PARTIAL_FROM: usize = 16;

/// The shortest start of a secret redacted on its own: 8 characters, the length of the
/// public prefixes (`sk-proj-`), so that an echo adding a single character of the key is
/// caught (the public prefix alone is redacted too, which hides nothing).
const PARTIAL_MIN: usize = 8;

/// The shortest run from the middle or end of a secret redacted on its own: longer than a
/// prefix's, as a run that need not start the key could otherwise be a word of ordinary
/// text (`emulator` in the emulator's keys); OpenAI's own masked echo shows 4.
const PARTIAL_INFIX: usize = 10;

/// Fields of run-log records that are enumerations, ids, digests, times or numbers: never
/// rewritten by the redactor (a key equal to `accepted` must not turn a verdict into
/// `[REDACTED]`). Their values come from toolwire itself (the case catalog, the target
/// registry, the run's clock and digests), never from a provider's answer or a user's
/// setting, so no credential can be in them. Every other string value is free text and
/// redacted. `counts` holds target ids and verdicts only.
const STRUCTURAL_FIELDS: [&str; 17] = [
    "type",
    "run",
    "case",
    "target",
    "id",
    "verdict",
    "stage",
    "request_digest",
    "case_digest",
    "time",
    "started",
    "ended",
    "toolwire_version",
    "auth",
    "counts",
    "cases",
    "requests",
];

impl Default for Redactor {
    fn default() -> Self {
        Self::new(Vec::new())
    }
}

/// `text` as it appears inside a JSON string (escaped, without the quotes).
fn json_escaped(text: &str) -> String {
    let json = serde_json::to_string(text).unwrap_or_default();
    json.trim_matches('"').to_string()
}

/// `bytes` in base64 (RFC 4648 §4, `url`: §5), with `=` padding.
fn base64(bytes: &[u8], url: bool) -> String {
    let alphabet: &[u8; 64] = if url {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    } else {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    };
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(alphabet[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The characters of `secret`'s base64 that stay the same whatever bytes surround it, at each
/// of the three byte alignments it can start at: a provider that base64-encodes a larger text
/// holding the key (`Basic` credentials, `key: sk-…`) writes one of these inside its output.
/// A character that mixes the key's bits with a neighbour's is left out, at either end.
fn base64_cores(secret: &[u8], url: bool) -> Vec<String> {
    // Leading characters that hold bits of the `lead` bytes before the secret.
    const SKIP: [usize; 3] = [0, 2, 3];
    (0..3)
        .map(|lead| {
            let mut bytes = vec![0u8; lead];
            bytes.extend_from_slice(secret);
            let b = base64(&bytes, url);
            let b = b.trim_end_matches('=');
            // A last group short of 3 bytes ends in a character holding the next byte's bits.
            let end = if bytes.len() % 3 == 0 {
                b.len()
            } else {
                b.len() - 1
            };
            b.get(SKIP[lead]..end).unwrap_or_default().to_string()
        })
        .collect()
}

/// The forms in which a provider may echo `secret`: as given, percent-encoded (only what
/// must be, and every non-alphanumeric byte, in upper- and lower-case hex), its bytes in
/// lower- and upper-case hex, base64 and base64url (with and without padding, and inside a
/// longer encoded text: [`base64_cores`]).
fn secret_forms(secret: &str) -> Vec<String> {
    use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
    const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~');
    let mut forms = vec![secret.to_string()];
    for set in [UNRESERVED, NON_ALPHANUMERIC] {
        let encoded = utf8_percent_encode(secret, set).to_string();
        // The same with lower-case hex digits after each `%`, the key's own letters kept.
        let mut lower = String::with_capacity(encoded.len());
        let mut hex_left = 0;
        for c in encoded.chars() {
            if c == '%' {
                hex_left = 2;
                lower.push(c);
            } else if hex_left > 0 {
                hex_left -= 1;
                lower.push(c.to_ascii_lowercase());
            } else {
                lower.push(c);
            }
        }
        forms.push(encoded);
        forms.push(lower);
    }
    // Hex, as a byte dump of the request echoes it (no case is standard: both are written).
    let hex: String = secret.bytes().map(|b| format!("{b:02x}")).collect();
    forms.push(hex.to_ascii_uppercase());
    forms.push(hex);
    for url in [false, true] {
        let b = base64(secret.as_bytes(), url);
        forms.push(b.trim_end_matches('=').to_string());
        forms.push(b);
        forms.extend(base64_cores(secret.as_bytes(), url));
    }
    forms.retain(|f| f.len() >= MIN_SECRET);
    forms.sort();
    forms.dedup();
    forms
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
        let mut r = Redactor {
            secrets: Vec::new(),
            escaped: Vec::new(),
            partial: Vec::new(),
            infix: None,
            private: Vec::new(),
            settings: Vec::new(),
            settings_escaped: Vec::new(),
            patterns,
            any_pattern,
        };
        for s in secrets {
            r.add_secret(&s);
        }
        r
    }

    /// A redactor for every credential set in the process environment under a variable a
    /// target reads its key from ([`crate::target::secret::known_secrets`]), for output that
    /// may quote a provider's answer (`explain`) or an error: the same redaction run logs get.
    pub fn from_env() -> Self {
        Self::new(crate::target::secret::known_secrets(
            &crate::target::wire::ProcessEnv,
        ))
    }

    /// Redacts every string of a JSON document in place, object keys included ([`Redactor::redact`]),
    /// for output that is not a run log (no field is structural there).
    pub fn redact_json(&self, value: &mut serde_json::Value) {
        use serde_json::Value;
        match value {
            Value::String(s) => {
                if let Cow::Owned(r) = self.redact(s) {
                    *s = r;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.redact_json(v)),
            Value::Object(map) => {
                let old = std::mem::take(map);
                for (k, mut v) in old {
                    self.redact_json(&mut v);
                    map.insert(self.redact(&k).into_owned(), v);
                }
            }
            _ => {}
        }
    }

    /// Adds one exact secret (and its encoded forms).
    pub fn add_secret(&mut self, secret: &str) {
        if secret.len() < MIN_SECRET {
            return;
        }
        for form in secret_forms(secret) {
            if !self.secrets.contains(&form) {
                self.escaped.push(json_escaped(&form));
                self.secrets.push(form);
            }
        }
        // Longest first, so that a key that contains another is removed whole.
        self.secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        if secret.len() >= PARTIAL_FROM
            && secret.is_char_boundary(PARTIAL_MIN)
            && !self.partial.iter().any(|p| p == secret)
        {
            self.partial.push(secret.to_string());
            let mut runs: Vec<String> = Vec::new();
            for s in &self.partial {
                for (i, _) in s.char_indices() {
                    if let Some(run) = s.get(i..).and_then(|r| r.get(..PARTIAL_INFIX))
                        && !runs.iter().any(|x| x == run)
                    {
                        runs.push(regex::escape(run));
                    }
                }
            }
            // Literal alternatives: the regex crate searches them all at once.
            self.infix = Regex::new(&runs.join("|")).ok();
        }
        // A setting holding this key is now written differently once keys are redacted.
        self.settings_forms();
    }

    /// Adds a setting read from the variable `var`: its value, without a trailing `/` (a
    /// base URL is written without it, and the `/` that follows it is kept), is written as
    /// `{VAR}`. Values shorter than a key's minimum are left alone: they would replace
    /// ordinary text.
    pub fn add_setting(&mut self, var: &str, value: &str) {
        let form = value.trim().trim_end_matches('/');
        if form.len() < MIN_SECRET || self.private.iter().any(|(v, _)| v == form) {
            return;
        }
        self.private.push((form.to_string(), format!("{{{var}}}")));
        self.settings_forms();
    }

    /// Rebuilds `settings` (and their escaped forms) from `private` and the keys known now:
    /// each value as given, and as it reads once its keys are redacted when that differs and
    /// still holds at least [`MIN_SECRET`] characters of its own (a value that is all key is
    /// `[REDACTED]`, which stands for any key, not for the setting).
    fn settings_forms(&mut self) {
        let mut forms: Vec<(String, String)> = Vec::new();
        for (value, placeholder) in &self.private {
            let redacted = self.redact_keys(Cow::Borrowed(value.as_str())).into_owned();
            let own = redacted.replace("[REDACTED]", "").len();
            let keyed = (redacted != *value && own >= MIN_SECRET).then_some(redacted);
            for form in std::iter::once(value.clone()).chain(keyed) {
                if !forms.iter().any(|(f, _)| *f == form) {
                    forms.push((form, placeholder.clone()));
                }
            }
        }
        self.settings_escaped = forms.iter().map(|(f, _)| json_escaped(f)).collect();
        forms.sort_by_key(|(v, _)| std::cmp::Reverse(v.len()));
        self.settings = forms;
    }

    /// `text` with every run of [`PARTIAL_INFIX`] or more characters from anywhere in a
    /// secret of `self.partial` replaced by `[REDACTED]`, each grown to as long as the text
    /// goes on agreeing with the secret on both sides.
    fn redact_infix<'a>(&self, text: Cow<'a, str>) -> Cow<'a, str> {
        let Some(infix) = self.infix.as_ref().filter(|r| r.is_match(&text)) else {
            return text;
        };
        let bytes = text.as_bytes();
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for m in infix.find_iter(&text) {
            let Some((secret, at)) = self
                .partial
                .iter()
                .find_map(|s| s.find(m.as_str()).map(|at| (s.as_bytes(), at)))
            else {
                continue;
            };
            let (mut start, mut from) = (m.start(), at);
            while start > 0 && from > 0 && bytes[start - 1] == secret[from - 1] {
                start -= 1;
                from -= 1;
            }
            let (mut end, mut to) = (m.end(), at + m.len());
            while end < bytes.len() && to < secret.len() && bytes[end] == secret[to] {
                end += 1;
                to += 1;
            }
            // Grown byte by byte: a span cut inside a character is widened to its edges.
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            while !text.is_char_boundary(end) {
                end += 1;
            }
            match spans.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => spans.push((start, end)),
            }
        }
        let mut out = String::with_capacity(text.len());
        let mut kept = 0;
        for (start, end) in spans {
            out.push_str(&text[kept..start]);
            out.push_str("[REDACTED]");
            kept = end;
        }
        out.push_str(&text[kept..]);
        Cow::Owned(out)
    }

    /// `text` with every run of [`PARTIAL_MIN`] or more characters that a secret of
    /// `self.partial` starts with replaced by `[REDACTED]` (each run as long as it matches).
    fn redact_partial<'a>(&self, text: Cow<'a, str>) -> Cow<'a, str> {
        let mut out = self.redact_infix(text);
        for secret in &self.partial {
            let start = &secret[..PARTIAL_MIN];
            if !out.contains(start) {
                continue;
            }
            let mut done = String::with_capacity(out.len());
            let mut rest: &str = &out;
            while let Some(at) = rest.find(start) {
                let after = &rest[at..];
                let len = after
                    .bytes()
                    .zip(secret.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                // A match cut inside a character is shortened to the boundary before it.
                let len = (PARTIAL_MIN..=len)
                    .rev()
                    .find(|&n| after.is_char_boundary(n))
                    .unwrap_or(PARTIAL_MIN);
                done.push_str(&rest[..at]);
                done.push_str("[REDACTED]");
                rest = &after[len..];
            }
            done.push_str(rest);
            out = Cow::Owned(done);
        }
        out
    }

    /// `text` with every secret and key-shaped token replaced by `[REDACTED]` and every URL's
    /// userinfo by `***` (borrowed when there is nothing to replace, as for nearly every
    /// run-log line).
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        // Keys first, whatever the settings are: a setting that is part of a key would
        // otherwise cut the key into pieces the key redaction no longer finds. A setting
        // holding a key is looked for in its redacted form too (`settings_forms`).
        let mut out = self.redact_keys(Cow::Borrowed(text));
        for (value, placeholder) in &self.settings {
            if out.contains(value.as_str()) {
                out = Cow::Owned(out.replace(value.as_str(), placeholder));
            }
        }
        if has_userinfo(&out) {
            out = Cow::Owned(redact_userinfo(&out).into_owned());
        }
        out
    }

    /// `text` with every secret, part of a secret and key-shaped token replaced by
    /// `[REDACTED]`: [`Redactor::redact`] without the settings and the userinfo.
    fn redact_keys<'a>(&self, text: Cow<'a, str>) -> Cow<'a, str> {
        let mut out = text;
        for s in &self.secrets {
            if out.contains(s.as_str()) {
                out = Cow::Owned(out.replace(s.as_str(), "[REDACTED]"));
            }
        }
        // Key-shaped tokens before the parts of known keys: another key that shares the
        // known one's public start (`sk-proj-`) would otherwise lose only that start, and the
        // rest would no longer look like a key (trial 49).
        out = self.redact_patterns(out);
        self.redact_partial(out)
    }

    /// `text` with every key-shaped token ([`KEY_PATTERNS`]) replaced by `[REDACTED]`, the
    /// prefix a pattern captures kept.
    fn redact_patterns<'a>(&self, text: Cow<'a, str>) -> Cow<'a, str> {
        if !self.any_pattern.is_match(&text) {
            return text;
        }
        let mut out = text.into_owned();
        let last = self.patterns.len() - 1;
        for (i, p) in self.patterns.iter().enumerate() {
            let replaced = p.replace_all(&out, |c: &regex::Captures| {
                let whole = c.get(0).map_or("", |m| m.as_str());
                let prefix = c.get(1).map_or("", |m| m.as_str());
                // After `key:` a word without a digit is a keyword or a name, not a key
                // (trial 50 D12: "unknown key: additionalProperties" lost its keyword).
                if i == last && !whole[prefix.len()..].bytes().any(|b| b.is_ascii_digit()) {
                    return whole.to_string();
                }
                format!("{prefix}[REDACTED]")
            });
            if let Cow::Owned(r) = replaced {
                out = r;
            }
        }
        Cow::Owned(out)
    }

    /// Whether a serialized line may hold something [`Redactor::redact_record`] would
    /// change (a secret in any form, escaped as JSON writes it; a URL's userinfo; a
    /// key-shaped token). False for nearly every line, which is then written as it is.
    pub fn may_hold_secret(&self, line: &str) -> bool {
        self.escaped.iter().any(|s| line.contains(s.as_str()))
            || self
                .settings_escaped
                .iter()
                .any(|s| line.contains(s.as_str()))
            || self
                .partial
                .iter()
                .any(|s| line.contains(&s[..PARTIAL_MIN]))
            || self.infix.as_ref().is_some_and(|r| r.is_match(line))
            || has_userinfo(line)
            || self.any_pattern.is_match(line)
    }

    /// Redacts a run-log record in place: every string value ([`Redactor::redact`]) except
    /// those of the structural fields (ids, enumerations, digests, times: see the module
    /// doc), at any depth. Object keys are kept. The result is still the same record shape.
    pub fn redact_record(&self, value: &mut serde_json::Value) {
        use serde_json::Value;
        match value {
            Value::String(s) => {
                if let Cow::Owned(r) = self.redact(s) {
                    *s = r;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.redact_record(v)),
            Value::Object(map) => {
                for (k, v) in map.iter_mut() {
                    if !STRUCTURAL_FIELDS.contains(&k.as_str()) {
                        self.redact_record(v);
                    }
                }
            }
            _ => {}
        }
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
        if self.redactor.may_hold_secret(text) {
            // Redacted as a record, field by field, then serialized again: the line stays
            // valid JSON of the same shape whatever the secret is.
            let mut value =
                serde_json::to_value(record).map_err(|e| Error::Other(e.to_string()))?;
            self.redactor.redact_record(&mut value);
            self.text.clear();
            serde_json::to_writer(&mut self.text, &value)
                .map_err(|e| Error::Other(e.to_string()))?;
        }
        self.file
            .write_all(&self.text)
            .and_then(|()| self.file.write_all(b"\n"))
            .map_err(|e| Error::io(&self.path, e))
    }
}

/// The redaction applied to every run log read: key shapes and URL userinfo only, so that
/// what a log reads as does not depend on the keys of the environment reading it.
static KEY_SHAPES: std::sync::LazyLock<Redactor> = std::sync::LazyLock::new(Redactor::default);

/// Refuses `text`, the contents of `path`, at its first line holding key-shaped text (an API
/// key, a token, a URL's userinfo), for files whose text is published as it is (documented
/// evidence, a profiles file). The error does not repeat the key. The whole text is scanned
/// once first: nearly every file holds none, and the built-in profiles (1 MB) are read by
/// every command.
pub(crate) fn refuse_key_shaped(path: &Path, text: &str) -> Result<()> {
    if !KEY_SHAPES.may_hold_secret(text) {
        return Ok(());
    }
    match text.lines().position(|l| KEY_SHAPES.may_hold_secret(l)) {
        Some(i) => Err(Error::input(
            path,
            Place::LineColumn {
                line: i + 1,
                column: 1,
            },
            "key-shaped text (an API key, a token, or a URL's user:password@): write it as \
             [REDACTED]",
        )),
        None => Ok(()),
    }
}

/// A run log as read: a log with its header, or a file a probe killed at its start left
/// before its header line was whole.
#[derive(Debug)]
pub enum Read {
    Log(Box<RunLog>),
    /// No complete header line: an empty file, or a lone first line cut short mid-write (no
    /// newline after it, JSON that ends early). Nothing was observed in it. The text says
    /// which of the two.
    Unstarted(String),
}

impl RunLog {
    /// Whether an observation is noted as an answer of `toolwire emulate` (it carried
    /// [`crate::probe::http::EMULATOR_HEADER`], or its target was found served by it): such
    /// answers are never evidence, whatever the header says (trial 77 D2: a relay in front of
    /// the emulator that answers its question 404 but passes its answers through).
    pub fn holds_emulated_answers(&self) -> bool {
        self.observations.iter().any(|o| {
            o.note
                .as_deref()
                .is_some_and(|n| n.starts_with(crate::probe::http::EMULATED_NOTE))
        })
    }

    /// The first observation noted as a stand-in's answer
    /// ([`crate::probe::http::STAND_IN_NOTE`]: a hosted target whose base URL was not the
    /// provider's own host), refused as evidence whatever the header says.
    pub fn stand_in_answer(&self) -> Option<&Observation> {
        use crate::probe::http::{STAND_IN_NOTE, not_evidence_mark};
        (self.observations.iter())
            .find(|o| not_evidence_mark(o.note.as_deref()) == Some(STAND_IN_NOTE))
    }
}

/// Reads one run log, redacted as it is written ([`Redactor::redact_record`], key shapes and
/// URL userinfo). Errors name the file and line; a log with no complete header line is an
/// error here too ([`read_or_unstarted`] tells it apart).
pub fn read(path: &Path) -> Result<RunLog> {
    match read_or_unstarted(path)? {
        Read::Log(log) => Ok(*log),
        Read::Unstarted(why) => Err(Error::input(path, Place::File, why)),
    }
}

/// As [`read`], but a file a probe killed at its start left (empty, or its lone first line
/// cut short mid-write) is [`Read::Unstarted`], not an error: it would otherwise block every
/// later `rules` and `probe` until someone deletes it. A bad line anywhere else, and a
/// complete first line that is not a header, are still errors.
pub fn read_or_unstarted(path: &Path) -> Result<Read> {
    let limits = crate::json::Limits {
        max_bytes: 256 * 1024 * 1024,
        max_depth: 64,
    };
    crate::project::refuse_special_file(path)?;
    let bytes = crate::json::read_capped(path, limits)?;
    // A writer killed mid-line leaves a last line without its newline, possibly ending
    // inside a UTF-8 sequence: the incomplete sequence is dropped with the line below.
    let complete = bytes.ends_with(b"\n");
    let bytes = match std::str::from_utf8(&bytes) {
        Err(e) if !complete && e.error_len().is_none() => &bytes[..e.valid_up_to()],
        _ => &bytes[..],
    };
    let text = crate::json::check_utf8(path, bytes)?;
    let mut header = None;
    let mut observations = Vec::new();
    let mut lines = Vec::new();
    let mut footer = None;
    let mut cut_line = None;
    let now = Utc::now();
    let mut seen: std::collections::HashMap<(String, String, DateTime<Utc>), usize> =
        std::collections::HashMap::new();
    if text.trim().is_empty() {
        return Ok(Read::Unstarted(format!(
            "{} bytes, no header line: a probe killed at its start; nothing was observed",
            bytes.len()
        )));
    }
    let last = text.lines().count();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let lineno = i + 1;
        let place = || Place::LineColumn {
            line: lineno,
            column: 1,
        };
        // Only the last line, only without a newline after it, and only when it is JSON
        // that ended early: corruption anywhere else is still an error.
        if lineno == last
            && !complete
            && header.is_some()
            && serde_json::from_str::<serde::de::IgnoredAny>(line).is_err_and(|e| e.is_eof())
        {
            cut_line = Some(lineno);
            break;
        }
        // The header itself cut short, as the only line: killed while writing it.
        if lineno == last
            && !complete
            && header.is_none()
            && serde_json::from_str::<serde::de::IgnoredAny>(line).is_err_and(|e| e.is_eof())
        {
            return Ok(Read::Unstarted(format!(
                "its only line (the header) was cut short mid-write at byte {}: a probe killed \
                 at its start; nothing was observed",
                line.len()
            )));
        }
        let mut value = crate::json::parse_str(path, line, limits, i)?;
        // A log written by hand, by an older toolwire or on another machine (whose keys this
        // one does not know) may hold key-shaped text: redacted as it is read, so that it
        // reaches no generated file and no output.
        if KEY_SHAPES.may_hold_secret(line) {
            KEY_SHAPES.redact_record(&mut value);
        }
        if !value.is_object() {
            return Err(Error::input(
                path,
                place(),
                "not a JSON object (each line of a run log is one record)",
            ));
        }
        let kind = value.get("type").and_then(|t| t.as_str()).unwrap_or("");
        // serde's message for a bad time ("input is out of range") names no field.
        for field in ["started", "time", "ended"] {
            if let Some(serde_json::Value::String(t)) = value.get(field)
                && let Err(e) = DateTime::parse_from_rfc3339(t)
            {
                return Err(Error::input(
                    path,
                    Place::LinePointer {
                        line: lineno,
                        pointer: format!("/{field}"),
                    },
                    format!("{t:?} is not an RFC 3339 date-time: {e}"),
                ));
            }
        }
        // A field's error names the field's pointer too: serde's message names only the type
        // it expected.
        let bad = |(pointer, e): (String, serde_json::Error)| {
            let at = if pointer.is_empty() {
                place()
            } else {
                Place::LinePointer {
                    line: lineno,
                    pointer,
                }
            };
            Error::input(path, at, e.to_string())
        };
        // Evidence is dated by these times: one not yet come (a wrong clock, an edit) would
        // make the cell the newest evidence until that date.
        let not_future = |field: &str, t: DateTime<Utc>| {
            if t > now + chrono::Duration::days(1) {
                Err(Error::input(
                    path,
                    place(),
                    format!("{field} {t} is in the future (the clock that wrote it was wrong?)"),
                ))
            } else {
                Ok(())
            }
        };
        // Lines of another run pasted in would be folded as this run's.
        let same_run = |run: &str| match &header {
            Some(RunHeader { run: own, .. }) if own != run => Err(Error::input(
                path,
                place(),
                format!("record of run {run:?} in the log of run {own:?}"),
            )),
            _ => Ok(()),
        };
        match kind {
            "header" if header.is_none() && lineno == 1 => {
                let h: RunHeader = crate::json::from_value_at(value).map_err(bad)?;
                not_future("started", h.started)?;
                header = Some(h)
            }
            "observation" if header.is_some() && footer.is_none() => {
                let o: Observation = crate::json::from_value_at(value).map_err(bad)?;
                same_run(&o.run)?;
                not_future("time", o.time)?;
                // One probe is one observation: the same line twice (a bad merge, a paste)
                // would count as the second sighting that confirms a changed verdict.
                if let Some(first) = seen.insert((o.case.clone(), o.target.clone(), o.time), lineno)
                {
                    return Err(Error::input(
                        path,
                        place(),
                        format!(
                            "observation of {} on {} at {} repeats line {first} (one probe is \
                             one observation)",
                            o.case, o.target, o.time
                        ),
                    ));
                }
                observations.push(o);
                lines.push(lineno)
            }
            "footer" if header.is_some() && footer.is_none() => {
                let f: RunFooter = crate::json::from_value_at(value).map_err(bad)?;
                same_run(&f.run)?;
                not_future("ended", f.ended)?;
                footer = Some(f)
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
    Ok(Read::Log(Box::new(RunLog {
        path: path.to_path_buf(),
        header,
        observations,
        lines,
        footer,
        cut_line,
    })))
}

/// The logs of a runs folder ([`read_all`]).
#[derive(Debug, Default)]
pub struct RunLogs {
    pub logs: Vec<RunLog>,
    /// Files a probe killed at its start left ([`Read::Unstarted`]), with why: callers name
    /// them and leave them out.
    pub unstarted: Vec<(PathBuf, String)>,
}

/// Reads every `*.jsonl` in `dir`, sorted by file name (= by start time), setting apart the
/// files of runs killed at their start ([`RunLogs::unstarted`]). Two files of one
/// run (a copy) are an error naming both: folded twice, the run would count every
/// observation twice and confirm its own changed verdicts.
pub fn read_all(dir: &Path) -> Result<RunLogs> {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Error::io(dir, e)),
    };
    files.sort();
    let mut logs = Vec::new();
    let mut unstarted = Vec::new();
    for p in &files {
        match read_or_unstarted(p)? {
            Read::Log(log) => logs.push(*log),
            Read::Unstarted(why) => unstarted.push((p.clone(), why)),
        }
    }
    let mut by_run: BTreeMap<&str, &Path> = BTreeMap::new();
    for log in &logs {
        if let Some(first) = by_run.insert(&log.header.run, &log.path) {
            return Err(Error::input(
                &log.path,
                Place::LineColumn { line: 1, column: 1 },
                format!(
                    "run {:?} is also the run of {} (a copy of a run log would be folded twice); \
                     remove one",
                    log.header.run,
                    first.display()
                ),
            ));
        }
    }
    Ok(RunLogs { logs, unstarted })
}

#[cfg(test)]
mod tests {
    /// A setting that may be private is written as its variable's name, in every free-text
    /// field (endpoint, error, note), never in ids: a scheduled run published
    /// `…/projects/my-proj-123/…` and `https://myres.openai.azure.com/…`.
    #[test]
    fn settings_are_written_as_their_variables() {
        let mut r = super::Redactor::default();
        r.add_setting("GOOGLE_CLOUD_PROJECT", "my-proj-123");
        r.add_setting("AZURE_OPENAI_ENDPOINT", "https://myres.openai.azure.com/");
        let mut record = serde_json::json!({
            "target": "vertex/v1/parameters",
            "endpoint": "https://us-central1-aiplatform.googleapis.com/v1/projects/my-proj-123/locations/us-central1",
            "error": "error sending request for url (https://myres.openai.azure.com/openai/v1/chat/completions)",
            "note": "project my-proj-123",
        });
        let line = record.to_string();
        assert!(r.may_hold_secret(&line));
        r.redact_record(&mut record);
        let out = record.to_string();
        assert!(
            !out.contains("my-proj-123") && !out.contains("myres"),
            "{out}"
        );
        assert_eq!(
            record["endpoint"],
            "https://us-central1-aiplatform.googleapis.com/v1/projects/{GOOGLE_CLOUD_PROJECT}/locations/us-central1"
        );
        assert_eq!(
            record["error"],
            "error sending request for url ({AZURE_OPENAI_ENDPOINT}/openai/v1/chat/completions)"
        );
        assert_eq!(record["note"], "project {GOOGLE_CLOUD_PROJECT}");
        assert!(!r.may_hold_secret(r#"{"verdict":"accepted"}"#));
    }

    /// A base URL holding a key (key-shaped, or the target's own key) is still written as its
    /// variable, wherever it appears, the key redacted first: it was written with only the key
    /// blanked, `http://127.0.0.1:8099/acct/[REDACTED]/v1/…`, host and path published
    /// (trial 63 D5). The key stays redacted where the base URL is not written whole.
    #[test]
    fn a_base_url_holding_a_key_is_written_as_its_variable() {
        // Key-shaped values are made here, as the other tests make theirs, so that no literal
        // in the source looks like a real key to a secret scanner.
        let own = format!("sk-test-{}", "SECRET".repeat(3));
        let live = format!("sk-live-{}", "q".repeat(20));
        let google = format!("AIza{}", "x".repeat(35));
        let own_inside = format!("http://127.0.0.1:8099/x{}x", &own["sk-test-".len()..]);
        let bases = [
            (format!("http://127.0.0.1:8099/acct/{live}"), None),
            (format!("http://127.0.0.1:8099/acct/{google}/"), None),
            (own_inside, Some(own.as_str())),
            (
                format!("http://127.0.0.1:8099/p/{own}/q"),
                Some(own.as_str()),
            ),
        ];
        for (base, key_var) in &bases {
            let (base, key_var) = (base.as_str(), *key_var);
            // In either order: the secret may be known before or after the setting.
            for secret_first in [true, false] {
                let mut r = super::Redactor::default();
                if secret_first && let Some(k) = key_var {
                    r.add_secret(k);
                }
                r.add_setting("OPENAI_BASE_URL", base);
                if !secret_first && let Some(k) = key_var {
                    r.add_secret(k);
                }
                let trimmed = base.trim_end_matches('/');
                let mut record = serde_json::json!({
                    "endpoint": format!("{trimmed}/v1/chat/completions"),
                    "error": format!("error sending request for url ({trimmed}/v1/chat/completions)"),
                    "note": format!("answered from {}", &trimmed[..trimmed.len() - 3]),
                });
                assert!(r.may_hold_secret(&record.to_string()));
                r.redact_record(&mut record);
                assert_eq!(
                    record["endpoint"], "{OPENAI_BASE_URL}/v1/chat/completions",
                    "{base}"
                );
                assert_eq!(
                    record["error"],
                    "error sending request for url ({OPENAI_BASE_URL}/v1/chat/completions)"
                );
                let out = record.to_string();
                for k in [&live[..12], &google[..9], "SECRETSEC"] {
                    assert!(!out.contains(k), "{base}: {out}");
                }
            }
        }
        // A setting that is all key is no form of its own: `[REDACTED]` stays a key.
        let mut r = super::Redactor::default();
        r.add_setting("GOOGLE_CLOUD_PROJECT", &live);
        let other = format!("sk-live-{}", "9".repeat(20));
        assert_eq!(r.redact(&format!("k {other}")), "k [REDACTED]");
    }

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
            case_digest: None,
            status: Some(401),
            verdict: Verdict::Inconclusive,
            stage: Stage::Auth,
            error: Some(error.into()),
            path: None,
            latency_ms: 1.5,
            note: None,
        }
    }

    /// A provider that echoes the start of the key ("key provided: sk-test-cana...") gives
    /// away key material: every run of 8 or more of its first characters is redacted.
    #[test]
    fn the_start_of_a_key_echoed_alone_is_redacted() {
        // Built at run time, so that no key-shaped literal is tracked.
        let key = format!("tw-canary-{}", "partial-9f8e7d6c");
        let r = Redactor::new(vec![key.clone(), "tw-short-1".into()]);
        let echoed = format!(
            "provided: {} and {} and {} and tw-short",
            &key[..12],
            &key[..8],
            &key[..7]
        );
        assert_eq!(
            r.redact(&echoed),
            format!(
                "provided: [REDACTED] and [REDACTED] and {} and tw-short",
                &key[..7]
            )
        );
        assert!(r.may_hold_secret(&format!("\"{}\"", &key[..9])));
        // The whole key is still one redaction, not a prefix and a tail.
        assert_eq!(r.redact(&format!("k={key}!")), "k=[REDACTED]!");
    }

    /// A relay's masked echo of the key (its start, `****`, its last 12 characters) or a tail
    /// of it is key material too (trial 49: the last 12 or 18 characters of a 35-character
    /// key were written into the run log).
    #[test]
    fn the_middle_or_end_of_a_key_echoed_is_redacted() {
        // Built at run time, so that no key-shaped literal is tracked.
        let key = format!("tw-canary-{}", "FAKE0123456789abcdefSECRETzz");
        let r = Redactor::new(vec![key.clone()]);
        let n = key.len();
        let masked = format!("key {}****{} is not valid", &key[..8], &key[n - 12..]);
        assert_eq!(
            r.redact(&masked),
            "key [REDACTED]****[REDACTED] is not valid"
        );
        let tail = format!("key {} is not valid", &key[n / 2..]);
        assert_eq!(r.redact(&tail), "key [REDACTED] is not valid");
        let middle = format!("({})", &key[12..24]);
        assert_eq!(r.redact(&middle), "([REDACTED])");
        assert!(r.may_hold_secret(&format!("\"{}\"", &key[n - 10..])));
        // Nine characters of the end, or ordinary words, are left alone.
        let nine = format!("ends {}", &key[n - 9..]);
        assert_eq!(r.redact(&nine), nine);
        // Another key sharing the known one's public start is redacted whole, and so is an
        // xAI key.
        let known = Redactor::new(vec![format!("sk-proj-{}", "Kn0wn0123456789abcdefghij")]);
        let other = format!("sk-proj-{}", "Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56");
        assert_eq!(known.redact(&format!("also {other}.")), "also [REDACTED].");
        let xai = format!("xai-{}", "Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78");
        assert_eq!(known.redact(&format!("k {xai}")), "k [REDACTED]");
        assert_eq!(
            known.redact("id xai-additionalproperties"),
            "id xai-additionalproperties"
        );
        // After `key:`, a word without a digit is no key; a token with one still is.
        assert_eq!(
            known.redact("unknown key: additionalProperties"),
            "unknown key: additionalProperties"
        );
        assert_eq!(known.redact("key: abcdefgh1"), "key: [REDACTED]");
        let emulator = Redactor::new(vec!["tw-emulator-key-1".into()]);
        assert_eq!(
            emulator.redact("answered by the emulator key"),
            "answered by the emulator key"
        );
    }

    /// A key inside a longer base64 text (`Basic` credentials, an encoded `key: …`) is
    /// redacted at each of the three byte alignments, std and url-safe, padded or not: at most
    /// the few characters that mix its bits with its neighbours' are left.
    #[test]
    fn a_key_inside_longer_base64_is_redacted_at_every_alignment() {
        let key = format!("tw-canary-{}", "0123456789abcdefXY");
        let r = Redactor::new(vec![key]);
        // base64 and base64url of "" / "x" / "xy" + key + "" / "!" / "!?" (Python's encoder).
        for encoded in [
            "dHctY2FuYXJ5LTAxMjM0NTY3ODlhYmNkZWZYWQ==",
            "dHctY2FuYXJ5LTAxMjM0NTY3ODlhYmNkZWZYWQ",
            "dHctY2FuYXJ5LTAxMjM0NTY3ODlhYmNkZWZYWSE=",
            "dHctY2FuYXJ5LTAxMjM0NTY3ODlhYmNkZWZYWSE",
            "dHctY2FuYXJ5LTAxMjM0NTY3ODlhYmNkZWZYWSE/",
            "dHctY2FuYXJ5LTAxMjM0NTY3ODlhYmNkZWZYWSE_",
            "eHR3LWNhbmFyeS0wMTIzNDU2Nzg5YWJjZGVmWFk=",
            "eHR3LWNhbmFyeS0wMTIzNDU2Nzg5YWJjZGVmWFk",
            "eHR3LWNhbmFyeS0wMTIzNDU2Nzg5YWJjZGVmWFkh",
            "eHR3LWNhbmFyeS0wMTIzNDU2Nzg5YWJjZGVmWFkhPw==",
            "eHR3LWNhbmFyeS0wMTIzNDU2Nzg5YWJjZGVmWFkhPw",
            "eHl0dy1jYW5hcnktMDEyMzQ1Njc4OWFiY2RlZlhZ",
            "eHl0dy1jYW5hcnktMDEyMzQ1Njc4OWFiY2RlZlhZIQ==",
            "eHl0dy1jYW5hcnktMDEyMzQ1Njc4OWFiY2RlZlhZIQ",
            "eHl0dy1jYW5hcnktMDEyMzQ1Njc4OWFiY2RlZlhZIT8=",
            "eHl0dy1jYW5hcnktMDEyMzQ1Njc4OWFiY2RlZlhZIT8",
        ] {
            let out = r.redact(encoded);
            assert!(out.contains("[REDACTED]"), "{encoded} -> {out}");
            let left = out.replace("[REDACTED]", "");
            assert!(left.len() <= 8, "{encoded} -> {out}");
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
        assert!(!text.contains(&shaped[..19]), "{text}");
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
    fn redact_json_rewrites_every_string_and_key() {
        let canary = "tw-canary-0a1b2c3d4e";
        // Built at run time so no key-shaped literal is tracked.
        let shaped = format!("sk-{}", "q".repeat(20));
        let r = Redactor::new(vec![canary.into()]);
        let mut v = serde_json::json!({
            "type": format!("said {canary}"),
            "notes": [format!("key {shaped}"), "plain"],
            canary: 1,
        });
        r.redact_json(&mut v);
        let text = v.to_string();
        assert!(!text.contains(canary) && !text.contains(&shaped), "{text}");
        assert_eq!(v["type"], "said [REDACTED]");
        assert_eq!(v["notes"][1], "plain");
        assert_eq!(v["[REDACTED]"], 1);
    }

    #[test]
    fn every_key_shape_is_redacted_and_other_text_is_kept() {
        let r = Redactor::default();
        // Key-shaped fakes, built at run time so no key-shaped literal is tracked.
        let google = format!("AIza{}", "x".repeat(35));
        let aws = format!("AKIA{}", "ABCDEFGHIJKLMNOP");
        let github = format!("ghp_{}", "Ab1".repeat(12));
        let groq = format!("gsk_{}", "Xy9".repeat(10));
        let line = format!(
            "k1 {google} k2 {aws} x-goog-api-key: abcdefgh123 API_KEY=zyxwvuts987 BEARER tok.en-12345 m={github} g {groq}"
        );
        assert_eq!(
            r.redact(&line),
            "k1 [REDACTED] k2 [REDACTED] x-goog-api-key: [REDACTED] API_KEY=[REDACTED] BEARER [REDACTED] m=[REDACTED] g [REDACTED]"
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
        // `sk-` inside a word is no key prefix: such names were redacted, and a report's URL
        // holding one refused as key-shaped.
        let openai = format!("sk-{}", "Ab1".repeat(8));
        assert_eq!(
            r.redact(&format!("{openai} %22{openai} ={openai}")),
            "[REDACTED] %22[REDACTED] =[REDACTED]"
        );
        for kept in [
            "https://github.com/acme/desk-assistant-mcp-server/issues/1",
            "via task-management-server-v2",
            "https://host.example/a@b",
            "https://host.example?q=a@b",
            "mail me at a@b.example",
            r#"{"url":"https://host.example","mail":"a@b"}"#,
        ] {
            assert_eq!(r.redact(kept), kept);
            assert!(!r.may_hold_secret(kept), "{kept}");
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
        o.run = "r2".into();
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

    fn header(run: &str) -> RunHeader {
        RunHeader {
            record: "header".into(),
            run: run.into(),
            toolwire_version: "0".into(),
            started: "2026-11-30T00:00:00Z".parse().unwrap(),
            targets: vec![TargetRecord {
                id: "groq/chat".into(),
                endpoint: "http://127.0.0.1:9/groq".into(),
                model: Some("llama-test".into()),
                api_version: None,
                auth: "key".into(),
                skipped: None,
            }],
            cases: 1,
            emulated: false,
        }
    }

    fn footer(run: &str) -> RunFooter {
        RunFooter {
            record: "footer".into(),
            run: run.into(),
            ended: "2026-11-30T00:00:01Z".parse().unwrap(),
            counts: BTreeMap::from([(
                "groq/chat".to_string(),
                BTreeMap::from([(Verdict::Accepted, 1)]),
            )]),
            requests: 1,
        }
    }

    /// A run log that holds key-shaped text (written by hand, or by a toolwire that did not
    /// redact it) reads back redacted in every free-text field, so nothing made from it
    /// (the matrix, the profiles, RULES.md, any output) can show the key.
    #[test]
    fn key_shaped_text_in_a_log_read_back_is_redacted() {
        // Fakes built at run time, so that no key-shaped literal is tracked.
        let openai = format!("sk-{}", "z".repeat(30));
        let google = format!("AIza{}", "q".repeat(35));
        let dir = tempfile::tempdir().unwrap();
        let mut h = header("r5");
        h.targets[0].model = Some(google.clone());
        let mut o = obs(&format!(
            "bad key {openai} via http://tw-user:tw-pw@h.example/x"
        ));
        o.run = "r5".into();
        o.model = Some(google.clone());
        o.endpoint = format!("in-process:{openai}");
        o.note = Some(format!("echoed {google}"));
        let lines = [
            serde_json::to_string(&h).unwrap(),
            serde_json::to_string(&o).unwrap(),
            serde_json::to_string(&footer("r5")).unwrap(),
        ];
        let path = dir.path().join("r5.jsonl");
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let log = read(&path).unwrap();
        let text = format!(
            "{}{}",
            serde_json::to_string(&log.header).unwrap(),
            serde_json::to_string(&log.observations).unwrap()
        );
        for secret in [&openai[..12], &google[..12], "tw-user", "tw-pw"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        let got = &log.observations[0];
        assert_eq!(
            got.error.as_deref(),
            Some("bad key [REDACTED] via http://***@h.example/x")
        );
        assert_eq!(got.note.as_deref(), Some("echoed [REDACTED]"));
        assert_eq!(got.model.as_deref(), Some("[REDACTED]"));
        assert_eq!(log.header.targets[0].model.as_deref(), Some("[REDACTED]"));
        // The ids and enumerations are kept.
        assert_eq!(got.case, "control/baseline");
        assert_eq!(got.target, "openai/chat");
    }

    /// A log of `lines` (JSON records, one a line) at `dir/name`.
    fn log_file(dir: &Path, name: &str, lines: &[String]) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        path
    }

    fn line<T: Serialize>(record: &T) -> String {
        serde_json::to_string(record).unwrap()
    }

    /// Every observation is of one probe of this run: a line repeated (a bad merge, a paste)
    /// or a line of another run would otherwise be counted as a sighting of this run.
    #[test]
    fn a_repeated_observation_or_another_runs_record_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = obs("x");
        o.run = "r6".into();
        let mut later = o.clone();
        later.time += chrono::Duration::seconds(1);
        let (h, f) = (line(&header("r6")), line(&footer("r6")));
        // A probe repeated (a changed verdict is probed again) is two observations.
        let ok = log_file(
            dir.path(),
            "ok.jsonl",
            &[h.clone(), line(&o), line(&later), f.clone()],
        );
        assert_eq!(read(&ok).unwrap().observations.len(), 2);
        let twice = log_file(
            dir.path(),
            "twice.jsonl",
            &[h.clone(), line(&o), line(&o), f.clone()],
        );
        let e = read(&twice).unwrap_err().to_string();
        assert!(
            e.contains(
                "twice.jsonl: line 3, column 1: observation of control/baseline on openai/chat"
            ) && e.contains("repeats line 2"),
            "{e}"
        );
        let mut other = later.clone();
        other.run = "r7".into();
        let foreign = log_file(
            dir.path(),
            "foreign.jsonl",
            &[h.clone(), line(&o), line(&other), f],
        );
        let e = read(&foreign).unwrap_err().to_string();
        assert!(
            e.contains(
                "foreign.jsonl: line 3, column 1: record of run \"r7\" in the log of run \"r6\""
            ),
            "{e}"
        );
        let foreign_footer = log_file(
            dir.path(),
            "footer.jsonl",
            &[h, line(&o), line(&footer("r7"))],
        );
        let e = read(&foreign_footer).unwrap_err().to_string();
        assert!(
            e.contains("footer.jsonl: line 3, column 1: record of run \"r7\""),
            "{e}"
        );
    }

    /// A line that is no record, or a time that is no date-time, is named with the line and
    /// the field.
    #[test]
    fn a_line_that_is_no_record_or_a_bad_time_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = obs("x");
        o.run = "r10".into();
        let (h, f) = (line(&header("r10")), line(&footer("r10")));
        let path = log_file(
            dir.path(),
            "s.jsonl",
            &[h.clone(), "\"abc\"".into(), f.clone()],
        );
        let e = read(&path).unwrap_err().to_string();
        assert!(
            e.contains("s.jsonl: line 2, column 1: not a JSON object"),
            "{e}"
        );
        let bad_time = line(&o).replace("2026-11-30T00:00:00Z", "2026-13-41T00:00:00Z");
        let path = log_file(dir.path(), "t.jsonl", &[h, bad_time, f]);
        let e = read(&path).unwrap_err().to_string();
        assert!(
            e.contains(
                "t.jsonl: line 2, at /time: \"2026-13-41T00:00:00Z\" is not an RFC 3339 date-time"
            ),
            "{e}"
        );
    }

    /// serde's message names the type it expected, not the field: the error names the
    /// field's pointer in the line too.
    #[test]
    fn a_field_of_the_wrong_type_is_named_by_its_pointer() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = obs("x");
        o.run = "r11".into();
        let (h, f) = (line(&header("r11")), line(&footer("r11")));
        let slow = line(&o).replace("\"latency_ms\":1.5", "\"latency_ms\":\"slow\"");
        assert!(slow.contains("\"slow\""), "{slow}");
        let path = log_file(dir.path(), "u.jsonl", &[h, slow, f]);
        let e = read(&path).unwrap_err().to_string();
        assert!(
            e.contains(
                "u.jsonl: line 2, at /latency_ms: invalid type: string \"slow\", expected f64"
            ),
            "{e}"
        );
    }

    /// A time more than a day ahead of the clock (a wrong clock, an edit) would date a cell's
    /// evidence in the future: the line is named. A day of skew is tolerated.
    #[test]
    fn a_time_in_the_future_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = obs("x");
        o.run = "r9".into();
        let (h, f) = (header("r9"), footer("r9"));
        let soon = Utc::now() + chrono::Duration::hours(12);
        let later = Utc::now() + chrono::Duration::days(2);
        let mut ok = o.clone();
        ok.time = soon;
        let path = log_file(dir.path(), "ok.jsonl", &[line(&h), line(&ok), line(&f)]);
        assert_eq!(read(&path).unwrap().observations[0].time, soon);
        let mut future = o.clone();
        future.time = later;
        let path = log_file(
            dir.path(),
            "obs.jsonl",
            &[line(&h), line(&future), line(&f)],
        );
        let e = read(&path).unwrap_err().to_string();
        assert!(
            e.contains("obs.jsonl: line 2, column 1: time ") && e.contains("is in the future"),
            "{e}"
        );
        let mut h2 = h.clone();
        h2.started = later;
        let path = log_file(dir.path(), "header.jsonl", &[line(&h2), line(&o), line(&f)]);
        let e = read(&path).unwrap_err().to_string();
        assert!(
            e.contains("header.jsonl: line 1, column 1: started "),
            "{e}"
        );
        let mut f2 = f.clone();
        f2.ended = later;
        let path = log_file(dir.path(), "footer.jsonl", &[line(&h), line(&o), line(&f2)]);
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("footer.jsonl: line 3, column 1: ended "), "{e}");
    }

    /// A probe killed at its start leaves an empty file or a lone header line cut short
    /// mid-write: [`read_or_unstarted`] sets it apart (say which), [`read`] still refuses it;
    /// a header line that is whole but followed by garbage, or cut short yet followed by a
    /// newline, is still an error.
    #[test]
    fn a_log_killed_before_its_header_was_whole_is_unstarted() {
        let dir = tempfile::tempdir().unwrap();
        let h = line(&header("r9"));
        let unstarted = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            match read_or_unstarted(&path).unwrap() {
                Read::Unstarted(why) => {
                    assert!(read(&path).is_err());
                    why
                }
                Read::Log(_) => panic!("{name} read as a log"),
            }
        };
        assert!(unstarted("empty.jsonl", "").starts_with("0 bytes, no header line"));
        assert!(unstarted("blank.jsonl", "\n\n").contains("no header line"));
        assert!(unstarted("half.jsonl", &h[..50]).contains("cut short mid-write at byte 50"));
        for (name, text) in [
            ("half-nl.jsonl", format!("{}\n", &h[..50])),
            ("garbage.jsonl", format!("{h}\n{{not json\n")),
            ("junk-first.jsonl", "not json at all".to_string()),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            assert!(read_or_unstarted(&path).is_err(), "{name}");
        }
        // The header whole without its newline is a header-only log, as before.
        let path = dir.path().join("whole.jsonl");
        std::fs::write(&path, &h).unwrap();
        assert!(
            matches!(read_or_unstarted(&path).unwrap(), Read::Log(l) if l.observations.is_empty())
        );
    }

    /// A copy of a run log under another name is one run folded twice: an error naming both.
    #[test]
    fn one_run_in_two_files_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = obs("x");
        o.run = "r8".into();
        let lines = [line(&header("r8")), line(&o), line(&footer("r8"))];
        log_file(dir.path(), "r8.jsonl", &lines);
        assert_eq!(read_all(dir.path()).unwrap().logs.len(), 1);
        log_file(dir.path(), "r8-copy.jsonl", &lines);
        let e = read_all(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("r8.jsonl: line 1, column 1: run \"r8\" is also the run of ")
                && e.contains("r8-copy.jsonl"),
            "{e}"
        );
    }

    /// A key equal to ordinary text (a verdict, a word of a case id, a provider's wording)
    /// is removed from free text only: the ids and enumerations stay, and the log reads back.
    #[test]
    fn a_key_equal_to_ordinary_text_never_corrupts_the_log() {
        for key in [
            "accepted",
            "invalid",
            "pattern-invalid-regex",
            "groq/chat",
            "observation",
            r#"tw"quote\back-1"#,
        ] {
            let dir = tempfile::tempdir().unwrap();
            let mut w =
                RunLogWriter::create(dir.path(), &header("r3"), Redactor::new(vec![key.into()]))
                    .unwrap();
            let mut o = obs(&format!("JSON schema is invalid; accepted: {key}"));
            o.case = "keywords/pattern-invalid-regex-nested".into();
            o.target = "groq/chat".into();
            o.run = "r3".into();
            o.verdict = Verdict::Accepted;
            o.note = Some(format!("echoed {key}"));
            w.observation(&o).unwrap();
            let path = w.finish(&footer("r3")).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            let log = read(&path).unwrap_or_else(|e| panic!("{key}: {e}\n{text}"));
            let got = &log.observations[0];
            assert_eq!(got.verdict, Verdict::Accepted, "{key}");
            assert_eq!(got.case, "keywords/pattern-invalid-regex-nested", "{key}");
            assert_eq!(got.target, "groq/chat", "{key}");
            assert_eq!(got.record, "observation", "{key}");
            assert_eq!(log.header.targets[0].id, "groq/chat", "{key}");
            let footer = log.footer.expect("footer");
            assert_eq!(footer.counts["groq/chat"][&Verdict::Accepted], 1, "{key}");
            assert_eq!(got.note.as_deref(), Some("echoed [REDACTED]"), "{key}");
            let error = got.error.as_deref().unwrap();
            assert!(error.ends_with(": [REDACTED]"), "{key}: {error}");
            assert!(!error.contains(key), "{key}: {error}");
        }
    }

    /// A provider may echo a key percent-encoded (a query string, a URL in an error) or in
    /// base64 (Basic auth): those forms are removed too.
    #[test]
    fn a_keys_encoded_forms_are_redacted() {
        let key = "tw-key/plus+eq=0123";
        let r = Redactor::new(vec![key.into()]);
        for echoed in [
            "tw-key%2Fplus%2Beq%3D0123",
            "tw-key%2fplus%2beq%3d0123",
            "tw%2Dkey%2Fplus%2Beq%3D0123",
            "tw%2dkey%2fplus%2beq%3d0123",
            &base64(key.as_bytes(), false),
            base64(key.as_bytes(), false).trim_end_matches('='),
            &base64(key.as_bytes(), true),
        ] {
            let text = format!("bad key ({echoed}) given");
            assert_eq!(r.redact(&text), "bad key ([REDACTED]) given", "{echoed}");
        }
    }

    /// A provider may echo a key in hex (a byte dump of the header it got), in lower or
    /// upper case: both are removed, whole and inside a longer dump.
    #[test]
    fn a_keys_hex_forms_are_redacted() {
        let key = "tw-key/plus+eq=0123";
        let r = Redactor::new(vec![key.into()]);
        // Python's binascii.hexlify of the key, and its upper-case form.
        for echoed in [
            "74772d6b65792f706c75732b65713d30313233",
            "74772D6B65792F706C75732B65713D30313233",
        ] {
            let text = format!("bad key ({echoed}) given");
            assert_eq!(r.redact(&text), "bad key ([REDACTED]) given", "{echoed}");
            let dump = format!("header 4b6579{echoed}0a end");
            assert_eq!(r.redact(&dump), "header 4b6579[REDACTED]0a end", "{echoed}");
        }
    }

    #[test]
    fn base64_matches_rfc_4648_test_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes(), false), encoded);
        }
        assert_eq!(base64(&[0xfb, 0xff], false), "+/8=");
        assert_eq!(base64(&[0xfb, 0xff], true), "-_8=");
    }

    /// A probe killed mid-write leaves a last line without its newline: that line is left
    /// out and named; a bad line anywhere else is still an error.
    #[test]
    fn only_a_cut_short_last_line_is_tolerated() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = RunLogWriter::create(dir.path(), &header("r4"), Redactor::default()).unwrap();
        let mut x = obs("x");
        x.run = "r4".into();
        let mut y = x.clone();
        y.time += chrono::Duration::seconds(1);
        w.observation(&x).unwrap();
        w.observation(&y).unwrap();
        w.flush().unwrap();
        let path = w.path().to_path_buf();
        drop(w);
        let whole = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = whole.lines().collect();
        assert_eq!(lines.len(), 3);
        let write = |text: &str| {
            let p = dir.path().join("t.jsonl");
            std::fs::write(&p, text).unwrap();
            p
        };
        // Cut inside the last observation (and inside a multi-byte character).
        for cut in [
            format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..40]),
            format!(
                "{}\n{}\n{{\"type\":\"observation\",\"note\":\"caf\u{e9}",
                lines[0], lines[1]
            ),
        ] {
            let mut bytes = cut.into_bytes();
            if bytes.ends_with(&[0xc3, 0xa9]) {
                bytes.pop();
            }
            let p = dir.path().join("t.jsonl");
            std::fs::write(&p, &bytes).unwrap();
            let log = read(&p).unwrap();
            assert_eq!(log.observations.len(), 1);
            assert_eq!(log.cut_line, Some(3));
            assert!(log.footer.is_none());
        }
        // Whole logs name nothing.
        assert_eq!(read(&path).unwrap().cut_line, None);
        // A cut line that is not the last, a bad last line followed by a newline, and a last
        // line that is not JSON cut short are corruption.
        for bad in [
            format!("{}\n{}\n{}\n", lines[0], &lines[1][..40], lines[2]),
            format!("{}\n{}\n{}\n", lines[0], lines[1], &lines[2][..40]),
            format!("{}\n{}\n{}x", lines[0], lines[1], lines[2]),
        ] {
            let p = write(&bad);
            let e = read(&p).unwrap_err().to_string();
            assert!(e.contains("t.jsonl: line"), "{e}");
        }
    }
}
