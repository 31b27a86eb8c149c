//! What a scenario says must hold, checked against the game: each
//! expectation asks the rules its question as the game would (the kernel's
//! own capture question, the tower answers the game keeps, the hooks'
//! ransom and supply) and compares.

use std::collections::BTreeSet;

use anyhow::{Context, Result};
use toml::Spanned;

use super::Failure;
use super::checked::{cell, number, seat, within_side};
use super::file::{Cells, RawExpect, RawMay, RawRange};
use super::position::{floor_counts, floor_kind};
use crate::kernel::capture::capturable;
use crate::kernel::diag::{Source, did_you_mean};
use crate::kernel::{Game, RansomView};
use crate::play::log;
use crate::rules::Ruleset;

/// Check every expectation; the failures are added to `failures`. How many
/// were checked.
pub fn check(
    src: &Source,
    set: &Ruleset,
    game: &Game,
    events: &[serde_json::Value],
    expect: &RawExpect,
    failures: &mut Vec<Failure>,
) -> Result<usize> {
    let mut c = Checker {
        src,
        set,
        game,
        failures,
        checked: 0,
    };
    for r in &expect.range {
        c.range(r)?;
    }
    for cap in &expect.capturable {
        let tower = c.tower(&cap.get_ref().tower)?;
        let mut got = capturable_cells(game, tower).with_context(|| asked(src, cap.span()))?;
        got.sort_unstable();
        let mut want: Vec<(i32, i32)> = cap
            .get_ref()
            .meeples
            .get_ref()
            .iter()
            .map(|at| within_side(src, at.span(), *at.get_ref(), "[0, 0]"))
            .collect::<Result<_>>()?;
        want.sort_unstable();
        let at = pos_text(cap.get_ref().tower.get_ref());
        c.compare(
            cap.span(),
            format!("meeples a floor on the tower at {at} may capture"),
            cells_text(&want),
            cells_text(&got),
        );
    }
    for may in &expect.floors {
        c.may(may, true)?;
    }
    for may in &expect.top {
        c.may(may, false)?;
    }
    for r in &expect.ransom {
        let r = r.get_ref();
        let n = game.players().len();
        let payer = match &r.payer {
            Some(p) => seat(src, p, n)?,
            None => game.current(),
        };
        let captor = seat(src, &r.captor, n)?;
        let want = match r.cost.get_ref() {
            toml::Value::Integer(i) => {
                let cost = Spanned::new(r.cost.span(), *i);
                number::<u32>(src, &cost, 0, u32::MAX.into(), "a ransom's cost")?.to_string()
            }
            toml::Value::String(s) if s == "none" => "none".to_string(),
            other => {
                return Err(src.error_at(
                    r.cost.span(),
                    format!("`cost` is a number of points or \"none\", not {other}"),
                ));
            }
        };
        let got = ransom_cost(game, payer, captor).with_context(|| asked(src, r.cost.span()))?;
        let got = got.map_or("none".to_string(), |c| c.to_string());
        c.compare(
            r.cost.span(),
            format!("ransom seat {payer} pays seat {captor}"),
            want,
            got,
        );
    }
    if let Some(table) = &expect.table {
        let want = floor_counts(src, set, table)?;
        let (w, g) = (c.supply_text(&want), c.supply_text(game.table_floors()));
        c.compare(table.span(), "the table's floors".to_string(), w, g);
    }
    for s in &expect.supply {
        let s = s.get_ref();
        let n = game.players().len();
        let seat = seat(src, &s.seat, n)?;
        let want = floor_counts(src, set, &s.floors)?;
        let got = game
            .rules()
            .seat_supply(n, set.tiles().foundation_tiles(), seat)
            .with_context(|| asked(src, s.floors.span()))?;
        let (w, g) = (c.supply_text(&want), c.supply_text(&got));
        c.compare(
            s.floors.span(),
            format!("supply of seat {seat} ({n} players)"),
            w,
            g,
        );
    }
    for p in &expect.prisoners {
        let p = p.get_ref();
        let n = game.players().len();
        let (captor, owner) = (seat(src, &p.captor, n)?, seat(src, &p.owner, n)?);
        let got = game.prisoners(captor, owner);
        let want: u8 = number(src, &p.count, 0, MAX_PRISONERS, "a count of prisoners")?;
        c.compare(
            p.count.span(),
            format!("prisoners of seat {owner} held by seat {captor}"),
            want.to_string(),
            got.to_string(),
        );
    }
    if let Some(scores) = &expect.scores {
        let want = scores_of(src, scores)?;
        c.compare(
            scores.span(),
            "scores".into(),
            list(&want),
            list(&game.scores()),
        );
    }
    if let Some(end) = &expect.end_scores {
        let want = scores_of(src, end)?;
        let mut after = game.clone();
        if after.turn_begun() {
            after.end_turn()?;
        }
        after
            .final_scoring()
            .with_context(|| asked(src, end.span()))?;
        c.compare(
            end.span(),
            "scores after the end of the game".into(),
            list(&want),
            list(&after.scores()),
        );
    }
    for s in &expect.state {
        let v = super::state::resolve(src, game.rules(), game.players().len(), s.get_ref())?;
        let got = game.state().get(v.var, v.at);
        let span = match &s.get_ref().value {
            Some(value) => value.span(),
            None => s.span(),
        };
        c.compare(
            span,
            v.what.clone(),
            v.shown(v.value),
            got.map_or("none".into(), |g| v.shown(g)),
        );
    }
    if let Some(want) = &expect.events {
        c.events(want, events)?;
    }
    if let Some(want) = &expect.events_include {
        c.events_include(want, events)?;
    }
    for name in &expect.no_events {
        let n = name.get_ref();
        event_name(src, name)?;
        let got: Vec<String> = events
            .iter()
            .filter(|e| e["event"] == n.as_str())
            .map(|e| e.to_string())
            .collect();
        c.compare(
            name.span(),
            format!("no `{n}` record"),
            "none".into(),
            if got.is_empty() {
                "none".into()
            } else {
                got.join("\n")
            },
        );
    }
    Ok(c.checked)
}

struct Checker<'c, 'g> {
    src: &'c Source,
    set: &'c Ruleset,
    game: &'c Game<'g>,
    failures: &'c mut Vec<Failure>,
    checked: usize,
}

impl Checker<'_, '_> {
    fn compare(
        &mut self,
        span: std::ops::Range<usize>,
        what: String,
        expected: String,
        got: String,
    ) {
        self.checked += 1;
        if expected != got {
            let (line, col) = self.src.line_col(span.start);
            self.failures.push(Failure {
                at: format!("{}:{line}:{col}", self.src.path.display()),
                what,
                expected,
                got,
            });
        }
    }

    /// The tower at a cell (bad input when there is none).
    fn tower(&self, at: &super::file::At) -> Result<usize> {
        let pos = cell(self.src, at)?;
        self.game.tower_at(pos).ok_or_else(|| {
            self.src.error_at(
                at.span(),
                format!("no foundation at [{}, {}]", pos.x, pos.y),
            )
        })
    }

    fn range(&mut self, r: &Spanned<RawRange>) -> Result<()> {
        let raw = r.get_ref();
        let t = self.tower(&raw.tower)?;
        let got: BTreeSet<(i32, i32)> = range_cells(self.game, t)
            .with_context(|| asked(self.src, raw.cells.span()))?
            .into_iter()
            .collect();
        let want: BTreeSet<(i32, i32)> = match raw.cells.get_ref() {
            Cells::List(cells) => cells
                .iter()
                .map(|&cell| within_side(self.src, raw.cells.span(), cell, "the tower"))
                .collect::<Result<_>>()?,
            Cells::Picture(p) => picture_cells(self.src, &raw.cells, p)?,
        };
        let what = format!("range of the tower at {}", pos_text(raw.tower.get_ref()));
        if want == got {
            self.compare(raw.cells.span(), what, String::new(), String::new());
        } else {
            self.compare(
                raw.cells.span(),
                what,
                picture(&want, &got, &want),
                picture(&want, &got, &got),
            );
        }
        Ok(())
    }

    /// Which seats may put a floor of a kind on a tower (`floor`), or a
    /// meeple on top of it.
    fn may(&mut self, may: &Spanned<RawMay>, floor: bool) -> Result<()> {
        let m = may.get_ref();
        let t = self.tower(&m.tower)?;
        let n = self.game.players().len();
        let kind = match (&m.kind, floor) {
            (Some(k), true) => Some(floor_kind(self.src, self.set, k)?),
            (None, true) => {
                return Err(self
                    .src
                    .error_at(may.span(), "say which floor: `kind = \"regular\"`"));
            }
            (Some(k), false) => return Err(self.src.error_at(k.span(), "`top` takes no `kind`")),
            (None, false) => None,
        };
        let mut got = Vec::new();
        for s in 0..n {
            let yes = match kind {
                Some(k) => self.game.allows_floor(t, k, s),
                None => self.game.allows_meeple(t, s),
            }
            .with_context(|| asked(self.src, m.seats.span()))?;
            if yes {
                got.push(s);
            }
        }
        let mut want = m
            .seats
            .get_ref()
            .iter()
            .map(|s| seat(self.src, s, n))
            .collect::<Result<Vec<_>>>()?;
        want.sort_unstable();
        want.dedup();
        let at = pos_text(m.tower.get_ref());
        let what = match (&m.kind, kind) {
            (Some(k), Some(_)) => format!(
                "seats that may put a `{}` floor on the tower at {at}",
                k.get_ref()
            ),
            _ => format!("seats that may put a meeple on top of the tower at {at}"),
        };
        self.compare(m.seats.span(), what, list(&want), list(&got));
        Ok(())
    }

    fn supply_text(&self, counts: &[u32]) -> String {
        let parts: Vec<String> = self
            .set
            .floors()
            .iter()
            .zip(counts)
            .map(|(f, c)| format!("{} {c}", f.name))
            .collect();
        parts.join(", ")
    }

    /// The records the steps wrote, of the events `want` names, against
    /// `want` (each record compared on the fields it gives).
    fn events(
        &mut self,
        want: &Spanned<Vec<Spanned<toml::Table>>>,
        events: &[serde_json::Value],
    ) -> Result<()> {
        let (kinds, expected) = expected_records(self.src, want)?;
        let got: Vec<&serde_json::Value> = events
            .iter()
            .filter(|e| e["event"].as_str().is_some_and(|k| kinds.contains(k)))
            .collect();
        let fields = |e: &serde_json::Value| e.to_string();
        for (i, (span, want)) in expected.iter().enumerate() {
            let what = format!("record {} of the events named", i + 1);
            match got.get(i) {
                Some(g) if matches(want, g) => {
                    self.compare(span.span(), what, String::new(), String::new())
                }
                Some(g) => self.compare(span.span(), what, fields(want), fields(g)),
                None => self.compare(span.span(), what, fields(want), "no such record".into()),
            }
        }
        if got.len() > expected.len() {
            let extra: Vec<String> = got[expected.len()..].iter().map(|e| fields(e)).collect();
            self.compare(
                want.span(),
                "no more records of the events named".into(),
                "none".into(),
                extra.join("\n"),
            );
        }
        Ok(())
    }

    /// The records `want` lists are among those the steps wrote, in that
    /// order, with any others before, between and after them.
    fn events_include(
        &mut self,
        want: &Spanned<Vec<Spanned<toml::Table>>>,
        events: &[serde_json::Value],
    ) -> Result<()> {
        let (_, expected) = expected_records(self.src, want)?;
        let mut rest = events.iter();
        for (i, (span, want)) in expected.iter().enumerate() {
            let what = format!("record {} of `events_include`, in order", i + 1);
            if rest.any(|g| matches(want, g)) {
                self.compare(span.span(), what, String::new(), String::new());
                continue;
            }
            let kind = &want["event"];
            let of_kind: Vec<String> = events
                .iter()
                .filter(|e| &e["event"] == kind)
                .map(|e| e.to_string())
                .collect();
            let got = if of_kind.is_empty() {
                format!("no `{}` record", kind.as_str().unwrap_or_default())
            } else {
                format!(
                    "none after the records before it; of its event:\n{}",
                    of_kind.join("\n")
                )
            };
            self.compare(span.span(), what, want.to_string(), got);
            // The records after it are not looked for past one missing.
            break;
        }
        Ok(())
    }
}

/// The records an `events` (or `events_include`) list expects, each named
/// by its `event`, and the event names it holds.
type Expected<'w> = Vec<(&'w Spanned<toml::Table>, serde_json::Value)>;

fn expected_records<'w>(
    src: &Source,
    want: &'w Spanned<Vec<Spanned<toml::Table>>>,
) -> Result<(BTreeSet<String>, Expected<'w>)> {
    let mut kinds = BTreeSet::new();
    let mut expected = Vec::new();
    for w in want.get_ref() {
        let Some(toml::Value::String(name)) = w.get_ref().get("event") else {
            return Err(src.error_at(
                w.span(),
                "each expected record names its `event` (as in docs/log.md)",
            ));
        };
        event_name(src, &Spanned::new(w.span(), name.clone()))?;
        kinds.insert(name.clone());
        expected.push((w, serde_json::to_value(w.get_ref())?));
    }
    Ok((kinds, expected))
}

/// The most prisoners one seat may hold of another: every meeple of a
/// player.
const MAX_PRISONERS: i64 = crate::kernel::MEEPLES_PER_PLAYER as i64;

/// Scores a scenario expects, each one a score can be.
fn scores_of(src: &Source, scores: &Spanned<Vec<Spanned<i64>>>) -> Result<Vec<u32>> {
    scores
        .get_ref()
        .iter()
        .map(|s| number(src, s, 0, u32::MAX.into(), "a score"))
        .collect()
}

/// Where an expectation is whose question the rules failed to answer.
fn asked(src: &Source, span: std::ops::Range<usize>) -> String {
    let (line, col) = src.line_col(span.start);
    format!("the expectation at {}:{line}:{col}", src.path.display())
}

/// Does record `got` have every field of `want`, with its value?
fn matches(want: &serde_json::Value, got: &serde_json::Value) -> bool {
    match want.as_object() {
        Some(fields) => fields.iter().all(|(k, v)| got.get(k) == Some(v)),
        None => false,
    }
}

/// An event's name, checked against the log's.
fn event_name(src: &Source, name: &Spanned<String>) -> Result<()> {
    if log::event_names().any(|e| e == name.get_ref()) {
        Ok(())
    } else {
        Err(src.error_at(
            name.span(),
            format!(
                "no event `{}` in a log (docs/log.md){}",
                name.get_ref(),
                did_you_mean(name.get_ref(), log::event_names())
            ),
        ))
    }
}

/// What a ransom costs `payer` to free a meeple `captor` holds, as the game
/// would ask it now (`None`: no ransom allowed).
pub(super) fn ransom_cost(game: &Game, payer: usize, captor: usize) -> Result<Option<u32>> {
    let view = RansomView {
        payer,
        captor,
        score: game.players()[payer].score,
        paid_this_turn: if payer == game.current() {
            game.ransoms_paid()
        } else {
            0
        },
    };
    game.with_table(|t| game.rules().ransom(&view, t))
}

/// The cells (relative to it) tower `t` captures from, as its floors stand.
pub(super) fn range_cells(game: &Game, t: usize) -> Result<Vec<(i32, i32)>> {
    let mut cells = Vec::new();
    game.rules()
        .capture_range(&game.towers()[t].stack(), &mut cells)?;
    Ok(cells)
}

/// The cells of the meeples a floor just placed on tower `t` may take: the
/// kernel's one capture question.
pub(super) fn capturable_cells(game: &Game, t: usize) -> Result<Vec<(i32, i32)>> {
    let (mut range, mut found) = (Vec::new(), Vec::new());
    let tower = &game.towers()[t];
    game.with_table(|table| {
        capturable(
            game.rules(),
            &tower.view(),
            table,
            game.meeples(),
            |_, m| game.meeple_on(m.pos, m.spot),
            &mut range,
            &mut found,
        )
    })?;
    Ok(found
        .iter()
        .map(|&i| {
            let m = &game.meeples()[i as usize];
            (m.pos.x, m.pos.y)
        })
        .collect())
}

/// The cells of a range picture: `T` the tower in range, `t` the tower out
/// of it, `X` in range, `.`, `#` or a space out of it; north up.
fn picture_cells(src: &Source, at: &Spanned<Cells>, text: &str) -> Result<BTreeSet<(i32, i32)>> {
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut tower = None;
    let mut marked = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        if r > 2 * crate::play::query::MAX_SIDE {
            return Err(src.error_at(at.span(), "a range picture is at most 201 rows"));
        }
        if row.chars().count() > 2 * crate::play::query::MAX_SIDE + 1 {
            return Err(src.error_at(at.span(), "a range picture is at most 201 columns"));
        }
        for (c, ch) in row.chars().enumerate() {
            let (x, y) = (c as i32, -(r as i32));
            match ch {
                'T' | 't' => {
                    if tower.replace((x, y)).is_some() {
                        return Err(
                            src.error_at(at.span(), "a range picture has one tower (`T` or `t`)")
                        );
                    }
                    if ch == 'T' {
                        marked.push((x, y));
                    }
                }
                'X' => marked.push((x, y)),
                '.' | '#' | ' ' => {}
                other => {
                    return Err(src.error_at(
                        at.span(),
                        format!("`{other}` in a range picture: `T` the tower in range, `t` out of it, `X` in range, `.` or `#` out of it"),
                    ));
                }
            }
        }
    }
    let Some((tx, ty)) = tower else {
        return Err(src.error_at(
            at.span(),
            "a range picture marks the tower with `T` (in range) or `t` (not)",
        ));
    };
    Ok(marked.into_iter().map(|(x, y)| (x - tx, y - ty)).collect())
}

/// A picture of `cells` over the box of both `a` and `b` (and the tower).
fn picture(
    a: &BTreeSet<(i32, i32)>,
    b: &BTreeSet<(i32, i32)>,
    cells: &BTreeSet<(i32, i32)>,
) -> String {
    let all = a.iter().chain(b).chain(std::iter::once(&(0, 0)));
    let (mut x0, mut x1, mut y0, mut y1) = (0, 0, 0, 0);
    for &(x, y) in all {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    // A range too wide to draw is listed.
    let side = 2 * crate::play::query::MAX_SIDE as i64 + 1;
    if (x1 as i64 - x0 as i64) >= side || (y1 as i64 - y0 as i64) >= side {
        let list: Vec<(i32, i32)> = cells.iter().copied().collect();
        return cells_text(&list);
    }
    let mut out = Vec::new();
    for y in (y0..=y1).rev() {
        let row: String = (x0..=x1)
            .map(|x| match ((x, y) == (0, 0), cells.contains(&(x, y))) {
                (true, true) => 'T',
                (true, false) => 't',
                (false, true) => 'X',
                (false, false) => '.',
            })
            .collect();
        out.push(row);
    }
    format!("\n{}", out.join("\n"))
}

fn pos_text(at: &[i64; 2]) -> String {
    format!("[{}, {}]", at[0], at[1])
}

fn cells_text(cells: &[(i32, i32)]) -> String {
    let parts: Vec<String> = cells.iter().map(|(x, y)| format!("[{x}, {y}]")).collect();
    format!("[{}]", parts.join(", "))
}

fn list<T: ToString>(items: &[T]) -> String {
    let parts: Vec<String> = items.iter().map(T::to_string).collect();
    format!("[{}]", parts.join(", "))
}
