//! Layer 4, views: what a picture shows (`scene`: the scenes of a game or a
//! board file, colours and captions), board pictures (SVG) and the HTML
//! report of a comparison.

pub mod render;
pub mod report;
pub mod scene;
