//! The rules acting on the game: at each moment they listen to, the kernel
//! asks them for effects (`Rules::on_event`) and carries each out, checked
//! against what it keeps true, logged as an event with the rule's name;
//! an effect that is itself a moment (a floor added) is asked about in
//! turn, within the cascade's limits (`kernel::effects`).

use anyhow::{Result, bail};

use super::{Event, Game, Scored};
use crate::kernel::diag::bad_input;
use crate::kernel::effects::{
    Acted, Effect, FloorFrom, MAX_CASCADE, MAX_EFFECTS, Moment, Scope, StateAt,
};
use crate::kernel::geometry::Pos;
use crate::kernel::pieces::{Meeple, MeepleOn, MeepleSpot};
use crate::kernel::rules::{At, TowerNow};
use crate::kernel::rules::{FloorKind, asks};
use crate::kernel::tiles::SegmentKind;

/// The effects of the moment of play under way.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Cascade {
    /// Moments being answered, one inside another.
    depth: usize,
    /// Effects carried out since the moment of play began.
    count: usize,
}

/// A cascade past [`MAX_CASCADE`], on its way out: the places of the
/// effects it went through, the one that went past the limit first, each
/// once, so the error names every pack and line that fed it.
#[derive(Debug)]
struct TooDeep {
    /// The moment the last effect made, which would have been asked again.
    moment: &'static str,
    places: Vec<String>,
}

impl std::fmt::Display for TooDeep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(first) = self.places.first() {
            write!(f, "{first}: ")?;
        }
        write!(
            f,
            "the rules' effects cascade more than {MAX_CASCADE} deep (at `on_{}`): \
             does an effect's own moment answer it with the same effect again?",
            self.moment
        )?;
        for place in self.places.iter().skip(1) {
            write!(f, "\n  the cascade went through {place}")?;
        }
        Ok(())
    }
}

impl std::error::Error for TooDeep {}

impl Game<'_> {
    /// `moment` happened: the rules that listen to it act. Costs one test
    /// when none does.
    #[inline]
    pub(super) fn happen(&mut self, moment: Moment) -> Result<()> {
        if self.listens & moment.bit() == 0 {
            return Ok(());
        }
        self.act_on(moment)
    }

    /// Do the rules listen to `moment`'s kind? For moments costly to
    /// describe.
    pub(super) fn listens_to(&self, index: usize) -> bool {
        self.listens & 1 << index != 0
    }

    /// Ask the rules what they do at `moment` and carry it out.
    fn act_on(&mut self, moment: Moment) -> Result<()> {
        if self.cascade.depth == 0 {
            self.cascade.count = 0;
        }
        if self.cascade.depth >= MAX_CASCADE {
            return Err(anyhow::Error::new(TooDeep {
                moment: moment.name(),
                places: Vec::new(),
            }));
        }
        let mut effects = Vec::new();
        self.rules_act_at(&moment, &mut effects)?;
        self.cascade.depth += 1;
        let done = effects.iter().try_for_each(|a| self.carry_out(a));
        self.cascade.depth -= 1;
        match done {
            // Out of the cascade: its error is bad input, said in full.
            Err(e) if self.cascade.depth == 0 && e.is::<TooDeep>() => Err(bad_input(e.to_string())),
            done => done,
        }
    }

    /// The moment an effect made, answered in turn; past the cascade's
    /// limit, the error names the effect (`acted`) that went past it, and
    /// on its way out every effect the cascade went through.
    fn cascade_into(&mut self, moment: Moment, acted: &Acted) -> Result<()> {
        self.happen(moment)
            .map_err(|e| match e.downcast::<TooDeep>() {
                Ok(mut deep) => {
                    let place = format!(
                        "{}: effect `{}`",
                        acted.origin.place,
                        self.effect_name(&acted.effect)
                    );
                    if !deep.places.contains(&place) {
                        deep.places.push(place);
                    }
                    anyhow::Error::new(deep)
                }
                Err(e) => e,
            })
    }

    /// An effect's name as the script wrote it: a figure's state is set by
    /// `place_figure` or `remove_figure`.
    fn effect_name(&self, effect: &Effect) -> &'static str {
        match effect {
            Effect::SetState { var, value, .. }
                if self
                    .rules
                    .state_vars()
                    .get(*var as usize)
                    .is_some_and(|v| v.figure) =>
            {
                match Pos::unpacked(*value) {
                    Some(_) => "place_figure",
                    None => "remove_figure",
                }
            }
            _ => effect.name(),
        }
    }

    /// What the rules do at `moment`, the game as it is now: effects
    /// appended to `out`, not carried out.
    pub(super) fn rules_act_at(&self, moment: &Moment, out: &mut Vec<Acted>) -> Result<()> {
        let towers = self.towers_now();
        self.with_table(|table| {
            let at = At {
                moment,
                table,
                towers: &towers,
            };
            self.rules.on_event(at, out)
        })
    }

    /// Every tower on the board, as the rules' event and strength
    /// questions see them.
    pub(super) fn towers_now(&self) -> Vec<TowerNow<'_>> {
        self.towers
            .iter()
            .map(|t| TowerNow {
                view: t.view(),
                blocked: t.blocked,
            })
            .collect()
    }

    /// Carry out one effect, or say which rule's effect breaks what.
    fn carry_out(&mut self, acted: &Acted) -> Result<()> {
        self.cascade.count += 1;
        if self.cascade.count > MAX_EFFECTS {
            return Err(bad_input(format!(
                "{}: more than {MAX_EFFECTS} effects for one moment of play",
                acted.origin.place
            )));
        }
        let rule = acted.origin.rule.as_str();
        let none = |()| None;
        let done = match &acted.effect {
            Effect::Points {
                seat,
                points,
                source,
            } => self.rule_points(rule, *seat, *points, source).map(none),
            Effect::AddFloor { tower, kind, from } => {
                self.add_floor(rule, *tower, *kind, *from).map(Some)
            }
            Effect::RemoveFloor { tower } => self.remove_floor(rule, *tower).map(none),
            Effect::SendHome { at, spot } => self.send_home(rule, *at, *spot).map(none),
            Effect::Imprison { at, spot, captor } => {
                self.imprison(rule, *at, *spot, *captor).map(none)
            }
            Effect::Top { tower, seat } => self.top(rule, *tower, *seat).map(Some),
            Effect::Place { at, segment, seat } => self.place(rule, *at, *segment, *seat).map(Some),
            Effect::SetState { var, at, value } => {
                self.rule_state(rule, *var, *at, *value).map(none)
            }
            Effect::Block { tower, blocked } => self.block(rule, *tower, *blocked).map(none),
        };
        let cascade = done.map_err(|e| {
            bad_input(format!(
                "{}: effect `{}`: {e:#}",
                acted.origin.place,
                self.effect_name(&acted.effect)
            ))
        })?;
        // The effect's own moment, answered in turn.
        match cascade {
            Some(moment) => self.cascade_into(moment, acted),
            None => Ok(()),
        }
    }

    fn rule_points(&mut self, rule: &str, seat: usize, points: i64, source: &str) -> Result<()> {
        let n = self.players.len();
        if seat >= n {
            bail!("there is no seat {seat}: seats are 0 to {}", n - 1);
        }
        if self.listens & asks::PAYS_POINTS == 0 {
            bail!("these rules said they pay no points (`asks::PAYS_POINTS` is not set)");
        }
        let sum = i128::from(self.players[seat].score) + i128::from(points);
        let Ok(after) = u32::try_from(sum) else {
            bail!(
                "{points} points {}",
                super::scoring::refused_score(seat, sum).unwrap_or_default()
            );
        };
        self.players[seat].score = after;
        self.income.receive(seat, points);
        self.standings_changed();
        self.emit(|_| Event::Score {
            player: seat,
            points,
            feature: Scored::Rule(source.to_string()),
            rule: Some(rule.to_string()),
        });
        Ok(())
    }

    /// The tower at `pos`, or why there is none.
    fn tower_standing(&self, pos: Pos) -> Result<usize> {
        match self.tower_at(pos) {
            Some(t) => Ok(t),
            None => bail!("no tower stands at {pos} (a foundation tile must be there)"),
        }
    }

    /// A floor onto the tower at `pos`; its moment (`floor_built`) is the
    /// caller's to answer.
    fn add_floor(
        &mut self,
        rule: &str,
        pos: Pos,
        kind: FloorKind,
        from: FloorFrom,
    ) -> Result<Moment> {
        let t = self.tower_standing(pos)?;
        if kind as usize >= self.rules.floor_kinds().len() {
            bail!("there is no floor kind {kind}");
        }
        match from {
            FloorFrom::Box => {}
            FloorFrom::Seat(seat) => {
                let left = self.players.get(seat).map(|p| p.floors[kind as usize]);
                match left {
                    None => bail!("there is no seat {seat}"),
                    Some(0) => bail!("seat {seat} holds no floor of that kind"),
                    Some(_) => self.players[seat].floors[kind as usize] -= 1,
                }
            }
            FloorFrom::Table if self.table[kind as usize] == 0 => {
                bail!("the table holds no floor of that kind")
            }
            FloorFrom::Table => self.table[kind as usize] -= 1,
        }
        self.towers[t].floors.push(kind);
        self.refresh_tower(t)?;
        self.history.last_tower = Some(pos);
        self.capturable_known = false;
        self.emit(|g| Event::FloorAdded {
            rule: rule.to_string(),
            pos,
            kind,
            floors: g.towers[t].floors.clone(),
            from: match from {
                FloorFrom::Seat(s) => Some(s),
                FloorFrom::Box | FloorFrom::Table => None,
            },
            table: from == FloorFrom::Table,
        });
        Ok(Moment::FloorBuilt {
            seat: None,
            tower: pos,
            kind,
            height: self.towers[t].floors.len(),
        })
    }

    fn remove_floor(&mut self, rule: &str, pos: Pos) -> Result<()> {
        let t = self.tower_standing(pos)?;
        let Some(kind) = self.towers[t].floors.pop() else {
            bail!("the tower at {pos} has no floor");
        };
        self.refresh_tower(t)?;
        self.capturable_known = false;
        self.emit(|g| Event::FloorRemoved {
            rule: rule.to_string(),
            pos,
            kind,
            floors: g.towers[t].floors.clone(),
        });
        Ok(())
    }

    fn send_home(&mut self, rule: &str, pos: Pos, spot: MeepleSpot) -> Result<()> {
        let (owner, on) = self.take_off(pos, spot, None)?;
        self.players[owner].meeples += 1;
        self.emit(|_| Event::SentHome {
            rule: rule.to_string(),
            pos,
            on,
            spot,
            owner,
        });
        Ok(())
    }

    /// The meeple at `pos` on `spot` off the board (unless it is
    /// `not_of`'s): its owner and what it stood on.
    fn take_off(
        &mut self,
        pos: Pos,
        spot: MeepleSpot,
        not_of: Option<usize>,
    ) -> Result<(usize, MeepleOn)> {
        let Some(i) = self
            .meeples
            .iter()
            .position(|m| m.pos == pos && m.spot == spot)
        else {
            bail!("no meeple stands there ({pos}, {})", spot_words(spot));
        };
        let owner = self.meeples[i].owner as usize;
        if Some(owner) == not_of {
            bail!("seat {owner}'s own meeple is never its prisoner: send it home (send_home)");
        }
        self.meeples.swap_remove(i);
        let on = self.meeple_on(pos, spot);
        self.lift_meeple(pos, spot)?;
        self.capturable_known = false;
        Ok((owner, on))
    }

    /// The meeple at `pos` on `spot` made `captor`'s prisoner; the two
    /// seats exchange prisoners if each now holds one of the other's (T10).
    fn imprison(&mut self, rule: &str, pos: Pos, spot: MeepleSpot, captor: usize) -> Result<()> {
        let n = self.players.len();
        if captor >= n {
            bail!("there is no seat {captor}: seats are 0 to {}", n - 1);
        }
        let (owner, on) = self.take_off(pos, spot, Some(captor))?;
        self.prisoners[captor * n + owner] += 1;
        self.standings_changed();
        self.emit(|_| Event::Imprisoned {
            rule: rule.to_string(),
            pos,
            on,
            spot,
            owner,
            captor,
        });
        self.exchange(captor, owner)
    }

    /// A meeple from `seat`'s supply onto the top of the tower at `pos`;
    /// its moment (`meeple_placed`) is the caller's to answer.
    fn top(&mut self, rule: &str, pos: Pos, seat: usize) -> Result<Moment> {
        let t = self.tower_standing(pos)?;
        match self.players.get(seat) {
            None => bail!("there is no seat {seat}"),
            Some(p) if p.meeples == 0 => bail!("seat {seat} has no meeple in supply"),
            Some(_) => {}
        }
        if self.towers[t].meeple.is_some() {
            bail!("a meeple already stands on the tower at {pos} (T8)");
        }
        self.players[seat].meeples -= 1;
        self.towers[t].meeple = Some(seat as u8);
        self.meeples.push(Meeple {
            owner: seat as u8,
            pos,
            spot: MeepleSpot::Tower,
        });
        self.refresh_tower(t)?;
        self.capturable_known = false;
        self.emit(|_| Event::Topped {
            rule: rule.to_string(),
            pos,
            owner: seat,
        });
        Ok(Moment::MeeplePlaced {
            seat,
            pos,
            on: MeepleOn::Tower,
        })
    }

    /// A meeple of `seat`'s supply on segment `segment` of the tile at
    /// `pos`: where a seat's own meeple could go but for the tile (G3: a
    /// feature that holds none, not yet scored; never a foundation).
    fn place(&mut self, rule: &str, pos: Pos, segment: u8, seat: usize) -> Result<Moment> {
        match self.players.get(seat) {
            None => bail!("there is no seat {seat}"),
            Some(p) if p.meeples == 0 => bail!("seat {seat} has no meeple in supply"),
            Some(_) => {}
        }
        let Some(placed) = self.board.tile_at(pos).copied() else {
            bail!("no tile at {pos}");
        };
        let kind = &self.tiles.kinds[placed.kind as usize];
        let Some(seg) = kind.segments.get(segment as usize) else {
            bail!(
                "tile {} at {pos} has segments 0 to {}, not {segment}",
                kind.name,
                kind.segments.len().saturating_sub(1)
            );
        };
        let what = seg.kind;
        if what == SegmentKind::Foundation {
            bail!("a meeple goes onto a tower, not its foundation (`place_on_tower`, T4)");
        }
        let id = placed.first_segment + segment as u32;
        let root = self.features.root(id);
        if self.features.meeples(root) > 0 {
            bail!("that {} already holds a meeple (G3)", what.name());
        }
        if self.features.is_done(root) {
            bail!("that {} is complete and scored", what.name());
        }
        self.features.add_meeple(id);
        self.players[seat].meeples -= 1;
        let spot = MeepleSpot::Segment(segment);
        self.meeples.push(Meeple {
            owner: seat as u8,
            pos,
            spot,
        });
        self.capturable_known = false;
        let on = MeepleOn::Feature(what);
        self.emit(|_| Event::Placed {
            rule: rule.to_string(),
            pos,
            on,
            spot,
            owner: seat,
        });
        Ok(Moment::MeeplePlaced { seat, pos, on })
    }

    fn rule_state(&mut self, rule: &str, var: u16, at: StateAt, value: i64) -> Result<()> {
        self.put_state(var, at, value)?;
        let decl = &self.rules.state_vars()[var as usize];
        let (name, boolean) = (decl.name.clone(), decl.boolean);
        if decl.figure {
            self.emit(|_| Event::Figure {
                rule: rule.to_string(),
                name,
                at: Pos::unpacked(value).map(|p| [p.x, p.y]),
            });
            return Ok(());
        }
        self.emit(|_| Event::State {
            rule: rule.to_string(),
            name,
            seat: match at {
                StateAt::Seat(s) => Some(s as usize),
                _ => None,
            },
            at: match at {
                StateAt::Cell(x, y) => Some([x, y]),
                _ => None,
            },
            value: super::StateValue { value, boolean },
        });
        Ok(())
    }

    /// Set a value of the rules' state, within its bounds, at a place its
    /// scope keeps (a tower's where a tower stands, a cell's where a tile
    /// lies).
    pub(super) fn put_state(&mut self, var: u16, at: StateAt, value: i64) -> Result<()> {
        let Some(decl) = self.rules.state_vars().get(var as usize) else {
            bail!("no state variable {var}");
        };
        if !(decl.min..=decl.max).contains(&value) {
            bail!(
                "state `{}` takes {} to {}, not {value}",
                decl.name,
                decl.min,
                decl.max
            );
        }
        if let Some(p) = Pos::unpacked(value).filter(|_| decl.figure)
            && !self.board.has_tile(p)
        {
            bail!(
                "figure `{}` stands only on a tile: no tile at ({}, {})",
                decl.name,
                p.x,
                p.y
            );
        }
        match (decl.scope, at) {
            (Scope::Tower, StateAt::Cell(x, y)) => {
                self.tower_standing(Pos::new(x, y))?;
            }
            (Scope::Cell, StateAt::Cell(x, y)) if !self.board.has_tile(Pos::new(x, y)) => {
                bail!(
                    "state `{}` is kept per cell with a tile: no tile at ({x}, {y})",
                    decl.name
                )
            }
            _ => {}
        }
        if self.state.set(var, at, value).is_none() {
            bail!(
                "state `{}` is kept per {}: {}",
                decl.name,
                decl.scope.name(),
                match at {
                    StateAt::Seat(s) => format!("there is no seat {s}"),
                    _ => "set it with the place its scope names".to_string(),
                }
            );
        }
        self.standings_changed();
        Ok(())
    }

    fn block(&mut self, rule: &str, pos: Pos, blocked: bool) -> Result<()> {
        let t = self.tower_standing(pos)?;
        self.towers[t].blocked = blocked;
        self.emit(|_| Event::Blocked {
            rule: rule.to_string(),
            pos,
            blocked,
        });
        Ok(())
    }
}

fn spot_words(spot: MeepleSpot) -> String {
    match spot {
        MeepleSpot::Segment(s) => format!("segment {s}"),
        MeepleSpot::Tower => "on the tower".to_string(),
    }
}
