//! `--per-game FILE.csv`: one row per game and variant — the variant, the
//! game's index and seed, the winning seat(s), and every per-game metric
//! (scores first) — for analysis in R or pandas.

use std::path::Path;

use anyhow::Result;

use crate::analysis::compare::Comparison;
use crate::analysis::partial::Partial;
use crate::analysis::stats::{self, GameRow};
use crate::kernel::diag::bad_input;
use crate::play::seed::game_seed;

/// The games of one variant: its name, its seat count and its per-game
/// metric rows, game `first` first.
pub struct Games<'a> {
    pub variant: &'a str,
    pub players: usize,
    pub rows: &'a [Vec<f64>],
}

/// Every game of a comparison.
pub fn write_comparison(path: &Path, c: &Comparison) -> Result<()> {
    let games: Vec<Games> = c
        .variants
        .iter()
        .zip(&c.per_game)
        .map(|(v, rows)| Games {
            variant: v,
            players: c.players,
            rows,
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
        .map(|(v, rows)| Games {
            variant: v,
            players: p.run.bots.len(),
            rows,
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
    let file = std::fs::File::create(path)
        .map_err(|e| bad_input(format!("cannot write `{}`: {e}", path.display())))?;
    let mut w = csv::Writer::from_writer(std::io::BufWriter::new(file));
    let mut header = vec!["variant", "game", "seed", "winner"];
    header.extend(names.iter().map(String::as_str));
    w.write_record(&header)?;
    for g in games {
        let own = stats::metric_names(g.players);
        let at: Vec<Option<usize>> = names
            .iter()
            .map(|n| own.iter().position(|o| o == n))
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
            w.write_record(&record)?;
        }
    }
    w.flush()?;
    Ok(())
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
