//! Gavel's FIFO allocations (`scheduler/policies/fifo.py`): perf, base and packing modes.

use crate::allocation::{AllocationInput, PackingInput};
use schedlab_core::JobId;
use std::collections::BTreeMap;

/// Gavel's FIFO allocation (`scheduler/policies/fifo.py`): rows of 0/1 time fractions.
pub(crate) fn fifo_allocation(
    input: &AllocationInput,
    ids: &[JobId],
    aware: bool,
    assigned: &mut BTreeMap<JobId, usize>,
    rng: &mut rand_chacha::ChaCha8Rng,
) -> (Vec<Vec<f64>>, Vec<JobId>) {
    use rand::Rng;
    let index_of: BTreeMap<JobId, usize> = ids.iter().enumerate().map(|(index, id)| (*id, index)).collect();
    let mut available: Vec<u32> = input.capacity.clone();
    if aware {
        // "perf" mode resets the allocation every time.
        assigned.clear();
    }
    let mut queue: std::collections::VecDeque<JobId> =
        ids.iter().copied().filter(|id| !assigned.contains_key(id)).collect();
    // A finished job's type goes to the next waiting job if it fits (agnostic mode only:
    // in aware mode nothing is assigned here).
    let previous: Vec<(JobId, usize)> = assigned.iter().map(|(id, gpu_type)| (*id, *gpu_type)).collect();
    for (id, gpu_type) in previous {
        match index_of.get(&id) {
            Some(&index) => available[gpu_type] = available[gpu_type].saturating_sub(input.scale_factors[index]),
            None => {
                assigned.remove(&id);
                if let Some(next) = queue.pop_front() {
                    let scale = input.scale_factors[index_of[&next]];
                    // Deviation: Gavel does not check that the job can run on that type.
                    if scale <= available[gpu_type] && input.throughputs[index_of[&next]][gpu_type] > 0.0 {
                        assigned.insert(next, gpu_type);
                        available[gpu_type] -= scale;
                    }
                }
            }
        }
    }
    // As Gavel: stop when no GPU is free; a job that finds no type with room for its scale
    // factor is taken off the queue and ends the loop (it does not take part in packing).
    while let Some(id) = queue.front().copied() {
        if available.iter().all(|&gpus| gpus == 0) {
            break;
        }
        queue.pop_front();
        let index = index_of[&id];
        let scale = input.scale_factors[index];
        let fitting: Vec<usize> = (0..available.len())
            .filter(|&gpu_type| available[gpu_type] >= scale && input.throughputs[index][gpu_type] > 0.0)
            .collect();
        if fitting.is_empty() {
            break;
        }
        let gpu_type = if aware {
            // The fastest type with room; the first in type order on ties.
            let mut best = fitting[0];
            for &candidate in &fitting[1..] {
                if input.throughputs[index][candidate] > input.throughputs[index][best] {
                    best = candidate;
                }
            }
            best
        } else {
            fitting[rng.random_range(0..fitting.len())]
        };
        assigned.insert(id, gpu_type);
        available[gpu_type] -= scale;
    }
    let rows = ids
        .iter()
        .map(|id| {
            let mut row = vec![0.0; input.capacity.len()];
            if let Some(&gpu_type) = assigned.get(id) {
                row[gpu_type] = 1.0;
            }
            row
        })
        .collect();
    (rows, queue.into_iter().collect())
}

/// Gavel's FIFO packing step (`FIFOPolicy._pack`): each job still waiting, in arrival order,
/// joins the scheduled single job (same scale factor, not yet paired) whose pair has the
/// largest normalised throughput `packed_a / iso_a + packed_b / iso_b` on that job's type, if
/// that exceeds `threshold`; the first waiting job that finds no partner ends the packing, so
/// no job jumps the queue. Returns `(scheduled, joining, type)` as indices into `ids`.
pub(crate) fn fifo_pack(
    packing: &PackingInput,
    ids: &[JobId],
    rows: &[Vec<f64>],
    waiting: &[JobId],
    threshold: f64,
) -> Vec<(usize, usize, usize)> {
    let index_of: BTreeMap<JobId, usize> = ids.iter().enumerate().map(|(index, id)| (*id, index)).collect();
    let mut singles: BTreeMap<usize, usize> = rows
        .iter()
        .enumerate()
        .filter_map(|(m, row)| row.iter().position(|fraction| *fraction > 0.0).map(|gpu_type| (m, gpu_type)))
        .collect();
    let base = &packing.base;
    let mut pairs = Vec::new();
    for id in waiting {
        let joining = index_of[id];
        let mut best: Option<(f64, usize)> = None;
        for (&scheduled, &gpu_type) in &singles {
            if base.scale_factors[scheduled] != base.scale_factors[joining] {
                continue;
            }
            let (own, other) = packing.pair_rates[packing.templates[scheduled]][packing.templates[joining]][gpu_type];
            if own <= 0.0 || other <= 0.0 {
                // Cannot share on this type (Gavel only skips the zero term; with a threshold
                // below 1 it could pair a job that then makes no progress).
                continue;
            }
            let isolated = (base.throughputs[scheduled][gpu_type], base.throughputs[joining][gpu_type]);
            let normalised = own / isolated.0.max(f64::MIN_POSITIVE) + other / isolated.1.max(f64::MIN_POSITIVE);
            if normalised > best.map_or(threshold, |(value, _)| value) {
                best = Some((normalised, scheduled));
            }
        }
        let Some((_, scheduled)) = best else { break };
        let gpu_type = singles.remove(&scheduled).expect("a scheduled single");
        pairs.push((scheduled, joining, gpu_type));
    }
    pairs
}
