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
    position(table, name).map(|i| &table[i])
}

/// Where [`find`] finds `name` in `table`: an exact match first, then one ignoring case.
fn position(table: &[UsiOption], name: &str) -> Option<usize> {
    table
        .iter()
        .position(|o| o.name == name)
        .or_else(|| table.iter().position(|o| o.name.eq_ignore_ascii_case(name)))
}

/// A `setoption` value checked against its declaration: a `spin`'s integer within its range,
/// a `check`'s truth, the text of the other kinds (a `combo`'s in its var's spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// A `spin` value.
    Int(i64),
    /// A `check` value.
    Bool(bool),
    /// A `combo`, `string` or `filename` value (empty for a button).
    Text(&'a str),
}

impl Value<'_> {
    /// The integer of a `spin` (0 for another kind).
    pub fn int(self) -> i64 {
        if let Value::Int(n) = self { n } else { 0 }
    }

    /// The truth of a `check` (false for another kind).
    pub fn bool(self) -> bool {
        self == Value::Bool(true)
    }

    /// The text of a `combo`, `string` or `filename` (empty for another kind).
    pub fn text(&self) -> &str {
        if let Value::Text(t) = self { t } else { "" }
    }
}

/// One option bound to the state `T` it sets: `declare` makes its declaration with `T`'s
/// current value as the default (what `usi` lists), `apply` stores a value already checked
/// against that declaration (with any scale the field needs). A player declares its options as
/// one slice of these, so what `usi` lists and what `setoption` accepts and sets cannot drift
/// apart: the name, the range and the field are written once.
pub struct Binding<T> {
    /// The declaration, `T`'s current value as its default.
    pub declare: fn(&T) -> UsiOption,
    /// Stores a checked value; an error leaves `T` as it was.
    pub apply: fn(&mut T, Value<'_>) -> Result<(), OptionError>,
}

/// A [`Binding`] whose `apply` cannot fail:
/// `bind_option!(|o| UsiOption::spin("Threads", o.threads as i64, 1, 256), |o, v| o.threads = v.int() as usize)`.
#[macro_export]
macro_rules! bind_option {
    ($declare:expr, |$o:pat_param, $v:pat_param| $apply:expr) => {
        $crate::usi_option::Binding {
            declare: $declare,
            apply: |$o, $v| {
                $apply;
                Ok(())
            },
        }
    };
}

/// The [`Binding`] of an integer field as a `spin` option, the field written once:
/// `spin_option!("Threads", o => o.threads, 1, 256)` (any integer type).
#[macro_export]
macro_rules! spin_option {
    ($name:expr, $o:ident => $place:expr, $min:expr, $max:expr) => {
        $crate::bind_option!(
            |$o| $crate::usi_option::UsiOption::spin($name, $place as i64, $min, $max),
            |$o, v| $place = v.int() as _
        )
    };
}

/// The [`Binding`] of a `bool` field as a `check` option:
/// `check_option!("ReuseSubtree", m => m.params.reuse_subtree)`.
#[macro_export]
macro_rules! check_option {
    ($name:expr, $o:ident => $place:expr) => {
        $crate::bind_option!(
            |$o| $crate::usi_option::UsiOption::check($name, $place),
            |$o, v| $place = v.bool()
        )
    };
}

/// The declarations of `table` with `state`'s current values as defaults.
pub fn declare_all<T>(table: &[Binding<T>], state: &T) -> Vec<UsiOption> {
    table.iter().map(|b| (b.declare)(state)).collect()
}

/// Sets option `name` (found as [`find`] does) of `table` on `state` from its USI text, checked
/// against its declaration first.
///
/// # Errors
/// The option is unknown, the value does not fit the declaration, or `apply` refuses it.
pub fn set_bound<T>(
    table: &[Binding<T>],
    state: &mut T,
    name: &str,
    value: &str,
) -> Result<(), OptionError> {
    let declared = declare_all(table, state);
    let at = position(&declared, name).ok_or_else(|| OptionError::Unknown(name.into()))?;
    let decl = &declared[at];
    let text = decl.validate(value)?;
    let value = match decl.kind {
        // Validated: an integer within the range, `true` or `false`.
        OptionKind::Spin { .. } => Value::Int(text.parse().unwrap_or_default()),
        OptionKind::Check { .. } => Value::Bool(text == "true"),
        _ => Value::Text(&text),
    };
    (table[at].apply)(state, value)
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

    struct Knobs {
        hash_mb: u64,
        temperature: f32,
        ponder: bool,
        backend: String,
    }

    const KNOBS: &[Binding<Knobs>] = &[
        Binding {
            declare: |k| UsiOption::spin("USI_Hash", k.hash_mb as i64, 1, 1024),
            apply: |k, v| {
                k.hash_mb = v.int() as u64;
                Ok(())
            },
        },
        Binding {
            declare: |k| UsiOption::spin("Temperature", (k.temperature * 100.0) as i64, 1, 500),
            apply: |k, v| {
                k.temperature = v.int() as f32 / 100.0;
                Ok(())
            },
        },
        Binding {
            declare: |k| UsiOption::check("USI_Ponder", k.ponder),
            apply: |k, v| {
                k.ponder = v.bool();
                Ok(())
            },
        },
        Binding {
            declare: |k| UsiOption::combo("Backend", &k.backend, &["tract", "ort", "gpu"]),
            apply: |k, v| {
                if v.text() == "gpu" {
                    return Err(OptionError::rejected("Backend", "no GPU here"));
                }
                k.backend = v.text().to_string();
                Ok(())
            },
        },
    ];

    #[test]
    fn a_bound_table_lists_current_values_and_sets_checked_ones() {
        let mut k = Knobs {
            hash_mb: 16,
            temperature: 1.0,
            ponder: true,
            backend: "tract".into(),
        };
        set_bound(KNOBS, &mut k, "usi_hash", " 64").expect("in range");
        set_bound(KNOBS, &mut k, "Temperature", "150").expect("in range");
        set_bound(KNOBS, &mut k, "USI_Ponder", "False").expect("a check");
        set_bound(KNOBS, &mut k, "Backend", "ORT").expect("a var");
        assert_eq!((k.hash_mb, k.temperature, k.ponder), (64, 1.5, false));
        assert_eq!(k.backend, "ort");
        let shown: Vec<String> = declare_all(KNOBS, &k)
            .iter()
            .map(|o| format!("{} {}", o.name, o.default_value()))
            .collect();
        assert_eq!(
            shown,
            [
                "USI_Hash 64",
                "Temperature 150",
                "USI_Ponder false",
                "Backend ort"
            ]
        );
        assert!(matches!(
            set_bound(KNOBS, &mut k, "USI_Hash", "1025"),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            set_bound(KNOBS, &mut k, "Backend", "gpu"),
            Err(OptionError::Rejected { .. })
        ));
        assert!(matches!(
            set_bound(KNOBS, &mut k, "Hash", "1"),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(
            (k.hash_mb, k.backend.as_str()),
            (64, "ort"),
            "errors change nothing"
        );
    }
}
