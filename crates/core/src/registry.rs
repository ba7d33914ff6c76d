//! What a policy crate contributes to the zoo ([`PolicyEntry`]) and what a policy's
//! constructor is given ([`PolicyEnv`]).

use crate::datadir::DataDir;
use crate::{ParamError, ParamReader, ParamSummary, Policy, PolicyParams};
use std::any::{Any, TypeId};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

type Cache = Mutex<BTreeMap<(PathBuf, TypeId), Arc<dyn Any + Send + Sync>>>;

/// What a policy's constructor may use besides its parameters: the data directory, tables
/// shared by every run of an experiment (loaded once per file and type), and the run's seed.
///
/// Cloning is cheap and shares the cache; [`PolicyEnv::with_seed`] gives each run its own seed.
#[derive(Clone)]
pub struct PolicyEnv {
    data: DataDir,
    seed: u64,
    spec_seed: u64,
    cache: Arc<Cache>,
}

impl std::fmt::Debug for PolicyEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PolicyEnv")
            .field("data", &self.data)
            .field("seed", &self.seed)
            .field("spec_seed", &self.spec_seed)
            .finish_non_exhaustive()
    }
}

impl PolicyEnv {
    /// An environment over `data` with seed 0 and an empty cache.
    pub fn new(data: DataDir) -> PolicyEnv {
        PolicyEnv { data, seed: 0, spec_seed: 0, cache: Arc::default() }
    }

    /// The same environment (sharing the cache) with another run seed.
    pub fn with_seed(&self, seed: u64) -> PolicyEnv {
        PolicyEnv { seed, ..self.clone() }
    }

    /// The same environment with another spec seed (see [`PolicyEnv::spec_seed`]).
    pub fn with_spec_seed(&self, spec_seed: u64) -> PolicyEnv {
        PolicyEnv { spec_seed, ..self.clone() }
    }

    /// The run's seed as the spec lists it (`seeds: [0, 1, 2]`), not derived: a policy that
    /// imitates a Python simulator run with `--seed S` (Gavel's) seeds its generators from it,
    /// as workloads with `rng: python` do. Prefer [`PolicyEnv::seed`] for anything else.
    pub fn spec_seed(&self) -> u64 {
        self.spec_seed
    }

    /// The data directory.
    pub fn data(&self) -> &DataDir {
        &self.data
    }

    /// The run's seed: derived from the spec, the sweep point and the spec's seed (the same
    /// that [`crate::RunStart`] carries), so a learned or randomised policy is a pure function
    /// of the run.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Returns the `T` loaded from the data file `path` (relative to the data directory unless
    /// absolute), loading it with `load` the first time any run of this environment asks.
    /// Errors name the file.
    pub fn shared<T: Any + Send + Sync>(
        &self,
        path: &str,
        load: impl FnOnce(&std::path::Path) -> Result<T, String>,
    ) -> Result<Arc<T>, String> {
        let path = self.data.file(path).map_err(|error| error.to_string())?;
        let key = (path, TypeId::of::<T>());
        let mut cache = self.cache.lock().map_err(|_| "the shared-table cache is poisoned".to_string())?;
        if let Some(found) = cache.get(&key) {
            return Ok(found.clone().downcast::<T>().expect("keyed by type"));
        }
        let loaded = Arc::new(load(&key.0)?);
        cache.insert(key, loaded.clone());
        Ok(loaded)
    }

    /// Returns the `T` that `make` builds for `label` (not a file: built-in data, such as a
    /// learned policy's shipped weights), building it the first time any run of this
    /// environment asks.
    pub fn shared_value<T: Any + Send + Sync>(
        &self,
        label: &str,
        make: impl FnOnce() -> Result<T, String>,
    ) -> Result<Arc<T>, String> {
        // Labels and data files share the cache; a label is no path a data file can have.
        let key = (std::path::PathBuf::from(format!("\0{label}")), TypeId::of::<T>());
        let mut cache = self.cache.lock().map_err(|_| "the shared-table cache is poisoned".to_string())?;
        if let Some(found) = cache.get(&key) {
            return Ok(found.clone().downcast::<T>().expect("keyed by type"));
        }
        let made = Arc::new(make()?);
        cache.insert(key, made.clone());
        Ok(made)
    }
}

/// What [`PolicyEntry::make`] returns: the parameter summary, and the policy when an
/// environment was given.
pub struct Made {
    /// Canonical name, accepted parameters and data files.
    pub summary: ParamSummary,
    /// The policy (`None` when only describing).
    pub policy: Option<Box<dyn Policy>>,
}

/// Reads a policy's parameters, then builds it.
///
/// Without an environment, this only reads (no I/O) and returns the summary. `read` takes every
/// parameter from the reader; `build` turns what it read into the policy, loading files through
/// the environment. Policy crates write each registry entry's `make` as one call of this, so the
/// parameters listed, the files hashed and the policy built all come from the same reader.
pub fn recipe<C, P: Policy + 'static>(
    params: &PolicyParams,
    env: Option<&PolicyEnv>,
    read: impl FnOnce(&mut ParamReader<'_>) -> Result<C, ParamError>,
    build: impl FnOnce(C, &PolicyEnv) -> Result<P, ParamError>,
) -> Result<Made, ParamError> {
    let mut reader = params.reader();
    let config = read(&mut reader)?;
    let summary = reader.finish_summary()?;
    let policy = match env {
        None => None,
        Some(env) => Some(Box::new(build(config, env)?) as Box<dyn Policy>),
    };
    Ok(Made { summary, policy })
}

/// Reads `params` with `read`, refuses unknown keys, then builds the concrete policy with
/// `build` (what [`recipe`] does, for callers that need the policy's own type: tests, benches).
pub fn build_with<C, P>(
    params: &PolicyParams,
    env: &PolicyEnv,
    read: impl FnOnce(&mut ParamReader<'_>) -> Result<C, ParamError>,
    build: impl FnOnce(C, &PolicyEnv) -> Result<P, ParamError>,
) -> Result<P, ParamError> {
    let mut reader = params.reader();
    let config = read(&mut reader)?;
    reader.finish()?;
    build(config, env)
}

/// For [`recipe`]: a policy that `read` already built, needing nothing from the environment.
pub fn ready<P>(policy: P, _env: &PolicyEnv) -> Result<P, ParamError> {
    Ok(policy)
}

/// Reads parameters and, given an environment, builds the policy (see [`recipe`]).
pub type Make = fn(&PolicyParams, Option<&PolicyEnv>) -> Result<Made, ParamError>;

/// One policy as its crate registers it: each policy crate exports a `POLICIES` slice of these,
/// and the zoo concatenates the slices.
#[derive(Clone, Copy, Debug)]
pub struct PolicyEntry {
    /// The name used in specs and on the command line.
    pub name: &'static str,
    /// One line: what it does.
    pub description: &'static str,
    /// True if and only if the policy uses oracle knowledge (true job durations).
    pub oracle: bool,
    /// Reads parameters and builds the policy.
    pub make: Make,
}

impl PolicyEntry {
    /// Reads `params` without building (no I/O): canonical name, accepted parameters, files.
    pub fn describe(&self, params: &PolicyParams) -> Result<ParamSummary, ParamError> {
        (self.make)(params, None).map(|made| made.summary)
    }

    /// Builds the policy written as `params`.
    pub fn build(&self, params: &PolicyParams, env: &PolicyEnv) -> Result<Box<dyn Policy>, ParamError> {
        let made = (self.make)(params, Some(env))?;
        Ok(made.policy.expect("recipe builds when given an environment"))
    }

    /// The parameters it accepts, with their defaults, as `key=default, ...`.
    pub fn params_text(&self) -> String {
        let bare = PolicyParams { name: self.name.to_string(), args: Vec::new() };
        self.describe(&bare).map(|summary| summary.params_text()).unwrap_or_else(|error| error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn shared_loads_once_per_file_and_type() {
        let dir = std::env::temp_dir().join(format!("schedlab-core-env-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::File::create(dir.join("t.txt")).unwrap().write_all(b"42").unwrap();
        let env = PolicyEnv::new(DataDir::at(&dir));
        let loads = std::cell::Cell::new(0);
        let load = |path: &std::path::Path| {
            loads.set(loads.get() + 1);
            std::fs::read_to_string(path).map_err(|error| error.to_string())
        };
        let first = env.shared::<String>("t.txt", load).unwrap();
        let second = env.with_seed(7).shared::<String>("t.txt", load).unwrap();
        assert_eq!((first.as_str(), Arc::ptr_eq(&first, &second), loads.get()), ("42", true, 1));
        let error = env.shared::<String>("missing.txt", load).unwrap_err();
        assert!(error.contains("'missing.txt' not found in the data directory"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
