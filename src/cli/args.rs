//! `toolwire args --schema FILE --call JSON`: check one tool call's arguments against the
//! tool's declared schema. Exit 0 valid, 1 problems (arguments that are not JSON too), 2 bad
//! input.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::args::{ArgsSchema, Coercions, Sent, envelope, inexact_numbers};
use crate::cli::{EXIT_FINDINGS, EXIT_OK};
use crate::error::{Error, Place, Result};
use crate::input;
use crate::json::{self, Limits};

#[derive(Debug, clap::Args)]
pub struct ArgsArgs {
    #[command(flatten)]
    pub no_project: crate::cli::NoProject,
    /// The declared schema: a bare JSON Schema, or one tool definition (OpenAI
    /// `{"type":"function","function":{...}}` or flat, Anthropic `input_schema`, MCP
    /// `inputSchema`, Gemini `parameters`/`parametersJsonSchema`). A known non-standard type
    /// spelling (Gemini's `OBJECT`, `STRING`; `dict`, `float`) is checked as the JSON Schema
    /// type it means, as `repair` and `compile` read it, with a note; `any` is read as any
    /// value (no type checked there), with a note. A count keyword written as Gemini's int64
    /// string (`"maxItems": "2"`; Gemini's REST `Schema` types `maxItems`, `minItems`,
    /// `maxLength`, `minLength`, `maxProperties`, `minProperties` as int64, which JSON carries
    /// as a string) is checked as that integer, with a note; so is `minimum` or `maximum`
    /// written as a string holding a JSON number (`"minimum": "1.5"`; Gemini types them as
    /// double, which protobuf's JSON also reads from a string), checked as that number.
    /// Files holding several tools (any shape `check` reads) need `--tool`, unless `--call` is a
    /// whole tool call, whose name then picks the tool.
    #[arg(long, value_name = "FILE")]
    pub schema: PathBuf,
    /// Which tool of `--schema` to check against, by name (needed when it holds several).
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,
    /// The call's arguments: JSON text, a JSON string holding the JSON text (OpenAI's
    /// `arguments`), `@FILE`, or `-` (or `@-`) for standard input. Text that is not JSON is
    /// the model's to fix: a retry message, exit 1. A file (or standard input) with nothing in
    /// it, or only whitespace, is bad input (exit 2): pass `--call ''` for arguments a model sent
    /// empty.
    #[arg(long, value_name = "JSON")]
    pub call: String,
    /// Allowed coercions: `json` (JSON text to array/object), `boolean` (true/false/yes/no/
    /// on/off/1/0), `number` (numeric text), or `all`. Comma-separated or repeated. Inside an
    /// `anyOf`/`oneOf` each alternative is tried on its own, and text is coerced only when the
    /// alternatives it then satisfies agree on the value (`"1"` against integer-or-boolean is
    /// left as sent, and the problem says why); when it satisfies none, text the alternatives
    /// whose problems are reported all coerce alike is coerced, as outside a union.
    #[arg(long, value_name = "KINDS", value_delimiter = ',')]
    pub coerce: Vec<String>,
    /// Output: `human` (the retry message for the model on standard output; notes on
    /// coercions and on how numbers and types were read on standard error) or `json` (the
    /// full report). Bad input (exit 2: a schema refused, a file not read, a call that is
    /// no tool's) writes no report in either: standard output stays empty and the error is
    /// on standard error, as for `repair` and `compile`.
    #[arg(long, default_value = "human", value_parser = ["human", "json"])]
    pub format: String,
}

/// Where `args --format json` puts `arguments` before writing it apart: a string no tool
/// name or other field is.
const ARGUMENTS_PLACE: &str = "\u{0}toolwire: arguments";

pub fn run(args: ArgsArgs) -> Result<u8> {
    args.no_project
        .refuse("args", "the schema and the call it is given")?;
    let call_file = args.call.strip_prefix('@').unwrap_or(&args.call);
    crate::cli::stdin_once([
        ("--schema", args.schema.as_os_str()),
        ("--call", std::ffi::OsStr::new(call_file)),
    ])?;
    let coerce = parse_coercions(&args.coerce)?;
    // The text of `@FILE` or `-`, kept for `inexact_numbers`.
    let mut call_text: Option<String> = None;
    let mut sent = match args
        .call
        .strip_prefix('@')
        .or((args.call == "-").then_some("-"))
    {
        Some(path) => {
            let text = call_file_text(Path::new(path))?;
            let sent = Sent::read(&text);
            call_text = Some(text);
            sent
        }
        None => {
            if let Some(n) = several_values(&args.call) {
                return Err(Error::Usage(format!(
                    "--call: the text {}",
                    several_values_said(n).trim_start_matches("the file ")
                )));
            }
            Sent::read(&args.call)
        }
    };
    let file_hint = call_text
        .is_none()
        .then(|| file_hint(&args.call, &sent))
        .flatten();
    // Without --tool, a whole call pasted as the arguments names the tool it is for: in a file
    // of several tools that picks the schema (read here with no declared keys, since which
    // tool's keys count is what is being decided; checked again below with the tool's own).
    // A message of calls to several tools (or none) picks no tool: in a file of several, its
    // refusal is the answer, since --tool would only lead to it.
    let mut unpicked = None;
    let called = match (&args.tool, &sent) {
        (None, Sent::Value(call)) => {
            match envelope::read(call_text.as_deref().unwrap_or(&args.call), call, &[]) {
                Ok(e) => e.and_then(|e| e.name),
                // Shapes that differ in where the arguments are (`args` or `arguments`) name
                // the tool alike: it picks the schema, whose keys may settle the shape, and
                // the read below refuses the call if they do not.
                Err(envelope::Refused::Ambiguous(_)) => {
                    call.get("name").and_then(Value::as_str).map(str::to_string)
                }
                // Free text, a piece of a stream or a tool's result is refused whichever tool
                // it calls: at once, not by asking for --tool in a file of several.
                Err(
                    r @ (envelope::Refused::FreeText { .. }
                    | envelope::Refused::StreamPiece { .. }
                    | envelope::Refused::ToolResult { .. }),
                ) => {
                    unpicked = Some(format!("--call: {}", r.message()));
                    None
                }
                // Calls all to one tool pick it, so that the refusal below names the calls
                // rather than asking for --tool.
                Err(r @ envelope::Refused::NotOneCall { .. }) => {
                    let one = r.one_tool().map(str::to_string);
                    if one.is_none() {
                        unpicked = Some(format!("--call: {}", r.message()));
                    }
                    one
                }
            }
        }
        _ => None,
    };
    let declared = declared_schema(
        &args.schema,
        args.tool.as_deref(),
        called.as_deref(),
        unpicked.as_deref(),
    )?;
    let tool = declared.name.as_deref();
    let mut compiled = ArgsSchema::new(&declared.schema).map_err(|p| {
        Error::input(
            &args.schema,
            Place::Pointer(format!("{}{}", declared.pointer, p.pointer)),
            p.message,
        )
    })?;
    compiled.quote_numbers_as_written(&declared.text, &declared.pointer);
    // The schema's numbers read as another value than written (a bound past 17 significant
    // digits): what is judged against one is judged against the float, so the verdict may not
    // hold for the number as written. Said, never silent; the call is the model's and cannot
    // fix the schema, so it is no problem of the call. Pointers are into the file (its line).
    let schema_inexact: Vec<json::InexactNumberAt> =
        json::InexactNumberAt::all_in(&declared.text, declared.line)
            .into_iter()
            .filter(|n| {
                n.pointer
                    .strip_prefix(declared.pointer.as_str())
                    .is_some_and(|r| r.is_empty() || r.starts_with('/'))
            })
            .collect();
    // A whole tool call pasted as the arguments: its arguments are what is checked, and the
    // rest of the report (numbers as sent, duplicate keys) reads their text.
    let mut lookalike: Option<(&'static str, String)> = None;
    let envelope = match &sent {
        Sent::Value(call) => {
            let text = call_text.as_deref().unwrap_or(&args.call);
            let properties: Vec<&str> = declared
                .schema
                .get("properties")
                .and_then(Value::as_object)
                .map(|m| m.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let read = envelope::read(text, call, &properties)
                .map_err(|r| Error::Usage(format!("--call: {}", r.message())))?;
            if read.is_none() {
                // Read as the arguments because the schema declares their keys: a value with
                // a call's shape must not pass silently, so a note says what it looks like.
                let shape = match envelope::read(text, call, &[]) {
                    Ok(Some(e)) => Some(e.within.map_or(e.shape, |w| w.container)),
                    Ok(None) => None,
                    Err(envelope::Refused::Ambiguous(shapes)) => shapes.first().copied(),
                    Err(envelope::Refused::NotOneCall { container, .. }) => Some(container),
                    Err(envelope::Refused::FreeText { shape, .. }) => Some(shape),
                    Err(envelope::Refused::StreamPiece { event, .. }) => Some(event),
                    Err(envelope::Refused::ToolResult { container, .. }) => Some(container),
                };
                lookalike = shape.map(|s| {
                    // A set: the arguments may have as many keys as the schema has properties.
                    let declared: std::collections::HashSet<&str> =
                        properties.iter().copied().collect();
                    let keys: Vec<&String> = call
                        .as_object()
                        .map(|m| m.keys().filter(|k| declared.contains(k.as_str())).collect())
                        .unwrap_or_default();
                    (s, listed_keys(&keys))
                });
            }
            read
        }
        _ => None,
    };
    if let (Some(several), None) = (&declared.picked_by_call, &envelope) {
        // Read with the picked tool's keys, the call is its arguments after all: nothing
        // named the tool.
        return Err(Error::input(
            &args.schema,
            Place::File,
            format!("{several}; choose one with --tool NAME"),
        ));
    }
    if let Some(e) = &envelope {
        if let (Some(called), Some(tool)) = (&e.name, tool)
            && called != tool
        {
            return Err(Error::Usage(format!(
                "--call: the call is to the tool {called:?}, but the schema is {tool:?}'s, so its arguments \
                 are not checked against it; check them against {called:?}'s schema"
            )));
        }
        sent = Sent::read_call(&e.text);
        call_text = Some(e.text.clone());
    }
    let mut report = compiled.check_sent(&sent, coerce);
    // Patterns valid in ECMA-262 that the engine cannot compile were left out: a valid
    // verdict there is the other keywords' alone, which must be said, never silent.
    // Pointers are into the file, as the schema's other places are.
    let unchecked: Vec<crate::args::UncheckedPattern> = match &sent {
        Sent::Value(call) => in_file(compiled.unchecked_patterns(call), &declared.pointer, |u| {
            &mut u.schema_pointer
        }),
        _ => Vec::new(),
    };
    // Types written in another spelling (`str`, `STRING`), checked as the type they mean, as
    // `repair` and `compile` read them: said, never silent. Pointers are into the file.
    let spellings = in_file(compiled.type_spellings(), &declared.pointer, |t| {
        &mut t.pointer
    });
    // Count keywords written as Gemini's int64 strings, checked as their integers: said, never
    // silent. Pointers are into the file.
    let int64_strings = in_file(compiled.int64_strings(), &declared.pointer, |i| {
        &mut i.pointer
    });
    // `minimum`/`maximum` written as Gemini's double strings, checked as their numbers: said,
    // never silent. Pointers are into the file.
    let double_strings = in_file(compiled.double_strings(), &declared.pointer, |d| {
        &mut d.pointer
    });
    // Numbers checked as another value than sent (big integers), and keys written twice
    // (checked with their last value): said, never silent.
    let (mut inexact, twice) = match &sent {
        Sent::Value(_) => {
            let text = call_text.as_deref().unwrap_or(&args.call);
            report.quote_numbers_as_sent(text);
            let inexact = inexact_numbers(text);
            report.cannot_vouch_for(&compiled, &inexact);
            (inexact, crate::args::duplicate_keys(text))
        }
        _ => (Vec::new(), Vec::new()),
    };
    // Numeric text read inexactly has its problem already; it is listed and noted alike.
    inexact.extend(
        report
            .coercions
            .iter()
            .filter_map(crate::args::Coercion::inexact),
    );
    if args.format == "json" {
        if let Some(hint) = &file_hint {
            eprintln!("toolwire: {}", crate::report::escape_output(hint));
        }
        let mut out = json!({
            "tool": tool,
            "valid": report.is_valid(),
            "arguments": report.arguments,
            "problems": report.problems,
            "coercions": report.coercions,
            "absent_nulls": report.absent_nulls,
            // Programs get each place whole; the human output keeps long ones shortened.
            "message": report.retry_message_whole(tool, MAX_LISTED),
        });
        for (p, written) in report
            .problems
            .iter()
            .zip(out["problems"].as_array_mut().into_iter().flatten())
        {
            written["message"] = json!(p.message_whole());
        }
        if let (Some(text), Some(fields)) = (&report.arguments_text, out.as_object_mut()) {
            // Beside `arguments` (null then), which stays the parsed value or nothing.
            fields.shift_insert(3, "arguments_text".to_string(), json!(text));
        }
        if let Some(e) = &envelope {
            out["call"] = json!({
                "shape": e.shape,
                "name": e.name,
                "arguments_at": e.pointer,
                "picked_tool": declared.picked_by_call.is_some(),
            });
            if e.left_out {
                out["call"]["arguments_left_out"] = json!(true);
            }
            if let Some(w) = &e.within {
                out["call"]["within"] = json!({"container": w.container, "call_at": w.call_at});
                if !w.free_text.is_empty() {
                    out["call"]["within"]["skipped_custom_calls"] = w
                        .free_text
                        .iter()
                        .map(|(at, name)| json!({"call_at": at, "name": name}))
                        .collect();
                }
            }
        }
        if let Some((shape, _)) = &lookalike {
            out["read_as_arguments_though_shaped_as"] = json!(shape);
        }
        if !unchecked.is_empty() {
            out["unchecked_patterns"] = json!(unchecked);
        }
        if !inexact.is_empty() {
            out["inexact_numbers"] = json!(inexact);
        }
        if !schema_inexact.is_empty() {
            out["schema_inexact_numbers"] = json!(schema_inexact);
        }
        if !spellings.is_empty() {
            out["type_spellings"] = json!(spellings);
        }
        if !int64_strings.is_empty() {
            out["int64_strings"] = json!(int64_strings);
        }
        if !double_strings.is_empty() {
            out["double_strings"] = json!(double_strings);
        }
        if !twice.is_empty() {
            out["duplicate_keys"] = json!(twice);
        }
        // Named as `check`, `repair` and `compile` name the file's (`duplicate_keys` there);
        // here that name is the arguments', so the schema's take the prefix its numbers take.
        if !declared.duplicate_keys.is_empty() {
            out["schema_duplicate_keys"] = json!(declared.duplicate_keys);
        }
        // The problems and the retry message quote the model's values: redacted as run logs
        // are (a key the model was led to write out). `arguments` is the data, kept as is.
        let redactor = crate::evidence::runlog::Redactor::from_env();
        for field in ["problems", "message"] {
            if let Some(v) = out.get_mut(field) {
                redactor.redact_json(v);
            }
        }
        // Numbers as the model sent them (`-0`, `1e2`), as the human output quotes them; in
        // `arguments` (written apart, then put in its place) one read as another value too,
        // which elsewhere (`read_as`) must stay the float read.
        let text = call_text.as_deref().unwrap_or(&args.call);
        let arguments = match &sent {
            Sent::Value(_) => Some(std::mem::replace(
                &mut out["arguments"],
                json!(ARGUMENTS_PLACE),
            )),
            _ => None,
        };
        let written = serde_json::to_string_pretty(&out).unwrap_or_default();
        let written = match arguments {
            Some(arguments) => {
                let value = serde_json::to_string_pretty(&arguments).unwrap_or_default();
                let value = crate::args::respell_arguments_as_sent(text, &value);
                crate::args::respell_as_sent(text, &written).replacen(
                    &json!(ARGUMENTS_PLACE).to_string(),
                    &value.replace('\n', "\n  "),
                    1,
                )
            }
            None => written,
        };
        println!("{written}");
    } else {
        // The arguments are a model's output and the names the schema's: escaped for a
        // terminal (`report::escape_output`). `out` is standard output: the retry message, as
        // it goes to the model. `notes` are for whoever runs the check (coercions made, how
        // numbers and types were read): standard error, so they never reach the model.
        let mut out = String::new();
        let mut notes = file_hint.map(|h| h + "\n").unwrap_or_default();
        use std::fmt::Write;
        if report.is_valid() && report.absent_nulls.is_empty() {
            out.push_str("ok: the arguments match the schema\n");
        } else if report.is_valid() {
            // A server validating the declared schema (Pydantic, zod) rejects these nulls:
            // the call is ok only without them, which standard output must say, not a note.
            let (pronoun, noun) = match report.absent_nulls.len() {
                1 => ("it", "null"),
                _ => ("them", "nulls"),
            };
            let _ = writeln!(
                out,
                "ok after treating {noun} as absent at {}: send the arguments without {pronoun} \
                 (--format json gives them)",
                report.absent_nulls.join(", ")
            );
        } else {
            let _ = writeln!(out, "{}", report.retry_message_within(tool, MAX_LISTED));
        }
        if let Some(e) = &envelope {
            let _ = writeln!(
                notes,
                "note: the call is a whole {} (the tool {}); checked {}{}",
                e.shape,
                e.name
                    .as_deref()
                    .map_or("unnamed".to_string(), |n| format!("{n:?}")),
                if e.left_out {
                    format!(
                        "`{{}}` as its arguments: it has no {} (Gemini leaves `args` out of a \
                         call without arguments)",
                        e.pointer
                    )
                } else {
                    format!("its arguments, at {}", e.pointer)
                },
                if declared.picked_by_call.is_some() {
                    ", against that tool's schema, picked by the call's name (no --tool given)"
                } else {
                    ""
                }
            );
            if let Some(w) = &e.within {
                let _ = writeln!(
                    notes,
                    "note: the call, at {}, is the only tool call of the whole {} given{}",
                    w.call_at,
                    w.container,
                    envelope::free_text_said(&w.free_text)
                );
            }
        }
        if let Some((shape, keys)) = &lookalike {
            let _ = writeln!(
                notes,
                "note: the value has the shape of a whole {shape}, but the schema declares its \
                 keys {keys}, so it was checked as the arguments (a value is read as a call only \
                 when one of its keys is undeclared); if it is a call, pass its arguments alone"
            );
        }
        for u in &unchecked {
            let _ = writeln!(
                notes,
                "warning: {}: the pattern {} (at {}) was not checked: it {}",
                // A place args does not follow (a remote `$ref`, `unevaluatedProperties`).
                u.argument
                    .as_deref()
                    .unwrap_or("(a place in the arguments not followed)"),
                Value::String(u.pattern.clone()),
                u.schema_pointer,
                u.why
            );
        }
        for c in &report.coercions {
            let _ = writeln!(
                notes,
                "coerced {}: {} -> {} ({})",
                // The arguments whole: a string where the object goes (an object encoded
                // twice).
                if c.pointer.is_empty() {
                    "the arguments"
                } else {
                    &c.pointer
                },
                c.long_numeric_text()
                    .unwrap_or_else(|| Value::String(c.from.clone()).to_string()),
                c.to,
                match c.kind {
                    crate::args::CoercionKind::JsonText => "JSON text",
                    crate::args::CoercionKind::BooleanText => "boolean text",
                    crate::args::CoercionKind::NumericText => "numeric text",
                }
            );
        }
        // When the call is valid, standard output already said so.
        if !report.is_valid() {
            for p in &report.absent_nulls {
                let _ = writeln!(notes, "null treated as absent: {p}");
            }
        }
        for n in &inexact {
            let at = if n.pointer.is_empty() {
                "(the arguments)"
            } else {
                &n.pointer
            };
            let written = crate::json::shown_number(&n.written);
            // Only a number some keyword may judge by the digits its float does not hold has
            // a `number-precision` problem; of the others the verdict holds as sent.
            let judged = report
                .problems
                .iter()
                .any(|p| p.pointer == n.pointer && p.keyword == "number-precision");
            let _ = if judged {
                writeln!(
                    notes,
                    "note: {at}: {written} is checked as {0}, the nearest 64-bit float: what is \
                     said of {at} (valid or not) is said of {0}, and may not hold for {written}",
                    n.read_as
                )
            } else {
                writeln!(
                    notes,
                    "note: {at}: {written} is checked as {0}, the nearest 64-bit float: nothing \
                     the schema checks at {at} rests on the digits the float does not hold, so \
                     what is said of {at} holds for {written} as well",
                    n.read_as
                )
            };
        }
        for n in &schema_inexact {
            let _ = writeln!(
                notes,
                "note: the schema's {}{} {} is read as the 64-bit float {}, whose shortest \
                 spelling differs from what is written: what is judged against it is judged \
                 against {3}, and may not hold for the number as written ({})",
                n.line.map(|l| format!("line {l}, ")).unwrap_or_default(),
                if n.pointer.is_empty() {
                    "(root)"
                } else {
                    &n.pointer
                },
                json::shown_number(&n.written),
                n.read_as,
                json::EXACT_NUMBERS
            );
        }
        // Worded and placed as `check` words the file's (its name, then the place).
        let schema_file = crate::error::file_name(&args.schema);
        for note in crate::cli::check::duplicate_key_notes(&declared.duplicate_keys, "read") {
            let _ = writeln!(notes, "{schema_file}: {note}");
        }
        for d in &twice {
            let _ = writeln!(
                notes,
                "note: {}: the key {:?} is written twice; checked with its last value, as \
                 serde_json reads it (a provider's or a tool's parser may keep the first)",
                if d.pointer.is_empty() {
                    "(the arguments)"
                } else {
                    &d.pointer
                },
                d.key
            );
        }
        for t in &spellings {
            if t.read_as == crate::args::ANY_VALUE {
                // No type is meant, so none is checked; `repair` refuses to write one.
                let _ = writeln!(
                    notes,
                    "note: {}: the type {:?} is not JSON Schema's; read as any value (no type \
                     checked there), as its name says",
                    t.pointer, t.written
                );
                continue;
            }
            let _ = write!(
                notes,
                "note: {}: the type {:?} is not JSON Schema's; checked as {:?}, as `repair` and \
                 `compile` read it",
                t.pointer, t.written, t.read_as
            );
            match t.unchecked {
                Some(u) => {
                    let _ = writeln!(notes, " ({u} is not checked)");
                }
                None => notes.push('\n'),
            }
        }
        for i in &int64_strings {
            let _ = writeln!(
                notes,
                "note: {}: {:?} is a JSON string, not JSON Schema's integer; checked as {}, as \
                 Gemini's REST reference writes this keyword (an int64, which JSON carries as a \
                 string)",
                i.pointer, i.written, i.read_as
            );
        }
        for d in &double_strings {
            let _ = writeln!(
                notes,
                "note: {}: {:?} is a JSON string, not JSON Schema's number; checked as {}, as \
                 Gemini's `Schema` types this keyword (a double, which protobuf's JSON also \
                 reads from a string)",
                d.pointer, d.written, d.read_as
            );
        }
        // Redacted as run logs are: the values quoted are a model's output.
        let redactor = crate::evidence::runlog::Redactor::from_env();
        print!("{}", crate::report::escape_output(&redactor.redact(&out)));
        for line in notes.lines() {
            eprintln!(
                "toolwire: {}",
                crate::report::escape_output(&redactor.redact(line))
            );
        }
    }
    Ok(if report.is_valid() {
        EXIT_OK
    } else {
        EXIT_FINDINGS
    })
}

/// How many JSON values `text` holds when it is two or more of them and nothing else (JSON
/// Lines, two calls pasted one after the other). That is the user's input, not one arguments
/// text a model wrote cut or malformed: a retry message about "trailing characters" would tell
/// the model to fix what it never sent. An OpenAI `arguments` string holding such text is the
/// model's, and is read inside its call as before.
fn several_values(text: &str) -> Option<usize> {
    let mut n = 0;
    for value in serde_json::Deserializer::from_str(text).into_iter::<serde::de::IgnoredAny>() {
        value.ok()?;
        n += 1;
    }
    (n >= 2).then_some(n)
}

/// The refusal of `--call` text holding `n` JSON values, said of a file.
fn several_values_said(n: usize) -> String {
    format!(
        "the file holds {n} JSON values (JSON Lines?), not one: `args` checks one call or one \
         arguments object at a time, so pass each on its own"
    )
}

/// The note for `--call` text that is not JSON but names a file: most likely `@` was left
/// out. The retry message stays the model's; the user is told, on standard error, how to
/// pass the file.
fn file_hint(call: &str, sent: &Sent) -> Option<String> {
    (matches!(sent, Sent::NotJson { .. }) && Path::new(call).is_file()).then(|| {
        format!(
            "note: --call {call:?} is not JSON but names a file: pass `@{call}` to read the file"
        )
    })
}

fn parse_coercions(kinds: &[String]) -> Result<Coercions> {
    let mut c = Coercions::NONE;
    for k in kinds {
        match k.trim() {
            "json" => c.json_text = true,
            "boolean" => c.boolean_text = true,
            "number" => c.numeric_text = true,
            "all" => c = Coercions::ALL,
            other => {
                return Err(Error::Usage(format!(
                    "--coerce {other:?}: expected json, boolean, number or all"
                )));
            }
        }
    }
    Ok(c)
}

/// The text of a `--call` file (`@FILE`, or standard input), refused (exit 2) where it cannot
/// be one call as sent: a file with nothing in it (or only whitespace) is a capture that wrote
/// nothing, a wrong file or an empty pipe, not arguments a model wrote (before: a retry message
/// for the model, "the arguments are empty", exit 1); a file of several JSON values is several
/// calls. Text that is not JSON, or JSON of another shape than the arguments, stays the model's
/// (a call cut short at its output limit is the common case): a retry message, exit 1.
fn call_file_text(path: &Path) -> Result<String> {
    let text = read_call_file(path)?;
    if let Some(nothing) = json::nothing_in(&text) {
        return Err(Error::input(
            path,
            Place::File,
            format!(
                "{nothing}: no call or arguments to check (given to `--call`); arguments a model \
                 sent as empty text are checked with `--call ''`"
            ),
        ));
    }
    if let Some(n) = several_values(&text) {
        return Err(Error::input(
            path,
            Place::File,
            format!("{} (given to `--call`)", several_values_said(n)),
        ));
    }
    Ok(text)
}

fn read_call_file(path: &Path) -> Result<String> {
    let bytes = json::read_capped(path, Limits::default()).map_err(|e| e.given_to("--call"))?;
    Ok(json::check_utf8(path, &bytes)?.to_string())
}

/// The schema a call is checked against, and where it came from.
#[derive(Debug, Clone, PartialEq)]
struct Declared {
    /// The tool's name; `None` for a bare schema.
    name: Option<String>,
    /// The parameters schema (a tool declaring none takes no arguments).
    schema: Value,
    /// JSON Pointer of `schema` within the file (within its line, for JSON Lines).
    pointer: String,
    /// The JSON text `pointer` points into (the file's, or its line's), so that problems
    /// quote the schema's numbers as written.
    text: String,
    /// The JSON Lines line (1-based) `text` is; `None` for a file of one document.
    line: Option<usize>,
    /// When the call's tool name picked this tool from several (no `--tool`): the file's tools
    /// as the error without a pick lists them ("the file holds 2 tools (a, b)").
    picked_by_call: Option<String>,
    /// The keys the file writes twice in one object, every one of the file as `check` lists
    /// them (pointers into the file, with their JSON Lines line): only the last value was
    /// read, which may name the tool or settle the schema the call is judged against, while
    /// a provider's or a server's parser may keep the first (trial 79 D1: said of `--call`
    /// only, so a verdict resting on the schema's last `type` came with no word of it).
    duplicate_keys: Vec<crate::json::duplicates::DuplicateKey>,
}

/// Reads `file` with the tool-file detection `check` uses and picks the tool: the only one, the
/// one named by `--tool` (`wanted`), or, among several and without `--tool`, the one the
/// pasted call names (`called`). A bare schema is itself the declared schema. Errors (exit 2):
/// no tools, several tools and no name, no tool by that name, two tools by it.
///
/// `unpicked` is what stands in for "choose one with --tool NAME" when the call could not
/// pick the tool and saying why is the answer (a message of calls to several tools).
fn declared_schema(
    file: &Path,
    wanted: Option<&str>,
    called: Option<&str>,
    unpicked: Option<&str>,
) -> Result<Declared> {
    // Read once: `--schema -` is standard input, which a second read would find empty.
    let bytes = json::read_capped(file, input::LIMITS).map_err(|e| e.given_to("--schema"))?;
    let set = match input::from_bytes(file, &bytes) {
        Ok(set) => set,
        Err(e) => {
            // `{}` and `true`/`false` are schemas the tool reader has no shape for.
            let value = json::check_utf8(file, &bytes)
                .and_then(|text| json::parse_str(file, text, input::LIMITS, 0));
            return match value {
                Ok(v) if v.is_boolean() || v.as_object().is_some_and(|m| m.is_empty()) => {
                    Ok(Declared {
                        name: None,
                        schema: v,
                        pointer: String::new(),
                        text: String::new(),
                        line: None,
                        picked_by_call: None,
                        // `{}` has no key, and `true`/`false` no object.
                        duplicate_keys: Vec::new(),
                    })
                }
                _ => Err(e),
            };
        }
    };
    let names = || {
        let all: Vec<&str> = set
            .tools
            .iter()
            .map(|t| t.name.as_deref().unwrap_or("(a bare schema)"))
            .collect();
        listed(&all)
    };
    let several = |n: usize| format!("the file holds {n} tools ({})", names());
    let mut picked_by_call = None;
    let (wanted, whose) = match (wanted, called, set.tools.len()) {
        (Some(name), _, _) => (Some(name), format!("--tool {name:?}")),
        (None, Some(name), 2..) => {
            picked_by_call = Some(several(set.tools.len()));
            (
                Some(name),
                format!("--call: the call is to the tool {name:?}, but"),
            )
        }
        _ => (None, String::new()),
    };
    let entry = match (wanted, set.tools.as_slice()) {
        (_, []) => {
            // A tool list's key written twice, the last empty: worded as `check` words it.
            return Err(input::empty_list_written_twice(file, &set.duplicate_keys)
                .unwrap_or_else(|| Error::input(file, Place::File, "the file holds no tools")));
        }
        (None, [one]) => one,
        (None, _) if let Some(why) = unpicked => {
            return Err(Error::Usage(why.to_string()));
        }
        (None, many) => {
            return Err(Error::input(
                file,
                Place::File,
                format!("{}; choose one with --tool NAME", several(many.len())),
            ));
        }
        (Some(name), all)
            if all
                .iter()
                .filter(|t| t.name.as_deref() == Some(name))
                .nth(1)
                .is_some() =>
        {
            return Err(Error::input(
                file,
                Place::File,
                format!(
                    "{whose}{} more than one tool has that name, so which schema a call to it \
                     meets is ambiguous; rename one",
                    if picked_by_call.is_some() { "" } else { ":" }
                ),
            ));
        }
        (Some(name), all) => all
            .iter()
            .find(|t| t.name.as_deref() == Some(name))
            .ok_or_else(|| {
                Error::input(
                    file,
                    Place::File,
                    format!(
                        "{whose}{} no such tool{}; the file holds: {}",
                        if picked_by_call.is_some() {
                            " the file declares"
                        } else {
                            ":"
                        },
                        crate::error::did_you_mean(
                            name,
                            all.iter().filter_map(|t| t.name.as_deref())
                        )
                        .map(|n| format!(" (did you mean {n:?}?)"))
                        .unwrap_or_default(),
                        names()
                    ),
                )
            })?,
    };
    Ok(Declared {
        name: entry.name.clone(),
        schema: entry
            .parameters
            .clone()
            .unwrap_or_else(|| json!({"type": "object", "additionalProperties": false})),
        pointer: entry.schema_pointer.clone(),
        text: schema_text(&bytes, entry.line),
        line: entry.line,
        picked_by_call,
        duplicate_keys: set.duplicate_keys.clone(),
    })
}

/// The JSON text of `bytes` (a UTF-8 file the tool reader read) a schema pointer points
/// into: the whole file, or for JSON Lines the 1-based `line`.
fn schema_text(bytes: &[u8], line: Option<usize>) -> String {
    let text = String::from_utf8_lossy(bytes);
    match line {
        Some(n) => text.split('\n').nth(n - 1).unwrap_or_default().to_string(),
        None => text.into_owned(),
    }
}

/// How many tool names an error lists before it says how many more there are: a file of 500
/// tools must not turn one error into a screenful.
const NAMES_LISTED: usize = 20;

/// How many problems the retry message lists (text output and JSON `message`), as `explain`
/// caps its own: arguments with 300,000 undeclared keys made a 40 MB message no model takes
/// back, and the first problems are the ones to fix first. JSON's `problems` keeps them all.
const MAX_LISTED: usize = crate::explain::MAX_PROBLEMS;

/// Argument keys quoted and joined by commas, the first [`NAMES_LISTED`] of them.
fn listed_keys(keys: &[&String]) -> String {
    let quoted: Vec<String> = keys.iter().map(|k| format!("{k:?}")).collect();
    let quoted: Vec<&str> = quoted.iter().map(String::as_str).collect();
    listed(&quoted)
}

/// `names` joined by commas, the first [`NAMES_LISTED`] of them and then "and N more".
fn listed(names: &[&str]) -> String {
    let shown = names[..names.len().min(NAMES_LISTED)].join(", ");
    match names.len().saturating_sub(NAMES_LISTED) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

/// `items` with each one's pointer into the schema (`pointer_of`) made a pointer into the
/// file, below `prefix`, the schema's own place there.
fn in_file<T>(mut items: Vec<T>, prefix: &str, pointer_of: fn(&mut T) -> &mut String) -> Vec<T> {
    for item in &mut items {
        let p = pointer_of(item);
        p.insert_str(0, prefix);
    }
    items
}
#[cfg(test)]
mod tests {
    use super::*;

    fn declared_in(doc: &Value, tool: Option<&str>) -> Result<Declared> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("tools.json");
        std::fs::write(&file, doc.to_string()).unwrap();
        declared_schema(&file, tool, None, None)
    }

    /// Keys the schema file writes twice are kept with the schema read (trial 79 D1: `args`
    /// resolved a property's `type` written twice, and a tool's `name`, in silence), with
    /// their pointers into the file and, in JSON Lines, their line, as `check` lists them.
    #[test]
    fn keys_the_schema_file_writes_twice_are_kept() {
        use crate::json::duplicates::DuplicateKey;
        let dir = tempfile::tempdir().unwrap();
        let key = |line, pointer: &str, key: &str| DuplicateKey {
            line,
            pointer: pointer.to_string(),
            key: key.to_string(),
        };
        let tool = r#"{"type":"function","function":{"name":"a","name":"b","parameters":
            {"type":"object","properties":{"x":{"type":"string"},"x":{"type":"integer"}}}}}"#;
        for (name, text, want) in [
            (
                "tools.json",
                format!("[{tool}]"),
                vec![
                    key(None, "/0/function", "name"),
                    key(None, "/0/function/parameters/properties", "x"),
                ],
            ),
            (
                "bare.json",
                r#"{"type":"object","properties":{},"type":"array"}"#.to_string(),
                vec![key(None, "", "type")],
            ),
            (
                "tools.jsonl",
                format!("[{}]\n", tool.replace('\n', " ")),
                vec![
                    key(Some(1), "/0/function", "name"),
                    key(Some(1), "/0/function/parameters/properties", "x"),
                ],
            ),
        ] {
            let file = dir.path().join(name);
            std::fs::write(&file, text).unwrap();
            let d = declared_schema(&file, None, None, None).unwrap();
            assert_eq!(d.duplicate_keys, want, "{name}");
        }
        // A file writing each key once has none, and `{}` (read without the tool reader) none.
        let d = declared_in(&json!({"type": "object"}), None).unwrap();
        assert!(d.duplicate_keys.is_empty());
        assert!(
            declared_in(&json!({}), None)
                .unwrap()
                .duplicate_keys
                .is_empty()
        );
    }

    /// A tool list's key written twice, the last holding no tool, is named as `check` names it
    /// (trial 46 D7: "(whole file): the file holds no tools" for an empty last list); a file
    /// without tools otherwise keeps its words.
    #[test]
    fn a_tool_list_written_twice_is_named_as_check_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("tools.json");
        let tool = r#"{"name":"a","input_schema":{"type":"object"}}"#;
        for (last, found) in [("[]", "empty"), ("null", "a JSON null")] {
            std::fs::write(&file, format!(r#"{{"tools":[{tool}],"tools":{last}}}"#)).unwrap();
            let e = declared_schema(&file, None, None, None).err().unwrap();
            assert!(
                e.to_string().contains(&format!(
                    "at /tools: no tools found (the tool list is {found}): the key `tools` is \
                     written more than once"
                )),
                "{e}"
            );
        }
        std::fs::write(&file, r#"{"tools":[]}"#).unwrap();
        let e = declared_schema(&file, None, None, None).err().unwrap();
        assert!(
            e.to_string()
                .ends_with("(whole file): the file holds no tools"),
            "{e}"
        );
    }

    /// `--call file.json` without `@` is text, not JSON: the note says how to pass the file
    /// (trial 41); text naming no file, or JSON, gets none.
    #[test]
    fn call_text_naming_a_file_gets_a_hint() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("call.json");
        std::fs::write(&file, "{}").unwrap();
        let name = file.to_str().unwrap();
        assert_eq!(
            file_hint(name, &Sent::read(name)),
            Some(format!(
                "note: --call {name:?} is not JSON but names a file: pass `@{name}` to read the file"
            ))
        );
        let missing = dir.path().join("missing.json");
        let missing = missing.to_str().unwrap();
        assert_eq!(file_hint(missing, &Sent::read(missing)), None);
        assert_eq!(file_hint("{}", &Sent::read("{}")), None);
    }

    #[test]
    fn tool_envelopes_are_unwrapped_and_bare_schemas_kept() {
        let s = json!({"type":"object","required":["a"]});
        for (doc, pointer) in [
            (
                json!({"type":"function","function":{"name":"f","parameters":s}}),
                "/function/parameters",
            ),
            (json!({"name":"f","input_schema":s}), "/input_schema"),
            (json!([{"name":"f","inputSchema":s}]), "/0/inputSchema"),
            (
                json!({"tools":[{"type":"function","function":{"name":"f","parameters":s}}]}),
                "/tools/0/function/parameters",
            ),
            (
                json!({"functionDeclarations":[{"name":"f","parametersJsonSchema":s}]}),
                "/functionDeclarations/0/parametersJsonSchema",
            ),
        ] {
            let d = declared_in(&doc, None).unwrap();
            assert_eq!(d.name.as_deref(), Some("f"), "{doc}");
            assert_eq!(d.schema, s, "{doc}");
            assert_eq!(d.pointer, pointer, "{doc}");
        }
        // A schema with a property called `name` is not a tool.
        let bare = json!({"type":"object","properties":{"name":{"type":"string"}}});
        let d = declared_in(&bare, None).unwrap();
        assert_eq!((d.name, d.schema), (None, bare));
        assert_eq!(declared_in(&json!({}), None).unwrap().schema, json!({}));
    }

    #[test]
    fn several_tools_need_a_name() {
        let doc = json!({"tools":[{"name":"a","input_schema":{"type":"object"}},
                                  {"name":"b","input_schema":{"required":["x"]}}]});
        let e = declared_in(&doc, None).unwrap_err().to_string();
        assert!(
            e.contains("2 tools (a, b); choose one with --tool NAME"),
            "{e}"
        );
        let d = declared_in(&doc, Some("b")).unwrap();
        assert_eq!(d.schema, json!({"required":["x"]}));
        let e = declared_in(&doc, Some("c")).unwrap_err().to_string();
        assert!(
            e.contains("--tool \"c\": no such tool; the file holds: a, b"),
            "{e}"
        );
        assert!(declared_in(&json!({"tools":[]}), None).is_err());
    }

    /// A file of many tools: the error names the closest tool first and lists at most
    /// [`NAMES_LISTED`] names, then how many more.
    #[test]
    fn unknown_tool_names_the_closest_and_caps_the_list() {
        let tools: Vec<Value> = (0..45)
            .map(|i| json!({"name": format!("tool_{i:02}"), "input_schema": {"type":"object"}}))
            .chain([json!({"name": "get_weather", "input_schema": {"type":"object"}})])
            .collect();
        let doc = json!({ "tools": tools });
        let e = declared_in(&doc, Some("get_wether"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(r#"--tool "get_wether": no such tool (did you mean "get_weather"?); the file holds: tool_00, tool_01,"#),
            "{e}"
        );
        assert!(e.ends_with("tool_18, tool_19 and 26 more"), "{e}");
        assert!(!e.contains("tool_20"), "{e}");
        let e = declared_in(&doc, None).unwrap_err().to_string();
        assert!(e.contains("the file holds 46 tools (tool_00,"), "{e}");
        assert!(e.contains("tool_19 and 26 more); choose one"), "{e}");
        // Nothing close: no guess.
        let e = declared_in(&doc, Some("send_email"))
            .unwrap_err()
            .to_string();
        assert!(!e.contains("did you mean"), "{e}");
    }

    /// A `--call` file with nothing in it is the user's input, refused naming the file (exit
    /// 2), as a file of several values is; a file that is not JSON or holds JSON of another
    /// shape is read, for the retry message (trial: `--call @empty` gave the model "the
    /// arguments are empty", exit 1).
    #[test]
    fn an_empty_call_file_is_refused_and_a_malformed_one_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        for (name, text, said) in [
            (
                "empty.json",
                "",
                "(whole file): empty file: no call or arguments to check",
            ),
            ("bom.json", "\u{feff}", "(whole file): empty file: no call"),
            (
                "blank.json",
                " \n\t\n",
                "(whole file): no JSON in it: only whitespace: no call",
            ),
            ("two.jsonl", "{}\n{}\n", "the file holds 2 JSON values"),
        ] {
            let path = at(name, text);
            let e = call_file_text(&path).unwrap_err();
            assert!(matches!(e, Error::Input { .. }), "{name}: {e:?}");
            let e = e.to_string();
            assert!(e.contains(name) && e.contains(said), "{name}: {e}");
            assert!(e.contains("(given to `--call`)"), "{name}: {e}");
        }
        for text in ["{\"a\":", "[1,2]", "\"str\"", "{city: 1}", "{}"] {
            let path = at("call.json", text);
            assert_eq!(call_file_text(&path).unwrap(), text);
        }
        // A folder is refused as a path, by the reader.
        let e = call_file_text(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("is a folder, not a file (given to `--call`)"),
            "{e}"
        );
    }

    #[test]
    fn several_json_values_are_counted_and_one_or_broken_text_is_not() {
        assert_eq!(several_values("{\"a\":1}\n{\"a\":2}\n"), Some(2));
        assert_eq!(several_values("{} [] 3"), Some(3));
        assert_eq!(several_values("{\"a\":1}"), None);
        // The second value cut short: one arguments text with trailing junk, the model's.
        assert_eq!(several_values("{\"a\":1}\n{\"a\":"), None);
        assert_eq!(several_values("{city: 1}"), None);
    }

    #[test]
    fn coercion_kinds_parse() {
        let c = parse_coercions(&["json".into(), "number".into()]).unwrap();
        assert!(c.json_text && c.numeric_text && !c.boolean_text);
        assert_eq!(parse_coercions(&["all".into()]).unwrap(), Coercions::ALL);
        assert!(parse_coercions(&["bool".into()]).is_err());
    }
}
