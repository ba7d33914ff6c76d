//! The proof-backed bounds of the workloads that claims with `bound: relaxation` read: each
//! workload built as its runs build it, then bounded by `schedlab_bounds`.

use crate::ExperimentError;
use crate::resolve::Experiment;
use std::collections::BTreeMap;

/// The bounds of each workload, by workload key (`RunPlan::workload_key`).
pub type Relaxations = BTreeMap<String, schedlab_bounds::Bounds>;

/// The bounds of every workload of the experiment, when a claim asks for them (else none).
///
/// # Errors
/// A workload that cannot be built, a cluster split into per-VC runs (which the relaxations do
/// not model), or a job no GPU type can run, named by its workload.
pub fn relaxations(experiment: &Experiment) -> Result<Relaxations, ExperimentError> {
    let mut bounds = Relaxations::new();
    add_relaxations(experiment, &experiment.runs(), &mut bounds)?;
    Ok(bounds)
}

/// Adds to `bounds` the bounds of the workloads of `plans` it does not hold yet, when a claim
/// asks for them (else nothing).
///
/// # Errors
/// As [`relaxations`].
pub fn add_relaxations(
    experiment: &Experiment,
    plans: &[crate::plan::RunPlan],
    bounds: &mut Relaxations,
) -> Result<(), ExperimentError> {
    if !experiment.report.claims.iter().any(|claim| claim.bound) {
        return Ok(());
    }
    let sim = &experiment.inputs.sim;
    let overhead = sim.overhead_on_first_start.then_some(sim.restart_overhead);
    for plan in plans {
        if bounds.contains_key(&plan.workload_key) {
            continue;
        }
        let fail = |message: String| ExperimentError::Run {
            key: plan.workload_key.clone(),
            message: format!("bound: relaxation: {message}"),
        };
        let workload = experiment.setup.workload(&experiment.inputs.workload, plan)?;
        if workload.groups.is_some() {
            return Err(fail("a cluster split into one run per VC (partition: per_vc) is not modelled".into()));
        }
        let instance = schedlab_bounds::instance(
            &workload.jobs,
            &experiment.setup.cluster,
            experiment.setup.perf.as_ref(),
            overhead,
        )
        .map_err(fail)?;
        bounds.insert(plan.workload_key.clone(), schedlab_bounds::bounds(&instance));
    }
    Ok(())
}
