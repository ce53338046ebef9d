//! The board as options change it: values and owners a ruleset changes in
//! `[[space_change]]` (the Alternative rules on the classic board, some
//! behind `axis_bonus_points`), and the options that move capitals, merge
//! nations or put territories and nations out of the game (ALT L58–66).
//! Worked out once, whenever options are set, so that the rules read plain
//! map values (`Space::ipc`, `original_owner`, `capital_of`).

use super::{Ruleset, TeamsKnob};
use crate::ids::{PowerId, SpaceId};
use crate::state::Teams;

/// One `[[space_change]]` entry, for one territory.
#[derive(Clone, Debug)]
pub(crate) struct SpaceChange {
    pub at: SpaceId,
    pub ipc: Option<u32>,
    /// `Some(None)`: neutral.
    pub owner: Option<Option<PowerId>>,
    /// Applied only while this bool option is true.
    pub option: Option<String>,
}

#[derive(Clone, Debug)]
struct BaseSpace {
    ipc: u32,
    original_owner: Option<PowerId>,
    neutral: bool,
    capital_of: Option<PowerId>,
}

/// The board before any option: the map file's values and the powers'
/// capitals, and the ruleset's changes.
#[derive(Clone, Debug, Default)]
pub(crate) struct BaseBoard {
    spaces: Vec<BaseSpace>,
    capitals: Vec<Option<SpaceId>>,
    changes: Vec<SpaceChange>,
}

impl BaseBoard {
    pub(crate) fn of(rs: &Ruleset, changes: Vec<SpaceChange>) -> BaseBoard {
        BaseBoard {
            spaces: rs
                .map
                .spaces
                .iter()
                .map(|s| BaseSpace { ipc: s.ipc, original_owner: s.original_owner, neutral: s.neutral, capital_of: s.capital_of })
                .collect(),
            capitals: rs.powers.iter().map(|p| p.capital).collect(),
            changes,
        }
    }
}

/// The value a relocated capital gets (ALT L66).
const RELOCATED_CAPITAL_VALUE: u32 = 8;

impl Ruleset {
    /// Works the board out again from the map and the options now set.
    /// Errors name the option and the value at fault.
    pub fn apply_board_options(&mut self) -> Result<(), String> {
        let base = self.board.clone();
        if base.spaces.len() != self.map.spaces.len() {
            return Ok(());
        }
        for (sp, b) in self.map.spaces.iter_mut().zip(&base.spaces) {
            sp.ipc = b.ipc;
            sp.original_owner = b.original_owner;
            sp.neutral = b.neutral;
            sp.capital_of = b.capital_of;
            sp.off_limits = false;
        }
        for (p, c) in self.powers.iter_mut().zip(&base.capitals) {
            p.capital = *c;
        }
        let knobs = toml::Table::try_from(&*self.options).map_err(|e| e.to_string())?;
        for c in &base.changes {
            let on = c.option.as_ref().is_none_or(|o| knobs.get(o).and_then(toml::Value::as_bool).unwrap_or(false));
            if !on {
                continue;
            }
            let sp = &mut self.map.spaces[c.at.index()];
            if let Some(v) = c.ipc {
                sp.ipc = v;
            }
            if let Some(o) = c.owner {
                sp.original_owner = o;
                sp.neutral = o.is_none();
            }
        }
        let power = |rs: &Ruleset, what: &str, name: &str| rs.power_by_name(name).ok_or_else(|| format!("option `{what}`: `{name}` is not a power of this ruleset"));
        let land = |rs: &Ruleset, what: &str, name: &str| match rs.map.id(name) {
            Some(t) if rs.map.is_land(t) => Ok(t),
            _ => Err(format!("option `{what}`: `{name}` is not a land territory of the map")),
        };
        // New capitals (ALT L66): worth 8 from the start; the old capital
        // loses what the new one gained (nothing when it is worth 8 already).
        for (name, t) in self.options.relocated_capitals.clone() {
            let p = power(self, "relocated_capitals", &name)?;
            let at = land(self, "relocated_capitals", &t)?;
            if self.map.spaces[at.index()].original_owner != Some(p) {
                return Err(format!("option `relocated_capitals`: {t} is not one of {name}'s original territories"));
            }
            let Some(old) = self.powers[p.index()].capital else {
                return Err(format!("option `relocated_capitals`: {name} has no capital to move"));
            };
            if old != at {
                let gain = RELOCATED_CAPITAL_VALUE.saturating_sub(self.map.spaces[at.index()].ipc);
                self.map.spaces[at.index()].ipc += gain;
                let o = &mut self.map.spaces[old.index()];
                o.ipc = o.ipc.saturating_sub(gain);
                o.capital_of = None;
                self.map.spaces[at.index()].capital_of = Some(p);
                self.powers[p.index()].capital = Some(at);
            }
        }
        let mut out: Vec<PowerId> = Vec::new();
        for name in self.options.sitting_out.clone() {
            out.push(power(self, "sitting_out", &name)?);
        }
        // Combined nations (ALT L58): the group's first power holds every
        // member's territories and the one capital chosen.
        let mut combined: Vec<PowerId> = Vec::new();
        for group in self.options.combining_nations.clone() {
            let members = group.nations.iter().map(|n| power(self, "combining_nations", n)).collect::<Result<Vec<_>, _>>()?;
            // A nation is combined once: named twice, its territories would
            // go to two leads (issue 34).
            for (m, name) in members.iter().zip(&group.nations) {
                if combined.contains(m) {
                    return Err(format!("option `combining_nations`: `{name}` is named twice"));
                }
                combined.push(*m);
            }
            let Some(&lead) = members.first() else { return Err("option `combining_nations`: a group names its nations".into()) };
            let capital = land(self, "combining_nations", &group.capital)?;
            if !members.iter().any(|m| self.powers[m.index()].capital == Some(capital)) {
                return Err(format!("option `combining_nations`: {} is not the capital of one of {}", group.capital, group.nations.join(", ")));
            }
            for sp in self.map.spaces.iter_mut() {
                if sp.original_owner.is_some_and(|o| members.contains(&o)) {
                    sp.original_owner = Some(lead);
                }
                if sp.capital_of.is_some_and(|o| members.contains(&o)) {
                    sp.capital_of = None;
                }
            }
            self.map.spaces[capital.index()].capital_of = Some(lead);
            for m in &members {
                self.powers[m.index()].capital = None;
            }
            self.powers[lead.index()].capital = Some(capital);
            out.extend(members.iter().skip(1));
        }
        // Limited war (ALT L62): nations left out, their territories
        // unclaimed like neutrals; off-limits territories worth nothing.
        let war = self.options.limited_war.clone();
        for name in &war.nations {
            let p = power(self, "limited_war", name)?;
            out.push(p);
            for sp in self.map.spaces.iter_mut().filter(|sp| sp.original_owner == Some(p)) {
                sp.original_owner = None;
                sp.neutral = true;
                sp.capital_of = None;
            }
            self.powers[p.index()].capital = None;
        }
        for t in &war.off_limits {
            let at = land(self, "limited_war", t)?;
            let sp = &mut self.map.spaces[at.index()];
            sp.ipc = 0;
            sp.original_owner = None;
            sp.neutral = true;
            sp.off_limits = true;
            if let Some(p) = sp.capital_of.take() {
                self.powers[p.index()].capital = None;
            }
        }
        if let TeamsKnob::Word(w) = &self.options.teams {
            if w != "independent" {
                return Err(format!("option `teams`: `{w}` is not a word it takes (\"independent\")"));
            }
        }
        if let TeamsKnob::Named(named) = &self.options.teams {
            // A nation plays on one team (ALT L64): on two, the teams could
            // not be told apart (issue 34).
            let mut seen: Vec<PowerId> = Vec::new();
            for list in named.values() {
                for n in list {
                    let p = power(self, "teams", n)?;
                    if seen.contains(&p) {
                        return Err(format!("option `teams`: `{n}` is on two teams, or named twice"));
                    }
                    seen.push(p);
                }
            }
        }
        out.sort();
        out.dedup();
        self.out_of_play = out;
        Ok(())
    }

    /// Whether a power takes part in the game at all.
    pub fn plays(&self, p: PowerId) -> bool {
        // `sitting_out` is read as it stands too: a knob set without
        // `apply_board_options` still counts.
        !self.out_of_play.contains(&p) && !self.options.sitting_out.iter().any(|n| *n == self.powers[p.index()].id)
    }

    /// The teams a game starts with: the ruleset's sides, or the `teams`
    /// option (ALT L64; a nation on no team plays alone).
    pub fn initial_teams(&self) -> Teams {
        match &self.options.teams {
            TeamsKnob::Named(named) if !named.is_empty() => {
                let names: Vec<String> = named.keys().cloned().collect();
                let mut of = vec![None; self.powers.len()];
                for (i, list) in named.values().enumerate() {
                    for n in list {
                        if let Some(p) = self.power_by_name(n) {
                            of[p.index()] = Some(i as u8);
                        }
                    }
                }
                Teams { names: names.into(), of }
            }
            TeamsKnob::Word(_) => Teams { names: Vec::<String>::new().into(), of: vec![None; self.powers.len()] },
            TeamsKnob::Named(_) => Teams::from_sides(&self.powers.iter().map(|p| p.side).collect::<Vec<_>>()),
        }
    }
}
