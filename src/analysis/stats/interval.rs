//! A mean and its 95% interval ([`Estimate`]), and how it is drawn from
//! games: Student's t and the sign test, the bound of a sample with no
//! spread, kept within the values a metric may take ([`Scale`]); and the
//! games a difference takes to detect.

use super::{glossary, student};

/// z for a two-sided 95% interval: the normal limit of Student's t, for
/// Wilson intervals, bootstrap readings and game-count estimates.
pub const Z95: f64 = 1.959_963_984_540_054;
/// The fewest games for balance's bootstrap interval, and before
/// `--precision` may stop (its confidence sequence is asymptotic).
pub const MIN_SAMPLE: usize = 30;

/// A mean with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Estimate {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
    /// Standard deviation of the per-game values (of the paired differences
    /// for a difference; for a bootstrap, its standard error times √games).
    pub sd: f64,
    /// Why there is no interval (`low` and `high` are then the mean).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thin: Option<Thin>,
    /// The two-sided p-value of a mean of 0 (of no difference): Student's t
    /// test, the exact bound of a sample with no spread, or the normal
    /// reading of a bootstrap interval; 1 without an interval.
    #[serde(skip)]
    pub p: f64,
}

/// Why a sample is too thin for an interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Thin {
    /// Fewer than two games: no spread to measure.
    #[serde(rename = "fewer than 2 games")]
    OneGame,
    /// Every game gave the same value, in fewer than [`MIN_SAMPLE`] games
    /// (what earlier versions said; a sample with no spread now has the
    /// interval its game count allows).
    #[serde(rename = "no spread in fewer than 30 games")]
    NoSpread,
    /// A property of a set of games (balance) from fewer than
    /// [`MIN_SAMPLE`] games: too few for its bootstrap to be trusted.
    #[serde(rename = "fewer than 30 games for a bootstrap")]
    Bootstrap,
}

impl Thin {
    /// Why, in words, for a note under a table.
    pub fn reason(self) -> &'static str {
        match self {
            Thin::OneGame => "fewer than 2 games: no spread to measure",
            Thin::NoSpread => {
                "every game gave the same value, in fewer than 30 games: too few to show that it does not vary"
            }
            Thin::Bootstrap => "balance from fewer than 30 games: too few for its bootstrap",
        }
    }
}

impl Estimate {
    /// A value with no interval, for the reason `thin`.
    pub fn point(mean: f64, thin: Thin) -> Estimate {
        Estimate {
            mean,
            low: mean,
            high: mean,
            sd: 0.0,
            thin: Some(thin),
            p: 1.0,
        }
    }

    /// A value and its interval as given (to draw it), with no test of 0.
    pub fn drawn(mean: f64, ci: [f64; 2], thin: Option<Thin>) -> Estimate {
        Estimate {
            mean,
            low: ci[0],
            high: ci[1],
            sd: 0.0,
            thin,
            p: 1.0,
        }
    }

    /// True when the interval excludes 0 (never for a value with no
    /// interval).
    pub fn excludes_zero(&self) -> bool {
        self.thin.is_none() && (self.low > 0.0 || self.high < 0.0)
    }

    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// What one game may give a metric beyond the games at hand: the bounds
/// its values keep to, and how far a game unlike the others is taken to lie
/// when every game so far gave the same value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// A share: each game's value lies in [0, 1] (a difference's in
    /// [−1, 1]). Every other metric counts something, so never goes below 0.
    pub share: bool,
    /// The largest gap between two games' values the run shows, over every
    /// variant, and at least 1 (one point, one meeple, a whole share).
    pub unit: f64,
}

impl Scale {
    /// A quantity of unknown bounds, one unit wide: what a plain
    /// [`estimate`] assumes.
    pub const PLAIN: Scale = Scale {
        share: false,
        unit: 1.0,
    };

    /// The scale of metric `name` whose values over a run's games are
    /// `columns` (one per variant).
    pub fn of<'a>(name: &str, columns: impl IntoIterator<Item = &'a [f64]>) -> Scale {
        let share = glossary::is_share(name);
        let (mut low, mut high) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in columns.into_iter().flatten() {
            low = low.min(*v);
            high = high.max(*v);
        }
        let seen = if high >= low { high - low } else { 0.0 };
        Scale {
            share,
            unit: if share { 1.0 } else { seen.max(1.0) },
        }
    }
}

/// What an interval is computed from: a sample's size, mean and spread,
/// and for few games the signs of its values.
struct Sample {
    n: usize,
    mean: f64,
    sd: f64,
    /// Values above 0 and below 0.
    signs: (u32, u32),
}

impl Sample {
    fn of(values: &[f64]) -> Sample {
        let n = values.len();
        let mean = values.iter().sum::<f64>() / n.max(1) as f64;
        let var = if n > 1 {
            values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let count = |f: fn(&f64) -> bool| values.iter().filter(|v| f(v)).count() as u32;
        Sample {
            n,
            mean,
            sd: var.sqrt(),
            signs: (count(|v| *v > 0.0), count(|v| *v < 0.0)),
        }
    }

    /// Student's t interval and test; or, when every value is the same,
    /// the bound its count of games allows, a game unlike the others lying
    /// in `unlike` ([`alike`]). Below [`MIN_SAMPLE`] games the test is also
    /// the exact sign test, and its p-value the larger of the two.
    fn estimate(&self, unlike: [f64; 2]) -> Estimate {
        if self.n < 2 {
            return Estimate::point(self.mean, Thin::OneGame);
        }
        if self.sd == 0.0 {
            return alike(self.mean, self.n, unlike);
        }
        let df = (self.n - 1) as f64;
        let se = self.sd / (self.n as f64).sqrt();
        let half = student::critical(ALPHA, df) * se;
        let mut p = student::p_two_sided(self.mean / se, df);
        if self.n < MIN_SAMPLE {
            p = p.max(sign_test(self.signs.0, self.signs.1));
        }
        Estimate {
            mean: self.mean,
            low: self.mean - half,
            high: self.mean + half,
            sd: self.sd,
            thin: None,
            p,
        }
    }
}

/// The exact two-sided sign test of `above` values above 0 and `below`
/// below it: the chance, were each as likely to fall either side, of a
/// split at least as uneven. Student's t leans on a mean of few games being
/// near normal, which few games of a skewed count (a rare ransom, a
/// capture) are not; the sign test assumes only that a difference of 0 is
/// as likely positive as negative.
pub fn sign_test(above: u32, below: u32) -> f64 {
    let k = above + below;
    let most = above.max(below);
    // P(X >= most) for X ~ Binomial(k, 1/2), term by term.
    let mut term = 0.5f64.powi(k as i32);
    let mut tail = 0.0;
    for i in 0..=k {
        if i >= most {
            tail += term;
        }
        term *= f64::from(k - i) / f64::from(i + 1);
    }
    (2.0 * tail).min(1.0)
}

/// The error rate of every interval: 95% intervals.
pub const ALPHA: f64 = 0.05;

/// The largest share of games that may differ from `n` games that all
/// agreed, at 95%: 1 − 0.05^(1/n), about 3/n (the "rule of three").
pub fn unseen_share(n: usize) -> f64 {
    1.0 - ALPHA.powf(1.0 / n.max(1) as f64)
}

/// `n` games that all gave `value`: the true mean lies between what a
/// share [`unseen_share`] of games at `unlike`'s ends would make of it. Its
/// test of 0 is exact: the chance that `n` games agree on `value` when the
/// mean is 0 is at most (1 − |value| / its distance to the far end)^n.
/// The bound holds however early a sequence of looks stops, as the event
/// "every game so far agreed" only shrinks as games come.
pub(super) fn alike(value: f64, n: usize, unlike: [f64; 2]) -> Estimate {
    let q = unseen_share(n);
    let p = if value == 0.0 {
        1.0
    } else {
        let far = if value > 0.0 { unlike[0] } else { unlike[1] };
        let against = value.abs() / (value - far).abs();
        if far * value < 0.0 {
            (1.0 - against).max(0.0).powi(n as i32)
        } else {
            0.0
        }
    };
    Estimate {
        mean: value,
        low: value + q * (unlike[0] - value).min(0.0),
        high: value + q * (unlike[1] - value).max(0.0),
        sd: 0.0,
        thin: None,
        p,
    }
}

/// Keep an estimate's interval within `[low, high]`, where its quantity
/// lives (an interval clipped to the possible values covers as often).
pub(super) fn clipped(mut e: Estimate, low: f64, high: f64) -> Estimate {
    if e.thin.is_none() {
        e.low = e.low.max(low);
        e.high = e.high.min(high);
    }
    e
}

/// Mean and 95% interval (Student's t) of `values`, a quantity of unknown
/// bounds; a sample with no spread has the bound its count allows, a value
/// unlike the others taken to lie one unit away.
pub fn estimate(values: &[f64]) -> Estimate {
    let s = Sample::of(values);
    s.estimate([s.mean - 1.0, s.mean + 1.0])
}

/// Mean and 95% interval of a metric's `values`, kept within the values the
/// metric may take (0 and up; at most 1 for a share).
pub fn mean_in(values: &[f64], scale: Scale) -> Estimate {
    let s = Sample::of(values);
    let top = if scale.share { 1.0 } else { f64::INFINITY };
    let unlike = [
        (s.mean - scale.unit).max(0.0),
        (s.mean + scale.unit).min(top),
    ];
    clipped(s.estimate(unlike), 0.0, top)
}

/// The paired difference `b − a`, game by game, of a metric whose games
/// gave `a` and `b`: mean, 95% interval and test of 0. With no spread, a
/// game that differs is taken to differ by up to the scale's unit either way.
pub fn difference(a: &[f64], b: &[f64], scale: Scale) -> Estimate {
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| y - x).collect();
    let s = Sample::of(&d);
    let e = s.estimate([-scale.unit, scale.unit]);
    if scale.share {
        clipped(e, -1.0, 1.0)
    } else {
        e
    }
}

/// Games needed for a paired comparison to detect a true difference `delta`
/// with 95% confidence and 80% power, given the paired differences' sd.
pub fn games_to_detect(delta: f64, paired_sd: f64) -> u64 {
    const Z80: f64 = 0.841_621_233_572_914;
    if delta <= 0.0 {
        return u64::MAX;
    }
    (((Z95 + Z80) * paired_sd / delta).powi(2)).ceil() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_of_known_values() {
        let e = estimate(&[1.0, 2.0, 3.0, 4.0]);
        assert!((e.mean - 2.5).abs() < 1e-12);
        let sd = (5.0f64 / 3.0).sqrt();
        assert!((e.sd - sd).abs() < 1e-12);
        // Student's t with 3 degrees of freedom: 3.1824.
        assert!((e.half_width() - 3.182_446 * sd / 2.0).abs() < 1e-5);
        // t = 3.87 (p 0.03), but over 4 games the sign test's 2/16 decides.
        assert!((e.p - 0.125).abs() < 1e-12, "{}", e.p);
    }

    #[test]
    fn detecting_two_points_with_sd_ten_takes_about_two_hundred_games() {
        // (1.96 + 0.84)^2 * 10^2 / 2^2 = 196.2
        assert_eq!(games_to_detect(2.0, 10.0), 197);
    }
}
