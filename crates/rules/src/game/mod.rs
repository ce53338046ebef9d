//! A game: a ruleset and a state, and the checked application of actions.
//!
//! Every action is tried on a copy of the state; only when it succeeds does
//! the copy replace the state, so a rejected action changes nothing.

mod landing;
mod capture;
mod convoys;
mod patriotic_war;
mod movement;
mod production;
mod relations;
mod round;
mod turn;

pub use relations::{IncomeParts, Relations};

use crate::action::{reject, reject_with, Action, Event, RuleError};
use crate::dice::DiceSource;
use crate::ids::{PowerId, SpaceId, UnitType};
use crate::ruleset::Ruleset;
use crate::state::{GameState, Phase};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Game {
    pub ruleset: Arc<Ruleset>,
    pub state: GameState,
}

/// Where an action is worked out: the ruleset, the state being changed, the
/// dice and the events produced so far.
pub(crate) struct Ctx<'a> {
    pub rs: &'a Ruleset,
    pub s: &'a mut GameState,
    pub dice: &'a mut dyn DiceSource,
    pub events: Vec<Event>,
    /// The power taking the action: whose turn it is, or in a phase of the
    /// whole round the power that named itself.
    pub by: PowerId,
}

impl Game {
    /// The map with every territory held by its original owner, no units and
    /// empty banks: FORMAT.md's `"setup": "empty"`.
    pub fn empty(ruleset: Arc<Ruleset>) -> Game {
        let control: Vec<Option<PowerId>> = ruleset.map.spaces.iter().map(|s| s.original_controller()).collect();
        let n = ruleset.map.len();
        let powers = ruleset.power_count();
        let structure = &ruleset.turn;
        let state = GameState {
            round: 1,
            turn: structure.order[0],
            phase: structure.round_phases.first().or(structure.turn_phases.first()).copied().unwrap_or(Phase::Research),
            order: structure.order.clone(),
            done: Vec::new(),
            start_control: control.clone(),
            control,
            conquered: vec![false; n],
            ipcs: vec![0; powers],
            units: Vec::new(),
            next_unit: 0,
            purchased: BTreeMap::new(),
            unplaced: BTreeMap::new(),
            placed: BTreeMap::new(),
            neutral_fees: 0,
            researched: false,
            battles: Vec::new(),
            developments: vec![0; powers],
            researchers: vec![0; powers],
            teams: ruleset.initial_teams(),
            capitals_held: Vec::new(),
            winner: None,
            eliminated: Vec::new(),
            relocating: Vec::new(),
            next_placer: None,
            seq: 0,
        };
        Game { ruleset, state }
    }

    /// The ruleset's published starting position.
    pub fn standard(ruleset: Arc<Ruleset>) -> Game {
        let mut game = Game::empty(ruleset.clone());
        game.state.ipcs = ruleset.setup.ipcs.clone();
        for &(at, owner) in &ruleset.setup.control {
            game.state.control[at.index()] = Some(owner);
        }
        for u in &ruleset.setup.units {
            for _ in 0..u.count {
                game.state.add_unit(u.kind, u.owner, u.at);
            }
        }
        // Cargo fills the owner's transports there in order, each as far as
        // its room goes (checked on load).
        for c in &ruleset.setup.aboard {
            for _ in 0..c.count {
                let size = ruleset.stats(c.kind).transport_cost();
                let rel = game.relations();
                let transport = game
                    .state
                    .units
                    .iter()
                    .filter(|t| t.at == c.at && t.owner == c.owner && ruleset.stats(t.kind).transport_capacity() > 0)
                    .map(|t| t.id)
                    .find(|t| rel.transport_room(*t) >= size);
                let id = game.state.add_unit(c.kind, c.owner, c.at);
                game.state.unit_mut(id).unwrap().carried_by = transport;
            }
        }
        game.settle_position();
        game
    }

    /// After a position was built by hand (a setup, a case's `state`, a
    /// save): take the turn as starting from here. Control now is the control
    /// at the start of the turn, and cargo aboard another power's transport
    /// counts as already carried by it (FORMAT.md, DAAK 3.3(b) step 2).
    pub fn settle_position(&mut self) {
        // Convoy zones go to the side whose warships alone are there
        // (FORMAT.md v2, "Convoys": "whenever").
        convoys::settle_convoys(&self.ruleset, &mut self.state);
        // Combined nations (ALT L58): every member's units are the group's.
        for group in self.ruleset.options.combining_nations.iter() {
            let ids: Vec<PowerId> = group.nations.iter().filter_map(|n| self.ruleset.power_by_name(n)).collect();
            if let Some((&lead, rest)) = ids.split_first() {
                for u in self.state.units.iter_mut().filter(|u| rest.contains(&u.owner)) {
                    u.owner = lead;
                }
            }
        }
        let s = &mut self.state;
        s.start_control = s.control.clone();
        s.conquered = vec![false; s.control.len()];
        s.units.sort_by_key(|u| u.id);
        let owners: BTreeMap<_, _> = s.units.iter().map(|u| (u.id, u.owner)).collect();
        for u in &mut s.units {
            if let Some(c) = u.carried_by {
                if owners.get(&c) != Some(&u.owner) {
                    u.flags.shuttled = true;
                }
            }
        }
    }

    /// Applies an action, or rejects it and leaves the game unchanged.
    pub fn apply(&mut self, action: &Action, dice: &mut dyn DiceSource) -> Result<Vec<Event>, RuleError> {
        self.apply_as(None, action, dice)
    }

    /// Applies an action taken by `power` (FORMAT.md v2, "`power` on
    /// actions"): in a phase of the whole round it says which power acts;
    /// elsewhere it must be the power that may act now. `None`: the power
    /// whose turn it is, or the side a battle waits for.
    pub fn apply_as(&mut self, power: Option<PowerId>, action: &Action, dice: &mut dyn DiceSource) -> Result<Vec<Event>, RuleError> {
        let by = self.check_actor(power, action)?;
        let mut next = self.state.clone();
        let events = {
            let mut ctx = Ctx { rs: &self.ruleset, s: &mut next, dice, events: Vec::new(), by };
            ctx.apply(action)?;
            convoys::settle_convoys(ctx.rs, ctx.s);
            ctx.events
        };
        next.seq += 1;
        self.state = next;
        Ok(events)
    }

    /// Whether an action would be accepted now (tried on copies of the game
    /// and the dice).
    pub fn is_legal(&self, action: &Action, dice: &dyn DiceSource) -> Result<(), RuleError> {
        let mut copy = self.clone();
        let mut d = dice.boxed_clone();
        copy.apply(action, d.as_mut()).map(|_| ())
    }

    /// Whether `power` may take `action` now (tried on a copy, dice that
    /// always miss).
    pub fn is_legal_as(&self, power: Option<PowerId>, action: &Action) -> bool {
        let mut copy = self.clone();
        copy.apply_as(power, action, &mut crate::dice::FixedDice(6)).is_ok()
    }

    pub fn relations(&self) -> Relations<'_> {
        Relations { rs: &self.ruleset, s: &self.state }
    }

    /// The income a power would collect if its turn ended now.
    pub fn income(&self, p: PowerId) -> i32 {
        self.relations().income(p)
    }

    /// Whose decision the game waits for: the defender chooses casualties
    /// during the attacker's turn (DESIGN.md: who acts now is not whose turn
    /// it is); in a phase of the whole round, the first power still to end
    /// it (see [`Game::actors`] for all of them).
    pub fn actor(&self) -> Actor {
        if self.state.winner.is_some() {
            return Actor::Terminal;
        }
        if let Some(p) = self.actors().first() {
            return Actor::Power(*p);
        }
        // A defending plane waiting to be flown to one of its landings.
        if let Some(p) = self.state.relocating.first().and_then(|(id, _)| self.state.unit(*id)).map(|u| u.owner) {
            return Actor::Power(p);
        }
        // Fair buying: the nation whose go it is to put a unit down.
        if let Some(p) = self.state.next_placer.filter(|_| self.round_phase()) {
            return Actor::Power(p);
        }
        if let Some(p) = crate::battle::awaiting(&self.ruleset, &self.state) {
            return Actor::Power(p);
        }
        // A phase of the whole round that any nation in the game may end
        // (Alternative payday): the first of them in the round's order,
        // never a nation that is out (with random_turn_order last round's
        // order, still standing at payday, may begin with one).
        if self.round_phase() && !self.state.phase.each_power_acts() && !self.relations().in_game(self.state.turn) {
            let rel = self.relations();
            if let Some(p) = self.state.order.iter().copied().chain(self.ruleset.power_ids()).find(|p| rel.in_game(*p)) {
                return Actor::Power(p);
            }
        }
        Actor::Power(self.state.turn)
    }

    /// Whether the current phase belongs to the whole round, where several
    /// powers act in any order (FORMAT.md v2: alternative's shopping).
    pub fn round_phase(&self) -> bool {
        self.relations().in_round_phase()
    }

    /// In a phase of the whole round, the powers still to end it, in turn
    /// order; empty in a power's turn.
    pub fn actors(&self) -> Vec<PowerId> {
        self.relations().round_actors()
    }

    /// The power an action is taken by, or why `power` may not take it.
    fn check_actor(&self, power: Option<PowerId>, action: &Action) -> Result<PowerId, RuleError> {
        let rs = &self.ruleset;
        if let Action::Surrender { team } = action {
            // A team may give up at any time, by any power of it.
            if !self.state.teams.names.iter().any(|n| n == team) {
                return reject_with(
                    "surrender/unknown-team",
                    format!("there is no team `{team}` in this game"),
                    &[("team", team.as_str())],
                );
            }
            return match power {
                None => Ok(self.state.turn),
                Some(p) if self.state.teams.team_of(p) == Some(team.as_str()) => Ok(p),
                Some(p) => reject_with(
                    "action/not-your-turn",
                    format!("{} is not on the {team} team", rs.power(p).id),
                    &[("power", rs.power(p).id.as_str()), ("powerTeam", team.as_str())],
                ),
            };
        }
        if let Action::SurrenderNation { power: p } = action {
            return Ok(*p);
        }
        // Defending planes to relocate come first (ALT L40).
        if let Some(owner) = self.state.relocating.first().and_then(|(id, _)| self.state.unit(*id)).map(|u| u.owner) {
            return match (action, power) {
                (Action::Move { .. }, None) => Ok(owner),
                (Action::Move { .. }, Some(p)) if p == owner => Ok(p),
                _ => reject_with(
                    "battle/planes-to-relocate",
                    format!("{}'s planes left without a ship fly to one of their nearest landings first: a `move` by {} (ALT L40)", rs.power(owner).id, rs.power(owner).id),
                    &[("power", rs.power(owner).id.as_str())],
                ),
            };
        }
        // Fair buying: once every nation has ended its buying, the nation
        // whose go it is puts down one unit (ALT L60).
        if let Some(next) = self.state.next_placer.filter(|_| self.round_phase()) {
            return match (action, power) {
                (Action::Place { .. }, Some(p)) if p == next => Ok(p),
                (Action::Place { .. }, None) => Ok(next),
                (Action::Place { .. }, Some(p)) => reject_with(
                    "place/not-your-go",
                    format!("with fair buying it is {}'s go to put down a unit, not {}'s (ALT L60)", rs.power(next).id, rs.power(p).id),
                    &[("powerNext", rs.power(next).id.as_str()), ("power", rs.power(p).id.as_str())],
                ),
                _ => reject_with(
                    "shopping/placing",
                    format!("every nation has ended its buying: units are put down one at a time, {} next (ALT L60)", rs.power(next).id),
                    &[("powerNext", rs.power(next).id.as_str())],
                ),
            };
        }
        // Interceptors of a captured territory move out in the attacker's
        // combat phase (AA50 FAQ: Additional Optional Rules).
        if let (Action::Move { .. }, Some(p)) = (action, power) {
            if p != self.state.turn && self.state.phase == Phase::Combat && !self.round_phase() {
                return Ok(p);
            }
        }
        if let Action::Intercept { .. } = action {
            // The defender acts in the attacker's turn (FORMAT.md v2).
            return match power {
                Some(p) => Ok(p),
                None => reject("action/who", "an interception names the defending `power`"),
            };
        }
        if self.round_phase() {
            let actors = self.actors();
            return match power {
                Some(p) if actors.contains(&p) => Ok(p),
                // A phase nobody acts in on their own (payday) is ended by
                // any nation in the game.
                Some(p) if actors.is_empty() && !self.state.phase.each_power_acts() && matches!(action, Action::EndPhase) && self.relations().in_game(p) => Ok(p),
                Some(p) if self.state.phase == Phase::Shopping && rs.options.buy_on_claimed_territory && self.relations().capital_lost(p) => {
                    reject_with(
                        "shopping/no-capital",
                        format!(
                            "{} claims no capital it may use: it is paid nothing and buys nothing until it takes one back (ALT L4)",
                            rs.power(p).id
                        ),
                        &[("power", rs.power(p).id.as_str())],
                    )
                }
                Some(p) => reject_with(
                    "action/not-your-turn",
                    format!("{} has ended this phase already or is out of the game", rs.power(p).id),
                    &[("power", rs.power(p).id.as_str())],
                ),
                // Ending a phase in which nobody acts on their own (payday).
                None if matches!(action, Action::EndPhase) && actors.is_empty() => Ok(self.state.turn),
                None => reject("action/who", "in this phase several powers act: the action names its `power`"),
            };
        }
        let Some(p) = power else { return Ok(self.state.turn) };
        let name = |p: PowerId| rs.power(p).id.as_str();
        let decision = matches!(action, Action::Casualties { .. } | Action::Continue | Action::Retreat { .. } | Action::Submerge { .. });
        match crate::battle::awaiting(rs, &self.state).filter(|_| decision) {
            // A battle decision may name any power of the side asked.
            Some(asked) if self.state.allied(p, asked) => Ok(self.state.turn),
            Some(asked) => {
                let at = crate::battle::current(&self.state).map(|i| rs.map.name(self.state.battles[i].at)).unwrap_or("?");
                reject_with(
                    "action/not-your-turn",
                    format!("the battle at {at} waits for {} or an ally, not {}", name(asked), name(p)),
                    &[("at", at), ("powerAsked", name(asked)), ("power", name(p))],
                )
            }
            None if p == self.state.turn => Ok(p),
            None => reject_with(
                "action/not-your-turn",
                format!("it is {}'s turn, not {}'s", name(self.state.turn), name(p)),
                &[("powerTurn", name(self.state.turn)), ("power", name(p))],
            ),
        }
    }
}

/// Who acts now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Power(PowerId),
    Terminal,
}

impl Ctx<'_> {
    pub fn rel(&self) -> Relations<'_> {
        Relations { rs: self.rs, s: self.s }
    }

    fn apply(&mut self, action: &Action) -> Result<(), RuleError> {
        if let Some(w) = &self.s.winner {
            let rs = self.rs;
            return reject("game/over", format!("the game is over: {} won", w.describe(|p| rs.power(p).id.clone())));
        }
        if let Action::Surrender { team } = action {
            return self.surrender_team(team);
        }
        let phase = self.s.phase;
        let in_battle = matches!(
            action,
            Action::Battle { .. } | Action::Casualties { .. } | Action::Continue | Action::Retreat { .. } | Action::Submerge { .. } | Action::Resolve { .. }
        );
        if let Action::SurrenderNation { power } = action {
            return self.surrender_nation(*power);
        }
        if in_battle {
            // Under free movement battles are fought in the turn they are
            // started in (ALT L44).
            if phase == Phase::Turn && self.rs.options.free_movement {
                return crate::battle::act(self, action);
            }
            if phase != Phase::Combat {
                return reject("battle/not-combat-phase", "battles are fought in the combat phase");
            }
            return crate::battle::act(self, action);
        }
        match action {
            Action::Research { dice, development, chart } => self.research(*dice, *development, *chart),
            Action::Repair { at, count } => self.repair_factory(*at, *count),
            Action::Rocket { from, at } => self.rocket(*from, *at),
            Action::Purchase { units } => self.purchase(units),
            Action::Move { units, route, .. } if !self.s.relocating.is_empty() => self.relocate_plane(units, route),
            Action::Move { units, route, .. } if self.by != self.s.turn => self.relocate_interceptors(units, route),
            Action::Move { units, route, transport, .. } if self.rs.options.free_movement => {
                if self.s.phase != Phase::Turn {
                    return reject("move/wrong-phase", "units move in their nation's turn");
                }
                self.move_free(units, route, *transport)
            }
            Action::Lend { units, route, to } => self.lend(units, route, *to),
            Action::Reclaim { at, units } => self.reclaim(*at, units),
            Action::Place { at, units } if self.s.phase == Phase::Shopping => self.place_bought(*at, units),
            Action::Move { units, route, transport, bombing } => self.move_units(units, route, *transport, *bombing),
            Action::EndPhase => self.end_phase(),
            Action::Place { at, units } => self.place(*at, units),
            Action::Convert { at, units } => self.convert(*at, units),
            Action::Intercept { at, units } => self.intercept(*at, units),
            _ => unreachable!("battle actions handled above"),
        }
    }

    pub fn roll(&mut self) -> Result<u8, RuleError> {
        self.dice.roll().map_err(|e| RuleError::new("dice/exhausted", e.to_string()))
    }

    pub fn name(&self, s: SpaceId) -> &str {
        self.rs.map.name(s)
    }
    pub fn power_name(&self, p: PowerId) -> &str {
        &self.rs.power(p).id
    }
    pub fn stats(&self, t: UnitType) -> &crate::ruleset::UnitStats {
        self.rs.stats(t)
    }
}
