//! The Delaunay triangulation of 3-D points as scipy's `Delaunay` computes it: Qhull 2020.2
//! (compiled from `vendor/libqhull_r` with the `cc` crate) with scipy's options
//! `d Qbb Qc Qz Q12 Qt`, returning the lower Delaunay facets in Qhull's facet-list order, the
//! order scipy numbers its simplices in.
//!
//! The C entry point (`src/delaunay.c`) hands back plain arrays, so the binding below is
//! written by hand: the build needs a C compiler and no libclang.

use std::ffi::{c_char, c_double, c_int, c_uint};

/// Occurs when Qhull cannot triangulate the points or returns something other than tetrahedra.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct QhullError(pub String);

/// One tetrahedron of the lower Delaunay triangulation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tetrahedron {
    /// Qhull's facet id (what [`Tetrahedron::neighbors`] refer to).
    pub id: u32,
    /// Indices of its vertices in the input points, in Qhull's order.
    pub vertices: [usize; 4],
    /// Facet ids of its neighbours, `neighbors[k]` opposite vertex `k`; an id that is no
    /// tetrahedron of the result is an upper Delaunay facet (outside the triangulation).
    pub neighbors: [u32; 4],
    /// The facet's unit normal on the lifted paraboloid (four components).
    pub normal: [f64; 4],
    /// The facet's offset: a lifted point `z` lies at distance `normal . z + offset`.
    pub offset: f64,
}

/// Mirrors `schedlab_facet_t` in `src/delaunay.h`.
#[repr(C)]
struct RawFacet {
    id: c_uint,
    vertex_count: c_int,
    vertices: [c_int; 4],
    neighbor_count: c_int,
    neighbors: [c_uint; 4],
    has_normal: c_int,
    normal: [c_double; 4],
    offset: c_double,
}

/// Mirrors `schedlab_delaunay3_t` in `src/delaunay.h`.
#[repr(C)]
struct RawTriangulation {
    count: c_int,
    hull_dim: c_int,
    facets: *mut RawFacet,
    message: [c_char; 1024],
}

#[allow(unsafe_code)]
unsafe extern "C" {
    fn schedlab_delaunay3(coords: *mut c_double, num_points: c_int, out: *mut RawTriangulation) -> c_int;
    fn schedlab_delaunay3_free(out: *mut RawTriangulation);
}

/// Triangulates `points` and returns the lower Delaunay tetrahedra in Qhull's order.
pub fn lower_delaunay(points: &[[f64; 3]]) -> Result<Vec<Tetrahedron>, QhullError> {
    let num_points = c_int::try_from(points.len())
        .map_err(|_| QhullError(format!("{} points; Qhull takes at most {}", points.len(), c_int::MAX)))?;
    // Qhull may write to the coordinates (it projects them onto the paraboloid in a copy, but its
    // interface takes a mutable pointer), so it gets its own.
    let mut coords: Vec<f64> = points.iter().flatten().copied().collect();
    let raw = {
        // libqhull_r keeps all of its state in the `qhT` that the call owns: calls on several
        // threads are independent.
        let mut raw = RawTriangulation { count: 0, hull_dim: 0, facets: std::ptr::null_mut(), message: [0; 1024] };
        #[allow(unsafe_code)]
        // SAFETY: `coords` holds 3 x num_points values and outlives the call; `raw` is a valid
        // `schedlab_delaunay3_t`, which the call fills (facets allocated by C on success).
        let status = unsafe { schedlab_delaunay3(coords.as_mut_ptr(), num_points, &mut raw) };
        if status != 0 {
            let bytes: Vec<u8> = raw.message.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
            return Err(QhullError(format!("Qhull: {}", String::from_utf8_lossy(&bytes).trim())));
        }
        raw
    };
    let mut raw = raw;
    let count = usize::try_from(raw.count).unwrap_or(0);
    let result = if raw.hull_dim != 4 {
        Err(QhullError(format!("a hull of dimension {}; expected 4 (3-D Delaunay)", raw.hull_dim)))
    } else if count == 0 {
        Ok(Vec::new())
    } else {
        #[allow(unsafe_code)]
        // SAFETY: on success `facets` points to `count` initialised facets, freed only below.
        let facets = unsafe { std::slice::from_raw_parts(raw.facets, count) };
        facets.iter().map(|facet| tetrahedron(facet, points.len())).collect()
    };
    #[allow(unsafe_code)]
    // SAFETY: `raw` was filled by `schedlab_delaunay3`; its facets are freed once, here, after
    // the last read of them above.
    unsafe {
        schedlab_delaunay3_free(&mut raw)
    };
    result
}

fn tetrahedron(facet: &RawFacet, num_points: usize) -> Result<Tetrahedron, QhullError> {
    if facet.vertex_count < 0 {
        return Err(QhullError("a facet without vertices".into()));
    }
    if facet.neighbor_count < 0 {
        return Err(QhullError("a facet without neighbours".into()));
    }
    if facet.has_normal == 0 {
        return Err(QhullError("a facet without a normal".into()));
    }
    if facet.vertex_count != 4 || facet.neighbor_count != 4 {
        return Err(QhullError(format!(
            "a facet with {} vertices and {} neighbours; expected tetrahedra",
            facet.vertex_count, facet.neighbor_count
        )));
    }
    let mut vertices = [0; 4];
    for (slot, &id) in vertices.iter_mut().zip(&facet.vertices) {
        *slot = usize::try_from(id)
            .ok()
            .filter(|&id| id < num_points)
            .ok_or_else(|| QhullError(format!("point id {id}")))?;
    }
    Ok(Tetrahedron { id: facet.id, vertices, neighbors: facet.neighbors, normal: facet.normal, offset: facet.offset })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn volume(points: &[[f64; 3]], t: &Tetrahedron) -> f64 {
        let [a, b, c, d] = t.vertices.map(|v| points[v]);
        let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
        let v = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        let w = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
        (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]))
            .abs()
            / 6.0
    }

    #[test]
    fn a_cube_and_its_centre_are_filled_by_tetrahedra_that_know_their_neighbours() {
        let mut points: Vec<[f64; 3]> =
            (0..8).map(|c| [f64::from(c & 1), f64::from((c >> 1) & 1), f64::from((c >> 2) & 1)]).collect();
        points.push([0.5, 0.5, 0.5]);
        let tetrahedra = lower_delaunay(&points).unwrap();
        let total: f64 = tetrahedra.iter().map(|t| volume(&points, t)).sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        // Every tetrahedron touches the centre (point 8), and neighbours are mutual.
        let ids: Vec<u32> = tetrahedra.iter().map(|t| t.id).collect();
        for t in &tetrahedra {
            assert!(t.vertices.contains(&8), "{t:?}");
            for neighbor in t.neighbors.iter().filter_map(|id| tetrahedra.iter().find(|other| other.id == *id)) {
                assert!(neighbor.neighbors.contains(&t.id));
            }
            let length: f64 = t.normal.iter().map(|c| c * c).sum::<f64>().sqrt();
            assert!((length - 1.0).abs() < 1e-12 && t.normal[3] < 0.0, "{t:?}");
        }
        assert!(ids.windows(2).all(|pair| pair[0] != pair[1]));
        // Deterministic: the same input gives the same facets.
        assert_eq!(lower_delaunay(&points).unwrap(), tetrahedra);
    }

    #[test]
    fn flat_input_is_an_error_with_qhulls_message() {
        let points: Vec<[f64; 3]> = (0..6).map(|k| [f64::from(k), f64::from(k * k), 0.0]).collect();
        let error = lower_delaunay(&points).unwrap_err();
        assert!(error.0.starts_with("Qhull: ") && error.0.len() > 40, "{error}");
    }
}
