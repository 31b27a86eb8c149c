//! `towerlab tune VARIANT`: learn a variant's bot values from its self-play
//! games, check them against the defaults in play, and store them in the
//! home folder when they hold their own, where every later run finds them
//! (by the ruleset's fingerprint); print what was learned and how it
//! played.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use super::args::BudgetArgs;
use crate::analysis::arena::wilson;
use crate::play::tune::{CHECK_BOT, Check, TunePlan, check, tune};
use crate::rules::worths::{store, tuned_path};
use crate::rules::{Home, Ruleset, Worths};

#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// The variant: a name from variants/ (e.g. `black-tower`) or a path to a
    /// TOML file.
    pub variant: String,
    /// Self-play games to learn from.
    #[arg(long, default_value_t = 400, value_parser = super::numbers::games)]
    pub games: u64,
    /// The master seed of the self-play games: the same seed learns the
    /// same values.
    #[arg(long, default_value_t = 1, value_parser = super::numbers::index, allow_negative_numbers = true)]
    pub seed: u64,
    /// Players per game [default: the variant's].
    #[arg(long, value_parser = super::numbers::players)]
    pub players: Option<u8>,
    /// Games of the check: `mcts:32` weighing with the learned values in
    /// one seat against the same bot with the defaults in the others, on
    /// paired deals with the seats rotated (rounded up to whole deals); the
    /// values are stored only if they win at least an even share. 0: store
    /// them unchecked.
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = super::numbers::check_games)]
    pub check_games: u64,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

pub fn run(home: &Home, args: &TuneArgs) -> Result<()> {
    let set = Ruleset::from_variant(home, &args.variant)?;
    let plan = TunePlan {
        games: args.games,
        seed: args.seed,
        players: args.players.map_or(set.players, usize::from),
    };
    let tuned = tune(&set, &plan)?;
    out!(
        "{}: values learned from {} self-play games (seed {}, {} players)",
        set.name,
        tuned.games,
        tuned.seed,
        tuned.players
    );
    print_worths(&tuned.worths, &set)?;
    // The home folder, else the current one (a folder with `tuned/` is a
    // home folder from then on).
    let folder = home.folder().unwrap_or(Path::new("."));
    if args.check_games > 0 {
        let deals = args.check_games.div_ceil(plan.players as u64);
        let played = check(&set, &plan, &tuned.worths, CHECK_BOT, deals)?;
        print_check(&played)?;
        if !played.passed() {
            let before = tuned_path(folder, &set.fingerprint);
            if before.exists() {
                out!(
                    "not stored: they did not beat the defaults; the values stored before in {} stay in use",
                    before.display()
                );
            } else {
                out!("not stored: they did not beat the defaults, which the variant keeps");
            }
            return Ok(());
        }
    }
    let path = store(folder, &tuned)?;
    out!("stored in {}", path.display());
    Ok(())
}

/// The check's result, with its interval and the even share.
fn print_check(c: &Check) -> Result<()> {
    let [lo, hi] = wilson(c.share(), c.games as usize);
    out!(
        "check: {} weighing with them in one seat, with the defaults in the others, {} games (paired deals, seats rotated): win share {:.3} [{:.3}, {:.3}] (an even share is {:.3})",
        CHECK_BOT.label(),
        c.games,
        c.share(),
        lo,
        hi,
        1.0 / c.players as f64
    );
    Ok(())
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
    for (k, f) in set.floors.iter().enumerate() {
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
    Ok(())
}
