//! The colours and shapes pictures share.

pub(super) const FIELD: &str = "#9cc46a";
pub(super) const FIELD_EDGE: &str = "#6c8f45";
pub(super) const CITY: &str = "#d8a657";
pub(super) const CITY_WALL: &str = "#7a5426";
pub(super) const ROAD: &str = "#f7f1e1";
pub(super) const ROAD_EDGE: &str = "#5e5a52";
pub(super) const PLAIN: &str = "#c9d7b4";
pub(super) const TABLE: &str = "#f3efe6";
pub(super) const INK: &str = "#2b2b2b";
/// A rule's neutral figures, and a blocked tower's barrier.
pub(super) const FIGURE: &str = "#6b6b7b";
pub(super) const BLOCKED: &str = "#b3261e";
/// What marks a capture — a tower's range, a meeple taken — is in ink,
/// which no seat's colour is near (the browser game marks them so too).
pub(super) const CAPTURE: &str = "#1d1d1d";
pub(super) const RANGE_EDGE: &str = CAPTURE;
/// The dots of a cell a tower reaches where the rules let it take nothing.
pub(super) const REACH_DOTS: &str = "1 6";
pub(super) const TAKEN: &str = CAPTURE;
/// A pennant: a dark brown shield, no seat's colour.
pub(super) const PENNANT: &str = "#4a2a12";
/// Space around the board, for the coordinates.
pub(super) const MARGIN: f64 = 30.0;
pub(super) const PANEL_WIDTH: f64 = 270.0;
pub(super) const MEEPLE_PATH: &str = "M0 -8C2.6 -8 4 -6.2 4 -4.2C4 -3 3.5 -2.2 2.8 -1.6L7.8 .2C9.2 .7 9.4 2.8 8 3.2L4.2 3.8L7.2 10H2L0 6.4L-2 10H-7.2L-4.2 3.8L-8 3.2C-9.4 2.8 -9.2 .7 -7.8 .2L-2.8 -1.6C-3.5 -2.2 -4 -3 -4 -4.2C-4 -6.2 -2.6 -8 0 -8Z";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::scene::PLAYER_COLOURS;

    /// A colour's red, green and blue.
    fn rgb(hex: &str) -> [f64; 3] {
        let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
        [
            (v >> 16) as f64,
            ((v >> 8) & 0xff) as f64,
            (v & 0xff) as f64,
        ]
    }

    /// How far two colours are apart: the distance of their red, green and
    /// blue, weighted as the eye weighs them ("redmean").
    fn apart(a: &str, b: &str) -> f64 {
        let ([r1, g1, b1], [r2, g2, b2]) = (rgb(a), rgb(b));
        let r = (r1 + r2) / 2.0;
        let (dr, dg, db) = (r1 - r2, g1 - g2, b1 - b2);
        ((2.0 + r / 256.0) * dr * dr + 4.0 * dg * dg + (2.0 + (255.0 - r) / 256.0) * db * db).sqrt()
    }

    /// Marks that are no seat's — a capture's, a pennant — are in colours
    /// far from every seat's, so that none is read as a seat's.
    #[test]
    fn marks_are_in_no_seats_colour() {
        for mark in [CAPTURE, PENNANT] {
            for seat in PLAYER_COLOURS {
                let d = apart(mark, seat);
                assert!(d > 200.0, "{mark} is {d:.0} from the seat colour {seat}");
            }
        }
        // The marks' old colours were near seats' (a blue pennant, a
        // crimson and a magenta beside seat 1's red).
        assert!(apart("#2a58b8", PLAYER_COLOURS[1]) < 200.0);
        assert!(apart("#b00020", PLAYER_COLOURS[0]) < 200.0);
        assert!(apart("#d4007a", PLAYER_COLOURS[0]) < 200.0);
    }
}
