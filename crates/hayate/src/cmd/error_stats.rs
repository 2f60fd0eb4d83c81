//! The distribution of an evaluation's errors (eval units), as the trainer's export check and
//! `hayate eval --psv` print it.

/// `mean …, mean |e| …, median |e| …, p90 …, p99 …, max …` of `errors` (sorted in place by
/// size); `None` when there are none.
pub fn summary(errors: &mut [f32]) -> Option<String> {
    if errors.is_empty() {
        return None;
    }
    errors.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    let n = errors.len();
    let mean = errors.iter().map(|&e| f64::from(e)).sum::<f64>() / n as f64;
    let mean_abs = errors.iter().map(|e| f64::from(e.abs())).sum::<f64>() / n as f64;
    let at = |q: f64| errors[((n - 1) as f64 * q) as usize].abs();
    Some(format!(
        "mean {mean:.2}, mean |e| {mean_abs:.2}, median |e| {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    ))
}

/// Pearson's correlation of the pairs; `None` for fewer than two or a constant side.
pub fn correlation(pairs: &[(f64, f64)]) -> Option<f64> {
    let n = pairs.len() as f64;
    if pairs.len() < 2 {
        return None;
    }
    let (mx, my) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / n, b + y / n));
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for &(x, y) in pairs {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_known_errors() {
        let mut e = [3.0, -1.0, 2.0, -4.0, 0.0];
        assert_eq!(
            summary(&mut e).as_deref(),
            Some("mean 0.00, mean |e| 2.00, median |e| 2.00, p90 3.00, p99 3.00, max 4.00")
        );
        assert_eq!(summary(&mut []), None);
    }

    #[test]
    fn correlation_of_lines_and_noise() {
        let up: Vec<_> = (0..10)
            .map(|i| (f64::from(i), 2.0 * f64::from(i) + 1.0))
            .collect();
        assert!((correlation(&up).unwrap() - 1.0).abs() < 1e-12);
        let down: Vec<_> = (0..10).map(|i| (f64::from(i), -f64::from(i))).collect();
        assert!((correlation(&down).unwrap() + 1.0).abs() < 1e-12);
        let square = [(-1.0, 1.0), (0.0, 0.0), (1.0, 1.0)];
        assert!(correlation(&square).unwrap().abs() < 1e-12);
        assert_eq!(correlation(&[(1.0, 1.0), (2.0, 1.0)]), None);
    }
}
