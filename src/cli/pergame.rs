//! `--per-game FILE.csv`: one row per game and variant — the variant, the
//! game's index and seed, the winning seat(s), every per-game metric
//! (scores first), then with `--by-kind` the per-floor-kind metrics (a
//! column for each kind of any variant, empty where a variant lacks the
//! kind) — for analysis in R or pandas.

use std::path::Path;

use anyhow::Result;

use super::output::OutputFile;
use crate::analysis::compare::Comparison;
use crate::analysis::kinds::KindCounts;
use crate::analysis::partial::Partial;
use crate::analysis::stats::{self, GameRow};
use crate::play::seed::game_seed;

/// The games of one variant: its name, its seat count and its per-game
/// metric rows, game `first` first.
pub struct Games<'a> {
    pub variant: &'a str,
    pub players: usize,
    pub rows: &'a [Vec<f64>],
    /// Its per-floor-kind counts, game by game, when they are written.
    pub kinds: Option<&'a KindCounts>,
}

/// Every game of a comparison (with its per-floor-kind metrics when
/// `by_kind`).
pub fn write_comparison(path: &Path, c: &Comparison, by_kind: bool) -> Result<()> {
    let games: Vec<Games> = c
        .variants
        .iter()
        .zip(&c.per_game)
        .enumerate()
        .map(|(i, (v, rows))| Games {
            variant: v,
            players: c.players,
            rows,
            kinds: c.kinds.get(i).filter(|_| by_kind),
        })
        .collect();
    write(path, c.seed, 0, &games)
}

/// Every game of a shard.
pub fn write_partial(path: &Path, p: &Partial) -> Result<()> {
    let metrics: Vec<Vec<Vec<f64>>> = p
        .rows
        .iter()
        .map(|rows| rows.iter().map(GameRow::metrics).collect())
        .collect();
    let games: Vec<Games> = p
        .run
        .variants
        .iter()
        .zip(&metrics)
        .enumerate()
        .map(|(i, (v, rows))| Games {
            variant: v,
            players: p.run.bots.len(),
            rows,
            kinds: p.kinds.get(i),
        })
        .collect();
    write(path, p.run.seed, p.first, &games)
}

/// Write the rows of `games` (variants may differ in seats: a seat a
/// variant lacks is an empty field).
pub fn write(path: &Path, seed: u64, first: u64, games: &[Games]) -> Result<()> {
    let widest = games.iter().map(|g| g.players).max().unwrap_or(2);
    let mut names = stats::metric_names(widest);
    names.pop(); // balance belongs to a set of games
    let mut w = csv::Writer::from_writer(OutputFile::create(path)?);
    let kind_names = kind_columns(games);
    let mut header = vec!["variant", "game", "seed", "winner"];
    header.extend(names.iter().chain(&kind_names).map(String::as_str));
    w.write_record(&header)?;
    for g in games {
        let own = stats::metric_names(g.players);
        let at: Vec<Option<usize>> = names
            .iter()
            .map(|n| own.iter().position(|o| o == n))
            .collect();
        let own_kinds = g.kinds.map(KindCounts::names).unwrap_or_default();
        let kind_at: Vec<Option<usize>> = kind_names
            .iter()
            .map(|n| own_kinds.iter().position(|o| o == n))
            .collect();
        for (i, row) in g.rows.iter().enumerate() {
            let index = first + i as u64;
            let mut record = vec![
                g.variant.to_string(),
                index.to_string(),
                game_seed(seed, index).to_string(),
                winner(&row[g.players..2 * g.players]),
            ];
            record.extend(
                at.iter()
                    .map(|m| m.map_or(String::new(), |m| row[m].to_string())),
            );
            if let Some(kinds) = g.kinds {
                let counts = &kinds.games[i];
                record.extend(
                    kind_at
                        .iter()
                        .map(|m| m.map_or(String::new(), |m| counts[m].to_string())),
                );
            } else {
                record.extend(kind_at.iter().map(|_| String::new()));
            }
            w.write_record(&record)?;
        }
    }
    w.into_inner()
        .map_err(|e| anyhow::anyhow!("writing `{}`: {}", path.display(), e.error()))?
        .finish()
}

/// The per-floor-kind columns: every name of any variant's kinds, in the
/// order they first appear.
fn kind_columns(games: &[Games]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for name in games
        .iter()
        .filter_map(|g| g.kinds)
        .flat_map(KindCounts::names)
    {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The winning seat, 1-based, or the tied seats joined by `+`.
fn winner(shares: &[f64]) -> String {
    let best = shares.iter().copied().fold(0.0, f64::max);
    shares
        .iter()
        .enumerate()
        .filter(|(_, s)| **s == best && best > 0.0)
        .map(|(i, _)| (i + 1).to_string())
        .collect::<Vec<_>>()
        .join("+")
}
