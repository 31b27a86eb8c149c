//! Estimates as tables print them: numbers with two decimals or two
//! significant digits, means and differences with their intervals, and
//! the note that says why a value has none.

use super::interval::Thin;

/// A number as a table prints it: two decimals, or two significant digits
/// where two decimals would show a value other than 0 as 0.00.
pub fn number(x: f64) -> String {
    // Below a millionth a value is taken for the rounding of a sum.
    if x.abs() < 1e-6 {
        return "0.00".to_string();
    }
    if x.abs() < 0.005 && x.is_finite() {
        let digits = (-x.abs().log10()).ceil() as usize + 1;
        format!("{x:.digits$}")
    } else {
        format!("{x:.2}")
    }
}

/// [`number`] with its sign.
pub fn signed(x: f64) -> String {
    let n = number(x);
    if n.starts_with('-') {
        n
    } else {
        format!("+{n}")
    }
}

/// A mean and its 95% interval — as ± its half-width when the interval is
/// centred on the mean, else as its ends (an interval kept within the
/// values a metric may take, or the bound of a sample with no spread) — or
/// the mean and "no CI" when the sample is too thin for an interval.
pub fn mean_text(mean: f64, ci: [f64; 2], thin: Option<Thin>) -> String {
    let half = (ci[1] - ci[0]) / 2.0;
    let centred = ((ci[0] + ci[1]) / 2.0 - mean).abs() <= 1e-9 * mean.abs().max(1.0);
    match thin {
        Some(_) => format!("{} (no CI)", number(mean)),
        None if centred && half > 0.0 => format!("{} ± {}", number(mean), number(half)),
        None => format!("{} [{}, {}]", number(mean), number(ci[0]), number(ci[1])),
    }
}

/// A difference and its 95% interval, starred when it survives the run's
/// adjustment, or the difference and "no CI" when the sample is too thin
/// for an interval.
pub fn diff_text(mean: f64, ci: [f64; 2], significant: bool, thin: Option<Thin>) -> String {
    match thin {
        Some(_) => format!("{} (no CI)", signed(mean)),
        None => format!(
            "{} [{}, {}]{}",
            signed(mean),
            signed(ci[0]),
            signed(ci[1]),
            if significant { " *" } else { "" }
        ),
    }
}

/// The line under a table that says why some values have no interval
/// (each reason once), if any has none.
pub fn thin_note(thins: impl IntoIterator<Item = Option<Thin>>) -> Option<String> {
    let mut reasons: Vec<&str> = Vec::new();
    for t in thins.into_iter().flatten() {
        if !reasons.contains(&t.reason()) {
            reasons.push(t.reason());
        }
    }
    (!reasons.is_empty()).then(|| format!("no CI: {}", reasons.join("; ")))
}
