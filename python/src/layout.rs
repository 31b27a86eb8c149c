//! The environment's fixed action space and what a seat observes.
//!
//! The board is seen through a square window of `2R+1` cells a side,
//! centred on the start tile; cell `c = (y + R) * W + (x + R)`. Every
//! option the kernel lists is one action number, in blocks:
//!
//! | block | actions | the option |
//! |---|---|---|
//! | place | `c * 4 + r` | the drawn tile on cell `c`, turned `r` quarter turns clockwise |
//! | pass | one | no action this turn, no ransom, no capture |
//! | meeple | `s` | a meeple on segment `s` of the tile just placed |
//! | top | `c` | a meeple on the tower of cell `c`, closing it |
//! | floor | `c * K + k` | a floor of kind `k` on the foundation or tower of cell `c` |
//! | capture | `c * (S + 1) + j` | the meeple on segment `j` of cell `c` (`j = S`: on its tower) |
//! | ransom | `p` | buy back a meeple held by seat `p` |
//!
//! `S` is the most segments a tile of the set has, `K` the variant's floor
//! kinds. An option whose cell is outside the window has no action.

use towerlab::kernel::geometry::Pos;
use towerlab::kernel::{Action, CaptureChoice, Decision, Game, MeepleSpot, RansomChoice};
use towerlab::rules::Ruleset;

/// Channels of a board cell in the observation.
pub const BOARD_CHANNELS: usize = 7;
/// Numbers of a seat in the observation, before its floors by kind.
pub const SEAT_NUMBERS: usize = 4;
/// Numbers of the turn in the observation.
pub const TURN_NUMBERS: usize = 4;

/// The blocks of the action space for one variant, player count and window.
#[derive(Clone, Debug)]
pub struct Layout {
    pub radius: i32,
    pub segments: usize,
    pub kinds: usize,
    pub players: usize,
}

impl Layout {
    pub fn new(set: &Ruleset, players: usize, radius: i32) -> Layout {
        let segments = set
            .tiles()
            .kinds
            .iter()
            .map(|k| k.segments.len())
            .max()
            .unwrap_or(0);
        Layout {
            radius,
            segments,
            kinds: set.floors().len(),
            players,
        }
    }

    pub fn width(&self) -> usize {
        (2 * self.radius + 1) as usize
    }

    pub fn cells(&self) -> usize {
        self.width() * self.width()
    }

    /// Each block's name and size, in order.
    fn sizes(&self) -> [(&'static str, usize); 7] {
        let c = self.cells();
        [
            ("place", c * 4),
            ("pass", 1),
            ("meeple", self.segments),
            ("top", c),
            ("floor", c * self.kinds),
            ("capture", c * (self.segments + 1)),
            ("ransom", self.players),
        ]
    }

    /// Each block's name, first action and size, in order.
    pub fn blocks(&self) -> Vec<(&'static str, usize, usize)> {
        let mut start = 0;
        self.sizes()
            .into_iter()
            .map(|(name, len)| {
                let block = (name, start, len);
                start += len;
                block
            })
            .collect()
    }

    /// The first action of `block` (no list made: each option's action asks).
    fn start(&self, block: &str) -> usize {
        self.sizes()
            .iter()
            .take_while(|(name, _)| *name != block)
            .map(|(_, size)| size)
            .sum()
    }

    pub fn size(&self) -> usize {
        self.blocks().last().map_or(0, |b| b.1 + b.2)
    }

    /// The window's cell of `pos`.
    pub fn cell(&self, pos: Pos) -> Option<usize> {
        let (x, y) = (pos.x + self.radius, pos.y + self.radius);
        let w = self.width() as i32;
        ((0..w).contains(&x) && (0..w).contains(&y)).then(|| (y * w + x) as usize)
    }

    /// The action of option `option` of `decision`, if it has one.
    pub fn action(&self, game: &Game, decision: Decision, option: usize) -> Option<usize> {
        match decision {
            Decision::Placement { options, .. } => {
                let p = options.get(option)?;
                Some(self.cell(p.pos)? * 4 + usize::from(p.rot))
            }
            Decision::Ransom(options) => match options.get(option)? {
                RansomChoice::Decline => Some(self.start("pass")),
                RansomChoice::Pay { captor, .. } => {
                    Some(self.start("ransom") + usize::from(*captor))
                }
            },
            Decision::Action(options) => self.turn_action(game, *options.get(option)?),
            Decision::Capture(options) => match options.get(option)? {
                CaptureChoice::Decline => Some(self.start("pass")),
                CaptureChoice::Take { meeple } => {
                    let m = game.meeples().get(usize::from(*meeple))?;
                    let spot = match m.spot {
                        MeepleSpot::Segment(s) => usize::from(s),
                        MeepleSpot::Tower => self.segments,
                    };
                    Some(self.start("capture") + self.cell(m.pos)? * (self.segments + 1) + spot)
                }
            },
        }
    }

    fn turn_action(&self, game: &Game, action: Action) -> Option<usize> {
        let tower_cell = |t: u16| self.cell(game.towers().get(usize::from(t))?.pos);
        match action {
            Action::Pass => Some(self.start("pass")),
            Action::Meeple { segment } => Some(self.start("meeple") + usize::from(segment)),
            Action::TowerMeeple { tower } => Some(self.start("top") + tower_cell(tower)?),
            Action::Floor { tower, kind } => {
                Some(self.start("floor") + tower_cell(tower)? * self.kinds + usize::from(kind))
            }
        }
    }

    /// The board as every seat may see it: cells of [`BOARD_CHANNELS`]
    /// numbers (tile kind plus 1, quarter turns, tower floors, top floor
    /// kind plus 1, the owner plus 1 and segment plus 1 of a meeple on a
    /// segment, the owner plus 1 of a meeple on the tower); 0 where nothing is.
    pub fn board(&self, game: &Game) -> Vec<i16> {
        let mut board = vec![0i16; self.cells() * BOARD_CHANNELS];
        let at = |pos: Pos| self.cell(pos).map(|c| c * BOARD_CHANNELS);
        for tile in game.board().tiles() {
            if let Some(i) = at(tile.pos) {
                board[i] = tile.kind as i16 + 1;
                board[i + 1] = i16::from(tile.rot);
            }
        }
        for tower in game.towers() {
            if let Some(i) = at(tower.pos) {
                board[i + 2] = tower.floors.len() as i16;
                board[i + 3] = tower.floors.last().map_or(0, |&k| i16::from(k) + 1);
            }
        }
        for m in game.meeples() {
            if let Some(i) = at(m.pos) {
                let owner = i16::from(m.owner) + 1;
                match m.spot {
                    MeepleSpot::Segment(s) => {
                        board[i + 4] = owner;
                        board[i + 5] = i16::from(s) + 1;
                    }
                    MeepleSpot::Tower => board[i + 6] = owner,
                }
            }
        }
        board
    }

    /// Each seat's [`SEAT_NUMBERS`] numbers (score, meeples in supply,
    /// prisoners it holds, its meeples others hold), then its floors by kind.
    pub fn seats(&self, game: &Game) -> Vec<i32> {
        let n = game.players().len();
        let mut out = Vec::with_capacity(n * (SEAT_NUMBERS + self.kinds));
        for (p, player) in game.players().iter().enumerate() {
            let held: u32 = (0..n).map(|o| game.prisoners(p, o)).sum();
            let lost: u32 = (0..n).map(|c| game.prisoners(c, p)).sum();
            out.extend([
                player.score as i32,
                i32::from(player.meeples),
                held as i32,
                lost as i32,
            ]);
            out.extend((0..self.kinds).map(|k| player.floors.get(k).map_or(0, |&f| f as i32)));
        }
        out
    }
}
