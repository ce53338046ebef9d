//! The computer player: a planner per phase. Purchases follow a budget
//! policy over unit roles read from the ruleset's unit table ([`Roles`]);
//! attacks are chosen by their win chance (through [`Odds`]) and the
//! value of the prize; non-combat moves bring land units to the front, keep
//! the capital garrisoned, ferry troops by transport and land every
//! aircraft safely; new units go to the factory nearest the front.

mod attacks;
mod noncombat;

use crate::geo::{self, FAR};
use crate::odds::{ExactOdds, Odds};
use crate::production::{self, Capacity};
use crate::roles::Roles;
use crate::siege;
use crate::threat::{self, stacks};
use crate::Player;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use warboard_rules::battle::{self, BattleKind, BattleResult, Decision};
use warboard_rules::game::Relations;
use warboard_rules::ruleset::CapitalVictory;
use warboard_rules::ids::{PowerId, SpaceId, UnitId, UnitType};
use warboard_rules::state::Unit;
use warboard_rules::{Action, FixedDice, Game, Phase, RuleError};

/// The chance of losing the capital next turn that a threat-sized garrison
/// accepts.
const SAFE_CAPITAL: f64 = 0.2;
/// How near the land front (in land steps) a friendly shore must be for
/// transports to unload troops there.
const SHUTTLE_FRONT: u32 = 3;
/// What a victory city adds to a territory's worth as a target (IPCs).
const VICTORY_CITY_PRIZE: u32 = 15;
/// The most an enemy IPC lost counts for against one of ours under
/// `Style::attrition`, however far this team out-earns the enemy: at 3,
/// an attack that destroys a third of what it loses still pays.
const ATTRITION_WEIGHT: f64 = 3.0;

/// How the planner plays: the thresholds of its attacks and retreats, how
/// it guards its capital, what it buys. [`Style::STANDARD`] is the planner
/// as it played before issue 14 (and still plays as `ai`); the planning
/// player ([`crate::PlanningPlayer`]) chooses among styles each turn by
/// playing them out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Attack an ordinary territory when the win chance reaches this.
    pub attack: f64,
    /// The win chance an attack on a victory city needs, where victory
    /// cities decide the game.
    pub victory_city: f64,
    /// The win chance an attack on an enemy capital needs.
    pub capital: f64,
    /// Retreat when the chance falls below this (where retreat is allowed).
    pub retreat: f64,
    /// The win chance a fleet needs to attack enemy ships.
    pub fleet: f64,
    /// How the capital's garrison is sized.
    pub garrison: Garrison,
    /// Fighters and bombers join sea battles and strike enemy fleets on
    /// their own (issue 14: before, no aircraft ever fought at sea).
    pub air_at_sea: bool,
    /// What the money buys.
    pub buy: Buy,
    /// An ordinary territory is attacked only when what the attack is
    /// expected to bring (units destroyed, income taken) outweighs what it
    /// costs, counting the enemy's counter-attack on the survivors
    /// (issue 14: before, stacks were left to be destroyed).
    pub counter_attacks: bool,
    /// Transports carry troops to friendly shores near the land front and
    /// unload them there to march on, not only onto enemy shores they can
    /// take (issue 14: armies piled up on islands).
    pub shuttle: bool,
    /// The most transports a power that must cross the sea keeps: enough
    /// for a quarter of its army at home, up to this many (more lets a
    /// landing outnumber an island fortress).
    pub transports: usize,
    /// A power that must cross the sea buys a capital ship a turn while it
    /// has fewer warships than this.
    pub warships: usize,
    /// Loaded transports sail toward the shore most worth invading only as
    /// far as they stay safe, with warships as escorts, and land from two
    /// zones away (crate::convoy; issue 14: unescorted transports were
    /// sunk one by one and island victory cities were never invaded).
    pub convoys: bool,
    /// Where the last enemy capital hides behind enemy ships in every sea
    /// zone beside it, buy what wins that sea battle and strike the screen
    /// when the trade favours it (crate::siege; issue 14: Japan held Tokyo
    /// behind a zone of transports for ten rounds while the Allies' armies
    /// waited aboard next to it).
    pub siege: bool,
    /// Against the last enemy capital (`siege::last_capital`), empty
    /// transports take troops aboard from a friendly shore in the combat
    /// move and land them the same move (crate::ferry; issue 14: every
    /// landing waited a turn aboard, and transports beside an island sailed
    /// off to far shores for troops).
    pub pickups: bool,
    /// An enemy capital too strong for this power alone is attacked when
    /// the allies' armies beside it, moving before its holder again, make
    /// the two attacks together likely enough to win.
    pub joint_assaults: bool,
    /// The last enemy capital (`siege::last_capital`) is attacked whenever
    /// the trade pays at the rate the two sides replace their losses: the
    /// defender's expected losses weighed by how many times the enemy's
    /// income this team earns (at most `ATTRITION_WEIGHT`, 3), against the
    /// attacker's. (Issue 14: Japan held Tokyo for seven rounds on 8 IPCs a
    /// round behind forty units, while 60 Allied infantry sailed beside it,
    /// each power too weak to attack alone and the Allies earning 150.)
    pub attrition: bool,
    /// The knobs of the Alternative rules' own policy (which the fields
    /// above do not reach: its movement and battles work otherwise).
    pub alternative: crate::alternative::Tuning,
}

/// How many units stay home to hold the capital.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Garrison {
    /// Two units, or everyone while enemy land units within two steps
    /// outgun the defence (the planner before issue 14).
    Fixed,
    /// Enough that what the enemy can bring next turn, by land, air and
    /// aboard its transports, takes the capital at most one time in five
    /// ([`crate::threat`]).
    Threat,
}

/// The purchase policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buy {
    /// Ships for a power that must cross the sea, a few fighters, then an
    /// army of defenders, strikers and supporters.
    Standard,
    /// Defenders only: the most hits for the money.
    Defenders,
    /// Up to eight fighters (and carriers' worth of reach) before the army.
    Air,
}

impl Style {
    /// The planner as it played before issue 14.
    pub const STANDARD: Style = Style {
        attack: 0.60,
        victory_city: 0.45,
        capital: 0.25,
        retreat: 0.25,
        fleet: 0.75,
        garrison: Garrison::Fixed,
        air_at_sea: false,
        buy: Buy::Standard,
        counter_attacks: false,
        shuttle: false,
        transports: 24,
        warships: 3,
        convoys: false,
        siege: false,
        pickups: false,
        joint_assaults: false,
        attrition: false,
        alternative: crate::alternative::Tuning::STANDARD,
    };
}

impl Default for Style {
    fn default() -> Self {
        Style::STANDARD
    }
}

pub struct ComputerPlayer<O: Odds = ExactOdds> {
    odds: O,
    style: Style,
    plan: VecDeque<Action>,
    planned: bool,
    key: (u32, u8, Phase),
    refused: HashSet<String>,
    /// Moves merged from several planned moves (`merge_walks`), with the
    /// moves they stand for: refused together, they are tried one by one.
    merged: HashMap<String, Vec<Action>>,
}

impl ComputerPlayer<ExactOdds> {
    /// The computer player, choosing its attacks with the exact calculator.
    pub fn new() -> Self {
        ComputerPlayer::with_odds(ExactOdds::default())
    }
}

impl Default for ComputerPlayer<ExactOdds> {
    fn default() -> Self {
        Self::new()
    }
}


impl<O: Odds> ComputerPlayer<O> {
    pub fn with_odds(odds: O) -> Self {
        ComputerPlayer {
            odds,
            style: Style::STANDARD,
            plan: VecDeque::new(),
            planned: false,
            key: (0, 0, Phase::Research),
            refused: HashSet::new(),
            merged: HashMap::new(),
        }
    }

    /// The same planner playing `style` (from the next phase it plans).
    pub fn with_style(mut self, style: Style) -> Self {
        self.style = style;
        self
    }

    /// Plays `style` from the next phase it plans on.
    pub fn set_style(&mut self, style: Style) {
        self.style = style;
    }

    pub fn style(&self) -> Style {
        self.style
    }

    /// Forgets the current phase's plan, as if it had never seen this
    /// game (the calculator's answers are kept: a simulation from a copy of
    /// a position starts planning afresh).
    pub fn reset(&mut self) {
        self.plan.clear();
        self.planned = false;
        self.key = (u32::MAX, 0, Phase::Research);
        self.refused.clear();
        self.merged.clear();
    }

    fn win_chance(&self, game: &Game, attackers: &[&Unit], defenders: &[&Unit], amphibious: bool) -> f64 {
        self.odds.win_chance(&game.ruleset, &stacks(attackers), &stacks(defenders), amphibious)
    }

    /// Whether an attack on `t` is worth making: likely enough to win, or,
    /// against an enemy capital, a trade in IPCs that favours the attacker
    /// (allies attacking one after another wear a fortress down).
    fn worth_attacking(&self, game: &Game, t: SpaceId, attackers: &[&Unit], defenders: &[&Unit], amphibious: bool) -> bool {
        let a = self.odds.assess(&game.ruleset, &stacks(attackers), &stacks(defenders), amphibious);
        a.win >= self.threshold_for(&game.ruleset, t)
            || (key_target(&game.ruleset, t) && a.swing.is_some_and(|s| s > 0.0))
    }

    /// With `Style::attrition`: whether attacking the last enemy capital `t`
    /// pays as attrition, the defender's expected losses weighed by the
    /// ratio of the two teams' incomes (1 to [`ATTRITION_WEIGHT`]) against
    /// the attacker's. A fortress on a small income cannot replace what it
    /// loses; the attackers' allies finish what such an attack begins.
    fn attrition_pays(&self, game: &Game, t: SpaceId, attackers: &[&Unit], defenders: &[&Unit], amphibious: bool) -> bool {
        let rel = game.relations();
        let p = game.state.turn;
        if !self.style.attrition || attackers.is_empty() || defenders.is_empty() || siege::last_capital(&rel, p) != Some(t) {
            return false;
        }
        let rs = &game.ruleset;
        let (mut ours, mut theirs) = (0.0, 0.0);
        for q in rs.power_ids().filter(|q| rs.plays(*q) && !game.state.eliminated.contains(q)) {
            let income = rel.income(q).max(0) as f64;
            if rs.allied(p, q) {
                ours += income;
            } else if rel.enemies(p, q) {
                theirs += income;
            }
        }
        let weight = (ours / theirs.max(1.0)).clamp(1.0, ATTRITION_WEIGHT);
        let a = self.odds.assess(rs, &stacks(attackers), &stacks(defenders), amphibious);
        let (Some(swing), Some(lost)) = (a.swing, a.attacker_loss) else { return false };
        let destroyed = swing + lost;
        destroyed * weight - lost > 0.0
    }

    /// The win chance an attack on `t` needs. An enemy capital is worth a
    /// bolder attack: allies attacking one after another wear it down; so is
    /// a victory city, where victory cities decide the game.
    fn threshold_for(&self, rs: &warboard_rules::Ruleset, t: SpaceId) -> f64 {
        if rs.map.space(t).capital_of.is_some() {
            self.style.capital
        } else if key_target(rs, t) {
            self.style.victory_city
        } else {
            self.style.attack
        }
    }

    /// Whether attacking `t` with `chosen` is expected to gain more than it
    /// costs: the units destroyed on both sides (the calculator's expected
    /// IPC losses), the territory's income taken from the enemy and added,
    /// and, where the enemy can strike back next turn, the survivors lost
    /// and the territory given back.
    fn pays_after_counter_attack(&self, game: &Game, t: SpaceId, chosen: &[&Unit], defenders: &[&Unit]) -> bool {
        let rs = &game.ruleset;
        let a = self.odds.assess(rs, &stacks(chosen), &stacks(defenders), false);
        let (Some(swing), Some(loss)) = (a.swing, a.attacker_loss) else { return true };
        // The survivors: aircraft fly home; the dearest land units are the
        // last to be taken as casualties.
        let mut land: Vec<&Unit> = chosen.iter().copied().filter(|u| rs.stats(u.kind).is_land()).collect();
        land.sort_by_key(|u| std::cmp::Reverse(rs.stats(u.kind).cost));
        let sent: f64 = chosen.iter().map(|u| rs.stats(u.kind).cost as f64).sum();
        let left = if sent > 0.0 { (1.0 - loss / sent).clamp(0.0, 1.0) } else { 0.0 };
        land.truncate(((land.len() as f64 * left).round() as usize).max(1));
        let rel = game.relations();
        let counter: Vec<&Unit> = threat::attackers_in_reach(&rel, game.state.turn, t).into_iter().filter(|u| u.at != t).collect();
        let retaken = threat::capture_chance(&self.odds, rs, &counter, &land);
        let survivors: f64 = land.iter().map(|u| rs.stats(u.kind).cost as f64).sum();
        let income = rs.map.space(t).ipc as f64;
        swing + a.win * (2.0 * income * (1.0 - retaken) - retaken * survivors) > 0.0
    }

    /// How many of `p`'s land units able to move stay in its capital.
    fn garrison(&self, game: &Game, p: PowerId) -> usize {
        let rel = game.relations();
        match self.style.garrison {
            Garrison::Fixed => garrison_needed(&rel, p),
            Garrison::Threat => {
                let (fixed, movable) = self.capital_defence(game, p);
                let attackers = threat::attackers_in_reach(&rel, p, geo::home(&game.ruleset, p));
                let mut defenders = fixed;
                for (k, u) in movable.iter().enumerate() {
                    if threat::capture_chance(&self.odds, &game.ruleset, &attackers, &defenders) <= SAFE_CAPITAL {
                        return k;
                    }
                    defenders.push(u);
                }
                movable.len()
            }
        }
    }

    /// The capital's defenders: those that stay anyway (allies', guns,
    /// units that have moved) and `p`'s land units free to move, strongest
    /// defender first.
    fn capital_defence<'g>(&self, game: &'g Game, p: PowerId) -> (Vec<&'g Unit>, Vec<&'g Unit>) {
        let rs = &game.ruleset;
        let capital = geo::home(rs, p);
        let (mut movable, fixed): (Vec<&Unit>, Vec<&Unit>) = game
            .state
            .units_at(capital)
            .filter(|u| rs.allied(p, u.owner))
            .partition(|u| u.owner == p && rs.stats(u.kind).is_land() && rs.stats(u.kind).is_combatant() && rs.stats(u.kind).movement > 0 && u.moved == 0);
        movable.sort_by_key(|u| std::cmp::Reverse(rs.stats(u.kind).defense));
        (fixed, movable)
    }

    /// Whether `p`'s capital needs every unit it has and more.
    fn capital_in_danger(&self, game: &Game, p: PowerId) -> bool {
        let rel = game.relations();
        match self.style.garrison {
            Garrison::Fixed => capital_threat(&rel, p) > 0.0,
            Garrison::Threat => {
                let (mut defenders, movable) = self.capital_defence(game, p);
                defenders.extend(movable);
                let attackers = threat::attackers_in_reach(&rel, p, geo::home(&game.ruleset, p));
                threat::capture_chance(&self.odds, &game.ruleset, &attackers, &defenders) > SAFE_CAPITAL
            }
        }
    }

    /// Planned moves of like land units walking one route, one after the
    /// other, become one move: the rules judge each unit of a walk alone,
    /// so the game is the same, and a turn of thousands of infantry is not
    /// thousands of actions each copying the board (issue 34). AA guns
    /// (one per territory) and cargo keep their own moves.
    fn merge_walks(&mut self, game: &Game, plan: VecDeque<Action>) -> VecDeque<Action> {
        let (rs, s) = (&game.ruleset, &game.state);
        let walker = |id: &UnitId| {
            s.unit(*id).filter(|u| u.carried_by.is_none() && rs.stats(u.kind).is_land() && rs.stats(u.kind).anti_aircraft == 0).map(|u| u.kind)
        };
        let kind_of = |a: &Action| match a {
            Action::Move { units, route, transport: None, bombing: false } if !units.is_empty() => {
                let kinds: Vec<_> = units.iter().map(walker).collect();
                kinds[0].filter(|k| kinds.iter().all(|x| *x == Some(*k))).map(|k| (k, route.clone()))
            }
            _ => None,
        };
        let mut out: VecDeque<Action> = VecDeque::new();
        let mut run: Vec<Action> = Vec::new();
        let flush = |run: &mut Vec<Action>, out: &mut VecDeque<Action>, merged: &mut HashMap<String, Vec<Action>>| {
            if run.len() > 1 {
                let Action::Move { route, .. } = &run[0] else { unreachable!("a run holds moves") };
                let units = run.iter().flat_map(|a| match a {
                    Action::Move { units, .. } => units.clone(),
                    _ => Vec::new(),
                });
                let one = Action::Move { units: units.collect(), route: route.clone(), transport: None, bombing: false };
                merged.insert(format!("{one:?}"), std::mem::take(run));
                out.push_back(one);
            } else {
                out.extend(run.drain(..));
            }
        };
        let mut run_key = None;
        for a in plan {
            let key = kind_of(&a);
            if key.is_none() || key != run_key {
                flush(&mut run, &mut out, &mut self.merged);
                run_key = key.clone();
            }
            if key.is_some() {
                run.push(a);
            } else {
                out.push_back(a);
            }
        }
        flush(&mut run, &mut out, &mut self.merged);
        out
    }

    fn offer(&mut self, a: Action) -> Option<Action> {
        if self.refused.contains(&format!("{a:?}")) {
            None
        } else {
            Some(a)
        }
    }
}

impl<O: Odds> Player for ComputerPlayer<O> {
    fn rejected(&mut self, action: &Action, _error: &RuleError) {
        let key = format!("{action:?}");
        if let Some(one_by_one) = self.merged.remove(&key) {
            for a in one_by_one.into_iter().rev() {
                self.plan.push_front(a);
            }
        }
        self.refused.insert(key);
    }

    /// Every fighter at the raided territory intercepts, unless the escorts
    /// outnumber them more than two to one (interceptors hit on 2, escorts
    /// on 1: a shot-down bomber does no damage).
    fn intercept(&mut self, game: &Game, at: SpaceId, me: PowerId) -> Option<Action> {
        let s = &game.state;
        let rs = &game.ruleset;
        let fighter = |u: &&warboard_rules::Unit| u.at == at && rs.stats(u.kind).is_air() && !rs.stats(u.kind).strategic_bomber;
        let ours: Vec<UnitId> = s.units.iter().filter(fighter).filter(|u| u.owner == me && !u.flags.intercepting).map(|u| u.id).collect();
        let escorts = s.units.iter().filter(fighter).filter(|u| u.owner == s.turn && u.flags.bombing).count();
        let bombers = s.units.iter().filter(|u| u.at == at && u.owner == s.turn && u.flags.bombing && rs.stats(u.kind).strategic_bomber).count();
        (!ours.is_empty() && bombers > 0 && escorts <= 2 * ours.len()).then_some(Action::Intercept { at, units: ours })
    }

    fn next_action(&mut self, game: &Game) -> Action {
        // The Alternative rules (issue 13): their own policy, tuned.
        if game.ruleset.options.free_movement {
            return crate::alternative::next_action(game, crate::acting(game), crate::alternative::Style::Best(self.style.alternative));
        }
        let s = &game.state;
        let key = (s.round, s.turn.0, s.phase);
        if key != self.key {
            self.key = key;
            self.plan.clear();
            self.planned = false;
            self.refused.clear();
            self.merged.clear();
        }
        if let Some(a) = self.battle_decision(game) {
            return a;
        }
        while let Some(a) = self.plan.pop_front() {
            if let Some(a) = self.offer(a) {
                return a;
            }
        }
        match s.phase {
            // The Alternative round's phases come with that ruleset (issue 13).
            Phase::Income | Phase::Payday | Phase::Shopping | Phase::Turn => Action::EndPhase,
            Phase::Research => {
                if self.planned {
                    return Action::EndPhase;
                }
                self.planned = true;
                let rel = game.relations();
                let threatened = self.capital_in_danger(game, s.turn);
                let naval = needs_ships(&rel, s.turn);
                production::research(game, s.turn, threatened, naval).and_then(|a| self.offer(a)).unwrap_or(Action::EndPhase)
            }
            Phase::Purchase => {
                if self.planned {
                    return Action::EndPhase;
                }
                self.planned = true;
                // China buys nothing: its infantry come when the phase ends.
                if game.relations().is_china(s.turn) {
                    return Action::EndPhase;
                }
                // Damage that takes production away is repaired first, then
                // the purchase fits the room left.
                let (repairs, cost) = production::repairs(game, s.turn);
                let capacity = production::capacity(game, s.turn, &repairs);
                self.plan = repairs.into_iter().map(|(at, count)| Action::Repair { at, count }).collect();
                self.plan.extend(self.purchase(game, s.ipcs[s.turn.index()] - cost, capacity));
                self.plan.pop_front().unwrap_or(Action::EndPhase)
            }
            Phase::CombatMove | Phase::NoncombatMove => {
                if !self.planned {
                    self.planned = true;
                    let plan = if s.phase == Phase::CombatMove { self.plan_attacks(game) } else { self.plan_noncombat(game) };
                    self.plan = self.merge_walks(game, plan);
                    if let Some(a) = self.plan.pop_front() {
                        return a;
                    }
                }
                Action::EndPhase
            }
            Phase::Combat => {
                // Rockets first, at the most valuable complex each gun can
                // reach (the rules say which shots are allowed).
                if let Some(a) = production::rocket(game).and_then(|a| self.offer(a)) {
                    return a;
                }
                // Sea battles first: landings wait for them (DAAK 4.3(c)).
                let mut open: Vec<_> = s.battles.iter().filter(|b| b.result == BattleResult::Pending).collect();
                open.sort_by_key(|b| b.kind != BattleKind::Sea);
                for b in open {
                    if let Some(a) = self.offer(Action::Battle { at: b.at }) {
                        return a;
                    }
                }
                Action::EndPhase
            }
            Phase::Place if game.relations().is_china(s.turn) => {
                production::china_placement(game, s.turn).and_then(|a| self.offer(a)).unwrap_or(Action::EndPhase)
            }
            Phase::Place => self.place(game).unwrap_or_else(|| {
                // Units that can be placed must be (Anniversary): where the
                // rules refuse to end the phase, some placement is left.
                match game.is_legal(&Action::EndPhase, &FixedDice(1)) {
                    Err(_) => production::any_placement(game, 0).and_then(|a| self.offer(a)).unwrap_or(Action::EndPhase),
                    Ok(()) => Action::EndPhase,
                }
            }),
        }
    }
}

impl<O: Odds> ComputerPlayer<O> {
    /// Casualties, withdrawals and retreats, for whichever side is asked.
    fn battle_decision(&mut self, game: &Game) -> Option<Action> {
        let (i, d) = battle::decision(&game.ruleset, &game.state)?;
        let s = &game.state;
        let b = &s.battles[i];
        Some(match d {
            Decision::Casualties { side, choice, .. } => {
                let attacking = side == battle::BattleSide::Attacker;
                Action::Casualties { units: battle::default_casualties(&game.ruleset, s, &choice, attacking) }
            }
            Decision::AttackerSubmarines | Decision::DefenderSubmarines => self.save_submarines(game, d).unwrap_or(Action::Continue),
            Decision::PressOrRetreat => {
                let attackers: Vec<&Unit> = battle::casualties::attackers(&game.ruleset, s, b).iter().filter_map(|id| s.unit(*id)).collect();
                let defenders: Vec<&Unit> = battle::casualties::defenders(&game.ruleset, s, b).iter().filter_map(|id| s.unit(*id)).collect();
                let chance = self.win_chance(game, &attackers, &defenders, false);
                if chance < self.style.retreat {
                    let only_air = attackers.iter().all(|u| game.ruleset.stats(u.kind).is_air());
                    // Aircraft break off without a destination: when they
                    // attack alone, and from an amphibious assault, whose
                    // land units fight on (where the rules let its aircraft
                    // break off at all, as Europe's do).
                    let options: Vec<Option<SpaceId>> = if only_air || b.amphibious { vec![None] } else { b.came_from.iter().map(|s| Some(*s)).collect() };
                    // A space the attack came from may have been lost since:
                    // each is asked about first (retreats roll no dice).
                    for to in options {
                        if let Some(a) = self.offer(Action::Retreat { to }) {
                            if game.is_legal(&a, &FixedDice(1)).is_ok() {
                                return Some(a);
                            }
                        }
                    }
                }
                Action::Continue
            }
        })
    }

    /// Submarines leave a battle their side is likely to lose (issue 33,
    /// point 14: they never withdrew or submerged): submerged, or withdrawn
    /// to the first zone the rules accept, where the chance that their side
    /// wins the battle from here is below the style's retreat threshold.
    fn save_submarines(&mut self, game: &Game, decision: Decision) -> Option<Action> {
        let (i, _) = battle::decision(&game.ruleset, &game.state)?;
        let (rs, s) = (&game.ruleset, &game.state);
        let b = &s.battles[i];
        let attacking = decision == Decision::AttackerSubmarines;
        let attackers: Vec<&Unit> = battle::casualties::attackers(rs, s, b).iter().filter_map(|id| s.unit(*id)).collect();
        let defenders: Vec<&Unit> = battle::casualties::defenders(rs, s, b).iter().filter_map(|id| s.unit(*id)).collect();
        let attacker_wins = self.win_chance(game, &attackers, &defenders, false);
        let ours = if attacking { attacker_wins } else { 1.0 - attacker_wins };
        if ours >= self.style.retreat {
            return None;
        }
        let mine = |owner| s.allied(owner, b.attacker) == attacking;
        let subs: Vec<UnitId> = s.units.iter().filter(|u| u.at == b.at && mine(u.owner) && rs.stats(u.kind).submarine && !u.flags.submerged).map(|u| u.id).collect();
        if subs.is_empty() {
            return None;
        }
        let places = std::iter::once(None).chain(rs.map.neighbours(b.at).iter().map(|n| Some(*n)));
        places
            .map(|to| Action::Submerge { units: subs.clone(), to })
            .filter_map(|a| self.offer(a))
            .find(|a| game.is_legal(a, &FixedDice(1)).is_ok())
    }

    // ----- purchase -----

    /// What to buy, by role (`Roles`: read from the unit table, only
    /// buyable types): ships for a power that must cross the sea, bombers
    /// with spare money, a capital ship, fighters, then the army: the
    /// defender, one striker for two defenders and, where a unit supports
    /// the defender's attack, one supporter per defender.
    fn purchase(&self, game: &Game, bank: i32, capacity: Capacity) -> Option<Action> {
        let s = &game.state;
        let rs = &game.ruleset;
        let p = s.turn;
        let rel = game.relations();
        let roles = Roles::of(rs);
        let mut bank = bank;
        let mut buy: BTreeMap<UnitType, u32> = BTreeMap::new();
        // Only what the complexes can place this turn is bought (where
        // production is limited; units beyond it would wait or be lost).
        let fits = |buy: &BTreeMap<UnitType, u32>, t: UnitType| {
            let placed: u32 = buy.values().sum();
            let ships: u32 = buy.iter().filter(|(k, _)| rs.stats(**k).is_sea()).map(|(_, n)| n).sum();
            capacity.fits(placed, ships, rs.stats(t).is_sea())
        };
        let take = |buy: &mut BTreeMap<UnitType, u32>, bank: &mut i32, t: Option<UnitType>| -> bool {
            let Some(t) = t else { return false };
            let cost = rs.stats(t).cost as i32;
            if *bank >= cost && fits(buy, t) {
                *bank -= cost;
                *buy.entry(t).or_default() += 1;
                true
            } else {
                false
            }
        };
        let count = |buy: &BTreeMap<UnitType, u32>, t: Option<UnitType>| t.and_then(|t| buy.get(&t).copied()).unwrap_or(0);
        let cost = |t: Option<UnitType>| t.map_or(i32::MAX, |t| rs.stats(t).cost as i32);
        let threatened = self.capital_in_danger(game, p);
        let naval = !threatened && needs_ships(&rel, p);
        if naval {
            let transports = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).transport_capacity() > 0).count();
            // More ships the richer the power, and enough to carry the army
            // waiting at home: troops are worth nothing there.
            let idle = s
                .units
                .iter()
                .filter(|u| u.owner == p && rs.map.is_land(u.at) && rs.stats(u.kind).transport_cost() > 0 && rs.stats(u.kind).is_combatant())
                .count();
            let wanted = (3 + bank as usize / 20).max(idle / 4).min(self.style.transports);
            for _ in transports..wanted {
                if coastal_factory(&rel, p).is_none() || bank < 20 {
                    break;
                }
                take(&mut buy, &mut bank, roles.transport);
            }
        }
        // With transports enough, a naval power's spare money buys bombers:
        // they reach an island fortress from afar and support the landings.
        let army_only = self.style.buy == Buy::Defenders;
        if naval && !army_only {
            let transports = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).transport_capacity() > 0).count();
            let bombers = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).strategic_bomber).count();
            if transports >= 6 {
                // Half of what is left, as long as the air force is small.
                let mut for_bombers = bank / 2;
                while bombers + count(&buy, roles.bomber) as usize <= 8 && for_bombers >= cost(roles.bomber) && take(&mut buy, &mut bank, roles.bomber) {
                    for_bombers -= cost(roles.bomber);
                }
            }
        }
        // The last enemy capital behind a screen of ships: first what
        // sweeps the screen (crate::siege).
        if naval && !army_only && self.style.siege {
            if let Some(screen) = siege::last_capital_screen(&rel, p) {
                let enemies: Vec<&Unit> = rel.enemy_defenders(p, screen).collect();
                let force = siege::strike_force(&rel, p, &buy);
                let factories = production::producing_factories(&rel, p);
                let types = siege::buyable_strikers(&rel, p, screen, &factories);
                siege::buy_breakers(&game.ruleset, &self.odds, &stacks(&enemies), force, &types, self.style.fleet, |t| take(&mut buy, &mut bank, Some(t)));
            }
        }
        let warships = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_sea() && rs.stats(u.kind).attack >= 3).count();
        if naval && !army_only && bank >= 40 && warships < self.style.warships && coastal_factory(&rel, p).is_some() {
            take(&mut buy, &mut bank, roles.capital_ship);
        }
        // A naval power whose seas hold enemy submarines wants a ship that
        // hunts them (where the ruleset has one): without it they strike
        // first and its aircraft cannot hit them.
        if naval && roles.submarine_hunter.is_some() && coastal_factory(&rel, p).is_some() {
            let hunters = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).anti_submarine).count();
            let subs = s.units.iter().filter(|u| rel.enemies(p, u.owner) && rs.stats(u.kind).submarine).count();
            if hunters < subs.div_ceil(2).min(3) && bank >= 2 * cost(roles.submarine_hunter) {
                take(&mut buy, &mut bank, roles.submarine_hunter);
            }
        }
        let fighters = roles.fighter.map_or(0, |f| s.units.iter().filter(|u| u.owner == p && u.kind == f).count());
        match self.style.buy {
            Buy::Standard => {
                if !threatened && bank >= 40 && fighters < 4 {
                    take(&mut buy, &mut bank, roles.fighter);
                }
            }
            // Half the money into fighters, up to eight: they defend the
            // capital, strike fleets and join every battle in reach.
            Buy::Air => {
                let mut for_fighters = bank / 2;
                while fighters + (count(&buy, roles.fighter) as usize) < 8 && for_fighters >= cost(roles.fighter) && take(&mut buy, &mut bank, roles.fighter) {
                    for_fighters -= cost(roles.fighter);
                }
            }
            Buy::Defenders => {}
        }
        // Then the army: a striker for two defenders, and a supporter for
        // each defender where one raises its attack. Where the complexes
        // have less room than the money buys defenders, the money goes into
        // strikers first (and fighters, for a power with money to spare).
        loop {
            let room = capacity.total.map(|t| t.saturating_sub(buy.values().sum::<u32>()));
            let spare = |bank: i32, extra: i32| room.is_some_and(|r| r > 0 && bank - extra >= (r as i32 - 1) * cost(roles.defender));
            if !army_only && spare(bank, cost(roles.fighter)) && fighters + (count(&buy, roles.fighter) as usize) < 8 && take(&mut buy, &mut bank, roles.fighter) {
                continue;
            }
            if spare(bank, cost(roles.striker)) && take(&mut buy, &mut bank, roles.striker) {
                continue;
            }
            let defenders = count(&buy, roles.defender);
            let want_support = !threatened && !army_only && count(&buy, roles.supporter) < defenders;
            let want_striker = !threatened && !army_only && count(&buy, roles.striker) * 2 < defenders;
            let bought = (want_support && take(&mut buy, &mut bank, roles.supporter))
                || (want_striker && take(&mut buy, &mut bank, roles.striker))
                || take(&mut buy, &mut bank, roles.defender);
            if !bought {
                break;
            }
        }
        if buy.is_empty() {
            return None;
        }
        Some(Action::Purchase { units: buy.into_iter().collect() })
    }

    // ----- placement -----

    fn place(&mut self, game: &Game) -> Option<Action> {
        let s = &game.state;
        let rs = &game.ruleset;
        let p = s.turn;
        let rel = game.relations();
        let front = geo::land_distance_to_enemy(&rel, p);
        let capital = geo::home(rs, p);
        let mut factories: Vec<SpaceId> = s
            .units
            .iter()
            .filter(|u| u.owner == p && rs.stats(u.kind).factory && s.control[u.at.index()] == Some(p) && !s.conquered[u.at.index()])
            .map(|u| u.at)
            .collect();
        let threatened = self.capital_in_danger(game, p);
        factories.sort_by_key(|f| (!(threatened && *f == capital), front[f.index()], f.0));
        // One unit at a time: each placed unit may lift the threat to the
        // capital, and the next then goes to the front.
        for (&t, _) in s.purchased.iter() {
            let sea = rs.stats(t).is_sea();
            for &f in &factories {
                let spots: Vec<SpaceId> = if sea { rs.map.neighbours(f).iter().copied().filter(|z| rs.map.is_sea(*z)).collect() } else { vec![f] };
                for at in spots {
                    if let Some(a) = self.offer(Action::Place { at, units: vec![(t, 1)] }) {
                        // Asked first, not tried: a full factory (one captured
                        // places no more than its territory's value) is passed
                        // over without a refusal.
                        if game.is_legal(&a, &FixedDice(1)).is_ok() {
                            return Some(a);
                        }
                        self.refused.insert(format!("{a:?}"));
                    }
                }
            }
        }
        None
    }
}

/// For each space: a sea zone without enemy units of `p` (cargo included),
/// where its ships pass and stop freely.
fn clear_seas(rel: &Relations<'_>, p: PowerId) -> Vec<bool> {
    let rs = rel.rs;
    let mut clear: Vec<bool> = rs.map.ids().map(|z| rs.map.is_sea(z)).collect();
    for u in rel.s.units.iter().filter(|u| rel.enemies(p, u.owner)) {
        clear[u.at.index()] = false;
    }
    clear
}


/// A territory that decides the game: a capital, or a victory city where
/// victory cities decide it (knob `capital_victory = victory_cities`).
fn key_target(rs: &warboard_rules::Ruleset, t: SpaceId) -> bool {
    let sp = rs.map.space(t);
    sp.capital_of.is_some() || (sp.victory_city && rs.options.capital_victory == CapitalVictory::VictoryCities)
}

/// What taking `t` is worth to the planner: its IPCs, and more for a
/// capital (its bank, its production) and a victory city (the game).
fn prize(rs: &warboard_rules::Ruleset, t: SpaceId) -> u32 {
    let sp = rs.map.space(t);
    let capital = if sp.capital_of.is_some() { 25 } else { 0 };
    let city = if sp.victory_city && rs.options.capital_victory == CapitalVictory::VictoryCities { VICTORY_CITY_PRIZE } else { 0 };
    sp.ipc + capital + city
}

/// Enemy attack strength within two land steps of `p`'s capital beyond what
/// defends it (0 when safe).
fn capital_threat(rel: &Relations<'_>, p: PowerId) -> f64 {
    let rs = rel.rs;
    let capital = geo::home(rs, p);
    let d = geo::distances(rel, capital, |x| rs.map.is_land(x));
    let attack: f64 = rel
        .s
        .units
        .iter()
        .filter(|u| rel.enemies(p, u.owner) && rs.map.is_land(u.at) && d[u.at.index()] <= 2 && rs.stats(u.kind).is_combatant())
        .map(|u| rs.stats(u.kind).attack as f64)
        .sum();
    let defense: f64 = rel.units_of(p, capital).map(|u| rs.stats(u.kind).defense as f64).sum();
    (attack - defense).max(0.0)
}

/// How many units stay in the capital.
fn garrison_needed(rel: &Relations<'_>, p: PowerId) -> usize {
    if capital_threat(rel, p) > 0.0 {
        usize::MAX / 2
    } else {
        2
    }
}

/// A power that cannot walk from its capital to enemy land needs ships.
fn needs_ships(rel: &Relations<'_>, p: PowerId) -> bool {
    let rs = rel.rs;
    let d = geo::distances(rel, geo::home(rs, p), |x| rs.map.is_land(x) && !rel.neutral(x));
    !rs.map.ids().any(|t| d[t.index()] < FAR && rel.enemy_land(p, t))
}

fn coastal_factory(rel: &Relations<'_>, p: PowerId) -> Option<SpaceId> {
    let rs = rel.rs;
    rel.s
        .units
        .iter()
        .filter(|u| u.owner == p && rs.stats(u.kind).factory)
        .map(|u| u.at)
        .find(|f| rs.map.neighbours(*f).iter().any(|z| rs.map.is_sea(*z)))
}
