//! `property-name-invalid`: a property name (a key of `properties`) with characters or a
//! length the profile does not allow.
//!
//! As `name-invalid` and `name-too-long` do for the tool name, the rule only finds the
//! features (`structure: property-name-<kind>`, `property-name-length-limit: N`); whether each
//! is allowed is the profile's, derived from the evidence, so a kind no target has evidence
//! for is a warning and one a target rejects an error.

use super::*;

pub const RULE: Rule = Rule {
    id: "property-name-invalid",
    checks: "Each property name (a key of `properties`, at any depth): each kind of character \
             outside letters, digits, `_`, `.` and `-` (space, slash, tilde, other ASCII \
             punctuation, non-ASCII, control or bidi control characters) and the empty name, \
             each judged by its `structure: property-name-<kind>` case, and the name's length \
             in characters, judged by the `property-name-length-limit` cases. A name of \
             letters, digits, `_`, `.` and `-` shorter than the smallest length case is not \
             reported. Control and bidi characters (U+202A-U+202E, U+2066-U+2069, marks) are \
             named by their code points, and output for people shows them escaped \
             (`\\u{202e}`), never as themselves.",
    features: "`structure: property-name-<kind>`, `property-name-length-limit: N`",
    example: r#"{"type": "object", "properties": {"first name": {"type": "string"}}}"#,
    example_target: None,
    fix: "Rename the property to letters, digits and underscores (e.g. first_name), short \
          enough for the profile, and map the new name back in the code that reads the \
          arguments.",
    repair: "no (a new name changes which arguments the tool accepts)",
    repairable: never,
    owns,
    hooks: Hooks {
        node: Some(node),
        node_when: when::PROPERTIES,
        ..Hooks::NONE
    },
};

fn owns(p: &Param) -> bool {
    matches!(p, Param::Keyed(Kind::Structure, v) if v.starts_with(value::PROPERTY_NAME))
        || matches!(p, Param::Limit(Limit::PropertyNameLength, _))
}

// The kinds of character, one bit each; a name of none of them is plain.
const SPACE: u8 = 1;
const SLASH: u8 = 1 << 1;
const TILDE: u8 = 1 << 2;
const OTHER: u8 = 1 << 3;
const NON_ASCII: u8 = 1 << 4;
const CONTROL: u8 = 1 << 5;

/// The kind bits, in the order findings name them, with their features and words.
const KINDS: [(u8, &str, &str); 6] = [
    (SPACE, value::PROPERTY_NAME_SPACE, "space characters"),
    (SLASH, value::PROPERTY_NAME_SLASH, "slash characters"),
    (TILDE, value::PROPERTY_NAME_TILDE, "tilde characters"),
    (
        OTHER,
        value::PROPERTY_NAME_OTHER,
        "other-punctuation characters",
    ),
    (
        NON_ASCII,
        value::PROPERTY_NAME_NON_ASCII,
        "non-ascii characters",
    ),
    (
        CONTROL,
        value::PROPERTY_NAME_CONTROL,
        "control or bidi control characters",
    ),
];

/// The kind each byte is of: letters, digits, `_`, `.` and `-` none (0); a byte of a
/// multi-byte character is [`NON_ASCII`] until [`kind_bits`] looks at its character. One
/// table load a byte: every property name of every tool is read.
const BYTE_KIND: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = match b as u8 {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'.' | b'-' => 0,
            b' ' => SPACE,
            b'/' => SLASH,
            b'~' => TILDE,
            0..=0x1f | 0x7f => CONTROL,
            x if x.is_ascii() => OTHER,
            _ => NON_ASCII,
        };
        b += 1;
    }
    t
};

/// Whether `c` is of the control kind: a control or bidi formatting character, or a line or
/// paragraph separator, which does not show as what it is (a right-to-left override makes a
/// name read as another; output for people escapes these).
fn hidden(c: char) -> bool {
    c.is_control() || name_invalid::is_bidi(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The kinds of character in `name`, as bits: one byte scan, and a pass over the characters
/// only where a byte is not ASCII (to tell control and bidi characters from the rest).
fn kind_bits(name: &str) -> u8 {
    let bytes = name
        .bytes()
        .fold(0, |seen, b| seen | BYTE_KIND[usize::from(b)]);
    if bytes & NON_ASCII == 0 {
        return bytes;
    }
    name.chars()
        .filter(|c| !c.is_ascii())
        .fold(bytes & !NON_ASCII, |seen, c| {
            seen | if hidden(c) { CONTROL } else { NON_ASCII }
        })
}

/// How many characters of a long name a message shows before `…`.
const SHOWN_CHARS: usize = 32;

/// `name` as a message quotes it: a name longer than [`SHOWN_CHARS`] characters cut there
/// with `…` (its length is said beside it, and the finding's pointer holds it whole).
/// Control and bidi characters stay as they are, as in every message: output for people
/// escapes them (`\u{202e}`, [`crate::report::escape_inline`]), and JSON output is data.
pub fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    match name.char_indices().nth(SHOWN_CHARS) {
        Some((cut, _)) => format!("{}…", &name[..cut]).into(),
        None => name.into(),
    }
}

fn node(cx: &mut Cx<'_, '_>, n: &Node<'_>) {
    let Some(serde_json::Value::Object(props)) = n.properties else {
        return;
    };
    let placement = n.members_placement();
    // Characters never outnumber bytes: a shorter name needs no count.
    let floor = cx.limit_floor(Limit::PropertyNameLength);
    for name in props.keys() {
        let seen = kind_bits(name);
        if seen == 0 && !name.is_empty() && name.len() < floor {
            continue;
        }
        name_features(cx, n.frame, placement, name, seen, floor);
    }
}

/// Reports the features of property `name` of the `properties` at `frame`: its kinds of
/// character (`seen`, [`kind_bits`]), the empty name, and its length where it reaches `floor`.
fn name_features(
    cx: &mut Cx<'_, '_>,
    frame: u32,
    placement: Placement,
    name: &str,
    seen: u8,
    floor: usize,
) {
    let at = At::Member(frame, "properties", name);
    if name.is_empty() {
        cx.feature(
            at,
            Feat::Structure(value::PROPERTY_NAME_EMPTY),
            placement,
            || "the property name is empty".into(),
        );
        return;
    }
    for (bit, feature, words) in KINDS {
        if seen & bit != 0 {
            cx.feature(at, Feat::Structure(feature), placement, || {
                let mut m = format!("property name `{}` has {words}", shown(name));
                if bit == CONTROL {
                    m.push_str(&format!(
                        " ({})",
                        name_invalid::code_points(name.chars().filter(|c| hidden(*c)))
                    ));
                }
                m
            });
        }
    }
    if name.len() >= floor {
        let chars = name.chars().count();
        cx.feature(
            at,
            Feat::Limit(Limit::PropertyNameLength, chars),
            placement,
            || format!("property name `{}` has {chars} characters", shown(name)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use serde_json::json;

    const R: &str = "property-name-invalid";

    #[test]
    fn each_kind_of_character_is_a_feature_at_its_property() {
        assert_eq!(
            seen(
                R,
                json!({"type": "object", "properties": {
                    "has space": {"type": "string"},
                    "a/b~c": {"type": "string"},
                    "a:b": {"type": "string"},
                    "\u{fc}n\u{ef}": {"type": "string"},
                    "\u{202e}evil": {"type": "string"},
                    "bell\u{7}": {"type": "string"},
                    "": {"type": "string"},
                    "plain_Name-1.x": {"type": "string"}
                }})
            )
            .into_iter()
            .filter(|(_, p)| !p.starts_with("property-name-length-limit"))
            .collect::<Vec<_>>(),
            pairs(&[
                ("/properties/has space", "structure: property-name-space"),
                ("/properties/a~1b~0c", "structure: property-name-slash"),
                ("/properties/a~1b~0c", "structure: property-name-tilde"),
                (
                    "/properties/a:b",
                    "structure: property-name-other-punctuation"
                ),
                (
                    "/properties/\u{fc}n\u{ef}",
                    "structure: property-name-non-ascii"
                ),
                (
                    "/properties/\u{202e}evil",
                    "structure: property-name-control"
                ),
                ("/properties/bell\u{7}", "structure: property-name-control"),
                ("/properties/", "structure: property-name-empty"),
            ])
        );
    }

    /// Nested objects' names are read too, at their own placement; the length is measured
    /// in characters.
    #[test]
    fn nested_names_and_lengths() {
        let long = "\u{e9}".repeat(65);
        assert_eq!(
            seen(
                R,
                json!({"type": "object", "properties": {
                    "value": {"type": "array", "items": {"type": "object", "properties": {
                        long.clone(): {"type": "string"}
                    }}}
                }})
            ),
            pairs(&[
                ("/properties/value", "property-name-length-limit: 5"),
                (
                    &format!("/properties/value/items/properties/{long}"),
                    "structure: property-name-non-ascii"
                ),
                (
                    &format!("/properties/value/items/properties/{long}"),
                    "property-name-length-limit: 65"
                ),
            ])
        );
    }

    /// The message names the code points; for people the output escapes the character
    /// itself (`\u{202e}`), never printing it raw, and a long name is cut.
    #[test]
    fn control_and_bidi_characters_are_named_and_shown_escaped() {
        use super::shown;
        assert_eq!(shown(&"x".repeat(300)), format!("{}…", "x".repeat(32)));
        assert_eq!(
            shown(&"\u{e9}".repeat(33)),
            format!("{}…", "\u{e9}".repeat(32))
        );
        assert_eq!(shown("\u{fc}n\u{ef}"), "\u{fc}n\u{ef}");
        let messages = messages(
            R,
            json!({"type": "object", "properties": {"\u{202e}evil": {"type": "string"}}}),
        );
        assert_eq!(messages.len(), 1, "{messages:?}");
        let for_people = crate::report::escape_inline(&messages[0]);
        assert!(
            for_people.starts_with(
                "property name `\\u{202e}evil` has control or bidi control characters (U+202E): "
            ),
            "{for_people}"
        );
        assert!(!for_people.contains('\u{202e}'), "{for_people}");
    }

    /// The rule finds; the profile judges: no evidence is a warning, evidence against an
    /// error, evidence for nothing at all. A plain short name is never reported.
    #[test]
    fn the_profile_decides_warning_error_or_nothing() {
        use crate::check::Level;
        use crate::profile::Status;
        let schema = json!({"type": "object", "properties": {
            "has space": {"type": "string"},
            "a/b": {"type": "string"},
            "ok_name": {"type": "string"}
        }});
        let profile = nested_profile(
            "t/one",
            &[
                ("structure: property-name-space", Status::Rejected),
                ("structure: property-name-slash", Status::Allowed),
            ],
        );
        let found: Vec<_> = check_under(&profile, &schema)
            .into_iter()
            .filter(|f| f.rule == R)
            .map(|f| (f.pointer.to_string(), f.level))
            .collect();
        assert_eq!(found, [("/properties/has space".to_string(), Level::Error)]);
        let unknown = nested_profile("t/one", &[]);
        let found: Vec<_> = check_under(&unknown, &schema)
            .into_iter()
            .filter(|f| f.rule == R)
            .map(|f| (f.pointer.to_string(), f.level))
            .collect();
        assert_eq!(
            found,
            [
                ("/properties/has space".to_string(), Level::Warning),
                ("/properties/a~1b".to_string(), Level::Warning),
            ]
        );
    }
}
