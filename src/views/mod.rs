//! Layer 4, views: board pictures (SVG) and the HTML report of a comparison.

pub mod render;
pub mod report;
