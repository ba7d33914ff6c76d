//! Linear interpolation as the Pollux artifact does it with scipy: 1-D over a sorted axis
//! (`interp1d`), and piecewise linear over a Delaunay triangulation of scattered 3-D points
//! (`LinearNDInterpolator`).

/// Occurs when interpolation is asked outside its data.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InterpError {
    /// Occurs when a 1-D query lies outside the measured range.
    #[error("{x} is outside the measured range [{low}, {high}]")]
    OutOfRange {
        /// The query.
        x: f64,
        /// Smallest measured value.
        low: f64,
        /// Largest measured value.
        high: f64,
    },
    /// Occurs when a 3-D query lies outside the convex hull of the measured points.
    #[error("({0}, {1}, {2}) is outside the convex hull of the measured points")]
    OutsideHull(f64, f64, f64),
    /// Occurs when Qhull cannot triangulate the points.
    #[error("Delaunay triangulation failed: {0}")]
    Triangulation(String),
}

/// Interpolates `ys` (each a pair) over sorted `xs` at `x`, as scipy's `interp1d(kind="linear")`:
/// the segment is found by a right-bisection clipped to the ends, and the value is
/// `y_lo + (y_hi - y_lo) / (x_hi - x_lo) * (x - x_lo)`.
pub fn linear_1d(xs: &[f64], ys: &[[f64; 2]], x: f64) -> Result<[f64; 2], InterpError> {
    let (low, high) = (xs[0], xs[xs.len() - 1]);
    if !(low..=high).contains(&x) {
        return Err(InterpError::OutOfRange { x, low, high });
    }
    if xs.len() == 1 {
        return Ok(ys[0]);
    }
    // numpy's searchsorted(xs, x) (left), clipped to 1..len-1.
    let hi = xs.partition_point(|&known| known < x).clamp(1, xs.len() - 1);
    let lo = hi - 1;
    let mut out = [0.0; 2];
    for (k, value) in out.iter_mut().enumerate() {
        let slope = (ys[hi][k] - ys[lo][k]) / (xs[hi] - xs[lo]);
        *value = slope * (x - xs[lo]) + ys[lo][k];
    }
    Ok(out)
}

/// Piecewise-linear interpolation of pairs over the Delaunay triangulation of 3-D points, as
/// scipy's `LinearNDInterpolator` computes it: Qhull with scipy's options (`d Qbb Qc Qz Q12 Qt`)
/// gives the same simplices in the same order, and the point is located with scipy's own walk
/// (`_find_simplex`: a walk on the lifted paraboloid from simplex 0, a directed walk, then brute
/// force). Where Qhull's triangulation of degenerate (grid) points overlaps, the simplex found,
/// and so the value, is the one scipy finds.
#[derive(Clone, Debug)]
pub struct Delaunay3 {
    values: Vec<[f64; 2]>,
    simplices: Vec<[usize; 4]>,
    /// `neighbors[s][k]`: the simplex opposite vertex `k` of `s`, if any.
    neighbors: Vec<[Option<usize>; 4]>,
    /// The facet's hyperplane on the lifted paraboloid: normal (4) and offset.
    equations: Vec<[f64; 5]>,
    /// Barycentric transforms; `None` for a degenerate (flat) simplex.
    transforms: Vec<Option<Transform>>,
    paraboloid_scale: f64,
    paraboloid_shift: f64,
    min_bound: [f64; 3],
    max_bound: [f64; 3],
}

/// `T^-1` (row-major) and the origin vertex of a simplex.
type Transform = ([[f64; 3]; 3], [f64; 3]);

/// scipy's tolerance on barycentric coordinates (`100 * DBL_EPSILON`).
const EPS: f64 = 100.0 * f64::EPSILON;

/// scipy's broader tolerance next to degenerate simplices (`sqrt(DBL_EPSILON)`).
fn eps_broad() -> f64 {
    f64::EPSILON.sqrt()
}

impl Delaunay3 {
    /// Triangulates `points` with their `values`.
    pub fn new(points: &[[f64; 3]], values: &[[f64; 2]]) -> Result<Delaunay3, InterpError> {
        let lower = schedlab_qhull::lower_delaunay(points).map_err(|error| InterpError::Triangulation(error.0))?;
        // scipy numbers the lower-Delaunay facets in facet-list order.
        let index: std::collections::HashMap<u32, usize> =
            lower.iter().enumerate().map(|(index, facet)| (facet.id, index)).collect();
        let mut simplices = Vec::with_capacity(lower.len());
        let mut neighbors = Vec::with_capacity(lower.len());
        let mut equations = Vec::with_capacity(lower.len());
        for facet in &lower {
            // A lower-Delaunay facet's unit normal points down the lifted axis. The last
            // component is taken from the first three, as the `qhull` crate's bindings (which
            // exposed only three) made schedlab compute it; Qhull's own fourth component can
            // differ in the last bits, and results stay byte-identical this way.
            let normal = facet.normal;
            let last = -(1.0 - normal[0] * normal[0] - normal[1] * normal[1] - normal[2] * normal[2]).max(0.0).sqrt();
            simplices.push(facet.vertices);
            neighbors.push(facet.neighbors.map(|id| index.get(&id).copied()));
            equations.push([normal[0], normal[1], normal[2], last, facet.offset]);
        }
        let transforms = simplices.iter().map(|ids| transform(ids, points)).collect();
        // Qhull's 'Qbb' scaled the lifted coordinate from [low, high] to [0, max |coordinate|],
        // where high is the point at infinity's (1.1 x the largest lift): scipy's
        // paraboloid_scale = last_newhigh / (last_high - last_low), shift = -last_low x scale.
        let lift = |p: &[f64; 3]| p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
        let low = points.iter().map(lift).fold(f64::INFINITY, f64::min);
        let high = points.iter().map(lift).fold(0.0, f64::max) * 1.1;
        let newhigh = points.iter().flatten().fold(0.0f64, |acc, c| acc.max(c.abs()));
        let paraboloid_scale = newhigh / (high - low);
        let mut min_bound = [f64::INFINITY; 3];
        let mut max_bound = [f64::NEG_INFINITY; 3];
        for point in points {
            for k in 0..3 {
                min_bound[k] = min_bound[k].min(point[k]);
                max_bound[k] = max_bound[k].max(point[k]);
            }
        }
        Ok(Delaunay3 {
            values: values.to_vec(),
            simplices,
            neighbors,
            equations,
            transforms,
            paraboloid_scale,
            paraboloid_shift: -low * paraboloid_scale,
            min_bound,
            max_bound,
        })
    }

    /// Returns the number of simplices (degenerate ones included, as in scipy).
    pub fn len(&self) -> usize {
        self.simplices.len()
    }

    /// Returns true if and only if there is no simplex.
    pub fn is_empty(&self) -> bool {
        self.simplices.is_empty()
    }

    /// Returns the interpolated pair at `x`, or an error outside the hull.
    pub fn at(&self, x: [f64; 3]) -> Result<[f64; 2], InterpError> {
        let (simplex, c) = self.find_simplex(x).ok_or(InterpError::OutsideHull(x[0], x[1], x[2]))?;
        let mut out = [0.0; 2];
        for (weight, &vertex) in c.iter().zip(&self.simplices[simplex]) {
            out[0] += weight * self.values[vertex][0];
            out[1] += weight * self.values[vertex][1];
        }
        Ok(out)
    }

    /// Returns the simplex holding `x` and its barycentric coordinates (scipy's `_find_simplex`
    /// from start simplex 0).
    fn find_simplex(&self, x: [f64; 3]) -> Option<(usize, [f64; 4])> {
        if self.is_fully_outside(x, EPS) || self.simplices.is_empty() {
            return None;
        }
        // Walk the lifted paraboloid towards a facet with a positive plane distance.
        let z = [
            x[0],
            x[1],
            x[2],
            (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) * self.paraboloid_scale + self.paraboloid_shift,
        ];
        let mut simplex = 0;
        let mut best = self.distplane(simplex, &z);
        let mut changed = true;
        while changed {
            if best > 0.0 {
                break;
            }
            changed = false;
            for k in 0..4 {
                let Some(neighbor) = self.neighbors[simplex][k] else { continue };
                let dist = self.distplane(neighbor, &z);
                if dist > best + EPS * (1.0 + best.abs()) {
                    // As in scipy: continue the sweep from the next k of the new simplex.
                    simplex = neighbor;
                    best = dist;
                    changed = true;
                }
            }
        }
        self.find_directed(x, simplex)
    }

    fn is_fully_outside(&self, x: [f64; 3], eps: f64) -> bool {
        (0..3).any(|k| x[k] < self.min_bound[k] - eps || x[k] > self.max_bound[k] + eps)
    }

    fn distplane(&self, simplex: usize, z: &[f64; 4]) -> f64 {
        let e = &self.equations[simplex];
        let mut dist = e[4];
        for k in 0..4 {
            dist += e[k] * z[k];
        }
        dist
    }

    /// scipy's `_find_simplex_directed`.
    fn find_directed(&self, x: [f64; 3], start: usize) -> Option<(usize, [f64; 4])> {
        let mut simplex = Some(start);
        for _ in 0..1 + self.simplices.len() / 4 {
            let current = simplex?;
            let mut c = [0.0; 4];
            let mut inside = 1;
            for k in 0..4 {
                c[k] = self.coordinate(current, x, &c, k);
                if c[k] < -EPS {
                    let neighbor = self.neighbors[current][k]?;
                    simplex = Some(neighbor);
                    inside = -1;
                    break;
                } else if c[k] <= 1.0 + EPS {
                    // inside along this coordinate
                } else {
                    // outside, or NaN: a degenerate simplex
                    inside = 0;
                }
            }
            match inside {
                -1 => continue,
                1 => return Some((current, c)),
                _ => return self.find_bruteforce(x),
            }
        }
        self.find_bruteforce(x)
    }

    /// Barycentric coordinate `k` (the last one from the others, which must be done); NaN for
    /// a degenerate simplex.
    fn coordinate(&self, simplex: usize, x: [f64; 3], done: &[f64; 4], k: usize) -> f64 {
        let Some((inverse, origin)) = &self.transforms[simplex] else { return f64::NAN };
        if k == 3 {
            return 1.0 - done[0] - done[1] - done[2];
        }
        let mut value = 0.0;
        for j in 0..3 {
            value += inverse[k][j] * (x[j] - origin[j]);
        }
        value
    }

    fn coordinates(&self, simplex: usize, x: [f64; 3]) -> [f64; 4] {
        let mut c = [0.0; 4];
        for k in 0..4 {
            c[k] = self.coordinate(simplex, x, &c, k);
        }
        c
    }

    /// scipy's `_find_simplex_bruteforce`.
    fn find_bruteforce(&self, x: [f64; 3]) -> Option<(usize, [f64; 4])> {
        if self.is_fully_outside(x, EPS) {
            return None;
        }
        let within = |c: f64, low: f64| (low..=1.0 + EPS).contains(&c);
        for simplex in 0..self.simplices.len() {
            if self.transforms[simplex].is_some() {
                let c = self.coordinates(simplex, x);
                if c.iter().all(|&c| within(c, -EPS)) {
                    return Some((simplex, c));
                }
                continue;
            }
            // A degenerate simplex: look at its neighbours with more leeway towards it.
            for k in 0..4 {
                let Some(neighbor) = self.neighbors[simplex][k] else { continue };
                if self.transforms[neighbor].is_none() {
                    continue;
                }
                let c = self.coordinates(neighbor, x);
                let inside = (0..4).all(|m| {
                    let low = if self.neighbors[neighbor][m] == Some(simplex) { -eps_broad() } else { -EPS };
                    within(c[m], low)
                });
                if inside {
                    return Some((neighbor, c));
                }
            }
        }
        None
    }
}

/// The barycentric transform of a simplex, as scipy's `_get_barycentric_transforms`: `T^-1`
/// for `T = [v0 - v3, v1 - v3, v2 - v3]` (columns) and origin `v3`; `None` when `T` is singular
/// or its reciprocal condition number (1-norm) is below `1000 x DBL_EPSILON`.
fn transform(ids: &[usize; 4], points: &[[f64; 3]]) -> Option<Transform> {
    let origin = points[ids[3]];
    let mut matrix = [[0.0; 3]; 3];
    for (column, &id) in ids[..3].iter().enumerate() {
        for row in 0..3 {
            matrix[row][column] = points[id][row] - origin[row];
        }
    }
    let inverse = invert(matrix)?;
    let norm1 =
        |m: &[[f64; 3]; 3]| (0..3).map(|col| (0..3).map(|row| m[row][col].abs()).sum::<f64>()).fold(0.0, f64::max);
    let rcond = 1.0 / (norm1(&matrix) * norm1(&inverse));
    (rcond >= 1000.0 * f64::EPSILON).then_some((inverse, origin))
}

/// Inverts a 3 x 3 matrix; `None` when it is singular.
fn invert(m: [[f64; 3]; 3]) -> Option<[[f64; 3]; 3]> {
    let cofactor = |r0: usize, r1: usize, c0: usize, c1: usize| m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0];
    let det = m[0][0] * cofactor(1, 2, 1, 2) - m[0][1] * cofactor(1, 2, 0, 2) + m[0][2] * cofactor(1, 2, 0, 1);
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let mut inverse = [[0.0; 3]; 3];
    inverse[0][0] = cofactor(1, 2, 1, 2) / det;
    inverse[0][1] = -cofactor(0, 2, 1, 2) / det;
    inverse[0][2] = cofactor(0, 1, 1, 2) / det;
    inverse[1][0] = -cofactor(1, 2, 0, 2) / det;
    inverse[1][1] = cofactor(0, 2, 0, 2) / det;
    inverse[1][2] = -cofactor(0, 1, 0, 2) / det;
    inverse[2][0] = cofactor(1, 2, 0, 1) / det;
    inverse[2][1] = -cofactor(0, 2, 0, 1) / det;
    inverse[2][2] = cofactor(0, 1, 0, 1) / det;
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_1d_matches_hand_values_and_refuses_extrapolation() {
        let xs = [1.0, 2.0, 4.0];
        let ys = [[1.0, 10.0], [2.0, 20.0], [6.0, 0.0]];
        assert_eq!(linear_1d(&xs, &ys, 3.0).unwrap(), [4.0, 10.0]);
        assert_eq!(linear_1d(&xs, &ys, 1.0).unwrap(), [1.0, 10.0]);
        assert_eq!(linear_1d(&xs, &ys, 4.0).unwrap(), [6.0, 0.0]);
        assert_eq!(linear_1d(&xs, &ys, 4.5), Err(InterpError::OutOfRange { x: 4.5, low: 1.0, high: 4.0 }));
    }

    #[test]
    fn delaunay_interpolates_an_affine_function_exactly() {
        // The corners of a cube and its centre; f(x) = 1 + 2x - y + 3z is linear, so any
        // triangulation reproduces it.
        let mut points = Vec::new();
        for corner in 0..8 {
            points.push([f64::from(corner & 1), f64::from((corner >> 1) & 1), f64::from((corner >> 2) & 1)]);
        }
        points.push([0.5, 0.5, 0.5]);
        let f = |p: [f64; 3]| [1.0 + 2.0 * p[0] - p[1] + 3.0 * p[2], p[0] * 0.0 + 7.0];
        let values: Vec<[f64; 2]> = points.iter().map(|p| f(*p)).collect();
        let mesh = Delaunay3::new(&points, &values).unwrap();
        assert!(mesh.len() >= 5, "{}", mesh.len());
        for query in [[0.25, 0.5, 0.75], [0.9, 0.1, 0.2], [1.0, 1.0, 1.0], [0.0, 0.3, 0.0]] {
            let got = mesh.at(query).unwrap();
            let want = f(query);
            assert!((got[0] - want[0]).abs() < 1e-12 && (got[1] - want[1]).abs() < 1e-12, "{query:?}: {got:?}");
        }
        assert!(matches!(mesh.at([1.5, 0.5, 0.5]), Err(InterpError::OutsideHull(..))));
    }
}
