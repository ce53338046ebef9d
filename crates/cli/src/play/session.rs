//! A game being played at the keyboard: the table (crate warboard-table:
//! the record, the computer players, what each seat sees, the story) and
//! what only a person at a terminal needs on top: which powers the person
//! plays, warnings before losses, idle phases passed by themselves, a
//! shortest route for a move that names only where it goes, the odds of
//! each battle, saving. No terminal here, so the whole flow of a game can
//! be tested directly.

use super::command::Order;
use super::vocabulary::order_to_format;
use super::{odds, save};
use std::path::Path;
use warboard_record::{DiceMode, Origin, Record, Start};
use warboard_rules::battle::BattleResult;
use warboard_rules::{Action, Game, Phase, PowerId};
use warboard_table::narrate::{LineKind, LogLine};
use warboard_table::{Step, Table};

pub use warboard_table::after_phase_end;

pub struct Session {
    table: Table,
    /// The powers the person plays (the table's computer plays the rest).
    seat: Vec<PowerId>,
    computer_stuck: bool,
    /// The record's length when the game was last saved or loaded (a new
    /// game: 0).
    saved_len: usize,
    /// Phases in which the person has nothing to decide pass by themselves
    /// (issue 15, point 7), unless this asks to stop at every phase.
    pass_idle_phases: bool,
    /// The record's length when an `end` that loses units was refused once:
    /// the same `end` again, with nothing done between, goes ahead.
    end_warned_at: Option<usize>,
    /// Likewise for `surrender`, which ends the game for the whole side.
    surrender_warned_at: Option<usize>,
}

impl Session {
    /// A new game of the named ruleset (`classic`, `europe`) on its
    /// standard position, dice from `seed`.
    #[cfg(test)]
    pub fn new(ruleset: &str, seed: u64, humans: Vec<bool>) -> Result<Session, String> {
        Session::with_options(ruleset, Default::default(), seed, humans)
    }

    /// A new game with rule options (`--option`), by their documented names.
    pub fn with_options(
        ruleset: &str,
        options: std::collections::BTreeMap<String, serde_json::Value>,
        seed: u64,
        humans: Vec<bool>,
    ) -> Result<Session, String> {
        let mut start = Start::standard(ruleset, DiceMode::Seeded { seed });
        start.options = options;
        let record = Record::new(start).map_err(|e| e.to_string())?;
        let mut session = Session::resume_with(record, humans);
        let (round, first) = (session.game().state.round, session.game().state.turn);
        let first = session.power_name(first).to_string();
        let name = session.game().ruleset.name.clone();
        session.note(format!("new {name} game, seed {seed}"));
        // Alternative rounds start with every nation's payday, not a turn.
        let heading = if session.game().ruleset.turn.round_phases.is_empty() {
            format!("== round {round}: {first} ==")
        } else {
            format!("== round {round} ==")
        };
        session.table.push(LogLine::new(LineKind::Turn, heading));
        Ok(session)
    }

    /// A game loaded from a save; the log starts with its story so far.
    pub fn resume(record: Record, humans: Vec<bool>) -> Session {
        Session::resume_with(record, humans)
    }

    fn resume_with(record: Record, humans: Vec<bool>) -> Session {
        let saved_len = record.log().len();
        let computer = humans.iter().map(|h| !h).collect();
        // A new record has no story yet: the table's log starts empty.
        let mut table = Table::new(record, computer, warboard_ai::planner::DEFAULT_THINK_MS);
        table.set_preface(odds_before_fighting);
        let mut session = Session {
            table,
            seat: Vec::new(),
            computer_stuck: false,
            saved_len,
            pass_idle_phases: false,
            end_warned_at: None,
            surrender_warned_at: None,
        };
        session.set_humans(humans);
        session
    }

    /// How long the computer thinks at the start of each of its turns (ms,
    /// counted in simulated turns; 0: the standard planner, no search).
    pub fn set_think(&mut self, think_ms: u64) {
        self.table.set_think(think_ms);
    }

    pub fn think(&self) -> u64 {
        self.table.think_ms()
    }

    /// Whether phases with nothing to decide pass by themselves.
    pub fn passes_idle_phases(&self) -> bool {
        self.pass_idle_phases
    }

    /// Sets whether phases with nothing to decide pass by themselves.
    pub fn set_pass_idle_phases(&mut self, on: bool) {
        self.pass_idle_phases = on;
        self.pass_idle();
    }

    /// Whether the person, acting now, has nothing to decide in this phase:
    /// research without weapons development (or without money or
    /// researchers, or as China), the collect income phase, China's purchase,
    /// and the Alternative rules' payday (issue 33, point 8: every payday
    /// alike, the first and the later ones).
    fn nothing_to_decide(&self) -> bool {
        let game = self.game();
        let s = &game.state;
        let rs = &game.ruleset;
        if battle_pending(game) {
            return false;
        }
        let china = game.relations().is_china(s.turn);
        match s.phase {
            Phase::Research => {
                !rs.options.weapons_development
                    || china
                    || (rs.options.research_charts == warboard_rules::ruleset::ResearchCharts::Anniversary
                        && s.researchers[s.turn.index()] == 0
                        && s.ipcs[s.turn.index()] < 5)
            }
            Phase::Income | Phase::Payday => true,
            Phase::Purchase => china,
            _ => false,
        }
    }

    /// Ends, for the person, the phases in which nothing is to be decided.
    fn pass_idle(&mut self) {
        if !self.pass_idle_phases {
            return;
        }
        for _ in 0..64 {
            let Some(p) = self.actor() else { return };
            if !self.is_human(p) || !self.nothing_to_decide() {
                return;
            }
            // Told before the phase ends, so that it reads before the next
            // phase's heading (issue 33, point 10).
            let phase = self.game().state.phase.name();
            self.note(format!("nothing to decide in {phase}: passed on"));
            let v = serde_json::json!({"type": "end_phase"});
            if self.apply(&v, Origin::Client).is_err() {
                // A refused end logs nothing: the note is the last line.
                self.table.pop_line();
                return;
            }
        }
    }

    /// Actions taken since the game was last saved or loaded (undone ones
    /// no longer count).
    pub fn unsaved_actions(&self) -> usize {
        self.table.record().log().len().abs_diff(self.saved_len)
    }

    pub fn game(&self) -> &Game {
        self.table.game()
    }
    pub fn log(&self) -> &[LogLine] {
        self.table.log()
    }
    pub fn humans(&self) -> Vec<bool> {
        self.game().ruleset.power_ids().map(|p| self.is_human(p)).collect()
    }
    /// Who the person plays, as picked on the first screen.
    pub fn set_humans(&mut self, mut humans: Vec<bool>) {
        humans.resize(self.game().ruleset.power_count(), false);
        self.seat = self.game().ruleset.power_ids().filter(|p| humans[p.index()]).collect();
        self.table.set_computer(humans.iter().map(|h| !h).collect());
        self.pass_idle();
    }
    pub fn is_human(&self, p: PowerId) -> bool {
        self.seat.contains(&p)
    }
    pub fn power_name(&self, p: PowerId) -> &str {
        self.table.power_name(p)
    }
    pub fn seed(&self) -> Option<u64> {
        match self.table.record().dice_mode() {
            DiceMode::Seeded { seed } => Some(seed),
            DiceMode::Client | DiceMode::Proof => None,
        }
    }
    pub fn computer_stuck(&self) -> bool {
        self.computer_stuck
    }

    /// The power whose decision the game waits for (`None`: the game is over).
    pub fn actor(&self) -> Option<PowerId> {
        self.table.actor()
    }

    /// Whether the computer has a move to make now.
    pub fn computer_to_act(&self) -> bool {
        !self.computer_stuck && self.table.computer_to_act()
    }

    pub fn note(&mut self, text: impl Into<String>) {
        self.table.note(text);
    }

    /// Plays the person's order for the power that acts now. On refusal the
    /// game is unchanged and the error is the engine's sentence.
    pub fn order(&mut self, order: &Order) -> Result<(), String> {
        let Some(p) = self.actor() else {
            return Err("the game is over".into());
        };
        if !self.is_human(p) {
            return Err(format!("it is {}'s decision, and the computer plays {}", self.power_name(p), self.power_name(p)));
        }
        // Nothing lost without consent (issue 15, point 1): an `end` that
        // destroys units names them and waits for a second `end`.
        if matches!(order, Order::EndPhase) && self.end_warned_at != Some(self.table.record().log().len()) {
            if let Some(loss) = warboard_table::lost_if_phase_ends(self.game(), p) {
                self.end_warned_at = Some(self.table.record().log().len());
                let phase = self.game().state.phase.name().replace('_', " ");
                return Err(format!("ending {phase} now loses {loss}: type `end` again to go ahead, or move them first"));
            }
        }
        // Giving up ends the game for every power of the side, allies
        // included (issue 33, point 3): it is asked twice.
        if matches!(order, Order::Surrender) && self.surrender_warned_at != Some(self.table.record().log().len()) {
            self.surrender_warned_at = Some(self.table.record().log().len());
            let team = self.game().state.teams.team_of(p).unwrap_or(self.power_name(p)).to_string();
            let members: Vec<String> = self.game().state.teams.members(&team).iter().map(|q| self.power_name(*q).to_string()).collect();
            let who = if members.len() > 1 { format!("the {team} ({})", members.join(", ")) } else { self.power_name(p).to_string() };
            return Err(format!("`surrender` gives up the game for {who}: type `surrender` again to confirm"));
        }
        let side = self.game().ruleset.side(p).name();
        let routed = self.route_for(order, p, side);
        let order = routed.as_ref().unwrap_or(order);
        let action = self.acting_as(order_to_format(order, self.game(), side), p);
        let resolved = self.apply(&action, Origin::Client)?;
        if let Action::Move { units, .. } = &resolved {
            self.warn_if_doomed(p, units);
        }
        // Before an attack is fought: the odds of the battle the move declared.
        if let (Order::Move { route, bombing: false, .. }, Action::Move { .. }) = (order, &resolved) {
            // Alternative: a move into enemy units starts the battle there,
            // in its one phase of moving and fighting (issue 33, point 6).
            let attacking = matches!(self.game().state.phase, Phase::CombatMove | Phase::Turn);
            if let (true, Some(&to)) = (attacking, route.last()) {
                let found = odds::at_space(self.game(), to).or_else(|| odds::where_units_meet(self.game(), to, p));
                if let Some(o) = found {
                    let at = self.game().ruleset.map.name(to).to_string();
                    self.table.push(LogLine::new(LineKind::Odds, format!("odds at {at}: {}", o.summary())));
                }
            }
        }
        self.pass_idle();
        Ok(())
    }

    /// After a move that ends where its units will not survive the end of
    /// the phase (aircraft without a landing: DAAK 4.4(c), FORMAT v1;
    /// Alternative planes at sea without a ship), a warning at once
    /// (issue 15, point 2), not only when the phase ends.
    fn warn_if_doomed(&mut self, p: PowerId, moved: &[warboard_rules::UnitId]) {
        if !matches!(self.game().state.phase, Phase::NoncombatMove | Phase::Turn) {
            return;
        }
        let Some(after) = after_phase_end(self.game(), p) else {
            return;
        };
        let game = self.game();
        let mut doomed: Vec<(warboard_rules::UnitType, u64)> = Vec::new();
        for u in moved.iter().filter(|id| after.state.unit(**id).is_none()).filter_map(|id| game.state.unit(*id)) {
            match doomed.iter_mut().find(|(k, _)| *k == u.kind) {
                Some(e) => e.1 += 1,
                None => doomed.push((u.kind, 1)),
            }
        }
        let Some(at) = moved.first().and_then(|id| game.state.unit(*id)).map(|u| game.ruleset.map.name(u.at).to_string()) else {
            return;
        };
        if !doomed.is_empty() {
            let what = doomed.iter().map(|(k, n)| k.count_words(*n)).collect::<Vec<_>>().join(" and ");
            self.note(format!("warning: {what} at {at} will be lost when this phase ends: no landing there (move on, or undo)"));
        }
    }

    /// `move ... FROM TO` between spaces that do not border each other: the
    /// order along the shortest route the rules accept (issue 33, point 4:
    /// `move 2 ftr 1 bmb GER NTH`), found by the engine's route search.
    /// `None` where the order names its route, or no route is accepted (the
    /// refusal then says the spaces do not border each other).
    fn route_for(&self, order: &Order, p: PowerId, side: &str) -> Option<Order> {
        let Order::Move { route, .. } = order else {
            return None;
        };
        let game = self.game();
        let map = &game.ruleset.map;
        let (&from, &to) = (route.first()?, route.last()?);
        if route.len() != 2 || map.adjacent(from, to) {
            return None;
        }
        // A search bound, not a rule: the farthest any unit of the ruleset
        // moves, long-range aircraft's two more included.
        let budget = game.ruleset.unit_types().map(|u| u.movement).max().unwrap_or(0) as u32 + 2;
        let by = game.round_phase().then_some(p);
        let along = |r: &[warboard_rules::SpaceId]| match order {
            Order::Move { units, transport, bombing, .. } => {
                Order::Move { units: units.clone(), route: r.to_vec(), transport: *transport, bombing: *bombing }
            }
            other => other.clone(),
        };
        let mut ok = |r: &[warboard_rules::SpaceId]| {
            let v = self.acting_as(order_to_format(&along(r), game, side), p);
            self.table.record().resolve(&v).is_ok_and(|a| game.is_legal_as(by, &a))
        };
        let found = warboard_rules::routes::shortest_route(map, from, to, budget, 12, &mut ok)?;
        Some(along(&found))
    }

    /// In a phase of the whole round (Alternative payday and shopping)
    /// several nations act: the action names the one taking it (FORMAT.md
    /// v2, `power`).
    fn acting_as(&self, mut action: serde_json::Value, p: PowerId) -> serde_json::Value {
        if self.game().round_phase() {
            if let Some(m) = action.as_object_mut() {
                m.insert("power".into(), serde_json::Value::String(self.game().ruleset.power(p).id.clone()));
            }
        }
        action
    }

    /// Applies a FORMAT.md action for the person and tells what it did;
    /// returns the action as the rules core resolved it.
    fn apply(&mut self, action: &serde_json::Value, by: Origin) -> Result<Action, String> {
        let applied = self.table.act(&self.seat, action, by).map_err(|e| e.to_string())?;
        applied.entry.resolved.ok_or_else(|| "a note of the table, not a move: nothing to show on the board".to_string())
    }

    /// Whether the round's shopping is on now (Alternative), with its
    /// purchases hidden from all but the nation that made them.
    pub fn shopping_is_secret(&self) -> bool {
        self.table.shopping_is_secret()
    }

    /// Whether the person at the keyboard, playing `viewer`, may read `line`.
    pub fn may_read(&self, line: &LogLine, viewer: Option<PowerId>) -> bool {
        self.table.may_read(line, viewer.as_slice())
    }

    /// The nations the person plays that take part in this round's
    /// shopping: where two or more share the keyboard, each is handed it in
    /// turn.
    pub fn human_shoppers(&self) -> usize {
        let g = self.game();
        g.ruleset.power_ids().filter(|p| self.is_human(*p) && g.ruleset.plays(*p) && !g.state.eliminated.contains(p)).count()
    }

    /// The position as `viewer`'s player may see it during the round's
    /// shopping. `None` where the whole position may be seen.
    pub fn view_for(&self, viewer: Option<PowerId>) -> Option<Game> {
        self.table.view_for(viewer.as_slice())
    }

    /// Lets the computer make one move, if it has one to make. Returns
    /// whether it did something (a refused proposal counts: it learns).
    pub fn step_computer(&mut self) -> bool {
        if !self.computer_to_act() {
            return false;
        }
        match self.table.step_computer() {
            Step::Idle | Step::NeedDice => false,
            Step::Acted(_) => {
                self.pass_idle();
                true
            }
            Step::Refused => true,
            Step::Stuck { refusal, .. } => {
                self.computer_stuck = true;
                let who = self.actor().map(|p| self.power_name(p).to_string()).unwrap_or_default();
                self.note(format!("the computer playing {who} is stuck ({refusal}); save the game and report it"));
                true
            }
        }
    }

    /// Takes back the person's last action of the phase.
    pub fn undo(&mut self) -> Result<(), String> {
        self.table.undo(&self.seat).map(|_| ()).map_err(|e| e.to_string())
    }

    pub fn save(&mut self, path: &Path) -> Result<(), String> {
        save::save(self.table.record(), path)?;
        self.saved_len = self.table.record().log().len();
        self.note(format!("saved to {}", path.display()));
        Ok(())
    }
}

/// The odds of a battle about to be fought for the first time, told before
/// it is fought.
fn odds_before_fighting(game: &Game, action: &Action) -> Option<LogLine> {
    let at = match action {
        Action::Battle { at } | Action::Resolve { at: Some(at) } => *at,
        _ => return None,
    };
    let b = game.state.battles.iter().find(|b| b.at == at && b.result == BattleResult::Pending)?;
    let o = odds::of_battle(game, b)?;
    Some(LogLine::new(LineKind::Odds, format!("odds at {}: {}", game.ruleset.map.name(at), o.summary())))
}

/// Whether a battle waits for a decision or to be fought.
fn battle_pending(game: &Game) -> bool {
    game.state.battles.iter().any(|b| !b.result.is_over())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::command::{parse, Command};

    fn germany_only() -> Vec<bool> {
        vec![false, true, false, false, false]
    }

    fn run_computers(s: &mut Session) {
        for _ in 0..100_000 {
            if !s.step_computer() {
                return;
            }
        }
        panic!("the computer never handed over");
    }

    fn order(s: &mut Session, line: &str) -> Result<(), String> {
        match parse(line, &s.game().ruleset.clone()) {
            Ok(Command::Order(o)) => s.order(&o),
            other => panic!("`{line}` is an order, not {other:?}"),
        }
    }

    #[test]
    fn the_computer_plays_russia_and_germany_is_asked_as_defender_then_for_its_turn() {
        let mut s = Session::new("classic", 1, germany_only()).expect("a game starts");
        assert!(s.computer_to_act());
        let germany = s.game().ruleset.power_by_name("germany").expect("germany");
        for _ in 0..50 {
            run_computers(&mut s);
            assert_eq!(s.actor(), Some(germany), "the computer hands over only to the person");
            if s.game().state.turn == germany {
                break;
            }
            // Russia attacks: Germany, defending, decides during Russia's turn.
            assert_eq!(s.game().state.phase, Phase::Combat);
            order(&mut s, "resolve").expect("the defender may fight it out with default choices");
        }
        assert_eq!(s.game().state.phase, Phase::Research);
        assert!(s.log().iter().any(|l| l.text == "== round 1: germany =="), "the turn change is logged");
        assert!(s.log().iter().any(|l| l.text.starts_with("russia collects")), "Russia's income is logged");
    }

    #[test]
    fn computer_players_play_whole_rounds_through_the_save_vocabulary() {
        // Every computer action goes through FORMAT.md's words and the
        // record; none may be lost in translation and stall the game.
        let mut s = Session::new("classic", 3, vec![false; 5]).expect("a game starts");
        let mut steps = 0;
        while s.actor().is_some() && s.game().state.round <= 4 && steps < 200_000 {
            assert!(s.step_computer(), "the computer always has a move while the game goes on");
            steps += 1;
        }
        assert!(!s.computer_stuck());
        assert!(s.game().state.round > 4 || s.game().state.winner.is_some(), "four rounds were played in {steps} steps");
        assert!(s.table.refused_in_a_row() < warboard_table::FALLBACK_AFTER);
    }

    #[test]
    fn computer_players_play_whole_europe_rounds_and_the_soviets_may_convert() {
        // Europe through the same words: artillery, destroyers, convoys,
        // the two-hit battleship; nothing lost in translation, no stall.
        let mut s = Session::new("europe", 4, vec![false; 4]).expect("a Europe game starts");
        assert!(s.log().iter().any(|l| l.text == "new europe game, seed 4"), "{:?}", s.log());
        let mut steps = 0;
        while s.actor().is_some() && s.game().state.round <= 3 && steps < 200_000 {
            assert!(s.step_computer(), "the computer always has a move while the game goes on");
            steps += 1;
        }
        assert!(!s.computer_stuck());
        assert!(s.game().state.round > 3 || s.game().state.winner.is_some());
        assert_eq!(s.table.refused_in_a_row(), 0, "the computer's Europe actions are all legal");
        // A person playing the Soviet Union may ask for the Patriotic War;
        // with no allied units in Moscow the rules refuse it, in their words.
        let mut s = Session::new("europe", 4, vec![true; 4]).expect("a Europe game starts");
        order(&mut s, "end").expect("Germany's research ends");
        assert!(order(&mut s, "convert MOS 1 inf").is_err(), "only the Soviet Union converts, and only allied units");
        order(&mut s, "buy 1 art 1 dd").expect("Germany buys artillery and a destroyer");
        assert!(order(&mut s, "buy 1 ic").is_err(), "no new industrial complexes in Europe");
    }

    #[test]
    fn computer_players_play_whole_anniversary_rounds_of_both_scenarios() {
        // Seven powers, China's free infantry, researchers on charts, units
        // that must be placed: all through the save words, nothing refused.
        for name in ["anniversary-1941", "anniversary-1942"] {
            let mut s = Session::new(name, 4, vec![false; 7]).expect("an Anniversary game starts");
            let mut steps = 0;
            while s.actor().is_some() && s.game().state.round <= 3 && steps < 200_000 {
                assert!(s.step_computer(), "the computer always has a move while the game goes on");
                assert_eq!(s.table.refused_in_a_row(), 0, "{name}: the computer's Anniversary actions are all legal: {:?}", s.log().last());
                steps += 1;
            }
            assert!(!s.computer_stuck());
            assert!(s.game().state.round > 3 || s.game().state.winner.is_some(), "{name}");
            let china = s.game().ruleset.power_by_name("china").expect("china");
            assert!(s.game().state.units.iter().filter(|u| u.owner == china).count() > 0, "{name}: China still has units");
        }
    }

    #[test]
    fn a_person_researches_on_a_chart_repairs_must_place_and_places_chinas_infantry() {
        let mut s = Session::new("anniversary-1941", 2, vec![true; 7]).expect("an Anniversary game starts");
        let germany = s.game().ruleset.power_by_name("germany").expect("germany");
        let bank = s.game().state.ipcs[germany.index()];
        assert!(order(&mut s, "research 1").unwrap_err().contains("chart"), "Anniversary research names a chart");
        order(&mut s, "research 2 chart 1").expect("two researchers for chart 1");
        assert_eq!(s.game().state.ipcs[germany.index()], bank - 10);
        assert!(s.log().iter().any(|l| l.kind == LineKind::Dice), "the researchers roll: {:?}", s.log());
        order(&mut s, "end").expect("research ends");
        // Nothing is damaged at the start: the rules say so in their words.
        assert!(order(&mut s, "repair GER 1").unwrap_err().contains("damage"));
        order(&mut s, "buy 1 inf").expect("one infantry");
        while s.game().state.phase != Phase::Place {
            order(&mut s, "end").expect("phases end");
        }
        let refused = order(&mut s, "end").expect_err("a unit that can be placed must be");
        assert!(refused.contains("can still be placed"), "{refused}");
        order(&mut s, "place 1 inf GER").expect("placed at the complex");
        order(&mut s, "end").expect("now the place phase ends");
        // Every other power passes; China receives its infantry and places
        // them where no complex stands.
        let china = s.game().ruleset.power_by_name("china").expect("china");
        while !(s.game().state.turn == china && s.game().state.phase == Phase::Place) {
            order(&mut s, "end").expect("phases end");
        }
        let waiting = s.game().state.purchased.get(&warboard_rules::UnitType::Infantry).copied().unwrap_or(0);
        assert!(waiting > 0, "China received infantry");
        assert!(order(&mut s, "buy 1 inf").is_err());
        order(&mut s, &format!("place {waiting} inf CHG")).expect("China places in a territory it holds");
        assert!(s.game().state.purchased.is_empty());
        order(&mut s, "end").expect("China's place phase ends");
    }

    #[test]
    fn a_computer_powers_decision_is_not_the_persons() {
        let mut s = Session::new("classic", 1, germany_only()).expect("a game starts");
        assert!(order(&mut s, "end").unwrap_err().contains("computer plays russia"));
    }

    /// Issue 33, point 4: a move may name only where the units go; the
    /// engine finds the shortest route the rules accept, or the refusal
    /// says the spaces do not border each other.
    #[test]
    fn a_move_to_a_far_space_takes_the_shortest_legal_route() {
        let state = serde_json::json!({"turn": "germany", "phase": "noncombat_move", "units": [
            {"at": "GER", "owner": "germany", "type": "fighter", "count": 2},
            {"at": "GER", "owner": "germany", "type": "infantry"}]});
        let mut start = Start::standard("classic", DiceMode::Seeded { seed: 1 });
        start.position = warboard_record::Position { setup: "empty".into(), state: Some(state) };
        let mut s = Session::resume(Record::new(start).expect("a position"), vec![true; 5]);
        order(&mut s, "move 2 ftr GER FIN").expect("two fighters fly GER, BAL, FIN");
        let fin = s.game().ruleset.map.id("FIN").unwrap();
        assert_eq!(s.game().state.units.iter().filter(|u| u.at == fin).count(), 2);
        let refused = order(&mut s, "move 1 inf GER FIN").expect_err("infantry cannot walk there");
        assert!(refused.contains("do not border"), "{refused}");
    }

    /// Issue 33, point 6: the Alternative rules show the odds of an attack
    /// as the other games do.
    #[test]
    fn an_alternative_attack_shows_its_odds() {
        let state = serde_json::json!({"turn": "germany", "phase": "turn", "units": [
            {"at": "UKR", "owner": "germany", "type": "tank", "count": 3},
            {"at": "CAU", "owner": "russia", "type": "infantry", "count": 2}]});
        let mut start = Start::standard("alternative", DiceMode::Seeded { seed: 1 });
        start.position = warboard_record::Position { setup: "empty".into(), state: Some(state) };
        let mut s = Session::resume(Record::new(start).expect("a position"), vec![true; 5]);
        order(&mut s, "move 3 tank UKR CAU").expect("the tanks attack Caucasus");
        let odds = s.log().iter().find(|l| l.kind == LineKind::Odds).map(|l| l.text.clone());
        assert!(odds.as_deref().is_some_and(|t| t.starts_with("odds at CAU: attack wins ")), "{odds:?}");
    }

    #[test]
    fn surrender_is_asked_twice() {
        let mut s = Session::new("classic", 1, vec![true; 5]).expect("a game starts");
        let asked = order(&mut s, "surrender").expect_err("the first surrender asks");
        assert!(asked.contains("the allies (russia, uk, usa)") && asked.contains("again"), "{asked}");
        assert!(s.game().state.winner.is_none());
        order(&mut s, "surrender").expect("the second gives up");
        assert!(s.game().state.winner.is_some());
    }

    #[test]
    fn every_alternative_payday_passes_by_itself() {
        let mut s = Session::new("alternative", 3, vec![true; 5]).expect("a game starts");
        s.set_pass_idle_phases(true);
        assert_eq!(s.game().state.phase, Phase::Shopping, "the first payday passed");
        for _ in 0..40 {
            if s.game().state.round == 2 {
                break;
            }
            order(&mut s, "end").expect("each nation ends its shopping and its turn");
        }
        assert_eq!((s.game().state.round, s.game().state.phase), (2, Phase::Shopping), "the second payday passed too");
    }

    #[test]
    fn the_persons_orders_are_applied_or_refused_with_the_engines_reason() {
        let mut s = Session::new("classic", 1, vec![true; 5]).expect("a game starts");
        for _ in 0..7 {
            order(&mut s, "end").expect("Russia's seven phases end");
        }
        assert_eq!(s.actor().map(|p| s.power_name(p).to_string()).as_deref(), Some("germany"));
        order(&mut s, "end").expect("research ends");
        let before = s.game().state.clone();
        let refused = order(&mut s, "buy 99 bmb").expect_err("Germany cannot afford 99 bombers");
        assert!(!refused.is_empty());
        assert_eq!(s.game().state, before, "a refused order changes nothing");
        order(&mut s, "buy 2 inf").expect("two infantry are affordable");
        assert!(s.log().iter().any(|l| l.text == "germany buys 2 inf for 6 IPCs"));
        order(&mut s, "end").expect("purchase ends");
        assert_eq!(s.game().state.phase, Phase::CombatMove);
        // Germany attacks Karelia from East Europe: the odds are logged.
        order(&mut s, "move 3 inf 1 arm EEU LEN").expect("land units move into Karelia");
        assert!(s.log().iter().any(|l| l.kind == LineKind::Odds && l.text.starts_with("odds at LEN: attack wins")), "{:?}", s.log());
        order(&mut s, "end").expect("combat move ends");
        order(&mut s, "resolve LEN").expect("the battle is fought");
        assert!(s.log().iter().any(|l| l.kind == LineKind::Dice));
        // Dice by unit type, with what each hits on and scores (issue 15,
        // point 13).
        let attack = s.log().iter().find(|l| l.kind == LineKind::Dice && l.text.contains("attacker rolls")).unwrap();
        assert!(attack.text.contains("inf@1 ") && attack.text.contains("arm@3 "), "{}", attack.text);
        assert!(s.log().iter().any(|l| l.text.starts_with("battle at LEN ends")), "{:?}", s.log());
    }

    #[test]
    fn an_end_that_loses_units_names_them_and_waits_for_a_second_end() {
        // Issue 15, point 1: nothing lost without consent.
        let mut s = Session::new("classic", 1, vec![true; 5]).expect("a game starts");
        order(&mut s, "end").expect("research ends");
        order(&mut s, "buy 2 inf").expect("two infantry are affordable");
        for _ in 0..10 {
            if s.game().state.phase == Phase::Place {
                break;
            }
            order(&mut s, "end").expect("the phases before placement end");
        }
        assert_eq!(s.game().state.phase, Phase::Place);
        let warned = order(&mut s, "end").expect_err("ending placement would lose the infantry");
        assert!(warned.contains("2 units bought and not placed"), "{warned}");
        assert_eq!(s.game().state.phase, Phase::Place, "the first end changes nothing");
        order(&mut s, "end").expect("a second end goes ahead");
        assert_ne!(s.game().state.phase, Phase::Place);
    }

    #[test]
    fn a_move_that_leaves_aircraft_without_a_landing_is_warned_at_once() {
        // Issue 15, point 2: the Karelia fighter ends its noncombat move in
        // an empty sea zone; the warning comes with the move.
        let mut s = Session::new("classic", 1, vec![true; 5]).expect("a game starts");
        for _ in 0..10 {
            if s.game().state.phase == Phase::NoncombatMove {
                break;
            }
            order(&mut s, "end").expect("the phases before noncombat move end");
        }
        order(&mut s, "move 1 ftr LEN KRZ").expect("the fighter may fly there");
        let last = &s.log().last().unwrap().text;
        assert!(last.starts_with("warning: 1 fighter at KRZ will be lost"), "{last}");
        // A move to a landing is not warned.
        s.undo().expect("undone");
        order(&mut s, "move 1 ftr LEN MOS").expect("the fighter lands in Moscow");
        assert!(!s.log().last().unwrap().text.starts_with("warning"));
    }

    #[test]
    fn the_log_after_a_load_reads_as_the_live_one() {
        // Issue 15, point 10: one style, grouped, live and after a load.
        let mut s = Session::new("classic", 3, vec![false; 5]).expect("a game starts");
        for _ in 0..3000 {
            if !s.step_computer() || s.game().state.round > 1 {
                break;
            }
        }
        let told = |log: &[LogLine]| -> Vec<String> {
            log.iter().filter(|l| !matches!(l.kind, LineKind::Note | LineKind::Odds)).map(|l| l.text.clone()).collect()
        };
        let live = told(s.log());
        let loaded = Session::resume(s.table.record().clone(), vec![false; 5]);
        let after = told(loaded.log());
        assert!(live.len() > 30, "a round was played: {live:?}");
        assert_eq!(after, live);
    }

    #[test]
    fn undo_reaches_back_across_the_phases_of_the_persons_turn() {
        // Issue 15, point 1: an `end` too soon is taken back.
        let mut s = Session::new("classic", 1, vec![true; 5]).expect("a game starts");
        order(&mut s, "end").expect("research ends");
        order(&mut s, "buy 2 inf").expect("bought");
        order(&mut s, "end").expect("purchase ends");
        assert_eq!(s.game().state.phase, Phase::CombatMove);
        s.undo().expect("the end of the purchase is taken back");
        assert_eq!(s.game().state.phase, Phase::Purchase);
        assert_eq!(s.log().last().unwrap().text, "undone: the end of the phase: back in purchase");
        s.undo().expect("then the purchase");
        assert!(s.game().state.purchased.is_empty());
    }

    #[test]
    fn undo_is_told_in_words() {
        // Issue 15, point 5: the log tells what was taken back, not JSON.
        let mut s = Session::new("classic", 1, vec![true; 5]).expect("a game starts");
        order(&mut s, "end").expect("research ends");
        order(&mut s, "buy 2 inf").expect("two infantry are affordable");
        s.undo().expect("the purchase is taken back");
        let last = &s.log().last().unwrap().text;
        assert_eq!(last, "undone: russia buys 2 inf for 6 IPCs");
    }

    #[test]
    fn phases_with_nothing_to_decide_pass_by_themselves() {
        // Classic without weapons development: Russia's research passes at
        // once, and after its placement the collect income phase too.
        let russia_only = vec![true, false, false, false, false];
        let mut s = Session::new("classic", 1, russia_only.clone()).unwrap();
        s.set_pass_idle_phases(true);
        assert_eq!(s.game().state.phase, Phase::Purchase, "research passed on");
        // Told before the purchase's heading, not after it (issue 33, point 10).
        let at = |text: &str| s.log().iter().position(|l| l.text == text);
        let (passed, purchase) = (at("nothing to decide in research: passed on"), at("-- russia purchase"));
        assert!(passed.is_some() && purchase.is_some() && passed < purchase, "{:?}", s.log().iter().map(|l| &l.text).collect::<Vec<_>>());
        // Purchase, combat move, combat, non-combat move, place.
        for _ in 0..5 {
            order(&mut s, "end").unwrap();
        }
        assert!(s.log().iter().any(|l| l.text == "nothing to decide in income: passed on"));
        assert_ne!(s.game().state.turn.index(), 0, "Russia's turn is over: income passed by itself");
        // Stopping at every phase keeps the old way.
        let s = Session::new("classic", 1, russia_only).unwrap();
        assert_eq!(s.game().state.phase, Phase::Research);
    }

    #[test]
    fn undo_and_save_round_trip() {
        let mut s = Session::new("classic", 5, vec![true; 5]).expect("a game starts");
        order(&mut s, "end").expect("research ends");
        order(&mut s, "buy 1 inf").expect("Russia buys");
        s.undo().expect("a purchase without dice can be undone");
        assert!(s.game().state.purchased.is_empty());
        let path = std::env::temp_dir().join(format!("warboard-play-session-{}.json", std::process::id()));
        s.save(&path).expect("the temp dir is writable");
        let loaded = Session::resume(save::load(&path).expect("it loads"), vec![true; 5]);
        assert_eq!(loaded.game().state, s.game().state);
        let _ = std::fs::remove_file(&path);
    }
}
