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
fn a_seed_that_is_not_a_non_negative_integer_says_what_a_seed_is() {
    // A nested list used to say "expected string scalar".
    for (seeds, found) in [
        ("[[1]]", "sequence"),
        ("[\"8\"]", "string \"8\""),
        ("[-1]", "integer `-1`"),
        ("[1.5]", "floating point `1.5`"),
    ] {
        let message = error(&SMALL.replace("seeds: [0, 1]", &format!("seeds: {seeds}")));
        assert!(message.contains("line 8"), "{seeds}: {message}");
        assert!(message.contains(&format!("{found}, expected a seed: a non-negative integer")), "{seeds}: {message}");
    }
    let largest = parse(&SMALL.replace("seeds: [0, 1]", "seeds: [18446744073709551615]")).unwrap();
    assert_eq!(largest.seeds, vec![u64::MAX]);
}

#[test]
fn an_unknown_policy_is_reported_at_its_line() {
    let message = error(&SMALL.replace("policies: [fifo, las, srtf]", "policies: [fifo, lass, srtf]"));
    assert!(message.contains("line 7"), "{message}");
    assert!(message.contains("unknown policy 'lass' (did you mean 'las'?); known policies: fifo"), "{message}");
    let message = error(&SMALL.replace("policies: [fifo, las, srtf]", "policies: [fifo, \"las[quantum=x]\"]"));
    assert!(message.contains("parameter 'quantum': expected a positive number"), "{message}");
}

#[test]
fn unknown_metrics_axes_and_claim_policies_are_refused() {
    let message = error(&SMALL.replace("metric: avg_jct_hours, rows", "metric: avg_jct_days, rows"));
    assert!(
        message
            .contains("unknown metric 'avg_jct_days' (did you mean 'avg_jct_hours'?); expected one of avg_jct_hours"),
        "{message}"
    );
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

#[test]
fn sweeps_seeds_policies_and_names_that_would_break_a_run_are_refused_at_resolution() {
    // Each of these used to pass `check` and then panic, repeat runs or write outside the
    // results folder; resolution refuses them with the key that is wrong.
    let cases = [
        (SMALL.replace("rate_per_hour: [0.5, 1.0]", "rate_per_hour: []"), "sweep: 'rate_per_hour' has no values"),
        (SMALL.replace("rate_per_hour: [0.5, 1.0]", "rate_per_hour: [0.5, 0.5]"), "lists 0.5 twice"),
        (SMALL.replace("rate_per_hour: [0.5, 1.0]", "jobs: [10.5]"), "jobs: expected a positive whole number"),
        (SMALL.replace("rate_per_hour: [0.5, 1.0]", "scale_rate: [2]"), "'scale_rate' applies to a trace workload"),
        (SMALL.replace("seeds: [0, 1]", "seeds: [0, 0]"), "seeds: 0 is listed twice"),
        (SMALL.replace("policies: [fifo, las, srtf]", "policies: [fifo, las, fifo]"), "'fifo' is listed twice"),
        (SMALL.replace("name: small", "name: '..'"), "name '..': expected a file name"),
        (SMALL.replace("name: small", "name: /tmp/x"), "name '/tmp/x': expected a file name"),
        (SMALL.replace("{name: avg_jct,", "{name: ../../pwned,"), "table '../../pwned': expected a file name"),
    ];
    for (text, expected) in &cases {
        let message = error(text);
        assert!(message.contains(expected), "expected '{expected}' in: {message}");
    }
}

#[test]
fn two_tables_with_one_name_are_refused() {
    let text = SMALL.replace(
        "tables:\n",
        "tables:\n  - {name: avg_jct, metric: utilization, rows: policy, columns: rate_per_hour}\n",
    );
    assert!(error(&text).contains("table 'avg_jct': two tables have this name"), "{}", error(&text));
}

#[test]
fn engine_settings_and_workloads_a_run_could_not_use_are_refused_at_resolution() {
    // Each used to pass `check`, then panic (NaN times), give NaN tables (empty windows) or
    // fail only inside `run`.
    let with = |extra: &str| format!("{SMALL}{extra}\n");
    let cases = [
        (with("sim: {restart_overhead: .nan}"), "restart_overhead must be a non-negative number"),
        (with("sim: {restart_overhead: -5}"), "restart_overhead must be a non-negative number"),
        (with("sim: {max_time: -1}"), "max_time must be a positive number"),
        (with("sim: {max_time: .inf}"), "max_time must be a positive number"),
        (with("sim: {window: {jobs: {first: 10, last: 5}}}"), "window jobs 10..5 is empty"),
        (with("sim: {fork_overhead: 1.5}"), "fork_overhead must be a fraction"),
        (
            SMALL.replace("jobs: 60, rate_per_hour: 0.5", "jobs: 0, rate_per_hour: 0.5"),
            "a generator needs at least one job",
        ),
        (
            SMALL
                .replace("sweep:\n  rate_per_hour: [0.5, 1.0]\n", "")
                .replace("rate_per_hour: 0.5,", "rate_per_hour: 0,"),
            "rate_per_hour must be a positive number",
        ),
        (SMALL.replace("workload:\n", "workload:\n  transforms: [sort]\n"), "transforms apply to traces"),
        (
            SMALL
                .replace("perf: rigid", "")
                .replace("cluster:", "perf: {trace_duration: {reference: v100, speedups: {k80: 0}}}\ncluster:"),
            "the speed factor of 'k80' must be a positive number",
        ),
        (
            SMALL.replace("cluster:", "perf: {trace_duration: {reference: v100, speedups: {a100: 2}}}\ncluster:"),
            "speed factor for 'a100', which is not a GPU type of the cluster (k80, v100)",
        ),
    ];
    for (text, expected) in &cases {
        let message = error(text);
        assert!(message.contains(expected), "expected '{expected}' in: {message}");
    }
}

#[test]
fn yaml_1_1_booleans_are_refused() {
    let message = error(&format!("{SMALL}sim: {{overhead_on_first_start: yes}}\n"));
    assert!(message.contains("line 16") && message.contains("invalid boolean"), "{message}");
    assert!(!message.contains("error:"), "one 'error:' prefix, the binary's: {message}");
    // Also inside the generator's externally tagged enum.
    let message = error(&SMALL.replace("multi_gpu: true", "multi_gpu: yes"));
    assert!(message.contains("line 4") && message.contains("invalid boolean"), "{message}");
}

#[test]
fn quoted_numbers_and_booleans_are_refused_where_numbers_and_booleans_are_expected() {
    // serde-saphyr reads "8" as 8 in a number field; the README says wrong types are errors.
    for (spec, line, column, value, what) in [
        (SMALL.replace("{jobs: 60,", "{jobs: \"60\","), 4, 30, "60", "number"),
        (SMALL.replace("rate_per_hour: [0.5, 1.0]", "rate_per_hour: [0.5, '1.0']"), 10, 24, "1.0", "number"),
        (format!("{SMALL}sim: {{overhead_on_first_start: \"true\"}}\n"), 16, 32, "true", "boolean"),
        (format!("{SMALL}sim:\n  restart_overhead: \"30\"\n"), 17, 21, "30", "number"),
    ] {
        let message = error(&spec);
        let expected = format!(
            "line {line} column {column}: \"{value}\" is quoted, so it is text, but a {what} is expected here: \
             write {value} without quotes"
        );
        assert!(message.contains(&expected), "{message}\nexpected: {expected}");
    }
    // Text that looks like a number stays text where text is expected.
    let named = parse(&SMALL.replace("name: small", "name: \"2024\"")).unwrap();
    assert_eq!(named.name(), "2024");
    let quoted_policy = parse(&SMALL.replace("policies: [fifo, las, srtf]", "policies: [\"fifo\", 'las', srtf]"));
    assert!(quoted_policy.is_ok());
}

#[test]
fn absurd_sizes_are_refused_by_check() {
    let message = error(&SMALL.replace("jobs: 60,", "jobs: 100000000000,"));
    assert!(message.contains("a generator of 100000000000 jobs is more than the 2000000"), "{message}");
    let message = error(&SMALL.replace("rate_per_hour: [0.5, 1.0]", "jobs: [10, 3000000]"));
    assert!(message.contains("expected a positive whole number of at most 2000000, got 3000000"), "{message}");
    let message = error(&SMALL.replace("{v100: 8, k80: 8}", "{v100: 4294967292, k80: 8}"));
    assert!(message.contains("nodes is more than the 1000000 nodes schedlab builds"), "{message}");
}

#[test]
fn typos_in_keys_policies_parameters_and_metrics_say_what_was_meant() {
    let key = error(&SMALL.replace("seeds:", "sedes:"));
    assert!(key.contains("unknown field `sedes` (did you mean 'seeds'?)"), "{key}");
    let policy = error(&SMALL.replace("policies: [fifo, las, srtf]", "policies: [fifo, lass, srtf]"));
    assert!(policy.contains("unknown policy 'lass' (did you mean 'las'?)"), "{policy}");
    let parameter = error(&SMALL.replace("policies: [fifo, las, srtf]", "policies: [fifo, \"las[quantun=60]\", srtf]"));
    assert!(parameter.contains("unknown parameter 'quantun' (did you mean 'quantum'?)"), "{parameter}");
    let metric = error(&SMALL.replace("metric: avg_jct_hours, rows", "metric: avg_jct_hour, rows"));
    assert!(metric.contains("unknown metric 'avg_jct_hour' (did you mean 'avg_jct_hours'?)"), "{metric}");
    let far = error(&SMALL.replace("policies: [fifo, las, srtf]", "policies: [fifo, zzzzzzzz, srtf]"));
    assert!(!far.contains("did you mean"), "nothing close, no guess: {far}");
}

#[test]
fn a_one_metric_table_with_rows_and_columns_alike_says_to_use_metrics() {
    let message = error(&SMALL.replace(
        "{name: avg_jct, metric: avg_jct_hours, rows: policy, columns: rate_per_hour}",
        "{name: avg_jct, metric: avg_jct_hours, rows: policy}",
    ));
    assert!(message.contains("table 'avg_jct': rows and columns are both 'policy'"), "{message}");
    assert!(message.contains("write `metrics: [avg_jct_hours]`"), "{message}");
}

#[test]
fn claims_say_what_their_verdicts_can_rest_on() {
    let claim = |extra: &str| {
        format!(
            "{SMALL}claims:\n  - {{source: x, text: y, metric: avg_jct_hours, ratio: [srtf, fifo], expected: 0.5, tolerance: 0.1{extra}}}\n"
        )
    };
    // The old key: heuristic references no longer make a claim unreachable.
    let message = error(&claim(", bounds: [srtf]"));
    assert!(message.contains("`bounds` is now `best_known`"), "{message}");
    assert!(parse(&claim(", best_known: [srtf], direction: at_most")).is_ok());
    let message = error(&claim(", direction: below"));
    assert!(message.contains("unknown variant `below`"), "{message}");
    // A proof-backed bound only where the relaxations apply: a metric they bound, every job
    // measured, rigid jobs.
    assert!(parse(&claim(", bound: relaxation")).is_ok());
    let message =
        error(&claim(", bound: relaxation").replace("metric: avg_jct_hours, ratio", "metric: p99_jct_hours, ratio"));
    assert!(message.contains("no relaxation bounds p99_jct_hours; it bounds avg_jct_hours"), "{message}");
    let windowed =
        claim(", bound: relaxation").replace("tables:", "sim: {window: {jobs: {first: 10, last: 50}}}\ntables:");
    assert!(error(&windowed).contains("needs every job measured"), "{}", error(&windowed));
    let throughputs = claim(", bound: relaxation")
        .replace("tables:", "perf: {throughputs: {path: gavel/simulation_throughputs.json}}\ntables:");
    let message = error(&throughputs);
    assert!(message.contains("needs rigid jobs with trace durations") || message.contains("data"), "{message}");
}

#[test]
fn a_ci95_table_that_pools_another_axis_is_refused() {
    let pooled = SMALL.replace(
        "  - {name: avg_jct, metric: avg_jct_hours, rows: policy, columns: rate_per_hour}",
        "  - {name: avg_jct, metrics: [avg_jct_hours], rows: policy, spread: ci95}",
    );
    let message = error(&pooled);
    assert!(message.contains("spread: ci95 would pool the runs of every rate_per_hour value"), "{message}");
    let shown = SMALL.replace(
        "  - {name: avg_jct, metric: avg_jct_hours, rows: policy, columns: rate_per_hour}",
        "  - {name: avg_jct, metric: avg_jct_hours, rows: policy, columns: rate_per_hour, spread: ci95}",
    );
    assert!(parse(&shown).is_ok());
}

#[test]
fn adaptive_episodes_are_refused_where_they_cannot_settle_claims() {
    let message = error(&SMALL.replace("rate_per_hour: [0.5, 1.0]", "rate_per_hour: {min: 2, max: 4, settle: claims}"));
    assert!(message.contains("only `episode` may be added until claims settle"), "{message}");
    assert!(message.contains("spec.yaml:10"), "{message}");
    let episodes = SMALL.replace("rate_per_hour: [0.5, 1.0]", "episode: {min: 3, max: 12, settle: claims}");
    let message = error(&episodes.replace("seeds: [0, 1]", "seeds: {min: 3, max: 6, settle: claims}"));
    assert!(message.contains("adaptive episodes with adaptive seeds: choose one"), "{message}");
    let message = error(&format!("{episodes}population: fixed\n"));
    assert!(message.contains("adaptive episodes with `population: fixed`"), "{message}");
    let message = error(&episodes.replace("min: 3", "min: 1"));
    assert!(message.contains("min 1 and max 12: expected 2 <= min <= max"), "{message}");
    let message = error(&episodes.replace("{min: 3, max: 12, settle: claims}", "{min: 3, max: 12}"));
    assert!(message.contains("missing field `settle`"), "{message}");
}
