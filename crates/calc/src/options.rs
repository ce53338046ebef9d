//! How the attacker plays the battle: retreat policy, order of loss, and how
//! fine the exact computation is.

use crate::spec::{echoed, unit_by_name};
use crate::CalcError;
use std::hash::{Hash, Hasher};
use warboard_rules::UnitType;

/// When the attacker breaks off. Retreats come only after a full round and
/// never from an amphibious assault (DAAK 4.1, 4.3(b)).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum RetreatPolicy {
    /// Fight to the end.
    #[default]
    Never,
    /// Retreat once this many rounds have been fought (1 or more).
    AfterRound(u32),
    /// Retreat after a round when the chance of winning (destroying the
    /// defenders with a unit left) by pressing on falls below this
    /// probability. The chance counts the later retreats of this same
    /// policy: it is the value of the battle as this policy plays it.
    WinChanceBelow(f64),
}

impl RetreatPolicy {
    /// Parses `never`, `after:N` or `below:P` (P a probability, or a
    /// percentage with `%`).
    pub fn parse(text: &str) -> Result<RetreatPolicy, CalcError> {
        let text = text.trim().to_ascii_lowercase();
        let bad = || {
            CalcError::Syntax(format!(
                "retreat policy \"{}\": use never, after:N (N ≥ 1) or below:P (0 ≤ P ≤ 1, or a percentage like 40%)",
                echoed(&text)
            ))
        };
        if text == "never" {
            return Ok(RetreatPolicy::Never);
        }
        if let Some(n) = text.strip_prefix("after:") {
            let n: u32 = n.trim().parse().map_err(|_| bad())?;
            return if n >= 1 { Ok(RetreatPolicy::AfterRound(n)) } else { Err(bad()) };
        }
        if let Some(p) = text.strip_prefix("below:") {
            let p = p.trim();
            let value: f64 = match p.strip_suffix('%') {
                Some(pct) => pct.trim().parse::<f64>().map_err(|_| bad())? / 100.0,
                None => p.parse().map_err(|_| bad())?,
            };
            return if (0.0..=1.0).contains(&value) { Ok(RetreatPolicy::WinChanceBelow(value)) } else { Err(bad()) };
        }
        Err(bad())
    }
}

/// Which units a side loses first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum LossOrder {
    /// The battle engine's default (FORMAT.md v2): cheapest first, ties by
    /// the lower combat value in its role, defenseless units (Anniversary's
    /// transports) last.
    #[default]
    Default,
    /// The default, except that the last land unit is kept for as long as
    /// anything else can be taken, so that the territory can be captured.
    KeepLandUnit,
    /// Everything else before any aircraft (each group in default order).
    KeepAircraft,
    /// These unit types first, in this order; types not listed afterwards
    /// in default order. A hit that only damages a unit with a hit point to
    /// spare (a whole battleship) is still taken before any loss.
    Explicit(Vec<UnitType>),
}

impl LossOrder {
    /// Parses `default`, `keep-land`, `keep-air`, or a comma-separated list
    /// of unit names ("inf,arm,ftr").
    pub fn parse(text: &str) -> Result<LossOrder, CalcError> {
        let text = text.trim().to_ascii_lowercase();
        match text.as_str() {
            "default" => return Ok(LossOrder::Default),
            "keep-land" | "keep_land" | "keep-land-unit" => return Ok(LossOrder::KeepLandUnit),
            "keep-air" | "keep_air" | "keep-aircraft" => return Ok(LossOrder::KeepAircraft),
            _ => {}
        }
        let mut list = Vec::new();
        for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let kind = unit_by_name(name).ok_or_else(|| CalcError::UnknownUnit(echoed(name)))?;
            if !list.contains(&kind) {
                list.push(kind);
            }
        }
        if list.is_empty() {
            return Err(CalcError::Syntax(format!(
                "order of loss \"{}\": use default, keep-land, keep-air, or a list of unit names like inf,arm,ftr",
                echoed(&text)
            )));
        }
        Ok(LossOrder::Explicit(list))
    }
}

/// Everything about a calculation besides the units.
#[derive(Clone, Debug, PartialEq)]
pub struct CalcOptions {
    /// The attacking land units come straight from transports: attacking
    /// battleships bombard in round one, and nobody retreats.
    pub amphibious: bool,
    pub retreat: RetreatPolicy,
    pub attacker_order: LossOrder,
    pub defender_order: LossOrder,
    /// Battle states and transitions less likely than this are dropped
    /// (their total is reported as `pruned`).
    pub prune_below: f64,
    /// Also compute the distribution of the number of rounds. It costs a
    /// round-by-round pass (several times the exact solve), so the computer
    /// players leave it off; the expected number of rounds is always there.
    pub rounds_distribution: bool,
}

impl Default for CalcOptions {
    fn default() -> CalcOptions {
        CalcOptions {
            amphibious: false,
            retreat: RetreatPolicy::Never,
            attacker_order: LossOrder::Default,
            defender_order: LossOrder::Default,
            prune_below: 1e-12,
            rounds_distribution: false,
        }
    }
}

impl CalcOptions {
    pub(crate) fn check(&self) -> Result<(), CalcError> {
        if !(0.0..1e-3).contains(&self.prune_below) {
            return Err(CalcError::Syntax(format!("the prune threshold {} must be at least 0 and below 0.001", self.prune_below)));
        }
        if let RetreatPolicy::WinChanceBelow(p) = self.retreat {
            if !(0.0..=1.0).contains(&p) {
                return Err(CalcError::Syntax(format!("the retreat threshold {p} is not a probability")));
            }
        }
        if self.retreat == RetreatPolicy::AfterRound(0) {
            return Err(CalcError::Syntax("a retreat comes after a full round: after:N needs N ≥ 1".into()));
        }
        Ok(())
    }
}

// Options key the result cache: floats are compared and hashed by their bits.
impl Eq for CalcOptions {}

impl Hash for CalcOptions {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.amphibious.hash(h);
        match self.retreat {
            RetreatPolicy::Never => 0u8.hash(h),
            RetreatPolicy::AfterRound(n) => (1u8, n).hash(h),
            RetreatPolicy::WinChanceBelow(p) => (2u8, p.to_bits()).hash(h),
        }
        self.attacker_order.hash(h);
        self.defender_order.hash(h);
        self.prune_below.to_bits().hash(h);
        self.rounds_distribution.hash(h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_policies() {
        assert_eq!(RetreatPolicy::parse("never").unwrap(), RetreatPolicy::Never);
        assert_eq!(RetreatPolicy::parse("after:2").unwrap(), RetreatPolicy::AfterRound(2));
        assert_eq!(RetreatPolicy::parse("below:0.4").unwrap(), RetreatPolicy::WinChanceBelow(0.4));
        assert_eq!(RetreatPolicy::parse("below:40%").unwrap(), RetreatPolicy::WinChanceBelow(0.4));
        for bad in ["after:0", "after:x", "below:1.5", "sometimes"] {
            assert!(RetreatPolicy::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(LossOrder::parse("keep-land").unwrap(), LossOrder::KeepLandUnit);
        assert_eq!(LossOrder::parse("arm, inf").unwrap(), LossOrder::Explicit(vec![UnitType::Armor, UnitType::Infantry]));
        assert!(LossOrder::parse("inf, dragons").is_err());
    }
}
