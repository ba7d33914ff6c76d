//! Everything a run needs that does not depend on the policy: cluster, perf model, workload.

use crate::ExperimentError;
use crate::axis::Axis;
use crate::plan::{RunPlan, SweepPoint};
use crate::spec::{ClusterSection, ExperimentSpec, Partition, PerfSection};
use schedlab_cluster::{CompactCluster, PerfModel, ThroughputTable, TraceDuration, build};
use schedlab_core::{ClusterSpec, DataDir, JobId, JobSpec, Node, PolicyEnv};
use schedlab_dl2_speed::Dl2Speed;
use schedlab_goodput::PolluxPerf;
use schedlab_trace::Transform;
use schedlab_trace::spec::{GeneratorRng, GeneratorSpec, TraceCache, WorkloadSpec};
use schedlab_trace::synthetic::JobTemplate;
use schedlab_trace::workload::{JobTypes, Model};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The spec's text and where it came from, to point errors at lines.
#[derive(Clone, Debug, Default)]
pub struct SpecSource {
    /// File name for messages.
    pub origin: String,
    /// The YAML text.
    pub text: String,
}

impl SpecSource {
    /// Returns `origin:LINE` of the first line mentioning `needle`, or just `origin`.
    pub fn locate(&self, needle: &str) -> String {
        match self.text.lines().position(|line| line.contains(needle)) {
            Some(index) => format!("{}:{}", self.origin, index + 1),
            None => self.origin.clone(),
        }
    }

    /// As [`SpecSource::locate`], the first line containing `needle` at or after the line that
    /// opens the top-level section `section` (`sweep:` in YAML, `"sweep":` in a dict's JSON).
    pub fn locate_after(&self, section: &str, needle: &str) -> String {
        let opens = |line: &str| {
            let line = line.trim_start();
            line.starts_with(&format!("{section}:")) || line.starts_with(&format!("\"{section}\":"))
        };
        let start = self.text.lines().position(opens).unwrap_or(0);
        match self.text.lines().skip(start).position(|line| line.contains(needle)) {
            Some(index) => format!("{}:{}", self.origin, start + index + 1),
            None => self.locate(needle),
        }
    }
}

/// Resolves a data file, or explains where it was looked for and where to get it, pointing at
/// the spec line that names it.
pub fn data_file(data: &DataDir, relative: &Path, source: &SpecSource) -> Result<PathBuf, ExperimentError> {
    data.file(relative).map_err(|error| {
        let message = format!("{}: {}", source.locate(&relative.display().to_string()), error.message);
        if relative.is_absolute() {
            ExperimentError::Data(message)
        } else {
            ExperimentError::MissingData { path: error.path, message }
        }
    })
}

/// Every file in a data folder, recursively, sorted: (name relative to the data directory,
/// path). A folder a policy reads is hashed file by file, like a single file.
pub fn folder_files(
    data: &DataDir,
    folder: &str,
    source: &SpecSource,
) -> Result<Vec<(String, PathBuf)>, ExperimentError> {
    let root = match data.root() {
        Some(root) if !Path::new(folder).is_absolute() => root.join(folder),
        _ => PathBuf::from(folder),
    };
    if !root.is_dir() {
        let message = format!(
            "{}: data folder '{folder}' not found{}",
            source.locate(folder),
            data.root().map(|dir| format!(" in the data directory '{}'", dir.display())).unwrap_or_default()
        );
        return Err(if Path::new(folder).is_absolute() {
            ExperimentError::Data(message)
        } else {
            ExperimentError::MissingData { path: format!("{}/", folder.trim_end_matches('/')), message }
        });
    }
    let mut files = Vec::new();
    let mut pending = vec![(root, folder.trim_end_matches('/').to_string())];
    while let Some((dir, name)) = pending.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(|error| ExperimentError::Data(format!("{}: {error}", dir.display())))?;
        for entry in entries {
            let entry = entry.map_err(|error| ExperimentError::Data(format!("{}: {error}", dir.display())))?;
            let child = format!("{name}/{}", entry.file_name().to_string_lossy());
            if entry.path().is_dir() {
                pending.push((entry.path(), child));
            } else {
                files.push((child, entry.path()));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// One VC's share of a per-VC partitioned run.
#[derive(Clone, Debug)]
pub struct Group {
    /// The VC.
    pub name: String,
    /// The VC's nodes.
    pub cluster: Arc<ClusterSpec>,
    /// The VC's jobs, renumbered from 0.
    pub jobs: Vec<JobSpec>,
    /// Each job's id in the whole workload.
    pub original_ids: Vec<JobId>,
}

/// A workload ready to simulate.
#[derive(Clone, Debug)]
pub struct PreparedWorkload {
    /// All jobs, ids `0..n`.
    pub jobs: Vec<JobSpec>,
    /// Per-VC groups when the cluster is partitioned.
    pub groups: Option<Vec<Group>>,
    /// How the workload was made, for the manifest.
    pub report: Vec<String>,
}

/// The parts shared by every run of an experiment.
pub struct Setup {
    /// The whole cluster.
    pub cluster: Arc<ClusterSpec>,
    /// Ground truth.
    pub perf: Arc<dyn PerfModel>,
    /// What the perf model tells workloads about job types: a throughput table's templates,
    /// Pollux's work per application.
    pub job_types: JobTypes,
    /// Whether jobs run per VC.
    pub partition: Partition,
    /// Data files read, relative name and path, for the manifest's hashes.
    pub data_files: Vec<(String, PathBuf)>,
    /// Data files each policy reads (by canonical policy name): name as given and path.
    pub policy_files: BTreeMap<String, Vec<(String, PathBuf)>>,
    /// The full name of each policy whose parameters record more than the spec gives (built-in
    /// weights pinned by digest, say): part of its runs' identity and of the manifest.
    pub pinned_names: BTreeMap<String, String>,
    /// What policies are built with: the data directory and the tables they share.
    pub env: PolicyEnv,
    /// Traces loaded for earlier workloads, after their shared leading transforms.
    pub traces: TraceCache,
}

fn compact(
    gpus: &BTreeMap<String, u32>,
    gpus_per_node: u32,
    cpus_per_node: Option<f64>,
) -> Result<ClusterSpec, String> {
    let compact = CompactCluster {
        gpus: gpus.iter().map(|(name, count)| (name.clone(), *count)).collect(),
        gpus_per_node,
        cpus_per_node,
        mem_gib_per_node: None,
    };
    compact.build().map_err(|error| error.to_string())
}

impl Setup {
    /// Builds the cluster and perf model and checks that the data files exist.
    pub fn new(spec: &ExperimentSpec, data: &DataDir, source: &SpecSource) -> Result<Setup, ExperimentError> {
        let mut data_files = Vec::new();
        let mut profile_files = Vec::new();
        let mut file = |relative: &Path| -> Result<PathBuf, ExperimentError> {
            let path = data_file(data, relative, source)?;
            data_files.push((relative.display().to_string(), path.clone()));
            Ok(path)
        };
        let cluster_error = |error: String| ExperimentError::Spec {
            path: source.locate("cluster"),
            message: format!("cluster: {error}"),
        };
        let mut partition = Partition::Pooled;
        let cluster = match &spec.cluster {
            ClusterSection::Compact { gpus, gpus_per_node, cpus_per_node } => {
                compact(gpus, *gpus_per_node, *cpus_per_node).map_err(cluster_error)?
            }
            ClusterSection::Nodes(entries) => {
                build::from_node_list(entries).map_err(|error| cluster_error(error.to_string()))?
            }
            ClusterSection::Groups { nodes, partition: chosen } => {
                if let Some(index) = nodes.iter().position(|entry| entry.group.is_none()) {
                    return Err(cluster_error(format!(
                        "groups: nodes[{index}] names no group; every node of a grouped cluster needs one"
                    )));
                }
                partition = *chosen;
                build::from_node_list(nodes).map_err(|error| cluster_error(error.to_string()))?
            }
            ClusterSection::PhillyVc { path, gpu_type, partition: chosen } => {
                partition = *chosen;
                build::from_philly_vc(&file(path)?, gpu_type).map_err(|error| cluster_error(error.to_string()))?.0
            }
            ClusterSection::Pai { path } => {
                build::from_pai_machine_spec(&file(path)?).map_err(|error| cluster_error(error.to_string()))?.0
            }
            ClusterSection::Openb { path } => {
                build::from_openb_nodes(&file(path)?).map_err(|error| cluster_error(error.to_string()))?.0
            }
        };
        let (perf, job_types): (Arc<dyn PerfModel>, JobTypes) = match &spec.perf {
            PerfSection::Rigid => (Arc::new(TraceDuration::uniform()), JobTypes::default()),
            PerfSection::Pollux { path } => {
                let folder = path.display().to_string();
                if !path.is_absolute() && !data.root().is_some_and(|root| root.join(path).is_dir()) {
                    return Err(ExperimentError::MissingData {
                        path: format!("{}/", folder.trim_end_matches('/')),
                        message: format!(
                            "{}: Pollux's profiles '{folder}' not found{}; public source: {}",
                            source.locate("pollux"),
                            data.root()
                                .map(|dir| format!(" in the data directory '{}'", dir.display()))
                                .unwrap_or_default(),
                            schedlab_core::datadir::public_source(&folder)
                        ),
                    });
                }
                let model = PolluxPerf::load(data, path)
                    .map_err(|error| ExperimentError::Data(format!("{}: {error}", source.locate("pollux"))))?;
                let mut work = BTreeMap::new();
                for (name, app) in model.apps() {
                    work.insert(name.clone(), app.total_progress());
                    profile_files.extend(app.files().iter().cloned());
                }
                (Arc::new(model), JobTypes { work, ..JobTypes::default() })
            }
            PerfSection::Dl2 { path } => {
                let model = Dl2Speed::load_named(&file(path)?, &path.display().to_string())
                    .map_err(|error| ExperimentError::Data(error.to_string()))?;
                (Arc::new(model), JobTypes::default())
            }
            PerfSection::TraceDuration { reference, speedups } => {
                if let Some((name, factor)) =
                    speedups.iter().find(|(_, factor)| !(factor.is_finite() && **factor > 0.0))
                {
                    return Err(ExperimentError::Spec {
                        path: source.locate("speedups"),
                        message: format!("perf: the speed factor of '{name}' must be a positive number, got {factor}"),
                    });
                }
                let model =
                    speedups.iter().fold(TraceDuration::with_reference(reference.clone()), |model, (name, factor)| {
                        model.with_speedup(name.clone(), *factor)
                    });
                (Arc::new(model), JobTypes::default())
            }
            PerfSection::Throughputs { path, reference, mixed_types } => {
                let (table, _) =
                    ThroughputTable::load(&file(path)?).map_err(|error| ExperimentError::Data(error.to_string()))?;
                let table = table.with_mixed_types(*mixed_types);
                let templates = templates_of(&table, reference)
                    .map_err(|message| ExperimentError::Spec { path: source.locate("reference"), message })?;
                (Arc::new(table), JobTypes { templates, ..JobTypes::default() })
            }
        };
        if let Some(trace) = &spec.workload.trace {
            match spec.sweep.get(&Axis::TraceIndex) {
                Some(indices) => {
                    for index in indices.values() {
                        file(&trace_path(&trace.path, index))?;
                    }
                }
                None => {
                    file(&trace.path)?;
                }
            }
        }
        if let Some(GeneratorSpec::PhillySampled { distribution, .. }) = &spec.workload.generator {
            file(distribution)?;
        }
        let mut policy_files = BTreeMap::new();
        let mut pinned_names = BTreeMap::new();
        for policy in &spec.policies {
            let summary = schedlab_zoo::describe(&policy.0).map_err(|error| ExperimentError::Spec {
                path: source.locate(&policy.0.name),
                message: error.to_string(),
            })?;
            let mut files = Vec::new();
            for name in &summary.files {
                match name.strip_suffix('/') {
                    Some(folder) => files.extend(folder_files(data, folder, source)?),
                    None => files.push((name.clone(), data_file(data, Path::new(name), source)?)),
                }
            }
            if summary.name != policy.to_string() {
                pinned_names.insert(policy.to_string(), summary.name.clone());
            }
            policy_files.insert(policy.to_string(), files);
        }
        data_files.extend(profile_files);
        Ok(Setup {
            cluster: Arc::new(cluster),
            perf,
            job_types,
            partition,
            data_files,
            policy_files,
            pinned_names,
            env: PolicyEnv::new(data.clone()),
            traces: TraceCache::default(),
        })
    }

    /// Builds the workload of one sweep point and seed.
    pub fn workload(&self, workload: &WorkloadSpec, plan: &RunPlan) -> Result<PreparedWorkload, ExperimentError> {
        let mut workload = workload.clone();
        apply_point(&mut workload, &plan.point, plan.workload_seed, plan.seed);
        let built = workload
            .build_cached(self.env.data(), &self.job_types, &self.traces)
            .map_err(|error| ExperimentError::Run { key: plan.workload_key.clone(), message: error.to_string() })?;
        let mut report = built.report;
        let (jobs, groups) = match self.partition {
            Partition::Pooled => (built.jobs, None),
            Partition::PerVc => {
                let (jobs, groups, lines) = partition_by_vc(&self.cluster, built.jobs);
                report.extend(lines);
                (jobs, Some(groups))
            }
            Partition::VcPools => {
                let (jobs, line) = pool_by_vc(&self.cluster, built.jobs);
                report.push(line);
                (jobs, None)
            }
        };
        if jobs.is_empty() {
            // Every job left out (by the partition into VCs, say): nothing would be measured.
            return Err(ExperimentError::Run {
                key: plan.workload_key.clone(),
                message: format!("the workload has no jobs to run ({})", report.join("; ")),
            });
        }
        Ok(PreparedWorkload { jobs, groups, report })
    }
}

/// The trace path with `{trace_index}` replaced by `index`.
pub fn trace_path(path: &Path, index: f64) -> PathBuf {
    PathBuf::from(path.display().to_string().replace(crate::axis::TRACE_INDEX, &format!("{index}")))
}

/// Sets a point's axis values and the derived seed into a workload spec; generators with
/// `rng: python` get the spec's own seed (`spec_seed`), as Gavel's `--seed`.
fn apply_point(workload: &mut WorkloadSpec, point: &SweepPoint, seed: u64, spec_seed: u64) {
    if let Some(generator) = &mut workload.generator {
        match generator {
            GeneratorSpec::GavelContinuous { jobs, rate_per_hour, seed: generator_seed, rng, .. } => {
                *rate_per_hour = point.get(Axis::RatePerHour).unwrap_or(*rate_per_hour);
                *jobs = point.get(Axis::Jobs).map_or(*jobs, |value| value as usize);
                *generator_seed = if *rng == GeneratorRng::Python { spec_seed } else { seed };
            }
            GeneratorSpec::Dl2 { jobs, seed: generator_seed, .. } => {
                *jobs = point.get(Axis::Jobs).map_or(*jobs, |value| value as usize);
                *generator_seed = seed;
            }
            GeneratorSpec::GavelStatic { jobs, seed: generator_seed, rng, .. } => {
                *jobs = point.get(Axis::Jobs).map_or(*jobs, |value| value as usize);
                *generator_seed = if *rng == GeneratorRng::Python { spec_seed } else { seed };
            }
            GeneratorSpec::PhillySampled { jobs, rate_per_hour, seed: generator_seed, .. } => {
                *rate_per_hour = point.get(Axis::RatePerHour).unwrap_or(*rate_per_hour);
                *jobs = point.get(Axis::Jobs).map_or(*jobs, |value| value as usize);
                *generator_seed = seed;
            }
        }
    }
    if let (Some(index), Some(trace)) = (point.get(Axis::TraceIndex), &mut workload.trace) {
        trace.path = trace_path(&trace.path, index);
    }
    if let Some(index) = point.get(Axis::Episode) {
        for transform in &mut workload.transforms {
            if let Transform::Episode(episode) = transform {
                episode.index = index as usize;
            }
        }
    }
    if let Some(factor) = point.get(Axis::ScaleRate) {
        workload.transforms.push(Transform::ScaleRate(factor));
    }
    match &mut workload.model {
        Model::GavelZoo { seed: model_seed, .. } | Model::PolluxBuckets { seed: model_seed } => *model_seed = seed,
        Model::Rigid | Model::FromTrace | Model::Applications => {}
    }
    if let Some(declared) = &mut workload.declared_work {
        // A stream of its own, so that declaration errors do not repeat the generator's draws.
        declared.seed = crate::plan::stable_hash(&[&seed.to_string(), "declared_work"]);
    }
}

/// Job templates from a throughput table: each job type with its scale factors and rate on
/// `reference`.
pub fn templates_of(table: &ThroughputTable, reference: &str) -> Result<Vec<JobTemplate>, String> {
    if !table.worker_types().iter().any(|known| known == reference) {
        return Err(format!(
            "reference GPU type '{reference}' is not in the throughput table ({})",
            table.worker_types().join(", ")
        ));
    }
    let mut templates: Vec<JobTemplate> = Vec::new();
    for (job_type, scale) in table.templates() {
        let rate = table.isolated(job_type, *scale, reference).expect("template and type exist");
        if rate <= 0.0 {
            continue;
        }
        match templates.iter_mut().find(|template| template.job_type == *job_type) {
            Some(template) => template.scales.push((*scale, rate)),
            None => templates.push(JobTemplate { job_type: job_type.clone(), scales: vec![(*scale, rate)] }),
        }
    }
    Ok(templates)
}

/// Keeps the jobs that fit their VC's nodes, renumbered; returns them with the counts of jobs
/// whose VC has no nodes and of jobs larger than their VC.
fn fitting_their_vc(nodes: &BTreeMap<String, Vec<Node>>, jobs: Vec<JobSpec>) -> (Vec<JobSpec>, usize, usize) {
    let capacity: BTreeMap<&String, u32> =
        nodes.iter().map(|(vc, nodes)| (vc, nodes.iter().map(|node| node.gpus).sum())).collect();
    let mut no_vc = 0;
    let mut too_large = 0;
    let mut kept = Vec::new();
    for job in jobs {
        let vc = job.vc.clone().unwrap_or_default();
        match capacity.get(&vc) {
            None => no_vc += 1,
            Some(&gpus) if job.gpus > gpus => too_large += 1,
            Some(_) => kept.push(job),
        }
    }
    for (index, job) in kept.iter_mut().enumerate() {
        job.id = JobId(index as u32);
    }
    (kept, no_vc, too_large)
}

fn nodes_by_vc(cluster: &ClusterSpec) -> BTreeMap<String, Vec<Node>> {
    let mut nodes: BTreeMap<String, Vec<Node>> = BTreeMap::new();
    for node in cluster.nodes() {
        nodes.entry(node.group.clone().unwrap_or_default()).or_default().push(node.clone());
    }
    nodes
}

/// Keeps every job on its VC's nodes of the one shared cluster (`JobSpec::pool`). Jobs whose VC
/// has no nodes, or that ask for more GPUs than their VC has, are left out and counted.
fn pool_by_vc(cluster: &ClusterSpec, jobs: Vec<JobSpec>) -> (Vec<JobSpec>, String) {
    let nodes = nodes_by_vc(cluster);
    let (mut kept, no_vc, too_large) = fitting_their_vc(&nodes, jobs);
    for job in &mut kept {
        job.pool = Some(job.vc.clone().unwrap_or_default());
    }
    let line = format!(
        "VC pools: {} jobs on one cluster of {} VCs, each on its VC's nodes; left out: {no_vc} jobs whose VC has no nodes, {too_large} jobs larger than their VC",
        kept.len(),
        nodes.len()
    );
    (kept, line)
}

/// Splits jobs by VC onto each VC's nodes. Jobs whose VC has no nodes, or that ask for more
/// GPUs than their VC has, cannot run there and are left out and counted.
fn partition_by_vc(cluster: &ClusterSpec, jobs: Vec<JobSpec>) -> (Vec<JobSpec>, Vec<Group>, Vec<String>) {
    let nodes = nodes_by_vc(cluster);
    let (kept, no_vc, too_large) = fitting_their_vc(&nodes, jobs);
    let mut groups = Vec::new();
    for (vc, vc_nodes) in nodes {
        let members: Vec<&JobSpec> = kept.iter().filter(|job| job.vc.clone().unwrap_or_default() == vc).collect();
        if members.is_empty() {
            continue;
        }
        let cluster = ClusterSpec::new(cluster.gpu_types().to_vec(), vc_nodes).expect("a subset of a valid cluster");
        let original_ids = members.iter().map(|job| job.id).collect();
        let jobs = members
            .iter()
            .enumerate()
            .map(|(index, job)| JobSpec { id: JobId(index as u32), ..(*job).clone() })
            .collect();
        groups.push(Group { name: vc, cluster: Arc::new(cluster), jobs, original_ids });
    }
    let lines = vec![format!(
        "partition per VC: {} jobs in {} VCs; left out: {no_vc} jobs whose VC has no nodes, {too_large} jobs larger than their VC",
        kept.len(),
        groups.len()
    )];
    (kept, groups, lines)
}
