//! Small copyable identifiers.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Identifies a job: its index in the workload, which is sorted by arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct JobId(pub u32);

/// Identifies a node: its index in the cluster's node list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(pub u32);

/// Identifies a GPU type: its index in the cluster's list of GPU type names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GpuTypeId(pub u16);

impl JobId {
    /// Returns the id as an index into per-job vectors.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl NodeId {
    /// Returns the id as an index into per-node vectors.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl GpuTypeId {
    /// Returns the id as an index into per-type vectors.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for JobId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "job {}", self.0)
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "node {}", self.0)
    }
}

/// A set of GPU types as a bit mask over [`GpuTypeId`]s (at most 64 types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GpuTypeSet(pub u64);

impl GpuTypeSet {
    /// The set of every GPU type.
    pub const ALL: GpuTypeSet = GpuTypeSet(u64::MAX);
    /// The empty set.
    pub const EMPTY: GpuTypeSet = GpuTypeSet(0);

    /// Returns true if and only if `gpu_type` is in the set.
    pub fn contains(self, gpu_type: GpuTypeId) -> bool {
        gpu_type.0 < 64 && self.0 & (1u64 << gpu_type.0) != 0
    }

    /// Returns the set with `gpu_type` added.
    pub fn with(self, gpu_type: GpuTypeId) -> GpuTypeSet {
        GpuTypeSet(self.0 | (1u64 << gpu_type.0))
    }
}
