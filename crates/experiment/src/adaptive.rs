//! Adaptive seeds (`seeds: {min: N, max: M, settle: claims}`): seeds added until every claim is
//! settled, by a sequential rule that keeps each claim's error at most 5% however many times
//! it is looked at.
//!
//! The looks are planned before anything runs: `min` seeds, then twice as many each time, the
//! last capped at `max` ([`Looks::planned`]; 3 to 40 gives 3, 6, 12, 24, 40). Every look judges
//! the claims still open on the seeds it has, each interval at `1 - 0.05 / K` for `K` planned
//! looks (times the pairs a best case selects from): the 5% split over the looks (Bonferroni).
//! A claim's verdict is wrong only if one of its `K` intervals misses the true value, which
//! happens with probability at most `K x 0.05 / K`, whichever looks are actually taken and
//! whenever it stops; so stopping as soon as a look settles it, or at `max`, keeps its error at
//! most 5%. `tests/coverage.rs` checks the whole procedure by simulation.
//!
//! A claim settled at a look keeps that look's verdict. The next look adds seeds only to the
//! runs the claims still open read (their policies at their sweep points, every seed below the
//! next look's count); claims whose units are workloads drawn from a trace gain nothing from
//! seeds and are not extended by them.
//!
//! Adaptive episodes (`sweep: {episode: {from: F, min: N, max: M, settle: claims}}`) are the
//! same procedure over the windows of an `episode` transform: the looks count episodes `F,
//! F + 1, ...`, and only the claims whose units are those drawn workloads are extended. An
//! episode is added to every policy at the open claims' sweep points (each policy replays the
//! same window), so tables keep averaging the same episodes row by row.
//!
//! Everything here is a function of the stored runs ([`replay`]): the runner calls it to learn
//! which runs the next look needs, and the reports to judge, so an interrupted procedure resumes
//! from its stored runs and gives the same bytes.

use crate::ExperimentError;
use crate::claims::{ClaimResult, Unit};
use crate::interval::Verdict;
use crate::plan::RunPlan;
use crate::relaxation::Relaxations;
use crate::resolve::Experiment;
use crate::store::RunOutcome;
use std::collections::{BTreeMap, BTreeSet};

pub use crate::spec::{LookUnit, Looks, MAX_SEEDS};

/// Where the procedure stands on the stored runs.
#[derive(Clone, Debug)]
pub struct Replay {
    /// Each claim's verdict: at the look that settled it, else at the last look whose runs are
    /// all stored (inconclusive). Empty when not even the first look's runs are stored.
    pub claims: Vec<ClaimResult>,
    /// The last look whose runs are all stored (0-based), if any.
    pub look: Option<usize>,
    /// The run keys the looks so far read (the reports show these runs).
    pub used: BTreeSet<String>,
    /// The runs the next look needs that are not stored; empty when the procedure is done
    /// (every claim settled, the last look reached, or no open claim gains from seeds).
    pub next: Vec<RunPlan>,
}

/// The run's position among the units the looks add (`0..max`): its seed or its episode,
/// counted from `from`.
fn position(looks: &Looks, plan: &RunPlan) -> u64 {
    match looks.over {
        LookUnit::Seeds { from } => plan.seed.saturating_sub(from),
        LookUnit::Episodes { from } => {
            plan.point.get(crate::axis::Axis::Episode).map_or(0, |episode| (episode as u64).saturating_sub(from))
        }
    }
}

/// Whether a verdict ends a claim's looks: settled, or censored (a run that did not drain by
/// `sim.max_time` stays so whatever seeds are added).
pub fn settles(verdict: &Verdict) -> bool {
    matches!(verdict, Verdict::Holds | Verdict::Missed | Verdict::Unreachable { .. } | Verdict::Censored { .. })
}

/// Whether a claim's value needs the run: one of the claim's policies at its sweep point, or
/// there the policy finish-time fairness divides by (`fairness_reference`) for an `ftf_rho`
/// claim; with adaptive episodes, every policy at the claim's sweep point.
fn needs(experiment: &Experiment, claim: &crate::resolve::Claim, plan: &RunPlan) -> bool {
    // An episode is a workload every policy replays: it is added to all of them at the claim's
    // points, so that a table's rows keep averaging the same episodes.
    if let Some(Looks { over: LookUnit::Episodes { .. }, .. }) = experiment.adaptive {
        return crate::claims::reads(&claim.with_policy(&plan.policy.to_string()), plan);
    }
    crate::claims::value_reads(experiment, claim, plan)
}

/// Replays the procedure on `outcomes` (the stored runs with the current inputs): judges the
/// looks whose runs are stored, in order, and says which runs the next one needs.
///
/// # Panics
/// If the experiment's seeds are not adaptive.
pub fn replay(experiment: &Experiment, outcomes: &[RunOutcome], relaxations: &Relaxations) -> Replay {
    let looks = experiment.adaptive.as_ref().expect("replay is for adaptive seeds");
    let plans = experiment.runs();
    let stored: BTreeMap<&str, &RunOutcome> = outcomes.iter().map(|outcome| (outcome.key.as_str(), outcome)).collect();
    // The first look runs everything the spec lists, at its seeds.
    let mut requested: BTreeSet<String> =
        plans.iter().filter(|plan| position(looks, plan) < looks.counts[0]).map(|plan| plan.key.clone()).collect();
    let claims = &experiment.report.claims;
    let mut settled: Vec<Option<ClaimResult>> = vec![None; claims.len()];
    let mut latest: Vec<ClaimResult> = Vec::new();
    let mut used = BTreeSet::new();
    let mut judged = None;
    let finish = |settled: Vec<Option<ClaimResult>>, latest: Vec<ClaimResult>| -> Vec<ClaimResult> {
        if latest.is_empty() {
            return Vec::new();
        }
        settled.into_iter().zip(latest).map(|(settled, latest)| settled.unwrap_or(latest)).collect()
    };
    // The claims the looks can settle: those whose units are what the looks add (seeds settle
    // every claim but those whose units are drawn workloads; episodes only those).
    let extends = |unit: Unit| match looks.over {
        LookUnit::Seeds { .. } => unit != Unit::Workload,
        LookUnit::Episodes { .. } => unit == Unit::Workload,
    };
    for (look, &count) in looks.counts.iter().enumerate() {
        let missing: Vec<RunPlan> = plans
            .iter()
            .filter(|plan| requested.contains(&plan.key) && !stored.contains_key(plan.key.as_str()))
            .cloned()
            .collect();
        if !missing.is_empty() {
            return Replay { claims: finish(settled, latest), look: judged, used, next: missing };
        }
        let plans_now: Vec<RunPlan> = plans
            .iter()
            .filter(|plan| position(looks, plan) < count && requested.contains(&plan.key))
            .cloned()
            .collect();
        used = plans_now.iter().map(|plan| plan.key.clone()).collect();
        let outcomes_now: Vec<RunOutcome> = plans_now.iter().map(|plan| (*stored[plan.key.as_str()]).clone()).collect();
        latest = crate::claims::evaluate_plans(experiment, &plans_now, &outcomes_now, relaxations, looks.count());
        judged = Some(look);
        for (slot, result) in settled.iter_mut().zip(&latest) {
            if slot.is_none() && settles(&result.verdict) {
                *slot = Some(result.clone());
            }
        }
        // Claims more units can settle: still open, with the looks' units as theirs.
        let open: Vec<usize> =
            (0..claims.len()).filter(|&index| settled[index].is_none() && extends(latest[index].unit)).collect();
        let Some(&next_count) = looks.counts.get(look + 1) else { break };
        if open.is_empty() {
            break;
        }
        for plan in &plans {
            if position(looks, plan) < next_count && open.iter().any(|&index| needs(experiment, &claims[index], plan)) {
                requested.insert(plan.key.clone());
            }
        }
    }
    Replay { claims: finish(settled, latest), look: judged, used, next: Vec::new() }
}

/// [`replay`] with the proof-backed bounds of the stored runs' workloads built here, for the
/// reports (the runner keeps its bounds across its rounds instead).
///
/// # Errors
/// A bound that cannot be built ([`crate::relaxation::relaxations`]).
pub fn replay_stored(experiment: &Experiment, outcomes: &[RunOutcome]) -> Result<Replay, ExperimentError> {
    let keys: BTreeSet<&str> = outcomes.iter().map(|outcome| outcome.key.as_str()).collect();
    let plans: Vec<RunPlan> = experiment.runs().into_iter().filter(|plan| keys.contains(plan.key.as_str())).collect();
    let mut relaxations = Relaxations::new();
    crate::relaxation::add_relaxations(experiment, &plans, &mut relaxations)?;
    Ok(replay(experiment, outcomes, &relaxations))
}
