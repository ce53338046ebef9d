//! The sample game of the Alternative rules (ALT L72–L112), rounds one and
//! two as told: the options of that evening (no set teams, the Americas
//! but Canada off limits, no extra Axis points), round one's paydays,
//! purchases, moves and battles, and round two's payday with the points
//! and turn order the text states.
//!
//! Where the text is loose the replay keeps its outcome and stays legal:
//! the German tanks that reach Caucasus from Germany have spent their
//! three moves, so Karelia is attacked by the three infantry from Eastern
//! Europe and the tank from there (the text: "the 3 tanks from Caucasus").
//! Battles are fought with `resolve` (cheapest losses first, as told) and
//! dice chosen to give the losses the text names.

use std::sync::Arc;
use warboard_rules::ids::UnitType::{self, Infantry, Plane, Ship, Tank};
use warboard_rules::{ruleset, Action, FixedDice, Game, Phase, PowerId, ScriptedDice, SpaceId, UnitId};

fn sample_rules() -> Arc<warboard_rules::Ruleset> {
    let off: Vec<toml::Value> = ["ALA", "WUS", "EUS", "MEX", "PAN", "CUB", "BRA", "COL", "PRU", "ARG"].iter().map(|s| toml::Value::String(s.to_string())).collect();
    let mut war = toml::Table::new();
    war.insert("off_limits".into(), toml::Value::Array(off));
    war.insert("nations".into(), toml::Value::Array(vec![toml::Value::String("usa".into())]));
    let war = toml::Value::Table(war);
    let no = toml::Value::Boolean(false);
    let independent = toml::Value::String("independent".into());
    Arc::new(ruleset("alternative").unwrap().with_options([("axis_bonus_points", &no), ("limited_war", &war), ("teams", &independent)]).unwrap())
}

struct Sample {
    g: Game,
}

impl Sample {
    fn p(&self, name: &str) -> PowerId {
        self.g.ruleset.power_by_name(name).unwrap()
    }
    fn t(&self, id: &str) -> SpaceId {
        self.g.ruleset.map.id(id).unwrap()
    }
    fn act(&mut self, by: Option<&str>, a: Action, dice: Vec<u8>) {
        let by = by.map(|n| self.p(n));
        let mut d = ScriptedDice::new(dice);
        self.g.apply_as(by, &a, &mut d).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    }
    fn buy(&mut self, power: &str, at: &str, units: &[(UnitType, u32)]) {
        self.act(Some(power), Action::Purchase { units: units.to_vec() }, vec![]);
        let at = self.t(at);
        self.act(Some(power), Action::Place { at, units: units.to_vec() }, vec![]);
    }
    /// `n` units of `kind` at `from` that the turn power moves, those with
    /// the most moves left first.
    fn units(&self, from: &str, kind: UnitType, n: usize) -> Vec<UnitId> {
        let at = self.t(from);
        let p = self.g.state.turn;
        let mut v: Vec<_> = self.g.state.units.iter().filter(|u| u.at == at && u.kind == kind && u.mover() == p).collect();
        v.sort_by_key(|u| (u.moved, u.id));
        assert!(v.len() >= n, "{n} {kind} at {from}");
        v.iter().take(n).map(|u| u.id).collect()
    }
    fn go(&mut self, groups: &[(&str, UnitType, usize)], route: &[&str]) {
        let mut ids = Vec::new();
        for (from, kind, n) in groups {
            ids.extend(self.units(from, *kind, *n));
        }
        let route = route.iter().map(|s| self.t(s)).collect();
        self.act(None, Action::Move { units: ids, route, transport: None, bombing: false }, vec![]);
    }
    fn fight(&mut self, at: &str, dice: &[u8]) {
        let at = self.t(at);
        self.act(None, Action::Resolve { at: Some(at) }, dice.to_vec());
    }
    fn end_turn(&mut self) {
        self.g.apply(&Action::EndPhase, &mut FixedDice(6)).unwrap();
    }
    fn count(&self, at: &str, owner: &str, kind: UnitType) -> usize {
        let (at, p) = (self.t(at), self.p(owner));
        self.g.state.units.iter().filter(|u| u.at == at && u.owner == p && u.kind == kind).count()
    }
    fn ipcs(&self, name: &str) -> i32 {
        self.g.state.ipcs[self.p(name).index()]
    }
    fn order(&self) -> Vec<String> {
        self.g.state.order.iter().map(|p| self.g.ruleset.power(*p).id.clone()).collect()
    }
}

#[test]
fn sample_game_rounds_one_and_two() {
    let mut s = Sample { g: Game::standard(sample_rules()) };
    assert_eq!(s.g.state.phase, Phase::Payday);
    // ALT L80: "Germany 32, UK 30, Japan 25, USSR 24. This gave us the
    // turn order for the round."
    s.end_turn();
    assert_eq!((s.ipcs("germany"), s.ipcs("uk"), s.ipcs("japan"), s.ipcs("russia"), s.ipcs("usa")), (32, 30, 25, 24, 0));
    assert_eq!(s.order(), ["germany", "uk", "japan", "russia"]);

    // Shopping (ALT L82–L88), every point spent.
    for (at, units) in [
        ("GER", vec![(Infantry, 3), (Tank, 3)]),
        ("WEU", vec![(Infantry, 3)]),
        ("SEU", vec![(Infantry, 1), (Tank, 1)]),
        ("EEU", vec![(Infantry, 3), (Tank, 1)]),
        ("UKR", vec![(Infantry, 3)]),
        ("FIN", vec![(Infantry, 2)]),
        ("ALG", vec![(Infantry, 1)]),
        ("LIB", vec![(Infantry, 1)]),
    ] {
        s.buy("germany", at, &units);
    }
    for (at, units) in [
        ("GBR", vec![(Infantry, 3), (Tank, 1)]),
        ("NOR", vec![(Ship, 2), (Plane, 4)]),
        ("EGY", vec![(Infantry, 2)]),
        ("FWA", vec![(Infantry, 1)]),
        ("FEQ", vec![(Infantry, 1)]),
    ] {
        s.buy("uk", at, &units);
    }
    for (at, units) in [
        ("JPN", vec![(Infantry, 3), (Tank, 1)]),
        ("JPZ", vec![(Ship, 1)]),
        ("MAN", vec![(Infantry, 2), (Tank, 2)]),
        ("FIC", vec![(Infantry, 2), (Tank, 2)]),
        ("KWA", vec![(Infantry, 1)]),
    ] {
        s.buy("japan", at, &units);
    }
    for (at, units) in [
        ("MOS", vec![(Infantry, 3), (Tank, 3)]),
        ("LEN", vec![(Infantry, 2)]),
        ("CAU", vec![(Infantry, 2)]),
        ("NOV", vec![(Infantry, 1)]),
        ("KAZ", vec![(Infantry, 1)]),
        ("YAK", vec![(Infantry, 1)]),
        ("SFE", vec![(Infantry, 2), (Tank, 1)]),
    ] {
        s.buy("russia", at, &units);
    }
    assert_eq!((s.ipcs("germany"), s.ipcs("uk"), s.ipcs("japan"), s.ipcs("russia")), (0, 0, 0, 0));
    for p in ["germany", "uk", "japan", "russia"] {
        s.act(Some(p), Action::EndPhase, vec![]);
    }
    assert_eq!((s.g.state.phase, s.g.ruleset.power(s.g.state.turn).id.as_str()), (Phase::Turn, "germany"));

    // Germany (ALT L90): Caucasus, then Karelia.
    s.go(&[("UKR", Infantry, 2)], &["UKR", "CAU"]);
    s.go(&[("EEU", Tank, 1)], &["EEU", "UKR", "CAU"]);
    s.go(&[("GER", Tank, 2)], &["GER", "EEU", "UKR", "CAU"]);
    s.fight("CAU", &[6, 6, 1, 1, 6, 6, 6]); // two hits, none back
    s.go(&[("EEU", Infantry, 3)], &["EEU", "LEN"]);
    s.go(&[("CAU", Tank, 1)], &["CAU", "LEN"]);
    s.fight("LEN", &[1, 6, 6, 1, 1, 6]); // two hits; one German infantry lost
    assert_eq!((s.count("CAU", "germany", Tank), s.count("CAU", "germany", Infantry), s.count("LEN", "germany", Infantry)), (2, 2, 2));
    s.end_turn();

    // UK (ALT L92): D-Day on the German capital.
    s.go(&[("NOR", Plane, 4)], &["NOR", "BAL", "GER"]);
    s.go(&[("GBR", Infantry, 3), ("GBR", Tank, 1)], &["GBR", "NOR"]);
    s.go(&[("NOR", Ship, 2)], &["NOR", "BAL"]);
    s.go(&[("BAL", Infantry, 3), ("BAL", Tank, 1)], &["BAL", "GER"]);
    s.fight("GER", &[6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 6, 6]); // four hits; two British infantry lost
    assert_eq!(s.g.state.control[s.t("GER").index()], Some(s.p("uk")));
    s.go(&[("GER", Plane, 2)], &["GER", "BAL"]);
    s.go(&[("BAL", Ship, 2)], &["BAL", "NOR"]);
    assert_eq!((s.count("GER", "uk", Plane), s.count("GER", "uk", Infantry), s.count("GER", "uk", Tank), s.count("NOR", "uk", Plane)), (2, 1, 1, 2));
    s.end_turn();

    // Japan (ALT L94): Soviet Far East, China, southern Asia, Kazakh.
    s.go(&[("MAN", Infantry, 1), ("MAN", Tank, 2)], &["MAN", "SFE"]);
    s.fight("SFE", &[6, 1, 1, 1, 6, 3, 1, 6]); // one Japanese tank survives
    s.go(&[("SFE", Tank, 1)], &["SFE", "MAN"]);
    s.go(&[("FIC", Infantry, 1)], &["FIC", "CHI"]);
    s.go(&[("FIC", Tank, 1)], &["FIC", "IND", "PER", "KAZ"]);
    s.go(&[("FIC", Tank, 1)], &["FIC", "SIN", "AFG", "KAZ"]);
    s.fight("KAZ", &[1, 6, 6]);
    s.end_turn();

    // USSR (ALT L96).
    s.go(&[("YAK", Infantry, 1)], &["YAK", "SFE"]);
    s.go(&[("MOS", Infantry, 2), ("MOS", Tank, 3)], &["MOS", "KAZ"]);
    s.fight("KAZ", &[6, 6, 1, 1, 6, 1, 1]); // both Japanese tanks; two Soviet infantry lost
    s.go(&[("KAZ", Tank, 1)], &["KAZ", "PER", "SYR"]);
    s.go(&[("KAZ", Tank, 1)], &["KAZ", "AFG", "IND"]);
    s.go(&[("KAZ", Tank, 1)], &["KAZ", "SIN", "FIC"]);
    s.fight("FIC", &[1, 6]);
    s.end_turn();

    // Round two's payday (ALT L100–L106): "UK: 35, USSR: 29, Japan: 24,
    // Germany: 0 (cannot get paid without a capital)", in that order.
    assert_eq!((s.g.state.round, s.g.state.phase), (2, Phase::Payday));
    s.end_turn();
    assert_eq!((s.ipcs("uk"), s.ipcs("russia"), s.ipcs("japan"), s.ipcs("germany")), (35, 29, 24, 0));
    assert_eq!(s.order(), ["uk", "russia", "japan", "germany"]);
    // Germany, without its capital, buys nothing: it is not among those
    // who shop (ALT L4).
    assert!(!s.g.actors().contains(&s.p("germany")));
}

/// Payday is ended by a nation still in the game: with random turn order
/// last round's order may begin with a nation eliminated since (ALT L22,
/// L48), and the game must not wait for it.
#[test]
fn payday_waits_for_no_eliminated_nation() {
    let rs = ruleset("alternative").unwrap();
    let mut g = Game::standard(rs.clone());
    let uk = rs.power_by_name("uk").unwrap();
    g.state.phase = Phase::Payday;
    g.state.turn = uk;
    g.state.order = vec![uk, PowerId(4), PowerId(3), PowerId(1), PowerId(0)];
    g.state.eliminated.push(uk);
    g.state.units.retain(|u| u.owner != uk);
    for c in g.state.control.iter_mut().filter(|c| **c == Some(uk)) {
        *c = None;
    }
    assert_eq!(g.actor(), warboard_rules::game::Actor::Power(PowerId(4)));
    g.apply_as(Some(PowerId(4)), &Action::EndPhase, &mut FixedDice(6)).expect("the United States ends payday");
}
