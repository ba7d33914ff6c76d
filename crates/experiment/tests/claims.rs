use crate::common::{SMALL, run, temp_dir};

#[test]
fn claims_are_checked_and_misses_reported() {
    let dir = temp_dir("claims");
    let baseline = run(SMALL, &dir, 2).unwrap();
    let at = |policy: &str| {
        let values: Vec<f64> = baseline
            .outcomes
            .iter()
            .filter(|outcome| outcome.policy == policy && outcome.point[0].1 == 1.0)
            .map(|outcome| outcome.metrics.avg_jct / 3600.0)
            .collect();
        values.iter().sum::<f64>() / values.len() as f64
    };
    let ratio = at("fifo") / at("srtf");
    let claims = format!(
        "claims:\n  - {{source: test, text: holds, metric: avg_jct_hours, ratio: [fifo, srtf], at: {{rate_per_hour: 1.0}}, expected: {ratio}, tolerance: 0.01}}\n  \
         - {{source: test, text: misses, metric: avg_jct_hours, policy: las, expected: 1000000, tolerance: 0.1}}\n"
    );
    let result = run(&format!("{SMALL}{claims}"), &dir, 2).unwrap();
    assert_eq!(result.reused, 12, "claims do not change what results depend on");
    let verdicts: Vec<(&str, bool)> =
        result.claims.iter().map(|claim| (claim.claim.text.as_str(), claim.holds)).collect();
    assert_eq!(verdicts, vec![("holds", true), ("misses", false)]);
    let markdown = std::fs::read_to_string(dir.join("small/claims.md")).unwrap();
    assert!(markdown.contains("| misses (avg_jct_hours of las) | test | 1000000 |"), "{markdown}");
    assert!(markdown.contains("MISSED"), "{markdown}");
}
