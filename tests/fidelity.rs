//! Fidelity of the offline target models against public reports.
//!
//! Every rejection in `reports/documented/reports.yaml` (the public reports of the project's
//! evidence file, imported verbatim: a provider's error text as quoted, with a minimal schema)
//! that has a schema is replayed through its target's offline model, exactly as the prober would send it (no
//! wire baseline), and the answer is read by the target's reader. A report is reproduced
//! exactly when:
//! - the model rejects the schema;
//! - the message template matches: one line of the model's message appears in the report's
//!   text, or the report's whole text (at least 20 characters) appears in the model's answer,
//!   after unescaping JSON, replacing numbers by `N` (indices and lengths differ between a real
//!   request and the minimal schema) and collapsing whitespace;
//! - the path the messages name is the same (read by the same extractor from both texts,
//!   numbers replaced likewise; `request.` and `generate_content_request.` wrappers dropped).
//!
//! Fidelity (% exact) is printed per target. Reports the models do not reproduce are listed in
//! [`KNOWN_MISSES`] with the reason; the test fails if a listed report becomes exact (so the
//! list stays honest) or an unlisted one is missed.
//!
//! The keyless Gemini models are also held to the in-process proto snapshot engine over the
//! whole catalog (`keyless_gemini_models_parse_like_the_proto_engine`).

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Value, json};
use toolwire::evidence::Verdict;
use toolwire::target::{self, Credential, Secret, WireOptions};
use toolwire::tool::ToolDef;

/// The fields of a documented report entry this test reads (the file has more).
#[derive(Debug, Deserialize)]
struct Report {
    id: String,
    #[serde(default)]
    provider: String,
    #[serde(default)]
    route: String,
    #[serde(default)]
    strict: String,
    /// The error text as the report quotes it.
    #[serde(default, rename = "quote")]
    error_text: String,
    #[serde(default)]
    schema: String,
    #[serde(default)]
    outcome: String,
}

/// Reports the models do not reproduce exactly, and why.
const KNOWN_MISSES: &[(&str, &str)] = &[
    (
        "oai-name-pattern-with-dot-variant",
        "the model follows OpenAI's documented name rule (no dots, openai-chat-function-name-and-count, newer), so it prints the pattern without the dot this 2025-06 report shows",
    ),
    (
        "bedrock-name-over-64-converse",
        "no verbatim text in the report (the model rejects, in AWS's general validation wording, inferred)",
    ),
    (
        "bedrock-strict-ref-nonexistent",
        "the report's $ref target is a UUID that the minimal schema replaces with a placeholder",
    ),
    (
        "bedrock-cohere-invalid-combination",
        "model-specific (Cohere Command R on Converse); the model stands for Claude, which accepts this schema",
    ),
    (
        "anth-2020-12-property-values-strings",
        "older docs link (docs.anthropic.com, 2025-04); the model uses the 2026-08 link (anth-2020-12-docs-url-change)",
    ),
    (
        "anth-name-claude-desktop-remote",
        "Claude Desktop's own wrapper (FrontendRemoteMcpToolDefinition), not the Messages API",
    ),
    (
        "anth-input-schema-field-missing",
        "the report's text is truncated mid-path (`tools.0.input_sch`)",
    ),
    (
        "azure-parameters-required",
        "2024 preview API (@azure/openai 1.0.0-beta.10); the v1 API follows OpenAI, where parameters may be omitted",
    ),
    (
        "azure-parameters-null",
        "no verbatim text in the report (the model rejects; wording inferred)",
    ),
    (
        "azure-required-not-in-properties",
        "no verbatim text; the rule comes from a code-review note, not an observed answer, and is not modelled",
    ),
    (
        "azure-strict-whole-request",
        "no verbatim text in the report (the model rejects)",
    ),
    (
        "cloudflare-responses-custom-tool-type",
        "no Cloudflare Workers AI target",
    ),
    (
        "cohere-openrouter-pattern-regex",
        "the exact pattern was not retained; the one in the report is valid in the regex dialect modelled",
    ),
    (
        "vercel-ai-vertex-anyof-only-field",
        "the schema is the client's input; the wire schema after the AI SDK's conversion is not shown, and the input's type list fails the parse stage first",
    ),
    (
        "aichat-empty-properties-generic",
        "mid-2024 generic wording; by late 2024 the same rule named the field (pipecat-properties-empty-object), which the model follows",
    ),
    (
        "directus-enum-only-string",
        "schema reconstructed by the reporter: its type list fails the parse stage before the enum rule",
    ),
    (
        "supergemini-name-starts-with-digit",
        "Code Assist backend wording (`The GenerateContentRequest proto is invalid:`, [FIELD_INVALID], no colons)",
    ),
    (
        "mcp-excel-predicate-large-surface",
        "the report's copy lost the `$type` token (`predicate failed:  == Type.ARRAY`)",
    ),
    (
        "opencode-nullable-array-predicate",
        "the schema is the client's input; the wire schema after the AI SDK's conversion is not shown, and the input's type list fails the parse stage first",
    ),
    (
        "gemini-cli-nesting-depth-notion",
        "the older of two depth wordings seen nine days apart; the model uses the newer one (gitlab-mcp-nesting-depth-named)",
    ),
    (
        "discuss-nullable-as-array",
        "the error text is the poster's paraphrase",
    ),
    (
        "vercel-ai-ref-in-function-response",
        "a tool result, not a tool declaration: outside the models' scope",
    ),
    (
        "gemini-cli-512-declarations",
        "Code Assist backend wording (`The GenerateContentRequest proto is invalid:`, [FIELD_INVALID]); the model rejects with the Developer API's form",
    ),
    (
        "cline-too-many-states-text",
        "the serving-constraint size limit is not modelled (no threshold is documented)",
    ),
    (
        "epam-sdk-side-type-list",
        "raised client-side by the google-genai SDK before any request",
    ),
    (
        "workspace-mcp-typelist-const",
        "the quoted text is about the client's type-list conversion, absent from the minimal schema; the model refuses its `const` instead",
    ),
    (
        "litellm-vertex-sdk-unknown-field",
        "raised client-side by the Vertex Python SDK before any request; the Vertex Schema now has additionalProperties",
    ),
    (
        "omniroute-optional-keyword",
        "the router's paraphrase (`Cannot find field: optional`), not Google's text (the model rejects at the parse stage)",
    ),
    (
        "openswarm-prefill-enumTitles-id",
        "no verbatim text (screenshot); the model rejects at the parse stage",
    ),
    (
        "sub2api-patternProperties",
        "no verbatim text in the stored excerpt; the model rejects at the parse stage",
    ),
    (
        "litellm-default-unknown",
        "`default` was later added to the Schema message so that it no longer errors (docs-v1beta-default-added-to-avoid-unknown-field); the model accepts it",
    ),
    (
        "groq-tool-call-validation-output",
        "a generated tool call failed validation (tool_use_failed): needs a generation, not modelled",
    ),
    ("lmstudio-object-without-properties", "no LM Studio target"),
    ("lmstudio-responses-empty-parameters", "no LM Studio target"),
    (
        "moonshot-anyof-parent-type-property",
        "the official endpoint was later measured to accept this shape (moonshot-acceptance-official-endpoint); the model follows that",
    ),
    (
        "moonshot-ref-expansion-conflict",
        "the Kimi Code endpoint's wording omits the `Invalid request: ` prefix other Moonshot reports show (the model rejects)",
    ),
    (
        "ollama-empty-params-reserialized",
        "template rendering (Jinja) is not modelled; no verbatim text",
    ),
    (
        "ollama-type-array",
        "Ollama decodes a list-valued `type` since PropertyType accepts a string or a list (api/types.go); the model follows the current code",
    ),
    (
        "oai-meta-object-string",
        "the reported schema has no string 'object' at a schema position; the failing shape is not shown",
    ),
    (
        "oai-type-none-aisdk-rename",
        "the report's schema is code (`tool({ parameters: z.object(...) })`), not JSON",
    ),
    (
        "openrouter-no-tool-endpoints",
        "routing (no upstream supports tools for that model), not a schema refusal",
    ),
    ("perplexity-tool-parameters-object", "no Perplexity target"),
    (
        "unknown-upstream-anyof-keyword-pdfreader",
        "the upstream is not identified",
    ),
    ("zhipu-tool-type-empty", "no Zhipu target"),
    (
        "llamacpp-empty-object-maxlength",
        "grammar size limits are not modelled; no verbatim text",
    ),
    (
        "llamacpp-python-ref-defs",
        "llama-cpp-python's server (2023), not llama.cpp's llama-server, which resolves local $ref",
    ),
    (
        "llamacpp-not-anyof-unrecognized",
        "paraphrased (`Unrecognized Schema (exception ...)`); the model rejects",
    ),
    (
        "xai-additionalproperties-false",
        "accepted since September 2026 (xai-additionalproperties-false-accepted-later); the model follows the newer behaviour",
    ),
    (
        "xai-oneof-zed",
        "no verbatim text in the report (the model rejects)",
    ),
    (
        "xai-oci-invalid-function-schema",
        "the report blames the OCI adapter's shape, which is not shown; the shown schema is accepted",
    ),
];

/// The target a report's route corresponds to, with the request options it implies.
fn target_of(
    r: &Report,
) -> Result<
    (
        &'static str,
        WireOptions,
        BTreeMap<&'static str, &'static str>,
    ),
    &'static str,
> {
    let strict_yes = r.strict.starts_with("yes");
    let strict = if strict_yes {
        Some(true)
    } else if r.strict.starts_with("no") {
        Some(false)
    } else {
        None
    };
    let mut opts = WireOptions {
        raw: true,
        ..Default::default()
    };
    let mut extra = BTreeMap::new();
    let id: &'static str = match r.id.as_str() {
        "vercel-ai-vertex-anyof-only-field"
        | "litellm-vertex-parameters-should-be-object"
        | "9router-property-value-is-string"
        | "gemini-cli-vertex-no-type-field"
        | "astra-litellm-vertex-examples-title-default-defs"
        | "litellm-default-unknown"
        | "litellm-vertex-sdk-unknown-field"
        | "epam-sdk-side-type-list" => "vertex/v1/parameters",
        "cbdb-openai-compat-properties-list" => "gemini/openai-compat",
        // gemini-cli sent MCP schemas as `parametersJsonSchema` when it met these (the depth
        // reports' cells in reports/documented/reports.yaml say so too).
        "gemini-cli-ref-undefined-schema"
        | "opencode-ref-with-siblings"
        | "gemini-cli-nesting-depth-notion"
        | "gitlab-mcp-nesting-depth-named" => "gemini/v1beta/parameters-json-schema",
        "moltis-openrouter-required-undefined" => {
            extra.insert("upstream", "google-ai-studio");
            "openrouter"
        }
        "openrouter-vertex-required-not-defined" => {
            extra.insert("upstream", "google-vertex");
            "openrouter"
        }
        _ => match r.provider.as_str() {
            "Gemini" => "gemini/v1beta/parameters",
            "OpenAI" if r.route.contains("Responses API") => {
                opts.strict = strict;
                "openai/responses-strict"
            }
            "OpenAI" if strict_yes => "openai/chat-strict",
            "OpenAI" => "openai/chat",
            "Azure OpenAI" => {
                opts.strict = strict.filter(|s| *s);
                "azure-openai/chat"
            }
            "Anthropic" => "anthropic/messages",
            "AWS Bedrock" => {
                opts.strict = strict.filter(|s| *s);
                "bedrock/converse"
            }
            "Cohere" => {
                opts.strict = strict.filter(|s| *s);
                "cohere/v2-strict"
            }
            "DeepSeek" => "deepseek/beta-strict",
            "Fireworks" => "fireworks/chat",
            "Groq" => "groq/chat",
            "Moonshot/Kimi" => "moonshot/chat",
            "Ollama" => "ollama/chat",
            "OpenRouter" => "openrouter",
            "llama.cpp" => "llama.cpp/server",
            "xAI" => "xai/chat",
            _ => return Err("no target for this provider"),
        },
    };
    Ok((id, opts, extra))
}

/// Expands the placeholders reports use for long values.
fn expand(v: &mut Value) {
    match v {
        Value::String(s) => {
            let t = s.trim();
            if let Some(inner) = t.strip_prefix('<').and_then(|x| x.strip_suffix('>')) {
                let n: Option<usize> = inner
                    .split(|c: char| !c.is_ascii_digit())
                    .find(|p| !p.is_empty())
                    .and_then(|p| p.parse().ok());
                if inner.contains("character")
                    && let Some(n) = n
                {
                    *s = "x".repeat(n);
                } else if inner.contains("illegal characters") {
                    *s = "get weather!".into();
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(expand),
        Value::Object(o) => o.values_mut().for_each(expand),
        _ => {}
    }
}

fn function_name(text: &str) -> Option<String> {
    for (start, end) in [
        ("function '", "'"),
        ("FunctionDeclaration '", "'"),
        ("`", "` functionDeclaration"),
        ("for tool ", ","),
    ] {
        if let Some(i) = text.find(start) {
            let rest = &text[i + start.len()..];
            if let Some(j) = rest.find(end) {
                // Placeholders such as `mcp__<server>_<tool>` lose their brackets.
                let name: String = rest[..j]
                    .chars()
                    .filter(|c| *c != '<' && *c != '>')
                    .collect();
                if !name.is_empty() && !name.contains(' ') && !name.contains("...") {
                    return Some(name);
                }
            }
        }
    }
    None
}

fn tool_of(v: &Value, default_name: &str, anthropic: bool) -> Option<ToolDef> {
    let o = v.as_object()?;
    if let Some(spec) = o.get("toolSpec") {
        return Some(ToolDef {
            name: spec.get("name")?.as_str()?.into(),
            description: spec
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
            parameters: spec.pointer("/inputSchema/json").cloned(),
        });
    }
    if let Some(f) = o.get("function") {
        return Some(ToolDef {
            name: f
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or(default_name)
                .into(),
            description: f
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
            // `null` is kept: sending it is the point of some reports.
            parameters: f.get("parameters").cloned(),
        });
    }
    if let Some(name) = o.get("name").and_then(Value::as_str) {
        let params = o
            .get("parameters")
            .or_else(|| o.get("input_schema"))
            .cloned()
            .or_else(|| {
                // MCP's `inputSchema` is not Anthropic's `input_schema`: sent as is, it is missing.
                if anthropic {
                    None
                } else {
                    o.get("inputSchema").cloned()
                }
            });
        return Some(ToolDef {
            name: name.into(),
            description: o
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
            parameters: params,
        });
    }
    None
}

/// The tools a report's `schema` stands for.
fn tools_of(r: &Report, target: &str) -> Result<Vec<ToolDef>, &'static str> {
    if r.schema.contains("<513 declarations>") {
        return Ok((0..513)
            .map(|i| ToolDef {
                name: format!("f_{i}"),
                description: None,
                parameters: Some(json!({"type":"object","properties":{"a":{"type":"string"}}})),
            })
            .collect());
    }
    let mut stream = serde_json::Deserializer::from_str(r.schema.trim()).into_iter::<Value>();
    let mut v = match stream.next() {
        Some(Ok(v)) => v,
        _ => return Err("the report's schema is not JSON"),
    };
    expand(&mut v);
    let name = function_name(&r.error_text).unwrap_or_else(|| "t".into());
    let anthropic = target.starts_with("anthropic");
    if let Some(tools) = v.get("tools").and_then(Value::as_array) {
        return tools
            .iter()
            .map(|t| tool_of(t, &name, anthropic).ok_or("unreadable tool"))
            .collect();
    }
    if v.get("functionResponse").is_some() {
        return Err("a tool result, not a declaration");
    }
    if let Some(t) = tool_of(&v, &name, anthropic) {
        return Ok(vec![t]);
    }
    Ok(vec![ToolDef {
        name,
        description: Some("d".into()),
        parameters: Some(v),
    }])
}

/// Unescapes JSON-in-text (twice, for bodies quoted inside bodies).
fn unescape(s: &str) -> String {
    let mut t = s.to_string();
    for _ in 0..3 {
        t = t
            .replace("\\\\n", "\n")
            .replace("\\n", "\n")
            .replace("\\\"", "\"")
            .replace("\\'", "'")
            .replace("\\u003c", "<")
            .replace("\\u003e", ">")
            .replace("\\\\", "\\");
    }
    t
}

/// Comparable text: JSON unescaped, request wrappers dropped, numbers → `N`, placeholder
/// brackets and all whitespace removed (reports wrap lines anywhere, even inside words).
fn norm(s: &str) -> String {
    let t = unescape(s)
        .replace("generate_content_request.", "")
        .replace("'request.tools", "'tools")
        .replace("request.tools[", "tools[")
        .replace(
            "tools.function_declarations",
            "tools[0].function_declarations",
        )
        .replace('…', "...")
        .replace("[truncated", "...");
    let mut out = String::with_capacity(t.len());
    let mut in_digits = false;
    for c in t.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('N');
            }
            in_digits = true;
            continue;
        }
        in_digits = false;
        if c.is_whitespace() || c == '<' || c == '>' {
            continue;
        }
        out.push(c);
    }
    out
}

/// True when the report's visible text agrees with one model line: the report may wrap the
/// line in other text, cut it short, or elide parts of it with `...`; every piece it does show
/// must be the model's text, in order, and the pieces must cover at least 60% of the line.
fn visible_match(line: &str, report: &str) -> bool {
    if line.len() < 16 {
        return false;
    }
    if report.contains(line) {
        return true;
    }
    let frags: Vec<&str> = report.split("...").collect();
    let last = frags.len() - 1;
    let mut cursor = 0;
    let mut covered = 0;
    for (i, f) in frags.iter().enumerate() {
        let rest = &line[cursor..];
        let piece: Option<&str> = if last == 0 {
            // No elision (and the line is not contained): the report can only have been cut
            // short inside the line, so its tail must be the line's beginning.
            (0..f.len())
                .filter(|k| f.is_char_boundary(*k))
                .map(|k| &f[k..])
                .find(|p| line.starts_with(*p))
        } else if i == 0 {
            // Text before the line is not the model's: the longest suffix found in the line.
            (0..f.len())
                .filter(|k| f.is_char_boundary(*k))
                .map(|k| &f[k..])
                .find(|p| rest.contains(*p))
        } else if i == last {
            // Text after the line (or a cut) likewise: the longest prefix found in the line.
            (1..=f.len())
                .rev()
                .filter(|k| f.is_char_boundary(*k))
                .map(|k| &f[..k])
                .find(|p| rest.contains(*p))
        } else {
            rest.contains(*f).then_some(*f)
        };
        match piece {
            Some(p) if p.len() >= 8 => {
                let at = rest.find(p).unwrap_or(0);
                cursor += at + p.len();
                covered += p.len();
            }
            Some(_) | None if i == 0 || i == last => {}
            _ => return false,
        }
    }
    covered * 10 >= line.len() * 6 || covered >= 40
}

/// Whitespace collapsed, for reading paths out of wrapped report text.
fn one_line(s: &str) -> String {
    unescape(s).split_whitespace().collect::<Vec<_>>().join(" ")
}

#[derive(Debug)]
struct Outcome {
    target: String,
    exact: bool,
    rejected: bool,
    template: bool,
    path: bool,
    detail: String,
}

fn replay(r: &Report) -> Result<Outcome, &'static str> {
    let (id, opts, extra) = target_of(r)?;
    let tools = tools_of(r, id)?;
    let route = target::route(id).expect("a registry target");
    let mut cfg = route.configure(&BTreeMap::<String, String>::new());
    for (k, v) in extra {
        cfg.extra.insert(k.into(), v.into());
    }
    let key = Credential::Key(Secret::new("tw-fidelity-key"));
    let (_req, reply) = target::model(id, &cfg, &tools, &opts, Some(&key)).expect("a model");
    let c = route.classify(&cfg, &reply, false);
    let message = c.error.clone().unwrap_or_default();
    let report = norm(&r.error_text);
    let body = norm(&String::from_utf8_lossy(&reply.body));
    let template = message
        .lines()
        .map(norm)
        .any(|l| visible_match(&l, &report))
        || (report.len() >= 20
            && !report.contains("...")
            && (body.contains(&report) || norm(&message).contains(&report)));
    // Each line of a multi-problem message names its own path; the report's first path must be
    // one of them (reports of multi-tool requests list other problems first). A report that
    // names no path has nothing to compare.
    let ours: Vec<String> = message
        .lines()
        .filter_map(|l| target::path_in_message(id, &one_line(l)))
        .map(|p| norm(&p))
        .collect();
    let mut theirs: Vec<String> = std::iter::once(one_line(&r.error_text))
        .chain(unescape(&r.error_text).lines().map(one_line))
        .filter_map(|l| target::path_in_message(id, &l))
        .map(|p| norm(&p))
        .collect();
    theirs.dedup();
    // A path the report itself elides (`properties[...]`) says nothing.
    theirs.retain(|p| !p.contains("..."));
    let path = theirs.is_empty() || theirs.iter().any(|t| ours.contains(t));
    let rejected = c.verdict == Verdict::Rejected;
    Ok(Outcome {
        target: id.into(),
        exact: rejected && template && path,
        rejected,
        template,
        path,
        detail: format!(
            "verdict {:?}; model says {message:?}; paths ours {ours:?} theirs {theirs:?}",
            c.verdict
        ),
    })
}

#[test]
fn models_reproduce_public_reports() {
    let text = std::fs::read_to_string("reports/documented/reports.yaml")
        .expect("reports/documented/reports.yaml");
    let reports: Vec<Report> = serde_saphyr::from_str(&text).expect("reports.yaml parses");
    let with_schema: Vec<&Report> = reports
        .iter()
        .filter(|r| r.outcome == "rejected" && !r.schema.trim_start().starts_with("not shown"))
        .collect();
    assert!(
        with_schema.len() >= 120,
        "{} rejections with a schema",
        with_schema.len()
    );
    let known: BTreeMap<&str, &str> = KNOWN_MISSES.iter().copied().collect();
    assert_eq!(known.len(), KNOWN_MISSES.len(), "an id is listed twice");
    let mut per_target: BTreeMap<String, (usize, usize, usize, usize)> = BTreeMap::new();
    let mut problems = Vec::new();
    for r in &with_schema {
        let (target, exact, rejected, detail) = match replay(r) {
            Ok(o) => {
                let d = format!(
                    "rejected {} template {} path {}: {}",
                    o.rejected, o.template, o.path, o.detail
                );
                (o.target, o.exact, o.rejected, d)
            }
            Err(why) => ("(no target)".to_string(), false, false, why.to_string()),
        };
        let e = per_target.entry(target.clone()).or_default();
        e.0 += 1;
        if exact {
            e.1 += 1;
        }
        if rejected {
            e.3 += 1;
        }
        match (exact, known.get(r.id.as_str())) {
            (true, Some(_)) => problems.push(format!(
                "{}: listed as a known miss but now exact; remove it from KNOWN_MISSES",
                r.id
            )),
            (false, None) => problems.push(format!(
                "{} ({target}): not reproduced: {detail}\n    report: {}",
                r.id,
                r.error_text.replace('\n', " ")
            )),
            (false, Some(_)) => e.2 += 1,
            (true, None) => {}
        }
    }
    for id in known.keys() {
        assert!(
            with_schema.iter().any(|r| r.id == *id),
            "KNOWN_MISSES names {id}, which is not a rejection with a schema"
        );
    }
    println!(
        "fidelity per target: exact (verdict, template and path) / reports; verdict agreement; known misses"
    );
    let (mut all, mut all_exact, mut all_rejected) = (0, 0, 0);
    for (t, (n, exact, missed, rejected)) in &per_target {
        all += n;
        all_exact += exact;
        all_rejected += rejected;
        println!(
            "  {t:38} exact {exact:3}/{n:3} = {:5.1}%   rejected {rejected:3}/{n:3}   ({missed} known misses)",
            100.0 * *exact as f64 / *n as f64
        );
    }
    println!(
        "  {:38} exact {all_exact:3}/{all:3} = {:5.1}%   rejected {all_rejected:3}/{all:3}",
        "all",
        100.0 * all_exact as f64 / all as f64
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Matrix cells whose documented verdict the offline model does not reproduce, and why.
/// Keyed by (case id, target id).
const MATRIX_DISAGREEMENTS: &[(&str, &str, &str)] = &[
    (
        "types/list-string-null-nested",
        "ollama/chat",
        "the only source with its words is a 2025-04 report (ollama-type-array); the model follows PROVIDERS.md's reading of a later api/types.go, whose property type decodes from a string or an array, but those words were not found to quote (ollama-tool-decoding notes)",
    ),
    (
        "keywords/default-nested",
        "vertex/v1/parameters",
        "2024-25 reports decide: Vertex's v1 Schema message in Google's API source has `default` (vertex-v1-schema-proto-fields), but at a commit whose date is not shown, so it is left undated and the dated reports decide; the model follows the source and accepts",
    ),
    (
        "keywords/title-nested",
        "vertex/v1/parameters",
        "a 2024 report decides: Vertex's v1 Schema message in Google's API source has `title` (vertex-v1-schema-proto-fields), but at a commit whose date is not shown, so it is left undated and the dated report decides; the model follows the source and accepts",
    ),
    (
        "keywords/max-length-large-nested",
        "llama.cpp/server",
        "known only from an issue title (llamacpp-empty-object-maxlength): no text and no threshold, so not modelled",
    ),
    (
        "structure/empty-properties-nested",
        "llama.cpp/server",
        "known only from an issue title (llamacpp-empty-object-maxlength): no text, not modelled",
    ),
    (
        "keywords/ref-with-siblings-nested",
        "moonshot/chat",
        "the reported refusal (moonshot-ref-expansion-conflict) names a keyword present both beside the $ref and in its target; the case's target has no description, so the model finds no conflict",
    ),
    (
        "root/empty-schema",
        "ollama/chat",
        "a template-rendering failure with OLLAMA_GO_TEMPLATE=0 (ollama-empty-params-reserialized): not modelled; Go decoding accepts `{}`",
    ),
    (
        "root/parameters-absent",
        "azure-openai/chat",
        "a 2024 preview API (azure-parameters-required); the v1 API follows OpenAI, where parameters may be omitted",
    ),
    (
        "structure/required-undeclared-nested",
        "azure-openai/chat",
        "a code-review note without an observed answer (azure-required-not-in-properties): not modelled",
    ),
    (
        "structure/required-undeclared-root",
        "azure-openai/chat",
        "a code-review note without an observed answer (azure-required-not-in-properties): not modelled",
    ),
];

/// The models agree with the matrix's documented verdicts (docs and public reports, no probe
/// runs) for every live target: each documented cell's case is sent through the target's
/// model with a valid key, exactly as the prober sends it (wire baseline included).
#[test]
fn models_agree_with_the_matrix_documented_verdicts() {
    use toolwire::evidence::matrix;
    let project = toolwire::project::Project::new("cases", "reports");
    let catalog = project.catalog().expect("the case catalog");
    let documented = project
        .documented_for(&catalog)
        .expect("reports/documented");
    let targets: Vec<String> = target::registry()
        .iter()
        .map(|t| t.id.to_string())
        .collect();
    let m = matrix::build(&catalog, &targets, &[], &documented);
    let known: BTreeMap<(&str, &str), &str> = MATRIX_DISAGREEMENTS
        .iter()
        .map(|(c, t, why)| ((*c, *t), *why))
        .collect();
    let key = Credential::Key(Secret::new("tw-agreement-key"));
    let mut per_target: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut listed_seen = 0;
    for cell in &m.cells {
        let Some(documented_verdict) = cell.verdict else {
            continue;
        };
        let Some(route) = target::route(&cell.target) else {
            continue;
        };
        let case = catalog.get(&cell.case).expect("a catalog case");
        let cfg = route.configure(&BTreeMap::<String, String>::new());
        let opts = WireOptions::for_case(case);
        let (_req, reply) =
            target::model(&cell.target, &cfg, &case.tools, &opts, Some(&key)).expect("a model");
        let c = route.classify(&cfg, &reply, false);
        let model_verdict = match c.verdict {
            Verdict::AcceptedIgnored => Verdict::Accepted,
            v => v,
        };
        let expected = match documented_verdict {
            Verdict::AcceptedIgnored => Verdict::Accepted,
            v => v,
        };
        let agree = model_verdict == expected;
        let e = per_target.entry(cell.target.clone()).or_default();
        e.0 += 1;
        if agree {
            e.1 += 1;
        }
        match (
            agree,
            known.get(&(cell.case.as_str(), cell.target.as_str())),
        ) {
            (true, Some(_)) => problems.push(format!(
                "{} × {}: listed as a disagreement but the model now agrees",
                cell.case, cell.target
            )),
            (false, None) => problems.push(format!(
                "{} × {}: documented {expected}, model {model_verdict} ({})",
                cell.case,
                cell.target,
                c.error
                    .as_deref()
                    .or(c.note.as_deref())
                    .unwrap_or("")
                    .lines()
                    .next()
                    .unwrap_or("")
            )),
            (false, Some(_)) => listed_seen += 1,
            (true, None) => {}
        }
    }
    assert_eq!(
        listed_seen + problems.iter().filter(|p| p.contains("now agrees")).count(),
        known.len(),
        "every listed disagreement names a documented cell"
    );
    println!(
        "agreement with the matrix's documented verdicts (agreeing cells / documented cells):"
    );
    for (t, (n, ok)) in &per_target {
        println!("  {t:38} {ok:3}/{n:3}");
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Cases where the keyless Gemini models' parse stage and the proto snapshot engine differ,
/// and why. No probe of Gemini itself decides them.
const PROTO_ENGINE_DISAGREEMENTS: &[(&str, &str, &str)] = &[
    (
        "gemini/v1beta/parameters",
        "structure/required-not-array-root",
        "a single string for the repeated `required`: the model reads it as one element (unknown, see src/target/google.rs), prost-reflect refuses a non-list",
    ),
    (
        "gemini/v1beta/parameters-json-schema",
        "limits/depth-32",
        "the engine applies protobuf's nesting limit of 100 for `google.protobuf.Value` (prost's decoder, as Python's json_format); the model has no such limit",
    ),
    (
        "gemini/v1beta/parameters-json-schema",
        "limits/depth-33",
        "the engine applies protobuf's nesting limit of 100 for `google.protobuf.Value`; the model has no such limit",
    ),
    (
        "gemini/v1beta/parameters-json-schema",
        "limits/depth-64",
        "the engine applies protobuf's nesting limit of 100 for `google.protobuf.Value`; the model has no such limit",
    ),
    (
        "gemini/v1beta/parameters-json-schema",
        "limits/depth-100",
        "the engine applies protobuf's nesting limit of 100 for `google.protobuf.Value`; the model has no such limit",
    ),
];

/// The keyless Gemini models (parse stage only, as the no-key probe sees them) give the verdict
/// the in-process proto snapshot engine gives, case by case over the whole catalog, except the
/// cells of [`PROTO_ENGINE_DISAGREEMENTS`] (which must still disagree, so the list stays
/// true). Both read the same published field list, so a new case they judge differently is
/// either a model or an engine gap to look at.
#[test]
fn keyless_gemini_models_parse_like_the_proto_engine() {
    use toolwire::engine::engines;
    let catalog = toolwire::case::Catalog::load(std::path::Path::new("cases")).expect("cases");
    let engines = engines();
    let mut problems = Vec::new();
    let mut compared = 0;
    for (route_id, engine_id) in [
        (
            "gemini/v1beta/parameters",
            "engine/gemini-proto-snapshot/parameters",
        ),
        (
            "gemini/v1beta/parameters-json-schema",
            "engine/gemini-proto-snapshot/parameters-json-schema",
        ),
    ] {
        let engine = engines
            .iter()
            .find(|e| e.id() == engine_id)
            .expect("a registered engine");
        let route = target::route(route_id).expect("a registry target");
        let cfg = route.configure(&BTreeMap::<String, String>::new());
        for case in &catalog.cases {
            let opts = WireOptions::for_case(case);
            let (_req, reply) =
                target::model(route_id, &cfg, &case.tools, &opts, None).expect("a model");
            let model = route.classify(&cfg, &reply, true);
            let engine_answer = engine.check(&case.tools, &[]);
            compared += 1;
            let listed = PROTO_ENGINE_DISAGREEMENTS
                .iter()
                .any(|(r, c, _)| *r == route_id && *c == case.id);
            match (model.verdict == engine_answer.verdict, listed) {
                (true, true) => problems.push(format!(
                    "{route_id} × {}: listed as a disagreement but the model now agrees",
                    case.id
                )),
                (false, false) => problems.push(format!(
                    "{route_id} × {}: model {} ({}), engine {} ({})",
                    case.id,
                    model.verdict,
                    model.error.as_deref().unwrap_or("-"),
                    engine_answer.verdict,
                    engine_answer.error.as_deref().unwrap_or("-"),
                )),
                _ => {}
            }
        }
    }
    assert!(compared >= 2 * 240, "only {compared} cells compared");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
