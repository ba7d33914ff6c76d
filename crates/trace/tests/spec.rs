use crate::common::root;
use schedlab_trace::spec::WorkloadSpec;

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
    let workload = spec.build(&schedlab_core::DataDir::at(root()), &[]).unwrap();
    assert_eq!(workload.jobs.len(), 3);
    assert_eq!(workload.report.len(), 6, "{:#?}", workload.report);
    assert!(workload.report[0].contains("5 rows read, 5 kept"), "{}", workload.report[0]);
}

#[test]
fn a_generator_workload_builds_from_yaml() {
    let spec =
        parse("generator:\n  gavel-continuous: {jobs: 50, rate_per_hour: 10, multi_gpu: true, seed: 4}\n").unwrap();
    let workload = spec.build(&schedlab_core::DataDir::none(), &[]).unwrap();
    assert_eq!(workload.jobs.len(), 50);
    let spec = parse("generator:\n  philly-sampled: {jobs: 20, rate_per_hour: 5, distribution: traces/fixtures/philly-gavel-dist.csv}\n").unwrap();
    let workload = spec.build(&schedlab_core::DataDir::at(root()), &[]).unwrap();
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
        both.build(&schedlab_core::DataDir::none(), &[])
            .unwrap_err()
            .to_string()
            .contains("exactly one of 'trace' and 'generator'")
    );
    let zoo = parse("generator: {gavel-static: {jobs: 3}}\nmodel: {gavel-zoo: {reference: v100}}\n").unwrap();
    assert!(zoo.build(&schedlab_core::DataDir::none(), &[]).unwrap_err().to_string().contains("needs job templates"));
}
