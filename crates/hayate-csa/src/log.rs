//! One log line per event, UTC-timestamped, to stderr or (in tests) to memory. Plain text on
//! purpose: the client runs unattended and its log is read with `grep`.

use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

/// Where log lines go.
#[derive(Clone, Debug, Default)]
pub struct Log {
    memory: Option<Arc<Mutex<Vec<String>>>>,
}

impl Log {
    /// Logs to stderr.
    pub fn stderr() -> Log {
        Log { memory: None }
    }

    /// Logs to memory (and not to stderr); returns the log and its lines.
    pub fn memory() -> (Log, Arc<Mutex<Vec<String>>>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        (
            Log {
                memory: Some(lines.clone()),
            },
            lines,
        )
    }

    /// Writes one line.
    pub fn line(&self, msg: impl AsRef<str>) {
        let text = format!("{} {}", utc_now(), msg.as_ref());
        match &self.memory {
            Some(m) => {
                if let Ok(mut v) = m.lock() {
                    v.push(text);
                }
            }
            None => eprintln!("{text}"),
        }
    }
}

/// `YYYY-MM-DDThh:mm:ss.mmmZ` for now.
pub fn utc_now() -> String {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let (date, time) = civil(d.as_secs());
    format!("{date}T{time}.{:03}Z", d.subsec_millis())
}

/// `YYYY/MM/DD hh:mm:ss` (the CSA record's `$START_TIME` form) for now, UTC.
pub fn csa_time_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let (date, time) = civil(secs);
    format!("{} {time}", date.replace('-', "/"))
}

/// (`YYYY-MM-DD`, `hh:mm:ss`) of a Unix time (days-to-civil, proleptic Gregorian).
fn civil(secs: u64) -> (String, String) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        format!("{year:04}-{month:02}-{day:02}"),
        format!("{:02}:{:02}:{:02}", rem / 3600, rem % 3600 / 60, rem % 60),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil(0), ("1970-01-01".into(), "00:00:00".into()));
        // 2026-11-21 09:51:39 UTC (the basic transcript's game id time).
        assert_eq!(
            civil(1_795_254_699),
            ("2026-11-21".into(), "09:51:39".into())
        );
        assert_eq!(civil(951_782_400), ("2000-02-29".into(), "00:00:00".into()));
    }

    #[test]
    fn memory_log_collects_lines() {
        let (log, lines) = Log::memory();
        log.line("hello");
        let v = lines.lock().unwrap();
        assert_eq!(v.len(), 1);
        assert!(v[0].ends_with("Z hello"));
    }
}
