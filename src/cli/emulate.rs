//! `toolwire emulate`: serve every offline target model over HTTP (see `src/emulate/`).

use std::net::SocketAddr;
use std::time::Duration;

use crate::cli::EXIT_OK;
use crate::emulate::{Emulator, Fault, Options};
use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct EmulateArgs {
    #[command(flatten)]
    pub no_project: crate::cli::NoProject,
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8089")]
    pub listen: SocketAddr,
    /// Inject a fault.
    #[arg(long, value_enum, value_name = "MODE")]
    pub fault: Option<Fault>,
    /// The fault hits request 1 and every N-th request after it.
    #[arg(long = "fault-every", value_name = "N", default_value_t = 1, value_parser = crate::cli::whole_number_arg(1, u64::MAX))]
    pub fault_every: u64,
    /// Delay of the `slow` fault, in milliseconds.
    #[arg(long = "slow-ms", value_name = "MS", default_value_t = 5000,
          value_parser = crate::cli::whole_number_arg(0, u64::MAX))]
    pub slow_ms: u64,
    /// Seconds the `429` fault asks clients to wait.
    #[arg(long = "retry-after", value_name = "SECS", default_value_t = 1,
          value_parser = crate::cli::whole_number_arg(0, u64::MAX))]
    pub retry_after: u64,
    /// Serve only this provider, at the root (e.g. `openai`), instead of under `/<provider>`.
    #[arg(long, value_name = "PROVIDER")]
    pub only: Option<String>,
    /// Exit after this many seconds (for scripts and tests; at most a day).
    #[arg(long = "exit-after", value_name = "SECS", value_parser = exit_after_seconds)]
    pub exit_after: Option<f64>,
}

/// `--exit-after`: a finite number of seconds from 0 to a day (a `Duration` cannot hold
/// `1e20` or `inf`, and NaN is no time).
fn exit_after_seconds(v: &str) -> std::result::Result<f64, String> {
    const DAY: f64 = 86_400.0;
    match v.trim().parse::<f64>() {
        Ok(s) if (0.0..=DAY).contains(&s) => Ok(s),
        Ok(s) if s > DAY => Err(format!("at most {DAY} seconds (a day)")),
        Ok(_) => Err("expected a number of seconds from 0".into()),
        Err(e) => Err(format!("expected a number of seconds: {e}")),
    }
}

pub fn run(args: EmulateArgs) -> Result<u8> {
    args.no_project.refuse(
        "emulate",
        "nothing from disk (it serves the offline target models)",
    )?;
    if let Some(only) = &args.only
        && !crate::emulate::slugs().contains(&only.as_str())
    {
        return Err(Error::Usage(format!(
            "--only {only:?}: no such provider (known: {})",
            crate::emulate::slugs().join(", ")
        )));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::Other(format!("cannot start the async runtime: {e}")))?;
    let opts = Options {
        fault: args.fault,
        fault_every: usize::try_from(args.fault_every).unwrap_or(usize::MAX),
        slow: Duration::from_millis(args.slow_ms),
        retry_after: args.retry_after,
        only: args.only.clone(),
        ..Options::default()
    };
    runtime.block_on(async move {
        let emu = Emulator::start(args.listen, opts)
            .await
            .map_err(|e| Error::Usage(format!("cannot listen on {}: {e}", args.listen)))?;
        println!(
            "toolwire emulate: listening on http://{} (answers are never evidence)",
            emu.addr()
        );
        if emu.addr().ip().is_unspecified() {
            println!(
                "note: {} listens on every interface; from this machine use {} (the base URLs \
                 below), which probe sends keys to over plain http (it sends them over http to \
                 loopback addresses only)",
                emu.addr(),
                emu.client_addr()
            );
        }
        if let Some(f) = args.fault {
            println!(
                "fault: {f:?} on request 1 and every {} after",
                args.fault_every
            );
        }
        println!("base URLs (toolwire probe --base-url TARGET=URL):");
        for route in crate::target::routes()
            .iter()
            .filter(|r| emu.serves(r.service()))
        {
            println!("  {:40} {}", route.id(), emu.base_url(route.service()));
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        match args.exit_after {
            Some(secs) => tokio::time::sleep(Duration::from_secs_f64(secs)).await,
            None => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
        emu.stop().await;
        Ok::<_, Error>(())
    })?;
    Ok(EXIT_OK)
}
