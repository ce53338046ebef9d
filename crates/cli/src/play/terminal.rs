//! The terminal side: raw mode and the alternate screen (restored on every
//! way out, panics included), and the loop that draws, lets the computer
//! play and hands keys to the app.

use super::app::App;
use super::draw;
use crossterm::event::{self, Event, KeyEventKind};
use std::io;
use std::time::Duration;

/// How long the computer may play between two frames: short enough that
/// the screen follows its moves, long enough that it is not slowed down.
const COMPUTER_SLICE: Duration = Duration::from_millis(40);
/// How long to wait for a key when nothing else is going on (a resize is
/// noticed at the latest then).
const IDLE_WAIT: Duration = Duration::from_millis(250);

/// Puts the terminal back when dropped: on a normal exit and on an error.
/// A panic is covered by the hook `ratatui::try_init` installs.
struct RestoreOnDrop;

impl Drop for RestoreOnDrop {
    fn drop(&mut self) {
        ratatui::restore();
    }
}

/// Runs the app in the terminal until the person quits.
pub fn run(mut app: App) -> Result<(), String> {
    let mut terminal = ratatui::try_init().map_err(|e| format!("cannot use this terminal: {e}"))?;
    let restore = RestoreOnDrop;
    let result = event_loop(&mut terminal, &mut app).map_err(|e| format!("terminal error: {e}"));
    drop(restore);
    result
}

fn event_loop(terminal: &mut ratatui::DefaultTerminal, app: &mut App) -> io::Result<()> {
    loop {
        terminal.draw(|frame| draw::draw(frame, app))?;
        if app.quit {
            return Ok(());
        }
        app.tick(COMPUTER_SLICE);
        // At a set pace the loop waits for keys between the computer's steps.
        let wait = match (app.session.computer_to_act(), app.pace.is_zero()) {
            (true, true) => Duration::ZERO,
            (true, false) => app.pace.min(IDLE_WAIT) / 4,
            (false, _) => IDLE_WAIT,
        };
        // Every key waiting is handled before the next frame, so that typed
        // (or pasted) text never lags behind the screen.
        let mut next = event::poll(wait)?;
        while next {
            if let Event::Key(key) = event::read()? {
                if key.kind == KeyEventKind::Press {
                    app.handle_key(key);
                }
            }
            next = !app.quit && event::poll(Duration::ZERO)?;
        }
    }
}
