//! How sure a claim's measured value is: a 95% confidence interval over replicate runs, and the
//! verdict it supports.
//!
//! A claim's value is a ratio of means, `R = mean(a) / mean(b)`, over `n` independent units
//! (each seed, or each workload a sample axis draws with its seeds' runs averaged:
//! `claims::Unit`), paired between the two policies of a ratio claim, which run on the same
//! workload; a single policy's value has `b = 1`. The
//! interval is the linearised (delta-method) Student-t interval of a ratio estimator:
//! with residuals `d_i = a_i - R b_i`, its half-width is `t(0.975, n - 1) s_d / (sqrt(n) |mean(b)|)`.
//! For one policy that is the usual t-interval of a mean; for a ratio, pairing seed by seed lets
//! the noise the two policies share (the workload of a seed) cancel in `d_i`.

/// Two-sided 95% quantile of Student's t distribution with `df` degrees of freedom (at least 1):
/// exact to three decimals up to 30, then the Cornish-Fisher expansion around the normal
/// quantile (error below 1e-4).
pub fn t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    assert!(df >= 1, "a t quantile needs at least one degree of freedom");
    if df <= TABLE.len() {
        return TABLE[df - 1];
    }
    let z: f64 = 1.959_963_984_540_054;
    let n = df as f64;
    z + (z.powi(3) + z) / (4.0 * n) + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * n * n)
}

/// A claim's measured value with its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// `mean(a) / mean(b)`.
    pub value: f64,
    /// The 95% interval; `None` with fewer than two replicates.
    pub interval: Option<(f64, f64)>,
    /// Replicates (paired runs).
    pub n: usize,
    /// `s_d / |mean(b)|`: the half-width with `m` replicates is `t_975(m - 1)` times this over
    /// `sqrt(m)` (used to say how many would settle a verdict).
    pub spread: f64,
}

impl Estimate {
    /// The estimate of `mean(numerators) / mean(denominators)` over paired replicates; `None`
    /// when there are none, or a mean of denominators is 0 or a value is not finite.
    pub fn ratio(numerators: &[f64], denominators: &[f64]) -> Option<Estimate> {
        assert_eq!(numerators.len(), denominators.len(), "paired replicates");
        let n = numerators.len();
        if n == 0 || numerators.iter().chain(denominators).any(|value| !value.is_finite()) {
            return None;
        }
        let mean = |values: &[f64]| values.iter().sum::<f64>() / n as f64;
        let (mean_a, mean_b) = (mean(numerators), mean(denominators));
        if mean_b == 0.0 {
            return None;
        }
        let value = mean_a / mean_b;
        if n == 1 {
            return Some(Estimate { value, interval: None, n, spread: f64::NAN });
        }
        let residuals: Vec<f64> = numerators.iter().zip(denominators).map(|(a, b)| a - value * b).collect();
        let centre = mean(&residuals);
        let variance = residuals.iter().map(|d| (d - centre).powi(2)).sum::<f64>() / (n - 1) as f64;
        let spread = variance.sqrt() / mean_b.abs();
        let half = t_975(n - 1) * spread / (n as f64).sqrt();
        Some(Estimate { value, interval: Some((value - half, value + half)), n, spread })
    }

    /// The estimate of one policy's mean.
    pub fn mean(values: &[f64]) -> Option<Estimate> {
        Estimate::ratio(values, &vec![1.0; values.len()])
    }
}

/// What the measurements say of a published value.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The whole interval lies inside the tolerance band.
    Holds,
    /// The whole interval lies outside it.
    Missed,
    /// The interval straddles an edge of the band (or there is a single replicate).
    Inconclusive {
        /// About how many replicates would settle it, at the spread measured; `None` when no
        /// number would (the value sits on the edge, or a single replicate gives no spread).
        replicates_needed: Option<usize>,
    },
    /// Not even the best reference policy (an oracle, say) reaches the band: its whole
    /// interval lies outside it, so no policy of its kind can meet the claim here.
    Unreachable {
        /// The reference policy that came closest.
        policy: String,
        /// Its value and interval.
        bound: Estimate,
    },
}

impl Verdict {
    /// The verdict's name as tables and CSV files write it.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Missed => "missed",
            Verdict::Inconclusive { .. } => "inconclusive",
            Verdict::Unreachable { .. } => "unreachable here",
        }
    }
}

/// Most replicates [`judge`] looks for when it says how many would settle a verdict.
pub const MAX_REPLICATES: usize = 10_000;

/// The band a claim accepts: `expected` within `tolerance x |expected|`.
pub fn band(expected: f64, tolerance: f64) -> (f64, f64) {
    (expected - tolerance * expected.abs(), expected + tolerance * expected.abs())
}

/// Judges an estimate against the band (without reference policies: see [`with_bound`]).
pub fn judge(estimate: &Estimate, expected: f64, tolerance: f64) -> Verdict {
    let (low, high) = band(expected, tolerance);
    let Some((lower, upper)) = estimate.interval else {
        return Verdict::Inconclusive { replicates_needed: None };
    };
    if lower >= low && upper <= high {
        return Verdict::Holds;
    }
    if upper < low || lower > high {
        return Verdict::Missed;
    }
    // Inside the band, the interval must shrink to the nearer edge; outside, to the edge it
    // straddles.
    let value = estimate.value;
    let distance = if (low..=high).contains(&value) {
        (value - low).min(high - value)
    } else {
        (value - low).abs().min((value - high).abs())
    };
    let replicates_needed = (distance > 0.0 && estimate.spread.is_finite())
        .then(|| {
            (estimate.n + 1..=MAX_REPLICATES).find(|&m| t_975(m - 1) * estimate.spread / (m as f64).sqrt() < distance)
        })
        .flatten();
    Verdict::Inconclusive { replicates_needed }
}

/// The verdict once reference policies are known: `bounds` are their estimates (reference
/// policy, estimate), `own` the claim's own verdict. When the bound closest to the published
/// value misses it wholly, the claim is unreachable here, unless the policy under test holds.
pub fn with_bound(own: Verdict, bounds: &[(String, Estimate)], expected: f64, tolerance: f64) -> Verdict {
    if own == Verdict::Holds {
        return own;
    }
    let closest = bounds.iter().min_by(|a, b| (a.1.value - expected).abs().total_cmp(&(b.1.value - expected).abs()));
    match closest {
        Some((policy, bound)) if judge(bound, expected, tolerance) == Verdict::Missed => {
            Verdict::Unreachable { policy: policy.clone(), bound: *bound }
        }
        _ => own,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_t_quantiles_match_the_tables() {
        assert_eq!((t_975(1), t_975(2), t_975(9), t_975(30)), (12.706, 4.303, 2.262, 2.042));
        // Tables: 2.021 at 40, 2.000 at 60, 1.984 at 100.
        for (df, table) in [(40, 2.021), (60, 2.000), (100, 1.984), (1000, 1.962)] {
            assert!((t_975(df) - table).abs() < 1e-3, "{df}: {}", t_975(df));
        }
    }

    #[test]
    fn a_mean_of_three_has_the_textbook_t_interval() {
        // 10, 12, 14: mean 12, s = 2, half-width 4.303 x 2 / sqrt(3) = 4.96868.
        let estimate = Estimate::mean(&[10.0, 12.0, 14.0]).unwrap();
        let (lower, upper) = estimate.interval.unwrap();
        assert_eq!(estimate.value, 12.0);
        assert!((lower - (12.0 - 4.96868)).abs() < 1e-4 && (upper - (12.0 + 4.96868)).abs() < 1e-4, "{estimate:?}");
    }

    #[test]
    fn a_paired_ratio_cancels_the_noise_the_pair_shares() {
        // a is exactly twice b on each seed, while the seeds differ threefold: the ratio is 2
        // with no spread at all.
        let estimate = Estimate::ratio(&[2.0, 6.0, 4.0], &[1.0, 3.0, 2.0]).unwrap();
        assert_eq!((estimate.value, estimate.interval), (2.0, Some((2.0, 2.0))));
        // By hand: R = 12 / 6 = 2; d = (2.2 - 2, 5.8 - 6, 4 - 4) = (0.2, -0.2, 0), s_d = 0.2,
        // half = 4.303 x 0.2 / (sqrt(3) x 2) = 0.24843.
        let estimate = Estimate::ratio(&[2.2, 5.8, 4.0], &[1.0, 3.0, 2.0]).unwrap();
        let (lower, upper) = estimate.interval.unwrap();
        assert!((lower - 1.75157).abs() < 1e-4 && (upper - 2.24843).abs() < 1e-4, "{estimate:?}");
        assert_eq!(Estimate::ratio(&[1.0], &[0.0]), None);
        assert_eq!(Estimate::ratio(&[f64::NAN], &[1.0]), None);
        assert_eq!(Estimate::mean(&[3.0]).unwrap().interval, None);
    }

    #[test]
    fn each_verdict_by_hand() {
        // Band of 2.0 +- 10%: [1.8, 2.2].
        let at = |value: f64, half: f64, n: usize| Estimate {
            value,
            interval: Some((value - half, value + half)),
            n,
            spread: half * (n as f64).sqrt() / t_975(n - 1),
        };
        assert_eq!(judge(&at(2.0, 0.1, 3), 2.0, 0.1), Verdict::Holds);
        assert_eq!(judge(&at(2.5, 0.2, 3), 2.0, 0.1), Verdict::Missed);
        assert_eq!(judge(&at(1.5, 0.2, 3), 2.0, 0.1), Verdict::Missed);
        // 2.1 +- 0.3 straddles 2.2; the half-width must fall below 0.1. With n = 3 the spread
        // is 0.3 sqrt(3) / 4.303 = 0.12076; m replicates give 0.12076 t(m-1) / sqrt(m): 0.1010
        // at m = 8 (t = 2.365), 0.0928 at m = 9 (t = 2.306).
        assert_eq!(judge(&at(2.1, 0.3, 3), 2.0, 0.1), Verdict::Inconclusive { replicates_needed: Some(9) });
        // On the edge nothing settles it; a single run has no interval.
        assert_eq!(judge(&at(2.2, 0.1, 3), 2.0, 0.1), Verdict::Inconclusive { replicates_needed: None });
        let single = Estimate::mean(&[2.0]).unwrap();
        assert_eq!(judge(&single, 2.0, 0.1), Verdict::Inconclusive { replicates_needed: None });
        // Unreachable: the closer of two oracles (1.2 against 1.0) still misses the band, so a
        // missed claim is unreachable here; a holding one stays held.
        let bounds = vec![("sjf".to_string(), at(1.0, 0.1, 3)), ("wfp".to_string(), at(1.2, 0.1, 3))];
        let verdict = with_bound(Verdict::Missed, &bounds, 2.0, 0.1);
        assert_eq!(verdict, Verdict::Unreachable { policy: "wfp".into(), bound: at(1.2, 0.1, 3) });
        assert_eq!(verdict.name(), "unreachable here");
        assert_eq!(with_bound(Verdict::Holds, &bounds, 2.0, 0.1), Verdict::Holds);
        // An oracle that reaches the band (or may) leaves the verdict as it was.
        let reaching = vec![("sjf".to_string(), at(1.9, 0.05, 3))];
        assert_eq!(with_bound(Verdict::Missed, &reaching, 2.0, 0.1), Verdict::Missed);
    }
}
