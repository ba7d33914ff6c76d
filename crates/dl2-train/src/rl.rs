//! Reinforcement learning: actor-critic with prioritised replay (`train.py`, `rl_agent` and
//! `central_agent`, one agent), acting through [`Learner`] with the authors' exploration rules.

use crate::nets::{PolicyNet, ValueNet, fold_scale, input_scale, policy_logit_gradient, scale_states, unfold_scale};
use crate::replay::{Prioritized, Sample};
use crate::{ActionCounts, CurvePoint, Reward, TrainConfig, UpdateStats, Validator, derive, run_episode};
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::activation::softmax;
use burn::tensor::{Device, Tensor, TensorData};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_core::JobId;
use schedlab_dl2_speed::Dl2Speed;
use schedlab_policies_dl2::heuristics::reward_term;
use schedlab_policies_dl2::network::PolicyNetwork;
use schedlab_policies_dl2::observation::{ACTIONS, INPUTS, Observation, SKIP, WINDOW};
use schedlab_policies_dl2::slot::Slot;
use schedlab_policies_dl2::{Chooser, Dl2, Learner, SlotConfig};
use std::sync::{Arc, Mutex};

/// `MIN_ACTION_PROB_FOR_SKIP`: an action the rules may force must have at least this probability.
const MIN_PROBABILITY: f64 = 1e-20;

pub(crate) struct State {
    rng: ChaCha8Rng,
    memory: Prioritized,
    policy: Option<PolicyNet>,
    /// The network reinforcement learning started from, held fixed (input scale folded in, so
    /// it reads raw states), for the anchor's penalty ([`TrainConfig::anchor_weight`]); `None`
    /// without it. Plain weights, not an autodiff module: its passes build no graph.
    anchor: Option<PolicyNetwork>,
    value: Option<ValueNet>,
    policy_optim: ModuleOptimizer,
    value_optim: ModuleOptimizer,
    device: Device,
    config: TrainConfig,
    /// Each input's factor (all 1 unless inputs are normalised); `acting` has it folded in.
    scale: Vec<f32>,
    speeds: Arc<Dl2Speed>,
    acting: PolicyNetwork,
    /// The decision awaiting its outcome (with its job and, for the marginal reward, the job's
    /// reward term before it), and the decisions of this slot kept so far (with their job, or
    /// none for skip, and the change they made to the slot reward).
    pending: Option<(Sample, usize, f64)>,
    slot: Vec<(Sample, Option<JobId>, f64)>,
    /// Worker, server and bundle actions chosen this episode (`action_freq`).
    action_freq: [u64; 3],
    /// `ps_worker_ratio`, drawn per slot from 3 to 7.
    ps_worker_ratio: u32,
    /// Policy updates so far, and critic-only updates before them.
    steps: usize,
    critic_steps: usize,
    losses: Vec<f64>,
    rewards: Vec<f64>,
    entropies: Vec<f64>,
    critic_losses: Vec<f64>,
    kls: Vec<f64>,
    /// The decisions since the last curve point.
    counts: ActionCounts,
    /// Networks due for validation (see the supervised phase's).
    due: Vec<(usize, PolicyNetwork, f64, f64, ActionCounts, UpdateStats)>,
}

impl State {
    fn new_episode(&mut self) {
        self.action_freq = [0; 3];
        self.ps_worker_ratio = self.rng.random_range(3..8);
        self.pending = None;
        self.slot.clear();
    }

    /// The authors' exploration rules (`rl_env.py`, `step`, training mode with
    /// `INJECT_SAMPLES`, `REAL_SPEED_TRACE`, `PS_WORKER`, `JOB_RESR_BALANCE`, `BUNDLE_ACTION`),
    /// reading workers and servers from the state's last two rows.
    fn inject(
        &mut self,
        observation: &Observation,
        mask: &[bool; ACTIONS],
        output: &[f64],
        mut action: usize,
    ) -> usize {
        let workers = |column: usize| observation.state[4 * WINDOW + column] as u64;
        let servers = |column: usize| observation.state[5 * WINDOW + column] as u64;
        let shown: Vec<usize> = (0..WINDOW).filter(|&column| observation.window[column].is_some()).collect();
        let allowed = |index: usize| mask[index] && output[index] > MIN_PROBABILITY;
        // Balance: the job with the fewest tasks gets a bundle or a worker when the most has
        // more than 3 to 5 times as many (Python 2's integer division).
        let (mut most, mut fewest, mut fewest_at) = (0u64, u64::MAX, None);
        for &column in &shown {
            let tasks = workers(column) + servers(column);
            most = most.max(tasks);
            if tasks < fewest {
                fewest = tasks;
                fewest_at = Some(column);
            }
        }
        if let Some(column) = fewest_at
            && fewest > 0
            && most / fewest > self.rng.random_range(3..6)
            && output[3 * column + 2] > MIN_PROBABILITY
            && output[3 * column] > MIN_PROBABILITY
        {
            action = if self.rng.random::<f64>() < 0.5 { 3 * column + 2 } else { 3 * column };
        }
        for &column in &shown {
            let total: u64 = self.action_freq.iter().sum();
            let rarest = *self.action_freq.iter().min().expect("three counts");
            if rarest > 0 && (rarest as f64) / (total as f64) < 0.001 {
                let index = self.action_freq.iter().position(|count| *count == rarest).expect("present");
                if allowed(3 * column + index) {
                    action = 3 * column + index;
                    break;
                }
            }
            let (w, ps) = (workers(column), servers(column));
            if w == 0 || ps == 0 {
                if w == 0 && ps == 0 && allowed(3 * column + 2) && self.rng.random::<f64>() < 0.5 {
                    action = 3 * column + 2;
                }
                if w == 0 && allowed(3 * column) {
                    action = 3 * column;
                }
                // DL2 checks the worker action's probability here (`masked_output[0][3 * i]`).
                if ps == 0 && mask[3 * column + 1] && output[3 * column] > MIN_PROBABILITY {
                    action = 3 * column + 1;
                }
                break;
            } else if ps > w * self.ps_worker_ratio as u64 && self.rng.random::<f64>() < 0.5 {
                if allowed(3 * column + 2) && allowed(3 * column) {
                    action = if self.rng.random::<f64>() < 0.5 { 3 * column + 2 } else { 3 * column };
                    break;
                }
            } else if w as f64 >= ps as f64 * 0.5
                && self.rng.random::<f64>() < 0.5
                && allowed(3 * column + 2)
                && allowed(3 * column + 1)
            {
                action = if self.rng.random::<f64>() < 0.01 { 3 * column + 2 } else { 3 * column + 1 };
                break;
            }
        }
        action
    }

    /// One actor-critic update on a batch from the memory (the critic's alone during its
    /// warm-up).
    fn update(&mut self) {
        let (indices, samples, weights) = self.memory.sample(self.config.batch, &mut self.rng);
        let samples: Vec<Sample> = samples.into_iter().cloned().collect();
        let b = samples.len();
        let mut states = Vec::with_capacity(b * INPUTS);
        for sample in &samples {
            states.extend_from_slice(&sample.state);
        }
        scale_states(&mut states, &self.scale);
        let states = Tensor::<2>::from_data(TensorData::new(states, [b, INPUTS]), &self.device);
        let value = self.value.take().expect("present");
        // One forward pass of each network serves both its uses below.
        let values = value.values(states.clone());
        let predicted: Vec<f32> = values.clone().detach().into_data().try_to_vec::<f32>().expect("f32 values");
        let td: Vec<f64> = samples.iter().zip(&predicted).map(|(s, v)| s.reward - f64::from(*v)).collect();
        self.critic_losses.push(td.iter().map(|td| td * td).sum::<f64>() / b as f64);
        let returns: Vec<f32> = samples.iter().map(|s| s.reward as f32).collect();
        let returns = Tensor::<1>::from_data(TensorData::new(returns, [b]), &self.device);
        let value_loss = (returns - values).powf_scalar(2.0).mean();
        let grads = GradientsParams::from_grads(value_loss.backward(), &value);
        self.value = Some(self.value_optim.step(self.config.rl_learning_rate, value, grads));
        self.memory.update_priorities(&indices, &td);
        if self.critic_steps < self.config.critic_warmup {
            self.critic_steps += 1;
            return;
        }
        let mut gradient = Vec::with_capacity(b * ACTIONS);
        for ((sample, td), weight) in samples.iter().zip(&td).zip(&weights) {
            let action = sample.action.expect("RL samples have actions");
            gradient.extend(policy_logit_gradient(
                &sample.output,
                action,
                td * weight,
                self.config.entropy_weight,
                self.config.entropy,
                b,
            ));
        }
        let loss_sample: f64 = samples
            .iter()
            .zip(&td)
            .zip(&weights)
            .map(|((s, td), w)| -(f64::from(s.output[s.action.expect("action")]).ln()) * td * w)
            .sum::<f64>()
            / b as f64;
        self.losses.push(loss_sample);
        let entropy: f64 = samples
            .iter()
            .map(|s| s.output.iter().filter(|q| **q > 0.0).map(|q| -f64::from(*q) * f64::from(*q).ln()).sum::<f64>())
            .sum::<f64>()
            / b as f64;
        self.entropies.push(entropy);
        let policy = self.policy.take().expect("present");
        let probabilities = |logits: Tensor<2>| -> Vec<f32> {
            softmax(logits.detach(), 1).into_data().try_to_vec::<f32>().expect("f32")
        };
        let logits = policy.logits(states.clone());
        let before = probabilities(logits.clone());
        if let Some(anchor) = &self.anchor {
            // The divergence averaged over the batch: forward, KL(pi_anchor || pi), has the
            // gradient (pi - pi_anchor) / b in each sample's logits.
            let held: Vec<f32> = samples.iter().flat_map(|sample| anchor.probabilities(&sample.state)).collect();
            let weight = self.config.anchor_weight / b as f64;
            match self.config.anchor_divergence {
                crate::nets::AnchorDivergence::Forward => {
                    crate::nets::add_anchor_gradient(&mut gradient, &before, &held, weight)
                }
                crate::nets::AnchorDivergence::Reverse => {
                    crate::nets::add_reverse_anchor_gradient(&mut gradient, &before, &held, weight, ACTIONS)
                }
            }
        }
        let gradient = Tensor::<2>::from_data(TensorData::new(gradient, [b, ACTIONS]), &self.device);
        let surrogate = (logits * gradient).sum();
        let grads = GradientsParams::from_grads(surrogate.backward(), &policy);
        let policy = self.policy_optim.step(self.config.rl_learning_rate, policy, grads);
        let after = probabilities(policy.logits(states));
        let kl: f64 = before
            .iter()
            .zip(&after)
            .filter(|(p, _)| **p > 0.0)
            .map(|(p, q)| f64::from(*p) * (f64::from(*p).ln() - f64::from(q.max(1e-30)).ln()))
            .sum::<f64>()
            / b as f64;
        self.kls.push(kl);
        self.acting = fold_scale(policy.export(), &self.scale);
        self.policy = Some(policy);
        self.steps += 1;
        if self.steps.is_multiple_of(self.config.validation_interval) || self.steps == self.config.rl_steps {
            let (loss, reward) = (crate::mean_and_clear(&mut self.losses), crate::mean_and_clear(&mut self.rewards));
            let counts = std::mem::take(&mut self.counts);
            let updates = UpdateStats {
                accuracy: None,
                labelled: None,
                entropy: Some(crate::mean_and_clear(&mut self.entropies)),
                critic_loss: Some(crate::mean_and_clear(&mut self.critic_losses)),
                kl: Some(crate::mean_and_clear(&mut self.kls)),
            };
            self.due.push((self.steps, self.acting.clone(), loss, reward, counts, updates));
        }
    }

    /// Job `job`'s term of the slot reward as `slot` stands, by the true speeds (only the
    /// marginal rewards need it; 0 otherwise).
    fn term(&self, slot: &Slot, job: usize) -> f64 {
        if !matches!(self.config.reward, Reward::Marginal | Reward::MarginalToGo) {
            return 0.0;
        }
        let entry = &slot.jobs[job];
        reward_term(slot, job, &self.speeds, SlotConfig::default().slot_seconds, entry.ps(), entry.workers())
    }
}

/// The trainer's side of the slot loop.
struct Act(Arc<Mutex<State>>);

impl Learner for Act {
    fn choose(&mut self, slot: &Slot, observation: &Observation, mask: &[bool; ACTIONS]) -> Option<usize> {
        let mut state = self.0.lock().expect("not poisoned");
        let probabilities = state.acting.probabilities(&observation.state);
        let masked: Vec<f64> =
            probabilities.iter().zip(mask).map(|(p, allowed)| if *allowed { f64::from(*p) } else { 0.0 }).collect();
        let total: f64 = masked.iter().sum();
        if total <= 0.0 || !total.is_finite() {
            return None;
        }
        let output: Vec<f64> = masked.iter().map(|p| p / total).collect();
        let u = state.rng.random_range(1..100_000u32) as f64 / 100_000.0;
        let mut cumulative = 0.0;
        let mut action = output.iter().rposition(|p| *p > 0.0).expect("a positive entry");
        for (index, p) in output.iter().enumerate() {
            cumulative += p;
            if cumulative > u {
                action = index;
                break;
            }
        }
        if let Some(temperature) = state.config.epsilon_temperature {
            let epsilon = 2.0 / (1.0 + (state.steps.max(1) as f64 / temperature).exp());
            if state.rng.random::<f64>() < epsilon {
                let valid: Vec<usize> = (0..ACTIONS).filter(|&index| output[index] > MIN_PROBABILITY).collect();
                if !valid.is_empty() {
                    action = valid[state.rng.random_range(0..valid.len())];
                }
            }
        }
        let sampled = action;
        if state.config.inject {
            action = state.inject(observation, mask, &output, action);
        }
        state.counts.decisions += 1;
        state.counts.replaced += u64::from(action != sampled);
        state.counts.sampled_skips += u64::from(sampled == SKIP);
        state.counts.skips += u64::from(action == SKIP);
        let sample = Sample {
            state: observation.state.clone(),
            output: output.iter().map(|p| *p as f32).collect(),
            action: Some(action),
            reward: 0.0,
        };
        if action == SKIP {
            state.slot.push((sample, None, 0.0));
        } else {
            state.action_freq[action % 3] += 1;
            let job = observation.window[action / 3].expect("an allowed action shows a job");
            let before = state.term(slot, job);
            state.pending = Some((sample, job, before));
        }
        Some(action)
    }

    fn placed(&mut self, slot: &Slot, placed: bool) {
        let mut state = self.0.lock().expect("not poisoned");
        if let Some((sample, job, before)) = state.pending.take()
            && placed
        {
            let change = state.term(slot, job) - before;
            state.slot.push((sample, Some(slot.jobs[job].id), change));
        }
    }

    fn slot_ended(&mut self, reward: f64, progress: &[(JobId, f64)]) {
        let mut state = self.0.lock().expect("not poisoned");
        state.rewards.push(reward);
        let decisions: Vec<(Sample, Option<JobId>, f64)> = state.slot.drain(..).collect();
        let mut to_go = 0.0;
        let mut rewards = vec![0.0; decisions.len()];
        for (index, (_, job, change)) in decisions.iter().enumerate().rev() {
            to_go += change;
            rewards[index] = match state.config.reward {
                Reward::Slot => reward,
                Reward::Job => match job {
                    Some(job) => progress.iter().find(|(id, _)| id == job).map_or(0.0, |(_, term)| *term),
                    None if progress.is_empty() => 0.0,
                    None => reward / progress.len() as f64,
                },
                Reward::Marginal => *change,
                Reward::MarginalToGo => to_go,
            };
        }
        for ((mut sample, _, _), reward) in decisions.into_iter().zip(rewards) {
            sample.reward = reward;
            state.memory.store(sample);
        }
        for _ in 0..state.config.updates_per_slot {
            if state.memory.full() && state.steps < state.config.rl_steps {
                state.update();
            }
        }
        state.ps_worker_ratio = state.rng.random_range(3..8);
    }
}

/// Runs the reinforcement-learning phase from `network` (with any input scale folded in);
/// returns the network and the episodes run.
pub(crate) fn train(
    config: &TrainConfig,
    network: PolicyNetwork,
    validator: &Validator<'_>,
    speeds: &Arc<Dl2Speed>,
    point: &mut dyn FnMut(CurvePoint, &PolicyNetwork),
) -> Result<(PolicyNetwork, usize), String> {
    let device = Device::flex().autodiff();
    let mut rng = ChaCha8Rng::seed_from_u64(derive(config.seed, 6, 0));
    let value = ValueNet::new(&mut rng, &device);
    let adam = || AdamConfig::new().with_epsilon(1e-8).init();
    let scale = input_scale(config.normalise_inputs);
    let state = Arc::new(Mutex::new(State {
        rng,
        memory: Prioritized::new(config.memory),
        policy: Some(PolicyNet::from_weights(&unfold_scale(network.clone(), &scale), &device)),
        anchor: (config.anchor_weight > 0.0).then(|| network.clone()),
        value: Some(value),
        policy_optim: adam(),
        value_optim: adam(),
        device,
        config: config.clone(),
        scale,
        speeds: Arc::clone(speeds),
        acting: network,
        pending: None,
        slot: Vec::new(),
        action_freq: [0; 3],
        ps_worker_ratio: 5,
        steps: 0,
        critic_steps: 0,
        losses: Vec::new(),
        rewards: Vec::new(),
        entropies: Vec::new(),
        critic_losses: Vec::new(),
        kls: Vec::new(),
        counts: ActionCounts::default(),
        due: Vec::new(),
    }));
    let traces = validator.traces;
    let mut episodes = 0;
    while state.lock().expect("not poisoned").steps < config.rl_steps {
        state.lock().expect("not poisoned").new_episode();
        let jobs = &traces.train[episodes % traces.train.len()];
        let chooser = Chooser::Learner(Box::new(Act(Arc::clone(&state))));
        let mut policy = Dl2::new("dl2".into(), chooser, SlotConfig::default());
        run_episode(validator.cluster, jobs, validator.speeds, &mut policy, derive(config.seed, 7, episodes as u64))?;
        episodes += 1;
        let due: Vec<_> = state.lock().expect("not poisoned").due.drain(..).collect();
        for (step, network, loss, reward, counts, updates) in due {
            let network = Arc::new(network);
            let (jct, validation) = validator.run(&network)?;
            let point_at = CurvePoint {
                phase: "rl".into(),
                step,
                validation_jct_slots: jct,
                loss,
                reward,
                actions: Some(counts),
                validation: Some(validation),
                updates: Some(updates),
            };
            point(point_at, &network);
        }
    }
    let network = state.lock().expect("not poisoned").acting.clone();
    Ok((network, episodes))
}
