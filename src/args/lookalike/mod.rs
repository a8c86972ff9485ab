//! Argument names that differ from a declared one only in Unicode normalization or letter
//! case. `u\u{308}n\u{ef}` (NFD) and `\u{fc}n\u{ef}` (NFC) print the same, so "`ünï` is not a
//! declared argument (expected `ünï`)" is a problem neither a model nor a person can act on;
//! naming the relation and the code points that differ is.

use std::collections::HashMap;

/// How an undeclared name relates to the declared one it looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Likeness {
    /// Canonically equivalent: equal after NFC (or NFD).
    Normalization,
    /// Equal after NFKC only (a ligature, a full-width or superscript form).
    Compatibility,
    /// Equal after lowercasing.
    Case,
    /// Equal after lowercasing and NFKC, and in nothing closer.
    CaseAndNormalization,
}

impl Likeness {
    fn words(self) -> &'static str {
        match self {
            Likeness::Normalization => "only in Unicode normalization (the same after NFC)",
            Likeness::Compatibility => "only in Unicode compatibility forms (the same after NFKC)",
            Likeness::Case => "only in letter case",
            Likeness::CaseAndNormalization => "only in letter case and Unicode normalization",
        }
    }
}

/// The declared names of one object, indexed by their normalized forms so that each
/// undeclared name costs one decomposition and two lookups, however many are declared.
pub struct Declared<'a> {
    canonical: HashMap<String, &'a str>,
    loose: HashMap<String, &'a str>,
}

impl<'a> Declared<'a> {
    /// Indexes `names`; the first of several declared names with one form wins.
    pub fn new(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut canonical = HashMap::new();
        let mut loose = HashMap::new();
        for name in names {
            canonical.entry(nfd(name)).or_insert(name);
            loose.entry(folded(name)).or_insert(name);
        }
        Declared { canonical, loose }
    }

    /// The declared name `sent` looks like, and how, when it is not itself declared.
    pub fn like(&self, sent: &str) -> Option<(&'a str, Likeness)> {
        if let Some(&d) = self.canonical.get(&nfd(sent)) {
            return (d != sent).then_some((d, Likeness::Normalization));
        }
        let &d = self.loose.get(&folded(sent))?;
        if d == sent {
            return None;
        }
        let how = if nfkd(d) == nfkd(sent) {
            Likeness::Compatibility
        } else if d.to_lowercase() == sent.to_lowercase() {
            Likeness::Case
        } else {
            Likeness::CaseAndNormalization
        };
        Some((d, how))
    }
}

/// The clause an undeclared-name problem gains: "it differs from the declared `ünï` only in
/// Unicode normalization (the same after NFC), U+0075 U+0308 where the declared name has
/// U+00FC". Names are escaped as the rest of the message escapes them.
pub fn clause(sent: &str, declared: &str, how: Likeness) -> String {
    let (ours, theirs) = differing(sent, declared);
    format!(
        "it differs from the declared `{}` {}, {} where the declared name has {}",
        crate::report::escape_inline(declared),
        how.words(),
        code_points(ours),
        code_points(theirs)
    )
}

/// The parts of `a` and `b` left when their common leading and trailing characters are cut.
fn differing<'s>(a: &'s str, b: &'s str) -> (&'s str, &'s str) {
    let head: usize = a
        .chars()
        .zip(b.chars())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum();
    let (a, b) = (&a[head..], &b[head..]);
    let tail: usize = a
        .chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum();
    (&a[..a.len() - tail], &b[..b.len() - tail])
}

/// `U+0075 U+0308`, at most 8 code points then `…` (a long differing run says enough by
/// then); `nothing` for an empty run.
fn code_points(s: &str) -> String {
    const MAX: usize = 8;
    if s.is_empty() {
        return "nothing".into();
    }
    let mut out: Vec<String> = s
        .chars()
        .take(MAX)
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    if s.chars().nth(MAX).is_some() {
        out.push("…".into());
    }
    out.join(" ")
}

/// The canonical decomposition (NFD): equal for two strings exactly when their NFC is.
fn nfd(s: &str) -> String {
    decomposed(s, icu_normalizer::DecomposingNormalizerBorrowed::new_nfd())
}

/// The compatibility decomposition (NFKD).
fn nfkd(s: &str) -> String {
    decomposed(s, icu_normalizer::DecomposingNormalizerBorrowed::new_nfkd())
}

fn decomposed(s: &str, by: icu_normalizer::DecomposingNormalizerBorrowed<'static>) -> String {
    // ASCII decomposes to itself: the common name costs no normalizer pass.
    if s.is_ascii() {
        return s.to_string();
    }
    by.normalize(s).into_owned()
}

/// NFKD, lowercased: the loosest form compared.
fn folded(s: &str) -> String {
    nfkd(&nfkd(s).to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cross-checked against Python's `unicodedata.normalize` on the same strings.
    #[test]
    fn decompositions_match_the_standard() {
        assert_eq!(nfd("\u{fc}n\u{ef}"), "u\u{308}ni\u{308}");
        assert_eq!(nfd("\u{1e69}"), "s\u{323}\u{307}");
        // Marks in either order are one canonical form.
        assert_eq!(nfd("q\u{307}\u{323}"), nfd("q\u{323}\u{307}"));
        assert_eq!(nfd("\u{d55c}"), "\u{1112}\u{1161}\u{11ab}");
        assert_eq!(nfkd("\u{fb01}le"), "file");
        assert_eq!(nfkd("\u{ff43}ity"), "city");
        assert_eq!(nfd("\u{fb01}le"), "\u{fb01}le");
    }

    #[test]
    fn look_alikes_are_found_and_named() {
        let d = Declared::new(["city", "\u{fc}n\u{ef}", "\u{d55c}"]);
        assert_eq!(
            d.like("u\u{308}n\u{ef}"),
            Some(("\u{fc}n\u{ef}", Likeness::Normalization))
        );
        assert_eq!(
            d.like("\u{1112}\u{1161}\u{11ab}"),
            Some(("\u{d55c}", Likeness::Normalization))
        );
        assert_eq!(
            d.like("\u{ff43}ity"),
            Some(("city", Likeness::Compatibility))
        );
        assert_eq!(d.like("City"), Some(("city", Likeness::Case)));
        assert_eq!(
            d.like("U\u{308}N\u{ef}"),
            Some(("\u{fc}n\u{ef}", Likeness::CaseAndNormalization))
        );
        assert_eq!(
            d.like("\u{dc}N\u{cf}"),
            Some(("\u{fc}n\u{ef}", Likeness::Case))
        );
        assert_eq!(d.like("city"), None, "a declared name is no look-alike");
        assert_eq!(d.like("town"), None);
        assert_eq!(d.like("u"), None);
    }

    #[test]
    fn the_clause_shows_the_code_points_that_differ() {
        assert_eq!(
            clause("u\u{308}n\u{ef}", "\u{fc}n\u{ef}", Likeness::Normalization),
            "it differs from the declared `\u{fc}n\u{ef}` only in Unicode normalization (the \
             same after NFC), U+0075 U+0308 where the declared name has U+00FC"
        );
        assert_eq!(
            clause("City", "city", Likeness::Case),
            "it differs from the declared `city` only in letter case, U+0043 where the declared \
             name has U+0063"
        );
        let long = "\u{301}".repeat(20);
        assert!(clause(&format!("a{long}"), "a", Likeness::Case).contains("U+0301 …"));
    }
}
