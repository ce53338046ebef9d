//! The computer player: a planner per phase. Purchases follow a budget
//! policy over unit roles read from the ruleset's unit table ([`Roles`]);
//! attacks are chosen by their win chance (through [`Odds`]) and the
//! value of the prize; non-combat moves bring land units to the front, keep
//! the capital garrisoned, ferry troops by transport and land every
//! aircraft safely; new units go to the factory nearest the front.

use crate::convoy::{self, Convoys};
use crate::geo::{self, FAR};
use crate::odds::{ExactOdds, Odds};
use crate::production::{self, Capacity};
use crate::roles::Roles;
use crate::threat::{self, stacks};
use crate::Player;
use std::collections::{BTreeMap, HashSet, VecDeque};
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
        ComputerPlayer { odds, style: Style::STANDARD, plan: VecDeque::new(), planned: false, key: (0, 0, Phase::Research), refused: HashSet::new() }
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
        self.refused.insert(format!("{action:?}"));
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
                    self.plan = if s.phase == Phase::CombatMove { self.plan_attacks(game) } else { self.plan_noncombat(game) };
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
            Decision::AttackerSubmarines | Decision::DefenderSubmarines => Action::Continue,
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

    // ----- combat move -----

    fn plan_attacks(&self, game: &Game) -> VecDeque<Action> {
        let s = &game.state;
        let rs = &game.ruleset;
        let p = s.turn;
        let rel = game.relations();
        let mut plan = VecDeque::new();
        let mut used: HashSet<UnitId> = HashSet::new();
        let capital = geo::home(rs, p);
        let garrison = self.garrison(game, p);
        let allowed = geo::allowed(&rel, p);
        let air_lanes = AirLanes::new(&rel, &allowed);
        // Enemy territories a planned move enters: an empty one is taken by
        // the first unit in, and a second move into it would be no attack.
        let mut entered: HashSet<SpaceId> = HashSet::new();

        // Amphibious landings: every loaded transport beside a target lands
        // together, with aircraft in range, when the odds are good.
        let loaded: Vec<&Unit> = s
            .units
            .iter()
            .filter(|u| u.owner == p && rs.stats(u.kind).transport_capacity() > 0 && !u.flags.transport_unloaded)
            .filter(|u| rel.enemy_units(p, u.at).next().is_none() && s.cargo_of(u.id).any(|c| c.owner == p))
            .collect();
        let open_sea = clear_seas(&rel, p);
        // With convoys, transports that can reach a zone beside the shore
        // this move land too, not only those already beside it.
        let landing_zones: Vec<SpaceId> = if self.style.convoys {
            let mut zones: Vec<SpaceId> = Vec::new();
            for tr in &loaded {
                let left = if tr.flags.moved_in_combat { 0 } else { rs.stats(tr.kind).movement.saturating_sub(tr.moved) as u32 };
                let d = geo::sea_distances(&rel, p, tr.at, |x| open_sea[x.index()]);
                zones.extend(rs.map.ids().filter(|z| d[z.index()] <= left));
            }
            zones
        } else {
            loaded.iter().map(|tr| tr.at).collect()
        };
        let mut shores: Vec<SpaceId> = landing_zones.iter().flat_map(|z| rs.map.neighbours(*z).iter().copied()).filter(|t| rel.enemy_land(p, *t)).collect();
        shores.sort_by_key(|t| std::cmp::Reverse((rs.map.space(*t).capital_of.is_some(), prize(rs, *t))));
        let mut listed = HashSet::new();
        shores.retain(|t| listed.insert(*t));
        for t in shores {
            let defenders: Vec<&Unit> = rel.enemy_defenders(p, t).chain(enemy_aa(&rel, p, t)).collect();
            let free: Vec<&Unit> = loaded.iter().copied().filter(|tr| !used.contains(&tr.id)).collect();
            // Each boat with its route to the zone it lands from (one space:
            // it is there already).
            let mut boats: Vec<(&Unit, Vec<SpaceId>)> = if self.style.convoys {
                convoy::landing_routes(&rel, p, &open_sea, t, &free)
            } else {
                free.into_iter().filter(|tr| rs.map.adjacent(tr.at, t)).map(|tr| (tr, vec![tr.at])).collect()
            };
            // An undefended shore is taken by the first troops to land: the
            // boats of one zone land together, in one move.
            let undefended = rel.enemy_defenders(p, t).next().is_none();
            if undefended {
                let zone = boats.first().and_then(|b| b.1.last().copied());
                boats.retain(|b| b.1.last().copied() == zone);
            }
            let mut force: Vec<&Unit> = boats.iter().flat_map(|(tr, _)| s.cargo_of(tr.id)).filter(|c| c.owner == p).collect();
            let mut air: Vec<&Unit> = Vec::new();
            // Aircraft join only a landing that has a battle to fight.
            let fight = !undefended;
            for a in s.units.iter().filter(|u| fight && u.owner == p && rs.stats(u.kind).is_air() && !used.contains(&u.id)) {
                if air_lanes.strikes(a, t) {
                    air.push(a);
                }
            }
            force.extend(air.iter().copied());
            // Battleships beside the landing bombard it (DAAK 3.5): count them.
            let zones: Vec<SpaceId> = boats.iter().filter_map(|b| b.1.last().copied()).collect();
            force.extend(s.units.iter().filter(|u| u.owner == p && zones.contains(&u.at) && rs.stats(u.kind).bombard > 0 && !u.flags.fought));
            // Against an enemy capital, allies' troops landing right after
            // count too: the first landing wears the garrison down for them.
            let mut judged = force.clone();
            if rs.map.space(t).capital_of.is_some() {
                judged.extend(
                    s.units
                        .iter()
                        .filter(|tr| tr.owner != p && rs.allied(p, tr.owner) && rs.stats(tr.kind).transport_capacity() > 0 && rs.map.adjacent(tr.at, t))
                        .flat_map(|tr| s.cargo_of(tr.id)),
                );
            }
            if force.is_empty() || !self.worth_attacking(game, t, &judged, &defenders, true) {
                continue;
            }
            entered.insert(t);
            let mut together: Vec<UnitId> = Vec::new();
            for (tr, route) in &boats {
                used.insert(tr.id);
                let cargo: Vec<UnitId> = s.cargo_of(tr.id).map(|c| c.id).collect();
                used.extend(cargo.iter().copied());
                if route.len() >= 2 {
                    plan.push_back(Action::Move { units: vec![tr.id], route: route.clone(), transport: None, bombing: false });
                }
                let from = *route.last().unwrap_or(&tr.at);
                if undefended {
                    together.extend(cargo);
                } else {
                    plan.push_back(Action::Move { units: cargo, route: vec![from, t], transport: None, bombing: false });
                }
            }
            if let (false, Some((b, route))) = (together.is_empty(), boats.first()) {
                plan.push_back(Action::Move { units: together, route: vec![*route.last().unwrap_or(&b.at), t], transport: None, bombing: false });
            }
            for a in air {
                used.insert(a.id);
                if let Some(route) = air_lanes.route(a, t) {
                    plan.push_back(Action::Move { units: vec![a.id], route, transport: None, bombing: false });
                }
            }
        }

        // Land attacks: the most valuable targets first.
        let mut targets: Vec<(f64, SpaceId)> = rs
            .map
            .ids()
            .filter(|t| rel.enemy_land(p, *t) && allowed[t.index()])
            .map(|t| (prize(rs, t) as f64, t))
            .collect();
        targets.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (_, t) in targets {
            let defenders: Vec<&Unit> = rel.enemy_defenders(p, t).chain(enemy_aa(&rel, p, t)).collect();
            let mut pool: Vec<&Unit> = Vec::new();
            for &n in rs.map.neighbours(t) {
                if !rel.friendly_land(p, n) {
                    continue;
                }
                let mut movable: Vec<&Unit> = s
                    .units
                    .iter()
                    .filter(|u| u.at == n && u.owner == p && !used.contains(&u.id) && u.moved == 0)
                    .filter(|u| {
                        let st = rs.stats(u.kind);
                        st.is_land() && st.is_combatant() && st.movement > 0
                    })
                    .collect();
                if n == capital {
                    // Keep the garrison home.
                    movable.sort_by_key(|u| rs.stats(u.kind).defense);
                    let keep = garrison.min(movable.len());
                    movable.drain(movable.len() - keep..);
                }
                pool.extend(movable);
            }
            let fight = rel.enemy_defenders(p, t).next().is_some();
            if pool.is_empty() || (!fight && entered.contains(&t)) {
                continue;
            }
            // Strongest attackers first; stop once the odds are good.
            pool.sort_by_key(|u| std::cmp::Reverse(rs.stats(u.kind).attack));
            let mut chosen: Vec<&Unit> = Vec::new();
            if defenders.is_empty() {
                // Walk in with one unit, the cheapest.
                let one = pool.iter().rev().min_by_key(|u| rs.stats(u.kind).cost).copied().unwrap();
                chosen.push(one);
            } else {
                for u in &pool {
                    chosen.push(u);
                    if self.win_chance(game, &chosen, &defenders, false) >= 0.9 {
                        break;
                    }
                }
                let mut chance = self.win_chance(game, &chosen, &defenders, false);
                // Aircraft in range join a battle that needs them.
                if chance < 0.9 && fight {
                    for a in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_air() && !used.contains(&u.id) && !u.flags.bombing) {
                        if air_lanes.strikes(a, t) {
                            chosen.push(a);
                            chance = self.win_chance(game, &chosen, &defenders, false);
                            if chance >= 0.9 {
                                break;
                            }
                        }
                    }
                }
                if chance < self.style.attack {
                    continue;
                }
                if self.style.counter_attacks && rs.map.space(t).capital_of.is_none() && !self.pays_after_counter_attack(game, t, &chosen, &defenders) {
                    continue;
                }
            }
            entered.insert(t);
            for u in &chosen {
                used.insert(u.id);
                let route = if rs.stats(u.kind).is_air() {
                    match air_lanes.route(u, t) {
                        Some(r) => r,
                        None => continue,
                    }
                } else {
                    vec![u.at, t]
                };
                plan.push_back(Action::Move { units: vec![u.id], route, transport: None, bombing: false });
            }
        }

        // Idle bombers raid the richest enemy factory within reach: a power
        // that cannot buy cannot reinforce.
        let bombers: Vec<&Unit> = s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).strategic_bomber && !used.contains(&u.id) && u.moved == 0).collect();
        for b in bombers {
            let target = s
                .units
                .iter()
                .filter(|f| rs.stats(f.kind).factory && rel.enemies(p, f.owner) && rel.enemy_land(p, f.at) && air_lanes.strikes(b, f.at) && !entered.contains(&f.at))
                .filter(|f| s.ipcs[f.owner.index()] >= 3)
                .max_by_key(|f| s.ipcs[f.owner.index()]);
            if let Some(f) = target {
                if let Some(route) = air_lanes.route(b, f.at) {
                    used.insert(b.id);
                    plan.push_back(Action::Move { units: vec![b.id], route, transport: None, bombing: true });
                }
            }
        }

        // Fleets attack enemy ships within reach when clearly stronger;
        // loaded transports within reach sail with them and land beside.
        let clear = |z: SpaceId| open_sea[z.index()];
        let warships: Vec<&Unit> = s
            .units
            .iter()
            .filter(|u| u.owner == p && rs.stats(u.kind).is_sea() && rs.stats(u.kind).attack > 0 && u.moved == 0 && !used.contains(&u.id))
            .collect();
        let enemy_zones: Vec<SpaceId> = rs.map.ids().filter(|z| rs.map.is_sea(*z) && rel.enemy_defenders(p, *z).next().is_some()).collect();
        for z in enemy_zones {
            let mut fleet: Vec<(&Unit, Vec<SpaceId>)> = Vec::new();
            for w in warships.iter().filter(|w| !used.contains(&w.id)) {
                if let Some(route) = geo::sea_path(&rel, p, w.at, z, clear) {
                    if route.len() >= 2 && route.len() - 1 <= rs.stats(w.kind).movement as usize && route.windows(2).all(|x| rel.canal_open(p, x[0], x[1])) {
                        fleet.push((w, route));
                    }
                }
            }
            if fleet.is_empty() && !self.style.air_at_sea {
                continue;
            }
            let enemies: Vec<&Unit> = rel.enemy_defenders(p, z).collect();
            let mut force: Vec<&Unit> = fleet.iter().map(|f| f.0).collect();
            let mut chance = if force.is_empty() { 0.0 } else { self.win_chance(game, &force, &enemies, false) };
            // Fighters and bombers in reach join a sea battle that needs
            // them, or strike a fleet on their own: they must fly home
            // again, so only half their range counts.
            if self.style.air_at_sea && chance < 0.9 {
                for a in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_air() && !used.contains(&u.id) && u.moved == 0 && !u.flags.bombing) {
                    if !air_lanes.strikes(a, z) {
                        continue;
                    }
                    let Some(route) = air_lanes.route(a, z) else { continue };
                    force.push(a);
                    fleet.push((a, route));
                    chance = self.win_chance(game, &force, &enemies, false);
                    if chance >= 0.9 {
                        break;
                    }
                }
            }
            if force.is_empty() || chance < self.style.fleet {
                continue;
            }
            for (w, route) in &fleet {
                used.insert(w.id);
                plan.push_back(Action::Move { units: vec![w.id], route: route.clone(), transport: None, bombing: false });
            }
            // Transports follow into the cleared zone and land troops beside it.
            let shore = rs.map.neighbours(z).iter().copied().filter(|t| rel.enemy_land(p, *t)).max_by_key(|t| (rs.map.space(*t).capital_of.is_some(), prize(rs, *t)));
            let Some(shore) = shore else { continue };
            if entered.contains(&shore) && rel.enemy_defenders(p, shore).next().is_none() {
                continue;
            }
            let defenders: Vec<&Unit> = rel.enemy_defenders(p, shore).chain(enemy_aa(&rel, p, shore)).collect();
            let mut landing: Vec<(&Unit, Vec<SpaceId>)> = Vec::new();
            for tr in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).transport_capacity() > 0 && u.moved == 0 && !used.contains(&u.id)) {
                if s.cargo_of(tr.id).any(|c| c.owner != p) || s.cargo_of(tr.id).next().is_none() {
                    continue;
                }
                if let Some(route) = geo::sea_path(&rel, p, tr.at, z, clear) {
                    if route.len() - 1 <= rs.stats(tr.kind).movement as usize {
                        landing.push((tr, route));
                    }
                }
            }
            let mut troops: Vec<&Unit> = landing.iter().flat_map(|(tr, _)| s.cargo_of(tr.id)).collect();
            // Aircraft in reach of the shore, not yet in a battle, join a
            // landing the troops cannot win alone.
            let mut air: Vec<(&Unit, Vec<SpaceId>)> = Vec::new();
            if self.style.air_at_sea && !troops.is_empty() && !self.worth_attacking(game, shore, &troops, &defenders, true) {
                for a in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_air() && !used.contains(&u.id) && u.moved == 0 && !u.flags.bombing) {
                    if !air_lanes.strikes(a, shore) {
                        continue;
                    }
                    if let Some(route) = air_lanes.route(a, shore) {
                        troops.push(a);
                        air.push((a, route));
                    }
                }
            }
            if troops.is_empty() || !self.worth_attacking(game, shore, &troops, &defenders, true) {
                continue;
            }
            for (a, route) in air {
                used.insert(a.id);
                plan.push_back(Action::Move { units: vec![a.id], route, transport: None, bombing: false });
            }
            entered.insert(shore);
            // Troops landing on an undefended shore go in one move: the
            // first in takes it.
            let undefended = rel.enemy_defenders(p, shore).next().is_none();
            let mut together: Vec<UnitId> = Vec::new();
            for (tr, route) in landing {
                used.insert(tr.id);
                let cargo: Vec<UnitId> = s.cargo_of(tr.id).map(|c| c.id).collect();
                if route.len() >= 2 {
                    plan.push_back(Action::Move { units: vec![tr.id], route: route.clone(), transport: None, bombing: false });
                }
                if undefended {
                    together.extend(cargo);
                } else {
                    plan.push_back(Action::Move { units: cargo, route: vec![z, shore], transport: None, bombing: false });
                }
            }
            if !together.is_empty() {
                plan.push_back(Action::Move { units: together, route: vec![z, shore], transport: None, bombing: false });
            }
        }
        plan
    }

    // ----- non-combat move -----

    fn plan_noncombat(&self, game: &Game) -> VecDeque<Action> {
        let s = &game.state;
        let rs = &game.ruleset;
        let p = s.turn;
        let rel = game.relations();
        let front = geo::land_distance_to_enemy(&rel, p);
        let capital = geo::home(rs, p);
        let garrison = self.garrison(game, p);
        let allowed = geo::allowed(&rel, p);
        let mut plan = VecDeque::new();

        // Aircraft: land where it is safe, nearest the enemy (by air).
        let air_front = {
            let mut d = vec![FAR; rs.map.len()];
            let mut queue: VecDeque<SpaceId> = rs.map.ids().filter(|t| rel.enemy_land(p, *t)).collect();
            for t in &queue {
                d[t.index()] = 0;
            }
            while let Some(x) = queue.pop_front() {
                for &n in rs.map.neighbours(x) {
                    if d[n.index()] == FAR {
                        d[n.index()] = d[x.index()] + 1;
                        queue.push_back(n);
                    }
                }
            }
            d
        };
        for a in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_air()) {
            let left = (rs.stats(a.kind).movement.saturating_sub(a.moved)) as u32;
            let here_ok = rs.map.is_land(a.at) && rel.friendly_since_start(p, a.at) && front[a.at.index()] >= 1;
            let carrier_here = rs.map.is_sea(a.at) && s.units_at(a.at).any(|c| rs.allied(p, c.owner) && rs.stats(c.kind).carrier_capacity() > 0);
            if (here_ok && a.moved == 0 && air_front[a.at.index()] <= 3) || carrier_here || left == 0 {
                continue;
            }
            let d = geo::distances(&rel, a.at, |x| !rel.neutral(x) && allowed[x.index()]);
            let best = rs
                .map
                .ids()
                .filter(|t| d[t.index()] <= left && rel.friendly_since_start(p, *t) && front[t.index()] >= 1)
                .min_by_key(|t| (air_front[t.index()].max(2), std::cmp::Reverse(s.units_at(*t).filter(|u| u.owner == p).count()), d[t.index()]));
            if let Some(t) = best {
                if t != a.at {
                    if let Some(route) = geo::path(&rel, a.at, t, |x| !rel.neutral(x) && allowed[x.index()]) {
                        plan.push_back(Action::Move { units: vec![a.id], route, transport: None, bombing: false });
                    }
                }
            }
        }

        // Transports: load troops and carry them toward the enemy's shores.
        let open_sea = clear_seas(&rel, p);
        let clear = |z: SpaceId| open_sea[z.index()];
        // Troops waiting for a ship beside each sea zone: this power's
        // transportable units on friendly shores away from the front.
        let mut transportable = vec![0usize; rs.map.len()];
        for u in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).transport_cost() > 0 && rs.stats(u.kind).is_combatant()) {
            transportable[u.at.index()] += 1;
        }
        let waiting: Vec<usize> = rs
            .map
            .ids()
            .map(|z| {
                if !rs.map.is_sea(z) {
                    return 0;
                }
                rs.map.neighbours(z).iter().filter(|t| rel.friendly_land(p, **t) && front[t.index()] >= 2).map(|t| transportable[t.index()]).sum()
            })
            .collect();
        let mut boarded: HashSet<UnitId> = HashSet::new();
        // With convoys: loaded transports bound for a zone, moved together
        // after this loop (crate::convoy), and the transports moved here.
        let mut convoy_bound: Vec<(&Unit, SpaceId, usize)> = Vec::new();
        let mut sailed: Vec<&Unit> = Vec::new();
        let target_zones: Vec<SpaceId> = rs
            .map
            .ids()
            .filter(|z| rs.map.is_sea(*z) && rs.map.neighbours(*z).iter().any(|t| rel.enemy_land(p, *t)))
            .collect();
        for tr in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).transport_capacity() > 0) {
            if tr.flags.moved_in_combat || tr.flags.fought || tr.flags.transport_unloaded || !clear(tr.at) {
                continue;
            }
            let mut cargo: Vec<UnitId> = s.cargo_of(tr.id).map(|c| c.id).collect();
            let mut room = rel.transport_room(tr.id);
            // Load from a shore beside it.
            if room > 0 && cargo.iter().all(|c| s.unit(*c).unwrap().owner == p) {
                for &shore in rs.map.neighbours(tr.at) {
                    if !rel.friendly_land(p, shore) || room == 0 {
                        continue;
                    }
                    let keep = if shore == capital { garrison } else { 0 };
                    let mut here: Vec<&Unit> = s
                        .units
                        .iter()
                        .filter(|u| u.at == shore && u.owner == p && u.moved == 0 && !u.flags.moved_in_combat && !u.flags.unloaded && !boarded.contains(&u.id))
                        .filter(|u| rs.stats(u.kind).transport_cost() > 0 && rs.stats(u.kind).is_combatant())
                        .collect();
                    here.sort_by_key(|u| rs.stats(u.kind).transport_cost());
                    let spare = here.len().saturating_sub(keep);
                    for u in here.into_iter().take(spare) {
                        let c = rs.stats(u.kind).transport_cost();
                        if c <= room {
                            room -= c;
                            boarded.insert(u.id);
                            cargo.push(u.id);
                            plan.push_back(Action::Move { units: vec![u.id], route: vec![shore, tr.at], transport: Some(tr.id), bombing: false });
                        }
                    }
                }
            }
            if cargo.is_empty() {
                // Go where troops wait for a ship: a friendly shore with the
                // most of this power's transportable units.
                let d = geo::sea_distances(&rel, p, tr.at, clear);
                let goal = rs
                    .map
                    .ids()
                    .filter(|z| rs.map.is_sea(*z) && d[z.index()] < FAR && waiting[z.index()] > 0)
                    .min_by_key(|z| (d[z.index()], std::cmp::Reverse(waiting[z.index()])));
                if let Some(goal) = goal {
                    sailed.push(tr);
                    plan.extend(sail_toward(&rel, tr, goal, &open_sea));
                }
                continue;
            }
            // Sail toward the nearest zone beside enemy land, through zones
            // without enemy ships.
            // A goal zone held by enemy ships is approached, not entered: the
            // fleet clears it in the next combat move.
            let d = geo::sea_distances(&rel, p, tr.at, clear);
            let reach = |z: SpaceId| d[z.index()].min(rs.map.neighbours(z).iter().map(|n| d[n.index()].saturating_add(1)).min().unwrap_or(FAR));
            // With convoys: toward the shore most worth invading, as far as
            // is safe, with escorts.
            if self.style.convoys {
                let drop = |z: SpaceId| rs.map.neighbours(z).iter().any(|t| rel.friendly_land(p, *t) && allowed[t.index()] && front[t.index()] <= SHUTTLE_FRONT && front[t.index()] >= 1);
                let left = rs.stats(tr.kind).movement.saturating_sub(tr.moved) as u32;
                let shuttle_near = self.style.shuttle && rs.map.ids().any(|z| rs.map.is_sea(z) && d[z.index()] <= left && drop(z));
                if !shuttle_near {
                    if let Some(goal) = convoy::invasion_goal(&rel, p, &target_zones, reach, |t| prize(rs, t)) {
                        convoy_bound.push((tr, goal, cargo.len()));
                        continue;
                    }
                }
            }
            if self.style.shuttle {
                // A friendly shore near the land front, where the troops
                // march on: the nearest by sea, then the nearest the front.
                let drop = |z: SpaceId| {
                    rs.map
                        .neighbours(z)
                        .iter()
                        .copied()
                        .filter(|t| rel.friendly_land(p, *t) && allowed[t.index()] && front[t.index()] <= SHUTTLE_FRONT && front[t.index()] >= 1)
                        .min_by_key(|t| (front[t.index()], t.0))
                };
                let left = rs.stats(tr.kind).movement.saturating_sub(tr.moved) as u32;
                let near = rs.map.ids().filter(|z| rs.map.is_sea(*z) && d[z.index()] <= left).filter_map(|z| drop(z).map(|t| (z, t))).min_by_key(|(z, t)| (front[t.index()], d[z.index()], z.0));
                if let Some((z, t)) = near {
                    if z != tr.at {
                        match geo::sea_path(&rel, p, tr.at, z, clear) {
                            Some(route) if route.len() >= 2 => {
                                sailed.push(tr);
                                plan.push_back(Action::Move { units: vec![tr.id], route, transport: None, bombing: false })
                            }
                            _ => continue,
                        }
                    }
                    plan.push_back(Action::Move { units: cargo, route: vec![z, t], transport: None, bombing: false });
                    continue;
                }
                // Farther off: toward the nearer of a friendly shore and an
                // enemy one.
                let friendly = rs.map.ids().filter(|z| rs.map.is_sea(*z) && d[z.index()] < FAR && drop(*z).is_some()).min_by_key(|z| (d[z.index()], z.0));
                let enemy = target_zones.iter().copied().filter(|z| reach(*z) < FAR).min_by_key(|z| reach(*z));
                let goal = match (friendly, enemy) {
                    (Some(f), Some(e)) => Some(if d[f.index()] <= reach(e) { f } else { e }),
                    (f, e) => f.or(e),
                };
                if let Some(goal) = goal {
                    sailed.push(tr);
                    plan.extend(sail_toward(&rel, tr, goal, &open_sea));
                }
                continue;
            }
            if let Some(goal) = target_zones.iter().copied().filter(|z| reach(*z) < FAR).min_by_key(|z| reach(*z)) {
                sailed.push(tr);
                plan.extend(sail_toward(&rel, tr, goal, &open_sea));
            }
        }

        if self.style.convoys {
            // Convoys sail as far as is safe, with the warships they need;
            // the other warships join the nearest convoy where that is safe.
            let escorts: Vec<&Unit> = s
                .units
                .iter()
                .filter(|u| u.owner == p && rs.map.is_sea(u.at) && u.moved == 0 && !u.flags.moved_in_combat && !u.flags.fought)
                .filter(|u| {
                    let st = rs.stats(u.kind);
                    st.is_sea() && st.defense > 0 && st.transport_capacity() == 0 && st.carrier_capacity() == 0
                })
                .collect();
            let mut movers = sailed.clone();
            movers.extend(convoy_bound.iter().map(|(tr, _, _)| *tr));
            let mut convoys = Convoys::new(&rel, &game.ruleset, &self.odds, p, &open_sea, &movers, escorts);
            // The most troops aboard first: they get the escorts.
            convoy_bound.sort_by_key(|(tr, _, aboard)| (std::cmp::Reverse(*aboard), tr.id));
            for (tr, goal, _) in convoy_bound {
                convoys.advance(tr, goal);
            }
            convoys.gather();
            plan.extend(convoys.moves);
        }

        // Warships keep with the loaded transports.
        let convoy: Vec<SpaceId> = s
            .units
            .iter()
            .filter(|u| u.owner == p && rs.stats(u.kind).transport_capacity() > 0 && s.cargo_of(u.id).next().is_some())
            .map(|u| u.at)
            .collect();
        for w in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).is_sea() && rs.stats(u.kind).attack > 0 && !self.style.convoys) {
            if w.moved > 0 || w.flags.moved_in_combat || w.flags.fought || convoy.is_empty() || convoy.contains(&w.at) {
                continue;
            }
            let d = geo::sea_distances(&rel, p, w.at, clear);
            if let Some(&goal) = convoy.iter().filter(|z| d[z.index()] < FAR).min_by_key(|z| d[z.index()]) {
                plan.extend(sail_toward(&rel, w, goal, &open_sea));
            }
        }

        // Land units: toward the front, keeping the capital's garrison.
        let mut groups: BTreeMap<SpaceId, Vec<&Unit>> = BTreeMap::new();
        for u in s.units.iter().filter(|u| u.owner == p && rs.map.is_land(u.at) && !boarded.contains(&u.id)) {
            let st = rs.stats(u.kind);
            if st.is_land() && st.movement > 0 && !u.flags.moved_in_combat && !u.flags.unloaded && !u.flags.captured && u.moved == 0 {
                groups.entry(u.at).or_default().push(u);
            }
        }
        let capital_in_danger = self.capital_in_danger(game, p);
        // A territory holds one AA gun at most: guns are not sent where one
        // stands (or is going).
        let mut aa_guns = vec![0u32; rs.map.len()];
        for u in s.units.iter().filter(|u| rs.stats(u.kind).anti_aircraft > 0) {
            aa_guns[u.at.index()] += 1;
        }
        for (at, mut units) in groups {
            if at == capital {
                units.sort_by_key(|u| std::cmp::Reverse(rs.stats(u.kind).defense));
                let keep = garrison.min(units.len());
                units.drain(..keep);
            }
            for u in units {
                let st = rs.stats(u.kind);
                // Reinforce a threatened capital first.
                let goal = if capital_in_danger && rs.map.adjacent(at, capital) && rel.friendly_land(p, capital) {
                    Some(capital)
                } else if front[at.index()] >= 2 && front[at.index()] < FAR {
                    let d = geo::distances(&rel, at, |x| rel.friendly_land(p, x) && allowed[x.index()]);
                    rs.map
                        .ids()
                        .filter(|t| d[t.index()] >= 1 && d[t.index()] <= st.movement as u32 && rel.friendly_land(p, *t) && allowed[t.index()])
                        .min_by_key(|t| (front[t.index()], d[t.index()]))
                        .filter(|t| front[t.index()] < front[at.index()])
                } else {
                    None
                };
                if let Some(t) = goal {
                    if let Some(route) = geo::path(&rel, at, t, |x| rel.friendly_land(p, x) && allowed[x.index()]) {
                        if route.len() >= 2 && route.len() - 1 <= st.movement as usize {
                            if st.anti_aircraft > 0 {
                                if aa_guns[t.index()] > 0 {
                                    continue;
                                }
                                aa_guns[t.index()] += 1;
                                aa_guns[at.index()] -= 1;
                            }
                            plan.push_back(Action::Move { units: vec![u.id], route, transport: None, bombing: false });
                        }
                    }
                }
            }
        }
        plan
    }
}

/// An enemy AA gun in a territory: no defender, but it fires at aircraft.
/// Where aircraft may fly in a combat move (no neutrals, no space the plan
/// forbids), with the distances from each place aircraft stand on worked
/// out once for the whole plan.
struct AirLanes<'a, 'r> {
    rel: &'a Relations<'r>,
    allowed: &'a [bool],
    from: std::cell::RefCell<std::collections::HashMap<SpaceId, Vec<u32>>>,
}

impl<'a, 'r> AirLanes<'a, 'r> {
    fn new(rel: &'a Relations<'r>, allowed: &'a [bool]) -> Self {
        AirLanes { rel, allowed, from: Default::default() }
    }

    fn open(&self, x: SpaceId) -> bool {
        !self.rel.neutral(x) && self.allowed[x.index()]
    }

    /// Whether `a` can fight at `t` and fly home again: half its range.
    fn strikes(&self, a: &Unit, t: SpaceId) -> bool {
        let mut from = self.from.borrow_mut();
        let d = from.entry(a.at).or_insert_with(|| geo::distances(self.rel, a.at, |x| self.open(x)));
        d[t.index()] <= self.rel.rs.stats(a.kind).movement as u32 / 2
    }

    fn route(&self, a: &Unit, t: SpaceId) -> Option<Vec<SpaceId>> {
        geo::path(self.rel, a.at, t, |x| self.open(x))
    }
}

fn enemy_aa<'a>(rel: &Relations<'a>, p: PowerId, t: SpaceId) -> impl Iterator<Item = &'a Unit> + 'a {
    let rs = rel.rs;
    rel.enemy_units(p, t).filter(move |u| rs.stats(u.kind).anti_aircraft > 0)
}

/// A non-combat move of a ship as far as it can go toward `goal`, through
/// and into zones free of enemy units (a goal the enemy holds is approached,
/// not entered: the fleet clears it in the next combat move).
fn sail_toward(rel: &Relations<'_>, ship: &Unit, goal: SpaceId, open_sea: &[bool]) -> Option<Action> {
    let rs = rel.rs;
    let p = ship.owner;
    let clear = |z: SpaceId| open_sea[z.index()];
    let mut route = geo::sea_path(rel, p, ship.at, goal, clear)?;
    if !clear(goal) {
        route.pop();
    }
    route.truncate(rs.stats(ship.kind).movement.saturating_sub(ship.moved) as usize + 1);
    (route.len() >= 2).then(|| Action::Move { units: vec![ship.id], route, transport: None, bombing: false })
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
