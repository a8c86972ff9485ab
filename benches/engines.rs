//! Probing the whole catalog against each in-process engine: throughput in cases per second
//! (criterion reports it as `elem/s`). One iteration checks every case once, exactly as
//! `toolwire probe --offline` does (guards included), so the figure is a probe run's speed.
//!
//! `TOOLWIRE_CASES` points at another catalog (default: the crate's `cases/`).

use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use toolwire::case::Catalog;
use toolwire::engine::engines;

fn catalog() -> Catalog {
    let dir = std::env::var_os("TOOLWIRE_CASES").map_or(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cases"),
        PathBuf::from,
    );
    match Catalog::load(&dir) {
        Ok(c) => c,
        Err(e) => panic!("the catalog does not load: {e}"),
    }
}

fn probe_catalog(c: &mut Criterion) {
    let catalog = catalog();
    let mut group = c.benchmark_group("probe-catalog");
    group.throughput(Throughput::Elements(catalog.cases.len() as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for engine in engines() {
        group.bench_function(engine.id(), |b| {
            b.iter(|| {
                for case in &catalog.cases {
                    std::hint::black_box(engine.check(&case.tools, &case.instances));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, probe_catalog);
criterion_main!(benches);
