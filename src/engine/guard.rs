//! Running an engine so that no input can hang, overflow the stack of, or crash a probe run.
//!
//! The engines recurse over schemas (serde, the jsonschema compiler, llguidance's schema
//! builder), so each check runs on its own thread with a large stack, after a nesting-depth
//! check, with a time limit and panics caught. What a guard stops becomes an `inconclusive`
//! answer naming the guard; the engine never gets a guessed verdict.

use std::sync::mpsc;
use std::time::Duration;

use crate::evidence::Stage;
use crate::tool::ToolDef;

use super::EngineAnswer;

/// Stack of the thread an engine check runs on. Stack is reserved, not committed, so this
/// costs address space only. With [`MAX_SCHEMA_DEPTH`] levels and a few KB of stack per level
/// in the deepest recursion (serde in a debug build), 256 MiB leaves a wide margin.
pub const STACK_BYTES: usize = 256 * 1024 * 1024;

/// Deepest parameters schema (levels of JSON arrays and objects) handed to an engine. The
/// catalog caps written cases at 256 levels; the deepest generated case (100 nested objects)
/// is about 200 levels.
pub const MAX_SCHEMA_DEPTH: usize = 1024;

/// Longest one check may run. The engines take milliseconds per case; this only stops an
/// engine that would never return (the thread is then left to finish on its own).
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// Runs `check` under the guards. `stage` is the stage an inconclusive answer reports.
pub(super) fn run<F>(tools: &[ToolDef], stage: Stage, check: F) -> EngineAnswer
where
    F: FnOnce() -> EngineAnswer + Send + 'static,
{
    run_with_timeout(tools, stage, TIMEOUT, check)
}

fn run_with_timeout<F>(tools: &[ToolDef], stage: Stage, timeout: Duration, check: F) -> EngineAnswer
where
    F: FnOnce() -> EngineAnswer + Send + 'static,
{
    if let Some(reason) = too_deep(tools) {
        return EngineAnswer::inconclusive(stage, Vec::new(), reason);
    }
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("toolwire-engine".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check));
            let _ = tx.send(result);
        });
    if let Err(e) = spawned {
        return EngineAnswer::inconclusive(
            stage,
            Vec::new(),
            format!("cannot start the engine thread: {e}"),
        );
    }
    match rx.recv_timeout(timeout) {
        Ok(Ok(answer)) => answer,
        Ok(Err(panic)) => EngineAnswer::inconclusive(
            stage,
            Vec::new(),
            format!("the engine panicked: {}", panic_text(&panic)),
        ),
        Err(mpsc::RecvTimeoutError::Timeout) => EngineAnswer::inconclusive(
            stage,
            Vec::new(),
            format!(
                "the engine did not answer within {} ms (guard)",
                timeout.as_millis()
            ),
        ),
        Err(mpsc::RecvTimeoutError::Disconnected) => EngineAnswer::inconclusive(
            stage,
            Vec::new(),
            "the engine thread ended without an answer".into(),
        ),
    }
}

fn too_deep(tools: &[ToolDef]) -> Option<String> {
    tools.iter().enumerate().find_map(|(i, t)| {
        let depth = t.parameters.as_ref().map_or(0, crate::json::value_depth);
        (depth > MAX_SCHEMA_DEPTH).then(|| {
            format!(
                "tool {i}: the parameters schema nests {depth} levels, deeper than the {MAX_SCHEMA_DEPTH} levels engines are run with (guard; not sent)"
            )
        })
    })
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Verdict;
    use serde_json::{Value, json};

    #[test]
    fn a_panic_is_inconclusive_with_its_message() {
        let a = run(&[], Stage::Parse, || panic!("boom"));
        assert_eq!(a.verdict, Verdict::Inconclusive);
        assert_eq!(a.note.as_deref(), Some("the engine panicked: boom"));
    }

    #[test]
    fn an_engine_that_never_returns_is_inconclusive() {
        let a = run_with_timeout(&[], Stage::Parse, Duration::from_millis(50), || {
            loop {
                std::thread::sleep(Duration::from_secs(3600));
            }
        });
        assert_eq!(a.verdict, Verdict::Inconclusive);
        assert_eq!(
            a.note.as_deref(),
            Some("the engine did not answer within 50 ms (guard)")
        );
    }

    #[test]
    fn an_over_deep_schema_is_not_sent() {
        let mut v = json!({});
        for _ in 0..(MAX_SCHEMA_DEPTH + 1) {
            v = Value::Array(vec![v]);
        }
        let mut t = crate::case::baseline();
        t.parameters = Some(v);
        let a = run(&[t], Stage::Parse, || unreachable!("must not run"));
        assert_eq!(a.verdict, Verdict::Inconclusive);
        assert!(a.note.unwrap().contains("deeper than the 1024 levels"));
    }

    #[test]
    fn deep_recursion_fits_the_stack() {
        fn depth(n: usize) -> usize {
            let pad = [0u8; 512];
            if n == 0 {
                pad[0] as usize
            } else {
                depth(n - 1) + std::hint::black_box(&pad)[1] as usize + 1
            }
        }
        let a = run(&[], Stage::Parse, || {
            let d = depth(100_000);
            EngineAnswer::accepted(Stage::Parse, vec![], Some(d.to_string()))
        });
        assert_eq!(a.note.as_deref(), Some("100000"));
    }
}
