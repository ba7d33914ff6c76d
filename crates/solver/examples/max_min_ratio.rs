//! Solves one max-min ratio LP with `maxmin-ipm` and prints its solution, for comparisons with
//! other solvers (`scripts/gavel/maxmin_ipm_vs_ecos.py`).
//!
//! Input on stdin, whitespace-separated: `jobs types`, the `types` capacities, then per job its
//! GPU use, its demand and its `types` rates. Output: `t` on the first line, then one line per
//! job with its time fractions.

use schedlab_solver::max_min::{MaxMinRatio, solve_max_min_ratio};
use std::io::Read;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let numbers: Vec<f64> = text.split_whitespace().map(str::parse).collect::<Result<_, _>>()?;
    let mut next = numbers.into_iter();
    let mut take = |what: &str| next.next().ok_or_else(|| format!("input ends before {what}"));
    let (jobs, types) = (take("the number of jobs")? as usize, take("the number of types")? as usize);
    let capacity: Vec<f64> = (0..types).map(|_| take("a capacity")).collect::<Result<_, _>>()?;
    let (mut gpu_use, mut demand, mut rates) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..jobs {
        gpu_use.push(take("a job's GPU use")?);
        demand.push(take("a job's demand")?);
        rates.push((0..types).map(|_| take("a job's rate")).collect::<Result<Vec<f64>, _>>()?);
    }
    let problem = MaxMinRatio {
        name: "stdin",
        rates: &rates,
        demand: &demand,
        offset: None,
        gpu_use: &gpu_use,
        capacity: &capacity,
    };
    let solution = solve_max_min_ratio(&problem)?;
    println!("{}", solution.ratio);
    for row in &solution.fractions {
        println!("{}", row.iter().map(f64::to_string).collect::<Vec<_>>().join(" "));
    }
    Ok(())
}
