//! RLTune (Shruti et al., SoCC 2025): a PPO agent scores each waiting job with a small kernel
//! network and the scheduler starts the chosen job on a tiered, consolidated placement; and the
//! heuristic orders the paper compares it with (FCFS, SJF, F1, WFP, UNI), all in the authors'
//! environment's non-backfilling loop. Training is in `schedlab-rltune-train`.

pub mod allocation;
pub mod clusters;
pub mod network;
pub mod observation;
pub mod placement;
mod policy;
mod registry;

pub use policy::{Chooser, Moment, Order, RlTune, SlotChooser, Step};
pub use registry::{BUILTIN_WEIGHTS, POLICIES, digest, rules_of};
