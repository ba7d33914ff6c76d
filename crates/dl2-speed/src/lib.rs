//! DL2's speed model (Peng et al., arXiv 1909.06040; authors' code `pengyanghua/DL2`).
//!
//! [`SpeedTable`] reads `config_speed.txt`, the 803 MXNet configurations the authors measured
//! (model, parameter servers, workers, per-worker speeds); [`LinearRbf`] is the interpolation
//! their simulator fits per model (`speed.py`: `scipy.interpolate.Rbf(ps, workers, speed,
//! function='linear')`); [`Dl2Speed`] is the engine's ground truth built from them: a job of
//! model `m` with `p` parameter servers and `w` workers makes `speed_m(p, w) / epoch_size_m`
//! epochs per second (`job.py`, `step`), and none without a server or a worker.

pub mod models;
pub mod perf;
pub mod rbf;
pub mod table;

pub use models::{MODELS, ModelInfo, model_info};
pub use perf::Dl2Speed;
pub use rbf::LinearRbf;
pub use table::{Measurement, SpeedTable, TableError};
