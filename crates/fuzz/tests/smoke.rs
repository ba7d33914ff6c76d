//! A bounded fuzz smoke run in `cargo test`: every seed input (the format fixtures, the
//! committed specs, every policy name) and the inputs a campaign found (`fuzz/regressions/`),
//! each as it is and in seeded random mutations, through every target. A panic or a broken
//! property fails the test with the input that caused it.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schedlab_fuzz::{TARGETS, trace_input};
use schedlab_trace::TraceFormat;
use std::path::{Path, PathBuf};

/// Mutants made of each seed input.
const MUTANTS: usize = 300;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Values that loaders and parsers must refuse or handle, spliced into inputs.
const TOKENS: &[&str] = &[
    "-1",
    "0",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "1e308",
    "1e-320",
    "18446744073709551616",
    "\"",
    "'",
    ",",
    ";",
    "\t",
    "\n",
    "\r\n",
    "\u{feff}",
    "[",
    "]",
    "{",
    "}",
    ":",
    "- ",
    "&a",
    "*a",
    "None",
    "null",
    "true",
    "2017-11-05 01:30:00",
    "9999-12-31 23:59:60",
    "=",
    "|",
    "\0",
];

/// A seeded random edit of `input`: flips, deletions, duplications and spliced tokens.
fn mutate(input: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut bytes = input.to_vec();
    for _ in 0..rng.random_range(1..4) {
        let at = if bytes.is_empty() { 0 } else { rng.random_range(0..bytes.len()) };
        match rng.random_range(0..4) {
            0 if !bytes.is_empty() => bytes[at] ^= 1 << rng.random_range(0..8),
            1 if !bytes.is_empty() => {
                let end = (at + rng.random_range(1..16)).min(bytes.len());
                bytes.drain(at..end);
            }
            2 if !bytes.is_empty() => {
                let end = (at + rng.random_range(1..64)).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => {
                let token = TOKENS[rng.random_range(0..TOKENS.len())].as_bytes();
                bytes.splice(at..at, token.iter().copied());
            }
        }
    }
    bytes
}

/// The seed inputs of a target.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    match target {
        "trace" => {
            let fixtures = root().join("traces/fixtures");
            for (file, format) in [
                ("philly-pollux.csv", TraceFormat::PhillyPollux),
                ("philly-gavel-dist.csv", TraceFormat::PhillyGavelDist),
                ("philly-raw.json", TraceFormat::PhillyRaw),
                ("helios-cluster_log.csv", TraceFormat::Helios),
                ("helios-dirlab.csv", TraceFormat::HeliosDirlab),
                ("alibaba-openb.csv", TraceFormat::AlibabaOpenb),
                ("gavel-mixed.trace", TraceFormat::Gavel),
                ("pollux-workload.csv", TraceFormat::Pollux),
                ("rltune.csv", TraceFormat::RltuneSwf),
            ] {
                let bytes = std::fs::read(fixtures.join(file)).unwrap();
                seeds.push((file.to_string(), trace_input(format, &bytes)));
            }
            let pai = fixtures.join("alibaba-pai");
            let mut tables = std::fs::read(pai.join("pai_job_table.csv")).unwrap();
            tables.push(0x0c);
            tables.extend(std::fs::read(pai.join("pai_task_table.csv")).unwrap());
            seeds.push(("alibaba-pai".to_string(), trace_input(TraceFormat::AlibabaPai, &tables)));
        }
        "spec" => {
            for dir in ["experiments", "experiments/ci"] {
                let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
                    .unwrap()
                    .map(|entry| entry.unwrap().path())
                    .filter(|path| path.extension().is_some_and(|extension| extension == "yaml"))
                    .collect();
                files.sort();
                for path in files {
                    seeds.push((path.display().to_string(), std::fs::read(&path).unwrap()));
                }
            }
        }
        "policy" => {
            for entry in schedlab_zoo::entries() {
                let bare = schedlab_core::PolicyParams { name: entry.name.to_string(), args: Vec::new() };
                let summary = entry.describe(&bare).unwrap();
                seeds.push((entry.name.to_string(), summary.name.into_bytes()));
            }
            for text in ["las[quantum=600,service=time]", "gavel-ftf-packed[min_interval=7200,max_iterations=3]"] {
                seeds.push((text.to_string(), text.as_bytes().to_vec()));
            }
        }
        _ => unreachable!("a listed target"),
    }
    // Inputs earlier campaigns found, kept as regressions.
    if let Ok(entries) = std::fs::read_dir(root().join("fuzz/regressions").join(target)) {
        let mut found: Vec<PathBuf> = entries.map(|entry| entry.unwrap().path()).collect();
        found.sort();
        for path in found.into_iter().filter(|path| path.is_file()) {
            seeds.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
    seeds
}

#[test]
fn every_target_survives_its_seeds_and_their_mutants() {
    for (target, run) in TARGETS {
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        let seeds = seeds(target);
        assert!(seeds.len() >= 3, "{target}: too few seeds");
        for (name, seed) in &seeds {
            let check = |input: &[u8]| {
                let outcome = std::panic::catch_unwind(|| run(input));
                match outcome {
                    Ok(Ok(())) => {}
                    Ok(Err(broken)) => panic!("{target} on a mutant of {name}: {broken}\ninput: {input:?}"),
                    Err(_) => {
                        panic!("{target} panicked on a mutant of {name}\ninput: {:?}", String::from_utf8_lossy(input))
                    }
                }
            };
            check(seed);
            for _ in 0..MUTANTS {
                check(&mutate(seed, &mut rng));
            }
        }
    }
    let _ = std::fs::remove_dir_all(schedlab_fuzz::scratch_dir());
}
