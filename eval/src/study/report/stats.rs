//! The statistics of the report: the Wilson interval of a rate, Newcombe's interval of a
//! difference of two rates, and the median.

/// The 95% Wilson score interval of `successes` out of `runs`.
pub(super) fn wilson(successes: u32, runs: u32) -> (f64, f64) {
    if runs == 0 {
        return (0.0, 0.0);
    }
    let z: f64 = 1.959_963_984_540_054;
    let n = f64::from(runs);
    let p = f64::from(successes) / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The median of `values` (the mean of the middle two for an even count); `None` when
/// there are none.
pub(super) fn median(mut values: Vec<f64>) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    Some(if values.len().is_multiple_of(2) {
        (values[mid - 1] + values[mid]) / 2.0
    } else {
        values[mid]
    })
}

/// The 95% interval of the difference of two independent proportions, `one` less
/// `two` (each `(successes, runs)`), by Newcombe's hybrid score method (Newcombe 1998,
/// method 10): each proportion's Wilson interval, its two distances from its
/// proportion combined in quadrature. Neither Wilson interval alone bounds a
/// difference (it has both proportions' variances), and the simple Wald interval
/// collapses at 0% and 100% — where small studies of agents often are.
pub(super) fn newcombe(one: (u32, u32), two: (u32, u32)) -> (f64, f64) {
    let rate = |(successes, runs): (u32, u32)| f64::from(successes) / f64::from(runs.max(1));
    let (p1, p2) = (rate(one), rate(two));
    let (l1, u1) = wilson(one.0, one.1);
    let (l2, u2) = wilson(two.0, two.1);
    let d = p1 - p2;
    (
        d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt(),
        d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::report::{legend, notes::against, rows, testing::*};

    #[test]
    fn the_wilson_interval_matches_known_values() {
        let (low, high) = wilson(8, 10);
        assert!((low - 0.4902).abs() < 1e-4, "{low}");
        assert!((high - 0.9433).abs() < 1e-4, "{high}");
        let (low, high) = wilson(0, 5);
        assert_eq!(low, 0.0);
        assert!((high - 0.4345).abs() < 1e-4, "{high}");
        assert_eq!(wilson(3, 3).1, 1.0);
    }

    #[test]
    fn the_difference_of_two_rates_has_newcombes_interval() {
        // Newcombe (1998), table II: 56/70 against 48/80, method 10: 0.0524 to 0.3339.
        let (low, high) = newcombe((56, 70), (48, 80));
        assert!((low - 0.0524).abs() < 5e-5, "{low}");
        assert!((high - 0.3339).abs() < 5e-5, "{high}");
        // 9/10 against 3/10: 0.1705 to 0.8090 (method 10 of the same table).
        let (low, high) = newcombe((9, 10), (3, 10));
        assert!((low - 0.1705).abs() < 5e-5, "{low}");
        assert!((high - 0.8090).abs() < 5e-5, "{high}");
        // Both at 100%, as the README's baseline: the interval says how far apart two
        // perfect scores of 42 could still be, as the line prints it.
        let all = |condition: &str| {
            (1..=42)
                .map(|n| result(condition, &format!("t{n}"), true, 2, 100))
                .collect::<Vec<_>>()
        };
        let results = [all("cli-named"), all("mcp")].concat();
        let rows = rows(&results, &["cli-named".to_owned(), "mcp".to_owned()]);
        assert_eq!(
            against(&rows, "cli-named").as_deref(),
            Some("Against `cli-named`: `mcp` +0% context tokens, +0 points of success (-8 to +8).")
        );
        assert!(legend().contains("Newcombe's hybrid score interval"));
    }

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(median(vec![]), None);
    }
}
