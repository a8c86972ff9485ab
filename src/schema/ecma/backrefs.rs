//! Backreferences (`\1`, `\k<name>`) and whether fancy-regex reads them as ECMA-262 does.
//!
//! fancy-regex compiles a numbered backreference, and where its group has matched it means
//! what ECMA-262 means. Where the group has not matched (another alternative was taken, a `?`
//! skipped it, it comes later, or the reference is inside a lookbehind, which ECMA-262 matches
//! right to left) ECMA-262 matches the empty string (2024, §22.2.2.7.2 BackreferenceMatcher)
//! and fancy-regex fails: `^(?:(a)|b)\1$` takes "b" in Node and refuses it here. So a
//! reference is translated only when its group has surely matched by the time it is reached,
//! which is read from the pattern's shape alone, conservatively.
//!
//! A group inside a positive lookahead has matched once the lookahead has: ECMA-262 keeps the
//! captures of a lookahead that succeeds (2024, §22.2.2.4 CompileAssertion, `(?=`
//! Disjunction `)`), and fancy-regex does too, with the same atomic lookahead
//! (`^(?=(a+))a\1$` matches nothing in either, `^(?=(\d+))\1$` refuses "12a" in both; Node
//! v20.20.2, 2026-12-05). A group inside a negative lookaround
//! (whose captures are always unset after it) or a lookbehind stays unknown.
//!
//! Where the group may not have matched, fancy-regex's conditional `(?(N)\N|)` (the group's
//! text if it has matched, else the empty string) reads the reference as ECMA-262 does,
//! wherever fancy-regex's captures are ECMA-262's ([`Backref::guarded`]). They are not for a
//! group inside a repeated atom (`((a)|b)+`: ECMA-262 clears the atom's captures at each
//! repetition, 2024, §22.2.2.3.1 RepeatMatcher step 4, fancy-regex keeps an earlier one's), a
//! reference inside its own group (fancy-regex counts the group begun as matched) and a
//! lookbehind (ECMA-262 matches it right to left, §22.2.2.4): such a reference stays
//! untranslatable.

/// One capturing group.
struct Group {
    name: Option<String>,
    /// Byte offset of its `)`, once the scan has met it.
    closed_at: Option<usize>,
    /// The frames it is inside (by id) and which alternative of each it is in.
    path: Vec<(usize, usize)>,
    /// A quantifier allowing zero repetitions follows it or a frame holding it, or it is
    /// inside a negative lookaround or a lookbehind.
    may_skip: bool,
    /// Byte offset of its `(`.
    opened_at: usize,
    /// It, or a group holding it, is quantified to repeat (`+`, `*`, `{2}`, `{1,}`).
    repeated: bool,
    /// It is inside a lookbehind.
    behind: bool,
}

/// A backreference found in the pattern.
pub struct Backref {
    /// Byte range of the escape (`\k<n>` or `\1`) in the pattern.
    pub span: std::ops::Range<usize>,
    /// The 1-based number of the group it refers to; `None` when no group has its name or
    /// number.
    pub group: Option<usize>,
    /// Whether fancy-regex's `\N` matches what ECMA-262 matches here.
    pub exact: bool,
    /// Where not `exact`: whether fancy-regex's `(?(N)\N|)` matches what ECMA-262 matches
    /// here (see the module's documentation).
    pub guarded: bool,
    /// Written by name (`\k<n>`).
    pub named: bool,
}

/// The pattern's backreferences, and how many named groups it has (Annex B reads `\k` as a
/// literal `k` in a pattern with none).
pub fn scan(pattern: &str) -> (Vec<Backref>, usize) {
    let mut groups: Vec<Group> = Vec::new();
    // Open frames: (id, alternative index, capturing group index, is a lookaround whose
    // groups may be unset after it (all but a positive lookahead), is lookbehind). Frame 0 is
    // the whole pattern.
    let mut frames: Vec<(usize, usize, Option<usize>, bool, bool)> =
        vec![(0, 0, None, false, false)];
    // Alternatives per frame id, counted as `|` is met.
    let mut alternatives: Vec<usize> = vec![1];
    // (backref span, target, path at the reference, in a lookbehind)
    let mut refs: Vec<Found> = Vec::new();
    let bytes = pattern.as_bytes();
    let mut in_class = false;
    let mut i = 0;
    let path = |frames: &[(usize, usize, Option<usize>, bool, bool)]| {
        frames.iter().map(|f| (f.0, f.1)).collect::<Vec<_>>()
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\\' if !in_class => {
                let start = i;
                if bytes.get(i + 1) == Some(&b'k') && bytes.get(i + 2) == Some(&b'<') {
                    if let Some(close) = pattern[i + 3..].find('>') {
                        let name = pattern[i + 3..i + 3 + close].to_string();
                        i += 4 + close;
                        let behind = frames.iter().any(|f| f.4);
                        refs.push((start..i, Target::Name(name), path(&frames), behind));
                        continue;
                    }
                } else if bytes.get(i + 1).is_some_and(|d| (b'1'..=b'9').contains(d)) {
                    let mut end = i + 1;
                    while bytes.get(end).is_some_and(u8::is_ascii_digit) {
                        end += 1;
                    }
                    let number = pattern[i + 1..end].parse().unwrap_or(usize::MAX);
                    let behind = frames.iter().any(|f| f.4);
                    refs.push((start..end, Target::Number(number), path(&frames), behind));
                    i = end;
                    continue;
                }
                i += 2;
                continue;
            }
            b'\\' => {
                i += 2;
                continue;
            }
            b'[' if !in_class => in_class = true,
            b']' if in_class => in_class = false,
            _ if in_class => {}
            b'(' => {
                let rest = &pattern[i + 1..];
                let (capture, name, look, behind) = if let Some(r) = rest.strip_prefix("?<") {
                    if r.starts_with('=') || r.starts_with('!') {
                        (false, None, true, true)
                    } else {
                        let name = r.find('>').map(|e| r[..e].to_string());
                        (true, name, false, false)
                    }
                } else if rest.starts_with("?!") {
                    (false, None, true, false)
                } else if rest.starts_with("?=") {
                    (false, None, false, false)
                } else {
                    (!rest.starts_with('?'), None, false, false)
                };
                let id = alternatives.len();
                alternatives.push(1);
                let group = capture.then(|| {
                    let in_look = frames.iter().any(|f| f.3);
                    groups.push(Group {
                        name,
                        closed_at: None,
                        path: path(&frames),
                        may_skip: in_look,
                        opened_at: i,
                        repeated: false,
                        behind: frames.iter().any(|f| f.4),
                    });
                    groups.len() - 1
                });
                frames.push((id, 0, group, look, behind));
            }
            b'|' => {
                if let Some(top) = frames.last_mut() {
                    top.1 += 1;
                    alternatives[top.0] += 1;
                }
            }
            b')' if frames.len() > 1 => {
                let (id, _, group, look, _) = frames.pop().unwrap_or_default();
                if let Some(g) = group {
                    groups[g].closed_at = Some(i);
                }
                let optional = matches!(bytes.get(i + 1), Some(b'?' | b'*'))
                    || pattern[i + 1..].starts_with("{0");
                let repeated = repeats(&pattern[i + 1..]);
                if optional || look || repeated {
                    for g in groups.iter_mut() {
                        if g.path.iter().any(|&(f, _)| f == id) {
                            g.may_skip |= optional || look;
                            g.repeated |= repeated;
                        }
                    }
                    if let Some(g) = group {
                        groups[g].may_skip |= optional;
                        groups[g].repeated |= repeated;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    let named = groups.iter().filter(|g| g.name.is_some()).count();
    let out = refs
        .into_iter()
        .map(|(span, target, at, behind)| {
            let (index, named_ref) = match &target {
                Target::Name(n) => (groups.iter().position(|g| g.name.as_ref() == Some(n)), true),
                Target::Number(n) => ((1..=groups.len()).contains(n).then(|| n - 1), false),
            };
            let exact = index.is_some_and(|g| {
                let group = &groups[g];
                !behind
                    && !group.may_skip
                    // A reference inside its own group, or before it, meets it unset.
                    && group.closed_at.is_some_and(|c| c < span.start)
                    && group.path.iter().all(|&(frame, alt)| match at.iter().find(|f| f.0 == frame) {
                        Some(&(_, here)) => here == alt,
                        None => alternatives[frame] == 1,
                    })
            });
            let guarded = !exact
                && !behind
                && index.is_some_and(|g| {
                    let group = &groups[g];
                    let inside = group.opened_at < span.start
                        && group.closed_at.is_none_or(|c| c > span.start);
                    !group.repeated && !group.behind && !inside
                });
            Backref {
                span,
                group: index.map(|g| g + 1),
                exact,
                guarded,
                named: named_ref,
            }
        })
        .collect();
    (out, named)
}

/// Whether `rest`, the pattern after an atom, begins with a quantifier that lets the atom
/// match more than once (`*`, `+`, `{2}`, `{0,3}`, `{1,}`; not `?`, `{1}`, `{0,1}`, nor a `{`
/// Annex B reads as text).
fn repeats(rest: &str) -> bool {
    if rest.starts_with(['*', '+']) {
        return true;
    }
    let Some(inner) = rest
        .strip_prefix('{')
        .and_then(|r| r.split_once('}'))
        .map(|(inner, _)| inner)
    else {
        return false;
    };
    let (low, high) = inner.split_once(',').unwrap_or((inner, inner));
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    // Past u128, surely more than one.
    number(low) && (high.is_empty() || number(high) && high.parse::<u128>().map_or(true, |h| h > 1))
}

/// A reference as met: its span, target, the frames it is in, whether inside a lookbehind.
type Found = (std::ops::Range<usize>, Target, Vec<(usize, usize)>, bool);

enum Target {
    Name(String),
    Number(usize),
}
