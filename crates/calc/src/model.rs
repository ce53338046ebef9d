//! What the exact calculation needs to know about one battle, taken from the
//! rules core: the unit table of the ruleset, and the standalone battle
//! position the battle engine itself would fight (which also validates the
//! battle: whatever the engine cannot set up, the calculator refuses too).

use crate::dist::die_code;
use crate::spec::{Army, Battle, Developments};
use crate::CalcError;
use std::sync::Arc;
use warboard_rules::battle::casualties::loss_order_key;
use warboard_rules::battle::standalone::{build, BattleSpec, Standalone};
use warboard_rules::ruleset::{FirstStrike, UnitStats};
use warboard_rules::state::Development;
use warboard_rules::{Domain, Ruleset, UnitType};

/// Unit types in warboard's vocabulary.
pub(crate) const TYPES: usize = UnitType::ALL.len();

/// What a unit type does in battle, read from the ruleset's unit table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct UnitProfile {
    pub domain: Domain,
    pub cost: u32,
    /// How it fires attacking and defending, as die codes (`dist`): its
    /// unit-table values with its side's developments (fire.rs,
    /// `value_of`). 0: no die.
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
    /// Strikes first when defending too (`first_strike = "both"`:
    /// Anniversary's submarines), unless the enemy has an anti-submarine
    /// unit in the battle.
    pub first_strike_defending: bool,
    /// Taken as a casualty only when no other unit can take the hit, and
    /// lost without dice when its side cannot hurt the enemy and the enemy
    /// can hit it (`defenseless`: Anniversary's transports).
    pub defenseless: bool,
    /// Cancels the enemy's first strikes, and lets its side's aircraft hit
    /// submarines (`anti_submarine`: destroyers).
    pub anti_submarine: bool,
    /// Raises attacking units of this type to this attack value (`support`:
    /// artillery raising infantry), this many each (one; two with
    /// Advanced Artillery).
    pub support: Option<(UnitType, u8)>,
    pub support_count: u8,
    /// The engine's default order of loss for this type, attacking and
    /// defending (`battle::casualties::loss_order_key`).
    pub loss_key: [(bool, u32, u8); 2],
}

impl UnitProfile {
    /// The profile of a unit type whose attacker has developments `att` and
    /// whose defender has `def`.
    fn from_stats(rs: &Ruleset, st: &UnitStats, att: Developments, def: Developments) -> UnitProfile {
        UnitProfile {
            domain: st.domain,
            cost: st.cost,
            attack: firing(rs, st, true, att),
            defense: firing(rs, st, false, def),
            submarine: st.submarine,
            bombard: st.bombard,
            transport: st.transport_capacity() > 0,
            carrier_cost: st.carrier_cost(),
            carrier_capacity: st.carrier_capacity(),
            hit_points: st.hit_points.max(1),
            first_strike: st.first_strike != FirstStrike::None,
            first_strike_defending: st.first_strike == FirstStrike::Both,
            defenseless: st.defenseless,
            anti_submarine: st.anti_submarine,
            support: st.support.map(|s| (s.target, s.attack)),
            support_count: if att.has(Development::AdvancedArtillery) { 2 } else { 1 },
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

/// How a unit of this type fires in its role, its side's developments
/// included, as a die code: the battle engine's own rule
/// (`warboard_rules::battle::firing`: value, dice, best of).
fn firing(rs: &Ruleset, st: &UnitStats, attacking: bool, devs: Developments) -> u8 {
    let f = warboard_rules::battle::firing(rs, st, attacking, |d| devs.has(d));
    die_code(f.value, f.dice, f.best_of)
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
    first_strike_defending: false,
    defenseless: false,
    anti_submarine: false,
    support: None,
    support_count: 1,
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
    /// aircraft in round one of a land battle (2 with Radar).
    pub aa_value: u8,
    /// The attacker picks which aircraft the AA hits take (knob
    /// `aa_hits_chosen`, and always under Low Luck); otherwise each
    /// aircraft rolls its own die and the ones hit are lost (Anniversary).
    pub aa_hits_chosen: bool,
    /// Low Luck (knob `low_luck`, docs/low-luck.md): each group of dice
    /// that rolls together scores a hit per full six of its total for
    /// sure, and one more with the remainder's chance (`dist::
    /// push_low_luck`).
    pub low_luck: bool,
    /// One die each in round one: the bombarding ships' values (classic's
    /// battleships; Europe's battleships and destroyers; Anniversary's
    /// battleships and cruisers, at most one per land unit landing).
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
/// Modelled: support (each supporter raises one unit of its target type
/// when attacking, two with Advanced Artillery), units of two hit points,
/// first strikes by submarines attacking and (Anniversary) defending, and
/// their cancelling by an enemy anti-submarine unit, aircraft that hit
/// submarines only beside an anti-submarine unit of their side, submarines
/// whose hits never take aircraft, defenseless units (taken last, lost
/// without dice when their side cannot hurt the enemy), and the
/// developments that change dice.
pub(crate) fn unmodelled(rs: &Ruleset, battle: &Battle) -> Option<String> {
    let types: Vec<UnitType> = battle.attackers.iter().chain(battle.defenders.iter()).map(|(t, _)| t).collect();
    let mut supports: Vec<(UnitType, u8)> = Vec::new();
    let defenseless = types.iter().any(|t| rs.unit(*t).is_some_and(|st| st.defenseless));
    for t in &types {
        // A type the ruleset lacks is refused by the model, with its reason.
        let Some(st) = rs.unit(*t) else { continue };
        if let Some(s) = st.support {
            if !supports.contains(&(s.target, s.attack)) {
                supports.push((s.target, s.attack));
            }
        }
        let attacking = battle.attackers.count(*t) > 0;
        let defending = battle.defenders.count(*t) > 0 && st.is_combatant();
        let what = if st.first_strike != FirstStrike::None && !st.submarine {
            "first strikes by units other than submarines"
        } else if st.hit_points > 2 {
            "units of more than two hit points"
        } else if st.defenseless && (st.attack > 0 || st.defense > 0 || st.is_air() || st.submarine || st.is_land()) {
            // The model takes defenseless units to be ships that never fire
            // (Anniversary's transports).
            "defenseless units that fire, fly, dive or walk"
        } else if defenseless && !st.defenseless && ((attacking && st.attack == 0) || (defending && st.defense == 0)) {
            // Where a side cannot hurt the enemy, the model takes what is
            // left once its defenseless units go to be unable to fight on.
            "defenseless units beside other units that never fire"
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
        // The engine's position has one unit value per unit: refuse huge
        // counts before building it.
        battle.check_size()?;
        let spec = BattleSpec { attackers: battle.attackers.to_pairs(), defenders: battle.defenders.to_pairs(), amphibious };
        let mut standalone = build(rs.clone(), &spec).map_err(CalcError::Impossible)?;
        // Each side's developments, for the engine (Monte Carlo) as for the
        // model: the attacker is the power whose turn it is, every other
        // power defends.
        let state = &mut standalone.game.state;
        let attacker = state.turn;
        for p in rs.power_ids() {
            let devs = if p == attacker { battle.attacker_developments } else { battle.defender_developments };
            state.developments[p.index()] = devs.bits();
        }
        let mut profiles = [ABSENT; TYPES];
        for st in rs.unit_types() {
            profiles[st.kind.index()] = UnitProfile::from_stats(rs, st, battle.attacker_developments, battle.defender_developments);
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
        // round_one.rs, aa_fire: the first enemy AA gun in the territory
        // fires, in land battles only; Radar makes it hit on 2 (aa_value).
        let mut aa_value = if sea { 0 } else { battle.defenders.iter().map(|(t, _)| rs.stats(t).anti_aircraft).find(|v| *v > 0).unwrap_or(0) };
        if aa_value > 0 && battle.defender_developments.has(Development::Radar) {
            aa_value = aa_value.max(2);
        }
        // round_one.rs, bombard: every attacking ship with a bombard value
        // in the zone the landing came from, once each; with
        // `bombard_per_land_unit`, the strongest ones, one per land unit
        // landing (each standalone land attacker lands from a transport).
        let mut bombard_values = Vec::new();
        if amphibious {
            for (t, n) in bystanders.iter() {
                let v = profiles[t.index()].bombard;
                if v > 0 {
                    bombard_values.extend((0..n).map(|_| v));
                }
            }
            if rs.options.bombard_per_land_unit {
                let landing: u32 = attackers.iter().filter(|(t, _)| profiles[t.index()].is_land()).map(|(_, n)| n).sum();
                bombard_values.sort_unstable_by(|a, b| b.cmp(a));
                bombard_values.truncate(landing as usize);
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
            // Under Low Luck no AA die is an aircraft's own: the attacker
            // chooses (round_one.rs, `aa_fire`).
            aa_hits_chosen: rs.options.aa_hits_chosen || rs.options.low_luck,
            low_luck: rs.options.low_luck,
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

    /// Whether any unit of the battle is defenseless.
    pub fn has_defenseless(&self) -> bool {
        self.attackers.iter().chain(self.defenders.iter()).any(|(t, _)| self.profile(t).defenseless)
    }

    /// The defenders less their defenseless units.
    pub fn without_defenseless(&self, army: Army) -> Army {
        army.filter(|t| !self.profile(t).defenseless)
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
