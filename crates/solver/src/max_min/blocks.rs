//! The scaled program in standard form and its normal equations: 2x2 blocks per job bordered
//! by one row per type and one for `t`, factored by eliminating the blocks.

use super::*;

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
pub(super) struct Blocks {
    /// Jobs with at least one usable pair, in order (others get no time): the listed jobs.
    pub(super) jobs: Vec<usize>,
    /// Types with capacity (others get no time).
    types: Vec<usize>,
    /// Each usable pair (job, type), grouped by job.
    pub(super) pairs: Vec<(usize, usize)>,
    /// Where each listed job's pairs start in `pairs` (one more entry than `jobs`).
    start: Vec<usize>,
    /// Each pair's index among the types with capacity.
    pair_type: Vec<usize>,
    /// Each pair's coefficient in its job's demand row.
    rate: Vec<f64>,
    /// Each pair's coefficient in its type's capacity row.
    gpu_share: Vec<f64>,
    /// Each listed job's scaled demand.
    pub(super) demand: Vec<f64>,
    /// Each listed job's scaled offset.
    pub(super) offset: Vec<f64>,
    /// `t = t_scale (t_scaled - t_shift)`.
    pub(super) t_scale: f64,
    /// With offsets 1 (the scaled `t` starts at `-1`, see [`MaxMinRatio::offset`]), otherwise 0.
    pub(super) t_shift: f64,
}

impl Blocks {
    /// The scaled program, or `None` when it has no offsets and its optimum is `t = 0`, or the
    /// failure that it cannot be solved so (see [`solve_max_min_ratio`]).
    pub(super) fn new(problem: &MaxMinRatio<'_>) -> Result<Option<Blocks>, (Failure, String)> {
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
    pub(super) fn t(&self) -> usize {
        self.pairs.len()
    }

    /// Number of variables.
    pub(super) fn variables(&self) -> usize {
        self.pairs.len() + 1 + 2 * self.jobs.len() + self.types.len()
    }

    /// Number of rows.
    pub(super) fn rows(&self) -> usize {
        2 * self.jobs.len() + self.types.len()
    }

    /// `A z`.
    pub(super) fn times(&self, z: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.rows()];
        self.times_into(z, &mut out);
        out
    }

    /// `out = A z`.
    pub(super) fn times_into(&self, z: &[f64], out: &mut [f64]) {
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
    pub(super) fn transposed_times(&self, y: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.variables()];
        self.transposed_times_into(y, &mut out);
        out
    }

    /// `out = A' y`.
    pub(super) fn transposed_times_into(&self, y: &[f64], out: &mut [f64]) {
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
    pub(super) fn refined(&self, factors: &Factors, w: &[f64], r: &[f64], y: &mut [f64], scratch: &mut Scratch) {
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
    pub(super) fn factor(&self, w: &[f64], factors: &mut Factors) {
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
pub(super) struct Factors {
    /// Each job's block.
    blocks: Vec<Block>,
    /// Each job's border rows `F_i` (2 x (types + 1)), row-major, job after job.
    borders: Vec<f64>,
    /// The dense system: the border `q = (y_C, omega)` and the rows of the jobs left in it.
    dense: Lu,
}

/// Work vectors of [`Blocks::refined`], allocated once per solve.
pub(super) struct Scratch {
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
    pub(super) fn new(blocks: &Blocks) -> Scratch {
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
pub(super) struct Lu {
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
