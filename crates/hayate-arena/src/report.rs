//! The HTML report: one self-contained page (no scripts, no external files but the CSA records
//! it links to): ratings table, a chart of ratings with 95% error bars, score over time, the
//! crosstable with W/D/L and likelihood of superiority, and the list of games.

use std::fmt::Write;

use crate::game::GameResult;
use crate::summary::Summary;

/// Colours for the engines' lines (cycled).
const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

/// Escapes text for HTML.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

/// The report page. `record_prefix` is put before each record's relative path in links (the
/// path from the report's folder to the results folder, e.g. `""` or `"run1/"`).
pub fn html(summary: &Summary, title: &str, record_prefix: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{t}</title>\n<style>\
         body{{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}}\
         table{{border-collapse:collapse;margin:1em 0}}\
         th,td{{border:1px solid #ccc;padding:3px 8px;text-align:right}}\
         th{{background:#f0f0f0}} td.l,th.l{{text-align:left}}\
         .w{{color:#2ca02c}} .d{{color:#777}} .x{{color:#d62728}}\
         .games td{{font-size:90%}} .det{{border-bottom:1px dotted #888;cursor:help}} svg{{background:#fff;border:1px solid #ddd}}\
         </style></head><body>\n<h1>{t}</h1>\n",
        t = escape(title)
    );
    let total = summary.games.len();
    let _ = writeln!(s, "<p>{total} games, {} engines.</p>", summary.names.len());
    ratings_table(summary, &mut s);
    if let Some((p, llr, d)) = summary.sprt {
        let _ = writeln!(
            s,
            "<p><b>SPRT</b> elo0 = {}, elo1 = {}, α = {}, β = {}: LLR = {:.3} in [{:.3}, {:.3}] → <b>{}</b></p>",
            p.elo0,
            p.elo1,
            p.alpha,
            p.beta,
            llr,
            p.lower_bound(),
            p.upper_bound(),
            match d {
                crate::sprt::SprtDecision::Continue => "undecided",
                crate::sprt::SprtDecision::AcceptH0 => "H0 accepted",
                crate::sprt::SprtDecision::AcceptH1 => "H1 accepted",
            }
        );
    }
    s.push_str("<h2>Ratings with 95% error bars</h2>\n");
    rating_chart(summary, &mut s);
    s.push_str("<h2>Score over time</h2>\n");
    score_chart(summary, &mut s);
    s.push_str("<h2>Crosstable</h2>\n<p>Each cell: W/D/L of the row engine against the column engine, its score, and the likelihood that it is the stronger (LOS).</p>\n");
    crosstable(summary, &mut s);
    s.push_str("<h2>Games</h2>\n<p>Hover over an underlined reason for details; each record is a CSA file.</p>\n");
    games_table(summary, record_prefix, &mut s);
    s.push_str("</body></html>\n");
    s
}

fn ratings_table(summary: &Summary, s: &mut String) {
    s.push_str(
        "<table><tr><th>#</th><th class=\"l\">engine</th><th>Elo</th><th>±95%</th>\
         <th>games</th><th>score</th><th>W</th><th>D</th><th>L</th></tr>\n",
    );
    for (rank, &i) in summary.ranking().iter().enumerate() {
        let t = summary.crosstable.total(i);
        let pct = if t.games() > 0 {
            100.0 * t.points() / t.games() as f64
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td class=\"l\"><span style=\"color:{}\">■</span> {}</td><td>{:+.1}</td>\
             <td>{:.1}</td><td>{}</td><td>{:.1}%</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            rank + 1,
            PALETTE[i % PALETTE.len()],
            escape(&summary.names[i]),
            summary.ratings.elo[i],
            summary.ratings.error95(i),
            t.games(),
            pct,
            t.wins,
            t.draws,
            t.losses
        );
    }
    s.push_str("</table>\n<p>Elo is maximum-likelihood, centred on the pool's mean; ±95% is 1.96 standard errors.</p>\n");
    if summary.ratings.prior_draws > 0.0 {
        s.push_str("<p><i>Some engines won or lost every game against the rest: one virtual draw per pair keeps the ratings finite.</i></p>\n");
    }
}

fn rating_chart(summary: &Summary, s: &mut String) {
    let order = summary.ranking();
    let n = order.len().max(1);
    let r = &summary.ratings;
    let (mut lo, mut hi) = (-50.0f64, 50.0f64);
    for &i in &order {
        lo = lo.min(r.elo[i] - r.error95(i));
        hi = hi.max(r.elo[i] + r.error95(i));
    }
    let pad = (hi - lo) * 0.08;
    let (lo, hi) = (lo - pad, hi + pad);
    let (w, row, left, right) = (760.0, 34.0, 170.0, 30.0);
    let h = row * n as f64 + 40.0;
    let x = |v: f64| left + (v - lo) / (hi - lo) * (w - left - right);
    let _ = writeln!(
        s,
        "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\" font-size=\"12\">"
    );
    // Grid at round Elo steps.
    let step = nice_step((hi - lo) / 6.0);
    let mut g = (lo / step).ceil() * step;
    while g <= hi {
        let _ = writeln!(
            s,
            "<line x1=\"{0:.1}\" y1=\"10\" x2=\"{0:.1}\" y2=\"{1:.1}\" stroke=\"{2}\"/>\
             <text x=\"{0:.1}\" y=\"{3:.1}\" text-anchor=\"middle\" fill=\"#555\">{4:+}</text>",
            x(g),
            h - 25.0,
            if g == 0.0 { "#888" } else { "#eee" },
            h - 10.0,
            g
        );
        g += step;
    }
    for (k, &i) in order.iter().enumerate() {
        let y = 25.0 + row * k as f64;
        let (e, err) = (r.elo[i], r.error95(i));
        let c = PALETTE[i % PALETTE.len()];
        let name = escape(&summary.names[i]);
        let (lx, cx, hx) = (x(e - err), x(e), x(e + err));
        let (label_x, label_y, y0, y1) = (left - 10.0, y + 4.0, y - 6.0, y + 6.0);
        let _ = writeln!(
            s,
            "<text x=\"{label_x:.1}\" y=\"{label_y:.1}\" text-anchor=\"end\">{name}</text>\
             <line x1=\"{lx:.1}\" y1=\"{y:.1}\" x2=\"{hx:.1}\" y2=\"{y:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
             <line x1=\"{lx:.1}\" y1=\"{y0:.1}\" x2=\"{lx:.1}\" y2=\"{y1:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
             <line x1=\"{hx:.1}\" y1=\"{y0:.1}\" x2=\"{hx:.1}\" y2=\"{y1:.1}\" stroke=\"{c}\" stroke-width=\"2\"/>\
             <circle cx=\"{cx:.1}\" cy=\"{y:.1}\" r=\"5\" fill=\"{c}\"><title>{name} {e:+.1} ± {err:.1}</title></circle>"
        );
    }
    s.push_str("</svg>\n");
}

fn nice_step(raw: f64) -> f64 {
    let raw = raw.max(1e-9);
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let nice = if f < 1.5 {
        1.0
    } else if f < 3.5 {
        2.0
    } else if f < 7.5 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

fn score_chart(summary: &Summary, s: &mut String) {
    let total = summary.games.len().max(1) as f64;
    let (w, h, left, bottom, top, right) = (760.0, 260.0, 50.0, 30.0, 10.0, 140.0);
    let x = |g: f64| left + g / total * (w - left - right);
    let y = |v: f64| top + (1.0 - v) * (h - top - bottom);
    let _ = writeln!(
        s,
        "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\" font-size=\"12\">"
    );
    for v in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"{2}\"/>\
             <text x=\"{3}\" y=\"{4:.1}\" text-anchor=\"end\" fill=\"#555\">{5}%</text>",
            y(v),
            w - right,
            if v == 0.5 { "#888" } else { "#eee" },
            left - 5.0,
            y(v) + 4.0,
            (v * 100.0) as u32
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#555\">games played ({})</text>",
        (left + w - right) / 2.0,
        h - 8.0,
        summary.games.len()
    );
    for (i, hist) in summary.score_history.iter().enumerate() {
        if hist.is_empty() {
            continue;
        }
        let c = PALETTE[i % PALETTE.len()];
        let pts: Vec<String> = hist
            .iter()
            .map(|&(g, v)| format!("{:.1},{:.1}", x(g as f64), y(v)))
            .collect();
        let _ = writeln!(
            s,
            "<polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"2\" points=\"{}\"/>",
            pts.join(" ")
        );
        let &(g, v) = hist.last().unwrap_or(&(0, 0.5));
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"{c}\">{} {:.1}%</text>",
            x(g as f64) + 6.0,
            y(v) + 4.0,
            escape(&summary.names[i]),
            v * 100.0
        );
    }
    s.push_str("</svg>\n");
}

fn crosstable(summary: &Summary, s: &mut String) {
    let order = summary.ranking();
    s.push_str("<table><tr><th class=\"l\"></th>");
    for &j in &order {
        let _ = write!(s, "<th>{}</th>", escape(&summary.names[j]));
    }
    s.push_str("</tr>\n");
    for &i in &order {
        let _ = write!(s, "<tr><th class=\"l\">{}</th>", escape(&summary.names[i]));
        for &j in &order {
            let c = summary.crosstable.get(i, j);
            if i == j || c.games() == 0 {
                s.push_str("<td>–</td>");
                continue;
            }
            let _ = write!(
                s,
                "<td><span class=\"w\">{}</span>/<span class=\"d\">{}</span>/<span class=\"x\">{}</span><br>{:.1}% · LOS {:.1}%</td>",
                c.wins,
                c.draws,
                c.losses,
                100.0 * c.points() / c.games() as f64,
                100.0 * summary.ratings.los(i, j)
            );
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table>\n");
}

fn games_table(summary: &Summary, prefix: &str, s: &mut String) {
    s.push_str(
        "<table class=\"games\"><tr><th>game</th><th class=\"l\">black</th><th class=\"l\">white</th>\
         <th>result</th><th class=\"l\">reason</th><th>plies</th><th>opening</th><th class=\"l\">record</th></tr>\n",
    );
    for g in &summary.games {
        let r = match g.result {
            GameResult::Black => "1-0",
            GameResult::White => "0-1",
            GameResult::Draw => "½-½",
        };
        let reason = if g.detail.is_empty() {
            escape(&g.reason.to_string())
        } else {
            format!(
                "<span class=\"det\" title=\"{}\">{}</span>",
                escape(&g.detail),
                escape(&g.reason.to_string())
            )
        };
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{r}</td>\
             <td class=\"l\">{reason}</td><td>{}</td><td>{}</td><td class=\"l\"><a href=\"{}\">{}</a></td></tr>",
            g.id,
            escape(&g.black),
            escape(&g.white),
            g.plies,
            g.opening,
            escape(&format!("{prefix}{}", g.record)),
            escape(&g.record)
        );
    }
    s.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::EndReason;
    use crate::results::GameEntry;
    use crate::summary::summarize;

    #[test]
    fn page_has_the_parts_and_escapes_names() {
        let names = vec!["a<b".to_string(), "c".to_string()];
        let games = vec![
            GameEntry {
                id: 0,
                black: "a<b".into(),
                white: "c".into(),
                opening: 0,
                result: GameResult::Black,
                reason: EndReason::Resign,
                plies: 40,
                record: "games/000000-x.csa".into(),
                detail: "x & y".into(),
            },
            GameEntry {
                id: 1,
                black: "c".into(),
                white: "a<b".into(),
                opening: 0,
                result: GameResult::Draw,
                reason: EndReason::Repetition,
                plies: 60,
                record: "games/000001-x.csa".into(),
                detail: String::new(),
            },
        ];
        let s = summarize(&names, &games, None);
        let page = html(&s, "T & T", "run/");
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("<title>T &amp; T</title>"));
        assert!(page.contains("a&lt;b"));
        assert!(!page.contains("a<b"));
        assert!(page.contains("href=\"run/games/000000-x.csa\""));
        assert_eq!(page.matches("<svg").count(), 2);
        assert!(page.contains("<circle"));
        assert!(page.contains("<polyline"));
        assert!(!page.contains("<script"));
        assert_eq!(nice_step(37.0), 50.0);
        assert_eq!(nice_step(0.9), 1.0);
    }
}
