//! The numbers a scenario writes, each read as the type it is used as and
//! checked in range where it is written (`file:line:col`): a count, a seat,
//! a cell, a rotation. Nothing is cast round: `[4294967297, 0]` is a cell
//! far off the board, never `[1, 0]`.

use std::ops::Range;

use anyhow::Result;
use toml::Spanned;

use super::file::At;
use crate::kernel::diag::Source;
use crate::kernel::geometry::Pos;
use crate::play::query::MAX_SIDE;

/// A whole number of a file within `lo..=hi`, as the type it is used as
/// (which holds every number of the range).
pub fn number<T: TryFrom<i64>>(
    src: &Source,
    v: &Spanned<i64>,
    lo: i64,
    hi: i64,
    what: &str,
) -> Result<T> {
    let n = *v.get_ref();
    match T::try_from(n) {
        Ok(t) if (lo..=hi).contains(&n) => Ok(t),
        _ => Err(src.error_at(v.span(), format!("{what} must be {lo} to {hi}, not {n}"))),
    }
}

/// A seat of the game.
pub fn seat(src: &Source, v: &Spanned<i64>, players: usize) -> Result<usize> {
    let n = *v.get_ref();
    match usize::try_from(n) {
        Ok(s) if s < players => Ok(s),
        _ => Err(src.error_at(
            v.span(),
            format!("seat {n}: the game has seats 0 to {}", players - 1),
        )),
    }
}

/// A cell within [`MAX_SIDE`] of the origin.
pub fn cell(src: &Source, at: &At) -> Result<Pos> {
    let (x, y) = within_side(src, at.span(), *at.get_ref(), "[0, 0]")?;
    Ok(Pos::new(x, y))
}

/// `[x, y]` as a cell within [`MAX_SIDE`] of `from` (words for the cell
/// the numbers count from): each number checked as it is written, so no
/// number wraps round to a cell in range.
pub fn within_side(
    src: &Source,
    span: Range<usize>,
    [x, y]: [i64; 2],
    from: &str,
) -> Result<(i32, i32)> {
    let side = MAX_SIDE as i64;
    let near = |v: i64| (-side..=side).contains(&v);
    if !(near(x) && near(y)) {
        return Err(src.error_at(
            span,
            format!("cell [{x}, {y}] is more than {side} cells from {from}"),
        ));
    }
    // Within ±MAX_SIDE, so within i32.
    Ok((x as i32, y as i32))
}

/// Degrees clockwise as quarter turns.
pub fn rotation(src: &Source, rot: &Spanned<i64>) -> Result<u8> {
    match rot.get_ref() {
        0 => Ok(0),
        90 => Ok(1),
        180 => Ok(2),
        270 => Ok(3),
        r => Err(src.error_at(
            rot.span(),
            format!("a rotation is 0, 90, 180 or 270 (degrees clockwise), not {r}"),
        )),
    }
}
