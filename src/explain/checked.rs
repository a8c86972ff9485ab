//! The built-in profile `check --target T` judges by, compiled once for a caller that explains
//! many answers about one target (compile explains every answer of the offline model).

use std::cell::OnceCell;

use crate::profile::CompiledProfile;

/// The built-in profile named `id` (a target id, or `portable`), compiled when an
/// explanation first needs it and kept for the life of this value. Building a profile costs
/// more than explaining a one-tool answer: compile rebuilt it for each answer of the model,
/// about 70% of a 300-tool run. Owned by the caller, not a process-wide cache, so a run's
/// profile is dropped with the run.
#[derive(Debug)]
pub struct CheckProfile<'a> {
    id: &'a str,
    compiled: OnceCell<Option<CompiledProfile>>,
}

impl<'a> CheckProfile<'a> {
    /// The built-in profile of `id`, not compiled yet.
    pub fn new(id: &'a str) -> CheckProfile<'a> {
        CheckProfile {
            id,
            compiled: OnceCell::new(),
        }
    }

    /// The profile's id (the target's, or `portable`).
    pub fn id(&self) -> &'a str {
        self.id
    }

    /// The compiled profile; `None` when no built-in profile has that id (an engine, an
    /// unknown id) or the built-in set does not load.
    pub fn get(&self) -> Option<&CompiledProfile> {
        self.compiled
            .get_or_init(|| {
                let set = crate::profile::embedded_set().ok()?;
                set.get(self.id).map(CompiledProfile::new)
            })
            .as_ref()
    }
}
