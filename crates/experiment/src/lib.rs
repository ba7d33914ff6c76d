//! Experiments: a YAML spec in, a folder of tables, plots and a verdict on published claims out.
//!
//! Parse, resolve, run. [`spec::ExperimentSpec`] is the spec as written (serde, errors at their
//! line). [`Experiment::resolve`] checks it as a whole and builds what runs share: typed
//! metrics, axes and report plans ([`resolve`]), the cluster, perf model and policy environment
//! ([`prepare`]), and the [`resolve::RunInputs`] that runs' hashes are computed from.
//! [`Experiment::runs`] expands it into runs ([`plan`]: sweep points x policies x seeds, each
//! with a stable key and a derived seed). [`run_experiment`] prepares each workload once, runs
//! the simulations in parallel with rayon, stores each finished run atomically in
//! `results/<name>/runs/` (so an interrupted sweep resumes), reports progress through a
//! callback, and [`report`] writes `runs.csv`, tables, plots, `claims.md` and `manifest.json`,
//! sorted by run key so that the output does not depend on the number of threads.
//! With a [`Shard`], [`run_experiment`] runs one deterministic part of the runs (a Slurm array
//! task, say) and writes no reports; [`report_experiment`] writes them from the store alone once
//! every part is stored, and `index.html` ([`html`]) presents them in a browser.

#![deny(missing_docs)]

pub mod adaptive;
pub mod axis;
pub mod claims;
mod error;
pub mod html;
pub mod identity;
pub mod interval;
pub mod lock;
pub mod manifest;
pub mod metric;
pub mod plan;
pub mod plots;
pub mod policy_report;
pub mod prepare;
pub mod relaxation;
pub mod report;
pub mod resolve;
pub mod runner;
pub mod shard;
pub mod spec;
pub mod store;
pub mod values;

pub use error::ExperimentError;
pub use resolve::Experiment;
pub use runner::{
    Progress, RunOptions, WorkerWrapper, data_file_hashes, modified_data_files, no_progress, preflight,
    report_experiment, run_experiment, run_experiments, run_single, run_single_with_jobs,
};
pub use shard::Shard;
pub use spec::ExperimentSpec;

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    /// Each module's `crate::<module>` references, read from the sources.
    fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let modules: BTreeMap<String, String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter_map(|path| {
                let name = path.file_stem()?.to_str()?.to_string();
                (name != "lib").then(|| (name, std::fs::read_to_string(&path).unwrap()))
            })
            .collect();
        modules
            .iter()
            .map(|(name, text)| {
                let used = modules
                    .keys()
                    .filter(|other| *other != name && text.contains(&format!("crate::{other}")))
                    .cloned()
                    .collect();
                (name.clone(), used)
            })
            .collect()
    }

    #[test]
    fn modules_form_no_cycle() {
        let graph = module_graph();
        // Depth-first search for a path back to the start.
        fn reaches(
            graph: &BTreeMap<String, BTreeSet<String>>,
            from: &str,
            target: &str,
            seen: &mut BTreeSet<String>,
        ) -> bool {
            graph[from]
                .iter()
                .any(|next| next == target || (seen.insert(next.clone()) && reaches(graph, next, target, seen)))
        }
        for module in graph.keys() {
            assert!(
                !reaches(&graph, module, module, &mut BTreeSet::new()),
                "module '{module}' depends on itself: {graph:?}"
            );
        }
        assert!(graph["resolve"].contains("spec") && graph["report"].contains("claims"), "{graph:?}");
    }
}
