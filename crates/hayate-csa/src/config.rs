//! The TOML configuration of `hayate csa` and the settings the client runs with. The password
//! comes from an environment variable or a file, never from the config text itself, and is
//! wrapped in [`Secret`] so that it cannot be printed by accident.

use crate::error::ConfigError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A password: `Debug` and `Display` print `****`; only [`Secret::expose`] gives the text.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a password.
    pub fn new(s: impl Into<String>) -> Secret {
        Secret(s.into())
    }
    /// The password itself, for the `LOGIN` line only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("****")
    }
}

impl std::fmt::Display for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("****")
    }
}

/// The config file as written (`hayate csa --config csa.toml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// Server host name.
    pub host: String,
    /// Server port (4081 for floodgate).
    #[serde(default = "default_port")]
    pub port: u16,
    /// Login name.
    pub id: String,
    /// Name of the environment variable holding the password.
    pub password_env: Option<String>,
    /// File whose first line is the password (relative to the config file's folder).
    pub password_file: Option<PathBuf>,
    /// Games to play; 0 = forever.
    #[serde(default)]
    pub games: u32,
    /// Folder for the CSA records (relative to the config file's folder); none = no records.
    pub record_dir: Option<PathBuf>,
    /// Send `,'* <eval> <pv>` with our moves.
    #[serde(default = "yes")]
    pub floodgate_comment: bool,
    /// Think on the opponent's time.
    #[serde(default)]
    pub ponder: bool,
    /// Seconds of silence before a keep-alive empty line (the spec forbids less than 30).
    #[serde(default = "default_keepalive")]
    pub keepalive_secs: u64,
    /// Milliseconds kept back from our time for network delay.
    #[serde(default = "default_margin")]
    pub margin_ms: u64,
    /// Send `LOGOUT` after each game (plain CSA servers close the socket themselves).
    #[serde(default)]
    pub logout: bool,
    /// Seconds to wait for the server's answer to `LOGIN`, `AGREE` and the summary body.
    #[serde(default = "default_answer_timeout")]
    pub answer_timeout_secs: u64,
    /// Reconnection policy.
    #[serde(default)]
    pub reconnect: ReconnectFile,
    /// Engine settings.
    #[serde(default)]
    pub engine: EngineFile,
}

/// `[reconnect]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReconnectFile {
    /// Reconnect after a dropped connection or a failed game.
    #[serde(default = "yes")]
    pub enabled: bool,
    /// First back-off delay in seconds (doubles each failure).
    #[serde(default = "default_backoff_initial")]
    pub initial_secs: u64,
    /// Longest back-off delay in seconds.
    #[serde(default = "default_backoff_max")]
    pub max_secs: u64,
    /// Give up after this many failures in a row; 0 = never.
    #[serde(default)]
    pub max_attempts: u32,
}

impl Default for ReconnectFile {
    fn default() -> ReconnectFile {
        ReconnectFile {
            enabled: true,
            initial_secs: default_backoff_initial(),
            max_secs: default_backoff_max(),
            max_attempts: 0,
        }
    }
}

/// `[engine]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineFile {
    /// Options given to the player (`set_option(name, value)`), e.g. `Threads = 2`.
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
}

fn default_port() -> u16 {
    4081
}
fn yes() -> bool {
    true
}
fn default_keepalive() -> u64 {
    40
}
fn default_margin() -> u64 {
    1000
}
fn default_answer_timeout() -> u64 {
    60
}
fn default_backoff_initial() -> u64 {
    5
}
fn default_backoff_max() -> u64 {
    300
}

/// When and how to reconnect.
#[derive(Clone, Debug)]
pub struct ReconnectPolicy {
    /// Whether to reconnect at all.
    pub enabled: bool,
    /// First delay.
    pub initial: Duration,
    /// Longest delay.
    pub max: Duration,
    /// Failures in a row before giving up; 0 = never.
    pub max_attempts: u32,
}

impl ReconnectPolicy {
    /// Delay before attempt `n` (1-based) after a failure: `initial * 2^(n-1)`, capped.
    pub fn delay(&self, n: u32) -> Duration {
        let factor = 1u32 << n.saturating_sub(1).min(16);
        self.initial.saturating_mul(factor).min(self.max)
    }
}

/// Everything the client runs with.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Server host.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// Login name.
    pub id: String,
    /// Password (for floodgate: `floodgate-300-10F,<trip>`).
    pub password: Secret,
    /// Games to play; `None` = forever.
    pub games: Option<u32>,
    /// Folder for records.
    pub record_dir: Option<PathBuf>,
    /// Send the floodgate comment.
    pub floodgate_comment: bool,
    /// Ponder on the opponent's time.
    pub ponder: bool,
    /// Silence before a keep-alive.
    pub keepalive: Duration,
    /// Time kept back for the network.
    pub margin: Duration,
    /// Send `LOGOUT` after a game.
    pub logout: bool,
    /// How long to wait for answers (`LOGIN:`, `START:`, the summary body).
    pub answer_timeout: Duration,
    /// Reconnection.
    pub reconnect: ReconnectPolicy,
    /// Player options, in order.
    pub engine_options: Vec<(String, String)>,
}

impl Settings {
    /// Settings with defaults for everything but the server and login.
    pub fn new(host: &str, port: u16, id: &str, password: Secret) -> Settings {
        Settings {
            host: host.to_string(),
            port,
            id: id.to_string(),
            password,
            games: Some(1),
            record_dir: None,
            floodgate_comment: true,
            ponder: false,
            keepalive: Duration::from_secs(default_keepalive()),
            margin: Duration::from_millis(default_margin()),
            logout: false,
            answer_timeout: Duration::from_secs(default_answer_timeout()),
            reconnect: ReconnectPolicy {
                enabled: true,
                initial: Duration::from_secs(default_backoff_initial()),
                max: Duration::from_secs(default_backoff_max()),
                max_attempts: 0,
            },
            engine_options: Vec::new(),
        }
    }

    /// Reads and resolves a config file; `env` looks up environment variables (injected so
    /// tests need not touch the process environment).
    ///
    /// # Errors
    /// A [`ConfigError`] for an unreadable file, bad TOML, unknown keys or no usable password.
    pub fn load(
        path: &Path,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Settings, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.display().to_string(),
            source,
        })?;
        let base = path.parent().unwrap_or(Path::new("."));
        Settings::from_toml(&text, base, env)
    }

    /// Resolves config text; relative paths are taken from `base`.
    ///
    /// # Errors
    /// As [`Settings::load`].
    pub fn from_toml(
        text: &str,
        base: &Path,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Settings, ConfigError> {
        let file: ConfigFile =
            toml::from_str(text).map_err(|e| ConfigError::Toml(e.to_string()))?;
        let password = match (&file.password_env, &file.password_file) {
            (Some(_), Some(_)) => {
                return Err(ConfigError::Password(
                    "give password_env or password_file, not both".into(),
                ));
            }
            (Some(var), None) => env(var).ok_or_else(|| {
                ConfigError::Password(format!("environment variable {var} is not set"))
            })?,
            (None, Some(f)) => {
                let p = base.join(f);
                let text = std::fs::read_to_string(&p).map_err(|e| {
                    ConfigError::Password(format!("cannot read {}: {e}", p.display()))
                })?;
                text.lines().next().unwrap_or("").trim().to_string()
            }
            (None, None) => {
                return Err(ConfigError::Password(
                    "set password_env (an environment variable) or password_file".into(),
                ));
            }
        };
        if password.is_empty() || password.contains(char::is_whitespace) {
            return Err(ConfigError::Password(
                "the password is empty or contains spaces".into(),
            ));
        }
        if file.id.is_empty()
            || file.id.len() > 32
            || !file
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-@.".contains(c))
        {
            return Err(ConfigError::Value(format!(
                "id `{}`: 1 to 32 of letters, digits, _ - @ .",
                file.id
            )));
        }
        if file.host.is_empty() {
            return Err(ConfigError::Value("host is empty".into()));
        }
        let mut engine_options = Vec::new();
        for (name, value) in file.engine.options {
            let v = match value {
                toml::Value::String(s) => s,
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Float(f) => f.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => {
                    return Err(ConfigError::Value(format!(
                        "engine option {name}: unsupported value {other:?}"
                    )));
                }
            };
            engine_options.push((name, v));
        }
        Ok(Settings {
            host: file.host,
            port: file.port,
            id: file.id,
            password: Secret(password),
            games: (file.games > 0).then_some(file.games),
            record_dir: file.record_dir.map(|d| base.join(d)),
            floodgate_comment: file.floodgate_comment,
            ponder: file.ponder,
            keepalive: Duration::from_secs(file.keepalive_secs.max(1)),
            margin: Duration::from_millis(file.margin_ms),
            logout: file.logout,
            answer_timeout: Duration::from_secs(file.answer_timeout_secs.max(1)),
            reconnect: ReconnectPolicy {
                enabled: file.reconnect.enabled,
                initial: Duration::from_secs(file.reconnect.initial_secs),
                max: Duration::from_secs(file.reconnect.max_secs.max(file.reconnect.initial_secs)),
                max_attempts: file.reconnect.max_attempts,
            },
            engine_options,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"
host = "wdoor.c.u-tokyo.ac.jp"
port = 4081
id = "hayate_test"
password_env = "HAYATE_CSA_PASSWORD"
games = 3
record_dir = "records"
ponder = true

[reconnect]
initial_secs = 2
max_secs = 60
max_attempts = 10

[engine.options]
Threads = 2
USI_Hash = "256"
"#;

    fn env(name: &str) -> Option<String> {
        (name == "HAYATE_CSA_PASSWORD").then(|| "floodgate-300-10F,secrettrip".to_string())
    }

    #[test]
    fn reads_the_example_config() {
        let s = Settings::from_toml(EXAMPLE, Path::new("/cfg"), &env).unwrap();
        assert_eq!(s.host, "wdoor.c.u-tokyo.ac.jp");
        assert_eq!(s.port, 4081);
        assert_eq!(s.games, Some(3));
        assert_eq!(s.record_dir, Some(PathBuf::from("/cfg/records")));
        assert!(s.ponder && s.floodgate_comment && !s.logout);
        assert_eq!(s.keepalive, Duration::from_secs(40));
        assert_eq!(s.password.expose(), "floodgate-300-10F,secrettrip");
        assert_eq!(
            s.engine_options,
            vec![
                ("Threads".into(), "2".into()),
                ("USI_Hash".into(), "256".into())
            ]
        );
        assert_eq!(s.reconnect.delay(1), Duration::from_secs(2));
        assert_eq!(s.reconnect.delay(3), Duration::from_secs(8));
        assert_eq!(s.reconnect.delay(30), Duration::from_secs(60));
    }

    #[test]
    fn the_password_is_never_printed() {
        let s = Settings::from_toml(EXAMPLE, Path::new("."), &env).unwrap();
        let shown = format!("{s:?} {}", s.password);
        assert!(!shown.contains("secrettrip"), "{shown}");
        assert!(shown.contains("****"));
    }

    #[test]
    fn password_from_a_file() {
        let dir = std::env::temp_dir().join(format!("hayate-csa-cfg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("pw"), "floodgate-600-10,xyz\n").unwrap();
        let text = "host = \"h\"\nid = \"me\"\npassword_file = \"pw\"\n";
        let s = Settings::from_toml(text, &dir, &|_| None).unwrap();
        assert_eq!(s.password.expose(), "floodgate-600-10,xyz");
        assert_eq!(s.games, None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_configs_are_clear_errors() {
        let cases = [
            ("host = \"h\"\nid = \"me\"\n", "password"),
            (
                "host = \"h\"\nid = \"me\"\npassword_env = \"NOPE\"\n",
                "NOPE",
            ),
            (
                "host = \"h\"\nid = \"me me\"\npassword_env = \"HAYATE_CSA_PASSWORD\"\n",
                "id",
            ),
            ("host = \"h\"\nid = \"me\"\npasword = \"x\"\n", "pasword"),
            ("host = 3\n", "invalid"),
        ];
        for (text, needle) in cases {
            let err = Settings::from_toml(text, Path::new("."), &env)
                .unwrap_err()
                .to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
