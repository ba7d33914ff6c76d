use crate::common::{cluster, jcts, rigid, simulate, simulate_with};
use schedlab_cluster::{PerfModel, ThroughputTable, TraceDuration};
use schedlab_core::{JobId, JobSpec, Time};
use schedlab_sim::SimConfig;

/// Three 1-GPU jobs on one node with two GPUs:
/// J0 arrives at 0 and needs 10 s, J1 arrives at 0 and needs 4 s, J2 arrives at 1 and needs 2 s.
fn three_jobs() -> Vec<JobSpec> {
    rigid(&[(0.0, 1, 10.0), (0.0, 1, 4.0), (1.0, 1, 2.0)])
}

#[test]
fn fifo_three_jobs_two_gpus() {
    // t=0: J0 and J1 start. t=4: J1 ends (JCT 4), J2 starts. t=6: J2 ends (JCT 6-1=5).
    // t=10: J0 ends (JCT 10).
    let result = simulate("fifo", cluster("g=2", 2), &three_jobs());
    assert_eq!(jcts(&result), vec![10.0, 4.0, 5.0]);
    assert_eq!(result.metrics.avg_jct, 19.0 / 3.0);
    assert_eq!(result.metrics.avg_queueing_delay, 1.0);
    assert_eq!(result.metrics.makespan, 10.0);
    // Busy GPU-seconds: 10 + 4 + 2 = 16 over 2 GPUs x 10 s.
    assert_eq!(result.metrics.utilization, 0.8);
}

#[test]
fn yarn_capacity_serves_queues_by_relative_use_and_caps_them_at_max_share() {
    // One node of 8 GPUs; queue a submits three 2-GPU jobs of 10 s, queue b one, all at 0.
    // The guarantee is 4 GPUs per queue. Least relatively used first: J0 (a, tie by name),
    // J3 (b at 0/4), J1 (a at 2/4), then J2 on the idle GPUs past a's guarantee.
    let jobs: Vec<JobSpec> = rigid(&[(0.0, 2, 10.0), (0.0, 2, 10.0), (0.0, 2, 10.0), (0.0, 2, 10.0)])
        .into_iter()
        .enumerate()
        .map(|(index, job)| JobSpec { vc: Some(if index == 3 { "b" } else { "a" }.to_string()), ..job })
        .collect();
    let result = simulate("yarn-cs", cluster("g=8", 8), &jobs);
    assert_eq!(jcts(&result), vec![10.0, 10.0, 10.0, 10.0]);
    // Capped at half the cluster, queue a holds 4 GPUs: J2 waits for J0 or J1 and ends at 20.
    let result = simulate("yarn-cs[max_share=0.5]", cluster("g=8", 8), &jobs);
    assert_eq!(jcts(&result), vec![10.0, 10.0, 20.0, 10.0]);
    assert_eq!(result.metrics.avg_queueing_delay, 2.5);
}

#[test]
fn srtf_three_jobs_two_gpus() {
    // t=0: J0 (10 left) and J1 (4 left) run. t=1: J2 arrives with 2 left; J0 has 9, J1 has 3,
    // so J2 and J1 run and J0 is preempted. t=3: J2 ends (JCT 2) and J0 resumes with 9 left.
    // t=4: J1 ends (JCT 4). t=12: J0 ends (JCT 12).
    let result = simulate("srtf", cluster("g=2", 2), &three_jobs());
    assert_eq!(jcts(&result), vec![12.0, 4.0, 2.0]);
    assert_eq!(result.jobs[0].restarts, 1);
    assert_eq!(result.jobs[0].waiting_time, 2.0);
}

#[test]
fn las_three_jobs_two_gpus() {
    // Quantum 1 s, service in GPU-seconds, ties by arrival.
    // t=0: J0, J1 run. t=1: service J0=1, J1=1, J2=0: J2 and J0 run, J1 preempted.
    // t=2 (tick): J0=2, J1=1, J2=1: J1 and J2 run (tie by arrival), J0 preempted.
    // t=3: J2 ends (ran 1..3, JCT 2); J0=2, J1=2: both run. J1 has 2 left: ends at 5.
    // J0 has 8 left: ends at 11.
    let result = simulate("las[quantum=1]", cluster("g=2", 2), &three_jobs());
    assert_eq!(jcts(&result), vec![11.0, 5.0, 2.0]);
    assert_eq!(result.jobs[0].restarts, 1);
    assert_eq!(result.jobs[1].restarts, 1);
}

#[test]
fn fifo_backfill_lets_small_jobs_pass() {
    // Two GPUs; J0 1 GPU 10 s, J1 2 GPUs 1 s, J2 1 GPU 1 s, all at t=0.
    // Strict: J0 runs; J1 does not fit and blocks J2. t=10: J1 runs to 11, then J2 to 12.
    // Backfill: J0 and J2 run; J2 ends at 1; J1 starts when J0 ends at 10 and ends at 11.
    let jobs = rigid(&[(0.0, 1, 10.0), (0.0, 2, 1.0), (0.0, 1, 1.0)]);
    let strict = simulate("fifo", cluster("g=2", 2), &jobs);
    assert_eq!(jcts(&strict), vec![10.0, 11.0, 12.0]);
    let backfill = simulate("fifo[backfill=true]", cluster("g=2", 2), &jobs);
    assert_eq!(jcts(&backfill), vec![10.0, 11.0, 1.0]);
    // Idle while waiting, min(idle GPUs, GPUs the waiting jobs ask for): strict FIFO leaves one
    // GPU idle for 10 s while J1 and J2 (3 GPUs) wait, and none after; backfill only from 1 to
    // 10, while J0 runs and J1 (2 GPUs) waits.
    assert_eq!(strict.metrics.idle_while_waiting, 10.0);
    assert_eq!(backfill.metrics.idle_while_waiting, 9.0);
}

#[test]
fn sjf_orders_waiting_jobs_by_true_duration() {
    // One GPU. J0 (5 s) runs from 0. J1 (4 s) and J2 (1 s) arrive at 1; when J0 ends at 5 the
    // shorter J2 goes first (ends 6, JCT 5), then J1 (ends 10, JCT 9).
    let jobs = rigid(&[(0.0, 1, 5.0), (1.0, 1, 4.0), (1.0, 1, 1.0)]);
    assert_eq!(jcts(&simulate("sjf", cluster("g=1", 1), &jobs)), vec![5.0, 9.0, 5.0]);
}

#[test]
fn tiresias_demotes_at_thresholds() {
    // One GPU, thresholds at 3 GPU-seconds. J0 (10 s) runs from 0; J1 (2 s) arrives at 1 in
    // queue 0 with J0, which is running and keeps its GPU (running first within a queue). At
    // t=3 J0 crosses the threshold and drops to queue 1, so J1 runs 3..5 (JCT 4); J0 resumes
    // at 5 with 7 left and ends at 12.
    let jobs = rigid(&[(0.0, 1, 10.0), (1.0, 1, 2.0)]);
    let result = simulate("tiresias[thresholds=3]", cluster("g=1", 1), &jobs);
    assert_eq!(jcts(&result), vec![12.0, 4.0]);
}

#[test]
fn tiresias_starvation_promotes_waiting_jobs() {
    // One GPU, threshold 2 GPU-seconds; J0 (4 s) at 0, J1 (10 s) at 1, J2 (10 s) at 3.
    // Without promotion: J0 runs 0..2 and drops to queue 1; J1 runs 2..4 (J2 arriving at 3
    // waits behind the running J1) and drops; J2 runs 4..6 and drops. Queue 1 in entry order:
    // J0 runs 6..8 (JCT 8), J1 8..16 (JCT 15), J2 16..24 (JCT 21).
    // With starvation=0.5: J0 (executed 2 s, first ran at 0) has waited (t-0)-2 >= 1 s at t=3
    // and is promoted to queue 0, entering at 3 like J2 but with a lower id, so when J1 drops
    // at 4 J0 runs 4..6 and ends (JCT 6).
    let jobs = rigid(&[(0.0, 1, 4.0), (1.0, 1, 10.0), (3.0, 1, 10.0)]);
    let without = simulate("tiresias[thresholds=2]", cluster("g=1", 1), &jobs);
    assert_eq!(jcts(&without), vec![8.0, 15.0, 21.0]);
    let with = simulate("tiresias[thresholds=2,starvation=0.5]", cluster("g=1", 1), &jobs);
    assert_eq!(jcts(&with)[0], 6.0);
    assert_eq!(with.metrics.jobs_finished, 3);
}

#[test]
fn restart_overhead_delays_resumed_jobs() {
    // The SRTF schedule above, with 0.5 s lost on every restart: J0 resumes at 3, makes
    // progress from 3.5 and ends at 12.5. First starts are free.
    let config = SimConfig { restart_overhead: 0.5, check_invariants: true, ..SimConfig::default() };
    let result = simulate_with("srtf", cluster("g=2", 2), &three_jobs(), &TraceDuration::uniform(), &config).unwrap();
    assert_eq!(jcts(&result), vec![12.5, 4.0, 2.0]);
}

fn table() -> ThroughputTable {
    let json = serde_json::json!({
        "v100": {"('A', 1)": {"null": 2.0}, "('B', 2)": {"null": 4.0}},
        "k80": {"('A', 1)": {"null": 1.0}, "('B', 2)": {"null": 1.0}}
    });
    ThroughputTable::from_json(&json, "inline").unwrap().0
}

#[test]
fn throughput_table_sets_speed_per_gpu_type() {
    // One v100 and one k80. Two A jobs with 10 steps at t=0: consolidated placement picks v100
    // (type order breaks the tie) for J0, which runs at 2 steps/s and ends at 5; J1 gets the
    // k80 at 1 step/s and ends at 10.
    let jobs = vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 10.0), JobSpec::new(JobId(1), Time::ZERO, 1, "A", 10.0)];
    let result = simulate_with("fifo", cluster("v100=1,k80=1", 1), &jobs, &table(), &SimConfig::default()).unwrap();
    assert_eq!(jcts(&result), vec![5.0, 10.0]);
    assert_eq!(result.jobs[0].gpu_seconds, vec![5.0, 0.0]);
    assert_eq!(result.jobs[1].gpu_seconds, vec![0.0, 10.0]);
}

#[test]
fn mixed_allocations_run_at_the_slowest_part() {
    // B on 2 GPUs: 4 steps/s on v100, 1 on k80. With one of each and mixing allowed, the job
    // runs at min(4, 1) = 1 step/s: 10 steps take 10 s.
    let jobs = vec![JobSpec::new(JobId(0), Time::ZERO, 2, "B", 10.0)];
    let perf: &dyn PerfModel = &table();
    let result =
        simulate_with("fifo[same_type=false]", cluster("v100=1,k80=1", 1), &jobs, perf, &SimConfig::default()).unwrap();
    assert_eq!(jcts(&result), vec![10.0]);
    // Same type only: the job can never be placed, and the engine says so.
    let err = simulate_with("fifo", cluster("v100=1,k80=1", 1), &jobs, perf, &SimConfig::default()).unwrap_err();
    assert!(err.to_string().contains("stalled"), "{err}");
}

#[test]
fn measurement_window_excludes_warm_up() {
    // FIFO on the three jobs; measuring only jobs 1..3 gives JCTs 4 and 5.
    let config =
        SimConfig { window: schedlab_sim::MeasurementWindow::Jobs { first: 1, last: 3 }, ..SimConfig::default() };
    let result = simulate_with("fifo", cluster("g=2", 2), &three_jobs(), &TraceDuration::uniform(), &config).unwrap();
    assert_eq!(result.metrics.jobs_measured, 2);
    assert_eq!(result.metrics.avg_jct, 4.5);
}

#[test]
fn stop_after_window_ends_the_run_when_the_windows_jobs_have_finished_as_gavel_does() {
    // FIFO on one GPU: J0 (0 s, 10 s of work), J1 (1 s, 4 s), J2 (2 s, 3 s), J3 (20 s, 1 s).
    // Window jobs 1..2 (J1 only): J1 runs 10..14, so the run ends at 14 with J2 running and
    // J3 still to arrive, as Gavel's `jobs_to_complete` ends its simulation.
    let jobs = rigid(&[(0.0, 1, 10.0), (1.0, 1, 4.0), (2.0, 1, 3.0), (20.0, 1, 1.0)]);
    let window = schedlab_sim::MeasurementWindow::Jobs { first: 1, last: 2 };
    let config = SimConfig { check_invariants: true, window, stop_after_window: true, ..SimConfig::default() };
    let result = simulate_with("fifo", cluster("g=1", 1), &jobs, &TraceDuration::uniform(), &config).unwrap();
    let finished: Vec<Option<f64>> = result.jobs.iter().map(|job| job.jct).collect();
    assert_eq!(finished, vec![Some(10.0), Some(13.0), None, None]);
    assert_eq!((result.metrics.jobs_measured, result.metrics.avg_jct), (1, 13.0));
    // Without the option the window is measured the same, but every job runs to its end.
    let all = SimConfig { stop_after_window: false, ..config.clone() };
    let result = simulate_with("fifo", cluster("g=1", 1), &jobs, &TraceDuration::uniform(), &all).unwrap();
    assert_eq!(jcts(&result), vec![10.0, 13.0, 15.0, 1.0]);
    // A window that outlasts the arrivals saw a lighter load than an endless stream: an error.
    let late = SimConfig { window: schedlab_sim::MeasurementWindow::Jobs { first: 2, last: 3 }, ..config.clone() };
    let error = simulate_with("fifo", cluster("g=1", 1), &jobs[..3], &TraceDuration::uniform(), &late).unwrap_err();
    assert!(error.to_string().contains("after the workload's last arrival"), "{error}");
    // The option needs a window of jobs the workload has.
    let none = SimConfig { window: schedlab_sim::MeasurementWindow::All, ..config };
    let error = simulate_with("fifo", cluster("g=1", 1), &jobs, &TraceDuration::uniform(), &none).unwrap_err();
    assert!(error.to_string().contains("stop_after_window needs a window of jobs"), "{error}");
}
