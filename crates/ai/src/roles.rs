//! What each unit type is for, read from the ruleset's unit table (its
//! cost, attack, defense, movement and behaviour columns), never from its
//! name: the planners buy and use "the cheapest defender" or "the unit that
//! raises the defender's attack", whatever a ruleset calls them. Only
//! buyable types take a buying role.

use warboard_rules::ids::UnitType;
use warboard_rules::ruleset::{Ruleset, UnitStats};

/// The unit types a computer player buys, by role. A role the ruleset has no
/// buyable unit for is `None` and never bought.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Roles {
    /// The land unit with the most defense per IPC (cheaper, then faster on
    /// a tie): the army's bulk (classic's and Europe's infantry).
    pub defender: Option<UnitType>,
    /// The land unit with the most attack (then the faster, then the
    /// cheaper): what breaks through (armor).
    pub striker: Option<UnitType>,
    /// A land unit whose support raises the defender's attack, bought one for
    /// one with it when attacking pays (Europe's artillery); `None` where no
    /// unit supports the defender.
    pub supporter: Option<UnitType>,
    /// The aircraft with the best defense that is not a strategic bomber
    /// (the fighter): it defends, escorts attacks and lands on carriers.
    pub fighter: Option<UnitType>,
    /// The strategic bomber with the best attack.
    pub bomber: Option<UnitType>,
    /// The ship that carries land units, the cheapest per room.
    pub transport: Option<UnitType>,
    /// The warship with the best attack (then hit points): the battleship.
    pub capital_ship: Option<UnitType>,
    /// The cheapest buyable warship that cancels enemy submarines' first
    /// strike and lets aircraft hit them (Europe's destroyer); `None` where
    /// the ruleset has none.
    pub submarine_hunter: Option<UnitType>,
}

impl Roles {
    pub fn of(rs: &Ruleset) -> Roles {
        let buyable: Vec<&UnitStats> = rs.unit_types().filter(|u| u.buyable && u.cost > 0).collect();
        let army: Vec<&UnitStats> = buyable.iter().copied().filter(|u| u.is_land() && u.is_combatant() && u.movement > 0).collect();
        // Ratios compared exactly: a/b against c/d as a·d against c·b.
        let defender = army
            .iter()
            .copied()
            .max_by(|a, b| {
                (a.defense as u64 * b.cost as u64)
                    .cmp(&(b.defense as u64 * a.cost as u64))
                    .then(b.cost.cmp(&a.cost))
                    .then(a.movement.cmp(&b.movement))
                    .then(rs.rank(b.kind).cmp(&rs.rank(a.kind)))
            })
            .map(|u| u.kind);
        let striker = army
            .iter()
            .copied()
            .max_by(|a, b| {
                a.attack.cmp(&b.attack).then(a.movement.cmp(&b.movement)).then(b.cost.cmp(&a.cost)).then(rs.rank(b.kind).cmp(&rs.rank(a.kind)))
            })
            .map(|u| u.kind);
        let supporter = defender.and_then(|d| {
            army.iter()
                .copied()
                .filter(|u| u.kind != d && u.support.is_some_and(|s| s.target == d && s.attack > rs.stats(d).attack))
                .min_by_key(|u| (u.cost, rs.rank(u.kind)))
                .map(|u| u.kind)
        });
        let fighter = buyable
            .iter()
            .copied()
            .filter(|u| u.is_air() && !u.strategic_bomber)
            .max_by(|a, b| a.defense.cmp(&b.defense).then(b.cost.cmp(&a.cost)).then(rs.rank(b.kind).cmp(&rs.rank(a.kind))))
            .map(|u| u.kind);
        let bomber = buyable
            .iter()
            .copied()
            .filter(|u| u.is_air() && u.strategic_bomber)
            .max_by(|a, b| a.attack.cmp(&b.attack).then(b.cost.cmp(&a.cost)).then(rs.rank(b.kind).cmp(&rs.rank(a.kind))))
            .map(|u| u.kind);
        let transport = buyable
            .iter()
            .copied()
            .filter(|u| u.is_sea() && u.transport_capacity() > 0)
            .min_by(|a, b| {
                (a.cost as u64 * b.transport_capacity() as u64)
                    .cmp(&(b.cost as u64 * a.transport_capacity() as u64))
                    .then(rs.rank(a.kind).cmp(&rs.rank(b.kind)))
            })
            .map(|u| u.kind);
        let warships: Vec<&UnitStats> = buyable.iter().copied().filter(|u| u.is_sea() && u.attack > 0).collect();
        let capital_ship = warships
            .iter()
            .copied()
            .max_by(|a, b| a.attack.cmp(&b.attack).then(a.hit_points.cmp(&b.hit_points)).then(b.cost.cmp(&a.cost)).then(rs.rank(b.kind).cmp(&rs.rank(a.kind))))
            .map(|u| u.kind);
        let submarine_hunter = warships.iter().copied().filter(|u| u.anti_submarine).min_by_key(|u| (u.cost, rs.rank(u.kind))).map(|u| u.kind);
        Roles { defender, striker, supporter, fighter, bomber, transport, capital_ship, submarine_hunter }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warboard_rules::ruleset;

    #[test]
    fn classic_roles_are_the_classic_units() {
        let r = Roles::of(&ruleset("classic").unwrap());
        assert_eq!(r.defender, Some(UnitType::Infantry));
        assert_eq!(r.striker, Some(UnitType::Armor));
        assert_eq!(r.supporter, None);
        assert_eq!(r.fighter, Some(UnitType::Fighter));
        assert_eq!(r.bomber, Some(UnitType::Bomber));
        assert_eq!(r.transport, Some(UnitType::Transport));
        assert_eq!(r.capital_ship, Some(UnitType::Battleship));
        assert_eq!(r.submarine_hunter, None);
    }

    #[test]
    fn europe_adds_artillery_and_destroyers_and_never_a_factory() {
        let rs = ruleset("europe").unwrap();
        let r = Roles::of(&rs);
        assert_eq!(r.defender, Some(UnitType::Infantry));
        assert_eq!(r.striker, Some(UnitType::Armor));
        assert_eq!(r.supporter, Some(UnitType::Artillery));
        assert_eq!(r.capital_ship, Some(UnitType::Battleship));
        assert_eq!(r.submarine_hunter, Some(UnitType::Destroyer));
        let all = [r.defender, r.striker, r.supporter, r.fighter, r.bomber, r.transport, r.capital_ship, r.submarine_hunter];
        assert!(all.iter().flatten().all(|t| rs.stats(*t).buyable), "{r:?}");
    }
}
