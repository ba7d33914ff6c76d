//! Pollux's model of deep-learning training (Qiao et al., OSDI 2021), as its artifact simulates it.
//!
//! [`Application`] holds one application's measurements (step and synchronisation time per
//! placement and local batch size; gradient statistics per epoch and batch size) and answers
//! the artifact's queries on them; [`PolluxPerf`] is the engine's ground truth built from them:
//! a job's goodput on an allocation, piecewise constant between epoch boundaries.
//! [`GoodputFunction`] and [`fit_perf_params`] are the model Pollux's agents fit to what their
//! job measured and optimise.

pub mod application;
pub mod fit;
pub mod interp;
pub mod model;
pub mod perf;

pub use application::{APPLICATIONS, AppSettings, Application, ProfileError};
pub use fit::{FitError, Measurement, fit_perf_params};
pub use interp::{Delaunay3, InterpError};
pub use model::{GoodputFunction, GradParams, Optimum, PerfParams, SpeedupFunction};
pub use perf::{Config, PolluxPerf, config_for_batch, default_config, packed, true_goodput};
