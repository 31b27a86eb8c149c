//! Whole numbers on the command line: each option's parser says the range it
//! allows ("at least 1", "from 2 to 8") for a value out of it, a negative one
//! or one that is not a number, instead of the type's bounds.

use crate::kernel::{MAX_PLAYERS, MIN_PLAYERS};

/// `text` as a whole number from `min` to `max`; else what is allowed.
fn whole(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let allowed = if max == u64::MAX {
        format!("a whole number, at least {min}")
    } else {
        format!("a whole number from {min} to {max}")
    };
    match text.trim().parse::<i128>() {
        Ok(n) if n >= i128::from(min) && n <= i128::from(max) => Ok(n as u64),
        Ok(_) => Err(format!("out of range: give {allowed}")),
        Err(_) => Err(format!("not a whole number: give {allowed}")),
    }
}

/// The most games a run may be asked for (per variant, per value, per
/// level): a run keeps each game's result, about a kilobyte, in memory, so
/// a million is about a gigabyte; more is asked of a cluster in shards.
pub const MAX_GAMES: u64 = 1_000_000;

/// The most self-play games `tune` learns from: each leaves about 180
/// samples in memory.
pub const MAX_TUNE_GAMES: u64 = 100_000;

/// A number of games: 1 to [`MAX_GAMES`].
pub fn games(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_GAMES)
}

/// A number of self-play games for `tune`: 1 to [`MAX_TUNE_GAMES`].
pub fn tune_games(text: &str) -> Result<u64, String> {
    whole(text, 1, MAX_TUNE_GAMES)
}

/// A width in columns: at least 40.
pub fn width(text: &str) -> Result<u16, String> {
    whole(text, 40, u64::from(u16::MAX)).map(|n| n as u16)
}

/// Games per variant in the report's viewer: 1 to 200.
pub fn viewer_games(text: &str) -> Result<u64, String> {
    whole(text, 1, 200)
}

/// A per-game hook budget (`--hook-budget`): at least 1,000 operations.
pub fn hook_budget(text: &str) -> Result<u64, String> {
    whole(text, 1_000, u64::MAX)
}

/// A number of test games (`check`, `tune --check-games`): 0 to 100,000.
pub fn check_games(text: &str) -> Result<u64, String> {
    whole(text, 0, 100_000)
}

/// A seed, a game index: 0 or more.
pub fn index(text: &str) -> Result<u64, String> {
    whole(text, 0, u64::MAX)
}

/// A turn: 0 or more.
pub fn turn(text: &str) -> Result<u32, String> {
    whole(text, 0, u64::from(u32::MAX)).map(|n| n as u32)
}

/// A number of players: 2 to 8 (the kernel's bounds).
pub fn players(text: &str) -> Result<u8, String> {
    whole(text, MIN_PLAYERS as u64, MAX_PLAYERS as u64).map(|n| n as u8)
}

/// A port to listen on: 0 (any free port) to 65535.
pub fn port(text: &str) -> Result<u16, String> {
    whole(text, 0, u64::from(u16::MAX)).map(|n| n as u16)
}

/// A search budget in iterations (`serve --max-budget`, `--hint-budget`):
/// at least 1.
pub fn budget(text: &str) -> Result<u32, String> {
    whole(text, 1, u64::from(u32::MAX)).map(|n| n as u32)
}

/// Games a server holds open at once: 1 to 4,096.
pub fn open_games(text: &str) -> Result<u32, String> {
    whole(text, 1, 4096).map(|n| n as u32)
}

/// Connections a server holds open at once: 1 to 65,536.
pub fn connections(text: &str) -> Result<u32, String> {
    whole(text, 1, 65_536).map(|n| n as u32)
}

/// A number of worker threads: 1 to 256.
pub fn threads(text: &str) -> Result<u16, String> {
    whole(text, 1, 256).map(|n| n as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_out_of_range_says_the_range_without_the_types_bounds() {
        assert_eq!(games("3"), Ok(3));
        assert_eq!(
            index("-1").unwrap_err(),
            "out of range: give a whole number, at least 0"
        );
        assert_eq!(
            players("-5").unwrap_err(),
            "out of range: give a whole number from 2 to 8"
        );
        assert_eq!(
            threads("many").unwrap_err(),
            "not a whole number: give a whole number from 1 to 256"
        );
        assert_eq!(index("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(games("1000000"), Ok(MAX_GAMES));
        assert_eq!(
            games("18446744073709551615").unwrap_err(),
            "out of range: give a whole number from 1 to 1000000"
        );
        assert!(tune_games("100001").is_err());
        assert!(index("18446744073709551616").is_err());
    }
}
