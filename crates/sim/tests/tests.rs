//! Integration tests of the engine with real policies. One binary, one module per topic.

mod common;
// Small workloads whose JCTs are worked out by hand in each test's comment.
mod hand_computed;
// Decisions that break a rule must be refused with an error naming policy, job and node.
mod invalid_decisions;
// Random clusters, workloads and valid decisions never break an invariant.
mod invariants;
// Same inputs, bit-identical outputs.
mod determinism;
// Space sharing (Gavel's packing): pairs on one GPU, worked out by hand, and broken pairs refused.
mod space_sharing;
// Job forking (HadarE): copies on separate nodes, progress summed less aggregation, refusals.
mod forking;
// Piecewise-constant rates (rate segments), zero rates, and the begin/end-of-run hooks.
mod rate_segments;
// Per-job restart costs and declared work.
mod job_facts;
// Parameter servers and CPUs, CPU nodes, pools and required GPU types.
mod resources;
