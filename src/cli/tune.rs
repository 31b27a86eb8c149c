//! `towerlab tune VARIANT`: learn a variant's bot values from its self-play
//! games and store them in the home folder, where every later run finds
//! them (by the ruleset's fingerprint); print what was learned.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use super::args::BudgetArgs;
use crate::play::tune::{TunePlan, tune};
use crate::rules::worths::store;
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
    // The home folder, else the current one (a folder with `tuned/` is a
    // home folder from then on).
    let folder = home.folder().unwrap_or(Path::new("."));
    let path = store(folder, &tuned)?;
    out!(
        "{}: values learned from {} self-play games (seed {}, {} players)",
        set.name,
        tuned.games,
        tuned.seed,
        tuned.players
    );
    print_worths(&tuned.worths, &set)?;
    out!("stored in {}", path.display());
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
