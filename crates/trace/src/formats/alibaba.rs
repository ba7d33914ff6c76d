//! Alibaba: PAI 2020 job and task tables, and the 2023 OpenB pod list.

use crate::csvfile::CsvFile;
use crate::{Clock, Sym, Trace, TraceError, TraceJob};
use schedlab_core::TraceStatus;
use std::collections::HashMap;
use std::path::Path;

/// Per-job totals from the task table.
#[derive(Default)]
struct TaskTotals {
    gpus: f64,
    cpus: f64,
    mem_gib: f64,
    gpu_type: Sym,
}

/// Loads `alibaba-pai`: the headerless `pai_job_table.csv` (`job_name,inst_id,user,status,
/// start_time,end_time`) joined with `pai_task_table.csv` from the same folder
/// (`job_name,task_name,inst_num,status,start_time,end_time,plan_cpu,plan_mem,plan_gpu,gpu_type`).
///
/// A job's GPUs are the sum over its tasks of `inst_num x plan_gpu / 100` (plan_gpu is percent
/// of one GPU), CPUs likewise from `plan_cpu` (percent of a core), memory from `plan_mem` (GB);
/// its GPU type is that of its first task that names one. Submit is the job's `start_time` and
/// duration `end_time - start_time`. Jobs never started (time 0), without an end, or without
/// tasks are left out and counted. Only `Terminated` is success.
pub fn load_pai(job_table: &Path) -> Result<Trace, TraceError> {
    const JOB_COLUMNS: &[&str] = &["job_name", "inst_id", "user", "status", "start_time", "end_time"];
    const TASK_COLUMNS: &[&str] = &[
        "job_name",
        "task_name",
        "inst_num",
        "status",
        "start_time",
        "end_time",
        "plan_cpu",
        "plan_mem",
        "plan_gpu",
        "gpu_type",
    ];
    let task_table = job_table.with_file_name("pai_task_table.csv");
    let mut trace = Trace::new("alibaba-pai", job_table, Clock::Relative);
    let mut totals: HashMap<String, TaskTotals> = HashMap::new();
    let mut tasks = CsvFile::open(&task_table, false, TASK_COLUMNS)?;
    while tasks.next()? {
        let instances = tasks.number(2, "a number of instances")?;
        let cpu = tasks.optional_number(6, "CPU in percent of a core", &[])?.unwrap_or(0.0);
        let mem = tasks.optional_number(7, "memory in GB", &[])?.unwrap_or(0.0);
        let gpu = tasks.optional_number(8, "GPU in percent of one GPU", &[])?.unwrap_or(0.0);
        if instances < 0.0 || cpu < 0.0 || mem < 0.0 || gpu < 0.0 {
            return Err(tasks.error("inst_num, plan_cpu, plan_mem and plan_gpu must be >= 0".into()));
        }
        let gpu_type = tasks.text(9)?.to_string();
        let entry = totals.entry(tasks.text(0)?.to_string()).or_default();
        entry.gpus += instances * gpu / 100.0;
        entry.cpus += instances * cpu / 100.0;
        entry.mem_gib += instances * mem;
        if entry.gpu_type.is_none() && gpu > 0.0 {
            entry.gpu_type = trace.symbols.intern(&gpu_type);
        }
    }
    let mut jobs = CsvFile::open(job_table, false, JOB_COLUMNS)?;
    while jobs.next()? {
        trace.summary.rows += 1;
        let start = jobs.number(4, "a time in seconds")?;
        let end = jobs.number(5, "a time in seconds")?;
        if start == 0.0 {
            trace.summary.drop_row("never started (start_time 0)");
            continue;
        }
        if end == 0.0 || end < start {
            trace.summary.drop_row("no end time (end_time 0 or before start)");
            continue;
        }
        let Some(task) = totals.get(jobs.text(0)?) else {
            trace.summary.drop_row("no tasks in the task table");
            continue;
        };
        let status = match jobs.text(3)? {
            "Terminated" => TraceStatus::Completed,
            "Failed" => TraceStatus::Failed,
            "Running" | "Waiting" => TraceStatus::Unknown,
            _ => return Err(jobs.invalid(3, "Terminated, Failed, Running or Waiting")),
        };
        let mut job = TraceJob::new(start, task.gpus, jobs.line() as u32);
        job.duration = Some(end - start);
        job.cpus = Some(task.cpus as f32);
        job.mem_gib = Some(task.mem_gib as f32);
        job.gpu_type = task.gpu_type;
        job.status = status;
        job.name = trace.symbols.intern(jobs.text(0)?);
        job.user = trace.symbols.intern(jobs.text(2)?);
        trace.push(job);
    }
    Ok(trace)
}

/// Loads `alibaba-openb`: `openb_pod_list_*.csv` with header `name,cpu_milli,memory_mib,num_gpu,
/// gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time`.
///
/// GPUs are `num_gpu x gpu_milli / 1000` (fractional for shared GPUs), CPUs `cpu_milli / 1000`,
/// memory `memory_mib / 1024`; `gpu_spec` (a model constraint, often empty) becomes the GPU
/// type. Submit is `creation_time`; duration is `deletion_time - scheduled_time`. Pods never
/// scheduled (empty `scheduled_time`) are left out and counted. `Succeeded` is success.
pub fn load_openb(path: &Path) -> Result<Trace, TraceError> {
    const COLUMNS: &[&str] = &[
        "name",
        "cpu_milli",
        "memory_mib",
        "num_gpu",
        "gpu_milli",
        "gpu_spec",
        "qos",
        "pod_phase",
        "creation_time",
        "deletion_time",
        "scheduled_time",
    ];
    let mut csv = CsvFile::open(path, true, COLUMNS)?;
    let mut trace = Trace::new("alibaba-openb", path, Clock::Relative);
    while csv.next()? {
        trace.summary.rows += 1;
        let Some(scheduled) = csv.optional_number(10, "a time in seconds", &[])? else {
            trace.summary.drop_row("never scheduled (empty scheduled_time)");
            continue;
        };
        let Some(deleted) = csv.optional_number(9, "a time in seconds", &[])? else {
            trace.summary.drop_row("no deletion_time");
            continue;
        };
        let created = csv.number(8, "a time in seconds")?;
        if deleted < scheduled || scheduled < created {
            return Err(csv.error("expected creation_time <= scheduled_time <= deletion_time".into()));
        }
        let num_gpu = csv.whole(3, "a whole number of GPUs")?;
        let gpu_milli = csv.number(4, "thousandths of a GPU")?;
        if !(0.0..=1000.0).contains(&gpu_milli) {
            return Err(csv.invalid(4, "thousandths of a GPU between 0 and 1000"));
        }
        let status = match csv.text(7)? {
            "Succeeded" => TraceStatus::Completed,
            "Failed" => TraceStatus::Failed,
            "Running" | "Pending" => TraceStatus::Unknown,
            _ => return Err(csv.invalid(7, "Succeeded, Failed, Running or Pending")),
        };
        let mut job = TraceJob::new(created, f64::from(num_gpu) * gpu_milli / 1000.0, csv.line() as u32);
        job.duration = Some(deleted - scheduled);
        job.cpus = Some((csv.number(1, "CPU in millicores")? / 1000.0) as f32);
        job.mem_gib = Some((csv.number(2, "memory in MiB")? / 1024.0) as f32);
        job.status = status;
        job.name = trace.symbols.intern(csv.text(0)?);
        job.gpu_type = trace.symbols.intern(csv.text(5)?);
        trace.push(job);
    }
    Ok(trace)
}
