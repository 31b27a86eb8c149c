//! Stars that mean what they say: every paired difference of a run gets a
//! p-value, and the p-values of all the run's differences (every metric of
//! every variant against the baseline, and of every level of a ladder; the
//! `--by-kind` metrics form a family of their own) are adjusted together
//! by Holm's step-down method, which keeps the chance of
//! starring any difference that is really 0 under 5% whatever the
//! dependence between the metrics (scores, wins and captures move
//! together). A difference *survives* when its adjusted p-value is under
//! 0.05; its raw 95% interval is kept as it is.
//!
//! A difference's p-value is the two-sided normal one its interval implies:
//! z = mean / se, where se is the interval's half-width on the side of 0
//! divided by 1.96. For the normal-approximation intervals that is the
//! usual z-test; for balance's bootstrap interval, its normal reading. So
//! the raw interval excludes 0 exactly when the raw p-value is under 0.05.

use crate::analysis::stats;

/// The error rate the stars keep to.
pub const ALPHA: f64 = 0.05;

/// The name of the adjustment, as outputs give it.
pub const METHOD: &str = "holm";

/// The two-sided p-value of a difference whose mean is `mean` and whose
/// 95% interval is `ci`: 1 for a difference of exactly 0 with no spread,
/// 0 for a nonzero one with none.
pub fn p_value(mean: f64, ci: [f64; 2]) -> f64 {
    if mean.is_nan() || ci.iter().any(|c| c.is_nan()) {
        return 1.0;
    }
    let toward_zero = if mean >= 0.0 {
        mean - ci[0]
    } else {
        ci[1] - mean
    };
    let se = toward_zero.max(0.0) / stats::Z95;
    if se == 0.0 {
        return if mean == 0.0 { 1.0 } else { 0.0 };
    }
    let z = (mean / se).abs();
    libm::erfc(z / std::f64::consts::SQRT_2).clamp(0.0, 1.0)
}

/// Holm's adjusted p-values of `p`, in the same order: the i-th smallest
/// is multiplied by (m - i + 1), and each kept at least as large as the
/// ones before it (and at most 1).
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]).then(a.cmp(&b)));
    let mut adjusted = vec![1.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_just_touching_zero_has_a_p_of_five_percent() {
        let p = p_value(1.96, [0.0, 3.92]);
        assert!((p - 0.05).abs() < 1e-4, "{p}");
        assert!(p_value(2.0, [0.1, 3.9]) < 0.05);
        assert!(p_value(-2.0, [-3.9, 0.1]) > 0.05);
        assert_eq!(p_value(0.0, [0.0, 0.0]), 1.0);
        assert_eq!(p_value(0.5, [0.5, 0.5]), 0.0);
    }

    #[test]
    fn holm_multiplies_by_the_hypotheses_left_and_never_decreases() {
        let adj = holm(&[0.01, 0.04, 0.03, 0.005]);
        // Sorted: 0.005×4 = 0.02, 0.01×3 = 0.03, 0.03×2 = 0.06, 0.04×1 →
        // kept at 0.06.
        let want = [0.03, 0.06, 0.06, 0.02];
        for (a, w) in adj.iter().zip(want) {
            assert!((a - w).abs() < 1e-12, "{adj:?}");
        }
        assert_eq!(holm(&[0.5, 0.9]), vec![1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }
}
