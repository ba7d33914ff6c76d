//! `schedlab trace stats`: what a trace file holds; `schedlab trace export`: a spec's workload
//! as a Gavel `.trace`.

use anyhow::{Context as _, Result, bail};
use schedlab_core::DataDir;
use schedlab_trace::TraceFormat;
use std::path::Path;

/// Builds the workload of `spec`'s run for `seed` at `point` (`AXIS=VALUE,...`; default the
/// first point) and writes its first `jobs` jobs (default all) in Gavel's 10-column layout.
pub fn export(spec: &Path, seed: u64, point: Option<&str>, jobs: Option<usize>, out: &Path) -> Result<()> {
    let experiment = crate::specs::load(spec, &DataDir::locate())?;
    let wanted: Vec<(String, f64)> = match point {
        None => Vec::new(),
        Some(text) => text
            .split(',')
            .map(|pair| {
                let (name, value) = pair.split_once('=').with_context(|| {
                    format!("--point '{text}': expected AXIS=VALUE pairs separated by ',', e.g. rate_per_hour=5.2")
                })?;
                let value: f64 = value
                    .trim()
                    .parse()
                    .with_context(|| format!("--point '{text}': '{}' is not a number", value.trim()))?;
                Ok((name.trim().to_string(), value))
            })
            .collect::<Result<_>>()?,
    };
    let runs = experiment.runs();
    let matches = |plan: &schedlab_experiment::plan::RunPlan| {
        wanted.iter().all(|(name, value)| plan.point.0.iter().any(|(axis, at)| axis == name && at == value))
    };
    let Some(plan) = runs.iter().find(|plan| plan.seed == seed && matches(plan)) else {
        let mut points: Vec<String> = runs.iter().map(|plan| plan.point.label()).collect();
        points.dedup();
        bail!(
            "{}: no run with seed {seed}{} (seeds {:?}; points: {})",
            spec.display(),
            point.map(|point| format!(" at {point}")).unwrap_or_default(),
            experiment.seeds,
            if points.iter().all(String::is_empty) { "none, the spec has no sweep".into() } else { points.join(", ") }
        );
    };
    let prepared = experiment.setup.workload(&experiment.inputs.workload, plan)?;
    let count = jobs.unwrap_or(prepared.jobs.len()).min(prepared.jobs.len());
    let text = schedlab_trace::formats::gavel::write_as_gavel(&prepared.jobs[..count]);
    if out == Path::new("-") {
        print!("{text}");
    } else {
        std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
        eprintln!("wrote {count} jobs ({}) to {}", plan.workload_key, out.display());
    }
    Ok(())
}

/// Loads a trace and prints what was read, kept and left out, and its distributions.
pub fn stats(format: TraceFormat, path: &std::path::Path, json: bool) -> Result<()> {
    let trace = format.load(path)?;
    let stats = schedlab_trace::stats::stats(&trace);
    if json {
        println!("{}", serde_json::to_string_pretty(&stats)?);
        return Ok(());
    }
    let pairs = |items: &[(String, usize)]| -> String {
        items.iter().map(|(key, count)| format!("{key}: {count}")).collect::<Vec<_>>().join(", ")
    };
    println!("{:<18}{} ({})", "trace", stats.path, stats.format);
    println!("{:<18}{} read, {} kept", "rows", stats.rows, stats.kept);
    for (reason, count) in &stats.dropped {
        println!("{:<18}{count} left out: {reason}", "");
    }
    for (correction, count) in &stats.adjusted {
        println!("{:<18}{count} kept where {correction}", "");
    }
    println!("{:<18}{} (removed by the dedup transform)", "exact duplicates", stats.duplicates);
    println!("{:<18}{}", "GPUs -> jobs", pairs(&stats.gpu_histogram));
    if stats.duration_quantiles.is_empty() {
        println!("{:<18}not recorded", "duration");
    } else {
        let quantiles: Vec<String> =
            stats.duration_quantiles.iter().map(|(p, value)| format!("p{p}: {value:.0}")).collect();
        println!("{:<18}{} (seconds)", "duration", quantiles.join(", "));
    }
    println!(
        "{:<18}{} .. {} ({:.1} days)",
        "submitted",
        stats.first_submit,
        stats.last_submit,
        stats.span_seconds / 86_400.0
    );
    println!("{:<18}{}", "jobs per VC", pairs(&stats.per_vc));
    println!("{:<18}{} distinct; most jobs: {}", "users", stats.users, pairs(&stats.top_users));
    println!("{:<18}{}", "status", pairs(&stats.statuses));
    println!("{:<18}{:.0} bytes per job", "memory", stats.bytes_per_job);
    Ok(())
}
