//! `towerlab tune VARIANT`: learn a variant's bot values from its self-play
//! games — a fit proposes, play decides — and store them in the home folder
//! when they beat the defaults beyond doubt (the interval of their win share
//! against them above the even share), where every later run finds them (by
//! the ruleset's fingerprint); print what was fitted, every trial, what was
//! kept, and why nothing was stored when nothing is.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use super::args::BudgetArgs;
use super::output::write_file;
use crate::analysis::arena::wilson;
use crate::kernel::diag::bad_input;
use crate::play::tune::{
    Check, KEEP_MARGIN, LOOKS, Learned, Search, TUNE_BOT, Trial, TunePlan, search, tune,
};
use crate::rules::worths::{self, tuned_path};
use crate::rules::{Home, LoadOptions, Ruleset, Worths};

#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// The variant: a name from variants/ (e.g. `black-tower`) or a path to a
    /// TOML file.
    pub variant: String,
    /// Self-play games (of `mcts:32`, weighing with the defaults) to learn
    /// from.
    #[arg(long, default_value_t = 400, value_parser = super::numbers::tune_games, allow_negative_numbers = true)]
    pub games: u64,
    /// The master seed of the self-play games: the same seed learns the
    /// same values.
    #[arg(long, default_value_t = 1, value_parser = super::numbers::index, allow_negative_numbers = true)]
    pub seed: u64,
    /// Players per game [default: the variant's].
    #[arg(long, value_parser = super::numbers::players, allow_negative_numbers = true)]
    pub players: Option<u8>,
    /// Games of each trial in play: `mcts:32` weighing with the values tried
    /// in one seat against the same bot with the best values so far in the
    /// others, on fresh paired deals with the seats rotated (rounded up to
    /// whole deals). The fitted values, then each value doubled and halved,
    /// are tried; what wins is stored only if it also beats the defaults,
    /// the 95% interval of its win share against them above the even
    /// share. 0: store the fitted values untried.
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = super::numbers::check_games, allow_negative_numbers = true)]
    pub check_games: u64,
    /// Worker threads [default: one per core; never more than the address
    /// space holds, see README]. The values do not depend on it.
    #[arg(long, value_parser = super::numbers::threads, allow_negative_numbers = true)]
    pub threads: Option<u16>,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

pub fn run(home: &Home, load: &LoadOptions, args: &TuneArgs) -> Result<()> {
    let set = Ruleset::from_variant(home, load, &args.variant)?;
    super::args::warn_near_misses(&set);
    // The home folder, else the current one (a folder with `tuned/` is a
    // home folder from then on).
    let folder = home.folder().unwrap_or(Path::new("."));
    let target = tuned_path(folder, set.fingerprint());
    check_writable(&target)?;
    let plan = TunePlan {
        games: args.games,
        seed: args.seed,
        players: args.players.map_or(set.players(), usize::from),
        threads: args.threads.map_or(0, usize::from),
        bot: TUNE_BOT,
    };
    let Learned { tuned, foresight } = tune(&set, &plan)?;
    out!(
        "{}: values learned from {} self-play games of {} (seed {}, {} players)",
        set.name(),
        tuned.games,
        plan.bot.label(),
        tuned.seed,
        tuned.players
    );
    print_worths(&tuned.worths, &set)?;
    out!(
        "foreseen, of the players' gains to the end beyond the points then (relative to their turn's mean; R² over {} samples): {:.3} by the defaults, {:.3} by the fit",
        foresight.samples,
        foresight.defaults,
        foresight.fitted
    );
    let mut tuned = tuned;
    if args.check_games > 0 {
        let deals = args.check_games.div_ceil(plan.players as u64);
        let found = search_printing(&set, &plan, &tuned.worths, deals)?;
        let Some(check) = found.against_defaults.filter(trusted) else {
            return not_stored(folder, &set, found.against_defaults.as_ref());
        };
        out!(
            "their interval against the defaults lies above the even share {:.3}: they play better",
            check.even()
        );
        tuned.worths = found.values;
    }
    let replaced = target.is_file();
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| bad_input(format!("cannot make `{}`: {e}", dir.display())))?;
    }
    write_file(&target, &worths::text(&tuned)?)?;
    if replaced {
        out!(
            "stored in {}, in place of the values stored there before",
            target.display()
        );
    } else {
        out!("stored in {}", target.display());
    }
    Ok(())
}

/// Refuse, before the self-play, a home where the values could not be
/// stored: the folder that holds (or would hold) `target` must take a new
/// file. Nothing is left behind.
fn check_writable(target: &Path) -> Result<()> {
    // The nearest folder that exists: `tuned/`, else the home folder it
    // would be made in.
    let folder = target
        .ancestors()
        .skip(1)
        .find(|f| f.is_dir())
        .unwrap_or(Path::new("."));
    tempfile::tempfile_in(folder).map(drop).map_err(|e| {
        bad_input(format!(
            "cannot store tuned values in `{}`: {e}; give another home folder with --home",
            folder.display()
        ))
    })
}

/// Search by play ([`search`]), printing every trial as it ends, what it
/// kept and how that played against the defaults.
fn search_printing(set: &Ruleset, plan: &TunePlan, fitted: &Worths, deals: u64) -> Result<Search> {
    out!(
        "tried in play: {} weighing with the values tried in one seat, with the best values so far in the others, up to {} games each on fresh paired deals (seats rotated), stopped at one of {LOOKS} looks when not ahead; kept when winning {KEEP_MARGIN:.2} more than an even share:",
        plan.bot.label(),
        deals * plan.players as u64
    );
    let found = search(set, plan, fitted, deals, &mut |t: &Trial| {
        let kept = if t.kept { "kept" } else { "not kept" };
        out!("  {}: {} — {kept}", t.change, share_text(&t.check));
        Ok(())
    })?;
    if let Some(c) = &found.against_defaults {
        out!("the values kept:");
        print_worths(&found.values, set)?;
        out!("against the defaults, on fresh deals: {}", share_text(c));
    }
    Ok(found)
}

/// Whether the values kept played better than the defaults beyond doubt:
/// the 95% Wilson interval of their win share against them lies above the
/// even share (a share whose interval reaches it may be luck).
fn trusted(check: &Check) -> bool {
    wilson(check.share(), check.games as usize)[0] > check.even()
}

/// Why nothing is stored (`check`: how the values kept played against the
/// defaults, when some change was kept), and which values the variant
/// keeps.
fn not_stored(folder: &Path, set: &Ruleset, check: Option<&Check>) -> Result<()> {
    let why = match check {
        None => "no change won clearly enough in play to be kept".to_string(),
        Some(c) => format!(
            "against the defaults the values kept won {}: an interval that reaches the even share does not show they play better",
            share_text(c)
        ),
    };
    let before = tuned_path(folder, set.fingerprint());
    if before.exists() {
        out!(
            "not stored: {why}; the values stored before in {} stay in use",
            before.display()
        );
    } else {
        out!("not stored: {why}; the variant keeps the defaults");
    }
    Ok(())
}

/// A trial's win share with its 95% Wilson interval and the even share.
fn share_text(c: &Check) -> String {
    let [lo, hi] = wilson(c.share(), c.games as usize);
    format!(
        "win share {:.3} [{lo:.3}, {hi:.3}] (even {:.3})",
        c.share(),
        c.even()
    )
}

/// The values bots weigh with, one line each, indented.
pub fn print_worths(w: &Worths, set: &Ruleset) -> Result<()> {
    let list = |xs: &[f32]| {
        xs.iter()
            .map(|x| format!("{x:.2}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    out!("  meeple in supply (1st, 2nd, …): {}", list(&w.meeple));
    out!("  prisoner held: {:.2}", w.prisoner);
    for (k, f) in set.floors().iter().enumerate() {
        out!("  floor {} in supply: {:.2}", f.name, w.floor(k));
    }
    out!(
        "  open city completes (by open ends 1…5+): {}",
        list(&w.city_chance)
    );
    out!(
        "  cloister neighbour arrives: {:.2} − {:.3} per missing",
        w.cloister_chance,
        w.cloister_drop
    );
    out!(
        "  open feature share: {:.2}; growth per open end: road {:.2}, city {:.2}",
        w.open_share,
        w.road_growth,
        w.city_growth
    );
    out!(
        "  a capture one floor later, as a share of it: {:.2}",
        w.later_capture
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(wins: f64, games: u64, players: usize) -> Check {
        Check {
            games,
            wins,
            players,
        }
    }

    /// Shares whose interval reaches the even share are not trusted, however
    /// far above it they are (the two that were once stored among them).
    #[test]
    fn values_are_trusted_only_when_their_interval_lies_above_the_even_share() {
        assert!(!trusted(&check(101.0, 200, 2)), "0.505 of 200");
        assert!(
            !trusted(&check(111.0, 200, 2)),
            "0.555 of 200: [0.486, 0.622]"
        );
        assert!(trusted(&check(124.0, 200, 2)), "0.62 of 200");
        assert!(!trusted(&check(2.0, 2, 2)), "two of two");
        assert!(trusted(&check(90.0, 200, 3)), "0.45 of 200, even 1/3");
        assert!(!trusted(&check(75.0, 200, 3)), "0.375 of 200, even 1/3");
    }
}
