//! `toolwire probe`: probe cases against targets, write a run log, regenerate the reports.
//!
//! Live targets read their keys from the environment (see README `## Live probing`); a keyed
//! target without its key prints `skipped: set VAR` and costs nothing. Gemini's `parameters`
//! route is probed without a key through its pre-auth front end. `--offline` probes the
//! in-process engines only. A run whose targets answer from `toolwire emulate` is marked
//! emulated and written outside `reports/runs` (never folded into the matrix).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::case::id_matches;
use crate::cli::{EXIT_KEY_REFUSED, EXIT_OK, Paths};
use crate::error::{Error, Result};
use crate::evidence::Verdict;
use crate::evidence::runlog::{self, Redactor};
use crate::probe::http::{self, Budget, HttpOptions, HttpTarget};
use crate::probe::{self, EngineTarget, ProbeTarget, RunOptions, RunSummary};
use crate::report::Mode;
use crate::target::{Env, ProcessEnv};

#[derive(Debug, clap::Args)]
pub struct ProbeArgs {
    #[command(flatten)]
    pub paths: Paths,
    /// Only these targets (an id, a prefix such as `engine/`, or a glob ending in `*`). Repeatable.
    #[arg(long = "target", value_name = "TARGET")]
    pub targets: Vec<String>,
    /// Only these cases (an id, a family such as `keywords`, or a glob ending in `*`). Repeatable.
    #[arg(long = "case", value_name = "CASE")]
    pub case_filters: Vec<String>,
    /// In-process engines only; no network is attempted.
    #[arg(long)]
    pub offline: bool,
    /// Send TARGET's requests to URL instead of the provider (e.g. `toolwire emulate`). Repeatable.
    #[arg(long = "base-url", value_name = "TARGET=URL")]
    pub base_urls: Vec<String>,
    /// Probe MODEL on TARGET instead of the default model. Repeatable.
    #[arg(long = "model", value_name = "TARGET=MODEL")]
    pub models: Vec<String>,
    /// A `--model` for a target this run does not probe (`--target` leaves it out) is
    /// ignored, with one note, instead of refused: for a standing list of models (probe.yml's
    /// `PROBE_MODELS`) beside a narrowed run. Every `--model` is still checked.
    #[arg(long)]
    pub ignore_unprobed_models: bool,
    /// Probes in flight per target: `N` for every live target or `TARGET=N` (1 to 64).
    /// Repeatable. Default: 2 for remote hosts, 4 for loopback.
    #[arg(long = "concurrency", value_name = "[TARGET=]N")]
    pub concurrency: Vec<String>,
    /// Requests per second per target: `R` or `TARGET=R` (0: unlimited). Repeatable.
    /// Default: 2 for remote hosts, unlimited for loopback.
    #[arg(long = "rate", value_name = "[TARGET=]R")]
    pub rate: Vec<String>,
    /// Per-request timeout in seconds (at most 600).
    #[arg(long, value_name = "SECS", default_value_t = 30.0, value_parser = timeout_seconds)]
    pub timeout: f64,
    /// Retries after a transport error, 5xx or 429 (at most 10).
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = crate::cli::whole_number_arg(0, http::MAX_RETRIES))]
    pub retries: u32,
    /// Largest number of HTTP requests this run may send, all targets together (the question
    /// whether a replaced base URL is `toolwire emulate` included); probes past it end
    /// `skipped` and the run's end counts them. 0 is refused when a live target would be
    /// probed.
    #[arg(long = "max-requests", value_name = "N", default_value_t = 8000,
          value_parser = crate::cli::whole_number_arg(0, usize::MAX))]
    pub max_requests: usize,
    /// Where to write the run log (default: reports/runs; a log elsewhere is not folded in and
    /// the matrix is not regenerated; emulated runs default to a folder in the system temp dir
    /// and may never go to a reports/runs folder).
    #[arg(long = "runs-dir", value_name = "DIR")]
    pub runs_dir: Option<PathBuf>,
    /// Do not show a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Do not regenerate the matrix and other generated files after the run.
    #[arg(long)]
    pub no_regenerate: bool,
    /// Once the run has begun (its run log was created), write what a script needs to FILE
    /// as JSON when it ends, also when interrupted or failed: `run_log` (the log this run
    /// wrote, or null when none was kept), `complete`, `exit_status`, `emulated` and
    /// `emulated_because` (why the run is not evidence, or null), `live_targets` (`selected`,
    /// `skipped`, `probed`, `observed`; null unless complete). A run refused before it began
    /// (exit 2) writes none.
    #[arg(long = "summary-json", value_name = "FILE")]
    pub summary_json: Option<PathBuf>,
}

/// `probe --help`'s exit statuses (the README's exit codes say the same).
pub const EXIT_STATUS_HELP: &str = "\
Exit status:
  0    the run finished (targets without a key are skipped; unreachable or inconclusive
       answers do not fail it)
  2    bad input or usage: nothing was sent, and no --summary-json is written (nothing
       to summarize); once the run has begun, an error (writing the log or the reports)
       exits 2 too, and --summary-json says so (`complete`, `exit_status`)
  3    a target whose key was set could not authenticate (its control answered an auth
       error): the summary names it and the variable to check; the run log and the
       regenerated reports are still written
  130  interrupted (Ctrl-C); the run log keeps what was observed, and --summary-json names
       it (`complete`: false)
  143  terminated (SIGTERM: a timeout, a stopped container, a cancelled CI job): as 130";

/// The longest `--timeout`: a provider that has not answered a one-token request in ten
/// minutes will not; a longer wait only stalls the run (and past `u64::MAX` seconds a
/// `Duration` cannot hold it).
pub const MAX_TIMEOUT_SECS: f64 = 600.0;

/// A timeout in seconds: a finite number above zero (a zero timeout would make every probe
/// fail without sending anything) and at most [`MAX_TIMEOUT_SECS`].
fn timeout_seconds(v: &str) -> std::result::Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= MAX_TIMEOUT_SECS => Ok(s),
        Ok(s) if s > MAX_TIMEOUT_SECS => Err(format!("at most {MAX_TIMEOUT_SECS} seconds")),
        Ok(_) => Err("expected a number of seconds above 0".into()),
        Err(e) => Err(format!("expected a number of seconds: {e}")),
    }
}

/// The lowest `--rate` other than 0 (unlimited): one request every 100 s. Below it the
/// interval between requests outgrows what a `Duration` holds (`1e-300`).
const MIN_RATE: f64 = 0.01;

/// Why a `--rate` value is refused: it is 0 (unlimited) or a finite number from
/// [`MIN_RATE`] up.
fn bad_rate(r: f64) -> Option<&'static str> {
    (!(r == 0.0 || (r.is_finite() && r >= MIN_RATE)))
        .then_some("expected 0 (unlimited) or at least 0.01 requests per second")
}

/// Checks the flags that name live targets before anything runs, so a typo is an error
/// rather than a flag silently ignored: `--base-url`/`--model` need `TARGET=VALUE` with a live
/// target, at most once per target, `--base-url` an http(s) URL with a host and no userinfo,
/// query or fragment ([`http::check_base_url`]), `--model` a model id
/// ([`http::check_model`]), `--concurrency` from 1 to [`http::MAX_CONCURRENCY`]; none of
/// them mean anything with `--offline`.
fn check_flags(args: &ProbeArgs) -> Result<()> {
    let base_urls = pairs(&args.base_urls, "--base-url")?;
    let models = pairs(&args.models, "--model")?;
    for (flag, (id, _)) in base_urls
        .iter()
        .map(|p| ("--base-url", p))
        .chain(models.iter().map(|p| ("--model", p)))
    {
        if crate::target::route(id).is_none() {
            return Err(Error::Usage(format!(
                "{flag}: {:?} is not a live target (see the registry: {})",
                // A URL given without its target is read as the id up to its `=`.
                http::shown_url(id),
                crate::target::route_ids()
            )));
        }
    }
    // A setting for a target this run does not probe would be silently ignored, and a typo
    // in its id (`--base-url anthropic/messages=…` meant for the `openai/chat` probed) would
    // send the probed target's requests, key and all, to the provider itself.
    if !args.targets.is_empty() {
        let models = models.iter().filter(|_| !args.ignore_unprobed_models);
        for (flag, (id, _)) in base_urls
            .iter()
            .map(|p| ("--base-url", p))
            .chain(models.map(|p| ("--model", p)))
        {
            if !probes(args, id) {
                return Err(Error::Usage(format!(
                    "{flag} {id}=…: {id} is not probed in this run (--target {}); add \
                     --target {id}, or correct the target's id",
                    args.targets.join(" --target ")
                )));
            }
        }
    }
    // Given twice, one value would silently win: which one the user meant is not known.
    for (flag, list) in [("--base-url", &base_urls), ("--model", &models)] {
        for (i, (id, _)) in list.iter().enumerate() {
            if list[..i].iter().any(|(other, _)| other == id) {
                return Err(Error::Usage(format!(
                    "{flag} {id}=…: given more than once for {id}; give it once"
                )));
            }
        }
    }
    for (id, url) in &base_urls {
        let vars = crate::target::route(id)
            .map(|r| http::key_hint(r.as_ref()))
            .unwrap_or_default();
        let place = format!("--base-url {id}=");
        http::check_no_userinfo(&place, url, &vars)?;
        http::check_base_url(&place, url)?;
    }
    for (id, model) in &models {
        http::check_model(&format!("--model {id}="), model)?;
    }
    if let Some(file) = &args.summary_json {
        check_summary_destination(file)?;
    }
    if let Some(dir) = &args.runs_dir {
        check_runs_dir(dir)?;
    }
    let concurrency = concurrency(&args.concurrency)?;
    let rate = per_target::<f64>(&args.rate, "--rate")?;
    for (target, r) in &rate {
        if let Some(why) = bad_rate(*r) {
            return Err(Error::Usage(format!(
                "--rate {}{r:?}: {why}",
                target.as_ref().map(|t| format!("{t}=")).unwrap_or_default()
            )));
        }
    }
    let named = concurrency
        .iter()
        .filter_map(|(t, _)| t.as_ref().map(|t| ("--concurrency", t)))
        .chain(
            rate.iter()
                .filter_map(|(t, _)| t.as_ref().map(|t| ("--rate", t))),
        );
    for (flag, filter) in named {
        if !crate::target::routes()
            .iter()
            .any(|r| id_matches(r.id(), filter))
        {
            return Err(Error::Usage(format!(
                "{flag} {filter}=…: {filter:?} matches no live target"
            )));
        }
    }
    if args.offline {
        let ignored: Vec<&str> = [
            ("--base-url", !args.base_urls.is_empty()),
            ("--model", !args.models.is_empty()),
            ("--concurrency", !args.concurrency.is_empty()),
            ("--rate", !args.rate.is_empty()),
        ]
        .iter()
        .filter_map(|(f, given)| given.then_some(*f))
        .collect();
        if !ignored.is_empty() {
            let verb = if ignored.len() == 1 {
                "applies"
            } else {
                "apply"
            };
            return Err(Error::Usage(format!(
                "{} {verb} only to live targets, and --offline probes only the in-process engines",
                ignored.join(", ")
            )));
        }
    }
    Ok(())
}

/// Whether the run probes the live target `id` (`--target` names it, or there is none).
fn probes(args: &ProbeArgs, id: &str) -> bool {
    args.targets.is_empty() || args.targets.iter().any(|f| id_matches(id, f))
}

/// The targets of `--model`s that `--ignore-unprobed-models` lets the run leave out.
fn unprobed_models(args: &ProbeArgs) -> Result<Vec<String>> {
    Ok(pairs(&args.models, "--model")?
        .into_iter()
        .map(|(id, _)| id)
        .filter(|id| !probes(args, id))
        .collect())
}

fn pairs(values: &[String], flag: &str) -> Result<Vec<(String, String)>> {
    values
        .iter()
        .map(|v| {
            v.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .filter(|(k, v)| !k.is_empty() && !v.is_empty())
                .ok_or_else(|| {
                    // A URL given without its target may carry credentials: masked.
                    let v = http::shown_url(v);
                    Error::Usage(format!("{flag} {v:?}: expected TARGET=VALUE"))
                })
        })
        .collect()
}

/// `N` (all) or `TARGET=N` settings, as (target filter or `None`, value).
fn per_target<T: std::str::FromStr>(
    values: &[String],
    flag: &str,
) -> Result<Vec<(Option<String>, T)>> {
    values
        .iter()
        .map(|v| {
            let (target, n) = target_and_value(v);
            n.parse::<T>()
                .map(|n| (target, n))
                .map_err(|_| not_a_number(flag, v))
        })
        .collect()
}

/// An `N` or `TARGET=N` setting split, trimmed.
fn target_and_value(v: &str) -> (Option<String>, &str) {
    match v.split_once('=') {
        Some((t, n)) => (Some(t.trim().to_string()), n.trim()),
        None => (None, v.trim()),
    }
}

fn not_a_number(flag: &str, v: &str) -> Error {
    Error::Usage(format!("{flag} {v:?}: expected a number or TARGET=NUMBER"))
}

/// `--concurrency` settings, each from 1 to [`http::MAX_CONCURRENCY`]: a value past it (even
/// past `u64::MAX`) or below 1 (even negative) is refused naming the bound, not as if it were
/// no number.
fn concurrency(values: &[String]) -> Result<Vec<(Option<String>, usize)>> {
    use crate::cli::OutOfRange;
    const FLAG: &str = "--concurrency";
    let max = http::MAX_CONCURRENCY;
    values
        .iter()
        .map(|v| {
            let (target, n) = target_and_value(v);
            let why = match crate::cli::whole_number(n, 1, max as u64) {
                Ok(n) => return Ok((target, n as usize)),
                Err(OutOfRange::NotANumber) => return Err(not_a_number(FLAG, v)),
                Err(OutOfRange::Below) => "expected at least 1 probe in flight".to_string(),
                Err(OutOfRange::Above) => format!("at most {max} probes in flight per target"),
            };
            let target = target.map(|t| format!("{t}=")).unwrap_or_default();
            Err(Error::Usage(format!("{FLAG} {target}{n}: {why}")))
        })
        .collect()
}

fn setting<T: Copy>(settings: &[(Option<String>, T)], id: &str) -> Option<T> {
    settings
        .iter()
        .rev()
        .find(|(t, _)| t.as_deref().is_none_or(|t| id_matches(id, t)))
        .map(|(_, n)| *n)
}

/// The live targets of a run.
pub struct LiveTargets {
    pub targets: Vec<Arc<HttpTarget>>,
    /// Every credential read, for the redactor.
    pub secrets: Vec<String>,
    /// Settings of the probed targets that may be private, as (variable, value): the base-URL
    /// variables (`OPENAI_BASE_URL`, `AZURE_OPENAI_ENDPOINT`, `OLLAMA_HOST`, ...) and
    /// `GOOGLE_CLOUD_PROJECT`, for the redactor ([`Redactor::add_setting`]).
    pub settings: Vec<(String, String)>,
    /// Ids whose base URL `--base-url` replaced.
    pub overridden: Vec<String>,
    /// Hosted targets (not the local servers that need no credential) whose base URL is not
    /// the provider's own ([`http::is_providers_own`]), with it: whatever answers there (a
    /// mock, a relay, a proxy or gateway, the emulator with its marker stripped) is a
    /// stand-in, not the provider.
    pub stand_ins: Vec<(String, String)>,
    /// Targets sent a credential, with the variable it came from ([`http::key_source`]),
    /// to name in the summary when the credential is refused.
    pub key_vars: HashMap<String, String>,
}

/// Builds the live targets the run probes (`--target`; all when none is given) from the
/// environment and the flags, after checking them (the flags, then each target's variables).
pub fn live_targets(
    args: &ProbeArgs,
    env: &dyn Env,
    client: &reqwest::Client,
    budget: &Arc<Budget>,
) -> Result<LiveTargets> {
    check_flags(args)?;
    let base_urls: HashMap<String, String> =
        pairs(&args.base_urls, "--base-url")?.into_iter().collect();
    let models: HashMap<String, String> = pairs(&args.models, "--model")?.into_iter().collect();
    let concurrency = concurrency(&args.concurrency)?;
    let rate = per_target::<f64>(&args.rate, "--rate")?;
    let mut targets = Vec::new();
    let mut secrets = Vec::new();
    let mut settings = Vec::new();
    let mut overridden = Vec::new();
    let mut stand_ins = Vec::new();
    let mut key_vars = HashMap::new();
    for route in crate::target::routes() {
        let id = route.id().to_string();
        // A target the run does not probe (`--target`) is left out before its variables are
        // read: a variable meant for another program (a base URL with credentials in it, a
        // key that is a word) does not stop an unrelated run, and nothing is sent to its
        // host (not even the emulator check).
        if !probes(args, &id) {
            continue;
        }
        let mut cfg = route.configure(env);
        if let Some(url) = base_urls.get(&id) {
            cfg.base_url = route.base_url(url.trim_end_matches('/'));
            cfg.base_overridden = true;
            overridden.push(id.clone());
        } else if crate::evidence::runlog::has_userinfo(&cfg.base_url) {
            // A base-URL variable with credentials in it, named by the variable.
            let settings = route.settings();
            let (place, url) = match settings.base_env.and_then(|v| Some((v, env.var(v)?))) {
                Some((var, value)) => (format!("{id}: {var}="), value),
                None => (format!("{id}: base URL "), cfg.base_url.clone()),
            };
            http::check_no_userinfo(&place, &url, &http::key_hint(route.as_ref()))?;
        }
        if let Some(m) = models.get(&id) {
            cfg.model = m.clone();
        }
        check_env(
            route.as_ref(),
            &cfg,
            env,
            models.contains_key(&id),
            base_urls.contains_key(&id),
        )?;
        if let Some(c) = &cfg.credential {
            secrets.extend(c.secrets());
        }
        if let Some(var) = http::key_source(route.as_ref(), &cfg, env) {
            key_vars.insert(id.clone(), var);
        }
        let private = route
            .settings()
            .base_env
            .into_iter()
            .chain(route.private_env().iter().copied());
        for var in private {
            if let Some(value) = env.var(var) {
                settings.push((var.to_string(), value));
            }
        }
        if http::is_stand_in(route.as_ref(), &cfg) {
            stand_ins.push((id.clone(), http::shown_url(&cfg.base_url)));
        }
        let mut opts = HttpOptions::for_base(&cfg.base_url);
        opts.timeout = Duration::from_secs_f64(args.timeout.max(0.05));
        opts.retries = args.retries;
        if let Some(n) = setting(&concurrency, &id) {
            opts.concurrency = n.max(1);
        }
        if let Some(r) = setting(&rate, &id) {
            opts.rate = (r > 0.0).then_some(r);
        }
        targets.push(Arc::new(HttpTarget::new(
            route,
            cfg,
            client.clone(),
            opts,
            budget.clone(),
        )?));
    }
    Ok(LiveTargets {
        targets,
        secrets,
        settings,
        overridden,
        stand_ins,
        key_vars,
    })
}

/// A check of one setting: `(place, value)`, as [`http::check_region`].
type SettingCheck = fn(&str, &str) -> Result<()>;

/// Checks what a selected target read from the environment before anything is sent, each
/// error naming the variable (values that are not secret are quoted; keys never are):
/// every key variable set ([`http::check_key`]), the base-URL variable
/// ([`http::check_base_url`]), the model variable ([`http::check_model`]), and the settings
/// pasted into host names or paths (`GOOGLE_CLOUD_LOCATION`, `AWS_REGION`/`AWS_DEFAULT_REGION`:
/// [`http::check_region`]; `GOOGLE_CLOUD_PROJECT`: [`http::check_project`]). `model_flag`
/// and `base_flag` say that `--model`/`--base-url` replaced the variable (checked with the
/// flags).
fn check_env(
    route: &dyn crate::target::wire::Route,
    cfg: &crate::target::wire::RouteConfig,
    env: &dyn Env,
    model_flag: bool,
    base_flag: bool,
) -> Result<()> {
    let id = route.id();
    let place = format!("{id}: ");
    let s = route.settings();
    let mut key_vars: Vec<&str> = s.key_env.to_vec();
    if id == "bedrock/converse" {
        key_vars.extend([
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN",
        ]);
    }
    for var in key_vars {
        if let Some(value) = env.var(var) {
            http::check_key(&place, var, &value)?;
        }
    }
    if !base_flag
        && let Some(var) = s.base_env
        && env.var(var).is_some()
    {
        http::check_base_url(&format!("{id}: {var}="), &cfg.base_url)?;
    }
    if !model_flag
        && let Some(var) = s.model_env
        && let Some(model) = env.var(var)
    {
        http::check_model(&format!("{id}: {var}="), &model)?;
    }
    let pasted: &[(&str, SettingCheck)] = match id {
        "vertex/v1/parameters" => &[
            ("GOOGLE_CLOUD_LOCATION", http::check_region),
            ("GOOGLE_CLOUD_PROJECT", http::check_project),
        ],
        "bedrock/converse" => &[
            ("AWS_REGION", http::check_region),
            ("AWS_DEFAULT_REGION", http::check_region),
        ],
        _ => &[],
    };
    for (var, check) in pasted {
        if let Some(value) = env.var(var) {
            check(&format!("{id}: {var}="), &value)?;
        }
    }
    Ok(())
}

pub fn run(args: ProbeArgs) -> Result<u8> {
    let mut ending = Ending::default();
    let result = probe_and_regenerate(&args, &mut ending);
    // Nothing to summarize until the run log exists: before it, nothing was sent.
    let (Some(file), Some(log)) = (&args.summary_json, ending.log.get()) else {
        return result;
    };
    let status = match &result {
        Ok(status) => *status,
        Err(e) => crate::cli::exit_code(e),
    };
    let log = ending.set_apart.as_ref().unwrap_or(log);
    let run_log = (!ending.log_removed).then_some(log.as_path());
    let written = write_summary_json(file, run_log, status, &ending);
    match (result, written) {
        (Ok(status), Ok(())) => Ok(status),
        (Ok(_), Err(e)) => Err(e),
        // The run's own error says what went wrong; the summary's is printed beside it.
        (Err(e), Err(summary)) => {
            eprintln!("toolwire: {summary}");
            Err(e)
        }
        (Err(e), Ok(())) => Err(e),
    }
}

/// How a run that began ended, for `--summary-json`: filled in as the run goes, so that a
/// run interrupted or failing after it began is summarized too.
#[derive(Default)]
struct Ending {
    /// The run log's path, set by the runner once it is created; unset, nothing was sent
    /// and there is nothing to summarize.
    log: Arc<std::sync::OnceLock<PathBuf>>,
    /// No request reached a target, and the log was deleted.
    log_removed: bool,
    /// Where the log went when its answers turned out emulated though the run was not
    /// marked so ([`set_apart_emulated`]): the path the summary names.
    set_apart: Option<PathBuf>,
    /// The runner finished: the log has its footer (false when interrupted or failed).
    complete: bool,
    /// Why the run is not evidence (a stand-in answered), `None` for a real run.
    emulated_because: Option<String>,
    /// The live targets' counts, known when the runner finished.
    live: Option<LiveCounts>,
}

/// What became of the run's live targets (the in-process engines are left out: they always
/// answer, and say nothing of any provider). A scheduled job fails on `observed == 0` with
/// `selected > 0`; a person running `probe` without keys is not told they failed.
#[derive(Debug, PartialEq, serde::Serialize)]
struct LiveCounts {
    /// Live targets the run covers (`--target`; all when none is given).
    selected: usize,
    /// Of them, skipped for a missing key or setting (nothing sent).
    skipped: usize,
    /// Of them, probed (sent requests).
    probed: usize,
    /// Of the probed, those that gave at least one accepted or rejected answer (Gemini's
    /// keyless parse-only acceptance too); the rest were unreachable or inconclusive only
    /// (DNS, a firewall, a provider down, a refused key) or stopped by the request budget.
    observed: usize,
}

impl LiveCounts {
    /// The counts of the targets `live` (ids) in `summary`.
    fn of(summary: &RunSummary, live: &[String]) -> LiveCounts {
        let targets: Vec<_> = live
            .iter()
            .filter_map(|id| summary.targets.get(id))
            .collect();
        let skipped = targets.iter().filter(|t| t.skipped.is_some()).count();
        LiveCounts {
            selected: targets.len(),
            skipped,
            probed: targets.len() - skipped,
            observed: targets
                .iter()
                .filter(|t| t.counts.iter().any(|(v, n)| *n > 0 && v.is_decisive()))
                .count(),
        }
    }
}

/// The run itself: `run` without the summary file.
fn probe_and_regenerate(args: &ProbeArgs, ending: &mut Ending) -> Result<u8> {
    let paths = &args.paths;
    check_flags(args)?;
    check_target_filters(args)?;
    let unprobed = unprobed_models(args)?;
    if !unprobed.is_empty() {
        println!(
            "--model ignored for {} (not probed in this run; --ignore-unprobed-models)",
            unprobed.join(", ")
        );
    }
    let project = paths.project();
    let catalog = project.catalog()?;
    // The regeneration after the run reads it: a mistake found then would come after every
    // request was spent. Read before any request, the emulator's discovery too, and for an
    // emulated run as well, which rehearses a real one (trial 49 D4: it passed, exit 0).
    project.profile_specs()?;
    for f in &args.case_filters {
        if !catalog.cases.iter().any(|c| id_matches(&c.id, f)) {
            return Err(Error::Usage(format!(
                "--case {f:?} matches no case in {}",
                paths.cases_dir.display()
            )));
        }
    }
    let cases: Vec<_> = catalog.select(&args.case_filters).collect();
    let runtime = runtime()?;
    let client = http::client(Duration::from_secs_f64(args.timeout.max(0.05)))?;
    let budget = Budget::new(Some(args.max_requests));
    let mut targets: Vec<Arc<dyn ProbeTarget>> = Vec::new();
    for engine in crate::engine::engines() {
        targets.push(Arc::new(EngineTarget(Arc::from(engine))));
    }
    let mut redactor = Redactor::default();
    let mut emulated = false;
    // Why a run is not evidence, for its messages.
    let mut why_emulated = String::from("toolwire emulate answered");
    let mut key_vars = HashMap::new();
    // The probed targets whose base URL was replaced (by --base-url or a base-URL variable):
    // each is asked whether `toolwire emulate` serves it, and any that is makes the run
    // emulated. The question is a request, so it is asked after the usage checks.
    let mut replaced: Vec<Arc<HttpTarget>> = Vec::new();
    if !args.offline {
        let LiveTargets {
            targets: live,
            secrets,
            settings,
            overridden,
            stand_ins,
            key_vars: vars,
        } = live_targets(args, &ProcessEnv, &client, &budget)?;
        key_vars = vars;
        for s in &secrets {
            redactor.add_secret(s);
        }
        for (var, value) in &settings {
            redactor.add_setting(var, value);
        }
        replaced = live
            .iter()
            .filter(|t| overridden.contains(&t.record().id) || t.config().base_overridden)
            .filter(|t| t.skip_reason().is_none())
            .cloned()
            .collect();
        // A hosted provider answering from anywhere but its own host is a stand-in, marker
        // or not: known before anything is sent.
        let probed = |id: &str| {
            live.iter()
                .any(|t| t.record().id == id && t.skip_reason().is_none())
        };
        if let Some((id, base)) = stand_ins.iter().find(|(id, _)| probed(id)) {
            emulated = true;
            // Printed and written to --summary-json, both kept as CI artifacts: a key pasted
            // into the base URL, or a private base URL from a variable, is redacted as in
            // the run log.
            why_emulated = redactor
                .redact(&format!(
                    "{id} answered from {base}, not the provider's own host: a stand-in for \
                     the provider"
                ))
                .into_owned();
        }
        targets.extend(live.into_iter().map(|t| t as Arc<dyn ProbeTarget>));
    }
    if !args.targets.is_empty() {
        targets.retain(|t| args.targets.iter().any(|f| id_matches(&t.record().id, f)));
    }
    for t in &targets {
        if let Some(why) = t.skip_reason() {
            println!("{}: skipped: {why}", t.record().id);
        }
    }
    check_budget_allows(args.max_requests, &targets)?;
    check_summary_path(args, &project)?;
    // The checks that depend on whether the run is emulated come before the emulator question
    // when the answer cannot change that: a stand-in makes the run emulated, and with no base
    // URL replaced nothing is asked. Otherwise (a local server's or a provider's own host
    // replaced) they need the answer, and follow it.
    let mut prepared = None;
    if emulated || replaced.is_empty() {
        prepared = Some(prepare_run(
            args,
            &project,
            &catalog,
            emulated,
            &why_emulated,
        )?);
    }
    // Each target a replaced base URL serves is marked, so that every observation of it is
    // noted as emulated, a failure before any answer included.
    let served = runtime.block_on(async {
        let mut served = false;
        for t in &replaced {
            served |= t.ask_emulator().await;
        }
        served
    });
    if served {
        emulated = true;
        why_emulated = String::from("toolwire emulate answered");
    }
    let (runs_dir, previous) = match prepared {
        Some(p) => p,
        None => prepare_run(args, &project, &catalog, emulated, &why_emulated)?,
    };
    let live_ids: Vec<String> = targets
        .iter()
        .map(|t| t.record())
        .filter(|r| r.auth != "in-process")
        .map(|r| r.id)
        .collect();
    ending.emulated_because = emulated.then(|| why_emulated.clone());
    let opts = RunOptions {
        runs_dir: runs_dir.clone(),
        progress: !args.no_progress,
        previous,
        redactor,
        emulated,
        log: ending.log.clone(),
    };
    let summary = runtime.block_on(async {
        tokio::select! {
            summary = probe::run(&catalog, &cases, targets, opts) => summary.map(Ok),
            _ = tokio::signal::ctrl_c() => Ok(Err(INTERRUPTED_EXIT)),
            _ = terminated() => Ok(Err(TERMINATED_EXIT)),
        }
    })?;
    // Answers noted as emulated in a run not marked so: the base URL did not answer the
    // emulator's question, but its answers carried the emulator's marker (a relay in front
    // of it). The log leaves the runs folder before anything reads it as evidence.
    let log = ending.log.get().cloned();
    if let Some(path) = log.as_ref().filter(|_| !emulated)
        && let Some(to) = set_apart_emulated(path)?
    {
        emulated = true;
        why_emulated = String::from(
            "answers carried x-toolwire-emulator though the base URL did not answer the \
             emulator's question: toolwire emulate behind a relay",
        );
        ending.emulated_because = Some(why_emulated.clone());
        ending.set_apart = Some(to);
    }
    let log = ending.set_apart.as_ref().or(log.as_ref());
    let mut summary = match summary {
        Ok(summary) => summary,
        Err(status) => {
            // Dropped, the runtime would wait for an engine's check still running on its
            // thread (trial 77 D3).
            runtime.shutdown_background();
            return Ok(stopped(status, log, emulated));
        }
    };
    if let Some(to) = &ending.set_apart {
        summary.log = to.clone();
    }
    print_summary(&summary);
    if let Some(line) = budget_spent(&summary, &budget, args.max_requests) {
        println!("{line}");
    }
    // Decided (and printed with the summary) before anything else can end the run: the log
    // and the regenerated files below are still written, and the status says the keys failed.
    let status = match refused_keys(&summary, &key_vars) {
        Some(lines) => {
            println!("{lines}");
            EXIT_KEY_REFUSED
        }
        None => EXIT_OK,
    };
    ending.complete = true;
    ending.live = Some(LiveCounts::of(&summary, &live_ids));
    if !summary.reached_any() {
        // Every target was skipped or never answered: the log would hold no observation of
        // any target, only that nothing was observed, and folding it would change the matrix
        // (a new run, new dates) on no evidence.
        std::fs::remove_file(&summary.log).map_err(|e| Error::io(&summary.log, e))?;
        ending.log_removed = true;
        println!(
            "no probe reached a target (every one skipped or unreachable): no run log was \
             kept and the matrix was not regenerated"
        );
        return Ok(status);
    }
    println!("run log: {}", summary.log.display());
    if emulated {
        println!("emulated run ({why_emulated}): not evidence; the matrix was not regenerated");
    } else if !args.no_regenerate {
        if let Some(line) = not_folded(&runs_dir, &project.runs_dir()) {
            println!("{line}");
            return Ok(status);
        }
        for (log, why) in project.unstarted_runs()? {
            eprintln!(
                "note: {}: {why}; it is not folded in (delete it)",
                log.display()
            );
        }
        let done = project.regenerate(Mode::Write)?;
        for w in done.left_out_warnings() {
            eprintln!("{w}");
        }
        for p in &done.changed {
            println!("wrote {}", p.display());
        }
        if let Some(note) = done.built_in_note() {
            eprintln!("{note}");
        }
    }
    Ok(status)
}

/// Moves the run log at `log` out of its folder when an observation in it is noted as an
/// emulated answer ([`runlog::RunLog::holds_emulated_answers`]) though the run was not marked
/// emulated (trial 77 D2: a relay in front of `toolwire emulate` answered the emulator's
/// question 404 but passed its answers' marker through, and the run was folded in as probe
/// evidence). It goes to a folder of its own in the system's temp folder, as an emulated run's
/// log does, its header marked `emulated`; the new path, or `None` when the log holds no such
/// answer. A log that cannot be read is left where it is (the loader refuses it there too).
fn set_apart_emulated(log: &std::path::Path) -> Result<Option<PathBuf>> {
    let Ok(mut read) = runlog::read(log) else {
        return Ok(None);
    };
    if !read.holds_emulated_answers() {
        return Ok(None);
    }
    let text = std::fs::read_to_string(log).map_err(|e| Error::io(log, e))?;
    let rest = text.split_once('\n').map_or("", |(_, rest)| rest);
    read.header.emulated = true;
    let header = serde_json::to_string(&read.header).map_err(|e| Error::Other(e.to_string()))?;
    let dir = tempfile::Builder::new()
        .prefix("toolwire-emulated-run-")
        .tempdir()
        .map_err(|e| Error::io(std::env::temp_dir(), e))?
        .keep();
    let to = dir.join(log.file_name().unwrap_or_default());
    std::fs::write(&to, format!("{header}\n{rest}")).map_err(|e| Error::io(&to, e))?;
    std::fs::remove_file(log).map_err(|e| Error::io(log, e))?;
    Ok(Some(to))
}

/// Refuses a `--runs-dir` that is a file, or one that cannot be made, before anything is
/// sent: found when the run log was made, it said only "File exists (os error 17)" (trial 49),
/// or the bare OS error without the flag ("/proc/nope: No such file or directory (os error
/// 2)", trial 79 D4). A folder that does not exist yet is made to learn whether it can be,
/// and taken away again (the run log makes it when it is written).
fn check_runs_dir(dir: &std::path::Path) -> Result<()> {
    let refuse = |why: String| {
        Err(Error::Usage(format!(
            "--runs-dir {}: {why}",
            crate::report::escape_inline(&dir.display().to_string())
        )))
    };
    if dir.exists() {
        if !dir.is_dir() {
            return refuse("is a file; name a folder for the run log (made if missing)".into());
        }
        return Ok(());
    }
    // Deepest first, as they are taken away.
    let missing: Vec<&std::path::Path> = dir
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
        .collect();
    if let Some(file) = dir.ancestors().find(|a| a.exists() && !a.is_dir()) {
        return refuse(format!(
            "{} is a file, so no folder can be made under it; name a folder for the run log",
            crate::report::escape_inline(&file.display().to_string())
        ));
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        return refuse(format!(
            "the folder cannot be made ({e}); name a folder toolwire may write the run log in"
        ));
    }
    for a in missing {
        let _ = std::fs::remove_dir(a);
    }
    Ok(())
}

/// Refuses a `--summary-json` destination that cannot be written before anything is sent (no
/// such folder, a folder where the file belongs, a file or folder without write permission):
/// found only when the run ends, the mistake would come after every request was spent.
fn check_summary_destination(file: &std::path::Path) -> Result<()> {
    let refuse = |why: String| {
        Err(Error::Usage(format!(
            "--summary-json {}: {why}",
            crate::report::escape_inline(&file.display().to_string())
        )))
    };
    if file.is_dir() {
        return refuse("is a folder; name a file to write the summary in".into());
    }
    let folder = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    if !folder.is_dir() {
        return refuse(format!(
            "there is no folder {} to write it in",
            crate::report::escape_inline(&folder.display().to_string())
        ));
    }
    // Opened without truncating, so a summary kept from an earlier run stays whole when this
    // run is refused later; a file made only for the check is removed again.
    let existed = file.exists();
    let opened = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(file);
    match opened {
        Ok(_) => {
            if !existed {
                // The file made, not a link to it (trial 52 D13: a link to a file not made yet
                // was removed and an empty file left where it pointed).
                let made = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
                let _ = std::fs::remove_file(made);
            }
            Ok(())
        }
        Err(e) => refuse(format!("cannot be written ({e})")),
    }
}

/// Writes `--summary-json` for a run that began: the run log kept (`None` when no request
/// reached a target and none was), whether the run finished (`complete`; an interrupted or
/// failed run's log has no footer or was not folded), the exit status, why the run is not
/// evidence (`None` for a real run) and the live targets' counts (`null` when the run did not
/// finish). A scheduled job reads these rather than the printed lines, whose wording may
/// change.
fn write_summary_json(
    file: &std::path::Path,
    run_log: Option<&std::path::Path>,
    exit_status: u8,
    ending: &Ending,
) -> Result<()> {
    let json = serde_json::json!({
        "run_log": run_log.map(|p| p.display().to_string()),
        "complete": ending.complete,
        "exit_status": exit_status,
        "emulated": ending.emulated_because.is_some(),
        "emulated_because": ending.emulated_because,
        "live_targets": ending.live,
    });
    // Through a new file renamed over the name: a hard link to evidence (`ln
    // reports/profile.json sum.json`) is then unlinked from the name, not written through
    // (trial 50 D6: profile.json was replaced by the summary, exit 0). Symbolic links into
    // the project's folders are refused before the run.
    super::repair::write_atomically(file, &format!("{json:#}\n")).map_err(|e| match e {
        Error::Io { source, .. } => Error::Io {
            path: format!(
                "--summary-json {}",
                crate::report::escape_inline(&file.display().to_string())
            ),
            source,
        },
        other => other,
    })
}

/// Refuses a `--summary-json` path inside the reports, cases or run-log folder: the summary
/// would replace a file the run reads or writes, with exit 0 (trial 49 D2: `--summary-json
/// reports/documented/reports.yaml` left the evidence a 254-byte JSON). The run-log folder is
/// `--runs-dir`, else the reports' `runs/` (an emulated run's own temporary folder is made
/// later, and nothing is inside it yet).
fn check_summary_path(args: &ProbeArgs, project: &crate::project::Project) -> Result<()> {
    let Some(file) = &args.summary_json else {
        return Ok(());
    };
    let runs_dir = args.runs_dir.clone().unwrap_or_else(|| project.runs_dir());
    let folders = [
        ("the reports folder", &project.reports),
        ("the cases folder", &project.cases),
        ("the run-log folder", &runs_dir),
    ];
    match folders.iter().find(|(_, f)| is_inside(file, f)) {
        Some((what, folder)) => Err(Error::Usage(format!(
            "--summary-json {}: is inside {what} ({}), whose files the run reads or writes; \
             write the summary elsewhere",
            crate::report::escape_inline(&file.display().to_string()),
            crate::report::escape_inline(&folder.display().to_string()),
        ))),
        None => Ok(()),
    }
}

/// The run-log folder and the matrix's verdicts by (case, target), as [`prepare_run`] gives
/// them.
type Prepared = (PathBuf, HashMap<(String, String), Verdict>);

/// What a run needs that depends on whether it is `emulated` (`why` says why), each refusal
/// made before anything of the run is sent: the folder its log goes to (an emulated run's may
/// not be a reports `runs/` folder, and defaults to a temporary one) and the matrix's verdicts
/// (a real run reads the reports folder; an emulated one never touches it). Read before any
/// request: evidence that cannot be read (a corrupt run log) would otherwise surface only
/// after the run had spent its requests, and without the matrix no verdict that differs from
/// it is probed again.
fn prepare_run(
    args: &ProbeArgs,
    project: &crate::project::Project,
    catalog: &crate::case::Catalog,
    emulated: bool,
    why: &str,
) -> Result<Prepared> {
    if !emulated {
        args.paths.require_reports()?;
    }
    let runs_dir = match (&args.runs_dir, emulated) {
        (Some(d), true)
            if same_dir(d, &project.runs_dir())
                || within_reports(d)
                || is_inside(d, &project.reports)
                || is_inside(d, &project.cases) =>
        {
            return Err(Error::Usage(format!(
                "this run is emulated ({why}); its answers are not evidence and may not go to {}",
                d.display()
            )));
        }
        (Some(d), _) => d.clone(),
        // A folder of its own, readable by this user only (not one shared path in the
        // system's temp folder, which another user could have made or read).
        (None, true) => tempfile::Builder::new()
            .prefix("toolwire-emulated-run-")
            .tempdir()
            .map_err(|e| Error::io(std::env::temp_dir(), e))?
            .keep(),
        (None, false) => project.runs_dir(),
    };
    let previous = if emulated {
        HashMap::new()
    } else {
        project.matrix(catalog)?.verdicts()
    };
    Ok((runs_dir, previous))
}

/// Refuses `--max-requests 0` when a live target would be probed: every probe of it would
/// end `skipped` and the run would only say that no probe reached a target. Targets
/// skipped for a missing key, and the in-process engines, send nothing and pass.
fn check_budget_allows(max_requests: usize, targets: &[Arc<dyn ProbeTarget>]) -> Result<()> {
    if max_requests > 0 {
        return Ok(());
    }
    let live: Vec<String> = targets
        .iter()
        .filter(|t| t.skip_reason().is_none())
        .map(|t| t.record())
        .filter(|r| r.auth != "in-process")
        .map(|r| r.id)
        .collect();
    if live.is_empty() {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "--max-requests 0 allows no request, and {} would be probed: raise --max-requests, or \
         leave them out (--target engine/* or --offline probes the in-process engines only)",
        live.join(", ")
    )))
}

/// The summary's line when the run's request budget stopped probes: how many ended
/// `skipped` for it and the flag to raise; `None` when the budget refused nothing. On a
/// target that was probed, the budget is the only cause of a `skipped` verdict (directly, or
/// through a control or Vertex discovery it stopped), so those are counted.
fn budget_spent(summary: &RunSummary, budget: &Budget, max_requests: usize) -> Option<String> {
    if budget.refused() == 0 {
        return None;
    }
    // Cases not sent after a control the budget stopped carry its verdict; the table shows
    // them apart ("not sent"), and so does this line (trial 77 D4: "18 skipped" beside a
    // table of 2 skipped and 16 not sent).
    let (mut stopped, mut not_sent) = (0, 0);
    for t in summary.targets.values().filter(|t| t.skipped.is_none()) {
        let skipped = t.counts.get(&Verdict::Skipped).copied().unwrap_or(0);
        let after = if t.not_sent_as == Some(Verdict::Skipped) {
            t.not_sent.min(skipped)
        } else {
            0
        };
        stopped += skipped - after;
        not_sent += after;
    }
    let after = match not_sent {
        0 => String::new(),
        n => format!(", and {n} case(s) were not sent after their target's control was skipped"),
    };
    Some(format!(
        "{stopped} probe(s) skipped: the request budget (--max-requests {max_requests}) was \
         spent{after}; raise --max-requests to probe them"
    ))
}

/// The summary's lines for targets that were sent a credential and whose control was refused
/// at the auth stage, each naming the target, the variable to check and the control's
/// answer; `None` when there is none. Keyless probes (Gemini's pre-auth 403, Vertex's
/// discovery) are not among them: no credential was sent, so their auth answer is expected.
fn refused_keys(summary: &RunSummary, key_vars: &HashMap<String, String>) -> Option<String> {
    let lines: Vec<String> = summary
        .targets
        .iter()
        .filter_map(|(id, t)| {
            let why = t.key_refused.as_deref()?;
            let var = key_vars.get(id).map_or("its key variable", String::as_str);
            Some(format!(
                "{id}: its credential was refused ({why}); check {var} (expired, revoked or \
                 rotated?)"
            ))
        })
        .collect();
    (!lines.is_empty()).then(|| {
        format!(
            "{}\n{} target(s) could not authenticate with the credential set: exit \
             {EXIT_KEY_REFUSED}",
            lines.join("\n"),
            lines.len()
        )
    })
}

/// Refuses a `--target` filter that matches no target before anything is sent: beside a
/// filter that does match, a mistyped one would otherwise leave its target out unnoticed (a
/// scheduled run would silently stop probing it). Offline, only the engines count.
fn check_target_filters(args: &ProbeArgs) -> Result<()> {
    let known: Vec<&str> = crate::engine::engines()
        .iter()
        .map(|e| e.id())
        .chain(
            (!args.offline)
                .then(crate::target::routes)
                .into_iter()
                .flatten()
                .map(|r| r.id()),
        )
        .collect();
    for f in &args.targets {
        if known.iter().any(|id| id_matches(id, f)) {
            continue;
        }
        if args.offline
            && crate::target::routes()
                .iter()
                .any(|r| id_matches(r.id(), f))
        {
            return Err(Error::Usage(format!(
                "--target {f:?} names live targets, and --offline probes only the in-process \
                 engines (engine/*); drop --offline to probe it"
            )));
        }
        let hint = crate::error::did_you_mean(f, known.iter().copied())
            .map(|n| format!(" (did you mean {n:?}?)"))
            .unwrap_or_default();
        return Err(Error::Usage(format!(
            "--target {f} matches no target{}{hint} (the targets: {})",
            if args.offline { " probed offline" } else { "" },
            known.join(", ")
        )));
    }
    Ok(())
}

/// Exit status after Ctrl-C (128 + SIGINT), as shells report an interrupted command.
const INTERRUPTED_EXIT: u8 = 130;
/// The exit status of a run stopped by SIGTERM (128 + 15: `timeout`, `docker stop`, a CI
/// runner cancelling the job), which ends it as Ctrl-C does.
const TERMINATED_EXIT: u8 = 143;

/// Resolves when the process is sent SIGTERM; never elsewhere (or when the handler cannot be
/// installed: the signal then ends the process as it would have).
async fn terminated() {
    #[cfg(unix)]
    if let Ok(mut term) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
    {
        term.recv().await;
        return;
    }
    std::future::pending::<()>().await
}

/// Says how a run stopped by a signal left its log (`log`: the run log, if it was created)
/// and returns `status`. The log was streamed as answers came: what is in it was observed,
/// only its footer is missing; `rules` folds it (nothing, when emulated).
fn stopped(status: u8, log: Option<&PathBuf>, emulated: bool) -> u8 {
    let how = if status == TERMINATED_EXIT {
        "terminated"
    } else {
        "interrupted"
    };
    let Some(log) = log else {
        eprintln!("toolwire: {how} before the run log was created: nothing was observed");
        return status;
    };
    let log = format!("the run log {}", log.display());
    if emulated {
        eprintln!(
            "toolwire: {how}: {log} has no footer; it holds emulated answers, which are never \
             evidence"
        );
    } else {
        eprintln!(
            "toolwire: {how}: {log} has no footer; `toolwire rules` folds the observations it \
             holds (and says so), or delete it"
        );
    }
    status
}

/// The async runtime of a probe run. Probing is I/O-bound; one thread runs the HTTP work
/// with no cross-thread wake-ups (a second core stays free for the servers and engines). With
/// `TOOLWIRE_PROBE_THREADS=N` (N > 1) a multi-threaded runtime is used instead.
pub fn runtime() -> Result<tokio::runtime::Runtime> {
    let threads = threads_from(std::env::var("TOOLWIRE_PROBE_THREADS").ok().as_deref())?;
    let mut b = if threads > 1 {
        let mut b = tokio::runtime::Builder::new_multi_thread();
        b.worker_threads(threads);
        b
    } else {
        tokio::runtime::Builder::new_current_thread()
    };
    b.enable_all()
        .build()
        .map_err(|e| Error::Other(format!("cannot start the async runtime: {e}")))
}

/// Worker threads asked for by `TOOLWIRE_PROBE_THREADS` (unset or empty: 1). A value that is
/// no whole number from 1 to [`MAX_THREADS`] is a usage error: ignored, a typo ran on one
/// thread unseen; too large, the runtime aborted the process spawning its workers.
fn threads_from(value: Option<&str>) -> Result<usize> {
    let Some(v) = value.filter(|v| !v.is_empty()) else {
        return Ok(1);
    };
    match v.parse::<usize>() {
        Ok(n @ 1..=MAX_THREADS) => Ok(n),
        _ => Err(Error::Usage(format!(
            "TOOLWIRE_PROBE_THREADS={v:?}: give a whole number of worker threads from 1 to \
             {MAX_THREADS}"
        ))),
    }
}

/// The most worker threads a probe run starts: probing is I/O-bound, so more buy nothing.
const MAX_THREADS: usize = 64;

/// Whether `file` (which may not exist yet; its folder does) is `folder` or lies below it,
/// both read through symbolic links ([`resolved`]), a link named `file` too (trial 50 D6: a
/// link outside the project to `reports/matrix.json` had the summary written over the matrix).
fn is_inside(file: &std::path::Path, folder: &std::path::Path) -> bool {
    let Ok(folder) = folder.canonicalize() else {
        return false;
    };
    resolved(file).starts_with(folder)
}

/// Whether `dir` is or lies in some project's run-log folder or reports folder, where an
/// emulated run's log may never go, whichever `--reports` this run reads (trial 49 D3: one
/// went into another checkout's `reports/runs`, which `rules` then refused): read through
/// symbolic links, `dir` or a folder above it is a `…/reports/runs` or holds a reports
/// folder's files ([`crate::project::Project::holds_reports`]; trial 51 D8: a copy of the
/// reports under another name slipped through; trial 77 D1: `reports/runs/sub`,
/// `reports/documented` and the reports folder itself were taken, and `git add reports`
/// would have carried the log).
fn within_reports(dir: &std::path::Path) -> bool {
    resolved(dir)
        .ancestors()
        .any(|a| a.ends_with("reports/runs") || crate::project::Project::holds_reports(a))
}

/// `path` read through symbolic links as far as it exists, the rest (a folder the run would
/// make) with `..` and `.` taken lexically: `reports/runs/new/..` is `reports/runs` (trial 50
/// D7: the raw path was compared, and the emulated log went there).
fn resolved(path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let absolute = std::env::current_dir().unwrap_or_default().join(path);
    let mut out = std::path::PathBuf::new();
    for c in absolute.components() {
        match c {
            Component::ParentDir => {
                out = out.canonicalize().unwrap_or(out);
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out.canonicalize().unwrap_or(out)
}

/// The line a real run prints instead of regenerating when its log went to a `--runs-dir`
/// other than the reports' run-log folder `project_runs` (`None` when it is that folder):
/// `rules` folds only the logs there, so regenerating would not fold this one in (trial 51
/// D3: nothing was regenerated and nothing said so, exit 0).
fn not_folded(runs_dir: &std::path::Path, project_runs: &std::path::Path) -> Option<String> {
    (!same_dir(runs_dir, project_runs)).then(|| {
        format!(
            "the run log is outside the reports' run-log folder {}: it is not folded in and the \
             matrix was not regenerated (move it there and run `toolwire rules` to fold it in)",
            project_runs.display()
        )
    })
}

fn same_dir(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The end-of-run table: per target, the verdict counts (the cases not sent after a failed
/// control apart from the verdict they were given), requests sent and wall time.
pub fn summary_table(s: &RunSummary) -> String {
    let mut b = tabled::builder::Builder::default();
    b.push_record([
        "target",
        "accepted",
        "accepted-ignored",
        "rejected",
        "confounded",
        "inconclusive",
        "unreachable",
        "skipped",
        "not sent",
        "requests",
        "wall",
    ]);
    for (id, t) in &s.targets {
        // The cases not sent after a failed control have its verdict in the log (with a note
        // saying so); the table shows them apart, as they were never sent.
        let n = |v: Verdict| {
            let all = t.counts.get(&v).copied().unwrap_or(0);
            let not_sent = if t.not_sent_as == Some(v) {
                t.not_sent
            } else {
                0
            };
            (all - not_sent).to_string()
        };
        // Why a target was skipped is printed before the run (`T: skipped: set VAR`); the
        // table stays narrow.
        let skipped = match &t.skipped {
            Some(_) => "all".to_string(),
            None => n(Verdict::Skipped),
        };
        b.push_record([
            id.clone(),
            n(Verdict::Accepted),
            n(Verdict::AcceptedIgnored),
            n(Verdict::Rejected),
            n(Verdict::Confounded),
            n(Verdict::Inconclusive),
            n(Verdict::Unreachable),
            skipped,
            t.not_sent.to_string(),
            t.requests.to_string(),
            format!("{:.2}s", t.wall.as_secs_f64()),
        ]);
    }
    let mut table = b.build();
    table.with(tabled::settings::Style::sharp());
    let mut out = table.to_string();
    for (id, t) in &s.targets {
        if let Some((why, n)) = t.why_all_inconclusive() {
            let sent = t.counts.values().sum::<usize>() - t.not_sent;
            // The words the log uses: inconclusive and unreachable are different verdicts.
            let words = match (
                t.counts.get(&Verdict::Inconclusive).copied().unwrap_or(0),
                t.counts.get(&Verdict::Unreachable).copied().unwrap_or(0),
            ) {
                (_, 0) => "inconclusive",
                (0, _) => "unreachable",
                _ => "inconclusive or unreachable",
            };
            out.push_str(&format!(
                "\n{id}: every answer was {words}; most common reason ({n} of {sent} sent): {why}"
            ));
            if t.not_sent > 0 {
                out.push_str(&format!(
                    "; {} more not sent (the control was not accepted)",
                    t.not_sent
                ));
            }
        }
        if t.parsed_only > 0 {
            out.push_str(&format!(
                "\n{id}: {} of the accepted only parsed (an HTTP error after the parse stage, as \
                 without a key: the validator was not reached); the matrix holds them as no \
                 verdict, not as acceptance",
                t.parsed_only
            ));
        }
    }
    out
}

fn print_summary(s: &RunSummary) {
    println!("{}", summary_table(s));
    let sent: usize = s.targets.values().map(|t| t.requests).sum();
    println!("requests sent: {sent}");
}

#[cfg(test)]
mod tests {

    /// TOOLWIRE_PROBE_THREADS: unset or empty is one thread; a typo, 0 or a count the
    /// runtime could not spawn is refused instead of ignored or aborting the run.
    #[test]
    fn probe_threads_are_a_bounded_whole_number() {
        assert_eq!(super::threads_from(None).unwrap(), 1);
        assert_eq!(super::threads_from(Some("")).unwrap(), 1);
        assert_eq!(super::threads_from(Some("4")).unwrap(), 4);
        for bad in ["abc", "-3", "0", "100000"] {
            let e = super::threads_from(Some(bad)).unwrap_err().to_string();
            assert!(e.contains("from 1 to 64"), "{bad}: {e}");
        }
    }
    use std::collections::BTreeMap;

    use clap::Parser;

    use super::*;
    use crate::probe::TargetSummary;

    fn args(flags: &[&str]) -> ProbeArgs {
        let mut argv = vec!["toolwire", "probe"];
        argv.extend_from_slice(flags);
        match crate::cli::Cli::try_parse_from(argv)
            .expect("the flags parse")
            .command
        {
            crate::cli::Command::Probe(a) => a,
            _ => unreachable!("a probe command"),
        }
    }

    /// A file in a folder, or below it, however the path is written, is inside it; one beside
    /// it is not (trial 49 D2: the summary replaced the evidence in the reports folder).
    #[test]
    fn a_file_below_a_folder_is_inside_it() {
        let dir = tempfile::tempdir().unwrap();
        let reports = dir.path().join("reports");
        std::fs::create_dir_all(reports.join("documented")).unwrap();
        assert!(is_inside(
            &reports.join("documented/reports.yaml"),
            &reports
        ));
        assert!(is_inside(
            &reports.join("./documented/../new.json"),
            &reports
        ));
        assert!(!is_inside(&dir.path().join("summary.json"), &reports));
        assert!(!is_inside(&dir.path().join("reports2.json"), &reports));
        // A folder that does not exist holds nothing.
        assert!(!is_inside(
            &reports.join("x.json"),
            &dir.path().join("cases")
        ));
        // A link outside it to a file in it is in it (trial 50 D6).
        #[cfg(unix)]
        {
            let target = reports.join("matrix.json");
            std::fs::write(&target, "{}").unwrap();
            let link = dir.path().join("summary.json");
            std::os::unix::fs::symlink(&target, &link).unwrap();
            assert!(is_inside(&link, &reports));
        }
    }

    /// Any project's `reports/runs` is one, also through a link, and so is a folder holding
    /// the reports' files under another name and every folder in it; a folder elsewhere is
    /// not (trial 49 D3: an emulated log went into another checkout's `reports/runs`).
    #[test]
    fn a_reports_folder_and_what_it_holds_are_known_by_their_path() {
        let dir = tempfile::tempdir().unwrap();
        let runs = dir.path().join("clone/reports/runs");
        std::fs::create_dir_all(&runs).unwrap();
        assert!(within_reports(&runs));
        assert!(within_reports(&dir.path().join("clone/reports/./runs")));
        // A folder to be made, leading back to it (trial 50 D7).
        assert!(within_reports(
            &dir.path().join("clone/reports/runs/new/..")
        ));
        assert!(!within_reports(dir.path()));
        assert!(!within_reports(&dir.path().join("clone/reports")));
        // A copy of the reports under another name, its runs/ made or not (trial 51 D8).
        let copy = dir.path().join("repcopy");
        std::fs::create_dir_all(copy.join("documented")).unwrap();
        assert!(within_reports(&copy.join("runs")));
        assert!(within_reports(&copy.join("runs/new/..")));
        std::fs::remove_dir(copy.join("documented")).unwrap();
        assert!(!within_reports(&copy.join("runs")));
        std::fs::write(copy.join("matrix.json"), "{}").unwrap();
        assert!(within_reports(&copy.join("runs")));
        // Any folder in a reports folder (trial 77 D1).
        assert!(within_reports(&copy.join("logs")));
        assert!(within_reports(&copy));
        assert!(within_reports(&runs.join("sub")));
        assert!(!within_reports(&dir.path().join("elsewhere")));
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&runs, &link).unwrap();
            assert!(within_reports(&link));
        }
    }

    /// A real run's log outside the reports' run-log folder is said not to be folded in, with
    /// how to fold it (trial 51 D3: `probe --offline --runs-dir ../runs` neither regenerated
    /// nor said so); in that folder, however named, nothing is said.
    #[test]
    fn a_run_log_outside_the_reports_runs_is_said_not_to_be_folded() {
        let dir = tempfile::tempdir().unwrap();
        let runs = dir.path().join("reports/runs");
        std::fs::create_dir_all(&runs).unwrap();
        assert_eq!(not_folded(&runs, &runs), None);
        assert_eq!(not_folded(&dir.path().join("reports/./runs"), &runs), None);
        let line = not_folded(&dir.path().join("elsewhere"), &runs).unwrap();
        assert!(line.contains("it is not folded in and the matrix was not regenerated"));
        assert!(line.contains(&format!("{}", runs.display())), "{line}");
    }

    /// A `--runs-dir` naming a file is refused, naming the flag; a folder, or none yet, is not.
    #[test]
    fn a_runs_dir_that_is_a_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "").unwrap();
        let err = check_runs_dir(&file).unwrap_err().to_string();
        assert!(
            err.starts_with("--runs-dir ")
                && err.ends_with(": is a file; name a folder for the run log (made if missing)"),
            "{err}"
        );
        assert!(check_runs_dir(dir.path()).is_ok());
        let new = dir.path().join("new/deeper");
        assert!(check_runs_dir(&new).is_ok());
        assert!(
            !dir.path().join("new").exists(),
            "the check leaves no folder behind"
        );
        // Trial 79 D4: under a file, the bare OS error named neither the flag nor the file.
        let err = check_runs_dir(&file.join("sub")).unwrap_err().to_string();
        assert!(
            err.starts_with("--runs-dir ")
                && err.contains(&format!(
                    "{} is a file, so no folder can be made under it",
                    file.display()
                )),
            "{err}"
        );
    }

    /// A `--summary-json` that names a folder is refused before the run, naming the flag
    /// (found at the end, it cost the whole run and printed only "Is a directory"); the check
    /// leaves an earlier summary whole and makes no file of its own.
    #[test]
    fn a_summary_destination_that_cannot_be_written_is_refused_up_front() {
        let dir = tempfile::tempdir().unwrap();
        let err = check_summary_destination(dir.path())
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("--summary-json "), "{err}");
        assert!(
            err.ends_with(": is a folder; name a file to write the summary in"),
            "{err}"
        );
        let kept = dir.path().join("kept.json");
        std::fs::write(&kept, "{\"earlier\": true}\n").unwrap();
        check_summary_destination(&kept).unwrap();
        assert_eq!(
            std::fs::read_to_string(&kept).unwrap(),
            "{\"earlier\": true}\n"
        );
        let new = dir.path().join("new.json");
        check_summary_destination(&new).unwrap();
        assert!(!new.exists(), "the check left a file behind");
        let under_a_file = kept.join("s.json");
        let err = check_summary_destination(&under_a_file)
            .unwrap_err()
            .to_string();
        assert!(err.contains("there is no folder"), "{err}");
    }

    /// A `--summary-json` name that is a link to a file not made yet stays that link through the
    /// check, and the summary is written where it points (trial 52 D13: the link was replaced
    /// by a file and an empty file left at its target).
    #[cfg(unix)]
    #[test]
    fn a_summary_link_to_a_file_not_made_yet_is_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("made-later.json");
        let link = dir.path().join("sum.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        check_summary_destination(&link).unwrap();
        assert!(
            !target.exists(),
            "the check left a file at the link's target"
        );
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        write_summary_json(&link, None, 0, &Ending::default()).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let written: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
        assert_eq!(written["exit_status"], 0);
    }

    /// A `--summary-json` name hard-linked to a file of the reports is unlinked from it, not
    /// written through: the evidence keeps its bytes (trial 50 D6: profile.json became the
    /// summary, exit 0).
    #[cfg(unix)]
    #[test]
    fn a_summary_hard_linked_to_evidence_leaves_the_evidence_whole() {
        let dir = tempfile::tempdir().unwrap();
        let evidence = dir.path().join("profile.json");
        std::fs::write(&evidence, "{\"profiles\": []}\n").unwrap();
        let summary = dir.path().join("sum.json");
        std::fs::hard_link(&evidence, &summary).unwrap();
        write_summary_json(&summary, None, 0, &Ending::default()).unwrap();
        assert_eq!(
            std::fs::read_to_string(&evidence).unwrap(),
            "{\"profiles\": []}\n"
        );
        let written: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
        assert_eq!(written["exit_status"], 0);
    }

    /// A hosted provider's base URL replaced by one that is not the provider's own (a
    /// loopback mock, a remote gateway) makes whatever answers there a stand-in (its answers
    /// are not evidence); a self-hosted engine's own URL, an Azure resource's endpoint and a
    /// provider's default host are not.
    #[test]
    fn a_hosted_target_sent_elsewhere_is_a_stand_in() {
        let env: BTreeMap<String, String> = [
            ("OPENAI_API_KEY", "tw-stand-in-test"),
            ("MISTRAL_API_KEY", "tw-stand-in-test"),
            ("ANTHROPIC_API_KEY", "tw-stand-in-test"),
            ("AZURE_OPENAI_API_KEY", "tw-stand-in-test"),
            ("AZURE_OPENAI_ENDPOINT", "https://myres.openai.azure.com"),
            ("AZURE_OPENAI_DEPLOYMENT", "gpt-4o"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let a = args(&[
            "--target",
            "openai/chat",
            "--target",
            "mistral/chat",
            "--target",
            "ollama/chat",
            "--target",
            "anthropic/messages",
            "--target",
            "azure-openai/chat",
            "--base-url",
            "openai/chat=http://127.0.0.1:9",
            "--base-url",
            "mistral/chat=https://gateway.example.com",
            "--base-url",
            "ollama/chat=http://192.0.2.2:11500",
        ]);
        let client = http::client(Duration::from_secs(1)).expect("a client");
        let live = live_targets(&a, &env, &client, &Budget::new(Some(1))).expect("targets");
        assert_eq!(
            live.stand_ins,
            vec![
                ("openai/chat".to_string(), "http://127.0.0.1:9".to_string()),
                (
                    "mistral/chat".to_string(),
                    "https://gateway.example.com".to_string()
                )
            ]
        );
    }

    /// Trial 87 D3: a stand-in set by `OPENAI_BASE_URL` (logged as `{OPENAI_BASE_URL}/…`) was
    /// marked only by the header's `emulated` flag. Every answer of a stand-in is noted so,
    /// whatever ended it (here the request budget, so nothing is sent); a target at the
    /// provider's own host is not noted.
    #[test]
    fn every_answer_of_a_stand_in_set_by_a_variable_is_noted() {
        let env: BTreeMap<String, String> = [
            ("OPENAI_API_KEY", "tw-stand-in-test"),
            ("OPENAI_BASE_URL", "http://127.0.0.1:9"),
            ("MISTRAL_API_KEY", "tw-stand-in-test"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let a = args(&["--target", "openai/chat", "--target", "mistral/chat"]);
        let client = http::client(Duration::from_secs(1)).expect("a client");
        let live = live_targets(&a, &env, &client, &Budget::new(Some(0))).expect("targets");
        let control = crate::case::Case {
            id: "control/baseline".into(),
            title: "control".into(),
            family: "control".into(),
            parameter: "control".into(),
            placement: crate::case::Placement::Nested,
            strict: false,
            tools: vec![crate::case::baseline()],
            instances: vec![],
            notes: String::new(),
            links: vec![],
            path: PathBuf::new(),
        };
        let notes: Vec<(String, Option<String>)> = runtime().unwrap().block_on(async {
            let mut notes = Vec::new();
            for t in &live.targets {
                let answer = t.probe(&control).await;
                notes.push((t.record().id, answer.note));
            }
            notes
        });
        let [(openai, stand_in), (mistral, own)] = notes.as_slice() else {
            panic!("two targets: {notes:?}");
        };
        assert_eq!(
            (openai.as_str(), mistral.as_str()),
            ("openai/chat", "mistral/chat")
        );
        let stand_in = stand_in.as_deref().unwrap_or_default();
        assert!(stand_in.starts_with(http::STAND_IN_NOTE), "{stand_in}");
        assert!(
            own.as_deref().is_none_or(|n| !n.contains("stand-in")),
            "{own:?}"
        );
    }

    /// `--model` given once per target sets each target's model and leaves the others at
    /// their default: probe.yml turns `PROBE_MODELS`' pairs into one flag each.
    #[test]
    fn one_model_flag_per_target_sets_each() {
        let a = args(&[
            "--target",
            "openai/*",
            "--target",
            "bedrock/converse",
            "--model",
            "openai/chat=gpt-4.1",
            "--model",
            "bedrock/converse=anthropic.claude-x-v1:0",
        ]);
        let client = http::client(Duration::from_secs(1)).expect("a client");
        let env = BTreeMap::new();
        let live = live_targets(&a, &env, &client, &Budget::new(Some(1))).expect("targets");
        let models: Vec<(String, String)> = live
            .targets
            .iter()
            .map(|t| (t.record().id, t.config().model.clone()))
            .collect();
        let default = crate::target::route("openai/chat-strict")
            .expect("a route")
            .settings()
            .model;
        let expected = [
            ("openai/chat", "gpt-4.1"),
            ("openai/chat-strict", default),
            ("openai/responses-strict", default),
            ("bedrock/converse", "anthropic.claude-x-v1:0"),
        ]
        .map(|(id, m)| (id.to_string(), m.to_string()));
        assert_eq!(models, expected);
    }

    /// The probed targets' settings that may be private reach the redactor, named by their
    /// variables; an unprobed target's do not.
    #[test]
    fn private_settings_of_probed_targets_are_collected() {
        let env: BTreeMap<String, String> = [
            ("GOOGLE_CLOUD_PROJECT", "my-proj-123"),
            ("AZURE_OPENAI_ENDPOINT", "https://myres.openai.azure.com"),
            ("OLLAMA_HOST", "http://10.0.0.5:11434"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let a = args(&[
            "--target",
            "vertex/v1/parameters",
            "--target",
            "azure-openai/chat",
        ]);
        let client = http::client(Duration::from_secs(1)).expect("a client");
        let live = live_targets(&a, &env, &client, &Budget::new(Some(1))).expect("targets");
        let vars: Vec<&str> = live.settings.iter().map(|(v, _)| v.as_str()).collect();
        assert_eq!(vars, ["GOOGLE_CLOUD_PROJECT", "AZURE_OPENAI_ENDPOINT"]);
    }

    /// A hosted target is reached over https even without a key: Gemini's pre-auth probe
    /// went over plain http to 192.0.2.2 and was folded in as `probe` evidence.
    #[test]
    fn plain_http_to_a_remote_stand_in_is_refused_without_a_key() {
        let a = args(&[
            "--target",
            "gemini/v1beta/parameters",
            "--base-url",
            "gemini/v1beta/parameters=http://192.0.2.2:18093",
        ]);
        let client = http::client(Duration::from_secs(1)).expect("a client");
        let env: BTreeMap<String, String> = BTreeMap::new();
        let err = live_targets(&a, &env, &client, &Budget::new(Some(1)))
            .err()
            .expect("refused")
            .to_string();
        assert!(
            err.contains("gemini/v1beta/parameters: refusing plain http to http://192.0.2.2:18093"),
            "{err}"
        );
    }

    /// The live counts leave the engines out and count as observed only a target that gave
    /// an accepted or rejected answer: a run whose live targets were all skipped or
    /// unreachable was kept (the engines answered) and looked like any other to a scheduled
    /// job. Gemini's keyless parse-only acceptance is an observation.
    #[test]
    fn live_counts_leave_the_engines_out_and_need_an_answer() {
        let target = |verdicts: &[(Verdict, usize)], skipped: bool| TargetSummary {
            counts: verdicts.iter().copied().collect(),
            skipped: skipped.then(|| "set OPENAI_API_KEY".to_string()),
            ..Default::default()
        };
        let summary = |gemini: Verdict| RunSummary {
            run: "r".into(),
            log: PathBuf::from("r.jsonl"),
            targets: [
                (
                    "engine/llguidance",
                    target(&[(Verdict::Accepted, 3)], false),
                ),
                ("gemini/v1beta/parameters", target(&[(gemini, 3)], false)),
                (
                    "anthropic/messages",
                    target(&[(Verdict::Inconclusive, 1), (Verdict::Skipped, 2)], false),
                ),
                ("openai/chat", target(&[], true)),
            ]
            .into_iter()
            .map(|(id, t)| (id.to_string(), t))
            .collect(),
        };
        let live = [
            "gemini/v1beta/parameters",
            "anthropic/messages",
            "openai/chat",
        ]
        .map(String::from);
        let counts = |observed| LiveCounts {
            selected: 3,
            skipped: 1,
            probed: 2,
            observed,
        };
        assert_eq!(
            LiveCounts::of(&summary(Verdict::Accepted), &live),
            counts(1)
        );
        assert_eq!(
            LiveCounts::of(&summary(Verdict::Rejected), &live),
            counts(1)
        );
        assert_eq!(
            LiveCounts::of(&summary(Verdict::Unreachable), &live),
            counts(0)
        );
    }

    /// With `--ignore-unprobed-models`, a `--model` for a target `--target` leaves out is
    /// let through (and named by [`unprobed_models`]), while every pair is still checked:
    /// probe.yml's standing `PROBE_MODELS` stopped every dispatch narrowed to other targets.
    #[test]
    fn unprobed_models_can_be_ignored_but_are_still_checked() {
        let flags = |extra: &[&'static str]| {
            let mut all = vec![
                "--target",
                "gemini/v1beta/parameters",
                "--model",
                "openai/chat=gpt-4.1",
                "--model",
                "gemini/v1beta/parameters=gemini-2.5-pro",
            ];
            all.extend_from_slice(extra);
            args(&all)
        };
        let err = check_flags(&flags(&[])).expect_err("refused").to_string();
        assert!(err.starts_with("--model openai/chat=…"), "{err}");
        let lenient = flags(&["--ignore-unprobed-models"]);
        check_flags(&lenient).expect("taken");
        assert_eq!(unprobed_models(&lenient).expect("pairs"), ["openai/chat"]);
        for (bad, why) in [
            ("opneai/chat=gpt-4.1", "is not a live target"),
            ("openai/chat=gpt 4.1", "--model openai/chat="),
            (
                "gemini/v1beta/parameters=gemini-2.5-flash",
                "given more than once",
            ),
        ] {
            let err = check_flags(&flags(&["--ignore-unprobed-models", "--model", bad]))
                .expect_err("refused")
                .to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    /// A `--base-url` or `--model` for a target the run does not probe is an error, not a
    /// flag ignored while the probed target goes to its provider.
    #[test]
    fn a_setting_for_a_target_not_probed_is_refused() {
        let err = check_flags(&args(&[
            "--target",
            "openai/chat",
            "--base-url",
            "anthropic/messages=http://127.0.0.1:9/anthropic",
        ]))
        .expect_err("refused")
        .to_string();
        assert!(
            err.contains("--base-url anthropic/messages=…: anthropic/messages is not probed in this run (--target openai/chat)"),
            "{err}"
        );
        let err = check_flags(&args(&[
            "--target",
            "engine/*",
            "--model",
            "openai/chat=gpt-4o",
        ]))
        .expect_err("refused")
        .to_string();
        assert!(err.starts_with("--model openai/chat=…"), "{err}");
        // A filter that covers the target, and no filter at all, take it.
        for flags in [
            &[
                "--target",
                "openai/*",
                "--base-url",
                "openai/chat=http://127.0.0.1:9",
            ][..],
            &["--base-url", "openai/chat=http://127.0.0.1:9"][..],
        ] {
            check_flags(&args(flags)).expect("taken");
        }
    }

    /// A base URL ending in `/v1` means the same from `--base-url` as from the variable: the
    /// flag's was kept whole, and requests went to `…/v1/v1/chat/completions` (404s).
    #[test]
    fn a_base_url_flag_is_read_as_its_variable_is() {
        let written = "https://gateway.example.com/openai/v1";
        let client = http::client(Duration::from_secs(1)).expect("a client");
        let base = |env: &[(&str, &str)], flags: &[&str]| {
            let env: BTreeMap<String, String> = env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let mut all = vec!["--target", "openai/chat", "--target", "vllm/chat"];
            all.extend_from_slice(flags);
            let live =
                live_targets(&args(&all), &env, &client, &Budget::new(Some(1))).expect("targets");
            live.targets
                .iter()
                .map(|t| t.config().base_url.clone())
                .collect::<Vec<_>>()
        };
        let key = ("OPENAI_API_KEY", "tw-base-url-test");
        let from_env = base(
            &[
                key,
                ("OPENAI_BASE_URL", written),
                ("VLLM_BASE_URL", written),
            ],
            &[],
        );
        let openai_flag = format!("openai/chat={written}/");
        let vllm_flag = format!("vllm/chat={written}");
        let from_flag = base(
            &[key],
            &["--base-url", &openai_flag, "--base-url", &vllm_flag],
        );
        assert_eq!(from_env, ["https://gateway.example.com/openai"; 2]);
        assert_eq!(from_flag, from_env);
    }
}
