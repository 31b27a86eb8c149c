//! Tracing hook calls, for a pack's author (`check`, `test` and `play
//! --trace`): for each question a hook is asked, the pack that answered,
//! the arguments as the script saw them, what it read (the recorder's trace,
//! the one the memo keeps answers under), its `debug(…)` lines and its
//! answer — or, for an answer given again from the memo, that it was kept
//! (the hook not run) and the reads that matched.
//!
//! Off unless the scripts hold a trace (`rules::trace::Trace`, given by
//! `rules::LoadOptions::with_trace`). Tracing only looks: every answer,
//! operation and budget is what it is without it (`debug` costs its one
//! operation either way). It is bounded: each text is cut to [`limits::TRACE_TEXT`]
//! characters, a call keeps [`limits::TRACE_DEBUG_LINES`] debug lines (the
//! rest counted), and a trace [`limits::TRACE_BYTES`] of text (later calls
//! counted). The host collects; the program formats and writes. The calls
//! being traced are a part of the host (`tracer`).

pub(super) mod tracer;
mod values;

use crate::kernel::effects::{Effect, FloorFrom, StateAt};
use crate::kernel::pieces::MeepleSpot;
use std::fmt::Write as _;

use rhai::{Dynamic, ImmutableString, Position};

use super::ask::Question;
use super::host::ScriptRules;
use super::limits;
use super::memo::Value;
use super::reads::{Aspect, Facts, Read, TileAspect};
use super::record::kind_name;
use super::running::RULES;
use crate::rules::trace::{DebugLine, TraceEntry, TracedCall, cut};
use tracer::Open;

impl ScriptRules {
    /// Are hook calls traced?
    pub(super) fn tracing(&self) -> bool {
        self.scripts.trace.is_some()
    }

    /// Is a call to be traced now: not one asked while `fires` asks the
    /// shorter chains of a traced call (no question of the game's)?
    pub(super) fn trace_listening(&self) -> bool {
        self.tracer.borrow().open.last().is_none_or(|o| o.listening)
    }

    /// A call answering `q` with the script arguments `args` begins.
    pub(super) fn trace_begin(&self, q: &Question, args: &[Dynamic]) {
        let call = self.traced_call(q, args);
        let mut t = self.tracer.borrow_mut();
        let at = t.done.len();
        t.open.push(Open {
            call,
            at,
            listening: true,
            reads: 0,
        });
    }

    /// The running call's answer is made, after `reads` reads of its own:
    /// what follows (shorter chains asked for `fires`) is not its.
    pub(super) fn trace_answered(&self, reads: usize) {
        if let Some(open) = self.tracer.borrow_mut().open.last_mut() {
            open.listening = false;
            open.reads = reads;
        }
    }

    /// The running call ended, having read `reads` (`opaque`: also what no
    /// trace holds), with `answer`.
    pub(super) fn trace_end(
        &self,
        reads: &[(Read, i64)],
        opaque: bool,
        answer: Result<&Value, &anyhow::Error>,
    ) {
        let Some(open) = self.tracer.borrow_mut().open.pop() else {
            return;
        };
        let mut call = open.call;
        call.reads = self.reads_text(&reads[..open.reads.min(reads.len())]);
        call.opaque = opaque;
        call.answer = self.answer_text(answer);
        let mut t = self.tracer.borrow_mut();
        t.done.insert(open.at, call);
        drop(t);
        self.trace_flush();
    }

    /// `q` was answered from the memo with `answer`, its kept trace
    /// matching `reads`.
    pub(super) fn trace_kept(&self, q: &Question, reads: &[(Read, i64)], answer: &Value) {
        let mut call = self.traced_call(q, &self.arguments(q));
        call.kept = true;
        call.reads = self.reads_text(reads);
        call.answer = self.answer_text(Ok(answer));
        self.tracer.borrow_mut().done.push(call);
        self.trace_flush();
    }

    /// Hand the calls of a top-level call that ended to the trace.
    fn trace_flush(&self) {
        let (Some(trace), mut t) = (&self.scripts.trace, self.tracer.borrow_mut()) else {
            return;
        };
        if !t.open.is_empty() {
            return;
        }
        for call in t.done.drain(..) {
            trace.add(call.bytes(), TraceEntry::Call(call));
        }
    }

    /// A `debug(…)` of the running script, at `pos`, said `text`.
    pub(super) fn debug_line(&self, text: &str, pos: Position) {
        if !self.tracing() {
            return;
        }
        let at = self.stack.borrow().last().copied();
        let mut t = self.tracer.borrow_mut();
        let (Some(open), Some((hook, level))) = (t.open.last_mut(), at) else {
            return;
        };
        if !open.listening {
            return;
        }
        if open.call.debug.len() >= limits::TRACE_DEBUG_LINES {
            open.call.more_debug += 1;
            return;
        }
        let pack = &self.scripts.packs[self.scripts.chains[hook.index()][level]];
        open.call.debug.push(DebugLine {
            pack: pack.name.clone(),
            file: pack.path.display().to_string(),
            line: pos.line().unwrap_or(0),
            text: cut(text),
        });
    }

    /// A call of `q` with `args`, before its answer.
    fn traced_call(&self, q: &Question, args: &[Dynamic]) -> TracedCall {
        let pack = self.scripts.chains[q.hook.index()]
            .last()
            .map(|&p| self.scripts.packs[p].name.clone());
        TracedCall {
            hook: q.hook.name(),
            pack,
            depth: self.tracer.borrow().open.len(),
            arguments: q
                .hook
                .params()
                .iter()
                .zip(args)
                .map(|(name, a)| (*name, cut(&self.dynamic_text(a, &q.facts))))
                .collect(),
            reads: Vec::new(),
            opaque: false,
            kept: false,
            debug: Vec::new(),
            more_debug: 0,
            answer: Ok(String::new()),
        }
    }

    /// Each read as a script writes it, with its value.
    fn reads_text(&self, reads: &[(Read, i64)]) -> Vec<(String, String)> {
        reads
            .iter()
            .map(|&(r, v)| (self.read_name(r), cut(&self.read_value(r, v))))
            .collect()
    }

    /// A read as a script writes it, its arguments in.
    fn read_name(&self, r: Read) -> String {
        let kind = |k: u8| {
            self.scripts
                .kind_names
                .get(k as usize)
                .map_or(k.to_string(), |n| format!("{:?}", n.as_str()))
        };
        match r {
            Read::Count(k) => format!("tower.count({})", kind(k)),
            Read::FeatureMeeples(s) => format!("meeple.feature.meeples[{s}]"),
            Read::HasTile(x, y) => format!("board.has_tile({x}, {y})"),
            Read::InRange(x, y) => format!("game().in_range({x}, {y})"),
            Read::RangeSteps(dx, dy) => format!("board.range_steps(tower, {dx}, {dy})"),
            Read::TowerInRange(x, y) => format!("tower.in_range({x}, {y})"),
            Read::Score(s) => format!("game().score({s})"),
            Read::Rank(s) => format!("game().rank({s})"),
            Read::Ahead(a, b) => format!("game().ahead({a}, {b})"),
            Read::Prisoners(c, o) => format!("game().prisoners({c}, {o})"),
            Read::Held(c) => format!("game().held({c})"),
            Read::Supply(s) => format!("game().meeples_in_supply({s})"),
            Read::FeatureAt(aspect, x, y, s) => {
                let at = format!("game().feature({x}, {y}, {s})");
                match aspect {
                    Aspect::Exists => at,
                    Aspect::Meeples(seat) => format!("{at}.meeples[{seat}]"),
                    other => format!("{at}.{}", other.field()),
                }
            }
            Read::TileAt(aspect, x, y) => {
                let at = format!("game().tile_at({x}, {y})");
                match aspect {
                    TileAspect::Kind => at,
                    other => format!("{at}.{}", other.field()),
                }
            }
            Read::State(v, at) => {
                let name = self
                    .scripts
                    .state_vars
                    .get(v as usize)
                    .map_or(String::new(), |d| d.name.clone());
                match at {
                    StateAt::Game => format!("state({name:?})"),
                    StateAt::Seat(s) => format!("state({name:?}, {s})"),
                    StateAt::Cell(x, y) => format!("state_at({name:?}, {x}, {y})"),
                }
            }
            Read::Event(f) => format!("event.{}", f.name()),
            other => other.name().to_string(),
        }
    }

    /// A read's value as the script saw it.
    fn read_value(&self, r: Read, v: i64) -> String {
        let kind = |k: i64| {
            usize::try_from(k)
                .ok()
                .and_then(|k| self.scripts.kind_names.get(k))
                .map_or(String::new(), |n| n.to_string())
        };
        let seat_or_none = |v: i64| {
            if v < 0 {
                "()".to_string()
            } else {
                v.to_string()
            }
        };
        match r {
            Read::Top => format!("{:?}", kind(v)),
            Read::Floors => {
                let height = (v & 0xf) as usize;
                let names: Vec<String> = (0..height)
                    .map(|i| format!("{:?}", kind((v >> (4 + 5 * i)) & 0x1f)))
                    .collect();
                format!("[{}]", names.join(", "))
            }
            Read::HasMeeple
            | Read::Feature
            | Read::FeatureComplete
            | Read::HasTile(..)
            | Read::Ahead(..) => (v != 0).to_string(),
            Read::TowerOwner | Read::Leader | Read::Last => seat_or_none(v),
            Read::MeepleOn | Read::FeatureKind | Read::FeatureAt(Aspect::Kind, ..) => {
                format!("{:?}", kind_name(v))
            }
            Read::FeatureAt(Aspect::Exists | Aspect::Complete, ..)
            | Read::TileAt(TileAspect::Foundation, ..) => (v != 0).to_string(),
            // A name for the towers' content, not a number the script saw.
            Read::Towers => "(every tower, as it stands)".to_string(),
            _ => v.to_string(),
        }
    }

    /// A hook's answer as a script would write it, or its error.
    fn answer_text(&self, answer: Result<&Value, &anyhow::Error>) -> Result<String, String> {
        let v = answer.map_err(|e| cut(&format!("{e:#}")))?;
        let mut out = String::new();
        match v {
            Value::Bool(b) => write!(out, "{b}"),
            Value::Int(n) => write!(out, "{n}"),
            Value::Cells(cells) => {
                let cells: Vec<String> = cells.iter().map(|(x, y)| format!("[{x}, {y}]")).collect();
                write!(out, "[{}]", cells.join(", "))
            }
            Value::Supply(counts) => {
                let kinds: Vec<String> = self
                    .scripts
                    .kinds
                    .iter()
                    .zip(counts.iter())
                    .map(|(k, n)| format!("{k}: {n}"))
                    .collect();
                write!(out, "#{{{}}}", kinds.join(", "))
            }
            Value::Cost(None) => write!(out, "()"),
            Value::Cost(Some(n)) => write!(out, "{n}"),
            Value::Outcome(o) => write!(out, "{:?}", o.word()),
            Value::End(scores) => {
                let scores: Vec<String> = scores
                    .iter()
                    .map(|s| {
                        format!(
                            "#{{player: {}, points: {}, feature: {:?}}}",
                            s.player, s.points, s.feature
                        )
                    })
                    .collect();
                write!(out, "[{}]", scores.join(", "))
            }
            Value::Effects(effects) => {
                let effects: Vec<String> = effects
                    .iter()
                    .map(|a| self.effect_text(&a.effect))
                    .collect();
                write!(out, "[{}]", effects.join(", "))
            }
        }
        .unwrap_or_default();
        Ok(cut(&out))
    }

    /// An effect as a script makes it.
    pub(super) fn effect_text(&self, e: &Effect) -> String {
        let kind = |k: &crate::kernel::FloorKind| {
            self.scripts
                .kinds
                .get(*k as usize)
                .map_or(String::new(), |n| format!("{n:?}"))
        };
        let var = |v: &u16| {
            self.scripts
                .state_vars
                .get(*v as usize)
                .map_or(String::new(), |d| format!("{:?}", d.name))
        };
        match e {
            Effect::Points {
                seat,
                points,
                source,
            } => format!("points({seat}, {points}, {source:?})"),
            Effect::AddFloor {
                tower,
                kind: k,
                from,
            } => match from {
                FloorFrom::Box => format!("add_floor({}, {}, {})", tower.x, tower.y, kind(k)),
                FloorFrom::Seat(s) => {
                    format!("add_floor({}, {}, {}, {s})", tower.x, tower.y, kind(k))
                }
                FloorFrom::Table => {
                    format!(
                        "add_floor({}, {}, {}, \"table\")",
                        tower.x,
                        tower.y,
                        kind(k)
                    )
                }
            },
            Effect::RemoveFloor { tower } => format!("remove_floor({}, {})", tower.x, tower.y),
            Effect::Imprison { at, spot, captor } => match spot {
                MeepleSpot::Tower => format!("take_prisoner({}, {}, {captor})", at.x, at.y),
                MeepleSpot::Segment(s) => {
                    format!("take_prisoner({}, {}, {s}, {captor})", at.x, at.y)
                }
            },
            Effect::Top { tower, seat } => {
                format!("place_on_tower({}, {}, {seat})", tower.x, tower.y)
            }
            Effect::Place { at, segment, seat } => {
                format!("place_meeple({}, {}, {segment}, {seat})", at.x, at.y)
            }
            Effect::SendHome { at, spot } => match spot {
                MeepleSpot::Tower => format!("send_home({}, {})", at.x, at.y),
                MeepleSpot::Segment(s) => format!("send_home({}, {}, {s})", at.x, at.y),
            },
            Effect::SetState { var: v, at, value } => match at {
                StateAt::Game => format!("set_state({}, {value})", var(v)),
                StateAt::Seat(s) => format!("set_state({}, {s}, {value})", var(v)),
                StateAt::Cell(x, y) => format!("set_state_at({}, {x}, {y}, {value})", var(v)),
            },
            Effect::Block { tower, blocked } => format!(
                "{}({}, {})",
                if *blocked { "block" } else { "unblock" },
                tower.x,
                tower.y
            ),
        }
    }
}

/// `debug(…)` of one to four values in a script: one line of a trace.
pub(super) fn register_debug(engine: &mut rhai::Engine) {
    engine
        .register_fn("debug", |a: Dynamic| debug_text(&[a]))
        .register_fn("debug", |a: Dynamic, b: Dynamic| debug_text(&[a, b]))
        .register_fn("debug", |a: Dynamic, b: Dynamic, c: Dynamic| {
            debug_text(&[a, b, c])
        })
        .register_fn("debug", |a: Dynamic, b: Dynamic, c: Dynamic, d: Dynamic| {
            debug_text(&[a, b, c, d])
        });
}

/// `debug(…)` in a script: its arguments as one line (strings as they
/// are, other values as a script writes them), for the trace; nothing
/// when no trace is kept. The engine hands the line to
/// [`ScriptRules::debug_line`].
fn debug_text(args: &[Dynamic]) -> ImmutableString {
    if !RULES.is_set() {
        return ImmutableString::new();
    }
    RULES.with(|r| {
        if !r.tracing() {
            return ImmutableString::new();
        }
        let text = |facts: &Facts| {
            let parts: Vec<String> = args
                .iter()
                .map(|a| match a.read_lock::<ImmutableString>() {
                    Some(s) => s.to_string(),
                    None => r.dynamic_text(a, facts),
                })
                .collect();
            cut(&parts.join(" "))
        };
        r.with_running_facts(text)
            .unwrap_or_else(|| text(&Facts::default()))
            .into()
    })
}
