//! The side panel: heading, captions, the players' scores, supplies and
//! prisoners, and the legend, laid out downwards.

use std::fmt::Write;

use crate::kernel::scene::{Palette, ScenePlayer};

use super::escape;
use super::style::{
    CITY, CITY_WALL, FIELD, FIELD_EDGE, INK, MARGIN, MEEPLE_PATH, PANEL_WIDTH, PLAIN, RANGE_EDGE,
    ROAD, ROAD_EDGE, TAKEN,
};
use super::tile::draw::draw_cloister;
use super::tile::num;

/// The side panel: text lines, players and the legend, laid out downwards.
pub(super) struct Panel {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) out: String,
}

impl Panel {
    pub(super) fn new(x: f64) -> Panel {
        Panel {
            x,
            y: MARGIN,
            out: String::from("<g class=\"panel\" font-size=\"12\" fill=\"#2b2b2b\">\n"),
        }
    }

    pub(super) fn heading(&mut self, text: &str) {
        self.y += 6.0;
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"16\" font-weight=\"bold\">{}</text>",
            num(self.x),
            num(self.y),
            escape(text)
        );
        self.y += 20.0;
    }

    pub(super) fn subheading(&mut self, text: &str) {
        self.y += 10.0;
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">{}</text>",
            num(self.x),
            num(self.y),
            escape(text)
        );
        self.y += 16.0;
    }

    /// A line of text, wrapped to the panel's width.
    pub(super) fn line(&mut self, text: &str) {
        for part in wrap(text, 36) {
            let _ = writeln!(
                self.out,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                num(self.x),
                num(self.y),
                escape(&part)
            );
            self.y += 16.0;
        }
    }

    pub(super) fn meeple_icon(&mut self, x: f64, y: f64, colour: &str, scale: f64) {
        let _ = writeln!(
            self.out,
            "<path class=\"icon\" d=\"{MEEPLE_PATH}\" transform=\"translate({},{}) scale({})\" fill=\"{colour}\" stroke=\"{INK}\" stroke-width=\"1.2\" stroke-linejoin=\"round\"/>",
            num(x),
            num(y),
            num(scale)
        );
    }

    pub(super) fn swatch(&mut self, x: f64, y: f64, fill: &str, stroke: &str) {
        let _ = writeln!(
            self.out,
            "<rect class=\"swatch\" x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1\"/>",
            num(x),
            num(y),
            escape(fill),
            escape(stroke)
        );
    }

    /// Each player: colour, score, supplies and the prisoners they hold.
    pub(super) fn players(&mut self, players: &[ScenePlayer], palette: &Palette) {
        self.subheading("Players");
        for (p, player) in players.iter().enumerate() {
            let colour = palette.player(p).to_string();
            let y = self.y;
            self.meeple_icon(self.x + 9.0, y + 2.0, &colour, 1.0);
            let _ = writeln!(
                self.out,
                "<text class=\"score\" data-player=\"{p}\" x=\"{}\" y=\"{}\" font-size=\"13\"><tspan font-weight=\"bold\">Player {}</tspan>: {} points</text>",
                num(self.x + 24.0),
                num(y + 2.0),
                p + 1,
                player.score
            );
            let mut line = format!(
                "supply: {} meeple{}",
                player.meeples,
                if player.meeples == 1 { "" } else { "s" }
            );
            if !palette.floors.is_empty() {
                let floors: Vec<String> = palette
                    .floors
                    .iter()
                    .zip(&player.floors)
                    .map(|(d, c)| format!("{c} {}", d.name))
                    .collect();
                line += &format!(", floors {}", floors.join(", "));
            }
            let mut y2 = y + 18.0;
            for part in wrap(&line, 36) {
                let _ = writeln!(
                    self.out,
                    "<text x=\"{}\" y=\"{}\" font-size=\"11\">{}</text>",
                    num(self.x + 24.0),
                    num(y2),
                    escape(&part)
                );
                y2 += 14.0;
            }
            let held = &player.prisoners;
            if !held.is_empty() {
                let _ = writeln!(
                    self.out,
                    "<text x=\"{}\" y=\"{}\" font-size=\"11\">holds prisoners:</text>",
                    num(self.x + 24.0),
                    num(y2)
                );
                let mut x = self.x + 128.0;
                for &(o, c) in held {
                    if x + 50.0 > self.x + PANEL_WIDTH - 8.0 {
                        x = self.x + 128.0;
                        y2 += 16.0;
                    }
                    let _ = writeln!(
                        self.out,
                        "<g class=\"prisoners\" data-captor=\"{p}\" data-owner=\"{o}\" data-count=\"{c}\">"
                    );
                    let colour = palette.player(o).to_string();
                    self.meeple_icon(x, y2 - 4.0, &colour, 0.7);
                    let _ = writeln!(
                        self.out,
                        "<text x=\"{}\" y=\"{}\" font-size=\"11\">×{c} (P{})</text></g>",
                        num(x + 8.0),
                        num(y2),
                        o + 1
                    );
                    x += 52.0;
                }
                y2 += 14.0;
            }
            self.y = y2 + 8.0;
        }
    }

    /// Floor kinds, features and marks.
    pub(super) fn legend(&mut self, palette: &Palette, range: bool, features: bool) {
        if !palette.floors.is_empty() {
            self.subheading("Floors");
            for d in &palette.floors {
                self.swatch(self.x, self.y - 10.0, &d.colour, INK);
                self.text_at(self.x + 18.0, &d.name);
                self.y += 16.0;
            }
            self.line("a tower: its floors bottom to top, the count beside");
        }
        self.subheading("Board");
        if features {
            for (fill, stroke, name) in [
                (CITY, CITY_WALL, "city"),
                (ROAD, ROAD_EDGE, "road"),
                (FIELD, FIELD_EDGE, "field"),
            ] {
                self.swatch(self.x, self.y - 10.0, fill, stroke);
                self.text_at(self.x + 18.0, name);
                self.y += 16.0;
            }
            let (x, y) = (self.x, self.y);
            let _ = writeln!(
                self.out,
                "<g transform=\"translate({},{}) scale(0.7)\">",
                num(x + 6.0),
                num(y - 5.0)
            );
            draw_cloister(&mut self.out);
            self.out.push_str("</g>\n");
            self.text_at(self.x + 18.0, "cloister");
            self.y += 16.0;
            let _ = writeln!(
                self.out,
                "<path d=\"M-5 -6H5V-1C5 3 2.5 5 0 6.5C-2.5 5 -5 3 -5 -1Z\" transform=\"translate({},{}) scale(0.8)\" fill=\"#2a58b8\" stroke=\"#fff\" stroke-width=\"1.2\"/>",
                num(self.x + 6.0),
                num(self.y - 4.0)
            );
            self.text_at(self.x + 18.0, "pennant");
            self.y += 16.0;
            self.meeple_icon(self.x + 6.0, self.y - 4.0, "#ffffff", 0.7);
            self.text_at(self.x + 18.0, "meeple (lying: a farmer in a field)");
            self.y += 16.0;
        } else {
            self.swatch(self.x, self.y - 10.0, PLAIN, FIELD_EDGE);
            self.text_at(self.x + 18.0, "a tile");
            self.y += 16.0;
        }
        let _ = writeln!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"#a7a29a\" stroke=\"#4b4741\" stroke-width=\"1.5\"/>",
            num(self.x),
            num(self.y - 10.0)
        );
        self.text_at(self.x + 18.0, "tower foundation");
        self.y += 16.0;
        if range {
            let _ = writeln!(
                self.out,
                "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"url(#range-hatch)\" stroke=\"{RANGE_EDGE}\" stroke-width=\"2\"/>",
                num(self.x),
                num(self.y - 10.0)
            );
            self.text_at(self.x + 18.0, "in range (dashed: the tower's tile)");
            self.y += 16.0;
        }
        self.line("x grows east, y north");
    }

    /// The mark of a meeple taken by a capture.
    pub(super) fn taken_legend(&mut self) {
        let (x, y) = (self.x + 6.0, self.y - 4.0);
        let _ = writeln!(
            self.out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"#fff\" stroke=\"{TAKEN}\" stroke-width=\"2\"/><path d=\"M-4 -4L4 4M4 -4L-4 4\" transform=\"translate({},{})\" stroke=\"{TAKEN}\" stroke-width=\"2\"/>",
            num(x),
            num(y),
            num(x),
            num(y)
        );
        self.text_at(self.x + 18.0, "meeple taken by a capture");
        self.y += 16.0;
    }

    pub(super) fn text_at(&mut self, x: f64, text: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            num(x),
            num(self.y),
            escape(text)
        );
    }
}

/// Split `text` into lines of at most about `width` characters, at spaces.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}
