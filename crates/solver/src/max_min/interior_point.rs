//! Mehrotra's predictor-corrector on the scaled program of [`Blocks`].

use super::blocks::{Factors, Scratch};
use super::*;

impl Blocks {
    /// The right-hand side `b`.
    fn rhs(&self) -> Vec<f64> {
        let jobs = self.jobs.len();
        let mut b = vec![0.0; self.rows()];
        for i in 0..jobs {
            // sum r x - dd (t - t_shift) - u = oo
            b[2 * i] = self.offset[i] - self.demand[i] * self.t_shift;
            b[2 * i + 1] = 1.0;
        }
        b[2 * jobs..].iter_mut().for_each(|b| *b = 1.0);
        b
    }

    /// Mehrotra's predictor-corrector from Mehrotra's starting point; returns `z` and the
    /// iterations taken.
    pub(super) fn interior_point(&self) -> Result<(Vec<f64>, usize), String> {
        let (n, b) = (self.variables(), self.rhs());
        let mut c = vec![0.0; n];
        c[self.t()] = -1.0;
        let (b_norm, c_norm) = (1.0 + max_abs(&b), 1.0 + max_abs(&c));
        // Starting point (Nocedal and Wright, section 14.2): least-norm z and least-squares y,
        // shifted into the positive orthant.
        let (ones, rows) = (vec![1.0; n], self.rows());
        let mut scratch = Scratch::new(self);
        let mut factors = Factors::default();
        self.factor(&ones, &mut factors);
        let mut least_norm = vec![0.0; rows];
        self.refined(&factors, &ones, &b, &mut least_norm, &mut scratch);
        let mut z = self.transposed_times(&least_norm);
        let mut y = vec![0.0; rows];
        self.refined(&factors, &ones, &self.times(&c), &mut y, &mut scratch);
        let mut s: Vec<f64> = c.iter().zip(self.transposed_times(&y)).map(|(c, a)| c - a).collect();
        let shift_z = (-1.5 * z.iter().copied().fold(f64::INFINITY, f64::min)).max(0.0);
        let shift_s = (-1.5 * s.iter().copied().fold(f64::INFINITY, f64::min)).max(0.0);
        z.iter_mut().for_each(|z| *z += shift_z);
        s.iter_mut().for_each(|s| *s += shift_s);
        let product: f64 = z.iter().zip(&s).map(|(z, s)| z * s).sum();
        let (sum_z, sum_s) = (z.iter().sum::<f64>(), s.iter().sum::<f64>());
        let (extra_z, extra_s) =
            (0.5 * product / sum_s.max(f64::MIN_POSITIVE), 0.5 * product / sum_z.max(f64::MIN_POSITIVE));
        z.iter_mut().for_each(|z| *z = (*z + extra_z).max(1e-8));
        s.iter_mut().for_each(|s| *s = (*s + extra_s).max(1e-8));
        let (mut primal_residual, mut dual_residual, mut w) = (vec![0.0; rows], vec![0.0; n], vec![0.0; n]);
        let (mut inner, mut r, mut a_dy) = (vec![0.0; n], vec![0.0; rows], vec![0.0; n]);
        let (mut dy, mut dz, mut ds) = (vec![0.0; rows], vec![0.0; n], vec![0.0; n]);
        let (mut dz_affine, mut ds_affine, mut target) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        for iteration in 0..MAX_ITERATIONS {
            self.times_into(&z, &mut primal_residual);
            primal_residual.iter_mut().zip(&b).for_each(|(a, b)| *a -= b);
            self.transposed_times_into(&y, &mut dual_residual);
            dual_residual.iter_mut().zip(&s).zip(&c).for_each(|((a, s), c)| *a += s - c);
            let primal_objective: f64 = c.iter().zip(&z).map(|(c, z)| c * z).sum();
            let dual_objective: f64 = b.iter().zip(&y).map(|(b, y)| b * y).sum();
            if max_abs(&primal_residual) / b_norm <= TOLERANCE
                && max_abs(&dual_residual) / c_norm <= TOLERANCE
                && (primal_objective - dual_objective).abs() / (1.0 + primal_objective.abs()) <= TOLERANCE
            {
                return Ok((z, iteration));
            }
            let mu = z.iter().zip(&s).map(|(z, s)| z * s).sum::<f64>() / n as f64;
            if !mu.is_finite() {
                return Err(format!("lost precision after {iteration} interior-point iterations"));
            }
            if mu < STALLED {
                return Err(format!(
                    "stalled after {iteration} interior-point iterations, short of {TOLERANCE} (primal residual {:.1e}, gap {:.1e})",
                    max_abs(&primal_residual) / b_norm,
                    (primal_objective - dual_objective).abs() / (1.0 + primal_objective.abs())
                ));
            }
            w.iter_mut().zip(z.iter().zip(&s)).for_each(|(w, (z, s))| *w = z / s);
            self.factor(&w, &mut factors);
            // The step for a complementarity target `target` (z_k s_k + ... per variable):
            // A W A' dy = -r_b + A (target / s - W r_c), dz = -target / s + W (r_c + A' dy),
            // ds = -r_c - A' dy.
            let mut step = |target: &[f64], dy: &mut [f64], dz: &mut [f64], ds: &mut [f64]| {
                for k in 0..n {
                    inner[k] = target[k] / s[k] - w[k] * dual_residual[k];
                }
                self.times_into(&inner, &mut r);
                r.iter_mut().zip(&primal_residual).for_each(|(a, r)| *a -= r);
                self.refined(&factors, &w, &r, dy, &mut scratch);
                self.transposed_times_into(dy, &mut a_dy);
                for k in 0..n {
                    dz[k] = -target[k] / s[k] + w[k] * (dual_residual[k] + a_dy[k]);
                    ds[k] = -dual_residual[k] - a_dy[k];
                }
            };
            target.iter_mut().zip(z.iter().zip(&s)).for_each(|(target, (z, s))| *target = z * s);
            step(&target, &mut dy, &mut dz_affine, &mut ds_affine);
            let (primal_affine, dual_affine) = (longest_step(&z, &dz_affine), longest_step(&s, &ds_affine));
            let mu_affine = (0..n)
                .map(|k| (z[k] + primal_affine * dz_affine[k]) * (s[k] + dual_affine * ds_affine[k]))
                .sum::<f64>()
                / n as f64;
            let sigma = (mu_affine / mu).powi(3);
            for k in 0..n {
                target[k] = z[k] * s[k] + dz_affine[k] * ds_affine[k] - sigma * mu;
            }
            step(&target, &mut dy, &mut dz, &mut ds);
            let primal_step = (STEP_TO_BOUNDARY * longest_step(&z, &dz)).min(1.0);
            let dual_step = (STEP_TO_BOUNDARY * longest_step(&s, &ds)).min(1.0);
            z.iter_mut().zip(&dz).for_each(|(z, dz)| *z += primal_step * dz);
            y.iter_mut().zip(&dy).for_each(|(y, dy)| *y += dual_step * dy);
            s.iter_mut().zip(&ds).for_each(|(s, ds)| *s += dual_step * ds);
        }
        Err(format!("no optimum within {TOLERANCE} after {MAX_ITERATIONS} interior-point iterations"))
    }
}
