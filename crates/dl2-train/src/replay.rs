//! DL2's experience memories: uniform (`memory.py`, supervised learning) and prioritised by
//! reward (`prioritized_memory.py`, reinforcement learning, a sum tree).

use rand::Rng;
use std::collections::VecDeque;

/// One stored decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The state.
    pub state: Vec<f32>,
    /// The masked, renormalised output it was taken from (RL), or empty (SL).
    pub output: Vec<f32>,
    /// The action (RL) or the label's index, `None` for an all-zero label (SL).
    pub action: Option<usize>,
    /// The slot's reward (RL).
    pub reward: f64,
}

/// A bounded FIFO memory sampled uniformly without replacement (`memory.py`).
pub struct Uniform {
    capacity: usize,
    samples: VecDeque<Sample>,
}

impl Uniform {
    /// An empty memory of `capacity`.
    pub fn new(capacity: usize) -> Uniform {
        Uniform { capacity, samples: VecDeque::with_capacity(capacity) }
    }

    /// Adds a sample, dropping the oldest when full.
    pub fn store(&mut self, sample: Sample) {
        if self.samples.len() == self.capacity {
            self.samples.pop_front();
        }
        self.samples.push_back(sample);
    }

    /// Whether it holds `capacity` samples.
    pub fn full(&self) -> bool {
        self.samples.len() == self.capacity
    }

    /// The samples held, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Sample> {
        self.samples.iter()
    }

    /// `n` distinct samples drawn uniformly (`np.random.choice(maxlen, n, replace=False)`).
    pub fn sample(&self, n: usize, rng: &mut impl Rng) -> Vec<&Sample> {
        rand::seq::index::sample(rng, self.samples.len(), n).into_iter().map(|index| &self.samples[index]).collect()
    }
}

/// The prioritised memory: a sum tree over `capacity` leaves, new samples replacing the
/// oldest; priority `max(1, reward - mean stored reward)` when stored, `min(|td| + 0.01, 4)^0.9`
/// after each use; stratified sampling with importance weights `(p / p_min)^-beta`, `beta`
/// rising from 0.1 by 1e-4 per batch to 1.
pub struct Prioritized {
    capacity: usize,
    tree: Vec<f64>,
    data: Vec<Option<Sample>>,
    pointer: usize,
    full: bool,
    rewards: VecDeque<f64>,
    reward_sum: f64,
    beta: f64,
}

/// `prioritized_memory.py`'s constants.
const EPSILON: f64 = 0.01;
const ALPHA: f64 = 0.9;
const BETA_START: f64 = 0.1;
const BETA_STEP: f64 = 0.0001;
const ABS_ERROR_UPPER: f64 = 4.0;

impl Prioritized {
    /// An empty memory of `capacity`.
    pub fn new(capacity: usize) -> Prioritized {
        Prioritized {
            capacity,
            tree: vec![0.0; 2 * capacity - 1],
            data: vec![None; capacity],
            pointer: 0,
            full: false,
            rewards: VecDeque::with_capacity(capacity),
            reward_sum: 0.0,
            beta: BETA_START,
        }
    }

    /// Whether every leaf holds a sample.
    pub fn full(&self) -> bool {
        self.full
    }

    /// The mean reward of the last `capacity` stored samples.
    pub fn mean_reward(&self) -> f64 {
        self.reward_sum / self.rewards.len().max(1) as f64
    }

    /// Stores a sample with priority `max(1, reward - mean stored reward)` (this one included).
    pub fn store(&mut self, sample: Sample) {
        if self.rewards.len() == self.capacity {
            self.reward_sum -= self.rewards.pop_front().unwrap_or(0.0);
        }
        self.rewards.push_back(sample.reward);
        self.reward_sum += sample.reward;
        let priority = (sample.reward - self.mean_reward()).max(1.0);
        let leaf = self.pointer + self.capacity - 1;
        self.data[self.pointer] = Some(sample);
        self.update(leaf, priority);
        self.pointer += 1;
        if self.pointer >= self.capacity {
            self.pointer = 0;
            self.full = true;
        }
    }

    fn update(&mut self, mut index: usize, priority: f64) {
        let change = priority - self.tree[index];
        self.tree[index] = priority;
        while index != 0 {
            index = (index - 1) / 2;
            self.tree[index] += change;
        }
    }

    fn leaf(&self, mut value: f64) -> usize {
        let mut parent = 0;
        loop {
            let left = 2 * parent + 1;
            if left >= self.tree.len() {
                return parent;
            }
            if value <= self.tree[left] {
                parent = left;
            } else {
                value -= self.tree[left];
                parent = left + 1;
            }
        }
    }

    /// Draws `n` samples, one from each of `n` equal segments of the total priority; returns
    /// their tree indices, the samples and their importance weights.
    pub fn sample(&mut self, n: usize, rng: &mut impl Rng) -> (Vec<usize>, Vec<&Sample>, Vec<f64>) {
        let total = self.tree[0];
        let segment = total / n as f64;
        self.beta = (self.beta + BETA_STEP).min(1.0);
        let leaves = &self.tree[self.capacity - 1..];
        let min_probability = leaves.iter().copied().fold(f64::INFINITY, f64::min) / total;
        let mut indices = Vec::with_capacity(n);
        let mut weights = Vec::with_capacity(n);
        for i in 0..n {
            let (low, high) = (segment * i as f64, segment * (i + 1) as f64);
            let value = if high > low { rng.random_range(low..high) } else { low };
            let index = self.leaf(value);
            let probability = self.tree[index] / total;
            weights.push((probability / min_probability).powf(-self.beta));
            indices.push(index);
        }
        let samples = indices
            .iter()
            .map(|&index| self.data[index + 1 - self.capacity].as_ref().expect("sampled leaves hold samples"))
            .collect();
        (indices, samples, weights)
    }

    /// Sets the priorities of used samples from their absolute TD errors.
    pub fn update_priorities(&mut self, indices: &[usize], errors: &[f64]) {
        for (&index, error) in indices.iter().zip(errors) {
            let priority = (error.abs() + EPSILON).min(ABS_ERROR_UPPER).powf(ALPHA);
            self.update(index, priority);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn sample(reward: f64) -> Sample {
        Sample { state: vec![reward as f32], output: Vec::new(), action: Some(0), reward }
    }

    #[test]
    fn the_sum_tree_keeps_totals_and_samples_by_priority() {
        let mut memory = Prioritized::new(4);
        for reward in [0.0, 0.0, 5.0, 0.0] {
            memory.store(sample(reward));
        }
        assert!(memory.full());
        // Priorities: max(1, r - mean of stored so far): 1, 1, 5 - 5/3, 1 - ... = 1.
        let expected = [1.0, 1.0, 5.0 - 5.0 / 3.0, 1.0];
        assert!((memory.tree[0] - expected.iter().sum::<f64>()).abs() < 1e-12);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        let mut third = 0;
        for _ in 0..1000 {
            let (indices, samples, weights) = memory.sample(2, &mut rng);
            third += samples.iter().filter(|s| s.reward == 5.0).count();
            assert_eq!(indices.len(), 2);
            assert!(weights.iter().all(|w| *w > 0.0 && *w <= 1.0));
        }
        // The high-priority sample is drawn in proportion to its share (3.33 of 6.33).
        assert!((third as f64 / 2000.0 - 3.333 / 6.333).abs() < 0.05, "{third}");
        memory.update_priorities(&[3 + 2], &[10.0]);
        assert!((memory.tree[5] - 4f64.powf(0.9)).abs() < 1e-12);
        memory.store(sample(1.0));
        assert_eq!(memory.data[0].as_ref().unwrap().reward, 1.0, "the oldest is replaced");
    }
}
