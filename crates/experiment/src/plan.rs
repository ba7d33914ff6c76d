//! Expanding a spec into runs, each with a stable key and a derived seed.

use crate::axis::Axis;
use crate::spec::PolicyName;

/// A point of the sweep: one value per axis, in the spec's axis order.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPoint(pub Vec<(String, f64)>);

impl SweepPoint {
    /// Returns the value of an axis at this point.
    pub fn get(&self, axis: Axis) -> Option<f64> {
        self.0.iter().find(|(name, _)| name == axis.name()).map(|(_, value)| *value)
    }

    /// Returns `axis=value;...` for keys and file names.
    pub fn label(&self) -> String {
        self.0.iter().map(|(name, value)| format!("{name}={value}")).collect::<Vec<_>>().join(";")
    }
}

/// One simulation to run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunPlan {
    /// `policy=...;axis=...;seed=...`: unique, sorts the output.
    pub key: String,
    /// The policy.
    pub policy: PolicyName,
    /// The spec's seed for this run.
    pub seed: u64,
    /// The sweep point.
    pub point: SweepPoint,
    /// Identifies the workload: the same for every policy at one point and seed, so all
    /// policies see identical jobs.
    pub workload_key: String,
    /// Seed for the workload's generator and model assignment, derived with a stable hash from
    /// what defines the workload (the spec's workload, cluster and perf sections), the point and
    /// the seed: never from the spec's name, thread identity or time.
    pub workload_seed: u64,
    /// The run's seed for the policy (`RunStart::seed`, `PolicyEnv::seed`), derived like the
    /// workload seed but as a separate stream: the same for every policy at one point and seed.
    pub run_seed: u64,
}

/// 64-bit FNV-1a: a stable hash for deriving seeds.
pub fn stable_hash(parts: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain(std::iter::once(0xff)) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// Returns every sweep point: the cartesian product of the axes (one empty point if none).
pub fn sweep_points(axes: &[(Axis, Vec<f64>)]) -> Vec<SweepPoint> {
    let mut points = vec![SweepPoint(Vec::new())];
    for (axis, values) in axes {
        points = points
            .into_iter()
            .flat_map(|point| {
                values.iter().map(move |value| {
                    let mut next = point.0.clone();
                    next.push((axis.name().to_string(), *value));
                    SweepPoint(next)
                })
            })
            .collect();
    }
    points
}

/// Expands an experiment into runs (sweep points x seeds x policies), sorted by key. Workload
/// seeds derive from `defines_workload` (the spec's workload, cluster and perf sections, as
/// text) and the point and seed, so a renamed copy of a spec replays the same jobs.
pub fn expand(
    defines_workload: &str,
    axes: &[(Axis, Vec<f64>)],
    seeds: &[u64],
    policies: &[PolicyName],
) -> Vec<RunPlan> {
    let mut runs = Vec::new();
    for point in sweep_points(axes) {
        for &seed in seeds {
            let workload_key =
                format!("{}seed={seed}", if point.0.is_empty() { String::new() } else { point.label() + ";" });
            let workload_seed = stable_hash(&[defines_workload, &workload_key]);
            let run_seed = stable_hash(&[defines_workload, &workload_key, "run"]);
            for policy in policies {
                let key = format!("policy={policy};{workload_key}");
                runs.push(RunPlan {
                    key,
                    policy: policy.clone(),
                    seed,
                    point: point.clone(),
                    workload_key: workload_key.clone(),
                    workload_seed,
                    run_seed,
                });
            }
        }
    }
    runs.sort_by(|a, b| a.key.cmp(&b.key));
    runs
}
