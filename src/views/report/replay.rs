//! The report's replay viewer: a tab per variant, a picker of that
//! variant's sample games (the run's first games, as many as the page was
//! given), the controls, and one viewer per game, its merged pictures with
//! its turns' events as JSON. The tile art of every game is held once, in
//! one hidden `<svg>` whose symbols the games' tiles `<use>`.

use maud::{Markup, PreEscaped, html};

use super::figures::variant_colour;
use super::sample::SampleGame;
use crate::views::render::book::{self, Symbol};

/// The games of each variant the viewer holds unless told otherwise: a
/// game adds about 150 KB to the page (its tile art is shared).
pub const VIEWER_GAMES: u64 = 5;

/// The replay section: `games[v]` are the sample games of variant `v`
/// (named `names[v]`), in order; variants without games get no tab.
pub(super) fn section(names: &[String], games: &[Vec<SampleGame>]) -> Markup {
    let shown: Vec<(usize, &String, &Vec<SampleGame>)> = names
        .iter()
        .zip(games)
        .enumerate()
        .filter(|(_, (_, g))| !g.is_empty())
        .map(|(v, (n, g))| (v, n, g))
        .collect();
    let Some(&(first, _, _)) = shown.first() else {
        return html! {};
    };
    let mut viewers = Vec::new();
    for &(v, name, samples) in &shown {
        for sample in samples {
            viewers.push(viewer(viewers.len(), v, name, sample));
        }
    }
    html! {
        section id="replay" {
            h2 { "Replay" }
            (about(&shown))
            (tile_art(games))
            div class="tabs" role="tablist" {
                @for &(v, name, _) in &shown {
                    button type="button" class="tab" role="tab" data-variant=(v) aria-selected=(v == first) {
                        span class="swatch" style=(format!("background:{}", variant_colour(v))) {}
                        (name)
                    }
                }
            }
            (controls(&shown, first))
            @for v in viewers { (v) }
        }
    }
}

/// What the viewer shows, how to step it, and how to see any other game.
fn about(shown: &[(usize, &String, &Vec<SampleGame>)]) -> Markup {
    let most = shown.iter().map(|(_, _, g)| g.len()).max().unwrap_or(0);
    html! {
        p class="note" {
            @if most == 1 {
                "The run's first game in each variant"
            } @else {
                "The run's first " (most) " games in each variant (pick one under "
                b { "game" } ")"
            }
            ", played again on their seeds with the same bots (the same games as in the table). Step with the buttons, the slider or the ← → keys (Home, End: first and last turn). On a capture's turn the capturing tower's range is hatched and the taken meeple is crossed out where it stood."
        }
        p class="note" {
            "Any other game of the run: draw it with "
            code { "towerlab render --log FILE --game G --variant NAME [--turn T]" }
            ", FILE written by the same "
            code { "towerlab compare … --log FILE" }
            "; or put more games here with "
            code { "--viewer-games N" }
            "."
        }
    }
}

/// Every game's tile art, each symbol once, for the viewers' `<use>`s.
fn tile_art(games: &[Vec<SampleGame>]) -> Markup {
    let mut symbols: Vec<&Symbol> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    for s in games.iter().flatten().flat_map(|g| &g.symbols) {
        if seen.insert(s.id.as_str()) {
            symbols.push(s);
        }
    }
    html! {
        svg class="tile-art" xmlns="http://www.w3.org/2000/svg" width="0" height="0" aria-hidden="true" {
            defs { (book::defs(symbols)) }
        }
    }
}

/// The viewer's buttons, slider, options and each variant's game picker
/// (only the shown variant's is visible).
fn controls(shown: &[(usize, &String, &Vec<SampleGame>)], first: usize) -> Markup {
    html! {
        div class="controls" {
            @for &(v, name, games) in shown {
                label class="game" data-variant=(v) hidden[v != first] {
                    "game "
                    select class="game-picker" data-variant=(v) aria-label=(format!("{name}: game")) {
                        @for g in games.iter() {
                            option value=(g.game) { (g.game) }
                        }
                    }
                }
            }
            button type="button" data-step="first" title="first turn (Home)" { "« start" }
            button type="button" data-step="prev-capture" title="previous capture" { "◀ capture" }
            button type="button" data-step="prev" title="previous turn (←)" { "◀ back" }
            input type="range" class="slider" min="0" max="0" value="0" aria-label="turn";
            button type="button" data-step="next" title="next turn (→)" { "next ▶" }
            button type="button" data-step="next-capture" title="next capture" { "capture ▶" }
            button type="button" data-step="last" title="last turn (End)" { "end »" }
            span class="position" aria-live="polite" {}
            label class="zoom" { input type="checkbox" class="full-size"; " full size" }
        }
    }
}

/// Viewer `i`: one game of variant `v`, what it was, the turn's events,
/// the merged pictures and the frames as JSON for the script.
fn viewer(i: usize, v: usize, name: &str, sample: &SampleGame) -> Markup {
    let captures = sample.frames.iter().filter(|f| f.capture).count();
    // `<` escaped so that no `</script>` can end the JSON early.
    let frames = serde_json::to_string(&sample.frames)
        .unwrap_or_else(|_| "[]".into())
        .replace('<', "\\u003c");
    let svg = sample
        .svg
        .replace("range-hatch", &format!("range-hatch-{i}"));
    let scores = sample
        .scores
        .iter()
        .enumerate()
        .map(|(p, s)| format!("player {} {s}", p + 1))
        .collect::<Vec<_>>()
        .join(", ");
    html! {
        div class="viewer" data-viewer=(i) data-variant=(v) data-game=(sample.game) hidden[i != 0] {
            p class="about" {
                (name) ": game " (sample.game) " (seed " (sample.seed) "), "
                (sample.frames.len().saturating_sub(2)) " turns, " (captures) " capture"
                @if captures != 1 { "s" }
                "; final scores " (scores) "."
            }
            div class="turn" { h3 class="label" {} ul class="events" {} }
            div class="board" { "\n" (PreEscaped(svg)) }
            script type="application/json" class="frames" { (PreEscaped(frames)) }
        }
    }
}
