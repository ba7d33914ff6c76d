//! Linear programs for scheduling policies, solved through [good_lp](https://docs.rs/good_lp).
//!
//! A policy builds a [`LinearProgram`] (bounded variables, continuous or integer, a linear
//! objective, linear constraints: an LP or a MILP) and calls [`solve`] with a [`Backend`]. Every solve checks the status: anything
//! but optimal is a [`SolverError`] naming the problem, its size and the backend (Gavel only
//! prints a warning and goes on). Each solve reports [`SolveStats`]: sizes and the time spent
//! building and solving, for the run's metrics.
//!
//! Backends: `microlp` (pure Rust, the default, no system dependency), `clarabel` (pure Rust
//! interior point, LPs only), and two native solvers
//! behind cargo features: `highs` (HiGHS, built from source; needs cmake, g++ and libclang) and
//! `cbc` (COIN-OR CBC/CLP; needs Debian's `coinor-libcbc-dev`). Every [`Backend`] can be named in
//! an experiment; one that was not compiled in is an error saying which feature to enable.
//!
//! [`max_min`] is schedlab's own interior point for one LP shape, the max-min ratio LP of
//! Gavel's max-min fairness, makespan and finish-time fairness steps (backend `maxmin-ipm`),
//! much faster on it than any general backend.

#![deny(missing_docs)]

pub mod max_min;

use good_lp::{Expression, ProblemVariables, ResolutionError, Solution, SolutionStatus, SolverModel, variable};
use std::fmt;
use std::time::{Duration, Instant};

/// Which solver runs the LP.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Backend {
    /// microlp: pure Rust dual simplex.
    #[default]
    MicroLp,
    /// HiGHS (cargo feature `highs`), single-threaded.
    Highs,
    /// COIN-OR CBC, which solves LPs with CLP (cargo feature `cbc`).
    Cbc,
    /// Clarabel: pure Rust interior point, as cvxpy's ECOS (always compiled in); LPs only.
    Clarabel,
    /// schedlab's own interior point for max-min ratio LPs ([`max_min`], always compiled in):
    /// policies that build such an LP call [`max_min::solve_max_min_ratio`] with it; every
    /// other program given this backend is solved by Clarabel, also an interior point.
    MaxMinIpm,
}

impl Backend {
    /// Every backend, compiled in or not.
    pub const ALL: [Backend; 5] =
        [Backend::MicroLp, Backend::Highs, Backend::Cbc, Backend::Clarabel, Backend::MaxMinIpm];

    /// The cargo feature that compiles this backend in (`None` for microlp, always present).
    pub fn feature(self) -> Option<&'static str> {
        match self {
            Backend::MicroLp | Backend::Clarabel | Backend::MaxMinIpm => None,
            Backend::Highs => Some("highs"),
            Backend::Cbc => Some("cbc"),
        }
    }

    /// Returns whether this build can solve with this backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::MicroLp | Backend::Clarabel | Backend::MaxMinIpm => true,
            Backend::Highs => cfg!(feature = "highs"),
            Backend::Cbc => cfg!(feature = "cbc"),
        }
    }

    /// The backends this build can use.
    pub fn available() -> Vec<Backend> {
        Backend::ALL.into_iter().filter(|backend| backend.is_available()).collect()
    }

    /// Returns whether this backend solves programs with integer variables (the interior
    /// points do not).
    pub fn solves_milps(self) -> bool {
        !matches!(self, Backend::Clarabel | Backend::MaxMinIpm)
    }

    /// The backend that solves a general [`LinearProgram`] given this one: Clarabel for
    /// [`Backend::MaxMinIpm`], which solves only [`max_min::MaxMinRatio`] programs; itself
    /// otherwise.
    pub fn for_general_programs(self) -> Backend {
        if self == Backend::MaxMinIpm { Backend::Clarabel } else { self }
    }

    /// The backends this build can use for MILPs.
    pub fn available_for_milps() -> Vec<Backend> {
        Backend::available().into_iter().filter(|backend| backend.solves_milps()).collect()
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::MicroLp => "microlp",
            Backend::Highs => "highs",
            Backend::Cbc => "cbc",
            Backend::Clarabel => "clarabel",
            Backend::MaxMinIpm => "maxmin-ipm",
        })
    }
}

impl std::str::FromStr for Backend {
    type Err = String;
    fn from_str(text: &str) -> Result<Backend, String> {
        match text {
            "microlp" => Ok(Backend::MicroLp),
            "highs" => Ok(Backend::Highs),
            "cbc" => Ok(Backend::Cbc),
            "clarabel" => Ok(Backend::Clarabel),
            "maxmin-ipm" => Ok(Backend::MaxMinIpm),
            other => {
                Err(format!("unknown LP backend '{other}'; expected one of: microlp, highs, cbc, clarabel, maxmin-ipm"))
            }
        }
    }
}

/// Optimisation direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    /// Maximise the objective.
    Maximize,
    /// Minimise the objective.
    Minimize,
}

/// A constraint's comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// `lhs <= rhs`.
    AtMost,
    /// `lhs >= rhs`.
    AtLeast,
    /// `lhs == rhs`.
    Equal,
}

/// A variable's index in its [`LinearProgram`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Var(pub usize);

/// A linear program: bounded continuous variables, a linear objective and linear constraints.
#[derive(Clone, Debug)]
pub struct LinearProgram {
    name: String,
    sense: Sense,
    bounds: Vec<(f64, f64)>,
    integer: Vec<bool>,
    objective: Vec<(Var, f64)>,
    constraints: Vec<Constraint>,
}

/// One constraint: `sum(coefficient x var) <comparison> rhs`.
type Constraint = (Vec<(Var, f64)>, Comparison, f64);

impl LinearProgram {
    /// Returns an empty program; `name` identifies it in errors (e.g. `max-min fairness`).
    pub fn new(name: impl Into<String>, sense: Sense) -> LinearProgram {
        LinearProgram {
            name: name.into(),
            sense,
            bounds: Vec::new(),
            integer: Vec::new(),
            objective: Vec::new(),
            constraints: Vec::new(),
        }
    }

    /// Adds a continuous variable with bounds `lower..=upper` (use infinities for free sides).
    pub fn variable(&mut self, lower: f64, upper: f64) -> Var {
        self.bounds.push((lower, upper));
        self.integer.push(false);
        Var(self.bounds.len() - 1)
    }

    /// Adds an integer variable with bounds `lower..=upper` (a binary one is `0..=1`); the
    /// program becomes a MILP, solved by branch and bound.
    pub fn integer_variable(&mut self, lower: f64, upper: f64) -> Var {
        self.bounds.push((lower, upper));
        self.integer.push(true);
        Var(self.bounds.len() - 1)
    }

    /// Returns the number of integer variables.
    pub fn integer_variables(&self) -> usize {
        self.integer.iter().filter(|&&integer| integer).count()
    }

    /// Adds `coefficient x var` to the objective.
    pub fn objective(&mut self, var: Var, coefficient: f64) {
        self.objective.push((var, coefficient));
    }

    /// Adds the constraint `sum(coefficient x var) <cmp> rhs`.
    pub fn constraint(&mut self, terms: Vec<(Var, f64)>, comparison: Comparison, rhs: f64) {
        self.constraints.push((terms, comparison, rhs));
    }

    /// Returns the number of variables.
    pub fn variables(&self) -> usize {
        self.bounds.len()
    }

    /// Returns the number of constraints.
    pub fn constraints(&self) -> usize {
        self.constraints.len()
    }
}

/// Sizes and timings of one solve.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveStats {
    /// The backend used.
    pub backend: Backend,
    /// Number of variables.
    pub variables: usize,
    /// Number of constraints.
    pub constraints: usize,
    /// Time to hand the problem to the backend.
    pub build_time: Duration,
    /// Time the backend took.
    pub solve_time: Duration,
    /// Whether Clarabel stopped short of optimal and the program was solved again with
    /// microlp (see [`solve`]); `backend` is then microlp.
    pub fell_back: bool,
}

/// An optimal solution.
#[derive(Clone, Debug, PartialEq)]
pub struct LpSolution {
    /// Each variable's value, by [`Var`] index.
    pub values: Vec<f64>,
    /// The objective's value.
    pub objective: f64,
    /// Sizes and timings.
    pub stats: SolveStats,
}

impl LpSolution {
    /// Returns a variable's value.
    pub fn value(&self, var: Var) -> f64 {
        self.values[var.0]
    }
}

/// Occurs when a solve does not end with an optimal solution.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("LP '{name}' ({variables} variables, {constraints} constraints) with {backend}: {reason}")]
pub struct SolverError {
    /// The program's name.
    pub name: String,
    /// Number of variables.
    pub variables: usize,
    /// Number of constraints.
    pub constraints: usize,
    /// The backend.
    pub backend: Backend,
    /// What kind of failure it was.
    pub failure: Failure,
    /// The status or error the backend reported.
    pub reason: String,
}

/// What kind of failure a [`SolverError`] is, for callers that react to one kind (retry
/// without SLOs when infeasible, fall back when an interior point stops short).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No point satisfies the constraints.
    Infeasible,
    /// The objective is unbounded.
    Unbounded,
    /// The backend ended with a status other than optimal (an iteration limit, "almost
    /// solved").
    StoppedShort,
    /// The backend cannot take the program (not compiled in, integer variables for an
    /// LP-only backend) or reported an error of its own.
    Unusable,
}

/// A failure and its message, before it is named after the program.
type Failed = (Failure, String);

/// Adds the constraints to a backend's model, solves it, checks the solution with `optimal`
/// (a failure for anything but an optimal solution) and reads the variables back, with the
/// build and solve times.
fn finish<M: SolverModel<Error = ResolutionError>>(
    mut model: M,
    constraints: impl Iterator<Item = good_lp::Constraint>,
    vars: &[good_lp::Variable],
    started: Instant,
    optimal: impl Fn(&M::Solution) -> Result<(), Failed>,
) -> Result<(Vec<f64>, Duration, Duration), Failed> {
    for constraint in constraints {
        model.add_constraint(constraint);
    }
    let build_time = started.elapsed();
    let solving = Instant::now();
    let solution = model.solve().map_err(|error| match error {
        ResolutionError::Infeasible => (Failure::Infeasible, "infeasible".to_string()),
        ResolutionError::Unbounded => (Failure::Unbounded, "unbounded".to_string()),
        other => (Failure::Unusable, other.to_string()),
    })?;
    let solve_time = solving.elapsed();
    optimal(&solution)?;
    Ok((vars.iter().map(|var| solution.value(*var)).collect(), build_time, solve_time))
}

/// The status good_lp reports must be optimal.
fn reported_optimal(solution: &impl Solution) -> Result<(), Failed> {
    match solution.status() {
        SolutionStatus::Optimal => Ok(()),
        status => Err((Failure::StoppedShort, format!("stopped with status {status:?}, not optimal"))),
    }
}

/// Clarabel's own status must be `Solved`: good_lp's adapter reports every solution as optimal
/// (also "almost solved" and dual infeasible, that is unbounded).
fn clarabel_solved(solution: &good_lp::solvers::clarabel::ClarabelSolution) -> Result<(), Failed> {
    match format!("{:?}", solution.inner().status).as_str() {
        "Solved" => Ok(()),
        "DualInfeasible" | "AlmostDualInfeasible" => Err((Failure::Unbounded, "unbounded".to_string())),
        other => Err((Failure::StoppedShort, format!("stopped with status {other}, not optimal"))),
    }
}

/// Solves `program` to optimality with `backend`. When Clarabel stops short of its
/// tolerances (`AlmostSolved`, an iteration limit), the program is solved again with microlp,
/// at a vertex, and the solution says so (`SolveStats::fell_back`): on long runs an interior
/// point can stall on a numerically hard instance where the simplex does not (cvxpy's ECOS
/// would return its inaccurate point, and Gavel would use it).
///
/// [`Backend::MaxMinIpm`] solves only [`max_min::MaxMinRatio`] programs; any other program
/// given it is solved with Clarabel (and its statistics say so).
pub fn solve(program: &LinearProgram, backend: Backend) -> Result<LpSolution, SolverError> {
    let backend = backend.for_general_programs();
    fall_back(solve_with(program, backend), || solve_with(program, Backend::MicroLp))
}

/// `first` unless it is Clarabel stopping short, then `vertex()`, marked as a fallback.
fn fall_back(
    first: Result<LpSolution, SolverError>,
    vertex: impl FnOnce() -> Result<LpSolution, SolverError>,
) -> Result<LpSolution, SolverError> {
    match first {
        Err(error) if error.backend == Backend::Clarabel && error.failure == Failure::StoppedShort => {
            let mut solution = vertex()?;
            solution.stats.fell_back = true;
            Ok(solution)
        }
        other => other,
    }
}

/// [`solve`] with one backend, no fallback.
fn solve_with(program: &LinearProgram, backend: Backend) -> Result<LpSolution, SolverError> {
    let fail = |(failure, reason): Failed| SolverError {
        name: program.name.clone(),
        variables: program.variables(),
        constraints: program.constraints(),
        backend,
        failure,
        reason,
    };
    if backend == Backend::Clarabel && program.integer_variables() > 0 {
        return Err(fail((
            Failure::Unusable,
            format!(
                "clarabel solves LPs only; this program has {} integer variables (use microlp, highs or cbc)",
                program.integer_variables()
            ),
        )));
    }
    let started = Instant::now();
    let mut problem = ProblemVariables::new();
    let vars: Vec<good_lp::Variable> = program
        .bounds
        .iter()
        .zip(&program.integer)
        .map(|(&(lower, upper), &integer)| {
            let mut definition = variable();
            if integer {
                definition = definition.integer();
            }
            if lower.is_finite() {
                definition = definition.min(lower);
            }
            if upper.is_finite() {
                definition = definition.max(upper);
            }
            problem.add(definition)
        })
        .collect();
    let linear = |terms: &[(Var, f64)]| -> Expression {
        let mut expression = Expression::with_capacity(terms.len());
        for &(var, coefficient) in terms {
            expression.add_mul(coefficient, vars[var.0]);
        }
        expression
    };
    let objective = linear(&program.objective);
    let unsolved = match program.sense {
        Sense::Maximize => problem.maximise(objective.clone()),
        Sense::Minimize => problem.minimise(objective.clone()),
    };
    let constraints = program.constraints.iter().map(|(terms, comparison, rhs)| {
        let lhs = linear(terms);
        match comparison {
            Comparison::AtMost => lhs.leq(*rhs),
            Comparison::AtLeast => lhs.geq(*rhs),
            Comparison::Equal => lhs.eq(*rhs),
        }
    });
    let values = match backend {
        Backend::MicroLp => finish(unsolved.using(good_lp::microlp), constraints, &vars, started, reported_optimal),
        Backend::Clarabel => finish(unsolved.using(good_lp::clarabel), constraints, &vars, started, clarabel_solved),
        #[cfg(feature = "highs")]
        Backend::Highs => {
            let model = unsolved.using(good_lp::highs).set_threads(1);
            finish(model, constraints, &vars, started, reported_optimal)
        }
        #[cfg(feature = "cbc")]
        Backend::Cbc => {
            let mut model = unsolved.using(good_lp::coin_cbc);
            model.set_parameter("threads", "1");
            finish(model, constraints, &vars, started, reported_optimal)
        }
        #[allow(unreachable_patterns)]
        other => Err((
            Failure::Unusable,
            format!(
                "this build has no {other} backend; rebuild with `--features {}`",
                other.feature().unwrap_or_default()
            ),
        )),
    };
    let (values, build_time, solve_time) = values.map_err(fail)?;
    let objective = program.objective.iter().map(|&(var, coefficient)| coefficient * values[var.0]).sum();
    Ok(LpSolution {
        values,
        objective,
        stats: SolveStats {
            backend,
            variables: program.variables(),
            constraints: program.constraints(),
            build_time,
            solve_time,
            fell_back: false,
        },
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn clarabel_stopping_short_falls_back_to_a_vertex_and_says_so() {
        let mut program = LinearProgram::new("fallback", Sense::Maximize);
        let x = program.variable(0.0, 1.0);
        program.objective(x, 1.0);
        let vertex = || solve_with(&program, Backend::MicroLp);
        let short = |backend: Backend, failure: Failure| SolverError {
            name: "fallback".into(),
            variables: 1,
            constraints: 0,
            backend,
            failure,
            reason: "a status".into(),
        };
        let solved = fall_back(Err(short(Backend::Clarabel, Failure::StoppedShort)), vertex).unwrap();
        assert_eq!((solved.value(x), solved.stats.backend, solved.stats.fell_back), (1.0, Backend::MicroLp, true));
        // Infeasible and unbounded programs stay errors, and other backends do not fall back.
        for failure in [Failure::Infeasible, Failure::Unbounded, Failure::Unusable] {
            let error = short(Backend::Clarabel, failure);
            assert_eq!(fall_back(Err(error.clone()), vertex), Err(error));
        }
        let microlp = short(Backend::MicroLp, Failure::StoppedShort);
        assert_eq!(fall_back(Err(microlp.clone()), vertex), Err(microlp));
        assert!(!solve(&program, Backend::Clarabel).unwrap().stats.fell_back);
    }

    use super::*;

    #[test]
    fn solves_a_small_lp_to_its_hand_computed_optimum() {
        // Maximise x + 2y with x + y <= 4, x - y >= -2, 0 <= x, 0 <= y <= 3: the optimum is at
        // x = 1, y = 3 (where x - y = -2 and x + y = 4), value 7.
        let mut lp = LinearProgram::new("small", Sense::Maximize);
        let x = lp.variable(0.0, f64::INFINITY);
        let y = lp.variable(0.0, 3.0);
        lp.objective(x, 1.0);
        lp.objective(y, 2.0);
        lp.constraint(vec![(x, 1.0), (y, 1.0)], Comparison::AtMost, 4.0);
        lp.constraint(vec![(x, 1.0), (y, -1.0)], Comparison::AtLeast, -2.0);
        for backend in Backend::available() {
            let solution = solve(&lp, backend).unwrap();
            assert!((solution.value(x) - 1.0).abs() < 1e-9 && (solution.value(y) - 3.0).abs() < 1e-9, "{backend}");
            assert!((solution.objective - 7.0).abs() < 1e-9, "{backend}");
            assert_eq!((solution.stats.variables, solution.stats.constraints), (2, 2));
            assert_eq!(solution.stats.backend, backend.for_general_programs());
        }
    }

    #[test]
    fn solves_a_small_milp_to_its_hand_computed_integer_optimum() {
        // Maximise 5x + 4y with 6x + 4y <= 24, x + 2y <= 6, x and y integers >= 0. The LP
        // optimum is fractional (x = 3, y = 1.5, value 21); among the integer points (4, 0) gives
        // 20, (3, 1) 19 and (2, 2) 18, so (4, 0) is the unique optimum.
        let mut lp = LinearProgram::new("knapsack", Sense::Maximize);
        let x = lp.integer_variable(0.0, f64::INFINITY);
        let y = lp.integer_variable(0.0, f64::INFINITY);
        lp.objective(x, 5.0);
        lp.objective(y, 4.0);
        lp.constraint(vec![(x, 6.0), (y, 4.0)], Comparison::AtMost, 24.0);
        lp.constraint(vec![(x, 1.0), (y, 2.0)], Comparison::AtMost, 6.0);
        assert_eq!(lp.integer_variables(), 2);
        let error = solve(&lp, Backend::Clarabel).unwrap_err();
        assert!(error.reason.contains("clarabel solves LPs only; this program has 2 integer variables"), "{error}");
        for backend in Backend::available_for_milps() {
            let solution = solve(&lp, backend).unwrap();
            assert!((solution.objective - 20.0).abs() < 1e-6, "{backend}: {}", solution.objective);
            assert!((solution.value(x) - 4.0).abs() < 1e-6 && solution.value(y).abs() < 1e-6, "{backend}");
        }
    }

    #[test]
    fn a_backend_that_is_not_compiled_in_says_which_feature_to_enable() {
        let mut lp = LinearProgram::new("small", Sense::Minimize);
        let x = lp.variable(0.0, 1.0);
        lp.objective(x, 1.0);
        for backend in Backend::ALL.into_iter().filter(|backend| !backend.is_available()) {
            let error = solve(&lp, backend).unwrap_err();
            let feature = backend.feature().unwrap();
            assert!(error.reason.contains(&format!("--features {feature}")), "{error}");
        }
        for backend in Backend::ALL {
            assert_eq!(backend.to_string().parse::<Backend>(), Ok(backend));
        }
        assert!("glpk".parse::<Backend>().unwrap_err().contains("microlp, highs, cbc, clarabel"));
    }

    #[test]
    fn infeasible_and_unbounded_programs_are_errors_that_name_the_problem() {
        let mut lp = LinearProgram::new("impossible", Sense::Minimize);
        let x = lp.variable(0.0, 1.0);
        lp.objective(x, 1.0);
        lp.constraint(vec![(x, 1.0)], Comparison::AtLeast, 2.0);
        let error = solve(&lp, Backend::MicroLp).unwrap_err();
        assert_eq!(error.to_string(), "LP 'impossible' (1 variables, 1 constraints) with microlp: infeasible");
        for backend in Backend::available() {
            let error = solve(&lp, backend).unwrap_err();
            assert_eq!(
                (error.backend, error.failure),
                (backend.for_general_programs(), Failure::Infeasible),
                "{error}"
            );
        }
        let mut lp = LinearProgram::new("open", Sense::Maximize);
        let x = lp.variable(0.0, f64::INFINITY);
        lp.objective(x, 1.0);
        for backend in Backend::available() {
            let error = solve(&lp, backend).unwrap_err();
            assert!(matches!(error.failure, Failure::Unbounded | Failure::Infeasible), "{backend}: {error}");
        }
    }
}
