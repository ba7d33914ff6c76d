//! The policy zoo: every policy crate's [`PolicyEntry`]s, concatenated, and a name such as
//! `tiresias[starvation=2]` turned into a ready [`Policy`].
//!
//! Each policy crate exports a `POLICIES` slice; [`CRATES`] lists those slices, one line per
//! crate. Unknown names and unknown parameters are errors that list what is accepted; a test
//! fails when two entries share a name.

#![deny(missing_docs)]

use schedlab_core::{ParamError, ParamSummary, Policy, PolicyEntry, PolicyEnv, PolicyParams};
use std::sync::{Arc, RwLock};

/// Every policy crate's entries, in the order `schedlab policies` lists them.
/// `schedlab new-policy` adds one line here (and one dependency in this crate's Cargo.toml).
#[rustfmt::skip]
pub const CRATES: &[&[PolicyEntry]] = &[
    schedlab_policies_basic::POLICIES,
    schedlab_policies_gavel::POLICIES,
    schedlab_policies_hadar::POLICIES,
    schedlab_policies_pollux::POLICIES,
    schedlab_policies_rltune::POLICIES,
    schedlab_policies_dl2::POLICIES,
];

/// Every registered policy, in listing order.
pub fn entries() -> impl Iterator<Item = &'static PolicyEntry> {
    CRATES.iter().flat_map(|entries| entries.iter())
}

/// Occurs when a policy name cannot be resolved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ZooError {
    /// Occurs when no policy has this name.
    #[error("unknown policy '{name}'{hint}; known policies: {known}")]
    Unknown {
        /// The name given.
        name: String,
        /// `" (did you mean 'NAME'?)"` for a close registered name, or empty.
        hint: String,
        /// Every registered name, comma-separated.
        known: String,
    },
    /// Occurs when the name or a parameter is malformed or unknown, or a file it names cannot be
    /// read.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// Occurs when a name has a provider's prefix (`py:...`) but no provider of that prefix is
    /// installed in this process.
    #[error("policy '{name}': no provider of '{prefix}:' policies in this program{hint}")]
    NoProvider {
        /// The name given.
        name: String,
        /// Its prefix.
        prefix: String,
        /// Where such policies run, when schedlab knows.
        hint: String,
    },
}

/// Policies from outside the zoo's crates, named `PREFIX:PATH[params]`: the program that embeds
/// schedlab installs one provider per prefix (the Python package installs `py:`, whose paths
/// name a Python class as `package.module:Class`). A provider describes and builds policies as a
/// registry entry does; the files its summary lists (a class's source file, say) enter the run
/// identity like a policy's data files.
pub trait PolicyProvider: Send + Sync {
    /// Reads a policy's name and parameters without building it: its canonical name, accepted
    /// parameters and the files its runs depend on.
    fn describe(&self, params: &PolicyParams) -> Result<ParamSummary, ZooError>;

    /// Builds the policy.
    fn build(&self, params: &PolicyParams, env: &PolicyEnv) -> Result<Box<dyn Policy>, ZooError>;
}

/// The installed providers by prefix. Process-wide, as the program that embeds schedlab is: the
/// one global of the zoo, written only by [`install_provider`].
static PROVIDERS: RwLock<Vec<(String, Arc<dyn PolicyProvider>)>> = RwLock::new(Vec::new());

/// Installs `provider` for names `PREFIX:...`, replacing one installed before for that prefix.
pub fn install_provider(prefix: &str, provider: Arc<dyn PolicyProvider>) {
    let mut providers = PROVIDERS.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    providers.retain(|(known, _)| known != prefix);
    providers.push((prefix.to_string(), provider));
}

/// The provider of `params` when its name has a prefix (`Ok(None)` for a registry name).
fn provider(params: &PolicyParams) -> Result<Option<Arc<dyn PolicyProvider>>, ZooError> {
    let Some((prefix, _)) = params.name.split_once(':') else { return Ok(None) };
    let providers = PROVIDERS.read().unwrap_or_else(|poisoned| poisoned.into_inner());
    match providers.iter().find(|(known, _)| known == prefix) {
        Some((_, provider)) => Ok(Some(provider.clone())),
        None => Err(ZooError::NoProvider {
            name: params.to_string(),
            prefix: prefix.to_string(),
            hint: if prefix == "py" {
                "; a Python class runs from the schedlab Python package (`schedlab.run`, crates/py)".to_string()
            } else {
                String::new()
            },
        }),
    }
}

/// Returns the entry registered under `name`, if any.
pub fn find(name: &str) -> Option<&'static PolicyEntry> {
    entries().find(|entry| entry.name == name)
}

/// Returns the entry for `params`, or an error listing the known names.
pub fn entry(params: &PolicyParams) -> Result<&'static PolicyEntry, ZooError> {
    find(&params.name).ok_or_else(|| ZooError::Unknown {
        name: params.name.clone(),
        hint: schedlab_core::suggest::did_you_mean(&params.name, entries().map(|entry| entry.name)),
        known: entries().map(|entry| entry.name).collect::<Vec<_>>().join(", "),
    })
}

/// Reads a policy's parameters without building it (no I/O): its canonical name, accepted
/// parameters and the data files it would read.
pub fn describe(params: &PolicyParams) -> Result<ParamSummary, ZooError> {
    if let Some(provider) = provider(params)? {
        return provider.describe(params);
    }
    Ok(entry(params)?.describe(params)?)
}

/// Builds the policy written as `text`, e.g. `fifo[backfill=true]`.
pub fn build(text: &str, env: &PolicyEnv) -> Result<Box<dyn Policy>, ZooError> {
    let params: PolicyParams = text.parse()?;
    build_params(&params, env)
}

/// Builds a policy from already parsed parameters.
pub fn build_params(params: &PolicyParams, env: &PolicyEnv) -> Result<Box<dyn Policy>, ZooError> {
    if let Some(provider) = provider(params)? {
        return provider.build(params, env);
    }
    Ok(entry(params)?.build(params, env)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use schedlab_core::DataDir;

    fn root() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    #[test]
    fn names_are_unique_and_well_formed() {
        let mut names: Vec<&str> = entries().map(|entry| entry.name).collect();
        for name in &names {
            assert!(name.parse::<PolicyParams>().is_ok_and(|params| params.args.is_empty()), "bad name '{name}'");
        }
        names.sort_unstable();
        let duplicates: Vec<&&str> = names.windows(2).filter(|pair| pair[0] == pair[1]).map(|pair| &pair[0]).collect();
        assert!(duplicates.is_empty(), "policy names registered twice: {duplicates:?}");
    }

    /// Builds every entry that reads data files (`with_files`) or every other one, with its
    /// defaults, and checks that its canonical name round-trips.
    fn build_entries_with_defaults(with_files: bool) {
        let env = PolicyEnv::new(DataDir::locate_from(&root()));
        let mut built = 0;
        for entry in entries() {
            let bare = PolicyParams { name: entry.name.to_string(), args: Vec::new() };
            let summary = entry.describe(&bare).unwrap();
            if summary.files.is_empty() == with_files {
                continue;
            }
            // A name is the entry's, unless a parameter is pinned (built-in weights with their
            // digest); then the canonical name must describe to itself.
            if summary.name != entry.name {
                assert!(summary.name.starts_with(&format!("{}[", entry.name)), "{}", summary.name);
                assert_eq!(describe(&summary.name.parse().unwrap()).unwrap().name, summary.name);
            }
            let policy = entry.build(&bare, &env).unwrap();
            assert_eq!(policy.name(), summary.name);
            assert_eq!(policy.knowledge() == schedlab_core::Knowledge::Oracle, entry.oracle, "{}", entry.name);
            built += 1;
        }
        assert!(built > 0, "no entry {} data files", if with_files { "reads" } else { "reads no" });
    }

    #[test]
    fn every_entry_without_data_files_builds_with_defaults_and_names_round_trip() {
        build_entries_with_defaults(false);
        let env = PolicyEnv::new(DataDir::none());
        let policy = build("tiresias[starvation=2,thresholds=100:200]", &env).unwrap();
        assert_eq!(policy.name(), "tiresias[thresholds=100:200,starvation=2]");
    }

    #[test]
    #[cfg_attr(
        schedlab_no_data,
        ignore = "needs real data: no data directory was found (SCHEDLAB_DATA, ./data, ../shared/data)"
    )]
    fn every_entry_with_data_files_builds_with_defaults_and_names_round_trip() {
        schedlab_core::datadir::test_data_file(&root(), "gavel/simulation_throughputs.json");
        build_entries_with_defaults(true);
    }

    #[test]
    fn describing_lists_defaults_and_files_without_reading_them() {
        let params: PolicyParams = "gavel-las[throughputs=/nonexistent/table.json]".parse().unwrap();
        let summary = describe(&params).unwrap();
        assert_eq!(summary.files, vec!["/nonexistent/table.json".to_string()]);
        let error = build_params(&params, &PolicyEnv::new(DataDir::none())).err().unwrap().to_string();
        assert!(error.contains("parameter 'throughputs': data file '/nonexistent/table.json' not found"), "{error}");
        assert_eq!(
            find("las").unwrap().params_text(),
            "quantum=360, service=gpu_time|time, placement=consolidated|spread, same_type=true"
        );
        assert!(describe(&"fifo".parse().unwrap()).unwrap().files.is_empty());
    }

    fn error(text: &str) -> ZooError {
        build(text, &PolicyEnv::new(DataDir::none())).err().expect("should fail")
    }

    #[test]
    fn errors_list_what_is_accepted() {
        let err = error("fifo2");
        assert!(
            err.to_string()
                .starts_with("unknown policy 'fifo2' (did you mean 'fifo'?); known policies: fifo, sjf, srtf"),
            "{err}"
        );
        let err = error("las[quantum=-1]");
        assert!(err.to_string().contains("expected a positive number, got -1"), "{err}");
        let err = error("fifo[backfil=true]");
        assert!(err.to_string().contains("accepted parameters: backfill, placement, same_type"), "{err}");
    }

    /// Builds the registry's policy named by the path: `alias:fifo[backfill=true]` is `fifo[backfill=true]`.
    struct Alias;

    impl PolicyProvider for Alias {
        fn describe(&self, params: &PolicyParams) -> Result<ParamSummary, ZooError> {
            let mut summary =
                describe(&PolicyParams { name: params.name["alias:".len()..].to_string(), ..params.clone() })?;
            summary.name = format!("alias:{}", summary.name);
            summary.files.push("alias.txt".to_string());
            Ok(summary)
        }

        fn build(&self, params: &PolicyParams, env: &PolicyEnv) -> Result<Box<dyn Policy>, ZooError> {
            build_params(&PolicyParams { name: params.name["alias:".len()..].to_string(), ..params.clone() }, env)
        }
    }

    #[test]
    fn a_prefixed_name_goes_to_its_provider_and_without_one_says_where_it_runs() {
        let err = error("py:examples.fifo:Fifo");
        assert_eq!(
            err.to_string(),
            "policy 'py:examples.fifo:Fifo': no provider of 'py:' policies in this program; a Python class runs \
             from the schedlab Python package (`schedlab.run`, crates/py)"
        );
        install_provider("alias", Arc::new(Alias));
        let params: PolicyParams = "alias:fifo[backfill=true]".parse().unwrap();
        let summary = describe(&params).unwrap();
        assert_eq!(
            (summary.name.as_str(), summary.files.as_slice()),
            ("alias:fifo[backfill=true]", &["alias.txt".to_string()][..])
        );
        let policy = build_params(&params, &PolicyEnv::new(DataDir::none())).unwrap();
        assert_eq!(policy.name(), "fifo[backfill=true]");
        assert!(error("alias:nope").to_string().starts_with("unknown policy 'nope'"));
    }
}
