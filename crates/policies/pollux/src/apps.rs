//! The applications a policy reads, loaded once per experiment and shared by its runs.

use schedlab_core::{JobView, ParamError, PolicyEnv, PolicyError};
use schedlab_goodput::{Application, PolluxPerf};
use std::path::Path;
use std::sync::Arc;

/// The default profiles folder, relative to the data directory.
pub const PROFILES: &str = "pollux/profiles";

/// Loads the applications in `folder` through `env` (once per environment).
pub fn shared(env: &PolicyEnv, folder: &str, policy: &str) -> Result<Arc<PolluxPerf>, ParamError> {
    // Keyed by one file of the folder: the environment's cache is per file and type.
    let key = format!("{}/cifar10/placements.csv", folder.trim_end_matches('/'));
    let data = env.data().clone();
    env.shared(&key, |_| PolluxPerf::load(&data, Path::new(folder)).map_err(|error| error.to_string())).map_err(
        |message| ParamError { policy: policy.to_string(), message: format!("parameter 'profiles': {message}") },
    )
}

/// The application a job's type names, or an error naming the job.
pub fn of<'a>(apps: &'a PolluxPerf, job: &JobView) -> Result<&'a Arc<Application>, PolicyError> {
    apps.app(&job.job_type)
        .ok_or_else(|| PolicyError::Unsupported(format!("{}: '{}' is not a Pollux application", job.id, job.job_type)))
}
