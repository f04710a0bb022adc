//! Lines of newline-delimited JSON-RPC (and of a server's stderr), read up to
//! a limit: a line that never ends costs no more than the limit.

use std::io::BufRead;

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// What [`read_line`] read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line (its newline included, unless the input ended first).
    Read,
    /// More than the limit without a newline: what was read is in the
    /// buffer (`limit` bytes at most); the rest of the line is not read.
    TooLong,
    /// The input ended, with nothing read.
    End,
}

/// Reads one line into `line`, never more than `limit` bytes of it.
pub(crate) async fn read_line(
    reader: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Line> {
    loop {
        let buffered = reader.fill_buf().await?;
        let (used, read) = take(buffered, line, limit);
        reader.consume(used);
        if let Some(read) = read {
            return Ok(read);
        }
    }
}

/// [`read_line`] from a blocking reader.
pub(crate) fn read_line_blocking(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Line> {
    loop {
        let buffered = match input.fill_buf() {
            Ok(buffered) => buffered,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let (used, read) = take(buffered, line, limit);
        input.consume(used);
        if let Some(read) = read {
            return Ok(read);
        }
    }
}

/// One step of reading a line, the same for both readers: what of `buffered`
/// (the reader's buffer; empty at the end) goes into `line`, how much of it
/// was used, and the line's end when this step reached it.
fn take(buffered: &[u8], line: &mut Vec<u8>, limit: usize) -> (usize, Option<Line>) {
    if buffered.is_empty() {
        let end = if line.is_empty() {
            Line::End
        } else {
            Line::Read
        };
        return (0, Some(end));
    }
    let (wanted, done) = match buffered.iter().position(|&b| b == b'\n') {
        Some(at) => (at + 1, true),
        None => (buffered.len(), false),
    };
    // The limit is on what the line says: its newline comes on top, so a
    // message of exactly `limit` bytes is read whole.
    let room = limit.saturating_sub(line.len());
    if wanted - usize::from(done) > room {
        line.extend_from_slice(&buffered[..room]);
        return (room, Some(Line::TooLong));
    }
    line.extend_from_slice(&buffered[..wanted]);
    (wanted, done.then_some(Line::Read))
}

/// Reads past the next newline (or to the end), keeping nothing; adds the
/// bytes skipped (the newline not counted) to `skipped`.
pub(crate) fn skip_line(input: &mut impl BufRead, skipped: &mut usize) -> std::io::Result<()> {
    loop {
        let buffered = match input.fill_buf() {
            Ok(buffered) => buffered,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffered.is_empty() {
            return Ok(());
        }
        match buffered.iter().position(|&b| b == b'\n') {
            Some(at) => {
                *skipped += at;
                input.consume(at + 1);
                return Ok(());
            }
            None => {
                let all = buffered.len();
                *skipped += all;
                input.consume(all);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::BufReader;

    use super::*;

    #[tokio::test]
    async fn a_line_of_exactly_the_limit_is_read_whole_with_its_newline() {
        for capacity in [3, 10, 11, 64] {
            let input: &[u8] = b"0123456789
next
";
            let mut reader = BufReader::with_capacity(capacity, input);
            let mut line = Vec::new();
            let read = read_line(&mut reader, &mut line, 10).await.expect("read");
            assert_eq!(
                (read, line.as_slice()),
                (
                    Line::Read,
                    &b"0123456789
"[..]
                ),
                "{capacity}"
            );
        }
    }

    #[tokio::test]
    async fn a_line_is_read_whole_up_to_the_limit_and_no_further() {
        let input: &[u8] = b"{\"a\":1}\nshort\n0123456789abcdef\nlast";
        let mut reader = BufReader::with_capacity(4, input);
        let mut line = Vec::new();
        let mut read = Vec::new();
        loop {
            line.clear();
            let outcome = read_line(&mut reader, &mut line, 10).await.expect("read");
            read.push((outcome, String::from_utf8_lossy(&line).into_owned()));
            if matches!(read.last(), Some((Line::End | Line::TooLong, _))) {
                break;
            }
        }
        assert_eq!(
            read,
            [
                (Line::Read, "{\"a\":1}\n".to_owned()),
                (Line::Read, "short\n".to_owned()),
                (Line::TooLong, "0123456789".to_owned()),
            ]
        );
        // What follows is still there to read.
        line.clear();
        assert_eq!(
            read_line(&mut reader, &mut line, 100).await.expect("read"),
            Line::Read
        );
        assert_eq!(line, b"abcdef\n");
        line.clear();
        assert_eq!(
            read_line(&mut reader, &mut line, 100).await.expect("read"),
            Line::Read
        );
        assert_eq!(line, b"last");
        line.clear();
        assert_eq!(
            read_line(&mut reader, &mut line, 100).await.expect("read"),
            Line::End
        );
    }
}
