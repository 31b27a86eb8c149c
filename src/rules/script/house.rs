//! The hooks that house rules and expansions use beyond the towers'
//! questions: `ransom` with its context, `seat` (a seat's own supply),
//! `captured` (what a capture does), `exchange` (whether prisoners are
//! exchanged) and `end` (points from the end state). Each is asked only when
//! some pack defines it; otherwise the kernel's default stands.

use anyhow::Result;
use rhai::{Array, Dynamic, ImmutableString, Map};

use super::api::{MeepleInfo, Placed};
use super::context::Roles;
use super::{Hook, ScriptRules};
use crate::kernel::diag::{bad_input, did_you_mean};
use crate::kernel::geometry::Pos;
use crate::kernel::{CaptureOutcome, EndScore, MeepleView, RansomView, Rules, Table, TowerView};

impl ScriptRules {
    fn defines(&self, hook: Hook) -> bool {
        !self.scripts.chains[hook.index()].is_empty()
    }

    /// A floor supply from a map of kind to count, as `setup` and `seat`
    /// return it.
    pub(super) fn supply_of(&self, hook: Hook, v: &Dynamic) -> Result<Vec<u32>> {
        let expected = "a map from floor kind to a count, e.g. #{ regular: 10 }";
        let map = v
            .read_lock::<Map>()
            .map(|m| m.clone())
            .ok_or_else(|| self.wrong_type(hook, v, v.type_name(), expected))?;
        let mut supply = vec![0u32; self.scripts.kinds.len()];
        for (name, count) in &map {
            let Some(k) = self.scripts.kinds.iter().position(|k| k == name.as_str()) else {
                return Err(bad_input(format!(
                    "hook `{}` of {} gave floors of kind `{name}`, which no pack declares{}",
                    hook.name(),
                    self.answering_pack(hook),
                    did_you_mean(name, self.scripts.kinds.iter().map(String::as_str))
                )));
            };
            let n = count
                .as_int()
                .ok()
                .filter(|n| (0..=1000).contains(n))
                .ok_or_else(|| self.wrong_type(hook, v, v.type_name(), "counts from 0 to 1000"))?;
            supply[k] = n as u32;
        }
        Ok(supply)
    }

    /// A meeple as the hooks see it, `tower` being where the capturing tower
    /// stands.
    pub(super) fn meeple_info(&self, meeple: &MeepleView, tower: Pos) -> MeepleInfo {
        MeepleInfo {
            owner: meeple.owner as i64,
            pos: meeple.pos,
            tower,
            on: ImmutableString::from(meeple.on.name()),
            spot: meeple.spot,
        }
    }

    /// `ransom(score, paid)`, with `game()` readable when the moment is
    /// known. Cached per (score, paid) unless the answer read `game()`.
    pub(super) fn ask_ransom(
        &self,
        score: u32,
        paid: u32,
        at: Option<(&RansomView, &Table)>,
    ) -> Result<Option<u32>> {
        let kept = self.cache.borrow().ransom.get(&(score, paid)).copied();
        if let Some(c) = kept {
            return self.hit(Hook::Ransom, c);
        }
        let before = self.spent();
        self.read_context.set(false);
        let args = vec![Dynamic::from(score as i64), Dynamic::from(paid as i64)];
        let v = match at {
            Some((r, table)) => self.with_context(
                table,
                Roles {
                    payer: Some(r.payer),
                    captor: Some(r.captor),
                    actor: None,
                },
                || self.call(Hook::Ransom, args, None),
            ),
            None => self.call(Hook::Ransom, args, None),
        }?;
        let cost = if v.is_unit() {
            None
        } else {
            let n = v
                .as_int()
                .ok()
                .filter(|n| (0..=u32::MAX as i64).contains(n))
                .ok_or_else(|| {
                    self.wrong_type(
                        Hook::Ransom,
                        &v,
                        v.type_name(),
                        "a cost of 0 or more points, or () for no ransom",
                    )
                })?;
            Some(n as u32)
        };
        if !self.read_context.get() {
            let kept = self.kept(cost, before);
            self.cache.borrow_mut().ransom.insert((score, paid), kept);
        }
        Ok(cost)
    }

    /// `seat(seat, players, supply)`: one seat's supply, from the supply
    /// `setup` gives every seat. Cached per arguments.
    pub(super) fn ask_seat(
        &self,
        players: usize,
        foundations: usize,
        seat: usize,
    ) -> Result<Vec<u32>> {
        let base = self.floor_supply(players, foundations)?;
        if !self.defines(Hook::Seat) {
            return Ok(base);
        }
        let key = (players, foundations, seat);
        let kept = self.cache.borrow().seats.get(&key).cloned();
        if let Some(s) = kept {
            return self.hit(Hook::Seat, s);
        }
        let before = self.spent();
        let supply: Map = self
            .scripts
            .kind_names
            .iter()
            .zip(&base)
            .map(|(k, &n)| (k.as_str().into(), Dynamic::from(n as i64)))
            .collect();
        let args = vec![
            Dynamic::from(seat as i64),
            Dynamic::from(players as i64),
            Dynamic::from(supply),
        ];
        let v = self.call(Hook::Seat, args, None)?;
        let out = self.supply_of(Hook::Seat, &v)?;
        let kept = self.kept(out.clone(), before);
        self.cache.borrow_mut().seats.insert(key, kept);
        Ok(out)
    }

    /// `captured(meeple)`: `"prisoner"`, `"home"` or `"gone"`.
    pub(super) fn ask_captured(
        &self,
        meeple: &MeepleView,
        table: &Table,
    ) -> Result<CaptureOutcome> {
        if !self.defines(Hook::Captured) {
            return Ok(CaptureOutcome::Prisoner);
        }
        let m = self.meeple_info(meeple, meeple.pos);
        let v = self.with_context(
            table,
            Roles {
                captor: Some(table.current),
                ..Roles::default()
            },
            || self.call(Hook::Captured, vec![Dynamic::from(m)], Some(table.board)),
        )?;
        let word = v.clone().into_immutable_string().ok();
        match word.as_deref() {
            Some("prisoner") => Ok(CaptureOutcome::Prisoner),
            Some("home") => Ok(CaptureOutcome::Home),
            Some("gone") => Ok(CaptureOutcome::Gone),
            _ => Err(self.wrong_type(
                Hook::Captured,
                &v,
                v.type_name(),
                "\"prisoner\", \"home\" or \"gone\"",
            )),
        }
    }

    /// `exchange(a, b)`: are a prisoner of each exchanged now?
    pub(super) fn ask_exchange(&self, a: usize, b: usize, table: &Table) -> Result<bool> {
        if !self.defines(Hook::Exchange) {
            return Ok(true);
        }
        let args = vec![Dynamic::from(a as i64), Dynamic::from(b as i64)];
        self.with_context(table, Roles::default(), || {
            self.ask_bool(Hook::Exchange, args, Some(table.board))
        })
    }

    /// `end(towers)`: an array of `#{ player, points, feature }`.
    pub(super) fn ask_end(
        &self,
        towers: &[TowerView],
        table: &Table,
        out: &mut Vec<EndScore>,
    ) -> Result<()> {
        if !self.defines(Hook::End) {
            return Ok(());
        }
        let towers: Array = towers
            .iter()
            .map(|t| {
                let placed = Placed {
                    pos: t.pos,
                    owner: t.meeple.map(|m| m as i64),
                };
                Dynamic::from(self.tower_info(t.floors, t.meeple.is_some(), Some(placed)))
            })
            .collect();
        let v = self.with_context(table, Roles::default(), || {
            self.call(Hook::End, vec![Dynamic::from(towers)], Some(table.board))
        })?;
        let expected = "an array of #{ player: seat, points: integer, feature: \"name\" }";
        let items = v
            .read_lock::<Array>()
            .map(|a| a.clone())
            .ok_or_else(|| self.wrong_type(Hook::End, &v, v.type_name(), expected))?;
        for item in &items {
            let score = end_score(item)
                .ok_or_else(|| self.wrong_type(Hook::End, item, item.type_name(), expected))?;
            out.push(score);
        }
        Ok(())
    }
}

/// One `#{ player, points, feature }` of `end`'s answer.
fn end_score(item: &Dynamic) -> Option<EndScore> {
    let map = item.read_lock::<Map>()?;
    let player = map.get("player")?.as_int().ok()?;
    let points = map.get("points")?.as_int().ok()?;
    let feature = map.get("feature")?.clone().into_immutable_string().ok()?;
    Some(EndScore {
        player: usize::try_from(player).ok()?,
        points,
        feature: feature.to_string(),
    })
}
