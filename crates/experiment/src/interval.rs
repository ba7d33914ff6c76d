//! How sure a claim's measured value is: a confidence interval over replicate units, and the
//! verdict it supports against the claim's band.
//!
//! A claim's value is a ratio of means, `R = mean(a) / mean(b)`, over `n` independent units
//! (`claims::Unit`), paired between the two policies of a ratio claim, which run on the same
//! workload; a single policy's value has `b = 1`.
//! - A single policy's mean of positive values (a JCT): the Student-t interval of the mean made
//!   on the log scale (delta method, standard error `s / (sqrt(n) mean)`): `R exp(+-t se)`,
//!   which stays positive and is wider above the mean than below, as a skewed mean's sampling
//!   distribution is. With a value at or below 0: the plain t-interval `R +- t s / sqrt(n)`.
//! - A ratio: Fieller's interval, every `r` for which a paired t-test cannot tell the mean of
//!   `d_i = a_i - r b_i` from 0, cut at 0 when no value is negative. It is exact for normal
//!   pairs, and unbounded when the denominators' mean is not clearly away from 0 at this `n`
//!   (then the claim is inconclusive). The delta-method interval of the ratio, `R +- t s_d /
//!   (sqrt(n) |mean(b)|)` with `s_d` the standard deviation of `a_i - R b_i`, covered skewed
//!   paired ratios only 92-94% of the time in the coverage test; Fieller's covers 95% or more.
//!
//! `t` is Student's quantile with `n - 1` degrees of freedom at the interval's confidence (95%,
//! or higher where a claim's error is split: [`Estimate::confidence`]). The coverage test
//! (`tests/coverage.rs`) checks by simulation that these intervals cover the truth at least 94%
//! of the time at n = 3 to 30, for normal and skewed units, single means and paired ratios.

pub use crate::metric::BoundSide;
pub use crate::spec::Direction;

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

/// `ln Gamma(x)` for `x > 0` (Lanczos, g = 7, nine coefficients: relative error below 1e-13).
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const COEFFICIENTS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = COEFFICIENTS[0];
    for (index, coefficient) in COEFFICIENTS.iter().enumerate().skip(1) {
        sum += coefficient / (x + index as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularised incomplete beta function `I_x(a, b)`, by its continued fraction (modified
/// Lentz), for `0 <= x <= 1`.
fn incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    // The fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
    if x > (a + 1.0) / (a + b + 2.0) {
        return 1.0 - incomplete_beta(1.0 - x, b, a);
    }
    const TINY: f64 = 1e-300;
    let (mut c, mut d) = (1.0, 1.0 - (a + b) * x / (a + 1.0));
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut fraction = d;
    for m in 1..=500 {
        let m = f64::from(m);
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        for coefficient in [even, -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0))] {
            d = 1.0 + coefficient * d;
            if d.abs() < TINY {
                d = TINY;
            }
            c = 1.0 + coefficient / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            fraction *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    front * fraction / a
}

/// `P(T <= t)` for Student's t distribution with `df` degrees of freedom.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * incomplete_beta(df / (df + t * t), df / 2.0, 0.5);
    if t >= 0.0 { 1.0 - tail } else { tail }
}

/// The two-sided quantile of Student's t distribution with `df` degrees of freedom at
/// confidence `confidence` (0.95 gives [`t_975`]): the `t` with `P(|T| <= t) = confidence`.
/// At 0.95 it is [`t_975`] itself (the tables the rest of the project quotes); otherwise the
/// distribution function is inverted by bisection to 1e-10.
pub fn t_quantile(confidence: f64, df: usize) -> f64 {
    assert!(df >= 1, "a t quantile needs at least one degree of freedom");
    assert!(confidence > 0.0 && confidence < 1.0, "a confidence lies strictly between 0 and 1");
    if confidence == 0.95 {
        return t_975(df);
    }
    // Judging a claim asks for the same few quantiles many times (a bisection over replicate
    // counts at the claim's confidence): each is computed once per thread.
    thread_local! {
        static KNOWN: std::cell::RefCell<std::collections::HashMap<(u64, usize), f64>> = Default::default();
    }
    let key = (confidence.to_bits(), df);
    if let Some(known) = KNOWN.with(|known| known.borrow().get(&key).copied()) {
        return known;
    }
    let quantile = t_quantile_by_bisection(confidence, df);
    KNOWN.with(|known| known.borrow_mut().insert(key, quantile));
    quantile
}

/// [`t_quantile`] computed: the distribution function inverted by bisection.
fn t_quantile_by_bisection(confidence: f64, df: usize) -> f64 {
    let target = 1.0 - (1.0 - confidence) / 2.0;
    let (mut low, mut high) = (0.0, 1.0);
    while t_cdf(high, df as f64) < target {
        high *= 2.0;
    }
    while high - low > 1e-10 * high.max(1.0) {
        let middle = 0.5 * (low + high);
        if t_cdf(middle, df as f64) < target {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

/// How an interval is made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// `R +- t se`: a mean with a value at or below 0, and policy reports.
    Linear,
    /// `R exp(+-t se)` with the error of `ln R`: a mean of positive values.
    Log,
    /// Fieller's interval of a ratio of means: every `r` whose paired residuals `a_i - r b_i`
    /// have a mean a t-test cannot tell from 0, within `[0, inf)` when no value is negative.
    Fieller(Moments),
}

/// The sample moments of paired units behind a Fieller interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    /// Means of the numerators and denominators.
    pub mean_a: f64,
    /// See `mean_a`.
    pub mean_b: f64,
    /// Sample variances (n - 1) and covariance.
    pub var_a: f64,
    /// See `var_a`.
    pub cov_ab: f64,
    /// See `var_a`.
    pub var_b: f64,
    /// Whether no value is negative (the ratio of means is then at least 0, and the interval
    /// is cut there).
    pub nonnegative: bool,
}

impl Moments {
    /// Fieller's set `{r : (mean_a - r mean_b)^2 <= q (var_a - 2 r cov_ab + r^2 var_b)}` with
    /// `q = t^2 / m`: an interval when the denominator's mean is clearly away from 0, else the
    /// whole line (within `[0, inf)` when no value is negative).
    fn fieller(&self, t: f64, m: usize) -> (f64, f64) {
        let q = t * t / m as f64;
        let a = self.mean_b * self.mean_b - q * self.var_b;
        let b = self.mean_a * self.mean_b - q * self.cov_ab;
        let c = self.mean_a * self.mean_a - q * self.var_a;
        let (lower, upper) = if a > 0.0 {
            let root = (b * b - a * c).max(0.0).sqrt();
            ((b - root) / a, (b + root) / a)
        } else {
            (f64::NEG_INFINITY, f64::INFINITY)
        };
        if self.nonnegative { (lower.max(0.0), upper) } else { (lower, upper) }
    }
}

/// A claim's measured value with its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// `mean(a) / mean(b)`.
    pub value: f64,
    /// The interval at [`Estimate::confidence`]; `None` with fewer than two replicates.
    pub interval: Option<(f64, f64)>,
    /// Replicates (paired units).
    pub n: usize,
    /// The standard deviation behind the interval (`s_d / |mean(b)|` on the linear scale and
    /// for Fieller's interval, `s_d / mean(a)` on the log scale): with `m` replicates the
    /// half-width on the linear or log scale is `t(m - 1)` times this over `sqrt(m)`.
    pub spread: f64,
    /// The scale of the interval.
    pub scale: Scale,
    /// Two-sided confidence of the interval: 0.95, or more where a claim's 5% is split
    /// (a best case over several pairs).
    pub confidence: f64,
}

impl Estimate {
    /// The estimate of `mean(numerators) / mean(denominators)` over paired replicates with a
    /// 95% interval; `None` when there are none, or a mean of denominators is 0 or a value is
    /// not finite.
    pub fn ratio(numerators: &[f64], denominators: &[f64]) -> Option<Estimate> {
        Estimate::ratio_at(numerators, denominators, 0.95)
    }

    /// [`Estimate::ratio`] at another confidence.
    pub fn ratio_at(numerators: &[f64], denominators: &[f64], confidence: f64) -> Option<Estimate> {
        Estimate::on_scale(numerators, denominators, confidence, None)
    }

    /// The estimate on `scale`, or (`None`) as the module documentation says: a mean of
    /// positive values on the log scale, another mean on the linear one, a ratio by Fieller.
    fn on_scale(numerators: &[f64], denominators: &[f64], confidence: f64, scale: Option<Scale>) -> Option<Estimate> {
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
        let positive = numerators.iter().chain(denominators).all(|value| *value > 0.0);
        let single = denominators.iter().all(|value| *value == denominators[0]);
        let variance_of = |x: &[f64], mean_x: f64, y: &[f64], mean_y: f64| {
            x.iter().zip(y).map(|(x, y)| (x - mean_x) * (y - mean_y)).sum::<f64>() / (n - 1).max(1) as f64
        };
        let moments = Moments {
            mean_a,
            mean_b,
            var_a: variance_of(numerators, mean_a, numerators, mean_a),
            cov_ab: variance_of(numerators, mean_a, denominators, mean_b),
            var_b: variance_of(denominators, mean_b, denominators, mean_b),
            nonnegative: numerators.iter().chain(denominators).all(|value| *value >= 0.0),
        };
        let scale = scale.unwrap_or(match (single, positive) {
            (true, true) => Scale::Log,
            (true, false) => Scale::Linear,
            (false, _) => Scale::Fieller(moments),
        });
        let mut estimate = Estimate { value, interval: None, n, spread: f64::NAN, scale, confidence };
        if n == 1 {
            return Some(estimate);
        }
        let residuals: Vec<f64> = numerators.iter().zip(denominators).map(|(a, b)| a - value * b).collect();
        let centre = mean(&residuals);
        let variance = residuals.iter().map(|d| (d - centre).powi(2)).sum::<f64>() / (n - 1) as f64;
        estimate.spread = match scale {
            Scale::Linear | Scale::Fieller(_) => variance.sqrt() / mean_b.abs(),
            Scale::Log => variance.sqrt() / mean_a,
        };
        estimate.interval = Some(estimate.interval_with(n));
        Some(estimate)
    }

    /// The estimate of one policy's mean with a 95% interval.
    pub fn mean(values: &[f64]) -> Option<Estimate> {
        Estimate::ratio(values, &vec![1.0; values.len()])
    }

    /// The plain Student-t interval of a mean on the linear scale (what policy reports show
    /// beside their means).
    pub fn linear_mean(values: &[f64]) -> Option<Estimate> {
        Estimate::on_scale(values, &vec![1.0; values.len()], 0.95, Some(Scale::Linear))
    }

    /// The interval this estimate's value and spread would have with `m` replicates.
    pub fn interval_with(&self, m: usize) -> (f64, f64) {
        let half = t_quantile(self.confidence, m - 1) * self.spread / (m as f64).sqrt();
        match self.scale {
            Scale::Linear => (self.value - half, self.value + half),
            Scale::Log => (self.value * (-half).exp(), self.value * half.exp()),
            Scale::Fieller(moments) => moments.fieller(t_quantile(self.confidence, m - 1), m),
        }
    }
}

/// The values a claim accepts: `low..=high`, either end open for a one-sided claim.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    /// The smallest value accepted, if any.
    pub low: Option<f64>,
    /// The largest value accepted, if any.
    pub high: Option<f64>,
}

impl Band {
    /// The band of `expected` with `tolerance x |expected|` on the side(s) `direction` says.
    pub fn new(expected: f64, tolerance: f64, direction: Direction) -> Band {
        let (low, high) = (expected - tolerance * expected.abs(), expected + tolerance * expected.abs());
        match direction {
            Direction::Within => Band { low: Some(low), high: Some(high) },
            Direction::AtLeast => Band { low: Some(low), high: None },
            Direction::AtMost => Band { low: None, high: Some(high) },
        }
    }

    /// Whether `value` is accepted.
    pub fn contains(&self, value: f64) -> bool {
        self.low.is_none_or(|low| value >= low) && self.high.is_none_or(|high| value <= high)
    }

    /// The band as tables show it: `[0.8, 1.2]`, `>= 0.8` or `<= 1.2`.
    pub fn text(&self) -> String {
        let show = |value: f64| format!("{value:.3}");
        match (self.low, self.high) {
            (Some(low), Some(high)) => format!("[{}, {}]", show(low), show(high)),
            (Some(low), None) => format!(">= {}", show(low)),
            (None, Some(high)) => format!("<= {}", show(high)),
            (None, None) => "any".to_string(),
        }
    }

    /// What an interval says: `Some(true)` wholly inside, `Some(false)` wholly outside,
    /// `None` straddling an edge.
    fn decides(&self, (lower, upper): (f64, f64)) -> Option<bool> {
        let inside = self.low.is_none_or(|low| lower >= low) && self.high.is_none_or(|high| upper <= high);
        let outside = self.low.is_some_and(|low| upper < low) || self.high.is_some_and(|high| lower > high);
        if inside {
            Some(true)
        } else if outside {
            Some(false)
        } else {
            None
        }
    }
}

/// A proof-backed bound on a claim's value: what no scheduler of `class` can beat on the
/// claim's workloads, with its interval over the same units as the claim.
#[derive(Clone, Debug, PartialEq)]
pub struct ProvenBound {
    /// Lower or upper.
    pub side: BoundSide,
    /// The bound's value and interval (for a ratio: the bound over the denominator's measured
    /// value, unit by unit).
    pub estimate: Estimate,
    /// The relaxation and the class of schedulers it holds for, in words.
    pub class: String,
}

/// What the measurements say of a published value.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The whole interval lies inside the band.
    Holds,
    /// The whole interval lies outside it.
    Missed,
    /// The interval straddles an edge of the band (or there is a single replicate).
    Inconclusive {
        /// About how many replicates would settle it, at the spread measured; `None` when no
        /// number would (the value sits on the edge, or a single replicate gives no spread).
        replicates_needed: Option<usize>,
    },
    /// Missed, and a proof says no scheduler of the bound's class can meet the claim here:
    /// the bound's whole interval lies beyond the band on the side the claim needs.
    Unreachable {
        /// The bound.
        bound: ProvenBound,
    },
    /// Runs the claim reads ended at `sim.max_time` before every measured job finished: their
    /// means cover only the jobs that finished, so nothing is judged, and more seeds cannot
    /// help (a run that did not drain stays so). Counted as inconclusive.
    Censored {
        /// The censored runs (run keys), at most a few of them named.
        runs: Vec<String>,
        /// How many there are in all.
        count: usize,
    },
    /// Runs the claim reads are missing, so nothing is judged.
    Incomplete {
        /// The missing runs (run keys), at most a few of them named.
        missing: Vec<String>,
        /// How many are missing in all.
        count: usize,
    },
}

impl Verdict {
    /// The verdict's name as tables and CSV files write it.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Missed => "missed",
            Verdict::Inconclusive { .. } | Verdict::Censored { .. } => "inconclusive",
            Verdict::Unreachable { .. } => "unreachable here",
            Verdict::Incomplete { .. } => "incomplete",
        }
    }
}

/// Most replicates [`judge`] looks for when it says how many would settle a verdict.
pub const MAX_REPLICATES: usize = 10_000;

/// Judges an estimate against the band (without a bound: see [`with_bound`]).
pub fn judge(estimate: &Estimate, band: &Band) -> Verdict {
    let Some(interval) = estimate.interval else {
        return Verdict::Inconclusive { replicates_needed: None };
    };
    match band.decides(interval) {
        Some(true) => return Verdict::Holds,
        Some(false) => return Verdict::Missed,
        None => {}
    }
    // The fewest replicates at which an interval of the same value and spread would decide:
    // half-widths shrink as replicates grow, so the first deciding count is found by bisection.
    let decided = |m: usize| band.decides(estimate.interval_with(m)).is_some();
    let on_edge = [band.low, band.high].into_iter().flatten().any(|edge| edge == estimate.value);
    if on_edge || !estimate.spread.is_finite() || !decided(MAX_REPLICATES) {
        return Verdict::Inconclusive { replicates_needed: None };
    }
    let (mut low, mut high) = (estimate.n, MAX_REPLICATES);
    while high - low > 1 {
        let middle = (low + high) / 2;
        if decided(middle) {
            high = middle;
        } else {
            low = middle;
        }
    }
    Verdict::Inconclusive { replicates_needed: Some(high) }
}

/// The verdict once a proof-backed bound is known: a missed claim is unreachable here when
/// the bound's whole interval lies beyond the band on the side the bound limits (a lower bound
/// above the band's top, an upper bound below its bottom) and the claim's own interval
/// (`estimate`) is beyond the band on that same side. Any other verdict stands: an interval
/// that overlaps the band is judged by the measurements, whatever the bound says.
pub fn with_bound(own: Verdict, estimate: Option<&Estimate>, bound: Option<&ProvenBound>, band: &Band) -> Verdict {
    let (Some(bound), Some(estimate)) = (bound, estimate) else { return own };
    if own != Verdict::Missed || !beyond(estimate, band, bound.side) || !beyond(&bound.estimate, band, bound.side) {
        return own;
    }
    Verdict::Unreachable { bound: bound.clone() }
}

/// Whether an interval lies wholly beyond the band on a bound's side: above its top for a
/// lower bound, below its bottom for an upper bound.
fn beyond(estimate: &Estimate, band: &Band, side: BoundSide) -> bool {
    let Some((lower, upper)) = estimate.interval else { return false };
    match side {
        BoundSide::Lower => band.high.is_some_and(|high| lower > high),
        BoundSide::Upper => band.low.is_some_and(|low| upper < low),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(value: f64, half: f64, n: usize) -> Estimate {
        Estimate {
            value,
            interval: Some((value - half, value + half)),
            n,
            spread: half * (n as f64).sqrt() / t_975(n - 1),
            scale: Scale::Linear,
            confidence: 0.95,
        }
    }

    #[test]
    fn the_t_quantiles_match_the_tables() {
        assert_eq!((t_975(1), t_975(2), t_975(9), t_975(30)), (12.706, 4.303, 2.262, 2.042));
        // Tables: 2.021 at 40, 2.000 at 60, 1.984 at 100.
        for (df, table) in [(40, 2.021), (60, 2.000), (100, 1.984), (1000, 1.962)] {
            assert!((t_975(df) - table).abs() < 1e-3, "{df}: {}", t_975(df));
        }
        // The inverted distribution function against the same tables and others (two-sided
        // 99%: 63.657 at 1, 9.925 at 2, 3.250 at 9; 99.9% at 2: 31.599; 98% at 5: 3.365).
        for (confidence, df, table) in [
            (0.950_000_1, 1, 12.706),
            (0.950_000_1, 9, 2.262),
            (0.99, 1, 63.657),
            (0.99, 2, 9.925),
            (0.99, 9, 3.250),
            (0.999, 2, 31.599),
            (0.98, 5, 3.365),
        ] {
            let t = t_quantile(confidence, df);
            assert!((t - table).abs() < 2e-3, "{confidence} {df}: {t} against {table}");
        }
        assert!((t_cdf(0.0, 3.0) - 0.5).abs() < 1e-15);
        assert!((t_cdf(2.0, 1.0) - (0.5 + 2f64.atan() / std::f64::consts::PI)).abs() < 1e-12);
    }

    #[test]
    fn a_mean_of_three_has_the_textbook_t_interval_on_the_linear_scale() {
        // 10, 12, 14: mean 12, s = 2, half-width 4.303 x 2 / sqrt(3) = 4.96868.
        let estimate = Estimate::linear_mean(&[10.0, 12.0, 14.0]).unwrap();
        let (lower, upper) = estimate.interval.unwrap();
        assert_eq!(estimate.value, 12.0);
        assert!((lower - (12.0 - 4.96868)).abs() < 1e-4 && (upper - (12.0 + 4.96868)).abs() < 1e-4, "{estimate:?}");
    }

    #[test]
    fn positive_values_get_a_log_scale_interval_that_stays_positive() {
        // 10, 12, 14 on the log scale: se = 2 / (sqrt(3) x 12) = 0.096225, t se = 0.414056,
        // so 12 exp(-0.414056) = 7.93156 and 12 exp(0.414056) = 18.15531.
        let estimate = Estimate::mean(&[10.0, 12.0, 14.0]).unwrap();
        let (lower, upper) = estimate.interval.unwrap();
        assert_eq!(estimate.scale, Scale::Log);
        assert!((lower - 7.93156).abs() < 1e-4 && (upper - 18.15531).abs() < 1e-4, "{estimate:?}");
        // A zero or negative value keeps the linear scale.
        assert_eq!(Estimate::mean(&[0.0, 1.0, 2.0]).unwrap().scale, Scale::Linear);
    }

    #[test]
    fn a_ratio_gets_fiellers_interval() {
        // By hand: a = (20.5, 23.5, 22.4), b = (10, 12, 11): means 22.1333 and 11, variances
        // 2.2933 and 1, covariance 1.45, q = 4.303^2 / 3 = 6.17194. The quadratic
        // r^2 (121 - 6.17194) - 2 r (243.4667 - 8.94932) + (489.8844 - 14.1543) <= 0 has roots
        // 1.90653 and 2.17277 around R = 2.01212.
        let estimate = Estimate::ratio(&[20.5, 23.5, 22.4], &[10.0, 12.0, 11.0]).unwrap();
        let (lower, upper) = estimate.interval.unwrap();
        assert!((estimate.value - 2.01212).abs() < 1e-5);
        assert!((lower - 1.90653).abs() < 1e-4 && (upper - 2.17277).abs() < 1e-4, "{estimate:?}");
        // a exactly twice b, with denominators that vary little against their mean: every
        // other ratio is refused, [2, 2].
        let exact = Estimate::ratio(&[20.0, 24.0, 22.0], &[10.0, 12.0, 11.0]).unwrap();
        let (lower, upper) = exact.interval.unwrap();
        assert!((lower - 2.0).abs() < 1e-12 && (upper - 2.0).abs() < 1e-12, "{exact:?}");
        // Denominators that vary as much as their mean at n = 3 (YARN-CS / Hadar's three seeds
        // gave 11.45 [-0.178, 23.08] with the delta method): no ratio can be told apart, and
        // the interval is unbounded, cut at 0 as every value is positive.
        let loose = Estimate::ratio(&[40.0, 5.0, 90.0], &[4.0, 1.0, 7.0]).unwrap();
        assert_eq!(loose.interval, Some((0.0, f64::INFINITY)));
        assert!(matches!(judge(&loose, &Band::new(11.0, 0.15, Direction::Within)), Verdict::Inconclusive { .. }));
        assert_eq!(Estimate::ratio(&[1.0], &[0.0]), None);
        assert_eq!(Estimate::ratio(&[f64::NAN], &[1.0]), None);
        assert_eq!(Estimate::mean(&[3.0]).unwrap().interval, None);
    }

    #[test]
    fn each_verdict_by_hand() {
        let within = Band::new(2.0, 0.1, Direction::Within);
        assert_eq!(within, Band { low: Some(1.8), high: Some(2.2) });
        assert_eq!(judge(&at(2.0, 0.1, 3), &within), Verdict::Holds);
        assert_eq!(judge(&at(2.5, 0.2, 3), &within), Verdict::Missed);
        assert_eq!(judge(&at(1.5, 0.2, 3), &within), Verdict::Missed);
        // 2.1 +- 0.3 straddles 2.2; the half-width must fall below 0.1. With n = 3 the spread
        // is 0.3 sqrt(3) / 4.303 = 0.12076; m replicates give 0.12076 t(m-1) / sqrt(m): 0.1010
        // at m = 8 (t = 2.365), 0.0928 at m = 9 (t = 2.306).
        assert_eq!(judge(&at(2.1, 0.3, 3), &within), Verdict::Inconclusive { replicates_needed: Some(9) });
        // On the edge nothing settles it; a single run has no interval.
        assert_eq!(judge(&at(2.2, 0.1, 3), &within), Verdict::Inconclusive { replicates_needed: None });
        let single = Estimate::mean(&[2.0]).unwrap();
        assert_eq!(judge(&single, &within), Verdict::Inconclusive { replicates_needed: None });
    }

    #[test]
    fn a_one_sided_claim_is_not_missed_for_doing_better() {
        // "Cuts JCT by up to 70%": a ratio of at most 0.3, 33% tolerance above: <= 0.4.
        let at_most = Band::new(0.3, 1.0 / 3.0, Direction::AtMost);
        assert!((at_most.high.unwrap() - 0.4).abs() < 1e-12 && at_most.low.is_none());
        // 0.1 [0.08, 0.12] beats the published 0.3 by more than the tolerance: two-sided it is
        // missed, one-sided it holds.
        let better = at(0.1, 0.02, 5);
        assert_eq!(judge(&better, &Band::new(0.3, 1.0 / 3.0, Direction::Within)), Verdict::Missed);
        assert_eq!(judge(&better, &at_most), Verdict::Holds);
        assert_eq!(judge(&at(0.5, 0.05, 5), &at_most), Verdict::Missed);
        // "At least 1.5x", 10% below: >= 1.35.
        let at_least = Band::new(1.5, 0.1, Direction::AtLeast);
        assert_eq!(judge(&at(3.0, 0.5, 5), &at_least), Verdict::Holds);
        assert_eq!(judge(&at(1.2, 0.1, 5), &at_least), Verdict::Missed);
        assert!(matches!(judge(&at(1.4, 0.1, 5), &at_least), Verdict::Inconclusive { replicates_needed: Some(_) }));
        assert_eq!(at_most.text(), "<= 0.400");
        assert_eq!(at_least.text(), ">= 1.350");
    }

    fn lower_bound(value: f64, half: f64) -> ProvenBound {
        ProvenBound { side: BoundSide::Lower, estimate: at(value, half, 5), class: "test".into() }
    }

    #[test]
    fn unreachable_needs_a_bound_beyond_the_band_on_the_claims_side() {
        // Band [0.2, 0.4]; the claim measured 0.6 [0.55, 0.65]: missed, above the band.
        let band = Band::new(0.3, 1.0 / 3.0, Direction::Within);
        let measured = at(0.6, 0.05, 5);
        let missed = judge(&measured, &band);
        assert_eq!(missed, Verdict::Missed);
        let own = Some(&measured);
        // A lower bound of 0.5 [0.45, 0.55]: nothing can get into the band.
        let above = lower_bound(0.5, 0.05);
        assert_eq!(with_bound(missed.clone(), own, Some(&above), &band), Verdict::Unreachable { bound: above.clone() });
        // A lower bound of 0.1 [0.08, 0.12] lies below the band: doing better than the band is
        // allowed, so the band is not shown out of reach (the old rule called this unreachable).
        assert_eq!(with_bound(missed.clone(), own, Some(&lower_bound(0.1, 0.02)), &band), Verdict::Missed);
        // A bound whose interval reaches into the band proves nothing.
        assert_eq!(with_bound(missed.clone(), own, Some(&lower_bound(0.42, 0.05)), &band), Verdict::Missed);
        // An upper bound (utilisation) below an at-least band.
        let at_least = Band::new(1.2, 0.0833, Direction::AtLeast);
        let upper = ProvenBound { side: BoundSide::Upper, estimate: at(1.02, 0.01, 5), class: "test".into() };
        let agent = at(1.01, 0.02, 5);
        assert_eq!(
            with_bound(Verdict::Missed, Some(&agent), Some(&upper), &at_least),
            Verdict::Unreachable { bound: upper.clone() }
        );
        // A claim missed on the other side (below a two-sided band) is not made unreachable by
        // a lower bound above the band: the two contradict each other, and the miss stands.
        let below = at(0.1, 0.02, 5);
        assert_eq!(with_bound(Verdict::Missed, Some(&below), Some(&above), &band), Verdict::Missed);
        // An inconclusive or holding verdict stands: the claim's own interval overlaps the band.
        let open = Verdict::Inconclusive { replicates_needed: Some(7) };
        assert_eq!(with_bound(open.clone(), own, Some(&above), &band), open);
        assert_eq!(with_bound(Verdict::Holds, own, Some(&above), &band), Verdict::Holds);
        assert_eq!(with_bound(Verdict::Missed, own, None, &band), Verdict::Missed);
        assert_eq!(Verdict::Unreachable { bound: above }.name(), "unreachable here");
    }

    #[test]
    fn a_split_confidence_widens_the_interval() {
        let values = [10.0, 12.0, 14.0, 11.0, 13.0];
        let ones = [1.0; 5];
        let at_95 = Estimate::ratio_at(&values, &ones, 0.95).unwrap().interval.unwrap();
        let at_99 = Estimate::ratio_at(&values, &ones, 0.99).unwrap().interval.unwrap();
        assert!(at_99.0 < at_95.0 && at_99.1 > at_95.1, "{at_95:?} {at_99:?}");
    }
}
