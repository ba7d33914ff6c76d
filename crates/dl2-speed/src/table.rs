//! `config_speed.txt`: one Python tuple per line, `(model, sync mode, total batch, parameter
//! servers, workers, [speed of each worker], [CPU use of each server], [CPU use of each worker])`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One measured configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// Parameter servers.
    pub ps: u32,
    /// Workers.
    pub workers: u32,
    /// The job's speed: the sum of its workers' speeds (`speed.py` sums them).
    pub speed: f64,
}

/// Occurs when `config_speed.txt` cannot be read or a line is not a measurement.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// Occurs when the file cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Occurs when a line is malformed.
    #[error("{path}:{line}: {message}")]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What was expected.
        message: String,
    },
    /// Occurs when the file holds no measurement.
    #[error("{0}: no measurements")]
    Empty(PathBuf),
}

/// The measurements of every model, in file order per model.
#[derive(Clone, Debug, PartialEq)]
pub struct SpeedTable {
    models: BTreeMap<String, Vec<Measurement>>,
}

impl SpeedTable {
    /// Reads `config_speed.txt`.
    pub fn load(path: &Path) -> Result<SpeedTable, TableError> {
        let text = std::fs::read_to_string(path).map_err(|source| TableError::Io { path: path.into(), source })?;
        SpeedTable::parse(&text, path)
    }

    /// Parses the text of `config_speed.txt`; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<SpeedTable, TableError> {
        let mut models: BTreeMap<String, Vec<Measurement>> = BTreeMap::new();
        for (index, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let error = |message: String| TableError::Line { path: path.into(), line: index + 1, message };
            let (model, measurement) = parse_line(line).map_err(error)?;
            let known = models.entry(model.clone()).or_default();
            if known.iter().any(|seen| (seen.ps, seen.workers) == (measurement.ps, measurement.workers)) {
                return Err(TableError::Line {
                    path: path.into(),
                    line: index + 1,
                    message: format!(
                        "{model} with {} parameter servers and {} workers is measured twice; the interpolation needs distinct points",
                        measurement.ps, measurement.workers
                    ),
                });
            }
            known.push(measurement);
        }
        if models.is_empty() {
            return Err(TableError::Empty(path.into()));
        }
        Ok(SpeedTable { models })
    }

    /// Returns each model's measurements.
    pub fn models(&self) -> &BTreeMap<String, Vec<Measurement>> {
        &self.models
    }
}

/// A Python literal of the kinds the file uses.
#[derive(Clone, Debug, PartialEq)]
enum Literal {
    Str(String),
    Number(f64),
    List(Vec<Literal>),
}

fn parse_line(line: &str) -> Result<(String, Measurement), String> {
    let mut parser = Parser { text: line.trim().as_bytes(), at: 0 };
    let items = parser.sequence(b'(', b')')?;
    parser.skip_spaces();
    if parser.at != parser.text.len() {
        return Err(format!("unexpected text after the tuple at column {}", parser.at + 1));
    }
    if items.len() != 8 {
        return Err(format!(
            "expected 8 fields (model, mode, batch, servers, workers, [speeds], [server CPU], [worker CPU]), got {}",
            items.len()
        ));
    }
    let Literal::Str(model) = &items[0] else {
        return Err("field 1 (model) must be a quoted string".into());
    };
    let count = |index: usize, name: &str| -> Result<u32, String> {
        match items[index] {
            Literal::Number(value) if value.fract() == 0.0 && (1.0..=1024.0).contains(&value) => Ok(value as u32),
            _ => Err(format!("field {} ({name}) must be a whole number from 1 to 1024", index + 1)),
        }
    };
    let ps = count(3, "parameter servers")?;
    let workers = count(4, "workers")?;
    let Literal::List(speeds) = &items[5] else {
        return Err("field 6 (speeds) must be a list".into());
    };
    if speeds.len() != workers as usize {
        return Err(format!("field 6 lists {} worker speeds for {workers} workers", speeds.len()));
    }
    let mut speed = 0.0;
    for value in speeds {
        match value {
            Literal::Number(value) if value.is_finite() && *value >= 0.0 => speed += value,
            _ => return Err("field 6 (speeds) must hold non-negative numbers".into()),
        }
    }
    Ok((model.clone(), Measurement { ps, workers, speed }))
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn skip_spaces(&mut self) {
        while self.at < self.text.len() && self.text[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        self.skip_spaces();
        if self.text.get(self.at) == Some(&byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at column {}", byte as char, self.at + 1))
        }
    }

    fn sequence(&mut self, open: u8, close: u8) -> Result<Vec<Literal>, String> {
        self.expect(open)?;
        let mut items = Vec::new();
        loop {
            self.skip_spaces();
            if self.text.get(self.at) == Some(&close) {
                self.at += 1;
                return Ok(items);
            }
            items.push(self.literal()?);
            self.skip_spaces();
            match self.text.get(self.at) {
                Some(b',') => self.at += 1,
                Some(&byte) if byte == close => {}
                _ => return Err(format!("expected ',' or '{}' at column {}", close as char, self.at + 1)),
            }
        }
    }

    fn literal(&mut self) -> Result<Literal, String> {
        self.skip_spaces();
        match self.text.get(self.at) {
            Some(b'[') => Ok(Literal::List(self.sequence(b'[', b']')?)),
            Some(&quote @ (b'\'' | b'"')) => {
                let start = self.at + 1;
                let end = self.text[start..]
                    .iter()
                    .position(|&byte| byte == quote)
                    .ok_or_else(|| format!("unterminated string at column {}", self.at + 1))?;
                self.at = start + end + 1;
                Ok(Literal::Str(String::from_utf8_lossy(&self.text[start..start + end]).into_owned()))
            }
            Some(_) => {
                let start = self.at;
                while self.at < self.text.len() && !matches!(self.text[self.at], b',' | b')' | b']') {
                    self.at += 1;
                }
                let token = String::from_utf8_lossy(&self.text[start..self.at]).trim().to_string();
                token.parse::<f64>().map(Literal::Number).map_err(|_| {
                    format!("expected a number, a string or a list at column {}, got '{token}'", start + 1)
                })
            }
            None => Err("unexpected end of line".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_line_and_sums_worker_speeds() {
        let table = SpeedTable::parse(
            "('resnet-50', 'dist_sync', 32, 1, 2, [7.702, 7.7], [1.942], [0.436, 0.423])\n\n",
            Path::new("t.txt"),
        )
        .unwrap();
        let rows = &table.models()["resnet-50"];
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].ps, rows[0].workers), (1, 2));
        assert!((rows[0].speed - 15.402).abs() < 1e-12);
    }

    #[test]
    fn names_the_line_of_a_bad_row() {
        let text = "('a', 'dist_sync', 32, 1, 1, [1.0], [1], [1])\n('a', 'dist_sync', 32, 1, 2, [1.0], [1], [1])\n";
        let error = SpeedTable::parse(text, Path::new("speeds.txt")).unwrap_err().to_string();
        assert_eq!(error, "speeds.txt:2: field 6 lists 1 worker speeds for 2 workers");
        let text = "('a', 'dist_sync', 32, 1, 1, [1.0], [1], [1])\n('a', 'x', 3, 1, 1, [2.0], [1], [1])\n";
        let error = SpeedTable::parse(text, Path::new("speeds.txt")).unwrap_err().to_string();
        assert!(
            error.starts_with("speeds.txt:2: a with 1 parameter servers and 1 workers is measured twice"),
            "{error}"
        );
        let error = SpeedTable::parse("('a', 1, 2)", Path::new("s")).unwrap_err().to_string();
        assert!(error.starts_with("s:1: expected 8 fields"), "{error}");
        let error = SpeedTable::parse("('a', 'm', 3, 1, 1, [-1.0], [1], [1])", Path::new("s")).unwrap_err().to_string();
        assert_eq!(error, "s:1: field 6 (speeds) must hold non-negative numbers");
        let error = SpeedTable::parse("('a', 'm', 3, 1, 1, [1.0], [1], [1]", Path::new("s")).unwrap_err().to_string();
        assert!(error.starts_with("s:1: expected ','"), "{error}");
    }
}
