//! Scoring (G4–G8): roads, cities and cloisters completed by a turn's tile,
//! and the end of the game's incomplete features and farms.

use std::sync::Arc;

use anyhow::Result;

use super::{Event, Game, Scored};
use crate::kernel::Board;
use crate::kernel::effects::{MAX_STRENGTH, Moment, Origin};
use crate::kernel::features::{FeatureId, Features};
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::{MAX_PLAYERS, Meeple, MeepleOn, MeepleSpot};
use crate::kernel::rules::asks;
use crate::kernel::rules::{MeepleView, TowerNow};
use crate::kernel::tiles::{SegmentKind, TileSet};

/// Points of a road or city of `tiles` tiles and `pennants` pennants:
/// complete (G4, G5), or incomplete at the game's end.
pub fn line_points(kind: SegmentKind, tiles: u32, pennants: u32, complete: bool) -> u32 {
    match kind {
        SegmentKind::City if complete => 2 * tiles + 2 * pennants,
        SegmentKind::City => tiles + pennants,
        _ => tiles,
    }
}

/// Points of a cloister with `neighbours` tiles around it (G6): the
/// cloister's own tile and each neighbour; complete with all 8.
pub fn cloister_points(neighbours: u32) -> u32 {
    1 + neighbours
}

pub use crate::kernel::board::CLOISTER_NEIGHBOURS;

/// Points a farm earns per completed city it supplies (G8).
pub const FARM_CITY_POINTS: u32 = 3;

/// The most points a score holds (the most its type does). Every sum of
/// points is checked: a sum past it is an error, never a score that wraps
/// round.
pub const MAX_SCORE: u32 = u32::MAX;

/// Why a seat's score cannot become `score`, if it cannot: below 0, or
/// above [`MAX_SCORE`]. Wide enough that no sum of a score and an `i64`
/// wraps.
pub fn refused_score(player: usize, score: i128) -> Option<String> {
    if score < 0 {
        Some(format!(
            "would make player {player}'s score {score}: a score never goes below 0"
        ))
    } else if score > i128::from(MAX_SCORE) {
        Some(format!(
            "would make player {player}'s score {score}, more than {MAX_SCORE}, the most a score holds"
        ))
    } else {
        None
    }
}

impl Game<'_> {
    /// Score every road, city and cloister completed by this turn's tile, and
    /// return their meeples (G2, G7). Ends the turn (the rules act on
    /// `turn_end` before the next seat's).
    pub fn end_turn(&mut self) -> Result<()> {
        if let Some(tile) = self.this_tile.take() {
            self.score_completed(tile)?;
        }
        self.capture_tower = None;
        self.acted = false;
        self.ransoms_paid = 0;
        let seat = self.current;
        self.happen(Moment::TurnEnd { seat })?;
        self.income.next_turn();
        self.history.tile = None;
        self.current = (self.current + 1) % self.players.len();
        Ok(())
    }

    fn score_completed(&mut self, tile: usize) -> Result<()> {
        let placed = self.board.tiles()[tile];
        let kind = &self.tiles.kinds[placed.kind as usize];
        let mut roots = std::mem::take(&mut self.roots);
        roots.clear();
        for (s, seg) in kind.segments.iter().enumerate() {
            if matches!(seg.kind, SegmentKind::City | SegmentKind::Road) {
                let r = self.features.root(placed.first_segment + s as u32);
                if self.features.is_complete(r) && !self.features.is_done(r) && !roots.contains(&r)
                {
                    roots.push(r);
                }
            }
        }
        for &r in &roots {
            self.features.mark_done(r);
            let plain = self.feature_points(r, true);
            self.award_completed(r, plain)?;
        }
        roots.clear();
        for p in std::iter::once(placed.pos).chain(placed.pos.around()) {
            if let Some(id) = self.cloister_at(p)
                && !self.features.is_done(id)
                && self.board.neighbours(p) == CLOISTER_NEIGHBOURS
            {
                roots.push(id);
            }
        }
        for &r in &roots {
            self.features.mark_done(r);
            self.award_completed(r, cloister_points(CLOISTER_NEIGHBOURS))?;
        }
        self.roots = roots;
        Ok(())
    }

    /// A completed feature's points (`plain` by the base rules) given
    /// (G7), the rules acting before and after (`feature_completed`).
    fn award_completed(&mut self, root: FeatureId, plain: u32) -> Result<()> {
        const COMPLETED: usize = 2;
        let points = self.worth(root, plain)?;
        if !self.listens_to(COMPLETED) {
            return self.award(root, &points, true);
        }
        let mut moment = self.completed(root, points.points);
        self.happen(moment)?;
        self.award(root, &points, true)?;
        if let Moment::FeatureCompleted { scored, .. } = &mut moment {
            *scored = true;
        }
        self.happen(moment)
    }

    /// The moment a feature of `root` is completed, worth `points`, before
    /// it is scored.
    fn completed(&mut self, root: FeatureId, points: u32) -> Moment {
        let mut scratch = std::mem::take(&mut self.scratch);
        let tiles = self.features.tile_count(root, &mut scratch);
        self.scratch = scratch;
        let (tile, segment) = self.features.place_of(root);
        let mut meeples = [0u8; MAX_PLAYERS];
        for m in &self.meeples {
            if let MeepleSpot::Segment(s) = m.spot
                && self.segment_id(m.pos, s).map(|id| self.features.root(id)) == Some(root)
            {
                meeples[m.owner as usize] += 1;
            }
        }
        Moment::FeatureCompleted {
            kind: self.features.kind(root),
            pos: self.board.tiles()[tile].pos,
            segment: segment as u8,
            tiles,
            pennants: self.features.pennants(root),
            points,
            meeples,
            scored: false,
        }
    }

    fn cloister_at(&self, p: Pos) -> Option<FeatureId> {
        let t = self.board.tile_at(p)?;
        let c = self.tiles.kinds[t.kind as usize].cloister?;
        Some(t.first_segment + c as u32)
    }

    /// Points of a road or city: complete (G4, G5) or at game end.
    fn feature_points(&mut self, root: FeatureId, complete: bool) -> u32 {
        let mut scratch = std::mem::take(&mut self.scratch);
        let tiles = self.features.tile_count(root, &mut scratch);
        self.scratch = scratch;
        line_points(
            self.features.kind(root),
            tiles,
            self.features.pennants(root),
            complete,
        )
    }

    /// A feature's points as the rules give them: `plain` (the base
    /// rules'), unless a rule's `feature_points` changes them.
    fn worth(&mut self, root: FeatureId, plain: u32) -> Result<Worth> {
        let plain = Worth {
            points: plain,
            rule: None,
        };
        if self.listens & asks::FEATURE_POINTS == 0 {
            return Ok(plain);
        }
        let asked = self.with_table(|t| self.rules.feature_points(root, plain.points, t))?;
        Ok(match asked {
            Some(a) if a.value != plain.points => Worth {
                points: a.value,
                rule: Some(a.origin),
            },
            _ => plain,
        })
    }

    /// Give `points` to every player with the most strength on the
    /// feature (G7); with `release`, its meeples go back to their owners.
    fn award(&mut self, root: FeatureId, points: &Worth, release: bool) -> Result<()> {
        if self.features.meeples(root) == 0 {
            return Ok(());
        }
        let strength = self.strengths(root)?;
        if release {
            self.release(root);
        }
        self.credit(root, &strength, points)
    }

    /// Is the meeple `m` on the feature of `root`?
    fn stands_on(&self, m: &Meeple, root: FeatureId) -> bool {
        match m.spot {
            MeepleSpot::Segment(s) => {
                let id = self.segment_id(m.pos, s).expect("meeples stand on tiles");
                self.features.root(id) == root
            }
            MeepleSpot::Tower => false,
        }
    }

    /// Each seat's strength on the feature of `root` (G7): a meeple counts
    /// 1, or what a rule's `meeple_strength` makes it (logged).
    fn strengths(&mut self, root: FeatureId) -> Result<[u32; MAX_PLAYERS]> {
        let mut strength = [0u32; MAX_PLAYERS];
        if self.listens & asks::MEEPLE_STRENGTH == 0 {
            for m in self.meeples.iter().filter(|m| self.stands_on(m, root)) {
                strength[m.owner as usize] += 1;
            }
            return Ok(strength);
        }
        // Every meeple asked about the same board, then the answers
        // other than 1 checked and logged.
        let on = MeepleOn::Feature(self.features.kind(root));
        let towers: Vec<TowerNow> = self.towers_now();
        let asked = self
            .meeples
            .iter()
            .filter(|m| self.stands_on(m, root))
            .map(|&m| {
                let view = MeepleView {
                    owner: m.owner as usize,
                    pos: m.pos,
                    spot: m.spot,
                    on,
                };
                let answer = self.with_table(|t| self.rules.meeple_strength(&view, t, &towers));
                answer.map(|a| (m, a))
            })
            .collect::<Result<Vec<_>>>()?;
        drop(towers);
        for (m, answer) in asked {
            let value = match answer {
                Some(a) if a.value != 1 => self.strength_changed(&m, a.value, &a.origin)?,
                _ => 1,
            };
            strength[m.owner as usize] += value;
        }
        Ok(strength)
    }

    /// A rule made meeple `m` count for `value`: checked and logged.
    fn strength_changed(&mut self, m: &Meeple, value: u32, origin: &Origin) -> Result<u32> {
        if value > MAX_STRENGTH {
            return Err(crate::kernel::diag::bad_input(format!(
                "{}: a meeple's strength of {value}: at most {MAX_STRENGTH}",
                origin.place
            )));
        }
        self.emit(|_| Event::Strength {
            rule: origin.rule.clone(),
            pos: m.pos,
            spot: m.spot,
            owner: m.owner as usize,
            strength: value,
        });
        Ok(value)
    }

    /// The meeples on the feature of `root` go back to their owners.
    fn release(&mut self, root: FeatureId) {
        let mut i = 0;
        while i < self.meeples.len() {
            let m = self.meeples[i];
            if self.stands_on(&m, root) {
                self.meeples.swap_remove(i);
                self.players[m.owner as usize].meeples += 1;
            } else {
                i += 1;
            }
        }
        self.features.clear_meeples(root);
    }

    /// Give `points` to every player with the most strength on the
    /// feature, `strength` of it per player (G7).
    fn credit(
        &mut self,
        root: FeatureId,
        strength: &[u32; MAX_PLAYERS],
        points: &Worth,
    ) -> Result<()> {
        let n = self.players.len();
        let most = *strength[..n].iter().max().expect("players");
        let feature = self.features.kind(root);
        for (p, &c) in strength[..n].iter().enumerate() {
            if c == most && most > 0 {
                self.add_points(p, points.points)?;
                self.standings_changed();
                if points.points > 0 {
                    self.emit(|_| Event::Score {
                        player: p,
                        points: points.points.into(),
                        feature: Scored::Feature(feature),
                        rule: points.rule.as_ref().map(|o| o.rule.clone()),
                    });
                }
            }
        }
        Ok(())
    }

    /// Add a feature's `points` to seat `p`'s score, refused past
    /// [`MAX_SCORE`] (bad input: only points set by hand or given by the
    /// rules come near it).
    fn add_points(&mut self, p: usize, points: u32) -> Result<()> {
        let score = self.players[p].score;
        let Some(sum) = score.checked_add(points) else {
            let why = refused_score(p, i128::from(score) + i128::from(points));
            return Err(crate::kernel::diag::bad_input(format!(
                "a feature's {points} points {}",
                why.unwrap_or_default()
            )));
        };
        self.players[p].score = sum;
        Ok(())
    }

    /// End-of-game scoring: incomplete roads, cities and cloisters, then
    /// farms (G4–G8), then whatever the rules add for the end state.
    /// Farmers and tower meeples stay on the board.
    pub fn final_scoring(&mut self) -> Result<()> {
        self.emit(|_| Event::FinalScoring);
        // The game's buffer: a search scores the end of a copy every
        // iteration. Nothing merges while the end is scored, so each
        // meeple's feature is found once, not once per feature scored.
        let mut on = std::mem::take(&mut self.on_features);
        self.meeples_by_feature(&mut on);
        // Roads, cities and cloisters first, as they leave the board; fields
        // read which cities are complete, which end scoring does not change.
        for (r, count) in by_feature(&on) {
            if self.features.is_done(r) {
                continue;
            }
            let points = match self.features.kind(r) {
                SegmentKind::Road | SegmentKind::City => self.feature_points(r, false),
                SegmentKind::Cloister => {
                    let (tile, _) = self.features.place_of(r);
                    cloister_points(self.board.neighbours(self.board.tiles()[tile].pos))
                }
                SegmentKind::Field | SegmentKind::Foundation => continue,
            };
            self.credit_end(r, &count, points)?;
        }
        for (r, count) in by_feature(&on) {
            if self.features.kind(r) == SegmentKind::Field {
                let points = FARM_CITY_POINTS * self.completed_cities_touching(r);
                self.credit_end(r, &count, points)?;
            }
        }
        self.on_features = on;
        self.happen(Moment::GameEnd)?;
        self.score_end_rules()?;
        let scores = self.scores();
        self.emit(|_| Event::End { scores });
        Ok(())
    }

    /// The root of the feature each meeple on a road, city, field or
    /// cloister stands on, with its owner, in `out`, sorted (so a feature's
    /// meeples are together, the features in the order of their roots).
    pub fn meeples_by_feature(&self, out: &mut Vec<(FeatureId, u8)>) {
        out.clear();
        for m in &self.meeples {
            if let MeepleSpot::Segment(s) = m.spot {
                let id = self.segment_id(m.pos, s).expect("on tiles");
                out.push((self.features.root(id), m.owner));
            }
        }
        out.sort_unstable();
    }

    /// [`Game::credit`] at the game's end (`plain` points by the base
    /// rules, `count` meeples per seat), meeples staying where they are.
    fn credit_end(&mut self, root: FeatureId, count: &[u8; MAX_PLAYERS], plain: u32) -> Result<()> {
        if self.features.meeples(root) == 0 {
            return Ok(());
        }
        let points = self.worth(root, plain)?;
        let strength = match self.listens & asks::MEEPLE_STRENGTH {
            0 => count.map(u32::from),
            _ => self.strengths(root)?,
        };
        self.credit(root, &strength, &points)
    }

    /// How many distinct completed cities a field borders (G8).
    pub fn completed_cities_touching(&self, field: FeatureId) -> u32 {
        completed_cities_touching(&self.features, &self.board, self.tiles, field)
    }

    /// The distinct open cities the field `field` borders, in `out`: those
    /// that would pay its farmers when completed (G8).
    pub fn open_cities_touching(&self, field: FeatureId, out: &mut Vec<FeatureId>) {
        out.clear();
        for city in cities_bordering(&self.features, &self.board, self.tiles, field) {
            if !self.features.is_complete(city) && !out.contains(&city) {
                out.push(city);
            }
        }
    }
}

/// The cities the field `field` borders, by their roots, each as often as
/// a segment of the field touches it.
fn cities_bordering<'a>(
    features: &'a Features,
    board: &'a Board,
    tiles: &'a TileSet,
    field: FeatureId,
) -> impl Iterator<Item = FeatureId> + 'a {
    features.members(field).flat_map(move |id| {
        let (tile, seg) = features.place_of(id);
        let placed = board.tiles()[tile];
        let kind = &tiles.kinds[placed.kind as usize];
        (kind.segments[seg].cities.iter())
            .map(move |&c| features.root(placed.first_segment + c as u32))
    })
}

/// How many distinct completed cities the field `field` borders (G8), on a
/// board of `tiles`.
pub fn completed_cities_touching(
    features: &Features,
    board: &Board,
    tiles: &TileSet,
    field: FeatureId,
) -> u32 {
    // The first cities found are kept on the stack: a field borders a
    // few, and searching bots ask at every iteration.
    const NEAR: usize = 16;
    let mut near = [FeatureId::MAX; NEAR];
    let mut found = 0usize;
    let mut more: Vec<FeatureId> = Vec::new();
    for r in cities_bordering(features, board, tiles, field) {
        if !features.is_complete(r) || near[..found.min(NEAR)].contains(&r) || more.contains(&r) {
            continue;
        }
        if found < NEAR {
            near[found] = r;
        } else {
            more.push(r);
        }
        found += 1;
    }
    found as u32
}

/// Each feature of `on` (as [`Game::meeples_by_feature`] leaves it), in
/// order, with its meeples per player.
pub fn by_feature(
    on: &[(FeatureId, u8)],
) -> impl Iterator<Item = (FeatureId, [u8; MAX_PLAYERS])> + '_ {
    on.chunk_by(|a, b| a.0 == b.0).map(|run| {
        let mut count = [0u8; MAX_PLAYERS];
        for &(_, owner) in run {
            count[owner as usize] += 1;
        }
        (run[0].0, count)
    })
}

/// A feature's points as the rules give them, and the rule that changed
/// them from the base rules' (logged with each score).
struct Worth {
    points: u32,
    rule: Option<Arc<Origin>>,
}
