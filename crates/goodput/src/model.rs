//! The goodput model Pollux's agents fit and optimise (the artifact's `goodput.py` and
//! `speedup.py`): a throughput model with seven parameters, and statistical efficiency from the
//! gradient noise scale.

/// The throughput model's parameters (`goodput.py`, `PerfParams`):
///
/// - compute time per micro-batch `T_c = alpha_c + beta_c b` (local batch `b`);
/// - network time `T_n = alpha_n + beta_n max(R - 2, 1e-8)` across nodes, `alpha_r + beta_r
///   max(R - 2, 1e-8)` within one node (`R` replicas), negligible on one GPU;
/// - step time `(T_c^gamma + T_n^gamma)^(1 / gamma)`: `gamma` near 1 is no overlap of compute
///   and communication, large `gamma` full overlap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerfParams {
    /// Constant term of compute time.
    pub alpha_c: f64,
    /// Compute time per example.
    pub beta_c: f64,
    /// Constant term of inter-node network time.
    pub alpha_n: f64,
    /// Inter-node retrogression per replica beyond 2.
    pub beta_n: f64,
    /// Constant term of intra-node network time.
    pub alpha_r: f64,
    /// Intra-node retrogression per replica beyond 2.
    pub beta_r: f64,
    /// Overlap of compute and network, in [1, 10].
    pub gamma: f64,
}

impl PerfParams {
    /// Returns the parameters as the array the fit works on.
    pub fn to_array(self) -> [f64; 7] {
        [self.alpha_c, self.beta_c, self.alpha_n, self.beta_n, self.alpha_r, self.beta_r, self.gamma]
    }

    /// Returns the parameters of an array in [`PerfParams::to_array`]'s order.
    pub fn from_array(p: [f64; 7]) -> PerfParams {
        PerfParams {
            alpha_c: p[0],
            beta_c: p[1],
            alpha_n: p[2],
            beta_n: p[3],
            alpha_r: p[4],
            beta_r: p[5],
            gamma: p[6],
        }
    }

    /// Compute time of one micro-batch of `atomic_bsz` examples.
    pub fn accum_time(&self, atomic_bsz: f64) -> f64 {
        self.alpha_c + self.beta_c * atomic_bsz
    }

    /// Network time of one update on `nodes` nodes and `replicas` GPUs.
    pub fn network_time(&self, nodes: f64, replicas: f64) -> f64 {
        let (bottleneck, retrogress) = if nodes > 1.0 {
            (self.alpha_n, self.beta_n)
        } else if replicas > 1.0 {
            (self.alpha_r, self.beta_r)
        } else {
            (1e-8, 1e-8)
        };
        bottleneck + retrogress * (replicas - 2.0).max(1e-8)
    }

    /// The log of the time of the last micro-batch, which overlaps with synchronisation.
    pub fn log_optim_time(&self, accum_time: f64, network_time: f64) -> f64 {
        (accum_time.powf(self.gamma) + network_time.powf(self.gamma)).ln() / self.gamma
    }
}

/// The gradient statistics that set statistical efficiency: the squared norm of the gradient
/// and the variance of its per-example estimate (the gradient noise scale is
/// `var / sqr x B_0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GradParams {
    /// Squared gradient norm.
    pub sqr: f64,
    /// Gradient variance.
    pub var: f64,
}

/// The best configuration found for an allocation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Optimum {
    /// Predicted goodput.
    pub goodput: f64,
    /// Examples per GPU per micro-batch.
    pub atomic_bsz: u32,
    /// Extra micro-batches per update.
    pub accum_steps: u32,
}

/// Pollux's goodput function of one job: throughput x statistical efficiency (`GoodputFunction`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoodputFunction {
    /// The throughput model.
    pub perf: PerfParams,
    /// The latest gradient statistics.
    pub grad: GradParams,
    /// The batch size the job starts with, `B_0`.
    pub init_batch_size: f64,
}

impl GoodputFunction {
    /// Examples per second on `nodes` nodes, `replicas` GPUs, `atomic_bsz` per micro-batch and
    /// `accum_steps` extra micro-batches per update.
    pub fn throughput(&self, nodes: f64, replicas: f64, atomic_bsz: f64, accum_steps: f64) -> f64 {
        let accum_time = self.perf.accum_time(atomic_bsz);
        let network_time = self.perf.network_time(nodes, replicas);
        let optim_time = self.perf.log_optim_time(accum_time, network_time).exp();
        let total_time = accum_steps * accum_time + optim_time;
        let batch_size = replicas * atomic_bsz * (accum_steps + 1.0);
        batch_size / total_time
    }

    /// Statistical efficiency at total batch size `batch_size`:
    /// `(PGNS + B_0) / (PGNS + B)` with `PGNS = var / sqr x B_0`.
    pub fn efficiency(&self, batch_size: f64) -> f64 {
        let scale = batch_size / self.init_batch_size;
        let denominator = self.grad.var / scale + self.grad.sqr;
        let gain = if denominator > 0.0 { (self.grad.var + self.grad.sqr) / denominator } else { 1.0 };
        gain / scale
    }

    /// Goodput: throughput x efficiency.
    pub fn evaluate(&self, nodes: f64, replicas: f64, atomic_bsz: f64, accum_steps: f64) -> f64 {
        let batch_size = replicas * atomic_bsz * (accum_steps + 1.0);
        self.throughput(nodes, replicas, atomic_bsz, accum_steps) * self.efficiency(batch_size)
    }

    /// The best configuration on `nodes` nodes and `replicas` GPUs (`GoodputFunction.optimize`):
    /// 50 total batch sizes spaced geometrically from `max(B_0, min_atomic x R)` to
    /// `max_batch_size`, each split into micro-batches no larger than `max_atomic` (with
    /// `accumulation`; at least two on one GPU above `B_0`), the one of highest goodput; 0 if no
    /// candidate has a micro-batch within `[min_atomic, max_atomic]`.
    pub fn optimize(
        &self,
        nodes: u32,
        replicas: u32,
        max_batch_size: f64,
        atomic_range: (f64, f64),
        accumulation: bool,
    ) -> Optimum {
        const SAMPLES: usize = 50;
        let eps = 1e-8;
        let (min_atomic, max_atomic) = atomic_range;
        let r = f64::from(replicas);
        let min_batch_size = self.init_batch_size.max(min_atomic * r);
        let mut best = Optimum { goodput: f64::NEG_INFINITY, atomic_bsz: 0, accum_steps: 0 };
        for batch_size in geomspace(min_batch_size, max_batch_size, SAMPLES) {
            let local_bsz = batch_size / r;
            let accum_steps = if accumulation {
                let steps = (local_bsz / max_atomic - eps).ceil() - 1.0;
                if replicas == 1 && local_bsz > self.init_batch_size + eps { steps.max(1.0) } else { steps }
            } else {
                0.0
            };
            let atomic_bsz = (local_bsz / (accum_steps + 1.0) - eps).ceil();
            let goodput = if (min_atomic..=max_atomic).contains(&atomic_bsz) {
                self.evaluate(f64::from(nodes), r, atomic_bsz, accum_steps)
            } else {
                0.0
            };
            // numpy's argmax: the first of equal maxima.
            if goodput > best.goodput {
                best = Optimum { goodput, atomic_bsz: atomic_bsz as u32, accum_steps: accum_steps.max(0.0) as u32 };
            }
        }
        best
    }
}

/// numpy's `geomspace(start, stop, num)`: `10^y` for `y` spaced evenly from `log10(start)` to
/// `log10(stop)` (`i x step + start`), with the ends set exactly.
pub fn geomspace(start: f64, stop: f64, num: usize) -> Vec<f64> {
    let (low, high) = (start.log10(), stop.log10());
    let step = (high - low) / (num - 1) as f64;
    let mut values: Vec<f64> = (0..num).map(|i| 10f64.powf(i as f64 * step + low)).collect();
    values[0] = start;
    values[num - 1] = stop;
    values
}

/// A job's speedup over a base allocation (`SpeedupFunction`): the best goodput on an
/// allocation over the best goodput on the base (one GPU unless changed), memoised.
#[derive(Clone, Debug)]
pub struct SpeedupFunction {
    goodput: GoodputFunction,
    max_batch_size: f64,
    atomic_range: (f64, f64),
    accumulation: bool,
    base: (u32, u32),
    base_goodput: f64,
    /// Known speedups by nodes, then GPUs (NaN where not computed yet).
    memo: Vec<Vec<f64>>,
}

impl SpeedupFunction {
    /// Returns the speedup function of `goodput` over one GPU.
    pub fn new(goodput: GoodputFunction, max_batch_size: f64, atomic_range: (f64, f64), accumulation: bool) -> Self {
        SpeedupFunction::over(goodput, max_batch_size, atomic_range, accumulation, (1, 1))
    }

    /// Returns the speedup function of `goodput` over its best goodput on `base` = (nodes, GPUs)
    /// (Pollux's fair share).
    pub fn over(
        goodput: GoodputFunction,
        max_batch_size: f64,
        atomic_range: (f64, f64),
        accumulation: bool,
        base: (u32, u32),
    ) -> Self {
        let base_goodput = goodput.optimize(base.0, base.1, max_batch_size, atomic_range, accumulation).goodput;
        SpeedupFunction {
            goodput,
            max_batch_size,
            atomic_range,
            accumulation,
            base,
            base_goodput,
            memo: Default::default(),
        }
    }

    /// Whether [`SpeedupFunction::over`] with these inputs would build this function (bit for
    /// bit): then its memo can be kept instead.
    pub fn is_over(
        &self,
        goodput: &GoodputFunction,
        max_batch_size: f64,
        atomic_range: (f64, f64),
        accumulation: bool,
        base: (u32, u32),
    ) -> bool {
        let bits = |function: &GoodputFunction, max_batch_size: f64, range: (f64, f64)| {
            let (perf, grad) = (&function.perf, &function.grad);
            [
                perf.alpha_c,
                perf.beta_c,
                perf.alpha_n,
                perf.beta_n,
                perf.alpha_r,
                perf.beta_r,
                perf.gamma,
                grad.sqr,
                grad.var,
                function.init_batch_size,
                max_batch_size,
                range.0,
                range.1,
            ]
            .map(f64::to_bits)
        };
        bits(&self.goodput, self.max_batch_size, self.atomic_range) == bits(goodput, max_batch_size, atomic_range)
            && self.accumulation == accumulation
            && self.base == base
    }

    /// The speedup on `nodes` nodes and `replicas` GPUs (0 with none).
    pub fn speedup(&mut self, nodes: u32, replicas: u32) -> f64 {
        if replicas == 0 {
            return 0.0;
        }
        let (row, column) = (nodes as usize, replicas as usize);
        if let Some(&known) = self.memo.get(row).and_then(|known| known.get(column))
            && !known.is_nan()
        {
            return known;
        }
        let best = self.goodput.optimize(nodes, replicas, self.max_batch_size, self.atomic_range, self.accumulation);
        let speedup = best.goodput / self.base_goodput;
        if self.memo.len() <= row {
            self.memo.resize(row + 1, Vec::new());
        }
        if self.memo[row].len() <= column {
            self.memo[row].resize(column + 1, f64::NAN);
        }
        self.memo[row][column] = speedup;
        speedup
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> GoodputFunction {
        GoodputFunction {
            perf: PerfParams {
                alpha_c: 0.02,
                beta_c: 0.001,
                alpha_n: 0.1,
                beta_n: 0.01,
                alpha_r: 0.05,
                beta_r: 0.005,
                gamma: 2.0,
            },
            grad: GradParams { sqr: 1.0, var: 3.0 },
            init_batch_size: 128.0,
        }
    }

    #[test]
    fn a_speedup_function_knows_the_inputs_it_was_built_from() {
        let (range, fair) = ((32.0, 512.0), (1, 4));
        let function = SpeedupFunction::over(model(), 4096.0, range, true, fair);
        assert!(function.is_over(&model(), 4096.0, range, true, fair));
        let mut other = model();
        other.grad.var *= 2.0;
        assert!(!function.is_over(&other, 4096.0, range, true, fair));
        assert!(!function.is_over(&model(), 2048.0, range, true, fair));
        assert!(!function.is_over(&model(), 4096.0, range, false, fair));
        assert!(!function.is_over(&model(), 4096.0, range, true, (1, 8)));
    }

    #[test]
    fn throughput_and_efficiency_by_hand() {
        let f = model();
        // 2 nodes, 8 GPUs, 64 per micro-batch, one extra micro-batch: compute 0.02 + 0.064 =
        // 0.084 s; network 0.1 + 0.01 x 6 = 0.16 s; last micro-batch sqrt(0.084^2 + 0.16^2).
        let optim = (0.084f64.powi(2) + 0.16f64.powi(2)).sqrt();
        let want = 8.0 * 64.0 * 2.0 / (0.084 + optim);
        assert!((f.throughput(2.0, 8.0, 64.0, 1.0) - want).abs() < 1e-9 * want);
        // Batch 1024 = 8 x B_0: gain (3 + 1) / (3 / 8 + 1) = 2.909..., efficiency gain / 8.
        assert!((f.efficiency(1024.0) - 4.0 / (3.0 / 8.0 + 1.0) / 8.0).abs() < 1e-15);
        assert_eq!(f.efficiency(128.0), 1.0);
    }

    #[test]
    fn geomspace_matches_numpy() {
        // numpy.geomspace(128, 4096, 50)[1] = 130.99...; ends exact.
        let values = geomspace(128.0, 4096.0, 50);
        assert_eq!((values[0], values[49]), (128.0, 4096.0));
        assert!((values[1] - 128.0 * 32f64.powf(1.0 / 49.0)).abs() < 1e-9);
        assert!(values.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn optimize_picks_the_best_candidate_and_respects_the_micro_batch_range() {
        let f = model();
        let best = f.optimize(1, 4, 4096.0, (32.0, 256.0), true);
        // No candidate beats the optimum, which lies in range.
        for batch_size in geomspace(128.0, 4096.0, 50) {
            let local = batch_size / 4.0;
            let accum = ((local / 256.0 - 1e-8).ceil() - 1.0).max(0.0);
            let atomic = (local / (accum + 1.0) - 1e-8).ceil();
            assert!(f.evaluate(1.0, 4.0, atomic, accum) <= best.goodput * (1.0 + 1e-12));
        }
        assert!((32..=256).contains(&best.atomic_bsz));
        // One GPU above B_0 always accumulates at least twice.
        let single = f.optimize(1, 1, 4096.0, (32.0, 4096.0), true);
        assert!(single.atomic_bsz == 128 || single.accum_steps >= 1, "{single:?}");
        let mut speedup = SpeedupFunction::new(f, 4096.0, (32.0, 256.0), true);
        assert_eq!(speedup.speedup(0, 0), 0.0);
        assert!((speedup.speedup(1, 1) - 1.0).abs() < 1e-12);
        assert!(speedup.speedup(1, 4) > 1.0);
    }
}
