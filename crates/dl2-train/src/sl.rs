//! Supervised warm-up: the network learns the increments DRF makes (`train.py`, `sl_agent`).

use crate::nets::{PolicyNet, cross_entropy, fold_scale, input_scale, scale_states};
use crate::replay::{Sample, Uniform};
use crate::{CurvePoint, Teacher, TrainConfig, UpdateStats, Validator, derive, run_episode};
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Tensor, TensorData};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use schedlab_dl2_speed::Dl2Speed;
use schedlab_policies_dl2::heuristics::{Heuristic, Recorder};
use schedlab_policies_dl2::network::PolicyNetwork;
use schedlab_policies_dl2::observation::{ACTIONS, INPUTS, Observation, SKIP, WINDOW, encode};
use schedlab_policies_dl2::slot::{Slot, Task};
use schedlab_policies_dl2::{Chooser, Dl2, SlotConfig};
use std::sync::{Arc, Mutex};

pub(crate) struct State {
    rng: ChaCha8Rng,
    memory: Uniform,
    net: Option<PolicyNet>,
    optim: ModuleOptimizer,
    device: Device,
    config: TrainConfig,
    /// Each input's factor (all 1 unless inputs are normalised).
    scale: Vec<f32>,
    steps: usize,
    losses: Vec<f64>,
    rewards: Vec<f64>,
    /// Labelled samples and how many the network's most probable action matched, since the
    /// last point.
    labelled: (u64, u64),
    /// Samples drawn since the last point.
    drawn: u64,
    /// Networks due for validation: at every multiple of the interval and at the last step,
    /// with the mean loss, reward and accuracy since the previous one.
    due: Vec<(usize, PolicyNetwork, f64, f64, UpdateStats)>,
}

impl State {
    /// The observation of `slot`, its window's columns shuffled unless the configuration says
    /// not to (`JOB_ORDER_SHUFFLE`).
    fn observed(&mut self, slot: &Slot) -> Observation {
        if !self.config.sl_shuffle {
            return Observation::of(slot);
        }
        let mut order: [usize; WINDOW] = std::array::from_fn(|column| column);
        order.shuffle(&mut self.rng);
        Observation::of(slot).permuted(&order)
    }

    fn update(&mut self) {
        let samples = self.memory.sample(self.config.batch, &mut self.rng);
        let b = samples.len();
        let mut states = Vec::with_capacity(b * INPUTS);
        let mut labels = vec![0.0f32; b * ACTIONS];
        for (row, sample) in samples.iter().enumerate() {
            states.extend_from_slice(&sample.state);
            if let Some(action) = sample.action {
                labels[row * ACTIONS + action] = 1.0;
            }
        }
        scale_states(&mut states, &self.scale);
        let actions: Vec<Option<usize>> = samples.iter().map(|sample| sample.action).collect();
        self.drawn += b as u64;
        let states = Tensor::<2>::from_data(TensorData::new(states, [b, INPUTS]), &self.device);
        let labels = Tensor::<2>::from_data(TensorData::new(labels, [b, ACTIONS]), &self.device);
        let net = self.net.take().expect("the network is present");
        // One forward pass serves the accuracy and the loss.
        let logits = net.logits(states);
        let values: Vec<f32> = logits.clone().detach().into_data().try_to_vec::<f32>().expect("f32");
        for (row, action) in actions.iter().enumerate() {
            if let Some(action) = action {
                let row = &values[row * ACTIONS..(row + 1) * ACTIONS];
                let best = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                self.labelled.0 += 1;
                self.labelled.1 += u64::from(row[*action] == best);
            }
        }
        let loss = cross_entropy(logits, labels, self.config.sl_mask_skip);
        self.losses.push(f64::from(loss.clone().detach().into_data().try_to_vec::<f32>().expect("f32")[0]));
        let grads = GradientsParams::from_grads(loss.backward(), &net);
        let rate = sl_rate(&self.config, self.steps);
        let net = self.optim.step(rate, net, grads);
        self.steps += 1;
        if self.steps.is_multiple_of(self.config.validation_interval) || self.steps == self.config.sl_steps {
            let (loss, reward) = (crate::mean_and_clear(&mut self.losses), crate::mean_and_clear(&mut self.rewards));
            let (labelled, matched) = std::mem::take(&mut self.labelled);
            let updates = UpdateStats {
                accuracy: Some(matched as f64 / labelled.max(1) as f64),
                labelled: Some(labelled as f64 / std::mem::take(&mut self.drawn).max(1) as f64),
                ..UpdateStats::default()
            };
            self.due.push((self.steps, fold_scale(net.export(), &self.scale), loss, reward, updates));
        }
        self.net = Some(net);
    }
}

/// Records DRF's increments with the window shuffled, as `Scheduler._state` does with
/// `JOB_ORDER_SHUFFLE` (in arrival order when `sl_shuffle` is off); learns once per slot when
/// the memory is full.
struct Record {
    state: Arc<Mutex<State>>,
    /// Label a bundle as one action ([`crate::SlLabels::Bundles`]).
    bundles: bool,
}

impl Recorder for Record {
    fn before(&mut self, slot: &Slot, job: usize, task: Task) {
        let mut state = self.state.lock().expect("not poisoned");
        let observation = state.observed(slot);
        // A job beyond the window has an all-zero label (no loss), as in DL2.
        let action = observation.column_of(job).map(|column| encode(column, task));
        state.memory.store(Sample { state: observation.state, output: Vec::new(), action, reward: 0.0 });
    }

    fn skipped(&mut self, slot: &Slot) {
        let mut state = self.state.lock().expect("not poisoned");
        let observation = state.observed(slot);
        if !observation.is_empty() {
            state.memory.store(Sample {
                state: observation.state,
                output: Vec::new(),
                action: Some(SKIP),
                reward: 0.0,
            });
        }
    }

    fn bundles(&self) -> bool {
        self.bundles
    }

    fn slot_ended(&mut self, reward: f64) {
        let mut state = self.state.lock().expect("not poisoned");
        state.rewards.push(reward);
        if state.memory.full() && state.steps < state.config.sl_steps {
            state.update();
        }
    }
}

/// Runs the supervised phase; returns the network (the input scale folded in) and the
/// episodes run.
pub(crate) fn train(
    config: &TrainConfig,
    validator: &Validator<'_>,
    speeds: &Arc<Dl2Speed>,
    point: &mut dyn FnMut(CurvePoint, &PolicyNetwork),
) -> Result<(PolicyNetwork, usize), String> {
    let device = Device::flex().autodiff();
    let mut rng = ChaCha8Rng::seed_from_u64(derive(config.seed, 5, 0));
    let net = PolicyNet::new(&mut rng, &device);
    let scale = input_scale(config.normalise_inputs);
    let state = Arc::new(Mutex::new(State {
        rng,
        memory: Uniform::new(config.sl_memory.unwrap_or(config.memory)),
        net: Some(net),
        optim: AdamConfig::new().with_epsilon(1e-8).init(),
        device,
        config: config.clone(),
        scale: scale.clone(),
        steps: 0,
        losses: Vec::new(),
        rewards: Vec::new(),
        labelled: (0, 0),
        drawn: 0,
        due: Vec::new(),
    }));
    let export = |state: &Arc<Mutex<State>>| {
        let state = state.lock().expect("not poisoned");
        fold_scale(state.net.as_ref().expect("present").export(), &state.scale)
    };
    let initial = Arc::new(export(&state));
    let (jct, validation) = validator.run(&initial)?;
    point(
        CurvePoint {
            phase: "sl".into(),
            step: 0,
            validation_jct_slots: jct,
            loss: f64::NAN,
            reward: f64::NAN,
            actions: None,
            validation: Some(validation),
            updates: None,
        },
        &initial,
    );
    let (teacher, name) = match config.teacher {
        Teacher::Drf => (Heuristic::Drf, "dl2-drf"),
        Teacher::SlotGreedy => (Heuristic::SlotReward(Arc::clone(speeds)), "dl2-slot-greedy"),
    };
    let traces = validator.traces;
    let mut episodes = 0;
    while state.lock().expect("not poisoned").steps < config.sl_steps {
        let jobs = &traces.train[episodes % traces.train.len()];
        let chooser = Chooser::Heuristic {
            heuristic: teacher.clone(),
            recorder: Some(Box::new(Record {
                state: Arc::clone(&state),
                bundles: config.sl_labels == crate::SlLabels::Bundles,
            })),
        };
        let mut policy = Dl2::new(name.into(), chooser, SlotConfig::default());
        run_episode(validator.cluster, jobs, validator.speeds, &mut policy, derive(config.seed, 4, episodes as u64))?;
        episodes += 1;
        let due: Vec<_> = state.lock().expect("not poisoned").due.drain(..).collect();
        for (step, network, loss, reward, updates) in due {
            let network = Arc::new(network);
            let (jct, validation) = validator.run(&network)?;
            point(
                CurvePoint {
                    phase: "sl".into(),
                    step,
                    validation_jct_slots: jct,
                    loss,
                    reward,
                    actions: None,
                    validation: Some(validation),
                    updates: Some(updates),
                },
                &network,
            );
        }
    }
    // Softened first, so that skip's prior, set on the teacher's states here or on the network's
    // own after this returns, holds for the network reinforcement learning starts from.
    let mut network = crate::soften(export(&state), config.sl_temperature);
    if let Some(prior) = config.skip_prior
        && config.skip_prior_states == crate::SkipPriorStates::Teacher
    {
        let state = state.lock().expect("not poisoned");
        // The newest 1,024 states of the memory (enough for a mean; 8 passes over them).
        let states: Vec<&[f32]> = state.memory.iter().rev().take(1024).map(|sample| sample.state.as_slice()).collect();
        network = set_skip_prior(network, &states, prior);
    }
    Ok((network, episodes))
}

/// The supervised learning rate of update `step` (from 0): [`TrainConfig::sl_learning_rate`],
/// or, with [`TrainConfig::sl_learning_rate_end`], geometrically from it at the first update to
/// the end rate at the last.
pub(crate) fn sl_rate(config: &TrainConfig, step: usize) -> f64 {
    match config.sl_learning_rate_end {
        Some(end) if config.sl_steps > 1 => {
            let progress = step.min(config.sl_steps - 1) as f64 / (config.sl_steps - 1) as f64;
            config.sl_learning_rate * (end / config.sl_learning_rate).powf(progress)
        }
        _ => config.sl_learning_rate,
    }
}

/// Shifts skip's output bias so that its mean probability over `states` is `prior` (a few
/// Newton steps on the log-odds of the mean, which moves monotonically with the bias).
pub fn set_skip_prior(mut network: PolicyNetwork, states: &[&[f32]], prior: f64) -> PolicyNetwork {
    let logit = |p: f64| (p / (1.0 - p)).ln();
    for _ in 0..8 {
        let mean: f64 = states.iter().map(|state| f64::from(network.probabilities(state)[SKIP])).sum::<f64>()
            / states.len().max(1) as f64;
        let mean = mean.clamp(1e-12, 1.0 - 1e-12);
        network.output.bias[SKIP] += (logit(prior) - logit(mean)) as f32;
    }
    network
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_supervised_rate_falls_geometrically_from_the_first_update_to_the_last() {
        let fixed = TrainConfig { sl_steps: 5, sl_learning_rate: 1e-3, ..TrainConfig::default() };
        assert!((0..5).all(|step| sl_rate(&fixed, step) == 1e-3));
        let falling = TrainConfig { sl_learning_rate_end: Some(1e-5), ..fixed };
        let rates: Vec<f64> = (0..5).map(|step| sl_rate(&falling, step)).collect();
        assert_eq!(rates[0], 1e-3);
        assert!((rates[2] - 1e-4).abs() < 1e-12, "{rates:?}");
        assert!((rates[4] - 1e-5).abs() < 1e-15, "{rates:?}");
        // Each update's rate is the same fraction of the one before.
        for pair in rates.windows(2) {
            assert!((pair[1] / pair[0] - 10f64.powf(-0.5)).abs() < 1e-9, "{rates:?}");
        }
    }
}
