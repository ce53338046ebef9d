//! Rule options: every point where readings or editions differ, read in one
//! place.
//!
//! Two layers (issue 10):
//! - [`RuleKnobs`]: every knob the engine reads, typed, with the engine's
//!   baseline value. Rules code reads them as `rs.options.<knob>`.
//! - [`Options`]: the knobs a ruleset *declares* as its options in
//!   `ruleset.toml` (`[[option]]`: name, type, default, doc). Only declared
//!   options may be set by name (cases, saves, the protocol), and the
//!   canonical string names only them, so adding an option to one ruleset
//!   never changes another's saves. A knob a ruleset does not declare keeps
//!   the engine's baseline, or the value its `[rules]` table fixes.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Which text decides submarine withdrawal where the English and German
/// DAAK texts differ (seeds 000 and 001, 4.2(c) and (d)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubWithdrawalText {
    /// English 4.2(c): attacking subs go to an empty or friendly adjacent zone
    /// from which an attacking unit came; 4.2(d): defending subs to a zone
    /// with no enemy *naval* units and no battle this turn.
    English,
    /// German 4.2(3): attacking subs go to a zone from or through which an
    /// attacking *ship* came; 4.2(4): defending subs to a zone with no enemy
    /// units at all and no battle this turn.
    German,
}

/// How much a strategic bombing raid can cost its victim. `rules/classic.md`
/// marks this [UNSURE]: a port of the rulebook caps the loss at the IPCs
/// the victim holds (default); TripleA's classic applies no territory cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BombingCap {
    /// The victim pays what it can; never below zero.
    Bank,
    /// At most the bombed territory's IPC value, and never below zero.
    Territory,
    /// The bank is untouched: the bombed industrial complex takes damage
    /// markers, at most twice the territory's IPC value, each lowering what
    /// it can place by one until repaired (AA50 errata p. 17; FORMAT.md v2,
    /// "Raids"; AA50 FAQ: Weapons Development: Increased Factory Production
    /// does not raise the cap).
    FactoryDamage,
}

/// When the capital victories are checked. DAAK 5.1 says only that the game
/// ends when a condition is met; `rules/classic.md` §10 and TripleA's notes
/// check at the end of a round (default), the moment Magic 84 is also
/// checked (DAAK 5.1, German text: "am Ende einer Runde").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VictoryCheck {
    Round,
    Turn,
}

/// How a research breakthrough picks its development (`rules/classic.md` §4,
/// [UNSURE]): the rulebook port rolls a second die on the chart and re-rolls
/// developments already owned (default); TripleA lets the player choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResearchBreakthrough {
    Roll,
    Choose,
}

/// What capitals win the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CapitalVictory {
    /// Two Allied capitals to the Axis, both Axis capitals to the Allies
    /// (DAAK 5.1), checked as `capital_victory_checked` says.
    TwoCapitals,
    /// A side wins at the end of one of its powers' turns when that power
    /// has controlled its own capital and an enemy capital, the same one,
    /// without a break since the end of its previous turn (EUROPE FAQ:
    /// Victory Conditions: "for one complete round (the end of your turn
    /// until the end of your next turn)"). The FAQ speaks of Germany; the
    /// Allies' win by Germany's capital held the same way is the reading
    /// chosen where rules/europe.md §11 is [UNSURE].
    HoldOneForARound,
    /// A team wins at the end of a round when every nation in play not on
    /// it has surrendered, is eliminated or has its capital claimed by a
    /// member of the team (ALT L4; FORMAT.md v2, "Victory and surrender";
    /// under `no_capitals` only the first two count, ALT L68).
    AllEnemyCapitals,
    /// Capitals win nothing by themselves: a side controlling at least
    /// `victory_cities` of the map's victory cities at the end of a round
    /// wins (Anniversary; FORMAT.md v2, "Victory and surrender").
    VictoryCities,
}

/// Who may retreat from an amphibious assault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AmphibiousRetreat {
    /// Nobody, aircraft included (DAAK 4.1(a), 4.3(b)).
    Nobody,
    /// Fighters and bombers only; land units fight to the end, those that
    /// came overland too (EUROPE FAQ: Amphibious Assault...: "Only fighters
    /// and bombers can retreat from an amphibious assault"; "none of his
    /// units can retreat, including the tank that wasn't transported").
    AirOnly,
    /// Units that landed from transports stay; the others (aircraft, land
    /// units that came overland) may retreat (TripleA's "Partial Amphibious
    /// Retreat", rules/anniversary.md §4).
    Partial,
}

/// Which research charts a game rolls on, and how research is bought.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResearchCharts {
    /// Classic weapons development: research dice bought and rolled at
    /// once, one chart (`rules/classic.md` §4).
    Classic,
    /// The Anniversary Edition: researcher tokens (5 IPCs) kept until a
    /// breakthrough, one breakthrough a turn however many sixes, rolled on
    /// the chart the player names (1 or 2) (FORMAT.md v2 `research`).
    Anniversary,
}

/// The dice of a raid's air combat between escorts and interceptors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RaidAirCombat {
    /// Escorts attack at 1, interceptors defend at 2 (TripleA's Europe and
    /// the Anniversary rule, FORMAT.md v2 "Raids"); the seeds do not settle
    /// Europe's values (rules/europe.md §8 [UNSURE]).
    OneAndTwo,
    /// Fighters at their usual attack and defence values.
    AttackAndDefense,
}

/// How a transport unloads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TransportUnloading {
    /// In combat move all its cargo into one territory; in non-combat move
    /// as it likes (DAAK 3.2(e)).
    AllInCombat,
    /// Into one territory a turn, part in an amphibious assault and the rest
    /// in non-combat move if it likes (EUROPE FAQ: Amphibious Assault...:
    /// "A transport can unload into only one territory"; "both units must
    /// unload into the same territory").
    OneTerritory,
}

/// How submarines leave a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubmarineEscape {
    /// After a full round they withdraw to a sea zone, the attacker's first
    /// (DAAK 4.2; defending ones only with `defending_submarines_withdraw`).
    WithdrawAfterRound,
    /// Before any die of each round, the attacker's then the defender's,
    /// those facing no enemy anti-submarine unit may submerge: out of the
    /// battle for good, staying in the zone until the turn ends (AA50 FAQ:
    /// Submarines; FORMAT.md v2, "Submerging").
    SubmergeBeforeRound,
    /// Europe (EUROPE FAQ: Submarines; FORMAT.md v2, "Submerging"): each
    /// submarine may submerge "immediately before" rolling its own dice,
    /// even facing destroyers. The attacker's before round 1 (sub-stalling)
    /// and at each round's end with its choice to press on; the defender's
    /// once the attacker has fired and the defender has chosen its losses,
    /// before its own dice, never those hit this round. Bystanders never
    /// submerge.
    SubmergeBeforeOwnDice,
}

/// Every knob of the rules engine, with its baseline value (what a ruleset
/// that neither declares nor fixes it gets).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RuleKnobs {
    /// Weapons development (research dice). DAAK plays with it off.
    pub weapons_development: bool,
    /// The Axis win when Germany and Japan control territories worth this
    /// many IPCs at the end of the US turn (DAAK 5.1, "Magic 84"); 0: off.
    pub axis_economic_victory: u32,
    /// Original factories place any number of units (rulebook pp. 11, 13, 21
    /// per the rulebook port); false: limited by the territory's IPC value
    /// like new ones (TripleA classic).
    pub original_factories_unlimited: bool,
    /// Units bought but not placed stay for a later turn (Anniversary rules);
    /// false: they are lost (classic).
    pub unplaced_units_kept: bool,
    /// Ships may be placed into a sea zone holding enemy ships (Europe FAQ);
    /// false in classic.
    pub ships_placed_in_enemy_zones: bool,
    /// Submarine hits may be taken by aircraft; the rulebook port says subs
    /// never hit aircraft (default false).
    pub submarines_hit_aircraft: bool,
    /// Defending submarines may withdraw after a round (DAAK 4.2); TripleA's
    /// classic does not allow it.
    pub defending_submarines_withdraw: bool,
    pub sub_withdrawal_text: SubWithdrawalText,
    pub bombing_cap: BombingCap,
    pub research_breakthrough: ResearchBreakthrough,
    /// Russia may not attack in its first combat move (a TripleA option,
    /// [UNSURE] in the rulebook; off by default).
    pub russia_first_turn_restricted: bool,
    /// When two Allied (or both Axis) capitals win the game.
    pub capital_victory_checked: VictoryCheck,
    /// Aircraft hit submarines only with an anti-submarine unit of their
    /// side in the battle (Europe FAQ, Submarines; AA50 errata); classic's
    /// aircraft hit submarines freely.
    pub air_needs_anti_submarine: bool,
    /// Damaged units with hit points to spare are repaired at the end of
    /// their owner's turn (a test of the mechanism; Anniversary repairs
    /// battleships at the end of the turn).
    pub repair_at_turn_end: bool,
    /// How submarines leave a battle.
    pub submarine_escape: SubmarineEscape,
    /// No unit may enter or fly over a neutral country (Europe: rules/europe.md
    /// §4, TripleA's "Neutrals Are Impassable"); classic's may be taken for a
    /// fee (DAAK 2.7).
    pub neutrals_impassable: bool,
    /// What capitals win the game.
    pub capital_victory: CapitalVictory,
    /// How a transport unloads.
    pub transport_unloading: TransportUnloading,
    /// Fighters may escort strategic bombing raids and the defender's
    /// fighters already in the target territory may intercept them (Europe's
    /// base rules: EUROPE FAQ: Strategic Bombing Raids).
    pub raid_escorts: bool,
    pub raid_air_combat: RaidAirCombat,
    /// Who may retreat from an amphibious assault.
    pub amphibious_retreat: AmphibiousRetreat,
    /// No unit boards a transport in combat move in a sea zone holding enemy
    /// submarines that have not submerged (EUROPE FAQ: Submarines: "a
    /// transport in a sea zone with enemy subs can't load troops during
    /// Combat Movement"; "submerged subs don't prevent loading").
    pub enemy_submarines_block_loading: bool,
    /// A transport that survived a sea battle may load or unload in
    /// non-combat move (EUROPE FAQ: Submarines, Q5: "a transport that
    /// survives combat can either load or unload during Non-combat
    /// Movement"); false: its troops stay aboard until their owner's next
    /// turn (DAAK 3.2(f)).
    pub unload_after_sea_battle: bool,
    /// The power that may take over its allies' units at its own original
    /// industrial complexes (Europe's Soviet Patriotic War: `russia`);
    /// empty: nobody.
    pub patriotic_war: String,
    /// Hits on an attacker's sea battle may be taken from its allies' ships
    /// standing by in the zone, and their destroyers spot submarines for it
    /// (EUROPE FAQ: Submarines: "if there is a way to apportion hits so they
    /// result in losses, the losses must be taken").
    pub bystanders_share_losses: bool,
    pub research_charts: ResearchCharts,
    /// The power playing by China's rules (Anniversary; empty: none): no
    /// IPCs, no purchases, no research; one free infantry per two
    /// territories it holds when its purchase phase ends, placed where fewer
    /// than three of its units stand; its units never leave
    /// `china_territories` (AA50 FAQ: China).
    pub china_power: String,
    pub china_territories: Vec<String>,
    /// AA guns fire at aircraft flying over their territory in combat move
    /// (classic, Europe: FORMAT.md v1); false: only in a battle or raid in
    /// their own territory (Anniversary, FORMAT.md v2 judging notes).
    pub aa_fires_at_overflights: bool,
    /// Bombardment: at most one bombarding ship per land unit unloaded from
    /// a transport into the assault (TripleA's "Shore Bombard Per Ground
    /// Unit Restricted", rules/anniversary.md §4).
    pub bombard_per_land_unit: bool,
    /// National objective bonuses in the collect income phase (Anniversary
    /// optional rule; the objectives are the ruleset's `[[objective]]`s).
    pub national_objectives: bool,
    /// Victory cities a side must hold at the end of a round to win, with
    /// `capital_victory = "victory_cities"`.
    pub victory_cities: u32,
    /// No sea unit enters or leaves `dardanelles_zone`; air units pass
    /// (AA50 FAQ: Additional Optional Rules).
    pub dardanelles_closed: bool,
    pub dardanelles_zone: String,
    /// Ships pass zones holding only enemy submarines and transports, and
    /// submarines pass any zone without an enemy destroyer (Anniversary:
    /// TripleA's "Ignore Transport/Sub In Movement", AA50 FAQ: Submarines);
    /// false: any enemy ship stops ships passing (DAAK).
    pub ships_ignore_subs_and_transports: bool,
    /// Attackers may retreat to spaces attacking aircraft came from (DAAK
    /// 4.1(b): "from which attacking units came"); false: only where an
    /// attacking land or sea unit moved from (AA50 errata p. 19).
    pub retreat_to_air_origins: bool,
    /// The attacker chooses which aircraft AA hits take (DAAK 3.1); false:
    /// each aircraft rolls its own die and those hit are lost (Anniversary:
    /// TripleA's "Choose AA Casualties = false", rules/anniversary.md §4).
    pub aa_hits_chosen: bool,
    /// At most one AA gun per territory (DAAK 3.1(b)); false: several may
    /// stand together, one fires (Anniversary: AA50 errata p. 12, "only one
    /// AA gun per territory may launch rockets").
    pub one_aa_gun_per_territory: bool,
    /// New fighters may be placed aboard new or existing carriers of their
    /// power in a sea zone next to a producing complex (Anniversary:
    /// rules/anniversary.md §7 [UNSURE], TripleA's LHTR carrier production);
    /// false: only on land (DAAK 3.4(f)).
    pub fighters_placed_on_carriers: bool,
    /// An enemy industrial complex or AA gun stops armor blitzing through
    /// (TripleA's "Blitz Through Factories And AA Restricted"); false: they
    /// do not count, as DAAK 3.6(b) rules.
    pub factories_and_aa_stop_blitz: bool,
    /// Low Luck (issue 33; TripleA's and aacalc2's "Low Luck"; docs/low-luck.md):
    /// each firing group's dice become its units' values added up, a hit
    /// per full six for sure and one die for the remainder
    /// (`battle/fire.rs::low_luck`). To-hit rolls only: bombing damage,
    /// rockets, research and tie dice roll as ever.
    pub low_luck: bool,
    /// With `repair_at_turn_end`: every power's damaged units are repaired at
    /// the end of each turn, not only those of the power whose turn it was
    /// (rules/anniversary.md §3 [UNSURE: whose turn]).
    pub repair_every_power: bool,
    /// Powers that take no turns and collect nothing (Alternative's limited
    /// war, issue 13; the test ruleset's list option).
    pub sitting_out: Vec<String>,
    // The Alternative rules (ALT, shared seed 003; FORMAT.md v2).
    /// One `turn` phase: units move up to their movement once a round
    /// (refuelled at payday, ALT L42), battles start where they move in and
    /// are fought in the same phase, no unit passes undefeated enemy units.
    pub free_movement: bool,
    /// A battle stops after every round that leaves both sides for the
    /// attacker to press on, retreat or move units in or out (ALT L46).
    pub attacker_moves_between_rounds: bool,
    /// Units are bought onto any territory the nation claims or a sea zone
    /// next to one, without factories (ALT L20, L30, L32, L38).
    pub buy_on_claimed_territory: bool,
    /// Each payday orders the round's turns by points paid, ties by dice
    /// (ALT L22; FORMAT.md v2, `order`).
    pub turn_order_by_income: bool,
    /// An ally's original territory taken back from the enemy returns to
    /// that ally (DAAK 5.2(b)); false: whoever captures it claims it (ALT L18).
    pub liberation: bool,
    /// Formerly neutral territories pay their value (ALT L8); classic's pay
    /// nothing (DAAK 2.7(d)).
    pub formerly_neutral_pays: bool,
    /// Taking an enemy capital takes its bank (rules/classic.md §9); false:
    /// points are never given (ALT L18).
    pub capital_takes_bank: bool,
    pub axis_bonus_points: bool,
    pub no_capitals: bool,
    pub captured_capitals: bool,
    /// Power → its relocated capital (ALT L66).
    pub relocated_capitals: std::collections::BTreeMap<String, String>,
    pub combining_nations: Vec<CombinedNations>,
    pub limited_war: LimitedWar,
    pub teams: TeamsKnob,
    pub random_turn_order: bool,
    pub assisting_teammates: bool,
    pub fair_buying: bool,
    /// Canals (by their map name) whose two zones are one zone on the
    /// printed board: a ship crosses between them without spending a move
    /// (ALT L6: Panama "is drawn on the board as one sea zone and one
    /// territory, therefore no moves are needed to cross over it").
    pub canals_crossed_free: Vec<String>,
}

/// One group of the `combining_nations` option (ALT L58).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombinedNations {
    pub nations: Vec<String>,
    pub capital: String,
}

/// The `limited_war` option (ALT L62).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LimitedWar {
    pub off_limits: Vec<String>,
    pub nations: Vec<String>,
}

/// The `teams` option (ALT L64): teams by name, or every nation alone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TeamsKnob {
    /// Team name → nations; empty: the ruleset's sides.
    Named(std::collections::BTreeMap<String, Vec<String>>),
    /// `"independent"`.
    Word(String),
}

impl Default for TeamsKnob {
    fn default() -> TeamsKnob {
        TeamsKnob::Named(Default::default())
    }
}

impl Default for RuleKnobs {
    fn default() -> RuleKnobs {
        RuleKnobs {
            weapons_development: false,
            axis_economic_victory: 0,
            original_factories_unlimited: false,
            unplaced_units_kept: false,
            ships_placed_in_enemy_zones: false,
            submarines_hit_aircraft: false,
            defending_submarines_withdraw: false,
            sub_withdrawal_text: SubWithdrawalText::English,
            bombing_cap: BombingCap::Bank,
            research_breakthrough: ResearchBreakthrough::Roll,
            russia_first_turn_restricted: false,
            capital_victory_checked: VictoryCheck::Round,
            air_needs_anti_submarine: false,
            repair_at_turn_end: false,
            sitting_out: Vec::new(),
            free_movement: false,
            attacker_moves_between_rounds: false,
            buy_on_claimed_territory: false,
            turn_order_by_income: false,
            liberation: true,
            formerly_neutral_pays: false,
            capital_takes_bank: true,
            axis_bonus_points: false,
            no_capitals: false,
            captured_capitals: false,
            relocated_capitals: Default::default(),
            combining_nations: Vec::new(),
            limited_war: LimitedWar::default(),
            teams: TeamsKnob::default(),
            random_turn_order: false,
            assisting_teammates: false,
            fair_buying: false,
            canals_crossed_free: Vec::new(),
            submarine_escape: SubmarineEscape::WithdrawAfterRound,
            neutrals_impassable: false,
            capital_victory: CapitalVictory::TwoCapitals,
            transport_unloading: TransportUnloading::AllInCombat,
            raid_escorts: false,
            raid_air_combat: RaidAirCombat::OneAndTwo,
            amphibious_retreat: AmphibiousRetreat::Nobody,
            enemy_submarines_block_loading: false,
            unload_after_sea_battle: false,
            patriotic_war: String::new(),
            bystanders_share_losses: false,
            research_charts: ResearchCharts::Classic,
            china_power: String::new(),
            china_territories: Vec::new(),
            aa_fires_at_overflights: true,
            bombard_per_land_unit: false,
            national_objectives: false,
            victory_cities: 0,
            dardanelles_closed: false,
            dardanelles_zone: String::new(),
            ships_ignore_subs_and_transports: false,
            retreat_to_air_origins: true,
            aa_hits_chosen: true,
            one_aa_gun_per_territory: true,
            fighters_placed_on_carriers: false,
            factories_and_aa_stop_blitz: false,
            repair_every_power: false,
            low_luck: false,
        }
    }
}

/// The kind of value an option takes (FORMAT.md v2, Options: "An option
/// value is the JSON value its row documents").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionType {
    Bool,
    Integer,
    /// One of `values`.
    Choice,
    List,
    Object,
}

/// One option a ruleset declares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionDecl {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: OptionType,
    /// The allowed values of a `choice`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    pub default: toml::Value,
    /// What it does and where the reading comes from.
    pub doc: String,
    /// The engine knob it sets, where the documented name differs (the
    /// Anniversary `fighter_escorts_interceptors` sets `raid_escorts`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knob: Option<String>,
    /// The range of an `integer` (issue 34: a value no game can use, such
    /// as 19 of Anniversary's 18 victory cities, is refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
}

impl OptionDecl {
    /// The knob this option sets.
    pub fn knob_name(&self) -> &str {
        self.knob.as_deref().unwrap_or(&self.name)
    }
    /// Whether `value` is of this option's type.
    pub fn check(&self, value: &toml::Value) -> Result<(), String> {
        let ok = match (&self.kind, value) {
            (OptionType::Bool, toml::Value::Boolean(_)) => true,
            (OptionType::Integer, toml::Value::Integer(i)) => {
                *i >= self.min.unwrap_or(0) && self.max.is_none_or(|m| *i <= m)
            }
            (OptionType::Choice, toml::Value::String(s)) => self.values.contains(s),
            (OptionType::List, toml::Value::Array(_)) => true,
            (OptionType::Object, toml::Value::Table(_)) => true,
            // An object option may also take one of its `values` words
            // (Alternative `teams`: "independent").
            (OptionType::Object | OptionType::List, toml::Value::String(s)) => self.values.contains(s),
            _ => false,
        };
        if ok {
            return Ok(());
        }
        Err(match self.kind {
            OptionType::Bool => format!("option `{}` is true or false, not {value}", self.name),
            OptionType::Integer => match self.max {
                Some(max) => format!("option `{}` is a whole number from {} to {max}, not {value}", self.name, self.min.unwrap_or(0)),
                None => format!("option `{}` is a whole number from {}, not {value}", self.name, self.min.unwrap_or(0)),
            },
            OptionType::Choice => format!("option `{}` is one of {}, not {value}", self.name, self.values.join(", ")),
            OptionType::List => format!("option `{}` is a list, not {value}", self.name),
            OptionType::Object if !self.values.is_empty() => format!("option `{}` is an object or one of {}, not {value}", self.name, self.values.join(", ")),
            OptionType::Object => format!("option `{}` is an object, not {value}", self.name),
        })
    }
}

/// A ruleset's options: its declarations and the engine knobs they set.
/// Rules code reads knobs through `Deref` (`rs.options.weapons_development`).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    knobs: RuleKnobs,
    declared: Arc<Vec<OptionDecl>>,
}

impl std::ops::Deref for Options {
    type Target = RuleKnobs;
    fn deref(&self) -> &RuleKnobs {
        &self.knobs
    }
}

impl Options {
    /// The options of a ruleset: the knobs its `[rules]` table fixes, then
    /// its declared options at their defaults. Errors name the entry.
    pub fn new(fixed: &toml::Table, declared: Vec<OptionDecl>) -> Result<Options, Vec<(String, String)>> {
        let mut problems = Vec::new();
        let mut table = toml::Table::try_from(RuleKnobs::default()).expect("knobs serialise");
        for (k, v) in fixed {
            if !table.contains_key(k) {
                problems.push((format!("rules.{k}"), format!("`{k}` is not a rule of the engine")));
            } else if declared.iter().any(|d| d.knob_name() == k) {
                problems.push((format!("rules.{k}"), format!("`{k}` is declared as an option too: give it one place")));
            }
            table.insert(k.clone(), v.clone());
        }
        for (i, d) in declared.iter().enumerate() {
            let entry = format!("option {} ({})", i + 1, d.name);
            if !table.contains_key(d.knob_name()) {
                problems.push((entry, format!("`{}` is not a rule of the engine", d.knob_name())));
                continue;
            }
            if declared[..i].iter().any(|e| e.name == d.name || e.knob_name() == d.knob_name()) {
                problems.push((entry.clone(), format!("`{}` is declared twice", d.name)));
            }
            if d.kind == OptionType::Choice && d.values.is_empty() {
                problems.push((entry.clone(), "a choice lists its `values`".into()));
            }
            if let Err(e) = d.check(&d.default) {
                problems.push((entry, format!("default: {e}")));
                continue;
            }
            table.insert(d.knob_name().to_string(), d.default.clone());
        }
        let knobs = match table.try_into::<RuleKnobs>() {
            Ok(k) => k,
            Err(e) => {
                problems.push(("options".into(), e.message().to_string()));
                RuleKnobs::default()
            }
        };
        if problems.is_empty() {
            Ok(Options { knobs, declared: Arc::new(declared) })
        } else {
            Err(problems)
        }
    }

    /// The options this ruleset declares, in the order of `ruleset.toml`.
    pub fn declared(&self) -> &[OptionDecl] {
        &self.declared
    }

    /// Sets one declared option by its documented name, checking its type.
    pub fn set(&mut self, name: &str, value: &toml::Value) -> Result<(), String> {
        let Some(decl) = self.declared.iter().find(|d| d.name == name) else {
            let names: Vec<&str> = self.declared.iter().map(|d| d.name.as_str()).collect();
            return Err(if names.is_empty() {
                format!("unknown option `{name}`: this ruleset has no options")
            } else {
                format!("unknown option `{name}`; the options are: {}", names.join(", "))
            });
        };
        decl.check(value)?;
        let mut table = toml::Table::try_from(&self.knobs).map_err(|e| e.to_string())?;
        table.insert(decl.knob_name().to_string(), value.clone());
        self.knobs = table.try_into().map_err(|e: toml::de::Error| format!("option `{name}`: {}", e.message()))?;
        Ok(())
    }

    /// The declared options as a canonical `name=value` string (sorted by
    /// name), for saves and logs.
    pub fn canonical(&self) -> String {
        let table = toml::Table::try_from(&self.knobs).expect("knobs serialise");
        let mut decls: Vec<&OptionDecl> = self.declared.iter().collect();
        decls.sort_by(|a, b| a.name.cmp(&b.name));
        decls
            .iter()
            .filter_map(|d| table.get(d.knob_name()).map(|v| format!("{}={v}", d.name)))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The canonical string as a game whose canonical string was
    /// `recorded` reads it: an option declared since (not named in
    /// `recorded`) and still at its declared default is left out. Adding
    /// an option at a default that keeps the old rules (`low_luck`) leaves
    /// the rules of games saved before it as they were, so those saves
    /// still load; an option changed, or one removed, still differs.
    pub fn canonical_as_of(&self, recorded: &str) -> String {
        let table = toml::Table::try_from(&self.knobs).expect("knobs serialise");
        let named = |name: &str| {
            let entry = format!("{name}=");
            recorded.starts_with(&entry) || recorded.contains(&format!(",{entry}"))
        };
        let mut decls: Vec<&OptionDecl> = self.declared.iter().collect();
        decls.sort_by(|a, b| a.name.cmp(&b.name));
        decls
            .iter()
            .filter_map(|d| table.get(d.knob_name()).map(|v| (d, v)))
            .filter(|(d, v)| named(&d.name) || **v != d.default)
            .map(|(d, v)| format!("{}={v}", d.name))
            .collect::<Vec<_>>()
            .join(",")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(text: &str) -> Vec<OptionDecl> {
        #[derive(Deserialize)]
        struct File {
            option: Vec<OptionDecl>,
        }
        toml::from_str::<File>(text).unwrap().option
    }

    #[test]
    fn only_declared_options_are_set_and_named() {
        let d = decl("[[option]]\nname = \"weapons_development\"\ntype = \"bool\"\ndefault = true\ndoc = \"research\"\n");
        let fixed: toml::Table = toml::from_str("axis_economic_victory = 84").unwrap();
        let mut o = Options::new(&fixed, d).unwrap();
        assert!(o.weapons_development);
        assert_eq!(o.axis_economic_victory, 84, "a fixed rule");
        assert_eq!(o.canonical(), "weapons_development=true", "the canonical string names declared options only");
        let err = o.set("axis_economic_victory", &toml::Value::Integer(0)).unwrap_err();
        assert!(err.contains("unknown option `axis_economic_victory`") && err.contains("weapons_development"), "{err}");
        assert!(o.set("weapons_development", &toml::Value::Integer(1)).unwrap_err().contains("true or false"));
        o.set("weapons_development", &toml::Value::Boolean(false)).unwrap();
        assert_eq!(o.canonical(), "weapons_development=false");
    }

    #[test]
    fn options_declared_since_a_save_at_their_default_are_left_out() {
        let d = decl(
            "[[option]]\nname = \"weapons_development\"\ntype = \"bool\"\ndefault = false\ndoc = \"research\"\n\
             [[option]]\nname = \"low_luck\"\ntype = \"bool\"\ndefault = false\ndoc = \"low luck\"\n",
        );
        let mut o = Options::new(&toml::Table::new(), d).unwrap();
        let old = "weapons_development=false";
        assert_eq!(o.canonical(), "low_luck=false,weapons_development=false");
        assert_eq!(o.canonical_as_of(old), old, "a save from before `low_luck` reads as it was written");
        assert_eq!(o.canonical_as_of(&o.canonical()), o.canonical());
        o.set("low_luck", &toml::Value::Boolean(true)).unwrap();
        assert_eq!(o.canonical_as_of(old), "low_luck=true,weapons_development=false", "set, it is named");
    }

    #[test]
    fn declarations_are_checked() {
        let bad_default = decl("[[option]]\nname = \"bombing_cap\"\ntype = \"choice\"\nvalues = [\"bank\"]\ndefault = \"moon\"\ndoc = \"x\"\n");
        let problems = Options::new(&toml::Table::new(), bad_default).unwrap_err();
        assert!(problems[0].1.contains("one of bank"), "{problems:?}");
        let unknown = decl("[[option]]\nname = \"dragons\"\ntype = \"bool\"\ndefault = true\ndoc = \"x\"\n");
        let problems = Options::new(&toml::Table::new(), unknown).unwrap_err();
        assert!(problems[0].1.contains("not a rule of the engine"), "{problems:?}");
    }

    #[test]
    fn list_and_object_values() {
        let d = OptionDecl { name: "x".into(), kind: OptionType::List, values: vec![], default: toml::Value::Array(vec![]), doc: String::new(), knob: None, min: None, max: None };
        assert!(d.check(&toml::Value::Array(vec![toml::Value::String("usa".into())])).is_ok());
        assert!(d.check(&toml::Value::Boolean(true)).unwrap_err().contains("is a list"));
        let d = OptionDecl { kind: OptionType::Object, default: toml::Value::Table(Default::default()), ..d };
        assert!(d.check(&toml::Value::Table(Default::default())).is_ok());
        assert!(d.check(&toml::Value::Array(vec![])).unwrap_err().contains("is an object"));
    }
}
