//! The command line: one file per subcommand; `main.rs` only calls [`main`].

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::Error;

pub mod args;
pub mod check;
pub mod compile;
pub mod emulate;
pub mod explain;
pub mod matrix;
pub mod probe;
pub mod repair;
pub mod rules;

/// Exit code for success.
pub const EXIT_OK: u8 = 0;
/// Exit code for findings, stale files or a failed check.
pub const EXIT_FINDINGS: u8 = 1;
/// Exit code for bad input or usage.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code of `probe` when a target that was sent a credential could not authenticate
/// (its control answered an auth error): distinct from 1 and 2 so that scheduled CI can
/// still fold the run's evidence and then fail, where a rotated key would otherwise go
/// unnoticed behind a green run.
pub const EXIT_KEY_REFUSED: u8 = 3;

/// toolwire: which tool schemas does each model provider accept, today?
#[derive(Debug, Parser)]
#[command(name = "toolwire", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Where the project's data lives: `--cases` and `--reports`, options of the commands that
/// read the catalog or the evidence (`probe`, `rules`, `matrix`) and of no other. The others
/// read only the files they are given (and the profiles built into the binary, or
/// `--profiles FILE`), so clap refuses these options there (exit 2) rather than accept a
/// folder they would never read.
#[derive(Debug, Clone, clap::Args)]
pub struct Paths {
    /// The case catalog.
    #[arg(long = "cases", default_value = "cases", value_name = "DIR")]
    pub cases_dir: PathBuf,
    /// Reports: runs/, documented/, matrix, profiles, rule table.
    #[arg(long = "reports", default_value = "reports", value_name = "DIR")]
    pub reports_dir: PathBuf,
}

/// `--cases` and `--reports` on a command that reads neither: accepted by the parser only to
/// be refused with a message naming the commands that do read them (a plain "unexpected
/// argument" would suggest passing the flag as a value). Hidden from `--help`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct NoProject {
    #[arg(long = "cases", value_name = "DIR", hide = true)]
    cases: Option<PathBuf>,
    #[arg(long = "reports", value_name = "DIR", hide = true)]
    reports: Option<PathBuf>,
}

impl NoProject {
    /// [`Error::Usage`] (exit 2) when `--cases` or `--reports` was given to `command`.
    pub fn refuse(&self, command: &str, reads: &str) -> Result<(), Error> {
        let given: Vec<&str> = [
            self.cases.as_ref().map(|_| "--cases"),
            self.reports.as_ref().map(|_| "--reports"),
        ]
        .into_iter()
        .flatten()
        .collect();
        if given.is_empty() {
            return Ok(());
        }
        let (what, verb) = if given.len() == 1 {
            (given[0].to_string(), "does")
        } else {
            (given.join(" and "), "do")
        };
        Err(Error::Usage(format!(
            "{what} {verb} not apply to `toolwire {command}`, which reads {reads}; only `probe`, \
             `rules` and `matrix` read the case catalog and the reports folder"
        )))
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Probe every case against every selected target, write a run log, regenerate the matrix.
    #[command(after_help = probe::EXIT_STATUS_HELP)]
    Probe(probe::ProbeArgs),
    /// The same as `rules`: rebuild the matrix (with the profiles and rule table made from it).
    Matrix(matrix::MatrixArgs),
    /// Regenerate the matrix, profiles and rule table (`--check`: exit 1 naming stale files).
    Rules(rules::RulesArgs),
    /// Print one rule's documentation (without an ID: every rule id with what it checks).
    Rule(rules::RuleArgs),
    /// Check tool definitions against a profile or a target.
    ///
    /// Exit 0: no finding; 1: findings (warnings too, unless `--errors-only`), or a request
    /// with no tool a target takes; 2: bad input (each unreadable file is named, and the
    /// other files are still checked and reported).
    Check(check::CheckArgs),
    /// Rewrite tool definitions so that a profile accepts them, reporting each change and loss.
    ///
    /// The report is on standard error (standard output with `-o FILE`). Exit 0: every tool
    /// unchanged or repaired; 1: a tool was refused; 2: bad input. When every tool is refused
    /// (and not kept: `--keep-unrepairable`, or `-o` naming the input), nothing is written:
    /// standard output stays empty and an `-o` file is left as it was (or not created); the
    /// report says so (`nothing written: ...`; `written: false` in JSON), and the exit status
    /// is 1.
    Repair(repair::RepairArgs),
    /// Compile tool definitions to one target's wire form.
    ///
    /// Exit 0: every tool compiled and the target's offline model accepts every request; 1: a
    /// tool was refused, the model rejects a request, or a request with tools is written as
    /// the empty tool block (e.g. built-in tools only, none of which the target takes: a
    /// deploy of that output would send no tool; the report says why); 2: bad input.
    Compile(compile::CompileArgs),
    /// Validate tool-call arguments against a tool's schema.
    ///
    /// An optional argument sent as `null` where the schema does not allow null is treated as
    /// absent (strict modes make every optional argument nullable, so models send `null` for
    /// "not given"); this cannot be turned off. Such a call is valid only without those nulls:
    /// the human output says "ok after treating null as absent at POINTER", and `--format
    /// json` lists them in `absent_nulls` and gives the arguments without them in
    /// `arguments`. Forward those, not the model's: a server validating the declared schema
    /// (Pydantic, zod) rejects the null. A number read as another value than sent (an integer
    /// past 2^64, a decimal past 15 significant digits that no 64-bit float spells back, `1e-400`) is a problem: the check judged
    /// the 64-bit float read, so it cannot vouch for the number sent; numeric text coerced by
    /// `--coerce number` too. The schema's numbers are read so too: one not read as written
    /// (a bound `99999999999999991611392`, read as 1e+23) is a note (`schema_inexact_numbers`
    /// in JSON), since what is judged against it may not hold for the number as written. Exit
    /// 0: valid; 1: problems (arguments that are not JSON too); 2: bad input.
    Args(args::ArgsArgs),
    /// Explain a provider's rejection of a request.
    ///
    /// Exit 0: a rule or a fix was found for the error; 1: no template matched, or none named
    /// a rule or a fix; 2: bad input.
    Explain(explain::ExplainArgs),
    /// Serve the offline target models over HTTP.
    Emulate(emulate::EmulateArgs),
}

/// The exit status a shell reports for a process ended by SIGPIPE (128 + 13).
const BROKEN_PIPE_EXIT: i32 = 141;

/// `EPIPE` (Linux, macOS and the BSDs), as std's print panic message names it.
const EPIPE: i32 = 32;

/// Exit status for bad input and I/O failures (as for every [`crate::error::Error`]).
const IO_EXIT: i32 = 2;

/// A reader that goes away (`toolwire … | head`) ends the output quietly, as SIGPIPE ends
/// other Unix tools. Rust ignores SIGPIPE, so std's print macros panic on EPIPE instead; that
/// one panic becomes an exit with status 141. Any other failure to print (a full disk,
/// `> /dev/full`) becomes one line naming it and exit status 2, as other I/O errors do, not a
/// panic with a backtrace. SIGPIPE itself stays ignored because the prober and the emulator
/// write to sockets, where a peer that went away must be an error the code handles, not a
/// kill.
fn end_quietly_on_output_errors() {
    use std::io::Write;
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(stream) = message.strip_prefix("failed printing to ") {
            if message.contains(&format!("(os error {EPIPE})")) {
                std::process::exit(BROKEN_PIPE_EXIT);
            }
            // `stream` reads "stdout: <the OS error>".
            let _ = writeln!(std::io::stderr(), "toolwire: cannot write to {stream}");
            std::process::exit(IO_EXIT);
        }
        default(info);
    }));
}

/// The redactor for every error line and every file name a command prints: the keys set in
/// the environment ([`crate::evidence::runlog::Redactor::from_env`]), built once.
static REDACTOR: std::sync::LazyLock<crate::evidence::runlog::Redactor> =
    std::sync::LazyLock::new(crate::evidence::runlog::Redactor::from_env);

/// `text` with every key set in the environment, and key-shaped strings, redacted as run logs
/// are: errors quote the input (a file name, a key pasted into one) and sometimes a
/// provider's answer.
pub fn redacted(text: &str) -> String {
    REDACTOR.redact(text).into_owned()
}

/// Prints one error line on standard error: `toolwire: ` and `text`, redacted ([`redacted`])
/// and escaped like all output for people. Every command's error lines go through it.
pub fn say_error(text: &str) {
    eprintln!(
        "toolwire: {}",
        crate::report::escape_output(&redacted(text))
    );
}

/// Clap's answer to a command line it did not run: `--help` and `--version` as clap prints
/// them (standard output, exit 0), and a refusal rendered as plain text, redacted
/// ([`redacted`]) and escaped like every error line, on standard error with clap's exit code
/// (2). Clap quotes the offending value (`--timeout <key>`, a key typed as the subcommand),
/// and a key pasted into the wrong argument must not reach a terminal or CI log.
fn refused_command_line(e: &clap::Error) -> ExitCode {
    let code = u8::try_from(e.exit_code()).unwrap_or(2);
    if !e.use_stderr() {
        // Help and version hold no input, and keep clap's colours and layout.
        let _ = e.print();
        return ExitCode::from(code);
    }
    eprint!("{}", render_refusal(e));
    ExitCode::from(code)
}

/// A refusal of clap, as text for standard error: plain (no colours), redacted and escaped.
fn render_refusal(e: &clap::Error) -> String {
    let text = e.render().to_string();
    crate::report::escape_output(&redacted(&text)).into_owned()
}

/// Parses the command line, runs it and maps errors to exit codes.
pub fn main() -> ExitCode {
    end_quietly_on_output_errors();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return refused_command_line(&e),
    };
    let result = match cli.command {
        Command::Probe(a) => probe::run(a),
        Command::Matrix(a) => matrix::run(a),
        Command::Rules(a) => rules::run(a),
        Command::Rule(a) => rules::run_rule(a),
        Command::Check(a) => check::run(a),
        Command::Repair(a) => repair::run(a),
        Command::Compile(a) => compile::run(a),
        Command::Args(a) => args::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Emulate(a) => emulate::run(a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            say_error(&e.to_string());
            ExitCode::from(exit_code(&e))
        }
    }
}

impl Paths {
    /// The project these paths point at.
    pub fn project(&self) -> crate::project::Project {
        crate::project::Project::new(&self.cases_dir, &self.reports_dir)
    }

    /// Refuses a `--reports` that is not a folder (exit 2): the generated files are made from
    /// the run logs and documented evidence inside it, so a mistyped folder would otherwise
    /// be read as a project with no evidence at all (and written to, created on the way).
    pub fn require_reports(&self) -> Result<(), Error> {
        let dir = &self.reports_dir;
        if dir.is_dir() {
            return Ok(());
        }
        let problem = if dir.exists() {
            "--reports must name a folder (runs/, documented/ and the generated files), not a file"
        } else {
            "--reports: no such folder (it holds runs/, documented/ and the generated files)"
        };
        Err(Error::input(dir, crate::error::Place::Path, problem))
    }
}

/// The parser of a file argument: any path but the empty one, refused with words that say
/// so (clap's own parser for paths calls an empty value missing: "a value is required ...
/// but none was supplied", which reads as if nothing was typed, when `''` or an unset shell
/// variable was). Clap reports it as an invalid value of the argument it names, exit 2. The
/// path is taken as the bytes given, not as UTF-8 text: a Linux file name may hold any byte
/// but `/` and NUL, and clap's parsers of text refused such a name without naming it, and
/// with it every file of the command (trial 68 D1); messages show it as `Path::display` does,
/// with replacement characters.
pub fn file_arg() -> impl clap::builder::TypedValueParser<Value = PathBuf> {
    use clap::builder::TypedValueParser as _;
    clap::builder::OsStringValueParser::new().try_map(file_path)
}

/// [`file_arg`]'s test of one value.
fn file_path(value: std::ffi::OsString) -> Result<PathBuf, String> {
    if value.is_empty() {
        return Err(
            "the file name is empty (an unset shell variable?): give a file's path, or - for \
             standard input"
                .into(),
        );
    }
    Ok(PathBuf::from(value))
}

/// Why a whole-number argument was refused ([`whole_number`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutOfRange {
    /// Not written as a whole number (`1.5`, `ten`, empty).
    NotANumber,
    /// Below the least value allowed (negative numbers included).
    Below,
    /// Above the greatest value allowed (numbers past `u64` included).
    Above,
}

/// A whole number from `min` to `max`, as the numeric options read it: a value below zero or
/// past `u64::MAX` is still a number, only out of range, so it is refused as such (Rust's
/// parser calls `-1` an "invalid digit" and `99999999999999999999` "too large to fit in
/// target type", which name no bound). Spaces around it and a leading `+` are allowed.
pub fn whole_number(text: &str, min: u64, max: u64) -> Result<u64, OutOfRange> {
    let text = text.trim();
    let (negative, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(OutOfRange::NotANumber);
    }
    // Only digits: a failure to parse is a value past `u64::MAX`.
    let n = if negative && digits.bytes().any(|b| b != b'0') {
        return Err(OutOfRange::Below);
    } else {
        digits.parse::<u64>().map_err(|_| OutOfRange::Above)?
    };
    match n {
        n if n < min => Err(OutOfRange::Below),
        n if n > max => Err(OutOfRange::Above),
        n => Ok(n),
    }
}

/// The clap parser of a whole-number option from `min` to `max` ([`whole_number`]), as the
/// option's own type; clap names the option and the value given, exit 2.
pub fn whole_number_arg<T>(
    min: u64,
    max: T,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Copy + Send + Sync + 'static,
    u64: TryFrom<T>,
{
    let max = u64::try_from(max).unwrap_or(u64::MAX);
    move |text| {
        let n = whole_number(text, min, max).map_err(|e| match e {
            OutOfRange::NotANumber => "expected a whole number".to_string(),
            OutOfRange::Below => format!("expected at least {min}"),
            OutOfRange::Above => format!("at most {max}"),
        })?;
        // Within `max`, which came from a `T`.
        T::try_from(n).map_err(|_| format!("at most {max}"))
    }
}

/// Refuses a command line that names standard input (`-`) in more than one place: the first
/// reader would take all of it and the next would see an empty file (or an unknown shape).
/// `inputs` are (where it was given, e.g. `FILE` or `--call`; the argument as given) for every
/// argument the command reads from; an argument of `-` is standard input. Error:
/// [`Error::Usage`] (exit 2) naming the places.
pub fn stdin_once<'a>(
    inputs: impl IntoIterator<Item = (&'a str, &'a std::ffi::OsStr)>,
) -> Result<(), Error> {
    // Each place once, with how often `-` was given there (`FILE twice`).
    let mut places: Vec<(&str, usize)> = Vec::new();
    for (place, _) in inputs.into_iter().filter(|(_, arg)| *arg == "-") {
        match places.iter_mut().find(|(p, _)| *p == place) {
            Some((_, n)) => *n += 1,
            None => places.push((place, 1)),
        }
    }
    if places.iter().map(|(_, n)| n).sum::<usize>() < 2 {
        return Ok(());
    }
    let named: Vec<String> = places
        .iter()
        .map(|(place, n)| match n {
            1 => place.to_string(),
            2 => format!("{place} twice"),
            n => format!("{place} {n} times"),
        })
        .collect();
    Err(Error::Usage(format!(
        "standard input (`-`) can be read only once, but it is given as {}",
        named.join(" and ")
    )))
}

/// The exit code for an error: always 2 (bad input, usage, or a failure to write).
pub fn exit_code(_e: &Error) -> u8 {
    EXIT_BAD_INPUT
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    /// Clap quotes the value it refuses: a key typed into the wrong argument (or as the
    /// subcommand) is redacted in the rendered refusal, which keeps clap's words otherwise.
    #[test]
    fn a_refused_command_line_does_not_print_a_key() {
        let key = "sk-test-CLAPECHO0123456789abcdef";
        for (args, kept) in [
            (vec!["emulate", "--listen", key], "--listen <ADDR>"),
            (
                vec!["check", "--format", key, "a.json"],
                "--format <FORMAT>",
            ),
            (vec!["probe", "--timeout", key], "--timeout <SECS>"),
            (vec![key], "unrecognized subcommand"),
        ] {
            let e = Cli::try_parse_from(std::iter::once("toolwire").chain(args.clone()))
                .err()
                .unwrap_or_else(|| panic!("{args:?} parsed"));
            assert_eq!(e.exit_code(), 2, "{args:?}");
            assert!(e.use_stderr(), "{args:?}");
            let text = render_refusal(&e);
            assert!(!text.contains("CLAPECHO"), "{args:?}: {text}");
            assert!(text.contains("[REDACTED]"), "{args:?}: {text}");
            assert!(
                text.starts_with("error: ") && text.contains(kept),
                "{args:?}: {text}"
            );
        }
    }

    /// An escape sequence typed into an argument is shown escaped, as in every error line.
    #[test]
    fn a_refused_command_line_escapes_control_characters() {
        // A bell and a right-to-left override (clap's plain rendering drops ANSI sequences
        // itself, not these).
        let e =
            Cli::try_parse_from(["toolwire", "probe", "--timeout", "1\u{7}\u{202e}x"]).unwrap_err();
        let text = render_refusal(&e);
        assert!(
            !text.contains('\u{202e}') && text.contains("1\\u{202e}x"),
            "{text}"
        );
    }

    #[test]
    fn project_paths_are_refused_where_no_command_reads_them() {
        use clap::Parser;
        let cli = Cli::try_parse_from(["toolwire", "check", "--reports", "r", "a.json"]).unwrap();
        let Command::Check(a) = cli.command else {
            panic!("parsed as check")
        };
        let e = a.no_project.refuse("check", "its files").unwrap_err();
        assert!(matches!(e, Error::Usage(_)));
        assert!(
            e.to_string()
                .starts_with("--reports does not apply to `toolwire check`"),
            "{e}"
        );
        let cli = Cli::try_parse_from(["toolwire", "check", "a.json"]).unwrap();
        let Command::Check(a) = cli.command else {
            panic!("parsed as check")
        };
        assert!(a.no_project.refuse("check", "its files").is_ok());
        // The commands that read them keep them as their own options.
        let cli =
            Cli::try_parse_from(["toolwire", "rules", "--cases", "c", "--reports", "r"]).unwrap();
        let Command::Rules(a) = cli.command else {
            panic!("parsed as rules")
        };
        assert_eq!(a.paths.reports_dir, PathBuf::from("r"));
        assert_eq!(a.paths.cases_dir, PathBuf::from("c"));
        let missing = Paths {
            cases_dir: "cases".into(),
            reports_dir: "tests/cli/no-such-reports".into(),
        };
        assert!(missing.require_reports().is_err());
    }

    #[test]
    fn an_empty_file_name_is_refused_in_words_about_it() {
        let e = file_path("".into()).unwrap_err();
        assert!(e.starts_with("the file name is empty"), "{e}");
        assert_eq!(file_path("-".into()).unwrap(), PathBuf::from("-"));
        assert_eq!(
            file_path(" a.json".into()).unwrap(),
            PathBuf::from(" a.json")
        );
        // Through clap, naming the argument, as a usage error (exit 2).
        let err = Cli::try_parse_from(["toolwire", "check", "a.json", ""]).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        let text = err.to_string();
        assert!(text.contains("invalid value '' for '<FILE>...'"), "{text}");
        assert!(text.contains("the file name is empty"), "{text}");
    }

    /// Numbers out of range were called no number (`-1`: "invalid digit found in string";
    /// past `u64`: "too large to fit in target type" or, for `--concurrency`, "expected a
    /// number"), naming no bound.
    #[test]
    fn a_whole_number_out_of_range_is_said_to_be_out_of_range() {
        use OutOfRange::*;
        let n = |t| whole_number(t, 1, 64);
        assert_eq!(n("64"), Ok(64));
        assert_eq!(n(" +1 "), Ok(1));
        assert_eq!(n("99999999999999999999"), Err(Above));
        assert_eq!(n("65"), Err(Above));
        assert_eq!(n("0"), Err(Below));
        assert_eq!(n("-0"), Err(Below));
        assert_eq!(n("-99999999999999999999"), Err(Below));
        assert_eq!(whole_number("-0", 0, 3), Ok(0));
        for not in ["", "-", "1.5", "ten", "1e3", "--1"] {
            assert_eq!(n(not), Err(NotANumber), "{not:?}");
        }
        let err = |args: &[&str]| Cli::try_parse_from(args).unwrap_err();
        let e = err(&["toolwire", "probe", "--retries", "99999999999999999999"]);
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("'--retries <N>': at most 10"), "{e}");
        let e = err(&["toolwire", "emulate", "--fault-every", "0"]);
        assert!(e.to_string().contains("expected at least 1"), "{e}");
        let e = err(&["toolwire", "emulate", "--slow-ms=-5"]);
        assert!(e.to_string().contains("expected at least 0"), "{e}");
    }

    #[test]
    fn standard_input_is_read_from_one_place_only() {
        let dash = OsStr::new("-");
        let file = OsStr::new("a.json");
        assert!(stdin_once([("FILE", dash), ("FILE", file), ("--profiles", file)]).is_ok());
        assert!(stdin_once([]).is_ok());
        let e = stdin_once([("FILE", dash), ("--profiles", dash)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "standard input (`-`) can be read only once, but it is given as FILE and --profiles"
        );
        assert!(matches!(e, Error::Usage(_)));
        let e = stdin_once([("FILE", dash), ("FILE", file), ("FILE", dash)]).unwrap_err();
        assert!(e.to_string().ends_with("given as FILE twice"), "{e}");
        assert_eq!(exit_code(&e), EXIT_BAD_INPUT);
    }
}
