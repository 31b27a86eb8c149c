//! Seats in words. Words about a game mention seats as parts of a
//! [`Words`] — a seat named, a seat's, a seat doing something — and are
//! said for a reader by [`Names::say`], the one function that names a seat:
//! by the seat's name ("Ana places …"), or as "you" on the page of the seat
//! concerned ("you place …", "your meeple"). Words are built once (an
//! event is described once per game) and said for each reader.

/// Words that mention seats: text, and seats named when the words are said
/// ([`Names::say`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Words(Vec<Part>);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Text(String),
    /// The seat: "Ana", or "you".
    Seat(usize),
    /// What is the seat's: "Ana's", or "your".
    Whose(usize),
    /// What is the seat's, the seat named just before: "their", or "your".
    Their(usize),
    /// The seat doing something: "Ana places", or "you place" (the verb in
    /// the third person, then as "you" takes it).
    Does(usize, &'static str, &'static str),
}

impl Words {
    /// Words of text alone.
    pub fn text(text: impl Into<String>) -> Words {
        Words(vec![Part::Text(text.into())])
    }

    /// The words, then `text`.
    pub fn and(mut self, text: impl Into<String>) -> Words {
        let text = text.into();
        match self.0.last_mut() {
            Some(Part::Text(last)) => last.push_str(&text),
            _ => self.0.push(Part::Text(text)),
        }
        self
    }

    /// The words, then seat `p` named: "Ana", or "you".
    pub fn seat(mut self, p: usize) -> Words {
        self.0.push(Part::Seat(p));
        self
    }

    /// The words, then seat `p`'s: "Ana's", or "your".
    pub fn whose(mut self, p: usize) -> Words {
        self.0.push(Part::Whose(p));
        self
    }

    /// The words, then seat `p`'s where `p` was named just before:
    /// "their", or "your".
    pub fn their(mut self, p: usize) -> Words {
        self.0.push(Part::Their(p));
        self
    }

    /// The words, then seat `p` doing something: `does` is the verb as
    /// "Ana" takes it (`places`), `do_` as "you" does (`place`).
    pub fn does(mut self, p: usize, does: &'static str, do_: &'static str) -> Words {
        self.0.push(Part::Does(p, does, do_));
        self
    }

    /// The seats these words mention.
    pub fn seats(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().filter_map(|part| match *part {
            Part::Text(_) => None,
            Part::Seat(p) | Part::Whose(p) | Part::Their(p) | Part::Does(p, ..) => Some(p),
        })
    }
}

/// How a reader's words name the seats: each seat's name, and the seat
/// addressed as "you", if the reader plays one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names {
    names: Vec<String>,
    you: Option<usize>,
}

impl Names {
    /// Seats by these names, none addressed as "you".
    pub fn new(names: Vec<String>) -> Names {
        Names { names, you: None }
    }

    /// `players` seats numbered from 1, as pictures and reports name them:
    /// `player 1`, `player 2`, ….
    pub fn numbered(players: usize) -> Names {
        Names::new((1..=players).map(numbered).collect())
    }

    /// The same names, seat `you` addressed as "you" (none: every seat by
    /// its name).
    pub fn addressing(&self, you: Option<usize>) -> Names {
        Names {
            names: self.names.clone(),
            you,
        }
    }

    /// The seat addressed as "you".
    pub fn you(&self) -> Option<usize> {
        self.you
    }

    /// Seat `p` as words name it: its name, or "you". The one place a seat
    /// is named; a seat beyond the names is `player N`.
    pub fn name(&self, p: usize) -> String {
        if self.you == Some(p) {
            return "you".into();
        }
        self.names
            .get(p)
            .cloned()
            .unwrap_or_else(|| numbered(p + 1))
    }

    /// `words` said for this reader.
    pub fn say(&self, words: &Words) -> String {
        let mut said = String::new();
        for part in &words.0 {
            let you = |p: usize| self.you == Some(p);
            match *part {
                Part::Text(ref text) => said.push_str(text),
                Part::Seat(p) => said.push_str(&self.name(p)),
                Part::Whose(p) | Part::Their(p) if you(p) => said.push_str("your"),
                Part::Whose(p) => said.push_str(&possessive(&self.name(p))),
                Part::Their(_) => said.push_str("their"),
                Part::Does(p, _, do_) if you(p) => {
                    said.push_str("you ");
                    said.push_str(do_);
                }
                Part::Does(p, does, _) => {
                    said.push_str(&self.name(p));
                    said.push(' ');
                    said.push_str(does);
                }
            }
        }
        said
    }
}

/// Seat `n` (from 1) as unnamed seats are named.
fn numbered(n: usize) -> String {
    format!("player {n}")
}

/// `name`'s: `Ana's`, `Charles'`.
fn possessive(name: &str) -> String {
    if name.ends_with('s') || name.ends_with('S') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_name_each_seat_or_address_the_reader_as_you() {
        let words = Words::text("capture: ")
            .does(0, "takes", "take")
            .and(" ")
            .whose(1)
            .and(" meeple, then ")
            .their(0)
            .and(" own, paid by ")
            .seat(1);
        let names = Names::new(vec!["Ana".into(), "Bo".into()]);
        assert_eq!(
            names.say(&words),
            "capture: Ana takes Bo's meeple, then their own, paid by Bo"
        );
        assert_eq!(
            names.addressing(Some(0)).say(&words),
            "capture: you take Bo's meeple, then your own, paid by Bo"
        );
        assert_eq!(
            names.addressing(Some(1)).say(&words),
            "capture: Ana takes your meeple, then their own, paid by you"
        );
        assert_eq!(
            Names::numbered(2).say(&words),
            "capture: player 1 takes player 2's meeple, then their own, paid by player 2"
        );
        assert_eq!(words.seats().collect::<Vec<_>>(), [0, 1, 0, 1]);
        let james = Names::new(vec!["James".into()]);
        assert_eq!(james.say(&Words::default().whose(0)), "James'");
    }
}
