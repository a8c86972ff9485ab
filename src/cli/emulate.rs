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
    /// Address to listen on, `IP:PORT` or `localhost:PORT` (port 0 picks a free port).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8089", value_parser = listen_addr)]
    pub listen: SocketAddr,
    /// Inject a fault.
    #[arg(long, value_enum, value_name = "MODE")]
    pub fault: Option<Fault>,
    /// The fault hits request 1 and every N-th request after it [default: 1].
    #[arg(long = "fault-every", value_name = "N", value_parser = crate::cli::whole_number_arg(1, u64::MAX))]
    pub fault_every: Option<u64>,
    /// Delay of the `slow` fault, in milliseconds [default: 5000].
    #[arg(long = "slow-ms", value_name = "MS", value_parser = crate::cli::whole_number_arg(0, u64::MAX))]
    pub slow_ms: Option<u64>,
    /// Seconds the `429` fault asks clients to wait [default: 1].
    #[arg(long = "retry-after", value_name = "SECS", value_parser = crate::cli::whole_number_arg(0, u64::MAX))]
    pub retry_after: Option<u64>,
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

/// `--listen`: an `IP:PORT`, or `localhost:PORT` (how most users write the loopback) as
/// `127.0.0.1:PORT`. Other host names are not looked up: the value is read before anything
/// else, and a key pasted here by mistake must not become a DNS query.
fn listen_addr(v: &str) -> std::result::Result<SocketAddr, String> {
    if let Ok(a) = v.parse::<SocketAddr>() {
        return Ok(a);
    }
    let loopback = v
        .rsplit_once(':')
        .filter(|(host, _)| host.eq_ignore_ascii_case("localhost"))
        .and_then(|(_, port)| port.parse::<u16>().ok());
    loopback
        .map(|port| SocketAddr::from(([127, 0, 0, 1], port)))
        .ok_or_else(|| "expected IP:PORT or localhost:PORT, e.g. 127.0.0.1:8089".to_string())
}

/// Refuses a fault option given without the fault it tunes: `--slow-ms 100` alone would
/// serve normal answers at full speed, and the user would read the emulator as not slowing.
fn refuse_orphan_fault_options(args: &EmulateArgs) -> Result<()> {
    let orphan = |given: bool, option: &str, needs: &str| {
        if given {
            Err(Error::Usage(format!(
                "{option} tunes the fault `--fault {needs}`, which is not given{}",
                match args.fault {
                    Some(f) => format!(" (this run injects `{}`)", fault_name(f)),
                    None => String::new(),
                }
            )))
        } else {
            Ok(())
        }
    };
    orphan(
        args.slow_ms.is_some() && args.fault != Some(Fault::Slow),
        "--slow-ms",
        "slow",
    )?;
    orphan(
        args.retry_after.is_some() && args.fault != Some(Fault::RateLimit),
        "--retry-after",
        "429",
    )?;
    orphan(
        args.fault_every.is_some() && args.fault.is_none(),
        "--fault-every",
        "MODE",
    )
}

/// A fault as the command line names it.
fn fault_name(f: Fault) -> String {
    use clap::ValueEnum;
    f.to_possible_value()
        .map_or_else(|| format!("{f:?}"), |v| v.get_name().to_string())
}

pub fn run(args: EmulateArgs) -> Result<u8> {
    args.no_project.refuse(
        "emulate",
        "nothing from disk (it serves the offline target models)",
    )?;
    refuse_orphan_fault_options(&args)?;
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
        fault_every: usize::try_from(args.fault_every.unwrap_or(1)).unwrap_or(usize::MAX),
        slow: Duration::from_millis(args.slow_ms.unwrap_or(5000)),
        retry_after: args.retry_after.unwrap_or(1),
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
                "fault: {} on request 1 and every {} after",
                fault_name(f),
                args.fault_every.unwrap_or(1)
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
