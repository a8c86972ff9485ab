//! How many times compile asks the target's offline model again after repairing what it
//! named. A model names one problem per answer (DeepSeek and OpenAI strict: the first place
//! they reject), so a request of N tools each with one rejected feature takes N rounds: a
//! budget for the whole request (it was 16 rounds) dropped every request of 17 such tools.
//! The budget is per tool, with an overall cap that grows with the request, so a model that
//! never accepts still stops; a tool past its share, or any tool named once the overall cap
//! is reached, is refused by itself and the others are still sent.

/// How many rounds one tool may be named in and repaired (its share of the budget).
pub const MAX_ROUNDS_PER_TOOL: usize = 16;

/// The overall cap on rounds however many tools the request holds: each round sends the whole
/// request (in process, but a large request costs its size each time).
pub const MAX_ROUNDS: usize = 4096;

#[cfg(test)]
thread_local! {
    /// The overall cap a test on this thread sets in place of the real one.
    pub static TEST_CAP: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// The rounds spent on one request, overall and per tool.
pub struct Budget {
    /// Rounds asked so far.
    rounds: usize,
    /// Rounds after which no tool named is repaired any more, only refused.
    cap: usize,
    /// Per tool: the rounds it was named in.
    spent: Vec<usize>,
    /// Per tool: the last round charged to it (a tool named twice in one answer pays once).
    last: Vec<usize>,
}

impl Budget {
    /// The budget of a request of `tools` function tools.
    pub fn new(tools: usize) -> Budget {
        let cap = MAX_ROUNDS_PER_TOOL
            .saturating_mul(tools.max(1))
            .min(MAX_ROUNDS);
        // Reaching the real cap takes thousands of rounds; a test sets a small one.
        #[cfg(test)]
        let cap = TEST_CAP.get().unwrap_or(cap);
        Budget {
            rounds: 0,
            cap,
            spent: vec![0; tools],
            last: vec![0; tools],
        }
    }

    /// Counts one more answer of the model.
    pub fn next_round(&mut self) {
        self.rounds += 1;
    }

    /// Whether the overall cap is reached: a tool named now is refused, not repaired.
    pub fn exhausted(&self) -> bool {
        self.rounds > self.cap
    }

    /// Whether the loop must stop whatever the answer: past the cap, every round that goes on
    /// refuses or localizes at least one of the `tools` tools, so this bound is never reached
    /// unless something makes no progress it claims.
    pub fn past_backstop(&self, tools: usize) -> bool {
        self.rounds > self.cap.saturating_add(tools).saturating_add(1)
    }

    /// Why a tool [`Budget::charge`] turned down is refused, as words after "still rejects
    /// the schema at this place".
    pub fn spent_words(&self) -> String {
        if self.exhausted() {
            format!(
                "once the request's {} rounds of repairs were spent",
                self.cap
            )
        } else {
            format!("after {MAX_ROUNDS_PER_TOOL} rounds of repairs of this tool")
        }
    }

    /// Charges this round to tool `i`, once per round; `false` when it has spent its share
    /// (or the overall cap is reached), and the tool is then to be refused.
    pub fn charge(&mut self, i: usize) -> bool {
        if self.exhausted() {
            return false;
        }
        let (Some(spent), Some(last)) = (self.spent.get_mut(i), self.last.get_mut(i)) else {
            return false;
        };
        if *last != self.rounds {
            *last = self.rounds;
            *spent += 1;
        }
        *spent <= MAX_ROUNDS_PER_TOOL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_pays_once_per_round_and_only_its_share() {
        let mut b = Budget::new(2);
        for _ in 0..MAX_ROUNDS_PER_TOOL {
            b.next_round();
            assert!(b.charge(0));
            assert!(b.charge(0), "named twice in one answer, charged once");
        }
        b.next_round();
        assert!(!b.charge(0), "past its share");
        assert!(b.charge(1), "the other tool keeps its own share");
    }

    #[test]
    fn the_overall_cap_grows_with_the_request_and_stops() {
        let mut b = Budget::new(20);
        for _ in 0..20 * MAX_ROUNDS_PER_TOOL {
            b.next_round();
        }
        assert!(!b.exhausted());
        b.next_round();
        assert!(b.exhausted());
        assert!(!b.charge(3));
        assert!(!b.past_backstop(20));
        for _ in 0..21 {
            b.next_round();
        }
        assert!(b.past_backstop(20));
        let huge = Budget::new(1_000_000);
        assert_eq!(huge.cap, MAX_ROUNDS);
    }
}
