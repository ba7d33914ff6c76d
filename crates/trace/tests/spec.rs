use crate::common::root;
use schedlab_trace::spec::WorkloadSpec;
use schedlab_trace::workload::JobTypes;

fn parse(yaml: &str) -> Result<WorkloadSpec, String> {
    serde_saphyr::from_str(yaml).map_err(|error| error.to_string())
}

#[test]
fn a_trace_workload_builds_from_yaml() {
    let spec = parse(
        "trace: {format: philly-pollux, path: traces/fixtures/philly-pollux.csv}\n\
         transforms:\n  - dedup\n  - sort\n  - filter: {min_gpus: 1, max_gpus: 8}\n  - window: {from: '2017-10-01', to: '2017-11-01'}\n\
         model: rigid\n",
    )
    .unwrap();
    let workload = spec.build(&schedlab_core::DataDir::at(root()), &JobTypes::default()).unwrap();
    assert_eq!(workload.jobs.len(), 3);
    assert_eq!(workload.report.len(), 6, "{:#?}", workload.report);
    assert!(workload.report[0].contains("5 rows read, 5 kept"), "{}", workload.report[0]);
}

#[test]
fn a_generator_workload_builds_from_yaml() {
    let spec =
        parse("generator:\n  gavel-continuous: {jobs: 50, rate_per_hour: 10, multi_gpu: true, seed: 4}\n").unwrap();
    let workload = spec.build(&schedlab_core::DataDir::none(), &JobTypes::default()).unwrap();
    assert_eq!(workload.jobs.len(), 50);
    let spec = parse("generator:\n  philly-sampled: {jobs: 20, rate_per_hour: 5, distribution: traces/fixtures/philly-gavel-dist.csv}\n").unwrap();
    let workload = spec.build(&schedlab_core::DataDir::at(root()), &JobTypes::default()).unwrap();
    assert!(workload.jobs.iter().all(|job| [860662.0, 7944.0, 3600.0].contains(&job.work)));
}

#[test]
fn unknown_keys_and_bad_combinations_are_errors() {
    let message = parse("trace: {format: philly-pollux, pth: x.csv}\n").unwrap_err();
    assert!(message.contains("pth"), "{message}");
    let message = parse("trace: {format: philly, path: x.csv}\n").unwrap_err();
    assert!(message.contains("unknown trace format 'philly'"), "{message}");
    let message = parse("transforms: [{frist: 3}]\n").unwrap_err();
    assert!(message.contains("frist"), "{message}");
    let both = parse("trace: {format: pollux, path: x.csv}\ngenerator: {gavel-static: {jobs: 3}}\n").unwrap();
    assert!(
        both.build(&schedlab_core::DataDir::none(), &JobTypes::default())
            .unwrap_err()
            .to_string()
            .contains("exactly one of 'trace' and 'generator'")
    );
    let zoo = parse("generator: {gavel-static: {jobs: 3}}\nmodel: {gavel-zoo: {reference: v100}}\n").unwrap();
    assert!(
        zoo.build(&schedlab_core::DataDir::none(), &JobTypes::default())
            .unwrap_err()
            .to_string()
            .contains("needs job templates")
    );
}

#[test]
fn declared_work_is_the_work_within_the_error_and_repeats_with_its_seed() {
    let yaml = |error: &str| {
        format!(
            "generator:\n  gavel-continuous: {{jobs: 200, rate_per_hour: 10, seed: 1}}\ndeclared_work: {{error: {error}, seed: 7}}\n"
        )
    };
    let build = |error: &str| parse(&yaml(error)).unwrap().build(&schedlab_core::DataDir::none(), &JobTypes::default());
    let jobs = build("0.2").unwrap().jobs;
    let ratios: Vec<f64> = jobs.iter().map(|job| job.declared_work.unwrap() / job.work).collect();
    assert!(ratios.iter().all(|ratio| (0.8 - 1e-12..=1.2 + 1e-12).contains(ratio)), "{ratios:?}");
    // Errors both ways, not all equal.
    assert!(ratios.iter().any(|ratio| *ratio < 0.95) && ratios.iter().any(|ratio| *ratio > 1.05));
    assert_eq!(build("0.2").unwrap().jobs, jobs, "the same seed gives the same declarations");
    assert!(build("0").unwrap().jobs.iter().all(|job| job.declared_work == Some(job.work)));
    let error = build("1.5").unwrap_err().to_string();
    assert!(error.contains("declared_work: error must be a fraction in [0, 1), got 1.5"), "{error}");
    // Without the key nothing is declared, and the spec serialises as before (workload seeds
    // derive from that text).
    let plain = parse("generator:\n  gavel-continuous: {jobs: 5, rate_per_hour: 10}\n").unwrap();
    assert!(
        plain
            .build(&schedlab_core::DataDir::none(), &JobTypes::default())
            .unwrap()
            .jobs
            .iter()
            .all(|job| job.declared_work.is_none())
    );
    assert!(!serde_json::to_string(&plain).unwrap().contains("declared"));
}

#[test]
fn rng_python_is_an_option_that_leaves_default_specs_unchanged() {
    let plain =
        parse("generator:\n  gavel-continuous: {jobs: 6000, rate_per_hour: 2.6, multi_gpu: true, seed: 5}\n").unwrap();
    let generator = plain.generator.as_ref().unwrap();
    // Reports (and with them manifests) written before the option existed read the same.
    assert_eq!(
        generator.describe(),
        "GavelContinuous { jobs: 6000, rate_per_hour: 2.6, multi_gpu: true, multi_priority: false, seed: 5 }"
    );
    assert_eq!(generator.describe(), format!("{generator:?}").replace(", rng: Schedlab", ""));
    assert!(!serde_json::to_string(&plain).unwrap().contains("rng"), "run identities hash this text");
    let python = parse("generator:\n  gavel-static: {jobs: 40, multi_gpu: true, seed: 0, rng: python}\n").unwrap();
    assert_eq!(
        python.generator.as_ref().unwrap().describe(),
        "GavelStatic { jobs: 40, multi_gpu: true, multi_priority: false, seed: 0, rng: Python }"
    );
    let built = python.build(&schedlab_core::DataDir::none(), &JobTypes::default()).unwrap();
    assert_eq!(built.jobs.len(), 40);
    assert!(built.report[0].ends_with("rng: Python })"), "{}", built.report[0]);
    let message = parse("generator:\n  gavel-static: {jobs: 4, rng: numpy}\n").unwrap_err();
    assert!(message.contains("numpy"), "{message}");
}
