//! The trainer: a supervised step reduces the loss, the policy gradient is the one DL2's graph
//! computes, and two trainings from one seed give identical weights.

use burn::optim::{AdamConfig, GradientsParams, SgdConfig};
use burn::tensor::activation::softmax;
use burn::tensor::{Device, Tensor, TensorData};
use rand::SeedableRng;
use schedlab_dl2_train::imitator::imitate_drf;
use schedlab_dl2_train::nets::{
    Entropy, PolicyNet, fold_scale, input_scale, policy_logit_gradient, scale_states, unfold_scale,
};
use schedlab_dl2_train::{Reward, SlLabels, Teacher, Traces, TrainConfig, cluster, train, validate_heuristic};
use schedlab_policies_dl2::heuristics::Heuristic;
use schedlab_policies_dl2::observation::{ACTIONS, INPUTS};
use std::path::Path;
use std::sync::Arc;

fn states(rows: usize) -> Vec<f32> {
    (0..rows * INPUTS).map(|i| ((i * 7919) % 13) as f32 / 4.0).collect()
}

#[test]
fn a_supervised_step_reduces_the_loss() {
    let device = Device::flex().autodiff();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let net = PolicyNet::new(&mut rng, &device);
    let b = 8;
    let mut labels = vec![0.0f32; b * ACTIONS];
    for row in 0..b {
        labels[row * ACTIONS + (row * 5) % ACTIONS] = 1.0;
    }
    let x = || Tensor::<2>::from_data(TensorData::new(states(b), [b, INPUTS]), &device);
    let y = || Tensor::<2>::from_data(TensorData::new(labels.clone(), [b, ACTIONS]), &device);
    let scalar = |t: Tensor<1>| t.detach().into_data().try_to_vec::<f32>().unwrap()[0];
    let before = net.cross_entropy(x(), y());
    let loss_before = scalar(before.clone());
    let grads = GradientsParams::from_grads(before.backward(), &net);
    let mut adam = AdamConfig::new().with_epsilon(1e-8).init();
    let net = adam.step(0.005, net, grads);
    let loss_after = scalar(net.cross_entropy(x(), y()));
    assert!(loss_after < loss_before, "{loss_after} >= {loss_before}");
}

#[test]
fn the_surrogate_gives_dl2s_policy_gradient() {
    // When the fed output is the network's own (unmasked) softmax, DL2's gradient is the
    // ordinary gradient of mean(-A log p_a) + w mean(p log(p + 1e-6)); one SGD step by either
    // route must land on the same weights.
    let device = Device::flex().autodiff();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let net = PolicyNet::new(&mut rng, &device);
    let b = 4;
    let (actions, advantages, w) = ([3usize, 0, 120, 7], [0.5f64, -1.0, 2.0, 0.25], 0.1);
    let x = || Tensor::<2>::from_data(TensorData::new(states(b), [b, INPUTS]), &device);
    let probabilities: Vec<f32> = net.probabilities(x()).detach().into_data().try_to_vec::<f32>().unwrap();
    // Route 1: the true loss by autodiff.
    let p = softmax(net.logits(x()), 1);
    let mut weights = vec![0.0f32; b * ACTIONS];
    for row in 0..b {
        weights[row * ACTIONS + actions[row]] = advantages[row] as f32;
    }
    let chosen = Tensor::<2>::from_data(TensorData::new(weights, [b, ACTIONS]), &device);
    let pg = (p.clone().log() * chosen).sum().neg() / b as f32;
    let entropy = (p.clone() * (p + 1e-6).log()).mean() * w as f32;
    let loss = pg + entropy;
    let mut sgd = SgdConfig::new().init();
    let direct = sgd.step(0.5, net.clone(), GradientsParams::from_grads(loss.backward(), &net));
    // Route 2: the surrogate.
    let mut gradient = Vec::new();
    for row in 0..b {
        let q = &probabilities[row * ACTIONS..(row + 1) * ACTIONS];
        gradient.extend(policy_logit_gradient(q, actions[row], advantages[row], w, Entropy::MeanOverActions, b));
    }
    let gradient = Tensor::<2>::from_data(TensorData::new(gradient, [b, ACTIONS]), &device);
    let surrogate = (net.logits(x()) * gradient).sum();
    let mut sgd = SgdConfig::new().init();
    let via = sgd.step(0.5, net.clone(), GradientsParams::from_grads(surrogate.backward(), &net));
    let (a, c) = (direct.export(), via.export());
    let pairs = a.output.bias.iter().zip(&c.output.bias).chain(a.dense1.weight[0].iter().zip(&c.dense1.weight[0]));
    let start = net.export();
    let mut moved = 0.0f32;
    for ((x, y), s) in pairs.zip(start.output.bias.iter().chain(&start.dense1.weight[0])) {
        assert!((x - y).abs() <= 1e-6 + 1e-3 * (x - s).abs(), "{x} vs {y}");
        moved = moved.max((x - s).abs());
    }
    assert!(moved > 1e-4, "the step moved the weights ({moved})");
}

/// DL2's speed table from the data directory (the test fails naming it when it is absent).
fn speeds() -> (std::path::PathBuf, Arc<schedlab_dl2_speed::Dl2Speed>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = schedlab_core::datadir::test_data_file(&root, "dl2/config_speed.txt");
    let speeds = Arc::new(schedlab_dl2_speed::Dl2Speed::load(&path).unwrap());
    (path, speeds)
}

/// A training of `steps` updates per phase on a small cluster and short traces.
fn tiny(steps: usize, validation_traces: usize) -> TrainConfig {
    TrainConfig {
        sl_steps: steps,
        rl_steps: steps,
        train_traces: 2,
        validation_traces,
        validation_interval: 2,
        jobs: 30,
        max_arrivals_per_slot: 3,
        nodes: 12,
        memory: 128,
        batch: 16,
        ..TrainConfig::default()
    }
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn two_trainings_from_one_seed_give_identical_weights() {
    let (path, speeds) = speeds();
    let config = tiny(4, 2);
    let first = train(&config, Arc::clone(&speeds), &|_, _| {}).unwrap();
    let second = train(&config, speeds, &|_, _| {}).unwrap();
    assert_eq!(serde_json::to_string(&first.network).unwrap(), serde_json::to_string(&second.network).unwrap());
    assert!(first.curve.iter().any(|point| point.phase == "rl" && point.step == 4), "{:?}", first.curve);
    let other = TrainConfig { seed: 1, ..config };
    assert_ne!(
        first.network,
        train(&other, Arc::new(schedlab_dl2_speed::Dl2Speed::load(&path).unwrap()), &|_, _| {}).unwrap().network
    );
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn the_rl_curve_counts_decisions_replaced_by_the_rules_and_skips() {
    let (_, speeds) = speeds();
    let config = tiny(2, 1);
    let counts = |config: &TrainConfig| {
        let trained = train(config, Arc::clone(&speeds), &|_, _| {}).unwrap();
        let point = trained.curve.iter().find(|point| point.phase == "rl").expect("an RL point").clone();
        assert!(trained.curve.iter().all(|point| (point.phase == "rl") == point.actions.is_some()));
        (point.actions.unwrap(), trained.network)
    };
    let (with_rules, network) = counts(&config);
    assert!(with_rules.decisions > 0 && with_rules.replaced > 0, "{with_rules:?}");
    assert!(with_rules.skips <= with_rules.decisions && with_rules.sampled_skips <= with_rules.decisions);
    let (without, _) = counts(&TrainConfig { inject: false, ..config.clone() });
    assert_eq!(without.replaced, 0, "no rules, nothing replaced: {without:?}");
    assert_eq!(without.skips, without.sampled_skips, "without rules every sampled skip is taken");
    // Epsilon-greedy draws from the same stream, so it changes what is learned.
    let (_, epsilon) = counts(&TrainConfig { epsilon_temperature: Some(500.0), ..config });
    assert_ne!(network, epsilon);
}

#[test]
fn folding_the_input_scale_gives_the_scaled_networks_outputs_on_raw_states() {
    let device = Device::flex().autodiff();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let net = PolicyNet::new(&mut rng, &device);
    let scale = input_scale(true);
    assert!(scale.iter().all(|factor| factor.log2().fract() == 0.0), "powers of two: folding is exact");
    assert_eq!(input_scale(false), vec![1.0; INPUTS]);
    let raw = states(3);
    let mut scaled = raw.clone();
    scale_states(&mut scaled, &scale);
    let on_scaled: Vec<f32> = net
        .probabilities(Tensor::<2>::from_data(TensorData::new(scaled, [3, INPUTS]), &device))
        .into_data()
        .try_to_vec::<f32>()
        .unwrap();
    let folded = fold_scale(net.export(), &scale);
    for row in 0..3 {
        let p = folded.probabilities(&raw[row * INPUTS..(row + 1) * INPUTS]);
        for (a, b) in p.iter().zip(&on_scaled[row * ACTIONS..(row + 1) * ACTIONS]) {
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
    }
    assert_eq!(unfold_scale(folded, &scale), net.export(), "unfolding restores the weights exactly");
}

#[test]
fn the_supervised_loss_without_skip_leaves_skips_logit_alone() {
    let device = Device::flex().autodiff();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let net = PolicyNet::new(&mut rng, &device);
    let b = 4;
    let mut labels = vec![0.0f32; b * ACTIONS];
    for row in 0..b {
        labels[row * ACTIONS + row * 3] = 1.0;
    }
    let x = || Tensor::<2>::from_data(TensorData::new(states(b), [b, INPUTS]), &device);
    let y = || Tensor::<2>::from_data(TensorData::new(labels.clone(), [b, ACTIONS]), &device);
    let step = |loss: Tensor<1>| {
        let mut sgd = SgdConfig::new().init();
        sgd.step(1.0, net.clone(), GradientsParams::from_grads(loss.backward(), &net)).export()
    };
    let start = net.export().output.bias[ACTIONS - 1];
    let masked = step(net.cross_entropy_without_skip(x(), y()));
    let full = step(net.cross_entropy(x(), y()));
    assert_eq!(masked.output.bias[ACTIONS - 1], start, "skip's bias gets no gradient");
    assert!(full.output.bias[ACTIONS - 1] < start, "with skip in the softmax, a label elsewhere pushes it down");
    assert_ne!(masked.output.bias[0], start, "the labelled actions learn");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn every_training_option_is_reproducible_and_changes_what_is_learned() {
    let (_, speeds) = speeds();
    let base = tiny(3, 1);
    let options = TrainConfig {
        normalise_inputs: true,
        teacher: Teacher::SlotGreedy,
        sl_mask_skip: true,
        skip_prior: Some(0.05),
        reward: Reward::Marginal,
        entropy: Entropy::PerSample,
        critic_warmup: 2,
        updates_per_slot: 2,
        ..base.clone()
    };
    let run = |config: &TrainConfig| train(config, Arc::clone(&speeds), &|_, _| {}).unwrap();
    let first = run(&options);
    assert_eq!(serde_json::to_string(&first.network).unwrap(), serde_json::to_string(&run(&options).network).unwrap());
    let plain = run(&base).network;
    assert_ne!(first.network, plain);
    for changed in [
        TrainConfig { normalise_inputs: true, ..base.clone() },
        TrainConfig { sl_mask_skip: true, ..base.clone() },
        TrainConfig { skip_prior: Some(0.05), ..base.clone() },
        TrainConfig { reward: Reward::Job, ..base.clone() },
        TrainConfig { reward: Reward::Marginal, ..base.clone() },
        TrainConfig { reward: Reward::MarginalToGo, ..base.clone() },
        TrainConfig { entropy: Entropy::PerSample, ..base.clone() },
        TrainConfig { critic_warmup: 2, ..base.clone() },
        TrainConfig { updates_per_slot: 2, ..base.clone() },
        TrainConfig { teacher: Teacher::SlotGreedy, ..base.clone() },
        TrainConfig { sl_shuffle: false, ..base.clone() },
        TrainConfig { sl_memory: Some(64), ..base.clone() },
        TrainConfig { sl_learning_rate_end: Some(1e-4), ..base.clone() },
        TrainConfig { sl_labels: SlLabels::Bundles, ..base.clone() },
    ] {
        assert_ne!(run(&changed).network, plain, "{changed:?} changed nothing");
    }
    // Diagnostics at every point: validation everywhere, accuracy in SL, the rest in RL.
    for point in &first.curve {
        let validation = point.validation.expect("validated");
        assert!(validation.tasks_per_slot > 0.0 && validation.ratio_to_drf > 0.0, "{point:?}");
        let agreement = validation.drf_agreement.expect("agreement with DRF on held-out states");
        assert!((0.0..=1.0).contains(&agreement), "{point:?}");
        if point.step > 0 {
            let updates = point.updates.expect("update stats");
            assert_eq!(point.phase == "sl", updates.accuracy.is_some(), "{point:?}");
            assert_eq!(point.phase == "rl", updates.kl.is_some() && updates.entropy.is_some(), "{point:?}");
        }
    }
    assert!(first.wall_seconds > 0.0);
    assert_eq!(first.baseline_tasks_per_slot.len(), first.baselines.len());
}

#[test]
fn the_skip_prior_sets_skips_mean_probability() {
    let device = Device::flex().autodiff();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let network = PolicyNet::new(&mut rng, &device).export();
    let raw = states(16);
    let rows: Vec<&[f32]> = raw.chunks(INPUTS).collect();
    let set = schedlab_dl2_train::set_skip_prior(network, &rows, 0.05);
    let mean: f64 = rows.iter().map(|row| f64::from(set.probabilities(row)[ACTIONS - 1])).sum::<f64>() / 16.0;
    assert!((mean - 0.05).abs() < 1e-3, "{mean}");
}

#[test]
fn a_temperature_keeps_each_states_ranking_of_actions_and_raises_its_entropy() {
    let device = Device::flex().autodiff();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let network = PolicyNet::new(&mut rng, &device).export();
    let raw = states(8);
    let entropy =
        |p: &[f32]| -> f64 { p.iter().filter(|p| **p > 0.0).map(|p| -f64::from(*p) * f64::from(*p).ln()).sum() };
    let same = schedlab_dl2_train::soften(network.clone(), 1.0);
    let soft = schedlab_dl2_train::soften(network.clone(), 4.0);
    for row in raw.chunks(INPUTS) {
        let (p, q) = (network.probabilities(row), soft.probabilities(row));
        assert_eq!(same.probabilities(row), p, "temperature 1 leaves the network as it is");
        // The same order of actions, but for ties to f32 rounding (the weights are scaled in f32).
        for a in 0..ACTIONS {
            for b in 0..ACTIONS {
                if p[a] > p[b] * 1.001 {
                    assert!(q[a] > q[b], "actions {a} and {b}: {} > {} but {} <= {}", p[a], p[b], q[a], q[b]);
                }
            }
        }
        assert!(entropy(&q) > entropy(&p), "{} <= {}", entropy(&q), entropy(&p));
    }
}

#[test]
fn the_anchor_gradient_is_the_kl_divergences_derivative_in_the_logits() {
    // KL(a || softmax(z)) by central differences in each logit, against softmax(z) - a.
    let logits = [0.3f64, -1.2, 2.0, 0.0, 0.7];
    let anchor = [0.1f64, 0.05, 0.6, 0.2, 0.05];
    let softmax = |z: &[f64]| -> Vec<f64> {
        let max = z.iter().cloned().fold(f64::MIN, f64::max);
        let e: Vec<f64> = z.iter().map(|x| (x - max).exp()).collect();
        let sum: f64 = e.iter().sum();
        e.iter().map(|x| x / sum).collect()
    };
    let kl = |z: &[f64]| -> f64 { anchor.iter().zip(softmax(z)).map(|(a, p)| a * (a / p).ln()).sum() };
    let policy: Vec<f32> = softmax(&logits).iter().map(|&p| p as f32).collect();
    let held: Vec<f32> = anchor.iter().map(|&a| a as f32).collect();
    let mut gradient = vec![0.5f32; 5];
    schedlab_dl2_train::nets::add_anchor_gradient(&mut gradient, &policy, &held, 2.0);
    for j in 0..5 {
        let (mut up, mut down) = (logits, logits);
        up[j] += 1e-6;
        down[j] -= 1e-6;
        let numeric = (kl(&up) - kl(&down)) / 2e-6;
        assert!(
            (f64::from(gradient[j]) - (0.5 + 2.0 * numeric)).abs() < 1e-5,
            "logit {j}: {} vs {numeric}",
            gradient[j]
        );
    }
}

#[test]
fn the_reverse_anchor_gradient_is_the_reverse_kl_divergences_derivative_in_the_logits() {
    // KL(softmax(z) || a) by central differences in each logit, for two rows, one with an action
    // the anchor gives no mass.
    let rows = [
        ([0.3f64, -1.2, 2.0, 0.0, 0.7], [0.1f64, 0.05, 0.6, 0.2, 0.05]),
        ([1.0, 0.2, -0.5, 0.4, -2.0], [0.5, 0.3, 0.0, 0.1, 0.1]),
    ];
    let softmax = |z: &[f64]| -> Vec<f64> {
        let max = z.iter().cloned().fold(f64::MIN, f64::max);
        let e: Vec<f64> = z.iter().map(|x| (x - max).exp()).collect();
        let sum: f64 = e.iter().sum();
        e.iter().map(|x| x / sum).collect()
    };
    let mut policy = Vec::new();
    let mut held = Vec::new();
    for (logits, anchor) in &rows {
        policy.extend(softmax(logits).iter().map(|&p| p as f32));
        held.extend(anchor.iter().map(|&a| a as f32));
    }
    let mut gradient = vec![0.5f32; 10];
    schedlab_dl2_train::nets::add_reverse_anchor_gradient(&mut gradient, &policy, &held, 2.0, 5);
    for (r, (logits, anchor)) in rows.iter().enumerate() {
        let kl = |z: &[f64]| -> f64 {
            softmax(z).iter().zip(anchor).map(|(p, a)| p * (p.ln() - (a.max(1e-30f32 as f64)).ln())).sum()
        };
        for j in 0..5 {
            let (mut up, mut down) = (*logits, *logits);
            up[j] += 1e-6;
            down[j] -= 1e-6;
            let numeric = (kl(&up) - kl(&down)) / 2e-6;
            let analytic = f64::from(gradient[5 * r + j]);
            assert!(
                (analytic - (0.5 + 2.0 * numeric)).abs() < 1e-4 * (1.0 + numeric.abs()),
                "row {r} logit {j}: {analytic} vs {numeric}"
            );
        }
    }
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn skip_prior_on_own_states_meets_the_prior_on_the_states_the_network_meets() {
    let (_, speeds) = speeds();
    let config = TrainConfig { sl_mask_skip: true, normalise_inputs: true, train_traces: 3, ..tiny(20, 1) };
    let traces = schedlab_dl2_train::Traces::new(&config).unwrap();
    let cluster = schedlab_dl2_train::cluster(config.nodes);
    // The built-in weights, whose skip probability on these states is far from 0.05.
    let weights = Path::new(env!("CARGO_MANIFEST_DIR")).join("../policies/dl2/weights/dl2.json");
    let network =
        schedlab_policies_dl2::network::PolicyNetwork::from_json(&std::fs::read_to_string(weights).unwrap()).unwrap();
    let own = &traces.train[..3];
    let (shifted, means) =
        schedlab_dl2_train::set_skip_prior_on_own_states(network, own, &cluster, &speeds, 0, 0.05).unwrap();
    assert_eq!(means.len(), 8);
    // Measured once more with the final bias: the rounds converge on the prior.
    let (_, again) =
        schedlab_dl2_train::set_skip_prior_on_own_states(shifted, own, &cluster, &speeds, 0, 0.05).unwrap();
    assert!((again[0] - 0.05).abs() < 0.01, "rounds {means:?}, then {}", again[0]);
    // The option is part of the settings: with it, training learns something else.
    let run = |config: &TrainConfig| train(config, Arc::clone(&speeds), &|_, _| {}).unwrap();
    let teacher = run(&TrainConfig { skip_prior: Some(0.05), ..config.clone() });
    let own = run(&TrainConfig {
        skip_prior: Some(0.05),
        skip_prior_states: schedlab_dl2_train::SkipPriorStates::Own,
        ..config.clone()
    });
    assert_ne!(teacher.network, own.network);
    assert_eq!(own.skip_prior_means.len(), 8);
    assert!(teacher.skip_prior_means.is_empty());
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn imitating_drfs_labels_exactly_reaches_drf_only_with_bundle_actions() {
    // Three of the default validation traces (200 jobs, 500 nodes).
    let (_, speeds) = speeds();
    let config = TrainConfig { validation_traces: 3, ..TrainConfig::default() };
    let traces = Traces::new(&config).unwrap();
    let cluster = cluster(config.nodes);
    let (drf, drf_tasks) = validate_heuristic(&Heuristic::Drf, &traces, &cluster, &speeds).unwrap();
    let (bundles, bundle_tasks) = imitate_drf(SlLabels::Bundles, &traces, &cluster, &speeds, 0).unwrap();
    let (tasks, task_tasks) = imitate_drf(SlLabels::Tasks, &traces, &cluster, &speeds, 0).unwrap();
    // One bundle action places a worker and a server on one node, as DRF does: the same JCT.
    assert!((bundles / drf - 1.0).abs() < 0.005, "bundle labels: {bundles} against DRF's {drf}");
    assert!(bundle_tasks > 0.95 * drf_tasks, "{bundle_tasks} tasks per slot against DRF's {drf_tasks}");
    // A worker and then a server, each on the least-loaded node, pack the nodes unlike DRF.
    assert!(tasks / drf > 1.04, "task labels: {tasks} against DRF's {drf}");
    assert!(task_tasks < 0.9 * drf_tasks, "{task_tasks} tasks per slot against DRF's {drf_tasks}");
}
