//! OpenAI's `strict: true` on a tool that repair changed.
//!
//! Repair writes the canonical schema for a profile, and strict targets are not in a profile
//! repair serves (strict modes are reached by `compile --target
//! openai/chat-strict`, never by shrinking `portable` to fit them). So a repair can take out
//! what strict mode requires: `portable` drops `additionalProperties: false`, which OpenAI's
//! strict mode needs on every object ("'additionalProperties' is required to be supplied and
//! to be false", PROVIDERS.md §5). A tool that kept `strict: true` over such a schema would
//! be refused by the provider. The smallest honest answer: when repair changed a tool that
//! says `strict: true` and the offline model of [`STRICT_TARGET`] rejects the repaired tool,
//! the flag is written `false` (not removed: a Responses tool without `strict` is strict by
//! default, PROVIDERS.md §6) and the change says why and what produces the strict form. A
//! tool repair left unchanged keeps its flag as written: judging the input is `check --target
//! openai/chat-strict`'s job, not repair's. A provider's own strict tool use (Anthropic's,
//! Bedrock Converse's), which toolwire does not model, keeps its flag; a closed object repair
//! opened says so in its loss ([`mark_tool_use_losses`]).

use super::{Change, Outcome, Refusal, ToolRepair};
use crate::check::Level;
use crate::evidence::Verdict;
use crate::profile::CompiledProfile;
use crate::profile::rules::strict_form_missing;
use crate::tool::ToolDef;

/// The target whose offline model judges a repaired tool that says `strict: true`. OpenAI's
/// Chat Completions and Responses validators read a strict schema the same way
/// ([`crate::target::openai::schema_problem`] with `strict`).
pub const STRICT_TARGET: &str = "openai/chat-strict";

/// The rule a [`settle`] change names.
pub const RULE: &str = "strict-mode";

/// If repair changed `r`'s tool, the tool says `strict: true`, and the offline model of
/// [`STRICT_TARGET`] rejects the repaired tool sent strict, sets the tool's `strict` to
/// `false` and records the change, with the model's own message. Returns whether it did.
///
/// Before giving strict mode up, compile's canonical type names are tried
/// ([`crate::compile::canonical::write_type_names_because`]): every `type` written in a known
/// other spelling of a JSON Schema type (`float`, `str`, `Integer`, `tuple`) written as that
/// type. When the model then accepts the tool, the rewrites are kept (each a change naming
/// the model's message, and what a spelling such as `tuple` said as its loss) and `strict:
/// true` stays: a profile may have no evidence against `float`, but strict mode reads only
/// JSON Schema's names, and dropping the flag would lose more than the spelling.
pub fn settle(r: &mut ToolRepair) -> bool {
    if r.outcome != Outcome::Repaired || r.tool.strict != Some(true) {
        return false;
    }
    let Some(error) = strict_rejection(&r.tool) else {
        return false;
    };
    let error = error.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(schema) = &r.tool.parameters {
        let mut respelled = schema.clone();
        let why = format!(
            "keeping strict mode: the offline model of {STRICT_TARGET} rejects the tool in \
             strict mode as it was ({error})"
        );
        let changes = crate::compile::canonical::write_type_names_because(&mut respelled, &why);
        let mut tool = r.tool.clone();
        tool.parameters = Some(respelled);
        if !changes.is_empty() && strict_rejection(&tool).is_none() {
            r.tool = tool;
            r.changes.extend(changes);
            return false;
        }
    }
    r.tool.strict = Some(false);
    r.changes.push(Change {
        pointer: String::new(),
        rule: RULE.into(),
        action: format!(
            "wrote `strict: false` (strict mode was on): the offline model of {STRICT_TARGET} rejects the \
             repaired schema in strict mode ({error}); `toolwire compile --target {STRICT_TARGET}` \
             writes the strict form"
        ),
        emptied: false,
        lost: Some(
            "strict mode: the provider no longer holds the model's arguments to the schema \
             (`toolwire args` still checks them)"
                .into(),
        ),
    });
    true
}

/// Refuses a tool repair left unchanged that asks for strict mode over a schema `profile`'s
/// targets reject in strict mode (`strict-form-missing` errors): repair writes no strict form
/// (`compile` does), and turning strict mode off is the user's call, so reporting it
/// "unchanged" would pass on a tool the provider refuses and `check` fails. One refusal per
/// place, as check finds them; the tool stays as given. Returns whether it refused.
pub fn refuse_not_in_strict_form(r: &mut ToolRepair, profile: &CompiledProfile) -> bool {
    if r.outcome != Outcome::Unchanged || r.tool.strict != Some(true) {
        return false;
    }
    let mut sent = r.tool.as_ref(0);
    sent.strict = true;
    let refusals: Vec<Refusal> = crate::check::check_tools_within_cap(&[sent], profile)
        .into_iter()
        .filter(|f| f.level == Level::Error && f.rule.as_str() == strict_form_missing::RULE.id)
        .map(|f| Refusal {
            pointer: f.pointer,
            rule: f.rule.to_string(),
            parameter: f.parameter.to_string(),
            reason: format!(
                "{}: repair writes the canonical schema, not the strict form; `toolwire \
                 compile --target {STRICT_TARGET}` (or `openai/responses-strict`) writes it, \
                 or say `strict: false`",
                f.message.as_str()
            ),
        })
        .collect();
    if refusals.is_empty() {
        return false;
    }
    r.outcome = Outcome::Refused;
    r.refusals = refusals;
    true
}

/// For a tool that asks for a provider's own strict tool use (Anthropic's, Bedrock
/// Converse's `strict: true`), which repair keeps as written: each change that dropped an
/// `additionalProperties: false` says, in its loss, that strict tool use no longer closes
/// that object, and which repair keeps it (the provider's own target). The flag stays:
/// toolwire has no model of that mode's subset to say the provider refuses the schema, as
/// OpenAI's offline model says for [`settle`]. The provider's own target keeps the object
/// (its profile has no evidence against `additionalProperties: false`, so repair leaves it).
pub fn mark_tool_use_losses(r: &mut ToolRepair) {
    let Some(provider) = r.tool.strict_tool_use else {
        return;
    };
    let Some(target) = crate::input::strict_tool_use_target(provider) else {
        return;
    };
    for c in &mut r.changes {
        let opened = c.pointer.ends_with("/additionalProperties")
            && c.action
                .starts_with("dropped `additionalProperties: false`");
        if let (true, Some(lost)) = (opened, c.lost.as_mut()) {
            lost.push_str(&format!(
                "; the tool asks for {provider}'s strict tool use, which no longer holds the \
                 model's arguments to this object's properties: `toolwire repair --target \
                 {target}` keeps it"
            ));
        }
    }
}

/// The offline model of [`STRICT_TARGET`]'s error for `tool` sent strict, `None` when it
/// accepts the tool (or has no model).
fn strict_rejection(tool: &super::Tool) -> Option<String> {
    let def = ToolDef {
        name: tool.name.clone().unwrap_or_default(),
        description: tool.description.clone(),
        parameters: tool.parameters.clone(),
    };
    let answer = crate::compile::ask_model(STRICT_TARGET, &[def])?;
    (answer.classified.verdict == Verdict::Rejected).then(|| {
        answer
            .classified
            .error
            .unwrap_or_else(|| answer.reply.text_body())
    })
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::repair::envelope::{Placed, write_back};
    use crate::repair::tests::profile;
    use crate::repair::{Options, Tool, repair_request};
    use crate::target::{Credential, Secret, WireOptions};

    /// The user's tool: strict, closed, every property required (OpenAI accepts it).
    fn weather() -> Value {
        json!({"tools": [{"type": "function", "function": {
            "name": "get_weather", "description": "Get weather", "strict": true,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                "required": ["city"], "additionalProperties": false}}}]})
    }

    /// Reads `doc` and repairs it against a profile rejecting `rejected`; returns the results
    /// and the document as `toolwire repair` writes it.
    fn repair_doc(doc: Value, rejected: &[&str]) -> (Vec<ToolRepair>, Value) {
        let set = crate::input::from_value(std::path::Path::new("t.json"), doc.clone()).unwrap();
        let tools: Vec<Tool> = set.tools.iter().map(Tool::from).collect();
        let out = repair_request(&tools, &profile(rejected), &Options::default());
        let placed: Vec<Placed<'_>> = set
            .tools
            .iter()
            .zip(&out)
            .map(|(e, r)| Placed {
                schema_pointer: &e.schema_pointer,
                repair: r,
            })
            .collect();
        let written = write_back(doc, &placed, false).unwrap();
        (out, written)
    }

    /// The verdict of the offline model of `openai/chat` on a Chat Completions `tools` list
    /// sent exactly as written (each tool's own `strict`), and its error.
    fn openai_chat(tools: &Value) -> (Verdict, Option<String>) {
        let route = crate::target::route("openai/chat").unwrap();
        let cfg = route.configure(&std::collections::BTreeMap::<String, String>::new());
        let raw = WireOptions {
            raw: true,
            ..WireOptions::default()
        };
        let mut incoming = route
            .request(&cfg, &[], &raw)
            .to_incoming(Some(&Credential::Key(Secret::new("tw-strict-test"))));
        let mut body: Value = serde_json::from_slice(&incoming.body).unwrap();
        body["tools"] = tools.clone();
        incoming.body = body.to_string().into_bytes();
        let reply = crate::target::service(route.service())
            .unwrap()
            .answer(&incoming);
        let c = route.classify(&cfg, &reply, false);
        (c.verdict, c.error)
    }

    #[test]
    fn a_repair_strict_mode_forbids_turns_strict_off_and_openai_accepts_the_output() {
        // As sent by the user, the offline model accepts the tool.
        assert_eq!(openai_chat(&weather()["tools"]).0, Verdict::Accepted);
        let (out, written) = repair_doc(
            weather(),
            &["keyword-allowed: additionalProperties (false)"],
        );
        let r = &out[0];
        assert_eq!(r.outcome, Outcome::Repaired);
        assert_eq!(r.tool.strict, Some(false));
        let last = r.changes.last().unwrap();
        assert_eq!((last.pointer.as_str(), last.rule.as_str()), ("", RULE));
        assert!(
            last.action
                .contains("'additionalProperties' is required to be supplied and to be false")
                && last
                    .action
                    .contains("`toolwire compile --target openai/chat-strict`"),
            "{}",
            last.action
        );
        assert!(last.lost.as_deref().unwrap().starts_with("strict mode"));
        let f = &written["tools"][0]["function"];
        assert_eq!(f["strict"], json!(false));
        assert!(f["parameters"].get("additionalProperties").is_none());
        assert_eq!(openai_chat(&written["tools"]), (Verdict::Accepted, None));
        // The same output with `strict: true` kept is what the user got: refused.
        let mut kept = written.clone();
        kept["tools"][0]["function"]["strict"] = json!(true);
        assert_eq!(openai_chat(&kept["tools"]).0, Verdict::Rejected);
        // Idempotent: the written output needs no repair.
        let (again, rewritten) = repair_doc(
            written.clone(),
            &["keyword-allowed: additionalProperties (false)"],
        );
        assert_eq!(again[0].outcome, Outcome::Unchanged);
        assert_eq!(rewritten, written);
    }

    /// A strict tool repair has nothing to change in, whose root is open and whose `x` is
    /// optional: OpenAI refuses it, so "unchanged" would pass on what `check` fails. Under
    /// `portable` (whose openai/chat rejects both strict-form features) it is refused at
    /// both places; not asking for strict mode, or in strict form, it is unchanged.
    #[test]
    fn an_unchanged_strict_tool_not_in_strict_form_is_refused() {
        let profiles = crate::profile::embedded_set().unwrap();
        let portable = CompiledProfile::new(profiles.get(crate::profile::PORTABLE).unwrap());
        let repair_under = |profile: &CompiledProfile, strict: Option<bool>, parameters: Value| {
            let tool = Tool {
                name: Some("a".into()),
                description: Some("d".into()),
                parameters: Some(parameters),
                strict,
                strict_tool_use: None,
            };
            repair_request(&[tool], profile, &Options::default()).remove(0)
        };
        let repair = |strict, parameters| repair_under(&portable, strict, parameters);
        let open = json!({"type": "object", "properties": {"x": {"type": "string"},
                                                            "y": {"type": "string"}},
                          "required": ["y"]});
        let r = repair(Some(true), open.clone());
        assert_eq!(r.outcome, Outcome::Refused);
        let at: Vec<(&str, &str)> = r
            .refusals
            .iter()
            .map(|f| (f.pointer.as_str(), f.rule.as_str()))
            .collect();
        assert_eq!(
            at,
            [
                ("", "strict-form-missing"),
                ("/properties/x", "strict-form-missing")
            ]
        );
        assert!(
            r.refusals[0]
                .reason
                .contains("compile --target openai/chat-strict")
        );
        assert_eq!(r.tool.parameters.as_ref(), Some(&open));
        assert_eq!(
            repair(Some(false), open.clone()).outcome,
            Outcome::Unchanged
        );
        assert_eq!(repair(None, open).outcome, Outcome::Unchanged);
        // In strict form under a profile that keeps `additionalProperties: false` (portable
        // drops it, and `settle` then turns strict mode off): left as it is.
        let openai = CompiledProfile::new(profiles.get("openai/chat").unwrap());
        let closed = json!({"type": "object", "properties": {"x": {"type": "string"}},
                            "required": ["x"], "additionalProperties": false});
        let r = repair_under(&openai, Some(true), closed);
        assert_eq!(r.outcome, Outcome::Unchanged);
    }

    #[test]
    fn strict_stays_when_strict_mode_accepts_the_repair_or_nothing_changed() {
        // `minimum` only narrows; strict mode takes the schema without it.
        let mut doc = weather();
        doc["tools"][0]["function"]["parameters"]["properties"]["days"] =
            json!({"type": "integer", "minimum": 1});
        doc["tools"][0]["function"]["parameters"]["required"] = json!(["city", "days"]);
        let (out, written) = repair_doc(doc, &["keyword-allowed: minimum"]);
        assert_eq!(out[0].outcome, Outcome::Repaired);
        assert_eq!(out[0].tool.strict, Some(true));
        assert!(out[0].changes.iter().all(|c| c.rule != RULE));
        assert_eq!(written["tools"][0]["function"]["strict"], json!(true));
        assert_eq!(openai_chat(&written["tools"]), (Verdict::Accepted, None));
        // Nothing to repair: the flag is the input's.
        let (out, written) = repair_doc(weather(), &[]);
        assert_eq!(out[0].outcome, Outcome::Unchanged);
        assert_eq!(written, weather());
    }

    #[test]
    fn a_spelling_strict_mode_rejects_is_rewritten_instead_of_giving_strict_up() {
        // Strict mode reads only JSON Schema's type names; the profile has no evidence
        // against `float`, so repair left it until strict mode was at stake.
        let mut doc = weather();
        let f = &mut doc["tools"][0]["function"];
        f["name"] = json!("get.weather");
        f["parameters"]["properties"]["temp"] = json!({"type": ["Float", "null"]});
        f["parameters"]["required"] = json!(["city", "temp"]);
        assert_eq!(openai_chat(&doc["tools"]).0, Verdict::Rejected);
        let (out, written) = repair_doc(doc, &["name-chars: dot"]);
        let r = &out[0];
        assert_eq!(r.outcome, Outcome::Repaired);
        assert_eq!(r.tool.strict, Some(true));
        let respelled: Vec<_> = r
            .changes
            .iter()
            .filter(|c| c.rule == "type-invalid")
            .collect();
        assert_eq!(respelled.len(), 1, "{:?}", r.changes);
        assert_eq!(respelled[0].pointer, "/properties/temp/type/0");
        assert!(
            respelled[0]
                .action
                .contains("`Float` as `number` (keeping strict mode")
        );
        assert!(respelled[0].lost.is_none());
        assert!(r.changes.iter().all(|c| c.rule != RULE));
        let f = &written["tools"][0]["function"];
        assert_eq!(f["strict"], json!(true));
        assert_eq!(
            f["parameters"]["properties"]["temp"]["type"],
            json!(["number", "null"])
        );
        assert_eq!(openai_chat(&written["tools"]), (Verdict::Accepted, None));
    }

    #[test]
    fn a_responses_tool_is_written_strict_false_where_absence_would_mean_strict() {
        let doc = json!({"tools": [{"type": "function", "name": "get_weather",
            "description": "Get weather", "strict": true,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                "required": ["city"], "additionalProperties": false}}]});
        let (out, written) = repair_doc(doc, &["keyword-allowed: additionalProperties (false)"]);
        assert_eq!(out[0].tool.strict, Some(false));
        assert_eq!(written["tools"][0]["strict"], json!(false));
    }

    /// A Responses tool without `strict` is strict (the documented default): the same repair
    /// adds `strict: false`, and a tool repair leaves alone gets no key it did not have.
    #[test]
    fn a_responses_tool_without_strict_is_strict_by_default() {
        let tool = || {
            json!({"tools": [{"type": "function", "name": "get_weather",
                "description": "Get weather",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                    "required": ["city"], "additionalProperties": false}}]})
        };
        let rejected = ["keyword-allowed: additionalProperties (false)"];
        let (out, written) = repair_doc(tool(), &rejected);
        assert_eq!(out[0].outcome, Outcome::Repaired);
        assert_eq!(written["tools"][0]["strict"], json!(false));
        let (out, written) = repair_doc(tool(), &[]);
        assert_eq!(out[0].outcome, Outcome::Unchanged);
        assert_eq!(written["tools"][0].get("strict"), None);
    }

    /// An Anthropic or Bedrock strict tool repaired for `portable` lost its closed object with
    /// only the plain loss: the flag stayed over an open object, unsaid. Now the loss names
    /// strict tool use and the repair that keeps the object closed, and that repair (the
    /// built-in profiles) does keep it; a tool not asking for strict tool use is not marked.
    #[test]
    fn a_strict_tool_use_tool_whose_closed_object_repair_opened_says_so() {
        let profiles = crate::profile::embedded_set().unwrap();
        let compiled = |name: &str| CompiledProfile::new(profiles.get(name).unwrap());
        let anthropic = |strict: bool| {
            json!({"tools": [{"name": "get_weather", "description": "Get weather",
                "strict": strict,
                "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                    "required": ["city"], "additionalProperties": false}}]})
        };
        let bedrock = json!({"toolConfig": {"tools": [{"toolSpec": {"name": "get_weather",
            "description": "Get weather", "strict": true, "inputSchema": {"json":
                {"type": "object", "properties": {"city": {"type": "string"}},
                 "required": ["city"], "additionalProperties": false}}}}]}});
        let repaired = |doc: &Value, profile: &str| {
            let set =
                crate::input::from_value(std::path::Path::new("t.json"), doc.clone()).unwrap();
            let tools: Vec<Tool> = set.tools.iter().map(Tool::from).collect();
            repair_request(&tools, &compiled(profile), &Options::default()).remove(0)
        };
        for (doc, target) in [
            (anthropic(true), "anthropic/messages"),
            (bedrock, "bedrock/converse"),
        ] {
            let r = repaired(&doc, crate::profile::PORTABLE);
            assert_eq!(r.outcome, Outcome::Repaired, "{target}");
            assert!(r.tool.strict_tool_use.is_some(), "{target}");
            let lost = r
                .changes
                .iter()
                .find(|c| c.pointer == "/additionalProperties")
                .and_then(|c| c.lost.clone())
                .unwrap();
            assert!(lost.contains("strict tool use"), "{lost}");
            assert!(
                lost.ends_with(&format!("`toolwire repair --target {target}` keeps it")),
                "{lost}"
            );
            // What the loss says of that repair holds.
            let kept = repaired(&doc, target);
            assert_eq!(
                kept.outcome,
                Outcome::Unchanged,
                "{target}: {:?}",
                kept.changes
            );
        }
        let plain = repaired(&anthropic(false), crate::profile::PORTABLE);
        let lost = plain.changes[0].lost.clone().unwrap();
        assert!(!lost.contains("strict tool use"), "{lost}");
    }
}
