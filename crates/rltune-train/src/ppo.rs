//! The PPO update in burn (Flex backend, autodiff), as `ppo` of `philly_train_v2.py`.

use crate::{Episode, TrainConfig};
use burn::module::{Module, Param};
use burn::nn::Linear;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::{log_softmax, relu};
use burn::tensor::{Device, Int, Tensor, TensorData};
use schedlab_policies_rltune::network::{Agent, Dense, JOB_FEATURES, MASK_PENALTY, Mlp, OBSERVATION, QUEUE_SLOTS};

/// An MLP as burn layers.
#[derive(Module, Debug)]
pub struct Net {
    layers: Vec<Linear>,
}

impl Net {
    fn from_mlp(mlp: &Mlp, device: &Device) -> Net {
        let layers = mlp
            .layers
            .iter()
            .map(|layer| Linear {
                weight: Param::from_tensor(Tensor::<2>::from_data(
                    TensorData::new(layer.w.clone(), [layer.inputs, layer.outputs]),
                    device,
                )),
                bias: Some(Param::from_tensor(Tensor::<1>::from_data(
                    TensorData::new(layer.b.clone(), [layer.outputs]),
                    device,
                ))),
            })
            .collect();
        Net { layers }
    }

    fn forward<const D: usize>(&self, mut x: Tensor<D>) -> Tensor<D> {
        let last = self.layers.len() - 1;
        for (index, layer) in self.layers.iter().enumerate() {
            x = layer.forward(x);
            if index < last {
                x = relu(x);
            }
        }
        x
    }

    fn to_mlp(&self) -> Mlp {
        let layers = self
            .layers
            .iter()
            .map(|layer| {
                let [inputs, outputs] = layer.weight.val().dims();
                let w = layer.weight.val().into_data().try_to_vec::<f32>().expect("f32 weights");
                let b = layer
                    .bias
                    .as_ref()
                    .expect("every layer has a bias")
                    .val()
                    .into_data()
                    .try_to_vec::<f32>()
                    .expect("f32 biases");
                Dense { inputs, outputs, w, b }
            })
            .collect();
        Mlp { layers }
    }
}

/// The networks being trained and their optimisers.
pub struct Learner {
    device: Device,
    actor: Option<Net>,
    critic: Option<Net>,
    actor_optim: ModuleOptimizer,
    critic_optim: ModuleOptimizer,
}

impl Learner {
    /// Starts from `agent` with Adam (TensorFlow's defaults: beta 0.9 and 0.999, epsilon 1e-8).
    pub fn new(agent: &Agent) -> Learner {
        let device = Device::flex().autodiff();
        let adam = || AdamConfig::new().with_epsilon(1e-8).init();
        Learner {
            actor: Some(Net::from_mlp(&agent.actor, &device)),
            critic: Some(Net::from_mlp(&agent.critic, &device)),
            device,
            actor_optim: adam(),
            critic_optim: adam(),
        }
    }

    /// The current weights.
    pub fn export(&self) -> Agent {
        Agent {
            actor: self.actor.as_ref().expect("actor present").to_mlp(),
            critic: self.critic.as_ref().expect("critic present").to_mlp(),
        }
    }
}

/// One epoch of decisions, ready for the update.
pub struct Batch {
    observations: Vec<f32>,
    masks: Vec<f32>,
    actions: Vec<i64>,
    log_probs: Vec<f32>,
    advantages: Vec<f32>,
    returns: Vec<f32>,
}

impl Batch {
    /// Decisions collected.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// True if no decision was collected.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// Builds the batch as `PPOBuffer` does: the episode's reward enters as the last value
    /// (`finish_path(r)`), rewards before it are 0; advantages are GAE and normalised over the
    /// batch with the population standard deviation.
    pub fn from_episodes(episodes: &[Episode], agent: &Agent, gamma: f64, lambda: f64) -> Batch {
        let mut batch = Batch {
            observations: Vec::new(),
            masks: Vec::new(),
            actions: Vec::new(),
            log_probs: Vec::new(),
            advantages: Vec::new(),
            returns: Vec::new(),
        };
        for episode in episodes {
            let values: Vec<f64> = episode.steps.iter().map(|step| f64::from(agent.value(&step.observation))).collect();
            let n = values.len();
            let mut advantage = vec![0.0; n];
            let mut running = 0.0;
            for t in (0..n).rev() {
                let next = if t + 1 < n { values[t + 1] } else { episode.reward };
                let delta = gamma * next - values[t];
                running = delta + gamma * lambda * running;
                advantage[t] = running;
            }
            for (t, step) in episode.steps.iter().enumerate() {
                batch.observations.extend_from_slice(&step.observation);
                batch.masks.extend(step.mask.iter().map(|&m| if m { 1.0f32 } else { 0.0 }));
                batch.actions.push(step.action as i64);
                batch.log_probs.push(step.log_prob as f32);
                batch.advantages.push(advantage[t] as f32);
                batch.returns.push((gamma.powi((n - t) as i32) * episode.reward) as f32);
            }
        }
        let n = batch.advantages.len().max(1) as f64;
        let mean = batch.advantages.iter().map(|&a| f64::from(a)).sum::<f64>() / n;
        let var = batch.advantages.iter().map(|&a| (f64::from(a) - mean).powi(2)).sum::<f64>() / n;
        let std = var.sqrt();
        for a in &mut batch.advantages {
            *a = ((f64::from(*a) - mean) / std) as f32;
        }
        batch
    }
}

/// What an update did.
pub struct UpdateStats {
    /// Policy steps taken.
    pub pi_steps: usize,
    /// Approximate KL after the update.
    pub kl: f64,
    /// Value loss before the update.
    pub loss_v: f64,
}

fn scalar(tensor: Tensor<1>) -> f64 {
    f64::from(tensor.into_data().try_to_vec::<f32>().expect("f32")[0])
}

/// The policy loss and approximate KL of the current actor on the batch.
fn policy_loss(actor: &Net, tensors: &Tensors, clip: f64) -> (Tensor<1>, Tensor<1>) {
    let b = tensors.b;
    let scores = actor.forward(tensors.observations.clone()).reshape([b, QUEUE_SLOTS]);
    let masked = scores + (tensors.masks.clone() - 1.0) * MASK_PENALTY;
    let log_all = log_softmax(masked, 1);
    let log_p: Tensor<1> = log_all.gather(1, tensors.actions.clone()).reshape([b]);
    let ratio = (log_p.clone() - tensors.log_probs.clone()).exp();
    let adv = tensors.advantages.clone();
    let positive = adv.clone().greater_elem(0.0).float();
    let min_adv = positive.clone() * adv.clone() * (1.0 + clip) + (positive.neg() + 1.0) * adv.clone() * (1.0 - clip);
    let loss = (ratio * adv).min_pair(min_adv).mean().neg();
    let kl = (tensors.log_probs.clone() - log_p).mean();
    (loss, kl)
}

struct Tensors {
    b: usize,
    observations: Tensor<3>,
    flat: Tensor<2>,
    masks: Tensor<2>,
    actions: Tensor<2, Int>,
    log_probs: Tensor<1>,
    advantages: Tensor<1>,
    returns: Tensor<1>,
}

/// Runs one PPO update on `batch`.
pub fn ppo_update(learner: &mut Learner, batch: &Batch, config: &TrainConfig) -> UpdateStats {
    let b = batch.len();
    let device = &learner.device;
    let tensors = Tensors {
        b,
        observations: Tensor::<3>::from_data(
            TensorData::new(batch.observations.clone(), [b, QUEUE_SLOTS, JOB_FEATURES]),
            device,
        ),
        flat: Tensor::<3>::from_data(
            TensorData::new(batch.observations.clone(), [b, QUEUE_SLOTS, JOB_FEATURES]),
            device,
        )
        .reshape([b, OBSERVATION]),
        masks: Tensor::<2>::from_data(TensorData::new(batch.masks.clone(), [b, QUEUE_SLOTS]), device),
        actions: Tensor::<2, Int>::from_data(TensorData::new(batch.actions.clone(), [b, 1]), device),
        log_probs: Tensor::<1>::from_data(TensorData::new(batch.log_probs.clone(), [b]), device),
        advantages: Tensor::<1>::from_data(TensorData::new(batch.advantages.clone(), [b]), device),
        returns: Tensor::<1>::from_data(TensorData::new(batch.returns.clone(), [b]), device),
    };
    let mut actor = learner.actor.take().expect("actor present");
    let mut pi_steps = 0;
    for _ in 0..config.pi_iters {
        let (loss, kl) = policy_loss(&actor, &tensors, config.clip_ratio);
        let kl = scalar(kl.detach());
        let grads = GradientsParams::from_grads(loss.backward(), &actor);
        actor = learner.actor_optim.step(config.pi_lr, actor, grads);
        pi_steps += 1;
        if kl > 1.5 * config.target_kl {
            break;
        }
    }
    let (_, kl) = policy_loss(&actor, &tensors, config.clip_ratio);
    let kl = scalar(kl.detach());
    learner.actor = Some(actor);

    let mut critic = learner.critic.take().expect("critic present");
    let value_loss = |critic: &Net| {
        let values: Tensor<1> = critic.forward(tensors.flat.clone()).reshape([b]);
        (tensors.returns.clone() - values).powf_scalar(2.0).mean()
    };
    let loss_v = scalar(value_loss(&critic).detach());
    for _ in 0..config.v_iters {
        let loss = value_loss(&critic);
        let grads = GradientsParams::from_grads(loss.backward(), &critic);
        critic = learner.critic_optim.step(config.vf_lr, critic, grads);
    }
    learner.critic = Some(critic);
    UpdateStats { pi_steps, kl, loss_v }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_policies_rltune::network::{ACTOR_LAYERS, CRITIC_LAYERS};

    /// An MLP whose output is `theta * x[input]` for non-negative inputs: the first hidden unit
    /// of every layer carries `x[input]` through the ReLUs; `theta` is the last layer's first weight.
    fn chain(widths: &[usize], input: usize, theta: f32) -> Mlp {
        let mut mlp = Mlp::zeros(widths);
        let last = mlp.layers.len() - 1;
        for (index, layer) in mlp.layers.iter_mut().enumerate() {
            let row = if index == 0 { input } else { 0 };
            layer.w[row * layer.outputs] = if index == last { theta } else { 1.0 };
        }
        mlp
    }

    #[test]
    fn one_ppo_step_on_a_tiny_batch_matches_the_hand_computed_gradient_and_adam_step() {
        // Actor score = theta * feature 0 of the slot; critic value = phi * observation[0]
        // (feature 0 of slot 0); theta = phi = 0.
        let agent = Agent { actor: chain(&ACTOR_LAYERS, 0, 0.0), critic: chain(&CRITIC_LAYERS, 0, 0.0) };
        let mut learner = Learner::new(&agent);
        // Two decisions over two occupied slots. Feature 0: [1, 0] then [0.5, 0]. The first takes
        // slot 0 with advantage +1 and return 1; the second slot 1 with advantage -1 and return 0.
        let mut observations = vec![0.0f32; 2 * OBSERVATION];
        observations[0] = 1.0;
        observations[OBSERVATION] = 0.5;
        let mut masks = vec![0.0f32; 2 * QUEUE_SLOTS];
        masks[..2].copy_from_slice(&[1.0, 1.0]);
        masks[QUEUE_SLOTS..QUEUE_SLOTS + 2].copy_from_slice(&[1.0, 1.0]);
        let uniform = 0.5f32.ln();
        let batch = Batch {
            observations,
            masks,
            actions: vec![0, 1],
            log_probs: vec![uniform, uniform],
            advantages: vec![1.0, -1.0],
            returns: vec![1.0, 0.0],
        };
        let config = TrainConfig { pi_iters: 1, v_iters: 1, ..TrainConfig::default() };
        let stats = ppo_update(&mut learner, &batch, &config);
        // By hand. At theta = 0 the policy is uniform over the two slots, the ratio is 1 (inside
        // the clip range), and d log p / d theta = x_a - mean(x): 1 - 0.5 = 0.5 for the first
        // decision, 0 - 0.25 = -0.25 for the second. The loss -mean(ratio * A) has gradient
        // -(0.5 * 1 + (-0.25) * (-1)) / 2 = -0.375.
        // The value loss mean((R - phi x)^2) is (1 + 0) / 2 = 0.5 with gradient
        // mean(-2 (R - v) x) = (-2 * 1 * 1 - 2 * 0 * 0.5) / 2 = -1.
        // Adam's first step (bias-corrected m = g, v = g^2) moves by -lr * g / (|g| + 1e-8).
        let step = |lr: f64, g: f64| -lr * g / (g.abs() + 1e-8);
        let trained = learner.export();
        let theta = f64::from(trained.actor.layers[3].w[0]);
        let phi = f64::from(trained.critic.layers[3].w[0]);
        assert!((theta - step(3e-4, -0.375)).abs() < 1e-9, "theta {theta}");
        assert!((phi - step(1e-3, -1.0)).abs() < 1e-9, "phi {phi}");
        assert_eq!(stats.pi_steps, 1);
        assert!((stats.loss_v - 0.5).abs() < 1e-7, "loss_v {}", stats.loss_v);
        // The KL after the step: mean(log p_old - log p_new) with theta' = 3e-4, worked out.
        let log_p = |x: [f64; 2], a: usize| theta * x[a] - ((theta * x[0]).exp() + (theta * x[1]).exp()).ln();
        let kl = ((0.5f64.ln() - log_p([1.0, 0.0], 0)) + (0.5f64.ln() - log_p([0.5, 0.0], 1))) / 2.0;
        assert!((stats.kl - kl).abs() < 1e-6, "kl {} vs {kl}", stats.kl);
    }
}
