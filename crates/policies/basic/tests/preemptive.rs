//! The preemptive baselines against FIFO on one scenario, written with the test kit: a short job
//! arrives while a long one holds the whole cluster.

use schedlab_policies_basic::POLICIES;
use schedlab_testkit::{job, policy, run};

/// When the short job (60 s, arriving at 600 s) finishes behind a long one (3,600 s from 0 s)
/// on one 4-GPU node.
fn short_job_finish(name: &str) -> f64 {
    let jobs = [job(0, 0.0, 4, 3600.0), job(1, 600.0, 4, 60.0)];
    let records =
        run(&mut *policy(POLICIES, name), "1x4 v100", &jobs).unwrap_or_else(|error| panic!("{name}: {error}"));
    assert!(records.iter().all(|record| record.finish.is_some()), "{name}: {records:?}");
    records[1].finish.unwrap()
}

#[test]
fn fifo_makes_the_short_job_wait_and_the_preemptive_baselines_let_it_through() {
    // Gandiva slices: the long job's quantum (60 s) ends at 600 s, when the short job arrives,
    // and the short job runs 600-660 s.
    assert_eq!(short_job_finish("gandiva"), 660.0, "Gandiva: its turn comes at once");
    assert_eq!(short_job_finish("fifo"), 3660.0, "FIFO: after the long job");
    for preemptive in ["las", "tiresias", "srtf", "gandiva"] {
        let finish = short_job_finish(preemptive);
        assert!(finish < 3600.0, "{preemptive}: the short job preempts the long one: {finish}");
    }
}

#[test]
fn gandiva_takes_turns_a_quantum_at_a_time() {
    // One GPU, quantum 60 s; A needs 150 s and B 100 s, both from 0 s. A runs 0-60, B 60-120,
    // A 120-180, B 180-220 (done), then A alone 220-250.
    let jobs = [job(0, 0.0, 1, 150.0), job(1, 0.0, 1, 100.0)];
    let records = run(&mut *policy(POLICIES, "gandiva[quantum=60]"), "1x1 v100", &jobs).unwrap();
    let finish: Vec<f64> = records.iter().map(|record| record.finish.unwrap()).collect();
    assert_eq!(finish, [250.0, 220.0]);
    assert_eq!((records[0].restarts, records[1].restarts), (2, 1));
}
