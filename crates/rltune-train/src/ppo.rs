//! The PPO update in burn (Flex backend, autodiff), as `ppo` of `philly_train_v2.py`.

use crate::{Episode, TrainConfig};
use burn::module::{Module, Param};
use burn::nn::Linear;
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::{log_softmax, relu};
use burn::tensor::{Device, Int, Tensor, TensorData};
use schedlab_policies_rltune::network::{Agent, Dense, JOB_FEATURES, MASK_PENALTY, Mlp, OBSERVATION, QUEUE_SLOTS};
use schedlab_policies_rltune::observation::EMPTY_SLOT;

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
#[derive(Default)]
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

    /// Occupied slots, summed over the decisions.
    pub fn occupied_slots(&self) -> usize {
        self.masks.iter().filter(|&&m| m > 0.0).count()
    }

    /// Builds the batch as `PPOBuffer` does: the episode's reward enters as the last value
    /// (`finish_path(r)`), rewards before it are 0; advantages are GAE and normalised over the
    /// batch with the population standard deviation (over the decisions with more than one
    /// choice only, with [`TrainConfig::normalise_multi_choice`]).
    pub fn from_episodes(episodes: &[Episode], agent: &Agent, config: &TrainConfig) -> Batch {
        let (gamma, lambda) = (config.gamma, config.lambda);
        let mut batch = Batch::default();
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
        let counted: Vec<f64> = (0..batch.advantages.len())
            .filter(|&index| !config.normalise_multi_choice || batch.occupied(index) > 1)
            .map(|index| f64::from(batch.advantages[index]))
            .collect();
        let n = counted.len().max(1) as f64;
        let mean = counted.iter().sum::<f64>() / n;
        let var = counted.iter().map(|&a| (a - mean).powi(2)).sum::<f64>() / n;
        // With no decision counted, no advantage has a gradient to scale.
        let std = if counted.is_empty() { 1.0 } else { var.sqrt() };
        for a in &mut batch.advantages {
            *a = ((f64::from(*a) - mean) / std) as f32;
        }
        batch
    }

    /// Occupied slots of decision `index`. The observation fills slots in order, so they are a
    /// prefix of the queue; the padding after them is the authors' constant row.
    fn occupied(&self, index: usize) -> usize {
        let mask = &self.masks[index * QUEUE_SLOTS..(index + 1) * QUEUE_SLOTS];
        let occupied = mask.iter().take_while(|&&m| m > 0.0).count();
        assert!(
            mask[occupied..].iter().all(|&m| m == 0.0),
            "decision {index}: occupied slots are not a prefix of the queue"
        );
        occupied
    }
}

/// The widths decisions are grouped by: a decision with `k` occupied slots is evaluated on the
/// first `w` slots, `w` the smallest width `>= k`. Slots past `w` are padding for every decision
/// of the group: the actor's masked softmax gives them no mass (their `exp` is exactly 0 in
/// `f32`), and their constant padding row enters the critic through one shared product. So the
/// update computes what the whole 128-slot observation gives, at the cost of the occupied slots:
/// on RLTune's Philly setting 80% of the decisions see one waiting job and the mean is 5 to 6,
/// so an epoch of 100 episodes evaluates about 150,000 job rows per step instead of 3.3 million.
const GROUP_WIDTHS: [usize; 12] = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, QUEUE_SLOTS];

/// Job rows per group at most (a group of one width is split into chunks): smaller tensors stay
/// in the allocator's heap and in cache. 16,384 measured fastest of 4,096 to 1,000,000.
const MAX_GROUP_ROWS: usize = 16_384;

/// The decisions of one width, as tensors.
struct Group {
    width: usize,
    len: usize,
    /// `[len, width, JOB_FEATURES]`.
    observations: Tensor<3>,
    /// `[1, (QUEUE_SLOTS - width) * JOB_FEATURES]`: the padding past the width, if any.
    padding: Option<Tensor<2>>,
    masks: Tensor<2>,
    actions: Tensor<2, Int>,
    log_probs: Tensor<1>,
    advantages: Tensor<1>,
    returns: Tensor<1>,
}

/// Splits the batch into groups of [`GROUP_WIDTHS`] of at most [`MAX_GROUP_ROWS`] rows, keeping
/// batch order within each group.
fn groups(batch: &Batch, device: &Device) -> Vec<Group> {
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); GROUP_WIDTHS.len()];
    for index in 0..batch.len() {
        let occupied = batch.occupied(index);
        let group = GROUP_WIDTHS.iter().position(|&width| width >= occupied).expect("at most QUEUE_SLOTS slots");
        members[group].push(index);
    }
    GROUP_WIDTHS
        .iter()
        .zip(members)
        .flat_map(|(&width, members)| {
            let len = (MAX_GROUP_ROWS / width).max(1);
            members.chunks(len).map(|chunk| (width, chunk.to_vec())).collect::<Vec<_>>()
        })
        .map(|(width, members)| {
            let len = members.len();
            let mut observations = Vec::with_capacity(len * width * JOB_FEATURES);
            let mut masks = Vec::with_capacity(len * width);
            for &index in &members {
                let start = index * OBSERVATION;
                observations.extend_from_slice(&batch.observations[start..start + width * JOB_FEATURES]);
                masks.extend_from_slice(&batch.masks[index * QUEUE_SLOTS..index * QUEUE_SLOTS + width]);
            }
            let pick = |values: &[f32]| members.iter().map(|&index| values[index]).collect::<Vec<f32>>();
            let actions: Vec<i64> = members.iter().map(|&index| batch.actions[index]).collect();
            let padding = (width < QUEUE_SLOTS).then(|| {
                let row: Vec<f32> =
                    EMPTY_SLOT.iter().copied().cycle().take((QUEUE_SLOTS - width) * JOB_FEATURES).collect();
                let columns = row.len();
                Tensor::<2>::from_data(TensorData::new(row, [1, columns]), device)
            });
            let observations =
                Tensor::<3>::from_data(TensorData::new(observations, [len, width, JOB_FEATURES]), device);
            Group {
                width,
                len,
                observations,
                padding,
                masks: Tensor::<2>::from_data(TensorData::new(masks, [len, width]), device),
                actions: Tensor::<2, Int>::from_data(TensorData::new(actions, [len, 1]), device),
                log_probs: Tensor::<1>::from_data(TensorData::new(pick(&batch.log_probs), [len]), device),
                advantages: Tensor::<1>::from_data(TensorData::new(pick(&batch.advantages), [len]), device),
                returns: Tensor::<1>::from_data(TensorData::new(pick(&batch.returns), [len]), device),
            }
        })
        .collect()
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

/// What the decisions with one occupied slot add to the summed objective and KL, when they are
/// left out of the actor's forward pass (see [`policy_loss`]).
#[derive(Clone, Copy, Default)]
struct SingleSlotTerms {
    objective: f64,
    kl: f64,
}

/// A decision with one occupied slot has `log p = 0` whatever the actor's weights, so it adds a
/// constant to the objective (`min(A / p_old, clip(A))`, `p_old = 1` when sampled) and to the KL
/// (`log p_old`, 0) and nothing to the gradient. When any group has more slots, those decisions
/// enter as these constants, computed once per update; otherwise (`None`) the actor runs on them.
fn single_slot_terms(groups: &[Group], clip: f64) -> Option<SingleSlotTerms> {
    if !groups.iter().any(|group| group.width > 1) {
        return None;
    }
    let mut terms = SingleSlotTerms::default();
    for group in groups.iter().filter(|group| group.width == 1) {
        let advantages = group.advantages.clone().into_data().try_to_vec::<f32>().expect("f32");
        let old = group.log_probs.clone().into_data().try_to_vec::<f32>().expect("f32");
        for (&advantage, &old) in advantages.iter().zip(&old) {
            let (advantage, ratio) = (f64::from(advantage), (-f64::from(old)).exp());
            let clipped = if advantage > 0.0 { (1.0 + clip) * advantage } else { (1.0 - clip) * advantage };
            terms.objective += (ratio * advantage).min(clipped);
            terms.kl += f64::from(old);
        }
    }
    Some(terms)
}

/// The policy loss and approximate KL of the current actor on the batch (means over its `total`
/// decisions); `single` is [`single_slot_terms`] of the same groups and clip.
fn policy_loss(
    actor: &Net,
    groups: &[Group],
    single: Option<SingleSlotTerms>,
    total: usize,
    clip: f64,
) -> (Tensor<1>, Tensor<1>) {
    let mut objective: Option<Tensor<1>> = None;
    let mut kl: Option<Tensor<1>> = None;
    for group in groups {
        if single.is_some() && group.width == 1 {
            continue;
        }
        let scores = actor.forward(group.observations.clone()).reshape([group.len, group.width]);
        let masked = scores + (group.masks.clone() - 1.0) * MASK_PENALTY;
        let log_all = log_softmax(masked, 1);
        let log_p: Tensor<1> = log_all.gather(1, group.actions.clone()).reshape([group.len]);
        let ratio = (log_p.clone() - group.log_probs.clone()).exp();
        let adv = group.advantages.clone();
        let positive = adv.clone().greater_elem(0.0).float();
        let min_adv =
            positive.clone() * adv.clone() * (1.0 + clip) + (positive.neg() + 1.0) * adv.clone() * (1.0 - clip);
        let sum = (ratio * adv).min_pair(min_adv).sum();
        let kl_sum = (group.log_probs.clone() - log_p).sum();
        objective = Some(objective.map_or(sum.clone(), |total| total + sum));
        kl = Some(kl.map_or(kl_sum.clone(), |total| total + kl_sum));
    }
    let total = total as f64;
    let single = single.unwrap_or_default();
    let objective = objective.expect("a non-empty batch").add_scalar(single.objective);
    let kl = kl.expect("a non-empty batch").add_scalar(single.kl);
    (objective.div_scalar(total).neg(), kl.div_scalar(total))
}

/// The critic's values of a group: its first layer sees the group's slots and, through one
/// shared product, the padding past them.
fn values(critic: &Net, group: &Group) -> Tensor<1> {
    let first = &critic.layers[0];
    let weight = first.weight.val();
    let inputs = group.width * JOB_FEATURES;
    let flat: Tensor<2> = group.observations.clone().reshape([group.len, inputs]);
    let mut hidden = flat.matmul(weight.clone().narrow(0, 0, inputs));
    if let Some(padding) = &group.padding {
        hidden = hidden + padding.clone().matmul(weight.narrow(0, inputs, OBSERVATION - inputs));
    }
    if let Some(bias) = &first.bias {
        hidden = hidden + bias.val().unsqueeze::<2>();
    }
    let last = critic.layers.len() - 1;
    let mut x = if last == 0 { hidden } else { relu(hidden) };
    for (index, layer) in critic.layers.iter().enumerate().skip(1) {
        x = layer.forward(x);
        if index < last {
            x = relu(x);
        }
    }
    x.reshape([group.len])
}

/// The value loss: the mean squared error over the batch's `total` decisions.
fn value_loss(critic: &Net, groups: &[Group], total: usize) -> Tensor<1> {
    let mut sum: Option<Tensor<1>> = None;
    for group in groups {
        let squared = (group.returns.clone() - values(critic, group)).powf_scalar(2.0).sum();
        sum = Some(sum.map_or(squared.clone(), |total| total + squared));
    }
    sum.expect("a non-empty batch").div_scalar(total as f64)
}

/// Runs one PPO update on `batch`.
pub fn ppo_update(learner: &mut Learner, batch: &Batch, config: &TrainConfig) -> UpdateStats {
    let total = batch.len();
    let groups = groups(batch, &learner.device);
    let single = single_slot_terms(&groups, config.clip_ratio);
    let mut actor = learner.actor.take().expect("actor present");
    let mut pi_steps = 0;
    for _ in 0..config.pi_iters {
        let (loss, kl) = policy_loss(&actor, &groups, single, total, config.clip_ratio);
        let kl = scalar(kl.detach());
        let grads = GradientsParams::from_grads(loss.backward(), &actor);
        actor = learner.actor_optim.step(config.pi_lr, actor, grads);
        pi_steps += 1;
        if kl > 1.5 * config.target_kl {
            break;
        }
    }
    let (_, kl) = policy_loss(&actor, &groups, single, total, config.clip_ratio);
    let kl = scalar(kl.detach());
    learner.actor = Some(actor);

    let mut critic = learner.critic.take().expect("critic present");
    let loss_v = scalar(value_loss(&critic, &groups, total).detach());
    for _ in 0..config.v_iters {
        let loss = value_loss(&critic, &groups, total);
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

    /// Random Glorot networks and one decision per entry of `counts` (its occupied slots), padded as
    /// `observe` pads them; the old log-probability is the agent's, moved by up to 0.3 when the
    /// decision had a choice (a single job's is 0, as sampled).
    fn random_decisions(seed: u64, counts: &[usize]) -> (Agent, Batch) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let agent =
            Agent { actor: crate::glorot(&ACTOR_LAYERS, &mut rng), critic: crate::glorot(&CRITIC_LAYERS, &mut rng) };
        let mut batch = Batch::default();
        for &occupied in counts {
            let mask: Vec<bool> = (0..QUEUE_SLOTS).map(|slot| slot < occupied).collect();
            let mut observation = Vec::with_capacity(OBSERVATION);
            for &occupied_slot in &mask {
                if occupied_slot {
                    observation.extend((0..JOB_FEATURES).map(|_| rng.random::<f32>()));
                } else {
                    observation.extend_from_slice(&EMPTY_SLOT);
                }
            }
            let action = rng.random_range(0..occupied);
            let log_p = schedlab_policies_rltune::network::log_softmax(&agent.logits(&observation, &mask))[action];
            batch.observations.extend_from_slice(&observation);
            batch.masks.extend(mask.iter().map(|&m| if m { 1.0f32 } else { 0.0 }));
            batch.actions.push(action as i64);
            batch.log_probs.push(log_p as f32 + if occupied > 1 { rng.random_range(-0.3..0.3) } else { 0.0 });
            batch.advantages.push(rng.random_range(-2.0..2.0));
            batch.returns.push(rng.random_range(-1.0..1.0));
        }
        (agent, batch)
    }

    #[test]
    fn grouped_losses_equal_the_whole_observations_losses() {
        // Every occupied count from 1 to 128 (every group width, full and partly full).
        let counts: Vec<usize> = (1..=QUEUE_SLOTS).chain([1, 3, 4, 5, 64, 65]).collect();
        let (agent, batch) = random_decisions(7, &counts);
        // The reference: the whole 128-slot observation through the inference code, in f64.
        let clip = 0.2;
        let (mut objective, mut kl, mut squared) = (0.0, 0.0, 0.0);
        for index in 0..batch.len() {
            let observation = &batch.observations[index * OBSERVATION..(index + 1) * OBSERVATION];
            let mask: Vec<bool> =
                batch.masks[index * QUEUE_SLOTS..(index + 1) * QUEUE_SLOTS].iter().map(|&m| m > 0.0).collect();
            let log_p = schedlab_policies_rltune::network::log_softmax(&agent.logits(observation, &mask))
                [batch.actions[index] as usize];
            let old = f64::from(batch.log_probs[index]);
            let advantage = f64::from(batch.advantages[index]);
            let clipped = if advantage > 0.0 { (1.0 + clip) * advantage } else { (1.0 - clip) * advantage };
            objective += ((log_p - old).exp() * advantage).min(clipped);
            kl += old - log_p;
            squared += (f64::from(batch.returns[index]) - f64::from(agent.value(observation))).powi(2);
        }
        let n = batch.len() as f64;
        let learner = Learner::new(&agent);
        let groups = groups(&batch, &learner.device);
        assert_eq!(groups.iter().map(|group| group.width).collect::<Vec<_>>(), GROUP_WIDTHS.to_vec());
        let actor = learner.actor.as_ref().expect("actor");
        let critic = learner.critic.as_ref().expect("critic");
        let (loss, approx_kl) = policy_loss(actor, &groups, single_slot_terms(&groups, clip), batch.len(), clip);
        let close = |got: f64, want: f64, what: &str| {
            assert!((got - want).abs() <= 1e-5 * want.abs().max(1.0), "{what}: grouped {got}, whole observation {want}")
        };
        close(scalar(loss), -objective / n, "policy loss");
        close(scalar(approx_kl), kl / n, "approximate KL");
        close(scalar(value_loss(critic, &groups, batch.len())), squared / n, "value loss");
    }

    /// The batch's policy loss as the authors compute it: every decision over all 128 slots.
    fn whole_policy_loss(actor: &Net, batch: &Batch, device: &Device, clip: f64) -> Tensor<1> {
        let b = batch.len();
        let tensor1 = |values: &[f32]| Tensor::<1>::from_data(TensorData::new(values.to_vec(), [b]), device);
        let observations =
            Tensor::<3>::from_data(TensorData::new(batch.observations.clone(), [b, QUEUE_SLOTS, JOB_FEATURES]), device);
        let masks = Tensor::<2>::from_data(TensorData::new(batch.masks.clone(), [b, QUEUE_SLOTS]), device);
        let actions = Tensor::<2, Int>::from_data(TensorData::new(batch.actions.clone(), [b, 1]), device);
        let scores = actor.forward(observations).reshape([b, QUEUE_SLOTS]);
        let log_all = log_softmax(scores + (masks - 1.0) * MASK_PENALTY, 1);
        let log_p: Tensor<1> = log_all.gather(1, actions).reshape([b]);
        let adv = tensor1(&batch.advantages);
        let ratio = (log_p - tensor1(&batch.log_probs)).exp();
        let positive = adv.clone().greater_elem(0.0).float();
        let min_adv =
            positive.clone() * adv.clone() * (1.0 + clip) + (positive.neg() + 1.0) * adv.clone() * (1.0 - clip);
        (ratio * adv).min_pair(min_adv).mean().neg()
    }

    /// The gradient of every actor weight and bias, flattened in layer order.
    fn actor_gradient(actor: &Net, loss: Tensor<1>) -> Vec<f32> {
        let grads = GradientsParams::from_grads(loss.backward(), actor);
        let mut flat = Vec::new();
        for layer in &actor.layers {
            let weight: Tensor<2> = grads.get(layer.weight.id).expect("weight gradient");
            flat.extend(weight.into_data().try_to_vec::<f32>().expect("f32"));
            let bias: Tensor<1> = grads.get(layer.bias.as_ref().expect("bias").id).expect("bias gradient");
            flat.extend(bias.into_data().try_to_vec::<f32>().expect("f32"));
        }
        flat
    }

    #[test]
    fn grouped_policy_gradient_equals_the_whole_observations_gradient() {
        // Decisions of every occupied count, one in three with a single job.
        let counts: Vec<usize> =
            (0..3 * QUEUE_SLOTS).map(|index| if index % 3 == 0 { 1 } else { 1 + index / 3 }).collect();
        let (agent, batch) = random_decisions(11, &counts);
        let learner = Learner::new(&agent);
        let actor = learner.actor.as_ref().expect("actor");
        let groups = groups(&batch, &learner.device);
        let (grouped, _) = policy_loss(actor, &groups, single_slot_terms(&groups, 0.2), batch.len(), 0.2);
        let grouped = actor_gradient(actor, grouped);
        let whole = actor_gradient(actor, whole_policy_loss(actor, &batch, &learner.device, 0.2));
        let scale = whole.iter().fold(0.0f32, |max, g| max.max(g.abs()));
        assert!(scale > 1e-3, "a gradient to compare: {scale}");
        for (index, (g, w)) in grouped.iter().zip(&whole).enumerate() {
            assert!((g - w).abs() <= 1e-4 * scale, "parameter {index}: grouped {g}, whole observation {w}");
        }
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
