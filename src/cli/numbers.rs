//! Whole numbers on the command line: each option's parser says the range it
//! allows ("at least 1", "from 2 to 6") for a value out of it, a negative one
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

/// A number of games: at least 1.
pub fn games(text: &str) -> Result<u64, String> {
    whole(text, 1, u64::MAX)
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

/// A number of players: 2 to 6 (the kernel's bounds).
pub fn players(text: &str) -> Result<u8, String> {
    whole(text, MIN_PLAYERS as u64, MAX_PLAYERS as u64).map(|n| n as u8)
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
            games("0").unwrap_err(),
            "out of range: give a whole number, at least 1"
        );
        assert_eq!(
            players("-5").unwrap_err(),
            "out of range: give a whole number from 2 to 6"
        );
        assert_eq!(
            threads("many").unwrap_err(),
            "not a whole number: give a whole number from 1 to 256"
        );
        assert_eq!(index("18446744073709551615"), Ok(u64::MAX));
        assert!(index("18446744073709551616").is_err());
    }
}
