//! Who may act in a game. Each person seat has a secret key, made when the
//! game is made and given only to its maker, who passes each seat's link
//! to the person who plays it: answering a seat's question needs that
//! seat's key, stepping a bot's turn needs the key of any person seat (none
//! when every seat is a bot's), and whoever has only the game's id can
//! watch, never act. The maker also gets a key of their own, which gives a
//! seat a new key (the old one stops working: a link given to the wrong
//! person is taken back). Keys, game ids and random deals come from the
//! operating system's CSPRNG; keys are compared in constant time. Seats
//! have names, shown to everyone ("waiting for Ana (seat 2)").

use subtle::ConstantTimeEq;

use super::ApiError;
use super::wire::SeatKey;
use crate::play::session::Seat;
use crate::play::words::Names;

/// A key's random bytes (128 bits: never guessed).
const KEY_BYTES: usize = 16;

/// A seat's name, at most this many characters.
pub const MAX_NAME: usize = 32;

/// Keys the maker replaced, remembered so that their links say so: at most
/// this many, the oldest forgotten first.
const REPLACED: usize = 64;

/// A game's seats as people know them: names, keys, and whether hints are
/// on.
#[derive(Clone)]
pub struct Seating {
    names: Vec<String>,
    /// The key of each person seat (`None` for a bot's).
    keys: Vec<Option<String>>,
    /// Keys the maker replaced, with their seats, oldest first.
    replaced: Vec<(usize, String)>,
    /// The key of the game's maker, who may give seats new keys.
    maker: String,
    hints: bool,
}

/// A random deal's seed: below 2^53, which a page's numbers hold exactly,
/// so that no one rebuilds the order of the tiles by trying every seed.
pub const SEED_BITS: u32 = 53;

/// `bytes` random bytes from the operating system.
fn random_bytes(bytes: usize) -> Result<Vec<u8>, ApiError> {
    let mut raw = vec![0u8; bytes];
    getrandom::fill(&mut raw).map_err(|e| {
        ApiError::new(
            503,
            format!("the system's random source failed ({e}): try again"),
        )
    })?;
    Ok(raw)
}

/// `bytes` random bytes from the operating system, in hex.
pub fn random_hex(bytes: usize) -> Result<String, ApiError> {
    Ok(random_bytes(bytes)?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// A random deal from the operating system, below 2^[`SEED_BITS`].
pub fn random_seed() -> Result<u64, ApiError> {
    let raw: [u8; 8] = random_bytes(8)?.try_into().unwrap_or_default();
    Ok(u64::from_le_bytes(raw) >> (64 - SEED_BITS))
}

impl Seating {
    /// The seating of a new game: `names` (one per seat; an empty one, or
    /// none at all, is `player N`), a fresh key per person seat.
    pub fn new(seats: &[Seat], names: Option<&[String]>, hints: bool) -> Result<Seating, ApiError> {
        let names = seat_names(seats.len(), names)?;
        let keys = seats
            .iter()
            .map(|s| match s {
                Seat::Person => random_hex(KEY_BYTES).map(Some),
                Seat::Bot(_) => Ok(None),
            })
            .collect::<Result<_, _>>()?;
        let maker = random_hex(KEY_BYTES)?;
        Ok(Seating {
            names,
            keys,
            replaced: Vec::new(),
            maker,
            hints,
        })
    }

    /// The maker's key, for the game's maker.
    pub fn maker_key(&self) -> &str {
        &self.maker
    }

    /// A new key for `seat` (counted from 0), asked with the maker's key;
    /// the seat's old key stops working.
    pub fn reissue(&mut self, seat: usize, maker: &str) -> Result<SeatKey, ApiError> {
        if !bool::from(self.maker.as_bytes().ct_eq(maker.as_bytes())) {
            return Err(ApiError::new(
                403,
                "only the game's maker gives a seat a new key: this is not the maker's key",
            ));
        }
        let Some(slot) = self.keys.get_mut(seat) else {
            return Err(ApiError::new(
                400,
                format!(
                    "the game has seats 0 to {} (counted from 0): there is no seat {seat}",
                    self.names.len() - 1
                ),
            ));
        };
        if slot.is_none() {
            return Err(ApiError::new(
                400,
                format!(
                    "{} is a bot's seat: only a person's seat has a key",
                    self.names[seat]
                ),
            ));
        }
        let key = random_hex(KEY_BYTES)?;
        if let Some(old) = slot.replace(key.clone()) {
            if self.replaced.len() >= REPLACED {
                self.replaced.remove(0);
            }
            self.replaced.push((seat, old));
        }
        Ok(SeatKey { seat, key })
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// How words name the seats for a reader: by their names, seat `you`
    /// as "you".
    pub fn words_for(&self, you: Option<usize>) -> Names {
        Names::new(self.names.clone()).addressing(you)
    }

    pub fn hints(&self) -> bool {
        self.hints
    }

    /// The person seats' keys, for the game's maker.
    pub fn keys(&self) -> Vec<SeatKey> {
        self.keys
            .iter()
            .enumerate()
            .filter_map(|(seat, k)| {
                k.as_ref().map(|key| SeatKey {
                    seat,
                    key: key.clone(),
                })
            })
            .collect()
    }

    /// `seat` as messages name it: `Ana (seat 2)`.
    pub fn who(&self, seat: usize) -> String {
        format!("{} (seat {})", self.names[seat], seat + 1)
    }

    /// The seat whose key `key` is, every key compared in constant time;
    /// a 403 for no key or a key of no seat of this game.
    pub fn seat_of(&self, key: Option<&str>) -> Result<usize, ApiError> {
        let Some(key) = key else {
            return Err(ApiError::new(
                403,
                "no `key`: acting in a game needs the key of a seat, from the seat's link (a watcher cannot act)",
            ));
        };
        let mut found = None;
        for (seat, k) in self.keys.iter().enumerate() {
            if let Some(k) = k
                && bool::from(k.as_bytes().ct_eq(key.as_bytes()))
            {
                found = Some(seat);
            }
        }
        found.ok_or_else(|| self.not_a_seat(key))
    }

    /// Why `key` opens no seat: the maker replaced it (its seat named), or
    /// it never was one of this game's.
    fn not_a_seat(&self, key: &str) -> ApiError {
        let replaced = self
            .replaced
            .iter()
            .rev()
            .find(|(_, old)| bool::from(old.as_bytes().ct_eq(key.as_bytes())));
        let message = match replaced {
            Some(&(seat, _)) => format!(
                "this link no longer works: the game's maker gave {} a new link; ask them for it",
                self.who(seat)
            ),
            None => "this key is no seat's key in this game: check that the link was copied whole, or ask the game's maker for your seat's link".to_string(),
        };
        ApiError::new(403, message)
    }

    /// `key` must be `seat`'s: only its person answers its questions.
    pub fn check(&self, seat: usize, key: Option<&str>) -> Result<(), ApiError> {
        let holder = self.seat_of(key)?;
        if holder == seat {
            return Ok(());
        }
        Err(ApiError::new(
            403,
            format!(
                "the key is {}'s: only {} decides now",
                self.who(holder),
                self.who(seat)
            ),
        ))
    }

    /// `key` must be some person seat's, unless the game has none; the
    /// key's seat.
    pub fn check_player(&self, key: Option<&str>) -> Result<Option<usize>, ApiError> {
        if self.keys.iter().all(Option::is_none) {
            return Ok(None);
        }
        self.seat_of(key).map(Some)
    }
}

/// The seats' names: one per seat or none; each of printable characters,
/// at most [`MAX_NAME`]; an empty one is `player N`.
pub(super) fn seat_names(seats: usize, names: Option<&[String]>) -> Result<Vec<String>, ApiError> {
    let bad = |m: String| ApiError::new(400, m);
    let given = names.unwrap_or_default();
    if names.is_some() && given.len() != seats {
        return Err(bad(format!(
            "{} names for {seats} seats: give one name per seat (an empty one is `player N`)",
            given.len()
        )));
    }
    let names: Vec<String> = (0..seats)
        .map(|i| {
            let name = given.get(i).map_or("", |n| n.trim());
            if name.chars().count() > MAX_NAME {
                return Err(bad(format!(
                    "seat {}'s name is longer than {MAX_NAME} characters",
                    i + 1
                )));
            }
            if name.chars().any(char::is_control) {
                return Err(bad(format!(
                    "seat {}'s name has a control character",
                    i + 1
                )));
            }
            if name.eq_ignore_ascii_case("you") {
                return Err(bad(format!(
                    "seat {}'s name is \"{name}\", which is how the page speaks to each person: give it another",
                    i + 1
                )));
            }
            Ok(if name.is_empty() {
                format!("player {}", i + 1)
            } else {
                name.to_string()
            })
        })
        .collect::<Result<_, _>>()?;
    unique(&names).map_err(bad)?;
    Ok(names)
}

/// Each seat's name is its own (letter case aside), so that words name one
/// seat by it.
fn unique(names: &[String]) -> Result<(), String> {
    for (i, name) in names.iter().enumerate() {
        if let Some(j) = names[..i]
            .iter()
            .position(|n| n.to_lowercase() == name.to_lowercase())
        {
            return Err(format!(
                "seats {} and {} are both named \"{name}\": give each seat its own name",
                j + 1,
                i + 1
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::bots::BotKind;

    #[test]
    fn keys_are_random_and_each_opens_its_own_seat_only() {
        let seats = [Seat::Person, Seat::Bot(BotKind::GREEDY), Seat::Person];
        let a = Seating::new(&seats, None, true).unwrap();
        let b = Seating::new(&seats, None, true).unwrap();
        let keys = a.keys();
        assert_eq!(keys.iter().map(|k| k.seat).collect::<Vec<_>>(), [0, 2]);
        assert_eq!(keys[0].key.len(), 2 * KEY_BYTES);
        assert_ne!(keys[0].key, keys[1].key);
        assert_ne!(keys[0].key, b.keys()[0].key);
        assert_eq!(a.seat_of(Some(&keys[1].key)), Ok(2));
        assert!(a.check(0, Some(&keys[0].key)).is_ok());
        assert_eq!(a.check(0, Some(&keys[1].key)).unwrap_err().status, 403);
        assert_eq!(a.check(0, Some(&b.keys()[0].key)).unwrap_err().status, 403);
        assert_eq!(a.check_player(None).unwrap_err().status, 403);
        let bots = Seating::new(&[Seat::Bot(BotKind::RANDOM); 2], None, true).unwrap();
        assert!(bots.check_player(None).is_ok());
    }

    #[test]
    fn the_maker_gives_a_seat_a_new_key_and_the_old_one_stops_working() {
        let seats = [Seat::Person, Seat::Bot(BotKind::GREEDY), Seat::Person];
        let mut a = Seating::new(&seats, None, true).unwrap();
        let old = a.keys()[1].key.clone();
        let maker = a.maker_key().to_string();
        assert_ne!(maker, old);
        assert_eq!(a.reissue(2, &old).unwrap_err().status, 403);
        assert_eq!(a.reissue(1, &maker).unwrap_err().status, 400);
        assert_eq!(a.reissue(3, &maker).unwrap_err().status, 400);
        let new = a.reissue(2, &maker).unwrap();
        assert_eq!(new.seat, 2);
        assert_ne!(new.key, old);
        let refused = a.seat_of(Some(&old)).unwrap_err();
        assert_eq!(refused.status, 403);
        assert!(
            refused.message.contains("no longer works")
                && refused.message.contains("player 3 (seat 3)"),
            "{}",
            refused.message
        );
        let unknown = a.seat_of(Some("0123")).unwrap_err().message;
        assert!(unknown.contains("no seat's key"), "{unknown}");
        assert_eq!(a.seat_of(Some(&new.key)), Ok(2));
    }

    #[test]
    fn random_deals_use_53_bits() {
        let seeds: Vec<u64> = (0..64).map(|_| random_seed().unwrap()).collect();
        assert!(seeds.iter().all(|&s| s < 1 << SEED_BITS));
        // 64 draws below 2^52 would happen once in 2^64 runs.
        assert!(seeds.iter().any(|&s| s >= 1 << (SEED_BITS - 1)));
    }

    #[test]
    fn names_default_to_the_seat_and_are_bounded() {
        let seats = [Seat::Person; 2];
        let named = |names: &[&str]| {
            let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            Seating::new(&seats, Some(&names), true).map(|s| s.names().to_vec())
        };
        assert_eq!(named(&[" Ana ", ""]).unwrap(), ["Ana", "player 2"]);
        assert_eq!(named(&["Ana"]).unwrap_err().status, 400);
        assert_eq!(named(&["Ana", &"x".repeat(33)]).unwrap_err().status, 400);
        assert_eq!(named(&["A\u{7}", "B"]).unwrap_err().status, 400);
        let twice = named(&["Ana", "ana"]).unwrap_err().message;
        assert!(
            twice.contains("seats 1 and 2 are both named \"ana\""),
            "{twice}"
        );
        assert_eq!(named(&["", "player 1"]).unwrap_err().status, 400);
        assert_eq!(named(&["You", "Bo"]).unwrap_err().status, 400);
    }
}
