//! The applications answer as the Pollux artifact's `applications.py` does, on its own profiles.
//! The expected values come from `scripts/pollux/reference.py`, which runs the artifact's code.

use schedlab_core::DataDir;
use schedlab_goodput::{APPLICATIONS, Application};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Equal up to rounding: the artifact's arithmetic (numpy, LAPACK, pandas' parser) rounds
/// differently in the last bits.
fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= 1e-9 * want.abs().max(1e-12)
}

#[test]
fn every_query_matches_the_artifact() {
    if schedlab_core::datadir::test_data_file(root(), "pollux/profiles/cifar10/placements.csv").is_none() {
        return;
    }
    let data = DataDir::locate_from(root());
    let text = include_str!("fixtures/artifact_reference.json");
    let reference: serde_json::Value = serde_json::from_str(text).unwrap();
    let mut checked = 0;
    for settings in &APPLICATIONS {
        let app = Application::load(&data, Path::new("pollux/profiles"), settings).unwrap();
        let want = &reference[settings.name];
        let int = |key: &str| want[key].as_u64().unwrap() as u32;
        assert_eq!(
            (app.init_batch_size, app.max_batch_size, app.min_local_bsz, app.max_local_bsz),
            (int("init_batch_size"), int("max_batch_size"), int("min_local_bsz"), int("max_local_bsz")),
            "{}",
            settings.name
        );
        for (epoch, progress) in want["progress"].as_array().unwrap().iter().enumerate() {
            // pandas' CSV float parser can be one ulp off the correctly rounded value we read.
            assert!(close(app.progress_at(epoch), progress.as_f64().unwrap()), "{} epoch {epoch}", settings.name);
        }
        for query in want["throughput"].as_array().unwrap() {
            let placement: Vec<u32> =
                query[0].as_array().unwrap().iter().map(|gpus| gpus.as_u64().unwrap() as u32).collect();
            let local = query[1].as_f64().unwrap();
            let [step, sync] = app.step_times(&placement, local).unwrap();
            let (want_step, want_sync) = (query[2].as_f64().unwrap(), query[3].as_f64().unwrap());
            assert!(
                close(step, want_step) && close(sync, want_sync),
                "{} {placement:?} local {local}: got ({step}, {sync}), artifact ({want_step}, {want_sync})",
                settings.name
            );
            checked += 1;
        }
        for (stats, iteration) in
            want["grad_stats"].as_array().unwrap().iter().zip(want["iteration"].as_array().unwrap())
        {
            let batch = stats[0].as_f64().unwrap();
            let epoch = stats[1].as_u64().unwrap() as usize;
            let (sqr, var) = app.grad_stats(batch, epoch).unwrap();
            assert!(
                close(sqr, stats[2].as_f64().unwrap()) && close(var, stats[3].as_f64().unwrap()),
                "{}",
                settings.name
            );
            assert!(close(app.iteration(batch, epoch).unwrap(), iteration[2].as_f64().unwrap()), "{}", settings.name);
        }
    }
    assert_eq!(checked, 240);
}
