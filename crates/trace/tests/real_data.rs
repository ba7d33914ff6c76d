use crate::common::data;
use schedlab_trace::TraceFormat;
use schedlab_trace::stats::stats;

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn philly_pollux_matches_the_published_shape() {
    let path = data("philly/philly-pollux.csv");
    let trace = TraceFormat::PhillyPollux.load(&path).unwrap();
    let stats = stats(&trace);
    assert_eq!(stats.rows, 82_247);
    assert_eq!(stats.kept, 82_247);
    assert_eq!(stats.duplicates, 65);
    let histogram: Vec<(&str, usize)> =
        stats.gpu_histogram.iter().map(|(gpus, count)| (gpus.as_str(), *count)).collect();
    assert_eq!(
        histogram,
        vec![
            ("1", 76_627),
            ("2", 1_818),
            ("4", 1_870),
            ("8", 1_643),
            ("12", 7),
            ("16", 199),
            ("24", 7),
            ("32", 67),
            ("64", 6),
            ("128", 3)
        ]
    );
    let median = stats.duration_quantiles.iter().find(|(p, _)| *p == 50.0).unwrap().1;
    assert_eq!(median, 1_144.0);
    assert_eq!(stats.first_submit, "2017-09-04 10:30:41");
    assert_eq!(stats.last_submit, "2017-12-22 08:02:11");
    assert!(stats.bytes_per_job < 200.0, "{} bytes per job", stats.bytes_per_job);
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn every_real_file_loads() {
    let files = [
        (TraceFormat::PhillyGavelDist, "philly/philly-gavel-distribution.csv", 33_192),
        (TraceFormat::HeliosDirlab, "helios/helios-dirlab-15k.csv", 15_000),
        (TraceFormat::AlibabaOpenb, "alibaba/openb-v2023/openb_pod_list_default.csv", 8_152),
        (TraceFormat::Gavel, "gavel/traces/msr-seed0/6214e9.trace", 0),
        (TraceFormat::Gavel, "gavel/traces/physical_cluster/artifact_evaluation.trace", 0),
        (TraceFormat::Pollux, "pollux/workloads/workload-1.csv", 160),
        (TraceFormat::RltuneSwf, "rltune/synthetic_trace.csv", 0),
    ];
    for (format, relative, expected_rows) in files {
        let path = data(relative);
        let trace = format.load(&path).unwrap_or_else(|error| panic!("{relative}: {error}"));
        assert!(trace.summary.rows > 0, "{relative}");
        if expected_rows > 0 {
            assert_eq!(trace.summary.rows, expected_rows, "{relative}");
        }
        assert_eq!(
            trace.summary.kept + trace.summary.dropped.iter().map(|(_, n)| n).sum::<usize>(),
            trace.summary.rows
        );
    }
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn openb_leaves_out_exactly_the_pending_pods() {
    let path = data("alibaba/openb-v2023/openb_pod_list_default.csv");
    let trace = TraceFormat::AlibabaOpenb.load(&path).unwrap();
    assert_eq!(trace.summary.dropped, vec![("never scheduled (empty scheduled_time)".to_string(), 897)]);
    assert!(trace.jobs.iter().any(|job| job.gpus > 0.0 && job.gpus < 1.0));
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn all_gavel_msr_traces_use_the_legacy_layout() {
    let dir = data("gavel/traces/msr-seed0/0e4a51.trace").parent().expect("a file in a folder").to_path_buf();
    let mut total = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let trace = TraceFormat::Gavel.load(&entry.unwrap().path()).unwrap();
        total += trace.jobs.len();
    }
    assert_eq!(total, 15_264);
}
