//! `warboard engine`: the engine protocol over standard input and output,
//! one JSON object per line each way (docs/protocol.md). Each reply line is
//! flushed as soon as it is written, so that a client sees events as they
//! happen.

use std::io::{self, BufRead, Write};
use warboard_protocol::{Engine, Flow, ProtocolError, Reply, MAX_LINE};

/// Runs the engine until `quit` or the end of input.
pub fn run() -> io::Result<()> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    let mut engine = Engine::new();
    write_reply(&mut output, &Engine::hello())?;
    loop {
        let line = match read_line(&mut input)? {
            Line::End => return Ok(()),
            Line::TooLong => {
                let e = ProtocolError::new(
                    "protocol/line-too-long",
                    format!("a request line is at most {MAX_LINE} bytes; this one was skipped"),
                );
                write_reply(&mut output, &e.to_reply())?;
                continue;
            }
            Line::NotUtf8 => {
                write_reply(&mut output, &ProtocolError::new("protocol/not-utf8", "a request line is UTF-8 text").to_reply())?;
                continue;
            }
            Line::Text(text) => text,
        };
        // Only JSON's own whitespace makes an empty line; any other text
        // (NBSP, U+2028, ...) is answered as not JSON (issue 34).
        if line.trim_matches([' ', '\t', '\r', '\n']).is_empty() {
            continue;
        }
        let mut failed_write = None;
        let flow = engine.handle_line(&line, &mut |reply| {
            if failed_write.is_none() {
                failed_write = write_reply(&mut output, &reply).err();
            }
        });
        if let Some(e) = failed_write {
            return Err(e);
        }
        if flow == Flow::Quit {
            return Ok(());
        }
    }
}

fn write_reply(out: &mut impl Write, reply: &Reply) -> io::Result<()> {
    writeln!(out, "{}", reply.to_line())?;
    out.flush()
}

enum Line {
    Text(String),
    TooLong,
    NotUtf8,
    End,
}

/// Reads one line without holding more than [`MAX_LINE`] bytes of it: the
/// rest of an overlong line is read and dropped.
fn read_line(input: &mut impl BufRead) -> io::Result<Line> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            if bytes.is_empty() && !too_long {
                return Ok(Line::End);
            }
            break;
        }
        let (chunk, found_end) = match buf.iter().position(|b| *b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if bytes.len() + chunk.len() > MAX_LINE {
            too_long = true;
            bytes.clear();
        } else if !too_long {
            bytes.extend_from_slice(chunk);
        }
        let used = found_end.unwrap_or(buf.len());
        input.consume(used);
        if found_end.is_some() {
            break;
        }
    }
    if too_long {
        return Ok(Line::TooLong);
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(String::from_utf8(bytes).map(Line::Text).unwrap_or(Line::NotUtf8))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<String> {
        let mut reader = io::BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        loop {
            match read_line(&mut reader).unwrap() {
                Line::End => return out,
                Line::TooLong => out.push("<too long>".into()),
                Line::NotUtf8 => out.push("<not utf-8>".into()),
                Line::Text(t) => out.push(t),
            }
        }
    }

    #[test]
    fn lines_are_split_and_bounded() {
        assert_eq!(lines(b"a\r\nbc\n\nlast"), ["a", "bc", "", "last"]);
        assert_eq!(lines(b"\xff\xfe\nok\n"), ["<not utf-8>", "ok"]);
        let mut long = vec![b'x'; MAX_LINE + 10];
        long.extend_from_slice(b"\nnext\n");
        assert_eq!(lines(&long), ["<too long>", "next"]);
    }
}
