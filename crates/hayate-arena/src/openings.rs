//! Opening positions: the rules core's format and parser ([`hayate_core::game::opening`]),
//! and the arena's own list of short common lines (`data/openings.txt`).

pub use hayate_core::game::opening::{Opening, OpeningError, parse_opening, parse_openings};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_openings_are_legal() {
        let o = parse_openings(include_str!("../data/openings.txt")).unwrap();
        assert_eq!(o.len(), 16);
        assert!(o.iter().all(|x| x.moves.len() >= 3));
    }
}
