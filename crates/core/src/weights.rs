//! Learned policies' weights, read the same way by every learned policy: `weights=NAME` (a
//! built-in, pinned in the policy's full name as `NAME@DIGEST`, so that new weights make new run
//! identities), `weights=NAME@DIGEST` (checked against this build's), or `weights=FILE.json` (a
//! data file, hashed into the runs' identity like any policy file), and loaded once per
//! [`PolicyEnv`].

use crate::{ParamError, ParamReader, PolicyEnv};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// A learned policy's built-in weights: `(name, the weights file's text)`.
pub type BuiltinWeights = [(&'static str, &'static str)];

/// Where a learned policy's weights come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Weights {
    /// The built-in weights with this index.
    Builtin(usize),
    /// A weights file in the data directory.
    File(String),
}

/// The first 8 hex digits of the SHA-256 of a weights file's text.
pub fn digest(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().take(4).map(|byte| format!("{byte:02x}")).collect()
}

/// [`digest`] of compile-time text, computed once per process: a pure function of data the
/// binary carries, so no run can see another's state (a sweep reads the same policy thousands
/// of times, and the weights run to hundreds of kilobytes).
fn static_digest(text: &'static str) -> String {
    static DIGESTS: OnceLock<Mutex<HashMap<(usize, usize), String>>> = OnceLock::new();
    let mut digests = DIGESTS.get_or_init(Default::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    digests.entry((text.as_ptr() as usize, text.len())).or_insert_with(|| digest(text)).clone()
}

/// Reads the `weights` parameter: a built-in name of `builtin` (default `default`), optionally
/// with its digest, or a `.json` data file. `unknown_hint` is added to the error for a name
/// that is neither.
pub fn read_weights(
    reader: &mut ParamReader<'_>,
    builtin: &'static BuiltinWeights,
    default: &str,
    unknown_hint: &str,
) -> Result<Weights, ParamError> {
    let given = reader.choice_text("weights", default)?;
    if given.ends_with(".json") {
        // A data file: its contents are hashed into the runs' identity.
        reader.declare_file(&given);
        return Ok(Weights::File(given));
    }
    let (name, asked) = match given.split_once('@') {
        Some((name, asked)) => (name, Some(asked)),
        None => (given.as_str(), None),
    };
    let error = |message: String| ParamError { policy: reader.name(), message };
    let Some(index) = builtin.iter().position(|(known, _)| *known == name) else {
        let known: Vec<&str> = builtin.iter().map(|(known, _)| *known).collect();
        let known = if known.is_empty() { "none in this build".to_string() } else { known.join(", ") };
        return Err(error(format!(
            "parameter 'weights': expected a built-in name ({known}) or a .json file, got '{given}'{unknown_hint}"
        )));
    };
    let actual = static_digest(builtin[index].1);
    if let Some(asked) = asked.filter(|asked| *asked != actual) {
        return Err(error(format!(
            "parameter 'weights': built-in '{name}' has digest {actual} in this build, not {asked}; use 'weights={name}' (runs stored under the old weights are not reused)"
        )));
    }
    reader.pin("weights", format!("{name}@{actual}"));
    Ok(Weights::Builtin(index))
}

/// Loads `weights` with `parse` (the text of a built-in, or of the data file), once per
/// environment: every run of a sweep shares the parsed weights. Errors name the file.
pub fn load_weights<T: std::any::Any + Send + Sync>(
    env: &PolicyEnv,
    weights: &Weights,
    builtin: &'static BuiltinWeights,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Arc<T>, String> {
    match weights {
        Weights::Builtin(index) => {
            let (name, text) = builtin[*index];
            env.shared_value(&format!("built-in weights {name}@{}", static_digest(text)), || parse(text))
        }
        Weights::File(path) => env.shared(path, |path| {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            parse(&text).map_err(|e| format!("{}: {e}", path.display()))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DataDir, PolicyParams};

    static BUILTIN: &BuiltinWeights = &[("tiny", "{\"w\": 1}"), ("other", "{\"w\": 2}")];

    fn read(text: &str) -> Result<(Weights, String), ParamError> {
        let params: PolicyParams = text.parse().unwrap();
        let mut reader = params.reader();
        let weights = read_weights(&mut reader, BUILTIN, "tiny", " (hint)")?;
        Ok((weights, reader.finish()?))
    }

    #[test]
    fn names_digests_and_files_are_read_and_checked() {
        assert_eq!(digest("abc"), "ba7816bf");
        let tiny = digest(BUILTIN[0].1);
        let (weights, name) = read("learned").unwrap();
        assert_eq!((weights, name), (Weights::Builtin(0), format!("learned[weights=tiny@{tiny}]")));
        assert_eq!(read(&format!("learned[weights=tiny@{tiny}]")).unwrap().0, Weights::Builtin(0));
        assert_eq!(read("learned[weights=mine.json]").unwrap().0, Weights::File("mine.json".into()));
        let stale = read("learned[weights=tiny@00000000]").unwrap_err().message;
        assert!(stale.contains(&format!("has digest {tiny} in this build, not 00000000")), "{stale}");
        let unknown = read("learned[weights=huge]").unwrap_err().message;
        assert!(
            unknown.contains("expected a built-in name (tiny, other) or a .json file, got 'huge' (hint)"),
            "{unknown}"
        );
    }

    #[test]
    fn built_in_weights_are_parsed_once_per_environment() {
        let env = PolicyEnv::new(DataDir::none());
        let calls = std::sync::atomic::AtomicUsize::new(0);
        let parse = |text: &str| {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(text.len())
        };
        let first = load_weights(&env, &Weights::Builtin(1), BUILTIN, parse).unwrap();
        let second = load_weights(&env, &Weights::Builtin(1), BUILTIN, parse).unwrap();
        assert_eq!((*first, Arc::ptr_eq(&first, &second)), (8, true));
        assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 1);
    }
}
