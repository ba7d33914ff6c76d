//! `schedlab simulate`: one run of a one-run experiment built from flags, its metrics printed.
//!
//! The flags become an experiment spec (a Gavel-style generator workload, the cluster, the perf
//! model, one policy and seed), which is resolved and run exactly as `schedlab run` would: the
//! same sources build the cluster and perf model, and the same data directory serves policies.

use crate::flags::{PerfChoice, SimulateArgs};
use anyhow::{Context as _, Result, bail};
use schedlab_cluster::{CompactCluster, MixedTypes, NodeEntry};
use schedlab_core::{DataDir, PolicyParams};
use schedlab_experiment::prepare::SpecSource;
use schedlab_experiment::spec::{ClusterSection, ExperimentSpec, Partition, PerfSection, PolicyName, SimSection};
use schedlab_experiment::store::RunOutcome;
use schedlab_experiment::{Experiment, run_single};
use schedlab_sim::MeasurementWindow;
use schedlab_trace::spec::{GeneratorSpec, WorkloadSpec};
use schedlab_trace::workload::Model;
use std::path::PathBuf;

/// The cluster flag as a spec section: `TYPE=GPUS,...` keeps the types in the order given.
fn cluster_section(text: &str, gpus_per_node: u32) -> Result<ClusterSection> {
    let (name, option) = text.split_once(':').map_or((text, None), |(name, option)| (name, Some(option)));
    if option.is_some_and(|option| {
        option.trim().is_empty() || !option.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    }) {
        // The caller names the flag's value: `cluster 'philly:': after ':' ...`.
        bail!("after ':' give a GPU type name of letters, digits, '-' or '_' (e.g. philly:v100)");
    }
    Ok(match name {
        "philly" => ClusterSection::PhillyVc {
            path: PathBuf::from("philly/philly_vc.csv"),
            gpu_type: option.unwrap_or("gpu").to_string(),
            partition: Partition::Pooled,
        },
        "pai" => ClusterSection::Pai { path: PathBuf::from("alibaba/pai-v2020/pai_machine_spec.csv") },
        "openb" => ClusterSection::Openb { path: PathBuf::from("alibaba/openb-v2023/openb_node_list_gpu_node.csv") },
        _ => {
            let cluster = CompactCluster::parse(text, gpus_per_node)?.build()?;
            let nodes = cluster
                .nodes()
                .iter()
                .map(|node| NodeEntry {
                    name: Some(node.name.clone()),
                    gpu_type: (node.gpus > 0).then(|| cluster.gpu_types()[node.gpu_type.index()].clone()),
                    gpus: node.gpus,
                    cpus: node.cpus,
                    mem_gib: node.mem_gib,
                    group: node.group.clone(),
                    count: None,
                })
                .collect();
            ClusterSection::Nodes(nodes)
        }
    })
}

fn parse_window(text: &str) -> Result<MeasurementWindow> {
    let Some((first, last)) = text.split_once("..") else {
        bail!("--window '{text}': expected FIRST..LAST job indices, e.g. 100..200");
    };
    let parse = |part: &str| {
        part.trim().parse::<u32>().with_context(|| format!("--window '{text}': '{part}' is not a job index"))
    };
    let (first, last) = (parse(first)?, parse(last)?);
    if first >= last {
        bail!("--window '{text}': FIRST must be smaller than LAST");
    }
    Ok(MeasurementWindow::Jobs { first, last })
}

/// The flags as a one-run experiment spec.
fn spec(args: &SimulateArgs) -> Result<ExperimentSpec> {
    let policy: PolicyParams = args.policy.parse()?;
    schedlab_zoo::describe(&policy)?;
    let (perf, model) = match args.perf {
        PerfChoice::Rigid => (PerfSection::Rigid, Model::Rigid),
        PerfChoice::Gavel => (
            PerfSection::Throughputs {
                path: args.throughputs.clone().unwrap_or_else(|| PathBuf::from("gavel/simulation_throughputs.json")),
                reference: args.reference.clone(),
                mixed_types: MixedTypes::default(),
            },
            Model::GavelZoo { reference: args.reference.clone(), seed: 0 },
        ),
    };
    Ok(ExperimentSpec {
        name: "simulate".into(),
        description: String::new(),
        workload: WorkloadSpec {
            trace: None,
            generator: Some(GeneratorSpec::GavelContinuous {
                jobs: args.jobs,
                rate_per_hour: args.rate,
                multi_gpu: !args.single_gpu,
                multi_priority: false,
                seed: 0,
                rng: Default::default(),
            }),
            transforms: Vec::new(),
            model,
            fractional_gpus: Default::default(),
            declared_work: None,
            required_gpu_type: false,
            origin: Default::default(),
        },
        cluster: cluster_section(&args.cluster, args.gpus_per_node)
            .with_context(|| format!("cluster '{}'", args.cluster))?,
        perf,
        policies: vec![PolicyName(policy)],
        seeds: schedlab_experiment::spec::Seeds::List(vec![args.seed]),
        sweep: Default::default(),
        sim: SimSection {
            restart_overhead: args.restart_overhead,
            window: args.window.as_deref().map(parse_window).transpose()?.unwrap_or_default(),
            max_time: args.max_time,
            ..SimSection::default()
        },
        tables: Vec::new(),
        plots: Vec::new(),
        claims: Vec::new(),
        fairness_reference: None,
        population: Default::default(),
        also_in: Vec::new(),
    })
}

/// `schedlab simulate`.
pub fn simulate(args: &SimulateArgs) -> Result<()> {
    let source = SpecSource { origin: "simulate flags".into(), text: String::new() };
    let experiment = Experiment::resolve(spec(args)?, &DataDir::locate(), source)?;
    let plan = experiment.runs().remove(0);
    let outcome = run_single(&experiment, &plan, args.check)?;
    if args.json {
        let output = serde_json::json!({
            "policy": outcome.policy,
            "gpu_types": experiment.setup.cluster.gpu_types(),
            "metrics": outcome.metrics,
            "wall_time_s": outcome.wall_time_s,
            "solver": outcome.solver,
        });
        println!("{}", serde_json::to_string_pretty(&output)?);
    } else {
        print_summary(args, &experiment, &outcome);
    }
    Ok(())
}

fn hours(seconds: f64) -> String {
    format!("{:.2} h", seconds / 3600.0)
}

fn print_summary(args: &SimulateArgs, experiment: &Experiment, result: &RunOutcome) {
    let (cluster, perf) = (&experiment.setup.cluster, &experiment.setup.perf);
    let gpu_types = cluster.gpu_types();
    let metrics = &result.metrics;
    let per_type: Vec<String> =
        cluster.gpu_types().iter().zip(cluster.gpus_per_type()).map(|(name, gpus)| format!("{name} {gpus}")).collect();
    let utilization: Vec<String> = gpu_types
        .iter()
        .zip(&metrics.utilization_per_type)
        .map(|(name, value)| format!("{name} {:.1}%", value * 100.0))
        .collect();
    let seconds = result.wall_time_s;
    let rows = [
        ("policy", result.policy.clone()),
        (
            "cluster",
            format!("{} GPUs on {} nodes ({})", cluster.total_gpus(), cluster.nodes().len(), per_type.join(", ")),
        ),
        (
            "workload",
            format!(
                "{} jobs, Gavel-style generator, {} jobs/h, {}, seed {} (an experiment named 'simulate' derives the draw from it)",
                args.jobs,
                args.rate,
                if args.single_gpu { "single-GPU" } else { "multi-GPU" },
                args.seed
            ),
        ),
        ("perf model", perf.describe()),
        ("jobs measured", format!("{} ({} finished)", metrics.jobs_measured, metrics.jobs_finished)),
        ("avg JCT", hours(metrics.avg_jct)),
        ("median JCT", hours(metrics.median_jct)),
        ("p95 / p99 JCT", format!("{} / {}", hours(metrics.p95_jct), hours(metrics.p99_jct))),
        ("avg queueing delay", hours(metrics.avg_queueing_delay)),
        ("avg waiting time", hours(metrics.avg_waiting_time)),
        ("makespan", hours(metrics.makespan)),
        ("utilisation", format!("{:.1}% ({})", metrics.utilization * 100.0, utilization.join(", "))),
        ("restarts", metrics.restarts.to_string()),
        ("events", format!("{} ({} decisions)", metrics.events, metrics.decisions)),
        (
            "wall time",
            format!("{:.1} ms ({:.0} events/s)", seconds * 1000.0, metrics.events as f64 / seconds.max(1e-9)),
        ),
    ];
    for (label, value) in rows {
        println!("{label:<20}{value}");
    }
    if let Some(solver) = &result.solver {
        println!(
            "{:<20}{} solves with {}, largest {} variables x {} constraints, {:.1} ms building + {:.1} ms solving",
            "LP solver",
            solver.solves,
            solver.backend,
            solver.max_variables,
            solver.max_constraints,
            solver.build_seconds * 1000.0,
            solver.solve_seconds * 1000.0
        );
    }
}

#[cfg(test)]
mod tests {
    use super::cluster_section;

    #[test]
    fn a_cluster_flag_with_an_empty_or_odd_type_name_is_refused() {
        for text in ["philly:", "philly: ", "philly:a b"] {
            let message = cluster_section(text, 8).unwrap_err().to_string();
            assert!(message.contains("after ':' give a GPU type name"), "{text}: {message}");
        }
        assert!(cluster_section("philly:v100", 8).is_ok());
    }
}
