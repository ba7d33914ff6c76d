//! Agreement with DRF on held-out states: DRF's increments on the validation traces (never
//! trained on), each state as the policy sees it (the window in arrival order, unshuffled), and
//! the share of them where the network's most probable allowed action is DRF's.

use crate::{SlLabels, Traces, derive, run_episode};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use schedlab_core::ClusterSpec;
use schedlab_dl2_speed::Dl2Speed;
use schedlab_policies_dl2::heuristics::{Heuristic, Recorder};
use schedlab_policies_dl2::network::PolicyNetwork;
use schedlab_policies_dl2::observation::{ACTIONS, Observation, encode};
use schedlab_policies_dl2::slot::{Slot, Task};
use schedlab_policies_dl2::{Chooser, Dl2, SlotConfig};
use std::sync::{Arc, Mutex};

/// One in this many of DRF's labelled increments is kept (DRF makes about a thousand a slot).
const KEEP_ONE_IN: u32 = 128;
/// Held-out samples kept at most per validation trace.
const PER_TRACE: usize = 1024;

/// A labelled state: the network's input, the actions allowed there, DRF's action.
struct Labelled {
    state: Vec<f32>,
    allowed: [bool; ACTIONS],
    label: usize,
}

/// DRF's increments on the validation traces.
pub(crate) struct HeldOut {
    samples: Vec<Labelled>,
}

struct Keep {
    rng: ChaCha8Rng,
    samples: Vec<Labelled>,
}

struct Record {
    keep: Arc<Mutex<Keep>>,
    /// Label a bundle as one action (the supervised phase's labels).
    bundles: bool,
}

impl Recorder for Record {
    fn bundles(&self) -> bool {
        self.bundles
    }

    fn before(&mut self, slot: &Slot, job: usize, task: Task) {
        let mut keep = self.keep.lock().expect("not poisoned");
        if keep.samples.len() >= PER_TRACE || keep.rng.random_range(0..KEEP_ONE_IN) != 0 {
            return;
        }
        let observation = Observation::of(slot);
        if let Some(column) = observation.column_of(job) {
            let allowed = observation.mask(slot);
            keep.samples.push(Labelled { state: observation.state, allowed, label: encode(column, task) });
        }
    }
}

impl HeldOut {
    /// Records DRF on every validation trace (in parallel, kept in trace order), labelled as
    /// the supervised phase labels it (`labels`).
    pub(crate) fn record(
        traces: &Traces,
        cluster: &Arc<ClusterSpec>,
        speeds: &Dl2Speed,
        seed: u64,
        labels: SlLabels,
    ) -> Result<HeldOut, String> {
        let per_trace: Vec<Vec<Labelled>> = traces
            .validation
            .par_iter()
            .enumerate()
            .map(|(index, jobs)| {
                let keep = Arc::new(Mutex::new(Keep {
                    rng: ChaCha8Rng::seed_from_u64(derive(seed, 8, index as u64)),
                    samples: Vec::new(),
                }));
                let chooser = Chooser::Heuristic {
                    heuristic: Heuristic::Drf,
                    recorder: Some(Box::new(Record { keep: Arc::clone(&keep), bundles: labels == SlLabels::Bundles })),
                };
                let mut policy = Dl2::new("dl2-drf".into(), chooser, SlotConfig::default());
                run_episode(cluster, jobs, speeds, &mut policy, derive(seed, 3, index as u64))?;
                let samples = std::mem::take(&mut keep.lock().expect("not poisoned").samples);
                Ok(samples)
            })
            .collect::<Result<_, String>>()?;
        Ok(HeldOut { samples: per_trace.into_iter().flatten().collect() })
    }

    /// The share of held-out states where `network`'s most probable allowed action is DRF's
    /// (NaN when there are none).
    pub(crate) fn agreement(&self, network: &PolicyNetwork) -> f64 {
        let agreed = self
            .samples
            .par_iter()
            .filter(|sample| {
                let probabilities = network.probabilities(&sample.state);
                let best = (0..ACTIONS)
                    .filter(|&action| sample.allowed[action])
                    .max_by(|&a, &b| probabilities[a].total_cmp(&probabilities[b]).then(b.cmp(&a)));
                best == Some(sample.label)
            })
            .count();
        agreed as f64 / self.samples.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_policies_dl2::network::{Dense, FORMAT, FrozenNorm, HIDDEN};
    use schedlab_policies_dl2::observation::{INPUTS, SKIP};

    /// A network that ignores its input: its output is `bias`.
    fn constant(bias: Vec<f32>) -> PolicyNetwork {
        let dense = |inputs: usize, outputs: usize| Dense {
            weight: vec![vec![0.0; outputs]; inputs],
            bias: vec![0.0; outputs],
        };
        let norm = FrozenNorm { gamma: vec![1.0; HIDDEN], beta: vec![0.0; HIDDEN] };
        PolicyNetwork {
            format: FORMAT.to_string(),
            dense1: dense(INPUTS, HIDDEN),
            norm1: norm.clone(),
            dense2: dense(HIDDEN, HIDDEN),
            norm2: norm,
            output: Dense { bias, ..dense(HIDDEN, ACTIONS) },
        }
    }

    #[test]
    fn agreement_takes_the_most_probable_allowed_action() {
        // Preference: skip, then action 4, then action 7, then the rest.
        let mut bias = vec![0.0; ACTIONS];
        bias[SKIP] = 3.0;
        bias[4] = 2.0;
        bias[7] = 1.0;
        let network = constant(bias);
        let allowed = |actions: &[usize]| {
            let mut mask = [false; ACTIONS];
            actions.iter().for_each(|&action| mask[action] = true);
            mask
        };
        let sample = |actions: &[usize], label| Labelled { state: vec![0.0; INPUTS], allowed: allowed(actions), label };
        let held_out = HeldOut {
            samples: vec![
                sample(&[4, 7], 4),    // 4 is the most probable allowed: agrees
                sample(&[7, 9], 7),    // 4 not allowed, so 7: agrees
                sample(&[4, 7], 7),    // 4 beats 7: disagrees
                sample(&[4, SKIP], 4), // skip is allowed and first: disagrees
            ],
        };
        assert_eq!(held_out.agreement(&network), 0.5);
    }
}
