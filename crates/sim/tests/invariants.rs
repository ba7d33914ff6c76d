use crate::common::rigid;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_cluster::{NodeEntry, TraceDuration};
use schedlab_core::{Allocation, ClusterView, Context, Decision, JobId, JobView, NodeId, Policy, PolicyError};
use schedlab_sim::{SimConfig, SimError, run};
use std::sync::Arc;

/// Makes random but valid decisions: preempts some running jobs, starts some waiting ones on
/// random free GPUs, sometimes asks for a tick. Optionally slips in one invalid entry at the
/// `sabotage_at`-th call.
struct RandomValid {
    rng: ChaCha8Rng,
    calls: u32,
    sabotage_at: Option<u32>,
    /// Also start pairs of waiting jobs sharing GPUs (space sharing).
    share: bool,
    /// Also fork waiting jobs into copies on several nodes (HadarE).
    fork: bool,
}

/// Uniform speed, and 60% of it for a job sharing its GPUs.
struct SharingModel(TraceDuration);

impl schedlab_cluster::PerfModel for SharingModel {
    fn describe(&self) -> String {
        "uniform speed, 60% when sharing".to_string()
    }

    fn rate(
        &self,
        job: &schedlab_core::JobSpec,
        gpu_type: &str,
        gpus: u32,
    ) -> Result<f64, schedlab_cluster::PerfError> {
        self.0.rate(job, gpu_type, gpus)
    }

    fn colocated_rate(
        &self,
        job: &schedlab_core::JobSpec,
        _: &schedlab_core::JobSpec,
        gpu_type: &str,
        gpus: u32,
    ) -> Result<f64, schedlab_cluster::PerfError> {
        Ok(0.6 * self.0.rate(job, gpu_type, gpus)?)
    }
}

/// Piecewise-constant rates: from `fraction` of its work on, a job runs at `rate` (the first
/// entry starts at 0); 60% of the first rate while sharing.
#[derive(Debug)]
struct SegmentModel(Vec<(f64, f64)>);

impl schedlab_cluster::PerfModel for SegmentModel {
    fn describe(&self) -> String {
        format!("segments {:?}", self.0)
    }

    fn rate(&self, _: &schedlab_core::JobSpec, _: &str, _: u32) -> Result<f64, schedlab_cluster::PerfError> {
        Ok(self.0[0].1)
    }

    fn segment(
        &self,
        job: &schedlab_core::JobSpec,
        placement: &schedlab_cluster::Placement<'_>,
        progress: f64,
    ) -> Result<schedlab_cluster::RateSegment, schedlab_cluster::PerfError> {
        let batch = placement.batch;
        let index = self.0.iter().rposition(|(fraction, _)| fraction * job.work <= progress).unwrap_or(0);
        let until = self.0.get(index + 1).map(|(fraction, _)| fraction * job.work);
        // Larger batches run faster, up to twice the segment's rate.
        let scale =
            batch.map_or(1.0, |batch| (f64::from(batch.local_batch * batch.accumulation_steps) / 256.0).min(1.0) + 1.0);
        Ok(schedlab_cluster::RateSegment { rate: self.0[index].1 * scale, until })
    }

    fn colocated_rate(
        &self,
        _: &schedlab_core::JobSpec,
        _: &schedlab_core::JobSpec,
        _: &str,
        _: u32,
    ) -> Result<f64, schedlab_cluster::PerfError> {
        Ok(0.6 * self.0[0].1)
    }
}

/// Random decisions, plus random batch changes of running jobs that keep their plain GPUs.
struct Reconfiguring(RandomValid);

impl Policy for Reconfiguring {
    fn name(&self) -> &str {
        "random-valid-reconfiguring"
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        let mut decision = self.0.schedule(context)?;
        for job in context.jobs.running() {
            let allocation = job.allocation.as_ref().unwrap();
            let plain = allocation.colocated_with.is_none() && !allocation.forked;
            if plain && !decision.preempt.contains(&job.id) && self.0.rng.random_bool(0.3) {
                let local_batch = self.0.rng.random_range(8..=128);
                let accumulation_steps = self.0.rng.random_range(1..=4);
                decision
                    .reconfigure
                    .push((job.id, Some(schedlab_core::BatchConfig { local_batch, accumulation_steps })));
            }
        }
        Ok(decision)
    }
}

fn segments_strategy() -> impl Strategy<Value = Vec<(f64, f64)>> {
    (prop::collection::vec(0.01..0.99f64, 0..4), prop::collection::vec(0.25..4.0f64, 4)).prop_map(
        |(mut cuts, rates)| {
            cuts.sort_by(f64::total_cmp);
            cuts.dedup();
            std::iter::once(0.0).chain(cuts).zip(rates).collect()
        },
    )
}

fn random_allocation(rng: &mut ChaCha8Rng, plan: &ClusterView, gpus: u32) -> Option<Allocation> {
    if plan.total_free() < gpus {
        return None;
    }
    let mut nodes: Vec<u32> = (0..plan.spec().nodes().len() as u32).collect();
    nodes.shuffle(rng);
    let mut parts = Vec::new();
    let mut remaining = gpus;
    for node in nodes {
        let free = plan.free_gpus(NodeId(node));
        if free == 0 || remaining == 0 {
            continue;
        }
        let take = rng.random_range(1..=free.min(remaining));
        parts.push((NodeId(node), take));
        remaining -= take;
    }
    // Top up where there is still room, so a fitting job is always placed.
    for part in parts.iter_mut() {
        let extra = (plan.free_gpus(part.0) - part.1).min(remaining);
        part.1 += extra;
        remaining -= extra;
    }
    (remaining == 0).then(|| Allocation::new(parts))
}

impl RandomValid {
    fn sabotage(&mut self, context: &Context<'_>, decision: &mut Decision) {
        let kind = self.rng.random_range(0..4);
        let queued: Vec<&JobView> = context.jobs.queued().collect();
        let running: Vec<&JobView> = context.jobs.running().filter(|job| !decision.preempt.contains(&job.id)).collect();
        match kind {
            0 if !queued.is_empty() => decision.preempt.push(queued[0].id),
            1 if !running.is_empty() => {
                let job = running[0];
                decision.start.retain(|entry| entry.0 != job.id);
                decision.start.push((job.id, job.allocation.clone().unwrap()));
            }
            2 if !queued.is_empty() => {
                let node = NodeId(0);
                let too_many = context.cluster.spec().node(node).gpus + 1;
                decision.start.retain(|entry| entry.0 != queued[0].id);
                decision.start.push((queued[0].id, Allocation::on_node(node, too_many)));
            }
            _ => decision.start.push((JobId(100_000), Allocation::on_node(NodeId(0), 1))),
        }
    }
}

impl Policy for RandomValid {
    fn name(&self) -> &str {
        "random-valid"
    }

    fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
        self.calls += 1;
        let mut plan = context.cluster.clone();
        let mut decision = Decision::none();
        let mut candidates: Vec<&JobView> = context.jobs.queued().collect();
        for job in context.jobs.running() {
            if self.rng.random_bool(0.2) {
                decision.preempt.push(job.id);
                candidates.push(job);
            }
        }
        // GPUs come free when their holder stops; a pair's GPUs only when both members stop
        // (released once, by the lower id).
        for &id in &decision.preempt {
            let allocation = context.jobs.get(id).unwrap().allocation.as_ref().unwrap();
            let frees = match allocation.colocated_with {
                None => true,
                Some(partner) => decision.preempt.contains(&partner) && id < partner,
            };
            if frees {
                plan.release(allocation, None);
            }
        }
        candidates.shuffle(&mut self.rng);
        if self.share {
            // Pair up waiting jobs of the same size on one node each.
            let mut paired: Vec<JobId> = Vec::new();
            for (index, first) in candidates.iter().enumerate() {
                if paired.contains(&first.id) || !self.rng.random_bool(0.5) {
                    continue;
                }
                let Some(second) = candidates[index + 1..]
                    .iter()
                    .find(|other| other.gpus == first.gpus && !paired.contains(&other.id))
                else {
                    continue;
                };
                let node =
                    (0..plan.spec().nodes().len() as u32).map(NodeId).find(|&node| plan.free_gpus(node) >= first.gpus);
                if let Some(node) = node {
                    let gpus = Allocation::on_node(node, first.gpus);
                    plan.take(&gpus, None).unwrap();
                    decision.start.push((first.id, gpus.clone().shared_with(second.id)));
                    decision.start.push((second.id, gpus.shared_with(first.id)));
                    paired.extend([first.id, second.id]);
                }
            }
            candidates.retain(|job| !paired.contains(&job.id));
        }
        if self.fork {
            // Fork some waiting jobs onto two or more nodes with room for a whole copy each.
            let mut forked: Vec<JobId> = Vec::new();
            for job in &candidates {
                let mut nodes: Vec<NodeId> = (0..plan.spec().nodes().len() as u32)
                    .map(NodeId)
                    .filter(|&node| plan.free_gpus(node) >= job.gpus)
                    .collect();
                if nodes.len() < 2 || !self.rng.random_bool(0.4) {
                    continue;
                }
                nodes.shuffle(&mut self.rng);
                nodes.truncate(self.rng.random_range(2..=nodes.len()));
                let copies = Allocation::copies(nodes, job.gpus);
                plan.take(&copies, None).unwrap();
                decision.start.push((job.id, copies));
                forked.push(job.id);
            }
            candidates.retain(|job| !forked.contains(&job.id));
        }
        for job in &candidates {
            if self.rng.random_bool(0.6)
                && let Some(allocation) = random_allocation(&mut self.rng, &plan, job.gpus)
            {
                plan.take(&allocation, None).unwrap();
                decision.start.push((job.id, allocation));
            }
        }
        let running_after = context.jobs.n_running() - decision.preempt.len() + decision.start.len();
        if running_after == 0 {
            // Keep the run moving: start the first candidate that fits the (now empty) cluster.
            for job in &candidates {
                if let Some(allocation) = random_allocation(&mut self.rng, &plan, job.gpus) {
                    plan.take(&allocation, None).unwrap();
                    decision.start.push((job.id, allocation));
                    break;
                }
            }
        }
        if self.rng.random_bool(0.5) {
            decision.next_tick = Some(context.now + self.rng.random_range(0.5..20.0));
        }
        if self.sabotage_at == Some(self.calls) {
            self.sabotage(context, &mut decision);
        }
        Ok(decision)
    }
}

fn cluster_strategy() -> impl Strategy<Value = Vec<NodeEntry>> {
    prop::collection::vec((0..3usize, 1..=8u32), 1..8).prop_map(|nodes| {
        nodes
            .into_iter()
            .map(|(gpu_type, gpus)| NodeEntry {
                name: None,
                gpu_type: Some(["v100", "p100", "k80"][gpu_type].to_string()),
                gpus,
                cpus: None,
                mem_gib: None,
                group: None,
                count: None,
            })
            .collect()
    })
}

fn workload_strategy() -> impl Strategy<Value = Vec<(f64, u32, f64)>> {
    prop::collection::vec((0.0..100.0f64, 1..=4u32, 0.5..50.0f64), 1..30).prop_map(|mut jobs| {
        jobs.sort_by(|a, b| a.0.total_cmp(&b.0));
        jobs
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_valid_decisions_never_break_an_invariant(
        nodes in cluster_strategy(),
        workload in workload_strategy(),
        seed in any::<u64>(),
        overhead in prop_oneof![Just(0.0), 0.0..5.0f64],
    ) {
        let cluster = Arc::new(schedlab_cluster::build::from_node_list(&nodes).unwrap());
        let total = cluster.total_gpus();
        let workload: Vec<(f64, u32, f64)> =
            workload.into_iter().map(|(arrival, gpus, work)| (arrival, gpus.min(total), work)).collect();
        let jobs = rigid(&workload);
        let config = SimConfig { restart_overhead: overhead, check_invariants: true, ..SimConfig::default() };
        let mut policy = RandomValid { rng: ChaCha8Rng::seed_from_u64(seed), calls: 0, sabotage_at: None, share: false, fork: false };
        let result = run(cluster.clone(), &jobs, &TraceDuration::uniform(), &mut policy, &config).unwrap();

        let mut per_type = vec![0.0; cluster.gpu_types().len()];
        for (job, record) in jobs.iter().zip(&result.jobs) {
            let jct = record.jct.expect("every job finishes");
            prop_assert!(record.run_time >= job.work - 1e-6, "{record:?}");
            prop_assert!((record.waiting_time + record.run_time - jct).abs() < 1e-6, "{record:?}");
            let gpu_seconds: f64 = record.gpu_seconds.iter().sum();
            prop_assert!((gpu_seconds - record.run_time * f64::from(job.gpus)).abs() < 1e-6 * gpu_seconds.max(1.0));
            for (total, seconds) in per_type.iter_mut().zip(&record.gpu_seconds) {
                *total += seconds;
            }
        }
        let busy = result.timeline.integrate(0.0, result.metrics.end_time);
        for (from_jobs, from_timeline) in per_type.iter().zip(&busy) {
            prop_assert!((from_jobs - from_timeline).abs() < 1e-6 * from_jobs.max(1.0), "{per_type:?} vs {busy:?}");
        }
        prop_assert!(result.metrics.utilization <= 1.0 + 1e-9);
        // GPUs idle while jobs wait are a part of the idle GPU-seconds.
        let idle = (1.0 - result.metrics.utilization) * f64::from(cluster.total_gpus()) * result.metrics.makespan;
        prop_assert!(result.metrics.idle_while_waiting >= 0.0);
        prop_assert!(result.metrics.idle_while_waiting <= idle + 1e-6 * idle.max(1.0), "{} > {idle}", result.metrics.idle_while_waiting);
    }

    #[test]
    fn random_forks_never_break_an_invariant(
        nodes in cluster_strategy(),
        workload in workload_strategy(),
        seed in any::<u64>(),
        overhead in prop_oneof![Just(0.0), 0.0..5.0f64],
        fork_overhead in prop_oneof![Just(0.0), 0.0..0.5f64],
    ) {
        // Copies on distinct nodes and progress = copies' sum less aggregation are checked by
        // the engine at every decision; here, every job finishes and the GPU time adds up.
        let cluster = Arc::new(schedlab_cluster::build::from_node_list(&nodes).unwrap());
        let largest = cluster.nodes().iter().map(|node| node.gpus).max().unwrap();
        let workload: Vec<(f64, u32, f64)> =
            workload.into_iter().map(|(arrival, gpus, work)| (arrival, gpus.min(largest), work)).collect();
        let jobs = rigid(&workload);
        let config =
            SimConfig { restart_overhead: overhead, check_invariants: true, fork_overhead, ..SimConfig::default() };
        let mut policy =
            RandomValid { rng: ChaCha8Rng::seed_from_u64(seed), calls: 0, sabotage_at: None, share: false, fork: true };
        let result = run(cluster.clone(), &jobs, &TraceDuration::uniform(), &mut policy, &config).unwrap();
        let mut per_type = vec![0.0; cluster.gpu_types().len()];
        for record in &result.jobs {
            prop_assert!(record.jct.is_some(), "{record:?}");
            for (total, seconds) in per_type.iter_mut().zip(&record.gpu_seconds) {
                *total += seconds;
            }
        }
        let busy = result.timeline.integrate(0.0, result.metrics.end_time);
        for (from_jobs, from_timeline) in per_type.iter().zip(&busy) {
            prop_assert!((from_jobs - from_timeline).abs() < 1e-6 * from_jobs.max(1.0), "{per_type:?} vs {busy:?}");
        }
    }

    #[test]
    fn an_invalid_decision_is_always_refused(
        nodes in cluster_strategy(),
        workload in workload_strategy(),
        seed in any::<u64>(),
        sabotage_at in 1..4u32,
    ) {
        let cluster = Arc::new(schedlab_cluster::build::from_node_list(&nodes).unwrap());
        let total = cluster.total_gpus();
        let workload: Vec<(f64, u32, f64)> =
            workload.into_iter().map(|(arrival, gpus, work)| (arrival, gpus.min(total), work)).collect();
        let jobs = rigid(&workload);
        let mut policy =
            RandomValid { rng: ChaCha8Rng::seed_from_u64(seed), calls: 0, sabotage_at: Some(sabotage_at), share: false, fork: false };
        let outcome = run(cluster, &jobs, &TraceDuration::uniform(), &mut policy, &SimConfig::default());
        if policy.calls >= sabotage_at {
            prop_assert!(matches!(outcome, Err(SimError::InvalidDecision { .. })), "{:?}", outcome.err());
        } else {
            prop_assert!(outcome.is_ok());
        }
    }

    #[test]
    fn random_pairs_sharing_gpus_never_break_an_invariant(
        nodes in cluster_strategy(),
        workload in workload_strategy(),
        seed in any::<u64>(),
        overhead in prop_oneof![Just(0.0), 0.0..5.0f64],
    ) {
        // Pairs start together, members are preempted one at a time at random, survivors run
        // alone: the engine checks after every decision that no GPU is held twice, that pairs
        // point at each other on the same GPUs, and that no progress exceeds its work.
        let cluster = Arc::new(schedlab_cluster::build::from_node_list(&nodes).unwrap());
        let largest = cluster.nodes().iter().map(|node| node.gpus).max().unwrap();
        let workload: Vec<(f64, u32, f64)> =
            workload.into_iter().map(|(arrival, gpus, work)| (arrival, gpus.min(largest), work)).collect();
        let jobs = rigid(&workload);
        let config = SimConfig { restart_overhead: overhead, check_invariants: true, ..SimConfig::default() };
        let mut policy = RandomValid { rng: ChaCha8Rng::seed_from_u64(seed), calls: 0, sabotage_at: None, share: true, fork: false };
        let model = SharingModel(TraceDuration::uniform());
        let result = run(cluster, &jobs, &model, &mut policy, &config).unwrap();
        for (job, record) in jobs.iter().zip(&result.jobs) {
            let jct = record.jct.expect("every job finishes");
            // Sharing slows a job down, never speeds it up.
            prop_assert!(record.run_time >= job.work - 1e-6, "{record:?}");
            prop_assert!((record.waiting_time + record.run_time - jct).abs() < 1e-6, "{record:?}");
        }
        prop_assert!(result.metrics.utilization <= 1.0 + 1e-9);
    }

    #[test]
    fn random_rate_segments_never_break_an_invariant(
        nodes in cluster_strategy(),
        workload in workload_strategy(),
        segments in segments_strategy(),
        seed in any::<u64>(),
        overhead in prop_oneof![Just(0.0), 0.0..5.0f64],
        share in any::<bool>(),
    ) {
        // Rates change at random fractions of each job's work while random decisions preempt,
        // restart, pair and reconfigure jobs: the engine checks its invariants at every decision and that a
        // completing job's progress equals its work; every job finishes, no faster than its
        // fastest rate allows, and, without sharing (a pair holds its GPUs once), the GPU time
        // adds up.
        let cluster = Arc::new(schedlab_cluster::build::from_node_list(&nodes).unwrap());
        let largest = cluster.nodes().iter().map(|node| node.gpus).max().unwrap();
        let workload: Vec<(f64, u32, f64)> =
            workload.into_iter().map(|(arrival, gpus, work)| (arrival, gpus.min(largest), work)).collect();
        let jobs = rigid(&workload);
        let config = SimConfig { restart_overhead: overhead, check_invariants: true, ..SimConfig::default() };
        let mut policy = Reconfiguring(RandomValid { rng: ChaCha8Rng::seed_from_u64(seed), calls: 0, sabotage_at: None, share, fork: false });
        let model = SegmentModel(segments);
        // Batches at most double a segment's rate.
        let fastest = 2.0 * model.0.iter().map(|(_, rate)| *rate).fold(0.0, f64::max);
        let result = run(cluster.clone(), &jobs, &model, &mut policy, &config).unwrap();
        let mut per_type = vec![0.0; cluster.gpu_types().len()];
        for (job, record) in jobs.iter().zip(&result.jobs) {
            let jct = record.jct.expect("every job finishes");
            prop_assert!(record.run_time >= job.work / fastest - 1e-6, "{record:?}");
            prop_assert!((record.waiting_time + record.run_time - jct).abs() < 1e-6, "{record:?}");
            for (total, seconds) in per_type.iter_mut().zip(&record.gpu_seconds) {
                *total += seconds;
            }
        }
        let busy = result.timeline.integrate(0.0, result.metrics.end_time);
        for (from_jobs, from_timeline) in per_type.iter().zip(&busy).filter(|_| !share) {
            prop_assert!((from_jobs - from_timeline).abs() < 1e-6 * from_jobs.max(1.0), "{per_type:?} vs {busy:?}");
        }
    }
}
