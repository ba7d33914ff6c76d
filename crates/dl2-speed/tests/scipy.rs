//! The interpolation against scipy's own: `fixtures/rbf_scipy.csv` holds `scipy.interpolate.Rbf`
//! (linear) evaluated on every configuration DL2 allows, written by `fixtures/rbf_scipy.py`.

use schedlab_dl2_speed::Dl2Speed;
use std::path::Path;

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn matches_scipy_on_every_configuration_dl2_allows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let table = schedlab_core::datadir::test_data_file(&root.join("../.."), "dl2/config_speed.txt");
    let model = Dl2Speed::load(&table).unwrap();
    let fixture = std::fs::read_to_string(root.join("tests/fixtures/rbf_scipy.csv")).unwrap();
    let mut compared = 0;
    let mut worst: f64 = 0.0;
    for line in fixture.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let (name, ps, workers) = (fields[0], fields[1].parse().unwrap(), fields[2].parse().unwrap());
        let expected: f64 = fields[3].parse().unwrap();
        let ours = model.speed(name, ps, workers).unwrap();
        // scipy's round-off at measured points is about 1e-13 (measured zeros come out as
        // -4e-13); ours returns the measurement there.
        let error = (ours - expected).abs() / expected.abs().max(1.0);
        worst = worst.max(error);
        assert!(error < 1e-9, "{name} ({ps}, {workers}): ours {ours}, scipy {expected}");
        compared += 1;
    }
    assert_eq!(compared, 8 * 16 * 16);
    eprintln!("largest relative difference from scipy: {worst:e}");
}
