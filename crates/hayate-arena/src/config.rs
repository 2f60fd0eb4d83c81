//! The engines file: which USI engines to run and how.
//!
//! ```toml
//! [[engine]]
//! name = "hayate-material"         # unique; used in results and reports
//! path = "/usr/local/bin/hayate"   # relative paths are taken from the file's folder
//! args = []                        # optional
//! working_dir = "."                # optional (relative to the file's folder)
//! go = "depth 4"                   # optional words appended to every `go`
//! byoyomi = 50                     # optional per-engine time control in ms (time/byoyomi/inc)
//! [engine.options]                 # `setoption` after `usiok`, in file order
//! EvalType = "material"
//! USI_Hash = 16
//! ```

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::clock::TimeControl;

/// One engine as the arena runs it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// Unique name (results, reports and records use it).
    pub name: String,
    /// Program to run.
    pub path: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory (the arena's own when `None`).
    pub working_dir: Option<PathBuf>,
    /// `setoption name N value V` pairs, sent in order after `usiok`.
    pub options: Vec<(String, String)>,
    /// Extra `go` words (`depth 3`, `nodes 10000`), appended after the clock words.
    pub go_extra: String,
    /// This engine's own time control, overriding the match's.
    pub time_control: Option<TimeControl>,
}

impl EngineConfig {
    /// An engine with a name and program and nothing else.
    pub fn new(name: &str, path: impl Into<PathBuf>) -> EngineConfig {
        EngineConfig {
            name: name.to_string(),
            path: path.into(),
            args: Vec::new(),
            working_dir: None,
            options: Vec::new(),
            go_extra: String::new(),
            time_control: None,
        }
    }

    /// Adds a `setoption` (builder style).
    pub fn option(mut self, name: &str, value: &str) -> EngineConfig {
        self.options.push((name.to_string(), value.to_string()));
        self
    }
}

/// What is wrong with an engines file.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The TOML is malformed or has unknown keys.
    #[error("engines file: {0}")]
    Toml(#[from] toml::de::Error),
    /// An option value is not a string, number or boolean.
    #[error("engine {engine:?}: option {option:?} must be a string, number or boolean")]
    OptionValue {
        /// The engine.
        engine: String,
        /// The option.
        option: String,
    },
    /// Two engines share a name.
    #[error("two engines are named {0:?}")]
    DuplicateName(String),
    /// A name is empty or has characters that would break file names or the results file.
    #[error("engine name {0:?} must be non-empty and made of letters, digits, '-', '_', '.', '+'")]
    BadName(String),
    /// No engine at all.
    #[error("the engines file lists no engine")]
    Empty,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRaw {
    #[serde(default)]
    engine: Vec<EngineRaw>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineRaw {
    name: String,
    path: PathBuf,
    #[serde(default)]
    args: Vec<String>,
    working_dir: Option<PathBuf>,
    #[serde(default)]
    options: toml::Table,
    #[serde(default)]
    go: String,
    time: Option<u64>,
    byoyomi: Option<u64>,
    inc: Option<u64>,
}

/// Whether a name is safe in file names, HTML ids and the results file.
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c))
}

/// Parses an engines file's text; relative paths are resolved against `base_dir`.
///
/// # Errors
/// A [`ConfigError`] for malformed TOML, bad option values, bad or duplicate names, no engines.
pub fn parse_engines(text: &str, base_dir: &Path) -> Result<Vec<EngineConfig>, ConfigError> {
    let raw: FileRaw = toml::from_str(text)?;
    if raw.engine.is_empty() {
        return Err(ConfigError::Empty);
    }
    let mut out: Vec<EngineConfig> = Vec::new();
    for e in raw.engine {
        if !is_valid_name(&e.name) {
            return Err(ConfigError::BadName(e.name));
        }
        if out.iter().any(|o| o.name == e.name) {
            return Err(ConfigError::DuplicateName(e.name));
        }
        let mut options = Vec::new();
        for (k, v) in &e.options {
            let value = match v {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(f) => f.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                _ => {
                    return Err(ConfigError::OptionValue {
                        engine: e.name,
                        option: k.clone(),
                    });
                }
            };
            options.push((k.clone(), value));
        }
        let time_control = if e.time.is_some() || e.byoyomi.is_some() || e.inc.is_some() {
            Some(TimeControl {
                base_ms: e.time.unwrap_or(0),
                byoyomi_ms: e.byoyomi.unwrap_or(0),
                increment_ms: e.inc.unwrap_or(0),
            })
        } else {
            None
        };
        let resolve = |p: PathBuf| {
            // A bare program name (no separator) is looked up on PATH by the OS, as a shell would.
            if p.is_relative() && p.components().count() > 1 {
                base_dir.join(p)
            } else {
                p
            }
        };
        out.push(EngineConfig {
            name: e.name,
            path: resolve(e.path),
            args: e.args,
            working_dir: e
                .working_dir
                .map(|d| if d.is_relative() { base_dir.join(d) } else { d }),
            options,
            go_extra: e.go.trim().to_string(),
            time_control,
        });
    }
    Ok(out)
}

/// Reads an engines file.
///
/// # Errors
/// [`ConfigError::Io`] when it cannot be read, else as [`parse_engines`].
pub fn load_engines(path: &Path) -> Result<Vec<EngineConfig>, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let base = path.parent().unwrap_or(Path::new("."));
    parse_engines(&text, base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_engines_with_options_in_order() {
        let text = r#"
[[engine]]
name = "mat"
path = "bin/hayate"
go = "depth 3"
[engine.options]
EvalType = "material"
USI_Hash = 16
USI_Ponder = false

[[engine]]
name = "kk"
path = "hayate"
byoyomi = 50
"#;
        let e = parse_engines(text, Path::new("/x")).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].path, PathBuf::from("/x/bin/hayate"));
        assert_eq!(e[1].path, PathBuf::from("hayate"));
        assert_eq!(e[0].go_extra, "depth 3");
        assert_eq!(
            e[0].options,
            vec![
                ("EvalType".to_string(), "material".to_string()),
                ("USI_Hash".to_string(), "16".to_string()),
                ("USI_Ponder".to_string(), "false".to_string()),
            ]
        );
        assert_eq!(e[1].time_control, Some(TimeControl::byoyomi(50)));
    }

    #[test]
    fn the_example_file_parses() {
        let e = parse_engines(
            include_str!("../data/engines.example.toml"),
            Path::new("/x"),
        )
        .unwrap();
        assert_eq!(e.len(), 3);
        assert_eq!(e[2].go_extra, "depth 4");
        assert_eq!(e[2].time_control, Some(TimeControl::byoyomi(1000)));
    }

    #[test]
    fn the_nnue_gate_example_parses() {
        let dir = Path::new("/repo/crates/hayate-arena/data");
        let e = parse_engines(include_str!("../data/gate-nnue.example.toml"), dir).unwrap();
        let names: Vec<&str> = e.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["nnue", "material", "kkpee9"]);
        assert_eq!(e[0].path, dir.join("../../../target/release/hayate"));
        assert!(
            e[0].options
                .contains(&("EvalFile".to_string(), "runs/nnue1/nn.bin".to_string()))
        );
    }

    #[test]
    fn rejects_bad_files() {
        let dup = "[[engine]]\nname='a'\npath='x'\n[[engine]]\nname='a'\npath='y'\n";
        assert!(matches!(
            parse_engines(dup, Path::new(".")),
            Err(ConfigError::DuplicateName(_))
        ));
        assert!(matches!(
            parse_engines("", Path::new(".")),
            Err(ConfigError::Empty)
        ));
        assert!(matches!(
            parse_engines("[[engine]]\nname='a b'\npath='x'\n", Path::new(".")),
            Err(ConfigError::BadName(_))
        ));
        assert!(matches!(
            parse_engines("[[engine]]\nname='a'\npath='x'\nbogus=1\n", Path::new(".")),
            Err(ConfigError::Toml(_))
        ));
        assert!(matches!(
            parse_engines(
                "[[engine]]\nname='a'\npath='x'\n[engine.options]\nX=[1]\n",
                Path::new(".")
            ),
            Err(ConfigError::OptionValue { .. })
        ));
    }
}
