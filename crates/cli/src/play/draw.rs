//! Drawing the app with ratatui: the power picker, and the game screen with
//! its status bar, spaces, detail (or income chart), help, log and input.

use super::app::{App, Message, Screen, Typing};
use warboard_table::narrate::{LineKind, LogLine};
use super::{board, guide};
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Bar, BarChart, BarGroup, Block, Borders, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;
use warboard_rules::battle;
use warboard_rules::{Game, PowerId, Side};

/// Below this size the panels cannot be laid out readably.
const MIN_WIDTH: u16 = 60;
const MIN_HEIGHT: u16 = 16;

pub fn draw(frame: &mut Frame, app: &mut App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text =
            format!("warboard play needs a terminal of at least {MIN_WIDTH}x{MIN_HEIGHT}; this one is {}x{}", area.width, area.height);
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    app.refresh_view();
    match app.screen {
        Screen::PickPowers => draw_picker(frame, app, area),
        Screen::Game => draw_game(frame, app, area),
        Screen::Handover(p) => draw_handover(frame, app, p, area),
    }
}

/// The covered screen between two nations' shopping at one keyboard.
fn draw_handover(frame: &mut Frame, app: &App, p: warboard_rules::PowerId, area: Rect) {
    let name = app.session.game().ruleset.power(p).name.clone();
    let text = vec![
        Line::styled(format!("Pass the keyboard to the player of {name}."), Style::new().add_modifier(Modifier::BOLD)),
        Line::raw(""),
        Line::raw("Every nation shops at once this round (Alternative rules): nobody sees what the others buy"),
        Line::raw("or where they put it until all are done."),
        Line::raw(""),
        Line::raw(format!("Press Enter when only {name}'s player is looking.")),
    ];
    let block = titled(format!(" shopping: {name} ")).style(Style::new().fg(power_color(app.session.game(), Some(p))));
    frame.render_widget(Paragraph::new(text).block(block).wrap(Wrap { trim: true }), area);
}

/// A colour per power (the board's colours, as near as a terminal gets).
fn power_color(game: &Game, p: Option<PowerId>) -> Color {
    let Some(p) = p else { return Color::DarkGray };
    match game.ruleset.power(p).id.as_str() {
        "russia" => Color::Red,
        "germany" => Color::Gray,
        "uk" => Color::Yellow,
        "japan" => Color::Magenta,
        "usa" => Color::Green,
        _ if game.ruleset.side(p) == Side::Axis => Color::LightRed,
        _ => Color::LightBlue,
    }
}

fn titled(title: String) -> Block<'static> {
    Block::default().borders(Borders::ALL).title(title)
}

fn draw_picker(frame: &mut Frame, app: &App, area: Rect) {
    let game = app.shown();
    // The seed on a line of its own: a seed from the operating system has
    // up to twenty digits, and a title beside it was cut (issue 33, point 12).
    let seed = app.session.seed().map(|s| format!("seed {s}")).unwrap_or_else(|| "dice from outside".into());
    let mut lines = vec![
        Line::styled(game.ruleset.title.clone(), Style::new().add_modifier(Modifier::BOLD)),
        Line::raw(seed),
        Line::raw(""),
        Line::raw("Choose the powers you play; the computer plays the rest."),
        Line::raw(app.picker_note.clone().unwrap_or_default()),
        Line::raw("Several people can share the keyboard: tick a power for each."),
        Line::raw(""),
    ];
    for (i, p) in game.ruleset.power_ids().enumerate() {
        let info = game.ruleset.power(p);
        let mark = if app.picked.get(i).copied().unwrap_or(false) { "[x]" } else { "[ ]" };
        let pointer = if i == app.pick_cursor { ">" } else { " " };
        let who = if app.picked.get(i).copied().unwrap_or(false) { "you" } else { "computer" };
        let text = format!("{pointer} {mark} {} {:<8} {:<16} {:<7} {who}", i + 1, info.id, info.name, game.ruleset.side(p).name());
        let mut style = Style::new().fg(power_color(game, Some(p)));
        if i == app.pick_cursor {
            style = style.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::styled(text, style));
    }
    lines.push(Line::raw(""));
    if app.watch_asked {
        lines.push(Line::styled(
            "No power is ticked: Enter again and the computer plays them all (you watch), or tick yours.",
            Style::new().fg(Color::LightYellow).add_modifier(Modifier::BOLD),
        ));
    }
    lines.push(Line::raw("Up/Down + Space, or 1-5: tick a power   a: all   Enter: start   q: quit"));
    let width = 76.min(area.width);
    let height = (lines.len() as u16 + 2).min(area.height);
    let boxed = Rect { x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width, height };
    frame.render_widget(Paragraph::new(lines).block(titled(" warboard play ".into())).wrap(Wrap { trim: false }), boxed);
}

fn draw_game(frame: &mut Frame, app: &mut App, area: Rect) {
    // A refusal is read whole: its row grows to three lines where it needs
    // them (issue 33, point 12: refusals were cut at 80 columns).
    let message_rows = match &app.message {
        Some(_) => wrap(&message_text(app).0, area.width.saturating_sub(1) as usize).len().clamp(1, 3) as u16,
        None => 1,
    };
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Length(1), Constraint::Min(8), Constraint::Length(message_rows), Constraint::Length(3)])
        .split(area);
    draw_status(frame, app, rows[0]);
    let columns = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(30), Constraint::Percentage(34), Constraint::Percentage(36)])
        .split(rows[1]);
    draw_spaces(frame, app, columns[0]);
    // A short terminal gives the help the larger share: it says what can
    // be done now, the details only what is where.
    let help_share = if area.height < 30 { 60 } else { 45 };
    let middle = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Percentage(100 - help_share), Constraint::Percentage(help_share)])
        .split(columns[1]);
    if app.show_income {
        draw_income(frame, app, middle[0]);
    } else {
        draw_detail(frame, app, middle[0]);
    }
    draw_help(frame, app, middle[1]);
    // The map (F3) shares the right column with the log: the help and the
    // log stay in sight (issue 33, point 13).
    if app.show_map {
        let right = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Percentage(62), Constraint::Percentage(38)])
            .split(columns[2]);
        draw_map(frame, app, right[0]);
        draw_log(frame, app, right[1]);
    } else {
        draw_log(frame, app, columns[2]);
    }
    draw_message(frame, app, rows[2]);
    draw_input(frame, app, rows[3]);
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect) {
    let session = &app.session;
    let game = app.shown();
    let s = &game.state;
    // In a phase of the whole round (Alternative payday and shopping) the
    // nation at the keyboard is the one that counts, not the turn's.
    let round_phase = game.round_phase();
    let turn = if round_phase { session.actor().unwrap_or(s.turn) } else { s.turn };
    // Whose bank: the turn's power's, named where another power decides
    // (issue 33, point 12: a defender read the attacker's bank as its own).
    let decider = session.actor().filter(|p| *p != turn && s.winner.is_none());
    let bank = match decider {
        Some(_) => format!("{}'s bank {} IPCs", session.power_name(turn), s.ipcs[turn.index()]),
        None => format!("bank {} IPCs", s.ipcs[turn.index()]),
    };
    let mut parts = vec![
        format!("round {}", s.round),
        if round_phase { "every nation".to_string() } else { format!("{}'s turn", session.power_name(turn)) },
        s.phase.name().replace('_', " "),
        bank,
        format!("income {}", game.income(turn)),
    ];
    // Where victory cities decide the game: how many each side holds.
    let rs = &game.ruleset;
    if rs.options.capital_victory == warboard_rules::ruleset::CapitalVictory::VictoryCities {
        let held = |side: warboard_rules::Side| {
            rs.map.ids().filter(|t| rs.map.space(*t).victory_city && s.control[t.index()].is_some_and(|q| rs.side(q) == side)).count()
        };
        parts.push(format!("cities axis {} allies {} (of {} to win)", held(warboard_rules::Side::Axis), held(warboard_rules::Side::Allies), rs.options.victory_cities));
    }
    match (&s.winner, session.actor()) {
        (Some(w), _) => parts.push(format!("GAME OVER: the {} win", w.describe(|p| game.ruleset.power(p).id.clone()))),
        (None, Some(p)) => {
            let who = if session.is_human(p) { "you" } else { "computer" };
            parts.push(format!("decision: {} ({who})", session.power_name(p)));
        }
        (None, None) => {}
    }
    // The seed goes last, and only where it fits whole (issue 15, point
    // 11): the log's first line has it too.
    if let Some(seed) = session.seed() {
        parts.push(format!("seed {seed}"));
    }
    // A narrow terminal (80 columns) drops what matters least first: the
    // seed, the victory cities, the income, the bank; the decision stays
    // (issue 33, point 12).
    let fits = |parts: &[String]| format!(" {}", parts.join(" | ")).chars().count() <= area.width as usize;
    let decision_at = parts.iter().position(|p| p.starts_with("decision:") || p.starts_with("GAME OVER"));
    for drop in ["seed ", "cities ", "income ", "bank", "'s bank"] {
        if fits(&parts) {
            break;
        }
        if let Some(i) = parts.iter().position(|p| p.starts_with(drop) || (drop == "'s bank" && p.contains(drop))) {
            if Some(i) != decision_at {
                parts.remove(i);
            }
        }
    }
    let style = Style::new().bg(power_color(game, Some(turn))).fg(Color::Black).add_modifier(Modifier::BOLD);
    frame.render_widget(Paragraph::new(format!(" {}", parts.join(" | "))).style(style), area);
}

fn draw_spaces(frame: &mut Frame, app: &mut App, area: Rect) {
    let spaces = app.spaces();
    app.page = area.height.saturating_sub(2) as usize;
    if app.cursor >= spaces.len() {
        app.cursor = spaces.len().saturating_sub(1);
    }
    let game = app.shown();
    let items: Vec<ListItem> = spaces
        .iter()
        .map(|at| {
            let owner = game.state.control[at.index()];
            let line = Line::from(vec![
                Span::styled(board::battle_marker(game, *at), Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD)),
                Span::raw(format!("{:<4}", game.ruleset.map.name(*at))),
                Span::styled(format!("{:<8} ", board::owner_text(game, *at)), Style::new().fg(power_color(game, owner))),
                Span::raw(board::units_text(game, *at)),
            ]);
            ListItem::new(line)
        })
        .collect();
    let title = match (app.typing, app.filter.is_empty()) {
        (Typing::Filter, _) => format!(" spaces ({}) /{}_ ", spaces.len(), app.filter),
        (Typing::Command, false) => format!(" spaces ({}) /{} ", spaces.len(), app.filter),
        (Typing::Command, true) => format!(" spaces ({}) ", spaces.len()),
    };
    let list = List::new(items).block(titled(title)).highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    let mut state = ListState::default();
    if !spaces.is_empty() {
        state.select(Some(app.cursor));
    }
    frame.render_stateful_widget(list, area, &mut state);
}

/// The drawn map (F3; F4 zooms): owners' colours, unit counts, the
/// selected space reversed and its neighbours underlined; it follows the
/// selection in the spaces panel.
/// The map's zoom levels: how many times the view the whole board is,
/// across and down.
pub const MAP_ZOOMS: [u16; 3] = [1, 2, 3];

/// The drawn board of a ruleset's map (crate warboard-board: the same
/// geometry as the browser's), made once a ruleset: the map is drawn every
/// frame.
fn board_of(rs: &warboard_rules::Ruleset) -> Result<std::rc::Rc<warboard_board::Board>, String> {
    thread_local! {
        static BOARDS: std::cell::RefCell<Vec<(String, std::rc::Rc<warboard_board::Board>)>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if let Some(b) = BOARDS.with(|c| c.borrow().iter().find(|(n, _)| *n == rs.name).map(|(_, b)| b.clone())) {
        return Ok(b);
    }
    let board = std::rc::Rc::new(warboard_board::board(rs)?);
    BOARDS.with(|c| c.borrow_mut().push((rs.name.clone(), board.clone())));
    Ok(board)
}

/// The map (issue 33, point 13): the board's borders (thick where the game
/// has no passage), coasts and the links the shapes do not show, drawn in
/// braille dots, each space's id in its holder's colour; the selected space
/// and its neighbours stand out, and the view follows the selection.
fn draw_map(frame: &mut Frame, app: &App, area: Rect) {
    use ratatui::symbols::Marker;
    use ratatui::widgets::canvas::{Canvas, Line as Stroke};
    let game = app.shown();
    let rs = &game.ruleset;
    let zoom = MAP_ZOOMS[app.map_zoom.min(MAP_ZOOMS.len() - 1)] as f64;
    let title = format!(" map (zoom {zoom}×; F4 zooms, F3 closes; arrows select) ");
    let board = match board_of(rs) {
        Ok(b) => b,
        Err(e) => {
            frame.render_widget(Paragraph::new(e).block(titled(title)), area);
            return;
        }
    };
    let selected = app.selected_space();
    let centre_of = |id: &str| board.spaces.iter().find(|c| c.id == id).map(|c| c.centre);
    let (w, h) = (board.width / zoom, board.height / zoom);
    let (cx, cy) = selected.and_then(|s| centre_of(rs.map.name(s))).unwrap_or((board.width / 2.0, board.height / 2.0));
    let x0 = (cx - w / 2.0).clamp(0.0, board.width - w);
    let y0 = (cy - h / 2.0).clamp(0.0, board.height - h);
    // The canvas counts y upwards; the board downwards.
    let flip = |y: f64| board.height - y;
    let sea = |id: &str| rs.map.id(id).is_some_and(|s| rs.map.is_sea(s));
    let neighbours: Vec<&str> = selected.map(|s| rs.map.neighbours(s).iter().map(|n| rs.map.name(*n)).collect()).unwrap_or_default();
    let canvas = Canvas::default()
        .block(titled(title))
        .marker(Marker::Braille)
        .x_bounds([x0, x0 + w])
        .y_bounds([flip(y0 + h), flip(y0)])
        .paint(|ctx| {
            for b in &board.borders {
                let color = match (b.passable, sea(&b.a), sea(&b.b)) {
                    (false, _, _) => Color::LightRed,
                    (true, true, true) => continue,
                    (true, false, false) => Color::DarkGray,
                    (true, _, _) => Color::Cyan,
                };
                let ((x1, y1), (x2, y2)) = b.segment;
                ctx.draw(&Stroke { x1, y1: flip(y1), x2, y2: flip(y2), color });
            }
            for c in &board.connectors {
                for ((x1, y1), (x2, y2)) in c.strokes(board.width) {
                    ctx.draw(&Stroke { x1, y1: flip(y1), x2, y2: flip(y2), color: Color::Yellow });
                }
            }
            ctx.layer();
            // The selected space last, so that no neighbour's label hides it.
            let mut cells: Vec<&warboard_board::Cell> = board.spaces.iter().collect();
            cells.sort_by_key(|c| selected.is_some_and(|s| rs.map.name(s) == c.id));
            for cell in cells {
                let Some(at) = rs.map.id(&cell.id) else { continue };
                let mut style = if cell.sea { Style::new().fg(Color::Blue) } else { Style::new().fg(power_color(game, game.state.control[at.index()])) };
                if Some(at) == selected {
                    style = style.add_modifier(Modifier::REVERSED | Modifier::BOLD);
                } else if neighbours.contains(&cell.id.as_str()) {
                    style = style.add_modifier(Modifier::UNDERLINED | Modifier::BOLD);
                }
                let units = game.state.units_at(at).count();
                let text = if units > 0 { format!("{} {units}", cell.id) } else { cell.id.clone() };
                ctx.print(cell.centre.0, flip(cell.centre.1), Span::styled(text, style));
            }
        });
    frame.render_widget(canvas, area);
}

fn draw_detail(frame: &mut Frame, app: &App, area: Rect) {
    let game = app.shown();
    let Some(at) = app.selected_space() else {
        frame.render_widget(Paragraph::new("no space matches the filter").block(titled(" detail ".into())), area);
        return;
    };
    let mut lines: Vec<Line> = board::detail(game, at).into_iter().map(Line::raw).collect();
    // Move help (issue 15, point 14): where the person's units here can go.
    if let Some(p) = app.session.actor().filter(|p| app.session.is_human(*p) && battle::decision(&game.ruleset, &game.state).is_none()) {
        let help = guide::move_help(game, p, at);
        if !help.is_empty() {
            lines.push(Line::styled("moves from here:", Style::new().add_modifier(Modifier::BOLD)));
            lines.extend(help.into_iter().map(|l| Line::raw(format!("  {l}"))));
        }
    }
    if let Some(first) = lines.first_mut() {
        *first = first.clone().style(Style::new().add_modifier(Modifier::BOLD));
    }
    let title = format!(" {} ", game.ruleset.map.name(at));
    frame.render_widget(Paragraph::new(lines).block(titled(title)).wrap(Wrap { trim: false }), area);
}

fn draw_income(frame: &mut Frame, app: &App, area: Rect) {
    let game = app.shown();
    let bars: Vec<Bar> = game
        .ruleset
        .power_ids()
        .map(|p| {
            let income = game.income(p).max(0) as u64;
            Bar::default()
                .value(income)
                .label(Line::raw(game.ruleset.power(p).id.clone()))
                .style(Style::new().fg(power_color(game, Some(p))))
                .text_value(format!("{income}"))
        })
        .collect();
    let count = bars.len().max(1) as u16;
    let inner = area.width.saturating_sub(2);
    let bar_width = (inner / count).saturating_sub(1).clamp(3, 9);
    let chart = BarChart::default()
        .block(titled(" income by power (IPCs a turn)  F2/i: close ".into()))
        .data(BarGroup::default().bars(&bars))
        .bar_width(bar_width)
        .bar_gap(1)
        .value_style(Style::new().fg(Color::Black).bg(Color::White));
    frame.render_widget(chart, area);
}

fn draw_help(frame: &mut Frame, app: &App, area: Rect) {
    let lines: Vec<Line> = guide::lines(&app.session).into_iter().map(Line::raw).collect();
    frame.render_widget(Paragraph::new(lines).block(titled(" what you can do ".into())).wrap(Wrap { trim: false }), area);
}

fn line_style(kind: LineKind) -> Style {
    match kind {
        LineKind::Turn => Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
        LineKind::Phase => Style::new().fg(Color::DarkGray),
        LineKind::Action => Style::new(),
        LineKind::Battle => Style::new().fg(Color::LightRed),
        LineKind::Dice => Style::new().fg(Color::Yellow),
        LineKind::Loss => Style::new().fg(Color::Red),
        LineKind::Capture => Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
        LineKind::Income => Style::new().fg(Color::Green),
        LineKind::Odds => Style::new().fg(Color::LightCyan),
        LineKind::Victory => Style::new().fg(Color::LightGreen).add_modifier(Modifier::BOLD | Modifier::REVERSED),
        LineKind::Note => Style::new().fg(Color::Gray).add_modifier(Modifier::ITALIC),
    }
}

/// Splits text into rows of at most `width` characters, at spaces where it
/// can; continuation rows are indented so a wrapped entry reads as one.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut rows = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    let mut first = true;
    loop {
        let room = if first { width } else { width - 2 };
        if rest.len() <= room {
            let row: String = rest.iter().collect();
            rows.push(if first { row } else { format!("  {row}") });
            return rows;
        }
        let cut = rest[..=room].iter().rposition(|c| *c == ' ').filter(|i| *i > 0).unwrap_or(room);
        let row: String = rest[..cut].iter().collect();
        rows.push(if first { row } else { format!("  {row}") });
        let skip = if rest.get(cut) == Some(&' ') { cut + 1 } else { cut };
        rest.drain(..skip);
        first = false;
    }
}

fn draw_log(frame: &mut Frame, app: &App, area: Rect) {
    let height = area.height.saturating_sub(2) as usize;
    let width = area.width.saturating_sub(2) as usize;
    let mut rows: Vec<(LineKind, String)> = Vec::new();
    for LogLine { kind, text, .. } in app.visible_log(height) {
        for row in wrap(text, width) {
            rows.push((*kind, row));
        }
    }
    let shown = &rows[rows.len().saturating_sub(height)..];
    let lines: Vec<Line> = shown.iter().map(|(k, t)| Line::styled(t.clone(), line_style(*k))).collect();
    let title = if app.log_scroll > 0 { format!(" log (scrolled back {}) ", app.log_scroll) } else { " log ".to_string() };
    frame.render_widget(Paragraph::new(lines).block(titled(title)), area);
}

fn message_text(app: &App) -> (String, Style) {
    match &app.message {
        Some(Message::Error(e)) => (e.clone(), Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD)),
        Some(Message::Info(i)) if !i.is_empty() => (i.clone(), Style::new().fg(Color::LightGreen)),
        _ => (app.idle_hint().text, Style::new().fg(Color::DarkGray)),
    }
}

fn draw_message(frame: &mut Frame, app: &App, area: Rect) {
    let (text, style) = message_text(app);
    let lines: Vec<Line> = wrap(&text, area.width.saturating_sub(1) as usize).into_iter().map(|l| Line::raw(format!(" {l}"))).collect();
    frame.render_widget(Paragraph::new(lines).style(style), area);
}

fn draw_input(frame: &mut Frame, app: &App, area: Rect) {
    let (title, text) = match app.typing {
        Typing::Filter => (" filter (Enter keeps, Esc clears) ", format!("/{}", app.filter)),
        Typing::Command => (" command (help lists them) ", format!("> {}", app.input)),
    };
    let inner_width = area.width.saturating_sub(2) as usize;
    // Long input scrolls so the end, where typing happens, stays visible.
    let chars: Vec<char> = text.chars().collect();
    let visible: String = chars[chars.len().saturating_sub(inner_width.saturating_sub(1))..].iter().collect();
    let cursor_x = area.x + 1 + visible.chars().count() as u16;
    frame.render_widget(Paragraph::new(visible).block(titled(title.into())), area);
    frame.set_cursor_position((cursor_x.min(area.right().saturating_sub(2)), area.y + 1));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::session::Session;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    #[test]
    fn long_lines_wrap_at_spaces() {
        assert_eq!(wrap("short", 20), vec!["short"]);
        let rows = wrap("germany moves 3 inf 1 arm: EEU > UKR and on", 20);
        assert!(rows.iter().all(|r| r.chars().count() <= 20), "{rows:?}");
        assert_eq!(rows[0], "germany moves 3 inf");
        assert!(rows[1].starts_with("  "));
        assert_eq!(
            wrap("abcdefghijklmnopqrstuvwxyz", 10),
            vec!["abcdefghij", "  klmnopqr", "  stuvwxyz"],
            "a word longer than a row is cut"
        );
    }

    fn screen_text(app: &mut App, width: u16, height: u16) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("a test terminal");
        terminal.draw(|f| draw(f, app)).expect("drawing works");
        let buffer = terminal.backend().buffer().clone();
        let mut text = String::new();
        for y in 0..height {
            for x in 0..width {
                text.push_str(buffer[(x, y)].symbol());
            }
            text.push('\n');
        }
        text
    }

    #[test]
    fn the_game_screen_shows_every_panel() {
        let mut app = App::new(Session::new("classic", 1, vec![true; 5]).expect("a game starts"), true);
        let text = screen_text(&mut app, 160, 40);
        for needle in [
            "round 1",
            "russia's turn",
            "research",
            "bank 24 IPCs",
            "decision: russia (you)",
            " spaces (128) ",
            " log ",
            "You play russia now:",
            "> ",
        ] {
            assert!(text.contains(needle), "`{needle}` is on screen:\n{text}");
        }
        app.show_income = true;
        let text = screen_text(&mut app, 160, 40);
        assert!(text.contains("income by power"), "{text}");
        // Small terminals get a sentence, not a panic.
        assert!(screen_text(&mut app, 40, 10).contains("needs a terminal"));
    }

    /// Issue 33, point 12: at 80×24 the status bar keeps whose decision it
    /// is, a refusal is read whole, and the first screen shows the seed.
    #[test]
    fn an_80_by_24_terminal_shows_the_status_the_refusal_and_the_seed() {
        let mut app = App::new(Session::new("classic", 12_345_678_901_234_567_890, vec![true; 5]).expect("a game starts"), true);
        let text = screen_text(&mut app, 80, 24);
        let status = text.lines().next().unwrap_or("");
        assert!(status.contains("decision: russia (you)") && status.contains("research"), "{status}");
        let refusal = "the battle at Ukraine waits for the defender's casualties: choose 2 of 3 infantry, 1 armor and 1 fighter (or `cas` for the default)";
        app.message = Some(Message::Error(refusal.into()));
        let text = screen_text(&mut app, 80, 24);
        let shown: String = text.lines().map(str::trim).collect::<Vec<_>>().join(" ");
        assert!(shown.contains("(or `cas` for the default)"), "the refusal's end is on screen:\n{text}");
        let mut picker = App::new(Session::new("classic", 12_345_678_901_234_567_890, vec![false; 5]).expect("a game starts"), false);
        let text = screen_text(&mut picker, 80, 24);
        assert!(text.contains("seed 12345678901234567890"), "{text}");
    }

    /// Issue 33, point 13: the map (F3) draws the board's borders and
    /// links from the browser's geometry, beside the help and the log.
    #[test]
    fn the_map_draws_borders_beside_the_help_and_the_log() {
        for ruleset in ["classic", "europe", "anniversary-1941"] {
            let n = warboard_rules::ruleset(ruleset).expect("loads").power_count();
            let mut app = App::new(Session::new(ruleset, 1, vec![true; n]).expect("a game starts"), true);
            app.show_map = true;
            let text = screen_text(&mut app, 160, 40);
            assert!(text.contains(" map (zoom 1×"), "{ruleset}: {text}");
            assert!(text.contains(" what you can do ") && text.contains(" log "), "{ruleset}: the help and the log stay: {text}");
            let dots = text.chars().filter(|c| ('\u{2801}'..='\u{28ff}').contains(c)).count();
            assert!(dots > 200, "{ruleset}: borders are drawn ({dots} braille cells): {text}");
            let rs = app.session.game().ruleset.clone();
            let labelled = rs.map.ids().filter(|s| text.contains(rs.map.name(*s))).count();
            assert!(labelled >= 20, "{ruleset}: the spaces are labelled ({labelled}): {text}");
        }
    }

    /// Issue 33, point 1: Enter with no power ticked asks first.
    #[test]
    fn the_picker_asks_before_the_computer_plays_every_power() {
        let mut app = App::new(Session::new("classic", 1, vec![false; 5]).expect("a game starts"), false);
        let enter = crossterm::event::KeyEvent::new(crossterm::event::KeyCode::Enter, crossterm::event::KeyModifiers::NONE);
        app.handle_key(enter);
        assert!(matches!(app.screen, crate::play::app::Screen::PickPowers), "the first Enter only asks");
        assert!(screen_text(&mut app, 100, 30).contains("Enter again and the computer plays them all"));
        app.handle_key(enter);
        assert!(matches!(app.screen, crate::play::app::Screen::Game), "the second Enter starts");
    }

    #[test]
    fn the_picker_lists_the_powers() {
        let mut app = App::new(Session::new("classic", 1, vec![false; 5]).expect("a game starts"), false);
        let text = screen_text(&mut app, 100, 30);
        assert!(text.contains("[ ] 1 russia"), "{text}");
        assert!(text.contains("Enter: start"));
    }
}
