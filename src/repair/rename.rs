//! The names repair sends tools under, decided in one place for `repair` (which writes them)
//! and `check` (which marks a name finding repairable only when the rename it promises does
//! not land on another tool's name), so that the two cannot drift apart.

use std::borrow::Cow;

use crate::case::Placement;
use crate::names::{NameOutcome, NameRule, census_of};
use crate::profile::CompiledProfile;
use crate::profile::compiled::Slot;
use crate::profile::feature::{Feat, Limit};
use crate::profile::rules::name_invalid;

/// Whether `profile` rejects something about the tool name `name` (a kind of character in it,
/// or its length): what makes repair rename the tool (an error of `name-invalid` or
/// `name-too-long`). A name with only warnings is sent as written.
pub fn rejects(profile: &CompiledProfile, name: &str) -> bool {
    let rejected =
        |feat: Feat<'_>| matches!(profile.lookup(&feat, Placement::Tool), Slot::Rejected(_));
    name_invalid::kinds(name)
        .into_iter()
        .any(|kind| rejected(Feat::NameChars(kind)))
        || rejected(Feat::Limit(Limit::NameLength, name.chars().count()))
}

/// The name repair renames a tool named `name` to: `name` made to fit `rule` (the profile's
/// [`super::name_rule`]); `name` itself when it already fits.
pub fn new_name(name: &str, rule: &NameRule) -> String {
    rule.sanitize(name)
}

/// The name a tool named `name` is sent under once repaired: [`new_name`] when the profile
/// rejects the name ([`rejects`]), else the name as written.
pub fn sent_name<'n>(name: &'n str, profile: &CompiledProfile, rule: &NameRule) -> Cow<'n, str> {
    if rejects(profile, name) {
        Cow::Owned(new_name(name, rule))
    } else {
        Cow::Borrowed(name)
    }
}

/// Why renaming tool `at` of a request to `to` would be refused by repair's name census
/// ([`census_of`]), `None` when it would not (or `to` is its name already): `given` holds the
/// names of the request's named tools as written and `sent` the names they are sent under
/// ([`sent_name`]), in the same order; `scope` names the profile, for the reason.
pub fn clash(given: &[&str], sent: &[&str], at: usize, to: &str, scope: &str) -> Option<String> {
    if given.get(at) == Some(&to) || !sent.iter().enumerate().any(|(k, s)| k != at && *s == to) {
        return None;
    }
    let pairs: Vec<(&str, &str)> = given
        .iter()
        .zip(sent)
        .enumerate()
        .map(|(k, (g, s))| (*g, if k == at { to } else { *s }))
        .collect();
    match census_of(&pairs, scope).swap_remove(at) {
        NameOutcome::Refused { reason } => Some(reason),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repair::tests::profile;

    #[test]
    fn a_rename_onto_a_name_another_tool_is_sent_under_clashes() {
        // Both renamed onto one name no tool had: each is told about the other.
        let given = ["a!b", "a.b", "c"];
        let sent = ["a_b", "a_b", "c"];
        let why = clash(&given, &sent, 0, "a_b", "p").expect("a clash");
        assert!(
            why.contains("`a!b` becomes `a_b`") && why.contains("the same as `a.b`"),
            "{why}"
        );
        // Onto the name of a tool that keeps it.
        let why = clash(&["a.b", "a_b"], &["a_b", "a_b"], 0, "a_b", "p").expect("a clash");
        assert!(
            why.contains("the name of the tool `a_b`, which keeps it"),
            "{why}"
        );
        // Onto a name no other tool is sent under, or no rename at all: none.
        assert_eq!(clash(&given, &["a_b", "a.b", "c"], 0, "a_b", "p"), None);
        assert_eq!(clash(&["c", "c"], &["c", "c"], 0, "c", "p"), None);
    }

    #[test]
    fn only_names_the_profile_rejects_are_sent_renamed() {
        let p = profile(&["name-chars: dot"]);
        let rule = crate::repair::name_rule(&p);
        assert!(rejects(&p, "a.b") && !rejects(&p, "a b"));
        assert_eq!(sent_name("a.b", &p, &rule), "a_b");
        // A space no evidence rejects is sent as written, though the rule would replace it.
        assert_eq!(sent_name("a b", &p, &rule), "a b");
        assert_eq!(new_name("a b", &rule), "a_b");
    }
}
