//! Pollux's cluster-wide optimisation (`simulator/pollux.py`, `Problem` and `PolluxPolicy.optimize`):
//! NSGA-II as pymoo 0.4.2 runs it, over states that give each job a number of GPUs on each node,
//! with the artifact's crossover, mutation and repair.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use rand_chacha::ChaCha8Rng;
use schedlab_goodput::SpeedupFunction;

mod selection;

use selection::{Individual, survive, tournament};

/// How a job's speedup is known to the optimiser.
#[derive(Clone, Debug)]
pub enum Speedup {
    /// No throughput model yet: linear in GPUs, over the fair share of `fair_replicas` GPUs.
    Linear {
        /// GPUs of a fair share.
        fair_replicas: f64,
    },
    /// The job's fitted goodput model, over its best goodput on the fair share.
    Model(Box<SpeedupFunction>),
}

impl Speedup {
    fn at(&mut self, nodes: u32, replicas: u32) -> f64 {
        match self {
            Speedup::Linear { fair_replicas } => f64::from(replicas) / *fair_replicas,
            Speedup::Model(function) => function.speedup(nodes, replicas),
        }
    }
}

/// One job as the optimiser sees it (`JobInfo`).
#[derive(Clone, Debug)]
pub struct GaJob {
    /// Speedup over the fair share.
    pub speedup: Speedup,
    /// Most GPUs the job may get.
    pub max_replicas: u32,
    /// Seconds since the job arrived.
    pub age: f64,
    /// Restarts so far.
    pub restarts: u32,
}

/// The optimisation problem of one decision: `jobs` x `nodes` GPU counts.
pub struct Problem {
    jobs: Vec<GaJob>,
    node_gpus: Vec<u32>,
    base: Vec<u8>,
    dominant_share: f64,
    restart_factor: Vec<f64>,
    /// Most nodes one job may span (the artifact's repair: 16).
    pub max_nodes_per_job: usize,
    /// [`threshold`] of mutation's raise probability `p1 + p2 - p1 p2` by free nodes, then the
    /// free nodes a job uses (index `free * (nodes + 1) + used`); `used = 0` holds `p1`.
    raise_thresholds: Vec<u64>,
    /// Buffers reused by every evaluation, mutation and repair of the search.
    scratch: Scratch,
}

/// Working buffers of [`Problem`]'s operators, kept between calls so that a search of
/// 10,000 candidates does not allocate for each.
#[derive(Default)]
struct Scratch {
    per_node: Vec<u32>,
    per_node_u8: Vec<u8>,
    left_u8: Vec<u8>,
    flags: Vec<bool>,
    nodes: Vec<usize>,
    per_job: Vec<(u32, f64)>,
}

/// The settings of the search (the artifact's: population 100, 100 generations).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GaSettings {
    /// Individuals kept per generation.
    pub population: usize,
    /// Generations, counting the initial one (pymoo's `("n_gen", 100)`).
    pub generations: usize,
    /// Seconds a restart costs, in the restart penalty.
    pub restart_delay: f64,
    /// Exponent of the power mean of speedups (more negative: fairer).
    pub power: f64,
}

impl Problem {
    /// The problem for `jobs` (in the artifact's order: attained service, then arrival) on nodes
    /// with `node_gpus` GPUs, starting from the current allocation `base` (jobs x nodes).
    ///
    /// # Panics
    /// If a node has more than 255 GPUs: a state holds GPU counts in bytes.
    pub fn new(jobs: Vec<GaJob>, node_gpus: Vec<u32>, base: Vec<u8>, settings: &GaSettings) -> Problem {
        assert!(node_gpus.iter().all(|&gpus| gpus <= u32::from(u8::MAX)), "a node has more than 255 GPUs");
        let total: u32 = node_gpus.iter().sum();
        let dominant_share = 1.0 / f64::from(total);
        let restart_factor = jobs
            .iter()
            .map(|job| {
                let delay = settings.restart_delay;
                (job.age - f64::from(job.restarts) * delay).max(0.0) / (job.age + delay)
            })
            .collect();
        let n_nodes = node_gpus.len();
        let mut raise_thresholds = Vec::with_capacity((n_nodes + 1) * (n_nodes + 1));
        for free in 0..=n_nodes {
            let p1 = 1.0 / free.max(1) as f64;
            raise_thresholds.push(threshold(p1));
            for used in 1..=n_nodes {
                let p2 = 1.0 / used as f64;
                raise_thresholds.push(threshold(p1 + p2 - p1 * p2));
            }
        }
        Problem {
            jobs,
            node_gpus,
            base,
            dominant_share,
            restart_factor,
            max_nodes_per_job: 16,
            raise_thresholds,
            scratch: Scratch::default(),
        }
    }

    /// The jobs, with what their speedup functions learnt during the search.
    pub fn into_jobs(self) -> Vec<GaJob> {
        self.jobs
    }

    fn n_jobs(&self) -> usize {
        self.jobs.len()
    }

    fn n_nodes(&self) -> usize {
        self.node_gpus.len()
    }

    /// Objectives to minimise: minus the power mean of scaled, restart-penalised speedups, and
    /// minus the cluster utility (`Problem._evaluate`).
    ///
    /// Clusters of up to 16 or 32 nodes take [`Problem::evaluate_fixed`].
    fn evaluate(&mut self, x: &[u8], power: f64) -> [f64; 2] {
        match self.n_nodes() {
            1..=16 => self.evaluate_fixed::<16>(x, power),
            17..=32 => self.evaluate_fixed::<32>(x, power),
            _ => self.evaluate_any_width(x, power),
        }
    }

    /// [`Problem::evaluate`] on rows padded with empty nodes to `W` cells: the same sums in the
    /// same order as [`Problem::evaluate_any_width`], so the same bits.
    fn evaluate_fixed<const W: usize>(&mut self, x: &[u8], power: f64) -> [f64; 2] {
        let (n_jobs, n_nodes) = (self.n_jobs(), self.n_nodes());
        debug_assert!(n_nodes <= W);
        let mut sum = 0.0;
        let mut utility = 0.0;
        let mut active = [0u8; W];
        let mut scratch = std::mem::take(&mut self.scratch);
        let per_job = &mut scratch.per_job;
        per_job.clear();
        for (j, (cells, base)) in x.chunks_exact(n_nodes).zip(self.base.chunks_exact(n_nodes)).enumerate() {
            let mut row = [0u8; W];
            row[..n_nodes].copy_from_slice(cells);
            let on = row.map(|gpus| u8::from(gpus > 0));
            let nodes: u32 = on.iter().map(|&on| u32::from(on)).sum();
            let replicas: u32 = row.iter().map(|&gpus| u32::from(gpus)).sum();
            for (active, &on) in active.iter_mut().zip(&on) {
                *active |= on;
            }
            let speedup = self.jobs[j].speedup.at(nodes, replicas);
            per_job.push((replicas, speedup));
            let mut scaled = speedup * self.dominant_share * n_nodes as f64;
            if cells != base {
                scaled *= self.restart_factor[j];
            }
            sum += if power == -1.0 { 1.0 / (scaled + 1e-3) } else { (scaled + 1e-3).powf(power) };
        }
        let mean = if power == -1.0 { n_jobs as f64 / sum } else { (sum / n_jobs as f64).powf(1.0 / power) };
        let total: u32 = self.node_gpus.iter().zip(&active).filter(|(_, on)| **on > 0).map(|(gpus, _)| gpus).sum();
        for &(replicas, speedup) in per_job.iter() {
            if replicas > 0 && total > 0 {
                utility += speedup / f64::from(replicas) * (f64::from(replicas) / f64::from(total));
            }
        }
        self.scratch = scratch;
        [-mean, -utility]
    }

    /// [`Problem::evaluate`] on rows of any width.
    fn evaluate_any_width(&mut self, x: &[u8], power: f64) -> [f64; 2] {
        let (n_jobs, n_nodes) = (self.n_jobs(), self.n_nodes());
        let mut sum = 0.0;
        let mut utility = 0.0;
        let mut scratch = std::mem::take(&mut self.scratch);
        let active = &mut scratch.flags;
        active.clear();
        active.resize(n_nodes, false);
        let per_job = &mut scratch.per_job;
        per_job.clear();
        for j in 0..n_jobs {
            let row = &x[j * n_nodes..(j + 1) * n_nodes];
            let (mut nodes, mut replicas) = (0u32, 0u32);
            for (on, &gpus) in active.iter_mut().zip(row) {
                nodes += u32::from(gpus > 0);
                replicas += u32::from(gpus);
                *on |= gpus > 0;
            }
            let speedup = self.jobs[j].speedup.at(nodes, replicas);
            per_job.push((replicas, speedup));
            let mut scaled = speedup * self.dominant_share * n_nodes as f64;
            if row != &self.base[j * n_nodes..(j + 1) * n_nodes] {
                scaled *= self.restart_factor[j];
            }
            sum += if power == -1.0 { 1.0 / (scaled + 1e-3) } else { (scaled + 1e-3).powf(power) };
        }
        let mean = if power == -1.0 { n_jobs as f64 / sum } else { (sum / n_jobs as f64).powf(1.0 / power) };
        let total: u32 = self.node_gpus.iter().zip(active.iter()).filter(|(_, on)| **on).map(|(gpus, _)| gpus).sum();
        for &(replicas, speedup) in per_job.iter() {
            if replicas > 0 && total > 0 {
                utility += speedup / f64::from(replicas) * (f64::from(replicas) / f64::from(total));
            }
        }
        self.scratch = scratch;
        [-mean, -utility]
    }

    /// `Problem._crossover` for one mating: single point over jobs (the children swap the rows
    /// of jobs before the point). The point is drawn whether or not the mating crosses over
    /// (`crossed`); without crossover the children are copies of the parents.
    fn crossover_into(
        &self,
        a: &[u8],
        b: &[u8],
        crossed: bool,
        rng: &mut ChaCha8Rng,
        first: &mut Vec<u8>,
        second: &mut Vec<u8>,
    ) {
        let drawn = rng.random_range(0..self.n_jobs()) * self.n_nodes();
        let point = if crossed { drawn } else { 0 };
        first.clear();
        first.extend_from_slice(&b[..point]);
        first.extend_from_slice(&a[point..]);
        second.clear();
        second.extend_from_slice(&a[..point]);
        second.extend_from_slice(&b[point..]);
    }

    /// `Problem._mutation`: reset a job to its current allocation (10%), zero some of a job's
    /// nodes (a tenth of them, for 10% of jobs), and raise counts on free nodes and nodes the
    /// job already uses, to a random value up to the node's GPUs.
    fn mutate(&mut self, x: &mut [u8], rng: &mut ChaCha8Rng) {
        let (n_jobs, n_nodes) = (self.n_jobs(), self.n_nodes());
        let tenth = threshold(0.1);
        for j in 0..n_jobs {
            if unit_draw(rng) < tenth {
                x[j * n_nodes..(j + 1) * n_nodes].copy_from_slice(&self.base[j * n_nodes..(j + 1) * n_nodes]);
            }
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        let zeroed = &mut scratch.flags;
        zeroed.clear();
        zeroed.extend((0..n_jobs).map(|_| unit_draw(rng) < tenth));
        for (j, _) in zeroed.iter().enumerate().filter(|(_, zeroed)| **zeroed) {
            for cell in &mut x[j * n_nodes..(j + 1) * n_nodes] {
                if unit_draw(rng) < tenth {
                    *cell = 0;
                }
            }
        }
        let used = &mut scratch.per_node;
        used.clear();
        used.resize(n_nodes, 0);
        for row in x.chunks_exact(n_nodes) {
            for (total, &gpus) in used.iter_mut().zip(row) {
                *total += u32::from(gpus);
            }
        }
        // Only nodes with a free GPU can change (p1 = p2 = 0 elsewhere), so only they draw.
        let free_nodes = &mut scratch.nodes;
        free_nodes.clear();
        free_nodes.extend((0..n_nodes).filter(|&n| used[n] < self.node_gpus[n]));
        let thresholds = &self.raise_thresholds[free_nodes.len() * (n_nodes + 1)..][..n_nodes + 1];
        let on_unused = thresholds[0];
        for row in x.chunks_exact_mut(n_nodes) {
            // p1 + p2 - p1 p2 on nodes the job uses (p2 = 1 / their count); p1 (p2 = 0) elsewhere.
            let on_free_used = free_nodes.iter().filter(|&&n| row[n] > 0).count().max(1);
            let on_used = thresholds[on_free_used];
            for &n in free_nodes.iter() {
                let limit = if row[n] > 0 { on_used } else { on_unused };
                if unit_draw(rng) < limit {
                    let low = u32::from(row[n]);
                    row[n] = rng.random_range(low..=self.node_gpus[n].max(low)) as u8;
                }
            }
        }
        self.scratch = scratch;
    }

    /// `Problem._repair`: at most one distributed job per node (later jobs on a node that already
    /// has one lose it), each job capped at its GPUs and 16 nodes (kept on nodes in random
    /// order), then each node's GPUs handed out in job order.
    ///
    /// The artifact runs the three steps over all jobs in turn; a job's row depends only on the
    /// rows before it in each, so they run here job by job, in one pass (the same draws).
    ///
    /// Clusters of up to 16 or 32 nodes take [`Problem::repair_fixed`], the same steps on rows
    /// padded to a fixed width, which the compiler turns into vector instructions.
    fn repair(&mut self, x: &mut [u8], rng: &mut ChaCha8Rng) {
        match self.n_nodes() {
            0 => {}
            1..=16 => self.repair_fixed::<16>(x, rng),
            17..=32 => self.repair_fixed::<32>(x, rng),
            _ => self.repair_any_width(x, rng),
        }
    }

    /// [`Problem::repair`] on rows padded with empty nodes to `W` cells (`W` at least the nodes):
    /// a padding cell is 0 and has no GPUs left, so every step leaves it 0 and it changes no
    /// count; the same result and the same draws as [`Problem::repair_any_width`].
    fn repair_fixed<const W: usize>(&mut self, x: &mut [u8], rng: &mut ChaCha8Rng) {
        let n_nodes = self.n_nodes();
        debug_assert!(n_nodes <= W);
        let mut scratch = std::mem::take(&mut self.scratch);
        let mut distributed_seen = [0u8; W];
        let mut left = [0u8; W];
        for (left, &gpus) in left.iter_mut().zip(&self.node_gpus) {
            *left = gpus as u8; // at most 255 (new)
        }
        let mut crowded = false;
        let order = &mut scratch.nodes;
        order.clear();
        order.extend(0..n_nodes);
        for (j, cells) in x.chunks_exact_mut(n_nodes).enumerate() {
            let mut row = [0u8; W];
            row[..n_nodes].copy_from_slice(cells);
            let on = row.map(|gpus| u8::from(gpus > 0));
            if on.iter().map(|&on| u32::from(on)).sum::<u32>() > 1 {
                for (seen, &on) in distributed_seen.iter_mut().zip(&on) {
                    *seen = seen.saturating_add(on);
                }
                crowded = crowded || distributed_seen.iter().fold(0, |most, &seen| most.max(seen)) > 1;
            }
            if crowded {
                for (&seen, cell) in distributed_seen.iter().zip(row.iter_mut()) {
                    *cell = if seen > 1 { 0 } else { *cell };
                }
            }
            let total: u32 = row.iter().map(|&gpus| u32::from(gpus)).sum();
            let used: usize = row.iter().map(|&gpus| usize::from(gpus > 0)).sum();
            if total > self.jobs[j].max_replicas || used > self.max_nodes_per_job {
                cap_row(&mut row[..n_nodes], self.jobs[j].max_replicas, self.max_nodes_per_job, order, rng);
            }
            for (left, cell) in left.iter_mut().zip(row.iter_mut()) {
                let take = (*cell).min(*left);
                *left -= take;
                *cell = take;
            }
            cells.copy_from_slice(&row[..n_nodes]);
        }
        self.scratch = scratch;
    }

    /// [`Problem::repair`] on rows of any width.
    fn repair_any_width(&mut self, x: &mut [u8], rng: &mut ChaCha8Rng) {
        let n_nodes = self.n_nodes();
        let mut scratch = std::mem::take(&mut self.scratch);
        // Distributed jobs on each node so far, in job order (saturating: only "more than one"
        // matters); from the second one on, the node is taken from every later job (the
        // artifact's cumulative sum over jobs).
        let distributed_seen = &mut scratch.per_node_u8;
        distributed_seen.clear();
        distributed_seen.resize(n_nodes, 0);
        let mut crowded = false;
        let order = &mut scratch.nodes;
        order.clear();
        order.extend(0..n_nodes);
        // Node capacities fit in a cell (u8), so the hand-out runs on bytes.
        let left = &mut scratch.left_u8;
        left.clear();
        left.extend(self.node_gpus.iter().map(|&gpus| gpus as u8)); // at most 255 (new)
        for (j, row) in x.chunks_exact_mut(n_nodes).enumerate() {
            if row.iter().filter(|&&gpus| gpus > 0).count() > 1 {
                for (seen, &cell) in distributed_seen.iter_mut().zip(row.iter()) {
                    *seen = seen.saturating_add(u8::from(cell > 0));
                }
                crowded = crowded || distributed_seen.iter().any(|&seen| seen > 1);
            }
            if crowded {
                for (&seen, cell) in distributed_seen.iter().zip(row.iter_mut()) {
                    *cell = if seen > 1 { 0 } else { *cell };
                }
            }
            let (total, used) = row
                .iter()
                .fold((0u32, 0usize), |(total, used), &gpus| (total + u32::from(gpus), used + usize::from(gpus > 0)));
            // Where no cap binds, the order of nodes does not matter and nothing is drawn.
            if total > self.jobs[j].max_replicas || used > self.max_nodes_per_job {
                cap_row(row, self.jobs[j].max_replicas, self.max_nodes_per_job, order, rng);
            }
            for (left, cell) in left.iter_mut().zip(row.iter_mut()) {
                let take = (*cell).min(*left);
                *left -= take;
                *cell = take;
            }
        }
        self.scratch = scratch;
    }
}

/// Caps one job's row at `max_replicas` GPUs on at most `max_nodes` nodes, keeping GPUs on the
/// nodes in a random order (`order` is shuffled in place, as the artifact draws a permutation).
fn cap_row(row: &mut [u8], max_replicas: u32, max_nodes: usize, order: &mut [usize], rng: &mut ChaCha8Rng) {
    order.shuffle(rng);
    let mut gpus_left = max_replicas;
    let mut nodes_left = max_nodes;
    for &n in order.iter() {
        let cell = &mut row[n];
        let take = u32::from(*cell).min(gpus_left);
        gpus_left -= take;
        *cell = take as u8;
        if *cell > 0 {
            if nodes_left == 0 {
                *cell = 0;
            } else {
                nodes_left -= 1;
            }
        }
    }
}

/// The 53 random bits `rng.random::<f64>()` scales to [0, 1): comparing them with
/// [`threshold`]`(p)` decides `rng.random::<f64>() < p` exactly, from the same draw.
fn unit_draw(rng: &mut ChaCha8Rng) -> u64 {
    rng.next_u64() >> 11
}

/// The integer bound of [`unit_draw`] for probability `p`: `v * 2^-53 < p` iff `v < ceil(p * 2^53)`
/// (scaling by a power of two is exact).
fn threshold(p: f64) -> u64 {
    (p * (1u64 << 53) as f64).ceil() as u64
}

/// The rows of a generation's individuals, for pymoo's duplicate elimination: an open-addressing
/// table of indices into the population, so that a candidate is checked without being copied.
struct RowSet {
    /// `index + 1` of an individual, or 0 where empty.
    slots: Vec<u32>,
    len: usize,
}

impl RowSet {
    fn new() -> RowSet {
        RowSet { slots: vec![0; 256], len: 0 }
    }

    fn hash(row: &[u8]) -> u64 {
        let mut hasher = rustc_hash::FxHasher::default();
        std::hash::Hasher::write(&mut hasher, row);
        std::hash::Hasher::finish(&hasher)
    }

    /// Empties the set and adds every individual of `population` (duplicates once).
    fn rebuild(&mut self, population: &[Individual]) {
        self.slots.fill(0);
        self.len = 0;
        for index in 0..population.len() {
            self.insert(population, index);
        }
    }

    /// Adds `population[index]` and returns true, unless an individual with the same row is in the set.
    fn insert(&mut self, population: &[Individual], index: usize) -> bool {
        if 2 * (self.len + 1) > self.slots.len() {
            let known: Vec<u32> = self.slots.iter().copied().filter(|&slot| slot > 0).collect();
            self.slots = vec![0; 2 * self.slots.len()];
            self.len = 0;
            for slot in known {
                self.place(population, slot as usize - 1);
            }
        }
        let row = &population[index].x;
        let mask = self.slots.len() - 1;
        let mut position = Self::hash(row) as usize & mask;
        loop {
            match self.slots[position] {
                0 => break,
                slot if population[slot as usize - 1].x == *row => return false,
                _ => position = (position + 1) & mask,
            }
        }
        self.slots[position] = u32::try_from(index + 1).expect("fewer than 2^32 individuals");
        self.len += 1;
        true
    }

    /// Puts a known-distinct individual into its slot (rehashing).
    fn place(&mut self, population: &[Individual], index: usize) {
        let mask = self.slots.len() - 1;
        let mut position = Self::hash(&population[index].x) as usize & mask;
        while self.slots[position] != 0 {
            position = (position + 1) & mask;
        }
        self.slots[position] = index as u32 + 1;
        self.len += 1;
    }
}

/// Runs NSGA-II from `initial` states and returns the first front of the last generation, in
/// population order, with its objectives.
pub fn optimize(
    problem: &mut Problem,
    initial: Vec<Vec<u8>>,
    settings: &GaSettings,
    rng: &mut ChaCha8Rng,
) -> Vec<(Vec<u8>, [f64; 2])> {
    let cells = problem.n_jobs() * problem.n_nodes();
    let mut population: Vec<Individual> = Vec::new();
    let mut seen = RowSet::new();
    for mut x in initial {
        problem.repair(&mut x, rng);
        population.push(Individual { x, f: [0.0; 2], rank: 0, crowding: 0.0 });
        let index = population.len() - 1;
        if seen.insert(&population, index) {
            population[index].f = problem.evaluate(&population[index].x, settings.power);
        } else {
            population.pop();
        }
    }
    // Rows of discarded candidates, reused for the next ones.
    let mut spare: Vec<Vec<u8>> = Vec::new();
    let size = population.len();
    survive(&mut population, size, rng, &mut spare);
    let (mut draws, mut permutation, mut parents) = (Vec::new(), Vec::new(), Vec::new());
    let mut children: Vec<Vec<u8>> = Vec::new();
    for _ in 1..settings.generations {
        let parent_count = population.len();
        seen.rebuild(&population);
        for _ in 0..=100 {
            let offspring = population.len() - parent_count;
            if offspring >= settings.population {
                break;
            }
            let remaining = settings.population - offspring;
            let matings = remaining.div_ceil(2);
            // Tournament selection over concatenated random permutations of the population.
            let needed = matings * 2 * 2;
            draws.clear();
            while draws.len() < needed {
                permutation.clear();
                permutation.extend(0..parent_count);
                permutation.shuffle(rng);
                draws.extend_from_slice(&permutation);
            }
            draws.truncate(needed);
            parents.clear();
            parents.extend(draws.chunks(2).map(|pair| tournament(&population[..parent_count], pair[0], pair[1], rng)));
            // The first children of every mating, then the second ones.
            children.clear();
            children.extend((0..2 * matings).map(|_| spare.pop().unwrap_or_else(|| Vec::with_capacity(cells))));
            let (first, second) = children.split_at_mut(matings);
            for ((pair, c), d) in parents.chunks(2).zip(first.iter_mut()).zip(second.iter_mut()) {
                let (a, b) = (&population[pair[0]].x, &population[pair[1]].x);
                let crossed = rng.random::<f64>() < 0.9;
                problem.crossover_into(a, b, crossed, rng, c, d);
            }
            for child in &mut children {
                problem.mutate(child, rng);
            }
            for child in &mut children {
                problem.repair(child, rng);
            }
            for child in children.drain(..) {
                if population.len() - parent_count >= settings.population {
                    spare.push(child);
                    continue;
                }
                population.push(Individual { x: child, f: [0.0; 2], rank: 0, crowding: 0.0 });
                let index = population.len() - 1;
                if seen.insert(&population, index) {
                    population[index].f = problem.evaluate(&population[index].x, settings.power);
                } else {
                    spare.extend(population.pop().map(|individual| individual.x));
                }
            }
        }
        survive(&mut population, settings.population, rng, &mut spare);
    }
    population
        .into_iter()
        .filter(|individual| individual.rank == 0)
        .map(|individual| (individual.x, individual.f))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn problem(jobs: usize, nodes: usize, max_replicas: u32) -> Problem {
        let infos = (0..jobs)
            .map(|_| GaJob { speedup: Speedup::Linear { fair_replicas: 4.0 }, max_replicas, age: 600.0, restarts: 1 })
            .collect();
        let settings = GaSettings { population: 20, generations: 5, restart_delay: 30.0, power: -1.0 };
        Problem::new(infos, vec![4; nodes], vec![0; jobs * nodes], &settings)
    }

    fn feasible(problem: &Problem, x: &[u8]) -> Result<(), String> {
        let (jobs, nodes) = (problem.n_jobs(), problem.n_nodes());
        for n in 0..nodes {
            let used: u32 = (0..jobs).map(|j| u32::from(x[j * nodes + n])).sum();
            if used > problem.node_gpus[n] {
                return Err(format!("node {n} holds {used} GPUs"));
            }
            let distributed = (0..jobs)
                .filter(|&j| {
                    x[j * nodes + n] > 0 && x[j * nodes..(j + 1) * nodes].iter().filter(|&&g| g > 0).count() > 1
                })
                .count();
            if distributed > 1 {
                return Err(format!("node {n} has {distributed} distributed jobs"));
            }
        }
        for j in 0..jobs {
            let row = &x[j * nodes..(j + 1) * nodes];
            let total: u32 = row.iter().map(|&g| u32::from(g)).sum();
            if total > problem.jobs[j].max_replicas
                || row.iter().filter(|&&g| g > 0).count() > problem.max_nodes_per_job
            {
                return Err(format!("job {j} has {total} GPUs on {row:?}"));
            }
        }
        Ok(())
    }

    #[test]
    fn repair_always_yields_a_feasible_allocation() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for round in 0..500 {
            let (jobs, nodes) = (1 + round % 7, 1 + round % 20);
            let mut problem = problem(jobs, nodes, 1 + (round % 9) as u32);
            let mut x: Vec<u8> = (0..jobs * nodes).map(|_| rng.random_range(0..=4u8)).collect();
            problem.repair(&mut x, &mut rng);
            feasible(&problem, &x).unwrap_or_else(|error| panic!("round {round}: {error}"));
        }
    }

    #[test]
    fn fixed_width_repair_and_evaluation_match_any_width() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut cases = 0;
        for round in 0..600 {
            let (jobs, nodes) = (1 + round % 9, 1 + round % 32);
            let mut problem = problem(jobs, nodes, 1 + (round % 9) as u32);
            problem.max_nodes_per_job = 1 + round % 5;
            let x: Vec<u8> =
                (0..jobs * nodes).map(|_| if rng.random_bool(0.4) { rng.random_range(1..=4u8) } else { 0 }).collect();
            let (mut fixed, mut general) = (x.clone(), x.clone());
            let (mut fixed_rng, mut general_rng) = (rng.clone(), rng.clone());
            if nodes <= 16 {
                problem.repair_fixed::<16>(&mut fixed, &mut fixed_rng);
            } else {
                problem.repair_fixed::<32>(&mut fixed, &mut fixed_rng);
            }
            problem.repair_any_width(&mut general, &mut general_rng);
            assert_eq!(fixed, general, "round {round}");
            assert_eq!(fixed_rng.next_u64(), general_rng.next_u64(), "round {round}: other draws");
            cases += usize::from(fixed != x);
            for power in [-1.0, -0.5] {
                let at = |f: [f64; 2]| f.map(f64::to_bits);
                let general_f = at(problem.evaluate_any_width(&x, power));
                let fixed_f = at(if nodes <= 16 {
                    problem.evaluate_fixed::<16>(&x, power)
                } else {
                    problem.evaluate_fixed::<32>(&x, power)
                });
                assert_eq!(fixed_f, general_f, "round {round}");
            }
        }
        // The rows were not already feasible: repair changed most of them.
        assert!(cases > 300, "{cases}");
    }

    #[test]
    fn crossover_swaps_whole_jobs_and_mutation_stays_within_nodes() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut problem = problem(5, 4, 16);
        let a: Vec<u8> = (0..20).map(|i| (i % 5) as u8).collect();
        let b: Vec<u8> = vec![4; 20];
        for _ in 0..50 {
            let (mut c, mut d) = (Vec::new(), Vec::new());
            problem.crossover_into(&a, &b, true, &mut rng, &mut c, &mut d);
            for j in 0..5 {
                let rows = |x: &[u8]| x[j * 4..(j + 1) * 4].to_vec();
                let from_b = rows(&c) == rows(&b);
                assert!(from_b || rows(&c) == rows(&a));
                assert_eq!(rows(&d), if from_b { rows(&a) } else { rows(&b) });
            }
            let mut mutated = a.clone();
            problem.mutate(&mut mutated, &mut rng);
            assert!(mutated.iter().all(|&g| g <= 4));
        }
    }

    #[test]
    fn the_search_is_seeded_and_its_front_is_feasible() {
        let run = |seed| {
            let mut problem = problem(6, 4, 8);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let settings = GaSettings { population: 20, generations: 10, restart_delay: 30.0, power: -1.0 };
            let front = optimize(&mut problem, vec![vec![0; 24]], &settings, &mut rng);
            for (x, _) in &front {
                feasible(&problem, x).unwrap();
            }
            front
        };
        assert_eq!(run(5), run(5));
        // Six jobs with linear speedups on 16 GPUs: the best front uses GPUs.
        assert!(run(5).iter().any(|(x, _)| x.iter().any(|&g| g > 0)));
    }

    #[test]
    fn mutation_thresholds_are_the_artifacts_probabilities() {
        let problem = problem(3, 5, 8);
        for free in 0..=5usize {
            let p1 = 1.0 / free.max(1) as f64;
            assert_eq!(problem.raise_thresholds[free * 6], threshold(p1));
            for used in 1..=5usize {
                let p2 = 1.0 / used as f64;
                assert_eq!(problem.raise_thresholds[free * 6 + used], threshold(p1 + p2 - p1 * p2));
            }
        }
        // The integer test decides `u < p` as the float one does, at the edges too.
        for p in [0.1, 0.25, 1.0 / 3.0, 0.9] {
            let bound = threshold(p);
            assert!(((bound - 1) as f64) * 2f64.powi(-53) < p && (bound as f64) * 2f64.powi(-53) >= p);
        }
    }
}
