//! `towerlab compare … --ladder B1,B2,…`: the comparison at every level of
//! play (see [`crate::analysis::ladder`]), as tables, JSON, CSV or the HTML
//! report with its skill section.
//!
//! The JSON is the strongest level's comparison, with every key `compare`
//! prints, and a `ladder` field: every level's comparison, each
//! difference across the levels with its *depends on skill* flag, and the
//! skill gaps.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

use super::args::TableFormat;
use super::compare::{CompareArgs, table, table_width, verdict_lines, write_html};
use super::output::{new_table, progress_bar};
use super::runs::EstimateCells;
use crate::analysis::compare::Comparison;
use crate::analysis::ladder::{self, Ladder, LadderPlan};
use crate::analysis::practical::MinEffect;
use crate::analysis::verdict::Verdict;
use crate::kernel::diag::bad_input;
use crate::play::bots::BotKind;
use crate::rules::Ruleset;

/// The levels of `--ladder`, weakest first.
pub fn levels(names: &[String]) -> Result<Vec<BotKind>> {
    let names = super::args::trimmed_names("--ladder", "bot", names)?;
    let levels = names
        .iter()
        .map(|n| BotKind::parse(n))
        .collect::<Result<Vec<_>>>()?;
    ladder::check_levels(&levels)?;
    Ok(levels)
}

/// `compare --format json` with a ladder: the strongest level's comparison
/// and the whole ladder.
#[derive(Serialize)]
struct LadderReport<'a> {
    #[serde(flatten)]
    comparison: &'a Comparison,
    ladder: &'a Ladder,
    /// The verdict over every level.
    verdict: Verdict,
}

/// Which estimate a row of the ladder's CSV holds: one metric of one
/// variant at one level.
#[derive(Serialize)]
struct CsvRow<'a> {
    level: &'a str,
    metric: &'a str,
    variant: &'a str,
}

/// The ladder's last column: does the metric's difference depend on the
/// bots' skill (empty for the baseline)?
#[derive(Serialize)]
struct SkillCell {
    depends_on_skill: Option<bool>,
}

/// Run the comparison of `sets` at every level of `names`.
pub fn run(args: &CompareArgs, sets: &[Ruleset], names: &[String]) -> Result<()> {
    let levels = levels(names)?;
    crate::play::bots::check_values(&levels, &sets.iter().collect::<Vec<_>>())?;
    if args.run.log.is_some() {
        return Err(bad_input(
            "--log writes one run's games; with --ladder, log a level with `compare --bots B --log FILE`",
        ));
    }
    let players = args
        .run
        .seats
        .players
        .map_or(sets[0].players(), usize::from);
    let plan = LadderPlan {
        sets,
        levels: &levels,
        players,
        games: args.run.games,
        seed: args.run.seed,
        threads: args.run.threads.map_or(0, usize::from),
    };
    let bar = progress_bar(ladder::total_games(&plan));
    let min_effect = MinEffect::parse(&args.min_effect)?;
    let mut result = ladder::run(&plan, &|_| bar.inc(1))?;
    bar.finish_and_clear();
    for run in &mut result.runs {
        run.min_effect = min_effect.clone();
    }
    let strongest = result.runs.last().expect("two levels at least");
    if let Some(path) = &args.html {
        let bots = vec![*levels.last().expect("two levels at least"); players];
        let count = args.viewer_games.min(strongest.games);
        write_html(path, strongest, sets, &bots, Some(&result), count)?;
    }
    match args.run.format {
        TableFormat::Json => out!(
            "{}",
            serde_json::to_string(&LadderReport {
                comparison: strongest,
                ladder: &result,
                verdict: Verdict::of_run(strongest, Some(&result)),
            })?
        ),
        TableFormat::Csv => csv(&result)?,
        TableFormat::Table => tables(&result, table_width(args.width))?,
        TableFormat::Partial => {
            return Err(crate::kernel::diag::bad_input(
                "--ladder writes no partial result: it plays the whole run (no --shard)",
            ));
        }
    }
    Ok(())
}

fn csv(l: &Ladder) -> Result<()> {
    let mut w = csv::Writer::from_writer(super::output::stdout());
    for (level, c) in l.levels.iter().zip(&l.runs) {
        for m in &c.metrics {
            for v in &m.values {
                let flag = l
                    .across
                    .iter()
                    .find(|a| a.metric == m.name && a.variant == v.variant)
                    .filter(|_| v.diff.is_some())
                    .map(|a| a.depends_on_skill);
                let row = CsvRow {
                    level,
                    metric: &m.name,
                    variant: &v.variant,
                };
                let skill = SkillCell {
                    depends_on_skill: flag,
                };
                w.serialize((
                    row,
                    EstimateCells::new(v.mean, v.ci, v.no_interval, v.diff.as_ref()),
                    skill,
                ))
                .map_err(std::io::Error::from)?;
            }
        }
    }
    w.flush()?;
    Ok(())
}

/// Each level's table, the differences across the levels, the skill gaps
/// and the verdict, laid out for `width` columns.
fn tables(l: &Ladder, width: u16) -> Result<()> {
    for (level, c) in l.levels.iter().zip(&l.runs) {
        out!("== level {level}: every seat {level} ==");
        table(c, width)?;
        out!("");
    }
    out!("== across the ladder ({}) ==", l.levels.join(" < "));
    let mut across = across_table(l);
    across.set_width(width);
    out!("{across}");
    out!(
        "each cell: variant - baseline at that level, paired by seed, raw 95% CI; * when it survives Holm's adjustment over every level's differences; depends on skill: survives at two levels with opposite signs"
    );
    out!("");
    out!("== skill gap: the stronger bot's win share against the weaker ==");
    let mut gaps = gap_table(l);
    gaps.set_width(width);
    out!("{gaps}");
    out!(
        "arena on each variant: paired deals, seats rotated, the stronger bot in one seat; 95% Wilson interval; an even share would be 1/players"
    );
    out!("");
    let strongest = l.runs.last().expect("two levels at least");
    verdict_lines(&Verdict::of_run(strongest, Some(l)), width)
}

fn across_table(l: &Ladder) -> comfy_table::Table {
    let mut header = vec!["metric".to_string(), "variant".to_string()];
    header.extend(l.levels.iter().map(|b| format!("at {b}")));
    header.push("depends on skill".to_string());
    let mut t = new_table(header);
    for a in &l.across {
        let mut row = vec![a.metric.clone(), a.variant.clone()];
        row.extend(a.diffs.iter().map(super::compare::diff_cell));
        row.push(if a.depends_on_skill { "YES" } else { "" }.to_string());
        t.add_row(row);
    }
    t
}

fn gap_table(l: &Ladder) -> comfy_table::Table {
    let mut t = new_table([
        "variant",
        "stronger vs weaker",
        "games",
        "win share [95% CI]",
    ]);
    for g in &l.skill_gaps {
        t.add_row([
            g.variant.clone(),
            format!("{} vs {}", g.stronger, g.weaker),
            g.games.to_string(),
            format!("{:.3} [{:.3}, {:.3}]", g.win_share, g.ci[0], g.ci[1]),
        ]);
    }
    t
}
