//! The hybrid's own USI options (`Hybrid_*`), declared once in the typed option table. The
//! sides keep theirs: `Threads` is the αβ side's threads, `UCT_Threads` and `DNN_Threads` the
//! DL side's.

use crate::rule::{Rule, Side};
use hayate_core::usi_option::{OptionError, UsiOption, find};

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

impl Options {
    /// The declarations, current values as defaults.
    pub fn usi_options(&self) -> Vec<UsiOption> {
        let r = &self.rule;
        vec![
            UsiOption::check("Hybrid_MateRule", r.mate),
            UsiOption::spin("Hybrid_AbThreshold", r.ab_threshold as i64, 0, 32000),
            UsiOption::spin("Hybrid_VerifyMargin", r.verify_margin as i64, 0, 32000),
            UsiOption::spin("Hybrid_VerifyDepth", r.verify_depth as i64, 0, 64),
            UsiOption::spin("Hybrid_VerifyTime", r.verify_ms as i64, 1, 10000),
            UsiOption::combo("Hybrid_Info", self.info_main.tag(), &["ab", "dl"]),
        ]
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
        let table = self.usi_options();
        let opt = find(&table, name).ok_or_else(|| OptionError::Unknown(name.into()))?;
        let v = opt.validate(value)?;
        let num = || {
            v.parse::<i64>().map_err(|_| OptionError::NotANumber {
                name: name.into(),
                value: v.clone(),
            })
        };
        let r = &mut self.rule;
        match opt.name.as_str() {
            "Hybrid_MateRule" => r.mate = v == "true",
            "Hybrid_AbThreshold" => r.ab_threshold = num()? as i32,
            "Hybrid_VerifyMargin" => r.verify_margin = num()? as i32,
            "Hybrid_VerifyDepth" => r.verify_depth = num()? as u32,
            "Hybrid_VerifyTime" => r.verify_ms = num()? as u64,
            "Hybrid_Info" => self.info_main = if v == "dl" { Side::Dl } else { Side::AlphaBeta },
            _ => return Err(OptionError::Unknown(name.into())),
        }
        Ok(())
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
