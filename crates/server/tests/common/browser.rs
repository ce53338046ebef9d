//! A real browser for the interface's tests: Debian's Chromium, headless,
//! driven over the DevTools protocol (CDP) on its own WebSocket — no
//! browser download, no driver binary. Where Chromium is missing the tests
//! say they are skipped; CI installs it (`.ci/run`) and never skips.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// The Chromium binary, if this machine has one.
pub fn chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"].iter().map(PathBuf::from).find(|p| p.exists())
}

pub struct Browser {
    child: Child,
    profile: PathBuf,
    socket: Socket,
    session: String,
    next_id: u64,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

impl Browser {
    /// Starts Chromium with one page (`width`×`height`), or `None` without
    /// Chromium on this machine.
    pub async fn start(width: u32, height: u32) -> Option<Browser> {
        let binary = chromium()?;
        let profile = std::env::temp_dir().join(format!("warboard-chromium-{}", warboard_server::store::new_id().expect("id")));
        std::fs::create_dir_all(&profile).expect("a profile folder");
        // The flags these machines need (no sandbox as root, no GPU, no
        // calls home: the network is closed).
        let mut child = Command::new(binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-dev-shm-usage",
                "--remote-debugging-port=0",
                &format!("--window-size={width},{height}"),
                &format!("--user-data-dir={}", profile.display()),
                "about:blank",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("Chromium starts");
        let stderr = child.stderr.take().expect("piped");
        let url = tokio::task::spawn_blocking(move || {
            let mut reader = BufReader::new(stderr);
            let mut line = String::new();
            let deadline = Instant::now() + Duration::from_secs(30);
            while Instant::now() < deadline {
                line.clear();
                if reader.read_line(&mut line).ok()? == 0 {
                    return None;
                }
                if let Some(url) = line.trim().strip_prefix("DevTools listening on ") {
                    let url = url.to_string();
                    // Keep draining so Chromium never blocks on a full pipe.
                    std::thread::spawn(move || for _ in reader.lines() {});
                    return Some(url);
                }
            }
            None
        })
        .await
        .expect("the reader ends")
        .expect("Chromium says where DevTools listens");
        let (socket, _) = tokio_tungstenite::connect_async(&url).await.expect("DevTools accepts");
        let mut browser = Browser { child, profile, socket, session: String::new(), next_id: 0 };
        let target = browser.call(None, "Target.createTarget", json!({"url": "about:blank"})).await;
        let target_id = target["targetId"].as_str().expect("a target").to_string();
        let attached = browser.call(None, "Target.attachToTarget", json!({"targetId": target_id, "flatten": true})).await;
        browser.session = attached["sessionId"].as_str().expect("a session").to_string();
        browser.page("Page.enable", json!({})).await;
        browser.page("Runtime.enable", json!({})).await;
        Some(browser)
    }

    /// One DevTools command (on the page's session when `session` is set);
    /// its result. Events in between are skipped.
    async fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            message["sessionId"] = json!(s);
        }
        self.socket.send(Message::Text(message.to_string().into())).await.expect("DevTools takes the command");
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(30), self.socket.next()).await.expect("DevTools answers within 30 s");
            let Some(Ok(Message::Text(text))) = frame else { continue };
            let reply: Value = serde_json::from_str(&text).expect("DevTools speaks JSON");
            if reply["id"] == json!(id) {
                if let Some(e) = reply.get("error") {
                    panic!("DevTools refused {method}: {e}");
                }
                return reply["result"].clone();
            }
        }
    }

    async fn page(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.call(Some(&session), method, params).await
    }

    pub async fn goto(&mut self, url: &str) {
        self.page("Page.navigate", json!({"url": url})).await;
        self.wait_for("document.readyState === 'complete'", "the page loads").await;
    }

    /// Evaluates a JavaScript expression in the page (promises awaited);
    /// its value as JSON. An exception fails the test with its text.
    pub async fn eval(&mut self, expression: &str) -> Value {
        let result = self.page("Runtime.evaluate", json!({"expression": expression, "awaitPromise": true, "returnByValue": true})).await;
        if let Some(e) = result.get("exceptionDetails") {
            panic!("the page threw evaluating `{expression}`: {e}");
        }
        result["result"]["value"].clone()
    }

    /// Waits until `condition` (a JavaScript expression) is true, up to 20 s.
    pub async fn wait_for(&mut self, condition: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let expression = format!("(() => {{ try {{ return !!({condition}); }} catch (e) {{ return false; }} }})()");
            if self.eval(&expression).await == json!(true) {
                return;
            }
            if Instant::now() > deadline {
                let body = self.eval("document.body ? document.body.innerText.slice(0, 2000) : ''").await;
                panic!("waited 20 s for {what} ({condition}); the page shows: {body}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Clicks the element `selector` names (it must exist).
    pub async fn click(&mut self, selector: &str) {
        let s = serde_json::to_string(selector).expect("a string");
        self.wait_for(&format!("document.querySelector({s})"), &format!("`{selector}` to appear")).await;
        self.eval(&format!("document.querySelector({s}).click()")).await;
    }

    /// Sets an input's or select's value as a person would (input and
    /// change events fire).
    pub async fn fill(&mut self, selector: &str, value: &str) {
        let (s, v) = (serde_json::to_string(selector).expect("a string"), serde_json::to_string(value).expect("a string"));
        self.wait_for(&format!("document.querySelector({s})"), &format!("`{selector}` to appear")).await;
        self.eval(&format!(
            "(() => {{ const e = document.querySelector({s}); e.focus(); e.value = {v}; \
             e.dispatchEvent(new Event('input', {{bubbles: true}})); e.dispatchEvent(new Event('change', {{bubbles: true}})); }})()"
        ))
        .await;
    }

    /// Presses a key (`Enter`, `Tab`, …) on whatever has the focus, as the
    /// keyboard would.
    pub async fn press(&mut self, key: &str) {
        let code = json!({"Enter": 13, "Tab": 9, "Escape": 27, " ": 32}).get(key).cloned().unwrap_or(json!(0));
        let text = if key == "Enter" { "\r" } else if key == " " { " " } else { "" };
        for kind in ["keyDown", "keyUp"] {
            let mut params = json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code});
            if kind == "keyDown" && !text.is_empty() {
                params["text"] = json!(text);
            }
            self.page("Input.dispatchKeyEvent", params).await;
        }
    }

    /// Writes a PNG of the page to `path`.
    pub async fn screenshot(&mut self, path: &Path) {
        let shot = self.page("Page.captureScreenshot", json!({"format": "png"})).await;
        let data = base64(shot["data"].as_str().expect("image data"));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("a folder for screenshots");
        }
        std::fs::write(path, data).expect("the screenshot is written");
    }
}

/// Standard base64 (DevTools' encoding of binary data).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let (mut out, mut bits, mut count) = (Vec::with_capacity(text.len() * 3 / 4), 0u32, 0);
    for v in text.bytes().filter_map(value) {
        bits = (bits << 6) | v as u32;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    out
}
