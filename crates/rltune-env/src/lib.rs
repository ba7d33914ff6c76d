//! RLTune's episodes without a network library: windows of a workload, the objectives the
//! authors score them on, and an episode run through schedlab's engine with any [`Chooser`],
//! rewarded against FCFS on the same window as the authors' environment rewards it. The trainer
//! (`schedlab-rltune-train`) and the Python package's Gymnasium environment both run these.

use schedlab_cluster::PerfModel;
use schedlab_core::{ClusterSpec, JobId, JobSpec, Time};
use schedlab_policies_rltune::network::Agent;
use schedlab_policies_rltune::observation::PoolRules;
use schedlab_policies_rltune::{Chooser, Order, RlTune, Step};
use schedlab_sim::SimConfig;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Training episodes start below this job index (the authors' `--batch_job_slice`, 10000); the
/// rest of a workload is held out for evaluation. The trainer's default, and the Gymnasium
/// environment's unless it is asked for later windows.
pub const TRAINING_JOBS: usize = 10_000;

/// What an agent is trained to lower: the authors' `--score_type` 0-3 (`job_score` and
/// `post_process_score`, helios_env_base_v2.py 1318-1345 and 1688-1720). An episode's score is
/// the mean over its jobs, except utilisation, whose score is minus the GPU-seconds of the
/// episode's jobs over the cluster's GPU-seconds from the first arrival to the last finish.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// 0: mean bounded slowdown `max(1, (wait + run) / max(run, 10 s))`.
    #[default]
    Bsld,
    /// 1: mean waiting time (first start minus arrival), in seconds.
    Wait,
    /// 2: mean turnaround time (finish minus arrival), in seconds.
    Turnaround,
    /// 3: utilisation, negated (lower is better, as the other scores).
    Utilization,
}

impl Objective {
    /// Every objective, in the authors' `score_type` order.
    pub const ALL: [Objective; 4] = [Objective::Bsld, Objective::Wait, Objective::Turnaround, Objective::Utilization];

    /// The name used on the command line, in manifests and in built-in weights names.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Bsld => "bsld",
            Objective::Wait => "wait",
            Objective::Turnaround => "turnaround",
            Objective::Utilization => "utilization",
        }
    }

    /// Parses [`Objective::name`].
    pub fn parse(text: &str) -> Result<Objective, String> {
        Objective::ALL.into_iter().find(|objective| objective.name() == text).ok_or_else(|| {
            let known: Vec<&str> = Objective::ALL.iter().map(|objective| objective.name()).collect();
            format!("expected one of {}, got '{text}'", known.join(", "))
        })
    }

    /// The episode's score (lower is better), as the authors' environment computes it.
    pub fn score(self, result: &schedlab_sim::RunResult) -> f64 {
        let metrics = &result.metrics;
        match self {
            Objective::Bsld => metrics.avg_bounded_slowdown,
            Objective::Wait => metrics.avg_queueing_delay,
            Objective::Turnaround => metrics.avg_jct,
            Objective::Utilization => -metrics.utilization,
        }
    }
}

/// One episode's window: jobs `start..start + window` of the workload, rebased to start at 0.
pub fn window(jobs: &[JobSpec], start: usize, len: usize) -> Vec<JobSpec> {
    let origin = jobs[start].arrival;
    jobs[start..start + len]
        .iter()
        .enumerate()
        .map(|(index, job)| {
            let mut job = job.clone();
            job.id = JobId(index as u32);
            job.arrival = Time::from_secs(job.arrival.secs() - origin.secs());
            job
        })
        .collect()
}

/// The environment an agent trains in.
pub struct Environment<'a> {
    /// The cluster.
    pub cluster: Arc<ClusterSpec>,
    /// The whole workload (sorted, ids = positions).
    pub jobs: &'a [JobSpec],
    /// Ground truth.
    pub perf: &'a dyn PerfModel,
}

/// One finished episode.
pub struct Episode {
    /// The agent's decisions.
    pub steps: Vec<Step>,
    /// The reward at the end.
    pub reward: f64,
    /// The agent's score on the trained objective.
    pub rl_score: f64,
    /// FCFS's score.
    pub base_score: f64,
}

impl Environment<'_> {
    /// Runs `chooser` on jobs `start..start + len`; returns its score on `objective` and the
    /// agent's recorded steps.
    pub fn run(
        &self,
        chooser: Chooser,
        rules: PoolRules,
        objective: Objective,
        (start, len): (usize, usize),
        seed: u64,
    ) -> Result<(f64, Vec<Step>), String> {
        let jobs = window(self.jobs, start, len);
        let mut policy = RlTune::new("rltune-train".to_string(), chooser, rules, false);
        policy.record = Some(Vec::new());
        let config = SimConfig { seed, check_invariants: false, ..SimConfig::default() };
        let result = schedlab_sim::run(self.cluster.clone(), &jobs, self.perf, &mut policy, &config)
            .map_err(|error| format!("window {start}..{}: {error}", start + len))?;
        Ok((objective.score(&result), policy.record.take().unwrap_or_default()))
    }

    /// One training episode: FCFS, then the sampling agent, on the same window.
    pub fn episode(
        &self,
        agent: &Arc<Agent>,
        rules: PoolRules,
        objective: Objective,
        window: (usize, usize),
        seed: u64,
    ) -> Result<Episode, String> {
        let (base, _) = self.run(Chooser::Order(Order::Fcfs), rules, objective, window, seed)?;
        let (rl, steps) =
            self.run(Chooser::Agent { agent: Arc::clone(agent), sample: true }, rules, objective, window, seed)?;
        Ok(Episode { steps, reward: relative_reward(base, rl), rl_score: rl, base_score: base })
    }
}

/// The authors' reward of an episode that scored `rl` where FCFS scored `base` on the same
/// window (lower scores are better): `(base - rl) / max(base, rl, 1)`.
pub fn relative_reward(base: f64, rl: f64) -> f64 {
    (base - rl) / base.max(rl).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_testkit::{cluster, job};

    #[test]
    fn a_window_is_consecutive_jobs_renumbered_from_time_zero() {
        let jobs: Vec<JobSpec> = (0..5).map(|id| job(id, 100.0 * f64::from(id) + 50.0, 1, 10.0)).collect();
        let window = window(&jobs, 2, 2);
        let got: Vec<(u32, f64)> = window.iter().map(|job| (job.id.0, job.arrival.secs())).collect();
        assert_eq!(got, [(0, 0.0), (1, 100.0)]);
    }

    /// One GPU; a long job at 0, then at 1 s a long and a short one: FCFS runs the long one
    /// first, SJF the short one.
    fn jobs() -> Vec<JobSpec> {
        vec![job(0, 0.0, 1, 100.0), job(1, 1.0, 1, 100.0), job(2, 1.0, 1, 10.0)]
    }

    #[test]
    fn an_episode_is_scored_on_its_objective_and_rewarded_against_fcfs() {
        let perf = schedlab_cluster::TraceDuration::uniform();
        let jobs = jobs();
        let environment = Environment { cluster: cluster("1x1 v100"), jobs: &jobs, perf: &perf };
        let rules = PoolRules::default();
        let turnaround = |order| environment.run(Chooser::Order(order), rules, Objective::Turnaround, (0, 3), 0);
        // FCFS: finishes at 100, 200, 210 -> JCTs 100, 199, 209; SJF: 100, 209, 109.
        let (fcfs, _) = turnaround(Order::Fcfs).unwrap();
        let (sjf, _) = turnaround(Order::Sjf).unwrap();
        assert!((fcfs - 508.0 / 3.0).abs() < 1e-9 && (sjf - 418.0 / 3.0).abs() < 1e-9, "{fcfs} {sjf}");
        let (wait, _) = environment.run(Chooser::Order(Order::Sjf), rules, Objective::Wait, (0, 3), 0).unwrap();
        assert!((wait - (0.0 + 109.0 + 99.0) / 3.0).abs() < 1e-9, "{wait}");
        assert_eq!(Objective::parse("utilization"), Ok(Objective::Utilization));
        assert!(Objective::parse("speed").unwrap_err().contains("expected one of bsld, wait, turnaround, utilization"));
    }
}
