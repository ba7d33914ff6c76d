use crate::common::fixture;
use schedlab_core::TraceStatus;
use schedlab_trace::datetime::{format_naive, parse_naive};
use schedlab_trace::formats::philly::{self, AttemptDuration, AttemptGpus, PhillyClock, PhillyRawOptions};
use schedlab_trace::{Clock, TraceFormat};

#[test]
fn philly_pollux_keeps_file_order_duplicates_and_skips_the_blank_line() {
    let trace = TraceFormat::PhillyPollux.load(&fixture("philly-pollux.csv")).unwrap();
    assert_eq!(trace.summary.rows, 5);
    assert_eq!(trace.jobs.len(), 5);
    assert_eq!(trace.clock, Clock::WallClock);
    assert_eq!(format_naive(trace.jobs[0].submit as i64), "2017-10-09 07:01:55");
    assert!(trace.jobs[1].submit < trace.jobs[0].submit, "rows stay unsorted");
    assert_eq!(trace.jobs[0], schedlab_trace::TraceJob { line: trace.jobs[0].line, ..trace.jobs[3] });
    assert_eq!(trace.jobs[4].gpus, 16.0);
    assert_eq!(trace.symbols.get(trace.jobs[4].vc), Some("b436b2"));
    assert_eq!(trace.jobs[2].line, 4);
}

#[test]
fn philly_gavel_distribution_is_pairs_at_time_zero() {
    let trace = TraceFormat::PhillyGavelDist.load(&fixture("philly-gavel-dist.csv")).unwrap();
    let pairs: Vec<(f64, f64)> = trace.jobs.iter().map(|job| (job.duration.unwrap(), job.gpus)).collect();
    assert_eq!(pairs, vec![(860662.0, 1.0), (7944.0, 1.0), (3600.0, 4.0)]);
    assert!(trace.jobs.iter().all(|job| job.submit == 0.0));
}

#[test]
fn philly_raw_handles_none_times_zero_attempts_and_retries() {
    let trace = TraceFormat::PhillyRaw.load(&fixture("philly-raw.json")).unwrap();
    assert_eq!(trace.summary.rows, 6);
    assert_eq!(trace.jobs.len(), 2);
    let mut dropped = trace.summary.dropped.clone();
    dropped.sort();
    assert_eq!(
        dropped,
        vec![
            ("attempt without start or end time".to_string(), 2),
            ("no attempts (never started)".to_string(), 1),
            ("no submitted_time".to_string(), 1),
        ]
    );
    let first = &trace.jobs[0];
    // Default: GPUs of the last attempt (2 + 2), duration summed over attempts (600 + 3600 s).
    assert_eq!((first.gpus, first.duration), (4.0, Some(4200.0)));
    assert_eq!(first.status, TraceStatus::Completed);
    assert_eq!(trace.symbols.get(first.user), Some("alice"));
    // US-Pacific to UTC: October is daylight time (UTC-7), July too.
    assert_eq!(first.submit as i64, parse_naive("2017-10-03 16:00:00").unwrap());
    assert_eq!(trace.jobs[1].submit as i64, parse_naive("2017-07-01 19:00:00").unwrap());

    let options = PhillyRawOptions {
        attempt_gpus: AttemptGpus::First,
        duration: AttemptDuration::Span,
        clock: PhillyClock::Naive,
    };
    let trace = philly::load_raw(&fixture("philly-raw.json"), options).unwrap();
    // First attempt's GPUs (2); span from 09:10 to 11:00 (6600 s); times as written.
    assert_eq!((trace.jobs[0].gpus, trace.jobs[0].duration), (2.0, Some(6600.0)));
    assert_eq!(trace.jobs[0].submit as i64, parse_naive("2017-10-03 09:00:00").unwrap());
}

#[test]
fn helios_maps_states_and_keeps_cpu_jobs() {
    let trace = TraceFormat::Helios.load(&fixture("helios-cluster_log.csv")).unwrap();
    let statuses: Vec<TraceStatus> = trace.jobs.iter().map(|job| job.status).collect();
    assert_eq!(
        statuses,
        vec![
            TraceStatus::Completed,
            TraceStatus::Failed,
            TraceStatus::Canceled,
            TraceStatus::Timeout,
            TraceStatus::NodeFail
        ]
    );
    assert_eq!(trace.jobs[1].gpus, 0.0);
    assert_eq!(trace.jobs[2].cpus, Some(96.0));
    assert_eq!(trace.jobs[3].duration, Some(86400.0));
}

#[test]
fn helios_dirlab_sums_intervals() {
    let trace = TraceFormat::HeliosDirlab.load(&fixture("helios-dirlab.csv")).unwrap();
    let submits: Vec<f64> = trace.jobs.iter().map(|job| job.submit).collect();
    assert_eq!(submits, vec![0.0, 94.0, 104.0]);
    assert_eq!(trace.jobs[2].status, TraceStatus::Canceled);
}

#[test]
fn alibaba_pai_joins_tasks_and_converts_percentages() {
    let trace = TraceFormat::AlibabaPai.load(&fixture("alibaba-pai/pai_job_table.csv")).unwrap();
    assert_eq!(trace.summary.rows, 5);
    let mut dropped = trace.summary.dropped.clone();
    dropped.sort();
    assert_eq!(
        dropped,
        vec![
            ("never started (start_time 0)".to_string(), 1),
            ("no end time (end_time 0 or before start)".to_string(), 1),
            ("no tasks in the task table".to_string(), 1),
        ]
    );
    let j1 = &trace.jobs[0];
    // 2 workers at 50% of a GPU; CPUs: 2 x 600% + 1 x 200% = 14 cores.
    assert_eq!((j1.gpus, j1.cpus, j1.duration), (1.0, Some(14.0), Some(600.0)));
    assert_eq!(trace.symbols.get(j1.gpu_type), Some("T4"));
    assert_eq!(trace.jobs[1].status, TraceStatus::Failed);
}

#[test]
fn alibaba_openb_has_fractional_gpus_and_skips_unscheduled_pods() {
    let trace = TraceFormat::AlibabaOpenb.load(&fixture("alibaba-openb.csv")).unwrap();
    assert_eq!(trace.summary.dropped, vec![("never scheduled (empty scheduled_time)".to_string(), 1)]);
    let gpus: Vec<f64> = trace.jobs.iter().map(|job| job.gpus).collect();
    assert_eq!(gpus, vec![1.0, 0.46, 8.0, 0.0]);
    assert_eq!(trace.jobs[2].duration, Some(99_900.0));
    assert_eq!(trace.symbols.get(trace.jobs[2].gpu_type), Some("V100M32"));
    assert_eq!(trace.jobs[1].cpus, Some(6.0));
    assert_eq!(trace.jobs[1].mem_gib, Some(12.0));
}

#[test]
fn gavel_reads_both_layouts() {
    let trace = TraceFormat::Gavel.load(&fixture("gavel-mixed.trace")).unwrap();
    let summary: Vec<(&str, f64, Option<f64>, f32, f64)> = trace
        .jobs
        .iter()
        .map(|job| (trace.symbols.get(job.job_type).unwrap(), job.gpus, job.work, job.weight, job.submit))
        .collect();
    assert_eq!(
        summary,
        vec![
            ("ResNet-18 (batch size 64)", 1.0, Some(4000.0), 1.0, 0.0),
            ("LM (batch size 20)", 4.0, Some(1200.5), 5.0, 30.5),
            ("Transformer (batch size 128)", 2.0, Some(95121.0), 1.0, 6.0),
        ]
    );
}

#[test]
fn pollux_workloads_have_types_replicas_and_batch_sizes() {
    let trace = TraceFormat::Pollux.load(&fixture("pollux-workload.csv")).unwrap();
    let job = &trace.jobs[1];
    assert_eq!((job.submit, job.gpus, job.batch_size), (356.0, 16.0, Some(4096)));
    assert_eq!(trace.symbols.get(job.job_type), Some("cifar10"));
    assert_eq!(job.duration, None);
}

#[test]
fn rltune_reads_headerless_swf_with_unknowns() {
    let trace = TraceFormat::RltuneSwf.load(&fixture("rltune.csv")).unwrap();
    assert_eq!(trace.jobs.len(), 3, "the last line has no newline");
    let statuses: Vec<TraceStatus> = trace.jobs.iter().map(|job| job.status).collect();
    assert_eq!(statuses, vec![TraceStatus::Unknown, TraceStatus::Completed, TraceStatus::Canceled]);
    assert_eq!(trace.symbols.get(trace.jobs[1].vc), Some("7"));
    assert_eq!(trace.jobs[2].user, schedlab_trace::Sym::NONE);
    assert_eq!((trace.jobs[0].submit, trace.jobs[0].duration, trace.jobs[0].gpus), (1201.0, Some(25.0), 8.0));
}
