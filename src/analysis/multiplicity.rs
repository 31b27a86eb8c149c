//! Stars that mean what they say: every paired difference of a run has a
//! p-value, and the p-values of all the run's differences — every metric of
//! every variant against the baseline, at every level of a ladder, with the
//! `--by-kind` metrics when asked for: one family — are adjusted together
//! by Holm's step-down method, which keeps the chance of starring any
//! difference that is really 0 under 5% whatever the dependence between
//! the metrics (scores, wins and captures move together). A difference
//! *survives* when its raw interval excludes 0 and its adjusted p-value is
//! under 0.05; its raw 95% interval is kept as it is.
//!
//! A difference's p-value is its own test's ([`crate::analysis::stats`]):
//! Student's t (with the exact sign test below 30 games), the exact bound
//! of differences that all agree, or balance's bootstrap read as normal.

/// The error rate the stars keep to.
pub const ALPHA: f64 = 0.05;

/// The name of the adjustment, as outputs give it.
pub const METHOD: &str = "holm";

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
