//! A side's units during a battle, and which of them each hit takes.
//!
//! A side is a [`Composition`]: counts per *class*, a class being a unit type
//! whole or damaged (a damaged class exists only for units with more than
//! one hit point). Casualties are chosen one hit at a time by a
//! [`LossRule`]: the next hit goes to the first class in the side's order of
//! loss that the step's hits may take. Because the rule is a function of the
//! composition alone, a battle state is fully described by the two
//! compositions: the same rule gives the same casualties in the exact
//! calculation and when the Monte Carlo mode answers the battle engine's
//! casualty decisions.

use crate::model::{BattleModel, TYPES};
use crate::options::LossOrder;
use std::cmp::Reverse;
use warboard_rules::UnitType;

/// Whole classes are unit types by index; damaged ones follow.
pub(crate) const CLASSES: usize = 2 * TYPES;

pub(crate) fn class_type(class: usize) -> UnitType {
    UnitType::ALL[class % TYPES]
}

pub(crate) fn is_damaged(class: usize) -> bool {
    class >= TYPES
}

/// Units left on one side, per class.
pub(crate) type Composition = [u16; CLASSES];

/// Which units the hits of a step may take (battle/casualties.rs, `pool`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pool {
    /// Bombardment, the attacker's fire, the defender's fire: anyone.
    All,
    /// AA fire: attacking aircraft.
    Aircraft,
    /// Submarines' fire: attacking submarines' first strike takes defending
    /// ships, and aircraft only with the `submarines_hit_aircraft` option;
    /// defending submarines' hits take attacking ships (`aircraft_too`
    /// false).
    Ships { aircraft_too: bool },
}

/// What one hit does to a unit of a class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HitEffect {
    Destroys,
    /// The unit loses a hit point and moves to this (damaged) class.
    Damages(usize),
}

/// A side's order of loss, as a function of its composition.
#[derive(Clone, Debug)]
pub(crate) struct LossRule {
    /// Classes in the order they take hits.
    order: Vec<usize>,
    /// Spare the last land unit while anything else can be hit.
    keep_land: bool,
    is_air: [bool; CLASSES],
    is_sea: [bool; CLASSES],
    is_land: [bool; CLASSES],
    effect: [HitEffect; CLASSES],
    /// Hit points a unit of the class has left.
    pub hit_points_left: [u8; CLASSES],
}

impl LossRule {
    pub fn new(model: &BattleModel, order: &LossOrder, attacking: bool) -> LossRule {
        let mut is_air = [false; CLASSES];
        let mut is_sea = [false; CLASSES];
        let mut is_land = [false; CLASSES];
        let mut effect = [HitEffect::Destroys; CLASSES];
        let mut hit_points_left = [0u8; CLASSES];
        for class in 0..CLASSES {
            let p = model.profile(class_type(class));
            is_air[class] = p.is_air();
            is_land[class] = p.is_land();
            is_sea[class] = !p.is_air() && !p.is_land();
            let hp = p.hit_points.max(1);
            hit_points_left[class] = if is_damaged(class) { hp.saturating_sub(1) } else { hp };
            if !is_damaged(class) && hp > 1 {
                effect[class] = HitEffect::Damages(class + TYPES);
            }
        }
        // The engine's default order (battle/casualties.rs,
        // `loss_order_key`, `default_casualties`). Its last tie-break is the
        // later unit first; standalone units are placed in unit-table order,
        // so between types that tie, the later type goes first.
        // A hit that only damages a unit with hit points to spare costs
        // nothing, so whole multi-hit units take hits before anything dies.
        let default_key = |class: usize| {
            let p = model.profile(class_type(class));
            let absorbs = matches!(effect[class], HitEffect::Damages(_));
            (!absorbs, p.loss_key(attacking), Reverse(class % TYPES), Reverse(is_damaged(class)))
        };
        // Only the classes this side can have: its unit types, whole or
        // damaged.
        let side = if attacking { &model.attackers } else { &model.defenders };
        let mut classes: Vec<usize> = (0..CLASSES).filter(|c| side.count(class_type(*c)) > 0).collect();
        // Defenseless units are taken only when nothing else can take the
        // hit, whatever the side's order (casualties.rs, `CasualtyChoice::
        // last`: AA50 FAQ: Combat).
        let last = |c: usize| model.profile(class_type(c)).defenseless;
        match order {
            LossOrder::Default | LossOrder::KeepLandUnit => classes.sort_by_key(|c| (last(*c), default_key(*c))),
            LossOrder::KeepAircraft => classes.sort_by_key(|c| (last(*c), is_air[*c], default_key(*c))),
            // A hit that only damages a unit with hit points to spare costs
            // nothing: every player takes it first, whatever order is named
            // for the losses (issue 33, point 19).
            LossOrder::Explicit(list) => classes.sort_by_key(|c| {
                let listed = list.iter().position(|t| *t == class_type(*c)).unwrap_or(list.len());
                let absorbs = matches!(effect[*c], HitEffect::Damages(_));
                (last(*c), !absorbs, listed, default_key(*c))
            }),
        }
        LossRule { order: classes, keep_land: *order == LossOrder::KeepLandUnit, is_air, is_sea, is_land, effect, hit_points_left }
    }

    fn admits(&self, pool: Pool, class: usize) -> bool {
        match pool {
            Pool::All => true,
            Pool::Aircraft => self.is_air[class],
            Pool::Ships { aircraft_too } => self.is_sea[class] || (aircraft_too && self.is_air[class]),
        }
    }

    /// The class the next hit of a step takes, if the step can take any.
    pub fn next_hit(&self, comp: &Composition, pool: Pool) -> Option<usize> {
        let land_left: u32 = if self.keep_land { (0..CLASSES).filter(|c| self.is_land[*c]).map(|c| comp[c] as u32).sum() } else { 0 };
        let mut spared = None;
        for &class in &self.order {
            if comp[class] == 0 || !self.admits(pool, class) {
                continue;
            }
            if self.keep_land && land_left == 1 && self.is_land[class] && self.effect[class] == HitEffect::Destroys {
                spared.get_or_insert(class);
                continue;
            }
            return Some(class);
        }
        spared
    }

    /// Applies one hit to a unit of `class`.
    pub fn hit(&self, comp: &mut Composition, class: usize) -> HitEffect {
        comp[class] -= 1;
        let effect = self.effect[class];
        if let HitEffect::Damages(to) = effect {
            comp[to] += 1;
        }
        effect
    }

    /// Hit points left on the side.
    pub fn hit_points(&self, comp: &Composition) -> u32 {
        (0..CLASSES).map(|c| comp[c] as u32 * self.hit_points_left[c] as u32).sum()
    }
}

/// The composition of `army`, of which `damaged` (units of more than one
/// hit point) have taken a hit.
pub(crate) fn composition_of(model: &BattleModel, army: &crate::spec::Army, damaged: &crate::spec::Army) -> Composition {
    let mut comp = [0u16; CLASSES];
    for (t, n) in army.iter() {
        let hurt = if model.profile(t).hit_points > 1 { damaged.count(t).min(n) } else { 0 };
        comp[t.index()] = (n - hurt).min(u16::MAX as u32) as u16;
        comp[t.index() + TYPES] = hurt.min(u16::MAX as u32) as u16;
    }
    comp
}

/// The units of a composition, damaged or not.
pub(crate) fn army_of(comp: &Composition) -> crate::spec::Army {
    let mut army = crate::spec::Army::new();
    for (class, n) in comp.iter().enumerate() {
        if *n > 0 {
            army.add(class_type(class), *n as u32);
        }
    }
    army
}
