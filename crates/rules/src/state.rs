//! The game state: everything needed to go on from a position. Plain data,
//! cloneable and comparable, so that a rejected action can be shown to leave
//! it unchanged and a replay to reach the same one.

use crate::battle::Battle;
use crate::ids::{PowerId, Side, SpaceId, UnitId, UnitType};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The phases of FORMAT.md: the seven of a classic turn, and the
/// Alternative rules' round (`payday`, `shopping`, `turn`). A ruleset lists
/// which it has ([`crate::ruleset::TurnStructure`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Research,
    Purchase,
    CombatMove,
    Combat,
    NoncombatMove,
    Place,
    Income,
    Payday,
    Shopping,
    Turn,
}

impl Phase {
    /// The seven phases of a turn in classic, Europe and Anniversary.
    pub const TURN: [Phase; 7] = [
        Phase::Research,
        Phase::Purchase,
        Phase::CombatMove,
        Phase::Combat,
        Phase::NoncombatMove,
        Phase::Place,
        Phase::Income,
    ];
    /// The Alternative rules' round (FORMAT.md v2).
    pub const ALTERNATIVE: [Phase; 3] = [Phase::Payday, Phase::Shopping, Phase::Turn];
    pub fn name(self) -> &'static str {
        match self {
            Phase::Research => "research",
            Phase::Purchase => "purchase",
            Phase::CombatMove => "combat_move",
            Phase::Combat => "combat",
            Phase::NoncombatMove => "noncombat_move",
            Phase::Place => "place",
            Phase::Income => "income",
            Phase::Payday => "payday",
            Phase::Shopping => "shopping",
            Phase::Turn => "turn",
        }
    }
    /// In a phase of the whole round, whether each power acts and ends its
    /// own part (alternative's shopping) or the phase is one step for all
    /// (its payday, FORMAT.md v2).
    pub fn each_power_acts(self) -> bool {
        self != Phase::Payday
    }
    pub fn parse(s: &str) -> Option<Phase> {
        Phase::TURN.into_iter().chain(Phase::ALTERNATIVE).find(|p| p.name() == s)
    }

}

/// Per-turn facts about a unit. Cleared when a new turn starts, except
/// `shuttled`, which belongs to cargo and lasts until it is unloaded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UnitFlags {
    /// Moved during this turn's combat move: land and sea units do not move
    /// again in non-combat move.
    pub moved_in_combat: bool,
    /// Took part in a battle this turn.
    pub fought: bool,
    /// A land unit that boarded a transport this turn: boarding is its whole
    /// move, apart from landing again (DAAK 3.2(b)).
    pub boarded: bool,
    /// A land unit that left a transport this turn: it moves no more
    /// (DAAK 3.2(b)).
    pub unloaded: bool,
    /// A transport that unloaded this turn: it moves no more and takes no one
    /// aboard (DAAK 3.2(d)).
    pub transport_unloaded: bool,
    /// Where a transport unloaded this turn (knob `transport_unloading`:
    /// Europe's one territory per transport).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unloaded_into: Option<SpaceId>,
    /// Cargo aboard another power's transport that its owner has since
    /// carried on its own turn (DAAK 3.3(b), step 2).
    pub shuttled: bool,
    /// An AA gun captured this turn: it may not move out (DAAK 4.4(b)).
    pub captured: bool,
    /// A bomber sent on a strategic bombing raid.
    pub bombing: bool,
    /// A unit placed this turn (a new carrier takes no fighters, DAAK 3.4(f)).
    pub new: bool,
    /// A bomber that dropped paratroopers this turn: its combat movement
    /// is over (AA50 errata p. 12).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dropped: bool,
    /// An AA gun that fired a rocket this turn.
    pub fired_rocket: bool,
    /// An industrial complex a rocket struck this turn (AA50 errata p. 12:
    /// each complex by one rocket launcher a turn).
    #[serde(default)]
    pub rocketed: bool,
    /// A submarine that submerged in a battle this turn: out of it for good;
    /// it surfaces when the turn ends (FORMAT.md v2, unit `submerged`).
    pub submerged: bool,
    /// Aircraft that broke off an amphibious assault the land units fight
    /// on (Europe, knob `amphibious_retreat`): out of that battle; they fly
    /// to a landing in non-combat move.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
    /// A fighter intercepting the raid on its territory (knob
    /// `raid_escorts`): it fights in that raid's air combat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub intercepting: bool,
    /// Alternative (knob `free_movement`): a land unit aboard a ship whose
    /// trip (loading, riding, unloading: one move, ALT L34) is paid this
    /// round, and the ship's `moved` when it came aboard (a bridge costs
    /// the ship a move when it has not moved since, ALT L36).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boarded_at: Option<u8>,
    /// Alternative: a land unit that boarded a ship out of a battle between
    /// its rounds; it may land anywhere while the battle goes on (a bridge
    /// out of a battle, ALT L36).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub left_battle: bool,
    /// Lent to a teammate this turn (ALT L56: taken back on a later turn).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lent_this_turn: bool,
}

/// One unit on the board.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    pub kind: UnitType,
    pub owner: PowerId,
    pub at: SpaceId,
    /// Damage taken (for units with more than one hit point).
    pub hits: u8,
    /// Movement points spent this turn.
    pub moved: u8,
    /// The transport (land units) or another power's carrier (fighters) this
    /// unit is aboard, as cargo. A carrier owner's own fighters are never
    /// cargo: they fly on their own (DAAK 3.4(d)).
    pub carried_by: Option<UnitId>,
    /// A land unit landed from this transport in this combat move: it fights
    /// only if the transport survives the sea battle in its zone (DAAK 4.3(c)).
    pub landed_from: Option<UnitId>,
    pub flags: UnitFlags,
    /// The nation using a lent unit (Alternative `assisting_teammates`,
    /// ALT L56); `None`: its owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<PowerId>,
}

impl Unit {
    /// The nation that moves it and decides for it: its owner, or the
    /// teammate it is lent to.
    pub fn mover(&self) -> PowerId {
        self.controller.unwrap_or(self.owner)
    }
}

/// The state of a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameState {
    pub round: u32,
    /// The power whose turn it is (in a phase of the whole round, where
    /// several powers act, the first of the order).
    pub turn: PowerId,
    pub phase: Phase,
    /// This round's turn order (the ruleset's, or set each round where the
    /// ruleset says so); `turn` is one of them.
    pub order: Vec<PowerId>,
    /// Powers that have ended the current phase of the whole round.
    pub done: Vec<PowerId>,
    /// Which power controls each space now (`None`: neutral, or a sea zone).
    pub control: Vec<Option<PowerId>>,
    /// Control at the start of the current turn (canals, DAAK 2.3; landing
    /// and factories, DAAK 4.4).
    pub start_control: Vec<Option<PowerId>>,
    /// Spaces conquered during the current turn (DAAK 4.4).
    pub conquered: Vec<bool>,
    pub ipcs: Vec<i32>,
    pub units: Vec<Unit>,
    pub next_unit: u32,
    /// Units bought this turn and waiting to be placed.
    pub purchased: BTreeMap<UnitType, u32>,
    /// Units bought on an earlier turn and kept unplaced, per power (option
    /// `unplaced_units_kept`, the Anniversary rule).
    pub unplaced: BTreeMap<PowerId, BTreeMap<UnitType, u32>>,
    /// Units placed this turn per factory territory (placement limits).
    pub placed: BTreeMap<SpaceId, u32>,
    /// IPCs paid this turn for taking neutral countries (DAAK 2.7(a)).
    pub neutral_fees: i32,
    /// This turn's battles, in the order they were declared.
    pub battles: Vec<Battle>,
    /// Developments each power has (bit `Development as u16`).
    pub developments: Vec<u16>,
    /// The turn's power has rolled its research this turn: research is one
    /// roll a turn (AA50 rules, Research & Development: "roll one die for
    /// each researcher"; classic's dice are bought and rolled once).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub researched: bool,
    /// Researcher tokens each power holds (Anniversary: kept until a
    /// breakthrough; lost with the capital, AA50 FAQ: Miscellaneous).
    #[serde(default)]
    pub researchers: Vec<u32>,
    /// Who plays with whom: teammates share spaces and win together
    /// (FORMAT.md v2). It starts as the ruleset's sides.
    pub teams: Teams,
    /// Where a victory needs capitals held for a round (knob
    /// `capital_victory`, Europe): each enemy capital a power's team held,
    /// with the power's own, when that power's last turn ended; dropped the
    /// moment the enemy takes it back ("without a break").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capitals_held: Vec<(PowerId, SpaceId)>,
    pub winner: Option<Winner>,
    /// Nations out of the game: surrendered or eliminated (Alternative,
    /// FORMAT.md v2 `eliminated`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub eliminated: Vec<PowerId>,
    /// Alternative (ALT L40): defending planes whose ship sank and that have
    /// several nearest landings, each with them; the game waits for their
    /// owners to fly them there (FORMAT.md v2, judging notes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relocating: Vec<(UnitId, Vec<SpaceId>)>,
    /// Alternative `fair_buying`: the nation to put down the next unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_placer: Option<PowerId>,
    /// A number that grows with every change (DESIGN.md: stale-state checks).
    pub seq: u64,
}

impl GameState {
    /// Whether two powers are on one team (a power is its own ally).
    pub fn allied(&self, a: PowerId, b: PowerId) -> bool {
        self.teams.allied(a, b)
    }
    /// Where `turn` stands in this round's order.
    pub fn turn_index(&self) -> usize {
        self.order.iter().position(|p| *p == self.turn).unwrap_or(0)
    }
    pub fn unit(&self, id: UnitId) -> Option<&Unit> {
        // Units are kept in id order, so this is a binary search.
        self.units.binary_search_by_key(&id, |u| u.id).ok().map(|i| &self.units[i])
    }
    pub fn unit_mut(&mut self, id: UnitId) -> Option<&mut Unit> {
        self.units.binary_search_by_key(&id, |u| u.id).ok().map(move |i| &mut self.units[i])
    }
    pub fn units_at(&self, at: SpaceId) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.at == at)
    }
    pub fn cargo_of(&self, carrier: UnitId) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.carried_by == Some(carrier))
    }
    /// Adds a unit and returns its id.
    pub fn add_unit(&mut self, kind: UnitType, owner: PowerId, at: SpaceId) -> UnitId {
        let id = UnitId(self.next_unit);
        self.next_unit += 1;
        self.units.push(Unit {
            id,
            kind,
            owner,
            at,
            hits: 0,
            moved: 0,
            carried_by: None,
            landed_from: None,
            flags: UnitFlags::default(),
            controller: None,
        });
        id
    }
    /// Removes units (and whatever they carry).
    pub fn remove_units(&mut self, ids: &[UnitId]) {
        let mut doomed: Vec<UnitId> = ids.to_vec();
        let mut i = 0;
        while i < doomed.len() {
            let id = doomed[i];
            doomed.extend(self.units.iter().filter(|u| u.carried_by == Some(id)).map(|u| u.id));
            i += 1;
        }
        self.units.retain(|u| !doomed.contains(&u.id));
    }
    pub fn has_development(&self, p: PowerId, d: Development) -> bool {
        self.developments[p.index()] & d.bit() != 0
    }
}

/// The teams of a game, by name, and each power's team (a power on no team
/// plays alone: Alternative's `independent`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Teams {
    /// Shared, not copied, when a state is cloned (every action clones it).
    pub names: std::sync::Arc<[String]>,
    /// Per power (by index): its team, as an index into `names`.
    pub of: Vec<Option<u8>>,
}

impl Teams {
    /// The ruleset's two sides as teams.
    pub fn from_sides(sides: &[Side]) -> Teams {
        let names = vec![Side::Axis.name().to_string(), Side::Allies.name().to_string()].into();
        Teams { names, of: sides.iter().map(|s| Some(if *s == Side::Axis { 0 } else { 1 })).collect() }
    }
    pub fn allied(&self, a: PowerId, b: PowerId) -> bool {
        a == b || (self.of[a.index()].is_some() && self.of[a.index()] == self.of[b.index()])
    }
    /// The team of a power, by name.
    pub fn team_of(&self, p: PowerId) -> Option<&str> {
        self.of[p.index()].map(|t| self.names[t as usize].as_str())
    }
    /// The powers on a team, in power order.
    pub fn members(&self, name: &str) -> Vec<PowerId> {
        let Some(t) = self.names.iter().position(|n| n == name) else { return Vec::new() };
        (0..self.of.len()).filter(|i| self.of[*i] == Some(t as u8)).map(|i| PowerId(i as u8)).collect()
    }
}

/// Who won: a team (classic's "axis" or "allies") and its powers, or, where
/// the ruleset names winners power by power (Alternative), the powers alone.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Winner {
    pub team: Option<String>,
    pub powers: Vec<PowerId>,
}

impl Winner {
    /// A team as it stands in `teams`.
    pub fn team(teams: &Teams, name: &str) -> Winner {
        Winner { team: Some(name.to_string()), powers: teams.members(name) }
    }
    /// For messages: the team's name, or the powers' ids.
    pub fn describe(&self, power_id: impl Fn(PowerId) -> String) -> String {
        match &self.team {
            Some(t) => t.clone(),
            None => self.powers.iter().map(|p| power_id(*p)).collect::<Vec<_>>().join(", "),
        }
    }
}

/// Research developments: the six of the classic weapons development chart
/// (`rules/classic.md` §4) and the Anniversary Edition's two breakthrough
/// charts (FORMAT.md v2 `tech`), one vocabulary. Which charts a game rolls on
/// is the ruleset's `research_charts` knob.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Development {
    JetFighters = 0,
    Rockets = 1,
    SuperSubmarines = 2,
    LongRangeAircraft = 3,
    IndustrialTechnology = 4,
    HeavyBombers = 5,
    AdvancedArtillery = 6,
    Paratroopers = 7,
    IncreasedFactoryProduction = 8,
    WarBonds = 9,
    MechanizedInfantry = 10,
    ImprovedShipyards = 11,
    Radar = 12,
}

impl Development {
    /// The classic chart, numbered 1–6.
    pub const CHART: [Development; 6] = [
        Development::JetFighters,
        Development::Rockets,
        Development::SuperSubmarines,
        Development::LongRangeAircraft,
        Development::IndustrialTechnology,
        Development::HeavyBombers,
    ];
    /// Anniversary breakthrough chart 1, land and production (FORMAT.md v2).
    pub const CHART_1: [Development; 6] = [
        Development::AdvancedArtillery,
        Development::Rockets,
        Development::Paratroopers,
        Development::IncreasedFactoryProduction,
        Development::WarBonds,
        Development::MechanizedInfantry,
    ];
    /// Anniversary breakthrough chart 2, air and naval (FORMAT.md v2).
    pub const CHART_2: [Development; 6] = [
        Development::SuperSubmarines,
        Development::JetFighters,
        Development::ImprovedShipyards,
        Development::Radar,
        Development::LongRangeAircraft,
        Development::HeavyBombers,
    ];
    pub const ALL: [Development; 13] = [
        Development::JetFighters,
        Development::Rockets,
        Development::SuperSubmarines,
        Development::LongRangeAircraft,
        Development::IndustrialTechnology,
        Development::HeavyBombers,
        Development::AdvancedArtillery,
        Development::Paratroopers,
        Development::IncreasedFactoryProduction,
        Development::WarBonds,
        Development::MechanizedInfantry,
        Development::ImprovedShipyards,
        Development::Radar,
    ];
    pub fn parse(s: &str) -> Option<Development> {
        Development::ALL.into_iter().find(|d| d.name() == s)
    }
    pub fn bit(self) -> u16 {
        1 << self as u16
    }
    pub fn name(self) -> &'static str {
        match self {
            Development::JetFighters => "jet_fighters",
            Development::Rockets => "rockets",
            Development::SuperSubmarines => "super_submarines",
            Development::LongRangeAircraft => "long_range_aircraft",
            Development::IndustrialTechnology => "industrial_technology",
            Development::HeavyBombers => "heavy_bombers",
            Development::AdvancedArtillery => "advanced_artillery",
            Development::Paratroopers => "paratroopers",
            Development::IncreasedFactoryProduction => "increased_factory_production",
            Development::WarBonds => "war_bonds",
            Development::MechanizedInfantry => "mechanized_infantry",
            Development::ImprovedShipyards => "improved_shipyards",
            Development::Radar => "radar",
        }
    }
}
