//! The actor and critic networks of RLTune's PPO agent (`philly_train_v2.py`, `rl_kernel` and
//! `critic_kernel`), evaluated in plain `f32` so that inference needs no NN library; the
//! trainer (`schedlab-rltune-train`) builds the same layers in burn and writes their weights in
//! this crate's format.

use serde::{Deserialize, Serialize};

/// Jobs the agent sees at one decision (`MAX_QUEUE_SIZE`).
pub const QUEUE_SLOTS: usize = 128;
/// Features per job (`JOB_FEATURES`).
pub const JOB_FEATURES: usize = 7;
/// Length of one observation.
pub const OBSERVATION: usize = QUEUE_SLOTS * JOB_FEATURES;
/// The actor's layer widths: the same kernel is applied to every job.
pub const ACTOR_LAYERS: [usize; 5] = [JOB_FEATURES, 32, 16, 8, 1];
/// The critic's layer widths, over the whole observation.
pub const CRITIC_LAYERS: [usize; 5] = [OBSERVATION, 32, 16, 8, 1];
/// What a masked slot adds to its logit (`(mask - 1) * 1000000`).
pub const MASK_PENALTY: f32 = 1_000_000.0;
/// The format tag of a weights file.
pub const FORMAT: &str = "schedlab-rltune-weights/1";

/// A dense layer `y = x W + b` (TensorFlow's layout: `w[i * outputs + o]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dense {
    /// Inputs.
    pub inputs: usize,
    /// Outputs.
    pub outputs: usize,
    /// Weights, `inputs x outputs`, row-major.
    pub w: Vec<f32>,
    /// Biases.
    pub b: Vec<f32>,
}

impl Dense {
    /// `y = x W + b`, then ReLU if asked; `y` holds `outputs` values.
    fn forward(&self, x: &[f32], y: &mut [f32], relu: bool) {
        y.copy_from_slice(&self.b);
        for (i, &xi) in x.iter().enumerate() {
            if xi == 0.0 {
                continue;
            }
            let row = &self.w[i * self.outputs..(i + 1) * self.outputs];
            for (yo, &w) in y.iter_mut().zip(row) {
                *yo += xi * w;
            }
        }
        if relu {
            for v in y.iter_mut() {
                *v = v.max(0.0);
            }
        }
    }
}

/// Widest layer output [`Mlp::scalar`] evaluates on the stack (the agent's widest is 32).
const STACK_WIDTH: usize = 64;

/// A multilayer perceptron with ReLU between layers and a linear output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mlp {
    /// The layers, input first.
    pub layers: Vec<Dense>,
}

impl Mlp {
    /// Returns an MLP of the given widths with every weight and bias zero.
    pub fn zeros(widths: &[usize]) -> Mlp {
        let layers = widths
            .windows(2)
            .map(|pair| Dense {
                inputs: pair[0],
                outputs: pair[1],
                w: vec![0.0; pair[0] * pair[1]],
                b: vec![0.0; pair[1]],
            })
            .collect();
        Mlp { layers }
    }

    /// Returns the widths, input first.
    pub fn widths(&self) -> Vec<usize> {
        let mut widths: Vec<usize> = self.layers.iter().map(|layer| layer.inputs).collect();
        widths.extend(self.layers.last().map(|layer| layer.outputs));
        widths
    }

    /// Evaluates the network on one input; returns its single output.
    pub fn scalar(&self, x: &[f32]) -> f32 {
        let last = self.layers.len() - 1;
        if self.layers.iter().all(|layer| layer.outputs <= STACK_WIDTH) {
            // Two buffers on the stack: no allocation per job and decision.
            let (mut a, mut b) = ([0.0f32; STACK_WIDTH], [0.0f32; STACK_WIDTH]);
            let mut width = x.len();
            for (index, layer) in self.layers.iter().enumerate() {
                let input = if index == 0 { x } else { &a[..width] };
                layer.forward(input, &mut b[..layer.outputs], index < last);
                width = layer.outputs;
                std::mem::swap(&mut a, &mut b);
            }
            return a[0];
        }
        let mut a = x.to_vec();
        let mut b = Vec::new();
        for (index, layer) in self.layers.iter().enumerate() {
            b.resize(layer.outputs, 0.0);
            layer.forward(&a, &mut b, index < last);
            std::mem::swap(&mut a, &mut b);
        }
        a[0]
    }

    fn check(&self, widths: &[usize], what: &str) -> Result<(), String> {
        if self.widths() != widths {
            return Err(format!("{what} has layer widths {:?}; expected {widths:?}", self.widths()));
        }
        for (index, layer) in self.layers.iter().enumerate() {
            if layer.w.len() != layer.inputs * layer.outputs || layer.b.len() != layer.outputs {
                return Err(format!(
                    "{what} layer {index}: {} weights and {} biases; expected {} and {}",
                    layer.w.len(),
                    layer.b.len(),
                    layer.inputs * layer.outputs,
                    layer.outputs
                ));
            }
            if let Some(bad) = layer.w.iter().chain(&layer.b).find(|v| !v.is_finite()) {
                return Err(format!("{what} layer {index} holds the non-finite value {bad}"));
            }
        }
        Ok(())
    }
}

/// The agent: the actor's kernel (7 -> 32 -> 16 -> 8 -> 1, applied to each job) and the critic
/// (896 -> 32 -> 16 -> 8 -> 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Agent {
    /// The per-job scoring kernel.
    pub actor: Mlp,
    /// The value network.
    pub critic: Mlp,
}

/// A weights file: the agent plus what produced it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeightsFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// The networks.
    pub agent: Agent,
}

impl Agent {
    /// Returns an agent of the right shape with all parameters zero (uniform choice).
    pub fn zeros() -> Agent {
        Agent { actor: Mlp::zeros(&ACTOR_LAYERS), critic: Mlp::zeros(&CRITIC_LAYERS) }
    }

    /// Parses a weights file's text, checking format, shapes and finiteness.
    pub fn from_json(text: &str) -> Result<Agent, String> {
        let file: WeightsFile =
            serde_json::from_str(text).map_err(|error| format!("not an RLTune weights file: {error}"))?;
        if file.format != FORMAT {
            return Err(format!("format is '{}'; expected '{FORMAT}'", file.format));
        }
        file.agent.actor.check(&ACTOR_LAYERS, "the actor")?;
        file.agent.critic.check(&CRITIC_LAYERS, "the critic")?;
        Ok(file.agent)
    }

    /// Writes the agent as a weights file (deterministic bytes for the same weights).
    pub fn to_json(&self) -> String {
        let file = WeightsFile { format: FORMAT.to_string(), agent: self.clone() };
        serde_json::to_string(&file).expect("weights serialise")
    }

    /// Returns the masked logits of every slot: the kernel's score for occupied slots, the
    /// score minus [`MASK_PENALTY`] for empty ones (as the authors' `categorical_policy`).
    pub fn logits(&self, observation: &[f32], mask: &[bool]) -> Vec<f32> {
        // Empty slots all hold the same features: score them once.
        let mut empty_score = None;
        (0..QUEUE_SLOTS)
            .map(|slot| {
                let features = &observation[slot * JOB_FEATURES..(slot + 1) * JOB_FEATURES];
                let score = if features == crate::observation::EMPTY_SLOT {
                    *empty_score.get_or_insert_with(|| self.actor.scalar(features))
                } else {
                    self.actor.scalar(features)
                };
                if mask[slot] { score } else { score - MASK_PENALTY }
            })
            .collect()
    }

    /// Returns the critic's value of an observation.
    pub fn value(&self, observation: &[f32]) -> f32 {
        self.critic.scalar(observation)
    }
}

/// Log-softmax of logits, in `f64`.
pub fn log_softmax(logits: &[f32]) -> Vec<f64> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
    let sum: f64 = logits.iter().map(|&l| (l as f64 - max).exp()).sum();
    let log_sum = sum.ln() + max;
    logits.iter().map(|&l| l as f64 - log_sum).collect()
}

/// Picks a slot from log-probabilities with a uniform draw `u` in `[0, 1)` (inverse CDF).
pub fn sample(log_probs: &[f64], u: f64) -> usize {
    let mut cumulative = 0.0;
    let mut last = 0;
    for (slot, &lp) in log_probs.iter().enumerate() {
        let p = lp.exp();
        if p <= 0.0 {
            continue;
        }
        last = slot;
        cumulative += p;
        if u < cumulative {
            return slot;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masked_softmax_puts_no_mass_on_empty_slots() {
        let mut agent = Agent::zeros();
        // Score a job by its first feature: 2 * x.
        agent.actor.layers[0].w[0] = 1.0; // x0 -> h0
        agent.actor.layers[1].w[0] = 1.0; // h0 -> h0
        agent.actor.layers[2].w[0] = 1.0; // h0 -> h0
        agent.actor.layers[3].w[0] = 2.0; // h0 -> out
        let mut observation = vec![0.0f32; OBSERVATION];
        observation[0] = 0.5; // slot 0
        observation[JOB_FEATURES] = 1.0; // slot 1
        let mut mask = vec![false; QUEUE_SLOTS];
        mask[0] = true;
        mask[1] = true;
        let logits = agent.logits(&observation, &mask);
        assert_eq!(logits[0], 1.0);
        assert_eq!(logits[1], 2.0);
        assert_eq!(logits[2], -MASK_PENALTY);
        let lp = log_softmax(&logits);
        // Two live slots: p1 / p0 = e.
        let p0 = lp[0].exp();
        let p1 = lp[1].exp();
        assert!((p0 + p1 - 1.0).abs() < 1e-12);
        assert!((p1 / p0 - std::f64::consts::E).abs() < 1e-9);
        assert_eq!(lp[5].exp(), 0.0);
        assert_eq!(sample(&lp, 0.0), 0);
        assert_eq!(sample(&lp, p0 + 1e-9), 1);
        assert_eq!(sample(&lp, 0.999_999_999), 1);
    }

    #[test]
    fn weights_round_trip_and_bad_files_are_named() {
        let mut agent = Agent::zeros();
        agent.critic.layers[3].b[0] = 0.25;
        let text = agent.to_json();
        assert_eq!(Agent::from_json(&text).unwrap(), agent);
        let mut broken = agent.clone();
        broken.actor.layers[1].b.pop();
        let error = Agent::from_json(&broken.to_json()).unwrap_err();
        assert!(error.contains("the actor layer 1"), "{error}");
        let error = Agent::from_json("[1, 2]").unwrap_err();
        assert!(error.contains("not an RLTune weights file"), "{error}");
    }
}
