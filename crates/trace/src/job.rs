//! The normalised trace job, [`TraceJob`], and the loaded [`Trace`].

use schedlab_core::TraceStatus;
use std::collections::HashMap;
use std::path::PathBuf;

/// An interned string: an index into [`Symbols`]; 0 means "none".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sym(pub u32);

impl Sym {
    /// The absent value.
    pub const NONE: Sym = Sym(0);

    /// Returns true if and only if the symbol is absent.
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// Interned strings (users, VCs, GPU types, job types, names), so that a job stays small.
#[derive(Clone, Debug)]
pub struct Symbols {
    strings: Vec<Box<str>>,
    index: HashMap<Box<str>, u32>,
}

impl Default for Symbols {
    fn default() -> Symbols {
        Symbols { strings: vec!["".into()], index: HashMap::new() }
    }
}

impl Symbols {
    /// Returns the symbol of `text`, adding it if new; the empty string is [`Sym::NONE`].
    pub fn intern(&mut self, text: &str) -> Sym {
        if text.is_empty() {
            return Sym::NONE;
        }
        if let Some(&index) = self.index.get(text) {
            return Sym(index);
        }
        let index = self.strings.len() as u32;
        self.strings.push(text.into());
        self.index.insert(text.into(), index);
        Sym(index)
    }

    /// Returns the text of a symbol, or `None` for [`Sym::NONE`].
    pub fn get(&self, sym: Sym) -> Option<&str> {
        if sym.is_none() { None } else { Some(&self.strings[sym.0 as usize]) }
    }

    /// Returns the number of distinct strings.
    pub fn len(&self) -> usize {
        self.strings.len() - 1
    }

    /// Returns true if and only if no string is interned.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Returns an estimate of the heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        let text: usize = self.strings.iter().map(|text| text.len()).sum();
        // Each string is stored twice (vector and map key), plus map and vector overhead.
        2 * text + self.strings.len() * (16 + 16 + 4 + 8)
    }
}

/// One job of a trace in a common form. Times in seconds, memory in GiB.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceJob {
    /// Submission time: seconds since the Unix epoch of the trace's wall clock for formats with
    /// dates (see [`Clock`]), else seconds since the trace's start.
    pub submit: f64,
    /// Run time in seconds, if the trace records it.
    pub duration: Option<f64>,
    /// GPUs requested; fractional where the trace shares GPUs (Alibaba).
    pub gpus: f64,
    /// CPU cores requested, if known.
    pub cpus: Option<f32>,
    /// Memory in GiB, if known.
    pub mem_gib: Option<f32>,
    /// Work in steps, if the trace gives it (Gavel traces).
    pub work: Option<f64>,
    /// Priority weight (1 unless the trace says otherwise).
    pub weight: f32,
    /// Line of the job's row in its file (1-based; for JSON, the job's index + 1).
    pub line: u32,
    /// The job's name or id in the trace.
    pub name: Sym,
    /// Submitting user.
    pub user: Sym,
    /// Virtual cluster, queue or group.
    pub vc: Sym,
    /// GPU type required or used, if known.
    pub gpu_type: Sym,
    /// Model or application, if known (Gavel, Pollux).
    pub job_type: Sym,
    /// Batch size, if known.
    pub batch_size: Option<u32>,
    /// Final status.
    pub status: TraceStatus,
}

impl TraceJob {
    /// Returns a job submitted at `submit` with `gpus` GPUs and every optional field empty.
    pub fn new(submit: f64, gpus: f64, line: u32) -> TraceJob {
        TraceJob {
            submit,
            duration: None,
            gpus,
            cpus: None,
            mem_gib: None,
            work: None,
            weight: 1.0,
            line,
            name: Sym::NONE,
            user: Sym::NONE,
            vc: Sym::NONE,
            gpu_type: Sym::NONE,
            job_type: Sym::NONE,
            batch_size: None,
            status: TraceStatus::Unknown,
        }
    }
}

/// What submission times count from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Seconds since the Unix epoch, read from naive wall-clock dates (Philly, Helios).
    WallClock,
    /// Seconds since the start of the trace.
    Relative,
}

/// What a loader read, kept and left out, and why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadSummary {
    /// Data rows read (header and blank lines excluded).
    pub rows: usize,
    /// Jobs kept.
    pub kept: usize,
    /// Rows left out, with the reason and how many.
    pub dropped: Vec<(String, usize)>,
    /// Rows kept after a documented correction, with the correction and how many.
    pub adjusted: Vec<(String, usize)>,
}

impl LoadSummary {
    /// Counts one row left out for `reason`.
    pub fn drop_row(&mut self, reason: &str) {
        count_one(&mut self.dropped, reason);
    }

    /// Counts one row kept after `correction`.
    pub fn adjust_row(&mut self, correction: &str) {
        count_one(&mut self.adjusted, correction);
    }
}

/// Adds one to the count of `what`, first seen now or before.
fn count_one(counts: &mut Vec<(String, usize)>, what: &str) {
    match counts.iter_mut().find(|(known, _)| known == what) {
        Some((_, count)) => *count += 1,
        None => counts.push((what.to_string(), 1)),
    }
}

/// A loaded trace: jobs in file order, their strings, and the load summary.
#[derive(Clone, Debug)]
pub struct Trace {
    /// The format's name.
    pub format: &'static str,
    /// The file read (the job table, for two-file formats).
    pub path: PathBuf,
    /// The jobs, in file order.
    pub jobs: Vec<TraceJob>,
    /// Strings the jobs refer to.
    pub symbols: Symbols,
    /// What submission times count from.
    pub clock: Clock,
    /// What was read and left out.
    pub summary: LoadSummary,
}

impl Trace {
    /// Returns an empty trace of `format` read from `path`.
    pub fn new(format: &'static str, path: impl Into<PathBuf>, clock: Clock) -> Trace {
        Trace {
            format,
            path: path.into(),
            jobs: Vec::new(),
            symbols: Symbols::default(),
            clock,
            summary: LoadSummary::default(),
        }
    }

    /// Adds a job and counts it as kept.
    pub fn push(&mut self, job: TraceJob) {
        self.jobs.push(job);
        self.summary.kept += 1;
    }

    /// Returns the bytes held per job (job records plus interned strings), for memory budgets.
    pub fn bytes_per_job(&self) -> f64 {
        let bytes = self.jobs.capacity() * std::mem::size_of::<TraceJob>() + self.symbols.heap_bytes();
        bytes as f64 / self.jobs.len().max(1) as f64
    }
}
