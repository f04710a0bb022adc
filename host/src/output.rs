//! What reaches the user: results on stdout (JSON, compact or `--pretty`),
//! notices on stderr. A closed stdout pipe becomes a quiet exit.

use std::io::{self, Write as _};

use serde_json::Value;

use crate::error::{Error, Result};

/// Prints one JSON value and a newline on stdout.
pub fn json(value: &Value, pretty: bool) -> Result<()> {
    let mut text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .map_err(|e| Error::transport(format!("cannot print the result: {e}")))?;
    text.push('\n');
    stdout(text.as_bytes())
}

/// Writes bytes to stdout as they are.
pub fn stdout(bytes: &[u8]) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                Error::broken_pipe()
            } else {
                Error::transport(format!("cannot write to stdout: {e}"))
            }
        })
}

/// A one-line diagnostic on stderr that does not stop the command.
pub fn notice(message: &str) {
    eprintln!("warning: {message}");
}

/// Rows as a left-aligned table with a header, for `--pretty` listings.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        format!("{}\n", padded.join("  ").trim_end())
    };
    let mut out = line(header.to_vec());
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_columns() {
        let t = table(&["A", "BB"], &[vec!["long".into(), "x".into()]]);
        assert_eq!(t, "A     BB\nlong  x\n");
    }
}
