//! The policies of this crate, as the zoo lists them.

use crate::heuristics::Heuristic;
use crate::network::PolicyNetwork;
use crate::policy::{Chooser, Dl2, SlotConfig};
use schedlab_core::weights::{self, Weights};
use schedlab_core::{ParamError, ParamReader, PolicyEntry, PolicyEnv, recipe};
use schedlab_dl2_speed::Dl2Speed;
use std::sync::Arc;

/// Weights shipped with schedlab (`weights/*.json`, each with its training manifest beside it).
pub const BUILTIN_WEIGHTS: &[(&str, &str)] = &[("dl2", include_str!("../weights/dl2.json"))];

/// The first 8 hex digits of the SHA-256 of a weights file's text: built-in weights are named
/// `dl2@<digest>` in policy names, so that new weights make new run identities.
pub use schedlab_core::weights::digest;

/// What `dl2[...]` reads.
struct NetworkRecipe {
    name: String,
    config: SlotConfig,
    weights: Weights,
    sample: bool,
}

fn read_network(reader: &mut ParamReader<'_>) -> Result<NetworkRecipe, ParamError> {
    let config = read_config(reader)?;
    let default = BUILTIN_WEIGHTS.first().map_or("", |(name, _)| *name);
    let weights = weights::read_weights(reader, BUILTIN_WEIGHTS, default, "")?;
    let sample = reader.choice("action", "sample", &["sample", "greedy"])? == "sample";
    Ok(NetworkRecipe { name: reader.name(), config, weights, sample })
}

fn build_network(recipe: NetworkRecipe, env: &PolicyEnv) -> Result<Dl2, ParamError> {
    let error = |message: String| ParamError { policy: recipe.name.clone(), message };
    let network =
        weights::load_weights(env, &recipe.weights, BUILTIN_WEIGHTS, PolicyNetwork::from_json).map_err(error)?;
    let chooser = Chooser::Network { network, sample: recipe.sample };
    Ok(Dl2::new(recipe.name, chooser, recipe.config))
}

/// Reads DL2's slot parameters: `slot` (seconds), `gpu_weight`, `max_workers`, `max_ps`.
fn read_config(reader: &mut ParamReader<'_>) -> Result<SlotConfig, ParamError> {
    let defaults = SlotConfig::default();
    let slot_seconds = reader.positive_f64("slot", defaults.slot_seconds)?;
    let gpu_weight = reader.f64("gpu_weight", defaults.gpu_weight)?;
    if !(gpu_weight.is_finite() && gpu_weight >= 0.0) {
        return Err(ParamError {
            policy: reader.name(),
            message: format!("parameter 'gpu_weight': expected a non-negative number, got {gpu_weight}"),
        });
    }
    let mut cap = |key: &'static str, default: u32| -> Result<u32, ParamError> {
        let value = reader.f64(key, default as f64)?;
        if value.fract() != 0.0 || !(1.0..=1024.0).contains(&value) {
            return Err(ParamError {
                policy: reader.name(),
                message: format!("parameter '{key}': expected a whole number from 1 to 1024, got {value}"),
            });
        }
        Ok(value as u32)
    };
    let max_workers = cap("max_workers", defaults.max_workers)?;
    let max_ps = cap("max_ps", defaults.max_ps)?;
    Ok(SlotConfig { slot_seconds, gpu_weight, max_workers, max_ps })
}

/// What a heuristic reads: its slot parameters, and for the oracles the speed table.
struct HeuristicRecipe {
    name: String,
    config: SlotConfig,
    speeds: Option<String>,
}

fn read_heuristic(with_speeds: bool) -> impl Fn(&mut ParamReader<'_>) -> Result<HeuristicRecipe, ParamError> {
    move |reader| {
        let config = read_config(reader)?;
        let speeds = if with_speeds { Some(reader.file("speeds", "dl2/config_speed.txt")?) } else { None };
        Ok(HeuristicRecipe { name: reader.name(), config, speeds })
    }
}

fn build_heuristic(
    kind: impl Fn(Option<Arc<Dl2Speed>>) -> Heuristic,
) -> impl Fn(HeuristicRecipe, &PolicyEnv) -> Result<Dl2, ParamError> {
    move |recipe, env| {
        let speeds = match &recipe.speeds {
            None => None,
            Some(path) => Some(
                env.shared(path, |path| Dl2Speed::load(path).map_err(|error| error.to_string()))
                    .map_err(|message| ParamError { policy: recipe.name.clone(), message })?,
            ),
        };
        let chooser = Chooser::Heuristic { heuristic: kind(speeds), recorder: None };
        Ok(Dl2::new(recipe.name, chooser, recipe.config))
    }
}

/// Makes a heuristic that reads the true speed table (`speeds`).
fn oracle(
    params: &schedlab_core::PolicyParams,
    env: Option<&PolicyEnv>,
    kind: fn(Arc<Dl2Speed>) -> Heuristic,
) -> Result<schedlab_core::Made, ParamError> {
    let build = build_heuristic(move |speeds| kind(speeds.expect("an oracle reads its speed table")));
    recipe(params, env, read_heuristic(true), build)
}

/// DL2 and its baselines in its slot model.
pub const POLICIES: &[PolicyEntry] = &[
    PolicyEntry {
        name: "dl2",
        description: "DL2: after one worker-server bundle per job, a trained policy network adds workers, servers or bundles one at a time until it skips or a task does not fit",
        oracle: false,
        make: |params, env| recipe(params, env, read_network, build_network),
    },
    PolicyEntry {
        name: "dl2-drf",
        description: "DL2's slots: dominant resource fairness adds a worker and a server to the job with the lowest dominant share, repeatedly (DL2's warm-up teacher)",
        oracle: false,
        make: |params, env| recipe(params, env, read_heuristic(false), build_heuristic(|_| Heuristic::Drf)),
    },
    PolicyEntry {
        name: "dl2-fifo",
        description: "DL2's slots: jobs in arrival order each get up to 16 worker-server bundles",
        oracle: false,
        make: |params, env| recipe(params, env, read_heuristic(false), build_heuristic(|_| Heuristic::Fifo)),
    },
    PolicyEntry {
        name: "dl2-srtf",
        description: "DL2's slots: smallest declared remaining fraction first, up to 16 bundles each",
        oracle: false,
        make: |params, env| recipe(params, env, read_heuristic(false), build_heuristic(|_| Heuristic::Srtf)),
    },
    PolicyEntry {
        name: "dl2-tetris",
        description: "DL2's slots: nodes in order, each given the bundle of the job best aligned with its free resources plus weighted remaining work",
        oracle: false,
        make: |params, env| recipe(params, env, read_heuristic(false), build_heuristic(|_| Heuristic::Tetris)),
    },
    PolicyEntry {
        name: "dl2-optimus",
        description: "DL2's slots: Optimus adds the worker or server that most reduces a job's remaining time, by the true speed function (ORACLE)",
        oracle: true,
        make: |params, env| oracle(params, env, Heuristic::Optimus),
    },
    PolicyEntry {
        name: "dl2-slot-greedy",
        description: "DL2's slots, not in DL2: the worker, server or bundle that adds most to DL2's slot reward (epochs done over declared epochs, summed over jobs) per task, by the true speed function; what DL2's training objective asks for (ORACLE)",
        oracle: true,
        make: |params, env| oracle(params, env, Heuristic::SlotReward),
    },
];
