//! The probe runner: controls first, then every case, to every selected target; one run log
//! per run.
//!
//! Targets plug in through [`ProbeTarget`]. In-process engines are adapted by
//! [`EngineTarget`]; HTTP targets (with their own politeness: rate limits, retries, budget)
//! implement the trait in `src/target/`.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use chrono::Utc;
use futures::StreamExt;

use crate::case::{Case, Catalog};
use crate::engine::Engine;
use crate::error::Result;
use crate::evidence::runlog::{self, Redactor, RunFooter, RunHeader, RunLogWriter, TargetRecord};
use crate::evidence::{Observation, Stage, Verdict, digest};

pub mod http;

/// A boxed future, for object-safe async methods.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What one probe got back, before it becomes an [`Observation`].
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub verdict: Verdict,
    pub stage: Stage,
    pub status: Option<u16>,
    /// Verbatim error text (the run log writer redacts it).
    pub error: Option<String>,
    /// The path the error names.
    pub path: Option<String>,
    pub note: Option<String>,
    /// The model that answered, when the target reports it.
    pub model: Option<String>,
    /// The exact body sent (digested into the observation, never stored).
    pub request_body: bytes::Bytes,
    /// HTTP requests this probe sent, retries included.
    pub requests: usize,
}

impl Answer {
    /// The answer for a case asking for strict mode ([`Case::strict`]) at a target whose
    /// request cannot say so: nothing is sent, since the target would be judging another
    /// tool (the baseline alone), and its verdict would be false evidence about the feature.
    pub fn strict_not_carried() -> Answer {
        Answer {
            verdict: Verdict::Skipped,
            stage: Stage::Validate,
            status: None,
            error: None,
            path: None,
            note: Some(
                "not sent: the case asks for strict mode, and this target's request has no \
                 strict flag to carry it"
                    .into(),
            ),
            model: None,
            request_body: bytes::Bytes::new(),
            requests: 0,
        }
    }
}

/// Whether a JSON request body carries a tool's `"strict": true` (compact JSON, as every
/// route writes its body).
pub fn carries_strict(body: &[u8]) -> bool {
    body.windows(13).any(|w| w == br#""strict":true"#)
}

/// A target the runner can probe.
pub trait ProbeTarget: Send + Sync {
    /// Identity for the run log header: id, endpoint, model, API version, auth mode.
    fn record(&self) -> TargetRecord;
    /// `Some("set GEMINI_API_KEY")` when the target cannot be probed in this environment;
    /// then nothing is sent and it costs nothing.
    fn skip_reason(&self) -> Option<String> {
        None
    }
    /// How many probes of this target may be in flight at once.
    fn concurrency(&self) -> usize {
        1
    }
    /// Probes one case.
    fn probe<'a>(&'a self, case: &'a Case) -> BoxFuture<'a, Answer>;
}

/// An in-process engine as a probe target.
pub struct EngineTarget(pub std::sync::Arc<dyn Engine>);

impl ProbeTarget for EngineTarget {
    fn record(&self) -> TargetRecord {
        TargetRecord {
            id: self.0.id().to_string(),
            endpoint: self.0.endpoint(),
            model: None,
            api_version: None,
            auth: "in-process".into(),
            skipped: None,
        }
    }
    fn concurrency(&self) -> usize {
        2
    }
    fn probe<'a>(&'a self, case: &'a Case) -> BoxFuture<'a, Answer> {
        Box::pin(async move {
            if case.strict {
                return Answer::strict_not_carried();
            }
            // On a thread of its own: one case may keep an engine busy for seconds
            // (`limits/property-count-5001`), and on the run's thread it held off Ctrl-C and
            // SIGTERM until it ended (trial 77 D3: 6 to 10 s, past CI's grace before SIGKILL,
            // which loses the summary). The run, interrupted, leaves the thread behind.
            let engine = std::sync::Arc::clone(&self.0);
            let (tools, instances) = (case.tools.clone(), case.instances.clone());
            let a =
                match tokio::task::spawn_blocking(move || engine.check(&tools, &instances)).await {
                    Ok(a) => a,
                    Err(e) => std::panic::resume_unwind(e.into_panic()),
                };
            Answer {
                verdict: a.verdict,
                stage: a.stage,
                status: None,
                error: a.error,
                path: a.path,
                note: a.note,
                model: None,
                request_body: a.input.into(),
                requests: 0,
            }
        })
    }
}

/// Options of one run.
pub struct RunOptions {
    /// Where run logs go (`reports/runs`).
    pub runs_dir: PathBuf,
    /// Show a progress bar (on stderr).
    pub progress: bool,
    /// Current matrix verdicts; a decisive answer that differs is probed once more before it
    /// counts (both observations are recorded).
    pub previous: HashMap<(String, String), Verdict>,
    /// Credentials to redact from everything written.
    pub redactor: Redactor,
    /// The run is against `toolwire emulate`: the header says so and the matrix never folds
    /// it (its answers are not evidence).
    pub emulated: bool,
    /// Set to the run log's path as soon as the log is created: a caller that stops the run
    /// (Ctrl-C drops [`run`]'s future) or sees it fail still knows which log holds what was
    /// observed.
    pub log: Arc<OnceLock<PathBuf>>,
}

/// Per-target totals of a run.
#[derive(Debug, Clone, Default)]
pub struct TargetSummary {
    pub counts: BTreeMap<Verdict, usize>,
    pub requests: usize,
    pub wall: Duration,
    /// Why the target was skipped, if it was.
    pub skipped: Option<String>,
    /// Inconclusive and unreachable answers by their reason (see [`reason`]), redacted; the
    /// cases not sent after a failed control are left out (they have no answer of their own).
    pub inconclusive_reasons: BTreeMap<String, usize>,
    /// Cases not sent because the control failed (in `counts` under the verdict they got).
    pub not_sent: usize,
    /// The verdict the cases not sent got (`not_sent` of `counts` under it): the control's,
    /// or `confounded` after a rejected control.
    pub not_sent_as: Option<Verdict>,
    /// The control's reason when the target was sent a credential and the control was
    /// refused at the auth stage: the key is wrong, expired or revoked, and nothing of this
    /// target was learnt. Kept apart from the inconclusive counts because a scheduled run
    /// must fail on it, where a keyless route's auth answer (Vertex's discovery) is expected.
    pub key_refused: Option<String>,
    /// Of the accepted answers, those that took the body only past the parser
    /// ([`crate::evidence::parsed_only`]): counted as accepted, as the run log records them,
    /// but no acceptance in the matrix.
    pub parsed_only: usize,
}

impl RunSummary {
    /// Whether any request reached its target: some observation is neither `skipped` nor
    /// `unreachable` (an in-process engine always counts).
    pub fn reached_any(&self) -> bool {
        self.targets.values().any(|t| {
            t.counts
                .iter()
                .any(|(v, n)| *n > 0 && !matches!(v, Verdict::Skipped | Verdict::Unreachable))
        })
    }
}

impl TargetSummary {
    /// Inconclusive and unreachable answers together.
    pub fn inconclusive(&self) -> usize {
        [Verdict::Inconclusive, Verdict::Unreachable]
            .iter()
            .filter_map(|v| self.counts.get(v))
            .sum()
    }

    /// The most common reason for inconclusive answers and how often it was seen, when every
    /// answer of the target was inconclusive (otherwise the run log tells case by case).
    /// Ties go to the reason that sorts first, so the line is the same run to run.
    pub fn why_all_inconclusive(&self) -> Option<(&str, usize)> {
        let total: usize = self.counts.values().sum();
        if total == 0 || self.inconclusive() != total {
            return None;
        }
        self.inconclusive_reasons
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
            .map(|(r, n)| (r.as_str(), *n))
    }

    /// Counts a case that was not sent (the control failed): its verdict, never a reason,
    /// since the control's reason is not this case's.
    fn count_not_sent(&mut self, verdict: Verdict) {
        *self.counts.entry(verdict).or_default() += 1;
        self.not_sent += 1;
        self.not_sent_as = Some(verdict);
    }

    fn count(&mut self, verdict: Verdict, answer: &Answer, redactor: &Redactor) {
        *self.counts.entry(verdict).or_default() += 1;
        if crate::evidence::parsed_only(verdict, answer.stage, answer.status) {
            self.parsed_only += 1;
        }
        if matches!(verdict, Verdict::Inconclusive | Verdict::Unreachable) {
            let why = reason(answer, redactor);
            *self.inconclusive_reasons.entry(why).or_default() += 1;
        }
    }
}

/// Characters kept from each end of a long error in a reason: the start says what failed
/// (an HTTP body's message), the end why (a transport error's root cause comes last).
const REASON_END_CHARS: usize = 80;

/// How far a cut moves back (or on) to fall between words; a longer word (a URL, a run of
/// one character) is cut where the count ends.
const REASON_WORD_SLACK: usize = 20;

/// The first and last [`REASON_END_CHARS`] characters of `chars` (longer than both), each cut
/// between words when a space is near.
fn ends(chars: &[char]) -> (String, String) {
    let mut head = REASON_END_CHARS;
    if !chars[head].is_whitespace()
        && let Some(space) = chars[head - REASON_WORD_SLACK..head]
            .iter()
            .rposition(|c| c.is_whitespace())
    {
        head = head - REASON_WORD_SLACK + space;
    }
    let mut tail = chars.len() - REASON_END_CHARS;
    if !chars[tail - 1].is_whitespace()
        && let Some(space) = chars[tail..tail + REASON_WORD_SLACK]
            .iter()
            .position(|c| c.is_whitespace())
    {
        tail += space + 1;
    }
    let head: String = chars[..head].iter().collect();
    let tail: String = chars[tail..].iter().collect();
    (head.trim_end().to_string(), tail.trim_start().to_string())
}

/// Why an answer did not decide anything, in one line: stage, HTTP status when there was one,
/// and the first line of the error (else the note), redacted; a long line keeps its first and
/// last `REASON_END_CHARS` characters around a `…`. Redacted before it is cut: a cut through
/// an echoed key (or its base64) leaves a piece no pattern or secret form matches any more.
pub fn reason(a: &Answer, redactor: &Redactor) -> String {
    let text = a
        .error
        .as_deref()
        .or(a.note.as_deref())
        .unwrap_or("no detail");
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let line = redactor.redact(line);
    let chars: Vec<char> = line.chars().collect();
    let cut: String = if chars.len() > 2 * REASON_END_CHARS + 1 {
        let (head, tail) = ends(&chars);
        format!("{head} … {tail}")
    } else {
        line.into_owned()
    };
    match a.status {
        Some(code) => format!("{}: {code} {cut}", a.stage.as_str()),
        None => format!("{}: {cut}", a.stage.as_str()),
    }
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct RunSummary {
    pub run: String,
    pub log: PathBuf,
    pub targets: BTreeMap<String, TargetSummary>,
}

/// Probes `cases` (the control is always added first) against `targets`, writing a run log.
pub async fn run(
    catalog: &Catalog,
    cases: &[&Case],
    targets: Vec<Arc<dyn ProbeTarget>>,
    opts: RunOptions,
) -> Result<RunSummary> {
    let started = Utc::now();
    let run_id = runlog::new_run_id(started);
    let control = catalog.control();
    let mut selected: Vec<&Case> = vec![control];
    selected.extend(cases.iter().copied().filter(|c| !c.is_control()));

    let records: Vec<TargetRecord> = targets
        .iter()
        .map(|t| TargetRecord {
            skipped: t.skip_reason(),
            ..t.record()
        })
        .collect();
    let header = RunHeader {
        record: "header".into(),
        run: run_id.clone(),
        toolwire_version: env!("CARGO_PKG_VERSION").into(),
        started,
        targets: records.clone(),
        cases: selected.len(),
        emulated: opts.emulated,
    };
    let mut writer = RunLogWriter::create(&opts.runs_dir, &header, opts.redactor.clone())?;
    let _ = opts.log.set(writer.path().to_path_buf());

    let live = targets.iter().filter(|t| t.skip_reason().is_none()).count();
    let bar = progress_bar(opts.progress, (live * selected.len()) as u64);
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Observation>();

    let per_target = targets.iter().zip(&records).map(|(t, rec)| {
        let tx = tx.clone();
        let bar = bar.clone();
        let selected = &selected;
        let previous = &opts.previous;
        let run_id = &run_id;
        let redactor = &opts.redactor;
        async move {
            let mut summary = TargetSummary {
                skipped: rec.skipped.clone(),
                ..Default::default()
            };
            if rec.skipped.is_some() {
                return (rec.id.clone(), summary);
            }
            let clock = Instant::now();
            let emit = |case: &Case, answer: Answer, verdict: Verdict, note: Option<String>| {
                let o = observation(run_id, rec, case, answer, verdict, note, 0.0);
                let _ = tx.send(o);
            };
            // Control first: it decides whether this target's answers mean anything today.
            let (control_answer, control_ms) = timed(t.probe(selected[0])).await;
            summary.requests += control_answer.requests;
            let o = observation(
                run_id,
                rec,
                selected[0],
                control_answer.clone(),
                control_answer.verdict,
                control_answer.note.clone(),
                control_ms,
            );
            let _ = tx.send(o);
            bar.inc(1);
            summary.count(control_answer.verdict, &control_answer, redactor);
            if rec.sends_credential()
                && control_answer.stage == Stage::Auth
                && !control_answer.verdict.is_accepting()
            {
                summary.key_refused = Some(reason(&control_answer, redactor));
            }
            if !control_answer.verdict.is_accepting() {
                // A failed control confounds every result; nothing more is sent.
                let verdict = if control_answer.verdict == Verdict::Rejected {
                    Verdict::Confounded
                } else {
                    control_answer.verdict
                };
                // Noted as emulated or a stand-in's, as the control was: never sent, still not
                // evidence.
                let mark = http::not_evidence_mark(control_answer.note.as_deref());
                for case in &selected[1..] {
                    let not_sent = format!("not sent: the control was {}", control_answer.verdict);
                    let note = Some(match mark {
                        Some(mark) => http::noted(mark, Some(&not_sent)),
                        None => not_sent,
                    });
                    // Nothing was sent, so nothing was answered: no status, error or path of
                    // its own (the control's are in the control's observation).
                    let skipped = Answer {
                        requests: 0,
                        request_body: bytes::Bytes::new(),
                        status: None,
                        error: None,
                        path: None,
                        ..control_answer.clone()
                    };
                    summary.count_not_sent(verdict);
                    emit(case, skipped, verdict, note);
                    bar.inc(1);
                }
                summary.wall = clock.elapsed();
                return (rec.id.clone(), summary);
            }
            // Each answer is recorded as it arrives: nothing waits for the slowest probe and
            // no request body outlives its observation.
            let mut answers = futures::stream::iter(selected[1..].iter().copied())
                .map(|case| async move {
                    let (mut answer, ms) = timed(t.probe(case)).await;
                    let mut extra = None;
                    let was = if previous.is_empty() {
                        None
                    } else {
                        previous.get(&(case.id.clone(), rec.id.clone())).copied()
                    };
                    if let Some(was) = was
                        && answer.verdict.is_decisive()
                        && was.is_decisive()
                        && was != answer.verdict
                    {
                        // A change is only believed when seen again.
                        let (again, ms2) = timed(t.probe(case)).await;
                        answer.requests += again.requests;
                        extra = Some((again, ms2, was));
                    }
                    (case, answer, ms, extra)
                })
                .buffer_unordered(t.concurrency().max(1));
            while let Some((case, mut answer, ms, extra)) = answers.next().await {
                summary.requests += answer.requests;
                let verdict = answer.verdict;
                summary.count(verdict, &answer, redactor);
                let note = answer.note.take();
                let _ = tx.send(observation(run_id, rec, case, answer, verdict, note, ms));
                if let Some((again, ms2, was)) = extra {
                    let note = Some(format!(
                        "repeat: the first answer differed from the matrix ({was})"
                    ));
                    let verdict = again.verdict;
                    let _ = tx.send(observation(run_id, rec, case, again, verdict, note, ms2));
                }
                bar.inc(1);
            }
            summary.wall = clock.elapsed();
            (rec.id.clone(), summary)
        }
    });
    let gather = futures::future::join_all(per_target);
    drop(tx);
    let write = async {
        let mut n = 0usize;
        while let Some(o) = rx.recv().await {
            writer.observation(&o)?;
            n += 1;
            // Lines that arrived together share one write; the file is flushed whenever
            // nothing else is waiting, so a run cut short keeps everything observed.
            while let Ok(o) = rx.try_recv() {
                writer.observation(&o)?;
                n += 1;
            }
            writer.flush()?;
        }
        Ok::<_, crate::error::Error>(n)
    };
    let (summaries, written) = futures::join!(gather, write);
    written?;
    bar.finish_and_clear();
    let targets: BTreeMap<String, TargetSummary> = summaries.into_iter().collect();
    let footer = RunFooter {
        record: "footer".into(),
        run: run_id.clone(),
        ended: Utc::now(),
        counts: targets
            .iter()
            .filter(|(_, s)| s.skipped.is_none())
            .map(|(id, s)| (id.clone(), s.counts.clone()))
            .collect(),
        requests: targets.values().map(|s| s.requests).sum(),
    };
    let log = writer.finish(&footer)?;
    Ok(RunSummary {
        run: run_id,
        log,
        targets,
    })
}

async fn timed(f: BoxFuture<'_, Answer>) -> (Answer, f64) {
    let start = Instant::now();
    let a = f.await;
    (a, start.elapsed().as_secs_f64() * 1000.0)
}

/// The observation of one answer (moved in: its texts are not copied again).
fn observation(
    run: &str,
    rec: &TargetRecord,
    case: &Case,
    a: Answer,
    verdict: Verdict,
    note: Option<String>,
    latency_ms: f64,
) -> Observation {
    Observation {
        record: "observation".into(),
        run: run.to_string(),
        case: case.id.clone(),
        target: rec.id.clone(),
        endpoint: rec.endpoint.clone(),
        model: a.model.or_else(|| rec.model.clone()),
        time: Utc::now(),
        request_digest: if a.request_body.is_empty() {
            String::new()
        } else {
            digest(&a.request_body)
        },
        case_digest: Some(case.digest()),
        status: a.status,
        verdict,
        stage: a.stage,
        error: a.error,
        path: a.path,
        latency_ms,
        note,
    }
}

fn progress_bar(enabled: bool, len: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !enabled || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} probing [{bar:40}] {pos}/{len} {elapsed}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// The default folder for run logs below a project root.
pub fn runs_dir(reports: &Path) -> PathBuf {
    reports.join("runs")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{Placement, baseline};

    /// An engine whose check takes two seconds.
    struct Slow;

    impl Engine for Slow {
        fn id(&self) -> &'static str {
            "engine/slow"
        }
        fn endpoint(&self) -> String {
            "in-process:slow".into()
        }
        fn check(
            &self,
            _: &[crate::tool::ToolDef],
            _: &[crate::case::Instance],
        ) -> crate::engine::EngineAnswer {
            std::thread::sleep(std::time::Duration::from_secs(2));
            crate::engine::EngineAnswer::accepted(crate::evidence::Stage::Parse, Vec::new(), None)
        }
        fn input(&self, _: &[crate::tool::ToolDef]) -> Vec<u8> {
            Vec::new()
        }
    }

    /// An engine's check leaves the run's thread free (trial 77 D3: a case of several seconds
    /// held off Ctrl-C until it ended). On a one-thread runtime, as a run has, a timer of a
    /// millisecond beside a two-second check fires first; with the check on the run's
    /// thread, the probe, polled first, was done before the timer could be polled.
    #[test]
    fn an_engines_check_leaves_the_runs_thread_free() {
        let catalog = crate::case::Catalog::load(std::path::Path::new("cases")).unwrap();
        let case = catalog.cases.iter().find(|c| !c.strict).unwrap();
        let target = EngineTarget(std::sync::Arc::new(Slow));
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let first = rt.block_on(async {
            tokio::select! {
                biased;
                _ = target.probe(case) => "the check",
                _ = tokio::time::sleep(std::time::Duration::from_millis(1)) => "the timer",
            }
        });
        rt.shutdown_background();
        assert_eq!(first, "the timer");
    }

    /// A case asking for strict mode is sent where the request carries the flag, and nowhere
    /// else: a target without one would judge the baseline alone.
    #[test]
    fn a_strict_case_goes_only_where_the_request_carries_the_flag() {
        let catalog = crate::case::Catalog::load(std::path::Path::new("cases")).unwrap();
        let case = catalog
            .cases
            .iter()
            .find(|c| c.id == "structure/strict-open-object-root")
            .unwrap();
        let opts = crate::target::WireOptions::for_case(case);
        let env = std::collections::BTreeMap::<String, String>::new();
        let body = |id: &str| {
            let route = crate::target::route(id).unwrap();
            route
                .request(&route.configure(&env), &case.tools, &opts)
                .body
        };
        for id in [
            "openai/chat",
            "openai/chat-strict",
            "openai/responses-strict",
            "azure-openai/chat",
        ] {
            let b = body(id);
            assert!(carries_strict(&b), "{id}");
            // The wire baseline leaves the root open: that is the feature.
            assert!(
                !String::from_utf8_lossy(&b).contains("additionalProperties"),
                "{id}"
            );
        }
        assert!(!carries_strict(&body("anthropic/messages")));
        let skipped = Answer::strict_not_carried();
        assert_eq!(skipped.verdict, Verdict::Skipped);
        assert_eq!(skipped.requests, 0);
    }

    fn answer(verdict: Verdict, stage: Stage, status: Option<u16>, error: &str) -> Answer {
        Answer {
            verdict,
            stage,
            status,
            error: Some(error.to_string()),
            path: None,
            note: None,
            model: None,
            request_body: bytes::Bytes::new(),
            requests: 1,
        }
    }

    #[test]
    fn an_all_inconclusive_target_says_why() {
        let redactor = Redactor::new(vec!["sk-secret-123".into()]);
        let mut t = TargetSummary::default();
        let auth = answer(
            Verdict::Inconclusive,
            Stage::Auth,
            Some(401),
            "Incorrect API key provided: sk-secret-123\nmore",
        );
        let long = format!(
            "error sending request: {}dns error: no such host",
            "x".repeat(200)
        );
        let dns = answer(Verdict::Unreachable, Stage::Transport, None, &long);
        t.count(Verdict::Inconclusive, &auth, &redactor);
        t.count(Verdict::Unreachable, &dns, &redactor);
        t.count(Verdict::Inconclusive, &auth, &redactor);
        let (why, n) = t.why_all_inconclusive().unwrap();
        assert_eq!(n, 2);
        assert!(
            why.starts_with("auth: 401 Incorrect API key provided: "),
            "{why}"
        );
        assert!(!why.contains("sk-secret-123"), "redacted: {why}");
        assert!(!why.contains("more"), "first line only: {why}");
        let transport = t
            .inconclusive_reasons
            .keys()
            .find(|k| k.starts_with("transport: "))
            .unwrap();
        assert!(
            transport.ends_with("dns error: no such host"),
            "{transport}"
        );
        assert!(transport.chars().count() < 200, "{transport}");
        // Cut between words where a space is near, never mid-word.
        let words = "no connection could be made because the target machine actively refused it";
        let cut = reason(
            &answer(
                Verdict::Unreachable,
                Stage::Transport,
                None,
                &format!("{words} {words} {words}"),
            ),
            &redactor,
        );
        let (head, tail) = cut.split_once(" … ").expect("cut");
        for part in [head.trim_start_matches("transport: "), tail] {
            for w in part.split(' ') {
                assert!(words.split(' ').any(|x| x == w), "{w:?} in {cut}");
            }
        }
        // One decisive answer: the run log tells case by case.
        t.count(
            Verdict::Accepted,
            &answer(Verdict::Accepted, Stage::Validate, Some(200), ""),
            &redactor,
        );
        assert_eq!(t.why_all_inconclusive(), None);
    }
    /// No run of a key's characters survives into a reason: the line is redacted before it is
    /// cut (cut first, a key across the `…` lost its start, and its tail no longer matched).
    #[test]
    fn a_long_answer_is_redacted_before_it_is_cut() {
        let key = format!("tw-canary-{}", "SECRETKEY1234567890abcdef");
        let redactor = Redactor::new(vec![key.clone()]);
        for (before, after) in [(120, 60), (60, 120), (75, 75), (0, 200), (200, 0)] {
            let message = format!("{}{key}{}", "A".repeat(before), "B".repeat(after));
            let why = reason(
                &answer(Verdict::Inconclusive, Stage::Auth, Some(401), &message),
                &redactor,
            );
            let chars: Vec<char> = key.chars().collect();
            for run in chars.windows(6) {
                let run: String = run.iter().collect();
                assert!(!why.contains(&run), "{run:?} of the key in {why}");
            }
        }
    }

    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A target that answers from a table and counts probes.
    struct Fake {
        control: Verdict,
        cases: Verdict,
        sent: AtomicUsize,
    }

    impl ProbeTarget for Fake {
        fn record(&self) -> TargetRecord {
            TargetRecord {
                id: "fake/target".into(),
                endpoint: "in-process:fake".into(),
                model: None,
                api_version: None,
                auth: "in-process".into(),
                skipped: None,
            }
        }
        fn probe<'a>(&'a self, case: &'a Case) -> BoxFuture<'a, Answer> {
            self.sent.fetch_add(1, Ordering::SeqCst);
            let verdict = if case.is_control() {
                self.control
            } else {
                self.cases
            };
            Box::pin(async move {
                // The control's answer has a status, an error and a path, so that the
                // tests can tell them from what a case not sent records.
                let control = case.is_control();
                Answer {
                    verdict,
                    stage: Stage::Parse,
                    status: control.then_some(400),
                    error: control.then(|| "bad".to_string()),
                    path: control.then(|| "/x".to_string()),
                    note: None,
                    model: None,
                    request_body: bytes::Bytes::from_static(b"{}"),
                    requests: 1,
                }
            })
        }
    }

    fn catalog() -> Catalog {
        let mk = |id: &str| Case {
            id: id.into(),
            title: id.into(),
            family: id.split('/').next().unwrap().into(),
            parameter: "p".into(),
            placement: Placement::Root,
            strict: false,
            tools: vec![baseline()],
            instances: vec![],
            notes: String::new(),
            links: vec![],
            path: PathBuf::new(),
        };
        Catalog {
            root: PathBuf::from("cases"),
            cases: vec![mk("control/baseline"), mk("keywords/a"), mk("keywords/b")],
        }
    }

    fn go(
        fake: Arc<Fake>,
        previous: HashMap<(String, String), Verdict>,
    ) -> (RunSummary, runlog::RunLog) {
        let dir = tempfile::tempdir().unwrap();
        let cat = catalog();
        let cases: Vec<&Case> = cat.cases.iter().collect();
        let opts = RunOptions {
            runs_dir: dir.path().to_path_buf(),
            progress: false,
            previous,
            redactor: Redactor::default(),
            emulated: false,
            log: Default::default(),
        };
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let summary = rt
            .block_on(run(&cat, &cases, vec![fake as Arc<dyn ProbeTarget>], opts))
            .unwrap();
        let log = runlog::read(&summary.log).unwrap();
        (summary, log)
    }

    /// An unreachable control's reason is its own: the cases not sent after it are counted
    /// apart (the summary said "3 of 3: …" of a reason only the control met).
    #[test]
    fn cases_not_sent_after_a_failed_control_do_not_repeat_its_reason() {
        let fake = Arc::new(Fake {
            control: Verdict::Unreachable,
            cases: Verdict::Accepted,
            sent: AtomicUsize::new(0),
        });
        let (summary, _log) = go(fake, HashMap::new());
        let t = &summary.targets["fake/target"];
        assert_eq!(t.counts[&Verdict::Unreachable], 3);
        assert_eq!(t.not_sent, 2);
        assert_eq!(t.not_sent_as, Some(Verdict::Unreachable));
        assert_eq!(t.why_all_inconclusive(), Some(("parse: 400 bad", 1)));
        // The table shows the control unreachable and the other two not sent (before: "3"
        // under unreachable, of which two were never sent).
        let table = crate::cli::probe::summary_table(&summary);
        let row = table
            .lines()
            .find(|l| l.contains("fake/target"))
            .expect("a row");
        let cells: Vec<&str> = row.split('│').map(str::trim).collect();
        let header: Vec<&str> = table
            .lines()
            .nth(1)
            .expect("a header")
            .split('│')
            .map(str::trim)
            .collect();
        let cell = |name: &str| cells[header.iter().position(|h| *h == name).expect(name)];
        assert_eq!(
            (cell("unreachable"), cell("not sent")),
            ("1", "2"),
            "{table}"
        );
    }

    #[test]
    fn a_rejected_control_confounds_the_run_and_sends_nothing_more() {
        let fake = Arc::new(Fake {
            control: Verdict::Rejected,
            cases: Verdict::Rejected,
            sent: AtomicUsize::new(0),
        });
        let (summary, log) = go(fake.clone(), HashMap::new());
        assert_eq!(fake.sent.load(Ordering::SeqCst), 1);
        let verdicts: Vec<(String, Verdict)> = log
            .observations
            .iter()
            .map(|o| (o.case.clone(), o.verdict))
            .collect();
        assert_eq!(
            verdicts,
            [
                ("control/baseline".to_string(), Verdict::Rejected),
                ("keywords/a".to_string(), Verdict::Confounded),
                ("keywords/b".to_string(), Verdict::Confounded)
            ]
        );
        assert_eq!(
            summary.targets["fake/target"].counts[&Verdict::Confounded],
            2
        );
        assert_eq!(log.footer.unwrap().requests, 1);
        // Not sent, so nothing answered: only the control has a status, error and path.
        let answered: Vec<(Option<u16>, bool, bool)> = log
            .observations
            .iter()
            .map(|o| (o.status, o.error.is_some(), o.path.is_some()))
            .collect();
        assert_eq!(
            answered,
            [
                (Some(400), true, true),
                (None, false, false),
                (None, false, false)
            ]
        );
    }

    #[test]
    fn a_verdict_that_differs_from_the_matrix_is_probed_again() {
        let fake = Arc::new(Fake {
            control: Verdict::Accepted,
            cases: Verdict::Rejected,
            sent: AtomicUsize::new(0),
        });
        let previous = HashMap::from([(
            ("keywords/a".to_string(), "fake/target".to_string()),
            Verdict::Accepted,
        )]);
        let (_, log) = go(fake.clone(), previous);
        // control + a + a again + b
        assert_eq!(fake.sent.load(Ordering::SeqCst), 4);
        let repeats: Vec<_> = log
            .observations
            .iter()
            .filter(|o| o.note.as_deref().is_some_and(|n| n.starts_with("repeat:")))
            .collect();
        assert_eq!(repeats.len(), 1);
        assert_eq!(repeats[0].case, "keywords/a");
        assert!(
            log.observations
                .iter()
                .all(|o| o.request_digest.starts_with("sha256:"))
        );
    }
}
