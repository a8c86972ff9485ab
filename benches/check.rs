//! `check` over the three corpora, on one core, as ratios measured in one run:
//!
//! - **parsed**: `check` (profile `portable`) over every tool already parsed, next to the
//!   jsonschema crate's draft 2020-12 meta-schema `iter_errors` over the same parameters
//!   schemas (goal: at least 3× faster);
//! - **bytes**: reading the corpus files from bytes (UTF-8 and nesting checks, JSON Lines
//!   parse, format detection) and checking, next to `serde_json` parsing the same lines alone
//!   (goal: within 1.5× of the parse).
//!
//! Beside them, the run times **visiting** every value and key of the parsed schemas and
//! nothing else: the floor under any check that looks at every keyword of a `serde_json::Value`
//! tree, against which the parsed goal's budget can be read.
//!
//! Criterion reports each as `elem/s` (tools per second); after it, the harness prints the
//! ratios from its own medians of repeated runs of the same four workloads (taking turns, so
//! that load from other processes falls on all four alike), on this machine, in this run. `TOOLWIRE_CORPORA` points at the corpora (default: `../shared/corpora` next
//! to the crate); without them the bench says so and does nothing.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use serde_json::Value;
use toolwire::check::{Findings, check_set_findings, check_set_into, render_set};
use toolwire::input::{self, ToolSet};
use toolwire::profile::{self, CompiledProfile};

fn corpora_dir() -> PathBuf {
    std::env::var_os("TOOLWIRE_CORPORA").map_or(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"),
        PathBuf::from,
    )
}

struct Corpora {
    files: Vec<(PathBuf, Vec<u8>)>,
    sets: Vec<ToolSet>,
    tools: usize,
}

fn load(dir: &Path) -> Option<Corpora> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return None;
    }
    let files: Vec<(PathBuf, Vec<u8>)> = paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("a corpus file reads");
            (p, bytes)
        })
        .collect();
    let sets: Vec<ToolSet> = files
        .iter()
        .map(|(p, b)| input::from_bytes(p, b).expect("a corpus file parses"))
        .collect();
    let tools = sets.iter().map(|s| s.tools.len()).sum();
    Some(Corpora { files, sets, tools })
}

/// `check` as the comparison measures it: findings recorded, not rendered (jsonschema's
/// errors also render their messages only when displayed), into one buffer reused from set
/// to set (as `iter_errors(..).count()` reuses the memory of the errors it drops).
fn check_parsed(c: &Corpora, p: &CompiledProfile, buf: &mut Findings) -> usize {
    c.sets
        .iter()
        .map(|s| {
            check_set_into(s, p, buf);
            buf.len()
        })
        .sum()
}

/// Rendering alone: every finding of `check_parsed` made an owned `Finding` (message with
/// its evidence sentence, pointer, shared texts, file, line, location), as every output does.
fn render_parsed(c: &Corpora, p: &CompiledProfile, made: &[Findings]) -> usize {
    c.sets
        .iter()
        .zip(made)
        .map(|(s, f)| render_set(s, p, f).len())
        .sum()
}

fn meta_parsed(c: &Corpora, meta: &jsonschema::meta::MetaValidator<'_>) -> usize {
    let mut errors = 0;
    for set in &c.sets {
        for t in &set.tools {
            if let Some(p) = &t.parameters {
                errors += meta.iter_errors(p).count();
            }
        }
    }
    errors
}

/// The floor of any check on parsed schemas: visiting every value of every parameters schema
/// and reading every object key's bytes, as a check that looks at each keyword must, and
/// nothing else. It bounds what a walk over `serde_json::Value` trees can reach.
fn visit_parsed(c: &Corpora) -> usize {
    let mut sum = 0usize;
    let mut stack: Vec<&Value> = Vec::new();
    for set in &c.sets {
        for t in &set.tools {
            stack.extend(t.parameters.as_ref());
            while let Some(v) = stack.pop() {
                match v {
                    Value::Object(m) => {
                        for (k, x) in m {
                            sum += k.bytes().fold(0usize, |a, b| a + usize::from(b));
                            stack.push(x);
                        }
                    }
                    Value::Array(a) => stack.extend(a),
                    _ => sum += 1,
                }
            }
        }
    }
    sum
}

fn check_bytes(c: &Corpora, p: &CompiledProfile) -> usize {
    let mut n = 0;
    for (path, bytes) in &c.files {
        let (_, findings) = toolwire::check::check_bytes(path, bytes, p).expect("parses");
        n += findings.len();
    }
    n
}

/// Reading alone as `check_bytes` reads (UTF-8 and nesting checks, JSON Lines parse, format
/// detection, a request at a time), without the check: for the breakdown of `bytes`.
fn read_bytes(c: &Corpora) -> usize {
    let mut n = 0;
    for (path, bytes) in &c.files {
        input::for_each_request(path, bytes, &mut |tools, _| n += tools.len()).expect("parses");
    }
    n
}

fn parse_bytes(c: &Corpora) -> usize {
    let mut n = 0;
    for (_, bytes) in &c.files {
        let text = std::str::from_utf8(bytes).expect("utf-8");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).expect("a line parses");
            n += usize::from(v.is_object());
        }
    }
    n
}

/// Median wall time of each workload over `runs` rounds. The workloads take turns within a
/// round, so that a change in the machine's load (other processes) falls on all of them
/// alike instead of on whichever ran during it.
fn medians<const N: usize>(runs: usize, work: [&dyn Fn() -> usize; N]) -> [Duration; N] {
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(runs); N];
    for _ in 0..runs {
        for (f, t) in work.iter().zip(times.iter_mut()) {
            let start = Instant::now();
            std::hint::black_box(f());
            t.push(start.elapsed());
        }
    }
    std::array::from_fn(|i| {
        times[i].sort();
        times[i][runs / 2]
    })
}

fn main() {
    let dir = corpora_dir();
    let Some(corpora) = load(&dir) else {
        println!(
            "no corpora at {} (set TOOLWIRE_CORPORA); nothing to measure",
            dir.display()
        );
        return;
    };
    let set = profile::embedded().expect("the embedded profiles load");
    let portable = CompiledProfile::new(set.get(profile::PORTABLE).expect("a portable profile"));
    let meta = jsonschema::draft202012::meta::validator();
    let n = corpora.tools as u64;
    let buf = std::cell::RefCell::new(Findings::default());
    let made: Vec<Findings> = corpora
        .sets
        .iter()
        .map(|s| check_set_findings(s, &portable))
        .collect();

    // For profilers (perf, callgrind): run one workload N times and nothing else.
    if let Some(which) = std::env::var_os("TOOLWIRE_BENCH_LOOP") {
        let times: usize = std::env::var("TOOLWIRE_BENCH_TIMES")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(50);
        let mut sink = 0;
        for _ in 0..times {
            sink += match which.to_str() {
                Some("check") => check_parsed(&corpora, &portable, &mut buf.borrow_mut()),
                Some("render") => render_parsed(&corpora, &portable, &made),
                Some("meta") => meta_parsed(&corpora, &meta),
                Some("visit") => visit_parsed(&corpora),
                Some("bytes") => check_bytes(&corpora, &portable),
                Some("parse") => parse_bytes(&corpora),
                Some("read") => read_bytes(&corpora),
                _ => {
                    panic!(
                        "TOOLWIRE_BENCH_LOOP is one of check, render, meta, visit, bytes, read, parse"
                    )
                }
            };
        }
        println!("{sink}");
        return;
    }

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .configure_from_args();
    {
        let mut g = c.benchmark_group("parsed");
        g.throughput(Throughput::Elements(n));
        g.bench_function("toolwire-check", |b| {
            b.iter(|| check_parsed(&corpora, &portable, &mut buf.borrow_mut()))
        });
        g.bench_function("jsonschema-meta-iter_errors", |b| {
            b.iter(|| meta_parsed(&corpora, &meta))
        });
        g.finish();
    }
    {
        let mut g = c.benchmark_group("bytes");
        g.throughput(Throughput::Elements(n));
        g.bench_function("toolwire-read-and-check", |b| {
            b.iter(|| check_bytes(&corpora, &portable))
        });
        g.bench_function("serde_json-parse", |b| b.iter(|| parse_bytes(&corpora)));
        g.finish();
    }
    c.final_summary();

    let runs = 21;
    let [ours, theirs, read, parse, read_only, render, visit] = medians(
        runs,
        [
            &|| check_parsed(&corpora, &portable, &mut buf.borrow_mut()),
            &|| meta_parsed(&corpora, &meta),
            &|| check_bytes(&corpora, &portable),
            &|| parse_bytes(&corpora),
            &|| read_bytes(&corpora),
            &|| render_parsed(&corpora, &portable, &made),
            &|| visit_parsed(&corpora),
        ],
    );
    let rate = |d: Duration| n as f64 / d.as_secs_f64();
    println!(
        "\ncheck over {} corpus tools, one core, medians of {runs} rounds:",
        n
    );
    println!(
        "  parsed: toolwire check {:>10.0} tools/s; jsonschema meta iter_errors {:>10.0} tools/s; check is {:.2}x faster (goal >= 3x)",
        rate(ours),
        rate(theirs),
        theirs.as_secs_f64() / ours.as_secs_f64()
    );
    let per_tool = |d: Duration| d.as_secs_f64() * 1e6 / n as f64;
    println!(
        "          check {:.2} us/tool, meta iter_errors {:.2} us/tool; rendering every finding as an owned Finding adds {:.2} us/tool (check + render is {:.2}x faster than meta)",
        per_tool(ours),
        per_tool(theirs),
        per_tool(render),
        theirs.as_secs_f64() / (ours + render).as_secs_f64()
    );
    println!(
        "          visiting every value and key of the parsed schemas alone (the floor of any walk) takes {:.2} us/tool, {:.2}x faster than meta",
        per_tool(visit),
        theirs.as_secs_f64() / visit.as_secs_f64()
    );
    println!(
        "  bytes:  read + check     {:>10.0} tools/s; serde_json parse alone    {:>10.0} tools/s; read + check takes {:.2}x the parse (goal <= 1.5x)",
        rate(read),
        rate(parse),
        read.as_secs_f64() / parse.as_secs_f64()
    );
    println!(
        "          of which reading alone (no check) {:>10.0} tools/s, {:.2}x the parse",
        rate(read_only),
        read_only.as_secs_f64() / parse.as_secs_f64()
    );
}
