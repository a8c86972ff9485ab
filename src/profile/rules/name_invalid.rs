//! `name-invalid`: a tool name with characters the profile does not allow.

use super::*;

pub const RULE: Rule = Rule {
    id: "name-invalid",
    checks: "Each kind of character in the tool name (lowercase, uppercase, digit, underscore, \
             hyphen, dot, colon, slash, space, other punctuation, non-ASCII), a leading digit or \
             underscore, and the empty name, each judged by its `name-chars` case.",
    features: "`name-chars: <kind>`",
    example: r#"{"name": "math.sum", "parameters": {"type": "object", "properties": {}}}"#,
    fix: "Use letters, digits, underscores and hyphens, starting with a letter (e.g. math_sum).",
    repair: "yes, unless the new name is that of another tool of the request (then the tool is refused: a call could reach either)",
    repairable: unless_rename_clashes,
    owns,
    hooks: Hooks {
        tool: Some(tool),
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::NameChars, _))
}

/// The kinds of character in `name`, each once, in a fixed order.
pub fn kinds(name: &str) -> Vec<&'static str> {
    use value::*;
    let mut seen = [false; 11];
    const ORDER: [&str; 11] = [
        NAME_LOWER,
        NAME_UPPER,
        NAME_DIGIT,
        NAME_UNDERSCORE,
        NAME_HYPHEN,
        NAME_DOT,
        NAME_COLON,
        NAME_SLASH,
        NAME_SPACE,
        NAME_OTHER,
        NAME_NON_ASCII,
    ];
    for c in name.chars() {
        let i = match c {
            'a'..='z' => 0,
            'A'..='Z' => 1,
            '0'..='9' => 2,
            '_' => 3,
            '-' => 4,
            '.' => 5,
            ':' => 6,
            '/' => 7,
            ' ' => 8,
            c if c.is_ascii() => 9,
            _ => 10,
        };
        seen[i] = true;
    }
    let mut out: Vec<&'static str> = ORDER
        .iter()
        .zip(seen)
        .filter_map(|(k, s)| s.then_some(*k))
        .collect();
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        out.push(NAME_LEADING_DIGIT);
    }
    if name.starts_with('_') {
        out.push(NAME_LEADING_UNDERSCORE);
    }
    if name.is_empty() {
        out.push(NAME_EMPTY);
    }
    out
}

fn tool<'a>(cx: &mut Cx<'a, '_>, t: &ToolRef<'a>) {
    let Some(name) = t.name else { return };
    // The common case, a snake_case name, needs no list.
    if !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit() || c == '_')
        && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
    {
        // Most real tool names: written in place.
        let what = |kind: &'static str| {
            move |m: &mut String| {
                m.push_str("tool name `");
                m.push_str(name);
                m.push_str("` has ");
                m.push_str(kind);
                m.push_str(" characters");
            }
        };
        cx.feature_written(
            At::Tool,
            Feat::NameChars(value::NAME_LOWER),
            Placement::Tool,
            what("lowercase"),
            |_| false,
        );
        if name.contains('_') {
            cx.feature_written(
                At::Tool,
                Feat::NameChars(value::NAME_UNDERSCORE),
                Placement::Tool,
                what("underscore"),
                |_| false,
            );
        }
        return;
    }
    // The fix says so when repair's rename would land on another tool's name (and so is no
    // fix): that tool is not marked repairable either.
    let clash = cx.name_clash();
    for kind in kinds(name) {
        let clash = clash.as_deref();
        cx.feature_written(
            At::Tool,
            Feat::NameChars(kind),
            Placement::Tool,
            |m| {
                if kind == value::NAME_EMPTY {
                    m.push_str("the tool name is empty");
                } else {
                    m.push_str("tool name `");
                    m.push_str(name);
                    m.push_str("` has ");
                    m.push_str(kind);
                    m.push_str(" characters");
                }
            },
            |m| {
                let Some(clash) = clash else { return false };
                m.push_str(&rename_clash_fix(clash));
                true
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    #[test]
    fn character_kinds() {
        let r = "name-invalid";
        assert_eq!(
            seen_tools(r, &[(Some("2math.Sum é"), None, None)]),
            pairs(&[
                ("", "name-chars: lowercase"),
                ("", "name-chars: uppercase"),
                ("", "name-chars: digit"),
                ("", "name-chars: dot"),
                ("", "name-chars: space"),
                ("", "name-chars: non-ascii"),
                ("", "name-chars: leading-digit"),
            ])
        );
        assert_eq!(
            seen_tools(r, &[(Some(""), None, None)]),
            pairs(&[("", "name-chars: empty")])
        );
    }
}
