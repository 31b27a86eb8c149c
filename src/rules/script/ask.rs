//! Asking a hook: the one path every question takes. A [`Question`] names
//! the hook, its plain arguments (the memo's key) and the facts its reads
//! are answered from. [`ScriptRules::ask`] looks for a kept answer whose
//! reads agree with the question (charged at its cost), or runs the hook's
//! chain with the recorder on, converts the script's value to the hook's
//! answer, and keeps it under what the call read. A hook needs nothing of
//! its own here beyond its arguments and the shape of its answer.

use std::sync::Arc;

use anyhow::Result;
use rhai::{Array, Dynamic, Map};

use super::api::{BoardRef, Known, MeepleInfo, Stack, TowerInfo};
use super::hooks::Hook;
use super::hooks::{Arg, Shape};
use super::host::ScriptRules;
use super::memo::{Changed, Kept, Key, Value};
use super::reads::FeatureInfo;
use super::reads::{self, Facts, Read, Roles};
use crate::kernel::diag::{bad_input, did_you_mean};
use crate::kernel::{Answer, Asking, CaptureOutcome, EndScore, FloorKind, Holds, StackView};

/// A question to a hook.
pub(super) struct Question<'a> {
    pub(super) hook: Hook,
    /// The plain arguments (see [`Hook::params`]): what the memo keeps
    /// answers under before the reads.
    pub(super) key: Key,
    pub(super) facts: Facts<'a>,
    /// `seat`'s third argument: the supply every seat gets.
    pub(super) supply: &'a [u32],
}

impl<'a> Question<'a> {
    pub(super) fn new(hook: Hook, key: Key, facts: Facts<'a>) -> Question<'a> {
        Question {
            hook,
            key,
            facts,
            supply: &[],
        }
    }
}

impl ScriptRules {
    /// The answer to `q`, and how long it holds.
    pub(super) fn ask(&self, q: &Question) -> Result<(Value, Holds)> {
        // The kernel's own questions (not a hook's) are those fires count.
        let counted = self.counting_fires() && self.stack.borrow().is_empty();
        let tracing = self.tracing() && self.trace_listening();
        let mut matched = Vec::new();
        let on_read = |r, v: Option<i64>| {
            if let Some(v) = v.filter(|_| tracing) {
                matched.push((r, v));
            }
        };
        if let Some((answer, cost, holds, changed)) = self.recall(q, on_read) {
            if tracing {
                self.trace_kept(q, &matched, &answer);
            }
            self.charge_kept(cost, [(q.hook, cost)])?;
            if counted {
                self.count_fire(q.hook, changed);
            }
            return Ok((answer, holds));
        }
        let before = self.spent();
        // `game().towers` copied for the script only when it runs, not
        // when a kept answer is found.
        if let Some(towers) = q.facts.towers {
            self.towers_now.borrow_mut().hold(towers);
        }
        let (worked, recorded) = self.recorded(q.hook, &q.facts, || {
            let args = self.arguments(q);
            if tracing {
                self.trace_begin(q, &args);
            }
            if q.hook.acts() {
                // Every pack's runs; those that answered effects fired.
                let run = self.run_event(q.hook, args);
                if tracing {
                    self.trace_answered(self.reads_so_far());
                }
                let (answer, acted) = run?;
                return Ok((answer, self.counting_fires().then_some(acted)));
            }
            let shorter_chains = self.counting_fires().then(|| args.clone());
            let answer = self
                .call(q.hook, args)
                .and_then(|v| self.answer(q.hook, &v));
            if tracing {
                self.trace_answered(self.reads_so_far());
            }
            let answer = answer?;
            // Inside the recording: what the shorter chains read is kept
            // with the answer, as is which packs changed it.
            let changed = shorter_chains.and_then(|args| self.changed_by(q.hook, &args, &answer));
            Ok::<_, anyhow::Error>((answer, changed))
        });
        if q.facts.towers.is_some() {
            self.towers_now.borrow_mut().release();
        }
        if tracing {
            let answer = worked.as_ref().map(|(a, _)| a);
            self.trace_end(&recorded.reads, recorded.opaque, answer);
        }
        let (answer, changed) = worked?;
        if counted {
            self.count_fire(q.hook, changed);
        }
        let Some(trace) = recorded.trace().filter(|_| q.hook.kept()) else {
            return Ok((answer, Holds::Now));
        };
        let holds = reads::holds(trace);
        let kept = Kept {
            answer: answer.clone(),
            cost: self.spent() - before,
            holds,
            changed,
        };
        self.memo.borrow_mut().keep(q.hook, q.key, trace, kept);
        Ok((answer, holds))
    }

    /// The answer kept for `q`, if every read of its trace agrees, with
    /// what it cost, how long it holds and which packs changed it; each
    /// read looked at is handed to `on_read` with its value.
    fn recall(
        &self,
        q: &Question,
        mut on_read: impl FnMut(Read, Option<i64>),
    ) -> Option<(Value, u64, Holds, Changed)> {
        if !q.hook.kept() {
            return None;
        }
        let memo = self.memo.borrow();
        let kept = memo.find(q.hook, &q.key, |r| {
            let v = self.value(&q.facts, r);
            on_read(r, v);
            v
        })?;
        Some((kept.answer.clone(), kept.cost, kept.holds, kept.changed))
    }

    /// The capture cells of a stack, if its `reach` and `range` answers
    /// are kept: for the value of a read of them (`board.range_steps`,
    /// `tower.in_range`…). Not charged, since they were already charged
    /// to the call whose read it is: a running script's read first asks
    /// for the range ([`ScriptRules::range`], which charges a kept one
    /// each time), and the reads a kept answer is looked up by were paid
    /// for in its cost (the hooks it asked included), charged when it is
    /// found. A loop that reads a kept range again and again pays each
    /// time (`tests::front`).
    pub(super) fn known_range(
        &self,
        floors: &[crate::kernel::FloorKind],
        topped: bool,
    ) -> Option<Arc<[(i32, i32)]>> {
        if let Some(cells) = self.kept_cells(floors, topped) {
            return Some(cells);
        }
        let facts = Facts {
            stack: Some((floors, topped)),
            ..Facts::default()
        };
        let reach = self
            .recall(&Question::new(Hook::Reach, [0; 3], facts), |_, _| {})?
            .0
            .int()?;
        self.recall(&Question::new(Hook::Range, [reach, 0, 0], facts), |_, _| {})?
            .0
            .cells()
    }

    /// The script arguments of `q`, as [`Hook::params`] names them and
    /// its row's `args` makes them.
    pub(super) fn arguments(&self, q: &Question) -> Vec<Dynamic> {
        q.hook
            .spec()
            .args
            .iter()
            .map(|&arg| self.argument(q, arg))
            .collect()
    }

    fn argument(&self, q: &Question, arg: Arg) -> Dynamic {
        // A placement's arguments are its facts, not the key.
        let plain = q.facts.placement.unwrap_or(q.key);
        match arg {
            Arg::Int(i) => Dynamic::from(plain[i]),
            Arg::Kind => Dynamic::from(self.scripts.kind_names[q.key[0] as usize].clone()),
            Arg::Tower => Dynamic::from(self.question_tower(&q.facts)),
            Arg::Meeple => Dynamic::from(MeepleInfo),
            Arg::Board => Dynamic::from(BoardRef),
            Arg::Supply => {
                let supply: Map = self
                    .scripts
                    .kind_names
                    .iter()
                    .zip(q.supply)
                    .map(|(k, &n)| (k.as_str().into(), Dynamic::from(n as i64)))
                    .collect();
                Dynamic::from(supply)
            }
            Arg::Feature => Dynamic::from(FeatureInfo::ASKED),
            // Read when the script names it (`ScriptRules::named`).
            Arg::Towers => Dynamic::from(self.listed_towers()),
            Arg::Event => Dynamic::from(super::effects::EventInfo),
            Arg::Tile => {
                let tiles = q.facts.table.and_then(|t| t.tiles);
                let kind = usize::try_from(plain[2] >> 2).ok();
                match tiles.zip(kind).and_then(|(t, k)| t.kinds.get(k)) {
                    Some(k) => Dynamic::from(k.name.clone()),
                    None => Dynamic::UNIT,
                }
            }
            Arg::Rot => Dynamic::from(plain[2] & 3),
        }
    }

    /// The question's tower, as its hook sees it.
    fn question_tower(&self, facts: &Facts) -> TowerInfo {
        let (floors, topped) = facts.stack.unwrap_or((&[], false));
        TowerInfo {
            known: Known::Asked,
            floors: Stack::from_slice(floors),
            has_meeple: topped,
            pos: facts.tower,
            owner: facts.owner.map(|o| o.map(|o| o as i64)),
            blocked: false,
        }
    }

    /// The script's value `v` as `hook`'s answer (of its row's shape), or
    /// the error that names what it should have been.
    pub(super) fn answer(&self, hook: Hook, v: &Dynamic) -> Result<Value> {
        let wrong = |expected: &str| self.wrong_type(hook, v, v.type_name(), expected);
        Ok(match hook.spec().answer {
            Shape::Bool => Value::Bool(v.as_bool().map_err(|_| wrong("a bool (true or false)"))?),
            Shape::Int => Value::Int(v.as_int().map_err(|_| wrong("an integer"))?),
            Shape::Count(most) => Value::Int(
                v.as_int()
                    .ok()
                    .filter(|n| (0..=most).contains(n))
                    .ok_or_else(|| wrong(&format!("an integer from 0 to {most}")))?,
            ),
            Shape::Cells => Value::Cells(self.cells_answer(hook, v)?),
            Shape::Supply => Value::Supply(self.supply_of(hook, v)?.into()),
            Shape::Cost if v.is_unit() => Value::Cost(None),
            Shape::Cost => {
                let n = v
                    .as_int()
                    .ok()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| {
                        wrong(&format!(
                            "a cost of 0 to {} points, or () for no ransom",
                            u32::MAX
                        ))
                    })?;
                Value::Cost(Some(n))
            }
            Shape::Outcome => {
                let word = v.clone().into_immutable_string().ok();
                Value::Outcome(
                    word.as_deref()
                        .and_then(CaptureOutcome::named)
                        .ok_or_else(|| wrong("\"prisoner\", \"home\" or \"gone\""))?,
                )
            }
            Shape::EndScores => {
                let expected = "an array of #{ player: seat (0 to 7), points: integer (at most \
                                4294967295 either way, what a score holds), feature: \"name\" }";
                let items = v
                    .read_lock::<Array>()
                    .map(|a| a.clone())
                    .ok_or_else(|| wrong(expected))?;
                let scores = items
                    .iter()
                    .map(|item| {
                        end_score(item)
                            .ok_or_else(|| self.wrong_type(hook, item, item.type_name(), expected))
                    })
                    .collect::<Result<Vec<_>>>()?;
                Value::End(scores.into())
            }
            // Converted pack by pack (`effects`), never here.
            Shape::Effects => anyhow::bail!("hook `{}` answers with effects", hook.name()),
        })
    }

    /// `range`'s answer `v` as capture cells.
    fn cells_answer(&self, hook: Hook, v: &Dynamic) -> Result<Arc<[(i32, i32)]>> {
        Ok(v.read_lock::<Array>()
            .and_then(|a| {
                a.iter()
                    .map(super::api::cell_of)
                    .collect::<Option<Vec<_>>>()
            })
            .ok_or_else(|| {
                self.wrong_type(
                    hook,
                    v,
                    v.type_name(),
                    "an array of [dx, dy] pairs of integers",
                )
            })?
            .into())
    }

    /// A floor supply from a map of kind to count, as `setup` and `seat`
    /// return it.
    fn supply_of(&self, hook: Hook, v: &Dynamic) -> Result<Vec<u32>> {
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
}

/// One `#{ player, points, feature }` of `end`'s answer.
/// The typed answers: a question asked, its answer read in its shape.
impl ScriptRules {
    /// The answer to `q` as `take` reads it (the shape [`ask`] converted it
    /// to for its hook), and how long it holds.
    pub(super) fn asked<T>(
        &self,
        q: &Question,
        take: fn(&Value) -> Option<T>,
    ) -> Result<(T, Holds)> {
        let (v, holds) = self.ask(q)?;
        // The text of the error is made only when there is one.
        match take(&v) {
            Some(answer) => Ok((answer, holds)),
            None => anyhow::bail!(
                "hook `{}` was answered {v:?}, of another shape",
                q.hook.name()
            ),
        }
    }

    /// `may_place_floor` (of `kind`) or `may_top` about a stack, for a seat.
    pub(super) fn ask_tower(
        &self,
        hook: Hook,
        stack: &StackView,
        kind: i64,
        asking: &Asking,
    ) -> Result<Answer> {
        let facts = Facts {
            stack: Some((stack.floors, stack.topped)),
            tower: asking.tower,
            owner: Some(asking.owner),
            table: Some(*asking.table),
            roles: Roles {
                actor: Some(asking.seat),
                ..Roles::default()
            },
            ..Facts::default()
        };
        let (yes, holds) = self.asked(&Question::new(hook, [kind, 0, 0], facts), Value::bool)?;
        Ok(Answer { yes, holds })
    }

    /// The reach of a stack (`reach`).
    pub(super) fn reach(&self, floors: &[FloorKind], topped: bool) -> Result<i64> {
        Ok(self.asked_reach(floors, topped)?.0)
    }

    /// The reach of a stack, and how long it holds.
    pub(super) fn asked_reach(&self, floors: &[FloorKind], topped: bool) -> Result<(i64, Holds)> {
        let facts = Facts {
            stack: Some((floors, topped)),
            ..Facts::default()
        };
        self.asked(&Question::new(Hook::Reach, [0; 3], facts), Value::int)
    }
}

fn end_score(item: &Dynamic) -> Option<EndScore> {
    let map = item.read_lock::<Map>()?;
    let player = map.get("player")?.as_int().ok()?;
    let points = map.get("points")?.as_int().ok()?;
    // A seat a game can have, and points a score can hold, so that the
    // error names the pack and its line, not only the game's end.
    let most = i64::from(u32::MAX);
    if !(0..crate::kernel::MAX_PLAYERS as i64).contains(&player)
        || !(-most..=most).contains(&points)
    {
        return None;
    }
    let feature = map.get("feature")?.clone().into_immutable_string().ok()?;
    Some(EndScore {
        player: usize::try_from(player).ok()?,
        points,
        feature: feature.to_string(),
    })
}
