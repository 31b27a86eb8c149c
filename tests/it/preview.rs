//! Placement previews (kernel::preview) checked against placing the tile on
//! a clone of the game, over every placement of several random games.

use towerlab::kernel::geometry::Pos;
use towerlab::kernel::tiles::{SegmentKind, TileSet};
use towerlab::kernel::{Bot, Buffers, FeatureId, Game, Placement, PlacementPreview, play_turn};
use towerlab::play::bots::RandomBot;
use towerlab::rules::native::NativeTower;

fn tiles() -> TileSet {
    let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    TileSet::load(&[
        rules.join("base").join("tiles.toml"),
        rules.join("tower").join("tiles.toml"),
    ])
    .expect("shipped tile sets load")
}

/// Check every preview of every placement of the drawn tile against
/// placing it on a clone of the game.
fn check_all_placements(game: &Game, tile: u16, preview: &mut PlacementPreview) -> usize {
    let mut options = Vec::new();
    game.placements(tile, &mut options).unwrap();
    let mut checked = 0;
    let mut scratch = Vec::new();
    // One previewer for all of them: its tile counts carry over.
    let mut previewer = game.previewer(preview);
    for &at in &options {
        let preview = previewer.preview(tile, at).expect("a listed placement");
        let mut g = game.clone();
        g.place_tile(tile, at).expect("a listed placement");
        let placed = *g.board().tile_at(at.pos).expect("just placed");
        let kind = &g.tiles().kinds[tile as usize];
        let fs = g.features();
        // Every road, city and field segment is in exactly one preview.
        for (s, seg) in kind.segments.iter().enumerate() {
            let listed = preview
                .features()
                .iter()
                .filter(|f| f.segments & (1 << s) != 0)
                .count();
            let expected = usize::from(matches!(
                seg.kind,
                SegmentKind::Road | SegmentKind::City | SegmentKind::Field
            ));
            assert_eq!(listed, expected, "segment {s} of {}", kind.name);
        }
        for f in preview.features() {
            let first = f.segments.trailing_zeros();
            let root = fs.root(placed.first_segment + first);
            assert_eq!(fs.kind(root), f.kind);
            // The segments and joined features are exactly one feature now.
            for s in 0..32 {
                if f.segments & (1 << s) != 0 {
                    assert_eq!(fs.root(placed.first_segment + s), root);
                }
            }
            for &j in f.joins() {
                assert_eq!(fs.root(j), root, "joined feature {j}");
            }
            assert_eq!(fs.pennants(root), f.pennants, "pennants");
            assert_eq!(fs.meeples(root), f.meeples, "meeples");
            if f.kind != SegmentKind::Field {
                assert_eq!(fs.open_ends(root), f.open, "open ends");
                assert_eq!(fs.is_complete(root), f.complete());
                assert_eq!(fs.tile_count(root, &mut scratch), f.tiles, "tiles");
            }
            checked += 1;
        }
        // No two previews are the same feature.
        let roots: Vec<FeatureId> = preview
            .features()
            .iter()
            .map(|f| fs.root(placed.first_segment + f.segments.trailing_zeros()))
            .collect();
        let mut distinct = roots.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), roots.len());
        // Cloisters: the neighbours the placed board shows.
        let mut expected = Vec::new();
        for p in std::iter::once(at.pos).chain(at.pos.around()) {
            let Some(t) = g.board().tile_at(p) else {
                continue;
            };
            if let Some(c) = g.tiles().kinds[t.kind as usize].cloister {
                let id = t.first_segment + c as u32;
                if !fs.is_done(id) {
                    let n = p.around().filter(|&q| g.board().has_tile(q)).count() as u32;
                    expected.push((p, n, fs.meeples(id)));
                }
            }
        }
        let got: Vec<(Pos, u32, u32)> = preview
            .cloisters()
            .iter()
            .map(|c| (c.pos, c.neighbours, c.meeples))
            .collect();
        assert_eq!(got, expected, "cloisters");
        checked += 1;
    }
    checked
}

/// Previews agree with placing the tile on a clone, for every placement
/// of every turn of several random games.
#[test]
fn preview_matches_placing_the_tile() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut preview = PlacementPreview::default();
    let mut checked = 0;
    let mut completions = 0;
    for seed in 0..6u64 {
        let mut game = Game::new(&tiles, &rules, 2, seed).expect("a game");
        let mut bots: Vec<Box<dyn Bot>> = (0..2)
            .map(|s| Box::new(RandomBot::new(seed, s)) as Box<dyn Bot>)
            .collect();
        let mut buf = Buffers::default();
        loop {
            // Peek at the next tile by drawing on a clone.
            let mut peek = game.clone();
            let Some(tile) = peek.draw().unwrap() else {
                break;
            };
            checked += check_all_placements(&peek, tile, &mut preview);
            let mut options = Vec::new();
            peek.placements(tile, &mut options).unwrap();
            for &at in &options {
                peek.preview_placement(tile, at, &mut preview).unwrap();
                completions += preview.features().iter().filter(|f| f.complete()).count();
            }
            if !play_turn(&mut game, &mut bots, &mut buf).expect("a turn") {
                break;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
    assert!(completions > 100, "{completions}");
}

#[test]
fn preview_refuses_a_tile_that_does_not_fit() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let game = Game::with_deck(&tiles, &rules, 2, vec![]).unwrap();
    let mut preview = PlacementPreview::default();
    let c = tiles.find("base/C").unwrap() as u16;
    // base/C unrotated at (0, 1) shows a field S against the start
    // tile's city N (G1).
    let at = Placement {
        pos: Pos::new(0, 1),
        rot: 0,
    };
    assert!(game.preview_placement(c, at, &mut preview).is_err());
}
