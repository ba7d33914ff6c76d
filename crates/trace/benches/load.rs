//! Loader speed: the real `philly-pollux` file end to end, and a 1-million-row synthetic CSV in
//! the same format. Prints bytes held per loaded job.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use schedlab_core::datadir::data_dir_from;
use schedlab_trace::formats::philly;
use std::io::Write;
use std::path::Path;

fn synthetic_philly(rows: usize) -> tempfile_path::TempPath {
    let path = tempfile_path::TempPath::new("schedlab-bench-philly.csv");
    let mut file = std::io::BufWriter::new(std::fs::File::create(path.path()).unwrap());
    writeln!(file, "timestamp,duration,num_gpus,gpu_time,cluster").unwrap();
    for index in 0..rows {
        let day = 1 + index % 28;
        let (hour, minute, second) = (index % 24, index % 60, (index * 7) % 60);
        let gpus = [1, 1, 1, 2, 4, 8][index % 6];
        let duration = 60.0 + (index % 10_000) as f64;
        writeln!(
            file,
            "2017-10-{day:02} {hour:02}:{minute:02}:{second:02},{duration},{gpus},{},vc{}",
            duration * gpus as f64,
            index % 11
        )
        .unwrap();
    }
    file.flush().unwrap();
    path
}

/// A file in the system temp folder that is removed when dropped.
mod tempfile_path {
    pub struct TempPath(std::path::PathBuf);
    impl TempPath {
        pub fn new(name: &str) -> TempPath {
            TempPath(std::env::temp_dir().join(format!("{}-{name}", std::process::id())))
        }
        pub fn path(&self) -> &std::path::Path {
            &self.0
        }
    }
    impl Drop for TempPath {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

fn loaders(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("load");
    group.sample_size(10);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if let Some(dir) = data_dir_from(&root) {
        let path = dir.join("philly/philly-pollux.csv");
        let trace = philly::load_pollux(&path).unwrap();
        eprintln!("philly-pollux: {} jobs, {:.1} bytes per job", trace.jobs.len(), trace.bytes_per_job());
        group.throughput(Throughput::Elements(trace.jobs.len() as u64));
        group.bench_function("philly_pollux_real", |bencher| bencher.iter(|| philly::load_pollux(&path).unwrap()));
    } else {
        eprintln!("no data directory: skipping the real philly-pollux file");
    }
    let synthetic = synthetic_philly(1_000_000);
    let trace = philly::load_pollux(synthetic.path()).unwrap();
    eprintln!("synthetic: {} jobs, {:.1} bytes per job", trace.jobs.len(), trace.bytes_per_job());
    group.throughput(Throughput::Elements(1_000_000));
    group.bench_function("philly_pollux_1m_rows", |bencher| {
        bencher.iter(|| philly::load_pollux(synthetic.path()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, loaders);
criterion_main!(benches);
