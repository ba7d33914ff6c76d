//! The checks [`super::run`] makes before it simulates anything.

use crate::{MeasurementWindow, SimConfig, SimError};
use schedlab_cluster::PerfModel;
use schedlab_core::{ClusterSpec, JobSpec, Time};

/// Every check [`run`] makes before it simulates: the settings, the workload against the
/// cluster (ids, arrivals, sizes, pools, required types), the perf model against the cluster's
/// GPU types, the window and the traced jobs. Returns how many jobs the window holds when the
/// run stops after it. `schedlab check` calls this too, so that it fails as `run` would.
pub fn validate(
    cluster: &ClusterSpec,
    workload: &[JobSpec],
    perf: &dyn PerfModel,
    config: &SimConfig,
) -> Result<Option<usize>, SimError> {
    if !(0.0..1.0).contains(&config.fork_overhead) {
        return Err(SimError::Config {
            message: format!("fork_overhead is {}; expected a fraction in [0, 1)", config.fork_overhead),
        });
    }
    validate_workload(cluster, workload)?;
    perf.check_cluster(cluster.gpu_types()).map_err(|error| SimError::Config { message: error.to_string() })?;
    let window_jobs = match (config.stop_after_window, config.window) {
        (false, _) => None,
        (true, MeasurementWindow::Jobs { first, last }) if (first as usize) < workload.len().min(last as usize) => {
            Some(workload.len().min(last as usize) - first as usize)
        }
        (true, window) => {
            return Err(SimError::Config {
                message: format!(
                    "stop_after_window needs a window of jobs that the workload has (jobs first..last); the window is \
                     {window:?} and the workload has {} jobs",
                    workload.len()
                ),
            });
        }
    };
    if let Some(job) = config.trace_jobs.iter().find(|&&job| job as usize >= workload.len()) {
        return Err(SimError::Config {
            message: format!(
                "trace_jobs names job {job}, but the workload has {} jobs (ids 0 to {})",
                workload.len(),
                workload.len().saturating_sub(1)
            ),
        });
    }
    Ok(window_jobs)
}

fn validate_workload(cluster: &ClusterSpec, workload: &[JobSpec]) -> Result<(), SimError> {
    let total = cluster.total_gpus();
    let mut previous = Time::ZERO;
    let mut pool_gpus: std::collections::BTreeMap<(&str, Option<&str>), u32> = std::collections::BTreeMap::new();
    for (index, job) in workload.iter().enumerate() {
        let fail = |message: String| Err(SimError::Workload { job: job.id, message });
        if job.id.index() != index {
            return fail(format!(
                "is at position {index}; job ids must equal their position (sort by arrival and renumber)"
            ));
        }
        if !job.arrival.is_finite() || job.arrival < Time::ZERO {
            // Seconds as a number: `Time`'s display would print "infs" for an infinite one.
            return fail(format!("arrival {} s: expected a finite number of seconds >= 0", job.arrival.secs()));
        }
        if job.arrival < previous {
            return fail(format!(
                "arrives at {} before the previous job ({}); sort the workload by arrival",
                job.arrival, previous
            ));
        }
        previous = job.arrival;
        if job.gpus == 0 {
            return fail("requests 0 GPUs; CPU-only jobs are not simulated (filter them out)".to_string());
        }
        if job.gpus > total {
            return fail(format!("requests {} GPUs but the cluster has only {total}", job.gpus));
        }
        if !(job.work.is_finite() && job.work > 0.0) {
            return fail(format!("work must be a positive number of steps, got {}", job.work));
        }
        if !(job.weight.is_finite() && job.weight >= 0.0) {
            return fail(format!("weight must be a non-negative number, got {}", job.weight));
        }
        if let Some(cpus) = job.cpus
            && !(cpus.is_finite() && cpus >= 0.0)
        {
            return fail(format!("cpus must be a non-negative number, got {cpus}"));
        }
        if let Some(declared) = job.declared_work
            && !(declared.is_finite() && declared > 0.0)
        {
            return fail(format!("declared work must be a positive number of steps, got {declared}"));
        }
        if let Some(overhead) = job.restart_overhead
            && !(overhead.is_finite() && overhead >= 0.0)
        {
            return fail(format!("restart overhead must be a non-negative number of seconds, got {overhead}"));
        }
        if let Some(cpus) = job.ps_cpus
            && !(cpus.is_finite() && cpus >= 0.0)
        {
            return fail(format!("CPUs per parameter server must be a non-negative number, got {cpus}"));
        }
        if let Some(required) = &job.gpu_type {
            let Some(gpu_type) = cluster.gpu_type_id(required) else {
                return fail(format!(
                    "requires GPU type '{required}', which the cluster does not have ({})",
                    cluster.gpu_types().join(", ")
                ));
            };
            let of_type = cluster.gpus_per_type()[gpu_type.index()];
            if job.gpus > of_type {
                return fail(format!("requests {} GPUs of type '{required}', but the cluster has {of_type}", job.gpus));
            }
        }
        if let Some(pool) = &job.pool {
            // Counted once per pool and required type: workloads are long, clusters wide.
            let in_pool = *pool_gpus.entry((pool.as_str(), job.gpu_type.as_deref())).or_insert_with(|| {
                cluster
                    .nodes()
                    .iter()
                    .filter(|node| node.in_group(pool))
                    .filter(|node| {
                        job.gpu_type.as_ref().is_none_or(|required| cluster.gpu_type_name(node.gpu_type) == required)
                    })
                    .map(|node| node.gpus)
                    .sum::<u32>()
            });
            if job.gpus > in_pool {
                return fail(format!(
                    "requests {} GPUs but its pool '{pool}' has {in_pool}{}",
                    job.gpus,
                    job.gpu_type.as_ref().map(|required| format!(" of type '{required}'")).unwrap_or_default()
                ));
            }
        }
    }
    Ok(())
}
