//! The rule packs against the rules they implement (docs/rules.md T, B, H): the
//! scripted `tower` pack against the native reference rules, each rule's
//! examples through the library and through `towerlab range`, and the
//! captures of played Black Tower games against the range the variant gives.
//!
//! Every expected cell set below is worked out by hand from docs/rules.md; the
//! board pictures carry north up, `T` the tower's tile, `#` a tile, `.` none.

mod black_tower;
mod examples;
mod games;
mod guide_example;
mod house_rules;
mod range_command;
mod tower_rules;

use std::cell::Cell as Counter;
use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use towerlab::kernel::diag::Source;
use towerlab::kernel::{
    Asking, Bot, CaptureChoice, Decision, Event, FloorKind, Game, Rules, StackView, Stats,
    play_game,
};
use towerlab::play::bots::RandomBot;
use towerlab::play::query::{self, BoardMap};
use towerlab::play::seed::game_seed;
use towerlab::rules::{LoadOptions, Ruleset};

use crate::common::{home, towerlab};

/// An offset from the tower's tile: (dx east, dy north).
type Cell = (i32, i32);

// ---- the rules and their questions ------------------------------------------

/// Where a case's rules come from: a shipped variant or a pack list.
#[derive(Clone, Copy, Debug)]
enum Take {
    Variant(&'static str),
    Packs(&'static [&'static str]),
}

impl Take {
    fn load(self) -> Ruleset {
        let loaded = match self {
            Take::Variant(v) => Ruleset::from_variant(&home(), &LoadOptions::default(), v),
            Take::Packs(p) => {
                let packs: Vec<String> = p.iter().map(|s| s.to_string()).collect();
                Ruleset::from_packs(&home(), &LoadOptions::default(), &packs)
            }
        };
        loaded.unwrap_or_else(|e| panic!("{self:?} loads: {e:#}"))
    }

    /// The command-line flags that select these rules.
    fn flags(self) -> Vec<String> {
        match self {
            Take::Variant(v) => vec!["--variant".into(), v.into()],
            Take::Packs(p) => vec!["--packs".into(), p.join(",")],
        }
    }
}

/// The floor stack `names` (bottom to top) as floor kinds of `set`.
fn stack(set: &Ruleset, names: &[&str]) -> Vec<FloorKind> {
    names
        .iter()
        .map(|n| set.floor_kind(n).unwrap_or_else(|e| panic!("{e:#}")))
        .collect()
}

/// A tower of `floors`, with no meeple on top.
fn view(floors: &[FloorKind]) -> StackView<'_> {
    StackView {
        floors,
        topped: false,
    }
}

/// May seat 0 of two put a floor of `kind` on `stack`, outside a game?
fn may_place(rules: &dyn Rules, stack: &StackView, kind: FloorKind) -> bool {
    Asking::outside_game(2, |asking| rules.may_place_floor(stack, kind, asking))
        .unwrap()
        .yes
}

/// May seat 0 of two put a meeple on top of `stack`, outside a game?
fn may_top(rules: &dyn Rules, stack: &StackView) -> bool {
    Asking::outside_game(2, |asking| rules.may_top(stack, asking))
        .unwrap()
        .yes
}

fn board_map(text: &str) -> BoardMap {
    BoardMap::parse(&Source::new("board", text)).unwrap_or_else(|e| panic!("{e:#}"))
}

fn sorted(cells: impl IntoIterator<Item = Cell>) -> Vec<Cell> {
    let mut v: Vec<Cell> = cells.into_iter().collect();
    v.sort_unstable();
    v
}

/// What `query::capture_cells` (the library behind `towerlab range`) says,
/// sorted.
fn library_cells(set: &Ruleset, floors: &[&str], board: Option<&str>) -> Vec<Cell> {
    let rules = set.rules();
    let map = board.map(board_map);
    let cells = query::capture_cells(
        rules.as_ref(),
        set.tiles(),
        &stack(set, floors),
        map.as_ref(),
    )
    .unwrap_or_else(|e| panic!("{} with {floors:?}: {e:#}", set.name()));
    sorted(cells)
}

#[allow(unused_imports)]
use black_tower::*;
#[allow(unused_imports)]
use examples::*;
#[allow(unused_imports)]
use games::*;
#[allow(unused_imports)]
use guide_example::*;
#[allow(unused_imports)]
use house_rules::*;
#[allow(unused_imports)]
use range_command::*;
#[allow(unused_imports)]
use tower_rules::*;
