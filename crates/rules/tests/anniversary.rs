//! The Anniversary scenarios as the engine starts them.

use warboard_rules::ids::UnitType;
use warboard_rules::{ruleset, Game, Phase};

#[test]
fn both_scenarios_start_with_their_turn_order_banks_and_holdings() {
    for (name, first, germany) in [("anniversary-1941", "germany", 31), ("anniversary-1942", "japan", 37)] {
        let rs = ruleset(name).unwrap();
        let g = Game::standard(rs.clone());
        assert_eq!(rs.power(g.state.turn).id, first, "{name}");
        assert_eq!(g.state.phase, Phase::Research, "{name}");
        let ger = rs.power_by_name("germany").unwrap();
        assert_eq!(g.state.ipcs[ger.index()], germany, "{name}: AA50 errata p. 9");
        // Japan holds Manchuria and Kiangsu, which China owns on the map.
        let japan = rs.power_by_name("japan").unwrap();
        for t in ["MAN", "KIA"] {
            assert_eq!(g.state.control[rs.map.id(t).unwrap().index()], Some(japan), "{name}: {t}");
        }
        assert_eq!(rs.map.spaces.iter().filter(|s| s.victory_city).count(), 18);
    }
}

#[test]
fn the_1941_japanese_transports_start_loaded() {
    let rs = ruleset("anniversary-1941").unwrap();
    let g = Game::standard(rs.clone());
    let sz61 = rs.map.id("SZ61").unwrap();
    let aboard: Vec<UnitType> = g.state.units.iter().filter(|u| u.at == sz61 && u.carried_by.is_some() && u.kind != UnitType::Fighter).map(|u| u.kind).collect();
    assert_eq!(aboard.iter().filter(|k| **k == UnitType::Infantry).count(), 3);
    assert_eq!(aboard.iter().filter(|k| **k == UnitType::Artillery).count(), 1);
    // Every piece of cargo is on a transport with room for it.
    let rel = g.relations();
    for t in g.state.units.iter().filter(|u| u.at == sz61 && u.kind == UnitType::Transport) {
        assert!(rel.transport_room(t.id) < 5, "both transports carry something");
    }
}
