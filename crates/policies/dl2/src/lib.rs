//! DL2 (Peng et al., arXiv 1909.06040, "DL2: A Deep Learning-driven Scheduler for Deep
//! Learning Clusters"), as its authors' simulator runs it (`pengyanghua/DL2`): time in slots;
//! at each slot every job's workers and parameter servers are chosen anew, one task at a time,
//! each on the least-loaded node; the learned policy picks the tasks, and the heuristics it is
//! compared with (DRF, FIFO, SRTF, Tetris, Optimus) fill the slot by their own rules.
//!
//! `slot` holds the slot's resource accounting, `observation` the network's state and mask,
//! `network` the policy network in plain `f32`, `heuristics` the baselines, `policy` the
//! [`Dl2`] policy shared by all of them.

pub mod heuristics;
pub mod network;
pub mod observation;
pub mod policy;
mod registry;
pub mod slot;

pub use policy::{Chooser, Dl2, Learner, SlotConfig, SlotStats, pick};
pub use registry::{BUILTIN_WEIGHTS, POLICIES, digest};
