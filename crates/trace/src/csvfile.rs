//! A CSV reader that names file, line and column in every error.

use crate::TraceError;
use crate::text::TextReader;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// Reads a CSV file row by row into one reused record.
pub(crate) struct CsvFile {
    path: PathBuf,
    reader: csv::Reader<TextReader<BufReader<File>>>,
    record: csv::ByteRecord,
    columns: &'static [&'static str],
}

impl CsvFile {
    /// Opens `path`. With a header, checks that it equals `columns`; without, `columns` only
    /// names the fields for messages.
    pub(crate) fn open(path: &Path, has_header: bool, columns: &'static [&'static str]) -> Result<CsvFile, TraceError> {
        Self::open_with(path, has_header, columns, b',')
    }

    /// Like [`CsvFile::open`] with another delimiter.
    pub(crate) fn open_with(
        path: &Path,
        has_header: bool,
        columns: &'static [&'static str],
        delimiter: u8,
    ) -> Result<CsvFile, TraceError> {
        let text = crate::text::open(path)?;
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(has_header)
            .flexible(true)
            .delimiter(delimiter)
            .quoting(delimiter == b',')
            .from_reader(text);
        if has_header {
            let header = reader.byte_headers().map_err(|source| TraceError::io(path, source))?;
            let found: Vec<String> =
                header.iter().map(|field| String::from_utf8_lossy(field).trim().to_string()).collect();
            if found != columns {
                return Err(TraceError::Header {
                    path: path.into(),
                    expected: columns.join(","),
                    found: crate::text::shown(&found.join(",")),
                });
            }
        }
        Ok(CsvFile { path: path.into(), reader, record: csv::ByteRecord::new(), columns })
    }

    /// Reads the next non-blank row; returns false at the end of the file.
    pub(crate) fn next(&mut self) -> Result<bool, TraceError> {
        loop {
            let more =
                self.reader.read_byte_record(&mut self.record).map_err(|source| TraceError::io(&self.path, source))?;
            if !more {
                return Ok(false);
            }
            if self.record.len() == 1 && self.record[0].iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if self.record.len() != self.columns.len() {
                return Err(self.error(format!(
                    "expected {} columns ({}), found {}",
                    self.columns.len(),
                    self.columns.join(","),
                    self.record.len()
                )));
            }
            return Ok(true);
        }
    }

    /// Returns the 1-based line of the current row.
    pub(crate) fn line(&self) -> u64 {
        self.record.position().map_or(0, csv::Position::line)
    }

    /// Returns an error at the current row.
    pub(crate) fn error(&self, message: String) -> TraceError {
        TraceError::row(&self.path, self.line(), message)
    }

    fn column_error(&self, column: usize, expected: &str, got: &str) -> TraceError {
        self.error(format!(
            "column {} ('{}'): expected {expected}, got '{}'",
            column + 1,
            self.columns[column],
            crate::text::shown(got)
        ))
    }

    /// Returns a field as trimmed text.
    pub(crate) fn text(&self, column: usize) -> Result<&str, TraceError> {
        let bytes = &self.record[column];
        std::str::from_utf8(bytes)
            .map(str::trim)
            .map_err(|_| self.column_error(column, "UTF-8 text", &String::from_utf8_lossy(bytes)))
    }

    /// Returns a field parsed as a finite number.
    pub(crate) fn number(&self, column: usize, expected: &str) -> Result<f64, TraceError> {
        let text = self.text(column)?;
        match fast_float(text) {
            Some(value) => Ok(value),
            None => Err(self.column_error(column, expected, text)),
        }
    }

    /// Returns a field parsed as a finite number, or `None` when it is empty or one of `absent`.
    pub(crate) fn optional_number(
        &self,
        column: usize,
        expected: &str,
        absent: &[&str],
    ) -> Result<Option<f64>, TraceError> {
        let text = self.text(column)?;
        if text.is_empty() || absent.contains(&text) {
            return Ok(None);
        }
        self.number(column, expected).map(Some)
    }

    /// Returns a field parsed as a non-negative whole number.
    pub(crate) fn whole(&self, column: usize, expected: &str) -> Result<u32, TraceError> {
        let text = self.text(column)?;
        text.parse().map_err(|_| self.column_error(column, expected, text))
    }

    /// Returns an error for a field whose value is outside what the format allows.
    pub(crate) fn invalid(&self, column: usize, expected: &str) -> TraceError {
        let got = self.text(column).unwrap_or("?").to_string();
        self.column_error(column, expected, &got)
    }
}

/// Parses a finite float, accepting what Rust's parser accepts.
fn fast_float(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|value| value.is_finite())
}
