//! The program's state between frames, and what each key does to it. No
//! drawing and no terminal here: keys go in, state comes out, so that the
//! interface is tested like any other code.

use super::board;
use super::command::{self, Command, Order};
use warboard_table::narrate::{LineKind, LogLine};
use super::save;
use super::session::Session;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::Path;
use std::time::{Duration, Instant};
use warboard_rules::battle;
use warboard_rules::{Game, PowerId, SpaceId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The first screen: which powers the person plays.
    PickPowers,
    Game,
    /// Simultaneous shopping with two or more nations at one keyboard: the
    /// screen is covered while it passes to this nation's player.
    Handover(PowerId),
}

/// Where typed characters go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Typing {
    Command,
    /// After `/`: the spaces panel's filter.
    Filter,
}

/// The computer's paces F5 cycles through, in milliseconds an action.
pub const PACES: [u64; 4] = [0, 250, 800, 2000];

/// The last message under the panels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Info(String),
    Error(String),
}

pub struct App {
    pub screen: Screen,
    pub session: Session,
    /// The power picker: which powers are ticked, and the highlighted row.
    pub picked: Vec<bool>,
    pub pick_cursor: usize,
    /// Enter was pressed with no power ticked: the picker asked whether
    /// the computer should play every power (issue 33, point 1); a second
    /// Enter with nothing ticked says yes.
    pub watch_asked: bool,
    /// A line for the first screen (a loaded game: why some powers are
    /// already ticked).
    pub picker_note: Option<String>,
    pub input: String,
    /// The file a `load` was asked for while actions were unsaved: the same
    /// `load` again goes ahead.
    load_asked: Option<String>,
    /// The input line holds a command just refused: shown to be corrected
    /// (Backspace edits it), and the next typed letter starts a new command
    /// instead of being appended to it (issue 33, point 9: `tanksend`).
    refused_line: bool,
    pub filter: String,
    pub typing: Typing,
    /// Index of the selected row among the spaces matching the filter.
    pub cursor: usize,
    /// Rows the spaces panel showed last frame (PageUp/PageDown's step).
    pub page: usize,
    pub show_income: bool,
    /// The drawn map instead of the help and log (F3), at a zoom (F4:
    /// an index into `draw::MAP_ZOOMS`).
    pub show_map: bool,
    pub map_zoom: usize,
    /// Time between two of the computer's actions on screen (zero: as fast
    /// as it plays), so that its turn can be followed step by step; F5
    /// cycles through [`PACES`].
    pub pace: Duration,
    last_computer_step: Option<Instant>,
    pub message: Option<Message>,
    /// How many lines the log is scrolled back from its newest line.
    pub log_scroll: usize,
    pub quit: bool,
    /// `quit` was refused once for unsaved actions; the next one leaves.
    quit_asked: bool,
    /// The nation whose player has the keyboard in a round's shopping:
    /// the screen shows what that player may see.
    pub viewer: Option<PowerId>,
    /// The position as the viewer may see it, made before each frame
    /// (`None`: the whole game is shown).
    view: Option<Game>,
}

impl App {
    /// Starts on the power picker, or straight in the game when the powers
    /// are already known.
    pub fn new(session: Session, powers_known: bool) -> App {
        let picked = session.humans().to_vec();
        App {
            screen: if powers_known { Screen::Game } else { Screen::PickPowers },
            session,
            picked,
            pick_cursor: 0,
            watch_asked: false,
            picker_note: None,
            input: String::new(),
            load_asked: None,
            refused_line: false,
            filter: String::new(),
            typing: Typing::Command,
            cursor: 0,
            page: 10,
            show_income: false,
            show_map: false,
            map_zoom: 0,
            pace: Duration::ZERO,
            last_computer_step: None,
            message: None,
            log_scroll: 0,
            quit: false,
            quit_asked: false,
            viewer: None,
            view: None,
        }
    }

    /// The game as the screen shows it: during simultaneous shopping, the
    /// other nations' purchases are left out (ALT L20).
    pub fn shown(&self) -> &Game {
        self.view.as_ref().unwrap_or(self.session.game())
    }

    /// Makes the view for the next frame.
    pub fn refresh_view(&mut self) {
        self.view = self.session.view_for(self.viewer);
    }

    /// In simultaneous shopping the keyboard goes to the nation that acts
    /// now; where several nations are the person's, the screen is covered
    /// until the next player is ready.
    fn hand_over(&mut self) {
        if self.screen != Screen::Game || !self.session.shopping_is_secret() {
            return;
        }
        let Some(p) = self.session.actor().filter(|p| self.session.is_human(*p)) else { return };
        if self.viewer == Some(p) {
            return;
        }
        if self.session.human_shoppers() >= 2 {
            self.screen = Screen::Handover(p);
        } else {
            self.viewer = Some(p);
        }
    }

    /// The spaces the panel lists now.
    pub fn spaces(&self) -> Vec<SpaceId> {
        board::matching(self.shown(), &self.filter)
    }

    pub fn selected_space(&self) -> Option<SpaceId> {
        let spaces = self.spaces();
        spaces.get(self.cursor.min(spaces.len().saturating_sub(1))).copied()
    }

    /// Lets the computer play until it is a person's decision or `budget`
    /// has passed (so that the screen keeps being drawn). Returns whether
    /// anything was played.
    pub fn tick(&mut self, budget: Duration) -> bool {
        if self.screen != Screen::Game {
            return false;
        }
        let start = Instant::now();
        let mut played = false;
        if !self.pace.is_zero() {
            // One action at a time, at the pace the person set.
            let due = self.last_computer_step.is_none_or(|t| t.elapsed() >= self.pace);
            if due && self.session.computer_to_act() {
                played = self.session.step_computer();
                self.last_computer_step = Some(Instant::now());
            }
        } else {
            while self.session.computer_to_act() && start.elapsed() < budget {
                played |= self.session.step_computer();
            }
        }
        if played {
            self.log_scroll = 0;
            self.focus_on_battle();
        }
        self.hand_over();
        played
    }

    /// Selects a space in the spaces panel, clearing a filter that hides it.
    fn focus(&mut self, at: SpaceId) {
        if !self.spaces().contains(&at) {
            self.filter.clear();
        }
        if let Some(i) = self.spaces().iter().position(|s| *s == at) {
            self.cursor = i;
        }
    }

    /// When a battle waits for the person's decision, its space is selected,
    /// so that its units and odds are in view. Says whether it was.
    fn focus_on_battle(&mut self) -> bool {
        let game = self.session.game();
        let Some(i) = battle::current(&game.state) else { return false };
        if !self.session.actor().is_some_and(|p| self.session.is_human(p)) {
            return false;
        }
        let at = game.state.battles[i].at;
        self.focus(at);
        true
    }

    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        match self.screen {
            Screen::PickPowers => self.pick_key(key),
            Screen::Game => self.game_key(key),
            Screen::Handover(p) => {
                if key.code == KeyCode::Enter {
                    self.viewer = Some(p);
                    self.screen = Screen::Game;
                    self.message = Some(Message::Info(format!("{} shops: the other nations' purchases stay hidden until all are done", self.session.power_name(p))));
                }
            }
        }
    }

    fn pick_key(&mut self, key: KeyEvent) {
        let n = self.picked.len();
        match key.code {
            KeyCode::Up => self.pick_cursor = self.pick_cursor.saturating_sub(1),
            KeyCode::Down => self.pick_cursor = (self.pick_cursor + 1).min(n.saturating_sub(1)),
            KeyCode::Char(' ') | KeyCode::Char('x') => {
                self.watch_asked = false;
                if let Some(p) = self.picked.get_mut(self.pick_cursor) {
                    *p = !*p;
                }
            }
            KeyCode::Char(c @ '1'..='9') => {
                let i = c as usize - '1' as usize;
                if let Some(p) = self.picked.get_mut(i) {
                    *p = !*p;
                    self.pick_cursor = i;
                }
            }
            KeyCode::Char('a') => {
                let all = self.picked.iter().all(|p| *p);
                self.picked.iter_mut().for_each(|p| *p = !all);
            }
            KeyCode::Enter => {
                let nobody = !self.picked.iter().any(|p| *p);
                if nobody && !self.watch_asked {
                    self.watch_asked = true;
                    return;
                }
                self.session.set_humans(self.picked.clone());
                self.screen = Screen::Game;
                if nobody {
                    self.message = Some(Message::Info("the computer plays every power: watch, or quit".into()));
                }
            }
            KeyCode::Esc | KeyCode::Char('q') => self.quit = true,
            _ => {}
        }
    }

    fn game_key(&mut self, key: KeyEvent) {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let shift = key.modifiers.contains(KeyModifiers::SHIFT);
        let rows = self.spaces().len();
        match key.code {
            KeyCode::Up if ctrl => self.scroll_log(1, true),
            KeyCode::Down if ctrl => self.scroll_log(1, false),
            KeyCode::PageUp if shift => self.scroll_log(10, true),
            KeyCode::PageDown if shift => self.scroll_log(10, false),
            KeyCode::Up => self.cursor = self.cursor.min(rows.saturating_sub(1)).saturating_sub(1),
            KeyCode::Down => self.cursor = (self.cursor + 1).min(rows.saturating_sub(1)),
            KeyCode::PageUp => self.cursor = self.cursor.min(rows.saturating_sub(1)).saturating_sub(self.page.max(1)),
            KeyCode::PageDown => self.cursor = (self.cursor + self.page.max(1)).min(rows.saturating_sub(1)),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = rows.saturating_sub(1),
            KeyCode::F(2) => self.show_income = !self.show_income,
            KeyCode::F(3) => self.show_map = !self.show_map,
            KeyCode::F(5) => {
                let next = PACES.iter().position(|p| Duration::from_millis(*p) == self.pace).map_or(0, |i| (i + 1) % PACES.len());
                self.pace = Duration::from_millis(PACES[next]);
                let text = if self.pace.is_zero() { "the computer plays at full speed".to_string() } else { format!("the computer takes {} ms an action", PACES[next]) };
                self.message = Some(Message::Info(text));
            }
            KeyCode::F(4) => {
                self.show_map = true;
                self.map_zoom = (self.map_zoom + 1) % super::draw::MAP_ZOOMS.len();
            }
            KeyCode::Tab => self.insert_selected_space(),
            KeyCode::Esc => match self.typing {
                Typing::Filter => {
                    self.filter.clear();
                    self.typing = Typing::Command;
                    self.cursor = 0;
                }
                Typing::Command if self.input.is_empty() => {
                    self.filter.clear();
                    self.message = None;
                }
                Typing::Command => self.input.clear(),
            },
            KeyCode::Backspace => match self.typing {
                Typing::Filter => {
                    if self.filter.pop().is_none() {
                        self.typing = Typing::Command;
                    }
                    self.cursor = 0;
                }
                Typing::Command => {
                    self.refused_line = false;
                    self.input.pop();
                }
            },
            KeyCode::Enter => match self.typing {
                Typing::Filter => self.typing = Typing::Command,
                Typing::Command => self.submit(),
            },
            KeyCode::Char('u') if ctrl => {
                self.refused_line = false;
                self.input.clear();
            }
            KeyCode::Char(c) if !ctrl => self.type_char(c),
            _ => {}
        }
    }

    fn type_char(&mut self, c: char) {
        match self.typing {
            Typing::Filter => {
                self.filter.push(c);
                self.cursor = 0;
            }
            Typing::Command if self.input.is_empty() && c == '/' => {
                self.typing = Typing::Filter;
                self.filter.clear();
                self.cursor = 0;
            }
            // No command starts with `i`: on an empty line it is the chart key.
            Typing::Command if self.input.is_empty() && c == 'i' => self.show_income = !self.show_income,
            Typing::Command => {
                if std::mem::take(&mut self.refused_line) {
                    self.input.clear();
                }
                self.input.push(c);
            }
        }
    }

    fn scroll_log(&mut self, by: usize, back: bool) {
        let most = self.session.log().len().saturating_sub(1);
        self.log_scroll = if back { (self.log_scroll + by).min(most) } else { self.log_scroll.saturating_sub(by) };
    }

    /// Tab: the selected space's id goes into the command being typed.
    fn insert_selected_space(&mut self) {
        let Some(at) = self.selected_space() else { return };
        self.refused_line = false;
        if !self.input.is_empty() && !self.input.ends_with(' ') {
            self.input.push(' ');
        }
        self.input.push_str(self.session.game().ruleset.map.name(at));
        self.input.push(' ');
    }

    /// Carries out the input line. A refused command stays in the line so
    /// that it can be corrected.
    fn submit(&mut self) {
        let line = self.input.trim().to_string();
        if line.is_empty() {
            return;
        }
        let ruleset = self.session.game().ruleset.clone();
        let parsed = command::parse(&line, &ruleset);
        if !matches!(parsed, Ok(Command::Quit)) {
            self.quit_asked = false;
        }
        let outcome = match parsed {
            Err(e) => Err(e),
            Ok(Command::Order(order)) => self.session.order(&order).map(|_| {
                // The space the order was about comes into view, with its odds.
                if !self.focus_on_battle() {
                    if let Order::Move { route, .. } = &order {
                        if let Some(to) = route.last() {
                            self.focus(*to);
                        }
                    }
                }
                format!("done: {line}")
            }),
            Ok(Command::Save(file)) => self.session.save(Path::new(&file)).map(|_| format!("saved to {file}")),
            Ok(Command::Load(file)) => self.load(&file).map(|_| format!("loaded {file}")),
            Ok(Command::Undo) => self.session.undo().map(|_| "undone".to_string()),
            Ok(Command::Help) => {
                for s in command::syntax_for(&self.session.game().ruleset.clone()) {
                    self.session.note(s);
                }
                Ok("the commands are listed in the log".to_string())
            }
            // Leaving with unsaved actions asks first (issue 15, point 3):
            // a second `quit` leaves.
            Ok(Command::Quit) if self.session.unsaved_actions() > 0 && !self.quit_asked => {
                self.quit_asked = true;
                let n = self.session.unsaved_actions();
                Ok(format!(
                    "{n} action{} since the last save would be lost: `save FILE` first, or `quit` again to leave without saving",
                    if n == 1 { "" } else { "s" }
                ))
            }
            Ok(Command::Quit) => {
                self.quit = true;
                Ok(String::new())
            }
        };
        match outcome {
            Ok(info) => {
                self.input.clear();
                self.log_scroll = 0;
                self.message = Some(Message::Info(info));
            }
            Err(e) => {
                self.refused_line = true;
                self.message = Some(Message::Error(e));
            }
        }
        self.hand_over();
    }

    /// Replaces the game with a saved one; the person keeps their powers.
    fn load(&mut self, file: &str) -> Result<(), String> {
        // A load replaces the game: unsaved actions are named first, as
        // `quit` does (issue 33, point 2); a second `load` goes ahead.
        let unsaved = self.session.unsaved_actions();
        if unsaved > 0 && self.load_asked.as_deref() != Some(file) {
            self.load_asked = Some(file.to_string());
            return Err(format!(
                "{unsaved} action{} since the last save would be lost: `save FILE` first, or `load {file}` again to load anyway",
                if unsaved == 1 { "" } else { "s" }
            ));
        }
        self.load_asked = None;
        let record = save::load(Path::new(file))?;
        let note = record.migration_note();
        // The person keeps the powers they play by name: the loaded game may
        // be of another ruleset, with other powers in another order.
        let old = &self.session.game().ruleset;
        let played: Vec<String> = old.power_ids().filter(|p| self.session.is_human(*p)).map(|p| old.power(p).id.clone()).collect();
        let rs = &record.game().ruleset;
        let humans: Vec<bool> = rs.power_ids().map(|p| played.contains(&rs.power(p).id)).collect();
        let pass = self.session.passes_idle_phases();
        let think = self.session.think();
        self.session = Session::resume(record, humans);
        self.session.set_pass_idle_phases(pass);
        self.session.set_think(think);
        self.session.note(format!("loaded {file}"));
        let game = self.session.game();
        let you: Vec<String> = game.ruleset.power_ids().filter(|p| self.session.is_human(*p)).map(|p| game.ruleset.power(p).id.clone()).collect();
        let where_now = format!(
            "{} game, round {}, {}'s {}; you play {}",
            game.ruleset.name,
            game.state.round,
            game.ruleset.power(game.state.turn).id,
            game.state.phase.name().replace('_', " "),
            if you.is_empty() { "no power of it: the computer plays every one (`quit` and `play --load` to choose)".to_string() } else { you.join(", ") }
        );
        self.session.note(where_now);
        if let Some(note) = note {
            self.session.note(note);
        }
        self.cursor = 0;
        Ok(())
    }

    /// The log lines to show in `height` rows, honouring the scroll-back.
    /// Lines sealed for another nation's shopping are left out.
    pub fn visible_log(&self, height: usize) -> Vec<&LogLine> {
        let log: Vec<&LogLine> = self.session.log().iter().filter(|l| self.session.may_read(l, self.viewer)).collect();
        let end = log.len().saturating_sub(self.log_scroll);
        log[end.saturating_sub(height)..end].to_vec()
    }

    /// A line for the status bar about the message, when there is none.
    pub fn idle_hint(&self) -> LogLine {
        let text = match self.typing {
            Typing::Filter => "filtering spaces: type a name, Enter to keep, Esc to clear",
            Typing::Command => "type a command; / filters spaces; Tab inserts the selected space; F2: income chart; F3: map (F4 zooms); F5: computer's pace",
        };
        LogLine::new(LineKind::Note, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warboard_rules::Phase;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }
    fn type_line(app: &mut App, text: &str) {
        for c in text.chars() {
            app.handle_key(key(KeyCode::Char(c)));
        }
        app.handle_key(key(KeyCode::Enter));
    }

    fn app_for(humans: Vec<bool>, known: bool) -> App {
        App::new(Session::new("classic", 1, humans).expect("a game starts"), known)
    }

    #[test]
    fn the_picker_toggles_powers_and_starts_the_game() {
        let mut app = app_for(vec![false; 5], false);
        assert_eq!(app.screen, Screen::PickPowers);
        app.handle_key(key(KeyCode::Char('2')));
        app.handle_key(key(KeyCode::Down));
        app.handle_key(key(KeyCode::Char(' ')));
        app.handle_key(key(KeyCode::Char(' ')));
        assert_eq!(app.picked, vec![false, true, false, false, false]);
        assert!(!app.tick(Duration::from_millis(50)), "nothing is played on the picker");
        app.handle_key(key(KeyCode::Enter));
        assert_eq!(app.screen, Screen::Game);
        assert_eq!(app.session.humans(), &[false, true, false, false, false]);
    }

    #[test]
    fn typed_commands_play_and_refusals_stay_in_the_line() {
        let mut app = app_for(vec![true; 5], true);
        type_line(&mut app, "end");
        assert_eq!(app.session.game().state.phase, Phase::Purchase);
        assert!(app.input.is_empty());
        type_line(&mut app, "buy 99 ftr");
        assert!(matches!(app.message, Some(Message::Error(_))), "{:?}", app.message);
        assert_eq!(app.input, "buy 99 ftr", "the refused command can be corrected");
        app.handle_key(key(KeyCode::Esc));
        assert!(app.input.is_empty());
        type_line(&mut app, "buy 2 inf");
        assert_eq!(app.session.game().state.purchased.values().sum::<u32>(), 2);
        // Issue 33, point 9: after a refusal the next command replaces the
        // refused one instead of being appended to it ("tanksend")...
        type_line(&mut app, "buy 2 zeppelins");
        assert_eq!(app.input, "buy 2 zeppelins");
        type_line(&mut app, "end");
        assert_eq!(app.session.game().state.phase, Phase::CombatMove, "{:?}", app.message);
        // ...while Backspace edits it.
        type_line(&mut app, "buy 1 inff");
        app.handle_key(key(KeyCode::Backspace));
        app.handle_key(key(KeyCode::Char('x')));
        assert_eq!(app.input, "buy 1 infx");
    }

    #[test]
    fn the_filter_narrows_the_spaces_and_tab_inserts_the_selection() {
        let mut app = app_for(vec![true; 5], true);
        let all = app.spaces().len();
        type_line(&mut app, "/GER");
        assert_eq!(app.typing, Typing::Command, "Enter keeps the filter and returns to the command line");
        assert!(app.spaces().len() < all);
        assert_eq!(app.selected_space().map(|s| app.session.game().ruleset.map.name(s).to_string()).as_deref(), Some("GER"));
        for c in "move 1 inf".chars() {
            app.handle_key(key(KeyCode::Char(c)));
        }
        app.handle_key(key(KeyCode::Tab));
        assert_eq!(app.input, "move 1 inf GER ");
        app.handle_key(key(KeyCode::Esc));
        app.handle_key(key(KeyCode::Esc));
        assert_eq!(app.spaces().len(), all, "Esc on an empty line clears the filter");
    }

    #[test]
    fn a_move_brings_its_destination_into_view() {
        let mut app = app_for(vec![true; 5], true);
        type_line(&mut app, "end");
        type_line(&mut app, "end");
        type_line(&mut app, "move 1 arm LEN UKR");
        assert!(app.input.is_empty(), "{:?}", app.message);
        let selected = app.selected_space().map(|s| app.session.game().ruleset.map.name(s).to_string());
        assert_eq!(selected.as_deref(), Some("UKR"));
    }

    #[test]
    fn keys_move_the_cursor_and_toggle_the_chart() {
        let mut app = app_for(vec![true; 5], true);
        app.handle_key(key(KeyCode::Down));
        app.handle_key(key(KeyCode::Down));
        assert_eq!(app.cursor, 2);
        app.handle_key(key(KeyCode::Up));
        assert_eq!(app.cursor, 1);
        app.handle_key(key(KeyCode::End));
        assert_eq!(app.cursor, app.spaces().len() - 1);
        app.handle_key(key(KeyCode::PageDown));
        assert_eq!(app.cursor, app.spaces().len() - 1, "the cursor stays on the list");
        app.handle_key(key(KeyCode::Char('i')));
        assert!(app.show_income);
        app.handle_key(key(KeyCode::F(2)));
        assert!(!app.show_income);
        app.handle_key(key(KeyCode::Char('q')));
        assert_eq!(app.input, "q");
        app.handle_key(key(KeyCode::Enter));
        assert!(app.quit);
    }

    #[test]
    fn quitting_with_unsaved_actions_asks_first() {
        let mut app = app_for(vec![true; 5], true);
        type_line(&mut app, "end");
        type_line(&mut app, "quit");
        assert!(!app.quit, "one action is not saved");
        assert!(matches!(&app.message, Some(Message::Info(e)) if e.contains("1 action since the last save")), "{:?}", app.message);
        type_line(&mut app, "quit");
        assert!(app.quit, "a second quit leaves");

        let mut app = app_for(vec![true; 5], true);
        type_line(&mut app, "end");
        let file = std::env::temp_dir().join(format!("warboard-quit-{}.json", std::process::id()));
        type_line(&mut app, &format!("save {}", file.display()));
        type_line(&mut app, "quit");
        let _ = std::fs::remove_file(&file);
        assert!(app.quit, "nothing unsaved: quit leaves at once");
    }

    /// Issue 33, point 2: `load` in a game names the unsaved actions first,
    /// and the person keeps their powers by name in a game of another
    /// ruleset (Germany is power 1 in classic, power 0 in Europe).
    #[test]
    fn loading_asks_first_and_keeps_the_persons_powers_by_name() {
        let file = std::env::temp_dir().join(format!("warboard-load-{}.json", std::process::id()));
        let mut europe = Session::new("europe", 2, vec![false; 4]).expect("a Europe game");
        europe.save(&file).expect("saved");
        let mut app = app_for(vec![false, true, false, false, false], true);
        while app.session.actor().map(|p| app.session.power_name(p).to_string()).as_deref() != Some("germany") {
            assert!(app.tick(Duration::from_millis(200)), "the computer plays up to Germany");
        }
        type_line(&mut app, "end");
        type_line(&mut app, &format!("load {}", file.display()));
        assert!(matches!(&app.message, Some(Message::Error(e)) if e.contains("since the last save would be lost")), "{:?}", app.message);
        assert_eq!(app.session.game().ruleset.name, "classic", "nothing loaded yet");
        type_line(&mut app, &format!("load {}", file.display()));
        let _ = std::fs::remove_file(&file);
        let game = app.session.game();
        assert_eq!(game.ruleset.name, "europe", "{:?}", app.message);
        let played: Vec<&str> = game.ruleset.power_ids().filter(|p| app.session.is_human(*p)).map(|p| game.ruleset.power(p).id.as_str()).collect();
        assert_eq!(played, ["germany"]);
        assert!(app.session.log().iter().any(|l| l.text.contains("you play germany")), "the load says where the game stands");
    }

    #[test]
    fn the_computer_plays_on_tick_until_the_persons_turn() {
        let mut app = app_for(vec![false, true, false, false, false], true);
        for _ in 0..1000 {
            if !app.tick(Duration::from_millis(200)) {
                break;
            }
        }
        assert_eq!(app.session.actor().map(|p| app.session.power_name(p).to_string()).as_deref(), Some("germany"));
    }

    /// At a set pace the computer's turn goes one action at a time (issue
    /// 15, point 14), and F5 changes the pace.
    #[test]
    fn the_computer_plays_at_the_pace_the_person_sets() {
        let mut app = app_for(vec![false, true, false, false, false], true);
        app.pace = Duration::from_millis(2000);
        let before = app.session.unsaved_actions();
        app.tick(Duration::from_millis(200));
        app.tick(Duration::from_millis(200));
        assert_eq!(app.session.unsaved_actions(), before + 1, "one action, then a wait");
        // Once the pace has passed, the next one.
        app.last_computer_step = Some(Instant::now() - Duration::from_millis(2100));
        app.tick(Duration::from_millis(200));
        assert_eq!(app.session.unsaved_actions(), before + 2, "the next after the pace");
        app.handle_key(key(KeyCode::F(5)));
        assert_eq!(app.pace, Duration::ZERO, "after the slowest, full speed");
        app.handle_key(key(KeyCode::F(5)));
        assert_eq!(app.pace, Duration::from_millis(250));
    }

    /// Two nations at one keyboard in Alternative's simultaneous shopping
    /// (ALT L20): the screen is covered between them, and neither sees the
    /// other's purchases or placements until both are done.
    #[test]
    fn simultaneous_shopping_hides_each_nations_purchases() {
        let humans = vec![false, false, true, false, true];
        let mut app = App::new(Session::new("alternative", 1, humans).expect("a game starts"), true);
        let name = |app: &App, p: PowerId| app.session.power_name(p).to_string();
        for _ in 0..200 {
            if !app.tick(Duration::from_millis(200)) && app.session.actor().is_some_and(|p| app.session.is_human(p)) {
                break;
            }
        }
        if app.session.game().state.phase == Phase::Payday {
            type_line(&mut app, "end");
        }
        assert_eq!(app.session.game().state.phase, Phase::Shopping);
        let Screen::Handover(first) = app.screen else { panic!("no handover screen: {:?}", app.screen) };
        app.handle_key(key(KeyCode::Enter));
        assert_eq!(app.screen, Screen::Game);
        let first_name = name(&app, first);
        let home = app.session.game().ruleset.map.name(app.session.game().ruleset.power(first).capital.unwrap()).to_string();
        type_line(&mut app, "buy 3 inf");
        type_line(&mut app, &format!("place 3 inf {home}"));
        assert!(app.message.as_ref().is_some_and(|m| matches!(m, Message::Info(_))), "{:?}", app.message);
        type_line(&mut app, "end");
        for _ in 0..200 {
            if !app.tick(Duration::from_millis(200)) {
                break;
            }
        }
        let Screen::Handover(second) = app.screen else { panic!("no handover to the second nation: {:?}", app.screen) };
        assert_ne!(first, second);
        app.handle_key(key(KeyCode::Enter));
        app.refresh_view();
        // The second player sees neither the first's purchase in the log nor
        // its new infantry on the board.
        let log: Vec<String> = app.visible_log(500).iter().map(|l| l.text.clone()).collect();
        assert!(!log.iter().any(|l| l.contains(&first_name) && (l.contains("buys") || l.contains("places"))), "{log:?}");
        let at = app.session.game().ruleset.power(first).capital.unwrap();
        let count = |g: &Game| g.state.units.iter().filter(|u| u.at == at && u.owner == first).count();
        assert_eq!(count(app.session.game()), count(app.shown()) + 3);
        // Once every nation has shopped, all is shown.
        type_line(&mut app, "end");
        for _ in 0..200 {
            if !app.tick(Duration::from_millis(200)) {
                break;
            }
        }
        assert_ne!(app.session.game().state.phase, Phase::Shopping);
        app.refresh_view();
        assert_eq!(count(app.session.game()), count(app.shown()));
        let log: Vec<String> = app.visible_log(500).iter().map(|l| l.text.clone()).collect();
        assert!(log.iter().any(|l| l.contains(&first_name) && l.contains("3 inf")), "{log:?}");
    }

    /// Under fair buying the purchases stay hidden until all have bought;
    /// the placing that follows, one unit at a time in turn, is open, with
    /// no covered screen between the placers (ALT L60).
    #[test]
    fn fair_buying_places_in_the_open() {
        let options = [("fair_buying".to_string(), serde_json::Value::Bool(true))].into_iter().collect();
        let humans = vec![false, false, true, false, true];
        let mut app = App::new(Session::with_options("alternative", options, 1, humans).expect("a game starts"), true);
        let mut handovers = 0;
        let mut placing_seen = false;
        for _ in 0..400 {
            app.tick(Duration::from_millis(200));
            if let Screen::Handover(_) = app.screen {
                assert!(!placing_seen, "no covered screen once the placing has begun");
                handovers += 1;
                app.handle_key(key(KeyCode::Enter));
                continue;
            }
            let game = app.session.game();
            if game.state.phase != Phase::Shopping && game.state.phase != Phase::Payday {
                break;
            }
            let Some(p) = app.session.actor().filter(|p| app.session.is_human(*p)) else { continue };
            if game.state.next_placer.is_some() {
                if !placing_seen {
                    placing_seen = true;
                    assert!(!app.session.shopping_is_secret());
                    let log: Vec<String> = app.visible_log(500).iter().map(|l| l.text.clone()).collect();
                    assert_eq!(log.iter().filter(|l| l.contains(" buys ")).count(), game.ruleset.power_count(), "all purchases shown: {log:?}");
                }
                let home = game.ruleset.map.name(game.ruleset.power(p).capital.unwrap()).to_string();
                type_line(&mut app, &format!("place 1 inf {home}"));
            } else if game.state.phase == Phase::Payday {
                type_line(&mut app, "end");
            } else if game.state.unplaced.get(&p).is_none_or(|m| m.values().all(|n| *n == 0)) {
                type_line(&mut app, "buy 2 inf");
                type_line(&mut app, "end");
            } else {
                type_line(&mut app, "end");
            }
        }
        assert!(placing_seen, "the placing in turn was reached");
        assert_eq!(handovers, 2, "a covered screen before each human nation buys");
    }
}
