use crate::common::{SMALL, run, temp_dir};

#[test]
fn claims_are_checked_and_misses_reported() {
    let dir = temp_dir("claims");
    let baseline = run(SMALL, &dir, 2).unwrap();
    let at = |policy: &str| -> Vec<f64> {
        baseline
            .outcomes
            .iter()
            .filter(|outcome| outcome.policy == policy && outcome.point[0].1 == 1.0)
            .map(|outcome| outcome.metrics.avg_jct / 3600.0)
            .collect()
    };
    // The interval worked out from the runs (two seeds: a mean's t-interval on the log scale),
    // and a band just wide enough to hold it: the claim holds only if the verdict code builds
    // the same interval, and a band 10% narrower leaves it inconclusive.
    let estimate = schedlab_experiment::interval::Estimate::mean(&at("fifo")).unwrap();
    let (lower, upper) = estimate.interval.unwrap();
    let mean = estimate.value;
    assert!(lower < mean && mean < upper, "two seeds that differ give an interval of some width");
    let tolerance = ((upper - mean).max(mean - lower) / mean) * 1.001;
    let claims = format!(
        "claims:\n  - {{source: test, text: holds, metric: avg_jct_hours, policy: fifo, at: {{rate_per_hour: 1.0}}, expected: {mean}, tolerance: {tolerance}}}\n  \
         - {{source: test, text: misses, metric: avg_jct_hours, policy: las, expected: 1000000, tolerance: 0.1}}\n  \
         - {{source: test, text: too narrow, metric: avg_jct_hours, policy: fifo, at: {{rate_per_hour: 1.0}}, expected: {mean}, tolerance: {}}}\n",
        tolerance * 0.9
    );
    let result = run(&format!("{SMALL}{claims}"), &dir, 2).unwrap();
    assert_eq!(result.reused, 12, "claims do not change what results depend on");
    let verdicts: Vec<(&str, &str)> =
        result.claims.iter().map(|claim| (claim.claim.text.as_str(), claim.verdict.name())).collect();
    assert_eq!(verdicts, vec![("holds", "holds"), ("misses", "missed"), ("too narrow", "inconclusive")]);
    assert_eq!(result.claims[0].estimate.unwrap().interval, Some((lower, upper)));
    // A missing run makes the claims that read it incomplete, naming it: never missed.
    let experiment = crate::common::parse(&format!("{SMALL}{claims}")).unwrap();
    let fewer: Vec<_> = result
        .outcomes
        .iter()
        .filter(|outcome| !(outcome.policy == "las" && outcome.seed == 1 && outcome.point[0].1 == 0.5))
        .cloned()
        .collect();
    let judged = schedlab_experiment::claims::evaluate(&experiment, &fewer, &Default::default());
    let names: Vec<&str> = judged.iter().map(|claim| claim.verdict.name()).collect();
    assert_eq!(names, ["holds", "incomplete", "inconclusive"]);
    assert_eq!(
        judged[1].verdict,
        schedlab_experiment::interval::Verdict::Incomplete {
            missing: vec!["policy=las;rate_per_hour=0.5;seed=1".into()],
            count: 1
        }
    );
    // A run that ended at sim.max_time with measured jobs unfinished makes the claims that read
    // it inconclusive, naming it (its mean covers only the jobs that finished): never missed nor
    // held, and no more seeds are looked for.
    let mut censored = result.outcomes.clone();
    let capped = censored
        .iter_mut()
        .find(|outcome| outcome.policy == "las" && outcome.seed == 1 && outcome.point[0].1 == 0.5)
        .unwrap();
    capped.metrics.jobs_finished = capped.metrics.jobs_measured - 1;
    let judged = schedlab_experiment::claims::evaluate(&experiment, &censored, &Default::default());
    let names: Vec<&str> = judged.iter().map(|claim| claim.verdict.name()).collect();
    assert_eq!(names, ["holds", "inconclusive", "inconclusive"]);
    assert_eq!(
        judged[1].verdict,
        schedlab_experiment::interval::Verdict::Censored {
            runs: vec!["policy=las;rate_per_hour=0.5;seed=1".into()],
            count: 1
        }
    );
    assert!(schedlab_experiment::adaptive::settles(&judged[1].verdict));
    let text = schedlab_experiment::claims::verdict_text(&judged[1].verdict, judged[1].unit, 2);
    assert!(
        text.starts_with("inconclusive (1 runs ended at sim.max_time before every measured job finished"),
        "{text}"
    );
    let markdown = std::fs::read_to_string(dir.join("small/claims.md")).unwrap();
    assert!(markdown.contains("| misses (avg_jct_hours of las) | test | 1000000 |"), "{markdown}");
    assert!(markdown.contains("MISSED"), "{markdown}");
    // The results folder's claims.md lists every experiment's claims and counts each verdict.
    let summary = std::fs::read_to_string(dir.join("claims.md")).unwrap();
    assert!(summary.contains("| small | misses | 1000000 |"), "{summary}");
    assert!(
        summary.ends_with("\n3 claims: 1 hold, 1 missed, 1 inconclusive, 0 unreachable here, 0 incomplete.\n"),
        "{summary}"
    );
    let csv = std::fs::read_to_string(dir.join("claims.csv")).unwrap();
    assert!(csv.starts_with(
        "experiment,claim,source,metric,direction,expected,tolerance,measured,lower,upper,confidence,n_units,unit,unit_why,n_seeds,verdict"
    ));
    // A claims.csv that another version wrote is named, not read (and nothing panics).
    std::fs::create_dir_all(dir.join("old")).unwrap();
    std::fs::write(dir.join("old/claims.csv"), "claim,measured,holds\nx,1,true\n").unwrap();
    schedlab_experiment::report::write_results_claims(&dir).unwrap();
    let summary = std::fs::read_to_string(dir.join("claims.md")).unwrap();
    assert!(
        summary.contains("3 claims: 1 hold") && summary.contains("Not listed: the claims.csv of old was written"),
        "{summary}"
    );
}

#[test]
fn finish_time_fairness_divides_each_jobs_jct_by_its_jct_under_the_reference() {
    let dir = temp_dir("ftf-rho");
    let text = format!(
        "{SMALL}fairness_reference: fifo\nclaims:\n  - {{source: test, text: rho, metric: ftf_rho, policy: las, expected: 1.0, tolerance: 10.0}}\n"
    );
    let result = run(&text, &dir, 2).unwrap();
    let experiment = crate::common::parse(&text).unwrap();
    for outcome in &result.outcomes {
        let rho = schedlab_experiment::values::outcome_metric(
            &experiment,
            &result.outcomes,
            outcome,
            schedlab_experiment::metric::Metric::FtfRho,
        );
        // Worked out from the stored per-job JCTs: the mean of JCT / reference JCT over the jobs
        // both runs finished.
        let reference = result
            .outcomes
            .iter()
            .find(|other| other.policy == "fifo" && other.seed == outcome.seed && other.point == outcome.point)
            .unwrap();
        let ratios: Vec<f64> = outcome
            .jct_by_job
            .iter()
            .filter_map(|(job, jct)| {
                reference.jct_by_job.iter().find(|(other, _)| other == job).map(|(_, base)| jct / base)
            })
            .collect();
        let expected = ratios.iter().sum::<f64>() / ratios.len() as f64;
        assert!((rho - expected).abs() < 1e-12, "{}: {rho} vs {expected}", outcome.key);
        if outcome.policy == "fifo" {
            assert_eq!(rho, 1.0);
        }
    }
    assert_eq!(result.claims.len(), 1);
    assert!(result.claims[0].measured.is_some_and(f64::is_finite), "{:?}", result.claims[0]);
    // The reference's run is part of what the claim reads: without it the claim is incomplete,
    // naming that run (its rho cannot be worked out), not judged on the seeds that are left.
    let without_reference: Vec<_> = result
        .outcomes
        .iter()
        .filter(|outcome| !(outcome.policy == "fifo" && outcome.seed == 1 && outcome.point[0].1 == 0.5))
        .cloned()
        .collect();
    let judged = schedlab_experiment::claims::evaluate(&experiment, &without_reference, &Default::default());
    assert_eq!(
        judged[0].verdict,
        schedlab_experiment::interval::Verdict::Incomplete {
            missing: vec!["policy=fifo;rate_per_hour=0.5;seed=1".into()],
            count: 1
        }
    );
}

#[test]
fn a_best_case_claim_takes_the_extreme_ratio_over_baselines_and_sweep_points() {
    let dir = temp_dir("claims-best");
    let baseline = run(SMALL, &dir, 2).unwrap();
    let mean = |policy: &str, rate: f64| {
        let values: Vec<f64> = baseline
            .outcomes
            .iter()
            .filter(|outcome| outcome.policy == policy && outcome.point[0].1 == rate)
            .map(|outcome| outcome.metrics.avg_jct / 3600.0)
            .collect();
        values.iter().sum::<f64>() / values.len() as f64
    };
    // Worked out over both rates and both baselines.
    let mut ratios = Vec::new();
    for rate in [0.5, 1.0] {
        for against in ["fifo", "las"] {
            ratios.push((mean("srtf", rate) / mean(against, rate), format!("vs {against} at rate_per_hour={rate}")));
        }
    }
    let smallest = ratios.iter().min_by(|a, b| a.0.total_cmp(&b.0)).unwrap().clone();
    let largest = ratios.iter().max_by(|a, b| a.0.total_cmp(&b.0)).unwrap().clone();
    let claims = format!(
        "claims:\n  - {{source: test, text: cut, metric: avg_jct_hours, best_ratio: {{policy: srtf, against: [fifo, las], best: min}}, expected: {}, tolerance: 0.001}}\n  \
         - {{source: test, text: gain, metric: avg_jct_hours, best_ratio: {{policy: srtf, against: [fifo, las], best: max}}, expected: {}, tolerance: 0.001}}\n  \
         - {{source: test, text: one rate, metric: avg_jct_hours, best_ratio: {{policy: srtf, against: [fifo, las], best: min}}, at: {{rate_per_hour: 0.5}}, expected: 1, tolerance: 100}}\n",
        smallest.0, largest.0
    );
    let result = run(&format!("{SMALL}{claims}"), &dir, 2).unwrap();
    assert_eq!(result.claims[0].measured, Some(smallest.0));
    assert_eq!(result.claims[0].best_case.as_deref(), Some(smallest.1.as_str()));
    assert_eq!(result.claims[1].measured, Some(largest.0));
    // Each best case comes with the interval that accounts for its selection: every pair of
    // the four at 1 - 0.05 / 4, and from the best lower end to the best upper end.
    let runs = |policy: &str, rate: f64| -> Vec<f64> {
        baseline
            .outcomes
            .iter()
            .filter(|outcome| outcome.policy == policy && outcome.point[0].1 == rate)
            .map(|outcome| outcome.metrics.avg_jct / 3600.0)
            .collect()
    };
    let mut ends = Vec::new();
    for rate in [0.5, 1.0] {
        for against in ["fifo", "las"] {
            let pair = schedlab_experiment::interval::Estimate::ratio_at(
                &runs("srtf", rate),
                &runs(against, rate),
                1.0 - 0.05 / 4.0,
            )
            .unwrap();
            ends.push(pair.interval.unwrap());
        }
    }
    let lowest = |values: Vec<f64>| values.into_iter().fold(f64::INFINITY, f64::min);
    let highest = |values: Vec<f64>| values.into_iter().fold(f64::NEG_INFINITY, f64::max);
    let smallest_interval =
        (lowest(ends.iter().map(|end| end.0).collect()), lowest(ends.iter().map(|end| end.1).collect()));
    let largest_interval =
        (highest(ends.iter().map(|end| end.0).collect()), highest(ends.iter().map(|end| end.1).collect()));
    assert_eq!(result.claims[0].estimate.unwrap().interval, Some(smallest_interval));
    assert_eq!(result.claims[1].estimate.unwrap().interval, Some(largest_interval));
    assert_eq!(result.claims[0].estimate.unwrap().confidence, 1.0 - 0.05 / 4.0);
    let at_half = ratios[..2].iter().map(|(ratio, _)| *ratio).fold(f64::INFINITY, f64::min);
    assert_eq!(result.claims[2].measured, Some(at_half));
    let markdown = std::fs::read_to_string(dir.join("small/claims.md")).unwrap();
    assert!(markdown.contains("smallest avg_jct_hours of srtf / any of fifo, las"), "{markdown}");
    assert!(markdown.contains(&format!("({})", smallest.1)), "{markdown}");
    // A baseline that is not in policies is refused at its claim.
    let error = crate::common::parse(&format!(
        "{SMALL}claims:\n  - {{source: test, text: bad, metric: avg_jct_hours, best_ratio: {{policy: srtf, against: [sjf], best: min}}, expected: 1, tolerance: 1}}\n"
    ))
    .unwrap_err()
    .to_string();
    assert!(error.contains("policy 'sjf' is not in policies"), "{error}");
}

/// Philly windows of 256 jobs, episodes 5, 6, ... added in looks at 3, 6 and 12.
const ADAPTIVE_EPISODES: &str = "name: episodes
workload:
  trace: {format: philly-pollux, path: philly/philly-pollux.csv}
  transforms: [dedup, sort, {window: {from: \"2017-10-07\", to: \"2017-12-01\"}}, {episode: {jobs: 256}}]
  model: rigid
cluster:
  nodes: [{gpu_type: p100, gpus: 2, count: 16}, {gpu_type: p100, gpus: 8, count: 20}]
perf: rigid
policies: [rltune-fcfs, rltune-sjf, rltune-f1]
seeds: [0, 1]
sweep:
  scale_rate: [1, 4]
  episode: {from: 5, min: 3, max: 12, settle: claims}
tables:
  - {name: bsld, metric: avg_bounded_slowdown, rows: policy, columns: scale_rate}
claims:
  - {source: Test, text: SJF bsld ratio, metric: avg_bounded_slowdown, ratio: [rltune-sjf, rltune-fcfs], at: {scale_rate: 4}, expected: 0.5, tolerance: 0.9}
  - {source: Test, text: F1 jct ratio, metric: avg_jct_hours, ratio: [rltune-f1, rltune-fcfs], at: {scale_rate: 1}, expected: 1.0, tolerance: 0.02}
  - {source: Test, text: FCFS utilisation, metric: utilization, policy: rltune-fcfs, at: {scale_rate: 4}, expected: 0.3, tolerance: 0.5}
";

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn adaptive_episodes_add_windows_to_every_policy_at_the_open_claims_points_and_resume() {
    schedlab_core::datadir::test_data_file(&crate::common::root(), "philly/philly-pollux.csv");
    let dir = temp_dir("adaptive-episodes");
    let two = run(ADAPTIVE_EPISODES, &dir.join("two"), 2).unwrap();
    // Windows per (policy, scale_rate), counting distinct episodes over both seeds.
    let windows = |policy: &str, scale: f64| {
        let mut episodes: Vec<u64> = two
            .outcomes
            .iter()
            .filter(|outcome| outcome.policy == policy && outcome.point[0].1 == scale)
            .map(|outcome| outcome.point[1].1 as u64)
            .collect();
        episodes.sort_unstable();
        episodes.dedup();
        episodes
    };
    // The F1 claim (scale 1) settles at the first look; the other two read scale 4, where every
    // policy (not only the claims' own) gets episodes 5 to 16.
    for policy in ["rltune-fcfs", "rltune-sjf", "rltune-f1"] {
        assert_eq!(windows(policy, 1.0), vec![5, 6, 7], "{policy}");
        assert_eq!(windows(policy, 4.0), (5..17).collect::<Vec<u64>>(), "{policy}");
    }
    assert_eq!(two.ran, 90);
    // Each claim judged on the episodes of the look that settled it (or the last), split over
    // the three planned looks.
    let judged: Vec<(&str, usize, usize, &str)> = two
        .claims
        .iter()
        .map(|claim| {
            let units = claim.estimate.as_ref().map_or(0, |estimate| estimate.n);
            (claim.claim.text.as_str(), units, claim.looks, claim.verdict.name())
        })
        .collect();
    assert_eq!(
        judged,
        vec![
            ("SJF bsld ratio", 12, 3, "missed"),
            ("F1 jct ratio", 3, 3, "holds"),
            ("FCFS utilisation", 12, 3, "inconclusive")
        ]
    );
    let csv = std::fs::read_to_string(dir.join("two/episodes/claims.csv")).unwrap();
    let level = (1.0 - 0.05 / 3.0f64).to_string();
    assert!(csv.lines().skip(1).all(|line| line.contains(&format!(",{level},"))), "{csv}");

    // Interrupted: a rerun computes the lost runs only, and one thread gives the same bytes.
    let lost: Vec<_> = crate::common::stored_runs(&dir.join("two"), "episodes")
        .into_iter()
        .filter(|path| path.to_string_lossy().contains("episode=16"))
        .collect();
    assert_eq!(lost.len(), 6, "three policies x two seeds at scale 4: {lost:?}");
    for path in &lost {
        std::fs::remove_file(path).unwrap();
    }
    let again = run(ADAPTIVE_EPISODES, &dir.join("two"), 2).unwrap();
    assert_eq!((again.ran, again.reused), (6, 84));
    run(ADAPTIVE_EPISODES, &dir.join("one"), 1).unwrap();
    for file in ["runs.csv", "claims.csv", "bsld.csv", "claims.md"] {
        let read = |results: &str| std::fs::read(dir.join(results).join("episodes").join(file)).unwrap();
        assert_eq!(read("two"), read("one"), "{file}");
    }
    let note = std::fs::read_to_string(dir.join("two/episodes/claims.md")).unwrap();
    assert!(note.contains("Adaptive episodes: episodes were added in 3 planned looks"), "{note}");
}
