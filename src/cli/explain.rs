//! `toolwire explain [--request REQ.json] ERROR`: which tool, which place in its schema, which
//! rule, and the fix, for a provider's rejection. Exit 0 when at least one problem was
//! explained with a rule or a fix (the strict structured-outputs requirements have a fix, the
//! strict form `compile` writes, but no rule: `check` judges the canonical schema), 1 when the
//! error could not be explained, 2 on bad input.

use std::path::{Path, PathBuf};

use crate::cli::{EXIT_FINDINGS, EXIT_OK};
use crate::error::{Error, Place, Result};
use crate::evidence::runlog::Redactor;
use crate::explain::{Explanation, explain};
use crate::json::{self, Limits};

#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub no_project: crate::cli::NoProject,
    /// The error: a file holding the body (or a client's printout of it), `-` for standard
    /// input, or the text itself.
    #[arg(value_name = "ERROR")]
    pub error: std::ffi::OsString,
    /// The request that was sent (JSON). Needed to turn Google's positional indices into
    /// property names and to find a tool the error does not name.
    #[arg(long, value_name = "FILE", value_parser = crate::cli::file_arg())]
    pub request: Option<PathBuf>,
    /// The target the request went to (limits the message templates to its provider's).
    #[arg(long, value_name = "TARGET")]
    pub target: Option<String>,
    /// Output: `human` or `json`.
    #[arg(long, default_value = "human", value_parser = ["human", "json"])]
    pub format: String,
}

pub fn run(args: ExplainArgs) -> Result<u8> {
    args.no_project
        .refuse("explain", "the error and request it is given")?;
    crate::cli::stdin_once(
        args.request
            .iter()
            .map(|r| ("--request", r.as_os_str()))
            .chain([("ERROR", args.error.as_os_str())]),
    )?;
    if let Some(t) = &args.target
        && crate::target::find(t).is_none()
    {
        return Err(Error::Usage(format!(
            "--target {t:?} is not a known target (known: {})",
            crate::target::route_ids()
        )));
    }
    // A local engine's messages (a grammar compiler's, a validator's) are no provider's
    // answer: no template reads them, and reading them with every provider's would name rules
    // the engine never meant.
    if let Some(t) = &args.target
        && t.starts_with("engine/")
    {
        return Err(Error::Usage(format!(
            "--target {t:?} is a local engine, not a provider route: explain reads the answers \
             of provider routes ({}); `toolwire check --target {t}` reports what the engine \
             rejects",
            crate::target::route_ids()
        )));
    }
    let request = match &args.request {
        Some(p) => Some(read_request(p)?),
        None => None,
    };
    let error = error_text(&args.error)?;
    let found = explain(request.as_ref(), &error, args.target.as_deref());
    // The provider's words may quote the key the request was sent with ("Incorrect API key
    // provided: …"): every format is redacted as run logs are, after the templates read it.
    let redactor = Redactor::from_env();
    if args.format == "json" {
        let mut value = serde_json::to_value(&found).unwrap_or_default();
        redactor.redact_json(&mut value);
        println!(
            "{}",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
    } else if found.is_empty() {
        println!("no known message template matches this error");
        // Templates are chosen by the target's provider: a mistyped `--target` reads another
        // provider's error as nothing at all.
        if let Some(t) = &args.target {
            let mut providers: Vec<&str> = Vec::new();
            for e in explain(request.as_ref(), &error, None) {
                if !providers.contains(&e.provider) {
                    providers.push(e.provider);
                }
            }
            if !providers.is_empty() {
                println!(
                    "note: it reads as {}'s, not as what {t} answers: is --target right? (without it, every provider's templates are tried)",
                    providers.join("'s or ")
                );
            }
        }
    } else {
        for (i, e) in found.iter().enumerate() {
            if i > 0 {
                println!();
            }
            print_human(e, args.target.as_deref(), &redactor);
        }
    }
    Ok(
        if found.iter().any(|e| e.rule.is_some() || e.fix.is_some()) {
            EXIT_OK
        } else {
            EXIT_FINDINGS
        },
    )
}

/// The request file, read as JSON and checked with the reader `check` uses
/// ([`crate::input::from_bytes`]), so that a file holding no tools in any known shape is an
/// input error naming the file and the place, as it is for `check`; so is one that holds an
/// empty tool list ([`crate::input::require_tools`]), or whose tool list's key is written twice
/// with the last holding none.
fn read_request(path: &Path) -> Result<serde_json::Value> {
    let bytes =
        json::read_capped(path, crate::input::LIMITS).map_err(|e| e.given_to("--request"))?;
    let text = json::check_utf8(path, &bytes)?;
    let value = json::parse_str(path, text, crate::input::LIMITS, 0).map_err(|e| {
        // JSON Lines of several requests (which `check` reads) is no one request: say so,
        // rather than serde_json's "trailing characters" at the second line.
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let first_parses = lines
            .first()
            .is_some_and(|l| serde_json::from_str::<serde::de::IgnoredAny>(l).is_ok());
        if lines.len() > 1 && first_parses {
            Error::input(
                path,
                Place::Path,
                format!(
                    "`--request` takes the one request that was sent, and this file holds {} \
                     JSON Lines; give that request's line alone",
                    lines.len()
                ),
            )
        } else {
            e
        }
    })?;
    // An empty tool list names no tool the error could be about: refused as check refuses it,
    // read from the text as check reads it, so that a tool list's key written twice is named.
    // A tool whose `type` is not "function" is what the provider refused: explained, not
    // refused as bad input (trial 50 D17).
    match crate::input::from_bytes(path, &bytes) {
        Err(Error::Input { problem, .. })
            if problem.starts_with(crate::input::TOOL_TYPE_NOT_FUNCTION) => {}
        read => {
            crate::input::require_tools(&read?)?;
        }
    }
    Ok(value)
}

/// The error body: the file `arg` names, else `arg` itself. A directory, or a path-looking
/// argument (no spaces, and a `.json`/`.txt` ending or a `/` after an existing folder) that
/// does not exist, is an input error rather than error text, so a typo in a file name is not
/// "explained" as a message; `n/a`, a whole provider message in reports.yaml, is text.
///
/// Any other path that exists is read, as `check` reads its files: a FIFO or a device (a shell's
/// `<(...)` is a pipe) too, and when that fails the error says it is not a regular file and
/// why the read failed (too large, could not read) rather than that it does not exist.
fn error_text(arg: &std::ffi::OsStr) -> Result<String> {
    let path = Path::new(arg);
    let stat = (arg != "-").then(|| std::fs::metadata(path));
    let meta = stat.as_ref().and_then(|m| m.as_ref().ok());
    if meta.is_some_and(std::fs::Metadata::is_dir) {
        return Err(Error::input(
            path,
            Place::Path,
            "a folder, not an error body file; give a file or the error text itself",
        ));
    }
    let text = if arg == "-" || meta.is_some() {
        let special = meta.and_then(special_kind);
        let bytes = json::read_capped(path, Limits::default()).map_err(|e| match (e, special) {
            (
                Error::Input {
                    file,
                    place,
                    problem,
                },
                Some(kind),
            ) => Error::Input {
                file,
                place,
                problem: format!("not a regular file ({kind}): {problem}"),
            },
            (e, _) => e,
        })?;
        Some((path, json::check_utf8(path, &bytes)?.to_string()))
    } else {
        None
    };
    if let Some((from, text)) = text {
        if text.trim().is_empty() {
            return Err(Error::input(
                from,
                Place::File,
                "empty: no error text to explain",
            ));
        }
        return Ok(text);
    }
    // A name not UTF-8 (any byte but `/` and NUL may be in a Linux file name) is no text to
    // read either: said as the file it names (trial 68 D1).
    let Some(arg) = arg.to_str() else {
        return Err(Error::input(
            path,
            Place::Path,
            "no such file (and not UTF-8, so no error text either)",
        ));
    };
    if arg.trim().is_empty() {
        return Err(Error::Usage(
            "ERROR is empty: give the error text, a file holding it, or - for standard input"
                .into(),
        ));
    }
    if looks_like_path(arg) {
        // A path that may exist but could not be looked at (a folder on the way not
        // searchable) is not said to be missing.
        let problem = match stat {
            Some(Err(e)) if e.kind() != std::io::ErrorKind::NotFound => {
                format!("could not read it: {e}")
            }
            _ => "no such file (give an existing error body file, or the error text itself)"
                .to_string(),
        };
        return Err(Error::input(path, Place::Path, problem));
    }
    Ok(arg.to_string())
}

/// What a path that is neither a regular file nor a directory is, in words.
fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    if meta.is_file() || meta.is_dir() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return Some("a FIFO");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("a special file")
}

fn looks_like_path(arg: &str) -> bool {
    let in_a_folder = || {
        arg.rsplit_once('/')
            .is_some_and(|(folder, _)| folder.is_empty() || Path::new(folder).is_dir())
    };
    !arg.is_empty()
        && !arg.chars().any(char::is_whitespace)
        && (arg.ends_with(".json") || arg.ends_with(".txt") || in_a_folder())
}

/// One explanation for people: the provider's message and the request's names are quoted, so
/// the text is redacted (credentials) and escaped for a terminal
/// ([`crate::report::escape_output`]).
fn print_human(e: &Explanation, target: Option<&str>, redactor: &Redactor) {
    print!(
        "{}",
        crate::report::escape_output(&redactor.redact(&human(e, target)))
    );
}

/// `target` (`--target`) names who answered when the message is in its provider's format:
/// Azure OpenAI and DeepSeek answer in OpenAI's, so their messages are read by OpenAI's
/// templates, but it was not OpenAI that said them.
///
/// Each value from the request or the error (tool name, pointer, message, notes naming them) is
/// escaped inline ([`crate::report::escape_inline`]): a property name holding a line break
/// would otherwise start a line of its own that reads as toolwire's.
fn human(e: &Explanation, target: Option<&str>) -> String {
    use crate::report::escape_inline;
    use std::fmt::Write;
    let mut out = String::new();
    let tool = match (e.tool_index, e.tool.as_deref()) {
        (Some(i), Some(n)) => format!("tool #{i} `{}`", escape_inline(n)),
        (Some(i), None) => format!("tool #{i}"),
        (None, Some(n)) => format!("tool `{}`", escape_inline(n)),
        // The problem is the request's (a field of it, its structured-output schema): it is
        // no tool's.
        (None, None) if e.located == crate::explain::Located::Request => {
            "the request, not a tool".to_string()
        }
        // The message names no tool, or one the request does not have: say so, not "no tool".
        (None, None) => "an unidentified tool".to_string(),
    };
    let place = match e.pointer.as_deref() {
        // `""` is where an error about the whole schema, or about the tool's own fields (its
        // name, a missing `parameters`), is placed.
        // A rule about the tool's name or description is about that part of it.
        Some("") => match e.rule.as_deref().and_then(crate::explain::tool_part) {
            Some(crate::check::Subject::Name) => " at its name".to_string(),
            Some(crate::check::Subject::Description) => " at its description".to_string(),
            _ => " at the root of its parameters schema (or the tool as a whole)".to_string(),
        },
        Some(p) => format!(" at {}", escape_inline(p)),
        None => String::new(),
    };
    let _ = writeln!(out, "{tool}{place}");
    match (&e.rule, &e.fix) {
        (Some(rule), _) => {
            let _ = writeln!(out, "  rule: {rule}");
        }
        // The strict structured-outputs requirements: a target's form, not a rule of a profile.
        (None, Some(_)) => {
            let _ = writeln!(
                out,
                "  rule: none (no rule of the profile covers it; the fix does)"
            );
        }
        (None, None) => {
            let _ = writeln!(out, "  rule: (unknown)");
        }
    }
    if let Some(fix) = &e.fix {
        let _ = writeln!(out, "  fix: {}", escape_inline(fix));
    }
    let speaker = match target {
        Some(t) if crate::explain::family_of(t) == e.provider && !own_format(t, e.provider) => {
            format!("{t} (in {}'s format)", e.provider)
        }
        _ => e.provider.to_string(),
    };
    let _ = writeln!(
        out,
        "  {speaker} said: {}",
        escape_inline(&one_line(&e.message))
    );
    for n in &e.notes {
        let _ = writeln!(out, "  note: {}", escape_inline(n));
    }
    out
}

/// Whether target `t` is the provider whose message format `format` names (Gemini and Vertex
/// are Google's), rather than a service answering in another's format.
fn own_format(t: &str, format: &str) -> bool {
    match format {
        "google" => t.starts_with("gemini/") || t.starts_with("vertex/"),
        f => t.starts_with(f),
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The request is read as `check` reads a tool file: a tool list's key written twice, the
    /// last holding no tool, is named at that key (trial 46 D7: "(whole file): no tools found
    /// (the tool list is empty)").
    #[test]
    fn a_request_whose_tool_list_is_written_twice_is_named_as_check_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("request.json");
        let tool = r#"{"name":"a","input_schema":{"type":"object"}}"#;
        std::fs::write(&file, format!(r#"{{"tools":[{tool}],"tools":[]}}"#)).unwrap();
        let e = read_request(&file).unwrap_err().to_string();
        let check = crate::input::read_file(&file)
            .and_then(|t| crate::input::require_tools(&t))
            .unwrap_err()
            .to_string();
        assert_eq!(e, check);
        assert!(e.contains("at /tools: no tools found (the tool list is empty): the key"));
    }

    #[test]
    fn a_service_answering_in_another_providers_format_is_named() {
        let error = "Invalid schema for function 'f': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'b'.";
        let said = |target: &str| {
            let e = &explain(None, error, Some(target))[0];
            human(e, Some(target))
                .lines()
                .find(|l| l.contains(" said: "))
                .unwrap_or_default()
                .to_string()
        };
        assert!(
            said("azure-openai/chat")
                .starts_with("  azure-openai/chat (in openai's format) said: "),
            "{}",
            said("azure-openai/chat")
        );
        assert!(said("deepseek/beta-strict").starts_with("  deepseek/beta-strict (in openai's"));
        assert!(said("openai/chat").starts_with("  openai said: "));
    }

    /// A name holding a line break, a tab, a line separator or a bidi override cannot forge a
    /// line or reorder one: each explanation's lines are toolwire's own (the trial's F4 printed
    /// `at /properties/nl` and `x` on two lines).
    #[test]
    fn names_in_the_human_output_are_escaped_inline() {
        for (name, literal, shown) in [
            ("nl\nx", r"'nl\nx'", r"nl\nx"),
            ("tab\tx", r"'tab\tx'", r"tab\tx"),
            ("\u{2028}ls", r"'\u2028ls'", r"\u{2028}ls"),
            ("a\u{202e}b", r"'a\u202eb'", r"a\u{202e}b"),
        ] {
            let request = serde_json::json!({"model": "m", "tools": [{"type": "function",
                "function": {"name": "b\nc", "parameters": {"type": "object",
                    "properties": {name: {"type": "array"}}}}}]});
            let error = format!(
                "Invalid schema for function 'b\\nc': In context=('properties', {literal}), array schema missing items."
            );
            let found = explain(Some(&request), &error, None);
            let [e] = found.as_slice() else {
                panic!("{error}: {found:#?}")
            };
            let text = human(e, None);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), 4, "{text}");
            assert_eq!(lines[0], format!(r"tool #0 `b\nc` at /properties/{shown}"));
            assert!(lines.iter().skip(1).all(|l| l.starts_with("  ")), "{text}");
            assert!(!text.contains(['\t', '\u{2028}', '\u{202e}']), "{text}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_read_not_called_missing() {
        let dir =
            std::env::temp_dir().join(format!("toolwire-explain-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("err.txt");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("mkfifo is not available; skipped");
            return;
        }
        let body = "tools.0.custom.input_schema: JSON schema is invalid";
        let writer = {
            let fifo = fifo.clone();
            // Opening a FIFO for writing waits for its reader.
            std::thread::spawn(move || std::fs::write(&fifo, body))
        };
        let read = error_text(fifo.as_os_str());
        writer.join().unwrap().unwrap();
        assert_eq!(read.unwrap(), body);
        // No writer and nothing to read: empty, said of the FIFO.
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(&fifo, ""))
        };
        let err = error_text(fifo.as_os_str()).unwrap_err().to_string();
        writer.join().unwrap().unwrap();
        assert!(err.contains("err.txt") && err.contains("empty"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_past_the_cap_is_said_to_be_one() {
        let err = error_text("/dev/zero".as_ref()).unwrap_err().to_string();
        assert!(
            err.starts_with("/dev/zero: ")
                && err.contains("not a regular file (a character device)")
                && err.contains("larger than the limit"),
            "{err}"
        );
        assert!(!err.contains("no such file"), "{err}");
    }

    #[test]
    fn path_looking_arguments_are_not_error_text() {
        // Unit tests run in the crate's folder, which has `src/`.
        for p in [
            "err.json",
            "src/err",
            "./body",
            "/none",
            "./body.txt",
            "/tmp/x/none.json",
        ] {
            assert!(looks_like_path(p), "{p}");
        }
        for t in [
            "Invalid schema for function 'f': In context=('properties', 'x')",
            "400 Bad Request",
            "n/a",
            "no-such-folder/err",
            "",
        ] {
            assert!(!looks_like_path(t), "{t}");
        }
    }
}
