//! Benchmarks for the seam: `args` next to the jsonschema crate's bare `iter_errors` on the
//! same call (goal: within 1.5×), `repair` and `compile` throughput over the corpora
//! (tools/s; skipped with a message when the corpora are not at hand: they are licensed and
//! kept outside the repository; set `TOOLWIRE_CORPORA`), and `compile` on one generated
//! 5,000-property tool (`large-schema`, built in memory).
//!
//! Run: `cargo bench --bench seam`. For instruction counts of the `args` hot path (fixed work,
//! comparable before and after a change): `SEAM_ARGS_DRIVER=invalid:2000 valgrind
//! --tool=callgrind target/release/deps/seam-*` (see `main`).

use std::hint::black_box;

use criterion::{Criterion, criterion_group};
use serde_json::{Value, json};
use toolwire::args::{ArgsSchema, Coercions};

/// A typical 10-property tool schema (types, enum, bounds, a pattern, an array, a nested
/// object, a nullable field).
fn typical_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "minLength": 1, "description": "What to search for."},
            "repo": {"type": "string", "pattern": "^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$"},
            "state": {"type": "string", "enum": ["open", "closed", "all"]},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
            "score": {"type": "number", "minimum": 0},
            "include_body": {"type": "boolean"},
            "labels": {"type": "array", "items": {"type": "string"}, "maxItems": 20},
            "author": {"type": ["string", "null"]},
            "sort": {"type": "object", "properties": {
                "field": {"type": "string", "enum": ["created", "updated"]},
                "desc": {"type": "boolean"}
            }, "required": ["field"]},
            "page": {"type": "integer", "minimum": 1}
        },
        "required": ["query", "repo"],
        "additionalProperties": false
    })
}

fn valid_call() -> Value {
    json!({
        "query": "crash on start", "repo": "owner/name", "state": "open", "limit": 20,
        "score": 0.5, "include_body": true, "labels": ["bug", "p1"], "author": null,
        "sort": {"field": "updated", "desc": true}, "page": 2
    })
}

fn invalid_call() -> Value {
    json!({
        "query": "", "repo": "not a repo", "state": "merged", "limit": 500,
        "score": 0.5, "include_body": "yes", "labels": ["bug", 3], "author": null,
        "sort": {"desc": true}, "page": 2, "extra": 1
    })
}

fn bench_args(c: &mut Criterion) {
    let schema = typical_schema();
    let compiled = ArgsSchema::new(&schema).expect("schema compiles");
    let bare = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("schema compiles");
    for (label, call) in [("valid", valid_call()), ("invalid", invalid_call())] {
        let mut g = c.benchmark_group(format!("args/10-properties/{label}"));
        g.bench_function("toolwire-args", |b| {
            b.iter(|| {
                let r = compiled.check(black_box(&call), Coercions::NONE);
                black_box(r.retry_message(Some("search_issues")))
            })
        });
        g.bench_function("jsonschema-iter_errors", |b| {
            b.iter(|| {
                let errors: Vec<_> = bare.iter_errors(black_box(&call)).collect();
                black_box(errors.len())
            })
        });
        // The crate's own messages, for a like-for-like comparison of message-making.
        g.bench_function("jsonschema-iter_errors-to_string", |b| {
            b.iter(|| {
                let errors: Vec<String> = bare
                    .iter_errors(black_box(&call))
                    .map(|e| e.to_string())
                    .collect();
                black_box(errors.len())
            })
        });
        g.finish();
    }
}

/// The corpus tools, one request per JSON Lines line, or nothing when the corpora are absent.
fn corpus_requests() -> Vec<Vec<toolwire::repair::Tool>> {
    let dir = std::env::var("TOOLWIRE_CORPORA")
        .map(std::path::PathBuf::from)
        .ok()
        .or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .ancestors()
                .skip(1)
                .take(3)
                .map(|a| a.join("shared/corpora"))
                .find(|p| p.is_dir())
        });
    let Some(dir) = dir else {
        eprintln!("corpora not found (set TOOLWIRE_CORPORA): repair/compile benchmarks skipped");
        return Vec::new();
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|e| e == "jsonl"));
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let set = toolwire::input::read_file(&f).expect("corpus reads");
        for request in set.requests() {
            out.push(request.iter().map(toolwire::repair::Tool::from).collect());
        }
    }
    out
}

fn bench_repair_and_compile(c: &mut Criterion) {
    let requests = corpus_requests();
    if requests.is_empty() {
        return;
    }
    let tools: u64 = requests.iter().map(|r| r.len() as u64).sum();
    let set = toolwire::profile::embedded().expect("embedded profiles");
    let opts = toolwire::repair::Options::default();
    let mut g = c.benchmark_group("corpora");
    g.sample_size(10);
    g.throughput(criterion::Throughput::Elements(tools));
    let portable = toolwire::profile::CompiledProfile::new(set.get("portable").expect("portable"));
    g.bench_function("repair/portable", |b| {
        b.iter(|| {
            for r in &requests {
                black_box(toolwire::repair::repair_request(r, &portable, &opts));
            }
        })
    });
    for target in [
        "openai/chat-strict",
        "gemini/v1beta/parameters",
        "anthropic/messages",
    ] {
        let profile = toolwire::profile::CompiledProfile::new(set.get(target).expect("profile"));
        g.bench_function(format!("compile/{target}"), |b| {
            b.iter(|| {
                for r in &requests {
                    black_box(toolwire::compile::compile(r, target, &profile, &opts).ok());
                }
            })
        });
    }
    g.finish();
}

/// A tool of `n` properties, each a small schema with a description, every other one
/// required: the shape of a generated API wrapper, and the size at which a cost that grows
/// faster than the schema shows (a pairwise search over `properties` or `required`).
fn large_tool(n: usize) -> toolwire::repair::Tool {
    let kinds = ["string", "integer", "number", "boolean"];
    let properties: serde_json::Map<String, Value> = (0..n)
        .map(|i| {
            (
                format!("field_{i:05}"),
                json!({"type": kinds[i % 4], "description": format!("Property {i} of a generated tool.")}),
            )
        })
        .collect();
    let required: Vec<Value> = (0..n)
        .step_by(2)
        .map(|i| Value::String(format!("field_{i:05}")))
        .collect();
    toolwire::repair::Tool {
        name: Some("large_tool".into()),
        description: Some("A tool with many properties.".into()),
        parameters: Some(json!({"type": "object", "properties": properties, "required": required})),
        strict: None,
        strict_tool_use: None,
    }
}

/// `compile` on one generated 5,000-property tool (no files needed): its time should grow
/// with the schema, not with its square.
fn bench_large_schema(c: &mut Criterion) {
    let tools = vec![large_tool(5_000)];
    let set = toolwire::profile::embedded().expect("embedded profiles");
    let opts = toolwire::repair::Options::default();
    let mut g = c.benchmark_group("large-schema/5000-properties");
    g.sample_size(10);
    for target in [
        "openai/chat-strict",
        "gemini/v1beta/parameters",
        "anthropic/messages",
    ] {
        let profile = toolwire::profile::CompiledProfile::new(set.get(target).expect("profile"));
        g.bench_function(format!("compile/{target}"), |b| {
            b.iter(|| black_box(toolwire::compile::compile(&tools, target, &profile, &opts).ok()))
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    bench_args,
    bench_repair_and_compile,
    bench_large_schema
);

/// `SEAM_ARGS_DRIVER=valid|invalid[:N]` runs `args` N times (default 1000) on that call and
/// exits, for `valgrind --tool=callgrind` (fixed work, so instruction counts compare before
/// and after a change); otherwise the criterion benchmarks run.
fn main() {
    if let Ok(spec) = std::env::var("SEAM_ARGS_DRIVER") {
        let (which, n) = spec.split_once(':').unwrap_or((spec.as_str(), "1000"));
        let n: usize = n.parse().expect("SEAM_ARGS_DRIVER=valid|invalid[:N]");
        let call = if which == "valid" {
            valid_call()
        } else {
            invalid_call()
        };
        let schema = typical_schema();
        let compiled = ArgsSchema::new(&schema).expect("schema compiles");
        let bare = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("schema compiles");
        for _ in 0..n {
            let r = compiled.check(black_box(&call), Coercions::NONE);
            black_box(r.retry_message(Some("search_issues")));
        }
        for _ in 0..n {
            let errors: Vec<_> = bare.iter_errors(black_box(&call)).collect();
            black_box(errors.len());
        }
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
