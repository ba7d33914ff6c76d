//! Integration tests of the trace crate. One binary, one module per topic.

mod common;
// Each format on fixtures written from its description, including the nasty cases.
mod fixtures;
// Malformed input gives exact errors with file, line and column.
mod errors;
// Transforms and model assignment.
mod transforms;
// The real files in the data directory.
mod real_data;
// Generated workloads survive a trip through Gavel's trace format.
mod roundtrip;
// The YAML form of a workload.
mod spec;
