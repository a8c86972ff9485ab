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
//! And, to measure what a port of `check` onto its own **arena** document could reach before
//! anyone makes it (`check/arena.rs`: a flat arena read through serde_json's parser, strings
//! borrowed, keys classified into keyword ids as read): reading the corpora into it; visiting
//! its trees; the fused floor (that visit with `detect::read_keys`' per-node work: the keyword
//! switch, the subschema's fields, frames, the `Stats` byte counts, but no rule); and that
//! floor from bytes, each line walked as soon as it is read.
//!
//! Criterion reports the first four as `elem/s` (tools per second); after it, the harness
//! prints the ratios from its own medians of repeated runs of every workload (taking turns, so
//! that load from other processes falls on all alike), on this machine, in this run.
//! `benches/instructions.sh` runs the workloads under callgrind for the same ratios in
//! instructions executed, which do not move with the machine's load (wall time does, by 2.6×
//! within one afternoon on this project's VM) but do not see memory stalls either.
//! `TOOLWIRE_CORPORA` points at the corpora (default: `../shared/corpora` next to the crate);
//! without them the bench says so and does nothing.
//!
//! # The budget a borrowed document leaves (measured 2026-12-02)
//!
//! Two runs, one core (`taskset -c 1`) of a 2-core AMD EPYC VM shared with other builds (load
//! average 8 to 10, so absolute times are 2 to 2.7× issue 3's: read the ratios), rustc
//! 1.95, 4170 corpus tools; µs per tool, run 1 / run 2:
//!
//! | workload | run 1 | run 2 |
//! |---|---|---|
//! | meta `iter_errors` | 13.04 | 11.80 |
//! | `check` (parsed) | 8.59 | 7.17 |
//! | Value visit | 2.69 | 1.83 |
//! | serde_json parse | 11.68 | 10.74 |
//! | arena read | 4.93 (0.42× the parse) | 4.48 (0.42×) |
//! | arena visit | 0.44 | 0.45 |
//! | fused floor (parsed) | 2.60 | 2.06 |
//! | fused floor from bytes | 5.66 (0.48× the parse) | 5.26 (0.49×) |
//!
//! - (a) parsed, 3× faster than meta: the port's check must take at most meta / 3 = 4.35 /
//!   3.93 µs, so the rules have **1.74 / 1.87 µs** over the fused floor. Today `check` spends
//!   5.90 / 5.34 µs beyond the bare Value visit (the walk's own work and the rules): the port
//!   meets (a) only if the 38 rules, with the meta-schema proof and the value forms the floor
//!   leaves out, cost about a third of that. The arena alone does not show they would; the
//!   rules' share of today's `check` is the next thing to measure.
//! - (b) bytes, within 1.5× the parse: reading into the arena costs 0.42× the parse and the
//!   fused floor from bytes 0.48–0.49×, which leaves **11.86 / 10.85 µs** for the rules, more
//!   than all of today's `check` beyond the Value visit: a port looks able to meet (b) with
//!   rules no faster than today's. (Walked apart from the reading, over trees gone cold, the
//!   floor costs 1.9 / 1.3 µs more: a port should check each request as it reads it.)

#[path = "check/arena.rs"]
mod arena;

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
        input::for_each_request(path, bytes, &mut |tools, _| n += tools.len(), &mut |e| {
            panic!("{e}")
        })
        .expect("parses");
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

/// Reading the corpus files into the borrowed arena ([`arena`]), a line at a time into one
/// arena reused from line to line: the reading a port of `check` onto its own document would
/// do, next to `parse_bytes` (the same UTF-8 check of each file, the same lines). With `walk`,
/// each line's parameters schema is walked as [`arena::fused`] walks it, right after the line
/// is read (while the line and its arena are still in cache), as a port's `check` from bytes
/// would.
fn read_arena(c: &Corpora, mut walk: Option<&mut arena::Walk>) -> usize {
    let mut reader = arena::Reader::default();
    let mut tree = arena::Tree {
        nodes: Vec::new(),
        root: 0,
    };
    let mut n = 0;
    for (_, bytes) in &c.files {
        let text = std::str::from_utf8(bytes).expect("utf-8");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            tree.root = reader.read(line, &mut tree.nodes).expect("a line reads");
            n += match walk.as_deref_mut() {
                None => usize::from(matches!(
                    tree.nodes[tree.root as usize].value,
                    arena::Val::Object(..)
                )),
                Some(walk) => {
                    tree.root = parameters(&tree);
                    walk.tree(&tree).compact_bytes
                }
            };
        }
    }
    n
}

/// The parameters schema of a corpus line read whole (every corpus line is `{"source",
/// "license", "tool": {"name", "description", "parameters"}}`).
fn parameters(line: &arena::Tree<'_>) -> u32 {
    line.get(line.root, "tool")
        .and_then(|tool| line.get(tool, "parameters"))
        .expect("a corpus line has tool.parameters")
}

/// Every corpus line read into an arena of its own, rooted at its tool's parameters schema:
/// the same schemas, in the same order, as `Corpora::sets` holds.
fn arena_trees(c: &Corpora) -> Vec<arena::Tree<'_>> {
    let mut reader = arena::Reader::default();
    let mut trees = Vec::new();
    for (_, bytes) in &c.files {
        let text = std::str::from_utf8(bytes).expect("utf-8");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut tree = arena::Tree {
                nodes: Vec::new(),
                root: 0,
            };
            tree.root = reader.read(line, &mut tree.nodes).expect("a line reads");
            tree.root = parameters(&tree);
            trees.push(tree);
        }
    }
    trees
}

/// Holds the arena workloads to what they stand for before any is timed: each tree is the
/// parsed schema, the fused walk counts the bytes `detect::compact_len` does (exactly where
/// nothing is escaped, else within the walk's bound), and the reader borrows unescaped text
/// and refuses toolwire's nesting cap.
fn hold_arena(c: &Corpora, trees: &[arena::Tree<'_>]) {
    let schemas: Vec<&Value> = c
        .sets
        .iter()
        .flat_map(|s| &s.tools)
        .map(|t| t.parameters.as_ref().expect("a corpus tool has parameters"))
        .collect();
    assert_eq!(schemas.len(), trees.len(), "one arena tree per corpus tool");
    let mut walk = arena::Walk::default();
    for (t, v) in trees.iter().zip(schemas) {
        assert_eq!(&arena::to_value(t, t.root), v);
        let stats = walk.tree(t);
        let exact = toolwire::profile::detect::compact_len(v);
        if serde_json::to_string(v).expect("serializes").contains('\\') {
            assert!(stats.compact_bytes < exact);
            assert!(exact <= stats.compact_bytes + 5 * stats.string_bytes);
        } else {
            assert_eq!(stats.compact_bytes, exact, "{v}");
        }
    }
    let nest = |n: usize| "[".repeat(n) + &"]".repeat(n);
    let (at_cap, past_cap) = (nest(512), nest(513));
    let mut reader = arena::Reader::default();
    let mut nodes = Vec::new();
    let root = reader
        .read(r#"{"a": "b", "c\\d": "e\\nf"}"#, &mut nodes)
        .expect("reads");
    let members = match nodes[root as usize].value {
        arena::Val::Object(s, e) => &nodes[s as usize..e as usize],
        _ => panic!("an object"),
    };
    let borrowed: Vec<(bool, bool)> = members
        .iter()
        .map(|n| {
            let arena::Val::Str(v) = &n.value else {
                panic!("a string")
            };
            (
                matches!(n.key, std::borrow::Cow::Borrowed(_)),
                matches!(v, std::borrow::Cow::Borrowed(_)),
            )
        })
        .collect();
    assert_eq!(borrowed, [(true, true), (false, false)]);
    assert!(reader.read(&at_cap, &mut nodes).is_ok());
    let deep = reader
        .read(&past_cap, &mut nodes)
        .expect_err("past the cap");
    assert!(
        deep.to_string().contains("nesting deeper than 512 levels"),
        "{deep}"
    );
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

/// One round of a `TOOLWIRE_BENCH_LOOP` workload, never inlined: the one symbol a profiler
/// counts in (`benches/instructions.sh` passes callgrind `--toggle-collect=*one_round*`), so
/// that loading the corpora, which varies from run to run, is left out.
#[inline(never)]
fn one_round(workload: impl FnOnce() -> usize) -> usize {
    workload()
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
    // A profiler may measure another profile's check (`TOOLWIRE_BENCH_PROFILE`): one with
    // fewer findings shows what recording them costs. Issue 3 asks for `portable` (the default).
    let name = std::env::var("TOOLWIRE_BENCH_PROFILE").unwrap_or(profile::PORTABLE.into());
    let portable = CompiledProfile::new(set.get(&name).expect("a profile of that name"));
    let meta = jsonschema::draft202012::meta::validator();
    let n = corpora.tools as u64;
    let buf = std::cell::RefCell::new(Findings::default());
    let made: Vec<Findings> = corpora
        .sets
        .iter()
        .map(|s| check_set_findings(s, &portable))
        .collect();

    let trees = arena_trees(&corpora);
    let walk = std::cell::RefCell::new(arena::Walk::default());
    hold_arena(&corpora, &trees);

    // For profilers (perf, callgrind): run one workload N times and nothing else.
    if let Some(which) = std::env::var_os("TOOLWIRE_BENCH_LOOP") {
        let times: usize = std::env::var("TOOLWIRE_BENCH_TIMES")
            .ok()
            .and_then(|t| t.parse().ok())
            .unwrap_or(50);
        let mut sink = 0;
        for _ in 0..times {
            sink += one_round(|| match which.to_str() {
                Some("check") => check_parsed(&corpora, &portable, &mut buf.borrow_mut()),
                Some("render") => render_parsed(&corpora, &portable, &made),
                Some("meta") => meta_parsed(&corpora, &meta),
                Some("visit") => visit_parsed(&corpora),
                Some("bytes") => check_bytes(&corpora, &portable),
                Some("parse") => parse_bytes(&corpora),
                Some("read") => read_bytes(&corpora),
                Some("arena-read") => read_arena(&corpora, None),
                Some("arena-read-fused") => read_arena(&corpora, Some(&mut walk.borrow_mut())),
                Some("arena-visit") => arena::visit(&trees),
                Some("arena-fused") => arena::fused(&trees),
                _ => {
                    panic!(
                        "TOOLWIRE_BENCH_LOOP is one of check, render, meta, visit, bytes, read, parse, arena-read, arena-visit, arena-fused, arena-read-fused"
                    )
                }
            });
        }
        println!("{sink}");
        // For benches/instructions.sh, which divides instruction counts by it.
        eprintln!("tools: {}", corpora.tools);
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
    let [
        ours,
        theirs,
        read,
        parse,
        read_only,
        render,
        visit,
        arena_read,
        arena_visit,
        arena_fused,
        arena_bytes,
    ] = medians(
        runs,
        [
            &|| check_parsed(&corpora, &portable, &mut buf.borrow_mut()),
            &|| meta_parsed(&corpora, &meta),
            &|| check_bytes(&corpora, &portable),
            &|| parse_bytes(&corpora),
            &|| read_bytes(&corpora),
            &|| render_parsed(&corpora, &portable, &made),
            &|| visit_parsed(&corpora),
            &|| read_arena(&corpora, None),
            &|| arena::visit(&trees),
            &|| arena::fused(&trees),
            &|| read_arena(&corpora, Some(&mut walk.borrow_mut())),
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
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    println!("  arena:  a borrowed document read from the bytes (benches/check/arena.rs):");
    println!(
        "          reading into it {:.2} us/tool, {:.2}x the parse; visiting its trees (every value, every key's keyword id) {:.2} us/tool, {:.2}x faster than the Value visit and {:.2}x faster than meta",
        per_tool(arena_read),
        ratio(arena_read, parse),
        per_tool(arena_visit),
        ratio(visit, arena_visit),
        ratio(theirs, arena_visit)
    );
    println!(
        "          fused floor (the visit with read_keys' fields, frames and Stats byte counts) {:.2} us/tool, {:.2}x faster than meta",
        per_tool(arena_fused),
        ratio(theirs, arena_fused)
    );
    println!(
        "          from bytes, each line walked as soon as read (the fused floor end to end) {:.2} us/tool, {:.2}x the parse",
        per_tool(arena_bytes),
        ratio(arena_bytes, parse)
    );
    let us = |d: f64| d * 1e6 / n as f64;
    println!(
        "          left for the rules: {:.2} us/tool over the fused floor to be 3x faster than meta, {:.2} us/tool over the end-to-end floor to stay within 1.5x the parse (today's check spends {:.2} us/tool beyond the Value visit)",
        us(theirs.as_secs_f64() / 3.0 - arena_fused.as_secs_f64()),
        us(1.5 * parse.as_secs_f64() - arena_bytes.as_secs_f64()),
        us(ours.as_secs_f64() - visit.as_secs_f64())
    );
}
