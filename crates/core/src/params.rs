//! Policy names with parameters, `name[key=value,...]`, and a reader that checks them.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A policy name with its parameters, as written in specs and on the command line:
/// `las`, `las[quantum=60]`, `tiresias[thresholds=3250:7200,starvation=2]`.
///
/// Parsing and printing round-trip: `p.to_string().parse() == Ok(p)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PolicyParams {
    /// The registered policy name.
    pub name: String,
    /// `(key, value)` pairs in the order written.
    pub args: Vec<(String, String)>,
}

/// Occurs when a policy name or one of its parameters is malformed or unknown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("policy '{policy}': {message}")]
pub struct ParamError {
    /// The policy name as written.
    pub policy: String,
    /// What was wrong and what was expected.
    pub message: String,
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// Whether `name` is a registered policy's name (`fifo`) or names a policy from outside the zoo's
/// crates by a provider's prefix (`py:package.module:Class`, see `schedlab_zoo::install_provider`).
fn is_policy_name(name: &str) -> bool {
    match name.split_once(':') {
        None => !name.is_empty() && name.chars().all(is_name_char),
        Some((prefix, path)) => {
            !prefix.is_empty()
                && prefix.chars().all(is_name_char)
                && !path.is_empty()
                && path.chars().all(|c| is_name_char(c) || c == '.' || c == ':')
        }
    }
}

impl FromStr for PolicyParams {
    type Err = ParamError;

    fn from_str(text: &str) -> Result<PolicyParams, ParamError> {
        let error = |message: String| ParamError { policy: text.to_string(), message };
        let text = text.trim();
        let (name, rest) = match text.find('[') {
            Some(open) => (&text[..open], Some(&text[open + 1..])),
            None => (text, None),
        };
        if !is_policy_name(name) {
            return Err(error(format!(
                "invalid policy name '{name}'; expected letters, digits, '-' or '_' (or a provider's \
                 PREFIX:PATH such as py:package.module:Class), optionally followed by [key=value,...]"
            )));
        }
        let mut args = Vec::new();
        if let Some(rest) = rest {
            let inner =
                rest.strip_suffix(']').ok_or_else(|| error("missing closing ']' after the parameters".to_string()))?;
            for pair in inner.split(',').filter(|pair| !pair.trim().is_empty()) {
                let (key, value) = pair
                    .split_once('=')
                    .ok_or_else(|| error(format!("parameter '{pair}' should have the form key=value")))?;
                let (key, value) = (key.trim(), value.trim());
                if key.is_empty() || !key.chars().all(is_name_char) {
                    return Err(error(format!("invalid parameter name '{key}'")));
                }
                if args.iter().any(|(known, _): &(String, String)| known == key) {
                    return Err(error(format!("parameter '{key}' is given twice")));
                }
                args.push((key.to_string(), value.to_string()));
            }
        }
        Ok(PolicyParams { name: name.to_string(), args })
    }
}

impl fmt::Display for PolicyParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.args.is_empty() {
            f.write_str("[")?;
            for (index, (key, value)) in self.args.iter().enumerate() {
                if index > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{key}={value}")?;
            }
            f.write_str("]")?;
        }
        Ok(())
    }
}

impl TryFrom<String> for PolicyParams {
    type Error = ParamError;
    fn try_from(text: String) -> Result<Self, ParamError> {
        text.parse()
    }
}

impl From<PolicyParams> for String {
    fn from(params: PolicyParams) -> String {
        params.to_string()
    }
}

impl PolicyParams {
    /// Returns a reader that takes typed values and then rejects unknown keys.
    pub fn reader(&self) -> ParamReader<'_> {
        ParamReader {
            params: self,
            used: vec![false; self.args.len()],
            accepted: Vec::new(),
            canonical: Vec::new(),
            files: Vec::new(),
        }
    }
}

/// One parameter a policy accepts, as its reader declared it: the key and its default
/// (for a choice, the default first and the others after `|`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDoc {
    /// The key.
    pub key: &'static str,
    /// The default, as text.
    pub default: String,
}

/// What reading a policy's parameters found, without building the policy: its canonical name,
/// every parameter it accepts, and the data files it will read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSummary {
    /// The canonical name (given parameters in the order the policy reads them).
    pub name: String,
    /// Every accepted parameter with its default, in reading order.
    pub params: Vec<ParamDoc>,
    /// Data files the policy will read (given or default values of file parameters), relative
    /// to the data directory unless absolute.
    pub files: Vec<String>,
}

impl ParamSummary {
    /// The accepted parameters as `key=default, ...`.
    pub fn params_text(&self) -> String {
        self.params.iter().map(|doc| format!("{}={}", doc.key, doc.default)).collect::<Vec<_>>().join(", ")
    }
}

/// Reads typed parameter values with defaults, then checks that no unknown key was given.
///
/// ```
/// # use schedlab_core::PolicyParams;
/// let params: PolicyParams = "las[quantum=60]".parse().unwrap();
/// let mut reader = params.reader();
/// let quantum = reader.f64("quantum", 360.0).unwrap();
/// let name = reader.finish().unwrap();
/// assert_eq!((quantum, name.as_str()), (60.0, "las[quantum=60]"));
/// ```
#[derive(Debug)]
pub struct ParamReader<'a> {
    params: &'a PolicyParams,
    used: Vec<bool>,
    accepted: Vec<ParamDoc>,
    canonical: Vec<(String, String)>,
    files: Vec<String>,
}

impl ParamReader<'_> {
    fn raw(&mut self, key: &'static str, default: String) -> Option<&str> {
        self.accepted.push(ParamDoc { key, default });
        let index = self.params.args.iter().position(|(known, _)| known == key)?;
        self.used[index] = true;
        Some(&self.params.args[index].1)
    }

    fn error(&self, message: String) -> ParamError {
        ParamError { policy: self.params.to_string(), message }
    }

    fn parsed<T: FromStr + ToString>(
        &mut self,
        key: &'static str,
        default: T,
        expected: &str,
    ) -> Result<T, ParamError> {
        match self.raw(key, default.to_string()).map(str::to_string) {
            None => Ok(default),
            Some(text) => {
                let value = text
                    .parse::<T>()
                    .map_err(|_| self.error(format!("parameter '{key}': expected {expected}, got '{text}'")))?;
                self.canonical.push((key.to_string(), text));
                Ok(value)
            }
        }
    }

    /// Reads a non-negative finite number.
    pub fn f64(&mut self, key: &'static str, default: f64) -> Result<f64, ParamError> {
        let value = self.parsed(key, default, "a non-negative number")?;
        if !value.is_finite() || value < 0.0 {
            return Err(self.error(format!("parameter '{key}': expected a non-negative number, got {value}")));
        }
        Ok(value)
    }

    /// Reads a strictly positive finite number.
    pub fn positive_f64(&mut self, key: &'static str, default: f64) -> Result<f64, ParamError> {
        let value = self.parsed(key, default, "a positive number")?;
        if !(value.is_finite() && value > 0.0) {
            return Err(self.error(format!("parameter '{key}': expected a positive number, got {value}")));
        }
        Ok(value)
    }

    /// Reads a boolean written `true` or `false`.
    pub fn bool(&mut self, key: &'static str, default: bool) -> Result<bool, ParamError> {
        self.parsed(key, default, "true or false")
    }

    /// Reads one of a fixed set of words; `choices[0]` documents the default.
    pub fn choice(
        &mut self,
        key: &'static str,
        default: &'static str,
        choices: &[&'static str],
    ) -> Result<&'static str, ParamError> {
        let listed = std::iter::once(default).chain(choices.iter().copied().filter(|choice| *choice != default));
        match self.raw(key, listed.collect::<Vec<_>>().join("|")).map(str::to_string) {
            None => Ok(default),
            Some(text) => match choices.iter().find(|choice| **choice == text) {
                Some(choice) => {
                    self.canonical.push((key.to_string(), text));
                    Ok(choice)
                }
                None => {
                    Err(self.error(format!("parameter '{key}': expected one of {}, got '{text}'", choices.join(", "))))
                }
            },
        }
    }

    /// Reads free text, such as a file path.
    pub fn choice_text(&mut self, key: &'static str, default: &str) -> Result<String, ParamError> {
        match self.raw(key, default.to_string()).map(str::to_string) {
            None => Ok(default.to_string()),
            Some(text) if text.is_empty() => Err(self.error(format!("parameter '{key}': expected a value"))),
            Some(text) => {
                self.canonical.push((key.to_string(), text.clone()));
                Ok(text)
            }
        }
    }

    /// Declares a data file read through a parameter already read with another method (a
    /// parameter that takes either a built-in name or a file), as [`ParamReader::file`] does.
    pub fn declare_file(&mut self, path: &str) {
        self.files.push(path.to_string());
    }

    /// Records `key=value` in the canonical name even when the parameter was not given
    /// (replacing a given value), for a value that must show in every name and run identity,
    /// such as built-in weights named with their digest. Read `key` first.
    pub fn pin(&mut self, key: &'static str, value: String) {
        self.canonical.retain(|(known, _)| known != key);
        self.canonical.push((key.to_string(), value));
    }

    /// Reads a `:`-separated list of non-negative numbers, e.g. `3250:7200`.
    pub fn f64_list(&mut self, key: &'static str, default: &[f64]) -> Result<Vec<f64>, ParamError> {
        let default_text = default.iter().map(ToString::to_string).collect::<Vec<_>>().join(":");
        match self.raw(key, default_text).map(str::to_string) {
            None => Ok(default.to_vec()),
            Some(text) => {
                let values: Result<Vec<f64>, _> = text.split(':').map(|part| part.trim().parse::<f64>()).collect();
                match values {
                    Ok(values) if values.iter().all(|value| value.is_finite() && *value >= 0.0) => {
                        self.canonical.push((key.to_string(), text));
                        Ok(values)
                    }
                    _ => Err(self.error(format!(
                        "parameter '{key}': expected non-negative numbers separated by ':', got '{text}'"
                    ))),
                }
            }
        }
    }

    /// Reads the path of a data file the policy will read (relative to the data directory
    /// unless absolute); the value used is recorded in [`ParamSummary::files`], so that the
    /// file's contents become part of a run's identity.
    pub fn file(&mut self, key: &'static str, default: &str) -> Result<String, ParamError> {
        let path = self.choice_text(key, default)?;
        self.files.push(path.clone());
        Ok(path)
    }

    /// Reads a folder of data files (relative to the data directory unless absolute), recording it
    /// like [`ParamReader::file`]: every file in it (recursively) is part of the runs' identity.
    /// Returns the folder as given.
    pub fn folder(&mut self, key: &'static str, default: &str) -> Result<String, ParamError> {
        let path = self.choice_text(key, default)?;
        self.files.push(format!("{}/", path.trim_end_matches('/')));
        Ok(path)
    }

    /// Returns the canonical name from what has been read so far: the given parameters in the
    /// order the policy reads them.
    pub fn name(&self) -> String {
        PolicyParams { name: self.params.name.clone(), args: self.canonical.clone() }.to_string()
    }

    /// Fails on any key that was not read; otherwise returns the canonical name.
    pub fn finish(self) -> Result<String, ParamError> {
        self.finish_summary().map(|summary| summary.name)
    }

    /// Fails on any key that was not read; otherwise returns the canonical name, the accepted
    /// parameters and the data files.
    pub fn finish_summary(self) -> Result<ParamSummary, ParamError> {
        if let Some(index) = self.used.iter().position(|used| !used) {
            let key = &self.params.args[index].0;
            let accepted = if self.accepted.is_empty() {
                "none".to_string()
            } else {
                self.accepted.iter().map(|doc| doc.key).collect::<Vec<_>>().join(", ")
            };
            let hint = crate::suggest::did_you_mean(key, self.accepted.iter().map(|doc| doc.key));
            return Err(self.error(format!("unknown parameter '{key}'{hint}; accepted parameters: {accepted}")));
        }
        Ok(ParamSummary { name: self.name(), params: self.accepted, files: self.files })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_round_trips() {
        for text in [
            "fifo",
            "las[quantum=60]",
            "tiresias[thresholds=3250:7200,starvation=2]",
            "py:examples.fifo:Fifo[backfill=true]",
        ] {
            let params: PolicyParams = text.parse().unwrap();
            assert_eq!(params.to_string(), text);
        }
        let params: PolicyParams = "fifo[ backfill = true ]".parse().unwrap();
        assert_eq!(params.args, vec![("backfill".to_string(), "true".to_string())]);
    }

    #[test]
    fn rejects_malformed_names() {
        for text in
            ["", "fi fo", "las[quantum=60", "las[quantum]", "las[a=1,a=2]", "py:", ":fifo", "p y:m:C", "py:m/x:C"]
        {
            assert!(text.parse::<PolicyParams>().is_err(), "{text} should be rejected");
        }
    }

    #[test]
    fn positive_parameters_say_positive_for_zero_and_negatives() {
        for value in ["-5", "0", "inf"] {
            let params: PolicyParams = format!("las[quantum={value}]").parse().unwrap();
            let message = params.reader().positive_f64("quantum", 1.0).unwrap_err().to_string();
            assert!(
                message.ends_with("parameter 'quantum': expected a positive number, got inf")
                    || message.contains(&format!("expected a positive number, got {value}")),
                "{message}"
            );
        }
    }

    #[test]
    fn reader_reports_unknown_and_bad_values() {
        let params: PolicyParams = "las[quantum=abc]".parse().unwrap();
        let err = params.reader().f64("quantum", 1.0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "policy 'las[quantum=abc]': parameter 'quantum': expected a non-negative number, got 'abc'"
        );

        let params: PolicyParams = "las[quantun=5]".parse().unwrap();
        let mut reader = params.reader();
        reader.f64("quantum", 1.0).unwrap();
        let err = reader.finish().unwrap_err();
        assert!(
            err.message.contains("unknown parameter 'quantun' (did you mean 'quantum'?); accepted parameters: quantum"),
            "{err}"
        );
    }
}
