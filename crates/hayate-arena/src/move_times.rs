//! The time each side took per move, read back from a CSA record as the arena writes it
//! (`N+`/`N-` names, a `T<seconds>` line after each searched move; opening moves have none).

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

/// Reads the names and per-move times of a CSA record (`T` lines, on their own or after a
/// comma on the move's line).
pub fn move_times(csa: &str) -> MoveTimes {
    let mut t = MoveTimes::default();
    let mut mover = None;
    let mut to_move = 0;
    for line in csa.lines() {
        for item in line.split(',') {
            let item = item.trim();
            if let Some(n) = item.strip_prefix("N+") {
                t.names[0] = n.to_string();
            } else if let Some(n) = item.strip_prefix("N-") {
                t.names[1] = n.to_string();
            } else if item.len() >= 7
                && (item.starts_with('+') || item.starts_with('-'))
                && item.as_bytes()[1].is_ascii_digit()
            {
                let side = usize::from(item.starts_with('-'));
                mover = Some(side);
                to_move = 1 - side;
            } else if item == "+" {
                to_move = 0;
            } else if item == "-" {
                to_move = 1;
            } else if let (Some(s), Some(side)) = (item.strip_prefix('T'), mover)
                && let Ok(secs) = s.parse::<f64>()
            {
                t.ms[side].push(secs * 1000.0);
            } else if item.starts_with("%TIME_UP") {
                t.time_up = Some(to_move);
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_go_to_the_side_that_moved_and_opening_moves_have_none() {
        let csa = "V3.0\nN+hayate\nN-yo\nPI\n+\n+7776FU\n-3334FU\n+2726FU\nT0.201\n'** 111\n\
                   -2233KA\nT0.145\n+2625FU,T0.205\n-3132GI\nT1.5\n%TIME_UP\n";
        let t = move_times(csa);
        assert_eq!(t.names, ["hayate".to_string(), "yo".to_string()]);
        assert_eq!(t.ms[0], vec![201.0, 205.0]);
        assert_eq!(t.ms[1], vec![145.0, 1500.0]);
        // After White's move it is Black's turn: Black ran out of time.
        assert_eq!(t.time_up, Some(0));
        assert_eq!(move_times("N+a\nN-b\n-\n%TIME_UP\n").time_up, Some(1));
    }
}
