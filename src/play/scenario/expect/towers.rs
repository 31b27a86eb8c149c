//! Expectations on towers: the cells a tower's range covers (as a list or
//! a picture), the meeples a floor may capture, the seats that may build
//! on a tower or top it.

use std::collections::BTreeSet;

use anyhow::{Context, Result};
use toml::Spanned;

use super::super::checked::{seat, within_side};
use super::super::file::{Cells, RawCapturable, RawMay, RawRange};
use super::super::position::floor_kind;
use super::asking::{capturable_cells, range_cells};
use super::checker::{Checker, asked, cells_text, list, pos_text};
use crate::kernel::diag::Source;

impl Checker<'_, '_> {
    pub(super) fn range(&mut self, r: &Spanned<RawRange>) -> Result<()> {
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
    pub(super) fn may(&mut self, may: &Spanned<RawMay>, floor: bool) -> Result<()> {
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

    /// The meeples a floor just placed on a tower may capture.
    pub(super) fn capturable(&mut self, cap: &Spanned<RawCapturable>) -> Result<()> {
        let tower = self.tower(&cap.get_ref().tower)?;
        let mut got =
            capturable_cells(self.game, tower).with_context(|| asked(self.src, cap.span()))?;
        got.sort_unstable();
        let mut want: Vec<(i32, i32)> = cap
            .get_ref()
            .meeples
            .get_ref()
            .iter()
            .map(|at| within_side(self.src, at.span(), *at.get_ref(), "[0, 0]"))
            .collect::<Result<_>>()?;
        want.sort_unstable();
        let at = pos_text(cap.get_ref().tower.get_ref());
        self.compare(
            cap.span(),
            format!("meeples a floor on the tower at {at} may capture"),
            cells_text(&want),
            cells_text(&got),
        );
        Ok(())
    }
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
