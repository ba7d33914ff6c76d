//! `schedlab list policies|experiments|formats|metrics`.

use crate::flags::ListWhat;
use anyhow::Result;
use schedlab_trace::TraceFormat;

/// Lists what was asked for, as text or JSON.
pub fn list(what: ListWhat, json: bool) -> Result<()> {
    match what {
        ListWhat::Policies => policies(json),
        ListWhat::Experiments => {
            let names = crate::specs::experiments();
            if json {
                println!("{}", serde_json::to_string_pretty(&names)?);
            } else {
                names.iter().for_each(|name| println!("{name}"));
            }
            Ok(())
        }
        ListWhat::Formats => formats(json),
        ListWhat::Metrics => metrics(json),
    }
}

/// Every metric with its unit and definition: a Markdown table (docs/spec.md's glossary is this
/// output), or JSON.
pub fn metrics(json: bool) -> Result<()> {
    use schedlab_experiment::metric::Metric;
    if json {
        let metrics: Vec<serde_json::Value> = Metric::ALL
            .iter()
            .map(|metric| {
                serde_json::json!({"name": metric.name(), "unit": metric.unit(), "definition": metric.definition()})
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&metrics)?);
        return Ok(());
    }
    println!("| metric | unit | definition |");
    println!("|---|---|---|");
    for metric in Metric::ALL {
        println!("| `{}` | {} | {} |", metric.name(), metric.unit(), metric.definition());
    }
    Ok(())
}

/// Every trace format with its description.
pub fn formats(json: bool) -> Result<()> {
    if json {
        let formats: Vec<serde_json::Value> = TraceFormat::ALL
            .iter()
            .map(|format| serde_json::json!({"name": format.name(), "description": format.description()}))
            .collect();
        println!("{}", serde_json::to_string_pretty(&formats)?);
        return Ok(());
    }
    for format in TraceFormat::ALL {
        println!("{:18}{}", format.name(), format.description());
    }
    Ok(())
}

fn policies(json: bool) -> Result<()> {
    if json {
        let entries: Vec<serde_json::Value> = schedlab_zoo::entries()
            .map(|entry| {
                serde_json::json!({
                    "name": entry.name,
                    "description": entry.description,
                    "oracle": entry.oracle,
                    "params": entry.params_text(),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&entries)?);
        return Ok(());
    }
    let width = schedlab_zoo::entries().map(|entry| entry.name.len()).max().unwrap_or(0);
    for entry in schedlab_zoo::entries() {
        println!("{:width$}  {}", entry.name, entry.description);
        let params = entry.params_text();
        if !params.is_empty() {
            println!("{:width$}    params: {params}", "");
        }
    }
    println!("\nWrite parameters as NAME[key=value,...], e.g. las[quantum=60].");
    Ok(())
}
