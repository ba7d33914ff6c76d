//! The policy registry: turns a name such as `tiresias[starvation=2]` into a boxed
//! [`Policy`].
//!
//! Every policy crate adds one line per policy to [`REGISTRY`]. Unknown names and unknown
//! parameters are errors that list what is accepted.

#![deny(missing_docs)]

use schedlab_core::{ParamError, Policy, PolicyParams};
use schedlab_policies_basic as basic;
use schedlab_policies_gavel as gavel;
use schedlab_policies_hadar as hadar;

/// Builds a policy from its parsed name and parameters.
pub type Constructor = fn(&PolicyParams) -> Result<Box<dyn Policy>, ParamError>;

/// One registered policy.
#[derive(Clone, Copy, Debug)]
pub struct PolicyEntry {
    /// The name used in specs and on the command line.
    pub name: &'static str,
    /// One line: what it does.
    pub description: &'static str,
    /// True if and only if the policy uses oracle knowledge (true job durations).
    pub oracle: bool,
    /// Parameters it accepts, as `key=default` text.
    pub params: &'static str,
    /// The constructor.
    pub build: Constructor,
}

fn boxed<P: Policy + 'static>(result: Result<P, ParamError>) -> Result<Box<dyn Policy>, ParamError> {
    result.map(|policy| Box::new(policy) as Box<dyn Policy>)
}

const PLACEMENT: &str = "placement=consolidated|spread, same_type=true";

/// Every registered policy, in the order `schedlab policies` lists them.
pub const REGISTRY: &[PolicyEntry] = &[
    PolicyEntry {
        name: "fifo",
        description: "first come, first served; non-preemptive; optional backfill",
        oracle: false,
        params: "backfill=false",
        build: |params| boxed(basic::Fifo::from_params(params)),
    },
    PolicyEntry {
        name: "sjf",
        description: "shortest job first by true duration; non-preemptive (ORACLE)",
        oracle: true,
        params: "backfill=false, by=time|gpu_time",
        build: |params| boxed(basic::Sjf::from_params(params)),
    },
    PolicyEntry {
        name: "srtf",
        description: "shortest remaining time first by true remaining work; preemptive (ORACLE)",
        oracle: true,
        params: "by=time|gpu_time",
        build: |params| boxed(basic::Srtf::from_params(params)),
    },
    PolicyEntry {
        name: "las",
        description: "least attained service first; preemptive, re-evaluated every quantum",
        oracle: false,
        params: "quantum=360, service=gpu_time|time",
        build: |params| boxed(basic::Las::from_params(params)),
    },
    PolicyEntry {
        name: "tiresias",
        description: "Tiresias discretised 2D-LAS: priority queues by attained GPU-time, starvation promotion",
        oracle: false,
        params: "thresholds=3250:7200, starvation=0, service=gpu_time|time",
        build: |params| boxed(basic::Tiresias::from_params(params)),
    },
    PolicyEntry {
        name: "drf",
        description: "dominant resource fairness across users over GPUs and CPUs; non-preemptive",
        oracle: false,
        params: "",
        build: |params| boxed(basic::Drf::from_params(params)),
    },
    PolicyEntry {
        name: "gandiva",
        description: "Gandiva-style round-robin time slicing when jobs outnumber GPUs",
        oracle: false,
        params: "quantum=60",
        build: |params| boxed(basic::Gandiva::from_params(params)),
    },
    PolicyEntry {
        name: "yarn-cs",
        description: "YARN capacity scheduler: FIFO queues (by VC, else user) with equal guaranteed shares, elastic up to max_share; non-preemptive",
        oracle: false,
        params: "max_share=1",
        build: |params| boxed(basic::YarnCapacity::from_params(params)),
    },
    PolicyEntry {
        name: "gavel-las",
        description: "Gavel max-min fairness (LAS): heterogeneity-aware LP, 360 s rounds",
        oracle: false,
        params: "throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::MaxMinFairness, true)),
    },
    PolicyEntry {
        name: "gavel-las-agnostic",
        description: "Gavel max-min fairness, heterogeneity-agnostic twin (every usable throughput taken as 1)",
        oracle: false,
        params: "throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::MaxMinFairness, false)),
    },
    PolicyEntry {
        name: "gavel-las-packed",
        description: "Gavel max-min fairness with space sharing: pairs of jobs share GPUs at measured co-located rates",
        oracle: false,
        params: "throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::MaxMinFairnessPacked, true)),
    },
    PolicyEntry {
        name: "gavel-fifo",
        description: "Gavel FIFO, heterogeneity-aware: jobs in arrival order, each on its fastest type with room",
        oracle: false,
        params: "throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, type_order=none, idle_until_round=false",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::Fifo, true)),
    },
    PolicyEntry {
        name: "gavel-fifo-packed",
        description: "Gavel FIFO with space sharing: waiting jobs join a running job when the pair gains enough",
        oracle: false,
        params: "packing_threshold=1.5, throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, type_order=none, idle_until_round=false",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::FifoPacked, true)),
    },
    PolicyEntry {
        name: "gavel-fifo-agnostic",
        description: "Gavel FIFO, heterogeneity-agnostic: a random type with room, kept until the job ends",
        oracle: false,
        params: "seed=0, throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, type_order=none, idle_until_round=false",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::Fifo, false)),
    },
    PolicyEntry {
        name: "gavel-gandiva",
        description: "Gandiva as Gavel simulates it: equal shares, random pairing of jobs when the cluster is full",
        oracle: false,
        params: "pairing=gains, seed=0, throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::Gandiva, true)),
    },
    PolicyEntry {
        name: "gavel-ftf",
        description: "Gavel finish-time fairness (Themis): minimise the largest finish-time ratio (iterated LPs)",
        oracle: true,
        params: "throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp, tolerance=0.0001, max_iterations=50",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::FinishTimeFairness, true)),
    },
    PolicyEntry {
        name: "gavel-ftf-agnostic",
        description: "Gavel finish-time fairness, heterogeneity-agnostic twin",
        oracle: true,
        params: "throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp, tolerance=0.0001, max_iterations=50",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::FinishTimeFairness, false)),
    },
    PolicyEntry {
        name: "gavel-ftf-packed",
        description: "Gavel finish-time fairness with space sharing: pairs of jobs share GPUs at measured co-located rates",
        oracle: true,
        params: "throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp, tolerance=0.0001, max_iterations=50",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::FinishTimeFairnessPacked, true)),
    },
    PolicyEntry {
        name: "gavel-makespan",
        description: "Gavel makespan: the shortest horizon in which every active job can finish (one LP)",
        oracle: true,
        params: "throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::Makespan, true)),
    },
    PolicyEntry {
        name: "gavel-makespan-agnostic",
        description: "Gavel makespan, heterogeneity-agnostic twin",
        oracle: true,
        params: "throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::Makespan, false)),
    },
    PolicyEntry {
        name: "gavel-makespan-packed",
        description: "Gavel makespan with space sharing: pairs of jobs share GPUs when that shortens the horizon",
        oracle: true,
        params: "throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::MakespanPacked, true)),
    },
    PolicyEntry {
        name: "gavel-max-throughput",
        description: "Gavel total throughput: maximise the sum of job throughputs (steps/s)",
        oracle: false,
        params: "slo_factor=0, throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::MaxThroughput, true)),
    },
    PolicyEntry {
        name: "gavel-max-throughput-packed",
        description: "Gavel total throughput with space sharing: pairs of jobs share GPUs when that does more work (optional SLOs)",
        oracle: false,
        params: "slo_factor=0, throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::MaxThroughputPacked, true)),
    },
    PolicyEntry {
        name: "gavel-cost",
        description: "Gavel throughput per dollar: maximise the sum of throughput / GPU price",
        oracle: false,
        params: "slo_factor=0, costs=v100:2.48/p100:1.46/k80:0.45, throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::MinCost, true)),
    },
    PolicyEntry {
        name: "gavel-cost-packed",
        description: "Gavel throughput per dollar with space sharing (and optional SLOs)",
        oracle: false,
        params: "slo_factor=0, costs=v100:2.48/p100:1.46/k80:0.45, throughputs=gavel/simulation_throughputs.json, round=360, mode=schedlab, min_interval=0, reset_credit=0, tie_break=id, fill_unallocated=false, type_order=none, idle_until_round=false, backend=microlp",
        build: |params| boxed(gavel::Gavel::from_params(params, gavel::GavelKind::MinCostPacked, true)),
    },
    PolicyEntry {
        name: "hadar",
        description: "Hadar: task-level heterogeneity-aware rounds; jobs bought greedily at exponential per-node GPU prices (online primal-dual)",
        oracle: true,
        params: "progress=sum, task_level=true, utility_exponent=1, low_factor=0.5, high_factor=1, throughputs=gavel/simulation_throughputs.json, round=360, idle_until_round=false",
        build: |params| boxed(hadar::Hadar::from_params(params, false)),
    },
    PolicyEntry {
        name: "hadare",
        description: "HadarE: Hadar, then idle GPUs get copies of jobs (one per node), progress summed less aggregation",
        oracle: true,
        params: "max_copies=0, progress=sum, task_level=true, utility_exponent=1, low_factor=0.5, high_factor=1, throughputs=gavel/simulation_throughputs.json, round=360, idle_until_round=false",
        build: |params| boxed(hadar::Hadar::from_params(params, true)),
    },
];

/// Returns the parameters every policy also accepts (shared placement).
pub fn common_params() -> &'static str {
    PLACEMENT
}

/// Occurs when a policy name cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ZooError {
    /// Occurs when no policy has this name.
    #[error("unknown policy '{name}'; known policies: {known}")]
    Unknown {
        /// The name given.
        name: String,
        /// Every registered name, comma-separated.
        known: String,
    },
    /// Occurs when the name or a parameter is malformed or unknown.
    #[error(transparent)]
    Param(#[from] ParamError),
}

/// Returns the entry registered under `name`, if any.
pub fn find(name: &str) -> Option<&'static PolicyEntry> {
    REGISTRY.iter().find(|entry| entry.name == name)
}

/// Builds the policy written as `text`, e.g. `fifo[backfill=true]`.
pub fn build(text: &str) -> Result<Box<dyn Policy>, ZooError> {
    let params: PolicyParams = text.parse()?;
    build_params(&params)
}

/// Builds a policy from already parsed parameters.
pub fn build_params(params: &PolicyParams) -> Result<Box<dyn Policy>, ZooError> {
    let entry = find(&params.name).ok_or_else(|| ZooError::Unknown {
        name: params.name.clone(),
        known: REGISTRY.iter().map(|entry| entry.name).collect::<Vec<_>>().join(", "),
    })?;
    Ok((entry.build)(params)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_builds_with_defaults_and_names_round_trip() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let table = schedlab_core::datadir::test_data_file(&root, "gavel/simulation_throughputs.json");
        for entry in REGISTRY {
            // Gavel's policies read the measured throughputs: point them at the data file.
            let text = match (entry.name.starts_with("gavel"), &table) {
                (false, _) => entry.name.to_string(),
                (true, Some(path)) => format!("{}[throughputs={}]", entry.name, path.display()),
                (true, None) => continue,
            };
            let policy = build(&text).unwrap();
            assert_eq!(policy.name(), text);
            assert_eq!(policy.knowledge() == schedlab_core::Knowledge::Oracle, entry.oracle, "{}", entry.name);
        }
        let policy = build("tiresias[starvation=2,thresholds=100:200]").unwrap();
        assert_eq!(policy.name(), "tiresias[thresholds=100:200,starvation=2]");
    }

    fn error(text: &str) -> ZooError {
        build(text).err().expect("should fail")
    }

    #[test]
    fn errors_list_what_is_accepted() {
        let err = error("fifo2");
        assert!(err.to_string().starts_with("unknown policy 'fifo2'; known policies: fifo, sjf, srtf"), "{err}");
        let err = error("las[quantum=-1]");
        assert!(err.to_string().contains("expected a non-negative number"), "{err}");
        let err = error("fifo[backfil=true]");
        assert!(err.to_string().contains("accepted parameters: backfill, placement, same_type"), "{err}");
    }
}
