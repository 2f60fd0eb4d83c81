//! What a results file says: the crosstable, ratings, SPRT state, score over time, and the same
//! as plain text for the terminal (a ratings table, W/D/L per pair, and one line per game).

use std::fmt::Write;

use crate::game::GameResult;
use crate::rating::{Crosstable, Ratings, fit_ratings};
use crate::results::GameEntry;
use crate::sprt::{SprtDecision, SprtParams};

/// Everything the reports show.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Engine names, in engines-file order.
    pub names: Vec<String>,
    /// The games, in the order they finished.
    pub games: Vec<GameEntry>,
    /// W/D/L per pair.
    pub crosstable: Crosstable,
    /// Maximum-likelihood ratings.
    pub ratings: Ratings,
    /// SPRT parameters, LLR and decision for a match.
    pub sprt: Option<(SprtParams, f64, SprtDecision)>,
    /// Per engine: (game number in the results, score fraction so far) after each of its games.
    pub score_history: Vec<Vec<(usize, f64)>>,
}

/// Summarises games between `names` (games naming an unknown engine are skipped).
pub fn summarize(names: &[String], games: &[GameEntry], sprt: Option<SprtParams>) -> Summary {
    let n = names.len();
    let index = |s: &str| names.iter().position(|x| x == s);
    let mut t = Crosstable::new(n);
    let mut points = vec![0.0; n];
    let mut played = vec![0u32; n];
    let mut history = vec![Vec::new(); n];
    let mut kept = Vec::new();
    for g in games {
        let (Some(b), Some(w)) = (index(&g.black), index(&g.white)) else {
            continue;
        };
        let pb = g.result.black_points();
        t.add(b, w, pb);
        kept.push(g.clone());
        for (i, p) in [(b, pb), (w, 1.0 - pb)] {
            points[i] += p;
            played[i] += 1;
            history[i].push((kept.len(), points[i] / played[i] as f64));
        }
    }
    let ratings = fit_ratings(&t);
    let sprt = sprt.map(|p| {
        let r = if n >= 2 {
            t.get(0, 1)
        } else {
            Default::default()
        };
        (p, p.llr(r), p.decide(r))
    });
    Summary {
        names: names.to_vec(),
        games: kept,
        crosstable: t,
        ratings,
        sprt,
        score_history: history,
    }
}

impl Summary {
    /// Engine indices from the highest rating down.
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| self.ratings.elo[b].total_cmp(&self.ratings.elo[a]));
        order
    }

    /// The ratings table, W/D/L per pair and the SPRT line, as plain text.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let w = self.names.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
        let _ = writeln!(
            s,
            "{:>4} {:<w$} {:>7} {:>6} {:>6} {:>6} {:>15} {:>7}",
            "rank", "engine", "elo", "±95%", "games", "score", "W/D/L", "LOS>next"
        );
        let order = self.ranking();
        for (rank, &i) in order.iter().enumerate() {
            let tot = self.crosstable.total(i);
            let score = if tot.games() > 0 {
                100.0 * tot.points() / tot.games() as f64
            } else {
                0.0
            };
            let los = order
                .get(rank + 1)
                .map(|&j| format!("{:.1}%", 100.0 * self.ratings.los(i, j)))
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "{:>4} {:<w$} {:>+7.1} {:>6.1} {:>6} {:>5.1}% {:>15} {:>7}",
                rank + 1,
                self.names[i],
                self.ratings.elo[i],
                self.ratings.error95(i),
                tot.games(),
                score,
                format!("{}/{}/{}", tot.wins, tot.draws, tot.losses),
                los
            );
        }
        if self.ratings.prior_draws > 0.0 {
            let _ = writeln!(
                s,
                "(some engines won or lost every game against the rest: one virtual draw per pair keeps the ratings finite)"
            );
        }
        let _ = writeln!(s, "\npairs (W/D/L from the first engine's view):");
        let n = self.names.len();
        for i in 0..n {
            for j in i + 1..n {
                let c = self.crosstable.get(i, j);
                if c.games() == 0 {
                    continue;
                }
                let elo = c
                    .elo_interval()
                    .map(|(e, lo, hi)| format!(", Elo {e:+.0} [{lo:+.0}, {hi:+.0}]"))
                    .unwrap_or_default();
                let _ = writeln!(
                    s,
                    "  {} vs {}: {}/{}/{} ({} games, {:.1}%{elo})",
                    self.names[i],
                    self.names[j],
                    c.wins,
                    c.draws,
                    c.losses,
                    c.games(),
                    100.0 * c.points() / c.games() as f64
                );
            }
        }
        let faults: Vec<&GameEntry> = self
            .games
            .iter()
            .filter(|g| g.reason.is_engine_fault())
            .collect();
        if !faults.is_empty() {
            let _ = writeln!(s, "\n{} games ended by an engine fault:", faults.len());
            for g in faults {
                let _ = writeln!(
                    s,
                    "  game {} ({} - {}): {}: {}",
                    g.id, g.black, g.white, g.reason, g.detail
                );
            }
        }
        if let Some((p, llr, d)) = self.sprt {
            let _ = writeln!(
                s,
                "\nSPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} [{:.3}, {:.3}] {}",
                p.elo0,
                p.elo1,
                p.alpha,
                p.beta,
                llr,
                p.lower_bound(),
                p.upper_bound(),
                match d {
                    SprtDecision::Continue => "undecided",
                    SprtDecision::AcceptH0 => "H0 accepted",
                    SprtDecision::AcceptH1 => "H1 accepted",
                }
            );
        }
        s
    }

    /// One line per game, PGN-tag-like: `[id] black - white  result  (reason, plies) record`.
    pub fn game_lines(&self) -> String {
        let mut s = String::new();
        for g in &self.games {
            let r = match g.result {
                GameResult::Black => "1-0",
                GameResult::White => "0-1",
                GameResult::Draw => "1/2-1/2",
            };
            let _ = write!(
                s,
                "[{}] {} - {}  {}  ({}, {} plies, opening {}) {}",
                g.id, g.black, g.white, r, g.reason, g.plies, g.opening, g.record
            );
            if !g.detail.is_empty() {
                let _ = write!(s, "  ; {}", g.detail);
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::EndReason;

    fn g(id: u64, b: &str, w: &str, r: GameResult) -> GameEntry {
        GameEntry {
            id,
            black: b.into(),
            white: w.into(),
            opening: 0,
            result: r,
            reason: EndReason::Resign,
            plies: 50,
            record: String::new(),
            detail: String::new(),
        }
    }

    #[test]
    fn summary_counts_and_ranks() {
        let names = vec!["a".to_string(), "b".to_string()];
        let mut games = Vec::new();
        for i in 0..4 {
            // a wins 3 of 4 across both colours.
            let r = if i == 3 {
                GameResult::Draw
            } else {
                GameResult::Black
            };
            games.push(if i % 2 == 0 {
                g(i, "a", "b", r)
            } else if r == GameResult::Black {
                g(i, "b", "a", GameResult::White)
            } else {
                g(i, "b", "a", r)
            });
        }
        games.push(g(9, "a", "zzz", GameResult::Black));
        let s = summarize(&names, &games, Some(SprtParams::default()));
        assert_eq!(s.games.len(), 4);
        let c = s.crosstable.get(0, 1);
        assert_eq!((c.wins, c.draws, c.losses), (3, 1, 0));
        assert_eq!(s.ranking(), vec![0, 1]);
        assert_eq!(s.score_history[0].last(), Some(&(4, 0.875)));
        assert!(s.text().contains("3/1/0"));
        assert!(!s.text().contains("engine fault"));
        let mut crashed = games.clone();
        crashed[0].reason = EndReason::Crash;
        crashed[0].detail = "engine \"b\": exited".into();
        let t = summarize(&names, &crashed, None).text();
        assert!(t.contains("1 games ended by an engine fault:"), "{t}");
        assert!(
            t.contains("game 0 (a - b): crash: engine \"b\": exited"),
            "{t}"
        );
        assert!(s.game_lines().starts_with("[0] a - b  1-0"));
        assert!(s.sprt.is_some());
    }
}
