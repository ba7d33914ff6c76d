//! `fetch` against an HTTP server on the loopback interface that the test starts (this machine
//! has no internet). The server answers a bounded number of requests and stops by itself.

use schedlab_data::{Conversion, DataError, Derivation, Fetched, FileState, SourceFile, Sources, fetch, verify};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::thread;

/// Serves `files` (URL path, body) for up to `requests` requests; unknown paths get 404.
fn serve(files: Vec<(&'static str, Vec<u8>)>, requests: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    thread::spawn(move || {
        for stream in listener.incoming().take(requests) {
            let mut stream = stream.unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).unwrap() == 0 || header == "\r\n" {
                    break;
                }
            }
            let path = request_line.split_whitespace().nth(1).unwrap_or("/").to_string();
            match files.iter().find(|(known, _)| *known == path) {
                Some((_, body)) => {
                    write!(stream, "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len())
                        .unwrap();
                    stream.write_all(body).unwrap();
                }
                None => {
                    write!(stream, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").unwrap()
                }
            }
        }
    });
    format!("http://{address}")
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect()
}

fn entry(path: &str, body: &[u8], url: Option<String>) -> SourceFile {
    SourceFile {
        path: path.into(),
        sha256: sha256(body),
        bytes: body.len() as u64,
        url,
        source: "test".into(),
        licence: "test".into(),
        derive: None,
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("schedlab-data-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn downloads_verifies_and_skips_what_is_already_there() {
    let trace = b"timestamp,duration,num_gpus,gpu_time,cluster\n".to_vec();
    let table = b"{\"v100\": {}}".to_vec();
    let base = serve(vec![("/a/trace.csv", trace.clone()), ("/b/table.json", table.clone())], 4);
    let sources = Sources {
        note: String::new(),
        files: vec![
            entry("philly/trace.csv", &trace, Some(format!("{base}/a/trace.csv"))),
            entry("gavel/table.json", &table, Some(format!("{base}/b/table.json"))),
            entry("philly/derived.csv", b"x", None),
        ],
    };
    let dir = temp_dir("ok");
    let mut seen = Vec::new();
    let report =
        fetch(&sources, &dir, "", &mut |path, done, total| seen.push((path.to_string(), done, total))).unwrap();
    assert_eq!(report[0].1, Fetched::Downloaded);
    assert_eq!(report[1].1, Fetched::Downloaded);
    assert!(matches!(report[2].1, Fetched::NoUrl(_)));
    assert_eq!(std::fs::read(dir.join("philly/trace.csv")).unwrap(), trace);
    assert!(seen.iter().any(|(path, done, total)| path == "philly/trace.csv" && done == total));
    // A second fetch downloads nothing.
    let again = fetch(&sources, &dir, "philly/", &mut |_, _, _| {}).unwrap();
    assert_eq!(again[0].1, Fetched::AlreadyPresent);
    let states: Vec<FileState> = verify(&sources, &dir).unwrap().into_iter().map(|(_, state)| state).collect();
    assert_eq!(states, vec![FileState::Ok, FileState::Ok, FileState::Missing]);
}

#[test]
fn a_tampered_download_is_refused_and_leaves_no_file() {
    let base = serve(vec![("/trace.csv", b"tampered".to_vec())], 1);
    let sources = Sources {
        note: String::new(),
        files: vec![entry("philly/trace.csv", b"original", Some(format!("{base}/trace.csv")))],
    };
    let dir = temp_dir("tampered");
    let error = fetch(&sources, &dir, "", &mut |_, _, _| {}).unwrap_err();
    assert!(matches!(error, DataError::Checksum { .. }), "{error}");
    assert!(error.to_string().contains("the download was discarded"), "{error}");
    let leftovers: Vec<_> = std::fs::read_dir(dir.join("philly")).unwrap().collect();
    assert!(leftovers.is_empty(), "no file, not even a partial one, remains");
}

#[test]
fn a_file_without_a_url_is_built_from_its_downloaded_original_and_verified() {
    // pickle.dumps([(860662.0, 1), (1565700.0, 2), (7788.000000000001, 8)], protocol=3)
    let pickle = b"\x80\x03]q\x00(GA*C\xec\x00\x00\x00\x00K\x01\x86q\x01GA7\xe4\x04\x00\x00\x00\x00K\x02\x86q\x02G@\xbel\x00\x00\x00\x00\x01K\x08\x86q\x03e.".to_vec();
    let csv = b"duration_s,num_gpus\n860662,1\n1.5657e+06,2\n7788,8\n";
    let derived = |url: String, csv: &[u8]| SourceFile {
        derive: Some(Derivation {
            url,
            sha256: sha256(&pickle),
            bytes: pickle.len() as u64,
            convert: Conversion::GavelPhillyPickle,
        }),
        ..entry("philly/philly-gavel-distribution.csv", csv, None)
    };
    let base = serve(vec![("/scheduler/d.pickle", pickle.clone())], 2);
    let dir = temp_dir("derived");
    let sources = Sources { note: String::new(), files: vec![derived(format!("{base}/scheduler/d.pickle"), csv)] };
    let report = fetch(&sources, &dir, "", &mut |_, _, _| {}).unwrap();
    assert_eq!(report[0].1, Fetched::Converted);
    assert_eq!(std::fs::read(dir.join("philly/philly-gavel-distribution.csv")).unwrap(), csv);
    // A conversion whose result differs from the recorded checksum writes nothing, nor keeps the original.
    let other = temp_dir("derived-mismatch");
    let sources = Sources {
        note: String::new(),
        files: vec![derived(format!("{base}/scheduler/d.pickle"), b"duration_s,num_gpus\n1,1\n")],
    };
    let error = fetch(&sources, &other, "", &mut |_, _, _| {}).unwrap_err().to_string();
    assert!(error.contains("built from http://") && error.contains("no file was changed"), "{error}");
    let leftovers: Vec<_> = std::fs::read_dir(other.join("philly")).unwrap().collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A link placed at the temporary name a fetch will use (the name is predictable: the file's,
/// the process id and a tag) is refused, and nothing is written where it points, for a plain
/// download and for a derived file's original.
#[cfg(unix)]
#[test]
fn a_link_planted_at_the_temporary_name_is_refused_and_nothing_is_written_through_it() {
    let body = b"timestamp,duration\n".to_vec();
    let base = serve(vec![("/trace.csv", body.clone())], 2);
    let mut derived = entry("philly/built.csv", b"built", None);
    derived.derive = Some(Derivation {
        url: format!("{base}/trace.csv"),
        sha256: sha256(&body),
        bytes: body.len() as u64,
        convert: Conversion::GavelPhillyPickle,
    });
    for (file, tag) in
        [(entry("philly/new.csv", &body, Some(format!("{base}/trace.csv"))), "part"), (derived, "original")]
    {
        let dir = temp_dir(&format!("planted-{tag}"));
        let outside = temp_dir(&format!("planted-{tag}-outside"));
        std::fs::create_dir_all(dir.join("philly")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        let name = std::path::Path::new(&file.path).file_name().unwrap().to_str().unwrap().to_string();
        let planted = dir.join("philly").join(format!(".{name}.{}.{tag}", std::process::id()));
        std::os::unix::fs::symlink(outside.join("victim"), &planted).unwrap();
        let sources = Sources { note: String::new(), files: vec![file] };
        let error = fetch(&sources, &dir, "", &mut |_, _, _| {}).unwrap_err().to_string();
        assert!(error.contains("already has this temporary name"), "{tag}: {error}");
        assert!(!outside.join("victim").exists(), "{tag}: written where the link points");
        assert!(planted.symlink_metadata().unwrap().file_type().is_symlink(), "{tag}: the link is left as it was");
        assert!(!dir.join("philly").join(&name).exists(), "{tag}: no file was fetched");
    }
}

#[test]
fn a_missing_url_reports_the_server_error() {
    let base = serve(vec![], 1);
    let sources = Sources { note: String::new(), files: vec![entry("x.csv", b"x", Some(format!("{base}/nope")))] };
    let error = fetch(&sources, &temp_dir("404"), "", &mut |_, _, _| {}).unwrap_err().to_string();
    assert!(error.contains("x.csv: download from http://127.0.0.1:") && error.contains("404"), "{error}");
}

#[test]
#[cfg_attr(
    schedlab_no_data,
    ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
)]
fn the_shared_data_directory_matches_the_recorded_checksums() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = schedlab_core::datadir::test_data_file(&root, "philly/philly-pollux.csv");
    let dir = path.parent().and_then(|philly| philly.parent()).unwrap();
    for (file, state) in verify(&Sources::builtin(), dir).unwrap() {
        assert_eq!(state, FileState::Ok, "{}", file.path);
    }
}
