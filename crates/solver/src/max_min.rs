//! A dedicated interior-point solver for max-min ratio LPs, the shape of Gavel's max-min
//! fairness and makespan allocations and of each step of its finish-time fairness:
//!
//! ```text
//! maximise t  subject to  sum_j R[m][j] x[m][j] >= o[m] + t d[m]   (every job m)
//!                         sum_j x[m][j] <= 1                       (every job m)
//!                         sum_m a[m] x[m][j] <= N[j]               (every type j)
//!                         x >= 0, x[m][j] = 0 where R[m][j] = 0
//! ```
//!
//! The offsets `o` are 0 for max-min fairness and makespan; the scaled step of finish-time
//! fairness sets them (each job's required rate).
//!
//! Each job's variables meet only its own two rows and the few capacity rows, so the normal
//! equations of an interior-point method are 2x2 blocks, one per job, bordered by one row per
//! type and one for `t`. Eliminating the blocks leaves a dense system of (types + 1) unknowns:
//! an iteration costs O(jobs x types^2) where a general solver factors a sparse matrix of all
//! jobs. The method is Mehrotra's predictor-corrector (Nocedal and Wright, *Numerical
//! Optimization*, 2nd ed., Algorithm 14.3, with its starting point, section 14.2) on the
//! program in standard form. Like cvxpy's ECOS, which Gavel uses, it follows the central
//! path, so where the optimum is not unique it returns the point that path leads to, in
//! general inside the optimal face where a simplex method returns a vertex.

use crate::{Backend, Failure, SolveStats, SolverError};
use std::time::Instant;

/// A max-min ratio LP (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct MaxMinRatio<'a> {
    /// Names the program in errors.
    pub name: &'a str,
    /// `rates[m][j]`: job `m`'s rate on type `j` (at least 0; 0: the job cannot use the type).
    pub rates: &'a [Vec<f64>],
    /// `demand[m]`: the rate job `m` needs per unit of `t` (at least 0; 0: no demand row).
    pub demand: &'a [f64],
    /// `offset[m]`: the rate job `m` needs at `t = 0` (at least 0; `None`: all 0).
    ///
    /// Without offsets `t >= 0` holds at every optimum, and the method keeps `t >= 0`. With
    /// offsets it keeps `t >= -T`, `T` the largest `t` any job allows on its own without them
    /// (`min_m max_j R[m][j] / d[m]`), where a general method leaves `t` free: so the program
    /// has interior points even when the offsets are met only on a face (the scaled step of
    /// finish-time fairness once its allocation is optimal, `t = 0`).
    pub offset: Option<&'a [f64]>,
    /// `gpu_use[m]`: GPUs of every type that one unit of job `m`'s time takes (its scale
    /// factor, times the jobs its row stands for).
    pub gpu_use: &'a [f64],
    /// `capacity[j]`: GPUs of type `j`.
    pub capacity: &'a [f64],
}

/// An optimal solution of a [`MaxMinRatio`] program.
#[derive(Clone, Debug, PartialEq)]
pub struct MaxMinSolution {
    /// `x[m][j]`: non-negative, each row summing to at most 1, each type within its capacity
    /// (an interior point meets its rows only to its tolerance; these are scaled down by as
    /// much, at most about 1e-9 relative).
    pub fractions: Vec<Vec<f64>>,
    /// The optimal `t`.
    pub ratio: f64,
    /// Interior-point iterations taken (0 when the optimum needed none).
    pub iterations: usize,
    /// Sizes (of the program as an LP: one variable per usable pair and `t`, two rows per job
    /// and one per type) and timings.
    pub stats: SolveStats,
}

/// Relative primal and dual infeasibility and duality gap at which the method stops (ECOS's
/// default `feastol`, `abstol` and `reltol`).
const TOLERANCE: f64 = 1e-8;
/// Average complementarity below which no further step can help: the method has stalled at
/// the rounding floor of its linear algebra short of [`TOLERANCE`].
const STALLED: f64 = 1e-24;
/// Iterations after which the method gives up (it takes 6-16 on the policy-runtime bench's
/// instances and 8 on average on random ones).
const MAX_ITERATIONS: usize = 200;
/// Fraction of the way to the boundary that a step goes.
const STEP_TO_BOUNDARY: f64 = 0.995;
/// Rounds of iterative refinement of a solve at most.
const REFINEMENTS: usize = 2;
/// A solve whose residual is below this fraction of its right-hand side is not refined.
const REFINED: f64 = 1e-10;
/// A job's block whose determinant is below this fraction of the product of its diagonal
/// keeps its rows in the dense system (see `Blocks::factor`).
const DEGENERATE_BLOCK: f64 = 1e-8;

/// Solves `problem` with the structured interior-point method.
///
/// Programs without offsets whose optimum is `t = 0` for lack of anything to balance (no
/// positive demand), or because a job with demand can use no type with capacity, return `t = 0`
/// and no time for any job. With offsets, a job that cannot reach its offset even with all of its
/// time (beyond the tolerance) is [`Failure::Infeasible`], and the same two cases are
/// [`Failure::Unusable`] (a point at `t = 0` must meet the offsets): the caller solves them with
/// a general method. An input that is not finite and non-negative is a
/// [`Failure::Unusable`] error naming the entry; not converging within 200 iterations, or
/// stalling short of the tolerances (an infeasible program with offsets ends so too), is
/// [`Failure::StoppedShort`].
pub fn solve_max_min_ratio(problem: &MaxMinRatio<'_>) -> Result<MaxMinSolution, SolverError> {
    let started = Instant::now();
    let jobs = problem.rates.len();
    let types = problem.capacity.len();
    let usable_pairs = problem.rates.iter().flatten().filter(|rate| **rate > 0.0).count();
    let fail = |failure: Failure, reason: String| SolverError {
        name: problem.name.to_string(),
        variables: usable_pairs + 1,
        constraints: 2 * jobs + types,
        backend: Backend::MaxMinIpm,
        failure,
        reason,
    };
    problem.check().map_err(|reason| fail(Failure::Unusable, reason))?;
    let mut fractions = vec![vec![0.0; types]; jobs];
    let stats = |solve_time| SolveStats {
        backend: Backend::MaxMinIpm,
        variables: usable_pairs + 1,
        constraints: 2 * jobs + types,
        build_time: std::time::Duration::ZERO,
        solve_time,
        fell_back: false,
    };
    let Some(blocks) = Blocks::new(problem).map_err(|(failure, reason)| fail(failure, reason))? else {
        return Ok(MaxMinSolution { fractions, ratio: 0.0, iterations: 0, stats: stats(started.elapsed()) });
    };
    let (z, iterations) = blocks.interior_point().map_err(|reason| fail(Failure::StoppedShort, reason))?;
    for (k, &(m, j)) in blocks.pairs.iter().enumerate() {
        fractions[m][j] = z[k].max(0.0);
    }
    make_feasible(problem, &mut fractions);
    let ratio = (z[blocks.t()] - blocks.t_shift) * blocks.t_scale;
    Ok(MaxMinSolution { fractions, ratio, iterations, stats: stats(started.elapsed()) })
}

/// Scales down each row of `fractions` that sums to more than 1, then each type's column
/// that uses more than its capacity, so that the point is feasible exactly.
fn make_feasible(problem: &MaxMinRatio<'_>, fractions: &mut [Vec<f64>]) {
    for row in fractions.iter_mut() {
        let total: f64 = row.iter().sum();
        if total > 1.0 {
            row.iter_mut().for_each(|x| *x /= total);
        }
    }
    for (j, &gpus) in problem.capacity.iter().enumerate() {
        let used: f64 = fractions.iter().zip(problem.gpu_use).map(|(row, used)| row[j] * used).sum();
        if used > gpus {
            fractions.iter_mut().for_each(|row| row[j] *= gpus / used);
        }
    }
}

impl MaxMinRatio<'_> {
    /// Job `m`'s offset (0 without offsets).
    fn offset_of(&self, m: usize) -> f64 {
        self.offset.map_or(0.0, |offset| offset[m])
    }

    /// Every entry must be finite and non-negative and the rows as long as promised.
    fn check(&self) -> Result<(), String> {
        let jobs = self.rates.len();
        if self.demand.len() != jobs || self.gpu_use.len() != jobs {
            return Err(format!(
                "{jobs} rows of rates but {} demands and {} GPU uses",
                self.demand.len(),
                self.gpu_use.len()
            ));
        }
        if let Some(offset) = self.offset
            && offset.len() != jobs
        {
            return Err(format!("{jobs} rows of rates but {} offsets", offset.len()));
        }
        let valid = |value: f64| value.is_finite() && value >= 0.0;
        for (m, row) in self.rates.iter().enumerate() {
            if row.len() != self.capacity.len() {
                return Err(format!("job {m} has {} rates for {} types", row.len(), self.capacity.len()));
            }
            if let Some(j) = row.iter().position(|rate| !valid(*rate)) {
                return Err(format!("job {m}'s rate on type {j} is {}, expected a finite number >= 0", row[j]));
            }
            let offset = self.offset_of(m);
            for (what, value) in [("demand", self.demand[m]), ("GPU use", self.gpu_use[m]), ("offset", offset)] {
                if !valid(value) {
                    return Err(format!("job {m}'s {what} is {value}, expected a finite number >= 0"));
                }
            }
        }
        if let Some(j) = self.capacity.iter().position(|gpus| !valid(*gpus)) {
            return Err(format!("type {j}'s capacity is {}, expected a finite number >= 0", self.capacity[j]));
        }
        Ok(())
    }
}

/// The program in standard form, scaled: `min c'z` subject to `A z = b`, `z >= 0`.
///
/// Variables `z`: one `x` per usable pair (job, type with capacity), then
/// `t / t_scale + t_shift`, then per job the demand row's surplus `u` and the time row's slack
/// `g`, then per type the capacity row's slack. Rows: per job `D_m`
/// (`sum_j r x - dd_m t - u = oo_m`, the demand row divided by the job's largest rate) and
/// `G_m` (`sum_j x + g = 1`), then per type `C_j`
/// (`sum_m e x + c = 1`, divided by the capacity). `t_scale` is the largest `t` any single
/// job allows without offsets, so the scaled `t` lies in `[0, 1]` like every `x` (in `[0, 2]`
/// with offsets, which shift it by 1).
struct Blocks {
    /// Jobs with at least one usable pair, in order (others get no time): the listed jobs.
    jobs: Vec<usize>,
    /// Types with capacity (others get no time).
    types: Vec<usize>,
    /// Each usable pair (job, type), grouped by job.
    pairs: Vec<(usize, usize)>,
    /// Where each listed job's pairs start in `pairs` (one more entry than `jobs`).
    start: Vec<usize>,
    /// Each pair's index among the types with capacity.
    pair_type: Vec<usize>,
    /// Each pair's coefficient in its job's demand row.
    rate: Vec<f64>,
    /// Each pair's coefficient in its type's capacity row.
    gpu_share: Vec<f64>,
    /// Each listed job's scaled demand.
    demand: Vec<f64>,
    /// Each listed job's scaled offset.
    offset: Vec<f64>,
    /// `t = t_scale (t_scaled - t_shift)`.
    t_scale: f64,
    /// With offsets 1 (the scaled `t` starts at `-1`, see [`MaxMinRatio::offset`]), otherwise 0.
    t_shift: f64,
}

impl Blocks {
    /// The scaled program, or `None` when it has no offsets and its optimum is `t = 0`, or the
    /// failure that it cannot be solved so (see [`solve_max_min_ratio`]).
    fn new(problem: &MaxMinRatio<'_>) -> Result<Option<Blocks>, (Failure, String)> {
        let types: Vec<usize> = (0..problem.capacity.len()).filter(|&j| problem.capacity[j] > 0.0).collect();
        let usable = |m: usize| types.iter().filter(move |&&j| problem.rates[m][j] > 0.0);
        // Each job's largest rate on a type with capacity: its reach with all of its time.
        let reach: Vec<f64> =
            (0..problem.rates.len()).map(|m| usable(m).map(|&j| problem.rates[m][j]).fold(0.0, f64::max)).collect();
        let mut t_scale = f64::INFINITY;
        for (m, &best) in reach.iter().enumerate() {
            let offset = problem.offset_of(m);
            // An offset met only with all of a job's time may come out above its reach by
            // rounding (as the rate of an allocation that gave it that time).
            if offset > best * (1.0 + TOLERANCE) {
                return Err((
                    Failure::Infeasible,
                    format!("job {m} needs a rate of {offset} but reaches at most {best} with all of its time"),
                ));
            }
            if problem.demand[m] > 0.0 {
                t_scale = t_scale.min(best / problem.demand[m]);
            }
        }
        if t_scale == 0.0 || t_scale.is_infinite() {
            if problem.offset.is_some() {
                return Err((
                    Failure::Unusable,
                    "with offsets, an optimum at t = 0 with no positive demand, or with a job that has demand \
                     but can use no type with capacity, is left to a general method"
                        .to_string(),
                ));
            }
            return Ok(None);
        }
        let mut blocks = Blocks {
            jobs: Vec::new(),
            types: types.clone(),
            pairs: Vec::new(),
            start: vec![0],
            pair_type: Vec::new(),
            rate: Vec::new(),
            gpu_share: Vec::new(),
            demand: Vec::new(),
            offset: Vec::new(),
            t_scale,
            t_shift: if problem.offset.is_some() { 1.0 } else { 0.0 },
        };
        for (m, &largest) in reach.iter().enumerate() {
            if largest == 0.0 {
                continue;
            }
            blocks.jobs.push(m);
            for (k, &j) in types.iter().enumerate() {
                if problem.rates[m][j] > 0.0 {
                    blocks.pairs.push((m, j));
                    blocks.pair_type.push(k);
                    blocks.rate.push(problem.rates[m][j] / largest);
                    blocks.gpu_share.push(problem.gpu_use[m] / problem.capacity[j]);
                }
            }
            blocks.start.push(blocks.pairs.len());
            blocks.demand.push(problem.demand[m] * t_scale / largest);
            // Within the tolerance above, an offset out of reach is one at the reach.
            blocks.offset.push(problem.offset_of(m).min(largest) / largest);
        }
        Ok(Some(blocks))
    }

    /// Index of `t` in `z`.
    fn t(&self) -> usize {
        self.pairs.len()
    }

    /// Number of variables.
    fn variables(&self) -> usize {
        self.pairs.len() + 1 + 2 * self.jobs.len() + self.types.len()
    }

    /// Number of rows.
    fn rows(&self) -> usize {
        2 * self.jobs.len() + self.types.len()
    }

    /// `A z`.
    fn times(&self, z: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.rows()];
        self.times_into(z, &mut out);
        out
    }

    /// `out = A z`.
    fn times_into(&self, z: &[f64], out: &mut [f64]) {
        let (jobs, t) = (self.jobs.len(), z[self.t()]);
        let (job_rows, type_rows) = out.split_at_mut(2 * jobs);
        let (surplus, rest) = z[self.t() + 1..].split_at(jobs);
        let (slack, type_slack) = rest.split_at(jobs);
        type_rows.copy_from_slice(type_slack);
        for (i, rows) in job_rows.chunks_exact_mut(2).enumerate() {
            let (mut demand_row, mut time_row) = (0.0, 0.0);
            let pairs = self.start[i]..self.start[i + 1];
            for (((x, rate), share), &j) in z[pairs.clone()]
                .iter()
                .zip(&self.rate[pairs.clone()])
                .zip(&self.gpu_share[pairs.clone()])
                .zip(&self.pair_type[pairs])
            {
                demand_row += rate * x;
                time_row += x;
                type_rows[j] += share * x;
            }
            rows[0] = demand_row - self.demand[i] * t - surplus[i];
            rows[1] = time_row + slack[i];
        }
    }

    /// `A' y`.
    fn transposed_times(&self, y: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.variables()];
        self.transposed_times_into(y, &mut out);
        out
    }

    /// `out = A' y`.
    fn transposed_times_into(&self, y: &[f64], out: &mut [f64]) {
        let jobs = self.jobs.len();
        let (job_rows, type_rows) = y.split_at(2 * jobs);
        let (pairs_out, rest) = out.split_at_mut(self.t());
        let (t_out, rest) = rest.split_at_mut(1);
        let (surplus, rest) = rest.split_at_mut(jobs);
        let (slack, type_slack) = rest.split_at_mut(jobs);
        type_slack.copy_from_slice(type_rows);
        let mut t_column = 0.0;
        for (i, rows) in job_rows.chunks_exact(2).enumerate() {
            let (demand_row, time_row) = (rows[0], rows[1]);
            let pairs = self.start[i]..self.start[i + 1];
            for (((out, rate), share), &j) in pairs_out[pairs.clone()]
                .iter_mut()
                .zip(&self.rate[pairs.clone()])
                .zip(&self.gpu_share[pairs.clone()])
                .zip(&self.pair_type[pairs])
            {
                *out = rate * demand_row + time_row + share * type_rows[j];
            }
            t_column -= self.demand[i] * demand_row;
            surplus[i] = -demand_row;
            slack[i] = time_row;
        }
        t_out[0] = t_column;
    }

    /// `out = A W A' y`, through `scratch` (one entry per variable).
    fn normal_times_into(&self, w: &[f64], y: &[f64], scratch: &mut [f64], out: &mut [f64]) {
        self.transposed_times_into(y, scratch);
        scratch.iter_mut().zip(w).for_each(|(a, w)| *a *= w);
        self.times_into(scratch, out);
    }

    /// Solves `A W A' y = r` with the factors of `W` into `y`, refined against the exact
    /// product until the residual is at rounding level (at most `REFINEMENTS` times).
    ///
    /// With rows ordered job by job, `A W A'` is a block-diagonal matrix `B` of 2x2 blocks
    /// plus `t`'s rank-one term `w_t v v'` (`v` the `t` column) bordered by the capacity rows
    /// (`E`, and a diagonal `C`). Writing `omega = w_t v' y_J` turns it into the bordered
    /// system `[B F; F' H] [y_J; q] = [r_J; r_C 0]` with `F = [E v]`, `q = (y_C, omega)` and
    /// `H = diag(C, -1 / w_t)`; eliminating the blocks leaves `(H - F' B^-1 F) q = (r_C, 0) -
    /// F' B^-1 r_J`, of size types + 1, solved by LU with partial pivoting (with the rows of
    /// jobs whose block is singular to working precision left in it, see [`Blocks::factor`]).
    fn refined(&self, factors: &Factors, w: &[f64], r: &[f64], y: &mut [f64], scratch: &mut Scratch) {
        self.solve_factored(factors, r, y, &mut scratch.dense);
        let scale = max_abs(r);
        for _ in 0..REFINEMENTS {
            self.normal_times_into(w, y, &mut scratch.variables, &mut scratch.residual);
            scratch.residual.iter_mut().zip(r).for_each(|(p, r)| *p = r - *p);
            if max_abs(&scratch.residual) <= REFINED * scale {
                break;
            }
            self.solve_factored(factors, &scratch.residual, &mut scratch.correction, &mut scratch.dense);
            y.iter_mut().zip(&scratch.correction).for_each(|(y, c)| *y += c);
        }
    }

    /// Factors the normal matrix for weights `w`: inverts the blocks of regular jobs and
    /// LU-factors the dense system of what remains (see [`Blocks::refined`]).
    ///
    /// A job's block is singular to working precision near a degenerate optimum (a job on one
    /// type with both of its rows tight: only `t`'s column, in the border, tells its rows
    /// apart), and eliminating it first would lose the step. Such a job (determinant below
    /// `DEGENERATE_BLOCK` times the product of its diagonal) keeps its two rows in the dense
    /// system, where partial pivoting treats them with `t`'s.
    fn factor(&self, w: &[f64], factors: &mut Factors) {
        let (jobs, types) = (self.jobs.len(), self.types.len());
        let border_size = types + 1;
        let Factors { blocks, borders, dense } = factors;
        blocks.clear();
        borders.clear();
        borders.resize(jobs * 2 * border_size, 0.0);
        let mut border_system = vec![0.0; border_size * border_size];
        let mut in_dense = Vec::new();
        for j in 0..types {
            border_system[j * border_size + j] += w[self.t() + 1 + 2 * jobs + j];
        }
        border_system[types * border_size + types] = -1.0 / w[self.t()];
        for i in 0..jobs {
            let (w_u, w_g) = (w[self.t() + 1 + i], w[self.t() + 1 + jobs + i]);
            let (mut b11, mut b12, mut b22, mut spread) = (w_u, 0.0, w_g, 0.0);
            let border = &mut borders[i * 2 * border_size..(i + 1) * 2 * border_size];
            for k in self.start[i]..self.start[i + 1] {
                let (rate, weight, j) = (self.rate[k], w[k], self.pair_type[k]);
                b11 += rate * rate * weight;
                b12 += rate * weight;
                b22 += weight;
                let later = k + 1..self.start[i + 1];
                for (other_weight, other_rate) in w[later.clone()].iter().zip(&self.rate[later]) {
                    spread += weight * other_weight * (rate - other_rate) * (rate - other_rate);
                }
                let scale = self.gpu_share[k] * weight;
                border[j] = rate * scale;
                border[border_size + j] = scale;
                border_system[j * border_size + j] += self.gpu_share[k] * scale;
            }
            border[types] = -self.demand[i];
            // b11 b22 - b12^2 as a sum of non-negative terms (Lagrange's identity).
            let det = spread + w_u * b22 + w_g * (b11 - w_u);
            if det < DEGENERATE_BLOCK * b11 * b22 {
                blocks.push(Block::InDense { row: border_size + 2 * in_dense.len(), matrix: [b11, b12, b22] });
                in_dense.push(i);
                continue;
            }
            let inverse = [b22 / det, -b12 / det, b11 / det];
            // border_system -= F_i' B_i^-1 F_i
            for p in 0..border_size {
                let (f1, f2) = (border[p], border[border_size + p]);
                let (g1, g2) = (inverse[0] * f1 + inverse[1] * f2, inverse[1] * f1 + inverse[2] * f2);
                for q in 0..border_size {
                    border_system[p * border_size + q] -= g1 * border[q] + g2 * border[border_size + q];
                }
            }
            blocks.push(Block::Eliminated { inverse });
        }
        let size = border_size + 2 * in_dense.len();
        let mut dense_matrix = vec![0.0; size * size];
        for p in 0..border_size {
            dense_matrix[p * size..p * size + border_size]
                .copy_from_slice(&border_system[p * border_size..(p + 1) * border_size]);
        }
        for &i in &in_dense {
            let Block::InDense { row, matrix } = blocks[i] else {
                unreachable!("only jobs in the dense system are listed")
            };
            let border = &borders[i * 2 * border_size..(i + 1) * 2 * border_size];
            dense_matrix[row * size + row] = matrix[0];
            dense_matrix[row * size + row + 1] = matrix[1];
            dense_matrix[(row + 1) * size + row] = matrix[1];
            dense_matrix[(row + 1) * size + row + 1] = matrix[2];
            for p in 0..border_size {
                for (offset, value) in [(0, border[p]), (1, border[border_size + p])] {
                    dense_matrix[(row + offset) * size + p] = value;
                    dense_matrix[p * size + row + offset] = value;
                }
            }
        }
        *dense = Lu::new(size, dense_matrix);
    }

    /// Solves with the factors of [`Blocks::factor`]: the dense system first (the border `q`
    /// and the rows of jobs left in it), then each eliminated job's `y_i = B_i^-1 (r_i - F_i q)`.
    fn solve_factored(&self, factors: &Factors, r: &[f64], y: &mut [f64], rhs: &mut Vec<f64>) {
        let (jobs, types) = (self.jobs.len(), self.types.len());
        let border_size = types + 1;
        rhs.clear();
        rhs.resize(factors.dense.size, 0.0);
        rhs[..types].copy_from_slice(&r[2 * jobs..]);
        for (i, block) in factors.blocks.iter().enumerate() {
            let (r1, r2) = (r[2 * i], r[2 * i + 1]);
            match *block {
                Block::Eliminated { inverse } => {
                    let border = &factors.borders[i * 2 * border_size..(i + 1) * 2 * border_size];
                    let (g1, g2) = (inverse[0] * r1 + inverse[1] * r2, inverse[1] * r1 + inverse[2] * r2);
                    for p in 0..border_size {
                        rhs[p] -= border[p] * g1 + border[border_size + p] * g2;
                    }
                }
                Block::InDense { row, .. } => {
                    rhs[row] = r1;
                    rhs[row + 1] = r2;
                }
            }
        }
        factors.dense.solve(rhs);
        let solved = &rhs[..];
        let q = &solved[..border_size];
        for (i, block) in factors.blocks.iter().enumerate() {
            match *block {
                Block::Eliminated { inverse } => {
                    let border = &factors.borders[i * 2 * border_size..(i + 1) * 2 * border_size];
                    let (mut r1, mut r2) = (r[2 * i], r[2 * i + 1]);
                    for p in 0..border_size {
                        r1 -= border[p] * q[p];
                        r2 -= border[border_size + p] * q[p];
                    }
                    y[2 * i] = inverse[0] * r1 + inverse[1] * r2;
                    y[2 * i + 1] = inverse[1] * r1 + inverse[2] * r2;
                }
                Block::InDense { row, .. } => {
                    y[2 * i] = solved[row];
                    y[2 * i + 1] = solved[row + 1];
                }
            }
        }
        y[2 * jobs..].copy_from_slice(&q[..types]);
    }

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
    fn interior_point(&self) -> Result<(Vec<f64>, usize), String> {
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

/// How a job's 2x2 block `B_i` enters the factorisation.
#[derive(Clone, Copy)]
enum Block {
    /// Eliminated: `[i11, i12, i22]` of the symmetric inverse.
    Eliminated {
        /// The inverse.
        inverse: [f64; 3],
    },
    /// Left in the dense system, from row `row` on: `[b11, b12, b22]`.
    InDense {
        /// The job's first row in the dense system.
        row: usize,
        /// The block.
        matrix: [f64; 3],
    },
}

/// The factorisation [`Blocks::factor`] writes.
#[derive(Default)]
struct Factors {
    /// Each job's block.
    blocks: Vec<Block>,
    /// Each job's border rows `F_i` (2 x (types + 1)), row-major, job after job.
    borders: Vec<f64>,
    /// The dense system: the border `q = (y_C, omega)` and the rows of the jobs left in it.
    dense: Lu,
}

/// Work vectors of [`Blocks::refined`], allocated once per solve.
struct Scratch {
    /// One entry per variable.
    variables: Vec<f64>,
    /// The residual, one entry per row.
    residual: Vec<f64>,
    /// The correction, one entry per row.
    correction: Vec<f64>,
    /// The dense system's right-hand side.
    dense: Vec<f64>,
}

impl Scratch {
    /// Work vectors sized for `blocks`.
    fn new(blocks: &Blocks) -> Scratch {
        Scratch {
            variables: vec![0.0; blocks.variables()],
            residual: vec![0.0; blocks.rows()],
            correction: vec![0.0; blocks.rows()],
            dense: Vec::new(),
        }
    }
}

/// An LU factorisation with partial pivoting of a dense square matrix.
#[derive(Default)]
struct Lu {
    /// The order.
    size: usize,
    /// `L` (unit diagonal, below) and `U` (on and above the diagonal), row-major.
    factors: Vec<f64>,
    /// The row swapped with each row in turn.
    pivots: Vec<usize>,
}

impl Lu {
    /// Factors the row-major `size` x `size` matrix `a`. A zero pivot (the matrix is singular
    /// in floating point) is taken as infinite, so its unknown comes out 0, as
    /// Cholesky-infinity does in interior-point codes.
    fn new(size: usize, mut a: Vec<f64>) -> Lu {
        let mut pivots = Vec::with_capacity(size);
        for col in 0..size {
            let pivot =
                (col..size).max_by(|&p, &q| a[p * size + col].abs().total_cmp(&a[q * size + col].abs())).unwrap_or(col);
            pivots.push(pivot);
            if pivot != col {
                for k in 0..size {
                    a.swap(col * size + k, pivot * size + k);
                }
            }
            let diagonal = a[col * size + col];
            if diagonal == 0.0 {
                a[col * size + col] = f64::INFINITY;
                for row in col + 1..size {
                    a[row * size + col] = 0.0;
                }
                continue;
            }
            for row in col + 1..size {
                let factor = a[row * size + col] / diagonal;
                a[row * size + col] = factor;
                if factor != 0.0 {
                    for k in col + 1..size {
                        a[row * size + k] -= factor * a[col * size + k];
                    }
                }
            }
        }
        Lu { size, factors: a, pivots }
    }

    /// Solves `a x = b` in place.
    fn solve(&self, b: &mut [f64]) {
        let (size, a) = (self.size, &self.factors);
        // The rows were swapped whole, multipliers included: permute first, then substitute.
        for (col, &pivot) in self.pivots.iter().enumerate() {
            b.swap(col, pivot);
        }
        for col in 0..size {
            for row in col + 1..size {
                b[row] -= a[row * size + col] * b[col];
            }
        }
        for row in (0..size).rev() {
            let tail: f64 = (row + 1..size).map(|k| a[row * size + k] * b[k]).sum();
            b[row] = (b[row] - tail) / a[row * size + row];
        }
    }
}

/// The largest `alpha` in `[0, 1]` with `v + alpha dv >= 0`.
fn longest_step(v: &[f64], dv: &[f64]) -> f64 {
    v.iter().zip(dv).filter(|(_, dv)| **dv < 0.0).map(|(v, dv)| -v / dv).fold(1.0, f64::min)
}

/// The largest absolute entry.
fn max_abs(values: &[f64]) -> f64 {
    values.iter().fold(0.0, |max, value| max.max(value.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Comparison, LinearProgram, Sense, Var, solve};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The same program as a general LP.
    fn as_lp(problem: &MaxMinRatio<'_>) -> (LinearProgram, Var, Vec<Vec<Var>>) {
        let mut lp = LinearProgram::new(problem.name, Sense::Maximize);
        let t = lp.variable(f64::NEG_INFINITY, f64::INFINITY);
        lp.objective(t, 1.0);
        let vars: Vec<Vec<Var>> = problem
            .rates
            .iter()
            .map(|row| row.iter().map(|rate| lp.variable(0.0, if *rate > 0.0 { 1.0 } else { 0.0 })).collect())
            .collect();
        for (m, row) in vars.iter().enumerate() {
            lp.constraint(row.iter().map(|&var| (var, 1.0)).collect(), Comparison::AtMost, 1.0);
            let offset = problem.offset_of(m);
            if problem.demand[m] > 0.0 || offset > 0.0 {
                let mut terms: Vec<_> = row.iter().zip(&problem.rates[m]).map(|(&var, rate)| (var, -rate)).collect();
                terms.push((t, problem.demand[m]));
                lp.constraint(terms, Comparison::AtMost, -offset);
            }
        }
        if problem.demand.iter().all(|demand| *demand <= 0.0) {
            lp.constraint(vec![(t, 1.0)], Comparison::AtMost, 0.0);
        }
        for (j, &gpus) in problem.capacity.iter().enumerate() {
            let terms = vars.iter().zip(problem.gpu_use).map(|(row, &used)| (row[j], used)).collect();
            lp.constraint(terms, Comparison::AtMost, gpus);
        }
        (lp, t, vars)
    }

    struct Instance {
        rates: Vec<Vec<f64>>,
        demand: Vec<f64>,
        gpu_use: Vec<f64>,
        capacity: Vec<f64>,
        offset: Option<Vec<f64>>,
    }

    impl Instance {
        fn problem(&self) -> MaxMinRatio<'_> {
            MaxMinRatio {
                name: "test",
                rates: &self.rates,
                demand: &self.demand,
                offset: self.offset.as_deref(),
                gpu_use: &self.gpu_use,
                capacity: &self.capacity,
            }
        }

        /// Offsets that a feasible point meets with room `1 - share` to spare, as in the
        /// scaled step of finish-time fairness (there, the current allocation meets them).
        fn with_offsets_met_by_a_feasible_point(mut self, rng: &mut ChaCha8Rng, share: f64) -> Instance {
            let mut point: Vec<Vec<f64>> = self
                .rates
                .iter()
                .map(|row| row.iter().map(|rate| if *rate > 0.0 { rng.random_range(0.0..1.0) } else { 0.0 }).collect())
                .collect();
            let problem = self.problem();
            make_feasible(&problem, &mut point);
            let offsets = point
                .iter()
                .zip(&self.rates)
                .map(|(row, rates)| share * row.iter().zip(rates).map(|(x, rate)| x * rate).sum::<f64>())
                .collect();
            self.offset = Some(offsets);
            self
        }
    }

    /// Random jobs on `types` types, some types unusable by some jobs, some jobs without
    /// demand, scale factors 1-8; with `wide`, demands spread over eight orders of magnitude
    /// (as remaining steps in makespan LPs).
    fn random_instance(rng: &mut ChaCha8Rng, jobs: usize, types: usize, wide: bool) -> Instance {
        let rates = (0..jobs)
            .map(|_| {
                let mut row: Vec<f64> =
                    (0..types).map(|_| if rng.random_bool(0.15) { 0.0 } else { rng.random_range(0.5..50.0) }).collect();
                if row.iter().all(|rate| *rate == 0.0) {
                    row[0] = 1.0;
                }
                row
            })
            .collect();
        let demand = (0..jobs)
            .map(|_| match (rng.random_bool(0.1), wide) {
                (true, _) => 0.0,
                (false, true) => 10f64.powf(rng.random_range(-1.0..7.0)),
                (false, false) => rng.random_range(0.1..1e3),
            })
            .collect();
        let gpu_use = (0..jobs).map(|_| f64::from([1u32, 2, 4, 8][rng.random_range(0..4)])).collect();
        let capacity = (0..types).map(|_| f64::from(rng.random_range(1u32..(jobs as u32).max(2)))).collect();
        Instance { rates, demand, gpu_use, capacity, offset: None }
    }

    /// Checks feasibility within `tolerance` and returns the smallest ratio
    /// `(rate - offset) / demand`.
    fn check_feasible(problem: &MaxMinRatio<'_>, fractions: &[Vec<f64>], tolerance: f64) -> f64 {
        let mut ratio = f64::INFINITY;
        for (m, row) in fractions.iter().enumerate() {
            assert!(row.iter().sum::<f64>() <= 1.0 + tolerance, "job {m} has more than all of its time: {row:?}");
            for (j, x) in row.iter().enumerate() {
                assert!(*x >= 0.0 && (problem.rates[m][j] > 0.0 || *x == 0.0), "job {m} type {j}: {x}");
            }
            let rate: f64 = row.iter().zip(&problem.rates[m]).map(|(x, rate)| x * rate).sum();
            let offset = problem.offset.map_or(0.0, |offset| offset[m]);
            if problem.demand[m] > 0.0 {
                ratio = ratio.min((rate - offset) / problem.demand[m]);
            } else {
                assert!(rate >= offset * (1.0 - tolerance), "job {m} has a rate of {rate} under its offset {offset}");
            }
        }
        for (j, &gpus) in problem.capacity.iter().enumerate() {
            let used: f64 = fractions.iter().zip(problem.gpu_use).map(|(row, used)| row[j] * used).sum();
            assert!(used <= gpus * (1.0 + tolerance) + tolerance, "type {j} uses {used} of {gpus} GPUs");
        }
        ratio
    }

    #[test]
    fn input_that_is_not_a_finite_non_negative_number_is_an_error_naming_it() {
        let instance = Instance {
            rates: vec![vec![1.0, f64::NAN]],
            demand: vec![1.0],
            gpu_use: vec![1.0],
            capacity: vec![1.0, 1.0],
            offset: None,
        };
        let error = solve_max_min_ratio(&instance.problem()).unwrap_err();
        assert_eq!(error.failure, Failure::Unusable);
        assert!(error.to_string().contains("job 0's rate on type 1 is NaN"), "{error}");
        let instance = Instance { capacity: vec![1.0, -2.0], rates: vec![vec![1.0, 1.0]], ..instance };
        let error = solve_max_min_ratio(&instance.problem()).unwrap_err();
        assert!(error.to_string().contains("type 1's capacity is -2"), "{error}");
        let instance = Instance { capacity: vec![1.0, 1.0], offset: Some(vec![f64::INFINITY]), ..instance };
        let error = solve_max_min_ratio(&instance.problem()).unwrap_err();
        assert!(error.to_string().contains("job 0's offset is inf"), "{error}");
    }

    #[test]
    fn an_offset_out_of_a_jobs_reach_is_infeasible_and_one_at_its_reach_leaves_t_at_zero() {
        let instance = Instance {
            rates: vec![vec![1.0, 2.0], vec![1.0, 0.0]],
            demand: vec![1.0, 1.0],
            gpu_use: vec![1.0, 1.0],
            capacity: vec![1.0, 1.0],
            offset: Some(vec![0.0, 1.5]),
        };
        let error = solve_max_min_ratio(&instance.problem()).unwrap_err();
        assert_eq!(error.failure, Failure::Infeasible);
        assert!(error.to_string().contains("job 1 needs a rate of 1.5 but reaches at most 1"), "{error}");
        // Job 1 needs all of its time at t = 0: no t > 0 is feasible, and the point gives it all.
        let instance = Instance { offset: Some(vec![0.0, 1.0]), ..instance };
        let solved = solve_max_min_ratio(&instance.problem()).unwrap();
        assert!(solved.ratio.abs() < 1e-8 && (solved.fractions[1][0] - 1.0).abs() < 1e-8, "{solved:?}");
        // With offsets, t = 0 for lack of demand, or for a job with demand that can run
        // nowhere, needs a point that meets the offsets: left to a general method.
        let no_demand = Instance { offset: Some(vec![0.5, 0.5]), demand: vec![0.0, 0.0], ..instance };
        assert_eq!(solve_max_min_ratio(&no_demand.problem()).unwrap_err().failure, Failure::Unusable);
        let nowhere = Instance { offset: Some(vec![0.5, 0.0]), capacity: vec![0.0, 1.0], ..no_demand };
        let nowhere = Instance { demand: vec![0.0, 1.0], ..nowhere };
        assert_eq!(solve_max_min_ratio(&nowhere.problem()).unwrap_err().failure, Failure::Unusable);
    }

    #[test]
    fn matches_the_simplex_optimum_on_random_programs() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for case in 0..300 {
            let jobs = if case % 10 == 9 { rng.random_range(100..400) } else { rng.random_range(1..40) };
            let types = rng.random_range(1..5);
            let instance = random_instance(&mut rng, jobs, types, case % 2 == 1);
            let problem = instance.problem();
            let (lp, t, _) = as_lp(&problem);
            let expected = solve(&lp, Backend::MicroLp).unwrap().value(t);
            let solved = solve_max_min_ratio(&problem).unwrap();
            let achieved = check_feasible(&problem, &solved.fractions, 1e-7);
            assert!(
                (solved.ratio - expected).abs() <= 1e-7 * expected.abs().max(1e-9),
                "case {case}: ratio {} against the simplex's {expected}",
                solved.ratio
            );
            if expected > 0.0 {
                assert!((achieved - expected).abs() <= 1e-6 * expected, "case {case}: {achieved} vs {expected}");
            }
        }
    }

    #[test]
    fn matches_the_simplex_optimum_on_random_programs_with_offsets() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut solved_here = 0;
        for case in 0..300 {
            let jobs = if case % 10 == 9 { rng.random_range(100..400) } else { rng.random_range(1..40) };
            let types = rng.random_range(1..5);
            let share = [0.0, 0.5, 0.9, 0.999][case % 4];
            let instance = random_instance(&mut rng, jobs, types, case % 2 == 1)
                .with_offsets_met_by_a_feasible_point(&mut rng, share);
            let problem = instance.problem();
            let (lp, t, _) = as_lp(&problem);
            let expected = solve(&lp, Backend::MicroLp).unwrap().value(t);
            let solved = match solve_max_min_ratio(&problem) {
                Ok(solved) => solved,
                // Only where t = 0 may be the optimum (no positive demand, or a job on one type
                // that needs all of its time).
                Err(error) if error.failure == Failure::Unusable => {
                    assert!(expected <= 1e-9, "case {case}: {error} where the optimum is {expected}");
                    continue;
                }
                Err(error) => panic!("case {case}: {error}"),
            };
            solved_here += 1;
            check_feasible(&problem, &solved.fractions, 1e-7);
            // The method's tolerances hold for rows scaled by each job's largest rate, so `t` is
            // accurate to them relative to `largest rate / demand`, and with offsets met with
            // little room to spare, the optimum can be far below that.
            let t_unit = (0..jobs)
                .filter(|&m| instance.demand[m] > 0.0)
                .map(|m| instance.rates[m].iter().copied().fold(0.0, f64::max) / instance.demand[m])
                .fold(f64::INFINITY, f64::min);
            assert!(
                (solved.ratio - expected).abs() <= 1e-6 * expected.abs().max(t_unit),
                "case {case}: ratio {} against the simplex's {expected}",
                solved.ratio
            );
            // Every job gets the rate the optimum requires, to the tolerance of its row (scaled
            // by the job's largest rate).
            for (m, row) in solved.fractions.iter().enumerate() {
                let rate: f64 = row.iter().zip(&instance.rates[m]).map(|(x, rate)| x * rate).sum();
                let required = problem.offset.unwrap()[m] + expected * problem.demand[m];
                let largest = instance.rates[m].iter().copied().fold(0.0, f64::max);
                assert!(rate >= required - 1e-6 * largest, "case {case}: job {m} has a rate of {rate} of {required}");
            }
        }
        assert!(solved_here >= 250, "only {solved_here} of 300 programs were solved here");
    }
}

#[cfg(test)]
mod linear_algebra_tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The backward error of `y`: the largest entry of `r - A W A' y` relative to
    /// `max(w) max|y| + max|r|` (the coefficients of `A` are at most 1).
    fn backward_error(blocks: &Blocks, w: &[f64], r: &[f64], y: &[f64]) -> f64 {
        let weighted: Vec<f64> = blocks.transposed_times(y).iter().zip(w).map(|(a, w)| a * w).collect();
        let product = blocks.times(&weighted);
        let residual = r.iter().zip(&product).map(|(r, p)| (r - p).abs()).fold(0.0, f64::max);
        residual / (w.iter().copied().fold(0.0, f64::max) * max_abs(y) + max_abs(r))
    }

    #[test]
    fn the_factored_normal_equations_are_solved_with_and_without_dense_rows() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut dense_cases = 0;
        for case in 0..200 {
            let jobs = rng.random_range(1..8);
            let rates: Vec<Vec<f64>> =
                (0..jobs).map(|_| (0..3).map(|_| rng.random_range(0.5..5.0)).collect()).collect();
            let demand: Vec<f64> = (0..jobs).map(|_| rng.random_range(0.5..5.0)).collect();
            let (gpu_use, capacity) = (vec![1.0; jobs], vec![2.0; 3]);
            let problem = MaxMinRatio {
                name: "test",
                rates: &rates,
                demand: &demand,
                offset: None,
                gpu_use: &gpu_use,
                capacity: &capacity,
            };
            let blocks = Blocks::new(&problem).unwrap().unwrap();
            let mut w: Vec<f64> = (0..blocks.variables()).map(|_| 10f64.powf(rng.random_range(-3.0..3.0))).collect();
            if case % 2 == 1 {
                // As near a degenerate optimum: job 0 on its first type only, both rows tight.
                let job_weights =
                    (blocks.start[0]..blocks.start[1]).chain([blocks.t() + 1, blocks.t() + 1 + blocks.jobs.len()]);
                for (n, k) in job_weights.enumerate() {
                    w[k] = if n == 0 { 1e8 } else { 1e-8 };
                }
                w[blocks.t()] = 1e8;
            }
            let r: Vec<f64> = (0..blocks.rows()).map(|_| rng.random_range(-1.0..1.0)).collect();
            let mut factors = Factors::default();
            blocks.factor(&w, &mut factors);
            dense_cases += usize::from(factors.dense.size > blocks.types.len() + 1);
            let mut y = vec![0.0; blocks.rows()];
            blocks.refined(&factors, &w, &r, &mut y, &mut Scratch::new(&blocks));
            let error = backward_error(&blocks, &w, &r, &y);
            assert!(error <= 1e-13, "case {case}: backward error {error:e}");
        }
        assert!(dense_cases >= 50, "only {dense_cases} cases left a job's rows in the dense system");
    }

    #[test]
    fn lu_takes_a_zero_pivot_as_infinite_instead_of_dividing_by_it() {
        // Singular in floating point: the second unknown comes out 0, the first solves its row.
        let mut solved = vec![2.0, 2.0];
        Lu::new(2, vec![1.0, 1.0, 1.0, 1.0]).solve(&mut solved);
        assert_eq!(solved, [2.0, 0.0]);
    }

    #[test]
    fn lu_solves_a_system_that_needs_pivoting() {
        let a = vec![0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let x = [1.0, -2.0, 3.0];
        let b: Vec<f64> = (0..3).map(|row| (0..3).map(|col| a[row * 3 + col] * x[col]).sum()).collect();
        let mut solved = b;
        Lu::new(3, a).solve(&mut solved);
        for (got, want) in solved.iter().zip(x) {
            assert!((got - want).abs() < 1e-12, "{solved:?}");
        }
    }
}
