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
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn every_query_matches_the_artifact() {
    schedlab_core::datadir::test_data_file(root(), "pollux/profiles/cifar10/placements.csv");
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

#[test]
fn the_agents_fit_matches_the_artifacts() {
    use schedlab_goodput::fit::objective;
    use schedlab_goodput::{Measurement, fit_perf_params};
    let reference: serde_json::Value = serde_json::from_str(include_str!("fixtures/artifact_reference.json")).unwrap();
    let fits = reference["fits"].as_array().unwrap();
    assert_eq!(fits.len(), 8);
    let mut same = 0;
    for case in fits {
        let data: Vec<Measurement> = case["measurements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| Measurement {
                nodes: m[0].as_u64().unwrap() as u32,
                replicas: m[1].as_u64().unwrap() as u32,
                atomic_bsz: m[2].as_u64().unwrap() as u32,
                accum_time: m[3].as_f64().unwrap(),
                step_time: m[4].as_f64().unwrap(),
            })
            .collect();
        let fitted = fit_perf_params(&data).unwrap().to_array();
        let want: [f64; 7] = case["fitted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect::<Vec<f64>>()
            .try_into()
            .unwrap();
        // The same L-BFGS-B (3.0) from the same start with the same gradient up to rounding
        // (autograd there, analytic here): never a worse fit, and where both end at the same
        // objective (to 1e-4; the stopping test is on relative change), the same parameters
        // to about three digits. (On one of the eight the paths part, and ours ends lower:
        // 0.0103 against 0.0155.)
        let mut scratch = [0.0; 7];
        let ours = objective(&fitted, &data, &mut scratch);
        let theirs = objective(&want, &data, &mut scratch);
        assert!(ours <= theirs * (1.0 + 1e-6), "{data:?}: objective {ours} vs artifact {theirs}");
        if (ours - theirs).abs() <= 1e-4 * theirs {
            same += 1;
            for (k, (got, want)) in fitted.iter().zip(&want).enumerate() {
                assert!(
                    (got - want).abs() <= 1e-3 * want.abs().max(1e-6),
                    "parameter {k} of {data:?}: {got} vs artifact {want}"
                );
            }
        }
    }
    assert!(same >= 7, "{same} of 8 fits end where the artifact's do");
}

#[test]
fn the_agents_batch_choice_matches_the_artifacts() {
    use schedlab_goodput::{GoodputFunction, GradParams, PerfParams};
    let reference: serde_json::Value = serde_json::from_str(include_str!("fixtures/artifact_reference.json")).unwrap();
    let optima = reference["optima"].as_array().unwrap();
    assert_eq!(optima.len(), 80);
    for case in optima {
        let params: Vec<f64> = case["params"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        let grad = &case["grad"];
        let model = GoodputFunction {
            perf: PerfParams::from_array(params.try_into().unwrap()),
            grad: GradParams { sqr: grad[0].as_f64().unwrap(), var: grad[1].as_f64().unwrap() },
            init_batch_size: 128.0,
        };
        let nodes = case["nodes"].as_u64().unwrap() as u32;
        let replicas = case["replicas"].as_u64().unwrap() as u32;
        let best = model.optimize(nodes, replicas, 4096.0, (32.0, 256.0), true);
        let want = case["goodput"].as_f64().unwrap();
        assert!(close(best.goodput, want), "{case}: goodput {}", best.goodput);
        assert_eq!(
            (u64::from(best.atomic_bsz), u64::from(best.accum_steps)),
            (case["atomic_bsz"].as_u64().unwrap(), case["accum_steps"].as_u64().unwrap()),
            "{case}"
        );
    }
}
