//! Gavel's round mechanism in the engine, on instances worked out by hand.

use schedlab_cluster::{CompactCluster, ThroughputTable};
use schedlab_core::{JobId, JobSpec, Policy, Time};
use schedlab_policies_gavel::{Gavel, GavelKind};
use schedlab_sim::{SimConfig, run};
use std::sync::Arc;

/// Policies here read throughput files by absolute path: no data directory is needed.
fn env() -> schedlab_core::PolicyEnv {
    schedlab_core::PolicyEnv::new(schedlab_core::DataDir::none())
}

/// A throughput table file with two single-GPU job types on v100 and k80.
fn table_file(test: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("schedlab-gavel-{}-{test}.json", std::process::id()));
    let json = r#"{
        "v100": {"('A', 1)": {"null": 10.0}, "('B', 1)": {"null": 2.0}},
        "k80": {"('A', 1)": {"null": 1.0}, "('B', 1)": {"null": 1.0}}
    }"#;
    std::fs::write(&path, json).unwrap();
    path
}

fn policy(path: &std::path::Path, aware: bool) -> Gavel {
    let name = if aware { "gavel-las" } else { "gavel-las-agnostic" };
    Gavel::from_params(
        &format!("{name}[throughputs={}]", path.display()).parse().unwrap(),
        GavelKind::MaxMinFairness,
        aware,
        &env(),
    )
    .unwrap()
}

#[test]
fn jobs_alternate_types_as_their_allocation_says() {
    // One v100 and one k80. A runs at 10 steps/s on v100 and 1 on k80; B at 2 and 1.
    // The aware LP gives both jobs half of each type (the equal share is optimal here: every
    // full allocation trading v100 time between them lowers one normalised rate).
    // Round 1 (t=0): nothing received yet, all priorities are 0.5e9; ties go to job A, then to
    // type order, so A gets the v100 and B the k80.
    // Round 2 (t=360): A has received all v100 time and none on k80, B the reverse, so A's
    // k80 pair and B's v100 pair now rank first: they swap.
    // A: 3600 steps in round 1, then 360 on k80 by t=720: work 3960 ends at 720.
    // B: 360 steps in round 1, then 640 at 2/s on v100: work 1000 ends at 360 + 320 = 680.
    let path = table_file("alternate");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let cluster = Arc::new(CompactCluster::parse("v100=1,k80=1", 1).unwrap().build().unwrap());
    let jobs =
        vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 3960.0), JobSpec::new(JobId(1), Time::ZERO, 1, "B", 1000.0)];
    let mut gavel = policy(&path, true);
    let config = SimConfig { check_invariants: true, trace_jobs: vec![0], ..SimConfig::default() };
    let types = cluster.gpu_types().to_vec();
    let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
    let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
    assert_eq!(jcts, vec![720.0, 680.0]);
    // A's timeline records the swap: one GPU throughout, on the v100 and then on the k80.
    let bit = |name: &str| 1u64 << types.iter().position(|known| known == name).unwrap();
    let held: Vec<(f64, u32, u64)> =
        result.allocations[0].samples.iter().map(|sample| (sample.time, sample.gpus, sample.type_mask)).collect();
    assert_eq!(held, vec![(0.0, 1, bit("v100")), (360.0, 1, bit("k80")), (720.0, 0, 0)]);
    assert_eq!(result.jobs[0].restarts, 1);
    assert_eq!(result.jobs[0].gpu_seconds, vec![360.0, 360.0]);
    assert_eq!(result.jobs[1].gpu_seconds, vec![320.0, 360.0]);
    // One LP when both arrive and one when B finishes; none after the last completion.
    let solver = result.solver.expect("LP policies report their solves");
    assert_eq!((solver.backend.as_str(), solver.solves), ("maxmin-ipm", 2));
    assert_eq!(gavel.name(), format!("gavel-las[throughputs={}]", path.display()));
}

#[test]
fn both_twins_finish_every_job_without_breaking_an_invariant() {
    let path = table_file("agnostic");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let cluster = Arc::new(CompactCluster::parse("v100=2,k80=2", 1).unwrap().build().unwrap());
    let jobs: Vec<JobSpec> = (0..8)
        .map(|index| {
            let job_type = if index % 2 == 0 { "A" } else { "B" };
            JobSpec::new(JobId(index), Time::from_secs(f64::from(index) * 100.0), 1, job_type, 20_000.0)
        })
        .collect();
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let aware = run(cluster.clone(), &jobs, &table, &mut policy(&path, true), &config).unwrap();
    let agnostic = run(cluster, &jobs, &table, &mut policy(&path, false), &config).unwrap();
    assert_eq!(aware.metrics.jobs_finished, 8);
    assert_eq!(agnostic.metrics.jobs_finished, 8);
    // Deterministic: the same inputs give the same records.
    let again = run(
        Arc::new(CompactCluster::parse("v100=2,k80=2", 1).unwrap().build().unwrap()),
        &jobs,
        &table,
        &mut policy(&path, true),
        &config,
    )
    .unwrap();
    assert_eq!(again.jobs, aware.jobs);
}

#[test]
fn a_missing_throughput_file_is_a_clear_parameter_error() {
    let error = Gavel::from_params(
        &"gavel-las[throughputs=/no/such/table.json]".parse().unwrap(),
        GavelKind::MaxMinFairness,
        true,
        &env(),
    )
    .err()
    .expect("should fail")
    .to_string();
    assert!(
        error.starts_with(
            "policy 'gavel-las[throughputs=/no/such/table.json]': parameter 'throughputs': data file '/no/such/table.json' not found"
        ),
        "{error}"
    );
}

#[test]
fn fifo_puts_each_job_on_its_fastest_free_type_and_moves_it_when_a_faster_one_frees() {
    // One v100 and one k80; A and B arrive at 0. Aware FIFO in arrival order: A takes the
    // v100 (10 vs 1 steps/s); B gets the only type with room, the k80. A's 3600 steps end at
    // 360, which is also the next round: the allocation is recomputed from scratch and B's
    // fastest type with room is now the v100 (2 vs 1). B has 360 of its 1000 steps and runs
    // the remaining 640 at 2/s: it ends at 680.
    let path = table_file("fifo");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let cluster = Arc::new(CompactCluster::parse("v100=1,k80=1", 1).unwrap().build().unwrap());
    let jobs =
        vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 3600.0), JobSpec::new(JobId(1), Time::ZERO, 1, "B", 1000.0)];
    let mut fifo = Gavel::from_params(
        &format!("gavel-fifo[throughputs={}]", path.display()).parse().unwrap(),
        GavelKind::Fifo,
        true,
        &env(),
    )
    .unwrap();
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let result = run(cluster.clone(), &jobs, &table, &mut fifo, &config).unwrap();
    let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
    assert_eq!(jcts, vec![360.0, 680.0]);
    assert_eq!(result.jobs[1].restarts, 1);
    // The agnostic twin picks types at random (seeded) and keeps them: every job still ends.
    let mut agnostic = Gavel::from_params(
        &format!("gavel-fifo-agnostic[seed=3,throughputs={}]", path.display()).parse().unwrap(),
        GavelKind::Fifo,
        false,
        &env(),
    )
    .unwrap();
    let result = run(cluster, &jobs, &table, &mut agnostic, &config).unwrap();
    assert_eq!(result.metrics.jobs_finished, 2);
    assert_eq!(result.jobs[1].restarts, 0, "agnostic FIFO never moves a job");
}

fn build(text: &str, kind: GavelKind, aware: bool) -> Gavel {
    Gavel::from_params(&text.parse().unwrap(), kind, aware, &env()).unwrap()
}

#[test]
fn makespan_runs_each_job_where_the_shared_horizon_is_shortest() {
    // One v100 and one k80. A: 3600 steps at 10/s on v100, 1/s on k80; B: 360 steps at 2 and 1.
    // A's rate is at most 10, so the horizon is at least 360 s, reached only with A on the
    // v100 full time and B on the k80 full time (B needs 360 / 360 = 1 step/s). Both end at 360.
    let path = table_file("makespan");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let cluster = Arc::new(CompactCluster::parse("v100=1,k80=1", 1).unwrap().build().unwrap());
    let jobs =
        vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 3600.0), JobSpec::new(JobId(1), Time::ZERO, 1, "B", 360.0)];
    let mut gavel = build(&format!("gavel-makespan[throughputs={}]", path.display()), GavelKind::Makespan, true);
    assert_eq!(gavel.knowledge(), schedlab_core::Knowledge::Oracle, "it reads each job's total steps");
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
    let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
    assert_eq!(jcts, vec![360.0, 360.0]);
    assert_eq!(result.jobs[0].gpu_seconds, vec![360.0, 0.0]);
    assert_eq!(result.jobs[1].gpu_seconds, vec![0.0, 360.0]);
}

#[test]
fn every_lp_policy_and_twin_finishes_every_job_without_breaking_an_invariant() {
    let path = table_file("kinds");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let jobs: Vec<JobSpec> = (0..10)
        .map(|index| {
            let job_type = if index % 3 == 0 { "A" } else { "B" };
            JobSpec::new(JobId(index), Time::from_secs(f64::from(index) * 200.0), 1, job_type, 5_000.0)
        })
        .collect();
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let table_param = format!("throughputs={}", path.display());
    let cases = [
        ("gavel-ftf", GavelKind::FinishTimeFairness),
        ("gavel-makespan", GavelKind::Makespan),
        ("gavel-max-throughput", GavelKind::MaxThroughput),
        ("gavel-max-throughput-packed", GavelKind::MaxThroughputPacked),
        ("gavel-cost", GavelKind::MinCost),
        ("gavel-las", GavelKind::MaxMinFairness),
    ];
    for ((name, kind), backend) in cases.into_iter().flat_map(|case| [(case, "microlp"), (case, "clarabel")]) {
        for aware in [true, false] {
            let costs = if kind == GavelKind::MinCost { "costs=v100:3/k80:1," } else { "" };
            let mut gavel = build(&format!("{name}[backend={backend},{costs}{table_param}]"), kind, aware);
            let cluster = Arc::new(CompactCluster::parse("v100=2,k80=2", 1).unwrap().build().unwrap());
            let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
            assert_eq!(result.metrics.jobs_finished, 10, "{name} aware={aware} backend={backend}");
            let solver = result.solver.unwrap();
            assert!(solver.solves >= 10, "{name}: one LP per arrival at least: {solver:?}");
            assert_eq!(solver.backend, backend);
        }
    }
}

#[test]
fn cost_needs_a_price_for_every_gpu_type_of_the_cluster() {
    let path = table_file("costs");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let cluster = Arc::new(CompactCluster::parse("v100=1,k80=1", 1).unwrap().build().unwrap());
    let jobs = vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 100.0)];
    let mut gavel =
        build(&format!("gavel-cost[costs=v100:3,throughputs={}]", path.display()), GavelKind::MinCost, true);
    let error = run(cluster, &jobs, &table, &mut gavel, &SimConfig::default()).unwrap_err().to_string();
    assert!(error.contains("parameter 'costs' has no price for GPU type 'k80' (cluster types: v100, k80)"), "{error}");
    let error = Gavel::from_params(&"gavel-cost[costs=v100=3]".parse().unwrap(), GavelKind::MinCost, true, &env())
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains("parameter 'costs': expected type:price pairs"), "{error}");
}

/// One v100 with A (10 steps/s alone, 6 sharing with B) and B (4 alone, 3 sharing).
fn packing_table(test: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("schedlab-gavel-{}-{test}.json", std::process::id()));
    let json = r#"{
        "v100": {
            "('A', 1)": {"null": 10.0, "('B', 1)": [6.0, 3.0]},
            "('B', 1)": {"null": 4.0, "('A', 1)": [3.0, 6.0]}
        }
    }"#;
    std::fs::write(&path, json).unwrap();
    path
}

#[test]
fn fifo_packs_a_waiting_job_only_when_the_pair_gains_enough() {
    // A is first and takes the v100. B waits; sharing would give 6/10 + 3/4 = 1.35 of the two
    // jobs' isolated throughputs. Gavel's threshold 1.5 refuses: A ends at 60 s, then B runs
    // alone, 600 / 4 = 150 s, to 210 s. A threshold of 1.2 accepts: A ends at 600 / 6 = 100 s,
    // B has 300 steps by then and finishes alone at 4/s at 175 s.
    let path = packing_table("fifo-packing");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let jobs =
        vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 600.0), JobSpec::new(JobId(1), Time::ZERO, 1, "B", 600.0)];
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    for (threshold, expected) in [(1.5, vec![60.0, 210.0]), (1.2, vec![100.0, 175.0])] {
        let name = format!("gavel-fifo-packed[packing_threshold={threshold},throughputs={}]", path.display());
        let mut gavel = build(&name, GavelKind::FifoPacked, true);
        let cluster = Arc::new(CompactCluster::parse("v100=1", 1).unwrap().build().unwrap());
        let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
        let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
        assert_eq!(jcts, expected, "threshold {threshold}");
    }
}

#[test]
fn packing_runs_a_pair_on_one_gpu_and_the_survivor_alone() {
    // One v100. A: 10 steps/s alone, 6 sharing with B; B: 4 alone, 3 sharing. The packed LP
    // gives the pair 20/23 of the GPU and A alone 3/23 (see the allocation tests), so the
    // first round runs the pair. A's 600 steps end at 100 s; B has done 300 and runs alone at
    // 4/s on the same GPU without a restart: it ends at 175 s.
    let path = std::env::temp_dir().join(format!("schedlab-gavel-{}-packing.json", std::process::id()));
    let json = r#"{
        "v100": {
            "('A', 1)": {"null": 10.0, "('B', 1)": [6.0, 3.0]},
            "('B', 1)": {"null": 4.0, "('A', 1)": [3.0, 6.0]}
        }
    }"#;
    std::fs::write(&path, json).unwrap();
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let cluster = Arc::new(CompactCluster::parse("v100=1", 1).unwrap().build().unwrap());
    let jobs =
        vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 600.0), JobSpec::new(JobId(1), Time::ZERO, 1, "B", 600.0)];
    let mut gavel =
        build(&format!("gavel-las-packed[throughputs={}]", path.display()), GavelKind::MaxMinFairnessPacked, true);
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
    let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
    assert_eq!(jcts, vec![100.0, 175.0]);
    assert_eq!((result.jobs[0].restarts, result.jobs[1].restarts), (0, 0));
}

#[test]
fn packed_makespan_shares_only_for_as_long_as_the_short_job_needs() {
    // One v100. A: 600 steps, 10/s alone, 6 sharing with B; B: 6,000 steps, 4/s alone, 3
    // sharing. Makespan with sharing: maximise z with 10 a + 6 p >= 600 z, 4 b + 3 p >= 6000 z,
    // a + b + p <= 1. Sharing gives A 6 steps/s for 1 of B's 4, where A alone costs B all 4
    // for 10, so a = 0, p = 100 z, b = 1 - 100 z and z = 4 / 6100: B alone 0.934, the pair
    // 0.066. Round 1: neither has run, so B (the larger X) runs alone to 360 s (1,440 steps).
    // Round 2: the pair has received nothing and goes first: A ends at 360 + 600 / 6 = 460 s,
    // B has 1,740 steps and runs alone on the same GPU: 4,260 / 4 = 1,065 s more, 1,525 s.
    let path = packing_table("makespan-packing");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let jobs =
        vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 600.0), JobSpec::new(JobId(1), Time::ZERO, 1, "B", 6_000.0)];
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let name = format!("gavel-makespan-packed[throughputs={}]", path.display());
    let mut gavel = build(&name, GavelKind::MakespanPacked, true);
    assert_eq!(gavel.knowledge(), schedlab_core::Knowledge::Oracle);
    let cluster = Arc::new(CompactCluster::parse("v100=1", 1).unwrap().build().unwrap());
    let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
    let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
    assert_eq!(jcts, vec![460.0, 1525.0]);
}

#[test]
fn every_packed_lp_policy_finishes_every_job_without_breaking_an_invariant() {
    // Two job types that gain from sharing on both types, 12 jobs on two GPUs of each type.
    let path = std::env::temp_dir().join(format!("schedlab-gavel-{}-packed-kinds.json", std::process::id()));
    let json = r#"{
        "v100": {
            "('A', 1)": {"null": 10.0, "('A', 1)": [7.0, 7.0], "('B', 1)": [6.0, 3.0]},
            "('B', 1)": {"null": 4.0, "('A', 1)": [3.0, 6.0], "('B', 1)": [3.0, 3.0]}
        },
        "k80": {
            "('A', 1)": {"null": 2.0, "('A', 1)": [1.5, 1.5], "('B', 1)": [1.5, 1.5]},
            "('B', 1)": {"null": 2.0, "('A', 1)": [1.5, 1.5], "('B', 1)": [1.2, 1.2]}
        }
    }"#;
    std::fs::write(&path, json).unwrap();
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let jobs: Vec<JobSpec> = (0..12)
        .map(|index| {
            let job_type = if index % 3 == 0 { "A" } else { "B" };
            JobSpec::new(
                JobId(index),
                Time::from_secs(f64::from(index) * 100.0),
                1,
                job_type,
                3_000.0 + 500.0 * f64::from(index),
            )
        })
        .collect();
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let cases = [
        ("gavel-ftf-packed", GavelKind::FinishTimeFairnessPacked, ""),
        ("gavel-makespan-packed", GavelKind::MakespanPacked, ""),
        ("gavel-max-throughput-packed", GavelKind::MaxThroughputPacked, "slo_factor=3,"),
        ("gavel-cost-packed", GavelKind::MinCostPacked, "costs=v100:3/k80:1,"),
        ("gavel-cost-packed", GavelKind::MinCostPacked, "costs=v100:3/k80:1,slo_factor=2,"),
    ];
    for (name, kind, extra) in cases {
        let mut gavel = build(&format!("{name}[{extra}throughputs={}]", path.display()), kind, true);
        let cluster = Arc::new(CompactCluster::parse("v100=2,k80=2", 1).unwrap().build().unwrap());
        let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
        assert_eq!(result.metrics.jobs_finished, 12, "{name}[{extra}]");
        // Jobs' GPU-seconds exceed the busy GPU-seconds only if some GPUs ran two jobs at once.
        let job_seconds: f64 = result.jobs.iter().map(|job| job.gpu_seconds.iter().sum::<f64>()).sum();
        let busy_seconds: f64 = result.timeline.integrate(0.0, result.metrics.end_time).iter().sum();
        assert!(
            job_seconds > busy_seconds + 1.0,
            "{name}[{extra}]: no GPU was shared ({job_seconds} vs {busy_seconds})"
        );
        let again = run(
            Arc::new(CompactCluster::parse("v100=2,k80=2", 1).unwrap().build().unwrap()),
            &jobs,
            &table,
            &mut build(&format!("{name}[{extra}throughputs={}]", path.display()), kind, true),
            &config,
        )
        .unwrap();
        let jcts = |r: &schedlab_sim::RunResult| r.jobs.iter().map(|job| job.jct.unwrap()).collect::<Vec<f64>>();
        assert_eq!(jcts(&result), jcts(&again), "{name}[{extra}]: a rerun repeats");
    }
}

#[test]
fn gavels_quirks_are_options_new_jobs_idle_and_types_fill_in_a_fixed_order() {
    // One v100 and one k80. A arrives at 0 and, alone, gets the v100 (10 vs 1 steps/s). B
    // arrives at 100 s; the new allocation gives it time on the k80, which is free. By default
    // B starts there at once; with `idle_until_round` it waits for the next round at 360 s.
    let path = table_file("quirks");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let jobs = vec![
        JobSpec::new(JobId(0), Time::ZERO, 1, "A", 36_000.0),
        JobSpec::new(JobId(1), Time::from_secs(100.0), 1, "B", 3_600.0),
    ];
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let first_start = |extra: &str| {
        let name = format!("gavel-las[{extra}throughputs={}]", path.display());
        let mut gavel = build(&name, GavelKind::MaxMinFairness, true);
        let cluster = Arc::new(CompactCluster::parse("v100=1,k80=1", 1).unwrap().build().unwrap());
        let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
        assert_eq!(result.metrics.jobs_finished, 2);
        result.jobs[1].first_start.unwrap()
    };
    assert_eq!(first_start(""), 100.0);
    assert_eq!(first_start("idle_until_round=true,"), 360.0);
    // A type order naming every type, or a partial one, still schedules everything.
    assert_eq!(first_start("type_order=v100/k80,"), 100.0);
    assert_eq!(first_start("type_order=k80,idle_until_round=true,"), 360.0);
    assert_eq!(first_start("type_order=shuffle,"), 100.0);
    // With Gavel's 1,920-s interval the allocation of t = 0 (A alone) stands when B arrives.
    // Filling left-over GPUs at priority 0, B takes the free k80 at the next round; Gavel's
    // rounds select it too but start no job missing from the allocation, so B waits for the
    // first round at least 1,920 s after the last recomputation: 6 x 360 = 2,160 s.
    let interval = "idle_until_round=true,min_interval=1920,fill_unallocated=true,";
    assert_eq!(first_start(interval), 360.0);
    assert_eq!(first_start(&format!("{interval}new_jobs_wait=true,")), 2160.0);
    assert_eq!(first_start("mode=gavel,recompute_at_rounds=false,"), 2160.0);
    assert_eq!(first_start("mode=gavel,recompute_at_rounds=false,new_jobs_wait=false,"), 360.0);
    // Gavel recomputes only when a round starts, and its "never reset" mark is a last reset at
    // t = 0: the allocation of t = 0 does not start the interval, so the 360-s round
    // recomputes with B, which starts there.
    assert_eq!(first_start("mode=gavel,"), 360.0);
}

#[test]
fn gavels_gandiva_pairs_jobs_only_when_the_cluster_is_full() {
    // A and B (600 steps each) on one v100: they ask for 2 GPUs, more than the cluster has, so
    // Gandiva pairs them (the only possible pair) and the pair gets the whole GPU: A ends at
    // 600 / 6 = 100 s, B at 100 + 300 / 4 = 175 s. On two v100s both fit, nothing is packed:
    // A alone ends at 60 s, B at 150 s.
    let path = packing_table("gandiva");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let jobs =
        vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 600.0), JobSpec::new(JobId(1), Time::ZERO, 1, "B", 600.0)];
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    for (gpus, expected) in [(1, vec![100.0, 175.0]), (2, vec![60.0, 150.0])] {
        let mut gavel = build(&format!("gavel-gandiva[throughputs={}]", path.display()), GavelKind::Gandiva, true);
        let cluster = Arc::new(CompactCluster::parse(&format!("v100={gpus}"), 1).unwrap().build().unwrap());
        let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
        let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
        assert_eq!(jcts, expected, "{gpus} GPUs");
        assert!(result.solver.is_none(), "Gandiva solves no LP");
    }
}

#[test]
fn an_slo_moves_a_job_to_the_faster_type_in_time_for_its_deadline() {
    // One v100 and one k80. A: 36,000 steps (10/s on v100, 1 on k80); B: 720 steps (2 and 1).
    // Without SLOs, total throughput puts A on the v100 and B on the k80: A ends at 3600 s,
    // B at 720 s. With slo_factor 1.5, B's deadline is 1.5 x 360 s (its time alone on a v100)
    // = 540 s, so it needs 720 / 540 = 4/3 steps/s: with its time summing to at most 1, at
    // least 1/3 on the v100 (2/3 on the k80). A takes the rest: 2/3 v100 and 1/3 k80.
    // Round 1 (priority X x 1e9; ties by job): A on the v100, B on the k80, to 360 s (A: 3600
    // steps, B: 360). Round 2: the pairs with nothing received rank first: A on the k80, B on
    // the v100, which ends B at 360 + 360 / 2 = 540 s, meeting its deadline. A keeps the k80
    // until the next round (3960 steps at 720 s), then runs alone on the v100: 32,040 more
    // steps at 10/s end it at 3924 s.
    let path = table_file("slo");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let jobs =
        vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 36_000.0), JobSpec::new(JobId(1), Time::ZERO, 1, "B", 720.0)];
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    for (extra, expected) in [("", vec![3600.0, 720.0]), ("slo_factor=1.5,", vec![3924.0, 540.0])] {
        let name = format!("gavel-max-throughput[{extra}throughputs={}]", path.display());
        let mut gavel = build(&name, GavelKind::MaxThroughput, true);
        let oracle = gavel.knowledge() == schedlab_core::Knowledge::Oracle;
        assert_eq!(oracle, !extra.is_empty(), "deadlines come from each job's isolated duration");
        let cluster = Arc::new(CompactCluster::parse("v100=1,k80=1", 1).unwrap().build().unwrap());
        let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
        let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
        assert_eq!(jcts, expected, "{name}");
        assert_eq!(result.solver.unwrap().relaxed, 0);
    }
    // A deadline no allocation can meet (B would need 720 / 180 = 4 steps/s): as Gavel, the LP
    // is solved again without SLOs, and the run's solver statistics count it.
    let name = format!("gavel-max-throughput[slo_factor=0.5,throughputs={}]", path.display());
    let mut gavel = build(&name, GavelKind::MaxThroughput, true);
    let cluster = Arc::new(CompactCluster::parse("v100=1,k80=1", 1).unwrap().build().unwrap());
    let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
    assert_eq!(result.metrics.jobs_finished, 2);
    assert!(result.solver.unwrap().relaxed >= 1);
}

#[test]
fn deficit_tie_break_prefers_the_job_that_received_less_than_its_share() {
    // One v100; job type A runs 10 steps/s there. J0 and J1 arrive at 0 with 720 s of work,
    // J2 at 360 s. Round 1 (t=0): X = 1/2 each, both unrun, tie: J0 (lowest id) runs.
    // At t=360 J2 arrives and the allocation is recomputed (X = 1/3 each) with every counter
    // reset, so all three tie again at 1e9/3.
    // By job id J0 keeps the GPU and finishes at 720 s.
    // By deficit (should have run 1/2 x 360 = 180 s, ran: J0 360, J1 0, J2 new) J1 has +180,
    // J2 0 and J0 -180: J1 takes the GPU at 360 s and J0 waits.
    let path = table_file("deficit");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let cluster = Arc::new(CompactCluster::parse("v100=1", 1).unwrap().build().unwrap());
    let jobs = vec![
        JobSpec::new(JobId(0), Time::ZERO, 1, "A", 7200.0),
        JobSpec::new(JobId(1), Time::ZERO, 1, "A", 7200.0),
        JobSpec::new(JobId(2), Time::from_secs(360.0), 1, "A", 7200.0),
    ];
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let gavel = |tie_break: &str| {
        let text = format!("gavel-las[throughputs={},tie_break={tie_break}]", path.display());
        Gavel::from_params(&text.parse().unwrap(), GavelKind::MaxMinFairness, true, &env()).unwrap()
    };
    let by_id = run(cluster.clone(), &jobs, &table, &mut gavel("id"), &config).unwrap();
    assert_eq!(by_id.jobs[0].jct, Some(720.0));
    assert_eq!(by_id.jobs[1].first_start, Some(720.0));
    let by_deficit = run(cluster, &jobs, &table, &mut gavel("deficit"), &config).unwrap();
    assert_eq!(by_deficit.jobs[1].first_start, Some(360.0));
    assert!(by_deficit.jobs[0].jct.unwrap() > 720.0, "{:?}", by_deficit.jobs[0]);
}

#[test]
fn a_job_arriving_between_recomputations_starts_with_no_deficit_as_in_gavel() {
    // One v100; type A runs 10 steps/s. J0 and J1 arrive at 0 with 7,200 steps; J2 at 370 s.
    // mode=gavel: rounds of 360 s, credit 180 s, ties by deficit. The allocation of t=0 gives
    // J0 and J1 half each; J0 runs the first round (tie by id), J1 the second (it received
    // less). J2 waits for the recomputation at 720 s, where all three get 1/3 and every
    // priority is 1. Deficits: J0 and J1 should have run 360 s and ran 360 s: 0. J2 has 0 too:
    // Gavel's `add_job` credits a new job with the 180 s its reset removes again. So J0 wins
    // the tie by id and ends at 1,080 s. Counting J2's credit as 0 would give it a deficit of
    // +180 s, and the GPU at 720 s.
    let path = table_file("held-credit");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let cluster = Arc::new(CompactCluster::parse("v100=1", 1).unwrap().build().unwrap());
    let jobs = vec![
        JobSpec::new(JobId(0), Time::ZERO, 1, "A", 7200.0),
        JobSpec::new(JobId(1), Time::ZERO, 1, "A", 7200.0),
        JobSpec::new(JobId(2), Time::from_secs(370.0), 1, "A", 7200.0),
    ];
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let mut gavel =
        build(&format!("gavel-las[mode=gavel,throughputs={}]", path.display()), GavelKind::MaxMinFairness, true);
    let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
    assert_eq!(result.jobs[1].first_start, Some(360.0));
    assert_eq!(result.jobs[0].jct, Some(1080.0));
    assert!(result.jobs[2].first_start.unwrap() > 1000.0, "{:?}", result.jobs[2]);
}

#[test]
fn gavels_rounds_lease_whole_steps_and_idle_the_rest_of_the_round() {
    // Two v100s; A runs 1.001 steps/s, B 1.0, one GPU each every round (mode=gavel). B's
    // 360 whole steps take 360 s, so rounds start at 0, 360 and 720 s. A's lease is
    // floor(1.001 x 360) = 360 steps, done at 359.64 s; it then idles until the round ends. With
    // 720.5 steps A needs a third round: 720 + 0.5 / 1.001 s. Without the lease A would run on
    // through each round and end at 720.5 / 1.001 = 719.78 s, in the second.
    let path = std::env::temp_dir().join(format!("schedlab-gavel-{}-whole-steps.json", std::process::id()));
    std::fs::write(&path, r#"{"v100": {"('A', 1)": {"null": 1.001}, "('B', 1)": {"null": 1.0}}}"#).unwrap();
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let jobs =
        vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 720.5), JobSpec::new(JobId(1), Time::ZERO, 1, "B", 2000.0)];
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    for (whole_steps, expected) in [(true, 720.0 + 0.5 / 1.001), (false, 720.5 / 1.001)] {
        let name = format!("gavel-las[mode=gavel,whole_steps={whole_steps},throughputs={}]", path.display());
        let mut gavel = build(&name, GavelKind::MaxMinFairness, true);
        let cluster = Arc::new(CompactCluster::parse("v100=2", 1).unwrap().build().unwrap());
        let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
        let jct = result.jobs[0].jct.unwrap();
        assert!((jct - expected).abs() < 1e-6, "whole_steps={whole_steps}: {jct}, expected {expected}");
        assert_eq!(result.jobs[0].restarts, 0, "A keeps its GPU: a lease extension, not a restart");
    }
}

#[test]
fn a_job_idle_after_its_whole_steps_is_credited_only_the_time_it_ran_as_in_gavel() {
    // Two v100s; A runs 0.01 steps/s (a lease of floor(3.6) = 3 steps, done after 300 s), B 1.0
    // (360 steps, 360 s). J0 (B), J1 (A, 6 steps) and J2 (B) arrive at 0; mode=gavel: each is
    // allocated 2/3 of a GPU and credited 180 s, so all rank equal and J0 and J1 run the first
    // round (ties by id), which lasts 360 s. Gavel credits each job the time it ran
    // (`finish_time - current_round_start_time`): J1 300 s, J0 360 s. At 360 s J2 (180 s
    // received) and J1 (480) rank before J0 (540), and J1's last 3 steps end at 660 s. Crediting
    // J1 the whole round, as it holds its GPU until the round ends, would tie it with J0 (540),
    // J0 would win by id, and J1 would end in the third round, at 1,020 s.
    let path = std::env::temp_dir().join(format!("schedlab-gavel-{}-busy-credit.json", std::process::id()));
    std::fs::write(&path, r#"{"v100": {"('A', 1)": {"null": 0.01}, "('B', 1)": {"null": 1.0}}}"#).unwrap();
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let jobs = vec![
        JobSpec::new(JobId(0), Time::ZERO, 1, "B", 2000.0),
        JobSpec::new(JobId(1), Time::ZERO, 1, "A", 6.0),
        JobSpec::new(JobId(2), Time::ZERO, 1, "B", 2000.0),
    ];
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let mut gavel =
        build(&format!("gavel-las[mode=gavel,throughputs={}]", path.display()), GavelKind::MaxMinFairness, true);
    let cluster = Arc::new(CompactCluster::parse("v100=2", 1).unwrap().build().unwrap());
    let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(result.jobs[1].first_start, Some(0.0));
    assert!((result.jobs[1].jct.unwrap() - 660.0).abs() < 1e-6, "{:?}", result.jobs[1]);
}

#[test]
fn mode_gavel_is_gavels_simulator_settings_in_one_parameter() {
    let path = packing_table("mode");
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let jobs: Vec<JobSpec> = (0..16)
        .map(|index| {
            let job_type = if index % 2 == 0 { "A" } else { "B" };
            JobSpec::new(JobId(index), Time::from_secs(f64::from(index) * 500.0), 1, job_type, 4_000.0)
        })
        .collect();
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let jcts = |name: &str, extra: &str, kind: GavelKind, aware: bool| -> Vec<f64> {
        let mut gavel = build(&format!("{name}[{extra}throughputs={}]", path.display()), kind, aware);
        let cluster = Arc::new(CompactCluster::parse("v100=2", 1).unwrap().build().unwrap());
        run(cluster, &jobs, &table, &mut gavel, &config).unwrap().jobs.iter().map(|job| job.jct.unwrap()).collect()
    };
    let explicit = "idle_until_round=true,min_interval=1920,reset_credit=180,tie_break=deficit,fill_unallocated=true,\
                    new_jobs_wait=true,recompute_at_rounds=true,short_rounds=true,whole_steps=true";
    // Only the aware max-min (and finish-time) fairness LP solves with Clarabel in mode=gavel.
    for (name, kind, aware, order, backend) in [
        ("gavel-las", GavelKind::MaxMinFairness, true, "v100/p100/k80", "clarabel"),
        ("gavel-las-agnostic", GavelKind::MaxMinFairness, false, "shuffle", "microlp"),
        ("gavel-las-packed", GavelKind::MaxMinFairnessPacked, true, "v100/p100/k80", "microlp"),
    ] {
        let preset = jcts(name, "mode=gavel,", kind, aware);
        let spelled = jcts(name, &format!("type_order={order},{explicit},backend={backend},"), kind, aware);
        assert_eq!(preset, spelled, "{name}");
        assert_ne!(preset, jcts(name, "", kind, aware), "{name}: the preset changes something here");
    }
}

#[test]
fn gavels_blind_gandiva_pairs_jobs_that_cannot_share_and_runs_them_only_as_leftovers() {
    // One v100. A: 7,200 steps at 10/s; C: 600 steps at 5/s; A and C cannot share (no pair
    // entry). Two jobs on one GPU: Gandiva pairs. In mode=gavel (credit 180 s, idle until the
    // round, no recomputation before 1,920 s):
    // - `pairing=blind` (Gavel) pairs A with C; the pair cannot run anywhere, so both jobs have
    //   no allocation and fill the GPU at priority 0, ties by deficit (0) then id: A runs from
    //   0 and keeps winning the tie until it ends at 720 s; C runs from the 720 s round, 120 s.
    // - `pairing=gains` leaves them alone with half the GPU each: A runs first (tie by id); at
    //   360 s A has received 540 of 720 s, C 180: C (0.5 / 0.25) beats A (0.5 / 0.75) and ends
    //   at 480 s, which ends that round (Gavel's round ends with its last job, `short_rounds`);
    //   then A needs 360 s more: 840 s.
    let path = std::env::temp_dir().join(format!("schedlab-gavel-{}-blind.json", std::process::id()));
    let json = r#"{"v100": {"('A', 1)": {"null": 10.0}, "('C', 1)": {"null": 5.0}}}"#;
    std::fs::write(&path, json).unwrap();
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let jobs =
        vec![JobSpec::new(JobId(0), Time::ZERO, 1, "A", 7_200.0), JobSpec::new(JobId(1), Time::ZERO, 1, "C", 600.0)];
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    for (pairing, expected) in [("blind", vec![720.0, 840.0]), ("gains", vec![840.0, 480.0])] {
        let name = format!("gavel-gandiva[mode=gavel,pairing={pairing},throughputs={}]", path.display());
        let mut gavel = build(&name, GavelKind::Gandiva, true);
        let cluster = Arc::new(CompactCluster::parse("v100=1", 1).unwrap().build().unwrap());
        let result = run(cluster, &jobs, &table, &mut gavel, &config).unwrap();
        let jcts: Vec<f64> = result.jobs.iter().map(|job| job.jct.unwrap()).collect();
        assert_eq!(jcts, expected, "pairing={pairing}");
    }
}

#[test]
fn gavels_short_rounds_end_when_the_last_job_has_run_its_whole_steps() {
    // Two v100s. A runs 1 + 2^-10 steps/s: a 360-s round holds floor(360.35...) = 360 whole
    // steps, which take 360 / (1 + 2^-10) = 359.648... s, so with `short_rounds` (Gavel's
    // `_get_job_steps_and_finish_times`) rounds start at 0, 359.648..., 719.297...; B, arriving
    // at 500 s, starts at the third. C (10 steps) ends at 10 s in the first round alone; when
    // every job of a round has finished, the next round starts at once.
    let path = std::env::temp_dir().join(format!("schedlab-gavel-{}-short.json", std::process::id()));
    let json = r#"{"v100": {"('A', 1)": {"null": 1.0009765625}, "('C', 1)": {"null": 1.0}}}"#;
    std::fs::write(&path, json).unwrap();
    let (table, _) = ThroughputTable::load(&path).unwrap();
    let config = SimConfig { check_invariants: true, ..SimConfig::default() };
    let run_jobs = |extra: &str, jobs: &[JobSpec]| {
        let name = format!("gavel-las[idle_until_round=true,{extra}throughputs={}]", path.display());
        let mut gavel = build(&name, GavelKind::MaxMinFairness, true);
        let cluster = Arc::new(CompactCluster::parse("v100=2", 1).unwrap().build().unwrap());
        run(cluster, jobs, &table, &mut gavel, &config).unwrap()
    };
    let jobs = vec![
        JobSpec::new(JobId(0), Time::ZERO, 1, "A", 100_000.0),
        JobSpec::new(JobId(1), Time::from_secs(500.0), 1, "A", 1_000.0),
    ];
    let round = 360.0 / 1.0009765625;
    assert_eq!(run_jobs("short_rounds=true,", &jobs).jobs[1].first_start, Some(2.0 * round));
    assert_eq!(run_jobs("", &jobs).jobs[1].first_start, Some(720.0));
    let jobs = vec![
        JobSpec::new(JobId(0), Time::ZERO, 1, "C", 10.0),
        JobSpec::new(JobId(1), Time::from_secs(5.0), 1, "C", 10.0),
    ];
    assert_eq!(run_jobs("short_rounds=true,", &jobs).jobs[1].first_start, Some(10.0));
    assert_eq!(run_jobs("", &jobs).jobs[1].first_start, Some(360.0));
}
