//! Start positions for self-play: the rules core's openings format
//! ([`hayate_core::game::opening`]) and, by default, the arena's list of short common lines.

pub use hayate_core::game::opening::{Opening, OpeningError, parse_openings};

/// The arena's opening lines (a copy: self-play does not depend on the arena).
pub const DEFAULT_OPENINGS: &str = include_str!("../data/openings.txt");

/// 120 opening lines of 8–14 plies (the search's SPRT openings, a copy): the MCTS player's
/// default start positions, as Novice drew each game's from a set of about 100.
pub const MCTS_OPENINGS: &str = include_str!("../data/openings-120.txt");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_openings_are_legal() {
        let o = parse_openings(DEFAULT_OPENINGS).unwrap();
        assert_eq!(o.len(), 16);
        assert!(o.iter().all(|x| x.moves.len() >= 3));
        let many = parse_openings(MCTS_OPENINGS).unwrap();
        assert_eq!(many.len(), 120);
        assert!(many.iter().all(|x| (8..=14).contains(&x.moves.len())));
    }
}
