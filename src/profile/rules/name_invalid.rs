//! `name-invalid`: a tool name with characters the profile does not allow.

use super::*;

pub const RULE: Rule = Rule {
    id: "name-invalid",
    checks: "Each kind of character in the tool name (lowercase, uppercase, digit, underscore, \
             hyphen, dot, colon, slash, space, other punctuation, non-ASCII), a leading digit, \
             underscore, hyphen, dot or colon (where a name starts is a case of its own: \
             Gemini's and Vertex AI's rule allows `-` and `.` in a name but not first; whether \
             it allows `:` the evidence tells per target), and the empty name, each judged by its `name-chars` case. A control \
             character is named as one, and judged by the other-punctuation case (ASCII) or \
             the non-ASCII one; so is a bidi control (U+202A-U+202E, U+2066-U+2069, marks). \
             It also warns on ordinary names (lowercase letters, digits, `_`) where a target of \
             the profile has no evidence either way for them: the name is not wrong, and the \
             warning says so (\"no evidence yet whether T accepts such names\").",
    features: "`name-chars: <kind>`",
    example: r#"{"name": "math.sum", "description": "Adds two numbers.", "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}}"#,
    example_target: None,
    fix: "Use letters, digits, underscores and hyphens, starting with a letter or an underscore \
          (e.g. math_sum; repair writes `_21st_magic` for `21st.magic`).",
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
    let mut out = Vec::new();
    each_kind(name, |k| out.push(k));
    out
}

/// The kinds of character of `NAME_KINDS[..NAME_CHAR_KINDS]` each byte is of, one bit per
/// kind: a name's kinds are the union over its bytes, one table load a byte (a chain of range
/// tests per byte, and a second pass for whether a name is snake_case, showed in profiles:
/// every tool name is read). A byte of a multi-byte character is non-ASCII, as its character
/// is.
const BYTE_KIND: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let i = match b as u8 {
            b'a'..=b'z' => 0,
            b'A'..=b'Z' => 1,
            b'0'..=b'9' => 2,
            b'_' => 3,
            b'-' => 4,
            b'.' => 5,
            b':' => 6,
            b'/' => 7,
            b' ' => 8,
            x if x.is_ascii() => 9,
            _ => 10,
        };
        t[b] = 1 << i;
        b += 1;
    }
    t
};

/// [`BYTE_KIND`]'s bits of lowercase letters and of `_`: a name of these alone, not starting
/// with `_`, is snake_case.
const LOWER: u16 = 1 << 0;
const UNDERSCORE: u16 = 1 << 3;

/// The kinds of character in `name`, as [`BYTE_KIND`]'s bits.
fn kind_bits(name: &str) -> u16 {
    name.bytes()
        .fold(0, |seen, b| seen | BYTE_KIND[usize::from(b)])
}

/// Calls `f` with each kind of character in `name`, in [`kinds`]'s order: the check walk
/// asks this of every tool name that is not snake_case, and a list of its own showed in
/// profiles.
fn each_kind(name: &str, f: impl FnMut(&'static str)) {
    each_kind_of(name, kind_bits(name), f)
}

/// [`each_kind`] given `seen`, the name's [`kind_bits`].
fn each_kind_of(name: &str, seen: u16, mut f: impl FnMut(&'static str)) {
    use value::*;
    let order = &NAME_KINDS[..NAME_CHAR_KINDS];
    for (i, k) in order.iter().enumerate() {
        if seen & (1 << i) != 0 {
            f(k);
        }
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        f(NAME_LEADING_DIGIT);
    }
    // Each leading character is its own feature beside the kind it is of: a target can
    // allow the character in a name and still refuse it first.
    match name.as_bytes().first() {
        Some(b'_') => f(NAME_LEADING_UNDERSCORE),
        Some(b'-') => f(NAME_LEADING_HYPHEN),
        Some(b'.') => f(NAME_LEADING_DOT),
        Some(b':') => f(NAME_LEADING_COLON),
        _ => {}
    }
    if name.is_empty() {
        f(NAME_EMPTY);
    }
}

/// Bidirectional formatting characters (Unicode UAX #9: embeddings, overrides, isolates and
/// the marks): they reorder how the name shows, so a name can look like another.
pub fn is_bidi(c: char) -> bool {
    matches!(
        c,
        '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// `chars` as `U+0007, U+202E`, each once, in order of appearance (also
/// [`property_name_invalid`](super::property_name_invalid)'s).
pub(super) fn code_points(chars: impl Iterator<Item = char>) -> String {
    let mut seen: Vec<char> = Vec::new();
    for c in chars {
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    seen.iter()
        .map(|c| format!("U+{:04X}", u32::from(*c)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A group of characters called by their own name in a message, and which are in it.
type Special = (&'static str, fn(char) -> bool);

/// What the characters of `kind` in `name` are, in words for the message: the kind's name,
/// except that control and bidi characters (which the other-punctuation and non-ASCII kinds
/// hold, and judge) are called what they are, with their code points, because they do not
/// show in the name as printed.
pub fn label(kind: &'static str, name: &str) -> String {
    let mut out = String::new();
    push_label(&mut out, kind, name);
    out
}

/// [`label`] appended to `out`: most kinds are said by their name alone, written in place.
fn push_label(out: &mut String, kind: &'static str, name: &str) {
    let (members, special): (Vec<char>, Vec<Special>) = match kind {
        value::NAME_OTHER => (
            name.chars()
                .filter(|c| c.is_ascii() && !c.is_ascii_alphanumeric())
                .filter(|c| !matches!(c, '_' | '-' | '.' | ':' | '/' | ' '))
                .collect(),
            vec![("control", |c: char| c.is_control())],
        ),
        value::NAME_NON_ASCII => (
            name.chars().filter(|c| !c.is_ascii()).collect(),
            vec![
                ("control", |c: char| c.is_control()),
                ("bidi control", is_bidi),
            ],
        ),
        _ => {
            out.push_str(kind);
            out.push_str(" characters");
            return;
        }
    };
    let groups: Vec<String> = special
        .iter()
        .filter(|(_, is)| members.iter().any(|c| is(*c)))
        .map(|(what, is)| {
            format!(
                "{what} characters ({})",
                code_points(members.iter().copied().filter(|c| is(*c)))
            )
        })
        .collect();
    let rest = members
        .iter()
        .any(|c| special.iter().all(|(_, is)| !is(*c)));
    match (groups.is_empty(), rest) {
        (true, _) => {
            out.push_str(kind);
            out.push_str(" characters");
        }
        (false, false) => out.push_str(&groups.join(" and ")),
        (false, true) => {
            out.push_str(kind);
            out.push_str(" characters and ");
            out.push_str(&groups.join(" and "));
        }
    }
}

/// What the name has of `kind`, as the message says it after the name: a kind of character
/// ("has digit characters"), or where the name starts, which is about one character and not
/// a kind ("leading-digit characters" read as if digits were wrong anywhere in the name).
fn push_what_it_has(out: &mut String, kind: &'static str, name: &str) {
    out.push_str(match kind {
        value::NAME_LEADING_DIGIT => "starts with a digit",
        value::NAME_LEADING_UNDERSCORE => "starts with an underscore",
        value::NAME_LEADING_HYPHEN => "starts with a hyphen",
        value::NAME_LEADING_DOT => "starts with a dot",
        value::NAME_LEADING_COLON => "starts with a colon",
        _ => {
            out.push_str("has ");
            return push_label(out, kind, name);
        }
    });
}

fn tool<'a>(cx: &mut Cx<'a, '_>, t: &ToolRef<'a>) {
    let Some(name) = t.name else { return };
    let seen = kind_bits(name);
    // The common case, a snake_case name, needs no list. (No digit in it, so none leads.)
    if seen & !(LOWER | UNDERSCORE) == 0 && seen & LOWER != 0 && !name.starts_with('_') {
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
        if seen & UNDERSCORE != 0 {
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
    let clash = clash.as_deref();
    each_kind_of(name, seen, |kind| {
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
                    m.push_str("` ");
                    push_what_it_has(m, kind, name);
                }
            },
            |m| {
                let Some(clash) = clash else { return false };
                m.push_str(&rename_clash_fix(clash));
                true
            },
        );
    });
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;

    /// The fix asked for a name "starting with a letter" while repair writes `_1tool` for
    /// `1tool` (trial 69 D3): the fix's words and its example are what repair makes.
    #[test]
    fn the_fix_names_the_first_characters_repair_writes() {
        let rule = crate::names::portable();
        assert_eq!(rule.sanitize("21st.magic"), "_21st_magic");
        assert!(
            super::RULE
                .fix
                .contains("starting with a letter or an underscore")
                && super::RULE
                    .fix
                    .contains("repair writes `_21st_magic` for `21st.magic`"),
            "{}",
            super::RULE.fix
        );
        for name in ["1tool", "-x", ".x", "ünïcode"] {
            let first = rule.sanitize(name).chars().next();
            assert!(
                first.is_some_and(|c| c == '_' || c.is_ascii_alphabetic()),
                "{name}: {first:?}"
            );
        }
    }

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

    /// A leading hyphen, dot or colon is a feature of its own beside the kind of the
    /// character: Gemini and Vertex AI allow each inside a name but not first.
    #[test]
    fn a_leading_hyphen_dot_or_colon_is_its_own_kind() {
        let r = "name-invalid";
        for (name, kind, leading) in [
            ("-ab", "hyphen", "leading-hyphen"),
            (".ab", "dot", "leading-dot"),
            (":ab", "colon", "leading-colon"),
        ] {
            let (kind, leading) = (
                format!("name-chars: {kind}"),
                format!("name-chars: {leading}"),
            );
            assert_eq!(
                seen_tools(r, &[(Some(name), None, None)]),
                pairs(&[
                    ("", "name-chars: lowercase"),
                    ("", kind.as_str()),
                    ("", leading.as_str()),
                ]),
                "{name}"
            );
        }
        assert_eq!(
            seen_tools(r, &[(Some("-"), None, None)]),
            pairs(&[
                ("", "name-chars: hyphen"),
                ("", "name-chars: leading-hyphen")
            ])
        );
        // Inside a name the character is only its kind.
        assert_eq!(
            seen_tools(r, &[(Some("a-b.c:d"), None, None)]),
            pairs(&[
                ("", "name-chars: lowercase"),
                ("", "name-chars: hyphen"),
                ("", "name-chars: dot"),
                ("", "name-chars: colon"),
            ])
        );
    }

    #[test]
    fn control_and_bidi_characters_are_called_so() {
        use super::label;
        use crate::profile::feature::value::{NAME_NON_ASCII, NAME_OTHER};
        let name = "t\u{7}\u{202e}\u{e9}\u{2026}";
        assert_eq!(label(NAME_OTHER, name), "control characters (U+0007)");
        assert_eq!(
            label(NAME_NON_ASCII, name),
            "non-ascii characters and bidi control characters (U+202E)"
        );
        assert_eq!(
            label(NAME_OTHER, "a!b\u{1b}"),
            "other-punctuation characters and control characters (U+001B)"
        );
        assert_eq!(label(NAME_OTHER, "a!b"), "other-punctuation characters");
        assert_eq!(
            label(NAME_NON_ASCII, "x\u{9b}\u{2067}"),
            "control characters (U+009B) and bidi control characters (U+2067)"
        );
        assert_eq!(label(NAME_NON_ASCII, "caf\u{e9}"), "non-ascii characters");
        // The kinds judged are unchanged: the evidence is that of these cases.
        let r = "name-invalid";
        assert_eq!(
            seen_tools(r, &[(Some(name), None, None)]),
            pairs(&[
                ("", "name-chars: lowercase"),
                ("", "name-chars: other-punctuation"),
                ("", "name-chars: non-ascii"),
            ])
        );
    }

    /// Where a name starts is said as such under every profile that reports it: "has
    /// leading-digit characters" read as if digits were wrong anywhere in the name. A name
    /// of digits after a letter reports no start at all.
    #[test]
    fn a_leading_digit_or_underscore_is_said_as_where_the_name_starts() {
        use crate::profile::detect::ToolRef;
        let set = crate::profile::embedded().expect("built-in profiles load");
        let parameters = serde_json::json!({"type": "object", "properties": {}});
        let messages = |name: &'static str, profile: &crate::profile::CompiledProfile| {
            let tool = ToolRef {
                name: Some(name),
                description: Some("Looks up a record by its identifier."),
                parameters: Some(&parameters),
                index: 0,
                ..Default::default()
            };
            crate::check::check_tools(&[tool], profile)
                .into_iter()
                .filter(|f| f.rule == "name-invalid")
                .map(|f| (f.parameter.to_string(), f.message.to_string()))
                .collect::<Vec<_>>()
        };
        let mut reported = 0;
        for p in &set.profiles {
            let profile = crate::profile::CompiledProfile::new(p);
            for (name, parameter, says) in [
                (
                    "2fa_code",
                    "name-chars: leading-digit",
                    "starts with a digit",
                ),
                (
                    "_private",
                    "name-chars: leading-underscore",
                    "starts with an underscore",
                ),
                ("-ab", "name-chars: leading-hyphen", "starts with a hyphen"),
                (".ab", "name-chars: leading-dot", "starts with a dot"),
                (":ab", "name-chars: leading-colon", "starts with a colon"),
            ] {
                for (param, message) in messages(name, &profile) {
                    assert!(!message.contains("leading-"), "{}: {message}", p.name);
                    if param == parameter {
                        reported += 1;
                        let expected = format!("tool name `{name}` {says}: ");
                        assert!(message.starts_with(&expected), "{}: {message}", p.name);
                    }
                }
            }
            assert!(
                messages("sha256", &profile)
                    .iter()
                    .all(|(_, m)| !m.contains("starts with")),
                "{}",
                p.name
            );
        }
        // Most profiles have evidence against or none for these cases: each reports them.
        assert!(reported >= set.profiles.len(), "{reported}");
    }
}
