//! The answers a thread has had from its hooks: per (floor stack, meeple on
//! top) for the tower hooks (`may_place_floor` and `may_top` under what each
//! call read beyond that: the seat asking, the top meeple's owner), per
//! arguments for `setup`, `seat` and `ransom` (an answer that read `game()`'s
//! scores, turn… is not kept). Hooks are pure, so an answer is asked for
//! once.
//!
//! Each answer is kept with the operations it cost (the hooks it asked
//! included) and charged at that cost every time it is given: what a game's
//! hooks spend is then the same whichever games its thread played before.

use std::sync::Arc;

use anyhow::Result;
use rhai::{Array, Dynamic, EvalAltResult};
use rustc_hash::FxHashMap;

use super::api::{TowerInfo, cell_of};
use super::context::Roles;
use super::reads::{Moment, Node, Read};
use super::{Hook, ScriptRules, rt_error};
use crate::kernel::{Answer, Asking, FloorKind, Holds, StackView};

/// An answer kept, with the operations working it out cost.
#[derive(Clone, Copy, Debug)]
pub(super) struct Kept<T> {
    pub(super) answer: T,
    pub(super) cost: u64,
}

/// Capture cells, as offsets from the tower.
pub(super) type Cells = Arc<[(i32, i32)]>;

/// What the cache keeps per (floor stack, meeple on top).
#[derive(Default)]
pub(super) struct StackAnswers {
    /// `may_place_floor` per floor kind and `may_top`, each kept under what
    /// the call read beyond the stack (the seat asking, the top meeple's
    /// owner): an answer that read neither serves every seat.
    pub(super) may_place: Vec<Option<Node<Kept<Answer>>>>,
    pub(super) may_top: Option<Node<Kept<Answer>>>,
    pub(super) reach: Option<Kept<i64>>,
    pub(super) range: Option<Kept<Cells>>,
    /// `may_capture` answers per (stands on, owner), kept under what each
    /// call read beyond that (see `reads`).
    pub(super) captures: Vec<(u8, u8, Node<Kept<bool>>)>,
    /// Every `may_place_floor` and `may_top` answer at once, once each is
    /// kept for every seat and owner (read nothing beyond the stack): the
    /// answers never change then.
    pub(super) lasting: Option<Lasting>,
}

/// A stack's `may_place_floor` answers (bit k: kind k) and `may_top` answer,
/// none of which read beyond the stack, with what they cost in all.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lasting {
    floors: u32,
    top: bool,
    floors_cost: u64,
    top_cost: u64,
}

impl StackAnswers {
    /// The answers at once, when every one of the `kinds` and the top is
    /// kept for every seat and owner.
    fn lasting(&mut self, kinds: usize) -> Option<Lasting> {
        if self.lasting.is_none() {
            self.lasting = self.summary(kinds);
        }
        self.lasting
    }

    fn summary(&self, kinds: usize) -> Option<Lasting> {
        let read_nothing = |tree: &Option<Node<Kept<Answer>>>| match tree {
            Some(Node::Answer(a)) if a.answer.holds == Holds::Tower => Some(*a),
            _ => None,
        };
        let top = read_nothing(&self.may_top)?;
        let mut l = Lasting {
            floors: 0,
            top: top.answer.yes,
            floors_cost: 0,
            top_cost: top.cost,
        };
        if self.may_place.len() < kinds {
            return None;
        }
        for (k, tree) in self.may_place.iter().take(kinds).enumerate() {
            let a = read_nothing(tree)?;
            l.floors |= (a.answer.yes as u32) << k;
            l.floors_cost += a.cost;
        }
        Some(l)
    }
}

/// A floor stack and whether a meeple stands on top, as the cache's key:
/// packed into one number for stacks of up to [`StackKey::PACKED_FLOORS`]
/// floors (5 bits a floor: floor kinds are below 32), spelled out for
/// taller ones (or a kind past 31, which loading refuses). A lookup of a packed key hashes and compares one number:
/// no allocation, no byte comparison (the tower hooks are asked several
/// times at every change of a tower).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum StackKey {
    /// Bit 0: a meeple on top; bits 1–5: the height; then 5 bits a floor,
    /// bottom first.
    Packed(u128),
    /// The floors, then 1 for a meeple on top or 0.
    Spelled(Box<[u8]>),
}

impl StackKey {
    /// The tallest stack packed into a number: 6 + 5 × 24 = 126 bits.
    const PACKED_FLOORS: usize = 24;

    pub(super) fn of(floors: &[FloorKind], meeple: bool) -> StackKey {
        if floors.len() <= Self::PACKED_FLOORS {
            let mut key = (floors.len() as u128) << 1 | meeple as u128;
            let mut kinds = 0u8;
            for (i, &f) in floors.iter().enumerate() {
                kinds |= f;
                key |= u128::from(f) << (6 + 5 * i);
            }
            if kinds < 32 {
                return StackKey::Packed(key);
            }
        }
        let mut spelled = floors.to_vec();
        spelled.push(meeple as u8);
        StackKey::Spelled(spelled.into_boxed_slice())
    }
}

#[derive(Default)]
pub(super) struct Cache {
    pub(super) stacks: FxHashMap<StackKey, StackAnswers>,
    pub(super) ransom: FxHashMap<(u32, u32), Kept<Option<u32>>>,
    pub(super) setup: FxHashMap<(usize, usize), Kept<Vec<u32>>>,
    /// Per (players, foundation tiles, seat).
    pub(super) seats: FxHashMap<(usize, usize, usize), Kept<Vec<u32>>>,
}

impl ScriptRules {
    /// A kept answer of `hook`, charged at what it cost.
    pub(super) fn hit<T>(&self, hook: Hook, kept: Kept<T>) -> Result<T> {
        self.charge(hook, kept.cost)?;
        Ok(kept.answer)
    }

    /// `answer`, to keep, with what it cost since the game's hooks had
    /// spent `before` (a reading of [`ScriptRules::spent`]).
    pub(super) fn kept<T>(&self, answer: T, before: u64) -> Kept<T> {
        Kept {
            answer,
            cost: self.spent() - before,
        }
    }

    /// Run `f` on the cached answers for a floor stack (and whether a meeple
    /// stands on top). A cache hit of a stack up to 24 floors allocates
    /// nothing.
    pub(super) fn entry<T>(
        &self,
        floors: &[FloorKind],
        meeple: bool,
        f: impl FnOnce(&mut StackAnswers) -> T,
    ) -> T {
        let mut cache = self.cache.borrow_mut();
        let key = StackKey::of(floors, meeple);
        if let Some(e) = cache.stacks.get_mut(&key) {
            return f(e);
        }
        f(cache.stacks.entry(key).or_default())
    }

    /// `range`'s answer `v` as capture cells.
    pub(super) fn cells_answer(&self, v: &Dynamic) -> Result<Cells> {
        Ok(v.read_lock::<Array>()
            .and_then(|a| a.iter().map(cell_of).collect::<Option<Vec<_>>>())
            .ok_or_else(|| {
                self.wrong_type(
                    Hook::Range,
                    v,
                    v.type_name(),
                    "an array of [dx, dy] pairs of integers",
                )
            })?
            .into())
    }

    /// The variant's whole range for this tower's stack, from the cache.
    pub(super) fn range_of_stack(
        &self,
        tower: &TowerInfo,
    ) -> Result<Arc<[(i32, i32)]>, Box<EvalAltResult>> {
        let floors = self.stack_of(tower)?;
        self.cached_range(&floors, tower.has_meeple)
            .map_err(|e| rt_error(format!("{e:#}")))
    }

    pub(super) fn cells_of_stack(&self, tower: &TowerInfo) -> Result<Array, Box<EvalAltResult>> {
        let cells = self.range_of_stack(tower)?;
        Ok(cells
            .iter()
            .map(|&(x, y)| Dynamic::from(vec![Dynamic::from(x as i64), Dynamic::from(y as i64)]))
            .collect())
    }

    pub(super) fn reach_of_stack(&self, tower: &TowerInfo) -> Result<i64, Box<EvalAltResult>> {
        let floors = self.stack_of(tower)?;
        self.cached_reach(&floors, tower.has_meeple)
            .map_err(|e| rt_error(format!("{e:#}")))
    }
}

/// `may_capture` answers, kept under what each call read (see `reads`).
impl ScriptRules {
    /// The answer kept for `m` with key `(on, owner)`, if every read of its
    /// trace gives the same value now.
    pub(super) fn kept_capture(&self, m: &Moment, key: (u8, u8)) -> Option<Kept<bool>> {
        self.entry(m.floors, m.topped, |e| {
            let range = e.range.as_ref().map(|k| &k.answer);
            let (_, _, tree) = e.captures.iter().find(|c| (c.0, c.1) == key)?;
            tree.find(|r| self.read_now(m, range, r))
        })
    }

    /// Keep `answer` for `m` under the trace just recorded, unless the call
    /// read beyond what a trace records.
    pub(super) fn keep_capture(&self, m: &Moment, key: (u8, u8), answer: Kept<bool>) {
        let trace = std::mem::take(&mut self.reads.borrow_mut().trace);
        if !self.read_context.get() {
            self.entry(m.floors, m.topped, |e| {
                match e.captures.iter_mut().find(|c| (c.0, c.1) == key) {
                    Some((_, _, tree)) => tree.add(&trace, answer),
                    None => e.captures.push((key.0, key.1, Node::of(&trace, answer))),
                }
            });
        }
        self.reads.borrow_mut().trace = trace;
    }
}

/// `may_place_floor` and `may_top`, kept under what each call read.
impl ScriptRules {
    /// Ask `hook` (`may_place_floor` of `kind`, its name the argument, or
    /// `may_top`) about `stack` for `asking`, from the answers kept when
    /// every read of one's trace gives the same value now.
    pub(super) fn ask_tower(
        &self,
        hook: Hook,
        stack: &StackView,
        kind: Option<FloorKind>,
        asking: &Asking,
    ) -> Result<Answer> {
        let read = |r| beyond_stack(asking, r);
        let kept = self.entry(stack.floors, stack.topped, |e| {
            tower_slot(e, kind).as_ref()?.find(read)
        });
        if let Some(a) = kept {
            return self.hit(hook, a);
        }
        if let Some((a, beyond)) = self.kept_tower_shape(stack, kind, read) {
            self.keep_tower(stack, kind, &beyond, a);
            return self.hit(hook, a);
        }
        self.run_tower(hook, stack, kind, asking)
    }

    /// `may_place_floor` of every kind about `stack` for `asking`, in kind
    /// order (in `floors`), then `may_top`: the kept answers found with one
    /// look at the stack's, the others asked as [`ScriptRules::ask_tower`]
    /// asks them.
    pub(super) fn ask_tower_all(
        &self,
        stack: &StackView,
        asking: &Asking,
        floors: &mut Vec<Answer>,
    ) -> Result<Answer> {
        let read = |r| beyond_stack(asking, r);
        let n = self.scripts.kinds.len();
        let mut kept = [None; crate::rules::manifest::MAX_FLOOR_KINDS];
        let (lasting, top) = self.entry(stack.floors, stack.topped, |e| {
            if let Some(l) = e.lasting(n) {
                return (Some(l), None);
            }
            for (slot, tree) in kept.iter_mut().zip(&e.may_place) {
                *slot = tree.as_ref().and_then(|t| t.find(read));
            }
            (None, e.may_top.as_ref().and_then(|t| t.find(read)))
        });
        floors.clear();
        if let Some(l) = lasting {
            // Charged together, the budget breaks at the same question as
            // when each answer is charged in turn: the sum only grows.
            floors.extend((0..n).map(|k| Answer::lasting(l.floors & (1 << k) != 0)));
            self.charge(Hook::MayPlaceFloor, l.floors_cost)?;
            self.charge(Hook::MayTop, l.top_cost)?;
            return Ok(Answer::lasting(l.top));
        }
        for (k, slot) in kept.iter().enumerate().take(n) {
            floors.push(match *slot {
                Some(a) => self.hit(Hook::MayPlaceFloor, a)?,
                None => self.ask_tower(Hook::MayPlaceFloor, stack, Some(k as FloorKind), asking)?,
            });
        }
        match top {
            Some(a) => self.hit(Hook::MayTop, a),
            None => self.ask_tower(Hook::MayTop, stack, None, asking),
        }
    }

    /// Run `hook` about `stack` for `asking`, and keep its answer under what
    /// the call read (unless it read the moment).
    fn run_tower(
        &self,
        hook: Hook,
        stack: &StackView,
        kind: Option<FloorKind>,
        asking: &Asking,
    ) -> Result<Answer> {
        let before = self.spent();
        self.read_context.set(false);
        let mut info = self.tower_info(stack.floors, stack.topped, None);
        info.owner = Some(asking.owner.map(|o| o as i64));
        let name = kind.map(|k| Dynamic::from(self.scripts.kind_names[k as usize].clone()));
        let args = [Some(Dynamic::from(info)), name]
            .into_iter()
            .flatten()
            .collect();
        let roles = Roles {
            actor: Some(asking.seat),
            ..Roles::default()
        };
        let ((yes, trace), shape) = self.shape_recording(|| {
            self.recording_stack(|| {
                self.with_context(asking.table, roles, || self.ask_bool(hook, args, None))
            })
        });
        let holds = if self.read_context.get() {
            Holds::Now
        } else if trace.iter().any(|(r, _)| *r == Read::Actor) {
            Holds::Seat
        } else {
            Holds::Tower
        };
        let answer = Answer { yes: yes?, holds };
        if holds != Holds::Now {
            let kept = self.kept(answer, before);
            self.keep_tower(stack, kind, &trace, kept);
            if let Some(shape) = shape {
                self.keep_tower_shape(kind, &shape, &trace, kept);
            }
        }
        Ok(answer)
    }

    /// Keep `kept` for `stack` under `trace`, what its call read beyond the
    /// stack.
    fn keep_tower(
        &self,
        stack: &StackView,
        kind: Option<FloorKind>,
        trace: &[(Read, i64)],
        kept: Kept<Answer>,
    ) {
        self.entry(stack.floors, stack.topped, |e| {
            let n = self.scripts.kinds.len();
            match tower_slot_mut(e, kind, n) {
                Some(tree) => tree.add(trace, kept),
                slot => *slot = Some(Node::of(trace, kept)),
            }
        });
    }
}

/// What `may_place_floor` and `may_top` may read beyond the stack, as
/// `asking` gives it: the seat asking and the top meeple's owner.
fn beyond_stack(asking: &Asking, read: Read) -> Option<i64> {
    match read {
        Read::Actor => Some(asking.seat as i64),
        Read::TowerOwner => Some(asking.owner.map_or(-1, |o| o as i64)),
        _ => None,
    }
}

/// The kept answers of `may_place_floor` of `kind`, or of `may_top`.
fn tower_slot(e: &StackAnswers, kind: Option<FloorKind>) -> &Option<Node<Kept<Answer>>> {
    match kind {
        Some(k) => e.may_place.get(k as usize).unwrap_or(&None),
        None => &e.may_top,
    }
}

fn tower_slot_mut(
    e: &mut StackAnswers,
    kind: Option<FloorKind>,
    kinds: usize,
) -> &mut Option<Node<Kept<Answer>>> {
    match kind {
        Some(k) => {
            e.may_place.resize_with(kinds, || None);
            &mut e.may_place[k as usize]
        }
        None => &mut e.may_top,
    }
}

/// `may_place_floor` asked for every seat: the pack's function runs once
/// for all unless it read the seat, once per owner when it read the owner,
/// and every time when it read the moment.
#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::kernel::{Board, Rules, Table};
    use crate::rules::{Home, Implementation, Ruleset};

    /// tower, then a pack whose `may_place_floor` is `body`.
    fn rules_with(body: &str) -> ScriptRules {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("pack.toml"),
            "[pack]\nname = \"who\"\nrequires = [\"tower\"]\nscript = \"who.rhai\"\n",
        )
        .unwrap();
        let script = format!("fn may_place_floor(tower, kind) {{ {body} }}\n");
        std::fs::write(dir.path().join("who.rhai"), script).unwrap();
        let home = Home::at(std::path::Path::new(env!("CARGO_MANIFEST_DIR")))
            .with_memory_limit(crate::rules::MemoryLimit::Off);
        let packs = ["tower".to_string(), dir.path().display().to_string()];
        let set = Ruleset::from_packs(&home, &packs).unwrap();
        let Implementation::Script(scripts) = &set.implementation else {
            panic!("scripted packs");
        };
        ScriptRules::new(Arc::clone(scripts))
    }

    /// Ask every seat of six about a bare foundation whose (made-up) top
    /// meeple is `owner`'s: the answers, and the pack functions run.
    fn ask_all(rules: &ScriptRules, owner: Option<usize>) -> (Vec<Answer>, u64) {
        let board = Board::new();
        let table = Table::bare(&board, 6);
        let stack = StackView {
            floors: &[],
            topped: false,
        };
        let before = rules.hook_runs();
        let answers = (0..6)
            .map(|seat| {
                let asking = Asking {
                    seat,
                    owner,
                    table: &table,
                };
                rules.may_place_floor(&stack, 0, &asking).unwrap()
            })
            .collect();
        (answers, rules.hook_runs() - before)
    }

    #[test]
    fn an_answer_that_read_no_seat_is_worked_out_once_for_every_seat() {
        let rules = rules_with("previous(tower, kind)");
        let (answers, runs) = ask_all(&rules, None);
        assert_eq!(runs, 2, "the pack and tower's, once for six seats");
        assert!(answers.iter().all(|a| *a == Answer::lasting(true)));
        assert_eq!(ask_all(&rules, None).1, 0, "all kept");
    }

    #[test]
    fn an_answer_that_read_the_seat_is_kept_per_seat() {
        let rules = rules_with("game().actor == 0 && previous(tower, kind)");
        let (answers, runs) = ask_all(&rules, None);
        assert_eq!(
            runs,
            2 + 5,
            "seat 0 asks tower's too; seats 1-5 stop at the pack"
        );
        let yes: Vec<bool> = answers.iter().map(|a| a.yes).collect();
        assert_eq!(yes, [true, false, false, false, false, false]);
        assert!(answers.iter().all(|a| a.holds == Holds::Seat));
        assert_eq!(ask_all(&rules, None).1, 0, "all kept, per seat");
    }

    #[test]
    fn an_answer_that_read_the_owner_is_kept_per_owner_for_every_seat() {
        let rules = rules_with("tower.meeple_owner != 1");
        let (answers, runs) = ask_all(&rules, Some(1));
        assert_eq!(runs, 1);
        assert!(answers.iter().all(|a| *a == Answer::lasting(false)));
        let (answers, runs) = ask_all(&rules, Some(2));
        assert_eq!(runs, 1, "another owner: asked again, once");
        assert!(answers.iter().all(|a| *a == Answer::lasting(true)));
        assert_eq!(ask_all(&rules, Some(1)).1, 0, "both kept");
    }

    #[test]
    fn an_answer_that_read_the_scores_is_asked_every_time() {
        let rules = rules_with("game().scores[0] == 0");
        let (answers, runs) = ask_all(&rules, None);
        assert_eq!(runs, 6);
        assert!(answers.iter().all(|a| a.yes && a.holds == Holds::Now));
        assert_eq!(ask_all(&rules, None).1, 6, "nothing kept");
    }
}

#[cfg(test)]
mod keys {
    use super::StackKey;

    /// Every stack of up to 4 floors of 32 kinds, and 24/25-floor stacks
    /// around the packing limit, each with and without a meeple: no two share
    /// a key.
    #[test]
    fn stacks_have_keys_of_their_own() {
        let mut stacks: Vec<Vec<u8>> = vec![vec![]];
        let mut last = vec![vec![]];
        for _ in 0..3 {
            last = last
                .iter()
                .flat_map(|s: &Vec<u8>| (0..32u8).map(move |k| [s.clone(), vec![k]].concat()))
                .collect();
            stacks.extend(last.iter().cloned());
        }
        for tall in [24, 25] {
            stacks.push(vec![31; tall]);
            stacks.push(vec![0; tall]);
        }
        let mut keys = std::collections::HashSet::new();
        for s in &stacks {
            for meeple in [false, true] {
                assert!(keys.insert(StackKey::of(s, meeple)), "{s:?} {meeple}");
            }
        }
        assert!(matches!(
            StackKey::of(&[0; 25], false),
            StackKey::Spelled(_)
        ));
        assert!(matches!(StackKey::of(&[31; 24], true), StackKey::Packed(_)));
    }
}
