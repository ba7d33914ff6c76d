use crate::common::{SMALL, parse, run, temp_dir};

fn error(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn a_typo_in_a_key_names_the_key_and_line() {
    let message = error(&SMALL.replace("seeds:", "sedes:"));
    assert!(message.contains("line 8"), "{message}");
    assert!(message.contains("unknown field `sedes`"), "{message}");
}

#[test]
fn a_wrong_type_names_the_line() {
    let message = error(&SMALL.replace("seeds: [0, 1]", "seeds: [zero]"));
    assert!(message.contains("line 8"), "{message}");
}

#[test]
fn an_unknown_policy_is_reported_at_its_line() {
    let message = error(&SMALL.replace("policies: [fifo, las, srtf]", "policies: [fifo, lass, srtf]"));
    assert!(message.contains("line 7"), "{message}");
    assert!(message.contains("unknown policy 'lass'; known policies: fifo"), "{message}");
    let message = error(&SMALL.replace("policies: [fifo, las, srtf]", "policies: [fifo, \"las[quantum=x]\"]"));
    assert!(message.contains("parameter 'quantum': expected a non-negative number"), "{message}");
}

#[test]
fn unknown_metrics_axes_and_claim_policies_are_refused() {
    let message = error(&SMALL.replace("metric: avg_jct_hours, rows", "metric: avg_jct_days, rows"));
    assert!(message.contains("unknown metric 'avg_jct_days'; expected one of avg_jct_hours"), "{message}");
    let message = error(&SMALL.replace("columns: rate_per_hour", "columns: load"));
    assert!(message.contains("unknown parameter 'load'; expected one of policy, seed, rate_per_hour"), "{message}");
    let claim =
        "claims:\n  - {source: x, text: y, metric: avg_jct_hours, policy: gavel, expected: 1, tolerance: 0.1}\n";
    let message = error(&format!("{SMALL}{claim}"));
    assert!(message.contains("policy 'gavel' is not in policies"), "{message}");
}

#[test]
fn a_missing_data_file_names_the_file_its_line_and_source() {
    let spec = "name: missing\nworkload:\n  trace: {format: philly-pollux, path: philly/no-such-file.csv}\n\
                cluster:\n  compact: {gpus: {v100: 8}, gpus_per_node: 4}\npolicies: [fifo]\n";
    let message = run(spec, &temp_dir("missing"), 1).unwrap_err().to_string();
    assert!(message.starts_with("spec.yaml:3: data file 'philly/no-such-file.csv'"), "{message}");
    assert!(message.contains("public source: Philly traces"), "{message}");
}

#[test]
fn ftf_rho_needs_a_reference_policy_from_the_spec() {
    let without = format!(
        "{SMALL}claims:\n  - {{source: s, text: t, metric: ftf_rho, policy: las, expected: 1, tolerance: 0.1}}\n"
    );
    let error = parse(&without).unwrap_err().to_string();
    assert!(error.contains("ftf_rho needs fairness_reference"), "{error}");
    let elsewhere = format!("{SMALL}fairness_reference: sjf\n");
    let error = parse(&elsewhere).unwrap_err().to_string();
    assert!(error.contains("fairness_reference: 'sjf' is not in policies"), "{error}");
}
