//! Playing the Alternative rules (knob `free_movement`; issue 13) through
//! the rules core's public API.
//!
//! The random player (`Style::Random`) shops like the computer's first
//! policy (a third of the points in tanks, the rest infantry) and, on its
//! turn, picks at random among fighting out shared spaces, captures next to
//! its land units and attacks its strength clearly outweighs, ending the
//! turn as one of the choices.
//!
//! The computer (`Style::Best`, with a [`Tuning`]) plans around one enemy capital at a time
//! (the nearest, overland or by sea). It weighs battles by Lanchester's
//! square law (one hit kills any unit, so numbers count: ALT L28), keeps
//! its capital garrisoned against what the enemy can bring within a round
//! by land, by air and aboard the ships in reach, and never leaves it
//! empty; it buys mostly infantry, with ships and tanks when the target is
//! across the sea; it attacks a space from every origin at once when its
//! force (with the second wave of teammates who move before the defender)
//! clearly outweighs the defenders, loads, sails and lands, makes a
//! foothold next to a capital too strong to storm from the sea (new units
//! are bought there: ALT L30), and marches the rest toward the target.

use warboard_rules::battle::{self, Decision};
use warboard_rules::ids::{Domain, PowerId, SpaceId, UnitId, UnitType};
use warboard_rules::{Action, Game, Phase};

/// How a player picks among the moves this policy finds.
pub enum Style<'a> {
    /// The strongest by the computer's judgement, tuned (the computer
    /// player; the planning player chooses the tuning turn by turn).
    Best(Tuning),
    /// At random, and ending the turn as one of the choices (the random
    /// player); the closure returns a number below its argument.
    Random(&'a mut dyn FnMut(usize) -> usize),
}

/// The computer's knobs in the Alternative rules: the planning player
/// (issue 14) plays a round out under several and keeps the best.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// How far an attack must outweigh the defence, as a factor on the
    /// part of [`Force::beats`]'s square-law ratio above even (1 is the
    /// standard computer; lower is bolder).
    pub margin: f64,
    /// The capital's guard, as a factor on the defence it keeps against
    /// what the enemy can bring within a round (1 is standard).
    pub guard: f64,
    /// The share of an overland purchase spent on tanks (a quarter as
    /// standard; the rest is infantry).
    pub tanks: f64,
}

impl Tuning {
    /// The computer as it played before the planning player.
    pub const STANDARD: Tuning = Tuning { margin: 1.0, guard: 1.0, tanks: 0.25 };
}

/// The next action for `p`, who acts now.
pub fn next_action(game: &Game, p: PowerId, style: Style) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    if let Some((_, d)) = battle::decision(rs, s) {
        return match d {
            Decision::Casualties { side, choice, .. } => {
                Action::Casualties { units: battle::default_casualties(rs, s, &choice, side == battle::BattleSide::Attacker) }
            }
            _ => Action::Continue,
        };
    }
    // A defending plane without a ship flies to its first nearest landing.
    if let Some((id, choices)) = s.relocating.first() {
        if let (Some(u), Some(&to)) = (s.unit(*id), choices.first()) {
            if let Some(route) = crate::geo::path(&game.relations(), u.at, to, |_| true) {
                return Action::Move { units: vec![*id], route, transport: None, bombing: false };
            }
        }
    }
    match s.phase {
        Phase::Shopping => match style {
            Style::Best(tuning) => shop_best(game, p, tuning),
            Style::Random(_) => shop(game, p),
        },
        Phase::Turn => match style {
            Style::Best(tuning) => turn_best(game, p, tuning),
            style => turn(game, p, style),
        },
        _ => Action::EndPhase,
    }
}

/// Putting down `n` of `kind` at the first of `spots` the rules accept;
/// where none takes them all, one at a time anywhere it may go.
fn first_placement(game: &Game, p: PowerId, kind: UnitType, n: u32, spots: Vec<SpaceId>) -> Option<Action> {
    let all = spots.into_iter().map(|at| Action::Place { at, units: vec![(kind, n)] });
    let one = game.ruleset.map.ids().map(|at| Action::Place { at, units: vec![(kind, 1)] });
    all.chain(one).find(|a| game.is_legal_as(Some(p), a))
}

fn unplaced(game: &Game, p: PowerId) -> Vec<(UnitType, u32)> {
    game.state.unplaced.get(&p).map(|m| m.iter().filter(|(_, n)| **n > 0).map(|(k, n)| (*k, *n)).collect()).unwrap_or_default()
}

fn shop(game: &Game, p: PowerId) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    let placing = s.next_placer.is_some();
    let waiting = unplaced(game, p);
    if placing || (!waiting.is_empty() && !rs.options.fair_buying) {
        let (kind, _) = waiting[0];
        let n = if rs.options.fair_buying { 1 } else { waiting[0].1 };
        return first_placement(game, p, kind, n, drop_points(game, p)).unwrap_or(Action::EndPhase);
    }
    let points = s.ipcs[p.index()].max(0) as u32;
    let (tank, inf) = (rs.unit(UnitType::Tank).map_or(3, |u| u.cost), rs.unit(UnitType::Infantry).map_or(1, |u| u.cost));
    if points >= inf && waiting.is_empty() {
        // A third of the points in tanks, the rest infantry.
        let tanks = points / 3 / tank.max(1);
        let infantry = (points - tanks * tank) / inf.max(1);
        let units: Vec<(UnitType, u32)> = [(UnitType::Tank, tanks), (UnitType::Infantry, infantry)].into_iter().filter(|(_, n)| *n > 0).collect();
        return Action::Purchase { units };
    }
    Action::EndPhase
}

/// Where new land units go: the claimed territory with the most enemy land
/// units next to it, then the capital, then the rest.
fn drop_points(game: &Game, p: PowerId) -> Vec<SpaceId> {
    let s = &game.state;
    let rs = &game.ruleset;
    let rel = game.relations();
    let mut list: Vec<(i64, SpaceId)> = rs
        .map
        .ids()
        .filter(|t| rs.map.is_land(*t) && s.control[t.index()] == Some(p))
        .map(|t| {
            let threat: i64 = rs.map.space(t).adjacent.iter().map(|n| rel.enemy_units(p, *n).count() as i64).sum();
            let capital = rs.power(p).capital == Some(t);
            (-(threat * 2 + if capital { 1 } else { 0 }), t)
        })
        .collect();
    list.sort();
    list.into_iter().map(|(_, t)| t).collect()
}

fn strength(game: &Game, units: &[&warboard_rules::Unit]) -> u32 {
    units.iter().map(|u| game.ruleset.stats(u.kind).attack as u32).sum()
}

/// A side's weight in battle by Lanchester's square law: expected hits a
/// round times the hits it can take. One hit kills any Alternative unit,
/// so three infantry outlast a tank of the same cost (ALT L28).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Force {
    fire: f64,
    bodies: f64,
}

impl Force {
    fn of(game: &Game, units: &[&warboard_rules::Unit], attacking: bool) -> Force {
        let mut f = Force::default();
        for u in units {
            let st = game.ruleset.stats(u.kind);
            f.fire += if attacking { st.attack } else { st.defense } as f64 / 6.0;
            f.bodies += 1.0;
        }
        f
    }
    fn add(self, o: Force) -> Force {
        Force { fire: self.fire + o.fire, bodies: self.bodies + o.bodies }
    }
    fn weight(self) -> f64 {
        self.fire * self.bodies
    }
    /// Whether this attacking force clearly beats `defence`: a square-law
    /// ratio of 1.5 for a battle of some fifty units, more for small ones
    /// (dice decide them), less for huge ones (the law decides them); the
    /// part above even scaled by `margin` ([`Tuning::margin`]).
    fn beats(self, defence: Force, margin: f64) -> bool {
        let need = 1.0 + margin * (0.15 + 2.0 / (defence.bodies + 1.0).sqrt());
        self.bodies > 0.0 && self.weight() >= need * defence.weight() + 0.5
    }
}

fn turn(game: &Game, p: PowerId, style: Style) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    let rel = game.relations();
    // A space shared with the enemy is fought out first (ALT L32, L44).
    if let Some(at) = rs.map.ids().find(|t| s.units.iter().any(|u| u.at == *t && u.mover() == p) && rel.enemy_units(p, *t).next().is_some()) {
        return Action::Resolve { at: Some(at) };
    }
    let mut options: Vec<(i64, Action)> = Vec::new();
    let capital = rs.power(p).capital;
    for from in rs.map.ids().filter(|t| rs.map.is_land(*t)) {
        let mine: Vec<&warboard_rules::Unit> = s
            .units
            .iter()
            .filter(|u| u.at == from && u.mover() == p && rs.stats(u.kind).domain == Domain::Land && u.moved < rs.stats(u.kind).movement)
            .collect();
        if mine.is_empty() {
            continue;
        }
        // The capital keeps two units at home.
        let keep = if Some(from) == capital { 2 } else { 0 };
        if mine.len() <= keep {
            continue;
        }
        let free: Vec<&warboard_rules::Unit> = mine.iter().copied().skip(keep).collect();
        for &to in &rs.map.space(from).adjacent {
            let sp = rs.map.space(to);
            if !sp.is_land() || sp.off_limits {
                continue;
            }
            let enemies: Vec<&warboard_rules::Unit> = rel.enemy_units(p, to).collect();
            if enemies.is_empty() {
                let held = s.control[to.index()];
                if held.is_none_or(|h| !s.allied(p, h)) {
                    // Capture with the unit that has the fewest moves left
                    // to spare elsewhere: infantry first.
                    let u = free.iter().min_by_key(|u| (rs.stats(u.kind).movement - u.moved, u.id)).unwrap();
                    options.push((sp.ipc as i64 * 10 + 5, Action::Move { units: vec![u.id], route: vec![from, to], transport: None, bombing: false }));
                }
            } else {
                let ours = strength(game, &free);
                let theirs: u32 = enemies.iter().map(|u| rs.stats(u.kind).defense as u32).sum();
                if ours * 2 >= theirs * 3 + 2 {
                    let ids: Vec<UnitId> = free.iter().map(|u| u.id).collect();
                    let value = sp.ipc as i64 * 10 + if sp.capital_of.is_some() { 100 } else { 0 } + (ours as i64 - theirs as i64);
                    options.push((value, Action::Move { units: ids, route: vec![from, to], transport: None, bombing: false }));
                }
            }
        }
    }
    options.retain(|(_, a)| game.is_legal_as(Some(p), a));
    match style {
        Style::Best(_) => options.into_iter().max_by_key(|(v, _)| *v).map(|(_, a)| a).unwrap_or(Action::EndPhase),
        Style::Random(below) => {
            let k = below(options.len() + 1);
            options.into_iter().nth(k).map(|(_, a)| a).unwrap_or(Action::EndPhase)
        }
    }
}


const INF: u32 = u32::MAX / 4;

/// Distances from `sources` over the spaces `pass` lets through (sources
/// always count).
fn bfs(game: &Game, sources: &[SpaceId], pass: impl Fn(SpaceId) -> bool) -> Vec<u32> {
    let map = &game.ruleset.map;
    let mut d = vec![INF; map.len()];
    let mut queue = std::collections::VecDeque::new();
    for &s in sources {
        d[s.index()] = 0;
        queue.push_back(s);
    }
    while let Some(t) = queue.pop_front() {
        for &n in &map.space(t).adjacent {
            if d[n.index()] == INF && pass(n) {
                d[n.index()] = d[t.index()] + 1;
                queue.push_back(n);
            }
        }
    }
    d
}

/// The sea zones holding enemy units that a ship at `from` with `m` moves
/// left reaches this round without passing other enemy units (ALT L42).
fn sea_reach(game: &Game, pl: &Plan, from: SpaceId, m: u8) -> Vec<SpaceId> {
    let map = &game.ruleset.map;
    let d = bfs(game, &[from], |t| map.is_sea(t) && !pl.enemy[t.index()]);
    map.ids()
        .filter(|z| map.is_sea(*z) && pl.enemy[z.index()] && map.space(*z).adjacent.iter().any(|n| d[n.index()] < m as u32))
        .collect()
}


fn moves_left(game: &Game, u: &warboard_rules::Unit) -> u8 {
    game.ruleset.stats(u.kind).movement.saturating_sub(u.moved)
}

/// What the computer aims at this round.
struct Plan {
    /// The enemy capital aimed at.
    target: Option<SpaceId>,
    /// Whether it is reached by sea.
    by_sea: bool,
    /// Land distance of each space to the target.
    land_d: Vec<u32>,
    /// How good each sea zone is for a ship carrying land units toward the
    /// target (lower is better): twice the walk from its shore, plus the
    /// sailing to a better shore.
    pot: Vec<u32>,
    /// Where ships are bought and land units wait for them.
    embark: Option<(SpaceId, SpaceId)>,
    /// The own units that stay to defend the capital.
    garrison: Vec<UnitId>,
    /// Defence the capital still lacks.
    capital_need: i64,
    /// Whether enemy units stand on each space (asked for every step of
    /// every route: computed once a call, not once a question).
    enemy: Vec<bool>,
}

fn claims(game: &Game, p: PowerId) -> Vec<SpaceId> {
    game.ruleset.map.ids().filter(|t| game.ruleset.map.is_land(*t) && game.state.control[t.index()] == Some(p)).collect()
}

fn plan(game: &Game, p: PowerId, tuning: Tuning) -> Plan {
    let s = &game.state;
    let rs = &game.ruleset;
    let map = &rs.map;
    let rel = game.relations();
    let mut enemy = vec![false; map.len()];
    for u in s.units.iter().filter(|u| rel.enemies(p, u.owner)) {
        enemy[u.at.index()] = true;
    }
    let mine = claims(game, p);
    let open = |t: SpaceId| !map.space(t).off_limits;
    let land = |t: SpaceId| map.is_land(t) && !map.space(t).off_limits;
    // Enemy capitals not yet held by the team.
    let mut capitals: Vec<SpaceId> = Vec::new();
    for q in (0..rs.powers.len()).map(|i| PowerId(i as u8)) {
        if !rel.enemies(p, q) {
            continue;
        }
        if let Some(c) = rs.power(q).capital {
            let held = s.control[c.index()];
            if held.is_none_or(|h| !s.allied(p, h)) && !capitals.contains(&c) && open(c) {
                capitals.push(c);
            }
        }
    }
    // Where our forces are: claimed land and land units.
    let mut bases = mine.clone();
    for u in s.units.iter().filter(|u| u.owner == p && rs.stats(u.kind).domain == Domain::Land && map.is_land(u.at)) {
        if !bases.contains(&u.at) {
            bases.push(u.at);
        }
    }
    // Without capitals to aim at (option no_capitals: victory by wiping
    // the rivals out, ALT L60; or every enemy capital already held), the
    // nearest territory an enemy claims.
    if rs.options.no_capitals || capitals.is_empty() {
        capitals.clear();
        let from_land = bfs(game, &bases, land);
        let from_any = bfs(game, &mine, open);
        let nearest = map
            .ids()
            .filter(|t| land(*t) && s.control[t.index()].is_some_and(|h| rel.enemies(p, h)))
            .min_by_key(|t| (from_land[t.index()].min(from_any[t.index()].saturating_add(4)), t.index()));
        capitals.extend(nearest);
    }
    let mut best: Option<(u32, SpaceId, bool, Vec<u32>)> = None;
    for &c in &capitals {
        let ld = bfs(game, &[c], land);
        let md = bfs(game, &[c], open);
        let by_land = bases.iter().map(|t| ld[t.index()]).min().unwrap_or(INF);
        let by_mix = mine.iter().map(|t| md[t.index()]).min().unwrap_or(INF);
        let by_sea = by_land >= INF || by_land > by_mix + 4;
        let cost = if by_sea { by_mix.saturating_add(3) } else { by_land };
        if best.as_ref().is_none_or(|b| cost < b.0) {
            best = Some((cost, c, by_sea, ld));
        }
    }
    let (target, by_sea, land_d) = match best {
        Some((_, c, b, ld)) => (Some(c), b, ld),
        None => (None, false, vec![INF; map.len()]),
    };
    // Sea potential: twice the walk from a zone's shore, relaxed over
    // zones free of enemy units.
    let mut pot = vec![INF; map.len()];
    for z in map.ids().filter(|z| map.is_sea(*z)) {
        let shore = map.space(z).adjacent.iter().filter(|t| land(**t)).map(|t| land_d[t.index()]).min().unwrap_or(INF);
        pot[z.index()] = shore.saturating_mul(2).min(INF);
    }
    loop {
        let mut changed = false;
        for z in map.ids().filter(|z| map.is_sea(*z)) {
            if enemy[z.index()] {
                continue;
            }
            for &n in &map.space(z).adjacent {
                if map.is_sea(n) && pot[n.index()] + 1 < pot[z.index()] {
                    pot[z.index()] = pot[n.index()] + 1;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    // Embarkation: the zone next to our land with the best potential.
    let capital = rs.power(p).capital;
    let mut embark: Option<(u32, SpaceId, SpaceId)> = None;
    for z in map.ids().filter(|z| map.is_sea(*z) && !enemy[z.index()]) {
        let shore: Vec<SpaceId> = map.space(z).adjacent.iter().copied().filter(|t| mine.contains(t)).collect();
        let Some(&t) = shore.iter().find(|t| Some(**t) == capital).or(shore.first()) else { continue };
        let v = pot[z.index()];
        if v < INF && embark.is_none_or(|e| v < e.0) {
            embark = Some((v, z, t));
        }
    }
    // The capital's guard.
    let (garrison, capital_need) = guard(game, p, tuning.guard);
    Plan { target, by_sea, land_d, pot, embark: embark.map(|(_, z, t)| (z, t)), garrison, capital_need, enemy }
}

/// The enemy strength that can reach `at` within a round: land units by
/// land, land units a ship within reach can carry (board, sail two, land:
/// ALT L32–36), and planes.
fn threat(game: &Game, p: PowerId, at: SpaceId) -> i64 {
    let rs = &game.ruleset;
    let map = &rs.map;
    let rel = game.relations();
    let s = &game.state;
    let dl = bfs(game, &[at], |t| map.is_land(t));
    let dm = bfs(game, &[at], |_| true);
    // Zones from which a ship reaches the shore of `at` this round.
    let ds = {
        let shore: Vec<SpaceId> = map.space(at).adjacent.iter().copied().filter(|z| map.is_sea(*z)).collect();
        bfs(game, &shore, |t| map.is_sea(t))
    };
    let mut sum = 0i64;
    let mut berths = 0i64;
    let mut seaborne = Vec::new();
    for u in s.units.iter().filter(|u| rel.enemies(p, u.owner)) {
        let st = rs.stats(u.kind);
        match st.domain {
            Domain::Land if map.is_land(u.at) && dl[u.at.index()] <= st.movement as u32 => sum += st.attack as i64,
            Domain::Land if dm[u.at.index()] <= 3 => seaborne.push(st.attack as i64),
            Domain::Air if dm[u.at.index()] <= st.movement as u32 => sum += st.attack as i64,
            Domain::Sea if ds[u.at.index()] <= st.movement as u32 && st.cargo.is_some() => berths += 2,
            _ => {}
        }
    }
    // Only as many come by sea as the ships in reach can carry.
    seaborne.sort_unstable_by(|a, b| b.cmp(a));
    sum += seaborne.iter().take(berths as usize).sum::<i64>();
    sum
}

/// The own units kept at the capital, and the defence it still lacks;
/// `factor` scales the defence kept ([`Tuning::guard`]).
fn guard(game: &Game, p: PowerId, factor: f64) -> (Vec<UnitId>, i64) {
    let rs = &game.ruleset;
    let s = &game.state;
    let Some(c) = rs.power(p).capital else { return (Vec::new(), 0) };
    if s.control[c.index()] != Some(p) {
        return (Vec::new(), 0);
    }
    // Never an empty capital: any unit that reaches it takes it (ALT L30).
    let t = threat(game, p, c);
    let need = if t == 0 { 1 } else { ((t + 2 + t / 4) as f64 * factor).round() as i64 };
    let mut have: i64 = s.units.iter().filter(|u| u.at == c && u.owner != p && s.allied(p, u.owner)).map(|u| rs.stats(u.kind).defense as i64).sum();
    let mut own: Vec<&warboard_rules::Unit> = s.units.iter().filter(|u| u.at == c && u.owner == p && rs.stats(u.kind).domain != Domain::Sea).collect();
    own.sort_by_key(|u| (rs.stats(u.kind).movement, u.id));
    let mut keep = Vec::new();
    for u in own {
        if have >= need {
            break;
        }
        have += rs.stats(u.kind).defense as i64;
        keep.push(u.id);
    }
    (keep, (need - have).max(0))
}

fn shop_best(game: &Game, p: PowerId, tuning: Tuning) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    let waiting = unplaced(game, p);
    let pl = plan(game, p, tuning);
    if s.next_placer.is_some() || !waiting.is_empty() {
        let capital = rs.power(p).capital;
        for &(kind, n) in &waiting {
            let n = if rs.options.fair_buying { 1 } else { n };
            let mut spots: Vec<SpaceId> = Vec::new();
            match kind {
                UnitType::Ship => {
                    if let Some((z, _)) = pl.embark {
                        spots.push(z);
                    }
                    let mut zones: Vec<SpaceId> = rs.map.ids().filter(|z| rs.map.is_sea(*z)).collect();
                    zones.sort_by_key(|z| pl.pot[z.index()]);
                    spots.extend(zones);
                }
                UnitType::Infantry if pl.capital_need > 0 => spots.extend(capital),
                _ => {}
            }
            if matches!(kind, UnitType::Tank | UnitType::Infantry | UnitType::Plane) {
                if pl.by_sea {
                    if let Some((_, t)) = pl.embark {
                        spots.push(t);
                    }
                }
                let mut lands = claims(game, p);
                lands.sort_by_key(|t| (pl.land_d[t.index()], t.index()));
                spots.extend(lands);
            }
            if let Some(a) = first_placement(game, p, kind, n, spots) {
                return a;
            }
        }
        return Action::EndPhase;
    }
    let mut points = s.ipcs[p.index()].max(0) as u32;
    let cost = |k: UnitType| rs.unit(k).map_or(99, |u| u.cost.max(1));
    let mut buy: Vec<(UnitType, u32)> = Vec::new();
    // The capital's guard first: infantry.
    let guard = (pl.capital_need.max(0) as u32).min(points / cost(UnitType::Infantry));
    if guard > 0 {
        buy.push((UnitType::Infantry, guard));
        points -= guard * cost(UnitType::Infantry);
    }
    // One hit kills any unit (ALT L28): infantry give the most hits to
    // take for the points, tanks the reach; across the sea every pair
    // needs a ship's berth.
    let (inf_cost, tank_cost, ship_cost) = (cost(UnitType::Infantry), cost(UnitType::Tank), cost(UnitType::Ship));
    let mut inf = 0;
    let mut tanks = 0;
    if let Some((z, t)) = pl.embark.filter(|_| pl.by_sea) {
        // Berths already afloat there, less the units waiting to board.
        let room: u32 = s
            .units
            .iter()
            .filter(|u| u.owner == p && u.at == z && rs.stats(u.kind).cargo.is_some())
            .map(|u| 2u32.saturating_sub(s.cargo_of(u.id).count() as u32))
            .sum();
        let waiting_land = s.units.iter().filter(|u| u.owner == p && u.at == t && rs.stats(u.kind).domain == Domain::Land && !pl.garrison.contains(&u.id)).count() as u32;
        let spare = room.saturating_sub(waiting_land).min(points / inf_cost);
        inf += spare;
        points -= spare * inf_cost;
        // Ships with an infantry and a tank, or two infantry when short.
        let pack = ship_cost + inf_cost + tank_cost;
        let packs = points / pack;
        points -= packs * pack;
        let mut ships = packs;
        inf += packs;
        tanks += packs;
        if points >= ship_cost + 2 * inf_cost {
            ships += 1;
            inf += 2;
            points -= ship_cost + 2 * inf_cost;
        }
        if ships > 0 {
            buy.push((UnitType::Ship, ships));
        }
    } else {
        // Overland: a share of the points in tanks (a quarter as standard).
        tanks = (points as f64 * tuning.tanks) as u32 / tank_cost;
        points -= tanks * tank_cost;
    }
    if tanks > 0 {
        buy.push((UnitType::Tank, tanks));
    }
    let inf = inf + points / inf_cost;
    if inf > 0 {
        if let Some(e) = buy.iter_mut().find(|(k, _)| *k == UnitType::Infantry) {
            e.1 += inf;
        } else {
            buy.push((UnitType::Infantry, inf));
        }
    }
    buy.retain(|(_, n)| *n > 0);
    if !buy.is_empty() {
        let a = Action::Purchase { units: buy };
        if game.is_legal_as(Some(p), &a) {
            return a;
        }
    }
    Action::EndPhase
}

/// The moves that can bring strength into the enemy-held `to` now, with
/// their strength, strongest first: land units next to it, cargo in clear
/// zones next to it, planes within reach. Not checked for legality (a
/// check clones the game): callers check the ones they would play.
fn contributors(game: &Game, p: PowerId, to: SpaceId, pl: &Plan) -> Vec<(Force, Action)> {
    let s = &game.state;
    let rs = &game.ruleset;
    let map = &rs.map;
    let mut out: Vec<(Force, Action)> = Vec::new();
    let to_land = map.is_land(to);
    for &from in &map.space(to).adjacent {
        if to_land && map.is_land(from) {
            let ids: Vec<&warboard_rules::Unit> = s
                .units
                .iter()
                .filter(|u| u.at == from && u.mover() == p && rs.stats(u.kind).domain == Domain::Land && moves_left(game, u) > 0 && !pl.garrison.contains(&u.id))
                .collect();
            if !ids.is_empty() {
                out.push((Force::of(game, &ids, true), Action::Move { units: ids.iter().map(|u| u.id).collect(), route: vec![from, to], transport: None, bombing: false }));
            }
        }
        if to_land && map.is_sea(from) && !pl.enemy[from.index()] {
            let ids: Vec<&warboard_rules::Unit> =
                s.units.iter().filter(|u| u.at == from && u.mover() == p && rs.stats(u.kind).domain == Domain::Land && u.carried_by.is_some()).collect();
            for u in ids {
                out.push((Force::of(game, &[u], true), Action::Move { units: vec![u.id], route: vec![from, to], transport: None, bombing: false }));
            }
        }
    }
    if !to_land {
        // A fleet battle: ships that reach the zone this round without
        // passing enemy units, with the planes aboard (ALT L40).
        for sh in s.units.iter().filter(|u| u.mover() == p && rs.stats(u.kind).domain == Domain::Sea && moves_left(game, u) > 0 && u.at != to) {
            let m = moves_left(game, sh) as usize;
            if let Some(route) = crate::geo::path(&game.relations(), sh.at, to, |t| map.is_sea(t) && !pl.enemy[t.index()]) {
                if route.len() - 1 <= m {
                    let mut fighting = vec![sh];
                    fighting.extend(s.cargo_of(sh.id).filter(|c| rs.stats(c.kind).domain == Domain::Air));
                    out.push((Force::of(game, &fighting, true), Action::Move { units: vec![sh.id], route, transport: None, bombing: false }));
                }
            }
        }
    }
    if to_land {
        for u in s.units.iter().filter(|u| u.mover() == p && rs.stats(u.kind).domain == Domain::Air && moves_left(game, u) > 0 && u.at != to) {
            let m = moves_left(game, u) as usize;
            if let Some(route) = crate::geo::path(&game.relations(), u.at, to, |t| !map.space(t).off_limits && !pl.enemy[t.index()]) {
                if route.len() - 1 <= m {
                    out.push((Force::of(game, &[u], true), Action::Move { units: vec![u.id], route, transport: None, bombing: false }));
                }
            }
        }
    }
    out.sort_by(|a, b| b.0.weight().total_cmp(&a.0.weight()));
    out
}

/// The strongest legal move among [`contributors`].
fn first_contributor(game: &Game, p: PowerId, to: SpaceId, pl: &Plan) -> Option<Action> {
    contributors(game, p, to, pl).into_iter().map(|(_, a)| a).find(|a| game.is_legal_as(Some(p), a))
}

/// The units that fight at `at`: cargo aboard does not, planes aboard do
/// (ALT L34, L40).
fn fights(game: &Game, u: &warboard_rules::Unit) -> bool {
    u.carried_by.is_none() || game.ruleset.stats(u.kind).domain == Domain::Air
}

fn defence_at(game: &Game, p: PowerId, at: SpaceId) -> Force {
    let units: Vec<&warboard_rules::Unit> = game.relations().enemy_units(p, at).filter(|u| fights(game, u)).collect();
    Force::of(game, &units, false)
}

fn attack_at(game: &Game, p: PowerId, at: SpaceId) -> Force {
    let units: Vec<&warboard_rules::Unit> = game.state.units.iter().filter(|u| u.at == at && u.mover() == p && fights(game, u)).collect();
    Force::of(game, &units, true)
}

/// What teammates who move after `p` and before the defenders of `to`
/// can bring there this round, at a discount: each attacks alone on its
/// own turn (ALT L42), and what they add is a second wave before the
/// defender can reinforce.
fn teammates_ready(game: &Game, p: PowerId, to: SpaceId) -> Force {
    let s = &game.state;
    let rs = &game.ruleset;
    let rel = game.relations();
    let Some(me) = s.order.iter().position(|q| *q == p) else { return Force::default() };
    let defenders: Vec<PowerId> = rel.enemy_units(p, to).map(|u| u.mover()).collect();
    let mut out = Force::default();
    for &q in &s.order[me + 1..] {
        if defenders.contains(&q) {
            break;
        }
        if !s.allied(p, q) {
            continue;
        }
        let ready: Vec<&warboard_rules::Unit> = s
            .units
            .iter()
            .filter(|u| {
                u.mover() == q
                    && rs.stats(u.kind).domain == Domain::Land
                    && rs.map.space(to).adjacent.contains(&u.at)
                    && (rs.map.is_land(u.at) || u.carried_by.is_some())
            })
            .collect();
        let f = Force::of(game, &ready, true);
        out = out.add(Force { fire: f.fire * 0.7, bodies: f.bodies * 0.7 });
    }
    out
}

fn turn_best(game: &Game, p: PowerId, tuning: Tuning) -> Action {
    let s = &game.state;
    let rs = &game.ruleset;
    let map = &rs.map;
    let pl = plan(game, p, tuning);
    let legal = |a: &Action| game.is_legal_as(Some(p), a);
    // A space shared with the enemy: bring in what else can come, then
    // fight it out.
    let mut ours_at = vec![false; map.len()];
    for u in s.units.iter().filter(|u| u.mover() == p) {
        ours_at[u.at.index()] = true;
    }
    if let Some(at) = map.ids().find(|t| ours_at[t.index()] && pl.enemy[t.index()]) {
        let theirs = defence_at(game, p, at);
        let ours = attack_at(game, p, at);
        if map.is_land(at) && !ours.beats(Force { fire: theirs.fire * 1.5, bodies: theirs.bodies * 1.5 }, tuning.margin) {
            if let Some(a) = first_contributor(game, p, at, &pl) {
                return a;
            }
        }
        return Action::Resolve { at: Some(at) };
    }
    // Attacks: every enemy-held land space whose defenders the combined
    // strength clearly outweighs; the strongest group moves first.
    let mut attacks: Vec<(i64, SpaceId)> = Vec::new();
    let mut near = vec![false; map.len()];
    // One search per place and reach, not per unit.
    let mut searched: Vec<(SpaceId, Domain, u8)> = Vec::new();
    for u in s.units.iter().filter(|u| u.mover() == p && moves_left(game, u) > 0 && u.carried_by.is_none()) {
        let (domain, m) = (rs.stats(u.kind).domain, moves_left(game, u));
        if searched.contains(&(u.at, domain, m)) {
            continue;
        }
        searched.push((u.at, domain, m));
        match domain {
            Domain::Air => {
                let d = bfs(game, &[u.at], |_| true);
                for t in map.ids() {
                    if d[t.index()] <= m as u32 {
                        near[t.index()] = true;
                    }
                }
            }
            Domain::Sea => {
                for z in sea_reach(game, &pl, u.at, m) {
                    near[z.index()] = true;
                }
            }
            Domain::Land => {
                for &t in &map.space(u.at).adjacent {
                    near[t.index()] = true;
                }
            }
        }
    }
    // Cargo aboard reaches the shore of its zone.
    for u in s.units.iter().filter(|u| u.mover() == p && u.carried_by.is_some() && rs.stats(u.kind).domain == Domain::Land) {
        for &t in &map.space(u.at).adjacent {
            near[t.index()] = true;
        }
    }
    for to in map.ids().filter(|t| near[t.index()] && !map.space(*t).off_limits) {
        let theirs = defence_at(game, p, to);
        if theirs.bodies == 0.0 {
            continue;
        }
        let c = contributors(game, p, to, &pl);
        let mine = c.iter().fold(Force::default(), |f, (g, _)| f.add(*g));
        let ours = mine.add(teammates_ready(game, p, to));
        if mine.bodies > 0.0 && ours.beats(theirs, tuning.margin) {
            let sp = map.space(to);
            let value = sp.ipc as i64 * 10 + if Some(to) == pl.target { 1000 } else if sp.capital_of.is_some() { 200 } else { 0 } + (ours.weight() - theirs.weight()).min(100.0) as i64;
            attacks.push((value, to));
        }
    }
    attacks.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
    for (_, to) in attacks {
        if let Some(a) = first_contributor(game, p, to, &pl) {
            return a;
        }
    }
    // Captures of unoccupied enemy or neutral land, from land or aboard.
    let mut captures: Vec<(i64, Action)> = Vec::new();
    for u in s.units.iter().filter(|u| u.mover() == p && rs.stats(u.kind).domain == Domain::Land && moves_left(game, u) > 0 && !pl.garrison.contains(&u.id)) {
        for &to in &map.space(u.at).adjacent {
            let sp = map.space(to);
            if !sp.is_land() || sp.off_limits || pl.enemy[to.index()] {
                continue;
            }
            if s.control[to.index()].is_some_and(|h| s.allied(p, h)) {
                continue;
            }
            if map.is_land(u.at) || u.carried_by.is_some() {
                let v = sp.ipc as i64 * 10 + 5 - rs.stats(u.kind).movement as i64 + if Some(to) == pl.target { 1000 } else { 0 };
                captures.push((v, Action::Move { units: vec![u.id], route: vec![u.at, to], transport: None, bombing: false }));
            }
        }
    }
    captures.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
    if let Some((_, a)) = captures.into_iter().find(|(_, a)| legal(a)) {
        return a;
    }
    // Boarding: land units that would walk farther than they sail.
    if pl.by_sea {
        for u in s.units.iter().filter(|u| u.owner == p && u.mover() == p && rs.stats(u.kind).domain == Domain::Land && map.is_land(u.at) && u.moved == 0 && !pl.garrison.contains(&u.id)) {
            let walk = pl.land_d[u.at.index()];
            for &z in &map.space(u.at).adjacent {
                if !map.is_sea(z) || pl.enemy[z.index()] {
                    continue;
                }
                let ship = s.units.iter().find(|sh| sh.at == z && sh.mover() == p && rs.stats(sh.kind).cargo.is_some() && moves_left(game, sh) > 0 && s.cargo_of(sh.id).count() < 2);
                if let Some(ship) = ship {
                    if walk >= INF || (walk as u64) * 2 > pl.pot[z.index()] as u64 + 3 {
                        let a = Action::Move { units: vec![u.id], route: vec![u.at, z], transport: Some(ship.id), bombing: false };
                        if legal(&a) {
                            return a;
                        }
                    }
                }
            }
        }
    }
    // Sailing: ships with cargo toward the best shore; empty ones back to
    // the embarkation zone. Spaces where own land units still wait to board:
    let mut waiting = vec![false; map.len()];
    for u in s.units.iter().filter(|u| u.owner == p && u.moved == 0 && rs.stats(u.kind).domain == Domain::Land && !pl.garrison.contains(&u.id)) {
        waiting[u.at.index()] = true;
    }
    for sh in s.units.iter().filter(|u| u.mover() == p && rs.stats(u.kind).domain == Domain::Sea && moves_left(game, u) > 0) {
        let m = moves_left(game, sh) as u32;
        let loaded = s.cargo_of(sh.id).any(|c| rs.stats(c.kind).domain == Domain::Land);
        let d = bfs(game, &[sh.at], |t| map.is_sea(t) && !pl.enemy[t.index()]);
        let goal: Option<SpaceId> = if loaded {
            // Wait for more cargo if the shore has more to board.
            let more = s.cargo_of(sh.id).count() < 2 && pl.by_sea && map.space(sh.at).adjacent.iter().any(|t| waiting[t.index()]);
            if more {
                None
            } else {
                map.ids().filter(|z| map.is_sea(*z) && d[z.index()] <= m && d[z.index()] > 0 && pl.pot[z.index()] < pl.pot[sh.at.index()]).min_by_key(|z| (pl.pot[z.index()], d[z.index()]))
            }
        } else if let Some((e, _)) = pl.embark.filter(|_| pl.by_sea) {
            if e == sh.at {
                None
            } else {
                let de = bfs(game, &[e], |t| map.is_sea(t) && !pl.enemy[t.index()]);
                map.ids().filter(|z| map.is_sea(*z) && d[z.index()] <= m && d[z.index()] > 0 && de[z.index()] < de[sh.at.index()]).min_by_key(|z| (de[z.index()], d[z.index()]))
            }
        } else {
            None
        };
        if let Some(z) = goal {
            if let Some(route) = crate::geo::path(&game.relations(), sh.at, z, |t| map.is_sea(t) && !pl.enemy[t.index()]) {
                let a = Action::Move { units: vec![sh.id], route, transport: None, bombing: false };
                if legal(&a) {
                    return a;
                }
            }
        }
    }
    // Landing: cargo whose ship is done goes ashore where the walk is
    // shortest.
    for u in s.units.iter().filter(|u| u.mover() == p && rs.stats(u.kind).domain == Domain::Land && u.carried_by.is_some()) {
        let Some(ship) = u.carried_by.and_then(|id| s.unit(id)) else { continue };
        let d = bfs(game, &[ship.at], |t| map.is_sea(t) && !pl.enemy[t.index()]);
        let m = moves_left(game, ship) as u32;
        let can_improve = m > 0 && map.ids().any(|z| map.is_sea(z) && d[z.index()] <= m && pl.pot[z.index()] < pl.pot[ship.at.index()]);
        if can_improve {
            continue;
        }
        let shore = map.space(u.at).adjacent.iter().copied().filter(|t| map.is_land(*t) && !map.space(*t).off_limits && !pl.enemy[t.index()]).min_by_key(|t| pl.land_d[t.index()]);
        if let Some(t) = shore {
            // Next to a target too strong to storm from the sea, a foothold:
            // new units can be bought there (ALT L30).
            if pl.land_d[t.index()] < INF && pl.land_d[t.index()] * 2 <= pl.pot[u.at.index()] + 2 {
                let a = Action::Move { units: vec![u.id], route: vec![u.at, t], transport: None, bombing: false };
                if legal(&a) {
                    return a;
                }
            }
        }
    }
    // Marching: land units a step nearer the target (overland) or the
    // embarkation shore (by sea), onto spaces without enemy units.
    let embark_d: Option<Vec<u32>> = match pl.embark {
        Some((_, t)) if pl.by_sea => Some(bfs(game, &[t], |x| map.is_land(x) && !map.space(x).off_limits)),
        _ => None,
    };
    let toward: &[u32] = embark_d.as_deref().unwrap_or(&pl.land_d);
    // Units that stand together with the same moves left march together,
    // as far as their moves take them (one action, not one a step).
    let mut groups: Vec<(SpaceId, u8, Vec<UnitId>)> = Vec::new();
    for u in s.units.iter().filter(|u| u.mover() == p && rs.stats(u.kind).domain == Domain::Land && map.is_land(u.at) && moves_left(game, u) > 0 && !pl.garrison.contains(&u.id)) {
        let m = moves_left(game, u);
        match groups.iter_mut().find(|g| g.0 == u.at && g.1 == m) {
            Some(g) => g.2.push(u.id),
            None => groups.push((u.at, m, vec![u.id])),
        }
    }
    for (at, m, ids) in groups {
        let here: &[u32] = if pl.by_sea && pl.land_d[at.index()] <= 3 { &pl.land_d } else { toward };
        let mut route = vec![at];
        let mut now = here[at.index()];
        while route.len() <= m as usize && now > 0 && now < INF {
            let last = *route.last().unwrap();
            // Never onto a space held by enemy units: that is an attack,
            // chosen above where the odds are good.
            let next = map.space(last).adjacent.iter().copied().filter(|t| map.is_land(*t) && here[t.index()] < now && !pl.enemy[t.index()] && !map.space(*t).off_limits).min_by_key(|t| (here[t.index()], t.index()));
            let Some(t) = next else { break };
            route.push(t);
            now = here[t.index()];
        }
        if route.len() > 1 {
            let a = Action::Move { units: ids, route, transport: None, bombing: false };
            if legal(&a) {
                return a;
            }
        }
    }
    Action::EndPhase
}
