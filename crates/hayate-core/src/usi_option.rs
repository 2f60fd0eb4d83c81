//! Engine options as data: each option is declared once, typed, with its default and range
//! (as Stockfish's option table does), so the USI layer can list them (`option name … type …`)
//! and check a `setoption` value without building a player.

use std::fmt;

/// What kind of value an option takes, with its default and limits (the USI option types).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `check`: `true` or `false`.
    Check {
        /// The default.
        default: bool,
    },
    /// `spin`: an integer in `min..=max`.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// `combo`: one of `vars`.
    Combo {
        /// The default (one of `vars`).
        default: String,
        /// The values accepted.
        vars: Vec<String>,
    },
    /// `string`: any text (`<empty>` stands for the empty string).
    String {
        /// The default.
        default: String,
    },
    /// `filename`: a path (any text).
    Filename {
        /// The default.
        default: String,
    },
    /// `button`: no value; setting it triggers an action.
    Button,
}

/// One option: its USI name and kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsiOption {
    /// The name `setoption name` uses.
    pub name: String,
    /// Kind, default and limits.
    pub kind: OptionKind,
    /// Accepted by `setoption` but not listed by `usi` (tuning knobs, not for GUIs).
    pub hidden: bool,
}

/// Why a `setoption` value was refused (the option keeps its value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// A `spin` value that is not an integer.
    NotANumber {
        /// The option.
        name: String,
        /// The text given.
        value: String,
    },
    /// A `spin` value outside the declared range.
    OutOfRange {
        /// The option.
        name: String,
        /// The value given.
        value: i64,
        /// The declared minimum.
        min: i64,
        /// The declared maximum.
        max: i64,
    },
    /// A `check` value other than `true`/`false`, or a `combo` value not among its vars.
    NotAllowed {
        /// The option.
        name: String,
        /// The text given.
        value: String,
        /// What is accepted.
        allowed: Vec<String>,
    },
    /// A value the option's own rule refuses (beyond its declared type and range).
    Rejected {
        /// The option.
        name: String,
        /// Why.
        reason: String,
    },
}

impl OptionError {
    /// A value of option `name` refused for `reason`.
    pub fn rejected(name: &str, reason: impl Into<String>) -> OptionError {
        OptionError::Rejected {
            name: name.to_string(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option {n:?}"),
            OptionError::NotANumber { name, value } => {
                write!(f, "option {name}: {value:?} is not an integer")
            }
            OptionError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(f, "option {name}: {value} is outside {min}..={max}"),
            OptionError::NotAllowed {
                name,
                value,
                allowed,
            } => write!(
                f,
                "option {name}: {value:?} is not one of {}",
                allowed.join(", ")
            ),
            OptionError::Rejected { name, reason } => write!(f, "option {name}: {reason}"),
        }
    }
}

impl std::error::Error for OptionError {}

impl UsiOption {
    /// A `check` option.
    pub fn check(name: &str, default: bool) -> UsiOption {
        UsiOption::new(name, OptionKind::Check { default })
    }

    /// A `spin` option; `default` should lie in `min..=max`.
    pub fn spin(name: &str, default: i64, min: i64, max: i64) -> UsiOption {
        UsiOption::new(name, OptionKind::Spin { default, min, max })
    }

    /// A `combo` option; `default` should be one of `vars`.
    pub fn combo(name: &str, default: &str, vars: &[&str]) -> UsiOption {
        UsiOption::new(
            name,
            OptionKind::Combo {
                default: default.to_string(),
                vars: vars.iter().map(|v| v.to_string()).collect(),
            },
        )
    }

    /// A `string` option.
    pub fn string(name: &str, default: &str) -> UsiOption {
        UsiOption::new(
            name,
            OptionKind::String {
                default: default.to_string(),
            },
        )
    }

    /// A `filename` option.
    pub fn filename(name: &str, default: &str) -> UsiOption {
        UsiOption::new(
            name,
            OptionKind::Filename {
                default: default.to_string(),
            },
        )
    }

    fn new(name: &str, kind: OptionKind) -> UsiOption {
        UsiOption {
            name: name.to_string(),
            kind,
            hidden: false,
        }
    }

    /// The same option, accepted by `setoption` but not listed by `usi`.
    pub fn hidden(mut self) -> UsiOption {
        self.hidden = true;
        self
    }

    /// The default value as `setoption` would send it (empty for a button).
    pub fn default_value(&self) -> String {
        match &self.kind {
            OptionKind::Check { default } => default.to_string(),
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Combo { default, .. }
            | OptionKind::String { default }
            | OptionKind::Filename { default } => default.clone(),
            OptionKind::Button => String::new(),
        }
    }

    /// The declaration after `option name <name> `: `type spin default 1 min 1 max 256`.
    pub fn declaration(&self) -> String {
        match &self.kind {
            OptionKind::Check { default } => format!("type check default {default}"),
            OptionKind::Spin { default, min, max } => {
                format!("type spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                format!("type combo default {default} {}", vars.join(" "))
            }
            OptionKind::String { default } => format!("type string default {}", or_empty(default)),
            OptionKind::Filename { default } => {
                format!("type filename default {}", or_empty(default))
            }
            OptionKind::Button => "type button".to_string(),
        }
    }

    /// Checks `value` against the kind and returns it in canonical form (a `spin` as a plain
    /// integer, a `check` as `true`/`false`, a `combo` as its var's spelling).
    ///
    /// # Errors
    /// An [`OptionError`] when the value does not fit; the option should then keep its value.
    pub fn validate(&self, value: &str) -> Result<String, OptionError> {
        let v = value.trim();
        let not_allowed = |allowed: Vec<String>| OptionError::NotAllowed {
            name: self.name.clone(),
            value: v.to_string(),
            allowed,
        };
        match &self.kind {
            OptionKind::Check { .. } => match v.to_ascii_lowercase().as_str() {
                "true" => Ok("true".into()),
                "false" => Ok("false".into()),
                _ => Err(not_allowed(vec!["true".into(), "false".into()])),
            },
            OptionKind::Spin { min, max, .. } => {
                let n: i64 = v.parse().map_err(|_| OptionError::NotANumber {
                    name: self.name.clone(),
                    value: v.to_string(),
                })?;
                if n < *min || n > *max {
                    return Err(OptionError::OutOfRange {
                        name: self.name.clone(),
                        value: n,
                        min: *min,
                        max: *max,
                    });
                }
                Ok(n.to_string())
            }
            OptionKind::Combo { vars, .. } => vars
                .iter()
                .find(|var| var.eq_ignore_ascii_case(v))
                .cloned()
                .ok_or_else(|| not_allowed(vars.clone())),
            OptionKind::String { .. } | OptionKind::Filename { .. } => Ok(v.to_string()),
            OptionKind::Button => Ok(String::new()),
        }
    }
}

/// USI cannot declare an empty default: `<empty>` stands for it.
fn or_empty(s: &str) -> &str {
    if s.is_empty() { "<empty>" } else { s }
}

/// Finds `name` in `table` (USI option names are case-insensitive in practice: GUIs differ).
pub fn find<'a>(table: &'a [UsiOption], name: &str) -> Option<&'a UsiOption> {
    table
        .iter()
        .find(|o| o.name == name)
        .or_else(|| table.iter().find(|o| o.name.eq_ignore_ascii_case(name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_usi_text() {
        assert_eq!(
            UsiOption::spin("Threads", 1, 1, 256).declaration(),
            "type spin default 1 min 1 max 256"
        );
        assert_eq!(
            UsiOption::combo("EvalType", "kkpee9", &["kkpee9", "nnue"]).declaration(),
            "type combo default kkpee9 var kkpee9 var nnue"
        );
        assert_eq!(
            UsiOption::string("DNN_Model", "").declaration(),
            "type string default <empty>"
        );
        assert_eq!(
            UsiOption::check("USI_Ponder", true).declaration(),
            "type check default true"
        );
    }

    #[test]
    fn values_are_checked_against_the_kind() {
        let spin = UsiOption::spin("USI_Hash", 256, 1, 65536);
        assert_eq!(spin.validate(" 16 "), Ok("16".into()));
        assert_eq!(
            spin.validate("65537"),
            Err(OptionError::OutOfRange {
                name: "USI_Hash".into(),
                value: 65537,
                min: 1,
                max: 65536
            })
        );
        assert!(matches!(
            spin.validate("many"),
            Err(OptionError::NotANumber { .. })
        ));
        assert!(matches!(
            spin.validate("99999999999999999999"),
            Err(OptionError::NotANumber { .. })
        ));
        let check = UsiOption::check("USI_Ponder", true);
        assert_eq!(check.validate("False"), Ok("false".into()));
        assert!(check.validate("yes").is_err());
        let combo = UsiOption::combo("EvalType", "kkpee9", &["kkpee9", "nnue"]);
        assert_eq!(combo.validate("NNUE"), Ok("nnue".into()));
        assert!(combo.validate("dl").is_err());
        let table = [spin, check, combo];
        assert_eq!(
            find(&table, "usi_hash").map(|o| o.name.as_str()),
            Some("USI_Hash")
        );
        assert!(find(&table, "Hash").is_none());
    }
}
