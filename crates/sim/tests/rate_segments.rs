//! Piecewise-constant rates, zero rates and the run hooks, worked out by hand.

use crate::common::{Scripted, cluster};
use schedlab_cluster::{PerfError, PerfModel, Placement, RateSegment};
use schedlab_core::{
    Allocation, BatchConfig, Context, Decision, JobId, JobSpec, NodeId, Policy, PolicyError, RunStart, Time,
};
use schedlab_sim::{AllocationSample, JobTimeline, SimConfig, SimError, run};

/// `breaks[i] = (progress, rate)`: the job runs at `rate` from `progress` on (the first entry
/// starts at 0), whatever its allocation.
struct Stepped {
    breaks: Vec<(f64, f64)>,
}

impl PerfModel for Stepped {
    fn describe(&self) -> String {
        "stepped test model".into()
    }

    fn rate(&self, _: &JobSpec, _: &str, _: u32) -> Result<f64, PerfError> {
        Ok(self.breaks[0].1)
    }

    fn segment(&self, _: &JobSpec, placement: &Placement<'_>, progress: f64) -> Result<RateSegment, PerfError> {
        let batch = placement.batch;
        let index = self.breaks.iter().rposition(|(from, _)| *from <= progress).expect("the first break is at 0");
        // A larger global batch runs faster here: the rate scales with local batch x steps / 32.
        let scale = batch.map_or(1.0, |batch| f64::from(batch.local_batch * batch.accumulation_steps) / 32.0);
        Ok(RateSegment { rate: self.breaks[index].1 * scale, until: self.breaks.get(index + 1).map(|(from, _)| *from) })
    }
}

fn halving() -> Stepped {
    Stepped { breaks: vec![(0.0, 2.0), (50.0, 1.0)] }
}

fn config() -> SimConfig {
    SimConfig { check_invariants: true, ..SimConfig::default() }
}

fn start(job: u32) -> Decision {
    Decision { start: vec![(JobId(job), Allocation::on_node(NodeId(0), 1))], ..Decision::none() }
}

fn one_job(work: f64) -> Vec<JobSpec> {
    vec![JobSpec::new(JobId(0), Time::ZERO, 1, "rigid", work)]
}

#[test]
fn a_rate_that_halves_at_half_the_work_finishes_when_worked_out_by_hand() {
    // 100 steps: 50 at 2 steps/s take 25 s, the other 50 at 1 step/s take 50 s: done at 75 s.
    let result = run(cluster("g=1", 1), &one_job(100.0), &halving(), &mut Scripted(vec![start(0)]), &config()).unwrap();
    assert_eq!(result.jobs[0].jct, Some(75.0));
    assert_eq!(result.jobs[0].restarts, 0);
    // Two events beyond the arrival: the rate change and the completion.
    assert_eq!(result.metrics.events, 3);
}

#[test]
fn a_preempted_job_resumes_in_the_segment_it_reached() {
    // Runs 0-10 s at 2/s (20 steps); preempted until 20 s; restarts with a 5 s overhead, so it
    // progresses from 25 s: 30 steps to the break at 2/s take 15 s (40 s), then 50 at 1/s: 90 s.
    struct PreemptAtTen(u32);
    impl Policy for PreemptAtTen {
        fn name(&self) -> &str {
            "preempt-at-ten"
        }
        fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
            self.0 += 1;
            Ok(match self.0 {
                1 => Decision { next_tick: Some(Time::from_secs(10.0)), ..start(0) },
                2 => Decision { preempt: vec![JobId(0)], next_tick: Some(Time::from_secs(20.0)), ..Decision::none() },
                3 => start(0),
                _ => {
                    assert!(context.rate_changed.is_empty() || context.rate_changed == [JobId(0)]);
                    Decision::none()
                }
            })
        }
    }
    let config = SimConfig { restart_overhead: 5.0, ..config() };
    let result = run(cluster("g=1", 1), &one_job(100.0), &halving(), &mut PreemptAtTen(0), &config).unwrap();
    assert_eq!(result.jobs[0].jct, Some(90.0));
    assert_eq!(result.jobs[0].restarts, 1);
}

#[test]
fn policies_are_told_which_jobs_changed_rate() {
    // Three breaks: 2/s to 10 steps (5 s), 1/s to 20 (15 s), 4/s to 40 (20 s).
    struct Recorder(Vec<(f64, Vec<JobId>)>);
    impl Policy for Recorder {
        fn name(&self) -> &str {
            "recorder"
        }
        fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
            self.0.push((context.now.secs(), context.rate_changed.to_vec()));
            Ok(if context.now == Time::ZERO { start(0) } else { Decision::none() })
        }
    }
    let model = Stepped { breaks: vec![(0.0, 2.0), (10.0, 1.0), (20.0, 4.0)] };
    let mut recorder = Recorder(Vec::new());
    let result = run(cluster("g=1", 1), &one_job(40.0), &model, &mut recorder, &config()).unwrap();
    assert_eq!(result.jobs[0].jct, Some(20.0));
    assert_eq!(recorder.0, vec![(0.0, vec![]), (5.0, vec![JobId(0)]), (15.0, vec![JobId(0)]), (20.0, vec![])]);
}

#[test]
fn a_job_at_rate_zero_holds_its_gpus_and_a_run_left_with_only_such_jobs_is_an_error() {
    // J0 runs at 0 steps/s forever: the run cannot end, and says so instead of returning
    // unfinished jobs as if all were well.
    let frozen = Stepped { breaks: vec![(0.0, 0.0)] };
    let error = run(cluster("g=1", 1), &one_job(10.0), &frozen, &mut Scripted(vec![start(0)]), &config()).unwrap_err();
    assert!(matches!(error, SimError::Stalled { .. }), "{error}");
    assert!(error.to_string().contains("hold GPUs at rate 0"), "{error}");

    // A zero rate is a state, not an error: the job holds its GPU at rate 0 until the policy
    // preempts it at 10 s.
    struct ZeroThenTick(u32);
    impl Policy for ZeroThenTick {
        fn name(&self) -> &str {
            "zero-then-tick"
        }
        fn schedule(&mut self, _: &Context<'_>) -> Result<Decision, PolicyError> {
            self.0 += 1;
            Ok(match self.0 {
                1 => Decision { next_tick: Some(Time::from_secs(10.0)), ..start(0) },
                2 => Decision { preempt: vec![JobId(0)], ..Decision::none() },
                _ => Decision::none(),
            })
        }
    }
    let error =
        run(cluster("g=1", 1), &one_job(10.0), &frozen, &mut ZeroThenTick(0), &config()).unwrap_err().to_string();
    // Preempted at 10 s with nothing left to happen: the queue stall check names the job.
    assert!(error.contains("wait on an idle cluster"), "{error}");
}

#[test]
fn a_policy_that_keeps_deciding_while_no_running_job_progresses_is_stopped_by_the_watchdog() {
    // J0 runs at rate 0 for ever. The policy asks for a tick every 10 s (so the run would never
    // end) and, in the second variant, restarts the job at every tick.
    struct TickForever {
        restart: bool,
        calls: u32,
    }
    impl Policy for TickForever {
        fn name(&self) -> &str {
            "tick-forever"
        }
        fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
            self.calls += 1;
            let next_tick = Some(context.now + 10.0);
            Ok(match (self.calls, self.restart) {
                (1, _) => Decision { next_tick, ..start(0) },
                (_, true) if self.calls.is_multiple_of(2) => {
                    Decision { preempt: vec![JobId(0)], next_tick, ..Decision::none() }
                }
                (_, true) => Decision { next_tick, ..start(0) },
                (_, false) => Decision { next_tick, ..Decision::none() },
            })
        }
    }
    let frozen = Stepped { breaks: vec![(0.0, 0.0)] };
    let mut ticking = TickForever { restart: false, calls: 0 };
    let error = run(cluster("g=1", 1), &one_job(10.0), &frozen, &mut ticking, &config()).unwrap_err();
    assert!(matches!(error, SimError::Stalled { .. }), "{error}");
    let text = error.to_string();
    assert!(text.contains("policy 'tick-forever' stalled"), "{text}");
    assert!(text.contains("no job progressed over 100352 decisions in a row"), "{text}");
    assert!(text.contains("; 1 of them started, preempted or reconfigured jobs"), "{text}");
    assert!(text.contains("the first is job 0, running on 1 GPUs, at 0 of its 10 steps"), "{text}");
    assert!(ticking.calls <= 100_000 + 1_024 + 1, "stopped within one check: {}", ticking.calls);

    let mut restarting = TickForever { restart: true, calls: 0 };
    let text = run(cluster("g=1", 1), &one_job(10.0), &frozen, &mut restarting, &config()).unwrap_err().to_string();
    assert!(text.contains("no job progressed"), "{text}");
    assert!(text.contains("; 100352 of them started, preempted"), "the restarts are counted: {text}");

    // A policy that asks for ticks for ever after the last job finished used to hang the run.
    struct TickAfterTheEnd;
    impl Policy for TickAfterTheEnd {
        fn name(&self) -> &str {
            "tick-after-the-end"
        }
        fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
            let next_tick = Some(context.now + 10.0);
            Ok(if context.now == Time::ZERO {
                Decision { next_tick, ..start(0) }
            } else {
                Decision { next_tick, ..Decision::none() }
            })
        }
    }
    let text =
        run(cluster("g=1", 1), &one_job(10.0), &halving(), &mut TickAfterTheEnd, &config()).unwrap_err().to_string();
    assert!(text.contains("every job has finished, but the policy keeps asking for ticks"), "{text}");
}

#[test]
fn a_segment_that_does_not_end_beyond_the_progress_is_refused() {
    struct Stuck;
    impl PerfModel for Stuck {
        fn describe(&self) -> String {
            "stuck test model".into()
        }
        fn rate(&self, _: &JobSpec, _: &str, _: u32) -> Result<f64, PerfError> {
            Ok(1.0)
        }
        fn segment(&self, _: &JobSpec, _: &Placement<'_>, progress: f64) -> Result<RateSegment, PerfError> {
            Ok(RateSegment { rate: 1.0, until: Some(progress) })
        }
    }
    let error = run(cluster("g=1", 1), &one_job(10.0), &Stuck, &mut Scripted(vec![start(0)]), &config()).unwrap_err();
    assert!(error.to_string().contains("stuck test model gave job 0 a rate segment ending at progress 0"), "{error}");
}

#[test]
fn begin_run_gets_the_cluster_and_seed_and_end_run_is_called() {
    struct Hooks {
        seed: Option<u64>,
        gpus: u32,
        ended: bool,
    }
    impl Policy for Hooks {
        fn name(&self) -> &str {
            "hooks"
        }
        fn begin_run(&mut self, run: &RunStart<'_>) -> Result<(), PolicyError> {
            self.seed = Some(run.seed);
            self.gpus = run.cluster.total_gpus();
            Ok(())
        }
        fn schedule(&mut self, context: &Context<'_>) -> Result<Decision, PolicyError> {
            assert!(self.seed.is_some(), "begin_run comes first");
            Ok(if context.now == Time::ZERO { start(0) } else { Decision::none() })
        }
        fn end_run(&mut self) {
            self.ended = true;
        }
    }
    let mut hooks = Hooks { seed: None, gpus: 0, ended: false };
    let config = SimConfig { seed: 42, ..config() };
    run(cluster("g=3", 3), &one_job(10.0), &halving(), &mut hooks, &config).unwrap();
    assert_eq!((hooks.seed, hooks.gpus, hooks.ended), (Some(42), 3, true));
}

#[test]
fn a_batch_change_mid_run_keeps_progress_and_counts_no_restart() {
    // 100 steps, rate 2/s until 50, then 1/s (batch 32 x 1). At 10 s (20 steps) the batch
    // becomes 64 x 1: twice the rate, with no restart and no overhead even though restarts cost
    // 5 s: 30 steps to the break at 4/s take 7.5 s (17.5 s), 50 at 2/s take 25 s: done at 42.5 s.
    struct DoubleBatch(u32);
    impl Policy for DoubleBatch {
        fn name(&self) -> &str {
            "double-batch"
        }
        fn schedule(&mut self, _: &Context<'_>) -> Result<Decision, PolicyError> {
            self.0 += 1;
            let batch = |local_batch| Some(BatchConfig { local_batch, accumulation_steps: 1 });
            let allocation = Allocation::on_node(NodeId(0), 1).with_batch(batch(32));
            Ok(match self.0 {
                1 => Decision {
                    start: vec![(JobId(0), allocation)],
                    next_tick: Some(Time::from_secs(10.0)),
                    ..Decision::none()
                },
                // Through reconcile: the same GPUs with another batch is a reconfiguration.
                2 => Decision::reconcile(
                    vec![(JobId(0), &allocation)],
                    vec![(JobId(0), allocation.clone().with_batch(batch(64)))],
                    None,
                ),
                _ => Decision::none(),
            })
        }
    }
    let config = SimConfig { restart_overhead: 5.0, trace_jobs: vec![0], ..config() };
    let result = run(cluster("g=1", 1), &one_job(100.0), &halving(), &mut DoubleBatch(0), &config).unwrap();
    assert_eq!(result.jobs[0].jct, Some(42.5));
    assert_eq!((result.jobs[0].restarts, result.jobs[0].reconfigurations), (0, 1));
    // The traced timeline: batch 32 on one GPU from 0 s, 64 from 10 s, nothing from 42.5 s.
    let sample =
        |time, gpus, nodes, batch| AllocationSample { time, gpus, nodes, batch, ps: 0, type_mask: u64::from(gpus > 0) };
    assert_eq!(
        result.allocations,
        vec![JobTimeline {
            job: 0,
            samples: vec![sample(0.0, 1, 1, Some(32)), sample(10.0, 1, 1, Some(64)), sample(42.5, 0, 0, None)]
        }]
    );
    // Tracing a job the workload does not have is refused before the run.
    let missing = SimConfig { trace_jobs: vec![1], ..config };
    let error = run(cluster("g=1", 1), &one_job(100.0), &halving(), &mut DoubleBatch(0), &missing).unwrap_err();
    assert!(error.to_string().contains("trace_jobs names job 1, but the workload has 1 jobs"), "{error}");
}

#[test]
fn reconfiguring_a_job_that_does_not_run_or_is_also_preempted_is_refused() {
    let batch = Some(BatchConfig { local_batch: 64, accumulation_steps: 1 });
    let waiting = Decision { reconfigure: vec![(JobId(0), batch)], ..Decision::none() };
    let error =
        run(cluster("g=1", 1), &one_job(10.0), &halving(), &mut Scripted(vec![waiting]), &config()).unwrap_err();
    assert!(error.to_string().contains("job 0: reconfigured, but it is not running"), "{error}");
    let both = Decision { reconfigure: vec![(JobId(0), batch)], preempt: vec![JobId(0)], ..Decision::none() };
    let error =
        run(cluster("g=1", 1), &one_job(10.0), &halving(), &mut Scripted(vec![start(0), both]), &config()).unwrap_err();
    assert!(error.to_string().contains("reconfigured and preempted in one decision"), "{error}");
}

#[test]
fn a_work_limit_pauses_the_job_on_its_gpus_until_the_next_decision_gives_another() {
    // 100 steps at 2 steps/s for the first 50, then 1 step/s (`halving`). t=0: start with a limit
    // of 30 steps and a tick at 50: 30 steps by 15 s, then the job holds its GPU at rate 0 and
    // the policy is not called at the pause. t=50: 30 more: 20 at 2/s (10 s; the rate change at
    // 60 s calls the policy, which keeps its tick) and 10 at 1/s (10 s), paused at 70. t=100: a
    // limit of 60 covers the 40 steps left: done at 140 s.
    let limit = |steps: f64, tick: Option<f64>| Decision {
        work_limits: vec![(JobId(0), steps)],
        next_tick: tick.map(Time::from_secs),
        ..Decision::none()
    };
    let first = Decision { next_tick: Some(Time::from_secs(50.0)), ..limit(30.0, None) };
    let first = Decision { start: start(0).start, ..first };
    let keep_tick = Decision { next_tick: Some(Time::from_secs(100.0)), ..Decision::none() };
    let decisions = vec![first, limit(30.0, Some(100.0)), keep_tick, limit(60.0, None)];
    let config = SimConfig { trace_jobs: vec![0], ..config() };
    let result = run(cluster("g=1", 1), &one_job(100.0), &halving(), &mut Scripted(decisions), &config).unwrap();
    assert_eq!(result.jobs[0].jct, Some(140.0));
    assert_eq!((result.jobs[0].restarts, result.jobs[0].gpu_seconds.clone()), (0, vec![140.0]));
    // Called at the arrival, the two ticks, the rate change and the completion, not at the pauses.
    assert_eq!(result.metrics.decisions, 5);
    let held: Vec<(f64, u32)> = result.allocations[0].samples.iter().map(|sample| (sample.time, sample.gpus)).collect();
    assert_eq!(held, vec![(0.0, 1), (140.0, 0)]);
}

#[test]
fn a_work_limit_on_a_job_that_does_not_run_is_refused() {
    let decision = Decision { work_limits: vec![(JobId(0), 10.0)], ..Decision::none() };
    let error =
        run(cluster("g=1", 1), &one_job(100.0), &halving(), &mut Scripted(vec![decision]), &config()).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("work limit") && text.contains("neither running nor started"), "{text}");
    let negative = Decision { work_limits: vec![(JobId(0), -1.0)], ..start(0) };
    let error =
        run(cluster("g=1", 1), &one_job(100.0), &halving(), &mut Scripted(vec![negative]), &config()).unwrap_err();
    assert!(error.to_string().contains("expected a finite number >= 0"), "{error}");
}
