//! The hybrid's own USI options (`Hybrid_*`), declared once in the typed option table. The
//! sides keep theirs: `Threads` is the αβ side's threads, `UCT_Threads` and `DNN_Threads` the
//! DL side's.

use crate::rule::{Rule, Side};
use hayate_core::usi_option::{Binding, OptionError, UsiOption, declare_all, find, set_bound};
use hayate_core::{bind_option, check_option, spin_option};

/// The options of the hybrid itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The decision rule.
    pub rule: Rule,
    /// Whose lines go out as plain `info` lines (`Hybrid_Info`); the other side's are sent as
    /// `info string <tag>: …`.
    pub info_main: Side,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            rule: Rule::default(),
            info_main: Side::AlphaBeta,
        }
    }
}

/// The hybrid's options, each bound to its field.
const BOUND: &[Binding<Options>] = &[
    check_option!("Hybrid_MateRule", o => o.rule.mate),
    spin_option!("Hybrid_AbThreshold", o => o.rule.ab_threshold, 0, 32000),
    spin_option!("Hybrid_VerifyMargin", o => o.rule.verify_margin, 0, 32000),
    spin_option!("Hybrid_VerifyDepth", o => o.rule.verify_depth, 0, 64),
    spin_option!("Hybrid_VerifyTime", o => o.rule.verify_ms, 1, 10000),
    bind_option!(
        |o| UsiOption::combo("Hybrid_Info", o.info_main.tag(), &["ab", "dl"]),
        |o, v| o.info_main = if v.text() == "dl" {
            Side::Dl
        } else {
            Side::AlphaBeta
        }
    ),
];

impl Options {
    /// The declarations, current values as defaults.
    pub fn usi_options(&self) -> Vec<UsiOption> {
        declare_all(BOUND, self)
    }

    /// Whether `name` is one of these options.
    pub fn declares(name: &str) -> bool {
        find(&Options::default().usi_options(), name).is_some()
    }

    /// Sets one option from its USI text, checked against the declarations.
    ///
    /// # Errors
    /// The option is unknown or the value outside the declaration.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        set_bound(BOUND, self, name, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_set_the_rule_within_their_declarations() {
        let mut o = Options::default();
        o.set("Hybrid_AbThreshold", "1500").expect("in range");
        o.set("hybrid_verifydepth", "0").expect("case-insensitive");
        o.set("Hybrid_MateRule", "False").expect("check");
        o.set("Hybrid_Info", "DL").expect("combo");
        assert!(o.set("Hybrid_VerifyMargin", "-1").is_err());
        assert!(
            o.set("Hybrid_VerifyTime", "0").is_err(),
            "an unbounded verification"
        );
        assert!(o.set("Hybrid_Info", "both").is_err());
        assert!(o.set("Threads", "2").is_err(), "a side's option");
        assert_eq!(o.rule.ab_threshold, 1500);
        assert_eq!(o.rule.verify_depth, 0);
        assert!(!o.rule.mate);
        assert_eq!(o.info_main, Side::Dl);
        assert!(Options::declares("Hybrid_VerifyTime") && !Options::declares("USI_Hash"));
    }
}
