//! A profile compiled for lookups: one hash lookup per feature met, no allocation unless the
//! feature is not allowed.

use std::collections::HashMap;

use super::derive::FALLBACK;
use super::feature::{Feat, Kind, Limit, Param, parse_parameter};
use super::{Profile, Status, TargetEvidence};
use crate::case::Placement;
use crate::check::Level;

/// A feature's status at one placement. The index points into the profile's details.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Allowed,
    Rejected(u32),
    Unknown(u32),
}

impl Slot {
    fn rank(self) -> u8 {
        match self {
            Slot::Allowed => 0,
            Slot::Unknown(_) => 1,
            Slot::Rejected(_) => 2,
        }
    }

    fn worst(self, other: Slot) -> Slot {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }
}

/// Index of the "no case covers it" detail.
const NO_CASE: u32 = u32::MAX;

/// Why a feature is not allowed.
#[derive(Debug, Clone)]
pub struct Detail {
    pub parameter: String,
    pub rejected_by: Vec<TargetEvidence>,
    pub unknown_for: Vec<String>,
}

const PLACEMENTS: usize = 6;

fn slot_index(p: Placement) -> usize {
    match p {
        Placement::Root => 0,
        Placement::Nested => 1,
        Placement::Items => 2,
        Placement::AnyofBranch => 3,
        Placement::Tool => 4,
        Placement::Request => 5,
    }
}

/// A profile ready for [`super::detect::check_request`].
#[derive(Debug, Clone)]
pub struct CompiledProfile {
    pub name: String,
    pub targets: Vec<String>,
    maps: Vec<HashMap<Box<str>, [Option<Slot>; PLACEMENTS]>>,
    /// Per limit (in [`Limit::ALL`] order): case values ascending, each with the worst status
    /// of every case value at or below it.
    limits: Vec<Vec<(usize, Slot)>>,
    details: Vec<Detail>,
}

impl CompiledProfile {
    /// Compiles a derived profile.
    pub fn new(profile: &Profile) -> CompiledProfile {
        let mut maps: Vec<HashMap<Box<str>, [Option<Slot>; PLACEMENTS]>> =
            (0..Kind::COUNT).map(|_| HashMap::new()).collect();
        let mut limits: Vec<Vec<(usize, Slot)>> = Limit::ALL.iter().map(|_| Vec::new()).collect();
        let mut details = Vec::new();
        for f in &profile.features {
            let slot = match f.status {
                Status::Allowed => Slot::Allowed,
                s => {
                    details.push(Detail {
                        parameter: f.parameter.clone(),
                        rejected_by: f.rejected_by.clone(),
                        unknown_for: f.unknown_for.clone(),
                    });
                    let i = (details.len() - 1) as u32;
                    if s == Status::Rejected {
                        Slot::Rejected(i)
                    } else {
                        Slot::Unknown(i)
                    }
                }
            };
            match parse_parameter(&f.parameter) {
                Some(Param::Keyed(kind, value)) => {
                    let slots = maps[kind.index()]
                        .entry(value.into_boxed_str())
                        .or_insert([None; PLACEMENTS]);
                    let s = &mut slots[slot_index(f.placement)];
                    *s = Some(s.map_or(slot, |old| old.worst(slot)));
                }
                Some(Param::Limit(l, n)) => {
                    let list = &mut limits[Limit::ALL.iter().position(|x| *x == l).unwrap_or(0)];
                    list.push((n, slot));
                }
                None => {}
            }
        }
        for map in &mut maps {
            for slots in map.values_mut() {
                let given = *slots;
                for p in [
                    Placement::Root,
                    Placement::Nested,
                    Placement::Items,
                    Placement::AnyofBranch,
                    Placement::Tool,
                    Placement::Request,
                ] {
                    if given[slot_index(p)].is_none() {
                        slots[slot_index(p)] = FALLBACK.iter().find_map(|q| given[slot_index(*q)]);
                    }
                }
            }
        }
        for list in &mut limits {
            list.sort_by_key(|(n, s)| (*n, std::cmp::Reverse(s.rank())));
            list.dedup_by_key(|(n, _)| *n);
            let mut acc = Slot::Allowed;
            for (_, s) in list.iter_mut() {
                acc = acc.worst(*s);
                *s = acc;
            }
        }
        CompiledProfile {
            name: profile.name.clone(),
            targets: profile.targets.clone(),
            maps,
            limits,
            details,
        }
    }

    /// The status of `feat` at `placement`. A feature no case covers is unknown.
    pub fn lookup(&self, feat: &Feat<'_>, placement: Placement) -> Slot {
        if let Feat::Limit(l, v) = *feat {
            let list = &self.limits[Limit::ALL.iter().position(|x| *x == l).unwrap_or(0)];
            return match list.partition_point(|(n, _)| *n <= v) {
                0 => Slot::Allowed,
                i => list[i - 1].1,
            };
        }
        let Some((kind, value)) = feat.lookup_key() else {
            return Slot::Unknown(NO_CASE);
        };
        match self.maps[kind.index()].get(value.as_ref()) {
            Some(slots) => slots[slot_index(placement)].unwrap_or(Slot::Unknown(NO_CASE)),
            None => Slot::Unknown(NO_CASE),
        }
    }

    /// The finding level and the evidence sentence for a slot that is not allowed.
    pub fn explain(&self, slot: Slot, feat: &Feat<'_>, _placement: Placement) -> (Level, String) {
        let (level, index) = match slot {
            Slot::Allowed => return (Level::Warning, String::new()),
            Slot::Rejected(i) => (Level::Error, i),
            Slot::Unknown(i) => (Level::Warning, i),
        };
        if index == NO_CASE {
            return (
                level,
                format!(
                    "no case covers `{}`, so no target of `{}` has evidence for it",
                    feat.parameter(),
                    self.name
                ),
            );
        }
        let d = &self.details[index as usize];
        let mut parts = Vec::new();
        if !d.rejected_by.is_empty() {
            parts.push(format!(
                "rejected by {}",
                list(d.rejected_by.iter().map(|e| {
                    let date = if e.since.is_empty() {
                        "undated".to_string()
                    } else {
                        e.since.clone()
                    };
                    format!("{} ({} {date})", e.target, e.kind.as_str())
                }))
            ));
        }
        if !d.unknown_for.is_empty() {
            parts.push(format!(
                "no evidence for {}",
                list(d.unknown_for.iter().cloned())
            ));
        }
        let mut s = parts.join("; ");
        if let Feat::Limit(..) = feat {
            s = format!("{s} (case `{}`)", d.parameter);
        }
        (level, s)
    }

    /// The details of the features not allowed (for tests and tables).
    pub fn details(&self) -> &[Detail] {
        &self.details
    }
}

fn list(items: impl Iterator<Item = String>) -> String {
    let all: Vec<String> = items.collect();
    if all.len() <= 4 {
        all.join(", ")
    } else {
        format!("{} and {} more", all[..3].join(", "), all.len() - 3)
    }
}
