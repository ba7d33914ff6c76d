//! Engine property tests over the whole zoo: random small workloads and clusters, run by every
//! registered policy with every engine invariant checked at every decision. Each run must end
//! with every job finished, or with a clear error (a stall the watchdog names, or an input the
//! resolver refuses); none may panic, hang or break an engine invariant.
//!
//! Each policy runs on its family's workload (the workload and perf model it is written for);
//! a policy of no listed family (a new crate, say) runs the baselines' rigid jobs.

use crate::common::{parse, root};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use schedlab_experiment::runner::run_single;

/// What a random case varies.
#[derive(Clone, Debug)]
struct Case {
    jobs: u32,
    rate_per_hour: f64,
    gpus_per_type: [u32; 3],
    gpus_per_node: u32,
    restart_overhead: f64,
    seed: u64,
    trace_index: u32,
}

fn case() -> impl Strategy<Value = Case> {
    (
        1u32..25,
        prop_oneof![Just(0.3), Just(2.0), Just(30.0)],
        [1u32..4, 0u32..4, 0u32..3],
        prop_oneof![Just(1u32), Just(2), Just(4)],
        prop_oneof![Just(0.0), Just(30.0), Just(400.0)],
        0u64..1_000,
        1u32..9,
    )
        .prop_map(|(jobs, rate_per_hour, nodes, gpus_per_node, restart_overhead, seed, trace_index)| Case {
            jobs,
            rate_per_hour,
            gpus_per_type: nodes.map(|count| count * gpus_per_node * 2),
            gpus_per_node,
            restart_overhead,
            seed,
            trace_index,
        })
}

/// A policy family: which registered names it covers, the data file it needs, and its spec.
struct Family {
    name: &'static str,
    covers: fn(&str) -> bool,
    needs: Option<&'static str>,
    spec: fn(&Case, &str) -> String,
}

fn cluster(case: &Case) -> String {
    let [v100, p100, k80] = case.gpus_per_type;
    let types: Vec<String> = [("v100", v100), ("p100", p100), ("k80", k80)]
        .iter()
        .filter(|(_, gpus)| *gpus > 0)
        .map(|(name, gpus)| format!("{name}: {gpus}"))
        .collect();
    format!("compact: {{gpus: {{{}}}, gpus_per_node: {}}}", types.join(", "), case.gpus_per_node)
}

/// The lines every family's spec ends with: the policy, the seed and the restart overhead
/// (`sim_extra` adds to the `sim` map).
fn run_lines(case: &Case, policy: &str, sim_extra: &str) -> String {
    format!(
        "policies: [\"{policy}\"]\nseeds: [{}]\nsim: {{restart_overhead: {}{sim_extra}}}\n",
        case.seed, case.restart_overhead
    )
}

fn total_gpus(case: &Case) -> u32 {
    case.gpus_per_type.iter().sum()
}

const FAMILIES: &[Family] = &[
    Family {
        name: "gavel and hadar (Gavel's job types and throughputs)",
        covers: |name| name.starts_with("gavel-") || name.starts_with("hadar") || name == "yarn-cs",
        needs: Some("gavel/simulation_throughputs.json"),
        spec: |case, policy| {
            format!(
                "name: prop\nworkload:\n  generator:\n    gavel-continuous: {{jobs: {}, rate_per_hour: {}, multi_gpu: true}}\n  \
                 model: {{gavel-zoo: {{reference: v100}}}}\ncluster:\n  {}\nperf:\n  throughputs: {{path: \
                 gavel/simulation_throughputs.json, reference: v100}}\n{}",
                case.jobs,
                case.rate_per_hour,
                cluster(case),
                run_lines(case, policy, "")
            )
        },
    },
    Family {
        name: "pollux (the artifact's workloads and applications)",
        covers: |name| ["pollux", "optimus-oracle", "pollux-tiresias"].contains(&name),
        needs: Some("pollux/workloads/workload-1.csv"),
        spec: |case, policy| {
            // The GA reduced so that a debug build runs it in seconds.
            let policy = if policy == "pollux" { "pollux[generations=4,population=10]" } else { policy };
            format!(
                "name: prop\nworkload:\n  trace: {{format: pollux, path: pollux/workloads/workload-{}.csv}}\n  \
                 transforms: [{{first: {}}}]\n  model: applications\n  origin: trace_start\ncluster:\n  compact: \
                 {{gpus: {{gpu: {}}}, gpus_per_node: {}}}\nperf: {{pollux: {{}}}}\n{}",
                case.trace_index,
                case.jobs,
                total_gpus(case).max(8),
                case.gpus_per_node,
                run_lines(case, policy, ", overhead_on_first_start: true")
            )
        },
    },
    Family {
        name: "dl2 (its generator, speeds and parameter servers)",
        covers: |name| name.starts_with("dl2"),
        needs: Some("dl2/config_speed.txt"),
        spec: |case, policy| {
            format!(
                "name: prop\nworkload:\n  generator: {{dl2: {{jobs: {}, max_arrivals_per_slot: 3}}}}\ncluster:\n  \
                 compact: {{gpus: {{gpu: {}}}, gpus_per_node: {}, cpus_per_node: 8}}\nperf: {{dl2: {{}}}}\n{}",
                case.jobs,
                total_gpus(case) * 4,
                case.gpus_per_node,
                run_lines(case, policy, "")
            )
        },
    },
    Family {
        name: "rltune (Philly episodes on its two-pool cluster)",
        covers: |name| name.starts_with("rltune"),
        needs: Some("philly/philly-pollux.csv"),
        spec: |case, policy| {
            format!(
                "name: prop\nworkload:\n  trace: {{format: philly-pollux, path: philly/philly-pollux.csv}}\n  \
                 transforms: [dedup, sort, {{window: {{from: \"2017-10-07\", to: \"2017-12-01\"}}}}, {{episode: \
                 {{jobs: {}}}}}]\n  model: rigid\ncluster:\n  nodes:\n    - {{gpu_type: p100, gpus: 2, count: {}}}\n    \
                 - {{gpu_type: p100, gpus: 8, count: {}}}\nperf: rigid\nsweep:\n  \
                 episode: [{}]\n{}",
                case.jobs.max(2),
                case.gpus_per_type[0] + 1,
                case.gpus_per_type[1] / 2 + 4,
                case.trace_index * 7,
                run_lines(case, policy, "")
            )
        },
    },
    Family {
        name: "baselines (rigid Gavel-style jobs; also any policy of no other family)",
        covers: |_| true,
        needs: None,
        spec: |case, policy| {
            format!(
                "name: prop\nworkload:\n  generator:\n    gavel-continuous: {{jobs: {}, rate_per_hour: {}, multi_gpu: \
                 true}}\ncluster:\n  {}\n{}",
                case.jobs,
                case.rate_per_hour,
                cluster(case),
                run_lines(case, policy, "")
            )
        },
    },
];

fn family(policy: &str) -> &'static Family {
    FAMILIES.iter().find(|family| (family.covers)(policy)).expect("the last family covers every policy")
}

/// Runs `policy` on the case; Err only when a property breaks.
fn check(policy: &str, case: &Case) -> Result<(), TestCaseError> {
    let family = family(policy);
    if let Some(file) = family.needs {
        schedlab_core::datadir::test_data_file(&root(), file);
    }
    check_spec(policy, &(family.spec)(case, policy))
}

/// Helios jobs, with their CPU requests, drawn into two VCs and run by one policy over both
/// (`vc_pools`) on nodes that model CPUs: the engine refuses any start outside a job's VC or
/// beyond a node's CPUs, so a policy that places without the job's pool or CPUs fails here.
fn pools_spec(case: &Case, policy: &str) -> String {
    format!(
        "name: prop-pools\nworkload:\n  trace: {{format: helios-dirlab, path: helios/helios-dirlab-15k.csv}}\n  \
         transforms:\n    - {{assign: {{field: vc, by: user, weights: {{vc1: 3, vc2: 1}}, seed: {}}}}}\n    - \
         {{filter: {{min_gpus: 1, max_gpus: 8}}}}\n    - {{first: {}}}\n  model: rigid\ncluster:\n  groups:\n    \
         nodes:\n      - {{gpu_type: v100, gpus: 8, count: 2, group: vc1, cpus: {}}}\n      - {{gpu_type: v100, \
         gpus: 8, count: 1, group: vc2, cpus: {}}}\n    partition: vc_pools\n{}",
        case.seed,
        case.jobs * 4,
        case.gpus_per_node * 32,
        case.gpus_per_node * 32,
        run_lines(case, policy, "")
    )
}

/// Runs `policy` on `spec`; Err only when a property breaks.
fn check_spec(policy: &str, spec: &str) -> Result<(), TestCaseError> {
    let spec = spec.to_string();
    let experiment = match parse(&spec) {
        Ok(experiment) => experiment,
        // A case the resolver refuses (a job larger than the cluster, say) must say why.
        Err(error) => {
            let message = error.to_string();
            prop_assert!(message.contains("expected") || message.contains("larger"), "{policy}: {message}\n{spec}");
            return Ok(());
        }
    };
    for plan in experiment.runs() {
        match run_single(&experiment, &plan, true) {
            Ok(outcome) => prop_assert_eq!(
                outcome.metrics.jobs_finished,
                outcome.metrics.jobs_measured,
                "{}: unfinished jobs without an error\n{}",
                policy,
                spec
            ),
            Err(error) => {
                let message = error.to_string();
                prop_assert!(!message.contains("invariant"), "{policy} broke an engine invariant: {message}\n{spec}");
                // The watchdogs' stalls, and jobs larger than the cluster (a random cluster may be
                // too small for the workload's largest job).
                let named = ["stalled", "expected", "but the cluster has only"];
                prop_assert!(
                    named.iter().any(|cause| message.contains(cause)),
                    "{policy}: an error that names no cause: {message}\n{spec}"
                );
            }
        }
    }
    Ok(())
}

/// Three cases from a fixed seed, so that CI runs the same cases every time; a campaign sets
/// `PROPTEST_RNG_SEED` and `PROPTEST_CASES` in the environment, which take precedence.
fn config() -> ProptestConfig {
    let defaults = ProptestConfig::default();
    let mut config = ProptestConfig { cases: 3, failure_persistence: None, rng_seed: RngSeed::Fixed(2026), ..defaults };
    if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
        config.rng_seed = defaults.rng_seed;
    }
    if std::env::var_os("PROPTEST_CASES").is_some() {
        config.cases = defaults.cases;
    }
    config
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_policy_finishes_every_job_or_says_why(case in case()) {
        for entry in schedlab_zoo::entries().filter(|entry| family(entry.name).needs.is_none()) {
            check(entry.name, &case)?;
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// The policies whose workloads come from real data (their family's `needs`).
    #[test]
    #[cfg_attr(schedlab_no_data, ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)")]
    fn every_policy_on_real_data_finishes_every_job_or_says_why(case in case()) {
        for entry in schedlab_zoo::entries().filter(|entry| family(entry.name).needs.is_some()) {
            check(entry.name, &case)?;
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    #[cfg_attr(schedlab_no_data, ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)")]
    fn every_baseline_keeps_jobs_in_their_pools_within_cpus(case in case()) {
        schedlab_core::datadir::test_data_file(&root(), "helios/helios-dirlab-15k.csv");
        let spec = pools_spec(&case, "fifo");
        prop_assert!(parse(&spec).is_ok(), "the pools spec itself must resolve: {:?}\n{}", parse(&spec).err(), spec);
        // The policies that run generic rigid jobs (the other families need their own workloads).
        for entry in schedlab_zoo::entries().filter(|entry| family(entry.name).needs.is_none()) {
            check_spec(entry.name, &pools_spec(&case, entry.name))?;
        }
    }
}

#[test]
fn every_family_covers_a_registered_policy() {
    for family in FAMILIES {
        assert!(schedlab_zoo::entries().any(|entry| (family.covers)(entry.name)), "{} covers nothing", family.name);
    }
}
