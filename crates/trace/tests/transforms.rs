use crate::common::fixture;
use schedlab_core::TraceStatus;
use schedlab_trace::synthetic::JobTemplate;
use schedlab_trace::transform::{
    Assign, AssignBy, AssignField, Bound, Episode, Filter, RandomEpisodes, Sample, Window, apply_all,
};
use schedlab_trace::workload::{FractionalGpus, JobTypes, Model, build};
use schedlab_trace::{TraceFormat, Transform};

#[test]
fn dedup_sort_window_and_rebase_on_philly() {
    let mut trace = TraceFormat::PhillyPollux.load(&fixture("philly-pollux.csv")).unwrap();
    let transforms = vec![
        Transform::Dedup,
        Transform::Sort,
        Transform::Window(Window {
            from: Some(Bound::Date("2017-10-01".into())),
            to: Some(Bound::Date("2017-11-01".into())),
        }),
        Transform::Rebase,
    ];
    let reports = apply_all(&mut trace, &transforms).unwrap();
    let counts: Vec<(usize, usize)> = reports.iter().map(|report| (report.before, report.after)).collect();
    assert_eq!(counts, vec![(5, 4), (4, 4), (4, 3), (3, 3)]);
    let submits: Vec<f64> = trace.jobs.iter().map(|job| job.submit).collect();
    // 06:13:03, 07:01:55 on the 9th and 00:00:00 on the 10th.
    assert_eq!(submits, vec![0.0, 2932.0, 64017.0]);
}

#[test]
fn filters_combine_and_dates_need_a_wall_clock() {
    let mut trace = TraceFormat::Helios.load(&fixture("helios-cluster_log.csv")).unwrap();
    let filter = Filter {
        status: Some(vec![TraceStatus::Completed, TraceStatus::Canceled, TraceStatus::Timeout]),
        min_gpus: Some(1.0),
        max_duration: Some(10_000.0),
        vcs: Some(vec!["vcA".into()]),
        ..Filter::default()
    };
    Transform::Filter(filter).apply(&mut trace).unwrap();
    let names: Vec<&str> = trace.jobs.iter().map(|job| trace.symbols.get(job.name).unwrap()).collect();
    assert_eq!(names, vec!["j1", "j3"]);

    let mut relative = TraceFormat::Pollux.load(&fixture("pollux-workload.csv")).unwrap();
    let window = Transform::Window(Window { from: Some(Bound::Date("2017-10-01".into())), to: None });
    let message = window.apply(&mut relative).unwrap_err().to_string();
    assert!(message.contains("is a date, but pollux has no dates"), "{message}");
    // Offsets count from the first submission (110 s): [310, 410) keeps the jobs at 356 and 400.
    let window = Transform::Window(Window { from: Some(Bound::Offset(200.0)), to: Some(Bound::Offset(300.0)) });
    window.apply(&mut relative).unwrap();
    assert_eq!(relative.jobs.len(), 2);
}

#[test]
fn sampling_is_seeded_and_keeps_order() {
    let load = || TraceFormat::PhillyPollux.load(&fixture("philly-pollux.csv")).unwrap();
    let sample = Transform::Sample(Sample { count: Some(3), fraction: None, seed: 9 });
    let (mut a, mut b) = (load(), load());
    sample.apply(&mut a).unwrap();
    sample.apply(&mut b).unwrap();
    assert_eq!(a.jobs, b.jobs);
    assert_eq!(a.jobs.len(), 3);
    assert!(a.jobs.windows(2).all(|pair| pair[0].line < pair[1].line));
    let too_many = Transform::Sample(Sample { count: Some(50), fraction: None, seed: 0 });
    assert!(too_many.apply(&mut load()).is_err());
    let both = Transform::Sample(Sample { count: Some(1), fraction: Some(0.5), seed: 0 });
    assert!(both.apply(&mut load()).is_err());
}

#[test]
fn an_episode_is_one_block_of_consecutive_jobs() {
    let load = || TraceFormat::PhillyPollux.load(&fixture("philly-pollux.csv")).unwrap();
    let lines = |trace: &schedlab_trace::Trace| trace.jobs.iter().map(|job| job.line).collect::<Vec<_>>();
    let all = lines(&load());
    assert_eq!(all.len(), 5);
    let mut second = load();
    Transform::Episode(Episode { jobs: 2, index: 1, random: None }).apply(&mut second).unwrap();
    assert_eq!(lines(&second), all[2..4]);
    // A third block of 2 would need 6 jobs.
    let message =
        Transform::Episode(Episode { jobs: 2, index: 2, random: None }).apply(&mut load()).unwrap_err().to_string();
    assert!(message.contains("episode: 2 of 2 jobs needs 6 jobs, but 5 are left"), "{message}");
    assert!(Transform::Episode(Episode { jobs: 0, index: 0, random: None }).apply(&mut load()).is_err());
    assert!(Transform::Episode(Episode { jobs: usize::MAX, index: 2, random: None }).apply(&mut load()).is_err());
    // The report of consecutive blocks reads as before `random` existed.
    let report = Transform::Episode(Episode { jobs: 2, index: 1, random: None }).apply(&mut load()).unwrap();
    assert_eq!(report.transform, "Episode(Episode { jobs: 2, index: 1 })");
}

#[test]
fn random_episodes_are_drawn_from_a_seed_and_marked_when_they_overlap_training() {
    let load = || TraceFormat::PhillyPollux.load(&fixture("philly-pollux.csv")).unwrap();
    let lines = |trace: &schedlab_trace::Trace| trace.jobs.iter().map(|job| job.line).collect::<Vec<_>>();
    let all = lines(&load());
    let episode =
        |index, seed, trained_below| Episode { jobs: 2, index, random: Some(RandomEpisodes { seed, trained_below }) };
    let mut starts = Vec::new();
    for index in 0..20 {
        let mut trace = load();
        let report = Transform::Episode(episode(index, 7, Some(2))).apply(&mut trace).unwrap();
        let start = episode(index, 7, Some(2)).start(5).unwrap();
        // Starts are uniform in [0, 5 - 2): the window never runs past the end.
        assert!(start < 3, "{start}");
        assert_eq!(lines(&trace), all[start..start + 2]);
        let marked = report.transform.contains("OVERLAPS TRAINING (jobs below 2)");
        assert_eq!(marked, start < 2, "{}", report.transform);
        assert!(report.transform.contains(&format!("jobs {start}..{} of 5", start + 2)), "{}", report.transform);
        starts.push(start);
    }
    // Every start is drawn, and the same seed draws the same windows.
    assert!((0..3).all(|start| starts.contains(&start)), "{starts:?}");
    let again: Vec<usize> = (0..20).map(|index| episode(index, 7, None).start(5).unwrap()).collect();
    assert_eq!(again, starts);
    let other: Vec<usize> = (0..20).map(|index| episode(index, 8, None).start(5).unwrap()).collect();
    assert_ne!(other, starts);
    // A trace no longer than one window has no start to draw.
    let message = Transform::Episode(Episode {
        jobs: 5,
        index: 0,
        random: Some(RandomEpisodes { seed: 0, trained_below: None }),
    })
    .apply(&mut load())
    .unwrap_err()
    .to_string();
    assert!(message.contains("random windows of 5 jobs need more than 5 jobs, but 5 are left"), "{message}");
}

#[test]
fn scale_rate_compresses_inter_arrivals() {
    let mut trace = TraceFormat::HeliosDirlab.load(&fixture("helios-dirlab.csv")).unwrap();
    Transform::ScaleRate(2.0).apply(&mut trace).unwrap();
    let submits: Vec<f64> = trace.jobs.iter().map(|job| job.submit).collect();
    assert_eq!(submits, vec![0.0, 47.0, 52.0]);
}

#[test]
fn rigid_model_drops_cpu_jobs_and_rounds_fractional_gpus_up() {
    let trace = TraceFormat::AlibabaOpenb.load(&fixture("alibaba-openb.csv")).unwrap();
    let (jobs, summary) =
        build(&trace, &Model::Rigid, FractionalGpus::Ceil, &JobTypes::default(), Default::default()).unwrap();
    assert_eq!(summary.dropped, vec![("CPU-only job (0 GPUs)".to_string(), 1)]);
    assert_eq!(summary.rounded_up, 1);
    let gpus: Vec<u32> = jobs.iter().map(|job| job.gpus).collect();
    assert_eq!(gpus, vec![1, 1, 8]);
    assert_eq!(jobs[1].arrival.secs(), 427061.0);
    assert_eq!(jobs[0].work, 12537496.0);
    let message = build(&trace, &Model::Rigid, FractionalGpus::Error, &JobTypes::default(), Default::default())
        .unwrap_err()
        .to_string();
    assert!(
        message.ends_with("alibaba-openb.csv:3: 0.46 GPUs is fractional; set fractional_gpus: ceil to round up"),
        "{message}"
    );
}

#[test]
fn gavel_zoo_draws_supported_templates_and_converts_to_steps() {
    let trace = TraceFormat::PhillyPollux.load(&fixture("philly-pollux.csv")).unwrap();
    let templates = vec![
        JobTemplate { job_type: "A".into(), scales: vec![(1, 2.0), (8, 10.0)] },
        JobTemplate { job_type: "B".into(), scales: vec![(1, 3.0)] },
    ];
    let model = Model::GavelZoo { reference: "v100".into(), seed: 1 };
    let types = JobTypes { templates: templates.clone(), ..JobTypes::default() };
    let (jobs, summary) = build(&trace, &model, FractionalGpus::Ceil, &types, Default::default()).unwrap();
    assert_eq!(summary.dropped, vec![("no job template supports 16 GPUs".to_string(), 1)]);
    for job in &jobs {
        let rate = templates
            .iter()
            .find(|template| template.job_type == job.job_type)
            .and_then(|template| template.scales.iter().find(|(scale, _)| *scale == job.gpus))
            .expect("a supporting template")
            .1;
        assert_eq!(job.work, (job.trace_duration.unwrap() * rate).round());
    }
    let (again, _) = build(&trace, &model, FractionalGpus::Ceil, &types, Default::default()).unwrap();
    assert_eq!(jobs, again);
    // Sorted by arrival, rebased to 0, ids in order.
    assert_eq!(jobs[0].arrival.secs(), 0.0);
    assert!(jobs.iter().enumerate().all(|(index, job)| job.id.index() == index));
}

#[test]
fn pollux_buckets_follow_gpu_time() {
    let trace = TraceFormat::PhillyPollux.load(&fixture("philly-pollux.csv")).unwrap();
    let (jobs, _) = build(
        &trace,
        &Model::PolluxBuckets { seed: 0 },
        FractionalGpus::Ceil,
        &JobTypes::default(),
        Default::default(),
    )
    .unwrap();
    for job in &jobs {
        let hours = job.trace_duration.unwrap() * f64::from(job.gpus) / 3600.0;
        let expected: &[&str] = if hours < 1.0 {
            &["cifar10", "ncf"]
        } else if hours < 10.0 {
            &["deepspeech2", "bert"]
        } else if hours < 100.0 {
            &["yolov3"]
        } else {
            &["imagenet"]
        };
        assert!(expected.contains(&job.job_type.as_str()), "{} GPU-hours got {}", hours, job.job_type);
    }
}

#[test]
fn models_that_need_durations_refuse_traces_without_them() {
    let trace = TraceFormat::Pollux.load(&fixture("pollux-workload.csv")).unwrap();
    let message = build(&trace, &Model::Rigid, FractionalGpus::Ceil, &JobTypes::default(), Default::default())
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("the pollux trace records no duration, which model Rigid needs; use from-trace"),
        "{message}"
    );
    let trace = TraceFormat::Gavel.load(&fixture("gavel-mixed.trace")).unwrap();
    let (jobs, _) =
        build(&trace, &Model::FromTrace, FractionalGpus::Ceil, &JobTypes::default(), Default::default()).unwrap();
    let types: Vec<&str> = jobs.iter().map(|job| job.job_type.as_str()).collect();
    assert_eq!(types, vec!["ResNet-18 (batch size 64)", "Transformer (batch size 128)", "LM (batch size 20)"]);
    assert_eq!(jobs[2].weight, 5.0);
}

#[test]
fn a_relative_trace_may_keep_its_own_time_zero() {
    use schedlab_trace::workload::Origin;
    use schedlab_trace::{Clock, Trace, TraceJob};
    let mut trace = Trace::new("pollux", "workload.csv", Clock::Relative);
    for (submit, line) in [(107.0, 2), (135.0, 3)] {
        let mut job = TraceJob::new(submit, 1.0, line);
        job.duration = Some(10.0);
        trace.push(job);
    }
    let arrivals = |origin| {
        let (jobs, _) = build(&trace, &Model::Rigid, FractionalGpus::Ceil, &JobTypes::default(), origin).unwrap();
        jobs.iter().map(|job| job.arrival.secs()).collect::<Vec<f64>>()
    };
    assert_eq!(arrivals(Origin::FirstArrival), vec![0.0, 28.0]);
    assert_eq!(arrivals(Origin::TraceStart), vec![107.0, 135.0]);
    let dated = Trace { clock: Clock::WallClock, ..trace.clone() };
    let error =
        build(&dated, &Model::Rigid, FractionalGpus::Ceil, &JobTypes::default(), Origin::TraceStart).unwrap_err();
    assert!(
        error.to_string().contains("origin: trace_start needs a trace whose times count from its start"),
        "{error}"
    );
}

/// A trace of `users.len()` one-GPU jobs, job `i` by `users[i]` (`None`: no user).
fn jobs_of(users: &[Option<&str>]) -> schedlab_trace::Trace {
    let mut trace = schedlab_trace::Trace::new("test", "test.csv", schedlab_trace::Clock::Relative);
    for (index, user) in users.iter().enumerate() {
        let mut job = schedlab_trace::TraceJob::new(index as f64, 1.0, index as u32 + 2);
        if let Some(user) = user {
            job.user = trace.symbols.intern(user);
        }
        trace.push(job);
    }
    trace
}

fn assign(field: AssignField, by: AssignBy, weights: &[(&str, f64)], seed: u64) -> Transform {
    Transform::Assign(Assign {
        field,
        by,
        weights: weights.iter().map(|(name, weight)| (name.to_string(), *weight)).collect(),
        seed,
    })
}

#[test]
fn assign_by_user_gives_a_user_one_value_whatever_the_order_and_follows_the_weights() {
    let users: Vec<String> = (0..2000).map(|index| format!("u{}", index % 400)).collect();
    let names: Vec<Option<&str>> = users.iter().map(|user| Some(user.as_str())).collect();
    let weights = [("vc1", 6.0), ("vc2", 2.0)];
    let mut trace = jobs_of(&names);
    assign(AssignField::Vc, AssignBy::User, &weights, 7).apply(&mut trace).unwrap();
    let vc_of = |trace: &schedlab_trace::Trace, job: &schedlab_trace::TraceJob| {
        (trace.symbols.get(job.user).unwrap().to_string(), trace.symbols.get(job.vc).unwrap().to_string())
    };
    let mut by_user = std::collections::BTreeMap::new();
    for job in &trace.jobs {
        let (user, vc) = vc_of(&trace, job);
        assert_eq!(by_user.entry(user).or_insert_with(|| vc.clone()), &vc, "a user's jobs share one VC");
    }
    // 400 users drawn 3:1: the share of vc1 is 0.75 within a few standard deviations (0.022).
    let vc1 = by_user.values().filter(|vc| *vc == "vc1").count() as f64 / by_user.len() as f64;
    assert!((vc1 - 0.75).abs() < 0.08, "vc1 share {vc1}");
    // The same users in reverse order, fewer jobs, same seed: the same VCs.
    let mut reversed = jobs_of(&names[..500].iter().rev().copied().collect::<Vec<_>>());
    assign(AssignField::Vc, AssignBy::User, &weights, 7).apply(&mut reversed).unwrap();
    for job in &reversed.jobs {
        let (user, vc) = vc_of(&reversed, job);
        assert_eq!(by_user[&user], vc);
    }
    // Another seed gives another assignment.
    let mut other = jobs_of(&names);
    assign(AssignField::Vc, AssignBy::User, &weights, 8).apply(&mut other).unwrap();
    assert!(other.jobs.iter().zip(&trace.jobs).any(|(a, b)| other.symbols.get(a.vc) != trace.symbols.get(b.vc)));
}

#[test]
fn assign_by_job_sets_gpu_types_and_bad_weights_or_missing_users_are_errors() {
    let mut trace = jobs_of(&[None; 300]);
    assign(AssignField::GpuType, AssignBy::Job, &[("t4", 1.0), ("v100", 1.0), ("p100", 2.0)], 0)
        .apply(&mut trace)
        .unwrap();
    let count = |name: &str| trace.jobs.iter().filter(|job| trace.symbols.get(job.gpu_type) == Some(name)).count();
    assert_eq!(count("t4") + count("v100") + count("p100"), 300);
    assert!(
        count("t4") > 40 && count("v100") > 40 && count("p100") > 110,
        "{} {} {}",
        count("t4"),
        count("v100"),
        count("p100")
    );
    assert!(trace.jobs.iter().all(|job| job.vc.is_none()));

    let message = assign(AssignField::Vc, AssignBy::User, &[("a", 1.0)], 0).apply(&mut jobs_of(&[None])).unwrap_err();
    assert_eq!(message.to_string(), "test.csv:2: assign: by user, but the row names no user");
    for weights in [&[][..], &[("a", 0.0)][..], &[("a", f64::NAN)][..]] {
        let error = assign(AssignField::Vc, AssignBy::Job, weights, 0).apply(&mut jobs_of(&[None])).unwrap_err();
        assert!(error.to_string().starts_with("assign: "), "{error}");
    }
}
