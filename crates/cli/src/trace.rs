//! `schedlab trace stats`: what a trace file holds.

use anyhow::Result;
use schedlab_trace::TraceFormat;

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
