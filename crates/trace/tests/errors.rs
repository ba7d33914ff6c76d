use crate::common::temp_file;
use schedlab_trace::TraceFormat;

fn error(format: TraceFormat, test: &str, name: &str, content: &str) -> String {
    let path = temp_file(test, name, content);
    let message = format.load(&path).unwrap_err().to_string();
    message.replace(&path.display().to_string(), name)
}

#[test]
fn philly_pollux_bad_values_name_line_and_column() {
    let header = "timestamp,duration,num_gpus,gpu_time,cluster\n";
    let bad_gpus = format!("{header}2017-10-09 07:01:55,66.0,1,66.0,a\n2017-10-09 07:01:55,66.0,two,66.0,a\n");
    assert_eq!(
        error(TraceFormat::PhillyPollux, "gpus", "p.csv", &bad_gpus),
        "p.csv:3: column 3 ('num_gpus'): expected a whole number of GPUs, got 'two'"
    );
    let bad_date = format!("{header}2017-10-32 07:01:55,66.0,1,66.0,a\n");
    assert_eq!(
        error(TraceFormat::PhillyPollux, "date", "p.csv", &bad_date),
        "p.csv:2: column 1 ('timestamp'): expected a date-time YYYY-MM-DD HH:MM:SS, got '2017-10-32 07:01:55'"
    );
    let short = format!("{header}2017-10-09 07:01:55,66.0,1\n");
    assert_eq!(
        error(TraceFormat::PhillyPollux, "short", "p.csv", &short),
        "p.csv:2: expected 5 columns (timestamp,duration,num_gpus,gpu_time,cluster), found 3"
    );
    assert_eq!(
        error(TraceFormat::PhillyPollux, "header", "p.csv", "time,duration\n"),
        "p.csv:1: expected header 'timestamp,duration,num_gpus,gpu_time,cluster', found 'time,duration'"
    );
    let negative = format!("{header}2017-10-09 07:01:55,-5,1,66.0,a\n");
    assert!(
        error(TraceFormat::PhillyPollux, "negative", "p.csv", &negative).contains("expected a duration >= 0, got '-5'")
    );
}

#[test]
fn philly_raw_bad_times_name_the_job_and_field() {
    let json = r#"[{"status": "Pass", "jobid": "a1", "submitted_time": "2017/10/01 00:00:00", "attempts": []}]"#;
    assert_eq!(
        error(TraceFormat::PhillyRaw, "raw-time", "r.json", json),
        "r.json:1: job 'a1': field 'submitted_time': expected '%Y-%m-%d %H:%M:%S', got '2017/10/01 00:00:00'"
    );
    let json = r#"[{"status": "Pass", "jobid": "a2", "submitted_time": 5, "attempts": []}]"#;
    assert!(error(TraceFormat::PhillyRaw, "raw-type", "r.json", json).contains("expected a date-time string"));
    assert!(error(TraceFormat::PhillyRaw, "raw-json", "r.json", "[{").contains("invalid JSON"));
    // An array of something other than jobs is refused, not read as jobs without fields.
    assert_eq!(
        error(TraceFormat::PhillyRaw, "raw-numbers", "r.json", "[1, 2, 3]"),
        "r.json:1: job 1 of the array: expected a JSON object with status, vc, jobid, submitted_time, user and \
         attempts, found 1"
    );
    assert!(error(TraceFormat::PhillyRaw, "raw-object", "r.json", r#"{"jobs": []}"#).contains("expected a JSON array"));
}

/// A raw Philly log of one job with one attempt from `start` to `end`, on `detail`.
fn raw_job(start: &str, end: &str, detail: &str) -> String {
    format!(
        r#"[{{"status": "Pass", "vc": "v", "jobid": "a1", "user": "u", "submitted_time": "2017-11-05 00:30:00",
        "attempts": [{{"start_time": "{start}", "end_time": "{end}", "detail": {detail}}}]}}]"#
    )
}

#[test]
fn philly_raw_reads_an_attempt_across_the_fall_back_hour_and_counts_it() {
    // 2017-11-05: Pacific clocks went from 01:59:59 daylight back to 01:00:00 standard. An attempt
    // from 01:30 (daylight) to 01:20 (standard) ran 50 minutes; it used to fail the whole load.
    let one_gpu = r#"[{"ip": "m1", "gpus": ["gpu0"]}]"#;
    let path = crate::common::temp_file(
        "fall-back",
        "r.json",
        &raw_job("2017-11-05 01:30:00", "2017-11-05 01:20:00", one_gpu),
    );
    let trace = TraceFormat::PhillyRaw.load(&path).unwrap();
    assert_eq!(trace.jobs[0].duration, Some(50.0 * 60.0));
    assert_eq!(trace.summary.adjusted, vec![(schedlab_trace::formats::philly::FALL_BACK_READING.to_string(), 1)]);
    let line = schedlab_trace::spec::summary_line(&trace, &path);
    assert!(line.contains("1 kept where an attempt spans the end of daylight time"), "{line}");
    // Inside the repeated hour in order: daylight time for both, nothing adjusted.
    let path = crate::common::temp_file(
        "fall-back-ordered",
        "r.json",
        &raw_job("2017-11-05 01:10:00", "2017-11-05 01:20:00", one_gpu),
    );
    let trace = TraceFormat::PhillyRaw.load(&path).unwrap();
    assert_eq!((trace.jobs[0].duration, trace.summary.adjusted.len()), (Some(600.0), 0));
    // No reading makes sense: an error naming the job and attempt.
    assert_eq!(
        error(
            TraceFormat::PhillyRaw,
            "backwards",
            "r.json",
            &raw_job("2017-11-05 03:30:00", "2017-11-05 03:20:00", one_gpu)
        ),
        "r.json:1: job 'a1': attempts[0] ends before it starts, in every reading of the wall clock (US-Pacific)"
    );
}

#[test]
fn philly_raw_details_and_gpus_must_be_arrays() {
    for (detail, field, found) in [
        ("5", "attempts[0].detail", "5"),
        (r#"{"ip": "m1"}"#, "attempts[0].detail", r#"{"ip":"m1"}"#),
        (r#"[{"ip": "m1", "gpus": 2}]"#, "attempts[0].detail[0].gpus", "2"),
        (r#"[{"ip": "m1"}]"#, "attempts[0].detail[0].gpus", "nothing"),
    ] {
        let message = error(
            TraceFormat::PhillyRaw,
            "detail",
            "r.json",
            &raw_job("2017-10-01 00:00:10", "2017-10-01 01:00:00", detail),
        );
        assert!(message.starts_with(&format!("r.json:1: job 'a1': field '{field}': expected an array")), "{message}");
        assert!(message.ends_with(&format!("got {found}")), "{message}");
    }
    let missing = raw_job("2017-10-01 00:00:10", "2017-10-01 01:00:00", "0").replace(r#", "detail": 0"#, "");
    assert!(error(TraceFormat::PhillyRaw, "no-detail", "r.json", &missing).ends_with("got nothing"));
}

#[test]
fn helios_unknown_state_lists_the_valid_ones() {
    let csv = "job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,start_time,end_time,duration,queue\n\
               j,u,v,1,1,1,DONE,2020-04-01 00:00:09,,,5,0\n";
    assert_eq!(
        error(TraceFormat::Helios, "state", "h.csv", csv),
        "h.csv:2: column 7 ('state'): expected one of COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL, got 'DONE'"
    );
}

#[test]
fn gavel_wrong_column_count_and_bad_scale_factor() {
    let message = error(TraceFormat::Gavel, "cols", "g.trace", "A\tcmd\t1\n");
    assert!(message.starts_with("g.trace:1: expected 10 tab-separated columns"), "{message}");
    let message = error(TraceFormat::Gavel, "scale", "g.trace", "A\tcmd\t-s\t1\t100\t0\t0\n");
    assert_eq!(message, "g.trace:1: column 7 ('scale_factor'): expected a whole number >= 1, got '0'");
}

#[test]
fn openb_out_of_range_gpu_milli_is_refused() {
    let csv = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n\
               p,1000,1024,1,1500,,LS,Running,0,10,0\n";
    assert_eq!(
        error(TraceFormat::AlibabaOpenb, "milli", "o.csv", csv),
        "o.csv:2: column 5 ('gpu_milli'): expected thousandths of a GPU between 0 and 1000, got '1500'"
    );
}

#[test]
fn missing_files_and_unknown_formats_say_what_was_expected() {
    let message = TraceFormat::Pollux.load(std::path::Path::new("/nonexistent/w.csv")).unwrap_err().to_string();
    assert!(message.starts_with("/nonexistent/w.csv:"), "{message}");
    let message = "philly".parse::<TraceFormat>().unwrap_err();
    assert!(
        message.starts_with("unknown trace format 'philly'; known formats: philly-pollux, philly-gavel-dist"),
        "{message}"
    );
}

#[test]
fn crlf_files_report_the_lines_an_editor_shows() {
    let csv = "timestamp,duration,num_gpus,gpu_time,cluster\r\n2017-10-09 07:01:55,66.0,1,66.0,a\r\n2017-10-09 07:01:55,66.0,two,66.0,a\r\n";
    assert_eq!(
        error(TraceFormat::PhillyPollux, "crlf", "p.csv", csv),
        "p.csv:3: column 3 ('num_gpus'): expected a whole number of GPUs, got 'two'"
    );
}

#[test]
fn a_byte_order_mark_is_dropped_by_every_loader() {
    let load = |format: TraceFormat, test: &str, name: &str, content: &str| {
        let plain = format.load(&temp_file(test, name, content)).unwrap();
        let marked = format.load(&temp_file(&format!("{test}-bom"), name, &format!("\u{feff}{content}"))).unwrap();
        assert_eq!(marked.jobs, plain.jobs, "{test}");
        let strings = |trace: &schedlab_trace::Trace| {
            (1..=trace.symbols.len() as u32)
                .map(|index| trace.symbols.get(schedlab_trace::Sym(index)).unwrap().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(strings(&marked), strings(&plain), "{test}");
    };
    load(TraceFormat::Gavel, "bom-gavel", "g.trace", "ResNet-18 (batch size 16)\tcmd\t-s\t1\t100\t0\t1\n");
    load(
        TraceFormat::PhillyPollux,
        "bom-csv",
        "p.csv",
        "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,66.0,1,66.0,a\n",
    );
    let json = r#"[{"status": "Pass", "vc": "v", "jobid": "a1", "user": "u", "submitted_time": "2017-10-01 00:00:00",
        "attempts": [{"start_time": "2017-10-01 00:00:10", "end_time": "2017-10-01 01:00:00", "detail": [{"ip": "m1", "gpus": ["gpu0"]}]}]}]"#;
    load(TraceFormat::PhillyRaw, "bom-raw", "r.json", json);
}

#[test]
fn absurd_magnitudes_are_refused_with_the_row() {
    let pollux = "timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 07:01:55,1e308,1,66.0,a\n";
    assert_eq!(
        error(TraceFormat::PhillyPollux, "huge-duration", "p.csv", pollux),
        "p.csv:2: a duration of 1e308 s is out of range; expected 0 to 1e9 s (31 years)"
    );
    // helios-dirlab: finite intervals whose running sum overflows to infinity.
    let dirlab = "u_id,user,gpu_num,cpu_num,node_num,interval,run_time,wall_time,new_status\n\
                  0,1,1,1,1,1e308,84,0,Pass\n1,1,1,1,1,1e308,84,0,Pass\n";
    assert_eq!(
        error(TraceFormat::HeliosDirlab, "interval-sum", "d.csv", dirlab),
        "d.csv:2: a submission time of 1e308 s is out of range; expected 0 to 1e11 s (for dates, 1970-01-01 to the year 5138)"
    );
    // alibaba-openb: negative CPU and memory requests.
    let header = "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";
    let cpus = format!("{header}p,-1000,1024,1,1000,,LS,Running,0,10,0\n");
    assert_eq!(
        error(TraceFormat::AlibabaOpenb, "negative-cpu", "o.csv", &cpus),
        "o.csv:2: -1 CPU cores is out of range; expected 0 to 1e7"
    );
    let memory = format!("{header}p,1000,-1024,1,1000,,LS,Running,0,10,0\n");
    assert!(
        error(TraceFormat::AlibabaOpenb, "negative-mem", "o.csv", &memory).contains("-1 GiB of memory is out of range")
    );
}

#[test]
fn errors_cut_long_fields_and_escape_control_characters() {
    let header = "timestamp,duration,num_gpus,gpu_time,cluster\n";
    let long = format!("{header}2017-10-09 07:01:55,66.0,{},66.0,a\n", "9x".repeat(500_000));
    let message = error(TraceFormat::PhillyPollux, "long-field", "p.csv", &long);
    assert!(message.len() < 300, "{} bytes", message.len());
    assert!(message.ends_with("x9x9x... (1000000 characters)'"), "{message}");
    let nul = format!("{header}2017-10-09 07:01:55,66.0,1\u{0}2,66.0,a\n");
    let message = error(TraceFormat::PhillyPollux, "nul-field", "p.csv", &nul);
    assert!(message.ends_with("got '1\\u{0}2'"), "{message}");
}

#[test]
fn an_empty_workload_is_an_error_that_says_where_the_jobs_went() {
    let header_only = temp_file("header-only", "p.csv", "timestamp,duration,num_gpus,gpu_time,cluster\n");
    let spec: schedlab_trace::spec::WorkloadSpec =
        serde_json::from_str(r#"{"trace": {"format": "philly-pollux", "path": "p.csv"}}"#).unwrap();
    let data = schedlab_core::DataDir::at(header_only.parent().unwrap());
    let message = spec.build(&data, &Default::default()).unwrap_err().to_string();
    assert!(message.starts_with("the workload has no jobs to run ("), "{message}");
    assert!(message.contains("0 rows read"), "{message}");
}
