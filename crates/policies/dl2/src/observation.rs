//! DL2's state (`scheduler_base.py`, `observe`) and action mask (`rl_env.py`, `step`).

use crate::slot::{Slot, Task};

/// Jobs the network sees (`SCHED_WINDOW_SIZE` at large scale).
pub const WINDOW: usize = 40;
/// Rows of the state: type, slots waited, remaining fraction, dominant share, workers,
/// parameter servers (`INPUTS_GATE`).
pub const FEATURES: usize = 6;
/// Inputs of the network.
pub const INPUTS: usize = FEATURES * WINDOW;
/// Actions: worker, server, bundle for each window position, then skip (`ACTION_DIM`).
pub const ACTIONS: usize = 3 * WINDOW + 1;
/// The skip action: end the slot.
pub const SKIP: usize = ACTIONS - 1;

/// What the network sees and which job each column is.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// Row-major `FEATURES x WINDOW`: `state[f * WINDOW + c]` is feature `f` of column `c`
    /// (TF flattens DL2's `[6, 40]` input this way); zero-padded.
    pub state: Vec<f32>,
    /// The slot's job index shown in each column.
    pub window: [Option<usize>; WINDOW],
}

impl Observation {
    /// Observes `slot`: the first [`WINDOW`] jobs in arrival order that may still grow (a job
    /// at both caps is left out), each column `[type, slots waited, 1 - progress/epochs,
    /// dominant share, workers, servers]`, unscaled (`INPUT_RESCALE = False`).
    pub fn of(slot: &Slot) -> Observation {
        let mut state = vec![0.0f32; INPUTS];
        let mut window = [None; WINDOW];
        let shown = (0..slot.jobs.len())
            .filter(|&job| slot.jobs[job].workers() < slot.max_workers || slot.jobs[job].ps() < slot.max_ps);
        for (column, job) in shown.take(WINDOW).enumerate() {
            let entry = &slot.jobs[job];
            let features = [
                entry.type_number as f64,
                slot.index.saturating_sub(entry.arrival_slot) as f64,
                entry.remaining_fraction(),
                entry.dom_share,
                entry.workers() as f64,
                entry.ps() as f64,
            ];
            for (row, value) in features.iter().enumerate() {
                state[row * WINDOW + column] = *value as f32;
            }
            window[column] = Some(job);
        }
        Observation { state, window }
    }

    /// Returns the observation with its columns permuted: column `c` of the result is column
    /// `order[c]` of this one (DL2 shuffles the window when learning from a heuristic,
    /// `JOB_ORDER_SHUFFLE`).
    pub fn permuted(&self, order: &[usize; WINDOW]) -> Observation {
        let mut state = vec![0.0f32; INPUTS];
        let mut window = [None; WINDOW];
        for (column, &from) in order.iter().enumerate() {
            for row in 0..FEATURES {
                state[row * WINDOW + column] = self.state[row * WINDOW + from];
            }
            window[column] = self.window[from];
        }
        Observation { state, window }
    }

    /// Returns the window column showing slot job `job`.
    pub fn column_of(&self, job: usize) -> Option<usize> {
        self.window.iter().position(|shown| *shown == Some(job))
    }

    /// Which actions are allowed: a column's worker (server) action when it shows a job below
    /// the worker (server) cap, its bundle when below both; skip always.
    pub fn mask(&self, slot: &Slot) -> [bool; ACTIONS] {
        let mut mask = [false; ACTIONS];
        for (column, shown) in self.window.iter().enumerate() {
            if let Some(job) = *shown {
                for (offset, task) in Task::ALL.iter().enumerate() {
                    mask[3 * column + offset] = slot.allows(job, *task);
                }
            }
        }
        mask[SKIP] = true;
        mask
    }

    /// Whether the window shows any job (DL2 ends the slot when it shows none).
    pub fn is_empty(&self) -> bool {
        self.window.iter().all(Option::is_none)
    }
}

/// The job column and task of a non-skip action.
pub fn decode(action: usize) -> (usize, Task) {
    (action / 3, Task::ALL[action % 3])
}

/// The action that adds `task` to the job in `column` (the inverse of [`decode`]).
pub fn encode(column: usize, task: Task) -> usize {
    3 * column + Task::ALL.iter().position(|known| *known == task).expect("every task is in Task::ALL")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_inverts_decode() {
        for action in 0..SKIP {
            let (column, task) = decode(action);
            assert_eq!(encode(column, task), action);
        }
    }
}
