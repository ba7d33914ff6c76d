//! DL2's policy and value networks in burn, initialised as tflearn does, and their gradients as
//! DL2's TensorFlow graph computes them.

use burn::module::{Module, Param};
use burn::nn::Linear;
use burn::tensor::activation::{log_softmax, relu, softmax};
use burn::tensor::{Device, Tensor, TensorData};
use rand::Rng;
use rand_distr::{Distribution, Normal};
use schedlab_policies_dl2::network::{BN_EPSILON, Dense, FORMAT, FrozenNorm, HIDDEN, PolicyNetwork};
use schedlab_policies_dl2::observation::{ACTIONS, FEATURES, INPUTS, SKIP, WINDOW};

/// tflearn's `truncated_normal` initialiser: standard deviation 0.02, draws beyond two standard
/// deviations redrawn.
fn truncated_normal(rng: &mut impl Rng, count: usize) -> Vec<f32> {
    let normal = Normal::new(0.0f64, 0.02).expect("a valid normal");
    (0..count)
        .map(|_| {
            loop {
                let value = normal.sample(rng);
                if value.abs() <= 0.04 {
                    break value as f32;
                }
            }
        })
        .collect()
}

fn linear(rng: &mut impl Rng, inputs: usize, outputs: usize, device: &Device) -> Linear {
    Linear {
        weight: Param::from_tensor(Tensor::<2>::from_data(
            TensorData::new(truncated_normal(rng, inputs * outputs), [inputs, outputs]),
            device,
        )),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(
            TensorData::new(vec![0.0f32; outputs], [outputs]),
            device,
        ))),
    }
}

/// tflearn's batch normalisation parameters: `gamma ~ N(1, 0.002)`, `beta = 0`.
fn norm(rng: &mut impl Rng, units: usize, device: &Device) -> (Param<Tensor<1>>, Param<Tensor<1>>) {
    let normal = Normal::new(1.0f64, 0.002).expect("a valid normal");
    let gamma: Vec<f32> = (0..units).map(|_| normal.sample(rng) as f32).collect();
    (
        Param::from_tensor(Tensor::<1>::from_data(TensorData::new(gamma, [units]), device)),
        Param::from_tensor(Tensor::<1>::from_data(TensorData::new(vec![0.0f32; units], [units]), device)),
    )
}

/// The shared body: dense 240 -> 160, ReLU, frozen batch norm, dense 160 -> 160, ReLU, frozen
/// batch norm.
#[derive(Module, Debug)]
pub struct Body {
    dense1: Linear,
    gamma1: Param<Tensor<1>>,
    beta1: Param<Tensor<1>>,
    dense2: Linear,
    gamma2: Param<Tensor<1>>,
    beta2: Param<Tensor<1>>,
}

impl Body {
    fn new(rng: &mut impl Rng, device: &Device) -> Body {
        let dense1 = linear(rng, INPUTS, HIDDEN, device);
        let (gamma1, beta1) = norm(rng, HIDDEN, device);
        let dense2 = linear(rng, HIDDEN, HIDDEN, device);
        let (gamma2, beta2) = norm(rng, HIDDEN, device);
        Body { dense1, gamma1, beta1, dense2, gamma2, beta2 }
    }

    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let scale = 1.0 / (1.0 + BN_EPSILON).sqrt();
        let h = relu(self.dense1.forward(x)) * scale;
        let h = h * self.gamma1.val().unsqueeze_dim(0) + self.beta1.val().unsqueeze_dim(0);
        let h = relu(self.dense2.forward(h)) * scale;
        h * self.gamma2.val().unsqueeze_dim(0) + self.beta2.val().unsqueeze_dim(0)
    }
}

/// The policy network: body, then dense 160 -> 121 (softmax outside).
#[derive(Module, Debug)]
pub struct PolicyNet {
    body: Body,
    output: Linear,
}

/// The value network: body, then dense 160 -> 1.
#[derive(Module, Debug)]
pub struct ValueNet {
    body: Body,
    output: Linear,
}

fn values(tensor: Tensor<1>) -> Vec<f32> {
    tensor.into_data().try_to_vec::<f32>().expect("f32 values")
}

fn dense_of(linear: &Linear) -> Dense {
    let [inputs, outputs] = linear.weight.val().dims();
    let flat = linear.weight.val().into_data().try_to_vec::<f32>().expect("f32 weights");
    let weight = (0..inputs).map(|row| flat[row * outputs..(row + 1) * outputs].to_vec()).collect();
    let bias = values(linear.bias.as_ref().expect("every layer has a bias").val());
    Dense { weight, bias }
}

fn linear_of(dense: &Dense, device: &Device) -> Linear {
    let (inputs, outputs) = (dense.weight.len(), dense.bias.len());
    let flat: Vec<f32> = dense.weight.iter().flatten().copied().collect();
    Linear {
        weight: Param::from_tensor(Tensor::<2>::from_data(TensorData::new(flat, [inputs, outputs]), device)),
        bias: Some(Param::from_tensor(Tensor::<1>::from_data(TensorData::new(dense.bias.clone(), [outputs]), device))),
    }
}

fn param(values: &[f32], device: &Device) -> Param<Tensor<1>> {
    Param::from_tensor(Tensor::<1>::from_data(TensorData::new(values.to_vec(), [values.len()]), device))
}

impl PolicyNet {
    /// A freshly initialised network.
    pub fn new(rng: &mut impl Rng, device: &Device) -> PolicyNet {
        let body = Body::new(rng, device);
        PolicyNet { body, output: linear(rng, HIDDEN, ACTIONS, device) }
    }

    /// The network holding `weights`.
    pub fn from_weights(weights: &PolicyNetwork, device: &Device) -> PolicyNet {
        PolicyNet {
            body: Body {
                dense1: linear_of(&weights.dense1, device),
                gamma1: param(&weights.norm1.gamma, device),
                beta1: param(&weights.norm1.beta, device),
                dense2: linear_of(&weights.dense2, device),
                gamma2: param(&weights.norm2.gamma, device),
                beta2: param(&weights.norm2.beta, device),
            },
            output: linear_of(&weights.output, device),
        }
    }

    /// Logits (before the softmax) of a batch of states `[b, 240]`.
    pub fn logits(&self, states: Tensor<2>) -> Tensor<2> {
        self.output.forward(self.body.forward(states))
    }

    /// Action probabilities of a batch of states.
    pub fn probabilities(&self, states: Tensor<2>) -> Tensor<2> {
        softmax(self.logits(states), 1)
    }

    /// Cross-entropy of the softmax against one-hot (or all-zero) labels, averaged over the
    /// batch (`tflearn.categorical_crossentropy`).
    pub fn cross_entropy(&self, states: Tensor<2>, labels: Tensor<2>) -> Tensor<1> {
        cross_entropy(self.logits(states), labels, false)
    }

    /// The same cross-entropy with skip left out of the softmax (its logit gets no gradient):
    /// for a teacher whose labels never skip (DRF), so that imitation does not drive skip's
    /// probability to zero. Labels must not be skip.
    pub fn cross_entropy_without_skip(&self, states: Tensor<2>, labels: Tensor<2>) -> Tensor<1> {
        cross_entropy(self.logits(states), labels, true)
    }

    /// The weights as the policy crate reads them.
    pub fn export(&self) -> PolicyNetwork {
        PolicyNetwork {
            format: FORMAT.to_string(),
            dense1: dense_of(&self.body.dense1),
            norm1: FrozenNorm { gamma: values(self.body.gamma1.val()), beta: values(self.body.beta1.val()) },
            dense2: dense_of(&self.body.dense2),
            norm2: FrozenNorm { gamma: values(self.body.gamma2.val()), beta: values(self.body.beta2.val()) },
            output: dense_of(&self.output),
        }
    }
}

impl ValueNet {
    /// A freshly initialised network.
    pub fn new(rng: &mut impl Rng, device: &Device) -> ValueNet {
        let body = Body::new(rng, device);
        ValueNet { body, output: linear(rng, HIDDEN, 1, device) }
    }

    /// Values of a batch of states, `[b]`.
    pub fn values(&self, states: Tensor<2>) -> Tensor<1> {
        let [b, _] = states.dims();
        self.output.forward(self.body.forward(states)).reshape([b])
    }
}

/// Cross-entropy of the softmax of `logits` (a batch) against one-hot (or all-zero) labels,
/// averaged over the batch; `without_skip` leaves skip out of the softmax (see
/// [`PolicyNet::cross_entropy_without_skip`]).
pub fn cross_entropy(logits: Tensor<2>, labels: Tensor<2>, without_skip: bool) -> Tensor<1> {
    let [b, _] = labels.dims();
    if without_skip {
        (log_softmax(logits.slice([0..b, 0..SKIP]), 1) * labels.slice([0..b, 0..SKIP])).sum().neg() / b as f32
    } else {
        (log_softmax(logits, 1) * labels).sum().neg() / b as f32
    }
}

/// The gradient DL2's policy loss sends into the logits, for one sample.
///
/// DL2 feeds the sampled (masked, renormalised) output `q` in place of the network's output when
/// computing gradients (`get_rl_gradients` feeds `self.output`), so TensorFlow evaluates the
/// softmax's gradient at `q`: for the loss `mean(log(q_a) * -A) + w * mean(q log(q + 1e-6))`
/// over `n` samples of 121 actions the logits receive `-(A / n)(e_a - q)` plus the entropy
/// term `q_j (g_j - sum_k q_k g_k)`, `g_j = w (log(q_j + 1e-6) + q_j / (q_j + 1e-6)) / (121 n)`.
/// The trainer feeds these through the network as a surrogate loss `sum(logits x gradient)`.
///
/// `entropy` says how the entropy term is averaged: over the batch and the 121 actions as DL2's
/// `tf.reduce_mean` does ([`Entropy::MeanOverActions`]), or summed over actions and averaged
/// over the batch as the paper's formula reads ([`Entropy::PerSample`]: 121 times stronger).
pub fn policy_logit_gradient(
    q: &[f32],
    action: usize,
    advantage: f64,
    entropy_weight: f64,
    entropy: Entropy,
    n: usize,
) -> Vec<f32> {
    const EPS: f64 = 1e-6;
    let n = n as f64;
    let over = match entropy {
        Entropy::MeanOverActions => ACTIONS as f64,
        Entropy::PerSample => 1.0,
    };
    let g: Vec<f64> = q
        .iter()
        .map(|&q| {
            let q = q as f64;
            entropy_weight * ((q + EPS).ln() + q / (q + EPS)) / (over * n)
        })
        .collect();
    let mean_g: f64 = q.iter().zip(&g).map(|(&q, g)| q as f64 * g).sum();
    q.iter()
        .enumerate()
        .map(|(j, &qj)| {
            let qj = qj as f64;
            let chosen = if j == action { 1.0 } else { 0.0 };
            (-(advantage / n) * (chosen - qj) + qj * (g[j] - mean_g)) as f32
        })
        .collect()
}

/// Adds `weight` times the gradient of `KL(anchor || softmax(z))` with respect to the logits
/// `z` to `gradient`, for a batch of rows: `softmax(z) - anchor` (`policy` is `softmax(z)`).
pub fn add_anchor_gradient(gradient: &mut [f32], policy: &[f32], anchor: &[f32], weight: f64) {
    for ((g, p), a) in gradient.iter_mut().zip(policy).zip(anchor) {
        *g += (weight * (f64::from(*p) - f64::from(*a))) as f32;
    }
}

/// Adds `weight` times the gradient of `KL(softmax(z) || anchor)` with respect to the logits
/// `z` to `gradient`, for a batch of rows: `p_j (ln p_j - ln a_j - KL)` (`policy` is
/// `softmax(z)`). Actions the policy gives no mass (masked) add nothing; an anchor's zero is
/// read as 1e-30, so mass the anchor never gave costs about 69 nats.
pub fn add_reverse_anchor_gradient(gradient: &mut [f32], policy: &[f32], anchor: &[f32], weight: f64, actions: usize) {
    for ((g, p), a) in gradient.chunks_mut(actions).zip(policy.chunks(actions)).zip(anchor.chunks(actions)) {
        let log_ratio = |p: f32, a: f32| f64::from(p).ln() - f64::from(a.max(1e-30)).ln();
        let kl: f64 = p.iter().zip(a).filter(|(p, _)| **p > 0.0).map(|(&p, &a)| f64::from(p) * log_ratio(p, a)).sum();
        for ((g, &p), &a) in g.iter_mut().zip(p).zip(a) {
            if p > 0.0 {
                *g += (weight * f64::from(p) * (log_ratio(p, a) - kl)) as f32;
            }
        }
    }
}

/// Which KL divergence the anchor's penalty ([`crate::TrainConfig::anchor_weight`]) weighs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnchorDivergence {
    /// `KL(pi_sl || pi)`: the policy must keep the supervised network's mass; new mass on an
    /// action that network gave little costs little.
    #[default]
    Forward,
    /// `KL(pi || pi_sl)`: mass on an action the supervised network gave little costs its log
    /// ratio, so the policy stays where that network puts mass.
    Reverse,
}

/// How the policy loss's entropy term is averaged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Entropy {
    /// Over the batch and the 121 actions (DL2's `network.py`, `tf.reduce_mean`).
    #[default]
    MeanOverActions,
    /// Summed over actions, averaged over the batch (the paper's `sum_a pi log pi` per sample).
    PerSample,
}

/// The factor each input is multiplied by before the network: all 1 (DL2, `INPUT_RESCALE =
/// False`), or, normalised, a power of two per row chosen so that each row's typical range is
/// about 0 to 1: type / 8, slots waited / 64, remaining fraction x 1, dominant share x 64 (a
/// job at 16 workers and 16 servers holds 0.016 of the cluster), workers / 16, servers / 16.
/// Powers of two make folding the scale into the first layer exact.
pub fn input_scale(normalise: bool) -> Vec<f32> {
    const ROWS: [f32; FEATURES] = [0.125, 1.0 / 64.0, 1.0, 64.0, 1.0 / 16.0, 1.0 / 16.0];
    let mut scale = vec![1.0f32; INPUTS];
    if normalise {
        for (row, factor) in ROWS.iter().enumerate() {
            scale[row * WINDOW..(row + 1) * WINDOW].fill(*factor);
        }
    }
    scale
}

/// Multiplies each state of a flat batch by `scale` (one factor per input).
pub fn scale_states(states: &mut [f32], scale: &[f32]) {
    for (value, factor) in states.iter_mut().zip(scale.iter().cycle()) {
        *value *= *factor;
    }
}

/// The weights that compute on raw states what `weights` compute on states scaled by `scale`:
/// the first layer's input rows multiplied by it (exact for powers of two).
pub fn fold_scale(mut weights: PolicyNetwork, scale: &[f32]) -> PolicyNetwork {
    for (row, factor) in weights.dense1.weight.iter_mut().zip(scale) {
        row.iter_mut().for_each(|w| *w *= *factor);
    }
    weights
}

/// The inverse of [`fold_scale`].
pub fn unfold_scale(mut weights: PolicyNetwork, scale: &[f32]) -> PolicyNetwork {
    for (row, factor) in weights.dense1.weight.iter_mut().zip(scale) {
        row.iter_mut().for_each(|w| *w /= *factor);
    }
    weights
}
