//! The RLTune environment's scheduling loop as a [`Policy`]: pick one waiting job; if it
//! cannot be placed now, nothing else starts until it can (no backfilling, as the authors'
//! `schedule` with `backfil=False`); once placed, pick again at the same instant.

use crate::allocation::{Placement, WaysSolver, Weights, candidate_ways, choose_way, milp_place};
use crate::network::{Agent, QUEUE_SLOTS, log_softmax, sample};
use crate::observation::{Observation, PoolRules, job_pools, observe, placement_ways};
use crate::placement::Way;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_core::{
    Allocation, Context, Decision, JobId, JobView, Knowledge, NodeId, ParamError, ParamReader, Policy, PolicyError,
    RunStart,
};
use schedlab_solver::Backend;
use std::sync::Arc;

/// The heuristic job orders of the authors' environment (`*_score` in `helios_env_base_v2.py`);
/// the job with the smallest score goes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Submission time (`fcfs_score`).
    Fcfs,
    /// Run time, then GPUs (`sjf_score`).
    Sjf,
    /// `log10(r) * n + 870 * log10(s)` (`f1_score`, from RLScheduler's F1).
    F1,
    /// `-(w / r)^3 * n` (`wfp_score`).
    Wfp,
    /// `-(w + 1e-15) / (log2(n + 1e-15) * r)` (`uni_score`).
    Uni,
}

impl Order {
    /// The order's name in policy names.
    pub fn name(self) -> &'static str {
        match self {
            Order::Fcfs => "fcfs",
            Order::Sjf => "sjf",
            Order::F1 => "f1",
            Order::Wfp => "wfp",
            Order::Uni => "uni",
        }
    }

    /// Returns true if and only if the order needs each job's true run time (the authors'
    /// environment sets `request_time = run_time`).
    pub fn needs_run_time(self) -> bool {
        self != Order::Fcfs
    }

    /// The job's score at `now` (smaller first). `wait_as_code` reproduces the authors' code,
    /// which computes the wait of a waiting job as `scheduled_time - submit_time` with
    /// `scheduled_time = -1`.
    pub fn score(self, job: &JobView, now: f64, wait_as_code: bool) -> f64 {
        let submit = job.arrival.secs();
        let run = job.oracle.map_or(f64::NAN, |oracle| oracle.isolated_duration);
        let n = f64::from(job.gpus);
        let wait = if wait_as_code { -1.0 - submit } else { now - submit };
        match self {
            Order::Fcfs => submit,
            Order::Sjf => run,
            Order::F1 => {
                let r = if run > 0.0 { run } else { 0.1 };
                let s = if submit > 0.0 { submit } else { 0.1 };
                r.log10() * n + 870.0 * s.log10()
            }
            Order::Wfp => -(wait / run).powi(3) * n,
            Order::Uni => -(wait + 1e-15) / ((n + 1e-15).log2() * run),
        }
    }
}

/// One decision of the agent, as the trainer stores it.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The observation (`QUEUE_SLOTS * JOB_FEATURES`).
    pub observation: Vec<f32>,
    /// Occupied slots.
    pub mask: Vec<bool>,
    /// The slot chosen.
    pub action: usize,
    /// Its log-probability under the acting policy.
    pub log_prob: f64,
}

/// Where the run stands when an external chooser is asked: what the observation leaves out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moment {
    /// The simulated clock, seconds since the run began.
    pub clock_s: f64,
    /// Jobs waiting to start (all of them; the observation shows the first 128).
    pub queued: usize,
    /// Jobs running, counting those started earlier at this instant.
    pub running: usize,
    /// GPUs free once this instant's starts so far are placed.
    pub free_gpus: u32,
}

/// Chooses slots for RLTune's loop from outside this crate: the Python package's Gymnasium
/// environment hands each observation to its caller and waits for the action.
pub trait SlotChooser: Send + Sync + std::fmt::Debug {
    /// The slot of the job to start next, among the occupied slots of `observation` (the first
    /// 128 waiting jobs in arrival order), or `None` to start nothing more at this instant (the
    /// authors' `skip_schedule`). An unoccupied slot is the chooser's to handle.
    fn choose(&self, observation: &Observation, moment: Moment) -> Result<Option<usize>, PolicyError>;
}

/// How the next job is chosen.
#[derive(Clone, Debug)]
pub enum Chooser {
    /// A heuristic order over the whole queue.
    Order(Order),
    /// The agent's actor: a slot drawn from its masked softmax over the first 128 waiting jobs
    /// in arrival order (as the authors' evaluation samples `pi`), or the most likely slot.
    Agent {
        /// The networks.
        agent: Arc<Agent>,
        /// Draw from the distribution (`true`, the authors' evaluation) or take its mode.
        sample: bool,
    },
    /// A chooser outside this crate.
    External(Arc<dyn SlotChooser>),
}

/// RLTune's scheduling loop with a chooser; see the module docs.
#[derive(Clone, Debug)]
pub struct RlTune {
    name: String,
    chooser: Chooser,
    rules: PoolRules,
    wait_as_code: bool,
    rng: ChaCha8Rng,
    /// The job picked but not yet placed.
    committed: Option<JobId>,
    /// When set, every agent decision is appended here (training).
    pub record: Option<Vec<Step>>,
}

impl RlTune {
    /// A policy named `name` choosing with `chooser`.
    pub fn new(name: String, chooser: Chooser, rules: PoolRules, wait_as_code: bool) -> RlTune {
        RlTune { name, chooser, rules, wait_as_code, rng: ChaCha8Rng::seed_from_u64(0), committed: None, record: None }
    }

    /// Reads which authors' environment the rules default to: `env=philly|helios|alibaba`
    /// ([`PoolRules::for_env`]).
    pub fn read_env(reader: &mut ParamReader<'_>) -> Result<&'static str, ParamError> {
        reader.choice("env", "philly", &["philly", "helios", "alibaba"])
    }

    /// Reads the shared parameters: `env`, then `small_node_limit`, `fragmentation`
    /// (`nodes|free_nodes`), `tier2_feature`, `placement` (`greedy|ways|milp`) and, for `ways`
    /// and `milp`, `solver`, `alpha`, `beta` and `gamma`.
    pub fn read_rules(reader: &mut ParamReader<'_>) -> Result<PoolRules, ParamError> {
        let env = RlTune::read_env(reader)?;
        RlTune::read_rules_in(reader, env)
    }

    /// [`RlTune::read_rules`] after `env` has been read.
    pub fn read_rules_in(reader: &mut ParamReader<'_>, env: &str) -> Result<PoolRules, ParamError> {
        let defaults = PoolRules::for_env(env);
        let limit = reader.f64("small_node_limit", f64::from(defaults.small_node_limit))?;
        let over = reader.choice(
            "fragmentation",
            if defaults.fragmentation_over_all_nodes { "nodes" } else { "free_nodes" },
            &["nodes", "free_nodes"],
        )?;
        let tier2_feature = reader.bool("tier2_feature", defaults.tier2_feature)?;
        let placement = match reader.choice("placement", "greedy", &["greedy", "ways", "milp"])? {
            "greedy" => Placement::Greedy,
            mode => {
                let solvers: &[&'static str] = if mode == "ways" {
                    &["enumerate", "microlp", "highs", "cbc"]
                } else {
                    &["microlp", "highs", "cbc"]
                };
                let solver = reader.choice("solver", solvers[0], solvers)?;
                let defaults = Weights::default();
                let weights = Weights {
                    alpha: reader.f64("alpha", defaults.alpha)?,
                    beta: reader.f64("beta", defaults.beta)?,
                    gamma: reader.f64("gamma", defaults.gamma)?,
                };
                let backend = match solver {
                    "enumerate" => None,
                    name => Some(name.parse::<Backend>().expect("listed backends parse")),
                };
                if let Some(backend) = backend.filter(|backend| !backend.is_available()) {
                    return Err(ParamError {
                        policy: reader.name(),
                        message: format!(
                            "parameter 'solver': this build has no {backend} backend; rebuild with `--features {}`",
                            backend.feature().unwrap_or_default()
                        ),
                    });
                }
                match (mode, backend) {
                    ("ways", None) => Placement::Ways(WaysSolver::Enumerate, weights),
                    ("ways", Some(backend)) => Placement::Ways(WaysSolver::Solver(backend), weights),
                    (_, backend) => Placement::Milp(backend.unwrap_or_default(), weights),
                }
            }
        };
        Ok(PoolRules {
            small_node_limit: limit as u32,
            fragmentation_over_all_nodes: over == "nodes",
            tier2_feature,
            placement,
        })
    }

    /// The next job to start, or `None` when an external chooser skips.
    fn choose(
        &mut self,
        context: &Context<'_>,
        plan: &schedlab_core::ClusterView,
        queue: &[&JobView],
        started_now: usize,
    ) -> Result<Option<JobId>, PolicyError> {
        match &self.chooser {
            Chooser::Order(order) => {
                let now = context.now.secs();
                let score = |job: &JobView| order.score(job, now, self.wait_as_code);
                Ok(Some(
                    queue
                        .iter()
                        .min_by(|a, b| score(a).total_cmp(&score(b)).then(a.id.cmp(&b.id)))
                        .expect("the queue is not empty")
                        .id,
                ))
            }
            Chooser::External(chooser) => {
                let observation = observe(context.now, plan, queue, &self.rules);
                let moment = Moment {
                    clock_s: context.now.secs(),
                    queued: queue.len(),
                    running: context.jobs.n_running() + started_now,
                    free_gpus: plan.total_free(),
                };
                match chooser.choose(&observation, moment)? {
                    None => Ok(None),
                    Some(slot) if slot < queue.len().min(QUEUE_SLOTS) => Ok(Some(queue[slot].id)),
                    Some(slot) => Err(PolicyError::Unsupported(format!(
                        "{}: the chooser picked slot {slot}, but only slots 0 to {} hold a job",
                        self.name,
                        queue.len().min(QUEUE_SLOTS) - 1
                    ))),
                }
            }
            Chooser::Agent { agent, sample: draw } => {
                let observation = observe(context.now, plan, queue, &self.rules);
                let logits = agent.logits(&observation.features, &observation.mask);
                let log_probs = log_softmax(&logits);
                let slot = if *draw {
                    sample(&log_probs, self.rng.random::<f64>())
                } else {
                    (0..QUEUE_SLOTS.min(queue.len()))
                        .max_by(|&a, &b| log_probs[a].total_cmp(&log_probs[b]).then(b.cmp(&a)))
                        .expect("the queue is not empty")
                };
                let slot = slot.min(queue.len() - 1);
                if let Some(record) = &mut self.record {
                    record.push(Step {
                        observation: observation.features,
                        mask: observation.mask,
                        action: slot,
                        log_prob: log_probs[slot],
                    });
                }
                Ok(Some(queue[slot].id))
            }
        }
    }
}

impl RlTune {
    /// Where `job` starts, given that tier 1 has `greedy` (see [`Placement`]).
    fn place(
        &self,
        context: &Context<'_>,
        plan: &schedlab_core::ClusterView,
        job: &JobView,
        greedy: &Way,
        started: &[(JobId, Allocation)],
    ) -> Result<Way, PolicyError> {
        let placement = self.rules.placement;
        if let Placement::Greedy = placement {
            return Ok(greedy.clone());
        }
        // The next job: the second of the queue (this job included) in arrival order, the
        // environment's `top_k[1]` under FCFS (`sched_algo=0`), or this job if it is alone.
        let mut queue: Vec<&JobView> =
            context.jobs.queued().filter(|other| started.iter().all(|(id, _)| *id != other.id)).collect();
        let arrival = |a: &&JobView, b: &&JobView| a.arrival.secs().total_cmp(&b.arrival.secs()).then(a.id.cmp(&b.id));
        let next = match queue.len() {
            0 => job.gpus,
            1 => queue[0].gpus,
            _ => queue.select_nth_unstable_by(1, arrival).1.gpus,
        };
        let pools = job_pools(plan, job, &self.rules);
        let failed = |error: schedlab_solver::SolverError| {
            PolicyError::Unsupported(format!("{}: placing job {} failed: {error}", self.name, job.id))
        };
        match placement {
            Placement::Greedy => Ok(greedy.clone()),
            Placement::Ways(solver, weights) => {
                let ways = candidate_ways(&pools, job.gpus);
                if ways.len() <= 1 {
                    return Ok(ways.into_iter().next().unwrap_or_else(|| greedy.clone()));
                }
                let largest = plan.spec().nodes().iter().map(|node| node.gpus).max().unwrap_or(0);
                let chosen = choose_way(&pools, &ways, next, &weights, solver, largest).map_err(failed)?;
                Ok(ways[chosen].clone())
            }
            Placement::Milp(backend, weights) => {
                let placed = milp_place(&pools, job.gpus, next, &weights, backend).map_err(failed)?;
                // Tier 1 exists, so the MILP has a feasible point; an empty answer is a bug.
                placed.map(|(way, _)| way).ok_or_else(|| {
                    PolicyError::Unsupported(format!(
                        "{}: the placement MILP found no way for job {} although tier 1 has one",
                        self.name, job.id
                    ))
                })
            }
        }
    }
}

impl Policy for RlTune {
    fn name(&self) -> &str {
        &self.name
    }

    fn knowledge(&self) -> Knowledge {
        match self.chooser {
            Chooser::Order(order) if order.needs_run_time() => Knowledge::Oracle,
            _ => Knowledge::Realistic,
        }
    }

    fn begin_run(&mut self, run: &RunStart<'_>) -> Result<(), PolicyError> {
        self.rng = ChaCha8Rng::seed_from_u64(run.seed);
        self.committed = None;
        Ok(())
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let mut plan = context.cluster.clone();
        let mut start: Vec<(JobId, Allocation)> = Vec::new();
        loop {
            let target = match self.committed {
                Some(id) => id,
                None => {
                    let queue: Vec<&JobView> =
                        context.jobs.queued().filter(|job| start.iter().all(|(id, _)| *id != job.id)).collect();
                    if queue.is_empty() {
                        break;
                    }
                    let Some(id) = self.choose(context, &plan, &queue, start.len())? else { break };
                    self.committed = Some(id);
                    id
                }
            };
            let job = context.jobs.get(target).ok_or_else(|| {
                PolicyError::Unsupported(format!("{}: the job it waits for ({target}) left the queue", self.name))
            })?;
            let ways = placement_ways(&plan, job, &self.rules);
            let Some(greedy) = ways.greedy() else {
                if start.is_empty() && context.jobs.n_running() == 0 {
                    // The authors' environment drops such a job; here it would wait forever.
                    return Err(PolicyError::Infeasible(format!(
                        "{}: job {target} ({} GPUs) cannot start even on the idle cluster: RLTune places a job of g GPUs on exactly ceil(g / G) nodes of one size G among the nodes it may use, and there are not enough",
                        self.name, job.gpus
                    )));
                }
                break;
            };
            let way = self.place(context, &plan, job, greedy, &start)?;
            let allocation = Allocation::new(way.iter().map(|&(node, gpus)| (NodeId(node as u32), gpus)).collect());
            plan.take(&allocation, job.cpu_demand()).map_err(|error| {
                PolicyError::Unsupported(format!("{}: placement of job {target} does not fit: {error}", self.name))
            })?;
            start.push((target, allocation));
            self.committed = None;
        }
        Ok(Decision { start, ..Decision::none() })
    }
}
