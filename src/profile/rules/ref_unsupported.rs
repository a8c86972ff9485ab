//! `ref-unsupported`: a local `$ref`, its `$defs`/`definitions`, or a `$ref` that resolves to
//! nothing.

use super::*;

pub const RULE: Rule = Rule {
    id: "ref-unsupported",
    checks: "A local `$ref` (`#/...`), the `$defs` or `definitions` it points into, or a local \
             `$ref` that resolves to nothing in the schema.",
    features: "`keyword-allowed: $ref`, `keyword-allowed: $ref (unresolved)`, `keyword-allowed: $defs`, `keyword-allowed: definitions`",
    example: r##"{"type": "object", "properties": {"city": {"$ref": "#/$defs/City"}}, "$defs": {"City": {"type": "string"}}}"##,
    fix: "Inline the referenced schema where it is used (recursive schemas cannot be inlined: flatten them by hand).",
    repair: "partly: local references are inlined (with a cycle guard and a size cap); unresolved and recursive ones cannot be",
    repairable,
    owns,
    hooks: Hooks {
        node: Some(node),
        ..Hooks::NONE
    },
};

fn repairable(f: &Feat<'_>) -> bool {
    !matches!(f, Feat::KeywordForm(_, v) if *v == value::REF_UNRESOLVED)
}

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::Keyword, v) if matches!(v.as_str(), "$ref" | "$defs" | "definitions"))
        || keyword_form_of(p, "$ref").is_some_and(|f| f != value::REF_REMOTE)
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    if let Some(r) = n.reference {
        let text = r.as_str().unwrap_or("");
        if text.starts_with('#') || !r.is_string() {
            let resolved = cx
                .root()
                .is_some_and(|root| super::super::detect::resolves(root, text));
            let feat = if resolved || !r.is_string() {
                Feat::Keyword("$ref")
            } else {
                Feat::KeywordForm("$ref", value::REF_UNRESOLVED)
            };
            cx.feature(At::Key(n.frame, "$ref"), feat, n.placement, || {
                if resolved {
                    format!("a local `$ref` to `{text}`")
                } else {
                    format!("`$ref` to `{text}`, which is not in the schema")
                }
            });
        }
    }
    for (has, kw) in [(n.defs, "$defs"), (n.definitions, "definitions")] {
        if has {
            cx.feature(At::Key(n.frame, kw), Feat::Keyword(kw), n.placement, || {
                format!("`{kw}` (definitions for `$ref`)")
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    #[test]
    fn local_references() {
        let r = "ref-unsupported";
        assert_eq!(
            seen(
                r,
                json!({"type":"object","properties":{"a":{"$ref":"#/$defs/A"},"b":{"$ref":"#/$defs/B"},"c":{"$ref":"https://x.org/s.json"}},"$defs":{"A":{"type":"string"}}})
            ),
            pairs(&[
                ("/$defs", "keyword-allowed: $defs"),
                ("/properties/a/$ref", "keyword-allowed: $ref"),
                ("/properties/b/$ref", "keyword-allowed: $ref (unresolved)"),
            ])
        );
    }
}
