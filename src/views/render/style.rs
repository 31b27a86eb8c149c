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
pub(super) const RANGE_EDGE: &str = "#d4007a";
pub(super) const TAKEN: &str = "#b00020";
/// Space around the board, for the coordinates.
pub(super) const MARGIN: f64 = 30.0;
pub(super) const PANEL_WIDTH: f64 = 270.0;
pub(super) const MEEPLE_PATH: &str = "M0 -8C2.6 -8 4 -6.2 4 -4.2C4 -3 3.5 -2.2 2.8 -1.6L7.8 .2C9.2 .7 9.4 2.8 8 3.2L4.2 3.8L7.2 10H2L0 6.4L-2 10H-7.2L-4.2 3.8L-8 3.2C-9.4 2.8 -9.2 .7 -7.8 .2L-2.8 -1.6C-3.5 -2.2 -4 -3 -4 -4.2C-4 -6.2 -2.6 -8 0 -8Z";
