//! `warboard play` driven as a person would: in tmux, by typed keys, read
//! back from the screen. The computer plays Russia; the test plays Germany
//! through a turn (purchase, an attack with its odds, the battle, placement,
//! a save), then resumes the save. It also checks that the terminal is back
//! to normal after quitting.
//!
//! Skipped (with a message, passing) where tmux is not installed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_warboard");
/// How long a screen may take to show what is expected (a debug build, on a
/// busy machine).
const PATIENCE: Duration = Duration::from_secs(60);

/// A tmux server of our own (its own socket), killed when dropped, so that
/// a failing test leaves nothing running and never touches the user's tmux.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(name: &str) -> Tmux {
        Tmux { socket: format!("warboard-play-test-{}-{name}", std::process::id()) }
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux").arg("-L").arg(&self.socket).args(args).output().expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A 200x50 window running `command` through sh.
    fn open(&self, command: &str) {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "new-session", "-d", "-x", "200", "-y", "50", "-s", "play", command])
            .env_remove("TMUX")
            .output()
            .expect("tmux starts");
        assert!(out.status.success(), "tmux new-session failed: {}", String::from_utf8_lossy(&out.stderr));
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "play"])
    }

    /// Types `text` literally (so that "end" is not taken for the End key)
    /// and presses Enter.
    fn command(&self, text: &str) {
        self.run(&["send-keys", "-t", "play", "-l", text]);
        self.run(&["send-keys", "-t", "play", "Enter"]);
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "play"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    /// Waits until the screen shows every one of `needles`, and returns it.
    fn wait_for(&self, needles: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if needles.iter().all(|n| screen.contains(n)) {
                return screen;
            }
            if start.elapsed() > PATIENCE {
                panic!("the screen never showed {needles:?}; it shows:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").args(["-L", &self.socket, "kill-server"]).output();
    }
}

fn tmux_available() -> bool {
    Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success())
}

fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("warboard-play-tmux-{}-{name}", std::process::id()))
}

fn wait_for_file(path: &Path) -> String {
    let start = Instant::now();
    while start.elapsed() < PATIENCE {
        if let Ok(text) = std::fs::read_to_string(path) {
            if !text.is_empty() {
                return text;
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{} was never written", path.display());
}

/// The shell line that runs warboard, then records the terminal's modes
/// once it has exited (raw mode must be off again: `icanon` and `echo`).
fn run_then_record_tty(args: &str, stty_file: &Path) -> String {
    format!("{BIN} {args}; stty -a > '{}'; sleep 60", stty_file.display())
}

fn assert_terminal_restored(tmux: &Tmux, stty_file: &Path) {
    let modes = wait_for_file(stty_file);
    let words: Vec<&str> = modes.split(|c: char| c.is_whitespace() || c == ';').collect();
    assert!(words.contains(&"icanon") && words.contains(&"echo"), "raw mode was left on after quitting:\n{modes}");
    assert!(!tmux.screen().contains("spaces ("), "the alternate screen was left:\n{}", tmux.screen());
}

#[test]
fn a_person_plays_germany_against_the_computer_in_tmux() {
    if !tmux_available() {
        println!("skipped: tmux is not installed, so `warboard play` cannot be driven in a terminal here");
        return;
    }
    let save = temp_file("save.json");
    let stty = temp_file("stty-1.txt");
    let _ = std::fs::remove_file(&save);
    let _ = std::fs::remove_file(&stty);
    let tmux = Tmux::start("game");
    tmux.open(&run_then_record_tty("play --powers germany --seed 1 --every-phase", &stty));

    // (--every-phase: this run stops at every phase, research and income
    // included.) The computer plays Russia's turn; Germany may be asked to choose its
    // casualties when Russia attacks it, and fights those out by default.
    let start = Instant::now();
    loop {
        let screen = tmux.wait_for(&["decision: germany (you)"]);
        if screen.contains("germany's turn | research") {
            break;
        }
        assert!(screen.contains("russia's turn | combat"), "Germany decides only as a defender in Russia's turn:\n{screen}");
        // Esc on an empty line clears the last message, so that the next
        // "done: resolve" is this one's.
        tmux.keys(&["Escape"]);
        tmux.wait_for(&["type a command;"]);
        tmux.command("resolve");
        tmux.wait_for(&["done: resolve"]);
        assert!(start.elapsed() < PATIENCE, "Russia's turn never ended:\n{screen}");
    }
    let screen = tmux.wait_for(&["round 1 | germany's turn | research | bank 32 IPCs"]);
    // The end of the computer's turn is in view (its start may have
    // scrolled off: the log panel shows the latest lines).
    for line in ["lost at", "russia collects", "== round 1: germany =="] {
        assert!(screen.contains(line), "the log shows the computer's turn (`{line}`):\n{screen}");
    }
    assert!(screen.contains("You play germany now:"), "the help panel speaks to the person:\n{screen}");

    tmux.command("end");
    tmux.wait_for(&["germany's turn | purchase | bank 32 IPCs", "buy 3 inf 1 arm ... (bank 32 IPCs)"]);
    tmux.command("buy 2 inf");
    tmux.wait_for(&["bank 26 IPCs", "germany buys 2 inf for 6 IPCs"]);

    // An illegal order shows the engine's reason and changes nothing.
    tmux.command("buy 99 bmb");
    let screen = tmux.wait_for(&["these units cost 1485 IPCs; germany has 26"]);
    assert!(screen.contains("bank 26 IPCs"), "{screen}");
    tmux.keys(&["C-u"]);

    tmux.command("end");
    tmux.wait_for(&["germany's turn | combat move"]);
    // The bomber attacks Moscow: the move declares a battle, whose odds show.
    tmux.command("move 1 bmb GER EEU LEN MOS");
    let screen = tmux.wait_for(&["germany moves 1 bmb: GER > EEU > LEN > MOS", "odds at MOS: attack wins"]);
    assert!(screen.contains("Russia (Moscow) (MOS)"), "the attacked space is selected, with its odds:\n{screen}");
    tmux.command("end");
    tmux.wait_for(&["germany's turn | combat |", "battle X (fight, deciding as it goes) or resolve X:"]);
    tmux.command("resolve MOS");
    tmux.wait_for(&["battle at MOS ends"]);
    tmux.command("end");
    tmux.wait_for(&["germany's turn | noncombat move"]);
    // The drawn map (F3; issue 15, point 14; issue 33, point 13: the
    // board's borders beside the log), following the selected space; F3
    // closes it.
    tmux.keys(&["F3"]);
    tmux.wait_for(&["map (zoom 1", "MOS", " log "]);
    tmux.keys(&["F3"]);
    // A fighter flown where it cannot land is warned at once, and ending
    // the phase asks first, naming it (issue 15, points 1 and 2).
    tmux.command("move 1 ftr GER BAL");
    // The move's destination comes into view with its move help: where the
    // fighter can still go (issue 15, point 14).
    tmux.wait_for(&["will be lost when this phase ends", "moves from here:", "1 ftr ("]);
    tmux.command("end");
    tmux.wait_for(&["ending noncombat move now loses 1 fighter at BAL"]);
    tmux.keys(&["C-u"]);
    tmux.command("undo");
    tmux.wait_for(&["undone: germany moves 1 ftr"]);
    tmux.command("end");
    tmux.wait_for(&["germany's turn | place", "place 2 inf GER: to place 2 inf"]);
    tmux.command("place 2 inf GER");
    tmux.wait_for(&["germany places 2 inf at GER"]);
    tmux.command("end");
    tmux.wait_for(&["germany's turn | income"]);

    // The spaces panel filters, and the income chart opens on `i`.
    tmux.keys(&["/"]);
    tmux.keys(&["-l", "germany"]);
    tmux.keys(&["Enter"]);
    tmux.wait_for(&["/germany ", "GER germany"]);
    tmux.keys(&["i"]);
    tmux.wait_for(&["income by power"]);
    tmux.keys(&["F2"]);

    tmux.command(&format!("save {}", save.display()));
    tmux.wait_for(&["saved to"]);
    assert!(std::fs::read_to_string(&save).is_ok_and(|t| t.contains("warboard-save")), "the save file was written");

    tmux.command("end");
    tmux.wait_for(&["germany collects"]);
    // Leaving with unsaved actions asks first; a second quit leaves.
    tmux.command("quit");
    tmux.wait_for(&["since the last save would be lost"]);
    tmux.command("quit");
    assert_terminal_restored(&tmux, &stty);
    drop(tmux);

    // The saved game resumes where it was saved.
    let stty = temp_file("stty-2.txt");
    let _ = std::fs::remove_file(&stty);
    let tmux = Tmux::start("resume");
    tmux.open(&run_then_record_tty(&format!("play --powers germany --every-phase --load '{}'", save.display()), &stty));
    let screen = tmux.wait_for(&["round 1 | germany's turn | income | bank 26 IPCs", "resumed"]);
    assert!(screen.contains("germany places 2"), "the story so far is in the log:\n{screen}");
    tmux.command("quit");
    assert_terminal_restored(&tmux, &stty);
    let _ = std::fs::remove_file(&save);
}
