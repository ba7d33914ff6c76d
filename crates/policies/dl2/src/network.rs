//! DL2's policy network, evaluated in plain `f32` (`network.py`, `PolicyNetwork._create_nn`
//! with the large-scale parameters): the `6 x 40` state flattened to 240 inputs, two fully
//! connected layers of 160 units (`NUM_NEURONS_PER_FCN = 240 * 2 / 3`), each ReLU then batch
//! normalisation, and a softmax over the 121 actions.
//!
//! DL2 builds its batch normalisation with tflearn and never switches tflearn to training mode
//! (`tflearn.is_training` is never called), so the layers always normalise with their moving
//! statistics, which therefore never leave their initial mean 0 and variance 1: each is the
//! per-unit affine map `gamma * x / sqrt(1 + 1e-5) + beta`, with trainable `gamma` and `beta`.
//! That is what this network computes and what the trainer trains.

use crate::observation::{ACTIONS, INPUTS};
use serde::{Deserialize, Serialize};

/// Units of each hidden layer.
pub const HIDDEN: usize = 160;
/// tflearn's batch-normalisation epsilon.
pub const BN_EPSILON: f32 = 1e-5;
/// The weights file's format tag.
pub const FORMAT: &str = "schedlab-dl2-policy-v1";

/// A fully connected layer: `out[j] = bias[j] + sum_i in[i] * weight[i][j]` (TF's layout).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dense {
    /// `[inputs][outputs]`.
    pub weight: Vec<Vec<f32>>,
    /// `[outputs]`.
    pub bias: Vec<f32>,
}

impl Dense {
    fn apply(&self, input: &[f32], output: &mut Vec<f32>) {
        output.clear();
        output.extend_from_slice(&self.bias);
        for (x, row) in input.iter().zip(&self.weight) {
            if *x == 0.0 {
                continue;
            }
            for (out, w) in output.iter_mut().zip(row) {
                *out += x * w;
            }
        }
    }

    fn check(&self, inputs: usize, outputs: usize, name: &str) -> Result<(), String> {
        if self.weight.len() != inputs || self.weight.iter().any(|row| row.len() != outputs) {
            return Err(format!("{name}.weight must be {inputs} x {outputs}"));
        }
        if self.bias.len() != outputs {
            return Err(format!("{name}.bias must have {outputs} values"));
        }
        Ok(())
    }
}

/// Batch normalisation with frozen statistics: `gamma * x / sqrt(1 + eps) + beta`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrozenNorm {
    /// Scale per unit.
    pub gamma: Vec<f32>,
    /// Shift per unit.
    pub beta: Vec<f32>,
}

impl FrozenNorm {
    fn apply(&self, values: &mut [f32]) {
        let scale = 1.0 / (1.0 + BN_EPSILON).sqrt();
        for ((value, gamma), beta) in values.iter_mut().zip(&self.gamma).zip(&self.beta) {
            *value = gamma * (*value * scale) + beta;
        }
    }
}

/// The policy network's weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyNetwork {
    /// The format tag, [`FORMAT`].
    pub format: String,
    /// 240 -> 160.
    pub dense1: Dense,
    /// After the first ReLU.
    pub norm1: FrozenNorm,
    /// 160 -> 160.
    pub dense2: Dense,
    /// After the second ReLU.
    pub norm2: FrozenNorm,
    /// 160 -> 121, then softmax.
    pub output: Dense,
}

impl PolicyNetwork {
    /// Reads a weights file's text, checking every shape.
    pub fn from_json(text: &str) -> Result<PolicyNetwork, String> {
        let network: PolicyNetwork = serde_json::from_str(text).map_err(|error| format!("weights: {error}"))?;
        if network.format != FORMAT {
            return Err(format!("weights: format must be '{FORMAT}', got '{}'", network.format));
        }
        network.dense1.check(INPUTS, HIDDEN, "dense1")?;
        network.dense2.check(HIDDEN, HIDDEN, "dense2")?;
        network.output.check(HIDDEN, ACTIONS, "output")?;
        for (norm, name) in [(&network.norm1, "norm1"), (&network.norm2, "norm2")] {
            if norm.gamma.len() != HIDDEN || norm.beta.len() != HIDDEN {
                return Err(format!("{name}: gamma and beta must have {HIDDEN} values"));
            }
        }
        let finite = |values: &[f32]| values.iter().all(|value| value.is_finite());
        let dense_finite = |dense: &Dense| dense.weight.iter().all(|row| finite(row)) && finite(&dense.bias);
        if !(dense_finite(&network.dense1)
            && dense_finite(&network.dense2)
            && dense_finite(&network.output)
            && finite(&network.norm1.gamma)
            && finite(&network.norm1.beta)
            && finite(&network.norm2.gamma)
            && finite(&network.norm2.beta))
        {
            return Err("weights: every value must be a finite number".into());
        }
        Ok(network)
    }

    /// Returns the action probabilities (softmax over all 121 actions, unmasked).
    pub fn probabilities(&self, state: &[f32]) -> Vec<f32> {
        assert_eq!(state.len(), INPUTS, "a DL2 state has {INPUTS} values");
        let mut hidden = Vec::with_capacity(HIDDEN);
        self.dense1.apply(state, &mut hidden);
        hidden.iter_mut().for_each(|value| *value = value.max(0.0));
        self.norm1.apply(&mut hidden);
        let mut second = Vec::with_capacity(HIDDEN);
        self.dense2.apply(&hidden, &mut second);
        second.iter_mut().for_each(|value| *value = value.max(0.0));
        self.norm2.apply(&mut second);
        let mut logits = Vec::with_capacity(ACTIONS);
        self.output.apply(&second, &mut logits);
        let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut total = 0.0f32;
        for logit in logits.iter_mut() {
            *logit = (*logit - max).exp();
            total += *logit;
        }
        logits.iter_mut().for_each(|value| *value /= total);
        logits
    }
}
