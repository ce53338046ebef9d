//! What the exact calculation needs to know about one battle, taken from the
//! rules core: the unit table of the ruleset, and the standalone battle
//! position the battle engine itself would fight (which also validates the
//! battle: whatever the engine cannot set up, the calculator refuses too).

use crate::spec::{Army, Battle};
use crate::CalcError;
use std::sync::Arc;
use warboard_rules::battle::casualties::loss_order_key;
use warboard_rules::battle::standalone::{build, BattleSpec, Standalone};
use warboard_rules::ruleset::{FirstStrike, UnitStats};
use warboard_rules::{Domain, Ruleset, UnitType};

/// Unit types in warboard's vocabulary.
pub(crate) const TYPES: usize = UnitType::ALL.len();

/// What a unit type does in battle, read from the ruleset's unit table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct UnitProfile {
    pub domain: Domain,
    pub cost: u32,
    pub attack: u8,
    pub defense: u8,
    pub submarine: bool,
    pub bombard: u8,
    pub transport: bool,
    pub carrier_cost: u8,
    pub carrier_capacity: u8,
    /// Hits it takes to sink (`hit_points`: Europe's battleships have two).
    /// A hit that leaves it afloat damages it; damaged units fire as before.
    pub hit_points: u8,
    /// Strikes first when attacking (`first_strike`: submarines), unless the
    /// enemy has an anti-submarine unit in the battle.
    pub first_strike: bool,
    /// Cancels the enemy's first strikes, and lets its side's aircraft hit
    /// submarines (`anti_submarine`: destroyers).
    pub anti_submarine: bool,
    /// Raises one attacking unit of this type to this attack value
    /// (`support`: artillery raising infantry), one to one.
    pub support: Option<(UnitType, u8)>,
    /// The engine's default order of loss for this type, attacking and
    /// defending (`battle::casualties::loss_order_key`).
    pub loss_key: [(bool, u32, u8); 2],
}

impl UnitProfile {
    fn from_stats(st: &UnitStats) -> UnitProfile {
        UnitProfile {
            domain: st.domain,
            cost: st.cost,
            attack: st.attack,
            defense: st.defense,
            submarine: st.submarine,
            bombard: st.bombard,
            transport: st.transport_capacity() > 0,
            carrier_cost: st.carrier_cost(),
            carrier_capacity: st.carrier_capacity(),
            hit_points: st.hit_points.max(1),
            first_strike: st.first_strike != FirstStrike::None,
            anti_submarine: st.anti_submarine,
            support: st.support.map(|s| (s.target, s.attack)),
            loss_key: [loss_order_key(st, true), loss_order_key(st, false)],
        }
    }

    /// Its place in the default order of loss in its role.
    pub fn loss_key(&self, attacking: bool) -> (bool, u32, u8) {
        self.loss_key[usize::from(!attacking)]
    }

    pub fn is_air(&self) -> bool {
        self.domain == Domain::Air
    }
    pub fn is_land(&self) -> bool {
        self.domain == Domain::Land
    }
}

/// Placeholder for unit types the ruleset lacks (never in a valid battle).
const ABSENT: UnitProfile = UnitProfile {
    domain: Domain::Land,
    cost: 0,
    attack: 0,
    defense: 0,
    submarine: false,
    bombard: 0,
    transport: false,
    carrier_cost: 0,
    carrier_capacity: 0,
    hit_points: 1,
    first_strike: false,
    anti_submarine: false,
    support: None,
    loss_key: [(false, 0, 0); 2],
};

/// One battle as the calculator models it.
#[derive(Clone, Debug)]
pub(crate) struct BattleModel {
    pub profiles: [UnitProfile; TYPES],
    pub sea: bool,
    /// A land battle whose land units come from transports: battleships
    /// bombard in round one; no retreat (DAAK 3.5, 4.3(b)).
    pub amphibious: bool,
    /// Attacking units that fire and can be hit.
    pub attackers: Army,
    /// Defending units that fire and can be hit (no AA guns or factories,
    /// DAAK 3.1(c)).
    pub defenders: Army,
    /// Attacking ships off a land battle: they only bombard (amphibious) and
    /// are never hit (DAAK 3.5(b)).
    pub bystanders: Army,
    /// The defender's AA gun's value (0: none): one die per attacking
    /// aircraft in round one of a land battle.
    pub aa_value: u8,
    /// One die each in round one: the bombarding ships' values (classic's
    /// battleships; Europe's battleships and destroyers).
    pub bombard_values: Vec<u8>,
    /// Submarines' hits may take aircraft (knob `submarines_hit_aircraft`).
    pub subs_hit_aircraft: bool,
    /// Aircraft hit submarines only with an anti-submarine unit of their
    /// side in the battle (knob `air_needs_anti_submarine`).
    pub air_needs_anti_submarine: bool,
    /// Units already damaged (a mid-battle position: Monte Carlo's retreat
    /// decisions), counted among `attackers` and `defenders` too.
    pub attackers_damaged: Army,
    pub defenders_damaged: Army,
    /// After a sea battle, defending aircraft without room on a surviving
    /// carrier are lost: there is no friendly island in the zone to land on.
    pub stranded_aircraft_lost: bool,
}

/// A rule of the unit table that this battle uses and the calculator does
/// not model (issue 10: it says so rather than answer wrongly). Monte
/// Carlo runs the battle engine, so it models them all.
///
/// Modelled: support (one supporter raises one unit of its target type
/// when attacking), units of two hit points, first strikes when attacking
/// and their cancelling by an enemy anti-submarine unit, aircraft that hit
/// submarines only beside an anti-submarine unit of their side, and
/// submarines whose hits never take aircraft.
pub(crate) fn unmodelled(rs: &Ruleset, battle: &Battle) -> Option<String> {
    let types: Vec<UnitType> = battle.attackers.iter().chain(battle.defenders.iter()).map(|(t, _)| t).collect();
    let mut supports: Vec<(UnitType, u8)> = Vec::new();
    for t in &types {
        // A type the ruleset lacks is refused by the model, with its reason.
        let Some(st) = rs.unit(*t) else { continue };
        if let Some(s) = st.support {
            if !supports.contains(&(s.target, s.attack)) {
                supports.push((s.target, s.attack));
            }
        }
        let what = if st.first_strike == FirstStrike::Both {
            "first strikes by defending units (Anniversary submarines)"
        } else if st.first_strike == FirstStrike::Attack && !st.submarine {
            "first strikes by units other than submarines"
        } else if st.defenseless {
            "defenseless units (lost without dice when their side cannot hurt the enemy)"
        } else if st.hit_points > 2 {
            "units of more than two hit points"
        } else {
            continue;
        };
        return Some(format!("{what} ({t} in this battle)"));
    }
    if supports.len() > 1 {
        return Some("two kinds of support in one battle".to_string());
    }
    None
}

/// Whether a unit type fights (AA guns and factories never do).
fn is_combatant(rs: &Ruleset, t: UnitType) -> bool {
    rs.stats(t).is_combatant()
}

impl BattleModel {
    /// The model of `battle`, and the engine's standalone position for it.
    /// Errors are the engine's own (what cannot be set up), plus attackers
    /// that cannot attack.
    pub fn new(rs: &Arc<Ruleset>, battle: &Battle, amphibious: bool) -> Result<(BattleModel, Standalone), CalcError> {

        let spec = BattleSpec { attackers: battle.attackers.to_pairs(), defenders: battle.defenders.to_pairs(), amphibious };
        let standalone = build(rs.clone(), &spec).map_err(CalcError::Impossible)?;
        let mut profiles = [ABSENT; TYPES];
        for st in rs.unit_types() {
            profiles[st.kind.index()] = UnitProfile::from_stats(st);
        }
        if let Some((t, _)) = battle.attackers.iter().find(|(t, _)| !is_combatant(rs, *t)) {
            return Err(CalcError::Impossible(format!("{t} units do not attack")));
        }
        let sea = rs.map.is_sea(standalone.at);
        // As the standalone position sets it up: in a land battle attacking
        // ships stay in the sea zone; the attack is amphibious when a land
        // unit lands from a transport (fire.rs, start_of_battle).
        let land_attackers = battle.attackers.iter().any(|(t, _)| profiles[t.index()].is_land());
        let amphibious = amphibious && !sea && land_attackers;
        let attackers = battle.attackers.filter(|t| sea || profiles[t.index()].domain != Domain::Sea);
        let bystanders = battle.attackers.filter(|t| !sea && profiles[t.index()].domain == Domain::Sea);
        if attackers.is_empty() {
            return Err(CalcError::Impossible(
                "no attacking unit takes part: ships do not fight in a land battle, and bombard only with land units landing".into(),
            ));
        }
        let defenders = battle.defenders.filter(|t| is_combatant(rs, t));
        // fire.rs, aa_fire: the first enemy AA gun in the territory fires,
        // in land battles only.
        let aa_value = if sea { 0 } else { battle.defenders.iter().map(|(t, _)| rs.stats(t).anti_aircraft).find(|v| *v > 0).unwrap_or(0) };
        // fire.rs, bombard: every attacking ship with a bombard value in the
        // zone the landing came from, once each.
        let mut bombard_values = Vec::new();
        if amphibious {
            for (t, n) in bystanders.iter() {
                let v = profiles[t.index()].bombard;
                if v > 0 {
                    bombard_values.extend((0..n).map(|_| v));
                }
            }
        }
        let stranded_aircraft_lost = sea && !friendly_island(rs, &standalone);
        let model = BattleModel {
            profiles,
            sea,
            amphibious,
            attackers,
            defenders,
            bystanders,
            aa_value,
            bombard_values,
            subs_hit_aircraft: rs.options.submarines_hit_aircraft,
            air_needs_anti_submarine: rs.options.air_needs_anti_submarine,
            attackers_damaged: Army::new(),
            defenders_damaged: Army::new(),
            stranded_aircraft_lost,
        };
        Ok((model, standalone))
    }

    pub fn profile(&self, t: UnitType) -> &UnitProfile {
        &self.profiles[t.index()]
    }

    /// IPC value of an army.
    pub fn cost(&self, army: &Army) -> f64 {
        army.iter().map(|(t, n)| self.profile(t).cost as f64 * n as f64).sum()
    }

    /// `army` with the attacker's ships standing by (they bombard, are
    /// never hit and are still there at the end).
    pub fn with_bystanders(&self, mut army: Army) -> Army {
        for (t, n) in self.bystanders.iter() {
            army.add(t, n);
        }
        army
    }

    /// Whether an attacker left with `army` takes a land territory: only
    /// land units capture (fire.rs, end).
    pub fn captures(&self, army: &Army) -> bool {
        !self.sea && army.iter().any(|(t, _)| self.profile(t).is_land())
    }

    /// The defenders left after a sea battle ends: fighters of a sunk
    /// carrier land on another carrier with room, or on a friendly island
    /// in the zone, or are lost (fire.rs, rehouse_defending_fighters, DAAK
    /// 3.4(b)). Aircraft in unit-table order take the first carrier with
    /// room, as the engine does with units in the order they were placed.
    pub fn after_sea_battle(&self, defenders: Army) -> Army {
        if !self.stranded_aircraft_lost {
            return defenders;
        }
        let mut rooms: Vec<u32> = Vec::new();
        for (t, n) in defenders.iter() {
            let cap = self.profile(t).carrier_capacity as u32;
            if cap > 0 {
                rooms.extend((0..n).map(|_| cap));
            }
        }
        let mut left = defenders;
        for (t, n) in defenders.iter().filter(|(t, _)| self.profile(*t).is_air()) {
            let cost = self.profile(t).carrier_cost as u32;
            for _ in 0..n {
                match rooms.iter_mut().find(|r| **r >= cost).filter(|_| cost > 0) {
                    Some(room) => *room -= cost,
                    None => left.remove(t, 1),
                }
            }
        }
        left
    }
}

/// Whether the battle zone surrounds an island friendly to the defender,
/// where its aircraft could land after the battle.
fn friendly_island(rs: &Ruleset, st: &Standalone) -> bool {
    let state = &st.game.state;
    let Some(defender) = state.units.iter().map(|u| u.owner).find(|p| *p != state.turn) else {
        return false;
    };
    let relations = st.game.relations();
    rs.map.ids().filter(|t| rs.map.space(*t).island_in == Some(st.at)).any(|t| relations.friendly_land(defender, t))
}
