//! `towerlab compare`: several variants on the same seeds, their metrics and
//! paired differences, as a table, JSON, CSV or an HTML page.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use super::args::{RunArgs, TableFormat};
use super::output::{new_table, speed_line, write_reported};
use super::runs::{EstimateCells, Outcome, run_all};
use crate::analysis::compare::{Comparison, baseline_first, baseline_index, family_size};
use crate::analysis::ladder::Ladder;
use crate::analysis::practical::MinEffect;
use crate::analysis::sequential::Precision;
use crate::analysis::stats;
use crate::analysis::verdict::{self, Verdict};
use crate::kernel::diag::bad_input;
use crate::play::bots::BotKind;
use crate::play::seed::game_seed;
use crate::rules::{Home, LoadOptions, Ruleset};
use crate::views::render::TileBook;
use crate::views::report;
use crate::views::scene::sample;

#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// Variants to compare, the first being the baseline unless
    /// --baseline names another: names from variants/, paths to variant
    /// files, or comma-separated pack lists (e.g. `tower,house/no-gaps`).
    #[arg(required_unless_present = "explain", num_args = 2.., value_name = "VARIANT")]
    pub variants: Vec<String>,
    /// The variant the others are compared with, as given among the
    /// VARIANTs [default: the first]: listed first in every output.
    #[arg(long, value_name = "NAME")]
    pub baseline: Option<String>,
    /// Lay the text table out for a terminal this many columns wide
    /// [default: the terminal's, or 100 when the output is not one]: one
    /// table side by side when it fits, else one per variant.
    #[arg(long, value_name = "N", value_parser = super::numbers::width, allow_negative_numbers = true)]
    pub width: Option<u16>,
    /// Print every metric's definition and unit, how the stars are
    /// adjusted and how the verdict is made (at --width), and exit.
    #[arg(long)]
    pub explain: bool,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub params: super::args::ParamArgs,
    /// Also write the comparison as one self-contained HTML page to FILE:
    /// the table, charts, and a replay viewer of each variant's first games.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Play in batches of --games until the paired difference of METRIC
    /// against the baseline is known to ±H (a 95% confidence sequence, valid
    /// however early it stops), or --max-games is reached.
    #[arg(long, value_name = "METRIC=H")]
    pub precision: Option<String>,
    /// With --precision: the most games per variant to play.
    #[arg(long, value_name = "N", requires = "precision", default_value_t = 100_000,
          value_parser = super::numbers::games, allow_negative_numbers = true)]
    pub max_games: u64,
    /// Compare at every level of play, weakest first (e.g.
    /// `random,greedy,mcts:50,mcts:200,mcts`): every seat that bot, the same
    /// seeds at every level; each metric's skill trace across the levels,
    /// each difference across them, flagged when it depends on skill, and
    /// each variant's skill gap (arena of each level against the one before)
    #[arg(
        long,
        value_name = "B1,B2,…",
        value_delimiter = ',',
        conflicts_with_all = ["bots", "precision", "shard", "per_game", "fires"]
    )]
    pub ladder: Option<Vec<String>>,
    /// The games of each variant the HTML page's viewer holds: the run's
    /// first N (each game adds about 150 KB to the page).
    #[arg(long, value_name = "N", default_value_t = report::VIEWER_GAMES, value_parser = super::numbers::viewer_games, allow_negative_numbers = true, requires = "html")]
    pub viewer_games: u64,
    /// A metric's practical threshold, in its unit: a difference the stars
    /// detect under it is told as "detectable but small", not a headline
    /// (METRIC is a name or a glossary pattern such as score.seatN;
    /// repeatable, or comma-separated) [default: a point of score, 0.02 of
    /// a share, a quarter of a count a game…: `compare --explain`]
    #[arg(long, value_name = "METRIC=X", value_delimiter = ',')]
    pub min_effect: Vec<String>,
    /// Also the per-floor-kind metrics of every variant's kinds: floors
    /// placed, captures and towers by the top floor's kind (after the other
    /// metrics; JSON: `by_kind`).
    #[arg(long)]
    pub by_kind: bool,
}

/// Which estimate a row of `compare --format csv` holds: one metric of one
/// variant.
#[derive(Serialize)]
struct CsvRow<'a> {
    metric: &'a str,
    variant: &'a str,
}

/// A variant as `compare` names it: a pack list when it has a comma or is
/// a native rule set (`native:tower`, as `--packs` takes it), else a
/// variant name or file.
pub fn load_compared(home: &Home, load: &LoadOptions, name: &str) -> Result<Ruleset> {
    let set = if name.contains(',') || crate::rules::native::native(name.trim()).is_some() {
        let packs: Vec<String> = name.split(',').map(|p| p.trim().to_string()).collect();
        Ruleset::from_packs(home, load, &packs)?
    } else {
        Ruleset::from_variant(home, load, name)?
    };
    super::args::warn_near_misses(&set);
    Ok(set)
}

/// The variants `compare` names, loaded, the baseline first (`--baseline`
/// names it among them; else the first given).
pub fn load_all(home: &Home, load: &LoadOptions, args: &CompareArgs) -> Result<Vec<Ruleset>> {
    let mut sets = args
        .variants
        .iter()
        .map(|v| {
            load_compared(home, load, v).and_then(|set| args.params.apply_to(home, set, false))
        })
        .collect::<Result<Vec<_>>>()?;
    args.params.check_used(&sets)?;
    if let Some(name) = &args.baseline {
        let given: Vec<String> = args.variants.iter().map(|v| v.trim().to_string()).collect();
        let b = baseline_index(&given, name).or_else(|e| {
            let names: Vec<String> = sets.iter().map(|s| s.name().clone()).collect();
            baseline_index(&names, name).map_err(|_| e)
        })?;
        baseline_first(&mut sets, b);
    }
    Ok(sets)
}

/// `compare --explain`, or `compare` without `--ladder` (which
/// `ladder::run` plays).
pub fn run(home: &Home, load: &LoadOptions, args: &CompareArgs) -> Result<()> {
    if args.explain {
        return explain(table_width(args.width));
    }
    let sets = load_all(home, load, args)?;
    let min_effect = MinEffect::parse(&args.min_effect)?;
    let bots = args.run.seats.bots(&sets[0])?;
    crate::play::bots::check_values(&bots, &sets.iter().collect::<Vec<_>>())?;
    let precision = args
        .precision
        .as_deref()
        .map(|p| parse_precision(p, args.max_games))
        .transpose()?;
    if args.html.is_some() && args.run.shard.is_some() {
        return Err(bad_input(
            "--html needs the whole run: write it with `towerlab merge … --html FILE`",
        ));
    }
    let mut comparison = match run_all(
        "compare",
        &sets,
        &bots,
        &args.run,
        precision.as_ref(),
        args.by_kind,
    )? {
        Outcome::Whole(c) => *c,
        Outcome::Written => return Ok(()),
    };
    if args.by_kind {
        comparison.add_by_kind();
    }
    comparison.min_effect = min_effect;
    if let Some(path) = &args.html {
        let count = args.viewer_games.min(comparison.games);
        write_html(path, &comparison, &sets, &bots, None, count)?;
    }
    print(&comparison, args.run.format, table_width(args.width))
}

/// `--precision METRIC=H`.
fn parse_precision(spec: &str, max_games: u64) -> Result<Precision> {
    let bad = || {
        bad_input(format!(
            "--precision {spec}: expected METRIC=H, e.g. margin=0.5"
        ))
    };
    let (metric, h) = spec.split_once('=').ok_or_else(bad)?;
    let half_width: f64 = h.trim().parse().map_err(|_| bad())?;
    if !(half_width > 0.0 && half_width.is_finite()) {
        return Err(bad_input(format!("--precision {spec}: H must be above 0")));
    }
    Ok(Precision {
        metric: metric.trim().to_string(),
        half_width,
        max_games,
    })
}

/// `compare --format json`: the comparison and its verdict.
#[derive(Serialize)]
struct CompareJson<'a> {
    #[serde(flatten)]
    comparison: &'a Comparison,
    verdict: Verdict,
}

/// Print a comparison as `format` asks (a table `width` columns wide).
pub fn print(c: &Comparison, format: TableFormat, width: u16) -> Result<()> {
    match format {
        TableFormat::Json => out!(
            "{}",
            serde_json::to_string(&CompareJson {
                comparison: c,
                verdict: Verdict::of(c),
            })?
        ),
        TableFormat::Csv => csv(c)?,
        TableFormat::Table | TableFormat::Partial => {
            table(c, width)?;
            out!("");
            verdict_lines(&Verdict::of(c), width)?;
            if let Some(fires) = &c.fires {
                super::fires::print(fires)?;
            }
        }
    }
    Ok(())
}

/// The verdict as a paragraph wrapped to `width`.
pub(super) fn verdict_lines(v: &Verdict, width: u16) -> Result<()> {
    out!("Verdict:");
    for line in wrap(&v.text, usize::from(width)) {
        out!("{line}");
    }
    Ok(())
}

/// `compare --explain`: the glossary and how stars and verdict are made.
fn explain(width: u16) -> Result<()> {
    out!("Every metric of `compare` (and `simulate`), per game unless said:");
    let mut t = new_table(["metric", "unit", "what it measures"]);
    t.set_width(width);
    for d in &stats::glossary::GLOSSARY {
        t.add_row([d.name, d.unit, d.meaning]);
    }
    out!("{t}");
    let text = format!(
        "Values are means with 95% intervals: Student's t (mean ± t(n-1) sd/sqrt(n)), which holds its level over a handful of games as over thousands, kept within the values a metric may take (0 and up; a share within [0, 1]); where every game gave the same value, the bound their count allows (at most 1 - 0.05^(1/n), about 3/n, of games may differ: the rule of three; a game that differs taken to differ by the largest gap between two games of the run, at least 1), never an interval of zero width; balance, a property of a set of games, has a bootstrap interval from 30 games on. A difference is the variant's value minus the baseline's, paired game by game on the same seeds, with its raw 95% interval and the p-value of its own test (Student's t; below 30 games the larger of that and the exact sign test, as t leans on near-normal means that few games of a skewed count do not give; the exact bound for differences that all agree; balance's bootstrap read as normal). The p-values of every difference of a run with an interval (every metric of every variant, the per-floor-kind metrics of --by-kind included, at every level of a --ladder) are adjusted together, as one family, by Holm's step-down method, which keeps the chance of any false star under 5% however the metrics depend on each other. A star (*) marks a difference whose raw interval excludes 0 and whose adjusted p-value is under 0.05; JSON and CSV carry `significant` (the raw interval excludes 0), `p`, `p_adjusted` and `survives`. The verdict names the differences that survive in the order a designer asks: scores (each seat, margin), who wins (balance, each seat's win share), what the rule does (captures, prisoners, towers, ransoms, exchanges, each floor kind's use), how a game feels (lead changes, drama, comebacks, decisiveness, ties), then bookkeeping (options per decision, forced decisions, decisions, supplies left, turns); scores and wins always in full, the others largest standardized effect (|mean| / sd of the per-game differences) first, five at most. A difference under its metric's practical threshold (--min-effect METRIC=X; by default a point of score or drama, 0.02 of a share, 0.1 of a floor of height, 0.5 of an option, a quarter of any other count a game) is told apart as detectable but small; an average over decisions (branching, forced) that moved while the count of decisions did is told apart as moved by what the game asks: a kind of decision appeared or vanished. It says {keys} did not change when every interval of theirs lies within ±{within}; and how many games would narrow the widest of their intervals to ±{target} (the half-width shrinks as 1/sqrt(games)).",
        keys = "balance and the first seat's win share (win.seat1)",
        within = verdict::UNCHANGED_WITHIN,
        target = verdict::TARGET_HALF_WIDTH,
    );
    for line in wrap(&text, usize::from(width)) {
        out!("{line}");
    }
    Ok(())
}

/// The HTML report, with each variant's first `count` games replayed for
/// its viewer (and the skill section of a ladder).
pub(super) fn write_html(
    path: &Path,
    c: &Comparison,
    sets: &[Ruleset],
    bots: &[BotKind],
    ladder: Option<&Ladder>,
    count: u64,
) -> Result<()> {
    let page = html_page(c, sets, bots, ladder, count)?;
    write_reported(path, &page)
}

/// The HTML report of `c`: each variant's game 0 replayed for its viewer
/// (played again from its seed when the run kept no result of it).
pub fn html_page(
    c: &Comparison,
    sets: &[Ruleset],
    bots: &[BotKind],
    ladder: Option<&Ladder>,
    count: u64,
) -> Result<String> {
    let samples = sets
        .iter()
        .enumerate()
        .map(|(v, set)| {
            let games = match c.first_games.get(v) {
                Some(first) => sample::sample_games(set, bots, c.seed, first, count)?,
                None => (0..count)
                    .map(|i| sample::sample_game(set, bots, i, game_seed(c.seed, i)))
                    .collect::<Result<Vec<_>>>()?,
            };
            let book = TileBook::new(set.tiles());
            Ok(games
                .iter()
                .map(|g| report::SampleGame::draw_with(g, &book))
                .collect())
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(report::html_with_ladder(c, &samples, ladder))
}

fn csv(c: &Comparison) -> Result<()> {
    let mut w = csv::Writer::from_writer(super::output::stdout());
    for m in c.metrics.iter().chain(&c.by_kind) {
        for v in &m.values {
            let row = CsvRow {
                metric: &m.name,
                variant: &v.variant,
            };
            w.serialize((
                row,
                EstimateCells::new(v.mean, v.ci, v.no_interval, v.diff.as_ref()),
            ))
            .map_err(std::io::Error::from)?;
        }
    }
    w.flush()?;
    Ok(())
}

/// The comparison's table, laid out for `width` columns: side by side when
/// it fits, else one table per variant against the baseline.
pub(super) fn table(c: &Comparison, width: u16) -> Result<()> {
    out!(
        "{} games per variant on the same seeds (seed {}), {} players, bots {}",
        c.games,
        c.seed,
        c.players,
        c.bots.join(",")
    );
    out!(
        "{}",
        crate::rules::worths::bot_values_line(&c.variants, &c.bot_values)
    );
    let mut wide = wide_table(c);
    let fits = natural_width(&wide) <= usize::from(width);
    if fits || c.variants.len() < 2 {
        wide.set_width(width);
        out!("{wide}");
    } else {
        // Too wide: one table per variant against the baseline, so no cell
        // is broken mid-word.
        for i in 1..c.variants.len() {
            out!("{} against the baseline {}:", c.variants[i], c.variants[0]);
            let mut pair = pair_table(c, i);
            pair.set_width(width);
            out!("{pair}");
        }
    }
    for line in wrap(&star_note(c), usize::from(width)) {
        out!("{line}");
    }
    if let Some(note) = comparison_thin_note(c) {
        for line in wrap(&note, usize::from(width)) {
            out!("{line}");
        }
    }
    if let Some(decks) = c.decks.as_ref().filter(|d| !d.same()) {
        for line in wrap(&decks.sentence(), usize::from(width)) {
            out!("{line}");
        }
    }
    if let Some(s) = &c.stopping {
        stopping_lines(c, s)?;
    }
    out!("{}", speed_line(c.games_per_sec, c.seconds, c.threads));
    Ok(())
}

/// How a sequential comparison stopped, and its intervals at the stop.
fn stopping_lines(c: &Comparison, s: &crate::analysis::compare::Stopping) -> Result<()> {
    let verdict = if s.reached { "reached" } else { "not reached" };
    out!(
        "stopped after {} games per variant (batches of {}, at most {}): {} within ±{} {verdict}",
        s.games,
        s.batch,
        s.max_games,
        s.metric,
        s.precision
    );
    for i in &s.intervals {
        out!(
            "  {} - {}: {:+.3} [{:+.3}, {:+.3}] ({})",
            i.variant,
            c.variants[0],
            i.mean,
            i.ci[0],
            i.ci[1],
            s.method
        );
    }
    Ok(())
}

/// What the values, differences and stars of a table are.
pub(super) fn star_note(c: &Comparison) -> String {
    let kinds = match family_size(&c.by_kind) {
        0 => String::new(),
        k => format!(", {k} of them per floor kind"),
    };
    format!(
        "values: mean ± 95% CI half-width (Student's t), or [low, high] where the interval is kept within the metric's values or rests on games that all agree; differences: paired by seed, raw 95% CI; * when it survives Holm's adjustment over the run's {} differences with an interval{kinds} (adjusted p < 0.05; `compare --explain`)",
        family_size(c.metrics.iter().chain(&c.by_kind))
    )
}

/// The width of the text tables: `--width`, else the terminal's, else 100
/// (so a table written to a file is laid out as on a terminal that wide).
pub fn table_width(asked: Option<u16>) -> u16 {
    asked
        .or_else(|| comfy_table::Table::new().width())
        .unwrap_or(100)
}

/// `text` in lines of at most `width` characters, broken at spaces.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The width a table takes with no cell wrapped: its columns' widest
/// contents, one space of padding each side, and the borders.
fn natural_width(table: &comfy_table::Table) -> usize {
    let widths = table.column_max_content_widths();
    widths.iter().map(|&w| usize::from(w) + 3).sum::<usize>() + 1
}

fn value_cell(v: &crate::analysis::compare::VariantValue) -> String {
    stats::mean_text(v.mean, v.ci, v.no_interval)
}

pub(super) fn diff_cell(d: &crate::analysis::compare::Difference) -> String {
    stats::diff_text(d.mean, d.ci, d.survives, d.no_interval)
}

/// Why some of a comparison's values have no interval, if any has none.
pub(super) fn comparison_thin_note(c: &Comparison) -> Option<String> {
    stats::thin_note(c.metrics.iter().chain(&c.by_kind).flat_map(|m| {
        m.values
            .iter()
            .flat_map(|v| [v.no_interval, v.diff.and_then(|d| d.no_interval)])
    }))
}

/// Every variant and its difference against the baseline, side by side.
fn wide_table(c: &Comparison) -> comfy_table::Table {
    let mut header = vec!["metric".to_string()];
    for (i, v) in c.variants.iter().enumerate() {
        header.push(v.clone());
        if i > 0 {
            header.push(format!("{v} - {}", c.variants[0]));
        }
    }
    let mut table = new_table(header);
    for m in c.metrics.iter().chain(&c.by_kind) {
        let mut row = vec![m.name.clone()];
        for v in &m.values {
            row.push(value_cell(v));
            if let Some(d) = &v.diff {
                row.push(diff_cell(d));
            }
        }
        table.add_row(row);
    }
    table
}

/// Variant `i` against the baseline: metric, baseline, variant, difference,
/// under a line that names them (the names are not headers, which would
/// widen the columns).
fn pair_table(c: &Comparison, i: usize) -> comfy_table::Table {
    let mut table = new_table(["metric", "baseline", "variant", "variant - baseline"]);
    for m in c.metrics.iter().chain(&c.by_kind) {
        let diff = m.values[i].diff.as_ref().map_or(String::new(), diff_cell);
        table.add_row([
            m.name.clone(),
            value_cell(&m.values[0]),
            value_cell(&m.values[i]),
            diff,
        ]);
    }
    table
}
