//! Entries of the log that are not rules actions (issue 31, points 1 and 7;
//! docs/saves.md, "Table entries"): the host's clock notes, and corrections
//! by consent. The rules core never sees them; the record reads them, keeps
//! them in the log like any entry (so in a proven game each is a link of
//! the signed chain and verifies with it), and replays them.
//!
//! - `{"type":"table","event":E,"powers":[P…],"deadline":"2026-11-28 14:07 UTC"}`: the
//!   host's clock. `E` is `reminder` (half the time per move gone),
//!   `late-reminder` (nine tenths), `expired`, `taken-over` (the computer
//!   takes the powers' seats) or `reclaimed` (their player is back).
//!   Made by the host only (`by: engine`); no effect on the game.
//! - `{"type":"correction","power":P,"take_back_to":N}`: `P`'s side
//!   proposes to take back the log's entries from `N` on, dice rolled
//!   included; `{"type":"correction","power":P,"state":{…},"remove":[U…]}`
//!   proposes to correct the position as it stands: FORMAT.md `state`
//!   changes (`ipcs`, `control`, `units` added) and units removed by name;
//!   `{"type":"correction","power":P,"approve":M}` — a power of another
//!   side approves proposal `M` (the entry's number), and the game returns
//!   to where it stood before entry `N` (or its position is corrected);
//!   `"decline":M`, by either side, ends the proposal. A proposal lapses
//!   when a rules action follows it. The taken-back entries stay in the
//!   log, superseded.

use serde_json::{Map, Value};
use warboard_rules::{PowerId, Ruleset};

/// The seat that makes the host's clock notes in a proven game's chain
/// (docs/pbem.md): the server, whose receipt is their proof.
pub const TABLE_SEAT: &str = "table";

/// What an entry that is not a rules action says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableEntry {
    /// `deadline`: when the move's time runs (or ran) out, as the host
    /// writes it; the receipt of a proven game's entry times the note itself.
    Clock {
        event: ClockEvent,
        powers: Vec<PowerId>,
        deadline: Option<String>,
    },
    Correction {
        power: PowerId,
        step: CorrectionStep,
    },
}

/// The host's clock notes (issue 31, point 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockEvent {
    Reminder,
    LateReminder,
    Expired,
    TakenOver,
    Reclaimed,
}

impl ClockEvent {
    pub const ALL: [ClockEvent; 5] =
        [ClockEvent::Reminder, ClockEvent::LateReminder, ClockEvent::Expired, ClockEvent::TakenOver, ClockEvent::Reclaimed];

    pub fn as_str(self) -> &'static str {
        match self {
            ClockEvent::Reminder => "reminder",
            ClockEvent::LateReminder => "late-reminder",
            ClockEvent::Expired => "expired",
            ClockEvent::TakenOver => "taken-over",
            ClockEvent::Reclaimed => "reclaimed",
        }
    }

    fn parse(name: &str) -> Option<ClockEvent> {
        ClockEvent::ALL.into_iter().find(|e| e.as_str() == name)
    }
}

/// A correction by consent (issue 31, point 7): proposed by one side,
/// taking effect when another side approves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorrectionStep {
    Propose(Change),
    Approve { proposal: usize },
    Decline { proposal: usize },
}

/// What a correction changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The game returns to where it stood before entry `to`; the entries
    /// from it to the proposal are superseded.
    TakeBack { to: usize },
    /// The position as it stands, corrected: FORMAT.md `state` changes
    /// (`ipcs`, `control`, `units` added) and units removed by name.
    Position { state: Value, remove: Vec<String> },
}

impl TableEntry {
    /// The clock note `event` for `powers`, as an action's JSON.
    pub fn clock_action(rs: &Ruleset, event: ClockEvent, powers: &[PowerId], deadline: Option<&str>) -> Value {
        let mut action = serde_json::json!({
            "type": "table",
            "event": event.as_str(),
            "powers": powers.iter().map(|p| rs.power(*p).id.clone()).collect::<Vec<_>>(),
        });
        if let Some(t) = deadline {
            action["deadline"] = t.into();
        }
        action
    }

    /// Reads `action` if it is a table entry (`type` `table` or
    /// `correction`); `Ok(None)` for every other action.
    pub fn parse(rs: &Ruleset, action: &Value) -> Result<Option<TableEntry>, String> {
        let Some(object) = action.as_object() else { return Ok(None) };
        match object.get("type").and_then(Value::as_str) {
            Some("table") => clock(rs, object).map(Some),
            Some("correction") => correction(rs, object).map(Some),
            _ => Ok(None),
        }
    }
}

fn only_fields(object: &Map<String, Value>, allowed: &[&str], what: &str) -> Result<(), String> {
    match object.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => Err(format!("{what} has no field `{k}` (its fields: {})", allowed.join(", "))),
        None => Ok(()),
    }
}

fn power(rs: &Ruleset, v: Option<&Value>, what: &str) -> Result<PowerId, String> {
    let name = v.and_then(Value::as_str).ok_or_else(|| format!("{what} names a power"))?;
    rs.power_by_name(name).ok_or_else(|| format!("`{name}` is no power of {}", rs.name))
}

fn clock(rs: &Ruleset, object: &Map<String, Value>) -> Result<TableEntry, String> {
    only_fields(object, &["type", "event", "powers", "deadline"], "a table entry")?;
    let name = object.get("event").and_then(Value::as_str).ok_or("a table entry names its `event`")?;
    let event = ClockEvent::parse(name).ok_or_else(|| {
        let known: Vec<&str> = ClockEvent::ALL.iter().map(|e| e.as_str()).collect();
        format!("unknown table event `{name}` (known: {})", known.join(", "))
    })?;
    let list = object.get("powers").and_then(Value::as_array).ok_or("a table entry lists its `powers`")?;
    let powers = list.iter().map(|p| power(rs, Some(p), "each of `powers`")).collect::<Result<Vec<_>, _>>()?;
    if powers.is_empty() {
        return Err("a table entry lists at least one power".into());
    }
    let deadline = match object.get("deadline") {
        None => None,
        Some(v) => Some(v.as_str().filter(|t| t.len() <= 40).ok_or("`deadline` is a time written as text (at most 40 bytes)")?.to_string()),
    };
    Ok(TableEntry::Clock { event, powers, deadline })
}

fn correction(rs: &Ruleset, object: &Map<String, Value>) -> Result<TableEntry, String> {
    only_fields(object, &["type", "power", "take_back_to", "state", "remove", "approve", "decline"], "a correction")?;
    let power = power(rs, object.get("power"), "a correction")?;
    let number = |key: &str| {
        object.get(key).map(|v| v.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or(format!("`{key}` is an entry's number")))
    };
    let position = (object.contains_key("state") || object.contains_key("remove")).then(|| position_change(object));
    let steps = [
        number("take_back_to").map(|n| n.map(|to| CorrectionStep::Propose(Change::TakeBack { to }))),
        position.map(|c| c.map(CorrectionStep::Propose)),
        number("approve").map(|n| n.map(|n| CorrectionStep::Approve { proposal: n })),
        number("decline").map(|n| n.map(|n| CorrectionStep::Decline { proposal: n })),
    ];
    let mut given = steps.into_iter().flatten();
    let what = "a correction proposes (`take_back_to`, or `state` and `remove`), approves (`approve`) or declines (`decline`)";
    let step = given.next().ok_or(what)??;
    if given.next().is_some() {
        return Err(format!("{what}: one of them"));
    }
    Ok(TableEntry::Correction { power, step })
}

fn position_change(object: &Map<String, Value>) -> Result<Change, String> {
    let state = object.get("state").cloned().unwrap_or_else(|| Value::Object(Map::new()));
    let Some(fields) = state.as_object() else { return Err("a correction's `state` is an object of FORMAT.md `state` fields".into()) };
    let remove: Vec<String> = match object.get("remove") {
        None => Vec::new(),
        Some(list) => {
            let list = list.as_array().ok_or("`remove` lists units by name")?;
            list.iter().map(|u| u.as_str().map(str::to_string).ok_or("`remove` lists units by name (`u12`, or a position's name)")).collect::<Result<_, _>>()?
        }
    };
    if fields.is_empty() && remove.is_empty() {
        return Err("a corrected position changes something: `state` or `remove`".into());
    }
    Ok(Change::Position { state, remove })
}

/// Where a game's corrections stand, kept as the log grows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Corrections {
    /// The proposal still open: its entry's number and what it changes.
    pub pending: Option<(usize, Change)>,
    /// Every correction approved, in log order.
    pub approved: Vec<Approved>,
}

/// A correction that took effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Approved {
    pub approval: usize,
    pub proposal: usize,
    pub change: Change,
}

impl Change {
    /// The change in a few words, for `warboard verify` and logs:
    /// "taking back log[4..7]" for a proposal made in entry 7.
    pub fn describe(&self, proposal: usize) -> String {
        match self {
            Change::TakeBack { to } => format!("taking back log[{to}..{proposal}]"),
            Change::Position { state, remove } => {
                let mut parts = Vec::new();
                if state.as_object().is_some_and(|o| !o.is_empty()) {
                    parts.push(format!("setting {state}"));
                }
                if !remove.is_empty() {
                    parts.push(format!("removing {}", remove.join(", ")));
                }
                format!("correcting the position ({})", parts.join("; "))
            }
        }
    }
}

impl Approved {
    /// The entries it took back (none for a corrected position).
    pub fn superseded(&self) -> std::ops::Range<usize> {
        match self.change {
            Change::TakeBack { to } => to..self.proposal,
            Change::Position { .. } => self.proposal..self.proposal,
        }
    }
}

impl Corrections {
    /// The first entry a correction may take back now: the first after the
    /// last correction approved (what came before it was agreed).
    pub fn floor(&self) -> usize {
        self.approved.last().map_or(0, |a| a.approval + 1)
    }

    /// The last correction approved before entry `n`.
    pub fn last_before(&self, n: usize) -> Option<&Approved> {
        self.approved.iter().rev().find(|a| a.approval < n)
    }

    /// Whether entry `n` was taken back by a correction.
    pub fn superseded(&self, n: usize) -> bool {
        self.approved.iter().any(|a| a.superseded().contains(&n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> std::sync::Arc<Ruleset> {
        warboard_rules::ruleset("classic").unwrap()
    }

    #[test]
    fn reads_clock_notes_and_corrections_strictly() {
        let g = classic();
        let note = TableEntry::clock_action(&g, ClockEvent::Expired, &[g.power_by_name("germany").unwrap()], Some("2026-11-28 14:07 UTC"));
        assert_eq!(note, serde_json::json!({"type":"table","event":"expired","powers":["germany"],"deadline":"2026-11-28 14:07 UTC"}));
        assert!(matches!(TableEntry::parse(&g, &note), Ok(Some(TableEntry::Clock { event: ClockEvent::Expired, .. }))));
        assert_eq!(TableEntry::parse(&g, &serde_json::json!({"type":"end_phase"})), Ok(None));
        let take_back = serde_json::json!({"type":"correction","power":"russia","take_back_to":3});
        assert!(matches!(
            TableEntry::parse(&g, &take_back),
            Ok(Some(TableEntry::Correction { step: CorrectionStep::Propose(Change::TakeBack { to: 3 }), .. }))
        ));
        let position = serde_json::json!({"type":"correction","power":"russia","state":{"ipcs":{"russia":30}},"remove":["u3"]});
        let parsed = TableEntry::parse(&g, &position);
        assert!(matches!(parsed, Ok(Some(TableEntry::Correction { step: CorrectionStep::Propose(Change::Position { .. }), .. }))), "{parsed:?}");
        for bad in [
            serde_json::json!({"type":"table","event":"nap","powers":["germany"]}),
            serde_json::json!({"type":"table","event":"expired","powers":[]}),
            serde_json::json!({"type":"table","event":"expired","powers":["prussia"]}),
            serde_json::json!({"type":"table","event":"expired","powers":["germany"],"by":"me"}),
            serde_json::json!({"type":"correction","power":"russia"}),
            serde_json::json!({"type":"correction","power":"russia","approve":1,"decline":1}),
            serde_json::json!({"type":"correction","power":"russia","approve":-1}),
            serde_json::json!({"type":"correction","take_back_to":1}),
            serde_json::json!({"type":"correction","power":"russia","state":{}}),
            serde_json::json!({"type":"correction","power":"russia","remove":"u3"}),
            serde_json::json!({"type":"correction","power":"russia","state":{"ipcs":{}},"take_back_to":1}),
        ] {
            assert!(TableEntry::parse(&g, &bad).is_err(), "{bad} is refused");
        }
    }
}
