//! `toolwire check FILE...`: findings for tool definitions against a profile or a target.
//!
//! Exit codes: 0 no findings, 1 findings, 2 bad input or usage.

use std::path::PathBuf;

use crate::check::{ReadingNote, Report};
use crate::cli::{EXIT_BAD_INPUT, EXIT_FINDINGS, EXIT_OK};
use crate::error::{Error, Result};
use crate::profile::{CompiledProfile, PORTABLE, ProfileSet};

/// How findings are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// Grouped by file and tool, then counts per rule.
    Human,
    /// One JSON document: profile, files, counts per rule, findings (a file read from
    /// standard input is `-`, as it was given; the other formats say `standard input`).
    Json,
    /// SARIF 2.1.0 (code scanning), each finding located at its line in the file.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…,line=…::…`): pull request annotations.
    Github,
    /// One self-contained HTML page (summary, counts per rule, findings by tool), e.g. a CI
    /// artifact.
    Html,
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub no_project: crate::cli::NoProject,
    /// Tool definition files: OpenAI, Anthropic, MCP tools/list, Gemini, Bedrock, function
    /// declarations, a bare JSON Schema, or JSON Lines of any of these (`-`: standard input).
    #[arg(required = true, value_name = "FILE", value_parser = crate::cli::file_arg())]
    pub files: Vec<PathBuf>,
    /// The profile to check against.
    #[arg(long, value_name = "NAME", default_value = PORTABLE, conflicts_with = "target")]
    pub profile: String,
    /// Check against one target's own profile (e.g. `openai/chat`).
    #[arg(long, value_name = "TARGET")]
    pub target: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    /// Say which input format was detected for each file (on standard error).
    #[arg(long)]
    pub show_format: bool,
    /// Treat all tools of all files as one request (for too-many-tools and name-duplicate);
    /// by default each file is one request and each JSON Lines line is its own. Tool numbers
    /// stay per file.
    #[arg(long)]
    pub one_request: bool,
    /// Report only errors (features a target has rejecting evidence for), not unknowns.
    #[arg(long)]
    pub errors_only: bool,
    /// Leave out the findings of these rules (ids as `toolwire rule` lists them, except
    /// `nesting-too-deep`, toolwire's own cap, which no command reads past;
    /// comma-separated or repeated, spaces around an id and empty items ignored): a decision
    /// to accept what they report. An ignored rule is not run, so it hides nothing another
    /// rule reports (a meta-schema error it would have covered is reported on its own).
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = trimmed)]
    pub ignore: Vec<String>,
    /// Read profiles from this file instead of the ones built into the binary.
    #[arg(long, value_name = "FILE", value_parser = crate::cli::file_arg())]
    pub profiles: Option<PathBuf>,
    /// Also write a markdown summary of the files under `portable` and each of its targets
    /// (how `reports/corpora.md` is made).
    #[arg(long, value_name = "FILE", value_parser = crate::cli::file_arg())]
    pub corpus_report: Option<PathBuf>,
}

/// `files` with each file once: findings name their file, so a file given twice (under the
/// same or another name for it) would list every finding twice. A repeat is said on standard
/// error.
fn distinct_files(files: &[PathBuf]) -> Vec<&PathBuf> {
    // Each file's identity once (a `stat` per file, not per pair).
    let mut seen: std::collections::HashSet<crate::cli::repair::FileId> =
        std::collections::HashSet::new();
    let mut out: Vec<&PathBuf> = Vec::with_capacity(files.len());
    for f in files {
        let again = match crate::cli::repair::file_id(f) {
            Some(id) => !seen.insert(id),
            // Not there (reported when read): only the same spelling is a repeat.
            None => out.contains(&f),
        };
        if again {
            crate::cli::say_error(&format!(
                "{} is given more than once: checked once",
                shown(f)
            ));
        } else {
            out.push(f);
        }
    }
    out
}

/// Picks the profile: `--target T` (a target's own), else `--profile NAME`, from the profiles
/// of `from`, the file given to `--profiles` (`None`: the ones built into the binary), which
/// its errors name.
pub fn select_from(
    set: &ProfileSet,
    from: Option<&std::path::Path>,
    profile: &str,
    target: Option<&str>,
) -> Result<CompiledProfile> {
    select_among(set, from, profile, target, |_| true)
}

/// [`select_from`] among the targets `takes` keeps (`compile` takes none of the engines, which
/// have no request): the error's list of known targets names those only. `from` is the file
/// given to `--profiles`, named by the errors only such a file can meet (trial 79 D5: "the
/// profiles read have no ..." named no file, where every other `--profiles` error does).
pub fn select_among(
    set: &ProfileSet,
    from: Option<&std::path::Path>,
    profile: &str,
    target: Option<&str>,
    takes: impl Fn(&str) -> bool,
) -> Result<CompiledProfile> {
    let name = target.unwrap_or(profile);
    // What holds the profiles, and its verbs: a file is one, the profiles read are several.
    let (read, has, holds) = match from {
        Some(f) => (
            format!("--profiles {}", crate::error::file_name(f)),
            "has",
            "holds",
        ),
        None => ("the profiles read".to_string(), "have", "hold"),
    };
    // `portable` is a profile over several targets, not a target.
    let is_candidate = |n: &str| target.is_none() || (n != PORTABLE && takes(n));
    match set.get(name).filter(|p| is_candidate(&p.name)) {
        Some(p) => Ok(CompiledProfile::new(p)),
        // Only a `--profiles` file can hold none: nothing to name, nor any name to fix.
        None if set.profiles.is_empty() => Err(Error::Usage(format!(
            "{read} {holds} no profile at all: give --profiles a file `toolwire rules` \
             wrote (reports/profile.json), or leave --profiles out for the built-in ones"
        ))),
        None => {
            let names: Vec<&str> = set
                .profiles
                .iter()
                .map(|p| p.name.as_str())
                .filter(|n| is_candidate(n))
                .collect();
            let what = if target.is_some() {
                "target"
            } else {
                "profile"
            };
            // Only a `--profiles` file can leave out a real target: calling it unknown would
            // send the user looking for a typo.
            let problem = if target.is_some() && crate::target::find(name).is_some() {
                format!("{read} {has} no profile for target {name:?}")
            } else if target.is_some() && name == PORTABLE {
                format!("{PORTABLE:?} is a profile over several targets, not a target")
            } else if target.is_none() && name == PORTABLE {
                // The default profile: a hand-written `--profiles` file may hold only the
                // targets it is for.
                format!(
                    "{read} {has} no {PORTABLE:?} profile (the default): name one with --profile NAME or --target T"
                )
            } else {
                match crate::error::did_you_mean(name, names.iter().copied()) {
                    Some(near) => format!("unknown {what} {name:?} (did you mean {near:?}?)"),
                    None => format!("unknown {what} {name:?}"),
                }
            };
            let known = if names.is_empty() {
                // Only a `--target` leaves profiles out of the list: those over several
                // targets; an empty list after `known:` would read as cut off.
                let held: Vec<&str> = set.profiles.iter().map(|p| p.name.as_str()).collect();
                // The file named once: its second mention is "it".
                let again = match from {
                    Some(_) if problem.starts_with(&read) => "it",
                    _ => &read,
                };
                format!(
                    "{again} {holds} no profile of a target this command takes, only \
                     {}: give --profiles a file that holds the target's profile",
                    held.join(", ")
                )
            } else {
                format!("known: {}", names.join(", "))
            };
            Err(Error::Usage(format!("{problem}; {known}")))
        }
    }
}

/// `label` names the format as [`crate::input::format_label`] does.
fn show_format(file: &std::path::Path, format: crate::input::Format, label: &str, tools: usize) {
    eprintln!(
        "{}: {label} ({}), {}",
        crate::cli::redacted(&crate::error::file_name(file)),
        format.describe(),
        crate::check::count(tools, "tool")
    );
}

/// What reading a file found that its findings do not say: only built-in tools
/// (`[{"type": "web_search"}]`: nothing to check; a file with no tool at all is an error,
/// [`crate::input::no_tools`]), JSON Lines lines with no tool, keys written twice, numbers
/// read as another value than written. Built once per file: every output format carries
/// this one list ([`crate::check::FileSummary::notes`], [`say_notes`]).
fn reading_notes(
    tools: usize,
    empty_lines: &[usize],
    duplicate_keys: &[crate::json::duplicates::DuplicateKey],
    inexact: &[crate::json::InexactNumberAt],
) -> Vec<ReadingNote> {
    let note = |line: Option<usize>, pointer: Option<&str>, text: String| ReadingNote {
        line,
        lines: Vec::new(),
        pointer: pointer.map(str::to_string),
        text,
        fails: false,
    };
    let mut notes: Vec<ReadingNote> = Vec::new();
    if tools == 0 {
        notes.push(note(
            None,
            None,
            "only built-in tools, which carry no schema: nothing to check".to_string(),
        ));
    }
    // A note about JSON Lines lines carries them: an annotation shows on each (trial 74 D2:
    // one about several lines was placed on none, and its text names only ten).
    notes.extend(empty_lines_note(empty_lines, "nothing there to check").map(
        |t| match empty_lines {
            [line] => note(Some(*line), None, t),
            many => ReadingNote {
                lines: many.to_vec(),
                ..note(None, None, t)
            },
        },
    ));
    notes.extend(
        duplicate_keys
            .iter()
            .zip(duplicate_key_notes(duplicate_keys, "checked"))
            .map(|(d, t)| note(d.line, Some(&d.pointer), t)),
    );
    for n in inexact {
        let at = match n.line {
            Some(line) => format!("line {line}, at {}", n.pointer),
            None => format!("at {}", n.pointer),
        };
        notes.push(note(
            n.line,
            Some(&n.pointer),
            format!(
                "{at}: {} and checked so; `repair` and `compile` refuse to write it rounded, so no \
             finding of this {} is marked repairable ({})",
                crate::json::read_as_said(&n.written, &n.read_as),
                if n.line.is_some() { "line" } else { "document" },
                crate::json::EXACT_NUMBERS
            ),
        ));
    }
    notes
}

/// Says `notes` on `file` as it is read: on standard error, except under `--format github`,
/// where each is a `::notice` among the findings ([`crate::report::github::reading_note`]):
/// standard error then carries only errors, which the check action annotates as errors. The
/// other machine formats carry them in the report ([`crate::check::FileSummary::notes`]).
fn say_notes(file: &std::path::Path, format: OutputFormat, notes: &[ReadingNote]) -> Result<()> {
    if format == OutputFormat::Github {
        let file = file.display().to_string();
        // Placed as SARIF places them (before: the line of a JSON Lines file only).
        let sites = crate::report::sarif::note_sites(&file, notes);
        for (n, sites) in notes.iter().zip(sites) {
            for site in sites {
                emit(&format!(
                    "{}\n",
                    crate::report::github::reading_note(&file, site, &n.text, n.fails)
                ))?;
            }
        }
    } else {
        // Named as errors name it, so that every line about one input reads alike.
        let file = crate::error::file_name(file);
        for n in notes {
            crate::cli::say_error(&format!("{file}: {}", n.text));
        }
    }
    Ok(())
}

/// What commands say of each object key written twice: only the last value was `done`
/// (checked, repaired), and a provider may read the other or refuse the request. Control
/// characters in keys are escaped ([`crate::report::escape_inline`]).
pub(crate) fn duplicate_key_notes(
    keys: &[crate::json::duplicates::DuplicateKey],
    done: &str,
) -> Vec<String> {
    keys.iter()
        .map(|d| {
            let at = match (d.line, d.pointer.is_empty()) {
                (Some(n), true) => format!("line {n}, at the document root"),
                (Some(n), false) => format!("line {n}, at {}", d.pointer),
                (None, true) => "at the document root".to_string(),
                (None, false) => format!("at {}", d.pointer),
            };
            let text = format!(
                "{at}: the key `{}` is written more than once; only its last value was {done} \
                 (most JSON parsers keep the last, but a provider's may keep the first or \
                 refuse the request): write it once",
                d.key
            );
            crate::report::escape_inline(&text).into_owned()
        })
        .collect()
}

/// What commands say of JSON Lines lines that hold no tool (`[]`, `{"tools": []}`): passed
/// over, so said rather than passed in silence; `then` says what the command did with them.
/// `None` when there are none.
pub(crate) fn empty_lines_note(lines: &[usize], then: &str) -> Option<String> {
    let verb = if lines.len() == 1 { "holds" } else { "hold" };
    which_lines(lines).map(|which| format!("{which} {verb} no tools (an empty tool list): {then}"))
}

/// JSON Lines lines as a note names them: `line 3`, or `lines 1, 3` (the first ten, then how
/// many more); `None` for none.
pub(crate) fn which_lines(lines: &[usize]) -> Option<String> {
    const SHOWN: usize = 10;
    match lines {
        [] => None,
        [one] => Some(format!("line {one}")),
        many => {
            let mut list: Vec<String> = many.iter().take(SHOWN).map(usize::to_string).collect();
            if many.len() > SHOWN {
                list.push(format!("and {} more", many.len() - SHOWN));
            }
            Some(format!("lines {}", list.join(", ")))
        }
    }
}

/// A path as output for people shows it ([`crate::report::escape_inline`]).
fn shown(file: &std::path::Path) -> String {
    crate::report::escape_inline(&file.display().to_string()).into_owned()
}

/// Writes the report to standard output; a reader that went away (`| head`) is not an error.
fn emit(text: &str) -> Result<()> {
    emit_with(|out| out.write_all(text.as_bytes()))
}

/// Runs `write` on standard output, flushed; a reader that went away (a closed pipe) is no
/// error.
fn emit_with(write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Error::Other(format!("writing standard output: {e}")))
        }
        _ => Ok(()),
    }
}

pub fn run(mut args: CheckArgs) -> Result<u8> {
    args.no_project.refuse(
        "check",
        "the files it is given and the profiles built into the binary (or `--profiles FILE`)",
    )?;
    crate::cli::stdin_once(
        args.files
            .iter()
            .map(|f| ("FILE", f.as_os_str()))
            .chain(args.profiles.iter().map(|p| ("--profiles", p.as_os_str()))),
    )?;
    if args.corpus_report.as_deref() == Some(std::path::Path::new("-")) {
        // Standard output carries the findings; a file named `-` is never what was meant.
        return Err(Error::Usage(
            "--corpus-report -: the findings are written to standard output; give the report \
             a file path"
                .into(),
        ));
    }
    if args.one_request
        && let Some(out) = &args.corpus_report
    {
        // The report's tables are per file, each request as written: counted under one
        // request, its findings would disagree with its own header, and cross-file findings
        // belong to no file's table (trial 69 D1: the report ignored the flag silently).
        return Err(Error::Usage(format!(
            "--corpus-report {} does not take --one-request: the report counts each file's \
             requests as written (each JSON Lines line its own); run the two apart",
            out.display()
        )));
    }
    if let Some(out) = args.corpus_report.as_deref().filter(|o| o.is_dir()) {
        // Said before any file is read, in the words `repair -o` uses.
        return Err(Error::io(
            out,
            std::io::Error::other("the output is a folder; give the name of a file to write"),
        ));
    }
    if let Some(out) = &args.corpus_report
        && let Some(input) = args
            .files
            .iter()
            .chain(&args.profiles)
            .find(|f| crate::cli::repair::same_file(out, f))
    {
        // As compile refuses `-o` naming its input: the markdown would replace what was read.
        return Err(Error::Usage(format!(
            "--corpus-report {} is the input {}: the report would overwrite it; write it \
             elsewhere",
            out.display(),
            input.display()
        )));
    }
    // `--ignore 'a, b,'`: the items as trimmed, less the empty ones.
    args.ignore.retain(|id| !id.is_empty());
    if let Some(unknown) = args
        .ignore
        .iter()
        .find(|id| crate::profile::rules::find(id).is_none())
    {
        return Err(Error::Usage(format!(
            "--ignore {unknown:?}: no such rule (`toolwire rule` lists them)"
        )));
    }
    let nesting = crate::profile::rules::nesting_too_deep::RULE.id;
    if args.ignore.iter().any(|id| id == nesting) {
        return Err(Error::Usage(format!(
            "--ignore {nesting}: toolwire's own nesting cap cannot be ignored (a file nested \
             past it is bad input, which no command reads)"
        )));
    }
    let set = crate::cli::repair::profiles(args.profiles.as_ref())?;
    let mut profile = select_from(
        &set,
        args.profiles.as_deref(),
        &args.profile,
        args.target.as_deref(),
    )?;
    // An ignored rule is not run, so that it cannot hide what another rule would say at the
    // same place (a meta-schema error it would have settled); `Report::ignore` below still
    // records which rules were ignored.
    profile.turn_off(&args.ignore);
    let files = distinct_files(&args.files);
    // A bad file is reported and skipped, so that the other files still get their findings;
    // the run then ends with exit 2, and the machine formats list it among the files.
    let mut unread: Vec<crate::report::Unreadable> = Vec::new();
    let mut record = |mut u: crate::report::Unreadable| {
        // Redacted where it is kept, so that the machine formats carry it redacted too.
        u.error = crate::cli::redacted(&u.error);
        crate::cli::say_error(&u.error);
        unread.push(u);
    };
    // Any other error stops the command.
    let unreadable = |file: &std::path::Path, read: usize, e: Error| {
        crate::report::Unreadable::new(file, read, &e).ok_or(e)
    };
    let mut report = if args.one_request || args.corpus_report.is_some() {
        // These need every tool of a file at once.
        let mut sets = Vec::with_capacity(files.len());
        let mut notes_of_files: Vec<(Vec<ReadingNote>, usize)> = Vec::with_capacity(files.len());
        for file in &files {
            let read = crate::input::read_file(file)
                .and_then(|t| crate::input::require_tools(&t).map(|()| t));
            let tools = match read {
                Ok(t) => t,
                Err(e) => {
                    record(unreadable(file, sets.len(), e)?);
                    continue;
                }
            };
            if args.show_format {
                show_format(file, tools.format, &tools.format_label(), tools.tools.len());
            }
            let mut notes = reading_notes(
                tools.tools.len(),
                &tools.empty_lines,
                &tools.duplicate_keys,
                &tools.inexact_numbers,
            );
            let jsonl = tools.format == crate::input::Format::JsonLines;
            let mut unsent = 0;
            for b in tools.builtins.chunk_by(|a, b| a.request == b.request) {
                let request = b[0].request;
                let line = jsonl.then_some(request);
                if args.one_request {
                    // What the one request sends is known once every file is read (below).
                    crate::check::not_taken_notes(&profile.targets, line, b, &mut notes);
                    continue;
                }
                let functions = tools.tools.iter().filter(|t| t.request == request).count();
                if crate::check::builtin_notes(&profile.targets, line, functions, b, &mut notes) {
                    unsent += 1;
                }
            }
            notes_of_files.push((notes, unsent));
            sets.push(tools);
        }
        if args.one_request
            && let Some(last) = sets.iter().rposition(|s| !s.builtins.is_empty())
        {
            // The files' tools are one request: it sends nothing to a target only when no
            // file has a function tool and none of their built-ins is one the target takes.
            let functions: usize = sets.iter().map(|s| s.tools.len()).sum();
            let builtins = || sets.iter().flat_map(|s| &s.builtins);
            let sends = |t: &str| functions > 0 || builtins().any(|b| crate::check::takes(t, b));
            let (notes, unsent) = &mut notes_of_files[last];
            if crate::check::unsent_notes(&profile.targets, None, sends, notes) {
                *unsent += 1;
            }
        }
        for (set, (notes, _)) in sets.iter().zip(&notes_of_files) {
            say_notes(&set.file, args.format, notes)?;
        }
        if let Some(out) = &args.corpus_report {
            if unread.is_empty() {
                let md = crate::check::corpus_markdown(
                    &sets,
                    &set,
                    args.profiles.as_deref(),
                    &args.ignore,
                );
                // A run killed mid-write, or two runs at once, leave the old report or a
                // whole new one, never a torn or emptied one (trial 74 D1).
                crate::cli::repair::write_atomically(out, &md)?;
            } else {
                // Counts over the files read would read as the whole corpus (a committed
                // reports/corpora.md shrunk by one mistyped path), so the old file is kept.
                crate::cli::say_error(&format!(
                    "--corpus-report {}: not written: {} of {} inputs could not be read (above); \
                     a report of the others would read as the whole corpus",
                    shown(out),
                    unread.len(),
                    files.len()
                ));
            }
        }
        let mut report = if args.one_request {
            Report::one_request(&sets, &profile)
        } else {
            Report::new(&sets, &profile)
        };
        // One summary per set, in the same order.
        for (summary, (notes, unsent)) in report.files.iter_mut().zip(notes_of_files) {
            summary.notes = notes;
            summary.unsent = unsent;
        }
        report
    } else {
        let mut checked = Vec::with_capacity(files.len());
        for file in &files {
            // A JSON Lines line that cannot be read is bad input of its own, and the file's
            // other lines are still checked.
            let mut bad_lines = Vec::new();
            let checked_file =
                crate::json::read_capped(file, crate::input::LIMITS).and_then(|bytes| {
                    let result =
                        crate::check::check_bytes_with(file, &bytes, &profile, &mut |e| {
                            bad_lines.push(e)
                        })?;
                    let lines =
                        crate::report::Unreadable::lines(file, checked.len(), &bad_lines, &bytes);
                    Ok((result, lines))
                });
            let ((mut summary, findings), lines) = match checked_file {
                Ok(c) => c,
                Err(e) => {
                    record(unreadable(file, checked.len(), e)?);
                    continue;
                }
            };
            lines.into_iter().for_each(&mut record);
            if args.show_format
                && let Some(format) = summary.detected
            {
                show_format(file, format, &summary.format, summary.tools);
            }
            // Those of reading first, then what the targets do with the built-in tools
            // ([`crate::check::builtin_notes`], made by `check_bytes`).
            let mut notes = reading_notes(
                summary.tools,
                &summary.empty_lines,
                &summary.duplicate_keys,
                &summary.inexact_numbers,
            );
            notes.append(&mut summary.notes);
            summary.notes = notes;
            say_notes(file, args.format, &summary.notes)?;
            checked.push((summary, findings));
        }
        Report::from_checked(&profile, checked)
    };
    if !args.ignore.is_empty() {
        report.ignore(&args.ignore);
    }
    if args.errors_only {
        report.errors_only();
    }
    let bad_input = !unread.is_empty();
    if bad_input && report.files.is_empty() && args.format == OutputFormat::Human {
        // No file could be read: the errors on standard error are the whole answer. The
        // other formats still write theirs, which record the files not read.
        return Ok(EXIT_BAD_INPUT);
    }
    match args.format {
        OutputFormat::Human => emit(&crate::report::escape_output(&report.human()))?,
        // Streamed: their text is several times the size of the findings.
        OutputFormat::Json => {
            emit_with(|out| crate::report::json::write(out, &report, &unread))?;
        }
        OutputFormat::Sarif => {
            let sites = crate::report::sarif::file_sites(&report.findings);
            let rule_text = |id: &str| {
                crate::profile::rules::find(id).map(|r| crate::cli::rules::sarif_help(r, &set))
            };
            emit_with(|out| {
                crate::report::sarif::write(
                    out,
                    &report.findings,
                    &unread,
                    &report.files,
                    &report.closing_notes(),
                    sites,
                    rule_text,
                )
            })?;
        }
        OutputFormat::Github => {
            let sites = crate::report::sarif::file_sites(&report.findings);
            // The workflow commands escape what they carry (see `report::github`).
            let mut text = String::new();
            for u in &unread {
                text.push_str(&crate::report::github::unreadable(u));
                text.push('\n');
            }
            text.push_str(&crate::report::github::render(&report.findings, sites));
            for note in report.closing_notes() {
                text.push_str(&crate::report::github::closing_note(&note));
                text.push('\n');
            }
            emit(&text)?;
        }
        OutputFormat::Html => emit(&crate::report::html::render(&report, &unread))?,
    }
    Ok(if bad_input {
        EXIT_BAD_INPUT
    } else if report.findings.is_empty() && report.files.iter().all(|f| f.unsent == 0) {
        // A request with no tool a target takes sends nothing: compile exits 1 on it.
        EXIT_OK
    } else {
        EXIT_FINDINGS
    })
}

/// An `--ignore` item with the whitespace around it removed (`'a, b'` is `a` and `b`); an
/// empty item is kept here and dropped before use, as clap would refuse an empty value.
fn trimmed(item: &str) -> std::result::Result<String, std::convert::Infallible> {
    Ok(item.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::{PORTABLE, empty_lines_note};

    /// A `--profiles` file without a target's profile was reported as if the target did not
    /// exist.
    #[test]
    fn a_real_target_missing_from_the_profiles_is_not_called_unknown() {
        let mut set = crate::profile::embedded_set().unwrap().clone();
        set.profiles.retain(|p| p.name != "openai/chat-strict");
        let err = |t| {
            super::select_from(&set, None, "", Some(t))
                .err()
                .unwrap()
                .to_string()
        };
        let missing = err("openai/chat-strict");
        assert!(
            missing.contains("no profile for target \"openai/chat-strict\""),
            "{missing}"
        );
        assert!(!missing.contains("unknown"), "{missing}");
        let typo = err("openai/chat-strikt");
        let slip = err("anthropic/mesages");
        assert!(
            slip.contains(
                "unknown target \"anthropic/mesages\" (did you mean \"anthropic/messages\"?)"
            ),
            "{slip}"
        );
        assert!(
            err(PORTABLE).starts_with("\"portable\" is a profile over several targets"),
            "{}",
            err(PORTABLE)
        );
        // compile takes no engine: left out of the known targets.
        let no_engine = |t: &str| !crate::target::is_engine(t);
        let known = super::select_among(&set, None, "", Some("nowhere/chat"), no_engine)
            .err()
            .unwrap()
            .to_string();
        assert!(
            !known.contains("engine/") && known.contains("openai/chat"),
            "{known}"
        );
        // A file of one target's profile is read; only the default then asks for `portable`.
        set.profiles.retain(|p| p.name == "openai/chat");
        assert!(super::select_from(&set, None, PORTABLE, Some("openai/chat")).is_ok());
        let default = super::select_from(&set, None, PORTABLE, None)
            .err()
            .unwrap()
            .to_string();
        assert!(
            default.contains("no \"portable\" profile (the default)")
                && default.contains("known: openai/chat"),
            "{default}"
        );
        // Its profile is not in the set: no target read is near it.
        assert!(
            typo.contains("unknown target \"openai/chat-strikt\"; known:"),
            "{typo}"
        );
    }

    /// A `--profiles` file with no profile (or none for a target) ended its error with
    /// `known: ` and nothing after it.
    #[test]
    fn profiles_that_offer_nothing_say_so_not_an_empty_list() {
        let mut set = crate::profile::embedded_set().unwrap().clone();
        set.profiles.retain(|p| p.name == PORTABLE);
        let err = |set: &crate::profile::ProfileSet, profile, target| {
            super::select_from(set, None, profile, target)
                .err()
                .unwrap()
                .to_string()
        };
        let no_target = err(&set, PORTABLE, Some("openai/chat"));
        assert!(
            no_target.ends_with(
                "hold no profile of a target this command takes, only portable: give \
                 --profiles a file that holds the target's profile"
            ),
            "{no_target}"
        );
        assert!(err(&set, "mine", None).ends_with("known: portable"));
        set.profiles.clear();
        for e in [
            err(&set, PORTABLE, None),
            err(&set, PORTABLE, Some("openai/chat")),
        ] {
            assert!(
                e.starts_with("the profiles read hold no profile at all: give --profiles"),
                "{e}"
            );
            assert!(!e.contains("known"), "{e}");
        }
    }

    /// The errors only a `--profiles` file meets name it, as its other errors do (trial 79
    /// D5: "the profiles read have no \"portable\" profile" and "... hold no profile at all"
    /// left the user to guess which file).
    #[test]
    fn errors_of_a_profiles_file_name_it() {
        let file = std::path::Path::new("mine/prof.json");
        let mut set = crate::profile::embedded_set().unwrap().clone();
        let err = |set: &crate::profile::ProfileSet, profile, target| {
            super::select_from(set, Some(file), profile, target)
                .err()
                .unwrap()
                .to_string()
        };
        set.profiles.retain(|p| p.name == "openai/chat");
        let default = err(&set, PORTABLE, None);
        assert!(
            default.starts_with(
                "--profiles mine/prof.json has no \"portable\" profile (the default): name one"
            ),
            "{default}"
        );
        let target = err(&set, PORTABLE, Some("anthropic/messages"));
        assert!(
            target.starts_with(
                "--profiles mine/prof.json has no profile for target \"anthropic/messages\""
            ),
            "{target}"
        );
        let mut set = crate::profile::embedded_set().unwrap().clone();
        set.profiles.retain(|p| p.name == PORTABLE);
        let only_portable = err(&set, PORTABLE, Some("openai/chat"));
        assert!(
            only_portable
                .starts_with("--profiles mine/prof.json has no profile for target \"openai/chat\"; it holds no profile of a target this command"),
            "{only_portable}"
        );
        set.profiles.clear();
        let none = err(&set, PORTABLE, None);
        assert!(
            none.starts_with("--profiles mine/prof.json holds no profile at all: give --profiles"),
            "{none}"
        );
    }

    #[test]
    fn empty_lines_are_listed_up_to_ten() {
        assert_eq!(empty_lines_note(&[], "x"), None);
        assert_eq!(
            empty_lines_note(&[4], "x").unwrap(),
            "line 4 holds no tools (an empty tool list): x"
        );
        let many: Vec<usize> = (1..=12).collect();
        assert_eq!(
            empty_lines_note(&many, "x").unwrap(),
            "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, and 2 more hold no tools (an empty tool list): x"
        );
    }
}
