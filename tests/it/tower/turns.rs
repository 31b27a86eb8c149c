//! T1, T2: setup and the turn's action.

use super::*;

/// T1: 2 → 10, 3 → 9, 4 → 7, 5 → 6, 6 → 5 floors each; its ruling for
/// more players: 7 → 4, 8 → 3 (the 30 floors shared evenly).
#[test]
fn t1_floors_per_player_by_player_count() {
    let tiles = tiles();
    let rules = NativeTower::default();
    assert_eq!(rules.floor_kinds().len(), 1, "The Tower has one floor kind");
    for (players, floors) in [(2, 10), (3, 9), (4, 7), (5, 6), (6, 5), (7, 4), (8, 3)] {
        let g = game(&tiles, &rules, players);
        assert_eq!(g.players().len(), players);
        for (i, player) in g.players().iter().enumerate() {
            assert_eq!(
                player.floors,
                vec![floors],
                "player {i} of {players} starts with {floors} floors"
            );
            assert_eq!(player.meeples, MEEPLES_PER_PLAYER);
        }
    }
}

#[test]
fn t1_one_or_nine_players_are_refused() {
    let tiles = tiles();
    let rules = NativeTower::default();
    for players in [0, 1, 9] {
        assert!(Game::with_deck(&tiles, &rules, players, vec![]).is_err());
        assert!(rules.seat_supply(players, 18, 0).is_err());
    }
}

// ---- T2 ----------------------------------------------------------------

/// T2: on every Tower tile, the foundation is a feature of its own, joined to
/// no road, city or field of its tile or the tile it touches, and no meeple
/// goes onto it as onto a feature.
#[test]
fn t2_a_foundation_is_a_feature_of_its_own() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let towers: Vec<usize> = (0..tiles.kinds.len())
        .filter(|&k| tiles.kinds[k].foundation.is_some())
        .collect();
    assert_eq!(towers.len(), 17, "17 kinds of Tower tile");
    for k in towers {
        let name = &tiles.kinds[k].name;
        assert!(name.starts_with("tower/"), "{name}");
        let f = tiles.kinds[k].foundation.unwrap();
        let seg = &tiles.kinds[k].segments[f as usize];
        assert_eq!(seg.kind, SegmentKind::Foundation);
        assert_eq!((seg.edges, seg.halves), (0, 0), "{name}: touches no edge");

        let mut g = game(&tiles, &rules, 2);
        let mut spots = Vec::new();
        g.placements(k as u16, &mut spots).unwrap();
        let at = spots[0];
        g.place_tile(k as u16, at).unwrap();
        let fid = g.segment_id(at.pos, f).unwrap();
        let root = g.features().root(fid);
        assert_eq!(g.features().kind(root), SegmentKind::Foundation, "{name}");
        assert_eq!(g.features().members(root).count(), 1, "{name}: alone");
        for pos in [at.pos, Pos::ORIGIN] {
            let tile = g.board().tile_at(pos).unwrap();
            let n = tiles.kinds[tile.kind as usize].segments.len() as u8;
            for s in 0..n {
                let id = g.segment_id(pos, s).unwrap();
                if id != fid {
                    assert_ne!(g.features().root(id), root, "{name}: {pos} segment {s}");
                }
            }
        }
        assert!(
            !actions(&g).contains(&Action::Meeple { segment: f }),
            "{name}: a meeple on the foundation is offered"
        );
        assert!(
            g.act(Action::Meeple { segment: f }).is_err(),
            "{name}: a meeple went onto the foundation"
        );
        assert_eq!(on_board(&g, 0), 0);
        assert_eq!(supply(&g, 0), MEEPLES_PER_PLAYER);
    }
}

/// T2: a road that runs into a foundation is not joined to it, and the road
/// through a Tower tile is the same road as on its neighbour.
#[test]
fn t2_the_road_through_a_tower_tile_is_joined_but_the_foundation_is_not() {
    let tiles = tiles();
    let rules = NativeTower::default();
    let mut g = game(&tiles, &rules, 2);
    // tower/RCr: city N, road W-E, foundation; its road meets the start's.
    place(&mut g, 0, "tower/RCr", 1, 0, 0);
    let road = segment(&tiles, "tower/RCr", SegmentKind::Road);
    let found = segment(&tiles, "tower/RCr", SegmentKind::Foundation);
    let start_road = segment(&tiles, "base/RCr", SegmentKind::Road);
    let f = g.features();
    let root = |pos, s| f.root(g.segment_id(pos, s).unwrap());
    assert_eq!(root(p(1, 0), road), root(Pos::ORIGIN, start_road));
    assert_ne!(root(p(1, 0), found), root(Pos::ORIGIN, start_road));
    assert_ne!(root(p(1, 0), found), root(p(1, 0), road));
}
