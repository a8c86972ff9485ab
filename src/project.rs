//! The project's files: where the catalog and reports live, and regenerating every generated
//! file from the evidence (data flows one way: cases + runs + documented → matrix → ...).

use std::path::{Path, PathBuf};

use crate::case::Catalog;
use crate::error::Result;
use crate::evidence::matrix::{self, Documented, Matrix};
use crate::evidence::runlog::{self, RunLog};
use crate::report::{self, Mode};

/// Paths of one project checkout.
#[derive(Debug, Clone)]
pub struct Project {
    pub cases: PathBuf,
    pub reports: PathBuf,
}

impl Project {
    pub fn new(cases: impl Into<PathBuf>, reports: impl Into<PathBuf>) -> Self {
        Project {
            cases: cases.into(),
            reports: reports.into(),
        }
    }

    pub fn runs_dir(&self) -> PathBuf {
        self.reports.join("runs")
    }

    /// Whether `dir` holds a reports folder's files: `documented/` or one of the files
    /// [`Project::regenerate`] writes (`matrix.json`, `MATRIX.md`, `profile.json`,
    /// `RULES.md`). Its `runs/` is then where `rules --reports DIR` reads run logs, whatever
    /// the folder is named (a copy of the reports, `cp -r reports /tmp/rep`).
    pub fn holds_reports(dir: &Path) -> bool {
        dir.join("documented").is_dir()
            || ["matrix.json", "MATRIX.md", "profile.json", "RULES.md"]
                .iter()
                .any(|f| dir.join(f).is_file())
    }

    pub fn documented_dir(&self) -> PathBuf {
        self.reports.join("documented")
    }

    pub fn catalog(&self) -> Result<Catalog> {
        Catalog::load(&self.cases)
    }

    /// Run logs folded into the matrix: every log in `runs/` except runs against the emulator
    /// (their answers are never evidence) and logs cut short before their first observation
    /// (a probe killed at its start: nothing was observed, and folding one would date the
    /// matrix anew on no evidence).
    pub fn runs(&self) -> Result<Vec<RunLog>> {
        Ok(self
            .evidence_logs()?
            .into_iter()
            .filter(|r| !observed_nothing(r))
            .collect())
    }

    /// Run logs of `runs/` that were cut short (no footer: an interrupted probe), with how
    /// many observations each holds. Those with observations are folded in like the others
    /// (every observation in them was made); those without are not ([`Project::runs`]).
    /// Callers say so, so that a partial run is never folded, or passed over, unnoticed.
    pub fn cut_short_runs(&self) -> Result<Vec<(PathBuf, usize)>> {
        Ok(self
            .evidence_logs()?
            .into_iter()
            .filter(|r| r.footer.is_none())
            .map(|r| (r.path, r.observations.len()))
            .collect())
    }

    /// Run logs of `runs/` whose last line was cut short mid-write and left out, with that
    /// line's number ([`runlog::RunLog::cut_line`]). Callers warn about them.
    pub fn cut_lines(&self) -> Result<Vec<(PathBuf, usize)>> {
        Ok(self
            .evidence_logs()?
            .into_iter()
            .filter_map(|r| r.cut_line.map(|n| (r.path, n)))
            .collect())
    }

    /// Files of `runs/` a probe killed at its start left (empty, or a lone header line cut
    /// short mid-write), with why ([`runlog::Read::Unstarted`]). They hold nothing observed
    /// and are left out; callers name them, so that one is not passed over unnoticed.
    pub fn unstarted_runs(&self) -> Result<Vec<(PathBuf, String)>> {
        Ok(runlog::read_all(&self.runs_dir())?.unstarted)
    }

    /// The run logs of `runs/`. An emulated run there (copied in by hand: `probe` never
    /// writes one there) is refused, naming it: its answers are never evidence, and skipping
    /// it silently would leave it to be committed as if it were.
    fn evidence_logs(&self) -> Result<Vec<RunLog>> {
        let logs = runlog::read_all(&self.runs_dir())?.logs;
        if let Some(r) = logs
            .iter()
            .find(|r| r.header.emulated || r.holds_emulated_answers())
        {
            let why = if r.header.emulated {
                "an emulated run (toolwire emulate or a stand-in answered)"
            } else {
                "a run whose answers are noted as emulated (they carried x-toolwire-emulator: \
                 toolwire emulate answered, perhaps through a relay)"
            };
            return Err(crate::Error::input(
                &r.path,
                crate::error::Place::File,
                format!(
                    "{why}: its answers are never evidence, so it may not be in the run logs; \
                     remove it"
                ),
            ));
        }
        // A base URL from a variable is written as `{OPENAI_BASE_URL}`, so the note on each
        // answer, not its endpoint, is what says a stand-in gave it (trial 87 D3).
        if let Some((r, o)) = logs
            .iter()
            .find_map(|r| r.stand_in_answer().map(|o| (r, o)))
        {
            return Err(crate::Error::input(
                &r.path,
                crate::error::Place::File,
                format!(
                    "{} answered at {}, noted as not the provider's own host: a stand-in, not \
                     the provider, and its answers are never evidence; remove this run log",
                    o.target,
                    crate::probe::http::shown_url(&o.endpoint)
                ),
            ));
        }
        // A hosted provider is never on this machine: such an answer came from a stand-in,
        // even when the log's `emulated` marker was removed.
        for r in &logs {
            let hosted = |id: &str| {
                crate::target::find(id).is_some_and(|t| {
                    !matches!(
                        t.auth,
                        crate::target::AuthMode::None | crate::target::AuthMode::InProcess
                    )
                })
            };
            if let Some(o) = r
                .observations
                .iter()
                .find(|o| hosted(&o.target) && crate::probe::http::is_loopback(&o.endpoint))
            {
                return Err(crate::Error::input(
                    &r.path,
                    crate::error::Place::File,
                    format!(
                        "{} answered at {} on this machine: a stand-in, not the provider, and \
                         its answers are never evidence; remove this run log",
                        o.target,
                        crate::probe::http::shown_url(&o.endpoint)
                    ),
                ));
            }
        }
        Ok(logs)
    }

    /// Documented and reported evidence (`reports/documented/*.yaml`) mapped to cells of
    /// the catalog at `self.cases`.
    pub fn documented(&self) -> Result<Vec<Documented>> {
        self.documented_for(&self.catalog()?)
    }

    /// Documented and reported evidence mapped to cells of `catalog`. A feature no case of
    /// the catalog has is an error naming its file and place: left out, its evidence would
    /// vanish from every generated file while `rules` and `rules --check` passed.
    pub fn documented_for(&self, catalog: &Catalog) -> Result<Vec<Documented>> {
        Ok(self.resolved_for(catalog)?.documented)
    }

    /// [`Project::documented_for`], with the features reports show targets accepting as
    /// part of a whole tool.
    fn resolved_for(&self, catalog: &Catalog) -> Result<crate::evidence::documented::Resolved> {
        let docs = crate::evidence::documented::Documents::load(&self.documented_dir())?;
        let resolved = crate::evidence::documented::resolve(&docs, catalog);
        match resolved.unmatched.first() {
            Some(u) => Err(u.error()),
            None => Ok(resolved),
        }
    }

    /// The profile definitions (`portable` plus one per target).
    pub fn profile_specs(&self) -> Result<Vec<crate::profile::ProfileSpec>> {
        crate::profile::specs(&self.reports)
    }

    /// Builds the matrix from everything on disk, with the registry's target order, leaving
    /// out the observations of cases edited since their run ([`edited_since_run`]).
    pub fn matrix(&self, catalog: &Catalog) -> Result<Matrix> {
        let mut runs = self.runs()?;
        let edited = edited_since_run(&runs, catalog);
        self.matrix_of(catalog, &mut runs, &edited)
    }

    /// The matrix of `runs` without the observations `edited` names (which are removed from
    /// `runs`).
    fn matrix_of(
        &self,
        catalog: &Catalog,
        runs: &mut [RunLog],
        edited: &[Edited],
    ) -> Result<Matrix> {
        for e in edited.iter().rev() {
            let log = &mut runs[e.log];
            log.observations.remove(e.observation);
            log.lines.remove(e.observation);
        }
        let targets: Vec<String> = crate::target::registry()
            .iter()
            .map(|t| t.id.to_string())
            .collect();
        let resolved = self.resolved_for(catalog)?;
        let mut m = matrix::build(catalog, &targets, runs, &resolved.documented);
        m.shown = resolved.shown;
        Ok(m)
    }

    /// Regenerates (or in check mode, compares) every generated file: the matrix
    /// (`matrix.json`, `MATRIX.md`), the profiles (`profile.json`) and the rule table
    /// (`RULES.md`). Returns how many there are and which changed (or are stale).
    pub fn regenerate(&self, mode: Mode) -> Result<Regenerated> {
        let catalog = self.catalog()?;
        let mut runs = self.runs()?;
        let edited = edited_since_run(&runs, &catalog);
        let mut left_out = unknown_observations(&runs, &catalog);
        left_out.extend(edited.iter().map(|e| {
            let log = &runs[e.log];
            (
                log.path.clone(),
                log.lines[e.observation],
                e.problem.clone(),
            )
        }));
        left_out.sort();
        let m = self.matrix_of(&catalog, &mut runs, &edited)?;
        let profiles = crate::profile::derive::derive(&m, &catalog, &self.profile_specs()?);
        let mut changed = Vec::new();
        let files = [
            (self.reports.join("matrix.json"), report::to_json_pretty(&m)),
            (self.reports.join("MATRIX.md"), matrix::to_markdown(&m)),
            (
                self.reports.join("profile.json"),
                report::to_json_pretty(&profiles),
            ),
            (
                self.reports.join("RULES.md"),
                crate::profile::table::rules_md(&profiles, &m),
            ),
        ];
        let count = files.len();
        let profiles_built_in = files[2].1 == crate::profile::EMBEDDED_JSON;
        let profiles_path = files[2].0.clone();
        for (path, content) in files {
            changed.extend(report::write_generated(&path, &content, mode)?);
        }
        Ok(Regenerated {
            files: count,
            changed,
            profiles_not_built_in: (!profiles_built_in).then_some(profiles_path),
            left_out,
        })
    }
}

/// The command that rebuilds this binary as it was built: a debug build's user runs
/// `target/debug/toolwire`, which `cargo build --release` would leave stale.
const REBUILD: &str = if cfg!(debug_assertions) {
    "cargo build"
} else {
    "cargo build --release"
};

impl Regenerated {
    /// One `warning: LOG: line N: PROBLEM` per observation left out ([`Regenerated::left_out`]).
    pub fn left_out_warnings(&self) -> impl Iterator<Item = String> + '_ {
        self.left_out.iter().map(|(log, line, problem)| {
            format!("warning: {}: line {line}: {problem}", log.display())
        })
    }

    /// The note saying that the profiles just made are not the ones this binary checks with,
    /// e.g. `note: reports/profile.json differs from the profiles built into this toolwire,
    /// which check, ... use: ...`; `None` when they are the same.
    pub fn built_in_note(&self) -> Option<String> {
        let path = self.profiles_not_built_in.as_ref()?;
        Some(format!(
            "note: {} differs from the profiles built into this toolwire, which `check`, \
             `repair`, `compile`, `args`, `explain` and `rule` use: rebuild toolwire \
             (`{}`) or give them `--profiles {}`",
            path.display(),
            REBUILD,
            path.display()
        ))
    }
}

/// Observations of `runs` that name a case not in `catalog` or a target not in the
/// registry, as (log, line, problem). A case renamed or deleted after its run leaves such
/// lines in every older log, which must still load, so they are left out of the matrix;
/// callers warn, so that a mistyped id is not left out unnoticed.
pub fn unknown_observations(runs: &[RunLog], catalog: &Catalog) -> Vec<(PathBuf, usize, String)> {
    let mut out = Vec::new();
    for log in runs {
        for (o, line) in log.observations.iter().zip(&log.lines) {
            let problem = if catalog.get(&o.case).is_none() {
                format!(
                    "case {:?} is not in the catalog (renamed or deleted since the run?)",
                    o.case
                )
            } else if crate::target::find(&o.target).is_none() {
                format!("target {:?} is not a known target", o.target)
            } else {
                continue;
            };
            out.push((
                log.path.clone(),
                *line,
                format!("{problem}; this observation is not folded in"),
            ));
        }
    }
    out
}

/// An observation of a case edited since its run: `runs[log].observations[observation]`.
#[derive(Debug, Clone)]
pub struct Edited {
    pub log: usize,
    pub observation: usize,
    /// What differs, ending in "this observation is not folded in: ...".
    pub problem: String,
}

/// The observations of `runs` made of a case `catalog` now holds in another form, in log
/// and observation order. Such a verdict is about a request the case no longer sends: folded
/// in, a rejection of a case mended since (a count written `3.0`, then `3`) would stand
/// against the feature the case now isolates (trial 72, D1). An observation is of the case
/// as it is when its `case_digest` is the case's [`Case::digest`](crate::case::Case::digest).
/// One written before observations carried that digest (every log of 2026-11-30 to
/// 2026-12-06) is when it is an engine's and its `request_digest` is that of the input the
/// engine is given for the case now ([`crate::engine::Engine::input`]); an older HTTP
/// target's cannot be told and is folded in (no committed log holds one). Observations
/// without a request (empty `request_digest`: nothing was sent) say nothing either way.
pub fn edited_since_run(runs: &[RunLog], catalog: &Catalog) -> Vec<Edited> {
    use std::collections::HashMap;
    let engines = crate::engine::engines();
    let mut case_digests: HashMap<&str, String> = HashMap::new();
    let mut engine_digests: HashMap<(&str, &str), String> = HashMap::new();
    let mut out = Vec::new();
    for (li, log) in runs.iter().enumerate() {
        for (oi, o) in log.observations.iter().enumerate() {
            let Some(case) = catalog.get(&o.case) else {
                continue;
            };
            let (then, now, what) = if let Some(then) = &o.case_digest {
                let now = case_digests
                    .entry(case.id.as_str())
                    .or_insert_with(|| case.digest());
                (then, now.clone(), "case digest")
            } else if let Some(engine) = engines.iter().find(|e| e.id() == o.target)
                && !o.request_digest.is_empty()
            {
                let now = engine_digests
                    .entry((case.id.as_str(), engine.id()))
                    .or_insert_with(|| crate::evidence::digest(&engine.input(&case.tools)));
                (&o.request_digest, now.clone(), "request digest")
            } else {
                continue;
            };
            if *then != now {
                out.push(Edited {
                    log: li,
                    observation: oi,
                    problem: format!(
                        "case {:?} was edited since this run: it sent other tools then ({what} \
                         {then}, now {now}); this observation is not folded in: probe the case \
                         again",
                        o.case
                    ),
                });
            }
        }
    }
    out
}

/// What [`Project::regenerate`] did.
#[derive(Debug)]
pub struct Regenerated {
    /// How many generated files were compared (or written when they changed).
    pub files: usize,
    /// The files that changed (or, in check mode, are stale or missing).
    pub changed: Vec<PathBuf>,
    /// The profiles file, when what the evidence gives differs from the profiles built into
    /// this binary (which every command but `probe` and `rules` uses unless given
    /// `--profiles`): a contributor's new case or run is not seen by `check` until a rebuild.
    pub profiles_not_built_in: Option<PathBuf>,
    /// Observations left out of the matrix, as (log, line, problem), in that order, for the
    /// caller to warn about: those naming an unknown case or target
    /// ([`unknown_observations`]) and those of a case edited since ([`edited_since_run`]).
    pub left_out: Vec<(PathBuf, usize, String)>,
}

/// Reads `reports/matrix.json` as committed (for the suite and the re-probe rule).
pub fn read_matrix(path: &Path) -> Result<Matrix> {
    let value = crate::json::load_file(
        path,
        crate::json::Limits {
            max_bytes: 256 * 1024 * 1024,
            max_depth: 64,
        },
    )?;
    crate::json::from_value_at(value).map_err(|(pointer, e)| {
        let place = if pointer.is_empty() {
            crate::error::Place::File
        } else {
            crate::error::Place::Pointer(pointer)
        };
        crate::error::Error::input(path, place, e.to_string())
    })
}

/// Refuses a path of a project folder (a case, a run log, a documented-evidence file) that
/// is neither a file nor a folder (a FIFO, a socket, a device): opening one blocks until
/// something writes to it, so `rules`, `probe` and `cargo test` would hang, and toolwire
/// writes none. Symbolic links are followed; a path that cannot be read is left to the read
/// that follows, which names the problem.
pub(crate) fn refuse_special_file(path: &Path) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() && !m.is_dir() => Err(crate::Error::input(
            path,
            crate::error::Place::File,
            "not a regular file (a FIFO, socket or device); only files are read here",
        )),
        _ => Ok(()),
    }
}

/// A log cut short before its first observation.
fn observed_nothing(r: &RunLog) -> bool {
    r.footer.is_none() && r.observations.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Documented evidence for a feature no case has (a typo) vanished from every generated
    /// file while `rules` exited 0: it is an error naming the file and the feature's place.
    #[test]
    fn documented_evidence_for_no_case_is_refused_where_it_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let project = Project::new("cases", dir.path());
        let catalog = project.catalog().expect("the committed cases load");
        std::fs::create_dir_all(project.documented_dir()).unwrap();
        let file = project.documented_dir().join("scratch.yaml");
        let write = |features: &str| {
            std::fs::write(
                &file,
                format!(
                    "- id: r1\n  kind: report\n  url: https://example.com/1\n  date: '2025-07-01'\n  cells:\n  - targets: [mistral/chat]\n    features: [{features}]\n    placement: nested\n    verdict: rejected\n"
                ),
            )
            .unwrap()
        };
        write("'keyword-allowed: minLength', 'keyword-allowed: minLenght'");
        let err = project.documented_for(&catalog).unwrap_err().to_string();
        assert!(
            err.contains("scratch.yaml: at /0/cells/0/features/1: r1: feature \"keyword-allowed: minLenght\" at placement nested matches no case"),
            "{err}"
        );
        // The cause may be a case edited under cases/, not this file: the error says where
        // features are looked up.
        assert!(
            err.contains("looked up among the cases' `parameter` and `placement`"),
            "{err}"
        );
        write("'keyword-allowed: minLength'");
        let found = project
            .documented_for(&catalog)
            .expect("a feature with a case");
        assert!(!found.is_empty());
        assert!(found.iter().all(|d| d.target == "mistral/chat"));
    }

    /// Over the committed evidence, an acceptance derived from a report's whole tool decides
    /// no cell that holds a rejection of its day or later: it fills cells nothing else
    /// speaks to, or adds to acceptances, and some report's tool does speak.
    #[test]
    fn a_whole_tool_acceptance_decides_over_no_rejection_of_its_day_or_later() {
        let committed = Project::new("cases", "reports");
        let m = committed
            .matrix(&committed.catalog().unwrap())
            .expect("the committed evidence folds");
        let mut deciding = 0;
        for cell in &m.cells {
            let Some(decided) = cell.deciding_item().filter(|it| it.whole_tool) else {
                continue;
            };
            deciding += 1;
            let overruled = cell.evidence.iter().find(|it| {
                it.verdict == crate::evidence::Verdict::Rejected
                    && it.last_seen >= decided.last_seen
            });
            assert_eq!(overruled, None, "{} on {}", cell.case, cell.target);
        }
        assert!(deciding > 0, "no cell is decided by a whole tool");
        assert!(!m.shown.is_empty());
    }

    /// A committed run log without its footer line (as an interrupted probe leaves it) is
    /// named with its observations; the finished ones are not.
    #[test]
    fn a_run_without_its_footer_is_named_as_cut_short() {
        let committed = Project::new("cases", "reports");
        let finished = committed.runs().expect("the committed run logs read");
        let source = finished.first().expect("a committed run log");
        let text = std::fs::read_to_string(&source.path).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let project = Project::new("cases", dir.path());
        std::fs::create_dir(project.runs_dir()).unwrap();
        // The cut copy is a run of its own: one run in two files is refused.
        let renamed = text.replace(&source.header.run, "cut-copy");
        let lines: Vec<&str> = renamed.lines().collect();
        let cut = lines[..lines.len() - 1].join("\n") + "\n";
        let cut_path = project.runs_dir().join("cut.jsonl");
        std::fs::write(&cut_path, cut).unwrap();
        std::fs::write(project.runs_dir().join("whole.jsonl"), &text).unwrap();
        assert_eq!(
            project.cut_short_runs().unwrap(),
            vec![(cut_path.clone(), source.observations.len())]
        );
        // Killed before its first answer: named, but not folded in.
        let header_only = project.runs_dir().join("header-only.jsonl");
        std::fs::write(
            &header_only,
            format!("{}\n", lines[0].replace("cut-copy", "header-only")),
        )
        .unwrap();
        assert_eq!(
            project.cut_short_runs().unwrap(),
            vec![(cut_path, source.observations.len()), (header_only, 0)]
        );
        let folded: Vec<String> = project
            .runs()
            .unwrap()
            .iter()
            .map(|r| r.path.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(folded, ["cut.jsonl", "whole.jsonl"]);
        // Killed before its header was whole (trialO F3): an empty file and a lone header
        // line cut short mid-write are named and left out, never fatal.
        let empty = project.runs_dir().join("empty.jsonl");
        std::fs::write(&empty, "").unwrap();
        let half = project.runs_dir().join("half-header.jsonl");
        let head = lines[0].replace("cut-copy", "half-header");
        std::fs::write(&half, &head[..50]).unwrap();
        let unstarted = project.unstarted_runs().unwrap();
        let named: Vec<&std::path::Path> = unstarted.iter().map(|(p, _)| p.as_path()).collect();
        assert_eq!(named, [empty.as_path(), half.as_path()]);
        assert!(
            unstarted[0].1.starts_with("0 bytes, no header line"),
            "{unstarted:?}"
        );
        assert!(
            unstarted[1]
                .1
                .contains("(the header) was cut short mid-write at byte 50")
        );
        assert_eq!(project.runs().unwrap().len(), 2);
        assert!(project.cut_short_runs().is_ok());
        // Garbage in the middle of a log is still refused, naming the file and line.
        let garbage = project.runs_dir().join("garbage.jsonl");
        std::fs::write(
            &garbage,
            format!("{}\n{{not json\n", lines[0].replace("cut-copy", "garbage")),
        )
        .unwrap();
        let e = project.runs().unwrap_err().to_string();
        assert!(e.contains("garbage.jsonl: line 2"), "{e}");
    }

    /// A case renamed or deleted after its run leaves observations of it in older logs:
    /// they still load, and each such line is named (as one of an unknown target is) for
    /// the caller to warn about.
    #[test]
    fn observations_of_an_unknown_case_or_target_are_named() {
        let committed = Project::new("cases", "reports");
        let source = committed.runs().expect("the committed run logs read");
        let text = std::fs::read_to_string(&source[0].path).unwrap();
        let mut lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(lines.len() > 3 && lines[2]["type"] == "observation");
        lines[1]["case"] = "keywords/nope".into();
        lines[2]["target"] = "nope/x".into();
        let dir = tempfile::tempdir().unwrap();
        let project = Project::new("cases", dir.path());
        std::fs::create_dir(project.runs_dir()).unwrap();
        let path = project.runs_dir().join("renamed.jsonl");
        let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, body).unwrap();
        let named = unknown_observations(
            &project.runs().expect("an old log still loads"),
            &project.catalog().unwrap(),
        );
        let places: Vec<(PathBuf, usize)> = named.iter().map(|(p, l, _)| (p.clone(), *l)).collect();
        assert_eq!(places, [(path.clone(), 2), (path, 3)]);
        assert!(
            named[0]
                .2
                .starts_with("case \"keywords/nope\" is not in the catalog"),
            "{}",
            named[0].2
        );
        assert!(
            named[1]
                .2
                .starts_with("target \"nope/x\" is not a known target"),
            "{}",
            named[1].2
        );
        assert!(
            unknown_observations(&committed.runs().unwrap(), &committed.catalog().unwrap())
                .is_empty()
        );
    }

    /// The first observation of the committed logs of an engine, with a request, of a case in
    /// `catalog`, whose cell `matrix` holds accepted: (log, observation).
    fn an_accepted_engine_observation(
        runs: &[RunLog],
        catalog: &Catalog,
        matrix: &Matrix,
    ) -> (usize, usize) {
        runs.iter()
            .enumerate()
            .flat_map(|(li, r)| {
                r.observations
                    .iter()
                    .enumerate()
                    .map(move |(oi, o)| (li, oi, o))
            })
            .find(|(_, _, o)| {
                o.target.starts_with("engine/")
                    && !o.request_digest.is_empty()
                    && catalog.get(&o.case).is_some_and(|c| !c.is_control())
                    && matrix.cell(&o.case, &o.target).and_then(|c| c.verdict)
                        == Some(crate::evidence::Verdict::Accepted)
            })
            .map(|(li, oi, _)| (li, oi))
            .expect("the committed logs hold an engine's acceptance")
    }

    /// Trial 72, D1: a case edited after its run kept the run's verdicts. An observation is
    /// of the case as it is by its case digest, or (older logs) by an engine's request digest.
    #[test]
    fn an_observation_of_a_case_edited_since_its_run_is_found_by_its_digests() {
        let committed = Project::new("cases", "reports");
        let catalog = committed.catalog().unwrap();
        let mut runs = committed.runs().unwrap();
        // Every committed observation was made of its case as the catalog holds it now
        // (2,650 engine observations from before case digests, each by its request digest).
        let committed_edited = edited_since_run(&runs, &catalog);
        assert!(
            committed_edited.is_empty(),
            "{:?}",
            committed_edited.first()
        );
        let matrix = committed.matrix(&catalog).unwrap();
        let (li, oi) = an_accepted_engine_observation(&runs, &catalog, &matrix);
        let other = crate::evidence::digest(b"{\"tools\":[]}");
        let (a, b) = (oi + 1, oi + 2);
        let log = &mut runs[li].observations;
        let digest_of = |o: &crate::evidence::Observation| catalog.get(&o.case).unwrap().digest();
        let now = digest_of(&log[a]);
        // An older log's observation whose request is not the one the case gives now.
        log[oi].request_digest = other.clone();
        // Newer ones: the case digest decides, whatever the request digest.
        log[a].case_digest = Some(other.clone());
        log[b].case_digest = Some(digest_of(&log[b]));
        log[b].request_digest = other.clone();
        let edited = edited_since_run(&runs, &catalog);
        let found: Vec<(usize, usize)> = edited.iter().map(|e| (e.log, e.observation)).collect();
        assert_eq!(found, [(li, oi), (li, a)]);
        assert!(
            edited[0]
                .problem
                .contains(&format!("request digest {other}, now sha256:"))
        );
        assert!(
            edited[1]
                .problem
                .contains(&format!("case digest {other}, now {now}"))
        );
        assert!(edited.iter().all(|e| {
            e.problem
                .ends_with("this observation is not folded in: probe the case again")
        }));
    }

    /// Trial 72, D1: two runs rejecting a case as it was before an edit (seen twice, so
    /// they would decide) leave its cell as the runs of the case as it is have it.
    #[test]
    fn rejections_of_a_case_edited_since_do_not_reach_the_matrix() {
        let committed = Project::new("cases", "reports");
        let catalog = committed.catalog().unwrap();
        let matrix = committed.matrix(&catalog).unwrap();
        let runs = committed.runs().unwrap();
        let (li, oi) = an_accepted_engine_observation(&runs, &catalog, &matrix);
        let seen = runs[li].observations[oi].clone();
        let mut with_old = runs.clone();
        for day in [1, 2] {
            let mut log = runs[li].clone();
            log.header.run = format!("edited-{day}");
            log.header.started = chrono::Utc::now() + chrono::Duration::days(day);
            let mut o = seen.clone();
            o.run = log.header.run.clone();
            o.time = log.header.started;
            o.verdict = crate::evidence::Verdict::Rejected;
            o.error = Some("a count written 3.0".into());
            o.case_digest = Some(crate::evidence::digest(b"the case before its edit"));
            log.observations = vec![o];
            log.lines = vec![2];
            with_old.push(log);
        }
        let verdict = |m: &Matrix| m.cell(&seen.case, &seen.target).and_then(|c| c.verdict);
        let edited = edited_since_run(&with_old, &catalog);
        assert_eq!(edited.len(), 2);
        let m = committed
            .matrix_of(&catalog, &mut with_old.clone(), &edited)
            .unwrap();
        assert_eq!(verdict(&m), Some(crate::evidence::Verdict::Accepted));
        // Folded in, they would have decided.
        let m = committed.matrix_of(&catalog, &mut with_old, &[]).unwrap();
        assert_eq!(verdict(&m), Some(crate::evidence::Verdict::Rejected));
    }

    /// An emulated run log put into `runs/` by hand is refused by name, never skipped.
    #[test]
    fn an_emulated_run_in_the_run_logs_is_refused() {
        let committed = Project::new("cases", "reports");
        let source = committed.runs().expect("the committed run logs read");
        let text = std::fs::read_to_string(&source[0].path).unwrap();
        let (header, rest) = text.split_once('\n').unwrap();
        let mut header: serde_json::Value = serde_json::from_str(header).unwrap();
        header["emulated"] = serde_json::Value::Bool(true);
        let dir = tempfile::tempdir().unwrap();
        let project = Project::new("cases", dir.path());
        std::fs::create_dir(project.runs_dir()).unwrap();
        let path = project.runs_dir().join("emulated.jsonl");
        std::fs::write(&path, format!("{header}\n{rest}")).unwrap();
        let e = project.runs().unwrap_err().to_string();
        assert!(
            e.contains("emulated.jsonl") && e.contains("an emulated run"),
            "{e}"
        );
    }

    /// The text of the first committed run log, the engine target it holds and that
    /// engine's endpoint: a log for the tests below to move to a hosted target.
    fn committed_engine_log() -> (String, &'static str, String) {
        let committed = Project::new("cases", "reports");
        let source = committed.runs().expect("the committed run logs read");
        let text = std::fs::read_to_string(&source[0].path).unwrap();
        let engine = "engine/jsonschema-2020-12";
        assert!(text.contains(engine));
        let endpoint = source[0]
            .observations
            .iter()
            .find(|o| o.target == engine)
            .map(|o| o.endpoint.clone())
            .expect("an engine observation");
        (text, engine, endpoint)
    }

    /// A run log whose `emulated` marker was removed by hand still shows where a hosted
    /// target answered: a loopback address is a stand-in, and the log is refused.
    #[test]
    fn a_hosted_target_answering_on_loopback_is_refused_without_the_marker() {
        let (text, engine, endpoint) = committed_engine_log();
        let dir = tempfile::tempdir().unwrap();
        let project = Project::new("cases", dir.path());
        std::fs::create_dir(project.runs_dir()).unwrap();
        let path = project.runs_dir().join("unmarked.jsonl");
        let write = |address: &str| {
            let moved = text
                .replace(engine, "mistral/chat")
                .replace(&endpoint, &format!("http://{address}/v1/chat/completions"));
            std::fs::write(&path, moved).unwrap();
        };
        for address in ["127.0.0.1:45115", "localhost:8080", "[::1]:9"] {
            write(address);
            let e = project.runs().unwrap_err().to_string();
            assert!(
                e.contains("unmarked.jsonl")
                    && e.contains("mistral/chat answered at http://")
                    && e.contains("a stand-in"),
                "{address}: {e}"
            );
        }
        // The provider's own host is evidence as before.
        write("api.mistral.ai");
        assert_eq!(project.runs().unwrap().len(), 1);
    }

    /// Trial 87 D3: a stand-in's log made with `OPENAI_BASE_URL` writes its endpoint as
    /// `{OPENAI_BASE_URL}/…`; with its header's `emulated` flag removed it was folded in as
    /// probe evidence. The note on its answers refuses it.
    #[test]
    fn a_stand_ins_answers_are_refused_without_the_header_flag() {
        let (text, engine, endpoint) = committed_engine_log();
        let dir = tempfile::tempdir().unwrap();
        let project = Project::new("cases", dir.path());
        std::fs::create_dir(project.runs_dir()).unwrap();
        let path = project.runs_dir().join("stand-in.jsonl");
        let moved = text
            .replace(engine, "openai/chat")
            .replace(&endpoint, "{OPENAI_BASE_URL}/v1/chat/completions");
        assert!(!moved.contains("\"emulated\":true"));
        std::fs::write(&path, &moved).unwrap();
        // Without the note, nothing in the log tells the stand-in apart.
        assert_eq!(project.runs().unwrap().len(), 1);
        let noted: String = moved
            .lines()
            .map(|line| {
                let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
                if v["type"] == "observation" && v["target"] == "openai/chat" {
                    let note = v["note"].as_str().map(str::to_string);
                    v["note"] = crate::probe::http::noted(
                        crate::probe::http::STAND_IN_NOTE,
                        note.as_deref(),
                    )
                    .into();
                }
                format!("{v}\n")
            })
            .collect();
        std::fs::write(&path, noted).unwrap();
        let e = project.runs().unwrap_err().to_string();
        assert!(
            e.contains("stand-in.jsonl")
                && e.contains(
                    "openai/chat answered at {OPENAI_BASE_URL}/v1/chat/completions, noted as \
                     not the provider's own host: a stand-in"
                ),
            "{e}"
        );
    }

    /// A FIFO named like a case, a run log or a documented-evidence file is refused by name
    /// instead of blocking the load forever.
    #[cfg(unix)]
    #[test]
    fn a_fifo_among_the_project_files_is_refused_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = |path: &Path| {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let made = std::process::Command::new("mkfifo").arg(path).status();
            assert!(made.unwrap().success(), "mkfifo {}", path.display());
        };
        let cases = dir.path().join("cases");
        fifo(&cases.join("keywords/f-nested.yaml"));
        let project = Project::new(&cases, dir.path().join("reports"));
        fifo(&project.runs_dir().join("f.jsonl"));
        fifo(&project.documented_dir().join("f.yaml"));
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let errors = [
                project.catalog().map(|_| ()),
                project.runs().map(|_| ()),
                crate::evidence::documented::Documents::load(&project.documented_dir()).map(|_| ()),
            ];
            let _ = tx.send(errors.map(|r| r.unwrap_err().to_string()));
        });
        let errors = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the loads end instead of waiting on the FIFOs");
        for (e, name) in errors.iter().zip(["f-nested.yaml", "f.jsonl", "f.yaml"]) {
            assert!(
                e.contains(name) && e.contains("not a regular file (a FIFO"),
                "{e}"
            );
        }
    }

    /// A log whose last line was cut mid-write (a probe killed while writing) is read with
    /// that line left out and named; its whole observations are folded in.
    #[test]
    fn a_last_line_cut_mid_write_is_named_and_left_out() {
        let committed = Project::new("cases", "reports");
        let source = committed.runs().expect("the committed run logs read");
        let source = source
            .iter()
            .find(|r| r.observations.len() >= 2)
            .expect("a committed run log with observations");
        let text = std::fs::read_to_string(&source.path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let dir = tempfile::tempdir().unwrap();
        let project = Project::new("cases", dir.path());
        std::fs::create_dir(project.runs_dir()).unwrap();
        let cut = format!(
            "{}\n{}\n{}",
            lines[0],
            lines[1],
            &lines[2][..lines[2].len() / 2]
        );
        let cut_path = project.runs_dir().join("cut.jsonl");
        std::fs::write(&cut_path, cut).unwrap();
        assert_eq!(project.cut_lines().unwrap(), vec![(cut_path.clone(), 3)]);
        assert_eq!(project.cut_short_runs().unwrap(), vec![(cut_path, 1)]);
        assert_eq!(project.runs().unwrap()[0].observations.len(), 1);
    }

    /// A matrix.json edited by hand (or written by another version) is refused naming the
    /// file and the field: before, serde's message named only the type it expected, placed
    /// at "(whole file)", which in a file of thousands of cells left the reader to guess.
    #[test]
    fn a_bad_matrix_is_refused_naming_the_field() {
        let cell = serde_json::json!({
            "case": "control/baseline", "target": "openai/chat", "verdict": "accepted",
            "evidence": [{"kind": "probe", "verdict": "accepted", "first_seen": "2026-11-30",
                "last_seen": "2026-12-01", "count": 7, "source": "run-a"}]
        });
        let matrix = |cell: serde_json::Value| {
            serde_json::json!({"targets": ["openai/chat"], "cases": [], "runs": ["run-a"],
                "cells": [cell.clone(), cell]})
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("matrix.json");
        let read = |doc: serde_json::Value| {
            std::fs::write(&path, doc.to_string()).unwrap();
            read_matrix(&path)
        };
        let good = read(matrix(cell.clone())).expect("a well-formed matrix reads");
        assert_eq!(good.cells.len(), 2);
        let mut count = cell.clone();
        count["evidence"][0]["count"] = "7".into();
        let mut verdict = cell.clone();
        verdict["verdict"] = "maybe".into();
        let mut missing = cell.clone();
        missing.as_object_mut().unwrap().remove("target");
        for (doc, expected) in [
            (
                matrix(count),
                "at /cells/0/evidence/0/count: invalid type: string \"7\"",
            ),
            (
                matrix(verdict),
                "at /cells/0/verdict: unknown variant `maybe`",
            ),
            (matrix(missing), "at /cells/0: missing field `target`"),
            (
                serde_json::json!("cells"),
                "(whole file): invalid type: string \"cells\"",
            ),
        ] {
            let err = read(doc).unwrap_err().to_string();
            let file = path.display().to_string();
            assert!(err.starts_with(&format!("{file}: ")), "{err}");
            assert!(err.contains(expected), "{expected}: {err}");
        }
    }
}
