//! An SVG picture of `metrics.csv`: loss (left) and policy accuracy (right) against the step,
//! training rows as thin lines (moving average over 1% of the steps), validation as dots.
//! Written by hand: a plotting crate would pull fonts and image codecs for two line charts.

use std::fmt::Write;

/// One parsed row of `metrics.csv`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// Validation row (else training).
    pub validation: bool,
    /// Step.
    pub step: f64,
    /// Total loss.
    pub loss: f64,
    /// Policy accuracy.
    pub policy_accuracy: f64,
}

/// Parses `metrics.csv` text; malformed lines are skipped.
pub fn parse_metrics(csv: &str) -> Vec<Row> {
    csv.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some(Row {
                validation: *f.first()? == "val",
                step: f.get(1)?.parse().ok()?,
                loss: f.get(3)?.parse().ok()?,
                // Absent in the NNUE trainer's metrics.
                policy_accuracy: f.get(6).and_then(|s| s.parse().ok()).unwrap_or(0.0),
            })
        })
        .collect()
}

fn smooth(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let w = (points.len() / 100).max(1);
    points
        .windows(w)
        .map(|win| {
            let y = win.iter().map(|p| p.1).sum::<f64>() / w as f64;
            (win[w - 1].0, y)
        })
        .collect()
}

/// One panel at horizontal offset `x0`.
fn panel(svg: &mut String, x0: f64, title: &str, train: &[(f64, f64)], val: &[(f64, f64)]) {
    let (w, h, m) = (420.0, 300.0, 40.0);
    let all = train.iter().chain(val);
    let (mut xmin, mut xmax, mut ymin, mut ymax) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in all {
        xmin = xmin.min(x);
        xmax = xmax.max(x);
        ymin = ymin.min(y);
        ymax = ymax.max(y);
    }
    if xmin > xmax {
        return;
    }
    if xmax - xmin < 1e-9 {
        xmax = xmin + 1.0;
    }
    if ymax - ymin < 1e-9 {
        ymax = ymin + 1.0;
    }
    let px = |x: f64| x0 + m + (x - xmin) / (xmax - xmin) * (w - 2.0 * m);
    let py = |y: f64| h - m - (y - ymin) / (ymax - ymin) * (h - 2.0 * m);
    let _ = write!(
        svg,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#888"/>"##,
        x0 + m,
        m,
        w - 2.0 * m,
        h - 2.0 * m
    );
    let _ = write!(
        svg,
        r##"<text x="{}" y="24" font-size="14" font-family="sans-serif">{title}</text>"##,
        x0 + m
    );
    for (y, anchor) in [(ymin, h - m), (ymax, m + 10.0)] {
        let _ = write!(
            svg,
            r##"<text x="{}" y="{anchor}" font-size="10" font-family="sans-serif" text-anchor="end">{y:.3}</text>"##,
            x0 + m - 4.0
        );
    }
    for (x, anchor) in [(xmin, "start"), (xmax, "end")] {
        let _ = write!(
            svg,
            r##"<text x="{}" y="{}" font-size="10" font-family="sans-serif" text-anchor="{anchor}">{x:.0}</text>"##,
            px(x),
            h - m + 14.0
        );
    }
    let path: Vec<String> = train
        .iter()
        .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
        .collect();
    let _ = write!(
        svg,
        r##"<polyline fill="none" stroke="#1f77b4" stroke-width="1.2" points="{}"/>"##,
        path.join(" ")
    );
    for &(x, y) in val {
        let _ = write!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="3" fill="#d62728"/>"##,
            px(x),
            py(y)
        );
    }
}

/// `(step, f(row))` of the training (`validation` false) or validation rows.
fn series(rows: &[Row], validation: bool, f: fn(&Row) -> f64) -> Vec<(f64, f64)> {
    rows.iter()
        .filter(|r| r.validation == validation)
        .map(|r| (r.step, f(r)))
        .collect()
}

/// An SVG document `width` wide and 300 high on white, left open for panels.
fn svg_open(width: u32) -> String {
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="300" viewBox="0 0 {width} 300"><rect width="{width}" height="300" fill="white"/>"##
    )
}

/// The SVG document of the loss alone (the NNUE trainer's metrics).
pub fn loss_svg(rows: &[Row]) -> String {
    let mut svg = svg_open(420);
    panel(
        &mut svg,
        0.0,
        "loss (train blue, validation red)",
        &smooth(&series(rows, false, |r| r.loss)),
        &series(rows, true, |r| r.loss),
    );
    svg.push_str("</svg>\n");
    svg
}

/// The SVG document for `rows` (training in blue, validation in red).
pub fn metrics_svg(rows: &[Row]) -> String {
    let pick = |val: bool, f: fn(&Row) -> f64| series(rows, val, f);
    let mut svg = svg_open(840);
    panel(
        &mut svg,
        0.0,
        "loss (train blue, validation red)",
        &smooth(&pick(false, |r| r.loss)),
        &pick(true, |r| r.loss),
    );
    panel(
        &mut svg,
        420.0,
        "policy accuracy",
        &smooth(&pick(false, |r| r.policy_accuracy)),
        &pick(true, |r| r.policy_accuracy),
    );
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_draws() {
        let csv = "kind,step,lr,loss,policy_loss,value_loss,policy_accuracy,value_accuracy,grad_norm,samples_per_sec\n\
                   train,0,1e-3,8.0,7.3,0.7,0.0,0.5,1.0,10\n\
                   train,1,1e-3,6.0,5.3,0.7,0.2,0.5,1.0,10\n\
                   val,1,0,6.5,5.8,0.7,0.1,0.5,0,0\nbroken\n";
        let rows = parse_metrics(csv);
        assert_eq!(rows.len(), 3);
        assert!(rows[2].validation);
        let svg = metrics_svg(&rows);
        assert!(svg.starts_with("<svg") && svg.contains("polyline") && svg.contains("circle"));
    }
}
