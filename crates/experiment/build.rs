//! Marks the tests that need real data as ignored where no data directory is found and none is
//! required (`schedlab_data_locate::mark_tests_without_data`).

fn main() {
    schedlab_data_locate::mark_tests_without_data();
}
