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
    common.extend(args.sbatch.iter().map(|line| format!("#SBATCH {}", line.strip_prefix("#SBATCH ").unwrap_or(line))));
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

/// Refuses an option value that could mean more than its option in the scripts: every value
/// written into them must stay on its line and be one word of the form sbatch documents.
fn check_options(args: &SlurmArgs) -> Result<()> {
    let plain = |value: &str, allowed: &dyn Fn(char) -> bool| !value.is_empty() && value.chars().all(allowed);
    if let Some(partition) = &args.partition
        && !plain(partition, &|c| c.is_ascii_alphanumeric() || "_-.,".contains(c))
    {
        bail!("--partition {partition:?}: expected partition names (letters, digits, '_', '-', '.', commas between)");
    }
    if let Some(time) = &args.time
        && !(plain(time, &|c| c.is_ascii_digit() || c == ':' || c == '-')
            || ["UNLIMITED", "INFINITE"].contains(&time.to_ascii_uppercase().as_str()))
    {
        bail!(
            "--time {time:?}: expected a time limit as sbatch takes it: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS"
        );
    }
    if let Some(mem) = &args.mem {
        let digits = mem.trim_end_matches(['K', 'M', 'G', 'T', 'k', 'm', 'g', 't']);
        if !plain(digits, &|c| c.is_ascii_digit()) || mem.len() > digits.len() + 1 {
            bail!(
                "--mem {mem:?}: expected a size as sbatch takes it: a whole number with an optional unit K, M, G or T"
            );
        }
    }
    for line in &args.sbatch {
        let option = line.strip_prefix("#SBATCH ").unwrap_or(line);
        if line.chars().any(char::is_control) || !option.starts_with('-') {
            bail!(
                "--sbatch {line:?}: expected one line holding one sbatch option, such as --account=lab (or \
                 '#SBATCH --account=lab')"
            );
        }
    }
    Ok(())
}

/// Refuses a value written into an `#SBATCH` directive (a job name, a folder) that holds a
/// control character, a space or a `%`: sbatch reads a directive up to the first space, a line
/// break would start a shell command, and sbatch expands `%` patterns (`%j`, `%a`, `%u`) in the
/// file names of `--output`, so a log would go somewhere else.
fn check_directive_word(what: &str, value: &str) -> Result<()> {
    if value.chars().any(|c| c.is_control() || c.is_whitespace()) {
        bail!(
            "{what} {value:?} holds a space or a control character, which an #SBATCH line cannot take; use one without"
        );
    }
    if value.contains('%') {
        bail!(
            "{what} {value:?} holds a '%', which sbatch would expand as a pattern (%j, %a, %u) in the log files' names; use a folder without one"
        );
    }
    Ok(())
}

/// `schedlab slurm SPEC --array N`.
pub fn slurm(args: &SlurmArgs) -> Result<()> {
    if args.array == 0 {
        bail!("--array 0: expected at least one array task");
    }
    if args.cpus_per_task == 0 {
        bail!("--cpus-per-task 0: expected at least one CPU per task");
    }
    check_options(args)?;
    // Resolving checks the spec as `run` would, so that no array task fails on a spec mistake.
    let experiment = crate::specs::load(&args.spec, &DataDir::locate())?;
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
    check_directive_word("the experiment's name", experiment.name())?;
    check_directive_word("the working folder", &paths.workdir.display().to_string())?;
    check_directive_word("the results folder", &paths.experiment_dir.display().to_string())?;
    for (what, path) in [("the schedlab binary", &paths.binary), ("the spec", &paths.spec)] {
        // Quoted for the shell (see `quote`), so only a line break could change what it means.
        if path.display().to_string().chars().any(char::is_control) {
            bail!("{what} '{}' holds a control character; scripts cannot name it safely", path.display());
        }
    }
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

    #[test]
    fn an_option_value_cannot_add_a_line_to_the_scripts() {
        let with = |change: &dyn Fn(&mut SlurmArgs)| {
            let mut args = args(2);
            change(&mut args);
            check_options(&args).map_err(|error| error.to_string())
        };
        assert!(with(&|_| {}).is_ok());
        let error = with(&|args| args.partition = Some("cpu\ntouch pwned".into())).unwrap_err();
        assert!(error.starts_with("--partition \"cpu\\ntouch pwned\": expected partition names"), "{error}");
        assert!(with(&|args| args.time = Some("1:00:00\nrm -rf x".into())).unwrap_err().starts_with("--time"));
        assert!(with(&|args| args.time = Some("2-12:00:00".into())).is_ok());
        assert!(with(&|args| args.mem = Some("8G; id".into())).unwrap_err().starts_with("--mem"));
        assert!(with(&|args| args.mem = Some("8000M".into())).is_ok());
        assert!(with(&|args| args.sbatch = vec!["--account=lab\nid".into()]).unwrap_err().starts_with("--sbatch"));
        assert!(with(&|args| args.sbatch = vec!["--account=lab\rid".into()]).unwrap_err().starts_with("--sbatch"));
        assert!(with(&|args| args.sbatch = vec!["#SBATCH --qos=high".into()]).is_ok());
        assert!(with(&|args| args.sbatch = vec!["echo hi".into()]).is_err());
        assert!(check_directive_word("the results folder", "/home/me/my results").is_err());
        assert!(check_directive_word("the results folder", "/home/me/results\nid").is_err());
        assert!(check_directive_word("the results folder", "/home/me/results").is_ok());
        // sbatch would write the logs of `/home/me/100%done/x/slurm/shard-%a.out` under
        // `/home/me/100<something>one/...`.
        let error = check_directive_word("the results folder", "/home/me/100%done/x").unwrap_err().to_string();
        assert!(error.contains("holds a '%', which sbatch would expand"), "{error}");
    }
}
