//! FIFO's behaviour, written with the policy authors' test kit.

use schedlab_core::NodeId;
use schedlab_policies_basic::POLICIES;
use schedlab_testkit::{JobSpecExt, Scenario, job, policy, run};

fn started(decision: &schedlab_core::Decision) -> Vec<u32> {
    decision.start.iter().map(|(id, _)| id.0).collect()
}

#[test]
fn fifo_stops_at_the_first_job_that_does_not_fit_unless_it_backfills() {
    let mut scenario = Scenario::new("1x4 v100");
    scenario.arrive(job(0, 0.0, 2, 600.0)).arrive(job(1, 10.0, 4, 600.0)).arrive(job(2, 20.0, 1, 600.0));
    assert_eq!(started(&scenario.decide(&mut *policy(POLICIES, "fifo")).unwrap()), [0]);
    assert_eq!(started(&scenario.decide(&mut *policy(POLICIES, "fifo[backfill=true]")).unwrap()), [0, 2]);
}

#[test]
fn fifo_places_a_job_in_its_pool_and_waits_for_running_jobs() {
    let mut scenario = Scenario::new("1x4 v100 @a, 1x4 v100 @b");
    scenario.arrive(job(0, 0.0, 4, 600.0).in_pool("b"));
    let decision = scenario.decide(&mut *policy(POLICIES, "fifo")).unwrap();
    assert_eq!(decision.start[0].1.parts, [(NodeId(1), 4)], "pool b is node 1");
    scenario.running(0, 1).arrive(job(1, 5.0, 4, 600.0).in_pool("b"));
    assert!(scenario.decide(&mut *policy(POLICIES, "fifo")).unwrap().start.is_empty(), "pool b is full");
}

#[test]
fn fifo_through_the_engine_runs_jobs_back_to_back() {
    let records =
        run(&mut *policy(POLICIES, "fifo"), "1x4 v100", &[job(0, 0.0, 4, 100.0), job(1, 0.0, 4, 100.0)]).unwrap();
    assert_eq!(records.iter().map(|record| record.finish).collect::<Vec<_>>(), [Some(100.0), Some(200.0)]);
    assert_eq!(records[1].id, 1);
}
