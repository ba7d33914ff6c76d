//! Building a [`ClusterSpec`] from a compact form, an explicit node list, or a real file.

use crate::ClusterFileError;
use schedlab_core::{ClusterError, ClusterSpec, GpuTypeId, Node};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Occurs when a compact or explicit cluster description is inconsistent.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// Occurs when a GPU count is not a multiple of the GPUs per node.
    #[error("GPU type '{gpu_type}': {gpus} GPUs is not a multiple of {gpus_per_node} GPUs per node")]
    NotMultiple {
        /// The GPU type.
        gpu_type: String,
        /// GPUs requested for it.
        gpus: u32,
        /// GPUs per node.
        gpus_per_node: u32,
    },
    /// Occurs when GPUs per node is zero.
    #[error("gpus_per_node must be at least 1")]
    ZeroPerNode,
    /// Occurs when the compact text form cannot be parsed.
    #[error("invalid cluster '{text}': {message}")]
    Syntax {
        /// The text given.
        text: String,
        /// What was expected.
        message: String,
    },
    /// Occurs when the resulting cluster is invalid.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// Occurs when a cluster would have more nodes or GPUs than schedlab builds.
    #[error("{what} is more than the {limit} schedlab builds; did you mean fewer?")]
    TooLarge {
        /// What was asked for, e.g. "536870912 nodes".
        what: String,
        /// The bound.
        limit: String,
    },
}

/// Most nodes a cluster may have (the largest real clusters in the data have a few thousand).
pub const MAX_NODES: u64 = 1_000_000;
/// Most GPUs a cluster may have.
pub const MAX_GPUS: u64 = 10_000_000;

/// Refuses a cluster of `nodes` nodes and `gpus` GPUs beyond [`MAX_NODES`] or [`MAX_GPUS`]
/// before anything is allocated.
fn check_size(nodes: u64, gpus: u64) -> Result<(), BuildError> {
    if nodes > MAX_NODES {
        return Err(BuildError::TooLarge { what: format!("{nodes} nodes"), limit: format!("{MAX_NODES} nodes") });
    }
    if gpus > MAX_GPUS {
        return Err(BuildError::TooLarge { what: format!("{gpus} GPUs"), limit: format!("{MAX_GPUS} GPUs") });
    }
    Ok(())
}

/// A homogeneous-node cluster per GPU type: `{v100: 36, p100: 36, k80: 36}` with 4 per node.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompactCluster {
    /// `(gpu type, total GPUs)` in the order the types should get ids.
    pub gpus: Vec<(String, u32)>,
    /// GPUs on each node.
    pub gpus_per_node: u32,
    /// CPU cores on each node, if modelled.
    pub cpus_per_node: Option<f64>,
    /// Memory per node in GiB, if modelled.
    pub mem_gib_per_node: Option<f64>,
}

impl CompactCluster {
    /// Parses `v100=36,p100=36,k80=36` (also accepts `:` instead of `=`).
    pub fn parse(text: &str, gpus_per_node: u32) -> Result<CompactCluster, BuildError> {
        let syntax = |message: String| BuildError::Syntax { text: text.to_string(), message };
        let mut gpus = Vec::new();
        for part in text.split(',').map(str::trim).filter(|part| !part.is_empty()) {
            let (name, count) = part
                .split_once(['=', ':'])
                .ok_or_else(|| syntax(format!("'{part}' should be TYPE=GPUS, e.g. v100=36")))?;
            let count: u32 = count
                .trim()
                .parse()
                .map_err(|_| syntax(format!("'{}' is not a whole number of GPUs", count.trim())))?;
            gpus.push((name.trim().to_string(), count));
        }
        if gpus.is_empty() {
            return Err(syntax("expected at least one TYPE=GPUS entry".to_string()));
        }
        Ok(CompactCluster { gpus, gpus_per_node, cpus_per_node: None, mem_gib_per_node: None })
    }

    /// Builds the cluster: nodes named `<type>-<i>`, types in the given order.
    pub fn build(&self) -> Result<ClusterSpec, BuildError> {
        if self.gpus_per_node == 0 {
            return Err(BuildError::ZeroPerNode);
        }
        let gpus: u64 = self.gpus.iter().map(|(_, gpus)| u64::from(*gpus)).sum();
        let nodes: u64 = self.gpus.iter().map(|(_, gpus)| u64::from(*gpus) / u64::from(self.gpus_per_node)).sum();
        check_size(nodes, gpus)?;
        let mut gpu_types = Vec::new();
        let mut nodes = Vec::new();
        for (type_index, (name, gpus)) in self.gpus.iter().enumerate() {
            if gpus % self.gpus_per_node != 0 {
                return Err(BuildError::NotMultiple {
                    gpu_type: name.clone(),
                    gpus: *gpus,
                    gpus_per_node: self.gpus_per_node,
                });
            }
            gpu_types.push(name.clone());
            for node_index in 0..gpus / self.gpus_per_node {
                nodes.push(Node {
                    name: format!("{name}-{node_index}"),
                    gpu_type: GpuTypeId(type_index as u16),
                    gpus: self.gpus_per_node,
                    cpus: self.cpus_per_node,
                    mem_gib: self.mem_gib_per_node,
                    group: None,
                });
            }
        }
        Ok(ClusterSpec::new(gpu_types, nodes)?)
    }
}

/// One node of an explicit node list, as written in a spec.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeEntry {
    /// Node name; defaults to `<type>-<i>` (`cpu-<i>` for a node without GPUs).
    pub name: Option<String>,
    /// GPU type name; required when the node has GPUs, and must be left out when it has none
    /// (a CPU node, where parameter servers may run).
    pub gpu_type: Option<String>,
    /// GPUs on the node.
    pub gpus: u32,
    /// CPU cores, if known.
    pub cpus: Option<f64>,
    /// Memory in GiB, if known.
    pub mem_gib: Option<f64>,
    /// Group (virtual cluster), if any.
    pub group: Option<String>,
    /// How many identical nodes this entry stands for (default 1).
    pub count: Option<u32>,
}

/// Builds a cluster from an explicit node list; GPU types get ids in order of first mention.
pub fn from_node_list(entries: &[NodeEntry]) -> Result<ClusterSpec, BuildError> {
    let count = |entry: &NodeEntry| u64::from(entry.count.unwrap_or(1));
    check_size(
        entries.iter().map(count).sum(),
        entries.iter().map(|entry| count(entry) * u64::from(entry.gpus)).sum(),
    )?;
    let mut gpu_types: Vec<String> = Vec::new();
    let mut nodes = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let syntax = |message: String| BuildError::Syntax { text: format!("nodes[{index}]"), message };
        let type_index = match (&entry.gpu_type, entry.gpus) {
            (Some(gpu_type), 0) => {
                return Err(syntax(format!("has gpu_type '{gpu_type}' but 0 GPUs; leave gpu_type out for a CPU node")));
            }
            // A CPU node's type means nothing; the first type keeps ids dense.
            (None, 0) => 0,
            (None, _) => return Err(syntax(format!("has {} GPUs but no gpu_type", entry.gpus))),
            (Some(gpu_type), _) => match gpu_types.iter().position(|known| known == gpu_type) {
                Some(index) => index,
                None => {
                    gpu_types.push(gpu_type.clone());
                    gpu_types.len() - 1
                }
            },
        };
        let prefix = entry.gpu_type.as_deref().unwrap_or("cpu");
        for copy in 0..entry.count.unwrap_or(1) {
            let name = match (&entry.name, entry.count) {
                (Some(name), Some(count)) if count > 1 => format!("{name}-{copy}"),
                (Some(name), _) => name.clone(),
                (None, _) => format!("{prefix}-{}", nodes.len()),
            };
            nodes.push(Node {
                name,
                gpu_type: GpuTypeId(type_index as u16),
                gpus: entry.gpus,
                cpus: entry.cpus,
                mem_gib: entry.mem_gib,
                group: entry.group.clone(),
            });
        }
    }
    Ok(ClusterSpec::new(gpu_types, nodes)?)
}

/// What a cluster file loader read, and what it left out and why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadSummary {
    /// Data rows read.
    pub rows: usize,
    /// Nodes kept.
    pub nodes: usize,
    /// Rows left out, with the reason and count, e.g. `("CPU-only machine", 83)`.
    pub skipped: Vec<(String, usize)>,
}

impl LoadSummary {
    fn skip(&mut self, reason: &str) {
        match self.skipped.iter_mut().find(|(known, _)| known == reason) {
            Some((_, count)) => *count += 1,
            None => self.skipped.push((reason.to_string(), 1)),
        }
    }
}

fn reader(path: &Path, has_headers: bool) -> Result<csv::Reader<std::fs::File>, ClusterFileError> {
    csv::ReaderBuilder::new()
        .has_headers(has_headers)
        .trim(csv::Trim::All)
        .from_path(path)
        .map_err(|source| ClusterFileError::io(path, source))
}

/// Opens a CSV file whose header must be exactly `expected`.
fn reader_with_header(path: &Path, expected: &[&str]) -> Result<csv::Reader<std::fs::File>, ClusterFileError> {
    let mut csv = reader(path, true)?;
    let headers = csv.headers().map_err(|source| ClusterFileError::io(path, source))?;
    if headers.iter().ne(expected.iter().copied()) {
        return Err(ClusterFileError::Header {
            path: path.to_path_buf(),
            expected: expected.join(","),
            found: headers.iter().collect::<Vec<_>>().join(","),
        });
    }
    Ok(csv)
}

fn field<'r>(
    path: &Path,
    record: &'r csv::StringRecord,
    column: usize,
    name: &str,
) -> Result<&'r str, ClusterFileError> {
    record.get(column).ok_or_else(|| {
        ClusterFileError::row(
            path,
            record,
            format!("missing column {} ('{name}'); the row has {}", column + 1, record.len()),
        )
    })
}

fn number<T: std::str::FromStr>(
    path: &Path,
    record: &csv::StringRecord,
    column: usize,
    name: &str,
    expected: &str,
) -> Result<T, ClusterFileError> {
    let text = field(path, record, column, name)?;
    text.parse().map_err(|_| {
        ClusterFileError::row(
            path,
            record,
            format!("column {} ('{name}'): expected {expected}, got '{text}'", column + 1),
        )
    })
}

/// One machine row of an Alibaba node table, in common units.
struct Machine<'r> {
    name: &'r str,
    gpu_type: &'r str,
    gpus: u32,
    cpus: f64,
    mem_gib: f64,
}

impl Machine<'_> {
    /// Adds the machine as a node, or counts it under `skip_reason` if it has no GPUs.
    fn add_to(self, nodes: &mut Vec<Node>, gpu_types: &mut Vec<String>, summary: &mut LoadSummary, skip_reason: &str) {
        if self.gpus == 0 {
            summary.skip(skip_reason);
            return;
        }
        nodes.push(Node {
            name: self.name.to_string(),
            gpu_type: type_id(gpu_types, self.gpu_type),
            gpus: self.gpus,
            cpus: Some(self.cpus),
            mem_gib: Some(self.mem_gib),
            group: None,
        });
    }
}

fn type_id(gpu_types: &mut Vec<String>, name: &str) -> GpuTypeId {
    let index = gpu_types.iter().position(|known| known == name).unwrap_or_else(|| {
        gpu_types.push(name.to_string());
        gpu_types.len() - 1
    });
    GpuTypeId(index as u16)
}

/// Loads Philly's `philly_vc.csv` (`vc,node num`): each VC's nodes with 8 GPUs each.
///
/// The trace does not record GPU models, so the caller names the type (`gpu_type`). Nodes get
/// their VC as group, so a VC-partitioned experiment can keep each VC's jobs on its own nodes.
pub fn from_philly_vc(path: &Path, gpu_type: &str) -> Result<(ClusterSpec, LoadSummary), ClusterFileError> {
    const GPUS_PER_NODE: u32 = 8;
    let mut csv = reader_with_header(path, &["vc", "node num"])?;
    let mut summary = LoadSummary::default();
    let mut nodes = Vec::new();
    for record in csv.records() {
        let record = record.map_err(|source| ClusterFileError::io(path, source))?;
        summary.rows += 1;
        let vc = field(path, &record, 0, "vc")?.to_string();
        let count: u32 = number(path, &record, 1, "node num", "a whole number of nodes")?;
        if count == 0 {
            summary.skip("VC with 0 nodes");
        }
        for index in 0..count {
            nodes.push(Node {
                name: format!("{vc}-{index}"),
                gpu_type: GpuTypeId(0),
                gpus: GPUS_PER_NODE,
                cpus: None,
                mem_gib: None,
                group: Some(vc.clone()),
            });
        }
    }
    summary.nodes = nodes.len();
    let spec = ClusterSpec::new(vec![gpu_type.to_string()], nodes)
        .map_err(|source| ClusterFileError::invalid(path, source))?;
    Ok((spec, summary))
}

/// Loads Alibaba PAI 2020's headerless `pai_machine_spec.csv`
/// (`machine,gpu_type,cap_cpu,cap_mem,cap_gpu`; memory in GB).
///
/// Machines without GPUs (type `CPU`, `cap_gpu` 0) are left out and counted in the summary.
pub fn from_pai_machine_spec(path: &Path) -> Result<(ClusterSpec, LoadSummary), ClusterFileError> {
    let mut csv = reader(path, false)?;
    let mut summary = LoadSummary::default();
    let mut gpu_types = Vec::new();
    let mut nodes = Vec::new();
    for record in csv.records() {
        let record = record.map_err(|source| ClusterFileError::io(path, source))?;
        summary.rows += 1;
        if record.len() != 5 {
            return Err(ClusterFileError::row(
                path,
                &record,
                format!("expected 5 columns (machine,gpu_type,cap_cpu,cap_mem,cap_gpu), found {}", record.len()),
            ));
        }
        let machine = Machine {
            name: field(path, &record, 0, "machine")?,
            gpu_type: field(path, &record, 1, "gpu_type")?,
            gpus: number(path, &record, 4, "cap_gpu", "a whole number of GPUs")?,
            cpus: number(path, &record, 2, "cap_cpu", "a number of CPU cores")?,
            mem_gib: number(path, &record, 3, "cap_mem", "a memory size in GB")?,
        };
        machine.add_to(&mut nodes, &mut gpu_types, &mut summary, "machine without GPUs");
    }
    summary.nodes = nodes.len();
    let spec = ClusterSpec::new(gpu_types, nodes).map_err(|source| ClusterFileError::invalid(path, source))?;
    Ok((spec, summary))
}

/// Loads Alibaba 2023's `openb_node_list_gpu_node.csv` (`sn,cpu_milli,memory_mib,gpu,model`).
pub fn from_openb_nodes(path: &Path) -> Result<(ClusterSpec, LoadSummary), ClusterFileError> {
    let mut csv = reader_with_header(path, &["sn", "cpu_milli", "memory_mib", "gpu", "model"])?;
    let mut summary = LoadSummary::default();
    let mut gpu_types = Vec::new();
    let mut nodes = Vec::new();
    for record in csv.records() {
        let record = record.map_err(|source| ClusterFileError::io(path, source))?;
        summary.rows += 1;
        let cpu_milli: f64 = number(path, &record, 1, "cpu_milli", "CPU capacity in millicores")?;
        let memory_mib: f64 = number(path, &record, 2, "memory_mib", "memory in MiB")?;
        let machine = Machine {
            name: field(path, &record, 0, "sn")?,
            gpu_type: field(path, &record, 4, "model")?,
            gpus: number(path, &record, 3, "gpu", "a whole number of GPUs")?,
            cpus: cpu_milli / 1000.0,
            mem_gib: memory_mib / 1024.0,
        };
        machine.add_to(&mut nodes, &mut gpu_types, &mut summary, "node without GPUs");
    }
    summary.nodes = nodes.len();
    let spec = ClusterSpec::new(gpu_types, nodes).map_err(|source| ClusterFileError::invalid(path, source))?;
    Ok((spec, summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_builds_nodes_per_type() {
        let spec = CompactCluster::parse("v100=8, k80:4", 4).unwrap().build().unwrap();
        assert_eq!(spec.gpu_types(), ["v100", "k80"]);
        assert_eq!(spec.nodes().len(), 3);
        assert_eq!(spec.gpus_per_type(), vec![8, 4]);
        assert_eq!(spec.nodes()[2].name, "k80-0");
    }

    #[test]
    fn compact_rejects_remainders_and_syntax_errors() {
        let err = CompactCluster::parse("v100=6", 4).unwrap().build().unwrap_err();
        assert_eq!(err.to_string(), "GPU type 'v100': 6 GPUs is not a multiple of 4 GPUs per node");
        let err = CompactCluster::parse("v100=x", 4).unwrap_err();
        assert_eq!(err.to_string(), "invalid cluster 'v100=x': 'x' is not a whole number of GPUs");
    }

    #[test]
    fn absurd_cluster_sizes_are_refused_before_anything_is_allocated() {
        let err = CompactCluster::parse("v100=4294967292", 4).unwrap().build().unwrap_err();
        assert_eq!(
            err.to_string(),
            "1073741823 nodes is more than the 1000000 nodes schedlab builds; did you mean fewer?"
        );
        let entry = NodeEntry {
            name: None,
            gpu_type: Some("v100".into()),
            gpus: 4_000_000,
            cpus: None,
            mem_gib: None,
            group: None,
            count: Some(3),
        };
        let err = from_node_list(&[entry]).unwrap_err();
        assert!(err.to_string().starts_with("12000000 GPUs is more than the 10000000 GPUs"), "{err}");
    }

    #[test]
    fn node_list_expands_counts() {
        let entries = vec![
            NodeEntry {
                name: Some("big".into()),
                gpu_type: Some("a100".into()),
                gpus: 8,
                cpus: Some(96.0),
                mem_gib: None,
                group: None,
                count: Some(2),
            },
            NodeEntry {
                name: None,
                gpu_type: Some("t4".into()),
                gpus: 2,
                cpus: None,
                mem_gib: None,
                group: None,
                count: None,
            },
        ];
        let spec = from_node_list(&entries).unwrap();
        let names: Vec<&str> = spec.nodes().iter().map(|node| node.name.as_str()).collect();
        assert_eq!(names, ["big-0", "big-1", "t4-2"]);
        assert_eq!(spec.total_gpus(), 18);
    }

    #[test]
    fn node_list_takes_cpu_nodes_without_a_gpu_type() {
        let entry = |gpu_type: Option<&str>, gpus| NodeEntry {
            name: None,
            gpu_type: gpu_type.map(str::to_string),
            gpus,
            cpus: Some(16.0),
            mem_gib: None,
            group: None,
            count: None,
        };
        let spec = from_node_list(&[entry(None, 0), entry(Some("k80"), 4)]).unwrap();
        assert_eq!(
            (spec.gpu_types(), spec.nodes()[0].name.as_str(), spec.total_gpus()),
            (&["k80".to_string()][..], "cpu-0", 4)
        );
        assert_eq!(spec.total_cpus(), Some(32.0));
        let error = from_node_list(&[entry(Some("k80"), 0)]).unwrap_err().to_string();
        assert!(error.contains("nodes[0]") && error.contains("leave gpu_type out for a CPU node"), "{error}");
        let error = from_node_list(&[entry(None, 4)]).unwrap_err().to_string();
        assert!(error.contains("has 4 GPUs but no gpu_type"), "{error}");
        let error = from_node_list(&[entry(None, 0)]).unwrap_err();
        assert!(matches!(error, BuildError::Cluster(ClusterError::Empty)), "{error}");
    }
}
