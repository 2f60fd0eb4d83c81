//! Start positions for self-play: the rules core's openings format
//! ([`hayate_core::game::opening`]) and, by default, the arena's list of short common lines.

pub use hayate_core::game::opening::{Opening, OpeningError, parse_openings};

/// The arena's opening lines (a copy: self-play does not depend on the arena).
pub const DEFAULT_OPENINGS: &str = include_str!("../data/openings.txt");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_openings_are_legal() {
        let o = parse_openings(DEFAULT_OPENINGS).unwrap();
        assert_eq!(o.len(), 16);
        assert!(o.iter().all(|x| x.moves.len() >= 3));
    }
}
