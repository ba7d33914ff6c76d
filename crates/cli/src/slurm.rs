//! `schedlab slurm SPEC --array N`: the sbatch scripts that run a sweep as a Slurm job array
//! (one shard per task) and then build its reports in a dependent job.

use crate::flags::SlurmArgs;
use anyhow::{Context as _, Result, bail};
use schedlab_core::DataDir;
use std::path::{Path, PathBuf};

/// Quotes a word for a POSIX shell.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// `path` made absolute against the current directory (array tasks may start elsewhere).
fn absolute(path: &Path) -> Result<PathBuf> {
    Ok(if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir()?.join(path) })
}

/// The three files: `shards.sbatch`, `report.sbatch` and `submit.sh`.
pub struct Scripts {
    /// The array job: task I runs `run SPEC --shard I/N`.
    pub shards: String,
    /// The report job.
    pub report: String,
    /// Submits the array, then the report with `afterok` on it.
    pub submit: String,
}

/// What the scripts run: the binary, the spec (relative to the folder tasks start in when it
/// is inside it, else absolute) and the results folder (absolute), the folder tasks start in,
/// and the experiment folder where logs go.
pub struct Paths {
    /// The `schedlab` binary.
    pub binary: PathBuf,
    /// The spec file.
    pub spec: PathBuf,
    /// The `--results` folder (absolute).
    pub results: PathBuf,
    /// The working directory of the tasks (where the data directory is found, as locally).
    pub workdir: PathBuf,
    /// `RESULTS/<name>`.
    pub experiment_dir: PathBuf,
}

/// Writes the scripts' text.
pub fn scripts(name: &str, args: &SlurmArgs, paths: &Paths) -> Scripts {
    let logs = paths.experiment_dir.join("slurm");
    let mut common = Vec::new();
    if let Some(partition) = &args.partition {
        common.push(format!("#SBATCH --partition={partition}"));
    }
    if let Some(time) = &args.time {
        common.push(format!("#SBATCH --time={time}"));
    }
    if let Some(mem) = &args.mem {
        common.push(format!("#SBATCH --mem={mem}"));
    }
    common.push(format!("#SBATCH --cpus-per-task={}", args.cpus_per_task));
    common.push(format!("#SBATCH --chdir={}", paths.workdir.display()));
    common.extend(args.sbatch.iter().map(|line| format!("#SBATCH {line}")));
    let common = common.join("\n");
    let (binary, spec, results) = (
        quote(&paths.binary.display().to_string()),
        quote(&paths.spec.display().to_string()),
        quote(&paths.results.display().to_string()),
    );
    let count = args.array;
    let shards = format!(
        "#!/bin/bash
# Written by `schedlab slurm`: experiment '{name}' as {count} shards, one per array task. Each
# task stores its runs in the shared result store; a failed task can be submitted again alone
# (`sbatch --array=I shards.sbatch`): finished runs are reused.
#SBATCH --job-name=schedlab-{name}
#SBATCH --array=0-{last}
#SBATCH --output={logs}/shard-%a.out
{common}
set -euo pipefail
exec {binary} run {spec} --results {results} --shard \"${{SLURM_ARRAY_TASK_ID}}/{count}\" --threads \"${{SLURM_CPUS_PER_TASK:-1}}\"
",
        last = count - 1,
        logs = logs.display(),
    );
    let report = format!(
        "#!/bin/bash
# Written by `schedlab slurm`: the tables, plots, claims.md and manifest of '{name}' from the
# store its shards filled. Fails naming any shard whose runs are missing.
#SBATCH --job-name=schedlab-{name}-report
#SBATCH --output={logs}/report.out
{common}
set -euo pipefail
exec {binary} report {spec} --results {results} --threads \"${{SLURM_CPUS_PER_TASK:-1}}\"
",
        logs = logs.display(),
    );
    let submit = format!(
        "#!/bin/sh
# Written by `schedlab slurm`: submits the array of '{name}', then its report once every task
# succeeded (a failed task cancels the report: resubmit that task, then report.sbatch).
# `sh submit.sh --wait` returns when the report job ends, with its exit status.
set -eu
cd \"$(dirname \"$0\")\"
array=$(sbatch --parsable shards.sbatch)
array=${{array%%;*}}
echo \"array job $array: {count} shards of {name}\"
if [ \"${{1:-}}\" != --wait ]; then
    sbatch --dependency=afterok:\"$array\" --kill-on-invalid-dep=yes report.sbatch
    exit 0
fi
# sbatch --wait exits 0 for a job cancelled before it started: ask Slurm how the report ended.
submitted=$(sbatch --wait --dependency=afterok:\"$array\" --kill-on-invalid-dep=yes report.sbatch) || status=$?
echo \"$submitted\"
report=${{submitted##* }}
state=$(scontrol show job \"$report\" -o | sed -n 's/.*JobState=\\([A-Z_]*\\).*/\\1/p')
if [ \"${{status:-0}}\" != 0 ] || [ \"$state\" != COMPLETED ]; then
    echo \"report job $report ended $state: see report.out and shard-*.out; resubmit a failed task with sbatch --array=I shards.sbatch\" >&2
    exit 1
fi
"
    );
    Scripts { shards, report, submit }
}

/// `schedlab slurm SPEC --array N`.
pub fn slurm(args: &SlurmArgs) -> Result<()> {
    if args.array == 0 {
        bail!("--array 0: expected at least one array task");
    }
    if args.cpus_per_task == 0 {
        bail!("--cpus-per-task 0: expected at least one CPU per task");
    }
    for line in &args.sbatch {
        if line.contains('\n') || !line.starts_with('-') {
            bail!("--sbatch '{line}': expected one sbatch option such as --account=lab");
        }
    }
    // Resolving checks the spec as `run` would, so that no array task fails on a spec mistake.
    let experiment = crate::run::load(&args.spec, &DataDir::locate())?;
    let results = absolute(&args.results)?;
    let workdir = std::env::current_dir()?;
    // Tasks start in this folder: a spec inside it keeps its relative name, which reports show.
    let spec = absolute(&args.spec)?;
    let spec = spec.strip_prefix(&workdir).map_or_else(|_| spec.clone(), Path::to_path_buf);
    let paths = Paths {
        binary: std::env::current_exe().context("cannot find the schedlab binary")?,
        spec,
        experiment_dir: results.join(experiment.name()),
        results,
        workdir,
    };
    let scripts = scripts(experiment.name(), args, &paths);
    let folder = paths.experiment_dir.join("slurm");
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    for (file, text) in
        [("shards.sbatch", &scripts.shards), ("report.sbatch", &scripts.report), ("submit.sh", &scripts.submit)]
    {
        let path = folder.join(file);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    println!(
        "{}: {} shards as a Slurm array in {}\n  submit: sh {}/submit.sh   (or `sbatch shards.sbatch`, then `sbatch report.sbatch`)",
        experiment.name(),
        args.array,
        folder.display(),
        folder.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(array: usize) -> SlurmArgs {
        SlurmArgs {
            spec: "spec.yaml".into(),
            array,
            partition: Some("gpu".into()),
            time: None,
            cpus_per_task: 4,
            mem: None,
            sbatch: vec!["--account=lab".into()],
            results: "results".into(),
        }
    }

    #[test]
    fn the_array_has_one_task_per_shard_and_the_report_waits_for_all() {
        let paths = Paths {
            binary: "/opt/schedlab".into(),
            spec: "/home/me/it's.yaml".into(),
            results: "/home/me/results".into(),
            workdir: "/home/me".into(),
            experiment_dir: "/home/me/results/x".into(),
        };
        let scripts = scripts("x", &args(8), &paths);
        assert!(scripts.shards.contains("#SBATCH --array=0-7\n"), "{}", scripts.shards);
        assert!(scripts.shards.contains("--shard \"${SLURM_ARRAY_TASK_ID}/8\""));
        assert!(scripts.shards.contains("#SBATCH --partition=gpu\n#SBATCH --cpus-per-task=4\n"));
        assert!(scripts.shards.contains("#SBATCH --account=lab\n"));
        assert!(scripts.shards.contains("#SBATCH --output=/home/me/results/x/slurm/shard-%a.out"));
        // A quote in a path stays one word.
        assert!(scripts.shards.contains(r"'/home/me/it'\''s.yaml'"), "{}", scripts.shards);
        assert!(scripts.report.contains("exec '/opt/schedlab' report"));
        assert!(scripts.submit.contains("--dependency=afterok:\"$array\" --kill-on-invalid-dep=yes"));
    }
}
