//! The time each side took per move, read back from a CSA record as the arena writes it
//! (`N+`/`N-` names, a `T<seconds>` line after each searched move; opening moves have none).

use hayate_records::game::csa::parse_csa;
use hayate_records::{EndKind, ParseError};

/// Per side (Black, then White): the engine's name and its thinking times in milliseconds, in
/// game order, and whether the game ended by a time loss (`%TIME_UP`, charged to the side to
/// move).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveTimes {
    /// `[black, white]` names.
    pub names: [String; 2],
    /// `[black, white]` times in ms.
    pub ms: [Vec<f64>; 2],
    /// The side (0 Black, 1 White) that lost on time, if one did.
    pub time_up: Option<usize>,
}

/// Reads the names and per-move times of a CSA record (parsed by `hayate_records`: `T` lines
/// on their own or after a comma on the move's line).
///
/// # Errors
/// The record does not parse.
pub fn move_times(csa: &str) -> Result<MoveTimes, ParseError> {
    let rec = parse_csa(csa)?;
    let end = rec.side_to_move_at_end().index();
    // The side that made move 0: the side to move at the end, flipped once per move.
    let first = end ^ (rec.moves.len() % 2);
    let mut t = MoveTimes {
        names: rec.players.clone(),
        ..MoveTimes::default()
    };
    for (i, m) in rec.moves.iter().enumerate() {
        if let Some(ms) = m.time_ms {
            t.ms[first ^ (i % 2)].push(ms as f64);
        }
    }
    if rec.end.is_some_and(|e| e.kind == EndKind::TimeUp) {
        t.time_up = Some(end);
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_go_to_the_side_that_moved_and_opening_moves_have_none() {
        let csa = "V3.0\nN+hayate\nN-yo\nPI\n+\n+7776FU\n-3334FU\n+2726FU\nT0.201\n'** 111\n\
                   -2233KA\nT0.145\n+2625FU,T0.205\n-3132GI\nT1.5\n%TIME_UP\n";
        let t = move_times(csa).expect("a CSA record");
        assert_eq!(t.names, ["hayate".to_string(), "yo".to_string()]);
        assert_eq!(t.ms[0], vec![201.0, 205.0]);
        assert_eq!(t.ms[1], vec![145.0, 1500.0]);
        // After White's move it is Black's turn: Black ran out of time.
        assert_eq!(t.time_up, Some(0));
        let white_lost = move_times("N+a\nN-b\nPI\n+\n+7776FU\n%TIME_UP\n").expect("CSA");
        assert_eq!(white_lost.time_up, Some(1));
    }
}
