//! A game at the table: the record, which powers the computer plays (and
//! its fallbacks), who may act for which power, what each seat may see,
//! undo, and the story told as it happens.

use crate::fallback;
use crate::narrate::{describe, story, LineKind, LogLine, Seal, Story};
use crate::orders::StandingOrders;
use serde_json::Value;
use warboard_ai::{PlanningPlayer, Player};
use warboard_record::{ApplyError, ClockEvent, DiceMode, Entry, Origin, Record, TableEntry, UndoError};
use warboard_rules::game::Actor;
use warboard_rules::{Action, Game, GameState, Phase, PowerId, RuleError};

/// Refusals in a row after which a computer player is moved on with the
/// book's defaults ([`fallback::default_action`]).
pub const FALLBACK_AFTER: u32 = 50;
/// The story keeps this many lines.
const LOG_LIMIT: usize = 5000;

/// Why an action was not taken. Nothing changed.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The game has ended.
    GameOver { winner: String },
    /// The action is for a power the seat does not hold (`computer`: the
    /// computer plays it).
    NotYourPower { power: String, computer: bool },
    /// A surrender for a team the seat holds no power of.
    NotYourTeam { team: String },
    /// The record refused it: malformed, unknown units, the rules, dice.
    Rules(ApplyError),
    /// Nothing that may be undone.
    Undo(UndoError),
}

impl Refusal {
    /// The stable code; front ends with older codes map these two
    /// (the engine protocol: `game/not-your-turn`, `game/not-your-side`).
    pub fn code(&self) -> String {
        match self {
            Refusal::GameOver { .. } => "game/over".into(),
            Refusal::NotYourPower { .. } | Refusal::NotYourTeam { .. } => "auth/not-your-power".into(),
            Refusal::Rules(e) => e.code().to_string(),
            Refusal::Undo(e) => e.code().to_string(),
        }
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::GameOver { winner } => write!(f, "the game is over: the {winner} have won"),
            Refusal::NotYourPower { power, computer: true } => write!(f, "{power} acts now, and the computer plays it"),
            Refusal::NotYourPower { power, computer: false } => write!(f, "{power} acts now, and another player holds it"),
            Refusal::NotYourTeam { team } => {
                write!(f, "only a player of the {team} may surrender for them")
            }
            Refusal::Rules(e) => write!(f, "{e}"),
            Refusal::Undo(e) => write!(f, "{e}"),
        }
    }
}

impl From<ApplyError> for Refusal {
    fn from(e: ApplyError) -> Refusal {
        Refusal::Rules(e)
    }
}

/// An action taken: the state before it, and its entry in the record.
pub struct Applied {
    pub before: GameState,
    pub entry: Entry,
    /// The power that took it.
    pub power: PowerId,
}

/// What a computer player did when asked for one action.
pub enum Step {
    /// No power the computer plays acts now.
    Idle,
    /// It acted.
    Acted(Box<Applied>),
    /// Its proposal was refused; it learned why: ask again.
    Refused,
    /// The game waits for client dice (a game with dice from outside).
    NeedDice,
    /// Even the book's defaults were refused (or the action broke the
    /// record): it stops rather than spin.
    Stuck { action: Value, refusal: Refusal },
}

/// One game in play.
pub struct Table {
    record: Record,
    /// `computer[p]`: the computer plays power `p`.
    computer: Vec<bool>,
    /// One planning player a power: each plans its own turns (issue 14).
    planners: Vec<PlanningPlayer>,
    think_ms: u64,
    log: Vec<LogLine>,
    refused_in_a_row: u32,
    /// The position when this round's shopping began (Alternative): what
    /// each nation may see of the others until all have shopped.
    shopping_start: Option<GameState>,
    /// Lines told before an action's own, from the position before it (the
    /// terminal's odds of a battle about to be fought: the front end owns
    /// the calculator).
    preface: Option<Preface>,
    /// A proven game's maker of links for new actions (the server's own
    /// games); without one a proven game takes only recorded entries.
    linker: Option<Box<dyn Linker>>,
    /// Standing orders by power index (issue 31, point 3).
    orders: Vec<Option<StandingOrders>>,
}

/// How a table makes each new action's link in a proven game (docs/pbem.md):
/// a server's own games receipt each entry with the server's key and roll
/// from its committed seed.
pub trait Linker: Send {
    /// The link of `action`, taken for `power`, as the next entry of
    /// `record`'s chain, and the host's seed where the dice come from it.
    fn link(&mut self, record: &Record, power: PowerId, action: &Value) -> Result<(warboard_proof::Link, Option<[u8; 32]>), ApplyError>;
}

/// A front end's lines before an action's own: the game before it, and the
/// action as the rules core resolved it.
pub type Preface = fn(&Game, &Action) -> Option<LogLine>;

impl Table {
    /// A table over a record, new or loaded; the story starts with what the
    /// record has seen so far. `think_ms`: the computer's budget a turn
    /// (0: the standard planner, no search).
    pub fn new(record: Record, computer: Vec<bool>, think_ms: u64) -> Table {
        let Story { mut lines, stopped, shopping_start } = story(&record);
        lines.extend(stopped.map(|e| LogLine::new(LineKind::Note, e)));
        let skip = lines.len().saturating_sub(LOG_LIMIT / 2);
        let log = lines.into_iter().skip(skip).collect();
        let mut table =
            Table {
            record,
            computer: Vec::new(),
            planners: Vec::new(),
            think_ms,
            log,
            refused_in_a_row: 0,
            shopping_start,
            preface: None,
            linker: None,
            orders: Vec::new(),
        };
        table.set_computer(computer);
        table
    }

    /// A power's standing orders (`None`: its decisions wait for its player).
    pub fn set_orders(&mut self, p: PowerId, orders: Option<StandingOrders>) {
        if self.orders.len() <= p.index() {
            self.orders.resize(p.index() + 1, None);
        }
        self.orders[p.index()] = orders;
    }

    /// The action the acting power's standing orders give now, if any.
    pub fn orders_answer(&self) -> Option<(PowerId, Value)> {
        let p = self.actor()?;
        let answer = self.orders.get(p.index())?.as_ref()?.answer(&self.record)?;
        Some((p, answer))
    }

    /// Takes the action the acting power's standing orders give, if they
    /// cover the decision; `None` where no order answers it.
    pub fn step_orders(&mut self) -> Option<Step> {
        let (p, action) = self.orders_answer()?;
        Some(match self.take(p, &action, Origin::Client) {
            Ok(applied) => Step::Acted(Box::new(applied)),
            Err(refusal) => Step::Stuck { action, refusal },
        })
    }

    /// Makes the links of a proven game's new actions.
    pub fn set_linker(&mut self, linker: Box<dyn Linker>) {
        self.linker = Some(linker);
    }

    /// Sets the lines told before each action's own.
    pub fn set_preface(&mut self, preface: Preface) {
        self.preface = Some(preface);
    }

    /// Which powers the computer plays (by power index; missing: a person).
    pub fn set_computer(&mut self, mut computer: Vec<bool>) {
        computer.resize(self.game().ruleset.power_count(), false);
        self.computer = computer;
        self.set_think(self.think_ms);
    }

    /// The computer's budget a turn, in ms of simulated turns. The planners'
    /// own samples follow the game's seed and the power, so a seeded game
    /// with the same requests repeats exactly.
    pub fn set_think(&mut self, think_ms: u64) {
        self.think_ms = think_ms;
        let seed = match self.record.dice_mode() {
            DiceMode::Seeded { seed } => seed,
            DiceMode::Client | DiceMode::Proof => 0,
        };
        let n = self.computer.len() as u64;
        self.planners = (0..n).map(|p| PlanningPlayer::new(seed.wrapping_add(p + 1), think_ms)).collect();
        self.refused_in_a_row = 0;
    }

    pub fn think_ms(&self) -> u64 {
        self.think_ms
    }
    pub fn record(&self) -> &Record {
        &self.record
    }
    pub fn game(&self) -> &Game {
        self.record.game()
    }
    pub fn log(&self) -> &[LogLine] {
        &self.log
    }
    pub fn is_computer(&self, p: PowerId) -> bool {
        self.computer.get(p.index()).copied().unwrap_or(false)
    }
    pub fn refused_in_a_row(&self) -> u32 {
        self.refused_in_a_row
    }
    pub fn power_name(&self, p: PowerId) -> &str {
        &self.game().ruleset.power(p).id
    }

    /// The power whose decision the game waits for (`None`: it is over).
    pub fn actor(&self) -> Option<PowerId> {
        match self.game().actor() {
            Actor::Power(p) => Some(p),
            Actor::Terminal => None,
        }
    }

    /// Whether the computer has an action to take now.
    pub fn computer_to_act(&self) -> bool {
        self.actor().is_some_and(|p| self.is_computer(p))
    }

    /// Dice supplied by the client, in a game whose dice come from outside.
    pub fn supply_dice(&mut self, values: &[u8]) -> Result<(), String> {
        self.record.supply_dice(values)
    }

    pub fn note(&mut self, text: impl Into<String>) {
        self.push(LogLine::new(LineKind::Note, text));
    }

    /// Adds a line to the story (grouped with the last where they add up).
    pub fn push(&mut self, line: LogLine) {
        if self.log.last_mut().is_some_and(|last| last.absorb(&line)) {
            return;
        }
        self.log.push(line);
        if self.log.len() > LOG_LIMIT {
            self.log.drain(..LOG_LIMIT / 10);
        }
    }

    /// Forgets the last line of the story (a note that turned out untrue).
    pub fn pop_line(&mut self) {
        self.log.pop();
    }

    /// The power `action` is taken by, if `seat` (the powers the caller
    /// holds) may take it; else why not. Decided from the seat, never from
    /// the message: a decision goes to the seat holding the power the rules
    /// wait for (the defender's casualties in the attacker's turn), a
    /// nation's own shopping to its own seat, a surrender to a seat holding
    /// a power of that team.
    pub fn authority(&self, seat: &[PowerId], action: &Value) -> Result<PowerId, Refusal> {
        authority(self.game(), seat, action, |p| self.is_computer(p))
    }

    /// Takes `action` (FORMAT.md's vocabulary) for `seat`, and tells it.
    pub fn act(&mut self, seat: &[PowerId], action: &Value, origin: Origin) -> Result<Applied, Refusal> {
        let power = self.authority(seat, action)?;
        self.take(power, action, origin)
    }

    /// Applies an entry as another copy of the game recorded it (a server
    /// reading what another server committed): with its link in a proven
    /// game, and its dice as recorded; no seat to check.
    pub fn apply_recorded(&mut self, entry: &Entry, host_seed: Option<&[u8; 32]>) -> Result<Applied, Refusal> {
        let named = warboard_conform::case::acting_power(self.game(), &entry.action.value()).map_err(|e| Refusal::Rules(ApplyError::Malformed(e)))?;
        let power = named.or(self.actor()).unwrap_or(self.game().state.turn);
        let before = self.record.state().clone();
        let entry = self.record.apply_recorded(entry, host_seed)?.clone();
        self.tell(&before, &entry, power);
        Ok(Applied { before, entry, power })
    }

    /// The host's clock note for `powers` (a table entry, made by the
    /// engine; in a proven game a link of the chain like any entry).
    pub fn note_clock(&mut self, event: ClockEvent, powers: &[PowerId], deadline: Option<&str>) -> Result<Applied, Refusal> {
        let action = TableEntry::clock_action(&self.game().ruleset, event, powers, deadline);
        let power = powers.first().copied().unwrap_or(self.game().state.turn);
        self.take(power, &action, Origin::Engine)
    }

    /// Applies an action already judged to be `power`'s to take.
    fn take(&mut self, power: PowerId, action: &Value, origin: Origin) -> Result<Applied, Refusal> {
        let preface = match self.preface {
            Some(tell) if self.record.table_entry(action)?.is_none() => tell(self.game(), &self.record.resolve(action)?),
            _ => None,
        };
        let before = self.record.state().clone();
        let entry = match self.linker.as_mut() {
            Some(linker) if self.record.proven() => {
                let (link, seed) = linker.link(&self.record, power, action)?;
                self.record.apply_link(action, origin, &link, seed.as_ref())?.clone()
            }
            _ => self.record.apply(action, origin)?.clone(),
        };
        if let Some(line) = preface {
            self.push(line);
        }
        self.tell(&before, &entry, power);
        Ok(Applied { before, entry, power })
    }

    /// The story of an entry, with the round's shopping sealed for the
    /// nation that shopped until all are done (ALT L20).
    fn tell(&mut self, before: &GameState, entry: &Entry, power: PowerId) {
        let shopping = before.phase == Phase::Shopping;
        let seal = shopping.then_some(Seal { round: before.round, power });
        if shopping && self.shopping_start.as_ref().is_none_or(|s| s.round != before.round) {
            self.shopping_start = Some(before.clone());
        }
        let lines = describe(&self.game().ruleset, before, self.record.state(), entry);
        // The secret ends when every nation has shopped, or under fair
        // buying when the placing in turn begins.
        let was_secret = shopping && before.next_placer.is_none();
        let mut revealed = !was_secret || self.shopping_is_secret();
        let reveal = "every nation has bought: the purchases are shown";
        for mut line in lines {
            // The reveal comes before the next phase's heading.
            if !revealed && matches!(line.kind, LineKind::Phase | LineKind::Turn) {
                self.note(reveal);
                revealed = true;
            }
            line.sealed = seal;
            self.push(line);
        }
        if !revealed {
            self.note(reveal);
        }
    }

    /// Lets the computer take one action for the power it plays that acts
    /// now. After [`FALLBACK_AFTER`] refusals in a row the book's defaults
    /// take over; if even they are refused the computer is stuck.
    pub fn step_computer(&mut self) -> Step {
        let Some(p) = self.actor().filter(|p| self.is_computer(*p)) else {
            return Step::Idle;
        };
        let (action, proposed) = if self.refused_in_a_row < FALLBACK_AFTER {
            let a = self.planners[p.index()].next_action(self.record.game());
            (warboard_record::action_to_format(&a, &self.game().ruleset), Some(a))
        } else {
            (fallback::default_action(&self.record), None)
        };
        // In a phase of the whole round the action names its power.
        let mut action = action;
        if self.game().round_phase() {
            if let Value::Object(fields) = &mut action {
                fields.insert("power".into(), Value::String(self.power_name(p).to_string()));
            }
        }
        match self.take(p, &action, Origin::Engine) {
            Ok(applied) => {
                self.refused_in_a_row = 0;
                Step::Acted(Box::new(applied))
            }
            Err(Refusal::Rules(ApplyError::NeedDice { .. })) => Step::NeedDice,
            Err(Refusal::Rules(e @ (ApplyError::Rejected(_) | ApplyError::NoSuchUnits(_)))) if proposed.is_some() => {
                self.refused_in_a_row += 1;
                let why = match e {
                    ApplyError::Rejected(r) => r,
                    other => RuleError::new("action/no-such-units", other.to_string()),
                };
                self.planners[p.index()].rejected(proposed.as_ref().expect("checked above"), &why);
                Step::Refused
            }
            Err(refusal) => Step::Stuck { action, refusal },
        }
    }

    /// Takes back the last action, if the undo policy allows it
    /// ([`warboard_record::UNDO_POLICY`]) and `seat` holds the power that
    /// took it; the story says what was undone.
    pub fn undo(&mut self, seat: &[PowerId]) -> Result<Entry, Refusal> {
        if let Some(target) = self.record.undo_target() {
            let mut at = self.game().clone();
            at.state = target.clone();
            let last = self.record.log().last().map(|e| e.action.value()).unwrap_or(Value::Null);
            let named = warboard_conform::case::acting_power(&at, &last).ok().flatten();
            let took = named.or(match at.actor() {
                Actor::Power(p) => Some(p),
                Actor::Terminal => None,
            });
            if let Some(p) = took.filter(|p| !seat.contains(p)) {
                return Err(Refusal::NotYourPower { power: self.power_name(p).to_string(), computer: self.is_computer(p) });
            }
        }
        let undone_state = self.record.state().clone();
        let entry = self.record.undo().map_err(Refusal::Undo)?;
        // Told in the log's own words (issue 15, point 5), not as JSON.
        let told: Vec<String> = describe(&self.game().ruleset, self.record.state(), &undone_state, &entry)
            .into_iter()
            .filter(|l| !matches!(l.kind, LineKind::Phase | LineKind::Turn))
            .map(|l| l.text)
            .collect();
        let what = match (&entry.resolved, told.is_empty()) {
            (Some(Action::EndPhase), _) => format!("the end of the phase: back in {}", self.game().state.phase.name().replace('_', " ")),
            (_, true) => "the last action".to_string(),
            (_, false) => told.join("; "),
        };
        self.note(format!("undone: {what}"));
        Ok(entry)
    }

    /// Whether the round's shopping is on now (Alternative), with its
    /// purchases hidden from all but the nation that made them. Under fair
    /// buying the purchases are all made before anyone places, and the
    /// placing, one unit at a time in turn, is done in the open (ALT L60):
    /// the secret ends when the placing begins.
    pub fn shopping_is_secret(&self) -> bool {
        let s = &self.game().state;
        s.phase == Phase::Shopping && s.next_placer.is_none()
    }

    /// Whether a seat holding `viewer` may read `line`.
    pub fn may_read(&self, line: &LogLine, viewer: &[PowerId]) -> bool {
        match line.sealed {
            Some(seal) => !self.shopping_is_secret() || seal.round != self.game().state.round || viewer.contains(&seal.power),
            None => true,
        }
    }

    /// The position as a seat holding `viewer` may see it during the
    /// round's shopping: the other nations' new units, points and units
    /// waiting to be placed as they were when shopping began. `None`
    /// outside shopping, or where the seat holds every nation.
    pub fn view_for(&self, viewer: &[PowerId]) -> Option<Game> {
        if !self.shopping_is_secret() {
            return None;
        }
        let start = self.shopping_start.as_ref().filter(|s| s.round == self.game().state.round)?;
        let mut view = self.game().clone();
        let s = &mut view.state;
        s.units.retain(|u| viewer.contains(&u.owner) || start.unit(u.id).is_some());
        for p in view.ruleset.power_ids() {
            if !viewer.contains(&p) {
                s.ipcs[p.index()] = start.ipcs[p.index()];
                match start.unplaced.get(&p) {
                    Some(m) => {
                        s.unplaced.insert(p, m.clone());
                    }
                    None => {
                        s.unplaced.remove(&p);
                    }
                }
            }
        }
        (view.state != self.game().state).then_some(view)
    }
}

/// The powers a proven game's seat plays, from its name (`germany,japan`):
/// seats of games played by e-mail are named by their powers
/// (docs/pbem.md), so who may act for which power is in the signed header.
pub fn seat_powers(game: &Game, seat: &str) -> Result<Vec<PowerId>, String> {
    let rs = &game.ruleset;
    seat.split(',')
        .map(|name| rs.power_by_name(name.trim()).ok_or_else(|| format!("`{name}` is no power of {} (a seat is named by its powers)", rs.name)))
        .collect()
}

/// [`Table::authority`] for any game: the power `action` is taken by, if
/// `seat` may take it; `computer` says which powers the computer plays
/// (only for the refusal's words). Also what a turn file's reader asks of
/// each entry's seat (`warboard pbem`).
pub fn authority(game: &Game, seat: &[PowerId], action: &Value, computer: impl Fn(PowerId) -> bool) -> Result<PowerId, Refusal> {
    let rs = &game.ruleset;
    let actor = match game.actor() {
        Actor::Power(p) => p,
        Actor::Terminal => {
            let winner = game.state.winner.as_ref().map(|w| w.describe(|p| rs.power(p).id.clone())).unwrap_or_else(|| "nobody".into());
            return Err(Refusal::GameOver { winner });
        }
    };
    let refuse = |p: PowerId| Refusal::NotYourPower { power: rs.power(p).id.clone(), computer: computer(p) };
    // A correction is its named power's to make or answer, whoever acts
    // now; the clock's notes are the host's (`Table::note_clock`).
    match TableEntry::parse(rs, action).map_err(|e| Refusal::Rules(ApplyError::Malformed(e)))? {
        Some(TableEntry::Correction { power, .. }) => return if seat.contains(&power) { Ok(power) } else { Err(refuse(power)) },
        Some(TableEntry::Clock { .. }) => {
            let why = "only the host's clock notes reminders, expiries and changes of seat";
            return Err(Refusal::Rules(ApplyError::Rejected(RuleError::new("table/host-only", why))));
        }
        None => {}
    }
    let named = warboard_conform::case::acting_power(game, action).map_err(|e| Refusal::Rules(ApplyError::Malformed(e)))?;
    if let Some(p) = named.filter(|p| !seat.contains(p)) {
        return Err(refuse(p));
    }
    if action.get("type").and_then(Value::as_str) == Some("surrender") {
        if let Some(team) = action.get("side").and_then(Value::as_str) {
            let teams = &game.state.teams;
            return match seat.iter().find(|p| teams.team_of(**p) == Some(team)) {
                Some(p) => Ok(named.unwrap_or(*p)),
                None => Err(Refusal::NotYourTeam { team: team.to_string() }),
            };
        }
    }
    // In a phase of the whole round each nation acts for itself;
    // otherwise the power the game waits for.
    let acting = if game.round_phase() { named.unwrap_or(actor) } else { actor };
    if !seat.contains(&acting) {
        return Err(refuse(acting));
    }
    Ok(acting)
}

/// The powers people played in a record: those that took actions of their
/// own (the computer's are marked `engine`), by power index. A game loaded
/// again offers them (issue 33, point 1: a loaded game forgot who was
/// human).
pub fn people_in(record: &Record) -> Vec<bool> {
    let rs = record.game().ruleset.clone();
    let mut people = vec![false; rs.power_count()];
    let _ = warboard_record::narrate::walk(record, |before, _after, entry| {
        if entry.by != Origin::Client {
            return;
        }
        let game = Game { ruleset: rs.clone(), state: before.clone() };
        let named = warboard_conform::case::acting_power(&game, &entry.action.value()).ok().flatten();
        let took = named.or(match game.actor() {
            Actor::Power(p) => Some(p),
            Actor::Terminal => None,
        });
        if let Some(p) = took {
            people[p.index()] = true;
        }
    });
    people
}

/// `game` as it would be if `p` ended the phase now (a copy): what an `end`
/// would destroy is read from it, by every front end's warnings.
pub fn after_phase_end(game: &Game, p: PowerId) -> Option<Game> {
    let mut after = game.clone();
    let by = after.round_phase().then_some(p);
    after.apply_as(by, &Action::EndPhase, &mut warboard_rules::FixedDice(6)).ok()?;
    Some(after)
}

/// What `p` would lose if the phase ended now, in words ("2 fighters at
/// EEU, 3 units bought and not placed"), tried on a copy of the game: the
/// terminal asks for a second `end`, the browser for a second click
/// (issue 15, point 1: nothing lost without consent).
pub fn lost_if_phase_ends(game: &Game, p: PowerId) -> Option<String> {
    let before = game;
    let after = after_phase_end(before, p)?;
    let rs = &before.ruleset;
    let mut lost: Vec<(warboard_rules::UnitType, warboard_rules::SpaceId, u64)> = Vec::new();
    for u in before.state.units.iter().filter(|u| u.owner == p && after.state.unit(u.id).is_none()) {
        match lost.iter_mut().find(|(k, at, _)| *k == u.kind && *at == u.at) {
            Some(e) => e.2 += 1,
            None => lost.push((u.kind, u.at, 1)),
        }
    }
    let mut parts: Vec<String> = lost.iter().map(|(k, at, n)| format!("{} at {}", k.count_words(*n), rs.map.name(*at))).collect();
    // Units bought and not placed, where the rules do not keep them.
    let waiting = |g: &Game| -> u64 {
        let bought: u64 = if g.state.turn == p { g.state.purchased.values().map(|n| *n as u64).sum() } else { 0 };
        bought + g.state.unplaced.get(&p).map_or(0, |m| m.values().map(|n| *n as u64).sum())
    };
    let appeared = after.state.units.iter().filter(|u| u.owner == p && before.state.unit(u.id).is_none()).count() as u64;
    let gone = waiting(before).saturating_sub(waiting(&after)).saturating_sub(appeared);
    if gone > 0 {
        parts.push(format!("{} bought and not placed", if gone == 1 { "1 unit".to_string() } else { format!("{gone} units") }));
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}
