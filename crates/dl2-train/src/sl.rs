//! Supervised warm-up: the network learns the increments DRF makes (`train.py`, `sl_agent`).

use crate::nets::PolicyNet;
use crate::replay::{Sample, Uniform};
use crate::{CurvePoint, Traces, TrainConfig, derive, run_episode, validate};
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Tensor, TensorData};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use schedlab_core::ClusterSpec;
use schedlab_dl2_speed::Dl2Speed;
use schedlab_policies_dl2::heuristics::{Heuristic, Recorder};
use schedlab_policies_dl2::network::PolicyNetwork;
use schedlab_policies_dl2::observation::{ACTIONS, INPUTS, Observation, WINDOW};
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
    steps: usize,
    losses: Vec<f64>,
    rewards: Vec<f64>,
    /// Networks due for validation: at every multiple of the interval and at the last step,
    /// with the mean loss and reward since the previous one.
    due: Vec<(usize, PolicyNetwork, f64, f64)>,
}

impl State {
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
        let states = Tensor::<2>::from_data(TensorData::new(states, [b, INPUTS]), &self.device);
        let labels = Tensor::<2>::from_data(TensorData::new(labels, [b, ACTIONS]), &self.device);
        let net = self.net.take().expect("the network is present");
        let loss = net.cross_entropy(states, labels);
        self.losses.push(f64::from(loss.clone().detach().into_data().try_to_vec::<f32>().expect("f32")[0]));
        let grads = GradientsParams::from_grads(loss.backward(), &net);
        let net = self.optim.step(self.config.sl_learning_rate, net, grads);
        self.steps += 1;
        if self.steps.is_multiple_of(self.config.validation_interval) || self.steps == self.config.sl_steps {
            let (loss, reward) = (crate::mean_and_clear(&mut self.losses), crate::mean_and_clear(&mut self.rewards));
            self.due.push((self.steps, net.export(), loss, reward));
        }
        self.net = Some(net);
    }
}

/// Records DRF's increments with the window shuffled, as `Scheduler._state` does with
/// `JOB_ORDER_SHUFFLE`; learns once per slot when the memory is full.
struct Record(Arc<Mutex<State>>);

impl Recorder for Record {
    fn before(&mut self, slot: &Slot, job: usize, task: Task) {
        let mut state = self.0.lock().expect("not poisoned");
        let mut order: [usize; WINDOW] = std::array::from_fn(|column| column);
        order.shuffle(&mut state.rng);
        let observation = Observation::of(slot).permuted(&order);
        let offset = Task::ALL.iter().position(|known| *known == task).expect("a task");
        // A job beyond the window has an all-zero label (no loss), as in DL2.
        let action = observation.column_of(job).map(|column| 3 * column + offset);
        state.memory.store(Sample { state: observation.state, output: Vec::new(), action, reward: 0.0 });
    }

    fn slot_ended(&mut self, reward: f64) {
        let mut state = self.0.lock().expect("not poisoned");
        state.rewards.push(reward);
        if state.memory.full() && state.steps < state.config.sl_steps {
            state.update();
        }
    }
}

/// Runs the supervised phase; returns the network and the episodes run.
pub(crate) fn train(
    config: &TrainConfig,
    traces: &Traces,
    cluster: &Arc<ClusterSpec>,
    speeds: &Dl2Speed,
    point: &mut dyn FnMut(CurvePoint, &PolicyNetwork),
) -> Result<(PolicyNetwork, usize), String> {
    let device = Device::flex().autodiff();
    let mut rng = ChaCha8Rng::seed_from_u64(derive(config.seed, 5, 0));
    let net = PolicyNet::new(&mut rng, &device);
    let state = Arc::new(Mutex::new(State {
        rng,
        memory: Uniform::new(config.memory),
        net: Some(net),
        optim: AdamConfig::new().with_epsilon(1e-8).init(),
        device,
        config: config.clone(),
        steps: 0,
        losses: Vec::new(),
        rewards: Vec::new(),
        due: Vec::new(),
    }));
    let export =
        |state: &Arc<Mutex<State>>| state.lock().expect("not poisoned").net.as_ref().expect("present").export();
    let initial = Arc::new(export(&state));
    let jct = validate(&initial, traces, cluster, speeds, config.seed)?;
    point(
        CurvePoint {
            phase: "sl".into(),
            step: 0,
            validation_jct_slots: jct,
            loss: f64::NAN,
            reward: f64::NAN,
            actions: None,
        },
        &initial,
    );
    let mut episodes = 0;
    while state.lock().expect("not poisoned").steps < config.sl_steps {
        let jobs = &traces.train[episodes % traces.train.len()];
        let chooser =
            Chooser::Heuristic { heuristic: Heuristic::Drf, recorder: Some(Box::new(Record(Arc::clone(&state)))) };
        let mut policy = Dl2::new("dl2-drf".into(), chooser, SlotConfig::default());
        run_episode(cluster, jobs, speeds, &mut policy, derive(config.seed, 4, episodes as u64))?;
        episodes += 1;
        let due: Vec<_> = state.lock().expect("not poisoned").due.drain(..).collect();
        for (step, network, loss, reward) in due {
            let network = Arc::new(network);
            let jct = validate(&network, traces, cluster, speeds, config.seed)?;
            point(
                CurvePoint { phase: "sl".into(), step, validation_jct_slots: jct, loss, reward, actions: None },
                &network,
            );
        }
    }
    Ok((export(&state), episodes))
}
