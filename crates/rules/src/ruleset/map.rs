//! The board: land territories, sea zones, their connections and canals.

use crate::ids::{PowerId, SpaceId};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceKind {
    Land,
    Sea,
}

#[derive(Clone, Debug)]
pub struct Space {
    pub id: String,
    pub name: String,
    pub kind: SpaceKind,
    /// IPC value (0 for sea zones).
    pub ipc: u32,
    /// The power that owns it at the start of the game; `None` for sea
    /// zones and neutral countries.
    pub original_owner: Option<PowerId>,
    pub neutral: bool,
    /// The power whose capital this is.
    pub capital_of: Option<PowerId>,
    /// A factory here at the start of the game (for the placement limit option).
    pub original_factory: bool,
    /// For an island fully surrounded by one sea zone (DAAK 3.4(b)): that zone.
    pub island_in: Option<SpaceId>,
    /// A convoy centre at sea (Europe): its value is paid to its owner while
    /// the owner controls the zone (and `requires`, if given: the Soviet
    /// convoy needs Archangel, EUROPE FAQ: Industry, IPCs, Convoys, and
    /// Production).
    pub convoy: Option<Convoy>,
    /// The power that pays this territory's value to the enemy holding it,
    /// which is worth nothing to anyone otherwise (Europe's Middle East).
    pub paid_by: Option<PowerId>,
    /// A victory city (Anniversary, AA50 rules: victory conditions).
    pub victory_city: bool,
    /// Off limits (Alternative `limited_war`): never entered, flown over,
    /// claimed or bought on; worth nothing.
    pub off_limits: bool,
    pub adjacent: Vec<SpaceId>,
}

/// A convoy centre: see [`Space::convoy`].
#[derive(Clone, Debug)]
pub struct Convoy {
    pub value: u32,
    /// The power it pays, and its controller at the start.
    pub owner: PowerId,
    /// A land territory the owner must also control for the convoy to pay.
    pub requires: Option<SpaceId>,
}

impl Space {
    pub fn is_sea(&self) -> bool {
        self.kind == SpaceKind::Sea
    }
    pub fn is_land(&self) -> bool {
        self.kind == SpaceKind::Land
    }
    /// Who controls it when the game starts: its original owner, or a
    /// convoy zone's owner; `None` for neutrals and other sea zones.
    pub fn original_controller(&self) -> Option<PowerId> {
        self.original_owner.or(self.convoy.as_ref().map(|c| c.owner))
    }
}

/// A canal: ships pass between its two zones only when the listed land
/// territories were all friendly at the start of the turn (DAAK 2.3, 2.4).
#[derive(Clone, Debug)]
pub struct Canal {
    pub name: String,
    pub zones: [SpaceId; 2],
    pub controlled_by: Vec<SpaceId>,
}

#[derive(Clone, Debug)]
pub struct Map {
    pub spaces: Vec<Space>,
    pub canals: Vec<Canal>,
    by_id: HashMap<String, SpaceId>,
    /// Adjacency as a flat bit matrix, for the hot paths (movement search,
    /// the AI).
    adjacency: Vec<u64>,
    words: usize,
}

impl Map {
    pub(crate) fn new(spaces: Vec<Space>, canals: Vec<Canal>) -> Map {
        let by_id = spaces
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), SpaceId(i as u16)))
            .collect();
        let n = spaces.len();
        let words = n.div_ceil(64);
        let mut adjacency = vec![0u64; n * words];
        for (i, s) in spaces.iter().enumerate() {
            for a in &s.adjacent {
                adjacency[i * words + a.index() / 64] |= 1 << (a.index() % 64);
            }
        }
        Map { spaces, canals, by_id, adjacency, words }
    }

    pub fn len(&self) -> usize {
        self.spaces.len()
    }
    pub fn is_empty(&self) -> bool {
        self.spaces.is_empty()
    }
    pub fn ids(&self) -> impl Iterator<Item = SpaceId> {
        (0..self.spaces.len() as u16).map(SpaceId)
    }
    pub fn space(&self, id: SpaceId) -> &Space {
        &self.spaces[id.index()]
    }
    pub fn id(&self, name: &str) -> Option<SpaceId> {
        self.by_id.get(name).copied()
    }

    /// The space a person means by `text` (issue 15, point 12): its id or
    /// its name in any case, else the one space whose name contains it
    /// ("Egypt", "moscow"). `Err` lists the spaces it could mean (empty:
    /// none).
    pub fn find(&self, text: &str) -> Result<SpaceId, Vec<SpaceId>> {
        let t = text.trim();
        if let Some(id) = self.id(&t.to_ascii_uppercase()) {
            return Ok(id);
        }
        let lower = t.to_lowercase();
        if let Some(s) = self.spaces.iter().position(|s| s.name.to_lowercase() == lower) {
            return Ok(SpaceId(s as u16));
        }
        let hits: Vec<SpaceId> = (0..self.spaces.len()).filter(|i| !lower.is_empty() && self.spaces[*i].name.to_lowercase().contains(&lower)).map(|i| SpaceId(i as u16)).collect();
        if let [one] = hits.as_slice() {
            return Ok(*one);
        }
        if !hits.is_empty() {
            return Err(hits);
        }
        // Word by word, each word of `text` the start of a word of the name
        // or the other way round ("Eastern Europe" for "East Europe").
        let words = |t: &str| -> Vec<String> { t.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|w| w.len() >= 3).map(String::from).collect() };
        let asked = words(t);
        let loose: Vec<SpaceId> = (0..self.spaces.len())
            .filter(|i| {
                let name = words(&self.spaces[*i].name);
                !asked.is_empty() && asked.iter().all(|a| name.iter().any(|n| n.starts_with(a.as_str()) || a.starts_with(n.as_str())))
            })
            .map(|i| SpaceId(i as u16))
            .collect();
        match loose.as_slice() {
            [one] => Ok(*one),
            _ => Err(loose),
        }
    }
    pub fn name(&self, id: SpaceId) -> &str {
        &self.spaces[id.index()].id
    }
    pub fn is_sea(&self, id: SpaceId) -> bool {
        self.spaces[id.index()].is_sea()
    }
    pub fn is_land(&self, id: SpaceId) -> bool {
        self.spaces[id.index()].is_land()
    }
    pub fn adjacent(&self, a: SpaceId, b: SpaceId) -> bool {
        self.adjacency[a.index() * self.words + b.index() / 64] & (1 << (b.index() % 64)) != 0
    }
    pub fn neighbours(&self, a: SpaceId) -> &[SpaceId] {
        &self.spaces[a.index()].adjacent
    }
    /// The canal joining two sea zones, if their connection is one.
    pub fn canal_between(&self, a: SpaceId, b: SpaceId) -> Option<&Canal> {
        self.canals
            .iter()
            .find(|c| (c.zones[0] == a && c.zones[1] == b) || (c.zones[0] == b && c.zones[1] == a))
    }
    /// Capital of a power, from the map's flags.
    pub fn capitals(&self) -> impl Iterator<Item = (PowerId, SpaceId)> + '_ {
        self.ids().filter_map(|s| self.space(s).capital_of.map(|p| (p, s)))
    }
}
