//! `toolwire repair FILE [--profile P | --target T]`: rewrite tool definitions so that the
//! profile accepts them, reporting every repair, every loss and every refusal.
//!
//! The repaired tools go to standard output (or `--output FILE`) in the input's own envelope
//! ([`crate::repair::envelope`]): OpenAI tools in, OpenAI tools out, with every other field
//! kept; JSON Lines stay JSON Lines; a bare schema stays a bare schema. What repair did not
//! change keeps its bytes, and what it changed keeps the input's layout ([`layout`]). A
//! request's references to a renamed tool follow the rename; one to a tool left out is
//! reported and left as written ([`tool_choice`]). A JSON Lines line that is one tool (or a
//! bare schema) whose tool is refused is written as an empty tool list, `[]`,
//! so that output line N is always input line N's request; the report names those lines.
//! The report goes to
//! standard error (to standard output when `--output` is given). When every tool is
//! refused (and not kept) nothing is written, not even `[]`, and the report says so: `--output`
//! may name the input itself. An `--output` file is replaced whole or not at all
//! (`write_atomically`). A key written twice keeps its last value where repair rewrites the
//! document; another value it drops that differs is reported as a loss
//! ([`repair::duplicates`]). Exit 0 when every tool is clean or repaired, 1 when a tool was
//! refused, 2 on bad input.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::cli::{EXIT_FINDINGS, EXIT_OK};
use crate::error::{Error, Result};
use crate::input::{Format, ToolSet};
use crate::profile::{PORTABLE, ProfileSet};
use crate::repair::envelope::{self, Placed};
use crate::repair::{self, Options, Outcome, Tool, ToolRepair, layout, tool_choice};

#[derive(Debug, clap::Args)]
pub struct RepairArgs {
    #[command(flatten)]
    pub no_project: crate::cli::NoProject,
    /// The tool definitions (any format `check` reads; `-`: standard input).
    #[arg(value_name = "FILE", value_parser = crate::cli::file_arg())]
    pub file: PathBuf,
    /// The profile to repair for.
    #[arg(long, value_name = "NAME", default_value = PORTABLE, conflicts_with = "target")]
    pub profile: String,
    /// Repair for one target's own profile (e.g. `gemini/v1beta/parameters`).
    #[arg(long, value_name = "TARGET")]
    pub target: Option<String>,
    /// Keep tools that cannot be repaired, unchanged, in the output (they are left out by
    /// default, except when `-o` names the input: repairing a file in place keeps them).
    #[arg(long)]
    pub keep_unrepairable: bool,
    /// Write the repaired tools here instead of standard output.
    #[arg(long, short, value_name = "FILE", value_parser = crate::cli::file_arg())]
    pub output: Option<PathBuf>,
    /// Report format: `human` (changed and refused tools, then counts) or `json`.
    #[arg(long, default_value = "human", value_parser = ["human", "json"])]
    pub format: String,
    #[command(flatten)]
    pub rewrite: RewriteArgs,
}

/// The options `repair` and `compile` share.
#[derive(Debug, clap::Args)]
pub struct RewriteArgs {
    /// Read profiles from this file instead of the ones built into the binary.
    #[arg(long, value_name = "FILE", value_parser = crate::cli::file_arg())]
    pub profiles: Option<PathBuf>,
    /// Cap on the schema nodes that inlining `$ref`s may produce per tool (at most 100,000:
    /// `args` refuses a larger schema, and memory grows with the cap).
    #[arg(long, value_name = "N", default_value_t = repair::refs::MAX_INLINE_NODES,
          value_parser = crate::cli::whole_number_arg(0, repair::refs::MAX_INLINE_NODES_CEILING))]
    pub max_inline_nodes: usize,
}

impl RewriteArgs {
    /// Refuses `-` as both the tool `file` and `--profiles` (see [`crate::cli::stdin_once`]).
    pub fn stdin_once(&self, file: &Path) -> Result<()> {
        crate::cli::stdin_once(
            std::iter::once(("FILE", file.as_os_str()))
                .chain(self.profiles.iter().map(|p| ("--profiles", p.as_os_str()))),
        )
    }

    /// The repair options these flags give.
    pub fn options(&self) -> Options {
        Options {
            max_inline_nodes: self.max_inline_nodes,
            ..Options::default()
        }
    }
}

/// `opts` for the tools of one request, `request`, as the document holds them: how deep their
/// schemas sit, and the key their shape requires each schema under, if any.
fn request_options(request: &[crate::input::ToolEntry], opts: Options) -> Options {
    Options {
        envelope_depth: request
            .iter()
            .map(|e| e.schema_pointer.matches('/').count())
            .max()
            .unwrap_or(0),
        // A request's tools share one shape (the reader refuses a mixed list), so the first
        // whose shape is known names the key (a list of tools that all lack a schema is read
        // as bare functions, which need none).
        required_schema_key: request
            .iter()
            .find_map(crate::input::ToolEntry::required_schema_key),
        ..opts
    }
}

/// The profile set: `--profiles FILE` or the one built into the binary.
pub(crate) fn profiles(path: Option<&PathBuf>) -> Result<ProfileSet> {
    match path {
        Some(p) => ProfileSet::load(p),
        None => crate::profile::embedded(),
    }
}

pub fn run(args: RepairArgs) -> Result<u8> {
    args.no_project.refuse(
        "repair",
        "the files it is given and the profiles built into the binary (or `--profiles FILE`)",
    )?;
    args.rewrite.stdin_once(&args.file)?;
    let set = profiles(args.rewrite.profiles.as_ref())?;
    let profile = crate::cli::check::select_from(
        &set,
        args.rewrite.profiles.as_deref(),
        &args.profile,
        args.target.as_deref(),
    )?;
    let bytes = crate::json::read_capped(&args.file, crate::input::LIMITS)?;
    let mut tools = crate::input::from_bytes(&args.file, &bytes)?;
    // Nothing to repair is a wrong input, as for check (an empty list written back would
    // pass a pipeline that was handed the wrong file).
    crate::input::require_tools(&tools)?;
    // Repairing a file in place keeps the tools it refuses: leaving them out would delete
    // the user's own definitions from the file they asked to have repaired.
    let in_place = output_file(args.output.as_ref()).is_some_and(|out| same_file(out, &args.file));
    let keep_unrepairable = args.keep_unrepairable || in_place;
    let opts = Options {
        keep_unrepairable,
        ..args.rewrite.options()
    };
    let mut results: Vec<(usize, ToolRepair)> = Vec::new();
    // Each tool's schema is handed to repair, not copied (a schema may be megabytes): the
    // entries are read below only for their numbers and places, and the document is written
    // back from its own text.
    let mut schemas: Vec<Option<serde_json::Value>> = tools
        .tools
        .iter_mut()
        .map(|t| t.parameters.take())
        .collect();
    let mut unread = schemas.as_mut_slice();
    for request in tools.requests() {
        let (these, rest) = std::mem::take(&mut unread).split_at_mut(request.len());
        unread = rest;
        let opts = request_options(request, opts);
        let input: Vec<Tool> = request
            .iter()
            .zip(these)
            .map(|(entry, schema)| Tool {
                parameters: schema.take(),
                ..Tool::from(entry)
            })
            .collect();
        let first = tools.first_index(request[0].request);
        for (entry, mut r) in request
            .iter()
            .zip(repair::repair_request_owned(input, &profile, &opts))
        {
            r.index = entry.index;
            r.number = entry.index - first;
            r.line = entry.line;
            results.push((entry.request, r));
        }
    }
    // Every tool refused and left out: there is nothing to write, and a stand-in (`[]`, an
    // empty envelope) would be in another shape than the input, or overwrite it.
    let nothing_left = !keep_unrepairable
        && !results.is_empty()
        && results.iter().all(|(_, r)| r.outcome == Outcome::Refused);
    let (output, dangling, emptied, dropped_keys) = if nothing_left {
        (None, Vec::new(), Vec::new(), Vec::new())
    } else {
        let rendered = render_tools(&args.file, &bytes, &tools, &results, keep_unrepairable)?;
        for (i, change) in rendered.changes {
            let r = &mut results[i].1;
            r.changes.push(change);
            // Written other than it was (a key written twice kept once): no longer unchanged.
            if r.outcome == Outcome::Unchanged {
                r.outcome = Outcome::Repaired;
            }
        }
        (
            rendered.text,
            rendered.dangling,
            rendered.emptied,
            rendered.dropped_keys,
        )
    };
    let report = if args.format == "json" {
        let body: Vec<&ToolRepair> = results.iter().map(|(_, r)| r).collect();
        let mut report = json!({
            "file": args.file.display().to_string(),
            "profile": profile.name,
            "targets": profile.targets,
            "summary": repair::summary(body.iter().copied()),
            "written": output.is_some(),
            "tools": body,
        });
        // What no repair can change about a request (too many tools): human output says it
        // in a note, JSON in this list.
        let notes: Vec<String> = request_notes(&results, keep_unrepairable, &profile)
            .iter()
            .map(|n| n.trim_start_matches("note: ").trim_end().to_string())
            .collect();
        if !notes.is_empty() {
            report["request_notes"] = json!(notes);
        }
        if !tools.empty_lines.is_empty() {
            report["empty_lines"] = json!(tools.empty_lines);
        }
        // Lines that held tools and send none now (only when there are some).
        if !emptied.is_empty() {
            report["emptied_lines"] = emptied.iter().map(|e| e.line).collect();
        }
        if !tools.duplicate_keys.is_empty() {
            report["duplicate_keys"] = json!(tools.duplicate_keys);
        }
        // Keys of the request, outside every tool, whose other values are gone (a tool's
        // are among its changes).
        let request_losses: Vec<_> = dropped_keys
            .iter()
            .filter(|d| d.tool.is_none())
            .map(|d| {
                let mut entry = json!(d.at);
                entry["action"] = json!(d.change.action);
                entry["lost"] = json!(d.change.lost);
                entry
            })
            .collect();
        if !request_losses.is_empty() {
            report["request_losses"] = json!(request_losses);
        }
        // References to tools left out, left as written (only when there are some).
        if !dangling.is_empty() {
            report["dangling_references"] = dangling
                .iter()
                .map(|(line, d)| json!({"line": line, "pointer": d.pointer, "tool": d.tool}))
                .collect();
        }
        crate::report::to_json_pretty(&report)
    } else {
        let mut s = human_report(&results, &profile.name, keep_unrepairable);
        if output.is_none() {
            s.push_str(&nothing_written(output_file(args.output.as_ref())));
        }
        s
    };
    let mut report = report;
    if args.format != "json" {
        for note in request_notes(&results, keep_unrepairable, &profile) {
            report.push_str(&note);
        }
        for (line, d) in &dangling {
            report.push_str(&dangling_note(*line, d));
        }
        report.push_str(&emptied_note(&emptied));
        // Written back only when something is written at all.
        let then = if output.is_some() {
            "nothing there to repair; written back as it was"
        } else {
            "nothing there to repair"
        };
        if let Some(note) = crate::cli::check::empty_lines_note(&tools.empty_lines, then) {
            report.push_str(&format!("note: {note}\n"));
        }
        // A key whose values were dropped is said so, a tool's on its loss line.
        let noted: Vec<_> = tools
            .duplicate_keys
            .iter()
            .filter(|d| !dropped_keys.iter().any(|x| x.at == **d))
            .cloned()
            .collect();
        for d in dropped_keys.iter().filter(|d| d.tool.is_none()) {
            report.push_str(&request_loss_note(d));
        }
        for note in crate::cli::check::duplicate_key_notes(&noted, "read") {
            report.push_str(&format!("note: {note}\n"));
        }
    }
    let out_file = output_file(args.output.as_ref());
    let refused_count = results
        .iter()
        .filter(|(_, r)| r.outcome == Outcome::Refused)
        .count();
    // A hard link of the input is the input's file under another name, but the atomic write
    // replaces that name with a new file: the input's own name keeps the old text, and the
    // note says which file was written.
    let hard_link = out_file
        .filter(|out| in_place && output.is_some() && !same_path(out, &args.file))
        .map(|out| out.display().to_string());
    if args.format != "json" {
        let kept = (!args.keep_unrepairable && refused_count > 0)
            .then(|| crate::check::count(refused_count, "refused tool"));
        match (&hard_link, kept) {
            (None, Some(kept)) if in_place => report.push_str(&format!(
                "note: {kept} kept unchanged in {}, which was the input (as with \
                 `--keep-unrepairable`)\n",
                args.file.display()
            )),
            (Some(out), Some(kept)) => report.push_str(&format!(
                "note: {kept} kept unchanged in {out}, a hard link of the input {} (as with \
                 `--keep-unrepairable`); {out} was written as a new file, so {} is left as it \
                 was\n",
                args.file.display(),
                args.file.display()
            )),
            (Some(out), None) => report.push_str(&format!(
                "note: {out}, a hard link of the input {}, was written as a new file, so {} is \
                 left as it was\n",
                args.file.display(),
                args.file.display()
            )),
            _ => {}
        }
    }
    if args.format != "json" {
        // Tool names and pointers in it are the file's text (JSON is escaped by serde).
        report = crate::report::escape_output(&report).into_owned();
    }
    match (out_file, output) {
        (Some(path), Some(output)) => {
            write_atomically(path, &output)?;
            print!("{report}");
        }
        (Some(_), None) => print!("{report}"),
        (None, output) => {
            print!("{}", output.unwrap_or_default());
            eprint!("{report}");
        }
    }
    let refused = results.iter().any(|(_, r)| r.outcome == Outcome::Refused);
    Ok(if refused { EXIT_FINDINGS } else { EXIT_OK })
}

/// One line per finding about a request as a whole over the tools written
/// ([`repair::request_findings`]), e.g. too many tools: repair cannot change that.
fn request_notes(
    results: &[(usize, ToolRepair)],
    keep: bool,
    profile: &crate::profile::CompiledProfile,
) -> Vec<String> {
    let mut notes = Vec::new();
    for request in results.chunk_by(|a, b| a.0 == b.0) {
        let written: Vec<&Tool> = request
            .iter()
            .filter(|(_, r)| keep || r.outcome != Outcome::Refused)
            .map(|(_, r)| &r.tool)
            .collect();
        for f in repair::request_findings(&written, profile) {
            notes.push(format!(
                "note: {} ({}): repair cannot change this; {}\n",
                f.message, f.rule, f.fix
            ));
        }
    }
    notes
}

/// The report's line for a key of the request, outside every tool, whose other values the
/// rewrite dropped: a loss, though of no tool.
fn request_loss_note(d: &repair::duplicates::Dropped) -> String {
    let place = match (d.at.line, d.at.pointer.is_empty()) {
        (Some(n), true) => format!("line {n}, at the document root"),
        (Some(n), false) => format!("line {n}, at {}", d.at.pointer),
        (None, true) => "at the document root".to_string(),
        (None, false) => format!("at {}", d.at.pointer),
    };
    format!(
        "note: {place}, outside the tools: {}; {}\n",
        d.change.action,
        d.change.lost.as_deref().unwrap_or_default()
    )
}

/// The report's line for a reference to a tool left out: it is left as written, since any
/// other choice would be repair deciding what the request asks for.
fn dangling_note(line: Option<usize>, d: &tool_choice::Dangling) -> String {
    let place = match line {
        Some(n) => format!("line {n}, {}", d.pointer),
        None => d.pointer.clone(),
    };
    format!(
        "note: {place} names `{}`, which is left out; the reference is left as written\n",
        d.tool
    )
}

/// What a JSON Lines line whose document is its one tool (a tool object, a bare schema) is
/// written as when the tool is refused and left out: the request with no tools, an empty
/// tool list, which every command reads as a line that holds no tools. Leaving the line out
/// would move every later line up one (a runtime pairing output line N with input line N
/// would send another request's tools); a blank line is passed over by readers that count
/// only the lines with a request.
const EMPTY_LINE: &str = "[]";

/// The report's line for the JSON Lines lines whose every tool was refused and left out
/// (nothing for none): which lines, and what each is written as (an empty tool list, or its
/// request with one).
fn emptied_note(emptied: &[Emptied]) -> String {
    let lines: Vec<usize> = emptied.iter().map(|e| e.line).collect();
    let Some(which) = crate::cli::check::which_lines(&lines) else {
        return String::new();
    };
    let one = emptied.len() == 1;
    let held = match (emptied.iter().all(|e| e.tools == 1), one) {
        (true, true) => "held one tool, refused and left out",
        (true, false) => "held one tool each, refused and left out",
        (false, _) => "had every tool refused and left out",
    };
    let each = if one { "it is" } else { "each is" };
    let written = match (
        emptied.iter().all(|e| !e.request),
        emptied.iter().all(|e| e.request),
    ) {
        (true, _) => format!("an empty tool list (`{EMPTY_LINE}`)"),
        (_, true) => "its request with an empty tool list".to_string(),
        _ => format!("an empty tool list (`{EMPTY_LINE}`, or inside its request)"),
    };
    format!(
        "note: {which} {held}: {each} written as {written}, so that output line N stays input \
         line N's\n"
    )
}

/// `-o`'s file: `None` for standard output (no `-o`, or `-o -`).
pub(crate) fn output_file(output: Option<&PathBuf>) -> Option<&Path> {
    output
        .map(PathBuf::as_path)
        .filter(|p| *p != Path::new("-"))
}

/// What names one existing file whichever path reaches it (links, relative paths).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum FileId {
    /// A regular file's device and inode: one file under two names (a hard link) has one.
    Inode(u64, u64),
    /// Anything else by its canonical path (a terminal read as /dev/stdin and written as
    /// /dev/stdout is one device, but not one file).
    Path(PathBuf),
}

/// The [`FileId`] of `p`, or `None` when it does not exist (or cannot be reached).
pub(crate) fn file_id(p: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(m) = std::fs::metadata(p)
            && m.is_file()
        {
            return Some(FileId::Inode(m.dev(), m.ino()));
        }
    }
    std::fs::canonicalize(p).ok().map(FileId::Path)
}

/// Whether `a` and `b` name the same existing file (through links and relative paths).
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    matches!((file_id(a), file_id(b)), (Some(x), Some(y)) if x == y)
}

/// Whether `a` and `b` are one path once links to folders and files are followed (a symbolic
/// link to the input is the input's path; a hard link is a name of its own).
fn same_path(a: &Path, b: &Path) -> bool {
    matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
}

/// What became of the output file `path` when nothing was written to it: an existing file
/// "is left as it was"; a path to nothing "was not created" (`repair` and `compile`).
pub(crate) fn left_as_it_was(path: &Path) -> String {
    if std::fs::symlink_metadata(path).is_ok() {
        format!("{} is left as it was", path.display())
    } else {
        format!("{} was not created", path.display())
    }
}

/// The report's line when no tool is left to write.
fn nothing_written(output: Option<&Path>) -> String {
    let place = match output {
        Some(p) => left_as_it_was(p),
        None => "standard output is left empty".into(),
    };
    format!(
        "nothing written: every tool was refused ({place}; `--keep-unrepairable` keeps them unchanged)\n"
    )
}

/// Writes `contents` to `path` through a temporary file in the same directory renamed over
/// it (the `tempfile` crate), so that `path` is either its old self or the whole new text,
/// never a torn or truncated file (the input itself may be the output). The file keeps an
/// existing file's permissions; a new one gets the usual ones (0666 less the umask on Unix).
///
/// Errors: [`Error::Io`] naming `path` when the directory is not writable or the rename
/// fails; the temporary file is removed then.
pub(crate) fn write_atomically(path: &Path, contents: &str) -> Result<()> {
    use std::io::Write;
    // A symbolic link stays a link: the file it points to is replaced.
    let resolved = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(p) => p,
            // A link to a file not made yet: the file it names.
            Err(_) => {
                let target = std::fs::read_link(path).map_err(|e| Error::io(path, e))?;
                path.parent().unwrap_or(Path::new(".")).join(target)
            }
        },
        _ => path.to_path_buf(),
    };
    let path = resolved.as_path();
    if path.is_dir() {
        return Err(Error::io(
            path,
            std::io::Error::other("the output is a folder; give the name of a file to write"),
        ));
    }
    // A device or a pipe (`/dev/stdout`, a FIFO) is written to, never replaced by a file.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut f| f.write_all(contents.as_bytes()))
            .map_err(|e| Error::io(path, e));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let existing = std::fs::metadata(path).ok().map(|m| m.permissions());
    let mut builder = tempfile::Builder::new();
    // A new file gets the usual mode (0666 less the umask), not a temporary file's 0600.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    // tempfile's error names its temporary file; the user named `path`.
    let mut file = builder
        .tempfile_in(dir)
        .map_err(|e| Error::io(path, temp_file_error(dir, &e)))?;
    file.write_all(contents.as_bytes())
        .and_then(|()| match existing {
            Some(p) => file.as_file().set_permissions(p),
            None => Ok(()),
        })
        .and_then(|()| file.as_file().sync_all())
        .map_err(|e| Error::io(path, e))?;
    file.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// Why no temporary file could be made in `dir`, in words about `dir` (tempfile's own error
/// names the temporary file, which the user never named): "does not exist" only when the
/// folder is not there; otherwise the OS's error, since a folder that is there may still
/// refuse a new file (`/proc`, a read-only mount, no permission).
fn temp_file_error(dir: &Path, e: &std::io::Error) -> std::io::Error {
    // tempfile's error reads "<the OS error> at path \"<its file>\"" and hides the OS error
    // itself (its `source` skips it): the words before " at path " are the OS's.
    let os = match e.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code).to_string(),
        None => {
            let text = e.to_string();
            match text.split_once(" at path ") {
                Some((os, _)) => os.to_string(),
                None => text,
            }
        }
    };
    let text = match std::fs::metadata(dir) {
        Err(_) => format!("the folder {} does not exist", dir.display()),
        Ok(m) if !m.is_dir() => format!("{} is not a folder", dir.display()),
        Ok(_) => format!("cannot create a file in the folder {}: {os}", dir.display()),
    };
    std::io::Error::new(e.kind(), text)
}

/// A JSON Lines line that held tools and sends none now: every one was refused and left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Emptied {
    /// The line's number, from 1.
    line: usize,
    /// How many tools it held.
    tools: usize,
    /// Written as its request with an empty tool list (`{"tools":[]}`), not as
    /// [`EMPTY_LINE`] (a bare tool, or a tool list).
    request: bool,
}

/// What [`render_tools`] wrote and found.
struct Rendered {
    /// The output text; `None` when the document itself is left out (its only tool was
    /// refused).
    text: Option<String>,
    /// References to renamed tools rewritten ([`tool_choice::follow_renames`]): the index in
    /// `results` of the tool each one names, and the change.
    changes: Vec<(usize, repair::Change)>,
    /// References to tools left out, each with its JSON Lines line (`None`: the document).
    dangling: Vec<(Option<usize>, tool_choice::Dangling)>,
    /// The JSON Lines lines whose every tool was left out, in line order.
    emptied: Vec<Emptied>,
    /// Keys written twice whose other values the output dropped, each with its JSON Lines
    /// line ([`repair::duplicates::losses`]): a tool's are loss lines of that tool (in
    /// `changes` too), the request's are said on their own.
    dropped_keys: Vec<repair::duplicates::Dropped>,
}

/// The repaired tools written back into the input document(s) (see the module
/// documentation), with the references to renamed tools following them, in the input's own
/// layout ([`repair::layout`]): a document or JSON Lines line repair did not change is
/// written as it was read, blank lines and line endings included.
fn render_tools(
    file: &Path,
    bytes: &[u8],
    set: &ToolSet,
    results: &[(usize, ToolRepair)],
    keep: bool,
) -> Result<Rendered> {
    let text = crate::json::check_utf8(file, bytes)?;
    let bom = if bytes.starts_with(crate::json::BOM.as_bytes()) {
        crate::json::BOM
    } else {
        ""
    };
    // The reader keeps tools in file order, one result per tool.
    let placed: Vec<(Option<usize>, Placed<'_>)> = set
        .tools
        .iter()
        .zip(results)
        .map(|(entry, (_, r))| {
            (
                entry.line,
                Placed {
                    schema_pointer: &entry.schema_pointer,
                    repair: r,
                },
            )
        })
        .collect();
    let mut rendered = Rendered {
        text: None,
        changes: Vec::new(),
        dangling: Vec::new(),
        emptied: Vec::new(),
        dropped_keys: Vec::new(),
    };
    // One document (or line) written back: its text, or `None` when it is left out.
    let mut one = |source: &str, line: Option<usize>, first: usize, tools: &[Placed<'_>]| {
        let offset = line.map_or(0, |n| n - 1);
        let original = crate::json::parse_str(file, source, crate::input::LIMITS, offset)?;
        let Some(mut doc) = envelope::write_back(original.clone(), tools, keep) else {
            return Ok(None);
        };
        let followed = tool_choice::follow_renames(&mut doc, tools, keep);
        rendered
            .changes
            .extend(followed.changes.into_iter().map(|(i, c)| (first + i, c)));
        rendered
            .dangling
            .extend(followed.dangling.into_iter().map(|d| (line, d)));
        // A changed document is written from its value, every number of it included.
        if original != doc {
            crate::json::refuse_inexact(file, line, source, &[""], "repair")?;
        }
        if original == doc {
            return Ok::<_, Error>(Some(source.to_string()));
        }
        // Numbers repair left alone are written as the user wrote them (`-0`, `1e2`).
        let written = match line {
            None => layout::document(source, &original, &doc),
            Some(_) => doc.to_string(),
        };
        let written = crate::json::Spellings::of(source).respell(&written);
        if set.duplicate_keys.iter().any(|d| d.line == line) {
            let entries = &set.tools[first..first + tools.len()];
            for mut d in repair::duplicates::losses(source, &written, entries, tools, keep) {
                d.at.line = line;
                if let Some(i) = d.tool {
                    rendered.changes.push((first + i, d.change.clone()));
                }
                rendered.dropped_keys.push(d);
            }
        }
        Ok(Some(written))
    };
    if set.format != Format::JsonLines {
        let tools: Vec<Placed<'_>> = placed.iter().map(|(_, p)| *p).collect();
        let text = one(text, None, 0, &tools)?;
        rendered.text = text.map(|t| format!("{bom}{t}"));
        return Ok(rendered);
    }
    let mut out = String::from(bom);
    let mut emptied = Vec::new();
    let mut rest = placed.as_slice();
    let mut first = 0;
    for (i, piece) in text.split_inclusive('\n').enumerate() {
        let ending = layout::ending_of_line(piece);
        let line = &piece[..piece.len() - ending.len()];
        if line.trim().is_empty() {
            out.push_str(piece);
            continue;
        }
        // Tools come in line order: this line's are the next ones.
        let n = rest.iter().take_while(|(l, _)| *l == Some(i + 1)).count();
        let (here, after) = rest.split_at(n);
        rest = after;
        let tools: Vec<Placed<'_>> = here.iter().map(|(_, p)| *p).collect();
        // Every tool of the line left out: it sends none now, whatever shape it keeps (`[]`
        // for a bare tool or a list, the request with an empty tool list), and the report
        // names it (trial 89 D1: only the bare tool's line was named).
        let all_left_out = !keep
            && n > 0
            && here
                .iter()
                .all(|(_, p)| p.repair.outcome == Outcome::Refused);
        let written = one(line, Some(i + 1), first, &tools)?;
        if all_left_out {
            emptied.push(Emptied {
                line: i + 1,
                tools: n,
                request: written.as_deref().is_some_and(|w| w != EMPTY_LINE),
            });
        }
        out.push_str(written.as_deref().unwrap_or(EMPTY_LINE));
        out.push_str(ending);
        first += n;
    }
    rendered.text = Some(out);
    rendered.emptied = emptied;
    Ok(rendered)
}

fn human_report(results: &[(usize, ToolRepair)], profile: &str, keep: bool) -> String {
    let mut s = String::new();
    for (_, r) in results {
        if r.outcome != Outcome::Unchanged {
            s.push_str(&repair::human(r));
        }
    }
    // References, not copies: a result holds its whole repaired schema.
    let all: Vec<&ToolRepair> = results.iter().map(|(_, r)| r).collect();
    let counts = repair::summary(all.iter().copied());
    let n = |k: &str| counts.get(k).copied().unwrap_or(0);
    let losses: usize = all
        .iter()
        .flat_map(|r| &r.changes)
        .filter(|c| c.lost.is_some())
        .count();
    s.push_str(&format!(
        "{} tool{} under `{profile}`: {} unchanged, {} repaired ({losses} loss{}), {} refused ({})\n",
        all.len(),
        if all.len() == 1 { "" } else { "s" },
        n("unchanged"),
        n("repaired"),
        if losses == 1 { "" } else { "es" },
        n("refused"),
        if keep {
            "kept unchanged"
        } else {
            "left out"
        }
    ));
    // Under a strict target, a tool repair leaves correct but not in the strict form is still
    // rejected in strict mode: say so as `check` does, and where that form comes from.
    let form = crate::compile::wire::Form::of(profile);
    let unformed = all.iter().any(|r| {
        r.outcome != Outcome::Refused
            && r.tool
                .parameters
                .as_ref()
                .is_some_and(|p| !crate::compile::wire::is_in(form, p))
    });
    if unformed && let Some(note) = crate::check::strict_note(profile, "repair writes") {
        s.push_str(&note);
        s.push('\n');
    }
    s.push_str(&left_as_written(&all, profile, "repair"));
    s
}

/// Features [`left_as_written`] names before it counts the rest, when there are at least
/// three more (naming one or two costs no more than counting them).
const LEFT_AS_WRITTEN_SHOWN: usize = 10;

/// The report's closing line on the warnings `check` gives on the tools `by` (`repair`,
/// `compile`) wrote (repaired, unchanged, or refused and kept as given): each feature, with
/// its number of places when more than one, and their sum, which is `check`'s count of
/// warnings on the output. It lists every warning left (`unverified`): those `by` has a
/// rewrite for but makes none, those it has none for (`type: "integer"`) and those its own
/// rewrites brought in (`oneOf` written as `anyOf`, compile's strict form's `null` branch),
/// not only the first (`left_as_written`, trial 64 D1), since the line reads as what is left;
/// those its rewrites brought in (`introduced`) are marked "written by `by`", as they are not
/// the input's. Past [`LEFT_AS_WRITTEN_SHOWN`] features, those at the most places, and a count
/// of the others. The reason closing it says `by` rewrites none of them, which holds for
/// those it wrote too (it "changes nothing for them" beside "written by repair" read as a
/// contradiction, trial 66 D6). Empty when no warning is left.
pub(crate) fn left_as_written(all: &[&ToolRepair], profile: &str, by: &str) -> String {
    // Per feature: its warnings, and those of them `by` brought in.
    let mut per: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for r in all {
        for (feature, n) in &r.unverified {
            let added = r.introduced.get(feature).copied().unwrap_or(0);
            let e = per.entry(feature.as_str()).or_default();
            e.0 += n;
            e.1 += added;
        }
    }
    if per.is_empty() {
        return String::new();
    }
    // A corpus leaves dozens of features (2,700 characters on one line for LiveMCPBench under
    // `mistral/chat`): the line names those at the most places, in the list's order, and
    // counts the rest; the total stays `check`'s count, and `check` on the output lists each.
    let total: usize = per.values().map(|(n, _)| n).sum();
    let added: usize = per.values().map(|(_, k)| k).sum();
    let mut shown: Vec<(&str, (usize, usize))> = per.into_iter().collect();
    let more = match shown.len() - LEFT_AS_WRITTEN_SHOWN.min(shown.len()) {
        1 | 2 => 0,
        more => more,
    };
    let mut hidden_added = 0;
    if more > 0 {
        shown.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
        hidden_added = shown[LEFT_AS_WRITTEN_SHOWN..]
            .iter()
            .map(|(_, (_, k))| k)
            .sum();
        shown.truncate(LEFT_AS_WRITTEN_SHOWN);
        shown.sort();
    }
    // A feature names the schema's own value (`format-allowed: <format>`): escaped inline,
    // so that a line break in it cannot start a line of its own.
    let mut list: Vec<String> = shown
        .iter()
        .map(|(feature, (n, k))| {
            let feature = crate::report::escape_inline(feature);
            let at = if *n == 1 {
                feature.into_owned()
            } else {
                format!("{feature} at {n} places")
            };
            match (*k, *n) {
                (0, _) => at,
                (1, 1) => format!("{at}, written by {by}"),
                (k, n) if k == n => format!("{at}, all written by {by}"),
                (k, _) => format!("{at}, {k} written by {by}"),
            }
        })
        .collect();
    if more > 0 {
        let of_them = if hidden_added > 0 {
            format!(" ({hidden_added} of their warnings written by {by})")
        } else {
            String::new()
        };
        list.push(format!(
            "and {}{of_them}",
            crate::check::count(more, "more feature")
        ));
    }
    // Marked as each feature is: "1 of them" of 1 warning reads as a miscount.
    let of_them = match (added, total) {
        (0, _) => String::new(),
        (1, 1) => format!(", written by {by}"),
        (k, n) if k == n => format!(", all written by {by}"),
        (k, _) => format!(", {k} of them written by {by}"),
    };
    format!(
        "left as written: {} `check` gives on the output{of_them}: {} (no target of `{profile}` has rejecting evidence, so {by} rewrites none of them)\n",
        crate::check::count(total, "warning"),
        list.join("; "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past [`LEFT_AS_WRITTEN_SHOWN`] features the line names those at the most places and
    /// counts the others, its total still `check`'s: a corpus left 2,700 characters on it.
    #[test]
    fn the_left_as_written_line_names_the_commonest_features_and_counts_the_rest() {
        use serde_json::json;
        let p = crate::repair::tests::profile(&["keyword-allowed: oneOf"]);
        let words = [
            "minLength",
            "maxLength",
            "pattern",
            "minItems",
            "maxItems",
            "uniqueItems",
            "minimum",
            "maximum",
            "multipleOf",
            "minProperties",
        ];
        // Each keyword once, on a string property; `minimum` also at two more places.
        let mut props: serde_json::Map<String, serde_json::Value> = words
            .iter()
            .map(|w| (format!("p_{w}"), json!({"type": "string", (*w): 1})))
            .collect();
        for i in 0..2 {
            props.insert(format!("n{i}"), json!({"type": "string", "minimum": 1}));
        }
        let tools = [Tool {
            name: Some("many".into()),
            description: Some("Does it.".into()),
            parameters: Some(json!({"type": "object", "properties": props})),
            strict: None,
            strict_tool_use: None,
        }];
        let results: Vec<(usize, ToolRepair)> =
            repair::repair_request(&tools, &p, &Options::default())
                .into_iter()
                .map(|r| (0, r))
                .collect();
        let features = results[0].1.unverified.len();
        assert!(features > LEFT_AS_WRITTEN_SHOWN + 2, "{features}");
        let total: usize = results[0].1.unverified.values().sum();
        let report = human_report(&results, "test", false);
        let line = report
            .lines()
            .find(|l| l.starts_with("left as written: "))
            .unwrap_or_else(|| panic!("{report}"));
        assert!(
            line.starts_with(&format!("left as written: {total} warnings ")),
            "{line}"
        );
        let more = features - LEFT_AS_WRITTEN_SHOWN;
        assert!(
            line.contains(&format!("; and {more} more features (")),
            "{line}"
        );
        // The commonest (`type-spelling: string`, `minimum`) are named; 10 in all.
        assert!(
            line.contains("keyword-allowed: minimum at 3 places"),
            "{line}"
        );
        assert!(line.contains("type-spelling: string at "), "{line}");
        assert_eq!(line.matches("; ").count(), LEFT_AS_WRITTEN_SHOWN, "{line}");
    }

    /// The closing line lists every warning `check` gives on the tools written, counted as
    /// `check` counts them: the repairable ones (`minimum`), those repair has no rewrite for
    /// (`type: "integer"`) and those its own rewrites brought in (the `anyOf` written for a
    /// `oneOf`), marked as repair's. Trial 64 D1: only the repairable ones were listed.
    #[test]
    fn the_left_as_written_line_lists_every_warning_check_gives_on_the_output() {
        use serde_json::json;
        // `oneOf` rejected, everything else without evidence either way (warnings).
        let p = crate::repair::tests::profile(&["keyword-allowed: oneOf"]);
        let tool = |name: &str, parameters| Tool {
            name: Some(name.into()),
            description: Some("Does it.".into()),
            parameters: Some(parameters),
            strict: None,
            strict_tool_use: None,
        };
        let tools = [
            tool(
                "days",
                json!({"type": "object", "properties": {
                    "n": {"type": "integer", "minimum": 1},
                    "m": {"type": "integer"}}}),
            ),
            tool(
                "when",
                json!({"type": "object", "properties": {
                    "at": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}}),
            ),
        ];
        let results: Vec<(usize, ToolRepair)> =
            repair::repair_request(&tools, &p, &Options::default())
                .into_iter()
                .map(|r| (0, r))
                .collect();
        assert_eq!(results[0].1.outcome, Outcome::Unchanged);
        assert_eq!(results[1].1.outcome, Outcome::Repaired);
        // What `check` gives on the tools as written.
        let written: Vec<_> = results
            .iter()
            .enumerate()
            .map(|(i, (_, r))| r.tool.as_ref(i))
            .collect();
        let mut expected: BTreeMap<String, usize> = BTreeMap::new();
        for f in crate::check::check_tools(&written, &p) {
            if f.level == crate::check::Level::Warning {
                *expected.entry(f.parameter.to_string()).or_default() += 1;
            }
        }
        assert_eq!(expected.get("type-spelling: integer"), Some(&3));
        assert_eq!(expected.get("keyword-allowed: anyOf"), Some(&1));
        assert_eq!(expected.get("keyword-allowed: minimum"), Some(&1));
        let report = human_report(&results, "test", false);
        let line = report
            .lines()
            .find(|l| l.starts_with("left as written: "))
            .unwrap_or_else(|| panic!("{report}"));
        let total: usize = expected.values().sum();
        // The `anyOf` is repair's own, and marked so (`introduced`).
        assert_eq!(
            results[1].1.introduced,
            BTreeMap::from([("keyword-allowed: anyOf".to_string(), 1)])
        );
        assert!(results[0].1.introduced.is_empty());
        assert!(
            line.starts_with(&format!(
                "left as written: {total} warnings `check` gives on the output, 1 of them \
                 written by repair: "
            )),
            "{line}"
        );
        let listed: Vec<String> = expected
            .iter()
            .map(|(f, n)| match n {
                1 if f == "keyword-allowed: anyOf" => format!("{f}, written by repair"),
                1 => f.clone(),
                n => format!("{f} at {n} places"),
            })
            .collect();
        assert!(
            line.contains(&format!(": {} (no target", listed.join("; "))),
            "{line}"
        );
        // Not "repair changes nothing for them" beside warnings written by repair (trial 66
        // D6): it rewrites none of them, its own included.
        assert!(
            line.ends_with(
                "(no target of `test` has rejecting evidence, so repair rewrites none of them)"
            ),
            "{line}"
        );
    }

    /// A refused tool kept as given (`--keep-unrepairable`) is on the output with the
    /// input's warnings, which the closing line counts as `check` does; not the `number`
    /// its rewrites wrote for a `float` before it was refused, which is written nowhere.
    #[test]
    fn the_left_as_written_line_counts_a_kept_refused_tool_as_given() {
        use serde_json::json;
        let p = crate::repair::tests::profile(&[
            "type-spelling: float",
            "structure: array-without-items",
        ]);
        let tools = [Tool {
            name: Some("predict".into()),
            description: Some("Does it.".into()),
            parameters: Some(json!({"type": "object", "properties": {
                "w": {"type": "float", "minimum": 1},
                "xs": {"type": "array"}}})),
            strict: None,
            strict_tool_use: None,
        }];
        let keep = Options {
            keep_unrepairable: true,
            ..Options::default()
        };
        let results: Vec<(usize, ToolRepair)> = repair::repair_request(&tools, &p, &keep)
            .into_iter()
            .map(|r| (0, r))
            .collect();
        assert_eq!(results[0].1.outcome, Outcome::Refused);
        let report = human_report(&results, "test", true);
        let line = report
            .lines()
            .find(|l| l.starts_with("left as written: "))
            .unwrap_or_else(|| panic!("{report}"));
        let total = crate::check::check_tools(&[tools[0].as_ref(0)], &p)
            .iter()
            .filter(|f| f.level == crate::check::Level::Warning)
            .count();
        assert!(
            line.starts_with(&format!(
                "left as written: {total} warnings `check` gives on the output: "
            )),
            "{line}"
        );
        assert!(line.contains("keyword-allowed: minimum"), "{line}");
        assert!(!line.contains("type-spelling: number"), "{line}");
    }

    #[test]
    fn a_write_error_names_the_folder_only_when_it_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        // tempfile's shape: the OS error, then the temporary file's path.
        let refused = std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "Permission denied (os error 13) at path \"/x/.tmpAbc\"",
        );
        let text = temp_file_error(dir.path(), &refused).to_string();
        assert_eq!(
            text,
            format!(
                "cannot create a file in the folder {}: Permission denied (os error 13)",
                dir.path().display()
            )
        );
        let missing = dir.path().join("no/such");
        let text = temp_file_error(&missing, &refused).to_string();
        assert!(text.ends_with("does not exist"), "{text}");
        let file = dir.path().join("f");
        std::fs::write(&file, "").unwrap();
        let text = temp_file_error(&file, &refused).to_string();
        assert!(text.ends_with("is not a folder"), "{text}");
    }

    #[test]
    fn nothing_written_says_a_missing_output_was_not_created() {
        let dir = tempfile::tempdir().unwrap();
        let there = dir.path().join("there.json");
        std::fs::write(&there, "[]").unwrap();
        assert!(nothing_written(Some(&there)).contains("there.json is left as it was"));
        let absent = dir.path().join("absent/out.json");
        let text = nothing_written(Some(&absent));
        assert!(text.contains("out.json was not created"), "{text}");
        assert!(!text.contains("left as it was"), "{text}");
        assert!(nothing_written(None).contains("standard output is left empty"));
    }

    /// What `repair` writes for `text` read as `file`, under a profile that rejects dots in
    /// names (so `a.b` is renamed `a_b`) and arrays without `items` (refused).
    fn rendered(file: &str, text: &str) -> Rendered {
        let profile =
            crate::repair::tests::profile(&["name-chars: dot", "structure: array-without-items"]);
        rendered_under(file, text, &profile)
    }

    /// What `repair` writes for `text` read as `file` under `profile`, each request's tools
    /// repaired with the options `run` gives them.
    fn rendered_under(
        file: &str,
        text: &str,
        profile: &crate::profile::CompiledProfile,
    ) -> Rendered {
        let set = crate::input::from_bytes(Path::new(file), text.as_bytes()).unwrap();
        let mut results = Vec::new();
        for request in set.requests() {
            let input: Vec<Tool> = request.iter().map(Tool::from).collect();
            let opts = request_options(request, Options::default());
            let out = repair::repair_request(&input, profile, &opts);
            results.extend(request.iter().map(|e| e.request).zip(out));
        }
        render_tools(Path::new(file), text.as_bytes(), &set, &results, false).unwrap()
    }

    /// The document `repair` writes for the two-tool `doc` (a tool without arguments, `{}`,
    /// first) under a profile that rejects `{}` as a root, as openai/chat and bedrock/converse
    /// do, and `also`; `None` when nothing is written.
    fn no_arguments_written(doc: serde_json::Value, also: &[&str]) -> Option<serde_json::Value> {
        let mut rejected = vec!["root-shape: empty-schema"];
        rejected.extend(also);
        let profile = crate::repair::tests::profile(&rejected);
        let text = rendered_under("t.json", &doc.to_string(), &profile).text?;
        Some(serde_json::from_str(&text).unwrap())
    }

    /// The schema of a tool with one string argument, the second tool of each document.
    fn one_argument() -> serde_json::Value {
        json!({"type": "object", "properties": {"text": {"type": "string"}}})
    }

    /// The empty argument object: a tool without arguments, in the form repair writes.
    fn empty_object() -> serde_json::Value {
        json!({"type": "object", "properties": {}})
    }

    /// Trial 64 D3: an Anthropic tool without arguments was written without `input_schema`,
    /// which Anthropic requires (and `check` then read the file as function declarations
    /// when the tool was first, and refused it as bad input). `true` and `null` too.
    #[test]
    fn an_anthropic_tool_without_arguments_keeps_its_input_schema() {
        for given in [json!({}), json!(true), json!(null)] {
            let doc = json!([
                {"name": "ping", "description": "P.", "input_schema": given},
                {"name": "echo", "description": "E.", "input_schema": one_argument()}
            ]);
            let out = no_arguments_written(doc, &[]).unwrap();
            assert_eq!(out[0]["input_schema"], empty_object(), "{given}: {out}");
            assert_eq!(out[1]["input_schema"], one_argument());
            // The output reads back in its own shape.
            let set = crate::input::from_value(Path::new("out.json"), out).unwrap();
            assert_eq!(set.format, Format::Anthropic);
        }
    }

    /// Trial 64 D3, for an MCP `tools/list` result, whose tools require `inputSchema`.
    #[test]
    fn an_mcp_tool_without_arguments_keeps_its_input_schema() {
        let doc = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
            {"name": "ping", "description": "P.", "inputSchema": {}},
            {"name": "echo", "description": "E.", "inputSchema": one_argument()}
        ]}});
        let out = no_arguments_written(doc, &[]).unwrap();
        assert_eq!(
            out["result"]["tools"][0]["inputSchema"],
            empty_object(),
            "{out}"
        );
        let set = crate::input::from_value(Path::new("out.json"), out).unwrap();
        assert_eq!(set.format, Format::McpToolsList);
    }

    /// Trial 64 D3, for Bedrock Converse, whose `toolSpec.inputSchema` is required and holds
    /// the schema as `json`: it was written `"inputSchema": {}`, while compile wrote the empty
    /// argument object there.
    #[test]
    fn a_bedrock_tool_without_arguments_keeps_its_json_schema() {
        let doc = json!({"toolConfig": {"tools": [
            {"toolSpec": {"name": "ping", "description": "P.", "inputSchema": {"json": {}}}},
            {"toolSpec": {"name": "echo", "description": "E.",
                "inputSchema": {"json": one_argument()}}}
        ]}});
        let out = no_arguments_written(doc, &[]).unwrap();
        assert_eq!(
            out["toolConfig"]["tools"][0]["toolSpec"]["inputSchema"],
            json!({"json": empty_object()}),
            "{out}"
        );
    }

    /// OpenAI's `parameters` may be left out ("Omitting `parameters` defines a function with
    /// an empty parameter list"), and so may Gemini's: there repair still leaves it out.
    #[test]
    fn an_openai_or_gemini_tool_without_arguments_still_has_its_schema_left_out() {
        let doc = json!({"tools": [
            {"type": "function", "function": {"name": "ping", "parameters": {}}},
            {"type": "function", "function": {"name": "echo", "parameters": one_argument()}}
        ]});
        let out = no_arguments_written(doc, &[]).unwrap();
        assert_eq!(
            out["tools"][0],
            json!({"type": "function", "function": {"name": "ping"}})
        );
        let doc = json!({"functionDeclarations": [
            {"name": "ping", "parameters": {}},
            {"name": "echo", "parameters": one_argument()}
        ]});
        let out = no_arguments_written(doc, &[]).unwrap();
        assert_eq!(
            out["functionDeclarations"][0],
            json!({"name": "ping"}),
            "{out}"
        );
    }

    /// Where the profile rejects the empty argument object too, an Anthropic tool without
    /// arguments has no form left: it is refused, saying why, not written without its key.
    #[test]
    fn a_tool_without_arguments_is_refused_where_its_shape_has_no_accepted_form() {
        let profile = crate::repair::tests::profile(&[
            "root-shape: empty-schema",
            "root-shape: no-arguments",
        ]);
        for given in [json!({}), empty_object()] {
            let input = vec![Tool {
                name: Some("ping".into()),
                description: Some("P.".into()),
                parameters: Some(given.clone()),
                strict: None,
                strict_tool_use: None,
            }];
            let opts = Options {
                required_schema_key: Some("input_schema"),
                ..Options::default()
            };
            let r = &repair::repair_request(&input, &profile, &opts)[0];
            assert_eq!(r.outcome, Outcome::Refused, "{given}: {r:?}");
            assert!(
                r.refusals[0].reason.contains(
                    "the shape requires `input_schema`, so the schema cannot be left out"
                ),
                "{given}: {r:?}"
            );
        }
    }

    /// `check` marks a tool without arguments repairable exactly where `repair` writes it, in
    /// each tool shape: under gemini/v1beta/parameters (an empty `properties` map rejected,
    /// the schema left out accepted) an OpenAI tool is written with `parameters` left out, and
    /// an Anthropic, MCP or Bedrock tool, whose shape requires its schema's key, is refused
    /// (before: check said "(repairable)" and advised leaving the schema out for all four).
    /// A root `null` too, under a profile that rejects it and the empty argument object.
    #[test]
    fn check_marks_a_tool_without_arguments_repairable_where_repair_writes_it() {
        let set = crate::profile::embedded().unwrap();
        let gemini =
            crate::profile::CompiledProfile::new(set.get("gemini/v1beta/parameters").unwrap());
        let no_null = crate::repair::tests::profile(&[
            "root-shape: parameters-null",
            "root-shape: no-arguments",
        ]);
        // (shape, its document holding one tool with schema `s`, whether it may leave `s` out)
        type Doc = fn(serde_json::Value) -> serde_json::Value;
        let shapes: [(&str, Doc, bool); 4] = [
            (
                "openai",
                |s| {
                    json!({"tools": [{"type": "function",
                "function": {"name": "ping", "description": "P.", "parameters": s}}]})
                },
                true,
            ),
            (
                "anthropic",
                |s| {
                    json!([{"name": "ping", "description": "P.",
                "input_schema": s}])
                },
                false,
            ),
            (
                "mcp",
                |s| {
                    json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
                {"name": "ping", "description": "P.", "inputSchema": s}]}})
                },
                false,
            ),
            (
                "bedrock",
                |s| {
                    json!({"toolConfig": {"tools": [{"toolSpec": {"name": "ping",
                "description": "P.", "inputSchema": {"json": s}}}]}})
                },
                false,
            ),
        ];
        let cases = [
            (&gemini, empty_object()),
            (&gemini, json!({"type": "object"})),
            (&no_null, json!(null)),
        ];
        for (shape, doc, may_leave_out) in shapes {
            for (profile, schema) in &cases {
                let text = doc(schema.clone()).to_string();
                let tools = crate::input::from_bytes(Path::new("t.json"), text.as_bytes()).unwrap();
                let errors: Vec<_> = crate::check::check_set(&tools, profile)
                    .into_iter()
                    .filter(|f| f.level == crate::check::Level::Error)
                    .collect();
                assert!(!errors.is_empty(), "{shape} {schema}");
                let marked = errors.iter().all(|f| f.repairable);
                let request: Vec<Tool> = tools.tools.iter().map(Tool::from).collect();
                let opts = request_options(&tools.tools, Options::default());
                let written =
                    repair::repair_request(&request, profile, &opts)[0].outcome != Outcome::Refused;
                assert_eq!(marked, written, "{shape} {schema}: {errors:#?}");
                assert_eq!(written, may_leave_out, "{shape} {schema}");
                for f in &errors {
                    assert_eq!(
                        f.fix.contains("leave the schema out"),
                        may_leave_out && f.rule == "object-properties-missing",
                        "{shape} {schema}: {}",
                        f.fix
                    );
                }
            }
        }
    }

    #[test]
    fn json_lines_keep_their_line_endings_blank_lines_and_unchanged_bytes() {
        let same = r#"{"name": "ok",  "description": "D.", "parameters": {"type": "object"}}"#;
        let renamed = r#"{"name": "a.b", "description": "D.", "parameters": {"type": "object"}}"#;
        let text = format!("{same}\r\n\r\n{renamed}\r\n  \r\n");
        let out = rendered("t.jsonl", &text).text.unwrap();
        assert_eq!(
            out,
            format!(
                "{same}\r\n\r\n{}\r\n  \r\n",
                r#"{"name":"a_b","description":"D.","parameters":{"type":"object"}}"#
            )
        );
        // LF endings stay LF; a last line without one gets none.
        let out = rendered("t.jsonl", &format!("{renamed}\n{same}"))
            .text
            .unwrap();
        assert_eq!(
            out,
            format!(
                "{}\n{same}",
                r#"{"name":"a_b","description":"D.","parameters":{"type":"object"}}"#
            )
        );
    }

    /// A line whose one tool is refused keeps its place as `[]`, so that every later line
    /// keeps its number; a line of a request keeps the request, less the refused tool.
    #[test]
    fn json_lines_keep_every_line_in_place_when_a_tool_is_refused() {
        let ok = r#"{"name": "ok", "description": "D.", "parameters": {"type": "object"}}"#;
        let refused = r#"{"name": "no", "description": "D.", "parameters": {"type": "object", "properties": {"l": {"type": "array"}}}}"#;
        let bare = r#"{"type": "object", "properties": {"l": {"type": "array"}}}"#;
        let request = format!(r#"{{"tools": [{ok}, {refused}], "model": "m"}}"#);
        let lines = [ok, refused, "", bare, &request, ok];
        let text = lines.join("\n") + "\n";
        let r = rendered("t.jsonl", &text);
        let out = r.text.unwrap();
        let written: Vec<&str> = out.lines().collect();
        assert_eq!(written.len(), lines.len(), "{out}");
        assert_eq!(
            written,
            [
                ok,
                "[]",
                "",
                "[]",
                &format!(
                    r#"{{"tools":[{}],"model":"m"}}"#,
                    ok.replace(": ", ":").replace(", ", ",")
                ),
                ok
            ]
        );
        let lines: Vec<usize> = r.emptied.iter().map(|e| e.line).collect();
        assert_eq!(lines, [2, 4]);
        assert_eq!(
            emptied_note(&r.emptied),
            "note: lines 2, 4 held one tool each, refused and left out: each is written as an \
             empty tool list (`[]`), so that output line N stays input line N's\n"
        );
        assert_eq!(emptied_note(&[]), "");
    }

    /// Trial 89 D1: a tool list or a request whose every tool is refused and left out sends no
    /// tool, as a refused bare tool's line does, and is named with it; before, only the bare
    /// tool's line was (its writer alone answered "left out"), so `emptied_lines` missed the
    /// ordinary shapes of JSON Lines of requests.
    #[test]
    fn json_lines_name_every_line_left_with_no_tool() {
        let tool = |name: &str| {
            format!(
                r#"{{"name": "{name}", "description": "D.", "parameters": {{"type": "object", "properties": {{"l": {{"type": "array"}}}}}}}}"#
            )
        };
        let ok = r#"{"name": "ok", "description": "D.", "parameters": {"type": "object"}}"#;
        let listed = format!(r#"[{{"type": "function", "function": {}}}]"#, tool("r"));
        let request = format!(r#"{{"tools": [{}], "model": "m"}}"#, tool("r"));
        let two = format!("[{}, {}]", tool("b1"), tool("b2"));
        let text = [tool("r"), listed, request, ok.to_string(), two].join("\n") + "\n";
        let r = rendered("t.jsonl", &text);
        let out = r.text.unwrap();
        let written: Vec<&str> = out.lines().collect();
        assert_eq!(
            written,
            ["[]", "[]", r#"{"tools":[],"model":"m"}"#, ok, "[]"],
            "{out}"
        );
        let e = |line, tools, request| Emptied {
            line,
            tools,
            request,
        };
        assert_eq!(
            r.emptied,
            [
                e(1, 1, false),
                e(2, 1, false),
                e(3, 1, true),
                e(5, 2, false)
            ]
        );
        assert_eq!(
            emptied_note(&r.emptied),
            "note: lines 1, 2, 3, 5 had every tool refused and left out: each is written as an \
             empty tool list (`[]`, or inside its request), so that output line N stays input \
             line N's\n"
        );
        assert_eq!(
            emptied_note(&r.emptied[2..3]),
            "note: line 3 held one tool, refused and left out: it is written as its request \
             with an empty tool list, so that output line N stays input line N's\n"
        );
    }

    #[test]
    fn a_document_is_written_back_as_read_or_in_its_own_indentation() {
        let unchanged = "[\r\n    {\"name\": \"ok\", \"description\": \"D.\", \"parameters\": {\"type\": \"object\"}}\r\n]\r\n";
        assert_eq!(rendered("t.json", unchanged).text.unwrap(), unchanged);
        let changed = unchanged.replace("\"ok\"", "\"a.b\"");
        assert_eq!(
            rendered("t.json", &changed).text.unwrap(),
            "[\r\n    {\r\n        \"name\": \"a_b\",\r\n        \"description\": \"D.\",\r\n        \
             \"parameters\": {\r\n            \"type\": \"object\"\r\n        }\r\n    }\r\n]\r\n"
        );
    }

    /// A reference to a renamed tool is rewritten and said as a change of that tool, at its
    /// index among all the results (here the second line's tool).
    #[test]
    fn references_follow_renames_line_by_line() {
        let text = concat!(
            r#"{"tools": [{"name": "ok", "description": "D.", "input_schema": {"type": "object"}}]}"#,
            "\n",
            r#"{"tools": [{"name": "a.b", "description": "D.", "input_schema": {"type": "object"}}], "tool_choice": {"type": "tool", "name": "a.b"}}"#,
            "\n",
            // `x.y` would be renamed onto `x_y`, which keeps its name: `x.y` is left out.
            r#"{"tools": [{"name": "x.y", "description": "D.", "input_schema": {"type": "object"}}, {"name": "x_y", "description": "D.", "input_schema": {"type": "object"}}], "tool_choice": {"type": "tool", "name": "x.y"}}"#,
            "\n"
        );
        let r = rendered("t.jsonl", text);
        let out = r.text.unwrap();
        assert!(
            out.contains(r#""tool_choice":{"type":"tool","name":"a_b"}"#),
            "the choice follows the rename: {out}"
        );
        assert!(out.contains(r#""tool_choice":{"type":"tool","name":"x.y"}"#));
        assert_eq!(r.changes.len(), 1);
        assert_eq!(r.changes[0].0, 1);
        let notes: Vec<String> = r
            .dangling
            .iter()
            .map(|(line, d)| dangling_note(*line, d))
            .collect();
        assert_eq!(
            notes,
            [
                "note: line 3, /tool_choice/name names `x.y`, which is left out; the reference is \
              left as written\n"
            ]
        );
    }

    #[test]
    fn an_atomic_write_replaces_the_whole_file_and_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        std::fs::write(&path, "old text that is longer than the new one").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        write_atomically(&path, "[]\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[]\n");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640, "the file keeps its permissions");
        }
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["out.json"], "no temporary file is left");
        let missing = dir.path().join("no-such-dir").join("x.json");
        let err = write_atomically(&missing, "x").unwrap_err().to_string();
        assert!(err.contains("x.json"), "{err}");
        let err = write_atomically(dir.path(), "x").unwrap_err().to_string();
        assert!(
            err.ends_with(": the output is a folder; give the name of a file to write"),
            "{err}"
        );
    }

    /// `-o link` replaces the file the link points to and leaves the link a link; `-o` to a
    /// pipe writes into it instead of replacing it by a file.
    #[cfg(unix)]
    #[test]
    fn a_link_or_a_pipe_is_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        let link = dir.path().join("link.json");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomically(&link, "new\n").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new\n");
        let dangling = dir.path().join("dangling.json");
        std::os::unix::fs::symlink("made-later.json", &dangling).unwrap();
        write_atomically(&dangling, "made\n").unwrap();
        let made = dir.path().join("made-later.json");
        assert_eq!(std::fs::read_to_string(made).unwrap(), "made\n");

        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("not run: mkfifo is not available");
            return;
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        write_atomically(&fifo, "through the pipe\n").unwrap();
        assert_eq!(reader.join().unwrap(), "through the pipe\n");
        use std::os::unix::fs::FileTypeExt;
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "the pipe is still a pipe");
    }
}
