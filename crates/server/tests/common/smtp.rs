//! A mail server on loopback for the tests: just enough SMTP for lettre's
//! client (greeting, EHLO/HELO, MAIL FROM, RCPT TO, DATA, RSET, NOOP,
//! QUIT), keeping every message it is given, so that a test sees what a
//! real mail server would have been sent.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// One message as it was handed over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Received {
    pub from: String,
    /// The envelope's recipients (RCPT TO), not the `To:` header.
    pub to: Vec<String>,
    /// Headers and body, dot-stuffing undone, lines ending in CRLF.
    pub data: String,
}

impl Received {
    /// A header's value (the first of that name), unfolded.
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next()?;
        let mut value: Option<String> = None;
        for line in head.split("\r\n") {
            match &mut value {
                Some(v) if line.starts_with([' ', '\t']) => v.push_str(line),
                Some(_) => break,
                None => {
                    if let Some((n, v)) = line.split_once(':') {
                        if n.eq_ignore_ascii_case(name) {
                            value = Some(v.trim_start().to_string());
                        }
                    }
                }
            }
        }
        value
    }

    /// The body as a mail program shows it: quoted-printable decoded
    /// (lettre sends lines over 76 characters, as links are, that way).
    pub fn body(&self) -> String {
        let raw = self.data.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        let encoding = self.header("Content-Transfer-Encoding").unwrap_or_default();
        if !encoding.eq_ignore_ascii_case("quoted-printable") {
            return raw.to_string();
        }
        let joined = raw.replace("=\r\n", "");
        let mut out = Vec::new();
        let mut bytes = joined.bytes();
        while let Some(b) = bytes.next() {
            if b != b'=' {
                out.push(b);
                continue;
            }
            let hex: String = bytes.by_ref().take(2).map(char::from).collect();
            out.push(u8::from_str_radix(&hex, 16).unwrap_or_else(|_| panic!("bad quoted-printable `={hex}` in {raw}")));
        }
        String::from_utf8(out).expect("a UTF-8 body")
    }
}

pub struct SmtpSink {
    pub addr: SocketAddr,
    received: watch::Receiver<Vec<Received>>,
    task: tokio::task::JoinHandle<()>,
}

impl SmtpSink {
    pub async fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
        let addr = listener.local_addr().expect("an address");
        let (sender, received) = watch::channel(Vec::new());
        let task = tokio::spawn(async move {
            let sender = std::sync::Arc::new(sender);
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(session(stream, sender.clone()));
            }
        });
        SmtpSink { addr, received, task }
    }

    /// The URL lettre reads: plain SMTP, no TLS, no credentials.
    pub fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    /// Everything received so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.borrow().clone()
    }

    /// Waits until at least `n` messages have come, at most `within`;
    /// panics with what did come otherwise.
    pub async fn wait_for(&self, n: usize, within: Duration) -> Vec<Received> {
        let mut received = self.received.clone();
        let came = match tokio::time::timeout(within, received.wait_for(|r| r.len() >= n)).await {
            Ok(Ok(r)) => r.clone(),
            _ => panic!("{n} mail(s) within {within:?}, but got {:#?}", self.received()),
        };
        came
    }

    pub fn stop(self) {
        self.task.abort();
    }
}

/// One client's conversation; what it sends past DATA is kept.
async fn session(stream: TcpStream, sink: std::sync::Arc<watch::Sender<Vec<Received>>>) {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    let mut envelope: Option<(String, Vec<String>)> = None;
    if write.write_all(b"220 warboard-test ESMTP\r\n").await.is_err() {
        return;
    }
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).await.unwrap_or(0) == 0 {
            return;
        }
        let command = line.trim_end().to_string();
        let verb = command.split([' ', ':']).next().unwrap_or("").to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => b"250-warboard-test\r\n250 8BITMIME\r\n",
            "HELO" | "NOOP" => b"250 OK\r\n",
            "RSET" => {
                envelope = None;
                b"250 OK\r\n"
            }
            "MAIL" => {
                envelope = Some((path_of(&command), Vec::new()));
                b"250 OK\r\n"
            }
            "RCPT" => match &mut envelope {
                Some((_, to)) => {
                    to.push(path_of(&command));
                    b"250 OK\r\n"
                }
                None => b"503 MAIL first\r\n",
            },
            "DATA" => match envelope.take() {
                Some((from, to)) if !to.is_empty() => {
                    if write.write_all(b"354 end with <CRLF>.<CRLF>\r\n").await.is_err() {
                        return;
                    }
                    let mut data = String::new();
                    loop {
                        line.clear();
                        if lines.read_line(&mut line).await.unwrap_or(0) == 0 {
                            return;
                        }
                        if line == ".\r\n" || line == ".\n" {
                            break;
                        }
                        data.push_str(line.strip_prefix('.').unwrap_or(&line));
                    }
                    sink.send_modify(|r| r.push(Received { from, to, data }));
                    b"250 OK queued\r\n"
                }
                _ => b"503 RCPT first\r\n",
            },
            "QUIT" => {
                let _ = write.write_all(b"221 bye\r\n").await;
                return;
            }
            _ => b"502 not implemented\r\n",
        };
        if write.write_all(reply).await.is_err() {
            return;
        }
    }
}

/// The address in `MAIL FROM:<a@b> BODY=…` or `RCPT TO:<a@b>`.
fn path_of(command: &str) -> String {
    let after = command.split_once(':').map_or("", |(_, rest)| rest);
    let inner = after.trim().strip_prefix('<').and_then(|r| r.split_once('>')).map(|(a, _)| a);
    inner.unwrap_or(after.trim()).to_string()
}

/// A port nobody listens on: a mail server that is down.
pub async fn dead_port() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
    listener.local_addr().expect("an address")
}

pub const WAIT: Duration = Duration::from_secs(10);
