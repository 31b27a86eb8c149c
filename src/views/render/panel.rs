//! The side panel: heading, captions, the players' scores, supplies and
//! prisoners, and the legend, laid out downwards; each line one [`Piece`]
//! of the panel's group.

use maud::html;

use crate::views::scene::{Palette, ScenePlayer};

use super::drawing::{Group, Piece, text};
use super::lines;
use super::style::{
    CITY, CITY_WALL, FIELD, FIELD_EDGE, INK, MARGIN, MEEPLE_PATH, PANEL_WIDTH, PENNANT, PLAIN,
    RANGE_EDGE, REACH_DOTS, ROAD, ROAD_EDGE, TAKEN,
};
use super::tile::draw::{PENNANT_PATH, draw_cloister};
use super::tile::num;

/// The marks over a board that its legend explains.
#[derive(Clone, Copy)]
pub(super) struct Marks {
    /// A tower's range is marked.
    pub range: bool,
    /// Some cells of it are dotted: reached, and the rules let it take
    /// nothing there.
    pub spared: bool,
}

/// How wide the panel's text may run: the panel, less a margin.
const TEXT_WIDTH: f64 = PANEL_WIDTH - 12.0;

/// The side panel: text lines, players and the legend, laid out downwards.
pub(super) struct Panel {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) group: Group,
}

/// Text in a size (none: the panel's), bold or not.
fn styled_text(x: f64, y: f64, size: Option<&'static str>, bold: bool, content: String) -> Piece {
    let (x, y) = (num(x), num(y));
    let weight = bold.then_some("bold");
    Piece::new(move |t| {
        html! { text data-t=[t] x=(x) y=(y) font-size=[size] font-weight=[weight] { (content) } }
    })
}

/// A meeple in `colour` at `x`, `y`, scaled; marked `shown` when given.
fn meeple_icon(shown: Option<&str>, x: f64, y: f64, colour: &str, scale: f64) -> maud::Markup {
    html! {
        path data-t=[shown] class="icon" d=(MEEPLE_PATH) transform=(format!("translate({},{}) scale({})", num(x), num(y), num(scale)))
            fill=(colour) stroke=(INK) stroke-width="1.2" stroke-linejoin="round" {}
    }
}

/// A square of colour for the legend.
fn swatch(
    x: f64,
    y: f64,
    fill: &str,
    stroke: &str,
    class: Option<&'static str>,
    width: &'static str,
) -> Piece {
    let (x, y, fill, stroke) = (num(x), num(y), fill.to_string(), stroke.to_string());
    Piece::new(move |t| {
        html! {
            rect data-t=[t] class=[class] x=(x) y=(y) width="12" height="12" fill=(fill) stroke=(stroke) stroke-width=(width) {}
        }
    })
}

impl Panel {
    pub(super) fn new(x: f64) -> Panel {
        Panel {
            x,
            y: MARGIN,
            group: Group::new(|t, children| {
                html! { g data-t=[t] class="panel" font-size="12" fill="#2b2b2b" { (children) } }
            }),
        }
    }

    fn push(&mut self, piece: Piece) {
        self.group.push(piece);
    }

    /// The panel's heading, wrapped to its width.
    pub(super) fn heading(&mut self, text: &str) {
        self.y += 6.0;
        for part in lines::wrap(text, TEXT_WIDTH, 16.0, true) {
            self.push(styled_text(self.x, self.y, Some("16"), true, part));
            self.y += 20.0;
        }
    }

    fn subheading(&mut self, text: &str) {
        self.y += 10.0;
        self.push(styled_text(
            self.x,
            self.y,
            Some("13"),
            true,
            text.to_string(),
        ));
        self.y += 16.0;
    }

    /// A line of text, wrapped to the panel's width.
    pub(super) fn line(&mut self, content: &str) {
        for part in lines::wrap(content, TEXT_WIDTH, 12.0, false) {
            self.push(text(self.x, self.y, part));
            self.y += 16.0;
        }
    }

    fn icon(&mut self, x: f64, y: f64, colour: &str, scale: f64) {
        let colour = colour.to_string();
        self.push(Piece::new(move |t| meeple_icon(t, x, y, &colour, scale)));
    }

    fn text_at(&mut self, x: f64, content: &str) {
        self.push(text(x, self.y, content.to_string()));
    }

    /// Each player: colour, score, supplies and the prisoners they hold.
    pub(super) fn players(&mut self, players: &[ScenePlayer], palette: &Palette) {
        self.subheading("Players");
        for (p, player) in players.iter().enumerate() {
            let y = self.y;
            self.icon(self.x + 9.0, y + 2.0, palette.player(p), 1.0);
            let (sx, sy, score) = (num(self.x + 24.0), num(y + 2.0), player.score);
            let name = capitalised(&player.name);
            self.push(Piece::new(move |t| {
                html! {
                    text data-t=[t] class="score" data-player=(p) x=(sx) y=(sy) font-size="13" {
                        tspan font-weight="bold" { (name) } ": " (score) " points"
                    }
                }
            }));
            let mut y2 = y + 18.0;
            let supply = supply_line(player, palette);
            for part in lines::wrap(&supply, TEXT_WIDTH - 24.0, 11.0, false) {
                self.push(styled_text(self.x + 24.0, y2, Some("11"), false, part));
                y2 += 14.0;
            }
            if !player.prisoners.is_empty() {
                y2 = self.prisoners(p, player, palette, y2);
            }
            self.y = y2 + 8.0;
        }
    }

    /// The prisoners seat `p` holds, from line `y` on; the line after them.
    fn prisoners(&mut self, p: usize, player: &ScenePlayer, palette: &Palette, mut y: f64) -> f64 {
        self.push(styled_text(
            self.x + 24.0,
            y,
            Some("11"),
            false,
            "holds prisoners:".into(),
        ));
        let mut x = self.x + 128.0;
        for &(o, c) in &player.prisoners {
            if x + 50.0 > self.x + PANEL_WIDTH - 8.0 {
                x = self.x + 128.0;
                y += 16.0;
            }
            let icon = meeple_icon(None, x, y - 4.0, palette.player(o), 0.7);
            let (tx, ty) = (num(x + 8.0), num(y));
            self.push(Piece::new(move |t| {
                html! {
                    g data-t=[t] class="prisoners" data-captor=(p) data-owner=(o) data-count=(c) {
                        (icon) text x=(tx) y=(ty) font-size="11" { "×" (c) " (P" (o + 1) ")" }
                    }
                }
            }));
            x += 52.0;
        }
        y + 14.0
    }

    /// Floor kinds, features and marks.
    pub(super) fn legend(&mut self, palette: &Palette, marks: Marks, features: bool) {
        if !palette.floors.is_empty() {
            self.subheading("Floors");
            for d in &palette.floors {
                self.push(swatch(
                    self.x,
                    self.y - 10.0,
                    &d.colour,
                    INK,
                    Some("swatch"),
                    "1",
                ));
                self.text_at(self.x + 18.0, &d.name);
                self.y += 16.0;
            }
            self.line("a tower: its floors bottom to top, the count beside");
        }
        self.subheading("Board");
        if features {
            self.feature_legend();
        } else {
            self.push(swatch(
                self.x,
                self.y - 10.0,
                PLAIN,
                FIELD_EDGE,
                Some("swatch"),
                "1",
            ));
            self.text_at(self.x + 18.0, "a tile");
            self.y += 16.0;
        }
        self.push(swatch(
            self.x,
            self.y - 10.0,
            "#a7a29a",
            "#4b4741",
            None,
            "1.5",
        ));
        self.text_at(self.x + 18.0, "tower foundation");
        self.y += 16.0;
        if marks.range {
            self.push(swatch(
                self.x,
                self.y - 10.0,
                "url(#range-hatch)",
                RANGE_EDGE,
                None,
                "2",
            ));
            self.text_at(self.x + 18.0, "in range (dashed: the tower's tile)");
            self.y += 16.0;
        }
        if marks.spared {
            let (x, y) = (num(self.x), num(self.y - 10.0));
            self.push(Piece::new(move |t| {
                html! {
                    rect data-t=[t] x=(x) y=(y) width="12" height="12" fill="none" stroke=(RANGE_EDGE)
                        stroke-width="2" stroke-dasharray=(REACH_DOTS) stroke-linecap="round" {}
                }
            }));
            self.text_at(self.x + 18.0, "reached, but the rules let it take nothing");
            self.y += 16.0;
        }
        self.line("x grows east, y north");
    }

    /// What tiles show: cities, roads, fields, cloisters, pennants, meeples.
    fn feature_legend(&mut self) {
        for (fill, stroke, name) in [
            (CITY, CITY_WALL, "city"),
            (ROAD, ROAD_EDGE, "road"),
            (FIELD, FIELD_EDGE, "field"),
        ] {
            self.push(swatch(
                self.x,
                self.y - 10.0,
                fill,
                stroke,
                Some("swatch"),
                "1",
            ));
            self.text_at(self.x + 18.0, name);
            self.y += 16.0;
        }
        let at = format!(
            "translate({},{}) scale(0.7)",
            num(self.x + 6.0),
            num(self.y - 5.0)
        );
        self.push(Piece::new(move |t| {
            html! { g data-t=[t] transform=(at) { (draw_cloister()) } }
        }));
        self.text_at(self.x + 18.0, "cloister");
        self.y += 16.0;
        let at = format!(
            "translate({},{}) scale(0.8)",
            num(self.x + 6.0),
            num(self.y - 4.0)
        );
        self.push(Piece::new(move |t| {
            html! {
                path data-t=[t] d=(PENNANT_PATH) transform=(at) fill=(PENNANT) stroke="#fff" stroke-width="1.2" {}
            }
        }));
        self.text_at(self.x + 18.0, "pennant");
        self.y += 16.0;
        self.icon(self.x + 6.0, self.y - 4.0, "#ffffff", 0.7);
        self.text_at(self.x + 18.0, "meeple (lying: a farmer in a field)");
        self.y += 16.0;
    }

    /// The mark of a meeple taken by a capture.
    pub(super) fn taken_legend(&mut self) {
        let (x, y) = (num(self.x + 6.0), num(self.y - 4.0));
        let at = format!("translate({x},{y})");
        self.push(Piece::new(move |t| {
            html! { circle data-t=[t] cx=(x) cy=(y) r="6" fill="#fff" stroke=(TAKEN) stroke-width="2" {} }
        }));
        self.push(Piece::new(move |t| {
            html! { path data-t=[t] d="M-4 -4L4 4M4 -4L-4 4" transform=(at) stroke=(TAKEN) stroke-width="2" {} }
        }));
        self.text_at(self.x + 18.0, "meeple taken by a capture");
        self.y += 16.0;
    }
}

/// A seat's supply in words: meeples, and floors of each kind.
fn supply_line(player: &ScenePlayer, palette: &Palette) -> String {
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
    line
}

/// `name` with a capital first letter (`player 1` heads its line as
/// `Player 1`).
fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}
