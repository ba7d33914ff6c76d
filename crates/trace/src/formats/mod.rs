//! One module per trace format; [`TraceFormat`] names them and dispatches.

pub mod alibaba;
pub mod gavel;
pub mod helios;
pub mod philly;
pub mod pollux;
pub mod rltune;

use crate::{Trace, TraceError};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// Every supported trace format, by the name used in specs and on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum TraceFormat {
    /// `philly/philly-pollux.csv` (Pollux/Sia's Philly extract).
    PhillyPollux,
    /// `philly/philly-gavel-distribution.csv` (Gavel's sampling distribution).
    PhillyGavelDist,
    /// Philly's raw `cluster_job_log` JSON.
    PhillyRaw,
    /// Helios `cluster_log.csv`.
    Helios,
    /// `helios/helios-dirlab-15k.csv`.
    HeliosDirlab,
    /// Alibaba PAI 2020 job + task tables.
    AlibabaPai,
    /// Alibaba 2023 OpenB pod list.
    AlibabaOpenb,
    /// Gavel `.trace` TSV (10 or 7 columns).
    Gavel,
    /// Pollux `workload-N.csv`.
    Pollux,
    /// RLTune's 19-column SWF-like CSV.
    RltuneSwf,
}

impl TraceFormat {
    /// Every format, in the order `schedlab list formats` shows them (fuzz inputs pick a format by
    /// its index here: a new format goes at the end).
    pub const ALL: [TraceFormat; 10] = [
        TraceFormat::PhillyPollux,
        TraceFormat::PhillyGavelDist,
        TraceFormat::PhillyRaw,
        TraceFormat::Helios,
        TraceFormat::HeliosDirlab,
        TraceFormat::AlibabaPai,
        TraceFormat::AlibabaOpenb,
        TraceFormat::Gavel,
        TraceFormat::Pollux,
        TraceFormat::RltuneSwf,
    ];

    /// Returns the format's name.
    pub fn name(self) -> &'static str {
        match self {
            TraceFormat::PhillyPollux => "philly-pollux",
            TraceFormat::PhillyGavelDist => "philly-gavel-dist",
            TraceFormat::PhillyRaw => "philly-raw",
            TraceFormat::Helios => "helios",
            TraceFormat::HeliosDirlab => "helios-dirlab",
            TraceFormat::AlibabaPai => "alibaba-pai",
            TraceFormat::AlibabaOpenb => "alibaba-openb",
            TraceFormat::Gavel => "gavel",
            TraceFormat::Pollux => "pollux",
            TraceFormat::RltuneSwf => "rltune-swf",
        }
    }

    /// Returns a one-line description with the usual file.
    pub fn description(self) -> &'static str {
        match self {
            TraceFormat::PhillyPollux => "Philly jobs as extracted by Pollux/Sia (philly/philly-pollux.csv)",
            TraceFormat::PhillyGavelDist => {
                "(duration, GPUs) pairs Gavel samples from (philly/philly-gavel-distribution.csv)"
            }
            TraceFormat::PhillyRaw => "Philly cluster_job_log JSON (attempts, US-Pacific times)",
            TraceFormat::Helios => "Helios cluster_log.csv (per cluster)",
            TraceFormat::HeliosDirlab => "15,000 Helios jobs from DIR-LAB (helios/helios-dirlab-15k.csv)",
            TraceFormat::AlibabaPai => "Alibaba PAI 2020 pai_job_table.csv joined with pai_task_table.csv",
            TraceFormat::AlibabaOpenb => "Alibaba 2023 OpenB pods with fractional GPUs (alibaba/openb-v2023/)",
            TraceFormat::Gavel => "Gavel .trace TSV, 10- or 7-column (gavel/traces/)",
            TraceFormat::Pollux => "Pollux evaluation workloads (pollux/workloads*/workload-N.csv)",
            TraceFormat::RltuneSwf => "RLTune's 19-column SWF-like trace (rltune/synthetic_trace.csv)",
        }
    }

    /// Loads a file of this format with default options.
    pub fn load(self, path: &Path) -> Result<Trace, TraceError> {
        let trace = match self {
            TraceFormat::PhillyPollux => philly::load_pollux(path),
            TraceFormat::PhillyGavelDist => philly::load_gavel_distribution(path),
            TraceFormat::PhillyRaw => philly::load_raw(path, philly::PhillyRawOptions::default()),
            TraceFormat::Helios => helios::load(path),
            TraceFormat::HeliosDirlab => helios::load_dirlab(path),
            TraceFormat::AlibabaPai => alibaba::load_pai(path),
            TraceFormat::AlibabaOpenb => alibaba::load_openb(path),
            TraceFormat::Gavel => gavel::load(path),
            TraceFormat::Pollux => pollux::load(path),
            TraceFormat::RltuneSwf => rltune::load(path),
        }?;
        check_magnitudes(&trace)?;
        Ok(trace)
    }
}

/// Largest submission time accepted, in seconds (about 3,000 years: dates count from 1970).
pub const MAX_SUBMIT_SECONDS: f64 = 1e11;
/// Longest run time accepted, in seconds (about 31 years).
pub const MAX_DURATION_SECONDS: f64 = 1e9;
/// Most GPUs one job may ask for.
pub const MAX_JOB_GPUS: f64 = 1e6;
/// Most work (steps or seconds) one job may record.
pub const MAX_WORK: f64 = 1e15;
/// Most CPU cores, or GiB of memory, one job may ask for.
pub const MAX_CPUS_OR_GIB: f32 = 1e7;

/// A number as a message shows it: exponent form when very large or small.
fn show(value: f64) -> String {
    if value != 0.0 && !(1e-3..1e9).contains(&value.abs()) { format!("{value:e}") } else { format!("{value}") }
}

/// Refuses values no real job has (finite but absurd, such as a duration of 1e308 s, or a sum of
/// inter-arrival times that overflowed): they would overflow or stall the engine later. The error
/// names the row and the bound.
pub(crate) fn check_magnitudes(trace: &Trace) -> Result<(), TraceError> {
    for job in &trace.jobs {
        let at = |message: String| TraceError::row(&trace.path, u64::from(job.line), message);
        if !(0.0..=MAX_SUBMIT_SECONDS).contains(&job.submit) {
            return Err(at(format!(
                "a submission time of {} s is out of range; expected 0 to {MAX_SUBMIT_SECONDS:e} s (for dates, \
                 1970-01-01 to the year 5138)",
                show(job.submit)
            )));
        }
        if let Some(duration) = job.duration.filter(|&duration| !(0.0..=MAX_DURATION_SECONDS).contains(&duration)) {
            return Err(at(format!(
                "a duration of {} s is out of range; expected 0 to {MAX_DURATION_SECONDS:e} s (31 years)",
                show(duration)
            )));
        }
        if !(0.0..=MAX_JOB_GPUS).contains(&job.gpus) {
            return Err(at(format!("{} GPUs is out of range; expected 0 to {MAX_JOB_GPUS:e}", show(job.gpus))));
        }
        if let Some(work) = job.work.filter(|&work| !(0.0..=MAX_WORK).contains(&work)) {
            return Err(at(format!("work of {} is out of range; expected 0 to {MAX_WORK:e}", show(work))));
        }
        for (what, value) in [("CPU cores", job.cpus), ("GiB of memory", job.mem_gib)] {
            if let Some(value) = value.filter(|&value| !(0.0..=MAX_CPUS_OR_GIB).contains(&value)) {
                return Err(at(format!(
                    "{} {what} is out of range; expected 0 to {MAX_CPUS_OR_GIB:e}",
                    show(f64::from(value))
                )));
            }
        }
    }
    Ok(())
}

impl fmt::Display for TraceFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TraceFormat {
    type Err = String;
    fn from_str(text: &str) -> Result<TraceFormat, String> {
        TraceFormat::ALL.iter().copied().find(|format| format.name() == text).ok_or_else(|| {
            let known: Vec<&str> = TraceFormat::ALL.iter().map(|format| format.name()).collect();
            format!("unknown trace format '{text}'; known formats: {}", known.join(", "))
        })
    }
}

impl TryFrom<String> for TraceFormat {
    type Error = String;
    fn try_from(text: String) -> Result<TraceFormat, String> {
        text.parse()
    }
}

impl From<TraceFormat> for String {
    fn from(format: TraceFormat) -> String {
        format.name().to_string()
    }
}
