//! Benchmarks for the seam: `args` next to the jsonschema crate's bare `iter_errors` on the
//! same call (goal: within 1.5×).
//!
//! Run: `cargo bench --bench seam`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
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

criterion_group!(benches, bench_args);
criterion_main!(benches);
