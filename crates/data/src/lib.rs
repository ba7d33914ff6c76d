//! The public data files schedlab reads: their sources ([`Sources`], from
//! `traces/sources.json`), downloading them ([`fetch`]) and checking them ([`verify`]).
//!
//! Every file has a recorded SHA-256. A download goes to a temporary file in the data
//! directory, is verified, and only then renamed into place, so a failed or tampered download
//! never replaces a good file.

#![deny(missing_docs)]

mod folder;

use folder::Folder;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The sources shipped with schedlab.
pub const BUILTIN_SOURCES: &str = include_str!("../../../traces/sources.json");

/// One data file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceFile {
    /// Path inside the data directory.
    pub path: String,
    /// Hex SHA-256 of the file's bytes.
    pub sha256: String,
    /// Size in bytes.
    pub bytes: u64,
    /// Where to download it, if it can be downloaded as is.
    pub url: Option<String>,
    /// Repository and commit, or how the file was derived.
    pub source: String,
    /// Licence.
    pub licence: String,
    /// How to build the file from a public original when it cannot be downloaded as is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derive: Option<Derivation>,
}

/// A file built from a downloadable original by a conversion schedlab implements.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Derivation {
    /// Where the original is downloaded from.
    pub url: String,
    /// Hex SHA-256 of the original.
    pub sha256: String,
    /// The original's size in bytes.
    pub bytes: u64,
    /// How the file is made from the original.
    pub convert: Conversion,
}

/// The conversions [`fetch`] can apply to an original.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Conversion {
    /// Gavel's `philly_job_distribution.pickle` (a pickled list of `(duration_s, num_gpus)`
    /// tuples) as a CSV with the header `duration_s,num_gpus`, durations printed as C's `%g`
    /// (six significant digits) and GPU counts as integers, in the pickle's order.
    GavelPhillyPickle,
    /// The member of this name in a gzip-compressed tar archive, as it is.
    TarGzMember(String),
}

/// The list of data files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sources {
    /// Provenance note.
    pub note: String,
    /// The files.
    pub files: Vec<SourceFile>,
}

/// Occurs when the sources list is malformed or a file cannot be fetched or verified.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DataError {
    /// Occurs when the sources JSON does not parse.
    #[error("sources list: {0}")]
    Sources(String),
    /// Occurs when a download fails.
    #[error("{path}: download from {url} failed: {message}")]
    Download {
        /// The file.
        path: String,
        /// The URL.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// Occurs when a file's checksum does not match.
    #[error("{path}: SHA-256 is {found}, expected {expected}{hint}")]
    Checksum {
        /// The file.
        path: String,
        /// The recorded checksum.
        expected: String,
        /// The checksum found.
        found: String,
        /// What happened to the file.
        hint: String,
    },
    /// Occurs on a local I/O error.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        message: String,
    },
}

impl Sources {
    /// The SHA-256 recorded for each file, by its path inside the data directory (what a run
    /// compares its data files with, `RunOptions::known_checksums`).
    pub fn checksums(&self) -> std::collections::BTreeMap<String, String> {
        self.files.iter().map(|file| (file.path.clone(), file.sha256.clone())).collect()
    }

    /// Parses a sources list. Every entry's `path` must stay inside the data directory: relative,
    /// made of plain names (no `..`, `.`, root or drive part), so that a shared list cannot make
    /// `data fetch` write anywhere else.
    pub fn parse(text: &str) -> Result<Sources, DataError> {
        let sources: Sources = serde_json::from_str(text).map_err(|error| DataError::Sources(error.to_string()))?;
        for (index, file) in sources.files.iter().enumerate() {
            check_inside(&file.path).map_err(|why| {
                DataError::Sources(format!(
                    "files[{index}]: path '{}' {why}; expected a relative path of plain names inside the data \
                     directory, such as 'philly/philly-pollux.csv'",
                    file.path.escape_debug()
                ))
            })?;
        }
        Ok(sources)
    }

    /// The list shipped with schedlab.
    pub fn builtin() -> Sources {
        Sources::parse(BUILTIN_SOURCES).expect("the shipped sources list parses")
    }

    /// Returns the entry for a path inside the data directory, if listed.
    pub fn find(&self, path: &str) -> Option<&SourceFile> {
        self.files.iter().find(|file| file.path == path)
    }
}

/// Why `path` would lead outside the data directory, if it would.
fn check_inside(path: &str) -> Result<(), String> {
    use std::path::Component;
    if path.is_empty() {
        return Err("is empty".into());
    }
    if path.contains('\\') || path.contains('\0') {
        return Err("holds a backslash or NUL byte".into());
    }
    for component in Path::new(path).components() {
        match component {
            Component::Normal(_) => {}
            Component::ParentDir => return Err("has a '..' component".into()),
            Component::CurDir => return Err("has a '.' component".into()),
            Component::RootDir | Component::Prefix(_) => return Err("is absolute".into()),
        }
    }
    Ok(())
}

/// Where `file` goes in `dir`, refusing a destination whose existing folders lead out of `dir`
/// through a symbolic link.
fn destination(dir: &Path, file: &SourceFile) -> Result<PathBuf, DataError> {
    check_inside(&file.path).map_err(|why| DataError::Sources(format!("path '{}' {why}", file.path.escape_debug())))?;
    let path = dir.join(&file.path);
    let Ok(root) = dir.canonicalize() else { return Ok(path) };
    // The deepest folder on the way that exists: it must resolve inside the data directory.
    let mut existing = path.parent();
    while let Some(folder) = existing {
        if let Ok(resolved) = folder.canonicalize() {
            if !resolved.starts_with(&root) {
                return Err(DataError::Sources(format!(
                    "path '{}' leads out of the data directory {} through a symbolic link ({} resolves to {})",
                    file.path,
                    root.display(),
                    folder.display(),
                    resolved.display()
                )));
            }
            break;
        }
        existing = folder.parent();
    }
    // A symbolic link as the file itself is fine: the verified download is renamed over the
    // link, which replaces the link and writes nothing where it pointed.
    Ok(path)
}

/// Lowercase hex of a digest.
fn hex(digest: &[u8]) -> String {
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// A local I/O error on `path`.
fn io_error(path: &Path, error: std::io::Error) -> DataError {
    DataError::Io { path: path.display().to_string(), message: error.to_string() }
}

/// Hex SHA-256 of a file.
pub fn sha256_file(path: &Path) -> Result<String, DataError> {
    let io = |error: std::io::Error| io_error(path, error);
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let read = file.read(&mut buffer).map_err(io)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hex(&hasher.finalize()))
}

/// The state of one file in a data directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileState {
    /// Present with the recorded checksum.
    Ok,
    /// Not present.
    Missing,
    /// Present with another checksum (found).
    Modified(String),
}

/// Checks every listed file in `dir`.
pub fn verify(sources: &Sources, dir: &Path) -> Result<Vec<(SourceFile, FileState)>, DataError> {
    sources
        .files
        .iter()
        .map(|file| {
            let path = dir.join(&file.path);
            if !path.is_file() {
                return Ok((file.clone(), FileState::Missing));
            }
            let found = sha256_file(&path)?;
            let state = if found == file.sha256 { FileState::Ok } else { FileState::Modified(found) };
            Ok((file.clone(), state))
        })
        .collect()
}

/// What [`fetch`] did with one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fetched {
    /// Already present with the right checksum.
    AlreadyPresent,
    /// Downloaded and verified.
    Downloaded,
    /// Built from its downloaded original ([`Derivation`]) and verified.
    Converted,
    /// Not downloadable (no URL); the reason says how to get it.
    NoUrl(String),
}

/// Formats a number as C's `printf("%g")` (and Python's `'%g' %`) does: six significant
/// digits, exponent form when the exponent is below -4 or at least 6, trailing zeros removed.
pub fn format_g(value: f64) -> String {
    if value == 0.0 {
        return if value.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    if !value.is_finite() {
        return if value.is_nan() {
            "nan".into()
        } else if value > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    // Rounded to six significant digits first: the exponent is the rounded value's.
    let scientific = format!("{value:.5e}");
    let (mantissa, exponent) = scientific.split_once('e').expect("exponent form");
    let exponent: i32 = exponent.parse().expect("an integer exponent");
    let trim = |text: &str| -> String {
        if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text.to_string() }
    };
    if !(-4..6).contains(&exponent) {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), exponent.abs())
    } else {
        let decimals = (5 - exponent) as usize;
        trim(&format!("{value:.decimals$}"))
    }
}

/// Builds a file from its original's bytes.
fn convert(conversion: &Conversion, original: &[u8]) -> Result<Vec<u8>, String> {
    match conversion {
        Conversion::TarGzMember(member) => {
            let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(original));
            let entries = archive.entries().map_err(|error| format!("not a .tar.gz archive: {error}"))?;
            let mut names = Vec::new();
            for entry in entries {
                let mut entry = entry.map_err(|error| format!("not a .tar.gz archive: {error}"))?;
                let name = entry.path().map_err(|error| error.to_string())?.display().to_string();
                if name == *member {
                    let mut bytes = Vec::new();
                    entry.read_to_end(&mut bytes).map_err(|error| format!("{member}: {error}"))?;
                    return Ok(bytes);
                }
                names.push(name);
            }
            Err(format!("the archive has no member '{member}' (it has: {})", names.join(", ")))
        }
        Conversion::GavelPhillyPickle => {
            let pairs: Vec<(f64, i64)> = serde_pickle::from_slice(original, serde_pickle::DeOptions::new())
                .map_err(|error| format!("not a pickled list of (duration, GPUs) pairs: {error}"))?;
            let mut csv = String::from("duration_s,num_gpus\n");
            for (duration, gpus) in pairs {
                csv.push_str(&format!("{},{gpus}\n", format_g(duration)));
            }
            Ok(csv.into_bytes())
        }
    }
}

/// Downloads every listed file whose path starts with `only` (all if empty) into `dir`,
/// skipping files already present and valid. `progress(path, bytes_done, bytes_total)` is
/// called as bytes arrive. A file is written to a temporary name, created exclusively in its
/// folder (opened once, no symbolic link followed below `dir`), verified, then renamed.
pub fn fetch(
    sources: &Sources,
    dir: &Path,
    only: &str,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> Result<Vec<(String, Fetched)>, DataError> {
    let mut report = Vec::new();
    for file in sources.files.iter().filter(|file| file.path.starts_with(only)) {
        let path = destination(dir, file)?;
        if path.is_file() && sha256_file(&path)? == file.sha256 {
            report.push((file.path.clone(), Fetched::AlreadyPresent));
            continue;
        }
        if file.url.is_none() && file.derive.is_none() {
            report.push((file.path.clone(), Fetched::NoUrl(file.source.clone())));
            continue;
        }
        let folder = Folder::open(dir, &file.path)?;
        let name = file_name(file);
        let temporary = temporary_name(name, "part");
        if let Some(url) = &file.url {
            download(file, url, &folder, &temporary, progress)?;
            report.push((file.path.clone(), Fetched::Downloaded));
        } else if let Some(derivation) = &file.derive {
            build_from_original(file, derivation, &folder, &temporary, progress)?;
            report.push((file.path.clone(), Fetched::Converted));
        }
        if let Err(error) = folder.rename(&temporary, name) {
            folder.remove(&temporary);
            return Err(error);
        }
    }
    Ok(report)
}

/// The last component of `file`'s path (checked by [`destination`] to be plain names).
fn file_name(file: &SourceFile) -> &str {
    Path::new(&file.path).file_name().and_then(|name| name.to_str()).expect("checked: plain names")
}

/// A hidden temporary name beside `name`, with this process's id and `tag` (`part`, `original`).
fn temporary_name(name: &str, tag: &str) -> String {
    format!(".{name}.{}.{tag}", std::process::id())
}

/// Downloads `derivation`'s original (verified), converts it, and writes the file to
/// `temporary` once its own SHA-256 matches; the original is not kept.
fn build_from_original(
    file: &SourceFile,
    derivation: &Derivation,
    folder: &Folder,
    temporary: &str,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> Result<(), DataError> {
    let original_name = temporary_name(file_name(file), "original");
    let original = SourceFile {
        path: format!("{} (original: {})", file.path, derivation.url),
        sha256: derivation.sha256.clone(),
        bytes: derivation.bytes,
        url: Some(derivation.url.clone()),
        source: file.source.clone(),
        licence: file.licence.clone(),
        derive: None,
    };
    let mut written = download(&original, &derivation.url, folder, &original_name, progress)?;
    let mut bytes = Vec::new();
    let read = written.seek(SeekFrom::Start(0)).and_then(|_| written.read_to_end(&mut bytes));
    drop(written);
    folder.remove(&original_name);
    read.map_err(|error| io_error(&folder.path_of(&original_name), error))?;
    let built = convert(&derivation.convert, &bytes).map_err(|message| DataError::Download {
        path: file.path.clone(),
        url: derivation.url.clone(),
        message,
    })?;
    let found = hex(&Sha256::digest(&built));
    if found != file.sha256 {
        return Err(DataError::Checksum {
            path: file.path.clone(),
            expected: file.sha256.clone(),
            found,
            hint: format!("; built from {}, the result was discarded and no file was changed", derivation.url),
        });
    }
    let mut output = folder.create_new(temporary)?;
    let written = output.write_all(&built).and_then(|()| output.flush());
    if let Err(error) = written {
        folder.remove(temporary);
        return Err(io_error(&folder.path_of(temporary), error));
    }
    Ok(())
}

/// Downloads `url` into `temporary` in `folder` (created before anything is requested) and
/// verifies it; returns the open file. On any failure the temporary file is removed.
fn download(
    file: &SourceFile,
    url: &str,
    folder: &Folder,
    temporary: &str,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> Result<File, DataError> {
    let mut output = folder.create_new(temporary)?;
    let result = write_download(file, url, &mut output, &folder.path_of(temporary), progress);
    match result {
        Ok(()) => Ok(output),
        Err(error) => {
            drop(output);
            folder.remove(temporary);
            Err(error)
        }
    }
}

/// Streams `url` into `output` (at `path`, for messages) and checks its SHA-256.
fn write_download(
    file: &SourceFile,
    url: &str,
    output: &mut File,
    path: &Path,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> Result<(), DataError> {
    let fail = |message: String| DataError::Download { path: file.path.clone(), url: url.to_string(), message };
    let response = ureq::get(url).call().map_err(|error| fail(error.to_string()))?;
    let mut reader = response.into_body().into_reader();
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut done = 0u64;
    loop {
        let read = reader.read(&mut buffer).map_err(|error| fail(error.to_string()))?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        output.write_all(&buffer[..read]).map_err(|error| io_error(path, error))?;
        done += read as u64;
        progress(&file.path, done, file.bytes);
    }
    output.flush().map_err(|error| io_error(path, error))?;
    let found = hex(&hasher.finalize());
    if found != file.sha256 {
        return Err(DataError::Checksum {
            path: file.path.clone(),
            expected: file.sha256.clone(),
            found,
            hint: "; the download was discarded and no file was changed".into(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_formatted_as_c_and_python_format_g() {
        // Python 3.11's '%g' % value for each.
        let cases = [
            (1565700.0, "1.5657e+06"),
            (7788.000000000001, "7788"),
            (0.0001234567, "0.000123457"),
            (1e-5, "1e-05"),
            (123456.7, "123457"),
            (999999.5, "1e+06"),
            (0.5, "0.5"),
            (100000.0, "100000"),
            (2749020.0, "2.74902e+06"),
            (0.0, "0"),
            (3904.9999999999995, "3905"),
            (1e300, "1e+300"),
            (12345650.0, "1.23456e+07"),
            (-42.25, "-42.25"),
        ];
        for (value, expected) in cases {
            assert_eq!(format_g(value), expected, "{value:?}");
        }
    }

    #[test]
    fn a_pickled_list_of_pairs_becomes_the_distribution_csv() {
        // pickle.dumps([(860662.0, 1), (1565700.0, 2), (7788.000000000001, 8)], protocol=3)
        let pickle: &[u8] = b"\x80\x03]q\x00(GA*C\xec\x00\x00\x00\x00K\x01\x86q\x01GA7\xe4\x04\x00\x00\x00\x00K\x02\x86q\x02G@\xbel\x00\x00\x00\x00\x01K\x08\x86q\x03e.";
        let csv = convert(&Conversion::GavelPhillyPickle, pickle).unwrap();
        assert_eq!(String::from_utf8(csv).unwrap(), "duration_s,num_gpus\n860662,1\n1.5657e+06,2\n7788,8\n");
        let error = convert(&Conversion::GavelPhillyPickle, b"not a pickle").unwrap_err();
        assert!(error.contains("not a pickled list"), "{error}");
    }

    #[test]
    fn a_tar_gz_member_is_extracted_as_it_is_and_a_missing_one_named() {
        let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default()));
        for (name, body) in [("README", &b"readme"[..]), ("pai_machine_spec.csv", &b"machine,gpu_type\nm1,V100\n"[..])]
        {
            let mut header = tar::Header::new_gnu();
            header.set_size(body.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            builder.append_data(&mut header, name, body).unwrap();
        }
        let archive = builder.into_inner().unwrap().finish().unwrap();
        let member = |name: &str| convert(&Conversion::TarGzMember(name.into()), &archive);
        assert_eq!(member("pai_machine_spec.csv").unwrap(), b"machine,gpu_type\nm1,V100\n");
        let error = member("other.csv").unwrap_err();
        assert_eq!(error, "the archive has no member 'other.csv' (it has: README, pai_machine_spec.csv)");
        let error = convert(&Conversion::TarGzMember("x".into()), b"plain text").unwrap_err();
        assert!(error.starts_with("not a .tar.gz archive"), "{error}");
        let parsed: Derivation =
            serde_json::from_str(r#"{"url": "u", "sha256": "s", "bytes": 1, "convert": {"tar-gz-member": "a.csv"}}"#)
                .unwrap();
        assert_eq!(parsed.convert, Conversion::TarGzMember("a.csv".into()));
    }

    fn listing(path: &str) -> String {
        format!(
            r#"{{"note": "n", "files": [{{"path": "philly/ok.csv", "sha256": "00", "bytes": 1, "url": null,
            "source": "s", "licence": "l"}}, {{"path": "{path}", "sha256": "00", "bytes": 1,
            "url": "http://127.0.0.1:9/x", "source": "s", "licence": "l"}}]}}"#
        )
    }

    #[test]
    fn a_listed_path_that_leaves_the_data_directory_is_refused_naming_the_entry() {
        for (path, why) in [
            ("../escaped.txt", "has a '..' component"),
            ("philly/../../escaped.txt", "has a '..' component"),
            ("/tmp/escaped.txt", "is absolute"),
            ("./philly/a.csv", "has a '.' component"),
            ("", "is empty"),
        ] {
            let message = Sources::parse(&listing(path)).unwrap_err().to_string();
            assert!(message.starts_with(&format!("sources list: files[1]: path '{path}' {why}")), "{message}");
        }
        assert!(Sources::parse(&listing("helios/cluster_log.csv")).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_that_links_out_of_the_data_directory_is_refused_before_any_download() {
        let root = std::env::temp_dir().join(format!("schedlab-data-link-{}", std::process::id()));
        let (data, outside) = (root.join("data"), root.join("outside"));
        std::fs::create_dir_all(&data).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, data.join("philly")).unwrap();
        let sources = Sources::parse(&listing("philly/new.csv")).unwrap();
        let error = fetch(&sources, &data, "philly/new", &mut |_, _, _| {}).unwrap_err().to_string();
        assert!(error.contains("leads out of the data directory") && error.contains("philly/new.csv"), "{error}");
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0, "nothing was written outside");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_swapped_for_a_link_after_the_check_is_still_refused() {
        // What a race between the check of where folders resolve and the write would look like:
        // the folder is opened one level at a time without following links, whatever was checked.
        let root = std::env::temp_dir().join(format!("schedlab-data-swapped-{}", std::process::id()));
        let (data, outside) = (root.join("data"), root.join("outside"));
        std::fs::create_dir_all(&data).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::os::unix::fs::symlink(&outside, data.join("philly")).unwrap();
        let error = Folder::open(&data, "philly/sub/new.csv").err().expect("refused").to_string();
        assert!(error.contains("leads out of the data directory"), "{error}");
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0, "no folder was made outside");
        let folder = Folder::open(&data, "helios/new.csv").expect("plain folders are made");
        folder.create_new("x").unwrap();
        assert!(data.join("helios/x").is_file());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_builtin_list_parses_and_names_the_main_files() {
        let sources = Sources::builtin();
        for path in ["philly/philly-pollux.csv", "gavel/simulation_throughputs.json", "philly/philly_vc.csv"] {
            let file = sources.find(path).unwrap_or_else(|| panic!("{path} is listed"));
            assert_eq!(file.sha256.len(), 64);
        }
    }
}
