//! Reading trace files as text: a leading UTF-8 byte-order mark is dropped and Windows line
//! endings (`\r\n`) become `\n`, so that every loader sees the same bytes whichever editor
//! wrote the file, and the csv crate counts lines right (its `Position::line` lags one line
//! behind on `\r\n` files: BurntSushi/rust-csv#395).

use crate::TraceError;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A reader of `inner` without a leading BOM and with `\r\n` read as `\n` (a lone `\r` stays).
pub(crate) struct TextReader<R> {
    inner: R,
    /// Nothing has been read yet (a BOM may follow).
    at_start: bool,
    /// The last byte read was a `\r` not yet passed on (it may start a `\r\n`).
    pending_cr: bool,
}

/// Opens `path` as a [`TextReader`] with a 64 KiB buffer.
pub(crate) fn open(path: &Path) -> Result<TextReader<BufReader<std::fs::File>>, TraceError> {
    let file = std::fs::File::open(path).map_err(|source| TraceError::io(path, source))?;
    Ok(TextReader::new(BufReader::with_capacity(1 << 16, file)))
}

impl<R: BufRead> TextReader<R> {
    /// Wraps `inner`.
    pub(crate) fn new(inner: R) -> TextReader<R> {
        TextReader { inner, at_start: true, pending_cr: false }
    }
}

impl<R: BufRead> Read for TextReader<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let mut written = 0;
        while written < out.len() {
            let input = self.inner.fill_buf()?;
            if self.at_start {
                self.at_start = false;
                if input.starts_with(BOM) {
                    self.inner.consume(BOM.len());
                    continue;
                }
            }
            if input.is_empty() {
                if self.pending_cr {
                    self.pending_cr = false;
                    out[written] = b'\r';
                    written += 1;
                }
                break;
            }
            if self.pending_cr {
                self.pending_cr = false;
                if input[0] != b'\n' {
                    out[written] = b'\r';
                    written += 1;
                    continue;
                }
            }
            // Copy up to the next `\r`, then decide what it is.
            let room = out.len() - written;
            let chunk = &input[..input.len().min(room)];
            let (copied, consumed) = match chunk.iter().position(|&byte| byte == b'\r') {
                None => (chunk.len(), chunk.len()),
                Some(cr) if cr + 1 < input.len() && input[cr + 1] == b'\n' => (cr, cr + 1), // drop the `\r`
                Some(cr) if cr + 1 == input.len() => {
                    self.pending_cr = true; // the buffer ends on it: look at the next byte first
                    (cr, cr + 1)
                }
                Some(cr) => (cr + 1, cr + 1), // a lone `\r`
            };
            out[written..written + copied].copy_from_slice(&chunk[..copied]);
            written += copied;
            self.inner.consume(consumed);
        }
        Ok(written)
    }
}

/// Most characters of a field an error message repeats.
const SHOWN_CHARS: usize = 60;

/// A field as an error message repeats it: control characters (NUL, tabs, newlines) escaped,
/// and cut after [`SHOWN_CHARS`] characters with the full length said, so that a 1 MB field
/// or raw binary does not flood the terminal.
pub fn shown(text: &str) -> String {
    let total = text.chars().count();
    let kept: String = text
        .chars()
        .take(SHOWN_CHARS)
        .flat_map(|c| if c.is_control() { c.escape_default().collect::<Vec<_>>() } else { vec![c] })
        .collect();
    if total > SHOWN_CHARS { format!("{kept}... ({total} characters)") } else { kept }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `input` through a buffer of `capacity` bytes, `chunk` bytes per read call.
    fn read_through(input: &[u8], capacity: usize, chunk: usize) -> Vec<u8> {
        let mut reader = TextReader::new(BufReader::with_capacity(capacity, input));
        let mut output = Vec::new();
        let mut buffer = vec![0u8; chunk];
        loop {
            let n = reader.read(&mut buffer).unwrap();
            if n == 0 {
                return output;
            }
            output.extend_from_slice(&buffer[..n]);
        }
    }

    #[test]
    fn crlf_becomes_lf_and_a_bom_is_dropped_at_every_buffer_boundary() {
        let input = b"\xEF\xBB\xBFa,b\r\n1,2\r\n\r\nlone\rcr\r\n\r";
        let expected = b"a,b\n1,2\n\nlone\rcr\n\r".to_vec();
        for capacity in [3, 4, 5, 7, 64] {
            for chunk in [1, 2, 3, 64] {
                assert_eq!(read_through(input, capacity, chunk), expected, "capacity {capacity}, chunk {chunk}");
            }
        }
        // A BOM later in the file is data; LF files pass unchanged.
        assert_eq!(read_through(b"a\n\xEF\xBB\xBF", 64, 64), b"a\n\xEF\xBB\xBF".to_vec());
    }
}
