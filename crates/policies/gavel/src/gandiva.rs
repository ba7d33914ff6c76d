//! Gavel's Gandiva allocation (`scheduler/policies/gandiva.py`): equal shares, random pairs.

use crate::allocation::{PackingInput, PairRows};
use schedlab_core::JobId;
use std::collections::BTreeMap;

/// Gavel's Gandiva allocation (`GandivaPolicy.get_allocation`): returns single rows and pair
/// rows (`(m, n)` indices into `ids`, `m < n`). With `blind`, pairs form whatever their
/// co-located throughput, as in Gavel (a pair that cannot share gets no time until it is split
/// at the next allocation); otherwise only pairs that gain are formed.
pub(crate) fn gandiva_allocation(
    packing: &PackingInput,
    ids: &[JobId],
    partners: &mut BTreeMap<JobId, JobId>,
    rng: &mut rand_chacha::ChaCha8Rng,
    blind: bool,
) -> (Vec<Vec<f64>>, PairRows) {
    use rand::Rng;
    let base = &packing.base;
    let index_of: BTreeMap<JobId, usize> = ids.iter().enumerate().map(|(index, id)| (*id, index)).collect();
    let types = base.capacity.len();
    // Split pairs with a departed job, and pairs whose normalised throughput summed over the
    // types (Gavel's `_get_normalized_throughput`) is below 1 or that cannot share somewhere.
    let normalised = |m: usize, n: usize| -> f64 {
        let mut total = 0.0;
        for j in 0..types {
            let (own, other) = packing.pair_rates[packing.templates[m]][packing.templates[n]][j];
            if own <= 0.0 || other <= 0.0 {
                return 0.0;
            }
            total += own / base.throughputs[m][j].max(f64::MIN_POSITIVE)
                + other / base.throughputs[n][j].max(f64::MIN_POSITIVE);
        }
        total
    };
    let stale: Vec<JobId> = partners
        .iter()
        .filter(|(job, partner)| match (index_of.get(job), index_of.get(partner)) {
            (Some(&m), Some(&n)) => normalised(m, n) < 1.0,
            _ => true,
        })
        .map(|(job, _)| *job)
        .collect();
    for job in stale {
        if let Some(partner) = partners.remove(&job) {
            partners.remove(&partner);
        }
    }
    let requested: u64 = base.scale_factors.iter().map(|&scale| u64::from(scale)).sum();
    let available: u64 = base.capacity.iter().map(|&gpus| u64::from(gpus)).sum();
    let mut combos: Vec<(usize, Option<usize>)> = Vec::new();
    if requested <= available {
        // Everything fits: no packing, every job alone.
        combos.extend((0..ids.len()).map(|m| (m, None)));
    } else {
        let mut unpaired: Vec<usize> = (0..ids.len()).filter(|m| !partners.contains_key(&ids[*m])).collect();
        let attempts = unpaired.len();
        for _ in 0..attempts {
            if unpaired.len() < 2 {
                break;
            }
            let first = rng.random_range(0..unpaired.len());
            let mut second = rng.random_range(0..unpaired.len() - 1);
            if second >= first {
                second += 1;
            }
            let (m, n) = (unpaired[first], unpaired[second]);
            // Unless `blind` (Gavel), only pairs that gain: Gavel also forms pairs that cannot
            // share (zero co-located throughput on some type) or that lose throughput, and
            // splits them at its next allocation.
            if base.scale_factors[m] != base.scale_factors[n] || (!blind && normalised(m, n) < 1.0) {
                continue;
            }
            unpaired.retain(|&job| job != m && job != n);
            partners.insert(ids[m], ids[n]);
            partners.insert(ids[n], ids[m]);
        }
        for (m, id) in ids.iter().enumerate() {
            match partners.get(id) {
                Some(partner) if index_of[partner] > m => combos.push((m, Some(index_of[partner]))),
                Some(_) => {}
                None => combos.push((m, None)),
            }
        }
    }
    // An equal share of every type per combination, divided by its scale factor, with each
    // row scaled down to sum to at most 1.
    let count = combos.len().max(1) as f64;
    let mut rows = vec![vec![0.0; types]; ids.len()];
    let mut pairs = Vec::new();
    for (m, partner) in combos {
        let scale = f64::from(base.scale_factors[m]);
        // No share on a type where the combination cannot run: a job without throughput there,
        // or a pair that cannot share there. Gavel gives every combination a share of every
        // type and its rounds skip those with no throughput; with `blind` the row is scaled as
        // Gavel's (over every type) before those types are zeroed, otherwise over the usable
        // types only.
        let usable = |j: usize| {
            base.throughputs[m][j] > 0.0
                && partner.is_none_or(|n| {
                    let (own, other) = packing.pair_rates[packing.templates[m]][packing.templates[n]][j];
                    base.throughputs[n][j] > 0.0 && own > 0.0 && other > 0.0
                })
        };
        let mut row: Vec<f64> = base
            .capacity
            .iter()
            .enumerate()
            .map(|(j, &gpus)| if blind || usable(j) { f64::from(gpus) / count / scale } else { 0.0 })
            .collect();
        let sum: f64 = row.iter().sum();
        if sum > 1.0 {
            row.iter_mut().for_each(|fraction| *fraction /= sum);
        }
        for (j, fraction) in row.iter_mut().enumerate() {
            if !usable(j) {
                *fraction = 0.0;
            }
        }
        match partner {
            None => rows[m] = row,
            Some(n) => pairs.push(((m, n), row)),
        }
    }
    (rows, pairs)
}
