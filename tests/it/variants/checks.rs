//! What must hold at every decision and turn of a game: the captures offered
//! are exactly the meeples in the variant's range (T5, T6, T9, B6, B7,
//! H1–H4), the ransoms offered are the variant's (T11, H2), meeples add up
//! (G3, T5, T10, T11) and scores move only by points and ransoms (T11, T12).
//! A seat's bot is wrapped in [`Checked`], which checks each decision.

use super::*;

/// What the checks saw, so that a run that never reaches a capture or a
/// ransom cannot pass unnoticed.
#[derive(Default, Debug)]
pub(super) struct Seen {
    /// Capture options checked (after a floor).
    pub(super) floor_checks: u64,
    /// Meeples offered for capture (over all those floors).
    pub(super) offered: u64,
    pub(super) captures: u64,
    pub(super) ransom_offers: u64,
    pub(super) ransoms: u64,
    /// A floor was placed with a meeple in range: the capture decision must
    /// follow in the same turn.
    pub(super) capture_due: bool,
}

/// The cells, relative to tower `t`, that the variant says a capture may come
/// from now (the floor just placed included), on the game's own board.
pub(super) fn range_now(game: &Game, t: usize) -> Vec<(i32, i32)> {
    let tower = &game.towers()[t];
    let map = board_map(game, tower.pos);
    capture_cells(game.rules(), game.tiles(), &tower.floors, Some(&map))
        .unwrap_or_else(|e| panic!("capture_cells for {:?}: {e:#}", tower.floors))
}

/// Whether a floor of `kind` on tower `t` will have a meeple in range (T5,
/// T6), by the variant's range on the game's board. The cells
/// [`capture_cells`] returns are among those of the rules' range shape, so it
/// is asked only when some meeple stands in that shape.
pub(super) fn must_offer_capture(game: &Game, t: usize, kind: u8) -> bool {
    let tower = &game.towers()[t];
    let mut floors = tower.floors.clone();
    floors.push(kind);
    let rel = |m: &towerlab::kernel::Meeple| (m.pos.x - tower.pos.x, m.pos.y - tower.pos.y);
    let view = StackView {
        floors: &floors,
        topped: false,
    };
    let mut shape = Vec::new();
    game.rules()
        .capture_range(&view, &mut shape)
        .expect("capture_range");
    if !game.meeples().iter().any(|m| shape.contains(&rel(m))) {
        return false;
    }
    let cells = capture_cells(
        game.rules(),
        game.tiles(),
        &floors,
        Some(&board_map(game, tower.pos)),
    )
    .unwrap_or_else(|e| panic!("capture_cells for {floors:?}: {e:#}"));
    game.meeples().iter().any(|m| cells.contains(&rel(m)))
}

/// The game's board as a map relative to `origin`.
pub(super) fn board_map(game: &Game, origin: Pos) -> BoardMap {
    BoardMap {
        tiles: game
            .board()
            .tiles()
            .iter()
            .map(|p| (p.pos.x - origin.x, p.pos.y - origin.y))
            .collect(),
    }
}

/// T5, T6, T9: the capture options after a floor on tower `t` are exactly the
/// meeples standing in the variant's range.
pub(super) fn check_capture_options(
    ctx: &Where,
    game: &Game,
    t: usize,
    options: &[CaptureChoice],
    seen: &mut Seen,
) {
    assert_eq!(
        options.first(),
        Some(&CaptureChoice::Decline),
        "{ctx}: declining a capture is always allowed (T5 'may')"
    );
    let tower = &game.towers()[t];
    let cells = range_now(game, t);
    let rel = |i: usize| {
        let m = game.meeples()[i];
        (m.pos.x - tower.pos.x, m.pos.y - tower.pos.y)
    };
    let mut offered = Vec::new();
    for o in &options[1..] {
        let CaptureChoice::Take { meeple } = *o else {
            panic!("{ctx}: a second Decline among {options:?}");
        };
        let cell = rel(meeple as usize);
        assert!(
            cells.contains(&cell),
            "{ctx}: tower at {} with floors {:?} is offered the meeple at {cell:?} (relative), \
             outside its range {cells:?}",
            tower.pos,
            tower.floors
        );
        offered.push(meeple as usize);
    }
    for i in 0..game.meeples().len() {
        let cell = rel(i);
        assert!(
            !cells.contains(&cell) || offered.contains(&i),
            "{ctx}: tower at {} with floors {:?}: the meeple at {cell:?} (relative) is in range \
             {cells:?} but not offered ({options:?})",
            tower.pos,
            tower.floors
        );
    }
    seen.floor_checks += 1;
    seen.offered += offered.len() as u64;
}

/// T11 (and the variant's ransom rule): the ransoms offered are exactly the
/// captors holding one of the player's meeples, at the rules' cost, when that
/// cost does not take the score below 0.
pub(super) fn check_ransom_options(
    ctx: &Where,
    game: &Game,
    options: &[RansomChoice],
    seen: &mut Seen,
) {
    assert_eq!(options.first(), Some(&RansomChoice::Decline), "{ctx}");
    let me = game.current();
    let score = game.players()[me].score;
    // `play_turn` offers the ransom once a turn, before any is paid.
    let allowed = crate::common::ransom_of(game.rules(), score, 0)
        .unwrap_or_else(|e| panic!("{ctx}: ransom_cost: {e:#}"))
        .filter(|&c| c <= score);
    let mut expected = vec![RansomChoice::Decline];
    if let Some(cost) = allowed {
        for captor in 0..game.players().len() {
            if captor != me && game.prisoners(captor, me) > 0 {
                expected.push(RansomChoice::Pay {
                    captor: captor as u8,
                    cost,
                });
            }
        }
    }
    assert_eq!(
        options,
        &expected[..],
        "{ctx}: ransom options of player {me} with {score} points"
    );
    seen.ransom_offers += 1;
}

/// Where a check runs, for its failure message.
#[derive(Clone, Debug, Default)]
pub(super) struct Where {
    pub(super) variant: String,
    pub(super) game: u64,
    pub(super) seed: u64,
    pub(super) bots: Vec<BotKind>,
    /// 0 for final scoring.
    pub(super) turn: u32,
}

impl std::fmt::Display for Where {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "{}: game {} (seed {}, {} players {:?}), ",
            self.variant,
            self.game,
            self.seed,
            self.bots.len(),
            self.bots
        )?;
        match self.turn {
            0 => write!(f, "final scoring"),
            t => write!(f, "turn {t}"),
        }
    }
}

/// A seat's bot, with the decision checks around it.
pub(super) struct Checked {
    pub(super) inner: Box<dyn Bot>,
    pub(super) ctx: Rc<RefCell<Where>>,
    pub(super) seen: Rc<RefCell<Seen>>,
    /// The tower that got a floor this turn, for the capture decision.
    pub(super) floor_on: Option<usize>,
}

impl Bot for Checked {
    fn decide(&mut self, game: &Game, decision: Decision) -> anyhow::Result<usize> {
        let ctx = self.ctx.borrow();
        let mut seen = self.seen.borrow_mut();
        let pick = self.inner.decide(game, decision)?;
        match decision {
            Decision::Placement { .. } => self.floor_on = None,
            Decision::Ransom(options) => check_ransom_options(&ctx, game, options, &mut seen),
            Decision::Action(options) => {
                if let Some(&Action::Floor { tower, kind }) = options.get(pick) {
                    self.floor_on = Some(tower as usize);
                    // The capture decision comes only when some meeple may be
                    // taken, and is checked then; here, the case where none
                    // is offered: then no meeple may stand in range.
                    seen.capture_due = must_offer_capture(game, tower as usize, kind);
                }
            }
            Decision::Capture(options) => {
                let t = self
                    .floor_on
                    .unwrap_or_else(|| panic!("{ctx}: a capture decision without a floor"));
                check_capture_options(&ctx, game, t, options, &mut seen);
                seen.capture_due = false;
            }
        }
        Ok(pick)
    }
}

/// G3, T5, T10, T11: each player's meeples on the board, in supply and held
/// by others add up to 7; nobody holds their own meeple.
pub(super) fn check_meeples(ctx: &Where, game: &Game) {
    let n = game.players().len();
    for p in 0..n {
        let on_board = game
            .meeples()
            .iter()
            .filter(|m| m.owner as usize == p)
            .count() as u32;
        let supply = game.players()[p].meeples as u32;
        let held: u32 = (0..n)
            .filter(|&c| c != p)
            .map(|c| game.prisoners(c, p))
            .sum();
        assert_eq!(
            game.prisoners(p, p),
            0,
            "{ctx}: player {p} holds their own meeple"
        );
        assert_eq!(
            on_board + supply + held,
            MEEPLES_PER_PLAYER as u32,
            "{ctx}: player {p}: {on_board} on the board + {supply} in supply + {held} held"
        );
    }
}

/// T11, T12: replaying the events from `old`, each score moves only by the
/// points scored and the ransoms received or paid; a ransom is one the rules
/// allow at that moment and never takes a score below 0. Returns the ransoms
/// paid.
pub(super) fn check_scores(ctx: &Where, game: &Game, old: &[u32], events: &[Event]) -> u64 {
    let mut running: Vec<u32> = old.to_vec();
    let mut paid_this_turn = 0u32;
    let mut paid_by = vec![0u32; old.len()];
    for e in events {
        match e {
            Event::Score { player, points, .. } => {
                running[*player] = u32::try_from(i64::from(running[*player]) + points)
                    .unwrap_or_else(|_| panic!("{ctx}: a score below 0 or too high: {e:?}"));
            }
            Event::Ransom {
                player,
                to,
                cost,
                scores,
            } => {
                let before = running[*player];
                let allowed = crate::common::ransom_of(game.rules(), before, paid_this_turn)
                    .unwrap_or_else(|e| panic!("{ctx}: ransom_cost: {e:#}"));
                assert_eq!(
                    allowed,
                    Some(*cost),
                    "{ctx}: player {player} paid {cost} with {before} points after \
                     {paid_this_turn} ransoms this turn; the rules say {allowed:?}"
                );
                assert!(
                    *cost <= before,
                    "{ctx}: a ransom of {cost} took a score of {before} below 0 (T11)"
                );
                assert_ne!(player, to, "{ctx}: a ransom paid to oneself");
                running[*player] -= cost;
                running[*to] += cost;
                paid_by[*player] += cost;
                paid_this_turn += 1;
                assert_eq!(&running, scores, "{ctx}: scores after a ransom");
            }
            Event::End { scores } => assert_eq!(&running, scores, "{ctx}: end scores"),
            _ => {}
        }
    }
    let now = game.scores();
    assert_eq!(now, running, "{ctx}: scores against the events {events:?}");
    for p in 0..old.len() {
        assert!(
            now[p] + paid_by[p] >= old[p],
            "{ctx}: player {p}'s score fell from {} to {} with {} paid in ransom",
            old[p],
            now[p],
            paid_by[p]
        );
    }
    paid_this_turn as u64
}
