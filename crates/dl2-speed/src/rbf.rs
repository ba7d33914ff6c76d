//! Radial-basis interpolation with the linear kernel, as `scipy.interpolate.Rbf(x, y, z,
//! function='linear')` computes it: `f(p) = sum_j c_j |p - p_j|` (Euclidean distance, no
//! polynomial term, no smoothing), the coefficients solving `A c = z` with `A_ij = |p_i - p_j|`.
//! scipy solves with LAPACK's `gesv` (LU with partial pivoting); so does [`LinearRbf::fit`].

/// A fitted interpolant over points in the plane.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearRbf {
    points: Vec<(f64, f64)>,
    coefficients: Vec<f64>,
}

impl LinearRbf {
    /// Fits the interpolant through `values` at `points`. Fails when the system is singular
    /// (two equal points, say).
    pub fn fit(points: &[(f64, f64)], values: &[f64]) -> Result<LinearRbf, String> {
        assert_eq!(points.len(), values.len(), "one value per point");
        let n = points.len();
        if n == 0 {
            return Err("no points to interpolate".into());
        }
        let mut matrix: Vec<f64> = Vec::with_capacity(n * n);
        for a in points {
            for b in points {
                matrix.push(distance(*a, *b));
            }
        }
        let coefficients = solve(n, &mut matrix, values.to_vec())?;
        Ok(LinearRbf { points: points.to_vec(), coefficients })
    }

    /// Returns the interpolated value at `(x, y)`.
    pub fn eval(&self, x: f64, y: f64) -> f64 {
        self.points.iter().zip(&self.coefficients).map(|(point, c)| c * distance(*point, (x, y))).sum()
    }

    /// Returns the points the interpolant was fitted to.
    pub fn points(&self) -> &[(f64, f64)] {
        &self.points
    }
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// Solves `matrix x = rhs` (row-major, `n x n`) by LU with partial pivoting.
fn solve(n: usize, matrix: &mut [f64], mut rhs: Vec<f64>) -> Result<Vec<f64>, String> {
    for column in 0..n {
        let pivot = (column..n)
            .max_by(|&a, &b| matrix[a * n + column].abs().total_cmp(&matrix[b * n + column].abs()))
            .expect("a non-empty range");
        if matrix[pivot * n + column] == 0.0 {
            return Err(format!("the interpolation matrix is singular (column {column})"));
        }
        if pivot != column {
            for k in 0..n {
                matrix.swap(pivot * n + k, column * n + k);
            }
            rhs.swap(pivot, column);
        }
        let diagonal = matrix[column * n + column];
        for row in column + 1..n {
            let factor = matrix[row * n + column] / diagonal;
            if factor == 0.0 {
                continue;
            }
            for k in column..n {
                matrix[row * n + k] -= factor * matrix[column * n + k];
            }
            rhs[row] -= factor * rhs[column];
        }
    }
    let mut solution = vec![0.0; n];
    for row in (0..n).rev() {
        let tail: f64 = (row + 1..n).map(|k| matrix[row * n + k] * solution[k]).sum();
        solution[row] = (rhs[row] - tail) / matrix[row * n + row];
    }
    Ok(solution)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_through_its_points_and_is_linear_in_one_dimension() {
        // Three collinear points: f is piecewise linear between them (|x - x_j| is).
        let points = [(0.0, 0.0), (1.0, 0.0), (3.0, 0.0)];
        let rbf = LinearRbf::fit(&points, &[1.0, 3.0, 2.0]).unwrap();
        for (point, value) in points.iter().zip([1.0, 3.0, 2.0]) {
            assert!((rbf.eval(point.0, point.1) - value).abs() < 1e-12);
        }
        assert!((rbf.eval(2.0, 0.0) - 2.5).abs() < 1e-12);
        assert!((rbf.eval(0.5, 0.0) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn refuses_equal_points() {
        assert!(LinearRbf::fit(&[(1.0, 1.0), (1.0, 1.0)], &[1.0, 2.0]).is_err());
    }
}
