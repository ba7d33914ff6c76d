//! NSGA-II's selection as pymoo 0.4.2 runs it: non-dominated fronts, crowding distances,
//! rank-and-crowding survival and the binary tournament.

use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashSet;

/// One candidate and what NSGA-II knows of it.
#[derive(Clone, Debug)]
pub(super) struct Individual {
    pub(super) x: Vec<u8>,
    pub(super) f: [f64; 2],
    pub(super) rank: usize,
    pub(super) crowding: f64,
}

/// An integer that orders like [`f64::total_cmp`] (its own bit trick).
fn order_key(value: f64) -> i64 {
    let bits = value.to_bits() as i64;
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

/// `a` dominates `b` (minimisation): no worse in both, better in one.
fn relation(a: &[f64; 2], b: &[f64; 2]) -> i8 {
    let mut value = 0i8;
    for k in 0..2 {
        if a[k] < b[k] {
            if value == -1 {
                return 0;
            }
            value = 1;
        } else if b[k] < a[k] {
            if value == 1 {
                return 0;
            }
            value = -1;
        }
    }
    value
}

/// Non-dominated sorting of two objectives (each front in index order): the fronts of Deb's
/// fast non-dominated sort, found in `O(n log n)` by sweeping the points in order of the first
/// objective and putting each in the first front none of whose members dominates it.
fn fronts(population: &[Individual]) -> Vec<Vec<usize>> {
    // Keys are distinct (the index breaks ties), so an unstable sort gives the one order.
    let mut order: Vec<(i64, i64, usize)> = population
        .iter()
        .enumerate()
        .map(|(index, individual)| (order_key(individual.f[0]), order_key(individual.f[1]), index))
        .collect();
    order.sort_unstable();
    let mut fronts: Vec<Vec<usize>> = Vec::new();
    // The last point added to each front: the one with the smallest second objective there.
    let mut last: Vec<[f64; 2]> = Vec::new();
    for (_, _, index) in order {
        let f = population[index].f;
        // Dominated by a front's last point (its smallest f1): no larger in f1 (and no larger
        // in f0, by the sweep order) and not the same point.
        let front =
            (0..fronts.len()).find(|&front| !(last[front][1] <= f[1] && last[front] != f)).unwrap_or(fronts.len());
        if front == fronts.len() {
            fronts.push(Vec::new());
            last.push(f);
        }
        fronts[front].push(index);
        last[front] = f;
    }
    for front in &mut fronts {
        front.sort_unstable();
    }
    fronts
}

/// pymoo's crowding distance of one front (duplicates get 0, the extremes infinity).
fn crowding(front: &[[f64; 2]]) -> Vec<f64> {
    let n = front.len();
    if n <= 2 {
        return vec![f64::INFINITY; n];
    }
    let mut seen = FxHashSet::default();
    let unique: Vec<usize> = (0..n).filter(|&i| seen.insert([front[i][0].to_bits(), front[i][1].to_bits()])).collect();
    let mut distance = vec![0.0; n];
    let mut sums = vec![0.0; unique.len()];
    for objective in [0, 1] {
        // A stable sort by the objective: by the objective, then by position.
        let mut keyed: Vec<(i64, usize)> =
            unique.iter().enumerate().map(|(k, &i)| (order_key(front[i][objective]), k)).collect();
        keyed.sort_unstable();
        let order: Vec<usize> = keyed.into_iter().map(|(_, k)| k).collect();
        let values: Vec<f64> = order.iter().map(|&i| front[unique[i]][objective]).collect();
        let span = values[values.len() - 1] - values[0];
        for (position, &i) in order.iter().enumerate() {
            let to_last = if position == 0 { f64::INFINITY } else { values[position] - values[position - 1] };
            let to_next =
                if position + 1 == values.len() { f64::INFINITY } else { values[position + 1] - values[position] };
            let normalise = |d: f64| if span == 0.0 { 0.0 } else { d / span };
            sums[i] += normalise(to_last) + normalise(to_next);
        }
    }
    for (k, &i) in unique.iter().enumerate() {
        distance[i] = sums[k] / 2.0;
    }
    distance
}

/// Rank-and-crowding survival to `keep` individuals; sets ranks and crowding distances. The
/// rows of the individuals that do not survive go to `spare`, for reuse.
pub(super) fn survive(population: &mut Vec<Individual>, keep: usize, rng: &mut ChaCha8Rng, spare: &mut Vec<Vec<u8>>) {
    let mut survivors = Vec::with_capacity(keep);
    for (rank, front) in fronts(population).into_iter().enumerate() {
        let objectives: Vec<[f64; 2]> = front.iter().map(|&i| population[i].f).collect();
        let distances = crowding(&objectives);
        for (k, &i) in front.iter().enumerate() {
            population[i].rank = rank;
            population[i].crowding = distances[k];
        }
        if survivors.len() + front.len() > keep {
            // randomized_argsort: a random permutation, sorted by crowding, largest first.
            let mut order: Vec<usize> = (0..front.len()).collect();
            order.shuffle(rng);
            // A stable sort by crowding: by crowding, then by position in the permutation.
            let mut keyed: Vec<(i64, usize, usize)> =
                order.iter().enumerate().map(|(position, &k)| (order_key(distances[k]), position, k)).collect();
            keyed.sort_unstable();
            let mut order: Vec<usize> = keyed.into_iter().map(|(_, _, k)| k).collect();
            order.reverse();
            survivors.extend(order.into_iter().take(keep - survivors.len()).map(|k| front[k]));
            break;
        }
        survivors.extend(front);
        if survivors.len() == keep {
            break;
        }
    }
    let mut next = Vec::with_capacity(keep.max(survivors.len()));
    for &i in &survivors {
        let individual = &mut population[i];
        next.push(Individual { x: std::mem::take(&mut individual.x), ..*individual });
    }
    spare.extend(population.drain(..).map(|individual| individual.x).filter(|x| x.capacity() > 0));
    *population = next;
}

/// The binary tournament of pymoo's NSGA-II (`comp_by_dom_and_crowding`).
pub(super) fn tournament(population: &[Individual], a: usize, b: usize, rng: &mut ChaCha8Rng) -> usize {
    match relation(&population[a].f, &population[b].f) {
        1 => a,
        -1 => b,
        _ => {
            let (ca, cb) = (population[a].crowding, population[b].crowding);
            if ca > cb {
                a
            } else if cb > ca {
                b
            } else if rng.random::<bool>() {
                a
            } else {
                b
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn individual(f: [f64; 2]) -> Individual {
        Individual { x: Vec::new(), f, rank: 0, crowding: 0.0 }
    }

    /// Deb's fast non-dominated sort, pairwise: the reference.
    fn deb(population: &[Individual]) -> Vec<Vec<usize>> {
        let n = population.len();
        let mut count = vec![0usize; n];
        let mut dominates: Vec<Vec<usize>> = vec![Vec::new(); n];
        for i in 0..n {
            for j in 0..n {
                if relation(&population[i].f, &population[j].f) == 1 {
                    dominates[i].push(j);
                    count[j] += 1;
                }
            }
        }
        let mut fronts = Vec::new();
        let mut current: Vec<usize> = (0..n).filter(|&i| count[i] == 0).collect();
        while !current.is_empty() {
            let mut next = Vec::new();
            for &p in &current {
                for &q in &dominates[p] {
                    count[q] -= 1;
                    if count[q] == 0 {
                        next.push(q);
                    }
                }
            }
            next.sort_unstable();
            fronts.push(current);
            current = next;
        }
        fronts
    }

    #[test]
    fn the_sweep_finds_debs_fronts_with_ties_and_duplicates() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..200 {
            let population: Vec<Individual> = (0..40)
                .map(|_| individual([f64::from(rng.random_range(0..6u8)), f64::from(rng.random_range(0..6u8))]))
                .collect();
            assert_eq!(fronts(&population), deb(&population));
        }
    }

    #[test]
    fn crowding_gives_extremes_infinity_and_duplicates_zero() {
        let distances = crowding(&[[0.0, 3.0], [1.0, 2.0], [1.0, 2.0], [3.0, 0.0]]);
        assert_eq!(distances[0], f64::INFINITY);
        assert_eq!(distances[3], f64::INFINITY);
        assert_eq!(distances[2], 0.0);
        // The middle point: (3 - 0) / 3 in each objective, halved over two objectives: 1.
        assert!((distances[1] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn order_keys_order_like_total_cmp() {
        let values =
            [f64::NEG_INFINITY, -1e300, -1.0, -f64::MIN_POSITIVE, -0.0, 0.0, 1e-300, 1.0, 2.5, f64::INFINITY, f64::NAN];
        for a in values {
            for b in values {
                assert_eq!(order_key(a).cmp(&order_key(b)), a.total_cmp(&b), "{a} vs {b}");
            }
        }
    }
}
