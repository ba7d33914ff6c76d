//! Identical jobs folded into one LP row.

use schedlab_solver::{Comparison, LinearProgram, LpSolution, Var};
use std::collections::HashMap;

/// Jobs grouped into classes of identical LP rows: same throughputs, scale factor and demand
/// (for max-min fairness, the demand folds in the weight and equal share).
///
/// In these LPs, swapping two identical jobs' rows keeps a solution feasible and
/// its objective unchanged, and the LP is convex, so averaging over such swaps gives an optimal
/// solution in which identical jobs get identical fractions. Solving one row per class, with
/// its GPU use counted `size` times, is therefore exact, and returns what an interior-point
/// solver such as Gavel's returns anyway (the central path is symmetric). Gavel's workloads
/// draw jobs from 26 model configurations and 4 scale factors, so at most about 100 rows
/// remain however many jobs are active.
pub(crate) struct JobClasses {
    /// The first job of each class.
    pub(crate) representatives: Vec<usize>,
    /// How many jobs each class has.
    pub(crate) sizes: Vec<usize>,
    /// Each job's class.
    pub(crate) class_of: Vec<usize>,
}

impl JobClasses {
    /// Groups jobs by identical LP rows: throughputs, scale factor, demand and offset.
    pub(crate) fn group(
        throughputs: &[Vec<f64>],
        scale_factors: &[u32],
        demand: &[f64],
        offset: Option<&[f64]>,
    ) -> JobClasses {
        JobClasses::by_key(throughputs.iter().enumerate().map(|(m, row)| {
            let offset = offset.map_or(0, |offset| offset[m].to_bits());
            (row.iter().map(|rate| rate.to_bits()).collect::<Vec<u64>>(), scale_factors[m], demand[m].to_bits(), offset)
        }))
    }

    /// Groups jobs by a key per job, in job order; the first job of a class represents it.
    pub(crate) fn by_key<K: std::hash::Hash + Eq>(keys: impl Iterator<Item = K>) -> JobClasses {
        let mut index: HashMap<K, usize> = HashMap::new();
        let mut classes = JobClasses { representatives: Vec::new(), sizes: Vec::new(), class_of: Vec::new() };
        for (m, key) in keys.enumerate() {
            let class = *index.entry(key).or_insert_with(|| {
                classes.representatives.push(m);
                classes.sizes.push(0);
                classes.representatives.len() - 1
            });
            classes.sizes[class] += 1;
            classes.class_of.push(class);
        }
        classes
    }

    /// One variable per class and type (fixed at 0 where the class cannot run), and each
    /// class's time constraint `sum_j X[c][j] <= 1`.
    pub(crate) fn time_variables(&self, lp: &mut LinearProgram, throughputs: &[Vec<f64>]) -> Vec<Vec<Var>> {
        let vars: Vec<Vec<Var>> = self
            .representatives
            .iter()
            .map(|&m| throughputs[m].iter().map(|rate| lp.variable(0.0, if *rate > 0.0 { 1.0 } else { 0.0 })).collect())
            .collect();
        for row in &vars {
            lp.constraint(row.iter().map(|&var| (var, 1.0)).collect(), Comparison::AtMost, 1.0);
        }
        vars
    }

    /// The capacity terms of type `j`: each class's variable times its members' GPUs.
    pub(crate) fn capacity_terms(&self, vars: &[Vec<Var>], scale_factors: &[u32], j: usize) -> Vec<(Var, f64)> {
        vars.iter()
            .zip(self.representatives.iter().zip(&self.sizes))
            .map(|(row, (&m, &size))| (row[j], f64::from(scale_factors[m]) * size as f64))
            .collect()
    }

    /// Each job's fractions: its class's solved values, clamped to `[0, 1]`.
    pub(crate) fn expand(&self, vars: &[Vec<Var>], solution: &LpSolution) -> Vec<Vec<f64>> {
        self.class_of
            .iter()
            .map(|&class| vars[class].iter().map(|&var| solution.value(var).clamp(0.0, 1.0)).collect())
            .collect()
    }
}
