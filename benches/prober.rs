//! The whole catalog × every emulated target over loopback: requests per second, wall time,
//! and the prober's own CPU per request.
//!
//! The emulator runs in a child process (`toolwire emulate`), so the CPU time read from
//! `/proc/self/stat` (user + system, all threads, clock ticks of 10 ms) is the prober's alone:
//! runner, HTTP client, answer reading and run-log writing. Every live target is given a key
//! (`tw-bench-key`) and the emulator's base URL, with the loopback politeness defaults
//! (4 probes in flight per target, no rate limit), and the run log redacts that key as
//! `toolwire probe` redacts every key it reads. Run with `cargo bench --bench prober`;
//! `TOOLWIRE_BENCH_RUNS` sets the number of runs (default 3); the summary gives each figure's
//! median over the runs. CPU time is inflated when other processes share the cores: compare
//! figures taken under the same load.
//!
//! Goals (issue 4): under 50 µs of prober CPU per request; the full catalog against all
//! emulated targets in under 10 s on a 2-core machine.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use toolwire::case::Catalog;
use toolwire::evidence::runlog::Redactor;
use toolwire::probe::http::{Budget, HttpOptions, HttpTarget, client};
use toolwire::probe::{self, ProbeTarget, RunOptions};

/// CPU seconds (user, system) this process has used.
fn cpu_seconds() -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 (utime) and 15 (stime) of proc(5); the slice starts at field 3.
    (ticks(11) / 100.0, ticks(12) / 100.0)
}

struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn main() {
    let runs: usize = std::env::var("TOOLWIRE_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolwire"))
        .args(["emulate", "--listen", "127.0.0.1:0", "--exit-after", "600"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start toolwire emulate");
    let stdout = child.stdout.take().expect("emulator stdout");
    let child = Child(child);
    let mut reader = BufReader::new(stdout);
    let mut first = String::new();
    reader.read_line(&mut first).expect("emulator banner");
    // Keep draining the emulator's output so it never writes to a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    let origin = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .expect("listening address")
        .to_string();

    let catalog = Catalog::load(std::path::Path::new("cases")).expect("the case catalog");
    let cases: Vec<_> = catalog.cases.iter().collect();
    let mut env = BTreeMap::new();
    for r in toolwire::target::routes() {
        for v in r.settings().key_env {
            env.insert(v.to_string(), "tw-bench-key".to_string());
        }
    }
    // The same runtime `toolwire probe` uses (see src/cli/probe.rs).
    let runtime = toolwire::cli::probe::runtime().expect("runtime");
    println!(
        "prober bench: {} cases × {} emulated targets over loopback (emulator in a child process)",
        cases.len(),
        toolwire::target::routes().len()
    );
    // The payload's own cost: building every request body and its digest, without sending.
    let (u0, s0) = cpu_seconds();
    let mut bytes = 0usize;
    let mut built = 0usize;
    for route in toolwire::target::routes() {
        let cfg = route.configure(&env);
        for case in &cases {
            let opts = toolwire::target::WireOptions {
                feature: Some(case.parameter.clone()),
                ..Default::default()
            };
            let req = route.request(&cfg, &case.tools, &opts);
            bytes += req.body.len();
            std::hint::black_box(toolwire::evidence::digest(&req.body));
            built += 1;
        }
    }
    let (u1, s1) = cpu_seconds();
    let payload_us = ((u1 - u0) + (s1 - s0)) * 1e6 / built as f64;
    println!(
        "  request bodies: {built}, {:.1} KiB on average; building and digesting one costs {payload_us:.1} µs",
        bytes as f64 / built as f64 / 1024.0
    );
    // One run-log line: an observation serialized and redacted (the runner does this per probe).
    let sample = r#"{"type":"observation","run":"20261130T062426Z-9bf1","case":"keywords/additional-properties-false","target":"openai/chat","endpoint":"http://127.0.0.1:18090/openai/v1/chat/completions","model":"gpt-4.1-mini","time":"2026-11-30T06:24:27.123456789Z","request_digest":"sha256:0a061c60bbf4f0079b92c3490770d816375940d6fadc0067422c9345a83df6b9","status":400,"verdict":"rejected","stage":"validate","error":"Invalid schema for function 'probe_tool': In context=('properties', 'value'), array schema missing items.","path":"('properties', 'value')","latency_ms":4.37,"note":"emulated answer (toolwire emulate; not evidence)"}"#;
    let redactor = Redactor::new(vec!["tw-bench-key".into()]);
    let t = Instant::now();
    for _ in 0..20_000 {
        std::hint::black_box(redactor.redact(std::hint::black_box(sample)));
    }
    println!(
        "  redacting one run-log line: {:.1} µs",
        t.elapsed().as_secs_f64() * 1e6 / 20_000.0
    );
    // Probes in flight per target: the loopback default unless TOOLWIRE_BENCH_CONCURRENCY says.
    let concurrency: Option<usize> = std::env::var("TOOLWIRE_BENCH_CONCURRENCY")
        .ok()
        .and_then(|v| v.parse().ok());
    let mut rows = Vec::new();
    for run in 0..runs {
        let http = client(Duration::from_secs(30)).unwrap();
        let budget = Budget::new(None);
        let mut targets: Vec<Arc<dyn ProbeTarget>> = Vec::new();
        for route in toolwire::target::routes() {
            let mut cfg = route.configure(&env);
            cfg.base_url = format!("{origin}/{}", route.service());
            let mut opts = HttpOptions::loopback();
            if let Some(n) = concurrency {
                opts.concurrency = n.max(1);
            }
            let t = HttpTarget::new(route, cfg, http.clone(), opts, budget.clone()).unwrap();
            targets.push(Arc::new(t));
        }
        let dir = tempfile::tempdir().unwrap();
        let opts = RunOptions {
            runs_dir: dir.path().to_path_buf(),
            progress: false,
            previous: Default::default(),
            // As `toolwire probe` does: every key read is redacted from the run log.
            redactor: Redactor::new(vec!["tw-bench-key".into()]),
            emulated: true,
            log: Default::default(),
        };
        let (user0, sys0) = cpu_seconds();
        let t0 = Instant::now();
        let summary = runtime
            .block_on(probe::run(&catalog, &cases, targets, opts))
            .expect("the run");
        let wall = t0.elapsed().as_secs_f64();
        let (user1, sys1) = cpu_seconds();
        let (user, sys) = (user1 - user0, sys1 - sys0);
        let cpu = user + sys;
        let requests: usize = summary.targets.values().map(|t| t.requests).sum();
        let observations: usize = summary
            .targets
            .values()
            .map(|t| t.counts.values().sum::<usize>())
            .sum();
        let accepted_or_rejected: usize = summary
            .targets
            .values()
            .flat_map(|t| t.counts.iter())
            .filter(|(v, _)| v.is_decisive())
            .map(|(_, n)| n)
            .sum();
        assert_eq!(
            accepted_or_rejected, observations,
            "every probe got a decisive emulated answer (no faults, no retries)"
        );
        println!(
            "  run {}: {requests} requests ({observations} observations) in {wall:.2} s = {:.0} requests/s; prober CPU {cpu:.2} s = {:.1} µs/request ({:.1} user + {:.1} kernel)",
            run + 1,
            requests as f64 / wall,
            cpu * 1e6 / requests.max(1) as f64,
            user * 1e6 / requests.max(1) as f64,
            sys * 1e6 / requests.max(1) as f64
        );
        rows.push((
            wall,
            cpu * 1e6 / requests.max(1) as f64,
            requests as f64 / wall,
        ));
    }
    // Each figure's own median over the runs (the CPU of the median-wall run would tie the CPU
    // figure to whichever run the scheduler happened to favour).
    let median = |pick: fn(&(f64, f64, f64)) -> f64| {
        let mut v: Vec<f64> = rows.iter().map(pick).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (wall, cpu_per, rps) = (median(|r| r.0), median(|r| r.1), median(|r| r.2));
    println!(
        "  median: wall {wall:.2} s, {rps:.0} requests/s, {cpu_per:.1} µs prober CPU per request"
    );
    println!(
        "  goals: wall < 10 s: {}; CPU < 50 µs/request: {} (overhead beyond the payload: {})",
        if wall < 10.0 { "met" } else { "NOT met" },
        if cpu_per < 50.0 { "met" } else { "NOT met" },
        if cpu_per - payload_us < 50.0 {
            "met"
        } else {
            "NOT met"
        }
    );
    drop(child);
}
