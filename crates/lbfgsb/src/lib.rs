//! Bound-constrained minimisation with L-BFGS-B 3.0 (Byrd, Lu, Nocedal and Zhu; Morales and
//! Nocedal's 2011 revision) in Stephen Becker's C translation, compiled from `vendor/` with the
//! `cc` crate: the algorithm `scipy.optimize.minimize(method="L-BFGS-B")` runs.
//!
//! The C code talks to its caller by reverse communication (`setulb` asks for the objective at
//! a point, or reports a new iterate, through its `task` code); [`minimize`] drives that loop.
//! The binding is one function, written by hand: the build needs a C compiler and no libclang.

use std::ffi::{c_double, c_int, c_long};

/// The settings scipy calls `maxcor`, `ftol` (as `factr = ftol / eps`) and `gtol`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Corrections kept for the limited-memory Hessian (`m`; scipy's default 10).
    pub corrections: usize,
    /// Stop when the relative reduction of f is at most `factr x eps` (scipy's default 1e7).
    pub factr: f64,
    /// Stop when the largest projected gradient component is at most this (scipy's 1e-5).
    pub pgtol: f64,
}

/// How a minimisation ended, with the C code's final `task` code (`long int` in C).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Converged (`CONVERGENCE: ...`, codes 20-25).
    Converged(c_long),
    /// Stopped by the line search or a warning (`ABNORMAL_TERMINATION_IN_LNSRCH`, `WARNING: ...`).
    Abnormal(c_long),
    /// The input was refused (`ERROR: ...`, codes 200-240), such as inconsistent bounds.
    Error(c_long),
    /// The objective returned `None`: the point is the last one it was asked about.
    StoppedByObjective,
}

/// `setulb`'s task codes (`vendor/lbfgsb.h`).
const START: c_long = 1;
const NEW_X: c_long = 2;
const FG: c_long = 10;
const FG_END: c_long = 15;
const CONVERGENCE: c_long = 20;
const CONVERGENCE_END: c_long = 25;
const ERROR: c_long = 200;
const ERROR_END: c_long = 240;

#[allow(unsafe_code)]
unsafe extern "C" {
    /// `int setulb(integer *n, integer *m, double *x, double *l, double *u, integer *nbd,
    /// double *f, double *g, double *factr, double *pgtol, double *wa, integer *iwa,
    /// integer *task, integer *iprint, integer *csave, logical *lsave, integer *isave,
    /// double *dsave)` with `integer` and `logical` both `long int` (`vendor/lbfgsb.h`).
    fn setulb(
        n: *mut c_long,
        m: *mut c_long,
        x: *mut c_double,
        l: *mut c_double,
        u: *mut c_double,
        nbd: *mut c_long,
        f: *mut c_double,
        g: *mut c_double,
        factr: *mut c_double,
        pgtol: *mut c_double,
        wa: *mut c_double,
        iwa: *mut c_long,
        task: *mut c_long,
        iprint: *mut c_long,
        csave: *mut c_long,
        lsave: *mut c_long,
        isave: *mut c_long,
        dsave: *mut c_double,
    ) -> c_int;
}

/// The C translation keeps its state in static variables between calls: one minimisation at a
/// time in the process (concurrent ones would corrupt each other).
static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Minimises `objective` from `x` (updated in place) within `bounds` (`None` for no bound on
/// that side). `objective(x, gradient)` returns f at `x` and writes its gradient, or returns
/// `None` to stop the search at `x`.
///
/// # Panics
/// When `bounds` and `x` differ in length.
pub fn minimize<F>(x: &mut [f64], bounds: &[(Option<f64>, Option<f64>)], settings: Settings, mut objective: F) -> Exit
where
    F: FnMut(&[f64], &mut [f64]) -> Option<f64>,
{
    assert_eq!(x.len(), bounds.len(), "one bound pair per variable");
    let n = x.len();
    let m = settings.corrections;
    let mut lower = vec![0.0; n];
    let mut upper = vec![0.0; n];
    // nbd: 0 unbounded, 1 lower only, 2 both, 3 upper only.
    let mut kinds: Vec<c_long> = vec![0; n];
    for (k, &(low, high)) in bounds.iter().enumerate() {
        lower[k] = low.unwrap_or(0.0);
        upper[k] = high.unwrap_or(0.0);
        kinds[k] = match (low, high) {
            (None, None) => 0,
            (Some(_), None) => 1,
            (Some(_), Some(_)) => 2,
            (None, Some(_)) => 3,
        };
    }
    let mut f = 0.0;
    let mut gradient = vec![0.0; n];
    let mut work = vec![0.0; 2 * m * n + 5 * n + 11 * m * m + 8 * m];
    let mut int_work: Vec<c_long> = vec![0; 3 * n];
    let (mut csave, mut lsave, mut isave, mut dsave) =
        ([0 as c_long; 60], [0 as c_long; 4], [0 as c_long; 44], [0.0; 29]);
    let (mut n_c, mut m_c) = (n as c_long, m as c_long);
    let (mut factr, mut pgtol, mut iprint) = (settings.factr, settings.pgtol, -1 as c_long);
    let mut task = START;
    let _guard = LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    loop {
        #[allow(unsafe_code)]
        // SAFETY: every array has the length `setulb` documents for n variables and m
        // corrections (wa: 2mn + 5n + 11m^2 + 8m, iwa: 3n, csave 60, lsave 4, isave 44,
        // dsave 29); all outlive the call, and the lock keeps its static state to this loop.
        unsafe {
            setulb(
                &mut n_c,
                &mut m_c,
                x.as_mut_ptr(),
                lower.as_mut_ptr(),
                upper.as_mut_ptr(),
                kinds.as_mut_ptr(),
                &mut f,
                gradient.as_mut_ptr(),
                &mut factr,
                &mut pgtol,
                work.as_mut_ptr(),
                int_work.as_mut_ptr(),
                &mut task,
                &mut iprint,
                csave.as_mut_ptr(),
                lsave.as_mut_ptr(),
                isave.as_mut_ptr(),
                dsave.as_mut_ptr(),
            );
        }
        match task {
            FG..=FG_END => match objective(x, &mut gradient) {
                Some(value) => f = value,
                None => return Exit::StoppedByObjective,
            },
            NEW_X => {}
            CONVERGENCE..=CONVERGENCE_END => return Exit::Converged(task),
            ERROR..=ERROR_END => return Exit::Error(task),
            _ => return Exit::Abnormal(task),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCIPY: Settings = Settings { corrections: 10, factr: 1e7, pgtol: 1e-5 };

    #[test]
    fn finds_the_minimum_of_a_bounded_quadratic_on_its_bound() {
        // f = (x - 3)^2 + (y + 1)^2 with x in [0, 2], y free: the minimum is (2, -1).
        let mut x = [0.5, 5.0];
        let exit = minimize(&mut x, &[(Some(0.0), Some(2.0)), (None, None)], SCIPY, |x, g| {
            g[0] = 2.0 * (x[0] - 3.0);
            g[1] = 2.0 * (x[1] + 1.0);
            Some((x[0] - 3.0).powi(2) + (x[1] + 1.0).powi(2))
        });
        assert!(matches!(exit, Exit::Converged(_)), "{exit:?}");
        assert!((x[0] - 2.0).abs() < 1e-9 && (x[1] + 1.0).abs() < 1e-6, "{x:?}");
    }

    #[test]
    fn minimises_rosenbrock_and_stops_when_the_objective_says_so() {
        let rosenbrock = |x: &[f64], g: &mut [f64]| {
            g[0] = -400.0 * x[0] * (x[1] - x[0] * x[0]) - 2.0 * (1.0 - x[0]);
            g[1] = 200.0 * (x[1] - x[0] * x[0]);
            100.0 * (x[1] - x[0] * x[0]).powi(2) + (1.0 - x[0]).powi(2)
        };
        let free = [(None, None), (None, None)];
        let mut x = [-1.2, 1.0];
        let exit = minimize(&mut x, &free, SCIPY, |x, g| Some(rosenbrock(x, g)));
        assert!(matches!(exit, Exit::Converged(_)), "{exit:?}");
        assert!((x[0] - 1.0).abs() < 1e-4 && (x[1] - 1.0).abs() < 1e-4, "{x:?}");
        let mut calls = 0;
        let mut y = [-1.2, 1.0];
        let exit = minimize(&mut y, &free, SCIPY, |x, g| {
            calls += 1;
            (calls <= 3).then(|| rosenbrock(x, g))
        });
        assert_eq!((exit, calls), (Exit::StoppedByObjective, 4));
        assert!((y[0] - 1.0).abs() > 0.1, "{y:?}");
    }

    #[test]
    fn inconsistent_bounds_are_an_error() {
        let mut x = [0.0];
        let exit = minimize(&mut x, &[(Some(1.0), Some(0.0))], SCIPY, |x, g| {
            g[0] = 2.0 * x[0];
            Some(x[0] * x[0])
        });
        assert!(matches!(exit, Exit::Error(_)), "{exit:?}");
    }
}
